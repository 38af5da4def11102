//! The high-level image intrinsics, executed on the logical image: the linear reference.
//!
//! An image intrinsic addresses a texel by its coordinates in the bound view, decodes and
//! encodes it with the [`texel`](crate::texel) reference in the format the shader
//! declares, and finds its bytes only through the layout reference
//! (`tiling::Surface::texel_offset`), so both levels share the surface's memory while the
//! reference never computes an address itself.
//!
//! Coordinates (NIR's, signed 32-bit) per dimension, all relative to the view:
//!
//! | image | coordinate | texel |
//! |---|---|---|
//! | 1D | `x` | level's row 0, layer `base_layer` |
//! | 1D array | `(x, layer)` | layer `base_layer + layer` |
//! | 2D | `(x, y)` | layer `base_layer` |
//! | 2D array | `(x, y, layer)` | layer `base_layer + layer` |
//! | cube | `(x, y, face)` | layer `base_layer + face` |
//! | cube array | `(x, y, 6·cube + face)` | layer `base_layer + 6·cube + face` |
//! | 3D | `(x, y, z)` | slice `base_layer + z` (a 3D view's layers are slices) |
//! | buffer | `x` | texel `x` |
//!
//! A coordinate is in bounds when it is non-negative and below the view's width, height,
//! slice count (3D) or layer count (arrays and cubes; a cube view has 6 layers per cube).
//! `image_load` may take NIR's `lod` source (signed, relative to the view's base level;
//! LOD 0 without it): a storage view has one level, so a non-zero LOD is out of bounds;
//! a sampled view reads its level `lod` while `lod` is below its level count.
//! Out-of-bounds accesses follow Vulkan's robust image access: loads return the texel
//! replacement, 0 in the format's components and the format's (0, 0, 1) in the missing
//! G, B, A (the decoding of an all-zero texel: `rg16_float` gives (0, 0, 0, 1.0),
//! `rgba8_unorm` (0, 0, 0, 0); robustImageAccess2 requires exactly this, and it is what
//! Mesa's raw path computes by converting a 0 it selects for out-of-bounds lanes), stores
//! are dropped, atomics are dropped and return 0. They are logged as discarded accesses.
//!
//! Stores write the channels the data provides: a store of `n` components leaves the
//! format's channels from `n` on as they are in memory (what the typed `store_quad` with
//! channel mask `(1 << n) - 1` that Mesa emits does).
//!
//! `image_size` returns the size of mip level `lod` of the view (NIR's `lod` source,
//! signed and relative to the view's base level; LOD 0 without it): `(w)`,
//! `(w, layers)`, `(w, h)`, `(w, h, layers)`, `(w, h, d)`, `(elements)`; for cubes and
//! cube arrays `(w, h, layers / 6)`, the number of cubes, as NIR's `lower_cube_size`
//! computes it. Width, height and 3D depth are the level's, `max(1, size >> lod)` of
//! the base level's (Vulkan's `OpImageQuerySizeLod`); layers do not shrink. A `lod`
//! outside the view's levels gives 0 in every component: Vulkan leaves that result
//! undefined, and 0 is what the sampler's `resinfo` returns for the dimensions of an
//! out-of-range LOD (D3D's `resinfo` rule), so the lowering's paths and this reference
//! agree. `image_levels` is the view's level count ([`ImageBinding::levels`]): 1 for
//! storage views. `image_samples` is 1 (storage images are single-sampled; Mesa's
//! `lower_image_samples_to_one`).
//!
//! `image_block_load` / `image_block_store` move a `W x H` block of raw texels at once
//! for the whole subgroup (see [`execute`]'s `image_block` and the block messages in
//! [`crate::messages`]).
//!
//! Atomics act on single-channel 32- and 64-bit formats (`r32_uint`, `r32_sint`,
//! `r32_float`, `r64_uint`, `r64_sint`) with NIR's semantics (see
//! [`apply_nir_atomic`]), lane by lane in ascending lane order, and on the 16-bit
//! `r16_uint`, `r16_sint` and `r16_float` (typed `d16u32` atomics from Gfx12,
//! `docs/hardware/mesa-storage-images.md` §3) with 32-bit data and results related to the 16-bit texel as
//! [`r16_atomic_operand`] and [`r16_atomic_result`] define: integer operations act on
//! the data's low 16 bits and wrap modulo 2^16, `imin`/`imax` compare 16-bit signed
//! values; the old texel is returned zero-extended (`r16_uint`) or sign-extended
//! (`r16_sint`); on `r16_float` data and result are float32 values, the data converted
//! to binary16 (nearest even) and the operation done in binary16. Integer operations
//! (`cmpxchg` included) on `r16_float` and float operations on `r16_uint`/`r16_sint` are
//! errors, as the validator rules for every format; `xchg` fits all three.

use crate::call::{
    access_ctx, bound_image, check_whole_subgroup, gather_from_lanes, image_binding_index,
    lane_err, scatter_to_lanes, uniform_vector,
};
use crate::memory::{AccessCtx, AccessKind, AllocId, ImageBinding, ImageStorage, Memory, Target};
use crate::texel::{decode_channel, encode_channel, ChannelKind, TexelLayout};
use ir::bounds::Interval;
use ir::eval::{eval_alu, Operand};
use ir::interp::{EnvError, IntrinsicCall};
use ir::{AluOp, AluType, AtomicOp, ImageDecl, ImageDim, IndexKind, IntrinsicOp, Type};
use std::fmt;

/// Why an image intrinsic cannot execute (beyond memory errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// An intrinsic index does not decode or is missing.
    BadIndex {
        /// The index.
        index: &'static str,
    },
    /// The shader's declaration does not match what is bound.
    Mismatch {
        /// The image name.
        image: String,
        /// Why.
        reason: String,
    },
    /// An operation the reference does not define for this format or data.
    Unsupported {
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::BadIndex { index } => write!(f, "index `{index}` is missing or invalid"),
            ImageError::Mismatch { image, reason } => write!(f, "image `@{image}`: {reason}"),
            ImageError::Unsupported { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for ImageError {}

/// The format the reference converts with: the declaration's, which must match the view
/// bound; the view's when the declaration has none (read/write without format).
pub fn logical_layout(decl: &ImageDecl, b: &ImageBinding) -> Result<TexelLayout, ImageError> {
    if decl.format != ir::Format::None && decl.format != b.logical_format {
        return Err(ImageError::Mismatch {
            image: decl.name.clone(),
            reason: format!(
                "declared {} but the bound view is {}",
                decl.format, b.logical_format
            ),
        });
    }
    TexelLayout::from_ir(b.logical_format).map_err(|e| ImageError::Unsupported {
        reason: e.to_string(),
    })
}

fn check_storage(decl: &ImageDecl, b: &ImageBinding) -> Result<(), ImageError> {
    let is_buffer = matches!(b.storage, ImageStorage::Buffer { .. });
    if is_buffer != (decl.dim == ImageDim::Buffer) {
        return Err(ImageError::Mismatch {
            image: decl.name.clone(),
            reason: if is_buffer {
                format!("a {} image is bound to a texel buffer", decl.dim)
            } else {
                "a buffer image is bound to a surface".into()
            },
        });
    }
    if let ImageStorage::Surface { surface, .. } = &b.storage {
        use tiling::SurfDim;
        let want = match decl.dim {
            ImageDim::D1 => SurfDim::D1,
            ImageDim::D2 | ImageDim::Cube | ImageDim::Ms => SurfDim::D2,
            ImageDim::D3 => SurfDim::D3,
            ImageDim::Buffer => unreachable!("checked above"),
        };
        let have = surface.desc().dim;
        if have != want {
            return Err(ImageError::Mismatch {
                image: decl.name.clone(),
                reason: format!("a {} image is bound to a {have} surface", decl.dim),
            });
        }
        // Vulkan: an `MS` image is bound to views of more than one sample, any other
        // to single-sampled ones.
        let samples = surface.desc().samples;
        if (samples > 1) != (decl.dim == ImageDim::Ms) {
            return Err(ImageError::Mismatch {
                image: decl.name.clone(),
                reason: format!(
                    "a {} image is bound to a surface of {samples} samples",
                    decl.dim
                ),
            });
        }
    }
    Ok(())
}

/// The byte offset (in the image's allocation) of the texel at NIR coordinates `coord`,
/// or `None` if the coordinates are outside the view.
pub fn texel_offset(
    decl: &ImageDecl,
    b: &ImageBinding,
    coord: &[u64],
) -> Result<Option<u64>, ImageError> {
    texel_offset_at_lod(decl, b, coord, 0)
}

/// A texel the reference loaded ([`load_texel`]).
pub struct LoadedTexel {
    /// Its channels decoded with the view's format (a missing G, B, A as (0, 0, 1)).
    pub rgba: [u64; 4],
    /// Its bytes (all zero out of bounds).
    bytes: Vec<u8>,
    /// Where it was read; `None` out of bounds.
    at: Option<(AllocId, u64)>,
}

impl LoadedTexel {
    /// The intervals the texel's conversion with `layout` allows
    /// ([`crate::tolerance::load_bounds`]), widened by the tolerance an inexact store
    /// recorded for the texel in `mem`.
    pub fn bounds(&self, mem: &Memory, layout: &TexelLayout) -> [Option<Interval>; 4] {
        let stored = self.at.and_then(|(alloc, o)| mem.tolerance(alloc, o));
        crate::tolerance::load_bounds(layout, &self.bytes, stored)
    }
}

/// Loads the reference's texel at `offset` of `alloc` (where [`texel_offset_at_lod`]
/// put it) through the logged texel access, decoded with `layout`: out of bounds
/// (`None`) the texel replacement, an all-zero texel, decoded. Errors are lane
/// `lane`'s. `image_load` and `txl`'s filtering ([`crate::filtering`]) both read
/// texels this way.
pub fn load_texel(
    mem: &mut Memory,
    alloc: AllocId,
    offset: Option<u64>,
    layout: &TexelLayout,
    ctx: &AccessCtx,
    lane: usize,
) -> Result<LoadedTexel, EnvError> {
    let mut bytes = vec![0u8; layout.bytes];
    mem.texel_access(AccessKind::Load, alloc, offset, &mut bytes, ctx)
        .map_err(|e| lane_err(lane, e))?;
    let rgba = layout.decode(&bytes).map_err(|e| lane_err(lane, e))?;
    Ok(LoadedTexel {
        rgba,
        bytes,
        at: offset.map(|o| (alloc, o)),
    })
}

/// [`texel_offset`] at level `lod` of the view (NIR's `lod` source: signed 32-bit,
/// relative to the view's base level). A storage view has one level, so any LOD but 0
/// is out of bounds; a sampled view has [`ImageBinding::levels`].
pub fn texel_offset_at_lod(
    decl: &ImageDecl,
    b: &ImageBinding,
    coord: &[u64],
    lod: u64,
) -> Result<Option<u64>, ImageError> {
    let c = |i: usize| coord.get(i).map_or(0, |&v| v as u32 as i32 as i64);
    let lod = lod as u32 as i32;
    let Some(ext) = u32::try_from(lod).ok().and_then(|l| b.view_extent(l)) else {
        return Ok(None);
    };
    // (x, y, layer-or-slice) of the texel, relative to the view.
    let (x, y, z, z_limit) = match (decl.dim, decl.arrayed) {
        (ImageDim::Ms, false) => (c(0), c(1), 0, 1),
        (ImageDim::Ms, true) => (c(0), c(1), c(2), ext.layers),
        (ImageDim::Buffer, _) => (c(0), 0, 0, 1),
        (ImageDim::D1, false) => (c(0), 0, 0, 1),
        (ImageDim::D1, true) => (c(0), 0, c(1), ext.layers),
        (ImageDim::D2, false) => (c(0), c(1), 0, 1),
        (ImageDim::D2, true) => (c(0), c(1), c(2), ext.layers),
        (ImageDim::Cube, false) => (c(0), c(1), c(2), ext.layers.min(6)),
        (ImageDim::Cube, true) => (c(0), c(1), c(2), ext.layers),
        (ImageDim::D3, _) => (c(0), c(1), c(2), ext.depth),
    };
    // A multisampled image's sample is its coordinate's last component; a texture's
    // invalid one is the last sample, which the sampler's `ld2dms_w` reads instead.
    let sample = match decl.dim {
        ImageDim::Ms if invalid_sample(decl, b, coord).is_some() => {
            i64::from(b.samples().saturating_sub(1))
        }
        ImageDim::Ms => c(usize::from(decl.coord_components()) - 1),
        _ => 0,
    };
    b.view_texel_offset(&ext, [x, y, z], z_limit, sample)
        .map_err(|reason| ImageError::Unsupported { reason })
}

/// `Some` when `coord` fetches a sample of a multisampled texture at or beyond its
/// sample count: Vulkan leaves such a texel fetch undefined (an invalid texel, without
/// `robustImageAccess2`), and the sampler's `ld2dms_w` clamps the index to the last
/// sample, which the reference reads as well, its value left free. Storage images are
/// bounds-checked by the untyped path's code, which matches the reference's 0.
fn invalid_sample(decl: &ImageDecl, b: &ImageBinding, coord: &[u64]) -> Option<()> {
    let sampled = decl.access.contains(ir::Access::SAMPLED);
    let last = usize::from(decl.coord_components()).checked_sub(1)?;
    let s = *coord.get(last)?;
    (decl.dim == ImageDim::Ms && sampled && s as u32 >= b.samples()).then_some(())
}

/// Intervals that take every value of the load's `dest_type`, for an undefined texel.
fn any_value(call: &IntrinsicCall<'_>) -> [Option<Interval>; 4] {
    let float = call
        .index(IndexKind::DestType)
        .and_then(AluType::from_index)
        .is_some_and(|t| t.base == ir::BaseType::Float);
    let every = if float {
        Interval::new(f64::NEG_INFINITY, f64::INFINITY)
    } else {
        Interval::integers(f64::NEG_INFINITY, f64::INFINITY)
    };
    [Some(every); 4]
}

/// The size `image_size` returns for mip level `lod` of the view (NIR's `lod`: signed
/// 32-bit, relative to the view's base level; before truncation to the destination):
/// every component 0 when `lod` is outside the view's levels.
pub fn image_size(decl: &ImageDecl, b: &ImageBinding, lod: u64) -> [u64; 3] {
    let lod = lod as u32 as i32;
    let Some(ext) = u32::try_from(lod).ok().and_then(|l| b.view_extent(l)) else {
        return [0; 3];
    };
    match (decl.dim, decl.arrayed) {
        (ImageDim::Buffer, _) | (ImageDim::D1, false) => [ext.width, 1, 1],
        (ImageDim::D1, true) => [ext.width, ext.layers, 1],
        (ImageDim::D2 | ImageDim::Ms, false) => [ext.width, ext.height, 1],
        (ImageDim::D2 | ImageDim::Ms, true) => [ext.width, ext.height, ext.layers],
        // NIR's lower_cube_size: a 2D-array size query with z divided by 6.
        (ImageDim::Cube, _) => [ext.width, ext.height, ext.layers / 6],
        (ImageDim::D3, _) => [ext.width, ext.height, ext.depth],
    }
}

/// The texels of a bound view, detiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewBytes {
    /// Width in texels.
    pub width: u64,
    /// Height in texels (1 for 1D and buffers).
    pub height: u64,
    /// Layers, or slices of a 3D view; of a multisampled view, layers times samples,
    /// the samples of a layer one after the other (sample `s` of layer `l` is `l *
    /// samples + s`, isl's physical slice).
    pub layers: u64,
    /// Bytes per texel.
    pub texel_bytes: usize,
    /// The texels, x fastest, then y, then layer (slice).
    pub bytes: Vec<u8>,
}

impl ViewBytes {
    /// The bytes of texel (x, y, layer).
    pub fn texel(&self, x: u64, y: u64, layer: u64) -> &[u8] {
        let i = ((layer * self.height + y) * self.width + x) as usize * self.texel_bytes;
        &self.bytes[i..i + self.texel_bytes]
    }
}

/// Reads the view bound at `binding` through the layout reference
/// (`tiling::Surface::texel_offset`), without logging: the linear copy the verifier
/// compares after running an original and a lowered shader.
pub fn view_bytes(mem: &Memory, binding: u32) -> Result<ViewBytes, ImageError> {
    let b = mem.image(binding).ok_or_else(|| ImageError::Unsupported {
        reason: format!("no image is bound at binding {binding}"),
    })?;
    let ext = b.view_extent(0).ok_or_else(|| ImageError::Unsupported {
        reason: format!("the view at binding {binding} has no level 0"),
    })?;
    let tb = b.state_texel_bytes();
    let samples = u64::from(b.samples());
    let z_limit = ext.layers.max(ext.depth);
    let layers = z_limit * samples;
    let data = &mem.allocation(b.alloc).bytes;
    let mut bytes = Vec::with_capacity((ext.width * ext.height * layers) as usize * tb);
    for slice in 0..layers {
        let (z, sample) = (slice / samples, slice % samples);
        for y in 0..ext.height {
            for x in 0..ext.width {
                let at = [x as i64, y as i64, z as i64];
                let off = b
                    .view_texel_offset(&ext, at, z_limit, sample as i64)
                    .map_err(|reason| ImageError::Unsupported { reason })?
                    .ok_or_else(|| ImageError::Unsupported {
                        reason: format!(
                            "texel ({x}, {y}, {z}) sample {sample} is outside its view"
                        ),
                    })? as usize;
                let texel = data
                    .get(off..off + tb)
                    .ok_or_else(|| ImageError::Unsupported {
                        reason: format!("texel ({x}, {y}, {z}) lies outside the surface's bytes"),
                    })?;
                bytes.extend_from_slice(texel);
            }
        }
    }
    Ok(ViewBytes {
        width: ext.width,
        height: ext.height,
        layers,
        texel_bytes: tb,
        bytes,
    })
}

/// One float ALU op on `bits`-bit values through the shared ALU semantics.
fn float_op(op: AluOp, bits: u8, a: u64, b: u64) -> Result<u64, ImageError> {
    let ty = Type::scalar(bits).ok_or_else(|| ImageError::Unsupported {
        reason: format!("no {bits}-bit floats"),
    })?;
    let out_ty = if op == AluOp::Feq { Type::BOOL } else { ty };
    eval_alu(
        op,
        out_ty,
        &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
    )
    .map(|v| v[0])
    .map_err(|e| ImageError::Unsupported {
        reason: format!("float atomic: {e}"),
    })
}

/// NIR's atomic `op` on a `bits`-bit memory value `old` with operands `data` (and
/// `data2`, the new value of a compare-and-swap whose `data` is the comparand). Returns
/// the new memory value.
///
/// Integer ops wrap; `imin`/`imax` compare signed, `umin`/`umax` unsigned;
/// `inc_wrap` is `old >= data ? 0 : old + 1` and `dec_wrap` is
/// `(old == 0 || old > data) ? data : old - 1`, both unsigned. Float ops use NIR's ALU
/// semantics ([`ir::eval`]): `fadd` rounds to nearest even and keeps denormals; `fmin` and
/// `fmax` ignore a NaN operand and order −0 below +0; `fcmpxchg` compares as floats
/// (`-0 == +0`, a NaN equals nothing); `cmpxchg` compares bits.
pub fn apply_nir_atomic(
    op: AtomicOp,
    bits: u8,
    old: u64,
    data: u64,
    data2: u64,
) -> Result<u64, ImageError> {
    let m = ir::types::bit_mask(bits);
    let (old, data, data2) = (old & m, data & m, data2 & m);
    let sext = |v: u64| ir::eval::sign_extend(bits, v);
    let new = match op {
        AtomicOp::Iadd => old.wrapping_add(data),
        AtomicOp::Imin => {
            if sext(data) < sext(old) {
                data
            } else {
                old
            }
        }
        AtomicOp::Imax => {
            if sext(data) > sext(old) {
                data
            } else {
                old
            }
        }
        AtomicOp::Umin => old.min(data),
        AtomicOp::Umax => old.max(data),
        AtomicOp::Iand => old & data,
        AtomicOp::Ior => old | data,
        AtomicOp::Ixor => old ^ data,
        AtomicOp::Xchg => data,
        AtomicOp::Fadd => float_op(AluOp::Fadd, bits, old, data)?,
        AtomicOp::Fmin => float_op(AluOp::Fmin, bits, old, data)?,
        AtomicOp::Fmax => float_op(AluOp::Fmax, bits, old, data)?,
        AtomicOp::Cmpxchg => {
            if old == data {
                data2
            } else {
                old
            }
        }
        AtomicOp::Fcmpxchg => {
            if float_op(AluOp::Feq, bits, old, data)? != 0 {
                data2
            } else {
                old
            }
        }
        AtomicOp::IncWrap => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::DecWrap => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
    };
    Ok(new & m)
}

/// A 32-bit data operand of an atomic on a 16-bit texel of `kind`, as the 16-bit value
/// the operation takes: on `Float` (r16_float) the float32 converted to binary16, round
/// to nearest even (the format's store conversion); on `Uint`/`Sint` the low 16 bits.
pub fn r16_atomic_operand(kind: ChannelKind, data: u64) -> u64 {
    match kind {
        ChannelKind::Float => encode_channel(ChannelKind::Float, 16, data & 0xffff_ffff),
        _ => data & 0xffff,
    }
}

/// The 32-bit result of an atomic on a 16-bit texel of `kind` whose old value was
/// `old`: zero-extended (`Uint`), sign-extended (`Sint`), or the binary16 converted to
/// float32 (`Float`, exact).
pub fn r16_atomic_result(kind: ChannelKind, old: u64) -> u64 {
    match kind {
        ChannelKind::Sint => ir::eval::sign_extend(16, old & 0xffff) as u64 & 0xffff_ffff,
        ChannelKind::Float => decode_channel(ChannelKind::Float, 16, old & 0xffff),
        _ => old & 0xffff,
    }
}

/// Why an atomic cannot act on a single-channel texel of `bits` bits of `kind` (named
/// `format`), if it cannot.
fn check_atomic_format(
    op: AtomicOp,
    kind: ChannelKind,
    bits: u8,
    format: &str,
    data_bits: u8,
) -> Result<(), ImageError> {
    let integer = matches!(kind, ChannelKind::Uint | ChannelKind::Sint);
    match bits {
        32 | 64 if integer || kind == ChannelKind::Float => Ok(()),
        16 if integer || kind == ChannelKind::Float => {
            if data_bits != 32 {
                return Err(ImageError::Unsupported {
                    reason: format!(
                        "atomics on {format} take 32-bit data and results, not {data_bits}-bit"
                    ),
                });
            }
            // As the validator rules for every format: exchange moves bits, everything
            // else (cmpxchg included) needs data of the format's kind.
            if op != AtomicOp::Xchg && op.is_float() != (kind == ChannelKind::Float) {
                return Err(ImageError::Unsupported {
                    reason: format!(
                        "{} atomic {op} on {format}: its data are {} values",
                        if op.is_float() { "float" } else { "integer" },
                        if kind == ChannelKind::Float {
                            "float32"
                        } else {
                            "integer"
                        }
                    ),
                });
            }
            Ok(())
        }
        _ => Err(ImageError::Unsupported {
            reason: format!(
                "image atomics need a single-channel 32- or 64-bit format, or r16_uint, \
                 r16_sint or r16_float, not {format}"
            ),
        }),
    }
}

fn index(call: &IntrinsicCall<'_>, kind: IndexKind) -> Result<u32, EnvError> {
    call.index(kind)
        .ok_or_else(|| EnvError::new(ImageError::BadIndex { index: kind.name() }))
}

/// Executes a high-level image intrinsic (`image_load`, `image_store`, `image_atomic`,
/// `image_atomic_swap`, `image_size`, `image_samples`, `image_levels`,
/// `image_load_param`) lane by lane,
/// in ascending lane order.
pub fn execute(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    call.check_sources()?;
    let op = call.op();
    let decl = call
        .image
        .ok_or_else(|| EnvError::msg(format!("`@{op}` names no image")))?;
    if matches!(
        op,
        IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore
    ) {
        return image_block(mem, call, decl);
    }
    let lanes: Vec<usize> = call.active_lanes().collect();
    for lane in lanes {
        let ctx = access_ctx(call, lane);
        let (_, b) = bound_image(mem, call, lane)?;
        match op {
            IntrinsicOp::ImageLoadParam => {
                let slot = index(call, IndexKind::Base)? as usize;
                let n = call.dest_components();
                let start = slot * 4;
                let Some(dwords) = b.param.get(start..start + n) else {
                    return Err(lane_err(
                        lane,
                        ImageError::Unsupported {
                            reason: format!(
                                "parameter slot {slot} is outside the block of {} dwords",
                                b.param.len()
                            ),
                        },
                    ));
                };
                let vals: Vec<u64> = dwords.iter().map(|&d| d as u64).collect();
                call.set_dest(lane, &vals);
                continue;
            }
            IntrinsicOp::ImageSamples => {
                call.set_dest(lane, &[u64::from(b.samples())]);
                continue;
            }
            _ => {}
        }
        check_storage(decl, b).map_err(|e| lane_err(lane, e))?;
        let alloc = b.alloc;
        match op {
            IntrinsicOp::ImageSize => {
                // NIR's optional `lod` source; without it the LOD is 0.
                let lod = if call.has_src(0) {
                    call.src_scalar(0, lane)
                } else {
                    0
                };
                let s = image_size(decl, b, lod);
                call.set_dest(lane, &s);
            }
            IntrinsicOp::ImageLevels => {
                call.set_dest(lane, &[u64::from(b.levels)]);
            }
            IntrinsicOp::ImageLoad => {
                let layout = logical_layout(decl, b).map_err(|e| lane_err(lane, e))?;
                // NIR's optional `lod` source; without it the LOD is 0.
                let lod = if call.has_src(1) {
                    call.src_scalar(1, lane)
                } else {
                    0
                };
                let offset = texel_offset_at_lod(decl, b, call.src(0, lane), lod)
                    .map_err(|e| lane_err(lane, e))?;
                let undefined = invalid_sample(decl, b, call.src(0, lane)).is_some();
                let t = load_texel(mem, alloc, offset, &layout, &ctx, lane)?;
                call.set_dest(lane, &t.rgba);
                if call.tracks_bounds() && call.dest_type.is_some_and(|t| t.bit_size() == 32) {
                    let bounds = if undefined {
                        any_value(call)
                    } else {
                        t.bounds(mem, &layout)
                    };
                    call.set_dest_bounds(lane, &bounds);
                }
            }
            IntrinsicOp::ImageStore => {
                let layout = logical_layout(decl, b).map_err(|e| lane_err(lane, e))?;
                let offset =
                    texel_offset(decl, b, call.src(0, lane)).map_err(|e| lane_err(lane, e))?;
                let Some(offset) = offset else {
                    mem.discard_texel(AccessKind::Store, alloc, layout.bytes, &ctx);
                    continue;
                };
                let data = call.src(1, lane);
                let mut rgba = [0u64; 4];
                let n = data.len().min(4);
                rgba[..n].copy_from_slice(&data[..n]);
                let mut bytes = vec![0u8; layout.bytes];
                let target = Target::Alloc(alloc, offset);
                mem.peek(target, &mut bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                layout
                    .encode_into(&rgba, ((1u16 << n) - 1) as u8, &mut bytes)
                    .map_err(|e| lane_err(lane, e))?;
                mem.store(target, &bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                // 32-bit register values, and 64-bit ones (an integer interval: a
                // float's bits widened, `ir::bounds`).
                if let Some(bounds) = call
                    .src_bounds(1, lane)
                    .filter(|_| matches!(call.src_type(1).bit_size(), 32 | 64))
                {
                    if let Some(t) = crate::tolerance::store_tolerance(&layout, &bytes, bounds) {
                        mem.set_tolerance(alloc, offset, t);
                    }
                }
            }
            IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => {
                let layout = logical_layout(decl, b).map_err(|e| lane_err(lane, e))?;
                let aop = AtomicOp::from_index(index(call, IndexKind::AtomicOp)?)
                    .ok_or_else(|| EnvError::new(ImageError::BadIndex { index: "atomic_op" }))?;
                let (kind, bits) = match layout.channels.as_slice() {
                    [c] if c.slot == 0 => (c.kind, c.bits),
                    // Not single-channel: refused below.
                    _ => (ChannelKind::Raw, 0),
                };
                check_atomic_format(aop, kind, bits, &layout.name, call.src_type(1).bit_size())
                    .map_err(|e| lane_err(lane, e))?;
                let offset =
                    texel_offset(decl, b, call.src(0, lane)).map_err(|e| lane_err(lane, e))?;
                let Some(offset) = offset else {
                    // Dropped; the destination keeps its 0.
                    mem.discard_texel(AccessKind::Atomic, alloc, layout.bytes, &ctx);
                    continue;
                };
                let (mut data, mut data2) = if op == IntrinsicOp::ImageAtomicSwap {
                    (call.src_scalar(1, lane), call.src_scalar(2, lane))
                } else {
                    (call.src_scalar(1, lane), 0)
                };
                if bits == 16 {
                    data = r16_atomic_operand(kind, data);
                    data2 = r16_atomic_operand(kind, data2);
                }
                let mut failure = None;
                let old = mem
                    .atomic(Target::Alloc(alloc, offset), layout.bytes, &ctx, |old| {
                        match apply_nir_atomic(aop, bits, old, data, data2) {
                            Ok(new) => new,
                            Err(e) => {
                                failure = Some(e);
                                old
                            }
                        }
                    })
                    .map_err(|e| lane_err(lane, e))?;
                if let Some(e) = failure {
                    return Err(lane_err(lane, e));
                }
                let result = if bits == 16 {
                    r16_atomic_result(kind, old)
                } else {
                    old
                };
                call.set_dest(lane, &[result]);
            }
            other => {
                return Err(EnvError::msg(format!(
                    "`@{other}` is not an image intrinsic"
                )));
            }
        }
    }
    Ok(())
}

/// `image_block_load` / `image_block_store`: the `W x H` texel block at `(x, y)` of a
/// non-arrayed 2D view, as raw texel bits (no format conversion), packed row-major
/// without padding into a register image (row pitch `W · bpp`) and spread over the lanes
/// as block messages spread theirs ([`crate::call::scatter_to_lanes`]). The access
/// is subgroup-level: every lane must be active and pass the same coordinate (lane 0's
/// is used). Texels outside the view read 0 and are not written (logged as discarded).
/// Texels of 1, 2, 4 or 8 bytes.
fn image_block(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    decl: &ImageDecl,
) -> Result<(), EnvError> {
    let op = call.op();
    check_whole_subgroup(call)?;
    if decl.dim != ImageDim::D2 || decl.arrayed {
        return Err(EnvError::new(ImageError::Unsupported {
            reason: format!(
                "`@{op}` accesses non-arrayed 2D images, not a {} image",
                decl.dim
            ),
        }));
    }
    let shape = ir::lsc::BlockShape::from_index(index(call, IndexKind::Block)?)
        .filter(|s| !s.is_untyped())
        .ok_or_else(|| EnvError::new(ImageError::BadIndex { index: "block" }))?;
    let coord = uniform_vector(call, 0, "coordinate")?;
    let (binding, b) = bound_image(mem, call, 0)?;
    for lane in 1..call.num_lanes() {
        if image_binding_index(call, lane)? != binding {
            return Err(lane_err(
                lane,
                ImageError::Unsupported {
                    reason: format!("`@{op}` needs the same image in every lane"),
                },
            ));
        }
    }
    check_storage(decl, b).map_err(|e| lane_err(0, e))?;
    let layout = logical_layout(decl, b).map_err(|e| lane_err(0, e))?;
    let tb = layout.bytes;
    if !matches!(tb, 1 | 2 | 4 | 8) {
        return Err(EnvError::new(ImageError::Unsupported {
            reason: format!(
                "`@{op}` moves texels of 1, 2, 4 or 8 bytes, not the {tb} of {}",
                layout.name
            ),
        }));
    }
    let b = b.clone();
    let (w, h) = (shape.width as usize, shape.height as usize);
    let bytes = w * h * tb;
    let ctx = access_ctx(call, 0);
    let store = op == IntrinsicOp::ImageBlockStore;
    let kind = if store {
        AccessKind::Store
    } else {
        AccessKind::Load
    };
    let mut r = if store {
        gather_from_lanes(call, 1, bytes)?
    } else {
        vec![0u8; bytes]
    };
    let (x0, y0) = (coord[0] as u32 as i32 as i64, coord[1] as u32 as i32 as i64);
    for j in 0..h {
        for i in 0..w {
            let c = [(x0 + i as i64) as u64, (y0 + j as i64) as u64];
            let at = (j * w + i) * tb;
            let offset = texel_offset(decl, &b, &c).map_err(|e| lane_err(0, e))?;
            mem.texel_access(kind, b.alloc, offset, &mut r[at..at + tb], &ctx)
                .map_err(|e| lane_err(0, e))?;
        }
    }
    if store {
        Ok(())
    } else {
        scatter_to_lanes(call, &r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{Executor, RunResult};
    use ir::{Shader, Value};

    use crate::fixtures::parse;

    fn surface(
        dim: tiling::SurfDim,
        format: tiling::Format,
        w: u32,
        h: u32,
        d: u32,
        layers: u32,
        levels: u32,
    ) -> tiling::Surface {
        let desc =
            tiling::SurfaceDesc::new(tiling::Gen::Gfx125, dim, format, tiling::Tiling::Linear)
                .extent(w, h, d)
                .array_len(layers)
                .levels(levels);
        tiling::Surface::new(desc).unwrap()
    }

    fn view(
        base_level: u32,
        base_layer: u32,
        layer_count: u32,
        format: tiling::Format,
    ) -> tiling::ImageView {
        tiling::ImageView {
            base_level,
            base_layer,
            layer_count,
            format,
        }
    }

    /// Writes the 32-bit word `v` at physical texel (x, y, z, level) of image `binding`.
    fn poke(mem: &mut Memory, binding: u32, x: u32, y: u32, z: u32, level: u32, v: u32) {
        let b = mem.image(binding).unwrap();
        let off = match &b.storage {
            ImageStorage::Surface { surface, .. } => surface
                .texel_offset(x, y, z, level, tiling::Bit6Swizzle::None)
                .unwrap(),
            ImageStorage::Buffer { .. } => x as u64 * 4,
        } as usize;
        let id = b.alloc;
        mem.allocation_mut(id).bytes[off..off + 4].copy_from_slice(&v.to_le_bytes());
    }

    fn run(ex: &mut Executor<'_>, record: &[u32]) -> RunResult {
        let rec: Vec<Value> = record.iter().map(|&v| Value::from_u32(v)).collect();
        ex.run_recording([1, 1, 1], &rec)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn val(r: &RunResult, v: u32) -> Vec<u64> {
        r.values[&Value::from_u32(v)][0].clone().unwrap()
    }

    const R32: tiling::Format = tiling::Format::R32_UINT;

    fn bind_all(mem: &mut Memory) {
        use tiling::SurfDim::*;
        let surfaces = [
            // 1D array: 8 wide, 4 layers, viewed from layer 1 (3 layers).
            (0, "a1", surface(D1, R32, 8, 1, 1, 4, 1), view(0, 1, 3, R32)),
            // Cube: 4x4, 6 layers.
            (
                1,
                "cube",
                surface(D2, R32, 4, 4, 1, 6, 1),
                view(0, 0, 6, R32),
            ),
            // Cube array of 2 cubes.
            (
                2,
                "cubes",
                surface(D2, R32, 4, 4, 1, 12, 1),
                view(0, 0, 12, R32),
            ),
            // 3D 4x4x4, viewed from slice 1 (3 slices).
            (
                3,
                "vol",
                surface(D3, R32, 4, 4, 4, 1, 1),
                view(0, 1, 3, R32),
            ),
            // 2D 8x8 with 3 levels, viewed at level 1.
            (
                5,
                "mip",
                surface(D2, R32, 8, 8, 1, 1, 3),
                view(1, 0, 1, R32),
            ),
        ];
        for (binding, name, surface, view) in surfaces {
            mem.bind_surface_image(
                binding,
                name,
                surface,
                view,
                ir::Format::R32Uint,
                R32,
                tiling::Bit6Swizzle::None,
            )
            .unwrap();
        }
        // A 16-texel buffer.
        mem.bind_buffer_image(4, "buf", 16, ir::Format::R32Uint, R32)
            .unwrap();
    }

    /// A single-lane executor of `text` with the images of [`bind_all`] bound.
    fn with_all_images(text: &str) -> Executor<'static> {
        let shader: &'static Shader = Box::leak(Box::new(parse(text)));
        let mut ex = crate::fixtures::executor(shader, 1);
        bind_all(&mut ex.memory);
        ex
    }

    /// The accesses a run dropped as out of bounds.
    fn discarded(r: &RunResult) -> usize {
        r.accesses.iter().filter(|a| !a.in_bounds).count()
    }

    const DECLS: &str = "shader compute (local_size=1,1,1)
image @a1 : 1d array r32_uint (binding=0)
image @cube : cube r32_uint (binding=1)
image @cubes : cube array r32_uint (binding=2)
image @vol : 3d r32_uint (binding=3)
image @buf : buffer r32_uint (binding=4)
image @mip : 2d r32_uint (binding=5)
";

    #[test]
    fn coordinates_address_the_view() {
        let text = format!(
            "{DECLS}fn main {{
  block b0:
    32x2 %0 = load_const (5, 2)
    32   %1 = @image_load (@a1, %0) (dest_type=uint32)
    32x3 %2 = load_const (1, 2, 4)
    32   %3 = @image_load (@cube, %2) (dest_type=uint32)
    32x3 %4 = load_const (3, 0, 11)
    32   %5 = @image_load (@cubes, %4) (dest_type=uint32)
    32x3 %6 = load_const (1, 2, 2)
    32   %7 = @image_load (@vol, %6) (dest_type=uint32)
    32   %8 = load_const (9)
    32   %9 = @image_load (@buf, %8) (dest_type=uint32)
    32x2 %10 = load_const (3, 2)
    32   %11 = @image_load (@mip, %10) (dest_type=uint32)
    32x3 %12 = load_const (1, 2, 6)
    32   %13 = @image_load (@cube, %12) (dest_type=uint32)
    32x2 %14 = load_const (5, 3)
    32   %15 = @image_load (@a1, %14) (dest_type=uint32)
    32x3 %16 = load_const (1, 2, 3)
    32   %17 = @image_load (@vol, %16) (dest_type=uint32)
    32x2 %18 = load_const (-1, 0)
    32   %19 = @image_load (@a1, %18) (dest_type=uint32)
    32   %20 = load_const (16)
    32   %21 = @image_load (@buf, %20) (dest_type=uint32)
    32x2 %22 = load_const (4, 0)
    32   %23 = @image_load (@mip, %22) (dest_type=uint32)
}}"
        );
        let mut ex = with_all_images(&text);
        let m = &mut ex.memory;
        poke(m, 0, 5, 0, 3, 0, 1001); // 1D array: layer 2 of the view is physical layer 3
        poke(m, 1, 1, 2, 4, 0, 1002); // cube face 4
        poke(m, 2, 3, 0, 11, 0, 1003); // cube 1, face 5 = layer 11
        poke(m, 3, 1, 2, 3, 0, 1004); // slice 2 of the view is physical slice 3
        poke(m, 4, 9, 0, 0, 0, 1005); // element 9
        poke(m, 5, 3, 2, 0, 1, 1006); // level 1 of the surface
        let r = run(&mut ex, &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23]);
        assert_eq!(
            [1, 3, 5, 7, 9, 11].map(|v| val(&r, v)[0]),
            [1001, 1002, 1003, 1004, 1005, 1006]
        );
        // Face 6, layer 3 of a 3-layer view, slice 3 of a 3-slice view, x = -1, element 16
        // and x = 4 of
        // the 4-wide level 1 are outside: 0.
        assert_eq!([13, 15, 17, 19, 21, 23].map(|v| val(&r, v)[0]), [0; 6]);
        assert_eq!(discarded(&r), 6);
    }

    #[test]
    fn lod_is_relative_to_the_one_level_of_the_view() {
        // LOD 0 (given or left out) reads the view's level, whatever its physical level
        // (@mip is viewed at level 1); any other LOD, negative ones included, is out of
        // bounds, on surfaces and buffers alike.
        let text = format!(
            "{DECLS}fn main {{
  block b0:
    32x2 %0 = load_const (1, 1)
    32   %1 = load_const (0)
    32   %2 = load_const (1)
    32   %3 = load_const (-1)
    32   %4 = @image_load (@mip, %0) (dest_type=uint32)
    32   %5 = @image_load (@mip, %0, %1) (dest_type=uint32)
    32x4 %6 = @image_load (@mip, %0, %2) (dest_type=uint32)
    32   %7 = @image_load (@mip, %0, %3) (dest_type=uint32)
    32   %8 = load_const (9)
    32   %9 = @image_load (@buf, %8, %1) (dest_type=uint32)
    32   %10 = @image_load (@buf, %8, %2) (dest_type=uint32)
}}"
        );
        let mut ex = with_all_images(&text);
        let m = &mut ex.memory;
        poke(m, 5, 1, 1, 0, 1, 1006);
        poke(m, 5, 1, 1, 0, 2, 2006); // level 2 of the surface: not part of the view
        poke(m, 4, 9, 0, 0, 0, 1005);
        let r = run(&mut ex, &[4, 5, 6, 7, 9, 10]);
        assert_eq!(
            [4, 5, 6, 7, 9, 10].map(|v| val(&r, v)[0]),
            [1006, 1006, 0, 0, 1005, 0]
        );
        // Out of bounds, an R32_UINT texel reads as the zero texel converted to RGBA
        // (robustImageAccess2): the missing alpha is 1.
        assert_eq!(val(&r, 6), [0, 0, 0, 1]);
        assert_eq!(discarded(&r), 3);
    }

    #[test]
    fn sizes_samples_and_params() {
        let text = format!(
            "{DECLS}fn main {{
  block b0:
    32x2 %0 = @image_size (@a1)
    32x3 %1 = @image_size (@cube)
    32x3 %2 = @image_size (@cubes)
    32x3 %3 = @image_size (@vol)
    32   %4 = @image_size (@buf)
    32x2 %5 = @image_size (@mip)
    32   %6 = @image_samples (@mip)
    32x4 %7 = @image_load_param (@mip) (base=1)
}}"
        );
        let mut ex = with_all_images(&text);
        let param: Vec<u64> = ex.memory.image(5).unwrap().param[4..8]
            .iter()
            .map(|&d| d as u64)
            .collect();
        let r = run(&mut ex, &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(val(&r, 0), [8, 3]);
        // Cubes report the number of cubes in z: 6 / 6 and 12 / 6.
        assert_eq!(val(&r, 1), [4, 4, 1]);
        assert_eq!(val(&r, 2), [4, 4, 2]);
        assert_eq!(val(&r, 3), [4, 4, 3]);
        assert_eq!(val(&r, 4), [16]);
        assert_eq!(val(&r, 5), [4, 4]);
        assert_eq!(val(&r, 6), [1]);
        assert_eq!(val(&r, 7), param);
    }

    #[test]
    fn stores_write_the_given_channels_and_drop_out_of_bounds() {
        let text = "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (1, 0)
    32x2 %1 = load_const (1.0, 0.5)
    @image_store (@img, %0, %1) (src_type=float32)
    32x2 %2 = load_const (0, 2)
    32x4 %3 = load_const (1.0, 1.0, 1.0, 1.0)
    @image_store (@img, %2, %3) (src_type=float32)
}";
        let shader = parse(text);
        let mut ex = crate::fixtures::executor(&shader, 1);
        let f = tiling::Format::R8G8B8A8_UNORM;
        let id =
            crate::fixtures::bind_linear_2d(&mut ex.memory, 0, f, ir::Format::Rgba8Unorm, [2, 2]);
        ex.memory.allocation_mut(id).bytes.fill(0x11);
        let r = run(&mut ex, &[]);
        let off = match &ex.memory.image(0).unwrap().storage {
            ImageStorage::Surface { surface, .. } => surface
                .texel_offset(1, 0, 0, 0, tiling::Bit6Swizzle::None)
                .unwrap() as usize,
            _ => unreachable!(),
        };
        // (1.0, 0.5) -> 0xff, round_even(127.5) = 0x80; B and A keep 0x11.
        assert_eq!(
            ex.memory.allocation(id).bytes[off..off + 4],
            [0xff, 0x80, 0x11, 0x11]
        );
        // y = 2 of a 2-high image: dropped.
        let count = ex
            .memory
            .allocation(id)
            .bytes
            .iter()
            .filter(|&&b| b != 0x11)
            .count();
        assert_eq!(count, 2);
        assert_eq!(discarded(&r), 1);
        let v = view_bytes(&ex.memory, 0).unwrap();
        assert_eq!((v.width, v.height, v.layers, v.texel_bytes), (2, 2, 1, 4));
        assert_eq!(v.texel(1, 0, 0), [0xff, 0x80, 0x11, 0x11]);
        assert_eq!(v.texel(0, 1, 0), [0x11; 4]);
    }

    #[test]
    fn out_of_bounds_loads_return_the_texel_replacement() {
        // Vulkan's texel replacement: 0 in the format's components, (0, 0, 1) in the
        // missing G, B, A.
        let text = "shader compute (local_size=1,1,1)
image @a : 2d rg16_float (binding=0)
image @b : 2d rgba8_unorm (binding=1)
image @c : 2d r32_uint (binding=2)
fn main {
  block b0:
    32x2 %0 = load_const (5, 0)
    32x4 %1 = @image_load (@a, %0) (dest_type=float32)
    32x4 %2 = @image_load (@b, %0) (dest_type=float32)
    32x4 %3 = @image_load (@c, %0) (dest_type=uint32)
}";
        let shader = parse(text);
        let mut ex = crate::fixtures::executor(&shader, 1);
        let formats = [
            (tiling::Format::R16G16_FLOAT, ir::Format::Rg16Float),
            (tiling::Format::R8G8B8A8_UNORM, ir::Format::Rgba8Unorm),
            (R32, ir::Format::R32Uint),
        ];
        for (i, (f, irf)) in formats.into_iter().enumerate() {
            let id = crate::fixtures::bind_linear_2d(&mut ex.memory, i as u32, f, irf, [2, 2]);
            ex.memory.allocation_mut(id).bytes.fill(0x5a);
        }
        let r = run(&mut ex, &[1, 2, 3]);
        assert_eq!(val(&r, 1), [0, 0, 0, 0x3f80_0000]);
        assert_eq!(val(&r, 2), [0, 0, 0, 0]);
        assert_eq!(val(&r, 3), [0, 0, 0, 1]);
        assert_eq!(discarded(&r), 3);
    }

    #[test]
    fn nir_atomics_by_hand() {
        use AtomicOp::*;
        let nan = 0x7fc0_0000;
        let cases: &[(AtomicOp, u64, u64, u64, u64)] = &[
            (Iadd, 0xffff_fffe, 3, 0, 1),
            (Imin, 5, 0xffff_fffb, 0, 0xffff_fffb),
            (Imax, 0xffff_fffb, 5, 0, 5),
            (Umin, 5, 0xffff_fffb, 0, 5),
            (Umax, 5, 0xffff_fffb, 0, 0xffff_fffb),
            (Iand, 0b1100, 0b1010, 0, 0b1000),
            (Ior, 0b1100, 0b1010, 0, 0b1110),
            (Ixor, 0b1100, 0b1010, 0, 0b0110),
            (Xchg, 1, 2, 0, 2),
            // 0.5 + 0.25 = 0.75
            (Fadd, 0x3f00_0000, 0x3e80_0000, 0, 0x3f40_0000),
            (Fmin, 0x3f80_0000, nan, 0, 0x3f80_0000),
            (Fmin, 0, 0x8000_0000, 0, 0x8000_0000),
            (Fmax, 0x8000_0000, 0, 0, 0),
            (Cmpxchg, 7, 7, 9, 9),
            (Cmpxchg, 7, 8, 9, 7),
            (Fcmpxchg, 0x8000_0000, 0, 0x3f80_0000, 0x3f80_0000),
            (Fcmpxchg, nan, nan, 0x3f80_0000, nan),
            // inc_wrap: old >= data ? 0 : old + 1
            (IncWrap, 3, 3, 0, 0),
            (IncWrap, 2, 3, 0, 3),
            // dec_wrap: old == 0 || old > data ? data : old - 1
            (DecWrap, 0, 5, 0, 5),
            (DecWrap, 6, 5, 0, 5),
            (DecWrap, 4, 5, 0, 3),
        ];
        for &(op, old, a, b, new) in cases {
            assert_eq!(
                apply_nir_atomic(op, 32, old, a, b).unwrap(),
                new,
                "{op} {old:#x} {a:#x} {b:#x}"
            );
        }
        // 64-bit: imin compares 64-bit signed values.
        assert_eq!(
            apply_nir_atomic(Imin, 64, 1, u64::MAX, 0).unwrap(),
            u64::MAX
        );
    }

    #[test]
    fn r16_atomic_operands_and_results_by_hand() {
        use ChannelKind::*;
        // Integer data keep their low 16 bits; float32 data round to binary16, nearest
        // even: 1 + 2^-11 is halfway between 0x3c00 and 0x3c01 and goes to 0x3c00,
        // 65520.0 overflows to +inf (0x7c00), 2^-25 is halfway between 0 and the
        // smallest subnormal and goes to 0.
        assert_eq!(r16_atomic_operand(Uint, 0x0001_fffe), 0xfffe);
        assert_eq!(r16_atomic_operand(Sint, 0xffff_63c0), 0x63c0);
        assert_eq!(r16_atomic_operand(Float, 0x3f80_1000), 0x3c00);
        assert_eq!(r16_atomic_operand(Float, 0x477f_f000), 0x7c00);
        assert_eq!(r16_atomic_operand(Float, 0x3300_0000), 0x0000);
        assert_eq!(r16_atomic_operand(Float, 0xbf80_0000), 0xbc00);
        // Results: zero-extended, sign-extended, widened exactly.
        assert_eq!(r16_atomic_result(Uint, 0x8003), 0x8003);
        assert_eq!(r16_atomic_result(Sint, 0x8003), 0xffff_8003);
        assert_eq!(r16_atomic_result(Sint, 0x7fff), 0x7fff);
        assert_eq!(r16_atomic_result(Float, 0x0001), 0x3380_0000);
        assert_eq!(r16_atomic_result(Float, 0xfc00), 0xff80_0000);
        // 16-bit atomics on the wrong kind of data, or on other formats, are errors.
        let e = check_atomic_format(AtomicOp::Iadd, Float, 16, "r16_float", 32).unwrap_err();
        assert_eq!(
            e.to_string(),
            "integer atomic iadd on r16_float: its data are float32 values"
        );
        let e = check_atomic_format(AtomicOp::Fmin, Sint, 16, "r16_sint", 32).unwrap_err();
        assert_eq!(
            e.to_string(),
            "float atomic fmin on r16_sint: its data are integer values"
        );
        let e = check_atomic_format(AtomicOp::Iadd, Uint, 16, "r16_uint", 16).unwrap_err();
        assert_eq!(
            e.to_string(),
            "atomics on r16_uint take 32-bit data and results, not 16-bit"
        );
        assert!(check_atomic_format(AtomicOp::Xchg, Float, 16, "r16_float", 32).is_ok());
        for (kind, bits, name) in [(Uint, 8, "r8_uint"), (Unorm, 16, "r16_unorm")] {
            let e = check_atomic_format(AtomicOp::Iadd, kind, bits, name, 32).unwrap_err();
            assert!(e.to_string().ends_with(&format!("not {name}")), "{e}");
        }
    }

    #[test]
    fn image_atomics_return_the_old_texel() {
        let text = "shader compute (local_size=2,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (1, 1)
    32   %1 = load_const (5)
    32   %2 = @image_atomic (@img, %0, %1) (atomic_op=inc_wrap)
    32   %3 = load_const (6)
    32   %4 = load_const (100)
    32   %5 = @image_atomic_swap (@img, %0, %3, %4) (atomic_op=cmpxchg)
    32x2 %6 = load_const (9, 1)
    32   %7 = @image_atomic (@img, %6, %1) (atomic_op=iadd)
}";
        let shader = parse(text);
        let mut ex = crate::fixtures::executor(&shader, 2);
        crate::fixtures::bind_linear_2d(&mut ex.memory, 0, R32, ir::Format::R32Uint, [2, 2]);
        poke(&mut ex.memory, 0, 1, 1, 0, 0, 4);
        let rec: Vec<Value> = [2, 5, 7].iter().map(|&v| Value::from_u32(v)).collect();
        let r = ex.run_recording([1, 1, 1], &rec).unwrap();
        let get = |v: u32, inv: usize| r.values[&Value::from_u32(v)][inv].clone().unwrap()[0];
        // inc_wrap with limit 5: lane 0 sees 4 (-> 5), lane 1 sees 5 (-> 0).
        assert_eq!([get(2, 0), get(2, 1)], [4, 5]);
        // cmpxchg(6 -> 100) fails for both (the texel is 0).
        assert_eq!([get(5, 0), get(5, 1)], [0, 0]);
        // Out of bounds: dropped, 0.
        assert_eq!([get(7, 0), get(7, 1)], [0, 0]);
    }

    #[test]
    fn declaration_must_match_the_bound_view() {
        let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (0, 0)
    32   %1 = @image_load (@img, %0) (dest_type=uint32)
}";
        let shader = parse(text);
        let mut ex = crate::fixtures::executor(&shader, 1);
        let f = tiling::Format::R8G8B8A8_UNORM;
        crate::fixtures::bind_linear_2d(&mut ex.memory, 0, f, ir::Format::Rgba8Unorm, [2, 2]);
        let e = ex.run([1, 1, 1]).unwrap_err().to_string();
        assert!(
            e.contains("image `@img`: declared r32_uint but the bound view is rgba8_unorm"),
            "{e}"
        );
    }
}
