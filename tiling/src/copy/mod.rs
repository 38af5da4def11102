//! Copies between a linear buffer and one image of a tiled surface: what Mesa's
//! `isl_memcpy_linear_to_tiled` and `isl_memcpy_tiled_to_linear` do, for every tiling the
//! crate lays out (linear, X, Y, W, Yf, Ys, Tile4, Tile64 and its Xe2 variant, 3D slices
//! of tiles with depth), with Mesa's optional bit-6 swizzle.
//!
//! [`copy_linear_to_tiled`] writes a rectangle of one image (one mip level of one array
//! layer, cube face or 3D slice) from a linear buffer into the surface's memory;
//! [`copy_tiled_to_linear`] reads it back. Every byte goes exactly where
//! [`Surface::texel_byte_offset`] says it lives (docs/hardware/surface-layout.md §4, §5, §7.11); bytes
//! outside the rectangle are not touched.
//!
//! - The **tiled buffer** is the surface's memory from its base address. It must hold
//!   every tile the rectangle touches; a buffer of [`Surface::size_B`] always does. The
//!   base is assumed tile-aligned, as the bit-6 swizzle requires.
//! - The **linear buffer** holds the rectangle alone: element `(x, y)` of the rectangle
//!   (relative to its corner) starts at byte `y * linear_pitch_B + x * cpp`, so it needs
//!   `(h_el - 1) * linear_pitch_B + w_el * cpp` bytes and a pitch of at least
//!   `w_el * cpp` bytes.
//! - Rectangles are in elements of the level: compression blocks for compressed formats,
//!   whole 3- or 12-byte elements for the 24/96-bit formats. An empty rectangle copies
//!   nothing.
//!
//! # How it is fast
//!
//! The rectangle is cut into whole tiles and edges. Whole X, Y and Tile4 tiles (and
//! Tile64 2D tiles, sixteen Tile4 blocks each) are moved by fixed kernels that follow
//! docs/hardware/surface-layout.md §5.1 with 16-byte copies (64-byte when swizzling X, 512-byte rows for X)
//! and no per-byte address arithmetic; edges and every other tiling go through a
//! table-driven path that copies each contiguous run of the layout at once.
//! Large copies (at least [`STREAMING_THRESHOLD_B`] bytes, or on request through
//! [`StoreHint`]) write their destination with streaming stores on x86-64, like `memcpy`
//! does for large sizes.
//!
//! ```
//! use tiling::copy::{copy_linear_to_tiled, copy_tiled_to_linear, CopyRegion, Rect};
//! use tiling::{Bit6Swizzle, Format, Gen, SurfDim, Surface, SurfaceDesc, Tiling};
//!
//! let s = Surface::new(
//!     SurfaceDesc::new(Gen::Gfx125, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Tile4)
//!         .extent(100, 60, 1),
//! )?;
//! let mut memory = vec![0u8; s.size_B() as usize];
//! // A 3x2 rectangle at (5, 7), rows 12 bytes apart.
//! let region = CopyRegion::new(0, 0, Rect::new(5, 7, 3, 2));
//! let texels: Vec<u8> = (0..24).collect();
//! copy_linear_to_tiled(&s, &mut memory, &region, &texels, 12)?;
//! // Texel (6, 8) is the fifth of the rectangle: bytes 16..20.
//! let at = s.texel_offset(6, 8, 0, 0, Bit6Swizzle::None)? as usize;
//! assert_eq!(memory[at..at + 4], [16, 17, 18, 19]);
//!
//! let mut back = vec![0u8; 24];
//! copy_tiled_to_linear(&s, &mut back, 12, &region, &memory)?;
//! assert_eq!(back, texels);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chunk;
mod generic;
mod kernels;

use std::fmt;
use std::ops::Range;

use crate::generation::Gen;
use crate::surface::{AddressError, Surface};
use crate::swizzle::{swizzle_applies, Bit6Swizzle};
use crate::tile::{IslTiling, TileInfo, Tiling};

use generic::TiledLayout;

/// Copies of at least this many bytes use streaming stores under [`StoreHint::Auto`]: a
/// copy that size would evict most of a desktop CPU's last-level cache anyway, and
/// streaming stores save the read-for-ownership of every destination line.
#[allow(non_upper_case_globals)]
pub const STREAMING_THRESHOLD_B: u64 = 4 << 20;

/// A rectangle of elements inside one image (a level of a layer or 3D slice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// First column, in elements of the level.
    pub x_el: u32,
    /// First row, in elements of the level.
    pub y_el: u32,
    /// Width in elements.
    pub w_el: u32,
    /// Height in elements (rows).
    pub h_el: u32,
}

impl Rect {
    /// The rectangle at `(x_el, y_el)` of `w_el × h_el` elements.
    pub fn new(x_el: u32, y_el: u32, w_el: u32, h_el: u32) -> Rect {
        Rect {
            x_el,
            y_el,
            w_el,
            h_el,
        }
    }

    /// Whether the rectangle has no element.
    pub fn is_empty(&self) -> bool {
        self.w_el == 0 || self.h_el == 0
    }
}

impl fmt::Display for Rect {
    /// `w×h at (x, y)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{} at ({}, {})",
            self.w_el, self.h_el, self.x_el, self.y_el
        )
    }
}

/// How a copy writes its destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StoreHint {
    /// Streaming stores for copies of at least [`STREAMING_THRESHOLD_B`] bytes, ordinary
    /// stores below.
    #[default]
    Auto,
    /// Always ordinary (cached) stores: the data is about to be read again.
    Cached,
    /// Streaming (non-temporal) stores wherever the destination allows them (16-byte
    /// aligned chunks), e.g. for write-combined GPU mappings. Ignored off x86-64.
    Streaming,
}

/// Which part of a surface a copy reads or writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CopyRegion {
    /// Mip level.
    pub level: u32,
    /// Array layer or cube face, or the 3D slice of the level.
    pub layer_or_z: u32,
    /// The rectangle of the image.
    pub rect: Rect,
    /// Apply Mesa's bit-6 swizzle (X and Y surfaces before Gfx8, on machines whose kernel
    /// reports swizzling; docs/hardware/surface-layout.md §6).
    pub swizzle: Bit6Swizzle,
    /// How to write the destination.
    pub stores: StoreHint,
}

impl CopyRegion {
    /// `rect` of `level`, layer (or 3D slice) `layer_or_z`, unswizzled, with
    /// [`StoreHint::Auto`].
    pub fn new(level: u32, layer_or_z: u32, rect: Rect) -> CopyRegion {
        CopyRegion {
            level,
            layer_or_z,
            rect,
            swizzle: Bit6Swizzle::None,
            stores: StoreHint::Auto,
        }
    }

    /// The whole image of `level`, layer (or 3D slice) `layer_or_z` of `surface`.
    pub fn image(surface: &Surface, level: u32, layer_or_z: u32) -> CopyRegion {
        let e = surface.level_extent_el(level);
        CopyRegion::new(level, layer_or_z, Rect::new(0, 0, e.w, e.h))
    }

    /// The same region with the bit-6 swizzle on or off.
    pub fn with_swizzle(mut self, swizzle: Bit6Swizzle) -> CopyRegion {
        self.swizzle = swizzle;
        self
    }

    /// The same region with another store hint.
    pub fn with_stores(mut self, stores: StoreHint) -> CopyRegion {
        self.stores = stores;
        self
    }
}

/// Why a copy cannot be done. Nothing is written when a copy fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyError {
    /// The level, layer or 3D slice does not exist.
    Image(AddressError),
    /// The rectangle reaches outside the level.
    RectOutOfBounds {
        /// The rectangle.
        rect: Rect,
        /// The level.
        level: u32,
        /// The level's width in elements.
        width_el: u32,
        /// The level's height in elements.
        height_el: u32,
    },
    /// Bit-6 swizzling was requested for a surface that never has it.
    SwizzleUnsupported {
        /// The generation.
        gen: Gen,
        /// The tiling.
        tiling: Tiling,
    },
    /// The linear pitch is smaller than one row of the rectangle.
    LinearPitchTooSmall {
        /// The pitch given, in bytes.
        pitch_b: usize,
        /// Bytes in one row of the rectangle.
        row_b: u64,
    },
    /// The linear buffer is too small for the rectangle at this pitch.
    LinearBufferTooSmall {
        /// Its length in bytes.
        len: usize,
        /// The length needed.
        needed: u64,
    },
    /// The tiled buffer does not hold every tile the rectangle touches.
    TiledBufferTooSmall {
        /// Its length in bytes.
        len: usize,
        /// The length needed.
        needed: u64,
    },
}

impl fmt::Display for CopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CopyError::Image(e) => write!(f, "copy region: {e}"),
            CopyError::RectOutOfBounds {
                rect,
                level,
                width_el,
                height_el,
            } => write!(
                f,
                "copy rectangle {rect} reaches outside level {level} \
                 ({width_el}x{height_el} elements)"
            ),
            CopyError::SwizzleUnsupported { gen, tiling } => write!(
                f,
                "bit-6 swizzled copy of a {tiling} surface on {gen}: swizzling exists for \
                 X and Y surfaces before Gfx8 only"
            ),
            CopyError::LinearPitchTooSmall { pitch_b, row_b } => write!(
                f,
                "linear pitch {pitch_b} B is smaller than a row of the rectangle ({row_b} B)"
            ),
            CopyError::LinearBufferTooSmall { len, needed } => write!(
                f,
                "linear buffer of {len} B is too small: the rectangle needs {needed} B"
            ),
            CopyError::TiledBufferTooSmall { len, needed } => write!(
                f,
                "tiled buffer of {len} B is too small: the rectangle's tiles end at {needed} B"
            ),
        }
    }
}

impl std::error::Error for CopyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CopyError::Image(e) => Some(e),
            _ => None,
        }
    }
}

impl From<AddressError> for CopyError {
    fn from(e: AddressError) -> CopyError {
        CopyError::Image(e)
    }
}

/// Writes `region` of `surface`'s memory `tiled` from `linear`, whose rows are
/// `linear_pitch_B` bytes apart (see the [module documentation](self) for the buffers).
///
/// Fails, writing nothing, when the level or layer does not exist, the rectangle leaves
/// the level, a buffer is too small, the pitch is smaller than a row, or swizzling is
/// requested for a surface that has none.
#[allow(non_snake_case)]
pub fn copy_linear_to_tiled(
    surface: &Surface,
    tiled: &mut [u8],
    region: &CopyRegion,
    linear: &[u8],
    linear_pitch_B: usize,
) -> Result<(), CopyError> {
    let io = Buffers::<true> {
        dst: tiled,
        src: linear,
    };
    copy(surface, region, io, linear_pitch_B)
}

/// Reads `region` of `surface`'s memory `tiled` into `linear`, whose rows are
/// `linear_pitch_B` bytes apart (see the [module documentation](self) for the buffers).
/// Bytes of `linear` between the rectangle's rows are left alone.
///
/// Fails, writing nothing, for the same reasons as [`copy_linear_to_tiled`].
#[allow(non_snake_case)]
pub fn copy_tiled_to_linear(
    surface: &Surface,
    linear: &mut [u8],
    linear_pitch_B: usize,
    region: &CopyRegion,
    tiled: &[u8],
) -> Result<(), CopyError> {
    let io = Buffers::<false> {
        dst: linear,
        src: tiled,
    };
    copy(surface, region, io, linear_pitch_B)
}

/// Validates and plans a copy of `region` between `io`'s buffers, then runs it with
/// streaming stores when [`Plan::streaming`] picks them for the destination.
fn copy<const L2T: bool>(
    surface: &Surface,
    region: &CopyRegion,
    io: Buffers<'_, L2T>,
    linear_pitch_b: usize,
) -> Result<(), CopyError> {
    let (tiled_len, linear_len) = if L2T {
        (io.dst.len(), io.src.len())
    } else {
        (io.src.len(), io.dst.len())
    };
    let plan = Plan::new(surface, region, linear_len, linear_pitch_b, tiled_len)?;
    if plan.streaming(region.stores, io.dst.as_ptr(), L2T) {
        plan.execute::<L2T, true>(io);
        chunk::fence::<true>();
    } else {
        plan.execute::<L2T, false>(io);
    }
    Ok(())
}

/// Whole-tile kernels that apply to a surface.
#[derive(Clone, Debug)]
enum Fast {
    /// Only the table-driven path.
    None,
    /// X tiles, optionally swizzled.
    X { swizzle: bool },
    /// Y tiles, optionally swizzled.
    Y { swizzle: bool },
    /// Tiles made of 4 KB Tile4 blocks (Tile4 itself, Tile64 2D single-sampled): for each
    /// row of blocks, top to bottom, its blocks left to right as (offset in the tile,
    /// byte column and row of the block's origin).
    Tile4Blocks(Vec<Vec<(usize, usize, usize)>>),
}

impl Fast {
    /// The kernels for `tile`; `swizzle` only with X and Y (validated before).
    fn for_tile(tile: &TileInfo, swizzle: bool) -> Fast {
        let e = tile.logical_extent_el();
        match tile.isl_tiling() {
            IslTiling::X => Fast::X { swizzle },
            IslTiling::Y0 => Fast::Y { swizzle },
            IslTiling::Tile4 | IslTiling::Tile64 | IslTiling::Tile64Xe2 if e.d == 1 && e.a == 1 => {
                // The low 12 bits of Tile64's 2D single-sampled patterns are the Tile4
                // pattern (docs/hardware/surface-layout.md §5.5, §5.6): the higher bits only place 4 KB
                // blocks.
                let t4 = TileInfo::from_isl(IslTiling::Tile4, tile.dim(), 32, 1);
                match t4 {
                    Ok(t4) if tile.pattern()[..12] == *t4.pattern() => {
                        let mut blocks: Vec<(usize, usize, usize)> = (0..tile.size_B() >> 12)
                            .map(|b| {
                                let (u, v, _, _) = tile.intra_tile_coords(b << 12);
                                ((b as usize) << 12, u as usize, v as usize)
                            })
                            .collect();
                        blocks.sort_by_key(|&(_, u, v)| (v, u));
                        let rows = blocks
                            .chunk_by(|a, b| a.2 == b.2)
                            .map(|r| r.to_vec())
                            .collect();
                        Fast::Tile4Blocks(rows)
                    }
                    _ => Fast::None,
                }
            }
            _ => Fast::None,
        }
    }
}

/// The surface side of a copy.
#[derive(Clone, Debug)]
enum Side {
    /// Rows of a linear surface.
    Linear { pitch: usize },
    /// Tiles.
    Tiled { layout: TiledLayout, fast: Fast },
}

/// A validated copy: the rectangle as byte columns × rows of the surface's plane (image
/// origin included), and how the surface side is laid out.
#[derive(Clone, Debug)]
struct Plan {
    x: Range<usize>,
    y: Range<usize>,
    lin_pitch: usize,
    side: Side,
}

impl Plan {
    /// Validates a copy of `region` of `surface` with buffers of these lengths.
    fn new(
        surface: &Surface,
        region: &CopyRegion,
        lin_len: usize,
        lin_pitch: usize,
        tiled_len: usize,
    ) -> Result<Plan, CopyError> {
        let (gen, tiling) = (surface.gen(), surface.tiling());
        let o = surface.image_offset_el(region.level, region.layer_or_z)?;
        if region.swizzle.is_enabled() && !(gen.ver() < 8 && swizzle_applies(tiling).is_some()) {
            return Err(CopyError::SwizzleUnsupported { gen, tiling });
        }
        let r = region.rect;
        let e = surface.level_extent_el(region.level);
        let inside =
            |start: u32, len: u32, max: u32| start.checked_add(len).is_some_and(|end| end <= max);
        if !inside(r.x_el, r.w_el, e.w) || !inside(r.y_el, r.h_el, e.h) {
            return Err(CopyError::RectOutOfBounds {
                rect: r,
                level: region.level,
                width_el: e.w,
                height_el: e.h,
            });
        }
        let cpp = surface.format().cpp() as usize;
        let row_b = r.w_el as u64 * cpp as u64;
        if r.h_el > 1 && (lin_pitch as u64) < row_b {
            return Err(CopyError::LinearPitchTooSmall {
                pitch_b: lin_pitch,
                row_b,
            });
        }
        let lin_needed = if r.is_empty() {
            0
        } else {
            (r.h_el as u64 - 1)
                .checked_mul(lin_pitch as u64)
                .and_then(|n| n.checked_add(row_b))
                .unwrap_or(u64::MAX)
        };
        if (lin_len as u64) < lin_needed {
            return Err(CopyError::LinearBufferTooSmall {
                len: lin_len,
                needed: lin_needed,
            });
        }
        // Every quantity below is bounded by the surface's size, which fits the address
        // space because the tiled buffer (or at least the touched part) does.
        let x0 = (o.x_el as usize + r.x_el as usize) * cpp;
        let y0 = o.y_el as usize + r.y_el as usize;
        let x = x0..x0 + r.w_el as usize * cpp;
        let y = y0..y0 + r.h_el as usize;
        let pitch = surface.row_pitch_B();
        let (side, tiled_needed) = if tiling == Tiling::Linear {
            let needed = if r.is_empty() {
                0
            } else {
                (y.end as u64 - 1) * pitch as u64 + x.end as u64
            };
            (
                Side::Linear {
                    pitch: pitch as usize,
                },
                needed,
            )
        } else {
            let tile = surface.tile_info();
            let layout = TiledLayout::new(
                tile,
                pitch,
                surface.array_pitch_el_rows(),
                o.z_el,
                o.array_offset,
                region.swizzle,
            );
            let needed = if r.is_empty() {
                0
            } else {
                layout.end_of_tiles(&x, &y)
            };
            let fast = Fast::for_tile(tile, region.swizzle.is_enabled());
            (Side::Tiled { layout, fast }, needed)
        };
        if (tiled_len as u64) < tiled_needed {
            return Err(CopyError::TiledBufferTooSmall {
                len: tiled_len,
                needed: tiled_needed,
            });
        }
        Ok(Plan {
            x,
            y,
            lin_pitch,
            side,
        })
    }

    /// Whether to stream the destination, which starts at `dst` (the tiled buffer when
    /// `to_tiled`, else the linear one).
    fn streaming(&self, hint: StoreHint, dst: *const u8, to_tiled: bool) -> bool {
        if !cfg!(target_arch = "x86_64") {
            return false;
        }
        let bytes = (self.x.len() * self.y.len()) as u64;
        let wanted = match hint {
            StoreHint::Cached => false,
            StoreHint::Streaming => true,
            StoreHint::Auto => bytes >= STREAMING_THRESHOLD_B,
        };
        if !wanted {
            return false;
        }
        match &self.side {
            // Rows stream their aligned middle whatever the alignment.
            Side::Linear { .. } => true,
            Side::Tiled { layout, .. } => {
                // Whole-tile kernels store 16-byte chunks at 16-byte multiples from the
                // tile base or from the linear image of a tile's first byte.
                let w = 1usize << layout.w_shift;
                if to_tiled {
                    (dst as usize).is_multiple_of(16)
                } else {
                    let first_full = self.x.start.next_multiple_of(w) - self.x.start;
                    (dst as usize).wrapping_add(first_full).is_multiple_of(16)
                        && self.lin_pitch.is_multiple_of(16)
                }
            }
        }
    }

    /// Runs the copy.
    fn execute<const L2T: bool, const NT: bool>(&self, mut io: Buffers<'_, L2T>) {
        let (x, y, lp) = (self.x.clone(), self.y.clone(), self.lin_pitch);
        let (x0, y0) = (x.start, y.start);
        let lin_off = move |col: usize, row: usize| (row - y0) * lp + (col - x0);
        let (layout, fast) = match &self.side {
            Side::Linear { pitch } => {
                for row in y.clone() {
                    io.run::<NT>(row * pitch + x.start, lin_off(x.start, row), x.len());
                }
                return;
            }
            Side::Tiled { layout, fast } => (layout, fast),
        };
        let w = 1usize << layout.w_shift;
        let h = 1usize << layout.h_shift;
        // Whole tiles: byte columns [fx0, fx1), rows [fy0, fy1).
        let (fx0, fx1) = (x.start.next_multiple_of(w), x.end / w * w);
        let (fy0, fy1) = (y.start.next_multiple_of(h), y.end / h * h);
        let mut edges = |xs: Range<usize>, ys: Range<usize>| {
            if !xs.is_empty() && !ys.is_empty() {
                layout.for_each_run(xs, ys, |t, col, row, len| {
                    io.run::<false>(t, lin_off(col, row), len)
                });
            }
        };
        if matches!(fast, Fast::None) || fx0 >= fx1 || fy0 >= fy1 {
            edges(x, y);
            return;
        }
        edges(x.clone(), y.start..fy0);
        edges(x.start..fx0, fy0..fy1);
        edges(fx1..x.end, fy0..fy1);
        edges(x.clone(), fy1..y.end);
        let (tiled, lin) = io.pointers();
        let tiles = TileWalk {
            layout,
            tiled,
            lin: lin.wrapping_add(lin_off(fx0, fy0)),
            lp,
            rows: fy0 / h..fy1 / h,
            cols: fx0 / w..fx1 / w,
            w,
            h,
        };
        // SAFETY: `Plan::new` checked that the tiled buffer holds every tile the
        // rectangle touches (`end_of_tiles`) and that the linear buffer holds every row
        // of it; the walk visits whole tiles inside the rectangle only, and the kernels
        // stay inside their tile and its rows of the linear image. With `NT`,
        // `streaming` checked the alignment the kernels need. The two buffers are
        // distinct borrows, so they do not overlap.
        unsafe { tiles.run::<L2T, NT>(fast) };
    }
}

/// How many 4 KB blocks ahead the streaming walks prefetch the source: the linear rows
/// of the fourth block into tiles, the second tile out of them (measured best on the
/// benchmark's machine).
const PREFETCH_AHEAD_L2T: usize = 4;
const PREFETCH_AHEAD_T2L: usize = 2;

/// The whole tiles of a copy: tile rows × tile columns, and the linear image of the
/// first tile's first byte.
struct TileWalk<'a> {
    layout: &'a TiledLayout,
    tiled: *mut u8,
    lin: *mut u8,
    lp: usize,
    rows: Range<usize>,
    cols: Range<usize>,
    w: usize,
    h: usize,
}

impl TileWalk<'_> {
    /// Runs the kernels of `fast` on every tile.
    ///
    /// Large copies (`NT`) prefetch the source a couple of blocks ahead: reading 8 or 32
    /// rows of the linear image in short pieces, or jumping through a tile, defeats the
    /// hardware prefetchers. Into Y and Tile4 tiles, they also copy each row of tiles in
    /// passes of 16 (Y) or 8 (Tile4: a contiguous kilobyte of each tile) rows, so that
    /// fewer linear rows are read at once (the band sizes measured best).
    ///
    /// # Safety
    /// See the call in [`Plan::execute`]: the tiled buffer holds every tile of the walk,
    /// the linear buffer every row of it, they do not overlap, and with `NT` the
    /// destination is 16-byte aligned as the kernels need.
    unsafe fn run<const L2T: bool, const NT: bool>(&self, fast: &Fast) {
        use kernels::{tile4, x_tile, y_tile};
        let lp = self.lp;
        let one = [vec![(0, 0, 0)]];
        // SAFETY (every kernel call): `walk` hands each kernel a whole tile, or a 4 KB
        // Tile4 block of one, and the linear image of its first byte, as the caller
        // guarantees them.
        unsafe {
            match fast {
                Fast::None => {}
                Fast::X { swizzle: false } => self
                    .walk::<L2T, NT, 1>(&one, |t, l, _, pf| x_tile::<L2T, NT, false>(t, l, lp, pf)),
                Fast::X { swizzle: true } => self
                    .walk::<L2T, NT, 1>(&one, |t, l, _, pf| x_tile::<L2T, NT, true>(t, l, lp, pf)),
                Fast::Y { swizzle } if L2T && NT => {
                    if *swizzle {
                        self.walk::<L2T, NT, 2>(&one, |t, l, band, pf| {
                            y_tile::<L2T, NT, true, 16>(t, l, lp, band * 16, pf)
                        })
                    } else {
                        self.walk::<L2T, NT, 2>(&one, |t, l, band, pf| {
                            y_tile::<L2T, NT, false, 16>(t, l, lp, band * 16, pf)
                        })
                    }
                }
                Fast::Y { swizzle: false } => self.walk::<L2T, NT, 1>(&one, |t, l, _, pf| {
                    y_tile::<L2T, NT, false, 32>(t, l, lp, 0, pf)
                }),
                Fast::Y { swizzle: true } => self.walk::<L2T, NT, 1>(&one, |t, l, _, pf| {
                    y_tile::<L2T, NT, true, 32>(t, l, lp, 0, pf)
                }),
                Fast::Tile4Blocks(rows) if L2T && NT => self
                    .walk::<L2T, NT, 4>(rows, |t, l, band, pf| {
                        tile4::<L2T, NT, 8>(t, l, lp, band * 8, pf)
                    }),
                Fast::Tile4Blocks(rows) => self
                    .walk::<L2T, NT, 1>(rows, |t, l, _, pf| tile4::<L2T, NT, 32>(t, l, lp, 0, pf)),
            }
        }
    }

    /// For every row of tiles and every row of blocks in it (`block_rows`): runs
    /// `kernel(block, linear, band, prefetch)` on the blocks of all the tiles, left to
    /// right, once per band (`BANDS` passes over the row), telling it where the source
    /// of a block a little further on starts (to prefetch it).
    ///
    /// # Safety
    /// As [`run`](Self::run); `kernel` must stay inside the band of its block.
    #[inline(always)]
    unsafe fn walk<const L2T: bool, const NT: bool, const BANDS: usize>(
        &self,
        block_rows: &[Vec<(usize, usize, usize)>],
        kernel: impl Fn(*mut u8, *mut u8, usize, *const u8),
    ) {
        let lp = self.lp;
        let widest = block_rows.iter().map(Vec::len).max().unwrap_or(0);
        let ahead = if L2T {
            PREFETCH_AHEAD_L2T
        } else {
            PREFETCH_AHEAD_T2L
        };
        let mut seq: Vec<(*mut u8, *mut u8)> = Vec::with_capacity(self.cols.len() * widest);
        for tr in self.rows.clone() {
            for blocks in block_rows {
                seq.clear();
                for tc in self.cols.clone() {
                    let t = self.tiled.wrapping_add(self.layout.tile_offset(tr, tc));
                    let l = self.lin.wrapping_add(
                        (tr - self.rows.start) * self.h * lp + (tc - self.cols.start) * self.w,
                    );
                    for &(b, u, v) in blocks {
                        seq.push((t.wrapping_add(b), l.wrapping_add(v * lp + u)));
                    }
                }
                for band in 0..BANDS {
                    for (i, &(t, l)) in seq.iter().enumerate() {
                        // The source of a block further on (or of this one at the end
                        // of the row: prefetching it again is harmless).
                        let (nt, nl) = seq.get(i + ahead).copied().unwrap_or((t, l));
                        kernel(t, l, band, if L2T { nl } else { nt });
                    }
                }
            }
        }
    }
}

/// The buffers of a copy: `dst` is written, `src` read. With `L2T` (linear to tiled)
/// the destination is the tiled buffer, else the linear one.
struct Buffers<'a, const L2T: bool> {
    dst: &'a mut [u8],
    src: &'a [u8],
}

impl<const L2T: bool> Buffers<'_, L2T> {
    /// Copies `len` bytes between offset `t` of the tiled buffer and `l` of the linear
    /// one (panics when out of bounds: callers stay inside the validated rectangle).
    #[inline(always)]
    fn run<const NT: bool>(&mut self, t: usize, l: usize, len: usize) {
        let (d, s) = if L2T { (t, l) } else { (l, t) };
        chunk::copy_slice::<NT>(&mut self.dst[d..d + len], &self.src[s..s + len]);
    }

    /// Base pointers of the tiled and the linear buffer; only the destination's is
    /// written through.
    fn pointers(&mut self) -> (*mut u8, *mut u8) {
        let (d, s) = (self.dst.as_mut_ptr(), self.src.as_ptr().cast_mut());
        if L2T {
            (d, s)
        } else {
            (s, d)
        }
    }
}
