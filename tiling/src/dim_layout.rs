//! How the images of a surface are arranged in memory: isl's `isl_dim_layout` and
//! `isl_surf_choose_dim_layout` (Mesa `src/intel/isl/isl.c`; docs/hardware/surface-layout.md
//! §7.1).
//!
//! The choice depends only on the generation, the dimensionality, the tiling and the
//! cube flag, so it lives apart from the surface that uses it: the alignment rules need
//! the layout too, and neither they nor the layout know about [`Surface`].
//!
//! [`Surface`]: crate::Surface

use std::fmt;

use crate::dim::SurfDim;
use crate::generation::Gen;
use crate::tile::Tiling;
use crate::usage::Usage;

/// How the images of a surface are arranged in two dimensions, isl's `isl_dim_layout`
/// (docs/hardware/surface-layout.md §7.1).
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DimLayout {
    /// Levels in a left column (LOD0, LOD1) and a right column (LOD2+); array slices and
    /// Gfx9+ 3D slices stacked at qpitch rows.
    GFX4_2D,
    /// Gfx4–8 3D (and Gfx4 cubes): each level's slices in rows of `2^level`.
    GFX4_3D,
    /// Gfx6 W-tiled stencil: every level is as tall as level 0.
    GFX6_STENCIL_HIZ,
    /// Gfx9+ linear 1D: levels side by side, one row per layer.
    GFX9_1D,
}

impl DimLayout {
    /// isl's name without the prefix, e.g. `GFX4_2D`.
    pub fn name(self) -> &'static str {
        match self {
            DimLayout::GFX4_2D => "GFX4_2D",
            DimLayout::GFX4_3D => "GFX4_3D",
            DimLayout::GFX6_STENCIL_HIZ => "GFX6_STENCIL_HIZ",
            DimLayout::GFX9_1D => "GFX9_1D",
        }
    }
}

impl fmt::Display for DimLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// isl's `isl_surf_choose_dim_layout` for the modelled tilings (HiZ is not one).
pub(crate) fn choose_dim_layout(gen: Gen, dim: SurfDim, tiling: Tiling, usage: Usage) -> DimLayout {
    // Sandy Bridge lays W-tiled stencil out with every level as tall as level 0.
    if gen.ver() == 6 && tiling == Tiling::W {
        return DimLayout::GFX6_STENCIL_HIZ;
    }
    if gen.ver() >= 9 {
        // Gfx9+ 1D surfaces are linear with their own layout; a tiled 1D surface is laid
        // out as a one-row 2D surface.
        if dim == SurfDim::D1 && tiling == Tiling::Linear {
            DimLayout::GFX9_1D
        } else {
            DimLayout::GFX4_2D
        }
    } else {
        match dim {
            SurfDim::D3 => DimLayout::GFX4_3D,
            // G45 PRM: a Gfx4 cube is stored like a 3D surface of six slices.
            _ if gen == Gen::Gfx4 && usage.contains(Usage::CUBE) => DimLayout::GFX4_3D,
            _ => DimLayout::GFX4_2D,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branches of `isl_surf_choose_dim_layout`, one case each.
    #[test]
    fn isl_choices() {
        use DimLayout::*;
        let c = choose_dim_layout;
        assert_eq!(
            c(Gen::Gfx6, SurfDim::D2, Tiling::W, Usage::STENCIL),
            GFX6_STENCIL_HIZ
        );
        // W on Gfx7 is an ordinary 2D layout.
        assert_eq!(
            c(Gen::Gfx7, SurfDim::D2, Tiling::W, Usage::STENCIL),
            GFX4_2D
        );
        assert_eq!(
            c(Gen::Gfx9, SurfDim::D1, Tiling::Linear, Usage::TEXTURE),
            GFX9_1D
        );
        assert_eq!(
            c(Gen::Gfx9, SurfDim::D1, Tiling::Y, Usage::TEXTURE),
            GFX4_2D
        );
        assert_eq!(
            c(Gen::Gfx125, SurfDim::D3, Tiling::Tile4, Usage::TEXTURE),
            GFX4_2D
        );
        assert_eq!(
            c(Gen::Gfx8, SurfDim::D3, Tiling::Y, Usage::TEXTURE),
            GFX4_3D
        );
        assert_eq!(
            c(Gen::Gfx8, SurfDim::D1, Tiling::Linear, Usage::TEXTURE),
            GFX4_2D
        );
        assert_eq!(
            c(
                Gen::Gfx4,
                SurfDim::D2,
                Tiling::Y,
                Usage::TEXTURE | Usage::CUBE
            ),
            GFX4_3D
        );
        assert_eq!(
            c(
                Gen::Gfx5,
                SurfDim::D2,
                Tiling::Y,
                Usage::TEXTURE | Usage::CUBE
            ),
            GFX4_2D
        );
    }
}
