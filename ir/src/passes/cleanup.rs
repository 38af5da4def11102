//! The NIR-style optimization loop: a list of cleanup passes run again and again until
//! a whole round changes nothing, with a cap on the number of rounds.
//!
//! The standard loop ([`Cleanup::standard`], `cleanup` in pipelines) is what a driver
//! runs after lowering: constant folding, algebraic simplification, copy propagation,
//! CSE and DCE, as the `do { ... } while (progress)` loops of Mesa's drivers.

use super::pass::{Pass, PassError};
use crate::shader::Shader;

/// The default cap on rounds; every pass of the loop only shrinks or simplifies the
/// shader, so real shaders settle in a handful of rounds.
pub const DEFAULT_MAX_ITERATIONS: u32 = 16;

/// Runs its passes in order, round after round, until a round changes nothing or
/// `max_iterations` rounds have run.
pub struct Cleanup {
    passes: Vec<Box<dyn Pass>>,
    max_iterations: u32,
    rounds: u32,
}

impl std::fmt::Debug for Cleanup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cleanup")
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
            passes,
            max_iterations: max_iterations.max(1),
            rounds: 0,
        }
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
        "cleanup"
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
            "cleanup: still changing after {} rounds; stopping",
            self.max_iterations
        );
        Ok(changed)
    }
}
