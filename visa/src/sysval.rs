//! System values: invocation and workgroup ids, counts and subgroup facts.
//!
//! The local ids are the per-thread inputs (`u16` per lane), the workgroup ids vISA's
//! predefined `%group_id_x/y/z`, the workgroup counts a cross-thread input; the
//! workgroup size is the shader's `local_size`, a constant. A subgroup is one hardware
//! thread of the kernel's SIMD width `W`, and the ABI has thread `t` of a workgroup run
//! the invocations of linear local index `t*W .. t*W + W - 1` in lane order, so the
//! subgroup id is the local index divided by `W`, and the invocation's lane is its
//! SIMD channel.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::vtype::VType;
use ir::{IntrinsicOp, Value};

const UD: VType = VType::Ud;

/// Whether `op` is a system value this module emits.
pub fn handles(op: IntrinsicOp) -> bool {
    use IntrinsicOp::*;
    matches!(
        op,
        LoadGlobalInvocationId
            | LoadLocalInvocationId
            | LoadWorkgroupId
            | LoadNumWorkgroups
            | LoadLocalInvocationIndex
            | LoadSubgroupInvocation
            | LoadSubgroupId
            | LoadNumSubgroups
            | LoadSubgroupSize
    )
}

/// The predefined workgroup id of `axis`, broadcast.
fn group_id(axis: usize) -> String {
    format!("%group_id_{}(0,0)<0;1,0>", ["x", "y", "z"][axis])
}

/// Emits the system value `op` into `dest`.
pub fn emit(cx: &mut Ctx, op: IntrinsicOp, dest: Value) -> Result<(), EmitError> {
    use IntrinsicOp::*;
    let es = cx.es();
    let size = cx.shader.local_size;
    match op {
        LoadLocalInvocationId => {
            for axis in 0..3 {
                let d = cx.dest(dest, axis as u8)?;
                let id = local_id(cx, axis);
                cx.op_typed("mov", (d, UD), &[(id, VType::Uw)]);
            }
        }
        LoadWorkgroupId => {
            for axis in 0..3 {
                let d = cx.dest(dest, axis as u8)?;
                let dd = cx.dst(d, UD);
                cx.line(&format!("mov {es} {dd} {}", group_id(axis)));
            }
        }
        LoadGlobalInvocationId => {
            // group_id * local_size + local_id in one `mad` (GenX_IR encodes it as one
            // instruction from Gfx11 and as `mul` + `add` before, what it replaces);
            // along an axis of size 1 the local id is 0.
            for (axis, &n) in size.iter().enumerate() {
                let d = cx.dest(dest, axis as u8)?;
                let dd = cx.dst(d, UD);
                if n == 1 {
                    cx.line(&format!("mov {es} {dd} {}", group_id(axis)));
                    continue;
                }
                let id = local_id(cx, axis);
                let sid = cx.src(id, VType::Uw);
                cx.line(&format!(
                    "mad {es} {dd} {} {} {sid}",
                    group_id(axis),
                    UD.imm(u64::from(n))
                ));
            }
        }
        LoadNumWorkgroups => {
            let var = cx.abi.num_workgroups(&mut cx.decls);
            for axis in 0..3u32 {
                let d = cx.dest(dest, axis as u8)?;
                let s = Reg {
                    var,
                    off: axis * 4,
                    stride: 0,
                };
                cx.op("mov", d, UD, &[Opnd::Reg(s)]);
            }
        }
        LoadLocalInvocationIndex => {
            let d = cx.dest(dest, 0)?;
            local_index(cx, d);
        }
        LoadSubgroupInvocation => {
            let d = cx.dest(dest, 0)?;
            let t = lane_ids(cx);
            cx.op_typed("mov", (d, UD), &[(Opnd::Reg(t), VType::Uw)]);
        }
        LoadSubgroupId => {
            let d = cx.dest(dest, 0)?;
            local_index(cx, d);
            let sh = cx.t.simd.trailing_zeros();
            cx.op("shr", d, UD, &[Opnd::Reg(d), Opnd::Imm(u64::from(sh))]);
        }
        LoadNumSubgroups => {
            let d = cx.dest(dest, 0)?;
            let wg: u64 = size.iter().map(|&s| u64::from(s)).product();
            let n = wg.div_ceil(u64::from(cx.t.simd));
            cx.op("mov", d, UD, &[Opnd::Imm(n)]);
        }
        LoadSubgroupSize => {
            let d = cx.dest(dest, 0)?;
            let w = u64::from(cx.t.simd);
            cx.op("mov", d, UD, &[Opnd::Imm(w)]);
        }
        other => {
            return Err(cx.unsupported(format!("`@{other}` is not a system value")));
        }
    }
    Ok(())
}

/// The per-lane local id of `axis`.
fn local_id(cx: &mut Ctx, axis: usize) -> Opnd {
    Opnd::Reg(Reg {
        var: cx.abi.local_id(axis),
        off: 0,
        stride: 1,
    })
}

/// `d = x + y * size_x + z * size_x * size_y`, one `mad` per axis whose local id
/// can be other than 0.
fn local_index(cx: &mut Ctx, d: Reg) {
    let [sx, sy, sz] = cx.shader.local_size;
    let mut acc = local_id(cx, 0);
    let mut acc_ty = VType::Uw;
    for (axis, size, stride) in [(1, sy, sx), (2, sz, sx * sy)] {
        if size == 1 {
            continue;
        }
        let id = local_id(cx, axis);
        let last = axis == 2 || sz == 1;
        let t = if last { d } else { cx.temp(UD) };
        cx.op_typed(
            "mad",
            (t, UD),
            &[
                (id, VType::Uw),
                (Opnd::Imm(u64::from(stride)), UD),
                (acc, acc_ty),
            ],
        );
        acc = Opnd::Reg(t);
        acc_ty = UD;
    }
    if acc_ty == VType::Uw {
        cx.op_typed("mov", (d, UD), &[(acc, VType::Uw)]);
    }
}

/// A fresh `uw` temporary holding each lane's index in every lane, written without the
/// execution mask: 0..7 from a packed vector immediate, then +8, +16, +24 for the next
/// eight lanes (as IGC writes its lane ids).
pub fn lane_ids(cx: &mut Ctx) -> Reg {
    let t = cx.temp(VType::Uw);
    let d0 = cx.dst(t, VType::Uw);
    cx.line(&format!("mov (M1_NM, 8) {d0} 0x76543210:uv"));
    let mut k = 8;
    while k < cx.t.simd {
        let n = k.min(cx.t.simd - k);
        let dk = cx.dst(t.at(k * 2), VType::Uw);
        let s0 = cx.src(Opnd::Reg(t), VType::Uw);
        cx.line(&format!(
            "add (M1_NM, {n}) {dk} {s0} {}",
            VType::Uw.imm(u64::from(k))
        ));
        k += n;
    }
    t
}
