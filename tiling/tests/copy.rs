//! Tests of `copy_linear_to_tiled` / `copy_tiled_to_linear`.
//!
//! - Reference vectors: Mesa's `isl_tilememcpy_tiled_unittest` rectangles (docs/hardware/surface-layout.md
//!   §8.3) against the Y and Tile4 bit patterns written out here, and the worked addresses of
//!   docs/hardware/surface-layout.md §9 (every tiling, swizzles, 3D slices, levels, mip tails).
//! - Properties over random surfaces (every generation, tiling and dimensionality,
//!   24/48/96-bit and compressed formats, levels, layers, 3D slices, swizzle, store hints,
//!   misaligned buffers) and random rectangles: every byte lands where
//!   `Surface::texel_byte_offset` says, nothing else changes, and the two directions are
//!   inverse. Fixed seed; `QC_TESTS=<n>` runs `n` cases per property.
//! - Whole-surface copies large enough for the whole-tile kernels and streaming stores.
//! - Errors.

use quickcheck::{Arbitrary, Gen as QcGen, QuickCheck, TestResult};
use tiling::copy::{
    copy_linear_to_tiled, copy_tiled_to_linear, CopyError, CopyRegion, Rect, StoreHint,
};
use tiling::{
    allowed_tilings, AddressError, Bit6Swizzle, Format, Gen, SurfDim, Surface, SurfaceDesc, Tiling,
    Usage,
};

/// The case count of a property: `QC_TESTS` if set, else `default`.
fn qc_tests(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A deterministic byte stream (xorshift), for buffer contents.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }
    fn fill(&mut self, v: &mut [u8]) {
        for b in v {
            *b = self.next();
        }
    }
}

/// `len` bytes starting `misalign` bytes after a 64-byte boundary, inside `storage`.
fn window(storage: &mut Vec<u8>, len: usize, misalign: usize) -> &mut [u8] {
    storage.clear();
    storage.resize(len + 64 + misalign, 0);
    let start = storage.as_ptr().align_offset(64) + misalign;
    &mut storage[start..start + len]
}

// ---------------------------------------------------------------------------------------
// docs/hardware/surface-layout.md §8.3: isl_tilememcpy_tiled_unittest.

/// Byte offset inside a 128 B × 32 tile of byte column `x` and row `y` for a pattern
/// written MSB→LSB as in docs/hardware/surface-layout.md §8.3.
fn pattern_offset(pattern: &str, x: u32, y: u32) -> u32 {
    let bits: Vec<&str> = pattern.split_whitespace().rev().collect();
    let mut off = 0;
    for (i, b) in bits.iter().enumerate() {
        let n: u32 = b[1..].parse().unwrap();
        let c = if b.starts_with('u') { x } else { y };
        off |= ((c >> n) & 1) << i;
    }
    off
}

const Y_PATTERN: &str = "u6 u5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0";
const TILE4_PATTERN: &str = "v4 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0";

/// The rectangles `(x1, x2, y1, y2)` of Mesa's test, x in bytes, with the intended
/// x2 = 521 of the last one (docs/hardware/surface-layout.md §8.3, caveat).
const TILEMEMCPY_RECTS: [(u32, u32, u32, u32); 5] = [
    (0, 128, 0, 32),
    (19, 20, 25, 32),
    (59, 83, 13, 32),
    (10, 12, 5, 8),
    (245, 521, 5, 8),
];

/// Where byte column `x`, row `y` (< 32) of a one-tile-row surface with 128-byte tiles
/// lives: tile `x / 128`, then the pattern.
fn tilememcpy_offset(pattern: &str, x: u32, y: u32) -> usize {
    ((x / 128) * 4096 + pattern_offset(pattern, x % 128, y)) as usize
}

/// Runs Mesa's rectangles in both directions on a surface whose bytes follow `pattern`,
/// with rectangles given in bytes and copied as the elements covering them (`cpp` bytes
/// each); checks every byte of the copied elements and that nothing else changed.
fn tilememcpy_case(s: &Surface, pattern: &str) {
    let cpp = s.format().cpp();
    assert_eq!(s.row_pitch_B(), 2176, "pitch of the intended x2 = 521 case");
    let size = s.size_B() as usize;
    for (x1, x2, y1, y2) in TILEMEMCPY_RECTS {
        let (e1, e2) = (x1 / cpp, x2.div_ceil(cpp));
        let rect = Rect::new(e1, y1, e2 - e1, y2 - y1);
        let (bx1, bx2) = (e1 * cpp, e2 * cpp);
        let row_b = (bx2 - bx1) as usize;
        for stores in [StoreHint::Cached, StoreHint::Streaming] {
            let region = CopyRegion::new(0, 0, rect).with_stores(stores);
            // Linear to tiled: tiled memory starts as 0xcc.
            let lp = row_b + 5;
            let linear: Vec<u8> = (0..lp * rect.h_el as usize)
                .map(|i| (i % 251) as u8 + 1)
                .collect();
            let mut tiled = vec![0xccu8; size];
            copy_linear_to_tiled(s, &mut tiled, &region, &linear, lp).unwrap();
            let mut expected = vec![0xccu8; size];
            for y in y1..y2 {
                for x in bx1..bx2 {
                    let l = (y - y1) as usize * lp + (x - bx1) as usize;
                    expected[tilememcpy_offset(pattern, x, y)] = linear[l];
                }
            }
            assert!(
                tiled == expected,
                "{} rect ({x1},{x2},{y1},{y2}) {stores:?} linear->tiled",
                s.tiling()
            );
            // Tiled to linear: tiled bytes are a function of their offset, the linear
            // buffer starts as 0xcc and its row padding must stay so.
            let tiled: Vec<u8> = (0..size).map(|o| (o % 253) as u8).collect();
            let mut linear = vec![0xccu8; lp * rect.h_el as usize];
            copy_tiled_to_linear(s, &mut linear, lp, &region, &tiled).unwrap();
            for (i, &b) in linear.iter().enumerate() {
                let (y, x) = (y1 + (i / lp) as u32, bx1 + (i % lp) as u32);
                let want = if x < bx2 {
                    tiled[tilememcpy_offset(pattern, x, y)]
                } else {
                    0xcc
                };
                assert_eq!(b, want, "{} ({x},{y}) {stores:?} tiled->linear", s.tiling());
            }
        }
    }
}

fn tilememcpy_surface(gen: Gen, format: Format, tiling: Tiling, width: u32) -> Surface {
    Surface::new(
        SurfaceDesc::new(gen, SurfDim::D2, format, tiling)
            .extent(width, 32, 1)
            .row_pitch(2176),
    )
    .unwrap()
}

#[test]
fn tilememcpy_vectors_r32g32b32() {
    // R32G32B32_UINT, as in Mesa's test: 181 elements of 12 bytes fit 17 tiles of 128 B.
    for (gen, tiling, pattern) in [
        (Gen::Gfx9, Tiling::Y, Y_PATTERN),
        (Gen::Gfx125, Tiling::Tile4, TILE4_PATTERN),
    ] {
        let s = tilememcpy_surface(gen, Format::R32G32B32_UINT, tiling, 181);
        tilememcpy_case(&s, pattern);
    }
}

#[test]
fn tilememcpy_vectors_byte_exact() {
    // The same byte rectangles exactly, with one-byte elements: Y and Tile4 lay bytes
    // out the same way whatever the element size.
    for (gen, tiling, pattern) in [
        (Gen::Gfx9, Tiling::Y, Y_PATTERN),
        (Gen::Gfx125, Tiling::Tile4, TILE4_PATTERN),
    ] {
        let s = tilememcpy_surface(gen, Format::R8_UINT, tiling, 2176);
        tilememcpy_case(&s, pattern);
    }
}

// ---------------------------------------------------------------------------------------
// docs/hardware/surface-layout.md §9: worked addresses.

/// Copies one element (`x`, `y`) of `level`, `layer_or_z` both ways and checks that
/// byte `byte` of it is at `want` and that nothing else of the tiled memory changed.
#[allow(clippy::too_many_arguments)]
fn check_vector(
    s: &Surface,
    level: u32,
    layer_or_z: u32,
    x: u32,
    y: u32,
    byte: u32,
    swizzle: Bit6Swizzle,
    want: u64,
) {
    let cpp = s.format().cpp() as usize;
    let region = CopyRegion::new(level, layer_or_z, Rect::new(x, y, 1, 1)).with_swizzle(swizzle);
    let size = s.size_B() as usize;
    let element: Vec<u8> = (0..cpp as u8).map(|b| 0x10 + b).collect();
    // vec! of zeroes is lazily mapped, so even the 75 MB surface is cheap; 0 is not a
    // value of `element`.
    let mut tiled = vec![0u8; size];
    copy_linear_to_tiled(s, &mut tiled, &region, &element, cpp).unwrap();
    let what = format!(
        "{} {} {:?} L{level} {layer_or_z} ({x},{y}) byte {byte}",
        s.gen(),
        s.tiling(),
        s.dim()
    );
    assert_eq!(tiled[want as usize], element[byte as usize], "{what}");
    if size <= 16 << 20 {
        let written = tiled.iter().filter(|&&b| b != 0).count();
        assert_eq!(written, cpp, "{what}: other bytes changed");
    }
    tiled[want as usize] = 0xa5;
    let mut back = vec![0u8; cpp];
    copy_tiled_to_linear(s, &mut back, cpp, &region, &tiled).unwrap();
    assert_eq!(back[byte as usize], 0xa5, "{what}: read back");
}

fn surf(
    gen: Gen,
    dim: SurfDim,
    format: Format,
    tiling: Tiling,
    extent: (u32, u32, u32),
    pitch: Option<u32>,
) -> Surface {
    let mut d = SurfaceDesc::new(gen, dim, format, tiling).extent(extent.0, extent.1, extent.2);
    if let Some(p) = pitch {
        d = d.row_pitch(p);
    }
    let s = Surface::new(d).unwrap();
    if let Some(p) = pitch {
        assert_eq!(s.row_pitch_B(), p);
    }
    s
}

#[test]
fn small_pitch_vectors() {
    use Format::*;
    use SurfDim::*;
    // (gen, dim, format, tiling, extent, pitch, z, x_el, byte, y, swizzle, offset); the
    // byte column of docs/hardware/surface-layout.md §9 is x_el * cpp + byte.
    let d2 = |w, h| (w, h, 1);
    #[rustfmt::skip]
    let cases = [
        (Gen::Gfx7, D2, R8_UINT, Tiling::X, d2(1024, 40), 1024, 0, 354, 0, 33, true, 33570),
        (Gen::Gfx7, D2, R8_UINT, Tiling::X, d2(1024, 40), 1024, 0, 354, 0, 33, false, 33634),
        (Gen::Gfx7, D2, R8_UINT, Tiling::X, d2(1536, 40), 1536, 0, 195, 0, 34, true, 50307),
        (Gen::Gfx7, D2, R8_UINT, Tiling::Y, d2(1024, 40), 1024, 0, 1015, 0, 18, false, 32551),
        (Gen::Gfx7, D2, R8_UINT, Tiling::Y, d2(1024, 40), 1024, 0, 110, 0, 3, true, 3134),
        (Gen::Gfx125, D2, R8_UINT, Tiling::Tile4, d2(1024, 41), 1024, 0, 1007, 0, 40, false, 63119),
        (Gen::Gfx125, D2, R8_UINT, Tiling::Tile4, d2(1536, 16), 1536, 0, 1143, 0, 15, false, 34807),
        (Gen::Gfx125, D2, R8_UINT, Tiling::Tile4, d2(1536, 40), 1536, 0, 1475, 0, 36, false, 94979),
        (Gen::Gfx125, D2, R8_UINT, Tiling::Tile64, d2(2048, 80), 2048, 0, 300, 0, 77, false, 83356),
        (Gen::Gfx20, D2, R8_UINT, Tiling::Tile64, d2(2048, 80), 2048, 0, 300, 0, 77, false, 83356),
        (Gen::Gfx125, D2, R32_UINT, Tiling::Tile64, d2(512, 80), 2048, 0, 75, 0, 77, false, 42396),
        (Gen::Gfx20, D2, R32_UINT, Tiling::Tile64, d2(512, 80), 2048, 0, 75, 0, 77, false, 42396),
        (Gen::Gfx125, D2, R32G32B32A32_UINT, Tiling::Tile64, d2(128, 80), 2048, 0, 18, 12, 77, false, 140700),
        (Gen::Gfx20, D2, R32G32B32A32_UINT, Tiling::Tile64, d2(128, 80), 2048, 0, 18, 12, 77, false, 140700),
        (Gen::Gfx125, D3, R8_UINT, Tiling::Tile64, (1024, 22, 14), 1024, 13, 100, 0, 21, false, 96660),
        (Gen::Gfx20, D3, R8_UINT, Tiling::Tile64, (1024, 22, 14), 1024, 13, 100, 0, 21, false, 95636),
        (Gen::Gfx125, D3, R32_UINT, Tiling::Tile64, (256, 22, 14), 1024, 13, 25, 0, 21, false, 62868),
        (Gen::Gfx20, D3, R32_UINT, Tiling::Tile64, (256, 22, 14), 1024, 13, 25, 0, 21, false, 62868),
        (Gen::Gfx125, D3, R32G32_UINT, Tiling::Tile64, (128, 22, 14), 1024, 13, 12, 4, 21, false, 314772),
        (Gen::Gfx20, D3, R32G32_UINT, Tiling::Tile64, (128, 22, 14), 1024, 13, 12, 4, 21, false, 314772),
        (Gen::Gfx9, D2, R32_UINT, Tiling::Yf, d2(512, 80), 2048, 0, 75, 0, 77, false, 140124),
        (Gen::Gfx9, D2, R32_UINT, Tiling::Ys, d2(512, 80), 2048, 0, 75, 0, 77, false, 50012),
        (Gen::Gfx11, D2, R32_UINT, Tiling::Ys, d2(512, 80), 2048, 0, 75, 0, 77, false, 50012),
        (Gen::Gfx9, D3, R32_UINT, Tiling::Ys, (256, 22, 14), 1024, 13, 25, 0, 21, false, 62804),
        (Gen::Gfx11, D3, R32_UINT, Tiling::Ys, (256, 22, 14), 1024, 13, 25, 0, 21, false, 62748),
    ];
    for (gen, dim, format, tiling, extent, pitch, z, x, byte, y, swizzle, want) in cases {
        let s = surf(gen, dim, format, tiling, extent, Some(pitch));
        let swizzle = Bit6Swizzle::from_has_bit6_swizzling(swizzle);
        check_vector(&s, 0, z, x, y, byte, swizzle, want);
    }
    // W stencil (pitch 256 = twice the 128-byte logical width).
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx8, D2, R8_UINT, Tiling::W)
            .extent(128, 80, 1)
            .usage(Usage::STENCIL),
    )
    .unwrap();
    assert_eq!(s.row_pitch_B(), 256);
    check_vector(&s, 0, 0, 37, 70, 0, Bit6Swizzle::None, 10297);
}

#[test]
fn whole_surface_vectors() {
    use Format::*;
    use SurfDim::*;
    let usage = Usage::TEXTURE | Usage::STORAGE;
    // BDW RGBA8 3D 256³, Y: level 2, z = 5, texel (10, 20).
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx8, D3, R8G8B8A8_UNORM, Tiling::Y)
            .extent(256, 256, 256)
            .levels(9),
    )
    .unwrap();
    check_vector(&s, 2, 5, 10, 20, 0, Bit6Swizzle::None, 75572552);
    // DG2 RGBA8 3D 16x16x8, 4 levels, Tile4.
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx125, D3, R8G8B8A8_UNORM, Tiling::Tile4)
            .extent(16, 16, 8)
            .levels(4)
            .usage(Usage::STORAGE),
    )
    .unwrap();
    for (level, z, x, y, want) in [
        (0, 4, 15, 7, 16892),
        (1, 2, 7, 4, 10572),
        (2, 1, 0, 1, 6288),
        (3, 0, 1, 0, 2436),
    ] {
        check_vector(&s, level, z, x, y, 0, Bit6Swizzle::None, want);
    }
    // Xe2 RGBA8 2D 256x128, 3 layers, Tile64.
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx20, D2, R8G8B8A8_UNORM, Tiling::Tile64)
            .extent(256, 128, 1)
            .array_len(3)
            .usage(usage),
    )
    .unwrap();
    check_vector(&s, 0, 0, 202, 99, 0, Bit6Swizzle::None, 123064);
    check_vector(&s, 0, 2, 195, 99, 0, Bit6Swizzle::None, 385084);
    // DG2 RGBA16 3D 33x1x8, 5 levels, Tile64 with a mip tail from level 1.
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx125, D3, R16G16B16A16_UNORM, Tiling::Tile64)
            .extent(33, 1, 8)
            .levels(5)
            .usage(usage),
    )
    .unwrap();
    check_vector(&s, 0, 7, 21, 0, 0, Bit6Swizzle::None, 22152);
    check_vector(&s, 1, 3, 13, 0, 0, Bit6Swizzle::None, 138888);
    check_vector(&s, 2, 1, 4, 0, 0, Bit6Swizzle::None, 140416);
    // Xe2 RGBA16 3D 64x1x5, Tile64.
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx20, D3, R16G16B16A16_UNORM, Tiling::Tile64)
            .extent(64, 1, 5)
            .usage(usage),
    )
    .unwrap();
    check_vector(&s, 0, 4, 25, 0, 0, Bit6Swizzle::None, 22536);
    // SKL RGBA16 2D 256x5, 2 layers, 9 levels, Ys, mip tail from level 2.
    let s = Surface::new(
        SurfaceDesc::new(Gen::Gfx9, D2, R16G16B16A16_UNORM, Tiling::Ys)
            .extent(256, 5, 1)
            .array_len(2)
            .levels(9)
            .usage(usage),
    )
    .unwrap();
    check_vector(&s, 2, 1, 38, 0, 0, Bit6Swizzle::None, 499904);
    check_vector(&s, 8, 0, 0, 0, 0, Bit6Swizzle::None, 197888);
}

// ---------------------------------------------------------------------------------------
// Random surfaces and rectangles.

const FORMATS: [Format; 15] = [
    Format::R8_UINT,
    Format::R8G8_UNORM,
    Format::R16_FLOAT,
    Format::R8G8B8_UNORM,
    Format::R8G8B8A8_UNORM,
    Format::R32_FLOAT,
    Format::R16G16B16_UINT,
    Format::R16G16B16A16_UNORM,
    Format::R32G32_UINT,
    Format::R32G32B32_UINT,
    Format::R32G32B32A32_FLOAT,
    Format::BC1_UNORM,
    Format::BC3_UNORM,
    Format::R32G32B32_FLOAT,
    Format::R8G8B8A8_UNORM,
];

fn pick<T: Copy>(g: &mut QcGen, xs: &[T]) -> T {
    *g.choose(xs).unwrap()
}

fn below(g: &mut QcGen, n: u32) -> u32 {
    u32::arbitrary(g) % n
}

/// A random copy: surface, image, rectangle, options and buffer shapes.
#[derive(Clone, Debug)]
struct Case {
    desc: SurfaceDesc,
    level: u32,
    layer_or_z: u32,
    rect: Rect,
    swizzle: Bit6Swizzle,
    stores: StoreHint,
    /// Linear pitch minus the rectangle's row size.
    pitch_pad: usize,
    /// Bytes both buffers start after a 64-byte boundary.
    misalign: usize,
    seed: u64,
}

impl Case {
    /// A case of `tiling`, or `None` when the random choices do not make a valid one.
    fn generate(g: &mut QcGen, tiling: Tiling) -> Option<(Case, Surface)> {
        let gens: Vec<Gen> = Gen::ALL
            .into_iter()
            .filter(|&gen| tiling.is_supported_on(gen))
            .collect();
        let gen = pick(g, &gens);
        let stencil = tiling == Tiling::W || (gen.ver() >= 6 && below(g, 8) == 0);
        let dim = if stencil {
            SurfDim::D2
        } else {
            pick(
                g,
                &[
                    SurfDim::D1,
                    SurfDim::D2,
                    SurfDim::D2,
                    SurfDim::D3,
                    SurfDim::D3,
                ],
            )
        };
        // Tiles with depth: mostly 3D, deep enough for several slabs of tiles.
        let dim = if tiling.is_std() && dim != SurfDim::D3 && bool::arbitrary(g) {
            SurfDim::D3
        } else {
            dim
        };
        let (format, usage) = if stencil {
            (Format::R8_UINT, Usage::STENCIL)
        } else {
            let f = pick(g, &FORMATS);
            if f.is_compressed() && dim == SurfDim::D1 {
                return None;
            }
            (f, Usage::TEXTURE)
        };
        if !allowed_tilings(gen, format, dim, usage, 1).contains(&tiling) {
            return None;
        }
        // Mostly small, sometimes several tiles of every kind.
        let size = |g: &mut QcGen| {
            if below(g, 3) == 0 {
                pick(g, &[64, 100, 129, 200, 257, 300, 520])
            } else {
                pick(g, &[1, 2, 3, 4, 5, 8, 13, 17, 31, 33])
            }
        };
        let mut w = size(g);
        let mut h = if dim == SurfDim::D1 { 1 } else { size(g) };
        let d = if dim == SurfDim::D3 {
            if tiling.is_std() && bool::arbitrary(g) {
                pick(g, &[33, 40])
            } else {
                pick(g, &[1, 2, 5, 9, 17, 33, 40])
            }
        } else {
            1
        };
        if d > 8 {
            // Keep deep volumes small.
            w = w.min(40);
            h = h.min(40);
        }
        let layers = if dim == SurfDim::D3 {
            1
        } else {
            pick(g, &[1, 1, 2, 3, 7])
        };
        if format.is_compressed() {
            w = w.max(4);
            h = h.max(4);
        }
        let largest: u32 = w.max(h).max(d);
        let levels = 1 + below(g, 32 - largest.leading_zeros());
        let desc = SurfaceDesc::new(gen, dim, format, tiling)
            .extent(w, h, d)
            .levels(levels)
            .array_len(layers)
            .usage(usage);
        let s = Surface::new(desc).ok()?;
        // Level 0 and the last layer or slice often: deep 3D slices reach past the first
        // slab of tiles.
        let level = if bool::arbitrary(g) {
            0
        } else {
            below(g, levels)
        };
        let e = s.level_extent_el(level);
        let n = if dim == SurfDim::D3 {
            e.d
        } else {
            s.array_len()
        };
        let layer_or_z = if bool::arbitrary(g) {
            n - 1
        } else {
            below(g, n)
        };
        let span = |g: &mut QcGen, len: u32| -> (u32, u32) {
            match below(g, 6) {
                0 => (0, len),           // the whole extent
                1 => (below(g, len), 1), // one element
                2 => {
                    let start = below(g, len); // up to the edge
                    (start, len - start)
                }
                _ => {
                    let start = below(g, len);
                    (start, 1 + below(g, len - start))
                }
            }
        };
        let (x, w_el) = span(g, e.w);
        let (y, mut h_el) = span(g, e.h);
        // Keep the byte-by-byte oracle affordable.
        h_el = h_el.min((1 << 16) / w_el).max(1);
        let swizzle = Bit6Swizzle::from_has_bit6_swizzling(
            gen.ver() < 8
                && matches!(tiling, Tiling::X | Tiling::Y | Tiling::Linear)
                && bool::arbitrary(g),
        );
        let case = Case {
            desc,
            level,
            layer_or_z,
            rect: Rect::new(x, y, w_el, h_el),
            swizzle,
            stores: pick(
                g,
                &[StoreHint::Auto, StoreHint::Cached, StoreHint::Streaming],
            ),
            pitch_pad: pick(g, &[0, 0, 1, 3, 16, 64]),
            misalign: if below(g, 4) == 0 {
                1 + below(g, 15) as usize
            } else {
                0
            },
            seed: u64::arbitrary(g) | 1,
        };
        Some((case, s))
    }

    fn region(&self) -> CopyRegion {
        CopyRegion::new(self.level, self.layer_or_z, self.rect)
            .with_swizzle(self.swizzle)
            .with_stores(self.stores)
    }

    fn row_b(&self) -> usize {
        self.rect.w_el as usize * self.desc.format.cpp() as usize
    }

    fn pitch(&self) -> usize {
        self.row_b() + self.pitch_pad
    }

    fn linear_len(&self) -> usize {
        (self.rect.h_el as usize - 1) * self.pitch() + self.row_b()
    }

    /// `f(linear offset, tiled offset)` for every byte of the rectangle, tiled offsets
    /// from `Surface::texel_byte_offset`.
    fn for_each_byte(&self, s: &Surface, mut f: impl FnMut(usize, usize)) {
        let cpp = s.format().cpp();
        let r = self.rect;
        for y in 0..r.h_el {
            for x in 0..r.w_el {
                let (xe, ye) = (r.x_el + x, r.y_el + y);
                let l = y as usize * self.pitch() + (x * cpp) as usize;
                if cpp.is_power_of_two() {
                    // Power-of-two elements are contiguous in every tiling.
                    let t = s
                        .texel_offset(xe, ye, self.layer_or_z, self.level, self.swizzle)
                        .unwrap() as usize;
                    for b in 0..cpp as usize {
                        f(l + b, t + b);
                    }
                } else {
                    for b in 0..cpp {
                        let t = s
                            .texel_byte_offset(xe, ye, self.layer_or_z, self.level, b, self.swizzle)
                            .unwrap();
                        f(l + b as usize, t as usize);
                    }
                }
            }
        }
    }
}

impl Arbitrary for Case {
    /// The tiling first, so that every tiling is as likely; then a generation that has
    /// it and a surface it is allowed for.
    fn arbitrary(g: &mut QcGen) -> Case {
        let tiling = pick(g, &Tiling::ALL);
        loop {
            if let Some((c, _)) = Case::generate(g, tiling) {
                return c;
            }
        }
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<(usize, u8, u8)> {
    a.iter()
        .zip(b)
        .enumerate()
        .find(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| (i, *x, *y))
}

fn prop_linear_to_tiled(case: Case) -> TestResult {
    let s = Surface::new(case.desc).unwrap();
    let mut bytes = Bytes(case.seed);
    let size = s.size_B() as usize;
    let mut tiled_store = Vec::new();
    let tiled = window(&mut tiled_store, size, case.misalign);
    bytes.fill(tiled);
    let background = tiled.to_vec();
    let mut lin_store = Vec::new();
    let linear = window(&mut lin_store, case.linear_len(), case.misalign);
    bytes.fill(linear);
    let mut expected = background;
    case.for_each_byte(&s, |l, t| expected[t] = linear[l]);
    if let Err(e) = copy_linear_to_tiled(&s, tiled, &case.region(), linear, case.pitch()) {
        return TestResult::error(format!("{e}"));
    }
    match first_difference(tiled, &expected) {
        None => TestResult::passed(),
        Some((i, got, want)) => {
            TestResult::error(format!("tiled byte {i}: got {got:#x}, want {want:#x}"))
        }
    }
}

fn prop_tiled_to_linear(case: Case) -> TestResult {
    let s = Surface::new(case.desc).unwrap();
    let mut bytes = Bytes(case.seed);
    let size = s.size_B() as usize;
    let mut tiled_store = Vec::new();
    let tiled = window(&mut tiled_store, size, case.misalign);
    bytes.fill(tiled);
    let mut lin_store = Vec::new();
    let linear = window(&mut lin_store, case.linear_len(), case.misalign);
    bytes.fill(linear);
    let mut expected = linear.to_vec();
    case.for_each_byte(&s, |l, t| expected[l] = tiled[t]);
    if let Err(e) = copy_tiled_to_linear(&s, linear, case.pitch(), &case.region(), tiled) {
        return TestResult::error(format!("{e}"));
    }
    match first_difference(linear, &expected) {
        None => TestResult::passed(),
        Some((i, got, want)) => {
            TestResult::error(format!("linear byte {i}: got {got:#x}, want {want:#x}"))
        }
    }
}

fn prop_round_trip(case: Case) -> TestResult {
    let s = Surface::new(case.desc).unwrap();
    let mut bytes = Bytes(case.seed);
    let mut tiled = vec![0u8; s.size_B() as usize];
    bytes.fill(&mut tiled);
    let mut linear = vec![0u8; case.linear_len()];
    bytes.fill(&mut linear);
    let region = case.region();
    copy_linear_to_tiled(&s, &mut tiled, &region, &linear, case.pitch()).unwrap();
    let mut back = vec![0u8; linear.len()];
    copy_tiled_to_linear(&s, &mut back, case.pitch(), &region, &tiled).unwrap();
    let rows_equal = (0..case.rect.h_el as usize).all(|y| {
        let r = y * case.pitch()..y * case.pitch() + case.row_b();
        back[r.clone()] == linear[r]
    });
    TestResult::from_bool(rows_equal)
}

/// Cases per property in a normal run.
const PROPERTY_CASES: u64 = 100;

fn quickcheck(seed: u64, tests: u64) -> QuickCheck {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, seed))
        .tests(qc_tests(tests))
        .max_tests(qc_tests(tests) * 20)
}

#[test]
fn linear_to_tiled_matches_texel_offsets() {
    quickcheck(0x5eed_0c01, PROPERTY_CASES)
        .quickcheck(prop_linear_to_tiled as fn(Case) -> TestResult);
}

#[test]
fn tiled_to_linear_matches_texel_offsets() {
    quickcheck(0x5eed_0c02, PROPERTY_CASES)
        .quickcheck(prop_tiled_to_linear as fn(Case) -> TestResult);
}

#[test]
fn round_trip_is_identity() {
    quickcheck(0x5eed_0c03, PROPERTY_CASES).quickcheck(prop_round_trip as fn(Case) -> TestResult);
}

// ---------------------------------------------------------------------------------------
// Whole tiles: surfaces and rectangles big enough for the whole-tile kernels.

/// Copies `rect` of level 0 both ways with `stores` and checks every byte against
/// `Surface::texel_offset`, and that nothing else changed.
fn check_rect(s: &Surface, rect: Rect, swizzle: Bit6Swizzle, stores: StoreHint) {
    let case = Case {
        desc: *s.desc(),
        level: 0,
        layer_or_z: 0,
        rect,
        swizzle,
        stores,
        pitch_pad: 48,
        misalign: 0,
        seed: 0x1234_5678_9abc_def1,
    };
    let what = format!(
        "{} {} {} {rect} {swizzle:?} {stores:?}",
        s.gen(),
        s.tiling(),
        s.format()
    );
    let r = prop_linear_to_tiled(case.clone());
    assert!(
        !r.is_failure() && !r.is_error(),
        "{what}: linear->tiled {r:?}"
    );
    let r = prop_tiled_to_linear(case);
    assert!(
        !r.is_failure() && !r.is_error(),
        "{what}: tiled->linear {r:?}"
    );
}

#[test]
fn whole_tiles_and_edges() {
    use Format::*;
    let cases = [
        (Gen::Gfx7, Tiling::X, R8G8B8A8_UNORM, 300, 40, false),
        (Gen::Gfx7, Tiling::X, R8G8B8A8_UNORM, 300, 40, true),
        (Gen::Gfx75, Tiling::X, R32G32B32_UINT, 100, 30, true),
        (Gen::Gfx7, Tiling::Y, R8G8B8A8_UNORM, 100, 100, false),
        (Gen::Gfx7, Tiling::Y, R8G8B8A8_UNORM, 100, 100, true),
        (Gen::Gfx6, Tiling::Y, R8G8B8_UNORM, 130, 70, true),
        (Gen::Gfx9, Tiling::Y, BC3_UNORM, 200, 200, false),
        (Gen::Gfx125, Tiling::Tile4, R8G8B8A8_UNORM, 100, 100, false),
        (Gen::Gfx20, Tiling::Tile4, R32G32B32_FLOAT, 40, 70, false),
        (Gen::Gfx125, Tiling::Tile64, R8_UINT, 520, 260, false),
        (Gen::Gfx125, Tiling::Tile64, R8G8B8A8_UNORM, 260, 140, false),
        (
            Gen::Gfx125,
            Tiling::Tile64,
            R32G32B32A32_FLOAT,
            150,
            150,
            false,
        ),
        (
            Gen::Gfx20,
            Tiling::Tile64,
            R16G16B16A16_UNORM,
            300,
            150,
            false,
        ),
        (Gen::Gfx20, Tiling::Tile64, R8G8_UNORM, 520, 140, false),
        (Gen::Gfx11, Tiling::Ys, R8G8B8A8_UNORM, 260, 140, false),
        (Gen::Gfx9, Tiling::Yf, R16_FLOAT, 150, 70, false),
        (Gen::Gfx125, Tiling::Linear, R8G8B8A8_UNORM, 300, 40, false),
        (Gen::Gfx7, Tiling::Linear, R8G8B8_UNORM, 300, 40, true),
    ];
    for (gen, tiling, format, w, h, swizzle) in cases {
        let s = Surface::new(SurfaceDesc::new(gen, SurfDim::D2, format, tiling).extent(w, h, 1))
            .unwrap();
        let swizzle = Bit6Swizzle::from_has_bit6_swizzling(swizzle);
        let e = s.level_extent_el(0);
        for stores in [StoreHint::Cached, StoreHint::Streaming] {
            check_rect(&s, Rect::new(0, 0, e.w, e.h), swizzle, stores);
            check_rect(&s, Rect::new(3, 1, e.w - 5, e.h - 2), swizzle, stores);
        }
    }
}

#[test]
fn whole_tiles_of_3d_slices_and_layers() {
    use Format::*;
    for (gen, tiling, dim, format, (w, h, d, a), image) in [
        (
            Gen::Gfx125,
            Tiling::Tile4,
            SurfDim::D3,
            R8G8B8A8_UNORM,
            (64, 64, 5, 1),
            (0, 3),
        ),
        (
            Gen::Gfx125,
            Tiling::Tile64,
            SurfDim::D3,
            R8_UINT,
            (130, 40, 40, 1),
            (0, 35),
        ),
        (
            Gen::Gfx20,
            Tiling::Tile64,
            SurfDim::D3,
            R32_FLOAT,
            (70, 40, 20, 1),
            (0, 17),
        ),
        (
            Gen::Gfx125,
            Tiling::Tile64,
            SurfDim::D2,
            R8G8B8A8_UNORM,
            (200, 140, 1, 3),
            (0, 2),
        ),
        (
            Gen::Gfx9,
            Tiling::Ys,
            SurfDim::D3,
            R16_FLOAT,
            (40, 40, 40, 1),
            (0, 33),
        ),
        (
            Gen::Gfx8,
            Tiling::Y,
            SurfDim::D3,
            R8G8B8A8_UNORM,
            (64, 64, 8, 1),
            (1, 3),
        ),
        (
            Gen::Gfx7,
            Tiling::X,
            SurfDim::D2,
            R8G8B8A8_UNORM,
            (300, 20, 1, 4),
            (0, 3),
        ),
    ] {
        let s = Surface::new(
            SurfaceDesc::new(gen, dim, format, tiling)
                .extent(w, h, d)
                .array_len(a)
                .levels(if image.0 > 0 { 2 } else { 1 }),
        )
        .unwrap();
        let e = s.level_extent_el(image.0);
        for stores in [StoreHint::Cached, StoreHint::Streaming] {
            let case = Case {
                desc: *s.desc(),
                level: image.0,
                layer_or_z: image.1,
                rect: Rect::new(0, 0, e.w, e.h),
                swizzle: Bit6Swizzle::None,
                stores,
                pitch_pad: 16,
                misalign: 0,
                seed: 77,
            };
            let what = format!("{} {} {dim} {image:?} {stores:?}", s.gen(), s.tiling());
            let r = prop_linear_to_tiled(case.clone());
            assert!(!r.is_failure() && !r.is_error(), "{what}: {r:?}");
            let r = prop_tiled_to_linear(case);
            assert!(!r.is_failure() && !r.is_error(), "{what}: {r:?}");
        }
    }
}

/// Over 4 MiB with the default hint: the streaming kernels with prefetching, checked
/// against the surface's addresses on a sample of texels and by a round trip.
#[test]
fn large_copies_stream() {
    for (gen, tiling, swizzle) in [
        (Gen::Gfx125, Tiling::X, Bit6Swizzle::None),
        (Gen::Gfx7, Tiling::X, Bit6Swizzle::Enabled),
        (Gen::Gfx9, Tiling::Y, Bit6Swizzle::None),
        (Gen::Gfx7, Tiling::Y, Bit6Swizzle::Enabled),
        (Gen::Gfx125, Tiling::Tile4, Bit6Swizzle::None),
        (Gen::Gfx125, Tiling::Tile64, Bit6Swizzle::None),
        (Gen::Gfx20, Tiling::Tile64, Bit6Swizzle::None),
        (Gen::Gfx125, Tiling::Linear, Bit6Swizzle::None),
    ] {
        let s = Surface::new(
            SurfaceDesc::new(gen, SurfDim::D2, Format::R8G8B8A8_UNORM, tiling)
                .extent(1100, 1030, 1),
        )
        .unwrap();
        let e = s.level_extent_el(0);
        let region = CopyRegion::image(&s, 0, 0).with_swizzle(swizzle);
        let pitch = e.w as usize * 4 + 64;
        let mut linear = vec![0u8; pitch * e.h as usize];
        Bytes(99).fill(&mut linear);
        let mut tiled = vec![0u8; s.size_B() as usize];
        copy_linear_to_tiled(&s, &mut tiled, &region, &linear, pitch).unwrap();
        for i in 0..5000u32 {
            let (x, y) = ((i * 7919) % e.w, (i * 104729) % e.h);
            let t = s.texel_offset(x, y, 0, 0, swizzle).unwrap() as usize;
            let l = y as usize * pitch + x as usize * 4;
            assert_eq!(tiled[t..t + 4], linear[l..l + 4], "{tiling} ({x},{y})");
        }
        let mut back = vec![0u8; linear.len()];
        copy_tiled_to_linear(&s, &mut back, pitch, &region, &tiled).unwrap();
        for y in 0..e.h as usize {
            let r = y * pitch..y * pitch + e.w as usize * 4;
            assert!(back[r.clone()] == linear[r], "{gen} {tiling} row {y}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Errors.

#[test]
fn bad_requests_are_errors_and_write_nothing() {
    let s = Surface::new(
        SurfaceDesc::new(
            Gen::Gfx125,
            SurfDim::D2,
            Format::R8G8B8A8_UNORM,
            Tiling::Tile4,
        )
        .extent(40, 20, 1)
        .levels(2)
        .array_len(3),
    )
    .unwrap();
    let size = s.size_B() as usize;
    let mut tiled = vec![0x5au8; size];
    let linear = vec![1u8; 40 * 4 * 20];
    let mut out = vec![0x5au8; 40 * 4 * 20];
    let ok = CopyRegion::new(0, 0, Rect::new(0, 0, 40, 20));
    let check = |region: CopyRegion,
                 tiled: &mut [u8],
                 linear: &[u8],
                 out: &mut [u8],
                 pitch: usize,
                 want: &dyn Fn(&CopyError) -> bool| {
        let e = copy_linear_to_tiled(&s, tiled, &region, linear, pitch).unwrap_err();
        assert!(want(&e), "linear->tiled: {e:?}");
        assert!(!e.to_string().is_empty());
        let e = copy_tiled_to_linear(&s, out, pitch, &region, tiled).unwrap_err();
        assert!(want(&e), "tiled->linear: {e:?}");
    };
    check(
        CopyRegion { level: 2, ..ok },
        &mut tiled,
        &linear,
        &mut out,
        160,
        &|e| {
            matches!(
                e,
                CopyError::Image(AddressError::LevelOutOfRange {
                    level: 2,
                    levels: 2
                })
            )
        },
    );
    check(
        CopyRegion {
            layer_or_z: 3,
            ..ok
        },
        &mut tiled,
        &linear,
        &mut out,
        160,
        &|e| {
            matches!(
                e,
                CopyError::Image(AddressError::LayerOutOfRange {
                    layer: 3,
                    layers: 3
                })
            )
        },
    );
    for rect in [
        Rect::new(0, 0, 41, 20),
        Rect::new(40, 0, 1, 1),
        Rect::new(0, 15, 1, 6),
        Rect::new(u32::MAX, 0, 2, 1),
        Rect::new(0, 1, 1, u32::MAX),
    ] {
        check(
            CopyRegion { rect, ..ok },
            &mut tiled,
            &linear,
            &mut out,
            160,
            &|e| {
                matches!(
                    e,
                    CopyError::RectOutOfBounds {
                        width_el: 40,
                        height_el: 20,
                        ..
                    }
                )
            },
        );
    }
    // Level 1 is 20x10.
    check(
        CopyRegion::new(1, 0, Rect::new(0, 0, 21, 1)),
        &mut tiled,
        &linear,
        &mut out,
        160,
        &|e| {
            matches!(
                e,
                CopyError::RectOutOfBounds {
                    level: 1,
                    width_el: 20,
                    ..
                }
            )
        },
    );
    check(
        ok.with_swizzle(Bit6Swizzle::Enabled),
        &mut tiled,
        &linear,
        &mut out,
        160,
        &|e| {
            matches!(
                e,
                CopyError::SwizzleUnsupported {
                    tiling: Tiling::Tile4,
                    ..
                }
            )
        },
    );
    check(ok, &mut tiled, &linear, &mut out, 159, &|e| {
        matches!(
            e,
            CopyError::LinearPitchTooSmall {
                pitch_b: 159,
                row_b: 160
            }
        )
    });
    check(
        ok,
        &mut tiled,
        &linear[..3199],
        &mut out[..3199],
        160,
        &|e| {
            matches!(
                e,
                CopyError::LinearBufferTooSmall {
                    len: 3199,
                    needed: 3200
                }
            )
        },
    );
    check(ok, &mut tiled[..4096], &linear, &mut out, 160, &|e| {
        matches!(
            e,
            CopyError::TiledBufferTooSmall {
                len: 4096,
                needed: 8192
            }
        )
    });
    // A pitch overflowing the needed size is a size error, not a panic.
    check(
        CopyRegion::new(0, 0, Rect::new(0, 0, 1, 20)),
        &mut tiled,
        &linear,
        &mut out,
        usize::MAX,
        &|e| matches!(e, CopyError::LinearBufferTooSmall { .. }),
    );
    assert!(
        tiled.iter().all(|&b| b == 0x5a),
        "a failed copy wrote to the tiled buffer"
    );
    assert!(
        out.iter().all(|&b| b == 0x5a),
        "a failed copy wrote to the linear buffer"
    );

    // Swizzle: W has none described, Gfx8 X none at all; linear before Gfx8 is a no-op.
    let w = Surface::new(
        SurfaceDesc::new(Gen::Gfx7, SurfDim::D2, Format::R8_UINT, Tiling::W)
            .extent(64, 64, 1)
            .usage(Usage::STENCIL),
    )
    .unwrap();
    let x8 = Surface::new(
        SurfaceDesc::new(Gen::Gfx8, SurfDim::D2, Format::R8_UINT, Tiling::X).extent(64, 64, 1),
    )
    .unwrap();
    for s in [&w, &x8] {
        let mut t = vec![0u8; s.size_B() as usize];
        let region = CopyRegion::image(s, 0, 0).with_swizzle(Bit6Swizzle::Enabled);
        let e = copy_linear_to_tiled(s, &mut t, &region, &[0; 64 * 64], 64).unwrap_err();
        assert!(matches!(e, CopyError::SwizzleUnsupported { .. }), "{e:?}");
        assert!(e.to_string().contains("before Gfx8"), "{e}");
    }

    // Empty rectangles copy nothing, even from empty buffers.
    for rect in [
        Rect::new(0, 0, 0, 20),
        Rect::new(40, 20, 0, 0),
        Rect::new(3, 4, 5, 0),
    ] {
        let region = CopyRegion::new(0, 1, rect);
        copy_linear_to_tiled(&s, &mut [], &region, &[], 0).unwrap();
        copy_tiled_to_linear(&s, &mut [], 0, &region, &[]).unwrap();
    }
    // One row needs no pitch.
    let region = CopyRegion::new(0, 0, Rect::new(2, 3, 5, 1));
    copy_linear_to_tiled(&s, &mut tiled, &region, &[7; 20], 0).unwrap();
    let at = s.texel_offset(6, 3, 0, 0, Bit6Swizzle::None).unwrap() as usize;
    assert_eq!(tiled[at..at + 4], [7; 4]);
}

/// Streaming needs 16-byte aligned destination chunks: copies whose chunks would not be
/// aligned (the buffer, or the rectangle's first whole tile in the linear buffer) fall
/// back to ordinary stores instead of faulting.
#[test]
fn streaming_falls_back_when_misaligned() {
    for (gen, tiling) in [
        (Gen::Gfx125, Tiling::X),
        (Gen::Gfx9, Tiling::Y),
        (Gen::Gfx125, Tiling::Tile4),
        (Gen::Gfx125, Tiling::Tile64),
    ] {
        let s = Surface::new(
            SurfaceDesc::new(gen, SurfDim::D2, Format::R8G8B8A8_UNORM, tiling).extent(260, 140, 1),
        )
        .unwrap();
        // x = 3: the first whole tile starts 116 bytes into each linear row, with a pitch
        // that is a multiple of 16 and buffers that start 64-byte aligned, or 1, 4 or 8
        // bytes after.
        for (x, misalign) in [(3, 0), (0, 1), (0, 4), (0, 8), (4, 0)] {
            let rect = Rect::new(x, 0, 260 - x, 140);
            let pitch = (rect.w_el as usize * 4).next_multiple_of(16);
            let case = Case {
                desc: *s.desc(),
                level: 0,
                layer_or_z: 0,
                rect,
                swizzle: Bit6Swizzle::None,
                stores: StoreHint::Streaming,
                pitch_pad: pitch - rect.w_el as usize * 4,
                misalign,
                seed: 5,
            };
            assert_eq!(case.pitch() % 16, 0);
            let what = format!("{tiling} x {x} misalign {misalign}");
            let r = prop_linear_to_tiled(case.clone());
            assert!(!r.is_failure() && !r.is_error(), "{what}: {r:?}");
            let r = prop_tiled_to_linear(case);
            assert!(!r.is_failure() && !r.is_error(), "{what}: {r:?}");
        }
    }
}

/// The cases each property runs reach every tiling (both Tile64 variants), 3D slices
/// beyond the first slab of tiles, swizzling, 24/48/96-bit and compressed elements,
/// misaligned buffers and every store hint.
#[test]
fn generator_coverage() {
    for seed in [0x5eed_0c01, 0x5eed_0c02, 0x5eed_0c03] {
        let mut g = QcGen::from_size_and_seed(100, seed);
        let mut tilings = std::collections::BTreeSet::new();
        let (mut deep_z, mut swizzled, mut odd, mut compressed, mut misaligned) = (0, 0, 0, 0, 0);
        let mut stores = std::collections::BTreeSet::new();
        for _ in 0..qc_tests(PROPERTY_CASES) {
            // What `QuickCheck` does with the property's generator.
            let c = Case::arbitrary(&mut g);
            let s = Surface::new(c.desc).unwrap();
            tilings.insert((s.tiling(), s.gen() == Gen::Gfx20));
            let t = s.tile_info().logical_extent_el();
            deep_z += (s.dim() == SurfDim::D3 && c.layer_or_z >= t.d && t.d > 1) as u32;
            swizzled += c.swizzle.is_enabled() as u32;
            odd += !s.format().cpp().is_power_of_two() as u32;
            compressed += s.format().is_compressed() as u32;
            misaligned += (c.misalign != 0) as u32;
            stores.insert(format!("{:?}", c.stores));
        }
        for t in Tiling::ALL {
            assert!(
                tilings.iter().any(|&(u, _)| u == t),
                "seed {seed:#x}: no {t} case"
            );
        }
        assert!(
            tilings.contains(&(Tiling::Tile64, true)),
            "seed {seed:#x}: no Xe2 Tile64"
        );
        assert!(
            tilings.contains(&(Tiling::Tile64, false)),
            "seed {seed:#x}: no Gfx12.5 Tile64"
        );
        for (what, count) in [
            ("3D slices past the first slab", deep_z),
            ("swizzled", swizzled),
            ("24/48/96-bit", odd),
            ("compressed", compressed),
            ("misaligned", misaligned),
        ] {
            assert!(count >= 1, "seed {seed:#x}: no {what} case");
        }
        assert_eq!(stores.len(), 3, "seed {seed:#x}");
    }
}
