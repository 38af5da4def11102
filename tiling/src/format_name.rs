//! Format names: parsing isl's names and the short NIR-style ones into a [`Format`], and
//! the isl formats the layout engine does not model, each with the reason.
//!
//! A name is one of three things: a modelled format, an isl format that is not
//! supported (a [`ParseFormatError::NotSupported`] that says why), or unknown. The
//! unsupported rows of isl's table (Mesa `src/intel/isl/isl_format_layout.csv`) are
//! those whose elements no tiling places (smaller than a byte or wider than 128 bits),
//! those without an element layout (planar YUV, `RAW`), and the auxiliary-surface
//! formats (HiZ, MCS, CCS), which belong to surfaces this crate does not lay out.

use std::fmt;
use std::str::FromStr;

use crate::format::Format;

/// Why an isl format is not supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unsupported {
    /// The elements are smaller than a byte (isl's 1- and 2-bit formats). Every tiling
    /// and the texel addressing work in whole-byte elements.
    SubByteElement {
        /// isl's bits per element.
        bpb: u32,
    },
    /// The elements are wider than 128 bits, the widest element any tiling pattern takes
    /// (isl's tables stop at 128 bpb). isl's formats this wide are vertex-fetch formats.
    WideElement {
        /// isl's bits per element (196 for `R64G64B64_FLOAT`, as isl's table gives it).
        bpb: u32,
    },
    /// Planar YUV: isl gives the format no element (0 bits); each plane is laid out as a
    /// separate surface of a single-plane format.
    Planar,
    /// `RAW`: untyped buffer data, with no element layout (0 bits in isl's table).
    NoLayout,
    /// A format of an auxiliary surface (HiZ, MCS or CCS). Those surfaces have tilings
    /// and rules of their own, and the layout engine models main surfaces only (isl's
    /// `DISABLE_AUX` usage).
    Auxiliary {
        /// `HiZ`, `MCS` or `CCS`.
        kind: &'static str,
    },
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsupported::SubByteElement { bpb } => write!(
                f,
                "its {bpb}-bit elements are smaller than a byte, and tilings place whole bytes"
            ),
            Unsupported::WideElement { bpb } => write!(
                f,
                "its {bpb}-bit elements are wider than the 128 bits any tiling takes (isl's \
                 formats this wide are vertex-fetch formats)"
            ),
            Unsupported::Planar => f.write_str(
                "it is planar YUV, which has no single element; each plane is a separate \
                 surface",
            ),
            Unsupported::NoLayout => {
                f.write_str("it names untyped buffer data and has no element layout")
            }
            Unsupported::Auxiliary { kind } => write!(
                f,
                "it is a {kind} auxiliary-surface format, and only main surfaces without \
                 auxiliary data are laid out"
            ),
        }
    }
}

/// An isl format the layout engine does not model, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnsupportedFormat {
    /// isl's name without the `ISL_FORMAT_` prefix.
    pub name: &'static str,
    /// Why it is not modelled.
    pub reason: Unsupported,
}

const fn unsupported(name: &'static str, reason: Unsupported) -> UnsupportedFormat {
    UnsupportedFormat { name, reason }
}

const fn sub_byte(name: &'static str, bpb: u32) -> UnsupportedFormat {
    unsupported(name, Unsupported::SubByteElement { bpb })
}

const fn wide(name: &'static str, bpb: u32) -> UnsupportedFormat {
    unsupported(name, Unsupported::WideElement { bpb })
}

const fn aux(name: &'static str, kind: &'static str) -> UnsupportedFormat {
    unsupported(name, Unsupported::Auxiliary { kind })
}

impl UnsupportedFormat {
    /// Every row of isl's format table that [`Format`] leaves out, in the table's order.
    /// Together with [`Format::ALL`] this is all of isl's table.
    pub const ALL: &'static [UnsupportedFormat] = &[
        sub_byte("R1_UNORM", 1),
        sub_byte("P2_UNORM_PALETTE0", 2),
        sub_byte("P2_UNORM_PALETTE1", 2),
        sub_byte("MONO8", 1),
        wide("R64G64B64A64_FLOAT", 256),
        wide("R64G64B64_FLOAT", 196),
        unsupported("PLANAR_420_8", Unsupported::Planar),
        unsupported("PLANAR_420_10", Unsupported::Planar),
        unsupported("PLANAR_420_12", Unsupported::Planar),
        unsupported("PLANAR_420_16", Unsupported::Planar),
        wide("R64G64B64A64_PASSTHRU", 256),
        wide("R64G64B64_PASSTHRU", 192),
        unsupported("RAW", Unsupported::NoLayout),
        aux("HIZ", "HiZ"),
        aux("GFX125_HIZ", "HiZ"),
        aux("MCS_2X", "MCS"),
        aux("MCS_4X", "MCS"),
        aux("MCS_8X", "MCS"),
        aux("MCS_16X", "MCS"),
        aux("GFX7_CCS_32BPP_X", "CCS"),
        aux("GFX7_CCS_64BPP_X", "CCS"),
        aux("GFX7_CCS_128BPP_X", "CCS"),
        aux("GFX7_CCS_32BPP_Y", "CCS"),
        aux("GFX7_CCS_64BPP_Y", "CCS"),
        aux("GFX7_CCS_128BPP_Y", "CCS"),
        aux("GFX9_CCS_32BPP", "CCS"),
        aux("GFX9_CCS_64BPP", "CCS"),
        aux("GFX9_CCS_128BPP", "CCS"),
        aux("GFX12_CCS_8BPP_Y0", "CCS"),
        aux("GFX12_CCS_16BPP_Y0", "CCS"),
        aux("GFX12_CCS_32BPP_Y0", "CCS"),
        aux("GFX12_CCS_64BPP_Y0", "CCS"),
        aux("GFX12_CCS_128BPP_Y0", "CCS"),
        aux("GFX12_CCS_8BPP_Ys", "CCS"),
        aux("GFX12_CCS_16BPP_Ys", "CCS"),
        aux("GFX12_CCS_32BPP_Ys", "CCS"),
        aux("GFX12_CCS_64BPP_Ys", "CCS"),
        aux("GFX12_CCS_128BPP_Ys", "CCS"),
    ];
}

/// Why a name does not give a [`Format`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseFormatError {
    /// Not an isl format name, nor a short name of one.
    Unknown {
        /// The name as given.
        name: String,
    },
    /// An isl format the layout engine does not model.
    NotSupported {
        /// The name as given.
        name: String,
        /// The isl format it names, with the reason.
        format: UnsupportedFormat,
    },
}

impl ParseFormatError {
    /// The name as given.
    pub fn name(&self) -> &str {
        match self {
            ParseFormatError::Unknown { name } | ParseFormatError::NotSupported { name, .. } => {
                name
            }
        }
    }
}

impl fmt::Display for ParseFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFormatError::Unknown { name } => write!(
                f,
                "unknown format `{name}` (expected an isl name such as R8G8B8A8_UNORM or a \
                 short name such as rgba8_unorm)"
            ),
            ParseFormatError::NotSupported { format, .. } => write!(
                f,
                "isl format {} is not supported: {}",
                format.name, format.reason
            ),
        }
    }
}

impl std::error::Error for ParseFormatError {}

/// The error [`Format::from_name`] returned before "not supported" was told apart from
/// "unknown".
#[deprecated(
    note = "use ParseFormatError, which also reports isl formats that are not \
                     supported"
)]
pub type UnknownFormat = ParseFormatError;

impl Format {
    /// Looks a format up by name.
    ///
    /// Accepts, case-insensitively:
    /// - isl names with or without the `ISL_FORMAT_` prefix (`R8G8B8A8_UNORM`,
    ///   `isl_format_bc1_unorm`);
    /// - short NIR-style names: channel letters, one bit width for all of them and the
    ///   type (`rgba8_unorm`, `rg16_float`, `r32_uint`, `bgra8_unorm`), and the packed
    ///   names `rgb10a2_unorm`, `rgb10a2_uint`, `r11g11b10_float` (also `rg11b10_float`);
    /// - `R64_UINT` / `R64_SINT` (and `r64_uint`, `r64_sint`), which isl has no format for:
    ///   like anv, they map to `R64_PASSTHRU`.
    ///
    /// A name of an isl format that is not modelled is
    /// [`ParseFormatError::NotSupported`], with the reason; any other name is
    /// [`ParseFormatError::Unknown`].
    pub fn from_name(name: &str) -> Result<Format, ParseFormatError> {
        let upper = name.trim().to_ascii_uppercase();
        let bare = upper.strip_prefix("ISL_FORMAT_").unwrap_or(&upper);
        let found = lookup(bare).or_else(|| short_name_to_isl(bare).and_then(|n| lookup(&n)));
        match found {
            Some(Ok(f)) => Ok(f),
            Some(Err(format)) => Err(ParseFormatError::NotSupported {
                name: name.to_string(),
                format,
            }),
            None => Err(ParseFormatError::Unknown {
                name: name.to_string(),
            }),
        }
    }
}

/// The modelled format, or the unsupported isl format, of this isl name (any case).
fn lookup(isl: &str) -> Option<Result<Format, UnsupportedFormat>> {
    if let Some(f) = Format::ALL
        .iter()
        .find(|f| f.name().eq_ignore_ascii_case(isl))
    {
        return Some(Ok(*f));
    }
    UnsupportedFormat::ALL
        .iter()
        .find(|u| u.name.eq_ignore_ascii_case(isl))
        .map(|u| Err(*u))
}

/// Expands a short NIR-style name (upper-cased) into an isl name.
fn short_name_to_isl(s: &str) -> Option<String> {
    match s {
        "R64_UINT" | "R64_SINT" => return Some("R64_PASSTHRU".into()),
        "RGB10A2_UNORM" => return Some("R10G10B10A2_UNORM".into()),
        "RGB10A2_UINT" => return Some("R10G10B10A2_UINT".into()),
        "BGR10A2_UNORM" => return Some("B10G10R10A2_UNORM".into()),
        "R11G11B10_FLOAT" | "RG11B10_FLOAT" => return Some("R11G11B10_FLOAT".into()),
        _ => {}
    }
    let (head, ty) = s.split_once('_')?;
    let letters_end = head.find(|c: char| c.is_ascii_digit())?;
    let (letters, bits) = head.split_at(letters_end);
    if letters.is_empty() || !bits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !letters.chars().all(|c| "RGBA".contains(c)) {
        return None;
    }
    let mut out = String::new();
    for c in letters.chars() {
        out.push(c);
        out.push_str(bits);
    }
    out.push('_');
    out.push_str(ty);
    Some(out)
}

impl FromStr for Format {
    type Err = ParseFormatError;

    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        Format::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_case_insensitively() {
        assert_eq!("r8g8b8a8_unorm".parse(), Ok(Format::R8G8B8A8_UNORM));
        assert_eq!("R32G32B32A32_FLOAT".parse(), Ok(Format::R32G32B32A32_FLOAT));
        assert_eq!("bc1_unorm".parse(), Ok(Format::BC1_UNORM));
        assert_eq!("ISL_FORMAT_R32_UINT".parse(), Ok(Format::R32_UINT));
        assert_eq!("rgba8_unorm".parse(), Ok(Format::R8G8B8A8_UNORM));
        assert_eq!("rg16_float".parse(), Ok(Format::R16G16_FLOAT));
        assert_eq!("r32_uint".parse(), Ok(Format::R32_UINT));
        assert_eq!("bgra8_unorm".parse(), Ok(Format::B8G8R8A8_UNORM));
        assert_eq!("rgb10a2_unorm".parse(), Ok(Format::R10G10B10A2_UNORM));
        assert_eq!("r11g11b10_float".parse(), Ok(Format::R11G11B10_FLOAT));
        assert_eq!("r64_uint".parse(), Ok(Format::R64_PASSTHRU));
        assert_eq!("rgb32_float".parse(), Ok(Format::R32G32B32_FLOAT));
        for bad in [
            "",
            "rgba8",
            "r7_unorm",
            "xyz_unorm",
            "R8G8B8A8_UNORMX",
            "_unorm",
        ] {
            assert!(bad.parse::<Format>().is_err(), "{bad}");
        }
    }

    #[test]
    fn formats_tile_calc_called_unknown_now_parse() {
        assert_eq!("r9g9b9e5_sharedexp".parse(), Ok(Format::R9G9B9E5_SHAREDEXP));
        assert_eq!(
            "ASTC_LDR_2D_6X6_U8SRGB".parse(),
            Ok(Format::ASTC_LDR_2D_6X6_U8SRGB)
        );
        assert_eq!(
            "isl_format_astc_hdr_2d_12x10_flt16".parse(),
            Ok(Format::ASTC_HDR_2D_12X10_FLT16)
        );
        assert_eq!("ycrcb_normal".parse(), Ok(Format::YCRCB_NORMAL));
        assert_eq!("l8a8_unorm".parse(), Ok(Format::L8A8_UNORM));
        // Short names reach the new rows too.
        assert_eq!("rgba32_unorm".parse(), Ok(Format::R32G32B32A32_UNORM));
    }

    #[test]
    fn not_supported_is_not_unknown() {
        let reason = |name: &str| match Format::from_name(name) {
            Err(ParseFormatError::NotSupported { format, .. }) => (format.name, format.reason),
            other => panic!("{name}: {other:?}"),
        };
        assert_eq!(
            reason("r1_unorm"),
            ("R1_UNORM", Unsupported::SubByteElement { bpb: 1 })
        );
        assert_eq!(
            reason("P2_UNORM_PALETTE1"),
            ("P2_UNORM_PALETTE1", Unsupported::SubByteElement { bpb: 2 })
        );
        assert_eq!(
            reason("R64G64B64A64_FLOAT"),
            ("R64G64B64A64_FLOAT", Unsupported::WideElement { bpb: 256 })
        );
        // A short name of a wide format.
        assert_eq!(
            reason("rgb64_float"),
            ("R64G64B64_FLOAT", Unsupported::WideElement { bpb: 196 })
        );
        assert_eq!(
            reason("isl_format_planar_420_10"),
            ("PLANAR_420_10", Unsupported::Planar)
        );
        assert_eq!(reason("raw"), ("RAW", Unsupported::NoLayout));
        assert_eq!(
            reason("mcs_4x"),
            ("MCS_4X", Unsupported::Auxiliary { kind: "MCS" })
        );
        // isl spells the Ys CCS formats with a lower-case s.
        assert_eq!(
            reason("GFX12_CCS_8BPP_YS"),
            ("GFX12_CCS_8BPP_Ys", Unsupported::Auxiliary { kind: "CCS" })
        );
        assert_eq!(
            Format::from_name("r1_unorm").unwrap_err().to_string(),
            "isl format R1_UNORM is not supported: its 1-bit elements are smaller than a \
             byte, and tilings place whole bytes"
        );
        let e = Format::from_name("rgb9").unwrap_err();
        assert_eq!(
            e,
            ParseFormatError::Unknown {
                name: "rgb9".into()
            }
        );
        assert_eq!(e.name(), "rgb9");
        assert_eq!(
            e.to_string(),
            "unknown format `rgb9` (expected an isl name such as R8G8B8A8_UNORM or a short \
             name such as rgba8_unorm)"
        );
    }

    /// The modelled and the unsupported formats are all of isl_format_layout.csv's 293
    /// rows, each once.
    #[test]
    fn the_two_lists_cover_isl_table() {
        let mut names: Vec<String> = Format::ALL
            .iter()
            .map(|f| f.name().to_ascii_uppercase())
            .chain(
                UnsupportedFormat::ALL
                    .iter()
                    .map(|u| u.name.to_ascii_uppercase()),
            )
            .collect();
        assert_eq!((Format::ALL.len(), UnsupportedFormat::ALL.len()), (255, 38));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 293);
        for u in UnsupportedFormat::ALL {
            assert!(
                matches!(
                    Format::from_name(u.name),
                    Err(ParseFormatError::NotSupported { format, .. }) if format == *u
                ),
                "{}",
                u.name
            );
        }
    }
}
