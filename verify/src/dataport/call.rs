//! The IR's `@dp_*` intrinsics executed through the data-port semantics: an
//! [`IntrinsicCall`] as a [`DpPayload`].

use super::payload::{DpExecError, DpPayload};
use super::{typed, untyped};
use crate::memory::{AccessCtx, Memory};
use ir::dataport::{DpDesc, DpMsg};
use ir::interp::{EnvError, IntrinsicCall};
use lowering::messages::dataport::{check_dataport, DataportCaps};

/// An intrinsic call's operands, lanes and surface.
struct CallPayload<'c, 'a> {
    call: &'c mut IntrinsicCall<'a>,
}

impl DpPayload for CallPayload<'_, '_> {
    fn lanes(&self) -> Vec<usize> {
        let enabled = self.call.enabled_mask();
        (0..self.call.num_lanes())
            .filter(|l| *l < 32 && enabled & (1 << l) != 0)
            .collect()
    }

    fn src(&self, i: usize, lane: usize) -> &[u64] {
        if self.call.has_src(i) {
            self.call.src(i, lane)
        } else {
            &[]
        }
    }

    fn set_dest(&mut self, lane: usize, values: &[u64]) {
        self.call.set_dest(lane, values);
    }

    fn ctx(&self, lane: usize) -> AccessCtx {
        crate::call::access_ctx(self.call, lane)
    }

    fn binding(&self, lane: usize) -> Result<u32, EnvError> {
        crate::call::image_binding_index(self.call, lane)
    }
}

/// Executes a `@dp_*` intrinsic for all its lanes, on a generation with `caps`. The
/// message must be one the generation has (its legality table, [`check_dataport`]):
/// anything else is an error, never a guess at what hardware without the message would
/// do.
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
    let caps = caps.ok_or_else(|| EnvError::new(DpExecError::NoPlatform))?;
    check_dataport(caps, &caps.gen.to_string(), &d).map_err(|rule| {
        EnvError::new(DpExecError::Illegal {
            reason: rule.to_string(),
        })
    })?;
    let mut p = CallPayload { call };
    match d.msg {
        DpMsg::TypedRead => typed::read(mem, caps, &d, &mut p),
        DpMsg::TypedWrite => typed::write(mem, &d, &mut p),
        DpMsg::TypedAtomic => typed::atomic(mem, &d, &mut p),
        DpMsg::UntypedRead | DpMsg::UntypedWrite => untyped::surface_rw(mem, &d, &mut p),
        DpMsg::UntypedAtomic => untyped::atomic(mem, &d, &mut p),
        DpMsg::ByteScatteredRead
        | DpMsg::ByteScatteredWrite
        | DpMsg::DwordScatteredRead
        | DpMsg::DwordScatteredWrite => untyped::scattered(mem, &d, &mut p),
    }
}
