//! Where a shader's global pointers are stored: the slots a verification run fills with
//! the addresses of global allocations.
//!
//! A shader reaches global memory (`load_global`, `store_global`, `global_atomic`, a
//! group async copy's global side) through 64-bit addresses it reads from memory:
//! OpenCL kernels and IGC's take them from the push constants, Vulkan shaders with
//! buffer device addresses from push constants, uniform and storage buffers, and from
//! global memory itself (a pointer in a struct another pointer reaches). A slot is a
//! 64-bit value the shader loads at a constant place:
//! - the push constants at a constant, 8-byte-aligned byte offset (`base + offset +
//!   8k` of a `load_push_constant`),
//! - a uniform or storage buffer at a constant block and a constant, 8-byte-aligned
//!   offset (`load_ubo`, `load_ssbo`),
//! - a global allocation reached through another slot, at a constant, 8-byte-aligned
//!   offset from the address that slot holds (`load_global` of `slot + c`, the `c`
//!   through `iadd`, `i2i64` and `u2u64` of constants);
//! - in each of these, two adjacent 32-bit components of one load packed into 64 bits
//!   (`pack_64_2x32_split`: a pointer kept as a `uvec2`).
//!
//! [`pointer_slots`] lists them by depth (those in the push constants and buffers,
//! then those in the allocations they point to, ...), so the setup can allocate in
//! order and write each address into the allocation before it. An address the shader
//! computes otherwise (two 32-bit halves packed, an offset chosen at run time, a phi)
//! gives no slot: its accesses fall outside every allocation, and the executor says
//! so.

use ir::{AluOp, Function, IndexKind, InstKind, IntrinsicOp, Shader, Src, Value};

/// Where one pointer slot is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PointerHome {
    /// The push constants.
    PushConstants,
    /// The uniform buffer of this block.
    Ubo(u32),
    /// The storage buffer of this block.
    Ssbo(u32),
    /// The global allocation of an earlier slot (its index in the list).
    Global(usize),
}

/// One pointer slot: where it is and its byte offset there (a multiple of 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PointerSlot {
    /// The memory that holds the pointer.
    pub home: PointerHome,
    /// The pointer's byte offset in it.
    pub offset: u32,
}

/// How deep a slot may be nested in global allocations (a linked structure the shader
/// walks at constant offsets would otherwise add slots without end).
pub const MAX_NESTING: usize = 8;

/// How many slots a shader may have before the rest are left without allocations.
pub const MAX_SLOTS: usize = 64;

/// The pointer slots of `shader` by depth, each after the slot whose allocation
/// holds it, without repeats.
pub fn pointer_slots(shader: &Shader) -> Vec<PointerSlot> {
    let mut slots: Vec<PointerSlot> = Vec::new();
    // Each round can only add slots one level deeper than the last.
    for _ in 0..=MAX_NESTING {
        let before = slots.len();
        for func in &shader.functions {
            for inst in func.insts_in_order() {
                let data = func.inst(inst);
                let Some(dest) = data.dest else { continue };
                if func.value_type(dest).bit_size() != 64 {
                    continue;
                }
                for k in 0..func.value_type(dest).num_components() {
                    let Some(slot) = slot_loaded(func, dest, k, &slots) else {
                        continue;
                    };
                    if slots.len() < MAX_SLOTS && !slots.contains(&slot) {
                        slots.push(slot);
                    }
                }
            }
        }
        if slots.len() == before {
            break;
        }
    }
    in_depth_order(&slots)
}

/// `slots` reordered by depth (the slots of the push constants and buffers, then those
/// they point to, ...), each depth by where the slot is and its offset, so that the
/// order does not depend on the order of the shader's instructions.
fn in_depth_order(slots: &[PointerSlot]) -> Vec<PointerSlot> {
    let mut new_index: Vec<Option<usize>> = vec![None; slots.len()];
    let mut out: Vec<PointerSlot> = Vec::with_capacity(slots.len());
    loop {
        let mut ready: Vec<(u8, u64, u32, usize)> = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            if new_index[i].is_some() {
                continue;
            }
            let (rank, within) = match s.home {
                PointerHome::PushConstants => (0, 0),
                PointerHome::Ubo(b) => (1, u64::from(b)),
                PointerHome::Ssbo(b) => (2, u64::from(b)),
                PointerHome::Global(k) => match new_index[k] {
                    Some(p) => (3, p as u64),
                    None => continue,
                },
            };
            ready.push((rank, within, s.offset, i));
        }
        if ready.is_empty() {
            return out;
        }
        ready.sort_unstable();
        for (_, _, _, i) in ready {
            let home = match slots[i].home {
                PointerHome::Global(k) => PointerHome::Global(new_index[k].unwrap_or(k)),
                h => h,
            };
            new_index[i] = Some(out.len());
            out.push(PointerSlot {
                home,
                offset: slots[i].offset,
            });
        }
    }
}

/// The slot that component `k` of the 64-bit value `v` is the contents of: a 64-bit
/// load at a constant place, or two adjacent 32-bit components of one packed into 64
/// bits (a pointer kept as a `uvec2`, `GL_EXT_buffer_reference_uvec2`).
fn slot_loaded(func: &Function, v: Value, k: u8, slots: &[PointerSlot]) -> Option<PointerSlot> {
    let def = func.value_def(v)?;
    let (home, offset) = match &func.inst(def).kind {
        InstKind::Intrinsic(_) => place_of(func, v, k, slots)?,
        InstKind::Alu(alu) if alu.op == AluOp::Pack64_2x32Split => {
            let (lo, hi) = (alu.srcs[0].component(k), alu.srcs[1].component(k));
            let lo_comp = lo.swizzle.component(0);
            if lo.value != hi.value
                || hi.swizzle.component(0) != lo_comp + 1
                || func.value_type(lo.value).bit_size() != 32
            {
                return None;
            }
            place_of(func, lo.value, lo_comp, slots)?
        }
        _ => return None,
    };
    let offset = u32::try_from(offset)
        .ok()
        .filter(|o| o.is_multiple_of(8) && *o <= u32::MAX - 8)?;
    Some(PointerSlot { home, offset })
}

/// Where component `k` of `v` was loaded from, if `v` is a load at a constant place:
/// the memory and the component's byte offset there.
fn place_of(func: &Function, v: Value, k: u8, slots: &[PointerSlot]) -> Option<(PointerHome, u64)> {
    let intr = func.inst(func.value_def(v)?).as_intrinsic()?;
    let size = u64::from(func.value_type(v).bit_size() / 8);
    let (home, offset) = match intr.op {
        IntrinsicOp::LoadPushConstant => {
            let base = u64::from(intr.index(IndexKind::Base).unwrap_or(0));
            let offset = constant(func, *intr.srcs.first()?, 0)?;
            (PointerHome::PushConstants, base.wrapping_add(offset))
        }
        IntrinsicOp::LoadUbo | IntrinsicOp::LoadSsbo => {
            let block = u32::try_from(constant(func, *intr.srcs.first()?, 0)?).ok()?;
            let offset = constant(func, *intr.srcs.get(1)?, 0)?;
            let home = if intr.op == IntrinsicOp::LoadUbo {
                PointerHome::Ubo(block)
            } else {
                PointerHome::Ssbo(block)
            };
            (home, offset)
        }
        IntrinsicOp::LoadGlobal => {
            let (parent, offset) = address_in(func, *intr.srcs.first()?, slots, 0)?;
            (PointerHome::Global(parent), offset)
        }
        _ => return None,
    };
    Some((home, offset.checked_add(size * u64::from(k))?))
}

/// The slot whose allocation the 64-bit address `src` points into, and the byte offset
/// from that allocation's base: a slot's contents plus constants.
fn address_in(
    func: &Function,
    src: Src,
    slots: &[PointerSlot],
    depth: usize,
) -> Option<(usize, u64)> {
    if depth > 16 || func.value_type(src.value).bit_size() != 64 {
        return None;
    }
    let k = src.swizzle.component(0);
    if let Some(slot) = slot_loaded(func, src.value, k, slots) {
        return slots.iter().position(|s| *s == slot).map(|i| (i, 0));
    }
    let alu = func.inst(func.value_def(src.value)?).as_alu()?;
    match alu.op {
        AluOp::Mov => address_in(func, alu.srcs[0].component(k), slots, depth + 1),
        AluOp::Iadd => {
            let (a, b) = (alu.srcs[0].component(k), alu.srcs[1].component(k));
            let (p, c) = match constant(func, b, 0) {
                Some(c) => (a, c),
                None => (b, constant(func, a, 0)?),
            };
            let (slot, offset) = address_in(func, p, slots, depth + 1)?;
            Some((slot, offset.wrapping_add(c)))
        }
        _ => None,
    }
}

/// The constant component 0 of `src` as a 64-bit integer: a `load_const`, or a
/// constant widened by `i2i64` (sign-extended) or `u2u64`.
fn constant(func: &Function, src: Src, depth: usize) -> Option<u64> {
    if depth > 4 {
        return None;
    }
    let def = func.value_def(src.value)?;
    let data = func.inst(def);
    let c = src.swizzle.component(0) as usize;
    if let Some(values) = data.as_const() {
        return values.get(c).copied();
    }
    let alu = data.as_alu()?;
    let inner = alu.srcs.first()?.component(c as u8);
    let bits = func.value_type(inner.value).bit_size();
    let v = constant(func, inner, depth + 1)?;
    match alu.op {
        AluOp::U2u64 => Some(if bits >= 64 { v } else { v & ((1 << bits) - 1) }),
        AluOp::I2i64 if bits < 64 => {
            let shift = 64 - u32::from(bits);
            Some((((v << shift) as i64) >> shift) as u64)
        }
        AluOp::I2i64 | AluOp::Mov => Some(v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::parse;

    #[test]
    fn slots_nest_through_global_loads_at_constant_offsets() {
        // A pointer at push constant 0; through it, a pointer at byte 8 of that
        // allocation (offset 8 as i2i64 of a 32-bit constant); through that one, a
        // pointer at byte 16 (u2u64). A 64-bit UBO word at block 1 byte 24 and an SSBO
        // word at block 0 byte 4 (misaligned: no slot). A load at a run-time offset
        // gives none. A uvec2 at push constant 24 packed into a pointer is a slot; its
        // components 1 and 2 (bytes 28 to 36) are not.
        let shader = parse(
            "shader compute (local_size=1,1,1)
buffer @u : ubo (block=1, size=64)
buffer @s : ssbo (block=0, size=64)

fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = @load_push_constant (%0) (base=0, range=16)
    32   %2 = load_const (0x00000008)
    64   %3 = i2i64 %2
    64   %4 = iadd %1, %3
    64   %5 = @load_global (%4) (access=none, align_mul=8)
    32   %6 = load_const (0x00000010)
    64   %7 = u2u64 %6
    64   %8 = iadd %7, %5
    64   %9 = @load_global (%8) (access=none, align_mul=8)
    32   %10 = load_const (0x00000001)
    32   %11 = load_const (0x00000018)
    64   %12 = @load_ubo (%10, %11) (access=none, align_mul=8)
    32   %13 = load_const (0x00000004)
    64   %14 = @load_ssbo (%0, %13) (access=none, align_mul=4)
    32x3 %15 = @load_global_invocation_id
    64   %16 = u2u64 %15.x
    64   %17 = iadd %1, %16
    64   %18 = @load_global (%17) (access=none, align_mul=8)
    32   %19 = @load_global (%9) (access=none, align_mul=4)
    @store_global (%19, %12) (access=none, align_mul=4)
    @store_global (%18, %14) (access=none, align_mul=8)
    32x2 %20 = @load_push_constant (%0) (base=24, range=40)
    64   %21 = pack_64_2x32_split %20.x, %20.y
    @store_global (%19, %21) (access=none, align_mul=4)
    32x3 %22 = @load_push_constant (%0) (base=24, range=40)
    64   %23 = pack_64_2x32_split %22.y, %22.z
    @store_global (%19, %23) (access=none, align_mul=4)
}",
        );
        // By depth: the push constants and the UBO, then the allocation the push
        // constant points to, then the one its pointer points to.
        let slot = |home, offset| PointerSlot { home, offset };
        assert_eq!(
            pointer_slots(&shader),
            vec![
                slot(PointerHome::PushConstants, 0),
                slot(PointerHome::PushConstants, 24),
                slot(PointerHome::Ubo(1), 24),
                slot(PointerHome::Global(0), 8),
                slot(PointerHome::Global(3), 16),
            ]
        );
    }

    #[test]
    fn negative_constant_offsets_sign_extend() {
        let f = parse(
            "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0xfffffff8)
    64   %1 = i2i64 %0
    64   %2 = u2u64 %0
    @store_global (%0, %1) (access=none, align_mul=4)
    @store_global (%0, %2) (access=none, align_mul=4)
}",
        );
        let func = &f.functions[0];
        assert_eq!(
            constant(func, Src::new(Value::from_u32(1)), 0),
            Some(-8i64 as u64)
        );
        assert_eq!(
            constant(func, Src::new(Value::from_u32(2)), 0),
            Some(0xffff_fff8)
        );
    }
}
