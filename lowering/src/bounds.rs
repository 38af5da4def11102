//! The bounds check of untyped accesses (docs/hardware/mesa-storage-images.md §5).
//!
//! Typed messages are bounds-checked by the hardware against the surface state; untyped
//! messages address a raw buffer view of the whole allocation, so the shader checks every
//! coordinate component against the view's SIZE (parameter slot 1) itself:
//!
//! ```text
//! in_bounds = AND over i < coord_components of ult(coord[i], SIZE[i])
//! ```
//!
//! The components are NIR's `coord_components`: 1 for 1D and buffers, 2 for 2D, 3 for
//! 3D and cubes, one more for arrays except cube arrays (whose `z` is `6 * layer + face`,
//! checked against SIZE.z = 6 * layers). A 1D array is `(x, layer)` against
//! `(width, layers)`. A multisampled image's sample index, its last component, is
//! compared against the sample count (`SAMPLES.x`, slot 7).
//!
//! The compare is **unsigned**, unlike Mesa's NIR version, whose signed `ilt` lets a
//! negative coordinate through to a wrapped 32-bit address inside the raw buffer (§5
//! recommends `ult`): with `ult`, a negative coordinate is a huge unsigned one and out of
//! bounds. An unbound image has SIZE 0, so every access is out of bounds: loads return 0,
//! stores and atomics are dropped.

use crate::address::{slot, Emitter};
use ir::{Builder, ImageRef, Src, Value};

/// Number of coordinate components the check compares (NIR's `coord_components`).
pub fn checked_components(dim: ir::ImageDim, arrayed: bool) -> u8 {
    dim.coord_components(arrayed)
}

/// Emits the 1-bit in-bounds predicate of `coord` for an image of `dim` (`arrayed`):
/// `ult` per component against SIZE, AND-ed.
pub fn emit_in_bounds(
    b: &mut Builder,
    image: ImageRef,
    dim: ir::ImageDim,
    arrayed: bool,
    coord: Src,
) -> Value {
    let mut e = Emitter::new(b, image);
    emit_with(&mut e, dim, arrayed, coord)
}

/// [`emit_in_bounds`] through an emitter shared with the rest of the access.
pub(crate) fn emit_with(
    e: &mut Emitter<'_, '_>,
    dim: ir::ImageDim,
    arrayed: bool,
    coord: Src,
) -> Value {
    let n = checked_components(dim, arrayed);
    let size = e.slot(slot::SIZE);
    let samples = (dim == ir::ImageDim::Ms).then(|| e.slot(slot::SAMPLES));
    let mut acc: Option<Value> = None;
    for i in 0..n {
        let limit = match samples {
            Some(s) if i + 1 == n => Src::channel(s, 0),
            _ => Src::channel(size, i),
        };
        let lt = e.b.ult(coord.component(i), limit);
        acc = Some(match acc {
            None => lt,
            Some(a) => e.b.iand(a, lt),
        });
    }
    match acc {
        Some(v) => v,
        // Every image has at least one coordinate; a true constant keeps the function
        // total.
        None => e.b.imm_bool(true),
    }
}

/// `ult(4, STRIDE.x)`: whether the surface bound for an untyped access is a RAW buffer,
/// whose STRIDE.x (cpp) is over 4 (Mesa's IVB/BYT check: untyped messages on a
/// non-RAW surface hang IVB and VLV).
pub(crate) fn emit_is_raw(e: &mut Emitter<'_, '_>) -> Value {
    let cpp = e.param(slot::STRIDE, 0);
    let cpp = e.src(cpp);
    let four = e.imm(4);
    e.b.ult(four, cpp)
}

/// `SIZE.x != 0`: whether an image is bound (IVB/BYT atomic guard, docs/hardware/mesa-storage-images.md
/// §8).
pub(crate) fn emit_is_bound(e: &mut Emitter<'_, '_>) -> Value {
    let w = e.param(slot::SIZE, 0);
    let w = e.src(w);
    let zero = e.imm(0);
    e.b.ine(w, zero)
}

/// `a AND b` of two optional predicates.
pub(crate) fn and(e: &mut Emitter<'_, '_>, a: Option<Value>, b: Option<Value>) -> Option<Value> {
    match (a, b) {
        (Some(a), Some(b)) => Some(e.b.iand(a, b)),
        (x, None) | (None, x) => x,
    }
}

/// A predicate operand for `bcsel`: the value replicated to `n` components.
pub(crate) fn splat(p: Value, n: u8) -> Src {
    if n == 1 {
        Src::new(p)
    } else {
        let comps = vec![0u8; n as usize];
        Src::swizzled(p, &comps).expect("at most 16 components")
    }
}
