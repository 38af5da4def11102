//! The shader's constant data: `constant_data (size=N) { 0x0000: 00 01 ... }`.

use super::literal::shorten;
use super::parser::{error, PResult, Parser};
use crate::span::Span;

impl Parser<'_> {
    /// `constant_data (size=N) { OFFSET: BYTE ... }`: lines of bytes, two hex digits
    /// each, every line after the offset of its first byte (`0x0010:`), which must be
    /// the number of bytes before it; `size` must be the number of bytes in all.
    pub(super) fn constant_data(&mut self) -> PResult<()> {
        let span = self.here();
        self.keyword("constant_data");
        if self.shader.constant_data_span != Span::UNKNOWN || !self.shader.constant_data.is_empty()
        {
            let first = self.shader.constant_data_span;
            return Err(error(
                span,
                format!("`constant_data` is given twice (first at {first})"),
            ));
        }
        self.expect(b'(', "`(size=N)`")?;
        let kspan = self.here();
        if self.lx.peek_word() != "size" {
            return Err(error(
                kspan,
                format!("expected `size` but found {}", self.lx.found()),
            ));
        }
        self.keyword("size");
        self.expect(b'=', "`=`")?;
        let size = self.number_u32("the constant data's size in bytes")?;
        self.expect(b')', "`)`")?;
        let open = self.here();
        self.expect(b'{', "`{` and the constant data's bytes")?;
        let mut data: Vec<u8> = Vec::new();
        while !self.lx.eat(b'}') {
            let lspan = self.here();
            let label = self.lx.peek_word();
            let offset = label
                .strip_prefix("0x")
                .filter(|h| !h.is_empty())
                .and_then(|h| u64::from_str_radix(h, 16).ok());
            let Some(offset) = offset else {
                return Err(if label.is_empty() {
                    self.expected("a line's offset (`0x0010:`) or `}`")
                } else {
                    error(
                        lspan,
                        format!(
                            "expected a line's offset in hex (`0x0010:`) but found `{}`",
                            shorten(label)
                        ),
                    )
                });
            };
            if offset != data.len() as u64 {
                return Err(error(
                    lspan,
                    format!(
                        "this line starts at byte 0x{offset:x}, but 0x{:x} bytes come before it",
                        data.len()
                    ),
                ));
            }
            self.lx.bump(label.len());
            self.expect(b':', "`:` after the line's offset")?;
            // The bytes of the line: two hex digits each, up to the line's end.
            let mut any = false;
            while !self.lx.at_line_break() && self.lx.peek() != Some(b'}') {
                let bspan = self.here();
                let w = self.lx.peek_word();
                let byte = (w.len() == 2)
                    .then(|| u8::from_str_radix(w, 16).ok())
                    .flatten();
                let Some(byte) = byte else {
                    return Err(if w.is_empty() {
                        self.expected("a byte (two hex digits)")
                    } else {
                        error(
                            bspan,
                            format!("`{}` is not a byte (two hex digits)", shorten(w)),
                        )
                    });
                };
                if data.len() as u64 >= u64::from(size) {
                    return Err(error(
                        bspan,
                        format!("more bytes than the {size} that `size` gives"),
                    ));
                }
                data.push(byte);
                any = true;
                self.lx.bump(2);
            }
            if !any {
                return Err(error(lspan, "a line of constant data without bytes"));
            }
        }
        if data.len() as u64 != u64::from(size) {
            return Err(error(
                open,
                format!(
                    "the constant data holds {} bytes, but `size` gives {size}",
                    data.len()
                ),
            ));
        }
        self.shader.constant_data = data;
        self.shader.constant_data_span = span;
        Ok(())
    }
}
