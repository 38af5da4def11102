//! Typed surface read, write and atomic of the legacy data port, on the texels of a
//! surface through its surface state (format, view, tiled layout).
//!
//! * Coordinates: U, V, R, LOD, signed 32-bit, read per surface type as the hardware
//!   reads them from the surface state ([`crate::messages::surface::typed_texel`]); a
//!   coordinate outside the view is out of bounds (the surface state's bounds check).
//! * Read: each served lane gets the enabled channels (bit 0 = R) of the texel
//!   converted by the surface-state format, 32-bit, packed in channel order; a format
//!   without G, B or A reads 0, 0, 1 there. Out of bounds the message returns the
//!   all-zero texel converted by the surface format: 0 in the format's channels, and
//!   0, 0, 1 in a missing G, B, A. IGC's vISA specification of `GATHER4_TYPED` says "ones
//!   are returned in the alpha channel, zeros in the other channels", which agrees for
//!   formats without alpha; for formats with alpha the executor follows Mesa's anv, which
//!   exposes Vulkan's `robustImageAccess2` (out-of-bounds image loads return zero values)
//!   on Gfx9 to Gfx12 with these messages and no bounds check in the shader
//!   (*inferred*; `docs/hardware/dataport.md` §8).
//! * Ivy Bridge and Bay Trail: a typed read of an `R8_UINT` or `R16_UINT` surface returns
//!   the 32-bit word at the texel's address in R (the texel and the bytes after it),
//!   which is why Mesa masks such reads there (its storage-image lowering,
//!   `docs/hardware/mesa-storage-images.md` §3, §4). Bytes past the surface read as
//!   [`UNDEFINED_BYTE`].
//! * Write: each served lane converts its enabled channels with the surface-state format
//!   (`SCATTER4_TYPED`'s conversions: float rounding to even, clamping of narrower
//!   normalized and integer channels) and writes them, leaving the texel's other channels
//!   as they are; out of bounds nothing is written.
//! * Atomic: integer operations on the whole texel, which must be `dp_bits` wide (32-bit
//!   `R32_UINT`/`R32_SINT`/`R32_FLOAT` surfaces, 16-bit `R16_*` ones on Gfx12), lanes in
//!   ascending order; a 16-bit atomic takes the low 16 bits of its operands and returns
//!   the old texel in the low 16 bits of the element, the upper ones undefined. Out of
//!   bounds the atomic is dropped and returns 0 (`TYPED_ATOMIC`: "On read: zeros are
//!   returned. On write: data is dropped").
//!
//! Typed messages carry 32-bit channel values: a surface format with 64-bit channels is
//! an error.

use super::atomic::apply_dp_atomic;
use super::message::{with_undefined_upper, DpMessage, UNDEFINED_BYTE};
use crate::memory::{AccessKind, AllocId, Memory, Target};
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut};
use crate::messages::surface::{bound, typed_texel};
use crate::messages::typed::Coords;
use crate::texel::TexelLayout;
use ir::interp::EnvError;
use lowering::messages::dataport::DpEncoding;

fn at_lane(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

fn illegal(lane: usize, reason: String) -> EnvError {
    at_lane(lane, MessageError::Illegal { reason })
}

/// What a typed message of one lane reaches.
struct Texel {
    /// The surface's allocation.
    alloc: AllocId,
    /// Its bytes.
    size: u64,
    /// The surface-state format.
    format: tiling::Format,
    /// Its layout (32-bit channels only).
    layout: TexelLayout,
    /// The texel's offset, `None` out of bounds.
    offset: Option<u64>,
}

/// The surface and texel of lane `lane`.
fn texel(
    mem: &Memory,
    msg: &DpMessage<'_>,
    coords: &Coords<'_>,
    lane: usize,
) -> Result<Texel, EnvError> {
    let b = bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
    let layout = TexelLayout::from_isl(b.state_format).map_err(|e| at_lane(lane, e))?;
    if layout.is_64bit() {
        return Err(illegal(
            lane,
            format!(
                "typed data-port messages carry 32-bit channels; surface format {} has 64-bit ones",
                layout.name
            ),
        ));
    }
    let c = |l: &Lanes<'_>| l.scalar(lane);
    Ok(Texel {
        alloc: b.alloc,
        size: mem.allocation(b.alloc).bytes.len() as u64,
        format: b.state_format,
        offset: typed_texel(b, c(&coords.u), c(&coords.v), c(&coords.r), c(&coords.lod))?,
        layout,
    })
}

/// Whether a typed read of this surface format returns the misaligned 32-bit word on
/// Ivy Bridge (the single-channel 8- and 16-bit unsigned integer formats).
fn ivb_word_read(msg: &DpMessage<'_>, format: tiling::Format) -> bool {
    msg.caps.encoding == DpEncoding::Ivb
        && matches!(format, tiling::Format::R8_UINT | tiling::Format::R16_UINT)
}

/// The first generation whose typed reads return texels of storage format `format`
/// (isl's TR column), when the format is a storage format.
fn typed_read_from(format: tiling::Format) -> Option<tiling::Gen> {
    ir::Format::ALL
        .iter()
        .find(|f| lowering::format::isl_format(**f) == Some(format))
        .and_then(|f| lowering::format::format_info(*f))
        .and_then(|i| i.typed_read)
}

/// `@dp_typed_read`: the enabled channels of each served lane's texel, packed. A storage
/// format the generation does not read typed (isl's TR column) is an illegal message:
/// the hardware's result is undefined, and a lowering that sends it is wrong.
pub fn read(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    coords: Coords<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    // No storage format's typed reads start after Gfx12.5 (isl's TR column), so from
    // there the rule holds for every surface without the lookup.
    let check_tr = msg.caps.gen < tiling::Gen::Gfx125;
    // The TR rule of the last surface format looked up: the lookup scans every storage
    // format, and the lanes of a message almost always share their surface.
    let mut tr: Option<(tiling::Format, Option<tiling::Gen>)> = None;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let t = texel(mem, msg, &coords, lane)?;
        if check_tr && !ivb_word_read(msg, t.format) {
            let from = match tr {
                Some((f, from)) if f == t.format => from,
                _ => {
                    let from = typed_read_from(t.format);
                    tr = Some((t.format, from));
                    from
                }
            };
            if let Some(first) = from.filter(|&g| msg.caps.gen < g) {
                return Err(illegal(
                    lane,
                    format!(
                        "{:?} has no typed reads of {} surfaces (from {first:?})",
                        msg.caps.gen, t.format
                    ),
                ));
            }
        }
        let rgba = match t.offset {
            None => {
                // The zero texel, converted (the discarded load leaves the bytes 0).
                let mut bytes = vec![0u8; t.layout.bytes];
                mem.texel_access(AccessKind::Load, t.alloc, None, &mut bytes, &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                t.layout.decode(&bytes).map_err(|e| at_lane(lane, e))?
            }
            Some(off) if ivb_word_read(msg, t.format) => {
                // The word at the texel: the texel (the access, as logged) and as much
                // of the bytes after it as the surface holds.
                let n = t.size.saturating_sub(off).min(4) as usize;
                let mut bytes = [UNDEFINED_BYTE; 4];
                let texel = t.layout.bytes.min(n);
                mem.load(Target::Alloc(t.alloc, off), &mut bytes[..texel], &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                mem.peek(
                    Target::Alloc(t.alloc, off + texel as u64),
                    &mut bytes[texel..n],
                    &ctx,
                )
                .map_err(|e| at_lane(lane, e))?;
                [u64::from(u32::from_le_bytes(bytes)), 0, 0, 1]
            }
            Some(off) => {
                let mut bytes = vec![0u8; t.layout.bytes];
                mem.load(Target::Alloc(t.alloc, off), &mut bytes, &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                t.layout.decode(&bytes).map_err(|e| at_lane(lane, e))?
            }
        };
        let vals: Vec<u64> = (0..4)
            .filter(|c| msg.desc.cmask & (1 << c) != 0)
            .map(|c| rgba[c])
            .collect();
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// `@dp_typed_write`: the enabled channels of `data` (packed) into each served lane's
/// texel.
pub fn write(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    coords: Coords<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let cmask = msg.desc.cmask;
    let n = msg.desc.components() as usize;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let t = texel(mem, msg, &coords, lane)?;
        let Some(off) = t.offset else {
            mem.discard_texel(AccessKind::Store, t.alloc, t.layout.bytes, &ctx);
            continue;
        };
        let values = data.lane(lane);
        if values.len() < n {
            return Err(at_lane(
                lane,
                MessageError::Shape {
                    reason: format!(
                        "the message writes {n} channels, the data has {}",
                        values.len()
                    ),
                },
            ));
        }
        let mut rgba = [0u64; 4];
        let mut k = 0;
        for (c, slot) in rgba.iter_mut().enumerate() {
            if cmask & (1 << c) != 0 {
                *slot = values[k];
                k += 1;
            }
        }
        let target = Target::Alloc(t.alloc, off);
        let mut bytes = vec![0u8; t.layout.bytes];
        mem.peek(target, &mut bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
        t.layout
            .encode_into(&rgba, cmask, &mut bytes)
            .map_err(|e| at_lane(lane, e))?;
        mem.store(target, &bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
    }
    Ok(())
}

/// `@dp_typed_atomic`: `dp_op` on each served lane's texel with operands `src0`,
/// `src1` (empty when the operation takes fewer); `dest` gets the old texel.
pub fn atomic(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    coords: Coords<'_>,
    src0: Lanes<'_>,
    src1: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let d = msg.desc;
    let bytes = usize::from(d.bits / 8);
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let t = texel(mem, msg, &coords, lane)?;
        if t.layout.bytes != bytes || t.layout.channels.len() != 1 {
            return Err(illegal(
                lane,
                format!(
                    "a {}-bit typed atomic needs a single-channel {}-bit surface format, found {}",
                    d.bits, d.bits, t.layout.name
                ),
            ));
        }
        let (a, b) = (src0.scalar(lane), src1.scalar(lane));
        let old = match t.offset {
            None => {
                mem.discard_texel(AccessKind::Atomic, t.alloc, bytes, &ctx);
                0
            }
            Some(off) => {
                let old = mem
                    .atomic(Target::Alloc(t.alloc, off), bytes, &ctx, |old| {
                        apply_dp_atomic(d.op, d.bits, old, a, b)
                    })
                    .map_err(|e| at_lane(lane, e))?;
                with_undefined_upper(old, bytes as u32)
            }
        };
        dest.set(lane, &[old])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `read` skips the TR rule from Gfx12.5 on: no storage format's typed reads may
    /// start later.
    #[test]
    fn typed_reads_of_every_storage_format_start_by_gfx12_5() {
        for &f in ir::Format::ALL {
            if let Some(isl) = lowering::format::isl_format(f) {
                assert!(
                    typed_read_from(isl).is_none_or(|g| g <= tiling::Gen::Gfx125),
                    "{f}"
                );
            }
        }
    }
}
