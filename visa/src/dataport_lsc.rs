//! The back end's own LSC-shaped accesses (those of [`crate::memory`]: global, SSBO,
//! UBO and shared memory, push constants, parameter blocks; flat, or a buffer's
//! binding-table surface) on a platform without LSC:
//! the data-port messages the lowering's plan gives them
//! ([`lowering::messages::dataport::plan_legacy`], the same plan the `lower-dataport`
//! rewrite of the IR follows), emitted by [`crate::dataport`].
//!
//! - `d32`/`d64` vectors: untyped surface messages of up to four dwords, one per
//!   16-byte window, each at the address plus its window's offset; 64-bit components
//!   travel as their two dwords (the low half first), read and written with a stride of
//!   two dwords in the value;
//! - `d8`/`d16` components: byte scattered messages of 1 or 2 bytes, the data
//!   zero-extended into (or truncated from) a dword per lane;
//! - atomics: one untyped atomic (`dword_atomic`, `svm_atomic`), its operands in the
//!   hardware's order (compare, then new value), which [`crate::dataport`] writes in
//!   vISA's (`cmpxchg` takes the new value first);
//! - the LSC message's immediate offset is added to the address (the legacy messages
//!   have none).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::dataport::{emit_access as emit_dp, DpAccess, DpSurface};
use crate::error::{EmitError, EmitErrorKind};
use crate::lsc::{Access, Surface};
use crate::vtype::VType;
use ir::dataport::DpAddr;
use ir::lsc::DataSize;
use lowering::messages::dataport::legacy::{Access as Plan, Dword, Window};
use lowering::messages::dataport::plan_legacy;

const UD: VType = VType::Ud;

/// Emits LSC-shaped access `a` as legacy data-port messages.
pub fn emit_access(cx: &mut Ctx, a: &Access) -> Result<(), EmitError> {
    let caps = cx.t.dataport.ok_or_else(|| {
        cx.err(EmitErrorKind::Platform {
            reason: format!("{} has no legacy data port", cx.t.platform),
        })
    })?;
    let plan = plan_legacy(&caps, &cx.t.platform, &a.m).map_err(|rule| {
        cx.err(EmitErrorKind::Message(
            lowering::messages::MessageRule::Dataport(rule),
        ))
    })?;
    if a.pitch.is_some() || plan.atomic_load {
        return Err(cx.unsupported(
            "the back end's own memory accesses are plain loads, stores and atomics",
        ));
    }
    let addr_model = plan
        .addr
        .ok_or_else(|| cx.unsupported("typed messages are the lowering's, not the back end's"))?;
    let surface = match (a.surface, addr_model) {
        (Surface::Flat, DpAddr::Slm) => DpSurface::Slm,
        (Surface::Flat, DpAddr::A64) => DpSurface::Stateless,
        // A buffer's surface: one surface variable after the images' serves them all,
        // set before each message.
        (Surface::Bti(b), DpAddr::Bti) => DpSurface::Bti {
            var: format!("T{}", 6 + cx.shader.images.len()),
            index: UD.imm(u64::from(b)),
        },
        _ => {
            return Err(cx.unsupported(
                "the back end's own memory accesses are flat (global or shared memory) or buffer surfaces",
            ))
        }
    };
    let base = a.addr.first().copied().ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: "an access without an address".into(),
        })
    })?;
    let bits = plan.addr_bits;
    match &plan.access {
        Plan::Dwords {
            wide,
            dwords,
            windows,
        } => {
            for w in windows {
                let addr = offset_address(cx, base, bits, plan.offset + w.offset as i64);
                let dp = window_access(a, *wide, dwords, w, &surface, addr);
                emit_dp(cx, &dp)?;
            }
            Ok(())
        }
        Plan::Narrow { desc, size } => {
            let addr = offset_address(cx, base, bits, plan.offset);
            let elem = if *size == DataSize::D16 {
                VType::Uw
            } else {
                VType::Ub
            };
            if plan.load {
                let dest = a.dest.as_ref().and_then(|d| d.first().copied());
                let t = cx.temp(UD);
                emit_dp(
                    cx,
                    &DpAccess {
                        desc: *desc,
                        surface,
                        addr: vec![addr],
                        data: Vec::new(),
                        atomic: Vec::new(),
                        dest: Some(vec![t]),
                        pred: a.pred,
                    },
                )?;
                if let Some(d) = dest {
                    // The low bytes; those above are undefined.
                    cx.op_typed("mov", (d, elem), &[(Opnd::Reg(t), UD)]);
                }
            } else {
                let data = a.data.first().copied().ok_or_else(|| {
                    cx.err(EmitErrorKind::Malformed {
                        what: "a store without data".into(),
                    })
                })?;
                let t = cx.temp(UD);
                cx.op_typed("mov", (t, UD), &[(data, elem)]);
                emit_dp(
                    cx,
                    &DpAccess {
                        desc: *desc,
                        surface,
                        addr: vec![addr],
                        data: vec![Opnd::Reg(t)],
                        atomic: Vec::new(),
                        dest: None,
                        pred: a.pred,
                    },
                )?;
            }
            Ok(())
        }
        Plan::Atomic(desc) => {
            let addr = offset_address(cx, base, bits, plan.offset);
            // The operands stay in the hardware's order: `emit_dp` writes vISA's.
            emit_dp(
                cx,
                &DpAccess {
                    desc: *desc,
                    surface,
                    addr: vec![addr],
                    data: Vec::new(),
                    atomic: a.atomic.clone(),
                    dest: a.dest.clone(),
                    pred: a.pred,
                },
            )
        }
        _ => Err(cx.unsupported("typed messages are the lowering's, not the back end's")),
    }
}

/// The message of one window: its dwords of the data or of the destination.
fn window_access(
    a: &Access,
    wide: bool,
    dwords: &[Dword],
    w: &Window,
    surface: &DpSurface,
    addr: Opnd,
) -> DpAccess {
    let mut data = Vec::new();
    let mut dest = Vec::new();
    for &k in &w.dwords {
        let dw = dwords[k];
        let c = usize::from(dw.component);
        if let Some(o) = a.data.get(c) {
            data.push(if wide { o.half(dw.half == 1) } else { *o });
        }
        if let Some(r) = a.dest.as_ref().and_then(|d| d.get(c)) {
            dest.push(if wide {
                Reg {
                    off: r.off + 4 * u32::from(dw.half),
                    stride: if r.stride == 0 { 0 } else { 2 },
                    ..*r
                }
            } else {
                *r
            });
        }
    }
    DpAccess {
        desc: w.desc,
        surface: surface.clone(),
        addr: vec![addr],
        data,
        atomic: Vec::new(),
        dest: a.dest.as_ref().map(|_| dest),
        pred: a.pred,
    }
}

/// `base + delta` per lane, in the address's width (`bits`: 32 or 64).
fn offset_address(cx: &mut Ctx, base: Opnd, bits: u8, delta: i64) -> Opnd {
    if delta == 0 {
        return base;
    }
    if bits == 32 {
        let t = cx.temp(UD);
        cx.op("add", t, UD, &[base, Opnd::Imm(delta as u64 & 0xffff_ffff)]);
        return Opnd::Reg(t);
    }
    // 64-bit: the low halves with a carry into the high ones (no 64-bit integer add
    // on ICL and TGL, IGC `HWCaps.inc` `noInt64`).
    let d = cx.temp(VType::Uq);
    let carry = cx.temp(UD);
    let es = cx.es();
    let (lo, hi) = (
        Reg { stride: 2, ..d },
        Reg {
            stride: 2,
            ..d.at(4)
        },
    );
    let delta = delta as u64;
    let (dl, dc, bl) = (
        cx.dst(lo, UD),
        cx.dst(carry, UD),
        cx.src(base.half(false), UD),
    );
    cx.line(&format!(
        "addc {es} {dl} {dc} {bl} {}",
        UD.imm(delta & 0xffff_ffff)
    ));
    cx.op_add3(
        hi,
        UD,
        [base.half(true), Opnd::Reg(carry), Opnd::Imm(delta >> 32)],
    );
    Opnd::Reg(d)
}

/// A uniform load of `comps` dwords at `addr + offset` (`addr` a 64-bit scalar in a
/// register of its own) into the scalar elements of variable `var`: A64 untyped
/// reads of up to four dwords, each channel in a register of its own, copied into
/// place. The message runs on eight lanes without mask, all at the one address: GenX_IR
/// 1.0.12504 does not finish compiling an `svm_gather4scaled` of one lane.
pub fn uniform_load(
    cx: &mut Ctx,
    var: crate::decl::VarId,
    addr: Reg,
    offset: i32,
    comps: u8,
) -> Result<(), EmitError> {
    let grf = cx.t.grf;
    let mut first = 0u8;
    while first < comps {
        let n = (comps - first).min(4);
        let delta = (i64::from(offset) + 4 * i64::from(first)) as u64;
        let t = lane_gather(cx, addr, Opnd::Imm(delta), n);
        for k in 0..u32::from(n) {
            let dst = Reg {
                var,
                off: 4 * (u32::from(first) + k),
                stride: 1,
            };
            let (dd, ss) = (
                cx.dst(dst, UD),
                cx.src(
                    Opnd::Reg(Reg {
                        off: k * grf,
                        stride: 0,
                        ..t
                    }),
                    UD,
                ),
            );
            cx.line(&format!("mov (M1_NM, 1) {dd} {ss}"));
        }
        first += n;
    }
    Ok(())
}

/// An A64 untyped read of `n` (1 to 4) dwords per lane on eight lanes without mask,
/// lane `l` at `addr + offset[l]` (`addr` a 64-bit scalar; `offset` a byte offset for
/// every lane, or a register of eight `ud` offsets below 4 GiB); returns the temporary
/// whose register `c` holds dword `c` of every lane.
pub fn lane_gather(cx: &mut Ctx, addr: Reg, offset: Opnd, n: u8) -> Reg {
    // The address of each of the eight lanes, as the message reads them: the low
    // halves with a carry into the high ones, without mask (the scalar is valid
    // whichever lanes are active). The payload is a `uq` variable, the type
    // `SVM_GATHER4_SCALED.md` gives the element offsets, written through `ud` views.
    let at = cx.temp_bytes(VType::Uq, 64);
    let carry = cx.temp_bytes(UD, 32);
    let half = |hi: bool| Reg {
        off: addr.off + if hi { 4 } else { 0 },
        stride: 0,
        ..addr
    };
    let (lo, hi) = (
        Reg { stride: 2, ..at },
        Reg {
            stride: 2,
            ..at.at(4)
        },
    );
    let (dl, dc, al) = (
        cx.dst(lo, UD),
        cx.dst(carry, UD),
        cx.src(Opnd::Reg(half(false)), UD),
    );
    let (low, high) = match offset {
        Opnd::Imm(delta) => (UD.imm(delta & 0xffff_ffff), Some(UD.imm(delta >> 32))),
        Opnd::Reg(r) => (cx.src(Opnd::Reg(Reg { stride: 1, ..r }), UD), None),
    };
    cx.line(&format!("addc (M1_NM, 8) {dl} {dc} {al} {low}"));
    let (dh, ah, c) = (
        cx.dst(hi, UD),
        cx.src(Opnd::Reg(half(true)), UD),
        cx.src(Opnd::Reg(carry), UD),
    );
    match high {
        Some(high) => cx.add3("", "(M1_NM, 8)", &dh, [&ah, &c, &high]),
        // Offsets below 4 GiB: the high half takes the carry alone.
        None => cx.line(&format!("add (M1_NM, 8) {dh} {ah} {c}")),
    }
    let t = cx.temp_bytes(UD, cx.t.grf * u32::from(n));
    let desc = ir::dataport::DpDesc::untyped_read(DpAddr::A64, (1u8 << n) - 1);
    let text = crate::dataport::format_message(
        &desc,
        None,
        "(M1_NM, 8)",
        "",
        &[cx.raw(at)],
        &[],
        Some(&cx.raw(t)),
    );
    cx.line(&text);
    t
}
