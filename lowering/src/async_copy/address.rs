//! Addresses of a copy's regions and the messages on each side.

use super::arith::Arith;
use super::copy::{Num, Region, Side};
use ir::lsc::{AddrSize, AddrType, DataShape, LscDesc, Sfid};
use ir::Src;

/// The untyped message on `side` with data `shape`: `.ugm` flat a64 for global memory,
/// `.slm` flat a32 for shared memory, default caching.
pub(super) fn side_desc(side: Side, shape: DataShape) -> LscDesc {
    let (sfid, size) = match side {
        Side::Global => (Sfid::Ugm, AddrSize::A64),
        Side::Shared => (Sfid::Slm, AddrSize::A32),
    };
    LscDesc::new(sfid, AddrType::Flat, size, shape)
}

/// The address of byte `col_bytes` of the line `line` of plane `plane` of `r`.
pub(super) fn region_address(
    a: &mut Arith<'_, '_>,
    r: &Region,
    elem_bytes: Num,
    plane: Num,
    line: Num,
    col_bytes: Num,
) -> Src {
    let p = a.mul(plane, r.plane_area, 32);
    let l = a.mul(line, r.line_length, 32);
    let el = a.add(r.offset, p, 32);
    let el = a.add(el, l, 32);
    match r.side {
        Side::Shared => {
            let bytes = a.mul(el, elem_bytes, 32);
            let off = a.add(bytes, col_bytes, 32);
            let addr = a.add(Num::V(r.ptr), off, 32);
            a.src(addr, 32)
        }
        Side::Global => {
            // The element index is 32-bit; its byte offset may not be.
            let el = a.u2u64(el);
            let eb = a.u2u64(elem_bytes);
            let bytes = a.mul(el, eb, 64);
            let col = a.u2u64(col_bytes);
            let off = a.add(bytes, col, 64);
            let addr = a.add(Num::V(r.ptr), off, 64);
            a.src(addr, 64)
        }
    }
}
