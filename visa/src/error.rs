//! Why a shader cannot become a vISA kernel: typed errors that name the instruction, its
//! source position and the platform.

use ir::diag::Diagnostic;
use ir::{Inst, Span};
use lowering::messages::MessageRule;
use std::fmt;

/// What went wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum EmitErrorKind {
    /// The platform has no vISA form of what the kernel needs (its message widths, its
    /// family).
    Platform {
        /// Why, in words.
        reason: String,
    },
    /// A generation IGC's vISA finalizer has no platform for (Gfx7 and earlier): its
    /// shaders stay at IR level.
    NoFinalizerPlatform {
        /// The generation.
        gen: tiling::Gen,
    },
    /// The kernel's SIMD width is not one the platform dispatches.
    SimdWidth {
        /// The width asked for.
        simd: u32,
        /// The widths the platform dispatches.
        allowed: &'static [u32],
    },
    /// A message intrinsic breaks a rule of the platform's message table (the lowering's
    /// legality check).
    Message(MessageRule),
    /// A high-level intrinsic that the lowering rewrites reached the back end.
    NotLowered {
        /// The intrinsic's name.
        intrinsic: &'static str,
    },
    /// An instruction the back end cannot express for this platform.
    Unsupported {
        /// What cannot be expressed, in words.
        what: String,
    },
    /// A value does not fit the limits of a vISA variable.
    TooLarge {
        /// The value's bytes at the kernel's SIMD width.
        bytes: u32,
        /// The most one variable may hold.
        limit: u32,
    },
    /// The values live at one point need more registers than a thread has, and
    /// spills are forbidden ([`crate::Options::forbid_spills`]) or the width is one of
    /// several tried.
    RegisterPressure {
        /// Bytes of values live there, and of the instruction's temporaries beyond the
        /// registers kept for temporaries.
        bytes: u32,
        /// Bytes of registers a thread of the kernel's width has for them.
        available: u32,
        /// Whether the platform dispatches a narrower width, whose threads have
        /// registers for fewer lanes' values.
        narrower: bool,
    },
    /// The shader has no entry function.
    NoEntry,
    /// The function is malformed in a way the validator reports (a use without a
    /// definition, a jump outside a loop, ...).
    Malformed {
        /// What, in words.
        what: String,
    },
}

impl fmt::Display for EmitErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitErrorKind::Platform { reason } => f.write_str(reason),
            EmitErrorKind::NoFinalizerPlatform { gen } => write!(
                f,
                "{gen} has no vISA target: IGC's vISA finalizer (GenX_IR) knows no platform before Broadwell (Gfx8), so shaders for it stay at IR level"
            ),
            EmitErrorKind::SimdWidth { simd, allowed } => {
                let list: Vec<String> = allowed.iter().map(|w| w.to_string()).collect();
                write!(
                    f,
                    "the kernel would run at SIMD{simd}, but the platform dispatches SIMD{} only",
                    list.join(", SIMD")
                )
            }
            EmitErrorKind::Message(rule) => write!(f, "{rule}"),
            EmitErrorKind::NotLowered { intrinsic } => write!(
                f,
                "`@{intrinsic}` is a high-level intrinsic; the lowering must rewrite it into messages before vISA emission"
            ),
            EmitErrorKind::Unsupported { what } => f.write_str(what),
            EmitErrorKind::TooLarge { bytes, limit } => write!(
                f,
                "the value needs {bytes} bytes of registers, more than the {limit} bytes a vISA variable may hold"
            ),
            EmitErrorKind::RegisterPressure {
                bytes,
                available,
                narrower,
            } => write!(
                f,
                "{bytes} bytes of values are live here, more than the {available} bytes of registers a thread of this kernel has for them (the finalizer would spill them to scratch memory); {}",
                if *narrower {
                    "a smaller subgroup_size or fewer values live at once would fit"
                } else {
                    "fewer values live at once would fit (no narrower width is dispatched on this platform)"
                }
            ),
            EmitErrorKind::NoEntry => f.write_str("the shader has no entry function"),
            EmitErrorKind::Malformed { what } => f.write_str(what),
        }
    }
}

/// An instruction (or a whole shader) the back end cannot turn into vISA.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EmitError {
    /// What went wrong (boxed: the error travels through every emission function).
    pub kind: Box<EmitErrorKind>,
    /// The platform.
    pub platform: String,
    /// The function, if the error is inside one.
    pub function: Option<String>,
    /// The instruction, if the error is about one.
    pub inst: Option<Inst>,
    /// The instruction's source position (unknown for shader-wide errors).
    pub span: Span,
    /// How the instruction reads (`%12 = @lsc_load_quad`, `%7 = udiv`).
    pub what: Option<String>,
}

impl EmitError {
    /// A shader-wide error.
    pub fn shader(kind: EmitErrorKind, platform: &str) -> EmitError {
        EmitError {
            kind: Box::new(kind),
            platform: platform.to_string(),
            function: None,
            inst: None,
            span: Span::default(),
            what: None,
        }
    }

    /// The error as a diagnostic at the instruction's position, for rendering with a
    /// source snippet (`Diagnostic::render`).
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.span, self.message())
    }

    /// The message without the position.
    pub fn message(&self) -> String {
        let mut s = String::new();
        if let Some(f) = &self.function {
            s.push_str(&format!("in fn {f}: "));
        }
        if let Some(w) = &self.what {
            s.push_str(&format!("`{w}`: "));
        }
        s.push_str(&format!("{} (vISA for {})", self.kind, self.platform));
        s
    }
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Shader-wide errors (and instructions built without text) have no position.
        if self.span.is_known() {
            write!(f, "{}: ", self.span)?;
        }
        f.write_str(&self.message())
    }
}

impl std::error::Error for EmitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_instruction_position_and_platform() {
        let e = EmitError {
            kind: Box::new(EmitErrorKind::Unsupported {
                what: "64-bit integer division has no vISA form here".into(),
            }),
            platform: "dg2".into(),
            function: Some("main".into()),
            inst: None,
            span: Span::new(7, 5),
            what: Some("%3 = udiv".into()),
        };
        assert_eq!(
            e.to_string(),
            "7:5: in fn main: `%3 = udiv`: 64-bit integer division has no vISA form here (vISA for dg2)"
        );
        let e = EmitError::shader(
            EmitErrorKind::SimdWidth {
                simd: 8,
                allowed: &[16, 32],
            },
            "pvc",
        );
        assert_eq!(
            e.message(),
            "the kernel would run at SIMD8, but the platform dispatches SIMD16, SIMD32 only (vISA for pvc)"
        );
    }
}
