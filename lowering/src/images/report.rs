//! What the `lower-images` pass did, and the surfaces a driver must bind
//! ([`LowerReport`]).

use ir::{Format, ImageId};

/// The surface a driver must bind for an image the lowered shader accesses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SurfaceFormat {
    /// A typed surface of this format: the lowered format, or the image format itself
    /// where the hardware converts (write-only images).
    Typed(Format),
    /// A typed surface of whatever format the bound view has (format-less images).
    ViewFormat,
    /// An untyped (raw buffer) view of the image's memory.
    Raw,
}

/// One image the lowered shader accesses with messages, and how to bind it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImageBinding {
    /// The image.
    pub image: ImageId,
    /// Its name, without `@`.
    pub name: String,
    /// The surface to bind.
    pub surface: SurfaceFormat,
}

/// What the pass did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LowerReport {
    /// `image_load`s lowered to typed messages.
    pub typed_loads: usize,
    /// `image_store`s lowered to typed messages.
    pub typed_stores: usize,
    /// Atomics lowered to typed messages.
    pub typed_atomics: usize,
    /// Atomics guarded against unbound images (IVB/BYT).
    pub guarded_atomics: usize,
    /// `image_load`s lowered to untyped messages.
    pub untyped_loads: usize,
    /// `image_load`s lowered to sampler `ld` / `ld_lz` messages.
    pub sampler_loads: usize,
    /// `image_store`s lowered to untyped messages.
    pub untyped_stores: usize,
    /// Atomics lowered to untyped messages.
    pub untyped_atomics: usize,
    /// Of the untyped accesses, those using flat A64 addresses.
    pub a64_accesses: usize,
    /// `image_size`s read from the parameter block.
    pub sizes: usize,
    /// `image_samples` replaced by 1.
    pub samples: usize,
    /// `image_block_load`s lowered to 2D block messages.
    pub block_loads: usize,
    /// `image_block_store`s lowered to 2D block messages.
    pub block_stores: usize,
    /// The 2D block messages those took.
    pub block_messages: usize,
    /// The images accessed by messages, in declaration order, with their surfaces.
    pub bindings: Vec<ImageBinding>,
}

impl LowerReport {
    /// Number of instructions lowered.
    pub fn lowered(&self) -> usize {
        self.typed_loads
            + self.typed_stores
            + self.typed_atomics
            + self.untyped_loads
            + self.sampler_loads
            + self.untyped_stores
            + self.untyped_atomics
            + self.sizes
            + self.samples
            + self.block_loads
            + self.block_stores
    }
}
