//! vISA's fundamental data types and the execution-size and mask controls of an
//! instruction (IGC `documentation/visa/2_datatypes.md` and `3_execution_model.md`).

use std::fmt;

/// A vISA data type, with the spelling of the text format (`ud`, `d`, `uw`, `w`, `ub`,
/// `b`, `df`, `f`, `v`, `vf`, `bool`, `uq`, `uv`, `q`, `hf`, `bf`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VType {
    /// Unsigned double word (32 bits).
    Ud,
    /// Signed double word.
    D,
    /// Unsigned word (16 bits).
    Uw,
    /// Signed word.
    W,
    /// Unsigned byte.
    Ub,
    /// Signed byte.
    B,
    /// Double-precision float.
    Df,
    /// Single-precision float.
    F,
    /// Packed vector of eight signed 4-bit integers (immediates only).
    V,
    /// Packed vector of four 8-bit restricted floats (immediates only).
    Vf,
    /// One bit (predicates only).
    Bool,
    /// Unsigned quad word (64 bits).
    Uq,
    /// Packed vector of eight unsigned 4-bit integers (immediates only).
    Uv,
    /// Signed quad word.
    Q,
    /// Half-precision float (IEEE binary16).
    Hf,
    /// bfloat16.
    Bf,
}

/// The class of a type for arithmetic: integers, floats, or neither (packed vectors
/// and bool).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeClass {
    /// An integer type (`b` to `uq`).
    Int,
    /// A float type (`hf`, `bf`, `f`, `df`).
    Float,
    /// A packed immediate vector or bool.
    Other,
}

impl VType {
    /// Every type, for tables and tests.
    pub const ALL: [VType; 16] = [
        VType::Ud,
        VType::D,
        VType::Uw,
        VType::W,
        VType::Ub,
        VType::B,
        VType::Df,
        VType::F,
        VType::V,
        VType::Vf,
        VType::Bool,
        VType::Uq,
        VType::Uv,
        VType::Q,
        VType::Hf,
        VType::Bf,
    ];

    /// The type named `s` in the text format (any case, as IGC's lexer lowers it).
    pub fn from_name(s: &str) -> Option<VType> {
        let lower = s.to_ascii_lowercase();
        VType::ALL.into_iter().find(|t| t.name() == lower)
    }

    /// The text-format spelling.
    pub fn name(self) -> &'static str {
        match self {
            VType::Ud => "ud",
            VType::D => "d",
            VType::Uw => "uw",
            VType::W => "w",
            VType::Ub => "ub",
            VType::B => "b",
            VType::Df => "df",
            VType::F => "f",
            VType::V => "v",
            VType::Vf => "vf",
            VType::Bool => "bool",
            VType::Uq => "uq",
            VType::Uv => "uv",
            VType::Q => "q",
            VType::Hf => "hf",
            VType::Bf => "bf",
        }
    }

    /// Bytes of one element in a register (packed vectors: the whole dword; bool: 1,
    /// though predicates are not stored in general registers).
    pub fn size(self) -> u32 {
        match self {
            VType::Ub | VType::B | VType::Bool => 1,
            VType::Uw | VType::W | VType::Hf | VType::Bf => 2,
            VType::Ud | VType::D | VType::F | VType::V | VType::Vf | VType::Uv => 4,
            VType::Df | VType::Uq | VType::Q => 8,
        }
    }

    /// Bits of one element.
    pub fn bits(self) -> u32 {
        self.size() * 8
    }

    /// Integer, float or other.
    pub fn class(self) -> TypeClass {
        match self {
            VType::Ud | VType::D | VType::Uw | VType::W | VType::Ub | VType::B => TypeClass::Int,
            VType::Uq | VType::Q => TypeClass::Int,
            VType::Df | VType::F | VType::Hf | VType::Bf => TypeClass::Float,
            VType::V | VType::Vf | VType::Uv | VType::Bool => TypeClass::Other,
        }
    }

    /// An integer type.
    pub fn is_int(self) -> bool {
        self.class() == TypeClass::Int
    }

    /// A float type.
    pub fn is_float(self) -> bool {
        self.class() == TypeClass::Float
    }

    /// A signed integer type (`b`, `w`, `d`, `q`).
    pub fn is_signed_int(self) -> bool {
        matches!(self, VType::B | VType::W | VType::D | VType::Q)
    }

    /// The smallest value of an integer type (0 for unsigned ones).
    pub fn int_min(self) -> i128 {
        if self.is_signed_int() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    /// The largest value of an integer type.
    pub fn int_max(self) -> i128 {
        if self.is_signed_int() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// Types a general variable may be declared with (`.decl ... v_type=G type=`): the
    /// integer and float types (IGC's lexer also takes `bool`, which no instruction
    /// here reads from a general variable).
    pub fn is_storage(self) -> bool {
        matches!(self.class(), TypeClass::Int | TypeClass::Float)
    }
}

impl fmt::Display for VType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The execution size and mask control of an instruction: `(M1, 16)`, `(M5_NM, 8)`.
///
/// `M1`..`M8` select the channel offset 0, 4, ..., 28 into the 32-bit execution mask
/// and the predicate; `_NM` (NoMask) ignores the execution mask (the channels are still
/// subject to the predicate).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExecCtrl {
    /// Channels: 1, 2, 4, 8, 16 or 32.
    pub size: u8,
    /// First channel: 0, 4, ..., 28.
    pub offset: u8,
    /// NoMask: the execution mask is ignored.
    pub no_mask: bool,
}

impl ExecCtrl {
    /// `(M1, size)`.
    pub fn m1(size: u8) -> ExecCtrl {
        ExecCtrl {
            size,
            offset: 0,
            no_mask: false,
        }
    }

    /// The mask-control name (`M1`, `M5_NM`, ...).
    pub fn mask_name(self) -> String {
        let n = self.offset / 4 + 1;
        if self.no_mask {
            format!("M{n}_NM")
        } else {
            format!("M{n}")
        }
    }

    /// The bits of the channels this instruction covers, `offset .. offset + size`, in
    /// the 32-bit mask.
    pub fn channel_bits(self) -> u32 {
        let ones = if self.size >= 32 {
            u32::MAX
        } else {
            (1u32 << self.size) - 1
        };
        ones << self.offset
    }
}

impl fmt::Display for ExecCtrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.mask_name(), self.size)
    }
}

/// How a predicate's bits are combined before use (`.any`, `.all`), vISA's
/// "Predicate Combine".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PredCombine {
    /// Channel `n` uses bit `offset + n`.
    Sequential,
    /// Every channel uses "any bit of the instruction's range is set".
    Any,
    /// Every channel uses "every bit of the instruction's range is set".
    All,
}

/// The relational operator of `cmp` (`eq`, `ne`, `gt`, `ge`, `lt`, `le`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CondMod {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
}

impl CondMod {
    /// The operator named `s` (any case).
    pub fn from_name(s: &str) -> Option<CondMod> {
        Some(match s.to_ascii_lowercase().as_str() {
            "eq" => CondMod::Eq,
            "ne" => CondMod::Ne,
            "gt" => CondMod::Gt,
            "ge" => CondMod::Ge,
            "lt" => CondMod::Lt,
            "le" => CondMod::Le,
            _ => return None,
        })
    }

    /// The text spelling.
    pub fn name(self) -> &'static str {
        match self {
            CondMod::Eq => "eq",
            CondMod::Ne => "ne",
            CondMod::Gt => "gt",
            CondMod::Ge => "ge",
            CondMod::Lt => "lt",
            CondMod::Le => "le",
        }
    }
}

/// A source modifier: `(-)`, `(abs)`, `(-abs)` (arithmetic) or `(~)` (logic).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SrcMod {
    /// No modifier.
    None,
    /// Negate.
    Neg,
    /// Absolute value.
    Abs,
    /// Negated absolute value.
    NegAbs,
    /// Bitwise not.
    Not,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sizes_follow_the_type_table() {
        for t in VType::ALL {
            assert_eq!(VType::from_name(t.name()), Some(t));
            assert_eq!(VType::from_name(&t.name().to_uppercase()), Some(t));
        }
        // 2_datatypes.md: UD 32, UW 16, UB 8, DF 64, F 32, UQ 64, HF 16, BF 16 bits.
        assert_eq!(VType::Ud.bits(), 32);
        assert_eq!(VType::Uw.bits(), 16);
        assert_eq!(VType::B.bits(), 8);
        assert_eq!(VType::Df.bits(), 64);
        assert_eq!(VType::Q.bits(), 64);
        assert_eq!(VType::Hf.bits(), 16);
        assert_eq!(VType::Bf.bits(), 16);
        assert_eq!(VType::from_name("x"), None);
    }

    #[test]
    fn integer_ranges_are_the_saturation_ranges() {
        // The saturation table of 2_datatypes.md.
        assert_eq!((VType::Ub.int_min(), VType::Ub.int_max()), (0, 255));
        assert_eq!((VType::B.int_min(), VType::B.int_max()), (-128, 127));
        assert_eq!((VType::W.int_min(), VType::W.int_max()), (-32768, 32767));
        assert_eq!(VType::Ud.int_max(), 4_294_967_295);
        assert_eq!(VType::D.int_min(), -2_147_483_648);
        assert_eq!(VType::Uq.int_max(), u64::MAX as i128);
        assert_eq!(VType::Q.int_min(), i64::MIN as i128);
    }

    #[test]
    fn channel_bits_cover_offset_and_size() {
        let e = ExecCtrl {
            size: 16,
            offset: 16,
            no_mask: true,
        };
        assert_eq!(e.channel_bits(), 0xffff_0000);
        assert_eq!(e.mask_name(), "M5_NM");
        assert_eq!(ExecCtrl::m1(32).channel_bits(), u32::MAX);
        assert_eq!(ExecCtrl::m1(1).channel_bits(), 1);
    }
}
