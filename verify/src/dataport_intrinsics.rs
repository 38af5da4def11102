//! The legacy data-port message intrinsics of the IR (`@dp_*`), executed through
//! [`crate::messages::dataport`].
//!
//! This adapter is the IR's side of a message, as [`crate::message_intrinsics`] is for
//! LSC messages: it decodes the intrinsic's fields, checks that its operands have the
//! types the message needs (32-bit coordinates, an address of the address model's
//! width, data and atomic operands of the fields' shape), reads them as per-lane
//! values, resolves the image each lane names to its binding-table index, and writes
//! the results back.

use crate::call::{image_binding_indices, sender};
use crate::memory::Memory;
use crate::messages::dataport::{typed, untyped, DpMessage};
use crate::messages::typed::Coords;
use crate::messages::{Lanes, LanesMut, MessageError};
use ir::dataport::{DpDesc, DpMsg};
use ir::interp::{EnvError, IntrinsicCall};
use ir::Type;
use lowering::messages::dataport::DataportCaps;

/// Source `i` of every lane (no lanes when the call has no such source).
fn lanes<'a>(call: &IntrinsicCall<'a>, i: usize) -> Lanes<'a> {
    if !call.has_src(i) {
        return Lanes::new(&[], 1);
    }
    Lanes::new(
        call.src_lanes(i),
        call.src_type(i).num_components() as usize,
    )
}

fn check_src(call: &IntrinsicCall<'_>, i: usize, want: Type, what: &str) -> Result<(), EnvError> {
    let t = call.src_type(i);
    if t != want {
        return Err(MessageError::shape(format!(
            "the {what} is {t}, expected {want}"
        )));
    }
    Ok(())
}

/// Executes a `@dp_*` intrinsic for all its lanes on a generation with the data port
/// `caps` (`None`: the executor was not told the platform, an error).
pub fn execute(
    mem: &mut Memory,
    caps: Option<&DataportCaps>,
    call: &mut IntrinsicCall<'_>,
) -> Result<(), EnvError> {
    call.check_sources()?;
    let op = call.op();
    let msg = op
        .dp_msg()
        .ok_or_else(|| EnvError::msg(format!("`@{op}` is not a data-port message")))?;
    let d = DpDesc::from_indices(msg, &call.intrinsic.indices).map_err(EnvError::new)?;
    let caps = caps.copied().ok_or_else(|| {
        MessageError::illegal(
            "legacy data-port messages need the platform they run on (its generation decides their behaviour)",
        )
    })?;
    let data_ty = Type::new(d.data_bits(), d.components())
        .ok_or_else(|| MessageError::shape(format!("{d} has no register data shape")))?;
    let elem_ty = Type::new(d.data_bits(), 1).unwrap_or(Type::U32);
    // Typed messages: U, V, R, LOD (0-3), then data or the atomic operands (4, 5);
    // the others: the address (0), then data or the atomic operands (1, 2).
    let first = if d.msg.is_typed() {
        for (i, name) in ["u", "v", "r", "lod"].iter().enumerate() {
            check_src(call, i, Type::U32, &format!("coordinate {name}"))?;
        }
        4
    } else {
        let addr_ty = Type::new(d.addr_bits(), 1).unwrap_or(Type::U32);
        check_src(call, 0, addr_ty, "address")?;
        1
    };
    if d.msg.has_data() {
        check_src(call, first, data_ty, "data")?;
    }
    for i in 0..d.num_atomic_srcs() {
        check_src(call, first + i, elem_ty, &format!("atomic operand src{i}"))?;
    }
    if let Some(t) = call.dest_type {
        if d.msg.has_dest() && t != data_ty {
            return Err(MessageError::shape(format!(
                "the destination is {t}, expected {data_ty}"
            )));
        }
    }
    let surfaces = if d.names_image() && call.image.is_some() {
        image_binding_indices(call, call.enabled_mask())?
    } else {
        Vec::new()
    };
    let m = DpMessage::new(sender(call), d, caps, call.enabled_mask(), &surfaces)?;
    let coords = Coords {
        u: lanes(call, 0),
        v: lanes(call, 1),
        r: lanes(call, 2),
        lod: lanes(call, 3),
    };
    let (addr, data) = (lanes(call, 0), lanes(call, first));
    let (src0, src1) = if d.msg.is_atomic() {
        let n = d.num_atomic_srcs();
        let empty = Lanes::new(&[], 1);
        (
            if n >= 1 { lanes(call, first) } else { empty },
            if n >= 2 {
                lanes(call, first + 1)
            } else {
                empty
            },
        )
    } else {
        (Lanes::new(&[], 1), Lanes::new(&[], 1))
    };
    let comps = call.dest_components();
    match d.msg {
        DpMsg::TypedWrite => typed::write(mem, &m, coords, data),
        DpMsg::UntypedWrite => untyped::write(mem, &m, addr, data),
        DpMsg::ByteScatteredWrite | DpMsg::DwordScatteredWrite => {
            untyped::scattered_write(mem, &m, addr, data)
        }
        _ => {
            let mut dest = LanesMut::new(call.dest_lanes_mut(), comps);
            match d.msg {
                DpMsg::TypedRead => typed::read(mem, &m, coords, &mut dest),
                DpMsg::TypedAtomic => typed::atomic(mem, &m, coords, src0, src1, &mut dest),
                DpMsg::UntypedRead => untyped::read(mem, &m, addr, &mut dest),
                DpMsg::UntypedAtomic => untyped::atomic(mem, &m, addr, src0, src1, &mut dest),
                _ => untyped::scattered_read(mem, &m, addr, &mut dest),
            }
        }
    }
}
