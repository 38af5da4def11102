//! Platforms and storage formats.

use super::{below, chance, pick};
use ir::{ChannelKind, Format};
use lowering::Device;
use quickcheck::Gen;
use std::fmt;

/// One of the twelve platform presets, uniformly.
pub fn arbitrary_device(g: &mut Gen) -> Device {
    let name = pick(g, &Device::PRESET_NAMES);
    Device::preset(name).expect("a preset name")
}

/// The tiling crate's generation of a device.
pub fn tiling_gen(device: &Device) -> tiling::Gen {
    tiling::Gen::from_verx10(device.verx10()).expect("every preset has a tiling generation")
}

/// The classes the format generator draws from, and the coverage tables count.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum FormatClass {
    /// 8-bit UNORM channels.
    Unorm8,
    /// 16-bit UNORM channels.
    Unorm16,
    /// 8-bit SNORM channels.
    Snorm8,
    /// 16-bit SNORM channels.
    Snorm16,
    /// 16-bit float channels.
    Float16,
    /// 32-bit float channels.
    Float32,
    /// 8-bit unsigned integer channels.
    Uint8,
    /// 16-bit unsigned integer channels.
    Uint16,
    /// 32-bit unsigned integer channels.
    Uint32,
    /// 8-bit signed integer channels.
    Sint8,
    /// 16-bit signed integer channels.
    Sint16,
    /// 32-bit signed integer channels.
    Sint32,
    /// Packed 10/10/10/2 (`rgb10a2_unorm`, `rgb10a2_uint`).
    Rgb10a2,
    /// Packed unsigned floats `r11g11b10_float`.
    R11g11b10,
    /// The 64-bit single-channel integer formats.
    R64,
}

impl FormatClass {
    /// Every class.
    pub const ALL: [FormatClass; 15] = [
        FormatClass::Unorm8,
        FormatClass::Unorm16,
        FormatClass::Snorm8,
        FormatClass::Snorm16,
        FormatClass::Float16,
        FormatClass::Float32,
        FormatClass::Uint8,
        FormatClass::Uint16,
        FormatClass::Uint32,
        FormatClass::Sint8,
        FormatClass::Sint16,
        FormatClass::Sint32,
        FormatClass::Rgb10a2,
        FormatClass::R11g11b10,
        FormatClass::R64,
    ];

    /// The class of a storage format (`None` for [`Format::None`]).
    pub fn of(format: Format) -> Option<FormatClass> {
        use FormatClass::*;
        match format {
            Format::None => None,
            Format::Rgb10A2Unorm | Format::Rgb10A2Uint => Some(Rgb10a2),
            Format::R11G11B10Float => Some(R11g11b10),
            Format::R64Uint | Format::R64Sint => Some(R64),
            f => {
                let c = f.channels()[0];
                Some(match (c.kind, c.bits) {
                    (ChannelKind::Unorm, 8) => Unorm8,
                    (ChannelKind::Unorm, 16) => Unorm16,
                    (ChannelKind::Snorm, 8) => Snorm8,
                    (ChannelKind::Snorm, 16) => Snorm16,
                    (ChannelKind::Float, 16) => Float16,
                    (ChannelKind::Float, 32) => Float32,
                    (ChannelKind::Uint, 8) => Uint8,
                    (ChannelKind::Uint, 16) => Uint16,
                    (ChannelKind::Uint, 32) => Uint32,
                    (ChannelKind::Sint, 8) => Sint8,
                    (ChannelKind::Sint, 16) => Sint16,
                    (ChannelKind::Sint, 32) => Sint32,
                    (kind, bits) => unreachable!("no storage format has {bits}-bit {kind:?}"),
                })
            }
        }
    }

    /// The storage formats of the class.
    pub fn formats(self) -> Vec<Format> {
        Format::ALL
            .iter()
            .copied()
            .filter(|&f| FormatClass::of(f) == Some(self))
            .collect()
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        use FormatClass::*;
        match self {
            Unorm8 => "unorm8",
            Unorm16 => "unorm16",
            Snorm8 => "snorm8",
            Snorm16 => "snorm16",
            Float16 => "float16",
            Float32 => "float32",
            Uint8 => "uint8",
            Uint16 => "uint16",
            Uint32 => "uint32",
            Sint8 => "sint8",
            Sint16 => "sint16",
            Sint32 => "sint32",
            Rgb10a2 => "rgb10a2",
            R11g11b10 => "r11g11b10",
            R64 => "r64",
        }
    }
}

impl fmt::Display for FormatClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `device` can lower storage images of `format` at all (Mesa's
/// `isl_lower_storage_image_format` succeeds: every format except R64 before Gfx9).
pub fn can_lower(device: &Device, format: Format) -> bool {
    lowering::lower_storage_image_format(device, format).is_ok()
}

/// The storage formats `device` can lower.
pub fn storage_formats(device: &Device) -> Vec<Format> {
    Format::ALL
        .iter()
        .copied()
        .filter(|&f| can_lower(device, f))
        .collect()
}

/// A storage format for `device`: a class uniformly among those with a format the device
/// can lower, then a format of the class. With `unlowerable_share` out of 100, any
/// storage format instead (R64 on a part that cannot store it: a documented error).
pub fn arbitrary_format(g: &mut Gen, device: &Device, unlowerable_share: usize) -> Format {
    if chance(g, unlowerable_share, 100) {
        return pick(g, Format::ALL);
    }
    let classes: Vec<FormatClass> = FormatClass::ALL
        .iter()
        .copied()
        .filter(|c| c.formats().iter().any(|&f| can_lower(device, f)))
        .collect();
    let class = classes[below(g, classes.len())];
    let formats: Vec<Format> = class
        .formats()
        .into_iter()
        .filter(|&f| can_lower(device, f))
        .collect();
    pick(g, &formats)
}

/// Whether a format's shader-side data is float (UNORM, SNORM, float channels).
pub fn is_float_data(format: Format) -> bool {
    format.data_base_type() == Some(ir::BaseType::Float)
}

/// Whether a format's shader-side data is signed integer.
pub fn is_sint_data(format: Format) -> bool {
    format.data_base_type() == Some(ir::BaseType::Int)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_partition_the_storage_formats() {
        let mut n = 0;
        for c in FormatClass::ALL {
            let f = c.formats();
            assert!(!f.is_empty(), "{c}");
            n += f.len();
        }
        assert_eq!(n, Format::ALL.len());
        assert_eq!(
            FormatClass::of(Format::Rgba16Unorm),
            Some(FormatClass::Unorm16)
        );
        assert_eq!(FormatClass::of(Format::Rg8Snorm), Some(FormatClass::Snorm8));
        assert_eq!(
            FormatClass::of(Format::R32Float),
            Some(FormatClass::Float32)
        );
        assert_eq!(
            FormatClass::of(Format::Rgba32Sint),
            Some(FormatClass::Sint32)
        );
    }

    #[test]
    fn r64_is_lowerable_from_gfx9() {
        for d in Device::presets() {
            assert_eq!(
                can_lower(&d, Format::R64Uint),
                d.verx10() >= 90,
                "{}",
                d.name
            );
            let n = storage_formats(&d).len();
            assert_eq!(n, if d.verx10() >= 90 { 41 } else { 39 }, "{}", d.name);
        }
    }

    #[test]
    fn format_draws_reach_every_class_on_gfx9_plus() {
        let mut g = Gen::from_size_and_seed(10, 7);
        let d = Device::preset("skl").unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            seen.insert(FormatClass::of(arbitrary_format(&mut g, &d, 0)).unwrap());
        }
        assert_eq!(seen.len(), FormatClass::ALL.len());
        let ivb = Device::preset("ivb").unwrap();
        for _ in 0..500 {
            assert!(can_lower(&ivb, arbitrary_format(&mut g, &ivb, 0)));
        }
    }
}
