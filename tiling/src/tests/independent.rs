//! A second, independent formulation of every tile layout the crate implements, checked
//! against [`TileInfo`] (the bit-pattern tables of `tile.rs`).
//!
//! The model here shares no code and no pattern strings with `tile.rs`:
//!
//! * **Extents** are transcribed from the tables of docs/hardware/surface-layout.md §3 (§3.1 4 KB tiles,
//!   the §3.2 Yf/Ys table and its MSAA rule, the §3.3 Tile64 tables), not derived from a pattern.
//! * **Intra-tile offsets** are hand-written shift/mask closed forms, one per pattern group
//!   of docs/hardware/surface-layout.md §5. Where the reference states a structure (Tile64 2D = the Tile4
//!   pattern in bits 11..0 plus high bits) the closed form is built that way; the Gfx12.5 Tile64
//!   MSAA forms are written as "the single-sample form with the sample bits inserted into
//!   the coordinates", a relation read off the §5.5 rows; everything else is an explicit
//!   list of `take(coord, first_bit, width, address_bit)` terms.
//! * **Placement** uses the PRM tile-ID form quoted in docs/hardware/surface-layout.md §4, `TileID = [(r >>
//!   Cr) · (QPitch >> Cv) + (v >> Cv)] · (Pitch >> Cu) + (u >> Cu)`, address `TileID · size +
//!   intra`, where the crate uses the equivalent `tile_row · pitch · phys_h + tile_col ·
//!   size` form.
//!
//! Properties (fixed seeds; `QC_TESTS=<n>` scales every one of them):
//!
//! * [`full_address_agrees_with_offset_b`]: every case is a random surface geometry —
//!   pitch (any multiple of the physical tile width, odd ones included), qpitch, and
//!   coordinates spanning several tiles in x, y, z and array/sample slices — applied to
//!   every layout (tiling variant × dimension × element size × sample count); the model's
//!   full address against [`TileInfo::offset_B`].
//! * [`texel_offsets_agree_with_the_model`]: the same through [`Surface::texel_byte_offset`]
//!   on random single-level surfaces with explicit, padded row pitches.
//!
//! Exhaustive checks: [`every_layout_is_a_bijection_and_matches_the_crate`] walks every
//! `(u, v, r, s)` of one tile of every layout, and [`acceptance_and_extents_agree`] checks
//! that the crate accepts exactly the layouts the model knows, with the same extents.
//!
//! Provenance of the less certain layouts (docs/hardware/surface-layout.md marks them so):
//! * ICL Yf/Ys 3D (§5.4) were read from Mesa only (gmmlib has only the SKL rows).
//! * Xe2 Tile64 2x at 64 bpb (§5.7): Mesa and gmmlib disagree; like the crate, the model
//!   follows Mesa (identical to the Gfx12.5 2x pattern). Unconfirmed by BSpec.
//! * Gfx12.5 Tile64 8x/16x keep 4 samples per tile, the rest at qpitch (§3.3, inferred
//!   from isl's array-offset handling).
//! * Yf/Ys 2D MSAA (§5.3) is not reproduced in docs/hardware/surface-layout.md. The crate takes isl's
//!   tables; the model is written from gmmlib's published `INTEL_TILE_YF_MSAA*` /
//!   `INTEL_TILE_YS_MSAA*` masks, which all have the same shape: the single-sample
//!   pattern cut to its low `bits − log2(samples)` address bits with the sample bits
//!   above (docs/hardware/surface-layout.md §5.3: "the sample bits in the highest tile bits"). The §3.2
//!   MSAA extents follow from that shape.
//! * Xe2 MSAA extents (§3.3) are derived in the reference from the §5.6 patterns.

use std::sync::OnceLock;

use quickcheck::{Arbitrary, Gen as QcGen, QuickCheck, TestResult};

use super::qc_tests;
use crate::format::Format;
use crate::surface::{Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::{IslTiling, TileCoord, TileInfo};
use crate::tiling_filter::allowed_tilings;
use crate::usage::Usage;
use crate::{Gen, SurfDim};

// ---- Closed forms (docs/hardware/surface-layout.md §5)
// --------------------------------------------------------

/// Bits `[first, first + width)` of `c`, moved to address bit `at`.
fn take(c: u32, first: u32, width: u32, at: u32) -> u32 {
    ((c >> first) & ((1 << width) - 1)) << at
}

/// `c` with `bit` inserted as its new bit `at` (the bits from `at` up move one place up).
fn insert_bit(c: u32, at: u32, bit: u32) -> u32 {
    (c & ((1 << at) - 1)) | (bit & 1) << at | (c >> at) << (at + 1)
}

/// §5.1 X closed form: eight 512-byte rows.
fn x_major(u: u32, v: u32) -> u32 {
    v * 512 + u
}

/// §5.1 Y closed form: eight 16-byte columns of 32 rows (512 B each).
fn y_major(u: u32, v: u32) -> u32 {
    (u >> 4) * 512 + v * 16 + (u & 15)
}

/// §5.1 W closed form (u, v < 64): 8×8-byte micro-blocks with u/v interleaved in the
/// low 5 bits.
fn w_major(u: u32, v: u32) -> u32 {
    (u & 1)
        | (v & 1) << 1
        | (u >> 1 & 1) << 2
        | (v >> 1 & 1) << 3
        | (u >> 2 & 1) << 4
        | (v >> 2 & 15) << 5
        | (u >> 3 & 7) << 9
}

/// §5.1 Tile4 closed form (u < 128, v < 32).
fn tile4(u: u32, v: u32) -> u32 {
    (u & 15)
        | (v & 3) << 4
        | (u >> 4 & 3) << 6
        | (v >> 2 & 1) << 8
        | (u >> 6 & 1) << 9
        | (v >> 3 & 3) << 10
}

/// Which row of a §5 table an element size selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bpb {
    B8,
    B16,
    B32,
    B64,
    B128,
}

impl Bpb {
    fn of(bpb: u32) -> Option<Bpb> {
        Some(match bpb {
            8 => Bpb::B8,
            16 => Bpb::B16,
            32 => Bpb::B32,
            64 => Bpb::B64,
            128 => Bpb::B128,
            _ => return None,
        })
    }

    /// Index into the five-column tables below (8, 16, 32, 64, 128).
    fn idx(self) -> usize {
        self as usize
    }
}

/// §5.2, the full 16-bit Ys form; Yf is the low 12 bits, which in-range Yf coordinates
/// never exceed.
fn std_2d(b: Bpb, u: u32, v: u32) -> u32 {
    let lo = take(u, 0, 4, 0);
    match b {
        // u9 v5 u8 v4 u7 v3 u6 v2 u5 u4 v1 v0 u3..u0
        Bpb::B128 | Bpb::B64 => {
            lo | take(v, 0, 2, 4)
                | take(u, 4, 2, 6)
                | take(v, 2, 1, 8)
                | take(u, 6, 1, 9)
                | take(v, 3, 1, 10)
                | take(u, 7, 1, 11)
                | take(v, 4, 1, 12)
                | take(u, 8, 1, 13)
                | take(v, 5, 1, 14)
                | take(u, 9, 1, 15)
        }
        // u8 v6 u7 v5 u6 v4 u5 v3 u4 v2 v1 v0 u3..u0
        Bpb::B32 | Bpb::B16 => {
            lo | take(v, 0, 3, 4)
                | take(u, 4, 1, 7)
                | take(v, 3, 1, 8)
                | take(u, 5, 1, 9)
                | take(v, 4, 1, 10)
                | take(u, 6, 1, 11)
                | take(v, 5, 1, 12)
                | take(u, 7, 1, 13)
                | take(v, 6, 1, 14)
                | take(u, 8, 1, 15)
        }
        // u7 v7 u6 v6 u5 v5 u4 v4 v3 v2 v1 v0 u3..u0
        Bpb::B8 => {
            lo | take(v, 0, 4, 4)
                | take(v, 4, 1, 8)
                | take(u, 4, 1, 9)
                | take(v, 5, 1, 10)
                | take(u, 5, 1, 11)
                | take(v, 6, 1, 12)
                | take(u, 6, 1, 13)
                | take(v, 7, 1, 14)
                | take(u, 7, 1, 15)
        }
    }
}

/// §5.4 SKL (Gfx9) Yf/Ys 3D, 16-bit form (Yf: the low 12 bits). These rows agree with
/// gmmlib's `INTEL_TILE_YS_3D_*`.
fn skl_3d(b: Bpb, u: u32, v: u32, r: u32) -> u32 {
    let lo = take(u, 0, 4, 0) | take(v, 0, 2, 4);
    match b {
        // u7 v3 r3 u6 v2 r2 u5 u4 r1 r0 v1 v0 u3..u0
        Bpb::B128 | Bpb::B64 => {
            lo | take(r, 0, 2, 6)
                | take(u, 4, 2, 8)
                | take(r, 2, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 6, 1, 12)
                | take(r, 3, 1, 13)
                | take(v, 3, 1, 14)
                | take(u, 7, 1, 15)
        }
        // u6 v4 r3 u5 v3 r2 u4 v2 r1 r0 v1 v0 u3..u0
        Bpb::B32 => {
            lo | take(r, 0, 2, 6)
                | take(v, 2, 1, 8)
                | take(u, 4, 1, 9)
                | take(r, 2, 1, 10)
                | take(v, 3, 1, 11)
                | take(u, 5, 1, 12)
                | take(r, 3, 1, 13)
                | take(v, 4, 1, 14)
                | take(u, 6, 1, 15)
        }
        // u5 v4 r4 u4 v3 r3 v2 r2 r1 r0 v1 v0 u3..u0
        Bpb::B16 | Bpb::B8 => {
            lo | take(r, 0, 3, 6)
                | take(v, 2, 1, 9)
                | take(r, 3, 1, 10)
                | take(v, 3, 1, 11)
                | take(u, 4, 1, 12)
                | take(r, 4, 1, 13)
                | take(v, 4, 1, 14)
                | take(u, 5, 1, 15)
        }
    }
}

/// §5.4 ICL (Gfx11+) Yf/Ys 3D, 16-bit form (Yf: the low 12 bits). Read from Mesa only
/// (docs/hardware/surface-layout.md §5.4); the 32 and 16/8 rows interleave below 16 bytes.
fn icl_3d(b: Bpb, u: u32, v: u32, r: u32) -> u32 {
    match b {
        // u7 v3 r3 u6 v2 r2 u5 v1 r1 u4 r0 v0 u3..u0
        Bpb::B128 | Bpb::B64 => {
            take(u, 0, 4, 0)
                | take(v, 0, 1, 4)
                | take(r, 0, 1, 5)
                | take(u, 4, 1, 6)
                | take(r, 1, 1, 7)
                | take(v, 1, 1, 8)
                | take(u, 5, 1, 9)
                | take(r, 2, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 6, 1, 12)
                | take(r, 3, 1, 13)
                | take(v, 3, 1, 14)
                | take(u, 7, 1, 15)
        }
        // u6 v4 r3 u5 v3 r2 u4 v2 r1 u3 v1 v0 r0 u2 u1 u0
        Bpb::B32 => {
            take(u, 0, 3, 0)
                | take(r, 0, 1, 3)
                | take(v, 0, 2, 4)
                | take(u, 3, 1, 6)
                | take(r, 1, 1, 7)
                | take(v, 2, 1, 8)
                | take(u, 4, 1, 9)
                | take(r, 2, 1, 10)
                | take(v, 3, 1, 11)
                | take(u, 5, 1, 12)
                | take(r, 3, 1, 13)
                | take(v, 4, 1, 14)
                | take(u, 6, 1, 15)
        }
        // u5 v4 r4 u4 v3 r3 u3 v2 r2 u2 v1 v0 r1 r0 u1 u0
        Bpb::B16 | Bpb::B8 => {
            take(u, 0, 2, 0)
                | take(r, 0, 2, 2)
                | take(v, 0, 2, 4)
                | take(u, 2, 1, 6)
                | take(r, 2, 1, 7)
                | take(v, 2, 1, 8)
                | take(u, 3, 1, 9)
                | take(r, 3, 1, 10)
                | take(v, 3, 1, 11)
                | take(u, 4, 1, 12)
                | take(r, 4, 1, 13)
                | take(v, 4, 1, 14)
                | take(u, 5, 1, 15)
        }
    }
}

/// §5.5 Tile64 2D single-sample (Gfx12.5 and, per §5.6, Xe2): the Tile4 pattern in bits
/// 11..0 ("the low 12 bits are always the Tile4 pattern"), then per table row
/// 128/64: `v5 u9 u8 u7`, 32/16: `v6 v5 u8 u7`, 8: `v7 v6 v5 u7` in bits 15..12.
fn t64_2d(b: Bpb, u: u32, v: u32) -> u32 {
    let low = tile4(u & 127, v & 31);
    let high = match b {
        Bpb::B128 | Bpb::B64 => take(u, 7, 3, 12) | take(v, 5, 1, 15),
        Bpb::B32 | Bpb::B16 => take(u, 7, 2, 12) | take(v, 5, 2, 14),
        Bpb::B8 => take(u, 7, 1, 12) | take(v, 5, 3, 13),
    };
    low | high
}

/// §5.5 Tile64 Gfx12.5 MSAA. Every 2x row is its single-sample row with `s0` taking the
/// place of `u5` (the u bits from 5 up move one place up the pattern); every 4x row also
/// has `s1` in the place of `v2`. In coordinates: insert `s0` as bit 5 of u and `s1` as
/// bit 2 of v, then apply the single-sample form. (Compare `v5 u9 u8 u7 v4 v3 u6 v2 u5 u4`
/// with `v5 u8 u7 u6 v4 v3 u5 v2 s0 u4` and `v4 u8 u7 u6 v3 v2 u5 s1 s0 u4`.)
fn t64_gfx125_msaa(b: Bpb, tile_samples: u32, u: u32, v: u32, s: u32) -> u32 {
    let u = insert_bit(u, 5, s);
    let v = if tile_samples == 4 {
        insert_bit(v, 2, s >> 1)
    } else {
        v
    };
    t64_2d(b, u, v)
}

/// §5.5 Tile64 Gfx12.5 3D. Bits 9..0 are shared by every row:
/// `r1 v2 r0 u4 v1 v0 u3..u0`.
fn t64_gfx125_3d(b: Bpb, u: u32, v: u32, r: u32) -> u32 {
    let lo = take(u, 0, 4, 0)
        | take(v, 0, 2, 4)
        | take(u, 4, 1, 6)
        | take(r, 0, 1, 7)
        | take(v, 2, 1, 8)
        | take(r, 1, 1, 9);
    lo | match b {
        // r3 r2 v3 u7 u6 u5 | ...
        Bpb::B128 | Bpb::B64 => take(u, 5, 3, 10) | take(v, 3, 1, 13) | take(r, 2, 2, 14),
        // r3 r2 v4 u6 v3 u5 | ...
        Bpb::B32 => {
            take(u, 5, 1, 10)
                | take(v, 3, 1, 11)
                | take(u, 6, 1, 12)
                | take(v, 4, 1, 13)
                | take(r, 2, 2, 14)
        }
        // r4 r3 r2 v4 v3 u5 | ...
        Bpb::B16 => take(u, 5, 1, 10) | take(v, 3, 2, 11) | take(r, 2, 3, 13),
        // r4 r3 r2 u5 v4 v3 | ...
        Bpb::B8 => take(v, 3, 2, 10) | take(u, 5, 1, 12) | take(r, 2, 3, 13),
    }
}

/// §5.6 Tile64 Xe2 3D. Bits 9..0 are shared: `r1 r0 u5 u4 v1 v0 u3..u0`.
fn t64_xe2_3d(b: Bpb, u: u32, v: u32, r: u32) -> u32 {
    let lo = take(u, 0, 4, 0) | take(v, 0, 2, 4) | take(u, 4, 2, 6) | take(r, 0, 2, 8);
    lo | match b {
        // r3 r2 v3 u7 u6 v2 | ...
        Bpb::B128 | Bpb::B64 => {
            take(v, 2, 1, 10) | take(u, 6, 2, 11) | take(v, 3, 1, 13) | take(r, 2, 2, 14)
        }
        // r3 r2 v4 u6 v3 v2 | ...
        Bpb::B32 => take(v, 2, 2, 10) | take(u, 6, 1, 12) | take(v, 4, 1, 13) | take(r, 2, 2, 14),
        // r4 r3 r2 v4 v3 v2 | ...
        Bpb::B16 | Bpb::B8 => take(v, 2, 3, 10) | take(r, 2, 3, 13),
    }
}

/// §5.6 Tile64 Xe2 MSAA (bits 3..0 = `u3..u0`, bits 5..4 = `v1 v0` in every row).
fn t64_xe2_msaa(b: Bpb, samples: u32, u: u32, v: u32, s: u32) -> u32 {
    let lo = take(u, 0, 4, 0) | take(v, 0, 2, 4);
    lo | match (samples, b) {
        // v4 u9 u8 u7 v3 v2 u6 s0 u5 u4
        (2, Bpb::B128) => {
            take(u, 4, 2, 6)
                | take(s, 0, 1, 8)
                | take(u, 6, 1, 9)
                | take(v, 2, 2, 10)
                | take(u, 7, 3, 12)
                | take(v, 4, 1, 15)
        }
        // §5.7: Mesa's row, v5 u8 u7 u6 v4 v3 u5 v2 s0 u4 (gmmlib would have
        // v5 v4 u8 u7 v3 v2 u6 s0 u5 u4). Unconfirmed; Mesa chosen, as in the crate.
        (2, Bpb::B64) => {
            take(u, 4, 1, 6)
                | take(s, 0, 1, 7)
                | take(v, 2, 1, 8)
                | take(u, 5, 1, 9)
                | take(v, 3, 2, 10)
                | take(u, 6, 3, 12)
                | take(v, 5, 1, 15)
        }
        // v6 v5 v4 u7 v3 v2 u6 s0 u5 u4
        (2, Bpb::B32 | Bpb::B16) => {
            take(u, 4, 2, 6)
                | take(s, 0, 1, 8)
                | take(u, 6, 1, 9)
                | take(v, 2, 2, 10)
                | take(u, 7, 1, 12)
                | take(v, 4, 3, 13)
        }
        // v7 v6 v5 v4 v3 v2 u6 s0 u5 u4
        (2, Bpb::B8) => take(u, 4, 2, 6) | take(s, 0, 1, 8) | take(u, 6, 1, 9) | take(v, 2, 6, 10),
        // v4 u8 u7 u6 v3 v2 s1 s0 u5 u4
        (4, Bpb::B128 | Bpb::B64) => {
            take(u, 4, 2, 6)
                | take(s, 0, 2, 8)
                | take(v, 2, 2, 10)
                | take(u, 6, 3, 12)
                | take(v, 4, 1, 15)
        }
        // v5 v4 u7 u6 v3 v2 s1 s0 u5 u4
        (4, Bpb::B32 | Bpb::B16) => {
            take(u, 4, 2, 6)
                | take(s, 0, 2, 8)
                | take(v, 2, 2, 10)
                | take(u, 6, 2, 12)
                | take(v, 4, 2, 14)
        }
        // v6 v5 v4 u6 v3 v2 s1 s0 u5 u4
        (4, Bpb::B8) => {
            take(u, 4, 2, 6)
                | take(s, 0, 2, 8)
                | take(v, 2, 2, 10)
                | take(u, 6, 1, 12)
                | take(v, 4, 3, 13)
        }
        // v4 v3 u7 u6 v2 u5 s2 s1 s0 u4
        (8, Bpb::B128 | Bpb::B64 | Bpb::B32) => {
            take(u, 4, 1, 6)
                | take(s, 0, 3, 7)
                | take(u, 5, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 6, 2, 12)
                | take(v, 3, 2, 14)
        }
        // v5 v4 v3 u6 v2 u5 s2 s1 s0 u4
        (8, Bpb::B16 | Bpb::B8) => {
            take(u, 4, 1, 6)
                | take(s, 0, 3, 7)
                | take(u, 5, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 6, 1, 12)
                | take(v, 3, 3, 13)
        }
        // v3 u7 u6 u5 v2 u4 s3 s2 s1 s0
        (16, Bpb::B128) => {
            take(s, 0, 4, 6)
                | take(u, 4, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 5, 3, 12)
                | take(v, 3, 1, 15)
        }
        // v4 v3 u6 u5 v2 u4 s3 s2 s1 s0
        (16, Bpb::B64 | Bpb::B32 | Bpb::B16) => {
            take(s, 0, 4, 6)
                | take(u, 4, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 5, 2, 12)
                | take(v, 3, 2, 14)
        }
        // v5 v4 v3 u5 v2 u4 s3 s2 s1 s0
        (16, Bpb::B8) => {
            take(s, 0, 4, 6)
                | take(u, 4, 1, 10)
                | take(v, 2, 1, 11)
                | take(u, 5, 1, 12)
                | take(v, 3, 3, 13)
        }
        _ => unreachable!("Xe2 MSAA has 2, 4, 8 or 16 samples"),
    }
}

/// A third form of §5.2 (moved here from `tile_vectors.rs`): a micro-block of 16 B
/// columns filled row-major, then alternating u/v bits, Morton style.
fn morton_std_2d(bpb: u32, u: u32, v: u32) -> u32 {
    let interleave = |mut first: u32, mut second: u32, start: u32, n: u32| {
        let mut out = 0;
        for (i, bit) in (start..start + n).enumerate() {
            if i % 2 == 0 {
                out |= (first & 1) << bit;
                first >>= 1;
            } else {
                out |= (second & 1) << bit;
                second >>= 1;
            }
        }
        out
    };
    match bpb {
        // 64 B x 4-row micro-block (16 B x 4 rows, two of them side by side), then v first.
        128 | 64 => (u & 15) | (v & 3) << 4 | (u >> 4 & 3) << 6 | interleave(v >> 2, u >> 6, 8, 8),
        // 16 B x 8-row micro-block, then u first.
        32 | 16 => (u & 15) | (v & 7) << 4 | interleave(u >> 4, v >> 3, 7, 9),
        // 16 B x 16-row micro-block, then v first.
        _ => (u & 15) | (v & 15) << 4 | interleave(v >> 4, u >> 4, 8, 8),
    }
}

/// Mesa's CPU-tiler form of Tile4 (docs/hardware/surface-layout.md §5.1, "alternative Tile4 form"): the
/// high parts of `xo` and `yo` count twice.
fn mesa_memcpy_tile4(u: u32, v: u32) -> u32 {
    let xo = (u % 16) + (u / 16) * 64;
    let yo = (v / 4) * 256 + (v % 4) * 16;
    (yo & !511) + (xo & !255) + xo + yo
}

/// The closed form a layout uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Row-major bytes; the "tile" is one element.
    Linear,
    X,
    Y,
    W,
    Tile4,
    /// Yf/Ys 2D; `bits` = 12 (Yf) or 16 (Ys); `log2_samples` sample bits on top.
    Std2d {
        bpb: Bpb,
        bits: u32,
        log2_samples: u32,
    },
    Skl3d(Bpb),
    Icl3d(Bpb),
    T64Single(Bpb),
    /// Gfx12.5 MSAA with 2 or 4 samples in the tile.
    T64Gfx125Msaa(Bpb, u32),
    T64Gfx125_3d(Bpb),
    T64Xe2Msaa(Bpb, u32),
    T64Xe2_3d(Bpb),
}

impl Form {
    fn intra(self, u: u32, v: u32, r: u32, s: u32) -> u32 {
        match self {
            Form::Linear => u,
            Form::X => x_major(u, v),
            Form::Y => y_major(u, v),
            Form::W => w_major(u, v),
            Form::Tile4 => tile4(u, v),
            Form::Std2d {
                bpb,
                bits,
                log2_samples,
            } => {
                // gmmlib's YF/YS_MSAA masks: the single-sample pattern's low
                // `bits - log2_samples` address bits, samples above (for 1x, s = 0).
                std_2d(bpb, u, v) | s << (bits - log2_samples)
            }
            Form::Skl3d(b) => skl_3d(b, u, v, r),
            Form::Icl3d(b) => icl_3d(b, u, v, r),
            Form::T64Single(b) => t64_2d(b, u, v),
            Form::T64Gfx125Msaa(b, n) => t64_gfx125_msaa(b, n, u, v, s),
            Form::T64Gfx125_3d(b) => t64_gfx125_3d(b, u, v, r),
            Form::T64Xe2Msaa(b, n) => t64_xe2_msaa(b, n, u, v, s),
            Form::T64Xe2_3d(b) => t64_xe2_3d(b, u, v, r),
        }
    }
}

// ---- Extents (docs/hardware/surface-layout.md §3)
// -------------------------------------------------------------

/// §3.2 table, 2D logical extents in elements, columns 8, 16, 32, 64, 128 bpb.
const YF_2D: [(u32, u32); 5] = [(64, 64), (64, 32), (32, 32), (32, 16), (16, 16)];
const YS_2D: [(u32, u32); 5] = [(256, 256), (256, 128), (128, 128), (128, 64), (64, 64)];
/// §3.2 table, 3D logical extents (w, h, d).
const YF_3D: [(u32, u32, u32); 5] = [(16, 16, 16), (8, 16, 16), (8, 16, 8), (8, 8, 8), (4, 8, 8)];
const YS_3D: [(u32, u32, u32); 5] = [
    (64, 32, 32),
    (32, 32, 32),
    (32, 32, 16),
    (32, 16, 16),
    (16, 16, 16),
];
/// §3.3 Gfx12.5 Tile64 table: 1x, 2x and 4x/8x/16x 2D extents; 3D extents.
const T64_1X: [(u32, u32); 5] = [(256, 256), (256, 128), (128, 128), (128, 64), (64, 64)];
const T64_GFX125_2X: [(u32, u32); 5] = [(128, 256), (128, 128), (64, 128), (64, 64), (32, 64)];
const T64_GFX125_4X: [(u32, u32); 5] = [(128, 128), (128, 64), (64, 64), (64, 32), (32, 32)];
const T64_3D: [(u32, u32, u32); 5] = [
    (64, 32, 32),
    (32, 32, 32),
    (32, 32, 16),
    (32, 16, 16),
    (16, 16, 16),
];
/// §3.3 Xe2 MSAA table, indexed [bpb column][2x, 4x, 8x, 16x].
const T64_XE2_MSAA: [[(u32, u32); 4]; 5] = [
    [(128, 256), (128, 128), (128, 64), (64, 64)],
    [(128, 128), (128, 64), (64, 64), (64, 32)],
    [(64, 128), (64, 64), (64, 32), (32, 32)],
    [(64, 64), (64, 32), (32, 32), (16, 32)],
    [(64, 32), (32, 32), (16, 32), (16, 16)],
];

/// The independent model of one tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Model {
    /// Logical width in bytes, height in rows, depth in slices, array (sample) slots.
    pub(super) w_b: u32,
    pub(super) h: u32,
    d: u32,
    pub(super) a: u32,
    /// Physical extent: the pitch counts `phys_w_b` units; the tile is
    /// `phys_w_b * phys_h` bytes.
    phys_w_b: u32,
    phys_h: u32,
    form: Form,
}

impl Model {
    /// The layout isl uses for `isl` tiling, dimensionality, element size and sample
    /// count, or `None` where isl has none.
    pub(super) fn new(isl: IslTiling, dim: SurfDim, bpb: u32, samples: u32) -> Option<Model> {
        if bpb == 0 || !bpb.is_multiple_of(8) || bpb > 128 || ![1, 2, 4, 8, 16].contains(&samples) {
            return None;
        }
        // Only 2D surfaces are multisampled.
        if samples > 1 && dim != SurfDim::D2 {
            return None;
        }
        let cpp = bpb / 8;
        let fixed = |w_b, h, phys_w_b, phys_h, form| Model {
            w_b,
            h,
            d: 1,
            a: 1,
            phys_w_b,
            phys_h,
            form,
        };
        if isl == IslTiling::Linear {
            return Some(fixed(cpp, 1, cpp, 1, Form::Linear));
        }
        // §3.1: 24/48/96 bpb take the X/Y/Tile4 tile of bpb/3; those tiles are fixed in
        // bytes, so nothing else changes. The legacy tilings keep their pattern for any
        // sample count and dimensionality (samples are whole array slices).
        let thirds = bpb.is_multiple_of(3) && Bpb::of(bpb / 3).is_some();
        if Bpb::of(bpb).is_none() && !thirds {
            return None;
        }
        match isl {
            IslTiling::X => return Some(fixed(512, 8, 512, 8, Form::X)),
            IslTiling::Y0 => return Some(fixed(128, 32, 128, 32, Form::Y)),
            IslTiling::Tile4 => return Some(fixed(128, 32, 128, 32, Form::Tile4)),
            _ => {}
        }
        let b = Bpb::of(bpb)?;
        let col = b.idx();
        // The standard tiles are packed: phys_w = w_B, phys_h = size / w_B (§1).
        let std = |w_el: u32, h: u32, d: u32, a: u32, size: u32, form| {
            let w_b = w_el * cpp;
            Model {
                w_b,
                h,
                d,
                a,
                phys_w_b: w_b,
                phys_h: size / w_b,
                form,
            }
        };
        let log2_samples = samples.trailing_zeros();
        match isl {
            IslTiling::Linear | IslTiling::X | IslTiling::Y0 | IslTiling::Tile4 => {
                unreachable!("handled above")
            }
            // §3.1: 8-bit stencil only; logical 64×64, physical 128 B × 32.
            IslTiling::W => (b == Bpb::B8).then(|| fixed(64, 64, 128, 32, Form::W)),
            IslTiling::SklYf | IslTiling::SklYs | IslTiling::IclYf | IslTiling::IclYs => {
                let ys = matches!(isl, IslTiling::SklYs | IslTiling::IclYs);
                let (bits, size) = if ys { (16, 65536) } else { (12, 4096) };
                let skl = matches!(isl, IslTiling::SklYf | IslTiling::SklYs);
                match dim {
                    SurfDim::D1 => None,
                    SurfDim::D2 => {
                        let (w, h) = if ys { YS_2D[col] } else { YF_2D[col] };
                        // §3.2 MSAA rule; SKL_Yf keeps the 1x tile with a = 1.
                        let (w, h, k) = match (isl, samples) {
                            (IslTiling::SklYf, _) | (_, 1) => (w, h, 0),
                            (_, 2) => (w / 2, h, 1),
                            (_, 4) => (w / 2, h / 2, 2),
                            (_, 8) => (w / 4, h / 2, 3),
                            _ => (w / 4, h / 4, 4),
                        };
                        let form = Form::Std2d {
                            bpb: b,
                            bits,
                            log2_samples: k,
                        };
                        Some(std(w, h, 1, 1 << k, size, form))
                    }
                    SurfDim::D3 => {
                        let (w, h, d) = if ys { YS_3D[col] } else { YF_3D[col] };
                        let form = if skl { Form::Skl3d(b) } else { Form::Icl3d(b) };
                        Some(std(w, h, d, 1, size, form))
                    }
                }
            }
            IslTiling::Tile64 | IslTiling::Tile64Xe2 => {
                let xe2 = isl == IslTiling::Tile64Xe2;
                if dim == SurfDim::D3 {
                    let (w, h, d) = T64_3D[col];
                    let form = if xe2 {
                        Form::T64Xe2_3d(b)
                    } else {
                        Form::T64Gfx125_3d(b)
                    };
                    return Some(std(w, h, d, 1, 65536, form));
                }
                // 1D and 2D share the 2D tables (isl picks the 3D table only for 3D).
                let (w, h, a, form) = match (xe2, samples) {
                    (_, 1) => (T64_1X[col].0, T64_1X[col].1, 1, Form::T64Single(b)),
                    (false, 2) => {
                        let (w, h) = T64_GFX125_2X[col];
                        (w, h, 2, Form::T64Gfx125Msaa(b, 2))
                    }
                    // §3.3: at most 4 samples per Gfx12.5 tile (inferred); the others
                    // are further array slices.
                    (false, _) => {
                        let (w, h) = T64_GFX125_4X[col];
                        (w, h, 4, Form::T64Gfx125Msaa(b, 4))
                    }
                    (true, n) => {
                        let (w, h) = T64_XE2_MSAA[col][log2_samples as usize - 1];
                        (w, h, n, Form::T64Xe2Msaa(b, n))
                    }
                };
                Some(std(w, h, 1, a, 65536, form))
            }
        }
    }

    pub(super) fn size(&self) -> u32 {
        self.phys_w_b * self.phys_h
    }

    fn intra(&self, u: u32, v: u32, r: u32, s: u32) -> u32 {
        self.form.intra(u, v, r, s)
    }

    /// The byte address of byte column `x_b`, row `y`, slice `z` and physical array
    /// slice `slice` (array layer × samples + sample), by the PRM tile-ID form of
    /// docs/hardware/surface-layout.md §4.
    pub(super) fn address(
        &self,
        pitch: u32,
        qpitch: u32,
        x_b: u32,
        y: u32,
        z: u32,
        slice: u32,
    ) -> u64 {
        let tiles_per_row = (pitch / self.phys_w_b) as u64;
        let slab = (z / self.d + slice / self.a) as u64;
        let tile_id = (slab * (qpitch / self.h) as u64 + (y / self.h) as u64) * tiles_per_row
            + (x_b / self.w_b) as u64;
        tile_id * self.size() as u64
            + self.intra(x_b % self.w_b, y % self.h, z % self.d, slice % self.a) as u64
    }
}

// ---- The layouts ------------------------------------------------------------------------

const ISL_TILINGS: [IslTiling; 11] = [
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
];
const DIMS: [SurfDim; 3] = [SurfDim::D1, SurfDim::D2, SurfDim::D3];
const BPBS: [u32; 8] = [8, 16, 24, 32, 48, 64, 96, 128];
const SAMPLES: [u32; 5] = [1, 2, 4, 8, 16];

/// One layout: an isl tiling variant, dimensionality, element size and sample count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    isl: IslTiling,
    dim: SurfDim,
    bpb: u32,
    samples: u32,
}

/// Every layout the model knows (the crate must know the same ones; see
/// [`acceptance_and_extents_agree`]).
fn layouts() -> &'static [(Layout, Model)] {
    static ALL: OnceLock<Vec<(Layout, Model)>> = OnceLock::new();
    ALL.get_or_init(enumerate_layouts)
}

fn enumerate_layouts() -> Vec<(Layout, Model)> {
    let mut v = Vec::new();
    for isl in ISL_TILINGS {
        for dim in DIMS {
            for bpb in BPBS {
                for samples in SAMPLES {
                    if let Some(m) = Model::new(isl, dim, bpb, samples) {
                        v.push((
                            Layout {
                                isl,
                                dim,
                                bpb,
                                samples,
                            },
                            m,
                        ));
                    }
                }
            }
        }
    }
    v
}

fn crate_tile(l: &Layout) -> TileInfo {
    TileInfo::from_isl(l.isl, l.dim, l.bpb, l.samples)
        .unwrap_or_else(|e| panic!("{l:?} rejected by the crate: {e}"))
}

#[test]
fn acceptance_and_extents_agree() {
    // Invalid sizes and sample counts are included: both sides must refuse them.
    let bpbs = [
        0, 4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128, 136, 192, 256,
    ];
    let samples = [0, 1, 2, 3, 4, 8, 16, 32];
    let mut accepted = 0;
    for isl in ISL_TILINGS {
        for dim in DIMS {
            for bpb in bpbs {
                for s in samples {
                    let m = Model::new(isl, dim, bpb, s);
                    let t = TileInfo::from_isl(isl, dim, bpb, s);
                    let what = format!("{isl} {dim} {bpb} bpb {s}x");
                    match (&m, &t) {
                        (None, Err(_)) => continue,
                        (Some(_), Err(e)) => panic!("{what}: the crate refuses it: {e}"),
                        (None, Ok(_)) => panic!("{what}: the crate accepts a layout isl lacks"),
                        (Some(m), Ok(t)) => {
                            if BPBS.contains(&bpb) && SAMPLES.contains(&s) {
                                accepted += 1;
                            }
                            let e = t.logical_extent_el();
                            assert_eq!(
                                (t.logical_width_B(), e.h, e.d, e.a),
                                (m.w_b, m.h, m.d, m.a),
                                "{what}: logical extent"
                            );
                            assert_eq!(
                                (t.phys_width_B(), t.phys_height()),
                                (m.phys_w_b, m.phys_h),
                                "{what}: physical extent"
                            );
                            // The logical extent covers the tile exactly once.
                            assert_eq!(m.w_b * m.h * m.d * m.a, m.size(), "{what}");
                        }
                    }
                }
            }
        }
    }
    assert_eq!(accepted, layouts().len());
}

#[test]
fn every_layout_is_a_bijection_and_matches_the_crate() {
    let all = layouts();
    let mut bytes_checked = 0u64;
    // Layouts that differ only in ways neither side's tile depends on (1D vs 2D, the
    // sample count of a legacy tiling, 24 vs 8 bpb in bytes) are walked once: the model
    // and the crate's pattern and extents must both repeat for a layout to be skipped.
    let mut walked: Vec<(IslTiling, Model, String, u32, u32)> = Vec::new();
    for (l, m) in all {
        let t = crate_tile(l);
        let key = (
            l.isl,
            *m,
            t.pattern_string(),
            t.logical_width_B(),
            t.phys_height(),
        );
        if walked.contains(&key) {
            continue;
        }
        walked.push(key);
        let size = m.size();
        let mut seen_model = vec![false; size as usize];
        let mut seen_crate = vec![false; size as usize];
        for s in 0..m.a {
            for r in 0..m.d {
                for v in 0..m.h {
                    for u in 0..m.w_b {
                        let want = m.intra(u, v, r, s);
                        assert!(want < size, "{l:?}: model ({u},{v},{r},{s}) -> {want}");
                        assert!(
                            !seen_model[want as usize],
                            "{l:?}: model maps two positions to {want}"
                        );
                        seen_model[want as usize] = true;
                        let got = t.intra_tile_offset(u, v, r, s);
                        assert!(got < size, "{l:?}: crate ({u},{v},{r},{s}) -> {got}");
                        assert!(
                            !seen_crate[got as usize],
                            "{l:?}: crate maps two positions to {got}"
                        );
                        seen_crate[got as usize] = true;
                        assert_eq!(got, want, "{l:?} at (u {u}, v {v}, r {r}, s {s})");
                        // The crate's decoder (used by the tiled copies) inverts the model.
                        assert_eq!(t.intra_tile_coords(want), (u, v, r, s), "{l:?} at {want}");
                        bytes_checked += 1;
                    }
                }
            }
        }
        // Injective on a domain of exactly `size` positions: onto 0..size.
        assert_eq!(m.w_b * m.h * m.d * m.a, size, "{l:?}");
    }
    assert!(all.len() > 400, "{}", all.len());
    assert!(walked.len() > 100, "{}", walked.len());
    assert!(bytes_checked > 5_000_000, "{bytes_checked}");
}

/// Internal consistency of the model: the two ways of writing related rows agree.
#[test]
fn model_cross_checks() {
    // §5.7: Mesa's Xe2 2x/64 bpb row is the Gfx12.5 2x row; the model writes the first
    // as explicit terms and the second by bit insertion.
    for s in 0..2 {
        for v in 0..64 {
            for u in 0..512 {
                assert_eq!(
                    t64_xe2_msaa(Bpb::B64, 2, u, v, s),
                    t64_gfx125_msaa(Bpb::B64, 2, u, v, s)
                );
            }
        }
    }
    // §5.1: Mesa's alternative Tile4 form, against the closed form and the crate over the
    // whole tile.
    let t4 = TileInfo::from_isl(IslTiling::Tile4, SurfDim::D2, 32, 1).unwrap();
    for v in 0..32 {
        for u in 0..128 {
            assert_eq!(mesa_memcpy_tile4(u, v), tile4(u, v));
            assert_eq!(mesa_memcpy_tile4(u, v), t4.intra_tile_offset(u, v, 0, 0));
        }
    }
    // §5.2: the Morton form, against the explicit closed form and the crate over every
    // single-sample Yf/Ys 2D tile (Yf: the low 12 bits).
    for isl in [
        IslTiling::SklYf,
        IslTiling::SklYs,
        IslTiling::IclYf,
        IslTiling::IclYs,
    ] {
        for bpb in [8, 16, 32, 64, 128] {
            let t = TileInfo::from_isl(isl, SurfDim::D2, bpb, 1).unwrap();
            let b = Bpb::of(bpb).unwrap();
            for v in 0..t.logical_extent_el().h {
                for u in 0..t.logical_width_B() {
                    let morton = morton_std_2d(bpb, u, v) & (t.size_B() - 1);
                    assert_eq!(morton, std_2d(b, u, v), "{isl} {bpb} ({u},{v})");
                    assert_eq!(morton, t.intra_tile_offset(u, v, 0, 0), "{isl} {bpb}");
                }
            }
        }
    }
}

/// The model reproduces the worked vectors of docs/hardware/surface-layout.md §9 on its own (no crate
/// code).
#[test]
fn model_reproduces_section_9() {
    let at = |isl, dim, bpb, pitch, x_b, y, z| {
        Model::new(isl, dim, bpb, 1)
            .unwrap()
            .address(pitch, 0, x_b, y, z, 0)
    };
    use IslTiling::*;
    use SurfDim::{D2, D3};
    assert_eq!(at(X, D2, 32, 1024, 354, 33, 0), 33634);
    assert_eq!(at(Y0, D2, 32, 1024, 1015, 18, 0), 32551);
    assert_eq!(at(Tile4, D2, 32, 1024, 1007, 40, 0), 63119);
    assert_eq!(at(Tile4, D2, 32, 1536, 1143, 15, 0), 34807);
    assert_eq!(at(Tile4, D2, 32, 1536, 1475, 36, 0), 94979);
    assert_eq!(at(W, D2, 8, 256, 37, 70, 0), 10297);
    for isl in [Tile64, Tile64Xe2] {
        for (bpb, want) in [(8, 83356), (32, 42396), (128, 140700)] {
            assert_eq!(at(isl, D2, bpb, 2048, 300, 77, 0), want, "{isl} {bpb}");
        }
        for (bpb, want) in [(32, 62868), (64, 314772)] {
            // The 3D rows would need z's slab at qpitch; z = 13 stays inside the tile.
            assert_eq!(at(isl, D3, bpb, 1024, 100, 21, 13), want, "{isl} 3D {bpb}");
        }
    }
    assert_eq!(at(Tile64, D3, 8, 1024, 100, 21, 13), 96660);
    assert_eq!(at(Tile64Xe2, D3, 8, 1024, 100, 21, 13), 95636);
    assert_eq!(at(SklYf, D2, 32, 2048, 300, 77, 0), 140124);
    assert_eq!(at(SklYs, D2, 32, 2048, 300, 77, 0), 50012);
    assert_eq!(at(IclYs, D2, 32, 2048, 300, 77, 0), 50012);
    assert_eq!(at(SklYs, D3, 32, 1024, 100, 21, 13), 62804);
    assert_eq!(at(IclYs, D3, 32, 1024, 100, 21, 13), 62748);
}

// ---- Full-address property against TileInfo::offset_B ------------------------------------

/// A random surface geometry and position, applied to every layout at once: the pitch is
/// `cols` physical tile widths of the layout, the qpitch `qpitch_tiles` tile heights, and
/// the raw coordinates are reduced to `cols` tile columns, `tile_rows` tile rows, `slabs`
/// tile depths (3D) and `layers` array layers of the layout.
#[derive(Clone, Debug)]
struct AddrCase {
    cols: u32,
    tile_rows: u32,
    qpitch_tiles: u32,
    slabs: u32,
    layers: u32,
    raw_x: u32,
    raw_y: u32,
    raw_z: u32,
    raw_layer: u32,
    raw_sample: u32,
}

impl Arbitrary for AddrCase {
    fn arbitrary(g: &mut QcGen) -> AddrCase {
        let below = |g: &mut QcGen, n: u32| u32::arbitrary(g) % n;
        // Any multiple of the physical tile width, odd multiples included.
        let cols = 1 + below(g, 11);
        let tile_rows = 1 + below(g, 5);
        let qpitch_tiles = tile_rows + below(g, 3);
        AddrCase {
            cols,
            tile_rows,
            qpitch_tiles,
            slabs: 1 + below(g, 4),
            layers: 1 + below(g, 4),
            raw_x: u32::arbitrary(g),
            raw_y: u32::arbitrary(g),
            raw_z: u32::arbitrary(g),
            raw_layer: u32::arbitrary(g),
            raw_sample: u32::arbitrary(g),
        }
    }
}

/// The crate's tile of every layout, built once.
fn crate_tiles() -> &'static [TileInfo] {
    static ALL: OnceLock<Vec<TileInfo>> = OnceLock::new();
    ALL.get_or_init(|| layouts().iter().map(|(l, _)| crate_tile(l)).collect())
}

fn full_address(c: AddrCase) -> TestResult {
    for ((l, m), t) in layouts().iter().zip(crate_tiles()) {
        let pitch = c.cols * m.phys_w_b;
        let qpitch = c.qpitch_tiles * m.h;
        let x_b = c.raw_x % (c.cols * m.w_b);
        let y = c.raw_y % (c.tile_rows * m.h);
        let (z, layer) = if l.dim == SurfDim::D3 {
            (c.raw_z % (c.slabs * m.d), 0)
        } else {
            (0, c.raw_layer % c.layers)
        };
        let sample = c.raw_sample % l.samples;
        // isl's MSAA array layout: sample `s` of layer `l` is physical slice
        // l·samples + s (docs/hardware/surface-layout.md §4 `s / a`, `s % a`).
        let slice = layer * l.samples + sample;
        let got = t.offset_B(
            pitch,
            qpitch,
            TileCoord {
                x_B: x_b,
                y,
                z,
                array: slice,
                sample,
            },
        );
        let want = m.address(pitch, qpitch, x_b, y, z, slice);
        if got != want {
            return TestResult::error(format!(
                "{l:?}: pitch {pitch}, qpitch {qpitch}, x_B {x_b}, y {y}, z {z}, layer \
                 {layer}, sample {sample}: crate {got}, model {want}"
            ));
        }
    }
    TestResult::passed()
}

#[test]
fn full_address_agrees_with_offset_b() {
    // Every case checks every layout (over 400 of them).
    let n = qc_tests(300);
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x5eed_1d01))
        .tests(n)
        .max_tests(n)
        .min_tests_passed(n)
        .quickcheck(full_address as fn(AddrCase) -> TestResult);
}

// ---- Through Surface::texel_byte_offset ----------------------------------------------------

/// A random single-level surface with a padded row pitch, and one byte of one texel.
#[derive(Clone, Debug)]
struct SurfAddrCase {
    desc: SurfaceDesc,
    x: u32,
    y: u32,
    layer_or_z: u32,
    byte: u32,
}

const FORMATS: [Format; 10] = [
    Format::R8_UINT,
    Format::R16_UINT,
    Format::R8G8B8_UINT,
    Format::R32_UINT,
    Format::R16G16B16_UINT,
    Format::R32G32_UINT,
    Format::R32G32B32_UINT,
    Format::R32G32B32A32_UINT,
    Format::BC1_UNORM,
    Format::BC3_UNORM,
];

impl SurfAddrCase {
    fn generate(g: &mut QcGen) -> Option<SurfAddrCase> {
        let below = |g: &mut QcGen, n: u32| u32::arbitrary(g) % n;
        let gen = *g.choose(&Gen::ALL).unwrap();
        let dim = *g.choose(&DIMS).unwrap();
        let mut format = *g.choose(&FORMATS).unwrap();
        // A quarter of the 1D/2D surfaces on W generations are stencil (W tiling).
        let stencil = dim != SurfDim::D3 && (60..120).contains(&gen.verx10()) && below(g, 4) == 0;
        let usage = if stencil {
            format = Format::R8_UINT;
            Usage::STENCIL | Usage::TEXTURE
        } else {
            Usage::TEXTURE
        };
        if format.is_compressed() && dim == SurfDim::D1 {
            format = Format::R32_UINT;
        }
        let tilings = allowed_tilings(gen, format, dim, usage, 1);
        // Half of the surfaces take a standard tiling (Yf, Ys, Tile64) when one is
        // allowed, so that the rarer layouts come up often.
        let std: Vec<_> = tilings.iter().copied().filter(|t| t.is_std()).collect();
        let tiling = if !std.is_empty() && below(g, 2) == 0 {
            *g.choose(&std)?
        } else {
            *g.choose(&tilings)?
        };
        // Large enough to span several of the biggest tiles.
        let w = 1 + below(g, 1100);
        let h = if dim == SurfDim::D1 {
            1
        } else {
            1 + below(g, 700)
        };
        let d = if dim == SurfDim::D3 {
            1 + below(g, 40)
        } else {
            1
        };
        let layers = if dim == SurfDim::D3 {
            1
        } else {
            1 + below(g, 4)
        };
        let desc = SurfaceDesc::new(gen, dim, format, tiling)
            .extent(w, h, d)
            .array_len(layers)
            .usage(usage);
        let min = Surface::new(desc).ok()?;
        let step = min.tile_phys_width_B();
        let desc = desc.row_pitch(min.row_pitch_B() + below(g, 7) * step);
        let s = Surface::new(desc).ok()?;
        let e = s.level_extent_el(0);
        let slices = if dim == SurfDim::D3 { e.d } else { layers };
        Some(SurfAddrCase {
            desc,
            x: below(g, e.w),
            y: below(g, e.h),
            layer_or_z: below(g, slices),
            byte: below(g, format.cpp()),
        })
    }
}

impl Arbitrary for SurfAddrCase {
    fn arbitrary(g: &mut QcGen) -> SurfAddrCase {
        loop {
            if let Some(c) = SurfAddrCase::generate(g) {
                return c;
            }
        }
    }
}

fn surface_address(c: SurfAddrCase) -> TestResult {
    let s = match Surface::new(c.desc) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{:?}: {e}", c.desc)),
    };
    let got = match s.texel_byte_offset(c.x, c.y, c.layer_or_z, 0, c.byte, Bit6Swizzle::None) {
        Ok(o) => o,
        Err(e) => return TestResult::error(format!("{c:?}: {e}")),
    };
    // Where the image starts is the layout's business (surface_vectors.rs); from there on
    // the address is the model's.
    let o = match s.image_offset_el(0, c.layer_or_z) {
        Ok(o) => o,
        Err(e) => return TestResult::error(format!("{c:?}: {e}")),
    };
    let isl = c.desc.tiling.isl(c.desc.gen).unwrap();
    let Some(m) = Model::new(isl, c.desc.dim, c.desc.format.bpb(), 1) else {
        return TestResult::error(format!("{c:?}: the model has no {isl} layout"));
    };
    let cpp = c.desc.format.cpp();
    let x_b = (o.x_el + c.x) * cpp + c.byte;
    let want = m.address(
        s.row_pitch_B(),
        s.array_pitch_el_rows(),
        x_b,
        o.y_el + c.y,
        o.z_el,
        o.array_offset,
    );
    if got == want {
        TestResult::passed()
    } else {
        TestResult::error(format!(
            "{c:?} ({isl}, pitch {}, qpitch {}, origin {o:?}): crate {got}, model {want}",
            s.row_pitch_B(),
            s.array_pitch_el_rows()
        ))
    }
}

const SURFACE_SEED: u64 = 0x5eed_1d02;

#[test]
fn texel_offsets_agree_with_the_model() {
    let n = qc_tests(1000);
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, SURFACE_SEED))
        .tests(n)
        .max_tests(n)
        .min_tests_passed(n)
        .quickcheck(surface_address as fn(SurfAddrCase) -> TestResult);
}

#[test]
fn surface_cases_cover_every_tiling_variant() {
    // Replays the property's generator: its fixed-seed cases reach every isl tiling, and
    // the 3D standard ones, through the surface path.
    let mut g = QcGen::from_size_and_seed(100, SURFACE_SEED);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..1000 {
        let c = SurfAddrCase::arbitrary(&mut g);
        let isl = c.desc.tiling.isl(c.desc.gen).unwrap();
        seen.insert((isl, c.desc.dim == SurfDim::D3));
    }
    for isl in ISL_TILINGS {
        assert!(
            seen.contains(&(isl, false)) || seen.contains(&(isl, true)),
            "{isl}"
        );
    }
    for isl in [
        IslTiling::SklYs,
        IslTiling::IclYs,
        IslTiling::Tile64,
        IslTiling::Tile64Xe2,
    ] {
        assert!(seen.contains(&(isl, true)), "{isl} 3D");
    }
}
