//! The binding mapping of the naga path: which IR image, buffer block or memory each
//! naga global of the entry point becomes, by the rules of [`crate::bindings`].

use crate::bindings::{Binding, BindingKind, MAX_SHARED_BYTES};
use crate::error::{ErrorKind, ImportError, Location};
use ir::{Access, BufferDecl, BufferKind, Format, ImageDecl, ImageDim, ImageId};
use naga::proc::Layouter;
use naga::valid::GlobalUse;
use naga::{AddressSpace, Handle, ImageClass, ImageDimension, StorageFormat, TypeInner};

/// What a global variable becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// An image (or array of images) declared as `image`.
    Image {
        /// The declaration.
        image: ImageId,
        /// Whether the global is an array of images.
        array: bool,
    },
    /// A storage buffer.
    Ssbo {
        /// Its block index.
        block: u32,
        /// NIR access bits.
        access: u32,
    },
    /// A uniform buffer.
    Ubo {
        /// Its block index.
        block: u32,
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
    /// A private variable: promoted to SSA values like a local.
    Private,
    /// A sampler.
    Sampler,
    /// A global the entry point does not use.
    Unused,
}

/// The mapping for one entry point.
pub struct Mapping {
    /// The role of every global, by handle index.
    pub roles: Vec<Role>,
    /// The image declarations, by [`ImageId`].
    pub images: Vec<ImageDecl>,
    /// The source location of each image declaration.
    pub image_locations: Vec<Location>,
    /// The buffer declarations (storage and uniform blocks with their layouts), in
    /// `(group, binding)` order.
    pub buffers: Vec<BufferDecl>,
    /// The source location of each buffer declaration.
    pub buffer_locations: Vec<Location>,
    /// The mapped resources, in `(group, binding)` order.
    pub bindings: Vec<Binding>,
    /// Bytes of shared memory the workgroup variables take.
    pub shared_bytes: u32,
}

/// The IR format of a naga storage format.
pub fn storage_format(f: StorageFormat) -> Option<Format> {
    use StorageFormat as S;
    Some(match f {
        S::R8Unorm => Format::R8Unorm,
        S::R8Snorm => Format::R8Snorm,
        S::R8Uint => Format::R8Uint,
        S::R8Sint => Format::R8Sint,
        S::R16Uint => Format::R16Uint,
        S::R16Sint => Format::R16Sint,
        S::R16Float => Format::R16Float,
        S::Rg8Unorm => Format::Rg8Unorm,
        S::Rg8Snorm => Format::Rg8Snorm,
        S::Rg8Uint => Format::Rg8Uint,
        S::Rg8Sint => Format::Rg8Sint,
        S::R32Uint => Format::R32Uint,
        S::R32Sint => Format::R32Sint,
        S::R32Float => Format::R32Float,
        S::Rg16Uint => Format::Rg16Uint,
        S::Rg16Sint => Format::Rg16Sint,
        S::Rg16Float => Format::Rg16Float,
        S::Rgba8Unorm => Format::Rgba8Unorm,
        S::Rgba8Snorm => Format::Rgba8Snorm,
        S::Rgba8Uint => Format::Rgba8Uint,
        S::Rgba8Sint => Format::Rgba8Sint,
        S::Bgra8Unorm => return None,
        S::Rgb10a2Uint => Format::Rgb10A2Uint,
        S::Rgb10a2Unorm => Format::Rgb10A2Unorm,
        S::Rg11b10Ufloat => Format::R11G11B10Float,
        S::R64Uint => Format::R64Uint,
        S::Rg32Uint => Format::Rg32Uint,
        S::Rg32Sint => Format::Rg32Sint,
        S::Rg32Float => Format::Rg32Float,
        S::Rgba16Uint => Format::Rgba16Uint,
        S::Rgba16Sint => Format::Rgba16Sint,
        S::Rgba16Float => Format::Rgba16Float,
        S::Rgba32Uint => Format::Rgba32Uint,
        S::Rgba32Sint => Format::Rgba32Sint,
        S::Rgba32Float => Format::Rgba32Float,
        S::R16Unorm => Format::R16Unorm,
        S::R16Snorm => Format::R16Snorm,
        S::Rg16Unorm => Format::Rg16Unorm,
        S::Rg16Snorm => Format::Rg16Snorm,
        S::Rgba16Unorm => Format::Rgba16Unorm,
        S::Rgba16Snorm => Format::Rgba16Snorm,
    })
}

/// The IR dimension of a naga image dimension.
pub fn image_dim(d: ImageDimension) -> ImageDim {
    match d {
        ImageDimension::D1 => ImageDim::D1,
        ImageDimension::D2 => ImageDim::D2,
        ImageDimension::D3 => ImageDim::D3,
        ImageDimension::Cube => ImageDim::Cube,
    }
}

/// NIR access bits of a naga storage access and memory decorations.
fn access_bits(access: naga::StorageAccess, decorations: naga::MemoryDecorations) -> Access {
    let mut a = Access::NONE;
    let load = access.contains(naga::StorageAccess::LOAD);
    let store = access.contains(naga::StorageAccess::STORE);
    let atomic = access.contains(naga::StorageAccess::ATOMIC);
    if load && !store && !atomic {
        a |= Access::NON_WRITEABLE;
    }
    if store && !load && !atomic {
        a |= Access::NON_READABLE;
    }
    if decorations.contains(naga::MemoryDecorations::COHERENT) {
        a |= Access::COHERENT;
    }
    if decorations.contains(naga::MemoryDecorations::VOLATILE) {
        a |= Access::VOLATILE;
    }
    a
}

/// `name` made an IR name (`[A-Za-z_][A-Za-z0-9_]*`): other characters become `_`, and
/// a `_` goes first where it would be empty or start with a digit.
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
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// A name for an image: the variable's, made an IR name (`[A-Za-z_][A-Za-z0-9_]*`) and
/// unique, or `img<group>_<binding>`.
fn image_name(var: &naga::GlobalVariable, taken: &[ImageDecl]) -> String {
    let base = var
        .name
        .as_deref()
        .map(ir_name)
        .unwrap_or_else(|| match var.binding {
            Some(b) => format!("img{}_{}", b.group, b.binding),
            None => "img".to_string(),
        });
    let mut name = base.clone();
    let mut n = 1;
    while taken.iter().any(|d| d.name == name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    name
}

/// The declaration of an image type, or why it has none.
fn image_decl(
    name: String,
    dim: ImageDimension,
    arrayed: bool,
    class: ImageClass,
    decorations: naga::MemoryDecorations,
) -> Result<ImageDecl, (String, String)> {
    let dim = image_dim(dim);
    let mut decl = ImageDecl::new(&name, dim, Format::None);
    decl.arrayed = arrayed;
    match class {
        ImageClass::Storage { format, access } => {
            decl.format = storage_format(format).ok_or_else(|| {
                (
                    format!("a storage texture of format {format:?}"),
                    "the IR has no BGRA storage format (Intel's typed messages have none either)"
                        .to_string(),
                )
            })?;
            decl.access = access_bits(access, decorations);
        }
        ImageClass::Sampled { multi: true, .. } if dim == ImageDim::D2 => {
            decl.dim = ImageDim::Ms;
            decl.access = Access::NON_WRITEABLE | Access::SAMPLED;
        }
        ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true } => {
            return Err((
                "a multisampled depth or non-2D texture".into(),
                "the IR's multisampled images are 2D color images".into(),
            ))
        }
        ImageClass::Sampled { .. } | ImageClass::Depth { .. } => {
            decl.access = Access::NON_WRITEABLE | Access::SAMPLED;
        }
        ImageClass::External => {
            return Err((
                "an external texture".into(),
                "the IR has no multi-plane images".into(),
            ))
        }
    }
    if arrayed && !dim.can_be_arrayed() {
        return Err((
            format!("an arrayed {dim} image"),
            "3D images have no arrays".into(),
        ));
    }
    Ok(decl)
}

/// Maps the globals that `uses` (the entry point's uses, by global index) marks used.
/// `locate` turns a global's span into a location for errors.
pub fn map(
    module: &naga::Module,
    layouter: &Layouter,
    uses: &dyn Fn(Handle<naga::GlobalVariable>) -> GlobalUse,
    locate: &dyn Fn(naga::Span) -> Location,
) -> Result<Mapping, ImportError> {
    let mut roles = vec![Role::Unused; module.global_variables.len()];
    let mut images = Vec::new();
    let mut image_locations = Vec::new();
    let mut buffers = Vec::new();
    let mut buffer_locations = Vec::new();
    let mut bindings = Vec::new();
    let mut shared_bytes = 0u32;
    // Resources in (group, binding) order; everything else in declaration order.
    let mut resources = Vec::new();
    for (h, var) in module.global_variables.iter() {
        let loc = locate(module.global_variables.get_span(h));
        if uses(h).is_empty() {
            continue;
        }
        match var.space {
            AddressSpace::Handle | AddressSpace::Storage { .. } | AddressSpace::Uniform => {
                let b = var.binding.ok_or_else(|| {
                    ImportError::new(ErrorKind::Invalid, loc, "a resource without a binding")
                })?;
                resources.push(((b.group, b.binding), h));
            }
            AddressSpace::Immediate => {
                let range = layouter[var.ty].size;
                roles[h.index()] = Role::Push { range };
            }
            AddressSpace::WorkGroup => {
                let layout = layouter[var.ty];
                let offset = layout.alignment.round_up(shared_bytes);
                let end = offset
                    .checked_add(layout.size)
                    .filter(|&e| e <= MAX_SHARED_BYTES);
                shared_bytes = end.ok_or_else(|| {
                    ImportError::new(
                        ErrorKind::Limit,
                        loc,
                        format!(
                            "the workgroup variables need more than {MAX_SHARED_BYTES} bytes, \
                             the shared local memory of an Intel workgroup"
                        ),
                    )
                })?;
                roles[h.index()] = Role::Shared { offset };
            }
            AddressSpace::Private => roles[h.index()] = Role::Private,
            AddressSpace::Function => {}
            other => {
                return Err(ImportError::unsupported(
                    loc,
                    &format!("a global in the {other:?} address space"),
                    "compute shaders of the IR have no such memory",
                ))
            }
        }
    }
    resources.sort();
    let (mut next_image, mut next_ssbo, mut next_ubo) = (0u32, 0u32, 0u32);
    for ((group, binding), h) in resources {
        let var = &module.global_variables[h];
        let loc = locate(module.global_variables.get_span(h));
        let (inner, count) = match &module.types[var.ty].inner {
            TypeInner::BindingArray { base, size } => {
                let n = match size {
                    naga::ArraySize::Constant(n) => n.get(),
                    _ => {
                        return Err(ImportError::unsupported(
                            loc,
                            "a binding array without a constant size",
                            "the IR declares arrays of images with their length",
                        ))
                    }
                };
                (&module.types[*base].inner, Some(n))
            }
            inner => (inner, None),
        };
        let mut push = |kind: BindingKind, index: u32, count: u32| {
            bindings.push(Binding {
                group,
                binding,
                name: var.name.clone(),
                kind,
                index,
                count,
                runtime_array: false,
            })
        };
        match (var.space, inner) {
            (
                AddressSpace::Handle,
                TypeInner::Image {
                    dim,
                    arrayed,
                    class,
                },
            ) => {
                let name = image_name(var, &images);
                let mut decl = image_decl(name, *dim, *arrayed, *class, var.memory_decorations)
                    .map_err(|(what, why)| ImportError::unsupported(loc, &what, &why))?;
                decl.binding = next_image;
                decl.count = count;
                let kind = if decl.access.contains(Access::SAMPLED) {
                    BindingKind::SampledImage
                } else {
                    BindingKind::StorageImage
                };
                let n = count.unwrap_or(1);
                push(kind, next_image, n);
                next_image += n;
                roles[h.index()] = Role::Image {
                    image: ImageId::from_u32(images.len() as u32),
                    array: count.is_some(),
                };
                images.push(decl);
                image_locations.push(loc);
            }
            (AddressSpace::Handle, TypeInner::Sampler { .. }) => roles[h.index()] = Role::Sampler,
            (AddressSpace::Handle, other) => {
                return Err(ImportError::unsupported(
                    loc,
                    &format!("a resource of type {}", type_name(other)),
                    "the IR has images and buffers only",
                ))
            }
            (_, _) if count.is_some() => {
                return Err(ImportError::unsupported(
                    loc,
                    "an array of buffer bindings",
                    "the IR names one buffer per block index, known when it is compiled",
                ))
            }
            (AddressSpace::Storage { access }, _) => {
                push(BindingKind::StorageBuffer, next_ssbo, 1);
                let access = access_bits(access, var.memory_decorations);
                roles[h.index()] = Role::Ssbo {
                    block: next_ssbo,
                    access: access.bits(),
                };
                let mut decl =
                    buffer_decl(module, layouter, var, BufferKind::Ssbo, next_ssbo, &buffers);
                decl.access = access;
                buffers.push(decl);
                buffer_locations.push(loc);
                next_ssbo += 1;
            }
            (AddressSpace::Uniform, _) => {
                push(BindingKind::UniformBuffer, next_ubo, 1);
                roles[h.index()] = Role::Ubo { block: next_ubo };
                buffers.push(buffer_decl(
                    module,
                    layouter,
                    var,
                    BufferKind::Ubo,
                    next_ubo,
                    &buffers,
                ));
                buffer_locations.push(loc);
                next_ubo += 1;
            }
            _ => {}
        }
    }
    Ok(Mapping {
        roles,
        images,
        image_locations,
        buffers,
        buffer_locations,
        bindings,
        shared_bytes,
    })
}

/// The layout of a buffer's type: the bytes before a trailing runtime array (all of
/// them when there is none) and that array's stride. A runtime array is the type itself
/// (WGSL's `var<storage> a: array<u32>`) or the last member of a struct (a GLSL block
/// `{ uint n; uint data[]; }`).
pub fn buffer_layout(
    module: &naga::Module,
    layouter: &Layouter,
    ty: Handle<naga::Type>,
) -> (u32, Option<u32>) {
    let dynamic = |t: Handle<naga::Type>| match module.types[t].inner {
        TypeInner::Array {
            size: naga::ArraySize::Dynamic,
            stride,
            ..
        } => Some(stride),
        _ => None,
    };
    if let Some(stride) = dynamic(ty) {
        return (0, Some(stride));
    }
    if let TypeInner::Struct { members, .. } = &module.types[ty].inner {
        if let Some(last) = members.last() {
            if let Some(stride) = dynamic(last.ty) {
                return (last.offset, Some(stride));
            }
        }
    }
    (layouter[ty].size, None)
}

/// The declaration of buffer `var`: its name made an IR name (unique among `taken`,
/// `ssbo<block>` or `ubo<block>` without one), its block and its layout.
fn buffer_decl(
    module: &naga::Module,
    layouter: &Layouter,
    var: &naga::GlobalVariable,
    kind: BufferKind,
    block: u32,
    taken: &[BufferDecl],
) -> BufferDecl {
    let fallback = format!("{kind}{block}");
    let base = var.name.as_deref().map_or(fallback.clone(), ir_name);
    let mut name = base.clone();
    let mut n = 1;
    while taken.iter().any(|d| d.name == name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    let (size, stride) = buffer_layout(module, layouter, var.ty);
    BufferDecl {
        stride,
        ..BufferDecl::new(&name, kind, block, size)
    }
}

/// A short description of a naga type for messages.
pub fn type_name(t: &TypeInner) -> String {
    match t {
        TypeInner::Scalar(s) => format!("{:?}{}", s.kind, s.width as u32 * 8),
        TypeInner::Vector { size, scalar } => {
            format!(
                "vec{}<{:?}{}>",
                *size as u8,
                scalar.kind,
                scalar.width as u32 * 8
            )
        }
        TypeInner::Matrix { columns, rows, .. } => format!("mat{}x{}", *columns as u8, *rows as u8),
        TypeInner::AccelerationStructure { .. } => "acceleration structure".into(),
        TypeInner::RayQuery { .. } => "ray query".into(),
        TypeInner::CooperativeMatrix { .. } => "cooperative matrix".into(),
        TypeInner::Image { .. } => "image".into(),
        TypeInner::Sampler { .. } => "sampler".into(),
        TypeInner::Struct { .. } => "struct".into(),
        TypeInner::Array { .. } => "array".into(),
        TypeInner::Atomic(_) => "atomic".into(),
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => "pointer".into(),
        TypeInner::BindingArray { .. } => "binding array".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_storage_format_but_bgra_maps() {
        use StorageFormat as S;
        let all = [
            S::R8Unorm,
            S::R8Snorm,
            S::R8Uint,
            S::R8Sint,
            S::R16Uint,
            S::R16Sint,
            S::R16Float,
            S::Rg8Unorm,
            S::Rg8Snorm,
            S::Rg8Uint,
            S::Rg8Sint,
            S::R32Uint,
            S::R32Sint,
            S::R32Float,
            S::Rg16Uint,
            S::Rg16Sint,
            S::Rg16Float,
            S::Rgba8Unorm,
            S::Rgba8Snorm,
            S::Rgba8Uint,
            S::Rgba8Sint,
            S::Rgb10a2Uint,
            S::Rgb10a2Unorm,
            S::Rg11b10Ufloat,
            S::R64Uint,
            S::Rg32Uint,
            S::Rg32Sint,
            S::Rg32Float,
            S::Rgba16Uint,
            S::Rgba16Sint,
            S::Rgba16Float,
            S::Rgba32Uint,
            S::Rgba32Sint,
            S::Rgba32Float,
            S::R16Unorm,
            S::R16Snorm,
            S::Rg16Unorm,
            S::Rg16Snorm,
            S::Rgba16Unorm,
            S::Rgba16Snorm,
        ];
        for f in all {
            let ir = storage_format(f).unwrap_or_else(|| panic!("{f:?}"));
            // The names agree once naga's spelling is lower-cased and split as NIR's.
            let naga_name = format!("{f:?}").to_ascii_lowercase();
            let squashed = ir.name().replace('_', "");
            let expect = naga_name.replace("rg11b10ufloat", "r11g11b10float");
            assert_eq!(squashed, expect, "{f:?}");
        }
        assert_eq!(storage_format(S::Bgra8Unorm), None);
    }

    #[test]
    fn access_from_storage_access() {
        use naga::StorageAccess as A;
        let d = naga::MemoryDecorations::empty();
        assert_eq!(access_bits(A::LOAD, d), Access::NON_WRITEABLE);
        assert_eq!(access_bits(A::STORE, d), Access::NON_READABLE);
        assert_eq!(access_bits(A::LOAD | A::STORE, d), Access::NONE);
        assert_eq!(access_bits(A::LOAD | A::ATOMIC, d), Access::NONE);
        assert_eq!(
            access_bits(A::LOAD | A::STORE, naga::MemoryDecorations::COHERENT),
            Access::COHERENT
        );
    }
}
