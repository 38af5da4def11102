//! Mip tails of the standard tilings (Yf, Ys, Tile64; docs/hardware/surface-layout.md §7.10).
//!
//! From the tail's start level on, every level lives inside one tile at a fixed slot
//! offset given by a table indexed by `base_row + (level - start)` and by the element
//! size. Yf starts at table row 4, Ys and Tile64 at row 0.
//!
//! The 2D table (ICL Yf/Ys and Tile64) and the Tile64 3D table are the reference's. The
//! SKL 2D table differs only in rows 11–14, which appear in reverse order. The SKL and
//! ICL Yf/Ys 3D tables are not in the reference; they are taken from Mesa's isl
//! (`skl_std_y_3d_miptail_offset_el`, `icl_std_y_3d_miptail_offset_el`) and share rows
//! 0–4 with the Tile64 3D table, which the tests check.

use crate::dim::{Extent3d, SurfDim};
use crate::tile::IslTiling;

/// `[row][column][x, y]`; columns are 128, 64, 32, 16, 8 bpb.
type Table2d = [[[u8; 2]; 5]; 15];

const ICL_2D: Table2d = [
    [[32, 0], [64, 0], [64, 0], [128, 0], [128, 0]],
    [[0, 32], [0, 32], [0, 64], [0, 64], [0, 128]],
    [[16, 0], [32, 0], [32, 0], [64, 0], [64, 0]],
    [[0, 16], [0, 16], [0, 32], [0, 32], [0, 64]],
    [[8, 0], [16, 0], [16, 0], [32, 0], [32, 0]],
    [[4, 8], [8, 8], [8, 16], [16, 16], [16, 32]],
    [[0, 12], [0, 12], [0, 24], [0, 24], [0, 48]],
    [[0, 8], [0, 8], [0, 16], [0, 16], [0, 32]],
    [[4, 4], [8, 4], [8, 8], [16, 8], [16, 16]],
    [[4, 0], [8, 0], [8, 0], [16, 0], [16, 0]],
    [[0, 4], [0, 4], [0, 8], [0, 8], [0, 16]],
    [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]],
    [[1, 0], [2, 0], [0, 4], [0, 4], [0, 4]],
    [[2, 0], [4, 0], [4, 0], [8, 0], [0, 8]],
    [[3, 0], [6, 0], [4, 4], [8, 4], [0, 12]],
];

/// SKL's 2D rows: equal to ICL's for rows 0–10, rows 11–14 reversed.
fn skl_2d_row(row: usize) -> usize {
    if row >= 11 {
        25 - row
    } else {
        row
    }
}

/// `[row][column][x, y, z]`.
const TILE64_3D: [[[u8; 3]; 5]; 15] = [
    [[8, 0, 0], [16, 0, 0], [16, 0, 0], [16, 0, 0], [32, 0, 0]],
    [[0, 8, 0], [0, 8, 0], [0, 16, 0], [0, 16, 0], [0, 16, 0]],
    [[0, 0, 8], [0, 0, 8], [0, 0, 8], [0, 0, 16], [0, 0, 16]],
    [[4, 0, 0], [8, 0, 0], [8, 0, 0], [8, 0, 0], [16, 0, 0]],
    [[0, 4, 0], [0, 4, 0], [0, 8, 0], [0, 8, 0], [0, 8, 0]],
    [[2, 0, 4], [4, 0, 4], [4, 0, 4], [0, 4, 8], [0, 4, 8]],
    [[1, 0, 4], [2, 0, 4], [0, 4, 4], [0, 0, 12], [0, 0, 12]],
    [[0, 0, 4], [0, 0, 4], [0, 0, 4], [0, 0, 8], [0, 0, 8]],
    [[3, 0, 0], [6, 0, 0], [4, 4, 0], [0, 4, 4], [0, 4, 4]],
    [[2, 0, 0], [4, 0, 0], [4, 0, 0], [0, 4, 0], [0, 4, 0]],
    [[1, 0, 0], [2, 0, 0], [0, 4, 0], [0, 0, 4], [0, 0, 4]],
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
    [[0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]],
    [[0, 0, 2], [0, 0, 2], [0, 0, 2], [0, 0, 2], [0, 0, 2]],
    [[0, 0, 3], [0, 0, 3], [0, 0, 3], [0, 0, 3], [0, 0, 3]],
];

/// Mesa's `skl_std_y_3d_miptail_offset_el` (16 rows).
const SKL_3D: [[[u8; 3]; 5]; 16] = [
    [[8, 0, 0], [16, 0, 0], [16, 0, 0], [16, 0, 0], [32, 0, 0]],
    [[0, 8, 0], [0, 8, 0], [0, 16, 0], [0, 16, 0], [0, 16, 0]],
    [[0, 0, 8], [0, 0, 8], [0, 0, 8], [0, 0, 16], [0, 0, 16]],
    [[4, 0, 0], [8, 0, 0], [8, 0, 0], [8, 0, 0], [16, 0, 0]],
    [[0, 4, 0], [0, 4, 0], [0, 8, 0], [0, 8, 0], [0, 8, 0]],
    [[0, 0, 4], [0, 0, 4], [0, 0, 4], [0, 0, 8], [0, 0, 8]],
    [[3, 0, 0], [6, 0, 0], [4, 4, 0], [0, 4, 4], [0, 4, 4]],
    [[2, 0, 0], [4, 0, 0], [0, 4, 0], [0, 4, 0], [0, 4, 0]],
    [[1, 0, 3], [2, 0, 3], [4, 0, 3], [0, 0, 7], [0, 0, 7]],
    [[1, 0, 2], [2, 0, 2], [4, 0, 2], [0, 0, 6], [0, 0, 6]],
    [[1, 0, 1], [2, 0, 1], [4, 0, 1], [0, 0, 5], [0, 0, 5]],
    [[1, 0, 0], [2, 0, 0], [4, 0, 0], [0, 0, 4], [0, 0, 4]],
    [[0, 0, 3], [0, 0, 3], [0, 0, 3], [0, 0, 3], [0, 0, 3]],
    [[0, 0, 2], [0, 0, 2], [0, 0, 2], [0, 0, 2], [0, 0, 2]],
    [[0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]],
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
];

/// Mesa's `icl_std_y_3d_miptail_offset_el` (15 rows).
const ICL_3D: [[[u8; 3]; 5]; 15] = [
    [[8, 0, 0], [16, 0, 0], [16, 0, 0], [16, 0, 0], [32, 0, 0]],
    [[0, 8, 0], [0, 8, 0], [0, 16, 0], [0, 16, 0], [0, 16, 0]],
    [[0, 0, 8], [0, 0, 8], [0, 0, 8], [0, 0, 16], [0, 0, 16]],
    [[4, 0, 0], [8, 0, 0], [8, 0, 0], [8, 0, 0], [16, 0, 0]],
    [[0, 4, 0], [0, 4, 0], [0, 8, 0], [0, 8, 0], [0, 8, 0]],
    [[2, 0, 4], [4, 0, 4], [4, 0, 4], [4, 0, 8], [8, 0, 8]],
    [[0, 2, 4], [0, 2, 4], [0, 4, 4], [0, 4, 8], [0, 4, 8]],
    [[0, 0, 4], [0, 0, 4], [0, 0, 4], [0, 0, 8], [0, 0, 8]],
    [[2, 2, 0], [4, 2, 0], [4, 4, 0], [4, 4, 0], [8, 4, 0]],
    [[2, 0, 0], [4, 0, 0], [4, 0, 0], [4, 0, 0], [8, 0, 0]],
    [[0, 2, 0], [0, 2, 0], [0, 4, 0], [0, 4, 0], [0, 4, 0]],
    [[1, 0, 2], [2, 0, 2], [2, 0, 2], [2, 0, 4], [4, 0, 4]],
    [[0, 0, 2], [0, 0, 2], [0, 0, 2], [0, 0, 4], [0, 0, 4]],
    [[1, 0, 0], [2, 0, 0], [2, 0, 0], [2, 0, 0], [4, 0, 0]],
    [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
];

/// isl's `isl_get_miptail_base_row`: Yf tails skip the first four (largest) slots.
fn base_row(tiling: IslTiling) -> u32 {
    match tiling {
        IslTiling::SklYf | IslTiling::IclYf => 4,
        _ => 0,
    }
}

fn table_rows(tiling: IslTiling, dim: SurfDim) -> u32 {
    match (tiling, dim) {
        (IslTiling::SklYf | IslTiling::SklYs, SurfDim::D3) => SKL_3D.len() as u32,
        (_, SurfDim::D3) => ICL_3D.len() as u32, // = TILE64_3D.len()
        _ => ICL_2D.len() as u32,
    }
}

/// isl's `tiling_max_mip_tail`: how many levels a tail can hold (0 when the tiling has
/// no tail or the surface is multisampled or 1D).
pub fn max_tail_levels(tiling: IslTiling, dim: SurfDim, samples: u32) -> u32 {
    let std = matches!(
        tiling,
        IslTiling::SklYf
            | IslTiling::SklYs
            | IslTiling::IclYf
            | IslTiling::IclYs
            | IslTiling::Tile64
            | IslTiling::Tile64Xe2
    );
    if !std || samples > 1 || dim == SurfDim::D1 {
        return 0;
    }
    table_rows(tiling, dim) - base_row(tiling)
}

/// The offset, in elements, of tail slot `slot` (level `start + slot`) from the tail
/// start level's position (isl's `isl_get_miptail_level_offset_el`). `None` when the
/// tiling has no tail, `bpb` is not 8..128, or the slot is past the table.
pub fn slot_offset_el(tiling: IslTiling, dim: SurfDim, bpb: u32, slot: u32) -> Option<Extent3d> {
    if !matches!(bpb, 8 | 16 | 32 | 64 | 128) {
        return None;
    }
    // Column 0 is 128 bpb, column 4 is 8 bpb: 8 - ffs(bpb).
    let col = (7 - bpb.trailing_zeros()) as usize;
    let row = (base_row(tiling) + slot) as usize;
    if max_tail_levels(tiling, dim, 1) == 0 || row >= table_rows(tiling, dim) as usize {
        return None;
    }
    let xyz = |e: [u8; 3]| Extent3d {
        w: e[0] as u32,
        h: e[1] as u32,
        d: e[2] as u32,
    };
    let xy = |e: [u8; 2]| Extent3d {
        w: e[0] as u32,
        h: e[1] as u32,
        d: 0,
    };
    Some(match (tiling, dim) {
        (IslTiling::Tile64 | IslTiling::Tile64Xe2, SurfDim::D3) => xyz(TILE64_3D[row][col]),
        (IslTiling::SklYf | IslTiling::SklYs, SurfDim::D3) => xyz(SKL_3D[row][col]),
        (_, SurfDim::D3) => xyz(ICL_3D[row][col]),
        (IslTiling::SklYf | IslTiling::SklYs, _) => xy(ICL_2D[skl_2d_row(row)][col]),
        _ => xy(ICL_2D[row][col]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skl_2d_rows_11_to_14_are_reversed() {
        let at = |t, row| slot_offset_el(t, SurfDim::D2, 128, row).unwrap();
        // Reference: SKL row 11 = (3,0 | 6,0 | 4,4 | 8,4 | 0,12), row 14 = all zero.
        for (col_bpb, want) in [
            (128, (3, 0)),
            (64, (6, 0)),
            (32, (4, 4)),
            (16, (8, 4)),
            (8, (0, 12)),
        ] {
            let e = slot_offset_el(IslTiling::SklYs, SurfDim::D2, col_bpb, 11).unwrap();
            assert_eq!((e.w, e.h), want, "{col_bpb}");
            let z = slot_offset_el(IslTiling::SklYs, SurfDim::D2, col_bpb, 14).unwrap();
            assert_eq!((z.w, z.h), (0, 0));
        }
        for row in 0..11 {
            assert_eq!(at(IslTiling::SklYs, row), at(IslTiling::IclYs, row));
        }
    }

    #[test]
    fn three_d_tables_share_rows_0_to_4() {
        for row in 0..5 {
            for bpb in [8, 16, 32, 64, 128] {
                let t = slot_offset_el(IslTiling::Tile64, SurfDim::D3, bpb, row);
                assert_eq!(t, slot_offset_el(IslTiling::SklYs, SurfDim::D3, bpb, row));
                assert_eq!(t, slot_offset_el(IslTiling::IclYs, SurfDim::D3, bpb, row));
            }
        }
    }

    #[test]
    fn tail_capacities() {
        assert_eq!(max_tail_levels(IslTiling::IclYs, SurfDim::D2, 1), 15);
        assert_eq!(max_tail_levels(IslTiling::IclYf, SurfDim::D2, 1), 11);
        assert_eq!(max_tail_levels(IslTiling::SklYf, SurfDim::D3, 1), 12);
        assert_eq!(max_tail_levels(IslTiling::Tile64Xe2, SurfDim::D3, 1), 15);
        assert_eq!(max_tail_levels(IslTiling::Tile64, SurfDim::D2, 4), 0);
        assert_eq!(max_tail_levels(IslTiling::Y0, SurfDim::D2, 1), 0);
        // Yf reads from row 4 on.
        let e = slot_offset_el(IslTiling::IclYf, SurfDim::D2, 32, 0).unwrap();
        assert_eq!((e.w, e.h), (16, 0));
        assert!(slot_offset_el(IslTiling::IclYf, SurfDim::D2, 32, 11).is_none());
    }
}
