//! Reading an instruction's source operands into per-channel values and writing
//! per-channel results to its destination, with the operand's type decided once per
//! instruction rather than once per channel.
//!
//! Integer sources become exact `i128` values (sign- or zero-extended from their type,
//! then the source modifier); float sources become exact `f64` values (denormals flushed
//! per `%cr0`, then the modifier). Integer results are written as the destination's low
//! bits, or clamped to its range with `.sat` (2_datatypes.md).

use super::convert::{int_to_int_bits, int_value, FpMode};
use super::program::{XDst, XSrc};
use super::regfile::RegState;
use super::types::{SrcMod, VType};

/// Channels of an instruction, at most.
pub const MAX_CHANNELS: usize = 32;

/// One value per channel.
pub type Lanes<T> = [T; MAX_CHANNELS];

/// Channels `n` set in `chen`, in increasing order.
#[inline(always)]
pub fn channels(chen: u32) -> impl Iterator<Item = usize> {
    let mut m = chen;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let n = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(n)
        }
    })
}

/// The bits of `s` in channel `n`.
#[inline]
pub fn lane_bits(s: &XSrc, st: &RegState, n: usize) -> u64 {
    match s {
        XSrc::Reg { ty, offs, .. } => st.read(offs[if offs.len() == 1 { 0 } else { n }], ty.size()),
        XSrc::Imm { lanes, .. } => lanes[if lanes.len() == 1 { 0 } else { n }],
        XSrc::Pred(_) => 0,
    }
}

/// An integer source modifier applied exactly.
#[inline]
pub fn int_mod(v: i128, m: SrcMod) -> i128 {
    match m {
        SrcMod::None => v,
        SrcMod::Neg => -v,
        SrcMod::Abs => v.abs(),
        SrcMod::NegAbs => -v.abs(),
        SrcMod::Not => !v,
    }
}

/// Reads `N`-byte elements at `offs` (one offset: the same element for every channel)
/// into `out`, converted by `f`.
#[inline(always)]
fn load<const N: usize, T: Copy>(
    st: &RegState,
    offs: &[u32],
    chen: u32,
    out: &mut Lanes<T>,
    f: impl Fn([u8; N]) -> T,
) {
    let b = &st.bytes;
    let word = |o: u32| {
        let o = o as usize;
        let mut w = [0u8; N];
        w.copy_from_slice(&b[o..o + N]);
        w
    };
    if offs.len() == 1 {
        let v = f(word(offs[0]));
        for n in channels(chen) {
            out[n] = v;
        }
    } else {
        for n in channels(chen) {
            out[n] = f(word(offs[n]));
        }
    }
}

/// The integer values of source `s` in the channels of `chen`.
pub fn gather_int(s: &XSrc, st: &RegState, chen: u32, out: &mut Lanes<i128>) {
    match s {
        XSrc::Reg { ty, modifier, offs } => {
            match ty {
                VType::Ub => load::<1, _>(st, offs, chen, out, |w| i128::from(w[0])),
                VType::B => load::<1, _>(st, offs, chen, out, |w| i128::from(w[0] as i8)),
                VType::Uw => {
                    load::<2, _>(st, offs, chen, out, |w| i128::from(u16::from_le_bytes(w)))
                }
                VType::W => {
                    load::<2, _>(st, offs, chen, out, |w| i128::from(i16::from_le_bytes(w)))
                }
                VType::Ud => {
                    load::<4, _>(st, offs, chen, out, |w| i128::from(u32::from_le_bytes(w)))
                }
                VType::D => {
                    load::<4, _>(st, offs, chen, out, |w| i128::from(i32::from_le_bytes(w)))
                }
                VType::Uq => {
                    load::<8, _>(st, offs, chen, out, |w| i128::from(u64::from_le_bytes(w)))
                }
                VType::Q => {
                    load::<8, _>(st, offs, chen, out, |w| i128::from(i64::from_le_bytes(w)))
                }
                t => {
                    for n in channels(chen) {
                        out[n] = int_value(lane_bits(s, st, n), *t);
                    }
                }
            }
            if *modifier != SrcMod::None {
                for n in channels(chen) {
                    out[n] = int_mod(out[n], *modifier);
                }
            }
        }
        XSrc::Imm { ty, lanes } => {
            if lanes.len() == 1 {
                let v = int_value(lanes[0], *ty);
                for n in channels(chen) {
                    out[n] = v;
                }
            } else {
                for n in channels(chen) {
                    out[n] = int_value(lanes[n], *ty);
                }
            }
        }
        XSrc::Pred(_) => {}
    }
}

/// `v` with a denormal of type `ty` flushed to a zero of its sign, unless `%cr0` keeps
/// that type's denormals.
#[inline]
pub fn flush(v: f64, ty: VType, mode: FpMode) -> f64 {
    if mode.keeps_denorms(ty) || v == 0.0 || !v.is_finite() {
        return v;
    }
    let min_normal = match ty {
        VType::Df => f64::MIN_POSITIVE,
        VType::Hf => 6.103_515_625e-5,
        _ => f64::from(f32::MIN_POSITIVE),
    };
    if v.abs() < min_normal {
        if v < 0.0 {
            -0.0
        } else {
            0.0
        }
    } else {
        v
    }
}

/// The float values of source `s` in the channels of `chen`, exactly, with its
/// denormals flushed per `mode` and its modifier applied.
pub fn gather_float(s: &XSrc, st: &RegState, chen: u32, mode: FpMode, out: &mut Lanes<f64>) {
    let ty = s.ty();
    match s {
        XSrc::Reg { offs, .. } => match ty {
            VType::F => load::<4, _>(st, offs, chen, out, |w| f64::from(f32::from_le_bytes(w))),
            VType::Df => load::<8, _>(st, offs, chen, out, f64::from_le_bytes),
            t => {
                for n in channels(chen) {
                    out[n] = super::convert::float_value(lane_bits(s, st, n), t);
                }
            }
        },
        XSrc::Imm { lanes, .. } => {
            for n in channels(chen) {
                out[n] =
                    super::convert::float_value(lanes[if lanes.len() == 1 { 0 } else { n }], ty);
            }
        }
        XSrc::Pred(_) => {}
    }
    if !mode.keeps_denorms(ty) {
        for n in channels(chen) {
            out[n] = flush(out[n], ty, mode);
        }
    }
    if let XSrc::Reg { modifier, .. } = s {
        let m = *modifier;
        if m != SrcMod::None {
            for n in channels(chen) {
                let v = out[n];
                out[n] = match m {
                    SrcMod::Neg => -v,
                    SrcMod::Abs => v.abs(),
                    SrcMod::NegAbs => -v.abs(),
                    _ => v,
                };
            }
        }
    }
}

/// Writes `N`-byte results in the channels of `chen`.
#[inline(always)]
fn store<const N: usize, T: Copy>(
    st: &mut RegState,
    offs: &[u32],
    chen: u32,
    vals: &Lanes<T>,
    f: impl Fn(T) -> [u8; N],
) {
    let b = &mut st.bytes;
    for n in channels(chen) {
        let o = offs[n] as usize;
        b[o..o + N].copy_from_slice(&f(vals[n]));
    }
}

/// Writes integer results to an integer destination: its low bits, or the value clamped
/// to its range with `sat`.
pub fn store_int(d: &XDst, st: &mut RegState, chen: u32, vals: &Lanes<i128>, sat: bool) {
    let XDst::Reg { ty, offs } = d else { return };
    if sat {
        let ty = *ty;
        let mut bits = [0u64; MAX_CHANNELS];
        for n in channels(chen) {
            bits[n] = int_to_int_bits(vals[n], ty, true);
        }
        store_bits(d, st, chen, &bits);
        return;
    }
    match ty.size() {
        1 => store::<1, _>(st, offs, chen, vals, |v| [v as u8]),
        2 => store::<2, _>(st, offs, chen, vals, |v| (v as u16).to_le_bytes()),
        4 => store::<4, _>(st, offs, chen, vals, |v| (v as u32).to_le_bytes()),
        _ => store::<8, _>(st, offs, chen, vals, |v| (v as u64).to_le_bytes()),
    }
}

/// Writes raw result bits (the destination type's) in the channels of `chen`.
pub fn store_bits(d: &XDst, st: &mut RegState, chen: u32, bits: &Lanes<u64>) {
    let XDst::Reg { ty, offs } = d else { return };
    match ty.size() {
        1 => store::<1, _>(st, offs, chen, bits, |v| [v as u8]),
        2 => store::<2, _>(st, offs, chen, bits, |v| (v as u16).to_le_bytes()),
        4 => store::<4, _>(st, offs, chen, bits, |v| (v as u32).to_le_bytes()),
        _ => store::<8, _>(st, offs, chen, bits, |v| v.to_le_bytes()),
    }
}

/// Writes the bits `bits` to channel `n` of `d`.
#[inline(always)]
pub fn write_dst(d: &XDst, st: &mut RegState, n: usize, bits: u64) {
    if let XDst::Reg { ty, offs } = d {
        st.write(offs[n], ty.size(), bits);
    }
}
