//! Filtered sampling: `txl` (NIR's `nir_texop_txl`) as the sampler's `sample_l`
//! message (`intel-graphics-compiler/documentation/visa/instructions/3D_SAMPLE.md`)
//! and gathers, `tg4` (`nir_texop_tg4`), as its `gather4` (`3D_SAMPLE4.md`), as brw
//! lowers `SHADER_OPCODE_TXL` and `SHADER_OPCODE_TG4` (`brw_lower_logical_sends.cpp`,
//! `lower_sampler_logical_send`).
//!
//! * **Gathers.** `gather4` takes `u, v, r` as `sample_l` does, without the LOD (a
//!   gather reads the view's base level, which is what the sampler reads at LOD 0 in
//!   a compute shader), and returns the four texels' channel `component` in R, G, B,
//!   A, the order `tg4` defines.
//! * **Offsets.** The lookup's constant texel offset is the message's `aoffimmi`
//!   (the header's offsets, 4 bits each: the IR's range).
//! * **Parameters.** `sample_l` takes `lod, u, v, r` (3D_SAMPLE's parameter table):
//!   1D: u = s; 1D array: u = s, v = the layer (unnormalized); 2D: u = s, v = t; 2D
//!   array: u = s, v = t, r = the layer; 3D: u, v, r = s, t, r. Unused parameters are
//!   the constant 0. The sampler rounds and clamps the layer itself, as Vulkan's
//!   `clamp(RNE(a), 0, layers - 1)` asks; coordinates stay normalized floats.
//! * **Sampler.** The message names the `txl`'s sampler index; the sampler state at
//!   that index of the driver's sampler table (anv's `SAMPLER_STATE` array) does the
//!   filtering, wrapping and LOD clamping the shader does not know.
//! * **Channels.** The `txl`'s first `n` channels as 32-bit floats, or as 32-bit
//!   integers for an integer texture (the sampler returns an integer surface's texels
//!   unconverted; the sampler state must not filter them, as Vulkan filters no integer
//!   format). The surface is bound with the view's own format, whose missing channels
//!   the sampler returns as (0, 0, 1): nothing is left for the shader to fill.
//! * **Platforms.** Every platform with a sampler; PVC has none, and a `txl` there is
//!   [`LowerErrorKind::SamplerUnavailable`].

use super::access::ImageAccess;
use super::context::EmitCtx;
use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind, Malformation};
use crate::report::SurfaceFormat;
use ir::{
    AluType, BaseType, Function, ImageDim, ImageRef, IndexKind, Inst, IntrinsicOp, Src, Type,
};

/// A planned `sample_l` or `gather4`.
#[derive(Clone, Debug)]
pub(crate) struct SampleL {
    image: ImageRef,
    coord: Src,
    /// The LOD of a `txl`; `None` for a gather.
    lod: Option<Src>,
    /// The channel a gather reads; `None` for a `txl`.
    component: Option<u32>,
    offset: u32,
    dim: ImageDim,
    arrayed: bool,
    sampler: u32,
    /// The `dest_type` index: the sampler returns an integer surface's texels as
    /// integers, in the same registers.
    dest_type: u32,
    components: u8,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
}

/// Plans `a` (a `txl` or a `tg4`).
pub(crate) fn plan(a: &ImageAccess<'_>, device: &Device) -> Result<SampleL, LowerError> {
    if !device.has_sampler {
        return Err(a.error(LowerErrorKind::SamplerUnavailable { format: None }));
    }
    let coord = a.check_coord()?;
    let gather = a.op == IntrinsicOp::Tg4;
    let lod = if gather {
        None
    } else {
        if a.src_types.get(1) != Some(&Type::U32) {
            return Err(a.malformed(Malformation::Lod {
                found: a.src_types.get(1).copied().unwrap_or(Type::BOOL),
            }));
        }
        Some(a.srcs[1])
    };
    let dest = a.dest.unwrap_or(Type::U32);
    let components = dest.num_components();
    if dest.bit_size() != 32 || !(1..=4).contains(&components) || gather && components != 4 {
        return Err(a.malformed(Malformation::LoadComponents { found: dest }));
    }
    let index = |k: IndexKind| {
        a.op.index_position(k)
            .and_then(|p| a.indices.get(p).copied())
            .ok_or_else(|| {
                a.malformed(Malformation::BadIndex {
                    kind: k,
                    value: None,
                })
            })
    };
    let sampler = index(IndexKind::Sampler)?;
    let dest_type = index(IndexKind::DestType)?;
    let offset = index(IndexKind::TexelOffset)?;
    let component = if gather {
        Some(index(IndexKind::Component)?)
    } else {
        None
    };
    if !AluType::from_index(dest_type).is_some_and(|t| {
        t.bits == 32 && matches!(t.base, BaseType::Float | BaseType::Int | BaseType::Uint)
    }) {
        return Err(a.malformed(Malformation::BadIndex {
            kind: IndexKind::DestType,
            value: Some(dest_type),
        }));
    }
    let dim_ok = match a.op {
        IntrinsicOp::Tg4 => a.dim == ImageDim::D2,
        _ => !matches!(a.dim, ImageDim::Buffer | ImageDim::Cube),
    };
    if !dim_ok {
        return Err(a.malformed(Malformation::NotAnImageAccess { op: a.op }));
    }
    // Bound as `ld`/`resinfo` bind a sampled image: its format, or the view's.
    let surface = super::size::sampled_surface(a.format);
    Ok(SampleL {
        image: a.image,
        coord,
        lod,
        component,
        offset,
        dim: a.dim,
        arrayed: a.arrayed,
        sampler,
        dest_type,
        components,
        surface,
    })
}

impl SampleL {
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let zero = Src::new(ctx.zero(func));
        let mut b = ctx.builder(func, inst);
        // 3D_SAMPLE's table gives `sample_l` the parameters `ld` takes (3D_LOAD's) for
        // the dimensions `plan` accepts (no buffers, no cubes).
        let [u, v, r] = super::sampler::uvr(self.coord, self.dim, self.arrayed, zero);
        let data = match (self.lod, self.component) {
            (Some(lod), _) => b.intrinsic(
                IntrinsicOp::SamplerSampleL,
                Some(self.image),
                &[lod, u, v, r],
                &[
                    (1u32 << self.components) - 1,
                    self.dest_type,
                    self.sampler,
                    self.offset,
                ],
                Some(Type::vec32(self.components)),
            ),
            (None, component) => b.intrinsic(
                IntrinsicOp::SamplerGather4,
                Some(self.image),
                &[u, v, r],
                &[
                    component.unwrap_or(0),
                    self.dest_type,
                    self.sampler,
                    self.offset,
                ],
                Some(Type::vec32(4)),
            ),
        }
        .expect("a sampler message defines a value");
        ctx.finish(func, inst, Src::new(data));
    }
}
