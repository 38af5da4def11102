//! Image alignment (HALIGN × VALIGN × DALIGN, in elements) per generation: isl's
//! `isl_gfx*_choose_image_alignment_el` with `DISABLE_AUX` (docs/hardware/surface-layout.md §7.2).

use crate::dim::Extent3d;
use crate::dim_layout::DimLayout;
use crate::format::Format;
use crate::generation::Gen;
use crate::tile::{IslTiling, TileInfo};
use crate::usage::Usage;

/// What the alignment rules look at.
pub(crate) struct AlignInput<'a> {
    pub gen: Gen,
    pub format: Format,
    pub usage: Usage,
    pub samples: u32,
    pub dim_layout: DimLayout,
    pub tile: &'a TileInfo,
}

fn e(w: u32, h: u32) -> Extent3d {
    Extent3d { w, h, d: 1 }
}

/// isl's `gfx7_format_needs_valign2` (Mesa `src/intel/isl/isl_gfx7.c`): Gfx7 cannot use
/// VALIGN_4 for the YUV formats (Haswell included), nor, on IVB/BYT only, for
/// R32G32B32_FLOAT. False on other generations.
pub(crate) fn gfx7_needs_valign2(gen: Gen, format: Format) -> bool {
    gen.ver() == 7 && (format.is_yuv() || (gen == Gen::Gfx7 && format == Format::R32G32B32_FLOAT))
}

/// The image alignment of a surface, in elements.
pub(crate) fn image_alignment_el(i: &AlignInput) -> Extent3d {
    let v = i.gen.verx10();
    let isl = i.tile.isl_tiling();
    let depth = i.usage.contains(Usage::DEPTH);
    let stencil = i.usage.contains(Usage::STENCIL);
    let d16 = i.format == Format::R16_UNORM;
    let compressed = i.format.is_compressed();
    match v {
        40 | 50 => {
            if compressed {
                e(1, 1)
            } else {
                e(4, 2)
            }
        }
        60 => {
            if compressed {
                e(1, 1)
            } else if stencil && i.format == Format::R8_UINT {
                // Separate stencil.
                e(4, 2)
            } else if i.usage.is_depth_or_stencil() || i.samples > 1 {
                e(4, 4)
            } else {
                e(4, 2)
            }
        }
        70 | 75 => {
            if depth {
                if d16 {
                    e(8, 4)
                } else {
                    e(4, 4)
                }
            } else if stencil {
                e(8, 8)
            } else if compressed {
                e(1, 1)
            } else {
                // VALIGN_4 is required for multisampled and for Y-tiled render targets;
                // otherwise the smallest, VALIGN_2.
                let valign4 = i.samples > 1
                    || (isl == IslTiling::Y0 && i.usage.contains(Usage::RENDER_TARGET));
                e(4, if valign4 { 4 } else { 2 })
            }
        }
        80 => gfx8(i, depth, stencil, d16, compressed),
        90 | 110 => {
            if matches!(
                isl,
                IslTiling::SklYf | IslTiling::SklYs | IslTiling::IclYf | IslTiling::IclYs
            ) {
                // Yf and Ys images are aligned to the tile (including its depth).
                let t = i.tile.logical_extent_el();
                Extent3d {
                    w: t.w,
                    h: t.h,
                    d: t.d,
                }
            } else if i.dim_layout == DimLayout::GFX9_1D {
                e(64, 1)
            } else if compressed {
                // Gfx9 HALIGN/VALIGN count compression blocks; the smallest is 4x4.
                e(4, 4)
            } else {
                gfx8(i, depth, stencil, d16, compressed)
            }
        }
        120 => {
            if matches!(isl, IslTiling::IclYf | IslTiling::IclYs) {
                let t = i.tile.logical_extent_el();
                e(t.w, t.h)
            } else if depth {
                if !d16 {
                    e(8, 4)
                } else if i.samples == 2 || i.samples == 8 {
                    e(16, 4)
                } else {
                    e(8, 8)
                }
            } else if stencil {
                e(16, 8)
            } else if i.dim_layout == DimLayout::GFX9_1D {
                e(64, 1)
            } else if compressed {
                e(4, 4)
            } else {
                gfx8(i, depth, stencil, d16, compressed)
            }
        }
        // Gfx12.5 and Xe2. The Xe2 VALIGN_8 workaround (WA 22018390030) only applies to
        // CCS-capable Tile4 surfaces, which DISABLE_AUX rules out.
        _ => {
            let cpp = i.format.cpp();
            if matches!(isl, IslTiling::Tile64 | IslTiling::Tile64Xe2) {
                let t = i.tile.logical_extent_el();
                e(t.w, t.h)
            } else if depth {
                if d16 {
                    e(8, 8)
                } else {
                    e(8, 4)
                }
            } else if stencil {
                e(16, 8)
            } else if !i.format.is_pow2_bpb() {
                // 24/48/96 bpb: HALIGN 128 texels linear, 16 tiled.
                if isl == IslTiling::Linear {
                    e(128, 4)
                } else {
                    e(16, 4)
                }
            } else if isl == IslTiling::Linear {
                // Linear surfaces (1D included) use HALIGN = 128 bytes.
                e(128 / cpp, 4)
            } else if i.format.bpb() >= 64 {
                e(64 / cpp, 4)
            } else {
                e(32 / cpp, 4)
            }
        }
    }
}

/// isl's Gfx8 rule, also the fallback of Gfx9–12.
fn gfx8(i: &AlignInput, depth: bool, stencil: bool, d16: bool, compressed: bool) -> Extent3d {
    if depth {
        return if d16 { e(8, 4) } else { e(4, 4) };
    }
    if stencil {
        return e(8, 8);
    }
    if compressed {
        return e(1, 1);
    }
    // HALIGN 16 is only needed with an auxiliary surface; DISABLE_AUX allows 4.
    let mut halign = 4;
    // GEN_BUG_1406667188 (Gfx11+): Y-tiled 32-bpp single-sampled surfaces need HALIGN 8.
    if i.gen.ver() >= 11
        && i.tile.isl_tiling() == IslTiling::Y0
        && i.format.bpb() == 32
        && i.samples == 1
    {
        halign = 8;
    }
    e(halign, 4)
}
