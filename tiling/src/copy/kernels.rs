//! Whole-tile kernels for the tilings that matter for speed: X, Y (with and without the
//! bit-6 swizzle), Tile4, and Tile64 2D as sixteen Tile4 blocks.
//!
//! Each kernel moves one 4 KB tile (or some of its rows) between `tile` and the linear
//! image of its top-left byte at `lin` (rows `lp` bytes apart). The constant in-tile
//! layouts of docs/hardware/surface-layout.md §5.1 are spelled out as loops so the compiler can unroll them
//! and every address is a pointer increment. The order of the loops follows the
//! destination: in tiled address order when copying into the tile, row by row when
//! copying out of it, so that consecutive stores fill whole 64-byte lines (required for
//! streaming stores, see `chunk`).
//!
//! With `NT` (large copies) a kernel also prefetches, spread over its rows, the same
//! rows of the source `pf` of a block a few further on: its linear image when copying into
//! tiles (`pf` then follows `lp` like `lin`), its 4 KB tile when copying out.
//!
//! # Safety (every kernel)
//! `tile` must be valid for 4096 bytes (read, or also written when `L2T`); `lin` must be
//! valid for rows `0..h` of `w_B` bytes at multiples of `lp` (read, or written when not
//! `L2T`), where `w_B × h` is the tile's logical extent (512 × 8 for X, 128 × 32 for Y and
//! Tile4); the two ranges must not overlap; with `NT` the destination chunks must be
//! 16-byte aligned (the tile base, or the linear address of the tile's first byte and
//! `lp`). `pf` may be anything: it is only prefetched.

use super::chunk::{copy16, prefetch};

/// Moves 16 bytes between the tile and the linear image, in the copy's direction.
///
/// # Safety
/// As [`copy16`], for the destination of the direction.
#[inline(always)]
unsafe fn mv16<const L2T: bool, const NT: bool>(tile: *mut u8, lin: *mut u8) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if L2T {
            copy16::<NT>(tile, lin)
        } else {
            copy16::<NT>(lin, tile)
        }
    }
}

/// Prefetches `lines` cache lines from `p + off` when `NT`.
#[inline(always)]
fn prefetch_lines<const NT: bool>(p: *const u8, off: usize, lines: usize) {
    if NT {
        for k in 0..lines {
            prefetch(p.wrapping_add(off + k * 64));
        }
    }
}

/// X: rows of 512 bytes (`v2 v1 v0 u8..u0`). With the swizzle, bit 6 ^= bit 9 ^ bit 10,
/// which inside an X tile are v0 and v1 (docs/hardware/surface-layout.md §6): rows 1, 2, 5 and 6 swap the
/// 64-byte halves of every 128 bytes.
///
/// # Safety
/// See the module documentation.
#[inline(always)]
pub(super) unsafe fn x_tile<const L2T: bool, const NT: bool, const SWZ: bool>(
    tile: *mut u8,
    lin: *mut u8,
    lp: usize,
    pf: *const u8,
) {
    for v in 0..8 {
        prefetch_lines::<NT>(pf, if L2T { v * lp } else { v * 512 }, 8);
        // SAFETY (all pointer arithmetic below): v < 8 and u < 512 stay inside the tile
        // and inside row v of the linear image.
        let (t, l) = unsafe { (tile.add(v * 512), lin.add(v * lp)) };
        let s = if SWZ { ((v ^ (v >> 1)) & 1) << 6 } else { 0 };
        for u in (0..512).step_by(16) {
            unsafe { mv16::<L2T, NT>(t.add(u ^ s), l.add(u)) };
        }
    }
}

/// Y: eight 16-byte columns of 32 rows (`u6 u5 u4 v4..v0 u3..u0`), rows `v0..v0 + ROWS`
/// only (`ROWS` 16 or 32, `v0 + ROWS <= 32`). With the swizzle, bit 6 (v2) ^= bit 9
/// (u4): odd columns swap rows `v` and `v ^ 4`, which stay in the same group of 4.
///
/// # Safety
/// See the module documentation.
#[inline(always)]
pub(super) unsafe fn y_tile<const L2T: bool, const NT: bool, const SWZ: bool, const ROWS: usize>(
    tile: *mut u8,
    lin: *mut u8,
    lp: usize,
    v0: usize,
    pf: *const u8,
) {
    let s = |c: usize| if SWZ { (c & 1) << 6 } else { 0 };
    // SAFETY (all pointer arithmetic below): c < 8 and v < 32 keep `c * 512 + v * 16`
    // inside the tile (the XOR only flips bit 6) and `v * lp + c * 16` inside row v.
    if L2T {
        // Four rows at a time: each 16-byte column of them is one whole 64-byte line of
        // the tile (rows v..v + 4 at `c * 512 + v * 16`), and the linear image is read
        // in 128-byte pieces of four rows.
        for vq in (v0..v0 + ROWS).step_by(4) {
            prefetch_lines::<NT>(pf, vq * lp, 2);
            prefetch_lines::<NT>(pf, (vq + 1) * lp, 2);
            prefetch_lines::<NT>(pf, (vq + 2) * lp, 2);
            prefetch_lines::<NT>(pf, (vq + 3) * lp, 2);
            let l = unsafe { lin.add(vq * lp) };
            for c in 0..8 {
                let t = unsafe { tile.add(c * 512) };
                for v in vq..vq + 4 {
                    unsafe {
                        mv16::<L2T, NT>(t.add((v * 16) ^ s(c)), l.add((v - vq) * lp + c * 16))
                    };
                }
            }
        }
    } else {
        for v in v0..v0 + ROWS {
            prefetch_lines::<NT>(pf, v * 128, 2);
            let l = unsafe { lin.add(v * lp) };
            for c in 0..8 {
                unsafe { mv16::<L2T, NT>(tile.add(c * 512 + ((v * 16) ^ s(c))), l.add(c * 16)) };
            }
        }
    }
}

/// Tile4 (`v4 v3 u6 v2 u5 u4 v1 v0 u3..u0`): 16-byte × 4-row cells, two by two in
/// 256-byte blocks, paired in x, stacked four high; rows `v0..v0 + ROWS` only (multiples
/// of 8: each group of 8 rows is a contiguous kilobyte).
///
/// # Safety
/// See the module documentation.
#[inline(always)]
pub(super) unsafe fn tile4<const L2T: bool, const NT: bool, const ROWS: usize>(
    tile: *mut u8,
    lin: *mut u8,
    lp: usize,
    v0: usize,
    pf: *const u8,
) {
    const fn row(v: usize) -> usize {
        (v & 3) << 4 | (v >> 2 & 1) << 8 | (v >> 3) << 10
    }
    const COL: [usize; 8] = [0, 64, 128, 192, 512, 576, 640, 704];
    // SAFETY (all pointer arithmetic below): every offset is a Tile4 address of a 16-byte
    // chunk (< 4096) and a chunk of row v < 32, column c < 8 of the linear image.
    if L2T {
        // Address order: bits 4-5 v0 v1, 6-7 u4 u5, 8 v2, 9 u6, 10-11 v3 v4.
        let mut t = unsafe { tile.add(row(v0)) };
        for vh in v0 / 8..(v0 + ROWS) / 8 {
            for ch in 0..2 {
                for vm in 0..2 {
                    // Rows vh * 8 + 0..8 of the block ahead, 2 lines each.
                    let r = vh * 8 + vm * 4 + ch * 2;
                    prefetch_lines::<NT>(pf, r * lp, 2);
                    prefetch_lines::<NT>(pf, (r + 1) * lp, 2);
                    for cl in 0..4 {
                        let l = unsafe { lin.add((vh * 8 + vm * 4) * lp + (ch * 4 + cl) * 16) };
                        for vl in 0..4 {
                            unsafe {
                                mv16::<L2T, NT>(t, l.add(vl * lp));
                                t = t.add(16);
                            }
                        }
                    }
                }
            }
        }
    } else {
        for v in v0..v0 + ROWS {
            prefetch_lines::<NT>(pf, v * 128, 2);
            let (t, l) = unsafe { (tile.add(row(v)), lin.add(v * lp)) };
            for (c, col) in COL.iter().enumerate() {
                unsafe { mv16::<L2T, NT>(t.add(*col), l.add(c * 16)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::SurfDim;
    use crate::generation::Gen;
    use crate::swizzle::bit6_swizzle;
    use crate::tile::{TileInfo, Tiling};

    type Kernel = unsafe fn(*mut u8, *mut u8, usize);

    unsafe fn x<const L2T: bool, const NT: bool, const SWZ: bool>(
        t: *mut u8,
        l: *mut u8,
        lp: usize,
    ) {
        // Prefetching the tile itself: any address is allowed.
        unsafe { x_tile::<L2T, NT, SWZ>(t, l, lp, t) }
    }

    /// A 64-byte aligned window of `len` bytes inside `v`.
    fn aligned(v: &mut Vec<u8>, len: usize) -> &mut [u8] {
        v.resize(len + 64, 0);
        let start = v.as_ptr().align_offset(64);
        &mut v[start..start + len]
    }

    /// Runs a kernel pair (into the tile, out of it) on one tile and checks every byte
    /// against the tile's bit pattern (and the swizzle); the linear rows are wider than
    /// the tile and their padding must stay untouched.
    fn check(tiling: Tiling, swizzle: bool, kernels: [Kernel; 2]) {
        let gen = if tiling == Tiling::Tile4 {
            Gen::Gfx125
        } else {
            Gen::Gfx7
        };
        let t = TileInfo::new(tiling, gen, SurfDim::D2, 32, 1).unwrap();
        let (w, h) = (
            t.logical_width_B() as usize,
            t.logical_extent_el().h as usize,
        );
        let lp = w + 48; // 16-byte aligned, wider than the tile
        let (mut lin_v, mut tile_v, mut out_v) = (Vec::new(), Vec::new(), Vec::new());
        let lin = aligned(&mut lin_v, lp * h);
        for (i, b) in lin.iter_mut().enumerate() {
            *b = (i * 13 + i / 251) as u8;
        }
        let tile = aligned(&mut tile_v, 4096);
        let out = aligned(&mut out_v, lp * h);
        out.fill(0xcc);
        // SAFETY: the buffers have the sizes the kernels require and are 64-byte aligned
        // (the streaming variants need 16).
        unsafe {
            kernels[0](tile.as_mut_ptr(), lin.as_ptr().cast_mut(), lp);
            kernels[1](tile.as_ptr().cast_mut(), out.as_mut_ptr(), lp);
        }
        for v in 0..h {
            for u in 0..lp {
                let (want, got) = (lin[v * lp + u], out[v * lp + u]);
                if u >= w {
                    assert_eq!(got, 0xcc, "{tiling}: padding {u} {v} written");
                    continue;
                }
                let mut off = t.intra_tile_offset(u as u32, v as u32, 0, 0) as u64;
                if swizzle {
                    off = bit6_swizzle(off, tiling);
                }
                assert_eq!(tile[off as usize], want, "{tiling} {swizzle} {u} {v}");
                assert_eq!(got, want, "{tiling} {swizzle} {u} {v}");
            }
        }
    }

    unsafe fn y_full<const L2T: bool, const NT: bool, const SWZ: bool>(
        t: *mut u8,
        l: *mut u8,
        lp: usize,
    ) {
        unsafe { y_tile::<L2T, NT, SWZ, 32>(t, l, lp, 0, l) }
    }

    unsafe fn y_halves<const L2T: bool, const NT: bool, const SWZ: bool>(
        t: *mut u8,
        l: *mut u8,
        lp: usize,
    ) {
        unsafe {
            y_tile::<L2T, NT, SWZ, 16>(t, l, lp, 16, l);
            y_tile::<L2T, NT, SWZ, 16>(t, l, lp, 0, l);
        }
    }

    unsafe fn t4_full<const L2T: bool, const NT: bool>(t: *mut u8, l: *mut u8, lp: usize) {
        unsafe { tile4::<L2T, NT, 32>(t, l, lp, 0, l) }
    }

    unsafe fn t4_parts<const L2T: bool, const NT: bool>(t: *mut u8, l: *mut u8, lp: usize) {
        unsafe {
            tile4::<L2T, NT, 16>(t, l, lp, 16, l);
            tile4::<L2T, NT, 8>(t, l, lp, 8, l);
            tile4::<L2T, NT, 8>(t, l, lp, 0, l);
        }
    }

    #[test]
    fn kernels_follow_the_patterns() {
        check(
            Tiling::X,
            false,
            [x::<true, false, false>, x::<false, false, false>],
        );
        check(
            Tiling::X,
            true,
            [x::<true, false, true>, x::<false, false, true>],
        );
        check(
            Tiling::Y,
            false,
            [y_full::<true, false, false>, y_full::<false, false, false>],
        );
        check(
            Tiling::Y,
            true,
            [y_full::<true, false, true>, y_full::<false, false, true>],
        );
        check(
            Tiling::Y,
            false,
            [
                y_halves::<true, false, false>,
                y_halves::<false, false, false>,
            ],
        );
        check(
            Tiling::Y,
            true,
            [
                y_halves::<true, false, true>,
                y_halves::<false, false, true>,
            ],
        );
        check(
            Tiling::Tile4,
            false,
            [t4_full::<true, false>, t4_full::<false, false>],
        );
        check(
            Tiling::Tile4,
            false,
            [t4_parts::<true, false>, t4_parts::<false, false>],
        );
    }

    #[test]
    fn streaming_kernels_follow_the_patterns() {
        check(
            Tiling::X,
            false,
            [x::<true, true, false>, x::<false, true, false>],
        );
        check(
            Tiling::X,
            true,
            [x::<true, true, true>, x::<false, true, true>],
        );
        check(
            Tiling::Y,
            false,
            [y_full::<true, true, false>, y_full::<false, true, false>],
        );
        check(
            Tiling::Y,
            true,
            [y_halves::<true, true, true>, y_full::<false, true, true>],
        );
        check(
            Tiling::Tile4,
            false,
            [t4_parts::<true, true>, t4_full::<false, true>],
        );
        super::super::chunk::fence::<true>();
    }
}
