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
    ///
    /// What comes from the input is made safe for a terminal: control characters (C0,
    /// DEL, C1) and the bidirectional controls that reorder text (U+061C, U+200E,
    /// U+200F, U+202A..U+202E, U+2066..U+2069) are written as `\u{..}` escapes, in the
    /// message, the file name and the echoed line alike. A line longer than
    /// [`SNIPPET_COLUMNS`] is cut to a window around the caret, marked with `...`; the
    /// caret stays under the character the span names.
    pub fn render(&self, file: &str, source: &str) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Note => "note",
        };
        let file = escape_text(file);
        let mut out = format!("{kind}: {}\n", escape_message(&self.message));
        if !self.span.is_known() {
            out.push_str(&format!(" --> {file}\n"));
            return out;
        }
        let line_no = self.span.line as usize;
        // Without the source text (a SPIR-V module's debug lines naming a file that is
        // not at hand), the position alone: never a made-up, empty line.
        if source.is_empty() {
            out.push_str(&format!(
                " --> {file}:{}:{}\n",
                self.span.line, self.span.col
            ));
            return out;
        }
        let text = crate::span::source_lines(source)
            .nth(line_no - 1)
            .unwrap_or("");
        let gutter = line_no.to_string().len();
        let pad = " ".repeat(gutter);
        out.push_str(&format!(
            "{pad}--> {file}:{}:{}\n",
            self.span.line, self.span.col
        ));
        out.push_str(&format!("{pad} |\n"));
        let (shown, caret) = snippet(text, self.span.col.saturating_sub(1) as usize);
        out.push_str(&format!("{line_no} | {shown}\n"));
        out.push_str(&format!("{pad} | {caret}^\n"));
        out
    }
}

/// The widest echoed source line, in columns (characters, an escape counting as its
/// length): longer lines are cut to a window around the caret.
pub const SNIPPET_COLUMNS: usize = 120;

/// Whether `c` must not reach a terminal as is: it moves the cursor, rings, clears,
/// starts an escape sequence or reorders the text around it.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `c` as written in a diagnostic: itself, or a `\u{..}` escape.
fn escape_char(c: char) -> String {
    if is_unsafe(c) {
        format!("\\u{{{:x}}}", c as u32)
    } else {
        c.to_string()
    }
}

/// `text` with every unsafe character escaped.
fn escape_text(text: &str) -> String {
    text.chars().map(escape_char).collect()
}

/// A message: line breaks are kept (messages may span lines on purpose), every other
/// unsafe character is escaped.
fn escape_message(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c == '\n' {
                c.to_string()
            } else {
                escape_char(c)
            }
        })
        .collect()
}

/// The echoed line and the blanks that put the caret under character `col` (0-based)
/// of `text`. Unsafe characters are escaped, tabs are kept in the line and in the
/// caret's prefix (so that the caret lines up whatever the tab width), and a line
/// wider than [`SNIPPET_COLUMNS`] is cut around the caret.
fn snippet(text: &str, col: usize) -> (String, String) {
    let chars: Vec<char> = text.chars().collect();
    let shown = |c: char| {
        if c == '\t' {
            c.to_string()
        } else {
            escape_char(c)
        }
    };
    let width = |c: char| {
        if c == '\t' || !is_unsafe(c) {
            1
        } else {
            escape_char(c).len()
        }
    };
    let total: usize = chars.iter().map(|&c| width(c)).sum();
    let col = col.min(chars.len());
    let (mut first, mut last) = (0, chars.len());
    if total > SNIPPET_COLUMNS {
        // Keep about a third of the window before the caret, then fill what remains.
        let mut used = 0;
        first = col;
        while first > 0 && used + width(chars[first - 1]) <= SNIPPET_COLUMNS / 3 {
            first -= 1;
            used += width(chars[first]);
        }
        last = first;
        let mut used = 0;
        while last < chars.len() && used + width(chars[last]) <= SNIPPET_COLUMNS {
            used += width(chars[last]);
            last += 1;
        }
        // Near the end of the line, the room left after it goes before the caret.
        while first > 0 && used + width(chars[first - 1]) <= SNIPPET_COLUMNS {
            first -= 1;
            used += width(chars[first]);
        }
        // The caret's own character is always shown.
        last = last.max((col + 1).min(chars.len()));
    }
    let lead = if first > 0 { "..." } else { "" };
    let tail = if last < chars.len() { "..." } else { "" };
    let body: String = chars[first..last].iter().map(|&c| shown(c)).collect();
    let mut caret = " ".repeat(lead.len());
    for &c in &chars[first..col] {
        if c == '\t' {
            caret.push('\t');
        } else {
            caret.push_str(&" ".repeat(width(c)));
        }
    }
    (format!("{lead}{body}{tail}"), caret)
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

    #[test]
    fn lone_cr_ends_a_line() {
        let src = "line one\r  32 %3 = foo %1\rlast";
        let d = Diagnostic::error(Span::new(2, 11), "unknown opcode `foo`");
        assert_eq!(
            d.render("t.ir", src),
            "error: unknown opcode `foo`\n --> t.ir:2:11\n  |\n2 |   32 %3 = foo %1\n  |           ^\n"
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        // ESC [2J would clear the screen, BEL rings, NUL, U+202E flips the text after it.
        let src = "a \u{1b}[2J\u{7}\u{0} \u{202e}x y\u{2066}";
        let d = Diagnostic::error(Span::new(1, 11), "found `\u{1b}\u{202e}`\tand\u{85}");
        let r = d.render("f\u{1b}.ir", src);
        assert!(!r.chars().any(|c| is_unsafe(c) && c != '\n'), "{r:?}");
        assert_eq!(
            r,
            format!(
                "error: found `\\u{{1b}}\\u{{202e}}`\\u{{9}}and\\u{{85}}\n --> f\\u{{1b}}.ir:1:11\n  |\n\
                 1 | a \\u{{1b}}[2J\\u{{7}}\\u{{0}} \\u{{202e}}x y\\u{{2066}}\n  | {}^\n",
                " ".repeat(30)
            )
        );
        // The caret is under `x`: the 11th character, after the escapes' widths.
        let lines: Vec<&str> = r.lines().collect();
        let at = lines[4].find('^').unwrap();
        assert_eq!(&lines[3][at..at + 1], "x");
    }

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let long = format!("{}BAD{}", "a".repeat(1_000_000), "z".repeat(1_000_000));
        let d = Diagnostic::error(Span::new(1, 1_000_001), "here");
        let r = d.render("t.ir", &long);
        assert!(r.len() < 400, "{} bytes", r.len());
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[3].starts_with("1 | ...a"), "{}", lines[3]);
        assert!(lines[3].ends_with("z..."), "{}", lines[3]);
        let at = lines[4].find('^').unwrap();
        assert_eq!(&lines[3][at..at + 3], "BAD");
        // 120 columns of the line plus the two markers.
        assert_eq!(lines[3].len(), "1 | ".len() + SNIPPET_COLUMNS + 6);
        // Near the start nothing is cut before the caret; tabs stay tabs.
        let text = format!("\tx{}", "y".repeat(500));
        let r = Diagnostic::error(Span::new(1, 2), "m").render("t", &text);
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[3].starts_with("1 | \tx"), "{}", lines[3]);
        assert_eq!(lines[4], "  | \t^");
        // A caret past the end of a long line still shows the line's end, with the
        // whole window before it.
        let r = Diagnostic::error(Span::new(1, 600), "m").render("t", &text);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[3], format!("1 | ...{}", "y".repeat(SNIPPET_COLUMNS)));
        assert_eq!(
            lines[4],
            format!("  | {}^", " ".repeat(SNIPPET_COLUMNS + 3))
        );
    }
}
