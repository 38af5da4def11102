//! The queries: `image_size`, `image_levels` and `image_samples`.
//!
//! # Sampled images: the sampler's `resinfo`
//!
//! On a platform with a 3D sampler, `image_size` and `image_levels` of a sampled image
//! (`sampled` access, a texture bound for the sampler) become the sampler's `resinfo`
//! message (`@sampler_resinfo`), as Mesa's and IGC's backends do for a texture's
//! `txs` and `query_levels`: Mesa lowers both to `SHADER_OPCODE_TXS`, the sampler
//! message type `GFX5_SAMPLER_MESSAGE_SAMPLE_RESINFO`, and reads the level count from
//! its fourth channel ("# levels is in .w", `brw_fs_nir.cpp`); IGC has `resinfo` in
//! vISA (`documentation/visa/instructions/INFO.md`). A sampled view has as many levels
//! as the driver's view says, and only its surface state holds them: the image
//! parameter block (`isl_image_param`, a storage-image construct) describes one level
//! and has no level count, so reading it for a texture would need a slot Mesa does not
//! have and a driver does not fill. `resinfo` takes the LOD (relative to the view's
//! base level; the constant 0 when the query has none) and returns, for the surface
//! types the lowering binds (cubes as 2D arrays), width, height (1D arrays: layers),
//! layers or depth, and the level count, the sizes of level `lod` at least 1 and all
//! three 0 for a LOD outside the view (D3D's `resinfo` rule, which Intel's sampler
//! follows and the IR's `image_size` adopts). So component `c` of the size is channel
//! `c`; the request asks for the channels the size has (`r`, `rg`, `rgb`) or for `a`
//! alone. As on every path, a cube's third component counts cubes: channel B divided by
//! 6 (Mesa's cube-array fix-up after `txs`, NIR's `lower_cube_size`). Buffers are not
//! sampled with `resinfo` (INFO.md lists 1D, 2D, 3D and cube surfaces): a texel
//! buffer's size comes from its parameter block as for storage buffers.
//!
//! Without a sampler (PVC) a sampled image's size at LOD 0 (no LOD, or the constant 0)
//! reads the parameter block, whose SIZE slot describes the view's base level; a size
//! at another LOD and `image_levels` are refused
//! ([`LowerErrorKind::SampledLevelsUnavailable`]).
//!
//! # Storage images: their typed surface, or the parameter block
//!
//! A storage image (not a texel buffer) whose other accesses bind it as a typed surface
//! (typed messages or the sampler: [`SurfaceFormat::Typed`], [`SurfaceFormat::ViewFormat`])
//! answers `image_size` with `resinfo` on that surface, as brw answers it with a TXS on
//! the image's own binding: the surface state holds the view's extent, whatever format
//! it converts with. Sizes are planned after every other access of the shader so that
//! the surface is known. Any other image (an untyped path's raw view, only
//! queried, or a platform without a sampler) reads the parameter block's SIZE slot
//! (`docs/hardware/mesa-storage-images.md` §7): the driver fills the block for every
//! storage image. A storage view has exactly one level (Vulkan
//! requires `levelCount` 1 of a storage image view; GLSL's `imageSize` takes no LOD),
//! so a size at a LOD that is not the constant 0 is the SIZE where the LOD is 0 and 0
//! in every component elsewhere, the IR's result for a LOD outside the view (Vulkan
//! leaves it undefined). `image_levels` of a storage image is the constant 1, and
//! `image_samples` 1 (Mesa's `lower_image_samples_to_one`). Components past the image's
//! coordinates are 1.

use super::access::ImageAccess;
use super::context::{EmitCtx, PlanCtx};
use super::sampler::sampler_reads_format;
use crate::address::slot;
use crate::device::Device;
use crate::error::{DimProblem, LowerError, LowerErrorKind, Malformation};
use crate::report::SurfaceFormat;
use ir::function::InstKind;
use ir::{Builder, Format, Function, ImageDim, ImageRef, Inst, Src, Type, Value};
use smallvec::{smallvec, SmallVec};

/// The `resinfo` channel holding the level count (A).
const LEVELS_CHANNEL: u8 = 0b1000;

/// A planned `image_size` read from the parameter block.
#[derive(Clone, Debug)]
pub(crate) struct ImageSize {
    /// The image reference.
    image: ImageRef,
    /// Coordinate components of the image.
    coord_comps: u8,
    /// Result components.
    comps: u8,
    /// Whether the image is a cube (size.z counts faces).
    cube: bool,
    /// The LOD when it is not known to be 0: the size where it is 0, else 0.
    lod: Option<Src>,
}

/// A planned `image_size` or `image_levels` through the sampler's `resinfo`.
#[derive(Clone, Debug)]
pub(crate) struct Resinfo {
    /// The image reference.
    image: ImageRef,
    /// The LOD; `None` for the constant 0.
    lod: Option<Src>,
    /// The `resinfo` channels asked for (R in bit 0).
    channels: u8,
    /// Result components: of a size, component `c` is channel `c`; a level count is
    /// the one channel A.
    comps: u8,
    /// Whether channel B counts the faces of cubes (the size divides it by 6).
    cube: bool,
    /// The surface the driver binds (as for sampler loads).
    pub surface: SurfaceFormat,
}

/// How an `image_size` or `image_levels` is answered.
#[derive(Clone, Debug)]
pub(crate) enum Query {
    /// From the parameter block.
    Param(ImageSize),
    /// From the sampler's `resinfo`.
    Resinfo(Resinfo),
    /// The constant 1: the level count of a storage view.
    OneLevel,
}

/// The size's component count, checked: 32-bit with 1 to 4 components.
fn size_components(access: &ImageAccess<'_>) -> Result<u8, LowerError> {
    if access.arrayed && !access.dim.can_be_arrayed() {
        return Err(
            access.error(LowerErrorKind::UnsupportedDim(DimProblem::Arrayed {
                dim: access.dim,
            })),
        );
    }
    match access.dest {
        Some(t) if t.bit_size() == 32 && (1..=4).contains(&t.num_components()) => {
            Ok(t.num_components())
        }
        found => Err(access.malformed(Malformation::QueryType {
            op: access.op,
            found,
        })),
    }
}

/// Whether the image's queries go through the sampler's `resinfo` on `device`: a sampled
/// image that is not a texel buffer, on a platform with a sampler that reads its format.
fn via_resinfo(access: &ImageAccess<'_>, device: &Device) -> Result<bool, LowerError> {
    if !access.qualifiers.contains(ir::Access::SAMPLED) || access.dim == ImageDim::Buffer {
        return Ok(false);
    }
    if !device.has_sampler {
        return Ok(false);
    }
    if !sampler_reads_format(access.format) {
        return Err(access.error(LowerErrorKind::SamplerUnavailable {
            format: Some(access.format),
        }));
    }
    Ok(true)
}

/// The surface a sampled image is bound with: its format, or the view's.
pub(super) fn sampled_surface(format: Format) -> SurfaceFormat {
    if format == Format::None {
        SurfaceFormat::ViewFormat
    } else {
        SurfaceFormat::Typed(format)
    }
}

/// Plans an `image_size`, once the image's other accesses are planned (`ctx.surfaces`).
pub(crate) fn plan_size(access: &ImageAccess<'_>, ctx: &PlanCtx<'_>) -> Result<Query, LowerError> {
    let device = ctx.device;
    let comps = size_components(access)?;
    let coord_comps = access.dim.texel_coord_components(access.arrayed);
    let lod = access.check_lod()?;
    let lod = if access.const_lod() == Some(0) {
        None
    } else {
        lod
    };
    let cube = access.dim == ImageDim::Cube;
    let resinfo = |surface| {
        let used = comps.min(coord_comps).min(3);
        Query::Resinfo(Resinfo {
            image: access.image,
            lod,
            channels: (1u8 << used) - 1,
            comps,
            cube,
            surface,
        })
    };
    if via_resinfo(access, device)? {
        return Ok(resinfo(sampled_surface(access.format)));
    }
    let sampled_texture =
        access.qualifiers.contains(ir::Access::SAMPLED) && access.dim != ImageDim::Buffer;
    // A storage image bound as a typed surface for its other accesses: that surface's
    // state answers `resinfo` (brw's image_size is a TXS on the image's own binding).
    let typed_surface = match ctx.surfaces[access.image.image.index()] {
        Some(s @ (SurfaceFormat::Typed(_) | SurfaceFormat::ViewFormat)) => Some(s),
        _ => None,
    };
    if let Some(surface) = typed_surface
        .filter(|_| !sampled_texture && access.dim != ImageDim::Buffer && device.has_sampler)
    {
        return Ok(resinfo(surface));
    }
    if sampled_texture && lod.is_some() {
        return Err(access.error(LowerErrorKind::SampledLevelsUnavailable));
    }
    Ok(Query::Param(ImageSize {
        image: access.image,
        coord_comps,
        comps,
        cube,
        lod,
    }))
}

/// Plans an `image_levels`.
pub(crate) fn plan_levels(access: &ImageAccess<'_>, device: &Device) -> Result<Query, LowerError> {
    if access.dest != Some(Type::U32) {
        return Err(access.malformed(Malformation::QueryType {
            op: access.op,
            found: access.dest,
        }));
    }
    if via_resinfo(access, device)? {
        return Ok(Query::Resinfo(Resinfo {
            image: access.image,
            lod: None,
            channels: LEVELS_CHANNEL,
            comps: 1,
            cube: false,
            surface: sampled_surface(access.format),
        }));
    }
    if access.qualifiers.contains(ir::Access::SAMPLED) {
        return Err(access.error(LowerErrorKind::SampledLevelsUnavailable));
    }
    Ok(Query::OneLevel)
}

/// A planned `image_samples`.
#[derive(Clone, Debug)]
pub(crate) enum Samples {
    /// A single-sampled image: the constant 1.
    One,
    /// A multisampled storage image: `SAMPLES.x` of its parameter block.
    Param(ImageRef),
}

/// Plans an `image_samples`: 1 for single-sampled images (Mesa's
/// `lower_image_samples_to_one`), the parameter block's `SAMPLES.x` for multisampled
/// storage images; multisampled textures are refused ([`DimProblem::TextureSamples`]).
pub(crate) fn plan_samples(access: &ImageAccess<'_>) -> Result<Samples, LowerError> {
    if access.dest != Some(Type::U32) {
        return Err(access.malformed(Malformation::QueryType {
            op: access.op,
            found: access.dest,
        }));
    }
    if access.dim != ImageDim::Ms {
        return Ok(Samples::One);
    }
    if (access.qualifiers | access.decl.access).contains(ir::Access::SAMPLED) {
        return Err(access.error(LowerErrorKind::UnsupportedDim(DimProblem::TextureSamples)));
    }
    Ok(Samples::Param(access.image))
}

impl Samples {
    /// Emits the answer in place of `inst`.
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        match self {
            Samples::One => func.inst_mut(inst).kind = InstKind::LoadConst(smallvec![1]),
            Samples::Param(image) => {
                let mut b = ctx.builder(func, inst);
                let v = b.image_load_param(image, slot::SAMPLES, 1);
                ctx.finish(func, inst, Src::new(v));
            }
        }
    }
}

/// The result of `comps` components: `v(c)` for the image's coordinate components
/// (at most 3), 1 past them.
fn components(
    b: &mut Builder<'_>,
    comps: u8,
    coord_comps: u8,
    mut v: impl FnMut(&mut Builder<'_>, u8) -> Src,
) -> Src {
    let mut out: SmallVec<[Src; 4]> = SmallVec::new();
    for c in 0..comps {
        let s = if c < coord_comps.min(3) {
            v(b, c)
        } else {
            Src::new(b.imm_u32(1))
        };
        out.push(s);
    }
    if out.len() == 1 {
        out[0]
    } else {
        Src::new(b.vec(&out))
    }
}

impl Query {
    /// The surface the driver binds for the query, if it reads one.
    pub(crate) fn surface(&self) -> Option<SurfaceFormat> {
        match self {
            Query::Resinfo(r) => Some(r.surface),
            Query::Param(_) | Query::OneLevel => None,
        }
    }

    /// Emits the answer in place of `inst`.
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        match self {
            Query::Param(s) => s.emit(func, inst, ctx),
            Query::Resinfo(r) => r.emit(func, inst, ctx),
            Query::OneLevel => func.inst_mut(inst).kind = InstKind::LoadConst(smallvec![1]),
        }
    }
}

impl ImageSize {
    /// Emits the size in place of `inst`.
    fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let zero = self.lod.map(|_| ctx.zero(func));
        let mut b = ctx.builder(func, inst);
        let size = b.image_load_param(self.image, slot::SIZE, 3);
        // The one level of a storage view: its size at LOD 0, 0 at any other LOD.
        let at_level = self.lod.zip(zero).map(|(lod, z)| b.ieq(lod, z));
        let cube = self.cube;
        let result = components(&mut b, self.comps, self.coord_comps, |b, c| {
            let v = if cube && c == 2 {
                let six = b.imm_u32(6);
                Src::new(b.udiv(Src::channel(size, 2), six))
            } else {
                Src::channel(size, c)
            };
            match (at_level, zero) {
                (Some(ok), Some(z)) => Src::new(b.bcsel(ok, v, z)),
                _ => v,
            }
        });
        ctx.finish(func, inst, result);
    }
}

impl Resinfo {
    /// Emits the `resinfo` and the answer in place of `inst`.
    fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let lod = match self.lod {
            Some(l) => l,
            None => Src::new(ctx.zero(func)),
        };
        let mut b = ctx.builder(func, inst);
        let info: Value = b.sampler_resinfo(self.image, lod, self.channels);
        let n = self.channels.count_ones() as u8;
        let whole = n == self.comps && !(self.cube && n == 3);
        let result = if self.channels == LEVELS_CHANNEL || whole {
            // The message's value is the answer (the instruction takes its place).
            Src::new(info)
        } else {
            let cube = self.cube;
            let pick = |c: u8| {
                if n == 1 {
                    Src::new(info)
                } else {
                    Src::channel(info, c)
                }
            };
            components(&mut b, self.comps, n, |b, c| {
                if cube && c == 2 {
                    let six = b.imm_u32(6);
                    Src::new(b.udiv(pick(2), six))
                } else {
                    pick(c)
                }
            })
        };
        ctx.finish(func, inst, result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::lower_images;
    use crate::LowerOptions;

    fn lower(text: &str, platform: &str) -> Result<(crate::LowerReport, String), LowerError> {
        let mut sh = ir::parse_shader(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let dev = Device::preset(platform).unwrap();
        let r = lower_images(&mut sh, &dev, &LowerOptions::default())?;
        Ok((r, ir::print_shader(&sh)))
    }

    #[test]
    fn multisampled_images_count_their_samples_and_route_untyped() {
        let text = "shader compute (local_size=1,1,1)
image @ms : ms array r32_uint (binding=0)
image @tex : ms rgba8_unorm readonly sampled (binding=1)
image @plain : 2d r32_uint (binding=2)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = @image_samples (@ms)
    32   %2 = @image_samples (@plain)
    32x3 %3 = @image_size (@ms)
    32x4 %4 = vec4 %0.x, %0.y, %0.z, %1
    32   %5 = @image_load (@ms, %4) (dest_type=uint32)
    @image_store (@ms, %4, %5) (src_type=uint32)
    32   %6 = @image_atomic (@ms, %4, %5) (atomic_op=iadd)
    32x3 %7 = vec3 %0.x, %0.y, %0.z
    32x4 %8 = @image_load (@tex, %7) (dest_type=float32)
}
";
        for platform in ["bdw", "skl", "tgl", "dg2", "mtl"] {
            let (r, out) = lower(text, platform).unwrap();
            // Every storage access is untyped, through a raw view of the surface.
            assert_eq!(
                (r.typed_loads, r.typed_stores, r.typed_atomics),
                (0, 0, 0),
                "{platform}"
            );
            assert_eq!(r.samples, 2, "{platform}");
            // The count is slot 7 of the block; the single-sampled image's is 1.
            assert!(out.contains("@image_load_param (@ms) (base=7)"), "{out}");
            assert!(out.contains("%2 = load_const (0x00000001)"), "{out}");
            // The texture: the MCS value, then the sample through it.
            assert!(out.contains("@sampler_ld_mcs (@tex, %7.x, %7.y, "), "{out}");
            assert!(out.contains("@sampler_ld2dms_w (@tex, %7.z, "), "{out}");
        }
        // A texture's count would need the sampler's sampleinfo.
        let e = lower(
            "shader compute (local_size=1,1,1)
image @tex : ms rgba8_unorm readonly sampled (binding=0)

fn main {
  block b0:
    32 %0 = @image_samples (@tex)
}
",
            "dg2",
        )
        .unwrap_err();
        assert_eq!(
            e.kind,
            LowerErrorKind::UnsupportedDim(DimProblem::TextureSamples)
        );
    }

    #[test]
    fn format_less_multisampled_storage_and_static_layouts_are_refused() {
        let load = |decl: &str| {
            format!(
                "shader compute (local_size=1,1,1)
{decl}

fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x4 %1 = @image_load (@ms, %0) (dest_type=uint32)
}}
"
            )
        };
        let e = lower(&load("image @ms : ms unknown readonly (binding=0)"), "dg2").unwrap_err();
        assert_eq!(
            e.kind,
            LowerErrorKind::FormatRequired(crate::error::FormatUse::MultisampledStorage)
        );
        assert!(e.to_string().contains("@ms"), "{e}");
        let e = lower(
            &load("image @ms : ms r32_uint readonly (binding=0, layout={tiling=y, row_pitch=512})"),
            "skl",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("multisampled images take no static layout"),
            "{e}"
        );
    }

    #[test]
    fn sampled_queries_take_resinfo_storage_ones_the_parameter_block() {
        let text = "shader compute (local_size=1,1,1)
image @tex : cube array rgba8_unorm readonly sampled (binding=0)
image @img : 2d r32_float (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x3 %1 = @image_size (@tex, %0.x)
    32   %2 = @image_levels (@tex)
    32x2 %3 = @image_size (@img, %0.y)
    32   %4 = @image_levels (@img)
}
";
        let (r, out) = lower(text, "dg2").unwrap();
        assert_eq!((r.sampler_queries, r.sizes, r.levels), (2, 1, 1));
        assert_eq!(r.bindings.len(), 1);
        assert_eq!(
            r.bindings[0].surface,
            SurfaceFormat::Typed(Format::Rgba8Unorm)
        );
        for want in [
            "@sampler_resinfo (@tex, %0.x) (channels=rgb)",
            "@sampler_resinfo (@tex, ",
            "(channels=a)",
            "@image_load_param (@img) (base=",
            "bcsel",
        ] {
            assert!(out.contains(want), "{want}\n{out}");
        }
        // PVC has no sampler: the sampled size at a LOD and the level count are refused.
        let e = lower(text, "pvc").unwrap_err();
        assert_eq!(e.kind, LowerErrorKind::SampledLevelsUnavailable);
        assert_eq!(e.intrinsic, Some("image_size"));
    }

    #[test]
    fn a_sampled_size_at_lod_zero_reads_the_parameter_block_without_a_sampler() {
        let text = "shader compute (local_size=1,1,1)
image @tex : 2d rgba8_unorm readonly sampled (binding=0)
image @buf : buffer r32_uint readonly sampled (binding=1)

fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32x2 %1 = @image_size (@tex, %0)
    32x2 %2 = @image_size (@tex)
    32   %3 = @image_size (@buf)
}
";
        let (r, _) = lower(text, "pvc").unwrap();
        assert_eq!((r.sampler_queries, r.sizes), (0, 3));
        // With a sampler, the texture's sizes take resinfo and the buffer's the block.
        let (r, _) = lower(text, "tgl").unwrap();
        assert_eq!((r.sampler_queries, r.sizes), (2, 1));
    }

    #[test]
    fn r64_textures_are_not_queried_through_the_sampler() {
        let text = "shader compute (local_size=1,1,1)
image @tex : 2d r64_uint readonly sampled (binding=0)

fn main {
  block b0:
    32   %0 = @image_levels (@tex)
}
";
        let e = lower(text, "dg2").unwrap_err();
        assert_eq!(
            e.kind,
            LowerErrorKind::SamplerUnavailable {
                format: Some(Format::R64Uint)
            }
        );
    }
}
