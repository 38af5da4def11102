//! UBO ranges read whole, once, at the kernel's start, on the legacy data port
//! (Gfx8 to Gfx12.0): the uniform `load_ubo`s of a constant block at constant offsets
//! become copies out of registers that one oword block read per 128 bytes filled.
//!
//! This is brw's uniform pull-constant load (`FS_OPCODE_UNIFORM_PULL_CONSTANT_LOAD`,
//! `brw_fs_nir.cpp`'s `load_ubo` with a constant offset: an oword block read of a
//! 64-byte block at the buffer's binding-table index, shared by every load of the
//! block), which anv uses for the UBOs of compute shaders, whose ranges it does not
//! push (`anv_nir_compute_push_layout.c` pushes UBO ranges for the other stages only:
//! a compute dispatch's payload is written when the command is recorded, before the
//! buffer's contents are final). Here the reads go to the kernel's start, as
//! `brw_nir_analyze_ubo_ranges` gathers a shader's constant UBO reads into ranges: a
//! uniform buffer does not change during a dispatch, so a read there gives what the
//! load would, and the binding table's bounds check makes a read the shader's control
//! flow would have skipped harmless.
//!
//! A range covers the owords (16 bytes) its loads touch, runs merged where the gap is
//! at most [`MERGE_GAP`] bytes, up to [`MAX_BYTES`] bytes in all (the rest keep the
//! per-load path of [`crate::memory`]). It is read with vISA's `oword_ld` (IGC
//! `documentation/visa/instructions/OWORD_LD.md`: offset in owords, 1, 2, 4 or 8 owords
//! into a register-aligned destination) at the UBO's binding-table surface
//! (`visa/ABI.md`, "Buffer accesses"); the driver binds the UBO's range rounded up to
//! 64 bytes there, as anv does (`ANV_UBO_ALIGNMENT`, "for the sake of block messages
//! which read an entire register worth at a time"), so that the last oword of a range is
//! inside the surface.

use crate::ctx::{Ctx, Reg};
use crate::decl::Align;
use crate::error::EmitError;
use crate::memory::buffer_bti;
use crate::vtype::VType;
use ir::{InstKind, IntrinsicOp};
use std::collections::BTreeMap;

/// Bytes of an oword, the unit of the block reads.
const OWORD: u32 = 16;

/// The most owords one `oword_ld` reads.
const MAX_OWORDS: u32 = 8;

/// Two runs of a block whose gap is at most this many bytes are read as one.
pub const MERGE_GAP: u32 = 32;

/// The most bytes of UBO ranges a kernel keeps in registers (16 registers of SKL):
/// what brw's scalar back end pushes for one stage is 64 registers, but these stay
/// live throughout the kernel.
pub const MAX_BYTES: u32 = 512;

/// The `((block, binding-table index), offset, bytes)` of every uniform 32-bit
/// `load_ubo` of a constant block with a binding-table surface at a constant,
/// dword-aligned offset. The index goes with the block so that [`load_ranges`] need
/// not look it up again (and handle a miss that cannot happen).
fn constant_loads(cx: &Ctx) -> Vec<((u32, u32), u32, u32)> {
    let func = cx.func;
    let mut out = Vec::new();
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (InstKind::Intrinsic(i), Some(d)) = (&data.kind, data.dest) else {
            continue;
        };
        if i.op != IntrinsicOp::LoadUbo || !cx.is_uniform(d) {
            continue;
        }
        let ty = func.value_type(d);
        if ty.bit_size() != 32 {
            continue;
        }
        let comp = |k: usize| cx.const_src(*i.srcs.get(k)?);
        let (Some(block), Some(offset)) = (comp(0), comp(1)) else {
            continue;
        };
        let (Ok(block), Ok(offset)) = (u32::try_from(block), u32::try_from(offset)) else {
            continue;
        };
        if !offset.is_multiple_of(4) {
            continue;
        }
        let Some(bti) = buffer_bti(cx.shader, true, block) else {
            continue;
        };
        let bytes = 4 * u32::from(ty.num_components());
        if offset.checked_add(bytes).is_some() {
            out.push(((block, bti), offset, bytes));
        }
    }
    out
}

/// The ranges to read, per block in increasing order: the owords the loads touch,
/// runs whose gap is at most [`MERGE_GAP`] merged, while their total stays within
/// [`MAX_BYTES`] (a run that does not fit is left out, its loads keep their own
/// messages). A block is any ordered key (the back end's is the UBO and its
/// binding-table index). A run costs the registers [`load_ranges`] declares for it,
/// its bytes rounded up to `grf` bytes, so that the budget bounds what stays live.
pub fn plan<K: Ord + Copy>(loads: &[(K, u32, u32)], grf: u32) -> Vec<(K, u32, u32)> {
    let mut per_block: BTreeMap<K, Vec<(u32, u32)>> = BTreeMap::new();
    for &(block, offset, bytes) in loads {
        let start = offset / OWORD * OWORD;
        let end = (offset + bytes).div_ceil(OWORD) * OWORD;
        per_block.entry(block).or_default().push((start, end));
    }
    let mut out = Vec::new();
    let mut total = 0u32;
    for (block, mut spans) in per_block {
        spans.sort_unstable();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for (s, e) in spans {
            match runs.last_mut() {
                Some(last) if s <= last.1.saturating_add(MERGE_GAP) => last.1 = last.1.max(e),
                _ => runs.push((s, e)),
            }
        }
        for (s, e) in runs {
            let bytes = run_bytes(s, e, grf);
            if total + bytes <= MAX_BYTES {
                total += bytes;
                out.push((block, s, e));
            }
        }
    }
    out
}

/// The bytes of the variable that holds the run `start..end`: whole registers.
fn run_bytes(start: u32, end: u32, grf: u32) -> u32 {
    (end - start).next_multiple_of(grf)
}

/// Reads, at the kernel's start, the UBO ranges [`plan`] gives for the kernel's loads
/// (legacy data port only; with LSC nothing) and records each dword's register in
/// `cx.ubo_dwords`, where [`crate::memory`]'s uniform UBO loads find them.
pub fn load_ranges(cx: &mut Ctx) -> Result<(), EmitError> {
    if cx.t.dataport.is_none() {
        return Ok(());
    }
    let grf = cx.t.grf;
    let surface = format!("T{}", 6 + cx.shader.images.len());
    for ((block, bti), start, end) in plan(&constant_loads(cx), grf) {
        let bytes = run_bytes(start, end, grf);
        let var = cx.decls.var(
            format!("ubo{block}_{start}"),
            VType::Ud,
            bytes / 4,
            Align::Grf,
        );
        cx.decls.surface(&surface);
        // Largest reads first, so that every read but a last one-oword read starts a
        // register (1, 2, 4 and 8 owords: 16 to 128 bytes).
        let mut at = start;
        while at < end {
            let owords = ((end - at) / OWORD).min(MAX_OWORDS);
            let n = 1u32 << owords.ilog2();
            cx.line(&format!("movs (M1_NM, 1) {surface}(0) 0x{bti:x}:ud"));
            let dst = cx.raw(Reg {
                var,
                off: at - start,
                stride: 1,
            });
            cx.line(&format!(
                "oword_ld ({n}) {surface} 0x{:x}:ud {dst}",
                at / OWORD
            ));
            at += n * OWORD;
        }
        for at in (start..end).step_by(4) {
            cx.ubo_dwords.insert(
                (block, at),
                Reg {
                    var,
                    off: at - start,
                    stride: 0,
                },
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_become_oword_runs_merged_over_small_gaps() {
        // Boids' SimParams: seven floats at 0..28 -> owords 0..32.
        let loads: Vec<_> = (0..7).map(|k| (0, 4 * k, 4)).collect();
        assert_eq!(plan(&loads, 32), vec![(0, 0, 32)]);
        // Owords 0..16, 48..64 and 112..128: the gap 16..48 is 32 bytes, merged; the
        // gap 64..112 is 48: a run of its own.
        let loads = [(0, 0, 4), (0, 48, 8), (0, 116, 4)];
        assert_eq!(plan(&loads, 32), vec![(0, 0, 64), (0, 112, 128)]);
        // Blocks apart, in block order.
        let loads = [(2, 16, 16), (1, 4, 4)];
        assert_eq!(plan(&loads, 32), vec![(1, 0, 16), (2, 16, 32)]);
    }

    #[test]
    fn ranges_stop_at_the_budget() {
        // Two runs of 320 bytes: the second does not fit 512.
        let loads = [(0, 0, 320), (0, 1024, 320)];
        assert_eq!(plan(&loads, 32), vec![(0, 0, 320)]);
    }

    #[test]
    fn runs_cost_whole_registers() {
        // Twenty blocks of one oword each: 16 bytes read, but each a 32-byte register
        // declared, so sixteen fit 512 bytes, not all twenty.
        let loads: Vec<_> = (0..20).map(|b| (b, 0, 4)).collect();
        let planned = plan(&loads, 32);
        assert_eq!(planned.len(), 16);
        assert_eq!(planned.last(), Some(&(15, 0, 16)));
    }
}
