//! The binding mapping: which IR image, buffer block or memory each resource of the
//! entry point becomes.
//!
//! naga names resources by `(group, binding)` (Vulkan's descriptor set and binding,
//! WGSL's `@group` and `@binding`, GLSL's `set` and `binding`). The IR names images by a
//! binding-table index and buffers by a block index. The mapping, which a driver
//! reproduces when it fills its binding table:
//!
//! * Only the resources the entry point uses (directly or through the functions it
//!   calls) are mapped.
//! * **Images**: storage textures and sampled textures share one index space. They are
//!   numbered from 0 in increasing `(group, binding)` order; an array of `N` images
//!   (`binding_array`, or a GLSL array of images) takes `N` consecutive indices. The IR
//!   declaration's `binding` is the first index.
//! * **Storage buffers** are numbered from 0 in increasing `(group, binding)` order: the
//!   block index of `load_ssbo`, `store_ssbo` and `ssbo_atomic`. Two SPIR-V variables at
//!   one `(set, binding)` are views of one buffer: they share its block (one
//!   declaration, as large as the larger view).
//! * **Uniform buffers** likewise, from 0, in their own index space: the block index of
//!   `load_ubo`.
//! * **Push constants** (naga's immediates, a GLSL `push_constant` block): at byte 0 of
//!   the push constants, read with `load_push_constant`.
//! * **Workgroup variables** are laid out in shared memory in declaration order, each at
//!   the next offset aligned as naga's layouter aligns its type.
//! * **Samplers** are numbered from 0 in increasing `(group, binding)` order, in their
//!   own index space: the `sampler` index of `txl` and the `binding` of the IR's
//!   `sampler` declaration. A combined image sampler takes an image index and a
//!   sampler index (both declarations carry the variable's name). The state itself
//!   (filters, address modes) is the descriptor's.
//! * **Runtime descriptor arrays** (SPIR-V's `OpTypeRuntimeArray` of images or buffers,
//!   GLSL's `image2D imgs[]`, WGSL's `binding_array` without a size) take the count the
//!   pipeline layout gives their binding (`VkDescriptorSetLayoutBinding::descriptorCount`,
//!   or the variable count), which a driver knows when it compiles the pipeline:
//!   [`DescriptorCounts`], else [`DEFAULT_DESCRIPTOR_COUNT`]. The IR declares them as
//!   arrays of that length.
//! * Every image takes binding-table entries, which an Intel binding table has
//!   [`MAX_BINDING_TABLE_ENTRIES`] of: images beyond them are an error of kind
//!   [`crate::ErrorKind::Limit`] naming the binding that overflows.
//!
//! [`Binding`] lists the result, so a caller needs no copy of these rules.

use std::collections::BTreeMap;

/// The most bytes of workgroup variables: the 64 KiB of shared local memory an Intel
/// workgroup can have.
pub const MAX_SHARED_BYTES: u32 = 64 * 1024;

/// The descriptor count of each runtime descriptor array, by `(set, binding)`: what the
/// pipeline layout gives the binding (`VkDescriptorSetLayoutBinding::descriptorCount`,
/// or the count of a variable-count binding). Entries for other bindings are ignored,
/// as a layout counts every binding.
pub type DescriptorCounts = BTreeMap<(u32, u32), u32>;

/// The count of a runtime descriptor array [`DescriptorCounts`] has no entry for.
///
/// FFmpeg's Vulkan filters bind one image per plane, at most four; eight leaves room
/// for more and is what the parity harness gives anv for the same arrays, while 30
/// such arrays still fit the binding table ([`MAX_BINDING_TABLE_ENTRIES`]).
pub const DEFAULT_DESCRIPTOR_COUNT: u32 = 8;

/// The binding-table entries an Intel kernel can address (anv's
/// `MAX_BINDING_TABLE_SIZE`). Every image takes one entry per descriptor
/// (`visa/ABI.md`, "Surfaces and samplers"), so the images of one entry point take at
/// most this many.
pub use ir::MAX_BINDING_TABLE_ENTRIES;

/// What kind of resource a binding is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// A storage image (`texture_storage_*`, GLSL `image*`).
    StorageImage,
    /// A sampled texture read without a sampler (`texture_*`, GLSL `texture*`).
    SampledImage,
    /// A storage buffer.
    StorageBuffer,
    /// A uniform buffer.
    UniformBuffer,
    /// A sampler: a separate `sampler` (GLSL `sampler`), or the sampler half of a
    /// combined image sampler (GLSL `sampler2D`), which is listed twice, as a
    /// [`BindingKind::SampledImage`] and as a sampler.
    Sampler,
}

impl BindingKind {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            BindingKind::StorageImage => "storage image",
            BindingKind::SampledImage => "sampled image",
            BindingKind::StorageBuffer => "storage buffer",
            BindingKind::UniformBuffer => "uniform buffer",
            BindingKind::Sampler => "sampler",
        }
    }
}

/// One mapped resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// naga's group (descriptor set).
    pub group: u32,
    /// naga's binding.
    pub binding: u32,
    /// The variable's name in the source, if it has one.
    pub name: Option<String>,
    /// The kind of resource.
    pub kind: BindingKind,
    /// The IR index: the image binding (the first, for arrays) or the buffer block.
    pub index: u32,
    /// How many indices it takes (the length of an array of images; 1 otherwise).
    pub count: u32,
    /// Whether the shader declares it without a length (a runtime descriptor array),
    /// so that `count` is the [`DescriptorCounts`] entry or the default.
    pub runtime_array: bool,
}
