//! How the text wrote a swizzle, kept so that diagnostics can echo it and point at it.
//!
//! A swizzle's components can be spelled with `xyzw` or with `a` to `p`, and the printer
//! picks one alphabet by the value's width, so the IR alone cannot say what the user
//! wrote. The parser records, for every explicit swizzle, where it starts and which
//! letters it used; the validator quotes the swizzle as written (".xyzw reads
//! component 2 of %0, which has 2 components") with the caret on it. Passes that rewrite a
//! source leave a stale record behind, which is never used: a record applies only to
//! a source equal to the one it was made for.
//!
//! The records of a function are two vectors sorted by id, one for instructions and
//! one for `if`s: the parser creates instructions and `if`s in text order, so recording
//! appends, and a lookup is a binary search. (A hash map keyed by site made parsing a
//! large shader about a sixth slower and its peak memory a third larger; the vectors
//! cost about 3% of the parse and half that memory.)

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

/// The swizzle spellings of one function, by the site that reads each source.
#[derive(Clone, Default, Debug)]
pub(super) struct Spellings {
    insts: Vec<(Inst, SwizzleSpelling)>,
    ifs: Vec<(IfId, SwizzleSpelling)>,
}

impl Spellings {
    pub(super) fn record(&mut self, site: SrcSite, spelling: SwizzleSpelling) {
        match site {
            SrcSite::Inst(i) => insert_sorted(&mut self.insts, i, spelling),
            SrcSite::If(i) => insert_sorted(&mut self.ifs, i, spelling),
        }
    }

    pub(super) fn find(&self, site: SrcSite, src: Src) -> Option<&SwizzleSpelling> {
        match site {
            SrcSite::Inst(i) => find_sorted(&self.insts, i, src),
            SrcSite::If(i) => find_sorted(&self.ifs, i, src),
        }
    }
}

/// Inserts after every entry of a key up to `key`: an append when records come in
/// order, as the parser's do.
fn insert_sorted<K: Ord + Copy>(v: &mut Vec<(K, SwizzleSpelling)>, key: K, s: SwizzleSpelling) {
    let at = match v.last() {
        Some(&(last, _)) if last > key => v.partition_point(|&(k, _)| k <= key),
        _ => v.len(),
    };
    v.insert(at, (key, s));
}

fn find_sorted<K: Ord + Copy>(
    v: &[(K, SwizzleSpelling)],
    key: K,
    src: Src,
) -> Option<&SwizzleSpelling> {
    let first = v.partition_point(|&(k, _)| k < key);
    v[first..]
        .iter()
        .take_while(|&&(k, _)| k == key)
        .map(|(_, s)| s)
        .find(|s| s.src == src)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Value;
    use crate::types::Swizzle;

    fn spelling(value: u32, comps: &[u8], col: u32) -> SwizzleSpelling {
        SwizzleSpelling {
            src: Src {
                value: Value::from_u32(value),
                swizzle: Swizzle::new(comps).unwrap(),
            },
            span: Span::new(1, col),
            xyzw: 0xffff,
        }
    }

    #[test]
    fn records_are_found_by_site_and_source_in_any_order() {
        let mut t = Spellings::default();
        let (a, b, c, d) = (
            spelling(0, &[1], 10),
            spelling(0, &[0, 1], 20),
            spelling(3, &[2], 30),
            spelling(0, &[1], 40),
        );
        // In text order, then one out of order (an API user may record any way).
        t.record(SrcSite::Inst(Inst::from_u32(2)), a);
        t.record(SrcSite::If(IfId::from_u32(0)), c);
        t.record(SrcSite::Inst(Inst::from_u32(5)), b);
        t.record(SrcSite::Inst(Inst::from_u32(2)), b);
        t.record(SrcSite::Inst(Inst::from_u32(1)), d);
        let at = |i: u32, s: &SwizzleSpelling| {
            t.find(SrcSite::Inst(Inst::from_u32(i)), s.src)
                .map(|s| s.span.col)
        };
        assert_eq!(at(2, &a), Some(10));
        assert_eq!(at(2, &b), Some(20));
        assert_eq!(at(5, &b), Some(20));
        assert_eq!(at(1, &d), Some(40));
        // A source not recorded at a site (a stale record's source was rewritten).
        assert_eq!(at(5, &a), None);
        assert_eq!(at(3, &a), None);
        assert_eq!(at(9, &a), None);
        // `if` conditions are their own sites: Inst(0) and If(0) differ.
        assert_eq!(
            t.find(SrcSite::If(IfId::from_u32(0)), c.src)
                .map(|s| s.span.col),
            Some(30)
        );
        assert_eq!(t.find(SrcSite::Inst(Inst::from_u32(0)), c.src), None);
    }

    #[test]
    fn letters_follow_the_alphabet_of_each_letter() {
        let mut s = spelling(0, &[0, 1, 4], 1);
        s.xyzw = 0b001;
        assert_eq!(s.letters(), "xbe");
    }
}
