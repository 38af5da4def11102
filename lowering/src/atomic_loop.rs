//! Float atomics the platform lacks, as compare-and-swap loops: of images inside
//! `lower-images`, of memory in the `lower-float-atomics` pass.
//!
//! Which float atomics exist:
//! - **Images.** Typed float `fadd` exists from Xe2 only, and the legacy data port's
//!   typed atomics have no float operation at all (see [`Device`]'s float-atomic fields).
//! - **Memory.** The legacy data port has no float add at all (its float atomics are
//!   `fmin`, `fmax` and `fcmpwr`, from Gfx9: none on Broadwell and before), and LSC has
//!   none on shared local memory (`lsc_atomic_fadd` exists on `.ugm` and `.ugml`, not
//!   `.slm`; IGC's vISA verifier).
//!
//! A shader that declares `AtomicFloat32AddEXT` or `AtomicFloat32MinMaxEXT` still gets
//! its atomics: each one the device does not offer becomes the loop every compiler
//! writes for a missing read-modify-write, on the integer compare-and-swap that every
//! memory and every typed atomic surface takes (R32_FLOAT included: BSpec 1706):
//!
//! ```text
//! 32 %first = @image_load (@img, %coord)         (the guess: any value is correct)
//! loop {
//!   block:
//!     32 %cur = phi %first, %seen
//!     32 %new = exact fadd %cur, %data           (fmin, fmax: the op itself)
//!     32 %seen = @image_atomic_swap (@img, %coord, %cur, %new) cmpxchg
//!     1  %done = ieq %seen, %cur
//!   if %done { break }
//! }
//! 32 %old = mov %cur                             (the atomic's value, its id kept)
//! ```
//!
//! (`load_ssbo` and `ssbo_atomic_swap`, `load_shared` and `shared_atomic_swap`,
//! `load_global` and `global_atomic_swap` for memory, with the atomic's address.)
//!
//! A lane leaves once its texel still held the value its new value was computed from;
//! the lanes another lane's store overtook go round with what they saw. The exchange
//! compares bits, so a NaN or a signed zero in memory cannot keep a lane looping.
//! The ALU op is `exact`: the atomic's result is the op's own (`-0.0 + 0.0` is `+0.0`).
//! `fcmpxchg` (of images without LSC, of memory before Gfx9) compares as floats
//! (`-0 == +0`, a NaN equals nothing) and writes back the value it found where the
//! texel differs from the comparand: `%new = bcsel (feq %cur, %compare), %data, %cur`.
//! Its read is then an exchange too, so every lane's operation takes effect at its
//! successful exchange, in lane order among the lanes of one message, as a native
//! atomic message's lanes do; leaving on the first guess alone would let a lane report
//! a texel another lane had already replaced.
//!
//! Only 32-bit values are taken. Of images, R32_FLOAT and format-less ones (which a
//! float atomic binds as R32_FLOAT): an R16_FLOAT texel's load converts it to 32 bits,
//! so its value is not the bits the exchange compares; those stay the planner's errors.
//! The image rewrite runs before planning, so the loop's load and exchange are planned
//! (and bound) as any other access.

use crate::device::Device;
use ir::passes::{Pass, PassError};
use ir::{AluInst, AluOp, AluType, AtomicOp, BaseType, Builder, Cursor, Format, Function};
use ir::{IndexKind, Inst, InstKind, IntrinsicInst, IntrinsicOp, Jump, Shader, Src, Type};

/// Where an atomic reads and writes: what decides whether the device has its float
/// operations, and which load and exchange the loop uses.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Space {
    Image,
    Ssbo,
    Shared,
    Global,
}

impl Space {
    /// The space of the atomic `op` (plain or swap), if it is one.
    fn of(op: IntrinsicOp) -> Option<Space> {
        use IntrinsicOp as I;
        Some(match op {
            I::ImageAtomic | I::ImageAtomicSwap => Space::Image,
            I::SsboAtomic | I::SsboAtomicSwap => Space::Ssbo,
            I::SharedAtomic | I::SharedAtomicSwap => Space::Shared,
            I::GlobalAtomic | I::GlobalAtomicSwap => Space::Global,
            _ => return None,
        })
    }

    /// The load and the compare-and-swap of the space.
    fn load_and_swap(self) -> (IntrinsicOp, IntrinsicOp) {
        use IntrinsicOp as I;
        match self {
            Space::Image => (I::ImageLoad, I::ImageAtomicSwap),
            Space::Ssbo => (I::LoadSsbo, I::SsboAtomicSwap),
            Space::Shared => (I::LoadShared, I::SharedAtomicSwap),
            Space::Global => (I::LoadGlobal, I::GlobalAtomicSwap),
        }
    }

    /// Whether `device` lacks the float atomic `op` here.
    fn lacks(self, op: AtomicOp, device: &Device) -> bool {
        match (self, op) {
            (Space::Image, _) => !device.has_image_atomic(op),
            (Space::Shared, AtomicOp::Fadd) => true,
            (Space::Ssbo | Space::Global, AtomicOp::Fadd) => !device.has_lsc,
            // The legacy data port's untyped float atomics arrive with Gfx9.
            (_, AtomicOp::Fmin | AtomicOp::Fmax | AtomicOp::Fcmpxchg) => {
                device.dataport.is_some_and(|caps| !caps.float_atomics)
            }
            _ => false,
        }
    }
}

/// The atomics of `func` in `spaces` that `device` lacks and a loop can serve.
fn targets(func: &Function, device: &Device, spaces: &[Space]) -> Vec<(Inst, Space, AtomicOp)> {
    func.insts_in_order()
        .into_iter()
        .filter_map(|i| {
            let x = func.inst(i).as_intrinsic()?;
            let space = Space::of(x.op).filter(|s| spaces.contains(s))?;
            let op = x
                .index(IndexKind::AtomicOp)
                .and_then(AtomicOp::from_index)?;
            let swap = matches!(
                x.op,
                IntrinsicOp::ImageAtomicSwap
                    | IntrinsicOp::SsboAtomicSwap
                    | IntrinsicOp::SharedAtomicSwap
                    | IntrinsicOp::GlobalAtomicSwap
            );
            let texel_bits32 = space != Space::Image
                || matches!(
                    x.index(IndexKind::Format).and_then(Format::from_index),
                    Some(Format::R32Float | Format::None)
                );
            let data = *x.srcs.last()?;
            (space.lacks(op, device)
                && op.is_swap() == swap
                && texel_bits32
                && Some(func.src_type(data)) == Type::scalar(32)
                && func.inst(i).dest.is_some())
            .then_some((i, space, op))
        })
        .collect()
}

/// Whether `shader` holds a float image atomic `device` lacks on a 32-bit texel.
pub(crate) fn images_needed(shader: &Shader, device: &Device) -> bool {
    shader
        .functions
        .iter()
        .any(|f| !targets(f, device, &[Space::Image]).is_empty())
}

/// Rewrites every float image atomic `device` lacks on a 32-bit texel as a
/// compare-and-swap loop; returns whether anything changed.
pub(crate) fn emulate_images(shader: &mut Shader, device: &Device) -> bool {
    emulate(shader, device, &[Space::Image])
}

/// Rewrites every float atomic of memory (storage buffers, shared memory, global
/// pointers) that `device` lacks as a compare-and-swap loop; returns whether anything
/// changed. Image atomics are `lower-images`' ([`crate::lower_images`]).
pub fn lower_float_atomics(shader: &mut Shader, device: &Device) -> bool {
    emulate(shader, device, &[Space::Ssbo, Space::Shared, Space::Global])
}

fn emulate(shader: &mut Shader, device: &Device, spaces: &[Space]) -> bool {
    let mut changed = false;
    for func in &mut shader.functions {
        for (inst, space, op) in targets(func, device, spaces) {
            emulate_one(func, inst, space, op);
            changed = true;
        }
    }
    changed
}

/// The indices of the loop's load and exchange, from the atomic's `x`: an image's four
/// image indices then the load's type or the exchange's op; memory's access (or shared
/// memory's base) then the load's alignment or the exchange's op.
fn loop_indices(x: &IntrinsicInst, space: Space) -> (Vec<u32>, Vec<u32>) {
    let with_last = |last: u32| {
        let mut indices = x.indices.to_vec();
        if let Some(l) = indices.last_mut() {
            *l = last;
        }
        indices
    };
    let load_last = match space {
        Space::Image => AluType::new(BaseType::Float, 32).to_index(),
        _ => 4,
    };
    (
        with_last(load_last),
        with_last(AtomicOp::Cmpxchg.to_index()),
    )
}

/// The loop for the atomic `inst` (op `op`), which becomes the `mov` of its result.
fn emulate_one(func: &mut Function, inst: Inst, space: Space, op: AtomicOp) {
    let Some(x) = func.inst(inst).as_intrinsic().cloned() else {
        return;
    };
    let Some(old) = func.inst(inst).dest else {
        return;
    };
    let ty = func.value_type(old);
    // The address: everything before the data (and the comparand of a swap).
    let operands = if op.is_swap() { 2 } else { 1 };
    let address: Vec<Src> = x.srcs[..x.srcs.len() - operands].to_vec();
    let data = x.srcs[x.srcs.len() - 1];
    let (load_op, swap_op) = space.load_and_swap();
    let (load_indices, swap_indices) = loop_indices(&x, space);

    let span = func.inst_span(inst);
    let mut b = Builder::new(func, Cursor::Before(inst));
    b.span = span;
    let first = b
        .intrinsic(load_op, x.image, &address, &load_indices, Some(ty))
        .expect("a load has a destination");
    let entry = b.current_block();
    let lp = b.push_loop();
    let cur = b.phi(ty, &[(entry, first.into())]);
    b.exact = true;
    let new: Src = match op {
        AtomicOp::Fadd => b.alu(AluOp::Fadd, &[cur.into(), data]).into(),
        AtomicOp::Fmin => b.alu(AluOp::Fmin, &[cur.into(), data]).into(),
        AtomicOp::Fmax => b.alu(AluOp::Fmax, &[cur.into(), data]).into(),
        _ => {
            let compare = x.srcs[x.srcs.len() - 2];
            let equal = b.alu(AluOp::Feq, &[cur.into(), compare]);
            b.bcsel(equal, data, cur).into()
        }
    };
    b.exact = false;
    let mut swap_srcs = address;
    swap_srcs.extend([cur.into(), new]);
    let seen = b
        .intrinsic(swap_op, x.image, &swap_srcs, &swap_indices, Some(ty))
        .expect("a compare-and-swap has a destination");
    let done = b.ieq(seen, cur);
    let leave = b.push_if(done);
    b.jump(Jump::Break);
    b.pop_if(leave);
    let latch = b.current_block();
    b.add_phi_src(cur, latch, seen);
    b.pop_loop(lp);
    let after = b.cursor;
    func.remove_inst(inst);
    func.insert_inst(inst, after);
    func.inst_mut(inst).kind = InstKind::Alu(AluInst::new(AluOp::Mov, [Src::from(cur)]));
}

/// The `lower-float-atomics` pass for a pass pipeline: [`lower_float_atomics`].
#[derive(Clone, Debug)]
pub struct LowerFloatAtomics {
    /// The target.
    pub device: Device,
}

impl Pass for LowerFloatAtomics {
    fn name(&self) -> &'static str {
        "lower-float-atomics"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        Ok(lower_float_atomics(shader, &self.device))
    }
}

/// Registers `lower-float-atomics` for `device` in a pass registry. Without a device
/// the pass exists but reports that it needs a platform.
pub fn register_lower_float_atomics(
    registry: &mut ir::passes::PassRegistry,
    device: Option<Device>,
) {
    registry.register(
        "lower-float-atomics",
        "turn the float atomics of memory the platform lacks into compare-and-swap loops",
        move |o: &ir::passes::PassOptions| {
            let Some(device) = &device else {
                return Err(
                    "lower-float-atomics needs a platform: which float atomics exist is the platform's"
                        .to_string(),
                );
            };
            o.expect_only(&[])?;
            Ok(Box::new(LowerFloatAtomics {
                device: device.clone(),
            }) as Box<dyn Pass>)
        },
    );
}
