//! Multisampled surfaces in isl's array layout: hand-computed layouts and sample
//! addresses, refusals, and two properties (fixed seeds; `QC_TESTS=<n>` scales them):
//!
//! * [`msaa_param_formula_equals_sample_offset`]: for random multisampled surfaces of
//!   every tiling isl gives them (Y on Gfx7–12, SKL/ICL Ys, Gfx12.5 and Xe2 Tile64, the
//!   last three keeping samples inside the tile), every sample count and random views,
//!   the parameter block's formula with `z = layer * SAMPLES.x + sample` equals
//!   [`Surface::sample_offset`] for every texel and sample of the view, evaluated by the
//!   crate's [`ImageParam::texel_address`] and by the independent dword evaluator
//!   `block_formula_address` of `mesa_formula.rs`, and, for Y, by Mesa's formula over
//!   slots 0–4 (which has no fields for the other tilings).
//! * [`msaa_layouts_agree_with_the_model`]: for random multisampled surfaces of every
//!   accepted tiling (Y, SKL/ICL Ys, Gfx12.5 and Xe2 Tile64), qpitch, row pitch and size
//!   recomputed from isl's rules here, and every sample's address against the
//!   independent tile model of `independent.rs`, placed at physical slot `layer *
//!   samples + sample`; and the parameter block of every such surface is filled, with
//!   the in-tile sample in the R fields and slabs exactly when the tile holds samples.

use quickcheck::{Arbitrary, Gen as QcGen, TestResult};

use super::independent::Model;
use super::mesa_formula::{block_formula_address, mesa_image_address};
use super::quickcheck;
use crate::dim::SurfDim;
use crate::format::Format;
use crate::generation::Gen;
use crate::image_param::{
    fill_image_param, max_address_fields, max_multisampled_address_fields, multisampled_tilings,
    slot, storage_tilings, FieldCounts, ImageParam, ImageView, ParamError,
};
use crate::msaa::MsaaRefusal;
use crate::msaa_address::SampleAddressError;
use crate::surface::{AddressError, LayoutError, Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::Tiling;
use crate::tiling_filter::allowed_tilings;
use crate::usage::Usage;

fn surf(desc: SurfaceDesc) -> Surface {
    Surface::new(desc).unwrap()
}

fn err(desc: SurfaceDesc) -> LayoutError {
    Surface::new(desc).unwrap_err()
}

const NO: Bit6Swizzle = Bit6Swizzle::None;

// ---- Hand-computed layouts ------------------------------------------------------------

#[test]
fn bdw_y_4x_array() {
    // BDW R32_FLOAT 4x4, 2 layers, 4 samples, Y-tiled.
    // isl: phys_level0_sa = {4, 4, 1, a = 2 * 4 = 8}. Gfx8 alignment with DISABLE_AUX is
    // HALIGN 4 x VALIGN 4. Gfx8 always uses the compact array pitch; one level is not
    // padded, so slice 0 is 4x4 and qpitch = align(4, VALIGN 4) = 4 rows.
    // phys_total_el.h = qpitch * (8 - 1) + 4 = 32 rows; row pitch = 4 * 4 B = 16 B,
    // rounded up to one 128 B Y tile; size = one tile row of 32 rows = 4096 B.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx8, SurfDim::D2, Format::R32_FLOAT, Tiling::Y)
            .extent(4, 4, 1)
            .array_len(2)
            .samples(4)
            .usage(Usage::STORAGE),
    );
    assert_eq!(s.samples(), 4);
    assert_eq!(s.array_len(), 2);
    assert_eq!((s.halign_el(), s.valign_el()), (4, 4));
    assert_eq!(s.array_pitch_el_rows(), 4);
    assert_eq!(s.row_pitch_B(), 128);
    assert_eq!(s.size_B(), 4096);
    assert_eq!(s.images().count(), 8);
    // Sample s of layer l is slot 4l + s, at rows 4 * slot. The Y pattern "u6 u5 u4 v4 v3
    // v2 v1 v0 u3 u2 u1 u0" puts x_B < 16 at bits 3..0 and the row at bits 8..4, so the
    // offset is 4x + 16 * row.
    // (3, 2) of layer 1 sample 2: slot 6, row 26: 12 + 416.
    assert_eq!(s.sample_offset(3, 2, 1, 2, 0, NO), Ok(428));
    // (1, 1) of layer 0 sample 3: slot 3, row 13: 4 + 208.
    assert_eq!(s.sample_offset(1, 1, 0, 3, 0, NO), Ok(212));
    // (0, 0) of layer 1 sample 0: slot 4, row 16.
    assert_eq!(s.sample_offset(0, 0, 1, 0, 0, NO), Ok(256));
    // Last byte of (3, 3) of layer 1 sample 3: slot 7, row 31: 12 + 3 + 496.
    assert_eq!(s.sample_byte_offset(3, 3, 1, 3, 0, 3, NO), Ok(511));
    // texel_offset takes the physical slot.
    assert_eq!(s.texel_offset(3, 2, 6, 0, NO), Ok(428));
    assert_eq!(s.sample_slot(1, 2), Ok(6));

    // The parameter block of a view of layer 1: OFFSET is the origin of slot 1 * 4 (row
    // 16), SIZE counts logical layers, SAMPLES.x = 4, and STRIDE.w = qpitch steps one
    // sample.
    let v = ImageView {
        base_level: 0,
        base_layer: 1,
        layer_count: 1,
        format: Format::R32_UINT,
    };
    let p = fill_image_param(&s, &v, NO).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [0, 16, 0, 0]);
    assert_eq!(p.slot(slot::SIZE), [4, 4, 1, 0]);
    assert_eq!(p.slot(slot::STRIDE), [4, 32, 0, 4]);
    assert_eq!(p.slot(slot::SAMPLES), [4, 0, 0, 0]);
    // Layer 0 of the view, sample 2: z = 0 * 4 + 2.
    assert_eq!(p.texel_address(3, 2, 2), 428);
    assert_eq!(mesa_image_address(&p, &[3, 2, 2], false), 428);
    // ImageView::level is in logical layers.
    assert_eq!(ImageView::level(&s, 0).layer_count, 2);
}

#[test]
fn skl_ys_4x_keeps_samples_in_the_tile_and_the_block() {
    // SKL R32_UINT 4x4, 2 layers, 4 samples, Ys. isl's SKL_Ys 32 bpb tile is 128 x 128
    // elements; "For MSFMT_MSS type multi-sampled TileYS surfaces" 4x divides both by
    // 2: 64 x 64 elements (256 B x 64 rows logically, 256 B x 256 rows physically),
    // a = 4, pattern "s1 s0 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3..u0". Ys images are aligned
    // to the tile (64 x 64), so qpitch = align(4, 64) = 64 rows = one tile row; slot a
    // sits at tile row a / 4 = the logical layer, sample bits at 15..14.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R32_UINT, Tiling::Ys)
            .extent(4, 4, 1)
            .array_len(2)
            .samples(4),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (64, 64));
    assert_eq!(s.array_pitch_el_rows(), 64);
    assert_eq!(s.row_pitch_B(), 256);
    // Two slabs of 4 slots, one 64 KB tile each.
    assert_eq!(s.size_B(), 2 * 65536);
    // (1, 2) of layer 1 sample 3: slot 7, tile row 1 (65536); u = 4 -> u2 at bit 2,
    // v = 2 -> v1 at bit 5, s = 3 -> bits 14 and 15: 4 + 32 + 49152.
    assert_eq!(s.sample_offset(1, 2, 1, 3, 0, NO), Ok(65536 + 49188));

    // The block of a view of layer 1 carries the in-tile sample like a 3D tile's slice:
    // OFFSET.z = the physical slot 1 * 4 (isl's array offset), STRIDE.w = 0, R fields =
    // the S fields, slabs of 4 slots one qpitch (one tile row, 65536 B) apart.
    let v = ImageView {
        base_level: 0,
        base_layer: 1,
        layer_count: 1,
        format: Format::R32_UINT,
    };
    let p = fill_image_param(&s, &v, NO).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [0, 0, 4, 0]);
    assert_eq!(p.slot(slot::SIZE), [4, 4, 1, 0]);
    assert_eq!(p.slot(slot::STRIDE), [4, 64, 0, 0]);
    // TILING: log2(256 B / 4) = 6 elements, log2(64) rows.
    assert_eq!(p.slot(slot::TILING), [6, 6, 0, 0]);
    // row_shift 6; tile_row_stride = 256 B x 256 physical rows; slab_shift log2(4);
    // slab_stride = (qpitch 64 / 64) * 65536.
    assert_eq!(p.slot(slot::TILE), [6, 65536, 2, 65536]);
    assert_eq!(p.slot(slot::SAMPLES), [4, 0, 0, 0]);
    // U: u3..u0 -> 3..0, u4 -> 7, u5 -> 9, u6 -> 11, u7 -> 13, tile column x_B >> 8 at
    // 16 (a 64 KB tile); V: v2..v0 -> 6..4, v3 -> 8, v4 -> 10, v5 -> 12; R: s1 s0 ->
    // 15..14.
    let f = |s, d, w| [s, d, w, 0];
    let u = [
        f(0, 0, 4),
        f(4, 7, 1),
        f(5, 9, 1),
        f(6, 11, 1),
        f(7, 13, 1),
        f(8, 16, 16),
    ];
    for (i, want) in u.into_iter().enumerate() {
        assert_eq!(p.slot(slot::U_FIELDS + i as u32), want, "U{i}");
    }
    let v_fields = [f(0, 4, 3), f(3, 8, 1), f(4, 10, 1), f(5, 12, 1)];
    for (i, want) in v_fields.into_iter().enumerate() {
        assert_eq!(p.slot(slot::V_FIELDS + i as u32), want, "V{i}");
    }
    assert_eq!(p.slot(slot::R_FIELDS), f(0, 14, 2));
    assert_eq!(p.slot(slot::R_FIELDS + 1), [0; 4]);
    // (1, 2) of view layer 0 sample 3: z = 0 * 4 + 3, z' = 3 + 4 = 7 (slot 7). xB = 4:
    // bit 2; y' = 2: bit 5; R: 7 & 3 = 3 -> bits 14, 15 (49152); rows 2 >> 6 = 0;
    // slab 7 >> 2 = 1: 65536. 65536 + 4 + 32 + 49152, sample_offset's value above.
    assert_eq!(p.texel_address(1, 2, 3), 65536 + 49188);
    assert_eq!(
        block_formula_address(&p.to_dwords(), 1, 2, 3),
        65536 + 49188
    );
    // Sample 0 of the view's layer 0 is the start of the second tile.
    assert_eq!(p.texel_address(0, 0, 0), 65536);
}

#[test]
fn dg2_tile64_8x_spills_to_further_slabs() {
    // DG2 R32_FLOAT 4x4, 2 layers, 8 samples, Tile64. Gfx12.5 keeps at most 4 samples
    // in a tile: the 32 bpb 4x tile, 64 x 64 elements, a = 4, pattern "v5 v4 u7 u6 v3 v2
    // u5 s1 s0 u4 v1 v0 u3..u0". Tile64 images are tile-aligned: qpitch = 64 rows = one
    // tile row. 16 slots in slabs of 4: four tile rows of 256 B x 256 rows.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx125, SurfDim::D2, Format::R32_FLOAT, Tiling::Tile64)
            .extent(4, 4, 1)
            .array_len(2)
            .samples(8)
            .usage(Usage::STORAGE),
    );
    assert_eq!(s.tile_logical_extent_el().a, 4);
    assert_eq!(s.array_pitch_el_rows(), 64);
    assert_eq!(s.row_pitch_B(), 256);
    assert_eq!(s.size_B(), 4 * 65536);
    // (1, 2) of layer 1 sample 5: slot 13, tile row 13 / 4 = 3 (196608); in the tile
    // u2 (bit 2), v1 (bit 5) and s = 13 % 4 = 1 -> s0 (bit 7): 4 + 32 + 128.
    assert_eq!(s.sample_offset(1, 2, 1, 5, 0, NO), Ok(196608 + 164));
    // Sample 4 of layer 0 starts the second slab.
    assert_eq!(s.sample_offset(0, 0, 0, 4, 0, NO), Ok(65536));

    // The block of a view of layer 1: OFFSET.z = slot 8, four slots per slab, one tile
    // row (65536 B) per slab.
    let v = ImageView {
        base_level: 0,
        base_layer: 1,
        layer_count: 1,
        format: Format::R32_FLOAT,
    };
    let p = fill_image_param(&s, &v, NO).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [0, 0, 8, 0]);
    assert_eq!(p.slot(slot::STRIDE), [4, 64, 0, 0]);
    assert_eq!(p.slot(slot::TILE), [6, 65536, 2, 65536]);
    assert_eq!(p.slot(slot::SAMPLES), [8, 0, 0, 0]);
    // U: u3..u0 -> 3..0, u4 -> 6, u5 -> 9, u7 u6 -> 13..12, tile column at 16; V: v1 v0
    // -> 5..4, v3 v2 -> 11..10, v5 v4 -> 15..14; R: s1 s0 -> 8..7.
    let f = |s, d, w| [s, d, w, 0];
    let u = [
        f(0, 0, 4),
        f(4, 6, 1),
        f(5, 9, 1),
        f(6, 12, 2),
        f(8, 16, 16),
    ];
    for (i, want) in u.into_iter().enumerate() {
        assert_eq!(p.slot(slot::U_FIELDS + i as u32), want, "U{i}");
    }
    let v_fields = [f(0, 4, 2), f(2, 10, 2), f(4, 14, 2)];
    for (i, want) in v_fields.into_iter().enumerate() {
        assert_eq!(p.slot(slot::V_FIELDS + i as u32), want, "V{i}");
    }
    assert_eq!(p.slot(slot::R_FIELDS), f(0, 7, 2));
    // (1, 2) of view layer 0 sample 5: z = 5, z' = 13. xB = 4: bit 2; y' = 2: bit 5;
    // R: 13 & 3 = 1 -> bit 7 (128); slab 13 >> 2 = 3: 196608. 196608 + 164, as
    // sample_offset gives above.
    assert_eq!(p.texel_address(1, 2, 5), 196608 + 164);
    assert_eq!(block_formula_address(&p.to_dwords(), 1, 2, 5), 196608 + 164);
    // Sample 4 of layer 1 (z = 4, slot 12) starts the fourth slab.
    assert_eq!(p.texel_address(0, 0, 4), 3 * 65536);
    assert_eq!(s.sample_offset(0, 0, 1, 4, 0, NO), Ok(3 * 65536));
}

#[test]
fn single_sampled_surfaces_are_unchanged() {
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Ys)
            .extent(40, 30, 1)
            .array_len(3),
    );
    assert_eq!((s.samples(), s.array_len()), (1, 3));
    for (x, y, l) in [(0, 0, 0), (39, 29, 2), (17, 5, 1)] {
        assert_eq!(
            s.sample_offset(x, y, l, 0, 0, NO),
            Ok(s.texel_offset(x, y, l, 0, NO).unwrap())
        );
    }
    assert_eq!(
        s.sample_offset(0, 0, 0, 1, 0, NO),
        Err(SampleAddressError::SampleOutOfRange {
            sample: 1,
            samples: 1
        })
    );
    let p = fill_image_param(&s, &ImageView::level(&s, 0), NO).unwrap();
    assert_eq!(p.slot(slot::SAMPLES), [1, 0, 0, 0]);
    assert_eq!(ImageParam::unbound().slot(slot::SAMPLES), [0; 4]);
}

// ---- Refusals -------------------------------------------------------------------------

#[test]
fn multisampled_refusals() {
    let base = SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R32_FLOAT, Tiling::Y)
        .extent(16, 16, 1)
        .samples(4);
    assert!(Surface::new(base).is_ok());
    let refused = |d: SurfaceDesc| match err(d) {
        LayoutError::Multisampled { samples, reason } => {
            assert_eq!(samples, d.samples);
            reason
        }
        e => panic!("{d:?}: {e}"),
    };
    let mut d3 = base.extent(16, 16, 4);
    d3.dim = SurfDim::D3;
    assert_eq!(refused(d3), MsaaRefusal::Dimension { dim: SurfDim::D3 });
    let mut d1 = base.extent(16, 1, 1);
    d1.dim = SurfDim::D1;
    assert_eq!(refused(d1), MsaaRefusal::Dimension { dim: SurfDim::D1 });
    assert_eq!(refused(base.levels(2)), MsaaRefusal::Levels { levels: 2 });
    let depth = base.usage(Usage::DEPTH);
    assert_eq!(
        refused(depth),
        MsaaRefusal::DepthStencil {
            usage: Usage::DEPTH
        }
    );
    let mut stencil = base.usage(Usage::STENCIL);
    stencil.format = Format::R8_UINT;
    stencil.tiling = Tiling::W;
    assert!(matches!(refused(stencil), MsaaRefusal::DepthStencil { .. }));
    assert_eq!(
        refused(base.usage(Usage::CUBE).extent(16, 16, 1).array_len(6)),
        MsaaRefusal::Cube
    );
    for bad in [0, 3, 5, 32] {
        assert_eq!(
            refused(base.samples(bad)),
            MsaaRefusal::InvalidCount,
            "{bad}"
        );
    }
    let mut gfx8_16x = base.samples(16);
    gfx8_16x.gen = Gen::Gfx8;
    assert_eq!(
        refused(gfx8_16x),
        MsaaRefusal::CountNotOnGen { gen: Gen::Gfx8 }
    );
    let mut ivb_2x = base.samples(2);
    ivb_2x.gen = Gen::Gfx7;
    assert_eq!(
        refused(ivb_2x),
        MsaaRefusal::CountNotOnGen { gen: Gen::Gfx7 }
    );
    let mut snb = base;
    snb.gen = Gen::Gfx6;
    assert_eq!(refused(snb), MsaaRefusal::GenTooOld { gen: Gen::Gfx6 });
    let mut bc = base;
    bc.format = Format::BC1_UNORM;
    assert!(matches!(
        refused(bc),
        MsaaRefusal::Format {
            format: Format::BC1_UNORM,
            ..
        }
    ));
    // isl's filters: MSAA surfaces are Y (or W) tiled on Gfx7-12, Tile64 from Gfx12.5;
    // linear and X are never multisampled, and isl keeps Yf away from MSAA.
    for (gen, t) in [
        (Gen::Gfx9, Tiling::Linear),
        (Gen::Gfx9, Tiling::X),
        (Gen::Gfx11, Tiling::Yf),
        (Gen::Gfx125, Tiling::Linear),
        (Gen::Gfx125, Tiling::Tile4),
        (Gen::Gfx20, Tiling::X),
    ] {
        let mut d = base;
        d.gen = gen;
        d.tiling = t;
        assert!(
            matches!(err(d), LayoutError::TilingNotAllowed { tiling, .. } if tiling == t),
            "{gen} {t}"
        );
    }
    // The message names the sample count and the reason.
    let e = err(base.levels(2)).to_string();
    assert!(e.contains("4 samples") && e.contains("one level"), "{e}");
}

#[test]
fn sample_address_errors() {
    let s = surf(
        SurfaceDesc::new(Gen::Gfx11, SurfDim::D2, Format::R16G16_UNORM, Tiling::Y)
            .extent(8, 8, 1)
            .array_len(3)
            .samples(8),
    );
    assert_eq!(
        s.sample_offset(0, 0, 0, 8, 0, NO),
        Err(SampleAddressError::SampleOutOfRange {
            sample: 8,
            samples: 8
        })
    );
    assert_eq!(
        s.sample_offset(0, 0, 3, 0, 0, NO),
        Err(SampleAddressError::Address(AddressError::LayerOutOfRange {
            layer: 3,
            layers: 3
        }))
    );
    assert_eq!(
        s.sample_offset(0, 0, 0, 0, 1, NO),
        Err(SampleAddressError::Address(AddressError::LevelOutOfRange {
            level: 1,
            levels: 1
        }))
    );
    assert!(matches!(
        s.sample_offset(8, 0, 0, 0, 0, NO),
        Err(SampleAddressError::Address(
            AddressError::XOutOfRange { .. }
        ))
    ));
    assert!(matches!(
        s.sample_byte_offset(0, 0, 0, 0, 0, 4, NO),
        Err(SampleAddressError::Address(
            AddressError::ByteOutOfRange { .. }
        ))
    ));
    assert!(matches!(
        s.sample_offset(0, 0, 0, 0, 0, Bit6Swizzle::Enabled),
        Err(SampleAddressError::Address(
            AddressError::SwizzleUnsupported { .. }
        ))
    ));
    assert!(matches!(
        s.sample_offset(0, 0, u32::MAX, u32::MAX, 0, NO),
        Err(SampleAddressError::SampleOutOfRange { .. })
    ));
    // The view's layers are logical: 3 layers, not 24 slots.
    let v = ImageView {
        base_layer: 2,
        layer_count: 2,
        ..ImageView::level(&s, 0)
    };
    assert!(matches!(
        fill_image_param(&s, &v, NO),
        Err(ParamError::LayersOutOfRange { available: 3, .. })
    ));
}

// ---- Properties -----------------------------------------------------------------------

const FORMATS: [Format; 10] = [
    Format::R8_UINT,
    Format::R8G8_UNORM,
    Format::R16_FLOAT,
    Format::R8G8B8A8_UNORM,
    Format::R32_FLOAT,
    Format::R16G16B16A16_SNORM,
    Format::R32G32_UINT,
    Format::R32G32B32_FLOAT,
    Format::R32G32B32A32_FLOAT,
    Format::R10G10B10A2_UNORM,
];

/// A random multisampled surface with a padded row pitch: `gens` restricts the
/// generation, `samples_in_tile` the tilings to those whose tile holds several samples
/// (Ys, Tile64).
fn msaa_surface(g: &mut QcGen, gens: &[Gen], samples_in_tile: bool) -> Option<SurfaceDesc> {
    let below = |g: &mut QcGen, n: u32| u32::arbitrary(g) % n;
    let gen = *g.choose(gens)?;
    let format = *g.choose(&FORMATS)?;
    let counts: &[u32] = match gen.ver() {
        7 => &[4, 8],
        8 => &[2, 4, 8],
        _ => &[2, 4, 8, 16],
    };
    let samples = *g.choose(counts)?;
    let usage = *g.choose(&[
        Usage::TEXTURE,
        Usage::STORAGE,
        Usage::RENDER_TARGET | Usage::TEXTURE,
    ])?;
    let tilings: Vec<Tiling> = allowed_tilings(gen, format, SurfDim::D2, usage, samples)
        .into_iter()
        .filter(|&t| !samples_in_tile || matches!(t, Tiling::Ys | Tiling::Tile64))
        .collect();
    let tiling = *g.choose(&tilings)?;
    let desc = SurfaceDesc::new(gen, SurfDim::D2, format, tiling)
        .extent(1 + below(g, 24), 1 + below(g, 24), 1)
        .array_len(1 + below(g, 3))
        .samples(samples)
        .usage(usage);
    let min = Surface::new(desc).ok()?;
    let step = min.tile_phys_width_B();
    Some(desc.row_pitch(min.row_pitch_B() + below(g, 3) * step))
}

/// A random multisampled surface of any accepted tiling, a view of it and a swizzle
/// setting the generation allows.
#[derive(Clone, Debug)]
struct MsaaParamCase {
    desc: SurfaceDesc,
    view: ImageView,
    swizzle: Bit6Swizzle,
}

/// Every generation with multisampled surfaces in the array layout, one per tiling
/// variant (Y: Gfx7–12; SKL_Ys: Gfx9; ICL_Ys: Gfx11–12; Tile64: Gfx12.5; Tile64 Xe2:
/// Gfx20).
const PARAM_GENS: &[Gen] = Gen::ALL.split_at(3).1;

impl Arbitrary for MsaaParamCase {
    fn arbitrary(g: &mut QcGen) -> MsaaParamCase {
        loop {
            // Half the cases take a tiling with samples in the tile.
            let samples_in_tile = bool::arbitrary(g);
            let Some(desc) = msaa_surface(g, PARAM_GENS, samples_in_tile) else {
                continue;
            };
            let layers = desc.array_len;
            let base = u32::arbitrary(g) % layers;
            let count = 1 + u32::arbitrary(g) % (layers - base);
            let swizzle =
                Bit6Swizzle::from_has_bit6_swizzling(desc.gen.ver() < 8 && bool::arbitrary(g));
            return MsaaParamCase {
                desc,
                view: ImageView {
                    base_level: 0,
                    base_layer: base,
                    layer_count: count,
                    format: desc.format,
                },
                swizzle,
            };
        }
    }
}

fn msaa_param_matches(case: MsaaParamCase) -> TestResult {
    let s = match Surface::new(case.desc) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{case:?}: {e}")),
    };
    let p = match fill_image_param(&s, &case.view, case.swizzle) {
        Ok(p) => p,
        Err(e) => return TestResult::error(format!("{case:?}: {e}")),
    };
    // The shader reads the dwords, SAMPLES included.
    let p = ImageParam::from_dwords(&p.to_dwords());
    let n = p.slot(slot::SAMPLES)[0];
    if n != s.samples() || p.size[2] != case.view.layer_count {
        return TestResult::error(format!("{case:?}: SAMPLES {n}, SIZE {:?}", p.size));
    }
    // Where z' goes: folded into rows for Y (one sample per tile), the R fields and
    // slabs when the tile holds samples.
    let tile_a = s.tile_logical_extent_el().a;
    let slab_shape = if tile_a > 1 {
        p.stride[3] == 0 && p.slab_shift == tile_a.trailing_zeros() && p.r_fields[0].width > 0
    } else {
        p.stride[3] == s.array_pitch_el_rows() && p.slab_stride_B == 0 && p.r_fields[0].width == 0
    };
    if !slab_shape {
        return TestResult::error(format!("{case:?}: unexpected block shape {p:?}"));
    }
    let dwords = p.to_dwords();
    let e = s.level_extent_el(0);
    // Mesa's formula (slots 0-4) only describes Y among the MSAA tilings.
    let mesa = s.format().is_pow2_bpb() && s.tiling() == Tiling::Y;
    for l in 0..case.view.layer_count {
        for smp in 0..n {
            let z = l * n + smp;
            for y in 0..e.h {
                for x in 0..e.w {
                    let want =
                        match s.sample_offset(x, y, case.view.base_layer + l, smp, 0, case.swizzle)
                        {
                            Ok(o) => o,
                            Err(err) => return TestResult::error(format!("{case:?}: {err}")),
                        };
                    let got = p.texel_address(x, y, z);
                    let dw = block_formula_address(&dwords, x, y, z);
                    if got as u64 != want || dw as u64 != want {
                        return TestResult::error(format!(
                            "{case:?}: ({x},{y}) layer {l} sample {smp}: formula {got}, \
                             dwords {dw}, sample_offset {want}"
                        ));
                    }
                    // Mesa's formula over slots 0-4 (Y, OFFSET.z = 0) agrees as well.
                    let m = mesa_image_address(&p, &[x, y, z], case.swizzle.is_enabled());
                    if mesa && m as u64 != want {
                        return TestResult::error(format!(
                            "{case:?}: ({x},{y}) layer {l} sample {smp}: Mesa {m}, \
                             sample_offset {want}"
                        ));
                    }
                    if !p.in_bounds(&[x, y, l]) {
                        return TestResult::error(format!("{case:?}: ({x},{y},{l}) bounds"));
                    }
                }
            }
        }
    }
    TestResult::passed()
}

#[test]
fn msaa_param_formula_equals_sample_offset() {
    quickcheck(100, 0x5eed_0a01, 300)
        .quickcheck(msaa_param_matches as fn(MsaaParamCase) -> TestResult);
}

/// A random multisampled surface of any accepted tiling.
#[derive(Clone, Debug)]
struct MsaaLayoutCase {
    desc: SurfaceDesc,
}

const LAYOUT_GENS: &[Gen] = PARAM_GENS;

impl Arbitrary for MsaaLayoutCase {
    fn arbitrary(g: &mut QcGen) -> MsaaLayoutCase {
        loop {
            // Half the cases take a tiling with samples in the tile when there is one.
            let desc = if bool::arbitrary(g) {
                msaa_surface(g, LAYOUT_GENS, false)
                    .filter(|d| matches!(d.tiling, Tiling::Ys | Tiling::Tile64))
            } else {
                msaa_surface(g, LAYOUT_GENS, false)
            };
            if let Some(desc) = desc {
                return MsaaLayoutCase { desc };
            }
        }
    }
}

fn align(n: u64, a: u64) -> u64 {
    n.div_ceil(a) * a
}

fn msaa_layout_matches(case: MsaaLayoutCase) -> TestResult {
    let d = case.desc;
    let s = match Surface::new(d) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{d:?}: {e}")),
    };
    let isl = d.tiling.isl(d.gen).unwrap();
    let Some(m) = Model::new(isl, SurfDim::D2, d.format.bpb(), d.samples) else {
        return TestResult::error(format!("{d:?}: the model has no {isl} layout"));
    };
    let std = d.tiling.is_std();
    let slots = d.array_len * d.samples;
    // isl: one level and no mip tail, so slice 0 is the unpadded level 0 and the compact
    // qpitch is its height aligned to VALIGN: 4 for MSAA Y (Gfx7 needs VALIGN_4 for
    // MSAA, Gfx8+ has 4), the tile height for Ys and Tile64.
    let valign = if std { m.h } else { 4 };
    let qpitch = align(d.height as u64, valign as u64);
    let cpp = d.format.cpp() as u64;
    let pitch = s.row_pitch_B() as u64;
    let tile_w = if std { m.w_b } else { 128 };
    let min_pitch = align(d.width as u64 * cpp, tile_w as u64);
    let tile_rows = if std {
        (slots.div_ceil(m.a) as u64 - 1) * (qpitch / m.h as u64)
            + (d.height as u64).div_ceil(m.h as u64)
    } else {
        (qpitch * (slots as u64 - 1) + d.height as u64).div_ceil(32)
    };
    let size = tile_rows * pitch * (m.size() as u64 / tile_w as u64);
    if s.array_pitch_el_rows() as u64 != qpitch
        || pitch < min_pitch
        || !pitch.is_multiple_of(tile_w as u64)
        || s.size_B() != size
    {
        return TestResult::error(format!(
            "{d:?}: qpitch {} (want {qpitch}), pitch {pitch} (min {min_pitch}), size {} \
             (want {size})",
            s.array_pitch_el_rows(),
            s.size_B()
        ));
    }
    // fill_image_param describes every accepted tiling: the R fields carry the in-tile
    // sample exactly when the model's tile holds several samples.
    match fill_image_param(&s, &ImageView::level(&s, 0), NO) {
        Ok(p) if (p.r_fields[0].width > 0) == (m.a > 1) => {}
        r => return TestResult::error(format!("{d:?}: tile a {}, block {r:?}", m.a)),
    }
    let mut seen = std::collections::HashSet::new();
    for l in 0..d.array_len {
        for smp in 0..d.samples {
            let slot = l * d.samples + smp;
            for y in 0..d.height {
                for x in 0..d.width {
                    for (i, byte) in [0, d.format.cpp() - 1].into_iter().enumerate() {
                        let got = match s.sample_byte_offset(x, y, l, smp, 0, byte, NO) {
                            Ok(o) => o,
                            Err(e) => return TestResult::error(format!("{d:?}: {e}")),
                        };
                        let x_b = x * d.format.cpp() + byte;
                        // Legacy tilings fold the slot into rows; the standard ones keep
                        // it as an array slot (docs/hardware/surface-layout.md §4).
                        let want = if std {
                            m.address(pitch as u32, qpitch as u32, x_b, y, 0, slot)
                        } else {
                            m.address(pitch as u32, 0, x_b, slot * qpitch as u32 + y, 0, 0)
                        };
                        if got != want || got >= size || (i == 0 && !seen.insert(got)) {
                            return TestResult::error(format!(
                                "{d:?}: ({x},{y}) layer {l} sample {smp} byte {byte}: \
                                 crate {got}, model {want}, size {size}"
                            ));
                        }
                    }
                }
            }
        }
    }
    TestResult::passed()
}

#[test]
fn msaa_layouts_agree_with_the_model() {
    quickcheck(100, 0x5eed_0a02, 300)
        .quickcheck(msaa_layout_matches as fn(MsaaLayoutCase) -> TestResult);
}

#[test]
fn msaa_layout_cases_cover_every_msaa_tiling() {
    // Replays the property's generator: its fixed-seed cases reach Y, SKL_Ys, ICL_Ys and
    // both Tile64 variants, with every sample count.
    let mut g = QcGen::from_size_and_seed(100, 0x5eed_0a02);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..300 {
        let d = MsaaLayoutCase::arbitrary(&mut g).desc;
        seen.insert((d.tiling.isl(d.gen).unwrap(), d.samples));
    }
    use crate::tile::IslTiling::*;
    for isl in [Y0, SklYs, IclYs, Tile64, Tile64Xe2] {
        for samples in [2, 4, 8, 16] {
            assert!(seen.contains(&(isl, samples)), "{isl} {samples}x");
        }
    }
}

#[test]
fn msaa_param_cases_cover_every_msaa_tiling() {
    // Replays the parameter property's generator: its fixed-seed cases reach every
    // multisampled tiling variant with every sample count, and views not starting at
    // layer 0.
    let mut g = QcGen::from_size_and_seed(100, 0x5eed_0a01);
    let mut seen = std::collections::HashSet::new();
    let mut offset_views = 0;
    for _ in 0..300 {
        let c = MsaaParamCase::arbitrary(&mut g);
        seen.insert((c.desc.tiling.isl(c.desc.gen).unwrap(), c.desc.samples));
        offset_views += u32::from(c.view.base_layer > 0);
    }
    use crate::tile::IslTiling::*;
    for isl in [Y0, SklYs, IclYs, Tile64, Tile64Xe2] {
        for samples in [2, 4, 8, 16] {
            assert!(seen.contains(&(isl, samples)), "{isl} {samples}x");
        }
    }
    assert!(offset_views > 20, "{offset_views}");
}

// ---- Tilings and field counts of multisampled storage images -------------------------

#[test]
fn multisampled_tilings_follow_isl_filters() {
    use Tiling::*;
    let rgba8 = Format::R8G8B8A8_UNORM;
    // Gfx7-8: isl_gfx7.c's Gfx6+ filter drops linear and X for MSAA; W is stencil only.
    assert_eq!(multisampled_tilings(Gen::Gfx7, rgba8, 4), vec![Y]);
    assert_eq!(multisampled_tilings(Gen::Gfx75, rgba8, 8), vec![Y]);
    assert_eq!(multisampled_tilings(Gen::Gfx8, rgba8, 2), vec![Y]);
    // Gfx9-12: the same filter also drops Yf for MSAA, Ys stays.
    for gen in [Gen::Gfx9, Gen::Gfx11, Gen::Gfx12] {
        for samples in [2, 4, 8, 16] {
            assert_eq!(
                multisampled_tilings(gen, rgba8, samples),
                vec![Y, Ys],
                "{gen} {samples}x"
            );
        }
    }
    // Gfx12.5 and Xe2: isl_gfx12.c's (and isl_gfx20.c's) filter keeps only Tile64.
    for gen in [Gen::Gfx125, Gen::Gfx20] {
        for samples in [2, 4, 8, 16] {
            assert_eq!(multisampled_tilings(gen, rgba8, samples), vec![Tile64]);
        }
        // Tile64 is not defined for 96-bit elements: no MSAA tiling at all.
        assert_eq!(
            multisampled_tilings(gen, Format::R32G32B32_FLOAT, 4),
            vec![]
        );
    }
    // Refused sample counts and generations give nothing.
    assert_eq!(multisampled_tilings(Gen::Gfx7, rgba8, 2), vec![]);
    assert_eq!(multisampled_tilings(Gen::Gfx8, rgba8, 16), vec![]);
    assert_eq!(multisampled_tilings(Gen::Gfx6, rgba8, 4), vec![]);
    assert_eq!(multisampled_tilings(Gen::Gfx9, rgba8, 3), vec![]);
    assert_eq!(
        multisampled_tilings(Gen::Gfx9, Format::BC1_UNORM, 4),
        vec![]
    );
    // IVB cannot multisample R32G32B32_FLOAT (VALIGN_2), Haswell can.
    assert_eq!(
        multisampled_tilings(Gen::Gfx7, Format::R32G32B32_FLOAT, 4),
        vec![]
    );
    assert_eq!(
        multisampled_tilings(Gen::Gfx75, Format::R32G32B32_FLOAT, 4),
        vec![Y]
    );
    // One sample: the single-sampled 2D storage tilings.
    for gen in Gen::ALL {
        assert_eq!(
            multisampled_tilings(gen, rgba8, 1),
            storage_tilings(gen, rgba8, SurfDim::D2)
        );
    }
    // Every listed tiling lays out a multisampled storage surface and fills a block.
    for gen in Gen::ALL {
        for &f in Format::ALL.iter().filter(|f| f.is_storage_image_format()) {
            for samples in [2, 4, 8, 16] {
                for t in multisampled_tilings(gen, f, samples) {
                    let d = SurfaceDesc::new(gen, SurfDim::D2, f, t)
                        .extent(5, 3, 1)
                        .array_len(2)
                        .samples(samples)
                        .usage(Usage::STORAGE);
                    let s = Surface::new(d).unwrap_or_else(|e| panic!("{d:?}: {e}"));
                    let p = fill_image_param(&s, &ImageView::level(&s, 0), NO);
                    assert!(p.is_ok(), "{d:?}: {p:?}");
                }
            }
        }
    }
}

#[test]
fn multisampled_field_counts() {
    // SKL RGBA8 4x: Y has U 2, V 1; SKL_Ys 4x (see skl_ys_4x_... for the 32 bpb
    // pattern) has U 6, V 4 and the 2 sample bits in one R field.
    assert_eq!(
        max_multisampled_address_fields(Gen::Gfx9, Format::R32_UINT, 4),
        FieldCounts { u: 6, v: 4, r: 1 }
    );
    // DG2 R32_FLOAT 8x: the Tile64 4x tile of dg2_tile64_8x_...: U 5, V 3, R 1.
    assert_eq!(
        max_multisampled_address_fields(Gen::Gfx125, Format::R32_FLOAT, 8),
        FieldCounts { u: 5, v: 3, r: 1 }
    );
    // Y keeps no sample bits: no R fields on Gfx8.
    assert_eq!(
        max_multisampled_address_fields(Gen::Gfx8, Format::R32_FLOAT, 4),
        FieldCounts { u: 2, v: 1, r: 0 }
    );
    // Nothing to address without a tiling.
    assert_eq!(
        max_multisampled_address_fields(Gen::Gfx6, Format::R32_FLOAT, 4),
        FieldCounts::default()
    );
    // The single-sampled counts never see sample fields.
    assert_eq!(
        max_address_fields(Gen::Gfx125, Format::R32_FLOAT, SurfDim::D2).r,
        0
    );
}

#[test]
fn every_tile_fits_the_field_slots() {
    // fill_image_param returns TooManyFields rather than drop a field; no tile of any
    // tiling, dimensionality, element size and sample count needs more than the 8 slots
    // per coordinate (U counts the tile column field).
    use crate::tile::{Coord, IslTiling, TileInfo};
    let n = slot::FIELDS_PER_AXIS as usize;
    let mut most = [0usize; 4];
    for isl in [
        IslTiling::Linear,
        IslTiling::X,
        IslTiling::Y0,
        IslTiling::W,
        IslTiling::SklYf,
        IslTiling::SklYs,
        IslTiling::IclYf,
        IslTiling::IclYs,
        IslTiling::Tile4,
        IslTiling::Tile64,
        IslTiling::Tile64Xe2,
    ] {
        for dim in SurfDim::ALL {
            for bpb in [8, 16, 24, 32, 48, 64, 96, 128] {
                for samples in [1, 2, 4, 8, 16] {
                    let Ok(t) = TileInfo::from_isl(isl, dim, bpb, samples) else {
                        continue;
                    };
                    for (i, c) in [Coord::U, Coord::V, Coord::R, Coord::S]
                        .into_iter()
                        .enumerate()
                    {
                        let k = t.address_fields(c).len();
                        assert!(k <= n, "{isl} {dim} {bpb} {samples}x {c:?}: {k}");
                        most[i] = most[i].max(k);
                    }
                }
            }
        }
    }
    // The most over all tiles, U, V, R, S: the variant's docs say "no more than 6"
    // (SKL_Ys 4x 32 bpb has 6 U fields; in-tile samples are always one field).
    assert_eq!(most, [6, 5, 4, 1]);
}
