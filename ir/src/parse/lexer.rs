//! A byte scanner for the text format.
//!
//! The grammar is small and context dependent (an index value such as `d32.xyzw` or
//! `readonly|coherent` is one word after `=`, a type such as `32x4` is one word at the
//! start of an instruction), so the parser pulls the shape of token it expects next from
//! the scanner rather than reading a pre-built token stream. Every method works on byte
//! slices of the input and returns borrowed slices: no allocation per token, one pass
//! over the text.

use crate::span::Span;

/// The scanner: a position in the text plus what is needed to turn positions into
/// 1-based line and column numbers.
pub(crate) struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// Column cache: the character column of `cache_pos`, a position on the current line.
    /// Spans are asked for in increasing order, so counting from the last answer keeps
    /// column computation linear overall even on very long lines.
    cache_pos: usize,
    cache_col: u32,
    /// Whether a line break was skipped since the last consumed token.
    newline_before: bool,
}

/// Whether `b` may appear in a word (names, keywords, numbers, types, labels).
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Lexer<'a> {
    /// A scanner at the start of `text`.
    pub(crate) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
            cache_pos: 0,
            cache_col: 1,
            newline_before: true,
        }
    }

    /// Skips blanks, line breaks and `//` comments.
    ///
    /// A line break is LF, CRLF or a lone CR (classic Mac OS files), as in
    /// [`crate::span::source_lines`], so that spans and the lines a diagnostic shows
    /// agree whatever the file's convention.
    pub(crate) fn skip_trivia(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\t' => self.pos += 1,
                b'\n' | b'\r' => {
                    self.pos += 1;
                    if b == b'\r' && self.bytes.get(self.pos) == Some(&b'\n') {
                        self.pos += 1;
                    }
                    self.line += 1;
                    self.line_start = self.pos;
                    self.cache_pos = self.pos;
                    self.cache_col = 1;
                    self.newline_before = true;
                }
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    // A comment runs to the line break, which the loop then counts.
                    match self.bytes[self.pos..]
                        .iter()
                        .position(|&c| c == b'\n' || c == b'\r')
                    {
                        Some(n) => self.pos += n,
                        None => self.pos = self.bytes.len(),
                    }
                }
                _ => break,
            }
        }
    }

    /// The next significant byte, after trivia.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.skip_trivia();
        self.bytes.get(self.pos).copied()
    }

    /// The byte right at the position, without skipping anything.
    pub(crate) fn peek_raw(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// The byte `n` past the position, without skipping anything.
    pub(crate) fn peek_raw_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    /// Whether the next significant token starts a new line (or the input ended), so a
    /// statement ending here is complete.
    pub(crate) fn at_line_break(&mut self) -> bool {
        self.skip_trivia();
        self.newline_before || self.pos >= self.bytes.len()
    }

    /// Consumes `n` bytes of the current token.
    pub(crate) fn bump(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.bytes.len());
        self.newline_before = false;
    }

    /// Consumes `b` if it is the next significant byte.
    pub(crate) fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.bump(1);
            true
        } else {
            false
        }
    }

    /// The span of the current position (call after [`Lexer::peek`] so that trivia is
    /// skipped).
    pub(crate) fn span(&mut self) -> Span {
        let pos = self.pos;
        if pos < self.cache_pos || self.cache_pos < self.line_start {
            self.cache_pos = self.line_start;
            self.cache_col = 1;
        }
        // Count characters, not bytes: UTF-8 continuation bytes do not start one.
        let chars = self.bytes[self.cache_pos..pos]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count() as u32;
        self.cache_col = self.cache_col.saturating_add(chars);
        self.cache_pos = pos;
        Span::new(self.line, self.cache_col)
    }

    /// The word at the position (`[A-Za-z0-9_]+`), without consuming it; empty if none.
    pub(crate) fn peek_word(&mut self) -> &'a str {
        self.skip_trivia();
        let end = self.word_end(self.pos);
        &self.text[self.pos..end]
    }

    fn word_end(&self, from: usize) -> usize {
        let mut end = from;
        while end < self.bytes.len() && is_word_byte(self.bytes[end]) {
            end += 1;
        }
        end
    }

    /// Consumes and returns a word; empty (and nothing consumed) if there is none.
    #[cfg(test)]
    pub(crate) fn word(&mut self) -> &'a str {
        let w = self.peek_word();
        self.bump(w.len());
        w
    }

    /// Consumes a run of bytes satisfying `pred` right at the position (no trivia
    /// skipped) and returns it.
    pub(crate) fn take_while(&mut self, pred: impl Fn(u8) -> bool) -> &'a str {
        let start = self.pos;
        let mut end = start;
        while end < self.bytes.len() && pred(self.bytes[end]) {
            end += 1;
        }
        if end > start {
            self.bump(end - start);
        }
        &self.text[start..end]
    }

    /// Consumes the spelling of a constant: an optional `-`, then word bytes and `.`,
    /// with a sign allowed right after the exponent letter of a decimal float
    /// (`-1.5e-3`).
    pub(crate) fn literal(&mut self) -> &'a str {
        self.skip_trivia();
        let start = self.pos;
        let mut end = start;
        if self.bytes.get(end) == Some(&b'-') {
            end += 1;
        }
        let hex = self.bytes[end..].starts_with(b"0x") || self.bytes[end..].starts_with(b"0X");
        while let Some(&b) = self.bytes.get(end) {
            let sign_after_exponent = !hex
                && (b == b'+' || b == b'-')
                && end > start
                && matches!(self.bytes[end - 1], b'e' | b'E');
            if is_word_byte(b) || b == b'.' || sign_after_exponent {
                end += 1;
            } else {
                break;
            }
        }
        if end > start {
            self.bump(end - start);
        }
        &self.text[start..end]
    }

    /// Consumes an index value: everything up to a blank, `,` or `)` that may appear in
    /// one (`float32`, `-4`, `readonly|coherent`, `d32.xyzw`, `uc.wb`).
    pub(crate) fn index_value(&mut self) -> &'a str {
        self.skip_trivia();
        self.take_while(|b| is_word_byte(b) || matches!(b, b'.' | b'|' | b'-' | b'+'))
    }

    /// A short description of what is at the position, for "found ..." in messages:
    /// a quoted token, or `end of input`.
    pub(crate) fn found(&mut self) -> String {
        self.skip_trivia();
        let Some(&b) = self.bytes.get(self.pos) else {
            return "end of input".to_string();
        };
        let end = match b {
            b'%' | b'@' => self.word_end(self.pos + 1),
            _ if is_word_byte(b) => self.word_end(self.pos),
            _ => {
                // One character, decoded (the position is always on a boundary: the
                // scanner only steps over ASCII bytes and whole comments).
                let c = self.text[self.pos..].chars().next().unwrap_or('?');
                self.pos + c.len_utf8()
            }
        };
        let end = end.max(self.pos + 1).min(self.bytes.len());
        let mut tok = &self.text[self.pos..end];
        let mut ellipsis = "";
        if tok.len() > 40 {
            // Tokens are ASCII when longer than one character, so any cut is a boundary.
            tok = &tok[..40];
            ellipsis = "...";
        }
        format!("`{tok}{ellipsis}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_count_characters_and_lines() {
        let mut lx = Lexer::new("ab cd // é comment\n  é x");
        assert_eq!(lx.word(), "ab");
        assert!(!lx.at_line_break());
        assert_eq!(lx.span(), Span::new(1, 4));
        assert_eq!(lx.word(), "cd");
        // The comment and line break are skipped: `é` is at 2:3.
        assert!(lx.at_line_break());
        assert_eq!(lx.span(), Span::new(2, 3));
        assert_eq!(lx.found(), "`é`");
        lx.bump(2);
        let _ = lx.peek();
        assert_eq!(lx.span(), Span::new(2, 5));
        assert_eq!(lx.word(), "x");
        assert_eq!(lx.found(), "end of input");
    }

    #[test]
    fn every_line_break_convention_counts_one_line() {
        // LF, CRLF and a lone CR each end one line; a comment ends at any of them.
        for text in [
            "a // c\nb\n  c",
            "a // c\r\nb\r\n  c",
            "a // c\rb\r  c",
            "a // c\r\nb\r  c",
        ] {
            let mut lx = Lexer::new(text);
            assert_eq!(lx.word(), "a");
            assert!(lx.at_line_break(), "{text:?}");
            assert_eq!(lx.span(), Span::new(2, 1), "{text:?}");
            assert_eq!(lx.word(), "b");
            assert!(lx.at_line_break(), "{text:?}");
            assert_eq!(lx.span(), Span::new(3, 3), "{text:?}");
            assert_eq!(lx.word(), "c");
        }
        // CR CR is two line breaks, LF CR too.
        let mut lx = Lexer::new("a\r\rb\n\rc");
        assert_eq!(lx.word(), "a");
        let _ = lx.peek();
        assert_eq!(lx.span(), Span::new(3, 1));
        assert_eq!(lx.word(), "b");
        let _ = lx.peek();
        assert_eq!(lx.span(), Span::new(5, 1));
    }

    #[test]
    fn literals_and_index_values() {
        let mut lx = Lexer::new("-1.5e-3, 0x1e+2 d32.xyzw)");
        assert_eq!(lx.literal(), "-1.5e-3");
        assert!(lx.eat(b','));
        // In hex, `e` is a digit and the sign ends the literal.
        assert_eq!(lx.literal(), "0x1e");
        assert_eq!(lx.peek(), Some(b'+'));
        lx.bump(1);
        assert_eq!(lx.literal(), "2");
        assert_eq!(lx.index_value(), "d32.xyzw");
        assert_eq!(lx.peek(), Some(b')'));
    }
}
