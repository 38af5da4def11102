//! Which multisampled surfaces the crate lays out, and why it refuses the others.
//!
//! Colour MSAA surfaces are laid out as Mesa's isl lays them out on Gfx7 and later with
//! `ISL_MSAA_LAYOUT_ARRAY` (the PRM's `MSFMT_MSS`, Vol 5 "Memory Views", multisample
//! surfaces): every sample is its own physical array slice, so isl's `phys_level0_sa`
//! is `{w = width, h = height, d = 1, a = array_len * samples}` and sample `s` of
//! logical layer `l` lives in physical slot `l * samples + s`
//! ([`physical_slot`]). Everything else (alignment, qpitch, row pitch, size) then
//! follows isl's single-sampled GFX4_2D path with the multisampled alignments.
//!
//! Tiles that keep samples inside the tile (SKL_Ys, ICL_Ys, Tile64; `a > 1` in
//! [`TileInfo::logical_extent_el`](crate::TileInfo::logical_extent_el)) need no special
//! case: the generic address of docs/hardware/surface-layout.md §4 puts slot `a` at tile
//! row `a / tile_a` (times qpitch) and sample bits `a % tile_a` inside the tile, and
//! `tile_a` divides every sample count that uses such a tile (on Gfx12.5, Tile64 keeps
//! at most 4 samples per tile; 8x and 16x continue at further qpitch steps).
//!
//! [`Surface::new`](crate::Surface::new) refuses, with a [`MsaaRefusal`], the cases isl
//! would lay out differently (the interleaved `MSFMT_DEPTH_STENCIL` layout, which is
//! not modelled) or not at all. The tiling
//! itself is checked afterwards by isl's filters, which only allow Y (and W, for
//! stencil) on Gfx7–12 and Tile64 from Gfx12.5 for multisampled surfaces.

use std::fmt;

use crate::alignment::gfx7_needs_valign2;
use crate::dim::SurfDim;
use crate::format::Format;
use crate::generation::Gen;
use crate::usage::Usage;

/// Why a multisampled surface description is refused: the reason carried by
/// [`LayoutError::Multisampled`](crate::LayoutError::Multisampled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsaaRefusal {
    /// The sample count is not 1, 2, 4, 8 or 16.
    InvalidCount,
    /// The generation does not have this sample count (isl's
    /// `isl_device_get_sample_counts`: Gfx7 has 4x and 8x, Gfx8 adds 2x, Gfx9 16x).
    CountNotOnGen {
        /// The generation.
        gen: Gen,
    },
    /// Before Gfx7 multisampled surfaces are interleaved only (isl's Gfx6 path), which is
    /// not modelled.
    GenTooOld {
        /// The generation.
        gen: Gen,
    },
    /// Only 2D surfaces can be multisampled (PRM RENDER_SURFACE_STATE, Number of
    /// Multisamples: the surface type must be SURFTYPE_2D).
    Dimension {
        /// The dimensionality.
        dim: SurfDim,
    },
    /// Cube maps are SURFTYPE_CUBE, not SURFTYPE_2D, so they cannot be multisampled.
    Cube,
    /// Multisampled surfaces have one level (PRM: Mip Count / LOD must be 0).
    Levels {
        /// The level count given.
        levels: u32,
    },
    /// Depth and stencil surfaces use isl's interleaved layout (`MSFMT_DEPTH_STENCIL`),
    /// which is not modelled.
    DepthStencil {
        /// The usage flags.
        usage: Usage,
    },
    /// The format cannot be multisampled in the array layout.
    Format {
        /// The format.
        format: Format,
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for MsaaRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MsaaRefusal::InvalidCount => f.write_str("sample counts are 1, 2, 4, 8 or 16"),
            MsaaRefusal::CountNotOnGen { gen } => write!(
                f,
                "{gen} does not have this sample count ({})",
                match gen.ver() {
                    ..=6 => "it is single-sampled here",
                    7 => "Gfx7 has 4 and 8",
                    8 => "Gfx8 has 2, 4 and 8",
                    _ => "Gfx9+ has 2, 4, 8 and 16",
                }
            ),
            MsaaRefusal::GenTooOld { gen } => write!(
                f,
                "multisampled surfaces on {gen} are interleaved, which is not modelled \
                 (the array layout starts at Gfx7)"
            ),
            MsaaRefusal::Dimension { dim } => {
                write!(f, "only 2D surfaces can be multisampled, not {dim}")
            }
            MsaaRefusal::Cube => f.write_str("cube maps cannot be multisampled"),
            MsaaRefusal::Levels { levels } => write!(
                f,
                "multisampled surfaces have exactly one level, got {levels}"
            ),
            MsaaRefusal::DepthStencil { usage } => write!(
                f,
                "usage {usage}: multisampled depth/stencil surfaces use the interleaved \
                 layout, which is not modelled"
            ),
            MsaaRefusal::Format { format, reason } => write!(f, "format {format}: {reason}"),
        }
    }
}

/// Whether `gen` has `samples`-sample surfaces (isl's `isl_device_get_sample_counts`).
fn count_on_gen(gen: Gen, samples: u32) -> bool {
    match gen.ver() {
        ..=6 => samples == 1,
        7 => matches!(samples, 1 | 4 | 8),
        8 => matches!(samples, 1 | 2 | 4 | 8),
        _ => matches!(samples, 1 | 2 | 4 | 8 | 16),
    }
}

/// Why isl would not lay out a `samples`-sample surface with these properties in the
/// array layout, or `None` if it would (always `None` for `samples == 1`). The checks
/// follow Mesa's `isl_gfx7_choose_msaa_layout` / `isl_gfx8_choose_msaa_layout` and the
/// `ISL_MSAA_LAYOUT_ARRAY` case of isl.c's `isl_calc_phys_level0_extent_sa`.
pub(crate) fn refusal(
    gen: Gen,
    dim: SurfDim,
    format: Format,
    usage: Usage,
    levels: u32,
    samples: u32,
) -> Option<MsaaRefusal> {
    if samples == 1 {
        return None;
    }
    if !matches!(samples, 2 | 4 | 8 | 16) {
        return Some(MsaaRefusal::InvalidCount);
    }
    if gen.ver() < 7 {
        return Some(MsaaRefusal::GenTooOld { gen });
    }
    if !count_on_gen(gen, samples) {
        return Some(MsaaRefusal::CountNotOnGen { gen });
    }
    if dim != SurfDim::D2 {
        return Some(MsaaRefusal::Dimension { dim });
    }
    if usage.contains(Usage::CUBE) {
        return Some(MsaaRefusal::Cube);
    }
    if levels != 1 {
        return Some(MsaaRefusal::Levels { levels });
    }
    // isl picks the interleaved layout for every depth/stencil (and HiZ) surface.
    if usage.is_depth_or_stencil() {
        return Some(MsaaRefusal::DepthStencil { usage });
    }
    let bad_format = |reason| Some(MsaaRefusal::Format { format, reason });
    // isl_format_supports_multisampling: no compressed, YUV or planar formats.
    if format.is_compressed() {
        return bad_format("compressed formats cannot be multisampled");
    }
    if format.is_yuv() {
        return bad_format("YUV formats cannot be multisampled");
    }
    if gen.ver() == 7 {
        // isl_gfx7_choose_msaa_layout: MSAA needs VALIGN_4, which these formats cannot
        // have...
        if gfx7_needs_valign2(gen, format) {
            return bad_format("Gfx7 multisampling needs VALIGN_4, which this format forbids");
        }
        // ...and the PRM forces the interleaved layout for these 24-bit formats.
        if matches!(
            format,
            Format::I24X8_UNORM
                | Format::L24X8_UNORM
                | Format::A24X8_UNORM
                | Format::R24_UNORM_X8_TYPELESS
        ) {
            return bad_format(
                "Gfx7 stores multisampled 24-bit depth formats interleaved, which is not \
                 modelled",
            );
        }
    }
    None
}

/// The physical array slot of sample `sample` of logical layer `layer` in a surface of
/// `samples` samples: `layer * samples + sample` (isl's `ISL_MSAA_LAYOUT_ARRAY`). `None`
/// on overflow.
pub fn physical_slot(layer: u32, sample: u32, samples: u32) -> Option<u32> {
    layer.checked_mul(samples)?.checked_add(sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_generation() {
        let r = |gen, samples| {
            refusal(
                gen,
                SurfDim::D2,
                Format::R32_FLOAT,
                Usage::TEXTURE,
                1,
                samples,
            )
        };
        assert_eq!(r(Gen::Gfx7, 4), None);
        assert_eq!(r(Gen::Gfx75, 8), None);
        assert_eq!(
            r(Gen::Gfx7, 2),
            Some(MsaaRefusal::CountNotOnGen { gen: Gen::Gfx7 })
        );
        assert_eq!(r(Gen::Gfx8, 2), None);
        assert_eq!(
            r(Gen::Gfx8, 16),
            Some(MsaaRefusal::CountNotOnGen { gen: Gen::Gfx8 })
        );
        assert_eq!(r(Gen::Gfx9, 16), None);
        assert_eq!(r(Gen::Gfx20, 16), None);
        assert_eq!(
            r(Gen::Gfx6, 4),
            Some(MsaaRefusal::GenTooOld { gen: Gen::Gfx6 })
        );
        assert_eq!(r(Gen::Gfx12, 3), Some(MsaaRefusal::InvalidCount));
        assert_eq!(r(Gen::Gfx12, 0), Some(MsaaRefusal::InvalidCount));
        assert_eq!(r(Gen::Gfx4, 1), None);
    }

    #[test]
    fn gfx7_format_rules() {
        let r = |gen, format| refusal(gen, SurfDim::D2, format, Usage::TEXTURE, 1, 4);
        assert!(matches!(
            r(Gen::Gfx7, Format::R32G32B32_FLOAT),
            Some(MsaaRefusal::Format { .. })
        ));
        // Haswell dropped the R32G32B32_FLOAT VALIGN_2 restriction.
        assert_eq!(r(Gen::Gfx75, Format::R32G32B32_FLOAT), None);
        assert!(matches!(
            r(Gen::Gfx75, Format::R24_UNORM_X8_TYPELESS),
            Some(MsaaRefusal::Format { .. })
        ));
        assert_eq!(r(Gen::Gfx8, Format::R24_UNORM_X8_TYPELESS), None);
        assert!(matches!(
            r(Gen::Gfx9, Format::BC1_UNORM),
            Some(MsaaRefusal::Format { .. })
        ));
    }

    #[test]
    fn slots() {
        assert_eq!(physical_slot(3, 2, 4), Some(14));
        assert_eq!(physical_slot(0, 0, 16), Some(0));
        assert_eq!(physical_slot(u32::MAX, 0, 2), None);
    }
}
