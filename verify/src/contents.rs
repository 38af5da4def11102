//! What an image holds before a run: the [`Fill`] a setup names for it, written into
//! the bound surface texel by texel ([`fill_image`]) at every level, layer and slice
//! ([`texel_positions`]), with random texels that are valid values of their channels
//! ([`valid_raw`]: floats finite), and the seeded generator ([`SeedRng`],
//! [`pattern_bytes`]) the setups draw from.

use crate::memory::{ImageStorage, Memory};
use crate::texel::{encode_channel, write_bits, ChannelKind, TexelLayout};
use tiling::{Bit6Swizzle, SurfDim};

/// An image's initial contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Every byte 0.
    Zero,
    /// A seeded pattern: every texel of every level and layer a random *valid* texel of
    /// the view format (floats finite), the padding between texels random bytes.
    Pattern(u64),
    /// Texel values that follow the texel's position: channel `c` of texel (x, y) of
    /// layer (slice) z at level l is `n = x + 2y + 3z + 5c + 7l`, as an integer (modulo
    /// the channel's range) or, for normalized and float channels, `(n mod 64) / 63`
    /// (SNORM: `2 (n mod 64) / 63 - 1`). Padding is 0.
    Gradient,
    /// The allocation's bytes, exactly (as many as the surface has).
    Bytes(Vec<u8>),
}

impl Fill {
    /// Parses a fill as the command line names it: `zero`, `pattern` (seed 0),
    /// `pattern:SEED`, `gradient`.
    pub fn parse(text: &str) -> Result<Fill, String> {
        match text {
            "zero" => Ok(Fill::Zero),
            "pattern" => Ok(Fill::Pattern(0)),
            "gradient" => Ok(Fill::Gradient),
            _ => match text.strip_prefix("pattern:") {
                Some(seed) => seed
                    .parse::<u64>()
                    .map(Fill::Pattern)
                    .map_err(|_| format!("`{seed}` is not a seed (a decimal number below 2^64)")),
                None => Err(format!(
                    "unknown fill `{text}`; expected zero, pattern, pattern:SEED or gradient"
                )),
            },
        }
    }
}

/// A small deterministic generator (splitmix64).
#[derive(Clone, Debug)]
pub struct SeedRng(u64);

impl SeedRng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SeedRng {
        SeedRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// `n` bytes of a seeded pattern.
pub fn pattern_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = SeedRng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let word = rng.next_u64().to_le_bytes();
        let take = (n - out.len()).min(word.len());
        out.extend_from_slice(&word[..take]);
    }
    out
}

/// Every texel of a bound image's storage: (level, layer or slice, x, y, byte offset).
pub fn texel_positions(
    storage: &ImageStorage,
    texel_bytes: usize,
    bit6: Bit6Swizzle,
) -> Vec<TexelPos> {
    let mut out = Vec::new();
    match storage {
        ImageStorage::Buffer { elements } => {
            for x in 0..*elements {
                out.push(TexelPos {
                    level: 0,
                    layer: 0,
                    x: x as u32,
                    y: 0,
                    offset: x * texel_bytes as u64,
                });
            }
        }
        ImageStorage::Surface { surface, .. } => {
            let d = surface.desc();
            for level in 0..d.levels {
                let w = tiling::minify(d.width, level);
                let h = if d.dim == SurfDim::D1 {
                    1
                } else {
                    tiling::minify(d.height, level)
                };
                let zs = if d.dim == SurfDim::D3 {
                    tiling::minify(d.depth, level)
                } else {
                    d.array_len
                };
                for layer in 0..zs {
                    for y in 0..h {
                        for x in 0..w {
                            if let Ok(offset) = surface.texel_offset(x, y, layer, level, bit6) {
                                out.push(TexelPos {
                                    level,
                                    layer,
                                    x,
                                    y,
                                    offset,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Where one texel of a surface lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TexelPos {
    /// Mip level.
    pub level: u32,
    /// Array layer, cube face or 3D slice.
    pub layer: u32,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// Byte offset in the surface.
    pub offset: u64,
}

/// Fills the image bound at `binding` (see [`Fill`]).
pub fn fill_image(mem: &mut Memory, binding: u32, fill: &Fill) -> Result<(), String> {
    let b = mem
        .image(binding)
        .ok_or_else(|| format!("nothing is bound at {binding}"))?;
    let alloc = b.alloc;
    let layout = TexelLayout::from_ir(b.logical_format).map_err(|e| e.to_string())?;
    let tb = layout.bytes;
    let size = mem.allocation(alloc).bytes.len();
    let bytes = match fill {
        Fill::Zero => vec![0; size],
        Fill::Bytes(v) => {
            if v.len() != size {
                return Err(format!(
                    "{} bytes given for a surface of {size} bytes",
                    v.len()
                ));
            }
            v.clone()
        }
        Fill::Pattern(seed) => {
            let mut bytes = pattern_bytes(*seed, size);
            let mut rng = SeedRng::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0xf111);
            for p in texel_positions(&b.storage, tb, b.bit6_swizzle) {
                let o = p.offset as usize;
                let Some(texel) = bytes.get_mut(o..o + tb) else {
                    continue;
                };
                for c in &layout.channels {
                    let raw = valid_raw(c.kind, c.bits, rng.next_u64());
                    write_bits(texel, c.start_bit, c.bits, raw);
                }
            }
            bytes
        }
        Fill::Gradient => {
            let mut bytes = vec![0; size];
            for p in texel_positions(&b.storage, tb, b.bit6_swizzle) {
                let o = p.offset as usize;
                let Some(texel) = bytes.get_mut(o..o + tb) else {
                    continue;
                };
                for c in &layout.channels {
                    let n = p.x as u64
                        + 2 * p.y as u64
                        + 3 * p.layer as u64
                        + 5 * c.slot as u64
                        + 7 * p.level as u64;
                    let t = (n % 64) as f32 / 63.0;
                    let reg = match c.kind {
                        ChannelKind::Unorm | ChannelKind::Float | ChannelKind::Ufloat => {
                            if c.bits == 64 {
                                (t as f64).to_bits()
                            } else {
                                t.to_bits() as u64
                            }
                        }
                        ChannelKind::Snorm => (2.0 * t - 1.0).to_bits() as u64,
                        ChannelKind::Uint | ChannelKind::Raw => n,
                        ChannelKind::Sint => (n as i64 - 32) as u64,
                    };
                    let raw = encode_channel(c.kind, c.bits, reg);
                    write_bits(texel, c.start_bit, c.bits, raw);
                }
            }
            bytes
        }
    };
    mem.allocation_mut(alloc).bytes = bytes;
    Ok(())
}

/// Random raw channel bits that decode to a finite value: float and small-float
/// channels whose exponent would be all ones (infinity or NaN) lose its top bit.
pub fn valid_raw(kind: ChannelKind, bits: u8, random: u64) -> u64 {
    let m = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let raw = random & m;
    let exponent = |mant: u32, width: u32| -> u64 {
        let e_mask = ((1u64 << width) - 1) << mant;
        if raw & e_mask == e_mask {
            raw & !(1u64 << (mant + width - 1))
        } else {
            raw
        }
    };
    match (kind, bits) {
        (ChannelKind::Float, 16) => exponent(10, 5),
        (ChannelKind::Float, 32) => exponent(23, 8),
        (ChannelKind::Float, 64) => exponent(52, 11),
        (ChannelKind::Ufloat, b) => exponent(b as u32 - 5, 5),
        _ => raw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills() {
        assert_eq!(Fill::parse("zero"), Ok(Fill::Zero));
        assert_eq!(Fill::parse("pattern:7"), Ok(Fill::Pattern(7)));
        assert_eq!(Fill::parse("gradient"), Ok(Fill::Gradient));
        assert!(Fill::parse("pattern:x").unwrap_err().contains("not a seed"));
        assert!(Fill::parse("noise")
            .unwrap_err()
            .contains("unknown fill `noise`"));
        // Float patterns stay finite: an all-ones exponent loses its top bit.
        assert_eq!(valid_raw(ChannelKind::Float, 16, 0x7c01), 0x3c01);
        assert_eq!(valid_raw(ChannelKind::Float, 32, 0xffff_ffff), 0xbfff_ffff);
        assert_eq!(valid_raw(ChannelKind::Ufloat, 10, 0x3ff), 0x1ff);
        assert_eq!(valid_raw(ChannelKind::Unorm, 8, 0x1ff), 0xff);
    }
}
