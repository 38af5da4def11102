//! Literals: ids within their bounds, constants, and tokens cut for messages.

use crate::diag::Diagnostic;
use crate::span::Span;

/// A decimal number below `limit`, or `None`.
pub(super) fn bounded(digits: &str, limit: u32) -> Option<u32> {
    let mut acc: u64 = 0;
    for b in digits.bytes() {
        acc = acc * 10 + (b - b'0') as u64;
        if acc >= limit as u64 {
            return None;
        }
    }
    Some(acc as u32)
}

/// The number `digits` of a value or block (`what`, written `{sigil}N`): it must be
/// below `max` (see [`MAX_VALUE_ID`](super::MAX_VALUE_ID)).
pub(super) fn id_below(
    span: Span,
    digits: &str,
    what: &str,
    sigil: char,
    max: u32,
) -> Result<u32, Diagnostic> {
    bounded(digits, max).ok_or_else(|| {
        Diagnostic::error(
            span,
            format!(
                "{what} id {sigil}{} is too large ({what} ids must be below {max})",
                shorten(digits)
            ),
        )
    })
}

/// A token cut to a length fit for a message.
pub(super) fn shorten(s: &str) -> String {
    if s.len() <= 40 {
        s.to_string()
    } else {
        let mut end = 40;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    }
}

/// Converts the spelling of a constant to the bits of a `bits`-bit component.
///
/// Accepted: `true`/`false` (1-bit), hex `0x..`, decimal, negative decimal (two's
/// complement) and, for 16/32/64-bit components, decimal floats with a point or an
/// exponent (`1.0`, `-0.5e3`), rounded to nearest even.
pub(super) fn constant(text: &str, bits: u8) -> Result<u64, String> {
    let mask = crate::types::bit_mask(bits);
    let too_big = || format!("constant {} does not fit in {bits} bits", shorten(text));
    match text {
        "true" | "false" => {
            return if bits == 1 {
                Ok((text == "true") as u64)
            } else {
                Err(format!(
                    "`{text}` is a 1-bit constant; a {bits}-bit constant needs a number"
                ))
            }
        }
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(malformed_constant(text));
        }
        return match u64::from_str_radix(hex, 16) {
            Ok(v) if v <= mask => Ok(v),
            _ => Err(too_big()),
        };
    }
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        let v: u128 = match body.parse::<u128>() {
            Ok(v) => v,
            Err(_) => return Err(too_big()),
        };
        if neg {
            // Two's complement: -2^(bits-1) is the most negative value that fits.
            if v > 1u128 << (bits - 1) {
                return Err(too_big());
            }
            return Ok((v as u64).wrapping_neg() & mask);
        }
        if v > mask as u128 {
            return Err(too_big());
        }
        return Ok(v as u64);
    }
    if !is_float_spelling(body) {
        return Err(malformed_constant(text));
    }
    let out_of_range = || {
        format!(
            "float constant {} is out of range for {bits}-bit floats",
            shorten(text)
        )
    };
    match bits {
        16 => {
            let x: f64 = text.parse().map_err(|_| malformed_constant(text))?;
            let h = half::f16::from_f64(x);
            if h.is_infinite() {
                return Err(out_of_range());
            }
            Ok(h.to_bits() as u64)
        }
        32 => {
            let x: f32 = text.parse().map_err(|_| malformed_constant(text))?;
            if x.is_infinite() {
                return Err(out_of_range());
            }
            Ok(x.to_bits() as u64)
        }
        64 => {
            let x: f64 = text.parse().map_err(|_| malformed_constant(text))?;
            if x.is_infinite() {
                return Err(out_of_range());
            }
            Ok(x.to_bits())
        }
        _ => Err(format!(
            "float constant {} needs a 16-, 32- or 64-bit type, not {bits}-bit",
            shorten(text)
        )),
    }
}

pub(super) fn malformed_constant(text: &str) -> String {
    format!(
        "malformed constant `{}` (expected hex `0x..`, a decimal or float number, `true` or `false`)",
        shorten(text)
    )
}

/// `digits [. digits] [e [+-] digits]` with a digit in the mantissa and a point or an
/// exponent (so that plain integers are not floats).
pub(super) fn is_float_spelling(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mantissa_digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        mantissa_digits += 1;
    }
    let mut point = false;
    if i < b.len() && b[i] == b'.' {
        point = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            mantissa_digits += 1;
        }
    }
    if mantissa_digits == 0 {
        return false;
    }
    let mut exponent = false;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
        exponent = true;
    }
    i == b.len() && (point || exponent)
}
