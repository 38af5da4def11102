//! Errors of messages: LSC messages, 2D block messages, image block accesses and the
//! sampler `ld`/`ld_lz`.

use super::subject::{DataOperand, ImageName};
use super::wording::Intr;
use crate::image::{Format, ImageDim};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, BlockShape, DataShape, Sfid};
use crate::types::{AluType, Type};
use std::fmt;

/// ` array` after the dimension of an arrayed image.
fn array(arrayed: bool) -> &'static str {
    if arrayed {
        " array"
    } else {
        ""
    }
}

/// A problem with a message intrinsic.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum MessageError {
    /// A quad message whose data shape is not a channel mask.
    QuadNeedsChannelMask {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
    },
    /// A vector message whose data shape is a channel mask.
    VectorNeedsVectorShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
    },
    /// An address whose bit size is not `lsc_addr_size`'s.
    AddressBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The address size.
        size: AddrSize,
        /// The address's bit size.
        found: u8,
    },
    /// A data shape with more components per address than an IR value has.
    UnrepresentableShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
    },
    /// A destination whose type is not the data shape's.
    DestType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
        /// The type the shape gives.
        expected: Type,
        /// The destination's type.
        found: Type,
    },
    /// A `data` source whose type is not the data shape's.
    DataType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
        /// The type the shape gives.
        expected: Type,
        /// The source's type.
        found: Type,
    },
    /// An atomic operand whose bit size is not the data shape's.
    AtomicOperandBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The operand (`src1` or `src2`).
        operand: &'static str,
        /// Its `lsc_data`.
        shape: DataShape,
        /// The shape's register bit size.
        expected: u8,
        /// The operand's bit size.
        found: u8,
    },
    /// Block data with components narrower than 8 bits.
    BlockComponentBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Which operand.
        operand: DataOperand,
        /// Its type.
        ty: Type,
    },
    /// A block access in a shader that does not fix its `subgroup_size`.
    NeedsSubgroupSize {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// Block data that spreads another number of bytes over the subgroup than the
    /// block holds.
    BlockSpread {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Which operand.
        operand: DataOperand,
        /// Its type.
        ty: Type,
        /// The shader's subgroup size.
        subgroup_size: u32,
        /// The bytes the block holds.
        block_bytes: u32,
    },
    /// A 2D block message to a shared function other than `.ugm` and `.tgm`.
    Block2dSfid {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_sfid`.
        sfid: Sfid,
    },
    /// A 2D block message whose data shape is not a plain d8 to d64.
    Block2dDataShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its `lsc_data`.
        shape: DataShape,
    },
    /// A 2D block message whose block shape is not of its shared function's form.
    Block2dShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Whether the message goes to `.tgm`.
        typed: bool,
        /// Its `lsc_block`.
        block: BlockShape,
    },
    /// A `.tgm` 2D block message without an image.
    TypedBlockNeedsImage {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// A `.tgm` 2D block message on an image that is not a non-arrayed 2D image.
    TypedBlockNot2d {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// Its dimension.
        dim: ImageDim,
        /// Whether it is arrayed.
        arrayed: bool,
    },
    /// A `.ugm` 2D block message that names an image.
    UntypedBlockWithImage {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An image block access on an image that is not a non-arrayed 2D image.
    ImageBlockNot2d {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
        /// Its dimension.
        dim: ImageDim,
        /// Whether it is arrayed.
        arrayed: bool,
    },
    /// An image block access on an image without a format.
    ImageBlockNoFormat {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
    },
    /// An image block access on a format whose texels are not 1, 2, 4 or 8 bytes.
    ImageBlockTexelSize {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The format.
        format: Format,
    },
    /// A sampler destination whose component count is not the channels'.
    SamplerComponents {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The `channels` mask.
        channels: u32,
        /// The destination's component count.
        found: u8,
    },
    /// A sampler `dest_type` whose size is not the destination's.
    SamplerDestType {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The `dest_type`.
        dest_type: AluType,
        /// The destination's bit size.
        found: u8,
    },
    /// A sampler message's `sampler` index that no `sampler` declaration covers.
    UndeclaredSampler {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The index.
        index: u32,
    },
    /// A sampler destination that is not 16- or 32-bit.
    SamplerBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The destination's bit size.
        found: u8,
    },
    /// A `resinfo` destination that is not 32-bit: the message returns 32-bit integers.
    ResinfoBits {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The destination's bit size.
        found: u8,
    },
    /// A `resinfo` of a buffer image: the message is defined for 1D, 2D, 3D and cube
    /// surfaces (IGC's `documentation/visa/instructions/INFO.md`).
    ResinfoOfBuffer {
        /// The intrinsic.
        op: IntrinsicOp,
        /// The image.
        image: ImageName,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::QuadNeedsChannelMask { op, shape } => write!(
                f,
                "{} needs a channel-mask data shape such as d32.xyzw, found lsc_data={shape}",
                Intr(*op)
            ),
            MessageError::VectorNeedsVectorShape { op, shape } => write!(
                f,
                "{} takes a vector data shape such as d32x4, found the channel mask lsc_data={shape}",
                Intr(*op)
            ),
            MessageError::AddressBits { op, size, found } => write!(
                f,
                "{}: the address is {found}-bit, expected {}-bit for lsc_addr_size={}",
                Intr(*op),
                size.bits(),
                size.name()
            ),
            MessageError::UnrepresentableShape { op, shape } => write!(
                f,
                "{}: lsc_data={shape} has {} components per address, which no IR value can hold",
                Intr(*op),
                shape.components()
            ),
            MessageError::DestType {
                op,
                shape,
                expected,
                found,
            } => write!(
                f,
                "{}: the destination is {found}, expected {expected} for lsc_data={shape}",
                Intr(*op)
            ),
            MessageError::DataType {
                op,
                shape,
                expected,
                found,
            } => write!(
                f,
                "{}: the data is {found}, expected {expected} for lsc_data={shape}",
                Intr(*op)
            ),
            MessageError::AtomicOperandBits {
                op,
                operand,
                shape,
                expected,
                found,
            } => write!(
                f,
                "{}: atomic operand `{operand}` is {found}-bit, expected {expected}-bit for lsc_data={shape}",
                Intr(*op)
            ),
            MessageError::BlockComponentBits { op, operand, ty } => write!(
                f,
                "{}: {operand} is {ty}; block data has 8-, 16-, 32- or 64-bit components",
                Intr(*op)
            ),
            MessageError::NeedsSubgroupSize { op } => write!(
                f,
                "{} spreads its data over a subgroup, so the shader must fix `subgroup_size` in its header",
                Intr(*op)
            ),
            MessageError::BlockSpread {
                op,
                operand,
                ty,
                subgroup_size,
                block_bytes,
            } => {
                let have = u32::from(ty.num_components()) * u32::from(ty.bit_size()) / 8
                    * subgroup_size;
                write!(
                    f,
                    "{}: {operand} is {ty}, which spreads {have} bytes over a subgroup of {subgroup_size}, but the block is {block_bytes} bytes",
                    Intr(*op)
                )
            }
            MessageError::Block2dSfid { op, sfid } => write!(
                f,
                "{}: 2D block messages go to .ugm or .tgm, found lsc_sfid={}",
                Intr(*op),
                sfid.name()
            ),
            MessageError::Block2dDataShape { op, shape } => write!(
                f,
                "{}: lsc_data of a block message is d8, d16, d32 or d64 (transpose and VNNI are in lsc_block), found {shape}",
                Intr(*op)
            ),
            MessageError::Block2dShape { op, typed, block } => {
                if *typed {
                    write!(
                        f,
                        "{}: a .tgm block is WxH in bytes (`8x8`), found lsc_block={block}",
                        Intr(*op)
                    )
                } else {
                    write!(
                        f,
                        "{}: a .ugm block is [BxWxH] with transpose and VNNI flags (`16x8nn`), found lsc_block={block}",
                        Intr(*op)
                    )
                }
            }
            MessageError::TypedBlockNeedsImage { op } => write!(
                f,
                "{} on .tgm needs an image operand (the surface)",
                Intr(*op)
            ),
            MessageError::TypedBlockNot2d {
                op,
                image,
                dim,
                arrayed,
            } => write!(
                f,
                "{} on .tgm addresses a 2D surface, but {image} is a {dim}{} image",
                Intr(*op),
                array(*arrayed)
            ),
            MessageError::UntypedBlockWithImage { op } => write!(
                f,
                "{} on .ugm is flat (the surface is in the payload) and cannot name an image",
                Intr(*op)
            ),
            MessageError::ImageBlockNot2d {
                op,
                image,
                dim,
                arrayed,
            } => write!(
                f,
                "{} reads and writes 2D blocks of a non-arrayed 2D image, but {image} is a {dim}{} image",
                Intr(*op),
                array(*arrayed)
            ),
            MessageError::ImageBlockNoFormat { op, image } => write!(
                f,
                "{}: {image} has no format, so its texel size is unknown",
                Intr(*op)
            ),
            MessageError::ImageBlockTexelSize { op, format } => write!(
                f,
                "{}: block accesses move texels of 1, 2, 4 or 8 bytes, but {format} texels are {} bytes",
                Intr(*op),
                format.bits_per_texel() / 8
            ),
            MessageError::SamplerComponents {
                op,
                channels,
                found,
            } => write!(
                f,
                "{}: the destination has {found} components, expected {} for channels={}",
                Intr(*op),
                channels.count_ones(),
                IndexKind::Channels
                    .format_value(*channels)
                    .unwrap_or_default()
            ),
            MessageError::SamplerDestType {
                op,
                dest_type,
                found,
            } => write!(
                f,
                "{}: dest_type {dest_type} does not match the {found}-bit destination",
                Intr(*op)
            ),
            MessageError::UndeclaredSampler { op, index } => write!(
                f,
                "{}: no `sampler` declaration covers sampler index {index}",
                Intr(*op)
            ),
            MessageError::SamplerBits { op, found } => write!(
                f,
                "{}: the destination is {found}-bit; the sampler returns 16 or 32-bit data",
                Intr(*op)
            ),
            MessageError::ResinfoBits { op, found } => write!(
                f,
                "{}: the destination is {found}-bit; resinfo returns 32-bit integers",
                Intr(*op)
            ),
            MessageError::ResinfoOfBuffer { op, image } => write!(
                f,
                "{}: {image} is a buffer image; resinfo reads 1D, 2D, 3D and cube surfaces, \
                 and a texel buffer's size is in its parameter block",
                Intr(*op)
            ),
        }
    }
}
