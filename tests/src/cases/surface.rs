//! Image dimensions, surfaces, views and initial contents.

use super::device::tiling_gen;
use super::{below, between, bits64, chance, pick};
use ir::{Format, ImageDim, StaticLayout};
use lowering::format::isl_format;
use lowering::Device;
use quickcheck::Gen;
use std::fmt;
use tiling::{
    minify, Bit6Swizzle, ImageView, SurfDim, Surface, SurfaceDesc, TileInfo, Tiling, Usage,
};

/// The storage-image dimensions a shader can declare.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum DimKind {
    /// `1d`.
    D1,
    /// `1d array`.
    D1Array,
    /// `2d`.
    D2,
    /// `2d array`.
    D2Array,
    /// `cube`.
    Cube,
    /// `cube array`.
    CubeArray,
    /// `3d`.
    D3,
    /// `buffer`.
    Buffer,
}

impl DimKind {
    /// Every dimension.
    pub const ALL: [DimKind; 8] = [
        DimKind::D1,
        DimKind::D1Array,
        DimKind::D2,
        DimKind::D2Array,
        DimKind::Cube,
        DimKind::CubeArray,
        DimKind::D3,
        DimKind::Buffer,
    ];

    /// The IR dimension.
    pub fn ir_dim(self) -> ImageDim {
        match self {
            DimKind::D1 | DimKind::D1Array => ImageDim::D1,
            DimKind::D2 | DimKind::D2Array => ImageDim::D2,
            DimKind::Cube | DimKind::CubeArray => ImageDim::Cube,
            DimKind::D3 => ImageDim::D3,
            DimKind::Buffer => ImageDim::Buffer,
        }
    }

    /// Whether the declaration is arrayed.
    pub fn arrayed(self) -> bool {
        matches!(
            self,
            DimKind::D1Array | DimKind::D2Array | DimKind::CubeArray
        )
    }

    /// Whether the image is a cube or cube array.
    pub fn is_cube(self) -> bool {
        matches!(self, DimKind::Cube | DimKind::CubeArray)
    }

    /// The surface dimensionality (cubes are 2D surfaces); `None` for buffers.
    pub fn surf_dim(self) -> Option<SurfDim> {
        match self {
            DimKind::D1 | DimKind::D1Array => Some(SurfDim::D1),
            DimKind::D2 | DimKind::D2Array | DimKind::Cube | DimKind::CubeArray => {
                Some(SurfDim::D2)
            }
            DimKind::D3 => Some(SurfDim::D3),
            DimKind::Buffer => None,
        }
    }

    /// Coordinate components of an access.
    pub fn coord_components(self) -> u8 {
        self.ir_dim().coord_components(self.arrayed())
    }

    /// The name used in declarations and tables (`2d array`).
    pub fn name(self) -> &'static str {
        match self {
            DimKind::D1 => "1d",
            DimKind::D1Array => "1d array",
            DimKind::D2 => "2d",
            DimKind::D2Array => "2d array",
            DimKind::Cube => "cube",
            DimKind::CubeArray => "cube array",
            DimKind::D3 => "3d",
            DimKind::Buffer => "buffer",
        }
    }
}

impl fmt::Display for DimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dimension, uniformly.
pub fn arbitrary_dim(g: &mut Gen) -> DimKind {
    pick(g, &DimKind::ALL)
}

/// Where an image's texels live.
#[derive(Clone, Debug)]
pub enum ImageMemory {
    /// A laid-out surface and the view the shader sees.
    Surface {
        /// The surface (its format is the image's ISL format).
        desc: SurfaceDesc,
        /// The bound view.
        view: ImageView,
        /// Whether bit-6 swizzling applies (IVB/HSW X and Y surfaces only).
        bit6_swizzle: Bit6Swizzle,
    },
    /// A texel buffer of `elements` texels.
    Buffer {
        /// Number of texels.
        elements: u32,
    },
}

/// The initial bytes of an image (the whole allocation, padding included).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fill {
    /// All zero.
    Zero,
    /// A seeded pattern of valid texels of the view format (finite floats), the
    /// verifier's own pattern fill.
    Valid(u64),
    /// Random bytes from a seed: every texel distinct, so a wrong address shows.
    Random(u64),
    /// Each texel-sized chunk holds a small integer (0 to 3) in its first byte and zeros
    /// elsewhere, so that compare-and-swap and wrap-around atomics meet their operands.
    Small(u64),
}

impl Fill {
    /// The bytes of a [`Fill::Random`] or [`Fill::Small`] fill, whose texels are
    /// `texel_bytes` wide; `None` for the fills the verifier makes itself
    /// ([`Fill::Zero`], [`Fill::Valid`]).
    pub fn bytes(self, len: usize, texel_bytes: usize) -> Option<Vec<u8>> {
        let mut b = vec![0u8; len];
        match self {
            Fill::Zero | Fill::Valid(_) => return None,
            f => f.apply(&mut b, texel_bytes),
        }
        Some(b)
    }

    /// Fills `bytes`, whose texels are `texel_bytes` wide ([`Fill::Valid`] needs the
    /// format: it is left to the verifier and fills nothing here).
    pub fn apply(self, bytes: &mut [u8], texel_bytes: usize) {
        match self {
            Fill::Zero => bytes.fill(0),
            Fill::Valid(_) => {}
            Fill::Random(seed) => {
                let mut s = seed;
                for chunk in bytes.chunks_mut(8) {
                    let w = splitmix(&mut s).to_le_bytes();
                    chunk.copy_from_slice(&w[..chunk.len()]);
                }
            }
            Fill::Small(seed) => {
                let mut s = seed;
                bytes.fill(0);
                for chunk in bytes.chunks_mut(texel_bytes.max(1)) {
                    chunk[0] = (splitmix(&mut s) % 4) as u8;
                }
            }
        }
    }
}

/// SplitMix64: the fill's byte stream.
fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An initial fill: valid texels or random bytes (NaNs and denormals included) most of
/// the time.
pub fn arbitrary_fill(g: &mut Gen) -> Fill {
    match below(g, 20) {
        0 | 1 => Fill::Zero,
        2..=4 => Fill::Small(bits64(g)),
        5..=11 => Fill::Valid(bits64(g)),
        _ => Fill::Random(bits64(g)),
    }
}

/// An image as bound for a run: its dimension, the format of the view (never
/// [`Format::None`]; a format-less declaration is bound to a view of this format), its
/// memory and its initial contents.
#[derive(Clone, Debug)]
pub struct ImageSetup {
    /// The dimension.
    pub dim: DimKind,
    /// The view's format.
    pub format: Format,
    /// Surface and view, or buffer.
    pub memory: ImageMemory,
    /// The initial contents.
    pub fill: Fill,
}

impl ImageSetup {
    /// The tiling (linear for buffers).
    pub fn tiling(&self) -> Tiling {
        match &self.memory {
            ImageMemory::Surface { desc, .. } => desc.tiling,
            ImageMemory::Buffer { .. } => Tiling::Linear,
        }
    }

    /// Whether bit-6 swizzling applies.
    pub fn bit6_swizzle(&self) -> Bit6Swizzle {
        match self.memory {
            ImageMemory::Surface { bit6_swizzle, .. } => bit6_swizzle,
            ImageMemory::Buffer { .. } => Bit6Swizzle::None,
        }
    }

    /// The laid-out surface (`None` for buffers).
    pub fn surface(&self) -> Option<Surface> {
        match &self.memory {
            ImageMemory::Surface { desc, .. } => Some(
                Surface::new(*desc).unwrap_or_else(|e| panic!("generated surface {desc:?}: {e}")),
            ),
            ImageMemory::Buffer { .. } => None,
        }
    }

    /// The exclusive upper bound of each coordinate component: width, then height,
    /// layers (6 per cube) or slices of the view, as the shader addresses them.
    pub fn coord_limits(&self) -> Vec<u32> {
        match &self.memory {
            ImageMemory::Buffer { elements } => vec![*elements],
            ImageMemory::Surface { desc, view, .. } => {
                let l = view.base_level;
                let w = minify(desc.width, l);
                let h = minify(desc.height, l);
                match self.dim {
                    DimKind::D1 => vec![w],
                    DimKind::D1Array => vec![w, view.layer_count],
                    DimKind::D2 => vec![w, h],
                    DimKind::D2Array | DimKind::Cube | DimKind::CubeArray => {
                        vec![w, h, view.layer_count]
                    }
                    DimKind::D3 => vec![w, h, view.layer_count],
                    DimKind::Buffer => unreachable!("buffers have no surface"),
                }
            }
        }
    }

    /// The static layout describing the surface, where `ir::StaticLayout` can name its
    /// tiling (linear, X, Y, Tile4, Tile64); `None` for buffers and Yf/Ys.
    pub fn static_layout(&self) -> Option<StaticLayout> {
        let ImageMemory::Surface {
            desc, bit6_swizzle, ..
        } = &self.memory
        else {
            return None;
        };
        let tiling = lowering::address::static_layout_tiling(desc.tiling)?;
        let s = self.surface()?;
        let layered = self.dim.arrayed() || self.dim.is_cube() || self.dim == DimKind::D3;
        Some(StaticLayout {
            tiling,
            row_pitch: s.row_pitch_B(),
            qpitch: layered.then(|| s.array_pitch_el_rows()),
            swizzle: bit6_swizzle.is_enabled(),
        })
    }
}

/// Base extents: 1, odd sizes, powers of two and their neighbours, up to 70.
const EXTENTS: [u32; 18] = [
    1, 1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 32, 33, 64, 65, 70,
];

/// Texels of level 0 (times layers or slices) above which extents are halved: keeps a
/// case's memory and the verifier's image comparison small.
const TEXEL_BUDGET: u64 = 4096;

/// An extent from [`EXTENTS`], or just above (or at) the tile's extent `tile` when that
/// is at most 70.
fn arbitrary_extent(g: &mut Gen, tile: u32) -> u32 {
    if tile > 1 && tile < 70 && chance(g, 1, 4) {
        return tile + below(g, 2) as u32;
    }
    pick(g, &EXTENTS)
}

/// Whether an `ir::StaticLayout` can name the tiling.
pub fn has_static_name(t: Tiling) -> bool {
    matches!(
        t,
        Tiling::Linear | Tiling::X | Tiling::Y | Tiling::Tile4 | Tiling::Tile64
    )
}

/// The tilings a storage image of `format` and `dim` may have on `device`: the driver's
/// ([`Device::storage_tilings_for`]: its policy within isl's rules) when the shader
/// learns the layout at run time; with a static layout, any tiling isl allows for
/// storage (`tiling::storage_tilings`) that the layout can name.
pub fn candidate_tilings(
    device: &Device,
    format: Format,
    dim: SurfDim,
    static_layout: bool,
) -> Vec<Tiling> {
    let isl = isl_format(format).expect("a storage format");
    if static_layout {
        tiling::storage_tilings(tiling_gen(device), isl, dim)
            .into_iter()
            .filter(|&t| has_static_name(t))
            .collect()
    } else {
        device.storage_tilings_for(isl, dim)
    }
}

/// A tiling among [`candidate_tilings`], uniformly.
pub fn arbitrary_tiling(
    g: &mut Gen,
    device: &Device,
    format: Format,
    dim: SurfDim,
    static_layout: bool,
) -> Tiling {
    let tilings = candidate_tilings(device, format, dim, static_layout);
    assert!(
        !tilings.is_empty(),
        "no storage tiling for {format} {dim} on {}",
        device.name
    );
    // A device whose policy is wider than its preset's: two times in three a tiling only
    // the wider policy allows (Yf, Ys, tiled 1D), which are otherwise rare.
    if let Some(preset) = Device::preset(&device.name) {
        let usual = candidate_tilings(&preset, format, dim, static_layout);
        let extra: Vec<Tiling> = tilings
            .iter()
            .copied()
            .filter(|t| !usual.contains(t))
            .collect();
        if !extra.is_empty() && chance(g, 2, 3) {
            return pick(g, &extra);
        }
    }
    pick(g, &tilings)
}

/// A surface (or buffer), view and fill for a `dim` image whose view has `format` on
/// `device`; its tiling is one the shader may meet (see [`candidate_tilings`]) when it
/// is compiled with a static layout of the surface (`static_layout`) or without.
pub fn arbitrary_image_setup(
    g: &mut Gen,
    device: &Device,
    dim: DimKind,
    format: Format,
    static_layout: bool,
) -> ImageSetup {
    let fill = arbitrary_fill(g);
    let Some(sdim) = dim.surf_dim() else {
        let elements = pick(g, &[1, 2, 3, 7, 16, 33, 64, 70]);
        return ImageSetup {
            dim,
            format,
            memory: ImageMemory::Buffer { elements },
            fill,
        };
    };
    let gen = tiling_gen(device);
    let isl = isl_format(format).expect("a storage format");
    let tiling = arbitrary_tiling(g, device, format, sdim, static_layout);
    let tile = TileInfo::new(tiling, gen, sdim, isl.bpb(), 1)
        .unwrap_or_else(|e| panic!("{tiling} on {gen} for {format}: {e}"))
        .logical_extent_el();
    let mut w = arbitrary_extent(g, tile.w);
    let mut h = match dim {
        DimKind::D1 | DimKind::D1Array => 1,
        DimKind::Cube | DimKind::CubeArray => w,
        _ => arbitrary_extent(g, tile.h),
    };
    let mut d = if dim == DimKind::D3 {
        if tile.d > 1 && tile.d < 9 && chance(g, 1, 3) {
            tile.d + 1
        } else {
            pick(g, &[1, 2, 3, 4, 5, 8])
        }
    } else {
        1
    };
    let mut layers = match dim {
        DimKind::D1 | DimKind::D2 => {
            if chance(g, 1, 4) {
                between(g, 2, 4)
            } else {
                1
            }
        }
        DimKind::D1Array | DimKind::D2Array => pick(g, &[1, 2, 3, 4, 6]),
        // isl's cube surfaces hold whole cubes; views may start at any layer.
        DimKind::Cube => pick(g, &[6, 6, 6, 12]),
        DimKind::CubeArray => pick(g, &[6, 12, 12, 18]),
        DimKind::D3 | DimKind::Buffer => 1,
    };
    // Stay within the texel budget, halving the largest extent (cubes stay square and
    // keep whole cubes).
    while w as u64 * h as u64 * d.max(layers) as u64 > TEXEL_BUDGET {
        if dim.is_cube() {
            if w > 1 {
                w = w.div_ceil(2);
                h = w;
            } else {
                layers = 6;
            }
        } else if w >= h && w >= d.max(layers) {
            w = w.div_ceil(2);
        } else if h >= d.max(layers) {
            h = h.div_ceil(2);
        } else if d > 1 {
            d = d.div_ceil(2);
        } else {
            layers = layers.div_ceil(2);
        }
    }
    let largest = w.max(h).max(d);
    let max_levels = 32 - largest.leading_zeros();
    let levels = if chance(g, 1, 2) {
        1
    } else {
        between(g, 1, max_levels.min(4))
    };
    let mut usage = Usage::STORAGE;
    if dim.is_cube() {
        usage |= Usage::CUBE;
    }
    let desc = SurfaceDesc::new(gen, sdim, isl, tiling)
        .extent(w, h, d)
        .array_len(layers)
        .levels(levels)
        .usage(usage);
    let base_level = if chance(g, 1, 2) {
        0
    } else {
        below(g, levels as usize) as u32
    };
    // The view: a whole level, or a sub-range of its layers (3D: slices).
    let (base_layer, layer_count) = match dim {
        DimKind::D1 | DimKind::D2 => (below(g, layers as usize) as u32, 1),
        DimKind::Cube => (below(g, layers as usize - 5) as u32, 6),
        DimKind::CubeArray => {
            let cubes = between(g, 1, layers / 6);
            let base = below(g, (layers - 6 * cubes + 1) as usize) as u32;
            (base, 6 * cubes)
        }
        DimKind::D1Array | DimKind::D2Array => sub_range(g, layers),
        DimKind::D3 => sub_range(g, minify(d, base_level)),
        DimKind::Buffer => unreachable!("handled above"),
    };
    let view = ImageView {
        base_level,
        base_layer,
        layer_count,
        format: isl,
    };
    let bit6_swizzle = Bit6Swizzle::from_has_bit6_swizzling(
        device.may_have_bit6_swizzle && matches!(tiling, Tiling::X | Tiling::Y) && chance(g, 1, 2),
    );
    let setup = ImageSetup {
        dim,
        format,
        memory: ImageMemory::Surface {
            desc,
            view,
            bit6_swizzle,
        },
        fill,
    };
    // A generator bug shows here rather than as a verifier failure.
    let _ = setup.surface();
    setup
}

/// A layer range of `n` layers: all of them half of the time.
fn sub_range(g: &mut Gen, n: u32) -> (u32, u32) {
    if chance(g, 1, 2) {
        return (0, n);
    }
    let base = below(g, n as usize) as u32;
    (base, between(g, 1, n - base))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::device::{arbitrary_device, arbitrary_format};

    #[test]
    fn setups_are_valid_and_views_fit() {
        let mut g = Gen::from_size_and_seed(10, 11);
        for _ in 0..3000 {
            let d = arbitrary_device(&mut g);
            let dim = arbitrary_dim(&mut g);
            let f = arbitrary_format(&mut g, &d, 0);
            let statics = chance(&mut g, 1, 3);
            let s = arbitrary_image_setup(&mut g, &d, dim, f, statics);
            let limits = s.coord_limits();
            assert_eq!(limits.len(), dim.coord_components() as usize);
            assert!(limits.iter().all(|&l| l >= 1));
            if let ImageMemory::Surface { desc, view, .. } = &s.memory {
                let surf = s.surface().unwrap();
                tiling::fill_image_param(&surf, view, s.bit6_swizzle())
                    .unwrap_or_else(|e| panic!("{desc:?} {view:?}: {e}"));
                if dim.is_cube() {
                    assert_eq!(desc.width, desc.height);
                    assert_eq!(view.layer_count % 6, 0);
                }
                let allowed = if statics {
                    tiling::storage_tilings(tiling_gen(&d), desc.format, desc.dim)
                } else {
                    d.storage_tilings_for(desc.format, desc.dim)
                };
                assert!(allowed.contains(&desc.tiling));
                if statics {
                    assert!(s.static_layout().is_some());
                }
                if s.bit6_swizzle().is_enabled() {
                    assert!(matches!(d.name.as_str(), "ivb" | "hsw"));
                }
            }
        }
    }

    #[test]
    fn fills() {
        let mut b = [0xffu8; 10];
        Fill::Small(3).apply(&mut b, 4);
        assert!(b[0] < 4 && b[4] < 4 && b[8] < 4);
        assert_eq!([b[1], b[2], b[3], b[9]], [0; 4]);
        let mut r1 = [0u8; 13];
        let mut r2 = [0u8; 13];
        Fill::Random(5).apply(&mut r1, 1);
        Fill::Random(5).apply(&mut r2, 1);
        assert_eq!(r1, r2);
        assert_ne!(r1, [0; 13]);
    }
}
