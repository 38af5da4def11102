//! Bit-6 ("channel") swizzling of X- and Y-tiled surfaces on Gfx4–7 (docs/hardware/surface-layout.md §6).
//!
//! The memory controller of those machines XORs address bit 6 with higher bits when both
//! channels are populated. Mesa assumes i915's `9_10` mode for X and `9` for Y whenever
//! the kernel reports swizzling, and this module does the same. The XOR is applied to the
//! final byte offset from the (tile-aligned) surface base, so bits 6, 9 and 10 of the
//! base do not matter.

use crate::tile::Tiling;

/// Whether the device swizzles address bit 6 of X- and Y-tiled surfaces: isl's
/// `isl_device::has_bit6_swizzling`, set when the kernel reports a swizzle mode other
/// than `I915_BIT_6_SWIZZLE_NONE` (only ever before Gfx8, docs/hardware/surface-layout.md §6). The XOR
/// pattern itself follows from the tiling ([`bit6_swizzle`]), so two states are all there is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bit6Swizzle {
    /// Addresses are not swizzled (every Gfx8+ device, and Gfx4–7.5 devices whose
    /// memory channels are not interleaved).
    #[default]
    None,
    /// X and Y surfaces are swizzled with Mesa's patterns: `9_10` for X, `9` for Y.
    Enabled,
}

impl Bit6Swizzle {
    /// The mode for a device whose `has_bit6_swizzling` is `has_bit6_swizzling`.
    pub const fn from_has_bit6_swizzling(has_bit6_swizzling: bool) -> Bit6Swizzle {
        if has_bit6_swizzling {
            Bit6Swizzle::Enabled
        } else {
            Bit6Swizzle::None
        }
    }

    /// Whether addresses are swizzled.
    pub const fn is_enabled(self) -> bool {
        matches!(self, Bit6Swizzle::Enabled)
    }
}

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

    #[test]
    fn device_flag_maps_to_mode() {
        assert_eq!(
            Bit6Swizzle::from_has_bit6_swizzling(false),
            Bit6Swizzle::None
        );
        assert_eq!(
            Bit6Swizzle::from_has_bit6_swizzling(true),
            Bit6Swizzle::Enabled
        );
        assert!(Bit6Swizzle::Enabled.is_enabled());
        assert!(!Bit6Swizzle::None.is_enabled());
        // Devices that do not report swizzling are the common case.
        assert_eq!(Bit6Swizzle::default(), Bit6Swizzle::None);
    }
}
