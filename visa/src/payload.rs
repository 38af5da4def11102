//! Message payloads: a message of the kernel's SIMD width `W` split into messages of the
//! width the platform's legality table allows, and the register ranges each one reads
//! and writes.
//!
//! A message `n` lanes wide covering lanes `l .. l + n` runs under the execution mask
//! `M<1 + l/4>` (`(M3, 8)` for lanes 8 to 15; the predicate offset follows the mask,
//! IGC `documentation/visa/3_execution_model.md`). Its payload has one run of
//! `ceil(n * bytes / GRF)` registers per component. When a value's own layout is that
//! (`n == W`, or one component whose lanes start a register), the message reads or
//! writes the value's variable directly as a raw operand (`v12.64`); otherwise the
//! components are copied into a temporary payload first (sources) or out of it after
//! the message (destinations), under the same execution mask.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::vtype::VType;

/// One message of a split: lanes `lane0 .. lane0 + n`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Chunk {
    /// The first lane.
    pub lane0: u32,
    /// Lanes.
    pub n: u32,
}

impl Chunk {
    /// The execution size: `(M3, 8)`.
    pub fn es(self) -> String {
        format!("(M{}, {})", 1 + self.lane0 / 4, self.n)
    }
}

/// The messages covering the kernel's lanes at most `width` lanes each.
pub fn chunks(cx: &Ctx, width: u32) -> Vec<Chunk> {
    let n = width.min(cx.t.simd).max(1);
    (0..cx.t.simd / n)
        .map(|k| Chunk { lane0: k * n, n })
        .collect()
}

/// Bytes of one payload component of `n` lanes of `bytes`-byte elements.
pub fn run_bytes(cx: &Ctx, n: u32, bytes: u32) -> u32 {
    (n * bytes).div_ceil(cx.t.grf) * cx.t.grf
}

/// Whether `comps` (regions of one variable, `elem`-typed) are already the payload of
/// chunk `c`: consecutive component runs of the message's register pitch, starting at
/// a register boundary.
fn in_place(cx: &Ctx, c: Chunk, comps: &[Opnd], elem: VType) -> Option<Reg> {
    let eb = elem.bytes();
    let pitch = run_bytes(cx, c.n, eb);
    let Some(Opnd::Reg(first)) = comps.first().copied() else {
        return None;
    };
    let start = first.off + c.lane0 * eb;
    if first.stride != 1 || !start.is_multiple_of(cx.t.grf) {
        return None;
    }
    for (j, o) in comps.iter().enumerate() {
        match o {
            Opnd::Reg(r)
                if r.var == first.var
                    && r.stride == 1
                    && r.off + c.lane0 * eb == start + j as u32 * pitch => {}
            _ => return None,
        }
    }
    Some(Reg {
        var: first.var,
        off: start,
        stride: 1,
    })
}

/// Copies `n` lanes of one component (64-bit elements as two 32-bit halves).
fn mov_lanes(cx: &mut Ctx, es: &str, dst: Reg, src: Opnd, elem: VType) {
    if elem.bytes() == 8 {
        for hi in [false, true] {
            let d = Reg {
                off: dst.off + if hi { 4 } else { 0 },
                stride: 2,
                ..dst
            };
            let (dd, ss) = (cx.dst(d, VType::Ud), cx.src(src.half(hi), VType::Ud));
            cx.line(&format!("mov {es} {dd} {ss}"));
        }
    } else {
        let (dd, ss) = (cx.dst(dst, elem), cx.src(src, elem));
        cx.line(&format!("mov {es} {dd} {ss}"));
    }
}

/// The lanes of chunk `c` in a kernel-wide operand: lane `l` is `l * stride` elements
/// in (a half of 64-bit lanes has stride 2).
fn chunk_of(o: Opnd, c: Chunk, elem: VType) -> Opnd {
    match o {
        Opnd::Reg(r) if r.stride != 0 => Opnd::Reg(r.at(c.lane0 * r.stride * elem.bytes())),
        other => other,
    }
}

/// The registers of a source payload of `comps` components for chunk `c`: the
/// values' registers when they are laid out as the message reads them, else a
/// temporary filled with copies.
pub fn source(cx: &mut Ctx, c: Chunk, comps: &[Opnd], elem: VType) -> Reg {
    if let Some(r) = in_place(cx, c, comps, elem) {
        return r;
    }
    copied(cx, c, comps, elem)
}

/// The source payload of `comps` for chunk `c` as a whole variable: the value's own
/// variable when it is exactly the payload, else a temporary of the payload's size
/// filled with copies.
///
/// GenX_IR 1.0.12504 gives a typed LSC message (`lsc_store_quad.tgm`, the typed
/// atomics) as many data registers as the data operand's root declaration holds, not
/// the registers its shape needs (IGC `visa/VisaToG4/TranslateSendLdStLsc.cpp`,
/// `translateLscTypedInst`: `srcDataRegs` is the declaration's size; an alias does not
/// help, it counts its root). A SIMD32 kernel's `(M7, 8)` store of `v18.96:d32.x`
/// would read four registers from `v18`'s last one, past the variable, and past the
/// register file when the allocator puts `v18` at its top: the finalizer then crashes
/// in its scoreboard pass (`visa/tests/finalizer_crash.rs`). IGC's kernels do not meet
/// this: they build each typed write's data in a variable of its own, of the payload's
/// size (`visa/tests/crash/typed_store_simd32.cl`).
pub fn source_whole(cx: &mut Ctx, c: Chunk, comps: &[Opnd], elem: VType) -> Reg {
    let pitch = run_bytes(cx, c.n, elem.bytes());
    if let Some(r) = in_place(cx, c, comps, elem) {
        let root = cx.decls.root(r.var);
        if r.off == 0 && cx.decls.bytes(root) == pitch * comps.len() as u32 {
            return r;
        }
    }
    copied(cx, c, comps, elem)
}

/// A temporary payload of `comps` for chunk `c`, filled with copies, or the one an
/// earlier message of the same straight-line code built from the same operands: the
/// operands are SSA values and immediates, and nothing writes a payload after its
/// copies, so it still holds them (brw's CSE shares identical payloads the same way).
fn copied(cx: &mut Ctx, c: Chunk, comps: &[Opnd], elem: VType) -> Reg {
    let lanes = (c.lane0, c.n);
    if let Some(r) = cx.copied_payload(lanes, comps, elem) {
        return r;
    }
    let pitch = run_bytes(cx, c.n, elem.bytes());
    let t = cx.temp_bytes(elem, pitch * comps.len() as u32);
    let es = c.es();
    for (j, o) in comps.iter().enumerate() {
        // The copy runs under the chunk's mask, so its destination starts at the
        // temporary's first element while its source is read at the chunk's lanes;
        // regions are relative to the instruction's first channel.
        let dst = t.at(j as u32 * pitch);
        let src = chunk_of(*o, c, elem);
        mov_lanes(cx, &es, dst, src, elem);
    }
    cx.record_payload(lanes, comps, elem, t);
    t
}

/// Where a destination payload goes for chunk `c`: the registers the message writes,
/// and the copies to make after it (temporary run, value component) when the value's
/// layout is not the payload's.
pub struct DestPayload {
    /// The registers the message writes.
    pub reg: Reg,
    copies: Vec<(Reg, Reg)>,
    elem: VType,
    chunk: Chunk,
}

/// The destination payload of `comps` components (the destination value's component
/// regions) for chunk `c`.
pub fn dest(cx: &mut Ctx, c: Chunk, comps: &[Reg], elem: VType) -> DestPayload {
    let ops: Vec<Opnd> = comps.iter().map(|r| Opnd::Reg(*r)).collect();
    if let Some(r) = in_place(cx, c, &ops, elem) {
        return DestPayload {
            reg: r,
            copies: Vec::new(),
            elem,
            chunk: c,
        };
    }
    let pitch = run_bytes(cx, c.n, elem.bytes());
    let t = cx.temp_bytes(elem, pitch * comps.len() as u32);
    let copies = comps
        .iter()
        .enumerate()
        .map(|(j, r)| {
            (
                t.at(j as u32 * pitch),
                r.at(c.lane0 * r.stride * elem.bytes()),
            )
        })
        .collect();
    DestPayload {
        reg: t,
        copies,
        elem,
        chunk: c,
    }
}

impl DestPayload {
    /// Copies the payload into the value after the message, under the chunk's mask.
    pub fn finish(self, cx: &mut Ctx) {
        let es = self.chunk.es();
        for (from, to) in self.copies {
            mov_lanes(cx, &es, to, Opnd::Reg(from), self.elem);
        }
    }
}
