//! Tile geometry against docs/hardware/surface-layout.md §3, §5, §8.2, §8.3 and the small-pitch rows of §9.
//! The independent closed forms of every layout live in `independent.rs`.

use quickcheck::TestResult;

use super::quickcheck;
use crate::dim::SurfDim;
use crate::generation::Gen;
use crate::swizzle::bit6_swizzle;
use crate::tile::{Coord, IslTiling, TileCoord, TileInfo, Tiling};

fn tile(t: Tiling, gen: Gen, dim: SurfDim, bpb: u32) -> TileInfo {
    TileInfo::new(t, gen, dim, bpb, 1).unwrap()
}

fn ext(t: &TileInfo) -> (u32, u32, u32, u32) {
    let e = t.logical_extent_el();
    (e.w, e.h, e.d, e.a)
}

#[test]
fn section_3_1_four_kb_tiles() {
    for bpb in [8, 16, 32, 64, 128] {
        let bpp = bpb / 8;
        let x = tile(Tiling::X, Gen::Gfx9, SurfDim::D2, bpb);
        assert_eq!(ext(&x), (512 / bpp, 8, 1, 1));
        assert_eq!(
            (x.phys_width_B(), x.phys_height(), x.size_B()),
            (512, 8, 4096)
        );
        for t in [
            tile(Tiling::Y, Gen::Gfx9, SurfDim::D2, bpb),
            tile(Tiling::Tile4, Gen::Gfx125, SurfDim::D2, bpb),
        ] {
            assert_eq!(ext(&t), (128 / bpp, 32, 1, 1));
            assert_eq!(
                (t.phys_width_B(), t.phys_height(), t.size_B()),
                (128, 32, 4096)
            );
        }
    }
    let w = tile(Tiling::W, Gen::Gfx8, SurfDim::D2, 8);
    assert_eq!(ext(&w), (64, 64, 1, 1));
    assert_eq!((w.phys_width_B(), w.phys_height()), (128, 32));
    let l = tile(Tiling::Linear, Gen::Gfx8, SurfDim::D2, 32);
    assert_eq!(ext(&l), (1, 1, 1, 1));
    assert_eq!((l.phys_width_B(), l.phys_height()), (4, 1));
}

#[test]
fn section_3_1_bpb_over_3() {
    // R32G32B32 uses the 32-bpb tile: 128 B x 32, 32 (tile) elements wide.
    for t in [
        tile(Tiling::Y, Gen::Gfx9, SurfDim::D2, 96),
        tile(Tiling::Tile4, Gen::Gfx125, SurfDim::D2, 96),
    ] {
        assert_eq!(t.format_bpb(), 32);
        assert_eq!(ext(&t), (32, 32, 1, 1));
        assert_eq!(t.logical_width_B(), 128);
    }
    let x24 = tile(Tiling::X, Gen::Gfx7, SurfDim::D2, 24);
    assert_eq!((x24.format_bpb(), x24.logical_width_B()), (8, 512));
    let x48 = tile(Tiling::X, Gen::Gfx7, SurfDim::D2, 48);
    assert_eq!((x48.format_bpb(), ext(&x48).0), (16, 256));
}

/// The §3.2 formulas, written independently of the pattern tables.
fn std_y_formula(ys: bool, dim: SurfDim, bpb: u32) -> (u32, u32, u32) {
    let ffs = bpb.trailing_zeros() as i32 + 1;
    let ys = ys as i32;
    let p = |e: i32| 1u32 << e;
    match dim {
        SurfDim::D3 => (
            p(4 - (ffs - 2) / 3 + 2 * ys),
            p(4 - (ffs - 4) / 3 + ys),
            p(4 - (ffs - 3) / 3 + ys),
        ),
        _ => (
            p(6 - (ffs - 4) / 2 + 2 * ys),
            p(6 - (ffs - 3) / 2 + 2 * ys),
            1,
        ),
    }
}

#[test]
fn section_3_2_yf_ys_extents() {
    // (tiling, bpb) -> (2D logical, 2D phys, 3D logical, 3D phys), from the §3.2 table.
    type Row = (
        bool,
        u32,
        (u32, u32),
        (u32, u32),
        (u32, u32, u32),
        (u32, u32),
    );
    let table: [Row; 10] = [
        (false, 8, (64, 64), (64, 64), (16, 16, 16), (16, 256)),
        (false, 16, (64, 32), (128, 32), (8, 16, 16), (16, 256)),
        (false, 32, (32, 32), (128, 32), (8, 16, 8), (32, 128)),
        (false, 64, (32, 16), (256, 16), (8, 8, 8), (64, 64)),
        (false, 128, (16, 16), (256, 16), (4, 8, 8), (64, 64)),
        (true, 8, (256, 256), (256, 256), (64, 32, 32), (64, 1024)),
        (true, 16, (256, 128), (512, 128), (32, 32, 32), (64, 1024)),
        (true, 32, (128, 128), (512, 128), (32, 32, 16), (128, 512)),
        (true, 64, (128, 64), (1024, 64), (32, 16, 16), (256, 256)),
        (true, 128, (64, 64), (1024, 64), (16, 16, 16), (256, 256)),
    ];
    for (ys, bpb, l2, p2, l3, p3) in table {
        let (yf_tiling, size) = if ys {
            ([IslTiling::SklYs, IslTiling::IclYs], 65536)
        } else {
            ([IslTiling::SklYf, IslTiling::IclYf], 4096)
        };
        for isl in yf_tiling {
            let t2 = TileInfo::from_isl(isl, SurfDim::D2, bpb, 1).unwrap();
            assert_eq!(ext(&t2), (l2.0, l2.1, 1, 1), "{isl} {bpb}");
            assert_eq!((t2.phys_width_B(), t2.phys_height()), p2, "{isl} {bpb}");
            assert_eq!(t2.size_B(), size);
            let f = std_y_formula(ys, SurfDim::D2, bpb);
            assert_eq!((f.0, f.1), l2);
            let t3 = TileInfo::from_isl(isl, SurfDim::D3, bpb, 1).unwrap();
            assert_eq!(ext(&t3), (l3.0, l3.1, l3.2, 1), "{isl} {bpb} 3D");
            assert_eq!((t3.phys_width_B(), t3.phys_height()), p3, "{isl} {bpb} 3D");
            assert_eq!(std_y_formula(ys, SurfDim::D3, bpb), l3);
            // §8.2: tile size = w*h*d*a*bpb/8.
            let e = t3.logical_extent_el();
            assert_eq!(e.w * e.h * e.d * e.a * bpb / 8, size);
        }
    }
}

#[test]
fn section_3_2_msaa_rule_and_8_2_spot_values() {
    for bpb in [8, 16, 32, 64, 128] {
        for isl in [IslTiling::SklYs, IslTiling::IclYf, IslTiling::IclYs] {
            let one = TileInfo::from_isl(isl, SurfDim::D2, bpb, 1).unwrap();
            let (w, h, _, _) = ext(&one);
            for (s, want) in [
                (2, (w / 2, h, 1, 2)),
                (4, (w / 2, h / 2, 1, 4)),
                (8, (w / 4, h / 2, 1, 8)),
                (16, (w / 4, h / 4, 1, 16)),
            ] {
                let t = TileInfo::from_isl(isl, SurfDim::D2, bpb, s).unwrap();
                assert_eq!(ext(&t), want, "{isl} {bpb} {s}x");
                let e = t.logical_extent_el();
                assert_eq!(e.w * e.h * e.d * e.a * bpb / 8, t.size_B());
            }
        }
        // SKL_Yf keeps the single-sample extent with a = 1.
        let one = TileInfo::from_isl(IslTiling::SklYf, SurfDim::D2, bpb, 1).unwrap();
        for s in [2, 4, 8, 16] {
            let t = TileInfo::from_isl(IslTiling::SklYf, SurfDim::D2, bpb, s).unwrap();
            assert_eq!(ext(&t), ext(&one));
        }
    }
    let spot = |isl, dim, bpb, s| ext(&TileInfo::from_isl(isl, dim, bpb, s).unwrap());
    assert_eq!(spot(IslTiling::IclYs, SurfDim::D2, 32, 1), (128, 128, 1, 1));
    assert_eq!(spot(IslTiling::SklYf, SurfDim::D2, 128, 1), (16, 16, 1, 1));
    assert_eq!(spot(IslTiling::SklYs, SurfDim::D3, 8, 1), (64, 32, 32, 1));
    assert_eq!(spot(IslTiling::IclYf, SurfDim::D3, 128, 1), (4, 8, 8, 1));
    assert_eq!(spot(IslTiling::SklYs, SurfDim::D2, 32, 8), (32, 64, 1, 8));
    assert_eq!(spot(IslTiling::SklYf, SurfDim::D2, 32, 8), (32, 32, 1, 1));
}

#[test]
fn section_3_3_tile64_extents() {
    // bpb -> (1x, 2x, 4x/8x/16x, 3D) of the Gfx12.5 table.
    type Row = (u32, (u32, u32), (u32, u32), (u32, u32), (u32, u32, u32));
    let t125: [Row; 5] = [
        (8, (256, 256), (128, 256), (128, 128), (64, 32, 32)),
        (16, (256, 128), (128, 128), (128, 64), (32, 32, 32)),
        (32, (128, 128), (64, 128), (64, 64), (32, 32, 16)),
        (64, (128, 64), (64, 64), (64, 32), (32, 16, 16)),
        (128, (64, 64), (32, 64), (32, 32), (16, 16, 16)),
    ];
    for gen in [Gen::Gfx125, Gen::Gfx20] {
        for (bpb, one, _, _, three) in t125 {
            let t = tile(Tiling::Tile64, gen, SurfDim::D2, bpb);
            assert_eq!(ext(&t), (one.0, one.1, 1, 1));
            assert_eq!(t.phys_width_B() * t.phys_height(), 65536);
            assert_eq!(t.phys_width_B(), one.0 * bpb / 8);
            let t3 = tile(Tiling::Tile64, gen, SurfDim::D3, bpb);
            assert_eq!(ext(&t3), (three.0, three.1, three.2, 1), "{gen} {bpb}");
            assert_eq!(t3.phys_width_B() * t3.phys_height(), 65536);
        }
    }
    for (bpb, _, two, four, _) in t125 {
        let t = TileInfo::new(Tiling::Tile64, Gen::Gfx125, SurfDim::D2, bpb, 2).unwrap();
        assert_eq!(ext(&t), (two.0, two.1, 1, 2));
        for s in [4, 8, 16] {
            let t = TileInfo::new(Tiling::Tile64, Gen::Gfx125, SurfDim::D2, bpb, s).unwrap();
            assert_eq!(ext(&t), (four.0, four.1, 1, 4), "{bpb} {s}x");
        }
    }
    // Xe2 MSAA table; a = samples.
    type XRow = (u32, [(u32, u32); 4]);
    let xe2: [XRow; 5] = [
        (8, [(128, 256), (128, 128), (128, 64), (64, 64)]),
        (16, [(128, 128), (128, 64), (64, 64), (64, 32)]),
        (32, [(64, 128), (64, 64), (64, 32), (32, 32)]),
        (64, [(64, 64), (64, 32), (32, 32), (16, 32)]),
        (128, [(64, 32), (32, 32), (16, 32), (16, 16)]),
    ];
    for (bpb, row) in xe2 {
        for (i, s) in [2u32, 4, 8, 16].into_iter().enumerate() {
            let t = TileInfo::new(Tiling::Tile64, Gen::Gfx20, SurfDim::D2, bpb, s).unwrap();
            assert_eq!(ext(&t), (row[i].0, row[i].1, 1, s), "{bpb} {s}x");
        }
    }
}

#[test]
fn tile64_low_12_bits_are_tile4() {
    let t4 = tile(Tiling::Tile4, Gen::Gfx125, SurfDim::D2, 32);
    for gen in [Gen::Gfx125, Gen::Gfx20] {
        for bpb in [8, 16, 32, 64, 128] {
            let t = tile(Tiling::Tile64, gen, SurfDim::D2, bpb);
            assert_eq!(&t.pattern()[..12], t4.pattern(), "{gen} {bpb}");
        }
    }
}

// ---- §8.3: linear <-> tiled copies of R32G32B32_UINT rectangles (x in bytes).

#[test]
fn section_8_3_tilememcpy_reference_layouts() {
    // The §8.3 reference layouts, evaluated by hand-written bit extraction rather than
    // through the pattern tables.
    let ref_y = |x: u32, y: u32| {
        let b = |v: u32, i: u32| (v >> i) & 1;
        b(x, 0)
            | b(x, 1) << 1
            | b(x, 2) << 2
            | b(x, 3) << 3
            | b(y, 0) << 4
            | b(y, 1) << 5
            | b(y, 2) << 6
            | b(y, 3) << 7
            | b(y, 4) << 8
            | b(x, 4) << 9
            | b(x, 5) << 10
            | b(x, 6) << 11
    };
    let ref_4 = |x: u32, y: u32| {
        let b = |v: u32, i: u32| (v >> i) & 1;
        b(x, 0)
            | b(x, 1) << 1
            | b(x, 2) << 2
            | b(x, 3) << 3
            | b(y, 0) << 4
            | b(y, 1) << 5
            | b(x, 4) << 6
            | b(x, 5) << 7
            | b(y, 2) << 8
            | b(x, 6) << 9
            | b(y, 3) << 10
            | b(y, 4) << 11
    };
    let rects = [
        (0u32, 128u32, 0u32, 32u32),
        (19, 20, 25, 32),
        (59, 83, 13, 32),
        (10, 12, 5, 8),
        // The intended rectangle of the last case (Mesa's test truncates x2 to 8 bits).
        (245, 521, 5, 8),
    ];
    let pitch = 2176u32; // 17 tiles wide: room for x2 = 521 in R32G32B32 elements
    for (tiling, reference) in [
        (Tiling::Y, &ref_y as &dyn Fn(u32, u32) -> u32),
        (Tiling::Tile4, &ref_4),
    ] {
        let gen = if tiling == Tiling::Y {
            Gen::Gfx9
        } else {
            Gen::Gfx125
        };
        let t = tile(tiling, gen, SurfDim::D2, 96);
        for (x1, x2, y1, y2) in rects {
            let mut mem = vec![0xccu8; (pitch * 32) as usize];
            for y in y1..y2 {
                for x in x1..x2 {
                    let off = t.offset_B(
                        pitch,
                        0,
                        TileCoord {
                            x_B: x,
                            y,
                            ..Default::default()
                        },
                    );
                    let want = (x / 128) * 4096 + reference(x % 128, y);
                    assert_eq!(off, want as u64, "{tiling} ({x},{y})");
                    mem[off as usize] = (x ^ y) as u8;
                }
            }
            // Bytes outside the rectangle keep 0xcc.
            let inside: usize = ((x2 - x1) * (y2 - y1)) as usize;
            let touched = mem.iter().filter(|&&b| b != 0xcc).count();
            assert!(touched <= inside);
            for off in 0..mem.len() as u32 {
                let (tc, intra) = (off / 4096, off % 4096);
                let (u, v, _, _) = t.intra_tile_coords(intra);
                let x = tc * 128 + u;
                let inside = (x1..x2).contains(&x) && (y1..y2).contains(&v);
                if !inside {
                    assert_eq!(mem[off as usize], 0xcc);
                } else {
                    assert_eq!(mem[off as usize], (x ^ v) as u8);
                }
            }
        }
    }
}

// ---- §9 small-pitch vectors.

fn at(t: &TileInfo, pitch: u32, x_b: u32, y: u32, z: u32) -> u64 {
    t.offset_B(
        pitch,
        0,
        TileCoord {
            x_B: x_b,
            y,
            z,
            ..Default::default()
        },
    )
}

#[test]
fn section_9_small_pitch_vectors() {
    let x = tile(Tiling::X, Gen::Gfx7, SurfDim::D2, 32);
    assert_eq!(at(&x, 1024, 354, 33, 0), 33634);
    assert_eq!(bit6_swizzle(at(&x, 1024, 354, 33, 0), Tiling::X), 33570);
    assert_eq!(bit6_swizzle(at(&x, 1536, 195, 34, 0), Tiling::X), 50307);
    let y = tile(Tiling::Y, Gen::Gfx7, SurfDim::D2, 32);
    assert_eq!(at(&y, 1024, 1015, 18, 0), 32551);
    assert_eq!(bit6_swizzle(at(&y, 1024, 110, 3, 0), Tiling::Y), 3134);
    let t4 = tile(Tiling::Tile4, Gen::Gfx125, SurfDim::D2, 32);
    assert_eq!(at(&t4, 1024, 1007, 40, 0), 63119);
    assert_eq!(at(&t4, 1536, 1143, 15, 0), 34807);
    assert_eq!(at(&t4, 1536, 1475, 36, 0), 94979);
    let w = tile(Tiling::W, Gen::Gfx8, SurfDim::D2, 8);
    assert_eq!(at(&w, 256, 37, 70, 0), 10297);
    for gen in [Gen::Gfx125, Gen::Gfx20] {
        for (bpb, want) in [(8, 83356), (32, 42396), (128, 140700)] {
            let t = tile(Tiling::Tile64, gen, SurfDim::D2, bpb);
            assert_eq!(at(&t, 2048, 300, 77, 0), want, "{gen} {bpb}");
        }
        for (bpb, want) in [(32, 62868), (64, 314772)] {
            let t = tile(Tiling::Tile64, gen, SurfDim::D3, bpb);
            assert_eq!(at(&t, 1024, 100, 21, 13), want, "{gen} 3D {bpb}");
        }
    }
    let t = tile(Tiling::Tile64, Gen::Gfx125, SurfDim::D3, 8);
    assert_eq!(at(&t, 1024, 100, 21, 13), 96660);
    let t = tile(Tiling::Tile64, Gen::Gfx20, SurfDim::D3, 8);
    assert_eq!(at(&t, 1024, 100, 21, 13), 95636);
    let yf = tile(Tiling::Yf, Gen::Gfx9, SurfDim::D2, 32);
    assert_eq!(at(&yf, 2048, 300, 77, 0), 140124);
    for gen in [Gen::Gfx9, Gen::Gfx11] {
        let ys = tile(Tiling::Ys, gen, SurfDim::D2, 32);
        assert_eq!(at(&ys, 2048, 300, 77, 0), 50012, "{gen}");
    }
    let skl = tile(Tiling::Ys, Gen::Gfx9, SurfDim::D3, 32);
    assert_eq!(at(&skl, 1024, 100, 21, 13), 62804);
    let icl = tile(Tiling::Ys, Gen::Gfx11, SurfDim::D3, 32);
    assert_eq!(at(&icl, 1024, 100, 21, 13), 62748);
}

#[test]
fn fields_reassemble_the_pattern() {
    // Folding the U/V/R fields over random in-tile coordinates rebuilds the intra-tile
    // offset plus the tile column term.
    fn prop(u: u32, v: u32, r: u32, pick: u16) -> TestResult {
        let cases = [
            (Tiling::X, Gen::Gfx7, SurfDim::D2),
            (Tiling::Y, Gen::Gfx9, SurfDim::D2),
            (Tiling::W, Gen::Gfx9, SurfDim::D2),
            (Tiling::Yf, Gen::Gfx9, SurfDim::D2),
            (Tiling::Ys, Gen::Gfx9, SurfDim::D3),
            (Tiling::Yf, Gen::Gfx11, SurfDim::D3),
            (Tiling::Ys, Gen::Gfx12, SurfDim::D2),
            (Tiling::Tile4, Gen::Gfx125, SurfDim::D2),
            (Tiling::Tile64, Gen::Gfx125, SurfDim::D3),
            (Tiling::Tile64, Gen::Gfx20, SurfDim::D3),
            (Tiling::Tile64, Gen::Gfx20, SurfDim::D2),
        ];
        let (tiling, gen, dim) = cases[pick as usize % cases.len()];
        let bpb = if tiling == Tiling::W {
            8
        } else {
            [8, 16, 32, 64, 128][(pick / 16) as usize % 5]
        };
        let t = tile(tiling, gen, dim, bpb);
        let e = t.logical_extent_el();
        let (u, v, r) = (u % (t.logical_width_B() * 8), v % e.h, r % e.d);
        let fold = |axis, c: u32, mut a: u32| {
            for f in t.address_fields(axis) {
                let mask = ((1u64 << f.width) - 1) as u32;
                a = (a & !(mask << f.dst_shift)) | (((c >> f.src_shift) & mask) << f.dst_shift);
            }
            a
        };
        let a = fold(Coord::R, r, fold(Coord::V, v, fold(Coord::U, u, 0)));
        let tile_col = u / t.logical_width_B();
        let want = tile_col * t.size_B() + t.intra_tile_offset(u % t.logical_width_B(), v, r, 0);
        TestResult::from_bool(a == want)
    }
    quickcheck(1000, 0x5eed_0003, 500).quickcheck(prop as fn(u32, u32, u32, u16) -> TestResult);
}
