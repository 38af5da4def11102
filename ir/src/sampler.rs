//! Sampler declarations: the sampler states a shader filters textures with (`txl`,
//! `tg4`), and the constant texel offsets of those lookups.
//!
//! NIR's `nir_tex_instr` names its sampler by `sampler_index` (or a `sampler_deref`
//! source that `nir_lower_samplers` turns into one); the sampler state behind it
//! (filters, mipmap mode, address modes, normalized coordinates, border colour, LOD
//! clamps) belongs to the descriptor and is not known when the shader is compiled. A
//! declaration only names the indices a shader reads, so that tools can bind a state
//! to each by name. Written `sampler @name (binding=N)` or, for an array of N samplers,
//! `sampler @name[N] (binding=B)`; `txl`'s `sampler` index is a binding it covers.

use std::fmt;

/// A sampler declaration: one sampler binding (or an array of them).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SamplerDecl {
    /// The name, without the `@`.
    pub name: String,
    /// The sampler index (NIR's `sampler_index`) of the declaration, the first one of
    /// an array: the index into the sampler states the driver binds.
    pub binding: u32,
    /// Number of samplers of an array of samplers, or `None` for one.
    pub count: Option<u32>,
}

impl SamplerDecl {
    /// The declaration `sampler @name (binding=N)`.
    pub fn new(name: &str, binding: u32) -> SamplerDecl {
        SamplerDecl {
            name: name.to_string(),
            binding,
            count: None,
        }
    }

    /// The sampler indices the declaration covers, or `None` when they would pass
    /// `u32::MAX`.
    pub fn indices(&self) -> Option<std::ops::Range<u32>> {
        let end = self.binding.checked_add(self.count.unwrap_or(1))?;
        Some(self.binding..end)
    }
}

/// A constant texel offset of a texture lookup: integers added to the texel
/// coordinates `(i, j, k)` a filter selects, before wrapping (Vulkan's `ConstOffset`,
/// "Texel Coordinate Offsets"). Each is 4-bit signed, -8 to 7, Intel's
/// `minTexelOffset`/`maxTexelOffset` and the range of the sampler header's offsets;
/// encoded as vISA's `aoffimmi` (`3D_SAMPLE.md`): `u` in bits 11:8, `v` in 7:4, `r` in
/// 3:0. Written `UxVxR`, such as `1x-1x0`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct TexelOffset(pub [i8; 3]);

impl TexelOffset {
    /// The smallest offset a component holds.
    pub const MIN: i8 = -8;
    /// The largest offset a component holds.
    pub const MAX: i8 = 7;

    /// The offset of `u`, `v` and `r`, if each is within [`TexelOffset::MIN`] to
    /// [`TexelOffset::MAX`].
    pub fn new(offsets: [i64; 3]) -> Option<TexelOffset> {
        let mut out = [0i8; 3];
        for (o, &v) in out.iter_mut().zip(&offsets) {
            if !(i64::from(Self::MIN)..=i64::from(Self::MAX)).contains(&v) {
                return None;
            }
            *o = v as i8;
        }
        Some(TexelOffset(out))
    }

    /// The `aoffimmi` encoding.
    pub fn to_index(self) -> u32 {
        let [u, v, r] = self.0.map(|o| u32::from(o as u8 & 0xf));
        u << 8 | v << 4 | r
    }

    /// Decodes an `aoffimmi`; `None` if bits above 11 are set.
    pub fn from_index(v: u32) -> Option<TexelOffset> {
        if v >> 12 != 0 {
            return None;
        }
        // Sign-extends a 4-bit field.
        let field = |shift: u32| (((v >> shift) & 0xf) as i8) << 4 >> 4;
        Some(TexelOffset([field(8), field(4), field(0)]))
    }

    /// Parses `UxVxR`.
    pub fn parse(s: &str) -> Option<TexelOffset> {
        let mut parts = s.split('x');
        let mut v = [0i64; 3];
        for o in &mut v {
            *o = parts.next()?.parse().ok()?;
        }
        if parts.next().is_some() {
            return None;
        }
        TexelOffset::new(v)
    }

    /// Whether every component is 0.
    pub fn is_zero(self) -> bool {
        self.0 == [0; 3]
    }
}

impl fmt::Display for TexelOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [u, v, r] = self.0;
        write!(f, "{u}x{v}x{r}")
    }
}
