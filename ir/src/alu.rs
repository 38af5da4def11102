//! ALU opcodes and their signatures, after NIR's `nir_opcodes.py`.
//!
//! Each opcode has a static [`AluOpInfo`]: its inputs and output, each either
//! per-component (size 0: as many components as the destination) or of a fixed component
//! count, and each with an [`AluType`] that is sized (`int32`) or unsized (`int`: every
//! unsized operand of one instruction shares the instruction's bit size, as in NIR).
//! The semantics of every opcode live in [`crate::eval`].

use crate::types::{AluType, BaseType};

const fn t(base: BaseType, bits: u8) -> AluType {
    AluType::new(base, bits)
}
const INT: AluType = t(BaseType::Int, 0);
const UINT: AluType = t(BaseType::Uint, 0);
const FLOAT: AluType = t(BaseType::Float, 0);
const BOOL1: AluType = t(BaseType::Bool, 1);
const INT32: AluType = t(BaseType::Int, 32);
const UINT32: AluType = t(BaseType::Uint, 32);
const UINT64: AluType = t(BaseType::Uint, 64);
const FLOAT32: AluType = t(BaseType::Float, 32);
const NONE: AluType = t(BaseType::Uint, 0);

/// The signature of an ALU opcode.
#[derive(Copy, Clone, Debug)]
pub struct AluOpInfo {
    /// NIR's name of the opcode.
    pub name: &'static str,
    /// Number of sources.
    pub num_inputs: u8,
    /// Components of the output: 0 means per-component (any legal count).
    pub output_size: u8,
    /// Type of the output.
    pub output_type: AluType,
    /// Components read from each input: 0 means as many as the output has (entries
    /// past `num_inputs` are 0).
    pub input_sizes: [u8; MAX_INPUTS],
    /// Type of each input.
    pub input_types: [AluType; MAX_INPUTS],
    /// Whether the first two sources may be swapped (NIR's `_2src_commutative`).
    pub commutative: bool,
    /// Whether `op(op(a, b), c) == op(a, op(b, c))` bit-exactly.
    pub associative: bool,
}

macro_rules! alu_ops {
    ($( #[doc = $doc:literal] $variant:ident = $name:literal : $nin:literal, $osize:literal, $otype:expr,
        [$($isize:literal),*], [$($itype:expr),*] $(, $flag:ident)* ;)*) => {
        /// An ALU opcode. Names, operand types and semantics follow NIR.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum AluOp {
            $(
                #[doc = concat!("NIR's `", $name, "`:", $doc)]
                $variant,
            )*
        }

        impl AluOp {
            /// Every opcode, in declaration order.
            pub const ALL: &'static [AluOp] = &[$(AluOp::$variant,)*];

            /// The signature of this opcode.
            pub fn info(self) -> &'static AluOpInfo {
                &ALU_OP_INFO[self as usize]
            }
        }

        static ALU_OP_INFO: &[AluOpInfo] = &[$(
            {
                #[allow(unused_mut)]
                let mut info = AluOpInfo {
                    name: $name,
                    num_inputs: $nin,
                    output_size: $osize,
                    output_type: $otype,
                    input_sizes: pad_sizes(&[$($isize),*]),
                    input_types: pad_types(&[$($itype),*]),
                    commutative: false,
                    associative: false,
                };
                $( alu_flag!(info, $flag); )*
                info
            },
        )*];
    };
}

macro_rules! alu_flag {
    ($info:ident, COMM) => {
        $info.commutative = true;
    };
    ($info:ident, ASSOC) => {
        $info.associative = true;
    };
}

/// The most sources an ALU op takes (`vec16`).
pub const MAX_INPUTS: usize = 16;

const fn pad_sizes(s: &[u8]) -> [u8; MAX_INPUTS] {
    let mut out = [0u8; MAX_INPUTS];
    let mut i = 0;
    while i < s.len() {
        out[i] = s[i];
        i += 1;
    }
    out
}

const fn pad_types(s: &[AluType]) -> [AluType; MAX_INPUTS] {
    let mut out = [NONE; MAX_INPUTS];
    let mut i = 0;
    while i < s.len() {
        out[i] = s[i];
        i += 1;
    }
    out
}

alu_ops! {
    /// Copies its source component-wise.
    Mov = "mov": 1, 0, UINT, [0], [UINT];
    /// Builds a 2-component vector from two scalars.
    Vec2 = "vec2": 2, 2, UINT, [1, 1], [UINT, UINT];
    /// Builds a 3-component vector from three scalars.
    Vec3 = "vec3": 3, 3, UINT, [1, 1, 1], [UINT, UINT, UINT];
    /// Builds a 4-component vector from four scalars.
    Vec4 = "vec4": 4, 4, UINT, [1, 1, 1, 1], [UINT, UINT, UINT, UINT];
    /// Builds an 8-component vector from eight scalars.
    Vec8 = "vec8": 8, 8, UINT, [1, 1, 1, 1, 1, 1, 1, 1], [UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT];
    /// Builds a 16-component vector from sixteen scalars.
    Vec16 = "vec16": 16, 16, UINT, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT, UINT];

    /// Integer addition, `a + b`, wrapping at the bit size.
    Iadd = "iadd": 2, 0, INT, [0, 0], [INT, INT], COMM, ASSOC;
    /// Integer subtraction, `a - b`, wrapping at the bit size.
    Isub = "isub": 2, 0, INT, [0, 0], [INT, INT];
    /// Low half of the integer product `a * b`.
    Imul = "imul": 2, 0, INT, [0, 0], [INT, INT], COMM, ASSOC;
    /// High half of the signed product `a * b` (double-width).
    ImulHigh = "imul_high": 2, 0, INT, [0, 0], [INT, INT], COMM;
    /// High half of the unsigned product `a * b` (double-width).
    UmulHigh = "umul_high": 2, 0, UINT, [0, 0], [UINT, UINT], COMM;
    /// Unsigned division rounding towards zero; a zero divisor gives 0.
    Udiv = "udiv": 2, 0, UINT, [0, 0], [UINT, UINT];
    /// Signed division rounding towards zero; a zero divisor gives 0.
    Idiv = "idiv": 2, 0, INT, [0, 0], [INT, INT];
    /// Unsigned remainder `a % b`; a zero divisor gives 0.
    Umod = "umod": 2, 0, UINT, [0, 0], [UINT, UINT];
    /// Signed remainder with the sign of `a` (C's `%`); a zero divisor gives 0, and so does INT_MIN % -1.
    Irem = "irem": 2, 0, INT, [0, 0], [INT, INT];
    /// Signed modulus with the sign of `b` (`a - b * floor(a / b)`); a zero divisor gives 0.
    Imod = "imod": 2, 0, INT, [0, 0], [INT, INT];
    /// The sign of a signed integer: -1, 0 or 1.
    Isign = "isign": 1, 0, INT, [0], [INT];
    /// Two's-complement negation, `-a` (INT_MIN stays INT_MIN).
    Ineg = "ineg": 1, 0, INT, [0], [INT];
    /// Signed absolute value (INT_MIN stays INT_MIN).
    Iabs = "iabs": 1, 0, INT, [0], [INT];
    /// Signed minimum.
    Imin = "imin": 2, 0, INT, [0, 0], [INT, INT], COMM, ASSOC;
    /// Signed maximum.
    Imax = "imax": 2, 0, INT, [0, 0], [INT, INT], COMM, ASSOC;
    /// Unsigned minimum.
    Umin = "umin": 2, 0, UINT, [0, 0], [UINT, UINT], COMM, ASSOC;
    /// Unsigned maximum.
    Umax = "umax": 2, 0, UINT, [0, 0], [UINT, UINT], COMM, ASSOC;

    /// Bitwise and.
    Iand = "iand": 2, 0, UINT, [0, 0], [UINT, UINT], COMM, ASSOC;
    /// Bitwise or.
    Ior = "ior": 2, 0, UINT, [0, 0], [UINT, UINT], COMM, ASSOC;
    /// Bitwise exclusive or.
    Ixor = "ixor": 2, 0, UINT, [0, 0], [UINT, UINT], COMM, ASSOC;
    /// Bitwise complement.
    Inot = "inot": 1, 0, INT, [0], [INT];
    /// Shift left, the count masked to `bit_size - 1`.
    Ishl = "ishl": 2, 0, INT, [0, 0], [INT, UINT32];
    /// Arithmetic (sign-filling) shift right, the count masked to `bit_size - 1`.
    Ishr = "ishr": 2, 0, INT, [0, 0], [INT, UINT32];
    /// Logical (zero-filling) shift right, the count masked to `bit_size - 1`.
    Ushr = "ushr": 2, 0, UINT, [0, 0], [UINT, UINT32];
    /// Unsigned bitfield extract `(base, offset, bits)`, offset and bits taken mod 32; 0 bits gives 0.
    Ubfe = "ubfe": 3, 0, UINT32, [0, 0, 0], [UINT32, UINT32, UINT32];
    /// Signed bitfield extract `(base, offset, bits)`, offset and bits taken mod 32, sign-extended; 0 bits gives 0.
    Ibfe = "ibfe": 3, 0, INT32, [0, 0, 0], [INT32, UINT32, UINT32];
    /// Bitfield insert `(mask, insert, base)`: `insert` shifted to the mask's lowest set bit replaces the masked bits of `base`.
    Bfi = "bfi": 3, 0, UINT32, [0, 0, 0], [UINT32, UINT32, UINT32];
    /// GLSL `bitfieldInsert(base, insert, offset, bits)`; 0 bits gives `base`, an out-of-range field gives 0.
    BitfieldInsert = "bitfield_insert": 4, 0, UINT32, [0, 0, 0, 0], [UINT32, UINT32, INT32, INT32];
    /// Index of the most significant set bit, or -1 for 0.
    UfindMsb = "ufind_msb": 1, 0, INT32, [0], [UINT];
    /// Index of the least significant set bit, or -1 for 0.
    FindLsb = "find_lsb": 1, 0, INT32, [0], [INT];
    /// Index of the most significant bit that differs from the sign bit, or -1 for 0 and -1.
    IfindMsb = "ifind_msb": 1, 0, INT32, [0], [INT32];
    /// The 32 bits in reverse order (bit 0 becomes bit 31).
    BitfieldReverse = "bitfield_reverse": 1, 0, UINT32, [0], [UINT32];
    /// Number of set bits.
    BitCount = "bit_count": 1, 0, UINT32, [0], [UINT];
    /// Byte `b` of `a`, zero-extended.
    ExtractU8 = "extract_u8": 2, 0, UINT, [0, 0], [UINT, UINT];
    /// Byte `b` of `a`, sign-extended.
    ExtractI8 = "extract_i8": 2, 0, INT, [0, 0], [INT, INT];
    /// 16-bit word `b` of `a`, zero-extended.
    ExtractU16 = "extract_u16": 2, 0, UINT, [0, 0], [UINT, UINT];
    /// 16-bit word `b` of `a`, sign-extended.
    ExtractI16 = "extract_i16": 2, 0, INT, [0, 0], [INT, INT];

    /// Integer equality, `a == b`.
    Ieq = "ieq": 2, 0, BOOL1, [0, 0], [INT, INT], COMM;
    /// Integer inequality, `a != b`.
    Ine = "ine": 2, 0, BOOL1, [0, 0], [INT, INT], COMM;
    /// Signed less-than, `a < b`.
    Ilt = "ilt": 2, 0, BOOL1, [0, 0], [INT, INT];
    /// Signed greater-or-equal, `a >= b`.
    Ige = "ige": 2, 0, BOOL1, [0, 0], [INT, INT];
    /// Unsigned less-than, `a < b`.
    Ult = "ult": 2, 0, BOOL1, [0, 0], [UINT, UINT];
    /// Unsigned greater-or-equal, `a >= b`.
    Uge = "uge": 2, 0, BOOL1, [0, 0], [UINT, UINT];
    /// Ordered float equality (false if either is NaN).
    Feq = "feq": 2, 0, BOOL1, [0, 0], [FLOAT, FLOAT], COMM;
    /// Unordered float inequality (true if either is NaN).
    Fneu = "fneu": 2, 0, BOOL1, [0, 0], [FLOAT, FLOAT], COMM;
    /// Ordered float less-than (false if either is NaN).
    Flt = "flt": 2, 0, BOOL1, [0, 0], [FLOAT, FLOAT];
    /// Ordered float greater-or-equal (false if either is NaN).
    Fge = "fge": 2, 0, BOOL1, [0, 0], [FLOAT, FLOAT];
    /// Per-component select, `c ? a : b`.
    Bcsel = "bcsel": 3, 0, UINT, [0, 0, 0], [BOOL1, UINT, UINT];
    /// Boolean to 32-bit integer: 1 or 0.
    B2i32 = "b2i32": 1, 0, INT32, [0], [BOOL1];
    /// Boolean to 32-bit float: 1.0 or 0.0.
    B2f32 = "b2f32": 1, 0, FLOAT32, [0], [BOOL1];

    /// Float addition, rounded to nearest even.
    Fadd = "fadd": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT], COMM;
    /// Float subtraction, rounded to nearest even.
    Fsub = "fsub": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT];
    /// Float multiplication, rounded to nearest even.
    Fmul = "fmul": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT], COMM;
    /// Fused multiply-add `a * b + c` with a single rounding.
    Ffma = "ffma": 3, 0, FLOAT, [0, 0, 0], [FLOAT, FLOAT, FLOAT], COMM;
    /// Float division, rounded to nearest even.
    Fdiv = "fdiv": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT];
    /// Float minimum; a NaN operand yields the other, -0 is below +0.
    Fmin = "fmin": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT], COMM;
    /// Float maximum; a NaN operand yields the other, +0 is above -0.
    Fmax = "fmax": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT], COMM;
    /// Float negation (flips the sign bit).
    Fneg = "fneg": 1, 0, FLOAT, [0], [FLOAT];
    /// Float absolute value (clears the sign bit).
    Fabs = "fabs": 1, 0, FLOAT, [0], [FLOAT];
    /// Clamps a float to [0.0, 1.0]; NaN gives 0.0.
    Fsat = "fsat": 1, 0, FLOAT, [0], [FLOAT];
    /// Rounds a float towards negative infinity.
    Ffloor = "ffloor": 1, 0, FLOAT, [0], [FLOAT];
    /// Rounds a float towards positive infinity.
    Fceil = "fceil": 1, 0, FLOAT, [0], [FLOAT];
    /// Rounds a float to the nearest integer, ties to even.
    FroundEven = "fround_even": 1, 0, FLOAT, [0], [FLOAT];
    /// Rounds a float towards zero.
    Ftrunc = "ftrunc": 1, 0, FLOAT, [0], [FLOAT];
    /// Float reciprocal, `1.0 / a`.
    Frcp = "frcp": 1, 0, FLOAT, [0], [FLOAT];

    /// Square root, correctly rounded.
    Fsqrt = "fsqrt": 1, 0, FLOAT, [0], [FLOAT];
    /// Reciprocal square root, `1 / sqrt(a)` (see the `eval` module on transcendentals).
    Frsq = "frsq": 1, 0, FLOAT, [0], [FLOAT];
    /// Base-2 exponential, `2^a` (see the `eval` module on transcendentals).
    Fexp2 = "fexp2": 1, 0, FLOAT, [0], [FLOAT];
    /// Base-2 logarithm (see the `eval` module on transcendentals).
    Flog2 = "flog2": 1, 0, FLOAT, [0], [FLOAT];
    /// Sine of an angle in radians (see the `eval` module on transcendentals).
    Fsin = "fsin": 1, 0, FLOAT, [0], [FLOAT];
    /// Cosine of an angle in radians (see the `eval` module on transcendentals).
    Fcos = "fcos": 1, 0, FLOAT, [0], [FLOAT];
    /// `a^b` (see the `eval` module on transcendentals).
    Fpow = "fpow": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT];
    /// The fractional part, `a - floor(a)`.
    Ffract = "ffract": 1, 0, FLOAT, [0], [FLOAT];
    /// The sign: 1.0, -1.0, the zero itself for a zero, 0.0 for NaN.
    Fsign = "fsign": 1, 0, FLOAT, [0], [FLOAT];
    /// Linear interpolation `a * (1 - c) + b * c`, each step rounded.
    Flrp = "flrp": 3, 0, FLOAT, [0, 0, 0], [FLOAT, FLOAT, FLOAT];
    /// Floored float modulus, `a - b * floor(a / b)`, each step rounded.
    Fmod = "fmod": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT];
    /// Truncated float remainder, `a - b * trunc(a / b)`, each step rounded.
    Frem = "frem": 2, 0, FLOAT, [0, 0], [FLOAT, FLOAT];
    /// `a * 2^b`; a result that is not a normal number (zero, subnormal, infinite, NaN) becomes a zero with the sign of `a`.
    Ldexp = "ldexp": 2, 0, FLOAT, [0, 0], [FLOAT, INT32];
    /// Dot product of two 2-component vectors, `a.y * b.y + a.x * b.x`, each step rounded.
    Fdot2 = "fdot2": 2, 1, FLOAT, [2, 2], [FLOAT, FLOAT], COMM;
    /// Dot product of two 3-component vectors, `(a.z * b.z + a.y * b.y) + a.x * b.x`, each step rounded.
    Fdot3 = "fdot3": 2, 1, FLOAT, [3, 3], [FLOAT, FLOAT], COMM;
    /// Dot product of two 4-component vectors, `(a.w * b.w + a.z * b.z) + (a.y * b.y + a.x * b.x)`, each step rounded.
    Fdot4 = "fdot4": 2, 1, FLOAT, [4, 4], [FLOAT, FLOAT], COMM;
    /// Rounds a 32-bit float to binary16 precision and back; magnitudes below 2^-14 become a zero of the same sign.
    Fquantize2f16 = "fquantize2f16": 1, 0, FLOAT32, [0], [FLOAT32];
    /// Float to 32-bit signed integer, truncating; out-of-range values saturate, NaN gives 0.
    F2i32 = "f2i32": 1, 0, INT32, [0], [FLOAT];
    /// Float to 32-bit unsigned integer, truncating; out-of-range values saturate, NaN gives 0.
    F2u32 = "f2u32": 1, 0, t(BaseType::Uint, 32), [0], [FLOAT];
    /// Signed integer to 32-bit float, rounded to nearest even.
    I2f32 = "i2f32": 1, 0, FLOAT32, [0], [INT];
    /// Unsigned integer to 32-bit float, rounded to nearest even.
    U2f32 = "u2f32": 1, 0, FLOAT32, [0], [UINT];
    /// Float to 16-bit float, rounded to nearest even.
    F2f16 = "f2f16": 1, 0, t(BaseType::Float, 16), [0], [FLOAT];
    /// Float to 32-bit float (exact from 16 bits, rounded to nearest even from 64).
    F2f32 = "f2f32": 1, 0, FLOAT32, [0], [FLOAT];
    /// Unsigned integer to 8 bits (truncates or zero-extends).
    U2u8 = "u2u8": 1, 0, t(BaseType::Uint, 8), [0], [UINT];
    /// Unsigned integer to 16 bits (truncates or zero-extends).
    U2u16 = "u2u16": 1, 0, t(BaseType::Uint, 16), [0], [UINT];
    /// Unsigned integer to 32 bits (truncates or zero-extends).
    U2u32 = "u2u32": 1, 0, UINT32, [0], [UINT];
    /// Unsigned integer to 64 bits (zero-extends).
    U2u64 = "u2u64": 1, 0, UINT64, [0], [UINT];
    /// Signed integer to 8 bits (truncates or sign-extends).
    I2i8 = "i2i8": 1, 0, t(BaseType::Int, 8), [0], [INT];
    /// Signed integer to 16 bits (truncates or sign-extends).
    I2i16 = "i2i16": 1, 0, t(BaseType::Int, 16), [0], [INT];
    /// Signed integer to 32 bits (truncates or sign-extends).
    I2i32 = "i2i32": 1, 0, INT32, [0], [INT];
    /// Signed integer to 64 bits (sign-extends).
    I2i64 = "i2i64": 1, 0, t(BaseType::Int, 64), [0], [INT];

    /// Two 32-bit floats rounded to binary16 and packed, `a` in the low 16 bits.
    PackHalf2x16Split = "pack_half_2x16_split": 2, 0, UINT32, [0, 0], [FLOAT32, FLOAT32];
    /// The binary16 in the low 16 bits, widened to a 32-bit float.
    UnpackHalf2x16SplitX = "unpack_half_2x16_split_x": 1, 0, FLOAT32, [0], [UINT32];
    /// The binary16 in the high 16 bits, widened to a 32-bit float.
    UnpackHalf2x16SplitY = "unpack_half_2x16_split_y": 1, 0, FLOAT32, [0], [UINT32];
    /// A 64-bit value from its low (`a`) and high (`b`) 32-bit halves.
    Pack64_2x32Split = "pack_64_2x32_split": 2, 0, UINT64, [0, 0], [UINT32, UINT32];
    /// The low 32 bits of a 64-bit value.
    Unpack64_2x32SplitX = "unpack_64_2x32_split_x": 1, 0, UINT32, [0], [UINT64];
    /// The high 32 bits of a 64-bit value.
    Unpack64_2x32SplitY = "unpack_64_2x32_split_y": 1, 0, UINT32, [0], [UINT64];
}

impl AluOp {
    /// NIR's name of the opcode.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The opcode called `name`, if any.
    pub fn from_name(name: &str) -> Option<AluOp> {
        AluOp::ALL.iter().copied().find(|op| op.name() == name)
    }

    /// Number of sources.
    pub fn num_inputs(self) -> usize {
        self.info().num_inputs as usize
    }

    /// Whether this is `vec2`/`vec3`/`vec4`/`vec8`/`vec16`.
    pub fn is_vec(self) -> bool {
        matches!(
            self,
            AluOp::Vec2 | AluOp::Vec3 | AluOp::Vec4 | AluOp::Vec8 | AluOp::Vec16
        )
    }

    /// The `vecN` opcode building `n` components, for n in 2, 3, 4, 8, 16 (NIR's).
    pub fn vec(n: u8) -> Option<AluOp> {
        match n {
            2 => Some(AluOp::Vec2),
            3 => Some(AluOp::Vec3),
            4 => Some(AluOp::Vec4),
            8 => Some(AluOp::Vec8),
            16 => Some(AluOp::Vec16),
            _ => None,
        }
    }

    /// Whether the op is a comparison producing a 1-bit boolean.
    pub fn is_comparison(self) -> bool {
        self.info().output_type == BOOL1
    }
}

impl std::fmt::Display for AluOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for &op in AluOp::ALL {
            assert_eq!(AluOp::from_name(op.name()), Some(op));
        }
        let mut names: Vec<_> = AluOp::ALL.iter().map(|o| o.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), AluOp::ALL.len());
    }

    #[test]
    fn shift_amount_is_32_bit() {
        for op in [AluOp::Ishl, AluOp::Ishr, AluOp::Ushr] {
            assert_eq!(op.info().input_types[1].bits, 32);
        }
    }
}
