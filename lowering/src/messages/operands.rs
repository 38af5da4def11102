//! The operands of LSC message intrinsics: count, order and types.

use super::lsc::LscMessage;
use super::op::{LscOp, OpClass};
use super::rule::MessageRule;
use ir::lsc::Sfid;
use ir::{Function, Inst, Src, Type};

/// The operands of an LSC message intrinsic, in vISA order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LscOperands {
    /// The address: one source for untyped messages, U, V, R, LOD for typed ones.
    pub addr: Vec<Src>,
    /// The pitch of strided messages.
    pub pitch: Option<Src>,
    /// The stored data of stores.
    pub data: Option<Src>,
    /// The data operands of atomics (src1, src2), as many as the sub-op takes.
    pub atomic: Vec<Src>,
    /// The 1-bit predicate, if any.
    pub predicate: Option<Src>,
}

/// Checks that operand `operand` (`src`) of a message has type `expected`.
pub(crate) fn expect_type(
    func: &Function,
    operand: &'static str,
    src: Src,
    expected: Type,
) -> Result<(), MessageRule> {
    let found = func.src_type(src);
    if found == expected {
        Ok(())
    } else {
        Err(MessageRule::OperandType {
            operand,
            expected,
            found,
        })
    }
}

/// Splits the sources of an LSC intrinsic into [`LscOperands`] and checks their count
/// and types against the message.
pub fn lsc_operands(
    func: &Function,
    inst: Inst,
    m: &LscMessage,
) -> Result<LscOperands, MessageRule> {
    let i = func
        .inst(inst)
        .as_intrinsic()
        .filter(|i| i.op.is_lsc())
        .ok_or(MessageRule::NotAMessage)?;
    let srcs = &i.srcs;
    let typed = m.sfid == Sfid::Tgm;
    let n_addr = if typed { 4 } else { 1 };
    let n_pitch = usize::from(m.op.is_strided());
    let n_data = usize::from(m.op.class() == OpClass::Store);
    let n_atomic = match m.op {
        LscOp::Atomic(a) => a.num_data_operands(),
        _ => 0,
    };
    let fixed = n_addr + n_pitch + n_data;
    let expected = fixed + n_atomic;
    let is_pred = |s: &Src| func.src_type(*s) == Type::BOOL;

    if typed && (srcs.is_empty() || is_undef(func, srcs[0])) {
        return Err(MessageRule::TypedUMissing);
    }
    let (body, predicate) = if srcs.len() == expected {
        (&srcs[..], None)
    } else if srcs.len() == expected + 1 && srcs.last().is_some_and(is_pred) {
        (&srcs[..expected], srcs.last().copied())
    } else if let LscOp::Atomic(_) = m.op {
        // Count the data operands as written: all sources after the address, minus a
        // trailing 1-bit predicate.
        let mut found = srcs.len().saturating_sub(fixed);
        if found > 0 && srcs.last().is_some_and(is_pred) && srcs.len() > fixed {
            found -= 1;
        }
        if srcs.len() < fixed {
            return Err(MessageRule::OperandCount {
                expected,
                found: srcs.len(),
            });
        }
        return Err(MessageRule::AtomicOperands {
            op: m.op,
            expected: n_atomic,
            found,
        });
    } else {
        return Err(MessageRule::OperandCount {
            expected,
            found: srcs.len(),
        });
    };

    let addr: Vec<Src> = body[..n_addr].to_vec();
    let pitch = (n_pitch == 1).then(|| body[n_addr]);
    let data = (n_data == 1).then(|| body[n_addr + n_pitch]);
    let atomic: Vec<Src> = body[fixed..].to_vec();

    // Address registers (§5): a64 in Q/UQ, a32 in D/UD; typed coordinates are 32-bit.
    if typed {
        for (s, name) in addr.iter().zip(["u", "v", "r", "lod"]) {
            expect_type(func, name, *s, Type::U32)?;
        }
    } else {
        let t = func.src_type(addr[0]);
        if t.num_components() != 1 || t.bit_size() != m.addr_size.bits() {
            if t.num_components() == 1 {
                return Err(MessageRule::AddressBits {
                    size: m.addr_size,
                    bits: t.bit_size(),
                });
            }
            let expected = Type::scalar(m.addr_size.bits()).expect("address sizes are legal");
            return Err(MessageRule::OperandType {
                operand: "address",
                expected,
                found: t,
            });
        }
    }
    if let Some(p) = pitch {
        expect_type(func, "pitch", p, Type::U32)?;
    }
    let bits = m.data.size.reg_bits();
    let comps = m.data.components();
    if let Some(d) = data {
        let found = func.src_type(d);
        match Type::new(bits, comps) {
            Some(t) => expect_type(func, "data", d, t)?,
            None => {
                return Err(MessageRule::OperandType {
                    operand: "data",
                    expected: found,
                    found,
                })
            }
        }
    }
    if let Some(dest) = func.inst(inst).dest {
        let found = func.value_type(dest);
        if Type::new(bits, comps) != Some(found) {
            return Err(MessageRule::OperandType {
                operand: "dest",
                expected: Type::new(bits, comps).unwrap_or(found),
                found,
            });
        }
    }
    let scalar = Type::scalar(bits).expect("data sizes have legal bit sizes");
    for (s, name) in atomic.iter().zip(["src1", "src2"]) {
        expect_type(func, name, *s, scalar)?;
    }
    Ok(LscOperands {
        addr,
        pitch,
        data,
        atomic,
        predicate,
    })
}

fn is_undef(func: &Function, src: Src) -> bool {
    func.value_def(src.value)
        .is_some_and(|d| matches!(func.inst(d).kind, ir::InstKind::Undef))
}

#[cfg(test)]
mod tests {
    use super::super::sampler::{sampler_operands, SamplerMessage, SamplerOp};
    use super::*;
    use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape};

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
    fn operands_of_non_messages() {
        let mut f = Function::new("main");
        let mut b = ir::Builder::at_end(&mut f);
        b.imm_u32(3);
        let inst = f.insts_in_order()[0];
        let m = msg(Sfid::Ugm, "d32", AddrSize::A64);
        assert_eq!(lsc_operands(&f, inst, &m), Err(MessageRule::NotAMessage));
        let s = SamplerMessage {
            op: SamplerOp::Ld,
            channels: 1,
            sampler: 0,
            component: 0,
            offset: ir::TexelOffset::default(),
        };
        assert_eq!(
            sampler_operands(&f, inst, &s),
            Err(MessageRule::NotAMessage)
        );
    }
}
