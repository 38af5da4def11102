//! The storage-image parameter block: what a shader reads to address a texel itself
//! (the untyped fallback and 64-bit atomics), via `image_load_param(base = slot)`, which
//! returns up to four dwords of vec4 slot `slot`.
//!
//! # Layout
//!
//! 32 vec4 slots of `u32`, 128 dwords; unused lanes are 0. Slots 0–4 are Mesa's
//! `isl_image_param` (`docs/hardware/mesa-storage-images.md` §7) and are filled exactly as Mesa fills
//! them for linear, X and Y surfaces; slots 5–31 extend the block so that every tiling can be
//! addressed with one formula.
//!
//! | slot | name | x | y | z | w |
//! |---|---|---|---|---|---|
//! | 0 | [`OFFSET`](slot::OFFSET) | origin x, elements | origin y, rows | extra z (see below) | 0 |
//! | 1 | [`SIZE`](slot::SIZE) | `minify(w, l)` | 1D: layers, else `minify(h, l)` | 2D/cube: layers (6 per cube), 3D: slices, 1D: 1 | 0 |
//! | 2 | [`STRIDE`](slot::STRIDE) | bytes per element (`cpp`) | `row_pitch_B / cpp` | slice x stride, elements | slice y stride, rows |
//! | 3 | [`TILING`](slot::TILING) | log2 tile width, elements | log2 tile height, rows | log2 slices per row (GFX4_3D: the view's level) | 0 |
//! | 4 | [`SWIZZLING`](slot::SWIZZLING) | bit-6 shift a | bit-6 shift b | 0 | 0 |
//! | 5 | [`TILE`](slot::TILE) | `row_shift` | `tile_row_stride_B` | `slab_shift` | `slab_stride_B` |
//! | 6 | [`BASE`](slot::BASE) | `row_base_B` | base address, low dword | base address, high dword | `tile_mode` |
//! | 7 | [`SAMPLES`](slot::SAMPLES) | samples per pixel | 0 | 0 | 0 |
//! | 8–15 | [`U_FIELDS`](slot::U_FIELDS) | `src_shift` | `dst_shift` | `width` | 0 |
//! | 16–23 | [`V_FIELDS`](slot::V_FIELDS) | `src_shift` | `dst_shift` | `width` | 0 |
//! | 24–31 | [`R_FIELDS`](slot::R_FIELDS) | `src_shift` | `dst_shift` | `width` | 0 |
//!
//! - **OFFSET** is `isl_surf_get_image_offset_el(base level, base layer)`: for linear and
//!   the legacy tilings the base layer (or Gfx9+ 3D slice) is already folded into `y`;
//!   for Yf/Ys/Tile64, z is isl's z offset (the view's base slice plus the mip-tail z)
//!   plus its array offset (the view's base layer; for a multisampled surface the
//!   physical slot `base_layer * samples`). For GFX4_3D (3D before Gfx9) x/y is
//!   the origin of slice 0 of the level and z the view's base slice, so that views
//!   starting at a slice other than 0 stay correct (equal to Mesa's for base slice 0).
//! - **SIZE** is Mesa's, except that a 3D view's z is the view's slice count (Mesa uses
//!   `minify(d, l)`, the same for a view of the whole level).
//! - **STRIDE.z/w, TILING.z** place slice/layer `z'` Mesa's way: `x' += (z' mod
//!   2^TILING.z) * STRIDE.z`, `y' += (z' >> TILING.z) * STRIDE.w`. GFX4_3D:
//!   `(align(w_l, halign), align(h_l, valign))` with `TILING.z` = level; arrays, cubes and
//!   Gfx9+ 3D: `(0, qpitch)` with `TILING.z = 0`; 3D surfaces whose tile has depth (Yf,
//!   Ys, Tile64) and multisampled surfaces whose tile holds several samples (SKL/ICL
//!   Ys, Tile64) carry `z'` in the R fields and the slab term instead, so there
//!   `STRIDE.z = STRIDE.w = 0`.
//! - **TILING.x/y** are Mesa's for linear `(0, 0)`, X `(log2(512/cpp), 3)` and Y
//!   `(log2(16/cpp), 5)`; for the other tilings `log2(tile width / cpp)` and
//!   `log2(tile height)`, informational only.
//! - **SWIZZLING** is Mesa's: X `(3, 4)`, Y `(3, 0xff)` when bit-6 swizzling is on, else
//!   `(0xff, 0xff)`.
//! - **TILE**: `row_shift = log2(tile height)` (0 for linear), `tile_row_stride_B` =
//!   bytes per row of tiles (`row_pitch_B * phys_height`; the pitch for linear);
//!   `slab_shift = log2(tile depth)` and `slab_stride_B = (qpitch / tile height) *
//!   tile_row_stride_B` for 3D Yf/Ys/Tile64; for a multisampled surface whose tile
//!   holds `a > 1` samples `slab_shift = log2(a)` and the same `slab_stride_B` (one
//!   qpitch per `a` physical slots); else 0.
//! - **BASE**: `row_base_B` = the contribution of `y' = OFFSET.y` alone (its V fields
//!   plus its row term; no x, z or swizzle), so a 1D view without layers may compute
//!   `a = row_base_B + U-fields(x' * cpp)` and skip the y math (U and V fields never
//!   share address bits). The base
//!   address is 0 from the fill functions; drivers and executors set it with
//!   [`ImageParam::set_base_address`]. `tile_mode` is [`Tiling::tile_mode`]: 0 linear, 1
//!   X, 2 Y, 3 W, 4 Yf, 5 Ys, 6 Tile4, 7 Tile64.
//! - **SAMPLES** is the surface's sample count (1 for every single-sampled surface and
//!   for buffers, 0 for an unbound image), what `image_samples` returns. A multisampled
//!   surface (isl's array layout, [`crate::msaa`]) keeps sample `s` of layer `l` in
//!   physical array slot `l * samples + s`; the view stays in logical layers, so `SIZE.z`
//!   counts logical layers and `OFFSET` is the origin of slot `base_layer * samples`.
//!   The shader passes `z = l * SAMPLES.x + s` to the formula below, so `z'` is the
//!   physical slot `p`. For Y (one sample per tile) `p` is folded into rows like an
//!   array layer (`STRIDE.w = qpitch`). A tile that holds `a > 1` samples (SKL/ICL Ys,
//!   Tile64 on Gfx12.5 and Xe2; isl's `isl_tiling_get_info` MSAA tiles) keeps sample
//!   `p % a` inside the tile and puts slot group `p / a` one qpitch further per group
//!   (`samples` is always a multiple of `a`): exactly the shape of a 3D tile with depth,
//!   so the block holds the tile's S fields in the R slots, `slab_shift = log2(a)`,
//!   `slab_stride_B = (qpitch / tile height) * tile_row_stride_B` and `STRIDE.w = 0`.
//!   Every tiling isl gives multisampled surfaces ([`multisampled_tilings`]) is
//!   described.
//! - **Fields** (see [`TileInfo::address_fields`](crate::TileInfo::address_fields)):
//!   bits `[src, src + width)` of the coordinate go to address bits `[dst, dst + width)`.
//!   U takes the byte column `x' * cpp` and its last field is the tile column; V takes
//!   the row `y'`; R takes `z'`, whose in-tile bits are the 3D slice of a tile with
//!   depth, or the in-tile sample of a multisampled surface whose tile holds several
//!   samples (empty otherwise). Unused fields are
//!   `(0, 0, 0)`: NIR's `bitfield_insert` returns the base when `bits == 0`.
//!
//! # The address formula
//!
//! With the coordinates of the access (`z` = layer for arrays and cubes, slice for 3D,
//! `layer * SAMPLES.x + sample` for multisampled images; a 1D array passes `(x, 0,
//! layer)`; missing coordinates are 0), all in `u32` with NIR
//! semantics (`ushr` masks its shift with 31, `ubfe` with 0 bits is 0):
//!
//! ```text
//! x' = x + OFFSET.x ; y' = y + OFFSET.y ; z' = z + OFFSET.z
//! x' += ubfe(z', 0, TILING.z) * STRIDE.z
//! y' += (z' >> TILING.z) * STRIDE.w
//! xB = x' * STRIDE.x
//! a  = 0
//! a  = bitfield_insert(a, xB >> f.src, f.dst, f.width)   for each U field f
//! a  = bitfield_insert(a, y' >> f.src, f.dst, f.width)   for each V field f
//! a  = bitfield_insert(a, z' >> f.src, f.dst, f.width)   for each R field f
//! a += (y' >> row_shift) * tile_row_stride_B
//! a += (z' >> slab_shift) * slab_stride_B
//! a ^= ((a >> SWIZZLING.x) ^ (a >> SWIZZLING.y)) & 64
//! ```
//!
//! `a` is the byte offset from the surface base ([`ImageParam::texel_address`] evaluates
//! exactly this); it equals [`Surface::texel_offset`] for every in-range coordinate of the
//! view, modulo 2^32 (exact for surfaces below 4 GiB). With `(0xff, 0xff)` the last line
//! XORs `(a >> 31) ^ (a >> 31) = 0`, and for Y `(a >> 31) & 64` is 0, so the swizzle step
//! can be emitted unconditionally.
//!
//! Mesa's own formula (`docs/hardware/mesa-storage-images.md` §6) over slots 0–4 is correct for linear,
//! X and Y only; the crate's tests model it to check that these slots hold what Mesa reads.
//!
//! ## Why layers are folded into rows
//!
//! An array layer (or a Gfx9+ 3D slice) is `qpitch` rows below the previous one, and the
//! layer is added to `y'` before the tiling bits are taken. Adding `layer * qpitch *
//! row_pitch_B` after tiling instead would be wrong whenever qpitch is not a multiple of
//! the tile height, which is the common case for Y and Tile4 (a 2D array of 16-row images
//! with VALIGN 4 has qpitch 16, half a Y tile). The slab term is used only where qpitch
//! is a whole number of tiles and the slice has in-tile bits: 3D Yf, Ys and Tile64, and
//! the multisampled Ys and Tile64 surfaces whose tile holds samples (isl aligns their
//! images to the tile, so qpitch is whole tiles there too).

use std::fmt;

use crate::dim::{minify, SurfDim};
use crate::dim_layout::DimLayout;
use crate::format::Format;
use crate::generation::Gen;
use crate::surface::Surface;
use crate::swizzle::{swizzle_applies, Bit6Swizzle};
use crate::tile::{Coord, Field, TileInfo, Tiling};
use crate::tiling_filter::allowed_tilings;
use crate::usage::Usage;

/// Slot indices (vec4 units) of the parameter block.
pub mod slot {
    /// Image origin: x elements, y rows, extra z.
    pub const OFFSET: u32 = 0;
    /// Image size in x, y, z.
    pub const SIZE: u32 = 1;
    /// cpp, pitch in elements, slice strides.
    pub const STRIDE: u32 = 2;
    /// log2 tile extents (Mesa's), log2 slices per row.
    pub const TILING: u32 = 3;
    /// Bit-6 swizzle shifts.
    pub const SWIZZLING: u32 = 4;
    /// `row_shift`, `tile_row_stride_B`, `slab_shift`, `slab_stride_B`.
    pub const TILE: u32 = 5;
    /// `row_base_B`, base address low, base address high, `tile_mode`.
    pub const BASE: u32 = 6;
    /// The surface's sample count in x (y, z, w are 0).
    pub const SAMPLES: u32 = 7;
    /// First of the U (byte column) fields.
    pub const U_FIELDS: u32 = 8;
    /// First of the V (row) fields.
    pub const V_FIELDS: u32 = 16;
    /// First of the R fields (3D slice, or in-tile sample of a multisampled surface).
    pub const R_FIELDS: u32 = 24;
    /// Field slots per coordinate.
    pub const FIELDS_PER_AXIS: u32 = 8;
    /// Slots in the block.
    pub const COUNT: u32 = 32;
}

/// Dwords in the block.
pub const DWORDS: usize = (slot::COUNT * 4) as usize;

/// The `SWIZZLING` shift meaning "no swizzle" (acts as 31 after NIR's shift masking).
pub const SWIZZLE_NONE: u32 = 0xff;

/// The part of an image a shader sees: isl's `isl_view` restricted to what the parameter
/// block uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageView {
    /// The single level the view exposes.
    pub base_level: u32,
    /// First array layer (cube face; 3D slice for 3D views).
    pub base_layer: u32,
    /// Layers (3D: slices) in the view.
    pub layer_count: u32,
    /// The view format; must have the surface format's element size.
    pub format: Format,
}

impl ImageView {
    /// A view of all layers (or all slices) of `level`, in the surface's format.
    pub fn level(surface: &Surface, level: u32) -> ImageView {
        ImageView {
            base_level: level,
            base_layer: 0,
            layer_count: if surface.dim() == SurfDim::D3 {
                minify(surface.desc().depth, level)
            } else {
                surface.array_len()
            },
            format: surface.format(),
        }
    }
}

/// Why a parameter block cannot be filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// The view's level is not in the surface.
    LevelOutOfRange {
        /// The view's base level.
        level: u32,
        /// The surface's level count.
        levels: u32,
    },
    /// The view's layers (3D: slices) are not all in the surface (or there are none).
    LayersOutOfRange {
        /// First layer.
        base: u32,
        /// Layer count.
        count: u32,
        /// Layers (3D: slices of the level) the surface has.
        available: u32,
    },
    /// The view format's element size differs from the surface's.
    FormatSizeMismatch {
        /// The surface format.
        surface: Format,
        /// The view format.
        view: Format,
    },
    /// Compressed surfaces and views cannot be addressed per texel by a shader.
    Compressed {
        /// The compressed format.
        format: Format,
    },
    /// Bit-6 swizzling was requested where it does not exist (Gfx8+) or is not described
    /// (W).
    SwizzleUnsupported {
        /// The generation.
        gen: Gen,
        /// The tiling.
        tiling: Tiling,
    },
    /// The tile needs more `bitfield_insert` steps for one coordinate than the block has
    /// field slots ([`slot::FIELDS_PER_AXIS`]). No tile the crate knows needs more than
    /// 6 (the tests check every tiling, element size and sample count); this is returned
    /// instead of silently dropping a field, which would address the wrong bytes.
    TooManyFields {
        /// The tiling.
        tiling: Tiling,
        /// The coordinate the fields take: U, V, or the one the R slots carry (R for 3D
        /// slices, S for in-tile samples).
        coord: Coord,
        /// Fields the tile needs.
        fields: u32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::LevelOutOfRange { level, levels } => {
                write!(f, "view level {level} out of range (surface has {levels})")
            }
            ParamError::LayersOutOfRange {
                base,
                count,
                available,
            } => write!(
                f,
                "view layers {base}..{} out of range (surface has {available})",
                *base as u64 + *count as u64
            ),
            ParamError::FormatSizeMismatch { surface, view } => write!(
                f,
                "view format {view} ({} bits) does not match surface format {surface} ({} \
                 bits)",
                view.bpb(),
                surface.bpb()
            ),
            ParamError::Compressed { format } => write!(
                f,
                "compressed format {format} cannot be addressed per texel by a shader"
            ),
            ParamError::SwizzleUnsupported { gen, tiling } => write!(
                f,
                "bit-6 swizzling of {tiling} surfaces on {gen} is not supported (it exists \
                 for X and Y surfaces before Gfx8 only)"
            ),
            ParamError::TooManyFields {
                tiling,
                coord,
                fields,
            } => write!(
                f,
                "{tiling} needs {fields} fields for coordinate {}, more than the {} slots \
                 of the parameter block",
                coord.letter(),
                slot::FIELDS_PER_AXIS
            ),
        }
    }
}

impl std::error::Error for ParamError {}

/// The parameter block, with named fields. [`ImageParam::to_dwords`] gives the memory
/// image.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct ImageParam {
    /// Slot 0.
    pub offset: [u32; 3],
    /// Slot 1.
    pub size: [u32; 3],
    /// Slot 2.
    pub stride: [u32; 4],
    /// Slot 3.
    pub tiling: [u32; 3],
    /// Slot 4.
    pub swizzling: [u32; 2],
    /// Slot 5.x: `log2(tile height)`.
    pub row_shift: u32,
    /// Slot 5.y: bytes per row of tiles.
    pub tile_row_stride_B: u32,
    /// Slot 5.z: `log2(tile depth)`, or `log2(samples per tile)` for a multisampled
    /// surface whose tile holds several samples.
    pub slab_shift: u32,
    /// Slot 5.w: bytes between slabs (tile depth of 3D slices, or tile samples of
    /// multisampled slots).
    pub slab_stride_B: u32,
    /// Slot 6.x: the address contribution of `OFFSET.y` alone.
    pub row_base_B: u32,
    /// Slot 6.y/z: the surface's GPU address (0 until set).
    pub base_address: u64,
    /// Slot 6.w: [`Tiling::tile_mode`].
    pub tile_mode: u32,
    /// Slot 7.x: samples per pixel (1 for single-sampled surfaces and buffers, 0
    /// unbound).
    pub samples: u32,
    /// Slots 8–15.
    pub u_fields: [Field; 8],
    /// Slots 16–23.
    pub v_fields: [Field; 8],
    /// Slots 24–31.
    pub r_fields: [Field; 8],
}

impl Default for ImageParam {
    fn default() -> ImageParam {
        ImageParam::unbound()
    }
}

// NIR ALU semantics (nir_opcodes.py).
pub(crate) fn ushr(v: u32, s: u32) -> u32 {
    v >> (s & 31)
}

pub(crate) fn ubfe(v: u32, offset: u32, bits: u32) -> u32 {
    let (offset, bits) = (offset & 31, bits & 31);
    if bits == 0 {
        0
    } else if offset + bits < 32 {
        (v << (32 - bits - offset)) >> (32 - bits)
    } else {
        v >> offset
    }
}

fn bitfield_insert(base: u32, insert: u32, offset: u32, bits: u32) -> u32 {
    if bits == 0 {
        base
    } else if offset + bits > 32 {
        0
    } else {
        let mask = (((1u64 << bits) - 1) << offset) as u32;
        (base & !mask) | ((insert << offset) & mask)
    }
}

/// The `axis` fields of `t` in the block's eight slots, or [`ParamError::TooManyFields`]
/// when they do not fit (never for the crate's tiles; see the variant).
fn fields_of(t: &TileInfo, axis: Coord) -> Result<[Field; 8], ParamError> {
    let fields = t.address_fields(axis);
    let mut out = [Field::default(); 8];
    if fields.len() > out.len() {
        return Err(ParamError::TooManyFields {
            tiling: t.tiling(),
            coord: axis,
            fields: fields.len() as u32,
        });
    }
    out[..fields.len()].copy_from_slice(&fields);
    Ok(out)
}

/// What the R field slots and the slab term of the formula carry for a surface of
/// dimensionality `dim` with tile `t`: the tile coordinate and `log2` of its extent in
/// the tile (the `slab_shift`), or `None` when `z'` only reaches whole rows of tiles.
///
/// - A multisampled surface whose tile holds `a > 1` samples (SKL/ICL Ys, Tile64):
///   physical slot `p` keeps sample bits `p % a` in the tile and sits `p / a` qpitch
///   steps down (isl's `isl_tiling_get_info` gives the MSAA tile its `a`, and the
///   generic address of docs/hardware/surface-layout.md §4 puts array slot `a` at tile
///   row `a / tile_a` and in-tile sample `a % tile_a`), so the S fields take `p` and
///   the slabs are groups of `a` slots.
/// - A 3D surface whose tile has depth `d > 1` (Yf, Ys, Tile64): the R fields take
///   `z % d` and the slabs are groups of `d` slices.
///
/// MSAA surfaces are 2D only, so the two never meet.
pub(crate) fn z_in_tile(t: &TileInfo, dim: SurfDim) -> Option<(Coord, u32)> {
    let e = t.logical_extent_el();
    if e.a > 1 {
        Some((Coord::S, e.a.trailing_zeros()))
    } else if dim == SurfDim::D3 && e.d > 1 {
        Some((Coord::R, t.slab_shift()))
    } else {
        None
    }
}

/// `floor(log2(n))`, isl's `isl_log2u` (0 for 0).
fn log2_floor(n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        31 - n.leading_zeros()
    }
}

impl ImageParam {
    /// The block of an unbound image: all zero except `SWIZZLING = (0xff, 0xff)`, so
    /// `SIZE = 0` makes every bounds check fail.
    pub fn unbound() -> ImageParam {
        ImageParam {
            offset: [0; 3],
            size: [0; 3],
            stride: [0; 4],
            tiling: [0; 3],
            swizzling: [SWIZZLE_NONE; 2],
            row_shift: 0,
            tile_row_stride_B: 0,
            slab_shift: 0,
            slab_stride_B: 0,
            row_base_B: 0,
            base_address: 0,
            tile_mode: 0,
            samples: 0,
            u_fields: [Field::default(); 8],
            v_fields: [Field::default(); 8],
            r_fields: [Field::default(); 8],
        }
    }

    /// Sets the surface's GPU address (slot 6.y/z).
    pub fn set_base_address(&mut self, address: u64) {
        self.base_address = address;
    }

    /// The four dwords of vec4 slot `s` (zeros past the block).
    pub fn slot(&self, s: u32) -> [u32; 4] {
        let f = |f: &Field| [f.src_shift, f.dst_shift, f.width, 0];
        let n = slot::FIELDS_PER_AXIS;
        match s {
            slot::OFFSET => [self.offset[0], self.offset[1], self.offset[2], 0],
            slot::SIZE => [self.size[0], self.size[1], self.size[2], 0],
            slot::STRIDE => self.stride,
            slot::TILING => [self.tiling[0], self.tiling[1], self.tiling[2], 0],
            slot::SWIZZLING => [self.swizzling[0], self.swizzling[1], 0, 0],
            slot::TILE => [
                self.row_shift,
                self.tile_row_stride_B,
                self.slab_shift,
                self.slab_stride_B,
            ],
            slot::BASE => [
                self.row_base_B,
                self.base_address as u32,
                (self.base_address >> 32) as u32,
                self.tile_mode,
            ],
            slot::SAMPLES => [self.samples, 0, 0, 0],
            s if (slot::U_FIELDS..slot::U_FIELDS + n).contains(&s) => {
                f(&self.u_fields[(s - slot::U_FIELDS) as usize])
            }
            s if (slot::V_FIELDS..slot::V_FIELDS + n).contains(&s) => {
                f(&self.v_fields[(s - slot::V_FIELDS) as usize])
            }
            s if (slot::R_FIELDS..slot::R_FIELDS + n).contains(&s) => {
                f(&self.r_fields[(s - slot::R_FIELDS) as usize])
            }
            _ => [0; 4],
        }
    }

    /// The block as stored in memory: slot `s` lane `c` at dword `4 * s + c`.
    pub fn to_dwords(&self) -> [u32; DWORDS] {
        let mut d = [0u32; DWORDS];
        for s in 0..slot::COUNT {
            let v = self.slot(s);
            d[(4 * s) as usize..(4 * s + 4) as usize].copy_from_slice(&v);
        }
        d
    }

    /// Reads a block back from its memory image (the inverse of
    /// [`to_dwords`](Self::to_dwords); unused lanes are ignored). The tests check the
    /// round trip; shaders and the executor read the dwords directly.
    #[cfg(test)]
    pub(crate) fn from_dwords(d: &[u32; DWORDS]) -> ImageParam {
        let s = |i: u32| -> [u32; 4] {
            let b = (4 * i) as usize;
            [d[b], d[b + 1], d[b + 2], d[b + 3]]
        };
        let fields = |first: u32| {
            let mut out = [Field::default(); 8];
            for (i, f) in out.iter_mut().enumerate() {
                let v = s(first + i as u32);
                *f = Field {
                    src_shift: v[0],
                    dst_shift: v[1],
                    width: v[2],
                };
            }
            out
        };
        let samples = s(slot::SAMPLES)[0];
        let (o, sz, st, ti, sw, tl, ba) = (
            s(slot::OFFSET),
            s(slot::SIZE),
            s(slot::STRIDE),
            s(slot::TILING),
            s(slot::SWIZZLING),
            s(slot::TILE),
            s(slot::BASE),
        );
        ImageParam {
            offset: [o[0], o[1], o[2]],
            size: [sz[0], sz[1], sz[2]],
            stride: st,
            tiling: [ti[0], ti[1], ti[2]],
            swizzling: [sw[0], sw[1]],
            row_shift: tl[0],
            tile_row_stride_B: tl[1],
            slab_shift: tl[2],
            slab_stride_B: tl[3],
            row_base_B: ba[0],
            base_address: ba[1] as u64 | (ba[2] as u64) << 32,
            tile_mode: ba[3],
            samples,
            u_fields: fields(slot::U_FIELDS),
            v_fields: fields(slot::V_FIELDS),
            r_fields: fields(slot::R_FIELDS),
        }
    }

    /// The field formula of the module docs: byte offset from the surface base of
    /// coordinates `(x, y, z)` of the view (`z` = layer for arrays and cubes, slice for
    /// 3D, `layer * samples + sample` for multisampled views; 1D arrays pass `(x, 0,
    /// layer)`; absent coordinates 0). No bounds check.
    pub fn texel_address(&self, x: u32, y: u32, z: u32) -> u32 {
        let z = z.wrapping_add(self.offset[2]);
        let x = x
            .wrapping_add(self.offset[0])
            .wrapping_add(ubfe(z, 0, self.tiling[2]).wrapping_mul(self.stride[2]));
        let y = y
            .wrapping_add(self.offset[1])
            .wrapping_add(ushr(z, self.tiling[2]).wrapping_mul(self.stride[3]));
        let xb = x.wrapping_mul(self.stride[0]);
        let mut a = 0u32;
        for (fields, c) in [
            (&self.u_fields, xb),
            (&self.v_fields, y),
            (&self.r_fields, z),
        ] {
            for f in fields {
                a = bitfield_insert(a, ushr(c, f.src_shift), f.dst_shift, f.width);
            }
        }
        a = a.wrapping_add(ushr(y, self.row_shift).wrapping_mul(self.tile_row_stride_B));
        a = a.wrapping_add(ushr(z, self.slab_shift).wrapping_mul(self.slab_stride_B));
        a ^ ((ushr(a, self.swizzling[0]) ^ ushr(a, self.swizzling[1])) & 64)
    }

    /// Mesa's bounds check, unsigned: every coordinate below the matching `SIZE` lane
    /// (`coords` in NIR's form: a 1D array is `(x, layer)`, a cube `(x, y, face)`, a
    /// multisampled array `(x, y, layer)`, with the sample checked against `samples`
    /// separately).
    pub fn in_bounds(&self, coords: &[u32]) -> bool {
        coords.iter().zip(self.size).all(|(&c, s)| c < s)
    }
}

/// Fills the parameter block of `view` of `surface` (Mesa's `isl_surf_fill_image_param`
/// for slots 0–4, plus the extension slots; see the module docs). `bit6_swizzle` is the
/// device's swizzling (Mesa's `has_bit6_swizzling`), only valid before Gfx8 and for
/// linear, X and Y surfaces. The view's layers are logical layers; a multisampled
/// view is addressed with `z = layer * SAMPLES.x + sample`, for every tiling isl gives
/// multisampled surfaces ([`multisampled_tilings`]).
pub fn fill_image_param(
    surface: &Surface,
    view: &ImageView,
    bit6_swizzle: Bit6Swizzle,
) -> Result<ImageParam, ParamError> {
    let gen = surface.gen();
    let tiling = surface.tiling();
    let fmt = surface.format();
    for f in [fmt, view.format] {
        if f.is_compressed() {
            return Err(ParamError::Compressed { format: f });
        }
    }
    if view.format.bpb() != fmt.bpb() {
        return Err(ParamError::FormatSizeMismatch {
            surface: fmt,
            view: view.format,
        });
    }
    let level = view.base_level;
    if level >= surface.levels() {
        return Err(ParamError::LevelOutOfRange {
            level,
            levels: surface.levels(),
        });
    }
    let dim = surface.dim();
    let available = if dim == SurfDim::D3 {
        minify(surface.desc().depth, level)
    } else {
        surface.array_len()
    };
    if view.layer_count == 0 || view.base_layer as u64 + view.layer_count as u64 > available as u64
    {
        return Err(ParamError::LayersOutOfRange {
            base: view.base_layer,
            count: view.layer_count,
            available,
        });
    }
    if bit6_swizzle.is_enabled() && (gen.ver() >= 8 || swizzle_applies(tiling).is_none()) {
        return Err(ParamError::SwizzleUnsupported { gen, tiling });
    }
    let samples = surface.samples();
    let tile = surface.tile_info();
    // The coordinate the R fields and slabs carry, if any: the in-tile sample of a
    // multisampled surface whose tile holds several samples, or the in-tile slice of a
    // 3D tile with depth.
    let in_tile = z_in_tile(tile, surface.dim());

    let mut p = ImageParam::unbound();
    let d = surface.desc();
    p.size = [
        minify(d.width, level),
        if dim == SurfDim::D1 {
            view.layer_count
        } else {
            minify(d.height, level)
        },
        match dim {
            SurfDim::D1 => 1,
            _ => view.layer_count,
        },
    ];

    let gfx4_3d = surface.dim_layout() == DimLayout::GFX4_3D;
    let slabs = in_tile.is_some();
    // The ranges were checked above, so the image exists. A multisampled view starts at
    // sample 0 of its base layer, physical slot base_layer * samples (MSAA surfaces are
    // 2D, never GFX4_3D); the product is below the surface's physical slot count. For
    // the standard tilings the slot comes back as isl's array offset and goes to
    // OFFSET.z, so z' = z + OFFSET.z is the physical slot itself, whose low bits are
    // the in-tile sample when the tile holds samples.
    let first = if gfx4_3d {
        0
    } else {
        view.base_layer * samples
    };
    let o = surface
        .image_offset_el(level, first)
        .map_err(|_| ParamError::LevelOutOfRange {
            level,
            levels: surface.levels(),
        })?;
    p.offset = [
        o.x_el,
        o.y_el,
        if gfx4_3d {
            view.base_layer
        } else {
            o.z_el + o.array_offset
        },
    ];

    let cpp = fmt.cpp();
    let pitch = surface.row_pitch_B();
    let al = surface.image_alignment_el();
    p.stride = [cpp, pitch / cpp, 0, surface.array_pitch_el_rows()];
    if gfx4_3d {
        let e = surface.level_extent_el(level);
        p.stride[2] = e.w.next_multiple_of(al.w);
        p.stride[3] = e.h.next_multiple_of(al.h);
    } else if slabs {
        p.stride[3] = 0;
    }

    let t = tile.logical_extent_el();
    p.tiling = match tiling {
        Tiling::Linear => [0, 0, 0],
        Tiling::X => [log2_floor(512 / cpp), 3, 0],
        // Mesa treats a Y tile as 16 B x 32 "narrow X tiles".
        Tiling::Y => [log2_floor(16 / cpp), 5, 0],
        _ => [log2_floor(tile.logical_width_B() / cpp), log2_floor(t.h), 0],
    };
    if gfx4_3d {
        p.tiling[2] = level;
    }
    if bit6_swizzle.is_enabled() {
        p.swizzling = match tiling {
            Tiling::X => [3, 4],
            Tiling::Y => [3, SWIZZLE_NONE],
            _ => [SWIZZLE_NONE; 2],
        };
    }

    p.row_shift = tile.row_shift();
    p.tile_row_stride_B = pitch.wrapping_mul(tile.phys_height());
    p.u_fields = fields_of(tile, Coord::U)?;
    p.v_fields = fields_of(tile, Coord::V)?;
    if let Some((coord, shift)) = in_tile {
        // One slab (t.d slices, or t.a sample slots) per qpitch: isl aligns the images
        // of these tilings to the tile, so qpitch is a whole number of tile rows.
        p.slab_shift = shift;
        p.slab_stride_B = (surface.array_pitch_el_rows() / t.h).wrapping_mul(p.tile_row_stride_B);
        p.r_fields = fields_of(tile, coord)?;
    }
    p.tile_mode = tiling.tile_mode();
    p.samples = samples;

    let mut row = 0u32;
    for f in &p.v_fields {
        row = bitfield_insert(row, ushr(p.offset[1], f.src_shift), f.dst_shift, f.width);
    }
    p.row_base_B =
        row.wrapping_add(ushr(p.offset[1], p.row_shift).wrapping_mul(p.tile_row_stride_B));
    Ok(p)
}

/// The block of a buffer image of `size_bytes` bytes (Mesa's
/// `isl_buffer_fill_image_param`): the defaults plus `STRIDE.x = cpp` and `SIZE.x =
/// size_bytes / cpp` (saturated to `u32::MAX`), with the fields of a linear buffer (one U
/// field `(0, 0, 32)`), so the formula gives `x * cpp`.
pub fn fill_buffer_image_param(format: Format, size_bytes: u64) -> ImageParam {
    let mut p = ImageParam::unbound();
    let cpp = format.cpp();
    p.stride[0] = cpp;
    p.size[0] = (size_bytes / cpp as u64).min(u32::MAX as u64) as u32;
    p.u_fields[0] = Field {
        src_shift: 0,
        dst_shift: 0,
        width: 32,
    };
    p.tile_mode = Tiling::Linear.tile_mode();
    // A texel buffer is single-sampled.
    p.samples = 1;
    p
}

/// The tilings a storage image of this format and dimensionality may have on `gen`
/// (isl's filters with `ISL_SURF_USAGE_STORAGE_BIT`; cubes are 2D).
pub fn storage_tilings(gen: Gen, format: Format, dim: SurfDim) -> Vec<Tiling> {
    allowed_tilings(gen, format, dim, Usage::STORAGE, 1)
}

/// The tilings a multisampled 2D colour storage image of `format` with `samples`
/// samples may have on `gen`, in [`Tiling::ALL`] order; empty when isl would not lay
/// such a surface out in its array MSAA layout at all (Gfx6 and older, a sample count
/// the generation lacks, a format that cannot be multisampled: see
/// [`MsaaRefusal`](crate::MsaaRefusal)). With `samples == 1` this is
/// [`storage_tilings`]`(gen, format, SurfDim::D2)`.
///
/// isl's filters give:
/// - Gfx7–8: Y. The Gfx6+ filter of isl_gfx7.c drops linear and X for multisampled
///   surfaces (the PRM requires tiled MSAA surfaces, and W is only for stencil);
/// - Gfx9–12: Y and Ys. The same filter also drops Yf for multisampled surfaces
///   ("isl does not use Yf for compressed, multisampled or 3D surfaces");
/// - Gfx12.5 and Xe2: Tile64 only. isl_gfx12.c's Gfx12.5 filter (and the Xe2 filter of
///   isl_gfx20.c) keep only Tile64 when `samples > 1`, citing RENDER_SURFACE_STATE's
///   Number of Multisamples ("must not be programmed to anything other than
///   MULTISAMPLECOUNT_1 unless the Tile Mode field is programmed to Tile64"); Tile64
///   does not exist for 24/48/96-bit formats, which then have none.
pub fn multisampled_tilings(gen: Gen, format: Format, samples: u32) -> Vec<Tiling> {
    let usage = Usage::STORAGE;
    if crate::msaa::refusal(gen, SurfDim::D2, format, usage, 1, samples).is_some() {
        return Vec::new();
    }
    allowed_tilings(gen, format, SurfDim::D2, usage, samples)
}

/// The largest number of U, V and R fields over a set of tilings: how many
/// `bitfield_insert` steps per coordinate a shader needs when the tiling is only known at
/// run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldCounts {
    /// U (byte column) fields, tile column included.
    pub u: u32,
    /// V (row) fields.
    pub v: u32,
    /// R fields: the in-tile slice of a 3D tile with depth, or the in-tile sample of a
    /// multisampled surface whose tile holds several samples; else 0.
    pub r: u32,
}

/// [`FieldCounts`] over `tilings` for surfaces of `dim` with `samples` samples.
fn field_counts(
    gen: Gen,
    format: Format,
    dim: SurfDim,
    samples: u32,
    tilings: Vec<Tiling>,
) -> FieldCounts {
    let mut c = FieldCounts::default();
    for t in tilings {
        let Ok(tile) = TileInfo::new(t, gen, dim, format.bpb(), samples) else {
            continue;
        };
        c.u = c.u.max(tile.address_fields(Coord::U).len() as u32);
        c.v = c.v.max(tile.address_fields(Coord::V).len() as u32);
        if let Some((coord, _)) = z_in_tile(&tile, dim) {
            c.r = c.r.max(tile.address_fields(coord).len() as u32);
        }
    }
    c
}

/// [`FieldCounts`] over [`storage_tilings`]`(gen, format, dim)` (single-sampled
/// surfaces; see [`max_multisampled_address_fields`] for multisampled ones).
pub fn max_address_fields(gen: Gen, format: Format, dim: SurfDim) -> FieldCounts {
    field_counts(gen, format, dim, 1, storage_tilings(gen, format, dim))
}

/// [`FieldCounts`] over [`multisampled_tilings`]`(gen, format, samples)`, with the
/// tiles of that sample count: `r` counts the in-tile sample fields of the tiles that
/// hold several samples (SKL/ICL Ys, Tile64). All zero when there is no such tiling.
pub fn max_multisampled_address_fields(gen: Gen, format: Format, samples: u32) -> FieldCounts {
    field_counts(
        gen,
        format,
        SurfDim::D2,
        samples,
        multisampled_tilings(gen, format, samples),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nir_helpers() {
        assert_eq!(ushr(0x8000_0000, 0xff), 1);
        assert_eq!(ubfe(0xabcd, 4, 0), 0);
        assert_eq!(ubfe(0xabcd, 4, 8), 0xbc);
        assert_eq!(ubfe(0xabcd_0000, 16, 16), 0xabcd);
        assert_eq!(bitfield_insert(0xffff_ffff, 0, 4, 0), 0xffff_ffff);
        assert_eq!(bitfield_insert(0, 0x1234_5678, 0, 32), 0x1234_5678);
        assert_eq!(bitfield_insert(0xf0, 0x3, 8, 2), 0x3f0);
        assert_eq!(bitfield_insert(0, 1, 31, 2), 0);
    }

    #[test]
    fn dwords_round_trip_and_unbound_defaults() {
        let mut p = fill_buffer_image_param(Format::R32G32B32A32_FLOAT, 4096);
        p.set_base_address(0x1234_5678_9abc);
        let d = p.to_dwords();
        assert_eq!(ImageParam::from_dwords(&d), p);
        assert_eq!(d[4 * slot::STRIDE as usize], 16);
        assert_eq!(d[4 * slot::SIZE as usize], 256);
        assert_eq!(d[4 * slot::BASE as usize + 1], 0x5678_9abc);
        assert_eq!(d[4 * slot::BASE as usize + 2], 0x1234);
        let u = ImageParam::unbound();
        assert_eq!(u.swizzling, [0xff, 0xff]);
        assert!(!u.in_bounds(&[0]));
    }
}
