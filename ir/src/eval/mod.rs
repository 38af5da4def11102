//! The semantics of every ALU opcode, shared by the constant folder and the interpreter.
//!
//! Each opcode computes what NIR's constant folding (`nir_constant_expressions.py` over the
//! `const_expr` strings of `nir_opcodes.py`) computes, bit for bit, for every input whose
//! result NIR defines. Where NIR's C expression is undefined behaviour, or depends on the
//! host (NaN payloads, out-of-range float-to-integer conversions, out-of-range byte
//! indices), this module picks one deterministic answer and says which in a comment next
//! to the opcode; the module documentation of each helper names the rule it follows.
//!
//! Values are raw bits: an operand component holds its value in the low `bit_size` bits
//! of a `u64`. Integers are two's complement; a signed 1-bit integer is 0 or -1, as in
//! NIR's constant folder (`int1_t` sources are `-(int1_t)b`), while an unsigned one and a
//! boolean are 0 or 1. Floats are IEEE-754 binary16/32/64 bit patterns.
//!
//! # Floating point
//!
//! Arithmetic rounds to nearest, ties to even, and keeps denormals (NIR's default float
//! controls: no flush-to-zero, no round-towards-zero). 16-bit operations are computed
//! exactly and rounded once: NIR evaluates them in `float` and converts back with
//! `_mesa_float_to_float16_rtne`, which is correctly rounded for `+ - * /` because binary32
//! carries more than twice binary16's precision; `ffma` is evaluated exactly in integers.
//!
//! NaNs, which C leaves to the host, are made deterministic:
//! * an operation with a NaN operand returns the first NaN operand (in source order) with
//!   its quiet bit set, keeping sign and payload: what x86 SSE does, and what
//!   IEEE-754 §6.2.3 recommends;
//! * an invalid operation without NaN operands (`0 * inf`, `inf - inf`, `0 / 0`) returns
//!   the x86 "default NaN" (sign set, quiet bit set, payload 0: `0xfe00`, `0xffc00000`,
//!   `0xfff8000000000000`), which is what Mesa's constant folder produces on x86-64 hosts;
//! * `fneg` and `fabs` only change the sign bit, as IEEE-754 §5.5.1 defines them;
//! * `fsub` is `a + (-b)` (IEEE-754 §5.4.1 defines it so), so a NaN `b` comes out with
//!   its sign flipped: Intel's EUs have no subtraction, and Mesa's and this project's
//!   back ends add the negated operand (IEEE-754 §6.3 leaves a NaN result's sign open).

mod float;
mod int;
mod math;

use crate::alu::AluOp;
use crate::types::{bit_mask, AluType, BaseType, Type};
pub use float::{
    default_nan, f16_to_f32, f32_to_f16, f64_to_f16, f64_to_f32, float_one, float_to_f64, is_nan,
};
use float::{f_binop, f_unop, fcmp, ffma, fminmax, fsat, quieted, sign_bit};
pub use int::sign_extend;
use smallvec::SmallVec;
use std::fmt;

/// One source operand, already swizzled: its bit size and one entry per component read
/// (the low `bit_size` bits hold the value; 1-bit booleans are 0 or 1).
#[derive(Copy, Clone, Debug)]
pub struct Operand<'a> {
    /// Bits per component.
    pub bit_size: u8,
    /// The components read, in order.
    pub comps: &'a [u64],
}

impl<'a> Operand<'a> {
    /// An operand of `bit_size` bits reading `comps`.
    pub fn new(bit_size: u8, comps: &'a [u64]) -> Operand<'a> {
        Operand { bit_size, comps }
    }
}

/// Why an ALU instruction cannot be evaluated (shape errors the validator normally rejects).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The number of sources differs from the opcode's.
    SourceCount {
        /// The opcode.
        op: AluOp,
        /// Sources the opcode takes.
        expected: usize,
        /// Sources given.
        found: usize,
    },
    /// A source reads the wrong number of components.
    SourceComponents {
        /// The opcode.
        op: AluOp,
        /// Index of the source.
        src: usize,
        /// Components the source must read.
        expected: usize,
        /// Components it reads.
        found: usize,
    },
    /// The destination has a component count the opcode cannot produce.
    DestComponents {
        /// The opcode.
        op: AluOp,
        /// Components the opcode produces.
        expected: u8,
        /// Components of the destination.
        found: u8,
    },
    /// A source has the wrong bit size for its type (a sized type, or the bit size shared
    /// by the instruction's unsized operands).
    SourceBitSize {
        /// The opcode.
        op: AluOp,
        /// Index of the source.
        src: usize,
        /// The bit size required.
        expected: u8,
        /// The source's bit size.
        found: u8,
    },
    /// The destination has the wrong bit size for the opcode's output type.
    DestBitSize {
        /// The opcode.
        op: AluOp,
        /// The bit size required.
        expected: u8,
        /// The destination's bit size.
        found: u8,
    },
    /// The instruction's shared bit size is not legal for one of its unsized types
    /// (a 1-bit or 8-bit float, a 64-bit boolean).
    UnsupportedBitSize {
        /// The opcode.
        op: AluOp,
        /// The unsized type that cannot have this size.
        ty: AluType,
        /// The bit size.
        bits: u8,
    },
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::SourceCount {
                op,
                expected,
                found,
            } => write!(f, "`{op}` takes {expected} sources, found {found}"),
            EvalError::SourceComponents {
                op,
                src,
                expected,
                found,
            } => write!(
                f,
                "source {src} of `{op}` must read {expected} components, reads {found}"
            ),
            EvalError::DestComponents {
                op,
                expected,
                found,
            } => write!(
                f,
                "`{op}` produces {expected} components, destination has {found}"
            ),
            EvalError::SourceBitSize {
                op,
                src,
                expected,
                found,
            } => write!(
                f,
                "source {src} of `{op}` must be {expected}-bit, found {found}-bit"
            ),
            EvalError::DestBitSize {
                op,
                expected,
                found,
            } => write!(
                f,
                "destination of `{op}` must be {expected}-bit, found {found}-bit"
            ),
            EvalError::UnsupportedBitSize { op, ty, bits } => {
                write!(f, "`{op}` cannot operate on {bits}-bit {ty}")
            }
        }
    }
}

impl std::error::Error for EvalError {}

/// The bit sizes NIR allows for an unsized type of this base (`type_sizes` in
/// `nir_opcodes.py`; booleans are 1-bit only here, as `nir_lower_bool_to_*` has not run).
fn legal_sizes(base: BaseType) -> &'static [u8] {
    match base {
        BaseType::Float => &[16, 32, 64],
        BaseType::Int | BaseType::Uint => &[1, 8, 16, 32, 64],
        BaseType::Bool => &[1],
    }
}

/// Checks the shape of an instruction; returns the shared bit size of its unsized
/// operands (0 if it has none).
fn check_shape(op: AluOp, dest: Type, srcs: &[Operand<'_>]) -> Result<u8, EvalError> {
    let info = op.info();
    let n = info.num_inputs as usize;
    if srcs.len() != n {
        return Err(EvalError::SourceCount {
            op,
            expected: n,
            found: srcs.len(),
        });
    }
    let shared = if !info.output_type.is_sized() {
        Some(dest.bit_size())
    } else {
        (0..n)
            .find(|&i| !info.input_types[i].is_sized())
            .map(|i| srcs[i].bit_size)
    };
    if let Some(bits) = shared {
        let unsized_types = std::iter::once(info.output_type)
            .chain(info.input_types[..n].iter().copied())
            .filter(|t| !t.is_sized());
        for ty in unsized_types {
            if !legal_sizes(ty.base).contains(&bits) {
                return Err(EvalError::UnsupportedBitSize { op, ty, bits });
            }
        }
    }
    if info.output_type.is_sized() && dest.bit_size() != info.output_type.bits {
        return Err(EvalError::DestBitSize {
            op,
            expected: info.output_type.bits,
            found: dest.bit_size(),
        });
    }
    if info.output_size != 0 && dest.num_components() != info.output_size {
        return Err(EvalError::DestComponents {
            op,
            expected: info.output_size,
            found: dest.num_components(),
        });
    }
    for (i, src) in srcs.iter().enumerate() {
        let ty = info.input_types[i];
        let expected_bits = if ty.is_sized() {
            ty.bits
        } else {
            shared.unwrap_or(src.bit_size)
        };
        if src.bit_size != expected_bits {
            return Err(EvalError::SourceBitSize {
                op,
                src: i,
                expected: expected_bits,
                found: src.bit_size,
            });
        }
        let expected_comps = match info.input_sizes[i] {
            0 => dest.num_components() as usize,
            s => s as usize,
        };
        if src.comps.len() != expected_comps {
            return Err(EvalError::SourceComponents {
                op,
                src: i,
                expected: expected_comps,
                found: src.comps.len(),
            });
        }
    }
    Ok(shared.unwrap_or(0))
}

// ----- integer helpers --------------------------------------------------------------

/// Component `i` of an operand, masked to its bit size.
#[inline]
fn comp(src: &Operand<'_>, i: usize) -> u64 {
    src.comps[i] & bit_mask(src.bit_size)
}

/// `ubfe`/`ibfe` (SM5 semantics, `nir_opcodes.py`): offset and bit count use their low five
/// bits; a count of 0 (so also 32) gives 0; a field running past bit 31 takes the bits
/// from `offset` up. `ibfe` sign-extends the field.
fn bfe(base: u64, offset: u64, bits: u64, signed: bool) -> u64 {
    let offset = (offset & 0x1f) as u32;
    let bits = (bits & 0x1f) as u32;
    if bits == 0 {
        return 0;
    }
    let r = if signed {
        let base = base as u32 as i32;
        if offset + bits < 32 {
            (base << (32 - bits - offset)) >> (32 - bits)
        } else {
            base >> offset
        }
    } else {
        let base = base as u32;
        (if offset + bits < 32 {
            (base << (32 - bits - offset)) >> (32 - bits)
        } else {
            base >> offset
        }) as i32
    };
    r as u32 as u64
}

/// `bfi(mask, insert, base)` (SM5): the insert is shifted to the mask's lowest set bit; a
/// zero mask returns `base`.
fn bfi(mask: u64, insert: u64, base: u64) -> u64 {
    let (mask, insert, base) = (mask as u32, insert as u32, base as u32);
    if mask == 0 {
        return base as u64;
    }
    let insert = insert << mask.trailing_zeros();
    ((base & !mask) | (insert & mask)) as u64
}

/// GLSL `bitfieldInsert` (`bitfield_insert` in `nir_opcodes.py`): 0 bits returns `base`;
/// a negative offset or count, or `offset + bits > 32`, gives 0.
fn bitfield_insert(base: u64, insert: u64, offset: u64, bits: u64) -> u64 {
    let (base, insert) = (base as u32, insert as u32);
    let (offset, bits) = (offset as u32 as i32, bits as u32 as i32);
    if bits == 0 {
        return base as u64;
    }
    if offset < 0 || bits < 0 || bits as i64 + offset as i64 > 32 {
        return 0;
    }
    let mask = ((((1u64 << bits) - 1) << offset) & 0xffff_ffff) as u32;
    ((base & !mask) | ((insert << offset) & mask)) as u64
}

/// `extract_[ui]8`/`extract_[ui]16`: field `index` of `width` bits, zero- or sign-extended.
/// NIR computes `(uint8_t)(src0 >> (src1 * 8))`; for 8- and 16-bit sources C's integer
/// promotion makes an index past the value read zeros (unsigned) or copies of the sign
/// bit (signed), and this extends that to 32- and 64-bit sources, where the C shift is
/// undefined. The index is read as unsigned.
fn extract(bits: u8, x: u64, index: u64, width: u32, signed: bool) -> u64 {
    let shift = index.saturating_mul(width as u64);
    if signed {
        let v = sign_extend(bits, x);
        let shifted = if shift >= 64 { v >> 63 } else { v >> shift };
        sign_extend(width as u8, shifted as u64) as u64
    } else if shift >= 64 {
        0
    } else {
        (x >> shift) & bit_mask(width as u8)
    }
}

/// Evaluates a per-component op with one source.
fn map1(n: usize, s: &[Operand<'_>], f: impl Fn(u64) -> u64) -> SmallVec<[u64; 16]> {
    (0..n).map(|i| f(comp(&s[0], i))).collect()
}

/// Evaluates a per-component op with two sources.
fn map2(n: usize, s: &[Operand<'_>], f: impl Fn(u64, u64) -> u64) -> SmallVec<[u64; 16]> {
    (0..n).map(|i| f(comp(&s[0], i), comp(&s[1], i))).collect()
}

/// Evaluates a per-component op with three sources.
fn map3(n: usize, s: &[Operand<'_>], f: impl Fn(u64, u64, u64) -> u64) -> SmallVec<[u64; 16]> {
    (0..n)
        .map(|i| f(comp(&s[0], i), comp(&s[1], i), comp(&s[2], i)))
        .collect()
}

/// Evaluates one ALU instruction with its `exact` flag: [`eval_alu`], except for two
/// ops without `exact`, which compute what Vulkan allows them and Mesa's Intel back end
/// emits (the table is `ir/PRECISION.md`):
///
/// - `fdiv` is `fmul(a, frcp(b))`, each step rounded to nearest even (2.5 ULP for
///   `OpFDiv`): the division the IR's `algebraic` pass writes and the vISA back end
///   emits (`inv`, `mul`);
/// - a 16- or 32-bit `frsq` is the reciprocal root rounded once to binary32 (then to
///   binary16), not `1.0f / sqrtf(x)`'s two roundings (2 ULP for `InverseSqrt`): the
///   math unit's `rsqrt`, which the vISA back end emits;
/// - a 32-bit `fpow` is C's `pow` of `|x|` (Vulkan leaves `pow` undefined for `x < 0`
///   and for `x = 0`, `y <= 0`): the math unit's `pow` on the magnitude, which the
///   vISA back end emits;
/// - a 32-bit `fdot2`..`fdot4` takes the NaN of its steps (each product and sum with
///   one IEEE operation's NaN rule), as the back end's `mul`s and `add`s give it,
///   rather than the first NaN operand of the whole op (Vulkan leaves NaN results of
///   inexact instructions open);
/// - a 32-bit `flrp` is `fma(b, c, a * (1 - c))`, three IEEE operations with their
///   own NaN rules (the back end's `add`, `mul` and fused `mad`), not NIR's
///   `a * (1 - c) + b * c` rounded at every step with the whole op's NaN rule.
///
/// So the constant folder, the interpreter and the kernels agree bit for bit on every
/// inexact division, reciprocal root, power, dot product and linear interpolation.
pub fn eval_alu_flagged(
    op: AluOp,
    exact: bool,
    dest: Type,
    srcs: &[Operand<'_>],
) -> Result<SmallVec<[u64; 16]>, EvalError> {
    if exact {
        return eval_alu(op, dest, srcs);
    }
    if op == AluOp::Frsq {
        let bits = check_shape(op, dest, srcs)?;
        if bits == 64 {
            return eval_alu(op, dest, srcs);
        }
        let n = dest.num_components() as usize;
        return Ok(map1(n, srcs, |a| math::frsq_inexact(bits, a)));
    }
    if op == AluOp::Fpow {
        let n = dest.num_components() as usize;
        return match check_shape(op, dest, srcs)? {
            32 => Ok(map2(n, srcs, math::fpow_inexact)),
            16 => Ok(map2(n, srcs, math::fpow_inexact16)),
            _ => eval_alu(op, dest, srcs),
        };
    }
    if op == AluOp::Flrp {
        if check_shape(op, dest, srcs)? != 32 {
            return eval_alu(op, dest, srcs);
        }
        let n = dest.num_components() as usize;
        return Ok(map3(n, srcs, math::flrp_inexact));
    }
    if matches!(op, AluOp::Fdot2 | AluOp::Fdot3 | AluOp::Fdot4) {
        if check_shape(op, dest, srcs)? != 32 {
            return eval_alu(op, dest, srcs);
        }
        let k = srcs[0].comps.len();
        let a: SmallVec<[u64; 4]> = (0..k).map(|i| comp(&srcs[0], i)).collect();
        let b: SmallVec<[u64; 4]> = (0..k).map(|i| comp(&srcs[1], i)).collect();
        return Ok(smallvec::smallvec![math::fdot_inexact(&a, &b)]);
    }
    if op != AluOp::Fdiv {
        return eval_alu(op, dest, srcs);
    }
    check_shape(op, dest, srcs)?;
    let b = &srcs[1];
    let rcp_ty = Type::new(b.bit_size, dest.num_components()).unwrap_or(dest);
    let rcp = eval_alu(AluOp::Frcp, rcp_ty, std::slice::from_ref(b))?;
    eval_alu(
        AluOp::Fmul,
        dest,
        &[srcs[0], Operand::new(b.bit_size, &rcp)],
    )
}

/// Evaluates one ALU instruction. `dest` is the instruction's destination type. For per-
/// component inputs, component i of the result reads component i of each per-component source;
/// fixed-size inputs (vecN) are read as given. Results are masked to the destination bit size.
pub fn eval_alu(
    op: AluOp,
    dest: Type,
    srcs: &[Operand<'_>],
) -> Result<SmallVec<[u64; 16]>, EvalError> {
    // `bits` is the shared size of the unsized operands; ops whose operands are all sized
    // read their sizes from the sources.
    let bits = check_shape(op, dest, srcs)?;
    let n = dest.num_components() as usize;
    let s = srcs;
    use AluOp::*;
    let mut out: SmallVec<[u64; 16]> = match op {
        Mov => map1(n, s, |a| a),
        Vec2 | Vec3 | Vec4 | Vec8 | Vec16 => s.iter().map(|src| comp(src, 0)).collect(),

        // Ring operations: computing modulo 2^64 and masking is exact at every size.
        Iadd => map2(n, s, |a, b| a.wrapping_add(b)),
        Isub => map2(n, s, |a, b| a.wrapping_sub(b)),
        Imul => map2(n, s, |a, b| a.wrapping_mul(b)),
        ImulHigh => map2(n, s, |a, b| {
            let p = sign_extend(bits, a) as i128 * sign_extend(bits, b) as i128;
            (p >> bits) as u64
        }),
        UmulHigh => map2(n, s, |a, b| ((a as u128 * b as u128) >> bits) as u64),
        // Division by zero is 0 (`src1 == 0 ? 0 : ...` in nir_opcodes.py).
        Udiv => map2(n, s, |a, b| a.checked_div(b).unwrap_or(0)),
        Umod => map2(n, s, |a, b| a.checked_rem(b).unwrap_or(0)),
        // C division truncates towards zero. INT_MIN / -1 wraps to INT_MIN: C promotion
        // gives that for 8- and 16-bit NIR sources, and the wrap is the only
        // two's-complement answer at 32 and 64 bits (where C leaves it undefined).
        Idiv => map2(n, s, |a, b| {
            let (a, b) = (sign_extend(bits, a), sign_extend(bits, b));
            if b == 0 {
                0
            } else {
                a.wrapping_div(b) as u64
            }
        }),
        Irem => map2(n, s, |a, b| math::irem(bits, a, b)),
        Imod => map2(n, s, |a, b| math::imod(bits, a, b)),
        Isign => map1(n, s, |a| math::isign(bits, a)),
        // `src0 == INT_MIN ? src0 : -src0`: plain wrapping negation.
        Ineg => map1(n, s, |a| a.wrapping_neg()),
        Iabs => map1(n, s, |a| sign_extend(bits, a).wrapping_abs() as u64),
        Imin => map2(n, s, |a, b| {
            sign_extend(bits, a).min(sign_extend(bits, b)) as u64
        }),
        Imax => map2(n, s, |a, b| {
            sign_extend(bits, a).max(sign_extend(bits, b)) as u64
        }),
        Umin => map2(n, s, |a, b| a.min(b)),
        Umax => map2(n, s, |a, b| a.max(b)),

        Iand => map2(n, s, |a, b| a & b),
        Ior => map2(n, s, |a, b| a | b),
        Ixor => map2(n, s, |a, b| a ^ b),
        Inot => map1(n, s, |a| !a),
        // Shift counts are masked with `sizeof(src0) * 8 - 1` (SM5 semantics); a 1-bit
        // value is stored in a byte, so its count is masked with 7.
        Ishl => {
            let m = bits.max(8) as u64 - 1;
            map2(n, s, |a, b| a << (b & m))
        }
        Ishr => {
            let m = bits.max(8) as u64 - 1;
            map2(n, s, |a, b| (sign_extend(bits, a) >> (b & m)) as u64)
        }
        Ushr => {
            let m = bits.max(8) as u64 - 1;
            map2(n, s, |a, b| a >> (b & m))
        }
        Ubfe => map3(n, s, |a, b, c| bfe(a, b, c, false)),
        Ibfe => map3(n, s, |a, b, c| bfe(a, b, c, true)),
        Bfi => map3(n, s, bfi),
        BitfieldInsert => (0..n)
            .map(|i| {
                bitfield_insert(
                    comp(&s[0], i),
                    comp(&s[1], i),
                    comp(&s[2], i),
                    comp(&s[3], i),
                )
            })
            .collect(),
        // The highest set bit, or -1 for 0.
        UfindMsb => map1(n, s, |a| {
            if a == 0 {
                u32::MAX as u64
            } else {
                63 - a.leading_zeros() as u64
            }
        }),
        BitCount => map1(n, s, |a| a.count_ones() as u64),
        FindLsb => map1(n, s, math::find_lsb),
        IfindMsb => map1(n, s, math::ifind_msb),
        BitfieldReverse => map1(n, s, math::bitfield_reverse),
        ExtractU8 => map2(n, s, |a, b| extract(bits, a, b, 8, false)),
        ExtractI8 => map2(n, s, |a, b| extract(bits, a, b, 8, true)),
        ExtractU16 => map2(n, s, |a, b| extract(bits, a, b, 16, false)),
        ExtractI16 => map2(n, s, |a, b| extract(bits, a, b, 16, true)),

        Ieq => map2(n, s, |a, b| (a == b) as u64),
        Ine => map2(n, s, |a, b| (a != b) as u64),
        Ilt => map2(n, s, |a, b| {
            (sign_extend(bits, a) < sign_extend(bits, b)) as u64
        }),
        Ige => map2(n, s, |a, b| {
            (sign_extend(bits, a) >= sign_extend(bits, b)) as u64
        }),
        Ult => map2(n, s, |a, b| (a < b) as u64),
        Uge => map2(n, s, |a, b| (a >= b) as u64),
        Feq => map2(n, s, |a, b| fcmp(bits, a, b, |x, y| x == y)),
        Fneu => map2(n, s, |a, b| fcmp(bits, a, b, |x, y| x != y)),
        Flt => map2(n, s, |a, b| fcmp(bits, a, b, |x, y| x < y)),
        Fge => map2(n, s, |a, b| fcmp(bits, a, b, |x, y| x >= y)),
        Bcsel => map3(n, s, |c, a, b| if c & 1 != 0 { a } else { b }),
        B2i32 => map1(n, s, |a| a & 1),
        B2f32 => map1(n, s, |a| if a & 1 != 0 { float_one(32) } else { 0 }),

        Fadd => map2(n, s, |a, b| f_binop(bits, a, b, |x, y| x + y, |x, y| x + y)),
        // `a + (-b)`, as Intel's back ends compute it (an `add` with a negated source):
        // the same value, and a NaN `b` comes out with its sign flipped.
        Fsub => map2(n, s, |a, b| {
            f_binop(bits, a, b ^ sign_bit(bits), |x, y| x + y, |x, y| x + y)
        }),
        Fmul => map2(n, s, |a, b| f_binop(bits, a, b, |x, y| x * y, |x, y| x * y)),
        Fdiv => map2(n, s, |a, b| f_binop(bits, a, b, |x, y| x / y, |x, y| x / y)),
        Ffma => map3(n, s, |a, b, c| ffma(bits, a, b, c)),
        Fmin => map2(n, s, |a, b| fminmax(bits, a, b, false)),
        Fmax => map2(n, s, |a, b| fminmax(bits, a, b, true)),
        Fneg => map1(n, s, |a| a ^ sign_bit(bits)),
        Fabs => map1(n, s, |a| a & !sign_bit(bits)),
        Fsat => map1(n, s, |a| fsat(bits, a)),
        Ffloor => map1(n, s, |a| f_unop(bits, a, f32::floor, f64::floor)),
        Fceil => map1(n, s, |a| f_unop(bits, a, f32::ceil, f64::ceil)),
        // `_mesa_roundevenf`: ties to even, keeping the sign of zero.
        FroundEven => map1(n, s, |a| {
            f_unop(bits, a, f32::round_ties_even, f64::round_ties_even)
        }),
        Ftrunc => map1(n, s, |a| f_unop(bits, a, f32::trunc, f64::trunc)),
        // `1.0f / src0`: +-0 gives +-inf.
        Frcp => map1(n, s, |a| f_unop(bits, a, |x| 1.0 / x, |x| 1.0 / x)),

        Fsqrt => map1(n, s, |a| math::fsqrt(bits, a)),
        Frsq => map1(n, s, |a| math::frsq(bits, a)),
        Fexp2 => map1(n, s, |a| math::fexp2(bits, a)),
        Flog2 => map1(n, s, |a| math::flog2(bits, a)),
        Fsin => map1(n, s, |a| math::fsin(bits, a)),
        Fcos => map1(n, s, |a| math::fcos(bits, a)),
        Fpow => map2(n, s, |a, b| math::fpow(bits, a, b)),
        Ffract => map1(n, s, |a| math::ffract(bits, a)),
        Fsign => map1(n, s, |a| math::fsign(bits, a)),
        Flrp => map3(n, s, |a, b, c| math::flrp(bits, a, b, c)),
        Fmod => map2(n, s, |a, b| math::fmod(bits, a, b)),
        Frem => map2(n, s, |a, b| math::frem(bits, a, b)),
        Ldexp => map2(n, s, |a, b| math::ldexp(bits, a, b)),
        Fdot2 | Fdot3 | Fdot4 => {
            let k = s[0].comps.len();
            let a: SmallVec<[u64; 4]> = (0..k).map(|i| comp(&s[0], i)).collect();
            let b: SmallVec<[u64; 4]> = (0..k).map(|i| comp(&s[1], i)).collect();
            smallvec::smallvec![math::fdot(bits, &a, &b)]
        }
        Fquantize2f16 => map1(n, s, math::fquantize2f16),

        // NIR's `f2i32`/`f2u32` are the C conversion `dst = src0`, which C11 6.3.1.4 leaves
        // undefined for NaN, infinities and values whose truncation does not fit; Mesa's
        // result then depends on the host (x86 gives 0x80000000 for f2i32). We saturate
        // and map NaN to 0, as Intel's EU conversions do (the code this library lowers
        // to) and as Rust's `as` defines: f2u32(-1.5) = 0, f2u32(NaN) = 0,
        // f2u32(+inf) = 0xffffffff, f2i32(-inf) = INT32_MIN, f2i32(NaN) = 0. In-range
        // values truncate towards zero, exactly as NIR.
        F2i32 => map1(n, s, |a| float_to_f64(bits, a) as i32 as u32 as u64),
        F2u32 => map1(n, s, |a| float_to_f64(bits, a) as u32 as u64),
        // Integer to float rounds to nearest even (the C conversion under the default
        // rounding mode). A signed 1-bit true is -1, so `i2f32` gives -1.0 for it.
        I2f32 => map1(n, s, |a| (sign_extend(bits, a) as f32).to_bits() as u64),
        U2f32 => map1(n, s, |a| (a as f32).to_bits() as u64),
        F2f16 => map1(n, s, |a| match bits {
            16 if is_nan(16, a) => quieted(16, a),
            16 => a,
            32 => f32_to_f16(f32::from_bits(a as u32)) as u64,
            _ => f64_to_f16(f64::from_bits(a)) as u64,
        }),
        // 32 -> 32 is the identity (`dst = src0`, no arithmetic, so even a signalling NaN
        // is kept); 16 -> 32 is exact; 64 -> 32 rounds to nearest even.
        F2f32 => map1(n, s, |a| match bits {
            16 => f16_to_f32(a as u16).to_bits() as u64,
            32 => a,
            _ => f64_to_f32(f64::from_bits(a)).to_bits() as u64,
        }),
        U2u8 | U2u16 | U2u32 | U2u64 => map1(n, s, |a| a),
        I2i8 | I2i16 | I2i32 | I2i64 => map1(n, s, |a| sign_extend(bits, a) as u64),

        // `pack_half_1x16(src0.x) | pack_half_1x16(src1.x) << 16`, x in the low half.
        PackHalf2x16Split => map2(n, s, |x, y| {
            let lo = f32_to_f16(f32::from_bits(x as u32)) as u64;
            let hi = f32_to_f16(f32::from_bits(y as u32)) as u64;
            lo | hi << 16
        }),
        // No denormal flushing: NIR's default float controls keep fp16 denormals.
        UnpackHalf2x16SplitX => map1(n, s, |a| f16_to_f32(a as u16).to_bits() as u64),
        UnpackHalf2x16SplitY => map1(n, s, |a| f16_to_f32((a >> 16) as u16).to_bits() as u64),
        Pack64_2x32Split => map2(n, s, |lo, hi| lo | hi << 32),
        Unpack64_2x32SplitX => map1(n, s, |a| a & 0xffff_ffff),
        Unpack64_2x32SplitY => map1(n, s, |a| a >> 32),
    };
    let mask = dest.component_mask();
    for v in out.iter_mut() {
        *v &= mask;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::float::ffma16;
    use super::*;

    /// An independent binary16 rounding of an f32, by searching the two neighbouring f16
    /// values and comparing distances exactly in f64.
    fn nearest_f16(f: f32) -> u16 {
        let v = f as f64;
        let mag = v.abs();
        let sign: u16 = if f.is_sign_negative() { 0x8000 } else { 0 };
        if mag >= 65520.0 {
            return sign | 0x7c00;
        }
        // Largest f16 magnitude <= mag, by scanning the 0x7c00 finite patterns.
        let mut lo = 0u16;
        let (mut a, mut b) = (0u16, 0x7bffu16);
        while a <= b {
            let mid = (a + b) / 2;
            if f16_to_f32(mid) as f64 <= mag {
                lo = mid;
                a = mid + 1;
            } else if mid == 0 {
                break;
            } else {
                b = mid - 1;
            }
        }
        let lo_v = f16_to_f32(lo) as f64;
        if lo_v == mag {
            return sign | lo;
        }
        let hi = lo + 1;
        let hi_v = f16_to_f32(hi) as f64; // 0x7c00 is +inf, treated as 65536 below
        let hi_v = if hi == 0x7c00 { 65536.0 } else { hi_v };
        let (dl, dh) = (mag - lo_v, hi_v - mag);
        let pick = if dl < dh {
            lo
        } else if dh < dl {
            hi
        } else if lo & 1 == 0 {
            lo
        } else {
            hi
        };
        sign | pick
    }

    /// `fsub` is `a + (-b)`: a NaN `b` has its sign flipped (quieted), a NaN `a` wins
    /// unchanged but quieted, and `inf - inf` is the default NaN.
    #[test]
    fn fsub_adds_the_negated_operand() {
        let sub = |bits: u8, a: u64, b: u64| {
            let (x, y) = ([a], [b]);
            let ty = Type::new(bits, 1).unwrap();
            eval_alu(
                AluOp::Fsub,
                ty,
                &[Operand::new(bits, &x), Operand::new(bits, &y)],
            )
            .unwrap()[0]
        };
        assert_eq!(sub(32, 0x3f80_0000, 0x4000_0000), 0xbf80_0000); // 1 - 2 = -1
        assert_eq!(sub(32, 0x3f80_0000, 0x7fa0_0000), 0xffe0_0000);
        assert_eq!(sub(32, 0xffa0_0001, 0x7fa0_0000), 0xffe0_0001);
        assert_eq!(sub(32, 0x7f80_0000, 0x7f80_0000), 0xffc0_0000);
        assert_eq!(sub(32, 0x0000_0000, 0x0000_0000), 0x0000_0000); // 0 - 0 = +0
        assert_eq!(sub(16, 0x3c00, 0xfe01), 0x7e01);
        assert_eq!(sub(64, 0, 0x7ff0_0000_0000_0001), 0xfff8_0000_0000_0001);
    }

    #[test]
    fn f16_rounding_matches_an_independent_search() {
        // Every f32 with few mantissa bits set around the f16 range, plus halfway points.
        let mut checked = 0;
        for e in 90u32..=145 {
            for m in (0u32..(1 << 23))
                .step_by(4093)
                .chain([0x1000, 0x1001, 0x0fff, 0x3000, 0x2000, 0x7fffff, 0x400000])
            {
                for sign in [0u32, 1] {
                    let f = f32::from_bits(sign << 31 | e << 23 | m);
                    let want = nearest_f16(f);
                    assert_eq!(f32_to_f16(f), want, "half crate, {f:e}");
                    assert_eq!(f64_to_f16(f as f64), want, "f64_to_f16, {f:e}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn f64_to_f16_rounds_once() {
        // 1 + 2^-11 + 2^-40: just above the halfway point between 1.0 and 1 + 2^-10.
        // Rounding to f32 first would land exactly on the halfway point and round to 1.0.
        let d = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(f64_to_f16(d), 0x3c01);
        assert_eq!(f32_to_f16(d as f32), 0x3c00);
        // Subnormal halfway: 2^-25 ties to 0, just above goes to 2^-24.
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0);
        assert_eq!(f64_to_f16(2f64.powi(-25) * (1.0 + 2f64.powi(-50))), 1);
        assert_eq!(f64_to_f16(-1e-30), 0x8000);
        assert_eq!(f64_to_f16(65519.99), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(1e300), 0x7c00);
        assert_eq!(f64_to_f16(f64::from_bits(0x7ff0_0000_0000_0001)), 0x7e00);
    }

    /// An independent model of a binary16 `ffma` on finite inputs: the product is exact in
    /// binary64; the sum is rounded to binary64 and then binary32 with round-to-odd (TwoSum
    /// gives the exact error), which makes the half crate's final rounding to 11 bits
    /// correct. It shares no rounding code with `round_to_f16`.
    fn ffma16_model(a: u16, b: u16, c: u16) -> u16 {
        let (a, b, c) = (
            f16_to_f32(a) as f64,
            f16_to_f32(b) as f64,
            f16_to_f32(c) as f64,
        );
        let p = a * b;
        let s = p + c;
        let bb = s - p;
        let err = (p - (s - bb)) + (c - bb);
        let mut s_odd = s;
        if err != 0.0 && s.to_bits() & 1 == 0 {
            let bits = s.to_bits();
            // Step one ulp towards the exact value.
            s_odd = if (err > 0.0) == (s > 0.0) {
                f64::from_bits(bits + 1)
            } else {
                f64::from_bits(bits - 1)
            };
        }
        if s_odd == 0.0 && err == 0.0 {
            // Exact zero: the sign rules of IEEE addition, which `p + c` already applied.
            return if s.is_sign_negative() { 0x8000 } else { 0 };
        }
        // Round to odd again at binary32 precision (still two bits more than binary16),
        // then let the half crate do the final rounding to nearest even.
        let mut f = s_odd as f32;
        if f as f64 != s_odd && f.to_bits() & 1 == 0 {
            let toward_zero = (f as f64).abs() > s_odd.abs();
            f = f32::from_bits(if toward_zero {
                f.to_bits() - 1
            } else {
                f.to_bits() + 1
            });
        }
        f32_to_f16(f)
    }

    #[test]
    fn ffma16_matches_round_to_odd_model() {
        let n = std::env::var("QC_TESTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3000);
        fn prop(a: u16, b: u16, c: u16) -> quickcheck::TestResult {
            let finite = |x: u16| x & 0x7c00 != 0x7c00;
            if !(finite(a) && finite(b) && finite(c)) {
                return quickcheck::TestResult::discard();
            }
            let got = ffma16(a as u64, b as u64, c as u64) as u16;
            quickcheck::TestResult::from_bool(got == ffma16_model(a, b, c))
        }
        // Cases with a NaN or infinity are discarded; quickcheck's default cap of 10,000
        // generated cases would otherwise bound large `QC_TESTS` runs.
        quickcheck::QuickCheck::new()
            .rng(quickcheck::Gen::from_size_and_seed(100, 0x05ee_df16))
            .tests(n)
            .max_tests(n * 4)
            .min_tests_passed(n)
            .quickcheck(prop as fn(u16, u16, u16) -> quickcheck::TestResult);
        // Directed: cancellation against the rounded product and its neighbours, where
        // the exact low bits decide the result.
        for a in (0x3c00u16..0x3e00).step_by(3) {
            for b in (0x3400u16..0x4400).step_by(61) {
                let p = f32_to_f16(f16_to_f32(a) * f16_to_f32(b));
                for k in [-2i32, -1, 0, 1, 2] {
                    let c = ((p as i32 + k) as u16) ^ 0x8000;
                    let got = ffma16(a as u64, b as u64, c as u64) as u16;
                    assert_eq!(got, ffma16_model(a, b, c), "ffma({a:#x}, {b:#x}, {c:#x})");
                }
            }
        }
    }

    /// The error of evaluating `op` to a `dest` value over one-component operands of
    /// the given bit sizes.
    fn eval_err(op: AluOp, dest: Type, bits: &[u8]) -> EvalError {
        let a = [1u64];
        let srcs: Vec<Operand> = bits.iter().map(|&b| Operand::new(b, &a)).collect();
        eval_alu(op, dest, &srcs).unwrap_err()
    }

    #[test]
    fn shape_errors_are_reported() {
        let e = eval_err(AluOp::Iadd, Type::U32, &[32]);
        assert!(matches!(
            e,
            EvalError::SourceCount {
                expected: 2,
                found: 1,
                ..
            }
        ));
        let e = eval_err(AluOp::Iadd, Type::U32, &[32, 16]);
        assert_eq!(
            e.to_string(),
            "source 1 of `iadd` must be 32-bit, found 16-bit"
        );
        let e = eval_err(AluOp::Fadd, Type::scalar(8).unwrap(), &[8, 8]);
        assert!(matches!(e, EvalError::UnsupportedBitSize { bits: 8, .. }));
        let e = eval_err(AluOp::Iadd, Type::vec32(2), &[32, 32]);
        assert!(matches!(
            e,
            EvalError::SourceComponents {
                src: 0,
                expected: 2,
                found: 1,
                ..
            }
        ));
        let e = eval_err(AluOp::Ieq, Type::U32, &[32, 32]);
        assert!(matches!(
            e,
            EvalError::DestBitSize {
                expected: 1,
                found: 32,
                ..
            }
        ));
        let e = eval_err(AluOp::Vec2, Type::vec32(3), &[32, 32]);
        assert!(matches!(
            e,
            EvalError::DestComponents {
                expected: 2,
                found: 3,
                ..
            }
        ));
    }
}
