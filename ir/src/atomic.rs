//! NIR's atomic operations (`nir_atomic_op`), the `atomic_op` index of `image_atomic` and
//! `image_atomic_swap`.

use std::fmt;

/// A NIR atomic operation. The discriminants are NIR's enum values.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AtomicOp {
    /// Integer add.
    Iadd = 0,
    /// Signed minimum.
    Imin = 1,
    /// Unsigned minimum.
    Umin = 2,
    /// Signed maximum.
    Imax = 3,
    /// Unsigned maximum.
    Umax = 4,
    /// Bitwise and.
    Iand = 5,
    /// Bitwise or.
    Ior = 6,
    /// Bitwise xor.
    Ixor = 7,
    /// Exchange.
    Xchg = 8,
    /// Float add.
    Fadd = 9,
    /// Float minimum.
    Fmin = 10,
    /// Float maximum.
    Fmax = 11,
    /// Integer compare-and-swap (`image_atomic_swap` only).
    Cmpxchg = 12,
    /// Float compare-and-swap (`image_atomic_swap` only).
    Fcmpxchg = 13,
    /// Increment with wrap: `old >= data ? 0 : old + 1`.
    IncWrap = 14,
    /// Decrement with wrap: `old == 0 || old > data ? data : old - 1`.
    DecWrap = 15,
}

impl AtomicOp {
    /// Every op.
    pub const ALL: [AtomicOp; 16] = [
        AtomicOp::Iadd,
        AtomicOp::Imin,
        AtomicOp::Umin,
        AtomicOp::Imax,
        AtomicOp::Umax,
        AtomicOp::Iand,
        AtomicOp::Ior,
        AtomicOp::Ixor,
        AtomicOp::Xchg,
        AtomicOp::Fadd,
        AtomicOp::Fmin,
        AtomicOp::Fmax,
        AtomicOp::Cmpxchg,
        AtomicOp::Fcmpxchg,
        AtomicOp::IncWrap,
        AtomicOp::DecWrap,
    ];

    /// NIR's name.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Iadd => "iadd",
            AtomicOp::Imin => "imin",
            AtomicOp::Umin => "umin",
            AtomicOp::Imax => "imax",
            AtomicOp::Umax => "umax",
            AtomicOp::Iand => "iand",
            AtomicOp::Ior => "ior",
            AtomicOp::Ixor => "ixor",
            AtomicOp::Xchg => "xchg",
            AtomicOp::Fadd => "fadd",
            AtomicOp::Fmin => "fmin",
            AtomicOp::Fmax => "fmax",
            AtomicOp::Cmpxchg => "cmpxchg",
            AtomicOp::Fcmpxchg => "fcmpxchg",
            AtomicOp::IncWrap => "inc_wrap",
            AtomicOp::DecWrap => "dec_wrap",
        }
    }

    /// Parses NIR's name.
    pub fn from_name(s: &str) -> Option<AtomicOp> {
        AtomicOp::ALL.iter().copied().find(|o| o.name() == s)
    }

    /// Whether this op compares and swaps (two data operands).
    pub fn is_swap(self) -> bool {
        matches!(self, AtomicOp::Cmpxchg | AtomicOp::Fcmpxchg)
    }

    /// Whether the data is floating point.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            AtomicOp::Fadd | AtomicOp::Fmin | AtomicOp::Fmax | AtomicOp::Fcmpxchg
        )
    }

    /// Index encoding (NIR's enum value).
    pub fn to_index(self) -> u32 {
        self as u32
    }

    /// Inverse of [`AtomicOp::to_index`].
    pub fn from_index(v: u32) -> Option<AtomicOp> {
        AtomicOp::ALL.get(v as usize).copied()
    }
}

impl fmt::Display for AtomicOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
