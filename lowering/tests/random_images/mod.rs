//! Random surfaces and views for the quickcheck properties of `address_quickcheck.rs`
//! and `untyped.rs`: each property draws its own sizes, layer counts and views, and
//! shares the drawing and the steps every case takes.

use ir::ImageDim;
use lowering::Device;
use quickcheck::{Arbitrary, Gen as QcGen};
use tiling::{
    fill_image_param, Gen, ImageParam, ImageView, SurfDim, Surface, SurfaceDesc, Tiling, Usage,
};

/// The number of cases per property: `QC_TESTS` when set, else `default`.
pub fn qc_tests(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// One of `xs`, which must not be empty.
pub fn pick<T: Copy>(g: &mut QcGen, xs: &[T]) -> T {
    *g.choose(xs).expect("non-empty")
}

/// A number below `n` (0 when `n` is 0).
pub fn below(g: &mut QcGen, n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        u32::arbitrary(g) % n
    }
}

/// The surface dimensionality of an image dimensionality (cubes are 2D arrays).
pub fn surf_dim(dim: ImageDim) -> SurfDim {
    match dim {
        ImageDim::D1 => SurfDim::D1,
        ImageDim::D3 => SurfDim::D3,
        _ => SurfDim::D2,
    }
}

/// A width from `sizes`, a height (1 in 1D, the width for cubes, else from `sizes`) and
/// a depth (from `depths` in 3D, else 1), drawn in that order.
pub fn extent(g: &mut QcGen, sdim: SurfDim, cube: bool, sizes: &[u32], depths: &[u32]) -> [u32; 3] {
    let w = pick(g, sizes);
    let h = match sdim {
        SurfDim::D1 => 1,
        _ if cube => w,
        _ => pick(g, sizes),
    };
    let d = if sdim == SurfDim::D3 {
        pick(g, depths)
    } else {
        1
    };
    [w, h, d]
}

/// A storage surface (a cube-compatible one for cubes), or `None` when isl rejects it.
#[allow(clippy::too_many_arguments)]
pub fn storage_surface(
    gen: Gen,
    sdim: SurfDim,
    format: tiling::Format,
    tiling: Tiling,
    [w, h, d]: [u32; 3],
    levels: u32,
    layers: u32,
    cube: bool,
) -> Option<Surface> {
    let mut usage = Usage::STORAGE;
    if cube {
        usage |= Usage::CUBE;
    }
    let desc = SurfaceDesc::new(gen, sdim, format, tiling)
        .extent(w, h, d)
        .levels(levels)
        .array_len(layers)
        .usage(usage);
    Surface::new(desc).ok()
}

/// The view of `count` layers (3D: slices) from `base` at level `level`, whether bit-6
/// swizzling applies (drawn where the device may swizzle an X or Y surface), and the
/// parameter block of the view; `None` when the block cannot be filled.
pub fn view_and_param(
    g: &mut QcGen,
    device: &Device,
    surface: &Surface,
    level: u32,
    [base, count]: [u32; 2],
) -> Option<(ImageView, bool, ImageParam)> {
    let view = ImageView {
        base_level: level,
        base_layer: base,
        layer_count: count,
        format: surface.format(),
    };
    let swizzle = device.may_have_bit6_swizzle
        && matches!(surface.tiling(), Tiling::X | Tiling::Y)
        && bool::arbitrary(g);
    let param = fill_image_param(
        surface,
        &view,
        tiling::Bit6Swizzle::from_has_bit6_swizzling(swizzle),
    )
    .ok()?;
    Some((view, swizzle, param))
}
