//! Integer helpers of the ALU semantics.

/// Sign-extends the low `bits` bits of `v` (`bits` in 1..=64). A 1-bit value 1 becomes -1,
/// NIR's convention for signed 1-bit integers.
pub fn sign_extend(bits: u8, v: u64) -> i64 {
    if bits == 0 || bits >= 64 {
        v as i64
    } else {
        let sh = 64 - bits as u32;
        ((v << sh) as i64) >> sh
    }
}
