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
