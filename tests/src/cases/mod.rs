//! Generators for the lowering property suites: platforms, formats, surfaces and views,
//! coordinates, and small random image shaders with the memory they run on.
//!
//! Everything is drawn from a quickcheck [`Gen`], so a case is determined by the
//! generator's seed (`Gen::from_size_and_seed`) and the configuration:
//!
//! * [`device`]: the twelve platform presets and the storage formats each can lower,
//!   grouped into [`device::FormatClass`]es;
//! * [`surface`]: image dimensions ([`surface::DimKind`]), the tilings a storage image
//!   may use on the platform (`tiling::storage_tilings`), surface extents, mip and array
//!   counts, views and bit-6 swizzling ([`surface::ImageSetup`]);
//! * [`coords`]: coordinate values and the coordinate expressions of a shader access
//!   (in range, at the edge, just and far out of range, negative);
//! * [`image_shader`]: a [`image_shader::Case`]: device, lowering options, images and a
//!   structured program of image accesses under divergent `if`s and loops, built into IR
//!   with [`ir::Builder`], with every returned value stored to an output buffer.
//!
//! Draws use [`below`], [`chance`] and [`pick`], which take their randomness from the
//! quickcheck generator.

pub mod coords;
pub mod device;
pub mod image_shader;
pub mod surface;

use quickcheck::{Arbitrary, Gen};

/// A uniform draw from `0..n` (`n > 0`; 0 when `n` is 0).
pub fn below(g: &mut Gen, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    // `u64::arbitrary` returns a "problem value" (0, 1, MAX, ...) one time in ten;
    // `u32` pairs make the draw uniform enough and keep it deterministic per seed.
    let hi = u32::arbitrary(g) as u64;
    let lo = u32::arbitrary(g) as u64;
    (((hi << 32) | lo) % n as u64) as usize
}

/// True with probability `num / den`.
pub fn chance(g: &mut Gen, num: usize, den: usize) -> bool {
    below(g, den) < num
}

/// A uniformly chosen element of a non-empty slice.
pub fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    items[below(g, items.len())]
}

/// A draw from `lo..=hi`.
pub fn between(g: &mut Gen, lo: u32, hi: u32) -> u32 {
    lo + below(g, (hi - lo + 1) as usize) as u32
}

/// A raw 64-bit draw (for fill seeds and bit patterns).
pub fn bits64(g: &mut Gen) -> u64 {
    ((u32::arbitrary(g) as u64) << 32) | u32::arbitrary(g) as u64
}
