//! Small pieces of wording the messages of every topic share.

use crate::intrinsic::IntrinsicOp;
use crate::span::Span;
use std::fmt;

/// `"s"` unless `n` is 1.
pub(super) fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// An intrinsic as a message names it: `` `@image_load` ``.
pub(super) struct Intr(pub(super) IntrinsicOp);

impl fmt::Display for Intr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`@{}`", self.0.name())
    }
}

/// ` (first at 3:1)` after a duplicate, or nothing when the first one has no position.
pub(super) struct FirstAt(pub(super) Span);

impl fmt::Display for FirstAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_known() {
            write!(f, " (first at {})", self.0)
        } else {
            Ok(())
        }
    }
}

/// ` at 3:5` after "its definition", or nothing when the definition has no position.
pub(super) struct DefinedAt(pub(super) Span);

impl fmt::Display for DefinedAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_known() {
            write!(f, " at {}", self.0)
        } else {
            Ok(())
        }
    }
}
