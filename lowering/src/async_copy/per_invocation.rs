//! The per-invocation loop: every work-item moves its share of the copy's units.

use super::address::{region_address, side_desc};
use super::arith::Arith;
use super::copy::{builder, Copy, Num};
use ir::function::InstKind;
use ir::lsc::{DataShape, DataSize};
use ir::{Function, IntrinsicOp, Phi, Src, Type};
use smallvec::smallvec;

/// The unit a loop iteration moves: its bytes and data shape.
pub(super) fn unit_shape(bytes: u64) -> DataShape {
    match bytes {
        1 => DataShape::vector(DataSize::D8U32, 1, false),
        2 => DataShape::vector(DataSize::D16U32, 1, false),
        4 => DataShape::vector(DataSize::D32, 1, false),
        8 => DataShape::vector(DataSize::D64, 1, false),
        _ => DataShape::vector(DataSize::D32, 4, false),
    }
}

/// The bytes of one unit: the largest power of two up to 16 dividing a constant element
/// size, 1 for a dynamic one.
pub(super) fn unit_bytes(elem_bytes: Num) -> u64 {
    match elem_bytes {
        Num::K(0) | Num::V(_) => 1,
        Num::K(eb) => (eb & eb.wrapping_neg()).min(16),
    }
}

/// Emits the per-invocation loop of a copy in front of it.
pub(super) fn emit_loop(func: &mut Function, c: &Copy, wg_size: u32) {
    let u = unit_bytes(c.elem_bytes);
    let shape = unit_shape(u);
    let mut b = builder(func, c);
    let mut a = Arith::new(&mut b);
    let per_elem = match c.elem_bytes {
        Num::K(eb) => Num::K(eb / u),
        v => v,
    };
    let width = a.mul(c.elems_per_line, per_elem, 32);
    let per_plane = a.mul(width, c.lines, 32);
    let total = a.mul(per_plane, c.planes, 32);
    if total == Num::K(0) {
        return;
    }
    let lid =
        a.b.intrinsic(
            IntrinsicOp::LoadLocalInvocationIndex,
            None,
            &[],
            &[],
            Some(Type::U32),
        )
        .map(Src::new)
        .expect("load_local_invocation_index defines a value");
    let total_v = a.src(total, 32);
    let single = matches!(total, Num::K(t) if t <= wg_size as u64);
    // The unit index of the first (or only) iteration.
    let (index, header) = if single {
        let in_range = a.b.ult(lid, total_v);
        let id = a.b.push_if(in_range);
        (lid, Err(id))
    } else {
        let stride = a.imm(32, wg_size as u64);
        let pre = a.b.current_block();
        let l = a.b.push_loop();
        let i = a.b.phi(Type::U32, &[(pre, lid)]);
        let done = a.b.uge(i, total_v);
        let id = a.b.push_if(done);
        a.b.jump(ir::Jump::Break);
        a.b.pop_if(id);
        (Src::new(i), Ok((l, pre, i, stride)))
    };
    // Column, line and plane of the unit.
    let n = Num::V(index);
    let col = a.umod(n, width);
    let t = a.udiv(n, width);
    let (line, plane) = if c.planes == Num::K(1) {
        (t, Num::K(0))
    } else {
        (a.umod(t, c.lines), a.udiv(t, c.lines))
    };
    let col_bytes = a.mul(col, Num::K(u), 32);
    let from = region_address(&mut a, &c.src, c.elem_bytes, plane, line, col_bytes);
    let to = region_address(&mut a, &c.dst, c.elem_bytes, plane, line, col_bytes);
    let data =
        a.b.lsc_load(&side_desc(c.src.side, shape), None, &[from], None);
    a.b.lsc_store(
        &side_desc(c.dst.side, shape),
        None,
        &[to],
        Src::new(data),
        None,
    );
    match header {
        Err(if_id) => a.b.pop_if(if_id),
        Ok((l, pre, i, stride)) => {
            let next = a.b.iadd(index, stride);
            let latch = a.b.current_block();
            a.b.pop_loop(l);
            let phi = a.b.func.value_def(i).expect("the phi was just emitted");
            a.b.func.inst_mut(phi).kind = InstKind::Phi(Phi {
                srcs: smallvec![(pre, Src::new(lid.value)), (latch, Src::new(next))],
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{Src, Value};

    #[test]
    fn units_are_the_largest_power_of_two_dividing_the_element() {
        let cases = [
            (1, 1),
            (2, 2),
            (4, 4),
            (8, 8),
            (16, 16),
            (32, 16),
            (128, 16),
            (12, 4),
            (24, 8),
            (3, 1),
        ];
        for (eb, u) in cases {
            assert_eq!(unit_bytes(Num::K(eb)), u, "{eb}");
        }
        let v = Num::V(Src::new(Value::from_u32(0)));
        assert_eq!(unit_bytes(v), 1);
        assert_eq!(unit_shape(16).to_string(), "d32x4");
        assert_eq!(unit_shape(1).to_string(), "d8u32");
    }
}
