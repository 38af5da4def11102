//! Buffer declarations: the storage and uniform buffers a shader reaches through
//! `load_ssbo`, `store_ssbo`, `ssbo_atomic*`, `get_ssbo_size` and `load_ubo`, with the
//! layout its interface block has.
//!
//! NIR keeps an interface block as a variable of `nir_var_mem_ssbo` (or `_ubo`) whose
//! explicitly laid-out struct type gives every member's offset, and whose last member
//! may be an unsized array; `nir_lower_explicit_io` turns `.length()` of that array into
//! `(get_ssbo_size(block) - offset) / stride`. The IR keeps only what a driver and the
//! executor need of that type: the bytes before the runtime array (`size`; the whole
//! block when there is none) and the array's stride. Written
//! `buffer @name : ssbo (block=0, size=16, stride=4)`.

use crate::image::Access;

spelled_enum! {
    /// What kind of buffer a declaration binds (NIR's `nir_var_mem_ssbo` / `_ubo`).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum BufferKind {
        /// Every kind.
        const ALL;
        /// The text name (`ssbo`, `ubo`).
        fn name;
        /// Parses a text name.
        fn from_name;

        /// A storage buffer: `load_ssbo`, `store_ssbo`, `ssbo_atomic*`, `get_ssbo_size`.
        Ssbo => "ssbo",
        /// A uniform buffer: `load_ubo`.
        Ubo => "ubo",
    }
}

/// A buffer declaration: one interface block (or an array of them, one block index
/// each).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BufferDecl {
    /// The name, without the `@`.
    pub name: String,
    /// Storage or uniform buffer.
    pub kind: BufferKind,
    /// Access qualifiers (`readonly`, `writeonly`, `coherent`, `volatile`, `restrict`).
    pub access: Access,
    /// The block index of the buffer (the first one, for arrays of blocks): the
    /// `block` source of the accesses, in the kind's own index space.
    pub block: u32,
    /// Number of blocks for an array of buffers (`@bufs[4]`), or `None` for one.
    pub count: Option<u32>,
    /// Bytes before the runtime array, or the size of the whole block when it has
    /// none (the offset of the runtime array in NIR's terms).
    pub size: u32,
    /// The stride in bytes of the trailing runtime array (SPIR-V's `ArrayStride` of an
    /// `OpTypeRuntimeArray`), or `None` when the block has a fixed size.
    pub stride: Option<u32>,
}

impl BufferDecl {
    /// The plain declaration `buffer @name : kind (block=B, size=S)`: one block of a
    /// fixed size, no access qualifiers. Set the other fields for anything else.
    pub fn new(name: &str, kind: BufferKind, block: u32, size: u32) -> BufferDecl {
        BufferDecl {
            name: name.to_string(),
            kind,
            access: Access::NONE,
            block,
            count: None,
            size,
            stride: None,
        }
    }

    /// The block indices the declaration covers, `block .. block + count`, or `None` when
    /// they would pass `u32::MAX`.
    pub fn blocks(&self) -> Option<std::ops::Range<u32>> {
        let end = self.block.checked_add(self.count.unwrap_or(1))?;
        Some(self.block..end)
    }

    /// The bytes a buffer bound to this declaration holds when its runtime array (if
    /// any) has `elements` elements: `size + elements * stride`, saturating.
    pub fn bytes_with(&self, elements: u64) -> u64 {
        let array = self
            .stride
            .map_or(0, |s| (s as u64).saturating_mul(elements));
        (self.size as u64).saturating_add(array)
    }
}
