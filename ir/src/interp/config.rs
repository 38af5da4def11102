//! The interpreter's settings and the counts of a run.

/// The default step budget of a run ([`Config::max_steps`]): 2^24 (16,777,216)
/// instructions and blocks per subgroup. The interpreter executes a few million SIMD
/// instructions a second, so a runaway loop stops within seconds, while a real loop
/// still has room: 400,000 iterations of a body of 40 instructions fit.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 24;

/// Interpreter settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// How many steps (instructions and blocks, see the module documentation) one run
    /// of a subgroup may execute before it stops with `InterpErrorKind::StepLimit` (a
    /// guard against infinite loops).
    pub max_steps: u64,
    /// Track which components derive from an `undef` (see the interpreter's module
    /// documentation): an `undef` taints its components; an ALU result component is
    /// tainted when a source component it reads is (a `bcsel` reads only the chosen
    /// source, unless its condition is tainted; an `ior` or `iand` one of whose
    /// operands is defined and decides the result, all ones or zero, is not), a phi
    /// copies its source's taint, and an intrinsic's result is tainted in a lane where
    /// any of its sources is. The result of a float
    /// instruction without NIR's `exact` flag is tainted too where Vulkan leaves it
    /// unspecified ([`crate::precision::result_unspecified`]: an infinite or NaN operand,
    /// a zero, infinite or NaN result), so that NIR's inexact rules (`a * 0.0` is
    /// `0.0`) compare as the undefs do. Off by default.
    pub track_undef: bool,
    /// Track, per component, the interval of values it may have where it derives from
    /// an instruction Vulkan lets err ([`crate::bounds`]): an instruction without
    /// `exact` whose bound is a number of ULPs, or an intrinsic result the environment
    /// gives an interval (`IntrinsicCall::set_dest_bounds`). ALU results take the
    /// interval [`crate::bounds::alu_bounds`] gives, phis copy their source's,
    /// intrinsics get none unless the environment sets one
    /// (`IntrinsicCall::src_bounds` shows it the sources'). Off by default.
    pub track_bounds: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_steps: DEFAULT_MAX_STEPS,
            track_undef: false,
            track_bounds: false,
        }
    }
}

/// What the interpreter counted during a run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Blocks executed (a block executed by several lanes at once counts once).
    pub blocks: u64,
    /// Instructions executed (each counts once per SIMD execution, not per lane).
    pub instructions: u64,
    /// Intrinsics handed to the environment.
    pub intrinsics: u64,
}

impl Stats {
    /// The steps counted against [`Config::max_steps`]: blocks plus instructions.
    pub fn steps(&self) -> u64 {
        self.blocks + self.instructions
    }
}
