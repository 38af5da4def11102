//! Subgroup shuffles and quad operations (`shuffle`, `shuffle_xor`, `shuffle_up`,
//! `shuffle_down`, `quad_broadcast`, `quad_swap_*`), as IGC emits OpenCL's
//! `sub_group_shuffle` and `intel_sub_group_shuffle_up/down` (its `.visaasm` for DG2:
//! the byte offset of each lane's source lane in an address register, then one `mov`
//! whose source is that lane's own address, the `VxH` region `<1,0>`):
//!
//! ```text
//! mov (M1_NM, 16) t1(0,0)<1> v3(0,0)<1;1,0>         // the value, in the staging variable
//! xor (M1, 16) t2(0,0)<1> t0(0,0)<1;1,0>:uw v5(..)  // the source lane: lane ^ mask
//! and (M1, 16) t2(0,0)<1> t2(0,0)<1;1,0> 0xf:ud     // kept inside the variable
//! shl (M1, 16) t3(0,0)<1>:uw t2(0,0)<1;1,0> 0x2:ud  // its byte offset
//! addr_add (M1, 16) A0(0)<1> &t1 t3(0,0)<1;1,0>
//! mov (M1, 16) v4(0,0)<1> r[A0(0),0]<1,0>:ud
//! ```
//!
//! Every shuffle of the kernel copies its value into the same staging variable (of
//! `W` qwords): GenX_IR keeps a variable whose address is taken live well past its
//! last indirect read, and with a variable per shuffle a SIMD32 kernel of a few dozen
//! shuffles spilled kilobytes on every platform.
//!
//! The address register holds 16 addresses, so a SIMD32 kernel does the last two
//! instructions once per half (`M1` and `M5`). A 64-bit value moves as its two dword
//! halves (`r[A0(0),0]` and `r[A0(0),4]` into every other dword of the result), which
//! needs no 64-bit regioning on the platforms without it.
//!
//! Where the source lane is out of range the IR leaves the result undefined
//! (`ir::subgroup`); the index is masked to the kernel's width so that the read stays
//! inside the value's variable (IGC does not mask; its reads past the variable read
//! other registers). Where the source lane is inactive the lane reads what that lane's
//! register holds (the value is staged without the execution mask), undefined in
//! SPIR-V but what the lane computed before it left, as brw's shuffle reads it. A value that is the same in every lane (a
//! constant or a uniform scalar) is simply copied, and a `shuffle` by a constant index
//! or a `quad_broadcast` by one is a regioned `mov`, `<0;1,0>` or `<4;4,0>`, as IGC's
//! `sub_group_broadcast`.
//!
//! A quad swap of 16- or 32-bit lanes needs no addresses: strided moves exchange the
//! quads' lanes, as brw's (see `swap_by_regions`).
//!
//! Values of 32 bits (and booleans, stored as dwords) and 64 bits are moved; 8- and
//! 16-bit values are moved as dwords, zero-extended into a temporary and truncated back
//! (a move of bits: the lanes' values are unchanged).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::vtype::VType;
use ir::subgroup::ShuffleKind;
use ir::{IntrinsicInst, Value};

/// The address variable every shuffle uses (16 addresses, or the kernel's width).
const ADDR: &str = "A0";

/// Emits a shuffle or quad operation into `dest`.
pub fn emit(cx: &mut Ctx, i: &IntrinsicInst, dest: Value) -> Result<(), EmitError> {
    let kind =
        i.op.shuffle_kind()
            .ok_or_else(|| cx.unsupported(format!("`@{}` is not a shuffle", i.op)))?;
    let ty = cx.func.value_type(dest);
    let bits = ty.bit_size();
    if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
        return Err(cx.unsupported(format!(
            "a subgroup `@{}` of {bits}-bit values (the back end moves 8- to 64-bit lanes)",
            i.op
        )));
    }
    if let ShuffleKind::QuadSwap(k) = kind {
        if swap_by_regions(cx, i, dest, k, bits)? {
            return Ok(());
        }
    }
    // 8- and 16-bit lanes move as dwords.
    let narrow = matches!(bits, 8 | 16).then(|| VType::uint(bits));
    let bits = if narrow.is_some() { 32 } else { bits };
    let value = *i
        .srcs
        .first()
        .ok_or_else(|| cx.unsupported(format!("`@{}` without a value", i.op)))?;
    let operand = if kind.has_operand() {
        let s = *i
            .srcs
            .get(1)
            .ok_or_else(|| cx.unsupported(format!("`@{}` without its lane operand", i.op)))?;
        Some(cx.comp(s, 0)?)
    } else {
        None
    };
    let w = cx.t.simd;
    // The source lane's offset, computed once for every component (`None`: the value is
    // the same in every lane, or the lane is a constant one).
    let mut offsets: Option<Reg> = None;
    for c in 0..ty.num_components() {
        let (x, d) = match narrow {
            None => (cx.comp(value, c)?, cx.dest(dest, c)?),
            Some(nt) => match cx.comp(value, c)? {
                Opnd::Imm(k) => (
                    Opnd::Imm(k & ((1 << ty.bit_size()) - 1)),
                    cx.temp(VType::Ud),
                ),
                x => {
                    // Every lane's value, the inactive ones' too, as the staging copy
                    // below takes them.
                    let wide = cx.temp(VType::Ud);
                    let es = cx.es().replace("(M1,", "(M1_NM,");
                    let (d, s) = (cx.dst(wide, VType::Ud), cx.src(x, nt));
                    cx.line(&format!("mov {es} {d} {s}"));
                    (Opnd::Reg(wide), cx.temp(VType::Ud))
                }
            },
        };
        move_lanes(cx, kind, operand, w, bits, x, d, &mut offsets)?;
        if let Some(nt) = narrow {
            let nd = cx.dest(dest, c)?;
            let es = cx.es();
            let (dst, src) = (cx.dst(nd, nt), cx.src(Opnd::Reg(d), VType::Ud));
            cx.line(&format!("mov {es} {dst} {src}"));
        }
    }
    Ok(())
}

/// Moves each lane's source lane of `x` (of `bits` bits: 32, or 64 as dword halves)
/// into `d`; `offsets` holds the source lanes' byte offsets once computed.
#[allow(clippy::too_many_arguments)]
fn move_lanes(
    cx: &mut Ctx,
    kind: ShuffleKind,
    operand: Option<Opnd>,
    w: u32,
    bits: u8,
    x: Opnd,
    d: Reg,
    offsets: &mut Option<Reg>,
) -> Result<(), EmitError> {
    {
        let halves: &[bool] = if bits == 64 { &[false, true] } else { &[false] };
        match x {
            // The same value in every lane: every defined result is that value.
            Opnd::Imm(_) | Opnd::Reg(Reg { stride: 0, .. }) => {
                // A 64-bit value as its halves, as below.
                for &hi in halves {
                    let (dd, s) = if bits == 64 {
                        (d.half(hi), x.half(hi))
                    } else {
                        (d, x)
                    };
                    cx.op("mov", dd, VType::Ud, &[s]);
                }
                return Ok(());
            }
            Opnd::Reg(r) => {
                if let Some((first, region)) = constant_region(kind, operand, w, bits == 64) {
                    for &hi in halves {
                        let (dd, from) = if bits == 64 {
                            (d.half(hi), r.at(first * 4 + if hi { 4 } else { 0 }))
                        } else {
                            (d, r.at(first * 4))
                        };
                        let src = cx.src(Opnd::Reg(Reg { stride: 1, ..from }), VType::Ud);
                        // `name(row,col)` with the broadcast's region.
                        let src = src.replace("<1;1,0>", region);
                        let dst = cx.dst(dd, VType::Ud);
                        let es = cx.es();
                        cx.line(&format!("mov {es} {dst} {src}"));
                    }
                    return Ok(());
                }
            }
        }
        let Opnd::Reg(r) = x else { return Ok(()) };
        let off = match *offsets {
            Some(o) => o,
            None => {
                let o = source_offsets(cx, kind, operand, if bits == 64 { 8 } else { 4 })?;
                *offsets = Some(o);
                o
            }
        };
        // The value in the kernel's staging variable, which the addresses point into.
        let t = match cx.shuffle_staging {
            Some(t) => {
                cx.lifetime_start(t.var);
                t
            }
            None => {
                let t = cx.temp(VType::Uq);
                cx.shuffle_staging = Some(t);
                t
            }
        };
        // Every lane's value, the inactive ones' too (`NoMask`): a lane may read an
        // inactive lane's, which SPIR-V leaves undefined but the register holds (what
        // the lane computed before it left), as brw's shuffle reads it.
        let es = cx.es().replace("(M1,", "(M1_NM,");
        for &hi in halves {
            let (dt, s) = if bits == 64 {
                (t.half(hi), Opnd::Reg(r).half(hi))
            } else {
                (t, Opnd::Reg(r))
            };
            let (d, v) = (cx.dst(dt, VType::Ud), cx.src(s, VType::Ud));
            cx.line(&format!("mov {es} {d} {v}"));
        }
        let t_name = cx.decls.name(cx.decls.root(t.var)).to_string();
        cx.decls.addr(ADDR, w.min(16));
        let mut lane = 0;
        while lane < w {
            let n = (w - lane).min(16);
            let es = format!("(M{}, {n})", 1 + lane / 4);
            let o = cx.src(Opnd::Reg(off.at(lane * 2)), VType::Uw);
            cx.line(&format!("addr_add {es} {ADDR}(0)<1> &{t_name} {o}"));
            for &hi in halves {
                let dd = if bits == 64 {
                    d.at(lane * 8).half(hi)
                } else {
                    d.at(lane * 4)
                };
                let dst = cx.dst(dd, VType::Ud);
                let at = if hi { 4 } else { 0 };
                cx.line(&format!("mov {es} {dst} r[{ADDR}(0),{at}]<1,0>:ud"));
            }
            lane += n;
        }
    }
    Ok(())
}

/// The dword (of the value's first lane) and the region from which every lane reads its
/// source lane directly, for a shuffle by a constant lane (`<0;1,0>` from that lane) or
/// a quad broadcast by one (from that lane of each quad: `<4;4,0>`, or `<8;4,0>` over
/// the low or high dwords of 64-bit lanes); `None` for the others. An out-of-range
/// constant reads lane `index & (W - 1)` or `index & 3`: the result is undefined.
fn constant_region(
    kind: ShuffleKind,
    operand: Option<Opnd>,
    w: u32,
    wide: bool,
) -> Option<(u32, &'static str)> {
    let Some(Opnd::Imm(k)) = operand else {
        return None;
    };
    let per_lane = if wide { 2 } else { 1 };
    match kind {
        ShuffleKind::Index => Some((((k as u32) & (w - 1)) * per_lane, "<0;1,0>")),
        ShuffleKind::QuadBroadcast => Some((
            ((k as u32) & 3) * per_lane,
            if wide { "<8;4,0>" } else { "<4;4,0>" },
        )),
        _ => None,
    }
}

/// A quad swap as regioned moves, as brw emits `quad_swap_*` on Gfx11+
/// (`brw_fs_generator.cpp`, `generate_quad_swizzle`): one `NoMask` move per lane of the
/// quad, each writing that lane of every quad from its partner's (`<4;1,0>` into
/// `<4>`; a horizontal swap needs two, `<2;1,0>` into `<2>`), into a temporary, then
/// one move under the execution mask into the result. The moves are `NoMask` because
/// their channels are quads, not lanes: channel `i` of a strided move writes lane
/// `4i + c`, so the execution mask's bit `i` is not that lane's. No address register,
/// no lane index. 8- and 64-bit lanes, and a value the same in every lane, take the
/// general path (`false`).
fn swap_by_regions(
    cx: &mut Ctx,
    i: &IntrinsicInst,
    dest: Value,
    k: u32,
    bits: u8,
) -> Result<bool, EmitError> {
    let elem = match bits {
        1 | 32 => VType::Ud,
        16 => VType::Uw,
        // A 64-bit lane's dwords would need a destination stride of eight, past the
        // hardware's four.
        _ => return Ok(false),
    };
    let Some(&value) = i.srcs.first() else {
        return Ok(false);
    };
    let ty = cx.func.value_type(dest);
    let mut parts = Vec::with_capacity(usize::from(ty.num_components()));
    for c in 0..ty.num_components() {
        match cx.comp(value, c)? {
            Opnd::Reg(r) if r.stride == 1 => parts.push(r),
            _ => return Ok(false),
        }
    }
    let w = cx.t.simd;
    let eb = elem.bytes();
    // Lanes per move: a region may span two registers.
    let chunk = w.min(2 * cx.t.grf / eb);
    // The swap's period in lanes: a horizontal swap repeats every two.
    let period = if k == 1 { 2 } else { 4 };
    for (c, x) in (0u8..).zip(parts) {
        let t = cx.temp(elem);
        for lane0 in (0..w).step_by(chunk as usize) {
            for l in 0..period {
                let d = Reg {
                    stride: period,
                    ..t.at((lane0 + l) * eb)
                };
                let s = Reg {
                    stride: period,
                    ..x.at((lane0 + (l ^ k)) * eb)
                };
                let (d, s) = (cx.dst(d, elem), cx.src(Opnd::Reg(s), elem));
                cx.line(&format!("mov (M1_NM, {}) {d} {s}", chunk / period));
            }
        }
        let d = cx.dest(dest, c)?;
        cx.op("mov", d, elem, &[Opnd::Reg(t)]);
    }
    Ok(true)
}

/// A fresh `uw` temporary holding, in each lane, the byte offset (`bytes` per lane)
/// of the lane it reads, its index masked to the kernel's width.
fn source_offsets(
    cx: &mut Ctx,
    kind: ShuffleKind,
    operand: Option<Opnd>,
    bytes: u32,
) -> Result<Reg, EmitError> {
    let w = cx.t.simd;
    let ud = VType::Ud;
    let es = cx.es();
    let idx = cx.temp(ud);
    let di = cx.dst(idx, ud);
    let si = cx.src(Opnd::Reg(idx), ud);
    let op = |cx: &mut Ctx, o: Opnd| cx.src(o, ud);
    match (kind, operand) {
        (ShuffleKind::Index, Some(o)) => {
            // The lane itself, kept inside the variable.
            let s = op(cx, o);
            cx.line(&format!("and {es} {di} {s} {}", ud.imm(u64::from(w - 1))));
        }
        (ShuffleKind::QuadSwap(k), _) => {
            let l = crate::sysval::lane_ids(cx);
            let sl = cx.src(Opnd::Reg(l), VType::Uw);
            cx.line(&format!("xor {es} {di} {sl} {}", ud.imm(u64::from(k))));
        }
        (kind, Some(o)) => {
            let l = crate::sysval::lane_ids(cx);
            let sl = cx.src(Opnd::Reg(l), VType::Uw);
            let s = op(cx, o);
            match kind {
                ShuffleKind::Xor => cx.line(&format!("xor {es} {di} {sl} {s}")),
                ShuffleKind::Down => cx.line(&format!("add {es} {di} {sl} {s}")),
                ShuffleKind::Up => match o {
                    Opnd::Imm(k) => {
                        let neg = ud.imm(0u64.wrapping_sub(k) & 0xffff_ffff);
                        cx.line(&format!("add {es} {di} {sl} {neg}"));
                    }
                    Opnd::Reg(_) => {
                        let sd = cx.src(o, VType::D);
                        cx.line(&format!("add {es} {di} {sl} (-){sd}"));
                    }
                },
                _ => {
                    // `quad_broadcast`: the quad's first lane plus the index.
                    cx.line(&format!("and {es} {di} {sl} {}", ud.imm(0xfffc)));
                    cx.line(&format!("add {es} {di} {si} {s}"));
                }
            }
        }
        (_, None) => {
            return Err(cx.unsupported("a shuffle without its lane operand"));
        }
    }
    if kind != ShuffleKind::Index {
        cx.line(&format!("and {es} {di} {si} {}", ud.imm(u64::from(w - 1))));
    }
    let off = cx.temp(VType::Uw);
    let doff = cx.dst(off, VType::Uw);
    let shift = bytes.trailing_zeros();
    cx.line(&format!(
        "shl {es} {doff} {si} {}",
        ud.imm(u64::from(shift))
    ));
    Ok(off)
}
