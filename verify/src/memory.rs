//! The executor's byte memory.
//!
//! One flat 64-bit address space holds every *allocation*: buffers bound as SSBOs or
//! UBOs, global allocations, and the bytes of surfaces. Each allocation gets a base
//! address, 64 KiB aligned, with an unmapped gap of at least 64 KiB after it, so a
//! pointer that runs off the end of one allocation never lands in the next. Two smaller
//! spaces sit beside it: the shared local memory of the running workgroup (what
//! `load_shared` and `.slm` messages address) and the push constants.
//!
//! Every access goes through [`Memory::load`], [`Memory::store`] or [`Memory::atomic`]
//! with an [`AccessCtx`] naming the instruction, the lane and the invocation, and is
//! recorded in the access log (when logging is on). Any access outside its space, or a
//! flat address outside every allocation, is a [`MemoryError`] naming the instruction
//! and the lane; nothing is read or written then.

use crate::tolerance::Tolerance;
use ir::{Inst, IntrinsicOp, Span};
use std::collections::BTreeMap;
use std::fmt;

/// Alignment of allocation base addresses (and size of the gap after each allocation).
pub const ALLOC_ALIGN: u64 = 64 * 1024;

/// The first base address handed out: above 4 GiB, so that a 64-bit address truncated to
/// 32 bits never reaches an allocation by accident.
pub const FIRST_BASE: u64 = 0x1_0000_0000;

/// An allocation of the flat address space.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct AllocId(pub u32);

impl fmt::Display for AllocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "alloc{}", self.0)
    }
}

/// One allocation: a name (for messages), its base address and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// What it is (`ssbo 0`, `image @dst`, ...).
    pub name: String,
    /// Base address in the flat space.
    pub base: u64,
    /// The contents.
    pub bytes: Vec<u8>,
}

/// What an access does.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AccessKind {
    /// A read.
    Load,
    /// A write.
    Store,
    /// A read-modify-write.
    Atomic,
}

/// Where an access goes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Target {
    /// A flat address.
    Global(u64),
    /// A byte offset into an allocation (a buffer binding, a surface's bytes).
    Alloc(AllocId, u64),
    /// A byte offset into the workgroup's shared local memory.
    Shared(u64),
    /// A byte offset into the push constants.
    PushConstants(u64),
    /// A byte offset into the scratch memory of the invocation with linear local index
    /// `local` in the running workgroup.
    Scratch {
        /// The invocation's linear index in its workgroup.
        local: u32,
        /// The byte offset in the invocation's scratch memory.
        offset: u64,
    },
}

/// The space an access resolved to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Space {
    /// An allocation.
    Alloc(AllocId),
    /// The shared local memory of workgroup `.0` (its linear index).
    Shared(u32),
    /// The push constants.
    PushConstants,
    /// The scratch memory of the invocations of workgroup `.0` (its linear index), each
    /// invocation's after the one before.
    Scratch(u32),
}

/// The instruction, lane and invocation an access is made for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AccessCtx {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// Its opcode.
    pub op: IntrinsicOp,
    /// The lane of the subgroup.
    pub lane: u32,
    /// The invocation the lane runs (linear index in the dispatch).
    pub invocation: u32,
}

/// One recorded access.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Access {
    /// Load, store or atomic.
    pub kind: AccessKind,
    /// The space.
    pub space: Space,
    /// Byte offset in the space (for allocations, from the allocation's start).
    pub offset: u64,
    /// The flat address, for accesses made through one.
    pub address: Option<u64>,
    /// Bytes accessed.
    pub size: u32,
    /// False for an out-of-bounds typed or image access that the hardware (or the API)
    /// discards: nothing was read or written, `offset` is 0.
    pub in_bounds: bool,
    /// Who made it.
    pub ctx: AccessCtx,
}

/// Why an access failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryErrorKind {
    /// A flat address range not inside any single allocation.
    Unmapped {
        /// First byte.
        address: u64,
        /// Bytes.
        size: u32,
    },
    /// An offset range outside its space.
    OutOfRange {
        /// The space (`ssbo binding 1 (64 bytes)`, `shared memory (256 bytes)`).
        space: String,
        /// First byte.
        offset: u64,
        /// Bytes.
        size: u32,
        /// Size of the space.
        limit: u64,
    },
    /// The log holds as many accesses as it may ([`Memory::set_log_limit`]): a run that
    /// makes more is stopped, as one that exhausts its step budget is.
    LogFull {
        /// The accesses the log may hold.
        limit: usize,
    },
    /// Nothing is bound where the instruction looks.
    Unbound {
        /// What kind of binding (`ssbo`, `ubo`, `image`).
        what: &'static str,
        /// The binding index or handle.
        binding: u64,
    },
}

/// A failed access, naming the instruction and lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryError {
    /// The access.
    pub kind: AccessKind,
    /// Who made it.
    pub ctx: AccessCtx,
    /// What was wrong.
    pub error: MemoryErrorKind,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic",
        };
        match &self.error {
            MemoryErrorKind::Unmapped { address, size } => write!(
                f,
                "{what} of {size} bytes at address {address:#x} is outside every allocation"
            )?,
            MemoryErrorKind::OutOfRange {
                space,
                offset,
                size,
                limit,
            } => write!(
                f,
                "{what} of {size} bytes at offset {offset:#x} is out of range of {space} ({limit} bytes)"
            )?,
            MemoryErrorKind::Unbound { what: w, binding } => {
                write!(f, "{what} through {w} {binding}, which is not bound")?
            }
            MemoryErrorKind::LogFull { limit } => write!(
                f,
                "{what} past the {limit} accesses a run may make in one slice of its \
                 workgroups (each is kept for comparing addresses): a loop that runs this \
                 long needs a smaller count (a smaller buffer where it runs over one: \
                 --buffer BLOCK=BYTES) or a smaller step budget (--max-steps N)"
            )?,
        }
        write!(
            f,
            " (`@{}` at {}, lane {}, invocation {})",
            self.ctx.op, self.ctx.span, self.ctx.lane, self.ctx.invocation
        )
    }
}

impl std::error::Error for MemoryError {}

/// How an image's texels are stored.
#[derive(Clone, Debug)]
pub enum ImageStorage {
    /// A laid-out surface, and the view the shader sees.
    Surface {
        /// The layout (the independent texel-address reference).
        surface: tiling::Surface,
        /// The bound view: base level, base layer, layer count.
        view: tiling::ImageView,
    },
    /// A texel buffer: `elements` texels, packed from byte 0 of the allocation.
    Buffer {
        /// Number of texels.
        elements: u64,
    },
}

/// An image bound in the binding table: where its bytes are, how they are laid out, the
/// format the shader declares, the format the hardware converts with, and the image
/// parameter block.
#[derive(Clone, Debug)]
pub struct ImageBinding {
    /// The allocation holding the surface's bytes.
    pub alloc: AllocId,
    /// The layout.
    pub storage: ImageStorage,
    /// The format of the view in the shader's terms (what the linear reference decodes
    /// and encodes with).
    pub logical_format: ir::Format,
    /// The surface-state format: what typed messages and the sampler convert with (the
    /// lowered storage format the driver binds, `docs/hardware/mesa-storage-images.md` §3).
    pub state_format: tiling::Format,
    /// The image parameter block (`image_load_param`), 4 dwords per slot.
    pub param: Vec<u32>,
    /// Whether bit-6 swizzling applies to the surface's addresses.
    pub bit6_swizzle: tiling::Bit6Swizzle,
    /// The mip levels the view exposes from its base level (ISL's `isl_view::levels`):
    /// 1 for storage views and texel buffers, as [`Memory::bind_surface_image`] binds
    /// them; a sampled view may expose more ([`Memory::set_view_levels`]).
    pub levels: u32,
}

impl ImageBinding {
    /// Samples per texel: the surface's (1 for texel buffers).
    pub fn samples(&self) -> u32 {
        match &self.storage {
            ImageStorage::Surface { surface, .. } => surface.desc().samples,
            ImageStorage::Buffer { .. } => 1,
        }
    }

    /// Bytes per texel of the surface-state format.
    pub fn state_texel_bytes(&self) -> usize {
        (self.state_format.bpb() / 8) as usize
    }

    /// The mip level, width, height and depth-or-layers the view exposes at `lod`
    /// (relative to the view's base level), and the first physical layer. `None` when the
    /// lod is outside the view's [`levels`](ImageBinding::levels). Width, height and 3D
    /// depth are those of physical level `base_level + lod`; array layers are the
    /// view's at every level.
    pub fn view_extent(&self, lod: u32) -> Option<ViewExtent> {
        if lod >= self.levels {
            return None;
        }
        match &self.storage {
            ImageStorage::Buffer { elements } => (lod == 0).then_some(ViewExtent {
                level: 0,
                width: *elements,
                height: 1,
                depth: 1,
                layers: 1,
                base_layer: 0,
                surf_dim: None,
            }),
            ImageStorage::Surface { surface, view } => {
                let d = surface.desc();
                let level = view.base_level.checked_add(lod)?;
                let is_3d = d.dim == tiling::SurfDim::D3;
                // A 3D view of several levels covers every slice (set_view_levels), so
                // its depth at a lower level is the level's.
                let depth = if lod == 0 {
                    view.layer_count as u64
                } else {
                    tiling::minify(d.depth, level) as u64
                };
                Some(ViewExtent {
                    level,
                    width: tiling::minify(d.width, level) as u64,
                    height: if d.dim == tiling::SurfDim::D1 {
                        1
                    } else {
                        tiling::minify(d.height, level) as u64
                    },
                    depth: if is_3d { depth } else { 1 },
                    layers: if is_3d { 1 } else { view.layer_count as u64 },
                    base_layer: view.base_layer,
                    surf_dim: Some(d.dim),
                })
            }
        }
    }

    /// The byte offset in the allocation of texel `(x, y, z)` of the view at `ext` (z: the
    /// array layer or 3D slice, below `z_limit`), sample `sample` of a multisampled
    /// surface (0 otherwise), or `None` when the texel is outside the view. The error is
    /// the layout reference's rejection, worded for the caller's error.
    pub(crate) fn view_texel_offset(
        &self,
        ext: &ViewExtent,
        [x, y, z]: [i64; 3],
        z_limit: u64,
        sample: i64,
    ) -> Result<Option<u64>, String> {
        let inside = |v: i64, n: u64| v >= 0 && (v as u64) < n;
        if !(inside(x, ext.width)
            && inside(y, ext.height)
            && inside(z, z_limit)
            && inside(sample, u64::from(self.samples())))
        {
            return Ok(None);
        }
        match &self.storage {
            ImageStorage::Buffer { .. } => Ok(Some(x as u64 * self.state_texel_bytes() as u64)),
            ImageStorage::Surface { surface, .. } => {
                // The view's first layer (3D: first slice) is layer (slice) 0.
                let zz = ext.base_layer + z as u32;
                let at = if surface.desc().samples > 1 {
                    surface
                        .sample_offset(
                            x as u32,
                            y as u32,
                            zz,
                            sample as u32,
                            ext.level,
                            self.bit6_swizzle,
                        )
                        .map_err(|e| e.to_string())
                } else {
                    surface
                        .texel_offset(x as u32, y as u32, zz, ext.level, self.bit6_swizzle)
                        .map_err(|e| e.to_string())
                };
                at.map(Some).map_err(|e| {
                    format!(
                        "the layout reference rejects texel ({x}, {y}, {zz}) sample {sample} of level {}: {e}",
                        ext.level
                    )
                })
            }
        }
    }
}

/// What a view exposes at one level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ViewExtent {
    /// The physical mip level.
    pub level: u32,
    /// Width in texels.
    pub width: u64,
    /// Height (1 for 1D and buffers).
    pub height: u64,
    /// Slices of a 3D view (else 1).
    pub depth: u64,
    /// Array layers of the view (1 for 3D and buffers).
    pub layers: u64,
    /// The first physical layer (3D: slice) of the view.
    pub base_layer: u32,
    /// The surface's dimensionality (`None` for a buffer).
    pub surf_dim: Option<tiling::SurfDim>,
}

/// Why an image cannot be bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindError {
    /// The binding.
    pub binding: u32,
    /// Why.
    pub reason: String,
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot bind image {}: {}", self.binding, self.reason)
    }
}

impl std::error::Error for BindError {}

/// The memory: allocations in a flat space, buffer bindings, shared memory, push
/// constants, and the access log.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    allocs: Vec<Allocation>,
    by_base: BTreeMap<u64, AllocId>,
    next_base: u64,
    ssbos: BTreeMap<u32, AllocId>,
    ubos: BTreeMap<u32, AllocId>,
    images: BTreeMap<u32, ImageBinding>,
    push: Vec<u8>,
    shared: Vec<u8>,
    /// The scratch memory of the running workgroup's invocations, `scratch_size` bytes
    /// each.
    scratch: Vec<u8>,
    scratch_size: u32,
    workgroup: u32,
    log: Vec<Access>,
    logging: bool,
    /// The most accesses the log may hold; `None`: no limit.
    log_limit: Option<usize>,
    /// Accesses made (logged or not).
    accesses: u64,
    /// What stores of values that may err allow their bytes to be, by allocation and
    /// offset ([`Memory::set_tolerance`]).
    tolerances: BTreeMap<(AllocId, u64), Tolerance>,
    /// The sampler states, by sampler index.
    samplers: BTreeMap<u32, crate::sampler_state::SamplerState>,
}

/// The longest byte range a [`Tolerance`] covers (a texel of 16 bytes).
const MAX_TOLERANCE_BYTES: u64 = 16;

/// The accesses a [`Memory::new`] log may hold (some 64 bytes each): what keeps the
/// memory of a run bounded where a loop runs long (counted by a random uniform, say)
/// within the step budget, each of its lanes' accesses kept for the comparison of
/// addresses. The step budget alone bounds the steps, not what each step logs.
pub const DEFAULT_LOG_LIMIT: usize = 1 << 23;

impl Memory {
    /// An empty memory, with logging on and a log of at most [`DEFAULT_LOG_LIMIT`]
    /// accesses.
    pub fn new() -> Memory {
        Memory {
            next_base: FIRST_BASE,
            logging: true,
            log_limit: Some(DEFAULT_LOG_LIMIT),
            ..Memory::default()
        }
    }

    /// Sets the most accesses the log may hold (`None`: no limit); an access past it
    /// fails with [`MemoryErrorKind::LogFull`].
    pub fn set_log_limit(&mut self, limit: Option<usize>) {
        self.log_limit = limit;
    }

    /// The most accesses the log may hold.
    pub fn log_limit(&self) -> Option<usize> {
        self.log_limit
    }

    // ----- allocations --------------------------------------------------------------

    /// Places `bytes` in the flat space; returns the allocation.
    pub fn alloc(&mut self, name: impl Into<String>, bytes: Vec<u8>) -> AllocId {
        if self.next_base == 0 {
            self.next_base = FIRST_BASE;
        }
        let id = AllocId(self.allocs.len() as u32);
        let base = self.next_base;
        let len = bytes.len() as u64;
        self.next_base = (base + len).div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN + ALLOC_ALIGN;
        self.allocs.push(Allocation {
            name: name.into(),
            base,
            bytes,
        });
        self.by_base.insert(base, id);
        id
    }

    /// Places `size` zero bytes in the flat space; returns the allocation and its base
    /// address.
    pub fn alloc_zeroed(&mut self, name: impl Into<String>, size: usize) -> (AllocId, u64) {
        let id = self.alloc(name, vec![0; size]);
        (id, self.allocs[id.0 as usize].base)
    }

    /// An allocation. Panics on an id this memory did not hand out.
    pub fn allocation(&self, id: AllocId) -> &Allocation {
        &self.allocs[id.0 as usize]
    }

    /// An allocation, mutably (to fill or inspect it outside a run; not logged).
    pub fn allocation_mut(&mut self, id: AllocId) -> &mut Allocation {
        &mut self.allocs[id.0 as usize]
    }

    /// Every allocation, by id.
    pub fn allocations(&self) -> &[Allocation] {
        &self.allocs
    }

    /// The allocation holding the whole range `[address, address + size)`, and the
    /// offset of `address` in it.
    pub fn resolve(&self, address: u64, size: u64) -> Option<(AllocId, u64)> {
        let (&base, &id) = self.by_base.range(..=address).next_back()?;
        let offset = address - base;
        let len = self.allocs[id.0 as usize].bytes.len() as u64;
        (offset.checked_add(size)? <= len).then_some((id, offset))
    }

    // ----- bindings -----------------------------------------------------------------

    /// Binds an allocation as SSBO `binding` (`load_ssbo`/`store_ssbo` block index).
    pub fn bind_ssbo(&mut self, binding: u32, id: AllocId) {
        self.ssbos.insert(binding, id);
    }

    /// Binds an allocation as UBO `binding` (`load_ubo` block index).
    pub fn bind_ubo(&mut self, binding: u32, id: AllocId) {
        self.ubos.insert(binding, id);
    }

    /// The allocation bound as SSBO `binding`.
    pub fn ssbo(&self, binding: u32) -> Option<AllocId> {
        self.ssbos.get(&binding).copied()
    }

    /// The allocation bound as UBO `binding`.
    pub fn ubo(&self, binding: u32) -> Option<AllocId> {
        self.ubos.get(&binding).copied()
    }

    /// Whether allocation `id` is bound as a uniform buffer.
    pub fn is_ubo(&self, id: AllocId) -> bool {
        self.ubos.values().any(|&u| u == id)
    }

    /// Sets the push constants.
    pub fn set_push_constants(&mut self, bytes: Vec<u8>) {
        self.push = bytes;
    }

    /// The push constants.
    pub fn push_constants(&self) -> &[u8] {
        &self.push
    }

    /// Binds a surface image at binding-table index `binding`: allocates its bytes
    /// (zeroed), fills its parameter block from the layout and the view, and records the
    /// formats. `logical` is the view's format in the shader's terms; `state` the format
    /// the surface state converts with. Returns the allocation.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_surface_image(
        &mut self,
        binding: u32,
        name: impl Into<String>,
        surface: tiling::Surface,
        view: tiling::ImageView,
        logical: ir::Format,
        state: tiling::Format,
        bit6_swizzle: tiling::Bit6Swizzle,
    ) -> Result<AllocId, BindError> {
        let err = |reason: String| BindError { binding, reason };
        let d = *surface.desc();
        check_formats(logical, state, d.format).map_err(err)?;
        if view.base_level >= d.levels {
            return Err(err(format!(
                "the view's base level {} is beyond the surface's {} levels",
                view.base_level, d.levels
            )));
        }
        if !state.bpb().is_power_of_two() {
            return Err(err(format!(
                "{} is not a storage format ({} bits per texel)",
                state.name(),
                state.bpb()
            )));
        }
        // A view's layers are array layers, or the slices of a 3D level.
        let available = if d.dim == tiling::SurfDim::D3 {
            tiling::minify(d.depth, view.base_level)
        } else {
            d.array_len
        };
        if view.layer_count == 0
            || view.base_layer as u64 + view.layer_count as u64 > available as u64
        {
            return Err(err(format!(
                "the view's layers {}..{} are outside the {} the surface has",
                view.base_layer,
                view.base_layer as u64 + view.layer_count as u64,
                available
            )));
        }
        let mut param = tiling::fill_image_param(&surface, &view, bit6_swizzle)
            .map_err(|e| err(format!("the parameter block cannot be filled: {e}")))?;
        let size = surface.size_B() as usize;
        let (alloc, base) = self.alloc_zeroed(name, size);
        param.set_base_address(base);
        self.images.insert(
            binding,
            ImageBinding {
                alloc,
                storage: ImageStorage::Surface { surface, view },
                logical_format: logical,
                state_format: state,
                param: param.to_dwords().to_vec(),
                bit6_swizzle,
                levels: 1,
            },
        );
        Ok(alloc)
    }

    /// Binds a texel buffer of `elements` texels at binding-table index `binding`.
    pub fn bind_buffer_image(
        &mut self,
        binding: u32,
        name: impl Into<String>,
        elements: u64,
        logical: ir::Format,
        state: tiling::Format,
    ) -> Result<AllocId, BindError> {
        let err = |reason: String| BindError { binding, reason };
        check_formats(logical, state, state).map_err(err)?;
        let size = elements * (state.bpb() / 8) as u64;
        let mut param = tiling::fill_buffer_image_param(state, size);
        let (alloc, base) = self.alloc_zeroed(name, size as usize);
        param.set_base_address(base);
        self.images.insert(
            binding,
            ImageBinding {
                alloc,
                storage: ImageStorage::Buffer { elements },
                logical_format: logical,
                state_format: state,
                param: param.to_dwords().to_vec(),
                bit6_swizzle: tiling::Bit6Swizzle::None,
                levels: 1,
            },
        );
        Ok(alloc)
    }

    /// Binds the bytes of allocation `alloc` (a buffer) as a raw buffer surface at
    /// binding-table index `binding`: what a stateful untyped message at that index
    /// reads and writes, byte `o` at offset `o`. A surface already bound there is an
    /// error.
    pub fn bind_buffer_surface(&mut self, binding: u32, alloc: AllocId) -> Result<(), BindError> {
        if self.images.contains_key(&binding) {
            return Err(BindError {
                binding,
                reason: "a surface is bound there already".into(),
            });
        }
        let size = self.allocation(alloc).bytes.len() as u64;
        let format = tiling::Format::R32_UINT;
        let mut param = tiling::fill_buffer_image_param(format, size);
        param.set_base_address(self.allocation(alloc).base);
        self.images.insert(
            binding,
            ImageBinding {
                alloc,
                storage: ImageStorage::Buffer { elements: size / 4 },
                logical_format: ir::Format::R32Uint,
                state_format: format,
                param: param.to_dwords().to_vec(),
                bit6_swizzle: tiling::Bit6Swizzle::None,
                levels: 1,
            },
        );
        Ok(())
    }

    /// Makes the surface view bound at `binding` expose `levels` mip levels from its
    /// base level, as a sampled view (Vulkan's `VkImageSubresourceRange::levelCount`)
    /// may; storage views and texel buffers have one. The levels must exist in the
    /// surface, and a 3D view of several levels must cover every slice of its base
    /// level (a 3D image view spans the whole depth of each level).
    pub fn set_view_levels(&mut self, binding: u32, levels: u32) -> Result<(), BindError> {
        let err = |reason: String| BindError { binding, reason };
        let b = self
            .images
            .get_mut(&binding)
            .ok_or_else(|| err("no image is bound there".into()))?;
        let ImageStorage::Surface { surface, view } = &b.storage else {
            if levels == 1 {
                return Ok(());
            }
            return Err(err(format!("a texel buffer has one level, not {levels}")));
        };
        let d = surface.desc();
        if levels == 0 || view.base_level as u64 + levels as u64 > d.levels as u64 {
            return Err(err(format!(
                "the view's levels {}..{} are outside the {} the surface has",
                view.base_level,
                view.base_level as u64 + levels as u64,
                d.levels
            )));
        }
        let slices = tiling::minify(d.depth, view.base_level);
        if levels > 1
            && d.dim == tiling::SurfDim::D3
            && (view.base_layer != 0 || view.layer_count != slices)
        {
            return Err(err(format!(
                "a 3D view of {levels} levels covers all {slices} slices of its base level, \
                 not {}..{}",
                view.base_layer,
                view.base_layer as u64 + view.layer_count as u64
            )));
        }
        b.levels = levels;
        Ok(())
    }

    /// The image bound at binding-table index `binding`.
    pub fn image(&self, binding: u32) -> Option<&ImageBinding> {
        self.images.get(&binding)
    }

    /// Binds sampler state `state` at sampler index `index`.
    pub fn bind_sampler(&mut self, index: u32, state: crate::sampler_state::SamplerState) {
        self.samplers.insert(index, state);
    }

    /// The sampler state at sampler index `index`, if one is bound.
    pub fn sampler(&self, index: u32) -> Option<&crate::sampler_state::SamplerState> {
        self.samplers.get(&index)
    }

    /// Every bound image, by binding.
    pub fn images(&self) -> impl Iterator<Item = (u32, &ImageBinding)> {
        self.images.iter().map(|(k, b)| (*k, b))
    }

    /// Starts a workgroup: its shared local memory is `size` zero bytes, and each
    /// invocation's scratch memory ([`Memory::set_scratch`]) zero bytes.
    pub fn begin_workgroup(&mut self, workgroup: u32, size: usize) {
        self.workgroup = workgroup;
        self.shared.clear();
        self.shared.resize(size, 0);
        self.scratch.fill(0);
    }

    /// Gives each of the `invocations` of a workgroup `bytes` of scratch memory (the
    /// shader's `scratch_size`). Zero-filled, though a program cannot rely on that:
    /// SPIR-V leaves a variable without initializer undefined.
    pub fn set_scratch(&mut self, bytes: u32, invocations: u32) {
        self.scratch_size = bytes;
        self.scratch.clear();
        self.scratch
            .resize(bytes as usize * invocations as usize, 0);
    }

    /// The shared local memory of the current workgroup.
    pub fn shared(&self) -> &[u8] {
        &self.shared
    }

    /// The shared local memory, mutably (to preset it in tests; not logged).
    pub fn shared_mut(&mut self) -> &mut Vec<u8> {
        &mut self.shared
    }

    // ----- the log ------------------------------------------------------------------

    /// Turns access logging on or off.
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }

    /// The accesses recorded so far, in order.
    pub fn log(&self) -> &[Access] {
        &self.log
    }

    /// How many accesses were made (discarded ones included), whether logging was on or
    /// not.
    pub fn access_count(&self) -> u64 {
        self.accesses
    }

    /// Takes the recorded accesses, leaving the log empty.
    pub fn take_log(&mut self) -> Vec<Access> {
        std::mem::take(&mut self.log)
    }

    /// Replaces the accesses recorded since the log held `from` with `entries` (the
    /// access count follows).
    pub fn replace_log_since(&mut self, from: usize, entries: Vec<Access>) {
        let from = from.min(self.log.len());
        let removed = (self.log.len() - from) as u64;
        self.accesses = self.accesses - removed.min(self.accesses) + entries.len() as u64;
        if self.logging {
            self.log.truncate(from);
            self.log.extend(entries);
        }
    }

    /// Records an access that touched no memory (an out-of-bounds typed or image access
    /// the hardware discards).
    pub fn record_discarded(&mut self, kind: AccessKind, space: Space, size: u32, ctx: &AccessCtx) {
        self.accesses += 1;
        if self.logging {
            self.log.push(Access {
                kind,
                space,
                offset: 0,
                address: None,
                size,
                in_bounds: false,
                ctx: *ctx,
            });
        }
    }

    /// Records a texel access of `size` bytes to allocation `alloc` that the bounds check
    /// discarded ([`Memory::record_discarded`]).
    pub fn discard_texel(
        &mut self,
        kind: AccessKind,
        alloc: AllocId,
        size: usize,
        ctx: &AccessCtx,
    ) {
        self.record_discarded(kind, Space::Alloc(alloc), size as u32, ctx);
    }

    /// A bounds-checked texel access: at `Some(offset)` of allocation `alloc`, a load into
    /// `bytes` (`kind` [`AccessKind::Load`]) or a store of them (any other kind); at `None`
    /// a discarded access of their size, leaving `bytes` as they are.
    pub fn texel_access(
        &mut self,
        kind: AccessKind,
        alloc: AllocId,
        offset: Option<u64>,
        bytes: &mut [u8],
        ctx: &AccessCtx,
    ) -> Result<(), MemoryError> {
        let Some(offset) = offset else {
            self.discard_texel(kind, alloc, bytes.len(), ctx);
            return Ok(());
        };
        let target = Target::Alloc(alloc, offset);
        if kind == AccessKind::Load {
            self.load(target, bytes, ctx)
        } else {
            self.store(target, bytes, ctx)
        }
    }

    // ----- accesses -----------------------------------------------------------------

    /// Resolves a target to its space, offset and flat address, checking the range.
    fn locate(
        &self,
        target: Target,
        size: usize,
        kind: AccessKind,
        ctx: &AccessCtx,
    ) -> Result<(Space, u64, Option<u64>), MemoryError> {
        let err = |error| MemoryError {
            kind,
            ctx: *ctx,
            error,
        };
        if let Some(limit) = self
            .log_limit
            .filter(|&l| self.logging && self.log.len() >= l)
        {
            return Err(err(MemoryErrorKind::LogFull { limit }));
        }
        let out_of_range = |space: String, offset: u64, limit: u64| {
            err(MemoryErrorKind::OutOfRange {
                space,
                offset,
                size: size as u32,
                limit,
            })
        };
        let fits = |offset: u64, limit: u64| {
            offset
                .checked_add(size as u64)
                .is_some_and(|end| end <= limit)
        };
        match target {
            Target::Global(address) => match self.resolve(address, size as u64) {
                Some((id, offset)) => Ok((Space::Alloc(id), offset, Some(address))),
                None => Err(err(MemoryErrorKind::Unmapped {
                    address,
                    size: size as u32,
                })),
            },
            Target::Alloc(id, offset) => {
                let a = &self.allocs[id.0 as usize];
                let limit = a.bytes.len() as u64;
                if fits(offset, limit) {
                    Ok((Space::Alloc(id), offset, None))
                } else {
                    Err(out_of_range(a.name.clone(), offset, limit))
                }
            }
            Target::Shared(offset) => {
                let limit = self.shared.len() as u64;
                if fits(offset, limit) {
                    Ok((Space::Shared(self.workgroup), offset, None))
                } else {
                    Err(out_of_range("shared memory".into(), offset, limit))
                }
            }
            Target::Scratch { local, offset } => {
                let limit = u64::from(self.scratch_size);
                let start = u64::from(local) * limit + offset;
                if fits(offset, limit) && fits(start, self.scratch.len() as u64) {
                    Ok((Space::Scratch(self.workgroup), start, None))
                } else {
                    Err(out_of_range(
                        format!("the scratch memory of invocation {local} of the workgroup"),
                        offset,
                        limit,
                    ))
                }
            }
            Target::PushConstants(offset) => {
                let limit = self.push.len() as u64;
                if fits(offset, limit) {
                    Ok((Space::PushConstants, offset, None))
                } else {
                    Err(out_of_range("the push constants".into(), offset, limit))
                }
            }
        }
    }

    /// Records what the bytes at `offset` of allocation `alloc` may be instead of those
    /// just stored there (a store of values that may err, [`crate::tolerance`]). Any
    /// later store or atomic that reaches one of those bytes drops the record.
    pub fn set_tolerance(&mut self, alloc: AllocId, offset: u64, tolerance: Tolerance) {
        if tolerance.fields.is_empty() || tolerance.bytes.len() as u64 > MAX_TOLERANCE_BYTES {
            return;
        }
        self.tolerances.insert((alloc, offset), tolerance);
    }

    /// The record of [`Memory::set_tolerance`] for the bytes at `offset` of `alloc`.
    pub fn tolerance(&self, alloc: AllocId, offset: u64) -> Option<&Tolerance> {
        self.tolerances.get(&(alloc, offset))
    }

    /// The record of [`Memory::set_tolerance`] whose bytes hold the byte at `offset` of
    /// `alloc`, with the offset it starts at.
    pub fn tolerance_covering(&self, alloc: AllocId, offset: u64) -> Option<(u64, &Tolerance)> {
        let from = (alloc, offset.saturating_sub(MAX_TOLERANCE_BYTES - 1));
        self.tolerances
            .range(from..=(alloc, offset))
            .rev()
            .find(|((_, o), t)| o + t.bytes.len() as u64 > offset)
            .map(|((_, o), t)| (*o, t))
    }

    /// Whether any store recorded a [`Tolerance`].
    pub fn has_tolerances(&self) -> bool {
        !self.tolerances.is_empty()
    }

    /// Drops the tolerances of the bytes `[offset, offset + size)` of `space`.
    fn clear_tolerances(&mut self, space: Space, offset: u64, size: usize) {
        let Space::Alloc(id) = space else { return };
        if self.tolerances.is_empty() {
            return;
        }
        let end = offset + size as u64;
        let from = (id, offset.saturating_sub(MAX_TOLERANCE_BYTES - 1));
        let hit: Vec<(AllocId, u64)> = self
            .tolerances
            .range(from..(id, end))
            .filter(|((_, o), t)| o + t.bytes.len() as u64 > offset)
            .map(|(k, _)| *k)
            .collect();
        for k in hit {
            self.tolerances.remove(&k);
        }
    }

    fn bytes_mut(&mut self, space: Space) -> &mut [u8] {
        match space {
            Space::Alloc(id) => &mut self.allocs[id.0 as usize].bytes,
            Space::Shared(_) => &mut self.shared,
            Space::PushConstants => &mut self.push,
            Space::Scratch(_) => &mut self.scratch,
        }
    }

    fn record(
        &mut self,
        kind: AccessKind,
        space: Space,
        offset: u64,
        address: Option<u64>,
        size: usize,
        ctx: &AccessCtx,
    ) {
        self.accesses += 1;
        if self.logging {
            self.log.push(Access {
                kind,
                space,
                offset,
                address,
                size: size as u32,
                in_bounds: true,
                ctx: *ctx,
            });
        }
    }

    /// Reads `out.len()` bytes at `target`.
    pub fn load(
        &mut self,
        target: Target,
        out: &mut [u8],
        ctx: &AccessCtx,
    ) -> Result<(), MemoryError> {
        let (space, offset, address) = self.locate(target, out.len(), AccessKind::Load, ctx)?;
        let o = offset as usize;
        out.copy_from_slice(&self.bytes_mut(space)[o..o + out.len()]);
        self.record(AccessKind::Load, space, offset, address, out.len(), ctx);
        Ok(())
    }

    /// Writes `data` at `target`.
    pub fn store(
        &mut self,
        target: Target,
        data: &[u8],
        ctx: &AccessCtx,
    ) -> Result<(), MemoryError> {
        let (space, offset, address) = self.locate(target, data.len(), AccessKind::Store, ctx)?;
        let o = offset as usize;
        self.clear_tolerances(space, offset, data.len());
        self.bytes_mut(space)[o..o + data.len()].copy_from_slice(data);
        self.record(AccessKind::Store, space, offset, address, data.len(), ctx);
        Ok(())
    }

    /// Reads `out.len()` bytes at `target` without logging (for the read half of a
    /// partial texel write, which the hardware merges internally).
    pub fn peek(&self, target: Target, out: &mut [u8], ctx: &AccessCtx) -> Result<(), MemoryError> {
        let (space, offset, _) = self.locate(target, out.len(), AccessKind::Load, ctx)?;
        let o = offset as usize;
        let bytes: &[u8] = match space {
            Space::Alloc(id) => &self.allocs[id.0 as usize].bytes,
            Space::Shared(_) => &self.shared,
            Space::PushConstants => &self.push,
            Space::Scratch(_) => &self.scratch,
        };
        out.copy_from_slice(&bytes[o..o + out.len()]);
        Ok(())
    }

    /// Reads the little-endian integer of `size` bytes (1, 2, 4 or 8) at `target`,
    /// stores `op(old)` (truncated to `size` bytes) and returns the old value: one
    /// atomic access in the log.
    pub fn atomic(
        &mut self,
        target: Target,
        size: usize,
        ctx: &AccessCtx,
        op: impl FnOnce(u64) -> u64,
    ) -> Result<u64, MemoryError> {
        let (space, offset, address) = self.locate(target, size, AccessKind::Atomic, ctx)?;
        let o = offset as usize;
        self.clear_tolerances(space, offset, size);
        let bytes = &mut self.bytes_mut(space)[o..o + size];
        let mut buf = [0u8; 8];
        buf[..size].copy_from_slice(bytes);
        let old = u64::from_le_bytes(buf);
        let new = op(old).to_le_bytes();
        bytes.copy_from_slice(&new[..size]);
        self.record(AccessKind::Atomic, space, offset, address, size, ctx);
        Ok(old)
    }

    /// Reads a little-endian integer of `size` bytes (1, 2, 4 or 8).
    pub fn load_uint(
        &mut self,
        target: Target,
        size: usize,
        ctx: &AccessCtx,
    ) -> Result<u64, MemoryError> {
        let mut buf = [0u8; 8];
        self.load(target, &mut buf[..size], ctx)?;
        Ok(u64::from_le_bytes(buf))
    }

    /// Writes the low `size` bytes (1, 2, 4 or 8) of `value`, little-endian.
    pub fn store_uint(
        &mut self,
        target: Target,
        size: usize,
        value: u64,
        ctx: &AccessCtx,
    ) -> Result<(), MemoryError> {
        self.store(target, &value.to_le_bytes()[..size], ctx)
    }

    /// An error for an access through a binding nothing is bound to.
    pub fn unbound(
        kind: AccessKind,
        what: &'static str,
        binding: u64,
        ctx: &AccessCtx,
    ) -> MemoryError {
        MemoryError {
            kind,
            ctx: *ctx,
            error: MemoryErrorKind::Unbound { what, binding },
        }
    }
}

/// Checks that the shader's format, the surface-state format and the surface's format
/// describe texels of one size.
fn check_formats(
    logical: ir::Format,
    state: tiling::Format,
    surface: tiling::Format,
) -> Result<(), String> {
    let texel = crate::texel::TexelLayout::from_ir(logical).map_err(|e| e.to_string())?;
    crate::texel::TexelLayout::from_isl(state).map_err(|e| e.to_string())?;
    if state.bpb() != surface.bpb() {
        return Err(format!(
            "the surface-state format {} has {} bits per texel, the surface's format {} has {}",
            state.name(),
            state.bpb(),
            surface.name(),
            surface.bpb()
        ));
    }
    if texel.bytes as u32 * 8 != state.bpb() {
        return Err(format!(
            "the view format {} has {} bits per texel, the surface-state format {} has {}",
            logical,
            texel.bytes * 8,
            state.name(),
            state.bpb()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> AccessCtx {
        AccessCtx {
            inst: Inst::from_u32(3),
            span: Span::new(4, 5),
            op: IntrinsicOp::LoadGlobal,
            lane: 2,
            invocation: 9,
        }
    }

    #[test]
    fn allocations_are_separated_by_gaps() {
        let mut m = Memory::new();
        let (a, base_a) = m.alloc_zeroed("a", 100);
        let (b, base_b) = m.alloc_zeroed("b", 70_000);
        let (_, base_c) = m.alloc_zeroed("c", 1);
        assert_eq!(base_a, FIRST_BASE);
        assert_eq!(base_b, FIRST_BASE + 2 * ALLOC_ALIGN);
        // 70000 bytes round up to two 64 KiB units, plus the gap.
        assert_eq!(base_c, base_b + 3 * ALLOC_ALIGN);
        assert_eq!(m.resolve(base_a + 99, 1), Some((a, 99)));
        assert_eq!(m.resolve(base_a + 99, 2), None);
        assert_eq!(m.resolve(base_b, 4), Some((b, 0)));
        assert_eq!(m.resolve(base_a - 1, 1), None);
    }

    #[test]
    fn accesses_are_logged_and_checked() {
        let mut m = Memory::new();
        let (a, base) = m.alloc_zeroed("buf", 16);
        m.store_uint(Target::Global(base + 4), 4, 0xdead_beef, &ctx())
            .unwrap();
        assert_eq!(
            m.load_uint(Target::Alloc(a, 4), 4, &ctx()).unwrap(),
            0xdead_beef
        );
        let old = m.atomic(Target::Alloc(a, 4), 4, &ctx(), |v| v + 1).unwrap();
        assert_eq!(old, 0xdead_beef);
        assert_eq!(m.allocation(a).bytes[4..8], 0xdead_bef0u32.to_le_bytes());
        let kinds: Vec<_> = m
            .log()
            .iter()
            .map(|x| (x.kind, x.offset, x.address))
            .collect();
        assert_eq!(
            kinds,
            [
                (AccessKind::Store, 4, Some(base + 4)),
                (AccessKind::Load, 4, None),
                (AccessKind::Atomic, 4, None)
            ]
        );
        let e = m.load_uint(Target::Alloc(a, 14), 4, &ctx()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "load of 4 bytes at offset 0xe is out of range of buf (16 bytes) (`@load_global` at 4:5, lane 2, invocation 9)"
        );
        let e = m
            .load_uint(Target::Global(base + 16), 1, &ctx())
            .unwrap_err();
        assert!(matches!(e.error, MemoryErrorKind::Unmapped { .. }));
        // A failed access touches nothing and logs nothing.
        assert_eq!(m.log().len(), 3);
    }

    #[test]
    fn a_full_log_stays_within_its_stated_size() {
        // DEFAULT_LOG_LIMIT's documentation (and the README's table of limits) count
        // some 64 bytes an access: 2^23 of them, about half a gigabyte.
        assert!(std::mem::size_of::<Access>() <= 64);
    }

    #[test]
    fn a_full_log_stops_the_run() {
        let mut m = Memory::new();
        assert_eq!(m.log_limit(), Some(DEFAULT_LOG_LIMIT));
        let a = m.alloc("buf", vec![0; 16]);
        m.set_log_limit(Some(2));
        m.store_uint(Target::Alloc(a, 0), 4, 7, &ctx()).unwrap();
        m.load_uint(Target::Alloc(a, 0), 4, &ctx()).unwrap();
        let e = m.store_uint(Target::Alloc(a, 4), 4, 9, &ctx()).unwrap_err();
        assert_eq!(e.error, MemoryErrorKind::LogFull { limit: 2 });
        assert!(
            e.to_string().starts_with("store past the 2 accesses"),
            "{e}"
        );
        // The refused store wrote nothing; without logging nothing is refused.
        assert_eq!(m.allocation(a).bytes[4..8], [0; 4]);
        m.set_logging(false);
        m.store_uint(Target::Alloc(a, 4), 4, 9, &ctx()).unwrap();
        m.set_log_limit(None);
        m.set_logging(true);
        m.load_uint(Target::Alloc(a, 4), 4, &ctx()).unwrap();
        assert_eq!(m.log().len(), 3);
    }
}
