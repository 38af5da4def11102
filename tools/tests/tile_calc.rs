//! `tile-calc` end to end: every test runs the binary.
//!
//! Expected values come from `docs/hardware/surface-layout.md` (§8.1 is Mesa's
//! `isl_surf_get_image_offset_test`, §9 the worked address vectors) or are computed by
//! hand in the comments, never from the tool or the `tiling` crate.

use serde_json::Value;
use std::process::{Command, Output};

fn tile_calc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tile-calc"))
        .args(args)
        .output()
        .expect("cannot run tile-calc")
}

fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Runs a command that must succeed silently on stderr; returns stdout.
fn ok(args: &str) -> String {
    let out = tile_calc(&words(args));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "`tile-calc {args}` failed ({:?}): {stderr}",
        out.status.code()
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail with exit status 1, nothing on stdout, and exactly
/// `line` (one line) on stderr.
fn fails(args: &[&str], line: &str) {
    let out = tile_calc(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "`tile-calc {}`: exit status; stderr: {stderr}",
        args.join(" ")
    );
    assert_eq!(
        stderr,
        format!("{line}\n"),
        "`tile-calc {}`",
        args.join(" ")
    );
    assert!(
        out.stdout.is_empty(),
        "`tile-calc {}`: stdout",
        args.join(" ")
    );
}

fn fails_str(args: &str, line: &str) {
    fails(&words(args), line);
}

/// `tile-calc layout <surface> --json`, parsed.
fn layout(surface: &str) -> Value {
    let text = ok(&format!("layout {surface} --json"));
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON object on one line: {text}"
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON ({e}): {text}"))
}

/// `tile-calc offset <surface> --texel x,y,z,level [--swizzle]`: one decimal line.
fn offset(surface: &str, texel: [u32; 4], swizzle: bool) -> u64 {
    let [x, y, z, l] = texel;
    let sw = if swizzle { " --swizzle" } else { "" };
    let text = ok(&format!("offset {surface} --texel {x},{y},{z},{l}{sw}"));
    let line = text.strip_suffix('\n').expect("newline-terminated");
    assert!(!line.contains('\n'), "one line: {text}");
    assert!(line.bytes().all(|b| b.is_ascii_digit()), "decimal: {text}");
    line.parse().expect("a number")
}

fn num(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not a number in {v}"))
}

/// The image of (level, layer, z) as (x_el, y_el, z_el).
fn image(v: &Value, level: u64, layer: u64, z: u64) -> (u64, u64, u64) {
    let imgs = v["images"].as_array().expect("images array");
    let found: Vec<&Value> = imgs
        .iter()
        .filter(|i| num(i, "level") == level && num(i, "layer") == layer && num(i, "z") == z)
        .collect();
    assert_eq!(found.len(), 1, "image ({level}, {layer}, {z}) in {v}");
    let i = found[0];
    (num(i, "x_el"), num(i, "y_el"), num(i, "z_el"))
}

fn image_count(v: &Value) -> usize {
    v["images"].as_array().expect("images array").len()
}

// ---------------------------------------------------------------- docs/hardware/surface-layout.md §8.1

const A1: &str = "--gen bdw --format r8g8b8a8_unorm --dim 2d --width 512 --height 512 \
                  --levels 10 --tiling y";
const A2: &str = "--gen bdw --format R8G8B8A8_UNORM --dim 2d --width 1024 --height 1024 \
                  --levels 11 --array-len 6 --tiling y";
const A3: &str = "--gen bdw --format r8g8b8a8_unorm --dim 3d --width 256 --height 256 \
                  --depth 256 --levels 9 --tiling y";

#[test]
fn json_has_exactly_isl_keys() {
    let v = layout(A1);
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort_unstable();
    let mut expected = vec![
        "row_pitch_B",
        "array_pitch_el_rows",
        "halign_el",
        "valign_el",
        "dalign_el",
        "size_B",
        "miptail_start_level",
        "dim_layout",
        "tile_w_el",
        "tile_h_el",
        "tile_d_el",
        "tile_phys_w_B",
        "tile_phys_h",
        "images",
    ];
    expected.sort_unstable();
    assert_eq!(keys_sorted, expected);
    for img in v["images"].as_array().unwrap() {
        let mut k: Vec<&str> = img
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        k.sort_unstable();
        assert_eq!(k, ["layer", "level", "x_el", "y_el", "z", "z_el"]);
    }
}

#[test]
fn a1_bdw_512_mip_chain() {
    let v = layout(A1);
    assert_eq!(num(&v, "row_pitch_B"), 2048);
    // COMPACT: max(512 + 256, 512 + 128 + 64 + 32 + 16 + 8 + 4 + 4 + 4) = 772.
    assert_eq!(num(&v, "array_pitch_el_rows"), 772);
    assert_eq!((num(&v, "halign_el"), num(&v, "valign_el")), (4, 4));
    assert_eq!(num(&v, "dalign_el"), 1);
    assert_eq!(v["dim_layout"], "gfx4_2d");
    assert_eq!(
        v["miptail_start_level"], 10,
        "Y tiling has no mip tail: isl reports the 10 levels"
    );
    // Y tile for 4-byte elements: 128 B / 4 = 32 el wide, 32 rows; 128 B x 32 physically.
    assert_eq!(
        (
            num(&v, "tile_w_el"),
            num(&v, "tile_h_el"),
            num(&v, "tile_d_el")
        ),
        (32, 32, 1)
    );
    assert_eq!(
        (num(&v, "tile_phys_w_B"), num(&v, "tile_phys_h")),
        (128, 32)
    );
    // isl_calc_size: ceil(772 / 32) = 25 tile rows of 32 rows x 2048 B.
    assert_eq!(num(&v, "size_B"), 25 * 32 * 2048);
    let expected = [
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
    assert_eq!(image_count(&v), 10);
    for (level, (x, y)) in expected.into_iter().enumerate() {
        assert_eq!(image(&v, level as u64, 0, 0), (x, y, 0), "level {level}");
    }
}

#[test]
fn a1_historical_tile_offsets() {
    // §8.1: (tile base, y remainder) per level; the x remainder is 0, so texel (0, 0)
    // of the level is at base + y * 16 (a Y tile row is 16 bytes per OWord column).
    let bases = [
        0x0, 0x100000, 0x108000, 0x148000, 0x168000, 0x178000, 0x178000, 0x178000, 0x178000,
        0x188000,
    ];
    let yrem = [0, 0, 0, 0, 0, 0, 16, 24, 28, 0];
    for level in 0..10 {
        assert_eq!(
            offset(A1, [0, 0, 0, level], false),
            bases[level as usize] + yrem[level as usize] * 16,
            "level {level}"
        );
    }
}

#[test]
fn a2_bdw_1024_array() {
    let v = layout(A2);
    assert_eq!(num(&v, "row_pitch_B"), 4096);
    assert_eq!(num(&v, "array_pitch_el_rows"), 1540);
    let x = [0, 0, 512, 512, 512, 512, 512, 512, 512, 512, 512];
    let y = [
        0, 1024, 1024, 1280, 1408, 1472, 1504, 1520, 1528, 1532, 1536,
    ];
    assert_eq!(image_count(&v), 6 * 11);
    for a in 0..6u64 {
        for l in 0..11usize {
            assert_eq!(
                image(&v, l as u64, a, 0),
                (x[l], y[l] + a * 1540, 0),
                "level {l} layer {a}"
            );
        }
    }
    // Historical (base, y remainder) pairs; texel (0, 0) is at base + y * 16.
    let cases = [
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
    for ((level, layer), base, yrem) in cases {
        assert_eq!(
            offset(A2, [0, 0, layer, level], false),
            base + yrem * 16,
            "level {level} layer {layer}"
        );
    }
}

#[test]
fn a3_bdw_3d_gfx4_3d_layout() {
    let v = layout(A3);
    assert_eq!(v["dim_layout"], "gfx4_3d");
    assert_eq!(num(&v, "row_pitch_B"), 1024);
    // The §8.1 A3 table: aligned size, depth and first row of each level; slices of
    // level l go 2^l to a row.
    let aligned = [256u64, 128, 64, 32, 16, 8, 4, 4, 4];
    let base_y = [0u64, 65536, 73728, 74752, 74880, 74896, 74904, 74908, 74912];
    let mut count = 0;
    for l in 0..9usize {
        let depth = 256u64 >> l;
        let horiz = 1u64 << l;
        for z in 0..depth {
            count += 1;
            let expect = (
                aligned[l] * (z % horiz),
                base_y[l] + aligned[l] * (z / horiz),
                0,
            );
            assert_eq!(image(&v, l as u64, 0, z), expect, "level {l} z {z}");
        }
    }
    assert_eq!(image_count(&v), count);
    assert_eq!(image(&v, 2, 0, 5), (64, 73792, 0));
}

// ---------------------------------------------------------------- docs/hardware/surface-layout.md §9

#[test]
fn bdw_3d_y_texel() {
    assert_eq!(offset(A3, [10, 20, 5, 2], false), 75572552);
}

#[test]
fn dg2_rgba8_3d_tile4() {
    let s = "--gen dg2 --format rgba8_unorm --dim 3d --width 16 --height 16 --depth 8 \
             --levels 4 --tiling 4";
    let v = layout(s);
    assert_eq!((num(&v, "halign_el"), num(&v, "valign_el")), (8, 4));
    assert_eq!(num(&v, "row_pitch_B"), 128);
    assert_eq!(num(&v, "array_pitch_el_rows"), 32);
    // Tile4 has no mip tail: isl reports the level count.
    assert_eq!(v["miptail_start_level"], 4);
    // (level, z, texel x, texel y, image origin, offset)
    let rows = [
        (0, 4, 15, 7, (0, 128), 16892),
        (1, 2, 7, 4, (0, 80), 10572),
        (2, 1, 0, 1, (8, 48), 6288),
        (3, 0, 1, 0, (8, 20), 2436),
    ];
    for (level, z, x, y, (ox, oy), off) in rows {
        assert_eq!(image(&v, level, 0, z), (ox, oy, 0), "L{level} z{z}");
        assert_eq!(
            offset(s, [x, y, z as u32, level as u32], false),
            off,
            "L{level} z{z}"
        );
    }
}

#[test]
fn xe2_rgba8_2d_array_tile64() {
    let s = "--gen lnl --format rgba8_unorm --dim 2d --width 256 --height 128 --array-len 3 \
             --tiling 64";
    let v = layout(s);
    assert_eq!(num(&v, "row_pitch_B"), 1024);
    assert_eq!(num(&v, "array_pitch_el_rows"), 128);
    // Tile64 keeps 2D layers as an array offset: every layer's origin is (0, 0).
    assert_eq!(image(&v, 0, 2, 0), (0, 0, 0));
    assert_eq!(offset(s, [202, 99, 0, 0], false), 123064);
    assert_eq!(offset(s, [195, 99, 2, 0], false), 385084);
    // BMG is the same generation.
    assert_eq!(
        offset(&s.replace("lnl", "bmg"), [202, 99, 0, 0], false),
        123064
    );
}

#[test]
fn dg2_rgba16_3d_tile64_tail() {
    let s = "--gen dg2 --format r16g16b16a16_uint --dim 3d --width 33 --depth 8 --levels 5 \
             --tiling 64";
    let v = layout(s);
    assert_eq!((num(&v, "halign_el"), num(&v, "valign_el")), (32, 16));
    assert_eq!(num(&v, "row_pitch_B"), 512);
    assert_eq!(num(&v, "array_pitch_el_rows"), 32);
    assert_eq!(v["miptail_start_level"], 1);
    assert_eq!(image(&v, 0, 0, 7), (0, 0, 7));
    // Tail slot 0 of level 1 and slot 1 of level 2 (Tile64 3D table rows 0 and 1 for
    // 64 bpb: (16, 0, 0) and (0, 8, 0), from level 1's origin (0, 16)).
    assert_eq!(image(&v, 1, 0, 3), (16, 16, 3));
    assert_eq!(image(&v, 2, 0, 1), (0, 24, 1));
    assert_eq!(offset(s, [21, 0, 7, 0], false), 22152);
    assert_eq!(offset(s, [13, 0, 3, 1], false), 138888);
    assert_eq!(offset(s, [4, 0, 1, 2], false), 140416);
    // The same surface type on PVC.
    assert_eq!(
        offset(&s.replace("dg2", "pvc"), [21, 0, 7, 0], false),
        22152
    );
}

#[test]
fn xe2_rgba16_3d_tile64() {
    let s = "--gen 20 --format R16G16B16A16_UINT --dim 3d --width 64 --depth 5 --tiling 64";
    assert_eq!(num(&layout(s), "row_pitch_B"), 512);
    assert_eq!(offset(s, [25, 0, 4, 0], false), 22536);
}

#[test]
fn skl_rgba16_2d_array_ys_tail() {
    let s = "--gen skl --format r16g16b16a16_uint --dim 2d --width 256 --height 5 \
             --array-len 2 --levels 9 --tiling ys";
    let v = layout(s);
    assert_eq!((num(&v, "halign_el"), num(&v, "valign_el")), (128, 64));
    assert_eq!(num(&v, "row_pitch_B"), 2048);
    assert_eq!(num(&v, "array_pitch_el_rows"), 128);
    assert_eq!(v["miptail_start_level"], 2);
    assert_eq!(image(&v, 2, 1, 0), (192, 64, 0));
    assert_eq!(image(&v, 8, 0, 0), (128, 76, 0));
    assert_eq!(offset(s, [38, 0, 1, 2], false), 499904);
    assert_eq!(offset(s, [0, 0, 0, 8], false), 197888);
}

/// isl's `miptail_start_level` is a number for every surface: the first level in the
/// tail, or the level count when there is none (`isl_choose_miptail_start_level`).
#[test]
fn miptail_start_level_is_isl_value() {
    // No tail on Y, linear or X: the level count (A1 has 10 levels).
    assert_eq!(layout(A1)["miptail_start_level"], 10);
    let linear = "--gen tgl --format r32_float --dim 2d --width 8 --height 8 --levels 3 \
                  --tiling linear";
    assert_eq!(layout(linear)["miptail_start_level"], 3);
    let x = "--gen hsw --format r8_unorm --dim 2d --width 64 --height 64 --tiling x";
    assert_eq!(layout(x)["miptail_start_level"], 1);
    // SKL Ys, 32 bpb 2D: a 128x128-element tile whose tail slot 0 starts at (64, 0).
    // With 2 levels of a 1024-wide surface none fits (1024, 512 > 64): no tail, so 2;
    // with 5 levels, level 4 (64x64) fits: 4.
    let ys = "--gen skl --format rgba8_unorm --dim 2d --width 1024 --height 1024 --tiling ys";
    assert_eq!(
        layout(&format!("{ys} --levels 2"))["miptail_start_level"],
        2
    );
    assert_eq!(
        layout(&format!("{ys} --levels 5"))["miptail_start_level"],
        4
    );
    // The table says what the number means.
    let text = ok(&format!("layout {ys} --levels 5"));
    assert!(
        text.lines().any(|l| l.split_whitespace().eq([
            "miptail_start_level",
            "4",
            "(level",
            "4",
            "in",
            "the",
            "tail)"
        ])),
        "{text}"
    );
    let text = ok(&format!("layout {ys} --levels 2"));
    assert!(
        text.lines().any(|l| l.split_whitespace().eq([
            "miptail_start_level",
            "2",
            "(no",
            "mip",
            "tail)"
        ])),
        "{text}"
    );
    let text = ok(
        "layout --gen skl --format r16g16b16a16_uint --dim 2d --width 256 \
                   --height 5 --array-len 2 --levels 9 --tiling ys",
    );
    assert!(
        text.lines().any(|l| l.split_whitespace().eq([
            "miptail_start_level",
            "2",
            "(levels",
            "2-8",
            "in",
            "the",
            "tail)"
        ])),
        "{text}"
    );
}

/// §9 small-pitch vectors, as whole single-level surfaces whose minimum row pitch is
/// the vector's pitch: (surface, row_pitch_B, texel, swizzle, offset).
#[test]
fn small_pitch_vectors() {
    let cases: &[(&str, u64, [u32; 4], bool, u64)] = &[
        // X (M), 9_10 swizzle; 1-byte elements so x_B = x.
        (
            "--gen ivb --format r8_unorm --dim 2d --width 1024 --height 64 --tiling x",
            1024,
            [354, 33, 0, 0],
            true,
            33570,
        ),
        (
            "--gen ivb --format r8_unorm --dim 2d --width 1536 --height 64 --tiling x",
            1536,
            [195, 34, 0, 0],
            true,
            50307,
        ),
        // Y (M), with and without the bit-9 swizzle.
        (
            "--gen bdw --format r8_unorm --dim 2d --width 1024 --height 64 --tiling y",
            1024,
            [1015, 18, 0, 0],
            false,
            32551,
        ),
        (
            "--gen ivb --format r8_unorm --dim 2d --width 1024 --height 64 --tiling y",
            1024,
            [110, 3, 0, 0],
            true,
            3134,
        ),
        // Tile4 (M).
        (
            "--gen dg2 --format r8_unorm --dim 2d --width 1024 --height 64 --tiling 4",
            1024,
            [1007, 40, 0, 0],
            false,
            63119,
        ),
        (
            "--gen dg2 --format r8_unorm --dim 2d --width 1536 --height 64 --tiling 4",
            1536,
            [1143, 15, 0, 0],
            false,
            34807,
        ),
        (
            "--gen mtl --format r8_unorm --dim 2d --width 1536 --height 64 --tiling 4",
            1536,
            [1475, 36, 0, 0],
            false,
            94979,
        ),
        // W: pitch 256 is twice the 128-pixel stencil width.
        (
            "--gen bdw --format r8_uint --dim 2d --width 128 --height 128 --tiling w \
             --usage stencil",
            256,
            [37, 70, 0, 0],
            false,
            10297,
        ),
        // Tile64 2D, 8 and 32 bpb (x_B 300 = 75 RGBA8 texels), both generations.
        (
            "--gen dg2 --format r8_unorm --dim 2d --width 2048 --height 128 --tiling 64",
            2048,
            [300, 77, 0, 0],
            false,
            83356,
        ),
        (
            "--gen lnl --format r8_unorm --dim 2d --width 2048 --height 128 --tiling 64",
            2048,
            [300, 77, 0, 0],
            false,
            83356,
        ),
        (
            "--gen dg2 --format rgba8_unorm --dim 2d --width 512 --height 128 --tiling 64",
            2048,
            [75, 77, 0, 0],
            false,
            42396,
        ),
        (
            "--gen bmg --format rgba8_unorm --dim 2d --width 512 --height 128 --tiling 64",
            2048,
            [75, 77, 0, 0],
            false,
            42396,
        ),
        // Tile64 3D, 8 bpb differs between Gfx12.5 and Xe2; 32 bpb (x_B 100 = 25 el)
        // does not.
        (
            "--gen 12.5 --format r8_unorm --dim 3d --width 1024 --height 32 --depth 32 \
             --tiling 64",
            1024,
            [100, 21, 13, 0],
            false,
            96660,
        ),
        (
            "--gen 20 --format r8_unorm --dim 3d --width 1024 --height 32 --depth 32 \
             --tiling 64",
            1024,
            [100, 21, 13, 0],
            false,
            95636,
        ),
        (
            "--gen dg2 --format rgba8_unorm --dim 3d --width 256 --height 32 --depth 16 \
             --tiling 64",
            1024,
            [25, 21, 13, 0],
            false,
            62868,
        ),
        (
            "--gen lnl --format rgba8_unorm --dim 3d --width 256 --height 32 --depth 16 \
             --tiling 64",
            1024,
            [25, 21, 13, 0],
            false,
            62868,
        ),
        // SKL Yf / Ys (= ICL Ys) 2D, 32 bpb.
        (
            "--gen skl --format rgba8_unorm --dim 2d --width 512 --height 128 --tiling yf",
            2048,
            [75, 77, 0, 0],
            false,
            140124,
        ),
        (
            "--gen skl --format rgba8_unorm --dim 2d --width 512 --height 128 --tiling ys",
            2048,
            [75, 77, 0, 0],
            false,
            50012,
        ),
        (
            "--gen icl --format rgba8_unorm --dim 2d --width 512 --height 128 --tiling ys",
            2048,
            [75, 77, 0, 0],
            false,
            50012,
        ),
        // SKL_Ys 3D vs ICL_Ys 3D, 32 bpb.
        (
            "--gen skl --format rgba8_unorm --dim 3d --width 256 --height 32 --depth 16 \
             --tiling ys",
            1024,
            [25, 21, 13, 0],
            false,
            62804,
        ),
        (
            "--gen icl --format rgba8_unorm --dim 3d --width 256 --height 32 --depth 16 \
             --tiling ys",
            1024,
            [25, 21, 13, 0],
            false,
            62748,
        ),
    ];
    for &(s, pitch, texel, swizzle, expected) in cases {
        assert_eq!(num(&layout(s), "row_pitch_B"), pitch, "{s}");
        assert_eq!(offset(s, texel, swizzle), expected, "{s} {texel:?}");
    }
}

#[test]
fn swizzle_changes_gen7_x_offsets() {
    // IVB X, pitch 1024, texel (354, 33) of an R8 surface: tile row 33 / 8 = 4, row 1
    // in the tile, so 4 * 8 * 1024 + 1 * 512 + 354 = 33634 = 0x8362. Bit 6 is 1, bit 9
    // is 1, bit 10 is 0: the 9_10 swizzle clears bit 6, giving 33634 - 64 = 33570.
    let s = "--gen ivb --format r8_unorm --dim 2d --width 1024 --height 64 --tiling x";
    assert_eq!(offset(s, [354, 33, 0, 0], false), 33634);
    assert_eq!(offset(s, [354, 33, 0, 0], true), 33570);
    // Pitch 1536, texel (195, 34): 4 * 8 * 1536 + 2 * 512 + 195 = 50371 = 0xc4c3; bits
    // 6, 9, 10 are 1, 0, 1, so bit 6 flips to 0: 50307.
    let s = "--gen 7 --format r8_unorm --dim 2d --width 1536 --height 64 --tiling x";
    assert_eq!(offset(s, [195, 34, 0, 0], false), 50371);
    assert_eq!(offset(s, [195, 34, 0, 0], true), 50307);
    // HSW (Gfx7.5) swizzles the same way. RGBA8 texel (10, 9) of a 256-wide surface:
    // x_B 40, tile row 1, row 1: 8 * 1024 + 512 + 40 = 8744 = 0x2228; bit 6 = 0,
    // bit 9 = 1, bit 10 = 0, so bit 6 becomes 1: 8808.
    let s = "--gen hsw --format rgba8_unorm --dim 2d --width 256 --height 16 --tiling x";
    assert_eq!(offset(s, [10, 9, 0, 0], false), 8744);
    assert_eq!(offset(s, [10, 9, 0, 0], true), 8808);
}

// ---------------------------------------------------------------- cube maps, 1D

#[test]
fn cube_array_len_counts_cubes() {
    // BDW, 16x16 RGBA8 Y, two cubes = 12 layers. One level, so the slice is the
    // unaligned 16 rows and qpitch = align(16, VALIGN 4) = 16 (COMPACT on Gfx8).
    let s = "--gen bdw --format rgba8_unorm --dim cube --width 16 --height 16 --array-len 2 \
             --tiling y";
    let v = layout(s);
    assert_eq!(num(&v, "array_pitch_el_rows"), 16);
    assert_eq!(image_count(&v), 12);
    for layer in 0..12 {
        assert_eq!(image(&v, 0, layer, 0), (0, 16 * layer, 0));
    }
    // Pitch: 16 el * 4 B = 64 B, rounded up to one 128-B Y tile.
    assert_eq!(num(&v, "row_pitch_B"), 128);
    // Layer 11 (cube 1, face 5) starts at row 176 = tile row 5, row 16 in the tile:
    // 5 * 32 * 128 + 16 * 16 = 20736.
    assert_eq!(offset(s, [0, 0, 11, 0], false), 20736);
    fails_str(
        &format!("offset {s} --texel 0,0,12,0"),
        "error: --texel: layer 12 is outside the surface (array length 12)",
    );
    // Default --array-len 1: one cube, six layers.
    let one = layout(&s.replace(" --array-len 2", ""));
    assert_eq!(image_count(&one), 6);
}

#[test]
fn gfx4_cube_uses_gfx4_3d() {
    // Gfx4 lays a cube out as a 3D surface with six slices; at level 0 there is one
    // slice per row, so face f starts at row align(16, VALIGN 2) * f.
    let s = "--gen 4 --format rgba8_unorm --dim cube --width 16 --height 16 --tiling y";
    let v = layout(s);
    assert_eq!(v["dim_layout"], "gfx4_3d");
    assert_eq!(image_count(&v), 6);
    for f in 0..6 {
        assert_eq!(image(&v, 0, f, 0), (0, 16 * f, 0));
    }
    fails_str(
        &format!("layout {s} --array-len 2"),
        "error: --array-len: Gfx4 has no cube arrays (it lays a cube out as a 3D surface), \
         got 2 cubes",
    );
}

#[test]
fn linear_1d_gfx9() {
    // Gfx9 linear 1D: GFX9_1D, levels side by side at 64-element alignment, one row
    // per layer: level 1 at x = align(100, 64) = 128, level 2 at 128 + align(50, 64) =
    // 192. Pitch = (128 + 64 + 64) * 4 B = 1024.
    let s = "--gen skl --format rgba8_unorm --dim 1d --width 100 --levels 3 --array-len 2 \
             --tiling linear";
    let v = layout(s);
    assert_eq!(v["dim_layout"], "gfx9_1d");
    assert_eq!(num(&v, "row_pitch_B"), 1024);
    assert_eq!(image(&v, 1, 0, 0), (128, 0, 0));
    assert_eq!(image(&v, 2, 1, 0), (192, 1, 0));
    // Texel 5 of level 2, layer 1: row 1, x (192 + 5) * 4 = 788: 1024 + 788 = 1812.
    assert_eq!(offset(s, [5, 0, 1, 2], false), 1812);
    fails_str(
        &format!("offset {s} --texel 5,1,1,2"),
        "error: --texel: y 1 is outside level 2 (height 1)",
    );
}

#[test]
fn gfx6_w_stencil_layout() {
    // Gfx6 W stencil: GFX6_STENCIL_HIZ.
    let s = "--gen snb --format r8_uint --dim 2d --width 64 --height 64 --tiling w \
             --usage stencil";
    assert_eq!(layout(s)["dim_layout"], "gfx6_stencil_hiz");
}

#[test]
fn table_output() {
    let text = ok(&format!("layout {A1}"));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().eq(["row_pitch_B", "2048"])));
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().eq(["array_pitch_el_rows", "772"])));
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().eq(["dim_layout", "gfx4_2d"])));
    assert!(lines.iter().any(|l| l.split_whitespace().eq([
        "miptail_start_level",
        "10",
        "(no",
        "mip",
        "tail)"
    ])));
    // One row per image after the column header: level, layer, z, x_el, y_el, ...
    let header = lines
        .iter()
        .position(|l| {
            l.split_whitespace()
                .take(6)
                .eq(["level", "layer", "z", "x_el", "y_el", "z_el"])
        })
        .expect("image table header");
    let rows = &lines[header + 1..];
    assert_eq!(rows.len(), 10);
    let level3: Vec<&str> = rows[3].split_whitespace().take(5).collect();
    assert_eq!(level3, ["3", "0", "0", "256", "640"]);
}

// ---------------------------------------------------------------- formats

/// The rows of `tile-calc formats` before the not-supported section, without the header.
fn format_rows() -> Vec<Vec<String>> {
    let text = ok("formats");
    text.lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

/// `tile-calc formats` lists isl's formats with isl's bpb and block extent
/// (isl_format_layout.csv), then isl's other formats with a reason.
#[test]
fn formats_lists_isl_table() {
    let rows = format_rows();
    // isl_format_layout.csv has 293 rows; 38 are not laid out.
    assert_eq!(rows.len(), 255);
    let row = |name: &str| -> Vec<String> {
        rows.iter()
            .find(|r| r[0] == name)
            .unwrap_or_else(|| panic!("{name} is not listed"))
            .clone()
    };
    assert_eq!(
        row("R9G9B9E5_SHAREDEXP"),
        ["R9G9B9E5_SHAREDEXP", "32", "1x1"]
    );
    assert_eq!(
        row("ASTC_LDR_2D_5X4_U8SRGB"),
        ["ASTC_LDR_2D_5X4_U8SRGB", "128", "5x4", "astc,", "srgb"]
    );
    assert_eq!(
        row("ASTC_HDR_2D_12X12_FLT16"),
        ["ASTC_HDR_2D_12X12_FLT16", "128", "12x12", "astc"]
    );
    assert_eq!(row("FXT1"), ["FXT1", "128", "8x4", "fxt1"]);
    assert_eq!(row("ETC1_RGB8"), ["ETC1_RGB8", "64", "4x4", "etc1"]);
    assert_eq!(row("YCRCB_SWAPUV"), ["YCRCB_SWAPUV", "16", "1x1", "yuv"]);
    assert_eq!(row("R16G16B16_SNORM"), ["R16G16B16_SNORM", "48", "1x1"]);
    assert_eq!(
        row("R8G8B8A8_UNORM"),
        ["R8G8B8A8_UNORM", "32", "1x1", "storage"]
    );
    let astc = rows.iter().filter(|r| r[0].starts_with("ASTC_")).count();
    assert_eq!(astc, 42);
    let text = ok("formats");
    let (_, rest) = text
        .split_once("\nisl formats tile-calc does not lay out:\n")
        .expect("a not-supported section");
    let unsupported: Vec<&str> = rest.lines().collect();
    assert_eq!(unsupported.len(), 38);
    for name in [
        "R1_UNORM",
        "R64G64B64A64_FLOAT",
        "PLANAR_420_8",
        "RAW",
        "MCS_2X",
    ] {
        assert!(
            unsupported
                .iter()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name}"
        );
    }
}

/// A format isl has but tile-calc does not lay out is "not supported", with the reason;
/// a name isl does not have is "unknown".
#[test]
fn not_supported_is_not_unknown() {
    let s = "--dim 2d --width 64 --height 64 --tiling y";
    fails_str(
        &format!("layout --gen skl --format r1_unorm {s}"),
        "error: --format: isl format R1_UNORM is not supported: its 1-bit elements are \
         smaller than a byte, and tilings place whole bytes",
    );
    fails_str(
        &format!("layout --gen skl --format R64G64B64A64_FLOAT {s}"),
        "error: --format: isl format R64G64B64A64_FLOAT is not supported: its 256-bit \
         elements are wider than the 128 bits any tiling takes (isl's formats this wide are \
         vertex-fetch formats)",
    );
    fails_str(
        &format!("layout --gen skl --format planar_420_8 {s}"),
        "error: --format: isl format PLANAR_420_8 is not supported: it is planar YUV, which \
         has no single element; each plane is a separate surface",
    );
    fails_str(
        &format!("offset --gen tgl --format isl_format_hiz {s} --texel 0,0,0,0"),
        "error: --format: isl format HIZ is not supported: it is a HiZ auxiliary-surface \
         format, and only main surfaces without auxiliary data are laid out",
    );
    fails_str(
        &format!("layout --gen skl --format astc_ldr_2d_7x7_flt16 {s}"),
        "error: --format: unknown format `astc_ldr_2d_7x7_flt16` (expected an isl name such \
         as R8G8B8A8_UNORM or a short name such as rgba8_unorm)",
    );
}

/// Formats tile-calc used to call unknown, laid out by hand from isl's rules.
#[test]
fn astc_and_shared_exponent_layouts() {
    // SKL ASTC 5x4, Y, 100x50 px, 3 levels. Gfx9 aligns compressed images to 4x4
    // blocks (20x16 px): L0 100x64, L1 60x32, L2 40x16 px; width max(100, 60 + 40) =
    // 100 px = 20 blocks of 16 B = 320 B -> three Y tiles, 384 B; height
    // max(64 + 32, 64 + 16) = 96 px = 24 block rows, one 32-row tile row: 12288 B.
    let s = "--gen skl --format astc_ldr_2d_5x4_flt16 --dim 2d --width 100 --height 50 \
             --levels 3 --tiling y";
    let v = layout(s);
    assert_eq!((num(&v, "halign_el"), num(&v, "valign_el")), (4, 4));
    assert_eq!(num(&v, "row_pitch_B"), 384);
    assert_eq!(num(&v, "array_pitch_el_rows"), 24);
    assert_eq!(num(&v, "size_B"), 12288);
    assert_eq!(image(&v, 1, 0, 0), (0, 16, 0));
    assert_eq!(image(&v, 2, 0, 0), (12, 16, 0));
    // Block (1, 2) of L2 = element (13, 18): Y tile 1 (4096) + OWord column 5 (2560) +
    // row 18 (288).
    assert_eq!(offset(s, [1, 2, 0, 2], false), 6944);
    // BDW R9G9B9E5_SHAREDEXP (32 bpb), Y, 64x64: texel (40, 33) is byte column 160, tile
    // 3 of a 2-tile-wide pitch (12288), OWord column 2 (1024), row 1 (16).
    let s = "--gen bdw --format r9g9b9e5_sharedexp --dim 2d --width 64 --height 64 --tiling y";
    assert_eq!(num(&layout(s), "row_pitch_B"), 256);
    assert_eq!(offset(s, [40, 33, 0, 0], false), 13328);
}

/// Every listed format lays out, or fails with one `error: --OPTION:` line, for a few
/// surface kinds; never a panic.
#[test]
fn every_listed_format_lays_out_or_fails_cleanly() {
    let surfaces = [
        "--gen dg2 --dim 2d --width 37 --height 19 --levels 3 --array-len 2 --tiling 4",
        "--gen tgl --dim 2d --width 64 --height 64 --levels 7 --tiling ys",
        "--gen ivb --dim 3d --width 17 --height 9 --depth 5 --levels 3 --tiling y",
        "--gen lnl --dim 2d --width 40 --height 24 --levels 2 --tiling 64",
    ];
    let mut good = 0;
    for row in format_rows() {
        for s in surfaces {
            let args = format!("layout --format {} {s} --json", row[0]);
            let out = tile_calc(&words(&args));
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => {
                    good += 1;
                    serde_json::from_slice::<Value>(&out.stdout)
                        .unwrap_or_else(|e| panic!("{args}: bad JSON: {e}"));
                }
                Some(1) => assert!(
                    stderr.starts_with("error: --") && stderr.lines().count() == 1,
                    "{args}: {stderr}"
                ),
                c => panic!("{args}: exit {c:?}: {stderr}"),
            }
        }
    }
    // Most combinations lay out (YUV and 24/48/96-bit formats refuse Tile64).
    assert!(good > 255 * 3, "{good}");
}

// ---------------------------------------------------------------- bad options

const S2D: &str = "--dim 2d --width 512 --height 512";

#[test]
fn unknown_values() {
    fails_str(
        &format!("layout --gen 10 --format rgba8_unorm {S2D} --tiling y"),
        "error: --gen: unknown generation `10` (expected 4, 5, 6, 7, 7.5, 8, 9, 11, 12, 12.5, \
         20, a verx10 such as 125, or a platform: ivb byt hsw bdw chv skl kbl cfl icl tgl rkl \
         adl dg1 dg2 mtl arl pvc lnl bmg)",
    );
    fails_str(
        &format!("layout --gen bdw --format rgb9 {S2D} --tiling y"),
        "error: --format: unknown format `rgb9` (expected an isl name such as R8G8B8A8_UNORM \
         or a short name such as rgba8_unorm)",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim 4d --width 4 --tiling y",
        "error: --dim: unknown dimension `4d` (expected 1d, 2d, 3d or cube)",
    );
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling q"),
        "error: --tiling: unknown tiling `q` (expected linear, x, y, w, yf, ys, tile4 or \
         tile64)",
    );
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling y --usage foo"),
        "error: --usage: unknown usage `foo` (expected texture, storage, render-target, \
         stencil or depth, joined with +)",
    );
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling y --usage storage+cube"),
        "error: --usage: cube is not a usage here; use --dim cube",
    );
}

#[test]
fn bad_counts() {
    for (opt, val) in [
        ("--width", "0"),
        ("--height", "abc"),
        ("--depth", "-2"),
        ("--levels", "1.5"),
        ("--array-len", ""),
    ] {
        let mut args = words("layout --gen bdw --format rgba8_unorm --dim 2d --tiling y");
        if opt != "--width" {
            args.extend(["--width", "8"]);
        }
        args.extend([opt, val]);
        fails(
            &args,
            &format!("error: {opt}: expected a whole number of at least 1, got `{val}`"),
        );
    }
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling y --levels 4294967296"),
        "error: --levels: `4294967296` is too large (at most 4294967295)",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim 2d --width 16385 --tiling linear",
        "error: --width: width 16385 exceeds the maximum of 16384",
    );
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling y --levels 11"),
        "error: --levels: 11 levels requested but the mip chain has only 10",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim 1d --width 64 --height 4 --tiling y",
        "error: --height: height must be 1 for 1d surfaces, got 4",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim 3d --width 4 --tiling y --array-len 2",
        "error: --array-len: array_len must be 1 for 3d surfaces, got 2",
    );
    fails_str(
        "layout --gen bdw --format r32g32b32a32_float --dim 2d --width 16384 --height 16384 \
         --tiling y",
        "error: --width/--height/--array-len: surface size 4294967296 B exceeds the limit of \
         2147483648 B",
    );
}

#[test]
fn missing_options() {
    fails_str(
        &format!("layout --format rgba8_unorm {S2D} --tiling y"),
        "error: --gen: required option is missing",
    );
    fails_str(
        &format!("layout {S2D}"),
        "error: --gen, --format, --tiling: required options are missing",
    );
    fails_str(
        &format!("offset --gen bdw --format rgba8_unorm {S2D} --tiling y"),
        "error: --texel: required option is missing",
    );
    fails_str("layout --gen", "error: --gen: missing value");
    fails(
        &[],
        "error: missing command (expected layout, offset or formats; see tile-calc --help)",
    );
    fails_str(
        "frob",
        "error: unknown command `frob` (expected layout, offset or formats)",
    );
}

#[test]
fn malformed_texel() {
    let base = format!("offset --gen bdw --format rgba8_unorm {S2D} --tiling y --texel");
    for t in [
        "1,2,3",
        "1,2,3,4,5",
        "a,b,c,d",
        "-1,0,0,0",
        "1;2;3;4",
        "1,2,,4",
    ] {
        fails_str(
            &format!("{base} {t}"),
            &format!("error: --texel: expected X,Y,Z,LEVEL, got `{t}`"),
        );
    }
}

#[test]
fn texel_out_of_range() {
    let base = format!("offset --gen bdw --format rgba8_unorm {S2D} --levels 3 --tiling y");
    fails_str(
        &format!("{base} --texel 600,0,0,0"),
        "error: --texel: x 600 is outside level 0 (width 512)",
    );
    fails_str(
        &format!("{base} --texel 0,128,0,2"),
        "error: --texel: y 128 is outside level 2 (height 128)",
    );
    fails_str(
        &format!("{base} --texel 0,0,1,0"),
        "error: --texel: layer 1 is outside the surface (array length 1)",
    );
    fails_str(
        &format!("{base} --texel 0,0,0,3"),
        "error: --texel: level 3 is outside the surface (3 levels)",
    );
    // 3D: level 2 of a depth-256 surface has 64 slices.
    fails_str(
        &format!("offset {A3} --texel 0,0,64,2"),
        "error: --texel: z 64 is outside level 2 (depth 64)",
    );
    // Compressed formats count in blocks: 512 px of BC1 is 128 elements.
    fails_str(
        &format!("offset --gen skl --format bc1_unorm {S2D} --tiling y --texel 128,0,0,0"),
        "error: --texel: x 128 is outside level 0 (width 128)",
    );
}

#[test]
fn impossible_combinations() {
    fails_str(
        &format!("layout --gen bdw --format rgba8_unorm {S2D} --tiling w"),
        "error: --tiling: tiling w cannot hold 32-bit elements: W tiling holds 8-bit stencil \
         only",
    );
    fails_str(
        &format!("layout --gen bdw --format r8_uint {S2D} --tiling w"),
        "error: --tiling: tiling w is not allowed for this surface on gfx8: W tiling is only \
         for stencil buffers",
    );
    fails_str(
        &format!("layout --gen 9 --format rgba8_unorm {S2D} --tiling 64"),
        "error: --tiling: tiling tile64 does not exist on gfx9 (it exists on Gfx12.5 and later)",
    );
    fails_str(
        &format!("layout --gen dg2 --format rgba8_unorm {S2D} --tiling y"),
        "error: --tiling: tiling y does not exist on gfx12.5 (it exists on Gfx4 to Gfx12 \
         (Gfx12.5+ replaced it with Tile4))",
    );
    fails_str(
        &format!("layout --gen bdw --format bc1_unorm {S2D} --tiling y --usage storage"),
        "error: --usage: usage storage with format BC1_UNORM: compressed formats can only be \
         sampled",
    );
    fails_str(
        &format!(
            "offset --gen bdw --format rgba8_unorm {S2D} --tiling y --texel 1,2,0,0 --swizzle"
        ),
        "error: --swizzle: bit-6 swizzling of y surfaces on gfx8 is not supported (it exists \
         for X and Y surfaces before Gfx8 only)",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim cube --width 16 --tiling y",
        "error: --height: cube faces must be square (width 16, height 1)",
    );
    fails_str(
        "layout --gen bdw --format rgba8_unorm --dim cube --width 16 --height 16 --depth 2 \
         --tiling y",
        "error: --depth: depth must be 1 for cube surfaces, got 2",
    );
}

#[test]
fn clap_structure_errors_are_one_line() {
    let ok_args = format!("--gen bdw --format rgba8_unorm {S2D} --tiling y");
    fails_str(
        &format!("layout {ok_args} --gen 8"),
        "error: --gen: given more than once",
    );
    fails_str(
        &format!("layout {ok_args} --bogus"),
        "error: --bogus: unknown option",
    );
    fails_str(
        &format!("layout {ok_args} extra"),
        "error: unexpected argument `extra`",
    );
    // --swizzle and --texel belong to offset, --json to layout.
    fails_str(
        &format!("layout {ok_args} --swizzle"),
        "error: --swizzle: unknown option",
    );
    fails_str(
        &format!("offset {ok_args} --texel 0,0,0,0 --json"),
        "error: --json: unknown option",
    );
}

#[test]
fn help_and_version_exit_zero() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["layout", "--help"],
        &["offset", "--help"],
        &["help", "offset"],
    ] {
        let out = tile_calc(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage:"), "{args:?}: {text}");
    }
    let out = tile_calc(&["layout", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for opt in [
        "--gen",
        "--format",
        "--dim",
        "--width",
        "--height",
        "--depth",
        "--levels",
        "--array-len",
        "--tiling",
        "--usage",
        "--json",
    ] {
        assert!(text.contains(opt), "layout --help lacks {opt}");
    }
    let out = tile_calc(&["offset", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--texel") && text.contains("--swizzle"));
    let out = tile_calc(&["formats", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("isl_format_layout.csv"));
    let out = tile_calc(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("tile-calc "));
}

/// Every generation x tiling x dimensionality either lays out (valid JSON with an image
/// per level and layer) or fails with one `error: --OPTION: ...` line and status 1;
/// never a panic.
#[test]
fn every_combination_succeeds_or_fails_cleanly() {
    let gens = [
        "4", "5", "6", "ivb", "hsw", "bdw", "skl", "icl", "tgl", "dg2", "lnl",
    ];
    let tilings = ["linear", "x", "y", "w", "yf", "ys", "4", "64"];
    let dims = [
        ("1d", "--width 64 --levels 2 --array-len 2", 4),
        ("2d", "--width 64 --height 32 --levels 2 --array-len 2", 4),
        ("3d", "--width 32 --height 32 --depth 8 --levels 2", 8 + 4),
        ("cube", "--width 32 --height 32 --levels 2", 12),
    ];
    let (mut good, mut bad) = (0, 0);
    for g in gens {
        for t in tilings {
            for (d, extent, images) in dims {
                let args = format!(
                    "layout --gen {g} --format r8_uint --dim {d} {extent} --tiling {t} --json"
                );
                let out = tile_calc(&words(&args));
                let stderr = String::from_utf8_lossy(&out.stderr);
                match out.status.code() {
                    Some(0) => {
                        good += 1;
                        let v: Value = serde_json::from_slice(&out.stdout)
                            .unwrap_or_else(|e| panic!("{args}: bad JSON: {e}"));
                        assert_eq!(image_count(&v), images, "{args}");
                    }
                    Some(1) => {
                        bad += 1;
                        assert!(
                            stderr.starts_with("error: --") && stderr.lines().count() == 1,
                            "{args}: {stderr}"
                        );
                    }
                    c => panic!("{args}: exit {c:?}: {stderr}"),
                }
            }
        }
    }
    // Both outcomes occur (e.g. linear always works, Tile64 before Gfx12.5 never does).
    assert!(good > 0 && bad > 0, "{good} laid out, {bad} refused");
}
