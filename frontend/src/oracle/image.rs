//! Image expressions and statements: loads, stores, atomics and queries, as NIR's
//! image intrinsics on the declared images.
//!
//! A load from a sampled texture (`textureLoad` on `texture_*`, GLSL's `texelFetch`)
//! is an `image_load` of an image declared `sampled`, which the lowering reads through
//! the sampler's `ld` / `ld_lz` (with the LOD when it is not the constant 0). Its size
//! at a level (`textureDimensions(t, level)`, `textureSize(s, lod)`) is `image_size`
//! with NIR's `lod` (left out when it is the constant 0), its level count
//! (`textureNumLevels`, `textureQueryLevels`) is `image_levels`; the lowering asks the
//! sampler's `resinfo` for both. A level outside the view gives a size of 0 in every
//! component, where WGSL and Vulkan leave the value indeterminate. Storage textures
//! have no level parameter in WGSL or GLSL; their size is `image_size` at LOD 0.
//! Filtered sampling (`textureSample*`, `texture`, `textureLod`, gathers, depth
//! comparisons) has no IR form and is refused where the expression is evaluated.

use crate::error::ImportError;
use crate::oracle::context::Ctx;
use crate::oracle::value::ImageUse;
use ir::{AluType, AtomicOp, BaseType, ImageDim, ImageRef, IntrinsicOp, Src, Type};
use naga::ScalarKind;

/// The declaration an image use names.
fn decl<'a>(ctx: &'a Ctx<'_>, img: &ImageUse) -> &'a ir::ImageDecl {
    &ctx.mapping.images[img.image.index()]
}

/// The image reference of a use.
fn image_ref(img: &ImageUse) -> ImageRef {
    ImageRef {
        image: img.image,
        index: img.index,
    }
}

/// The IR coordinate: naga's coordinate with the array index appended.
fn coordinate(ctx: &mut Ctx<'_>, coord: Src, array_index: Option<Src>) -> Result<Src, ImportError> {
    let Some(layer) = array_index else {
        return Ok(coord);
    };
    let mut comps: Vec<Src> = (0..ctx.comps(coord)).map(|i| coord.component(i)).collect();
    comps.push(layer);
    ctx.vec(&comps)
}

/// The data type of an access to `decl` whose naga value is of `kind`: the format's
/// for formatted images, else the kind's, at the format's data size.
fn data_type(
    ctx: &Ctx<'_>,
    decl: &ir::ImageDecl,
    kind: ScalarKind,
) -> Result<AluType, ImportError> {
    let bits = decl.format.data_bit_size();
    let base = match decl.format.data_base_type() {
        Some(b) => b,
        None => match kind {
            ScalarKind::Float => BaseType::Float,
            ScalarKind::Sint => BaseType::Int,
            ScalarKind::Uint => BaseType::Uint,
            other => return Err(ctx.internal(format!("image data of kind {other:?}"))),
        },
    };
    Ok(AluType::new(base, bits))
}

/// `textureLoad` / `imageLoad` / `texelFetch`: `comps` components of `kind`.
#[allow(clippy::too_many_arguments)]
pub fn load(
    ctx: &mut Ctx<'_>,
    img: &ImageUse,
    coord: Src,
    array_index: Option<Src>,
    sample: Option<Src>,
    level: Option<Src>,
    comps: u8,
    kind: ScalarKind,
) -> Result<Src, ImportError> {
    let d = decl(ctx, img).clone();
    let mut coord = coordinate(ctx, coord, array_index)?;
    // A multisampled image's sample is the IR coordinate's last component.
    if let Some(s) = sample {
        let s = if ctx.src_type(s).bit_size() != 32 {
            Src::new(ctx.alu(ir::AluOp::U2u32, &[s])?)
        } else {
            s
        };
        coord = coordinate(ctx, coord, Some(s))?;
    }
    let t = data_type(ctx, &d, kind)?;
    let r = image_ref(img);
    // A constant LOD 0 is the same as none (`ld_lz` on the sampler path).
    let level = level.filter(|l| ctx.const_of(*l).is_none_or(|c| c.iter().any(|&x| x != 0)));
    let v = match level {
        Some(lod) => {
            let lod = if ctx.src_type(lod).bit_size() != 32 {
                Src::new(ctx.alu(ir::AluOp::U2u32, &[lod])?)
            } else {
                lod
            };
            ctx.build(|b| b.image_load_lod(&d, r, coord, lod, comps, t))
        }
        None => ctx.build(|b| b.image_load(&d, r, coord, comps, t)),
    };
    Ok(Src::new(v))
}

/// `textureStore` / `imageStore`.
pub fn store(
    ctx: &mut Ctx<'_>,
    img: &ImageUse,
    coord: Src,
    array_index: Option<Src>,
    value: Src,
    kind: ScalarKind,
) -> Result<(), ImportError> {
    let d = decl(ctx, img).clone();
    let coord = coordinate(ctx, coord, array_index)?;
    let t = data_type(ctx, &d, kind)?;
    let r = image_ref(img);
    ctx.build(|b| b.image_store(&d, r, coord, value, t));
    Ok(())
}

/// `textureAtomic*` / `imageAtomic*`: returns the old texel.
pub fn atomic(
    ctx: &mut Ctx<'_>,
    img: &ImageUse,
    coord: Src,
    array_index: Option<Src>,
    op: AtomicOp,
    compare: Option<Src>,
    data: Src,
) -> Result<Src, ImportError> {
    let d = decl(ctx, img).clone();
    let coord = coordinate(ctx, coord, array_index)?;
    let r = image_ref(img);
    let v = match compare {
        Some(c) => ctx.build(|b| b.image_atomic_swap(&d, r, op, coord, c, data)),
        None => ctx.build(|b| b.image_atomic(&d, r, op, coord, data)),
    };
    Ok(Src::new(v))
}

/// `image_size` of a use at `lod` (LOD 0 without one): one 32-bit component per
/// coordinate component (array layers last; cube arrays count cubes).
fn size(ctx: &mut Ctx<'_>, img: &ImageUse, lod: Option<Src>) -> Src {
    let d = decl(ctx, img).clone();
    let r = image_ref(img);
    Src::new(match lod {
        Some(l) => ctx.build(|b| b.image_size_lod(&d, r, l)),
        None => ctx.build(|b| b.image_size(&d, r)),
    })
}

/// A level operand as the IR's 32-bit LOD, `None` when it is the constant 0 (the IR's
/// LOD without a source).
fn lod_operand(ctx: &mut Ctx<'_>, level: Option<Src>) -> Result<Option<Src>, ImportError> {
    let Some(l) = level else {
        return Ok(None);
    };
    if ctx.const_of(l).is_some_and(|c| c.iter().all(|&x| x == 0)) {
        return Ok(None);
    }
    if ctx.src_type(l).bit_size() != 32 {
        return Ok(Some(Src::new(ctx.alu(ir::AluOp::U2u32, &[l])?)));
    }
    Ok(Some(l))
}

/// naga's `ImageQuery`.
pub fn query(
    ctx: &mut Ctx<'_>,
    img: &ImageUse,
    query: &naga::ImageQuery,
    level: Option<Src>,
) -> Result<Src, ImportError> {
    let d = decl(ctx, img).clone();
    let dims = match d.dim {
        ImageDim::D1 | ImageDim::Buffer => 1,
        ImageDim::D2 | ImageDim::Cube | ImageDim::Ms => 2,
        ImageDim::D3 => 3,
    };
    match query {
        naga::ImageQuery::Size { .. } => {
            let lod = lod_operand(ctx, level)?;
            if lod.is_some() && d.dim == ImageDim::Buffer {
                return Err(ctx.internal("a size query of a texel buffer at a level"));
            }
            let s = size(ctx, img, lod);
            let comps: Vec<u8> = (0..dims).collect();
            Ok(crate::oracle::value::select(s, &comps))
        }
        naga::ImageQuery::NumLayers => {
            if !d.arrayed {
                return Err(ctx.internal("a layer count of an image without layers"));
            }
            // Layers do not change from level to level.
            let s = size(ctx, img, None);
            let last = d.coord_components() - 1;
            Ok(s.component(if d.dim == ImageDim::Cube { 2 } else { last }))
        }
        naga::ImageQuery::NumSamples => {
            let r = image_ref(img);
            let idx = [d.dim.to_index(), d.arrayed as u32, ir::Access::NONE.bits()];
            let v = ctx
                .intrinsic(
                    IntrinsicOp::ImageSamples,
                    Some(r),
                    &[],
                    &idx,
                    Some(Type::U32),
                )
                .ok_or_else(|| ctx.internal("image_samples without a value"))?;
            Ok(Src::new(v))
        }
        naga::ImageQuery::NumLevels => {
            if d.dim == ImageDim::Buffer {
                return Err(ctx.internal("a level count of a texel buffer"));
            }
            let r = image_ref(img);
            Ok(Src::new(ctx.build(|b| b.image_levels(&d, r))))
        }
    }
}
