//! The bounds the parser holds every input to, so that no text can make it allocate
//! unbounded arenas or overflow the stack.

/// Value ids must be below this bound (`%16777215` is the largest). Ids index the value
/// arena, so the bound caps what one line of text can make the parser allocate. It holds
/// for the shader as a whole: the value arenas of all its functions together have at most
/// this many entries, so that repeating a short function cannot multiply the allocation.
pub const MAX_VALUE_ID: u32 = 1 << 24;

/// Block ids must be below this bound (`b4194303` is the largest); blocks are larger
/// than values, hence the lower bound. Like [`MAX_VALUE_ID`], a budget for the whole
/// shader.
pub const MAX_BLOCK_ID: u32 = 1 << 22;

/// The deepest nesting of `if` and `loop` the parser accepts.
pub const MAX_NESTING: u32 = 128;
