//! Operands: types, value ids with their swizzles, block labels.

use super::lexer::is_word_byte;
use super::limits::{MAX_BLOCK_ID, MAX_VALUE_ID};
use super::literal::{id_below, shorten};
use super::parser::{error, FnState, PResult, Parser};
use crate::entity::{Block, Value};
use crate::function::SwizzleSpelling;
use crate::span::Span;
use crate::types::{swizzle_component, Src, Swizzle, Type};

use smallvec::SmallVec;

impl<'a> Parser<'a> {
    /// `<bits>` or `<bits>x<components>`
    pub(super) fn ty(&mut self) -> PResult<Type> {
        let span = self.here();
        let w = self.lx.peek_word();
        if !w.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.expected("a type (`32`, `32x4`)"));
        }
        let (bits, comps) = match w.split_once('x') {
            Some((b, c)) => (b, Some(c)),
            None => (w, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(bits) || comps.is_some_and(|c| !all_digits(c)) {
            return Err(error(
                span,
                format!(
                    "malformed type `{}` (expected `<bits>` or `<bits>x<components>`, as `32` or `32x4`)",
                    shorten(w)
                ),
            ));
        }
        let small = |s: &str| s.parse::<u8>().ok();
        let Some(b) = small(bits).filter(|&b| Type::is_valid_bit_size(b)) else {
            return Err(error(
                span,
                format!("bit size {} is not one of 1, 8, 16, 32, 64", shorten(bits)),
            ));
        };
        let n = match comps {
            None => 1,
            Some(c) => match small(c).filter(|&n| Type::is_valid_num_components(n)) {
                Some(n) => n,
                None => {
                    return Err(error(
                        span,
                        format!(
                            "component count {} is not one of 1, 2, 3, 4, 8, 16",
                            shorten(c)
                        ),
                    ))
                }
            },
        };
        self.lx.bump(w.len());
        Ok(Type::new(b, n).expect("bit size and component count were checked"))
    }

    /// `%N`
    pub(super) fn value_id(&mut self, st: &mut FnState) -> PResult<Value> {
        let span = self.here();
        if self.lx.peek() != Some(b'%')
            || !self.lx.peek_raw_at(1).is_some_and(|b| b.is_ascii_digit())
        {
            return Err(self.expected("a value (`%N`)"));
        }
        self.lx.bump(1);
        let digits = self.lx.take_while(|b| b.is_ascii_digit());
        if self.lx.peek_raw().is_some_and(is_word_byte) {
            let rest = self.lx.take_while(is_word_byte);
            return Err(error(
                span,
                format!("malformed value `%{}{}`", digits, shorten(rest)),
            ));
        }
        let n = id_below(span, digits, "value", '%', MAX_VALUE_ID)?;
        // The value gets the next id where the text first names it: a use may come
        // before the definition (phis at loop headers), and a value may be used and
        // never defined (the validator reports that).
        let (id, new) = st.values.id(n);
        let v = Value::from_u32(id);
        if new {
            st.func.reserve_value(v);
        }
        Ok(v)
    }

    /// `%N` or `%N.<swizzle>`
    pub(super) fn src(&mut self, st: &mut FnState) -> PResult<Src> {
        let value = self.value_id(st)?;
        if self.lx.peek_raw() != Some(b'.') || !self.lx.peek_raw_at(1).is_some_and(is_word_byte) {
            return Ok(Src::new(value));
        }
        let span = self.lx.span();
        self.lx.bump(1);
        let letters = self.lx.take_while(is_word_byte);
        let mut comps: SmallVec<[u8; 16]> = SmallVec::new();
        let mut xyzw = 0u16;
        for c in letters.chars() {
            match swizzle_component(c) {
                Some(i) => {
                    if matches!(c, 'x' | 'y' | 'z' | 'w') && comps.len() < 16 {
                        xyzw |= 1 << comps.len();
                    }
                    comps.push(i)
                }
                None => {
                    return Err(error(
                        span,
                        format!(
                            "invalid swizzle `.{}`: `{c}` is not a component (expected letters from `xyzw` or `a` to `p`)",
                            shorten(letters)
                        ),
                    ))
                }
            }
        }
        let Some(swizzle) = Swizzle::new(&comps) else {
            return Err(error(
                span,
                format!(
                    "swizzle `.{}` selects {} components; at most 16 are allowed",
                    shorten(letters),
                    comps.len()
                ),
            ));
        };
        let src = Src { value, swizzle };
        st.swizzles.push(SwizzleSpelling { src, span, xyzw });
        Ok(src)
    }

    /// `bN`: the block, its written number and where it is written.
    pub(super) fn block_label(&mut self, st: &mut FnState) -> PResult<(Block, u32, Span)> {
        let span = self.here();
        let w = self.lx.peek_word();
        let digits = match w.strip_prefix('b') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => d,
            _ => return Err(self.expected("a block label (`bN`)")),
        };
        let n = id_below(span, digits, "block", 'b', MAX_BLOCK_ID)?;
        self.lx.bump(w.len());
        let (id, new) = st.blocks.id(n);
        let b = Block::from_u32(id);
        if new {
            st.func.reserve_block(b);
        }
        Ok((b, n, span))
    }
}
