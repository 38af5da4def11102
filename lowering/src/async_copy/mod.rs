//! The `lower-async-copies` pass: group async copies become messages.
//!
//! `group_async_copy_2d2d` and `group_async_copy_3d3d` (`docs/hardware/async-copies.md`)
//! copy a 2D or 3D region of elements between global memory (a 64-bit address) and the
//! workgroup's shared local memory (a 32-bit byte offset), performed by all the
//! work-items of the workgroup together. The pass lowers each copy to messages executed
//! by the work-items themselves:
//!
//! - **Per-invocation loop** (every platform, every shape): the copy is split into
//!   *units* of `u` bytes, `u` the largest power of two up to 16 dividing the element
//!   size when it is a constant (1 when it is not), numbered line by line and plane by
//!   plane: `W = elems_per_line · elem_bytes / u` units per line. Invocation `i` (the
//!   local invocation index) moves units `i`, `i + S`, `i + 2S`, ... below
//!   `planes · lines · W`, `S` the workgroup size: unit `n` is column `n mod W` of line
//!   `(n / W) mod lines` of plane `n / (W · lines)`. Each unit is one untyped load and one
//!   untyped store: `.ugm` flat a64 on the global side, `.slm` flat a32 on the shared
//!   side, with data `d8u32` (1 byte), `d16u32` (2), `d32` (4), `d64` (8) or `d32x4` (16):
//!   vector sizes the SIMT rules allow (docs/hardware/lsc-messages.md §4), and payloads within 8 registers
//!   at every untyped SIMD width of the presets (§13.10). When the unit count is a constant
//!   no larger than the workgroup, the loop is a single `if`. Element indices are
//!   computed in 32 bits (the operands are 32-bit), shared-memory byte offsets in 32
//!   bits, and global byte offsets in 64 bits.
//! - **2D block messages** (untyped block2d: PVC, LNL, BMG), under
//!   [`Block2dPolicy::Auto`] when the shape is a compile-time constant (`elem_bytes`,
//!   `elems_per_line`, `lines`, line lengths; for 3D also `planes` and plane areas; the
//!   pointers and offsets may be dynamic), the shader fixes its `subgroup_size`, the
//!   workgroup is whole subgroups (a block message needs every lane of its subgroup),
//!   and the copy takes at most [`MAX_AUTO_BLOCKS`] block messages. Each plane is one 2D
//!   copy whose global side is the block surface: base `ptr + offset · elem_bytes (+
//!   plane · plane_area · elem_bytes)`, width `elems_per_line · elem_bytes`, height
//!   `lines`, pitch `line_length · elem_bytes` (bytes), read or written in elements of
//!   the largest of 8, 4, 2, 1 bytes dividing a line. The rectangle is cut into legal
//!   blocks by [`crate::messages::block2d::split_rect`] (the untyped block2d table: load rows of at
//!   most 64 bytes, store rows of at most 512, at least 4 bytes a row, at most 32 rows),
//!   and blocks are cut further in height until their register image spreads over the
//!   subgroup as an IR value: component `k` of lane `i` holds image bytes
//!   `(k · SG + i) · c ..`, `c` the largest chunk of 8, 4, 2, 1 bytes that divides the
//!   block's row and gives an IR vector's component count (1, 2, 3, 4, 8 or 16; stores
//!   assemble their data with `vec2` .. `vec16`). Global to shared: a block load, then one shared
//!   store (`.slm` flat a32, `d64`/`d32`/`d16u32`/`d8u32` of `c` bytes) per component,
//!   each lane storing its chunk at the shared address of its image byte (row `r`,
//!   column `col` of the image: `dst + (offset + (y + r) · line_length) · elem_bytes +
//!   x · e + col`); chunks in the image's padding (rows padded to a power of two,
//!   blocks to whole 64-byte registers) are predicated off, components with no element
//!   byte are skipped. Shared to global: the same shared addresses loaded (padding
//!   predicated off, reading 0), assembled into the image, one block store.
//!   Block `j` is done by subgroup `j mod (workgroup size / SG)`, all of a subgroup's
//!   blocks under one `if` on the subgroup id: the blocks spread over the hardware
//!   threads of the workgroup instead of one thread doing them all, and the condition is
//!   uniform within each subgroup as the block messages require.
//!   [`Block2dPolicy::Always`] makes every copy take this path or fail with
//!   [`LowerErrorKind::IllegalBlock2d`] naming the rule (docs/hardware/lsc-messages.md §13.9 for the
//!   platform and the row width, or the condition above that does not hold).
//!
//!   The untyped block2d surface constraints (base and pitch alignment, minimum width
//!   and pitch) are not in the project's references (docs/hardware/lsc-messages.md §14) and are not checked:
//!   a driver that knows them must keep copies that break them on the loop
//!   (`block2d=never`).
//!
//! `group_wait_events` becomes a `barrier`: each work-item moved only its own units, so
//! the copy is complete, and visible to every work-item, once all of them have passed a
//! workgroup barrier. The event a copy returns is not needed any more: it becomes the
//! event operand when that is not zero, else the constant 1 (a non-zero token, as the
//! specification's events are never null).
//!
//! As the specification requires, every work-item must reach the copy and the wait with
//! the same operands (the loop bounds and addresses are then uniform); the lowered code
//! relies on it, and the executor's reference checks it.

mod address;
mod arith;
mod block2d;
mod copy;
mod per_invocation;

pub use block2d::MAX_AUTO_BLOCKS;

pub use crate::options::{AsyncCopyOptions, Block2dPolicy};

use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind, Malformation};
use block2d::{emit_block2d, plan_block2d, BlockPlan};
use copy::{copy_error, finish_copy, Copy};
use ir::function::InstKind;
use ir::passes::{Pass, PassError};
use ir::{Inst, IntrinsicInst, IntrinsicOp, Shader};
use per_invocation::emit_loop;
use smallvec::smallvec;

/// What the pass did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AsyncCopyReport {
    /// Copies lowered to the per-invocation loop.
    pub loop_copies: usize,
    /// Copies lowered to 2D block messages.
    pub block2d_copies: usize,
    /// The 2D block messages emitted for them.
    pub block2d_messages: usize,
    /// `group_wait_events` turned into barriers.
    pub waits: usize,
}

impl AsyncCopyReport {
    /// Number of instructions lowered.
    pub fn lowered(&self) -> usize {
        self.loop_copies + self.block2d_copies + self.waits
    }
}

/// How one instruction is lowered.
#[derive(Clone, Debug)]
enum Plan {
    /// A copy as the per-invocation loop.
    Loop(Box<Copy>),
    /// A copy as 2D block messages.
    Block2d(Box<Copy>, Box<BlockPlan>),
    /// `group_wait_events` as a barrier.
    Wait(Inst),
}

/// Lowers every group async copy and `group_wait_events` of `shader` for `device`.
///
/// On error the shader is unchanged and the first problem (in program order) is
/// returned; [`lower_async_copies_all`] reports all of them.
pub fn lower_async_copies(
    shader: &mut Shader,
    device: &Device,
    options: &AsyncCopyOptions,
) -> Result<AsyncCopyReport, LowerError> {
    lower_async_copies_all(shader, device, options).map_err(|mut e| e.swap_remove(0))
}

/// [`lower_async_copies`], reporting every instruction that cannot be lowered.
pub fn lower_async_copies_all(
    shader: &mut Shader,
    device: &Device,
    options: &AsyncCopyOptions,
) -> Result<AsyncCopyReport, Vec<LowerError>> {
    let plans = plan_shader(shader, device, options);
    let checked = crate::dataport::check_input(shader, device);
    let plans = match (plans, checked) {
        (Ok(p), Ok(())) => p,
        (p, c) => {
            let mut errors = p.err().unwrap_or_default();
            errors.extend(c.err().unwrap_or_default());
            return Err(errors);
        }
    };
    let report = emit_shader(shader, plans);
    crate::dataport::lower_dataport(shader, device)?;
    Ok(report)
}

/// The plans of every copy and wait of a shader, made before anything is emitted.
pub(crate) struct ShaderPlans {
    /// Per function, in program order.
    plans: Vec<Vec<Plan>>,
    /// Invocations in the workgroup.
    wg_size: u32,
}

/// Plans every copy and wait of `shader` (nothing is changed): the plans, or every
/// instruction that cannot be lowered.
pub(crate) fn plan_shader(
    shader: &Shader,
    device: &Device,
    options: &AsyncCopyOptions,
) -> Result<ShaderPlans, Vec<LowerError>> {
    let wg_size = shader.workgroup_invocations();
    let mut errors = Vec::new();
    let mut plans: Vec<Vec<Plan>> = Vec::with_capacity(shader.functions.len());
    for func in &shader.functions {
        let mut fplans = Vec::new();
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            match intr.op {
                IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d => {
                    if wg_size == 0 || wg_size > u32::MAX as u64 {
                        errors.push(copy_error(
                            func,
                            inst,
                            device,
                            LowerErrorKind::Malformed(Malformation::Workgroup {
                                invocations: wg_size,
                            }),
                        ));
                        continue;
                    }
                    let c = match Copy::decode(func, inst, device) {
                        Ok(c) => c,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    };
                    if options.block2d == Block2dPolicy::Never {
                        fplans.push(Plan::Loop(Box::new(c)));
                        continue;
                    }
                    match plan_block2d(&c, device, shader.subgroup_size, wg_size as u32) {
                        Ok(b) if options.block2d == Block2dPolicy::Always || b.auto_ok() => {
                            fplans.push(Plan::Block2d(Box::new(c), Box::new(b)))
                        }
                        Ok(_) => fplans.push(Plan::Loop(Box::new(c))),
                        Err(reason) if options.block2d == Block2dPolicy::Always => {
                            errors.push(copy_error(
                                func,
                                inst,
                                device,
                                LowerErrorKind::IllegalBlock2d(Box::new(reason)),
                            ))
                        }
                        Err(_) => fplans.push(Plan::Loop(Box::new(c))),
                    }
                }
                IntrinsicOp::GroupWaitEvents => {
                    if func.inst(inst).dest.is_some() || intr.srcs.len() != 1 {
                        errors.push(copy_error(
                            func,
                            inst,
                            device,
                            LowerErrorKind::Malformed(Malformation::WaitShape),
                        ));
                        continue;
                    }
                    fplans.push(Plan::Wait(inst));
                }
                _ => {}
            }
        }
        plans.push(fplans);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ShaderPlans {
        plans,
        // Checked to fit when a copy was planned; without copies it is not used.
        wg_size: u32::try_from(wg_size).unwrap_or(0),
    })
}

/// Emits the plans of [`plan_shader`] into `shader`, which must be the shader they were
/// made for.
pub(crate) fn emit_shader(shader: &mut Shader, plans: ShaderPlans) -> AsyncCopyReport {
    let wg_size = plans.wg_size;
    let mut report = AsyncCopyReport::default();
    for (func, fplans) in shader.functions.iter_mut().zip(plans.plans) {
        for p in fplans {
            match p {
                Plan::Loop(c) => {
                    emit_loop(func, &c, wg_size);
                    finish_copy(func, &c);
                    report.loop_copies += 1;
                }
                Plan::Block2d(c, b) => {
                    emit_block2d(func, &c, &b);
                    finish_copy(func, &c);
                    report.block2d_copies += 1;
                    report.block2d_messages += b.blocks.len();
                }
                Plan::Wait(inst) => {
                    func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
                        op: IntrinsicOp::Barrier,
                        image: None,
                        srcs: smallvec![],
                        indices: smallvec![ir::MemModes::ALL.0],
                    }));
                    report.waits += 1;
                }
            }
        }
    }
    report
}

// ----- the pass --------------------------------------------------------------------------

/// The `lower-async-copies` pass for a pass pipeline.
#[derive(Clone, Debug)]
pub struct LowerAsyncCopies {
    /// The target.
    pub device: Device,
    /// The options.
    pub options: AsyncCopyOptions,
    /// What the last run did.
    pub report: Option<AsyncCopyReport>,
}

impl LowerAsyncCopies {
    /// The pass for `device` with `options`.
    pub fn new(device: Device, options: AsyncCopyOptions) -> LowerAsyncCopies {
        LowerAsyncCopies {
            device,
            options,
            report: None,
        }
    }
}

impl Pass for LowerAsyncCopies {
    fn name(&self) -> &'static str {
        "lower-async-copies"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let lowered = lower_async_copies_all(shader, &self.device, &self.options).map(|report| {
            let n = report.lowered();
            self.report = Some(report);
            n
        });
        crate::error::pass_outcome(self.name(), shader, lowered)
    }
}

/// Registers `lower-async-copies` in a pass registry: for `device`, with `defaults` as
/// the options a pipeline item does not override (`lower-async-copies(block2d=never)`,
/// `block2d=always`).
/// Without a device the pass exists but reports that it needs a platform.
pub fn register_lower_async_copies(
    registry: &mut ir::passes::PassRegistry,
    device: Option<Device>,
    defaults: AsyncCopyOptions,
) {
    registry.register(
        "lower-async-copies",
        "lower group async copies to LSC messages (block2d=auto|never|always)",
        move |o: &ir::passes::PassOptions| {
            let Some(device) = &device else {
                return Err("lower-async-copies needs a platform: pass --target".to_string());
            };
            o.expect_only(&["block2d"])?;
            let block2d = match o.string("block2d")? {
                None => defaults.block2d,
                Some("auto") => Block2dPolicy::Auto,
                Some("never") => Block2dPolicy::Never,
                Some("always") => Block2dPolicy::Always,
                Some(other) => {
                    return Err(format!(
                        "block2d must be `auto`, `never` or `always`, not `{other}`"
                    ))
                }
            };
            let options = AsyncCopyOptions { block2d };
            Ok(Box::new(LowerAsyncCopies::new(device.clone(), options)) as Box<dyn Pass>)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::passes::PassRegistry;

    fn parse(text: &str) -> Shader {
        ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"))
    }

    const COPY: &str = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = load_const (0x0000000100000000)
    32   %2 = load_const (0x00000004)
    32   %3 = @group_async_copy_2d2d (%0, %0, %1, %0, %2, %2, %2, %2, %2, %0)
    @group_wait_events (%3)
}";

    #[test]
    fn reports_and_pass_registration() {
        let dg2 = Device::preset("dg2").unwrap();
        let mut s = parse(COPY);
        let r = lower_async_copies(&mut s, &dg2, &AsyncCopyOptions::default()).unwrap();
        assert_eq!(
            r,
            AsyncCopyReport {
                loop_copies: 1,
                block2d_copies: 0,
                block2d_messages: 0,
                waits: 1
            }
        );
        assert_eq!(r.lowered(), 2);
        ir::validate(&s).unwrap();
        // Nothing left to lower: the pass reports no change.
        let mut pass = LowerAsyncCopies::new(dg2.clone(), AsyncCopyOptions::default());
        assert!(!pass.run(&mut s).unwrap());

        let mut reg = PassRegistry::new();
        register_lower_async_copies(&mut reg, Some(dg2), AsyncCopyOptions::default());
        let opts = |t: &str| ir::passes::manager::PassOptions::parse("lower-async-copies", t);
        assert!(reg
            .create("lower-async-copies", &opts("block2d=never").unwrap())
            .is_ok());
        let e = reg
            .create("lower-async-copies", &opts("block2d=sometimes").unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("block2d must be `auto`, `never` or `always`, not `sometimes`"),
            "{e}"
        );
        let mut none = PassRegistry::new();
        register_lower_async_copies(&mut none, None, AsyncCopyOptions::default());
        let e = none
            .create("lower-async-copies", &opts("").unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("needs a platform: pass --target"), "{e}");
    }

    #[test]
    fn malformed_copies_are_errors_and_leave_the_shader_alone() {
        // Both pointers 64-bit (the validator's error too): not lowered.
        let text = COPY.replace("(%0, %0, %1, %0, %2", "(%1, %0, %1, %0, %2");
        let mut s = parse(&text);
        let before = s.clone();
        let e = lower_async_copies(&mut s, &Device::preset("pvc").unwrap(), &Default::default())
            .unwrap_err();
        assert_eq!(
            e.kind,
            LowerErrorKind::Malformed(crate::Malformation::CopySides)
        );
        assert_eq!(
            e.to_string(),
            "7:5: cannot lower @group_async_copy_2d2d on pvc: one of `dst` and `src` must be shared (32-bit) and the other global (64-bit)"
        );
        assert_eq!(s, before);
    }

    /// A global -> shared copy of `lines` lines of `epl` 8-byte elements on `target`.
    fn wide(epl: u32, lines: u32) -> Shader {
        parse(&format!(
            "shader compute (local_size=32,1,1, subgroup_size=16)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = load_const (0x0000000100000000)
    32   %2 = load_const (0x00000008)
    32   %3 = load_const (0x{epl:08x})
    32   %4 = load_const (0x{lines:08x})
    32   %5 = @group_async_copy_2d2d (%0, %0, %1, %0, %2, %3, %4, %3, %3, %0)
}}"
        ))
    }

    #[test]
    fn auto_takes_block2d_up_to_a_message_budget() {
        let pvc = Device::preset("pvc").unwrap();
        let run = |s: &mut Shader, policy| {
            lower_async_copies(s, &pvc, &AsyncCopyOptions { block2d: policy }).unwrap()
        };
        // 64-byte lines (8 x d64), 32 rows: one 8x32nn block.
        let mut s = wide(8, 32);
        let r = run(&mut s, Block2dPolicy::Auto);
        assert_eq!((r.block2d_copies, r.block2d_messages), (1, 1));
        // 65 strips of 64 bytes: over the budget, the loop under auto.
        let mut s = wide(8 * 65, 1);
        let r = run(&mut s, Block2dPolicy::Auto);
        assert_eq!((r.block2d_copies, r.loop_copies), (0, 1));
        let mut s = wide(8 * 65, 1);
        let r = run(&mut s, Block2dPolicy::Always);
        assert_eq!((r.block2d_copies, r.block2d_messages), (1, 65));
        let mut s = wide(8, 32);
        let r = run(&mut s, Block2dPolicy::Never);
        assert_eq!((r.block2d_copies, r.loop_copies), (0, 1));
        for f in &s.functions {
            crate::messages::check_function(&pvc, &s.images, f).unwrap();
        }
    }
}
