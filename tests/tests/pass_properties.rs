//! Properties of the cleanup passes over random valid shaders:
//!
//! - every generated shader validates, the validator's control-flow graph agrees
//!   with `Function::successors`, and its dominator tree with petgraph's;
//! - it stays valid after each pass on its own and after pipelines of them;
//! - it behaves the same: running every function with the interpreter before and after
//!   the passes gives the same sequence of side effects (stores, atomics and other
//!   intrinsics that cannot be eliminated, with the values of their operands in every
//!   lane). Intrinsics without side effects answer with a hash of their operands, so
//!   that removing or merging them cannot be noticed unless the passes change an
//!   operand.
//!
//! Both runs track which values derive from an `undef` (`Config::track_undef`): NIR
//! lets a pass give an `undef` any value (`opt-undef`, `opt-remove-phis`), so an
//! operand the original computed from an `undef` matches anything, while one it
//! computed from defined values must be equal and defined after the passes too. A
//! run of the original that branches on an undefined condition says nothing and is
//! discarded.
//!
//! `QC_TESTS` scales the number of cases.

use ir::dominance::{Cfg, DomTree};
use ir::interp::{Config, Env, EnvError, Interpreter, IntrinsicCall};
use ir::passes::manager::{PassManager, PassRegistry};
use ir::{print_shader, validate, Shader};
use quickcheck::{Gen, QuickCheck, TestResult};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use suites::shader_gen::{generate, GenConfig, RandomShader};

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The pipelines checked: each pass alone, then combinations.
const PIPELINES: &[&str] = &[
    "copy-prop",
    "cse",
    "dce",
    "copy-prop,cse,dce",
    "cse,copy-prop,dce,cse,dce",
    "cleanup",
    "const-fold,algebraic,copy-prop,cse,dce",
    "opt-dead-cf",
    "opt-trivial-continues",
    "opt-if",
    "opt-peephole-select",
    "opt-peephole-select(limit=0)",
    "opt-undef",
    "opt-remove-phis",
    "opt-loop-unroll",
    "opt-trivial-continues,opt-if,opt-loop-unroll,copy-prop,dce",
    "opt-idiv-const",
    "optimize",
];

thread_local! {
    /// How many generated shaders each pipeline changed: every pipeline must change
    /// some, or the property says nothing about it (one count per test thread, so
    /// that the tests running side by side do not mix).
    static CHANGED: RefCell<BTreeMap<&'static str, usize>> = const { RefCell::new(BTreeMap::new()) };
}

/// Checks that every pipeline changed at least one generated shader.
fn every_pipeline_changed_something() {
    let t = CHANGED.with(|c| c.borrow().clone());
    for p in PIPELINES {
        assert!(
            t.get(p).copied().unwrap_or(0) > 0,
            "`{p}` changed none of the generated shaders: {t:?}"
        );
    }
}

/// One side effect: what it was (opcode, lane, invocation, image, indices) and its
/// operands with, for each, whether it derives from an `undef`.
#[derive(Clone, PartialEq, Eq)]
struct Effect {
    /// The invocation whose effect it is.
    invocation: u32,
    what: String,
    operands: Vec<(u64, bool)>,
}

impl fmt::Debug for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [", self.what)?;
        for (i, (v, u)) in self.operands.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if *u {
                write!(f, "undef:{v:#x}")?;
            } else {
                write!(f, "{v:#x}")?;
            }
        }
        f.write_str("]")
    }
}

/// Whether `after` is a behaviour `before` allows: each invocation has the same effects
/// in the same order, with equal operands wherever `before`'s are defined (and those
/// defined after too). The order between the effects of different invocations is not
/// compared: SPIR-V orders the invocations of a subgroup only at barriers (which are
/// effects of each invocation, so an effect cannot cross one unseen), and NIR's
/// `nir_opt_if` may swap which side of a divergent `if` runs first.
fn refines(before: &[Vec<Effect>], after: &[Vec<Effect>]) -> bool {
    fn by_invocation(log: &[Effect]) -> BTreeMap<u32, Vec<&Effect>> {
        let mut m: BTreeMap<u32, Vec<&Effect>> = BTreeMap::new();
        for e in log {
            m.entry(e.invocation).or_default().push(e);
        }
        m
    }
    before.len() == after.len()
        && before.iter().zip(after).all(|(b, a)| {
            let (b, a) = (by_invocation(b), by_invocation(a));
            // An invocation with effects on one side only has none on the other.
            b.len() == a.len()
                && b.iter()
                    .zip(&a)
                    .all(|((ib, eb), (ia, ea))| ib == ia && same_effects(eb, ea))
        })
}

/// [`refines`] for the effects of one invocation.
fn same_effects(b: &[&Effect], a: &[&Effect]) -> bool {
    b.len() == a.len()
        && b.iter().zip(a).all(|(eb, ea)| {
            eb.what == ea.what
                && eb.operands.len() == ea.operands.len()
                && eb
                    .operands
                    .iter()
                    .zip(&ea.operands)
                    .all(|(&(vb, ub), &(va, ua))| ub || (vb == va && !ua))
        })
}

/// Records the side effects of a run and answers every intrinsic deterministically:
/// from the intrinsic, its operands and how many effects its invocation had before
/// (not the other invocations', whose order relative to it is not defined).
#[derive(Default)]
struct Recorder {
    log: Vec<Effect>,
    effects_of: BTreeMap<u32, u64>,
}

fn mix(h: u64, v: u64) -> u64 {
    // SplitMix64 finalizer over the running hash.
    let mut z = h ^ v.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Env for Recorder {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let op = call.op();
        let side_effect = !op.info().can_eliminate;
        let lanes: Vec<usize> = call.active_lanes().collect();
        for lane in lanes {
            let mut h = mix(0, op as u64);
            for &i in &call.intrinsic.indices {
                h = mix(h, i as u64);
            }
            h = mix(h, call.image_id.map_or(u64::MAX, |i| i.as_u32() as u64));
            h = mix(h, call.image_index(lane));
            h = mix(h, call.invocations[lane] as u64);
            let mut operands = vec![(call.image_index(lane), call.image_index_undef(lane))];
            for s in 0..call.num_srcs() {
                let undef = call.src_undef(s, lane).map(|u| u.to_vec());
                for (c, &v) in call.src(s, lane).iter().enumerate() {
                    h = mix(h, v);
                    let u = undef.as_ref().is_some_and(|u| u[c]);
                    operands.push((v, u));
                }
            }
            if side_effect {
                // The result of an atomic depends on what came before it.
                let seq = self.effects_of.entry(call.invocations[lane]).or_default();
                h = mix(h, *seq);
                *seq += 1;
                self.log.push(Effect {
                    invocation: call.invocations[lane],
                    what: format!(
                        "@{op} lane {lane} inv {} image {:?} {:?}",
                        call.invocations[lane], call.image_id, call.intrinsic.indices,
                    ),
                    operands,
                });
            }
            let n = call.dest_components();
            let vals: Vec<u64> = (0..n as u64).map(|c| mix(h, c)).collect();
            call.set_dest(lane, &vals);
        }
        Ok(())
    }
}

/// What running a shader showed.
enum Run {
    /// The side effects of every function, run over one subgroup of 8 invocations.
    Effects(Vec<Vec<Effect>>),
    /// A run branched on a condition derived from an `undef`: any path was allowed.
    Undetermined,
}

/// Runs every function of `shader` over one subgroup of 8 invocations.
fn effects(shader: &Shader) -> Result<Run, String> {
    let invocations: Vec<u32> = (0..8).collect();
    let mut out = Vec::new();
    let config = Config {
        track_undef: true,
        ..Config::default()
    };
    for f in &shader.functions {
        let mut env = Recorder::default();
        let mut interp = Interpreter::new(shader, f, config);
        interp
            .run(&invocations, &mut env)
            .map_err(|e| format!("fn {}: {e}", f.name))?;
        if interp.undetermined() {
            return Ok(Run::Undetermined);
        }
        out.push(env.log);
    }
    Ok(Run::Effects(out))
}

/// The validator's one-walk graph agrees with `Function::successors` and
/// `Function::predecessors`, and its dominator tree ([`DomTree::new_fast`]) with
/// petgraph's ([`DomTree::new`]).
fn cfg_agrees(shader: &Shader) -> Result<(), String> {
    for f in &shader.functions {
        let cfg = Cfg::new(f);
        let (reference, fast) = (DomTree::new(&cfg), DomTree::new_fast(&cfg));
        for &b in cfg.blocks() {
            if reference.idom(b) != fast.idom(b)
                || reference.is_reachable(b) != fast.is_reachable(b)
            {
                let b = f.block_name(b);
                return Err(format!("fn {}: the dominator trees differ at {b}", f.name));
            }
        }
        if !reference.preorder().eq(fast.preorder()) {
            return Err(format!(
                "fn {}: the dominator trees' preorders differ",
                f.name
            ));
        }
        let preds = f.predecessors();
        if cfg.blocks() != f.blocks_in_order().as_slice() {
            return Err(format!("fn {}: block order differs", f.name));
        }
        for &b in cfg.blocks() {
            let mine: Vec<_> = cfg.successors(b).collect();
            if mine != f.successors(b).to_vec() {
                let b = f.block_name(b);
                return Err(format!("fn {}: successors of {b} differ", f.name));
            }
            let mine: Vec<_> = cfg.predecessors(b).collect();
            if mine != preds[&b].to_vec() {
                let b = f.block_name(b);
                return Err(format!("fn {}: predecessors of {b} differ", f.name));
            }
        }
    }
    Ok(())
}

fn check(shader: &Shader, registry: &PassRegistry) -> TestResult {
    if let Err(d) = validate(shader) {
        return TestResult::error(format!(
            "the generated shader is invalid: {d:?}\n{}",
            print_shader(shader)
        ));
    }
    if let Err(e) = cfg_agrees(shader) {
        return TestResult::error(e);
    }
    let before = match effects(shader) {
        Ok(Run::Effects(e)) => e,
        // A shader the interpreter cannot run (an iteration limit), or whose run
        // branches on an undef, is no evidence.
        Ok(Run::Undetermined) | Err(_) => return TestResult::discard(),
    };
    for pipeline in PIPELINES {
        let mut s = shader.clone();
        let mut pm = PassManager::parse_pipeline(pipeline, registry).expect("pipeline");
        pm.set_verify(true);
        let changed = match pm.run(&mut s) {
            Ok(c) => c,
            Err(e) => {
                return TestResult::error(format!(
                    "{pipeline}: {e}\n--- before\n{}\n--- after\n{}",
                    print_shader(shader),
                    print_shader(&s)
                ))
            }
        };
        if changed {
            CHANGED.with(|c| *c.borrow_mut().entry(pipeline).or_default() += 1);
        }
        match effects(&s) {
            Ok(Run::Effects(after)) if refines(&before, &after) => {}
            Ok(Run::Effects(after)) => {
                return TestResult::error(format!(
                    "{pipeline} changed the side effects:\n{before:#?}\n{after:#?}\n--- before\n{}\n--- after\n{}",
                    print_shader(shader),
                    print_shader(&s)
                ))
            }
            Ok(Run::Undetermined) => {
                return TestResult::error(format!(
                    "{pipeline}: the result branches on an undef where the original did not\n--- before\n{}\n--- after\n{}",
                    print_shader(shader),
                    print_shader(&s)
                ))
            }
            Err(e) => {
                return TestResult::error(format!(
                    "{pipeline}: the result does not run: {e}\n--- after\n{}",
                    print_shader(&s)
                ))
            }
        }
        // A second run of the same pipeline on its own output is stable or better.
        let mut again = s.clone();
        let mut pm = PassManager::parse_pipeline(pipeline, registry).expect("pipeline");
        pm.set_verify(true);
        if let Err(e) = pm.run(&mut again) {
            return TestResult::error(format!("{pipeline} (second run): {e}"));
        }
    }
    TestResult::passed()
}

#[test]
fn passes_keep_random_shaders_valid_and_equivalent() {
    fn prop(s: RandomShader) -> TestResult {
        check(&s.0, &PassRegistry::with_ir_passes())
    }
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(60, 0x0dce_c5e0))
        .tests(cases(200))
        .max_tests(cases(200) * 10)
        .quickcheck(prop as fn(RandomShader) -> TestResult);
    every_pipeline_changed_something();
}

#[test]
fn passes_under_other_generator_configurations() {
    let configs = [
        GenConfig {
            max_depth: 6,
            max_insts: 200,
            ..GenConfig::default()
        },
        GenConfig {
            max_insts: 300,
            ..GenConfig::straight_line()
        },
        GenConfig {
            swizzles: false,
            wide_vectors: false,
            ..GenConfig::default()
        },
        GenConfig::alu_only(),
        GenConfig {
            buffers: true,
            ..GenConfig::default()
        },
    ];
    let registry = PassRegistry::with_ir_passes();
    let n = (cases(200) / 10).max(1);
    for (i, cfg) in configs.iter().enumerate() {
        for seed in 0..n {
            let s = generate(seed * 104_729 + i as u64, cfg);
            let r = check(&s, &registry);
            assert!(
                !r.is_failure() && !r.is_error(),
                "config {i}, seed {seed}: {r:?}"
            );
        }
    }
}

/// `opt-if` moves the side of a divergent `if` that does not break out of the loop
/// after the `if` (NIR's `opt_if_loop_last_continue` shape): the invocations that take
/// it then run it after the others' break, and each invocation keeps its own order.
/// (Found by `QC_TESTS=100000`, when the comparison still ordered all invocations.)
#[test]
fn opt_if_may_reorder_the_invocations_of_a_divergent_if() {
    // The recorder answers `@load_local_invocation_id` with a hash per invocation, so
    // `%2` (its bit 0 clear) varies across the subgroup.
    let text = "shader compute (local_size=8,1,1)

fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000001)
    32   %11 = iand %0.x, %1
    1    %2 = ine %11, %1
    64   %3 = load_const (0x0000000000001000)
    32   %4 = load_const (0x00000000)
    32   %5 = load_const (0x00000004)
    32   %6 = load_const (0x00000001)
  loop {
    block b1:
      32   %7 = phi b0: %4, b7: %9
      1    %8 = uge %7, %5
    if %8 {
      block b2:
        break
    } else {
      block b3:
    }
    block b4:
      32   %9 = iadd %7, %6
    if %2 {
      block b5:
        32   %10 = @lsc_atomic (%3, %0.x) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=iadd)
    } else {
      block b6:
        @lsc_store (%3, %0.x) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
        break
    }
    block b7:
  }
  block b8:
}
";
    let shader = ir::parse_shader(text).expect("the shader parses");
    validate(&shader).expect("the shader validates");
    let mut after = shader.clone();
    let registry = PassRegistry::with_ir_passes();
    let mut pm = PassManager::parse_pipeline("opt-if", &registry).expect("pipeline");
    assert!(
        pm.run(&mut after).expect("opt-if runs"),
        "opt-if changes it"
    );
    let order = |s: &Shader| match effects(s) {
        Ok(Run::Effects(e)) => e[0]
            .iter()
            .map(|e| (e.invocation, e.what.clone()))
            .collect::<Vec<_>>(),
        _ => panic!("the shader runs"),
    };
    // The invocations' effects interleave differently, each invocation's are the same.
    assert_ne!(order(&shader), order(&after));
    let r = check(&shader, &registry);
    assert!(!r.is_failure() && !r.is_error(), "{r:?}");
}

/// `QC_TESTS=100000` found this: `opt-peephole-select` makes the phi of `true` and an
/// `undef` after an `if` a `bcsel`, and the boolean rules make that `ior c, undef`.
/// Where `c` holds the result is `true` whatever the `undef` is, as the phi gave it:
/// the undef tracking must not call the store's operand undefined there.
#[test]
fn an_or_decided_by_a_defined_operand_is_defined() {
    let text = "shader compute (local_size=8,1,1)

fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000001)
    32   %3 = iand %0.x, %2
    1    %4 = ine %3, %2
    1    %5 = undef
    1    %6 = load_const (true)
  if %4 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    1    %7 = phi b1: %6, b2: %5
    32   %8 = b2i32 %7
    @store_ssbo (%8, %1, %0.x) (access=none, align_mul=4)
}
";
    let shader = ir::parse_shader(text).expect("the shader parses");
    validate(&shader).expect("the shader validates");
    let registry = PassRegistry::with_ir_passes();
    let mut after = shader.clone();
    let mut pm = PassManager::parse_pipeline("optimize", &registry).expect("pipeline");
    pm.run(&mut after).expect("optimize runs");
    assert!(
        print_shader(&after).contains(" = ior "),
        "the phi became an ior:\n{}",
        print_shader(&after)
    );
    let r = check(&shader, &registry);
    assert!(!r.is_failure(), "{r:?}");
}

/// `QC_TESTS=100000` found this: a descriptor index (without `non_uniform`) that
/// derives from an unspecified value, here an inexact `fmul` of a NaN by `0.0`, is
/// uniform in the original only by that value (all ones OR-ed with the lane's id), and
/// `algebraic` may make the product `0.0` (NIR's `~fmul a, 0.0` rule), after which
/// the index differs per lane. Whether such an index is uniform is unspecified, as a
/// branch on an `undef` is: the original's run says nothing and the case is no evidence.
#[test]
fn an_index_from_an_unspecified_value_is_no_evidence() {
    let text = "shader compute (local_size=8,1,1)
image @imgs[4] : 2d r32_uint readonly (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0xffffffff)
    32   %2 = load_const (0x00000000)
    32   %3 = fmul %1, %2
    32   %4 = ior %3, %0.x
    32   %5 = load_const (0x00000003)
    32   %6 = iand %4, %5
    32x4 %7 = @image_load (@imgs[%6], %2.xx) (dest_type=uint32)
    @store_ssbo (%7.x, %2, %0.x) (access=none, align_mul=4)
}
";
    let shader = ir::parse_shader(text).expect("the shader parses");
    validate(&shader).expect("the shader validates");
    assert!(matches!(effects(&shader), Ok(Run::Undetermined)));
    let r = check(&shader, &PassRegistry::with_ir_passes());
    assert!(!r.is_failure() && !r.is_error(), "{r:?}");
}
