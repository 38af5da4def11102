//! GPU generations, named the way Mesa's `intel_device_info` does (`ver`, `verx10`), and
//! the one table of platform names ([`Platform`]) every tool and crate of the project
//! parses: `tile-calc --gen` and `ir-opt --target` take the same names because both
//! read them here.

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

    /// A generation number, a `verx10`, or the name of a platform of that generation
    /// (every spelling [`Platform`] parses).
    fn from_str(s: &str) -> Result<Gen, ParseGenError> {
        s.parse::<Platform>().map(Platform::gen)
    }
}

/// A named Intel GPU platform, as Mesa's `intel_platform` (`INTEL_PLATFORM_*`) names
/// them: the parts the project knows by code name, each with its generation.
///
/// Parsed (case-insensitively) from its code name or one of its aliases (`ivb`,
/// `ivybridge`; `byt`, `baytrail`, `vlv`), or from a generation as [`Gen`] parses it
/// (`9`, `gfx12.5`, `125`), which stands for the generation's first platform
/// ([`Gen::platform`]: `12.5` is DG2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Platform {
    /// Broadwater / Crestline (i965, G965): Gfx4.
    I965,
    /// Eaglelake / Cantiga (G45, GM45): Gfx4 (Mesa's 4.5).
    G45,
    /// Ironlake: Gfx5.
    Ilk,
    /// Sandy Bridge: Gfx6.
    Snb,
    /// Ivy Bridge: Gfx7.
    Ivb,
    /// Bay Trail (Valleyview): Gfx7, the Atom part.
    Byt,
    /// Haswell: Gfx7.5.
    Hsw,
    /// Broadwell: Gfx8.
    Bdw,
    /// Cherry View: Gfx8, the Atom part.
    Chv,
    /// Sky Lake: Gfx9.
    Skl,
    /// Broxton: Gfx9, the Atom part.
    Bxt,
    /// Kaby Lake: Gfx9.
    Kbl,
    /// Gemini Lake: Gfx9, the Atom part.
    Glk,
    /// Coffee Lake: Gfx9.
    Cfl,
    /// Ice Lake: Gfx11.
    Icl,
    /// Elkhart Lake: Gfx11.
    Ehl,
    /// Jasper Lake: Gfx11.
    Jsl,
    /// Tiger Lake: Gfx12.
    Tgl,
    /// Rocket Lake: Gfx12.
    Rkl,
    /// DG1: Gfx12, discrete.
    Dg1,
    /// Alder Lake: Gfx12.
    Adl,
    /// DG2 (Alchemist): Gfx12.5, the first LSC part.
    Dg2,
    /// Meteor Lake: Gfx12.5.
    Mtl,
    /// Arrow Lake: Gfx12.5.
    Arl,
    /// Ponte Vecchio: Gfx12.5, Xe-HPC.
    Pvc,
    /// Lunar Lake: Xe2.
    Lnl,
    /// Battlemage: Xe2.
    Bmg,
}

impl Platform {
    /// Every platform, oldest generation first.
    pub const ALL: [Platform; 27] = [
        Platform::I965,
        Platform::G45,
        Platform::Ilk,
        Platform::Snb,
        Platform::Ivb,
        Platform::Byt,
        Platform::Hsw,
        Platform::Bdw,
        Platform::Chv,
        Platform::Skl,
        Platform::Bxt,
        Platform::Kbl,
        Platform::Glk,
        Platform::Cfl,
        Platform::Icl,
        Platform::Ehl,
        Platform::Jsl,
        Platform::Tgl,
        Platform::Rkl,
        Platform::Dg1,
        Platform::Adl,
        Platform::Dg2,
        Platform::Mtl,
        Platform::Arl,
        Platform::Pvc,
        Platform::Lnl,
        Platform::Bmg,
    ];

    /// The code name, as diagnostics print it (`ivb`, `dg2`).
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// The other spellings the platform is parsed from.
    pub fn aliases(self) -> &'static [&'static str] {
        self.entry().1
    }

    /// The generation.
    pub fn gen(self) -> Gen {
        self.entry().2
    }

    /// The row of the table: code name, aliases, generation.
    fn entry(self) -> (&'static str, &'static [&'static str], Gen) {
        match self {
            Platform::I965 => ("i965", &["g965"], Gen::Gfx4),
            Platform::G45 => ("g45", &["gm45"], Gen::Gfx4),
            Platform::Ilk => ("ilk", &["ironlake"], Gen::Gfx5),
            Platform::Snb => ("snb", &["sandybridge"], Gen::Gfx6),
            Platform::Ivb => ("ivb", &["ivybridge"], Gen::Gfx7),
            Platform::Byt => ("byt", &["baytrail", "vlv"], Gen::Gfx7),
            Platform::Hsw => ("hsw", &["haswell"], Gen::Gfx75),
            Platform::Bdw => ("bdw", &["broadwell"], Gen::Gfx8),
            Platform::Chv => ("chv", &["cherryview"], Gen::Gfx8),
            Platform::Skl => ("skl", &["skylake"], Gen::Gfx9),
            Platform::Bxt => ("bxt", &[], Gen::Gfx9),
            Platform::Kbl => ("kbl", &[], Gen::Gfx9),
            Platform::Glk => ("glk", &[], Gen::Gfx9),
            Platform::Cfl => ("cfl", &[], Gen::Gfx9),
            Platform::Icl => ("icl", &["icelake"], Gen::Gfx11),
            Platform::Ehl => ("ehl", &[], Gen::Gfx11),
            Platform::Jsl => ("jsl", &[], Gen::Gfx11),
            Platform::Tgl => ("tgl", &["tigerlake"], Gen::Gfx12),
            Platform::Rkl => ("rkl", &[], Gen::Gfx12),
            Platform::Dg1 => ("dg1", &[], Gen::Gfx12),
            Platform::Adl => ("adl", &[], Gen::Gfx12),
            Platform::Dg2 => ("dg2", &[], Gen::Gfx125),
            Platform::Mtl => ("mtl", &[], Gen::Gfx125),
            Platform::Arl => ("arl", &[], Gen::Gfx125),
            Platform::Pvc => ("pvc", &[], Gen::Gfx125),
            Platform::Lnl => ("lnl", &[], Gen::Gfx20),
            Platform::Bmg => ("bmg", &[], Gen::Gfx20),
        }
    }

    /// The platform whose code name or alias is `name` (case-insensitive), without
    /// generation numbers.
    pub fn from_name(name: &str) -> Option<Platform> {
        let lower = name.trim().to_ascii_lowercase();
        Platform::ALL
            .into_iter()
            .find(|p| p.name() == lower || p.aliases().contains(&lower.as_str()))
    }

    /// Every name and alias the table parses, in table order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Platform::ALL
            .into_iter()
            .flat_map(|p| std::iter::once(p.name()).chain(p.aliases().iter().copied()))
    }
}

impl Gen {
    /// The first platform of the generation: what a generation number names where a
    /// platform is needed (`ir-opt --target 12.5` is DG2).
    pub fn platform(self) -> Platform {
        match self {
            Gen::Gfx4 => Platform::I965,
            Gen::Gfx5 => Platform::Ilk,
            Gen::Gfx6 => Platform::Snb,
            Gen::Gfx7 => Platform::Ivb,
            Gen::Gfx75 => Platform::Hsw,
            Gen::Gfx8 => Platform::Bdw,
            Gen::Gfx9 => Platform::Skl,
            Gen::Gfx11 => Platform::Icl,
            Gen::Gfx12 => Platform::Tgl,
            Gen::Gfx125 => Platform::Dg2,
            Gen::Gfx20 => Platform::Lnl,
        }
    }
}

impl fmt::Display for Platform {
    /// Prints the code name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Platform {
    type Err = ParseGenError;

    /// A code name or alias, or a generation: a version (`9`, `12.5`, `7.5`), a
    /// `verx10` value (`90`, `125`, `75`), with an optional `gfx`/`gen` prefix
    /// (`gfx12.5`), standing for [`Gen::platform`].
    fn from_str(s: &str) -> Result<Platform, ParseGenError> {
        let err = || ParseGenError {
            input: s.to_string(),
        };
        if let Some(p) = Platform::from_name(s) {
            return Ok(p);
        }
        let lower = s.trim().to_ascii_lowercase();
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
        Gen::from_verx10(verx10).map(Gen::platform).ok_or_else(err)
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
    fn every_name_of_the_table_parses_to_its_platform() {
        for p in Platform::ALL {
            assert_eq!(p.name().parse::<Platform>(), Ok(p));
            assert_eq!(p.name().to_ascii_uppercase().parse::<Platform>(), Ok(p));
            for a in p.aliases() {
                assert_eq!(a.parse::<Platform>(), Ok(p), "{a}");
            }
            assert_eq!(p.to_string().parse::<Gen>(), Ok(p.gen()));
        }
        // No spelling names two platforms.
        let names: Vec<&str> = Platform::names().collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        // Every generation's platform is of that generation, and its number parses to it.
        for g in Gen::ALL {
            assert_eq!(g.platform().gen(), g);
            assert_eq!(g.to_string().parse::<Platform>(), Ok(g.platform()));
            assert_eq!(g.verx10().to_string().parse::<Platform>(), Ok(g.platform()));
        }
        assert_eq!("12.5".parse::<Platform>(), Ok(Platform::Dg2));
        assert_eq!("arl".parse::<Gen>(), Ok(Gen::Gfx125));
        assert_eq!("vlv".parse::<Platform>(), Ok(Platform::Byt));
    }

    #[test]
    fn the_error_lists_only_names_that_parse() {
        let text = ParseGenError { input: "x".into() }.to_string();
        let platforms = text
            .split("a platform: ")
            .nth(1)
            .unwrap()
            .trim_end_matches(')');
        for name in platforms.split_whitespace() {
            assert!(Platform::from_name(name).is_some(), "{name}");
        }
        let numbers = text
            .split("expected ")
            .nth(1)
            .unwrap()
            .split(", a verx10")
            .next();
        for n in numbers.unwrap().split(", ") {
            assert!(n.parse::<Gen>().is_ok(), "{n}");
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
