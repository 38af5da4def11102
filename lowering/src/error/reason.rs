//! The reasons some kinds of [`LowerErrorKind`](crate::LowerErrorKind) carry: why a
//! format, a dimension, a block access or a required block copy cannot be lowered.

use crate::address::AddressError;
use crate::format::FormatError;
use crate::messages::block2d::{Block2dRule, SplitError};
use ir::{Format, ImageDim, Type};
use std::fmt;

/// Why a format has no storage lowering on the path an access takes.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FormatProblem {
    /// Not a storage-image format on the platform (R64 before Gfx9).
    NotStorable(FormatError),
    /// Texels of this size have no untyped access size.
    UntypedTexelBits {
        /// Bits per texel.
        bits: u32,
    },
    /// The format has no data type for the sampler to return.
    NoDataType {
        /// The format.
        format: Format,
    },
    /// The untyped address code cannot address texels of the format.
    Address(AddressError),
}

/// What needs the format of a format-less image.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FormatUse {
    /// The untyped path, which computes texel addresses from the format.
    UntypedAddress,
    /// A multisampled storage image, whose accesses only the untyped path serves.
    MultisampledStorage,
    /// An image block access, which moves whole texels.
    BlockTexels,
    /// The storage format lowering.
    Lowering(FormatError),
}

/// What needs 64-bit flat (A64) addresses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum A64Use {
    /// Untyped accesses with the A64 address model ([`crate::UntypedAddress::A64`]).
    UntypedAddress,
    /// The global side of a group async copy.
    GroupCopy,
}

/// Why an image's dimension cannot be accessed.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DimProblem {
    /// The dimension cannot be arrayed.
    Arrayed {
        /// The dimension.
        dim: ImageDim,
    },
    /// `image_samples` of a multisampled texture: the count is read from a storage
    /// image's parameter block, which textures have none of, and the sampler's
    /// `sampleinfo` message is not emitted.
    TextureSamples,
    /// Image block accesses address non-arrayed 2D images only.
    BlockNot2d {
        /// The dimension.
        dim: ImageDim,
        /// Whether the image is arrayed.
        arrayed: bool,
    },
}

/// Why an image block access has no 2D block messages.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum BlockProblem {
    /// Block messages move texels of 1, 2, 4 or 8 bytes.
    TexelBytes {
        /// The texel size.
        bytes: u32,
    },
    /// The platform has no 2D block messages at all.
    NoBlockMessages {
        /// The platform name.
        platform: String,
        /// The block2d rule that says so.
        rule: Block2dRule,
    },
    /// The only block messages of the platform are untyped, which read a linear surface
    /// described by the payload, and the image declares no static linear layout.
    UntypedNeedsLinear {
        /// The image format.
        format: Format,
        /// The platform name.
        platform: String,
        /// The image name.
        image: String,
    },
    /// The block cannot be split into messages whose register images are whole
    /// components of the value.
    Split {
        /// Width in texels.
        width: u16,
        /// Height in rows.
        height: u16,
        /// Bytes per texel.
        texel_bytes: u32,
        /// The type of the value over the subgroup.
        ty: Type,
        /// The subgroup size.
        subgroup: u32,
        /// Whether the messages are typed.
        typed: bool,
        /// Why.
        error: SplitError,
    },
}

/// Why a group async copy cannot be done with 2D block messages when they are required
/// ([`crate::Block2dPolicy::Always`]).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum CopyBlockProblem {
    /// The platform has no untyped block messages (or a block breaks their rules).
    Rule(Block2dRule),
    /// The shader fixes no subgroup size.
    NoSubgroupSize,
    /// The workgroup is not whole subgroups.
    PartialSubgroups {
        /// Invocations in the workgroup.
        invocations: u32,
        /// The subgroup size.
        subgroup: u32,
    },
    /// A shape operand is not a constant.
    DynamicShape {
        /// The operand.
        operand: &'static str,
    },
    /// A payload field out of range.
    PayloadRange {
        /// Bytes per line.
        width: u64,
        /// Lines.
        height: u64,
        /// Source pitch in bytes.
        src_pitch: u64,
        /// Destination pitch in bytes.
        dst_pitch: u64,
    },
    /// The rectangle cannot be split into block messages.
    Split(SplitError),
    /// A block row's register image does not spread over the subgroup as an IR vector.
    LaneLayout {
        /// Bytes per block row.
        row_bytes: u32,
        /// The subgroup size.
        subgroup: u32,
    },
}

impl fmt::Display for FormatProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatProblem::NotStorable(e) => write!(f, "{e}"),
            FormatProblem::UntypedTexelBits { bits } => {
                write!(f, "{bits}-bit texels have no untyped access size")
            }
            FormatProblem::NoDataType { format } => write!(f, "{format} has no data type"),
            FormatProblem::Address(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for FormatUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatUse::UntypedAddress => f.write_str(
                "the untyped path computes texel addresses from the format, and the image has none",
            ),
            FormatUse::MultisampledStorage => f.write_str(
                "a multisampled storage image is accessed through the untyped path (typed \
                 messages reach no sample before Xe3), which computes texel addresses and \
                 converts texels from the format, and the image has none: declare its format \
                 in the shader",
            ),
            FormatUse::BlockTexels => f.write_str(
                "a block access moves whole texels, and the image has no format to size them",
            ),
            FormatUse::Lowering(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for DimProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimProblem::Arrayed { dim } => write!(f, "{dim} images cannot be arrayed"),
            DimProblem::TextureSamples => f.write_str(
                "the sample count of a multisampled texture is not available: only a storage \
                 image's count is read (from its parameter block); the sampler's `sampleinfo` \
                 message is not emitted",
            ),
            DimProblem::BlockNot2d { dim, arrayed } => write!(
                f,
                "block accesses address non-arrayed 2D images, not a {dim}{} image",
                if *arrayed { " array" } else { "" }
            ),
        }
    }
}

impl fmt::Display for BlockProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockProblem::TexelBytes { bytes } => write!(
                f,
                "block messages move texels of 1, 2, 4 or 8 bytes, not {bytes}"
            ),
            BlockProblem::NoBlockMessages { platform, rule } => {
                write!(f, "{platform} has no 2D block messages ({rule})")
            }
            BlockProblem::UntypedNeedsLinear {
                format,
                platform,
                image,
            } => write!(
                f,
                "untyped block2d (the only block messages for {format} on {platform}) reads a \
                 linear surface described by the payload, so `@{image}` must declare a static \
                 `layout={{tiling=linear, ...}}`"
            ),
            BlockProblem::Split {
                width,
                height,
                texel_bytes,
                ty,
                subgroup,
                typed,
                error,
            } => write!(
                f,
                "a {width}x{height} block of {texel_bytes}-byte texels as {ty} over a subgroup \
                 of {subgroup} cannot be split into {} block2d messages: {error}",
                if *typed { "typed" } else { "untyped" }
            ),
        }
    }
}

impl fmt::Display for CopyBlockProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CopyBlockProblem::Rule(r) => write!(f, "{r}"),
            CopyBlockProblem::NoSubgroupSize => f.write_str(
                "the shader fixes no subgroup_size, and a block message's data is spread over \
                 the lanes of a subgroup",
            ),
            CopyBlockProblem::PartialSubgroups {
                invocations,
                subgroup,
            } => write!(
                f,
                "the workgroup's {invocations} invocations are not whole subgroups of \
                 {subgroup}, and a block message needs every lane of its subgroup"
            ),
            CopyBlockProblem::DynamicShape { operand } => write!(
                f,
                "a block message's shape is a constant, but `{operand}` is not"
            ),
            CopyBlockProblem::PayloadRange {
                width,
                height,
                src_pitch,
                dst_pitch,
            } => write!(
                f,
                "the payload's width ({width} bytes), height ({height} rows) and pitches \
                 ({src_pitch} and {dst_pitch} bytes) must be 1 to 2^32"
            ),
            CopyBlockProblem::Split(e) => write!(f, "{e}"),
            CopyBlockProblem::LaneLayout {
                row_bytes,
                subgroup,
            } => write!(
                f,
                "a {row_bytes}-byte block row's register image does not spread over a subgroup \
                 of {subgroup} as an IR vector (1, 2, 3, 4, 8 or 16 components per lane)"
            ),
        }
    }
}
