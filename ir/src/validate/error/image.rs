//! Errors of image intrinsics against their declaration: dimension, format,
//! coordinates, texel data, atomics, access qualifiers.

use super::subject::{DataOperand, ImageName};
use super::wording::{plural, Intr};
use crate::atomic::AtomicOp;
use crate::image::{Format, ImageDim};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::types::{AluType, BaseType, Type};
use std::fmt;

/// An image qualifier an access goes against.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Qualifier {
    /// `readonly` (NIR's `ACCESS_NON_WRITEABLE`): never written.
    Readonly,
    /// `writeonly` (NIR's `ACCESS_NON_READABLE`): never read.
    Writeonly,
    /// `sampled`: a texture bound for the sampler, which shaders only read.
    Sampled,
}

/// The kind of image a coordinate count is for: `2d image`, `1d array image`.
struct ImageKind(ImageDim, bool);

impl fmt::Display for ImageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}image", self.0, if self.1 { "array " } else { "" })
    }
}

/// Why a `txl` cannot filter its texture.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum TxlProblem {
    /// The image is not declared `sampled`: only a texture bound for the sampler is
    /// filtered (a storage image has no sampler view).
    NotSampled,
    /// A dimension the IR does not filter: buffers have no filtering (Vulkan's
    /// uniform texel buffers are fetched, never sampled), and a cube is sampled by a
    /// direction vector, which `txl` does not take; `tg4` gathers from 2D textures
    /// (and their arrays) only, as SPIR-V's `OpImageGather` (cubes aside).
    Dim(ImageDim),
    /// A destination that is not 1 to 4 32-bit components.
    Dest(Type),
    /// A `dest_type` other than `float32`, `int32` or `uint32`: a texture's texels are
    /// read as 32-bit values of its sampled type.
    DestType(AluType),
    /// A format whose data is not of the `dest_type`'s base type: float, normalized
    /// formats are filtered into `float32`, signed and unsigned integer ones read into
    /// `int32` and `uint32`.
    FormatType {
        /// The image's format.
        format: Format,
        /// The `dest_type` of the `txl`.
        dest_type: AluType,
    },
}

/// A problem with an image intrinsic against the image's declaration.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ImageError {
    /// An `image_dim` index that is not the declared dimension.
    DimMismatch {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// The index's dimension.
        found: ImageDim,
        /// The declared dimension.
        declared: ImageDim,
    },
    /// An `image_array` index that is not the declaration's.
    ArrayedMismatch {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// The index.
        found: bool,
        /// Whether the image is declared arrayed.
        declared: bool,
    },
    /// A `format` index that is not the declared format.
    FormatMismatch {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// The index's format.
        found: Format,
        /// The declared format.
        declared: Format,
    },
    /// A coordinate with the wrong component count for the image.
    CoordComponents {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image's dimension.
        dim: ImageDim,
        /// Whether it is arrayed.
        arrayed: bool,
        /// The count it must have.
        expected: u8,
        /// The coordinate's component count.
        found: u8,
    },
    /// Texel data of more than 4 components.
    TexelComponents {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Which operand.
        operand: DataOperand,
        /// Its component count.
        found: u8,
    },
    /// Texel data whose bit size is not the format's data size.
    TexelBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Which operand.
        operand: DataOperand,
        /// The format.
        format: Format,
        /// The format's data bit size.
        expected: u8,
        /// The operand's bit size.
        found: u8,
    },
    /// A boolean `dest_type` or `src_type`.
    BoolDataType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index (`dest_type` or `src_type`).
        index: IndexKind,
        /// Its type.
        ty: AluType,
    },
    /// A sized `dest_type` or `src_type` whose size is not the data's.
    DataTypeBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index (`dest_type` or `src_type`).
        index: IndexKind,
        /// Its type.
        ty: AluType,
        /// The data's bit size.
        bits: u8,
    },
    /// A `dest_type` or `src_type` of float data on an integer format, or the reverse.
    DataTypeFormat {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index (`dest_type` or `src_type`).
        index: IndexKind,
        /// Its type.
        ty: AluType,
        /// The image's format.
        format: Format,
    },
    /// A load or store of an image of unknown format whose `dest_type` or `src_type`
    /// is not one of the sampled types a format-less image can have (`float32`,
    /// `int32`, `uint32`): the surface's format converts to or from it.
    FormatlessDataType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index (`dest_type` or `src_type`).
        index: IndexKind,
        /// Its type.
        ty: AluType,
    },
    /// A compare-and-swap on `@image_atomic`.
    AtomicNeedsSwap {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The atomic operation.
        atomic: AtomicOp,
    },
    /// An operation other than compare-and-swap on `@image_atomic_swap`.
    SwapNeedsCompare {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The atomic operation.
        atomic: AtomicOp,
    },
    /// A float atomic on an integer format, or an integer atomic on a float format.
    AtomicFormat {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The atomic operation.
        atomic: AtomicOp,
        /// The image.
        image: ImageName,
        /// Its format.
        format: Format,
    },
    /// An atomic operand whose bit size is not the format's data size.
    AtomicOperandBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The operand (`compare` or `data`).
        operand: &'static str,
        /// The format.
        format: Format,
        /// The format's data bit size.
        expected: u8,
        /// The operand's bit size.
        found: u8,
    },
    /// An atomic's destination that is not a scalar of the format's data size.
    AtomicDest {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The type it must have.
        expected: Type,
        /// The destination's type.
        found: Type,
    },
    /// An `image_size` destination of the wrong type for the image.
    SizeDest {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image's dimension.
        dim: ImageDim,
        /// Whether it is arrayed.
        arrayed: bool,
        /// The type it must have.
        expected: Type,
        /// The destination's type.
        found: Type,
    },
    /// A mip level of a buffer image: `image_size` with a `lod`, or `image_levels`.
    /// Texel buffers have no levels (SPIR-V's `OpImageQuerySizeLod` and
    /// `OpImageQueryLevels` exclude the `Buffer` dimension; NIR's `txs` of a buffer
    /// takes no LOD).
    BufferLevels {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
    },
    /// A mip level of a multisampled image: `image_size` or `image_load` with a
    /// `lod`, or `image_levels`. Multisampled images have one level (SPIR-V's
    /// `OpImageQuerySizeLod` and `OpImageQueryLevels` require `MS` 0, and a `Lod`
    /// operand excludes `Sample`).
    MultisampledLevels {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
    },
    /// A `txl` that cannot filter its texture.
    Txl {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// Why.
        problem: TxlProblem,
    },
    /// A write to a `readonly` image or a read of a `writeonly` one.
    Access {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// The qualifier the access goes against.
        qualifier: Qualifier,
        /// Whether the intrinsic reads the image.
        reads: bool,
        /// Whether it writes the image.
        writes: bool,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::DimMismatch {
                op,
                image,
                found,
                declared,
            } => write!(
                f,
                "{}: image_dim={found} does not match the declaration of {image} ({declared})",
                Intr(*op)
            ),
            ImageError::ArrayedMismatch {
                op,
                image,
                found,
                declared,
            } => write!(
                f,
                "{}: image_array={found} does not match the declaration of {image} ({})",
                Intr(*op),
                if *declared { "arrayed" } else { "not arrayed" }
            ),
            ImageError::FormatMismatch {
                op,
                image,
                found,
                declared,
            } => write!(
                f,
                "{}: format={found} does not match the declaration of {image} ({declared})",
                Intr(*op)
            ),
            ImageError::CoordComponents {
                op,
                dim,
                arrayed,
                expected,
                found,
            } => write!(
                f,
                "{}: the coordinate has {found} component{}, expected {expected} for a {}",
                Intr(*op),
                plural(u64::from(*found)),
                ImageKind(*dim, *arrayed)
            ),
            ImageError::TexelComponents { op, operand, found } => write!(
                f,
                "{}: {operand} has {found} components, expected 1 to 4",
                Intr(*op)
            ),
            ImageError::TexelBits {
                op,
                operand,
                format,
                expected,
                found,
            } => write!(
                f,
                "{}: {operand} is {found}-bit, expected {expected}-bit for format {format}",
                Intr(*op)
            ),
            ImageError::BoolDataType { op, index, ty } => write!(
                f,
                "{}: {} cannot be a boolean type ({ty})",
                Intr(*op),
                index.name()
            ),
            ImageError::DataTypeBits {
                op,
                index,
                ty,
                bits,
            } => write!(
                f,
                "{}: {}={ty} does not match the {bits}-bit data",
                Intr(*op),
                index.name()
            ),
            ImageError::FormatlessDataType { op, index, ty } => write!(
                f,
                "{}: {}={ty} on an image of unknown format: the surface's format converts \
                 texels to or from the image's sampled type, float32, int32 or uint32",
                Intr(*op),
                index.name(),
            ),
            ImageError::DataTypeFormat {
                op,
                index,
                ty,
                format,
            } => write!(
                f,
                "{}: {}={ty} does not match format {format}, which holds {} data",
                Intr(*op),
                index.name(),
                if format.data_base_type() == Some(BaseType::Float) {
                    "float"
                } else {
                    "integer"
                }
            ),
            ImageError::AtomicNeedsSwap { op, atomic } => write!(
                f,
                "{}: atomic_op={atomic} compares and swaps; it needs `@image_atomic_swap`",
                Intr(*op)
            ),
            ImageError::SwapNeedsCompare { op, atomic } => write!(
                f,
                "{} takes atomic_op=cmpxchg or fcmpxchg, found {atomic}",
                Intr(*op)
            ),
            ImageError::AtomicFormat {
                op,
                atomic,
                image,
                format,
            } => {
                let (needs, has) = if atomic.is_float() {
                    ("a float", "integer")
                } else {
                    ("an integer", "float")
                };
                write!(
                    f,
                    "{}: atomic_op={atomic} needs {needs} format, but {image} is {format} ({has} data)",
                    Intr(*op)
                )
            }
            ImageError::AtomicOperandBits {
                op,
                operand,
                format,
                expected,
                found,
            } => write!(
                f,
                "{}: the atomic {operand} is {found}-bit, expected {expected}-bit for format {format}",
                Intr(*op)
            ),
            ImageError::AtomicDest {
                op,
                expected,
                found,
            } => write!(
                f,
                "{}: the destination is {found}, expected {expected} (the old texel value)",
                Intr(*op)
            ),
            ImageError::SizeDest {
                op,
                dim,
                arrayed,
                expected,
                found,
            } => write!(
                f,
                "{}: the destination is {found}, expected {expected} for a {}",
                Intr(*op),
                ImageKind(*dim, *arrayed)
            ),
            ImageError::BufferLevels { op, image } => write!(
                f,
                "{}: {image} is a buffer image, which has no mip levels{}",
                Intr(*op),
                if *op == IntrinsicOp::ImageSize {
                    "; its size takes no lod"
                } else {
                    ""
                }
            ),
            ImageError::MultisampledLevels { op, image } => write!(
                f,
                "{}: {image} is multisampled, which has one level{}",
                Intr(*op),
                match op {
                    IntrinsicOp::ImageLevels => "",
                    _ => "; the access takes no lod",
                }
            ),
            ImageError::Txl { op, image, problem } => {
                write!(f, "{}: ", Intr(*op))?;
                match problem {
                    TxlProblem::NotSampled => write!(
                        f,
                        "{image} is not a sampled image; only textures bound for the sampler are filtered"
                    ),
                    TxlProblem::Dim(d) if *op == IntrinsicOp::Tg4 => write!(
                        f,
                        "{image} is a {d} image; tg4 gathers from 2d textures and their arrays"
                    ),
                    TxlProblem::Dim(d) => write!(
                        f,
                        "{image} is a {d} image; txl filters 1d, 2d and 3d textures and their arrays"
                    ),
                    TxlProblem::Dest(t) => write!(
                        f,
                        "the destination is {t}, expected 1 to 4 32-bit components"
                    ),
                    TxlProblem::DestType(t) => write!(
                        f,
                        "dest_type={t}; a texture is read as float32, int32 or uint32"
                    ),
                    TxlProblem::FormatType { format, dest_type } => write!(
                        f,
                        "{image} has the format {format}, whose texels are not read as dest_type={dest_type} \
                         (float and normalized formats are float32, integer formats int32 or uint32)"
                    ),
                }
            }
            ImageError::Access {
                op,
                image,
                qualifier,
                reads,
                writes,
            } => {
                let does = match (reads, writes) {
                    (true, true) => "reads and writes",
                    (true, false) => "reads",
                    _ => "writes",
                };
                let (qualifier, rule) = match qualifier {
                    Qualifier::Readonly => ("readonly", "a readonly image is never written"),
                    Qualifier::Writeonly => ("writeonly", "a writeonly image is never read"),
                    Qualifier::Sampled => (
                        "a sampled image",
                        "shaders only read a sampled image, through the sampler",
                    ),
                };
                write!(
                    f,
                    "{}: {image} is {qualifier}, but this {does} it; {rule}",
                    Intr(*op)
                )
            }
        }
    }
}
