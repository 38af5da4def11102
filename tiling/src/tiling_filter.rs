//! Which tilings isl lets a surface use: `isl_gfx4_filter_tiling`,
//! `isl_gfx6_filter_tiling`, `isl_gfx125_filter_tiling` and `isl_gfx20_filter_tiling`,
//! restricted to the modelled usages (no display, MCS, CPB or 2D/3D-compatible usage).
//!
//! isl filters a set of candidate tilings and picks one; here the caller names the
//! tiling, and a tiling isl would have filtered out is an error naming isl's reason.

use crate::alignment::gfx7_needs_valign2;
use crate::dim::SurfDim;
use crate::format::Format;
use crate::generation::Gen;
use crate::tile::Tiling;
use crate::usage::Usage;

/// The surface properties the filters look at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FilterInput {
    pub gen: Gen,
    pub dim: SurfDim,
    pub format: Format,
    pub usage: Usage,
    pub samples: u32,
    pub width: u32,
}

/// Why isl would not give this surface `tiling`, or `None` if it would. The tiling must
/// exist on the generation (checked separately, see [`Tiling::isl`]).
pub(crate) fn rejection(t: Tiling, i: &FilterInput) -> Option<&'static str> {
    let v = i.gen.verx10();
    let bpb = i.format.bpb();
    let ds = i.usage.is_depth_or_stencil();
    if v < 60 {
        if ds && t != Tiling::Y {
            return Some("Gfx4/5 depth and stencil buffers must be Y-tiled");
        }
        if bpb >= 128 && t == Tiling::Y {
            return Some("128-bit formats cannot be Y-tiled before Gfx7");
        }
        return None;
    }
    if v < 125 {
        let std_y = matches!(t, Tiling::Yf | Tiling::Ys);
        let any_y = matches!(t, Tiling::Y | Tiling::Yf | Tiling::Ys);
        if t == Tiling::Yf && (i.format.is_compressed() || i.samples > 1 || i.dim == SurfDim::D3) {
            return Some("isl does not use Yf for compressed, multisampled or 3D surfaces");
        }
        if i.usage.contains(Usage::DEPTH) && !any_y {
            return Some("depth buffers must be Y-tiled (Y, Yf or Ys)");
        }
        if ds && i.dim == SurfDim::D3 && std_y {
            return Some("isl avoids Yf/Ys for 3D depth/stencil buffers");
        }
        if v <= 110 && i.dim == SurfDim::D3 && i.usage.contains(Usage::STORAGE) && std_y {
            return Some(
                "3D storage images cannot use Yf/Ys on Gfx9-11 (the dataport ignores \
                 MinimumArrayElement with them)",
            );
        }
        if i.usage.contains(Usage::STENCIL) {
            if v >= 120 {
                if !any_y {
                    return Some("Gfx12 stencil buffers must be Y-tiled");
                }
            } else if t != Tiling::W {
                return Some("stencil buffers must be W-tiled before Gfx12");
            }
        } else if t == Tiling::W {
            return Some("W tiling is only for stencil buffers");
        }
        if i.dim == SurfDim::D1 && std_y {
            return Some("1D surfaces cannot use Yf/Ys");
        }
        if i.samples > 1 && !(any_y || t == Tiling::W) {
            return Some("multisampled surfaces must be Y- or W-tiled");
        }
        if gfx7_needs_valign2(i.gen, i.format)
            && i.usage.contains(Usage::RENDER_TARGET)
            && i.samples == 1
            && t == Tiling::Y
        {
            return Some(
                "IVB/BYT R32G32B32_FLOAT render targets need VALIGN_2, which Y tiling forbids",
            );
        }
        if v < 70 && bpb >= 128 && t == Tiling::Y {
            return Some("128-bit formats cannot be Y-tiled before Gfx7");
        }
        if i.width > 16382
            && i.samples == 1
            && i.usage.contains(Usage::RENDER_TARGET)
            && (v == 80 || v == 90)
            && t != Tiling::Linear
        {
            return Some(
                "BDW/SKL render targets wider than 16382 pixels must be linear (rendering \
                 corruption in the last columns)",
            );
        }
        return None;
    }
    // Gfx12.5 and Xe2.
    if ds {
        if !matches!(t, Tiling::Tile4 | Tiling::Tile64) {
            return Some("Gfx12.5+ depth and stencil buffers must be Tile4 or Tile64");
        }
        if i.dim == SurfDim::D3 && t == Tiling::Tile64 {
            return Some("isl avoids Tile64 for 3D depth/stencil buffers");
        }
    }
    if i.dim != SurfDim::D2 && t == Tiling::X {
        return Some("Gfx12.5+ only allows X tiling for 2D surfaces");
    }
    if i.dim == SurfDim::D1 && !matches!(t, Tiling::Linear | Tiling::Tile4) {
        return Some("Gfx12.5+ 1D surfaces must be linear or Tile4");
    }
    if i.samples > 1 && t != Tiling::Tile64 {
        return Some("Gfx12.5+ multisampled surfaces must be Tile64");
    }
    if bpb.is_multiple_of(3) && t == Tiling::Tile64 {
        return Some("Tile64 is not defined for 24, 48 and 96-bit formats");
    }
    // isl_gfx125_filter_tiling / isl_gfx20_filter_tiling, citing Bspec 58767.
    if i.format.is_yuv() && t == Tiling::Tile64 {
        return Some("packed YUV formats cannot be Tile64");
    }
    None
}

/// The tilings a surface of this kind may use on `gen`, in [`Tiling::ALL`] order: the
/// tilings the generation has, minus those isl filters out for these usages.
pub fn allowed_tilings(
    gen: Gen,
    format: Format,
    dim: SurfDim,
    usage: Usage,
    samples: u32,
) -> Vec<Tiling> {
    let input = FilterInput {
        gen,
        dim,
        format,
        usage,
        samples,
        width: 1,
    };
    Tiling::ALL
        .into_iter()
        .filter(|t| t.is_supported_on(gen) && rejection(*t, &input).is_none())
        .filter(|t| {
            // The tile must also exist for this element size and dimensionality.
            crate::tile::TileInfo::new(*t, gen, dim, format.bpb(), samples).is_ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_tilings_per_generation() {
        use Tiling::*;
        let st = |gen, fmt, dim| allowed_tilings(gen, fmt, dim, Usage::STORAGE, 1);
        let rgba8 = Format::R8G8B8A8_UNORM;
        assert_eq!(st(Gen::Gfx7, rgba8, SurfDim::D2), vec![Linear, X, Y]);
        assert_eq!(
            st(Gen::Gfx9, rgba8, SurfDim::D2),
            vec![Linear, X, Y, Yf, Ys]
        );
        assert_eq!(st(Gen::Gfx9, rgba8, SurfDim::D3), vec![Linear, X, Y]);
        assert_eq!(st(Gen::Gfx12, rgba8, SurfDim::D3), vec![Linear, X, Y, Ys]);
        assert_eq!(st(Gen::Gfx9, rgba8, SurfDim::D1), vec![Linear, X, Y]);
        assert_eq!(
            st(Gen::Gfx125, rgba8, SurfDim::D2),
            vec![Linear, X, Tile4, Tile64]
        );
        assert_eq!(
            st(Gen::Gfx125, rgba8, SurfDim::D3),
            vec![Linear, Tile4, Tile64]
        );
        assert_eq!(st(Gen::Gfx20, rgba8, SurfDim::D1), vec![Linear, Tile4]);
        assert_eq!(
            st(Gen::Gfx20, Format::R32G32B32_FLOAT, SurfDim::D2),
            vec![Linear, X, Tile4]
        );
        assert_eq!(
            st(Gen::Gfx6, Format::R32G32B32A32_FLOAT, SurfDim::D2),
            vec![Linear, X]
        );
        // Stencil.
        let s = |gen| allowed_tilings(gen, Format::R8_UINT, SurfDim::D2, Usage::STENCIL, 1);
        assert_eq!(s(Gen::Gfx8), vec![W]);
        assert_eq!(s(Gen::Gfx12), vec![Y, Yf, Ys]);
        assert_eq!(s(Gen::Gfx125), vec![Tile4, Tile64]);
    }
}
