//! Properties over random surfaces: every byte of every texel gets its own address inside
//! the surface, and a byte-by-byte decode of the tiled memory finds every texel where the
//! forward map put it.

use quickcheck::{Arbitrary, Gen as QcGen, TestResult};

use super::quickcheck;
use crate::dim::SurfDim;
use crate::format::Format;
use crate::generation::Gen;
use crate::surface::{Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::Tiling;
use crate::tiling_filter::allowed_tilings;
use crate::usage::Usage;

/// A random, valid surface description with small extents (so that every texel can be
/// enumerated), including edge sizes 1 and non-powers of two.
#[derive(Clone, Debug)]
pub(super) struct SurfCase {
    pub desc: SurfaceDesc,
}

const COLOUR: [Format; 20] = [
    Format::R8_UINT,
    Format::R8G8_UNORM,
    Format::R16_FLOAT,
    Format::R8G8B8_UNORM,
    Format::R8G8B8A8_UNORM,
    Format::R32_FLOAT,
    Format::R11G11B10_FLOAT,
    Format::R16G16B16_UINT,
    Format::R16G16B16A16_SNORM,
    Format::R32G32_UINT,
    Format::R64_PASSTHRU,
    Format::R32G32B32_FLOAT,
    Format::R32G32B32A32_FLOAT,
    Format::BC1_UNORM,
    Format::BC3_UNORM,
    Format::ASTC_LDR_2D_8X8_FLT16,
    // Non-power-of-two blocks, a YUV format and the shared-exponent format.
    Format::ASTC_LDR_2D_5X4_FLT16,
    Format::FXT1,
    Format::YCRCB_NORMAL,
    Format::R9G9B9E5_SHAREDEXP,
];

const SIZES: [u32; 14] = [1, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 31, 40];

fn pick<T: Copy>(g: &mut QcGen, xs: &[T]) -> T {
    *g.choose(xs).unwrap()
}

impl SurfCase {
    /// A valid description, or `None` when the random choices leave no tiling.
    fn generate(g: &mut QcGen, storage_only: bool) -> Option<SurfaceDesc> {
        let gen = pick(g, &Gen::ALL);
        let dim = pick(g, &[SurfDim::D1, SurfDim::D2, SurfDim::D2, SurfDim::D3]);
        let mut usage = if storage_only {
            Usage::STORAGE
        } else {
            pick(
                g,
                &[
                    Usage::TEXTURE,
                    Usage::STORAGE,
                    Usage::TEXTURE | Usage::STORAGE,
                    Usage::RENDER_TARGET | Usage::TEXTURE,
                    Usage::STENCIL,
                    Usage::DEPTH,
                ],
            )
        };
        let mut format = pick(g, &COLOUR);
        if usage.contains(Usage::STENCIL) {
            if gen.ver() < 6 || dim == SurfDim::D3 {
                usage = Usage::TEXTURE;
            } else {
                format = Format::R8_UINT;
            }
        }
        if usage.contains(Usage::DEPTH) {
            if dim == SurfDim::D3 {
                usage = Usage::TEXTURE;
            } else {
                format = pick(
                    g,
                    &[
                        Format::R16_UNORM,
                        Format::R24_UNORM_X8_TYPELESS,
                        Format::R32_FLOAT,
                    ],
                );
            }
        }
        if storage_only && !format.is_storage_image_format() {
            format = pick(
                g,
                &[
                    Format::R8_UINT,
                    Format::R16G16_FLOAT,
                    Format::R8G8B8A8_UNORM,
                    Format::R32G32_UINT,
                    Format::R32G32B32A32_FLOAT,
                    Format::R16_SNORM,
                ],
            );
        }
        if format.is_compressed() {
            if dim == SurfDim::D1 {
                format = Format::R8G8B8A8_UNORM;
            } else {
                usage = Usage::TEXTURE;
            }
        }
        let cube = dim == SurfDim::D2 && !usage.is_depth_or_stencil() && u8::arbitrary(g) % 6 == 0;
        if cube {
            usage |= Usage::CUBE;
        }
        let tilings = allowed_tilings(gen, format, dim, usage, 1);
        if tilings.is_empty() {
            return None;
        }
        let tiling = pick(g, &tilings);
        let mut w = pick(g, &SIZES);
        let mut h = if dim == SurfDim::D1 {
            1
        } else {
            pick(g, &SIZES)
        };
        let d = if dim == SurfDim::D3 {
            pick(g, &[1, 2, 3, 5, 8])
        } else {
            1
        };
        let mut layers = if dim == SurfDim::D3 {
            1
        } else {
            pick(g, &[1, 1, 2, 3, 4])
        };
        if cube {
            h = w;
            layers = if gen == Gen::Gfx4 {
                6
            } else {
                pick(g, &[6, 12])
            };
        }
        if format.is_compressed() && !cube {
            // Keep a few blocks.
            w = w.max(4) * 2;
            h = h.max(4) * 2;
        }
        let largest = w.max(h).max(d);
        let max_levels = 32 - largest.leading_zeros();
        let levels = 1 + u32::arbitrary(g) % max_levels;
        Some(
            SurfaceDesc::new(gen, dim, format, tiling)
                .extent(w, h, d)
                .levels(levels)
                .array_len(layers)
                .usage(usage),
        )
    }
}

impl Arbitrary for SurfCase {
    fn arbitrary(g: &mut QcGen) -> SurfCase {
        loop {
            if let Some(desc) = SurfCase::generate(g, false) {
                return SurfCase { desc };
            }
        }
    }
}

/// Calls `f(level, layer_or_z, x, y)` for every texel of the surface.
pub(super) fn for_each_texel(s: &Surface, mut f: impl FnMut(u32, u32, u32, u32)) {
    for level in 0..s.levels() {
        let e = s.level_extent_el(level);
        let layers = if s.dim() == SurfDim::D3 {
            e.d
        } else {
            s.array_len()
        };
        for layer in 0..layers {
            for y in 0..e.h {
                for x in 0..e.w {
                    f(level, layer, x, y);
                }
            }
        }
    }
}

fn injective_and_in_bounds(case: SurfCase) -> TestResult {
    let s = match Surface::new(case.desc) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{:?}: {e}", case.desc)),
    };
    let size = s.size_B();
    let cpp = s.format().cpp();
    let swizzle = Bit6Swizzle::from_has_bit6_swizzling(
        s.gen().ver() < 8
            && matches!(s.tiling(), Tiling::X | Tiling::Y | Tiling::Linear)
            && case.desc.width.is_multiple_of(2),
    );
    let mut seen = vec![0u64; (size as usize).div_ceil(64)];
    let mut failure = None;
    for_each_texel(&s, |level, layer, x, y| {
        if failure.is_some() {
            return;
        }
        let base = s.texel_offset(x, y, layer, level, swizzle);
        for byte in 0..cpp {
            let off = match s.texel_byte_offset(x, y, layer, level, byte, swizzle) {
                Ok(o) => o,
                Err(e) => {
                    failure = Some(format!("({x},{y}) l{level} a{layer}: {e}"));
                    return;
                }
            };
            if byte == 0 && Ok(off) != base {
                failure = Some("texel_offset differs from byte 0".into());
            }
            if s.format().is_pow2_bpb() && Ok(off) != base.as_ref().map(|b| b + byte as u64) {
                failure = Some(format!(
                    "({x},{y}) l{level} a{layer}: element not contiguous"
                ));
            }
            if off >= size {
                failure = Some(format!(
                    "({x},{y}) l{level} a{layer} byte {byte}: offset {off} >= size {size}"
                ));
                return;
            }
            let (w, b) = ((off / 64) as usize, off % 64);
            if seen[w] >> b & 1 == 1 {
                failure = Some(format!(
                    "({x},{y}) l{level} a{layer} byte {byte}: offset {off} used twice"
                ));
                return;
            }
            seen[w] |= 1 << b;
        }
    });
    match failure {
        Some(f) => TestResult::error(format!("{:?} swizzle={swizzle:?}: {f}", case.desc)),
        None => TestResult::passed(),
    }
}

#[test]
fn texel_offsets_are_injective_and_inside_the_surface() {
    quickcheck(100, 0x5eed_0101, 300)
        .quickcheck(injective_and_in_bounds as fn(SurfCase) -> TestResult);
}

/// Decodes a byte offset of an unswizzled surface back to `(x_B, y, z, array)` surface
/// coordinates with the inverse of docs/hardware/surface-layout.md §4, byte by byte.
fn decode(s: &Surface, off: u64) -> (u64, u64, u64, u64) {
    let t = s.tile_info();
    let pitch = s.row_pitch_B() as u64;
    if s.tiling() == Tiling::Linear {
        return (off % pitch, off / pitch, 0, 0);
    }
    let e = t.logical_extent_el();
    let row_bytes = pitch * t.phys_height() as u64;
    let tile_row = off / row_bytes;
    let tile_col = (off % row_bytes) / t.size_B() as u64;
    let (u, v, r, _) = t.intra_tile_coords((off % t.size_B() as u64) as u32);
    let x_b = tile_col * t.logical_width_B() as u64 + u as u64;
    let qpitch_tl = (s.array_pitch_el_rows() / e.h) as u64;
    if s.tiling().is_std() && qpitch_tl > 0 {
        let slab = tile_row / qpitch_tl;
        let y = (tile_row % qpitch_tl) * e.h as u64 + v as u64;
        if s.dim() == SurfDim::D3 {
            (x_b, y, slab * e.d as u64 + r as u64, 0)
        } else {
            (x_b, y, 0, slab)
        }
    } else {
        (x_b, tile_row * e.h as u64 + v as u64, r as u64, 0)
    }
}

fn decode_finds_every_texel(case: SurfCase) -> TestResult {
    let s = match Surface::new(case.desc) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{:?}: {e}", case.desc)),
    };
    let cpp = s.format().cpp() as u64;
    let mut failure = None;
    for_each_texel(&s, |level, layer, x, y| {
        if failure.is_some() {
            return;
        }
        let o = s.image_offset_el(level, layer).unwrap();
        for byte in 0..cpp as u32 {
            let off = s
                .texel_byte_offset(x, y, layer, level, byte, Bit6Swizzle::None)
                .unwrap();
            let want = (
                (o.x_el + x) as u64 * cpp + byte as u64,
                (o.y_el + y) as u64,
                o.z_el as u64,
                o.array_offset as u64,
            );
            let got = decode(&s, off);
            if got != want {
                failure = Some(format!(
                    "({x},{y}) l{level} a{layer} byte {byte}: offset {off} decodes to {got:?}, \
                     expected {want:?}"
                ));
            }
        }
    });
    match failure {
        Some(f) => TestResult::error(format!("{:?}: {f}", case.desc)),
        None => TestResult::passed(),
    }
}

#[test]
fn byte_decode_inverts_texel_offsets() {
    quickcheck(100, 0x5eed_0102, 200)
        .quickcheck(decode_finds_every_texel as fn(SurfCase) -> TestResult);
}

#[test]
fn generator_covers_every_tiling_layout_and_tail() {
    use crate::dim_layout::DimLayout;
    use std::collections::HashSet;
    let mut g = QcGen::from_size_and_seed(100, 0x5eed_0103);
    let mut tilings = HashSet::new();
    let mut layouts = HashSet::new();
    let (mut tails, mut std_3d, mut cubes, mut yfys_3d_tails) = (0, 0, 0, 0);
    for _ in 0..2000 {
        let case = SurfCase::arbitrary(&mut g);
        let s = Surface::new(case.desc).unwrap();
        tilings.insert(s.tiling());
        layouts.insert(s.dim_layout());
        tails += s.miptail_first_level().is_some() as u32;
        std_3d += (s.tiling().is_std() && s.dim() == SurfDim::D3) as u32;
        cubes += case.desc.usage.contains(Usage::CUBE) as u32;
        yfys_3d_tails += (matches!(s.tiling(), Tiling::Yf | Tiling::Ys)
            && s.dim() == SurfDim::D3
            && s.miptail_first_level().is_some()) as u32;
    }
    assert_eq!(tilings.len(), Tiling::ALL.len(), "{tilings:?}");
    for l in [
        DimLayout::GFX4_2D,
        DimLayout::GFX4_3D,
        DimLayout::GFX6_STENCIL_HIZ,
        DimLayout::GFX9_1D,
    ] {
        assert!(layouts.contains(&l), "{l}");
    }
    assert!(
        tails > 20 && std_3d > 10 && cubes > 20 && yfys_3d_tails > 2,
        "{tails} {std_3d} {cubes} {yfys_3d_tails}"
    );
}
