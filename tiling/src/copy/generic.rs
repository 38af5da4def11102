//! The table-driven copy that works for every tiling: a rectangle is cut into the runs of
//! bytes that stay contiguous in the tiled layout, and each run is copied at once.
//!
//! Inside a tile, an address is the XOR of three independent bit scatters (docs/hardware/surface-layout.md
//! §5): one of the byte column `u`, one of the row `v` and one of the slice `r` and sample `s`,
//! which are constant over one image. The `k` lowest address bits of every pattern are
//! `u0..u(k-1)` (k = 9 for X, 4 for Y, Tile4, Tile64, Yf and Ys, 3 or 2 for the ICL 3D
//! tiles, 1 for W), so `2^k` consecutive bytes of a row are consecutive in memory. The
//! row and column scatters are tabulated once per copy (per row of a tile, per run of a
//! tile row), and the bit-6 swizzle, linear over XOR, is folded into both tables.

use std::ops::Range;

use crate::swizzle::{bit6_swizzle, Bit6Swizzle};
use crate::tile::{Coord, TileInfo, Tiling};

/// The tiled side of a copy: where the image's tiles are and how bytes are scattered in
/// them.
#[derive(Clone, Debug)]
pub(super) struct TiledLayout {
    /// log2 of the logical tile width in bytes.
    pub w_shift: u32,
    /// log2 of the logical tile height in rows.
    pub h_shift: u32,
    /// log2 of the tile size in bytes.
    pub size_shift: u32,
    /// Bytes from one row of tiles to the next (`row_pitch * phys_h`).
    pub tile_row_b: usize,
    /// Offset of the image's slab (3D slices beyond the tile depth, array slices of the
    /// standard tilings): whole rows of tiles at qpitch (docs/hardware/surface-layout.md §4).
    pub slab_b: usize,
    /// log2 of the contiguous run length (`k` above, at most 6 when swizzling).
    pub run_shift: u32,
    /// Scatter of each run's first byte column inside a tile, swizzled.
    pub u_tab: Vec<u32>,
    /// Scatter of each row inside a tile XOR the constant slice/sample scatter, swizzled.
    pub v_tab: Vec<u32>,
}

impl TiledLayout {
    /// The layout of slice `z` / array slot `array` of a surface with this tile, row pitch
    /// and array pitch (as [`TileInfo::offset_B`] computes them), with Mesa's bit-6
    /// swizzle of `tiling` folded in when `swizzle` is enabled.
    pub fn new(
        tile: &TileInfo,
        row_pitch_b: u32,
        qpitch_rows: u32,
        z: u32,
        array: u32,
        swizzle: Bit6Swizzle,
    ) -> TiledLayout {
        let e = tile.logical_extent_el();
        let w_b = tile.logical_width_B();
        let tile_row_b = row_pitch_b as usize * tile.phys_height() as usize;
        let slab_tile_rows = (z / e.d + array / e.a) as usize * (qpitch_rows / e.h) as usize;
        let mut run_shift = tile
            .pattern()
            .iter()
            .enumerate()
            .take_while(|(i, b)| b.coord == Coord::U && b.bit as usize == *i)
            .count() as u32;
        let tiling = tile.tiling();
        let swz = |off: u32| -> u32 {
            if swizzle.is_enabled() {
                bit6_swizzle(off as u64, tiling) as u32
            } else {
                off
            }
        };
        if swizzle.is_enabled() && matches!(tiling, Tiling::X | Tiling::Y) {
            // Bit 6 becomes u6 XOR something: runs stop at 64 bytes.
            run_shift = run_shift.min(6);
        }
        let rs = swz(tile.intra_tile_offset(0, 0, z % e.d, array % e.a));
        let u_tab = (0..w_b >> run_shift)
            .map(|c| swz(tile.intra_tile_offset(c << run_shift, 0, 0, 0)))
            .collect();
        let v_tab = (0..e.h)
            .map(|v| swz(tile.intra_tile_offset(0, v, 0, 0)) ^ rs)
            .collect();
        TiledLayout {
            w_shift: w_b.trailing_zeros(),
            h_shift: e.h.trailing_zeros(),
            size_shift: tile.size_B().trailing_zeros(),
            tile_row_b,
            slab_b: slab_tile_rows * tile_row_b,
            run_shift,
            u_tab,
            v_tab,
        }
    }

    /// Offset of the tile in tile row `tr` and tile column `tc` from the surface base.
    #[inline]
    pub fn tile_offset(&self, tr: usize, tc: usize) -> usize {
        self.slab_b + tr * self.tile_row_b + (tc << self.size_shift)
    }

    /// One past the last byte of the tiles that plane rectangle `x` × `y` (byte columns ×
    /// rows, non-empty) touches: tile offsets grow with the tile row and column.
    pub fn end_of_tiles(&self, x: &Range<usize>, y: &Range<usize>) -> u64 {
        let tr = ((y.end - 1) >> self.h_shift) as u64;
        let tc = ((x.end - 1) >> self.w_shift) as u64;
        self.slab_b as u64 + tr * self.tile_row_b as u64 + ((tc + 1) << self.size_shift)
    }

    /// Calls `f(tiled_offset, x, y, len)` for every maximal run of the plane rectangle
    /// `x` × `y` that is contiguous in the tiled layout: `len` bytes starting at byte
    /// column `x` of row `y` live at `tiled_offset`.
    #[inline]
    pub fn for_each_run(
        &self,
        x: Range<usize>,
        y: Range<usize>,
        mut f: impl FnMut(usize, usize, usize, usize),
    ) {
        let run = 1usize << self.run_shift;
        let run_mask = run - 1;
        let w_mask = (1usize << self.w_shift) - 1;
        let h_mask = (1usize << self.h_shift) - 1;
        for row in y {
            let v = self.v_tab[row & h_mask];
            let tile_row = self.slab_b + (row >> self.h_shift) * self.tile_row_b;
            let mut col = x.start;
            while col < x.end {
                let u = col & w_mask;
                let len = (run - (u & run_mask)).min(x.end - col);
                let intra = (v ^ self.u_tab[u >> self.run_shift]) as usize | (u & run_mask);
                let off = tile_row + ((col >> self.w_shift) << self.size_shift) + intra;
                f(off, col, row, len);
                col += len;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::SurfDim;
    use crate::generation::Gen;
    use crate::tile::TileCoord;

    /// Every byte of every run lands where `TileInfo::offset_B` (and the swizzle) puts it.
    #[test]
    fn runs_agree_with_offset_b() {
        let cases = [
            (Tiling::X, Gen::Gfx7, SurfDim::D2, 32, false),
            (Tiling::X, Gen::Gfx7, SurfDim::D2, 32, true),
            (Tiling::Y, Gen::Gfx6, SurfDim::D2, 8, true),
            (Tiling::W, Gen::Gfx8, SurfDim::D2, 8, false),
            (Tiling::Tile4, Gen::Gfx125, SurfDim::D2, 64, false),
            (Tiling::Tile64, Gen::Gfx20, SurfDim::D3, 16, false),
            (Tiling::Ys, Gen::Gfx11, SurfDim::D3, 8, false),
            (Tiling::Yf, Gen::Gfx9, SurfDim::D2, 128, false),
        ];
        for (tiling, gen, dim, bpb, swizzle) in cases {
            let t = TileInfo::new(tiling, gen, dim, bpb, 1).unwrap();
            let pitch = t.phys_width_B() * 3;
            let e = t.logical_extent_el();
            let qpitch = e.h * 4;
            let z = e.d + 1;
            let swz = Bit6Swizzle::from_has_bit6_swizzling(swizzle);
            let l = TiledLayout::new(&t, pitch, qpitch, z, 0, swz);
            let w = (pitch / t.phys_width_B() * t.logical_width_B()) as usize;
            let (xs, ys) = (3..w - 5, 1..(2 * e.h as usize + 3));
            let mut count = 0;
            l.for_each_run(xs.clone(), ys.clone(), |off, x, y, len| {
                for i in 0..len {
                    let c = TileCoord {
                        x_B: (x + i) as u32,
                        y: y as u32,
                        z,
                        array: 0,
                        sample: 0,
                    };
                    let mut want = t.offset_B(pitch, qpitch, c);
                    if swizzle {
                        want = bit6_swizzle(want, tiling);
                    }
                    assert_eq!((off + i) as u64, want, "{tiling} {x}+{i} {y}");
                }
                count += len;
            });
            assert_eq!(count, xs.len() * ys.len(), "{tiling}");
        }
    }
}
