//! The shader's interface: the workgroup size and the image declarations.

use super::error::{ImageName, InterfaceError, Location, ValidationError};
use crate::entity::ImageId;
use crate::image::{ImageDim, LayoutTiling};
use crate::shader::Shader;
use crate::span::Span;
use std::collections::HashMap;

pub(super) fn check_declarations(shader: &Shader, errors: &mut Vec<ValidationError>) {
    let mut names: HashMap<&str, Span> = HashMap::new();
    for (i, decl) in shader.images.iter().enumerate() {
        let span = shader.image_spans.get(i).copied().unwrap_or(Span::UNKNOWN);
        let id = ImageId::from_u32(i as u32);
        let image = || ImageName {
            id,
            name: decl.name.clone(),
        };
        let mut err = |e: InterfaceError| {
            errors.push(ValidationError::new(span, None, Location::Image(id), e))
        };
        match names.get(decl.name.as_str()) {
            Some(&first) => err(InterfaceError::DuplicateImage {
                image: image(),
                first,
            }),
            None => {
                names.insert(decl.name.as_str(), span);
            }
        }
        if decl.arrayed && !decl.dim.can_be_arrayed() {
            err(InterfaceError::ArrayedDim {
                image: image(),
                dim: decl.dim,
            });
        }
        if decl.count == Some(0) {
            err(InterfaceError::EmptyImageArray { image: image() });
        }
        if let Some(layout) = decl.layout {
            if layout.row_pitch == 0 {
                err(InterfaceError::ZeroRowPitch { image: image() });
            }
            if layout.qpitch == Some(0) {
                err(InterfaceError::ZeroQpitch { image: image() });
            }
            if decl.dim == ImageDim::Buffer && layout.tiling != LayoutTiling::Linear {
                err(InterfaceError::TiledBuffer {
                    image: image(),
                    tiling: layout.tiling,
                });
            }
        }
    }
}

/// The buffer declarations: unique names, at least one element, a non-zero stride, and
/// no block index of a kind declared twice.
pub(super) fn check_buffers(shader: &Shader, errors: &mut Vec<ValidationError>) {
    let mut names: HashMap<&str, Span> = HashMap::new();
    for (i, decl) in shader.buffers.iter().enumerate() {
        let span = shader.buffer_spans.get(i).copied().unwrap_or(Span::UNKNOWN);
        let mut err = |e: InterfaceError| {
            errors.push(ValidationError::new(span, None, Location::Buffer(i), e))
        };
        let name = decl.name.clone();
        match names.get(decl.name.as_str()) {
            Some(&first) => err(InterfaceError::DuplicateBuffer {
                name: name.clone(),
                first,
            }),
            None => {
                names.insert(decl.name.as_str(), span);
            }
        }
        if decl.count == Some(0) {
            err(InterfaceError::EmptyBufferArray { name: name.clone() });
        }
        if decl.stride == Some(0) {
            err(InterfaceError::ZeroStride { name: name.clone() });
        }
        let Some(blocks) = decl.blocks() else {
            err(InterfaceError::BufferBlocksOverflow {
                name,
                block: decl.block,
                count: decl.count.unwrap_or(1),
            });
            continue;
        };
        let earlier = shader.buffers[..i].iter().find_map(|other| {
            let theirs = other.blocks()?;
            let first = blocks.start.max(theirs.start);
            (other.kind == decl.kind && first < blocks.end.min(theirs.end))
                .then(|| (other.name.clone(), first))
        });
        if let Some((other, block)) = earlier {
            err(InterfaceError::OverlappingBuffers {
                name,
                other,
                kind: decl.kind,
                block,
            });
        }
    }
}

/// The most invocations a workgroup may have on every Intel GPU: Mesa's anv reports
/// `maxComputeWorkGroupInvocations` = 1024 (`src/intel/vulkan/anv_physical_device.c`:
/// 32 SIMD32 threads per workgroup, capped at 1024), the same on every generation the
/// platform presets cover (Gfx7 to Xe2).
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 1024;

/// The largest workgroup size in each dimension on Intel GPUs: anv reports
/// `maxComputeWorkGroupSize` = (1024, 1024, 1024), the invocation limit in every
/// dimension (OpenGL's required minimum is (1024, 1024, 64), which Mesa's Intel GL
/// driver also exceeds in z).
pub const MAX_WORKGROUP_SIZE: [u32; 3] = [1024, 1024, 1024];

/// The workgroup size (`local_size`) against the hardware's limits: each dimension
/// within [`MAX_WORKGROUP_SIZE`], and the product within [`MAX_WORKGROUP_INVOCATIONS`].
/// A dimension over its limit is the error reported (the product is then over too).
pub(super) fn check_workgroup(shader: &Shader, errors: &mut Vec<ValidationError>) {
    let [x, y, z] = shader.local_size;
    let span = shader.local_size_span;
    let mut over = false;
    for (axis, (size, max)) in shader
        .local_size
        .into_iter()
        .zip(MAX_WORKGROUP_SIZE)
        .enumerate()
    {
        if size > max {
            over = true;
            errors.push(ValidationError::new(
                span,
                None,
                Location::Shader,
                InterfaceError::WorkgroupDimension {
                    local_size: shader.local_size,
                    axis,
                    max,
                },
            ));
        }
    }
    // Three u32 sizes can pass u64 (a fuzzed module: local_size near 2^32 on each axis).
    let total = u64::from(x)
        .saturating_mul(u64::from(y))
        .saturating_mul(u64::from(z));
    if !over && total > u64::from(MAX_WORKGROUP_INVOCATIONS) {
        errors.push(ValidationError::new(
            span,
            None,
            Location::Shader,
            InterfaceError::WorkgroupInvocations {
                local_size: shader.local_size,
                max: MAX_WORKGROUP_INVOCATIONS,
            },
        ));
    }
}
