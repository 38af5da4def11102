//! Errors of the shader's interface: the workgroup size, image and buffer declarations,
//! function names.

use super::subject::ImageName;
use super::wording::FirstAt;
use crate::buffer::BufferKind;
use crate::image::{ImageDim, LayoutTiling};
use crate::span::Span;
use std::fmt;

/// A problem with the shader's workgroup, its image declarations or its function names.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum InterfaceError {
    /// One dimension of `local_size` is over the per-dimension limit.
    WorkgroupDimension {
        /// The shader's `local_size`.
        local_size: [u32; 3],
        /// The dimension over the limit: 0 for x, 1 for y, 2 for z.
        axis: usize,
        /// The limit of that dimension.
        max: u32,
    },
    /// The workgroup has more invocations than the hardware runs in one.
    WorkgroupInvocations {
        /// The shader's `local_size`.
        local_size: [u32; 3],
        /// The limit on the product.
        max: u32,
    },
    /// Two image declarations have the same name.
    DuplicateImage {
        /// The later declaration.
        image: ImageName,
        /// Where the first one is.
        first: Span,
    },
    /// `arrayed` on a dimension that cannot be arrayed.
    ArrayedDim {
        /// The declaration.
        image: ImageName,
        /// Its dimension.
        dim: ImageDim,
    },
    /// An array of images with no element.
    EmptyImageArray {
        /// The declaration.
        image: ImageName,
    },
    /// A static layout with `row_pitch=0`.
    ZeroRowPitch {
        /// The declaration.
        image: ImageName,
    },
    /// A static layout with `qpitch=0`.
    ZeroQpitch {
        /// The declaration.
        image: ImageName,
    },
    /// A buffer image whose static layout is tiled.
    TiledBuffer {
        /// The declaration.
        image: ImageName,
        /// The tiling it names.
        tiling: LayoutTiling,
    },
    /// Two buffer declarations have the same name.
    DuplicateBuffer {
        /// The later declaration's name.
        name: String,
        /// Where the first one is.
        first: Span,
    },
    /// An array of buffers with no element.
    EmptyBufferArray {
        /// The declaration's name.
        name: String,
    },
    /// A runtime array of stride 0.
    ZeroStride {
        /// The declaration's name.
        name: String,
    },
    /// An array of buffers whose block indices pass `u32::MAX`.
    BufferBlocksOverflow {
        /// The declaration's name.
        name: String,
        /// Its first block index.
        block: u32,
        /// Its number of blocks.
        count: u32,
    },
    /// Two buffer declarations of one kind cover the same block index.
    OverlappingBuffers {
        /// The later declaration's name.
        name: String,
        /// The earlier one's.
        other: String,
        /// The kind (`ssbo`, `ubo`).
        kind: BufferKind,
        /// A block index both cover.
        block: u32,
    },
    /// Two functions have the same name.
    DuplicateFunction {
        /// The name.
        name: String,
        /// Where the first one is.
        first: Span,
    },
}

impl fmt::Display for InterfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterfaceError::WorkgroupDimension {
                local_size: [x, y, z],
                axis,
                max,
            } => {
                let size = [x, y, z][*axis];
                let axis = ["x", "y", "z"][*axis];
                write!(
                    f,
                    "local_size={x},{y},{z}: the workgroup is {size} invocations wide in {axis}; Intel GPUs allow at most {max} per dimension"
                )
            }
            InterfaceError::WorkgroupInvocations {
                local_size: [x, y, z],
                max,
            } => {
                let total = u64::from(*x) * u64::from(*y) * u64::from(*z);
                write!(
                    f,
                    "local_size={x},{y},{z}: the workgroup has {x} x {y} x {z} = {total} invocations; Intel GPUs run at most {max} per workgroup"
                )
            }
            InterfaceError::DuplicateImage { image, first } => write!(
                f,
                "image {image} is declared more than once{}",
                FirstAt(*first)
            ),
            InterfaceError::ArrayedDim { image, dim } => write!(
                f,
                "image {image}: a {dim} image cannot be arrayed; only 1d, 2d and cube images can"
            ),
            InterfaceError::EmptyImageArray { image } => write!(
                f,
                "image {image}: an array of images needs at least one element, found 0"
            ),
            InterfaceError::ZeroRowPitch { image } => {
                write!(f, "image {image}: layout row_pitch must be greater than 0")
            }
            InterfaceError::ZeroQpitch { image } => {
                write!(f, "image {image}: layout qpitch must be greater than 0")
            }
            InterfaceError::TiledBuffer { image, tiling } => write!(
                f,
                "image {image}: buffer images are linear, found tiling={}",
                tiling.name()
            ),
            InterfaceError::DuplicateBuffer { name, first } => write!(
                f,
                "buffer `@{name}` is declared more than once{}",
                FirstAt(*first)
            ),
            InterfaceError::EmptyBufferArray { name } => write!(
                f,
                "buffer `@{name}`: an array of buffers needs at least one element, found 0"
            ),
            InterfaceError::ZeroStride { name } => write!(
                f,
                "buffer `@{name}`: a runtime array's stride must be at least 1 byte, found 0"
            ),
            InterfaceError::BufferBlocksOverflow { name, block, count } => write!(
                f,
                "buffer `@{name}`: {count} blocks from block {block} would pass block index {}",
                u32::MAX
            ),
            InterfaceError::OverlappingBuffers {
                name,
                other,
                kind,
                block,
            } => write!(
                f,
                "buffer `@{name}`: {kind} block {block} is also declared by `@{other}`"
            ),
            InterfaceError::DuplicateFunction { name, first } => write!(
                f,
                "function `{name}` is defined more than once{}",
                FirstAt(*first)
            ),
        }
    }
}
