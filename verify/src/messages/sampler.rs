//! The sampler's `ld` and `ld_lz` (IGC's `3D_LOAD.md`): an unfiltered load of one texel
//! by integer coordinates through the surface state.

use crate::memory::{AccessKind, Memory, Target};
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut, Sender};
use crate::messages::surface::{bound, typed_texel};
use crate::texel::TexelLayout;
use ir::interp::EnvError;
use ir::BaseType;

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
/// the surface-state format; out-of-range coordinates or LOD return 0 in every channel
/// (the D3D `ld` rule Intel's sampler implements for out-of-bounds integer loads).
pub fn ld(
    mem: &mut Memory,
    msg: &SamplerMessage<'_>,
    u: Lanes<'_>,
    v: Lanes<'_>,
    r: Lanes<'_>,
    lod: Option<Lanes<'_>>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    if !matches!(msg.dest_bits, 16 | 32) {
        return Err(MessageError::shape(format!(
            "the sampler returns 16- or 32-bit data, not {}-bit",
            msg.dest_bits
        )));
    }
    for lane in msg.sender.lanes_of(msg.enabled) {
        let ctx = msg.sender.ctx(lane);
        let binding = msg.surfaces.get(lane).copied().ok_or_else(|| {
            MessageError::shape(format!("the sampler load names no surface in lane {lane}"))
        })?;
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
        let l = lod.map_or(0, |l| l.scalar(lane));
        let Some(off) = typed_texel(b, u.scalar(lane), v.scalar(lane), r.scalar(lane), l)? else {
            mem.discard_texel(AccessKind::Load, alloc, layout.bytes, &ctx);
            continue;
        };
        let mut bytes = vec![0u8; layout.bytes];
        mem.load(Target::Alloc(alloc, off), &mut bytes, &ctx)
            .map_err(|e| EnvError::at_lane(lane as u32, e))?;
        let rgba = layout
            .decode(&bytes)
            .map_err(|e| EnvError::at_lane(lane as u32, e))?;
        let vals: Vec<u64> = (0..4)
            .filter(|c| msg.channels & (1 << c) != 0)
            .map(|c| to_dest(rgba[c], msg.dest_bits, msg.dest_base))
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
