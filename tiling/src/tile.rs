//! Tile geometry: extents and the intra-tile bit layouts of every tiling (docs/hardware/surface-layout.md
//! §3, §5).
//!
//! Each 2^n-byte tile is described by a bit pattern, kept as data: address bit *i* of the
//! byte offset inside the tile takes bit *k* of one coordinate, `u` (byte column), `v`
//! (row), `r` (slice) or `s` (sample), all relative to the tile. Patterns are written
//! MSB→LSB exactly as in the reference (`"v2 v1 v0 u8 ... u0"` for X) and parsed at
//! compile time. Extents, field decompositions and offsets are all derived from the
//! pattern, so a transcription error shows up everywhere at once.
//!
//! Byte addressing (docs/hardware/surface-layout.md §4): a byte at column `x_B`, row `y`, slice `z`, array
//! slot `a` and sample `s` lives at
//!
//! ```text
//! tile_row = y / h + (z / d + a / tile_a) * (qpitch_rows / h)
//! tile_col = x_B / w_B
//! offset   = tile_row * row_pitch * phys_h + tile_col * tile_size
//!          + intra(u = x_B % w_B, v = y % h, r = z % d, s = s % tile_a)
//! ```

use std::fmt;
use std::str::FromStr;

use crate::dim::{Extent4d, SurfDim};
use crate::generation::Gen;

/// A tiling as a driver names it. The exact layout also depends on the generation (SKL
/// vs ICL Yf/Ys, Gfx12.5 vs Xe2 Tile64); [`IslTiling`] is the resolved variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tiling {
    /// Row-major, no tiling.
    Linear,
    /// X-major 4 KB tiles, 512 B × 8 rows.
    X,
    /// Legacy Y-major 4 KB tiles (isl's `Y0`), 128 B × 32 rows.
    Y,
    /// W-major 4 KB stencil tiles, 64 × 64 bytes logically.
    W,
    /// Standard 4 KB tiles (TileYF), Gfx9–12.
    Yf,
    /// Standard 64 KB tiles (TileYS), Gfx9–12.
    Ys,
    /// Tile4, the Gfx12.5+ 4 KB tile.
    Tile4,
    /// Tile64, the Gfx12.5+ 64 KB tile.
    Tile64,
}

impl Tiling {
    /// Every tiling, in `tile_mode` order.
    pub const ALL: [Tiling; 8] = [
        Tiling::Linear,
        Tiling::X,
        Tiling::Y,
        Tiling::W,
        Tiling::Yf,
        Tiling::Ys,
        Tiling::Tile4,
        Tiling::Tile64,
    ];

    /// Short name: `linear`, `x`, `y`, `w`, `yf`, `ys`, `tile4`, `tile64`.
    pub fn name(self) -> &'static str {
        match self {
            Tiling::Linear => "linear",
            Tiling::X => "x",
            Tiling::Y => "y",
            Tiling::W => "w",
            Tiling::Yf => "yf",
            Tiling::Ys => "ys",
            Tiling::Tile4 => "tile4",
            Tiling::Tile64 => "tile64",
        }
    }

    /// The code stored in the image parameter block's `tile_mode` lane: 0 linear, 1 X,
    /// 2 Y, 3 W, 4 Yf, 5 Ys, 6 Tile4, 7 Tile64.
    pub fn tile_mode(self) -> u32 {
        Tiling::ALL.iter().position(|&t| t == self).unwrap_or(0) as u32
    }

    /// The isl tiling this resolves to on `gen`, or why `gen` does not have it
    /// (docs/hardware/surface-layout.md §2).
    pub fn isl(self, gen: Gen) -> Result<IslTiling, TileError> {
        let v = gen.verx10();
        let unsupported = || TileError::UnsupportedOnGen { tiling: self, gen };
        Ok(match self {
            Tiling::Linear => IslTiling::Linear,
            Tiling::X => IslTiling::X,
            Tiling::Y if v < 125 => IslTiling::Y0,
            // Gfx12 dropped W; Gfx4/5 never had it.
            Tiling::W if (60..120).contains(&v) => IslTiling::W,
            Tiling::Yf if v == 90 => IslTiling::SklYf,
            Tiling::Yf if (110..125).contains(&v) => IslTiling::IclYf,
            Tiling::Ys if v == 90 => IslTiling::SklYs,
            Tiling::Ys if (110..125).contains(&v) => IslTiling::IclYs,
            Tiling::Tile4 if v >= 125 => IslTiling::Tile4,
            Tiling::Tile64 if v == 125 => IslTiling::Tile64,
            Tiling::Tile64 if v >= 200 => IslTiling::Tile64Xe2,
            _ => return Err(unsupported()),
        })
    }

    /// Whether `gen` has this tiling at all.
    pub fn is_supported_on(self, gen: Gen) -> bool {
        self.isl(gen).is_ok()
    }

    /// The generations that have this tiling, for error messages.
    fn supported_gens(self) -> &'static str {
        match self {
            Tiling::Linear | Tiling::X => "every generation",
            Tiling::Y => "Gfx4 to Gfx12 (Gfx12.5+ replaced it with Tile4)",
            Tiling::W => "Gfx6 to Gfx11",
            Tiling::Yf | Tiling::Ys => "Gfx9 to Gfx12",
            Tiling::Tile4 | Tiling::Tile64 => "Gfx12.5 and later",
        }
    }

    /// Whether images in this tiling are tile-aligned "standard" tiles that keep z and
    /// array slices as separate offsets and may have a mip tail (Yf, Ys, Tile64).
    pub fn is_std(self) -> bool {
        matches!(self, Tiling::Yf | Tiling::Ys | Tiling::Tile64)
    }
}

impl fmt::Display for Tiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no tiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTilingError {
    /// The text that failed to parse.
    pub input: String,
}

impl fmt::Display for ParseTilingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown tiling `{}` (expected linear, x, y, w, yf, ys, tile4 or tile64)",
            self.input
        )
    }
}

impl std::error::Error for ParseTilingError {}

impl FromStr for Tiling {
    type Err = ParseTilingError;

    /// Accepts the short names case-insensitively, plus `y0`, `ymajor`, `xmajor`,
    /// `wmajor`, `4`, `64`, `tile-4`, `tile_64` and the `isl_tiling_` spellings.
    fn from_str(s: &str) -> Result<Tiling, ParseTilingError> {
        let lower = s.trim().to_ascii_lowercase();
        let bare = lower.strip_prefix("isl_tiling_").unwrap_or(&lower);
        let bare = bare.replace(['-', '_'], "");
        Ok(match bare.as_str() {
            "linear" | "none" => Tiling::Linear,
            "x" | "xmajor" | "tilex" => Tiling::X,
            "y" | "y0" | "ymajor" | "tiley" => Tiling::Y,
            "w" | "wmajor" | "tilew" => Tiling::W,
            "yf" | "sklyf" | "iclyf" | "tileyf" => Tiling::Yf,
            "ys" | "sklys" | "iclys" | "tileys" => Tiling::Ys,
            "4" | "tile4" => Tiling::Tile4,
            "64" | "tile64" | "64xe2" | "tile64xe2" => Tiling::Tile64,
            _ => {
                return Err(ParseTilingError {
                    input: s.to_string(),
                })
            }
        })
    }
}

/// isl's `enum isl_tiling`, restricted to the main-surface tilings: [`Tiling`] resolved
/// for a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IslTiling {
    /// `ISL_TILING_LINEAR`.
    Linear,
    /// `ISL_TILING_X`.
    X,
    /// `ISL_TILING_Y0`.
    Y0,
    /// `ISL_TILING_W`.
    W,
    /// `ISL_TILING_SKL_Yf` (Gfx9).
    SklYf,
    /// `ISL_TILING_SKL_Ys` (Gfx9).
    SklYs,
    /// `ISL_TILING_ICL_Yf` (Gfx11, Gfx12).
    IclYf,
    /// `ISL_TILING_ICL_Ys` (Gfx11, Gfx12).
    IclYs,
    /// `ISL_TILING_4` (Gfx12.5+).
    Tile4,
    /// `ISL_TILING_64` (Gfx12.5).
    Tile64,
    /// `ISL_TILING_64_XE2` (Xe2).
    Tile64Xe2,
}

impl IslTiling {
    /// The driver-level tiling this variant belongs to.
    pub fn tiling(self) -> Tiling {
        match self {
            IslTiling::Linear => Tiling::Linear,
            IslTiling::X => Tiling::X,
            IslTiling::Y0 => Tiling::Y,
            IslTiling::W => Tiling::W,
            IslTiling::SklYf | IslTiling::IclYf => Tiling::Yf,
            IslTiling::SklYs | IslTiling::IclYs => Tiling::Ys,
            IslTiling::Tile4 => Tiling::Tile4,
            IslTiling::Tile64 | IslTiling::Tile64Xe2 => Tiling::Tile64,
        }
    }

    /// isl's enum spelling, e.g. `ISL_TILING_SKL_Yf`.
    pub fn name(self) -> &'static str {
        match self {
            IslTiling::Linear => "ISL_TILING_LINEAR",
            IslTiling::X => "ISL_TILING_X",
            IslTiling::Y0 => "ISL_TILING_Y0",
            IslTiling::W => "ISL_TILING_W",
            IslTiling::SklYf => "ISL_TILING_SKL_Yf",
            IslTiling::SklYs => "ISL_TILING_SKL_Ys",
            IslTiling::IclYf => "ISL_TILING_ICL_Yf",
            IslTiling::IclYs => "ISL_TILING_ICL_Ys",
            IslTiling::Tile4 => "ISL_TILING_4",
            IslTiling::Tile64 => "ISL_TILING_64",
            IslTiling::Tile64Xe2 => "ISL_TILING_64_XE2",
        }
    }

    fn is_skl(self) -> bool {
        matches!(self, IslTiling::SklYf | IslTiling::SklYs)
    }
}

impl fmt::Display for IslTiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A coordinate inside a tile: the byte column `u`, the row `v`, the slice `r` and the
/// sample `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coord {
    /// Byte column inside the tile.
    U,
    /// Row inside the tile.
    V,
    /// Slice (3D depth) inside the tile.
    R,
    /// Sample (MSAA array slot) inside the tile.
    S,
}

impl Coord {
    /// `u`, `v`, `r` or `s`.
    pub fn letter(self) -> char {
        match self {
            Coord::U => 'u',
            Coord::V => 'v',
            Coord::R => 'r',
            Coord::S => 's',
        }
    }
}

/// The source of one address bit inside a tile: bit `bit` of coordinate `coord`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitSrc {
    /// The coordinate.
    pub coord: Coord,
    /// The bit of the coordinate.
    pub bit: u8,
}

impl fmt::Display for BitSrc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.coord.letter(), self.bit)
    }
}

/// "Bits `[src_shift, src_shift + width)` of the coordinate go to byte-address bits
/// `[dst_shift, dst_shift + width)`": one `bitfield_insert(a, coord >> src_shift,
/// dst_shift, width)` of the shader address formula. `width == 0` is a no-op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field {
    /// First coordinate bit.
    pub src_shift: u32,
    /// First address bit.
    pub dst_shift: u32,
    /// Number of bits.
    pub width: u32,
}

/// An intra-tile bit pattern: `bits[i]` is the source of address bit `i` (LSB first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pattern {
    bits: [BitSrc; 16],
    len: u8,
}

impl Pattern {
    /// Parses a pattern written MSB→LSB (`"v2 v1 v0 u8 ... u0"`). Runs at compile time
    /// for the tables below, so a malformed table does not build.
    const fn parse(s: &str) -> Pattern {
        let b = s.as_bytes();
        let filler = BitSrc {
            coord: Coord::U,
            bit: 0,
        };
        let mut msb_first = [filler; 16];
        let mut n = 0;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b' ' {
                i += 1;
                continue;
            }
            let coord = match b[i] {
                b'u' => Coord::U,
                b'v' => Coord::V,
                b'r' => Coord::R,
                b's' => Coord::S,
                _ => panic!("pattern: coordinate letter must be u, v, r or s"),
            };
            i += 1;
            let mut bit = 0u8;
            let mut digits = 0;
            while i < b.len() && b[i] != b' ' {
                assert!(b[i].is_ascii_digit(), "pattern: bit index must be decimal");
                bit = bit * 10 + (b[i] - b'0');
                i += 1;
                digits += 1;
            }
            assert!(digits > 0, "pattern: missing bit index");
            assert!(n < 16, "pattern: more than 16 address bits");
            msb_first[n] = BitSrc { coord, bit };
            n += 1;
        }
        let mut bits = [filler; 16];
        let mut k = 0;
        while k < n {
            bits[k] = msb_first[n - 1 - k];
            k += 1;
        }
        Pattern { bits, len: n as u8 }
    }

    /// The low `n` address bits (Yf uses the low 12 bits of the Ys tables).
    const fn low(self, n: u8) -> Pattern {
        assert!(n <= self.len);
        Pattern {
            bits: self.bits,
            len: n,
        }
    }

    fn as_slice(&self) -> &[BitSrc] {
        &self.bits[..self.len as usize]
    }

    fn count(&self, c: Coord) -> u32 {
        self.as_slice().iter().filter(|b| b.coord == c).count() as u32
    }
}

/// The bit patterns of docs/hardware/surface-layout.md §5 (and, for Yf/Ys MSAA, Mesa's isl tables, which
/// the reference does not reproduce).
mod patterns {
    use super::Pattern;

    const fn p(s: &str) -> Pattern {
        Pattern::parse(s)
    }

    // §5.1
    pub const X: Pattern = p("v2 v1 v0 u8 u7 u6 u5 u4 u3 u2 u1 u0");
    pub const Y: Pattern = p("u6 u5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0");
    pub const W: Pattern = p("u5 u4 u3 v5 v4 v3 v2 u2 v1 u1 v0 u0");
    pub const TILE4: Pattern = p("v4 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0");

    // §5.2: Yf/Ys 2D single-sample (Yf = the low 12 bits).
    pub const YS_2D_128_64: Pattern = p("u9 v5 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const YS_2D_32_16: Pattern = p("u8 v6 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0");
    pub const YS_2D_8: Pattern = p("u7 v7 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0");

    // §5.3 (not in the reference; isl's tile_yf_2d_*msaa_swiz / tile_ys_2d_*msaa_swiz,
    // BSpec 770/768). Indexed [log2(samples) - 1].
    pub const YF_2D_128_64_MSAA: [Pattern; 4] = [
        p("s0 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 u5 u4 v1 v0 u3 u2 u1 u0"),
    ];
    pub const YF_2D_32_16_MSAA: [Pattern; 4] = [
        p("s0 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 u4 v2 v1 v0 u3 u2 u1 u0"),
    ];
    pub const YF_2D_8_MSAA: [Pattern; 4] = [
        p("s0 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 v3 v2 v1 v0 u3 u2 u1 u0"),
    ];
    pub const YS_2D_128_64_MSAA: [Pattern; 4] = [
        p("s0 v5 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 u7 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0"),
    ];
    pub const YS_2D_32_16_MSAA: [Pattern; 4] = [
        p("s0 v6 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 u6 v4 u5 v3 u4 v2 v1 v0 u3 u2 u1 u0"),
    ];
    pub const YS_2D_8_MSAA: [Pattern; 4] = [
        p("s0 v7 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s1 s0 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s2 s1 s0 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
        p("s3 s2 s1 s0 u5 v5 u4 v4 v3 v2 v1 v0 u3 u2 u1 u0"),
    ];

    // §5.4: Yf/Ys 3D (Yf = the low 12 bits).
    pub const SKL_3D_128_64: Pattern = p("u7 v3 r3 u6 v2 r2 u5 u4 r1 r0 v1 v0 u3 u2 u1 u0");
    pub const SKL_3D_32: Pattern = p("u6 v4 r3 u5 v3 r2 u4 v2 r1 r0 v1 v0 u3 u2 u1 u0");
    pub const SKL_3D_16_8: Pattern = p("u5 v4 r4 u4 v3 r3 v2 r2 r1 r0 v1 v0 u3 u2 u1 u0");
    pub const ICL_3D_128_64: Pattern = p("u7 v3 r3 u6 v2 r2 u5 v1 r1 u4 r0 v0 u3 u2 u1 u0");
    pub const ICL_3D_32: Pattern = p("u6 v4 r3 u5 v3 r2 u4 v2 r1 u3 v1 v0 r0 u2 u1 u0");
    pub const ICL_3D_16_8: Pattern = p("u5 v4 r4 u4 v3 r3 u3 v2 r2 u2 v1 v0 r1 r0 u1 u0");

    // §5.5: Tile64, Gfx12.5.
    pub const T64_2D_128_64: Pattern = p("v5 u9 u8 u7 v4 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_32_16: Pattern = p("v6 v5 u8 u7 v4 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_8: Pattern = p("v7 v6 v5 u7 v4 v3 u6 v2 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_128_64_2X: Pattern = p("v5 u8 u7 u6 v4 v3 u5 v2 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_32_16_2X: Pattern = p("v6 v5 u7 u6 v4 v3 u5 v2 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_8_2X: Pattern = p("v7 v6 v5 u6 v4 v3 u5 v2 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_128_64_4X: Pattern = p("v4 u8 u7 u6 v3 v2 u5 s1 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_32_16_4X: Pattern = p("v5 v4 u7 u6 v3 v2 u5 s1 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_2D_8_4X: Pattern = p("v6 v5 v4 u6 v3 v2 u5 s1 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_3D_128_64: Pattern = p("r3 r2 v3 u7 u6 u5 r1 v2 r0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_3D_32: Pattern = p("r3 r2 v4 u6 v3 u5 r1 v2 r0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_3D_16: Pattern = p("r4 r3 r2 v4 v3 u5 r1 v2 r0 u4 v1 v0 u3 u2 u1 u0");
    pub const T64_3D_8: Pattern = p("r4 r3 r2 u5 v4 v3 r1 v2 r0 u4 v1 v0 u3 u2 u1 u0");

    // §5.6: Tile64, Xe2. 2D single-sample is the Gfx12.5 pattern.
    pub const XE2_3D_128_64: Pattern = p("r3 r2 v3 u7 u6 v2 r1 r0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_3D_32: Pattern = p("r3 r2 v4 u6 v3 v2 r1 r0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_3D_16_8: Pattern = p("r4 r3 r2 v4 v3 v2 r1 r0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_2X_128: Pattern = p("v4 u9 u8 u7 v3 v2 u6 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    // §5.7: Mesa and gmmlib disagree; this is Mesa's xe2_tile64_2d_64bpp_2msaa_swiz
    // (identical to the Gfx12.5 2x pattern). gmmlib's INTEL_TILE_64_V2_MSAA2_64 would be
    // "v5 v4 u8 u7 v3 v2 u6 s0 u5 u4 v1 v0 u3 u2 u1 u0".
    pub const XE2_2X_64: Pattern = p("v5 u8 u7 u6 v4 v3 u5 v2 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_2X_32_16: Pattern = p("v6 v5 v4 u7 v3 v2 u6 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_2X_8: Pattern = p("v7 v6 v5 v4 v3 v2 u6 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_4X_128_64: Pattern = p("v4 u8 u7 u6 v3 v2 s1 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_4X_32_16: Pattern = p("v5 v4 u7 u6 v3 v2 s1 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_4X_8: Pattern = p("v6 v5 v4 u6 v3 v2 s1 s0 u5 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_8X_128_64_32: Pattern = p("v4 v3 u7 u6 v2 u5 s2 s1 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_8X_16_8: Pattern = p("v5 v4 v3 u6 v2 u5 s2 s1 s0 u4 v1 v0 u3 u2 u1 u0");
    pub const XE2_16X_128: Pattern = p("v3 u7 u6 u5 v2 u4 s3 s2 s1 s0 v1 v0 u3 u2 u1 u0");
    pub const XE2_16X_64_32_16: Pattern = p("v4 v3 u6 u5 v2 u4 s3 s2 s1 s0 v1 v0 u3 u2 u1 u0");
    pub const XE2_16X_8: Pattern = p("v5 v4 v3 u5 v2 u4 s3 s2 s1 s0 v1 v0 u3 u2 u1 u0");

    /// Every table, for consistency tests.
    #[cfg(test)]
    pub fn all() -> Vec<(&'static str, Pattern)> {
        let mut v = vec![
            ("X", X),
            ("Y", Y),
            ("W", W),
            ("TILE4", TILE4),
            ("YS_2D_128_64", YS_2D_128_64),
            ("YS_2D_32_16", YS_2D_32_16),
            ("YS_2D_8", YS_2D_8),
            ("SKL_3D_128_64", SKL_3D_128_64),
            ("SKL_3D_32", SKL_3D_32),
            ("SKL_3D_16_8", SKL_3D_16_8),
            ("ICL_3D_128_64", ICL_3D_128_64),
            ("ICL_3D_32", ICL_3D_32),
            ("ICL_3D_16_8", ICL_3D_16_8),
            ("T64_2D_128_64", T64_2D_128_64),
            ("T64_2D_32_16", T64_2D_32_16),
            ("T64_2D_8", T64_2D_8),
            ("T64_2D_128_64_2X", T64_2D_128_64_2X),
            ("T64_2D_32_16_2X", T64_2D_32_16_2X),
            ("T64_2D_8_2X", T64_2D_8_2X),
            ("T64_2D_128_64_4X", T64_2D_128_64_4X),
            ("T64_2D_32_16_4X", T64_2D_32_16_4X),
            ("T64_2D_8_4X", T64_2D_8_4X),
            ("T64_3D_128_64", T64_3D_128_64),
            ("T64_3D_32", T64_3D_32),
            ("T64_3D_16", T64_3D_16),
            ("T64_3D_8", T64_3D_8),
            ("XE2_3D_128_64", XE2_3D_128_64),
            ("XE2_3D_32", XE2_3D_32),
            ("XE2_3D_16_8", XE2_3D_16_8),
            ("XE2_2X_128", XE2_2X_128),
            ("XE2_2X_64", XE2_2X_64),
            ("XE2_2X_32_16", XE2_2X_32_16),
            ("XE2_2X_8", XE2_2X_8),
            ("XE2_4X_128_64", XE2_4X_128_64),
            ("XE2_4X_32_16", XE2_4X_32_16),
            ("XE2_4X_8", XE2_4X_8),
            ("XE2_8X_128_64_32", XE2_8X_128_64_32),
            ("XE2_8X_16_8", XE2_8X_16_8),
            ("XE2_16X_128", XE2_16X_128),
            ("XE2_16X_64_32_16", XE2_16X_64_32_16),
            ("XE2_16X_8", XE2_16X_8),
        ];
        for (i, t) in YF_2D_128_64_MSAA.iter().enumerate() {
            v.push((
                [
                    "YF_128_64_2X",
                    "YF_128_64_4X",
                    "YF_128_64_8X",
                    "YF_128_64_16X",
                ][i],
                *t,
            ));
        }
        for (i, t) in YF_2D_32_16_MSAA.iter().enumerate() {
            v.push((
                ["YF_32_16_2X", "YF_32_16_4X", "YF_32_16_8X", "YF_32_16_16X"][i],
                *t,
            ));
        }
        for (i, t) in YF_2D_8_MSAA.iter().enumerate() {
            v.push((["YF_8_2X", "YF_8_4X", "YF_8_8X", "YF_8_16X"][i], *t));
        }
        for (i, t) in YS_2D_128_64_MSAA.iter().enumerate() {
            v.push((
                [
                    "YS_128_64_2X",
                    "YS_128_64_4X",
                    "YS_128_64_8X",
                    "YS_128_64_16X",
                ][i],
                *t,
            ));
        }
        for (i, t) in YS_2D_32_16_MSAA.iter().enumerate() {
            v.push((
                ["YS_32_16_2X", "YS_32_16_4X", "YS_32_16_8X", "YS_32_16_16X"][i],
                *t,
            ));
        }
        for (i, t) in YS_2D_8_MSAA.iter().enumerate() {
            v.push((["YS_8_2X", "YS_8_4X", "YS_8_8X", "YS_8_16X"][i], *t));
        }
        v
    }
}

/// Why a tile cannot be formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileError {
    /// The generation does not have this tiling (docs/hardware/surface-layout.md §2).
    UnsupportedOnGen {
        /// The requested tiling.
        tiling: Tiling,
        /// The generation.
        gen: Gen,
    },
    /// The element size cannot use this tiling.
    UnsupportedFormatSize {
        /// The requested tiling.
        tiling: Tiling,
        /// Bits per element.
        bpb: u32,
        /// What the tiling requires.
        requirement: &'static str,
    },
    /// The tiling has no layout for this dimensionality.
    UnsupportedDimension {
        /// The requested tiling.
        tiling: Tiling,
        /// The dimensionality.
        dim: SurfDim,
    },
    /// The sample count is not 1, 2, 4, 8 or 16, or the tiling/dimension has no
    /// multisampled layout.
    UnsupportedSamples {
        /// The requested tiling.
        tiling: Tiling,
        /// The sample count.
        samples: u32,
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for TileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileError::UnsupportedOnGen { tiling, gen } => write!(
                f,
                "tiling {tiling} does not exist on {gen} (it exists on {})",
                tiling.supported_gens()
            ),
            TileError::UnsupportedFormatSize {
                tiling,
                bpb,
                requirement,
            } => write!(
                f,
                "tiling {tiling} cannot hold {bpb}-bit elements: {requirement}"
            ),
            TileError::UnsupportedDimension { tiling, dim } => {
                write!(f, "tiling {tiling} has no {dim} layout")
            }
            TileError::UnsupportedSamples {
                tiling,
                samples,
                reason,
            } => write!(f, "tiling {tiling} with {samples} samples: {reason}"),
        }
    }
}

impl std::error::Error for TileError {}

/// A position handed to [`TileInfo::offset_B`]: byte column, row, slice, array slot and
/// sample, relative to the surface base (for legacy tilings array slices are already
/// folded into `y`, as isl does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct TileCoord {
    /// Byte column, `x_el * bytes_per_element`.
    pub x_B: u32,
    /// Element row.
    pub y: u32,
    /// Slice (3D) offset, split into in-tile `r` bits and tile-depth slabs.
    pub z: u32,
    /// Array-slice offset of standard tilings (isl's `array_offset`).
    pub array: u32,
    /// Sample index.
    pub sample: u32,
}

/// The geometry of one tile: isl's `isl_tile_info` plus the bit pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileInfo {
    isl: IslTiling,
    dim: SurfDim,
    bpb: u32,
    format_bpb: u32,
    samples: u32,
    logical_el: Extent4d,
    logical_w_b: u32,
    phys_w_b: u32,
    phys_h: u32,
    pattern: Option<Pattern>,
}

fn log2(n: u32) -> u32 {
    debug_assert!(n.is_power_of_two());
    n.trailing_zeros()
}

impl TileInfo {
    /// The tile of `tiling` on `gen` for a surface of dimensionality `dim` whose
    /// elements have `bpb` bits, with `samples` samples (1 for storage images; the MSAA
    /// variants model isl's array MSAA layout).
    pub fn new(
        tiling: Tiling,
        gen: Gen,
        dim: SurfDim,
        bpb: u32,
        samples: u32,
    ) -> Result<TileInfo, TileError> {
        TileInfo::from_isl(tiling.isl(gen)?, dim, bpb, samples)
    }

    /// The tile of an explicit isl tiling variant (e.g. `SKL_Yf` regardless of the
    /// generation), as isl's `isl_tiling_get_info` computes it.
    pub fn from_isl(
        isl: IslTiling,
        dim: SurfDim,
        bpb: u32,
        samples: u32,
    ) -> Result<TileInfo, TileError> {
        let tiling = isl.tiling();
        if bpb == 0 || !bpb.is_multiple_of(8) || bpb > 128 {
            return Err(TileError::UnsupportedFormatSize {
                tiling,
                bpb,
                requirement: "elements must be 8 to 128 bits in whole bytes",
            });
        }
        if !matches!(samples, 1 | 2 | 4 | 8 | 16) {
            return Err(TileError::UnsupportedSamples {
                tiling,
                samples,
                reason: "sample counts are 1, 2, 4, 8 or 16",
            });
        }
        if samples > 1 && dim != SurfDim::D2 {
            return Err(TileError::UnsupportedSamples {
                tiling,
                samples,
                reason: "only 2D surfaces can be multisampled",
            });
        }
        if isl == IslTiling::Linear {
            let cpp = bpb / 8;
            return Ok(TileInfo {
                isl,
                dim,
                bpb,
                format_bpb: bpb,
                samples,
                logical_el: Extent4d {
                    w: 1,
                    h: 1,
                    d: 1,
                    a: 1,
                },
                logical_w_b: cpp,
                phys_w_b: cpp,
                phys_h: 1,
                pattern: None,
            });
        }
        // isl: a 24/48/96-bit element uses the tile of bpb/3 (X, Y and Tile4 only); byte
        // addressing is unchanged (docs/hardware/surface-layout.md §3.1).
        let format_bpb = if bpb.is_power_of_two() {
            bpb
        } else if bpb.is_multiple_of(3)
            && (bpb / 3).is_power_of_two()
            && matches!(isl, IslTiling::X | IslTiling::Y0 | IslTiling::Tile4)
        {
            bpb / 3
        } else {
            return Err(TileError::UnsupportedFormatSize {
                tiling,
                bpb,
                requirement: "only X, Y and Tile4 take 24/48/96-bit elements",
            });
        };
        let pattern = select_pattern(isl, dim, format_bpb, samples)?;
        let w_b = 1u32 << pattern.count(Coord::U);
        let size = 1u32 << pattern.len;
        let (phys_w_b, phys_h) = match isl {
            IslTiling::X => (512, 8),
            IslTiling::Y0 | IslTiling::Tile4 | IslTiling::W => (128, 32),
            _ => (w_b, size / w_b),
        };
        debug_assert_eq!(phys_w_b * phys_h, size);
        let logical_el = Extent4d {
            w: w_b / (format_bpb / 8),
            h: 1 << pattern.count(Coord::V),
            d: 1 << pattern.count(Coord::R),
            a: 1 << pattern.count(Coord::S),
        };
        Ok(TileInfo {
            isl,
            dim,
            bpb,
            format_bpb,
            samples,
            logical_el,
            logical_w_b: w_b,
            phys_w_b,
            phys_h,
            pattern: Some(pattern),
        })
    }

    /// The driver-level tiling.
    pub fn tiling(&self) -> Tiling {
        self.isl.tiling()
    }

    /// The resolved isl tiling variant.
    pub fn isl_tiling(&self) -> IslTiling {
        self.isl
    }

    /// The dimensionality the tile was built for.
    pub fn dim(&self) -> SurfDim {
        self.dim
    }

    /// isl's `format_bpb`: the element size the tile is measured in (`bpb / 3` for
    /// 24/48/96-bit formats, else the format's bpb).
    pub fn format_bpb(&self) -> u32 {
        self.format_bpb
    }

    /// The sample count the tile was built for.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// isl's `logical_extent_el`: width, height, depth and array (sample) slots of one
    /// tile, in elements of [`format_bpb`](Self::format_bpb) bits.
    pub fn logical_extent_el(&self) -> Extent4d {
        self.logical_el
    }

    /// Logical tile width in bytes (`w_B` of docs/hardware/surface-layout.md §4).
    #[allow(non_snake_case)]
    pub fn logical_width_B(&self) -> u32 {
        self.logical_w_b
    }

    /// Physical tile width in bytes: the pitch is counted in these units.
    #[allow(non_snake_case)]
    pub fn phys_width_B(&self) -> u32 {
        self.phys_w_b
    }

    /// Physical tile height in rows of the pitch; one row of tiles is
    /// `row_pitch_B * phys_height()` bytes.
    pub fn phys_height(&self) -> u32 {
        self.phys_h
    }

    /// Tile size in bytes (`phys_width_B * phys_height`); the element size for linear.
    #[allow(non_snake_case)]
    pub fn size_B(&self) -> u32 {
        self.phys_w_b * self.phys_h
    }

    /// The intra-tile pattern, address bit 0 first; empty for linear.
    pub fn pattern(&self) -> &[BitSrc] {
        match &self.pattern {
            Some(p) => p.as_slice(),
            None => &[],
        }
    }

    /// The pattern as the reference writes it, MSB→LSB (`"v2 v1 v0 u8 ... u0"`);
    /// `"linear"` for linear.
    pub fn pattern_string(&self) -> String {
        if self.pattern.is_none() {
            return "linear".to_string();
        }
        let v: Vec<String> = self.pattern().iter().rev().map(|b| b.to_string()).collect();
        v.join(" ")
    }

    /// Byte offset inside the tile of in-tile byte column `u`, row `v`, slice `r` and
    /// sample `s`. Coordinates are reduced modulo the tile extent first.
    pub fn intra_tile_offset(&self, u: u32, v: u32, r: u32, s: u32) -> u32 {
        let Some(p) = &self.pattern else {
            return u % self.logical_w_b;
        };
        let mut off = 0u32;
        for (i, b) in p.as_slice().iter().enumerate() {
            let c = match b.coord {
                Coord::U => u,
                Coord::V => v,
                Coord::R => r,
                Coord::S => s,
            };
            off |= ((c >> b.bit) & 1) << i;
        }
        off
    }

    /// The inverse of [`intra_tile_offset`](Self::intra_tile_offset): the in-tile
    /// `(u, v, r, s)` stored at byte `offset` of a tile (`offset < size_B`).
    pub fn intra_tile_coords(&self, offset: u32) -> (u32, u32, u32, u32) {
        let Some(p) = &self.pattern else {
            return (offset % self.logical_w_b, 0, 0, 0);
        };
        let mut c = [0u32; 4];
        for (i, b) in p.as_slice().iter().enumerate() {
            let k = match b.coord {
                Coord::U => 0,
                Coord::V => 1,
                Coord::R => 2,
                Coord::S => 3,
            };
            c[k] |= ((offset >> i) & 1) << b.bit;
        }
        (c[0], c[1], c[2], c[3])
    }

    /// The byte offset of a byte position from the surface base (docs/hardware/surface-layout.md §4),
    /// before any bit-6 swizzle. `row_pitch_B` must be a multiple of
    /// [`phys_width_B`](Self::phys_width_B); `array_pitch_el_rows` (qpitch) a multiple of
    /// the tile height whenever `z` or `array` reach another tile.
    #[allow(non_snake_case)]
    pub fn offset_B(&self, row_pitch_B: u32, array_pitch_el_rows: u32, c: TileCoord) -> u64 {
        let e = self.logical_el;
        let tile_row = (c.y / e.h) as u64
            + ((c.z / e.d) as u64 + (c.array / e.a) as u64) * (array_pitch_el_rows / e.h) as u64;
        let tile_col = (c.x_B / self.logical_w_b) as u64;
        tile_row * row_pitch_B as u64 * self.phys_h as u64
            + tile_col * self.size_B() as u64
            + self.intra_tile_offset(
                c.x_B % self.logical_w_b,
                c.y % e.h,
                c.z % e.d,
                c.sample % e.a,
            ) as u64
    }

    /// The shader-formula decomposition of one coordinate (docs/hardware/surface-layout.md §5 patterns read
    /// as `bitfield_insert` steps): maximal runs of consecutive coordinate bits that land on
    /// consecutive address bits, in coordinate-bit order.
    ///
    /// For [`Coord::U`] the last field also carries the tile column, `x_B >>
    /// log2(logical_width_B)` inserted at `log2(size_B)` with width `32 - log2(size_B)`
    /// (merged with the previous run when they are contiguous); linear is the single
    /// field `(0, 0, 32)`. Rows, slabs and samples beyond the tile are not fields: the
    /// formula adds them with multiplications.
    pub fn address_fields(&self, axis: Coord) -> Vec<Field> {
        let Some(p) = &self.pattern else {
            return if axis == Coord::U {
                vec![Field {
                    src_shift: 0,
                    dst_shift: 0,
                    width: 32,
                }]
            } else {
                Vec::new()
            };
        };
        let mut pairs: Vec<(u32, u32)> = p
            .as_slice()
            .iter()
            .enumerate()
            .filter(|(_, b)| b.coord == axis)
            .map(|(i, b)| (b.bit as u32, i as u32))
            .collect();
        pairs.sort_unstable();
        let mut fields: Vec<Field> = Vec::new();
        let mut push = |src: u32, dst: u32, width: u32| {
            if let Some(last) = fields.last_mut() {
                if last.src_shift + last.width == src && last.dst_shift + last.width == dst {
                    last.width += width;
                    return;
                }
            }
            fields.push(Field {
                src_shift: src,
                dst_shift: dst,
                width,
            });
        };
        for (src, dst) in pairs {
            push(src, dst, 1);
        }
        if axis == Coord::U {
            let dst = p.len as u32;
            push(log2(self.logical_w_b), dst, 32 - dst);
        }
        fields
    }

    /// `log2` of the logical tile height in rows (the shader's `row_shift`); 0 for
    /// linear.
    pub fn row_shift(&self) -> u32 {
        log2(self.logical_el.h)
    }

    /// `log2` of the tile depth in slices (the shader's `slab_shift`).
    pub fn slab_shift(&self) -> u32 {
        log2(self.logical_el.d)
    }
}

/// isl's choice of swizzle table (`isl_tiling_get_info`).
fn select_pattern(
    isl: IslTiling,
    dim: SurfDim,
    bpb: u32,
    samples: u32,
) -> Result<Pattern, TileError> {
    use patterns::*;
    let tiling = isl.tiling();
    let msaa_idx = samples.trailing_zeros() as usize; // 0 for 1x, 1 for 2x, ...
    let no_msaa_3d = |p: Pattern| -> Result<Pattern, TileError> {
        if samples > 1 {
            Err(TileError::UnsupportedSamples {
                tiling,
                samples,
                reason: "3D tiles have no multisampled layout",
            })
        } else {
            Ok(p)
        }
    };
    match isl {
        IslTiling::Linear => unreachable!("linear has no pattern"),
        // The legacy tilings keep their pattern for any sample count: isl stores MSAA
        // samples as array slices (or interleaves them into a larger surface).
        IslTiling::X => Ok(X),
        IslTiling::Y0 => Ok(Y),
        IslTiling::Tile4 => Ok(TILE4),
        IslTiling::W => {
            if bpb != 8 {
                return Err(TileError::UnsupportedFormatSize {
                    tiling,
                    bpb,
                    requirement: "W tiling holds 8-bit stencil only",
                });
            }
            Ok(W)
        }
        IslTiling::SklYf | IslTiling::SklYs | IslTiling::IclYf | IslTiling::IclYs => {
            let ys = matches!(isl, IslTiling::SklYs | IslTiling::IclYs);
            let bits = if ys { 16 } else { 12 };
            match dim {
                SurfDim::D1 => Err(TileError::UnsupportedDimension { tiling, dim }),
                SurfDim::D2 => {
                    let (ss, yf_msaa, ys_msaa) = match bpb {
                        128 | 64 => (YS_2D_128_64, YF_2D_128_64_MSAA, YS_2D_128_64_MSAA),
                        32 | 16 => (YS_2D_32_16, YF_2D_32_16_MSAA, YS_2D_32_16_MSAA),
                        _ => (YS_2D_8, YF_2D_8_MSAA, YS_2D_8_MSAA),
                    };
                    // isl: SKL_Yf ignores the sample count (samples are array slices);
                    // SKL_Ys and ICL_Yf/Ys keep samples inside the tile.
                    if samples == 1 || isl == IslTiling::SklYf {
                        Ok(ss.low(bits))
                    } else if ys {
                        Ok(ys_msaa[msaa_idx - 1])
                    } else {
                        Ok(yf_msaa[msaa_idx - 1])
                    }
                }
                SurfDim::D3 => {
                    let p = match (isl.is_skl(), bpb) {
                        (true, 128 | 64) => SKL_3D_128_64,
                        (true, 32) => SKL_3D_32,
                        (true, _) => SKL_3D_16_8,
                        (false, 128 | 64) => ICL_3D_128_64,
                        (false, 32) => ICL_3D_32,
                        (false, _) => ICL_3D_16_8,
                    };
                    no_msaa_3d(p.low(bits))
                }
            }
        }
        IslTiling::Tile64 => match dim {
            SurfDim::D3 => no_msaa_3d(match bpb {
                128 | 64 => T64_3D_128_64,
                32 => T64_3D_32,
                16 => T64_3D_16,
                _ => T64_3D_8,
            }),
            // isl uses the 2D tables for anything that is not 3D.
            SurfDim::D1 | SurfDim::D2 => Ok(match (bpb, samples) {
                (128 | 64, 1) => T64_2D_128_64,
                (32 | 16, 1) => T64_2D_32_16,
                (_, 1) => T64_2D_8,
                (128 | 64, 2) => T64_2D_128_64_2X,
                (32 | 16, 2) => T64_2D_32_16_2X,
                (_, 2) => T64_2D_8_2X,
                // Gfx12.5 keeps at most 4 samples per tile (docs/hardware/surface-layout.md §3.3).
                (128 | 64, _) => T64_2D_128_64_4X,
                (32 | 16, _) => T64_2D_32_16_4X,
                _ => T64_2D_8_4X,
            }),
        },
        IslTiling::Tile64Xe2 => match dim {
            SurfDim::D3 => no_msaa_3d(match bpb {
                128 | 64 => XE2_3D_128_64,
                32 => XE2_3D_32,
                _ => XE2_3D_16_8,
            }),
            SurfDim::D1 | SurfDim::D2 => Ok(match (samples, bpb) {
                (1, 128 | 64) => T64_2D_128_64,
                (1, 32 | 16) => T64_2D_32_16,
                (1, _) => T64_2D_8,
                (2, 128) => XE2_2X_128,
                (2, 64) => XE2_2X_64,
                (2, 32 | 16) => XE2_2X_32_16,
                (2, _) => XE2_2X_8,
                (4, 128 | 64) => XE2_4X_128_64,
                (4, 32 | 16) => XE2_4X_32_16,
                (4, _) => XE2_4X_8,
                (8, 128 | 64 | 32) => XE2_8X_128_64_32,
                (8, _) => XE2_8X_16_8,
                (_, 128) => XE2_16X_128,
                (_, 64 | 32 | 16) => XE2_16X_64_32_16,
                _ => XE2_16X_8,
            }),
        },
    }
    .and_then(|p| {
        if !bpb.is_power_of_two() || !(8..=128).contains(&bpb) {
            Err(TileError::UnsupportedFormatSize {
                tiling,
                bpb,
                requirement: "element size must be 8, 16, 32, 64 or 128 bits",
            })
        } else {
            Ok(p)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_is_a_bijection_of_consecutive_coordinate_bits() {
        for (name, p) in patterns::all() {
            assert!(p.len == 12 || p.len == 16, "{name}");
            for c in [Coord::U, Coord::V, Coord::R, Coord::S] {
                let mut bits: Vec<u8> = p
                    .as_slice()
                    .iter()
                    .filter(|b| b.coord == c)
                    .map(|b| b.bit)
                    .collect();
                bits.sort_unstable();
                let want: Vec<u8> = (0..bits.len() as u8).collect();
                assert_eq!(bits, want, "{name} {c:?}");
            }
            // W (8-bit stencil) and the ICL 3D tables interleave below 16 bytes; every
            // other tile keeps 16-byte granules (u3..u0 at address bits 3..0).
            if name != "W" && !name.starts_with("ICL_3D") {
                for i in 0..4 {
                    let want = BitSrc {
                        coord: Coord::U,
                        bit: i as u8,
                    };
                    assert_eq!(p.bits[i], want, "{name}");
                }
            }
        }
    }

    #[test]
    fn pattern_strings_round_trip() {
        let t = TileInfo::new(Tiling::X, Gen::Gfx8, SurfDim::D2, 32, 1).unwrap();
        assert_eq!(t.pattern_string(), "v2 v1 v0 u8 u7 u6 u5 u4 u3 u2 u1 u0");
        let t = TileInfo::new(Tiling::Linear, Gen::Gfx8, SurfDim::D2, 32, 1).unwrap();
        assert_eq!(t.pattern_string(), "linear");
    }

    #[test]
    fn gen_availability_matches_section_2() {
        use Tiling::*;
        let table: [(Gen, &[Tiling]); 11] = [
            (Gen::Gfx4, &[Linear, X, Y]),
            (Gen::Gfx5, &[Linear, X, Y]),
            (Gen::Gfx6, &[Linear, X, Y, W]),
            (Gen::Gfx7, &[Linear, X, Y, W]),
            (Gen::Gfx75, &[Linear, X, Y, W]),
            (Gen::Gfx8, &[Linear, X, Y, W]),
            (Gen::Gfx9, &[Linear, X, Y, W, Yf, Ys]),
            (Gen::Gfx11, &[Linear, X, Y, W, Yf, Ys]),
            (Gen::Gfx12, &[Linear, X, Y, Yf, Ys]),
            (Gen::Gfx125, &[Linear, X, Tile4, Tile64]),
            (Gen::Gfx20, &[Linear, X, Tile4, Tile64]),
        ];
        for (gen, tilings) in table {
            for t in Tiling::ALL {
                assert_eq!(t.is_supported_on(gen), tilings.contains(&t), "{gen} {t}");
            }
        }
        assert_eq!(Tiling::Yf.isl(Gen::Gfx9), Ok(IslTiling::SklYf));
        assert_eq!(Tiling::Ys.isl(Gen::Gfx12), Ok(IslTiling::IclYs));
        assert_eq!(Tiling::Tile64.isl(Gen::Gfx20), Ok(IslTiling::Tile64Xe2));
        let e = Tiling::Tile64.isl(Gen::Gfx9).unwrap_err();
        assert!(e.to_string().contains("Gfx12.5"), "{e}");
    }

    #[test]
    fn tile_errors_are_specific() {
        let e = TileInfo::new(Tiling::W, Gen::Gfx8, SurfDim::D2, 32, 1).unwrap_err();
        assert!(
            matches!(e, TileError::UnsupportedFormatSize { bpb: 32, .. }),
            "{e}"
        );
        let e = TileInfo::new(Tiling::Ys, Gen::Gfx9, SurfDim::D2, 96, 1).unwrap_err();
        assert!(
            matches!(e, TileError::UnsupportedFormatSize { bpb: 96, .. }),
            "{e}"
        );
        let e = TileInfo::new(Tiling::Yf, Gen::Gfx9, SurfDim::D1, 32, 1).unwrap_err();
        assert!(matches!(e, TileError::UnsupportedDimension { .. }), "{e}");
        let e = TileInfo::new(Tiling::Tile64, Gen::Gfx125, SurfDim::D3, 32, 4).unwrap_err();
        assert!(matches!(e, TileError::UnsupportedSamples { .. }), "{e}");
        let e = TileInfo::new(Tiling::Y, Gen::Gfx125, SurfDim::D2, 32, 1).unwrap_err();
        assert!(matches!(e, TileError::UnsupportedOnGen { .. }), "{e}");
        let e = TileInfo::new(Tiling::X, Gen::Gfx9, SurfDim::D2, 32, 3).unwrap_err();
        assert!(
            matches!(e, TileError::UnsupportedSamples { samples: 3, .. }),
            "{e}"
        );
    }

    #[test]
    fn fields_of_x_y_and_linear() {
        let x = TileInfo::new(Tiling::X, Gen::Gfx7, SurfDim::D2, 32, 1).unwrap();
        let f = |s, d, w| Field {
            src_shift: s,
            dst_shift: d,
            width: w,
        };
        assert_eq!(x.address_fields(Coord::U), vec![f(0, 0, 9), f(9, 12, 20)]);
        assert_eq!(x.address_fields(Coord::V), vec![f(0, 9, 3)]);
        assert!(x.address_fields(Coord::R).is_empty());
        let y = TileInfo::new(Tiling::Y, Gen::Gfx7, SurfDim::D2, 32, 1).unwrap();
        assert_eq!(y.address_fields(Coord::U), vec![f(0, 0, 4), f(4, 9, 23)]);
        assert_eq!(y.address_fields(Coord::V), vec![f(0, 4, 5)]);
        let l = TileInfo::new(Tiling::Linear, Gen::Gfx7, SurfDim::D2, 32, 1).unwrap();
        assert_eq!(l.address_fields(Coord::U), vec![f(0, 0, 32)]);
        assert!(l.address_fields(Coord::V).is_empty());
        let w = TileInfo::new(Tiling::W, Gen::Gfx7, SurfDim::D2, 8, 1).unwrap();
        assert_eq!(
            w.address_fields(Coord::U),
            vec![f(0, 0, 1), f(1, 2, 1), f(2, 4, 1), f(3, 9, 23)]
        );
        assert_eq!(
            w.address_fields(Coord::V),
            vec![f(0, 1, 1), f(1, 3, 1), f(2, 5, 4)]
        );
    }

    #[test]
    fn intra_tile_coords_invert_offsets() {
        for (tiling, gen, dim, bpb) in [
            (Tiling::Tile64, Gen::Gfx20, SurfDim::D3, 8),
            (Tiling::Ys, Gen::Gfx11, SurfDim::D3, 32),
            (Tiling::W, Gen::Gfx9, SurfDim::D2, 8),
            (Tiling::Yf, Gen::Gfx9, SurfDim::D2, 128),
        ] {
            let t = TileInfo::new(tiling, gen, dim, bpb, 1).unwrap();
            let mut seen = vec![false; t.size_B() as usize];
            for off in 0..t.size_B() {
                let (u, v, r, s) = t.intra_tile_coords(off);
                assert!(u < t.logical_width_B());
                assert!(v < t.logical_extent_el().h && r < t.logical_extent_el().d);
                assert_eq!(t.intra_tile_offset(u, v, r, s), off);
                seen[off as usize] = true;
            }
            assert!(seen.iter().all(|&b| b));
        }
    }
}
