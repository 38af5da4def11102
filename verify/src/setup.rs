//! What a verification (or a plain run) executes a shader on: a surface per image, its
//! view and initial contents, buffers, push constants, the dispatch size and the
//! subgroup size ([`Setup`]), and how to turn that into an executor [`Memory`].
//!
//! [`Setup::default_for`] picks small surfaces that still exercise what the lowering
//! must get right: several mip levels (views of a level other than 0 have a non-zero
//! origin), array layers (qpitch), a tiling drawn from the ones a storage image may have
//! on the platform (`Device::storage_tilings_for`: isl's rules within the driver's
//! policy, what the untyped path's address code covers; a static layout's tiling where
//! the declaration has one), bit-6 swizzling where IVB/HSW apply it, every level from
//! the base level in the views of sampled images (storage views have one), texels
//! filled with a seeded pattern of valid values, and a grid a little larger than the
//! largest image so that some accesses fall outside it.
//!
//! Each image is bound with the surface-state format the lowering asks for
//! ([`lowering::LowerReport::bindings`]): the lowered typed format, the view format for
//! format-less images, or a raw UINT format of the texel size for raw views. Images the
//! report does not list are bound as the lowering would bind them
//! ([`expected_surface_format`]).
//!
//! **Global memory.** A shader reaches global memory (`load_global`, `store_global`,
//! `global_atomic`, the global side of a group async copy) through 64-bit pointers
//! it loads from a slot: the push constants, a uniform or storage buffer, or a global
//! allocation another slot points to, at a constant place ([`crate::pointers`]). The
//! default setup gives each slot its own global allocation ([`GlobalSetup`],
//! [`DEFAULT_GLOBAL_BYTES`] bytes filled with a seeded pattern), and
//! [`Setup::build_memory`] writes the allocation's base address into the slot. Both runs
//! of a verification get the same allocations at the same addresses, and every byte of
//! them is compared afterwards like a buffer's (a mismatch names the allocation,
//! `global (push constant 0x8)`, and the byte offset). A 64-bit push constant that is
//! not a pointer gets an address as its value too; a shader that builds a pointer from
//! two 32-bit halves, or reads it at a dynamic offset, gets none (its accesses then fall
//! outside every allocation). Shared local memory ends with its workgroup and is not
//! compared: a shader whose result is in shared memory copies it out to be checked.

pub use crate::buffers::{
    BufferKind, BufferSetup, DEFAULT_RUNTIME_ELEMENTS, DEFAULT_SSBO_BYTES, DEFAULT_UBO_BYTES,
};
pub use crate::contents::{
    fill_image, pattern_bytes, texel_positions, valid_raw, Fill, SeedRng, TexelPos,
};
use crate::memory::{AllocId, Memory};
pub use crate::pointers::PointerHome;
use crate::sampler_state::SamplerState;
use ir::{Format, ImageDecl, ImageDim, IndexKind, IntrinsicOp, Shader};
use lowering::format::isl_format;
use lowering::{Device, SurfaceFormat};
use std::fmt;
use tiling::{Bit6Swizzle, SurfDim, Surface, SurfaceDesc, Tiling, Usage};

/// Default extents of [`Setup::default_for`]: 1D and 2D width.
pub const DEFAULT_WIDTH: u32 = 37;
/// Default height of 2D images.
pub const DEFAULT_HEIGHT: u32 = 19;
/// Default mip levels of 1D, 2D and 3D images.
pub const DEFAULT_LEVELS: u32 = 3;
/// Default array layers of 1D and 2D arrays.
pub const DEFAULT_LAYERS: u32 = 4;
/// Default 3D extent.
pub const DEFAULT_3D: [u32; 3] = [9, 7, 5];
/// Default cube face size.
pub const DEFAULT_CUBE: u32 = 8;
/// Default samples per texel of multisampled images.
pub const DEFAULT_SAMPLES: u32 = 4;
/// Default number of texels of buffer images.
pub const DEFAULT_BUFFER_TEXELS: u64 = 300;
/// Default size of the push constants, in bytes.
pub const DEFAULT_PUSH_BYTES: usize = 256;
/// Default size of each global allocation a push-constant pointer points to, in bytes.
pub const DEFAULT_GLOBAL_BYTES: usize = 64 * 1024;
/// Default number of mismatches a report lists.
pub const DEFAULT_REPORT_LIMIT: usize = 20;
/// The most image elements (array elements counted one by one) a setup binds: each is
/// a surface of its own, laid out and filled, so a shader declaring millions would
/// take hours to set up rather than fail.
pub const MAX_IMAGE_ELEMENTS: u64 = 1024;
/// The most bytes [`Setup::build_memory`] allocates (surfaces, texel buffers, SSBOs,
/// UBOs, global allocations and push constants together, for one memory; a
/// verification builds two): 256 MiB, far beyond the default setup's few hundred KiB,
/// but small enough to fail cleanly instead of exhausting the host's memory.
pub const MAX_MEMORY_BYTES: u64 = 1 << 28;

/// The part of a surface the shader sees (isl's view, without the format).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ViewRange {
    /// The first level of the view.
    pub base_level: u32,
    /// Levels of the view from `base_level` (ISL's `isl_view::levels`): 1 for storage
    /// views; a sampled view may have more.
    pub level_count: u32,
    /// First array layer (cube face, 3D slice).
    pub base_layer: u32,
    /// Layers (3D: slices) of the view at its base level.
    pub layer_count: u32,
}

/// How an image's memory is laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageLayout {
    /// A laid-out surface.
    Surface {
        /// The surface (generation, dimensionality, format, tiling, extent, levels,
        /// layers). Its format must have the texel size of the view format.
        desc: SurfaceDesc,
        /// The view.
        view: ViewRange,
        /// Whether bit-6 swizzling applies (IVB/HSW X and Y surfaces only).
        bit6_swizzle: Bit6Swizzle,
    },
    /// A texel buffer.
    Buffer {
        /// Number of texels.
        elements: u64,
    },
}

/// One bound image (one element of a descriptor array).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageSetup {
    /// The declaration's name, without `@`.
    pub image: String,
    /// The descriptor-array element (0 for images that are not arrays).
    pub element: u32,
    /// The view format in the shader's terms: the declaration's format, or for
    /// format-less declarations the format of the bound view.
    pub format: Format,
    /// The layout.
    pub layout: ImageLayout,
    /// The initial contents.
    pub fill: Fill,
}

/// One global allocation, reached through a pointer the shader loads from a slot (see
/// the module documentation and [`crate::pointers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalSetup {
    /// Where the 64-bit pointer is: the push constants, a buffer, or an earlier global
    /// allocation (an index into [`Setup::globals`]).
    pub home: PointerHome,
    /// The byte offset of the pointer there (a multiple of 8).
    pub offset: u32,
    /// Bytes allocated.
    pub size: usize,
    /// The initial contents: [`Fill::Zero`], [`Fill::Pattern`] (random bytes from the
    /// seed), [`Fill::Gradient`] (the little-endian dword at byte `4k` holds `k`) or
    /// [`Fill::Bytes`] (exactly `size` bytes).
    pub fill: Fill,
}

impl GlobalSetup {
    /// The allocation's name in reports, after its pointer's slot: `global (push
    /// constant 0x8)`, `global (ubo 1 byte 0x10)`, `global (global 0 byte 0x8)`.
    pub fn name(&self) -> String {
        match self.home {
            PointerHome::PushConstants => format!("global (push constant {:#x})", self.offset),
            PointerHome::Ubo(b) => format!("global (ubo {b} byte {:#x})", self.offset),
            PointerHome::Ssbo(b) => format!("global (ssbo {b} byte {:#x})", self.offset),
            PointerHome::Global(k) => format!("global (global {k} byte {:#x})", self.offset),
        }
    }

    /// The initial bytes.
    pub fn initial_bytes(&self) -> Result<Vec<u8>, String> {
        Ok(match &self.fill {
            Fill::Zero => vec![0; self.size],
            Fill::Pattern(seed) => pattern_bytes(*seed, self.size),
            Fill::Gradient => (0..self.size)
                .map(|i| ((i / 4) as u32).to_le_bytes()[i % 4])
                .collect(),
            Fill::Bytes(v) => {
                if v.len() != self.size {
                    return Err(format!(
                        "{} bytes given for an allocation of {} bytes",
                        v.len(),
                        self.size
                    ));
                }
                v.clone()
            }
        })
    }
}

/// Everything a run needs besides the shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Every image element the shader declares.
    pub images: Vec<ImageSetup>,
    /// The buffers.
    pub buffers: Vec<BufferSetup>,
    /// The global allocations whose addresses the push constants pass.
    pub globals: Vec<GlobalSetup>,
    /// The push constants.
    pub push_constants: Vec<u8>,
    /// Workgroups in x, y, z.
    pub grid: [u32; 3],
    /// Lanes per subgroup (1 to 32).
    pub subgroup_size: u32,
    /// The step budget of each subgroup's run ([`ir::interp::Config::max_steps`]).
    pub max_steps: u64,
    /// The surfaces the lowering asks the driver to bind (its report's `bindings`);
    /// images not listed are bound with [`expected_surface_format`].
    pub bindings: Vec<lowering::ImageBinding>,
    /// How many mismatches a verification report lists (all are counted).
    pub report_limit: usize,
    /// The sampler states of `sampler` declarations, by name; a declared sampler not
    /// listed gets the default state ([`crate::sampler_state`]).
    pub samplers: Vec<(String, crate::sampler_state::SamplerState)>,
}

/// Why a setup cannot be made or bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The image or buffer concerned (`@img`, `@img[2]`, `ssbo 1`), if any.
    pub what: Option<String>,
    /// Why.
    pub reason: String,
}

impl SetupError {
    fn new(what: Option<String>, reason: impl Into<String>) -> SetupError {
        SetupError {
            what,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.what {
            Some(w) => write!(f, "{w}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for SetupError {}

/// The label of an image element in messages: `@img`, or `@img[2]` for arrays.
pub fn image_label(decl: &ImageDecl, element: u32) -> String {
    match decl.count {
        Some(_) => format!("@{}[{element}]", decl.name),
        None => format!("@{}", decl.name),
    }
}

/// The raw UINT surface format of a texel of `bits` bits (the raw buffer view the
/// untyped path reads through).
pub fn raw_surface_format(bits: u32) -> Option<tiling::Format> {
    let name = match bits {
        8 => "R8_UINT",
        16 => "R16_UINT",
        32 => "R32_UINT",
        64 => "R32G32_UINT",
        128 => "R32G32B32A32_UINT",
        _ => return None,
    };
    tiling::Format::from_name(name).ok()
}

/// The surface the lowering binds an image with when its report does not say (Mesa's
/// choice, `docs/hardware/mesa-storage-images.md` §2, §3, §10): the view format for format-less images, the
/// image format for write-only images (the hardware converts stores), otherwise the
/// lowered storage format, or the raw format where no typed format matches.
pub fn expected_surface_format(decl: &ImageDecl, device: &Device) -> SurfaceFormat {
    if decl.format == Format::None {
        return SurfaceFormat::ViewFormat;
    }
    let is_r64 = matches!(decl.format, Format::R64Uint | Format::R64Sint);
    if decl.access.contains(ir::Access::NON_READABLE) && !is_r64 {
        return SurfaceFormat::Typed(decl.format);
    }
    match lowering::storage_access(device, decl.format) {
        Ok(lowering::StorageAccess::Typed(f)) => SurfaceFormat::Typed(f),
        _ => SurfaceFormat::Raw,
    }
}

/// The surface dimensionality of an image dimension (cubes are 2D arrays).
pub fn surf_dim(dim: ImageDim) -> Option<SurfDim> {
    lowering::address::surface_dim(dim)
}

/// The sampler indices `shader` reads integer textures with (`txl` of `dest_type`
/// int32 or uint32, or the `sample_l` it lowers to): Vulkan filters no integer format,
/// so their samplers must not filter.
fn unfiltered_samplers(shader: &Shader) -> Vec<u32> {
    let mut out = Vec::new();
    for func in &shader.functions {
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            let integer = intr
                .index(IndexKind::DestType)
                .and_then(ir::AluType::from_index)
                .is_some_and(|t| t.base != ir::BaseType::Float);
            if matches!(intr.op, IntrinsicOp::Txl | IntrinsicOp::SamplerSampleL) && integer {
                out.extend(intr.index(IndexKind::Sampler));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The sampled type of format-less image `image` of `shader` (SPIR-V's `Sampled Type` of
/// its `Unknown`-format image type): the base type of the first `dest_type` or
/// `src_type` of an access to it, `None` when nothing names one.
pub fn sampled_type(shader: &Shader, image: usize) -> Option<ir::BaseType> {
    for func in &shader.functions {
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            if intr.image.map(|r| r.image.index()) != Some(image) {
                continue;
            }
            let ty = intr
                .index(IndexKind::DestType)
                .or_else(|| intr.index(IndexKind::SrcType))
                .and_then(ir::AluType::from_index);
            if let Some(t) = ty {
                return Some(t.base);
            }
        }
    }
    None
}

/// The view formats `ir-opt verify` binds a format-less image of sampled type `base`
/// with on `device`, one run each: four, two and one channels of 8, 16 and 32 bits, each
/// converting differently (float: UNORM, half float, float; signed and unsigned
/// integers). An image the shader loads from (`loaded`) takes only those the platform
/// reads typed, as a load without a format is a typed read of the view's format
/// (`lowering::SurfaceFormat::ViewFormat`): the R32 format at least, which every
/// generation with storage images reads. The first is the one a single run (`ir-opt
/// run`, [`Setup::default_for`]) binds.
pub fn formatless_view_formats(
    base: Option<ir::BaseType>,
    device: &Device,
    loaded: bool,
) -> Vec<Format> {
    let all = match base {
        Some(ir::BaseType::Int) => [Format::Rgba8Sint, Format::Rg16Sint, Format::R32Sint],
        Some(ir::BaseType::Uint) => [Format::Rgba8Uint, Format::Rg16Uint, Format::R32Uint],
        _ => [Format::Rgba8Unorm, Format::Rgba16Float, Format::R32Float],
    };
    let readable: Vec<Format> = all
        .into_iter()
        .filter(|&f| !loaded || lowering::format::supports_typed_read(device, f))
        .collect();
    if readable.is_empty() {
        vec![all[2]]
    } else {
        readable
    }
}

/// Whether `shader` loads from storage image `image` (an `image_load` names it; a
/// sampled texture's loads go through the sampler, which reads every format).
pub fn loads_image(shader: &Shader, image: usize) -> bool {
    let sampled = shader
        .images
        .get(image)
        .is_some_and(|d| d.access.contains(ir::Access::SAMPLED));
    !sampled
        && shader.functions.iter().any(|func| {
            func.insts_in_order().into_iter().any(|inst| {
                func.inst(inst).as_intrinsic().is_some_and(|intr| {
                    intr.op == IntrinsicOp::ImageLoad
                        && intr.image.map(|r| r.image.index()) == Some(image)
                })
            })
        })
}

/// What a caller chooses of a setup beyond the seed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// Sizes of storage buffers, `(block, bytes)`, instead of their declarations'
    /// (`--buffer`).
    pub ssbo_sizes: Vec<(u32, u64)>,
    /// View formats of format-less images, `(name without @, format)`, instead of the
    /// first of [`formatless_view_formats`] (`--image @name=FORMAT`).
    pub view_formats: Vec<(String, Format)>,
}

/// The push-constant byte offsets the shader reads 64-bit pointers from (the slots of
/// [`crate::pointers::pointer_slots`] in the push constants), sorted.
pub fn pointer_slots(shader: &Shader) -> Vec<u32> {
    let mut out: Vec<u32> = crate::pointers::pointer_slots(shader)
        .into_iter()
        .filter(|s| s.home == PointerHome::PushConstants)
        .map(|s| s.offset)
        .collect();
    out.sort_unstable();
    out
}

impl Setup {
    /// A setup for every image, buffer and push constant `shader` uses on `device`,
    /// varied by `seed` (the tiling among the storage tilings, the view's base level and
    /// layer, the fill pattern). Seed 0 keeps the views plain (level 0 from layer 0), so
    /// that results are easy to follow by hand; other seeds also view level 1 or start
    /// at layer 1. See the module documentation.
    pub fn default_for(shader: &Shader, device: &Device, seed: u64) -> Result<Setup, SetupError> {
        Setup::default_with(shader, device, seed, &Choices::default())
    }

    /// [`Setup::default_for`] with the sizes and view formats `choices` gives.
    pub fn default_with(
        shader: &Shader,
        device: &Device,
        seed: u64,
        choices: &Choices,
    ) -> Result<Setup, SetupError> {
        let gen = tiling::Gen::from_verx10(device.verx10()).ok_or_else(|| {
            SetupError::new(
                None,
                format!("the tiling crate has no layouts for {}", device.name),
            )
        })?;
        let mut elements = 0u64;
        for decl in &shader.images {
            let count = decl.count.unwrap_or(1);
            if decl.binding.checked_add(count - 1).is_none() {
                return Err(SetupError::new(
                    Some(format!("@{}", decl.name)),
                    format!(
                        "its {count} elements from binding {} would need bindings past {}",
                        decl.binding,
                        u32::MAX
                    ),
                ));
            }
            elements += count as u64;
        }
        if elements > MAX_IMAGE_ELEMENTS {
            return Err(SetupError::new(
                None,
                format!(
                    "the shader declares {elements} image elements, more than the \
                     {MAX_IMAGE_ELEMENTS} a setup binds"
                ),
            ));
        }
        let mut rng = SeedRng::new(seed ^ 0x5eed_f5e7_u64);
        let mut images = Vec::new();
        for (i, decl) in shader.images.iter().enumerate() {
            let format = if decl.format == Format::None {
                let loaded = loads_image(shader, i);
                let readable = formatless_view_formats(sampled_type(shader, i), device, loaded);
                match choices.view_formats.iter().find(|(n, _)| *n == decl.name) {
                    None => readable[0],
                    Some(&(_, f))
                        if !loaded || lowering::format::supports_typed_read(device, f) =>
                    {
                        f
                    }
                    Some(&(_, f)) => {
                        let names: Vec<String> = readable.iter().map(|r| r.to_string()).collect();
                        return Err(SetupError::new(
                            Some(format!("@{}", decl.name)),
                            format!(
                                "the shader loads from it without a format, a typed read of \
                                 the view's format, and {} reads no {f} surface typed: give \
                                 it a view of a format it reads ({}, ...)",
                                device.name,
                                names.join(", ")
                            ),
                        ));
                    }
                }
            } else {
                decl.format
            };
            for element in 0..decl.count.unwrap_or(1) {
                let what = image_label(decl, element);
                let fill = Fill::Pattern(rng.next_u64());
                let layout = default_layout(decl, format, device, gen, &mut rng, seed == 0)
                    .map_err(|r| SetupError::new(Some(what.clone()), r))?;
                images.push(ImageSetup {
                    image: decl.name.clone(),
                    element,
                    format,
                    layout,
                    fill,
                });
            }
        }
        let buffers = crate::buffers::default_buffers(
            shader,
            &mut rng,
            &choices.ssbo_sizes,
            MAX_MEMORY_BYTES,
        )
        .map_err(|(what, reason)| SetupError::new(Some(what), reason))?;
        let mut push_constants = pattern_bytes(rng.next_u64(), DEFAULT_PUSH_BYTES);
        // Drawn after everything else, so that shaders without pointers keep the
        // choices they had before global allocations existed.
        let mut globals: Vec<GlobalSetup> = Vec::new();
        // The index in `globals` of each slot's allocation: none for a slot outside
        // the buffer it names, and so none for the slots its allocation holds.
        let mut placed: Vec<Option<usize>> = Vec::new();
        for slot in crate::pointers::pointer_slots(shader) {
            let end = slot.offset as usize + 8;
            let home = match slot.home {
                PointerHome::PushConstants => {
                    if push_constants.len() < end {
                        let more = pattern_bytes(rng.next_u64(), end - push_constants.len());
                        push_constants.extend(more);
                    }
                    Some(PointerHome::PushConstants)
                }
                PointerHome::Ubo(b) | PointerHome::Ssbo(b) => {
                    let kind = if matches!(slot.home, PointerHome::Ubo(_)) {
                        BufferKind::Ubo
                    } else {
                        BufferKind::Ssbo
                    };
                    buffers
                        .iter()
                        .any(|x| x.kind == kind && x.binding == b && x.bytes.len() >= end)
                        .then_some(slot.home)
                }
                PointerHome::Global(k) => placed.get(k).copied().flatten().map(PointerHome::Global),
            };
            placed.push(home.map(|_| globals.len()));
            if let Some(home) = home {
                globals.push(GlobalSetup {
                    home,
                    offset: slot.offset,
                    size: DEFAULT_GLOBAL_BYTES,
                    fill: Fill::Pattern(rng.next_u64()),
                });
            }
        }
        let mut setup = Setup {
            images,
            buffers,
            globals,
            push_constants,
            grid: [1, 1, 1],
            subgroup_size: 16,
            max_steps: ir::interp::DEFAULT_MAX_STEPS,
            bindings: Vec::new(),
            report_limit: DEFAULT_REPORT_LIMIT,
            samplers: Vec::new(),
        };
        setup.grid = setup.covering_grid(shader);
        Ok(setup)
    }

    /// A grid of workgroups covering the largest view plus a margin (2 texels in x
    /// and y, 1 layer or slice), so that some accesses of a shader indexing images by
    /// its global invocation id fall outside.
    pub fn covering_grid(&self, shader: &Shader) -> [u32; 3] {
        let mut ext = [1u64, 1, 0];
        for img in &self.images {
            let (w, h, z) = match &img.layout {
                ImageLayout::Buffer { elements } => (*elements, 1, 0),
                ImageLayout::Surface { desc, view, .. } => {
                    let l = view.base_level;
                    let w = tiling::minify(desc.width, l) as u64;
                    match desc.dim {
                        SurfDim::D1 => (
                            w,
                            1,
                            if desc.array_len > 1 {
                                view.layer_count as u64
                            } else {
                                0
                            },
                        ),
                        _ => (
                            w,
                            tiling::minify(desc.height, l) as u64,
                            if desc.dim == SurfDim::D3 || desc.array_len > 1 {
                                view.layer_count as u64
                            } else {
                                0
                            },
                        ),
                    }
                }
            };
            // A 1D array's layers are the second coordinate.
            let is_1d_array = matches!(&img.layout, ImageLayout::Surface { desc, .. }
                if desc.dim == SurfDim::D1 && desc.array_len > 1);
            if is_1d_array {
                ext[0] = ext[0].max(w);
                ext[1] = ext[1].max(z);
            } else {
                ext[0] = ext[0].max(w);
                ext[1] = ext[1].max(h);
                ext[2] = ext[2].max(z);
            }
        }
        let want = [
            ext[0] + 2,
            if ext[1] > 1 { ext[1] + 2 } else { 1 },
            if ext[2] > 0 { ext[2] + 1 } else { 1 },
        ];
        let mut grid = [1u32; 3];
        for i in 0..3 {
            let l = shader.local_size[i].max(1) as u64;
            grid[i] = want[i].div_ceil(l).clamp(1, u32::MAX as u64) as u32;
        }
        grid
    }

    /// The setup of image element `element` of `name`.
    pub fn image(&self, name: &str, element: u32) -> Option<&ImageSetup> {
        self.images
            .iter()
            .find(|i| i.image == name && i.element == element)
    }

    /// The setup of image element `element` of `name`, mutably.
    pub fn image_mut(&mut self, name: &str, element: u32) -> Option<&mut ImageSetup> {
        self.images
            .iter_mut()
            .find(|i| i.image == name && i.element == element)
    }

    /// Resizes every global allocation to `size` bytes (a pattern or gradient fill keeps
    /// its seed; explicit bytes are cut or padded with zeros); `size` 0 removes them, so
    /// the push constants keep their pattern.
    pub fn set_global_size(&mut self, size: usize) {
        if size == 0 {
            self.globals.clear();
            return;
        }
        for g in &mut self.globals {
            g.size = size;
            if let Fill::Bytes(v) = &mut g.fill {
                v.resize(size, 0);
            }
        }
    }

    /// The surface image `decl` is bound with: the lowering's binding, else
    /// [`expected_surface_format`].
    pub fn surface_format(&self, decl: &ImageDecl, device: &Device) -> SurfaceFormat {
        self.bindings
            .iter()
            .find(|b| b.name == decl.name)
            .map(|b| b.surface)
            .unwrap_or_else(|| expected_surface_format(decl, device))
    }

    /// The bytes [`Setup::build_memory`] allocates (see [`MAX_MEMORY_BYTES`]), or
    /// `None` if the sum does not even fit in 64 bits. Images the setup cannot lay out
    /// count as 0 here; building them reports why.
    pub fn memory_bytes(&self) -> Option<u64> {
        let mut total = self.push_constants.len() as u64;
        for img in &self.images {
            let bytes = match &img.layout {
                ImageLayout::Buffer { elements } => {
                    let texel = isl_format(img.format).map_or(0, |f| f.bpb() / 8) as u64;
                    elements.checked_mul(texel)?
                }
                ImageLayout::Surface { desc, .. } => Surface::new(*desc).map_or(0, |s| s.size_B()),
            };
            total = total.checked_add(bytes)?;
        }
        for b in &self.buffers {
            total = total.checked_add(b.bytes.len() as u64)?;
        }
        for g in &self.globals {
            total = total.checked_add(g.size as u64)?;
        }
        Some(total)
    }

    /// Builds the memory: binds every image element of `shader` (binding-table index
    /// `binding + element`) with its surface, view, surface-state format and initial
    /// contents, every buffer, the global allocations (their base addresses written into
    /// the push constants at their slots) and the push constants. Allocations are made
    /// in a fixed order (images by declaration and element, then buffers, then globals),
    /// so two memories built from one setup have the same addresses.
    pub fn build_memory(&self, shader: &Shader, device: &Device) -> Result<Memory, SetupError> {
        match self.memory_bytes() {
            Some(n) if n <= MAX_MEMORY_BYTES => {}
            n => {
                return Err(SetupError::new(
                    None,
                    format!(
                        "the images, buffers, global allocations and push constants need {} \
                         bytes, more than the limit of {MAX_MEMORY_BYTES}",
                        n.map_or_else(|| "over 2^64".to_string(), |n| n.to_string())
                    ),
                ))
            }
        }
        let mut mem = Memory::new();
        for (n, img) in self.images.iter().enumerate() {
            if self.images[..n]
                .iter()
                .any(|o| o.image == img.image && o.element == img.element)
            {
                return Err(SetupError::new(
                    Some(format!("@{}[{}]", img.image, img.element)),
                    "the image element is set up twice",
                ));
            }
            if shader.image_by_name(&img.image).is_none() {
                return Err(SetupError::new(
                    Some(format!("@{}", img.image)),
                    "the shader declares no such image",
                ));
            }
        }
        for decl in &shader.images {
            let state = self.surface_format(decl, device);
            for element in 0..decl.count.unwrap_or(1) {
                let what = image_label(decl, element);
                let img = self.image(&decl.name, element).ok_or_else(|| {
                    SetupError::new(Some(what.clone()), "the setup has no surface for it")
                })?;
                bind_image(&mut mem, decl, element, img, state, device)
                    .map_err(|r| SetupError::new(Some(what.clone()), r))?;
            }
        }
        for b in &self.buffers {
            let (what, name) = match b.kind {
                BufferKind::Ssbo => ("ssbo", format!("ssbo {}", b.binding)),
                BufferKind::Ubo => ("ubo", format!("ubo {}", b.binding)),
            };
            let taken = match b.kind {
                BufferKind::Ssbo => mem.ssbo(b.binding).is_some(),
                BufferKind::Ubo => mem.ubo(b.binding).is_some(),
            };
            if taken {
                return Err(SetupError::new(
                    Some(format!("{what} {}", b.binding)),
                    "the binding is set up twice",
                ));
            }
            let id = mem.alloc(name, b.bytes.clone());
            match b.kind {
                BufferKind::Ssbo => mem.bind_ssbo(b.binding, id),
                BufferKind::Ubo => mem.bind_ubo(b.binding, id),
            }
        }
        let mut push = self.push_constants.clone();
        let mut global_ids = Vec::with_capacity(self.globals.len());
        for (n, g) in self.globals.iter().enumerate() {
            let what = Some(g.name());
            if self.globals[..n]
                .iter()
                .any(|o| o.home == g.home && o.offset == g.offset)
            {
                return Err(SetupError::new(what, "the pointer slot is set up twice"));
            }
            let at = g.offset as usize;
            if !at.is_multiple_of(8) {
                return Err(SetupError::new(
                    what,
                    "a pointer slot is a multiple of 8 bytes into its memory",
                ));
            }
            let bytes = g
                .initial_bytes()
                .map_err(|r| SetupError::new(what.clone(), r))?;
            let id = mem.alloc(g.name(), bytes);
            global_ids.push(id);
            let address = mem.allocation(id).base.to_le_bytes();
            let holder = match g.home {
                PointerHome::PushConstants => None,
                PointerHome::Ubo(b) => Some(mem.ubo(b).ok_or("no uniform buffer is bound there")),
                PointerHome::Ssbo(b) => Some(mem.ssbo(b).ok_or("no storage buffer is bound there")),
                PointerHome::Global(k) => Some(
                    global_ids[..n]
                        .get(k)
                        .copied()
                        .ok_or("its pointer is in a global allocation set up after it"),
                ),
            };
            let slot = match holder {
                None => push.get_mut(at..at + 8).ok_or_else(|| {
                    format!(
                        "the pointer lies beyond the {} bytes of push constants",
                        self.push_constants.len()
                    )
                }),
                Some(Err(why)) => Err(why.to_string()),
                Some(Ok(holder)) => {
                    let bytes = &mut mem.allocation_mut(holder).bytes;
                    let len = bytes.len();
                    bytes.get_mut(at..at + 8).ok_or_else(|| {
                        format!("the pointer lies beyond the {len} bytes of the memory holding it")
                    })
                }
            }
            .map_err(|r| SetupError::new(what, r))?;
            slot.copy_from_slice(&address);
        }
        mem.set_push_constants(push);
        for (name, _) in &self.samplers {
            if !shader.samplers.iter().any(|d| &d.name == name) {
                return Err(SetupError::new(
                    Some(format!("@{name}")),
                    "the shader declares no such sampler",
                ));
            }
        }
        let unfiltered = unfiltered_samplers(shader);
        for decl in &shader.samplers {
            // By default a sampler filters linearly; one that reads an integer texture
            // reads nearest, as Vulkan requires of it.
            let default = match decl.indices() {
                Some(r) if unfiltered.iter().any(|i| r.contains(i)) => SamplerState::unfiltered(),
                _ => SamplerState::default(),
            };
            let state = self
                .samplers
                .iter()
                .find(|(n, _)| *n == decl.name)
                .map_or(default, |(_, s)| *s);
            for index in decl.indices().into_iter().flatten() {
                mem.bind_sampler(index, state);
            }
        }
        Ok(mem)
    }
}

/// The default layout of one image element (see [`Setup::default_for`]).
fn default_layout(
    decl: &ImageDecl,
    format: Format,
    device: &Device,
    gen: tiling::Gen,
    rng: &mut SeedRng,
    plain: bool,
) -> Result<ImageLayout, String> {
    let Some(sdim) = surf_dim(decl.dim) else {
        if decl.arrayed {
            return Err("buffer images cannot be arrayed".into());
        }
        return Ok(ImageLayout::Buffer {
            elements: DEFAULT_BUFFER_TEXELS,
        });
    };
    let isl = isl_format(format).ok_or("a format-less image has no surface format")?;
    let (mut w, h, d, layers, levels) = match (decl.dim, decl.arrayed) {
        (ImageDim::D1, a) => (
            DEFAULT_WIDTH,
            1,
            1,
            if a { DEFAULT_LAYERS } else { 1 },
            DEFAULT_LEVELS,
        ),
        (ImageDim::D2, a) => (
            DEFAULT_WIDTH,
            DEFAULT_HEIGHT,
            1,
            if a { DEFAULT_LAYERS } else { 1 },
            DEFAULT_LEVELS,
        ),
        (ImageDim::Cube, a) => (DEFAULT_CUBE, DEFAULT_CUBE, 1, if a { 12 } else { 6 }, 2),
        (ImageDim::D3, false) => (
            DEFAULT_3D[0],
            DEFAULT_3D[1],
            DEFAULT_3D[2],
            1,
            DEFAULT_LEVELS,
        ),
        (ImageDim::D3, true) => return Err("3D images cannot be arrayed".into()),
        // Multisampled surfaces have one level (isl's array layout).
        (ImageDim::Ms, a) => (
            DEFAULT_WIDTH,
            DEFAULT_HEIGHT,
            1,
            if a { DEFAULT_LAYERS } else { 1 },
            1,
        ),
        (ImageDim::Buffer, _) => unreachable!("buffers have no surface dimension"),
    };
    let samples = if decl.dim == ImageDim::Ms {
        DEFAULT_SAMPLES
    } else {
        1
    };
    // A static layout fixes the tiling, the row pitch and the swizzle.
    let (tilings, pitch, swizzle) = match &decl.layout {
        Some(l) => {
            let t = lowering::address::layout_tiling(l.tiling);
            // Narrow the image so that its rows fit the declared pitch.
            let cpp = isl.bpb() / 8;
            w = w.min((l.row_pitch / cpp.max(1)).max(1));
            (vec![t], Some(l.row_pitch), Some(l.swizzle))
        }
        // Without a static layout, the driver picks among its storage tilings (for a
        // multisampled image, those whose tiles hold one sample, which the untyped
        // address code reaches).
        None if samples > 1 => (device.multisampled_storage_tilings_for(isl), None, None),
        None => (device.storage_tilings_for(isl, sdim), None, None),
    };
    if tilings.is_empty() {
        return Err(format!(
            "no tiling is allowed for a {} storage image of {format} on {}",
            decl.dim, device.name
        ));
    }
    let start = rng.below(tilings.len() as u64) as usize;
    let base_level = if rng.below(3) == 0 && !plain && levels > 1 {
        1
    } else {
        0
    };
    let layer_pick = if plain { 0 } else { rng.below(2) as u32 };
    let mut last_err = String::new();
    for k in 0..tilings.len() {
        let tiling = tilings[(start + k) % tilings.len()];
        let mut desc = SurfaceDesc::new(gen, sdim, isl, tiling)
            .extent(w, h, d)
            .array_len(layers)
            .levels(levels)
            .samples(samples)
            .usage(if decl.dim == ImageDim::Cube {
                Usage::STORAGE | Usage::CUBE
            } else {
                Usage::STORAGE
            });
        if let Some(p) = pitch {
            desc = desc.row_pitch(p);
        }
        let surface = match Surface::new(desc) {
            Ok(s) => s,
            Err(e) => {
                last_err = format!("{} layout: {e}", tiling.name());
                continue;
            }
        };
        if let Some(q) = decl.layout.as_ref().and_then(|l| l.qpitch) {
            if (layers > 1 || decl.dim == ImageDim::D3) && surface.array_pitch_el_rows() != q {
                return Err(format!(
                    "the static layout's qpitch={q} differs from the {} rows the surface has",
                    surface.array_pitch_el_rows()
                ));
            }
        }
        let available = if sdim == SurfDim::D3 {
            tiling::minify(d, base_level)
        } else {
            layers
        };
        // A sampled view exposes every level from its base (so level queries and
        // loads at a LOD have levels to see); a 3D one then spans every slice.
        let sampled = decl.access.contains(ir::Access::SAMPLED);
        let base_layer =
            if decl.dim == ImageDim::Cube || available < 2 || (sampled && decl.dim == ImageDim::D3)
            {
                0
            } else {
                layer_pick
            };
        let view = ViewRange {
            base_level,
            level_count: if sampled { levels - base_level } else { 1 },
            base_layer,
            layer_count: available - base_layer,
        };
        let bit6_swizzle = Bit6Swizzle::from_has_bit6_swizzling(
            swizzle
                .unwrap_or(device.may_have_bit6_swizzle && matches!(tiling, Tiling::X | Tiling::Y)),
        );
        let tview = tiling::ImageView {
            base_level,
            base_layer,
            layer_count: view.layer_count,
            format: isl,
        };
        if let Err(e) = tiling::fill_image_param(&surface, &tview, bit6_swizzle) {
            last_err = format!("{} parameter block: {e}", tiling.name());
            continue;
        }
        return Ok(ImageLayout::Surface {
            desc,
            view,
            bit6_swizzle,
        });
    }
    Err(format!("no storage tiling can lay it out ({last_err})"))
}

/// Binds one image element and fills it.
fn bind_image(
    mem: &mut Memory,
    decl: &ImageDecl,
    element: u32,
    img: &ImageSetup,
    surface: SurfaceFormat,
    device: &Device,
) -> Result<AllocId, String> {
    if decl.format != Format::None && img.format != decl.format {
        return Err(format!(
            "the view format {} differs from the declared {}",
            img.format, decl.format
        ));
    }
    let view_isl = isl_format(img.format).ok_or("a format-less view has no surface format")?;
    let state = match surface {
        SurfaceFormat::Typed(f) => isl_format(f).ok_or("typed surfaces have a format")?,
        SurfaceFormat::ViewFormat => view_isl,
        SurfaceFormat::Raw => raw_surface_format(view_isl.bpb())
            .ok_or_else(|| format!("{} texels have no raw format", img.format))?,
    };
    let binding = decl
        .binding
        .checked_add(element)
        .ok_or_else(|| format!("binding {} + element {element} overflows", decl.binding))?;
    let name = format!("image {}", image_label(decl, element));
    let alloc = match &img.layout {
        ImageLayout::Buffer { elements } => {
            if decl.dim != ImageDim::Buffer {
                return Err(format!("a {} image cannot be a texel buffer", decl.dim));
            }
            mem.bind_buffer_image(binding, name, *elements, img.format, state)
                .map_err(|e| e.reason)?
        }
        ImageLayout::Surface {
            desc,
            view,
            bit6_swizzle,
        } => {
            let want = surf_dim(decl.dim).ok_or("a buffer image needs a texel buffer")?;
            if desc.dim != want {
                return Err(format!(
                    "a {} image needs a {want} surface, not {}",
                    decl.dim, desc.dim
                ));
            }
            if decl.dim == ImageDim::Cube && view.layer_count % 6 != 0 {
                return Err(format!(
                    "a cube view has a multiple of 6 layers, not {}",
                    view.layer_count
                ));
            }
            if bit6_swizzle.is_enabled() && !device.may_have_bit6_swizzle {
                return Err(format!(
                    "bit-6 swizzling is on, but {} never swizzles (only IVB and HSW do)",
                    device.name
                ));
            }
            let s = Surface::new(*desc).map_err(|e| format!("the surface: {e}"))?;
            if let Some(l) = &decl.layout {
                check_static_layout(l, &s, *bit6_swizzle)?;
            }
            let tview = tiling::ImageView {
                base_level: view.base_level,
                base_layer: view.base_layer,
                layer_count: view.layer_count,
                format: view_isl,
            };
            let alloc = mem
                .bind_surface_image(binding, name, s, tview, img.format, state, *bit6_swizzle)
                .map_err(|e| e.reason)?;
            if view.level_count != 1 && !decl.access.contains(ir::Access::SAMPLED) {
                return Err(format!(
                    "a storage view has one level, not {} (only sampled views have more)",
                    view.level_count
                ));
            }
            mem.set_view_levels(binding, view.level_count)
                .map_err(|e| e.reason)?;
            alloc
        }
    };
    fill_image(mem, binding, &img.fill).map_err(|e| format!("the fill: {e}"))?;
    Ok(alloc)
}

/// Checks that a surface is the one a declaration's static layout promises the shader
/// (the lowering folds the layout into the address code).
fn check_static_layout(
    l: &ir::StaticLayout,
    s: &Surface,
    swizzle: Bit6Swizzle,
) -> Result<(), String> {
    let t = lowering::address::layout_tiling(l.tiling);
    if s.tiling() != t {
        return Err(format!(
            "the static layout says tiling={}, the surface is {}",
            t.name(),
            s.tiling().name()
        ));
    }
    if s.row_pitch_B() != l.row_pitch {
        return Err(format!(
            "the static layout says row_pitch={}, the surface's is {}",
            l.row_pitch,
            s.row_pitch_B()
        ));
    }
    if let Some(q) = l.qpitch {
        if s.array_pitch_el_rows() != q {
            return Err(format!(
                "the static layout says qpitch={q}, the surface's is {}",
                s.array_pitch_el_rows()
            ));
        }
    }
    if swizzle.is_enabled() != l.swizzle {
        return Err(format!(
            "the static layout says swizzle={}, the binding has bit-6 swizzling {}",
            l.swizzle,
            if swizzle.is_enabled() { "on" } else { "off" }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::ImageStorage;

    use crate::fixtures::parse;

    const DECLS: &str = "shader compute (local_size=8,8,1)
image @a : 2d rgba8_unorm (binding=0)
image @b : 2d array r32_uint (binding=1)
image @c : cube rgba16_float (binding=2)
image @d : 3d r32_float (binding=3)
image @e : buffer rgba32_float (binding=4)
image @f : 1d array r8_uint (binding=5)
image @g[2] : 2d r32_uint (binding=7)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0)
    32   %2 = load_const (2)
    @store_ssbo (%1, %2, %1) (access=none, align_mul=4)
}
";

    #[test]
    fn defaults_cover_every_image_and_bind() {
        for name in Device::PRESET_NAMES {
            let device = Device::preset(name).unwrap();
            let shader = parse(DECLS);
            for seed in 0..4 {
                let setup = Setup::default_for(&shader, &device, seed)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(setup.images.len(), 8);
                let mem = setup
                    .build_memory(&shader, &device)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                // Bindings 7 and 8 are the two elements of @g.
                assert!(mem.image(8).is_some());
                assert!(mem.ssbo(2).is_some());
                let b = mem.image(1).unwrap();
                let ext = b.view_extent(0).unwrap();
                assert!(ext.layers >= DEFAULT_LAYERS as u64 - 1);
                // 8x8 workgroups over 37 + 2 columns and 19 + 2 rows (or a level-1
                // view's), and layers + 1 in z.
                assert!(setup.grid[0] * 8 >= 39 || setup.grid[0] * 8 >= 20);
                assert!(setup.grid[2] >= 2);
            }
        }
    }

    #[test]
    fn static_layouts_fix_tiling_pitch_and_swizzle() {
        let shader = parse(
            "shader compute (local_size=8,8,1)
image @s : 2d rgba32_float (binding=0, layout={tiling=x, row_pitch=4096, swizzle=true})
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
}
",
        );
        let device = Device::preset("ivb").unwrap();
        let setup = Setup::default_for(&shader, &device, 1).unwrap();
        let ImageLayout::Surface {
            desc, bit6_swizzle, ..
        } = &setup.images[0].layout
        else {
            panic!("a surface")
        };
        assert_eq!(desc.tiling, Tiling::X);
        assert!(bit6_swizzle.is_enabled());
        let mem = setup.build_memory(&shader, &device).unwrap();
        match &mem.image(0).unwrap().storage {
            ImageStorage::Surface { surface, .. } => assert_eq!(surface.row_pitch_B(), 4096),
            _ => panic!("a surface"),
        }
        // A surface that breaks the layout's promise is refused.
        let mut bad = setup.clone();
        if let ImageLayout::Surface { desc, .. } = &mut bad.images[0].layout {
            desc.tiling = Tiling::Y;
        }
        let e = bad.build_memory(&shader, &device).unwrap_err();
        assert_eq!(
            e.to_string(),
            "@s: the static layout says tiling=x, the surface is y"
        );
    }

    #[test]
    fn gradient_texels_follow_their_position() {
        let shader = parse(DECLS);
        let device = Device::preset("dg2").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        setup.image_mut("b", 0).unwrap().fill = Fill::Gradient;
        let mem = setup.build_memory(&shader, &device).unwrap();
        let b = mem.image(1).unwrap();
        let ImageStorage::Surface { surface, .. } = &b.storage else {
            panic!("a surface")
        };
        // Texel (3, 2) of layer 1, level 0: 3 + 4 + 3 = 10.
        let off = surface.texel_offset(3, 2, 1, 0, Bit6Swizzle::None).unwrap() as usize;
        let bytes = &mem.allocation(b.alloc).bytes[off..off + 4];
        assert_eq!(u32::from_le_bytes(bytes.try_into().unwrap()), 10);
    }

    const POINTERS: &str = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (8)
    32   %1 = load_const (4)
    64x2 %2 = @load_push_constant (%0) (base=8, range=64)
    64   %3 = @load_push_constant (%1) (base=0, range=64)
    32   %4 = @load_push_constant (%0) (base=32, range=64)
    32x3 %5 = @load_global_invocation_id
    64   %6 = @load_push_constant (%5.x) (base=40, range=64)
    64   %7 = @load_push_constant (%1) (base=4, range=64)
    64   %8 = @load_push_constant (%0) (base=8, range=64)
}
";

    #[test]
    fn pointer_slots_are_aligned_64_bit_push_constants_at_constant_offsets() {
        let shader = parse(POINTERS);
        // 64x2 at 8 + 8: slots 16 and 24; 64-bit at 0 + 4 is misaligned; 32-bit and
        // dynamic offsets are not pointers; 4 + 4 = 8; 8 + 8 again.
        assert_eq!(pointer_slots(&shader), vec![8, 16, 24]);
    }

    #[test]
    fn globals_are_allocated_and_their_addresses_pushed() {
        let shader = parse(POINTERS);
        let device = Device::preset("tgl").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        let slots: Vec<u32> = setup.globals.iter().map(|g| g.offset).collect();
        assert_eq!(slots, vec![8, 16, 24]);
        assert!(setup.globals.iter().all(|g| g.size == DEFAULT_GLOBAL_BYTES));
        setup.set_global_size(64);
        setup.globals[1].fill = Fill::Gradient;
        let mem = setup.build_memory(&shader, &device).unwrap();
        let push = mem.push_constants();
        let word = |o: usize| u64::from_le_bytes(push[o..o + 8].try_into().unwrap());
        // The allocations follow each other 64 KiB apart (64 bytes, then the gap), from
        // the first base; the bytes around the slots keep the pattern.
        assert_eq!(word(8), crate::memory::FIRST_BASE);
        assert_eq!(word(16), crate::memory::FIRST_BASE + 0x2_0000);
        assert_eq!(word(24), crate::memory::FIRST_BASE + 0x4_0000);
        assert_eq!(&push[..8], &setup.push_constants[..8]);
        assert_eq!(&push[32..], &setup.push_constants[32..]);
        let (id, off) = mem.resolve(word(16) + 12, 4).unwrap();
        assert_eq!(mem.allocation(id).name, "global (push constant 0x10)");
        assert_eq!(off, 12);
        // Gradient: the dword at byte 12 holds 3.
        assert_eq!(&mem.allocation(id).bytes[12..16], &[3, 0, 0, 0]);
        assert_eq!(mem.allocation(id).bytes.len(), 64);
        // Two memories of one setup are the same.
        let again = setup.build_memory(&shader, &device).unwrap();
        assert_eq!(again.push_constants(), push);
        // Size 0: no globals, the push constants keep their pattern.
        let mut none = setup.clone();
        none.set_global_size(0);
        let mem = none.build_memory(&shader, &device).unwrap();
        assert_eq!(mem.push_constants(), &none.push_constants[..]);
        assert!(mem.allocations().is_empty());
    }

    #[test]
    fn bad_globals_are_errors() {
        let shader = parse(POINTERS);
        let device = Device::preset("tgl").unwrap();
        let setup = Setup::default_for(&shader, &device, 0).unwrap();
        let mut twice = setup.clone();
        twice.globals[1].offset = 8;
        let e = twice.build_memory(&shader, &device).unwrap_err();
        assert_eq!(
            e.to_string(),
            "global (push constant 0x8): the pointer slot is set up twice"
        );
        let mut beyond = setup.clone();
        beyond.push_constants.truncate(20);
        let e = beyond.build_memory(&shader, &device).unwrap_err();
        assert_eq!(
            e.to_string(),
            "global (push constant 0x10): the pointer lies beyond the 20 bytes of push constants"
        );
        let mut odd = setup.clone();
        odd.globals[0].offset = 4;
        let e = odd.build_memory(&shader, &device).unwrap_err();
        assert!(e.to_string().contains("a multiple of 8 bytes"), "{e}");
        let mut bytes = setup;
        bytes.globals[2].fill = Fill::Bytes(vec![1, 2, 3]);
        let e = bytes.build_memory(&shader, &device).unwrap_err();
        assert_eq!(
            e.to_string(),
            "global (push constant 0x18): 3 bytes given for an allocation of 65536 bytes"
        );
    }

    #[test]
    fn bad_setups_are_errors() {
        let shader = parse(DECLS);
        let device = Device::preset("dg2").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        setup.images.retain(|i| i.image != "c");
        let e = setup.build_memory(&shader, &device).unwrap_err();
        assert_eq!(e.to_string(), "@c: the setup has no surface for it");
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        setup.image_mut("a", 0).unwrap().format = Format::R32Uint;
        let e = setup.build_memory(&shader, &device).unwrap_err();
        assert!(e.to_string().contains("differs from the declared"), "{e}");
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        if let ImageLayout::Surface { bit6_swizzle, .. } =
            &mut setup.image_mut("a", 0).unwrap().layout
        {
            *bit6_swizzle = Bit6Swizzle::Enabled;
        }
        let e = setup.build_memory(&shader, &device).unwrap_err();
        assert_eq!(
            e.to_string(),
            "@a: bit-6 swizzling is on, but dg2 never swizzles (only IVB and HSW do)"
        );
        let mut setup = Setup::default_for(&shader, &device, 0).unwrap();
        setup.image_mut("a", 0).unwrap().fill = Fill::Bytes(vec![1, 2, 3]);
        let e = setup.build_memory(&shader, &device).unwrap_err();
        assert!(e.to_string().contains("3 bytes given"), "{e}");
    }
}
