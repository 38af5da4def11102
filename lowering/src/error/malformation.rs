//! Shapes the validator rejects, as the lowering reports them when given a shader that
//! was not validated ([`Malformation`]).

use crate::convert::ConvertError;
use ir::{AtomicOp, Format, ImageDim, IndexKind, IntrinsicOp, Type};
use std::fmt;

/// A shape the validator rejects, found while lowering a shader that was not validated
/// ([`crate::lower_shader`] validates its input, so it reports
/// [`LowerErrorKind::InvalidShader`](crate::LowerErrorKind::InvalidShader) instead).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Malformation {
    /// The intrinsic names no image.
    NoImage,
    /// The intrinsic names an image the shader does not declare.
    UndeclaredImage {
        /// Its index.
        index: usize,
    },
    /// An index does not decode.
    BadIndex {
        /// The index.
        kind: IndexKind,
        /// Its value, if present.
        value: Option<u32>,
    },
    /// The instruction defines a value where its opcode defines none, or the reverse.
    Definition {
        /// The opcode.
        op: IntrinsicOp,
        /// Whether the opcode defines a value.
        defines: bool,
    },
    /// The number of sources does not fit the opcode.
    SourceCount {
        /// Required sources.
        required: usize,
        /// Optional sources after them.
        optional: usize,
        /// Sources present.
        found: usize,
    },
    /// The coordinate has too few 32-bit components for the image.
    Coordinate {
        /// Its type.
        found: Type,
        /// The image dimension.
        dim: ImageDim,
        /// Whether the image is arrayed.
        arrayed: bool,
    },
    /// The LOD is not a 32-bit scalar.
    Lod {
        /// Its type.
        found: Type,
    },
    /// A load result that is not 32x1 to 32x4.
    LoadComponents {
        /// Its type.
        found: Type,
    },
    /// A load whose result bit size is not the format's data size.
    LoadBits {
        /// The result type.
        found: Type,
        /// The format.
        format: Format,
    },
    /// A format-less load without a 32-bit `dest_type`.
    FormatlessDestType,
    /// Stored data with the wrong bit size or too few components.
    StoreData {
        /// Its type.
        found: Type,
        /// Channels the store writes.
        channels: u8,
    },
    /// Stored data with more than 4 components (a texel has at most 4 channels).
    StoreChannels {
        /// Its type.
        found: Type,
    },
    /// `image_atomic` with a swap op, or `image_atomic_swap` with another op.
    AtomicIntrinsic {
        /// The op.
        op: AtomicOp,
    },
    /// Atomic data and result of different types, or a vector result.
    AtomicTypes {
        /// The result type.
        result: Type,
        /// The data types.
        data: Vec<Type>,
    },
    /// An atomic on data other than 32 or 64 bits.
    AtomicBits {
        /// The result type.
        found: Type,
    },
    /// An atomic whose result bit size is not the format's data size.
    AtomicFormatBits {
        /// The result type.
        found: Type,
        /// The format.
        format: Format,
    },
    /// `image_size` with a result other than 32-bit with 1 to 4 components, or
    /// `image_samples` or `image_levels` with one other than a 32-bit scalar.
    QueryType {
        /// The opcode.
        op: IntrinsicOp,
        /// The result type, if any.
        found: Option<Type>,
    },
    /// An intrinsic the image pass does not lower.
    NotAnImageAccess {
        /// The opcode.
        op: IntrinsicOp,
    },
    /// A block access in a shader that fixes no subgroup size.
    NoSubgroupSize,
    /// A block access whose value does not spread the block over the subgroup.
    BlockValue {
        /// Whether it is a store (the data) or a load (the result).
        store: bool,
        /// Its type.
        found: Type,
        /// Bytes of the block.
        bytes: u32,
        /// The subgroup size.
        subgroup: u32,
    },
    /// A colour conversion that cannot be built for the value.
    Conversion(ConvertError),
    /// A group async copy in a workgroup of no (or too many) invocations.
    Workgroup {
        /// The invocations.
        invocations: u64,
    },
    /// A group async copy source that is not a scalar of the required size.
    CopyOperand {
        /// The source's name.
        operand: &'static str,
        /// Its type.
        found: Type,
    },
    /// A group async copy that does not define a 32-bit event.
    CopyEvent,
    /// A group async copy whose sides are not one shared (32-bit) and one global
    /// (64-bit) pointer.
    CopySides,
    /// A `group_wait_events` that does not take one event and define nothing.
    WaitShape,
}

impl fmt::Display for Malformation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Malformation as M;
        match self {
            M::NoImage => f.write_str("the intrinsic names no image"),
            M::UndeclaredImage { index } => write!(f, "image {index} is not declared"),
            M::BadIndex { kind, value: None } => write!(f, "no {} index", kind.name()),
            M::BadIndex {
                kind,
                value: Some(v),
            } => write!(f, "bad {} index {v}", kind.name()),
            M::Definition { op, defines } => write!(
                f,
                "`{op}` {} a value",
                if *defines {
                    "must define"
                } else {
                    "cannot define"
                }
            ),
            M::SourceCount {
                required,
                optional,
                found,
            } => {
                if *optional == 0 {
                    write!(f, "expected {required} sources, found {found}")
                } else {
                    write!(
                        f,
                        "expected {required} to {} sources, found {found}",
                        required + optional
                    )
                }
            }
            M::Coordinate {
                found,
                dim,
                arrayed,
            } => write!(
                f,
                "the coordinate is {found}, a{} {dim} image needs 32x{}",
                if *arrayed { "n arrayed" } else { "" },
                dim.coord_components(*arrayed)
            ),
            M::Lod { found } => write!(f, "the LOD is {found}, expected a 32-bit scalar"),
            M::LoadComponents { found } => write!(
                f,
                "the load defines {found}; a storage image load returns 32x1 to 32x4"
            ),
            M::LoadBits { found, format } => write!(
                f,
                "the load defines {found}, but {format} data is {}-bit",
                format.data_bit_size()
            ),
            M::FormatlessDestType => f.write_str("a format-less load needs a 32-bit dest_type"),
            M::StoreData { found, channels } => write!(
                f,
                "the stored data is {found}, expected at least 32x{channels}"
            ),
            M::StoreChannels { found } => write!(
                f,
                "the stored data is {found}, a texel has at most 4 channels"
            ),
            M::AtomicIntrinsic { op } => write!(
                f,
                "atomic op {op} belongs to {}",
                if op.is_swap() {
                    "image_atomic_swap"
                } else {
                    "image_atomic"
                }
            ),
            M::AtomicTypes { result, data } => write!(
                f,
                "atomic data and result must be one scalar type, found {result} and {data:?}"
            ),
            M::AtomicBits { found } => write!(
                f,
                "image atomics operate on 32- or 64-bit data, not {found}"
            ),
            M::AtomicFormatBits { found, format } => write!(
                f,
                "the atomic defines {found}, but {format} data is {}-bit",
                format.data_bit_size()
            ),
            M::QueryType { op, found } => {
                let found = found.map_or("nothing".to_string(), |t| t.to_string());
                if matches!(op, IntrinsicOp::ImageSamples | IntrinsicOp::ImageLevels) {
                    write!(f, "{op} defines {found}, expected a 32-bit scalar")
                } else {
                    write!(
                        f,
                        "{op} defines {found}, expected 32-bit with 1 to 4 components"
                    )
                }
            }
            M::NotAnImageAccess { op } => {
                write!(f, "`{op}` is not an image access the pass knows")
            }
            M::NoSubgroupSize => f.write_str(
                "block accesses spread their data over a subgroup, and the shader fixes no \
                 subgroup_size",
            ),
            M::BlockValue {
                store,
                found,
                bytes,
                subgroup,
            } => write!(
                f,
                "the {} is {found}, which does not spread the {bytes}-byte block over a \
                 subgroup of {subgroup}",
                if *store { "data" } else { "result" }
            ),
            M::Conversion(e) => write!(f, "{e}"),
            M::Workgroup { invocations } => {
                write!(f, "the workgroup has {invocations} invocations")
            }
            M::CopyOperand { operand, found } => write!(f, "source `{operand}` is {found}"),
            M::CopyEvent => f.write_str("the event it defines must be a 32-bit scalar"),
            M::CopySides => f.write_str(
                "one of `dst` and `src` must be shared (32-bit) and the other global (64-bit)",
            ),
            M::WaitShape => f.write_str("`group_wait_events` takes one event and defines nothing"),
        }
    }
}
