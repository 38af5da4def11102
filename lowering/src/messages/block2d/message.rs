//! A 2D block message intrinsic decoded into its fields ([`Block2dMessage`]) and its
//! operands checked ([`block2d_operands`]).

use super::form::{Block2dForm, Block2dOp};
use super::register::register_bytes;
use crate::messages::operands::expect_type;
use crate::messages::rule::MessageRule;
use ir::lsc::{Block2dDesc, BlockShape, CacheControl, DataSize, Sfid};
use ir::{Function, Inst, IntrinsicOp, Src, Type};

/// The fields of one 2D block message.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Block2dMessage {
    /// Load or store.
    pub op: Block2dOp,
    /// `.tgm` or `.ugm` (other SFIDs are rejected by [`Block2dTable::check`](super::Block2dTable::check)).
    pub sfid: Sfid,
    /// Element size.
    pub size: DataSize,
    /// The block shape: untyped `[B x] W x H` in elements with flags, typed `W x H`
    /// with the width in bytes.
    pub shape: BlockShape,
    /// Cache controls.
    pub cache: CacheControl,
}

impl Block2dMessage {
    /// The form, if the SFID has block messages.
    pub fn form(&self) -> Option<Block2dForm> {
        Block2dForm::of_sfid(self.sfid)
    }

    /// Decodes a block message intrinsic. `Ok(None)` if `inst` is not one; an error if
    /// one of its indices does not decode.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<Block2dMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        let op = match i.op {
            IntrinsicOp::LscLoadBlock2d => Block2dOp::Load,
            IntrinsicOp::LscStoreBlock2d => Block2dOp::Store,
            _ => return Ok(None),
        };
        let desc = Block2dDesc::from_indices(&i.indices).map_err(|e| MessageRule::BadIndex {
            kind: e.field.into(),
            value: e.value,
        })?;
        Ok(Some(Block2dMessage {
            op,
            sfid: desc.sfid,
            size: desc.size,
            shape: desc.shape,
            cache: desc.cache,
        }))
    }

    /// Bytes of the message's register image (0 if the SFID has no block messages).
    pub fn register_bytes(&self) -> u32 {
        self.form()
            .map_or(0, |f| register_bytes(f, self.size, self.shape))
    }
}

/// The operands of a block message intrinsic.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Block2dOperands {
    /// The payload in vISA order: untyped `base, width - 1, height - 1, pitch - 1, x, y`;
    /// typed `x, y`.
    pub payload: Vec<Src>,
    /// The stored data (stores).
    pub data: Option<Src>,
}

/// Splits the sources of a block message intrinsic and checks their count and types:
/// an untyped base is a 64-bit scalar, every other payload field a 32-bit scalar; the data
/// (or destination) has 8-, 16-, 32- or 64-bit components whose per-lane size divides the
/// register image into a power-of-two number of lanes up to 32 (the subgroup size, which
/// the validator checks against the shader's).
pub fn block2d_operands(
    func: &Function,
    inst: Inst,
    m: &Block2dMessage,
) -> Result<Block2dOperands, MessageRule> {
    let i = func
        .inst(inst)
        .as_intrinsic()
        .filter(|i| i.op.is_block2d())
        .ok_or(MessageRule::NotAMessage)?;
    let typed = m.sfid == Sfid::Tgm;
    let n_payload = if typed { 2 } else { 6 };
    let n_data = usize::from(m.op == Block2dOp::Store);
    let expected = n_payload + n_data;
    if i.srcs.len() != expected {
        return Err(MessageRule::OperandCount {
            expected,
            found: i.srcs.len(),
        });
    }
    let names: &[&'static str] = if typed {
        &["x", "y"]
    } else {
        &[
            "base",
            "width_minus_1",
            "height_minus_1",
            "pitch_minus_1",
            "x",
            "y",
        ]
    };
    for (k, (s, name)) in i.srcs.iter().zip(names).enumerate() {
        let base = !typed && k == 0;
        expect_type(func, name, *s, if base { Type::U64 } else { Type::U32 })?;
    }
    let data = (n_data == 1).then(|| i.srcs[n_payload]);
    let value = match (data, func.inst(inst).dest) {
        (Some(d), _) => Some(("data", func.src_type(d))),
        (None, Some(v)) => Some(("dest", func.value_type(v))),
        (None, None) => None,
    };
    if let Some((operand, t)) = value {
        let bytes = m.register_bytes();
        let per_lane = u32::from(t.num_components()) * u32::from(t.bit_size()) / 8;
        let lanes = if per_lane == 0 || t.bit_size() < 8 {
            0
        } else {
            bytes / per_lane
        };
        if lanes * per_lane != bytes || !lanes.is_power_of_two() || lanes > 32 {
            return Err(MessageRule::Block2dData {
                operand,
                found: t,
                register_bytes: bytes,
            });
        }
    }
    Ok(Block2dOperands {
        payload: i.srcs[..n_payload].to_vec(),
        data,
    })
}
