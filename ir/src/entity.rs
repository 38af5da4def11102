//! Typed entity ids.
//!
//! Every id is a `u32` index into an arena of its [`Function`](crate::Function) or
//! [`Shader`](crate::Shader). Ids are never reused within a function, so a pass can keep
//! them in side tables while it rewrites the function.
//!
//! Value and block ids are dense: the parser numbers the values and blocks of a function
//! in the order the text first names them, whatever numbers the text wrote, so that
//! every arena and every side table indexed by id is as large as what exists (Cranelift's
//! reader pads its arenas up to the numbers written instead, which lets `%16777215` cost
//! gigabytes). The numbers the text wrote are kept by the function:
//! [`Function::value_name`](crate::Function::value_name) and
//! [`Function::block_name`](crate::Function::block_name) give a [`ValueName`] or a
//! [`BlockName`], whose `Display` is the text syntax (`%7`, `b3`). [`Value`] and [`Block`]
//! therefore have no `Display` of their own: an id alone cannot say how the text names
//! it. Their `Debug` form shows the arena index (`%7`, `b3`).

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

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

/// The `Display` of ids that have no text name of their own (their debug form).
macro_rules! display_as_debug {
    ($($name:ident),*) => {$(
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(self, f)
            }
        }
    )*};
}

entity!(
    /// An SSA value (NIR's `nir_def`). The text names it `%N` through its function
    /// ([`Function::value_name`](crate::Function::value_name)).
    Value,
    "%"
);
entity!(
    /// A basic block. The text names it `bN` through its function
    /// ([`Function::block_name`](crate::Function::block_name)).
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

display_as_debug!(Inst, IfId, LoopId, ImageId);

/// A value as the text names it: its id and the number written after `%`.
///
/// What messages about a value hold (validator, interpreter and lowering errors), so
/// that they show the number the user wrote (`%16777215`) rather than the arena index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ValueName {
    /// The value.
    pub value: Value,
    /// The number the text names it by.
    pub number: u32,
}

impl std::fmt::Display for ValueName {
    /// The text syntax, `%N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "%{}", self.number)
    }
}

/// A block as the text names it: its id and the number written after `b`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockName {
    /// The block.
    pub block: Block,
    /// The number the text names it by.
    pub number: u32,
}

impl std::fmt::Display for BlockName {
    /// The text syntax, `bN`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b{}", self.number)
    }
}
