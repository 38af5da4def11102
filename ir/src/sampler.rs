//! Sampler declarations: the sampler states a shader filters textures with (`txl`).
//!
//! NIR's `nir_tex_instr` names its sampler by `sampler_index` (or a `sampler_deref`
//! source that `nir_lower_samplers` turns into one); the sampler state behind it
//! (filters, mipmap mode, address modes, normalized coordinates, border colour, LOD
//! clamps) belongs to the descriptor and is not known when the shader is compiled. A
//! declaration only names the indices a shader reads, so that tools can bind a state
//! to each by name. Written `sampler @name (binding=N)` or, for an array of N samplers,
//! `sampler @name[N] (binding=B)`; `txl`'s `sampler` index is a binding it covers.

/// A sampler declaration: one sampler binding (or an array of them).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SamplerDecl {
    /// The name, without the `@`.
    pub name: String,
    /// The sampler index (NIR's `sampler_index`) of the declaration, the first one of
    /// an array: the index into the sampler states the driver binds.
    pub binding: u32,
    /// Number of samplers of an array of samplers, or `None` for one.
    pub count: Option<u32>,
}

impl SamplerDecl {
    /// The declaration `sampler @name (binding=N)`.
    pub fn new(name: &str, binding: u32) -> SamplerDecl {
        SamplerDecl {
            name: name.to_string(),
            binding,
            count: None,
        }
    }

    /// The sampler indices the declaration covers, or `None` when they would pass
    /// `u32::MAX`.
    pub fn indices(&self) -> Option<std::ops::Range<u32>> {
        let end = self.binding.checked_add(self.count.unwrap_or(1))?;
        Some(self.binding..end)
    }
}
