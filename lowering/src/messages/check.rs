//! Checking message intrinsics as a whole: fields, surface and operands.

use super::block2d::{block2d_operands, Block2dMessage, Block2dTable};
use super::dataport::legality::check_dataport;
use super::dataport::rule::DataportRule;
use super::legality::check_lsc;
use super::lsc::LscMessage;
use super::operands::lsc_operands;
use super::rule::{MessageError, MessageRule};
use super::sampler::{sampler_operands, SamplerMessage, SamplerOp};
use crate::device::Device;
use ir::dataport::{DpDecodeError, DpDesc, DpMsg};
use ir::lsc::{AddrType, Sfid};
use ir::{Function, IndexKind, Inst};

/// Checks the surface operand of an LSC message: stateful models need an image, flat
/// ones take none, and a binding-table index fits in 8 bits (docs/hardware/lsc-messages.md §5).
fn check_surface(
    surface: SurfaceInfo,
    func: &Function,
    inst: Inst,
    m: &LscMessage,
) -> Result<(), MessageRule> {
    let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
    match (m.addr_type, image) {
        (AddrType::Flat, Some(_)) => Err(MessageRule::FlatWithSurface),
        (AddrType::Flat, None) => Ok(()),
        (t, None) => Err(MessageRule::StatefulWithoutSurface { addr_type: t }),
        (AddrType::Bti, Some(_)) => match surface.max_bti {
            Some(b) if b > 255 => Err(MessageRule::BtiRange { bti: b }),
            _ => Ok(()),
        },
        (_, Some(_)) => Ok(()),
    }
}

/// The facts about the image of a message that legality needs, taken from the shader's
/// declaration: the highest binding-table index the message can reach.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct SurfaceInfo {
    /// `binding + count - 1` for an image array, `binding` otherwise; `None` if unknown.
    pub max_bti: Option<u64>,
}

impl SurfaceInfo {
    /// The surface facts of `inst`'s image in `shader`'s declarations.
    pub fn of(images: &[ir::ImageDecl], func: &Function, inst: Inst) -> SurfaceInfo {
        let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
        let max_bti = image.and_then(|r| {
            let d = images.get(r.image.index())?;
            let extra = match (r.index, d.count) {
                (Some(_), Some(n)) => u64::from(n.saturating_sub(1)),
                _ => 0,
            };
            Some(u64::from(d.binding) + extra)
        });
        SurfaceInfo { max_bti }
    }
}

/// Checks one message intrinsic of `func` on platform `p`: its fields (see
/// [`check_lsc`]; for legacy data-port messages the generation's table,
/// [`check_dataport`](super::dataport::check_dataport)), its surface and its operands.
/// A platform without LSC takes only legacy data-port messages (and sampler ones), a
/// platform with LSC none of them. Instructions that are not message
/// intrinsics pass. `images` are the shader's image declarations (for binding-table
/// ranges).
pub fn check_message(
    p: &Device,
    images: &[ir::ImageDecl],
    func: &Function,
    inst: Inst,
) -> Result<(), MessageError> {
    let err = |rule| MessageError::new(func, inst, rule);
    if let Some(m) = Block2dMessage::decode(func, inst).map_err(err)? {
        Block2dTable::for_device(p)
            .check(&m)
            .map_err(|r| err(MessageRule::Block2d(r)))?;
        let typed = m.sfid == Sfid::Tgm;
        let has_image = func
            .inst(inst)
            .as_intrinsic()
            .is_some_and(|i| i.image.is_some());
        if has_image != typed {
            return Err(err(MessageRule::Block2dSurface { typed }));
        }
        if typed {
            let surface = SurfaceInfo::of(images, func, inst);
            if let Some(b) = surface.max_bti.filter(|b| *b > 255) {
                return Err(err(MessageRule::BtiRange { bti: b }));
            }
        }
        block2d_operands(func, inst, &m).map_err(err)?;
        return Ok(());
    }
    if let Some(msg) = func.inst(inst).as_intrinsic().and_then(|i| i.op.dp_msg()) {
        return check_dataport_message(p, images, func, inst, msg).map_err(err);
    }
    if let Some(m) = LscMessage::decode(func, inst).map_err(err)? {
        if !p.has_lsc {
            return Err(err(MessageRule::NoLsc {
                platform: p.name.clone(),
                verx10: p.verx10(),
            }));
        }
        check_lsc(p, &m).map_err(err)?;
        let surface = SurfaceInfo::of(images, func, inst);
        check_surface(surface, func, inst, &m).map_err(err)?;
        lsc_operands(func, inst, &m).map_err(err)?;
        return Ok(());
    }
    if let Some(m) = SamplerMessage::decode(func, inst).map_err(err)? {
        if !p.has_sampler {
            return Err(err(MessageRule::NoSampler {
                platform: p.name.clone(),
            }));
        }
        sampler_operands(func, inst, &m).map_err(err)?;
        if m.op == SamplerOp::Resinfo {
            let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
            let decl = image.and_then(|r| images.get(r.image.index()));
            if decl.is_some_and(|d| d.dim == ir::ImageDim::Buffer) {
                return Err(err(MessageRule::ResinfoOfBuffer));
            }
        }
    }
    Ok(())
}

/// Checks a legacy data-port message: the platform must have the legacy data port and
/// the message (its legality table), and a surface's binding-table index must be one
/// the descriptor can hold (0 to 251).
fn check_dataport_message(
    p: &Device,
    images: &[ir::ImageDecl],
    func: &Function,
    inst: Inst,
    msg: DpMsg,
) -> Result<(), MessageRule> {
    let indices = func
        .inst(inst)
        .as_intrinsic()
        .map(|i| i.indices.to_vec())
        .unwrap_or_default();
    let d = DpDesc::from_indices(msg, &indices).map_err(|e| match e {
        DpDecodeError::Value { field, value } => MessageRule::BadIndex {
            kind: field.into(),
            value: Some(value),
        },
        // The wrong number of indices: the first one is missing or extra.
        _ => MessageRule::BadIndex {
            kind: msg
                .fields()
                .first()
                .map_or(IndexKind::DpCmask, |&f| f.into()),
            value: None,
        },
    })?;
    let caps = p.dataport.as_ref().ok_or_else(|| {
        MessageRule::Dataport(DataportRule::NotLegacy {
            platform: p.name.clone(),
        })
    })?;
    check_dataport(caps, &p.name, &d).map_err(MessageRule::Dataport)?;
    if d.names_image() {
        if let Some(b) = SurfaceInfo::of(images, func, inst)
            .max_bti
            .filter(|b| *b > 251)
        {
            return Err(MessageRule::Dataport(DataportRule::Bti { bti: b }));
        }
    }
    Ok(())
}

/// Checks every message of `func`, in program order; returns every error.
pub fn check_function(
    p: &Device,
    images: &[ir::ImageDecl],
    func: &Function,
) -> Result<(), Vec<MessageError>> {
    let errors: Vec<MessageError> = func
        .insts_in_order()
        .into_iter()
        .filter_map(|i| check_message(p, images, func, i).err())
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
