//! Source positions, so that every diagnostic can point at its text.

/// A position in the source text: 1-based line and column (in characters).
///
/// Instructions built by passes inherit the span of the instruction they replace, so a
/// lowering error still names the line the user wrote. `Span::UNKNOWN` (line 0) marks
/// instructions that never had text.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Span {
    /// 1-based line, or 0 when unknown.
    pub line: u32,
    /// 1-based column, or 0 when unknown.
    pub col: u32,
}

impl Span {
    /// No source position.
    pub const UNKNOWN: Span = Span { line: 0, col: 0 };

    /// A span at `line:col`.
    pub const fn new(line: u32, col: u32) -> Span {
        Span { line, col }
    }

    /// Whether this span points into a source text.
    pub const fn is_known(self) -> bool {
        self.line != 0
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_known() {
            write!(f, "{}:{}", self.line, self.col)
        } else {
            f.write_str("<unknown>")
        }
    }
}

/// The lines of a source text, without their line breaks. A line break is LF, CRLF or
/// a lone CR, the same three the parser counts, so that line `n` of a [`Span`] is item
/// `n - 1` here. (`str::lines` knows only LF and CRLF: a file with CR line breaks would
/// be one line to it.)
pub fn source_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\n', '\r']) {
            Some(i) => {
                let skip = if t[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&t[i + skip..]).filter(|r| !r.is_empty());
                Some(&t[..i])
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
    .filter(|_| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(t: &str) -> Vec<&str> {
        source_lines(t).collect()
    }

    #[test]
    fn source_lines_split_on_lf_crlf_and_lone_cr() {
        assert_eq!(split("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(split("a\r\rb"), ["a", "", "b"]);
        assert_eq!(split("a\n\rb\r\n"), ["a", "", "b"]);
        // As `str::lines`: a final line break ends the last line, it does not open one.
        assert_eq!(split("a\n"), ["a"]);
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("\n"), [""]);
        for t in ["x\ny\n", "x\r\ny", "\n\nz", "p\r\n\r\nq\n"] {
            assert_eq!(split(t), t.lines().collect::<Vec<_>>(), "{t:?}");
        }
    }
}
