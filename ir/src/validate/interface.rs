//! The shader's interface: image declarations.

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
