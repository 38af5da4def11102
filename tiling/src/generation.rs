//! GPU generations, named the way Mesa's `intel_device_info` does (`ver`, `verx10`).

use std::fmt;
use std::str::FromStr;

/// An Intel graphics generation, the granularity at which ISL's layout rules change.
///
/// Parsed from a version (`9`, `12.5`, `7.5`), a `verx10` value (`90`, `125`, `75`), an
/// optional `gfx`/`gen` prefix (`gfx12.5`), or a platform code name (`skl`, `dg2`, ...).
/// Mesa's isl treats Xe2 (`verx10` 200) like Gfx12.5 except where noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gen {
    /// Gfx4 (i965, G4x): `verx10` 40.
    Gfx4,
    /// Gfx5 (Ironlake): `verx10` 50.
    Gfx5,
    /// Gfx6 (Sandy Bridge): `verx10` 60.
    Gfx6,
    /// Gfx7 (Ivy Bridge, Bay Trail): `verx10` 70.
    Gfx7,
    /// Gfx7.5 (Haswell): `verx10` 75.
    Gfx75,
    /// Gfx8 (Broadwell, Cherry View): `verx10` 80.
    Gfx8,
    /// Gfx9 (Sky Lake and its Kaby/Coffee Lake refreshes): `verx10` 90.
    Gfx9,
    /// Gfx11 (Ice Lake): `verx10` 110.
    Gfx11,
    /// Gfx12 (Tiger Lake, Rocket/Alder Lake, DG1): `verx10` 120.
    Gfx12,
    /// Gfx12.5 (DG2, Meteor/Arrow Lake, Ponte Vecchio): `verx10` 125; first LSC generation.
    Gfx125,
    /// Xe2 (Lunar Lake, Battlemage): `verx10` 200.
    Gfx20,
}

impl Gen {
    /// Every generation, oldest first.
    pub const ALL: [Gen; 11] = [
        Gen::Gfx4,
        Gen::Gfx5,
        Gen::Gfx6,
        Gen::Gfx7,
        Gen::Gfx75,
        Gen::Gfx8,
        Gen::Gfx9,
        Gen::Gfx11,
        Gen::Gfx12,
        Gen::Gfx125,
        Gen::Gfx20,
    ];

    /// Mesa's `devinfo->verx10`: the version times ten (Haswell is 75, DG2 125).
    pub fn verx10(self) -> u32 {
        match self {
            Gen::Gfx4 => 40,
            Gen::Gfx5 => 50,
            Gen::Gfx6 => 60,
            Gen::Gfx7 => 70,
            Gen::Gfx75 => 75,
            Gen::Gfx8 => 80,
            Gen::Gfx9 => 90,
            Gen::Gfx11 => 110,
            Gen::Gfx12 => 120,
            Gen::Gfx125 => 125,
            Gen::Gfx20 => 200,
        }
    }

    /// Mesa's `devinfo->ver`: the major version (Haswell is 7, DG2 12).
    pub fn ver(self) -> u32 {
        self.verx10() / 10
    }

    /// The generation with this `verx10`, if it is one of the modelled ones.
    pub fn from_verx10(verx10: u32) -> Option<Gen> {
        Gen::ALL.into_iter().find(|g| g.verx10() == verx10)
    }

    /// Whether this generation has LSC messages (Gfx12.5 and later).
    pub fn has_lsc(self) -> bool {
        self.verx10() >= 125
    }
}

impl fmt::Display for Gen {
    /// Prints `gfx9`, `gfx7.5`, `gfx12.5`, `gfx20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.verx10();
        if v.is_multiple_of(10) {
            write!(f, "gfx{}", v / 10)
        } else {
            write!(f, "gfx{}.{}", v / 10, v % 10)
        }
    }
}

/// A string that names no modelled generation or platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGenError {
    /// The text that failed to parse.
    pub input: String,
}

impl fmt::Display for ParseGenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown generation `{}` (expected 4, 5, 6, 7, 7.5, 8, 9, 11, 12, 12.5, 20, a verx10 \
             such as 125, or a platform: ivb byt hsw bdw chv skl kbl cfl icl tgl rkl adl dg1 dg2 \
             mtl arl pvc lnl bmg)",
            self.input
        )
    }
}

impl std::error::Error for ParseGenError {}

impl FromStr for Gen {
    type Err = ParseGenError;

    fn from_str(s: &str) -> Result<Gen, ParseGenError> {
        let err = || ParseGenError {
            input: s.to_string(),
        };
        let lower = s.trim().to_ascii_lowercase();
        let platform = match lower.as_str() {
            "i965" | "g965" | "g45" | "gm45" => Some(Gen::Gfx4),
            "ilk" | "ironlake" => Some(Gen::Gfx5),
            "snb" | "sandybridge" => Some(Gen::Gfx6),
            "ivb" | "ivybridge" | "byt" | "baytrail" | "vlv" => Some(Gen::Gfx7),
            "hsw" | "haswell" => Some(Gen::Gfx75),
            "bdw" | "broadwell" | "chv" | "cherryview" => Some(Gen::Gfx8),
            "skl" | "skylake" | "kbl" | "cfl" | "bxt" | "glk" => Some(Gen::Gfx9),
            "icl" | "icelake" | "ehl" | "jsl" => Some(Gen::Gfx11),
            "tgl" | "tigerlake" | "rkl" | "adl" | "dg1" => Some(Gen::Gfx12),
            "dg2" | "mtl" | "arl" | "pvc" => Some(Gen::Gfx125),
            "lnl" | "bmg" => Some(Gen::Gfx20),
            _ => None,
        };
        if let Some(g) = platform {
            return Ok(g);
        }
        let num = lower
            .strip_prefix("gfx")
            .or_else(|| lower.strip_prefix("gen"))
            .unwrap_or(&lower);
        let verx10 = if let Some((major, minor)) = num.split_once('.') {
            let major: u32 = major.parse().map_err(|_| err())?;
            let minor: u32 = minor.parse().map_err(|_| err())?;
            if minor > 9 {
                return Err(err());
            }
            major * 10 + minor
        } else {
            let n: u32 = num.parse().map_err(|_| err())?;
            // Plain majors are small; verx10 values are 40 and up.
            if n < 40 {
                n * 10
            } else {
                n
            }
        };
        Gen::from_verx10(verx10).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_verx10_and_platforms() {
        let cases = [
            ("4", Gen::Gfx4),
            ("7", Gen::Gfx7),
            ("7.5", Gen::Gfx75),
            ("75", Gen::Gfx75),
            ("gfx9", Gen::Gfx9),
            ("12.5", Gen::Gfx125),
            ("125", Gen::Gfx125),
            ("20", Gen::Gfx20),
            ("200", Gen::Gfx20),
            ("IVB", Gen::Gfx7),
            ("byt", Gen::Gfx7),
            ("hsw", Gen::Gfx75),
            ("bdw", Gen::Gfx8),
            ("skl", Gen::Gfx9),
            ("icl", Gen::Gfx11),
            ("tgl", Gen::Gfx12),
            ("dg2", Gen::Gfx125),
            ("mtl", Gen::Gfx125),
            ("pvc", Gen::Gfx125),
            ("lnl", Gen::Gfx20),
            ("bmg", Gen::Gfx20),
        ];
        for (s, g) in cases {
            assert_eq!(s.parse::<Gen>(), Ok(g), "{s}");
        }
        for bad in ["10", "3", "12.7", "foo", "", "7.x"] {
            assert!(bad.parse::<Gen>().is_err(), "{bad}");
        }
    }

    #[test]
    fn display_round_trips() {
        for g in Gen::ALL {
            assert_eq!(g.to_string().parse::<Gen>(), Ok(g));
        }
        assert_eq!(Gen::Gfx75.to_string(), "gfx7.5");
        assert_eq!(Gen::Gfx125.ver(), 12);
    }
}
