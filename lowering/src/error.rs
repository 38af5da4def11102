//! Errors of the lowering: what could not be lowered, where, and why.

use ir::{Format, Span};
use std::fmt;

/// Why a format has no storage lowering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FormatErrorKind {
    /// The image has no format qualifier.
    NoFormat,
    /// The format is not a storage-image format on this platform.
    NotStorable,
}

/// A format that cannot be lowered on a platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FormatError {
    /// The format.
    pub format: Format,
    /// The platform name.
    pub platform: String,
    /// Why.
    pub kind: FormatErrorKind,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            FormatErrorKind::NoFormat => write!(
                f,
                "the image has no format qualifier, so its format cannot be lowered on {}",
                self.platform
            ),
            FormatErrorKind::NotStorable => write!(
                f,
                "{} is not a storage image format on {}",
                self.format, self.platform
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// A colour conversion that cannot be built: the formats are not an image format and
/// one of its lowerings, or the value does not have the shape the conversion needs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConvertError {
    /// The image format.
    pub image: Format,
    /// The format the surface is accessed as.
    pub lower: Format,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot convert colours between {} and {}: {}",
            self.image, self.lower, self.message
        )
    }
}

impl std::error::Error for ConvertError {}

/// The kinds of accesses the lowering cannot turn into messages.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LowerErrorKind {
    /// The image format is not a storage format on the platform (R64 before Gfx9).
    UnsupportedFormat,
    /// A format-less image accessed where the shader must know the format (loads
    /// before Gfx12.5, whose typed reads do not convert every format).
    FormatRequired,
    /// A load from an image declared `writeonly` (bound with its unlowered format).
    WriteOnlyLoad,
    /// The format cannot be accessed typed on the platform.
    TypedUnsupported,
    /// The format has no typed atomics on the platform (isl TA column).
    AtomicFormatUnsupported,
    /// An atomic whose operation does not fit the format's data type (integer
    /// arithmetic on a float format, float arithmetic on an integer format).
    AtomicTypeMismatch,
    /// A NIR atomic op with no LSC operation (`inc_wrap`, `dec_wrap`; lsc.md §13.12).
    AtomicOpUnmapped,
    /// A float atomic the platform does not support on images.
    FloatAtomicUnsupported,
    /// A 64-bit image atomic on a platform without 64-bit (A64 global) atomics.
    Int64AtomicUnsupported,
    /// The lowering needs 64-bit flat (A64) addresses (`untyped-address=a64`, global
    /// memory of a group async copy), which the platform's messages do not have.
    A64Unsupported,
    /// An image dimension / arrayness the messages cannot address.
    UnsupportedDim,
    /// The access needs the untyped fallback, which cannot address it on this platform
    /// (no tiling the untyped address code can express).
    UntypedPathUnavailable,
    /// An image's static layout cannot describe it on the platform.
    InvalidLayout,
    /// A 2D block message was asked for (`lower-async-copies(block2d=always)`) where the
    /// platform's block2d rules (lsc.md §8.2, §13.9) or the operation do not allow one.
    IllegalBlock2d,
    /// A load with a LOD the path cannot address: the untyped path reads the view's
    /// level through its parameter block, so a LOD that is not the constant 0 needs the
    /// bounds check to turn it into an out-of-bounds access.
    LodUnsupported,
    /// An image block access the platform's 2D block messages cannot express (no block
    /// messages, an untyped surface that is not statically linear, or a shape the
    /// block2d rules cannot split into whole SIMT components).
    BlockUnsupported,
    /// A read of a sampled image (`sampled` access) on a platform without a 3D sampler,
    /// or of a format the sampler cannot read: sampled images are read through the
    /// sampler only.
    SamplerUnavailable,
    /// The instruction does not have the shape its opcode requires.
    Malformed,
}

impl LowerErrorKind {
    /// A short name for the kind.
    pub fn name(self) -> &'static str {
        match self {
            LowerErrorKind::UnsupportedFormat => "unsupported format",
            LowerErrorKind::FormatRequired => "format required",
            LowerErrorKind::WriteOnlyLoad => "load from writeonly image",
            LowerErrorKind::TypedUnsupported => "typed access unsupported",
            LowerErrorKind::AtomicFormatUnsupported => "atomic format unsupported",
            LowerErrorKind::AtomicTypeMismatch => "atomic type mismatch",
            LowerErrorKind::AtomicOpUnmapped => "atomic op without LSC mapping",
            LowerErrorKind::FloatAtomicUnsupported => "float atomic unsupported",
            LowerErrorKind::Int64AtomicUnsupported => "64-bit atomic unsupported",
            LowerErrorKind::A64Unsupported => "A64 addressing unsupported",
            LowerErrorKind::UnsupportedDim => "unsupported image dimension",
            LowerErrorKind::UntypedPathUnavailable => "untyped path unavailable",
            LowerErrorKind::InvalidLayout => "invalid static layout",
            LowerErrorKind::IllegalBlock2d => "illegal 2D block message",
            LowerErrorKind::LodUnsupported => "LOD unsupported",
            LowerErrorKind::BlockUnsupported => "block access unsupported",
            LowerErrorKind::SamplerUnavailable => "sampler unavailable",
            LowerErrorKind::Malformed => "malformed instruction",
        }
    }
}

/// An image access (or option) the lowering cannot handle.
///
/// Displayed as `line:col: cannot lower @image_load of @img (rgba16_unorm) on ivb: ...`,
/// naming the instruction, its position, the image and format, and the platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LowerError {
    /// What kind of problem.
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
    /// What is wrong, in words.
    pub message: String,
}

impl LowerError {
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
        } else {
            out.push_str(" images");
        }
        out.push_str(&format!(" on {}: {}", self.platform, self.message));
        out
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

impl std::error::Error for LowerError {}

/// What a lowering pass reports to the pass manager, given the outcome of its run
/// (`Ok(n)`: `n` instructions lowered; `Err`: every instruction it could not lower).
/// Debug builds also validate the changed shader (design.md: passes validate their own
/// output in debug builds).
pub(crate) fn pass_outcome(
    pass: &str,
    shader: &ir::Shader,
    lowered: Result<usize, Vec<LowerError>>,
) -> Result<bool, ir::passes::PassError> {
    let failure = |diagnostics| ir::passes::PassError {
        pass: pass.to_string(),
        diagnostics,
    };
    let changed = lowered.map_err(|errors| {
        failure(
            errors
                .iter()
                .map(|e| ir::diag::Diagnostic::error(e.span, e.describe()))
                .collect(),
        )
    })? > 0;
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
        let e = LowerError {
            kind: LowerErrorKind::AtomicOpUnmapped,
            function: Some("main".into()),
            intrinsic: Some("image_atomic"),
            span: Span::new(7, 5),
            image: Some("img".into()),
            format: Some(Format::R32Uint),
            platform: "dg2".into(),
            message: "atomic op inc_wrap has no LSC operation".into(),
        };
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
    fn format_error_text() {
        let e = FormatError {
            format: Format::R64Uint,
            platform: "hsw".into(),
            kind: FormatErrorKind::NotStorable,
        };
        assert_eq!(
            e.to_string(),
            "r64_uint is not a storage image format on hsw"
        );
    }
}
