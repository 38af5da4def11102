//! The platform rules of LSC messages: [`check_lsc`] and the cache-control encodings.

use super::lsc::LscMessage;
use super::op::{LscOp, OpClass};
use super::rule::MessageRule;
use crate::device::{CacheControlField, Device};
use ir::lsc::{AddrSize, AddrType, CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp, Sfid};

/// The cache-control field value of `cache` for `class` on `p`: `desc[19:17]` before Xe2,
/// `desc[19:16]` on Xe2 (docs/hardware/lsc-messages.md §9). `None` when the pair does not encode.
pub fn cache_encoding(p: &Device, class: OpClass, cache: CacheControl) -> Option<u32> {
    use CacheOpt::*;
    let pair = (cache.l1, cache.l3);
    let base = match class {
        OpClass::Load => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Ca) => Some(2),
            (Ca, Uc) => Some(3),
            (Ca, Ca) => Some(4),
            (St, Uc) => Some(5),
            (St, Ca) => Some(6),
            (Ri, Ca) => Some(7),
            _ => None,
        },
        OpClass::Store => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Wb) => Some(2),
            (Wt, Uc) => Some(3),
            (Wt, Wb) => Some(4),
            (St, Uc) => Some(5),
            (St, Wb) => Some(6),
            (Wb, Wb) => Some(7),
            _ => None,
        },
        OpClass::Atomic => match pair {
            (Df, Df) => Some(0),
            (Uc, Uc) => Some(1),
            (Uc, Wb) => Some(2),
            _ => None,
        },
    };
    if p.cache_control != CacheControlField::Bits4 {
        return base;
    }
    // Xe2 doubles the older values and adds three load-only encodings; `.ri.ri` shares
    // the value of `.ri.ca`.
    base.map(|v| v << 1).or(match (class, pair) {
        (OpClass::Load, (Uc, Cc)) => Some(0x5),
        (OpClass::Load, (Ca, Cc)) => Some(0x9),
        (OpClass::Load, (Ri, Ri)) => Some(0xE),
        _ => None,
    })
}

/// Checks the fields of an LSC message against the platform rules (docs/hardware/lsc-messages.md §13 items
/// 1-7, 10, 11, 14 and §5), independent of its operands. The first broken rule is
/// returned.
pub fn check_lsc(p: &Device, m: &LscMessage) -> Result<(), MessageRule> {
    let op = m.op;
    let d = m.data;
    if !op.sfid_allowed(m.sfid) {
        return Err(MessageRule::OpNotOnSfid { op, sfid: m.sfid });
    }

    // §13.1 and §5: address models and sizes per SFID.
    match m.sfid {
        Sfid::Tgm => {
            if m.addr_size != AddrSize::A32 {
                return Err(MessageRule::TgmAddrSize { size: m.addr_size });
            }
            if m.addr_type == AddrType::Flat {
                return Err(MessageRule::TgmFlat);
            }
        }
        Sfid::Slm => {
            if m.addr_type != AddrType::Flat {
                return Err(MessageRule::SlmNotFlat {
                    addr_type: m.addr_type,
                });
            }
            if m.addr_size == AddrSize::A64 {
                return Err(MessageRule::SlmA64);
            }
        }
        Sfid::Ugm | Sfid::Ugml => {
            if m.addr_size == AddrSize::A64 && !p.has_a64 {
                return Err(MessageRule::A64Unavailable);
            }
            if m.addr_size == AddrSize::A16 {
                return Err(MessageRule::A16NotSlm { sfid: m.sfid });
            }
        }
    }

    // §13.2, §13.4, §4: channel masks.
    if op.is_quad() {
        if d.transpose {
            return Err(MessageRule::TransposeQuad { op });
        }
        if d.vect != 1 {
            return Err(MessageRule::VectorOnQuad { op, vect: d.vect });
        }
        if d.cmask == 0 || d.cmask > 0xf {
            return Err(MessageRule::QuadMask { op, mask: d.cmask });
        }
        if op == LscOp::StoreQuad && !matches!(d.cmask, 0x1 | 0x3 | 0x7 | 0xf) {
            return Err(MessageRule::StoreQuadMask { mask: d.cmask });
        }
    } else if d.cmask != 0 {
        return Err(MessageRule::MaskOnVector { op });
    }

    if let LscOp::Atomic(a) = op {
        // §13.4, §13.5, §13.6.
        if d.transpose {
            return Err(MessageRule::TransposeAtomic { op });
        }
        if !matches!(d.size, DataSize::D16U32 | DataSize::D32 | DataSize::D64) {
            return Err(MessageRule::AtomicDataSize { op, size: d.size });
        }
        if d.vect != 1 {
            return Err(MessageRule::AtomicVector { op, vect: d.vect });
        }
        if m.sfid == Sfid::Tgm
            && matches!(a, LscAtomicOp::Fadd | LscAtomicOp::Fsub)
            && !p.tgm_float_add
        {
            return Err(MessageRule::TgmFloatAtomic {
                op,
                platform: p.name.clone(),
            });
        }
        // §2's table puts fadd/fsub on UGM and UGML (and TGM from Xe2), never on SLM;
        // IGC's vISA verifier agrees ("LSC atomic fadd/fsub only support UGM and UGML").
        // The rule lives here, not in each emitter, so every LSC message is held to it.
        if m.sfid == Sfid::Slm && matches!(a, LscAtomicOp::Fadd | LscAtomicOp::Fsub) {
            return Err(MessageRule::SlmFloatAtomic { op });
        }
        if m.sfid == Sfid::Slm && d.size == DataSize::D64 && a != LscAtomicOp::Icas {
            return Err(MessageRule::SlmD64Atomic { op });
        }
    } else if !op.is_quad() {
        // §13.3: vector sizes.
        if d.vect > 1 {
            let narrow = !matches!(d.size, DataSize::D32 | DataSize::D64);
            if d.size.is_conversion() || (narrow && !d.transpose) {
                return Err(MessageRule::VectorDataSize {
                    size: d.size,
                    vect: d.vect,
                });
            }
        }
        let legal = if !DataShape::VECT_SIZES.contains(&d.vect) {
            false
        } else if d.transpose {
            true
        } else if m.sfid == Sfid::Ugml {
            matches!(d.vect, 1 | 2 | 4)
        } else {
            matches!(d.vect, 1 | 2 | 3 | 4 | 8)
        };
        if !legal {
            return Err(MessageRule::VectorSize {
                sfid: m.sfid,
                vect: d.vect,
                transpose: d.transpose,
            });
        }
    }

    // §13.14 and §5: immediate offsets.
    if m.sfid == Sfid::Tgm && m.offset != 0 {
        return Err(MessageRule::TypedOffset { offset: m.offset });
    }
    if m.addr_size == AddrSize::A16 && !(-0x7fff..=0x7fff).contains(&m.offset) {
        return Err(MessageRule::SlmOffsetRange { offset: m.offset });
    }

    // §13.7: cache controls.
    if !m.cache.is_default() {
        if m.sfid == Sfid::Slm {
            return Err(MessageRule::CacheNotDefault {
                sfid: m.sfid,
                cache: m.cache,
                platform: None,
            });
        }
        // IGC's verifier: TGM and UGML take only .df.df before Xe2; the device says
        // whether TGM takes more (`tgm_cache_control`), and UGML follows the same rule.
        if matches!(m.sfid, Sfid::Tgm | Sfid::Ugml) && !p.tgm_cache_control {
            return Err(MessageRule::CacheNotDefault {
                sfid: m.sfid,
                cache: m.cache,
                platform: Some(p.name.clone()),
            });
        }
        if op.class() == OpClass::Atomic && m.cache.l1 != CacheOpt::Uc {
            return Err(MessageRule::AtomicL1 { cache: m.cache });
        }
    }
    if cache_encoding(p, op.class(), m.cache).is_none() {
        return Err(MessageRule::CacheEncoding {
            class: op.class(),
            cache: m.cache,
            platform: p.name.clone(),
            xe2: p.cache_control == CacheControlField::Bits4,
        });
    }

    // The remaining limits are those of the LSC encoding. A pre-LSC backend maps the
    // message onto HDC messages with their own limits and splits as it needs.
    if !p.has_lsc {
        return Ok(());
    }

    // §13.11: the typed width the device asks for must exist.
    if m.sfid == Sfid::Tgm && p.typed_simd > p.typed_simd_max {
        return Err(MessageRule::TypedExecSize {
            exec_size: p.typed_simd,
            max: p.typed_simd_max,
            platform: p.name.clone(),
        });
    }

    // §13.10: payload sizes.
    let data = m.data_grfs(p);
    if data > 8 {
        return Err(MessageRule::DataPayload {
            grfs: data,
            platform: p.name.clone(),
            exec_size: m.exec_size(p),
        });
    }
    let addr = m.addr_grfs(p, 4);
    if addr >= 32 {
        return Err(MessageRule::OperandLength {
            operand: "src0 (address)",
            grfs: addr,
        });
    }
    if let LscOp::Atomic(a) = op {
        let src1 = data * a.num_data_operands() as u32;
        if src1 >= 32 {
            return Err(MessageRule::OperandLength {
                operand: "src1 (atomic data)",
                grfs: src1,
            });
        }
    }
    Ok(())
}
