//! The sampler's `sample_l` (IGC's `3D_SAMPLE.md`): the surface filtered at normalized
//! float coordinates and an explicit LOD, with the sampler state the message names.
//!
//! This is a model of the hardware's arithmetic, not Vulkan's definition (which is
//! the reference, `crate::filtering`): Intel's samplers compute in fixed point, with 8
//! bits of sub-texel fraction for the filter weights and 8 bits of fraction for the LOD
//! (`VkPhysicalDeviceLimits::subTexelPrecisionBits` and `mipmapPrecisionBits`, both 8 on
//! anv, `anv_device.c`), and accumulate in 32-bit floats:
//!
//! * A NaN coordinate or LOD reads as 0 (the float-to-fixed conversion's rule).
//! * LOD: clamped to the state's `[min_lod, max_lod]`, rounded to 1/256; the
//!   magnification filter when it is at most 0; clamped to the view's levels;
//!   `mip_nearest` takes level `⌊λ + ½⌋`, `mip_linear` `⌊λ⌋` and the next one, blended
//!   by the 8-bit fraction.
//! * Per dimension: `u · size` (a 32-bit float product) in fixed point with 8 bits of
//!   fraction, rounded to nearest; `nearest` takes its integer part, `linear` takes
//!   that of `u · size - ½` and the next texel, weighted by the fraction's 8 bits.
//! * Texels wrap as the address mode says, are decoded with the surface-state format,
//!   and are summed as `acc += weight · texel` in 32-bit floats, the weights products
//!   of the 8-bit fractions (exact in a float).
//! * The layer of a 2D array (`r`) or a 1D array (`v`): `clamp(RNE(a), 0, layers - 1)`.
//! * The header's texel offsets (`aoffimmi`) are added to the integer texel
//!   coordinates before wrapping.
//! * `gather4` (IGC's `3D_SAMPLE4.md`) reads the base level's 2x2 texels a `linear`
//!   filter would weight and returns one channel of each, unfiltered: lower left,
//!   lower right, upper right, upper left in R, G, B, A.
//! * An integer surface is read unfiltered: its sampler must be `nearest` with
//!   `mip_nearest` (no integer format is filterable in Vulkan), and the one texel those
//!   select is returned as its integer channels.

use crate::memory::{ImageBinding, Memory};
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut, Sender};
use crate::messages::surface::{bound, sampler_texel, typed_texel};
use crate::sampler_state::{AddressMode, Filter, MipmapMode, SamplerState};
use crate::texel::TexelLayout;
use ir::interp::EnvError;
use tiling::SurfDim;

/// One `sample_l` as the semantics take it.
#[derive(Copy, Clone, Debug)]
pub struct SampleMessage<'a> {
    /// The sender (the access log's context of each lane).
    pub sender: Sender<'a>,
    /// The lanes that sample: the active lanes whose predicate is true.
    pub enabled: u32,
    /// For each lane, the binding-table index of its surface.
    pub surfaces: &'a [u32],
    /// The sampler index (the sampler state the message filters with).
    pub sampler: u32,
    /// The channels returned (bit 0 = R), packed in channel order; 1 to 0xf.
    pub channels: u8,
    /// The texel offsets of the message header.
    pub offset: ir::TexelOffset,
}

impl SampleMessage<'_> {
    /// The sampler state the message filters with.
    fn state(&self, mem: &Memory) -> Result<SamplerState, EnvError> {
        mem.sampler(self.sampler).copied().ok_or_else(|| {
            MessageError::illegal(format!(
                "sampler index {} has no sampler state bound",
                self.sampler
            ))
        })
    }

    /// The surface lane `lane` of message `name` reads and its 32-bit-channel layout.
    fn surface(
        &self,
        mem: &Memory,
        lane: usize,
        name: &str,
    ) -> Result<(ImageBinding, TexelLayout), EnvError> {
        let binding = self.surfaces.get(lane).copied().ok_or_else(|| {
            MessageError::shape(format!("the {name} names no surface in lane {lane}"))
        })?;
        let b = bound(mem, &self.sender, binding, lane)?.clone();
        let layout =
            TexelLayout::from_isl(b.state_format).map_err(|e| EnvError::at_lane(lane as u32, e))?;
        if layout.is_64bit() {
            return Err(MessageError::illegal(format!(
                "{name} reads 32-bit channels, not the 64-bit ones of {}",
                layout.name
            )));
        }
        Ok((b, layout))
    }
}

/// The fixed-point scale of a sub-texel fraction and of the LOD.
const FRACTION: f32 = 256.0;

/// A float in fixed point with 8 bits of fraction, rounded to nearest (NaN as 0,
/// saturating).
fn fixed(x: f32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    (f64::from(x) * f64::from(FRACTION))
        .round()
        .clamp(-(1i64 << 50) as f64, (1i64 << 50) as f64) as i64
}

fn wrap(i: i64, size: i64, mode: AddressMode) -> i64 {
    match mode {
        AddressMode::Repeat => i.rem_euclid(size),
        AddressMode::MirroredRepeat => {
            let p = i.rem_euclid(2 * size);
            if p < size {
                p
            } else {
                2 * size - 1 - p
            }
        }
        AddressMode::ClampToEdge => i.clamp(0, size - 1),
        AddressMode::MirrorClampToEdge => {
            let m = if i < 0 { -i - 1 } else { i };
            m.clamp(0, size - 1)
        }
    }
}

/// The texels and 8-bit weights of one dimension, `offset` texels on.
fn taps(coord: f32, size: i64, filter: Filter, mode: AddressMode, offset: i8) -> Vec<(i64, u32)> {
    let scaled = if coord.is_nan() {
        0.0
    } else {
        coord * size as f32
    };
    let offset = i64::from(offset);
    match filter {
        Filter::Nearest => vec![(wrap((fixed(scaled) >> 8) + offset, size, mode), 256)],
        Filter::Linear => {
            let f = fixed(scaled) - 128;
            let i = (f >> 8) + offset;
            let a = (f & 255) as u32;
            vec![(wrap(i, size, mode), 256 - a), (wrap(i + 1, size, mode), a)]
        }
    }
}

/// `sample_l`: each served lane gets the channels of the filtered texel (see the module
/// documentation), as 32-bit floats; of an integer surface, which a nearest sampler
/// reads unfiltered, the texel's channels as 32-bit integers.
pub fn sample_l(
    mem: &mut Memory,
    msg: &SampleMessage<'_>,
    lod: Lanes<'_>,
    u: Lanes<'_>,
    v: Lanes<'_>,
    r: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let state = msg.state(mem)?;
    let f = |l: &Lanes<'_>, lane: usize| f32::from_bits(l.scalar(lane) as u32);
    for lane in msg.sender.lanes_of(msg.enabled) {
        let (b, layout) = msg.surface(mem, lane, "sample_l")?;
        if layout.is_integer() && !state.is_unfiltered() {
            return Err(MessageError::illegal(format!(
                "sample_l of the integer format {} with a linear filter or mipmap mode: \
                 no integer format is filterable (Vulkan's FILTER_LINEAR format feature), \
                 so its sampler must be nearest with mip_nearest",
                layout.name
            )));
        }
        let rgba = filter_lane(
            mem,
            msg,
            lane,
            &b,
            &layout,
            &state,
            f(&lod, lane),
            [f(&u, lane), f(&v, lane), f(&r, lane)],
        )?;
        let vals: Vec<u64> = (0..4)
            .filter(|c| msg.channels & (1 << c) != 0)
            .map(|c| u64::from(rgba[c]))
            .collect();
        dest.set(lane, &vals)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn filter_lane(
    mem: &mut Memory,
    msg: &SampleMessage<'_>,
    lane: usize,
    b: &ImageBinding,
    layout: &TexelLayout,
    state: &SamplerState,
    lod: f32,
    uvr: [f32; 3],
) -> Result<[u32; 4], EnvError> {
    let lod = if lod.is_nan() { 0.0 } else { lod };
    let lambda = fixed(lod.clamp(state.min_lod, state.max_lod));
    let filter = if lambda <= 0 {
        state.mag_filter
    } else {
        state.min_filter
    };
    let q = i64::from(b.levels.saturating_sub(1));
    let d = lambda.clamp(0, q << 8);
    let levels: Vec<(u32, u32)> = match state.mipmap_mode {
        MipmapMode::Nearest => vec![(((d + 128) >> 8).min(q) as u32, 256)],
        MipmapMode::Linear => {
            let hi = d >> 8;
            let frac = (d & 255) as u32;
            vec![(hi as u32, 256 - frac), ((hi + 1).min(q) as u32, frac)]
        }
    };
    let ctx = msg.sender.ctx(lane);
    let mut out = [0.0f32; 4];
    for (lv, lw) in levels {
        if lw == 0 {
            continue;
        }
        let Some(ext) = b.view_extent(lv) else {
            return Err(MessageError::illegal(format!(
                "level {lv} is outside the view"
            )));
        };
        let (w, h, depth, layers) = (
            ext.width as i64,
            ext.height as i64,
            ext.depth as i64,
            ext.layers as i64,
        );
        let layer = |a: f32| -> i64 {
            if a.is_nan() {
                0
            } else {
                (a.round_ties_even().clamp(-1.0e9, 1.0e9) as i64).clamp(0, layers - 1)
            }
        };
        let one = vec![(0i64, 256u32)];
        let [ou, ov, or] = msg.offset.0;
        let (tx, ty, tz) = match ext.surf_dim {
            Some(SurfDim::D1) => (
                taps(uvr[0], w, filter, state.address[0], ou),
                vec![(layer(uvr[1]), 256)],
                one.clone(),
            ),
            Some(SurfDim::D2) => (
                taps(uvr[0], w, filter, state.address[0], ou),
                taps(uvr[1], h, filter, state.address[1], ov),
                vec![(layer(uvr[2]), 256)],
            ),
            Some(SurfDim::D3) => (
                taps(uvr[0], w, filter, state.address[0], ou),
                taps(uvr[1], h, filter, state.address[1], ov),
                taps(uvr[2], depth, filter, state.address[2], or),
            ),
            None => {
                return Err(MessageError::illegal(
                    "sample_l filters 1D, 2D and 3D surfaces, not a buffer",
                ))
            }
        };
        let mut acc = [0.0f32; 4];
        for &(z, wz) in &tz {
            for &(y, wy) in &ty {
                for &(x, wx) in &tx {
                    let weight = wx * wy * wz;
                    if weight == 0 {
                        continue;
                    }
                    let texel = typed_texel(b, x as u64, y as u64, z as u64, u64::from(lv))?;
                    let t = sampler_texel(mem, b.alloc, texel, layout, &ctx, lane)?;
                    if layout.is_integer() {
                        // Unfiltered (the caller checked): the one texel, as it is.
                        return Ok(t.map(|c| c as u32));
                    }
                    // 8 + 8 + 8 bits of weight: exact in a float.
                    let wf = weight as f32 / (256.0 * 256.0 * 256.0);
                    for c in 0..4 {
                        acc[c] += wf * f32::from_bits(t[c] as u32);
                    }
                }
            }
        }
        let lwf = lw as f32 / 256.0;
        for c in 0..4 {
            out[c] += lwf * acc[c];
        }
    }
    Ok(out.map(f32::to_bits))
}

/// `gather4`: each served lane gets channel `component` of the four texels of the
/// base level a `linear` filter at `(u, v)` reads (of layer `r` of a 2D array), in the
/// order of the module documentation: 32-bit floats, or an integer surface's integers.
pub fn gather4(
    mem: &mut Memory,
    msg: &SampleMessage<'_>,
    component: usize,
    u: Lanes<'_>,
    v: Lanes<'_>,
    r: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let state = msg.state(mem)?;
    let f = |l: &Lanes<'_>, lane: usize| f32::from_bits(l.scalar(lane) as u32);
    for lane in msg.sender.lanes_of(msg.enabled) {
        let (b, layout) = msg.surface(mem, lane, "gather4")?;
        let Some(ext) = b.view_extent(0) else {
            return Err(MessageError::illegal("the view has no base level"));
        };
        if ext.surf_dim != Some(SurfDim::D2) {
            return Err(MessageError::illegal("gather4 reads 2D surfaces only"));
        }
        let layer = {
            let a = f(&r, lane);
            let layers = ext.layers as i64;
            if a.is_nan() {
                0
            } else {
                (a.round_ties_even().clamp(-1.0e9, 1.0e9) as i64).clamp(0, layers - 1)
            }
        };
        let [ou, ov, _] = msg.offset.0;
        let xs = taps(
            f(&u, lane),
            ext.width as i64,
            Filter::Linear,
            state.address[0],
            ou,
        );
        let ys = taps(
            f(&v, lane),
            ext.height as i64,
            Filter::Linear,
            state.address[1],
            ov,
        );
        let ctx = msg.sender.ctx(lane);
        let mut out = [0u64; 4];
        // (i0, j1), (i1, j1), (i1, j0), (i0, j0).
        for (o, (xi, yi)) in out.iter_mut().zip([(0, 1), (1, 1), (1, 0), (0, 0)]) {
            let texel = typed_texel(&b, xs[xi].0 as u64, ys[yi].0 as u64, layer as u64, 0)?;
            let t = sampler_texel(mem, b.alloc, texel, &layout, &ctx, lane)?;
            *o = u64::from(t[component] as u32);
        }
        dest.set(lane, &out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_have_eight_bits_of_fraction() {
        // u = 0.4375 of 4 texels = 1.75 texels: centres 1.5 and 2.5, weights 3/4, 1/4.
        assert_eq!(
            taps(0.4375, 4, Filter::Linear, AddressMode::ClampToEdge, 0),
            vec![(1, 192), (2, 64)]
        );
        // An offset of -2 texels moves both taps, then wraps them.
        assert_eq!(
            taps(0.4375, 4, Filter::Linear, AddressMode::Repeat, -2),
            vec![(3, 192), (0, 64)]
        );
        // A third of a texel past a centre rounds to 85/256.
        let t = taps(
            (1.5 + 1.0 / 3.0) / 4.0,
            4,
            Filter::Linear,
            AddressMode::Repeat,
            0,
        );
        assert_eq!(t, vec![(1, 171), (2, 85)]);
        assert_eq!(
            taps(-0.1, 4, Filter::Nearest, AddressMode::Repeat, 0),
            vec![(3, 256)]
        );
        assert_eq!(
            taps(f32::NAN, 4, Filter::Linear, AddressMode::ClampToEdge, 0),
            vec![(0, 128), (0, 128)]
        );
    }
}
