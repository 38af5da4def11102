//! How the text wrote a swizzle, kept so that diagnostics can echo it and point at it.
//!
//! A swizzle's components can be spelled with `xyzw` or with `a` to `p`, and the printer
//! picks one alphabet by the value's width, so the IR alone cannot say what the user
//! wrote. The parser records, for every explicit swizzle, where it starts and which
//! letters it used; the validator quotes the swizzle as written (".xyzw reads
//! component 2 of %0, which has 2 components") with the caret on it. Passes that rewrite a
//! source leave a stale record behind, which is never used: a record applies only to
//! a source equal to the one it was made for.

use crate::entity::{IfId, Inst};
use crate::span::Span;
use crate::types::{swizzle_letter, Src};

/// Where a source is read: an instruction or the condition of an `if`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SrcSite {
    /// A source of an instruction (ALU, phi, intrinsic, image index).
    Inst(Inst),
    /// The condition of an `if`.
    If(IfId),
}

/// A swizzle as written in the text: the source it belongs to, the position of its
/// `.`, and the alphabet of each letter.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SwizzleSpelling {
    /// The source, swizzle included.
    pub src: Src,
    /// The position of the `.` that starts the swizzle.
    pub span: Span,
    /// Bit `i` set: letter `i` was one of `xyzw`; clear: one of `a` to `p`.
    pub xyzw: u16,
}

impl SwizzleSpelling {
    /// The letters as written, without the `.`.
    pub fn letters(&self) -> String {
        self.src
            .swizzle
            .components()
            .enumerate()
            .map(|(i, c)| {
                if self.xyzw & (1 << i) != 0 {
                    swizzle_letter(c, 4)
                } else {
                    swizzle_letter(c, 16)
                }
            })
            .collect()
    }
}
