//! Untyped LSC messages (`.ugm`, `.ugml`, `.slm`): loads and stores of vectors and
//! quads, strided loads and stores, atomics.
//!
//! Element `v` of lane `n` is at `(addr[n] + offset) mod 2^a + v · size` (`a` the
//! address size, `size` the element's bytes in memory); see the module documentation of
//! [`crate::messages`].

use crate::memory::{Memory, Target};
use crate::messages::atomic::apply_lsc_atomic;
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut};
use crate::messages::lsc::Message;
use crate::messages::surface;
use ir::interp::EnvError;
use ir::lsc::{AddrSize, AddrType, DataSize, Sfid};

/// Register value of an element read from memory.
fn widen(size: DataSize, raw: u64) -> u64 {
    match size {
        DataSize::D16U32H => raw << 16,
        _ => raw,
    }
}

/// Memory value of an element written from a register.
fn narrow(size: DataSize, reg: u64) -> u64 {
    match size {
        DataSize::D16U32H => (reg >> 16) & 0xffff,
        DataSize::D8 | DataSize::D8U32 => reg & 0xff,
        DataSize::D16 | DataSize::D16U32 => reg & 0xffff,
        DataSize::D32 => reg & 0xffff_ffff,
        DataSize::D64 => reg,
    }
}

/// `(a + offset) mod 2^bits`.
fn wrap_address(a: u64, offset: i64, size: AddrSize) -> u64 {
    (a.wrapping_add(offset as u64)) & ir::types::bit_mask(size.bits())
}

/// `e` as the error of lane `lane`.
fn at_lane(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

/// Resolves an untyped element address of lane `lane` to a memory target: the shared
/// memory for `.slm`, the global address space for `flat`, else the bytes of the lane's
/// surface from its start (the stateful models `bti`, `bss`, `ss` reach the same surface
/// state: the executor binds each image once, by binding-table index).
fn target(mem: &Memory, msg: &Message<'_>, lane: usize, address: u64) -> Result<Target, EnvError> {
    Ok(match (msg.desc.sfid, msg.desc.addr_type) {
        (Sfid::Slm, _) => Target::Shared(address),
        (_, AddrType::Flat) => Target::Global(address),
        _ => {
            let b = surface::bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
            Target::Alloc(b.alloc, address)
        }
    })
}

/// The elements a lane moves, as multiples of the element size from its address:
/// vector elements `0..vect`, or the enabled channels of a quad.
fn elements(msg: &Message<'_>) -> Vec<u64> {
    let shape = msg.desc.shape;
    if shape.cmask != 0 {
        (0..4).filter(|v| shape.cmask & (1 << v) != 0).collect()
    } else {
        (0..shape.vect as u64).collect()
    }
}

/// `lsc_load` / `lsc_load_quad`: each served lane reads its elements at its address;
/// `dest` gets them (widened as the data size says) in element order.
pub fn load(
    mem: &mut Memory,
    msg: &Message<'_>,
    addr: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let m = &msg.desc;
    let esize = m.shape.size.mem_bytes() as u64;
    let elements = elements(msg);
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let base = wrap_address(addr.scalar(lane), m.offset as i64, m.addr_size);
        let mut vals = Vec::with_capacity(elements.len());
        for &v in &elements {
            let t = target(mem, msg, lane, base + v * esize)?;
            let raw = mem
                .load_uint(t, esize as usize, &ctx)
                .map_err(|e| at_lane(lane, e))?;
            vals.push(widen(m.shape.size, raw));
        }
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// `lsc_store` / `lsc_store_quad`: each served lane writes `data`'s values (narrowed as
/// the data size says) to its elements.
pub fn store(
    mem: &mut Memory,
    msg: &Message<'_>,
    addr: Lanes<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let m = &msg.desc;
    let esize = m.shape.size.mem_bytes() as u64;
    let elements = elements(msg);
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let base = wrap_address(addr.scalar(lane), m.offset as i64, m.addr_size);
        let values = data.lane(lane);
        for (i, &v) in elements.iter().enumerate() {
            let t = target(mem, msg, lane, base + v * esize)?;
            let val = narrow(m.shape.size, values.get(i).copied().unwrap_or(0));
            mem.store_uint(t, esize as usize, val, &ctx)
                .map_err(|e| at_lane(lane, e))?;
        }
    }
    Ok(())
}

/// The base address and pitch of a strided message, which must be uniform across the
/// served lanes (a divergent value is an error at the first lane that differs).
fn uniform_base_and_pitch(
    msg: &Message<'_>,
    base: Lanes<'_>,
    pitch: Lanes<'_>,
) -> Result<Option<(u64, u64)>, EnvError> {
    let Some(first) = msg.lanes().next() else {
        return Ok(None);
    };
    let (b, p) = (base.scalar(first), pitch.scalar(first));
    for lane in msg.lanes() {
        for (operand, lanes, want) in [("base address", base, b), ("pitch", pitch, p)] {
            if lanes.scalar(lane) != want {
                return Err(at_lane(
                    lane,
                    MessageError::NotUniform {
                        operand,
                        lane: lane as u32,
                    },
                ));
            }
        }
    }
    Ok(Some((b, p)))
}

/// Lane `n`'s address in a strided message: `base + offset + n · pitch`, wrapped. (The
/// `STORE_STRIDED` pseudo-code adds the immediate offset twice and reads a per-lane
/// address, which contradicts its description of one address and a stride, so stores
/// use the load's formula.)
fn strided_address(msg: &Message<'_>, base: u64, pitch: u64, lane: usize) -> u64 {
    let m = &msg.desc;
    wrap_address(
        base.wrapping_add((lane as u64).wrapping_mul(pitch)),
        m.offset as i64,
        m.addr_size,
    )
}

/// `lsc_load_strided`: lane `n` reads `vect` elements at `base + offset + n · pitch`.
pub fn load_strided(
    mem: &mut Memory,
    msg: &Message<'_>,
    base: Lanes<'_>,
    pitch: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let Some((b, p)) = uniform_base_and_pitch(msg, base, pitch)? else {
        return Ok(());
    };
    let shape = msg.desc.shape;
    let esize = shape.size.mem_bytes() as u64;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let lane_base = strided_address(msg, b, p, lane);
        let mut vals = Vec::with_capacity(shape.vect as usize);
        for v in 0..shape.vect as u64 {
            let t = target(mem, msg, lane, lane_base + v * esize)?;
            let raw = mem
                .load_uint(t, esize as usize, &ctx)
                .map_err(|e| at_lane(lane, e))?;
            vals.push(widen(shape.size, raw));
        }
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// `lsc_store_strided`: lane `n` writes its `vect` elements at
/// `base + offset + n · pitch`.
pub fn store_strided(
    mem: &mut Memory,
    msg: &Message<'_>,
    base: Lanes<'_>,
    pitch: Lanes<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let Some((b, p)) = uniform_base_and_pitch(msg, base, pitch)? else {
        return Ok(());
    };
    let shape = msg.desc.shape;
    let esize = shape.size.mem_bytes() as u64;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let lane_base = strided_address(msg, b, p, lane);
        let values = data.lane(lane);
        for v in 0..shape.vect as u64 {
            let t = target(mem, msg, lane, lane_base + v * esize)?;
            let val = narrow(shape.size, values.get(v as usize).copied().unwrap_or(0));
            mem.store_uint(t, esize as usize, val, &ctx)
                .map_err(|e| at_lane(lane, e))?;
        }
    }
    Ok(())
}

/// `lsc_atomic` on untyped memory: each served lane, in ascending order, applies the
/// sub-op to the element at its address with its `src1` and `src2` (0 when the sub-op
/// takes fewer operands) and gets the old value.
pub fn atomic(
    mem: &mut Memory,
    msg: &Message<'_>,
    addr: Lanes<'_>,
    src1: Lanes<'_>,
    src2: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let m = &msg.desc;
    let op = m.atomic.ok_or_else(|| MessageError::bad_index("lsc_op"))?;
    let bytes = m.shape.size.mem_bytes() as usize;
    let bits = (bytes * 8) as u8;
    for lane in msg.lanes() {
        let ctx = msg.sender.ctx(lane);
        let address = wrap_address(addr.scalar(lane), m.offset as i64, m.addr_size);
        let t = target(mem, msg, lane, address)?;
        let (a, b) = (src1.scalar(lane), src2.scalar(lane));
        let old = mem
            .atomic(t, bytes, &ctx, |old| apply_lsc_atomic(op, bits, old, a, b))
            .map_err(|e| at_lane(lane, e))?;
        dest.set(lane, &[old])?;
    }
    Ok(())
}
