//! Bit-6 ("channel") swizzling of X- and Y-tiled surfaces on Gfx4–7 (tiling.md §6).
//!
//! The memory controller of those machines XORs address bit 6 with higher bits when both
//! channels are populated. Mesa assumes i915's `9_10` mode for X and `9` for Y whenever
//! the kernel reports swizzling, and this module does the same. The XOR is applied to the
//! final byte offset from the (tile-aligned) surface base, so bits 6, 9 and 10 of the
//! base do not matter.

use crate::tile::Tiling;

/// Applies Mesa's bit-6 swizzle for `tiling` to a byte offset: X `bit6 ^= bit9 ^
/// bit10`, Y `bit6 ^= bit9`. Other tilings are returned unchanged (linear surfaces are
/// never swizzled; no source describes swizzling for W, Yf, Ys, Tile4 or Tile64, so
/// callers must not ask for it, see [`swizzle_applies`]).
pub fn bit6_swizzle(offset: u64, tiling: Tiling) -> u64 {
    let bit = |n: u32| (offset >> n) & 1;
    match tiling {
        Tiling::X => offset ^ ((bit(9) ^ bit(10)) << 6),
        Tiling::Y => offset ^ (bit(9) << 6),
        _ => offset,
    }
}

/// Whether a device that swizzles (Mesa's `has_bit6_swizzle`) swizzles surfaces of this
/// tiling: `Some(true)` for X and Y, `Some(false)` for linear, `None` when no source
/// says (W) or the tiling does not exist on swizzling hardware.
pub fn swizzle_applies(tiling: Tiling) -> Option<bool> {
    match tiling {
        Tiling::X | Tiling::Y => Some(true),
        Tiling::Linear => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_patterns() {
        // bit9 only: X and Y both flip bit 6.
        assert_eq!(bit6_swizzle(0x200, Tiling::X), 0x240);
        assert_eq!(bit6_swizzle(0x200, Tiling::Y), 0x240);
        // bit9 and bit10: X cancels, Y flips.
        assert_eq!(bit6_swizzle(0x600, Tiling::X), 0x600);
        assert_eq!(bit6_swizzle(0x600, Tiling::Y), 0x640);
        // bit10 only: X flips, Y does not.
        assert_eq!(bit6_swizzle(0x440, Tiling::X), 0x400);
        assert_eq!(bit6_swizzle(0x440, Tiling::Y), 0x440);
        assert_eq!(bit6_swizzle(0x640, Tiling::Linear), 0x640);
    }
}
