//! The options of the lowering ([`LowerOptions`]): of [`lower_shader`](crate::lower_shader)
//! as a whole, of which the `lower-images` pass reads the image fields and the
//! `lower-async-copies` pass [`LowerOptions::async_copies`].

/// Where untyped accesses find their memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum UntypedAddress {
    /// A raw buffer view of the image bound at its binding-table index, addressed with
    /// 32-bit byte offsets (Mesa's Gfx7/8 raw path).
    #[default]
    Bti,
    /// 64-bit global addresses from the surface base (anv's 64-bit image atomics).
    A64,
}

/// Options of the lowering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LowerOptions {
    /// Bounds-check untyped accesses against the image size (typed messages are
    /// bounds-checked by the hardware). Default: on.
    pub bounds_check: bool,
    /// Take the untyped path for every load, store and atomic, even where typed
    /// messages could be used.
    pub force_untyped: bool,
    /// The address model of untyped accesses.
    pub untyped_address: UntypedAddress,
    /// Route loads from read-only images through the sampler (`sampler_ld_lz`, or
    /// `sampler_ld` with a LOD), as IGC does for OpenCL; see the sampler path of [`crate::images`] for
    /// which loads qualify (the others take the normal path). It takes precedence over
    /// `force_untyped` for the loads it covers. Default: off, as in Mesa: the sampler
    /// reads the surface state the descriptor holds, and a driver's storage-image
    /// descriptor is written for the data port (with the lowered format of ISL's
    /// `isl_lower_storage_image_format`), so only a driver that also binds a sampling
    /// surface state of the view's format may turn it on.
    pub readonly_via_sampler: bool,
    /// How group async copies are lowered.
    pub async_copies: AsyncCopyOptions,
}

/// When to use 2D block messages for group async copies.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub enum Block2dPolicy {
    /// Where the shape is a compile-time constant and the platform has untyped 2D
    /// block messages; the per-invocation loop otherwise.
    #[default]
    Auto,
    /// Never: every copy becomes the per-invocation loop.
    Never,
    /// Always: a copy that cannot be done with 2D block messages is an error
    /// ([`IllegalBlock2d`](crate::LowerErrorKind::IllegalBlock2d), naming the rule).
    Always,
}

/// Options of the `lower-async-copies` pass.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct AsyncCopyOptions {
    /// When to use 2D block messages.
    pub block2d: Block2dPolicy,
}

impl Default for LowerOptions {
    fn default() -> LowerOptions {
        LowerOptions {
            bounds_check: true,
            force_untyped: false,
            untyped_address: UntypedAddress::Bti,
            readonly_via_sampler: false,
            async_copies: AsyncCopyOptions::default(),
        }
    }
}
