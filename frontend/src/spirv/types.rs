//! Types: every `OpType*` of the module, their IR shapes, and their memory layouts
//! (explicit, from `Offset`, `ArrayStride` and `MatrixStride`, for buffers; natural,
//! as WGSL and naga lay out workgroup memory, where the module gives none).

use super::decorations::Decorations;
use super::module::Id;
use ir::Type;
use rustc_hash::FxHashMap as HashMap;
use spirv::Decoration as D;

/// `spirv::StorageClass::PhysicalStorageBuffer`: the storage class of buffer device
/// addresses (`SPV_KHR_physical_storage_buffer`).
pub const PHYSICAL_STORAGE_BUFFER: u32 = spirv::StorageClass::PhysicalStorageBuffer as u32;

/// An image type (`OpTypeImage`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageTy {
    /// The sampled type (the scalar type of a texel's components).
    pub sampled_type: Id,
    /// `spirv::Dim` as a number.
    pub dim: u32,
    /// 1 for depth images.
    pub depth: u32,
    /// Whether it is an array.
    pub arrayed: bool,
    /// Whether it is multisampled.
    pub ms: bool,
    /// 1: used with a sampler; 2: a storage image; 0: known at run time only.
    pub sampled: u32,
    /// `spirv::ImageFormat` as a number.
    pub format: u32,
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `void`.
    Void,
    /// A boolean (1-bit in the IR).
    Bool,
    /// An integer.
    Int {
        /// Width in bits.
        bits: u8,
        /// Signedness.
        signed: bool,
    },
    /// A float.
    Float {
        /// Width in bits.
        bits: u8,
    },
    /// A vector of `n` scalars of type `elem`.
    Vector {
        /// The component type.
        elem: Id,
        /// The component count.
        n: u8,
    },
    /// A matrix of `n` column vectors of type `col`.
    Matrix {
        /// The column type.
        col: Id,
        /// The column count.
        n: u8,
    },
    /// An array of `len` elements (the length evaluated with specialization applied).
    Array {
        /// The element type.
        elem: Id,
        /// The length.
        len: u32,
    },
    /// An array of run-time length (the last member of a storage buffer).
    RuntimeArray {
        /// The element type.
        elem: Id,
    },
    /// A struct.
    Struct {
        /// The member types.
        members: Vec<Id>,
    },
    /// A pointer into storage class `sc`.
    Pointer {
        /// `spirv::StorageClass` as a number.
        sc: u32,
        /// The type pointed to.
        pointee: Id,
    },
    /// A function type.
    Function {
        /// The return type.
        ret: Id,
        /// The parameter types.
        params: Vec<Id>,
    },
    /// An image.
    Image(ImageTy),
    /// A sampler.
    Sampler,
    /// An image combined with a sampler.
    SampledImage {
        /// The image type.
        image: Id,
    },
    /// A type the IR has no use for (events, ray queries, cooperative matrices, ...),
    /// by the opcode declaring it: an error where a value of it is made.
    Other(u16),
}

/// The types of a module, by id.
#[derive(Default, Debug)]
pub struct Types {
    map: HashMap<Id, Ty>,
}

/// Size and alignment in bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
}

impl Types {
    /// Records type `id`.
    pub fn insert(&mut self, id: Id, ty: Ty) {
        self.map.insert(id, ty);
    }

    /// The type `id`, if it is one.
    pub fn get(&self, id: Id) -> Option<&Ty> {
        self.map.get(&id)
    }

    /// The IR type of a scalar or vector type (`None` for anything else). A buffer
    /// device address (a `PhysicalStorageBuffer` pointer) is a value too: its 64-bit
    /// address.
    pub fn ir_type(&self, id: Id) -> Option<Type> {
        match self.get(id)? {
            Ty::Bool => Type::new(1, 1),
            Ty::Int { bits, .. } | Ty::Float { bits } => Type::new(*bits, 1),
            Ty::Vector { elem, n } => Type::new(self.ir_type(*elem)?.bit_size(), *n),
            Ty::Pointer { sc, .. } if *sc == PHYSICAL_STORAGE_BUFFER => Some(Type::U64),
            _ => None,
        }
    }

    /// The type a buffer device address type (a `PhysicalStorageBuffer` pointer)
    /// points to; `None` for every other type.
    pub fn physical_pointee(&self, id: Id) -> Option<Id> {
        match self.get(id)? {
            Ty::Pointer { sc, pointee } if *sc == PHYSICAL_STORAGE_BUFFER => Some(*pointee),
            _ => None,
        }
    }

    /// The scalar type of a scalar, vector or matrix type.
    pub fn scalar_of(&self, id: Id) -> Option<&Ty> {
        match self.get(id)? {
            Ty::Vector { elem, .. } => self.get(*elem),
            Ty::Matrix { col, .. } => self.scalar_of(*col),
            t @ (Ty::Bool | Ty::Int { .. } | Ty::Float { .. }) => Some(t),
            _ => None,
        }
    }

    /// Whether a scalar or vector type holds floats.
    pub fn is_float(&self, id: Id) -> bool {
        matches!(self.scalar_of(id), Some(Ty::Float { .. }))
    }

    /// Whether a scalar or vector type holds signed integers.
    pub fn is_signed(&self, id: Id) -> bool {
        matches!(self.scalar_of(id), Some(Ty::Int { signed: true, .. }))
    }

    /// Whether a type holds a boolean somewhere.
    pub fn has_bool(&self, id: Id) -> bool {
        match self.get(id) {
            Some(Ty::Bool) => true,
            Some(Ty::Vector { elem, .. }) => self.has_bool(*elem),
            Some(Ty::Array { elem, .. }) | Some(Ty::RuntimeArray { elem }) => self.has_bool(*elem),
            Some(Ty::Struct { members }) => members.iter().any(|m| self.has_bool(*m)),
            _ => false,
        }
    }

    /// The natural layout of a type in memory without explicit offsets (workgroup
    /// variables): scalars at their size (booleans as 32-bit words), vectors of two at
    /// twice the scalar's alignment and of three or four at four times it, matrices as
    /// arrays of columns, arrays at their element's size rounded up to its alignment,
    /// structs at their largest member's alignment with each member at the next
    /// aligned offset and the size rounded up (WGSL §13.4, which naga's layouter
    /// applies to workgroup memory). `None` for types without a memory form or whose
    /// size overflows 32 bits.
    pub fn natural(&self, id: Id) -> Option<Layout> {
        Some(match self.get(id)? {
            Ty::Bool => Layout { size: 4, align: 4 },
            Ty::Int { bits, .. } | Ty::Float { bits } => {
                let b = (*bits as u32 / 8).max(1);
                Layout { size: b, align: b }
            }
            Ty::Vector { elem, n } => {
                let s = self.natural(*elem)?.size;
                let align = if *n == 2 { 2 * s } else { 4 * s };
                Layout {
                    size: s * *n as u32,
                    align,
                }
            }
            Ty::Matrix { col, n } => {
                let c = self.natural(*col)?;
                let stride = c.size.div_ceil(c.align) * c.align;
                Layout {
                    size: stride.checked_mul(*n as u32)?,
                    align: c.align,
                }
            }
            Ty::Array { elem, len } => {
                let e = self.natural(*elem)?;
                let stride = e.size.div_ceil(e.align) * e.align;
                Layout {
                    size: stride.checked_mul(*len)?,
                    align: e.align,
                }
            }
            Ty::Pointer { sc, .. } if *sc == PHYSICAL_STORAGE_BUFFER => {
                Layout { size: 8, align: 8 }
            }
            Ty::Struct { members } => {
                let mut offset = 0u32;
                let mut align = 1u32;
                for m in members {
                    let l = self.natural(*m)?;
                    offset = offset.div_ceil(l.align).checked_mul(l.align)?;
                    offset = offset.checked_add(l.size)?;
                    align = align.max(l.align);
                }
                Layout {
                    size: offset.div_ceil(align).checked_mul(align)?,
                    align,
                }
            }
            _ => return None,
        })
    }

    /// The byte offset of member `i` of struct `id`, from its `Offset` decoration, or
    /// from the natural layout when the struct has no explicit layout.
    pub fn member_offset(&self, decs: &Decorations, id: Id, i: u32) -> Option<u32> {
        if let Some(o) = decs.member_get(id, i, D::Offset) {
            return Some(o);
        }
        let Ty::Struct { members } = self.get(id)? else {
            return None;
        };
        let mut offset = 0u32;
        for (k, m) in members.iter().enumerate() {
            let l = self.natural(*m)?;
            offset = offset.div_ceil(l.align).checked_mul(l.align)?;
            if k as u32 == i {
                return Some(offset);
            }
            offset = offset.checked_add(l.size)?;
        }
        None
    }

    /// The byte stride of the elements of array type `id`: its `ArrayStride`, or the
    /// natural one.
    pub fn array_stride(&self, decs: &Decorations, id: Id) -> Option<u32> {
        if let Some(s) = decs.get(id, D::ArrayStride) {
            return Some(s);
        }
        let (Ty::Array { elem, .. } | Ty::RuntimeArray { elem }) = self.get(id)? else {
            return None;
        };
        let e = self.natural(*elem)?;
        Some(e.size.div_ceil(e.align) * e.align)
    }

    /// The size of a type with explicit layout (a buffer's struct): the end of its
    /// last member, or the size of an array of known length.
    pub fn explicit_size(&self, decs: &Decorations, id: Id) -> Option<u32> {
        match self.get(id)? {
            Ty::Struct { members } => {
                let mut end = 0u32;
                for (i, m) in members.iter().enumerate() {
                    let o = self.member_offset(decs, id, i as u32)?;
                    let s = match self.get(*m)? {
                        Ty::Matrix { n, .. } => {
                            let stride = decs.member_get(id, i as u32, D::MatrixStride)?;
                            stride.checked_mul(*n as u32)?
                        }
                        Ty::RuntimeArray { .. } => 0,
                        _ => self.explicit_size(decs, *m)?,
                    };
                    end = end.max(o.checked_add(s)?);
                }
                Some(end)
            }
            Ty::Array { len, .. } => self.array_stride(decs, id)?.checked_mul(*len),
            Ty::RuntimeArray { .. } => Some(0),
            _ => self.natural(id).map(|l| l.size),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_layout_follows_wgsl() {
        let mut t = Types::default();
        t.insert(1, Ty::Float { bits: 32 });
        t.insert(2, Ty::Vector { elem: 1, n: 3 });
        t.insert(
            3,
            Ty::Struct {
                members: vec![2, 1],
            },
        );
        t.insert(4, Ty::Array { elem: 2, len: 5 });
        t.insert(5, Ty::Vector { elem: 1, n: 2 });
        t.insert(
            6,
            Ty::Struct {
                members: vec![1, 5],
            },
        );
        // vec3<f32>: 12 bytes, 16-aligned; a struct of it and an f32 packs the f32 at 12.
        assert_eq!(
            t.natural(2),
            Some(Layout {
                size: 12,
                align: 16
            })
        );
        assert_eq!(
            t.natural(3),
            Some(Layout {
                size: 16,
                align: 16
            })
        );
        // array<vec3<f32>, 5>: a stride of 16.
        assert_eq!(
            t.natural(4),
            Some(Layout {
                size: 80,
                align: 16
            })
        );
        // { f32, vec2<f32> }: the vec2 at 8, size 16.
        assert_eq!(t.member_offset(&Decorations::default(), 6, 1), Some(8));
        assert_eq!(t.natural(6), Some(Layout { size: 16, align: 8 }));
    }
}
