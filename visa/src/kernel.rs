//! Kernel assembly: the header, declarations, inputs and attributes around the body
//! that the instruction modules emit, walking the function's structured control flow.

use crate::abi::Abi;
use crate::control::{self, LoopLabels};
use crate::ctx::{storage_type, Ctx};
use crate::decl::VarId;
use crate::error::{EmitError, EmitErrorKind};
use crate::phi::PhiCopies;
use crate::target::{dispatch_widths, Family, Options, Target};
use crate::{alu, intrinsic};
use ir::{CfNode, CfParent, InstKind, Jump, Shader};
use lowering::Device;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The kernel's entry label, IGC's name for it.
const ENTRY_LABEL: &str = "_main_0";

/// A vISA kernel and what a driver needs to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The kernel's name (the entry function's).
    pub name: String,
    /// The vISA text (`.version 4.1`), what GenX_IR reads.
    pub text: String,
    /// The inputs: what the driver puts where.
    pub abi: Abi,
    /// The GenX_IR `-platform` name, if GenX_IR 1.0.12504 knows the platform.
    pub genx_platform: Option<&'static str>,
    /// The platform's name (`dg2`).
    pub platform: String,
    /// The general registers of a thread the kernel is emitted for: 128, or 256 in
    /// the large register mode of PVC and Xe2 when its values need more than 128 (as
    /// IGC chooses it for kernels under register pressure). GenX_IR takes it as
    /// `-TotalGRFNum`; the text says `//.kernel_attr NumGRF=256` when it is 256
    /// ([`NUM_GRF_COMMENT`], which [`crate::igc::compile`] reads). A driver dispatches the kernel with that
    /// many registers per thread.
    pub registers: u32,
    /// Bytes of live values beyond the registers, by the pressure model, when no width
    /// fits them: the kernel is emitted anyway, as brw compiles a shader that spills
    /// at its narrowest width, and the finalizer spills to the thread's scratch space
    /// (GenX_IR's `//.spill size`, [`crate::igc::Compiled::spill_bytes`], is the
    /// scratch a driver gives each thread). `None` when the values fit.
    pub spill_estimate: Option<u32>,
}

/// The comment line that gives a kernel's register count when it is not 128, before
/// the count: `//.kernel_attr NumGRF=256`. It is the `NumGRF` kernel attribute of later
/// vISA versions, commented out because GenX_IR 1.0.12504 mishandles the attribute
/// (see [`Kernel::registers`]); the finalizer takes the count as `-TotalGRFNum`.
pub const NUM_GRF_COMMENT: &str = "//.kernel_attr NumGRF=";

/// Emits the entry function of `shader`, lowered for `device`, as one vISA kernel.
///
/// The shader must have gone through the lowering (image intrinsics are errors) and
/// pass the validator. Errors name the instruction, its position and the platform.
///
/// The kernel runs at the shader's `subgroup_size`, else at [`Options::simd`]. When
/// neither fixes the width, the kernel runs at the widest of [`candidate_widths`] whose
/// live values fit the registers of a thread by the pressure model, as brw keeps the
/// widest dispatch width that compiled without spilling (Mesa `brw_simd_select`).
/// When no width fits (or the fixed one does not), the kernel is emitted at the
/// narrowest (the fixed) width anyway and the finalizer spills, as brw and IGC spill
/// what does not fit ([`Kernel::spill_estimate`]); with [`Options::forbid_spills`] that
/// is a [`EmitErrorKind::RegisterPressure`] error instead.
/// [`crate::width::emit_confirmed`] also asks GenX_IR. The width is the kernel's
/// `SimdSize` and [`Abi::simd`].
pub fn emit_kernel(
    shader: &Shader,
    device: &Device,
    options: &Options,
) -> Result<Kernel, EmitError> {
    let mut last = None;
    for w in candidate_widths(shader, device, options)? {
        let at = Options {
            simd: Some(w),
            ..options.clone()
        };
        match emit_at(shader, device, &at) {
            Err(e) if matches!(*e.kind, EmitErrorKind::RegisterPressure { .. }) => {
                last = Some((e, at));
            }
            r => return r,
        }
    }
    let (e, mut at) = last.expect("candidate_widths gives at least one width");
    if options.forbid_spills {
        return Err(e);
    }
    // Nothing fits: the narrowest width, whose values the finalizer spills.
    at.unchecked_pressure = true;
    emit_at(shader, device, &at)
}

/// The SIMD widths `emit_kernel` tries, in brw's order of preference (Mesa
/// `brw_simd_should_compile` and `brw_simd_select`), widest first: the one the shader's
/// `subgroup_size` or [`Options::simd`] fixes; else the widths the platform dispatches
/// (32, 16, 8; PVC and Xe2 have no SIMD8), where
///
/// - a width needing more threads than a workgroup may have is left out ("Would need
///   more than max_threads to fit all invocations"; [`max_workgroup_threads`]);
/// - a width whose half already holds the whole workgroup is left out ("Workgroup size
///   already fits in smaller SIMD"): a SIMD32 thread for an 8-invocation workgroup
///   would run three quarters of its lanes empty; the narrowest width stays;
/// - before Xe2, SIMD32 is tried only when no narrower width is left ("SIMD32 not
///   required"): brw compiles a compute shader at SIMD8 and SIMD16 and keeps SIMD16
///   unless it spills.
pub fn candidate_widths(
    shader: &Shader,
    device: &Device,
    options: &Options,
) -> Result<Vec<u32>, EmitError> {
    let t = Target::new(device, shader.subgroup_size, options)?;
    if shader.subgroup_size.is_some() || options.simd.is_some() {
        return Ok(vec![t.simd]);
    }
    let invocations: u64 = shader.local_size.iter().map(|&d| u64::from(d)).product();
    let all = dispatch_widths(t.family);
    let narrowest = all.iter().copied().min().unwrap_or(t.simd);
    let threads_fit =
        |w: u32| invocations.div_ceil(u64::from(w)) <= max_workgroup_threads(t.family);
    let allowed = |w: u32| threads_fit(w) && (w == narrowest || invocations > u64::from(w / 2));
    let mut widths: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&w| allowed(w) && (w < 32 || t.family == Family::Xe2))
        .collect();
    if widths.is_empty() {
        widths = all.iter().copied().filter(|&w| threads_fit(w)).collect();
    }
    if widths.is_empty() {
        // More invocations than the widest threads can hold (beyond Vulkan's limits):
        // the widest width, whose dispatch is the driver's to refuse.
        widths.push(all.iter().copied().max().unwrap_or(t.simd));
    }
    widths.sort_unstable_by(|a, b| b.cmp(a));
    Ok(widths)
}

/// The most hardware threads one workgroup may take: Mesa's `max_cs_workgroup_threads`,
/// which is `max_cs_threads` capped at 64 before Gfx12.5 (the walker counts threads in
/// six bits; `intel_device_info.c`): 56 on BDW, SKL and ICL, 64 on TGL. From Gfx12.5 it
/// is `max_cs_threads` itself, which is at least 64, enough for Vulkan's 1,024
/// invocations at SIMD16: 64 is the bound used.
pub fn max_workgroup_threads(family: Family) -> u64 {
    match family {
        Family::Bdw | Family::Skl | Family::Icl => 56,
        _ => 64,
    }
}

/// Whether an ALU instruction or a float subgroup reduction of `func` reads or writes a
/// float: the only instructions whose results `%cr0`'s denormal modes change. The back
/// end's own float steps serve float instructions, except the integer division's
/// reciprocal (`idiv`), whose operands are whole numbers and never denormal; messages
/// convert in the data port, which `%cr0` does not govern.
fn computes_with_floats(func: &ir::Function) -> bool {
    func.insts_in_order().into_iter().any(|i| {
        func.inst(i).as_alu().is_some_and(|a| {
            let info = a.op.info();
            let inputs = &info.input_types[..usize::from(info.num_inputs)];
            std::iter::once(&info.output_type)
                .chain(inputs)
                .any(|t| t.base == ir::BaseType::Float)
        }) || func.inst(i).as_intrinsic().is_some_and(|x| {
            x.index(ir::IndexKind::ReductionOp)
                .and_then(ir::subgroup::ReductionOp::from_index)
                .is_some_and(|r| r.is_float())
        })
    })
}

/// [`emit_kernel`] at the width the shader or `options` give (else 16).
fn emit_at(shader: &Shader, device: &Device, options: &Options) -> Result<Kernel, EmitError> {
    let t = Target::new(device, shader.subgroup_size, options)?;
    let func = shader
        .entry()
        .ok_or_else(|| EmitError::shader(EmitErrorKind::NoEntry, &device.name))?;
    let genx_platform = t.genx_platform;
    let simd = t.simd;
    let payload_prolog = t.family.has_lsc();
    let mut cx = Ctx::new(shader, func, device, t);
    let phis = PhiCopies::new(func);
    // Keep F, DF and HF denormals (NIR's default float controls), as IGC does. A kernel
    // that computes with no float needs no float mode: brw too writes %cr0 only for a
    // shader whose float controls differ from the thread's defaults.
    if computes_with_floats(func) {
        cx.line("or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud");
    }
    crate::ubo_block::load_ranges(&mut cx)?;
    crate::param_block::load_windows(&mut cx)?;
    crate::memory::load_buffer_bases(&mut cx)?;
    crate::scratch::prolog(&mut cx)?;
    let mut loops = Vec::new();
    walk(&mut cx, &phis, func.body(), &mut loops)?;
    cx.line("ret (M1, 1)");
    // After the body, which measures each instruction's temporaries.
    let (registers, spill_estimate) = match check_pressure(&mut cx) {
        Err(e) if options.unchecked_pressure => match *e.kind {
            EmitErrorKind::RegisterPressure {
                bytes, available, ..
            } => (128, Some(bytes - available)),
            _ => return Err(e),
        },
        r => (r?, None),
    };

    let body = cx.take_body();
    let Ctx { decls, abi, .. } = cx;
    let (mut abi, inputs) = abi.finish(&decls);
    abi.scratch_bytes = shader.scratch_size * simd;
    let mut text = String::with_capacity(body.len() + decls.num_vars() * 64 + 256);
    let _ = writeln!(text, ".version 4.1");
    let _ = writeln!(text, ".kernel \"{}\"", func.name);
    decls.render(&mut text);
    text.push_str(&inputs);
    let _ = writeln!(text, ".kernel_attr Target=\"3d\"");
    let _ = writeln!(text, ".kernel_attr SimdSize={simd}");
    // The kernel's own scratch (`load_scratch`/`store_scratch`, crate::scratch) is the
    // first `scratch_size * W` bytes of the thread's scratch space; the finalizer puts
    // its spills above it, as IGC tells it for private memory in scratch.
    if abi.scratch_bytes > 0 {
        let _ = writeln!(text, ".kernel_attr SpillMemOffset={}", abi.scratch_bytes);
    }
    // GenX_IR 1.0.12504 does not know the `NumGRF` attribute of later vISA versions:
    // it prints "Unsupported kernel attribute!", goes on past the failed check, and
    // then crashes or not with the layout of its heap (a PVC SIMD32 kernel of the
    // sweep crashed; `visa/tests/finalizer_crash.rs`). The register count is a
    // finalizer option there (`-TotalGRFNum`, as IGC passes it), so the text says it
    // in a comment, as IGC's dumps comment their header (`//.platform`).
    if registers != 128 {
        let _ = writeln!(text, "{NUM_GRF_COMMENT}{registers}");
    }
    // From Gfx12.5 GenX_IR's prolog loads the per-thread inputs from memory, and this
    // says how many bytes each thread has there; before, the hardware delivers them in
    // registers and IGC's kernels leave the attribute out, as these do.
    if payload_prolog {
        let _ = writeln!(
            text,
            ".kernel_attr PerThreadInputSize={}",
            abi.per_thread_bytes
        );
    }
    // The entry label makes the body a kernel rather than a subroutine: with it GenX_IR
    // compiles the closing `ret` into the end-of-thread message (`send.gtwy ... {EOT}`),
    // without it into a subroutine return (`ret (16|M0) r0.2`) and the thread never
    // ends. IGC's own kernels (`ocloc` with `IGC_ShaderDumpEnable=1`) carry the same
    // two lines after their attributes.
    let _ = writeln!(text, ".function \"{ENTRY_LABEL}\"\n\n{ENTRY_LABEL}:");
    text.push_str(&body);
    Ok(Kernel {
        name: func.name.clone(),
        text,
        abi,
        genx_platform,
        platform: device.name.clone(),
        registers,
        spill_estimate,
    })
}

/// Refuses a kernel whose live values, with the temporaries an instruction's expansion
/// holds beyond the registers kept for them, overflow the register file (run after the
/// body is emitted, which measures the temporaries); returns the
/// registers of a thread the kernel needs (128, or 256 on PVC and Xe2 when 128 do not
/// hold its values).
fn check_pressure(cx: &mut Ctx) -> Result<u32, EmitError> {
    let func = cx.func;
    let t = &cx.t;
    // Every platform has 128 registers; PVC and Xe2 also a 256-register mode. Register
    // 0, the local ids and registers for temporaries are not for values: four dwords
    // of the kernel's width, at least 8 registers (a SIMD32 DG2 kernel whose values
    // peak at 112 of its 121 free registers spilled in the property sweep; one at 100
    // did not).
    let ids = 3 * (t.simd * 2).div_ceil(t.grf);
    // SIMD32 kernels on Gfx8 to Gfx12.0 need more: GenX_IR splits every instruction
    // into SIMD16 halves and their messages run in SIMD8 or SIMD16 chunks, each with
    // its own payload and header registers; its register-pressure estimate
    // (`-dumpRPE`) runs 30 to 50 registers above the live variables of the kernel's
    // text. In the property sweep (`visa_sweep`, the default seed and QC_SEED=11,
    // QC_TESTS=2200) eleven such kernels spilled, at estimated peaks of 65 to 84
    // registers, none below; of 1,508 SIMD32 kernels of seed 11, 227 estimate 65 or
    // more. Values get at most 64 registers there.
    // SIMD32 on DG2 and MTL (32-byte registers) needs 32: the untyped blur example
    // (`examples/blur.ir`, `--force-untyped`) peaks at 99 of the 105 registers a
    // margin of 16 leaves, and GenX_IR spills 128 bytes of it.
    let temps = if t.dataport.is_some() && t.simd == 32 {
        128 - 1 - ids - 64
    } else if t.simd == 32 && t.grf == 32 {
        32
    } else {
        8.max(16 * t.simd / t.grf)
    };
    // The buffer bases loaded at the start stay live throughout, a register each.
    let mut ranges: HashMap<VarId, u32> = HashMap::new();
    for r in cx.ubo_dwords.values().chain(cx.param_dwords.values()) {
        let end = ranges.entry(r.var).or_default();
        *end = (*end).max(r.off + 4);
    }
    // And so do the UBO ranges and parameter windows read there
    // ([`crate::ubo_block`], [`crate::param_block`]).
    // The scratch accesses' handle and lane offsets, too ([`crate::scratch`]).
    let bases = crate::memory::constant_buffer_blocks(cx).len() as u32
        + crate::scratch::persistent_registers(cx)
        + ranges.values().map(|e| e.div_ceil(t.grf)).sum::<u32>();
    let available = |regs: u32| regs.saturating_sub(1 + ids + temps + bases) * t.grf;
    let size = |v: ir::Value| {
        let def = func.value_def(v).map(|d| &func.inst(d).kind);
        if matches!(def, Some(InstKind::LoadConst(_))) {
            return 0;
        }
        let ty = func.value_type(v);
        let elem = storage_type(ty.bit_size()).bytes();
        if cx.is_folded(v) {
            return 0;
        }
        if cx.is_uniform(v) {
            // A uniform value is one element per component, packed with the others,
            // except a parameter-block or UBO read, which a message writes: it starts
            // a register of its own (`ctx` aligns message destinations to registers).
            let bytes = u32::from(ty.num_components()) * elem;
            let param = matches!(def, Some(InstKind::Intrinsic(i))
                if crate::uniform::loaded_by_message(func, i));
            return if param {
                bytes.next_multiple_of(t.grf)
            } else {
                bytes
            };
        }
        u32::from(ty.num_components()) * t.comp_bytes(elem)
    };
    // A folded value's operands, and those of folded values among them.
    let folded = |v: ir::Value| crate::fold::operands_deep(func, cx.folds(), v);
    // An instruction whose expansion holds more temporaries at once than the margin
    // keeps for them needs the difference besides the values. The sweep's DG2 case
    // 690 of seed 0 spilled at SIMD16 with its values within the margin: the exact
    // division of an `rgb10a2_unorm` conversion holds 16 registers of temporaries at
    // once, twice the margin; counted, the model's peak is GenX_IR's own (`-dumpRPE`),
    // 132 registers.
    let margin = temps * t.grf;
    let scratch = |inst: ir::Inst| cx.scratch_of(inst).saturating_sub(margin);
    let (bytes, at) = crate::pressure::peak(func, &size, &folded, &scratch);
    let large = matches!(t.family, Family::Pvc | Family::Xe2);
    let regs = if bytes <= available(128) || !large {
        128
    } else {
        256
    };
    if bytes > available(regs) {
        let available = available(regs);
        let narrower = dispatch_widths(t.family).iter().any(|&w| w < t.simd);
        cx.set_inst(at);
        return Err(cx.err(EmitErrorKind::RegisterPressure {
            bytes,
            available,
            narrower,
        }));
    }
    Ok(regs)
}

/// Emits a control-flow list.
fn walk(
    cx: &mut Ctx,
    phis: &PhiCopies,
    nodes: &[CfNode],
    loops: &mut Vec<LoopLabels>,
) -> Result<(), EmitError> {
    let func = cx.func;
    for &node in nodes {
        match node {
            CfNode::Block(b) => {
                for inst in func.block_insts(b) {
                    cx.set_inst(Some(inst));
                    let mark = cx.scratch_mark();
                    instruction(cx, inst)?;
                    cx.record_scratch(inst, mark);
                }
                cx.set_inst(None);
                phis.emit(cx, b)?;
                match func.block(b).jump {
                    None => {}
                    Some(j) => {
                        let Some(l) = loops.last() else {
                            return Err(cx.err(EmitErrorKind::Malformed {
                                what: format!(
                                    "`{}` outside a loop in block {}",
                                    j.name(),
                                    func.block_name(b)
                                ),
                            }));
                        };
                        match j {
                            Jump::Break => control::break_(cx, l),
                            Jump::Continue => control::continue_(cx, l),
                        }
                    }
                }
            }
            CfNode::If(id) => {
                let data = func.if_data(id);
                cx.set_inst(None);
                if let (Some(l), true) = (loops.last(), is_bare_break(func, phis, id)) {
                    control::break_if(cx, data.cond, l)?;
                    continue;
                }
                let l = control::if_start(cx, data.cond)?;
                walk(cx, phis, func.cf_list(CfParent::Then(id)), loops)?;
                control::if_else(cx, &l);
                walk(cx, phis, func.cf_list(CfParent::Else(id)), loops)?;
                control::if_end(cx, &l);
            }
            CfNode::Loop(id) => {
                let l = control::loop_start(cx);
                loops.push(l);
                walk(cx, phis, func.cf_list(CfParent::Loop(id)), loops)?;
                let l = loops.pop().expect("pushed above");
                control::loop_end(cx, &l);
            }
        }
    }
    Ok(())
}

/// Whether `if` `id` is `if c { break } else { }` with no instruction and no phi
/// copy in either branch: a predicated exit from the loop.
fn is_bare_break(func: &ir::Function, phis: &PhiCopies, id: ir::IfId) -> bool {
    let bare = |list: &[CfNode], jump: Option<Jump>| match list {
        [CfNode::Block(b)] => {
            func.block_insts(*b).next().is_none()
                && func.block(*b).jump == jump
                && !phis.has_copies(*b)
        }
        _ => false,
    };
    bare(func.cf_list(CfParent::Then(id)), Some(Jump::Break))
        && bare(func.cf_list(CfParent::Else(id)), None)
}

/// Emits one instruction.
fn instruction(cx: &mut Ctx, inst: ir::Inst) -> Result<(), EmitError> {
    let data = cx.func.inst(inst);
    // Uniform values are computed once, in scalar mode.
    cx.set_scalar(data.dest.is_some_and(|v| cx.is_uniform(v)));
    let r = instruction_kind(cx, inst);
    cx.set_scalar(false);
    r
}

fn instruction_kind(cx: &mut Ctx, inst: ir::Inst) -> Result<(), EmitError> {
    let data = cx.func.inst(inst);
    // A value computed where it is used (`fold`) is written there.
    if data.dest.is_some_and(|v| cx.is_folded(v)) {
        return Ok(());
    }
    // A value sharing a phi's variable overwrites what source payloads copied from it.
    if data.dest.is_some_and(|v| cx.shares_var(v)) {
        cx.forget_payloads();
    }
    // A value written in parts (components, halves, lanes) outside loops: tell the
    // finalizer it is dead before, or it keeps it alive from the kernel's entry.
    if let (Some(v), InstKind::Alu(_) | InstKind::Intrinsic(_)) = (data.dest, &data.kind) {
        let in_loop = cx
            .func
            .inst_block(inst)
            .is_some_and(|b| cx.func.enclosing_loop(CfNode::Block(b)).is_some());
        if !in_loop {
            cx.value_lifetime_start(v)?;
        }
    }
    match &data.kind {
        // Constants are immediates at their uses, undefs variables nobody writes, and
        // phis are written by their predecessors.
        InstKind::LoadConst(_) | InstKind::Undef | InstKind::Phi(_) => Ok(()),
        InstKind::Alu(a) => {
            let dest = data.dest.ok_or_else(|| {
                cx.err(EmitErrorKind::Malformed {
                    what: "an ALU instruction without a destination".into(),
                })
            })?;
            alu::emit(cx, a, dest)
        }
        InstKind::Intrinsic(i) => intrinsic::emit(cx, inst, i, data.dest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shader that keeps `n` loaded vec4s live until the end.
    fn many_live(n: usize, subgroup: Option<u32>) -> Shader {
        let mut body = String::new();
        for k in 0..n {
            body.push_str(&format!(
                "    64 %{o} = load_const ({off})\n    64 %{a} = iadd %2, %{o}\n    32x4 %{v} = @load_global (%{a}) (access=none, align_mul=16)\n",
                o = 100 + 3 * k,
                a = 101 + 3 * k,
                v = 102 + 3 * k,
                off = 16 * k
            ));
        }
        let mut acc = "%1".to_string();
        for k in 0..n {
            let s = 1000 + k;
            body.push_str(&format!("    32 %{s} = iadd {acc}, %{}.w\n", 102 + 3 * k));
            acc = format!("%{s}");
        }
        body.push_str(&format!(
            "    @store_global ({acc}, %2) (access=none, align_mul=4)\n"
        ));
        let sg = subgroup.map_or(String::new(), |s| format!(", subgroup_size={s}"));
        let text = format!(
            "shader compute (local_size=32,1,1{sg})\nfn main {{\n  block b0:\n    32 %1 = load_const (0)\n    64 %2 = @load_push_constant (%1) (base=0, range=8)\n{body}}}\n"
        );
        ir::parse_shader(&text).unwrap()
    }

    #[test]
    fn a_kernel_too_large_for_simd16_falls_back_to_simd8() {
        let dg2 = Device::preset("dg2").unwrap();
        // 20 vec4s at SIMD16 take 20 * 4 * 64 = 5,120 bytes, more than the 3,712 of
        // 128 registers of 32 bytes a thread has for values (SIMD32, twice as many
        // bytes, does not fit either); at SIMD8, half.
        let s = many_live(20, None);
        let k = emit_kernel(&s, &dg2, &Options::default()).unwrap();
        assert_eq!(k.abi.simd, 8);
        assert!(k.text.contains(".kernel_attr SimdSize=8"));
        assert_eq!(k.spill_estimate, None);
        // A fixed width is kept: the finalizer spills the 5,120 - 3,712 bytes, or,
        // with spills forbidden, the error says why.
        for (shader, options) in [
            (many_live(20, Some(16)), Options::default()),
            (many_live(20, None), Options::with_simd(16)),
        ] {
            let k = emit_kernel(&shader, &dg2, &options).unwrap();
            assert_eq!(k.abi.simd, 16);
            // The vec4s, and the pointer and the sum besides.
            assert!(matches!(k.spill_estimate, Some(b) if b >= 5120 - 3712));
            let forbid = Options {
                forbid_spills: true,
                ..options
            };
            let e = emit_kernel(&shader, &dg2, &forbid).unwrap_err();
            assert!(
                matches!(*e.kind, EmitErrorKind::RegisterPressure { .. }),
                "{e}"
            );
        }
        // Small kernels run at SIMD16, as brw compiles SIMD32 only where it must: 4
        // vec4s (2,048 bytes at SIMD32) would fit SIMD32 too.
        let k = emit_kernel(&many_live(4, None), &dg2, &Options::default()).unwrap();
        assert_eq!(k.abi.simd, 16);
        let k = emit_kernel(&many_live(4, None), &dg2, &Options::with_simd(32)).unwrap();
        assert_eq!(k.abi.simd, 32);
        // PVC has registers of twice the size: the 20 vec4s fit SIMD16 in 128 of
        // them, SIMD32 (10,240 bytes) in the 256-register mode.
        let pvc = Device::preset("pvc").unwrap();
        let k = emit_kernel(&s, &pvc, &Options::default()).unwrap();
        assert_eq!((k.abi.simd, k.registers), (16, 128));
        assert!(!k.text.contains("NumGRF"));
        let k = emit_kernel(&s, &pvc, &Options::with_simd(32)).unwrap();
        assert_eq!((k.abi.simd, k.registers), (32, 256));
        // 40 vec4s fit no width on DG2: the kernel is SIMD8's, spilling 40 * 4 * 32 -
        // 3,712 bytes; with spills forbidden the error is SIMD8's, and it does not
        // suggest a narrower width, which DG2 does not dispatch; SIMD16's does.
        let k = emit_kernel(&many_live(40, None), &dg2, &Options::default()).unwrap();
        assert_eq!(k.abi.simd, 8);
        assert!(matches!(k.spill_estimate, Some(b) if b >= 40 * 4 * 32 - 3712));
        let forbid = |simd| Options {
            simd,
            forbid_spills: true,
            ..Options::default()
        };
        let e = emit_kernel(&many_live(40, None), &dg2, &forbid(None)).unwrap_err();
        assert!(
            matches!(
                *e.kind,
                EmitErrorKind::RegisterPressure {
                    narrower: false,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("no narrower width"), "{e}");
        let e = emit_kernel(&many_live(40, None), &dg2, &forbid(Some(16))).unwrap_err();
        assert!(e.to_string().contains("a smaller subgroup_size"), "{e}");
    }

    #[test]
    fn pvc_kernels_too_large_for_128_registers_ask_for_256() {
        let pvc = Device::preset("pvc").unwrap();
        // 40 vec4s at SIMD16 take 40 * 4 * 64 = 10,240 bytes: more than the 6,912 of
        // 128 registers of 64 bytes less register 0, the ids and 16 for temporaries,
        // less than the 15,104 of 256.
        let k = emit_kernel(&many_live(40, None), &pvc, &Options::with_simd(16)).unwrap();
        assert_eq!((k.abi.simd, k.registers), (16, 256));
        assert!(
            k.text.contains("\n//.kernel_attr NumGRF=256\n"),
            "{}",
            k.text
        );
        // DG2 has no such mode.
        let dg2 = Device::preset("dg2").unwrap();
        let k = emit_kernel(&many_live(10, None), &dg2, &Options::with_simd(16)).unwrap();
        assert_eq!(k.registers, 128);
    }
}
