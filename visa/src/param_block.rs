//! Image parameter slots read together, once, at the kernel's start, on the legacy
//! data port (Gfx8 to Gfx12.0): the uniform `image_load_param`s of an image (or of
//! one constant element of an image array) that read two or more slots become copies
//! out of the registers one message filled.
//!
//! A slot is 16 bytes of the image's parameter block (`visa/ABI.md`, "image
//! parameters": 512 bytes per array element at `param_<image>`). On this data port a
//! uniform read of one slot costs an A64 untyped read on eight lanes, all at the one
//! address, and the 64-bit address arithmetic before it ([`crate::dataport_lsc`]);
//! the same message with lane `l` at slot `first + l` reads eight slots at once, each
//! lane's four dwords in the message's four channel registers. The parameters do not
//! change during a dispatch, so a read at the start gives what each read would, and the
//! eight slots stay inside the element's block (a window that would run past slot 31
//! starts earlier). The lanes' byte offsets `16 l` are made once per kernel.
//!
//! With LSC the per-read path stays: its transposed load writes the value's own
//! registers with no copies, as many instructions as a copy of the value would take.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::memory::PARAM_BLOCK_BYTES;
use crate::vtype::VType;
use ir::{IndexKind, InstKind, IntrinsicOp};
use std::collections::{BTreeMap, BTreeSet};

/// Bytes of a slot.
const SLOT: u32 = 16;

/// Slots of one element's block.
const SLOTS: u32 = PARAM_BLOCK_BYTES / SLOT;

/// Slots one message reads: one per lane of its eight.
const WINDOW: u32 = 8;

/// The most windows a kernel keeps in registers (four registers each, live throughout
/// the kernel).
pub const MAX_WINDOWS: usize = 4;

/// The slots each `(image, element)` reads uniformly, 32-bit, at a constant element
/// the image has.
fn constant_slots(cx: &Ctx) -> BTreeMap<(u32, u32), BTreeSet<u32>> {
    let func = cx.func;
    let mut out: BTreeMap<(u32, u32), BTreeSet<u32>> = BTreeMap::new();
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (InstKind::Intrinsic(i), Some(d)) = (&data.kind, data.dest) else {
            continue;
        };
        if i.op != IntrinsicOp::ImageLoadParam || !cx.is_uniform(d) {
            continue;
        }
        let ty = func.value_type(d);
        let Some(r) = i.image else { continue };
        let slot = i.index(IndexKind::Base).unwrap_or(0);
        if ty.bit_size() != 32 || ty.num_components() > 4 || slot >= SLOTS {
            continue;
        }
        let element = match r.index {
            None => 0,
            Some(idx) => match cx.const_src(idx).and_then(|k| u32::try_from(k).ok()) {
                Some(k) => k,
                None => continue,
            },
        };
        // The window is read whatever the control flow: only an element the array
        // has (and so a block the driver provides) may be read ahead of its use.
        let count = cx
            .shader
            .images
            .get(r.image.index())
            .map_or(0, |d| d.count.unwrap_or(1));
        if element >= count || element.checked_mul(PARAM_BLOCK_BYTES).is_none() {
            continue;
        }
        out.entry((r.image.as_u32(), element))
            .or_default()
            .insert(slot);
    }
    out
}

/// The windows to read: `((image, element), first slot)` for each run of slots a
/// window of eight slots covers two or more of, at most [`MAX_WINDOWS`] in all.
pub fn plan(slots: &BTreeMap<(u32, u32), BTreeSet<u32>>) -> Vec<((u32, u32), u32)> {
    let mut out = Vec::new();
    for (&key, used) in slots {
        let mut left: Vec<u32> = used.iter().copied().collect();
        while let Some(&s) = left.first() {
            let first = s.min(SLOTS - WINDOW);
            let (inside, rest): (Vec<u32>, Vec<u32>) = left
                .iter()
                .partition(|&&x| (first..first + WINDOW).contains(&x));
            if inside.len() >= 2 && out.len() < MAX_WINDOWS {
                out.push((key, first));
            }
            left = rest;
        }
    }
    out
}

/// Reads, at the kernel's start, the windows [`plan`] gives for the kernel's parameter
/// reads (legacy data port only; with LSC nothing) and records each dword's register
/// in `cx.param_dwords`, where [`crate::memory`]'s uniform parameter reads find them.
pub fn load_windows(cx: &mut Ctx) -> Result<(), EmitError> {
    if cx.t.dataport.is_none() {
        return Ok(());
    }
    let windows = plan(&constant_slots(cx));
    if windows.is_empty() {
        return Ok(());
    }
    let (uw, ud) = (VType::Uw, VType::Ud);
    // Lane l's byte offset within a window, 16 l.
    let lanes = cx.temp_bytes(uw, 16);
    let dl = cx.dst(lanes, uw);
    cx.line(&format!("mov (M1_NM, 8) {dl} 0x76543210:uv"));
    let offsets = cx.temp_bytes(ud, 32);
    let (dof, sl) = (cx.dst(offsets, ud), cx.src(Opnd::Reg(lanes), uw));
    cx.line(&format!("shl (M1_NM, 8) {dof} {sl} 0x4:ud"));
    for ((image, element), first) in windows {
        let Some(name) = cx.shader.images.get(image as usize).map(|d| d.name.clone()) else {
            continue;
        };
        let table = cx.abi.image_params(&mut cx.decls, &name);
        let delta = element * PARAM_BLOCK_BYTES + first * SLOT;
        let at = if delta == 0 {
            offsets
        } else {
            let t = cx.temp_bytes(ud, 32);
            let (dt, so) = (cx.dst(t, ud), cx.src(Opnd::Reg(offsets), ud));
            cx.line(&format!(
                "add (M1_NM, 8) {dt} {so} {}",
                ud.imm(u64::from(delta))
            ));
            t
        };
        let base = Reg {
            var: table,
            off: 0,
            stride: 0,
        };
        let t = crate::dataport_lsc::lane_gather(cx, base, Opnd::Reg(at), 4);
        for lane in 0..WINDOW {
            for c in 0..4 {
                let byte = element * PARAM_BLOCK_BYTES + (first + lane) * SLOT + 4 * c;
                cx.param_dwords.insert(
                    (image, byte),
                    Reg {
                        off: c * cx.t.grf + 4 * lane,
                        stride: 0,
                        ..t
                    },
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(groups: &[((u32, u32), &[u32])]) -> BTreeMap<(u32, u32), BTreeSet<u32>> {
        groups
            .iter()
            .map(|(k, s)| (*k, s.iter().copied().collect()))
            .collect()
    }

    #[test]
    fn two_slots_in_reach_share_a_window() {
        // The untyped fallback of a multisampled array: offset, size, tiling, pitch
        // and samples are slots 0, 1, 2, 5 and 7: one window from slot 0.
        assert_eq!(
            plan(&slots(&[((0, 0), &[0, 1, 2, 5, 7])])),
            vec![((0, 0), 0)]
        );
        // One slot alone keeps its own read.
        assert_eq!(plan(&slots(&[((1, 0), &[1])])), vec![]);
        // Slots 3 and 12 are not within eight of each other; 12 and 13 are.
        assert_eq!(plan(&slots(&[((0, 0), &[3, 12, 13])])), vec![((0, 0), 12)]);
    }

    #[test]
    fn windows_stay_inside_the_block_and_the_budget() {
        // Slots 30 and 31: the window starts at 24, so that its eight slots end at 32.
        assert_eq!(plan(&slots(&[((0, 2), &[30, 31])])), vec![((0, 2), 24)]);
        let many: Vec<((u32, u32), &[u32])> = (0..6).map(|i| ((i, 0), &[0u32, 1][..])).collect();
        assert_eq!(plan(&slots(&many)).len(), MAX_WINDOWS);
    }
}
