//! The legacy data-port messages of Gfx8 to Gfx12.0 (the IR's `@dp_*` intrinsics,
//! `docs/hardware/dataport.md`) as the vISA instructions IGC's grammar has for them
//! (`visa/CISA.y`; `documentation/visa/instructions/`):
//!
//! ```text
//! [(p)] gather4_typed.RG (M1, 8)  T6 t4.0 t4.32 %null.0 %null.0 v9.0
//! [(p)] scatter4_typed.RGBA (M3, 8)  T6 t4.0 t4.32 %null.0 %null.0 t7.0
//! [(p)] typed_atomic.add (M1, 8)  T6 t4.0 t4.32 %null.0 %null.0 v5.0 %null.0 v9.0
//! [(p)] gather4_scaled.RG (M1, 16)  T6 0x0:ud v3.0 v9.0       (bti; %slm for SLM)
//! [(p)] scatter4_scaled.R (M1, 16)  %slm 0x0:ud v3.0 v5.0
//!       scatter4_scaled.R (M1, 16)  %scratch 0x0:ud t3.0 v5.0  (scratch)
//! [(p)] svm_gather4scaled.RGBA (M1, 8)  0x0:uq v3.0 v9.0       (A64)
//! [(p)] dword_atomic.maxsint (M1, 16)  T6 v3.0 v5_d.0 %null.0 v9_d.0
//! [(p)] svm_atomic.cmpxchg.64 (M1, 8)  v3.0 v9.0 v6.0 v5.0
//! [(p)] gather_scaled.2 (M1, 16)  T6 0x0:ud v3.0 v9.0          (byte scattered)
//! [(p)] svm_scatter.1.4 (M1, 8)  v3.0 v5.0                     (A64 byte scattered)
//!       gather.4 (M1, 16)  T6 0x0:ud t2.0 v9.0                 (dword scattered)
//! ```
//!
//! A message runs at the widest SIMD width the generation's table gives it
//! (`lowering::messages::dataport::max_simd`), split over the kernel's lanes under
//! execution masks ([`crate::payload`]). Its payload is laid out the way the
//! lowering's send descriptors count it ([`lowering::messages::dataport::legacy_send`]):
//! the typed coordinates U, V, R, LOD up to the last one used are consecutive register
//! runs of one variable (so the finalizer sends them as one part), the address one run,
//! the data (or atomic operands) another variable. Surfaces are the surface variables
//! `T6` up of [`crate::sampler`], set to the binding-table index with `movs`.
//!
//! vISA differs from the IR's fields in three places: its atomic operation names
//! (`maxsint` for `imax`, `xchg` for `mov`, `cmpxchg` for `cmpwr`); `cmpxchg` takes the
//! new value first and the compare value second, the reverse of the hardware's
//! `cmpwr` (the finalizer swaps them back; `fcmpwr` keeps the hardware's order,
//! `DWORD_ATOMIC.md`); and the dword scattered `gather`/`scatter` take element offsets
//! in dwords and no predicate (a predicated one is skipped by the lanes whose predicate
//! is false with a SIMD `goto`, as [`crate::control`] writes an `if`). Atomic operands are read as the type the operation
//! needs (`d` for `minsint`/`maxsint`, `f` for float operations, `uq`/`q` at 64 bits;
//! GenX_IR takes 16-bit integer atomics on `ud` only).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::{EmitError, EmitErrorKind};
use crate::payload::{self, Chunk};
use crate::vtype::VType;
use ir::dataport::{DpAddr, DpAtomicOp, DpDesc, DpMsg};
use ir::{Inst, IntrinsicInst, Value};
use lowering::messages::check_message;
use lowering::messages::dataport::max_simd;

/// Where a data-port message's surface is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DpSurface {
    /// A binding-table surface: the surface variable and the `movs` source setting it.
    Bti {
        /// The surface variable (`T6`).
        var: String,
        /// The binding-table index, as a source (`0x5:ud`, a scalar register).
        index: String,
    },
    /// Shared local memory (`%slm`).
    Slm,
    /// The thread's scratch space (`%scratch`, vISA's predefined surface T5, which the
    /// finalizer sends to the stateless binding-table index 255): 32-bit byte
    /// addresses that already include the thread's scratch base ([`crate::scratch`]).
    Scratch,
    /// No surface: A64 messages.
    Stateless,
}

/// One data-port message of the kernel's lanes, in register terms.
#[derive(Clone, Debug)]
pub struct DpAccess {
    /// The fields.
    pub desc: DpDesc,
    /// The surface.
    pub surface: DpSurface,
    /// The typed coordinates U, V, R, LOD without trailing constant zeros, or the one
    /// address.
    pub addr: Vec<Opnd>,
    /// The written components (32- or 64-bit elements as the fields say).
    pub data: Vec<Opnd>,
    /// The atomic operands `src0`, `src1` in the hardware's order.
    pub atomic: Vec<Opnd>,
    /// The destination components, if the message writes back.
    pub dest: Option<Vec<Reg>>,
    /// The boolean predicate, if any.
    pub pred: Option<Opnd>,
}

/// The vISA channel suffix of a mask: `R`, `RG`, `GBA`, ...
pub fn channels_text(cmask: u8) -> String {
    "RGBA"
        .chars()
        .enumerate()
        .filter(|(k, _)| cmask & (1 << k) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// The vISA name of an atomic operation (IGC `CISA.l`'s atomic sub-op names).
pub fn atomic_name(op: DpAtomicOp) -> &'static str {
    match op {
        DpAtomicOp::And => "and",
        DpAtomicOp::Or => "or",
        DpAtomicOp::Xor => "xor",
        DpAtomicOp::Mov => "xchg",
        DpAtomicOp::Inc => "inc",
        DpAtomicOp::Dec => "dec",
        DpAtomicOp::Add => "add",
        DpAtomicOp::Sub => "sub",
        DpAtomicOp::Imax => "maxsint",
        DpAtomicOp::Imin => "minsint",
        DpAtomicOp::Umax => "max",
        DpAtomicOp::Umin => "min",
        DpAtomicOp::Cmpwr => "cmpxchg",
        DpAtomicOp::Fmax => "fmax",
        DpAtomicOp::Fmin => "fmin",
        DpAtomicOp::Fcmpwr => "fcmpwr",
    }
}

/// The register element of a message's data: `ud` (`uq` for 64-bit atomics and 8-byte
/// scattered messages), read as `d` or `f` where the atomic operation needs it.
fn data_type(d: &DpDesc) -> VType {
    let wide = d.data_bits() == 64;
    if !d.msg.is_atomic() {
        return if wide { VType::Uq } else { VType::Ud };
    }
    match d.op {
        // GenX_IR 1.0.12504 takes 16-bit signed atomics on `ud` operands only ("Raw
        // Operand ... has incorrect type d").
        DpAtomicOp::Imax | DpAtomicOp::Imin if d.bits == 16 => VType::Ud,
        DpAtomicOp::Imax | DpAtomicOp::Imin if wide => VType::Q,
        DpAtomicOp::Imax | DpAtomicOp::Imin => VType::D,
        DpAtomicOp::Fmax | DpAtomicOp::Fmin | DpAtomicOp::Fcmpwr => VType::F,
        _ if wide => VType::Uq,
        _ => VType::Ud,
    }
}

/// A raw operand read as `ty`: `v5_d.0`.
fn raw_as(cx: &mut Ctx, r: Reg, ty: VType) -> String {
    let v = cx.decls.view(r.var, ty);
    format!("{}.{}", cx.decls.name(v), r.off)
}

/// The text of one message from its parts (also used by the descriptor tests): `pred`
/// a predicate name, `es` the execution size (`(M1, 16)`), `surface` the surface
/// operand (`T6`, `%slm`; ignored for A64), `addr` the address operands (U, V, R, LOD
/// padded with `%null.0`, or one address), `data` the data or atomic operands, `dst`
/// the destination.
pub fn format_message(
    d: &DpDesc,
    pred: Option<&str>,
    es: &str,
    surface: &str,
    addr: &[String],
    data: &[String],
    dst: Option<&str>,
) -> String {
    let null = "%null.0".to_string();
    let dst = dst.map(str::to_string).unwrap_or_else(|| null.clone());
    let arg = |k: usize, v: &[String]| v.get(k).cloned().unwrap_or_else(|| null.clone());
    let coords = || -> String { (0..4).map(|k| arg(k, addr)).collect::<Vec<_>>().join(" ") };
    let a0 = arg(0, addr);
    let ch = channels_text(d.cmask);
    let width = match d.bits {
        16 => ".16",
        64 if d.addr == DpAddr::A64 => ".64",
        _ => "",
    };
    let body = match (d.msg, d.addr) {
        (DpMsg::TypedRead, _) => format!("gather4_typed.{ch} {es}  {surface} {} {dst}", coords()),
        (DpMsg::TypedWrite, _) => format!(
            "scatter4_typed.{ch} {es}  {surface} {} {}",
            coords(),
            arg(0, data)
        ),
        (DpMsg::TypedAtomic, _) => format!(
            "typed_atomic.{}{width} {es}  {surface} {} {} {} {dst}",
            atomic_name(d.op),
            coords(),
            arg(0, data),
            arg(1, data)
        ),
        (DpMsg::UntypedRead, DpAddr::A64) => {
            format!("svm_gather4scaled.{ch} {es}  0x0:uq {a0} {dst}")
        }
        (DpMsg::UntypedRead, _) => format!("gather4_scaled.{ch} {es}  {surface} 0x0:ud {a0} {dst}"),
        (DpMsg::UntypedWrite, DpAddr::A64) => {
            format!("svm_scatter4scaled.{ch} {es}  0x0:uq {a0} {}", arg(0, data))
        }
        (DpMsg::UntypedWrite, _) => format!(
            "scatter4_scaled.{ch} {es}  {surface} 0x0:ud {a0} {}",
            arg(0, data)
        ),
        (DpMsg::UntypedAtomic, DpAddr::A64) => format!(
            "svm_atomic.{}{width} {es}  {a0} {dst} {} {}",
            atomic_name(d.op),
            arg(0, data),
            arg(1, data)
        ),
        (DpMsg::UntypedAtomic, _) => format!(
            "dword_atomic.{}{width} {es}  {surface} {a0} {} {} {dst}",
            atomic_name(d.op),
            arg(0, data),
            arg(1, data)
        ),
        (DpMsg::ByteScatteredRead, DpAddr::A64) => {
            format!("svm_gather.1.{} {es}  {a0} {dst}", d.bytes)
        }
        (DpMsg::ByteScatteredRead, _) => {
            format!(
                "gather_scaled.{} {es}  {surface} 0x0:ud {a0} {dst}",
                d.bytes
            )
        }
        (DpMsg::ByteScatteredWrite, DpAddr::A64) => {
            format!("svm_scatter.1.{} {es}  {a0} {}", d.bytes, arg(0, data))
        }
        (DpMsg::ByteScatteredWrite, _) => format!(
            "scatter_scaled.{} {es}  {surface} 0x0:ud {a0} {}",
            d.bytes,
            arg(0, data)
        ),
        (DpMsg::DwordScatteredRead, _) => format!("gather.4 {es}  {surface} 0x0:ud {a0} {dst}"),
        (DpMsg::DwordScatteredWrite, _) => {
            format!("scatter.4 {es}  {surface} 0x0:ud {a0} {}", arg(0, data))
        }
    };
    match pred {
        Some(p) => format!("({p}) {body}"),
        None => body,
    }
}

/// The surface operand's text, setting a binding-table surface variable first.
fn surface_text(cx: &mut Ctx, s: &DpSurface) -> String {
    match s {
        DpSurface::Bti { var, index } => {
            cx.decls.surface(var);
            cx.line(&format!("movs (M1_NM, 1) {var}(0) {index}"));
            var.clone()
        }
        DpSurface::Slm => "%slm".into(),
        DpSurface::Scratch => "%scratch".into(),
        DpSurface::Stateless => String::new(),
    }
}

/// Emits an access (see [`DpAccess`]).
pub fn emit_access(cx: &mut Ctx, a: &DpAccess) -> Result<(), EmitError> {
    let d = a.desc;
    let caps = cx.t.dataport.ok_or_else(|| {
        cx.err(EmitErrorKind::Platform {
            reason: format!(
                "{} has LSC messages, not the legacy data port's",
                cx.t.platform
            ),
        })
    })?;
    let dword_scattered = matches!(
        d.msg,
        DpMsg::DwordScatteredRead | DpMsg::DwordScatteredWrite
    );
    let pred = a.pred.map(|p| cx.pred_of(p));
    // vISA's dword gather and scatter take no predicate: the lanes whose predicate is
    // false skip them with a SIMD goto, waiting at its label.
    let skip = match (&pred, dword_scattered) {
        (Some(p), true) => {
            let label = cx.new_label("dp_skip");
            let es = cx.es();
            cx.line(&format!("(!{p}) goto {es} {label}"));
            Some(label)
        }
        _ => None,
    };
    let pred = if skip.is_some() { None } else { pred };
    let ty = data_type(&d);
    let addr_ty = VType::uint(d.addr_bits());
    // `a.atomic` is in the hardware's order; vISA's cmpxchg takes the new value first
    // (see the module documentation). Reversed here, once, so that no caller has to
    // know vISA's order.
    let mut atomic = a.atomic.clone();
    if d.msg.is_atomic() && d.op == DpAtomicOp::Cmpwr {
        atomic.reverse();
    }
    for c in payload::chunks(cx, max_simd(&caps, &d)) {
        let surface = surface_text(cx, &a.surface);
        let addr = address(cx, a, c, addr_ty, dword_scattered);
        let mut data = Vec::new();
        if !a.data.is_empty() {
            let r = payload::source(cx, c, &a.data, ty);
            data.push(raw_as(cx, r, ty));
        }
        for s in &atomic {
            let r = payload::source(cx, c, std::slice::from_ref(s), ty);
            data.push(raw_as(cx, r, ty));
        }
        let dest = a.dest.as_ref().map(|regs| payload::dest(cx, c, regs, ty));
        let dst = dest.as_ref().map(|p| raw_as(cx, p.reg, ty));
        let text = format_message(
            &d,
            pred.as_deref(),
            &c.es(),
            &surface,
            &addr,
            &data,
            dst.as_deref(),
        );
        cx.line(&text);
        if let Some(p) = dest {
            p.finish(cx);
        }
    }
    if let Some(label) = skip {
        cx.label(&label);
    }
    Ok(())
}

/// The address operands of chunk `c`: the typed coordinates as consecutive runs of one
/// payload, or the one address (in dwords for the dword scattered messages).
fn address(cx: &mut Ctx, a: &DpAccess, c: Chunk, ty: VType, in_dwords: bool) -> Vec<String> {
    if a.desc.msg.is_typed() {
        let r = payload::source(cx, c, &a.addr, VType::Ud);
        let run = payload::run_bytes(cx, c.n, 4);
        return (0..a.addr.len() as u32)
            .map(|k| cx.raw(r.at(k * run)))
            .collect();
    }
    let mut addr = a.addr[0];
    if in_dwords {
        let t = cx.temp(VType::Ud);
        cx.op("shr", t, VType::Ud, &[addr, Opnd::Imm(2)]);
        addr = Opnd::Reg(t);
    }
    let r = payload::source(cx, c, std::slice::from_ref(&addr), ty);
    vec![cx.raw(r)]
}

/// The binding-table surface of image operand `r`: its surface variable and index.
pub fn bti_surface(cx: &mut Ctx, r: ir::ImageRef) -> Result<DpSurface, EmitError> {
    let binding = cx
        .shader
        .images
        .get(r.image.index())
        .map(|d| d.binding)
        .ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("image {} is not declared", r.image.as_u32()),
            })
        })?;
    let var = format!("T{}", 6 + r.image.index());
    let index = cx.bti_index(binding, r.index)?;
    Ok(DpSurface::Bti { var, index })
}

/// Emits a `@dp_*` message intrinsic.
pub fn emit(
    cx: &mut Ctx,
    inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    check_message(cx.device, &cx.shader.images, cx.func, inst)
        .map_err(|e| cx.err(EmitErrorKind::Message(e.rule)))?;
    let msg =
        i.op.dp_msg()
            .ok_or_else(|| cx.unsupported("not a data-port message"))?;
    let d = DpDesc::from_indices(msg, &i.indices).map_err(|e| {
        cx.err(EmitErrorKind::Malformed {
            what: e.to_string(),
        })
    })?;
    let n = i.op.srcs(&i.indices).map_or(0, |s| s.len());
    if i.srcs.len() < n {
        return Err(cx.err(EmitErrorKind::Malformed {
            what: format!("`@{}` takes {n} sources", i.op),
        }));
    }
    let surface = if d.msg.is_typed() || d.addr == DpAddr::Bti {
        let r = i.image.ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("`@{}` names no surface", i.op),
            })
        })?;
        bti_surface(cx, r)?
    } else if d.addr == DpAddr::Slm {
        DpSurface::Slm
    } else {
        DpSurface::Stateless
    };
    let first = if d.msg.is_typed() { 4 } else { 1 };
    let mut addr = Vec::new();
    for s in &i.srcs[..first] {
        addr.push(cx.comp(*s, 0)?);
    }
    if d.msg.is_typed() {
        // IGC drops trailing typed coordinates that are the constant 0 (U stays).
        while addr.len() > 1 && addr.last() == Some(&Opnd::Imm(0)) {
            addr.pop();
        }
    }
    let mut data = Vec::new();
    if d.msg.has_data() {
        for c in 0..d.components() {
            data.push(cx.comp(i.srcs[first], c)?);
        }
    }
    // In the hardware's order, as the intrinsic's sources are; `emit_access` writes them
    // in vISA's.
    let mut atomic = Vec::new();
    for k in 0..d.num_atomic_srcs() {
        atomic.push(cx.comp(i.srcs[first + k], 0)?);
    }
    let dest = match dest {
        Some(v) => {
            let mut regs = Vec::new();
            for c in 0..d.components() {
                regs.push(cx.dest(v, c)?);
            }
            Some(regs)
        }
        None => None,
    };
    let pred = match i.srcs.get(n) {
        Some(p) => Some(cx.comp(*p, 0)?),
        None => None,
    };
    emit_access(
        cx,
        &DpAccess {
            desc: d,
            surface,
            addr,
            data,
            atomic,
            dest,
            pred,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_forms() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let typed = DpDesc::typed_read(0b0011);
        assert_eq!(
            format_message(
                &typed,
                None,
                "(M1, 8)",
                "T6",
                &s(&["t4.0", "t4.32"]),
                &[],
                Some("v9.0")
            ),
            "gather4_typed.RG (M1, 8)  T6 t4.0 t4.32 %null.0 %null.0 v9.0"
        );
        let atomic = DpDesc::typed_atomic(DpAtomicOp::Add, 16);
        assert_eq!(
            format_message(
                &atomic,
                Some("p1"),
                "(M3, 8)",
                "T6",
                &s(&["t4.0"]),
                &s(&["v5.0"]),
                Some("v9.0")
            ),
            "(p1) typed_atomic.add.16 (M3, 8)  T6 t4.0 %null.0 %null.0 %null.0 v5.0 %null.0 v9.0"
        );
        let svm = DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Cmpwr, 64);
        assert_eq!(
            format_message(
                &svm,
                None,
                "(M1, 8)",
                "",
                &s(&["v3.0"]),
                &s(&["v6.0", "v5.0"]),
                Some("v9.0")
            ),
            "svm_atomic.cmpxchg.64 (M1, 8)  v3.0 v9.0 v6.0 v5.0"
        );
        let dword = DpDesc::untyped_atomic(DpAddr::Slm, DpAtomicOp::Imax, 32);
        assert_eq!(
            format_message(
                &dword,
                None,
                "(M1, 16)",
                "%slm",
                &s(&["v3.0"]),
                &s(&["v5_d.0"]),
                None
            ),
            "dword_atomic.maxsint (M1, 16)  %slm v3.0 v5_d.0 %null.0 %null.0"
        );
        let bytes = DpDesc::byte_scattered_write(DpAddr::A64, 4);
        assert_eq!(
            format_message(
                &bytes,
                None,
                "(M1, 8)",
                "",
                &s(&["v3.0"]),
                &s(&["v5.0"]),
                None
            ),
            "svm_scatter.1.4 (M1, 8)  v3.0 v5.0"
        );
        let read = DpDesc::untyped_read(DpAddr::Bti, 0b1010);
        assert_eq!(
            format_message(
                &read,
                None,
                "(M1, 16)",
                "T7",
                &s(&["v3.0"]),
                &[],
                Some("v9.0")
            ),
            "gather4_scaled.GA (M1, 16)  T7 0x0:ud v3.0 v9.0"
        );
        assert_eq!(
            data_type(&DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Imin, 64)),
            VType::Q
        );
        assert_eq!(
            data_type(&DpDesc::untyped_atomic(DpAddr::Bti, DpAtomicOp::Fcmpwr, 32)),
            VType::F
        );
        assert_eq!(
            data_type(&DpDesc::byte_scattered_read(DpAddr::A64, 8)),
            VType::Uq
        );
    }
}
