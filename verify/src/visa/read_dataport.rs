//! Reading the legacy data-port message instructions of vISA text (`gather4_typed`,
//! `scatter4_typed`, `typed_atomic`, `gather4_scaled`, `scatter4_scaled`,
//! `dword_atomic`, `gather_scaled`, `scatter_scaled`, `gather`, `scatter` and the
//! `svm_*` messages): the `ScatterInstruction`, `ScatterTypedInstruction`,
//! `Scatter4ScaledInstruction`, `ScatterScaledInstruction`, `DwordAtomicInstruction`,
//! `TypedAtomicInstruction` and `SvmInstruction` rules of IGC's `visa/CISA.y` with the
//! tokens of `visa/CISA.l` (the channel masks of `SAMPLER_CHANNEL`, the atomic
//! operation names of `ATOMIC_SUB_OP`).
//!
//! The reader checks the text's shape only; execution sizes, operand sizes and the
//! surface are checked when the program is laid out ([`super::payload_dataport`]).

use super::error::{ErrorKind, VisaError};
use super::lexer::Cursor;
use super::listing::{DataportInst, DpOpcode, InstKind, PredUse, VisaAtomicOp};
use super::read_messages::sampler_channels;
use super::read_operands::{exec_size, raw, src};

/// Whether `base` (the mnemonic before its first dot) names a data-port message.
pub fn is_dataport(base: &str) -> bool {
    DpOpcode::from_name(base).is_some()
}

fn bad(c: &Cursor<'_>, reason: String) -> VisaError {
    VisaError::new(c.line(), ErrorKind::BadInstruction { reason })
}

/// Reads the rest of a data-port message whose mnemonic, split at its dots, is
/// `parts`.
pub fn dataport(
    c: &mut Cursor<'_>,
    pred: Option<PredUse>,
    parts: &[&str],
) -> Result<InstKind, VisaError> {
    let Some(op) = DpOpcode::from_name(parts[0]) else {
        return Err(VisaError::new(
            c.line(),
            ErrorKind::Unsupported {
                what: format!("instruction `{}`", parts[0]),
            },
        ));
    };
    let mut inst = DataportInst {
        op,
        pred,
        exec: super::types::ExecCtrl::m1(1),
        channels: 0,
        atomic: None,
        bits: 32,
        block_size: 1,
        num_blocks: 1,
        surface: None,
        offset: None,
        addr: Vec::new(),
        srcs: Vec::new(),
        dst: None,
    };
    if op == DpOpcode::OwordLd {
        return oword_ld(c, inst, parts);
    }
    modifiers(c, &mut inst, &parts[1..])?;
    if matches!(op, DpOpcode::Gather | DpOpcode::Scatter) && inst.pred.is_some() {
        // `ScatterInstruction` has no `Predicate`: vISA's gather and scatter are not
        // predicated.
        return Err(bad(c, format!("`{}` takes no predicate", op.name())));
    }
    inst.exec = exec_size(c)?;
    if op == DpOpcode::Gather {
        // `OwordModifier` (`.mod`, GATHER's Is_modified): ignored by the hardware.
        c.eat_str(".mod");
    }
    let svm = matches!(
        op,
        DpOpcode::SvmGather4Scaled
            | DpOpcode::SvmScatter4Scaled
            | DpOpcode::SvmGather
            | DpOpcode::SvmScatter
            | DpOpcode::SvmAtomic
    );
    if !svm {
        inst.surface = Some(c.expect_ident("a surface variable")?.to_string());
    }
    let operand = |c: &mut Cursor<'_>| raw(c, false);
    match op {
        DpOpcode::Gather4Typed | DpOpcode::Scatter4Typed | DpOpcode::TypedAtomic => {
            for _ in 0..4 {
                inst.addr.push(operand(c)?);
            }
        }
        DpOpcode::Gather4Scaled
        | DpOpcode::Scatter4Scaled
        | DpOpcode::GatherScaled
        | DpOpcode::ScatterScaled
        | DpOpcode::Gather
        | DpOpcode::Scatter
        | DpOpcode::SvmGather4Scaled
        | DpOpcode::SvmScatter4Scaled => {
            inst.offset = Some(src(c, false)?);
            inst.addr.push(operand(c)?);
        }
        DpOpcode::DwordAtomic | DpOpcode::SvmGather | DpOpcode::SvmScatter => {
            inst.addr.push(operand(c)?);
        }
        // Read whole by `oword_ld` above.
        DpOpcode::OwordLd => return Err(bad(c, "`oword_ld (N)` takes an oword count".into())),
        DpOpcode::SvmAtomic => {
            // `addresses dst src0 src1` (CISA.y passes them on as addresses, src0,
            // src1, dst).
            inst.addr.push(operand(c)?);
            inst.dst = Some(operand(c)?);
            inst.srcs.push(operand(c)?);
            inst.srcs.push(operand(c)?);
            c.expect_end()?;
            return Ok(InstKind::Dataport(Box::new(inst)));
        }
    }
    if op.is_atomic() {
        inst.srcs.push(operand(c)?);
        inst.srcs.push(operand(c)?);
        inst.dst = Some(operand(c)?);
    } else if op.has_dst() {
        inst.dst = Some(operand(c)?);
    } else {
        inst.srcs.push(operand(c)?);
    }
    c.expect_end()?;
    Ok(InstKind::Dataport(Box::new(inst)))
}

/// The rest of `oword_ld (N) surface offset dst` (IGC `visa/CISA.y`'s
/// `OwordLoadInstruction`: no predicate, no modifier, the oword count in the
/// parentheses), read with the count as `num_blocks` and an execution size of one
/// without mask: the read moves a block whatever the lanes.
fn oword_ld(
    c: &mut Cursor<'_>,
    mut inst: DataportInst,
    parts: &[&str],
) -> Result<InstKind, VisaError> {
    if inst.pred.is_some() {
        return Err(bad(c, "`oword_ld` takes no predicate".into()));
    }
    if parts.len() > 1 {
        return Err(c.error("`oword_ld (N)` without modifiers"));
    }
    c.expect('(')?;
    c.skip_ws();
    let n = c.number();
    inst.num_blocks = match n {
        Some(n @ (1 | 2 | 4 | 8)) => n as u8,
        _ => return Err(c.error("an oword count 1, 2, 4 or 8")),
    };
    c.expect(')')?;
    inst.exec = super::types::ExecCtrl {
        no_mask: true,
        ..super::types::ExecCtrl::m1(1)
    };
    inst.surface = Some(c.expect_ident("a surface variable")?.to_string());
    inst.offset = Some(src(c, false)?);
    inst.dst = Some(raw(c, false)?);
    c.expect_end()?;
    Ok(InstKind::Dataport(Box::new(inst)))
}

/// A decimal modifier (`.16`, `.4`) that must be one of `allowed`.
fn number(c: &mut Cursor<'_>, s: &str, allowed: &[u8], what: &str) -> Result<u8, VisaError> {
    match s.parse::<u8>().ok().filter(|v| allowed.contains(v)) {
        Some(v) => Ok(v),
        None => Err(c.error(what)),
    }
}

/// The mnemonic's modifiers after its name: the channels, the atomic operation and
/// width, or the block size and count.
fn modifiers(c: &mut Cursor<'_>, inst: &mut DataportInst, mods: &[&str]) -> Result<(), VisaError> {
    let op = inst.op;
    let name = op.name();
    if op.has_channels() {
        let [ch] = mods else {
            return Err(c.error(&format!("`{name}.CHANNELS` (e.g. `{name}.RGBA`)")));
        };
        inst.channels = sampler_channels(ch)
            .ok_or_else(|| c.error("channels `R`, `G`, `B`, `A` in that order"))?;
        return Ok(());
    }
    if op.is_atomic() {
        let (a, width) = match mods {
            [a] => (a, None),
            [a, w] => (a, Some(*w)),
            _ => return Err(c.error(&format!("`{name}.OP[.WIDTH]` (e.g. `{name}.add`)"))),
        };
        inst.atomic = Some(VisaAtomicOp::from_name(a).ok_or_else(|| {
            c.error(
                "an atomic operation (`add`, `sub`, `inc`, `dec`, `min`, `max`, `xchg`, \
                 `cmpxchg`, `and`, `or`, `xor`, `minsint`, `maxsint`, `fmax`, `fmin`, `fcmpwr`)",
            )
        })?);
        // `Atomic16Opt` takes `.16` only; `AtomicBitwidthOpt` (svm) `.16`, `.32`, `.64`.
        let widths: &[u8] = if op == DpOpcode::SvmAtomic {
            &[16, 32, 64]
        } else {
            &[16]
        };
        if let Some(w) = width {
            inst.bits = number(c, w, widths, "an atomic width `.16` (svm: `.32`, `.64`)")?;
        }
        return Ok(());
    }
    match op {
        DpOpcode::GatherScaled | DpOpcode::ScatterScaled => {
            let [n] = mods else {
                return Err(c.error(&format!("`{name}.N`, N the bytes per lane")));
            };
            inst.num_blocks = number(c, n, &[1, 2, 4], "1, 2 or 4 bytes per lane")?;
        }
        DpOpcode::Gather | DpOpcode::Scatter => {
            let [e] = mods else {
                return Err(c.error(&format!("`{name}.E`, E the element size")));
            };
            inst.block_size = number(c, e, &[1, 2, 4], "an element size 1, 2 or 4")?;
        }
        _ => {
            let [bs, nb] = mods else {
                return Err(c.error(&format!(
                    "`{name}.BLOCK_SIZE.NUM_BLOCKS` (e.g. `{name}.1.4`)"
                )));
            };
            inst.block_size = number(c, bs, &[1, 4, 8], "a block size 1, 4 or 8")?;
            inst.num_blocks = number(c, nb, &[1, 2, 4, 8], "1, 2, 4 or 8 blocks")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::listing::{Raw, Src};
    use crate::visa::types::VType;

    fn read(line: &str) -> Result<DataportInst, VisaError> {
        let mut c = Cursor::new(line, 5);
        let pred = crate::visa::read_operands::predicate(&mut c).unwrap();
        let word = c.word().unwrap();
        let parts: Vec<&str> = word.split('.').collect();
        match dataport(&mut c, pred, &parts)? {
            InstKind::Dataport(d) => Ok(*d),
            other => panic!("{other:?}"),
        }
    }

    fn ok(line: &str) -> DataportInst {
        read(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn names(v: &[Raw]) -> Vec<String> {
        v.iter()
            .map(|r| format!("{}.{}", r.var, r.offset))
            .collect()
    }

    #[test]
    fn typed_messages_as_the_back_end_prints_them() {
        let d = ok("gather4_typed.GA (M3, 8)  T6 t4.0 t4.32 %null.0 %null.0 v9.0");
        assert_eq!(
            (d.op, d.channels, d.exec.offset),
            (DpOpcode::Gather4Typed, 0b1010, 8)
        );
        assert_eq!(d.surface.as_deref(), Some("T6"));
        assert_eq!(names(&d.addr), ["t4.0", "t4.32", "%null.0", "%null.0"]);
        assert_eq!(d.dst.unwrap().var, "v9");
        let d = ok("(p1) scatter4_typed.RGBA (M1, 8)  T7 t4.0 %null.0 %null.0 %null.0 t7.64");
        assert_eq!(d.pred.unwrap().name, "p1");
        assert_eq!(names(&d.srcs), ["t7.64"]);
        assert!(d.dst.is_none());
        let d = ok("typed_atomic.cmpxchg.16 (M1, 8)  T6 t4.0 t4.32 %null.0 %null.0 v5.0 v6.0 v9.0");
        assert_eq!((d.atomic, d.bits), (Some(VisaAtomicOp::Cmpxchg), 16));
        assert_eq!(names(&d.srcs), ["v5.0", "v6.0"]);
        // Channels out of RGBA order, a typed atomic `.64`, an unknown operation.
        assert!(read("gather4_typed.GR (M1, 8) T6 a.0 b.0 c.0 d.0 e.0").is_err());
        assert!(read("typed_atomic.add.64 (M1, 8) T6 a.0 b.0 c.0 d.0 e.0 f.0 g.0").is_err());
        assert!(read("typed_atomic.umax (M1, 8) T6 a.0 b.0 c.0 d.0 e.0 f.0 g.0").is_err());
    }

    #[test]
    fn untyped_scattered_and_svm_messages() {
        let d = ok("gather4_scaled.RG (M1, 16)  %slm 0x0:ud v3.0 v9.0");
        assert_eq!(d.surface.as_deref(), Some("%slm"));
        assert_eq!(
            d.offset,
            Some(Src::Imm {
                bits: 0,
                ty: VType::Ud
            })
        );
        let d = ok("dword_atomic.maxsint (M1, 16)  T6 v3.0 v5_d.0 %null.0 v9_d.0");
        assert_eq!((d.atomic, d.bits), (Some(VisaAtomicOp::Maxsint), 32));
        assert_eq!(names(&d.srcs), ["v5_d.0", "%null.0"]);
        assert_eq!(d.dst.unwrap().var, "v9_d");
        let d = ok("svm_atomic.cmpxchg.64 (M1, 8)  v3.0 v9.0 v6.0 v5.0");
        assert_eq!((d.atomic, d.bits), (Some(VisaAtomicOp::Cmpxchg), 64));
        assert_eq!(names(&d.addr), ["v3.0"]);
        assert_eq!(d.dst.unwrap().var, "v9");
        assert_eq!(names(&d.srcs), ["v6.0", "v5.0"]);
        assert!(d.surface.is_none());
        let d = ok("gather_scaled.2 (M1, 16)  T6 0x0:ud v3.0 v9.0");
        assert_eq!((d.op, d.num_blocks), (DpOpcode::GatherScaled, 2));
        let d = ok("svm_scatter.1.4 (M1, 8)  v3.0 v5.0");
        assert_eq!((d.block_size, d.num_blocks), (1, 4));
        assert_eq!(names(&d.srcs), ["v5.0"]);
        let d = ok("svm_gather4scaled.RGB (M1_NM, 8)  0x0:uq t1.0 t2.0");
        assert!(d.exec.no_mask);
        assert_eq!(d.channels, 0b111);
        let d = ok("gather.4 (M1, 16)  T6 0x0:ud t2.0 v9.0");
        assert_eq!((d.op, d.block_size), (DpOpcode::Gather, 4));
        // A register global offset.
        let d = ok("scatter_scaled.1 (M1, 8) T6 G(0,1)<0;1,0> v3.0 v5.0");
        assert!(matches!(d.offset, Some(Src::General { col: 1, .. })));
    }

    #[test]
    fn malformed_data_port_messages_are_errors_of_their_line() {
        for line in [
            "(p1) gather.4 (M1, 16) T6 0x0:ud t2.0 v9.0",
            "gather.3 (M1, 16) T6 0x0:ud t2.0 v9.0",
            "gather_scaled.8 (M1, 16) T6 0x0:ud t2.0 v9.0",
            "svm_gather.2.4 (M1, 8) v3.0 v5.0",
            "svm_gather.1 (M1, 8) v3.0 v5.0",
            "svm_atomic.add.8 (M1, 8) v3.0 v9.0 v6.0 %null.0",
            "dword_atomic.add (M1, 16) T6 v3.0 v5.0 %null.0",
            "svm_scatter4scaled.RGBA (M1, 16) 0x0:uq v3.0 v5.0 v6.0",
            "gather4_scaled (M1, 16) T6 0x0:ud v3.0 v9.0",
        ] {
            let e = read(line).expect_err(line);
            assert_eq!(e.line, 5, "{line}");
        }
    }
}
