//! The state the planners and emitters of one run share: the plan context
//! ([`PlanCtx`]), the routing of an access between the typed and untyped paths
//! ([`Route`]), and the per-function emission state ([`EmitCtx`]).

use crate::address::AddressPlans;
use crate::device::Device;
use crate::options::LowerOptions;
use crate::report::SurfaceFormat;
use ir::function::InstKind;
use ir::{AluInst, Builder, Cursor, Function, Inst, Src, Value};
use smallvec::smallvec;

/// Why an access needs the untyped path.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum UntypedReason {
    /// No typed format matches the image format (docs/hardware/mesa-storage-images.md §2).
    NoTypedFormat,
    /// [`LowerOptions::force_untyped`].
    Forced,
    /// A 64-bit atomic: A64 global atomics on a computed texel address (§9).
    Int64Atomic,
    /// A multisampled storage image: typed messages reach no sample before Xe3's MSRT
    /// messages (Mesa's brw uses those from verx10 300; anv exposes no multisampled
    /// storage images before), so the shader addresses the sample's slice itself.
    Multisampled,
}

/// What a typed planner decides: the typed plan, or the reason the access must take the
/// untyped path. Planners never enter the untyped path themselves; the dispatcher
/// (`images/mod.rs`) does, so that the choice between the paths is made in one place.
#[derive(Clone, Debug)]
pub(crate) enum Route<T> {
    /// The access goes through typed messages as planned.
    Typed(T),
    /// The access must take the untyped path, for this reason.
    Untyped(UntypedReason),
}

impl<T> Route<T> {
    /// The typed plan mapped through `f`; the reason unchanged.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Route<U> {
        match self {
            Route::Typed(t) => Route::Typed(f(t)),
            Route::Untyped(r) => Route::Untyped(r),
        }
    }
}

/// One run of the pass while it plans: the target, the options, and the address plans
/// made so far (owned by the run, for its one device).
pub(crate) struct PlanCtx<'r> {
    /// The target.
    pub device: &'r Device,
    /// The options.
    pub options: &'r LowerOptions,
    /// The untyped path's address plans.
    pub address_plans: AddressPlans<'r>,
    /// Per declared image, the surface the accesses planned so far bind it with.
    pub surfaces: Vec<Option<SurfaceFormat>>,
}

/// Per-function emission state.
pub(crate) struct EmitCtx {
    /// The function's shared constant 0 (unused typed coordinates, LOD).
    zero: Option<Value>,
    /// Instructions with ids from here on were created by this pass.
    first_new_inst: usize,
}

impl EmitCtx {
    /// The state for emitting into `func`: instructions created from now on are the
    /// pass's own.
    pub fn new(func: &Function) -> EmitCtx {
        EmitCtx {
            zero: None,
            first_new_inst: func.num_inst_ids(),
        }
    }

    /// A builder inserting in front of `inst`, giving new instructions its span.
    pub fn builder<'f>(&self, func: &'f mut Function, inst: Inst) -> Builder<'f> {
        let span = func.inst_span(inst);
        let mut b = Builder::new(func, Cursor::Before(inst));
        b.span = span;
        b
    }

    /// The function's shared 32-bit constant 0, placed at the start of its first block so
    /// that it dominates every use.
    pub fn zero(&mut self, func: &mut Function) -> Value {
        if let Some(z) = self.zero {
            return z;
        }
        let first = func
            .first_block(ir::CfParent::Root)
            .expect("a function body starts with a block");
        let mut b = Builder::new(func, Cursor::BlockStart(first));
        let z = b.imm_u32(0);
        self.zero = Some(z);
        z
    }

    /// Makes `inst` (the original intrinsic) define `result`: when `result` is the whole
    /// value of the instruction just emitted in front of `inst`, that instruction moves
    /// into `inst` (keeping `inst`'s value id); otherwise `inst` becomes a `mov`.
    pub fn finish(&self, func: &mut Function, inst: Inst, result: Src) {
        let dest = func
            .inst(inst)
            .dest
            .expect("a lowered value-defining intrinsic");
        let ty = func.value_type(dest);
        if result.swizzle.is_identity() && func.value_type(result.value) == ty {
            if let Some(def) = func.value_def(result.value) {
                // The instruction right before `inst`, created by this pass, has no uses
                // yet: everything emitted for this access comes before it.
                if def.index() >= self.first_new_inst && func.prev_inst(inst) == Some(def) {
                    let kind = std::mem::replace(&mut func.inst_mut(def).kind, InstKind::Undef);
                    func.remove_inst(def);
                    func.inst_mut(inst).kind = kind;
                    return;
                }
            }
        }
        func.inst_mut(inst).kind = InstKind::Alu(AluInst {
            op: ir::AluOp::Mov,
            srcs: smallvec![result],
            exact: false,
        });
    }
}
