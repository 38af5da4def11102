//! Image instructions (the image half of Mesa's `spirv_to_nir.c`): reads and writes of
//! storage images and texel buffers, fetches from sampled images and uniform texel
//! buffers, size, level and sample queries, and texel pointers for image atomics, as
//! NIR's image intrinsics on the declared images.
//!
//! Coordinates are SPIR-V's, which are the IR's: the array layer is the last
//! component, and a cube array's third component is `layer * 6 + face`. Filtering at
//! an explicit LOD is `txl` and a gather `tg4`, each with its constant texel offset;
//! implicit LODs, gradients, depth comparisons, cube lookups and LOD queries have no
//! IR form and are refused by name.

use super::context::Ctx;
use super::types::Ty;
use super::value::{ImageUse, Value};
use crate::error::ImportError;
use ir::{
    AluOp, AluType, AtomicOp, BaseType, ImageDecl, ImageDim, ImageRef, IntrinsicOp, Src, Type,
};
use spirv::{ImageOperands as IO, Op};

/// The image operands that take ids: Grad two, the others one (SPIR-V's "Image
/// Operands" table). Ids follow the mask from its lowest bit, and the spirv crate names
/// every bit below its highest, so a bit it does not name has its ids after all known
/// operands' ids; `refuse_operands` refuses it.
const WITH_ID: IO = IO::BIAS
    .union(IO::LOD)
    .union(IO::GRAD)
    .union(IO::CONST_OFFSET)
    .union(IO::OFFSET)
    .union(IO::CONST_OFFSETS)
    .union(IO::SAMPLE)
    .union(IO::MIN_LOD)
    .union(IO::MAKE_TEXEL_AVAILABLE)
    .union(IO::MAKE_TEXEL_VISIBLE)
    .union(IO::OFFSETS);

/// The ids of the image operands of an instruction, in the order they follow the mask:
/// `(operand, ids)` for each bit set.
fn image_operands(ctx: &Ctx<'_>, words: &[u32]) -> Result<Vec<(IO, Vec<u32>)>, ImportError> {
    let Some((&mask, mut rest)) = words.split_first() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for bit in 0..32 {
        let b = IO::from_bits_retain(1u32 << bit);
        if !IO::from_bits_retain(mask).contains(b) {
            continue;
        }
        let n = if b == IO::GRAD {
            2
        } else if WITH_ID.contains(b) {
            1
        } else {
            0
        };
        if rest.len() < n {
            return Err(ctx.invalid("the image operands name fewer ids than their mask asks"));
        }
        out.push((b, rest[..n].to_vec()));
        rest = &rest[n..];
    }
    Ok(out)
}

/// The image a value stands for.
fn image_of(ctx: &mut Ctx<'_>, id: u32) -> Result<ImageUse, ImportError> {
    match ctx.get(id)? {
        // glslang decorates the loaded image and the sampled image too.
        Value::Image(mut u) | Value::SampledImage { image: mut u, .. } => {
            u.non_uniform |= ctx.decs.has(id, spirv::Decoration::NonUniform);
            Ok(u)
        }
        other => Err(ctx.invalid(format!(
            "%{id} is not an image ({})",
            super::context::describe(&other)
        ))),
    }
}

/// The declaration of an image use, as its accesses restate it: with `non_uniform`
/// when a `NonUniform` value reached the use (an access qualifier, never the image's).
fn decl(ctx: &Ctx<'_>, u: &ImageUse) -> Result<ImageDecl, ImportError> {
    let mut d = ctx
        .map
        .images
        .get(u.image.index())
        .cloned()
        .ok_or_else(|| ctx.internal("an image without a declaration"))?;
    if u.non_uniform {
        d.access |= ir::Access::NON_UNIFORM;
    }
    Ok(d)
}

fn image_ref(u: &ImageUse) -> ImageRef {
    ImageRef {
        image: u.image,
        index: u.index,
    }
}

/// The coordinate as the IR's: 32-bit components, as many as the image takes.
fn coordinate(ctx: &mut Ctx<'_>, d: &ImageDecl, id: u32) -> Result<Src, ImportError> {
    let mut c = ctx.leaf(id)?;
    let t = ctx.func.src_type(c);
    if t.bit_size() != 32 {
        if t.bit_size() == 1 {
            return Err(ctx.invalid("a boolean image coordinate"));
        }
        c = ctx.alu(AluOp::U2u32, &[c])?;
    }
    let want = d.dim.texel_coord_components(d.arrayed);
    if t.num_components() != want {
        return Err(ctx.invalid(format!(
            "a {}-component coordinate for a {}{} image, which takes {want}",
            t.num_components(),
            d.dim.name(),
            if d.arrayed { " array" } else { "" }
        )));
    }
    Ok(c)
}

/// The IR coordinate of an access to `d` at the texel coordinate `c`: `c` itself, or
/// for a multisampled image `c` with the `Sample` operand's index appended (the IR's
/// `ms` coordinate). A multisampled access without `Sample` is invalid SPIR-V ("Sample
/// ... must be present if MS is 1"); `Sample` on a single-sampled image is refused by
/// the operand checks before this.
fn with_sample(
    ctx: &mut Ctx<'_>,
    d: &ImageDecl,
    c: Src,
    io: &[(IO, Vec<u32>)],
    what: &str,
) -> Result<Src, ImportError> {
    if d.dim != ImageDim::Ms {
        return Ok(c);
    }
    let Some((_, ids)) = io.iter().find(|(b, _)| *b == IO::SAMPLE) else {
        return Err(ctx.invalid(format!("{what} of a multisampled image without Sample")));
    };
    sample_appended(ctx, c, ids[0])
}

/// `c` with the 32-bit sample index of SPIR-V value `sample` as its last component.
fn sample_appended(ctx: &mut Ctx<'_>, c: Src, sample: u32) -> Result<Src, ImportError> {
    let mut s = ctx.leaf(sample)?;
    let t = ctx.func.src_type(s);
    if t.num_components() != 1 || t.bit_size() == 1 {
        return Err(ctx.invalid("a sample index that is not an integer scalar"));
    }
    if t.bit_size() != 32 {
        s = ctx.alu(AluOp::U2u32, &[s])?;
    }
    let n = ctx.func.src_type(c).num_components();
    let mut comps: Vec<Src> = (0..n).map(|k| c.component(k)).collect();
    comps.push(s);
    ctx.vec(&comps)
}

/// `texelFetchOffset`'s coordinate: the integer `offset` (`ConstOffset` or `Offset`)
/// added to the texel coordinate, the array layer unchanged (SPIR-V's "added to the
/// texel coordinate before the texel is fetched"; out of range it is fetched out of
/// range, as any coordinate).
fn offset_coordinate(
    ctx: &mut Ctx<'_>,
    d: &ImageDecl,
    c: Src,
    offset: u32,
) -> Result<Src, ImportError> {
    let n = d.dim.texel_coord_components(false);
    let mut off = ctx.leaf(offset)?;
    let t = ctx.func.src_type(off);
    if t.num_components() != n {
        return Err(ctx.invalid(format!(
            "an offset of {} components for a {} image, which takes {n}",
            t.num_components(),
            d.dim.name()
        )));
    }
    if t.bit_size() != 32 {
        off = ctx.alu(AluOp::U2u32, &[off])?;
    }
    let total = ctx.func.src_type(c).num_components();
    let mut comps = Vec::with_capacity(usize::from(total));
    for k in 0..total {
        comps.push(if k < n {
            ctx.alu(AluOp::Iadd, &[c.component(k), off.component(k)])?
        } else {
            c.component(k)
        });
    }
    if comps.len() == 1 {
        Ok(comps[0])
    } else {
        ctx.vec(&comps)
    }
}

/// The data type of an access whose SPIR-V value is of type `ty`: the format's for
/// formatted images, else the value's, at the format's data size.
fn data_type(ctx: &Ctx<'_>, d: &ImageDecl, ty: u32) -> Result<AluType, ImportError> {
    let base = match d.format.data_base_type() {
        Some(b) => b,
        None => match ctx.d.types.scalar_of(ty) {
            Some(Ty::Float { .. }) => BaseType::Float,
            Some(Ty::Int { signed: true, .. }) => BaseType::Int,
            Some(Ty::Int { .. }) => BaseType::Uint,
            _ => return Err(ctx.invalid("image data that is not a number")),
        },
    };
    let bits = match d.format {
        ir::Format::None => ctx.d.types.ir_type(ty).map_or(32, |t| t.bit_size()),
        f => f.data_bit_size(),
    };
    Ok(AluType::new(base, bits))
}

/// A level operand as the IR's 32-bit LOD, `None` when it is the constant 0.
fn lod_operand(ctx: &mut Ctx<'_>, id: u32) -> Result<Option<Src>, ImportError> {
    let l = ctx.leaf(id)?;
    if ir::passes::const_fold::const_components(&ctx.func, l)
        .is_some_and(|c| c.iter().all(|&x| x == 0))
    {
        return Ok(None);
    }
    if ctx.func.src_type(l).bit_size() != 32 {
        return Ok(Some(ctx.alu(AluOp::U2u32, &[l])?));
    }
    Ok(Some(l))
}

/// Refuses the operand bits the IR has no form for.
fn refuse_operands(
    ctx: &Ctx<'_>,
    ops: &[(IO, Vec<u32>)],
    allowed: IO,
    what: &str,
) -> Result<(), ImportError> {
    // Memory-model and signedness operands change nothing here.
    let harmless = IO::MAKE_TEXEL_AVAILABLE
        | IO::MAKE_TEXEL_VISIBLE
        | IO::NON_PRIVATE_TEXEL
        | IO::VOLATILE_TEXEL
        | IO::SIGN_EXTEND
        | IO::ZERO_EXTEND
        | IO::NONTEMPORAL;
    for &(bit, _) in ops {
        if !(allowed | harmless).contains(bit) {
            let name = match bit {
                IO::BIAS => "Bias",
                IO::LOD => "Lod",
                IO::GRAD => "Grad",
                IO::CONST_OFFSET | IO::OFFSET | IO::CONST_OFFSETS | IO::OFFSETS => "an offset",
                IO::SAMPLE => "Sample (multisampled images)",
                IO::MIN_LOD => "MinLod",
                _ => "an image operand",
            };
            return Err(ctx.unsupported(
                &format!("{what} with {name}"),
                "the IR's image access has no such operand",
            ));
        }
    }
    Ok(())
}

/// Translates image instruction `o` (instruction index `i`); `Ok(false)` if `o` is not
/// one.
pub fn instruction(ctx: &mut Ctx<'_>, o: Op, ops: &[u32]) -> Result<bool, ImportError> {
    use Op::*;
    let short = |ctx: &Ctx<'_>| ctx.invalid(format!("Op{o:?} has too few operands"));
    match o {
        SampledImage => {
            let [_, r, image, sampler, ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let sampler = match ctx.get(*sampler)? {
                Value::Sampler(i) => i,
                other => {
                    return Err(ctx.invalid(format!(
                        "OpSampledImage of %{sampler}, which is {}",
                        super::context::describe(&other)
                    )))
                }
            };
            ctx.set(*r, Value::SampledImage { image: u, sampler })?;
        }
        ImageSampleExplicitLod => {
            let [ty, r, si, coord, rest @ ..] = ops else { return Err(short(ctx)) };
            let v = sample_explicit_lod(ctx, *ty, *si, *coord, rest)?;
            ctx.set(*r, Value::Val(super::value::Val::Leaf(Src::new(v))))?;
        }
        Image => {
            let [_, r, si, ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *si)?;
            ctx.set(*r, Value::Image(u))?;
        }
        ImageRead | ImageFetch => {
            let [ty, r, image, coord, rest @ ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let d = decl(ctx, &u)?;
            let io = image_operands(ctx, rest)?;
            let sampled = d.access.contains(ir::Access::SAMPLED);
            if o == ImageFetch && !sampled {
                return Err(ctx.invalid("OpImageFetch of a storage image"));
            }
            if o == ImageRead && sampled {
                return Err(ctx.invalid("OpImageRead of a sampled image"));
            }
            let ms = if d.dim == ImageDim::Ms { IO::SAMPLE } else { IO::NONE };
            let fetch_operands = if d.dim == ImageDim::Ms {
                IO::CONST_OFFSET | IO::OFFSET
            } else {
                IO::LOD | IO::CONST_OFFSET | IO::OFFSET
            };
            refuse_operands(ctx, &io, ms | if o == ImageFetch { fetch_operands } else { IO::NONE }, &format!("Op{o:?}"))?;
            let mut c = coordinate(ctx, &d, *coord)?;
            if let Some((_, ids)) = io
                .iter()
                .find(|(b, _)| *b == IO::CONST_OFFSET || *b == IO::OFFSET)
            {
                c = offset_coordinate(ctx, &d, c, ids[0])?;
            }
            let c = with_sample(ctx, &d, c, &io, &format!("Op{o:?}"))?;
            let rt = ctx.ir_type(*ty)?;
            let t = data_type(ctx, &d, *ty)?;
            let lod = match io.iter().find(|(b, _)| *b == IO::LOD) {
                Some((_, ids)) if d.dim == ImageDim::Buffer => {
                    let _ = ids;
                    return Err(ctx.invalid("a texel buffer fetched at a level"));
                }
                Some((_, ids)) => lod_operand(ctx, ids[0])?,
                None => None,
            };
            let r_ = image_ref(&u);
            let n = rt.num_components();
            let v = match lod {
                Some(l) => ctx.build(|b| b.image_load_lod(&d, r_, c, l, n, t)),
                None => ctx.build(|b| b.image_load(&d, r_, c, n, t)),
            };
            ctx.set(*r, Value::Val(super::value::Val::Leaf(Src::new(v))))?;
        }
        ImageWrite => {
            let [image, coord, texel, rest @ ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let d = decl(ctx, &u)?;
            if d.access.contains(ir::Access::SAMPLED) {
                return Err(ctx.invalid("OpImageWrite of a sampled image"));
            }
            let io = image_operands(ctx, rest)?;
            let ms = if d.dim == ImageDim::Ms { IO::SAMPLE } else { IO::NONE };
            refuse_operands(ctx, &io, ms, "OpImageWrite")?;
            let c = coordinate(ctx, &d, *coord)?;
            let c = with_sample(ctx, &d, c, &io, "OpImageWrite")?;
            let data = ctx.leaf(*texel)?;
            let dty = ctx.type_of(*texel).ok_or_else(|| ctx.invalid("a texel without a type"))?;
            let t = data_type(ctx, &d, dty)?;
            if ctx.func.src_type(data).bit_size() != t.bits {
                return Err(ctx.invalid(format!("a {}-bit texel written to a {}-bit image", ctx.func.src_type(data).bit_size(), t.bits)));
            }
            let r_ = image_ref(&u);
            ctx.build(|b| b.image_store(&d, r_, c, data, t));
        }
        ImageQuerySize | ImageQuerySizeLod => {
            let [ty, r, image, rest @ ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let d = decl(ctx, &u)?;
            let lod = match (o, rest.first()) {
                (ImageQuerySizeLod, Some(l)) => lod_operand(ctx, *l)?,
                (ImageQuerySizeLod, None) => return Err(short(ctx)),
                _ => None,
            };
            if lod.is_some() && d.dim == ImageDim::Buffer {
                return Err(ctx.invalid("a size query of a texel buffer at a level"));
            }
            let r_ = image_ref(&u);
            let s = Src::new(match lod {
                Some(l) => ctx.build(|b| b.image_size_lod(&d, r_, l)),
                None => ctx.build(|b| b.image_size(&d, r_)),
            });
            let rt = ctx.ir_type(*ty)?;
            let have = d.dim.texel_coord_components(d.arrayed);
            let n = rt.num_components();
            let comps: Vec<u8> = match (d.dim, d.arrayed) {
                // A cube's size is its face's; a cube array's third component counts
                // its cubes.
                (ImageDim::Cube, false) => vec![0, 1],
                _ => (0..have).collect(),
            };
            if comps.len() != n as usize || rt.bit_size() != 32 {
                return Err(ctx.invalid(format!(
                    "a size query of a {}{} image gives {} 32-bit components, not {n}",
                    d.dim.name(),
                    if d.arrayed { " array" } else { "" },
                    comps.len()
                )));
            }
            let v = super::value::select(s, &comps).ok_or_else(|| ctx.internal("a size selection"))?;
            ctx.set(*r, Value::Val(super::value::Val::Leaf(v)))?;
        }
        ImageQueryLevels => {
            let [_, r, image, ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let d = decl(ctx, &u)?;
            if d.dim == ImageDim::Buffer {
                return Err(ctx.invalid("a level count of a texel buffer"));
            }
            let r_ = image_ref(&u);
            let v = ctx.build(|b| b.image_levels(&d, r_));
            ctx.set(*r, Value::Val(super::value::Val::Leaf(Src::new(v))))?;
        }
        ImageQuerySamples => {
            let [_, r, image, ..] = ops else { return Err(short(ctx)) };
            let u = image_of(ctx, *image)?;
            let d = decl(ctx, &u)?;
            let r_ = image_ref(&u);
            let idx = [d.dim.to_index(), d.arrayed as u32, d.access.bits()];
            let v = ctx
                .build(|b| b.intrinsic(IntrinsicOp::ImageSamples, Some(r_), &[], &idx, Some(Type::U32)))
                .ok_or_else(|| ctx.internal("image_samples without a value"))?;
            ctx.set(*r, Value::Val(super::value::Val::Leaf(Src::new(v))))?;
        }
        ImageTexelPointer => {
            let [_, r, image, coord, sample, ..] = ops else { return Err(short(ctx)) };
            let u = match ctx.get(*image)? {
                Value::ImagePtr(p) => ImageUse { image: p.image, index: p.index, non_uniform: p.non_uniform },
                other => return Err(ctx.invalid(format!("OpImageTexelPointer of {}", super::context::describe(&other)))),
            };
            let d = decl(ctx, &u)?;
            let c = coordinate(ctx, &d, *coord)?;
            // SPIR-V: "Sample must be 0 if the image is not multisampled"; it is the
            // last coordinate of a multisampled one.
            let c = if d.dim == ImageDim::Ms { sample_appended(ctx, c, *sample)? } else { c };
            ctx.set(*r, Value::Texel { image: u, coord: c })?;
        }
        ImageSampleImplicitLod | ImageSampleDrefImplicitLod | ImageSampleDrefExplicitLod
        | ImageSampleProjImplicitLod | ImageSampleProjExplicitLod | ImageSampleProjDrefImplicitLod
        | ImageSampleProjDrefExplicitLod | ImageSparseSampleImplicitLod | ImageSparseSampleExplicitLod
        | ImageSparseSampleDrefImplicitLod | ImageSparseSampleDrefExplicitLod => {
            return Err(ctx.unsupported(
                &format!("Op{o:?} (filtered sampling)"),
                "the IR filters textures only at an explicit LOD (OpImageSampleExplicitLod with Lod, textureLod); \
                 implicit LODs need derivatives, depth comparisons and projections have no IR form",
            ))
        }
        ImageGather => {
            let [ty, r, si, coord, component, rest @ ..] = ops else { return Err(short(ctx)) };
            let v = gather(ctx, *ty, *si, *coord, *component, rest)?;
            ctx.set(*r, Value::Val(super::value::Val::Leaf(v)))?;
        }
        ImageDrefGather | ImageSparseDrefGather => {
            return Err(ctx.unsupported(&format!("Op{o:?} (a depth-comparing gather)"), "the IR has no depth comparisons"))
        }
        ImageSparseGather => {
            return Err(ctx.unsupported("OpImageSparseGather (sparse residency)", "the IR has no sparse images"))
        }
        ImageQueryLod => {
            return Err(ctx.unsupported("OpImageQueryLod", "compute invocations have no derivatives to pick a level from"))
        }
        ImageSparseFetch | ImageSparseRead | ImageSparseTexelsResident => {
            return Err(ctx.unsupported(&format!("Op{o:?} (sparse residency)"), "the IR has no sparse images"))
        }
        ImageQueryFormat | ImageQueryOrder => {
            return Err(ctx.unsupported(&format!("Op{o:?}"), "it is an OpenCL query"))
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// What a filtered lookup (`txl`, `tg4`) reads: the image, its declaration, the
/// lookup's sampler, type and offset, and the coordinate the image takes.
struct Lookup {
    image: ImageUse,
    decl: ImageDecl,
    lookup: ir::TexLookup,
    coord: Src,
}

/// The parts of filtered lookup `what` of the sampled image `si` at the float `coord`
/// returning `ty`, with the sampler `OpSampledImage` names (or the combined image
/// sampler's own); `gather` restricts the image to 2D ones.
fn lookup(
    ctx: &mut Ctx<'_>,
    what: &str,
    ty: u32,
    si: u32,
    coord: u32,
    io: &[(IO, Vec<u32>)],
    gather: bool,
) -> Result<Lookup, ImportError> {
    // `image_of` takes the image of a sampled image, with its NonUniform decorations.
    let u = image_of(ctx, si)?;
    let sampler = match ctx.get(si)? {
        Value::SampledImage { sampler, .. } => sampler,
        _ => {
            let Some(&s) = ctx.map.combined.get(&u.image) else {
                return Err(ctx.invalid(format!("{what} of an image without a sampler")));
            };
            // An element of an array of combined image samplers has the sampler of
            // the same element: one the IR names when the index is a constant.
            match u.index {
                None => s,
                Some(i) => match ctx.func.const_component(i.value, i.swizzle.component(0)) {
                    Some(k) => u32::try_from(k)
                        .ok()
                        .and_then(|k| s.checked_add(k))
                        .ok_or_else(|| ctx.invalid(format!("{what} past the sampler array")))?,
                    None => {
                        return Err(ctx.unsupported(
                            &format!(
                                "{what} of an element of an array of combined image samplers at a run-time index"
                            ),
                            "the IR names a sampler by a constant index",
                        ))
                    }
                },
            }
        }
    };
    let d = decl(ctx, &u)?;
    match d.dim {
        ImageDim::D2 => {}
        ImageDim::D1 | ImageDim::D3 if !gather => {}
        ImageDim::D1 | ImageDim::D3 => {
            return Err(ctx.invalid(format!("{what} of a {} texture", d.dim.name())))
        }
        ImageDim::Cube => {
            return Err(ctx.unsupported(
                &format!("{what} of a cube texture"),
                "a cube is sampled by a direction vector, which the IR's lookups do not take",
            ))
        }
        ImageDim::Buffer => return Err(ctx.invalid(format!("{what} of a texel buffer"))),
        ImageDim::Ms => {
            return Err(ctx.invalid(format!(
                "{what} of a multisampled texture, which is only fetched"
            )))
        }
    }
    if !d.access.contains(ir::Access::SAMPLED) {
        return Err(ctx.invalid(format!("{what} of a storage image")));
    }
    // A float texture is filtered into floats; an integer one is read unfiltered into
    // its sampled type (Vulkan filters no integer format).
    let dest_type = match ctx.d.types.scalar_of(ty) {
        Some(Ty::Float { bits: 32 }) => ir::AluType::new(ir::BaseType::Float, 32),
        Some(Ty::Int { bits: 32, signed }) => ir::AluType::new(
            if *signed {
                ir::BaseType::Int
            } else {
                ir::BaseType::Uint
            },
            32,
        ),
        _ => {
            return Err(ctx.unsupported(
                &format!("{what} of a 16- or 64-bit texture"),
                "the IR's lookups return 32-bit components",
            ))
        }
    };
    let offset = texel_offset(ctx, &d, io, what)?;
    // The coordinate may have more components than the image takes; the used ones
    // come first.
    let c = ctx.leaf(coord)?;
    let ct = ctx.func.src_type(c);
    let want = d.coord_components();
    if ct.bit_size() != 32 || ct.num_components() < want {
        return Err(ctx.invalid(format!(
            "a {}-component {}-bit coordinate for a {}{} image, which takes {want} 32-bit floats",
            ct.num_components(),
            ct.bit_size(),
            d.dim.name(),
            if d.arrayed { " array" } else { "" }
        )));
    }
    let c = if ct.num_components() == want {
        c
    } else {
        let comps: Vec<u8> = (0..want).collect();
        super::value::select(c, &comps).ok_or_else(|| ctx.internal("a coordinate selection"))?
    };
    Ok(Lookup {
        image: u,
        decl: d,
        lookup: ir::TexLookup {
            sampler,
            dest_type,
            offset,
        },
        coord: c,
    })
}

/// `OpImageSampleExplicitLod` with `Lod`: NIR's `txl` of the sampled image `si` at the
/// float `coord`.
fn sample_explicit_lod(
    ctx: &mut Ctx<'_>,
    ty: u32,
    si: u32,
    coord: u32,
    rest: &[u32],
) -> Result<ir::Value, ImportError> {
    let what = "OpImageSampleExplicitLod (filtered sampling)";
    let io = image_operands(ctx, rest)?;
    if io.iter().any(|(b, _)| *b == IO::GRAD) {
        return Err(ctx.unsupported(
            &format!("{what} with Grad (explicit derivatives)"),
            "the IR's txl takes a coordinate and a LOD only",
        ));
    }
    refuse_operands(ctx, &io, IO::LOD | IO::CONST_OFFSET | IO::OFFSET, what)?;
    let Some((_, lod_ids)) = io.iter().find(|(b, _)| *b == IO::LOD) else {
        return Err(ctx.invalid(format!("{what} without a Lod or Grad operand")));
    };
    let l = lookup(ctx, what, ty, si, coord, &io, false)?;
    let lod = ctx.leaf(lod_ids[0])?;
    if ctx.func.src_type(lod) != Type::U32 {
        return Err(ctx.invalid(format!(
            "{what} with a Lod that is not a 32-bit float scalar"
        )));
    }
    let r_ = image_ref(&l.image);
    let n = ctx.ir_type(ty)?.num_components();
    Ok(ctx.build(|b| b.txl(&l.decl, r_, l.coord, lod, l.lookup, n)))
}

/// `OpImageGather`: NIR's `tg4` of channel `component` of the sampled image `si` at
/// the float `coord`. `ConstOffsets` (a texel offset per texel) becomes four gathers,
/// texel `k` the `w` (the `(i0, j0)` texel) of the gather at offset `k`, as Mesa's
/// `nir_lower_tex` (`lower_tg4_offsets`) does.
fn gather(
    ctx: &mut Ctx<'_>,
    ty: u32,
    si: u32,
    coord: u32,
    component: u32,
    rest: &[u32],
) -> Result<Src, ImportError> {
    let what = "OpImageGather (a texture gather)";
    let io = image_operands(ctx, rest)?;
    refuse_operands(
        ctx,
        &io,
        IO::CONST_OFFSET | IO::OFFSET | IO::CONST_OFFSETS,
        what,
    )?;
    let comp = ctx.leaf(component)?;
    let comp = match ir::passes::const_fold::const_components(&ctx.func, comp).as_deref() {
        Some(&[c]) if c < 4 => c as u32,
        _ => {
            return Err(ctx.invalid(format!(
                "{what} of a component that is not a constant from 0 to 3"
            )))
        }
    };
    if ctx.ir_type(ty)?.num_components() != 4 {
        return Err(ctx.invalid(format!("{what} returning other than a 4-component vector")));
    }
    let l = lookup(ctx, what, ty, si, coord, &io, true)?;
    let r_ = image_ref(&l.image);
    let Some((_, ids)) = io.iter().find(|(b, _)| *b == IO::CONST_OFFSETS) else {
        return Ok(Src::new(
            ctx.build(|b| b.tg4(&l.decl, r_, l.coord, l.lookup, comp)),
        ));
    };
    // An array of four 2-component integer vectors.
    let words: Option<Vec<u64>> = match ctx.d.consts.get(&ids[0]).map(|c| &c.val) {
        Some(super::spec::ConstVal::Comp(offsets)) => offsets
            .iter()
            .map(super::spec::components)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.concat()),
        _ => None,
    };
    let words = words
        .ok_or_else(|| ctx.invalid(format!("{what} with ConstOffsets that are not a constant")))?;
    if words.len() != 8 {
        return Err(ctx.invalid(format!(
            "{what} with ConstOffsets that are not four 2-component vectors"
        )));
    }
    let mut texels = Vec::with_capacity(4);
    for k in 0..4 {
        let (u, v) = (words[2 * k] as i32, words[2 * k + 1] as i32);
        let offset = ir::TexelOffset::new([i64::from(u), i64::from(v), 0]).ok_or_else(|| {
            ctx.unsupported(
                &format!("{what} with the texel offset ({u}, {v})"),
                "a texel offset component is from -8 to 7 (the range the sampler's message header holds)",
            )
        })?;
        let lookup = ir::TexLookup { offset, ..l.lookup };
        let g = ctx.build(|b| b.tg4(&l.decl, r_, l.coord, lookup, comp));
        texels.push(Src::new(g).component(3));
    }
    ctx.vec(&texels)
}

/// The constant texel offset of a lookup's `ConstOffset` (or an `Offset` that is a
/// constant after specialization), 0 without one; an offset beyond -8 to 7 (Intel's
/// `minTexelOffset` and `maxTexelOffset`, which Vulkan requires `ConstOffset` to keep
/// within) or that is not constant is refused.
fn texel_offset(
    ctx: &mut Ctx<'_>,
    d: &ImageDecl,
    io: &[(IO, Vec<u32>)],
    what: &str,
) -> Result<ir::TexelOffset, ImportError> {
    let Some((_, ids)) = io
        .iter()
        .find(|(b, _)| *b == IO::CONST_OFFSET || *b == IO::OFFSET)
    else {
        return Ok(ir::TexelOffset::default());
    };
    let n = d.dim.coord_components(false);
    let off = ctx.leaf(ids[0])?;
    let t = ctx.func.src_type(off);
    if t.num_components() != n || t.bit_size() == 1 {
        return Err(ctx.invalid(format!(
            "an offset of {} components for a {} image, which takes {n} integers",
            t.num_components(),
            d.dim.name()
        )));
    }
    let Some(words) = ir::passes::const_fold::const_components(&ctx.func, off) else {
        return Err(ctx.unsupported(
            &format!("{what} with a texel offset that is not constant"),
            "the sampler takes its texel offsets as constants in the message header",
        ));
    };
    let bits = u32::from(t.bit_size());
    let mut v = [0i64; 3];
    for (o, &w) in v.iter_mut().zip(&words) {
        // Sign-extends the component from its bit size.
        *o = ((w << (64 - bits)) as i64) >> (64 - bits);
    }
    ir::TexelOffset::new(v).ok_or_else(|| {
        ctx.unsupported(
            &format!("{what} with the texel offset {v:?}"),
            "a texel offset component is from -8 to 7 (minTexelOffset and maxTexelOffset)",
        )
    })
}

/// An atomic on a texel pointer (the image atomics); `op` is `None` for a load and the
/// data is `None` for a load. Returns the old texel (or the texel read).
pub fn texel_atomic(
    ctx: &mut Ctx<'_>,
    image: ImageUse,
    coord: Src,
    op: Option<AtomicOp>,
    result_ty: u32,
    data: Option<Src>,
    compare: Option<Src>,
) -> Result<Option<Src>, ImportError> {
    let d = decl(ctx, &image)?;
    let r_ = image_ref(&image);
    let t = data_type(ctx, &d, result_ty)?;
    if let Some(v) = data {
        if ctx.func.src_type(v).bit_size() != t.bits {
            return Err(ctx.invalid("an image atomic's value is not as wide as the image's texels"));
        }
    }
    Ok(match (op, data, compare) {
        // OpAtomicLoad and OpAtomicStore are a load and a store of the texel.
        (None, None, _) => Some(Src::new(ctx.build(|b| b.image_load(&d, r_, coord, 1, t)))),
        (None, Some(v), _) => {
            ctx.build(|b| b.image_store(&d, r_, coord, v, t));
            None
        }
        (Some(aop), Some(v), Some(c)) => Some(Src::new(
            ctx.build(|b| b.image_atomic_swap(&d, r_, aop, coord, c, v)),
        )),
        (Some(aop), Some(v), None) => Some(Src::new(
            ctx.build(|b| b.image_atomic(&d, r_, aop, coord, v)),
        )),
        (Some(_), None, _) => return Err(ctx.internal("an image atomic without data")),
    })
}
