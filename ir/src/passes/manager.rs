//! The pass manager: named pipelines, validation after each pass, printing after each
//! pass and per-pass timing.
//!
//! A pipeline is a comma-separated list of pass names, each optionally followed by
//! options in parentheses:
//!
//! ```text
//! const-fold,cse,dce
//! lower-images(bounds-check=false,force-untyped),cleanup(max-iterations=8)
//! ```
//!
//! Names are looked up in a [`PassRegistry`]. [`PassRegistry::with_ir_passes`] knows the
//! passes of this crate; other crates add theirs with [`PassRegistry::register`], giving
//! a constructor that receives the parsed [`PassOptions`].
//!
//! ```
//! use ir::passes::manager::{PassManager, PassRegistry};
//! let registry = PassRegistry::with_ir_passes();
//! let mut pm = PassManager::parse_pipeline("copy-prop,cse,dce", &registry).unwrap();
//! pm.set_verify(true);
//! let mut shader = ir::Shader::new([1, 1, 1]);
//! shader.functions.push(ir::Function::new("main"));
//! assert_eq!(pm.run(&mut shader).unwrap(), false);
//! ```

use super::pass::{Pass, PassError};
use crate::diag::Diagnostic;
use crate::shader::Shader;
use crate::validate::validate;
use indexmap::IndexMap;
use std::fmt;
use std::time::{Duration, Instant};

// ----- options ------------------------------------------------------------------------

/// The options of one pass in a pipeline: `key=value` pairs and bare flags, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions {
    pass: String,
    items: Vec<(String, Option<String>)>,
}

impl PassOptions {
    /// No options, for pass `pass`.
    pub fn none(pass: &str) -> PassOptions {
        PassOptions {
            pass: pass.to_string(),
            items: Vec::new(),
        }
    }

    /// Parses `key=value,flag,...` (the text between the parentheses) for pass `pass`.
    pub fn parse(pass: &str, text: &str) -> Result<PassOptions, PipelineError> {
        let mut items: Vec<(String, Option<String>)> = Vec::new();
        let bad = |message: String| PipelineError::BadOptions {
            pass: pass.to_string(),
            message,
        };
        if text.trim().is_empty() {
            return Ok(PassOptions::none(pass));
        }
        for part in text.split(',') {
            let part = part.trim();
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
                None => (part, None),
            };
            if key.is_empty() {
                return Err(bad(format!("empty option name in `{text}`")));
            }
            if value.as_deref() == Some("") {
                return Err(bad(format!("option `{key}` has an empty value")));
            }
            if items.iter().any(|(k, _)| k == key) {
                return Err(bad(format!("option `{key}` is given more than once")));
            }
            items.push((key.to_string(), value));
        }
        Ok(PassOptions {
            pass: pass.to_string(),
            items,
        })
    }

    /// The pass these options are for.
    pub fn pass(&self) -> &str {
        &self.pass
    }

    /// Whether no option was given.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The options in the order written: name and value (`None` for a bare flag).
    pub fn iter(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.items.iter().map(|(k, v)| (k.as_str(), v.as_deref()))
    }

    /// Fails on any option not in `known`, naming it and listing the known ones.
    pub fn expect_only(&self, known: &[&str]) -> Result<(), String> {
        for (k, _) in &self.items {
            if !known.contains(&k.as_str()) {
                let list = if known.is_empty() {
                    "it takes no options".to_string()
                } else {
                    format!("known options: {}", known.join(", "))
                };
                return Err(format!("unknown option `{k}` ({list})"));
            }
        }
        Ok(())
    }

    /// The raw value of `key`: `None` if absent, `Some(None)` for a bare flag.
    pub fn get(&self, key: &str) -> Option<Option<&str>> {
        self.items
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref())
    }

    /// A boolean option: absent gives `default`, a bare flag `true`, otherwise `true`
    /// or `false`.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(default),
            Some(None) | Some(Some("true")) => Ok(true),
            Some(Some("false")) => Ok(false),
            Some(Some(v)) => Err(format!("option `{key}` takes true or false, found `{v}`")),
        }
    }

    /// An unsigned integer option (decimal or `0x` hexadecimal): absent gives `default`.
    pub fn u32(&self, key: &str, default: u32) -> Result<u32, String> {
        match self.get(key) {
            None => Ok(default),
            Some(None) => Err(format!("option `{key}` needs a value (`{key}=N`)")),
            Some(Some(v)) => {
                let parsed = match v.strip_prefix("0x") {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => v.parse().ok(),
                };
                parsed
                    .ok_or_else(|| format!("option `{key}` takes an unsigned integer, found `{v}`"))
            }
        }
    }

    /// A string option: absent gives `None`; a bare flag is an error.
    pub fn string(&self, key: &str) -> Result<Option<&str>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(None) => Err(format!("option `{key}` needs a value (`{key}=...`)")),
            Some(Some(v)) => Ok(Some(v)),
        }
    }
}

impl fmt::Display for PassOptions {
    /// The pipeline spelling: `a=1,b` (empty when there are no options).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(k)?;
            if let Some(v) = v {
                write!(f, "={v}")?;
            }
        }
        Ok(())
    }
}

// ----- errors -------------------------------------------------------------------------

/// A pipeline that could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineError {
    /// The pipeline text is malformed.
    Syntax {
        /// Which pass of the pipeline was being read, counting from 1.
        item: usize,
        /// Byte offset in the pipeline text.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// No pass has this name.
    UnknownPass {
        /// The name written.
        name: String,
        /// The names the registry knows.
        known: Vec<String>,
    },
    /// A pass rejected its options.
    BadOptions {
        /// The pass.
        pass: String,
        /// Why.
        message: String,
    },
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Syntax {
                offset, message, ..
            } => {
                write!(f, "pipeline, at offset {offset}: {message}")
            }
            PipelineError::UnknownPass { name, known } => {
                write!(
                    f,
                    "unknown pass `{name}` (known passes: {})",
                    known.join(", ")
                )
            }
            PipelineError::BadOptions { pass, message } => {
                write!(f, "pass `{pass}`: {message}")
            }
        }
    }
}

impl std::error::Error for PipelineError {}

/// Why running a pipeline stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Validation is on and the shader was invalid before the first pass.
    InvalidInput(Vec<Diagnostic>),
    /// A pass failed.
    Pass(PassError),
    /// Validation is on and the shader was invalid after a pass: that pass broke it.
    InvalidAfter {
        /// The pass that ran last.
        pass: String,
        /// Its position in the pipeline (0-based).
        index: usize,
        /// The validator's findings.
        diagnostics: Vec<Diagnostic>,
    },
}

impl RunError {
    /// The diagnostics, for rendering against the source text.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            RunError::InvalidInput(d) => d,
            RunError::Pass(e) => &e.diagnostics,
            RunError::InvalidAfter { diagnostics, .. } => diagnostics,
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::InvalidInput(d) => {
                write!(f, "the input shader is invalid")?;
                for x in d {
                    write!(f, "\n  {x}")?;
                }
                Ok(())
            }
            RunError::Pass(e) => write!(f, "{e}"),
            RunError::InvalidAfter {
                pass,
                index,
                diagnostics,
            } => {
                write!(
                    f,
                    "the shader is invalid after pass `{pass}` (pass {} of the pipeline)",
                    index + 1
                )?;
                for x in diagnostics {
                    write!(f, "\n  {x}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RunError {}

// ----- registry -----------------------------------------------------------------------

/// Builds a pass from its options.
pub type PassFactory = Box<dyn Fn(&PassOptions) -> Result<Box<dyn Pass>, String> + Send + Sync>;

struct Entry {
    description: String,
    factory: PassFactory,
}

/// Maps pass names to constructors.
pub struct PassRegistry {
    entries: IndexMap<String, Entry>,
}

impl Default for PassRegistry {
    fn default() -> Self {
        PassRegistry::with_ir_passes()
    }
}

impl fmt::Debug for PassRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.entries.keys()).finish()
    }
}

/// A factory for a pass that takes no options.
fn simple<P: Pass + Default + 'static>(opts: &PassOptions) -> Result<Box<dyn Pass>, String> {
    opts.expect_only(&[])?;
    Ok(Box::new(P::default()))
}

impl PassRegistry {
    /// An empty registry.
    pub fn new() -> PassRegistry {
        PassRegistry {
            entries: IndexMap::new(),
        }
    }

    /// The passes of this crate: `const-fold`, `algebraic`, `copy-prop`, `cse`, `dce`,
    /// NIR's control-flow passes (`opt-dead-cf`, `opt-trivial-continues`, `opt-if`,
    /// `opt-peephole-select`, `opt-undef`, `opt-remove-phis`, `opt-loop-unroll`),
    /// `opt-idiv-const`, `opt-load-store-vectorize`, `opt-dead-write`,
    /// `lower-mem-access-bit-sizes`, `opt-access`,
    /// `opt-peephole-ffma`,
    /// `optimize` (the loop over all of them), `cleanup` (the loop over the first five;
    /// option `max-iterations=N`), `lower-compute-system-values` and
    /// `lower-non-uniform-access`.
    pub fn with_ir_passes() -> PassRegistry {
        let mut r = PassRegistry::new();
        r.register(
            "const-fold",
            "evaluate instructions whose sources are constants",
            simple::<super::const_fold::ConstFold>,
        );
        r.register(
            "algebraic",
            "algebraic simplification (nir_opt_algebraic-style rules)",
            simple::<super::algebraic::Algebraic>,
        );
        r.register(
            "copy-prop",
            "forward mov, vecN-as-swizzle and trivial-phi copies to their uses",
            simple::<super::copy_prop::CopyProp>,
        );
        r.register(
            "copy-prop-shared",
            "a workgroup-memory load of bytes an earlier load read, unwritten since, reads that load's value (nir_opt_copy_prop_vars for shared memory)",
            simple::<super::copy_prop_shared::CopyPropShared>,
        );
        r.register(
            "cse",
            "global value numbering over the dominator tree",
            simple::<super::cse::Cse>,
        );
        r.register(
            "dce",
            "remove unused instructions and dead control flow",
            simple::<super::dce::Dce>,
        );
        r.register(
            "opt-dead-cf",
            "constant-condition ifs, empty ifs, unreachable code, loops that run once, dead loops (nir_opt_dead_cf)",
            simple::<super::dead_cf::DeadCf>,
        );
        r.register(
            "opt-trivial-continues",
            "delete continues that only jump to where the loop body ends anyway (nir_opt_trivial_continues)",
            simple::<super::trivial_continues::TrivialContinues>,
        );
        r.register(
            "opt-if",
            "move loop-terminator branches out, invert empty-then ifs, merge ifs, fold condition uses and true/false phis (nir_opt_if)",
            simple::<super::opt_if::OptIf>,
        );
        r.register(
            "opt-peephole-select",
            "flatten small ifs into bcsel, never speculating memory accesses (nir_opt_peephole_select; limit=N default 8, expensive-alu=BOOL)",
            |o: &PassOptions| {
                o.expect_only(&["limit", "expensive-alu"])?;
                Ok(Box::new(super::peephole_select::PeepholeSelect {
                    limit: o.u32("limit", 8)?,
                    expensive_alu_ok: o.bool("expensive-alu", true)?,
                }) as Box<dyn Pass>)
            },
        );
        r.register(
            "opt-undef",
            "bcsel of an undef, vectors of undefs and stores of undefs (nir_opt_undef)",
            simple::<super::opt_undef::OptUndef>,
        );
        r.register(
            "opt-shrink-vectors",
            "vectors, phis included, computed at the width of the components read (nir_opt_shrink_vectors)",
            simple::<super::shrink_vectors::ShrinkVectors>,
        );
        r.register(
            "opt-remove-phis",
            "replace phis whose sources are one value, ignoring undefs (nir_opt_remove_phis)",
            simple::<super::remove_phis::RemovePhis>,
        );
        r.register(
            "opt-loop-unroll",
            "unroll loops of constant trip count within NIR's limits (nir_opt_loop_unroll; max-iterations=N, default 32)",
            |o: &PassOptions| {
                o.expect_only(&["max-iterations"])?;
                Ok(Box::new(super::loop_unroll::LoopUnroll {
                    max_iterations: o.u32(
                        "max-iterations",
                        super::loop_unroll::DEFAULT_MAX_ITERATIONS,
                    )?,
                }) as Box<dyn Pass>)
            },
        );
        r.register(
            "opt-idiv-const",
            "32-bit division by a constant: udiv and umod as a multiplication by the reciprocal, idiv, irem and imod by a power of two as shifts (nir_opt_idiv_const)",
            simple::<super::idiv_const::IdivConst>,
        );
        r.register(
            "opt-load-store-vectorize",
            "32-bit load_ssbo and store_ssbo of adjacent bytes in one block, load_shared and store_shared, and load_global and store_global of one base address, as one access of up to four components (nir_opt_load_store_vectorize)",
            simple::<super::load_store_vectorize::LoadStoreVectorize>,
        );
        r.register(
            "opt-dead-write",
            "store_ssbo whose bytes a later store of the block writes again, nothing reading them between, removed (nir_opt_dead_write_vars)",
            simple::<super::dead_write::DeadWrite>,
        );
        r.register(
            "lower-mem-access-bit-sizes",
            "dword-aligned loads of 8- or 16-bit vectors that fill whole dwords as 32-bit loads and extracts (nir_lower_mem_access_bit_sizes)",
            simple::<super::mem_access_bit_sizes::LowerMemAccessBitSizes>,
        );
        r.register(
            "opt-access",
            "images whose texels the shader never reads (no load, atomic or sampler message) declared writeonly (nir_opt_access)",
            simple::<super::opt_access::OptAccess>,
        );
        r.register(
            "opt-peephole-ffma",
            "fuse an fadd of an fmul into ffma where neither is exact (SPIR-V contraction; changes the rounding, so the front ends run it at import, not -O)",
            simple::<super::peephole_ffma::PeepholeFfma>,
        );
        r.register(
            "lower-compute-system-values",
            "local invocation IDs of one-invocation-wide workgroup dimensions as 0, and a fixed subgroup size and count as constants (nir_lower_compute_system_values)",
            simple::<super::compute_system_values::LowerComputeSystemValues>,
        );
        r.register(
            "optimize",
            "Intel's brw_nir_optimize loop: copy-prop-shared, copy-prop, opt-dead-write, opt-shrink-vectors, dce, cse, opt-peephole-select, algebraic, const-fold, opt-dead-cf, opt-trivial-continues, opt-if, opt-loop-unroll, opt-remove-phis, opt-undef until nothing changes (max-iterations=N, default 64)",
            |o: &PassOptions| {
                o.expect_only(&["max-iterations"])?;
                let n = o.u32("max-iterations", super::cleanup::DEFAULT_OPTIMIZE_ITERATIONS)?;
                if n == 0 {
                    return Err("max-iterations must be at least 1".to_string());
                }
                Ok(Box::new(super::cleanup::Cleanup::optimize(n)) as Box<dyn Pass>)
            },
        );
        r.register(
            "cleanup",
            "const-fold, algebraic, copy-prop, cse, dce until nothing changes (max-iterations=N, default 16)",
            |o: &PassOptions| {
                o.expect_only(&["max-iterations"])?;
                let n = o.u32(
                    "max-iterations",
                    super::cleanup::DEFAULT_MAX_ITERATIONS,
                )?;
                if n == 0 {
                    return Err("max-iterations must be at least 1".to_string());
                }
                Ok(Box::new(super::cleanup::Cleanup::standard(n)) as Box<dyn Pass>)
            },
        );
        r.register(
            "lower-non-uniform-access",
            "wrap non_uniform image accesses in a loop over their distinct indices (nir_lower_non_uniform_access)",
            simple::<super::non_uniform::LowerNonUniformAccess>,
        );
        r
    }

    /// Registers (or replaces) a pass. `factory` receives the options written after the
    /// name and should reject unknown ones ([`PassOptions::expect_only`]).
    pub fn register(
        &mut self,
        name: &str,
        description: &str,
        factory: impl Fn(&PassOptions) -> Result<Box<dyn Pass>, String> + Send + Sync + 'static,
    ) {
        self.entries.insert(
            name.to_string(),
            Entry {
                description: description.to_string(),
                factory: Box::new(factory),
            },
        );
    }

    /// Whether a pass is registered under `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// The registered passes: name and one-line description, in registration order.
    pub fn passes(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries
            .iter()
            .map(|(k, e)| (k.as_str(), e.description.as_str()))
    }

    /// Builds the pass `name` with `options`.
    pub fn create(
        &self,
        name: &str,
        options: &PassOptions,
    ) -> Result<Box<dyn Pass>, PipelineError> {
        let entry = self
            .entries
            .get(name)
            .ok_or_else(|| PipelineError::UnknownPass {
                name: name.to_string(),
                known: self.entries.keys().cloned().collect(),
            })?;
        (entry.factory)(options).map_err(|message| PipelineError::BadOptions {
            pass: name.to_string(),
            message,
        })
    }
}

/// Splits a pipeline into `(name, options)` items; commas inside parentheses belong to
/// the options.
pub fn split_pipeline(text: &str) -> Result<Vec<(String, PassOptions)>, PipelineError> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    while pos <= bytes.len() {
        // One item: name [ '(' options ')' ] followed by ',' or the end.
        let start = pos;
        while pos < bytes.len() && bytes[pos] != b',' && bytes[pos] != b'(' && bytes[pos] != b')' {
            pos += 1;
        }
        let name = text[start..pos].trim();
        let mut options_text = "";
        if pos < bytes.len() && bytes[pos] == b'(' {
            let open = pos;
            let mut depth = 0usize;
            while pos < bytes.len() {
                match bytes[pos] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                pos += 1;
            }
            if pos >= bytes.len() {
                return Err(PipelineError::Syntax {
                    item: out.len() + 1,
                    offset: open,
                    message: "unclosed `(`".to_string(),
                });
            }
            options_text = &text[open + 1..pos];
            pos += 1;
            while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
                pos += 1;
            }
        }
        if pos < bytes.len() && bytes[pos] == b')' {
            return Err(PipelineError::Syntax {
                item: out.len() + 1,
                offset: pos,
                message: "unmatched `)`".to_string(),
            });
        }
        if pos < bytes.len() && bytes[pos] != b',' {
            return Err(PipelineError::Syntax {
                item: out.len() + 1,
                offset: pos,
                message: "expected `,` after the options of a pass".to_string(),
            });
        }
        if name.is_empty() {
            if text.trim().is_empty() && out.is_empty() {
                return Ok(out);
            }
            return Err(PipelineError::Syntax {
                item: out.len() + 1,
                offset: start,
                message: "expected a pass name".to_string(),
            });
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(PipelineError::Syntax {
                item: out.len() + 1,
                offset: start,
                message: format!("`{name}` is not a pass name (letters, digits, `-` and `_`)"),
            });
        }
        out.push((name.to_string(), PassOptions::parse(name, options_text)?));
        pos += 1; // past the ',' (or the end)
    }
    Ok(out)
}

// ----- the manager --------------------------------------------------------------------

/// How long one pass took and whether it changed the shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassTiming {
    /// The pass name.
    pub name: &'static str,
    /// Time spent in the pass (validation not included).
    pub duration: Duration,
    /// Whether the pass reported a change.
    pub changed: bool,
}

/// A callback run after each pass with the pass name and the shader.
pub type PrintAfter<'a> = Box<dyn FnMut(&str, &Shader) + 'a>;

/// Runs a pipeline of passes over a shader.
pub struct PassManager<'a> {
    passes: Vec<Box<dyn Pass>>,
    verify: bool,
    print_after: Option<PrintAfter<'a>>,
    timings: Vec<PassTiming>,
    validation_time: Duration,
}

impl Default for PassManager<'_> {
    fn default() -> Self {
        PassManager::new()
    }
}

impl fmt::Debug for PassManager<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PassManager")
            .field("passes", &self.pass_names())
            .field("verify", &self.verify)
            .finish()
    }
}

impl<'a> PassManager<'a> {
    /// An empty pipeline. Validation after each pass is on in debug builds (as NIR's
    /// `NIR_DEBUG=validate` default) and off in release builds.
    pub fn new() -> PassManager<'a> {
        PassManager {
            passes: Vec::new(),
            verify: cfg!(debug_assertions),
            print_after: None,
            timings: Vec::new(),
            validation_time: Duration::ZERO,
        }
    }

    /// Builds the pipeline `text` (`const-fold,cse,dce`) from `registry`.
    pub fn parse_pipeline(
        text: &str,
        registry: &PassRegistry,
    ) -> Result<PassManager<'a>, PipelineError> {
        let mut pm = PassManager::new();
        for (name, opts) in split_pipeline(text)? {
            pm.add_pass(registry.create(&name, &opts)?);
        }
        Ok(pm)
    }

    /// Appends a pass.
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) {
        self.passes.push(pass);
    }

    /// The names of the passes, in order.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Validates the input before the first pass and the shader after every pass
    /// (`ir-opt --verify`).
    pub fn set_verify(&mut self, on: bool) {
        self.verify = on;
    }

    /// Calls `f` with the pass name and the shader after every pass
    /// (`ir-opt --print-after-all`).
    pub fn print_after_each(&mut self, f: impl FnMut(&str, &Shader) + 'a) {
        self.print_after = Some(Box::new(f));
    }

    /// Runs every pass in order. Returns whether any pass changed the shader. With
    /// validation on, stops at the first pass after which the shader is invalid.
    pub fn run(&mut self, shader: &mut Shader) -> Result<bool, RunError> {
        if self.verify {
            let t = Instant::now();
            let r = validate(shader);
            self.validation_time += t.elapsed();
            r.map_err(RunError::InvalidInput)?;
        }
        let mut changed = false;
        for (index, pass) in self.passes.iter_mut().enumerate() {
            let name = pass.name();
            let t = Instant::now();
            let did = pass.run(shader).map_err(RunError::Pass)?;
            self.timings.push(PassTiming {
                name,
                duration: t.elapsed(),
                changed: did,
            });
            log::debug!("pass {name}: {}", if did { "changed" } else { "no change" });
            changed |= did;
            if let Some(f) = self.print_after.as_mut() {
                f(name, shader);
            }
            if self.verify {
                let t = Instant::now();
                let r = validate(shader);
                self.validation_time += t.elapsed();
                r.map_err(|diagnostics| RunError::InvalidAfter {
                    pass: name.to_string(),
                    index,
                    diagnostics,
                })?;
            }
        }
        Ok(changed)
    }

    /// The timing of every pass run so far, in order (a pass run twice appears twice).
    pub fn timings(&self) -> &[PassTiming] {
        &self.timings
    }

    /// Total time spent validating.
    pub fn validation_time(&self) -> Duration {
        self.validation_time
    }

    /// A table of pass timings (`ir-opt --time-passes`): one line per pass run, then
    /// validation and the total.
    pub fn timing_report(&self) -> String {
        let total: Duration =
            self.timings.iter().map(|t| t.duration).sum::<Duration>() + self.validation_time;
        let share = |d: Duration| {
            if total.is_zero() {
                0.0
            } else {
                100.0 * d.as_secs_f64() / total.as_secs_f64()
            }
        };
        let mut out = String::from("     time (ms)   share  changed  pass\n");
        for t in &self.timings {
            out.push_str(&format!(
                "{:>14.3}  {:>5.1}%  {:<7}  {}\n",
                t.duration.as_secs_f64() * 1e3,
                share(t.duration),
                if t.changed { "yes" } else { "no" },
                t.name
            ));
        }
        if !self.validation_time.is_zero() {
            out.push_str(&format!(
                "{:>14.3}  {:>5.1}%           (validation)\n",
                self.validation_time.as_secs_f64() * 1e3,
                share(self.validation_time)
            ));
        }
        out.push_str(&format!(
            "{:>14.3}  100.0%           total\n",
            total.as_secs_f64() * 1e3
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::Function;
    use crate::types::Type;
    use std::cell::RefCell;

    #[test]
    fn pipelines_split_with_options() {
        let items =
            split_pipeline(" copy-prop , lower-images(bounds-check=false, force-untyped),dce")
                .unwrap();
        let names: Vec<&str> = items.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["copy-prop", "lower-images", "dce"]);
        let o = &items[1].1;
        assert_eq!(o.to_string(), "bounds-check=false,force-untyped");
        assert_eq!(o.bool("bounds-check", true), Ok(false));
        assert_eq!(o.bool("force-untyped", false), Ok(true));
        assert_eq!(o.bool("absent", true), Ok(true));
        assert!(items[0].1.is_empty());
        assert_eq!(split_pipeline("").unwrap(), vec![]);
        assert_eq!(split_pipeline("   ").unwrap(), vec![]);
    }

    #[test]
    fn pipeline_syntax_errors() {
        let err = |t: &str| split_pipeline(t).unwrap_err().to_string();
        assert_eq!(
            err("cse,,dce"),
            "pipeline, at offset 4: expected a pass name"
        );
        assert_eq!(err("cse,"), "pipeline, at offset 4: expected a pass name");
        assert_eq!(err("cse(a=1"), "pipeline, at offset 3: unclosed `(`");
        assert_eq!(err("cse)"), "pipeline, at offset 3: unmatched `)`");
        assert_eq!(
            err("cse(a) dce"),
            "pipeline, at offset 7: expected `,` after the options of a pass"
        );
        assert_eq!(
            err("c$e"),
            "pipeline, at offset 0: `c$e` is not a pass name (letters, digits, `-` and `_`)"
        );
        // The pass being read, counted from 1; commas inside options do not count.
        let item = |t: &str| match split_pipeline(t) {
            Err(PipelineError::Syntax { item, .. }) => item,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(item("cse,,dce"), 2);
        assert_eq!(item("c$e"), 1);
        assert_eq!(item("a(x=1,y=2),b,c(z"), 3);
        assert_eq!(
            err("x(a=1,a=2)"),
            "pass `x`: option `a` is given more than once"
        );
        assert_eq!(err("x(=1)"), "pass `x`: empty option name in `=1`");
        assert_eq!(err("x(a=)"), "pass `x`: option `a` has an empty value");
    }

    #[test]
    fn option_values() {
        let o = PassOptions::parse("p", "n=12,h=0x10,bad=1x,flag,s=abc").unwrap();
        assert_eq!(o.u32("n", 0), Ok(12));
        assert_eq!(o.u32("h", 0), Ok(16));
        assert_eq!(o.u32("missing", 7), Ok(7));
        assert_eq!(
            o.u32("bad", 0),
            Err("option `bad` takes an unsigned integer, found `1x`".into())
        );
        assert_eq!(
            o.u32("flag", 0),
            Err("option `flag` needs a value (`flag=N`)".into())
        );
        assert_eq!(
            o.bool("s", false),
            Err("option `s` takes true or false, found `abc`".into())
        );
        assert_eq!(o.string("s"), Ok(Some("abc")));
        assert_eq!(o.expect_only(&["n", "h", "bad", "flag", "s"]), Ok(()));
        assert_eq!(
            o.expect_only(&["n"]),
            Err("unknown option `h` (known options: n)".into())
        );
    }

    #[test]
    fn registry_lookup_and_options() {
        let r = PassRegistry::with_ir_passes();
        for name in [
            "const-fold",
            "algebraic",
            "copy-prop",
            "copy-prop-shared",
            "cse",
            "dce",
            "opt-dead-cf",
            "opt-trivial-continues",
            "opt-if",
            "opt-peephole-select",
            "opt-undef",
            "opt-remove-phis",
            "opt-shrink-vectors",
            "opt-loop-unroll",
            "optimize",
            "cleanup",
            "lower-non-uniform-access",
        ] {
            assert!(r.contains(name));
            assert_eq!(
                r.create(name, &PassOptions::none(name)).unwrap().name(),
                name
            );
        }
        let e = PassManager::parse_pipeline("cse,frobnicate", &r).unwrap_err();
        assert!(matches!(&e, PipelineError::UnknownPass { name, .. } if name == "frobnicate"));
        assert_eq!(
            e.to_string(),
            "unknown pass `frobnicate` (known passes: const-fold, algebraic, copy-prop, copy-prop-shared, cse, dce, opt-dead-cf, opt-trivial-continues, opt-if, opt-peephole-select, opt-undef, opt-shrink-vectors, opt-remove-phis, opt-loop-unroll, opt-idiv-const, opt-load-store-vectorize, opt-dead-write, lower-mem-access-bit-sizes, opt-access, opt-peephole-ffma, lower-compute-system-values, optimize, cleanup, lower-non-uniform-access)"
        );
        let e = PassManager::parse_pipeline("cleanup(max-iterations=0)", &r).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pass `cleanup`: max-iterations must be at least 1"
        );
        let pm = PassManager::parse_pipeline("const-fold,cleanup(max-iterations=4)", &r).unwrap();
        assert_eq!(pm.pass_names(), ["const-fold", "cleanup"]);
        let e = PassManager::parse_pipeline("dce(aggressive)", &r).unwrap_err();
        assert_eq!(
            e.to_string(),
            "pass `dce`: unknown option `aggressive` (it takes no options)"
        );
    }

    /// A pass registered from outside the crate, with options.
    struct AddUndefs(u32);
    impl Pass for AddUndefs {
        fn name(&self) -> &'static str {
            "add-undefs"
        }
        fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
            for f in &mut shader.functions {
                let mut b = Builder::at_end(f);
                for _ in 0..self.0 {
                    b.undef(Type::U32);
                }
            }
            Ok(self.0 > 0)
        }
    }

    /// A pass that breaks the shader: a use of an undefined value.
    struct Breaker;
    impl Pass for Breaker {
        fn name(&self) -> &'static str {
            "breaker"
        }
        fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
            let f = &mut shader.functions[0];
            let ghost = crate::entity::Value::from_u32(1000);
            f.reserve_value(ghost);
            let mut b = Builder::at_end(f);
            b.alu_typed(crate::alu::AluOp::Mov, &[ghost.into()], Type::U32);
            Ok(true)
        }
    }

    fn shader() -> Shader {
        let mut sh = Shader::new([1, 1, 1]);
        sh.functions.push(Function::new("main"));
        sh
    }

    fn registry() -> PassRegistry {
        let mut r = PassRegistry::with_ir_passes();
        r.register("add-undefs", "test pass", |o: &PassOptions| {
            o.expect_only(&["count"])?;
            Ok(Box::new(AddUndefs(o.u32("count", 1)?)) as Box<dyn Pass>)
        });
        r.register("breaker", "test pass", |_: &PassOptions| {
            Ok(Box::new(Breaker) as Box<dyn Pass>)
        });
        r
    }

    #[test]
    fn runs_in_order_prints_after_each_and_times() {
        let r = registry();
        let printed = RefCell::new(Vec::new());
        let mut pm = PassManager::parse_pipeline("add-undefs(count=3),dce", &r).unwrap();
        pm.set_verify(true);
        pm.print_after_each(|name, sh| {
            let n = crate::stats::Stats::of(sh).undef;
            printed.borrow_mut().push(format!("{name}: {n}"));
        });
        let mut sh = shader();
        assert_eq!(pm.run(&mut sh), Ok(true));
        drop(pm.print_after.take());
        assert_eq!(*printed.borrow(), vec!["add-undefs: 3", "dce: 0"]);
        let t: Vec<(&str, bool)> = pm.timings().iter().map(|t| (t.name, t.changed)).collect();
        assert_eq!(t, vec![("add-undefs", true), ("dce", true)]);
        let report = pm.timing_report();
        assert!(report.lines().count() == 5, "{report}");
        assert!(report.contains(" yes      add-undefs\n"), "{report}");
        assert!(report.ends_with("total\n"));
    }

    #[test]
    fn verify_names_the_pass_that_broke_the_shader() {
        let r = registry();
        let mut pm = PassManager::parse_pipeline("dce,breaker,dce", &r).unwrap();
        pm.set_verify(true);
        let mut sh = shader();
        let err = pm.run(&mut sh).unwrap_err();
        match &err {
            RunError::InvalidAfter {
                pass,
                index,
                diagnostics,
            } => {
                assert_eq!(pass, "breaker");
                assert_eq!(*index, 1);
                assert_eq!(
                    diagnostics[0].message,
                    "`mov` uses `%1000`, which is not defined"
                );
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(
            err.to_string(),
            "the shader is invalid after pass `breaker` (pass 2 of the pipeline)\n  <unknown>: `mov` uses `%1000`, which is not defined"
        );
        // Without validation the pipeline runs to the end.
        let mut pm = PassManager::parse_pipeline("breaker", &r).unwrap();
        pm.set_verify(false);
        assert_eq!(pm.run(&mut shader()), Ok(true));
        // An invalid input is reported before any pass runs.
        let mut pm = PassManager::parse_pipeline("dce", &r).unwrap();
        pm.set_verify(true);
        let mut bad = shader();
        Breaker.run(&mut bad).unwrap();
        assert!(matches!(pm.run(&mut bad), Err(RunError::InvalidInput(_))));
        assert!(pm.timings().is_empty());
    }

    #[test]
    fn cleanup_loops_until_nothing_changes() {
        use super::super::cleanup::Cleanup;
        // copy-prop, then dce: a chain of movs needs one round to forward and remove,
        // and a second round to see that nothing changes.
        let mut sh = shader();
        {
            let mut b = Builder::at_end(&mut sh.functions[0]);
            let x = b.imm_u32(1);
            let m1 = b.mov(x);
            let m2 = b.mov(m1);
            let m3 = b.mov(m2);
            let _ = b.iadd(m3, m3);
        }
        let mut c = Cleanup::new(
            vec![
                Box::new(super::super::CopyProp),
                Box::new(super::super::Dce),
            ],
            8,
        );
        assert_eq!(c.run(&mut sh), Ok(true));
        assert_eq!(c.rounds(), 2);
        assert_eq!(crate::stats::Stats::of(&sh).instructions(), 0);
        assert_eq!(c.run(&mut sh), Ok(false));
        assert_eq!(c.rounds(), 1);
        // The cap stops a pass that always reports progress.
        let mut c = Cleanup::new(vec![Box::new(AddUndefs(1))], 3);
        assert_eq!(c.run(&mut sh), Ok(true));
        assert_eq!(c.rounds(), 3);
        assert_eq!(crate::stats::Stats::of(&sh).undef, 3);
    }
}
