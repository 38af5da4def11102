//! Surface formats, named and laid out as in Mesa's isl (`isl_format_layout`).
//!
//! Only what a layout engine needs is modelled: the element size in bits (`bpb`), the block
//! extent (compressed formats store one block per element) and the channel layout of
//! uncompressed formats. The set covers the storage-image formats of
//! `image-lowering.md` §3, the 24/48/96-bit formats that exercise isl's `bpb / 3` tile
//! rule, the depth and stencil formats isl uses for those usages, and the common
//! BC/ETC2/ASTC block formats for layout purposes.

use std::fmt;
use std::str::FromStr;

/// One colour channel of an uncompressed format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Channel {
    /// Which logical channel this is.
    pub name: ChannelName,
    /// First bit of the channel inside the element, counting from the least significant
    /// bit of the little-endian element.
    pub start_bit: u8,
    /// Width in bits.
    pub bits: u8,
    /// Numeric interpretation.
    pub ty: ChannelType,
}

/// A logical channel name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelName {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
}

/// How a channel's bits are interpreted (isl's `isl_base_type`, restricted to what the
/// modelled formats use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// IEEE float (16, 32 or 64 bits).
    Float,
    /// Unsigned small float without a sign bit (the 11- and 10-bit channels of
    /// R11G11B10_FLOAT).
    Ufloat,
    /// Raw bits passed through without conversion (R64_PASSTHRU).
    Raw,
}

struct Layout {
    bpb: u32,
    bw: u32,
    bh: u32,
    srgb: bool,
    channels: &'static [Channel],
}

macro_rules! define_formats {
    ($(
        $name:ident : $bpb:literal bits, $bw:literal x $bh:literal, srgb $srgb:literal,
            [$($c:ident $s:literal $b:literal $t:ident),*];
    )*) => {
        /// A surface format, spelled as isl spells it without the `ISL_FORMAT_` prefix.
        ///
        /// Parse with [`str::parse`] (isl names case-insensitively, optionally prefixed
        /// with `ISL_FORMAT_`, plus the short NIR-style names such as `rgba8_unorm`; see
        /// [`Format::from_name`]).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Format {
            $(
                #[doc = concat!("`ISL_FORMAT_", stringify!($name), "`: ", stringify!($bpb),
                                " bits per element, ", stringify!($bw), "x", stringify!($bh),
                                " block.")]
                $name,
            )*
        }

        impl Format {
            /// Every modelled format.
            pub const ALL: &'static [Format] = &[$(Format::$name),*];

            /// The isl name without the `ISL_FORMAT_` prefix, e.g. `R8G8B8A8_UNORM`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Format::$name => stringify!($name),)*
                }
            }

            fn layout(self) -> Layout {
                match self {
                    $(Format::$name => Layout {
                        bpb: $bpb,
                        bw: $bw,
                        bh: $bh,
                        srgb: $srgb,
                        channels: &[$(Channel {
                            name: ChannelName::$c,
                            start_bit: $s,
                            bits: $b,
                            ty: ChannelType::$t,
                        }),*],
                    },)*
                }
            }
        }
    };
}

define_formats! {
    R32G32B32A32_FLOAT: 128 bits, 1 x 1, srgb false, [R 0 32 Float, G 32 32 Float, B 64 32 Float, A 96 32 Float];
    R32G32B32A32_SINT: 128 bits, 1 x 1, srgb false, [R 0 32 Sint, G 32 32 Sint, B 64 32 Sint, A 96 32 Sint];
    R32G32B32A32_UINT: 128 bits, 1 x 1, srgb false, [R 0 32 Uint, G 32 32 Uint, B 64 32 Uint, A 96 32 Uint];
    R32G32B32_FLOAT: 96 bits, 1 x 1, srgb false, [R 0 32 Float, G 32 32 Float, B 64 32 Float];
    R32G32B32_SINT: 96 bits, 1 x 1, srgb false, [R 0 32 Sint, G 32 32 Sint, B 64 32 Sint];
    R32G32B32_UINT: 96 bits, 1 x 1, srgb false, [R 0 32 Uint, G 32 32 Uint, B 64 32 Uint];
    R16G16B16A16_UNORM: 64 bits, 1 x 1, srgb false, [R 0 16 Unorm, G 16 16 Unorm, B 32 16 Unorm, A 48 16 Unorm];
    R16G16B16A16_SNORM: 64 bits, 1 x 1, srgb false, [R 0 16 Snorm, G 16 16 Snorm, B 32 16 Snorm, A 48 16 Snorm];
    R16G16B16A16_SINT: 64 bits, 1 x 1, srgb false, [R 0 16 Sint, G 16 16 Sint, B 32 16 Sint, A 48 16 Sint];
    R16G16B16A16_UINT: 64 bits, 1 x 1, srgb false, [R 0 16 Uint, G 16 16 Uint, B 32 16 Uint, A 48 16 Uint];
    R16G16B16A16_FLOAT: 64 bits, 1 x 1, srgb false, [R 0 16 Float, G 16 16 Float, B 32 16 Float, A 48 16 Float];
    R32G32_FLOAT: 64 bits, 1 x 1, srgb false, [R 0 32 Float, G 32 32 Float];
    R32G32_SINT: 64 bits, 1 x 1, srgb false, [R 0 32 Sint, G 32 32 Sint];
    R32G32_UINT: 64 bits, 1 x 1, srgb false, [R 0 32 Uint, G 32 32 Uint];
    R64_FLOAT: 64 bits, 1 x 1, srgb false, [R 0 64 Float];
    R64_PASSTHRU: 64 bits, 1 x 1, srgb false, [R 0 64 Raw];
    R16G16B16_UNORM: 48 bits, 1 x 1, srgb false, [R 0 16 Unorm, G 16 16 Unorm, B 32 16 Unorm];
    R16G16B16_UINT: 48 bits, 1 x 1, srgb false, [R 0 16 Uint, G 16 16 Uint, B 32 16 Uint];
    R16G16B16_FLOAT: 48 bits, 1 x 1, srgb false, [R 0 16 Float, G 16 16 Float, B 32 16 Float];
    B8G8R8A8_UNORM: 32 bits, 1 x 1, srgb false, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm, A 24 8 Unorm];
    B8G8R8A8_UNORM_SRGB: 32 bits, 1 x 1, srgb true, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm, A 24 8 Unorm];
    R10G10B10A2_UNORM: 32 bits, 1 x 1, srgb false, [R 0 10 Unorm, G 10 10 Unorm, B 20 10 Unorm, A 30 2 Unorm];
    R10G10B10A2_UINT: 32 bits, 1 x 1, srgb false, [R 0 10 Uint, G 10 10 Uint, B 20 10 Uint, A 30 2 Uint];
    B10G10R10A2_UNORM: 32 bits, 1 x 1, srgb false, [B 0 10 Unorm, G 10 10 Unorm, R 20 10 Unorm, A 30 2 Unorm];
    R8G8B8A8_UNORM: 32 bits, 1 x 1, srgb false, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm, A 24 8 Unorm];
    R8G8B8A8_UNORM_SRGB: 32 bits, 1 x 1, srgb true, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm, A 24 8 Unorm];
    R8G8B8A8_SNORM: 32 bits, 1 x 1, srgb false, [R 0 8 Snorm, G 8 8 Snorm, B 16 8 Snorm, A 24 8 Snorm];
    R8G8B8A8_SINT: 32 bits, 1 x 1, srgb false, [R 0 8 Sint, G 8 8 Sint, B 16 8 Sint, A 24 8 Sint];
    R8G8B8A8_UINT: 32 bits, 1 x 1, srgb false, [R 0 8 Uint, G 8 8 Uint, B 16 8 Uint, A 24 8 Uint];
    R16G16_UNORM: 32 bits, 1 x 1, srgb false, [R 0 16 Unorm, G 16 16 Unorm];
    R16G16_SNORM: 32 bits, 1 x 1, srgb false, [R 0 16 Snorm, G 16 16 Snorm];
    R16G16_SINT: 32 bits, 1 x 1, srgb false, [R 0 16 Sint, G 16 16 Sint];
    R16G16_UINT: 32 bits, 1 x 1, srgb false, [R 0 16 Uint, G 16 16 Uint];
    R16G16_FLOAT: 32 bits, 1 x 1, srgb false, [R 0 16 Float, G 16 16 Float];
    R11G11B10_FLOAT: 32 bits, 1 x 1, srgb false, [R 0 11 Ufloat, G 11 11 Ufloat, B 22 10 Ufloat];
    R32_SINT: 32 bits, 1 x 1, srgb false, [R 0 32 Sint];
    R32_UINT: 32 bits, 1 x 1, srgb false, [R 0 32 Uint];
    R32_FLOAT: 32 bits, 1 x 1, srgb false, [R 0 32 Float];
    R24_UNORM_X8_TYPELESS: 32 bits, 1 x 1, srgb false, [R 0 24 Unorm];
    R8G8B8_UNORM: 24 bits, 1 x 1, srgb false, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm];
    R8G8B8_UINT: 24 bits, 1 x 1, srgb false, [R 0 8 Uint, G 8 8 Uint, B 16 8 Uint];
    B5G6R5_UNORM: 16 bits, 1 x 1, srgb false, [B 0 5 Unorm, G 5 6 Unorm, R 11 5 Unorm];
    R8G8_UNORM: 16 bits, 1 x 1, srgb false, [R 0 8 Unorm, G 8 8 Unorm];
    R8G8_SNORM: 16 bits, 1 x 1, srgb false, [R 0 8 Snorm, G 8 8 Snorm];
    R8G8_SINT: 16 bits, 1 x 1, srgb false, [R 0 8 Sint, G 8 8 Sint];
    R8G8_UINT: 16 bits, 1 x 1, srgb false, [R 0 8 Uint, G 8 8 Uint];
    R16_UNORM: 16 bits, 1 x 1, srgb false, [R 0 16 Unorm];
    R16_SNORM: 16 bits, 1 x 1, srgb false, [R 0 16 Snorm];
    R16_SINT: 16 bits, 1 x 1, srgb false, [R 0 16 Sint];
    R16_UINT: 16 bits, 1 x 1, srgb false, [R 0 16 Uint];
    R16_FLOAT: 16 bits, 1 x 1, srgb false, [R 0 16 Float];
    R8_UNORM: 8 bits, 1 x 1, srgb false, [R 0 8 Unorm];
    R8_SNORM: 8 bits, 1 x 1, srgb false, [R 0 8 Snorm];
    R8_SINT: 8 bits, 1 x 1, srgb false, [R 0 8 Sint];
    R8_UINT: 8 bits, 1 x 1, srgb false, [R 0 8 Uint];
    BC1_UNORM: 64 bits, 4 x 4, srgb false, [];
    BC1_UNORM_SRGB: 64 bits, 4 x 4, srgb true, [];
    BC2_UNORM: 128 bits, 4 x 4, srgb false, [];
    BC3_UNORM: 128 bits, 4 x 4, srgb false, [];
    BC4_UNORM: 64 bits, 4 x 4, srgb false, [];
    BC4_SNORM: 64 bits, 4 x 4, srgb false, [];
    BC5_UNORM: 128 bits, 4 x 4, srgb false, [];
    BC5_SNORM: 128 bits, 4 x 4, srgb false, [];
    BC6H_UF16: 128 bits, 4 x 4, srgb false, [];
    BC6H_SF16: 128 bits, 4 x 4, srgb false, [];
    BC7_UNORM: 128 bits, 4 x 4, srgb false, [];
    ETC2_RGB8: 64 bits, 4 x 4, srgb false, [];
    ETC2_EAC_RGBA8: 128 bits, 4 x 4, srgb false, [];
    ASTC_LDR_2D_4X4_FLT16: 128 bits, 4 x 4, srgb false, [];
    ASTC_LDR_2D_8X8_FLT16: 128 bits, 8 x 8, srgb false, [];
}

impl Format {
    /// Bits per element (per compression block for compressed formats), isl's `bpb`.
    pub fn bpb(self) -> u32 {
        self.layout().bpb
    }

    /// Bytes per element, isl's `bpb / 8` (Mesa's `cpp`).
    pub fn cpp(self) -> u32 {
        self.layout().bpb / 8
    }

    /// Block width in pixels (1 for uncompressed formats).
    pub fn block_width(self) -> u32 {
        self.layout().bw
    }

    /// Block height in pixels (1 for uncompressed formats).
    pub fn block_height(self) -> u32 {
        self.layout().bh
    }

    /// Block depth in pixels. Every modelled format has 2D (or no) blocks, so this is 1.
    pub fn block_depth(self) -> u32 {
        1
    }

    /// Whether an element is a compression block (isl's `isl_format_is_compressed`).
    pub fn is_compressed(self) -> bool {
        let l = self.layout();
        l.bw > 1 || l.bh > 1
    }

    /// Whether the element size is a power of two (false for the 24/48/96-bit formats,
    /// which isl tiles with the tile of `bpb / 3`).
    pub fn is_pow2_bpb(self) -> bool {
        self.bpb().is_power_of_two()
    }

    /// Whether colour values are sRGB-encoded.
    pub fn is_srgb(self) -> bool {
        self.layout().srgb
    }

    /// The channels in memory order (least significant first); empty for compressed
    /// formats.
    pub fn channels(self) -> &'static [Channel] {
        self.layout().channels
    }

    /// Whether isl accepts this format for storage images (`isl_is_storage_image_format`:
    /// the 39 formats of `image-lowering.md` §3, not counting R64_PASSTHRU, which current
    /// Mesa adds and which is included here).
    pub fn is_storage_image_format(self) -> bool {
        use Format::*;
        matches!(
            self,
            R32G32B32A32_UINT
                | R32G32B32A32_SINT
                | R32G32B32A32_FLOAT
                | R32_UINT
                | R32_SINT
                | R32_FLOAT
                | R16G16B16A16_UINT
                | R16G16B16A16_SINT
                | R16G16B16A16_FLOAT
                | R32G32_UINT
                | R32G32_SINT
                | R32G32_FLOAT
                | R8G8B8A8_UINT
                | R8G8B8A8_SINT
                | R16G16_UINT
                | R16G16_SINT
                | R16G16_FLOAT
                | R8G8_UINT
                | R8G8_SINT
                | R16_UINT
                | R16_FLOAT
                | R16_SINT
                | R8_UINT
                | R8_SINT
                | R10G10B10A2_UINT
                | R10G10B10A2_UNORM
                | R11G11B10_FLOAT
                | R16G16B16A16_UNORM
                | R16G16B16A16_SNORM
                | R8G8B8A8_UNORM
                | R8G8B8A8_SNORM
                | R16G16_UNORM
                | R16G16_SNORM
                | R8G8_UNORM
                | R8G8_SNORM
                | R16_UNORM
                | R16_SNORM
                | R8_UNORM
                | R8_SNORM
                | R64_PASSTHRU
        )
    }

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
    pub fn from_name(name: &str) -> Result<Format, UnknownFormat> {
        let upper = name.trim().to_ascii_uppercase();
        let bare = upper.strip_prefix("ISL_FORMAT_").unwrap_or(&upper);
        if let Some(f) = Format::ALL.iter().find(|f| f.name() == bare) {
            return Ok(*f);
        }
        if let Some(isl) = short_name_to_isl(bare) {
            if let Some(f) = Format::ALL.iter().find(|f| f.name() == isl) {
                return Ok(*f);
            }
        }
        Err(UnknownFormat {
            name: name.to_string(),
        })
    }
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

impl fmt::Display for Format {
    /// Prints the isl name, e.g. `R8G8B8A8_UNORM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not in the modelled set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat {
    /// The name as given.
    pub name: String,
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format `{}` (expected an isl name such as R8G8B8A8_UNORM or a short name \
             such as rgba8_unorm)",
            self.name
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
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
    fn every_name_round_trips_and_layouts_are_consistent() {
        for &f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
            assert_eq!(f.bpb() % 8, 0, "{f}");
            if !f.is_compressed() {
                // Channels never overlap and fit in the element.
                let mut used = 0u128;
                for c in f.channels() {
                    let end = c.start_bit as u32 + c.bits as u32;
                    assert!(end <= f.bpb(), "{f}");
                    let mask = if c.bits == 128 {
                        u128::MAX
                    } else {
                        ((1u128 << c.bits) - 1) << c.start_bit
                    };
                    assert_eq!(used & mask, 0, "{f}");
                    used |= mask;
                }
                assert!(!f.channels().is_empty(), "{f}");
            }
        }
    }

    #[test]
    fn storage_format_list_matches_isl_count() {
        // isl 24.3 lists 39 storage formats; current Mesa adds R64_PASSTHRU.
        let n = Format::ALL
            .iter()
            .filter(|f| f.is_storage_image_format())
            .count();
        assert_eq!(n, 40);
    }

    #[test]
    fn sizes() {
        assert_eq!(Format::BC1_UNORM.bpb(), 64);
        assert_eq!(Format::BC3_UNORM.cpp(), 16);
        assert_eq!(Format::R32G32B32_UINT.bpb(), 96);
        assert!(!Format::R32G32B32_UINT.is_pow2_bpb());
        assert_eq!(Format::ASTC_LDR_2D_8X8_FLT16.block_width(), 8);
    }
}
