//! NIR's atomic operations (`nir_atomic_op`), the `atomic_op` index of `image_atomic` and
//! `image_atomic_swap`.

spelled_enum! {
    /// A NIR atomic operation. The discriminants are NIR's enum values.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum AtomicOp {
        /// Every op.
        const ALL;
        /// NIR's name.
        fn name;
        /// Parses NIR's name.
        fn from_name;

        /// Integer add.
        Iadd = 0 => "iadd",
        /// Signed minimum.
        Imin = 1 => "imin",
        /// Unsigned minimum.
        Umin = 2 => "umin",
        /// Signed maximum.
        Imax = 3 => "imax",
        /// Unsigned maximum.
        Umax = 4 => "umax",
        /// Bitwise and.
        Iand = 5 => "iand",
        /// Bitwise or.
        Ior = 6 => "ior",
        /// Bitwise xor.
        Ixor = 7 => "ixor",
        /// Exchange.
        Xchg = 8 => "xchg",
        /// Float add.
        Fadd = 9 => "fadd",
        /// Float minimum.
        Fmin = 10 => "fmin",
        /// Float maximum.
        Fmax = 11 => "fmax",
        /// Integer compare-and-swap (`image_atomic_swap` only).
        Cmpxchg = 12 => "cmpxchg",
        /// Float compare-and-swap (`image_atomic_swap` only).
        Fcmpxchg = 13 => "fcmpxchg",
        /// Increment with wrap: `old >= data ? 0 : old + 1`.
        IncWrap = 14 => "inc_wrap",
        /// Decrement with wrap: `old == 0 || old > data ? data : old - 1`.
        DecWrap = 15 => "dec_wrap",
    }
}

impl AtomicOp {
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
