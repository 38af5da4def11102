//! The NIR-style optimization loops: a list of passes run again and again until a
//! whole round changes nothing, with a cap on the number of rounds.
//!
//! - [`Cleanup::optimize`] (`optimize` in pipelines) is Intel's `brw_nir_optimize`, the
//!   loop Mesa runs on a shader before lowering it, in its order: `copy-prop-shared`
//!   (its `nir_opt_copy_prop_vars` for workgroup memory), `copy-prop`,
//!   `opt-dead-write` (its `nir_opt_dead_write_vars` for storage buffers),
//!   `opt-shrink-vectors` (what its scalar NIR gets from `nir_lower_phis_to_scalar`
//!   and dead code elimination: see [`super::shrink_vectors`]), `dce`,
//!   `cse`, `opt-peephole-select` with limits 0 and 8, `algebraic`, `const-fold`,
//!   `opt-dead-cf`, `opt-trivial-continues` followed by `copy-prop` and `dce`, `opt-if`,
//!   `opt-loop-unroll`, `opt-remove-phis`, `opt-undef`. (NIR's variable passes have no
//!   counterpart: the front ends put local variables in SSA form themselves.)
//! - [`Cleanup::standard`] (`cleanup`) is what a driver runs after lowering: constant
//!   folding, algebraic simplification, copy propagation, CSE and DCE, which tighten the
//!   address code the lowering emits.

use super::pass::{Pass, PassError};
use crate::shader::Shader;

/// The default cap on rounds; every pass of the loop only shrinks or simplifies the
/// shader, so real shaders settle in a handful of rounds.
pub const DEFAULT_MAX_ITERATIONS: u32 = 16;

/// The default cap on rounds of [`Cleanup::optimize`]: the loop unroller unrolls one
/// loop per list and round, innermost first, so a shader with many loops takes a
/// round for each.
pub const DEFAULT_OPTIMIZE_ITERATIONS: u32 = 64;

/// Runs its passes in order, round after round, until a round changes nothing or
/// `max_iterations` rounds have run.
pub struct Cleanup {
    name: &'static str,
    passes: Vec<Box<dyn Pass>>,
    max_iterations: u32,
    rounds: u32,
}

impl std::fmt::Debug for Cleanup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cleanup")
            .field("name", &self.name)
            .field(
                "passes",
                &self.passes.iter().map(|p| p.name()).collect::<Vec<_>>(),
            )
            .field("max_iterations", &self.max_iterations)
            .finish()
    }
}

impl Cleanup {
    /// A loop over `passes` with at most `max_iterations` rounds (at least one).
    pub fn new(passes: Vec<Box<dyn Pass>>, max_iterations: u32) -> Cleanup {
        Cleanup {
            name: "cleanup",
            passes,
            max_iterations: max_iterations.max(1),
            rounds: 0,
        }
    }

    /// Intel's `brw_nir_optimize` loop (see the module documentation), at most
    /// `max_iterations` rounds.
    pub fn optimize(max_iterations: u32) -> Cleanup {
        use super::peephole_select::PeepholeSelect;
        let mut c = Cleanup::new(
            vec![
                Box::new(super::copy_prop_shared::CopyPropShared),
                Box::new(super::copy_prop::CopyProp),
                Box::new(super::dead_write::DeadWrite),
                Box::new(super::shrink_vectors::ShrinkVectors),
                Box::new(super::dce::Dce),
                Box::new(super::cse::Cse),
                Box::new(PeepholeSelect {
                    limit: 0,
                    expensive_alu_ok: true,
                }),
                Box::new(PeepholeSelect::default()),
                Box::new(super::algebraic::Algebraic),
                Box::new(super::const_fold::ConstFold),
                Box::new(super::dead_cf::DeadCf),
                Box::new(super::trivial_continues::TrivialContinues),
                Box::new(super::copy_prop::CopyProp),
                Box::new(super::dce::Dce),
                Box::new(super::opt_if::OptIf),
                Box::new(super::loop_unroll::LoopUnroll::default()),
                Box::new(super::remove_phis::RemovePhis),
                Box::new(super::opt_undef::OptUndef),
            ],
            max_iterations,
        );
        c.name = "optimize";
        c
    }

    /// The standard loop: `const-fold`, `algebraic`, `copy-prop`, `cse`, `dce`, at most
    /// `max_iterations` rounds.
    pub fn standard(max_iterations: u32) -> Cleanup {
        Cleanup::new(
            vec![
                Box::new(super::const_fold::ConstFold),
                Box::new(super::algebraic::Algebraic),
                Box::new(super::copy_prop::CopyProp),
                Box::new(super::cse::Cse),
                Box::new(super::dce::Dce),
            ],
            max_iterations,
        )
    }

    /// The names of the passes of one round.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// The number of rounds the last run took.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }
}

impl Pass for Cleanup {
    fn name(&self) -> &'static str {
        self.name
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        self.rounds = 0;
        while self.rounds < self.max_iterations {
            self.rounds += 1;
            let mut progress = false;
            for p in &mut self.passes {
                progress |= p.run(shader)?;
            }
            changed |= progress;
            if !progress {
                return Ok(changed);
            }
        }
        log::warn!(
            "{}: still changing after {} rounds; stopping",
            self.name,
            self.max_iterations
        );
        Ok(changed)
    }
}
