//! LSC messages: untyped (`.ugm`, `.ugml`, `.slm`) and typed (`.tgm`) loads, stores,
//! strided and channel-masked forms, and atomics.
//!
//! Each message intrinsic is first checked against the lowering's legality table
//! (`lowering::messages::check_message`), then emitted at the SIMD width the table gives
//! the platform (`LscMessage::exec_size`): a kernel wider than that gets one message
//! per group of lanes, each under its execution mask ([`crate::payload`]). The text is
//! what IGC's vISA grammar (`visa/CISA.y`, the `Lsc*` rules) reads:
//!
//! ```text
//! [(p)] lsc_load.ugm[.l1.l3] (M1, 16)  v13:d32x4  flat[v12+0x100]:a64
//! [(p)] lsc_store_quad.tgm (M3, 8)  bti(0x2)[t4,t5]:a32  t6:d32.xy
//! [(p)] lsc_atomic_iadd.slm (M1, 16)  v9:d32  flat[v8]:a32  v7  %null
//!       lsc_load_strided.ugm (M1, 16)  v13:d32  flat[s5, 0x4]:a64
//! ```
//!
//! Transposed (`x16t`) messages have a per-lane meaning in the IR (each invocation
//! reads its vector at its address); they are emitted as the equivalent SIMT messages,
//! the vector split into legal non-transposed pieces at increasing immediate offsets.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::{EmitError, EmitErrorKind};
use crate::payload::{self, Chunk};
use crate::vtype::VType;
use ir::lsc::{AddrType, DataShape, DataSize, Sfid};
use ir::{Inst, IntrinsicInst, Value};
use lowering::messages::{check_message, lsc_operands, LscMessage, OpClass};

/// The surface operand of a message.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Surface {
    /// `flat`.
    Flat,
    /// `bti(0x..)`.
    Bti(u32),
    /// `bti(s)`, a scalar register.
    BtiReg(Reg),
    /// `bss(s)`.
    Bss(Reg),
    /// `ss(s)`.
    Ss(Reg),
}

/// One LSC access of the kernel's lanes, in register terms.
#[derive(Clone, Debug)]
pub struct Access {
    /// The message's fields.
    pub m: LscMessage,
    /// The surface.
    pub surface: Surface,
    /// The address: one per-lane operand (untyped; the base for strided messages) or
    /// the typed coordinates U, V, R, LOD without trailing constant zeros.
    pub addr: Vec<Opnd>,
    /// The pitch of strided messages.
    pub pitch: Option<Opnd>,
    /// The stored data, one operand per component.
    pub data: Vec<Opnd>,
    /// The atomic sources.
    pub atomic: Vec<Opnd>,
    /// The destination components, if the message writes back.
    pub dest: Option<Vec<Reg>>,
    /// The boolean predicate, if any.
    pub pred: Option<Opnd>,
}

/// The data-shape token of GenX_IR 1.0.12504: `d32x4`, `d32.xy`, `d8c32` (that version
/// spells the widening sizes `d8c32`, `d16c32`, `d16c32h`).
pub fn shape_text(s: &DataShape) -> String {
    let text = s.to_string();
    match s.size {
        DataSize::D8U32 => text.replacen("d8u32", "d8c32", 1),
        DataSize::D16U32H => text.replacen("d16u32h", "d16c32h", 1),
        DataSize::D16U32 => text.replacen("d16u32", "d16c32", 1),
        _ => text,
    }
}

/// A raw payload operand as the LSC rules read it: the variable, and `.offset` when it
/// is not 0.
pub fn lsc_raw(cx: &Ctx, r: Reg) -> String {
    let name = cx.decls.name(cx.decls.root(r.var)).to_string();
    if r.off == 0 {
        name
    } else {
        format!("{name}.{}", r.off)
    }
}

/// A scalar operand where the LSC rules read a vector operand (surfaces, pitches, 2D
/// block payload fields): `s4`, or `v0(0,1)` (row and element of the variable's type;
/// unlike raw operands, `v0.1` there would mean element 1, IGC `CISA.y`
/// `LscVectorOpReg`).
pub fn lsc_scalar(cx: &Ctx, r: Reg) -> String {
    let root = cx.decls.root(r.var);
    let name = cx.decls.name(root).to_string();
    let eb = cx.decls.ty(root).bytes();
    if r.off == 0 {
        name
    } else {
        format!("{name}({},{})", r.off / cx.t.grf, (r.off % cx.t.grf) / eb)
    }
}

/// The vISA register element of a data size.
pub fn data_elem(size: DataSize) -> VType {
    VType::uint(size.reg_bits())
}

/// The text of the surface model.
fn surface_text(cx: &Ctx, s: Surface) -> String {
    match s {
        Surface::Flat => "flat".into(),
        Surface::Bti(b) => format!("bti(0x{b:x})"),
        Surface::BtiReg(r) => format!("bti({})", lsc_scalar(cx, r)),
        Surface::Bss(r) => format!("bss({})", lsc_scalar(cx, r)),
        Surface::Ss(r) => format!("ss({})", lsc_scalar(cx, r)),
    }
}

/// `+0x10`, `-0x8` or nothing.
fn offset_text(off: i32) -> String {
    match off {
        0 => String::new(),
        o if o < 0 => format!("-0x{:x}", o.unsigned_abs()),
        o => format!("+0x{o:x}"),
    }
}

/// The text of one LSC instruction from its parts (also used by the descriptor tests):
/// `pred` (a predicate name), `es` (`(M1, 16)`), `dst` (`v3` or `%null`), `addr` (the
/// whole address operand), `srcs` (data or atomic sources).
pub fn format_message(
    m: &LscMessage,
    pred: Option<&str>,
    es: &str,
    dst: Option<&str>,
    addr: &str,
    srcs: &[String],
) -> String {
    let mut t = String::new();
    if let Some(p) = pred {
        t.push_str(&format!("({p}) "));
    }
    t.push_str(&m.op.mnemonic());
    t.push('.');
    t.push_str(m.sfid.name());
    if !m.cache.is_default() {
        t.push_str(&format!(".{}.{}", m.cache.l1.name(), m.cache.l3.name()));
    }
    t.push(' ');
    t.push_str(es);
    let shape = shape_text(&m.data);
    match m.op.class() {
        OpClass::Load => {
            t.push_str(&format!("  {}:{shape}  {addr}", dst.unwrap_or("%null")));
        }
        OpClass::Store => {
            let data = srcs.first().map(String::as_str).unwrap_or("%null");
            t.push_str(&format!("  {addr}  {data}:{shape}"));
        }
        OpClass::Atomic => {
            t.push_str(&format!("  {}:{shape}  {addr}", dst.unwrap_or("%null")));
            for k in 0..2 {
                t.push_str("  ");
                t.push_str(srcs.get(k).map(String::as_str).unwrap_or("%null"));
            }
        }
    }
    t
}

/// The lanes of one message for `m` on this platform (before the kernel's width caps
/// it): the typed or untyped width of the legality table.
fn message_width(cx: &Ctx, m: &LscMessage) -> u32 {
    if m.sfid == Sfid::Tgm {
        cx.t.typed_simd
    } else {
        cx.t.untyped_simd
    }
}

/// Emits an access (see [`Access`]).
pub fn emit_access(cx: &mut Ctx, a: &Access) -> Result<(), EmitError> {
    if a.m.data.transpose {
        return emit_transposed(cx, a);
    }
    let pred = a.pred.map(|p| cx.pred_of(p));
    let elem = data_elem(a.m.data.size);
    let addr_elem = VType::uint(a.m.addr_size.bits());
    for c in payload::chunks(cx, message_width(cx, &a.m)) {
        let addr = address(cx, a, c, addr_elem);
        // A typed message's data registers are its operand's whole variable
        // ([`payload::source_whole`]).
        let source = if a.m.sfid == Sfid::Tgm {
            payload::source_whole
        } else {
            payload::source
        };
        let mut srcs = Vec::new();
        if !a.data.is_empty() {
            let r = source(cx, c, &a.data, elem);
            srcs.push(lsc_raw(cx, r));
        }
        for s in &a.atomic {
            let r = source(cx, c, std::slice::from_ref(s), elem);
            srcs.push(lsc_raw(cx, r));
        }
        let dest = a.dest.as_ref().map(|d| payload::dest(cx, c, d, elem));
        let dst = dest.as_ref().map(|d| lsc_raw(cx, d.reg));
        let text = format_message(&a.m, pred.as_deref(), &c.es(), dst.as_deref(), &addr, &srcs);
        cx.line(&text);
        if let Some(d) = dest {
            d.finish(cx);
        }
    }
    Ok(())
}

/// The address operand of chunk `c`.
fn address(cx: &mut Ctx, a: &Access, c: Chunk, addr_elem: VType) -> String {
    let surface = surface_text(cx, a.surface);
    let size = a.m.addr_size.name();
    if a.m.sfid == Sfid::Tgm {
        let coords: Vec<String> = a
            .addr
            .iter()
            .map(|o| {
                let r = payload::source(cx, c, std::slice::from_ref(o), VType::Ud);
                lsc_raw(cx, r)
            })
            .collect();
        return format!("{surface}[{}]:{size}", coords.join(","));
    }
    let off = offset_text(a.m.offset);
    if let Some(pitch) = a.pitch {
        // One base for the message: lane `lane0` starts at base + lane0 * pitch.
        let base = strided_base(cx, a.addr[0], pitch, c, addr_elem);
        // The payload starts a register.
        let reg = cx.temp_bytes(VType::Ud, 8);
        for hi in 0..addr_elem.bytes() / 4 {
            let (d, s) = (
                cx.dst(reg.at(hi * 4), VType::Ud),
                cx.src(Opnd::Reg(base.at(hi * 4)), VType::Ud),
            );
            cx.line(&format!("mov (M1_NM, 1) {d} {s}"));
        }
        let base = reg;
        let p = match pitch {
            Opnd::Imm(v) => format!("0x{:x}", v & 0xffff_ffff),
            r => {
                let u = cx.uniform(r, VType::Ud);
                lsc_scalar(cx, u)
            }
        };
        return format!("{surface}[{}{off}, {p}]:{size}", lsc_raw(cx, base));
    }
    let r = payload::source(cx, c, std::slice::from_ref(&a.addr[0]), addr_elem);
    format!("{surface}[{}{off}]:{size}", lsc_raw(cx, r))
}

/// The base address of chunk `c` of a strided message, a scalar.
fn strided_base(cx: &mut Ctx, base: Opnd, pitch: Opnd, c: Chunk, ty: VType) -> Reg {
    let b = cx.uniform(base, ty);
    if c.lane0 == 0 {
        return b;
    }
    let p = cx.uniform(pitch, VType::Ud);
    let step = cx.scalar(VType::Ud);
    let (ds, sp) = (cx.dst(step, VType::Ud), cx.src(Opnd::Reg(p), VType::Ud));
    cx.line(&format!(
        "mul (M1_NM, 1) {ds} {sp} {}",
        VType::Ud.imm(u64::from(c.lane0))
    ));
    let r = cx.scalar(ty);
    if ty.bytes() == 8 {
        // 64-bit: add the 32-bit step with a carry.
        let carry = cx.scalar(VType::Ud);
        let lo = |x: Reg| Reg { stride: 0, ..x };
        let hi = |x: Reg| Reg {
            off: x.off + 4,
            stride: 0,
            ..x
        };
        let (dl, dc, bl, st) = (
            cx.dst(lo(r), VType::Ud),
            cx.dst(carry, VType::Ud),
            cx.src(Opnd::Reg(lo(b)), VType::Ud),
            cx.src(Opnd::Reg(step), VType::Ud),
        );
        cx.line(&format!("addc (M1_NM, 1) {dl} {dc} {bl} {st}"));
        let (dh, bh, sc) = (
            cx.dst(hi(r), VType::Ud),
            cx.src(Opnd::Reg(hi(b)), VType::Ud),
            cx.src(Opnd::Reg(carry), VType::Ud),
        );
        cx.line(&format!("add (M1_NM, 1) {dh} {bh} {sc}"));
    } else {
        let (dr, sb, st) = (
            cx.dst(r, ty),
            cx.src(Opnd::Reg(b), ty),
            cx.src(Opnd::Reg(step), ty),
        );
        cx.line(&format!("add (M1_NM, 1) {dr} {sb} {st}"));
    }
    r
}

/// A transposed message as SIMT pieces of its vector.
fn emit_transposed(cx: &mut Ctx, a: &Access) -> Result<(), EmitError> {
    let size = a.m.data.size;
    let vect = u32::from(a.m.data.vect);
    // Payloads count at the platform's message width (the finalizer pads narrower
    // messages to it).
    let n = message_width(cx, &a.m);
    let per_comp = payload::run_bytes(cx, n, data_elem(size).bytes());
    // The data payload is at most 8 registers; vectors exist only for d32 and d64.
    let max = if matches!(size, DataSize::D32 | DataSize::D64) {
        (8 * cx.t.grf / per_comp).min(8)
    } else {
        1
    };
    let mut j = 0;
    while j < vect {
        let k = [8u32, 4, 3, 2, 1]
            .into_iter()
            .find(|k| *k <= max && *k <= vect - j)
            .unwrap_or(1);
        let mut m = a.m;
        m.data = DataShape::vector(size, k as u8, false);
        let delta = j * size.mem_bytes();
        m.offset =
            a.m.offset
                .checked_add(delta as i32)
                .ok_or_else(|| cx.unsupported("the immediate offset of a piece overflows"))?;
        let range = j as usize..(j + k) as usize;
        let piece = Access {
            m,
            data: if a.data.is_empty() {
                Vec::new()
            } else {
                a.data[range.clone()].to_vec()
            },
            dest: a.dest.as_ref().map(|d| d[range.clone()].to_vec()),
            ..a.clone()
        };
        emit_access(cx, &piece)?;
        j += k;
    }
    Ok(())
}

/// The surface of an IR message: its image's binding (plus the array index), or the
/// surface-state input of bindless models.
pub fn surface_of(
    cx: &mut Ctx,
    i: &IntrinsicInst,
    addr_type: AddrType,
) -> Result<Surface, EmitError> {
    if addr_type == AddrType::Flat {
        return Ok(Surface::Flat);
    }
    let r = i.image.ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: "a stateful message names no image".into(),
        })
    })?;
    let decl = cx.shader.images.get(r.image.index()).ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: format!("image {} is not declared", r.image.as_u32()),
        })
    })?;
    let (binding, name) = (decl.binding, decl.name.clone());
    match addr_type {
        AddrType::Bti => match r.index {
            None => Ok(Surface::Bti(binding)),
            Some(idx) => {
                let o = cx.comp(idx, 0)?;
                if let Opnd::Imm(k) = o {
                    return Ok(Surface::Bti(binding.wrapping_add(k as u32)));
                }
                Ok(Surface::BtiReg(cx.uniform_binding(o, binding)))
            }
        },
        t => {
            if let Some(idx) = r.index {
                return Err(cx.unsupported(format!(
                    "a {} surface indexed by {} needs the surface-state stride of @{name}, which the IR does not carry",
                    t.name(),
                    cx.func.value_name(idx.value)
                )));
            }
            let var = cx.abi.surface_state(&mut cx.decls, &name);
            let reg = Reg {
                var,
                off: 0,
                stride: 0,
            };
            Ok(if t == AddrType::Bss {
                Surface::Bss(reg)
            } else {
                Surface::Ss(reg)
            })
        }
    }
}

/// Emits an LSC message intrinsic.
pub fn emit(
    cx: &mut Ctx,
    inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    check_message(cx.device, &cx.shader.images, cx.func, inst)
        .map_err(|e| cx.err(EmitErrorKind::Message(e.rule)))?;
    let m = LscMessage::decode(cx.func, inst)
        .map_err(|r| cx.err(EmitErrorKind::Message(r)))?
        .ok_or_else(|| cx.unsupported("not an LSC message"))?;
    let ops = lsc_operands(cx.func, inst, &m).map_err(|r| cx.err(EmitErrorKind::Message(r)))?;
    let surface = surface_of(cx, i, m.addr_type)?;
    let mut addr = Vec::new();
    for s in &ops.addr {
        addr.push(cx.comp(*s, 0)?);
    }
    if m.sfid == Sfid::Tgm {
        // IGC drops trailing typed coordinates that are the constant 0 (U stays).
        while addr.len() > 1 && addr.last() == Some(&Opnd::Imm(0)) {
            addr.pop();
        }
    }
    let pitch = match ops.pitch {
        Some(p) => Some(cx.comp(p, 0)?),
        None => None,
    };
    let mut data = Vec::new();
    if let Some(d) = ops.data {
        for c in 0..m.data.components() {
            data.push(cx.comp(d, c)?);
        }
    }
    let mut atomic = Vec::new();
    for s in &ops.atomic {
        atomic.push(cx.comp(*s, 0)?);
    }
    let dest = match dest {
        Some(v) => {
            let mut regs = Vec::new();
            for c in 0..m.data.components() {
                regs.push(cx.dest(v, c)?);
            }
            Some(regs)
        }
        None => None,
    };
    let pred = match ops.predicate {
        Some(p) => Some(cx.comp(p, 0)?),
        None => None,
    };
    emit_access(
        cx,
        &Access {
            m,
            surface,
            addr,
            pitch,
            data,
            atomic,
            dest,
            pred,
        },
    )
}
