//! Reading an input through naga: the language, the parse, naga's validation, and the
//! mapping of naga's spans to [`Location`]s.
//!
//! naga's readers are meant to return errors, but a reader that meets input it does
//! not expect can still panic; a panic inside naga's parser or validator is caught
//! (`catch_unwind`, only around those calls) and reported as an [`ErrorKind::Parse`] or
//! [`ErrorKind::Invalid`] error saying so, never passed on to the caller.

use crate::error::{ErrorKind, ImportError, Location};
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// The languages naga reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// A SPIR-V binary module.
    SpirV,
    /// WGSL text.
    Wgsl,
    /// GLSL text (a compute shader, `#version 450` or later).
    Glsl,
}

impl Language {
    /// Every language.
    pub const ALL: [Language; 3] = [Language::SpirV, Language::Wgsl, Language::Glsl];

    /// The name (`spirv`, `wgsl`, `glsl`).
    pub fn name(self) -> &'static str {
        match self {
            Language::SpirV => "spirv",
            Language::Wgsl => "wgsl",
            Language::Glsl => "glsl",
        }
    }

    /// The language called `name`.
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The language a file name's extension stands for: `.spv`, `.wgsl`, `.comp` and
    /// `.glsl`; `None` for any other (the IR's own text, `.ir`, among them).
    pub fn from_path(path: &str) -> Option<Language> {
        match Path::new(path).extension()?.to_str()? {
            "spv" => Some(Language::SpirV),
            "wgsl" => Some(Language::Wgsl),
            "comp" | "glsl" => Some(Language::Glsl),
            _ => None,
        }
    }

    /// Whether inputs of this language are text.
    pub fn is_text(self) -> bool {
        self != Language::SpirV
    }
}

/// A parsed and validated module with what is needed to locate its spans.
pub struct Parsed {
    /// The language it was read from.
    pub language: Language,
    /// The module.
    pub module: naga::Module,
    /// naga's analysis of it (types of every expression, uses of globals).
    pub info: ModuleInfo,
    /// What turns naga's spans into locations.
    pub map: SourceMap,
}

/// Turns naga's spans into [`Location`]s: lines and columns of the text for WGSL and
/// GLSL; for SPIR-V the start of the instruction the span falls in (naga's SPIR-V spans
/// start at different words of an instruction depending on the reader's path, so the
/// map finds the instruction from the module's own word counts).
#[derive(Clone, Debug)]
pub struct SourceMap {
    /// The language.
    pub language: Language,
    /// The source text, for text languages.
    pub text: Option<String>,
    /// `(naga's offset, byte offset)` of each SPIR-V instruction, ascending.
    instruction_starts: Vec<(u32, u32)>,
}

impl SourceMap {
    /// The map of an input of `language` with these bytes (`text` for text inputs).
    pub fn new(language: Language, bytes: &[u8], text: Option<String>) -> SourceMap {
        let instruction_starts = if language == Language::SpirV {
            spirv_instruction_starts(bytes)
        } else {
            Vec::new()
        };
        SourceMap {
            language,
            text,
            instruction_starts,
        }
    }

    /// The location of a naga span.
    pub fn locate(&self, span: naga::Span) -> Location {
        let Some(range) = span.to_range() else {
            return Location::Unknown;
        };
        match (self.language, &self.text) {
            (Language::SpirV, _) => {
                let at = range.start as u32;
                let i = self.instruction_starts.partition_point(|&(n, _)| n <= at);
                let start = match i {
                    0 => at,
                    i => self.instruction_starts[i - 1].1,
                };
                Location::SpirV { word: start / 4 }
            }
            (_, Some(text)) => text_location(text, range.start),
            _ => Location::Unknown,
        }
    }
}

/// For each SPIR-V instruction, `(naga's offset of it, its byte offset)`, ascending.
///
/// naga 30's SPIR-V reader counts the bytes it reads to make spans, but reads the
/// interface ids of `OpEntryPoint`, the operands of `OpExecutionMode` and the parameter
/// types of `OpTypeFunction` without counting them, so every later span is short by
/// those words. The walk below counts them the same way (after the five-word header,
/// each instruction's first word holds its word count in the high half) and so maps
/// naga's offsets back to real ones. A count of 0 or past the end stops the walk
/// (naga rejects such a module).
fn spirv_instruction_starts(bytes: &[u8]) -> Vec<(u32, u32)> {
    const OP_ENTRY_POINT: u32 = 15;
    const OP_EXECUTION_MODE: u32 = 16;
    const OP_TYPE_FUNCTION: u32 = 33;
    let words = bytes.len() / 4;
    let word = |i: usize| {
        u32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ])
    };
    let mut out = Vec::new();
    let (mut i, mut skipped) = (5usize, 0usize);
    while i < words {
        let (wc, op) = ((word(i) >> 16) as usize, word(i) & 0xffff);
        if wc == 0 || i + wc > words {
            break;
        }
        out.push(((4 * (i - skipped)) as u32, (4 * i) as u32));
        skipped += match op {
            // Model and function id, then the name: up to its word with a 0 byte.
            OP_ENTRY_POINT if wc > 3 => {
                let name_words = (i + 3..i + wc)
                    .position(|j| word(j).to_le_bytes().contains(&0))
                    .map_or(wc - 3, |p| p + 1);
                wc - 3 - name_words
            }
            OP_EXECUTION_MODE | OP_TYPE_FUNCTION if wc > 3 => wc - 3,
            _ => 0,
        };
        i += wc;
    }
    out
}

/// The line and column (in characters) of byte `offset` of `text`.
fn text_location(text: &str, offset: usize) -> Location {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let prefix = &text[..offset];
    let line = prefix.matches('\n').count() as u32 + 1;
    let line_start = prefix.rfind('\n').map_or(0, |p| p + 1);
    let column = prefix[line_start..].chars().count() as u32 + 1;
    Location::Text { line, column }
}

/// The message of a caught panic.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "no message".to_string()
    }
}

/// Reads `bytes` as `language` with naga (no validation).
pub fn parse(
    language: Language,
    bytes: &[u8],
) -> Result<(naga::Module, Option<String>), ImportError> {
    let text = if language.is_text() {
        Some(String::from_utf8(bytes.to_vec()).map_err(|e| {
            ImportError::new(
                ErrorKind::Parse,
                Location::Unknown,
                format!(
                    "the {} input is not UTF-8 text (invalid byte at offset {})",
                    language.name(),
                    e.utf8_error().valid_up_to()
                ),
            )
        })?)
    } else {
        None
    };
    let result = catch_unwind(AssertUnwindSafe(|| match language {
        Language::SpirV => {
            let options = naga::front::spv::Options {
                adjust_coordinate_space: false,
                strict_capabilities: false,
                block_ctx_dump_prefix: None,
            };
            naga::front::spv::parse_u8_slice(bytes, &options).map_err(|e| {
                ImportError::new(
                    ErrorKind::Parse,
                    Location::Unknown,
                    format!("naga cannot read the SPIR-V module: {e}{}", spirv_hint(&e)),
                )
            })
        }
        Language::Wgsl => {
            let src = text.as_deref().unwrap_or_default();
            naga::front::wgsl::parse_str(src).map_err(|e| {
                let loc = e
                    .location(src)
                    .map(|l| text_location(src, l.offset as usize))
                    .unwrap_or_default();
                ImportError::new(
                    ErrorKind::Parse,
                    loc,
                    format!("naga cannot read the WGSL: {}", e.message()),
                )
            })
        }
        Language::Glsl => {
            let src = text.as_deref().unwrap_or_default();
            let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
            naga::front::glsl::Frontend::default()
                .parse(&options, src)
                .map_err(|e| {
                    let first = e.errors.first();
                    let loc = first
                        .and_then(|e| e.meta.to_range())
                        .map(|r| text_location(src, r.start))
                        .unwrap_or_default();
                    let what =
                        first.map_or_else(|| "no error given".to_string(), |e| e.kind.to_string());
                    let more = match e.errors.len() {
                        0 | 1 => String::new(),
                        n => format!(" (and {} more errors)", n - 1),
                    };
                    ImportError::new(
                        ErrorKind::Parse,
                        loc,
                        format!("naga cannot read the GLSL: {what}{more}"),
                    )
                })
        }
    }));
    match result {
        Ok(Ok(module)) => Ok((module, text)),
        Ok(Err(e)) => Err(e),
        Err(p) => Err(ImportError::new(
            ErrorKind::Parse,
            Location::Unknown,
            format!(
                "naga's {} reader panicked on this input ({}); the input is not supported",
                language.name(),
                panic_message(&*p)
            ),
        )),
    }
}

/// Validates a module with naga's validator (every check, every capability: what the
/// IR cannot express is refused later, by construct).
pub fn validate(module: &naga::Module, map: &SourceMap) -> Result<ModuleInfo, ImportError> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        Validator::new(ValidationFlags::all(), Capabilities::all())
            .validate(module)
            .map_err(Box::new)
    }));
    match result {
        Ok(Ok(info)) => Ok(info),
        Ok(Err(e)) => {
            let loc = e
                .spans()
                .next()
                .map(|(span, _)| map.locate(*span))
                .unwrap_or_default();
            let mut msg = format!("naga's validator rejects the module: {}", e.as_inner());
            let mut src: Option<&dyn std::error::Error> = std::error::Error::source(e.as_inner());
            while let Some(s) = src {
                msg.push_str(&format!(": {s}"));
                src = s.source();
            }
            Err(ImportError::new(ErrorKind::Invalid, loc, msg))
        }
        Err(p) => Err(ImportError::new(
            ErrorKind::Invalid,
            Location::Unknown,
            format!(
                "naga's validator panicked on this module ({})",
                panic_message(&*p)
            ),
        )),
    }
}

/// Parses and validates `bytes` as `language`; specialization constants (pipeline
/// overrides) take their default values.
pub fn read(language: Language, bytes: &[u8]) -> Result<Parsed, ImportError> {
    let (module, text) = parse(language, bytes)?;
    let map = SourceMap::new(language, bytes, text);
    let info = validate(&module, &map)?;
    let (module, info) = if module.overrides.is_empty() {
        (module, info)
    } else {
        let constants = naga::back::PipelineConstants::default();
        let result = catch_unwind(AssertUnwindSafe(|| {
            naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants)
                .map(|(m, i)| (m.into_owned(), i.into_owned()))
                .map_err(Box::new)
        }));
        match result {
            Ok(Ok(pair)) => pair,
            Ok(Err(e)) => {
                return Err(ImportError::new(
                    ErrorKind::Invalid,
                    Location::Unknown,
                    format!("the specialization constants cannot take their default values: {e}"),
                ))
            }
            Err(p) => {
                return Err(ImportError::new(
                    ErrorKind::Invalid,
                    Location::Unknown,
                    format!(
                        "naga panicked while substituting specialization constants ({})",
                        panic_message(&*p)
                    ),
                ))
            }
        }
    };
    Ok(Parsed {
        language,
        module,
        info,
        map,
    })
}

/// What a naga SPIR-V error means for a shader writer, where naga's own text names only
/// a number.
fn spirv_hint(e: &naga::front::spv::Error) -> &'static str {
    match e {
        // SPIR-V's `Image` storage class (11) holds the texel pointers of image atomics
        // (`OpImageTexelPointer`); naga 30's SPIR-V reader has no such pointers.
        naga::front::spv::Error::UnsupportedStorageClass(11) => {
            " (the Image storage class: naga's SPIR-V reader does not take image atomics, \
             which SPIR-V writes as OpImageTexelPointer; WGSL's textureAtomic* functions \
             import)"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::from_path("a/b.spv"), Some(Language::SpirV));
        assert_eq!(Language::from_path("x.wgsl"), Some(Language::Wgsl));
        assert_eq!(Language::from_path("x.comp"), Some(Language::Glsl));
        assert_eq!(Language::from_path("x.glsl"), Some(Language::Glsl));
        assert_eq!(Language::from_path("x.ir"), None);
        assert_eq!(Language::from_path("noext"), None);
        assert_eq!(Language::from_name("wgsl"), Some(Language::Wgsl));
        assert_eq!(Language::from_name("hlsl"), None);
    }

    #[test]
    fn text_locations_count_characters() {
        let t = "ab\nçd x\n";
        // Byte 7 is `x`: line 2, after `ç` (two bytes), `d` and a blank.
        assert_eq!(text_location(t, 7), Location::Text { line: 2, column: 4 });
        // An offset inside `ç` moves back to its start.
        assert_eq!(text_location(t, 4), Location::Text { line: 2, column: 1 });
        assert_eq!(
            text_location(t, 1000),
            Location::Text { line: 3, column: 1 }
        );
    }

    #[test]
    fn spirv_offsets_undo_nagas_uncounted_words() {
        // Header, OpEntryPoint GLCompute %1 "main" %2 %3 (two interface ids naga does not
        // count), OpExecutionMode %1 LocalSize 8 1 1 (three more), then OpNop at word 18.
        let mut w: Vec<u32> = vec![0x0723_0203, 0x0001_0000, 0, 10, 0];
        w.extend([(7 << 16) | 15, 5, 1, u32::from_le_bytes(*b"main"), 0, 2, 3]);
        w.extend([(6 << 16) | 16, 1, 17, 8, 1, 1]);
        w.push((1 << 16) | 1);
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let map = SourceMap::new(Language::SpirV, &bytes, None);
        // naga sees the OpNop at byte 4 * (18 - 5).
        let span = naga::Span::from(4 * 13..4 * 14);
        assert_eq!(map.locate(span), Location::SpirV { word: 18 });
        // An offset inside an instruction names its first word.
        assert_eq!(
            map.locate(naga::Span::from(4 * 6..4 * 7)),
            Location::SpirV { word: 5 }
        );
    }

    #[test]
    fn parse_errors_carry_locations() {
        let e = parse(Language::Wgsl, b"fn main() {\n  let x = ;\n}\n")
            .err()
            .unwrap();
        assert_eq!(e.kind, ErrorKind::Parse);
        assert!(matches!(e.location, Location::Text { line: 2, .. }), "{e}");
        let e = parse(Language::SpirV, &[1, 2, 3]).err().unwrap();
        assert_eq!(e.kind, ErrorKind::Parse);
        let e = parse(Language::Glsl, &[0xff, 0xfe]).err().unwrap();
        assert!(e.message.contains("not UTF-8"), "{e}");
    }
}
