//! The executor's buffer, global and shared-memory atomics: NIR's `ssbo_atomic`,
//! `ssbo_atomic_swap`, `global_atomic`, `global_atomic_swap`, `shared_atomic` and
//! `shared_atomic_swap`.
//!
//! Each active lane, in ascending order, reads the little-endian scalar of the
//! destination's size at its address, applies the `atomic_op` with its data
//! ([`crate::image::apply_nir_atomic`], the semantics image atomics share), writes the
//! result back and receives the old value: one atomic access in the log per lane. The
//! address is byte `offset` of the storage buffer bound at `block` (`ssbo_*`), the
//! 64-bit flat `address` (`global_*`), or byte `base + offset` of the workgroup's
//! shared memory (`shared_*`). A swap compares with
//! `compare` and writes `data` when equal (`cmpxchg` bitwise, `fcmpxchg` as floats).
//! The operand sizes are the validator's: the data, the comparand and the destination
//! share one bit size, 8 to 64 bits.

use crate::call::access_ctx;
use crate::image::apply_nir_atomic;
use crate::memory::{AccessKind, Memory, Target};
use ir::interp::{EnvError, IntrinsicCall};
use ir::{AtomicOp, IndexKind, IntrinsicOp};

/// Whether `op` is one of the atomics this module serves.
pub fn serves(op: IntrinsicOp) -> bool {
    matches!(
        op,
        IntrinsicOp::SsboAtomic
            | IntrinsicOp::SsboAtomicSwap
            | IntrinsicOp::GlobalAtomic
            | IntrinsicOp::GlobalAtomicSwap
            | IntrinsicOp::SharedAtomic
            | IntrinsicOp::SharedAtomicSwap
    )
}

/// Executes one buffer or shared-memory atomic for every active lane.
pub fn execute(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let op = call.op();
    let aop = call
        .index(IndexKind::AtomicOp)
        .and_then(AtomicOp::from_index)
        .ok_or_else(|| EnvError::msg(format!("`@{op}` has no valid atomic_op")))?;
    let swap = matches!(
        op,
        IntrinsicOp::SsboAtomicSwap | IntrinsicOp::GlobalAtomicSwap | IntrinsicOp::SharedAtomicSwap
    );
    if aop.is_swap() != swap {
        return Err(EnvError::msg(format!(
            "`@{op}` cannot apply `{}`",
            aop.name()
        )));
    }
    let ty = call
        .dest_type
        .ok_or_else(|| EnvError::msg(format!("`@{op}` has no destination")))?;
    let bits = ty.bit_size();
    if !matches!(bits, 8 | 16 | 32 | 64) {
        return Err(EnvError::msg(format!(
            "`@{op}` on {bits}-bit data has no memory representation"
        )));
    }
    let size = bits as usize / 8;
    let ssbo = matches!(op, IntrinsicOp::SsboAtomic | IntrinsicOp::SsboAtomicSwap);
    let global = matches!(
        op,
        IntrinsicOp::GlobalAtomic | IntrinsicOp::GlobalAtomicSwap
    );
    // Sources after the address: (compare,) data.
    let first_data = if ssbo { 2 } else { 1 };
    let base = call.index(IndexKind::Base).unwrap_or(0) as i32 as i64 as u64;
    let lanes: Vec<usize> = call.active_lanes().collect();
    for lane in lanes {
        let ctx = access_ctx(call, lane);
        let target = if ssbo {
            let block = call.src_scalar(0, lane) as u32;
            let alloc = mem.ssbo(block).ok_or_else(|| {
                EnvError::at_lane(
                    lane as u32,
                    Memory::unbound(AccessKind::Atomic, "ssbo binding", block as u64, &ctx),
                )
            })?;
            Target::Alloc(alloc, call.src_scalar(1, lane))
        } else if global {
            Target::Global(call.src_scalar(0, lane))
        } else {
            Target::Shared(base.wrapping_add(call.src_scalar(0, lane)))
        };
        let (data, data2) = if swap {
            (
                call.src_scalar(first_data, lane),
                call.src_scalar(first_data + 1, lane),
            )
        } else {
            (call.src_scalar(first_data, lane), 0)
        };
        let mut failure = None;
        let old = mem
            .atomic(target, size, &ctx, |old| {
                match apply_nir_atomic(aop, bits, old, data, data2) {
                    Ok(new) => new,
                    Err(e) => {
                        failure = Some(e);
                        old
                    }
                }
            })
            .map_err(|e| EnvError::at_lane(lane as u32, e))?;
        if let Some(e) = failure {
            return Err(EnvError::at_lane(lane as u32, e));
        }
        call.set_dest(lane, &[old]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::exec::{ExecConfig, Executor};
    use crate::fixtures::parse;
    use ir::Value;

    #[test]
    fn buffer_and_shared_atomics_serialize_lanes() {
        // Four invocations add 1 + local x to ssbo word 0 and take the maximum of their
        // x into shared word 1 (then copied to ssbo word 1); a compare-and-swap of ssbo
        // word 2 (initially 2) with x puts 100 there for invocation 2 only.
        let text = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000001)
    32   %3 = iadd %0.x, %2
    32   %4 = @ssbo_atomic (%1, %1, %3) (access=none, atomic_op=iadd)
    32   %5 = load_const (0x00000004)
    32   %6 = @shared_atomic (%1, %0.x) (base=4, atomic_op=umax)
    @barrier
    32   %7 = @load_shared (%5) (base=0, align_mul=4)
    @store_ssbo (%7, %1, %5) (access=none, align_mul=4)
    32   %8 = load_const (0x00000008)
    32   %9 = load_const (0x00000064)
    32   %10 = @ssbo_atomic_swap (%1, %8, %0.x, %9) (access=none, atomic_op=cmpxchg)
}";
        let shader = parse(text);
        let mut ex = Executor::with_config(
            &shader,
            ExecConfig {
                subgroup_size: 2,
                shared_size: 64,
                ..ExecConfig::default()
            },
        );
        let initial: Vec<u8> = [5u32, 0, 2, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let alloc = ex.memory.alloc("ssbo", initial);
        ex.memory.bind_ssbo(0, alloc);
        let rec = [Value::from_u32(4), Value::from_u32(10)];
        let r = ex.run_recording([1, 1, 1], &rec).unwrap();
        let words: Vec<u32> = ex
            .memory
            .allocation(alloc)
            .bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        // 5 + 1 + 2 + 3 + 4 = 15; max x = 3; word 2 was 2, so invocation 2 swaps it.
        assert_eq!(words, [15, 3, 100, 0]);
        let old: Vec<u64> = (0..4)
            .map(|i| r.values[&rec[0]][i].as_ref().unwrap()[0])
            .collect();
        assert_eq!(old, [5, 6, 8, 11]);
        let swapped: Vec<u64> = (0..4)
            .map(|i| r.values[&rec[1]][i].as_ref().unwrap()[0])
            .collect();
        assert_eq!(swapped, [2, 2, 2, 100]);
    }
}
