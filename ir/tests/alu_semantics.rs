//! Hand-computed expectations for every ALU opcode, from NIR's definitions in
//! `src/compiler/nir/nir_opcodes.py` and IEEE-754 arithmetic. Every expected value below
//! was worked out by hand (the comment next to it shows how); none comes from running the
//! code under test. Float constants are written as bit patterns, or as Rust literals that
//! are exactly representable.

use ir::eval::{eval_alu, EvalError, Operand};
use ir::{AluOp, Type};

fn ty(bits: u8, comps: u8) -> Type {
    Type::new(bits, comps).unwrap()
}

/// Evaluates `op` with a `dest` type on sources given as (bit size, components).
fn ev(op: AluOp, dest: Type, srcs: &[(u8, &[u64])]) -> Vec<u64> {
    let ops: Vec<Operand<'_>> = srcs.iter().map(|(b, c)| Operand::new(*b, c)).collect();
    eval_alu(op, dest, &ops)
        .unwrap_or_else(|e| panic!("{op}: {e}"))
        .to_vec()
}

/// A scalar evaluation: `dest_bits` result from scalar sources (bit size, value).
fn sc(op: AluOp, dest_bits: u8, srcs: &[(u8, u64)]) -> u64 {
    let vals: Vec<[u64; 1]> = srcs.iter().map(|(_, v)| [*v]).collect();
    let ops: Vec<Operand<'_>> = srcs
        .iter()
        .zip(&vals)
        .map(|((b, _), v)| Operand::new(*b, v))
        .collect();
    let r = eval_alu(op, ty(dest_bits, 1), &ops).unwrap_or_else(|e| panic!("{op}: {e}"));
    assert_eq!(r.len(), 1);
    r[0]
}

/// A scalar op whose sources and result all have `bits` bits.
fn u(op: AluOp, bits: u8, srcs: &[u64]) -> u64 {
    let s: Vec<(u8, u64)> = srcs.iter().map(|&v| (bits, v)).collect();
    sc(op, bits, &s)
}

/// A 32-bit scalar op.
fn u32op(op: AluOp, srcs: &[u64]) -> u64 {
    u(op, 32, srcs)
}

/// A comparison of two `bits`-bit scalars (1-bit result).
fn cmp(op: AluOp, bits: u8, a: u64, b: u64) -> u64 {
    sc(op, 1, &[(bits, a), (bits, b)])
}

/// Bits of an exactly representable f32.
fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

/// Bits of an exactly representable f64.
fn d(x: f64) -> u64 {
    x.to_bits()
}

const F32_NAN: u64 = 0x7fc0_0000;
const F32_DEFAULT_NAN: u64 = 0xffc0_0000;
const F32_INF: u64 = 0x7f80_0000;
const F32_NEG_INF: u64 = 0xff80_0000;
const F32_NEG_ZERO: u64 = 0x8000_0000;

// ----- moves and vectors ------------------------------------------------------------

#[test]
fn mov_copies_and_masks() {
    assert_eq!(
        ev(AluOp::Mov, ty(32, 3), &[(32, &[1, 2, 0xffff_ffff])]),
        [1, 2, 0xffff_ffff]
    );
    // Bits above the operand's size are not part of the value.
    assert_eq!(u(AluOp::Mov, 8, &[0x1ff]), 0xff);
    assert_eq!(u(AluOp::Mov, 1, &[1]), 1);
    assert_eq!(u(AluOp::Mov, 64, &[u64::MAX]), u64::MAX);
}

#[test]
fn vec_ops_gather_scalars() {
    assert_eq!(
        ev(AluOp::Vec2, ty(32, 2), &[(32, &[7]), (32, &[9])]),
        [7, 9]
    );
    assert_eq!(
        ev(
            AluOp::Vec3,
            ty(64, 3),
            &[(64, &[1]), (64, &[u64::MAX]), (64, &[3])]
        ),
        [1, u64::MAX, 3]
    );
    assert_eq!(
        ev(
            AluOp::Vec4,
            ty(16, 4),
            &[(16, &[0x1234]), (16, &[0xffff]), (16, &[0]), (16, &[1])]
        ),
        [0x1234, 0xffff, 0, 1]
    );
    assert_eq!(ev(AluOp::Vec2, ty(1, 2), &[(1, &[1]), (1, &[0])]), [1, 0]);
    // NIR's vec8 and vec16 gather 8 and 16 scalars in order.
    let eight: Vec<[u64; 1]> = (0..8).map(|i| [0x80 + i]).collect();
    let srcs: Vec<(u8, &[u64])> = eight.iter().map(|v| (8u8, &v[..])).collect();
    assert_eq!(
        ev(AluOp::Vec8, ty(8, 8), &srcs),
        [0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87]
    );
    let sixteen: Vec<[u64; 1]> = (0..16).map(|i| [1u64 << (63 - i)]).collect();
    let srcs: Vec<(u8, &[u64])> = sixteen.iter().map(|v| (64u8, &v[..])).collect();
    let want: Vec<u64> = (0..16).map(|i| 1u64 << (63 - i)).collect();
    assert_eq!(ev(AluOp::Vec16, ty(64, 16), &srcs), want);
}

// ----- integer arithmetic -----------------------------------------------------------

#[test]
fn iadd_wraps_at_every_size() {
    assert_eq!(u32op(AluOp::Iadd, &[0xffff_ffff, 1]), 0);
    // Signed overflow wraps: INT32_MAX + 1 = INT32_MIN.
    assert_eq!(u32op(AluOp::Iadd, &[0x7fff_ffff, 1]), 0x8000_0000);
    assert_eq!(u(AluOp::Iadd, 8, &[200, 100]), 44); // 300 - 256
    assert_eq!(u(AluOp::Iadd, 16, &[0xfff0, 0x20]), 0x10);
    assert_eq!(u(AluOp::Iadd, 64, &[u64::MAX, 2]), 1);
    // 1-bit: (-1) + (-1) = -2, truncated to 1 bit = 0.
    assert_eq!(u(AluOp::Iadd, 1, &[1, 1]), 0);
    assert_eq!(u(AluOp::Iadd, 1, &[1, 0]), 1);
    assert_eq!(
        ev(
            AluOp::Iadd,
            ty(32, 4),
            &[(32, &[1, 2, 3, 0xffff_ffff]), (32, &[10, 20, 30, 2])]
        ),
        [11, 22, 33, 1]
    );
}

#[test]
fn isub_wraps() {
    assert_eq!(u32op(AluOp::Isub, &[0, 1]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::Isub, &[0x8000_0000, 1]), 0x7fff_ffff);
    assert_eq!(u(AluOp::Isub, 16, &[5, 7]), 0xfffe);
    assert_eq!(u(AluOp::Isub, 64, &[0, 1]), u64::MAX);
    assert_eq!(u(AluOp::Isub, 1, &[0, 1]), 1);
}

#[test]
fn imul_keeps_low_bits() {
    assert_eq!(u32op(AluOp::Imul, &[0x1_0000, 0x1_0000]), 0);
    // (-1) * (-1) = 1.
    assert_eq!(u32op(AluOp::Imul, &[0xffff_ffff, 0xffff_ffff]), 1);
    // 65537^2 = 2^32 + 2^17 + 1.
    assert_eq!(u32op(AluOp::Imul, &[65537, 65537]), 0x2_0001);
    assert_eq!(u(AluOp::Imul, 8, &[16, 17]), 16); // 272 - 256
    assert_eq!(u(AluOp::Imul, 64, &[1 << 32, 1 << 32]), 0);
    assert_eq!(u(AluOp::Imul, 64, &[3, 0x5555_5555_5555_5556]), 2); // 3 * (2^64+2)/3
    assert_eq!(u(AluOp::Imul, 1, &[1, 1]), 1);
}

#[test]
fn imul_high_is_signed() {
    assert_eq!(u32op(AluOp::ImulHigh, &[0xffff_ffff, 0xffff_ffff]), 0); // 1 >> 32
                                                                        // (-2^31)^2 = 2^62: high word 2^30.
    assert_eq!(
        u32op(AluOp::ImulHigh, &[0x8000_0000, 0x8000_0000]),
        0x4000_0000
    );
    // -2 * 3 = -6: the high word is all ones.
    assert_eq!(u32op(AluOp::ImulHigh, &[0xffff_fffe, 3]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::ImulHigh, &[0x7fff_ffff, 2]), 0);
    // 8-bit: -128 * 127 = -16256 = 0xc080 in 16 bits.
    assert_eq!(u(AluOp::ImulHigh, 8, &[0x80, 0x7f]), 0xc0);
    // 64-bit needs the full 128-bit product: (-2^63)^2 = 2^126.
    assert_eq!(
        u(AluOp::ImulHigh, 64, &[1 << 63, 1 << 63]),
        0x4000_0000_0000_0000
    );
    assert_eq!(u(AluOp::ImulHigh, 64, &[u64::MAX, 5]), u64::MAX); // -5
                                                                  // 1-bit: (-1) * (-1) = 1, >> 1 = 0.
    assert_eq!(u(AluOp::ImulHigh, 1, &[1, 1]), 0);
}

#[test]
fn umul_high_is_unsigned() {
    // (2^32-1)^2 = 2^64 - 2^33 + 1.
    assert_eq!(
        u32op(AluOp::UmulHigh, &[0xffff_ffff, 0xffff_ffff]),
        0xffff_fffe
    );
    assert_eq!(u32op(AluOp::UmulHigh, &[0x8000_0000, 2]), 1);
    assert_eq!(u(AluOp::UmulHigh, 16, &[0xffff, 0xffff]), 0xfffe);
    assert_eq!(
        u(AluOp::UmulHigh, 64, &[u64::MAX, u64::MAX]),
        0xffff_ffff_ffff_fffe
    );
    assert_eq!(u(AluOp::UmulHigh, 1, &[1, 1]), 0);
}

#[test]
fn udiv_and_umod_by_zero_give_zero() {
    assert_eq!(u32op(AluOp::Udiv, &[7, 2]), 3);
    assert_eq!(u32op(AluOp::Udiv, &[7, 0]), 0);
    assert_eq!(u32op(AluOp::Udiv, &[0xffff_ffff, 0x10]), 0x0fff_ffff);
    assert_eq!(u(AluOp::Udiv, 8, &[255, 3]), 85);
    assert_eq!(u(AluOp::Udiv, 64, &[u64::MAX, 1 << 32]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::Umod, &[7, 3]), 1);
    assert_eq!(u32op(AluOp::Umod, &[7, 0]), 0);
    assert_eq!(u32op(AluOp::Umod, &[0xffff_ffff, 10]), 5); // 4294967295 = 429496729*10 + 5
    assert_eq!(u(AluOp::Umod, 16, &[0xffff, 0x100]), 0xff);
    assert_eq!(u(AluOp::Umod, 1, &[1, 1]), 0);
}

#[test]
fn idiv_truncates_and_wraps() {
    let m = |v: i32| v as u32 as u64;
    assert_eq!(u32op(AluOp::Idiv, &[m(-7), 2]), m(-3));
    assert_eq!(u32op(AluOp::Idiv, &[7, m(-2)]), m(-3));
    assert_eq!(u32op(AluOp::Idiv, &[m(-7), m(-2)]), 3);
    assert_eq!(u32op(AluOp::Idiv, &[m(-7), 0]), 0);
    // INT_MIN / -1 wraps to INT_MIN.
    assert_eq!(u32op(AluOp::Idiv, &[0x8000_0000, m(-1)]), 0x8000_0000);
    assert_eq!(u(AluOp::Idiv, 8, &[0x80, 0xff]), 0x80);
    assert_eq!(u(AluOp::Idiv, 64, &[1 << 63, u64::MAX]), 1 << 63);
    assert_eq!(u(AluOp::Idiv, 16, &[0xff9c, 10]), 0xfff6); // -100 / 10 = -10
                                                           // 1-bit: (-1) / (-1) = 1, truncated to 1 bit.
    assert_eq!(u(AluOp::Idiv, 1, &[1, 1]), 1);
}

#[test]
fn ineg_and_iabs_wrap_at_int_min() {
    assert_eq!(u32op(AluOp::Ineg, &[1]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::Ineg, &[0]), 0);
    assert_eq!(u32op(AluOp::Ineg, &[0x8000_0000]), 0x8000_0000);
    assert_eq!(u(AluOp::Ineg, 8, &[0x80]), 0x80);
    assert_eq!(u(AluOp::Ineg, 64, &[5]), 0xffff_ffff_ffff_fffb);
    assert_eq!(u(AluOp::Ineg, 1, &[1]), 1);
    assert_eq!(u32op(AluOp::Iabs, &[0xffff_fffb]), 5);
    assert_eq!(u32op(AluOp::Iabs, &[7]), 7);
    assert_eq!(u32op(AluOp::Iabs, &[0x8000_0000]), 0x8000_0000);
    assert_eq!(u(AluOp::Iabs, 16, &[0xffff]), 1);
    assert_eq!(u(AluOp::Iabs, 64, &[1 << 63]), 1 << 63);
    assert_eq!(u(AluOp::Iabs, 1, &[1]), 1);
}

#[test]
fn min_max_signed_and_unsigned() {
    assert_eq!(u32op(AluOp::Imin, &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::Imax, &[0xffff_ffff, 1]), 1);
    assert_eq!(u32op(AluOp::Umin, &[0xffff_ffff, 1]), 1);
    assert_eq!(u32op(AluOp::Umax, &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(u(AluOp::Imin, 8, &[0x7f, 0x80]), 0x80);
    assert_eq!(u(AluOp::Imax, 8, &[0x7f, 0x80]), 0x7f);
    assert_eq!(u(AluOp::Umin, 64, &[1 << 63, 3]), 3);
    assert_eq!(u(AluOp::Imin, 64, &[1 << 63, 3]), 1 << 63);
    // 1-bit signed: 1 is -1.
    assert_eq!(u(AluOp::Imin, 1, &[0, 1]), 1);
    assert_eq!(u(AluOp::Imax, 1, &[0, 1]), 0);
    assert_eq!(u(AluOp::Umin, 1, &[0, 1]), 0);
    assert_eq!(u(AluOp::Umax, 1, &[0, 1]), 1);
    assert_eq!(
        ev(AluOp::Umax, ty(16, 2), &[(16, &[1, 0xffff]), (16, &[2, 3])]),
        [2, 0xffff]
    );
}

// ----- bitwise ----------------------------------------------------------------------

#[test]
fn bitwise_logic() {
    assert_eq!(u32op(AluOp::Iand, &[0xf0f0, 0xff00]), 0xf000);
    assert_eq!(u32op(AluOp::Ior, &[0xf0f0, 0xff00]), 0xfff0);
    assert_eq!(u32op(AluOp::Ixor, &[0xf0f0, 0xff00]), 0x0ff0);
    assert_eq!(u32op(AluOp::Inot, &[0]), 0xffff_ffff);
    assert_eq!(u(AluOp::Inot, 8, &[0x0f]), 0xf0);
    assert_eq!(u(AluOp::Inot, 64, &[0]), u64::MAX);
    assert_eq!(u(AluOp::Inot, 1, &[1]), 0);
    assert_eq!(u(AluOp::Iand, 1, &[1, 1]), 1);
    assert_eq!(u(AluOp::Ior, 1, &[0, 1]), 1);
    assert_eq!(u(AluOp::Ixor, 1, &[1, 1]), 0);
}

#[test]
fn shifts_mask_the_count() {
    let sh = |op, bits, a, b| sc(op, bits, &[(bits, a), (32, b)]);
    assert_eq!(sh(AluOp::Ishl, 32, 1, 31), 0x8000_0000);
    assert_eq!(sh(AluOp::Ishl, 32, 1, 32), 1); // 32 & 31 = 0
    assert_eq!(sh(AluOp::Ishl, 32, 1, 33), 2);
    assert_eq!(sh(AluOp::Ishl, 32, 1, 0xffff_ffff), 0x8000_0000);
    assert_eq!(sh(AluOp::Ishl, 8, 1, 9), 2); // 9 & 7 = 1
    assert_eq!(sh(AluOp::Ishl, 16, 0x8001, 1), 2);
    assert_eq!(sh(AluOp::Ishl, 64, 1, 63), 1 << 63);
    assert_eq!(sh(AluOp::Ishl, 64, 1, 64), 1);
    // A 1-bit value lives in a byte in NIR's folder: the count is masked with 7.
    assert_eq!(sh(AluOp::Ishl, 1, 1, 0), 1);
    assert_eq!(sh(AluOp::Ishl, 1, 1, 1), 0);
    assert_eq!(sh(AluOp::Ishl, 1, 1, 8), 1);

    assert_eq!(sh(AluOp::Ishr, 32, 0x8000_0000, 31), 0xffff_ffff);
    assert_eq!(sh(AluOp::Ishr, 32, 0x8000_0000, 32), 0x8000_0000);
    assert_eq!(sh(AluOp::Ishr, 32, 0x4000_0000, 30), 1);
    assert_eq!(sh(AluOp::Ishr, 8, 0x80, 7), 0xff);
    assert_eq!(sh(AluOp::Ishr, 8, 0x80, 9), 0xc0);
    assert_eq!(sh(AluOp::Ishr, 64, 1 << 63, 62), 0xffff_ffff_ffff_fffe);
    assert_eq!(sh(AluOp::Ishr, 1, 1, 1), 1);

    assert_eq!(sh(AluOp::Ushr, 32, 0x8000_0000, 31), 1);
    assert_eq!(sh(AluOp::Ushr, 32, 0x8000_0000, 32), 0x8000_0000);
    assert_eq!(sh(AluOp::Ushr, 8, 0x80, 9), 0x40);
    assert_eq!(sh(AluOp::Ushr, 64, 1 << 63, 63), 1);
    assert_eq!(sh(AluOp::Ushr, 16, 0xffff, 20), 0x0fff); // 20 & 15 = 4
    assert_eq!(sh(AluOp::Ushr, 1, 1, 1), 0);
    assert_eq!(sh(AluOp::Ushr, 1, 1, 8), 1);
    assert_eq!(
        ev(AluOp::Ishl, ty(32, 2), &[(32, &[1, 3]), (32, &[4, 36])]),
        [16, 48]
    );
}

#[test]
fn ubfe_follows_sm5() {
    let x = 0xdead_beef;
    assert_eq!(u32op(AluOp::Ubfe, &[x, 4, 8]), 0xee);
    assert_eq!(u32op(AluOp::Ubfe, &[x, 0, 0]), 0);
    // bits = 32 is taken & 31 = 0: the result is 0, not x.
    assert_eq!(u32op(AluOp::Ubfe, &[x, 0, 32]), 0);
    assert_eq!(u32op(AluOp::Ubfe, &[x, 0, 31]), 0x5ead_beef);
    // offset + bits >= 32: the bits from offset up.
    assert_eq!(u32op(AluOp::Ubfe, &[x, 28, 8]), 0xd);
    assert_eq!(u32op(AluOp::Ubfe, &[x, 16, 16]), 0xdead);
    // offset is taken & 31.
    assert_eq!(u32op(AluOp::Ubfe, &[x, 36, 4]), 0xe);
    assert_eq!(u32op(AluOp::Ubfe, &[x, 0, 33]), 1);
}

#[test]
fn ibfe_sign_extends() {
    let x = 0xdead_beef;
    assert_eq!(u32op(AluOp::Ibfe, &[x, 4, 8]), 0xffff_ffee);
    assert_eq!(u32op(AluOp::Ibfe, &[0x70, 4, 4]), 7);
    assert_eq!(u32op(AluOp::Ibfe, &[0x80, 4, 4]), 0xffff_fff8);
    assert_eq!(u32op(AluOp::Ibfe, &[0x8000_0000, 31, 1]), 0xffff_ffff);
    assert_eq!(u32op(AluOp::Ibfe, &[x, 16, 16]), 0xffff_dead);
    assert_eq!(u32op(AluOp::Ibfe, &[x, 28, 8]), 0xffff_fffd);
    assert_eq!(u32op(AluOp::Ibfe, &[x, 5, 0]), 0);
    assert_eq!(u32op(AluOp::Ibfe, &[x, 0, 32]), 0);
}

#[test]
fn bfi_shifts_insert_to_mask() {
    assert_eq!(
        u32op(AluOp::Bfi, &[0x0000_ff00, 0xab, 0x1234_5678]),
        0x1234_ab78
    );
    assert_eq!(u32op(AluOp::Bfi, &[0, 0xffff, 0x1234_5678]), 0x1234_5678);
    assert_eq!(u32op(AluOp::Bfi, &[0xf0f0, 0xffff, 0]), 0xf0f0);
    assert_eq!(u32op(AluOp::Bfi, &[0x8000_0000, 1, 0]), 0x8000_0000);
    assert_eq!(u32op(AluOp::Bfi, &[0xffff_ffff, 0x1234, 0xffff]), 0x1234);
}

#[test]
fn bitfield_insert_special_cases() {
    let neg = |v: i32| v as u32 as u64;
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xab, 8, 8]),
        0x1234_ab78
    );
    // 0 bits returns base, whatever the offset.
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xff, 40, 0]),
        0x1234_5678
    );
    // Out of range gives 0.
    assert_eq!(u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xff, 28, 8]), 0);
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xff, neg(-1), 4]),
        0
    );
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xff, 0, neg(-4)]),
        0
    );
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0x1234_5678, 0xcafe, 0, 32]),
        0xcafe
    );
    assert_eq!(
        u32op(AluOp::BitfieldInsert, &[0xffff_ffff, 0, 31, 1]),
        0x7fff_ffff
    );
    // The insert is masked to the field.
    assert_eq!(u32op(AluOp::BitfieldInsert, &[0, 0xfff, 4, 4]), 0xf0);
}

#[test]
fn ufind_msb_and_bit_count() {
    let msb = |bits, v| sc(AluOp::UfindMsb, 32, &[(bits, v)]);
    assert_eq!(msb(32, 0), 0xffff_ffff); // -1
    assert_eq!(msb(32, 1), 0);
    assert_eq!(msb(32, 0x8000_0000), 31);
    assert_eq!(msb(8, 0x80), 7);
    assert_eq!(msb(64, 1 << 40), 40);
    assert_eq!(msb(64, 0), 0xffff_ffff);
    assert_eq!(msb(1, 1), 0);
    let cnt = |bits, v| sc(AluOp::BitCount, 32, &[(bits, v)]);
    assert_eq!(cnt(32, 0xffff_ffff), 32);
    assert_eq!(cnt(32, 0), 0);
    assert_eq!(cnt(8, 0xf0), 4);
    assert_eq!(cnt(64, u64::MAX), 64);
    assert_eq!(cnt(16, 0xa5a5), 8);
    assert_eq!(cnt(1, 1), 1);
}

#[test]
fn extract_bytes_and_words() {
    let x = 0xdead_beef;
    assert_eq!(u32op(AluOp::ExtractU8, &[x, 0]), 0xef);
    assert_eq!(u32op(AluOp::ExtractU8, &[x, 3]), 0xde);
    assert_eq!(u32op(AluOp::ExtractU8, &[x, 4]), 0);
    assert_eq!(u32op(AluOp::ExtractI8, &[x, 0]), 0xffff_ffef);
    assert_eq!(u32op(AluOp::ExtractI8, &[x, 1]), 0xffff_ffbe);
    assert_eq!(u32op(AluOp::ExtractI8, &[x, 2]), 0xffff_ffad);
    assert_eq!(u32op(AluOp::ExtractI8, &[0x7f, 0]), 0x7f);
    // Past the value: copies of the sign bit (C promotion for 8/16-bit, extended).
    assert_eq!(u32op(AluOp::ExtractI8, &[x, 4]), 0xffff_ffff);
    assert_eq!(u(AluOp::ExtractI8, 8, &[0x80, 1]), 0xff);
    assert_eq!(u(AluOp::ExtractU8, 8, &[0x80, 1]), 0);
    assert_eq!(u(AluOp::ExtractI8, 16, &[0x8000, 1]), 0xff80);
    assert_eq!(u32op(AluOp::ExtractU16, &[x, 1]), 0xdead);
    assert_eq!(u32op(AluOp::ExtractU16, &[x, 0]), 0xbeef);
    assert_eq!(u32op(AluOp::ExtractI16, &[x, 1]), 0xffff_dead);
    assert_eq!(u32op(AluOp::ExtractI16, &[0x7fff_0000, 1]), 0x7fff);
    assert_eq!(
        u(AluOp::ExtractU16, 64, &[0x1122_3344_5566_7788, 3]),
        0x1122
    );
    assert_eq!(
        u(AluOp::ExtractI16, 64, &[0x8122_3344_5566_7788, 3]),
        0xffff_ffff_ffff_8122
    );
    assert_eq!(
        ev(
            AluOp::ExtractU8,
            ty(32, 4),
            &[(32, &[x, x, x, x]), (32, &[0, 1, 2, 3])]
        ),
        [0xef, 0xbe, 0xad, 0xde]
    );
}

// ----- comparisons and booleans -----------------------------------------------------

#[test]
fn integer_comparisons() {
    assert_eq!(cmp(AluOp::Ieq, 32, 5, 5), 1);
    assert_eq!(cmp(AluOp::Ine, 32, 5, 5), 0);
    assert_eq!(cmp(AluOp::Ine, 32, 5, 6), 1);
    assert_eq!(cmp(AluOp::Ilt, 32, 0xffff_ffff, 0), 1); // -1 < 0
    assert_eq!(cmp(AluOp::Ult, 32, 0xffff_ffff, 0), 0);
    assert_eq!(cmp(AluOp::Ige, 32, 0, 0xffff_ffff), 1);
    assert_eq!(cmp(AluOp::Uge, 32, 0, 0xffff_ffff), 0);
    assert_eq!(cmp(AluOp::Ige, 32, 3, 3), 1);
    assert_eq!(cmp(AluOp::Ilt, 8, 0x80, 0x7f), 1);
    assert_eq!(cmp(AluOp::Ult, 8, 0x80, 0x7f), 0);
    assert_eq!(cmp(AluOp::Ilt, 64, 1 << 63, 0), 1);
    assert_eq!(cmp(AluOp::Uge, 64, 1 << 63, 0), 1);
    assert_eq!(cmp(AluOp::Ieq, 16, 0xffff, 0xffff), 1);
    // 1-bit: signed true is -1.
    assert_eq!(cmp(AluOp::Ilt, 1, 1, 0), 1);
    assert_eq!(cmp(AluOp::Ult, 1, 1, 0), 0);
    assert_eq!(cmp(AluOp::Ige, 1, 0, 1), 1);
    assert_eq!(cmp(AluOp::Ieq, 1, 1, 1), 1);
    assert_eq!(
        ev(
            AluOp::Ieq,
            ty(1, 4),
            &[(32, &[1, 2, 3, 4]), (32, &[1, 0, 3, 0])]
        ),
        [1, 0, 1, 0]
    );
}

#[test]
fn float_comparisons() {
    assert_eq!(cmp(AluOp::Feq, 32, 0, F32_NEG_ZERO), 1); // +0 == -0
    assert_eq!(cmp(AluOp::Feq, 32, F32_NAN, F32_NAN), 0);
    assert_eq!(cmp(AluOp::Fneu, 32, F32_NAN, F32_NAN), 1);
    assert_eq!(cmp(AluOp::Fneu, 32, f(1.0), f(1.0)), 0);
    assert_eq!(cmp(AluOp::Flt, 32, F32_NAN, f(1.0)), 0);
    assert_eq!(cmp(AluOp::Fge, 32, F32_NAN, f(1.0)), 0);
    assert_eq!(cmp(AluOp::Fge, 32, f(1.0), F32_NAN), 0);
    assert_eq!(cmp(AluOp::Flt, 32, F32_NEG_INF, F32_INF), 1);
    assert_eq!(cmp(AluOp::Fge, 32, f(1.0), f(1.0)), 1);
    assert_eq!(cmp(AluOp::Flt, 32, F32_NEG_ZERO, 0), 0);
    assert_eq!(cmp(AluOp::Flt, 32, 1, 2), 1); // denormals compare
    assert_eq!(cmp(AluOp::Feq, 16, 0x3c00, 0x3c00), 1);
    assert_eq!(cmp(AluOp::Flt, 16, 0xbc00, 0x3c00), 1); // -1 < 1
    assert_eq!(cmp(AluOp::Fneu, 16, 0x7e00, 0x7e00), 1);
    assert_eq!(cmp(AluOp::Flt, 64, d(1.0), d(2.0)), 1);
    assert_eq!(cmp(AluOp::Fge, 64, d(-1.0), d(2.0)), 0);
    assert_eq!(
        ev(
            AluOp::Flt,
            ty(1, 2),
            &[(32, &[f(1.0), f(3.0)]), (32, &[f(2.0), f(2.0)])]
        ),
        [1, 0]
    );
}

#[test]
fn bcsel_selects_per_component() {
    assert_eq!(
        ev(
            AluOp::Bcsel,
            ty(32, 3),
            &[(1, &[1, 0, 1]), (32, &[1, 2, 3]), (32, &[4, 5, 6])]
        ),
        [1, 5, 3]
    );
    assert_eq!(
        sc(AluOp::Bcsel, 64, &[(1, 0), (64, 1), (64, u64::MAX)]),
        u64::MAX
    );
    assert_eq!(sc(AluOp::Bcsel, 1, &[(1, 1), (1, 0), (1, 1)]), 0);
}

#[test]
fn bool_conversions() {
    assert_eq!(sc(AluOp::B2i32, 32, &[(1, 1)]), 1);
    assert_eq!(sc(AluOp::B2i32, 32, &[(1, 0)]), 0);
    assert_eq!(sc(AluOp::B2f32, 32, &[(1, 1)]), 0x3f80_0000);
    assert_eq!(sc(AluOp::B2f32, 32, &[(1, 0)]), 0);
}

// ----- float arithmetic -------------------------------------------------------------

#[test]
fn fadd_rounds_to_nearest_even() {
    assert_eq!(u32op(AluOp::Fadd, &[f(1.0), f(2.0)]), f(3.0));
    // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: ties to even (1.0).
    assert_eq!(u32op(AluOp::Fadd, &[f(1.0), 0x3380_0000]), 0x3f80_0000);
    // 1 + 1.5 * 2^-24 is past the halfway point.
    assert_eq!(u32op(AluOp::Fadd, &[f(1.0), 0x33c0_0000]), 0x3f80_0001);
    // (1 + 2^-23) + 2^-24: halfway between odd ...01 and even ...02.
    assert_eq!(u32op(AluOp::Fadd, &[0x3f80_0001, 0x3380_0000]), 0x3f80_0002);
    assert_eq!(u32op(AluOp::Fadd, &[0, F32_NEG_ZERO]), 0);
    assert_eq!(
        u32op(AluOp::Fadd, &[F32_NEG_ZERO, F32_NEG_ZERO]),
        F32_NEG_ZERO
    );
    assert_eq!(u32op(AluOp::Fadd, &[f(1.0), f(-1.0)]), 0);
    assert_eq!(u32op(AluOp::Fadd, &[0x7f7f_ffff, 0x7f7f_ffff]), F32_INF);
    assert_eq!(u32op(AluOp::Fadd, &[1, 1]), 2); // denormals are kept
                                                // inf - inf is invalid: the default NaN.
    assert_eq!(u32op(AluOp::Fadd, &[F32_INF, F32_NEG_INF]), F32_DEFAULT_NAN);
    // NaN operands propagate, quieted, first operand first.
    assert_eq!(u32op(AluOp::Fadd, &[0x7fc0_0001, f(1.0)]), 0x7fc0_0001);
    assert_eq!(u32op(AluOp::Fadd, &[0x7f80_0001, f(1.0)]), 0x7fc0_0001);
    assert_eq!(u32op(AluOp::Fadd, &[f(1.0), 0xffc0_0005]), 0xffc0_0005);
    assert_eq!(u32op(AluOp::Fadd, &[0x7f80_0002, 0x7fc0_0003]), 0x7fc0_0002);
    // binary16: 1 + 2^-11 ties to 1.0; (1 + 2^-10) + 2^-11 ties up to 1 + 2^-9.
    assert_eq!(u(AluOp::Fadd, 16, &[0x3c00, 0x1000]), 0x3c00);
    assert_eq!(u(AluOp::Fadd, 16, &[0x3c01, 0x1000]), 0x3c02);
    // 65504 + 16 = 65520, halfway to 65536: rounds to even, which overflows to inf.
    assert_eq!(u(AluOp::Fadd, 16, &[0x7bff, 0x4c00]), 0x7c00);
    assert_eq!(u(AluOp::Fadd, 16, &[0x0001, 0x0001]), 0x0002);
    assert_eq!(u(AluOp::Fadd, 16, &[0x7c00, 0xfc00]), 0xfe00);
    assert_eq!(u(AluOp::Fadd, 16, &[0x7d00, 0x3c00]), 0x7f00); // sNaN quieted
                                                               // binary64: 1 + 2^-53 ties to 1.0.
    assert_eq!(u(AluOp::Fadd, 64, &[d(1.0), d(2f64.powi(-53))]), d(1.0));
    assert_eq!(
        u(AluOp::Fadd, 64, &[d(0.5), d(0.25)]),
        0x3fe8_0000_0000_0000
    );
    assert_eq!(
        u(AluOp::Fadd, 64, &[d(f64::INFINITY), d(f64::NEG_INFINITY)]),
        0xfff8_0000_0000_0000
    );
    assert_eq!(
        ev(
            AluOp::Fadd,
            ty(16, 2),
            &[(16, &[0x3c00, 0x4000]), (16, &[0x3c00, 0xc000])]
        ),
        [0x4000, 0] // 1+1 = 2, 2-2 = +0
    );
}

#[test]
fn fsub_signs_and_nans() {
    assert_eq!(u32op(AluOp::Fsub, &[f(1.0), f(1.0)]), 0);
    assert_eq!(u32op(AluOp::Fsub, &[F32_NEG_ZERO, 0]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Fsub, &[0, 0]), 0);
    assert_eq!(u32op(AluOp::Fsub, &[f(3.0), f(0.5)]), f(2.5));
    assert_eq!(u32op(AluOp::Fsub, &[F32_INF, F32_INF]), F32_DEFAULT_NAN);
    // `a + (-b)`: a NaN subtrahend comes out negated (and quieted), as an `add` with a
    // negated source gives it; a NaN minuend unchanged.
    assert_eq!(u32op(AluOp::Fsub, &[f(1.0), 0x7f80_0001]), 0xffc0_0001);
    assert_eq!(u32op(AluOp::Fsub, &[0x7f80_0001, f(1.0)]), 0x7fc0_0001);
    assert_eq!(u(AluOp::Fsub, 16, &[0x4200, 0x3c00]), 0x4000); // 3 - 1
    assert_eq!(u(AluOp::Fsub, 64, &[d(1.0), d(0.25)]), d(0.75));
}

#[test]
fn fmul_rounds_and_handles_specials() {
    assert_eq!(u32op(AluOp::Fmul, &[f(3.0), f(0.5)]), f(1.5));
    assert_eq!(u32op(AluOp::Fmul, &[F32_NEG_ZERO, f(5.0)]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Fmul, &[0, F32_INF]), F32_DEFAULT_NAN);
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounds to 1 + 2^-22.
    assert_eq!(u32op(AluOp::Fmul, &[0x3f80_0001, 0x3f80_0001]), 0x3f80_0002);
    // 2^-126 * 0.5 = 2^-127, a denormal.
    assert_eq!(u32op(AluOp::Fmul, &[0x0080_0000, f(0.5)]), 0x0040_0000);
    // binary16: (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9.
    assert_eq!(u(AluOp::Fmul, 16, &[0x3c01, 0x3c01]), 0x3c02);
    assert_eq!(u(AluOp::Fmul, 16, &[0x7bff, 0x4000]), 0x7c00);
    assert_eq!(u(AluOp::Fmul, 64, &[d(3.0), d(-0.5)]), d(-1.5));
}

#[test]
fn fdiv_and_frcp() {
    // 1/3 to nearest: 0x3eaaaaab (binary32), 0x3555 (binary16), 0x3fd5555555555555.
    assert_eq!(u32op(AluOp::Fdiv, &[f(1.0), f(3.0)]), 0x3eaa_aaab);
    assert_eq!(u(AluOp::Fdiv, 16, &[0x3c00, 0x4200]), 0x3555);
    assert_eq!(u(AluOp::Fdiv, 64, &[d(1.0), d(3.0)]), 0x3fd5_5555_5555_5555);
    assert_eq!(u32op(AluOp::Fdiv, &[f(6.0), f(3.0)]), f(2.0));
    assert_eq!(u32op(AluOp::Fdiv, &[f(1.0), 0]), F32_INF);
    assert_eq!(u32op(AluOp::Fdiv, &[f(-1.0), 0]), F32_NEG_INF);
    assert_eq!(u32op(AluOp::Fdiv, &[f(1.0), F32_NEG_ZERO]), F32_NEG_INF);
    assert_eq!(u32op(AluOp::Fdiv, &[0, 0]), F32_DEFAULT_NAN);
    assert_eq!(u32op(AluOp::Fdiv, &[F32_INF, F32_INF]), F32_DEFAULT_NAN);

    assert_eq!(u32op(AluOp::Frcp, &[f(2.0)]), f(0.5));
    assert_eq!(u32op(AluOp::Frcp, &[f(3.0)]), 0x3eaa_aaab);
    assert_eq!(u32op(AluOp::Frcp, &[0]), F32_INF);
    assert_eq!(u32op(AluOp::Frcp, &[F32_NEG_ZERO]), F32_NEG_INF);
    assert_eq!(u32op(AluOp::Frcp, &[F32_INF]), 0);
    assert_eq!(u32op(AluOp::Frcp, &[F32_NEG_INF]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Frcp, &[0x7f80_0001]), 0x7fc0_0001);
    assert_eq!(u(AluOp::Frcp, 16, &[0x4000]), 0x3800);
    assert_eq!(u(AluOp::Frcp, 16, &[0]), 0x7c00);
    assert_eq!(u(AluOp::Frcp, 64, &[d(4.0)]), d(0.25));
}

#[test]
fn ffma_rounds_once() {
    assert_eq!(u32op(AluOp::Ffma, &[f(2.0), f(3.0), f(1.0)]), f(7.0));
    // x = 1 + 2^-12: x*x = 1 + 2^-11 + 2^-24, which rounds (a tie, to even) to
    // 1 + 2^-11 = 0x3f801000. The fused result keeps the 2^-24 = 0x33800000.
    assert_eq!(
        u32op(AluOp::Ffma, &[0x3f80_0800, 0x3f80_0800, 0xbf80_1000]),
        0x3380_0000
    );
    assert_eq!(u32op(AluOp::Ffma, &[0, F32_INF, f(1.0)]), F32_DEFAULT_NAN);
    assert_eq!(
        u32op(AluOp::Ffma, &[F32_INF, f(1.0), F32_NEG_INF]),
        F32_DEFAULT_NAN
    );
    assert_eq!(
        u32op(AluOp::Ffma, &[f(1.0), f(2.0), 0x7fc0_0009]),
        0x7fc0_0009
    );
    assert_eq!(
        u32op(AluOp::Ffma, &[0x7fc0_0001, 0, 0x7fc0_0002]),
        0x7fc0_0001
    );
    assert_eq!(
        u32op(AluOp::Ffma, &[F32_NEG_ZERO, f(1.0), F32_NEG_ZERO]),
        F32_NEG_ZERO
    );
    assert_eq!(u32op(AluOp::Ffma, &[F32_NEG_ZERO, f(1.0), 0]), 0);
    assert_eq!(u32op(AluOp::Ffma, &[f(1.0), f(1.0), f(-1.0)]), 0);
    // binary16, x = 1 + 2^-6: x*x = 1 + 2^-5 + 2^-12 rounds to 1 + 2^-5 = 0x3c20; the
    // fused residue is 2^-12 = 0x0c00.
    assert_eq!(u(AluOp::Ffma, 16, &[0x3c10, 0x3c10, 0xbc20]), 0x0c00);
    // 2^-14 * 2^-10 = 2^-24, the smallest denormal.
    assert_eq!(u(AluOp::Ffma, 16, &[0x0400, 0x1400, 0]), 0x0001);
    // 2^-24 * 0.5 = 2^-25 ties to even (0); * 0.75 is past halfway (2^-24).
    assert_eq!(u(AluOp::Ffma, 16, &[0x0001, 0x3800, 0]), 0);
    assert_eq!(u(AluOp::Ffma, 16, &[0x0001, 0x3a00, 0]), 0x0001);
    assert_eq!(u(AluOp::Ffma, 16, &[0x7bff, 0x4000, 0]), 0x7c00);
    assert_eq!(u(AluOp::Ffma, 16, &[0, 0x7c00, 0x3c00]), 0xfe00);
    assert_eq!(u(AluOp::Ffma, 16, &[0x8000, 0x3c00, 0x8000]), 0x8000);
    assert_eq!(u(AluOp::Ffma, 16, &[0x3c00, 0x3c00, 0xfc00]), 0xfc00);
    assert_eq!(u(AluOp::Ffma, 64, &[d(2.0), d(3.0), d(1.0)]), d(7.0));
}

#[test]
fn fmin_fmax_signed_zero_and_nan() {
    assert_eq!(u32op(AluOp::Fmin, &[f(1.0), f(2.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fmax, &[f(1.0), f(2.0)]), f(2.0));
    // fmin(-0, +0) = -0 and fmax(-0, +0) = +0 in either order.
    assert_eq!(u32op(AluOp::Fmin, &[F32_NEG_ZERO, 0]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Fmin, &[0, F32_NEG_ZERO]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Fmax, &[F32_NEG_ZERO, 0]), 0);
    assert_eq!(u32op(AluOp::Fmax, &[0, F32_NEG_ZERO]), 0);
    // A NaN operand is ignored.
    assert_eq!(u32op(AluOp::Fmin, &[F32_NAN, f(1.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fmin, &[f(1.0), F32_NAN]), f(1.0));
    assert_eq!(u32op(AluOp::Fmax, &[F32_NAN, F32_NEG_INF]), F32_NEG_INF);
    assert_eq!(u32op(AluOp::Fmin, &[0x7f80_0001, f(2.0)]), f(2.0));
    assert_eq!(u32op(AluOp::Fmin, &[0x7f80_0001, 0x7fc0_0002]), 0x7fc0_0001);
    assert_eq!(u32op(AluOp::Fmax, &[f(-3.0), f(-2.0)]), f(-2.0));
    assert_eq!(u(AluOp::Fmin, 16, &[0x8000, 0x0000]), 0x8000);
    assert_eq!(u(AluOp::Fmax, 16, &[0xbc00, 0x3c00]), 0x3c00);
    assert_eq!(u(AluOp::Fmax, 16, &[0x7e00, 0xbc00]), 0xbc00);
    assert_eq!(
        u(AluOp::Fmin, 64, &[d(-1.0), d(1.0)]),
        0xbff0_0000_0000_0000
    );
    assert_eq!(u(AluOp::Fmax, 64, &[d(-0.0), d(0.0)]), 0);
}

#[test]
fn fneg_fabs_touch_only_the_sign() {
    assert_eq!(u32op(AluOp::Fneg, &[f(1.0)]), 0xbf80_0000);
    assert_eq!(u32op(AluOp::Fneg, &[0]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Fneg, &[F32_NAN]), 0xffc0_0000);
    assert_eq!(u32op(AluOp::Fneg, &[0x7f80_0001]), 0xff80_0001);
    assert_eq!(u(AluOp::Fneg, 16, &[0x3c00]), 0xbc00);
    assert_eq!(u(AluOp::Fneg, 64, &[d(2.0)]), d(-2.0));
    assert_eq!(u32op(AluOp::Fabs, &[f(-1.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fabs, &[F32_NEG_ZERO]), 0);
    assert_eq!(u32op(AluOp::Fabs, &[0xffc0_0001]), 0x7fc0_0001);
    assert_eq!(u(AluOp::Fabs, 16, &[0xfc00]), 0x7c00);
    assert_eq!(u(AluOp::Fabs, 64, &[d(-0.5)]), d(0.5));
}

#[test]
fn fsat_clamps_nan_to_zero() {
    assert_eq!(u32op(AluOp::Fsat, &[f(2.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fsat, &[f(-1.0)]), 0);
    assert_eq!(u32op(AluOp::Fsat, &[f(0.5)]), f(0.5));
    assert_eq!(u32op(AluOp::Fsat, &[f(1.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fsat, &[F32_NAN]), 0);
    assert_eq!(u32op(AluOp::Fsat, &[0xffc0_0000]), 0);
    assert_eq!(u32op(AluOp::Fsat, &[F32_NEG_ZERO]), 0);
    assert_eq!(u32op(AluOp::Fsat, &[F32_INF]), f(1.0));
    assert_eq!(u32op(AluOp::Fsat, &[F32_NEG_INF]), 0);
    assert_eq!(u32op(AluOp::Fsat, &[1]), 1);
    assert_eq!(u(AluOp::Fsat, 16, &[0x4000]), 0x3c00);
    assert_eq!(u(AluOp::Fsat, 16, &[0x3800]), 0x3800);
    assert_eq!(u(AluOp::Fsat, 64, &[0x7ff8_0000_0000_0000]), 0);
    assert_eq!(u(AluOp::Fsat, 64, &[d(7.0)]), d(1.0));
}

#[test]
fn rounding_ops() {
    let r = |op, x: f32| u32op(op, &[f(x)]);
    assert_eq!(r(AluOp::Ffloor, 1.5), f(1.0));
    assert_eq!(r(AluOp::Ffloor, -1.5), f(-2.0));
    assert_eq!(r(AluOp::Ffloor, -0.5), f(-1.0));
    assert_eq!(r(AluOp::Ffloor, 0.5), 0);
    assert_eq!(u32op(AluOp::Ffloor, &[F32_NEG_ZERO]), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Ffloor, &[0x7f80_0001]), 0x7fc0_0001);
    assert_eq!(r(AluOp::Fceil, 1.5), f(2.0));
    assert_eq!(r(AluOp::Fceil, -1.5), f(-1.0));
    assert_eq!(r(AluOp::Fceil, -0.5), F32_NEG_ZERO);
    assert_eq!(r(AluOp::Fceil, 0.25), f(1.0));
    assert_eq!(r(AluOp::FroundEven, 0.5), 0);
    assert_eq!(r(AluOp::FroundEven, 1.5), f(2.0));
    assert_eq!(r(AluOp::FroundEven, 2.5), f(2.0));
    assert_eq!(r(AluOp::FroundEven, 3.5), f(4.0));
    assert_eq!(r(AluOp::FroundEven, -0.5), F32_NEG_ZERO);
    assert_eq!(r(AluOp::FroundEven, -1.5), f(-2.0));
    assert_eq!(u32op(AluOp::FroundEven, &[0x3eff_ffff]), 0); // 0.49999997
    assert_eq!(r(AluOp::FroundEven, 511.5), f(512.0));
    assert_eq!(r(AluOp::Ftrunc, 1.75), f(1.0));
    assert_eq!(r(AluOp::Ftrunc, -1.75), f(-1.0));
    assert_eq!(r(AluOp::Ftrunc, -0.5), F32_NEG_ZERO);
    assert_eq!(u32op(AluOp::Ftrunc, &[F32_INF]), F32_INF);
    // binary16 and binary64.
    assert_eq!(u(AluOp::Ffloor, 16, &[0xbe00]), 0xc000); // -1.5 -> -2
    assert_eq!(u(AluOp::Fceil, 16, &[0x3e00]), 0x4000); // 1.5 -> 2
    assert_eq!(u(AluOp::FroundEven, 16, &[0x4100]), 0x4000); // 2.5 -> 2
    assert_eq!(u(AluOp::Ftrunc, 16, &[0xbe00]), 0xbc00); // -1.5 -> -1
    assert_eq!(u(AluOp::FroundEven, 64, &[d(2.5)]), d(2.0));
    assert_eq!(u(AluOp::Ffloor, 64, &[d(-0.25)]), d(-1.0));
    assert_eq!(u(AluOp::Fceil, 64, &[d(-0.25)]), 0x8000_0000_0000_0000);
    assert_eq!(u(AluOp::Ftrunc, 64, &[d(1e300)]), d(1e300));
}

// ----- conversions ------------------------------------------------------------------

#[test]
fn f2i32_and_f2u32_saturate() {
    let f2i = |bits, v| sc(AluOp::F2i32, 32, &[(bits, v)]);
    let f2u = |bits, v| sc(AluOp::F2u32, 32, &[(bits, v)]);
    assert_eq!(f2i(32, f(1.9)), 1);
    assert_eq!(f2i(32, f(-1.9)), 0xffff_ffff);
    assert_eq!(f2i(32, f(-0.5)), 0);
    assert_eq!(f2i(32, 0x4f00_0000), 0x7fff_ffff); // 2^31 saturates
    assert_eq!(f2i(32, 0xcf00_0000), 0x8000_0000); // -2^31 fits
    assert_eq!(f2i(32, F32_NAN), 0);
    assert_eq!(f2i(32, F32_INF), 0x7fff_ffff);
    assert_eq!(f2i(32, F32_NEG_INF), 0x8000_0000);
    assert_eq!(f2i(16, 0xc500), 0xffff_fffb); // -5.0
    assert_eq!(f2i(64, d(3e9)), 0x7fff_ffff);
    assert_eq!(f2i(64, d(-2147483648.9)), 0x8000_0000);
    assert_eq!(f2u(32, f(1.9)), 1);
    assert_eq!(f2u(32, f(-1.0)), 0);
    assert_eq!(f2u(32, f(-0.5)), 0);
    assert_eq!(f2u(32, F32_NAN), 0);
    assert_eq!(f2u(32, 0xffc0_0000), 0);
    assert_eq!(f2u(32, F32_INF), 0xffff_ffff);
    assert_eq!(f2u(32, F32_NEG_INF), 0);
    assert_eq!(f2u(32, 0x4f80_0000), 0xffff_ffff); // 2^32
    assert_eq!(f2u(32, 0x4f7f_ffff), 0xffff_ff00); // 2^32 - 256
    assert_eq!(f2u(32, 0x4f32_d05e), 0xb2d0_5e00); // 3e9 exactly
    assert_eq!(f2u(16, 0x7bff), 0xffe0); // 65504
    assert_eq!(f2u(64, d(-1e10)), 0);
    assert_eq!(
        ev(
            AluOp::F2u32,
            ty(32, 4),
            &[(32, &[f(0.0), f(255.0), f(255.5), f(-3.0)])]
        ),
        [0, 255, 255, 0]
    );
}

#[test]
fn int_to_float_rounds_to_nearest_even() {
    let i2f = |bits, v| sc(AluOp::I2f32, 32, &[(bits, v)]);
    let u2f = |bits, v| sc(AluOp::U2f32, 32, &[(bits, v)]);
    assert_eq!(i2f(32, 0xffff_ffff), f(-1.0));
    // 2^31 - 1 rounds to 2^31.
    assert_eq!(i2f(32, 0x7fff_ffff), 0x4f00_0000);
    // 2^24 + 1 ties to 2^24; 2^24 + 3 ties to 2^24 + 4.
    assert_eq!(i2f(32, 16_777_217), 0x4b80_0000);
    assert_eq!(i2f(32, 16_777_219), 0x4b80_0002);
    assert_eq!(i2f(8, 0x80), f(-128.0));
    assert_eq!(i2f(1, 1), f(-1.0)); // a signed 1-bit true is -1
    assert_eq!(i2f(64, 1 << 63), 0xdf00_0000); // -2^63
    assert_eq!(i2f(16, 0x7fff), f(32767.0));
    assert_eq!(u2f(32, 0xffff_ffff), 0x4f80_0000); // 2^32
    assert_eq!(u2f(1, 1), f(1.0));
    assert_eq!(u2f(8, 0x80), f(128.0));
    assert_eq!(u2f(64, u64::MAX), 0x5f80_0000); // 2^64
    assert_eq!(u2f(32, 0), 0);
}

#[test]
fn float_to_float_conversions() {
    let to16 = |bits, v| sc(AluOp::F2f16, 16, &[(bits, v)]);
    let to32 = |bits, v| sc(AluOp::F2f32, 32, &[(bits, v)]);
    assert_eq!(to16(32, f(1.0)), 0x3c00);
    assert_eq!(to16(32, f(65504.0)), 0x7bff);
    assert_eq!(to16(32, f(65520.0)), 0x7c00);
    assert_eq!(to16(32, 0x3f80_1000), 0x3c00); // 1 + 2^-11 ties to even
    assert_eq!(to16(32, 0x3f80_3000), 0x3c02); // 1 + 3*2^-11 ties to even
    assert_eq!(to16(32, 0x3380_0000), 0x0001); // 2^-24
    assert_eq!(to16(32, 0x3300_0000), 0); // 2^-25 ties to 0
    assert_eq!(to16(32, 0x3340_0000), 0x0001); // 1.5 * 2^-25
    assert_eq!(to16(32, F32_NEG_ZERO), 0x8000);
    assert_eq!(to16(32, F32_INF), 0x7c00);
    assert_eq!(to16(32, F32_NAN), 0x7e00);
    assert_eq!(to16(32, 0xffc0_0000), 0xfe00);
    assert_eq!(to16(32, 0x7f80_2000), 0x7e01); // sNaN: payload kept, quieted
                                               // From binary64 the rounding happens once: 1 + 2^-11 + 2^-40 is above the tie.
    assert_eq!(to16(64, d(1.0 + 2f64.powi(-11) + 2f64.powi(-40))), 0x3c01);
    assert_eq!(to16(64, d(-2.0)), 0xc000);
    assert_eq!(to16(16, 0x3555), 0x3555);
    assert_eq!(to16(16, 0x7c01), 0x7e01);

    assert_eq!(to32(16, 0x3c00), f(1.0));
    assert_eq!(to32(16, 0x0001), 0x3380_0000); // 2^-24
    assert_eq!(to32(16, 0x7c00), F32_INF);
    assert_eq!(to32(16, 0x7c01), 0x7fc0_2000);
    assert_eq!(to32(64, d(1.0 / 3.0)), 0x3eaa_aaab);
    assert_eq!(to32(64, d(1e300)), F32_INF);
    assert_eq!(to32(64, 0x7ff0_0000_0000_0001), F32_NAN);
    assert_eq!(to32(32, 0x7f80_0001), 0x7f80_0001); // identity
}

#[test]
fn integer_size_conversions() {
    let cv = |op, dst, bits, v| sc(op, dst, &[(bits, v)]);
    assert_eq!(cv(AluOp::U2u8, 8, 32, 0x1234), 0x34);
    assert_eq!(cv(AluOp::U2u16, 16, 32, 0xffff_ffff), 0xffff);
    assert_eq!(cv(AluOp::U2u32, 32, 8, 0x80), 0x80);
    assert_eq!(cv(AluOp::U2u32, 32, 1, 1), 1);
    assert_eq!(cv(AluOp::U2u64, 64, 32, 0xffff_ffff), 0xffff_ffff);
    assert_eq!(cv(AluOp::I2i8, 8, 16, 0x1ff), 0xff);
    assert_eq!(cv(AluOp::I2i16, 16, 64, 0x12345), 0x2345);
    assert_eq!(cv(AluOp::I2i16, 16, 8, 0x80), 0xff80);
    assert_eq!(cv(AluOp::I2i32, 32, 8, 0x80), 0xffff_ff80);
    assert_eq!(cv(AluOp::I2i32, 32, 1, 1), 0xffff_ffff);
    assert_eq!(cv(AluOp::I2i64, 64, 32, 0x8000_0000), 0xffff_ffff_8000_0000);
    assert_eq!(cv(AluOp::I2i64, 64, 32, 0x7fff_ffff), 0x7fff_ffff);
}

#[test]
fn half_packing() {
    let pack = |x, y| sc(AluOp::PackHalf2x16Split, 32, &[(32, x), (32, y)]);
    // x in the low half.
    assert_eq!(pack(f(1.0), f(-2.0)), 0xc000_3c00);
    assert_eq!(pack(f(0.5), f(65520.0)), 0x7c00_3800);
    assert_eq!(pack(F32_NAN, 0x3300_0000), 0x0000_7e00);
    assert_eq!(pack(0x3f80_3000, 0), 0x3c02);
    let unx = |v| sc(AluOp::UnpackHalf2x16SplitX, 32, &[(32, v)]);
    let uny = |v| sc(AluOp::UnpackHalf2x16SplitY, 32, &[(32, v)]);
    assert_eq!(unx(0xc000_3c00), f(1.0));
    assert_eq!(uny(0xc000_3c00), f(-2.0));
    assert_eq!(unx(0x0000_0001), 0x3380_0000); // fp16 denormals are kept
    assert_eq!(uny(0x7c00_0000), F32_INF);
    assert_eq!(uny(0x8000_0000), F32_NEG_ZERO);
}

#[test]
fn pack_64_2x32() {
    assert_eq!(
        sc(
            AluOp::Pack64_2x32Split,
            64,
            &[(32, 0x89ab_cdef), (32, 0x0123_4567)]
        ),
        0x0123_4567_89ab_cdef
    );
    assert_eq!(
        sc(
            AluOp::Unpack64_2x32SplitX,
            32,
            &[(64, 0x0123_4567_89ab_cdef)]
        ),
        0x89ab_cdef
    );
    assert_eq!(
        sc(
            AluOp::Unpack64_2x32SplitY,
            32,
            &[(64, 0x0123_4567_89ab_cdef)]
        ),
        0x0123_4567
    );
    assert_eq!(
        ev(
            AluOp::Pack64_2x32Split,
            ty(64, 2),
            &[(32, &[1, 2]), (32, &[3, 0xffff_ffff])]
        ),
        [0x3_0000_0001, 0xffff_ffff_0000_0002]
    );
}

// ----- shape errors -----------------------------------------------------------------

#[test]
fn malformed_instructions_are_errors() {
    let one = [1u64];
    let two = [1u64, 2];
    let r = eval_alu(
        AluOp::Ubfe,
        Type::U32,
        &[
            Operand::new(16, &one),
            Operand::new(32, &one),
            Operand::new(32, &one),
        ],
    );
    assert!(matches!(
        r,
        Err(EvalError::SourceBitSize {
            src: 0,
            expected: 32,
            found: 16,
            ..
        })
    ));
    let r = eval_alu(
        AluOp::Fadd,
        ty(1, 1),
        &[Operand::new(1, &one), Operand::new(1, &one)],
    );
    assert!(matches!(
        r,
        Err(EvalError::UnsupportedBitSize { bits: 1, .. })
    ));
    let r = eval_alu(
        AluOp::Vec2,
        ty(32, 2),
        &[Operand::new(32, &two), Operand::new(32, &one)],
    );
    assert!(matches!(
        r,
        Err(EvalError::SourceComponents {
            src: 0,
            expected: 1,
            found: 2,
            ..
        })
    ));
    let r = eval_alu(AluOp::Ineg, Type::U32, &[]);
    assert!(matches!(r, Err(EvalError::SourceCount { .. })));
}

#[test]
fn front_end_float_math() {
    // Exact cases: roots, powers and logarithms of powers of two, trig at 0.
    assert_eq!(u32op(AluOp::Fsqrt, &[f(16.0)]), f(4.0));
    assert_eq!(u32op(AluOp::Fsqrt, &[f(2.25)]), f(1.5));
    assert_eq!(u32op(AluOp::Frsq, &[f(0.25)]), f(2.0));
    assert_eq!(u32op(AluOp::Fexp2, &[f(3.0)]), f(8.0));
    assert_eq!(u32op(AluOp::Fexp2, &[f(-2.0)]), f(0.25));
    assert_eq!(u32op(AluOp::Flog2, &[f(0.125)]), f(-3.0));
    // sin(-0) = -0; cos(0) = 1.
    assert_eq!(u32op(AluOp::Fsin, &[f(-0.0)]), 0x8000_0000);
    assert_eq!(u32op(AluOp::Fcos, &[f(0.0)]), f(1.0));
    assert_eq!(u32op(AluOp::Fpow, &[f(3.0), f(2.0)]), f(9.0));
    // fract(-1.25) = -1.25 - floor(-1.25) = -1.25 + 2 = 0.75.
    assert_eq!(u32op(AluOp::Ffract, &[f(-1.25)]), f(0.75));
    assert_eq!(u32op(AluOp::Fsign, &[f(-2.0)]), f(-1.0));
    assert_eq!(u32op(AluOp::Fsign, &[0x7fc0_0000]), 0);
    // 0 * (1 - 0.25) + 8 * 0.25 = 2.
    assert_eq!(u32op(AluOp::Flrp, &[f(0.0), f(8.0), f(0.25)]), f(2.0));
    // mod(-5.5, 2) = -5.5 - 2 * floor(-2.75) = -5.5 + 6 = 0.5; rem uses trunc: -5.5 + 4.
    assert_eq!(u32op(AluOp::Fmod, &[f(5.5), f(2.0)]), f(1.5));
    assert_eq!(u32op(AluOp::Fmod, &[f(-5.5), f(2.0)]), f(0.5));
    assert_eq!(u32op(AluOp::Frem, &[f(-5.5), f(2.0)]), f(-1.5));
    assert_eq!(sc(AluOp::Ldexp, 32, &[(32, f(0.75)), (32, 2)]), f(3.0));
    // Dot products: 1*3 + 2*4 = 11; 1 + 2 + 3 = 6; four 1*2 = 8.
    let r = ev(
        AluOp::Fdot2,
        ty(32, 1),
        &[(32, &[f(1.0), f(2.0)]), (32, &[f(3.0), f(4.0)])],
    );
    assert_eq!(r, [f(11.0)]);
    let ones = [f(1.0); 3];
    let r = ev(
        AluOp::Fdot3,
        ty(32, 1),
        &[(32, &[f(1.0), f(2.0), f(3.0)]), (32, &ones)],
    );
    assert_eq!(r, [f(6.0)]);
    let r = ev(
        AluOp::Fdot4,
        ty(32, 1),
        &[(32, &[f(1.0); 4]), (32, &[f(2.0); 4])],
    );
    assert_eq!(r, [f(8.0)]);
    // 0.1 * 16 = 1.6: mantissa 0.6 * 1024 = 614.4 rounds to 614, so binary16 0x2e66 =
    // (1 + 614/1024) / 16 = 0.0999755859375 = binary32 0x3dccc000.
    assert_eq!(u32op(AluOp::Fquantize2f16, &[f(0.1)]), 0x3dcc_c000);
}

#[test]
fn front_end_integer_ops() {
    let m = |v: i64| v as u64 & 0xffff_ffff;
    // -7 = 2 * -3 - 1: irem keeps the dividend's sign (-1), imod the divisor's (1).
    assert_eq!(u32op(AluOp::Irem, &[m(-7), 2]), m(-1));
    assert_eq!(u32op(AluOp::Imod, &[m(-7), 2]), 1);
    assert_eq!(u32op(AluOp::Isign, &[m(-5)]), m(-1));
    assert_eq!(sc(AluOp::FindLsb, 32, &[(32, 8)]), 3);
    assert_eq!(u32op(AluOp::IfindMsb, &[0x100]), 8);
    assert_eq!(u32op(AluOp::BitfieldReverse, &[0x8000_0000]), 1);
}

/// Every opcode is named somewhere above, so none is left without a hand-computed test.
#[test]
fn every_opcode_is_covered() {
    let src = include_str!("alu_semantics.rs");
    for &op in AluOp::ALL {
        let needle = format!("AluOp::{op:?}");
        // A whole-word match: `AluOp::Imul` must not be satisfied by `AluOp::ImulHigh`.
        let covered = src.match_indices(&needle).any(|(at, _)| {
            src[at + needle.len()..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_ascii_alphanumeric() && c != '_')
        });
        assert!(covered, "no test for `{op}`");
    }
}
