//! Mesa's own address formula over the parameter block, as a test model.
//!
//! Mesa's `image_address()` reads only slots 0–4 (offset, size, stride, tiling,
//! swizzling); [`ImageParam::texel_address`] uses the extension slots as well. Checking
//! this model against [`Surface::texel_offset`](crate::Surface::texel_offset) shows that
//! [`fill_image_param`](crate::fill_image_param) fills slots 0–4 with what Mesa's shader
//! code expects, for the tilings Mesa supports there (linear, X, Y). Mesa's formula has
//! no swizzle fields, so it cannot describe Yf, Ys, Tile4 or Tile64 at all (single- or
//! multisampled); [`block_formula_address`] is an independent evaluator of the extended
//! formula over the whole block for those.

use crate::image_param::{slot, ubfe, ushr, ImageParam, DWORDS};

/// Mesa's `image_address()` (`docs/hardware/mesa-storage-images.md` §6) over slots 0–4: `coords` are 1,
/// 2 or 3 coordinates in Mesa's form (a 1D array passes `(x, 0, layer)`); the XOR
/// block is evaluated when `emit_swizzle` (Mesa emits it for IVB and HSW only).
/// Correct for linear, X and Y surfaces whose `OFFSET.z` is 0.
pub(super) fn mesa_image_address(p: &ImageParam, coords: &[u32], emit_swizzle: bool) -> u32 {
    let n = coords.len();
    let c = |i: usize| coords.get(i).copied().unwrap_or(0);
    let mut xy = [
        c(0).wrapping_add(p.offset[0]),
        c(1).wrapping_add(p.offset[1]),
    ];
    if n > 2 {
        let zx = ubfe(c(2), 0, p.tiling[2]);
        let zy = ushr(c(2), p.tiling[2]);
        xy[0] = xy[0].wrapping_add(zx.wrapping_mul(p.stride[2]));
        xy[1] = xy[1].wrapping_add(zy.wrapping_mul(p.stride[3]));
    }
    if n > 1 {
        let minor = [ubfe(xy[0], 0, p.tiling[0]), ubfe(xy[1], 0, p.tiling[1])];
        let major = [ushr(xy[0], p.tiling[0]), ushr(xy[1], p.tiling[1])];
        let idx_x = ((major[0] << (p.tiling[1] & 31)).wrapping_add(minor[1]) << (p.tiling[0] & 31))
            .wrapping_add(minor[0]);
        let idx_y = major[1] << (p.tiling[1] & 31);
        let mut addr = idx_y
            .wrapping_mul(p.stride[1])
            .wrapping_add(idx_x)
            .wrapping_mul(p.stride[0]);
        if emit_swizzle {
            addr ^= (ushr(addr, p.swizzling[0]) ^ ushr(addr, p.swizzling[1])) & 64;
        }
        addr
    } else {
        xy[0]
            .wrapping_add(xy[1].wrapping_mul(p.stride[1]))
            .wrapping_mul(p.stride[0])
    }
}

/// The extended formula of the `image_param` module docs, evaluated straight from the
/// block's memory image the way a shader reads it (vec4 slot `s`, lane `c` at dword `4 *
/// s + c`), written apart from [`ImageParam::texel_address`] so that the dword encoding
/// and that evaluator are checked against each other. Unlike Mesa's formula above it
/// covers every tiling: the U/V/R fields, the row term and the slab term (3D slices of
/// tiles with depth, in-tile samples of multisampled surfaces).
pub(super) fn block_formula_address(d: &[u32; DWORDS], x: u32, y: u32, z: u32) -> u32 {
    let lane = |s: u32, c: u32| d[(4 * s + c) as usize];
    // NIR's bitfield_insert: the base when bits == 0, undefined (here 0) past bit 31.
    let bfi = |base: u32, insert: u32, offset: u32, bits: u32| -> u32 {
        match bits {
            0 => base,
            _ if offset + bits > 32 => 0,
            32 => insert,
            _ => {
                let mask = ((1u32 << bits) - 1) << offset;
                (base & !mask) | ((insert << offset) & mask)
            }
        }
    };
    let z = z.wrapping_add(lane(slot::OFFSET, 2));
    let x = x
        .wrapping_add(lane(slot::OFFSET, 0))
        .wrapping_add(ubfe(z, 0, lane(slot::TILING, 2)).wrapping_mul(lane(slot::STRIDE, 2)));
    let y = y
        .wrapping_add(lane(slot::OFFSET, 1))
        .wrapping_add(ushr(z, lane(slot::TILING, 2)).wrapping_mul(lane(slot::STRIDE, 3)));
    let xb = x.wrapping_mul(lane(slot::STRIDE, 0));
    let mut a = 0u32;
    for (first, c) in [
        (slot::U_FIELDS, xb),
        (slot::V_FIELDS, y),
        (slot::R_FIELDS, z),
    ] {
        for i in first..first + slot::FIELDS_PER_AXIS {
            a = bfi(a, ushr(c, lane(i, 0)), lane(i, 1), lane(i, 2));
        }
    }
    a = a.wrapping_add(ushr(y, lane(slot::TILE, 0)).wrapping_mul(lane(slot::TILE, 1)));
    a = a.wrapping_add(ushr(z, lane(slot::TILE, 2)).wrapping_mul(lane(slot::TILE, 3)));
    a ^ ((ushr(a, lane(slot::SWIZZLING, 0)) ^ ushr(a, lane(slot::SWIZZLING, 1))) & 64)
}
