//! The shader's interface: the workgroup size and the image declarations.

use super::context::first_at;
use crate::diag::Diagnostic;
use crate::image::{ImageDim, LayoutTiling};
use crate::shader::Shader;
use crate::span::Span;
use std::collections::HashMap;

pub(super) fn check_declarations(shader: &Shader, diags: &mut Vec<Diagnostic>) {
    let mut names: HashMap<&str, Span> = HashMap::new();
    for (i, decl) in shader.images.iter().enumerate() {
        let span = shader.image_spans.get(i).copied().unwrap_or(Span::UNKNOWN);
        let mut err = |msg: String| diags.push(Diagnostic::error(span, msg));
        match names.get(decl.name.as_str()) {
            Some(&first) => err(format!(
                "image `@{}` is declared more than once{}",
                decl.name,
                first_at(first)
            )),
            None => {
                names.insert(decl.name.as_str(), span);
            }
        }
        if decl.arrayed && !decl.dim.can_be_arrayed() {
            err(format!(
                "image `@{}`: a {} image cannot be arrayed; only 1d, 2d and cube images can",
                decl.name, decl.dim
            ));
        }
        if decl.count == Some(0) {
            err(format!(
                "image `@{}`: an array of images needs at least one element, found 0",
                decl.name
            ));
        }
        if let Some(layout) = decl.layout {
            if layout.row_pitch == 0 {
                err(format!(
                    "image `@{}`: layout row_pitch must be greater than 0",
                    decl.name
                ));
            }
            if layout.qpitch == Some(0) {
                err(format!(
                    "image `@{}`: layout qpitch must be greater than 0",
                    decl.name
                ));
            }
            if decl.dim == ImageDim::Buffer && layout.tiling != LayoutTiling::Linear {
                err(format!(
                    "image `@{}`: buffer images are linear, found tiling={}",
                    decl.name,
                    layout.tiling.name()
                ));
            }
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
pub(super) fn check_workgroup(shader: &Shader, diags: &mut Vec<Diagnostic>) {
    let [x, y, z] = shader.local_size;
    let span = shader.local_size_span;
    let mut over = false;
    for (axis, (size, max)) in ["x", "y", "z"]
        .into_iter()
        .zip(shader.local_size.into_iter().zip(MAX_WORKGROUP_SIZE))
    {
        if size > max {
            over = true;
            diags.push(Diagnostic::error(
                span,
                format!(
                    "local_size={x},{y},{z}: the workgroup is {size} invocations wide in {axis}; Intel GPUs allow at most {max} per dimension"
                ),
            ));
        }
    }
    let total = u64::from(x) * u64::from(y) * u64::from(z);
    if !over && total > u64::from(MAX_WORKGROUP_INVOCATIONS) {
        diags.push(Diagnostic::error(
            span,
            format!(
                "local_size={x},{y},{z}: the workgroup has {x} x {y} x {z} = {total} invocations; Intel GPUs run at most {MAX_WORKGROUP_INVOCATIONS} per workgroup"
            ),
        ));
    }
}
