//! Errors every intrinsic can have: indices, the image operand, sources, the
//! destination; and those of `image_load_param`.

use super::subject::ImageName;
use super::wording::Intr;
use crate::entity::ImageId;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::AddrType;
use crate::types::Type;
use std::fmt;

/// A problem with an intrinsic's indices, image operand, sources or destination.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum IntrinsicError {
    /// The wrong number of indices.
    IndexCount {
        /// The intrinsic.
        op: IntrinsicOp,
        /// How many there are.
        found: usize,
    },
    /// An index whose value is not one of its kind's.
    InvalidIndex {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index.
        index: IndexKind,
        /// Its value.
        value: u32,
    },
    /// A flat-address LSC message that names an image.
    FlatWithImage {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An image operand on an intrinsic that takes none.
    UnexpectedImage {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An LSC message whose address model needs a surface but that names no image.
    MissingSurface {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The address model.
        addr: AddrType,
    },
    /// An intrinsic that needs an image operand but names none.
    MissingImage {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An image operand that names no declaration.
    UndeclaredImage {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image it names.
        image: ImageId,
    },
    /// An array of images named without an index.
    MissingArrayIndex {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// The array's length.
        count: u32,
    },
    /// An index on an image that is not an array.
    NotAnArray {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
    },
    /// An image index that is not a 32-bit scalar.
    ImageIndexType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index's type.
        found: Type,
    },
    /// The wrong number of sources.
    SourceCount {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its indices (the sources some intrinsics take depend on them).
        indices: Vec<u32>,
        /// How many sources there are.
        found: usize,
    },
    /// A predicate that is not a 1-bit scalar.
    PredicateType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The predicate's type.
        found: Type,
    },
    /// A source with the wrong component count.
    SourceComponents {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The source's name.
        source: &'static str,
        /// The count it must have.
        expected: u8,
        /// The source's component count.
        found: u8,
    },
    /// A source with the wrong bit size.
    SourceBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The source's name.
        source: &'static str,
        /// The bit size it must have.
        expected: u8,
        /// The source's bit size.
        found: u8,
    },
    /// A destination on an intrinsic that produces no value.
    UnexpectedDest {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// No destination on an intrinsic that produces a value.
    MissingDest {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// A destination of the wrong type (intrinsics of a fixed result type).
    DestType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The type it must have.
        expected: Type,
        /// The destination's type.
        found: Type,
    },
    /// An `image_load_param` slot outside the parameter block.
    ParamSlot {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The `base` index.
        base: i32,
        /// The number of slots of the block.
        slots: i32,
    },
    /// A `load_constant` whose `base .. base + range` is not inside the shader's
    /// constant data, or whose destination does not fit `range`.
    ConstantRange {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The `base` index.
        base: u32,
        /// The `range` index.
        range: u32,
        /// Bytes the destination reads.
        bytes: u32,
        /// Bytes of constant data the shader has.
        size: usize,
    },
    /// A `load_constant` whose `base` is not a multiple of its component size.
    ConstantAlign {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The `base` index.
        base: u32,
        /// Bytes of one component.
        align: u32,
    },
    /// A `load_constant` of booleans, which have no bytes in memory.
    ConstantBool {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An `image_load_param` destination that is not 1 to 4 32-bit components.
    ParamDest {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The destination's type.
        found: Type,
    },
    /// A scratch access whose value is not 1 to 4 32-bit components, or in a shader
    /// without scratch memory.
    ScratchAccess {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The value's type.
        found: Type,
        /// The shader's `scratch_size`.
        scratch_size: u32,
    },
    /// A subgroup reduction or scan of a value its op does not take (a float op of
    /// 8-bit values, any op of booleans).
    ReductionType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The reduction op.
        reduction: crate::subgroup::ReductionOp,
        /// The value's type.
        found: Type,
    },
}

impl fmt::Display for IntrinsicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntrinsicError::IndexCount { op, found } => {
                let kinds = op.info().indices;
                let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "{} takes {} ind{} ({}), found {found}",
                    Intr(*op),
                    kinds.len(),
                    if kinds.len() == 1 { "ex" } else { "ices" },
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            }
            IntrinsicError::ReductionType {
                op,
                reduction,
                found,
            } => write!(
                f,
                "{}: reduction_op={} combines {}, not {}-bit values",
                Intr(*op),
                reduction.name(),
                if reduction.is_float() {
                    "16-, 32- or 64-bit floats"
                } else {
                    "8- to 64-bit integers"
                },
                found.bit_size()
            ),
            IntrinsicError::InvalidIndex { op, index, value } => write!(
                f,
                "{}: index `{}` has an invalid value ({value})",
                Intr(*op),
                index.name()
            ),
            IntrinsicError::FlatWithImage { op } => {
                write!(f, "{} with lsc_addr=flat cannot name an image", Intr(*op))
            }
            IntrinsicError::UnexpectedImage { op } => {
                write!(f, "{} does not take an image operand", Intr(*op))
            }
            IntrinsicError::MissingSurface { op, addr } => write!(
                f,
                "{} with lsc_addr={} needs an image operand (the surface)",
                Intr(*op),
                addr.name()
            ),
            IntrinsicError::MissingImage { op } => {
                write!(f, "{} needs an image operand (`@image`)", Intr(*op))
            }
            IntrinsicError::UndeclaredImage { op, image } => {
                write!(f, "{} names {image}, which is not declared", Intr(*op))
            }
            IntrinsicError::MissingArrayIndex { op, image, count } => write!(
                f,
                "{}: {image} is an array of {count} images and needs an index (`@{}[%i]`)",
                Intr(*op),
                image.name
            ),
            IntrinsicError::NotAnArray { op, image } => write!(
                f,
                "{}: {image} is not an array of images and cannot be indexed",
                Intr(*op)
            ),
            IntrinsicError::ImageIndexType { op, found } => write!(
                f,
                "{}: the image index must be a 32-bit scalar, found {found}",
                Intr(*op)
            ),
            IntrinsicError::SourceCount { op, indices, found } => {
                let counts = op.srcs_description(indices).unwrap_or_else(|| {
                    let n = op.srcs(indices).map_or(0, |s| s.len());
                    format!("{n} sources")
                });
                write!(
                    f,
                    "{} takes {counts}{}, found {found}",
                    Intr(*op),
                    if op.info().predicable {
                        " plus an optional predicate"
                    } else {
                        ""
                    }
                )
            }
            IntrinsicError::PredicateType { op, found } => write!(
                f,
                "{}: the predicate must be a 1-bit scalar, found {found}",
                Intr(*op)
            ),
            IntrinsicError::SourceComponents {
                op,
                source,
                expected,
                found,
            } => write!(
                f,
                "{}: source `{source}` has {found} components, expected {expected}",
                Intr(*op)
            ),
            IntrinsicError::SourceBits {
                op,
                source,
                expected,
                found,
            } => write!(
                f,
                "{}: source `{source}` is {found}-bit, expected {expected}-bit",
                Intr(*op)
            ),
            IntrinsicError::UnexpectedDest { op } => {
                write!(f, "{} does not produce a value", Intr(*op))
            }
            IntrinsicError::MissingDest { op } => {
                write!(f, "{} must define a value", Intr(*op))
            }
            IntrinsicError::DestType {
                op,
                expected,
                found,
            } => write!(
                f,
                "{}: the destination is {found}, expected {expected}",
                Intr(*op)
            ),
            IntrinsicError::ParamSlot { op, base, slots } => write!(
                f,
                "{}: base {base} is out of range; the image parameter block has {slots} slots (0..{slots})",
                Intr(*op)
            ),
            IntrinsicError::ConstantRange {
                op,
                base,
                range,
                bytes,
                size,
            } => write!(
                f,
                "{}: bytes {base}..{} (base {base}, range {range}) of {bytes}-byte reads are not inside the shader's {size} bytes of constant data",
                Intr(*op),
                u64::from(*base) + u64::from(*range)
            ),
            IntrinsicError::ConstantAlign { op, base, align } => write!(
                f,
                "{}: base {base} is not a multiple of the {align}-byte components it reads",
                Intr(*op)
            ),
            IntrinsicError::ConstantBool { op } => write!(
                f,
                "{}: booleans have no bytes in constant data; read 32-bit values and compare them",
                Intr(*op)
            ),
            IntrinsicError::ParamDest { op, found } => write!(
                f,
                "{}: the destination is {found}, expected 1 to 4 32-bit components",
                Intr(*op)
            ),
            IntrinsicError::ScratchAccess {
                op,
                found,
                scratch_size: 0,
            } => write!(
                f,
                "{}: the shader has no scratch memory (`scratch_size=N` in the `shader` line) for this {found}",
                Intr(*op)
            ),
            IntrinsicError::ScratchAccess { op, found, .. } => write!(
                f,
                "{}: the value is {found}, expected 1 to 4 32-bit components (scratch memory is accessed in dwords)",
                Intr(*op)
            ),
        }
    }
}
