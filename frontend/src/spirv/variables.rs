//! Global variables and the binding map: which IR image, buffer block or memory each
//! variable the entry point uses becomes (the rules of the crate's binding mapping,
//! [`crate::bindings`]: images and buffers numbered from 0 in `(set, binding)` order,
//! an array of N taking N consecutive indices; push constants at byte 0; workgroup
//! variables in declaration order at their natural alignment).

use super::decorations::Decorations;
use super::module::{Id, Module};
use super::spec::Declarations;
use super::types::{ImageTy, Ty};
use super::value::Space;
use crate::bindings::{
    Binding, BindingKind, DescriptorCounts, DEFAULT_DESCRIPTOR_COUNT, MAX_BINDING_TABLE_ENTRIES,
    MAX_SHARED_BYTES,
};
use crate::error::{ErrorKind, ImportError};
use ir::{Access, BufferDecl, BufferKind, Format, ImageDecl, ImageDim, ImageId, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use spirv::{Decoration as D, StorageClass as SC};
use std::collections::BTreeMap;

/// What a global variable becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// An image, sampled image or texel buffer (or an array of them).
    Image {
        /// The declaration.
        image: ImageId,
        /// Whether the variable is an array of images.
        array: bool,
    },
    /// A sampler: its sampler index (the `binding` of its `sampler` declaration).
    Sampler {
        /// The sampler index.
        index: u32,
    },
    /// A storage or uniform buffer (or an array of them).
    Buffer {
        /// SSBO or UBO.
        space: Space,
        /// The (first) block index.
        block: u32,
        /// Whether the variable is an array of buffers.
        array: bool,
        /// NIR access bits of the variable.
        access: u32,
    },
    /// The push constants.
    Push {
        /// Their size in bytes.
        range: u32,
    },
    /// A workgroup variable at a byte offset of shared memory.
    Shared {
        /// The offset.
        offset: u32,
    },
    /// A private variable, promoted to SSA values.
    Private,
    /// A private variable in scratch memory ([`super::scratch`]), at a byte offset.
    Scratch {
        /// The offset.
        offset: u32,
    },
    /// A builtin input.
    Builtin {
        /// `spirv::BuiltIn` as a number.
        builtin: u32,
    },
}

/// A global variable: its instruction, pointer type and storage class.
#[derive(Copy, Clone, Debug)]
pub struct Global {
    /// The `OpVariable`'s index.
    pub inst: usize,
    /// The type pointed to.
    pub pointee: Id,
    /// The storage class.
    pub sc: u32,
    /// The initializer, if any.
    pub init: Option<Id>,
}

/// The mapping for one entry point.
#[derive(Default)]
pub struct Mapping {
    /// Every global variable.
    pub globals: HashMap<Id, Global>,
    /// The role of each used global variable.
    pub roles: HashMap<Id, Role>,
    /// The sampler declarations: separate samplers, and the sampler half of each
    /// combined image sampler.
    pub samplers: Vec<ir::SamplerDecl>,
    /// The sampler index of each combined image sampler, by its image.
    pub combined: HashMap<ImageId, u32>,
    /// The image declarations, by [`ImageId`].
    pub images: Vec<ImageDecl>,
    /// The source positions of the image declarations.
    pub image_spans: Vec<Span>,
    /// The buffer declarations (storage and uniform blocks with their layouts), in
    /// `(set, binding)` order.
    pub buffers: Vec<BufferDecl>,
    /// The source positions of the buffer declarations.
    pub buffer_spans: Vec<Span>,
    /// The mapped resources in `(set, binding)` order.
    pub bindings: Vec<Binding>,
    /// Bytes of shared memory the workgroup variables take.
    pub shared_bytes: u32,
    /// The private variables used, in declaration order (those in scratch memory
    /// too).
    pub privates: Vec<Id>,
    /// The byte offset in scratch memory of each `Function` variable placed there
    /// ([`super::scratch`]).
    pub scratch_locals: HashMap<Id, u32>,
    /// Bytes of scratch memory an invocation needs.
    pub scratch_bytes: u32,
    /// The read-only variables and the constant each holds, when the scratch placement
    /// needed them ([`super::constant_data::read_only_variables`]; the translator's
    /// constant data takes them rather than scanning the module again).
    pub read_only: Option<std::collections::HashMap<Id, Id>>,
}

/// The IR format of a SPIR-V image format (`None` for `Unknown`).
pub fn image_format(f: u32) -> Option<Format> {
    use spirv::ImageFormat as F;
    Some(match F::from_u32(f)? {
        F::Rgba32f => Format::Rgba32Float,
        F::Rgba16f => Format::Rgba16Float,
        F::R32f => Format::R32Float,
        F::Rgba8 => Format::Rgba8Unorm,
        F::Rgba8Snorm => Format::Rgba8Snorm,
        F::Rg32f => Format::Rg32Float,
        F::Rg16f => Format::Rg16Float,
        F::R11fG11fB10f => Format::R11G11B10Float,
        F::R16f => Format::R16Float,
        F::Rgba16 => Format::Rgba16Unorm,
        F::Rgb10A2 => Format::Rgb10A2Unorm,
        F::Rg16 => Format::Rg16Unorm,
        F::Rg8 => Format::Rg8Unorm,
        F::R16 => Format::R16Unorm,
        F::R8 => Format::R8Unorm,
        F::Rgba16Snorm => Format::Rgba16Snorm,
        F::Rg16Snorm => Format::Rg16Snorm,
        F::Rg8Snorm => Format::Rg8Snorm,
        F::R16Snorm => Format::R16Snorm,
        F::R8Snorm => Format::R8Snorm,
        F::Rgba32i => Format::Rgba32Sint,
        F::Rgba16i => Format::Rgba16Sint,
        F::Rgba8i => Format::Rgba8Sint,
        F::R32i => Format::R32Sint,
        F::Rg32i => Format::Rg32Sint,
        F::Rg16i => Format::Rg16Sint,
        F::Rg8i => Format::Rg8Sint,
        F::R16i => Format::R16Sint,
        F::R8i => Format::R8Sint,
        F::Rgba32ui => Format::Rgba32Uint,
        F::Rgba16ui => Format::Rgba16Uint,
        F::Rgba8ui => Format::Rgba8Uint,
        F::R32ui => Format::R32Uint,
        F::Rgb10a2ui => Format::Rgb10A2Uint,
        F::Rg32ui => Format::Rg32Uint,
        F::Rg16ui => Format::Rg16Uint,
        F::Rg8ui => Format::Rg8Uint,
        F::R16ui => Format::R16Uint,
        F::R8ui => Format::R8Uint,
        F::R64ui => Format::R64Uint,
        F::R64i => Format::R64Sint,
        F::Unknown => return None,
    })
}

/// NIR access bits of a variable's (or member's) decorations.
pub fn access_of(decs: &Decorations, id: Id) -> Access {
    let mut a = Access::NONE;
    for (d, bit) in [
        (D::NonWritable, Access::NON_WRITEABLE),
        (D::NonReadable, Access::NON_READABLE),
        (D::Coherent, Access::COHERENT),
        (D::Volatile, Access::VOLATILE),
        (D::Restrict, Access::RESTRICT),
    ] {
        if decs.has(id, d) {
            a |= bit;
        }
    }
    a
}

/// The global variables the functions in `funcs` name in their id operands.
pub fn used_globals(m: &Module, funcs: &[usize], globals: &HashMap<Id, Global>) -> HashSet<Id> {
    let mut used = HashSet::default();
    // Ids are below the module's bound: a dense set answers each operand without hashing.
    let mut is_global = vec![false; m.bound as usize];
    for &g in globals.keys() {
        if let Some(slot) = is_global.get_mut(g as usize) {
            *slot = true;
        }
    }
    for &f in funcs {
        let Some(fd) = m.functions.get(f) else {
            continue;
        };
        for b in &fd.blocks {
            for i in b.first..=b.terminator {
                let inst = m.insts[i];
                let Some(&(_, _, ty, res, shape)) = super::grammar::info(inst.opcode) else {
                    continue;
                };
                let ops = m.ops(i);
                let skip = ty as usize + res as usize;
                let mut idx = skip;
                let mut chars = shape.chars().peekable();
                while let Some(c) = chars.next() {
                    let star = chars.peek() == Some(&'*');
                    if matches!(chars.peek(), Some('*' | '?')) {
                        chars.next();
                    }
                    loop {
                        if idx >= ops.len() {
                            break;
                        }
                        match c {
                            'i' | 'p' => {
                                for w in
                                    &ops[idx..(idx + if c == 'p' { 2 } else { 1 }).min(ops.len())]
                                {
                                    if is_global.get(*w as usize).copied().unwrap_or(false) {
                                        used.insert(*w);
                                    }
                                }
                                idx += if c == 'p' { 2 } else { 1 };
                            }
                            'q' | 'r' => idx += 2,
                            's' => {
                                idx += super::module::literal_string(&ops[idx..])
                                    .map_or(ops.len(), |(_, n)| n);
                            }
                            _ => idx += 1,
                        }
                        if !star {
                            break;
                        }
                    }
                }
            }
        }
    }
    used
}

/// `name` made an IR name (`[A-Za-z_][A-Za-z0-9_]*`): other characters become `_`, and
/// a `_` goes first where it would start with a digit.
fn ir_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// `base`, or `base_2`, `base_3`, ... : the first that `taken` does not hold.
fn unique(base: String, taken: impl Fn(&str) -> bool) -> String {
    let mut name = base.clone();
    let mut n = 1;
    while taken(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    name
}

/// A name for a variable: the first non-empty debug name of `ids` (the variable's,
/// then, for a buffer, its block's: GLSL's anonymous `buffer Out { ... };` names only
/// the block), made an IR name, or `fallback`; then made unique among the names
/// `taken` holds.
fn var_name(
    m: &Module,
    ids: &[Id],
    fallback: impl FnOnce() -> String,
    taken: impl Fn(&str) -> bool,
) -> String {
    let base = ids
        .iter()
        .find_map(|&id| m.name(id).filter(|n| !n.is_empty()))
        .map(ir_name)
        .unwrap_or_else(fallback);
    unique(base, taken)
}

/// The layout of a buffer block `ty`: the bytes before a trailing runtime array (the
/// end of its last member when there is none) and that array's `ArrayStride`.
fn buffer_layout(d: &Declarations, decs: &Decorations, ty: Id) -> Option<(u32, Option<u32>)> {
    if let Some(Ty::Struct { members }) = d.types.get(ty) {
        if let Some(&last) = members.last() {
            if let Some(Ty::RuntimeArray { .. }) = d.types.get(last) {
                let i = members.len() as u32 - 1;
                let offset = d.types.member_offset(decs, ty, i)?;
                let stride = d.types.array_stride(decs, last).filter(|&s| s > 0)?;
                return Some((offset, Some(stride)));
            }
        }
    }
    Some((d.types.explicit_size(decs, ty)?, None))
}

/// The IR declaration of an image type, or why it has none.
fn image_decl(name: &str, t: &ImageTy, access: Access) -> Result<ImageDecl, String> {
    use spirv::Dim;
    let dim = match Dim::from_u32(t.dim) {
        Some(Dim::Dim1D) => ImageDim::D1,
        Some(Dim::Dim2D) => ImageDim::D2,
        Some(Dim::Dim3D) => ImageDim::D3,
        Some(Dim::DimCube) => ImageDim::Cube,
        Some(Dim::DimBuffer) => ImageDim::Buffer,
        Some(other) => {
            return Err(format!(
                "an image of dimension {other:?}: the IR has 1D, 2D, 3D, cube and buffer images"
            ))
        }
        None => return Err(format!("an image of unknown dimension {}", t.dim)),
    };
    let dim = match (t.ms, dim) {
        (false, d) => d,
        (true, ImageDim::D2) => ImageDim::Ms,
        (true, d) => {
            return Err(format!(
                "a multisampled {} image: only 2D images are multisampled",
                d.name()
            ))
        }
    };
    if t.arrayed && !dim.can_be_arrayed() {
        return Err(format!("an arrayed {} image", dim.name()));
    }
    let mut decl = ImageDecl::new(name, dim, Format::None);
    decl.arrayed = t.arrayed;
    match t.sampled {
        1 => decl.access = Access::NON_WRITEABLE | Access::SAMPLED,
        2 => {
            // SPIR-V's `Unknown` (0; StorageImageReadWithoutFormat / ...WriteWithoutFormat)
            // is the IR's `unknown` format: the surface state's format converts.
            decl.format = if t.format == spirv::ImageFormat::Unknown as u32 {
                Format::None
            } else {
                image_format(t.format)
                    .ok_or_else(|| format!("an image of unknown format {}", t.format))?
            };
            decl.access = access;
        }
        _ => {
            return Err("an image whose use (sampled or storage) is known only at run time".into())
        }
    }
    Ok(decl)
}

/// The descriptor count of the runtime descriptor array at `(set, binding)`: its entry
/// in `counts`, else [`DEFAULT_DESCRIPTOR_COUNT`]; or why it cannot be one.
pub fn descriptor_count(counts: &DescriptorCounts, set: u32, binding: u32) -> Result<u32, String> {
    match counts.get(&(set, binding)) {
        None => Ok(DEFAULT_DESCRIPTOR_COUNT),
        Some(0) => Err(format!(
            "the runtime descriptor array at set {set}, binding {binding} has a descriptor count \
             of 0: the shader indexes it, so its binding needs at least one descriptor"
        )),
        Some(&n) if n > MAX_BINDING_TABLE_ENTRIES => Err(format!(
            "the runtime descriptor array at set {set}, binding {binding} has a descriptor count \
             of {n}: more than the {MAX_BINDING_TABLE_ENTRIES} entries of an Intel binding table"
        )),
        Some(&n) => Ok(n),
    }
}

/// Why the images overflow the binding table at image `name` (set `set`, binding
/// `binding`, `n` descriptors from entry `first`; `counts` says where a runtime
/// array's count came from).
fn binding_table_overflow(
    name: &str,
    (set, binding): (u32, u32),
    n: u32,
    runtime_array: bool,
    counts: &DescriptorCounts,
    first: u32,
) -> String {
    let whence = match (runtime_array, counts.contains_key(&(set, binding))) {
        (false, _) => "",
        (true, true) => " (a runtime descriptor array, of the count given for its binding)",
        (true, false) => {
            " (a runtime descriptor array without a given count, so of the default count)"
        }
    };
    format!(
        "the images need more binding-table entries than an Intel binding table has \
         ({MAX_BINDING_TABLE_ENTRIES}): `{name}` at set {set}, binding {binding} takes {n}{whence} \
         from entry {first}, so the last would be {}",
        u64::from(first) + u64::from(n) - 1
    )
}

/// Maps the variables `used` names for the entry point (whose call tree is the
/// functions `funcs`, indices into `Module::functions`), runtime descriptor arrays with
/// their `counts` (see [`crate::bindings`]).
pub fn map(
    m: &Module,
    decs: &Decorations,
    d: &Declarations,
    used: &HashSet<Id>,
    funcs: &[usize],
    counts: &DescriptorCounts,
) -> Result<Mapping, ImportError> {
    let mut out = Mapping::default();
    let scratch_privates = place_scratch(m, decs, d, used, funcs, &mut out)?;
    for &i in &d.variables {
        let ops = m.ops(i);
        let [ty, id, sc, rest @ ..] = ops else {
            return Err(m.error(i, ErrorKind::Parse, "OpVariable has too few operands"));
        };
        let Some(Ty::Pointer { pointee, .. }) = d.types.get(*ty) else {
            return Err(m.error(
                i,
                ErrorKind::Invalid,
                format!("the type %{ty} of a variable is not a pointer type"),
            ));
        };
        out.globals.insert(
            *id,
            Global {
                inst: i,
                pointee: *pointee,
                sc: *sc,
                init: rest.first().copied(),
            },
        );
    }
    let mut resources = Vec::new();
    for &i in &d.variables {
        let id = m.ops(i)[1];
        if !used.contains(&id) {
            continue;
        }
        let g = out.globals[&id];
        let err = |kind, msg: String| m.error(i, kind, msg);
        let sc = SC::from_u32(g.sc).ok_or_else(|| {
            err(
                ErrorKind::Invalid,
                format!("unknown storage class {}", g.sc),
            )
        })?;
        match sc {
            SC::UniformConstant | SC::Uniform | SC::StorageBuffer => {
                let set = decs.get(id, D::DescriptorSet).unwrap_or(0);
                let binding = decs.get(id, D::Binding).ok_or_else(|| {
                    err(ErrorKind::Invalid, "a resource variable without a Binding decoration".into())
                })?;
                resources.push(((set, binding), id, i));
            }
            SC::PushConstant => {
                let range = d.types.explicit_size(decs, g.pointee).ok_or_else(|| {
                    err(ErrorKind::Invalid, "the push-constant block has no explicit layout".into())
                })?;
                out.roles.insert(id, Role::Push { range });
            }
            SC::Workgroup => {
                let l = d.types.natural(g.pointee).ok_or_else(|| {
                    err(ErrorKind::Unsupported, "a workgroup variable of a type without a memory layout".into())
                })?;
                let offset = out.shared_bytes.div_ceil(l.align) * l.align;
                out.shared_bytes = offset
                    .checked_add(l.size)
                    .filter(|&e| e <= MAX_SHARED_BYTES)
                    .ok_or_else(|| {
                        err(
                            ErrorKind::Limit,
                            format!(
                                "the workgroup variables need more than {MAX_SHARED_BYTES} bytes, the \
                                 shared local memory of an Intel workgroup"
                            ),
                        )
                    })?;
                out.roles.insert(id, Role::Shared { offset });
            }
            SC::Private => {
                let role = match scratch_privates.get(&id) {
                    Some(&offset) => Role::Scratch { offset },
                    None => Role::Private,
                };
                out.roles.insert(id, role);
                out.privates.push(id);
            }
            SC::Input => {
                let builtin = decs.get(id, D::BuiltIn).ok_or_else(|| {
                    err(
                        ErrorKind::Unsupported,
                        "an input variable that is not a builtin (or a block of builtins)".into(),
                    )
                })?;
                out.roles.insert(id, Role::Builtin { builtin });
            }
            other => {
                return Err(err(
                    ErrorKind::Unsupported,
                    format!("a variable in the {other:?} storage class: compute shaders of the IR have no such memory"),
                ))
            }
        }
    }
    resources.sort();
    let (mut next_image, mut next_ssbo, mut next_ubo) = (0u32, 0u32, 0u32);
    let mut next_sampler = 0u32;
    // The buffer declaration each `(set, binding, ssbo)` got, for its aliases.
    let mut buffer_at: BTreeMap<(u32, u32, bool), usize> = BTreeMap::new();
    for ((set, binding), id, i) in resources {
        let g = out.globals[&id];
        let err = |kind, msg: String| m.error(i, kind, msg);
        let (inner, count, runtime_array) = match d.types.get(g.pointee) {
            Some(Ty::Array { elem, len }) => (*elem, Some(*len), false),
            Some(Ty::RuntimeArray { elem }) => {
                let n = descriptor_count(counts, set, binding)
                    .map_err(|why| err(ErrorKind::Limit, why))?;
                (*elem, Some(n), true)
            }
            _ => (g.pointee, None, false),
        };
        let n = count.unwrap_or(1);
        let name = m.name(id).map(str::to_string);
        let mut push = |kind: BindingKind, index: u32| {
            out.bindings.push(Binding {
                group: set,
                binding,
                name: name.clone(),
                kind,
                index,
                count: n,
                runtime_array,
            })
        };
        let sc = SC::from_u32(g.sc);
        match (sc, d.types.get(inner)) {
            (Some(SC::UniformConstant), Some(Ty::Image(_) | Ty::SampledImage { .. })) => {
                let t = match d.types.get(inner) {
                    Some(Ty::SampledImage { image }) => match d.types.get(*image) {
                        Some(Ty::Image(t)) => *t,
                        _ => {
                            return Err(err(
                                ErrorKind::Invalid,
                                "a sampled image of a non-image type".into(),
                            ))
                        }
                    },
                    Some(Ty::Image(t)) => *t,
                    _ => {
                        return Err(err(
                            ErrorKind::Invalid,
                            "an image variable of a non-image type".into(),
                        ))
                    }
                };
                let taken = &out.images;
                let name = var_name(
                    m,
                    &[id],
                    || format!("img{set}_{binding}"),
                    |n| taken.iter().any(|d| d.name == n),
                );
                let mut decl = image_decl(&name, &t, access_of(decs, id))
                    .map_err(|why| err(ErrorKind::Unsupported, why.to_string()))?;
                decl.binding = next_image;
                decl.count = count;
                let kind = if decl.access.contains(Access::SAMPLED) {
                    BindingKind::SampledImage
                } else {
                    BindingKind::StorageImage
                };
                push(kind, next_image);
                next_image = next_image
                    .checked_add(n)
                    .filter(|&end| end <= MAX_BINDING_TABLE_ENTRIES)
                    .ok_or_else(|| {
                        err(
                            ErrorKind::Limit,
                            binding_table_overflow(
                                &decl.name,
                                (set, binding),
                                n,
                                runtime_array,
                                counts,
                                next_image,
                            ),
                        )
                    })?;
                let image_id = ImageId::from_u32(out.images.len() as u32);
                if matches!(d.types.get(inner), Some(Ty::SampledImage { .. })) {
                    // A combined image sampler: the image, and a sampler of its own in
                    // the sampler index space, of the image's name unless a separate
                    // sampler declared before it holds that name.
                    let taken = &out.samplers;
                    let sname = unique(decl.name.clone(), |n| taken.iter().any(|d| d.name == n));
                    push(BindingKind::Sampler, next_sampler);
                    out.combined.insert(image_id, next_sampler);
                    out.samplers.push(ir::SamplerDecl {
                        count,
                        ..ir::SamplerDecl::new(&sname, next_sampler)
                    });
                    next_sampler = next_sampler
                        .checked_add(n)
                        .ok_or_else(|| err(ErrorKind::Limit, "too many samplers".into()))?;
                }
                out.roles.insert(
                    id,
                    Role::Image {
                        image: image_id,
                        array: count.is_some(),
                    },
                );
                out.images.push(decl);
                out.image_spans.push(span_of(m, i));
            }
            (Some(SC::UniformConstant), Some(Ty::Sampler)) => {
                if count.is_some() {
                    return Err(err(
                        ErrorKind::Unsupported,
                        "an array of samplers: the IR names a sampler by a constant index".into(),
                    ));
                }
                let taken = &out.samplers;
                let sname = var_name(
                    m,
                    &[id],
                    || format!("sampler{set}_{binding}"),
                    |n| taken.iter().any(|d| d.name == n),
                );
                push(BindingKind::Sampler, next_sampler);
                out.roles.insert(
                    id,
                    Role::Sampler {
                        index: next_sampler,
                    },
                );
                out.samplers
                    .push(ir::SamplerDecl::new(&sname, next_sampler));
                next_sampler = next_sampler
                    .checked_add(1)
                    .ok_or_else(|| err(ErrorKind::Limit, "too many samplers".into()))?;
            }
            (Some(SC::Uniform | SC::StorageBuffer), Some(Ty::Struct { .. })) => {
                let ssbo = sc == Some(SC::StorageBuffer) || decs.has(inner, D::BufferBlock);
                if !ssbo && !decs.has(inner, D::Block) {
                    return Err(err(
                        ErrorKind::Invalid,
                        "a uniform variable whose struct is not a Block".into(),
                    ));
                }
                let access = access_of(decs, id).bits();
                let (size, stride) = buffer_layout(d, decs, inner).ok_or_else(|| {
                    err(
                        ErrorKind::Invalid,
                        "a buffer block without an explicit layout (Offset, ArrayStride)".into(),
                    )
                })?;
                // Two variables at one binding are two views of one buffer (Vulkan
                // allows it; suyu's shaders read a buffer as words and as vectors): one
                // block, as NIR's variables with one binding are one surface, as large
                // as either view and restricted as both are.
                if let Some(&k) = buffer_at.get(&(set, binding, ssbo)) {
                    let decl = &mut out.buffers[k];
                    if decl.count != count {
                        return Err(err(
                            ErrorKind::Unsupported,
                            format!(
                                "two buffer variables at set {set}, binding {binding} that are \
                                 different arrays of buffers"
                            ),
                        ));
                    }
                    decl.size = decl.size.max(size);
                    decl.stride = decl.stride.or(stride);
                    if ssbo {
                        // The qualifiers both views have (a view that writes makes the
                        // buffer writable).
                        let both = decl.access.bits() & access_of(decs, id).bits();
                        decl.access = Access::from_bits(both).unwrap_or(Access::NONE);
                    }
                    let space = if ssbo { Space::Ssbo } else { Space::Ubo };
                    out.roles.insert(
                        id,
                        Role::Buffer {
                            space,
                            block: decl.block,
                            array: count.is_some(),
                            access,
                        },
                    );
                    continue;
                }
                buffer_at.insert((set, binding, ssbo), out.buffers.len());
                let (space, block) = if ssbo {
                    push(BindingKind::StorageBuffer, next_ssbo);
                    let b = next_ssbo;
                    next_ssbo = next_ssbo
                        .checked_add(n)
                        .ok_or_else(|| err(ErrorKind::Limit, "too many buffers".into()))?;
                    (Space::Ssbo, b)
                } else {
                    push(BindingKind::UniformBuffer, next_ubo);
                    let b = next_ubo;
                    next_ubo = next_ubo
                        .checked_add(n)
                        .ok_or_else(|| err(ErrorKind::Limit, "too many buffers".into()))?;
                    (Space::Ubo, b)
                };
                out.roles.insert(
                    id,
                    Role::Buffer {
                        space,
                        block,
                        array: count.is_some(),
                        access,
                    },
                );
                let kind = if ssbo {
                    BufferKind::Ssbo
                } else {
                    BufferKind::Ubo
                };
                let taken = &out.buffers;
                let name = var_name(
                    m,
                    &[id, inner],
                    || format!("{kind}{block}"),
                    |n| taken.iter().any(|d| d.name == n),
                );
                out.buffers.push(BufferDecl {
                    access: if ssbo {
                        access_of(decs, id)
                    } else {
                        Access::NONE
                    },
                    count,
                    stride,
                    ..BufferDecl::new(&name, kind, block, size)
                });
                out.buffer_spans.push(span_of(m, i));
            }
            (_, t) => {
                return Err(err(
                    ErrorKind::Unsupported,
                    format!(
                    "a resource variable of type {}: the IR has images, texel buffers and buffers",
                    match t {
                        Some(t) => format!("{t:?}"),
                        None => format!("%{inner}"),
                    }
                ),
                ))
            }
        }
    }
    Ok(out)
}

/// Places the variables [`super::scratch::scratch_variables`] chooses in scratch
/// memory, each at the next offset its natural alignment allows: the `Function`
/// variables of the functions `funcs` in `out.scratch_locals`, the `used` `Private`
/// ones in the map returned. A variable whose type has an explicit layout
/// (`ArrayStride`, `Offset`, `MatrixStride`: a type shared with a buffer block) stays
/// in registers: its accesses would follow that layout, not the natural one it is
/// placed by.
fn place_scratch(
    m: &Module,
    decs: &Decorations,
    d: &Declarations,
    used: &HashSet<Id>,
    funcs: &[usize],
    out: &mut Mapping,
) -> Result<HashMap<Id, u32>, ImportError> {
    let mut privates = HashMap::default();
    if !super::scratch::has_large_private_array(m, d) {
        return Ok(privates);
    }
    let read_only = out
        .read_only
        .insert(super::constant_data::read_only_variables(m, d));
    for id in super::scratch::scratch_variables(m, d, read_only) {
        let Some(i) = m.def(id) else { continue };
        let [ty, _, sc, ..] = m.ops(i) else { continue };
        let private = *sc == SC::Private as u32;
        let reachable = || {
            funcs.iter().any(|&f| {
                let fd = &m.functions[f];
                let end = fd
                    .blocks
                    .iter()
                    .map(|b| b.terminator)
                    .max()
                    .unwrap_or(fd.inst);
                (fd.inst..=end).contains(&i)
            })
        };
        if (private && !used.contains(&id)) || (!private && !reachable()) {
            continue;
        }
        let Some(Ty::Pointer { pointee, .. }) = d.types.get(*ty) else {
            continue;
        };
        if explicit_layout(decs, d, *pointee, 0) {
            continue;
        }
        let Some(l) = d.types.natural(*pointee) else {
            continue;
        };
        let align = l.align.max(4);
        let offset = out.scratch_bytes.div_ceil(align) * align;
        let max = ir::shader::MAX_SCRATCH_SIZE;
        out.scratch_bytes = offset
            .checked_add(l.size.div_ceil(4) * 4)
            .filter(|&e| e <= max)
            .ok_or_else(|| {
                m.error(
                    i,
                    ErrorKind::Limit,
                    format!(
                        "the private arrays indexed at run time need more than {max} bytes of \
                         scratch memory per invocation"
                    ),
                )
            })?;
        if private {
            privates.insert(id, offset);
        } else {
            out.scratch_locals.insert(id, offset);
        }
    }
    Ok(privates)
}

/// Whether type `ty` or a type in it carries an explicit layout decoration.
fn explicit_layout(decs: &Decorations, d: &Declarations, ty: Id, depth: u32) -> bool {
    if depth > 64 {
        return true;
    }
    match d.types.get(ty) {
        Some(Ty::Array { elem, .. }) => {
            decs.get(ty, D::ArrayStride).is_some() || explicit_layout(decs, d, *elem, depth + 1)
        }
        Some(Ty::Struct { members }) => members.iter().enumerate().any(|(k, m)| {
            let k = k as u32;
            decs.member_get(ty, k, D::Offset).is_some()
                || decs.member_get(ty, k, D::MatrixStride).is_some()
                || explicit_layout(decs, d, *m, depth + 1)
        }),
        _ => false,
    }
}

/// The IR span of instruction `i`: its `OpLine`'s line and column.
pub fn span_of(m: &Module, i: usize) -> Span {
    match m
        .insts
        .get(i)
        .and_then(|inst| m.lines.get(inst.line as usize))
    {
        Some(l) if l.line > 0 => Span::new(l.line, l.column.max(1)),
        _ => Span::UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runtime_array_takes_its_count_from_the_map_else_eight() {
        let counts = DescriptorCounts::from([((0, 1), 3), ((2, 0), 240)]);
        assert_eq!(descriptor_count(&counts, 0, 1), Ok(3));
        assert_eq!(descriptor_count(&counts, 2, 0), Ok(240));
        // Set 1, binding 0 and set 0, binding 0 have no entry: the documented default.
        assert_eq!(descriptor_count(&counts, 1, 0), Ok(8));
        assert_eq!(descriptor_count(&counts, 0, 0), Ok(8));
        assert_eq!(DEFAULT_DESCRIPTOR_COUNT, 8);
    }

    #[test]
    fn a_count_of_zero_or_beyond_the_binding_table_is_an_error() {
        let counts = DescriptorCounts::from([((0, 0), 0), ((0, 1), 241), ((3, 7), u32::MAX)]);
        let zero = descriptor_count(&counts, 0, 0).unwrap_err();
        assert!(
            zero.contains("set 0, binding 0") && zero.contains("count of 0"),
            "{zero}"
        );
        for (set, binding, n) in [(0, 1, "241"), (3, 7, "4294967295")] {
            let e = descriptor_count(&counts, set, binding).unwrap_err();
            assert!(
                e.contains(&format!("set {set}, binding {binding}"))
                    && e.contains(&format!("count of {n}"))
                    && e.contains("240 entries"),
                "{e}"
            );
        }
    }

    #[test]
    fn an_overflow_names_the_binding_its_count_and_the_last_entry() {
        // 200 descriptors from entry 41 end at entry 240, one past the table.
        let given = DescriptorCounts::from([((1, 2), 200)]);
        let e = binding_table_overflow("imgs", (1, 2), 200, true, &given, 41);
        assert!(
            e.contains("`imgs` at set 1, binding 2 takes 200")
                && e.contains("count given for its binding")
                && e.contains("the last would be 240")
                && e.contains("(240)"),
            "{e}"
        );
        let e = binding_table_overflow("imgs", (1, 2), 8, true, &DescriptorCounts::new(), 233);
        assert!(
            e.contains("default count") && e.contains("the last would be 240"),
            "{e}"
        );
        let e = binding_table_overflow("a", (0, 0), 300, false, &given, 0);
        assert!(
            !e.contains("runtime") && e.contains("the last would be 299"),
            "{e}"
        );
    }
}
