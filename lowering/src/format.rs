//! Storage-image formats: ISL names, typed-message support and Mesa's format lowering.
//!
//! The facts are those of docs/hardware/mesa-storage-images.md §2 and §3 (Mesa 24.3/main
//! `isl_storage_image.c` and the `format_info` table of `isl_format.c`):
//!
//! - [`has_matching_typed_storage_image_format`]: whether typed messages can reach the
//!   image at all (otherwise the untyped "raw" path addresses it in the shader);
//! - [`lower_storage_image_format`]: the format the driver binds and the typed message
//!   reads or writes, with the shader converting between it and the image format;
//! - typed read / write / atomic support per format (the TR / TW / TA columns).
//!
//! Like ISL's own table, these facts are keyed by generation: the device's part is
//! [`Device::gen`], looked up here.

use crate::device::Device;
use ir::{ChannelKind, Format};
use std::fmt;
use tiling::Gen;

/// Why a format has no storage lowering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
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

/// How storage accesses to a format reach memory on a device.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum StorageAccess {
    /// Typed messages on a surface of this (possibly lowered) format.
    Typed(Format),
    /// No typed format matches (docs/hardware/mesa-storage-images.md §2): untyped messages on a raw
    /// buffer view, moving texels as this raw format (`R32G32_UINT` for 64 bpb,
    /// `R32G32B32A32_UINT` for 128 bpb).
    Raw(Format),
}

/// What ISL knows about one storage format.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// The same format in isl's (the tiling crate's) terms ([`isl_format`]).
    pub isl: tiling::Format,
    /// Bits per texel.
    pub bpb: u32,
    /// The first generation with typed reads of this surface format (isl TR column),
    /// if any.
    pub typed_read: Option<Gen>,
    /// The first generation with typed writes (TW column), if any.
    pub typed_write: Option<Gen>,
    /// The first generation with typed atomics (TA column), if any.
    pub typed_atomic: Option<Gen>,
}

/// The first generation with typed reads (docs/hardware/mesa-storage-images.md §3 notes, isl TR column).
fn typed_read_min(fmt: Format) -> Option<Gen> {
    use Format::*;
    Some(match fmt {
        R32Uint | R32Sint | R32Float => Gen::Gfx7,
        Rgba16Uint | Rgba8Uint | Rg16Uint | Rg8Uint | R16Uint | R8Uint => Gen::Gfx75,
        // "Other 16/32-bit int/float formats and RGBA32": the 8-bit SINT formats
        // belong here too, since HSW lowers them to UINT and Gfx9 leaves them alone
        // (inferred from the §3 table).
        Rgba32Uint | Rgba32Sint | Rgba32Float | Rg32Uint | Rg32Sint | Rg32Float | Rgba16Sint
        | Rgba16Float | Rg16Sint | Rg16Float | R16Sint | R16Float | Rgba8Sint | Rg8Sint
        | R8Sint => Gen::Gfx9,
        Rgba16Unorm | Rgba16Snorm | Rg16Unorm | Rg16Snorm | R16Unorm | R16Snorm | Rgba8Unorm
        | Rgba8Snorm | Rg8Unorm | Rg8Snorm | R8Unorm | R8Snorm => Gen::Gfx11,
        Rgb10A2Uint | Rgb10A2Unorm | R11G11B10Float => Gen::Gfx125,
        // R64_PASSTHRU is never read typed as itself: it is lowered to R32G32_UINT.
        R64Uint | R64Sint | None => return Option::None,
    })
}

/// The first generation with typed writes: every one of the 39 storage formats from
/// Gfx7 (docs/hardware/mesa-storage-images.md §3 notes, TW column); R64_PASSTHRU is always lowered.
fn typed_write_min(fmt: Format) -> Option<Gen> {
    (fmt != Format::None && !is_r64(fmt)).then_some(Gen::Gfx7)
}

/// The first generation with typed atomics (docs/hardware/mesa-storage-images.md §3 notes, isl TA
/// column).
fn typed_atomic_min(fmt: Format) -> Option<Gen> {
    use Format::*;
    match fmt {
        R32Uint | R32Sint => Some(Gen::Gfx7),
        R32Float => Some(Gen::Gfx11),
        R16Uint | R16Sint | R16Float => Some(Gen::Gfx12),
        R64Uint | R64Sint => Some(Gen::Gfx9),
        _ => Option::None,
    }
}

/// The tiling crate's (isl's) format of a storage format: the surface layout and texel
/// size the driver binds and the untyped path addresses. NIR's R64 integer formats are
/// `R64_PASSTHRU`, as in Mesa. `None` for [`Format::None`].
pub fn isl_format(fmt: Format) -> Option<tiling::Format> {
    use tiling::Format as Isl;
    use Format::*;
    Some(match fmt {
        None => return Option::None,
        Rgba32Uint => Isl::R32G32B32A32_UINT,
        Rgba32Sint => Isl::R32G32B32A32_SINT,
        Rgba32Float => Isl::R32G32B32A32_FLOAT,
        Rg32Uint => Isl::R32G32_UINT,
        Rg32Sint => Isl::R32G32_SINT,
        Rg32Float => Isl::R32G32_FLOAT,
        R32Uint => Isl::R32_UINT,
        R32Sint => Isl::R32_SINT,
        R32Float => Isl::R32_FLOAT,
        Rgba16Uint => Isl::R16G16B16A16_UINT,
        Rgba16Sint => Isl::R16G16B16A16_SINT,
        Rgba16Float => Isl::R16G16B16A16_FLOAT,
        Rgba16Unorm => Isl::R16G16B16A16_UNORM,
        Rgba16Snorm => Isl::R16G16B16A16_SNORM,
        Rg16Uint => Isl::R16G16_UINT,
        Rg16Sint => Isl::R16G16_SINT,
        Rg16Float => Isl::R16G16_FLOAT,
        Rg16Unorm => Isl::R16G16_UNORM,
        Rg16Snorm => Isl::R16G16_SNORM,
        R16Uint => Isl::R16_UINT,
        R16Sint => Isl::R16_SINT,
        R16Float => Isl::R16_FLOAT,
        R16Unorm => Isl::R16_UNORM,
        R16Snorm => Isl::R16_SNORM,
        Rgba8Uint => Isl::R8G8B8A8_UINT,
        Rgba8Sint => Isl::R8G8B8A8_SINT,
        Rgba8Unorm => Isl::R8G8B8A8_UNORM,
        Rgba8Snorm => Isl::R8G8B8A8_SNORM,
        Rg8Uint => Isl::R8G8_UINT,
        Rg8Sint => Isl::R8G8_SINT,
        Rg8Unorm => Isl::R8G8_UNORM,
        Rg8Snorm => Isl::R8G8_SNORM,
        R8Uint => Isl::R8_UINT,
        R8Sint => Isl::R8_SINT,
        R8Unorm => Isl::R8_UNORM,
        R8Snorm => Isl::R8_SNORM,
        Rgb10A2Uint => Isl::R10G10B10A2_UINT,
        Rgb10A2Unorm => Isl::R10G10B10A2_UNORM,
        R11G11B10Float => Isl::R11G11B10_FLOAT,
        R64Uint | R64Sint => Isl::R64_PASSTHRU,
    })
}

/// The ISL facts of a storage format; `None` for [`Format::None`].
pub fn format_info(fmt: Format) -> Option<FormatInfo> {
    Some(FormatInfo {
        format: fmt,
        isl: isl_format(fmt)?,
        bpb: fmt.bits_per_texel(),
        typed_read: typed_read_min(fmt),
        typed_write: typed_write_min(fmt),
        typed_atomic: typed_atomic_min(fmt),
    })
}

fn is_r64(fmt: Format) -> bool {
    matches!(fmt, Format::R64Uint | Format::R64Sint)
}

/// Whether the device reads `fmt` surfaces with typed messages.
pub fn supports_typed_read(device: &Device, fmt: Format) -> bool {
    typed_read_min(fmt).is_some_and(|g| device.gen >= g)
}

/// Whether the device writes `fmt` surfaces with typed messages.
pub fn supports_typed_write(device: &Device, fmt: Format) -> bool {
    typed_write_min(fmt).is_some_and(|g| device.gen >= g)
}

/// Whether the device has typed atomics on `fmt` surfaces (the TA column: R32 integer
/// formats from Gfx7, R32_FLOAT from Gfx11, R16 from Gfx12, R64 from Gfx9).
pub fn supports_typed_atomic(device: &Device, fmt: Format) -> bool {
    typed_atomic_min(fmt).is_some_and(|g| device.gen >= g)
}

/// Mesa's `isl_has_matching_typed_storage_image_format` (docs/hardware/mesa-storage-images.md §2): Gfx9+
/// always; HSW/BDW up to 64 bpb; IVB/BYT up to 32 bpb.
pub fn has_matching_typed_storage_image_format(device: &Device, fmt: Format) -> bool {
    let bpb = fmt.bits_per_texel();
    if device.gen >= Gen::Gfx9 {
        true
    } else if device.gen >= Gen::Gfx75 {
        bpb <= 64
    } else {
        bpb <= 32
    }
}

fn unsupported(device: &Device, fmt: Format, kind: FormatErrorKind) -> FormatError {
    FormatError {
        format: fmt,
        platform: device.name.clone(),
        kind,
    }
}

/// Mesa 24.3/main `isl_lower_storage_image_format`: the format a storage image is bound
/// with, which typed messages then read and write, the shader converting colours
/// (docs/hardware/mesa-storage-images.md §3).
///
/// Includes the 2023 corrections (Mesa d4f498a5835): R32_FLOAT is not lowered,
/// RGB10A2/R11G11B10 are native on Gfx12.5+, and Gfx9/10 lower UNORM/SNORM to a raw-width
/// UINT; and main's R64_PASSTHRU -> R32G32_UINT (Gfx9+). For formats without a matching
/// typed format (see [`has_matching_typed_storage_image_format`]) the value is what Mesa
/// returns but no typed message uses it; [`storage_access`] gives the raw format then.
pub fn lower_storage_image_format(device: &Device, fmt: Format) -> Result<Format, FormatError> {
    use Format::*;
    let g = device.gen;
    // Picks between the image format and its lowered forms by generation: `gfx9` from
    // Gfx9, `hsw` from Gfx7.5, `ivb` below.
    let by_gen = |gfx9: Format, hsw: Format, ivb: Format| {
        if g >= Gen::Gfx9 {
            gfx9
        } else if g >= Gen::Gfx75 {
            hsw
        } else {
            ivb
        }
    };
    // UNORM/SNORM: native from Gfx11, raw-width UINT on Gfx9/10.
    let norm = |gfx9: Format, hsw: Format, ivb: Format| {
        if g >= Gen::Gfx11 {
            fmt
        } else {
            by_gen(gfx9, hsw, ivb)
        }
    };
    Ok(match fmt {
        None => return Err(unsupported(device, fmt, FormatErrorKind::NoFormat)),
        // Natively typed everywhere (or raw when no typed format matches).
        Rgba32Uint | Rgba32Sint | Rgba32Float | R32Uint | R32Sint | R32Float => fmt,
        Rgba16Uint | Rgba16Sint | Rgba16Float | Rg32Uint | Rg32Sint | Rg32Float => {
            by_gen(fmt, Rgba16Uint, Rg32Uint)
        }
        Rgba8Uint | Rgba8Sint => by_gen(fmt, Rgba8Uint, R32Uint),
        Rg16Uint | Rg16Sint | Rg16Float => by_gen(fmt, Rg16Uint, R32Uint),
        Rg8Uint | Rg8Sint => by_gen(fmt, Rg8Uint, R16Uint),
        R16Uint | R16Sint | R16Float => by_gen(fmt, R16Uint, R16Uint),
        R8Uint | R8Sint => by_gen(fmt, R8Uint, R8Uint),
        // Typed reads of these arrive with Gfx12.5 (`supportsBGRATypedRead`, docs/hardware/lsc-messages.md
        // §1).
        Rgb10A2Uint | Rgb10A2Unorm | R11G11B10Float => {
            if g >= Gen::Gfx125 {
                fmt
            } else {
                R32Uint
            }
        }
        Rgba16Unorm | Rgba16Snorm => norm(Rg32Uint, Rgba16Uint, Rg32Uint),
        Rgba8Unorm | Rgba8Snorm => norm(R32Uint, Rgba8Uint, R32Uint),
        Rg16Unorm | Rg16Snorm => norm(R32Uint, Rg16Uint, R32Uint),
        Rg8Unorm | Rg8Snorm => norm(R16Uint, Rg8Uint, R16Uint),
        R16Unorm | R16Snorm => norm(R16Uint, R16Uint, R16Uint),
        R8Unorm | R8Snorm => norm(R8Uint, R8Uint, R8Uint),
        // R64_PASSTHRU is a storage format from Gfx9 (Mesa main; isl TA from 90).
        R64Uint | R64Sint => {
            if g >= Gen::Gfx9 {
                Rg32Uint
            } else {
                return Err(unsupported(device, fmt, FormatErrorKind::NotStorable));
            }
        }
    })
}

/// How accesses to a storage image of format `fmt` reach memory on `device`: typed on
/// the lowered format, or raw (docs/hardware/mesa-storage-images.md §2).
pub fn storage_access(device: &Device, fmt: Format) -> Result<StorageAccess, FormatError> {
    let lowered = lower_storage_image_format(device, fmt)?;
    if has_matching_typed_storage_image_format(device, fmt) {
        Ok(StorageAccess::Typed(lowered))
    } else {
        // §2 raw formats: 64 bpb -> R32G32_UINT, 128 bpb -> R32G32B32A32_UINT.
        match fmt.bits_per_texel() {
            64 => Ok(StorageAccess::Raw(Format::Rg32Uint)),
            128 => Ok(StorageAccess::Raw(Format::Rgba32Uint)),
            _ => Err(unsupported(device, fmt, FormatErrorKind::NotStorable)),
        }
    }
}

/// Whether any channel of `fmt` is signed (SNORM or SINT), which makes unpacking
/// sign-extend (docs/hardware/mesa-storage-images.md §4 load step 3).
pub fn has_signed_channel(fmt: Format) -> bool {
    fmt.channels()
        .iter()
        .any(|c| matches!(c.kind, ChannelKind::Snorm | ChannelKind::Sint))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/hardware/mesa-storage-images.md §3, transcribed: image format(s), then the IVB/BYT, HSW/BDW,
    /// Gfx9–10, Gfx11–12.0 and Gfx12.5+ columns. `=` is "not lowered", `raw` is the
    /// untyped path, `-` is "not a storage format".
    const TABLE: &str = "
        rgba32_uint rgba32_sint rgba32_float        | raw raw = = =
        r32_uint r32_sint                           | = = = = =
        r32_float                                   | = = = = =
        rgba16_uint                                 | raw = = = =
        rgba16_sint rgba16_float rg32_uint rg32_sint rg32_float | raw rgba16_uint = = =
        rgba8_uint rg16_uint                        | r32_uint = = = =
        rgba8_sint                                  | r32_uint rgba8_uint = = =
        rg16_sint rg16_float                        | r32_uint rg16_uint = = =
        rg8_uint                                    | r16_uint = = = =
        rg8_sint                                    | r16_uint rg8_uint = = =
        r16_uint r8_uint                            | = = = = =
        r16_float r16_sint                          | r16_uint r16_uint = = =
        r8_sint                                     | r8_uint r8_uint = = =
        rgb10a2_uint rgb10a2_unorm r11g11b10_float  | r32_uint r32_uint r32_uint r32_uint =
        rgba16_unorm rgba16_snorm                   | raw rgba16_uint rg32_uint = =
        rgba8_unorm rgba8_snorm                     | r32_uint rgba8_uint r32_uint = =
        rg16_unorm rg16_snorm                       | r32_uint rg16_uint r32_uint = =
        rg8_unorm rg8_snorm                         | r16_uint rg8_uint r16_uint = =
        r16_unorm r16_snorm                         | r16_uint r16_uint r16_uint = =
        r8_unorm r8_snorm                           | r8_uint r8_uint r8_uint = =
        r64_uint r64_sint                           | - - rg32_uint rg32_uint rg32_uint
    ";

    /// The presets falling in each column of the table.
    const COLUMNS: [&[&str]; 5] = [
        &["ivb", "byt"],
        &["hsw", "bdw"],
        &["skl"],
        &["icl", "tgl"],
        &["dg2", "mtl", "pvc", "lnl", "bmg"],
    ];

    #[test]
    fn lowering_table_matches_reference_section_3() {
        let mut seen = Vec::new();
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (fmts, cells) = line.split_once('|').unwrap();
            let cells: Vec<&str> = cells.split_whitespace().collect();
            assert_eq!(cells.len(), 5, "{line}");
            for name in fmts.split_whitespace() {
                let fmt = Format::from_name(name).unwrap();
                seen.push(fmt);
                for (col, devices) in COLUMNS.iter().enumerate() {
                    for d in devices.iter().map(|n| Device::preset(n).unwrap()) {
                        let what = format!("{name} on {}", d.name);
                        match cells[col] {
                            "-" => {
                                assert!(lower_storage_image_format(&d, fmt).is_err(), "{what}");
                                assert!(storage_access(&d, fmt).is_err(), "{what}");
                            }
                            "raw" => {
                                assert!(
                                    !has_matching_typed_storage_image_format(&d, fmt),
                                    "{what}"
                                );
                                let raw = match fmt.bits_per_texel() {
                                    64 => Format::Rg32Uint,
                                    _ => Format::Rgba32Uint,
                                };
                                assert_eq!(
                                    storage_access(&d, fmt),
                                    Ok(StorageAccess::Raw(raw)),
                                    "{what}"
                                );
                            }
                            cell => {
                                let want = if cell == "=" {
                                    fmt
                                } else {
                                    Format::from_name(cell).unwrap()
                                };
                                assert!(has_matching_typed_storage_image_format(&d, fmt), "{what}");
                                assert_eq!(lower_storage_image_format(&d, fmt), Ok(want), "{what}");
                                assert_eq!(
                                    storage_access(&d, fmt),
                                    Ok(StorageAccess::Typed(want)),
                                    "{what}"
                                );
                            }
                        }
                    }
                }
            }
        }
        // Every storage format has a row.
        let mut all: Vec<Format> = Format::ALL.to_vec();
        all.sort();
        seen.sort();
        assert_eq!(seen, all);
        assert_eq!(all.len(), 41);
    }

    #[test]
    fn typed_path_formats_are_typed_accessible() {
        // Wherever the typed path is taken, the lowered format must be readable and
        // writable with typed messages (TR/TW columns), and of the image's size.
        for d in Device::presets() {
            for &fmt in Format::ALL {
                if let Ok(StorageAccess::Typed(lower)) = storage_access(&d, fmt) {
                    let what = format!("{fmt} -> {lower} on {}", d.name);
                    // IVB/BYT read R8/R16_UINT surfaces through the undocumented
                    // misaligned 32-bit typed read, masked in the shader (§3 notes, §4).
                    let ivb_quirk = d.is_gfx7_without_hsw()
                        && matches!(lower, Format::R8Uint | Format::R16Uint);
                    assert!(supports_typed_read(&d, lower) || ivb_quirk, "{what}");
                    assert!(supports_typed_write(&d, lower), "{what}");
                    assert_eq!(lower.bits_per_texel(), fmt.bits_per_texel(), "{what}");
                }
            }
        }
    }

    #[test]
    fn typed_support_columns() {
        let tr = |f: &str| {
            format_info(Format::from_name(f).unwrap())
                .unwrap()
                .typed_read
        };
        let ta = |f: &str| {
            format_info(Format::from_name(f).unwrap())
                .unwrap()
                .typed_atomic
        };
        assert_eq!(tr("r32_float"), Some(Gen::Gfx7));
        assert_eq!(tr("rgba8_uint"), Some(Gen::Gfx75));
        assert_eq!(tr("r16_uint"), Some(Gen::Gfx75));
        assert_eq!(tr("rgba16_float"), Some(Gen::Gfx9));
        assert_eq!(tr("rgba32_float"), Some(Gen::Gfx9));
        assert_eq!(tr("rg8_unorm"), Some(Gen::Gfx11));
        assert_eq!(tr("rgba16_snorm"), Some(Gen::Gfx11));
        assert_eq!(tr("rgb10a2_unorm"), Some(Gen::Gfx125));
        assert_eq!(tr("r11g11b10_float"), Some(Gen::Gfx125));
        assert_eq!(ta("r32_uint"), Some(Gen::Gfx7));
        assert_eq!(ta("r32_sint"), Some(Gen::Gfx7));
        assert_eq!(ta("r32_float"), Some(Gen::Gfx11));
        assert_eq!(ta("r16_float"), Some(Gen::Gfx12));
        assert_eq!(ta("r64_uint"), Some(Gen::Gfx9));
        assert_eq!(ta("rgba8_uint"), None);
        for &f in Format::ALL {
            let info = format_info(f).unwrap();
            if !matches!(f, Format::R64Uint | Format::R64Sint) {
                assert_eq!(info.typed_write, Some(Gen::Gfx7), "{f}");
            }
            assert_eq!(info.bpb, f.bits_per_texel());
        }
        assert!(format_info(Format::None).is_none());
    }

    /// isl's name of a storage format, spelled from the IR's channel description as isl
    /// spells its formats (`R8G8B8A8_UNORM`: each channel's letter and width, then the
    /// number kind); the R64 integer formats are `R64_PASSTHRU` (Mesa main).
    fn isl_name_from_channels(f: Format) -> String {
        if matches!(f, Format::R64Uint | Format::R64Sint) {
            return "R64_PASSTHRU".into();
        }
        let mut name: String = f
            .channels()
            .iter()
            .zip("RGBA".chars())
            .map(|(c, letter)| format!("{letter}{}", c.bits))
            .collect();
        name.push_str(match f.channels()[0].kind {
            ChannelKind::Unorm => "_UNORM",
            ChannelKind::Snorm => "_SNORM",
            ChannelKind::Uint => "_UINT",
            ChannelKind::Sint => "_SINT",
            ChannelKind::Float => "_FLOAT",
        });
        name
    }

    #[test]
    fn isl_formats_agree_with_the_tiling_crate() {
        for &f in Format::ALL {
            let isl = isl_format(f).unwrap_or_else(|| panic!("{f}"));
            assert_eq!(isl.name(), isl_name_from_channels(f), "{f}");
            assert!(isl.is_storage_image_format(), "{f}");
            assert_eq!(isl.bpb(), f.bits_per_texel(), "{f}");
            let info = format_info(f).unwrap();
            assert_eq!(info.isl, isl);
        }
        assert_eq!(isl_format(Format::None), None);
        assert_eq!(
            isl_format(Format::Rgb10A2Unorm).map(tiling::Format::name),
            Some("R10G10B10A2_UNORM")
        );
        assert_eq!(
            isl_format(Format::R64Sint).map(tiling::Format::name),
            Some("R64_PASSTHRU")
        );
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

    #[test]
    fn signed_channels() {
        assert!(has_signed_channel(Format::Rgba8Snorm));
        assert!(has_signed_channel(Format::R16Sint));
        assert!(!has_signed_channel(Format::Rgb10A2Unorm));
        assert!(!has_signed_channel(Format::R32Float));
    }
}
