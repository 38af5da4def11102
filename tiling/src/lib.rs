//! ISL-compatible surface layout engine for Intel GPUs.
//!
//! This first part holds the tile geometry: [`Gen`], [`Format`], [`Tiling`] and
//! [`TileInfo`] (extents and intra-tile bit patterns of linear, X, Y, W, Yf, Ys, Tile4
//! and Tile64, tiling.md §3 and §5), the mip-tail tables ([`miptail`]) and bit-6
//! swizzling ([`swizzle`]). Surface layout and the image parameter block follow.
//!
//! ```
//! use tiling::{Gen, SurfDim, TileCoord, TileInfo, Tiling};
//!
//! // A Tile4 tile on DG2 for 32-bit elements: 128 B x 32 rows.
//! let t = TileInfo::new(Tiling::Tile4, Gen::Gfx125, SurfDim::D2, 32, 1).unwrap();
//! assert_eq!((t.phys_width_B(), t.phys_height()), (128, 32));
//! // Byte column 1007, row 40 of a surface with a 1024-byte pitch (tiling.md §9).
//! let c = TileCoord { x_B: 1007, y: 40, ..Default::default() };
//! assert_eq!(t.offset_B(1024, 0, c), 63119);
//! ```

pub mod dim;
pub mod format;
pub mod gen;
pub mod miptail;
pub mod swizzle;
pub mod tile;

pub use dim::{minify, Extent3d, Extent4d, SurfDim};
pub use format::{Channel, ChannelName, ChannelType, Format, UnknownFormat};
pub use gen::Gen;
pub use tile::{BitSrc, Coord, Field, IslTiling, TileCoord, TileError, TileInfo, Tiling};

#[cfg(test)]
mod tests;
