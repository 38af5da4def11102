//! The values behind the algebraic pass's lit files (`tests/lit/algebraic/*.ir`).
//!
//! The lit files check what the pass prints; this suite checks what their functions
//! compute. For every function of every file: a function named `unchanged_*` is left
//! exactly as it was, any other is rewritten, a second run finds nothing more to do, and
//! every value of a straight-line function keeps its bits: the function is evaluated
//! before and after the pass with `eval_alu`, its `undef` inputs drawn from integer
//! edges, signed zeros, infinities, quiet and signalling NaNs, denormals and random
//! bits, over 400 seeds. Random straight-line programs get the same check. Values
//! that Vulkan leaves unspecified without `exact` (`ir::precision::result_unspecified`,
//! where NIR's inexact rules such as `a * 0.0` to `0.0` change a result) are not
//! compared, nor what is computed from them.

use ir::eval::{eval_alu, Operand};
use ir::passes::algebraic::simplify_function;
use ir::passes::const_fold::fold_function;
use ir::precision::result_unspecified;
use ir::types::bit_mask;
use ir::{AluOp, Builder, Function, InstKind, Src, Type, Value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Bit patterns worth trying at each size: integer edges and, for float sizes,
/// signed zeros, infinities, quiet and signalling NaNs, denormals and one.
fn specials(bits: u8) -> Vec<u64> {
    let m = bit_mask(bits);
    let top = 1u64 << (bits - 1);
    let mut v = vec![0, 1, 2, 3, 8, m, m - 1, top, top - 1, top | 1];
    v.extend(match bits {
        16 => vec![
            0x7e00, 0x7d00, 0xfe01, 0x7c00, 0xfc00, 0x3c00, 0x0001, 0x8001,
        ],
        32 => vec![
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_1234,
            0x7f80_0000,
            0xff80_0000,
            0x3f80_0000,
            0x0000_0001,
            0x8000_0001,
        ],
        64 => vec![
            0x7ff8_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0x7ff0_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x8000_0000_0000_0001,
        ],
        _ => vec![],
    });
    v.into_iter().map(|x| x & m).collect()
}

/// A xorshift step.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn pick(state: &mut u64, bits: u8) -> u64 {
    let r = next(state);
    let sp = specials(bits);
    if r.is_multiple_of(3) {
        next(state) & bit_mask(bits)
    } else {
        sp[(r >> 8) as usize % sp.len()]
    }
}

/// Runs a straight-line function of `load_const`, `undef` (the inputs, drawn from
/// `seed`) and ALU instructions with `eval_alu`; returns every value's components, and
/// the values Vulkan leaves unspecified: results of float instructions without `exact`
/// where `ir::precision::result_unspecified` says so (an infinite or NaN operand, a
/// zero, infinite or NaN result), and whatever is computed from them.
fn run(func: &Function, seed: u64) -> (HashMap<Value, Vec<u64>>, HashSet<Value>) {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut vals: HashMap<Value, Vec<u64>> = HashMap::new();
    let mut unspecified = HashSet::new();
    for inst in func.insts_in_order() {
        let d = func.inst(inst);
        let dest = d.dest.expect("every test instruction has a result");
        let ty = func.value_type(dest);
        let v = match &d.kind {
            InstKind::LoadConst(c) => c.to_vec(),
            InstKind::Undef => (0..ty.num_components())
                .map(|_| pick(&mut state, ty.bit_size()))
                .collect(),
            InstKind::Alu(a) => {
                let comps: Vec<(u8, Vec<u64>)> = a
                    .srcs
                    .iter()
                    .map(|s| {
                        let v = &vals[&s.value];
                        let n = func.src_components(*s);
                        let c = (0..n).map(|i| v[s.swizzle.component(i) as usize]);
                        (func.value_type(s.value).bit_size(), c.collect())
                    })
                    .collect();
                let ops: Vec<Operand<'_>> =
                    comps.iter().map(|(b, c)| Operand::new(*b, c)).collect();
                let r = eval_alu(a.op, ty, &ops).unwrap().to_vec();
                if a.srcs.iter().any(|s| unspecified.contains(&s.value))
                    || result_unspecified(a.op, a.exact, &ops, ty.bit_size(), &r)
                {
                    unspecified.insert(dest);
                }
                r
            }
            k => panic!("unexpected instruction {k:?}"),
        };
        vals.insert(dest, v);
    }
    (vals, unspecified)
}

fn lit_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit/algebraic");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_function_of_the_algebraic_lit_files_keeps_its_values() {
    let files = lit_files();
    assert!(files.len() >= 15, "found {files:?}");
    let mut straight_line = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let shader = ir::parse_shader(&text).unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
        for before in &shader.functions {
            let what = format!("{}: fn {}", path.display(), before.name);
            let mut after = before.clone();
            let changed = simplify_function(&mut after);
            if before.name.starts_with("unchanged") {
                assert!(!changed, "{what}: a rule fired");
                assert!(after == *before, "{what}: changed without saying so");
            } else {
                assert!(changed, "{what}: no rule fired");
            }
            assert!(
                !simplify_function(&mut after.clone()),
                "{what}: a second run still finds rules to apply"
            );
            if !before.insts_in_order().iter().all(|&i| {
                matches!(
                    before.inst(i).kind,
                    InstKind::LoadConst(_) | InstKind::Undef | InstKind::Alu(_)
                )
            }) || before.body().len() != 1
            {
                continue;
            }
            straight_line += 1;
            for seed in 1..=400u64 {
                let ((b, free), (a, _)) = (run(before, seed), run(&after, seed));
                for (v, want) in b.iter().filter(|(v, _)| !free.contains(v)) {
                    let name = before.value_name(*v);
                    assert_eq!(&a[v], want, "{what}: {name} differs for seed {seed}");
                }
            }
        }
    }
    assert!(
        straight_line >= 36,
        "only {straight_line} straight-line functions"
    );
}

/// Random straight-line programs over 32x2 values, with constants biased towards the
/// ones the rules look for: const-fold and algebraic together must not change any
/// value, for any input.
#[test]
fn random_programs_keep_their_values() {
    let programs: u64 = std::env::var("QC_TESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let int_ops = [
        AluOp::Iadd,
        AluOp::Isub,
        AluOp::Imul,
        AluOp::Udiv,
        AluOp::Idiv,
        AluOp::Umod,
        AluOp::Ishl,
        AluOp::Ishr,
        AluOp::Ushr,
        AluOp::Iand,
        AluOp::Ior,
        AluOp::Ixor,
        AluOp::Imin,
        AluOp::Umax,
        AluOp::Umin,
        AluOp::Ubfe,
        AluOp::BitfieldInsert,
        AluOp::Fadd,
        AluOp::Fsub,
        AluOp::Fmul,
        AluOp::Ffma,
        AluOp::Fmin,
        AluOp::Ffloor,
        AluOp::Fneg,
        AluOp::Bcsel,
    ];
    let consts = [
        0u64,
        1,
        2,
        8,
        31,
        32,
        0xffff_ffff,
        0x8000_0000,
        0x3f80_0000,
        0x7f80_0001,
        0x7fc0_0000,
        12,
    ];
    let ty = Type::vec32(2);
    let mut simplified = 0;
    for prog in 0..programs {
        let mut st = prog.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let mut pool: Vec<Value> = (0..3).map(|_| b.undef(ty)).collect();
        let mut bools: Vec<Value> = vec![b.undef(Type::new(1, 2).unwrap())];
        for _ in 0..30 {
            let operand = |b: &mut Builder, st: &mut u64| -> Src {
                let r = next(st);
                let v = if r.is_multiple_of(3) {
                    let c = [consts[(r >> 8) as usize % consts.len()]; 2];
                    let c = if r & 0x40 != 0 {
                        [c[0], consts[(r >> 16) as usize % consts.len()]]
                    } else {
                        c
                    };
                    b.load_const(ty, &c)
                } else {
                    pool[(r >> 8) as usize % pool.len()]
                };
                let sw: [&[u8]; 4] = [&[0, 1], &[1, 0], &[0, 0], &[1, 1]];
                Src::swizzled(v, sw[(r >> 24) as usize % 4]).unwrap()
            };
            let op = int_ops[next(&mut st) as usize % int_ops.len()];
            // A quarter of the instructions are `exact`: NIR's inexact rules must leave
            // them alone.
            b.exact = next(&mut st).is_multiple_of(4);
            let v = if op == AluOp::Bcsel {
                if next(&mut st).is_multiple_of(2) {
                    let (x, y) = (operand(&mut b, &mut st), operand(&mut b, &mut st));
                    let cmp = [AluOp::Ieq, AluOp::Ult, AluOp::Ige][next(&mut st) as usize % 3];
                    let c = b.alu(cmp, &[x, y]);
                    bools.push(c);
                }
                let c = bools[next(&mut st) as usize % bools.len()];
                let (x, y) = (operand(&mut b, &mut st), operand(&mut b, &mut st));
                b.alu(op, &[c.into(), x, y])
            } else {
                let srcs: Vec<Src> = (0..op.num_inputs())
                    .map(|_| operand(&mut b, &mut st))
                    .collect();
                b.alu(op, &srcs)
            };
            pool.push(v);
        }
        let before = f.clone();
        for _ in 0..2 {
            fold_function(&mut f);
            if simplify_function(&mut f) {
                simplified += 1;
            }
        }
        for seed in 1..=24u64 {
            let ((x, free), (y, _)) = (run(&before, seed), run(&f, seed));
            for (v, want) in x.iter().filter(|(v, _)| !free.contains(v)) {
                assert_eq!(&y[v], want, "program {prog}, {v:?}, seed {seed}");
            }
        }
    }
    // The generator is biased enough that the rules fire in most programs.
    assert!(
        simplified > programs / 2,
        "rules fired in {simplified} runs"
    );
}
