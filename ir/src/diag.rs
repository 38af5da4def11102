//! Diagnostics with source snippets, shared by the parser, the validator and the passes.
//!
//! A diagnostic names its line and column, shows the source line with a caret under the
//! column, and says what was expected:
//!
//! ```text
//! error: expected a value (`%N`), found `foo`
//!  --> shader.ir:7:24
//!   |
//! 7 |     32 %3 = iadd %1, foo
//!   |                      ^
//! ```

use crate::span::Span;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// Additional information attached to an error.
    Note,
}

/// One diagnostic: a message at a source position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Where.
    pub span: Span,
    /// What is wrong, including what was expected.
    pub message: String,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
        }
    }

    /// A note at `span`.
    pub fn note(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Note,
            span,
            message: message.into(),
        }
    }

    /// Renders the diagnostic against `source` (the text the spans point into), naming
    /// the input `file` (`-` or a path).
    pub fn render(&self, file: &str, source: &str) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Note => "note",
        };
        let mut out = format!("{kind}: {}\n", self.message);
        if !self.span.is_known() {
            out.push_str(&format!(" --> {file}\n"));
            return out;
        }
        let line_no = self.span.line as usize;
        let text = source.lines().nth(line_no - 1).unwrap_or("");
        let gutter = line_no.to_string().len();
        let pad = " ".repeat(gutter);
        out.push_str(&format!(
            "{pad}--> {file}:{}:{}\n",
            self.span.line, self.span.col
        ));
        out.push_str(&format!("{pad} |\n"));
        out.push_str(&format!("{line_no} | {text}\n"));
        // The caret sits under the column; tabs in the prefix are kept so it lines up.
        let prefix: String = text
            .chars()
            .take(self.span.col.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!("{pad} | {prefix}^\n"));
        out
    }
}

impl fmt::Display for Diagnostic {
    /// The one-line form: `line:col: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

/// Renders a list of diagnostics, one after the other.
pub fn render_all(diags: &[Diagnostic], file: &str, source: &str) -> String {
    diags
        .iter()
        .map(|d| d.render(file, source))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_column() {
        let src = "line one\n  32 %3 = foo %1\n";
        let d = Diagnostic::error(Span::new(2, 11), "unknown opcode `foo`");
        let r = d.render("t.ir", src);
        assert_eq!(
            r,
            "error: unknown opcode `foo`\n --> t.ir:2:11\n  |\n2 |   32 %3 = foo %1\n  |           ^\n"
        );
        assert_eq!(d.to_string(), "2:11: unknown opcode `foo`");
    }
}
