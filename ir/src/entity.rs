//! Typed entity ids.
//!
//! Every id is a `u32` index into an arena of its [`Function`](crate::Function) or
//! [`Shader`](crate::Shader). The `Display` form of an id is its text syntax: `%7` for a
//! value, `b3` for a block. Ids are never reused within a function, so a pass can keep
//! them in side tables while it rewrites the function.

macro_rules! entity {
    ($(#[$attr:meta])* $name:ident, $prefix:expr) => {
        $(#[$attr])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            /// The id with the given arena index.
            #[inline]
            pub const fn from_u32(index: u32) -> Self {
                Self(index)
            }

            /// The arena index of this id.
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }

            /// The arena index of this id, as a `usize`.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self, f)
            }
        }
    };
}

entity!(
    /// An SSA value (NIR's `nir_def`), printed `%N`.
    Value,
    "%"
);
entity!(
    /// A basic block, printed `bN`.
    Block,
    "b"
);
entity!(
    /// An instruction. Instructions have no text form of their own; `instN` is used in
    /// debug output only.
    Inst,
    "inst"
);
entity!(
    /// An `if` node of the structured control-flow tree.
    IfId,
    "if"
);
entity!(
    /// A `loop` node of the structured control-flow tree.
    LoopId,
    "loop"
);
entity!(
    /// An image declaration of a shader, printed through its name (`@img`).
    ImageId,
    "image"
);
