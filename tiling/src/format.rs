//! Surface formats, named and laid out as in Mesa's isl: the table is
//! `src/intel/isl/isl_format_layout.csv` (isl's `isl_format_layout`), one row per format.
//!
//! Every isl format whose elements a layout engine can place is here: element size in
//! bits (`bpb`), block extent (compressed formats store one block per element), colour
//! space, compression and the channel layout of uncompressed formats. The isl formats
//! left out, and why, are listed in [`format_name`](crate::format_name), which also
//! parses names.
//!
//! The channel layout follows isl's generator (`gen_format_layout.py`): channels are
//! placed from bit 0 in the order of the table's `order` column, and padding (`x`)
//! channels are not listed. Three rows of isl's table disagree with the format's own
//! name, and here the name (the PRM's SURFACE_FORMAT definition) wins:
//! `R16G16_SSCALED` (isl's table gives G 6 bits), `R32_SFIXED` (16 bits) and the
//! `B10G10R10A2_{SNORM,USCALED,SSCALED,UINT,SINT}` rows (isl orders them `rgba`). None of
//! this changes a layout, which depends only on `bpb` and the block extent.

use std::fmt;

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

/// A logical channel name: isl's `r`, `g`, `b`, `a`, `l`, `i` and `p` channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChannelName {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
    /// Luminance (the `L*` formats).
    L,
    /// Intensity (the `I*` formats).
    I,
    /// Palette index (the `P*_PALETTE*` formats).
    P,
}

/// How a channel's bits are interpreted: isl's `isl_base_type`, without `VOID` (padding
/// channels are not listed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChannelType {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// IEEE float (16, 32 or 64 bits), isl's `SFLOAT`.
    Float,
    /// Unsigned small float without a sign bit (the 11- and 10-bit channels of
    /// R11G11B10_FLOAT, the 9-bit mantissas of R9G9B9E5_SHAREDEXP, BC6H_UF16).
    Ufloat,
    /// Raw bits passed through without conversion (the `*_PASSTHRU` formats).
    Raw,
    /// Unsigned integer converted to float without normalization (vertex formats).
    Uscaled,
    /// Signed integer converted to float without normalization (vertex formats).
    Sscaled,
    /// Signed fixed point (16.16).
    Sfixed,
}

/// Block compression, isl's `isl_txc` (without `NONE` and the auxiliary kinds HiZ, MCS
/// and CCS, whose formats are not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// BC1 / DXT1.
    Dxt1,
    /// BC2 / DXT3.
    Dxt3,
    /// BC3 / DXT5.
    Dxt5,
    /// FXT1 (8x4 blocks).
    Fxt1,
    /// BC4.
    Rgtc1,
    /// BC5.
    Rgtc2,
    /// BC6H and BC7.
    Bptc,
    /// ETC1.
    Etc1,
    /// ETC2 and EAC.
    Etc2,
    /// ASTC (2D blocks from 4x4 to 12x12).
    Astc,
}

impl Compression {
    /// isl's name without the prefix, lower case, e.g. `astc`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Dxt1 => "dxt1",
            Compression::Dxt3 => "dxt3",
            Compression::Dxt5 => "dxt5",
            Compression::Fxt1 => "fxt1",
            Compression::Rgtc1 => "rgtc1",
            Compression::Rgtc2 => "rgtc2",
            Compression::Bptc => "bptc",
            Compression::Etc1 => "etc1",
            Compression::Etc2 => "etc2",
            Compression::Astc => "astc",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// isl's `isl_colorspace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ColorSpace {
    /// The `*_PASSTHRU` formats.
    None,
    Linear,
    Srgb,
    Yuv,
}

struct Layout {
    bpb: u32,
    bw: u32,
    bh: u32,
    space: ColorSpace,
    txc: Option<Compression>,
    channels: &'static [Channel],
}

/// `None` or a [`Compression`] from the table's compression column.
macro_rules! txc {
    (None) => {
        None
    };
    ($t:ident) => {
        Some(Compression::$t)
    };
}

macro_rules! define_formats {
    ($(
        $name:ident : $bpb:literal bits, $bw:literal x $bh:literal, $space:ident, $txc:ident,
            [$($c:ident $s:literal $b:literal $t:ident),*];
    )*) => {
        /// A surface format, spelled as isl spells it without the `ISL_FORMAT_` prefix.
        ///
        /// Parse with [`str::parse`] (isl names case-insensitively, optionally prefixed
        /// with `ISL_FORMAT_`, plus the short NIR-style names such as `rgba8_unorm`; see
        /// [`Format::from_name`]). Variants are in the order of isl's table.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Format {
            $(
                #[doc = concat!("`ISL_FORMAT_", stringify!($name), "`: ", stringify!($bpb),
                                " bits per element, ", stringify!($bw), "x", stringify!($bh),
                                " block.")]
                $name,
            )*
        }

        impl Format {
            /// Every modelled format, in the order of isl's table.
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
                        space: ColorSpace::$space,
                        txc: txc!($txc),
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

// Rows: name: bpb, block width x height, colour space, compression, channels (name,
// start bit, bits, type). Generated from isl_format_layout.csv; the rows isl leaves out
// of this table are in `format_name::UnsupportedFormat::ALL`.
define_formats! {
    R32G32B32A32_FLOAT: 128 bits, 1 x 1, Linear, None, [R 0 32 Float, G 32 32 Float, B 64 32 Float, A 96 32 Float];
    R32G32B32A32_SINT: 128 bits, 1 x 1, Linear, None, [R 0 32 Sint, G 32 32 Sint, B 64 32 Sint, A 96 32 Sint];
    R32G32B32A32_UINT: 128 bits, 1 x 1, Linear, None, [R 0 32 Uint, G 32 32 Uint, B 64 32 Uint, A 96 32 Uint];
    R32G32B32A32_UNORM: 128 bits, 1 x 1, Linear, None, [R 0 32 Unorm, G 32 32 Unorm, B 64 32 Unorm, A 96 32 Unorm];
    R32G32B32A32_SNORM: 128 bits, 1 x 1, Linear, None, [R 0 32 Snorm, G 32 32 Snorm, B 64 32 Snorm, A 96 32 Snorm];
    R64G64_FLOAT: 128 bits, 1 x 1, Linear, None, [R 0 64 Float, G 64 64 Float];
    R32G32B32X32_FLOAT: 128 bits, 1 x 1, Linear, None, [R 0 32 Float, G 32 32 Float, B 64 32 Float];
    R32G32B32A32_SSCALED: 128 bits, 1 x 1, Linear, None, [R 0 32 Sscaled, G 32 32 Sscaled, B 64 32 Sscaled, A 96 32 Sscaled];
    R32G32B32A32_USCALED: 128 bits, 1 x 1, Linear, None, [R 0 32 Uscaled, G 32 32 Uscaled, B 64 32 Uscaled, A 96 32 Uscaled];
    R32G32B32A32_SFIXED: 128 bits, 1 x 1, Linear, None, [R 0 32 Sfixed, G 32 32 Sfixed, B 64 32 Sfixed, A 96 32 Sfixed];
    R64G64_PASSTHRU: 128 bits, 1 x 1, None, None, [R 0 64 Raw, G 64 64 Raw];
    R32G32B32_FLOAT: 96 bits, 1 x 1, Linear, None, [R 0 32 Float, G 32 32 Float, B 64 32 Float];
    R32G32B32_SINT: 96 bits, 1 x 1, Linear, None, [R 0 32 Sint, G 32 32 Sint, B 64 32 Sint];
    R32G32B32_UINT: 96 bits, 1 x 1, Linear, None, [R 0 32 Uint, G 32 32 Uint, B 64 32 Uint];
    R32G32B32_UNORM: 96 bits, 1 x 1, Linear, None, [R 0 32 Unorm, G 32 32 Unorm, B 64 32 Unorm];
    R32G32B32_SNORM: 96 bits, 1 x 1, Linear, None, [R 0 32 Snorm, G 32 32 Snorm, B 64 32 Snorm];
    R32G32B32_SSCALED: 96 bits, 1 x 1, Linear, None, [R 0 32 Sscaled, G 32 32 Sscaled, B 64 32 Sscaled];
    R32G32B32_USCALED: 96 bits, 1 x 1, Linear, None, [R 0 32 Uscaled, G 32 32 Uscaled, B 64 32 Uscaled];
    R32G32B32_SFIXED: 96 bits, 1 x 1, Linear, None, [R 0 32 Sfixed, G 32 32 Sfixed, B 64 32 Sfixed];
    R16G16B16A16_UNORM: 64 bits, 1 x 1, Linear, None, [R 0 16 Unorm, G 16 16 Unorm, B 32 16 Unorm, A 48 16 Unorm];
    R16G16B16A16_SNORM: 64 bits, 1 x 1, Linear, None, [R 0 16 Snorm, G 16 16 Snorm, B 32 16 Snorm, A 48 16 Snorm];
    R16G16B16A16_SINT: 64 bits, 1 x 1, Linear, None, [R 0 16 Sint, G 16 16 Sint, B 32 16 Sint, A 48 16 Sint];
    R16G16B16A16_UINT: 64 bits, 1 x 1, Linear, None, [R 0 16 Uint, G 16 16 Uint, B 32 16 Uint, A 48 16 Uint];
    R16G16B16A16_FLOAT: 64 bits, 1 x 1, Linear, None, [R 0 16 Float, G 16 16 Float, B 32 16 Float, A 48 16 Float];
    R32G32_FLOAT: 64 bits, 1 x 1, Linear, None, [R 0 32 Float, G 32 32 Float];
    R32G32_SINT: 64 bits, 1 x 1, Linear, None, [R 0 32 Sint, G 32 32 Sint];
    R32G32_UINT: 64 bits, 1 x 1, Linear, None, [R 0 32 Uint, G 32 32 Uint];
    R32_FLOAT_X8X24_TYPELESS: 64 bits, 1 x 1, Linear, None, [R 0 32 Float];
    X32_TYPELESS_G8X24_UINT: 64 bits, 1 x 1, Linear, None, [G 32 8 Uint];
    L32A32_FLOAT: 64 bits, 1 x 1, Linear, None, [L 0 32 Float, A 32 32 Float];
    R32G32_UNORM: 64 bits, 1 x 1, Linear, None, [R 0 32 Unorm, G 32 32 Unorm];
    R32G32_SNORM: 64 bits, 1 x 1, Linear, None, [R 0 32 Snorm, G 32 32 Snorm];
    R64_FLOAT: 64 bits, 1 x 1, Linear, None, [R 0 64 Float];
    R16G16B16X16_UNORM: 64 bits, 1 x 1, Linear, None, [R 0 16 Unorm, G 16 16 Unorm, B 32 16 Unorm];
    R16G16B16X16_FLOAT: 64 bits, 1 x 1, Linear, None, [R 0 16 Float, G 16 16 Float, B 32 16 Float];
    A32X32_FLOAT: 64 bits, 1 x 1, Linear, None, [A 0 32 Float];
    L32X32_FLOAT: 64 bits, 1 x 1, Linear, None, [L 0 32 Float];
    I32X32_FLOAT: 64 bits, 1 x 1, Linear, None, [I 0 32 Float];
    R16G16B16A16_SSCALED: 64 bits, 1 x 1, Linear, None, [R 0 16 Sscaled, G 16 16 Sscaled, B 32 16 Sscaled, A 48 16 Sscaled];
    R16G16B16A16_USCALED: 64 bits, 1 x 1, Linear, None, [R 0 16 Uscaled, G 16 16 Uscaled, B 32 16 Uscaled, A 48 16 Uscaled];
    R32G32_SSCALED: 64 bits, 1 x 1, Linear, None, [R 0 32 Sscaled, G 32 32 Sscaled];
    R32G32_USCALED: 64 bits, 1 x 1, Linear, None, [R 0 32 Uscaled, G 32 32 Uscaled];
    R32G32_FLOAT_LD: 64 bits, 1 x 1, Linear, None, [R 0 32 Float, G 32 32 Float];
    R32G32_SFIXED: 64 bits, 1 x 1, Linear, None, [R 0 32 Sfixed, G 32 32 Sfixed];
    R64_PASSTHRU: 64 bits, 1 x 1, None, None, [R 0 64 Raw];
    B8G8R8A8_UNORM: 32 bits, 1 x 1, Linear, None, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm, A 24 8 Unorm];
    B8G8R8A8_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm, A 24 8 Unorm];
    R10G10B10A2_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 10 Unorm, G 10 10 Unorm, B 20 10 Unorm, A 30 2 Unorm];
    R10G10B10A2_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [R 0 10 Unorm, G 10 10 Unorm, B 20 10 Unorm, A 30 2 Unorm];
    R10G10B10A2_UINT: 32 bits, 1 x 1, Linear, None, [R 0 10 Uint, G 10 10 Uint, B 20 10 Uint, A 30 2 Uint];
    R10G10B10_SNORM_A2_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 10 Snorm, G 10 10 Snorm, B 20 10 Snorm, A 30 2 Unorm];
    R8G8B8A8_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm, A 24 8 Unorm];
    R8G8B8A8_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm, A 24 8 Unorm];
    R8G8B8A8_SNORM: 32 bits, 1 x 1, Linear, None, [R 0 8 Snorm, G 8 8 Snorm, B 16 8 Snorm, A 24 8 Snorm];
    R8G8B8A8_SINT: 32 bits, 1 x 1, Linear, None, [R 0 8 Sint, G 8 8 Sint, B 16 8 Sint, A 24 8 Sint];
    R8G8B8A8_UINT: 32 bits, 1 x 1, Linear, None, [R 0 8 Uint, G 8 8 Uint, B 16 8 Uint, A 24 8 Uint];
    R16G16_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 16 Unorm, G 16 16 Unorm];
    R16G16_SNORM: 32 bits, 1 x 1, Linear, None, [R 0 16 Snorm, G 16 16 Snorm];
    R16G16_SINT: 32 bits, 1 x 1, Linear, None, [R 0 16 Sint, G 16 16 Sint];
    R16G16_UINT: 32 bits, 1 x 1, Linear, None, [R 0 16 Uint, G 16 16 Uint];
    R16G16_FLOAT: 32 bits, 1 x 1, Linear, None, [R 0 16 Float, G 16 16 Float];
    B10G10R10A2_UNORM: 32 bits, 1 x 1, Linear, None, [B 0 10 Unorm, G 10 10 Unorm, R 20 10 Unorm, A 30 2 Unorm];
    B10G10R10A2_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [B 0 10 Unorm, G 10 10 Unorm, R 20 10 Unorm, A 30 2 Unorm];
    R11G11B10_FLOAT: 32 bits, 1 x 1, Linear, None, [R 0 11 Ufloat, G 11 11 Ufloat, B 22 10 Ufloat];
    R10G10B10_FLOAT_A2_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 10 Ufloat, G 10 10 Ufloat, B 20 10 Ufloat, A 30 2 Unorm];
    R32_SINT: 32 bits, 1 x 1, Linear, None, [R 0 32 Sint];
    R32_UINT: 32 bits, 1 x 1, Linear, None, [R 0 32 Uint];
    R32_FLOAT: 32 bits, 1 x 1, Linear, None, [R 0 32 Float];
    R24_UNORM_X8_TYPELESS: 32 bits, 1 x 1, Linear, None, [R 0 24 Unorm];
    X24_TYPELESS_G8_UINT: 32 bits, 1 x 1, Linear, None, [G 24 8 Uint];
    L32_UNORM: 32 bits, 1 x 1, Linear, None, [L 0 32 Unorm];
    A32_UNORM: 32 bits, 1 x 1, Linear, None, [A 0 32 Unorm];
    L16A16_UNORM: 32 bits, 1 x 1, Linear, None, [L 0 16 Unorm, A 16 16 Unorm];
    I24X8_UNORM: 32 bits, 1 x 1, Linear, None, [I 0 24 Unorm];
    L24X8_UNORM: 32 bits, 1 x 1, Linear, None, [L 0 24 Unorm];
    A24X8_UNORM: 32 bits, 1 x 1, Linear, None, [A 0 24 Unorm];
    I32_FLOAT: 32 bits, 1 x 1, Linear, None, [I 0 32 Float];
    L32_FLOAT: 32 bits, 1 x 1, Linear, None, [L 0 32 Float];
    A32_FLOAT: 32 bits, 1 x 1, Linear, None, [A 0 32 Float];
    X8B8_UNORM_G8R8_SNORM: 32 bits, 1 x 1, Linear, None, [B 8 8 Unorm, G 16 8 Snorm, R 24 8 Snorm];
    A8X8_UNORM_G8R8_SNORM: 32 bits, 1 x 1, Linear, None, [A 0 8 Unorm, G 16 8 Snorm, R 24 8 Snorm];
    B8X8_UNORM_G8R8_SNORM: 32 bits, 1 x 1, Linear, None, [B 0 8 Unorm, G 16 8 Snorm, R 24 8 Snorm];
    B8G8R8X8_UNORM: 32 bits, 1 x 1, Linear, None, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm];
    B8G8R8X8_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [B 0 8 Unorm, G 8 8 Unorm, R 16 8 Unorm];
    R8G8B8X8_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm];
    R8G8B8X8_UNORM_SRGB: 32 bits, 1 x 1, Srgb, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm];
    R9G9B9E5_SHAREDEXP: 32 bits, 1 x 1, Linear, None, [R 0 9 Ufloat, G 9 9 Ufloat, B 18 9 Ufloat];
    B10G10R10X2_UNORM: 32 bits, 1 x 1, Linear, None, [B 0 10 Unorm, G 10 10 Unorm, R 20 10 Unorm];
    L16A16_FLOAT: 32 bits, 1 x 1, Linear, None, [L 0 16 Float, A 16 16 Float];
    R32_UNORM: 32 bits, 1 x 1, Linear, None, [R 0 32 Unorm];
    R32_SNORM: 32 bits, 1 x 1, Linear, None, [R 0 32 Snorm];
    R10G10B10X2_USCALED: 32 bits, 1 x 1, Linear, None, [R 0 10 Uscaled, G 10 10 Uscaled, B 20 10 Uscaled];
    R8G8B8A8_SSCALED: 32 bits, 1 x 1, Linear, None, [R 0 8 Sscaled, G 8 8 Sscaled, B 16 8 Sscaled, A 24 8 Sscaled];
    R8G8B8A8_USCALED: 32 bits, 1 x 1, Linear, None, [R 0 8 Uscaled, G 8 8 Uscaled, B 16 8 Uscaled, A 24 8 Uscaled];
    R16G16_SSCALED: 32 bits, 1 x 1, Linear, None, [R 0 16 Sscaled, G 16 16 Sscaled];
    R16G16_USCALED: 32 bits, 1 x 1, Linear, None, [R 0 16 Uscaled, G 16 16 Uscaled];
    R32_SSCALED: 32 bits, 1 x 1, Linear, None, [R 0 32 Sscaled];
    R32_USCALED: 32 bits, 1 x 1, Linear, None, [R 0 32 Uscaled];
    B5G6R5_UNORM: 16 bits, 1 x 1, Linear, None, [B 0 5 Unorm, G 5 6 Unorm, R 11 5 Unorm];
    B5G6R5_UNORM_SRGB: 16 bits, 1 x 1, Srgb, None, [B 0 5 Unorm, G 5 6 Unorm, R 11 5 Unorm];
    B5G5R5A1_UNORM: 16 bits, 1 x 1, Linear, None, [B 0 5 Unorm, G 5 5 Unorm, R 10 5 Unorm, A 15 1 Unorm];
    B5G5R5A1_UNORM_SRGB: 16 bits, 1 x 1, Srgb, None, [B 0 5 Unorm, G 5 5 Unorm, R 10 5 Unorm, A 15 1 Unorm];
    B4G4R4A4_UNORM: 16 bits, 1 x 1, Linear, None, [B 0 4 Unorm, G 4 4 Unorm, R 8 4 Unorm, A 12 4 Unorm];
    B4G4R4A4_UNORM_SRGB: 16 bits, 1 x 1, Srgb, None, [B 0 4 Unorm, G 4 4 Unorm, R 8 4 Unorm, A 12 4 Unorm];
    R8G8_UNORM: 16 bits, 1 x 1, Linear, None, [R 0 8 Unorm, G 8 8 Unorm];
    R8G8_SNORM: 16 bits, 1 x 1, Linear, None, [R 0 8 Snorm, G 8 8 Snorm];
    R8G8_SINT: 16 bits, 1 x 1, Linear, None, [R 0 8 Sint, G 8 8 Sint];
    R8G8_UINT: 16 bits, 1 x 1, Linear, None, [R 0 8 Uint, G 8 8 Uint];
    R16_UNORM: 16 bits, 1 x 1, Linear, None, [R 0 16 Unorm];
    R16_SNORM: 16 bits, 1 x 1, Linear, None, [R 0 16 Snorm];
    R16_SINT: 16 bits, 1 x 1, Linear, None, [R 0 16 Sint];
    R16_UINT: 16 bits, 1 x 1, Linear, None, [R 0 16 Uint];
    R16_FLOAT: 16 bits, 1 x 1, Linear, None, [R 0 16 Float];
    A8P8_UNORM_PALETTE0: 16 bits, 1 x 1, Linear, None, [A 0 8 Unorm, P 8 8 Unorm];
    A8P8_UNORM_PALETTE1: 16 bits, 1 x 1, Linear, None, [A 0 8 Unorm, P 8 8 Unorm];
    I16_UNORM: 16 bits, 1 x 1, Linear, None, [I 0 16 Unorm];
    L16_UNORM: 16 bits, 1 x 1, Linear, None, [L 0 16 Unorm];
    A16_UNORM: 16 bits, 1 x 1, Linear, None, [A 0 16 Unorm];
    L8A8_UNORM: 16 bits, 1 x 1, Linear, None, [L 0 8 Unorm, A 8 8 Unorm];
    I16_FLOAT: 16 bits, 1 x 1, Linear, None, [I 0 16 Float];
    L16_FLOAT: 16 bits, 1 x 1, Linear, None, [L 0 16 Float];
    A16_FLOAT: 16 bits, 1 x 1, Linear, None, [A 0 16 Float];
    L8A8_UNORM_SRGB: 16 bits, 1 x 1, Srgb, None, [L 0 8 Unorm, A 8 8 Unorm];
    R5G5_SNORM_B6_UNORM: 16 bits, 1 x 1, Linear, None, [R 0 5 Snorm, G 5 5 Snorm, B 10 6 Unorm];
    B5G5R5X1_UNORM: 16 bits, 1 x 1, Linear, None, [B 0 5 Unorm, G 5 5 Unorm, R 10 5 Unorm];
    B5G5R5X1_UNORM_SRGB: 16 bits, 1 x 1, Srgb, None, [B 0 5 Unorm, G 5 5 Unorm, R 10 5 Unorm];
    R8G8_SSCALED: 16 bits, 1 x 1, Linear, None, [R 0 8 Sscaled, G 8 8 Sscaled];
    R8G8_USCALED: 16 bits, 1 x 1, Linear, None, [R 0 8 Uscaled, G 8 8 Uscaled];
    R16_SSCALED: 16 bits, 1 x 1, Linear, None, [R 0 16 Sscaled];
    R16_USCALED: 16 bits, 1 x 1, Linear, None, [R 0 16 Uscaled];
    P8A8_UNORM_PALETTE0: 16 bits, 1 x 1, Linear, None, [P 0 8 Unorm, A 8 8 Unorm];
    P8A8_UNORM_PALETTE1: 16 bits, 1 x 1, Linear, None, [P 0 8 Unorm, A 8 8 Unorm];
    A1B5G5R5_UNORM: 16 bits, 1 x 1, Linear, None, [A 0 1 Unorm, B 1 5 Unorm, G 6 5 Unorm, R 11 5 Unorm];
    A4B4G4R4_UNORM: 16 bits, 1 x 1, Linear, None, [A 0 4 Unorm, B 4 4 Unorm, G 8 4 Unorm, R 12 4 Unorm];
    L8A8_UINT: 16 bits, 1 x 1, Linear, None, [L 0 8 Uint, A 8 8 Uint];
    L8A8_SINT: 16 bits, 1 x 1, Linear, None, [L 0 8 Sint, A 8 8 Sint];
    R8_UNORM: 8 bits, 1 x 1, Linear, None, [R 0 8 Unorm];
    R8_SNORM: 8 bits, 1 x 1, Linear, None, [R 0 8 Snorm];
    R8_SINT: 8 bits, 1 x 1, Linear, None, [R 0 8 Sint];
    R8_UINT: 8 bits, 1 x 1, Linear, None, [R 0 8 Uint];
    A8_UNORM: 8 bits, 1 x 1, Linear, None, [A 0 8 Unorm];
    I8_UNORM: 8 bits, 1 x 1, Linear, None, [I 0 8 Unorm];
    L8_UNORM: 8 bits, 1 x 1, Linear, None, [L 0 8 Unorm];
    P4A4_UNORM_PALETTE0: 8 bits, 1 x 1, Linear, None, [P 0 4 Unorm, A 4 4 Unorm];
    A4P4_UNORM_PALETTE0: 8 bits, 1 x 1, Linear, None, [A 0 4 Unorm, P 4 4 Unorm];
    R8_SSCALED: 8 bits, 1 x 1, Linear, None, [R 0 8 Sscaled];
    R8_USCALED: 8 bits, 1 x 1, Linear, None, [R 0 8 Uscaled];
    P8_UNORM_PALETTE0: 8 bits, 1 x 1, Linear, None, [P 0 8 Unorm];
    L8_UNORM_SRGB: 8 bits, 1 x 1, Srgb, None, [L 0 8 Unorm];
    P8_UNORM_PALETTE1: 8 bits, 1 x 1, Linear, None, [P 0 8 Unorm];
    P4A4_UNORM_PALETTE1: 8 bits, 1 x 1, Linear, None, [P 0 4 Unorm, A 4 4 Unorm];
    A4P4_UNORM_PALETTE1: 8 bits, 1 x 1, Linear, None, [A 0 4 Unorm, P 4 4 Unorm];
    Y8_UNORM: 8 bits, 1 x 1, Yuv, None, [];
    L8_UINT: 8 bits, 1 x 1, Linear, None, [L 0 8 Uint];
    L8_SINT: 8 bits, 1 x 1, Linear, None, [L 0 8 Sint];
    I8_UINT: 8 bits, 1 x 1, Linear, None, [I 0 8 Uint];
    I8_SINT: 8 bits, 1 x 1, Linear, None, [I 0 8 Sint];
    DXT1_RGB_SRGB: 64 bits, 4 x 4, Srgb, Dxt1, [];
    YCRCB_NORMAL: 16 bits, 1 x 1, Yuv, None, [];
    YCRCB_SWAPUVY: 16 bits, 1 x 1, Yuv, None, [];
    BC1_UNORM: 64 bits, 4 x 4, Linear, Dxt1, [];
    BC2_UNORM: 128 bits, 4 x 4, Linear, Dxt3, [];
    BC3_UNORM: 128 bits, 4 x 4, Linear, Dxt5, [];
    BC4_UNORM: 64 bits, 4 x 4, Linear, Rgtc1, [];
    BC5_UNORM: 128 bits, 4 x 4, Linear, Rgtc2, [];
    BC1_UNORM_SRGB: 64 bits, 4 x 4, Srgb, Dxt1, [];
    BC2_UNORM_SRGB: 128 bits, 4 x 4, Srgb, Dxt3, [];
    BC3_UNORM_SRGB: 128 bits, 4 x 4, Srgb, Dxt5, [];
    YCRCB_SWAPUV: 16 bits, 1 x 1, Yuv, None, [];
    YCRCB_SWAPY: 16 bits, 1 x 1, Yuv, None, [];
    DXT1_RGB: 64 bits, 4 x 4, Linear, Dxt1, [];
    FXT1: 128 bits, 8 x 4, Linear, Fxt1, [];
    R8G8B8_UNORM: 24 bits, 1 x 1, Linear, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm];
    R8G8B8_SNORM: 24 bits, 1 x 1, Linear, None, [R 0 8 Snorm, G 8 8 Snorm, B 16 8 Snorm];
    R8G8B8_SSCALED: 24 bits, 1 x 1, Linear, None, [R 0 8 Sscaled, G 8 8 Sscaled, B 16 8 Sscaled];
    R8G8B8_USCALED: 24 bits, 1 x 1, Linear, None, [R 0 8 Uscaled, G 8 8 Uscaled, B 16 8 Uscaled];
    BC4_SNORM: 64 bits, 4 x 4, Linear, Rgtc1, [];
    BC5_SNORM: 128 bits, 4 x 4, Linear, Rgtc2, [];
    R16G16B16_FLOAT: 48 bits, 1 x 1, Linear, None, [R 0 16 Float, G 16 16 Float, B 32 16 Float];
    R16G16B16_UNORM: 48 bits, 1 x 1, Linear, None, [R 0 16 Unorm, G 16 16 Unorm, B 32 16 Unorm];
    R16G16B16_SNORM: 48 bits, 1 x 1, Linear, None, [R 0 16 Snorm, G 16 16 Snorm, B 32 16 Snorm];
    R16G16B16_SSCALED: 48 bits, 1 x 1, Linear, None, [R 0 16 Sscaled, G 16 16 Sscaled, B 32 16 Sscaled];
    R16G16B16_USCALED: 48 bits, 1 x 1, Linear, None, [R 0 16 Uscaled, G 16 16 Uscaled, B 32 16 Uscaled];
    BC6H_SF16: 128 bits, 4 x 4, Linear, Bptc, [];
    BC7_UNORM: 128 bits, 4 x 4, Linear, Bptc, [];
    BC7_UNORM_SRGB: 128 bits, 4 x 4, Srgb, Bptc, [];
    BC6H_UF16: 128 bits, 4 x 4, Linear, Bptc, [];
    R8G8B8_UNORM_SRGB: 24 bits, 1 x 1, Srgb, None, [R 0 8 Unorm, G 8 8 Unorm, B 16 8 Unorm];
    ETC1_RGB8: 64 bits, 4 x 4, Linear, Etc1, [];
    ETC2_RGB8: 64 bits, 4 x 4, Linear, Etc2, [];
    EAC_R11: 64 bits, 4 x 4, Linear, Etc2, [];
    EAC_RG11: 128 bits, 4 x 4, Linear, Etc2, [];
    EAC_SIGNED_R11: 64 bits, 4 x 4, Linear, Etc2, [];
    EAC_SIGNED_RG11: 128 bits, 4 x 4, Linear, Etc2, [];
    ETC2_SRGB8: 64 bits, 4 x 4, Srgb, Etc2, [];
    R16G16B16_UINT: 48 bits, 1 x 1, Linear, None, [R 0 16 Uint, G 16 16 Uint, B 32 16 Uint];
    R16G16B16_SINT: 48 bits, 1 x 1, Linear, None, [R 0 16 Sint, G 16 16 Sint, B 32 16 Sint];
    R32_SFIXED: 32 bits, 1 x 1, Linear, None, [R 0 32 Sfixed];
    R10G10B10A2_SNORM: 32 bits, 1 x 1, Linear, None, [R 0 10 Snorm, G 10 10 Snorm, B 20 10 Snorm, A 30 2 Snorm];
    R10G10B10A2_USCALED: 32 bits, 1 x 1, Linear, None, [R 0 10 Uscaled, G 10 10 Uscaled, B 20 10 Uscaled, A 30 2 Uscaled];
    R10G10B10A2_SSCALED: 32 bits, 1 x 1, Linear, None, [R 0 10 Sscaled, G 10 10 Sscaled, B 20 10 Sscaled, A 30 2 Sscaled];
    R10G10B10A2_SINT: 32 bits, 1 x 1, Linear, None, [R 0 10 Sint, G 10 10 Sint, B 20 10 Sint, A 30 2 Sint];
    B10G10R10A2_SNORM: 32 bits, 1 x 1, Linear, None, [B 0 10 Snorm, G 10 10 Snorm, R 20 10 Snorm, A 30 2 Snorm];
    B10G10R10A2_USCALED: 32 bits, 1 x 1, Linear, None, [B 0 10 Uscaled, G 10 10 Uscaled, R 20 10 Uscaled, A 30 2 Uscaled];
    B10G10R10A2_SSCALED: 32 bits, 1 x 1, Linear, None, [B 0 10 Sscaled, G 10 10 Sscaled, R 20 10 Sscaled, A 30 2 Sscaled];
    B10G10R10A2_UINT: 32 bits, 1 x 1, Linear, None, [B 0 10 Uint, G 10 10 Uint, R 20 10 Uint, A 30 2 Uint];
    B10G10R10A2_SINT: 32 bits, 1 x 1, Linear, None, [B 0 10 Sint, G 10 10 Sint, R 20 10 Sint, A 30 2 Sint];
    ETC2_RGB8_PTA: 64 bits, 4 x 4, Linear, Etc2, [];
    ETC2_SRGB8_PTA: 64 bits, 4 x 4, Srgb, Etc2, [];
    ETC2_EAC_RGBA8: 128 bits, 4 x 4, Linear, Etc2, [];
    ETC2_EAC_SRGB8_A8: 128 bits, 4 x 4, Srgb, Etc2, [];
    R8G8B8_UINT: 24 bits, 1 x 1, Linear, None, [R 0 8 Uint, G 8 8 Uint, B 16 8 Uint];
    R8G8B8_SINT: 24 bits, 1 x 1, Linear, None, [R 0 8 Sint, G 8 8 Sint, B 16 8 Sint];
    ASTC_LDR_2D_4X4_U8SRGB: 128 bits, 4 x 4, Srgb, Astc, [];
    ASTC_LDR_2D_5X4_U8SRGB: 128 bits, 5 x 4, Srgb, Astc, [];
    ASTC_LDR_2D_5X5_U8SRGB: 128 bits, 5 x 5, Srgb, Astc, [];
    ASTC_LDR_2D_6X5_U8SRGB: 128 bits, 6 x 5, Srgb, Astc, [];
    ASTC_LDR_2D_6X6_U8SRGB: 128 bits, 6 x 6, Srgb, Astc, [];
    ASTC_LDR_2D_8X5_U8SRGB: 128 bits, 8 x 5, Srgb, Astc, [];
    ASTC_LDR_2D_8X6_U8SRGB: 128 bits, 8 x 6, Srgb, Astc, [];
    ASTC_LDR_2D_8X8_U8SRGB: 128 bits, 8 x 8, Srgb, Astc, [];
    ASTC_LDR_2D_10X5_U8SRGB: 128 bits, 10 x 5, Srgb, Astc, [];
    ASTC_LDR_2D_10X6_U8SRGB: 128 bits, 10 x 6, Srgb, Astc, [];
    ASTC_LDR_2D_10X8_U8SRGB: 128 bits, 10 x 8, Srgb, Astc, [];
    ASTC_LDR_2D_10X10_U8SRGB: 128 bits, 10 x 10, Srgb, Astc, [];
    ASTC_LDR_2D_12X10_U8SRGB: 128 bits, 12 x 10, Srgb, Astc, [];
    ASTC_LDR_2D_12X12_U8SRGB: 128 bits, 12 x 12, Srgb, Astc, [];
    ASTC_LDR_2D_4X4_FLT16: 128 bits, 4 x 4, Linear, Astc, [];
    ASTC_LDR_2D_5X4_FLT16: 128 bits, 5 x 4, Linear, Astc, [];
    ASTC_LDR_2D_5X5_FLT16: 128 bits, 5 x 5, Linear, Astc, [];
    ASTC_LDR_2D_6X5_FLT16: 128 bits, 6 x 5, Linear, Astc, [];
    ASTC_LDR_2D_6X6_FLT16: 128 bits, 6 x 6, Linear, Astc, [];
    ASTC_LDR_2D_8X5_FLT16: 128 bits, 8 x 5, Linear, Astc, [];
    ASTC_LDR_2D_8X6_FLT16: 128 bits, 8 x 6, Linear, Astc, [];
    ASTC_LDR_2D_8X8_FLT16: 128 bits, 8 x 8, Linear, Astc, [];
    ASTC_LDR_2D_10X5_FLT16: 128 bits, 10 x 5, Linear, Astc, [];
    ASTC_LDR_2D_10X6_FLT16: 128 bits, 10 x 6, Linear, Astc, [];
    ASTC_LDR_2D_10X8_FLT16: 128 bits, 10 x 8, Linear, Astc, [];
    ASTC_LDR_2D_10X10_FLT16: 128 bits, 10 x 10, Linear, Astc, [];
    ASTC_LDR_2D_12X10_FLT16: 128 bits, 12 x 10, Linear, Astc, [];
    ASTC_LDR_2D_12X12_FLT16: 128 bits, 12 x 12, Linear, Astc, [];
    ASTC_HDR_2D_4X4_FLT16: 128 bits, 4 x 4, Linear, Astc, [];
    ASTC_HDR_2D_5X4_FLT16: 128 bits, 5 x 4, Linear, Astc, [];
    ASTC_HDR_2D_5X5_FLT16: 128 bits, 5 x 5, Linear, Astc, [];
    ASTC_HDR_2D_6X5_FLT16: 128 bits, 6 x 5, Linear, Astc, [];
    ASTC_HDR_2D_6X6_FLT16: 128 bits, 6 x 6, Linear, Astc, [];
    ASTC_HDR_2D_8X5_FLT16: 128 bits, 8 x 5, Linear, Astc, [];
    ASTC_HDR_2D_8X6_FLT16: 128 bits, 8 x 6, Linear, Astc, [];
    ASTC_HDR_2D_8X8_FLT16: 128 bits, 8 x 8, Linear, Astc, [];
    ASTC_HDR_2D_10X5_FLT16: 128 bits, 10 x 5, Linear, Astc, [];
    ASTC_HDR_2D_10X6_FLT16: 128 bits, 10 x 6, Linear, Astc, [];
    ASTC_HDR_2D_10X8_FLT16: 128 bits, 10 x 8, Linear, Astc, [];
    ASTC_HDR_2D_10X10_FLT16: 128 bits, 10 x 10, Linear, Astc, [];
    ASTC_HDR_2D_12X10_FLT16: 128 bits, 12 x 10, Linear, Astc, [];
    ASTC_HDR_2D_12X12_FLT16: 128 bits, 12 x 12, Linear, Astc, [];
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

    /// Block width in pixels (1 for uncompressed formats), isl's `bw`.
    pub fn block_width(self) -> u32 {
        self.layout().bw
    }

    /// Block height in pixels (1 for uncompressed formats), isl's `bh`.
    pub fn block_height(self) -> u32 {
        self.layout().bh
    }

    /// Block depth in pixels, isl's `bd`: 1 for every isl format (ASTC 3D blocks are not
    /// in isl's table).
    pub fn block_depth(self) -> u32 {
        1
    }

    /// The block compression, isl's `txc`; `None` for uncompressed formats.
    pub fn compression(self) -> Option<Compression> {
        self.layout().txc
    }

    /// Whether an element is a compression block (isl's `isl_format_is_compressed`).
    pub fn is_compressed(self) -> bool {
        self.layout().txc.is_some()
    }

    /// Whether the element size is a power of two (false for the 24/48/96-bit formats,
    /// which isl tiles with the tile of `bpb / 3`).
    pub fn is_pow2_bpb(self) -> bool {
        self.bpb().is_power_of_two()
    }

    /// Whether colour values are sRGB-encoded (isl's `ISL_COLORSPACE_SRGB`).
    pub fn is_srgb(self) -> bool {
        self.layout().space == ColorSpace::Srgb
    }

    /// Whether the format is YUV (isl's `isl_format_is_yuv`): the packed 4:2:2
    /// `YCRCB_*` formats and `Y8_UNORM`. isl lays them out with their own rules: VALIGN_2
    /// on Gfx7, a doubled linear render-target pitch alignment, no Tile64, and no mip tail
    /// on Gfx12.
    pub fn is_yuv(self) -> bool {
        self.layout().space == ColorSpace::Yuv
    }

    /// The channels in memory order (least significant first); empty for compressed and
    /// YUV formats, whose channels isl's table does not place in the element.
    pub fn channels(self) -> &'static [Channel] {
        self.layout().channels
    }

    /// Whether isl accepts this format for storage images (`isl_is_storage_image_format`:
    /// the 39 formats of `docs/hardware/mesa-storage-images.md` §3, not counting R64_PASSTHRU, which
    /// current Mesa adds and which is included here).
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
}

impl fmt::Display for Format {
    /// Prints the isl name, e.g. `R8G8B8A8_UNORM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_layouts_are_consistent() {
        for &f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
            assert_eq!(f.bpb() % 8, 0, "{f}");
            if !f.is_compressed() && !f.is_yuv() {
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
            } else {
                // isl's table places no channels of compressed or YUV formats.
                assert!(f.channels().is_empty(), "{f}");
            }
            // Blocks: 1x1 exactly when uncompressed.
            let block = (f.block_width(), f.block_height());
            assert_eq!(block == (1, 1), !f.is_compressed(), "{f}");
            assert_eq!(f.block_depth(), 1, "{f}");
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

    /// Rows of isl_format_layout.csv: (format, bpb, bw, bh, compression).
    #[test]
    fn isl_table_rows() {
        use Compression::*;
        let rows = [
            (Format::R9G9B9E5_SHAREDEXP, 32, 1, 1, None),
            (Format::R32G32B32A32_SFIXED, 128, 1, 1, None),
            (Format::R64G64_PASSTHRU, 128, 1, 1, None),
            (Format::R8G8B8_SSCALED, 24, 1, 1, None),
            (Format::R16G16B16_SNORM, 48, 1, 1, None),
            (Format::A4P4_UNORM_PALETTE1, 8, 1, 1, None),
            (Format::FXT1, 128, 8, 4, Some(Fxt1)),
            (Format::DXT1_RGB_SRGB, 64, 4, 4, Some(Dxt1)),
            (Format::BC7_UNORM_SRGB, 128, 4, 4, Some(Bptc)),
            (Format::ETC1_RGB8, 64, 4, 4, Some(Etc1)),
            (Format::EAC_SIGNED_RG11, 128, 4, 4, Some(Etc2)),
            (Format::ETC2_SRGB8_PTA, 64, 4, 4, Some(Etc2)),
            (Format::ASTC_LDR_2D_5X4_U8SRGB, 128, 5, 4, Some(Astc)),
            (Format::ASTC_LDR_2D_10X6_FLT16, 128, 10, 6, Some(Astc)),
            (Format::ASTC_HDR_2D_12X12_FLT16, 128, 12, 12, Some(Astc)),
            (Format::ASTC_HDR_2D_4X4_FLT16, 128, 4, 4, Some(Astc)),
            (Format::Y8_UNORM, 8, 1, 1, None),
            (Format::YCRCB_SWAPUVY, 16, 1, 1, None),
        ];
        for (f, bpb, bw, bh, txc) in rows {
            assert_eq!(
                (f.bpb(), f.block_width(), f.block_height(), f.compression()),
                (bpb, bw, bh, txc),
                "{f}"
            );
            assert_eq!(f.is_compressed(), txc.is_some(), "{f}");
        }
        assert!(Format::ASTC_LDR_2D_6X6_U8SRGB.is_srgb());
        assert!(!Format::ASTC_LDR_2D_6X6_FLT16.is_srgb());
        assert!(Format::YCRCB_NORMAL.is_yuv() && Format::Y8_UNORM.is_yuv());
        assert!(!Format::R8G8B8A8_UNORM.is_yuv());
        // 42 ASTC formats: 14 block sizes, LDR sRGB, LDR and HDR.
        let astc = Format::ALL
            .iter()
            .filter(|f| f.compression() == Some(Astc))
            .count();
        assert_eq!(astc, 42);
    }

    /// Channel placement: isl's `order` column from bit 0, padding left out; the three
    /// kinds of rows where the format's name overrides isl's table.
    #[test]
    fn channel_layouts() {
        use ChannelName::*;
        use ChannelType::*;
        let chans = |f: Format| -> Vec<(ChannelName, u8, u8, ChannelType)> {
            f.channels()
                .iter()
                .map(|c| (c.name, c.start_bit, c.bits, c.ty))
                .collect()
        };
        assert_eq!(
            chans(Format::R9G9B9E5_SHAREDEXP),
            [(R, 0, 9, Ufloat), (G, 9, 9, Ufloat), (B, 18, 9, Ufloat)]
        );
        assert_eq!(
            chans(Format::L8A8_UNORM),
            [(L, 0, 8, Unorm), (A, 8, 8, Unorm)]
        );
        assert_eq!(
            chans(Format::A8P8_UNORM_PALETTE0),
            [(A, 0, 8, Unorm), (P, 8, 8, Unorm)]
        );
        assert_eq!(chans(Format::I24X8_UNORM), [(I, 0, 24, Unorm)]);
        assert_eq!(
            chans(Format::B5G5R5X1_UNORM),
            [(B, 0, 5, Unorm), (G, 5, 5, Unorm), (R, 10, 5, Unorm)]
        );
        // Order `abgr`: padding A in bits 0-7, then B, G, R.
        assert_eq!(
            chans(Format::X8B8_UNORM_G8R8_SNORM),
            [(B, 8, 8, Unorm), (G, 16, 8, Snorm), (R, 24, 8, Snorm)]
        );
        assert_eq!(chans(Format::X32_TYPELESS_G8X24_UINT), [(G, 32, 8, Uint)]);
        assert_eq!(
            chans(Format::R16G16_SSCALED),
            [(R, 0, 16, Sscaled), (G, 16, 16, Sscaled)]
        );
        assert_eq!(chans(Format::R32_SFIXED), [(R, 0, 32, Sfixed)]);
        assert_eq!(
            chans(Format::B10G10R10A2_SINT),
            [
                (B, 0, 10, Sint),
                (G, 10, 10, Sint),
                (R, 20, 10, Sint),
                (A, 30, 2, Sint)
            ]
        );
        assert_eq!(
            chans(Format::R64G64_PASSTHRU),
            [(R, 0, 64, Raw), (G, 64, 64, Raw)]
        );
    }
}
