//! Sampler states: what a Vulkan `VkSampler` holds that filtering needs, bound by
//! sampler index for `txl` and the sampler's `sample_l` message. The shader only names
//! the index; the state is the descriptor's, chosen when the executor runs.
//!
//! Written as `ir-opt run|verify --sampler @s=STATE`, STATE a comma-separated list of
//! `nearest` / `linear` (magnification and minification filter), `mip_nearest` /
//! `mip_linear` (VkSamplerMipmapMode), an address mode for every coordinate
//! (`clamp_to_edge`, `repeat`, `mirrored_repeat`, `mirror_clamp_to_edge`) or for one
//! (`u=repeat`, `v=...`, `w=...`), `min_lod=F` and `max_lod=F`. The default is linear
//! filtering, `mip_nearest`, `clamp_to_edge` and the LOD range 0 to 1000
//! (`VK_LOD_CLAMP_NONE`), with normalized coordinates. Border colours
//! (`clamp_to_border`) and unnormalized coordinates are not modelled and are refused.

use std::fmt;

/// A filter (`VkFilter`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Filter {
    /// `VK_FILTER_NEAREST`.
    Nearest,
    /// `VK_FILTER_LINEAR`.
    Linear,
}

/// How levels are chosen (`VkSamplerMipmapMode`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MipmapMode {
    /// `VK_SAMPLER_MIPMAP_MODE_NEAREST`: the nearest level.
    Nearest,
    /// `VK_SAMPLER_MIPMAP_MODE_LINEAR`: the two nearest levels, blended.
    Linear,
}

/// How a texel coordinate outside the level wraps (`VkSamplerAddressMode`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AddressMode {
    /// `VK_SAMPLER_ADDRESS_MODE_REPEAT`.
    Repeat,
    /// `VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT`.
    MirroredRepeat,
    /// `VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE`.
    MirrorClampToEdge,
}

impl AddressMode {
    const NAMES: [(AddressMode, &'static str); 4] = [
        (AddressMode::ClampToEdge, "clamp_to_edge"),
        (AddressMode::Repeat, "repeat"),
        (AddressMode::MirroredRepeat, "mirrored_repeat"),
        (AddressMode::MirrorClampToEdge, "mirror_clamp_to_edge"),
    ];

    /// The mode called `name`.
    pub fn from_name(name: &str) -> Option<AddressMode> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(m, _)| *m)
    }

    /// The text name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("", |(_, n)| n)
    }
}

/// A sampler state.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct SamplerState {
    /// The magnification filter (LOD at most 0).
    pub mag_filter: Filter,
    /// The minification filter (LOD above 0).
    pub min_filter: Filter,
    /// The mipmap mode.
    pub mipmap_mode: MipmapMode,
    /// The address modes of the u, v and w coordinates.
    pub address: [AddressMode; 3],
    /// `minLod`: the lowest LOD the sampler selects.
    pub min_lod: f32,
    /// `maxLod`: the highest LOD the sampler selects.
    pub max_lod: f32,
}

// The LOD clamps are finite (the parser refuses anything else), so equality is total.
impl Eq for SamplerState {}

impl Default for SamplerState {
    /// Linear filtering, nearest mipmap, clamp to edge, LODs 0 to 1000.
    fn default() -> SamplerState {
        SamplerState {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_mode: MipmapMode::Nearest,
            address: [AddressMode::ClampToEdge; 3],
            min_lod: 0.0,
            max_lod: 1000.0,
        }
    }
}

impl SamplerState {
    /// The default state with `nearest` filters and `mip_nearest`: what an integer
    /// texture must be read with (Vulkan filters no integer format).
    pub fn unfiltered() -> SamplerState {
        SamplerState {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            mipmap_mode: MipmapMode::Nearest,
            ..SamplerState::default()
        }
    }

    /// Whether the state reads one texel of one level (`nearest` filters and
    /// `mip_nearest`), as an integer texture requires.
    pub fn is_unfiltered(&self) -> bool {
        self.mag_filter == Filter::Nearest
            && self.min_filter == Filter::Nearest
            && self.mipmap_mode == MipmapMode::Nearest
    }

    /// Parses the text form (see the module documentation), starting from the default.
    pub fn parse(text: &str) -> Result<SamplerState, String> {
        let mut s = SamplerState::default();
        for word in text.split(',').map(str::trim) {
            match word {
                "" => return Err("an empty item in the sampler state".into()),
                "nearest" | "linear" => {
                    let f = if word == "nearest" {
                        Filter::Nearest
                    } else {
                        Filter::Linear
                    };
                    s.mag_filter = f;
                    s.min_filter = f;
                }
                "mip_nearest" => s.mipmap_mode = MipmapMode::Nearest,
                "mip_linear" => s.mipmap_mode = MipmapMode::Linear,
                "clamp_to_border" => {
                    return Err(
                        "clamp_to_border is not modelled (border colours are not); use \
                         clamp_to_edge, repeat, mirrored_repeat or mirror_clamp_to_edge"
                            .into(),
                    )
                }
                "unnormalized" => {
                    return Err("unnormalized coordinates are not modelled".into());
                }
                _ => {
                    if let Some(m) = AddressMode::from_name(word) {
                        s.address = [m; 3];
                        continue;
                    }
                    let Some((key, value)) = word.split_once('=') else {
                        return Err(format!(
                            "unknown sampler state item `{word}` (expected nearest, linear, \
                             mip_nearest, mip_linear, an address mode, u=, v=, w=, min_lod= \
                             or max_lod=)"
                        ));
                    };
                    match key {
                        "u" | "v" | "w" => {
                            let m = AddressMode::from_name(value).ok_or_else(|| {
                                format!(
                                    "unknown address mode `{value}` (expected clamp_to_edge, \
                                     repeat, mirrored_repeat or mirror_clamp_to_edge)"
                                )
                            })?;
                            s.address[match key {
                                "u" => 0,
                                "v" => 1,
                                _ => 2,
                            }] = m;
                        }
                        "min_lod" | "max_lod" => {
                            let v: f32 = value
                                .parse()
                                .ok()
                                .filter(|v: &f32| v.is_finite())
                                .ok_or_else(|| format!("`{key}` takes a finite number, not `{value}`"))?;
                            if key == "min_lod" {
                                s.min_lod = v;
                            } else {
                                s.max_lod = v;
                            }
                        }
                        _ => {
                            return Err(format!(
                                "unknown sampler state item `{key}` (expected u, v, w, min_lod or max_lod)"
                            ))
                        }
                    }
                }
            }
        }
        if s.min_lod > s.max_lod {
            return Err(format!(
                "min_lod {} is above max_lod {} (Vulkan requires maxLod >= minLod)",
                s.min_lod, s.max_lod
            ));
        }
        Ok(s)
    }
}

impl fmt::Display for SamplerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let filter = |x: Filter| match x {
            Filter::Nearest => "nearest",
            Filter::Linear => "linear",
        };
        write!(f, "{}", filter(self.min_filter))?;
        if self.mag_filter != self.min_filter {
            write!(f, "(mag {})", filter(self.mag_filter))?;
        }
        let mip = match self.mipmap_mode {
            MipmapMode::Nearest => "mip_nearest",
            MipmapMode::Linear => "mip_linear",
        };
        write!(f, ",{mip}")?;
        if self.address.iter().all(|m| *m == self.address[0]) {
            write!(f, ",{}", self.address[0].name())?;
        } else {
            for (k, m) in ["u", "v", "w"].iter().zip(self.address) {
                write!(f, ",{k}={}", m.name())?;
            }
        }
        write!(f, ",min_lod={},max_lod={}", self.min_lod, self.max_lod)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_parse_from_the_default() {
        let s = SamplerState::parse("nearest,repeat").unwrap();
        assert_eq!(s.min_filter, Filter::Nearest);
        assert_eq!(s.address, [AddressMode::Repeat; 3]);
        assert_eq!(s.mipmap_mode, MipmapMode::Nearest);
        let s = SamplerState::parse("linear,mip_linear,u=mirrored_repeat,max_lod=2").unwrap();
        assert_eq!(
            s.address,
            [
                AddressMode::MirroredRepeat,
                AddressMode::ClampToEdge,
                AddressMode::ClampToEdge
            ]
        );
        assert_eq!((s.mipmap_mode, s.max_lod), (MipmapMode::Linear, 2.0));
        assert_eq!(SamplerState::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn what_is_not_modelled_is_an_error() {
        for (text, says) in [
            ("clamp_to_border", "not modelled"),
            ("unnormalized", "not modelled"),
            ("bilinear", "unknown sampler state item `bilinear`"),
            ("u=wrap", "unknown address mode `wrap`"),
            ("min_lod=3,max_lod=1", "above max_lod"),
            ("max_lod=nan", "finite number"),
        ] {
            let e = SamplerState::parse(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
