//! The texel byte offset of the untyped path: the address code emitted into shaders.
//!
//! Mesa's raw path (docs/hardware/mesa-storage-images.md §6) only addresses linear, X and Y surfaces.
//! The code emitted here evaluates the `tiling` crate's formula over the image parameter
//! block instead (`tiling::image_param`, which owns the block's layout and documents the
//! formula; `ImageParam::texel_address` evaluates it in Rust), so every storage tiling is
//! addressed by one piece of code whose intra-tile bit layout is read as
//! `bitfield_insert` steps:
//!
//! ```text
//! x' = x + OFFSET.x ; y' = y + OFFSET.y ; z' = z + OFFSET.z   (z: layer / face / slice, else 0)
//! x' += ubfe(z', 0, TILING.z) * STRIDE.z ; y' += (z' >> TILING.z) * STRIDE.w
//! xB = x' << log2(cpp)
//! a  = U fields of xB, V fields of y', R fields of z'   (bitfield_insert(a, c >> src, dst, width))
//! a += (y' >> row_shift) * tile_row_stride_B ; a += (z' >> slab_shift) * slab_stride_B
//! a ^= ((a >> SWIZZLING.x) ^ (a >> SWIZZLING.y)) & 64       (IVB/HSW only)
//! ```
//!
//! 1D images that are not arrayed use `a = U fields of xB + BASE.row_base_B` (the
//! block's precomputed contribution of `y' = OFFSET.y`), buffer images `a = x * cpp`.
//! A multisampled image's `z` is its physical slice `layer * SAMPLES.x + sample` (isl's
//! array layout); where the tile keeps several samples (Ys, Tile64) the R fields and
//! slabs take the slice's in-tile sample bits and the rest, as they take a 3D tile's
//! slices, and its candidates are one per tiling and sample count
//! (`tiling::multisampled_tilings`).
//!
//! What is known when the shader is compiled is folded in ([`AddressPlan`]):
//! - the field steps are those of the tilings a storage image of this format and
//!   dimension may have on the platform (`Device::storage_tilings_for`): as many steps as the
//!   candidate with the most, none that is a no-op for every candidate, and a field
//!   value every candidate agrees on is a constant (a step's source and destination
//!   shifts only matter for the candidates whose width is not 0, since
//!   `bitfield_insert` of 0 bits returns the base);
//! - the same for `row_shift` and `slab_shift`, and the terms that are 0 for every
//!   candidate are left out: `OFFSET.z` is 0 unless the layout is GFX4_3D (3D before
//!   Gfx9) or the tiling is Yf/Ys/Tile64 (whose base layer and mip-tail slice live in
//!   z), the Mesa slice placement (`TILING.z`, `STRIDE.z`) only exists for GFX4_3D, the
//!   R fields and slabs only for 3D tiles with depth, whose `STRIDE.w` is 0;
//! - with a static layout ([`ir::StaticLayout`]) the layout part (fields, row stride,
//!   qpitch, slab stride, swizzle) is constant and only the view part (OFFSET, SIZE and
//!   the GFX4_3D slice placement, which depends on the bound level) is loaded.
//!
//! The emitter folds constants as `nir_builder`'s `_imm` helpers do (`iadd x, 0` is `x`,
//! a multiplication by a power of two is a shift, `bitfield_insert(0, x, 0, 32)` is `x`,
//! anything times a coordinate known to be 0 disappears), loads each parameter slot once
//! per access and reads its components through swizzles, so no `mov` is emitted.
//!
//! Arithmetic is 32-bit with NIR's semantics (`ishl`/`ushr` mask the count with `& 31`,
//! `ubfe` of 0 bits is 0, `bitfield_insert` of 0 bits returns the base).

use crate::device::Device;
use crate::format::isl_format;
use ir::{Builder, Format, ImageDim, ImageRef, LayoutTiling, Src, StaticLayout, Value};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use tiling::{Coord, Field, SurfDim, TileInfo, Tiling};

pub use tiling::image_param::slot;

/// Components the address code loads from each slot: the fields each slot has.
fn slot_components(s: u32) -> u8 {
    match s {
        slot::OFFSET | slot::SIZE | slot::TILING => 3,
        slot::SWIZZLING => 2,
        // The sample count alone, the load `image_samples` makes too (CSE merges them).
        slot::SAMPLES => 1,
        s if s >= slot::U_FIELDS => 3,
        _ => 4,
    }
}

/// One value of the layout part of the formula: a constant known when the shader is
/// compiled, or a dword of the parameter block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LayoutValue {
    /// A compile-time constant.
    Const(u32),
    /// Component `component` of parameter slot `slot`.
    Param {
        /// The slot ([`slot`]).
        slot: u32,
        /// The component (0 = x).
        component: u8,
    },
}

fn param(slot: u32, component: u8) -> LayoutValue {
    LayoutValue::Param { slot, component }
}

/// One `bitfield_insert` step: bits `[src, src + width)` of a coordinate go to address
/// bits `[dst, dst + width)`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldStep {
    /// First coordinate bit.
    pub src: LayoutValue,
    /// First address bit.
    pub dst: LayoutValue,
    /// Number of bits.
    pub width: LayoutValue,
}

/// How the third coordinate `z` (array layer, cube face, 3D slice; 0 for other images)
/// enters the address. Every part is optional: a part that is 0 for every candidate
/// tiling is left out.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SliceTerm {
    /// `z' = z + OFFSET.z`: GFX4_3D views starting at a slice other than 0, and the base
    /// layer and mip-tail slice of Yf/Ys/Tile64 surfaces.
    pub offset: bool,
    /// GFX4_3D (3D before Gfx9): Mesa's slice placement, `min(d_l, 2^l)` slices per row
    /// of slices: `x' += ubfe(z', 0, TILING.z) * STRIDE.z`, and `z' >> TILING.z` rows of
    /// slices of [`SliceTerm::rows`] rows each (docs/hardware/mesa-storage-images.md §6,
    /// docs/hardware/surface-layout.md §7.6).
    pub gfx4_3d: bool,
    /// `y' += z' * rows` (after the GFX4_3D shift): qpitch for arrays, cubes and Gfx9+
    /// 3D surfaces without tile depth, whose layers isl places `qpitch` rows apart
    /// (docs/hardware/surface-layout.md §7.5); the aligned level height for GFX4_3D.
    pub rows: Option<LayoutValue>,
    /// R field steps (3D tiles with depth).
    pub r: Vec<FieldStep>,
    /// `a += (z' >> slab_shift) * slab_stride_B` (3D tiles with depth): the shift and
    /// the stride.
    pub slab: Option<[LayoutValue; 2]>,
}

/// The shape of the address code.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AddressShape {
    /// Buffer images: `x * cpp`.
    Buffer,
    /// 1D images that are not arrayed: the U fields of the byte column plus the byte
    /// offset of the view's row (`BASE.row_base_B`).
    Row {
        /// U field steps.
        u: Vec<FieldStep>,
    },
    /// Everything else: the full formula.
    Surface {
        /// U field steps.
        u: Vec<FieldStep>,
        /// V field steps.
        v: Vec<FieldStep>,
        /// log2 of the tile height in rows.
        row_shift: LayoutValue,
        /// Bytes from one row of tiles to the next.
        row_stride: LayoutValue,
        /// The third coordinate.
        slice: SliceTerm,
    },
}

/// Why no address code can be planned.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum AddressError {
    /// The image has no format, so texels have no size.
    NoFormat,
    /// The format's texels are not a power-of-two number of bytes.
    TexelSize {
        /// The format.
        format: Format,
        /// Its bits per texel.
        bits: u32,
    },
    /// No tiling is allowed for a storage image of this kind on the platform.
    NoTiling {
        /// The image dimension.
        dim: ImageDim,
        /// The format.
        format: Format,
        /// The platform name.
        platform: String,
    },
    /// The image dimension cannot be arrayed.
    Arrayed {
        /// The dimension.
        dim: ImageDim,
    },
    /// The static layout cannot describe this image on this platform.
    Layout(LayoutError),
}

/// What is wrong with a static layout ([`ir::StaticLayout`]).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum LayoutError {
    /// A buffer image with a static layout.
    Buffer,
    /// A multisampled image with a static layout: where a tile keeps several samples,
    /// the layout depends on the sample count, which the declaration does not give.
    Multisampled,
    /// The layout's tiling is not one isl allows for the image.
    TilingNotAllowed {
        /// The layout's tiling.
        tiling: Tiling,
        /// The image dimension.
        dim: ImageDim,
        /// The format.
        format: Format,
        /// The platform name.
        platform: String,
        /// The tilings isl allows.
        allowed: Vec<Tiling>,
    },
    /// The tiling's tile geometry does not exist for the image (the tiling crate says
    /// why).
    Tile(String),
    /// The row pitch is not a positive multiple of the tile width.
    RowPitchTile {
        /// The row pitch in bytes.
        pitch: u32,
        /// The tile width in bytes.
        tile_width: u32,
        /// The tiling.
        tiling: Tiling,
    },
    /// A linear row pitch that is not a multiple of the texel size.
    RowPitchTexel {
        /// The row pitch in bytes.
        pitch: u32,
        /// The texel size in bytes.
        texel_bytes: u32,
    },
    /// A row of tiles whose size overflows 32 bits.
    RowPitchOverflow {
        /// The row pitch in bytes.
        pitch: u32,
        /// The tiling.
        tiling: Tiling,
    },
    /// A bit-6 swizzled layout on a platform that never swizzles.
    SwizzlePlatform {
        /// The platform name.
        platform: String,
    },
    /// A bit-6 swizzled layout of a tiling other than X and Y.
    SwizzleTiling {
        /// The tiling.
        tiling: Tiling,
    },
    /// A 3D qpitch that is not a multiple of the tile height.
    QpitchTile {
        /// The qpitch in rows.
        qpitch: u32,
        /// The tiling.
        tiling: Tiling,
        /// The tile height in rows.
        tile_height: u32,
    },
    /// A qpitch whose slab stride overflows 32 bits.
    QpitchOverflow {
        /// The qpitch in rows.
        qpitch: u32,
    },
}

impl fmt::Display for AddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressError::NoFormat => f.write_str(
                "the untyped path computes texel addresses from the format, and the image has none",
            ),
            AddressError::TexelSize { format, bits } => write!(
                f,
                "{format} texels are {bits} bits; the untyped path needs a power-of-two byte size"
            ),
            AddressError::NoTiling {
                dim,
                format,
                platform,
            } => write!(
                f,
                "no tiling is allowed for a {dim} storage image of {format} on {platform}"
            ),
            AddressError::Arrayed { dim } => write!(f, "{dim} images cannot be arrayed"),
            AddressError::Layout(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AddressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AddressError::Layout(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Buffer => f.write_str(
                "buffer images are linear arrays of texels and take no static layout",
            ),
            LayoutError::Multisampled => f.write_str(
                "multisampled images take no static layout: their tiles' layout depends on the \
                 sample count, which is bound at run time",
            ),
            LayoutError::TilingNotAllowed {
                tiling,
                dim,
                format,
                platform,
                allowed,
            } => {
                let names: Vec<&str> = allowed.iter().map(|t| t.name()).collect();
                write!(
                    f,
                    "the static layout's tiling {} is not allowed for a {dim} storage image \
                     of {format} on {platform} (allowed: {})",
                    tiling.name(),
                    names.join(", ")
                )
            }
            LayoutError::Tile(m) => f.write_str(m),
            LayoutError::RowPitchTile {
                pitch,
                tile_width,
                tiling,
            } => write!(
                f,
                "row_pitch={pitch} is not a positive multiple of the {tile_width} B width of a {} tile",
                tiling.name()
            ),
            LayoutError::RowPitchTexel { pitch, texel_bytes } => write!(
                f,
                "row_pitch={pitch} of a linear layout is not a multiple of the {texel_bytes} B texel"
            ),
            LayoutError::RowPitchOverflow { pitch, tiling } => write!(
                f,
                "row_pitch={pitch} overflows a row of {} tiles",
                tiling.name()
            ),
            LayoutError::SwizzlePlatform { platform } => write!(
                f,
                "swizzle=true, but {platform} never swizzles bit 6 (only IVB and HSW do)"
            ),
            LayoutError::SwizzleTiling { tiling } => write!(
                f,
                "swizzle=true on a {} layout; only X and Y surfaces are swizzled",
                tiling.name()
            ),
            LayoutError::QpitchTile {
                qpitch,
                tiling,
                tile_height,
            } => write!(
                f,
                "qpitch={qpitch} of a 3D {} layout is not a multiple of the {tile_height}-row \
                 tile height",
                tiling.name()
            ),
            LayoutError::QpitchOverflow { qpitch } => {
                write!(f, "qpitch={qpitch} overflows 32 bits")
            }
        }
    }
}

impl std::error::Error for LayoutError {}

/// The compile-time part of the texel address of accesses to one image.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AddressPlan {
    /// The image dimension.
    pub dim: ImageDim,
    /// Whether the image is arrayed.
    pub arrayed: bool,
    /// log2 of the texel size in bytes.
    pub log2_cpp: u32,
    /// The tilings the code addresses: the storage tilings of the platform, or the static
    /// layout's. Empty for buffers.
    pub tilings: Vec<Tiling>,
    /// Whether the layout part comes from a static layout.
    pub is_static: bool,
    /// The formula.
    pub shape: AddressShape,
    /// The bit-6 swizzle shifts (IVB/HSW X and Y surfaces), if the code must apply it.
    pub swizzle: Option<[LayoutValue; 2]>,
}

/// The `tiling` crate's tiling named by a static layout.
pub fn layout_tiling(t: LayoutTiling) -> Tiling {
    match t {
        LayoutTiling::Linear => Tiling::Linear,
        LayoutTiling::X => Tiling::X,
        LayoutTiling::Y => Tiling::Y,
        LayoutTiling::Tile4 => Tiling::Tile4,
        LayoutTiling::Tile64 => Tiling::Tile64,
    }
}

/// The static-layout tiling naming `t`, if a static layout can name it (linear, X, Y,
/// Tile4 and Tile64: the tilings the untyped address code handles).
pub fn static_layout_tiling(t: Tiling) -> Option<LayoutTiling> {
    LayoutTiling::ALL
        .iter()
        .copied()
        .find(|&l| layout_tiling(l) == t)
}

/// One candidate tiling of the image: its field decomposition and what the parameter
/// block holds for it.
struct Candidate {
    tiling: Tiling,
    tile: TileInfo,
    u: Vec<Field>,
    v: Vec<Field>,
    r: Vec<Field>,
    /// GFX4_3D layout (3D before Gfx9).
    gfx4_3d: bool,
    /// A 3D tile with depth, or a multisampled tile holding several samples: R fields
    /// (slice or sample bits inside the tile) and slabs, `STRIDE.w = 0`.
    slabs: bool,
    /// log2 of the slices (3D) or samples (multisampled) a tile holds: `TILE.z`.
    slab_shift: u32,
}

impl Candidate {
    /// The candidate `tiling` of a surface of `samples` samples (1 unless `dim` is
    /// multisampled).
    fn new(
        tiling: Tiling,
        device: &Device,
        dim: ImageDim,
        bpb: u32,
        samples: u32,
    ) -> Result<Candidate, AddressError> {
        let gen = device.gen;
        let sdim = surface_dim(dim).unwrap_or(SurfDim::D2);
        let tile = TileInfo::new(tiling, gen, sdim, bpb, samples)
            .map_err(|e| AddressError::Layout(LayoutError::Tile(e.to_string())))?;
        let is3d = dim == ImageDim::D3;
        let ext = tile.logical_extent_el();
        // Tiles with depth keep several slices, multisampled Ys and Tile64 several
        // samples: the slice's (sample's) low bits are inside the tile, the rest slabs.
        let (slabs, r_axis, slab_shift) = if is3d && ext.d > 1 {
            (true, Coord::R, ext.d.trailing_zeros())
        } else if samples > 1 && ext.a > 1 {
            (true, Coord::S, ext.a.trailing_zeros())
        } else {
            (false, Coord::R, 0)
        };
        // The block holds at most 8 fields per coordinate (`tiling::image_param`).
        let fields = |axis| {
            let mut f = tile.address_fields(axis);
            f.truncate(slot::FIELDS_PER_AXIS as usize);
            f
        };
        Ok(Candidate {
            tiling,
            u: fields(Coord::U),
            v: fields(Coord::V),
            r: if slabs { fields(r_axis) } else { Vec::new() },
            gfx4_3d: is3d && device.gfx4_3d_layout(),
            slabs,
            slab_shift,
            tile,
        })
    }

    fn fields(&self, axis: Coord) -> &[Field] {
        match axis {
            Coord::U => &self.u,
            Coord::V => &self.v,
            _ => &self.r,
        }
    }

    /// Whether `OFFSET.z` may be non-zero: GFX4_3D (the view's base slice) and the
    /// standard tilings (isl's z offset and array offset, `tiling::image_param`).
    fn has_z_offset(&self) -> bool {
        self.gfx4_3d || self.tiling.is_std()
    }
}

/// `Const(v)` when every value agrees, else the parameter.
fn agree(values: impl Iterator<Item = u32>, p: LayoutValue) -> LayoutValue {
    let mut first = None;
    for v in values {
        match first {
            None => first = Some(v),
            Some(f) if f != v => return p,
            Some(_) => {}
        }
    }
    // No value at all means no candidate uses it; any constant does.
    LayoutValue::Const(first.unwrap_or(0))
}

/// The field steps of `axis` over `cands`, reading `base_slot + k` where the candidates
/// disagree. Steps past every candidate's last field are left out.
fn field_steps(cands: &[Candidate], axis: Coord, base_slot: u32) -> Vec<FieldStep> {
    let n = cands
        .iter()
        .map(|c| c.fields(axis).len())
        .max()
        .unwrap_or(0);
    (0..n)
        .map(|k| {
            let slot = base_slot + k as u32;
            let at = |c: &Candidate| c.fields(axis).get(k).copied().unwrap_or_default();
            // Source and destination only matter where the width is not 0.
            let used = || cands.iter().map(at).filter(|f| f.width != 0);
            FieldStep {
                src: agree(used().map(|f| f.src_shift), param(slot, 0)),
                dst: agree(used().map(|f| f.dst_shift), param(slot, 1)),
                width: agree(cands.iter().map(|c| at(c).width), param(slot, 2)),
            }
        })
        .collect()
}

fn const_steps(fields: &[Field]) -> Vec<FieldStep> {
    fields
        .iter()
        .map(|f| FieldStep {
            src: LayoutValue::Const(f.src_shift),
            dst: LayoutValue::Const(f.dst_shift),
            width: LayoutValue::Const(f.width),
        })
        .collect()
}

/// The surface dimensionality of a storage image of `dim` (cubes are 2D surfaces, as in
/// isl); `None` for buffers.
pub fn surface_dim(dim: ImageDim) -> Option<SurfDim> {
    match dim {
        ImageDim::D1 => Some(SurfDim::D1),
        ImageDim::D2 | ImageDim::Cube | ImageDim::Ms => Some(SurfDim::D2),
        ImageDim::D3 => Some(SurfDim::D3),
        ImageDim::Buffer => None,
    }
}

impl AddressPlan {
    /// Plans the address code of accesses to a `dim` (`arrayed`) image of `format` on
    /// `device`, with the layout part from `layout` when the image has a static layout.
    pub fn new(
        device: &Device,
        dim: ImageDim,
        arrayed: bool,
        format: Format,
        layout: Option<&StaticLayout>,
    ) -> Result<AddressPlan, AddressError> {
        if arrayed && !dim.can_be_arrayed() {
            return Err(AddressError::Arrayed { dim });
        }
        let Some(tformat) = isl_format(format) else {
            return Err(AddressError::NoFormat);
        };
        let bpb = tformat.bpb();
        if !bpb.is_power_of_two() || bpb < 8 {
            return Err(AddressError::TexelSize { format, bits: bpb });
        }
        let log2_cpp = (bpb / 8).trailing_zeros();
        let Some(sdim) = surface_dim(dim) else {
            if layout.is_some() {
                return Err(AddressError::Layout(LayoutError::Buffer));
            }
            return Ok(AddressPlan {
                dim,
                arrayed,
                log2_cpp,
                tilings: Vec::new(),
                is_static: false,
                shape: AddressShape::Buffer,
                swizzle: None,
            });
        };
        let gen = device.gen;
        // A static layout names the surface's actual tiling, which only has to be one
        // isl allows for storage; without one, the code must handle every tiling the
        // driver may pick (its policy within isl's rules).
        if dim == ImageDim::Ms && layout.is_some() {
            return Err(AddressError::Layout(LayoutError::Multisampled));
        }
        let allowed = match layout {
            Some(_) => tiling::storage_tilings(gen, tformat, sdim),
            None if dim == ImageDim::Ms => device.multisampled_storage_tilings_for(tformat),
            None => device.storage_tilings_for(tformat, sdim),
        };
        if allowed.is_empty() {
            return Err(AddressError::NoTiling {
                dim,
                format,
                platform: device.name.clone(),
            });
        }
        let mut plan = match layout {
            None => {
                // A multisampled image's layout depends on its sample count too.
                let mut cands = Vec::new();
                for &t in &allowed {
                    if dim != ImageDim::Ms {
                        cands.push(Candidate::new(t, device, dim, bpb, 1)?);
                        continue;
                    }
                    for samples in crate::device::MULTISAMPLE_COUNTS {
                        if tiling::multisampled_tilings(gen, tformat, samples).contains(&t) {
                            cands.push(Candidate::new(t, device, dim, bpb, samples)?);
                        }
                    }
                }
                Self::dynamic(device, dim, arrayed, &cands)
            }
            Some(l) => {
                let t = layout_tiling(l.tiling);
                if !allowed.contains(&t) {
                    return Err(AddressError::Layout(LayoutError::TilingNotAllowed {
                        tiling: t,
                        dim,
                        format,
                        platform: device.name.clone(),
                        allowed,
                    }));
                }
                let c = Candidate::new(t, device, dim, bpb, 1)?;
                Self::fixed(device, dim, arrayed, log2_cpp, &c, l)?
            }
        };
        plan.log2_cpp = log2_cpp;
        Ok(plan)
    }

    /// The plan reading the layout from the parameter block, specialised to `cands`.
    fn dynamic(device: &Device, dim: ImageDim, arrayed: bool, cands: &[Candidate]) -> AddressPlan {
        let u = field_steps(cands, Coord::U, slot::U_FIELDS);
        let swizzle = (device.may_have_bit6_swizzle
            && cands
                .iter()
                .any(|c| matches!(c.tiling, Tiling::X | Tiling::Y)))
        .then(|| [param(slot::SWIZZLING, 0), param(slot::SWIZZLING, 1)]);
        let shape = if dim == ImageDim::D1 && !arrayed {
            AddressShape::Row { u }
        } else {
            let any_slabs = cands.iter().any(|c| c.slabs);
            let slice = SliceTerm {
                offset: cands.iter().any(Candidate::has_z_offset),
                gfx4_3d: cands.iter().any(|c| c.gfx4_3d),
                // STRIDE.w is 0 exactly for the candidates with slabs.
                rows: cands
                    .iter()
                    .any(|c| !c.slabs)
                    .then_some(param(slot::STRIDE, 3)),
                r: field_steps(cands, Coord::R, slot::R_FIELDS),
                slab: any_slabs.then(|| {
                    [
                        agree(
                            cands.iter().filter(|c| c.slabs).map(|c| c.slab_shift),
                            param(slot::TILE, 2),
                        ),
                        param(slot::TILE, 3),
                    ]
                }),
            };
            AddressShape::Surface {
                u,
                v: field_steps(cands, Coord::V, slot::V_FIELDS),
                row_shift: agree(
                    cands.iter().map(|c| c.tile.row_shift()),
                    param(slot::TILE, 0),
                ),
                row_stride: param(slot::TILE, 1),
                slice,
            }
        };
        AddressPlan {
            dim,
            arrayed,
            log2_cpp: 0,
            tilings: cands.iter().map(|c| c.tiling).collect(),
            is_static: false,
            shape,
            swizzle,
        }
    }

    /// The plan with the layout part of static layout `l` (tiling `c`).
    fn fixed(
        device: &Device,
        dim: ImageDim,
        arrayed: bool,
        log2_cpp: u32,
        c: &Candidate,
        l: &StaticLayout,
    ) -> Result<AddressPlan, AddressError> {
        let tile = &c.tile;
        let tiling = c.tiling;
        let layout_error = |e: LayoutError| AddressError::Layout(e);
        let pitch = l.row_pitch;
        if pitch == 0 || !pitch.is_multiple_of(tile.phys_width_B()) {
            return Err(layout_error(LayoutError::RowPitchTile {
                pitch,
                tile_width: tile.phys_width_B(),
                tiling,
            }));
        }
        if c.tiling == Tiling::Linear && !pitch.is_multiple_of(1 << log2_cpp) {
            return Err(layout_error(LayoutError::RowPitchTexel {
                pitch,
                texel_bytes: 1 << log2_cpp,
            }));
        }
        let row_stride = pitch
            .checked_mul(tile.phys_height())
            .ok_or_else(|| layout_error(LayoutError::RowPitchOverflow { pitch, tiling }))?;
        let swizzle = if l.swizzle {
            if !device.may_have_bit6_swizzle {
                return Err(layout_error(LayoutError::SwizzlePlatform {
                    platform: device.name.clone(),
                }));
            }
            // Mesa's shifts: bit 6 ^= bit 9 ^ bit 10 for X, bit 6 ^= bit 9 for Y
            // (docs/hardware/mesa-storage-images.md §7; 0xff shifts every bit out).
            match c.tiling {
                Tiling::X => Some([LayoutValue::Const(3), LayoutValue::Const(4)]),
                Tiling::Y => Some([LayoutValue::Const(3), LayoutValue::Const(0xff)]),
                _ => return Err(layout_error(LayoutError::SwizzleTiling { tiling })),
            }
        } else {
            None
        };
        let tile_h = tile.logical_extent_el().h;
        let u = const_steps(&c.u);
        let shape = if dim == ImageDim::D1 && !arrayed {
            AddressShape::Row { u }
        } else {
            // Without a qpitch in the layout the block's is used.
            let qpitch = l.qpitch.map(LayoutValue::Const);
            let slice = if c.gfx4_3d {
                // The slice strides depend on the bound level: the view part.
                SliceTerm {
                    offset: true,
                    gfx4_3d: true,
                    rows: Some(param(slot::STRIDE, 3)),
                    ..SliceTerm::default()
                }
            } else if c.slabs {
                let slab_stride = match l.qpitch {
                    Some(q) => {
                        // isl aligns the qpitch of 3D surfaces whose tiles have depth to
                        // the tile height (docs/hardware/surface-layout.md §7.4, §7.5).
                        if !q.is_multiple_of(tile_h) {
                            return Err(layout_error(LayoutError::QpitchTile {
                                qpitch: q,
                                tiling,
                                tile_height: tile_h,
                            }));
                        }
                        LayoutValue::Const((q / tile_h).checked_mul(row_stride).ok_or_else(
                            || layout_error(LayoutError::QpitchOverflow { qpitch: q }),
                        )?)
                    }
                    None => param(slot::TILE, 3),
                };
                SliceTerm {
                    offset: true,
                    gfx4_3d: false,
                    rows: None,
                    r: const_steps(&c.r),
                    slab: Some([LayoutValue::Const(tile.slab_shift()), slab_stride]),
                }
            } else {
                SliceTerm {
                    offset: c.has_z_offset(),
                    gfx4_3d: false,
                    rows: Some(qpitch.unwrap_or(param(slot::STRIDE, 3))),
                    ..SliceTerm::default()
                }
            };
            AddressShape::Surface {
                u,
                v: const_steps(&c.v),
                row_shift: LayoutValue::Const(tile.row_shift()),
                row_stride: LayoutValue::Const(row_stride),
                slice,
            }
        };
        Ok(AddressPlan {
            dim,
            arrayed,
            log2_cpp,
            tilings: vec![c.tiling],
            is_static: true,
            shape,
            swizzle,
        })
    }

    /// Number of coordinate components an access to the image reads.
    pub fn coord_components(&self) -> u8 {
        self.dim.coord_components(self.arrayed)
    }

    /// The coordinate component that is `z` (layer, face or slice), if the image has one:
    /// the layer of 1D arrays is their second component.
    fn z_component(&self) -> Option<u8> {
        match (self.dim, self.arrayed) {
            (ImageDim::D1, true) => Some(1),
            (ImageDim::D3 | ImageDim::Cube, _) | (ImageDim::D2 | ImageDim::Ms, true) => Some(2),
            _ => None,
        }
    }

    /// Emits the texel byte offset of `coord` at `b`'s cursor and returns it (a 32-bit
    /// value; a constant when everything folds).
    pub fn emit(&self, b: &mut Builder, image: ImageRef, coord: Src) -> Value {
        let mut e = Emitter::new(b, image);
        let a = self.emit_with(&mut e, coord);
        e.value(a)
    }

    /// [`AddressPlan::emit`] through an emitter shared with the rest of the access.
    pub(crate) fn emit_with(&self, e: &mut Emitter<'_, '_>, coord: Src) -> Operand {
        let c = |i: u8| Operand::Val(coord.component(i));
        let cpp_shift = Operand::Imm(self.log2_cpp);
        let a = match &self.shape {
            AddressShape::Buffer => return e.ishl(c(0), cpp_shift),
            AddressShape::Row { u } => {
                let x_off = e.layout(param(slot::OFFSET, 0));
                let x = e.iadd(c(0), x_off);
                let xb = e.ishl(x, cpp_shift);
                let a = e.fields(Operand::Imm(0), xb, u);
                let rb = e.layout(param(slot::BASE, 0));
                e.iadd(a, rb)
            }
            AddressShape::Surface {
                u,
                v,
                row_shift,
                row_stride,
                slice,
            } => {
                let x_off = e.layout(param(slot::OFFSET, 0));
                let mut x = e.iadd(c(0), x_off);
                let y_off = e.layout(param(slot::OFFSET, 1));
                let mut y = if self.dim == ImageDim::D1 {
                    // 1D arrays are 2D arrays whose y is 0.
                    y_off
                } else {
                    e.iadd(c(1), y_off)
                };
                let mut z = match self.z_component() {
                    Some(i) => c(i),
                    None => Operand::Imm(0),
                };
                if self.dim == ImageDim::Ms {
                    // Sample s of layer l is physical slice l * SAMPLES + s (isl's
                    // ARRAY layout: every sample a slice of its own).
                    let s = c(self.coord_components() - 1);
                    z = if self.arrayed {
                        let n = e.layout(param(slot::SAMPLES, 0));
                        let first = e.imul(z, n);
                        e.iadd(first, s)
                    } else {
                        s
                    };
                }
                if slice.offset {
                    let z_off = e.layout(param(slot::OFFSET, 2));
                    z = e.iadd(z, z_off);
                }
                let mut zy = z;
                if slice.gfx4_3d {
                    let lod = e.layout(param(slot::TILING, 2));
                    let sx = e.layout(param(slot::STRIDE, 2));
                    let zx = e.ubfe(z, Operand::Imm(0), lod);
                    let dx = e.imul(zx, sx);
                    x = e.iadd(x, dx);
                    zy = e.ushr(z, lod);
                }
                if let (Some(rows), false) = (slice.rows, zy == Operand::Imm(0)) {
                    let q = e.layout(rows);
                    let dy = e.imul(zy, q);
                    y = e.iadd(y, dy);
                }
                let xb = e.ishl(x, cpp_shift);
                let mut a = e.fields(Operand::Imm(0), xb, u);
                a = e.fields(a, y, v);
                a = e.fields(a, z, &slice.r);
                let rs = e.layout(*row_shift);
                let tile_rows = e.ushr(y, rs);
                let stride = e.layout(*row_stride);
                let rows_b = e.imul(tile_rows, stride);
                a = e.iadd(a, rows_b);
                if let Some([shift, stride]) = slice.slab {
                    let ss = e.layout(shift);
                    let slabs = e.ushr(z, ss);
                    let stride = e.layout(stride);
                    let slabs_b = e.imul(slabs, stride);
                    a = e.iadd(a, slabs_b);
                }
                a
            }
        };
        match self.swizzle {
            Some([s0, s1]) => e.swizzle_bit6(a, s0, s1),
            None => a,
        }
    }
}

/// The address plans of one run of the lowering on one device: a pass lowering many
/// accesses to the same image plans its address code once (planning computes the
/// candidate tilings and their fields, a third of the untyped lowering's time in
/// `benches/lower.rs` when it was done per access). The device is fixed when the set is
/// made, so a plan is known by what the image is: its dimension, arrayness, format and
/// static layout. Failures are not kept (they are errors of the run).
pub(crate) struct AddressPlans<'d> {
    device: &'d Device,
    plans: HashMap<(ImageDim, bool, Format, Option<StaticLayout>), Rc<AddressPlan>>,
}

impl<'d> AddressPlans<'d> {
    /// No plans yet, for `device`.
    pub fn new(device: &'d Device) -> AddressPlans<'d> {
        AddressPlans {
            device,
            plans: HashMap::new(),
        }
    }

    /// [`AddressPlan::new`] for an image of this run's device, made once.
    pub fn get(
        &mut self,
        dim: ImageDim,
        arrayed: bool,
        format: Format,
        layout: Option<&StaticLayout>,
    ) -> Result<Rc<AddressPlan>, AddressError> {
        let key = (dim, arrayed, format, layout.copied());
        if let Some(p) = self.plans.get(&key) {
            return Ok(Rc::clone(p));
        }
        let plan = Rc::new(AddressPlan::new(self.device, dim, arrayed, format, layout)?);
        self.plans.insert(key, Rc::clone(&plan));
        Ok(plan)
    }
}

/// A 32-bit operand of the emitted code: a constant or a source.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Operand {
    /// A constant.
    Imm(u32),
    /// A value (component).
    Val(Src),
}

/// Emits the code of one access: folds constants, loads each parameter slot once and
/// shares constants.
pub(crate) struct Emitter<'a, 'f> {
    /// The builder.
    pub b: &'a mut Builder<'f>,
    image: ImageRef,
    loads: [Option<Value>; slot::COUNT as usize],
    consts: SmallVec<[(u32, Value); 8]>,
}

fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

impl<'a, 'f> Emitter<'a, 'f> {
    /// An emitter for accesses to `image`.
    pub fn new(b: &'a mut Builder<'f>, image: ImageRef) -> Emitter<'a, 'f> {
        Emitter {
            b,
            image,
            loads: [None; slot::COUNT as usize],
            consts: SmallVec::new(),
        }
    }

    /// The parameter slot `s`, loaded once.
    pub fn slot(&mut self, s: u32) -> Value {
        if let Some(v) = self.loads[s as usize] {
            return v;
        }
        let v = self.b.image_load_param(self.image, s, slot_components(s));
        self.loads[s as usize] = Some(v);
        v
    }

    /// Component `c` of parameter slot `s`.
    pub fn param(&mut self, s: u32, c: u8) -> Operand {
        Operand::Val(Src::channel(self.slot(s), c))
    }

    /// A layout value as an operand.
    pub fn layout(&mut self, v: LayoutValue) -> Operand {
        match v {
            LayoutValue::Const(c) => Operand::Imm(c),
            LayoutValue::Param { slot, component } => self.param(slot, component),
        }
    }

    /// A 32-bit constant, shared within the access.
    pub fn imm(&mut self, c: u32) -> Value {
        if let Some(&(_, v)) = self.consts.iter().find(|(k, _)| *k == c) {
            return v;
        }
        let v = self.b.imm_u32(c);
        self.consts.push((c, v));
        v
    }

    /// The operand as a source.
    pub fn src(&mut self, o: Operand) -> Src {
        match o {
            Operand::Imm(c) => Src::new(self.imm(c)),
            Operand::Val(s) => s,
        }
    }

    /// The operand as a value (a `mov` only for a swizzled component, which the address
    /// code never returns: every result is a fresh ALU value or a constant).
    pub fn value(&mut self, o: Operand) -> Value {
        let s = self.src(o);
        if s.swizzle.is_identity() {
            s.value
        } else {
            self.b.mov(s)
        }
    }

    fn alu2(&mut self, op: ir::AluOp, a: Operand, b: Operand) -> Operand {
        let (a, b) = (self.src(a), self.src(b));
        Operand::Val(Src::new(self.b.alu(op, &[a, b])))
    }

    /// `iadd`.
    pub fn iadd(&mut self, a: Operand, b: Operand) -> Operand {
        match (a, b) {
            (Operand::Imm(x), Operand::Imm(y)) => Operand::Imm(x.wrapping_add(y)),
            (x, Operand::Imm(0)) | (Operand::Imm(0), x) => x,
            (Operand::Imm(_), _) => self.alu2(ir::AluOp::Iadd, b, a),
            _ => self.alu2(ir::AluOp::Iadd, a, b),
        }
    }

    /// `imul`, a shift for a power-of-two constant.
    pub fn imul(&mut self, a: Operand, b: Operand) -> Operand {
        match (a, b) {
            (Operand::Imm(x), Operand::Imm(y)) => Operand::Imm(x.wrapping_mul(y)),
            (_, Operand::Imm(0)) | (Operand::Imm(0), _) => Operand::Imm(0),
            (x, Operand::Imm(1)) | (Operand::Imm(1), x) => x,
            (x, Operand::Imm(k)) | (Operand::Imm(k), x) if k.is_power_of_two() => {
                self.ishl(x, Operand::Imm(k.trailing_zeros()))
            }
            _ => self.alu2(ir::AluOp::Imul, a, b),
        }
    }

    /// `ishl` (count masked with 31).
    pub fn ishl(&mut self, a: Operand, n: Operand) -> Operand {
        match (a, n) {
            (Operand::Imm(x), Operand::Imm(k)) => Operand::Imm(x << (k & 31)),
            (Operand::Imm(0), _) => Operand::Imm(0),
            (x, Operand::Imm(k)) if k & 31 == 0 => x,
            _ => self.alu2(ir::AluOp::Ishl, a, n),
        }
    }

    /// `ushr` (count masked with 31).
    pub fn ushr(&mut self, a: Operand, n: Operand) -> Operand {
        match (a, n) {
            (Operand::Imm(x), Operand::Imm(k)) => Operand::Imm(x >> (k & 31)),
            (Operand::Imm(0), _) => Operand::Imm(0),
            (x, Operand::Imm(k)) if k & 31 == 0 => x,
            _ => self.alu2(ir::AluOp::Ushr, a, n),
        }
    }

    /// `iand`.
    pub fn iand(&mut self, a: Operand, b: Operand) -> Operand {
        match (a, b) {
            (Operand::Imm(x), Operand::Imm(y)) => Operand::Imm(x & y),
            (_, Operand::Imm(0)) | (Operand::Imm(0), _) => Operand::Imm(0),
            (x, Operand::Imm(u32::MAX)) | (Operand::Imm(u32::MAX), x) => x,
            (Operand::Imm(_), _) => self.alu2(ir::AluOp::Iand, b, a),
            _ => self.alu2(ir::AluOp::Iand, a, b),
        }
    }

    /// `ixor`.
    pub fn ixor(&mut self, a: Operand, b: Operand) -> Operand {
        match (a, b) {
            (Operand::Imm(x), Operand::Imm(y)) => Operand::Imm(x ^ y),
            (x, Operand::Imm(0)) | (Operand::Imm(0), x) => x,
            (Operand::Imm(_), _) => self.alu2(ir::AluOp::Ixor, b, a),
            _ => self.alu2(ir::AluOp::Ixor, a, b),
        }
    }

    /// `ubfe(x, off, bits)`: 0 when `bits & 31 == 0`.
    pub fn ubfe(&mut self, x: Operand, off: Operand, bits: Operand) -> Operand {
        match (off, bits) {
            (_, Operand::Imm(b)) if b & 31 == 0 => Operand::Imm(0),
            (Operand::Imm(0), Operand::Imm(b)) => self.iand(x, Operand::Imm(mask(b & 31))),
            _ => {
                let (x, o, n) = (self.src(x), self.src(off), self.src(bits));
                Operand::Val(Src::new(self.b.ubfe(x, o, n)))
            }
        }
    }

    /// `bitfield_insert(base, ins, off, bits)`: `base` when `bits` is 0.
    pub fn bitfield_insert(
        &mut self,
        base: Operand,
        ins: Operand,
        off: Operand,
        bits: Operand,
    ) -> Operand {
        match (base, ins, off, bits) {
            (_, _, _, Operand::Imm(0)) => base,
            (Operand::Imm(0), _, Operand::Imm(0), Operand::Imm(32)) => ins,
            (Operand::Imm(0), _, Operand::Imm(0), Operand::Imm(w)) if w < 32 => {
                self.iand(ins, Operand::Imm(mask(w)))
            }
            (Operand::Imm(b), Operand::Imm(i), Operand::Imm(o), Operand::Imm(w)) => {
                Operand::Imm(eval_bitfield_insert(b, i, o, w))
            }
            _ => {
                let (b, i, o, w) = (self.src(base), self.src(ins), self.src(off), self.src(bits));
                Operand::Val(Src::new(self.b.bitfield_insert(b, i, o, w)))
            }
        }
    }

    /// The field steps over coordinate `x`, inserted into `a`.
    fn fields(&mut self, mut a: Operand, x: Operand, steps: &[FieldStep]) -> Operand {
        for s in steps {
            let width = self.layout(s.width);
            if width == Operand::Imm(0) {
                continue;
            }
            let src = self.layout(s.src);
            let dst = self.layout(s.dst);
            let shifted = self.ushr(x, src);
            a = self.bitfield_insert(a, shifted, dst, width);
        }
        a
    }

    /// Mesa's bit-6 swizzle: `a ^ (((a >> s0) ^ (a >> s1)) & 64)`. A constant shift
    /// whose masked count is 26 or more moves every bit of `a` below bit 6, so its term
    /// is 0 (0xff, "no swizzle", is such a count).
    fn swizzle_bit6(&mut self, a: Operand, s0: LayoutValue, s1: LayoutValue) -> Operand {
        let mut t = Operand::Imm(0);
        for s in [s0, s1] {
            if let LayoutValue::Const(k) = s {
                if k & 31 >= 26 {
                    continue;
                }
            }
            let k = self.layout(s);
            let sh = self.ushr(a, k);
            t = self.ixor(t, sh);
        }
        let bit = self.iand(t, Operand::Imm(64));
        self.ixor(a, bit)
    }
}

/// NIR's `bitfield_insert` on constants (`ir::eval` semantics): 0 bits return the base;
/// a field past bit 31 gives 0.
fn eval_bitfield_insert(base: u32, ins: u32, off: u32, bits: u32) -> u32 {
    let (o, w) = (off as i32, bits as i32);
    if w == 0 {
        return base;
    }
    if o < 0 || w < 0 || o as i64 + w as i64 > 32 {
        return 0;
    }
    let m = ((((1u64 << w) - 1) << o) & 0xffff_ffff) as u32;
    (base & !m) | ((ins << o) & m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_layouts_name_the_untyped_tilings() {
        let named: Vec<Tiling> = Tiling::ALL
            .iter()
            .copied()
            .filter(|&t| static_layout_tiling(t).is_some())
            .collect();
        assert_eq!(
            named,
            [
                Tiling::Linear,
                Tiling::X,
                Tiling::Y,
                Tiling::Tile4,
                Tiling::Tile64
            ]
        );
        for l in LayoutTiling::ALL {
            assert_eq!(static_layout_tiling(layout_tiling(l)), Some(l));
        }
    }
}
