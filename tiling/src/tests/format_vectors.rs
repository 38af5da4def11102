//! Layouts of the formats whose rows of isl's table go beyond plain power-of-two texels:
//! non-power-of-two blocks (ASTC, FXT1), the shared-exponent format, and the YUV rules.
//! Expected values are computed by hand in the comments from isl's rules (Mesa
//! `src/intel/isl/isl.c`, `isl_gfx7.c`, `isl_gfx12.c`, `isl_gfx20.c`).

use crate::dim::SurfDim;
use crate::format::Format;
use crate::generation::Gen;
use crate::surface::{LayoutError, Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::Tiling;
use crate::usage::Usage;

fn surf(desc: SurfaceDesc) -> Surface {
    match Surface::new(desc) {
        Ok(s) => s,
        Err(e) => panic!("{desc:?}: {e}"),
    }
}

fn origin(s: &Surface, level: u32) -> (u32, u32) {
    let o = s.image_offset_el(level, 0).unwrap();
    (o.x_el, o.y_el)
}

fn not_allowed(desc: SurfaceDesc) -> bool {
    matches!(
        Surface::new(desc),
        Err(LayoutError::TilingNotAllowed { .. })
    )
}

/// SKL, ASTC 5x4 (128-bit blocks), Y, 100x50 px, 3 levels.
///
/// Gfx9 aligns compressed images to 4x4 blocks: 20x16 px. Levels (px, aligned):
/// L0 100x50 -> 100x64, L1 50x25 -> 60x32, L2 25x12 -> 40x16. GFX4_2D: width
/// max(100, 60 + 40) = 100 px = 20 blocks, height max(64 + 32, 64 + 16) = 96 px =
/// 24 block rows. Pitch: 20 x 16 B = 320 B, three 128-byte Y tiles = 384 B. Size: 24
/// rows round up to one 32-row tile row: 32 x 384 = 12288 B.
#[test]
fn astc_5x4_npot_blocks() {
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx9,
            SurfDim::D2,
            Format::ASTC_LDR_2D_5X4_FLT16,
            Tiling::Y,
        )
        .extent(100, 50, 1)
        .levels(3),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (4, 4));
    assert_eq!(s.row_pitch_B(), 384);
    assert_eq!(s.array_pitch_el_rows(), 24);
    assert_eq!(s.size_B(), 12288);
    // L1 below L0 (64 px = 16 block rows); L2 right of L1 (60 px = 12 blocks).
    assert_eq!(origin(&s, 1), (0, 16));
    assert_eq!(origin(&s, 2), (12, 16));
    // Block (1, 2) of L2 is element (13, 18): byte column 208 is Y tile 1 of row 0
    // (4096), OWord column 5 of it (5 x 512) and row 18 (18 x 16): 6944.
    assert_eq!(s.texel_offset(1, 2, 0, 2, Bit6Swizzle::None), Ok(6944));
}

/// IVB, FXT1 (8x4 blocks, 128 bits), linear, 40x20 px, 2 levels.
///
/// Gfx7 aligns compressed images to one block (8x4 px). L1 is 20x10 px -> 24x12. Width
/// max(40, 24) = 40 px = 5 blocks of 16 B: pitch 80 B. L1 starts below L0: 20 px = 5
/// block rows.
#[test]
fn fxt1_8x4_blocks() {
    let s = surf(
        SurfaceDesc::new(Gen::Gfx7, SurfDim::D2, Format::FXT1, Tiling::Linear)
            .extent(40, 20, 1)
            .levels(2),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (1, 1));
    assert_eq!(s.row_pitch_B(), 80);
    assert_eq!(origin(&s, 1), (0, 5));
    // Block (2, 1) of L1: row 5 + 1 = 6, column 2: 6 x 80 + 2 x 16 = 512.
    assert_eq!(s.texel_offset(2, 1, 0, 1, Bit6Swizzle::None), Ok(512));
}

/// BDW, R9G9B9E5_SHAREDEXP (32 bits), Y, 64x64 px: laid out like any 32-bit format.
/// HALIGN 4 / VALIGN 4 (Gfx8 without auxiliary surface); pitch 64 x 4 = 256 B (two Y
/// tiles); 64 rows = two tile rows: 2 x 32 x 256 = 16384 B.
#[test]
fn shared_exponent_is_a_32_bit_format() {
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx8,
            SurfDim::D2,
            Format::R9G9B9E5_SHAREDEXP,
            Tiling::Y,
        )
        .extent(64, 64, 1),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (4, 4));
    assert_eq!((s.row_pitch_B(), s.size_B()), (256, 16384));
    // Texel (40, 33): byte column 160 is tile column 1, row 33 tile row 1: tile 3
    // (12288); OWord column 2 (1024), row 1 (16): 13328.
    assert_eq!(s.texel_offset(40, 33, 0, 0, Bit6Swizzle::None), Ok(13328));
}

/// isl_gfx7.c: VALIGN_4 is not available to YUV formats on any Gfx7 (Haswell included)
/// nor to R32G32B32_FLOAT on IVB/BYT, and Y-tiled render targets need VALIGN_4.
#[test]
fn gfx7_yuv_render_targets_cannot_be_y_tiled() {
    let rt = |gen, format, tiling| {
        SurfaceDesc::new(gen, SurfDim::D2, format, tiling)
            .extent(64, 64, 1)
            .usage(Usage::RENDER_TARGET)
    };
    for gen in [Gen::Gfx7, Gen::Gfx75] {
        assert!(
            not_allowed(rt(gen, Format::YCRCB_NORMAL, Tiling::Y)),
            "{gen}"
        );
        assert!(not_allowed(rt(gen, Format::Y8_UNORM, Tiling::Y)), "{gen}");
        surf(rt(gen, Format::YCRCB_NORMAL, Tiling::X));
        // As a texture the Y tiling is fine, with VALIGN_2.
        let t = surf(rt(gen, Format::YCRCB_NORMAL, Tiling::Y).usage(Usage::TEXTURE));
        assert_eq!(t.valign_el(), 2);
    }
    assert!(not_allowed(rt(
        Gen::Gfx7,
        Format::R32G32B32_FLOAT,
        Tiling::Y
    )));
    surf(rt(Gen::Gfx75, Format::R32G32B32_FLOAT, Tiling::Y));
    // Gfx8 has no such rule.
    surf(rt(Gen::Gfx8, Format::YCRCB_NORMAL, Tiling::Y));
}

/// isl_gfx125_filter_tiling / isl_gfx20_filter_tiling: no Tile64 for YUV (Bspec 58767).
#[test]
fn yuv_is_never_tile64() {
    for gen in [Gen::Gfx125, Gen::Gfx20] {
        for format in [Format::YCRCB_SWAPY, Format::Y8_UNORM] {
            let d = SurfaceDesc::new(gen, SurfDim::D2, format, Tiling::Tile64).extent(64, 64, 1);
            assert!(not_allowed(d), "{gen} {format}");
            surf(SurfaceDesc {
                tiling: Tiling::Tile4,
                ..d
            });
        }
        // A 16-bit non-YUV format of the same size can.
        surf(
            SurfaceDesc::new(gen, SurfDim::D2, Format::R16_UNORM, Tiling::Tile64).extent(64, 64, 1),
        );
    }
}

/// isl_choose_miptail_start_level: on Gfx12 a YUV surface whose tiling has a tail
/// reports 15 and keeps every level out of the tail.
///
/// TGL Ys with 16-bit elements: a 256x128-element tile whose tail slot 0 starts at
/// (128, 0) (ICL 2D table, row 0): 128x128 left, so a 64x64 level 0 is already in the
/// tail for R16_UNORM.
#[test]
fn gfx12_yuv_has_no_mip_tail() {
    let d = |gen, format| {
        SurfaceDesc::new(gen, SurfDim::D2, format, Tiling::Ys)
            .extent(64, 64, 1)
            .levels(7)
    };
    let r16 = surf(d(Gen::Gfx12, Format::R16_UNORM));
    assert_eq!(
        (r16.miptail_start_level(), r16.miptail_first_level()),
        (0, Some(0))
    );
    let yuv = surf(d(Gen::Gfx12, Format::YCRCB_NORMAL));
    assert_eq!(
        (yuv.miptail_start_level(), yuv.miptail_first_level()),
        (15, None)
    );
    // Without a tail, level 1 sits below level 0 at the tile-aligned height (128 rows)
    // and level 2 right of it at the tile width (256).
    assert_eq!(origin(&yuv, 1), (0, 128));
    assert_eq!(origin(&yuv, 2), (256, 128));
    // SKL has no such rule: the tail starts at level 0 as for R16_UNORM (SKL 2D table
    // row 0 also puts slot 0 at (128, 0) for 16 bpb).
    let skl = surf(d(Gen::Gfx9, Format::YCRCB_NORMAL));
    assert_eq!(skl.miptail_start_level(), 0);
    // Tilings without a tail keep the level count on Gfx12 too.
    let y = surf(SurfaceDesc {
        tiling: Tiling::Y,
        ..d(Gen::Gfx12, Format::YCRCB_NORMAL)
    });
    assert_eq!(y.miptail_start_level(), 7);
}

/// Linear render targets: the pitch is a multiple of the element, of two elements for
/// YUV (isl_calc_row_pitch_alignment). A 3-pixel row of 2-byte elements is 6 B: 6 for
/// R16_UNORM, 8 for YCRCB_NORMAL, which refuses a requested 10 (at least the minimum,
/// but not a multiple of 4) and takes 12.
#[test]
fn linear_yuv_render_target_pitch() {
    let d = |format| {
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, format, Tiling::Linear)
            .extent(3, 2, 1)
            .usage(Usage::RENDER_TARGET)
    };
    assert_eq!(surf(d(Format::R16_UNORM)).row_pitch_B(), 6);
    assert_eq!(surf(d(Format::YCRCB_NORMAL)).row_pitch_B(), 8);
    assert_eq!(
        Surface::new(d(Format::YCRCB_NORMAL).row_pitch(10)).map(|s| s.row_pitch_B()),
        Err(LayoutError::RowPitchMisaligned {
            requested: 10,
            alignment: 4
        })
    );
    assert_eq!(
        surf(d(Format::YCRCB_NORMAL).row_pitch(12)).row_pitch_B(),
        12
    );
    // A texture has no pitch rule.
    assert_eq!(
        surf(d(Format::YCRCB_NORMAL).usage(Usage::TEXTURE)).row_pitch_B(),
        6
    );
}
