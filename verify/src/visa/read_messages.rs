//! Reading the message instructions of vISA text: LSC loads, stores and atomics
//! (typed, untyped, strided, 2D block), `lsc_fence`, the sampler's `load_3d`,
//! `load_lz`, `load_mcs`, `load_2dms_w`, `resinfo`, `sample_l` and `sample4`,
//! `fence_*` and `barrier` (the `Lsc*`,
//! `Load3DInstruction`, `ResInfo3dInstruction`, `Sample3dInstruction`,
//! `NullaryInstruction` and `SynchronizationInstruction` rules of IGC's `visa/CISA.y`
//! and the tokens of `visa/CISA.l`).

use super::error::{ErrorKind, VisaError};
use super::lexer::Cursor;
use super::listing::{
    InstKind, LscAddr, LscData, LscInst, LscOp, PredUse, Raw, SamplerLoad, SamplerOp, Scalar, Src,
};
use super::read_operands::{exec_size, raw, scalar, src};
use super::types::VType;
use ir::lsc::{
    AddrSize, AddrType, BlockShape, CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp, Sfid,
};

/// Whether `base` (the mnemonic before its first dot) names a message instruction.
pub fn is_message(base: &str) -> bool {
    base.starts_with("lsc_")
        || matches!(
            base,
            "load_3d"
                | "load_lz"
                | "load_mcs"
                | "load_2dms_w"
                | "resinfo"
                | "sample_l"
                | "sample4"
                | "fence_global"
                | "fence_local"
                | "fence_sw"
                | "barrier"
        )
}

fn unsupported(c: &Cursor<'_>, what: String) -> VisaError {
    VisaError::new(c.line(), ErrorKind::Unsupported { what })
}

/// Reads the rest of a message instruction whose mnemonic, split at its dots, is
/// `parts`.
pub fn message(
    c: &mut Cursor<'_>,
    pred: Option<PredUse>,
    parts: &[&str],
) -> Result<InstKind, VisaError> {
    let base = parts[0];
    match base {
        "barrier" => {
            no_pred(c, &pred, base)?;
            if parts.len() != 1 {
                return Err(c.error("`barrier` without modifiers"));
            }
            Ok(InstKind::Barrier)
        }
        "fence_global" | "fence_local" | "fence_sw" => {
            no_pred(c, &pred, base)?;
            let opts_ok = match parts {
                [_] => true,
                [b, o] if *b != "fence_sw" => fence_options(o),
                _ => false,
            };
            if !opts_ok {
                return Err(
                    c.error("fence options `.E`, `.I`, `.S`, `.C`, `.R`, `.L1` in that order")
                );
            }
            Ok(InstKind::Fence {
                local: base == "fence_local",
                software: base == "fence_sw",
            })
        }
        "lsc_fence" => {
            no_pred(c, &pred, base)?;
            lsc_fence(c, parts)
        }
        "load_3d" | "load_lz" | "load_mcs" | "load_2dms_w" | "sample_l" | "sample4" => {
            sampler_load(c, pred, parts)
        }
        "resinfo" => {
            no_pred(c, &pred, base)?;
            resinfo(c, parts)
        }
        _ => lsc(c, pred, parts),
    }
}

fn no_pred(c: &Cursor<'_>, pred: &Option<PredUse>, what: &str) -> Result<(), VisaError> {
    match pred {
        Some(_) => Err(VisaError::new(
            c.line(),
            ErrorKind::BadInstruction {
                reason: format!("`{what}` takes no predicate"),
            },
        )),
        None => Ok(()),
    }
}

/// `E?I?S?C?R?(L1)?` (CISA.l's fence options).
fn fence_options(s: &str) -> bool {
    let mut rest = s;
    for opt in ["E", "I", "S", "C", "R", "L1"] {
        if let Some(r) = rest.strip_prefix(opt) {
            rest = r;
        }
    }
    rest.is_empty()
}

fn lsc_fence(c: &mut Cursor<'_>, parts: &[&str]) -> Result<InstKind, VisaError> {
    const OPS: [&str; 7] = [
        "none",
        "evict",
        "invalidate",
        "discard",
        "clean",
        "flushl3",
        "type6",
    ];
    const SCOPES: [&str; 7] = ["group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq"];
    let [_, sfid, op, scope] = parts else {
        return Err(c.error("`lsc_fence.SFID.OP.SCOPE`"));
    };
    let sfid =
        Sfid::from_name(sfid).ok_or_else(|| c.error("an SFID `ugm`, `ugml`, `tgm` or `slm`"))?;
    if !OPS.contains(op) {
        return Err(c.error(
            "a fence operation (`none`, `evict`, `invalidate`, `discard`, `clean`, `flushl3`)",
        ));
    }
    if !SCOPES.contains(scope) {
        return Err(
            c.error("a fence scope (`group`, `local`, `tile`, `gpu`, `gpus`, `sysrel`, `sysacq`)")
        );
    }
    c.expect_end()?;
    Ok(InstKind::LscFence {
        sfid,
        op: op.to_string(),
        scope: scope.to_string(),
    })
}

/// The channel letters of a sampler or four-channel data-port message (`R`, `RG`,
/// `RGBA`, `GA`, ...; any case; CISA.l's `SAMPLER_CHANNEL`), as a mask with R in bit 0.
pub fn sampler_channels(s: &str) -> Option<u8> {
    let mut mask = 0u8;
    let mut last = -1i32;
    for ch in s.chars() {
        let bit = "rgba".find(ch.to_ascii_lowercase())? as i32;
        if bit <= last {
            return None;
        }
        last = bit;
        mask |= 1 << bit;
    }
    (mask != 0).then_some(mask)
}

/// `resinfo.CH (exec) surface lod dst`: IGC's printer and assembler spell `info_3d`
/// with `VISA_3D_RESINFO` this way (`CISA.y` `ResInfo3dInstruction`).
fn resinfo(c: &mut Cursor<'_>, parts: &[&str]) -> Result<InstKind, VisaError> {
    let [_, ch] = parts else {
        return Err(c.error("`resinfo.CHANNELS` (e.g. `resinfo.RGBA`)"));
    };
    let channels = sampler_channels(ch)
        .ok_or_else(|| c.error("sampler channels `R`, `G`, `B`, `A` in that order"))?;
    let exec = exec_size(c)?;
    let surface = c.expect_ident("a surface variable")?.to_string();
    let lod = raw(c, false)?;
    let dst = raw(c, false)?;
    c.expect_end()?;
    Ok(InstKind::SamplerLoad(Box::new(SamplerLoad {
        op: SamplerOp::Resinfo,
        pred: None,
        pixel_null_mask: false,
        channels,
        exec,
        aoffimmi: Src::Imm {
            bits: 0,
            ty: VType::Uw,
        },
        sampler: None,
        surface,
        dst,
        srcs: vec![lod],
    })))
}

/// `load_3d`, `load_lz`, `load_mcs`, `load_2dms_w` (`Load3dInstruction`), `sample_l`
/// (`Sample3dInstruction`, whose sampler variable comes before the surface) and
/// `sample4` (`sample_l`'s spelling; its one channel the one it gathers). `sample_l`'s `.cps` (pixel
/// shaders' coarse LOD compensation) and `.divS` (a sampler index that differs per
/// lane) are not modelled and are refused.
fn sampler_load(
    c: &mut Cursor<'_>,
    pred: Option<PredUse>,
    parts: &[&str],
) -> Result<InstKind, VisaError> {
    let op = match parts[0] {
        "load_3d" => SamplerOp::Ld,
        "load_lz" => SamplerOp::LdLz,
        "load_mcs" => SamplerOp::LdMcs,
        "load_2dms_w" => SamplerOp::Ld2dmsW,
        "sample4" => SamplerOp::Gather4,
        _ => SamplerOp::SampleL,
    };
    if op == SamplerOp::SampleL {
        if let Some(m) = parts
            .get(1..parts.len().saturating_sub(1))
            .unwrap_or_default()
            .iter()
            .find(|m| matches!(**m, "cps" | "divS"))
        {
            return Err(unsupported(c, format!("`sample_l.{m}`")));
        }
    }
    let (pixel_null_mask, ch) = match parts {
        [_, "pixel_null_mask", ch] => (true, *ch),
        [_, ch] => (false, *ch),
        _ => return Err(c.error("`.CHANNELS` (e.g. `.RGBA`) after the sampler mnemonic")),
    };
    let channels = sampler_channels(ch)
        .ok_or_else(|| c.error("sampler channels `R`, `G`, `B`, `A` in that order"))?;
    if op == SamplerOp::Gather4 && channels.count_ones() != 1 {
        return Err(c.error("the one channel `sample4` gathers (`R`, `G`, `B` or `A`)"));
    }
    let exec = exec_size(c)?;
    let aoffimmi = src(c, false)?;
    let sampler = if op.uses_sampler_state() {
        Some(c.expect_ident("a sampler variable")?.to_string())
    } else {
        None
    };
    let surface = c.expect_ident("a surface variable")?.to_string();
    let dst = raw(c, false)?;
    let mut srcs = Vec::new();
    while !c.at_end() {
        srcs.push(raw(c, false)?);
    }
    Ok(InstKind::SamplerLoad(Box::new(SamplerLoad {
        op,
        pred,
        pixel_null_mask,
        channels,
        exec,
        aoffimmi,
        sampler,
        surface,
        dst,
        srcs,
    })))
}

/// The LSC operation of a mnemonic base.
fn lsc_op(base: &str) -> Option<LscOp> {
    Some(match base {
        "lsc_load" => LscOp::Load,
        "lsc_load_quad" => LscOp::LoadQuad,
        "lsc_load_strided" => LscOp::LoadStrided,
        "lsc_load_block2d" => LscOp::LoadBlock2d,
        "lsc_store" => LscOp::Store,
        "lsc_store_quad" => LscOp::StoreQuad,
        "lsc_store_strided" => LscOp::StoreStrided,
        "lsc_store_block2d" => LscOp::StoreBlock2d,
        _ => LscOp::Atomic(LscAtomicOp::from_name(base.strip_prefix("lsc_atomic_")?)?),
    })
}

fn lsc(c: &mut Cursor<'_>, pred: Option<PredUse>, parts: &[&str]) -> Result<InstKind, VisaError> {
    let Some(op) = lsc_op(parts[0]) else {
        return Err(unsupported(c, format!("instruction `{}`", parts[0])));
    };
    let sfid = parts
        .get(1)
        .and_then(|s| Sfid::from_name(s))
        .ok_or_else(|| c.error("`.ugm`, `.ugml`, `.tgm` or `.slm` after the LSC mnemonic"))?;
    let mut caching = CacheControl::DEFAULT;
    match &parts[2..] {
        [] => {}
        [l1] => caching.l1 = cache_opt(c, l1)?,
        [l1, l3] => {
            caching.l1 = cache_opt(c, l1)?;
            caching.l3 = cache_opt(c, l3)?;
        }
        _ => return Err(c.error("at most two cache options")),
    }
    let typed = sfid == Sfid::Tgm;
    let block = matches!(op, LscOp::LoadBlock2d | LscOp::StoreBlock2d);
    if typed && !matches!(op, LscOp::LoadQuad | LscOp::StoreQuad | LscOp::Atomic(_)) {
        return Err(c.error("`lsc_load_quad`, `lsc_store_quad` or an atomic on `.tgm`"));
    }
    let exec = exec_size(c)?;
    let addr_of = |c: &mut Cursor<'_>| -> Result<LscAddr, VisaError> {
        if block {
            block2d_addr(c)
        } else if typed {
            typed_addr(c)
        } else {
            untyped_addr(c, matches!(op, LscOp::LoadStrided | LscOp::StoreStrided))
        }
    };
    let (data, addr, src1, src2) = match op {
        LscOp::Store | LscOp::StoreQuad | LscOp::StoreStrided | LscOp::StoreBlock2d => {
            let addr = addr_of(c)?;
            let data = data_operand(c, block)?;
            (data, addr, None, None)
        }
        LscOp::Atomic(_) => {
            let data = data_operand(c, false)?;
            let addr = addr_of(c)?;
            let src1 = raw(c, true)?;
            let src2 = raw(c, true)?;
            (data, addr, Some(src1), Some(src2))
        }
        _ => {
            let data = data_operand(c, block)?;
            let addr = addr_of(c)?;
            (data, addr, None, None)
        }
    };
    c.expect_end()?;
    Ok(InstKind::Lsc(Box::new(LscInst {
        op,
        sfid,
        caching,
        pred,
        exec,
        data,
        addr,
        src1,
        src2,
    })))
}

fn cache_opt(c: &mut Cursor<'_>, s: &str) -> Result<CacheOpt, VisaError> {
    CacheOpt::from_name(s)
        .filter(|o| *o != CacheOpt::Cc)
        .ok_or_else(|| c.error("a cache option `df`, `uc`, `ca`, `wb`, `wt`, `st` or `ri`"))
}

/// The data size spelled `s` after the `d`/`u` prefix normalisation of CISA.l
/// (`u32` = `d32`, `d8c32` = `d8u32`).
fn data_size(s: &str) -> Option<DataSize> {
    let body = s.strip_prefix('d').or_else(|| s.strip_prefix('u'))?;
    let body = body.replace("c32", "u32");
    DataSize::from_name(&format!("d{body}"))
}

/// `LscDataOperand` / `LscDataOperand2D`: a payload register and `:shape`.
fn data_operand(c: &mut Cursor<'_>, block: bool) -> Result<LscData, VisaError> {
    let reg = raw(c, true)?;
    c.expect(':')?;
    let m = c.mark();
    let Some(word) = c.word() else {
        return Err(c.error("a data shape such as `d32x4` after `:`"));
    };
    let fail = |c: &mut Cursor<'_>| {
        c.reset(m);
        Err(c.error(if block {
            "a 2D block shape such as `d8.2x32x32nn`"
        } else {
            "a data shape such as `d32`, `d32x4t` or `d32.xyzw`"
        }))
    };
    let (size_text, suffix) = match word.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (word, None),
    };
    if block {
        let (Some(size), Some(suffix)) = (data_size(size_text), suffix) else {
            return fail(c);
        };
        match block_shape(suffix) {
            Some(shape) => Ok(LscData::Block(reg, size, shape)),
            None => fail(c),
        }
    } else {
        // `d32x4t`: the size is the text before the vector suffix.
        let (size_only, vect) = match size_text.find('x') {
            Some(i) => (&size_text[..i], &size_text[i..]),
            None => (size_text, ""),
        };
        let Some(size) = data_size(size_only) else {
            return fail(c);
        };
        let text = match suffix {
            Some(mask) if vect.is_empty() => format!("{}.{mask}", size.name()),
            None => format!("{}{vect}", size.name()),
            Some(_) => return fail(c),
        };
        match DataShape::parse(&text) {
            Some(shape) => Ok(LscData::Shape(reg, shape)),
            None => fail(c),
        }
    }
}

/// CISA.l's block shape: `[B x] W x H [n|t] [n|t]` (transpose, then VNNI); the block
/// count defaults to 1 and the flags to `n`.
fn block_shape(s: &str) -> Option<BlockShape> {
    let flags_at = s.find(['n', 't']).unwrap_or(s.len());
    let (dims, flags) = s.split_at(flags_at);
    let nums: Vec<u32> = dims
        .split('x')
        .map(|p| p.parse().ok().filter(|v| *v >= 1))
        .collect::<Option<_>>()?;
    let (b, w, h) = match nums.as_slice() {
        [w, h] => (1, *w, *h),
        [b, w, h] => (*b, *w, *h),
        _ => return None,
    };
    let flag = |c: Option<u8>| match c {
        None | Some(b'n') => Some(false),
        Some(b't') => Some(true),
        _ => None,
    };
    let f = flags.as_bytes();
    if f.len() > 2 {
        return None;
    }
    let shape = BlockShape::untyped(
        u8::try_from(b).ok()?,
        u16::try_from(w).ok()?,
        u16::try_from(h).ok()?,
        flag(f.first().copied())?,
        flag(f.get(1).copied())?,
    );
    shape.to_index().map(|_| shape)
}

/// `LscRegAddrModel`: `bti(S)`, `ss(S)`, `bss(S)`.
fn reg_addr_model(c: &mut Cursor<'_>) -> Result<Option<(AddrType, Scalar)>, VisaError> {
    let m = c.mark();
    let model = match c.ident() {
        Some("bti") => AddrType::Bti,
        Some("ss") => AddrType::Ss,
        Some("bss") => AddrType::Bss,
        _ => {
            c.reset(m);
            return Ok(None);
        }
    };
    c.expect('(')?;
    let s = scalar(c)?;
    c.expect(')')?;
    Ok(Some((model, s)))
}

fn addr_size(c: &mut Cursor<'_>) -> Result<AddrSize, VisaError> {
    c.expect(':')?;
    let m = c.mark();
    match c.ident().and_then(AddrSize::from_name) {
        Some(s) => Ok(s),
        None => {
            c.reset(m);
            Err(c.error("an address size `a16`, `a32` or `a64`"))
        }
    }
}

/// `LscUntypedAddrOperand` / `LscUntypedStridedAddrOperand`:
/// `[model] [ [scale *] V [+ off | - off] [, stride] ] :aNN`.
fn untyped_addr(c: &mut Cursor<'_>, strided: bool) -> Result<LscAddr, VisaError> {
    let m = c.mark();
    let (model, surface) = match c.ident() {
        Some("flat") => (AddrType::Flat, None),
        Some("arg") => return Err(unsupported(c, "the `arg` address model".into())),
        Some(_) => {
            c.reset(m);
            match reg_addr_model(c)? {
                Some((model, s)) => (model, Some(s)),
                None => return Err(c.error("an address model `flat`, `bti`, `ss` or `bss`")),
            }
        }
        None => (AddrType::Flat, None),
    };
    c.expect('[')?;
    let mut scale = 1i64;
    if matches!(c.peek(), Some('0'..='9' | '(')) {
        scale = c.unary_expr()?;
        c.expect('*')?;
        while matches!(c.peek(), Some('0'..='9' | '(')) {
            scale = scale.wrapping_mul(c.unary_expr()?);
            c.expect('*')?;
        }
    }
    let reg = raw(c, true)?;
    if reg.is_null() {
        return Err(c.error("an address register other than %null"));
    }
    let offset = if c.eat('+') {
        c.int_expr(false)?
    } else if c.eat('-') {
        c.unary_expr()?.wrapping_neg()
    } else {
        0
    };
    let stride = if strided && c.eat(',') {
        Some(scalar(c)?)
    } else {
        None
    };
    c.expect(']')?;
    let size = addr_size(c)?;
    Ok(LscAddr::Vector {
        model,
        surface,
        scale,
        regs: vec![reg],
        offset,
        stride,
        size,
    })
}

/// `LscTypedAddrOperand`: `model(S)[u [, v [, r [, lod]]]]:aNN`.
fn typed_addr(c: &mut Cursor<'_>) -> Result<LscAddr, VisaError> {
    let Some((model, surface)) = reg_addr_model(c)? else {
        return Err(c.error("a typed address model `bti(...)`, `ss(...)` or `bss(...)`"));
    };
    c.expect('[')?;
    let mut regs = vec![raw(c, true)?];
    while regs.len() < 4 && c.eat(',') {
        regs.push(raw(c, true)?);
    }
    if regs.iter().any(Raw::is_null) {
        return Err(c.error("coordinate registers other than %null"));
    }
    c.expect(']')?;
    let size = addr_size(c)?;
    Ok(LscAddr::Vector {
        model,
        surface: Some(surface),
        scale: 1,
        regs,
        offset: 0,
        stride: None,
        size,
    })
}

/// `LscUntypedBlock2dAddrOperand`: `flat[base, width, height, pitch, x, y]`.
fn block2d_addr(c: &mut Cursor<'_>) -> Result<LscAddr, VisaError> {
    let m = c.mark();
    if c.ident() != Some("flat") {
        c.reset(m);
        return Err(c.error("`flat[base, width, height, pitch, x, y]`"));
    }
    c.expect('[')?;
    let base = scalar(c)?;
    if matches!(base, Scalar::Imm(_)) {
        return Err(c.error("a register for the surface base address"));
    }
    let mut rest = Vec::with_capacity(5);
    for _ in 0..5 {
        c.expect(',')?;
        rest.push(scalar(c)?);
    }
    c.expect(']')?;
    let [w, h, p, x, y]: [Scalar; 5] = rest.try_into().map_err(|_| c.error("six fields"))?;
    Ok(LscAddr::Block2d {
        fields: [base, w, h, p, x, y],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> InstKind {
        let mut c = Cursor::new(line, 1);
        let pred = crate::visa::read_operands::predicate(&mut c).unwrap();
        let word = c.word().unwrap();
        let parts: Vec<&str> = word.split('.').collect();
        message(&mut c, pred, &parts).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn lsc_of(line: &str) -> LscInst {
        match read(line) {
            InstKind::Lsc(l) => *l,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn untyped_loads_stores_and_atomics_from_the_spec_examples() {
        // Examples of LSC_UNTYPED.md.
        let l = lsc_of("lsc_load.ugm.uc.uc  (M1,32) VVAL:d32    flat[VOFF+0x100]:a64");
        assert_eq!(l.op, LscOp::Load);
        assert_eq!(l.caching.to_string(), "uc.uc");
        assert_eq!(l.exec.size, 32);
        let LscAddr::Vector {
            model,
            offset,
            size,
            scale,
            ..
        } = &l.addr
        else {
            panic!()
        };
        assert_eq!(
            (*model, *offset, *size, *scale),
            (AddrType::Flat, 0x100, AddrSize::A64, 1)
        );
        let l = lsc_of("lsc_load.slm   (M1,32) VVAL:d32x4  flat[0x4*VOFF-0x10]:a32");
        let LscAddr::Vector { offset, scale, .. } = &l.addr else {
            panic!()
        };
        assert_eq!((*offset, *scale), (-0x10, 4));
        let LscData::Shape(reg, shape) = &l.data else {
            panic!()
        };
        assert_eq!(
            (reg.var.as_str(), shape.to_string()),
            ("VVAL", "d32x4".into())
        );
        let l = lsc_of("lsc_load.ugm          (M1_NM,1)  V13:d32x16t  bti(0x4)[VOFF]:a32");
        let LscAddr::Vector { model, surface, .. } = &l.addr else {
            panic!()
        };
        assert_eq!(
            (*model, surface.clone()),
            (AddrType::Bti, Some(Scalar::Imm(4)))
        );
        let l = lsc_of("lsc_store.slm     (M1,32) flat[VOFF]:a32  VVAL:d32x4");
        assert_eq!(l.op, LscOp::Store);
        let l = lsc_of("lsc_atomic_icas.ugm.uc.wb  (M1,32) VOLD:d32  flat[VOFF]:a64 VCMP VIFEQ");
        assert_eq!(l.op, LscOp::Atomic(LscAtomicOp::Icas));
        assert_eq!(l.src2.as_ref().unwrap().var, "VIFEQ");
        let l = lsc_of("lsc_atomic_iinc.ugm.uc.uc  (M1,32) %null:d32  flat[VOFF]:a64 %null %null");
        assert!(l.src1.unwrap().is_null());
        let l = lsc_of("lsc_load.ugm.uc.uc (M1,32) V13:d32 bss(BSSO(0,0))[VOFF]:a64");
        let LscAddr::Vector { surface, .. } = &l.addr else {
            panic!()
        };
        assert_eq!(
            surface.clone(),
            Some(Scalar::Var {
                var: "BSSO".into(),
                row: 0,
                col: 0
            })
        );
        // `u32` is CISA.l's synonym of `d32`; `d8c32` of `d8u32`.
        let l = lsc_of("lsc_load.ugm (M1, 16) V1.64:u8c32 flat[V2]:a32");
        let LscData::Shape(reg, shape) = &l.data else {
            panic!()
        };
        assert_eq!((reg.offset, shape.size), (64, DataSize::D8U32));
    }

    #[test]
    fn block2d_and_typed_messages() {
        let l = lsc_of(
            "lsc_load_block2d.ugm  (M1_NM,1)  VDATA:d8.2x16x32nn    flat[VSURF_BASE,VSURF_W,V_SURF_H,SURF_P,OFF_X,OFF_Y]",
        );
        let LscData::Block(_, size, shape) = &l.data else {
            panic!()
        };
        assert_eq!(
            (*size, shape.to_string()),
            (DataSize::D8, "2x16x32nn".into())
        );
        let l = lsc_of(
            "lsc_store_block2d.ugm (M1_NM,1)  flat[VSURF_BASE,VSURF_W,V_SURF_H,SURF_P,OFF_X,OFF_Y]  VDATA:d16.16x32nn",
        );
        assert_eq!(l.op, LscOp::StoreBlock2d);
        // The short form `WxH` is one block, non-transposed, non-VNNI.
        let l = lsc_of("lsc_load_block2d.ugm (M1_NM,1) V:d16.16x8 flat[B,W,H,P,X,Y]");
        let LscData::Block(_, _, shape) = &l.data else {
            panic!()
        };
        assert_eq!(shape.to_string(), "16x8nn");
        let l = lsc_of("lsc_load_quad.tgm   (M1, 8) V60:u32.xz    bti(T6)[V52,V53,V54,V55]:a32");
        let LscAddr::Vector { regs, .. } = &l.addr else {
            panic!()
        };
        assert_eq!(regs.len(), 4);
        let LscData::Shape(_, shape) = &l.data else {
            panic!()
        };
        assert_eq!(shape.cmask, 0b101);
        let l = lsc_of("lsc_atomic_iadd.tgm (M1, 8) V60:d32 bss(V10)[V52,V53]:a32 V0 V70");
        assert_eq!(l.sfid, Sfid::Tgm);
    }

    #[test]
    fn sampler_fence_and_barrier() {
        let InstKind::SamplerLoad(s) =
            read("load_lz.RGBA (M5, 16)  0x0:uw T6 V0108.0 V0053.0 V0110.0")
        else {
            panic!()
        };
        assert_eq!(
            (s.op, s.channels, s.exec.offset),
            (SamplerOp::LdLz, 0xf, 16)
        );
        assert_eq!(
            s.aoffimmi,
            Src::Imm {
                bits: 0,
                ty: VType::Uw
            }
        );
        assert_eq!(s.srcs.len(), 2);
        let InstKind::SamplerLoad(s) =
            read("(P1) load_3d.pixel_null_mask.RA (M1, 16) 0x0:uw T7 V1.0 V2.0 V3.0 V4.0")
        else {
            panic!()
        };
        assert!(s.pixel_null_mask && s.pred.is_some());
        assert_eq!(s.channels, 0b1001);
        // `resinfo`: surface, LOD, destination (as visa/src/sampler.rs prints it).
        let InstKind::SamplerLoad(s) = read("resinfo.RG (M1, 16) T6 t1.0 v2.0") else {
            panic!()
        };
        assert_eq!(
            (s.op, s.channels, s.exec.size),
            (SamplerOp::Resinfo, 0b11, 16)
        );
        assert_eq!((s.surface.as_str(), s.dst.var.as_str()), ("T6", "v2"));
        assert_eq!(s.srcs.len(), 1);
        assert_eq!(s.srcs[0].var, "t1");
        assert!(s.pred.is_none() && !s.pixel_null_mask);
        assert_eq!(
            read("lsc_fence.ugm.evict.gpu"),
            InstKind::LscFence {
                sfid: Sfid::Ugm,
                op: "evict".into(),
                scope: "gpu".into()
            }
        );
        // `sample_l`: aoffimmi, sampler, surface, destination, then lod, u, v (IGC's
        // own kernel, `read_imagef` with an explicit LOD).
        let InstKind::SamplerLoad(s) =
            read("sample_l.RGBA (M5, 16)  0x8000:uw S0 T6 V0061.0 V0059.0 V0059.64 V0063.0")
        else {
            panic!()
        };
        assert_eq!(
            (s.op, s.channels, s.exec.offset),
            (SamplerOp::SampleL, 0xf, 16)
        );
        assert_eq!(
            (s.sampler.as_deref(), s.surface.as_str(), s.dst.var.as_str()),
            (Some("S0"), "T6", "V0061")
        );
        assert_eq!(
            s.aoffimmi,
            Src::Imm {
                bits: 0x8000,
                ty: VType::Uw
            }
        );
        assert_eq!(s.srcs.len(), 3);
        let InstKind::SamplerLoad(s) =
            read("(P2) sample_l.pixel_null_mask.R (M1, 8) 0x0:uw S1 T7 V1.0 V2.0")
        else {
            panic!()
        };
        assert!(s.pixel_null_mask && s.pred.is_some());
        assert_eq!(s.sampler.as_deref(), Some("S1"));
        // `load_mcs` and `load_2dms_w` as visa/src/sampler.rs prints them: `load_lz`'s
        // spelling, no sampler variable, the parameters in vISA order (u, v, r; si,
        // mcsl, mcsh, u, v, r).
        let InstKind::SamplerLoad(s) =
            read("load_mcs.RG (M1, 16)  0x0:uw T6 v4.0 v0.0 v0.64 v0.128")
        else {
            panic!()
        };
        assert_eq!(
            (s.op, s.channels, s.exec.size),
            (SamplerOp::LdMcs, 0b11, 16)
        );
        assert_eq!((s.sampler, s.surface.as_str()), (None, "T6"));
        assert_eq!(s.dst.var, "v4");
        assert_eq!(
            s.srcs.iter().map(|r| r.offset).collect::<Vec<_>>(),
            [0, 64, 128]
        );
        let InstKind::SamplerLoad(s) = read(
            "(P1) load_2dms_w.pixel_null_mask.RGBA (M5, 16)  0x0:uw T7 v2.0 v0.128 v4.0 v4.64 v0.0 v0.64 v0.128",
        ) else {
            panic!()
        };
        assert_eq!(
            (s.op, s.channels, s.exec.offset),
            (SamplerOp::Ld2dmsW, 0xf, 16)
        );
        assert!(s.pixel_null_mask && s.pred.is_some() && s.sampler.is_none());
        assert_eq!(
            s.srcs.iter().map(|r| r.var.as_str()).collect::<Vec<_>>(),
            ["v0", "v4", "v4", "v0", "v0", "v0"]
        );
        assert_eq!(read("barrier"), InstKind::Barrier);
        assert_eq!(
            read("fence_local.E"),
            InstKind::Fence {
                local: true,
                software: false
            }
        );
    }

    #[test]
    fn malformed_messages_are_syntax_errors() {
        for line in [
            "lsc_load.xyz (M1, 16) V:d32 flat[A]:a32",
            "lsc_load.ugm (M1, 16) V:d33 flat[A]:a32",
            "lsc_load.ugm (M1, 16) V:d32 flat[A]:a48",
            "lsc_load.ugm (M1, 16) V:d32 flat[%null]:a32",
            "lsc_load_block2d.ugm (M1, 1) V:d8.0x4nn flat[B,W,H,P,X,Y]",
            "lsc_store.tgm (M1, 8) bti(1)[U]:a32 V:d32",
            "lsc_fence.ugm.evict",
            "load_lz.RGBX (M1, 16) 0x0:uw T6 V.0 U.0",
            "resinfo.RGB (M1, 16) T6 V.0",
            "resinfo.RGB (M1, 16) T6 V.0 U.0 W.0",
            "resinfo.pixel_null_mask.R (M1, 16) T6 V.0 U.0",
            // `sample_l` without its sampler, without channels, with unknown ones.
            "sample_l.RGBA (M1, 16) 0x0:uw T6",
            "sample_l (M1, 16) 0x0:uw S0 T6 V.0 U.0",
            "sample_l.RGBX (M1, 16) 0x0:uw S0 T6 V.0 U.0",
            // `load_mcs` and `load_2dms_w` without channels, with unknown ones.
            "load_mcs (M1, 16) 0x0:uw T6 V.0 U.0",
            "load_2dms_w.RGBX (M1, 16) 0x0:uw T6 V.0 U.0",
        ] {
            let mut c = Cursor::new(line, 4);
            let word = c.word().unwrap();
            let parts: Vec<&str> = word.split('.').collect();
            let e = message(&mut c, None, &parts).expect_err(line);
            assert_eq!(e.line, 4);
        }
        // `sample_l`'s `.cps` and `.divS` are not modelled: refused as such.
        for line in [
            "sample_l.cps.RGBA (M1, 16) 0x0:uw S0 T6 V.0 U.0",
            "sample_l.pixel_null_mask.divS.R (M1, 16) 0x0:uw S0 T6 V.0 U.0",
        ] {
            let mut c = Cursor::new(line, 2);
            let word = c.word().unwrap();
            let parts: Vec<&str> = word.split('.').collect();
            let e = message(&mut c, None, &parts).expect_err(line);
            assert!(
                matches!(e.kind, ErrorKind::Unsupported { .. }),
                "{line}: {e:?}"
            );
        }
        // `resinfo` takes no predicate (CISA.y reads none).
        let mut c = Cursor::new("resinfo.R (M1, 16) T6 V.0 U.0", 4);
        let word = c.word().unwrap();
        let parts: Vec<&str> = word.split('.').collect();
        let pred = Some(PredUse {
            name: "P1".into(),
            invert: false,
            combine: crate::visa::types::PredCombine::Sequential,
        });
        assert!(message(&mut c, pred, &parts).is_err());
    }
}
