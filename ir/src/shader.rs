//! Shaders: stage information, image declarations and functions.

use crate::buffer::BufferDecl;
use crate::entity::ImageId;
use crate::function::Function;
use crate::image::ImageDecl;
use crate::sampler::SamplerDecl;
use crate::span::Span;

/// The most scratch memory an invocation may own, in bytes: a SIMD32 thread's 2 MiB,
/// the largest per-thread scratch space Gen8 to Xe2 offer (the `Per Thread Scratch
/// Space` field of `CFE_STATE` / `MEDIA_VFE_STATE`).
pub const MAX_SCRATCH_SIZE: u32 = 64 * 1024;

/// The shader stage. Storage-image lowering is exercised on compute shaders.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// A compute shader (or OpenCL kernel).
    Compute,
}

impl Stage {
    /// The text name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
        }
    }
}

/// A shader: its stage, workgroup size, image declarations and functions.
#[derive(Clone, Debug)]
pub struct Shader {
    /// The stage.
    pub stage: Stage,
    /// Workgroup size.
    pub local_size: [u32; 3],
    /// Source position of `local_size` in the header ([`Span::UNKNOWN`] when the text
    /// does not set it or the shader was built without text).
    pub local_size_span: Span,
    /// The subgroup (SIMD) size the shader is compiled for, when fixed (NIR's
    /// `subgroup_size`). Subgroup-level operations (2D block messages and image block
    /// accesses, whose data is spread over the lanes) need it.
    pub subgroup_size: Option<u32>,
    /// Image declarations, indexed by [`ImageId`].
    pub images: Vec<ImageDecl>,
    /// Source position of each image declaration.
    pub image_spans: Vec<Span>,
    /// Buffer declarations: the storage and uniform blocks the shader reaches, with
    /// their layouts (which `ir-opt verify` sizes its buffers from).
    pub buffers: Vec<BufferDecl>,
    /// Source position of each buffer declaration.
    pub buffer_spans: Vec<Span>,
    /// Sampler declarations: the sampler indices `txl` filters with.
    pub samplers: Vec<SamplerDecl>,
    /// Source position of each sampler declaration.
    pub sampler_spans: Vec<Span>,
    /// The shader's constant data (NIR's `nir_shader::constant_data`): read-only bytes
    /// that `load_constant` reads at `base + offset`. A driver uploads them with the
    /// shader (anv places them after the kernel's instructions and relocates their
    /// address into the code); `visa/ABI.md` says where the vISA kernel finds them.
    /// Written `constant_data (size=N) { ... }` (`ir/SYNTAX.md`).
    pub constant_data: Vec<u8>,
    /// Source position of the `constant_data` declaration.
    pub constant_data_span: Span,
    /// Bytes of scratch memory each invocation owns (NIR's `nir_shader::scratch_size`):
    /// what `load_scratch` and `store_scratch` address, from byte 0. The front end places
    /// large private arrays indexed at run time there, as Mesa's
    /// `nir_lower_vars_to_scratch` does. Written `scratch_size=N` in the `shader` line.
    pub scratch_size: u32,
    /// Functions; the entry point is called `main`.
    pub functions: Vec<Function>,
}

impl Shader {
    /// An empty compute shader with a 1x1x1 workgroup.
    pub fn new(local_size: [u32; 3]) -> Shader {
        Shader {
            stage: Stage::Compute,
            local_size,
            local_size_span: Span::UNKNOWN,
            subgroup_size: None,
            images: Vec::new(),
            image_spans: Vec::new(),
            buffers: Vec::new(),
            buffer_spans: Vec::new(),
            samplers: Vec::new(),
            sampler_spans: Vec::new(),
            constant_data: Vec::new(),
            constant_data_span: Span::UNKNOWN,
            scratch_size: 0,
            functions: Vec::new(),
        }
    }

    /// Declares an image.
    pub fn add_image(&mut self, decl: ImageDecl) -> ImageId {
        self.add_image_at(decl, Span::UNKNOWN)
    }

    /// Declares an image, recording where it was written.
    pub fn add_image_at(&mut self, decl: ImageDecl, span: Span) -> ImageId {
        self.images.push(decl);
        self.image_spans.push(span);
        ImageId::from_u32(self.images.len() as u32 - 1)
    }

    /// Declares a buffer.
    pub fn add_buffer(&mut self, decl: BufferDecl) {
        self.add_buffer_at(decl, Span::UNKNOWN)
    }

    /// Declares a buffer, recording where it was written.
    pub fn add_buffer_at(&mut self, decl: BufferDecl, span: Span) {
        self.buffers.push(decl);
        self.buffer_spans.push(span);
    }

    /// Declares a sampler.
    pub fn add_sampler(&mut self, decl: SamplerDecl) {
        self.add_sampler_at(decl, Span::UNKNOWN)
    }

    /// Declares a sampler, recording where it was written.
    pub fn add_sampler_at(&mut self, decl: SamplerDecl, span: Span) {
        self.samplers.push(decl);
        self.sampler_spans.push(span);
    }

    /// The sampler declaration covering sampler index `index`, if any.
    pub fn sampler_for_index(&self, index: u32) -> Option<&SamplerDecl> {
        self.samplers
            .iter()
            .find(|d| d.indices().is_some_and(|r| r.contains(&index)))
    }

    /// The buffer declaration of `kind` covering block index `block`, if any.
    pub fn buffer_for_block(
        &self,
        kind: crate::buffer::BufferKind,
        block: u32,
    ) -> Option<&BufferDecl> {
        self.buffers
            .iter()
            .find(|d| d.kind == kind && d.blocks().is_some_and(|r| r.contains(&block)))
    }

    /// The declaration of an image.
    pub fn image(&self, id: ImageId) -> &ImageDecl {
        &self.images[id.index()]
    }

    /// The image called `name` (without `@`).
    pub fn image_by_name(&self, name: &str) -> Option<ImageId> {
        self.images
            .iter()
            .position(|d| d.name == name)
            .map(|i| ImageId::from_u32(i as u32))
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The function called `name`, mutably.
    pub fn function_mut(&mut self, name: &str) -> Option<&mut Function> {
        self.functions.iter_mut().find(|f| f.name == name)
    }

    /// The entry point, `main`.
    pub fn entry(&self) -> Option<&Function> {
        self.function("main")
    }

    /// Number of invocations in a workgroup, saturating at `u64::MAX`: three 32-bit
    /// dimensions can multiply past 64 bits, and such a workgroup is too large for any
    /// use anyway.
    pub fn workgroup_invocations(&self) -> u64 {
        self.local_size
            .iter()
            .fold(1u64, |n, &d| n.saturating_mul(d as u64))
    }
}

impl PartialEq for Shader {
    /// Structural equality, ignoring source positions.
    fn eq(&self, other: &Shader) -> bool {
        self.stage == other.stage
            && self.local_size == other.local_size
            && self.subgroup_size == other.subgroup_size
            && self.images == other.images
            && self.buffers == other.buffers
            && self.constant_data == other.constant_data
            && self.scratch_size == other.scratch_size
            && self.functions == other.functions
    }
}

impl Eq for Shader {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workgroup_invocations_saturate() {
        assert_eq!(Shader::new([8, 4, 2]).workgroup_invocations(), 64);
        assert_eq!(
            Shader::new([u32::MAX, 1, 1]).workgroup_invocations(),
            u32::MAX as u64
        );
        // (2^32 - 1)^3 does not fit in 64 bits.
        assert_eq!(Shader::new([u32::MAX; 3]).workgroup_invocations(), u64::MAX);
    }
}
