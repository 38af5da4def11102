//! Sampler messages (`@sampler_ld`, `@sampler_ld_lz`): decoding and operands.

use super::operands::expect_type;
use super::rule::MessageRule;
use ir::{Function, IndexKind, Inst, IntrinsicOp, Src, Type};

/// The sampler operation of a sampler message.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SamplerOp {
    /// `ld` (vISA `load_3d`): u, v, lod, r.
    Ld,
    /// `ld_lz` (vISA `load_lz`): u, v, r at LOD 0.
    LdLz,
}

/// A decoded sampler message (`@sampler_ld`, `@sampler_ld_lz`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SamplerMessage {
    /// Operation.
    pub op: SamplerOp,
    /// Returned channels, R in bit 0.
    pub channels: u8,
}

impl SamplerMessage {
    /// Decodes a sampler intrinsic; `Ok(None)` if `inst` is not one.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<SamplerMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        let op = match i.op {
            IntrinsicOp::SamplerLd => SamplerOp::Ld,
            IntrinsicOp::SamplerLdLz => SamplerOp::LdLz,
            _ => return Ok(None),
        };
        let channels = i.index(IndexKind::Channels).ok_or(MessageRule::BadIndex {
            kind: IndexKind::Channels,
            value: None,
        })?;
        if channels == 0 || channels > 0xf {
            return Err(MessageRule::BadIndex {
                kind: IndexKind::Channels,
                value: Some(channels),
            });
        }
        Ok(Some(SamplerMessage {
            op,
            channels: channels as u8,
        }))
    }
}

/// The operands of a sampler message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SamplerOperands {
    /// The parameters in vISA order: u, v, lod, r for `ld`; u, v, r for `ld_lz`.
    pub params: Vec<Src>,
    /// The 1-bit predicate, if any.
    pub predicate: Option<Src>,
}

/// Splits and checks the sources of a sampler intrinsic.
pub fn sampler_operands(
    func: &Function,
    inst: Inst,
    m: &SamplerMessage,
) -> Result<SamplerOperands, MessageRule> {
    let data = func.inst(inst);
    let i = data
        .as_intrinsic()
        .filter(|i| matches!(i.op, IntrinsicOp::SamplerLd | IntrinsicOp::SamplerLdLz))
        .ok_or(MessageRule::NotAMessage)?;
    if i.image.is_none() {
        return Err(MessageRule::SamplerWithoutImage);
    }
    let expected = match m.op {
        SamplerOp::Ld => 4,
        SamplerOp::LdLz => 3,
    };
    let srcs = &i.srcs;
    let predicate = if srcs.len() == expected + 1 && func.src_type(srcs[expected]) == Type::BOOL {
        Some(srcs[expected])
    } else if srcs.len() == expected {
        None
    } else {
        return Err(MessageRule::OperandCount {
            expected,
            found: srcs.len(),
        });
    };
    let names: &[&'static str] = match m.op {
        SamplerOp::Ld => &["u", "v", "lod", "r"],
        SamplerOp::LdLz => &["u", "v", "r"],
    };
    for (s, name) in srcs.iter().zip(names) {
        expect_type(func, name, *s, Type::U32)?;
    }
    if let Some(dest) = data.dest {
        let found = func.value_type(dest);
        let comps = m.channels.count_ones() as u8;
        if found.num_components() != comps || !matches!(found.bit_size(), 16 | 32) {
            return Err(MessageRule::OperandType {
                operand: "dest",
                expected: Type::new(32, comps).unwrap_or(found),
                found,
            });
        }
    }
    Ok(SamplerOperands {
        params: srcs[..expected].to_vec(),
        predicate,
    })
}
