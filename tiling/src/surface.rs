//! Surface layout as Mesa's isl computes it (`isl_surf_init`, docs/hardware/surface-layout.md §7), and
//! texel addresses (§4, §7.11).
//!
//! [`Surface::new`] follows isl step by step: dimension layout, tile, image alignment,
//! level-0 extent, array pitch span, mip-tail start, total extent and array pitch
//! (qpitch), row pitch, size. Surfaces have no auxiliary surface (isl's `DISABLE_AUX`).
//! Multisampled colour surfaces use isl's array layout, every sample a physical array
//! slice ([`crate::msaa`]); they are addressed with [`Surface::sample_offset`].
//!
//! Units: `_el` values are elements (compression blocks for compressed formats), `_sa`
//! values are samples (pixels of a single-sampled surface), `_B` values bytes.

use std::fmt;

use crate::alignment::{image_alignment_el, AlignInput};
use crate::dim::{minify, Extent3d, Extent4d, SurfDim};
use crate::dim_layout::choose_dim_layout;
use crate::format::Format;
use crate::generation::Gen;
use crate::miptail;
use crate::msaa::{refusal as msaa_refusal, MsaaRefusal};
use crate::swizzle::{bit6_swizzle, swizzle_applies, Bit6Swizzle};
use crate::tile::{TileCoord, TileError, TileInfo, Tiling};
use crate::tiling_filter::{rejection, FilterInput};
use crate::usage::Usage;

/// Re-exported so that `tiling::surface::DimLayout` keeps working.
pub use crate::dim_layout::DimLayout;

/// isl's `isl_array_pitch_span` (docs/hardware/surface-layout.md §7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ArrayPitchSpan {
    /// qpitch is the height of one slice's miptree.
    Compact,
    /// qpitch is `h0 + h1 + m * valign` (the PRM's full spacing).
    Full,
}

/// What to lay out: isl's `isl_surf_init_info` for the modelled cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct SurfaceDesc {
    /// The generation.
    pub gen: Gen,
    /// 1D, 2D (and cube) or 3D.
    pub dim: SurfDim,
    /// The format.
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels (1 for 1D).
    pub height: u32,
    /// Depth in pixels (1 unless 3D).
    pub depth: u32,
    /// Number of mip levels.
    pub levels: u32,
    /// Array layers (1 for 3D; six per cube for cube maps).
    pub array_len: u32,
    /// Samples per pixel: 1, or 2, 4, 8, 16 for a multisampled 2D colour surface in
    /// isl's array layout (see [`crate::msaa`] for what is accepted).
    pub samples: u32,
    /// The tiling.
    pub tiling: Tiling,
    /// Usage flags.
    pub usage: Usage,
    /// A row pitch to use instead of the minimum, as isl's `row_pitch_B` (must be at least
    /// the minimum and suitably aligned).
    pub row_pitch_B: Option<u32>,
}

impl SurfaceDesc {
    /// A 1×1×1 single-level, single-layer texture of `format`, to refine with the
    /// builder methods.
    pub fn new(gen: Gen, dim: SurfDim, format: Format, tiling: Tiling) -> SurfaceDesc {
        SurfaceDesc {
            gen,
            dim,
            format,
            width: 1,
            height: 1,
            depth: 1,
            levels: 1,
            array_len: 1,
            samples: 1,
            tiling,
            usage: Usage::TEXTURE,
            row_pitch_B: None,
        }
    }

    /// Sets width, height and depth in pixels.
    pub fn extent(mut self, width: u32, height: u32, depth: u32) -> SurfaceDesc {
        self.width = width;
        self.height = height;
        self.depth = depth;
        self
    }

    /// Sets the number of mip levels.
    pub fn levels(mut self, levels: u32) -> SurfaceDesc {
        self.levels = levels;
        self
    }

    /// Sets the number of array layers.
    pub fn array_len(mut self, array_len: u32) -> SurfaceDesc {
        self.array_len = array_len;
        self
    }

    /// Sets the number of samples per pixel (1 for a single-sampled surface).
    pub fn samples(mut self, samples: u32) -> SurfaceDesc {
        self.samples = samples;
        self
    }

    /// Sets the usage flags.
    pub fn usage(mut self, usage: Usage) -> SurfaceDesc {
        self.usage = usage;
        self
    }

    /// Requests a row pitch in bytes.
    pub fn row_pitch(mut self, row_pitch_b: u32) -> SurfaceDesc {
        self.row_pitch_B = Some(row_pitch_b);
        self
    }
}

/// Why a surface cannot be laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The tile itself cannot be formed (tiling missing on the generation, element size
    /// or dimensionality unsupported).
    Tile(TileError),
    /// isl would not give this surface the requested tiling.
    TilingNotAllowed {
        /// The requested tiling.
        tiling: Tiling,
        /// The generation.
        gen: Gen,
        /// isl's reason.
        reason: &'static str,
    },
    /// A size is zero.
    ZeroExtent {
        /// Which one (`width`, `height`, `depth`, `levels`, `array_len`).
        what: &'static str,
    },
    /// A size exceeds what the hardware addresses.
    ExtentTooLarge {
        /// Which one.
        what: &'static str,
        /// The value given.
        value: u32,
        /// The largest allowed.
        max: u32,
    },
    /// A size that must be 1 for this dimensionality is not (height of 1D surfaces, depth
    /// of 1D/2D surfaces, array length of 3D surfaces).
    MustBeOne {
        /// Which one.
        what: &'static str,
        /// The dimensionality.
        dim: SurfDim,
        /// The value given.
        value: u32,
    },
    /// More levels than the mip chain of the largest dimension has.
    TooManyLevels {
        /// Levels requested.
        levels: u32,
        /// `floor(log2(max extent)) + 1`.
        max: u32,
    },
    /// A multisampled surface the crate does not lay out (see [`crate::msaa`]): isl
    /// would refuse it, or store it interleaved, which is not modelled.
    Multisampled {
        /// The sample count given.
        samples: u32,
        /// Why it is refused.
        reason: MsaaRefusal,
    },
    /// The cube-map constraints are violated.
    Cube {
        /// What is wrong.
        reason: &'static str,
    },
    /// The usage does not fit the format or generation.
    UsageFormat {
        /// The usage flags.
        usage: Usage,
        /// The format.
        format: Format,
        /// What is wrong.
        reason: &'static str,
    },
    /// The requested row pitch is below the minimum.
    RowPitchTooSmall {
        /// Requested pitch in bytes.
        requested: u32,
        /// Minimum pitch in bytes.
        min: u32,
    },
    /// The requested row pitch is not a multiple of the required alignment.
    RowPitchMisaligned {
        /// Requested pitch in bytes.
        requested: u32,
        /// Required alignment in bytes.
        alignment: u32,
    },
    /// The row pitch does not fit `RENDER_SURFACE_STATE::SurfacePitch`.
    RowPitchOutOfRange {
        /// The pitch in bytes.
        pitch: u64,
        /// The largest pitch the field holds.
        max: u32,
    },
    /// The surface exceeds the generation's maximum surface size.
    SizeTooLarge {
        /// Computed size in bytes.
        size: u64,
        /// The generation's limit.
        max: u64,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Tile(e) => e.fmt(f),
            LayoutError::TilingNotAllowed {
                tiling,
                gen,
                reason,
            } => write!(
                f,
                "tiling {tiling} is not allowed for this surface on {gen}: {reason}"
            ),
            LayoutError::ZeroExtent { what } => write!(f, "{what} must be at least 1"),
            LayoutError::ExtentTooLarge { what, value, max } => {
                write!(f, "{what} {value} exceeds the maximum of {max}")
            }
            LayoutError::MustBeOne { what, dim, value } => {
                write!(f, "{what} must be 1 for {dim} surfaces, got {value}")
            }
            LayoutError::TooManyLevels { levels, max } => write!(
                f,
                "{levels} levels requested but the mip chain has only {max}"
            ),
            LayoutError::Multisampled { samples, reason } => {
                write!(f, "{samples} samples: {reason}")
            }
            LayoutError::Cube { reason } => write!(f, "invalid cube map: {reason}"),
            LayoutError::UsageFormat {
                usage,
                format,
                reason,
            } => write!(f, "usage {usage} with format {format}: {reason}"),
            LayoutError::RowPitchTooSmall { requested, min } => write!(
                f,
                "requested row pitch {requested} B is below the minimum of {min} B"
            ),
            LayoutError::RowPitchMisaligned {
                requested,
                alignment,
            } => write!(
                f,
                "requested row pitch {requested} B is not a multiple of {alignment} B"
            ),
            LayoutError::RowPitchOutOfRange { pitch, max } => write!(
                f,
                "row pitch {pitch} B exceeds RENDER_SURFACE_STATE's maximum of {max} B"
            ),
            LayoutError::SizeTooLarge { size, max } => {
                write!(f, "surface size {size} B exceeds the limit of {max} B")
            }
        }
    }
}

impl std::error::Error for LayoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LayoutError::Tile(e) => Some(e),
            _ => None,
        }
    }
}

impl From<TileError> for LayoutError {
    fn from(e: TileError) -> LayoutError {
        LayoutError::Tile(e)
    }
}

/// Why an address cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressError {
    /// `level >= levels`.
    LevelOutOfRange {
        /// The level asked for.
        level: u32,
        /// The surface's level count.
        levels: u32,
    },
    /// Array layer (or cube face) out of range.
    LayerOutOfRange {
        /// The layer asked for.
        layer: u32,
        /// The surface's layer count.
        layers: u32,
    },
    /// 3D slice out of range for the level.
    ZOutOfRange {
        /// The slice asked for.
        z: u32,
        /// The level's depth.
        depth: u32,
        /// The level.
        level: u32,
    },
    /// Column out of range for the level.
    XOutOfRange {
        /// The column (element) asked for.
        x: u32,
        /// The level's width in elements.
        width: u32,
        /// The level.
        level: u32,
    },
    /// Row out of range for the level (1D surfaces have one row).
    YOutOfRange {
        /// The row (element) asked for.
        y: u32,
        /// The level's height in elements.
        height: u32,
        /// The level.
        level: u32,
    },
    /// Byte index inside an element out of range.
    ByteOutOfRange {
        /// The byte asked for.
        byte: u32,
        /// Bytes per element.
        cpp: u32,
    },
    /// Bit-6 swizzling was requested where it does not exist or is not described.
    SwizzleUnsupported {
        /// The generation.
        gen: Gen,
        /// The tiling.
        tiling: Tiling,
    },
}

impl fmt::Display for AddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressError::LevelOutOfRange { level, levels } => {
                write!(f, "level {level} out of range (surface has {levels})")
            }
            AddressError::LayerOutOfRange { layer, layers } => {
                write!(f, "layer {layer} out of range (surface has {layers})")
            }
            AddressError::ZOutOfRange { z, depth, level } => {
                write!(f, "z {z} out of range (level {level} has depth {depth})")
            }
            AddressError::XOutOfRange { x, width, level } => {
                write!(
                    f,
                    "x {x} out of range (level {level} is {width} elements wide)"
                )
            }
            AddressError::YOutOfRange { y, height, level } => {
                write!(
                    f,
                    "y {y} out of range (level {level} is {height} elements tall)"
                )
            }
            AddressError::ByteOutOfRange { byte, cpp } => {
                write!(f, "byte {byte} out of range (elements have {cpp} bytes)")
            }
            AddressError::SwizzleUnsupported { gen, tiling } => write!(
                f,
                "bit-6 swizzling of {tiling} surfaces on {gen} is not supported (it exists \
                 for X and Y surfaces before Gfx8 only)"
            ),
        }
    }
}

impl std::error::Error for AddressError {}

/// Where an image (one level of one layer or 3D slice) starts, as isl's
/// `isl_surf_get_image_offset_el` reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ImageOffset {
    /// Column of the image origin, in elements.
    pub x_el: u32,
    /// Row of the image origin, in elements (includes `layer * qpitch` for linear and
    /// the legacy tilings).
    pub y_el: u32,
    /// Slice offset for 3D standard tilings (the slice plus any mip-tail z), split into
    /// in-tile `r` bits and tile-depth slabs.
    pub z_el: u32,
    /// Array slice for 2D standard tilings, placed at `array_offset * qpitch` rows.
    pub array_offset: u32,
}

/// One image of a surface, as yielded by [`Surface::images`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageInfo {
    /// Mip level.
    pub level: u32,
    /// Array layer, cube face or 3D slice.
    pub layer_or_z: u32,
    /// Where it starts.
    pub offset: ImageOffset,
    /// Its extent in elements (depth 1).
    pub extent_el: Extent3d,
}

/// A laid-out surface: isl's `isl_surf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Surface {
    desc: SurfaceDesc,
    tile: TileInfo,
    dim_layout: DimLayout,
    array_pitch_span: ArrayPitchSpan,
    align_el: Extent3d,
    phys_level0_sa: Extent4d,
    phys_total_el: Extent4d,
    miptail_start_level: u32,
    array_pitch_el_rows: u32,
    row_pitch_b: u32,
    size_b: u64,
}

fn align(n: u64, a: u64) -> u64 {
    n.div_ceil(a) * a
}

/// Largest width/height, depth and array length (driver limits: i965 and anv report
/// 8192/512 before Gfx7 and 16384/2048 from Gfx7; 3D surfaces are limited to 2048).
fn extent_limits(gen: Gen) -> (u32, u32, u32) {
    if gen.ver() >= 7 {
        (16384, 2048, 2048)
    } else {
        (8192, 2048, 512)
    }
}

fn validate(d: &SurfaceDesc) -> Result<(), LayoutError> {
    for (what, v) in [
        ("width", d.width),
        ("height", d.height),
        ("depth", d.depth),
        ("levels", d.levels),
        ("array_len", d.array_len),
    ] {
        if v == 0 {
            return Err(LayoutError::ZeroExtent { what });
        }
    }
    if let Some(reason) = msaa_refusal(d.gen, d.dim, d.format, d.usage, d.levels, d.samples) {
        return Err(LayoutError::Multisampled {
            samples: d.samples,
            reason,
        });
    }
    let must_be_one = |what, value: u32| {
        if value != 1 {
            Err(LayoutError::MustBeOne {
                what,
                dim: d.dim,
                value,
            })
        } else {
            Ok(())
        }
    };
    match d.dim {
        SurfDim::D1 => {
            must_be_one("height", d.height)?;
            must_be_one("depth", d.depth)?;
        }
        SurfDim::D2 => must_be_one("depth", d.depth)?,
        SurfDim::D3 => must_be_one("array_len", d.array_len)?,
    }
    let (max_2d, max_3d, max_layers) = extent_limits(d.gen);
    let max_wh = if d.dim == SurfDim::D3 { max_3d } else { max_2d };
    for (what, v, max) in [
        ("width", d.width, max_wh),
        ("height", d.height, max_wh),
        ("depth", d.depth, max_3d),
        ("array_len", d.array_len, max_layers),
    ] {
        if v > max {
            return Err(LayoutError::ExtentTooLarge {
                what,
                value: v,
                max,
            });
        }
    }
    let largest = d
        .width
        .max(d.height)
        .max(if d.dim == SurfDim::D3 { d.depth } else { 1 });
    let max_levels = 32 - largest.leading_zeros();
    if d.levels > max_levels {
        return Err(LayoutError::TooManyLevels {
            levels: d.levels,
            max: max_levels,
        });
    }
    if d.usage.contains(Usage::CUBE) {
        if d.dim != SurfDim::D2 {
            return Err(LayoutError::Cube {
                reason: "cube maps are 2D surfaces",
            });
        }
        if d.width != d.height {
            return Err(LayoutError::Cube {
                reason: "cube faces must be square",
            });
        }
        if !d.array_len.is_multiple_of(6) {
            return Err(LayoutError::Cube {
                reason: "array_len must be six layers per cube",
            });
        }
        if d.gen == Gen::Gfx4 && d.array_len != 6 {
            return Err(LayoutError::Cube {
                reason: "Gfx4 lays cubes out as 3D surfaces and has no cube arrays",
            });
        }
    }
    let usage_err = |reason| {
        Err(LayoutError::UsageFormat {
            usage: d.usage,
            format: d.format,
            reason,
        })
    };
    if d.usage.is_depth_or_stencil() && d.dim == SurfDim::D3 {
        return usage_err("depth and stencil surfaces are 1D or 2D");
    }
    if d.usage.contains(Usage::DEPTH) && d.usage.contains(Usage::STENCIL) {
        return usage_err("combined depth/stencil surfaces are not modelled");
    }
    if d.usage.contains(Usage::STENCIL) {
        if d.format != Format::R8_UINT {
            return usage_err("separate stencil surfaces use R8_UINT");
        }
        if d.gen.ver() < 6 {
            return usage_err("separate stencil surfaces need Gfx6 or later");
        }
    }
    if d.usage.contains(Usage::DEPTH)
        && !matches!(
            d.format,
            Format::R16_UNORM | Format::R24_UNORM_X8_TYPELESS | Format::R32_FLOAT
        )
    {
        return usage_err("depth surfaces use R16_UNORM, R24_UNORM_X8_TYPELESS or R32_FLOAT");
    }
    if d.format.is_compressed()
        && d.usage
            .intersects(Usage::STORAGE | Usage::RENDER_TARGET | Usage::DEPTH | Usage::STENCIL)
    {
        return usage_err("compressed formats can only be sampled");
    }
    Ok(())
}

impl Surface {
    /// Lays out a surface as isl does (docs/hardware/surface-layout.md §7).
    pub fn new(desc: SurfaceDesc) -> Result<Surface, LayoutError> {
        validate(&desc)?;
        let gen = desc.gen;
        let format = desc.format;
        let isl = desc.tiling.isl(gen)?;
        // The tile first: its errors (element size, dimensionality) are the most
        // specific.
        let tile = TileInfo::from_isl(isl, desc.dim, format.bpb(), desc.samples)?;
        let filter = FilterInput {
            gen,
            dim: desc.dim,
            format,
            usage: desc.usage,
            samples: desc.samples,
            width: desc.width,
        };
        if let Some(reason) = rejection(desc.tiling, &filter) {
            return Err(LayoutError::TilingNotAllowed {
                tiling: desc.tiling,
                gen,
                reason,
            });
        }
        let dim_layout = choose_dim_layout(desc.gen, desc.dim, desc.tiling, desc.usage);
        let align_el = image_alignment_el(&AlignInput {
            gen,
            format,
            usage: desc.usage,
            samples: desc.samples,
            dim_layout,
            tile: &tile,
        });
        let phys_level0_sa = match desc.dim {
            SurfDim::D1 => Extent4d {
                w: desc.width,
                h: 1,
                d: 1,
                a: desc.array_len,
            },
            // isl's ISL_MSAA_LAYOUT_ARRAY: each sample is a physical array slice
            // (samples is 1 for single-sampled surfaces).
            SurfDim::D2 => Extent4d {
                w: desc.width,
                h: desc.height,
                d: 1,
                a: desc.array_len * desc.samples,
            },
            SurfDim::D3 => Extent4d {
                w: desc.width,
                h: desc.height,
                d: desc.depth,
                a: 1,
            },
        };
        let mut s = Surface {
            desc,
            tile,
            dim_layout,
            array_pitch_span: ArrayPitchSpan::Compact,
            align_el,
            phys_level0_sa,
            phys_total_el: Extent4d::default(),
            miptail_start_level: desc.levels,
            array_pitch_el_rows: 0,
            row_pitch_b: 0,
            size_b: 0,
        };
        s.array_pitch_span = s.choose_array_pitch_span();
        s.miptail_start_level = s.choose_miptail_start_level();
        s.calc_phys_total_extent();
        s.calc_row_pitch()?;
        s.calc_size()?;
        log::debug!(
            "surface {} {} {}x{}x{} l{} a{} {}: {} align {}x{} pitch {} qpitch {} size {}",
            gen,
            desc.dim,
            desc.width,
            desc.height,
            desc.depth,
            desc.levels,
            desc.array_len,
            desc.tiling,
            dim_layout,
            align_el.w,
            align_el.h,
            s.row_pitch_b,
            s.array_pitch_el_rows,
            s.size_b
        );
        Ok(s)
    }

    fn bw(&self) -> u32 {
        self.desc.format.block_width()
    }

    fn bh(&self) -> u32 {
        self.desc.format.block_height()
    }

    /// Image alignment in samples.
    fn align_sa(&self) -> Extent3d {
        Extent3d {
            w: self.align_el.w * self.bw(),
            h: self.align_el.h * self.bh(),
            d: self.align_el.d,
        }
    }

    fn choose_array_pitch_span(&self) -> ArrayPitchSpan {
        let d = &self.desc;
        match self.dim_layout {
            DimLayout::GFX4_3D | DimLayout::GFX6_STENCIL_HIZ => ArrayPitchSpan::Compact,
            DimLayout::GFX4_2D | DimLayout::GFX9_1D => {
                let ver = d.gen.ver();
                let a = self.phys_level0_sa.a;
                if ver >= 8 || a == 1 {
                    // Gfx8+ has a programmable QPitch; single-layer surfaces never use it.
                    ArrayPitchSpan::Compact
                } else if ver == 7 {
                    if d.usage.is_depth_or_stencil() {
                        ArrayPitchSpan::Full
                    } else if d.levels == 1 {
                        ArrayPitchSpan::Compact
                    } else {
                        ArrayPitchSpan::Full
                    }
                } else {
                    ArrayPitchSpan::Full
                }
            }
        }
    }

    /// isl's `isl_choose_miptail_start_level`; `levels` when there is no tail.
    fn choose_miptail_start_level(&self) -> u32 {
        let d = &self.desc;
        let isl = self.tile.isl_tiling();
        let max = miptail::max_tail_levels(isl, d.dim, d.samples);
        if max == 0 {
            return d.levels;
        }
        let f = d.format;
        // isl keeps YUV formats out of the tail on Gfx12 (Gfx12.5 included) by
        // answering 15, past the last level of any surface.
        if d.gen.ver() == 12 && f.is_yuv() {
            return 15;
        }
        let min_start = d.levels.saturating_sub(max);
        let level0 = Extent3d {
            w: d.width.div_ceil(f.block_width()),
            h: d.height.div_ceil(f.block_height()),
            d: d.depth.div_ceil(f.block_depth()),
        };
        let Some(slot0) = miptail::slot_offset_el(isl, d.dim, f.bpb(), 0) else {
            return d.levels;
        };
        let t = self.tile.logical_extent_el();
        // The first slot spans from its offset to the far corner of the tile.
        let room = Extent3d {
            w: t.w - slot0.w,
            h: t.h - slot0.h,
            d: t.d - slot0.d,
        };
        (min_start..d.levels)
            .find(|&s| {
                minify(level0.w, s) <= room.w
                    && minify(level0.h, s) <= room.h
                    && minify(level0.d, s) <= room.d
            })
            .unwrap_or(d.levels)
    }

    fn calc_phys_total_extent(&mut self) {
        let (bw, bh) = (self.bw() as u64, self.bh() as u64);
        let al = self.align_sa();
        let (ah, av) = (al.w as u64, al.h as u64);
        let l0 = self.phys_level0_sa;
        let (w0, h0) = (l0.w, l0.h);
        let levels = self.desc.levels;
        match self.dim_layout {
            DimLayout::GFX4_2D => {
                let (slice_w, slice_h) = self.slice0_extent_sa();
                let qpitch = self.array_pitch_gfx4_2d(slice_h);
                self.array_pitch_el_rows = qpitch as u32;
                if self.desc.tiling.is_std() {
                    self.phys_total_el = Extent4d {
                        w: slice_w.div_ceil(bw) as u32,
                        h: slice_h.div_ceil(bh) as u32,
                        d: l0.d,
                        a: l0.a,
                    };
                } else {
                    let n = l0.d.max(l0.a) as u64;
                    self.phys_total_el = Extent4d {
                        w: slice_w.div_ceil(bw) as u32,
                        h: (qpitch * (n - 1) + slice_h.div_ceil(bh)) as u32,
                        d: 1,
                        a: 1,
                    };
                }
            }
            DimLayout::GFX4_3D => {
                let (mut total_w, mut total_h) = (0u64, 0u64);
                for l in 0..levels {
                    let lw = align(minify(w0, l) as u64, ah);
                    let lh = align(minify(h0, l) as u64, av);
                    let ld = self.gfx4_3d_level_depth(l) as u64;
                    let horiz = ld.min(1 << l);
                    let vert = ld.div_ceil(1 << l);
                    total_w = total_w.max(lw * horiz);
                    total_h += lh * vert;
                }
                // isl: "make it true for LOD0"; it divides by the block width.
                self.array_pitch_el_rows = (align(h0 as u64, av) / bw) as u32;
                self.phys_total_el = Extent4d {
                    w: (total_w / bw) as u32,
                    h: (total_h / bh) as u32,
                    d: 1,
                    a: 1,
                };
            }
            DimLayout::GFX6_STENCIL_HIZ => {
                let t = self.tile.logical_extent_el();
                let (tw, th) = (t.w as u64 * bw, t.h as u64 * bh);
                let h_all = align(h0 as u64, av) * l0.a as u64;
                let (mut top_w, mut bottom_w, mut total_h) = (0u64, 0u64, 0u64);
                for l in 0..levels {
                    let w = align(minify(w0, l) as u64, tw);
                    let h = align(h_all, th);
                    match l {
                        0 => {
                            top_w = w;
                            total_h = h;
                        }
                        1 => {
                            bottom_w = w;
                            total_h += h;
                        }
                        _ => bottom_w += w,
                    }
                }
                self.array_pitch_el_rows = (align(h0 as u64, av) / bh) as u32;
                self.phys_total_el = Extent4d {
                    w: (top_w.max(bottom_w) / bw) as u32,
                    h: (total_h / bh) as u32,
                    d: 1,
                    a: 1,
                };
            }
            DimLayout::GFX9_1D => {
                let slice_w: u64 = (0..levels).map(|l| align(minify(w0, l) as u64, ah)).sum();
                self.array_pitch_el_rows = 1;
                self.phys_total_el = Extent4d {
                    w: (slice_w / bw) as u32,
                    h: l0.a,
                    d: 1,
                    a: 1,
                };
            }
        }
    }

    /// GFX4_2D: the extent of one array slice's miptree, in samples
    /// (`isl_calc_phys_slice0_extent_sa_gfx4_2d`).
    fn slice0_extent_sa(&self) -> (u64, u64) {
        let l0 = self.phys_level0_sa;
        let levels = self.desc.levels;
        if levels == 1 && self.miptail_start_level > 0 {
            // A single level is not padded to the image alignment.
            return (l0.w as u64, l0.h as u64);
        }
        let al = self.align_sa();
        let (mut top_w, mut bottom_w, mut left_h, mut right_h) = (0u64, 0u64, 0u64, 0u64);
        for l in 0..levels {
            let w = align(minify(l0.w, l) as u64, al.w as u64);
            let h = align(minify(l0.h, l) as u64, al.h as u64);
            match l {
                0 => {
                    top_w = w;
                    left_h = h;
                    right_h = h;
                }
                1 => {
                    bottom_w = w;
                    left_h += h;
                }
                2 => {
                    bottom_w += w;
                    right_h += h;
                }
                _ => right_h += h,
            }
            // From the tail start on, every level shares the start level's tile.
            if l >= self.miptail_start_level {
                break;
            }
        }
        (top_w.max(bottom_w), left_h.max(right_h))
    }

    /// GFX4_2D qpitch in element rows (`isl_calc_array_pitch_el_rows_gfx4_2d`).
    fn array_pitch_gfx4_2d(&self, slice0_h_sa: u64) -> u64 {
        let d = &self.desc;
        let bh = self.bh() as u64;
        let av = self.align_sa().h as u64;
        let pitch_sa = match self.array_pitch_span {
            ArrayPitchSpan::Compact => align(slice0_h_sa, av),
            ArrayPitchSpan::Full => {
                let h0 = self.phys_level0_sa.h;
                let m = if d.gen.ver() >= 7 { 12 } else { 11 };
                let p = align(h0 as u64, av) + align(minify(h0, 1) as u64, av) + m * av;
                align(p, bh)
            }
        };
        let mut rows = pitch_sa / bh;
        if d.gen.ver() >= 9 && d.dim == SurfDim::D3 && d.tiling != Tiling::Linear {
            // Gfx9+ tiled 3D: QPitch must be a multiple of the tile height.
            rows = align(rows, self.tile.logical_extent_el().h as u64);
        }
        rows
    }

    /// GFX4_3D: slices of level `l` (cube faces for Gfx4 cubes).
    fn gfx4_3d_level_depth(&self, l: u32) -> u32 {
        if self.desc.dim == SurfDim::D3 {
            align(
                minify(self.phys_level0_sa.d, l) as u64,
                self.align_el.d as u64,
            ) as u32
        } else {
            self.phys_level0_sa.a
        }
    }

    fn row_pitch_alignment(&self) -> u32 {
        if self.desc.tiling != Tiling::Linear {
            return self.tile.phys_width_B();
        }
        // PRM: linear render targets and surfaces accessed with typed messages need an
        // element-multiple pitch, two elements for YUV formats (isl enforces the
        // render-target half, isl_calc_row_pitch_alignment).
        let f = self.desc.format;
        if self
            .desc
            .usage
            .intersects(Usage::RENDER_TARGET | Usage::STORAGE)
        {
            if f.is_yuv() {
                2 * f.cpp()
            } else {
                f.cpp()
            }
        } else {
            1
        }
    }

    fn calc_row_pitch(&mut self) -> Result<(), LayoutError> {
        let cpp = self.desc.format.cpp() as u64;
        let total_w = self.phys_total_el.w as u64;
        let alignment = self.row_pitch_alignment() as u64;
        let min = if self.desc.tiling == Tiling::Linear {
            align(cpp * total_w, alignment)
        } else {
            (cpp * total_w).div_ceil(self.tile.logical_width_B() as u64)
                * self.tile.phys_width_B() as u64
        };
        let pitch = match self.desc.row_pitch_B {
            Some(p) => {
                if (p as u64) < min {
                    return Err(LayoutError::RowPitchTooSmall {
                        requested: p,
                        min: min.min(u32::MAX as u64) as u32,
                    });
                }
                if !(p as u64).is_multiple_of(alignment) {
                    return Err(LayoutError::RowPitchMisaligned {
                        requested: p,
                        alignment: alignment as u32,
                    });
                }
                p as u64
            }
            None => min,
        };
        // SurfacePitch is 17 bits before Gfx7 and 18 bits since (pitch - 1 is stored);
        // GFX9_1D ignores it.
        let max: u32 = if self.desc.gen.ver() >= 7 {
            1 << 18
        } else {
            1 << 17
        };
        if self.dim_layout != DimLayout::GFX9_1D && pitch > max as u64 {
            return Err(LayoutError::RowPitchOutOfRange { pitch, max });
        }
        if pitch > u32::MAX as u64 {
            return Err(LayoutError::RowPitchOutOfRange {
                pitch,
                max: u32::MAX,
            });
        }
        self.row_pitch_b = pitch as u32;
        Ok(())
    }

    fn calc_size(&mut self) -> Result<(), LayoutError> {
        let pitch = self.row_pitch_b as u64;
        let total = self.phys_total_el;
        let size = if self.desc.tiling == Tiling::Linear {
            pitch * total.h as u64
        } else {
            let t = self.tile.logical_extent_el();
            let qpitch_tl = (self.array_pitch_el_rows / t.h) as u64;
            let slices = if total.d > 1 {
                total.d.div_ceil(t.d) as u64
            } else if total.a > 1 {
                total.a.div_ceil(t.a) as u64
            } else {
                1
            };
            let total_h_tl = (slices - 1) * qpitch_tl + (total.h as u64).div_ceil(t.h as u64);
            total_h_tl * self.tile.phys_height() as u64 * pitch
        };
        let ver = self.desc.gen.ver();
        let max = 1u64
            << if ver >= 11 {
                44
            } else if ver >= 9 {
                38
            } else {
                31
            };
        if size > max {
            return Err(LayoutError::SizeTooLarge { size, max });
        }
        self.size_b = size;
        Ok(())
    }

    // ---- accessors

    /// The description the surface was created from.
    pub fn desc(&self) -> &SurfaceDesc {
        &self.desc
    }

    /// The generation.
    pub fn gen(&self) -> Gen {
        self.desc.gen
    }

    /// The dimensionality.
    pub fn dim(&self) -> SurfDim {
        self.desc.dim
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.desc.format
    }

    /// The tiling.
    pub fn tiling(&self) -> Tiling {
        self.desc.tiling
    }

    /// Number of mip levels.
    pub fn levels(&self) -> u32 {
        self.desc.levels
    }

    /// Logical array layers (cube faces included); 1 for 3D. A multisampled surface has
    /// `array_len() * samples()` physical slices.
    pub fn array_len(&self) -> u32 {
        self.phys_level0_sa.a / self.desc.samples
    }

    /// Samples per pixel (1 for a single-sampled surface).
    pub fn samples(&self) -> u32 {
        self.desc.samples
    }

    /// The tile geometry.
    pub fn tile_info(&self) -> &TileInfo {
        &self.tile
    }

    /// isl's `dim_layout`.
    pub fn dim_layout(&self) -> DimLayout {
        self.dim_layout
    }

    /// isl's `image_alignment_el`: HALIGN × VALIGN × DALIGN in elements.
    pub fn image_alignment_el(&self) -> Extent3d {
        self.align_el
    }

    /// Horizontal image alignment in elements.
    pub fn halign_el(&self) -> u32 {
        self.align_el.w
    }

    /// Vertical image alignment in elements.
    pub fn valign_el(&self) -> u32 {
        self.align_el.h
    }

    /// Depth alignment in slices (the tile depth for Gfx9–11 Yf/Ys 3D, else 1).
    pub fn dalign_el(&self) -> u32 {
        self.align_el.d
    }

    /// isl's `phys_level0_sa`: level 0 in samples, with the array length (for the
    /// crate's reference vectors).
    #[cfg(test)]
    pub(crate) fn phys_level0_sa(&self) -> Extent4d {
        self.phys_level0_sa
    }

    /// The total extent in elements that the row pitch and size are computed from
    /// (isl's `phys_total_el`; for the crate's reference vectors).
    #[cfg(test)]
    pub(crate) fn phys_total_el(&self) -> Extent4d {
        self.phys_total_el
    }

    /// Row pitch in bytes.
    #[allow(non_snake_case)]
    pub fn row_pitch_B(&self) -> u32 {
        self.row_pitch_b
    }

    /// Array pitch (qpitch) in element rows: the distance between array slices (and
    /// Gfx9+ 3D slices). For GFX4_3D it is isl's nominal LOD0 value, unused for
    /// addressing.
    pub fn array_pitch_el_rows(&self) -> u32 {
        self.array_pitch_el_rows
    }

    /// Surface size in bytes.
    #[allow(non_snake_case)]
    pub fn size_B(&self) -> u64 {
        self.size_b
    }

    /// isl's `miptail_start_level`: the first level stored in the mip tail, or, when the
    /// surface has no tail, the number of levels (isl's `isl_choose_miptail_start_level`
    /// returns `info->levels` then). This is the value a driver programs into
    /// RENDER_SURFACE_STATE's Mip Tail Start LOD. It can exceed the level count: isl
    /// answers 15 for YUV formats on Gfx12 tilings with a tail.
    ///
    /// [`miptail_first_level`](Self::miptail_first_level) answers "which level, if any,
    /// starts the tail".
    pub fn miptail_start_level(&self) -> u32 {
        self.miptail_start_level
    }

    /// The first level stored in the mip tail, or `None` if no level is (isl's
    /// `miptail_start_level` is then the level count or more).
    pub fn miptail_first_level(&self) -> Option<u32> {
        (self.miptail_start_level < self.desc.levels).then_some(self.miptail_start_level)
    }

    /// Logical tile extent in elements (see [`TileInfo::logical_extent_el`]).
    pub fn tile_logical_extent_el(&self) -> Extent4d {
        self.tile.logical_extent_el()
    }

    /// Physical tile width in bytes.
    #[allow(non_snake_case)]
    pub fn tile_phys_width_B(&self) -> u32 {
        self.tile.phys_width_B()
    }

    /// Physical tile height in rows.
    pub fn tile_phys_height(&self) -> u32 {
        self.tile.phys_height()
    }

    /// The extent of `level` in elements: width, height (1 for 1D), depth (1 unless 3D).
    pub fn level_extent_el(&self, level: u32) -> Extent3d {
        let d = &self.desc;
        let f = d.format;
        Extent3d {
            w: minify(d.width, level).div_ceil(f.block_width()),
            h: if d.dim == SurfDim::D1 {
                1
            } else {
                minify(d.height, level).div_ceil(f.block_height())
            },
            d: if d.dim == SurfDim::D3 {
                minify(d.depth, level)
            } else {
                1
            },
        }
    }

    /// Layers (or 3D slices, for 3D) at `level`.
    fn layers_at(&self, level: u32) -> u32 {
        if self.desc.dim == SurfDim::D3 {
            minify(self.desc.depth, level)
        } else {
            self.phys_level0_sa.a
        }
    }

    fn check_image(&self, level: u32, layer_or_z: u32) -> Result<(), AddressError> {
        if level >= self.desc.levels {
            return Err(AddressError::LevelOutOfRange {
                level,
                levels: self.desc.levels,
            });
        }
        let n = self.layers_at(level);
        if layer_or_z >= n {
            return Err(if self.desc.dim == SurfDim::D3 {
                AddressError::ZOutOfRange {
                    z: layer_or_z,
                    depth: n,
                    level,
                }
            } else {
                AddressError::LayerOutOfRange {
                    layer: layer_or_z,
                    layers: n,
                }
            });
        }
        Ok(())
    }

    /// Where the image of `level` and array layer (cube face, or 3D slice `z`) starts:
    /// isl's `isl_surf_get_image_offset_el`. For a multisampled surface `layer_or_z` is a
    /// physical slot, `layer * samples + sample`.
    pub fn image_offset_el(
        &self,
        level: u32,
        layer_or_z: u32,
    ) -> Result<ImageOffset, AddressError> {
        self.check_image(level, layer_or_z)?;
        let (bw, bh) = (self.bw(), self.bh());
        let al = self.align_sa();
        let l0 = self.phys_level0_sa;
        let (x_sa, y_sa, z, array) = match self.dim_layout {
            DimLayout::GFX9_1D => {
                let x: u64 = (0..level)
                    .map(|l| align(minify(l0.w, l) as u64, al.w as u64))
                    .sum();
                let y = layer_or_z as u64 * self.array_pitch_el_rows as u64 * bh as u64;
                (x, y, 0, 0)
            }
            DimLayout::GFX4_2D => {
                let (mut y, z, array) = if self.desc.tiling.is_std() {
                    if self.desc.dim == SurfDim::D3 {
                        (0u64, layer_or_z, 0)
                    } else {
                        (0, 0, layer_or_z)
                    }
                } else {
                    let qpitch_sa = self.array_pitch_el_rows as u64 * bh as u64;
                    (layer_or_z as u64 * qpitch_sa, 0, 0)
                };
                let mut x = 0u64;
                for l in 0..level.min(self.miptail_start_level) {
                    if l == 1 {
                        x += align(minify(l0.w, l) as u64, al.w as u64);
                    } else {
                        y += align(minify(l0.h, l) as u64, al.h as u64);
                    }
                }
                let mut z = z;
                if level >= self.miptail_start_level {
                    let slot = level - self.miptail_start_level;
                    let f = self.desc.format;
                    // The slot exists: the start level was chosen so the tail fits.
                    if let Some(o) = miptail::slot_offset_el(
                        self.tile.isl_tiling(),
                        self.desc.dim,
                        f.bpb(),
                        slot,
                    ) {
                        x += (o.w * bw) as u64;
                        y += (o.h * bh) as u64;
                        z += o.d * f.block_depth();
                    }
                }
                (x, y, z, array)
            }
            DimLayout::GFX4_3D => {
                let mut y = 0u64;
                for l in 0..level {
                    let lh = align(minify(l0.h, l) as u64, al.h as u64);
                    let ld = self.gfx4_3d_level_depth(l) as u64;
                    y += lh * ld.div_ceil(1 << l);
                }
                let lw = align(minify(l0.w, level) as u64, al.w as u64);
                let lh = align(minify(l0.h, level) as u64, al.h as u64);
                let horiz = (self.gfx4_3d_level_depth(level) as u64).min(1 << level);
                let zz = layer_or_z as u64;
                (lw * (zz % horiz), y + lh * (zz / horiz), 0, 0)
            }
            DimLayout::GFX6_STENCIL_HIZ => {
                let t = self.tile.logical_extent_el();
                let (tw, th) = ((t.w * bw) as u64, (t.h * bh) as u64);
                let h = align(l0.h as u64, al.h as u64);
                let (mut x, mut y) = (0u64, 0u64);
                for l in 0..level {
                    if l == 0 {
                        y += align(h * l0.a as u64, th);
                    } else {
                        x += align(minify(l0.w, l) as u64, tw);
                    }
                }
                (x, y + h * layer_or_z as u64, 0, 0)
            }
        };
        Ok(ImageOffset {
            x_el: (x_sa / bw as u64) as u32,
            y_el: (y_sa / bh as u64) as u32,
            z_el: z,
            array_offset: array,
        })
    }

    /// Every image of the surface: each level, then each layer (or 3D slice of that
    /// level), in order; each physical slot of a multisampled surface.
    pub fn images(&self) -> impl Iterator<Item = ImageInfo> + '_ {
        (0..self.desc.levels).flat_map(move |level| {
            let e = self.level_extent_el(level);
            (0..self.layers_at(level)).filter_map(move |i| {
                let offset = self.image_offset_el(level, i).ok()?;
                Some(ImageInfo {
                    level,
                    layer_or_z: i,
                    offset,
                    extent_el: Extent3d {
                        w: e.w,
                        h: e.h,
                        d: 1,
                    },
                })
            })
        })
    }

    /// Byte offset from the surface base of element `(x, y)` of array layer / cube face
    /// / 3D slice `z_or_layer` of `level` (docs/hardware/surface-layout.md §4, §7.11). Coordinates are in
    /// elements of the level; 1D surfaces have `y == 0` and take the layer in
    /// `z_or_layer`. With [`Bit6Swizzle::Enabled`], Mesa's bit-6 swizzle is applied
    /// (Gfx4–7.5 X/Y surfaces; a no-op for linear).
    ///
    /// This is the offset of the element's first byte. Power-of-two elements are
    /// contiguous in every tiling; 24/48/96-bit elements may straddle a tile column, see
    /// [`texel_byte_offset`](Self::texel_byte_offset).
    ///
    /// On a multisampled surface `z_or_layer` is the physical slot `layer * samples +
    /// sample`; [`sample_offset`](Self::sample_offset) takes layer and sample apart.
    pub fn texel_offset(
        &self,
        x: u32,
        y: u32,
        z_or_layer: u32,
        level: u32,
        swizzle: Bit6Swizzle,
    ) -> Result<u64, AddressError> {
        self.texel_byte_offset(x, y, z_or_layer, level, 0, swizzle)
    }

    /// Like [`texel_offset`](Self::texel_offset), for byte `byte` of the element: the
    /// hardware maps every byte through the tiling on its own.
    pub fn texel_byte_offset(
        &self,
        x: u32,
        y: u32,
        z_or_layer: u32,
        level: u32,
        byte: u32,
        swizzle: Bit6Swizzle,
    ) -> Result<u64, AddressError> {
        self.check_image(level, z_or_layer)?;
        let e = self.level_extent_el(level);
        if x >= e.w {
            return Err(AddressError::XOutOfRange {
                x,
                width: e.w,
                level,
            });
        }
        if y >= e.h {
            return Err(AddressError::YOutOfRange {
                y,
                height: e.h,
                level,
            });
        }
        let cpp = self.desc.format.cpp();
        if byte >= cpp {
            return Err(AddressError::ByteOutOfRange { byte, cpp });
        }
        if swizzle.is_enabled() {
            let ok = self.desc.gen.ver() < 8 && swizzle_applies(self.desc.tiling).is_some();
            if !ok {
                return Err(AddressError::SwizzleUnsupported {
                    gen: self.desc.gen,
                    tiling: self.desc.tiling,
                });
            }
        }
        let o = self.image_offset_el(level, z_or_layer)?;
        let x_b = (o.x_el + x) * cpp + byte;
        let row = o.y_el + y;
        let off = if self.desc.tiling == Tiling::Linear {
            row as u64 * self.row_pitch_b as u64 + x_b as u64
        } else {
            self.tile.offset_B(
                self.row_pitch_b,
                self.array_pitch_el_rows,
                TileCoord {
                    x_B: x_b,
                    y: row,
                    z: o.z_el,
                    array: o.array_offset,
                    // The sample bits inside a tile are the slot modulo the tile's sample
                    // count (docs/hardware/surface-layout.md §4); for tiles without
                    // samples that count is 1 and this is 0.
                    sample: o.array_offset,
                },
            )
        };
        Ok(if swizzle.is_enabled() {
            bit6_swizzle(off, self.desc.tiling)
        } else {
            off
        })
    }
}
