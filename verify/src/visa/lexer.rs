//! The lexical level of vISA text (IGC `visa/CISA.l`): comments, identifiers,
//! numbers and integer expressions, read with a cursor over one statement line.
//!
//! The vISA grammar is line-oriented (a newline ends every statement) and its lexer is
//! context-dependent (`:d32x4t` after a payload, `.2x32x32nn` after a block payload,
//! `1.5:f` as one float token), so the reader drives a cursor and asks for what the
//! grammar allows at each point instead of consuming a fixed token stream.

use super::error::{ErrorKind, VisaError};

/// Removes `/* ... */` comments, keeping newlines so line numbers stay right.
pub fn strip_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("*/") {
            Some(end) => {
                out.extend(after[..end].chars().filter(|c| *c == '\n'));
                rest = &after[end + 2..];
            }
            None => {
                out.extend(after.chars().filter(|c| *c == '\n'));
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A cursor over one line of vISA text.
pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, which is line `line` of the listing.
    pub fn new(text: &'a str, line: u32) -> Cursor<'a> {
        Cursor { text, pos: 0, line }
    }

    /// The line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// Skips blanks and a trailing `//` comment.
    pub fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => self.pos = bytes.len(),
                _ => break,
            }
        }
    }

    /// Whether only blanks and comments are left.
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The next character, after blanks.
    pub fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }

    /// The character right at the cursor, without skipping blanks.
    pub fn peek_raw(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// The rest of the line from the cursor (after blanks).
    pub fn rest(&mut self) -> &'a str {
        self.skip_ws();
        &self.text[self.pos..]
    }

    /// Consumes `c` (after blanks) if it is next.
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Consumes `c` right at the cursor (no blanks before it) if it is next.
    pub fn eat_raw(&mut self, c: char) -> bool {
        if self.peek_raw() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Consumes `s` (after blanks) if it is next.
    pub fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `c` or fails naming what was expected.
    pub fn expect(&mut self, c: char) -> Result<(), VisaError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("`{c}`")))
        }
    }

    /// Fails unless the line is finished.
    pub fn expect_end(&mut self) -> Result<(), VisaError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("the end of the line"))
        }
    }

    /// A syntax error at the cursor: `expected` is what the grammar allows here.
    pub fn error(&mut self, expected: &str) -> VisaError {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let found = if rest.is_empty() {
            "the end of the line".to_string()
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(24)
                .collect();
            format!("`{word}`")
        };
        VisaError::new(
            self.line,
            ErrorKind::Syntax {
                column: self.text[..self.pos].chars().count() as u32 + 1,
                expected: expected.to_string(),
                found,
            },
        )
    }

    /// An identifier (`[A-Za-z_][A-Za-z0-9_]*`) or a built-in (`%` followed by one),
    /// after blanks.
    pub fn ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        if bytes.get(i) == Some(&b'%') {
            i += 1;
        }
        match bytes.get(i) {
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => i += 1,
            _ => return None,
        }
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        self.pos = i;
        Some(&self.text[start..i])
    }

    /// An identifier or fails naming `what`.
    pub fn expect_ident(&mut self, what: &str) -> Result<&'a str, VisaError> {
        match self.ident() {
            Some(s) => Ok(s),
            None => Err(self.error(what)),
        }
    }

    /// A run of `[A-Za-z0-9_.$@?-]` after blanks (mnemonics with their dotted
    /// modifiers, labels), or `None` if there is none.
    pub fn word(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut i = start;
        while i < bytes.len()
            && (bytes[i].is_ascii_alphanumeric()
                || matches!(bytes[i], b'_' | b'.' | b'$' | b'@' | b'?'))
        {
            i += 1;
        }
        if i == start {
            return None;
        }
        self.pos = i;
        Some(&self.text[start..i])
    }

    /// A string literal `"..."` (the escapes of `CISA.l`), after blanks.
    pub fn string_lit(&mut self) -> Result<Option<String>, VisaError> {
        if !self.eat('"') {
            return Ok(None);
        }
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(Some(out));
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, other)) => out.push(other),
                    None => break,
                },
                other => out.push(other),
            }
        }
        self.pos = self.text.len();
        Err(self.error("the closing `\"` of the string"))
    }

    /// An unsigned literal: decimal (`[0-9]+`) or hexadecimal (`0x[0-9a-fA-F]+`, at
    /// most 16 digits as in `CISA.l`), right at the cursor.
    pub fn number(&mut self) -> Option<u64> {
        let rest = &self.text[self.pos..];
        let bytes = rest.as_bytes();
        if bytes.len() >= 3 && bytes[0] == b'0' && (bytes[1] | 0x20) == b'x' {
            let digits = bytes[2..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            if digits == 0 || digits > 16 {
                return None;
            }
            let v = u64::from_str_radix(&rest[2..2 + digits], 16).ok()?;
            self.pos += 2 + digits;
            return Some(v);
        }
        let digits = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let v = rest[..digits].parse::<u64>().ok()?;
        self.pos += digits;
        Some(v)
    }

    /// A float literal `[0-9]+.[0-9]+` or with an exponent (`1.5e+3`, `2e-1`),
    /// right at the cursor, as its text; `None` (cursor unmoved) if the next characters
    /// are not one.
    pub fn float_text(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        let b = rest.as_bytes();
        let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if int == 0 {
            return None;
        }
        let mut i = int;
        let mut is_float = false;
        if b.get(i) == Some(&b'.') {
            let frac = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if frac == 0 {
                return None;
            }
            i += 1 + frac;
            is_float = true;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) && matches!(b.get(i + 1), Some(b'+' | b'-')) {
            let exp = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
            if exp > 0 {
                i += 2 + exp;
                is_float = true;
            }
        }
        if !is_float {
            return None;
        }
        self.pos += i;
        Some(&rest[..i])
    }

    /// Saves the position, to back off after a failed alternative.
    pub fn mark(&self) -> usize {
        self.pos
    }

    /// Returns to a saved position.
    pub fn reset(&mut self, mark: usize) {
        self.pos = mark;
    }

    /// An integer expression of `CISA.y`'s `IntExp` without relational operators:
    /// literals, parentheses, unary `- ~ !`, `* / %`, `+ -`, `<< >>`, and, when
    /// `bitwise` is set (never inside `<...>` regions, where `>` closes), `| ^ &` with
    /// `CISA.y`'s precedence: `&` binds loosest, then `^`, then `|`.
    pub fn int_expr(&mut self, bitwise: bool) -> Result<i64, VisaError> {
        if !bitwise {
            return self.shift_expr();
        }
        let mut v = self.xor_expr()?;
        while self.eat('&') {
            v &= self.xor_expr()?;
        }
        Ok(v)
    }

    fn xor_expr(&mut self) -> Result<i64, VisaError> {
        let mut v = self.or_expr()?;
        while self.eat('^') {
            v ^= self.or_expr()?;
        }
        Ok(v)
    }

    fn or_expr(&mut self) -> Result<i64, VisaError> {
        let mut v = self.shift_expr()?;
        while self.eat('|') {
            v |= self.shift_expr()?;
        }
        Ok(v)
    }

    fn shift_expr(&mut self) -> Result<i64, VisaError> {
        let mut v = self.add_expr()?;
        loop {
            if self.eat_str("<<") {
                let s = self.add_expr()?;
                v = v.wrapping_shl(s as u32);
            } else if self.eat_str(">>>") {
                let s = self.add_expr()?;
                v = ((v as u64).wrapping_shr(s as u32)) as i64;
            } else if self.eat_str(">>") {
                let s = self.add_expr()?;
                v = v.wrapping_shr(s as u32);
            } else {
                return Ok(v);
            }
        }
    }

    fn add_expr(&mut self) -> Result<i64, VisaError> {
        let mut v = self.mul_expr()?;
        loop {
            if self.eat('+') {
                v = v.wrapping_add(self.mul_expr()?);
            } else if self.eat('-') {
                v = v.wrapping_sub(self.mul_expr()?);
            } else {
                return Ok(v);
            }
        }
    }

    fn mul_expr(&mut self) -> Result<i64, VisaError> {
        let mut v = self.unary_expr()?;
        loop {
            if self.eat('*') {
                v = v.wrapping_mul(self.unary_expr()?);
            } else if self.eat('/') {
                // A `//` comment was skipped by `eat`'s blank skipping, so this `/` divides.
                let d = self.unary_expr()?;
                if d == 0 {
                    return Err(self.error("a non-zero divisor"));
                }
                v = v.wrapping_div(d);
            } else if self.eat('%') {
                let d = self.unary_expr()?;
                if d == 0 {
                    return Err(self.error("a non-zero divisor"));
                }
                v = v.wrapping_rem(d);
            } else {
                return Ok(v);
            }
        }
    }

    /// `IntExpUnr`: a unary expression (`-x`, `~x`, `!x`, a literal, `( ... )`).
    pub fn unary_expr(&mut self) -> Result<i64, VisaError> {
        if self.eat('-') {
            return Ok(self.unary_expr()?.wrapping_neg());
        }
        if self.eat('~') {
            return Ok(!self.unary_expr()?);
        }
        if self.eat('!') {
            return Ok((self.unary_expr()? == 0) as i64);
        }
        if self.eat('(') {
            let v = self.int_expr(true)?;
            self.expect(')')?;
            return Ok(v);
        }
        self.skip_ws();
        match self.number() {
            Some(v) => Ok(v as i64),
            None => Err(self.error("an integer")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_comments_keep_line_numbers() {
        let s = strip_block_comments("a /* x\ny */ b\nc /* open");
        assert_eq!(s, "a \n b\nc ");
    }

    #[test]
    fn expressions_follow_c_precedence() {
        let mut c = Cursor::new("2 + 3 * 4 - (1 << 2) // comment", 1);
        assert_eq!(c.int_expr(true).unwrap(), 10);
        assert!(c.at_end());
        // CISA.y: `&` binds loosest, then `^`, then `|` (unlike C).
        let mut c = Cursor::new("0x10 | 3 & 1", 1);
        assert_eq!(c.int_expr(true).unwrap(), 1);
        let mut c = Cursor::new("1 ^ 1 | 1", 1);
        assert_eq!(c.int_expr(true).unwrap(), 0);
        let mut c = Cursor::new("-0x8", 1);
        assert_eq!(c.int_expr(true).unwrap(), -8);
    }

    #[test]
    fn identifiers_numbers_and_floats() {
        let mut c = Cursor::new("%null V0034 0xffffffff 12 1.5e+3 2", 1);
        assert_eq!(c.ident(), Some("%null"));
        assert_eq!(c.ident(), Some("V0034"));
        c.skip_ws();
        assert_eq!(c.number(), Some(0xffff_ffff));
        c.skip_ws();
        assert_eq!(c.number(), Some(12));
        c.skip_ws();
        assert_eq!(c.float_text(), Some("1.5e+3"));
        c.skip_ws();
        assert_eq!(c.float_text(), None);
        assert_eq!(c.number(), Some(2));
    }

    #[test]
    fn errors_carry_column_and_what_was_found() {
        let mut c = Cursor::new("mov (M1, 16) ?x", 7);
        c.word();
        c.expect('(').unwrap();
        c.ident();
        c.expect(',').unwrap();
        c.skip_ws();
        c.number();
        c.expect(')').unwrap();
        let e = c.error("an operand");
        assert_eq!(e.line, 7);
        match e.kind {
            ErrorKind::Syntax { column, found, .. } => {
                assert_eq!(column, 14);
                assert_eq!(found, "`?x`");
            }
            other => panic!("{other:?}"),
        }
    }
}
