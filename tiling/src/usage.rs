//! Surface usage flags, the subset of isl's `isl_surf_usage_flags_t` that changes layout.
//!
//! Every surface is laid out as if `ISL_SURF_USAGE_DISABLE_AUX_BIT` were set: there is no
//! auxiliary (CCS/MCS/HiZ) surface, which fixes isl's default alignments (docs/hardware/surface-layout.md
//! §7.2).

use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::str::FromStr;

/// A set of usage flags. [`Usage::TEXTURE`] is the default.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Usage(u8);

impl Usage {
    /// No flags.
    pub const NONE: Usage = Usage(0);
    /// Sampled image (`ISL_SURF_USAGE_TEXTURE_BIT`).
    pub const TEXTURE: Usage = Usage(1 << 0);
    /// Storage image (`ISL_SURF_USAGE_STORAGE_BIT`).
    pub const STORAGE: Usage = Usage(1 << 1);
    /// Render target (`ISL_SURF_USAGE_RENDER_TARGET_BIT`): changes Gfx7 VALIGN for Y and
    /// the linear pitch alignment.
    pub const RENDER_TARGET: Usage = Usage(1 << 2);
    /// Separate stencil buffer (`ISL_SURF_USAGE_STENCIL_BIT`): W tiling before Gfx12.
    pub const STENCIL: Usage = Usage(1 << 3);
    /// Depth buffer (`ISL_SURF_USAGE_DEPTH_BIT`).
    pub const DEPTH: Usage = Usage(1 << 4);
    /// Cube map (`ISL_SURF_USAGE_CUBE_BIT`): a 2D array with six layers per cube.
    pub const CUBE: Usage = Usage(1 << 5);

    const NAMES: [(Usage, &'static str); 6] = [
        (Usage::TEXTURE, "texture"),
        (Usage::STORAGE, "storage"),
        (Usage::RENDER_TARGET, "render-target"),
        (Usage::STENCIL, "stencil"),
        (Usage::DEPTH, "depth"),
        (Usage::CUBE, "cube"),
    ];

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Usage) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any flag of `other` is set.
    pub fn intersects(self, other: Usage) -> bool {
        self.0 & other.0 != 0
    }

    /// Depth or stencil (isl's `isl_surf_usage_is_depth_or_stencil`).
    pub fn is_depth_or_stencil(self) -> bool {
        self.intersects(Usage::DEPTH | Usage::STENCIL)
    }
}

impl Default for Usage {
    fn default() -> Usage {
        Usage::TEXTURE
    }
}

impl BitOr for Usage {
    type Output = Usage;
    fn bitor(self, rhs: Usage) -> Usage {
        Usage(self.0 | rhs.0)
    }
}

impl BitOrAssign for Usage {
    fn bitor_assign(&mut self, rhs: Usage) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Usage {
    /// `texture+storage`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Usage::NAMES
            .iter()
            .filter(|(u, _)| self.contains(*u))
            .map(|(_, n)| *n)
            .collect();
        if names.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&names.join("+"))
        }
    }
}

impl fmt::Debug for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Usage({self})")
    }
}

/// A usage string with an unknown flag name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUsageError {
    /// The unknown flag.
    pub flag: String,
}

impl fmt::Display for ParseUsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown usage `{}` (expected texture, storage, render-target, stencil, depth or \
             cube, joined with + or ,)",
            self.flag
        )
    }
}

impl std::error::Error for ParseUsageError {}

impl FromStr for Usage {
    type Err = ParseUsageError;

    /// Flags joined with `+`, `,` or `|`, case-insensitive; `rt` and `render_target` are
    /// accepted for render targets, `none` or the empty string for no flags.
    fn from_str(s: &str) -> Result<Usage, ParseUsageError> {
        let mut u = Usage::NONE;
        for part in s.split(['+', ',', '|']) {
            let p = part.trim().to_ascii_lowercase().replace('_', "-");
            u |= match p.as_str() {
                "" | "none" => Usage::NONE,
                "texture" | "sampled" => Usage::TEXTURE,
                "storage" => Usage::STORAGE,
                "render-target" | "rt" | "rendertarget" => Usage::RENDER_TARGET,
                "stencil" => Usage::STENCIL,
                "depth" => Usage::DEPTH,
                "cube" => Usage::CUBE,
                _ => {
                    return Err(ParseUsageError {
                        flag: part.trim().to_string(),
                    })
                }
            };
        }
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let u: Usage = "storage+CUBE".parse().unwrap();
        assert!(u.contains(Usage::STORAGE) && u.contains(Usage::CUBE));
        assert!(!u.contains(Usage::TEXTURE));
        assert_eq!(u.to_string(), "storage+cube");
        assert_eq!("rt".parse::<Usage>(), Ok(Usage::RENDER_TARGET));
        assert_eq!(Usage::default(), Usage::TEXTURE);
        assert!("storage+bogus".parse::<Usage>().is_err());
        assert_eq!(u.to_string().parse::<Usage>(), Ok(u));
    }
}
