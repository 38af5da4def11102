//! An LSC message intrinsic decoded into its fields ([`LscMessage`]), and the register
//! lengths of its payloads.

use super::op::LscOp;
use super::rule::MessageRule;
use crate::device::Device;
use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, LscDesc, Sfid};
use ir::{Function, IndexKind, Inst, IntrinsicOp};

/// A decoded LSC message: the fields of one `@lsc_*` intrinsic.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LscMessage {
    /// Operation.
    pub op: LscOp,
    /// Shared function.
    pub sfid: Sfid,
    /// Address model.
    pub addr_type: AddrType,
    /// Address size.
    pub addr_size: AddrSize,
    /// Data shape.
    pub data: DataShape,
    /// L1/L3 cache controls.
    pub cache: CacheControl,
    /// Immediate byte offset added to every address.
    pub offset: i32,
}

impl LscMessage {
    /// The message `op` sends with the fields of `desc`.
    pub fn new(op: LscOp, desc: &LscDesc) -> LscMessage {
        LscMessage {
            op,
            sfid: desc.sfid,
            addr_type: desc.addr_type,
            addr_size: desc.addr_size,
            data: desc.data,
            cache: desc.cache,
            offset: desc.offset,
        }
    }

    /// Decodes an LSC intrinsic. `Ok(None)` if `inst` is not an LSC message intrinsic;
    /// an error if one of its indices does not decode.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<LscMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        if !i.op.is_lsc() {
            return Ok(None);
        }
        let desc = LscDesc::from_indices(&i.indices).map_err(|e| MessageRule::BadIndex {
            kind: e.field.into(),
            value: e.value,
        })?;
        let atomic = desc.atomic.filter(|_| i.op == IntrinsicOp::LscAtomic);
        let op = LscOp::from_intrinsic(i.op, atomic).ok_or(MessageRule::BadIndex {
            kind: IndexKind::LscOp,
            value: None,
        })?;
        Ok(Some(LscMessage::new(op, &desc)))
    }

    /// The execution size the message is emitted with on `p`: 1 when transposed, the
    /// typed SIMD width on TGM, the untyped width otherwise (docs/hardware/lsc-messages.md §6, §10).
    pub fn exec_size(&self, p: &Device) -> u32 {
        if self.data.transpose {
            1
        } else if self.sfid == Sfid::Tgm {
            p.typed_simd
        } else {
            p.untyped_simd
        }
    }

    /// Number of registers the data payload (destination or stored data, per data
    /// operand) occupies on `p`. Non-transposed data is channel-major, every component
    /// starting a new register (docs/hardware/lsc-messages.md §11, Mesa's `lsc_msg_dest_len` per component);
    /// transposed data is one packed block.
    pub fn data_grfs(&self, p: &Device) -> u32 {
        let bytes = u32::from(self.data.size.reg_bits() / 8).max(1);
        if self.data.transpose {
            div_ceil(u32::from(self.data.vect) * bytes, p.grf_bytes)
        } else {
            u32::from(self.data.components()) * div_ceil(self.exec_size(p) * bytes, p.grf_bytes)
        }
    }

    /// Number of registers the address payload occupies on `p`, given how many typed
    /// coordinates are sent (ignored for untyped messages).
    pub fn addr_grfs(&self, p: &Device, typed_coords: u32) -> u32 {
        // A strided message's address is one base and a pitch, one register (GenX_IR
        // encodes src0 length 1).
        if self.op.is_strided() {
            return 1;
        }
        if self.sfid == Sfid::Tgm {
            typed_coords * div_ceil(self.exec_size(p) * 4, p.grf_bytes)
        } else {
            let bytes = u32::from(self.addr_size.bits() / 8);
            div_ceil(self.exec_size(p) * bytes, p.grf_bytes)
        }
    }
}

fn div_ceil(a: u32, b: u32) -> u32 {
    a.div_ceil(b.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(sfid: Sfid, data: &str, size: AddrSize) -> LscMessage {
        LscMessage {
            op: LscOp::Load,
            sfid,
            addr_type: AddrType::Flat,
            addr_size: size,
            data: DataShape::parse(data).unwrap(),
            cache: CacheControl::DEFAULT,
            offset: 0,
        }
    }

    #[test]
    fn payload_lengths() {
        let dg2 = Device::preset("dg2").unwrap();
        let lnl = Device::preset("lnl").unwrap();
        // SIMD16 × 4 bytes = 64 bytes: 2 registers of 32, 1 of 64 (at SIMD32 on LNL: 2).
        let m = msg(Sfid::Ugm, "d32x3", AddrSize::A64);
        assert_eq!(m.data_grfs(&dg2), 6);
        assert_eq!(m.addr_grfs(&dg2, 1), 4);
        assert_eq!(m.data_grfs(&lnl), 6);
        assert_eq!(m.addr_grfs(&lnl, 1), 4);
        // d16 SIMT: 2 bytes per lane; d8u32 widens to 4.
        assert_eq!(msg(Sfid::Ugm, "d16", AddrSize::A32).data_grfs(&dg2), 1);
        assert_eq!(msg(Sfid::Ugm, "d8u32", AddrSize::A32).data_grfs(&dg2), 2);
        // Transposed blocks are packed: 64 × 8 bytes.
        assert_eq!(msg(Sfid::Ugm, "d64x64t", AddrSize::A64).data_grfs(&dg2), 16);
        assert_eq!(
            msg(Sfid::Ugm, "d64x64t", AddrSize::A64).addr_grfs(&dg2, 1),
            1
        );
        // Typed: one register run per coordinate.
        let t = msg(Sfid::Tgm, "d32.xyz", AddrSize::A32);
        assert_eq!(t.exec_size(&dg2), 8);
        assert_eq!(t.data_grfs(&dg2), 3);
        assert_eq!(t.addr_grfs(&dg2, 3), 3);
        assert_eq!(t.exec_size(&lnl), 32);
        assert_eq!(t.addr_grfs(&lnl, 2), 4);
    }
}
