//! What a store of values that may err allows the stored bytes to be.
//!
//! The executor tracks, with [`ir::interp::Config::track_bounds`], the interval of
//! values each component may have where it derives from an instruction Vulkan lets err
//! ([`ir::bounds`], the table `ir/PRECISION.md`). When such a component is stored, the
//! bytes another correct run stores may differ from the executor's: a texel store
//! converts each channel with a monotonic encoding (saturate and round for normalized
//! channels, round to nearest for 16-bit floats), so the channel may hold any encoding
//! of a value of the interval, the encodings of its two ends and everything between.
//! Near a rounding boundary of a normalized channel that is the stored integer ±1; far
//! from one, only the executor's own integer. A [`Tolerance`] records, for one store,
//! the bytes it wrote and those fields with the values (decoded) they may hold instead.
//! Bits outside the fields must be equal.

use crate::texel::{decode_channel, encode_channel, read_bits, ChannelKind, TexelLayout};
use ir::bounds::Interval;

/// The ULPs within which a normalized channel converts to a float: Vulkan defines the
/// conversion as the quotient `c / (2^b - 1)` ("Conversion from Normalized Fixed-Point
/// to Floating-Point") and states no precision; this project holds it to `OpFDiv`'s
/// 2.5 ULP, the division Mesa's shader-side conversion (`nir_format_unorm_to_float`,
/// an `fdiv` without `exact`) is allowed (`ir/PRECISION.md`).
pub const NORMALIZED_LOAD_ULPS: f64 = 2.5;

/// The intervals of the four register values a texel load of `texel` (of `layout`)
/// gives: a normalized channel of at most 16 bits is within [`NORMALIZED_LOAD_ULPS`] of
/// its quotient; a field of `stored` (the tolerance of the store that wrote the texel)
/// may hold any of its values, each converted so. `None` for an exact channel.
pub fn load_bounds(
    layout: &TexelLayout,
    texel: &[u8],
    stored: Option<&Tolerance>,
) -> [Option<Interval>; 4] {
    let mut out = [None; 4];
    for c in &layout.channels {
        let Some(slot) = out.get_mut(c.slot as usize) else {
            continue;
        };
        let field = stored.and_then(|t| {
            t.fields
                .iter()
                .find(|f| f.start_bit == c.start_bit && f.bits == c.bits && f.kind == c.kind)
        });
        let own = decoded(c.kind, c.bits, read_bits(texel, c.start_bit, c.bits));
        let Some(own) = own else { continue };
        let integer = matches!(c.kind, ChannelKind::Uint | ChannelKind::Sint);
        let point = if integer {
            Interval::integers(own, own)
        } else {
            Interval::new(own, own)
        };
        // A field of the other domain (a float's bits stored in an integer channel)
        // loads as the bits it holds.
        let field = field.filter(|f| f.range.int == integer);
        let mut range = field.map_or(point, |f| f.range.hull(point));
        match c.kind {
            ChannelKind::Unorm | ChannelKind::Snorm if c.bits <= 16 => {
                range = range.widened_by_ulps(32, NORMALIZED_LOAD_ULPS);
                if c.kind == ChannelKind::Snorm {
                    // max(c / (2^(b-1) - 1), -1.0): the clamp is exact.
                    range = Interval::new(range.lo.max(-1.0), range.hi.max(-1.0));
                }
            }
            _ if field.is_none() => continue,
            _ => {}
        }
        // Register values carry finite intervals only ([`ir::bounds`]): a texel that
        // may hold an infinity loads exactly.
        *slot =
            (range.lo < range.hi && range.lo.is_finite() && range.hi.is_finite()).then_some(range);
    }
    out
}

/// What a texel store of `layout` that wrote `texel` from register values (32-bit) with
/// the intervals `bounds` allows the texel to be; `None` where every channel is exact.
pub fn store_tolerance(
    layout: &TexelLayout,
    texel: &[u8],
    bounds: &[Option<Interval>],
) -> Option<Tolerance> {
    let fields: Vec<ToleranceField> = layout
        .channels
        .iter()
        .filter_map(|c| {
            let b = (*bounds.get(c.slot as usize)?)?;
            ToleranceField::for_store(c.kind, c.start_bit, c.bits, b)
        })
        .collect();
    (!fields.is_empty()).then(|| Tolerance {
        bytes: texel.to_vec(),
        fields,
    })
}

/// One field of stored bytes that may hold any of several values.
#[derive(Clone, Debug, PartialEq)]
pub struct ToleranceField {
    /// First bit inside the stored bytes (little-endian).
    pub start_bit: u16,
    /// Width in bits.
    pub bits: u8,
    /// How its bits are decoded into a number ([`decode_channel`]): `Unorm`, `Snorm`,
    /// `Float` (16, 32 bits), `Uint` or `Sint`.
    pub kind: ChannelKind,
    /// The decoded values it may hold: those of the encodings of the interval's ends,
    /// and every value between them.
    pub range: Interval,
}

impl ToleranceField {
    /// The field that stores values of `bound` (the interval of a 32-bit register
    /// value) with the encoding of `kind` at `start_bit`, `bits` wide; `None` for an
    /// encoding this module does not model (the caller then compares bit for bit).
    pub fn for_store(kind: ChannelKind, start_bit: u16, bits: u8, bound: Interval) -> Option<Self> {
        let integer = matches!(kind, ChannelKind::Uint | ChannelKind::Sint);
        if bound.int {
            // An integer value (a float converted): an integer channel holds any integer
            // of the interval that it represents as it is (no wrapping: an interval
            // past the channel's range compares bit for bit).
            if !integer {
                return None;
            }
            let (min, max) = if kind == ChannelKind::Sint {
                let half = 2f64.powi(i32::from(bits) - 1);
                (-half, half - 1.0)
            } else {
                (0.0, 2f64.powi(i32::from(bits)) - 1.0)
            };
            return (min <= bound.lo && bound.hi <= max && bound.lo <= bound.hi).then_some(
                ToleranceField {
                    start_bit,
                    bits,
                    kind,
                    range: bound,
                },
            );
        }
        // A 32-bit integer channel takes the register's bits as they are: a float
        // value's bits (an integer store of a float, as `floatBitsToInt` writes), so it
        // may hold the bits of any float of the interval.
        if integer && bits == 32 {
            return Self::for_store(ChannelKind::Float, start_bit, bits, bound);
        }
        let (lo, hi) = match kind {
            // Unsigned small floats (r11g11b10, rgb9e5's mantissas are not: they share an
            // exponent) encode monotonically too, negative values as 0.
            ChannelKind::Unorm | ChannelKind::Snorm | ChannelKind::Float | ChannelKind::Ufloat => {
                if kind == ChannelKind::Float && !matches!(bits, 16 | 32) {
                    return None;
                }
                // The floats of the interval, and their encodings.
                let lo = f32_toward(bound.lo, true)?;
                let hi = f32_toward(bound.hi, false)?;
                (u64::from(lo.to_bits()), u64::from(hi.to_bits()))
            }
            _ => return None,
        };
        let range = Interval::new(
            decoded(kind, bits, encode_channel(kind, bits, lo))?,
            decoded(kind, bits, encode_channel(kind, bits, hi))?,
        );
        (range.lo <= range.hi).then_some(ToleranceField {
            start_bit,
            bits,
            kind,
            range,
        })
    }

    /// Whether the field of `bytes` holds a value it may hold.
    pub fn accepts(&self, bytes: &[u8]) -> bool {
        let raw = read_bits(bytes, self.start_bit, self.bits);
        decoded(self.kind, self.bits, raw).is_some_and(|v| self.range.contains(v))
    }
}

/// What one store allows the bytes it wrote to be.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// The bytes the executor stored.
    pub bytes: Vec<u8>,
    /// The fields that may hold other values.
    pub fields: Vec<ToleranceField>,
}

impl Tolerance {
    /// Whether `actual` (as long as [`Tolerance::bytes`]) is what the store may have
    /// written: every field a value it may hold, every other bit the executor's.
    pub fn accepts(&self, actual: &[u8]) -> bool {
        if actual.len() != self.bytes.len() {
            return false;
        }
        let mut expected = self.bytes.clone();
        let mut got = actual.to_vec();
        for f in &self.fields {
            if !f.accepts(actual) {
                return false;
            }
            crate::texel::write_bits(&mut expected, f.start_bit, f.bits, 0);
            crate::texel::write_bits(&mut got, f.start_bit, f.bits, 0);
        }
        expected == got
    }
}

/// What a store of 32-bit register values with the intervals `bounds` (float or
/// integer ones, [`Interval::int`]), which
/// wrote `bytes` (one word per value), allows them to be; `None` where every value is
/// exact.
pub fn word_tolerance(bytes: &[u8], bounds: &[Option<Interval>]) -> Option<Tolerance> {
    let fields: Vec<ToleranceField> = bounds
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let b = (*b)?;
            let kind = match b.base() {
                ir::BaseType::Int => ChannelKind::Sint,
                ir::BaseType::Uint => ChannelKind::Uint,
                _ => ChannelKind::Float,
            };
            ToleranceField::for_store(kind, (i * 32) as u16, 32, b)
        })
        .collect();
    (!fields.is_empty()).then(|| Tolerance {
        bytes: bytes.to_vec(),
        fields,
    })
}

/// The value the raw bits of a field of `kind` stand for; `None` for a NaN. An
/// infinity is a value: a 16-bit float channel stores one for a finite register value
/// beyond its range, and an interval whose computation overflowed ends at one.
fn decoded(kind: ChannelKind, bits: u8, raw: u64) -> Option<f64> {
    let v = decode_channel(kind, bits, raw);
    let x = match kind {
        ChannelKind::Uint => v as f64,
        // Sign-extended from the channel's width (64-bit channels included).
        ChannelKind::Sint => {
            let shift = 64 - u32::from(bits.clamp(1, 64));
            (((v << shift) as i64) >> shift) as f64
        }
        _ => f64::from(f32::from_bits(v as u32)),
    };
    (!x.is_nan()).then_some(x)
}

/// The float nearest `x` at or above it (`up`) or at or below it: an infinity past
/// the finite floats (an interval whose computation overflowed may hold any value up
/// to it); `None` for a NaN.
fn f32_toward(x: f64, up: bool) -> Option<f32> {
    let mut f = x as f32;
    if up && f64::from(f) < x {
        f = f.next_up();
    } else if !up && f64::from(f) > x {
        f = f.next_down();
    }
    (!f.is_nan()).then_some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sixty_four_bit_channel_holds_the_integers_of_its_interval() {
        // A float's bits widened to 64 (`ir::bounds`): 0x3e5cdcdd or the next, in an
        // r64_sint channel; a negative 64-bit integer decodes with its sign.
        let f = ToleranceField::for_store(
            ChannelKind::Sint,
            0,
            64,
            Interval::integers(1046273245.0, 1046273246.0),
        )
        .unwrap();
        let bytes = |v: u64| v.to_le_bytes();
        assert!(f.accepts(&bytes(1046273245)) && f.accepts(&bytes(1046273246)));
        assert!(!f.accepts(&bytes(1046273247)) && !f.accepts(&bytes(1 << 32 | 1046273245)));
        assert_eq!(decoded(ChannelKind::Sint, 64, (-5i64) as u64), Some(-5.0));
        assert_eq!(decoded(ChannelKind::Sint, 8, 0xfb), Some(-5.0));
    }

    #[test]
    fn an_integer_interval_stores_any_of_its_integers_an_integer_channel_holds() {
        let i = Interval::integers(200.0, 201.0);
        let f = ToleranceField::for_store(ChannelKind::Uint, 8, 8, i).unwrap();
        assert!(f.accepts(&[0, 200]) && f.accepts(&[0, 201]));
        assert!(!f.accepts(&[0, 202]) && !f.accepts(&[0, 199]));
        // Past the channel's range (no wrapping modelled), or into a float or normalized
        // channel, it compares bit for bit.
        assert!(ToleranceField::for_store(
            ChannelKind::Uint,
            0,
            8,
            Interval::integers(255.0, 256.0)
        )
        .is_none());
        assert!(ToleranceField::for_store(
            ChannelKind::Sint,
            0,
            8,
            Interval::integers(-129.0, 0.0)
        )
        .is_none());
        assert!(ToleranceField::for_store(ChannelKind::Unorm, 0, 8, i).is_none());
        assert!(ToleranceField::for_store(ChannelKind::Float, 0, 32, i).is_none());
        // A buffer word of a negative integer interval reads as signed.
        let t = word_tolerance(
            &(-3i32).to_le_bytes(),
            &[Some(Interval::integers(-3.0, -2.0))],
        )
        .unwrap();
        assert!(t.accepts(&(-2i32).to_le_bytes()) && !t.accepts(&(-1i32).to_le_bytes()));
    }

    #[test]
    fn a_unorm_channel_may_differ_by_one_only_next_to_a_rounding_boundary() {
        // 0.5/255 lies on the boundary between 0 and 1: a value within a few ulps of it
        // may store either; 100.2/255 is far from any boundary: only 100.
        let near = 0.5f64 / 255.0;
        let b = Interval::new(near - 1e-9, near + 1e-9);
        let f = ToleranceField::for_store(ChannelKind::Unorm, 0, 8, b).unwrap();
        assert!(f.accepts(&[0]) && f.accepts(&[1]) && !f.accepts(&[2]));
        let far = 100.2f64 / 255.0;
        let b = Interval::new(far - 1e-7, far + 1e-7);
        let f = ToleranceField::for_store(ChannelKind::Unorm, 8, 8, b).unwrap();
        assert!(f.accepts(&[0, 100]) && !f.accepts(&[0, 99]) && !f.accepts(&[0, 101]));
        // Bits outside the fields must be equal.
        let t = Tolerance {
            bytes: vec![7, 100],
            fields: vec![f],
        };
        assert!(t.accepts(&[7, 100]) && !t.accepts(&[8, 100]));
    }

    #[test]
    fn a_float_channel_holds_the_floats_of_the_interval() {
        let one = 1.0f64;
        let ulp = 2f64.powi(-23);
        let b = Interval::new(one - ulp, one + 2.0 * ulp);
        let f = ToleranceField::for_store(ChannelKind::Float, 0, 32, b).unwrap();
        let bytes = |x: f32| x.to_bits().to_le_bytes();
        assert!(f.accepts(&bytes(1.0)));
        assert!(f.accepts(&bytes(f32::from_bits(0x3f80_0002))));
        assert!(!f.accepts(&bytes(f32::from_bits(0x3f80_0003))));
        assert!(f.accepts(&bytes(f32::from_bits(0x3f7f_fffe))));
        assert!(!f.accepts(&bytes(f32::from_bits(0x3f7f_fffd))));
        assert!(!f.accepts(&bytes(f32::NAN)));
        // A 16-bit float channel: the halves the interval's ends round to.
        let f = ToleranceField::for_store(ChannelKind::Float, 0, 16, b).unwrap();
        assert!(f.accepts(&0x3c00u16.to_le_bytes()));
        assert!(!f.accepts(&0x3c01u16.to_le_bytes()));
        // Beyond a half's range the ends round to infinities: a store of a register
        // value anywhere in [-3e38, 3e38] may leave -inf, +inf or any half between,
        // never a NaN.
        let wide = Interval::new(-3.0e38, 3.0e38);
        let f = ToleranceField::for_store(ChannelKind::Float, 0, 16, wide).unwrap();
        for half in [0xfc00u16, 0x7c00, 0x0000, 0x7bff] {
            assert!(f.accepts(&half.to_le_bytes()), "{half:#x}");
        }
        assert!(!f.accepts(&0x7e00u16.to_le_bytes()));
        // Up to 1e5 only: +inf (65520 and up round to it) but not -inf.
        let up = Interval::new(1.0, 1.0e5);
        let f = ToleranceField::for_store(ChannelKind::Float, 0, 16, up).unwrap();
        assert!(f.accepts(&0x7c00u16.to_le_bytes()));
        assert!(!f.accepts(&0xfc00u16.to_le_bytes()));
        // Narrower integer channels are not modelled.
        assert!(ToleranceField::for_store(ChannelKind::Uint, 0, 8, b).is_none());
        // A 32-bit integer channel holds a float's bits: those of the interval's floats.
        let i = ToleranceField::for_store(ChannelKind::Sint, 0, 32, b).unwrap();
        assert!(i.accepts(&f32::to_le_bytes(f32::from_bits(0x3f80_0001))));
    }
}
