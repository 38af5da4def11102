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
//!   pseudo-code); the disabled ones are neither read nor written. The address must be
//!   dword-aligned.
//! * Byte scattered read/write: `dp_bytes` bytes at `addr`, any alignment; a read
//!   returns them in the low bytes of the element, the other bytes of a 32-bit element
//!   undefined (`GATHER_SCALED`: "For 1 and 2 byte reads the upper bytes have undefined
//!   values"); the executor fills them with [`UNDEFINED_BYTE`](super::UNDEFINED_BYTE).
//!   8-byte accesses (A64) use 64-bit elements. An access that crosses the end of a
//!   `bti` buffer is out of bounds as a whole.
//! * Dword scattered read/write: one dword at `addr`, dword-aligned.
//! * Atomics: `dp_bits`-wide memory at `addr`, aligned to its size, lanes in ascending
//!   order; 16-bit atomics (Gfx12) take the low 16 bits of the operands and return the
//!   old value in the low 16 bits of the element, the upper ones undefined.

use super::atomic::apply_dp_atomic;
use super::message::{with_undefined_upper, DpMessage};
use crate::memory::{AccessKind, AllocId, Memory, Space, Target};
use crate::messages::error::MessageError;
use crate::messages::lanes::{Lanes, LanesMut};
use crate::messages::surface::bound;
use ir::dataport::{DpAddr, DpMsg};
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
    fn of(mem: &Memory, msg: &DpMessage<'_>, lane: usize) -> Result<Region, EnvError> {
        Ok(match msg.desc.addr {
            DpAddr::Slm => Region::Shared,
            DpAddr::A64 => Region::Flat,
            DpAddr::Bti => {
                let b = bound(mem, &msg.sender, msg.surface(lane)?, lane)?;
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
}

/// One lane's view of a message: its region and its context.
struct Lane<'m, 'a> {
    msg: &'m DpMessage<'a>,
    lane: usize,
    region: Region,
}

impl Lane<'_, '_> {
    fn new<'m, 'a>(
        mem: &Memory,
        msg: &'m DpMessage<'a>,
        lane: usize,
    ) -> Result<Lane<'m, 'a>, EnvError> {
        Ok(Lane {
            msg,
            lane,
            region: Region::of(mem, msg, lane)?,
        })
    }

    /// The lane's address from `addr`, cut to the address model's width and checked
    /// against `align`.
    fn address(&self, addr: &Lanes<'_>, align: u64) -> Result<u64, EnvError> {
        let a = addr.scalar(self.lane) & ir::types::bit_mask(self.msg.desc.addr_bits());
        if !a.is_multiple_of(align) {
            return Err(at_lane(
                self.lane,
                MessageError::Misaligned {
                    address: a,
                    align: align as u32,
                },
            ));
        }
        Ok(a)
    }

    /// `base + delta` in the address model's width.
    fn offset(&self, base: u64, delta: u64) -> u64 {
        base.wrapping_add(delta) & ir::types::bit_mask(self.msg.desc.addr_bits())
    }

    fn discard(&self, mem: &mut Memory, kind: AccessKind, size: u64) {
        if let Region::Buffer(alloc, _) = self.region {
            mem.record_discarded(
                kind,
                Space::Alloc(alloc),
                size as u32,
                &self.msg.sender.ctx(self.lane),
            );
        }
    }

    /// Reads `size` bytes (1 to 8) at `address`, 0 when the bounds check drops them.
    fn load(&self, mem: &mut Memory, address: u64, size: u64) -> Result<u64, EnvError> {
        match self.region.target(address, size) {
            Some(t) => mem
                .load_uint(t, size as usize, &self.msg.sender.ctx(self.lane))
                .map_err(|e| at_lane(self.lane, e)),
            None => {
                self.discard(mem, AccessKind::Load, size);
                Ok(0)
            }
        }
    }

    /// Writes the low `size` bytes of `value` at `address`, unless the bounds check
    /// drops them.
    fn store(&self, mem: &mut Memory, address: u64, size: u64, value: u64) -> Result<(), EnvError> {
        match self.region.target(address, size) {
            Some(t) => mem
                .store_uint(t, size as usize, value, &self.msg.sender.ctx(self.lane))
                .map_err(|e| at_lane(self.lane, e)),
            None => {
                self.discard(mem, AccessKind::Store, size);
                Ok(())
            }
        }
    }
}

/// The enabled channels of an untyped surface message, X first.
fn channels(msg: &DpMessage<'_>) -> Vec<u64> {
    (0..4).filter(|c| msg.desc.cmask & (1 << c) != 0).collect()
}

/// `@dp_untyped_read`: the enabled dwords at each served lane's address, packed.
pub fn read(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    addr: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let channels = channels(msg);
    for lane in msg.lanes() {
        let l = Lane::new(mem, msg, lane)?;
        let base = l.address(&addr, 4)?;
        let mut vals = Vec::with_capacity(channels.len());
        for &c in &channels {
            vals.push(l.load(mem, l.offset(base, 4 * c), 4)?);
        }
        dest.set(lane, &vals)?;
    }
    Ok(())
}

/// `@dp_untyped_write`: the enabled dwords of `data` (packed) at each served lane's
/// address.
pub fn write(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    addr: Lanes<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let channels = channels(msg);
    for lane in msg.lanes() {
        let l = Lane::new(mem, msg, lane)?;
        let base = l.address(&addr, 4)?;
        let values = data.lane(lane);
        if values.len() < channels.len() {
            return Err(at_lane(
                lane,
                MessageError::Shape {
                    reason: format!(
                        "the message writes {} dwords, the data has {}",
                        channels.len(),
                        values.len()
                    ),
                },
            ));
        }
        for (&c, &v) in channels.iter().zip(values) {
            l.store(mem, l.offset(base, 4 * c), 4, v)?;
        }
    }
    Ok(())
}

/// The bytes and the alignment of one scattered element.
fn scattered_size(msg: &DpMessage<'_>) -> (u64, u64) {
    match msg.desc.msg {
        DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite => (u64::from(msg.desc.bytes), 1),
        _ => (4, 4),
    }
}

/// `@dp_byte_scattered_read`, `@dp_dword_scattered_read`: one element at each served
/// lane's address.
pub fn scattered_read(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    addr: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let (size, align) = scattered_size(msg);
    for lane in msg.lanes() {
        let l = Lane::new(mem, msg, lane)?;
        let a = l.address(&addr, align)?;
        let v = l.load(mem, a, size)?;
        dest.set(lane, &[with_undefined_upper(v, size as u32)])?;
    }
    Ok(())
}

/// `@dp_byte_scattered_write`, `@dp_dword_scattered_write`: the low bytes of `data`
/// at each served lane's address.
pub fn scattered_write(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    addr: Lanes<'_>,
    data: Lanes<'_>,
) -> Result<(), EnvError> {
    let (size, align) = scattered_size(msg);
    for lane in msg.lanes() {
        let l = Lane::new(mem, msg, lane)?;
        let a = l.address(&addr, align)?;
        l.store(mem, a, size, data.scalar(lane))?;
    }
    Ok(())
}

/// `@dp_untyped_atomic`: `dp_op` on the `dp_bits`-wide memory at each served lane's
/// address with operands `src0`, `src1` (empty when the operation takes fewer); `dest`
/// gets the old value.
pub fn atomic(
    mem: &mut Memory,
    msg: &DpMessage<'_>,
    addr: Lanes<'_>,
    src0: Lanes<'_>,
    src1: Lanes<'_>,
    dest: &mut LanesMut<'_>,
) -> Result<(), EnvError> {
    let d = msg.desc;
    let size = u64::from(d.bits / 8);
    for lane in msg.lanes() {
        let l = Lane::new(mem, msg, lane)?;
        let a = l.address(&addr, size)?;
        let (s0, s1) = (src0.scalar(lane), src1.scalar(lane));
        let old = match l.region.target(a, size) {
            Some(t) => {
                let old = mem
                    .atomic(t, size as usize, &msg.sender.ctx(lane), |old| {
                        apply_dp_atomic(d.op, d.bits, old, s0, s1)
                    })
                    .map_err(|e| at_lane(lane, e))?;
                with_undefined_upper(old, size as u32)
            }
            None => {
                l.discard(mem, AccessKind::Atomic, size);
                0
            }
        };
        dest.set(lane, &[old])?;
    }
    Ok(())
}
