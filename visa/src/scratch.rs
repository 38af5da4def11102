//! Per-invocation scratch memory: `load_scratch` and `store_scratch` (NIR's private
//! arrays that `nir_lower_vars_to_scratch` put in memory), laid out and addressed as
//! Intel's drivers do.
//!
//! **Layout.** Scratch is the hardware thread's, not the invocation's: each thread has
//! a scratch space of its own, whose base the hardware gives it in `r0.5` bits 31:10.
//! The `W` lanes of a SIMD-`W` thread interleave their dwords: dword `k` of lane `l` is
//! at byte `4 * (k * W + l)`, so that one message of the thread's lanes reading the
//! same offset touches consecutive dwords (Mesa `brw_fs_nir.cpp`,
//! `swizzle_nir_scratch_addr`; IGC's private memory in scratch space lays it out the
//! same way). For a byte offset `offset` (a multiple of 4) the lane's address is
//! `offset * W + 4 * l`, and component `c` of a vector is `4 * c * W` further: every
//! 32-bit component is a message of its own. The kernel's own scratch is the first
//! `scratch_size * W` bytes of the thread's space; the finalizer's spills go above it
//! (`.kernel_attr SpillMemOffset`, [`crate::kernel`]).
//!
//! **Messages.** Before Gfx12.5 (the legacy data port), as IGC emits private memory in
//! scratch space: the untyped surface read and write of one channel on vISA's
//! `%scratch` surface (the finalizer's binding-table index 255, stateless), whose
//! 32-bit address is the thread's scratch pointer `r0.5 & 0xfffffc00` plus the lane's
//! offset:
//!
//! ```text
//! and (M1_NM, 1) s1(0,0)<1> %r0(0,5)<0;1,0> 0xfffffc00:ud     (once, at the start)
//! gather4_scaled.R (M1, 16)  %scratch 0x0:ud t4.0 v9.0
//! scatter4_scaled.R (M1, 16)  %scratch 0x0:ud t4.0 v5.0
//! ```
//!
//! From Gfx12.5, as brw does (`load_scratch`/`store_scratch` in `brw_fs_nir.cpp`): an
//! untyped LSC load or store on `.ugm`, A32, in the surface-state model, whose surface
//! handle is `r0.5 & ~0x3ff` (the scratch surface state's offset, computed once as a
//! scalar), the address the lane's offset alone, a component's `4 * c * W` the
//! message's immediate offset:
//!
//! ```text
//! lsc_load.ugm (M1, 16)  v9:d32  ss(s1)[t3+0x100]:a32
//! lsc_store.ugm (M1, 16)  ss(s1)[t3]:a32  v5:d32
//! ```
//!
//! The lane offsets `4 * l` (legacy: plus the scratch pointer) are one register of
//! dwords written at the kernel's start from the lane ids ([`crate::sysval::lane_ids`]),
//! live throughout, as IGC keeps them; [`persistent_registers`] counts them for the
//! pressure model.

use crate::ctx::{Ctx, Opnd, Reg, ScratchRegs};
use crate::dataport::{emit_access as emit_dp, DpAccess, DpSurface};
use crate::error::{EmitError, EmitErrorKind};
use crate::lsc::{Access, Surface};
use crate::vtype::VType;
use ir::dataport::{DpAddr, DpDesc};
use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, DataSize, Sfid};
use ir::{Function, IntrinsicInst, IntrinsicOp, Src, Value};
use lowering::messages::{LscMessage, LscOp};

const UD: VType = VType::Ud;

/// The bits of `r0.5` that hold the thread's scratch pointer (before Gfx12.5) or its
/// scratch surface state's offset (from Gfx12.5): 31:10.
pub const R0_5_SCRATCH_MASK: u32 = 0xffff_fc00;

/// Whether `func` reads or writes scratch memory.
pub fn uses_scratch(func: &Function) -> bool {
    func.insts_in_order().into_iter().any(|i| {
        func.inst(i)
            .as_intrinsic()
            .is_some_and(|x| matches!(x.op, IntrinsicOp::LoadScratch | IntrinsicOp::StoreScratch))
    })
}

/// Registers the values of the prolog ([`ScratchRegs`]) hold for the whole kernel: the
/// handle's, and a run of `W` dwords.
pub fn persistent_registers(cx: &Ctx) -> u32 {
    match cx.scratch_regs {
        None => 0,
        Some(r) => u32::from(r.handle.is_some()) + cx.t.comp_bytes(4) / cx.t.grf,
    }
}

/// Writes [`ScratchRegs`] at the kernel's start when the kernel accesses scratch
/// memory: `and (M1_NM, 1) s %r0(0,5) 0xfffffc00`, the lane ids, `shl` by 2 and (on
/// the legacy data port) the `add` of the scratch pointer.
pub fn prolog(cx: &mut Ctx) -> Result<(), EmitError> {
    if !uses_scratch(cx.func) {
        return Ok(());
    }
    let base = cx.scalar(UD);
    let d = cx.dst(base, UD);
    cx.line(&format!(
        "and (M1_NM, 1) {d} %r0(0,5)<0;1,0> {}",
        UD.imm(u64::from(R0_5_SCRATCH_MASK))
    ));
    let ids = crate::sysval::lane_ids(cx);
    let lanes = cx.temp(UD);
    cx.op_typed(
        "shl",
        (lanes, UD),
        &[(Opnd::Reg(ids), VType::Uw), (Opnd::Imm(2), UD)],
    );
    let handle = if cx.t.dataport.is_some() {
        cx.op("add", lanes, UD, &[Opnd::Reg(lanes), Opnd::Reg(base)]);
        None
    } else {
        Some(base)
    };
    cx.scratch_regs = Some(ScratchRegs { handle, lanes });
    Ok(())
}

/// The source `k` of `i`.
fn src(cx: &Ctx, i: &IntrinsicInst, k: usize) -> Result<Src, EmitError> {
    i.srcs.get(k).copied().ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: format!("`@{}` lacks source {k}", i.op),
        })
    })
}

/// The lane addresses of dword 0 of an access at byte `offset`: `offset * W` plus
/// [`ScratchRegs::lanes`], as an operand and an immediate byte offset still to add
/// (a constant offset stays immediate: the LSC message's offset, or one `add`).
fn lane_address(cx: &mut Ctx, regs: ScratchRegs, offset: Opnd) -> Result<(Opnd, i64), EmitError> {
    let w = cx.t.simd;
    match offset {
        Opnd::Imm(o) => Ok((Opnd::Reg(regs.lanes), i64::from(o as u32) * i64::from(w))),
        r => {
            let t = cx.temp(UD);
            cx.op("shl", t, UD, &[r, Opnd::Imm(u64::from(w.trailing_zeros()))]);
            cx.op("add", t, UD, &[Opnd::Reg(t), Opnd::Reg(regs.lanes)]);
            Ok((Opnd::Reg(t), 0))
        }
    }
}

/// The LSC message of one component: a `d32` load or store on `.ugm`, A32, `ss`.
fn lsc_message(op: LscOp, offset: i32) -> LscMessage {
    LscMessage {
        op,
        sfid: Sfid::Ugm,
        addr_type: AddrType::Ss,
        addr_size: AddrSize::A32,
        data: DataShape::vector(DataSize::D32, 1, false),
        cache: CacheControl::DEFAULT,
        offset,
    }
}

/// One component's access: `dest` loaded from, or `data` stored to, the lanes'
/// addresses `addr + delta`.
fn component(
    cx: &mut Ctx,
    regs: ScratchRegs,
    addr: Opnd,
    delta: i64,
    data: Option<Opnd>,
    dest: Option<Reg>,
) -> Result<(), EmitError> {
    let delta = i32::try_from(delta)
        .map_err(|_| cx.unsupported(format!("scratch offset {delta} does not fit 32 bits")))?;
    match regs.handle {
        Some(handle) => {
            let op = if data.is_some() {
                LscOp::Store
            } else {
                LscOp::Load
            };
            let m = lsc_message(op, delta);
            lowering::messages::check_lsc(cx.device, &m)
                .map_err(|rule| cx.err(EmitErrorKind::Message(rule)))?;
            crate::lsc::emit_access(
                cx,
                &Access {
                    m,
                    surface: Surface::Ss(handle),
                    addr: vec![addr],
                    pitch: None,
                    data: data.into_iter().collect(),
                    atomic: Vec::new(),
                    dest: dest.map(|d| vec![d]),
                    pred: None,
                },
            )
        }
        None => {
            let addr = if delta == 0 {
                addr
            } else {
                let t = cx.temp(UD);
                cx.op("add", t, UD, &[addr, Opnd::Imm(u64::from(delta as u32))]);
                Opnd::Reg(t)
            };
            let desc = if data.is_some() {
                DpDesc::untyped_write(DpAddr::Bti, 0b1)
            } else {
                DpDesc::untyped_read(DpAddr::Bti, 0b1)
            };
            emit_dp(
                cx,
                &DpAccess {
                    desc,
                    surface: DpSurface::Scratch,
                    addr: vec![addr],
                    data: data.into_iter().collect(),
                    atomic: Vec::new(),
                    dest: dest.map(|d| vec![d]),
                    pred: None,
                },
            )
        }
    }
}

/// Emits `load_scratch` (`dest` its result) or `store_scratch`.
pub fn emit(cx: &mut Ctx, i: &IntrinsicInst, dest: Option<Value>) -> Result<(), EmitError> {
    let regs = cx.scratch_regs.ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: "a scratch access in a kernel whose prolog set up no scratch".into(),
        })
    })?;
    let store = i.op == IntrinsicOp::StoreScratch;
    let (data, ty) = if store {
        let d = src(cx, i, 0)?;
        (Some(d), cx.src_type(d))
    } else {
        let d = dest.ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("`@{}` must define a value", i.op),
            })
        })?;
        (None, cx.func.value_type(d))
    };
    if ty.bit_size() != 32 {
        return Err(cx.unsupported(format!(
            "`@{}` of {}-bit components: scratch accesses are 32-bit",
            i.op,
            ty.bit_size()
        )));
    }
    let offset = cx.comp(src(cx, i, usize::from(store))?, 0)?;
    let (addr, imm) = lane_address(cx, regs, offset)?;
    let stride = 4 * i64::from(cx.t.simd);
    for c in 0..ty.num_components() {
        let delta = imm + i64::from(c) * stride;
        let (value, reg) = match (data, dest) {
            (Some(d), _) => (Some(cx.comp(d, c)?), None),
            (None, Some(v)) => (None, Some(cx.dest(v, c)?)),
            (None, None) => (None, None),
        };
        component(cx, regs, addr, delta, value, reg)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{emit_kernel, Options};
    use lowering::Device;

    /// A `vec2` stored at the constant offset 16 and a dword loaded from the dynamic
    /// offset `4 * x`, stored back at 0.
    const SHADER: &str = "shader compute (local_size=16,1,1, scratch_size=64)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000004)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0x00000010)
    32x2 %4 = vec2 %0.x, %2
    @store_scratch (%4, %3) (align_mul=8)
    32   %5 = @load_scratch (%2) (align_mul=4)
    32   %6 = load_const (0x00000000)
    @store_scratch (%5, %6) (align_mul=4)
}
";

    /// The kernel's body at SIMD16 on `platform`, without `lifetime.start` lines, and
    /// its `SpillMemOffset` attribute.
    fn body(platform: &str) -> (Vec<String>, String) {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset(platform).unwrap();
        let k = emit_kernel(&shader, &device, &Options::with_simd(16)).unwrap();
        assert_eq!(k.abi.scratch_bytes, 64 * 16);
        let attr = k
            .text
            .lines()
            .find(|l| l.contains("SpillMemOffset"))
            .unwrap_or_default()
            .to_string();
        let body = k
            .text
            .lines()
            .skip_while(|l| *l != "_main_0:")
            .skip(1)
            .filter(|l| !l.trim_start().starts_with("lifetime.start"))
            .map(|l| l.trim().to_string())
            .collect();
        (body, attr)
    }

    const IDS: [&str; 6] = [
        "and (M1_NM, 1) s1(0,0)<1> %r0(0,5)<0;1,0> 0xfffffc00:ud",
        "mov (M1_NM, 8) t2(0,0)<1> 0x76543210:uv",
        "add (M1_NM, 8) t2(0,8)<1> t2(0,0)<1;1,0> 0x8:uw",
        "shl (M1, 16) t3(0,0)<1> t2(0,0)<1;1,0> 0x2:ud",
        "mov (M1, 16) v0(0,0)<1> local_id_x(0,0)<1;1,0>",
        "mov (M1, 16) v0(2,0)<1> local_id_y(0,0)<1;1,0>",
    ];

    #[test]
    fn legacy_platforms_use_gather_and_scatter_on_the_scratch_surface() {
        let (body, attr) = body("skl");
        assert_eq!(attr, ".kernel_attr SpillMemOffset=1024");
        // The scratch pointer is added to the lane offsets once; the vec2 at offset 16
        // is two messages 16 * 16 and 16 * 16 + 4 * 16 bytes on; the dynamic offset
        // is scaled by 16 and the lane offsets added.
        let want: Vec<&str> = IDS[..4]
            .iter()
            .copied()
            .chain([
                "add (M1, 16) t3(0,0)<1> t3(0,0)<1;1,0> s1(0,0)<0;1,0>",
                IDS[4],
                IDS[5],
                "mov (M1, 16) v0(4,0)<1> local_id_z(0,0)<1;1,0>",
                "mul (M1, 16) v2(0,0)<1> v0(0,0)<1;1,0> 0x4:ud",
                "mov (M1, 16) v4(0,0)<1> v0(0,0)<1;1,0>",
                "mov (M1, 16) v4(2,0)<1> v2(0,0)<1;1,0>",
                "add (M1, 16) t4(0,0)<1> t3(0,0)<1;1,0> 0x100:ud",
                "scatter4_scaled.R (M1, 16)  %scratch 0x0:ud t4.0 v4.0",
                "add (M1, 16) t5(0,0)<1> t3(0,0)<1;1,0> 0x140:ud",
                "scatter4_scaled.R (M1, 16)  %scratch 0x0:ud t5.0 v4.64",
                "shl (M1, 16) t6(0,0)<1> v2(0,0)<1;1,0> 0x4:ud",
                "add (M1, 16) t6(0,0)<1> t6(0,0)<1;1,0> t3(0,0)<1;1,0>",
                "gather4_scaled.R (M1, 16)  %scratch 0x0:ud t6.0 v5.0",
                "scatter4_scaled.R (M1, 16)  %scratch 0x0:ud t3.0 v5.0",
                "ret (M1, 1)",
            ])
            .collect();
        assert_eq!(body, want);
    }

    #[test]
    fn lsc_platforms_use_the_scratch_surface_state() {
        let (body, attr) = body("dg2");
        assert_eq!(attr, ".kernel_attr SpillMemOffset=1024");
        // The handle is the surface; constant offsets are the messages' immediates.
        let want: Vec<&str> = IDS
            .iter()
            .copied()
            .chain([
                "mov (M1, 16) v0(4,0)<1> local_id_z(0,0)<1;1,0>",
                "mul (M1, 16) v2(0,0)<1> v0(0,0)<1;1,0> 0x4:ud",
                "mov (M1, 16) v4(0,0)<1> v0(0,0)<1;1,0>",
                "mov (M1, 16) v4(2,0)<1> v2(0,0)<1;1,0>",
                "lsc_store.ugm (M1, 16)  ss(s1)[t3+0x100]:a32  v4:d32",
                "lsc_store.ugm (M1, 16)  ss(s1)[t3+0x140]:a32  v4.64:d32",
                "shl (M1, 16) t4(0,0)<1> v2(0,0)<1;1,0> 0x4:ud",
                "add (M1, 16) t4(0,0)<1> t4(0,0)<1;1,0> t3(0,0)<1;1,0>",
                "lsc_load.ugm (M1, 16)  v5:d32  ss(s1)[t4]:a32",
                "lsc_store.ugm (M1, 16)  ss(s1)[t3]:a32  v5:d32",
                "ret (M1, 1)",
            ])
            .collect();
        assert_eq!(body, want);
    }

    #[test]
    fn kernels_without_scratch_have_no_prolog_or_attribute() {
        let text = SHADER
            .replace(", scratch_size=64", "")
            .lines()
            .filter(|l| !l.contains("_scratch"))
            .collect::<Vec<_>>()
            .join("\n");
        let shader = ir::parse_shader(&text).unwrap();
        let device = Device::preset("skl").unwrap();
        let k = emit_kernel(&shader, &device, &Options::with_simd(16)).unwrap();
        assert_eq!(k.abi.scratch_bytes, 0);
        assert!(!k.text.contains("SpillMemOffset"));
        assert!(!k.text.contains("%r0"));
    }
}
