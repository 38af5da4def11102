//! Which legacy data-port messages an LSC-shaped message becomes on a generation
//! without LSC ([`plan_legacy`]): decided from the message's fields alone, so that the
//! lowering can ask before it emits anything, and checked against the generation's
//! legality table ([`check_dataport`]).
//!
//! The choices follow Mesa's brw/elk backends, which lower their logical memory opcodes
//! per generation (`brw_lower_logical_sends.cpp`, `elk_lower_logical_sends.cpp`):
//!
//! | LSC message | legacy data port |
//! | --- | --- |
//! | `lsc_load_quad.tgm` / `lsc_store_quad.tgm`, d32 | `dp_typed_read` / `dp_typed_write`, same mask |
//! | `lsc_atomic.tgm`, d32 / d16u32 | `dp_typed_atomic`, 32 / 16 bits |
//! | `lsc_load`/`lsc_store` `.ugm` bti / `.slm` / `.ugm` flat a64, d32 x n | `dp_untyped_read`/`write`, up to four dwords per message |
//! | the same, d64 x n | the dwords of each element (split and packed in the shader) |
//! | the same, d8u32, d16u32, d16u32h, d8, d16 | `dp_byte_scattered_*` of 1 or 2 bytes |
//! | quad forms on untyped memory | `dp_untyped_*` with the same mask |
//! | strided forms | the same, lane `n`'s address `base + n · pitch` |
//! | `lsc_atomic`, d32 / d64 / d16u32 | `dp_untyped_atomic`, 32 / 64 / 16 bits |
//!
//! An immediate `lsc_offset` is added to the address (the legacy messages have none);
//! cache controls are dropped (the legacy descriptors carry none). Atomic `load`
//! becomes `or` with 0, `store` becomes `mov`, `icas`/`fcas` become `cmpwr`/`fcmpwr`
//! (compare value first in both).
//!
//! What the generation lacks is a [`DataportRule`]: A64 before Gfx8, 8- and 16-bit
//! accesses to surfaces and SLM before Haswell (Mesa never needs them there: its raw
//! image path is for 64- and 128-bit formats), float add and subtract atomics, 64-bit
//! atomics on surfaces, 2D blocks, 32-bit flat addresses, bindless surfaces.

use super::caps::DataportCaps;
use super::legality::check_dataport;
use super::rule::{DataportRule, LegacyGap};
use crate::messages::lsc::LscMessage;
use crate::messages::op::LscOp;
use ir::dataport::{DpAddr, DpAtomicOp, DpDesc};
use ir::lsc::{AddrSize, AddrType, DataSize, LscAtomicOp, Sfid};

/// One dword an untyped `d32`/`d64` access moves: its byte offset from the address and
/// the register component it belongs to (`half` 0 or 1 for the dwords of a 64-bit
/// element).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Dword {
    /// Bytes from the lane's address.
    pub offset: u64,
    /// The component of the LSC message's data.
    pub component: u8,
    /// Low (0) or high (1) half of a 64-bit component; 0 for 32-bit ones.
    pub half: u8,
}

/// One untyped surface message of an access: four dwords from `offset` on, of which
/// `desc`'s channel mask enables those of the access.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Window {
    /// Bytes from the lane's address.
    pub offset: u64,
    /// The message.
    pub desc: DpDesc,
    /// The access's dwords ([`Access::Dwords`]) the message moves, in channel order.
    pub dwords: Vec<usize>,
}

/// What the messages of a planned access do.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Access {
    /// A typed read, write or atomic: one message with the LSC message's operands.
    Typed(DpDesc),
    /// `d32`/`d64` elements: untyped surface messages over windows of four dwords.
    Dwords {
        /// Whether the elements are 64-bit (split into and packed from dwords).
        wide: bool,
        /// Every dword, in register order.
        dwords: Vec<Dword>,
        /// The messages.
        windows: Vec<Window>,
    },
    /// One 8- or 16-bit element per lane: a byte scattered message; `size` is the LSC
    /// data size, which says how the register holds it.
    Narrow {
        /// The message.
        desc: DpDesc,
        /// The LSC data size.
        size: DataSize,
    },
    /// An untyped atomic.
    Atomic(DpDesc),
}

/// The legacy data-port messages of one LSC-shaped message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegacyPlan {
    /// The address model of untyped messages; `None` for typed ones.
    pub addr: Option<DpAddr>,
    /// Address bits (32 or 64) of untyped messages.
    pub addr_bits: u8,
    /// Whether the message is a load (it has a destination and no data).
    pub load: bool,
    /// Whether lane `n` addresses `base + n · pitch` (the strided forms).
    pub strided: bool,
    /// The immediate offset added to every address.
    pub offset: i64,
    /// For atomics: whether the LSC operation is an atomic `load` (`or` with a 0 operand).
    pub atomic_load: bool,
    /// For atomics: the LSC data operands the message takes (`src0`, `src1`).
    pub atomic_operands: usize,
    /// The messages.
    pub access: Access,
}

impl LegacyPlan {
    /// The data-port messages the plan sends, in order.
    pub fn messages(&self) -> Vec<DpDesc> {
        match &self.access {
            Access::Typed(d) | Access::Atomic(d) | Access::Narrow { desc: d, .. } => vec![*d],
            Access::Dwords { windows, .. } => windows.iter().map(|w| w.desc).collect(),
        }
    }
}

/// The legacy atomic of an LSC atomic operation.
fn atomic_op(op: LscAtomicOp, platform: &str) -> Result<DpAtomicOp, DataportRule> {
    use DpAtomicOp as D;
    use LscAtomicOp as L;
    Ok(match op {
        L::Iinc => D::Inc,
        L::Idec => D::Dec,
        // An atomic read: `or` with 0 writes back what it reads.
        L::Load => D::Or,
        L::Store => D::Mov,
        L::Iadd => D::Add,
        L::Isub => D::Sub,
        L::Smin => D::Imin,
        L::Smax => D::Imax,
        L::Umin => D::Umin,
        L::Umax => D::Umax,
        L::Icas => D::Cmpwr,
        L::Fmin => D::Fmin,
        L::Fmax => D::Fmax,
        L::Fcas => D::Fcmpwr,
        L::And => D::And,
        L::Or => D::Or,
        L::Xor => D::Xor,
        L::Fadd | L::Fsub => return Err(gap(platform, LegacyGap::FloatAddAtomic(op))),
    })
}

fn gap(platform: &str, gap: LegacyGap) -> DataportRule {
    DataportRule::NoLegacyForm {
        platform: platform.to_string(),
        gap,
    }
}

/// The legacy address model of an untyped LSC message.
fn untyped_addr(m: &LscMessage, platform: &str) -> Result<DpAddr, DataportRule> {
    Ok(match (m.sfid, m.addr_type, m.addr_size) {
        (Sfid::Slm, _, _) => DpAddr::Slm,
        (_, AddrType::Flat, AddrSize::A64) => DpAddr::A64,
        (_, AddrType::Flat, _) => return Err(gap(platform, LegacyGap::FlatA32)),
        (_, AddrType::Bti, _) => DpAddr::Bti,
        (_, t, _) => return Err(gap(platform, LegacyGap::Bindless(t))),
    })
}

/// The dwords of a `d32`/`d64` access: the enabled channels of a quad or the vector's
/// elements, each 64-bit one as two dwords.
fn dwords(m: &LscMessage) -> Vec<Dword> {
    let s = m.data;
    let elems: Vec<u8> = if s.cmask != 0 {
        (0..4).filter(|c| s.cmask & (1 << c) != 0).collect()
    } else {
        (0..s.vect).collect()
    };
    let wide = s.size == DataSize::D64;
    let mut out = Vec::with_capacity(elems.len() * if wide { 2 } else { 1 });
    for (k, &e) in elems.iter().enumerate() {
        let component = k as u8;
        if wide {
            let at = 8 * u64::from(e);
            out.push(Dword {
                offset: at,
                component,
                half: 0,
            });
            out.push(Dword {
                offset: at + 4,
                component,
                half: 1,
            });
        } else {
            out.push(Dword {
                offset: 4 * u64::from(e),
                component,
                half: 0,
            });
        }
    }
    out
}

/// The dwords grouped into untyped surface messages: each window covers four dwords
/// at a multiple of 16 bytes from the address, and enables those of the access among
/// them (a quad's mask is its own; a vector of more than four dwords takes several
/// windows).
fn windows(dwords: &[Dword], addr: DpAddr, write: bool) -> Vec<Window> {
    let mut out: Vec<(u64, u8, Vec<usize>)> = Vec::new();
    for (i, d) in dwords.iter().enumerate() {
        let base = d.offset - d.offset % 16;
        let bit = 1 << ((d.offset - base) / 4);
        match out.last_mut() {
            Some((b, mask, members)) if *b == base => {
                *mask |= bit;
                members.push(i);
            }
            _ => out.push((base, bit, vec![i])),
        }
    }
    out.into_iter()
        .map(|(offset, mask, dwords)| Window {
            offset,
            desc: if write {
                DpDesc::untyped_write(addr, mask)
            } else {
                DpDesc::untyped_read(addr, mask)
            },
            dwords,
        })
        .collect()
}

/// The legacy data-port messages of LSC message `m` on a generation with `caps`
/// (`platform` names it in errors), every one checked against the legality table.
pub fn plan_legacy(
    caps: &DataportCaps,
    platform: &str,
    m: &LscMessage,
) -> Result<LegacyPlan, DataportRule> {
    let load = matches!(m.op, LscOp::Load | LscOp::LoadStrided | LscOp::LoadQuad);
    let (atomic_load, atomic_operands) = match m.op {
        LscOp::Atomic(a) => (a == LscAtomicOp::Load, a.num_data_operands()),
        _ => (false, 0),
    };
    let mut plan = LegacyPlan {
        addr: None,
        addr_bits: m.addr_size.bits(),
        load,
        strided: m.op.is_strided(),
        offset: i64::from(m.offset),
        atomic_load,
        atomic_operands,
        access: Access::Typed(DpDesc::typed_read(0xf)),
    };
    plan.access = if m.sfid == Sfid::Tgm {
        typed(m, platform)?
    } else {
        let addr = untyped_addr(m, platform)?;
        plan.addr = Some(addr);
        untyped(m, addr, platform)?
    };
    for d in plan.messages() {
        check_dataport(caps, platform, &d)?;
    }
    Ok(plan)
}

/// The typed message of `m`.
fn typed(m: &LscMessage, platform: &str) -> Result<Access, DataportRule> {
    let size = m.data.size;
    let d32 = |d: DpDesc| {
        if size == DataSize::D32 {
            Ok(Access::Typed(d))
        } else {
            Err(gap(platform, LegacyGap::TypedData(size)))
        }
    };
    match m.op {
        LscOp::LoadQuad => d32(DpDesc::typed_read(m.data.cmask)),
        LscOp::StoreQuad => d32(DpDesc::typed_write(m.data.cmask)),
        LscOp::Atomic(op) => {
            let bits = match size {
                DataSize::D32 => 32,
                DataSize::D16U32 => 16,
                s => return Err(gap(platform, LegacyGap::TypedData(s))),
            };
            Ok(Access::Typed(DpDesc::typed_atomic(
                atomic_op(op, platform)?,
                bits,
            )))
        }
        op => Err(gap(platform, LegacyGap::TypedOp(op))),
    }
}

/// The untyped messages of `m` with address model `addr`.
fn untyped(m: &LscMessage, addr: DpAddr, platform: &str) -> Result<Access, DataportRule> {
    let size = m.data.size;
    if let LscOp::Atomic(op) = m.op {
        let bits = match size {
            DataSize::D32 => 32,
            DataSize::D64 => 64,
            DataSize::D16U32 => 16,
            s => return Err(gap(platform, LegacyGap::AtomicData(s))),
        };
        return Ok(Access::Atomic(DpDesc::untyped_atomic(
            addr,
            atomic_op(op, platform)?,
            bits,
        )));
    }
    let write = matches!(m.op, LscOp::Store | LscOp::StoreStrided | LscOp::StoreQuad);
    match size {
        DataSize::D32 | DataSize::D64 => {
            let dwords = dwords(m);
            let windows = windows(&dwords, addr, write);
            Ok(Access::Dwords {
                wide: size == DataSize::D64,
                dwords,
                windows,
            })
        }
        _ if m.data.components() != 1 => Err(gap(platform, LegacyGap::NarrowVector(m.data))),
        _ => {
            let bytes = size.mem_bytes() as u8;
            let desc = if write {
                DpDesc::byte_scattered_write(addr, bytes)
            } else {
                DpDesc::byte_scattered_read(addr, bytes)
            };
            Ok(Access::Narrow { desc, size })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::lsc::{DataShape, LscDesc};
    use tiling::Gen;

    fn caps(g: Gen) -> DataportCaps {
        DataportCaps::for_gen(g).unwrap()
    }

    fn msg(op: LscOp, desc: LscDesc) -> LscMessage {
        LscMessage::new(op, &desc)
    }

    #[test]
    fn windows_of_four_dwords() {
        // d32x8 on A64: two reads of all four channels, at +0 and +16.
        let m = msg(
            LscOp::Load,
            LscDesc::new(
                Sfid::Ugm,
                AddrType::Flat,
                AddrSize::A64,
                DataShape::vector(DataSize::D32, 8, false),
            ),
        );
        let p = plan_legacy(&caps(Gen::Gfx8), "bdw", &m).unwrap();
        let xyzw = DpDesc::untyped_read(DpAddr::A64, 0xf);
        assert_eq!(p.messages(), [xyzw, xyzw]);
        let Access::Dwords { windows, .. } = &p.access else {
            panic!("{p:?}")
        };
        assert_eq!((windows[0].offset, windows[1].offset), (0, 16));
        assert_eq!(windows[1].dwords, [4, 5, 6, 7]);
        // d64x3 stored at a surface: six dwords, xyzw at +0 and xy at +16.
        let m = msg(
            LscOp::Store,
            LscDesc::new(
                Sfid::Ugm,
                AddrType::Bti,
                AddrSize::A32,
                DataShape::vector(DataSize::D64, 3, false),
            ),
        );
        let p = plan_legacy(&caps(Gen::Gfx9), "skl", &m).unwrap();
        assert_eq!(
            p.messages(),
            [
                DpDesc::untyped_write(DpAddr::Bti, 0xf),
                DpDesc::untyped_write(DpAddr::Bti, 0x3)
            ]
        );
        // A quad with channels x and w: one message, mask xw.
        let m = msg(
            LscOp::LoadQuad,
            LscDesc::new(
                Sfid::Slm,
                AddrType::Flat,
                AddrSize::A32,
                DataShape::quad(DataSize::D32, 0b1001),
            ),
        );
        let p = plan_legacy(&caps(Gen::Gfx7), "ivb", &m).unwrap();
        assert_eq!(p.messages(), [DpDesc::untyped_read(DpAddr::Slm, 0b1001)]);
    }

    #[test]
    fn what_a_generation_lacks() {
        let narrow = msg(
            LscOp::Load,
            LscDesc::new(
                Sfid::Ugm,
                AddrType::Bti,
                AddrSize::A32,
                DataShape::vector(DataSize::D8U32, 1, false),
            ),
        );
        let e = plan_legacy(&caps(Gen::Gfx7), "ivb", &narrow).unwrap_err();
        assert_eq!(
            e,
            DataportRule::NoByteScattered {
                platform: "ivb".into()
            }
        );
        assert!(plan_legacy(&caps(Gen::Gfx75), "hsw", &narrow).is_ok());
        let fadd = msg(
            LscOp::Atomic(LscAtomicOp::Fadd),
            LscDesc::new(
                Sfid::Ugm,
                AddrType::Flat,
                AddrSize::A64,
                DataShape::vector(DataSize::D32, 1, false),
            ),
        );
        let e = plan_legacy(&caps(Gen::Gfx12), "tgl", &fadd).unwrap_err();
        assert!(e.to_string().contains("float add and subtract"), "{e}");
        let flat32 = msg(
            LscOp::Load,
            LscDesc::new(
                Sfid::Ugm,
                AddrType::Flat,
                AddrSize::A32,
                DataShape::vector(DataSize::D32, 1, false),
            ),
        );
        assert!(matches!(
            plan_legacy(&caps(Gen::Gfx12), "tgl", &flat32),
            Err(DataportRule::NoLegacyForm {
                gap: LegacyGap::FlatA32,
                ..
            })
        ));
        // Typed d64 data: no typed form.
        let typed64 = msg(
            LscOp::LoadQuad,
            LscDesc::typed(DataShape::quad(DataSize::D64, 1)),
        );
        assert!(matches!(
            plan_legacy(&caps(Gen::Gfx9), "skl", &typed64),
            Err(DataportRule::NoLegacyForm {
                gap: LegacyGap::TypedData(DataSize::D64),
                ..
            })
        ));
    }

    #[test]
    fn atomics() {
        let m = |op, size| {
            msg(
                LscOp::Atomic(op),
                LscDesc::new(
                    Sfid::Ugm,
                    AddrType::Bti,
                    AddrSize::A32,
                    DataShape::vector(size, 1, false),
                ),
            )
        };
        let p = plan_legacy(
            &caps(Gen::Gfx9),
            "skl",
            &m(LscAtomicOp::Load, DataSize::D32),
        )
        .unwrap();
        assert!(p.atomic_load);
        assert_eq!(
            p.messages(),
            [DpDesc::untyped_atomic(DpAddr::Bti, DpAtomicOp::Or, 32)]
        );
        // 64-bit atomics are A64 messages only; 16-bit cmpwr on surfaces has no form.
        assert!(plan_legacy(
            &caps(Gen::Gfx12),
            "tgl",
            &m(LscAtomicOp::Umax, DataSize::D64)
        )
        .is_err());
        assert!(plan_legacy(
            &caps(Gen::Gfx12),
            "tgl",
            &m(LscAtomicOp::Icas, DataSize::D16U32)
        )
        .is_err());
        assert!(plan_legacy(
            &caps(Gen::Gfx12),
            "tgl",
            &m(LscAtomicOp::Iadd, DataSize::D16U32)
        )
        .is_ok());
        let typed = msg(
            LscOp::Atomic(LscAtomicOp::Icas),
            LscDesc::typed(DataShape::vector(DataSize::D32, 1, false)),
        );
        let p = plan_legacy(&caps(Gen::Gfx7), "ivb", &typed).unwrap();
        assert_eq!(
            p.access,
            Access::Typed(DpDesc::typed_atomic(DpAtomicOp::Cmpwr, 32))
        );
        assert_eq!(p.atomic_operands, 2);
    }
}
