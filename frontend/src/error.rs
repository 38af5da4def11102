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

/// What a SPIR-V error points at beside its word offset: the instruction in
/// disassembly, and the source position its `OpLine` gives, if any.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SpirvSite {
    /// The instruction as `spirv-dis` would print it (ids as `%N`), e.g.
    /// `%12 = OpImageSampleImplicitLod %4 %10 %11`.
    pub disassembly: String,
    /// The source position of the instruction, from `OpLine` and `OpString`.
    pub source: Option<SourcePos>,
}

/// A position in the source a SPIR-V module was compiled from (its `OpLine`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePos {
    /// The file, as its `OpString` names it.
    pub file: String,
    /// 1-based line (0 when the compiler gave none).
    pub line: u32,
    /// 1-based column (0 when the compiler gave none).
    pub column: u32,
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
    /// For errors of the SPIR-V translator: the instruction and its source position.
    pub spirv: Option<Box<SpirvSite>>,
}

impl ImportError {
    /// An error of `kind` at `location`.
    pub fn new(kind: ErrorKind, location: Location, message: impl Into<String>) -> ImportError {
        ImportError {
            kind,
            location,
            message: message.into(),
            spirv: None,
        }
    }

    /// The same error pointing at a SPIR-V instruction: its disassembly and source
    /// position.
    pub fn at_instruction(mut self, site: SpirvSite) -> ImportError {
        self.spirv = Some(Box::new(site));
        self
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
            (Location::SpirV { word }, _) => {
                let mut out = format!("error: {}\n", self.message);
                let at = format!("word {word} (byte offset {:#x})", word as u64 * 4);
                match self.spirv.as_deref() {
                    Some(SpirvSite {
                        disassembly,
                        source: Some(pos),
                    }) => {
                        out.push_str(&format!(" --> {}\n", pos));
                        out.push_str(&format!("  = {file}: {at}: {disassembly}\n"));
                    }
                    Some(site) if !site.disassembly.is_empty() => {
                        out.push_str(&format!(" --> {file}: {at}\n"));
                        out.push_str(&format!("  | {}\n", site.disassembly));
                    }
                    _ => out.push_str(&format!(" --> {file}: {at}\n")),
                }
                out
            }
            _ => format!("error: {}\n --> {file}\n", self.message),
        }
    }
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.file),
            (l, 0) => write!(f, "{}:{l}", self.file),
            (l, c) => write!(f, "{}:{l}:{c}", self.file),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(pos) = self.spirv.as_ref().and_then(|s| s.source.as_ref()) {
            return write!(f, "{pos} ({}): {}", self.location, self.message);
        }
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
