//! Lowering of storage-image intrinsics to Intel messages, after Mesa's
//! `brw_nir_lower_storage_image` and the brw backend's LSC lowering.
//!
//! - [`device`]: the platforms ([`Device`]) and what each supports;
//! - [`format`](mod@format): storage formats, typed-message support and format lowering;
//! - [`message`]: legality of the LSC and sampler messages per platform, send descriptors;
//! - [`visa`]: vISA text of the messages, as IGC prints it;

pub mod device;
pub mod error;
pub mod format;
pub mod message;
pub mod visa;

pub use device::{CacheControlField, Device};
pub use error::{FormatError, FormatErrorKind, LowerError, LowerErrorKind};
pub use format::{
    has_matching_typed_storage_image_format, lower_storage_image_format, storage_access,
    FormatInfo, StorageAccess,
};
