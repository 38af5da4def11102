//! Errors of the lowering: what could not be lowered, where, and why.
//!
//! A [`LowerError`] names the instruction (function, intrinsic, source position), the
//! image and its format, and the platform; its [`LowerErrorKind`] says why, as data a
//! driver can match on (an atomic op, a format, a surface, a block rule). `Display`
//! renders the sentence; `source()` gives the underlying error where there is one (an
//! address, layout, format, conversion or block2d rule error).
//!
//! The texts say the rules in words. They never name a command-line flag or a pass
//! option: the tools add those hints where they know which flag asked for the failing
//! behaviour.

mod malformation;
mod reason;

pub use malformation::Malformation;
pub use reason::{A64Use, BlockProblem, CopyBlockProblem, DimProblem, FormatProblem, FormatUse};

use crate::address::AddressError;
use crate::format::{FormatError, FormatErrorKind};
use crate::messages::dataport::DataportRule;
use ir::diag::Diagnostic;
use ir::{AtomicOp, Format, Span};
use std::fmt;
use tiling::Gen;

/// The kinds of accesses the lowering cannot turn into messages, with what it knows
/// about each.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum LowerErrorKind {
    /// The shader fails validation: the lowering requires validated input
    /// ([`crate::lower_shader`] validates it once). The validator's diagnostic.
    InvalidShader(Box<Diagnostic>),
    /// An image access for a generation without storage images (Gfx4–6: typed surface
    /// access from shaders arrives with Gfx7).
    NoStorageImages {
        /// The generation.
        gen: Gen,
    },
    /// The image format has no lowering on the access's path.
    UnsupportedFormat(Box<FormatProblem>),
    /// A format-less image accessed where the shader must know the format.
    FormatRequired(FormatUse),
    /// A load from an image declared `writeonly` (bound with its unlowered format).
    WriteOnlyLoad,
    /// The lowered format cannot be read or written with typed messages.
    TypedUnsupported {
        /// Whether the access writes.
        write: bool,
        /// The surface format.
        surface: Format,
    },
    /// The format has no atomics on the platform (isl TA column).
    AtomicFormatUnsupported {
        /// The format.
        format: Format,
        /// Whether the atomic takes the untyped path.
        untyped: bool,
        /// Whether the platform has atomics on R16 images.
        r16: bool,
    },
    /// An atomic whose operation does not fit the format's data type (integer
    /// arithmetic on a float format, float arithmetic on an integer format).
    AtomicTypeMismatch {
        /// The operation.
        op: AtomicOp,
        /// Whether the format holds floats.
        float_format: bool,
    },
    /// A NIR atomic op with no LSC operation (`inc_wrap`, `dec_wrap`;
    /// `docs/hardware/lsc-messages.md` §13.12).
    AtomicOpUnmapped {
        /// The operation.
        op: AtomicOp,
    },
    /// A float atomic the platform does not support on images.
    FloatAtomicUnsupported {
        /// The operation.
        op: AtomicOp,
    },
    /// A 64-bit image atomic on a platform without 64-bit (A64 global) atomics.
    Int64AtomicUnsupported,
    /// The lowering needs 64-bit flat (A64) addresses, which the platform's messages do
    /// not have (before Gfx8).
    A64Unsupported(A64Use),
    /// An image dimension / arrayness the messages cannot address.
    UnsupportedDim(DimProblem),
    /// The access needs the untyped fallback, which cannot address it on this platform.
    UntypedPathUnavailable(Box<AddressError>),
    /// An image's static layout cannot describe it on the platform.
    InvalidLayout(Box<AddressError>),
    /// 2D block messages were required for a group async copy
    /// ([`crate::Block2dPolicy::Always`]) where the platform's block2d rules, or the
    /// copy, do not allow them.
    IllegalBlock2d(Box<CopyBlockProblem>),
    /// A load with a LOD the untyped path cannot address without the bounds check.
    LodUnsupported,
    /// An image block access the platform's 2D block messages cannot express.
    BlockUnsupported(Box<BlockProblem>),
    /// A read of a sampled image (`sampled` access: a texture bound for the sampler),
    /// which only the sampler may read, on a platform without a 3D sampler or of a
    /// format the sampler cannot read.
    SamplerUnavailable {
        /// The format the sampler cannot read, or `None` when the platform has no
        /// sampler at all.
        format: Option<Format>,
    },
    /// A message the platform's legacy data port (Gfx7 to Gfx12.0, where there is no
    /// LSC) has no form for: the rule it breaks.
    NoDataportMessage(Box<DataportRule>),
    /// A level query of a sampled image (`image_levels`, or `image_size` at a LOD that
    /// is not the constant 0) on a platform without a 3D sampler: only the sampler's
    /// `resinfo` reports the levels of a sampled view, and the parameter block
    /// describes its base level alone.
    SampledLevelsUnavailable,
    /// The instruction does not have the shape its opcode requires.
    Malformed(Malformation),
    /// A stage of [`crate::lower_shader`] failed on a shader the lowering itself
    /// produced (a bug of the lowering): the cleanup reported an error, or the shader is
    /// invalid after the stage (checked in debug builds).
    StageFailed {
        /// The stage ([`crate::PIPELINE`]).
        stage: &'static str,
        /// What is wrong.
        diagnostic: Box<Diagnostic>,
    },
}

/// The kind of a [`LowerError`] without its data ([`LowerErrorKind::code`]): what a
/// driver matches on to decide, or counts, when the details do not matter.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum LowerErrorCode {
    /// [`LowerErrorKind::InvalidShader`].
    InvalidShader,
    /// [`LowerErrorKind::NoStorageImages`].
    NoStorageImages,
    /// [`LowerErrorKind::UnsupportedFormat`].
    UnsupportedFormat,
    /// [`LowerErrorKind::FormatRequired`].
    FormatRequired,
    /// [`LowerErrorKind::WriteOnlyLoad`].
    WriteOnlyLoad,
    /// [`LowerErrorKind::TypedUnsupported`].
    TypedUnsupported,
    /// [`LowerErrorKind::AtomicFormatUnsupported`].
    AtomicFormatUnsupported,
    /// [`LowerErrorKind::AtomicTypeMismatch`].
    AtomicTypeMismatch,
    /// [`LowerErrorKind::AtomicOpUnmapped`].
    AtomicOpUnmapped,
    /// [`LowerErrorKind::FloatAtomicUnsupported`].
    FloatAtomicUnsupported,
    /// [`LowerErrorKind::Int64AtomicUnsupported`].
    Int64AtomicUnsupported,
    /// [`LowerErrorKind::A64Unsupported`].
    A64Unsupported,
    /// [`LowerErrorKind::UnsupportedDim`].
    UnsupportedDim,
    /// [`LowerErrorKind::UntypedPathUnavailable`].
    UntypedPathUnavailable,
    /// [`LowerErrorKind::InvalidLayout`].
    InvalidLayout,
    /// [`LowerErrorKind::IllegalBlock2d`].
    IllegalBlock2d,
    /// [`LowerErrorKind::LodUnsupported`].
    LodUnsupported,
    /// [`LowerErrorKind::BlockUnsupported`].
    BlockUnsupported,
    /// [`LowerErrorKind::SamplerUnavailable`].
    SamplerUnavailable,
    /// [`LowerErrorKind::NoDataportMessage`].
    NoDataportMessage,
    /// [`LowerErrorKind::SampledLevelsUnavailable`].
    SampledLevelsUnavailable,
    /// [`LowerErrorKind::Malformed`].
    Malformed,
    /// [`LowerErrorKind::StageFailed`].
    StageFailed,
}

impl LowerErrorCode {
    /// A short name for the kind.
    pub fn name(self) -> &'static str {
        match self {
            LowerErrorCode::InvalidShader => "invalid shader",
            LowerErrorCode::NoStorageImages => "no storage images",
            LowerErrorCode::UnsupportedFormat => "unsupported format",
            LowerErrorCode::FormatRequired => "format required",
            LowerErrorCode::WriteOnlyLoad => "load from writeonly image",
            LowerErrorCode::TypedUnsupported => "typed access unsupported",
            LowerErrorCode::AtomicFormatUnsupported => "atomic format unsupported",
            LowerErrorCode::AtomicTypeMismatch => "atomic type mismatch",
            LowerErrorCode::AtomicOpUnmapped => "atomic op without LSC mapping",
            LowerErrorCode::FloatAtomicUnsupported => "float atomic unsupported",
            LowerErrorCode::Int64AtomicUnsupported => "64-bit atomic unsupported",
            LowerErrorCode::A64Unsupported => "A64 addressing unsupported",
            LowerErrorCode::UnsupportedDim => "unsupported image dimension",
            LowerErrorCode::UntypedPathUnavailable => "untyped path unavailable",
            LowerErrorCode::InvalidLayout => "invalid static layout",
            LowerErrorCode::IllegalBlock2d => "illegal 2D block message",
            LowerErrorCode::LodUnsupported => "LOD unsupported",
            LowerErrorCode::BlockUnsupported => "block access unsupported",
            LowerErrorCode::SamplerUnavailable => "sampler unavailable",
            LowerErrorCode::NoDataportMessage => "no data-port message",
            LowerErrorCode::SampledLevelsUnavailable => "sampled levels unavailable",
            LowerErrorCode::Malformed => "malformed instruction",
            LowerErrorCode::StageFailed => "stage failed",
        }
    }
}

impl fmt::Display for LowerErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl LowerErrorKind {
    /// The kind without its data.
    pub fn code(&self) -> LowerErrorCode {
        match self {
            LowerErrorKind::InvalidShader(_) => LowerErrorCode::InvalidShader,
            LowerErrorKind::NoStorageImages { .. } => LowerErrorCode::NoStorageImages,
            LowerErrorKind::UnsupportedFormat(_) => LowerErrorCode::UnsupportedFormat,
            LowerErrorKind::FormatRequired(_) => LowerErrorCode::FormatRequired,
            LowerErrorKind::WriteOnlyLoad => LowerErrorCode::WriteOnlyLoad,
            LowerErrorKind::TypedUnsupported { .. } => LowerErrorCode::TypedUnsupported,
            LowerErrorKind::AtomicFormatUnsupported { .. } => {
                LowerErrorCode::AtomicFormatUnsupported
            }
            LowerErrorKind::AtomicTypeMismatch { .. } => LowerErrorCode::AtomicTypeMismatch,
            LowerErrorKind::AtomicOpUnmapped { .. } => LowerErrorCode::AtomicOpUnmapped,
            LowerErrorKind::FloatAtomicUnsupported { .. } => LowerErrorCode::FloatAtomicUnsupported,
            LowerErrorKind::Int64AtomicUnsupported => LowerErrorCode::Int64AtomicUnsupported,
            LowerErrorKind::A64Unsupported(_) => LowerErrorCode::A64Unsupported,
            LowerErrorKind::UnsupportedDim(_) => LowerErrorCode::UnsupportedDim,
            LowerErrorKind::UntypedPathUnavailable(_) => LowerErrorCode::UntypedPathUnavailable,
            LowerErrorKind::InvalidLayout(_) => LowerErrorCode::InvalidLayout,
            LowerErrorKind::IllegalBlock2d(_) => LowerErrorCode::IllegalBlock2d,
            LowerErrorKind::LodUnsupported => LowerErrorCode::LodUnsupported,
            LowerErrorKind::BlockUnsupported(_) => LowerErrorCode::BlockUnsupported,
            LowerErrorKind::SamplerUnavailable { .. } => LowerErrorCode::SamplerUnavailable,
            LowerErrorKind::NoDataportMessage(_) => LowerErrorCode::NoDataportMessage,
            LowerErrorKind::SampledLevelsUnavailable => LowerErrorCode::SampledLevelsUnavailable,
            LowerErrorKind::Malformed(_) => LowerErrorCode::Malformed,
            LowerErrorKind::StageFailed { .. } => LowerErrorCode::StageFailed,
        }
    }

    /// A short name for the kind ([`LowerErrorCode::name`]).
    pub fn name(&self) -> &'static str {
        self.code().name()
    }
}

impl fmt::Display for LowerErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LowerErrorKind as K;
        match self {
            K::InvalidShader(d) => write!(f, "the shader is invalid: {}", d.message),
            K::NoStorageImages { gen } => write!(
                f,
                "{gen} has no storage images: shaders access images through typed surface \
                 messages, which arrive with Gfx7 (Ivy Bridge)"
            ),
            K::UnsupportedFormat(p) => write!(f, "{p}"),
            K::FormatRequired(u) => write!(f, "{u}"),
            K::WriteOnlyLoad => f.write_str(
                "the image is declared writeonly (bound with its own format for \
                 hardware-converted stores), so it cannot be read",
            ),
            K::TypedUnsupported { write, surface } => write!(
                f,
                "typed {} of {surface} surfaces are not supported",
                if *write { "writes" } else { "reads" }
            ),
            K::AtomicFormatUnsupported {
                format,
                untyped: false,
                r16,
            } => write!(
                f,
                "typed atomics need an R32 surface{}, not {format}",
                if *r16 { " or an R16 one" } else { "" }
            ),
            K::AtomicFormatUnsupported {
                format,
                untyped: true,
                r16,
            } => write!(
                f,
                "untyped image atomics need an R32{} or R64 image, not {format}",
                if *r16 { ", R16" } else { "" }
            ),
            K::AtomicTypeMismatch { op, float_format } => write!(
                f,
                "{} atomic {op} on a{} format",
                if op.is_float() { "float" } else { "integer" },
                if *float_format { " float" } else { "n integer" }
            ),
            K::AtomicOpUnmapped { op } => write!(f, "atomic op {op} has no LSC operation"),
            K::FloatAtomicUnsupported { op } => {
                write!(f, "image atomic {op} is not supported on this platform")
            }
            K::Int64AtomicUnsupported => {
                f.write_str("64-bit image atomics need A64 global atomics (Gfx9+)")
            }
            K::A64Unsupported(A64Use::UntypedAddress) => f.write_str(
                "untyped accesses with 64-bit flat (A64) addresses need the A64 messages, which \
                 arrive with Gfx8",
            ),
            K::A64Unsupported(A64Use::GroupCopy) => f.write_str(
                "the global side needs 64-bit flat (A64) addresses, which messages have from Gfx8",
            ),
            K::UnsupportedDim(p) => write!(f, "{p}"),
            K::UntypedPathUnavailable(e) | K::InvalidLayout(e) => write!(f, "{e}"),
            K::IllegalBlock2d(p) => write!(f, "2D block messages were required: {p}"),
            K::LodUnsupported => f.write_str(
                "the untyped path addresses the view's level only (its parameter block \
                 describes one level), and without the bounds check a LOD that is not the \
                 constant 0 cannot be turned into an out-of-bounds load",
            ),
            K::BlockUnsupported(p) => write!(f, "{p}"),
            K::SamplerUnavailable { format: None } => f.write_str(
                "the image is a sampled texture, which only the sampler reads, and the \
                 platform has no 3D sampler",
            ),
            K::SamplerUnavailable {
                format: Some(format),
            } => write!(
                f,
                "the image is a sampled texture of format {format}, which the sampler cannot read"
            ),
            K::NoDataportMessage(rule) => write!(f, "{rule}"),
            K::SampledLevelsUnavailable => f.write_str(
                "the image is a sampled texture: only the sampler's resinfo reports the \
                 levels of its view (the parameter block describes the base level alone), \
                 and the platform has no 3D sampler",
            ),
            K::Malformed(m) => write!(f, "{m}"),
            K::StageFailed { stage, diagnostic } => write!(
                f,
                "the shader is invalid after {stage} (a bug of the lowering): {}",
                diagnostic.message
            ),
        }
    }
}

/// An image access (or option) the lowering cannot handle.
///
/// Displayed as `line:col: cannot lower @image_load of @img (rgba16_unorm) on ivb: ...`,
/// naming the instruction, its position, the image and format, and the platform; the
/// sentence after the colon is the [`LowerErrorKind`]'s.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct LowerError {
    /// Why.
    pub kind: LowerErrorKind,
    /// The function holding the instruction, if the error is about one.
    pub function: Option<Box<str>>,
    /// The intrinsic's name (`image_load`), if the error is about an instruction.
    pub intrinsic: Option<&'static str>,
    /// Where the instruction was written.
    pub span: Span,
    /// The image's name, without `@`.
    pub image: Option<Box<str>>,
    /// The image format the access names.
    pub format: Option<Format>,
    /// The platform name.
    pub platform: Box<str>,
}

impl LowerError {
    /// An error of `kind` on `platform`, about no instruction in particular; the
    /// `with_*` methods add what it is about.
    pub fn new(kind: LowerErrorKind, platform: &str) -> LowerError {
        LowerError {
            kind,
            function: None,
            intrinsic: None,
            span: Span::UNKNOWN,
            image: None,
            format: None,
            platform: platform.into(),
        }
    }

    /// The error about instruction `intrinsic` of function `function`, written at
    /// `span`.
    pub fn at(mut self, function: &str, intrinsic: Option<&'static str>, span: Span) -> LowerError {
        self.function = Some(function.into());
        self.intrinsic = intrinsic;
        self.span = span;
        self
    }

    /// The error about image `image` of format `format`.
    pub fn with_image(mut self, image: &str, format: Format) -> LowerError {
        self.image = Some(image.into());
        self.format = Some(format);
        self
    }

    /// The error without its position: what the diagnostic says.
    pub fn describe(&self) -> String {
        let mut out = String::from("cannot lower");
        if let Some(i) = self.intrinsic {
            out.push_str(&format!(" @{i}"));
            if let Some(img) = &self.image {
                out.push_str(&format!(" of @{img}"));
            }
            if let Some(fmt) = self.format {
                out.push_str(&format!(" ({fmt})"));
            }
        } else if matches!(
            self.kind,
            LowerErrorKind::InvalidShader(_) | LowerErrorKind::StageFailed { .. }
        ) {
            out.push_str(" the shader");
        } else {
            out.push_str(" images");
        }
        out.push_str(&format!(" on {}: {}", self.platform, self.kind));
        out
    }

    /// The error as a diagnostic at its position, for rendering with a source snippet
    /// (`Diagnostic::render`).
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.span, self.describe())
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.span.is_known() {
            write!(f, "{}: ", self.span)?;
        } else if let Some(func) = &self.function {
            write!(f, "fn {func}: ")?;
        }
        f.write_str(&self.describe())
    }
}

impl std::error::Error for LowerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use LowerErrorKind as K;
        match &self.kind {
            K::UnsupportedFormat(p) => match p.as_ref() {
                FormatProblem::NotStorable(e) => Some(e),
                FormatProblem::Address(e) => Some(e),
                _ => None,
            },
            K::FormatRequired(FormatUse::Lowering(e)) => Some(e),
            K::UntypedPathUnavailable(e) | K::InvalidLayout(e) => Some(e.as_ref()),
            K::BlockUnsupported(p) => match p.as_ref() {
                BlockProblem::NoBlockMessages { rule, .. } => Some(rule),
                BlockProblem::Split { error, .. } => Some(error),
                _ => None,
            },
            K::IllegalBlock2d(p) => match p.as_ref() {
                CopyBlockProblem::Rule(rule) => Some(rule),
                CopyBlockProblem::Split(error) => Some(error),
                _ => None,
            },
            K::Malformed(Malformation::Conversion(e)) => Some(e),
            K::NoDataportMessage(rule) => Some(rule.as_ref()),
            _ => None,
        }
    }
}

/// The lowering error of a format error: a format-less image is
/// [`LowerErrorKind::FormatRequired`], a format with no storage lowering
/// [`LowerErrorKind::UnsupportedFormat`].
pub(crate) fn format_error_kind(e: FormatError) -> LowerErrorKind {
    match e.kind {
        FormatErrorKind::NoFormat => LowerErrorKind::FormatRequired(FormatUse::Lowering(e)),
        _ => LowerErrorKind::UnsupportedFormat(Box::new(FormatProblem::NotStorable(e))),
    }
}

/// The lowering error of an address planning error.
pub(crate) fn address_error_kind(e: AddressError) -> LowerErrorKind {
    match e {
        AddressError::NoFormat => LowerErrorKind::FormatRequired(FormatUse::UntypedAddress),
        AddressError::TexelSize { .. } => {
            LowerErrorKind::UnsupportedFormat(Box::new(FormatProblem::Address(e)))
        }
        AddressError::Arrayed { dim } => {
            LowerErrorKind::UnsupportedDim(DimProblem::Arrayed { dim })
        }
        AddressError::Layout(_) => LowerErrorKind::InvalidLayout(Box::new(e)),
        _ => LowerErrorKind::UntypedPathUnavailable(Box::new(e)),
    }
}

/// What a lowering pass reports to the pass manager, given the outcome of its run
/// (`Ok(n)`: `n` instructions lowered; `Err`: every instruction it could not lower).
/// Debug builds also validate the changed shader (passes validate their own output in
/// debug builds).
pub(crate) fn pass_outcome(
    pass: &str,
    shader: &ir::Shader,
    lowered: Result<usize, Vec<LowerError>>,
) -> Result<bool, ir::passes::PassError> {
    let failure = |diagnostics| ir::passes::PassError {
        pass: pass.to_string(),
        diagnostics,
    };
    let changed = lowered
        .map_err(|errors| failure(errors.iter().map(LowerError::to_diagnostic).collect()))?
        > 0;
    if cfg!(debug_assertions) && changed {
        ir::validate(shader).map_err(failure)?;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_instruction_position_format_and_platform() {
        let e = LowerError::new(
            LowerErrorKind::AtomicOpUnmapped {
                op: AtomicOp::IncWrap,
            },
            "dg2",
        )
        .at("main", Some("image_atomic"), Span::new(7, 5))
        .with_image("img", Format::R32Uint);
        assert_eq!(
            e.to_string(),
            "7:5: cannot lower @image_atomic of @img (r32_uint) on dg2: \
             atomic op inc_wrap has no LSC operation"
        );
        let e2 = LowerError {
            span: Span::UNKNOWN,
            ..e
        };
        assert!(e2.to_string().starts_with("fn main: cannot lower"));
    }

    #[test]
    fn kinds_carry_data_and_sources_chain() {
        use std::error::Error;
        let format_error = FormatError {
            format: Format::R64Uint,
            platform: "hsw".into(),
            kind: FormatErrorKind::NotStorable,
        };
        let e = LowerError::new(format_error_kind(format_error.clone()), "hsw");
        assert_eq!(
            e.kind,
            LowerErrorKind::UnsupportedFormat(Box::new(FormatProblem::NotStorable(format_error)))
        );
        assert_eq!(
            e.source().map(|s| s.to_string()),
            Some("r64_uint is not a storage image format on hsw".into())
        );
        let e = LowerError::new(
            LowerErrorKind::FloatAtomicUnsupported { op: AtomicOp::Fadd },
            "dg2",
        );
        assert!(e.source().is_none());
        // Small enough to pass around in `Result`s: the bulky reasons are boxed.
        assert!(std::mem::size_of::<LowerError>() <= 120);
        assert_eq!(
            e.to_string(),
            "cannot lower images on dg2: image atomic fadd is not supported on this platform"
        );
        // No library message names a command-line flag or a pass option.
        let texts = [
            LowerErrorKind::A64Unsupported(A64Use::UntypedAddress).to_string(),
            LowerErrorKind::IllegalBlock2d(Box::new(CopyBlockProblem::NoSubgroupSize)).to_string(),
            LowerErrorKind::LodUnsupported.to_string(),
        ];
        for t in texts {
            assert!(!t.contains("--") && !t.contains('='), "{t}");
        }
    }
}
