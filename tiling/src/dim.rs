//! Surface dimensionality and small extent types shared by the tile and surface modules.

use std::fmt;
use std::str::FromStr;

/// The logical dimensionality of a surface, isl's `isl_surf_dim`.
///
/// Cube maps are 2D surfaces with the [`Usage::CUBE`](crate::Usage::CUBE) flag and six
/// array layers per cube, as in isl.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SurfDim {
    /// `ISL_SURF_DIM_1D`.
    D1,
    /// `ISL_SURF_DIM_2D` (also cube maps).
    D2,
    /// `ISL_SURF_DIM_3D`.
    D3,
}

impl SurfDim {
    /// All dimensionalities.
    pub const ALL: [SurfDim; 3] = [SurfDim::D1, SurfDim::D2, SurfDim::D3];

    /// `1d`, `2d` or `3d`.
    pub fn name(self) -> &'static str {
        match self {
            SurfDim::D1 => "1d",
            SurfDim::D2 => "2d",
            SurfDim::D3 => "3d",
        }
    }
}

impl fmt::Display for SurfDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that is not `1d`, `2d` or `3d`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDimError {
    /// The text that failed to parse.
    pub input: String,
}

impl fmt::Display for ParseDimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown surface dimension `{}` (expected 1d, 2d or 3d)",
            self.input
        )
    }
}

impl std::error::Error for ParseDimError {}

impl FromStr for SurfDim {
    type Err = ParseDimError;

    fn from_str(s: &str) -> Result<SurfDim, ParseDimError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1d" | "1" => Ok(SurfDim::D1),
            "2d" | "2" => Ok(SurfDim::D2),
            "3d" | "3" => Ok(SurfDim::D3),
            _ => Err(ParseDimError {
                input: s.to_string(),
            }),
        }
    }
}

/// A width × height × depth extent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extent3d {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
    /// Depth.
    pub d: u32,
}

/// A width × height × depth × array-length extent (isl's `isl_extent4d`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extent4d {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
    /// Depth.
    pub d: u32,
    /// Array length (samples, for a tile).
    pub a: u32,
}

/// isl's `isl_minify`: `max(1, n >> level)`.
pub fn minify(n: u32, level: u32) -> u32 {
    if level >= 32 {
        1
    } else {
        (n >> level).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minify_clamps_to_one() {
        assert_eq!(minify(512, 3), 64);
        assert_eq!(minify(5, 3), 1);
        assert_eq!(minify(1, 40), 1);
        assert_eq!("3D".parse(), Ok(SurfDim::D3));
        assert!("4d".parse::<SurfDim>().is_err());
    }
}
