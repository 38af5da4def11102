//! Shared set-up of the crate's unit tests: shaders parsed and validated, executors
//! with a fixed subgroup size, and small linear surfaces bound as images.

use crate::exec::{ExecConfig, Executor};
use crate::memory::{AllocId, Memory};
use ir::Shader;

/// `text` parsed and validated; a test panics with the rendered diagnostics otherwise.
pub(crate) fn parse(text: &str) -> Shader {
    crate::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

/// An executor of `shader` running subgroups of `subgroup_size` lanes.
pub(crate) fn executor(shader: &Shader, subgroup_size: u32) -> Executor<'_> {
    Executor::with_config(
        shader,
        ExecConfig {
            subgroup_size,
            ..ExecConfig::default()
        },
    )
}

/// Binds a linear 2D `width` x `height` surface of `format` (declared as `ir_format`),
/// one level and one layer, fully viewed, as image `binding` named `img`.
pub(crate) fn bind_linear_2d(
    mem: &mut Memory,
    binding: u32,
    format: tiling::Format,
    ir_format: ir::Format,
    [width, height]: [u32; 2],
) -> AllocId {
    let desc = tiling::SurfaceDesc::new(
        tiling::Gen::Gfx125,
        tiling::SurfDim::D2,
        format,
        tiling::Tiling::Linear,
    )
    .extent(width, height, 1);
    let surface = tiling::Surface::new(desc).unwrap();
    let view = tiling::ImageView::level(&surface, 0);
    mem.bind_surface_image(
        binding,
        "img",
        surface,
        view,
        ir_format,
        format,
        tiling::Bit6Swizzle::None,
    )
    .unwrap()
}
