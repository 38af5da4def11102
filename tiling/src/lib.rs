//! ISL-compatible surface layout engine for Intel GPUs.
//!
//! The crate knows nothing about shaders. It answers the questions a driver asks Mesa's
//! isl: how a surface of a given generation, format, size and tiling is laid out, where
//! each texel's bytes live, and what the storage-image parameter block holds.
//!
//! - [`Gen`], [`Format`], [`Tiling`], [`SurfDim`], [`Usage`]: the vocabulary, parsed from
//!   the usual names (`dg2`, `r8g8b8a8_unorm`, `tile4`, `3d`, `storage+cube`).
//! - [`TileInfo`]: tile extents and intra-tile bit patterns of linear, X, Y, W, Yf, Ys,
//!   Tile4 and Tile64 (docs/hardware/surface-layout.md §3, §5), and the `bitfield_insert` field
//!   decomposition the shader address formula uses ([`TileInfo::address_fields`]).
//! - [`Surface`]: isl's layout (dimension layout, alignment, qpitch, mip placement and
//!   tails, row pitch, size; docs/hardware/surface-layout.md §7) and [`Surface::texel_offset`], the
//!   reference byte address of a texel (§4, §7.11), with Mesa's bit-6 swizzle ([`swizzle`]).
//! - Multisampled colour surfaces in isl's array layout ([`msaa`]):
//!   [`SurfaceDesc::samples`], [`Surface::sample_offset`], and the tilings isl gives them
//!   ([`multisampled_tilings`]).
//! - [`fill_image_param`]: the parameter block shaders read to compute texel addresses
//!   themselves; its layout and address formula are documented in [`image_param`], and
//!   [`ImageParam::texel_address`] evaluates the formula.
//! - [`copy_linear_to_tiled`] / [`copy_tiled_to_linear`]: fast copies of a rectangle of
//!   one image between a linear buffer and the surface's tiled memory ([`copy`]).
//!
//! All sizes follow isl's unit suffixes: `_el` elements, `_sa` samples, `_B` bytes.
//!
//! ```
//! use tiling::{
//!     fill_image_param, Bit6Swizzle, Format, Gen, ImageView, SurfDim, Surface, SurfaceDesc, Tiling, Usage,
//! };
//!
//! // A DG2 RGBA8 3D texture, 16x16x8 with 4 levels, Tile4 (docs/hardware/surface-layout.md §9).
//! let desc = SurfaceDesc::new(Gen::Gfx125, SurfDim::D3, Format::R8G8B8A8_UNORM, Tiling::Tile4)
//!     .extent(16, 16, 8)
//!     .levels(4)
//!     .usage(Usage::STORAGE);
//! let s = Surface::new(desc)?;
//! assert_eq!((s.halign_el(), s.valign_el()), (8, 4));
//! assert_eq!((s.row_pitch_B(), s.array_pitch_el_rows()), (128, 32));
//! // Texel (15, 7) of slice 4 of level 0.
//! assert_eq!(s.texel_offset(15, 7, 4, 0, Bit6Swizzle::None)?, 16892);
//!
//! // The shader-side formula over the parameter block gives the same address.
//! let view = ImageView::level(&s, 0);
//! let param = fill_image_param(&s, &view, Bit6Swizzle::None)?;
//! assert_eq!(param.texel_address(15, 7, 4), 16892);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod alignment;
pub mod copy;
pub mod dim;
pub mod dim_layout;
pub mod format;
pub mod format_name;
pub mod generation;
pub mod image_param;
pub(crate) mod miptail;
pub mod msaa;
pub mod msaa_address;
pub mod surface;
pub mod swizzle;
pub mod tile;
pub mod tiling_filter;
pub mod usage;

pub use copy::{
    copy_linear_to_tiled, copy_tiled_to_linear, CopyError, CopyRegion, Rect, StoreHint,
};
pub use dim::{minify, Extent3d, Extent4d, SurfDim};
pub use dim_layout::DimLayout;
pub use format::{Channel, ChannelName, ChannelType, Compression, Format};
#[allow(deprecated)]
pub use format_name::UnknownFormat;
pub use format_name::{ParseFormatError, Unsupported, UnsupportedFormat};
pub use generation::{Gen, ParseGenError, Platform};
pub use image_param::{
    fill_buffer_image_param, fill_image_param, max_address_fields, max_multisampled_address_fields,
    multisampled_tilings, storage_tilings, FieldCounts, ImageParam, ImageView, ParamError,
};
pub use msaa::{physical_slot, MsaaRefusal};
pub use msaa_address::SampleAddressError;
pub use surface::{AddressError, ImageInfo, ImageOffset, LayoutError, Surface, SurfaceDesc};
pub use swizzle::Bit6Swizzle;
pub use tile::{BitSrc, Coord, Field, IslTiling, TileCoord, TileError, TileInfo, Tiling};
pub use tiling_filter::allowed_tilings;
pub use usage::Usage;

#[cfg(test)]
mod tests;
