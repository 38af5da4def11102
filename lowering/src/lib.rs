//! Lowering of storage-image intrinsics to Intel messages, after Mesa's
//! `brw_nir_lower_storage_image` and the brw backend's LSC lowering.
//!
//! - [`lower_shader`] ([`pipeline`]): the one entry point, the default pipeline;
//!   [`LowerOptions`] ([`options`]) in, [`LowerReport`] ([`report`]) or [`LowerError`]s
//!   ([`error`]) out;
//! - [`device`]: the platforms ([`Device`]) and what each supports;
//! - [`format`](mod@format): storage formats, typed-message support and format lowering;
//! - [`convert`]: shader-side colour conversion between an image format and the format
//!   its surface is accessed as;
//! - [`images`]: the `lower-images` pass ([`LowerImages`], [`lower_images()`]): per
//!   access, the typed path, atomics, the untyped fallback (raw loads, stores and
//!   atomics on a computed byte address, with the texel address code in [`address`] and
//!   the bounds check in [`bounds`]), the sampler path, and image block accesses as 2D
//!   block messages;
//! - [`messages`]: legality of the LSC, block2d and sampler messages per platform, send
//!   descriptors; [`messages::block2d`] holds the 2D block rules, register images and
//!   splitting, [`messages::dataport`] the legality table and sends of the legacy
//!   data-port messages (Gfx7 to Gfx12.0);
//! - [`async_copy`]: the `lower-async-copies` pass ([`LowerAsyncCopies`],
//!   [`lower_async_copies()`]): group async copies as per-invocation message loops or
//!   2D block messages;
//! - [`dataport`]: the `lower-dataport` pass ([`LowerDataport`], [`lower_dataport()`]):
//!   on platforms without LSC (Gfx7 to Gfx12.0) the LSC-shaped messages become legacy
//!   data-port messages; the two passes above run it after their emission there.
//!
//! The entry point is [`lower_shader`]; `lowering/examples/driver.rs` is a driver's use
//! of it from building a shader to filling its parameter blocks.

pub mod address;
pub mod async_copy;
pub mod atomic_loop;
pub mod bounds;
pub mod convert;
pub mod dataport;
pub mod device;
pub mod error;
pub mod format;
pub mod images;
pub mod messages;
pub mod options;
pub mod pipeline;
pub mod report;

pub use address::{AddressError, AddressPlan};
pub use async_copy::{
    lower_async_copies, lower_async_copies_all, register_lower_async_copies, AsyncCopyOptions,
    AsyncCopyReport, Block2dPolicy, LowerAsyncCopies,
};
pub use atomic_loop::{lower_float_atomics, register_lower_float_atomics, LowerFloatAtomics};
pub use convert::{ConvertError, ConvertProblem};
pub use dataport::{lower_dataport, register_lower_dataport, LowerDataport};
pub use device::{CacheControlField, Device};
pub use error::{
    A64Use, BlockProblem, CopyBlockProblem, DimProblem, FormatProblem, FormatUse, LowerError,
    LowerErrorCode, LowerErrorKind, Malformation,
};
pub use format::{
    has_matching_typed_storage_image_format, lower_storage_image_format, storage_access,
    FormatInfo, StorageAccess,
};
pub use format::{FormatError, FormatErrorKind};
pub use images::{lower_images, lower_images_all, register_lower_images, LowerImages};
pub use options::{LowerOptions, UntypedAddress};
pub use pipeline::{lower_shader, lower_shader_with, PIPELINE};
pub use report::{ImageBinding, ImageReport, LowerReport, MessageStats, ParamBlock, SurfaceFormat};
