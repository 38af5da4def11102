//! Surface layouts against docs/hardware/surface-layout.md §7.10, §8.1 (A1, A2, A3 and the historical
//! intra-tile values) and the whole-surface rows of §9.

use crate::dim::SurfDim;
use crate::dim_layout::DimLayout;
use crate::format::Format;
use crate::generation::Gen;
use crate::msaa::MsaaRefusal;
use crate::surface::{AddressError, LayoutError, Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::{TileError, Tiling};
use crate::usage::Usage;

fn surf(desc: SurfaceDesc) -> Surface {
    match Surface::new(desc) {
        Ok(s) => s,
        Err(e) => panic!("{desc:?}: {e}"),
    }
}

fn xy(s: &Surface, level: u32, layer: u32) -> (u32, u32) {
    let o = s.image_offset_el(level, layer).unwrap();
    (o.x_el, o.y_el)
}

/// BDW GT2, R8G8B8A8_UNORM, TEXTURE | DISABLE_AUX, Y0.
fn bdw_rgba8_y(dim: SurfDim, w: u32, h: u32, d: u32, levels: u32, layers: u32) -> Surface {
    surf(
        SurfaceDesc::new(Gen::Gfx8, dim, Format::R8G8B8A8_UNORM, Tiling::Y)
            .extent(w, h, d)
            .levels(levels)
            .array_len(layers),
    )
}

#[test]
fn a1_bdw_512_mip_chain() {
    let s = bdw_rgba8_y(SurfDim::D2, 512, 512, 1, 10, 1);
    assert_eq!((s.halign_el(), s.valign_el()), (4, 4));
    assert_eq!(s.row_pitch_B(), 2048);
    let l0 = s.phys_level0_sa();
    assert_eq!((l0.w, l0.h, l0.d, l0.a), (512, 512, 1, 1));
    assert_eq!(s.array_pitch_el_rows(), 772);
    let want = [
        (0, 0),
        (0, 512),
        (256, 512),
        (256, 640),
        (256, 704),
        (256, 736),
        (256, 752),
        (256, 760),
        (256, 764),
        (256, 768),
    ];
    for (level, w) in want.into_iter().enumerate() {
        assert_eq!(xy(&s, level as u32, 0), w, "level {level}");
    }
    // Historical intra-tile values: (tile base, y remainder), x remainder 0. A Y tile
    // stores row v of the first 16-byte column at v * 16.
    let bases = [
        0x0, 0x100000, 0x108000, 0x148000, 0x168000, 0x178000, 0x178000, 0x178000, 0x178000,
        0x188000,
    ];
    let yrem = [0, 0, 0, 0, 0, 0, 16, 24, 28, 0];
    for level in 0..10 {
        let off = s.texel_offset(0, 0, 0, level, Bit6Swizzle::None).unwrap();
        assert_eq!(
            off,
            bases[level as usize] + yrem[level as usize] * 16,
            "level {level}"
        );
    }
}

#[test]
fn a2_bdw_1024_array() {
    let s = bdw_rgba8_y(SurfDim::D2, 1024, 1024, 1, 11, 6);
    assert_eq!(s.row_pitch_B(), 4096);
    assert_eq!(s.array_pitch_el_rows(), 1540);
    let x = [0, 0, 512, 512, 512, 512, 512, 512, 512, 512, 512];
    let y = [
        0, 1024, 1024, 1280, 1408, 1472, 1504, 1520, 1528, 1532, 1536,
    ];
    for a in 0..6 {
        for l in 0..11 {
            assert_eq!(
                xy(&s, l, a),
                (x[l as usize], y[l as usize] + a * 1540),
                "l{l} a{a}"
            );
        }
    }
    let hist = [
        ((0, 0), 0x0, 0),
        ((0, 1), 0x600000, 4),
        ((0, 2), 0xc00000, 8),
        ((1, 0), 0x400000, 0),
        ((6, 0), 0x5f0000, 0),
        ((7, 0), 0x5f0000, 16),
        ((8, 2), 0x1210000, 0),
        ((9, 1), 0xc10000, 0),
        ((10, 0), 0x610000, 0),
        ((10, 2), 0x1210000, 8),
    ];
    for ((level, layer), base, yr) in hist {
        let off = s
            .texel_offset(0, 0, layer, level, Bit6Swizzle::None)
            .unwrap();
        assert_eq!(off, base + yr * 16, "({level},{layer})");
    }
}

#[test]
fn a3_bdw_256_cubed_3d() {
    let s = bdw_rgba8_y(SurfDim::D3, 256, 256, 256, 9, 1);
    assert_eq!(s.dim_layout(), DimLayout::GFX4_3D);
    assert_eq!(s.row_pitch_B(), 1024);
    assert_eq!(s.phys_total_el().h, 74916);
    // (aligned w = h, depth, base_y) per level.
    let table = [
        (256, 256, 0),
        (128, 128, 65536),
        (64, 64, 73728),
        (32, 32, 74752),
        (16, 16, 74880),
        (8, 8, 74896),
        (4, 4, 74904),
        (4, 2, 74908),
        (4, 1, 74912),
    ];
    for (l, (aw, depth, base_y)) in table.into_iter().enumerate() {
        let horiz = 1u32 << l;
        for z in 0..depth {
            assert_eq!(
                xy(&s, l as u32, z),
                (aw * (z % horiz), base_y + aw * (z / horiz)),
                "l{l} z{z}"
            );
        }
        assert!(s.image_offset_el(l as u32, depth).is_err());
    }
    assert_eq!(xy(&s, 2, 5), (64, 73792));
}

#[test]
fn section_9_whole_surface_vectors() {
    // BDW RGBA8 3D 256^3, Y0, pitch 1024: L2 z=5 texel (10,20).
    let s = bdw_rgba8_y(SurfDim::D3, 256, 256, 256, 9, 1);
    assert_eq!(
        s.texel_offset(10, 20, 5, 2, Bit6Swizzle::None),
        Ok(75572552)
    );

    // DG2 RGBA8 3D 16x16x8, 4 levels, Tile4.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx125,
            SurfDim::D3,
            Format::R8G8B8A8_UNORM,
            Tiling::Tile4,
        )
        .extent(16, 16, 8)
        .levels(4),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (8, 4));
    assert_eq!((s.row_pitch_B(), s.array_pitch_el_rows()), (128, 32));
    for (level, z, (x, y), origin, want) in [
        (0, 4, (15, 7), (0, 128), 16892),
        (1, 2, (7, 4), (0, 80), 10572),
        (2, 1, (0, 1), (8, 48), 6288),
        (3, 0, (1, 0), (8, 20), 2436),
    ] {
        assert_eq!(xy(&s, level, z), origin, "L{level}");
        assert_eq!(
            s.texel_offset(x, y, z, level, Bit6Swizzle::None),
            Ok(want),
            "L{level}"
        );
    }

    // Xe2 RGBA8 2D 256x128, 3 layers, Tile64_XE2.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx20,
            SurfDim::D2,
            Format::R8G8B8A8_UNORM,
            Tiling::Tile64,
        )
        .extent(256, 128, 1)
        .array_len(3),
    );
    assert_eq!((s.row_pitch_B(), s.array_pitch_el_rows()), (1024, 128));
    assert_eq!(s.texel_offset(202, 99, 0, 0, Bit6Swizzle::None), Ok(123064));
    let o = s.image_offset_el(0, 2).unwrap();
    assert_eq!((o.x_el, o.y_el, o.array_offset), (0, 0, 2));
    assert_eq!(s.texel_offset(195, 99, 2, 0, Bit6Swizzle::None), Ok(385084));

    // DG2 RGBA16 3D 33x1x8, 5 levels, Tile64: tail from L1.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx125,
            SurfDim::D3,
            Format::R16G16B16A16_UNORM,
            Tiling::Tile64,
        )
        .extent(33, 1, 8)
        .levels(5),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (32, 16));
    assert_eq!((s.row_pitch_B(), s.array_pitch_el_rows()), (512, 32));
    assert_eq!(s.miptail_start_level(), 1);
    assert_eq!(s.miptail_first_level(), Some(1));
    for (level, z, x, origin, want) in [
        (0, 7, 21, (0, 0), 22152),
        (1, 3, 13, (16, 16), 138888),
        (2, 1, 4, (0, 24), 140416),
    ] {
        assert_eq!(xy(&s, level, z), origin, "L{level}");
        assert_eq!(
            s.texel_offset(x, 0, z, level, Bit6Swizzle::None),
            Ok(want),
            "L{level}"
        );
    }

    // Xe2 RGBA16 3D 64x1x5, Tile64_XE2.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx20,
            SurfDim::D3,
            Format::R16G16B16A16_UNORM,
            Tiling::Tile64,
        )
        .extent(64, 1, 5),
    );
    assert_eq!(s.row_pitch_B(), 512);
    assert_eq!(s.texel_offset(25, 0, 4, 0, Bit6Swizzle::None), Ok(22536));

    // SKL RGBA16 2D 256x5, 2 layers, 9 levels, Ys: tail from L2.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx9,
            SurfDim::D2,
            Format::R16G16B16A16_UNORM,
            Tiling::Ys,
        )
        .extent(256, 5, 1)
        .levels(9)
        .array_len(2),
    );
    assert_eq!((s.halign_el(), s.valign_el()), (128, 64));
    assert_eq!((s.row_pitch_B(), s.array_pitch_el_rows()), (2048, 128));
    assert_eq!(s.miptail_start_level(), 2);
    assert_eq!(s.miptail_first_level(), Some(2));
    let o = s.image_offset_el(2, 1).unwrap();
    assert_eq!((o.x_el, o.y_el, o.array_offset), (192, 64, 1));
    assert_eq!(s.texel_offset(38, 0, 1, 2, Bit6Swizzle::None), Ok(499904));
    assert_eq!(xy(&s, 8, 0), (128, 76));
    assert_eq!(s.texel_offset(0, 0, 0, 8, Bit6Swizzle::None), Ok(197888));
}

#[test]
fn section_7_10_skl_ys_tail_example() {
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Ys)
            .extent(64, 64, 1)
            .levels(7),
    );
    assert_eq!(s.miptail_start_level(), 0);
    assert_eq!(s.miptail_first_level(), Some(0));
    assert_eq!(xy(&s, 5, 0), (8, 16));
}

/// Without a tail, isl's `miptail_start_level` is the level count
/// (`isl_choose_miptail_start_level` returns `info->levels`), whether the tiling has no
/// tail at all or the levels never shrink into one.
#[test]
fn miptail_start_level_without_a_tail_is_the_level_count() {
    // Y, Tile4 and linear have no mip tail (isl's `tiling_max_mip_tail` is 0).
    let s = bdw_rgba8_y(SurfDim::D2, 512, 512, 1, 10, 1);
    assert_eq!(
        (s.miptail_start_level(), s.miptail_first_level()),
        (10, None)
    );
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx125,
            SurfDim::D3,
            Format::R8G8B8A8_UNORM,
            Tiling::Tile4,
        )
        .extent(16, 16, 8)
        .levels(4),
    );
    assert_eq!(
        (s.miptail_start_level(), s.miptail_first_level()),
        (4, None)
    );
    let s = surf(SurfaceDesc::new(
        Gen::Gfx9,
        SurfDim::D2,
        Format::R8_UNORM,
        Tiling::Linear,
    ));
    assert_eq!(
        (s.miptail_start_level(), s.miptail_first_level()),
        (1, None)
    );
    // SKL Ys, 32 bpb, 2D: the tile is 128x128 elements and tail slot 0 starts at
    // (64, 0) (SKL 2D table, row 0, 32 bpb), leaving 64x128. Levels 0 and 1 of a
    // 1024-wide surface (1024, 512) never fit, so there is no tail.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Ys)
            .extent(1024, 1024, 1)
            .levels(2),
    );
    assert_eq!(
        (s.miptail_start_level(), s.miptail_first_level()),
        (2, None)
    );
    // The same surface with 5 levels: level 4 is 64 wide and 64 high, which fits.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Ys)
            .extent(1024, 1024, 1)
            .levels(5),
    );
    assert_eq!(
        (s.miptail_start_level(), s.miptail_first_level()),
        (4, Some(4))
    );
}

#[test]
fn image_lowering_surfaces() {
    // docs/hardware/mesa-storage-images.md §6: IVB RGBA32F X, pitch 4096; IVB RG32F Y, pitch 1024;
    // linear RGBA32F, pitch 1600.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx7,
            SurfDim::D2,
            Format::R32G32B32A32_FLOAT,
            Tiling::X,
        )
        .extent(256, 8, 1)
        .usage(Usage::STORAGE),
    );
    assert_eq!(s.row_pitch_B(), 4096);
    assert_eq!(s.texel_offset(40, 2, 0, 0, Bit6Swizzle::Enabled), Ok(5312));
    assert_eq!(s.texel_offset(40, 2, 0, 0, Bit6Swizzle::None), Ok(5248));
    assert_eq!(s.texel_offset(70, 1, 0, 0, Bit6Swizzle::Enabled), Ok(8736));
    assert_eq!(s.texel_offset(70, 1, 0, 0, Bit6Swizzle::None), Ok(8800));
    let s = surf(
        SurfaceDesc::new(Gen::Gfx7, SurfDim::D2, Format::R32G32_FLOAT, Tiling::Y)
            .extent(128, 8, 1)
            .usage(Usage::STORAGE),
    );
    assert_eq!(s.row_pitch_B(), 1024);
    assert_eq!(s.texel_offset(22, 3, 0, 0, Bit6Swizzle::Enabled), Ok(5744));
    assert_eq!(s.texel_offset(22, 3, 0, 0, Bit6Swizzle::None), Ok(5680));
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx9,
            SurfDim::D2,
            Format::R32G32B32A32_FLOAT,
            Tiling::Linear,
        )
        .extent(100, 4, 1)
        .usage(Usage::STORAGE),
    );
    assert_eq!(s.row_pitch_B(), 1600);
    assert_eq!(s.texel_offset(7, 3, 0, 0, Bit6Swizzle::None), Ok(4912));
    // BDW 2D RGBA8 512^2: level 0 (100,37), level 3 (5,7), and texel (3,4) of layer 1 of
    // level 0 of a 2-layer array ("params as row 1", i.e. OFFSET (0,0)).
    let s = bdw_rgba8_y(SurfDim::D2, 512, 512, 1, 10, 1);
    assert_eq!(s.texel_offset(100, 37, 0, 0, Bit6Swizzle::None), Ok(78416));
    assert_eq!(s.texel_offset(5, 7, 0, 3, Bit6Swizzle::None), Ok(1344116));
    let s = bdw_rgba8_y(SurfDim::D2, 512, 512, 1, 10, 2);
    assert_eq!(s.array_pitch_el_rows(), 772);
    assert_eq!(s.texel_offset(3, 4, 1, 0, Bit6Swizzle::None), Ok(1573004));
}

#[test]
fn typed_errors() {
    let base = SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Y)
        .extent(16, 16, 1);
    let err = |d: SurfaceDesc| Surface::new(d).unwrap_err();
    assert!(matches!(
        err(base.extent(0, 16, 1)),
        LayoutError::ZeroExtent { what: "width" }
    ));
    assert!(matches!(
        err(base.extent(16385, 16, 1)),
        LayoutError::ExtentTooLarge { what: "width", .. }
    ));
    assert!(matches!(
        err(base.levels(6)),
        LayoutError::TooManyLevels { levels: 6, max: 5 }
    ));
    let mut d3 = base.extent(16, 16, 4).array_len(2);
    d3.dim = SurfDim::D3;
    assert!(matches!(
        err(d3),
        LayoutError::MustBeOne {
            what: "array_len",
            ..
        }
    ));
    let mut w = base;
    w.tiling = Tiling::W;
    assert!(matches!(
        err(w),
        LayoutError::Tile(TileError::UnsupportedFormatSize { bpb: 32, .. })
    ));
    let mut t64 = base;
    t64.tiling = Tiling::Tile64;
    assert!(matches!(
        err(t64),
        LayoutError::Tile(TileError::UnsupportedOnGen { .. })
    ));
    let mut t4 = base;
    t4.tiling = Tiling::Tile4;
    assert!(matches!(
        err(t4),
        LayoutError::Tile(TileError::UnsupportedOnGen { .. })
    ));
    for t in [Tiling::Y, Tiling::W, Tiling::Yf, Tiling::Ys] {
        let mut d = base;
        d.gen = Gen::Gfx125;
        d.tiling = t;
        assert!(matches!(
            err(d),
            LayoutError::Tile(TileError::UnsupportedOnGen { .. })
        ));
    }
    let mut yf3d = base.extent(16, 16, 4).usage(Usage::STORAGE);
    yf3d.dim = SurfDim::D3;
    yf3d.tiling = Tiling::Ys;
    assert!(matches!(err(yf3d), LayoutError::TilingNotAllowed { .. }));
    yf3d.tiling = Tiling::Yf;
    yf3d.gen = Gen::Gfx12;
    assert!(matches!(err(yf3d), LayoutError::TilingNotAllowed { .. }));
    // Multisampled surfaces have one level (more refusals in msaa_vectors.rs).
    let ms = base.samples(4).levels(2);
    assert!(matches!(
        err(ms),
        LayoutError::Multisampled {
            samples: 4,
            reason: MsaaRefusal::Levels { levels: 2 }
        }
    ));
    assert!(matches!(
        err(base.usage(Usage::CUBE).array_len(4)),
        LayoutError::Cube { .. }
    ));
    assert!(matches!(
        err(base.row_pitch(100)),
        LayoutError::RowPitchTooSmall { .. }
    ));
    assert!(matches!(
        err(base.row_pitch(200)),
        LayoutError::RowPitchMisaligned { alignment: 128, .. }
    ));
    // Addresses out of range are errors, never wraps.
    let s = surf(base.levels(3).array_len(2));
    assert_eq!(
        s.texel_offset(8, 0, 0, 1, Bit6Swizzle::None),
        Err(AddressError::XOutOfRange {
            x: 8,
            width: 8,
            level: 1
        })
    );
    assert!(matches!(
        s.texel_offset(0, 4, 0, 2, Bit6Swizzle::None),
        Err(AddressError::YOutOfRange { .. })
    ));
    assert!(matches!(
        s.texel_offset(0, 0, 2, 0, Bit6Swizzle::None),
        Err(AddressError::LayerOutOfRange { .. })
    ));
    assert!(matches!(
        s.texel_offset(0, 0, 0, 3, Bit6Swizzle::None),
        Err(AddressError::LevelOutOfRange { .. })
    ));
    // Swizzling exists before Gfx8 only.
    assert!(matches!(
        s.texel_offset(0, 0, 0, 0, Bit6Swizzle::Enabled),
        Err(AddressError::SwizzleUnsupported { .. })
    ));
    for e in [
        err(base.extent(0, 16, 1)).to_string(),
        err(w).to_string(),
        err(yf3d).to_string(),
    ] {
        assert!(!e.is_empty());
    }
}

#[test]
fn one_d_and_cube_layouts() {
    // Gfx9+ linear 1D: levels side by side, one row per layer (§7.8).
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D1, Format::R32_UINT, Tiling::Linear)
            .extent(100, 1, 1)
            .levels(3)
            .array_len(4),
    );
    assert_eq!(s.dim_layout(), DimLayout::GFX9_1D);
    assert_eq!((s.halign_el(), s.valign_el()), (64, 1));
    assert_eq!(xy(&s, 1, 0), (128, 0));
    assert_eq!(xy(&s, 2, 3), (128 + 64, 3));
    assert_eq!(s.row_pitch_B(), (128 + 64 + 64) * 4);
    assert_eq!(s.size_B(), 256 * 4 * 4);
    // Cubes are 2D arrays with six layers per cube.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx12, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Y)
            .extent(32, 32, 1)
            .array_len(12)
            .usage(Usage::CUBE | Usage::TEXTURE),
    );
    assert_eq!(s.array_len(), 12);
    assert_eq!(xy(&s, 0, 7), (0, 7 * 32));
    // Gfx4 cubes use GFX4_3D: level 1 keeps six faces, two per row.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx4, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::X)
            .extent(8, 8, 1)
            .levels(2)
            .array_len(6)
            .usage(Usage::CUBE),
    );
    assert_eq!(s.dim_layout(), DimLayout::GFX4_3D);
    assert_eq!(xy(&s, 1, 3), (4, 6 * 8 + 4));
}

#[test]
fn gfx6_w_stencil_layout() {
    // §7.7: every LOD is H rows tall; LOD1 below LOD0, LOD2+ to the right.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx6, SurfDim::D2, Format::R8_UINT, Tiling::W)
            .extent(100, 30, 1)
            .levels(3)
            .array_len(2)
            .usage(Usage::STENCIL),
    );
    assert_eq!(s.dim_layout(), DimLayout::GFX6_STENCIL_HIZ);
    assert_eq!((s.halign_el(), s.valign_el()), (4, 2));
    let h = 30; // align(30, 2)
    assert_eq!(s.array_pitch_el_rows(), h);
    assert_eq!(xy(&s, 0, 1), (0, h));
    assert_eq!(xy(&s, 1, 0), (0, 64)); // align(30 * 2, 64)
    assert_eq!(xy(&s, 2, 1), (64, 64 + h)); // align(50, 64)
                                            // Pitch is twice the 64-wide W tile count: max(128, 64 + 64) wide -> 2 tiles.
    assert_eq!(s.row_pitch_B(), 256);
}
