//! Typed LSC messages (`.tgm`): `load_quad`, `store_quad` and atomics on the texels of
//! a surface, through its surface state (format, view, tiled layout).

use crate::memory::{AccessKind, Memory, Target};
use crate::messages::atomic::apply_lsc_atomic;
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut};
use crate::messages::lsc::Message;
use crate::messages::surface::{bound, typed_texel};
use crate::texel::{read_bits, write_bits, ChannelKind, TexelLayout};
use ir::interp::EnvError;
use ir::lsc::DataSize;

/// The four coordinates of a typed message, `u`, `v`, `r` and `lod`, per lane.
#[derive(Copy, Clone, Debug)]
pub struct Coords<'a> {
    /// `u`.
    pub u: Lanes<'a>,
    /// `v`.
    pub v: Lanes<'a>,
    /// `r`.
    pub r: Lanes<'a>,
    /// `lod`, relative to the view's base level.
    pub lod: Lanes<'a>,
}

impl Coords<'_> {
    fn of(&self, lane: usize) -> [u64; 4] {
        [
            self.u.scalar(lane),
            self.v.scalar(lane),
            self.r.scalar(lane),
            self.lod.scalar(lane),
        ]
    }
}

/// `e` as the error of lane `lane`.
fn at_lane(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

/// Whether the data size can carry the channels of the surface-state format: `d32` the
/// 32-bit channel values, `d64` those of 64-bit formats, `d16u32` and `d8u32` the raw
/// bits of integer or 16-bit-float channels no wider than 16 or 8 bits.
fn check_typed_size(layout: &TexelLayout, size: DataSize) -> Result<(), EnvError> {
    let ok = match size {
        DataSize::D32 => !layout.is_64bit(),
        DataSize::D64 => layout.is_64bit(),
        DataSize::D16U32 | DataSize::D8U32 => {
            let w = if size == DataSize::D16U32 { 16 } else { 8 };
            layout.channels.iter().all(|c| {
                c.bits <= w
                    && match c.kind {
                        ChannelKind::Uint | ChannelKind::Sint | ChannelKind::Raw => true,
                        ChannelKind::Float => c.bits == 16,
                        _ => false,
                    }
            })
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(MessageError::illegal(format!(
            "typed data size {} cannot carry the channels of surface format {}",
            size.name(),
            layout.name
        )))
    }
}

/// The raw bits of each channel, zero-extended, in RGBA slots (missing channels 0, alpha
/// 1): what `d16u32`/`d8u32` typed loads return.
fn raw_channels(layout: &TexelLayout, bytes: &[u8]) -> [u64; 4] {
    let mut out = [0, 0, 0, 1];
    for c in &layout.channels {
        out[c.slot as usize] = read_bits(bytes, c.start_bit, c.bits);
    }
    out
}

/// `lsc_load_quad` on `.tgm`: each served lane reads the texel at its coordinates,
/// converted with the surface-state format, and gets the enabled channels packed.
pub fn load_quad(
    mem: &mut Memory,
    msg: &Message<'_>,
    coords: Coords<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let shape = msg.desc.shape;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let b = bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
        let layout = TexelLayout::from_isl(b.state_format).map_err(|e| at_lane(lane, e))?;
        let alloc = b.alloc;
        let [u, v, r, lod] = coords.of(lane);
        let texel = typed_texel(b, u, v, r, lod)?;
        check_typed_size(&layout, shape.size)?;
        // Out of bounds, the texel reads as all-zero bytes converted with the surface
        // format: 0 in the format's channels and the format's (0, 0, 1) in the missing
        // G, B, A (Vulkan's texel replacement, which anv guarantees with
        // robustImageAccess2).
        let mut bytes = vec![0u8; layout.bytes];
        mem.texel_access(AccessKind::Load, alloc, texel, &mut bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
        let rgba = if shape.size.is_conversion() {
            raw_channels(&layout, &bytes)
        } else {
            layout.decode(&bytes).map_err(|e| at_lane(lane, e))?
        };
        let vals: Vec<u64> = (0..4)
            .filter(|c| shape.cmask & (1 << c) != 0)
            .map(|c| rgba[c])
            .collect();
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// `lsc_store_quad` on `.tgm`: each served lane converts its enabled channels (packed in
/// `data`) with the surface-state format and writes them, leaving the texel's other
/// channels as they are; out of bounds, nothing is written.
pub fn store_quad(
    mem: &mut Memory,
    msg: &Message<'_>,
    coords: Coords<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let shape = msg.desc.shape;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let b = bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
        let layout = TexelLayout::from_isl(b.state_format).map_err(|e| at_lane(lane, e))?;
        let alloc = b.alloc;
        let [u, v, r, lod] = coords.of(lane);
        let texel = typed_texel(b, u, v, r, lod)?;
        check_typed_size(&layout, shape.size)?;
        let Some(off) = texel else {
            mem.discard_texel(AccessKind::Store, alloc, layout.bytes, &ctx);
            continue;
        };
        let values = data.lane(lane);
        let mut rgba = [0u64; 4];
        let mut k = 0;
        for (c, slot) in rgba.iter_mut().enumerate() {
            if shape.cmask & (1 << c) != 0 {
                *slot = values.get(k).copied().unwrap_or(0);
                k += 1;
            }
        }
        let target = Target::Alloc(alloc, off);
        let mut bytes = vec![0u8; layout.bytes];
        mem.peek(target, &mut bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
        if shape.size.is_conversion() {
            for ch in &layout.channels {
                if shape.cmask & (1 << ch.slot) != 0 {
                    write_bits(&mut bytes, ch.start_bit, ch.bits, rgba[ch.slot as usize]);
                }
            }
        } else {
            layout
                .encode_into(&rgba, shape.cmask, &mut bytes)
                .map_err(|e| at_lane(lane, e))?;
        }
        mem.store(target, &bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
    }
    Ok(())
}

/// `lsc_atomic` on `.tgm`: each served lane, in ascending order, applies the sub-op to
/// its whole texel (2, 4 or 8 bytes, the data size's) without conversion and gets the
/// old texel; out of bounds the atomic is dropped and the lane's result left alone.
pub fn atomic(
    mem: &mut Memory,
    msg: &Message<'_>,
    coords: Coords<'_>,
    src1: Lanes<'_>,
    src2: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let shape = msg.desc.shape;
    let op = msg
        .desc
        .atomic
        .ok_or_else(|| MessageError::bad_index("lsc_op"))?;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let b = bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
        let layout = TexelLayout::from_isl(b.state_format).map_err(|e| at_lane(lane, e))?;
        let alloc = b.alloc;
        let [u, v, r, lod] = coords.of(lane);
        let texel = typed_texel(b, u, v, r, lod)?;
        let tbytes = layout.bytes;
        let bytes = shape.size.mem_bytes() as usize;
        if bytes != tbytes {
            return Err(MessageError::illegal(format!(
                "a {} typed atomic on surface format {} ({} bytes per texel)",
                shape.size.name(),
                layout.name,
                tbytes
            )));
        }
        let Some(off) = texel else {
            mem.discard_texel(AccessKind::Atomic, alloc, tbytes, &ctx);
            continue;
        };
        let (a, bb) = (src1.scalar(lane), src2.scalar(lane));
        let bits = (bytes * 8) as u8;
        let old = mem
            .atomic(Target::Alloc(alloc, off), bytes, &ctx, |old| {
                apply_lsc_atomic(op, bits, old, a, bb)
            })
            .map_err(|e| at_lane(lane, e))?;
        dest.set(lane, &[old])?;
    }
    Ok(())
}
