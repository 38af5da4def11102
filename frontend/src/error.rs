//! Import errors: what went wrong and where, in the terms of the input.
//!
//! A location is what naga gives: a line and column in WGSL or GLSL text, or the byte
//! offset of an instruction in a SPIR-V binary (shown as its word offset, the unit
//! `spirv-dis --offsets` and `spirv-val` use).

use std::fmt;

/// Where in the input something is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Location {
    /// Nowhere in particular (the module as a whole, or a construct naga gave no span).
    #[default]
    Unknown,
    /// A position in WGSL or GLSL text: 1-based line and column (in characters).
    Text {
        /// 1-based line.
        line: u32,
        /// 1-based column in characters.
        column: u32,
    },
    /// An instruction of a SPIR-V binary.
    SpirV {
        /// Offset of the instruction in 32-bit words from the start of the module.
        word: u32,
    },
}

impl Location {
    /// The text position as an IR span (unknown for SPIR-V and unknown locations).
    pub fn ir_span(self) -> ir::Span {
        match self {
            Location::Text { line, column } => ir::Span::new(line, column),
            _ => ir::Span::UNKNOWN,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Unknown => f.write_str("<unknown>"),
            Location::Text { line, column } => write!(f, "{line}:{column}"),
            Location::SpirV { word } => write!(f, "SPIR-V word {word}"),
        }
    }
}

/// What kind of problem an [`ImportError`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// naga could not read the input.
    Parse,
    /// naga read the input, but its validator rejects the module.
    Invalid,
    /// The entry point asked for does not exist, or is not a compute shader.
    EntryPoint,
    /// A construct the IR cannot express (filtered sampling, ray queries, subgroup
    /// operations, ...): importing it would change the program.
    Unsupported,
    /// The shader exceeds a limit of the import (nesting, inlining depth, the size of
    /// a promoted array).
    Limit,
    /// The imported IR does not validate: a bug of the front end, reported with the
    /// validator's messages rather than a panic.
    Internal,
}

impl ErrorKind {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse error",
            ErrorKind::Invalid => "invalid module",
            ErrorKind::EntryPoint => "entry point",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Limit => "limit",
            ErrorKind::Internal => "internal error",
        }
    }
}

/// An import error: its kind, a message naming the construct, and its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// What kind of problem.
    pub kind: ErrorKind,
    /// Where.
    pub location: Location,
    /// What, in words, naming the construct.
    pub message: String,
}

impl ImportError {
    /// An error of `kind` at `location`.
    pub fn new(kind: ErrorKind, location: Location, message: impl Into<String>) -> ImportError {
        ImportError {
            kind,
            location,
            message: message.into(),
        }
    }

    /// An [`ErrorKind::Unsupported`] error: `construct` is not supported, because
    /// `why`.
    pub fn unsupported(location: Location, construct: &str, why: &str) -> ImportError {
        ImportError::new(
            ErrorKind::Unsupported,
            location,
            format!("{construct} is not supported: {why}"),
        )
    }

    /// The error as a diagnostic: for text inputs, the source line with a caret under
    /// the column; for SPIR-V, the word offset.
    pub fn render(&self, file: &str, source: Option<&str>) -> String {
        match (self.location, source) {
            (Location::Text { .. }, Some(text)) => {
                ir::diag::Diagnostic::error(self.location.ir_span(), self.message.clone())
                    .render(file, text)
            }
            (Location::SpirV { word }, _) => format!(
                "error: {}\n --> {file}: word {word} (byte offset {:#x})\n",
                self.message,
                word as u64 * 4
            ),
            _ => format!("error: {}\n --> {file}\n", self.message),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Unknown => f.write_str(&self.message),
            loc => write!(f, "{loc}: {}", self.message),
        }
    }
}

impl std::error::Error for ImportError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_errors_render_with_a_caret_and_spirv_ones_with_a_word() {
        let e = ImportError::unsupported(
            Location::Text { line: 2, column: 5 },
            "`textureSample`",
            "the IR has no filtered sampling",
        );
        assert_eq!(
            e.to_string(),
            "2:5: `textureSample` is not supported: the IR has no filtered sampling"
        );
        let r = e.render(
            "a.wgsl",
            Some("fn f() {\n    textureSample(t, s, uv);\n}\n"),
        );
        assert!(r.contains(" --> a.wgsl:2:5"), "{r}");
        assert!(r.contains("2 |     textureSample(t, s, uv);"), "{r}");
        assert!(r.contains("  |     ^"), "{r}");
        let s = ImportError::new(ErrorKind::Unsupported, Location::SpirV { word: 42 }, "x");
        assert_eq!(s.to_string(), "SPIR-V word 42: x");
        assert_eq!(
            s.render("a.spv", None),
            "error: x\n --> a.spv: word 42 (byte offset 0xa8)\n"
        );
    }
}
