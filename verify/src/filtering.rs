//! `txl` on the logical image: Vulkan's texel filtering, the reference the sampler's
//! `sample_l` message is checked against.
//!
//! The steps are the Vulkan specification's ("Image Operations", chapter "Textures"),
//! computed in `f64` and rounded once to the 32-bit result:
//!
//! * **LOD and level selection** ("Level-of-Detail Operation", "Image Level(s)
//!   Selection"): `λ = clamp(lod, minLod, maxLod)`; the filter is `magFilter` when
//!   `λ <= 0`, else `minFilter`; `d' = clamp(λ, 0, q)` with `q` the view's last level;
//!   `mip_nearest` reads level `⌈d' + 0.5⌉ - 1`, `mip_linear` levels `⌊d'⌋` and
//!   `min(⌊d'⌋ + 1, q)`, blended by the fraction of `d'`.
//! * **Coordinates** ("(u,v,w,a) to (i,j,k,l,n) Transformation and Array Layer
//!   Selection"): `u = s · width` (and `v`, `w` likewise) of the level; the layer of an
//!   array `clamp(RNE(a), 0, layers - 1)`. `nearest` reads texel `⌊u⌋`; `linear` texels
//!   `⌊u - ½⌋` and `⌊u - ½⌋ + 1` weighted by the fraction of `u - ½`, in each dimension.
//! * **Wrapping** ("Wrapping Operation"): repeat, mirrored repeat, clamp to edge and
//!   mirror clamp to edge, per coordinate.
//! * **Texel filtering** ("Texel Filtering"): the weighted sum of the texels, decoded
//!   with the view's format (missing channels read as the format's (0, 0, 1)).
//!
//! An integer texture is not filtered (Vulkan gives no integer format the
//! `SAMPLED_IMAGE_FILTER_LINEAR` feature): its sampler must be `nearest` with
//! `mip_nearest`, and the lookup returns one texel's integers, chosen as
//! `nearest_texel` says, bit for bit.
//!
//! # Tolerance
//!
//! Vulkan leaves the precision of filtering to the implementation: the weights may be
//! computed with as few as `subTexelPrecisionBits` (at least 4; Intel's samplers have 8)
//! bits of fraction, and the LOD with `mipmapPrecisionBits`. So the reference gives each
//! returned channel an interval ([`ir::bounds`]) that holds every convex combination
//! of the texels a filter might read: the hull of the channel's values over the
//! footprint, the texels of the selected levels that any coordinate within 1/256 texel
//! and a 32-bit float's rounding (and the LOD within 1/256) of the exact one, or of the
//! coordinate's own interval, reaches, each texel's value widened as its format's conversion may err
//! ([`crate::tolerance::load_bounds`]; with the tolerance an inexact store recorded
//! for the texel, as `image_load` reads it), and the whole widened by 2 ULPs for the
//! rounding of the sum. A NaN or infinite coordinate, one beyond 2^23 texels (where a
//! 32-bit float has no fraction left), or a NaN LOD, has no defined texel: its interval
//! is the hull of the whole of the levels (and its value the first texel's).

use crate::call::{access_ctx, bound_image, lane_err};
use crate::image::{load_texel, logical_layout, texel_offset_at_lod, LoadedTexel};
use crate::memory::{ImageBinding, Memory};
use crate::sampler_state::{AddressMode, Filter, MipmapMode, SamplerState};
use crate::texel::TexelLayout;
use ir::bounds::Interval;
use ir::interp::{EnvError, IntrinsicCall};
use ir::{ImageDecl, ImageDim, IndexKind, TexelOffset};

/// How far a sampler's coordinate may stray from the exact one, in texels, and its LOD
/// from the exact LOD (8 bits of fraction, Intel's sub-texel precision).
const SLACK: f64 = 1.0 / 256.0;

/// Bits of fraction of a sampler's sub-texel coordinates and LOD (Intel's; anv reports
/// 8 for `subTexelPrecisionBits` and `mipmapPrecisionBits`, `anv_device.c`).
const SUB_TEXEL_BITS: u32 = 8;

/// The ULPs by which a filtered channel may pass the hull of its texels: the rounding
/// of the products and sums of a weighted sum of up to 16 texels.
const SUM_ULPS: f64 = 2.0;

/// The most texels the reference enumerates in one dimension of a footprint before it
/// takes the whole level instead.
const MAX_SPAN: i64 = 64;

/// One dimension of a lookup: the texel coordinate (`u`, in texels of the level), the
/// size of the level in it and the address mode.
#[derive(Copy, Clone, Debug)]
struct Axis {
    coord: f64,
    /// The coordinate's interval, in texels.
    range: (f64, f64),
    size: i64,
    mode: AddressMode,
}

/// Vulkan's wrapping of texel coordinate `i` into `0..size`.
fn wrap(i: i64, size: i64, mode: AddressMode) -> i64 {
    let mirror = |a: i64| if a >= 0 { a } else { -(1 + a) };
    match mode {
        AddressMode::Repeat => i.rem_euclid(size),
        AddressMode::MirroredRepeat => (size - 1) - mirror(i.rem_euclid(2 * size) - size),
        AddressMode::ClampToEdge => i.clamp(0, size - 1),
        AddressMode::MirrorClampToEdge => mirror(i).clamp(0, size - 1),
    }
}

/// The texels and weights of one dimension: `nearest` one texel, `linear` two.
fn taps(axis: &Axis, filter: Filter) -> Vec<(i64, f64)> {
    let big = 1.0e15;
    match filter {
        Filter::Nearest => {
            let i = axis.coord.floor().clamp(-big, big) as i64;
            vec![(wrap(i, axis.size, axis.mode), 1.0)]
        }
        Filter::Linear => {
            let x = axis.coord - 0.5;
            let i0 = x.floor().clamp(-big, big) as i64;
            let alpha = x - x.floor();
            vec![
                (wrap(i0, axis.size, axis.mode), 1.0 - alpha),
                (wrap(i0.saturating_add(1), axis.size, axis.mode), alpha),
            ]
        }
    }
}

/// The first texels `⌊u - ½⌋` of a linear filter (before wrapping) for a coordinate in
/// the axis's interval widened by [`SLACK`]: `(first, last)`, `None` for an infinite
/// interval.
fn linear_starts(axis: &Axis) -> Option<(i64, i64)> {
    let (lo, hi) = axis.range;
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    // The sampler scales the coordinate in 32-bit floats: one rounding of the product.
    let slack = SLACK + hi.abs().max(lo.abs()) * f64::from(f32::EPSILON);
    let big = 1.0e15;
    let first = (lo - slack - 0.5).floor().clamp(-big, big) as i64;
    let last = (hi + slack - 0.5).floor().clamp(-big, big) as i64;
    Some((first, last))
}

/// The wrapped texels of `first..=last`, each once in order; every texel of the axis
/// where the span reaches [`MAX_SPAN`] (or twice the size, where wrapping repeats).
fn wrapped(axis: &Axis, first: i64, last: i64) -> Vec<i64> {
    if last - first >= MAX_SPAN.max(2 * axis.size) {
        return (0..axis.size).collect();
    }
    let mut out: Vec<i64> = (first..=last)
        .map(|i| wrap(i, axis.size, axis.mode))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The wrapped texel coordinates any filter may read for a coordinate in the axis's
/// interval widened by [`SLACK`].
fn footprint(axis: &Axis) -> Vec<i64> {
    match linear_starts(axis) {
        Some((first, last)) => wrapped(axis, first, last.saturating_add(1)),
        None => (0..axis.size).collect(),
    }
}

/// The wrapped columns and rows of the texels a gather's corner may be.
type CornerTexels = (Vec<i64>, Vec<i64>);

/// A lookup of one lane, at one level.
struct Lookup<'a, 'c> {
    mem: &'a mut Memory,
    decl: &'a ImageDecl,
    b: &'a ImageBinding,
    layout: &'a TexelLayout,
    call: &'a IntrinsicCall<'c>,
    lane: usize,
    /// The lookup's texel offset.
    offset: TexelOffset,
}

impl Lookup<'_, '_> {
    /// The channels of the texel at `(x, y, z)` (z: slice or layer) of level `lod` as
    /// the view's format decodes them (an integer texel's integers, a float one's bits).
    fn channels(&mut self, lod: u32, x: i64, y: i64, z: i64) -> Result<[u64; 4], EnvError> {
        Ok(self.load(lod, x, y, z)?.rgba)
    }

    fn load(&mut self, lod: u32, x: i64, y: i64, z: i64) -> Result<LoadedTexel, EnvError> {
        let coord: Vec<u64> = match (self.decl.dim, self.decl.arrayed) {
            (ImageDim::D1, false) => vec![x as u64],
            (ImageDim::D1, true) => vec![x as u64, z as u64],
            (ImageDim::D2, false) => vec![x as u64, y as u64],
            _ => vec![x as u64, y as u64, z as u64],
        };
        let offset = texel_offset_at_lod(self.decl, self.b, &coord, u64::from(lod))
            .map_err(|e| lane_err(self.lane, e))?;
        let ctx = access_ctx(self.call, self.lane);
        // `image_load`'s read, so that a texel an inexact store wrote keeps the
        // tolerance the store recorded here too.
        load_texel(self.mem, self.b.alloc, offset, self.layout, &ctx, self.lane)
    }

    /// The decoded texel at `(x, y, z)` (z: slice or layer) of level `lod`, and the
    /// intervals its conversion allows.
    fn texel(
        &mut self,
        lod: u32,
        x: i64,
        y: i64,
        z: i64,
    ) -> Result<([f64; 4], [Interval; 4]), EnvError> {
        let t = self.load(lod, x, y, z)?;
        let bounds = t.bounds(self.mem, self.layout);
        let mut vals = [0.0; 4];
        let mut ivs = [Interval::new(0.0, 0.0); 4];
        for c in 0..4 {
            let v = f64::from(f32::from_bits(t.rgba[c] as u32));
            vals[c] = v;
            ivs[c] = bounds[c].map_or(Interval::new(v, v), |b| b.hull(Interval::new(v, v)));
        }
        Ok((vals, ivs))
    }
}

/// What lane `lane` of lookup `op` reads: the sampler state bound at `sampler` (the
/// call's, so `state` is looked up once), its image binding and the view's layout of
/// 32-bit channels.
fn lane_surface(
    mem: &Memory,
    call: &IntrinsicCall<'_>,
    lane: usize,
    state: Option<SamplerState>,
    sampler: u32,
    op: &str,
) -> Result<(SamplerState, ImageBinding, TexelLayout), EnvError> {
    let state = state.ok_or_else(|| {
        lane_err(
            lane,
            format!("sampler index {sampler} has no sampler state bound"),
        )
    })?;
    let decl = call
        .image
        .ok_or_else(|| EnvError::msg(format!("`@{op}` names no image")))?;
    let (_, b) = bound_image(mem, call, lane)?;
    let b = b.clone();
    let layout = logical_layout(decl, &b).map_err(|e| lane_err(lane, e))?;
    if layout.is_64bit() {
        return Err(lane_err(
            lane,
            format!(
                "`@{op}` reads 32-bit channels, not the 64-bit ones of {}",
                layout.name
            ),
        ));
    }
    Ok((state, b, layout))
}

/// The extent of level `lod` as (width, height, depth, layers).
fn level_size(b: &ImageBinding, lod: u32) -> Option<[i64; 4]> {
    let e = b.view_extent(lod)?;
    Some([
        e.width as i64,
        e.height as i64,
        e.depth as i64,
        e.layers as i64,
    ])
}

/// The magnitude in texels (at level 0) beyond which a coordinate has no defined
/// texel: a 32-bit float there has no bits of fraction left, where Vulkan's texel
/// selection needs `subTexelPrecisionBits` of them, and a sampler's fixed-point
/// coordinate wraps or saturates as the hardware does (where this reference and the
/// sampler model would each pick a different texel, neither of them Vulkan's).
const MAX_TEXEL_COORD: f64 = (1u32 << 23) as f64;

/// Whether every spatial coordinate of a lookup is finite and within
/// [`MAX_TEXEL_COORD`] texels of the origin at level 0, of size `level0` (the array
/// layer is not a texel coordinate).
fn coordinates_defined(
    decl: &ImageDecl,
    level0: Option<[i64; 4]>,
    coord: &[(f64, (f64, f64))],
) -> bool {
    let Some(size) = level0 else {
        return coord.iter().all(|c| c.0.is_finite());
    };
    let n = match decl.dim {
        ImageDim::D1 => 1,
        ImageDim::D3 => 3,
        _ => 2,
    };
    coord.iter().all(|c| c.0.is_finite())
        && coord
            .iter()
            .zip(size)
            .take(n)
            .all(|(c, s)| (c.0 * s as f64).abs() <= MAX_TEXEL_COORD)
}

/// The axes of a lookup at a level of size `size`: the normalized coordinates scaled
/// and moved by the texel offset, with their intervals.
fn axes(
    decl: &ImageDecl,
    state: &SamplerState,
    size: [i64; 4],
    coord: &[(f64, (f64, f64))],
    offset: TexelOffset,
) -> Vec<Axis> {
    let n = match decl.dim {
        ImageDim::D1 => 1,
        ImageDim::D3 => 3,
        _ => 2,
    };
    (0..n)
        .map(|k| {
            let (c, (lo, hi)) = coord[k];
            let s = size[k] as f64;
            // An integer offset moves `u` and `⌊u⌋` (or `⌊u - ½⌋`) alike.
            let o = f64::from(offset.0[k]);
            Axis {
                coord: c * s + o,
                range: (lo * s + o, hi * s + o),
                size: size[k].max(1),
                mode: state.address[k],
            }
        })
        .collect()
}

/// The array layer of an arrayed lookup: `clamp(RNE(a), 0, layers - 1)`.
fn layer(a: f64, layers: i64) -> i64 {
    if a.is_nan() {
        return 0;
    }
    let r = a.round_ties_even().clamp(-1.0e15, 1.0e15) as i64;
    r.clamp(0, layers - 1)
}

/// The layers an arrayed lookup may read for a layer coordinate in `(lo, hi)`.
fn layers_reached(lo: f64, hi: f64, layers: i64) -> Vec<i64> {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0..layers).collect();
    }
    let first = layer(lo - SLACK, layers);
    let last = layer(hi + SLACK, layers);
    (first..=last).collect()
}

/// Executes `txl` lane by lane: the filtered value and, when the executor tracks them,
/// the intervals of the [tolerance](self#tolerance).
pub fn execute(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    call.check_sources()?;
    let decl = call
        .image
        .ok_or_else(|| EnvError::msg("`@txl` names no image"))?;
    let sampler = call
        .index(IndexKind::Sampler)
        .ok_or_else(|| EnvError::msg("`@txl` has no sampler index"))?;
    let ncomp = call.dest_components();
    let offset = call
        .index(IndexKind::TexelOffset)
        .and_then(TexelOffset::from_index)
        .ok_or_else(|| EnvError::msg("`@txl` has no texel offset"))?;
    let lanes: Vec<usize> = call.active_lanes().collect();
    // The sampler index is the call's, so every lane filters with one state (still an
    // error of the first lane where none is bound).
    let state = mem.sampler(sampler).copied();
    for lane in lanes {
        let (state, b, layout) = lane_surface(mem, call, lane, state, sampler, "txl")?;
        let f = |v: u64| f64::from(f32::from_bits(v as u32));
        let mut look = Lookup {
            mem,
            decl,
            b: &b,
            layout: &layout,
            call,
            lane,
            offset,
        };
        if layout.is_integer() {
            if !state.is_unfiltered() {
                return Err(lane_err(
                    lane,
                    format!(
                        "`@txl` of the integer format {} with a linear filter or mipmap \
                         mode: Vulkan filters no integer format, so its sampler must be \
                         `nearest` with `mip_nearest`",
                        layout.name
                    ),
                ));
            }
            let coord: Vec<f32> = (call.src(0, lane).iter())
                .map(|&v| f32::from_bits(v as u32))
                .collect();
            let lod = f32::from_bits(call.src(1, lane)[0] as u32);
            let texel = nearest_texel(&mut look, &state, &coord, lod)?;
            call.set_dest(lane, &texel[..ncomp]);
            continue;
        }
        let src = call.src(0, lane);
        let src_b = call.src_bounds(0, lane);
        let comp = |k: usize| {
            let v = f(src[k]);
            let iv = src_b
                .and_then(|b| b[k])
                .map_or((v, v), |i| (i.lo.min(v), i.hi.max(v)));
            (v, iv)
        };
        let coord: Vec<(f64, (f64, f64))> = (0..src.len()).map(comp).collect();
        let lod = f(call.src(1, lane)[0]);
        let lod_iv = call
            .src_bounds(1, lane)
            .and_then(|b| b[0])
            .map_or((lod, lod), |i| (i.lo.min(lod), i.hi.max(lod)));
        let q = b.levels.saturating_sub(1);
        let array_coord = match (decl.dim, decl.arrayed) {
            (ImageDim::D1, true) => Some(coord[1]),
            (ImageDim::D2, true) => Some(coord[2]),
            _ => None,
        };
        // The value.
        let undefined = lod.is_nan() || !coordinates_defined(decl, level_size(&b, 0), &coord);
        let (value, levels_exact) =
            filtered(&mut look, &state, &coord, array_coord, lod, q, undefined)?;
        // The interval: every level a LOD within the slack may select, every texel
        // of the footprint.
        let mut levels: Vec<u32> = if undefined || lod_iv.0.is_nan() || lod_iv.1.is_nan() {
            (0..=q).collect()
        } else {
            let d = |l: f64| {
                l.clamp(f64::from(state.min_lod), f64::from(state.max_lod))
                    .clamp(0.0, f64::from(q))
            };
            let first = d(lod_iv.0 - SLACK).floor() as u32;
            let last = (d(lod_iv.1 + SLACK).ceil() as u32).min(q);
            (first..=last).collect()
        };
        // With the levels the value read (within these wherever the LOD is defined),
        // each level once: its footprint's texels are read, and logged, once per lane.
        levels.extend(levels_exact);
        levels.sort_unstable();
        levels.dedup();
        let mut hull: Option<[Interval; 4]> = None;
        for &lv in &levels {
            let Some(size) = level_size(&b, lv) else {
                continue;
            };
            let ax = axes(decl, &state, size, &coord, look.offset);
            // An undefined lookup may read any texel of the level.
            let lists: Vec<Vec<i64>> = if undefined {
                ax.iter().map(|a| (0..a.size).collect()).collect()
            } else {
                ax.iter().map(footprint).collect()
            };
            let zs: Vec<i64> = match (decl.dim, array_coord) {
                (ImageDim::D3, _) => lists[2].clone(),
                (_, Some((_, (lo, hi)))) => layers_reached(lo, hi, size[3]),
                _ => vec![0],
            };
            let ys: Vec<i64> = if decl.dim == ImageDim::D1 {
                vec![0]
            } else {
                lists[1].clone()
            };
            for &z in &zs {
                for &y in &ys {
                    for &x in &lists[0] {
                        let (z_, y_) = match decl.dim {
                            ImageDim::D1 => (z, 0),
                            _ => (z, y),
                        };
                        let (_, iv) = look.texel(lv, x, y_, z_)?;
                        hull = Some(match hull {
                            None => iv,
                            Some(h) => std::array::from_fn(|c| h[c].hull(iv[c])),
                        });
                    }
                }
            }
        }
        let vals: Vec<u64> = value[..ncomp]
            .iter()
            .map(|&v| u64::from((v as f32).to_bits()))
            .collect();
        call.set_dest(lane, &vals);
        if call.tracks_bounds() {
            if let Some(h) = hull {
                let bounds: Vec<Option<Interval>> = (0..ncomp)
                    .map(|c| {
                        let v = value[c];
                        let iv = h[c].hull(Interval::new(v, v)).widened_by_ulps(32, SUM_ULPS);
                        (iv.lo.is_finite() && iv.hi.is_finite()).then_some(iv)
                    })
                    .collect();
                call.set_dest_bounds(lane, &bounds);
            }
        }
    }
    Ok(())
}

/// Executes `tg4` lane by lane: channel `component` of the four texels of the view's
/// base level a `linear` filter at the coordinate reads (Vulkan's "Texel Gathering"),
/// `(i0, j1)`, `(i1, j1)`, `(i1, j0)`, `(i0, j0)`. Which four is left to a sampler's
/// sub-texel precision near a texel's centre: the value takes Intel's choice (the
/// coordinate scaled in a 32-bit float, with 8 bits of fraction, as an integer
/// texture's `txl` reads it); a float texture's texel gets the interval of every texel in
/// its position that a coordinate within the [tolerance](self#tolerance) selects (an
/// integer texture's compares bit for bit). An undefined coordinate's interval is
/// the whole level's.
pub fn gather(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    call.check_sources()?;
    let decl = call
        .image
        .ok_or_else(|| EnvError::msg("`@tg4` names no image"))?;
    let index = |k: IndexKind| {
        call.index(k)
            .ok_or_else(|| EnvError::msg(format!("`@tg4` has no {} index", k.name())))
    };
    let sampler = index(IndexKind::Sampler)?;
    let component = index(IndexKind::Component)? as usize;
    let offset = TexelOffset::from_index(index(IndexKind::TexelOffset)?)
        .ok_or_else(|| EnvError::msg("`@tg4` has a malformed texel offset"))?;
    if component > 3 || decl.dim != ImageDim::D2 {
        return Err(EnvError::msg(
            "`@tg4` gathers a channel 0 to 3 of a 2D texture",
        ));
    }
    let state = mem.sampler(sampler).copied();
    let lanes: Vec<usize> = call.active_lanes().collect();
    for lane in lanes {
        let (state, b, layout) = lane_surface(mem, call, lane, state, sampler, "tg4")?;
        let size = level_size(&b, 0)
            .ok_or_else(|| lane_err(lane, "the view has no base level".to_string()))?;
        let src = call.src(0, lane).to_vec();
        let src_b = call.src_bounds(0, lane).map(|b| b.to_vec());
        let coord: Vec<(f64, (f64, f64))> = (0..src.len())
            .map(|k| {
                let v = f64::from(f32::from_bits(src[k] as u32));
                let iv = (src_b.as_ref())
                    .and_then(|b| b[k])
                    .map_or((v, v), |i| (i.lo.min(v), i.hi.max(v)));
                (v, iv)
            })
            .collect();
        let layer_coord = decl.arrayed.then(|| coord[2]);
        let layer_of = |a: f64| if decl.arrayed { layer(a, size[3]) } else { 0 };
        let mut look = Lookup {
            mem,
            decl,
            b: &b,
            layout: &layout,
            call,
            lane,
            offset,
        };
        // The value: Intel's fixed-point choice of `(i0, j0)`.
        let base = |k: usize| -> i64 {
            let c = f32::from_bits(src[k] as u32);
            let scaled = if c.is_nan() {
                0.0
            } else {
                c * size[k].max(1) as f32
            };
            ((fixed(scaled) - (1 << (SUB_TEXEL_BITS - 1))) >> SUB_TEXEL_BITS)
                + i64::from(offset.0[k])
        };
        let (i0, j0) = (base(0), base(1));
        let z = layer_of(f64::from(f32::from_bits(
            src.get(2).copied().unwrap_or(0) as u32
        )));
        const CORNERS: [(i64, i64); 4] = [(0, 1), (1, 1), (1, 0), (0, 0)];
        let mut vals = [0u64; 4];
        for (v, (di, dj)) in vals.iter_mut().zip(CORNERS) {
            let x = wrap(i0 + di, size[0].max(1), state.address[0]);
            let y = wrap(j0 + dj, size[1].max(1), state.address[1]);
            *v = look.channels(0, x, y, z)?[component];
        }
        if layout.is_integer() || !look.call.tracks_bounds() {
            call.set_dest(lane, &vals);
            continue;
        }
        // The intervals: every `(i0, j0)` a coordinate within the slack selects.
        let undefined = !coordinates_defined(decl, Some(size), &coord);
        let ax = axes(decl, &state, size, &coord, offset);
        // The wrapped texels of a corner `d` texels past each start.
        let texels = |a: &Axis, d: i64| match linear_starts(a).filter(|_| !undefined) {
            Some((first, last)) => wrapped(a, first + d, last + d),
            None => (0..a.size).collect(),
        };
        let zs: Vec<i64> = match layer_coord {
            Some((_, (lo, hi))) => layers_reached(lo, hi, size[3]),
            None => vec![0],
        };
        // Corners that reach the same texels (all of them, for an undefined lookup)
        // share their hull.
        let mut hulls: Vec<(CornerTexels, Option<Interval>)> = Vec::with_capacity(4);
        let mut bounds = Vec::with_capacity(4);
        for (di, dj) in CORNERS {
            let key = (texels(&ax[0], di), texels(&ax[1], dj));
            if let Some((_, h)) = hulls.iter().find(|(k, _)| *k == key) {
                bounds.push(*h);
                continue;
            }
            let mut hull: Option<Interval> = None;
            for &z in &zs {
                for &y in &key.1 {
                    for &x in &key.0 {
                        let (_, iv) = look.texel(0, x, y, z)?;
                        let c = iv[component];
                        hull = Some(hull.map_or(c, |h| h.hull(c)));
                    }
                }
            }
            let h = hull.filter(|h| h.lo.is_finite() && h.hi.is_finite());
            bounds.push(h);
            hulls.push((key, h));
        }
        // The value's own texel is among those, and an undefined lookup reads any.
        call.set_dest(lane, &vals);
        call.set_dest_bounds(lane, &bounds);
    }
    Ok(())
}

/// A sub-texel coordinate or LOD in fixed point with [`SUB_TEXEL_BITS`] bits of
/// fraction, rounded to nearest; NaN as 0, saturating.
fn fixed(x: f32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let one = f64::from(1u32 << SUB_TEXEL_BITS);
    (f64::from(x) * one).round().clamp(-1.0e15, 1.0e15) as i64
}

/// The channels of the one texel an unfiltered lookup (an integer texture's: `nearest`,
/// `mip_nearest`) reads. Integers compare bit for bit, so where Vulkan leaves a choice
/// this takes one, the one Intel's samplers make: the LOD and each coordinate scaled
/// (a 32-bit float product, as "Unnormalized Texel Coordinate Operations" allows) with
/// [`SUB_TEXEL_BITS`] bits of fraction (`mipmapPrecisionBits` and
/// `subTexelPrecisionBits`); the level `⌊d' + ½⌋` (Vulkan's alternative to
/// `⌈d' + ½⌉ - 1` for `mip_nearest`); the texel `⌊u⌋` of the rounded `u`. An undefined
/// lookup (a NaN coordinate or LOD) reads as 0 there.
fn nearest_texel(
    look: &mut Lookup<'_, '_>,
    state: &SamplerState,
    coord: &[f32],
    lod: f32,
) -> Result<[u64; 4], EnvError> {
    let lod = if lod.is_nan() { 0.0 } else { lod };
    let q = i64::from(look.b.levels.saturating_sub(1));
    let d = fixed(lod.clamp(state.min_lod, state.max_lod)).clamp(0, q << SUB_TEXEL_BITS);
    let half = 1i64 << (SUB_TEXEL_BITS - 1);
    let lv = ((d + half) >> SUB_TEXEL_BITS).min(q) as u32;
    let size = level_size(look.b, lv)
        .ok_or_else(|| lane_err(look.lane, format!("level {lv} is outside the view")))?;
    let axis = |k: usize| -> i64 {
        let c = coord.get(k).copied().unwrap_or(0.0);
        let n = size[k].max(1);
        let scaled = if c.is_nan() { 0.0 } else { c * n as f32 };
        let o = i64::from(look.offset.0[k]);
        wrap((fixed(scaled) >> SUB_TEXEL_BITS) + o, n, state.address[k])
    };
    let (x, y, z) = match (look.decl.dim, look.decl.arrayed) {
        (ImageDim::D1, false) => (axis(0), 0, 0),
        (ImageDim::D1, true) => (axis(0), 0, layer(f64::from(coord[1]), size[3])),
        (ImageDim::D2, false) => (axis(0), axis(1), 0),
        (ImageDim::D2, true) => (axis(0), axis(1), layer(f64::from(coord[2]), size[3])),
        _ => (axis(0), axis(1), axis(2)),
    };
    look.channels(lv, x, y, z)
}

/// The filtered RGBA value of one lane, and the levels it read.
fn filtered(
    look: &mut Lookup<'_, '_>,
    state: &SamplerState,
    coord: &[(f64, (f64, f64))],
    array_coord: Option<(f64, (f64, f64))>,
    lod: f64,
    q: u32,
    undefined: bool,
) -> Result<([f64; 4], Vec<u32>), EnvError> {
    if undefined {
        // No defined texel (an infinite coordinate has no texel position, nor a
        // fraction to weight by; a huge one no sub-texel position a sampler's fixed
        // point holds): the interval (every level) is the answer; the value is the
        // first texel's.
        let (v, _) = look.texel(0, 0, 0, 0)?;
        return Ok((v, (0..=q).collect()));
    }
    let lambda = lod
        .min(f64::from(state.max_lod))
        .max(f64::from(state.min_lod));
    let filter = if lambda <= 0.0 {
        state.mag_filter
    } else {
        state.min_filter
    };
    let d = lambda.clamp(0.0, f64::from(q));
    let levels: Vec<(u32, f64)> = match state.mipmap_mode {
        MipmapMode::Nearest => vec![(((d + 0.5).ceil() - 1.0).max(0.0) as u32, 1.0)],
        MipmapMode::Linear => {
            let hi = d.floor() as u32;
            let lo = (hi + 1).min(q);
            let delta = d - d.floor();
            vec![(hi, 1.0 - delta), (lo, delta)]
        }
    };
    let mut out = [0.0f64; 4];
    let mut read = Vec::new();
    for &(lv, lw) in &levels {
        if lw == 0.0 {
            continue;
        }
        read.push(lv);
        let size = level_size(look.b, lv)
            .ok_or_else(|| lane_err(look.lane, format!("level {lv} is outside the view")))?;
        let ax = axes(look.decl, state, size, coord, look.offset);
        let tx = taps(&ax[0], filter);
        let ty = if ax.len() > 1 {
            taps(&ax[1], filter)
        } else {
            vec![(0, 1.0)]
        };
        let tz = match (ax.len(), array_coord) {
            (3, _) => taps(&ax[2], filter),
            (_, Some((a, _))) => vec![(layer(a, size[3]), 1.0)],
            _ => vec![(0, 1.0)],
        };
        for &(z, wz) in &tz {
            for &(y, wy) in &ty {
                for &(x, wx) in &tx {
                    let w = lw * wx * wy * wz;
                    if w == 0.0 {
                        continue;
                    }
                    let (v, _) = look.texel(lv, x, y, z)?;
                    for c in 0..4 {
                        out[c] += w * v[c];
                    }
                }
            }
        }
    }
    Ok((out, read))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_follows_vulkan() {
        let w = |i, m| wrap(i, 4, m);
        // Repeat: ... 2 3 | 0 1 2 3 | 0 1 ...
        assert_eq!(
            [-2, -1, 4, 5].map(|i| w(i, AddressMode::Repeat)),
            [2, 3, 0, 1]
        );
        // Mirrored repeat: ... 1 0 | 0 1 2 3 | 3 2 ...
        assert_eq!(
            [-2, -1, 4, 5, 8].map(|i| w(i, AddressMode::MirroredRepeat)),
            [1, 0, 3, 2, 0]
        );
        assert_eq!([-3, 7].map(|i| w(i, AddressMode::ClampToEdge)), [0, 3]);
        // Mirror clamp to edge: mirrored once, then clamped.
        assert_eq!(
            [-1, -2, -9, 9].map(|i| w(i, AddressMode::MirrorClampToEdge)),
            [0, 1, 3, 3]
        );
    }

    #[test]
    fn huge_and_non_finite_coordinates_have_no_texel() {
        let decl = ImageDecl::new("t", ImageDim::D2, ir::Format::R32Float);
        let size = Some([64, 16, 1, 1]);
        let at = |u: f64, v: f64| [(u, (u, u)), (v, (v, v))];
        assert!(coordinates_defined(&decl, size, &at(0.5, -3.0)));
        // 2^23 texels is the last defined: u = 2^23 / 64 = 2^17.
        assert!(coordinates_defined(&decl, size, &at(131072.0, 0.5)));
        assert!(!coordinates_defined(&decl, size, &at(131072.5, 0.5)));
        // v scales by the height: 2^23 / 16 = 2^19.
        assert!(coordinates_defined(&decl, size, &at(0.5, -524288.0)));
        assert!(!coordinates_defined(&decl, size, &at(0.5, -524288.5)));
        assert!(!coordinates_defined(&decl, size, &at(f64::INFINITY, 0.5)));
        assert!(!coordinates_defined(&decl, size, &at(0.5, f64::NAN)));
        // A 2D array's layer is not a texel coordinate.
        let mut array = decl.clone();
        array.arrayed = true;
        let layered = [
            (0.5, (0.5, 0.5)),
            (0.5, (0.5, 0.5)),
            (1.0e9, (1.0e9, 1.0e9)),
        ];
        assert!(coordinates_defined(&array, size, &layered));
    }

    #[test]
    fn linear_taps_are_the_two_nearest_texel_centres() {
        let axis = |coord| Axis {
            coord,
            range: (coord, coord),
            size: 4,
            mode: AddressMode::ClampToEdge,
        };
        // u = 1.75 texels: centres 1.5 and 2.5, a quarter of the way.
        assert_eq!(
            taps(&axis(1.75), Filter::Linear),
            vec![(1, 0.75), (2, 0.25)]
        );
        // At the left edge: u - 1/2 = -0.25, taps -1 (clamped to 0) at 0.25 and 0 at
        // 0.75.
        assert_eq!(
            taps(&axis(0.25), Filter::Linear),
            vec![(0, 0.25), (0, 0.75)]
        );
        assert_eq!(taps(&axis(1.75), Filter::Nearest), vec![(1, 1.0)]);
        // The footprint takes the neighbours a coordinate 1/256 texel away reaches.
        assert_eq!(footprint(&axis(2.5)), vec![1, 2, 3]);
        assert_eq!(footprint(&axis(2.25)), vec![1, 2]);
        assert_eq!(footprint(&axis(f64::NAN)), vec![0, 1, 2, 3]);
    }
}
