//! Untyped surface, scattered and atomic messages of the legacy data port: byte
//! addresses into a surface (`bti`), the workgroup's shared local memory (`slm`) or the
//! flat address space (`a64`).
//!
//! * Address: `addr` of the lane, modulo 2^32 for `bti` and `slm`, 64-bit for `a64`.
//! * `bti`: the named image's surface, bound as a raw buffer over its whole allocation
//!   (as Mesa binds the surfaces of its untyped image path). The surface state's bounds
//!   check applies per element: an element outside the buffer reads 0 and is not
//!   written, an atomic there is dropped and returns 0 (IGC's vISA specification of
//!   `GATHER4_SCALED`, `SCATTER4_SCALED`, `GATHER_SCALED`, `SCATTER_SCALED`,
//!   `DWORD_ATOMIC`: "On read: zeros are returned. On write: data is dropped"); such
//!   accesses are logged as discarded.
//! * `slm` and `a64` have no bounds check the documents state: an access outside the
//!   shared memory or outside every allocation is an error naming the lane, so a
//!   lowering never relies on one.
//! * Untyped surface read/write: the enabled channels `c` (bit 0 = X) are the dwords at
//!   `addr + 4c`, packed in channel order in the register (`GATHER4_SCALED`'s
//!   pseudo-code). The address must be dword-aligned.
//! * Byte scattered read/write: `dp_bytes` bytes at `addr`, any alignment; a read
//!   returns them in the low bytes of the element, the other bytes of a 32-bit element
//!   undefined (`GATHER_SCALED`: "For 1 and 2 byte reads the upper bytes have undefined
//!   values"); the executor fills them with [`super::UNDEFINED_BYTE`]. 8-byte accesses
//!   (A64) use 64-bit elements. An access that crosses the end of a `bti` buffer is out
//!   of bounds as a whole.
//! * Dword scattered read/write: one dword at `addr`, dword-aligned.
//! * Atomics: `dp_bits`-wide memory at `addr`, aligned to its size, lanes in ascending
//!   order; 16-bit atomics (A64, Gfx12) take the low 16 bits of the operands and return
//!   the old value in the low 16 bits of the element, the upper ones undefined.

use super::atomic::apply_dp_atomic;
use super::payload::{src_values, with_undefined_upper, DpExecError, DpPayload};
use crate::memory::{AccessKind, AllocId, Memory, Space, Target};
use ir::dataport::{DpAddr, DpDesc, DpMsg};
use ir::interp::EnvError;

fn at_lane(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

/// Where a lane's accesses go.
#[derive(Copy, Clone)]
enum Region {
    /// A raw buffer surface: the allocation and its size.
    Buffer(AllocId, u64),
    /// Shared local memory.
    Shared,
    /// The flat address space.
    Flat,
}

impl Region {
    fn of(mem: &Memory, d: &DpDesc, p: &dyn DpPayload, lane: usize) -> Result<Region, EnvError> {
        Ok(match d.addr {
            DpAddr::Slm => Region::Shared,
            DpAddr::A64 => Region::Flat,
            DpAddr::Bti => {
                let binding = p.binding(lane)?;
                let b = mem.image(binding).ok_or_else(|| {
                    at_lane(
                        lane,
                        Memory::unbound(
                            AccessKind::Load,
                            "image binding",
                            u64::from(binding),
                            &p.ctx(lane),
                        ),
                    )
                })?;
                Region::Buffer(b.alloc, mem.allocation(b.alloc).bytes.len() as u64)
            }
        })
    }

    /// The target of `size` bytes at `address`, or `None` when a buffer's bounds check
    /// drops the access.
    fn target(self, address: u64, size: u64) -> Option<Target> {
        match self {
            Region::Buffer(alloc, len) => address
                .checked_add(size)
                .is_some_and(|end| end <= len)
                .then_some(Target::Alloc(alloc, address)),
            Region::Shared => Some(Target::Shared(address)),
            Region::Flat => Some(Target::Global(address)),
        }
    }

    fn discard(
        self,
        mem: &mut Memory,
        kind: AccessKind,
        size: u64,
        p: &dyn DpPayload,
        lane: usize,
    ) {
        if let Region::Buffer(alloc, _) = self {
            mem.record_discarded(kind, Space::Alloc(alloc), size as u32, &p.ctx(lane));
        }
    }
}

/// The address of lane `lane`, and a check of its alignment.
fn address(d: &DpDesc, p: &dyn DpPayload, lane: usize, align: u64) -> Result<u64, EnvError> {
    let raw = src_values(p, 0, lane, 1, "address")?[0];
    let a = raw & ir::types::bit_mask(d.addr_bits());
    if !a.is_multiple_of(align) {
        return Err(at_lane(
            lane,
            DpExecError::Misaligned {
                address: a,
                align: align as u32,
            },
        ));
    }
    Ok(a)
}

/// Reads `size` bytes (1 to 8) at `address`, 0 when the bounds check drops them.
fn load(
    mem: &mut Memory,
    space: Region,
    p: &dyn DpPayload,
    lane: usize,
    address: u64,
    size: u64,
) -> Result<u64, EnvError> {
    match space.target(address, size) {
        Some(t) => mem
            .load_uint(t, size as usize, &p.ctx(lane))
            .map_err(|e| at_lane(lane, e)),
        None => {
            space.discard(mem, AccessKind::Load, size, p, lane);
            Ok(0)
        }
    }
}

/// Writes the low `size` bytes of `value` at `address`, unless the bounds check drops
/// them.
fn store(
    mem: &mut Memory,
    space: Region,
    p: &dyn DpPayload,
    lane: usize,
    address: u64,
    size: u64,
    value: u64,
) -> Result<(), EnvError> {
    match space.target(address, size) {
        Some(t) => mem
            .store_uint(t, size as usize, value, &p.ctx(lane))
            .map_err(|e| at_lane(lane, e)),
        None => {
            space.discard(mem, AccessKind::Store, size, p, lane);
            Ok(())
        }
    }
}

/// `@dp_untyped_read`, `@dp_untyped_write`.
pub fn surface_rw(mem: &mut Memory, d: &DpDesc, p: &mut dyn DpPayload) -> Result<(), EnvError> {
    let write = d.msg == DpMsg::UntypedWrite;
    let channels: Vec<u64> = (0..4).filter(|c| d.cmask & (1 << c) != 0).collect();
    for lane in p.lanes() {
        let space = Region::of(mem, d, p, lane)?;
        let base = address(d, p, lane, 4)?;
        let at = |c: u64| base.wrapping_add(4 * c) & ir::types::bit_mask(d.addr_bits());
        if write {
            let data = src_values(p, 1, lane, channels.len(), "data")?.to_vec();
            for (&c, &v) in channels.iter().zip(&data) {
                store(mem, space, p, lane, at(c), 4, v)?;
            }
        } else {
            let mut vals = Vec::with_capacity(channels.len());
            for &c in &channels {
                vals.push(load(mem, space, p, lane, at(c), 4)?);
            }
            p.set_dest(lane, &vals);
        }
    }
    Ok(())
}

/// `@dp_byte_scattered_read`, `@dp_byte_scattered_write`, `@dp_dword_scattered_read`,
/// `@dp_dword_scattered_write`.
pub fn scattered(mem: &mut Memory, d: &DpDesc, p: &mut dyn DpPayload) -> Result<(), EnvError> {
    let (size, align, write) = match d.msg {
        DpMsg::ByteScatteredRead => (u64::from(d.bytes), 1, false),
        DpMsg::ByteScatteredWrite => (u64::from(d.bytes), 1, true),
        DpMsg::DwordScatteredRead => (4, 4, false),
        _ => (4, 4, true),
    };
    for lane in p.lanes() {
        let space = Region::of(mem, d, p, lane)?;
        let a = address(d, p, lane, align)?;
        if write {
            let v = src_values(p, 1, lane, 1, "data")?[0];
            store(mem, space, p, lane, a, size, v)?;
        } else {
            let v = load(mem, space, p, lane, a, size)?;
            p.set_dest(lane, &[with_undefined_upper(v, size as u32)]);
        }
    }
    Ok(())
}

/// `@dp_untyped_atomic`.
pub fn atomic(mem: &mut Memory, d: &DpDesc, p: &mut dyn DpPayload) -> Result<(), EnvError> {
    let size = u64::from(d.bits / 8);
    let nsrc = d.num_atomic_srcs();
    for lane in p.lanes() {
        let space = Region::of(mem, d, p, lane)?;
        let a = address(d, p, lane, size)?;
        let srcs = (0..nsrc)
            .map(|i| src_values(p, 1 + i, lane, 1, ["src0", "src1"][i]).map(|v| v[0]))
            .collect::<Result<Vec<u64>, EnvError>>()?;
        let s0 = srcs.first().copied().unwrap_or(0);
        let s1 = srcs.get(1).copied().unwrap_or(0);
        let old = match space.target(a, size) {
            Some(t) => {
                let ctx = p.ctx(lane);
                let old = mem
                    .atomic(t, size as usize, &ctx, |old| {
                        apply_dp_atomic(d.op, d.bits, old, s0, s1)
                    })
                    .map_err(|e| at_lane(lane, e))?;
                with_undefined_upper(old, size as u32)
            }
            None => {
                space.discard(mem, AccessKind::Atomic, size, p, lane);
                0
            }
        };
        p.set_dest(lane, &[old]);
    }
    Ok(())
}
