//! vISA element types and immediates.
//!
//! The types are those of the vISA spec (IGC `documentation/visa/2_datatypes.md`); the
//! text spells them in lower case, as IGC's printer does (`type=ud`, `0x1:ud`).

use std::fmt;

/// A vISA element type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum VType {
    /// Unsigned byte.
    Ub,
    /// Signed byte.
    B,
    /// Unsigned word.
    Uw,
    /// Signed word.
    W,
    /// Unsigned double word.
    Ud,
    /// Signed double word.
    D,
    /// Unsigned quad word.
    Uq,
    /// Signed quad word.
    Q,
    /// binary16.
    Hf,
    /// binary32.
    F,
    /// binary64.
    Df,
}

impl VType {
    /// The text spelling (`ud`).
    pub fn name(self) -> &'static str {
        match self {
            VType::Ub => "ub",
            VType::B => "b",
            VType::Uw => "uw",
            VType::W => "w",
            VType::Ud => "ud",
            VType::D => "d",
            VType::Uq => "uq",
            VType::Q => "q",
            VType::Hf => "hf",
            VType::F => "f",
            VType::Df => "df",
        }
    }

    /// Bytes per element.
    pub fn bytes(self) -> u32 {
        match self {
            VType::Ub | VType::B => 1,
            VType::Uw | VType::W | VType::Hf => 2,
            VType::Ud | VType::D | VType::F => 4,
            VType::Uq | VType::Q | VType::Df => 8,
        }
    }

    /// The unsigned integer type of `bits` bits (8, 16, 32, 64).
    pub fn uint(bits: u8) -> VType {
        match bits {
            8 => VType::Ub,
            16 => VType::Uw,
            64 => VType::Uq,
            _ => VType::Ud,
        }
    }

    /// The signed integer type of `bits` bits (8, 16, 32, 64).
    pub fn sint(bits: u8) -> VType {
        match bits {
            8 => VType::B,
            16 => VType::W,
            64 => VType::Q,
            _ => VType::D,
        }
    }

    /// The float type of `bits` bits (16, 32, 64); `None` for other sizes.
    pub fn float(bits: u8) -> Option<VType> {
        match bits {
            16 => Some(VType::Hf),
            32 => Some(VType::F),
            64 => Some(VType::Df),
            _ => None,
        }
    }

    /// Whether the type is a float type.
    pub fn is_float(self) -> bool {
        matches!(self, VType::Hf | VType::F | VType::Df)
    }

    /// An immediate of this type holding the low bits of `bits`, in the form IGC prints
    /// (`0x1f:ud`, `0x3f800000:f`). Byte types have no immediates in vISA: a byte
    /// immediate is written as a word of the same signedness, which the sources of
    /// mixed-type integer instructions accept.
    pub fn imm(self, bits: u64) -> String {
        let t = match self {
            VType::Ub => VType::Uw,
            VType::B => VType::W,
            t => t,
        };
        let mask = match t.bytes() {
            2 => 0xffff,
            4 => 0xffff_ffff,
            _ => u64::MAX,
        };
        format!("0x{:x}:{}", bits & mask, t.name())
    }
}

impl fmt::Display for VType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immediates_are_masked_and_bytes_widen_to_words() {
        assert_eq!(VType::Ud.imm(0x1_0000_0001), "0x1:ud");
        assert_eq!(VType::F.imm(0x3f80_0000), "0x3f800000:f");
        assert_eq!(VType::Ub.imm(0x1ff), "0x1ff:uw");
        assert_eq!(VType::B.imm(0xffff_ffff_ffff_ffff), "0xffff:w");
        assert_eq!(VType::Uq.imm(u64::MAX), "0xffffffffffffffff:uq");
        assert_eq!(VType::Hf.imm(0x3c00), "0x3c00:hf");
    }

    #[test]
    fn sizes() {
        for (t, b) in [
            (VType::Ub, 1),
            (VType::Hf, 2),
            (VType::D, 4),
            (VType::Df, 8),
        ] {
            assert_eq!(t.bytes(), b);
        }
        assert_eq!(VType::uint(16), VType::Uw);
        assert_eq!(VType::sint(64), VType::Q);
        assert_eq!(VType::float(8), None);
    }
}
