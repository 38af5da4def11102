//! The sampler's `ld` and `ld_lz` (IGC's `3D_LOAD.md`): an unfiltered load of one texel
//! by integer coordinates through the surface state; and its `resinfo` (IGC's
//! `INFO.md`): the view's size at a LOD and its level count, from the surface state.

use crate::memory::Memory;
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut, Sender};
use crate::messages::surface::{bound, sample_texel, sampler_texel, typed_texel};
use crate::texel::TexelLayout;
use ir::interp::EnvError;
use ir::BaseType;
use tiling::SurfDim;

/// One sampler load as the semantics take it.
#[derive(Copy, Clone, Debug)]
pub struct SamplerMessage<'a> {
    /// The sender (the access log's context of each lane).
    pub sender: Sender<'a>,
    /// The lanes that load: the active lanes whose predicate is true.
    pub enabled: u32,
    /// For each lane, the binding-table index of its surface.
    pub surfaces: &'a [u32],
    /// The channels returned (bit 0 = R), packed in channel order; 1 to 0xf.
    pub channels: u8,
    /// The bit size of the returned values: 32, or 16 (floats rounded to binary16,
    /// integers cut to their low 16 bits).
    pub dest_bits: u8,
    /// The base type of the returned values.
    pub dest_base: BaseType,
}

/// `ld` (with `lod`) or `ld_lz` (`lod` = `None`, LOD 0): each served lane loads the
/// texel at `(u, v, r)` (per surface type: 1D x, array index; 2D and cubes x, y, array
/// index; 3D x, y, z) and LOD `lod` relative to the view's base level, converted with
/// the surface-state format; out-of-range coordinates or LOD read the all-zero texel
/// converted with that format (0 in its channels, the format's (0, 0, 1) in a missing
/// G, B, A: `r32_float` gives (0, 0, 0, 1.0)), as typed loads do.
pub fn ld(
    mem: &mut Memory,
    msg: &SamplerMessage<'_>,
    u: Lanes<'_>,
    v: Lanes<'_>,
    r: Lanes<'_>,
    lod: Option<Lanes<'_>>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    load_each(mem, msg, dest, |b, lane| {
        let l = lod.map_or(0, |l| l.scalar(lane));
        typed_texel(b, u.scalar(lane), v.scalar(lane), r.scalar(lane), l)
    })
}

/// `ld2dms_w`: each served lane loads sample `si` (clamped to the surface's sample
/// count) of the texel at `(u, v, r)` (x, y, array index) of a multisampled surface,
/// converted as `ld` converts. The MCS value `(mcsl, mcsh)` selects where a compressed
/// surface keeps the sample; the surfaces bound here have no MCS (the model binds
/// none), so `ld2dms_w` reads the sample's own slice, whatever the value.
pub fn ld2dms_w(
    mem: &mut Memory,
    msg: &SamplerMessage<'_>,
    si: Lanes<'_>,
    [u, v, r]: [Lanes<'_>; 3],
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    load_each(mem, msg, dest, |b, lane| {
        sample_texel(
            b,
            si.scalar(lane),
            u.scalar(lane),
            v.scalar(lane),
            r.scalar(lane),
        )
    })
}

/// `ld_mcs`: the multisample control surface's value of each served lane's texel.
/// Surfaces here are bound without an MCS, whose value then reads 0 in every channel
/// (and tells `ld2dms_w` that each sample is in its own slice). Nothing is read.
pub fn ld_mcs(
    mem: &Memory,
    msg: &SamplerMessage<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    for lane in msg.sender.lanes_of(msg.enabled) {
        let binding = lane_surface(msg, lane)?;
        bound(mem, &msg.sender, binding, lane)?;
        let vals = vec![0; msg.channels.count_ones() as usize];
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// The binding-table index lane `lane` of `msg` names.
fn lane_surface(msg: &SamplerMessage<'_>, lane: usize) -> Result<u32, EnvError> {
    msg.surfaces.get(lane).copied().ok_or_else(|| {
        MessageError::shape(format!("the sampler load names no surface in lane {lane}"))
    })
}

/// The loads of `ld`, `ld_lz` and `ld2dms_w`: each served lane reads the texel `at`
/// gives for its surface (`None`: out of range), converted with the surface-state
/// format.
fn load_each(
    mem: &mut Memory,
    msg: &SamplerMessage<'_>,
    dest: &mut LanesMut<'_>,
    at: impl Fn(&crate::memory::ImageBinding, usize) -> Result<Option<u64>, EnvError>,
) -> Result<(), EnvError> {
    if !matches!(msg.dest_bits, 16 | 32) {
        return Err(MessageError::shape(format!(
            "the sampler returns 16- or 32-bit data, not {}-bit",
            msg.dest_bits
        )));
    }
    for lane in msg.sender.lanes_of(msg.enabled) {
        let ctx = msg.sender.ctx(lane);
        let binding = lane_surface(msg, lane)?;
        let b = bound(mem, &msg.sender, binding, lane)?;
        let layout =
            TexelLayout::from_isl(b.state_format).map_err(|e| EnvError::at_lane(lane as u32, e))?;
        if layout.is_64bit() {
            return Err(MessageError::illegal(format!(
                "the sampler cannot load the 64-bit format {}",
                layout.name
            )));
        }
        let alloc = b.alloc;
        let texel = at(b, lane)?;
        // Out of range, the texel reads as all-zero bytes converted with the surface
        // format, as for typed loads: 0 in the format's channels, (0, 0, 1) in a missing
        // G, B, A (Vulkan's texel replacement under robustImageAccess2, which anv
        // exposes for sampled images with no bounds check in the shader).
        let rgba = sampler_texel(mem, alloc, texel, &layout, &ctx, lane)?;
        let vals: Vec<u64> = (0..4)
            .filter(|c| msg.channels & (1 << c) != 0)
            .map(|c| to_dest(rgba[c], msg.dest_bits, msg.dest_base))
            .collect();
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// One `resinfo` as the semantics take it.
#[derive(Copy, Clone, Debug)]
pub struct ResinfoMessage<'a> {
    /// The sender.
    pub sender: Sender<'a>,
    /// The lanes that query: the active lanes.
    pub enabled: u32,
    /// For each lane, the binding-table index of its surface.
    pub surfaces: &'a [u32],
    /// The channels returned (bit 0 = R), packed in channel order; 1 to 0xf.
    pub channels: u8,
}

/// The four channels `resinfo` returns for the view of `b` at `lod` (unsigned, relative
/// to the view's base level), per surface type, as IGC's `INFO.md` tabulates them for
/// array surfaces (ISL sets `SurfaceArray` for every 1D and 2D surface from Gfx7,
/// `isl_surface_state.c`, so a view of one layer reads as an array of one):
///
/// | surface | R | G | B | A |
/// |---|---|---|---|---|
/// | 1D | width | layers | 0 | levels |
/// | 2D (and cubes, bound as 2D arrays) | width | height | layers | levels |
/// | 3D | width | height | depth | levels |
///
/// Width, height and depth are those of level `lod`, at least 1; layers are the view's
/// at every level. A `lod` at or beyond the view's level count returns 0 in R, G and B
/// and still the level count in A (D3D's `resinfo` rule, which Intel's sampler
/// follows). A texel buffer is an error: the message is defined for the surface types
/// above only.
pub fn resinfo_channels(b: &crate::memory::ImageBinding, lod: u32) -> Result<[u64; 4], String> {
    let levels = u64::from(b.levels);
    let dim = match &b.storage {
        crate::memory::ImageStorage::Buffer { .. } => {
            return Err("resinfo reads 1D, 2D and 3D surfaces, not a texel buffer".to_string())
        }
        crate::memory::ImageStorage::Surface { surface, .. } => surface.desc().dim,
    };
    let Some(e) = b.view_extent(lod) else {
        return Ok([0, 0, 0, levels]);
    };
    Ok(match dim {
        SurfDim::D1 => [e.width, e.layers, 0, levels],
        SurfDim::D2 => [e.width, e.height, e.layers, levels],
        SurfDim::D3 => [e.width, e.height, e.depth, levels],
    })
}

/// `resinfo`: each enabled lane gets the channels of [`resinfo_channels`] its mask
/// selects, for the surface it names and its `lod`. No texel is read, so nothing is
/// logged.
pub fn resinfo(
    mem: &Memory,
    msg: &ResinfoMessage<'_>,
    lod: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    for lane in msg.sender.lanes_of(msg.enabled) {
        let binding = msg.surfaces.get(lane).copied().ok_or_else(|| {
            MessageError::shape(format!("the resinfo names no surface in lane {lane}"))
        })?;
        let b = bound(mem, &msg.sender, binding, lane)?;
        let all = resinfo_channels(b, lod.scalar(lane) as u32).map_err(MessageError::illegal)?;
        let vals: Vec<u64> = (0..4)
            .filter(|c| msg.channels & (1 << c) != 0)
            .map(|c| all[c])
            .collect();
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// A 32-bit register value returned as a `bits`-bit destination of base type `base`.
fn to_dest(v: u64, bits: u8, base: BaseType) -> u64 {
    if bits == 32 {
        return v & 0xffff_ffff;
    }
    match base {
        BaseType::Float => half::f16::from_f32(f32::from_bits(v as u32)).to_bits() as u64,
        _ => v & 0xffff,
    }
}

#[cfg(test)]
mod tests {
    use super::resinfo_channels;
    use crate::memory::Memory;
    use tiling::{Bit6Swizzle, Format, Gen, ImageView, SurfDim, Surface, SurfaceDesc, Tiling};

    /// Binds a linear surface of `dim` with `levels` levels at binding 0, viewed from
    /// `base` with `view_levels` levels.
    fn bind(
        dim: SurfDim,
        [w, h, d]: [u32; 3],
        layers: u32,
        levels: u32,
        base: u32,
        view_levels: u32,
    ) -> Result<Memory, String> {
        let desc = SurfaceDesc::new(Gen::Gfx125, dim, Format::R32_UINT, Tiling::Linear)
            .extent(w, h, d)
            .array_len(layers)
            .levels(levels);
        let surface = Surface::new(desc).unwrap();
        let view = ImageView::level(&surface, base);
        let mut mem = Memory::new();
        mem.bind_surface_image(
            0,
            "t",
            surface,
            view,
            ir::Format::R32Uint,
            Format::R32_UINT,
            Bit6Swizzle::None,
        )
        .map_err(|e| e.reason)?;
        mem.set_view_levels(0, view_levels).map_err(|e| e.reason)?;
        Ok(mem)
    }

    fn channels(mem: &Memory, lod: u32) -> Result<[u64; 4], String> {
        resinfo_channels(mem.image(0).unwrap(), lod)
    }

    #[test]
    fn resinfo_returns_the_levels_size_and_the_level_count() {
        // A 2D array of 4 layers, 37x19, 6 levels, viewed from level 1 with 5 levels:
        // level 1 + lod. 37 >> 1 = 18, 19 >> 1 = 9; at LOD 4 (level 5) 37 >> 5 = 1 and
        // 19 >> 5 = 0, which the minification keeps at 1. LOD 5 is outside the view.
        let mem = bind(SurfDim::D2, [37, 19, 1], 4, 6, 1, 5).unwrap();
        assert_eq!(channels(&mem, 0).unwrap(), [18, 9, 4, 5]);
        assert_eq!(channels(&mem, 1).unwrap(), [9, 4, 4, 5]);
        assert_eq!(channels(&mem, 4).unwrap(), [1, 1, 4, 5]);
        assert_eq!(channels(&mem, 5).unwrap(), [0, 0, 0, 5]);
        assert_eq!(channels(&mem, u32::MAX).unwrap(), [0, 0, 0, 5]);
        // A 1D array: the layers in G, B 0.
        let mem = bind(SurfDim::D1, [16, 1, 1], 3, 5, 0, 5).unwrap();
        assert_eq!(channels(&mem, 2).unwrap(), [4, 3, 0, 5]);
        // A 3D view of every slice: depth 5 >> 1 = 2 at LOD 1, 1 at LOD 2.
        let mem = bind(SurfDim::D3, [9, 7, 5], 1, 3, 0, 3).unwrap();
        assert_eq!(channels(&mem, 1).unwrap(), [4, 3, 2, 3]);
        assert_eq!(channels(&mem, 2).unwrap(), [2, 1, 1, 3]);
        // A storage view (one level): LOD 1 is out of range.
        let mem = bind(SurfDim::D2, [8, 8, 1], 1, 3, 0, 1).unwrap();
        assert_eq!(channels(&mem, 0).unwrap(), [8, 8, 1, 1]);
        assert_eq!(channels(&mem, 1).unwrap(), [0, 0, 0, 1]);
        // A texel buffer is not a resinfo surface.
        let mut mem = Memory::new();
        mem.bind_buffer_image(0, "b", 10, ir::Format::R32Uint, Format::R32_UINT)
            .unwrap();
        assert!(channels(&mem, 0)
            .unwrap_err()
            .contains("not a texel buffer"));
    }

    #[test]
    fn views_of_levels_that_do_not_exist_are_bind_errors() {
        let e = bind(SurfDim::D2, [8, 8, 1], 1, 3, 1, 3).unwrap_err();
        assert_eq!(
            e,
            "the view's levels 1..4 are outside the 3 the surface has"
        );
        let e = bind(SurfDim::D2, [8, 8, 1], 1, 3, 0, 0).unwrap_err();
        assert!(e.contains("levels 0..0"), "{e}");
        // A 3D view of several levels covers every slice: the view of level 0 from
        // slice 1 does not.
        let desc = SurfaceDesc::new(Gen::Gfx125, SurfDim::D3, Format::R32_UINT, Tiling::Linear)
            .extent(4, 4, 4)
            .levels(2);
        let surface = Surface::new(desc).unwrap();
        let mut view = ImageView::level(&surface, 0);
        view.base_layer = 1;
        view.layer_count = 3;
        let mut mem = Memory::new();
        mem.bind_surface_image(
            0,
            "t",
            surface,
            view,
            ir::Format::R32Uint,
            Format::R32_UINT,
            Bit6Swizzle::None,
        )
        .unwrap();
        let e = mem.set_view_levels(0, 2).unwrap_err();
        assert_eq!(
            e.reason,
            "a 3D view of 2 levels covers all 4 slices of its base level, not 1..4"
        );
        assert!(mem.set_view_levels(0, 1).is_ok());
        // Buffers have one level; nothing is bound at 7.
        mem.bind_buffer_image(1, "b", 10, ir::Format::R32Uint, Format::R32_UINT)
            .unwrap();
        assert!(mem.set_view_levels(1, 1).is_ok());
        assert_eq!(
            mem.set_view_levels(1, 2).unwrap_err().reason,
            "a texel buffer has one level, not 2"
        );
        assert_eq!(
            mem.set_view_levels(7, 1).unwrap_err().reason,
            "no image is bound there"
        );
    }
}
