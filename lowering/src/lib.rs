//! Lowering of storage-image intrinsics to Intel messages, after Mesa's
//! `brw_nir_lower_storage_image` and the brw backend's LSC lowering.
//!
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
//!   splitting;
//! - [`visa`]: vISA text of the messages, as IGC prints it;
//! - [`async_copy`]: the `lower-async-copies` pass ([`LowerAsyncCopies`],
//!   [`lower_async_copies()`]): group async copies as per-invocation message loops or
//!   2D block messages.

pub mod address;
pub mod async_copy;
pub mod bounds;
pub mod convert;
pub mod device;
pub mod error;
pub mod format;
pub mod images;
pub mod messages;
pub mod visa;

pub use address::{AddressError, AddressPlan};
pub use async_copy::{
    lower_async_copies, lower_async_copies_all, register_lower_async_copies, AsyncCopyOptions,
    AsyncCopyReport, Block2dPolicy, LowerAsyncCopies,
};
pub use device::{CacheControlField, Device};
pub use error::{ConvertError, FormatError, FormatErrorKind, LowerError, LowerErrorKind};
pub use format::{
    has_matching_typed_storage_image_format, lower_storage_image_format, storage_access,
    FormatInfo, StorageAccess,
};
pub use images::{
    lower_images, lower_images_all, register_lower_images, ImageBinding, LowerImages, LowerOptions,
    LowerReport, SurfaceFormat, UntypedAddress,
};
