//! Mesa's own address formula over the parameter block, as a test model.
//!
//! Mesa's `image_address()` reads only slots 0–4 (offset, size, stride, tiling,
//! swizzling); [`ImageParam::texel_address`] uses the extension slots as well. Checking
//! this model against [`Surface::texel_offset`](crate::Surface::texel_offset) shows that
//! [`fill_image_param`](crate::fill_image_param) fills slots 0–4 with what Mesa's shader
//! code expects, for the tilings Mesa supports there (linear, X, Y).

use crate::image_param::{ubfe, ushr, ImageParam};

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
