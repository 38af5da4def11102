//! The bounds the parser holds every input to.

/// Value numbers must be below this bound (`%16777215` is the largest). The numbers are
/// names only: a function's values get dense ids whatever the text writes, so the bound
/// costs no memory; it keeps the numbers, and those the passes count on from the largest
/// (see `Function::value_name`), far from overflowing 32 bits.
pub const MAX_VALUE_ID: u32 = 1 << 24;

/// Block numbers must be below this bound (`b4194303` is the largest); like
/// [`MAX_VALUE_ID`], a bound on the names, not on memory.
pub const MAX_BLOCK_ID: u32 = 1 << 22;

/// The deepest nesting of `if` and `loop` the parser accepts.
pub const MAX_NESTING: u32 = 128;
