//! Every ALU op at every bit size NIR allows it, one and four components, register and
//! immediate operands, through IGC's GenX_IR for DG2, MTL and PVC at each SIMD width the
//! platform dispatches.

mod common;

use ir::{AluOp, BaseType};
use lowering::Device;

/// The bit sizes NIR allows an free_types operand of `base` (`nir_opcodes.py`).
fn sizes(base: BaseType) -> &'static [u8] {
    match base {
        BaseType::Float => &[16, 32, 64],
        BaseType::Int | BaseType::Uint => &[1, 8, 16, 32, 64],
        BaseType::Bool => &[1],
    }
}

/// The pool of operands: `(bits, comps)` -> three sources (two per-lane values and a
/// constant), and the IR lines defining them.
fn pool_lines(
    keys: &std::collections::BTreeSet<(u8, u8)>,
) -> (String, std::collections::HashMap<(u8, u8), [String; 3]>) {
    let mut text = String::new();
    let mut map = std::collections::HashMap::new();
    let ty = |bits: u8, comps: u8| {
        if comps == 1 {
            bits.to_string()
        } else {
            format!("{bits}x{comps}")
        }
    };
    for &(bits, comps) in keys {
        let base = 1000 + u32::from(bits) * 10 + u32::from(comps);
        let (a, b, c) = (base * 10, base * 10 + 1, base * 10 + 2);
        let t = ty(bits, comps);
        if bits == 1 {
            let t32 = ty(32, comps);
            text.push_str(&format!(
                "    {t32} %{x} = @load_global (%6) (access=none, align_mul=4)\n    {t32} %{y} = @load_global (%7) (access=none, align_mul=4)\n",
                x = base * 10 + 3,
                y = base * 10 + 4
            ));
            text.push_str(&format!(
                "    {t} %{a} = ult %{}, %{}\n",
                base * 10 + 3,
                base * 10 + 4
            ));
            text.push_str(&format!(
                "    {t} %{b} = ilt %{}, %{}\n",
                base * 10 + 4,
                base * 10 + 3
            ));
            let vals: Vec<&str> = (0..comps)
                .map(|i| if i % 2 == 0 { "true" } else { "false" })
                .collect();
            text.push_str(&format!(
                "    {t} %{c} = load_const ({})\n",
                vals.join(", ")
            ));
        } else {
            text.push_str(&format!(
                "    {t} %{a} = @load_global (%6) (access=none, align_mul=4)\n"
            ));
            text.push_str(&format!(
                "    {t} %{b} = @load_global (%7) (access=none, align_mul=4)\n"
            ));
            let k: Vec<String> = (0..comps).map(|i| format!("{}", 3 + i)).collect();
            text.push_str(&format!("    {t} %{c} = load_const ({})\n", k.join(", ")));
        }
        map.insert((bits, comps), [a, b, c].map(|v| format!("%{v}")));
    }
    (text, map)
}

/// One instruction of the test: its result type, op, and the pool keys of its sources
/// (the last one read as a constant when `imm`).
#[derive(Clone)]
struct Case {
    ty: String,
    op: AluOp,
    srcs: Vec<(u8, u8)>,
    imm: bool,
}

impl Case {
    fn line(&self, id: u32, pool: &std::collections::HashMap<(u8, u8), [String; 3]>) -> String {
        let n = self.srcs.len();
        let srcs: Vec<String> = self
            .srcs
            .iter()
            .enumerate()
            .map(|(k, key)| {
                let p = &pool[key];
                if self.imm && k == n - 1 {
                    p[2].clone()
                } else {
                    p[k % 2].clone()
                }
            })
            .collect();
        format!(
            "    {} %{id} = {} {}\n",
            self.ty,
            self.op.name(),
            srcs.join(", ")
        )
    }
}

/// Ops without a binary64 form in vISA on any platform: the math instructions `exp`,
/// `log`, `sin`, `cos`, `pow` take `hf` and `f` only (IGC
/// `documentation/visa/instructions/EXP.md` and the others). Each is an `Unsupported`
/// error naming the op, the size and the platform (checked below), so their 64-bit
/// cases stay out of the GenX_IR runs.
const NO_FP64_FORM: &[AluOp] = &[
    AluOp::Fexp2,
    AluOp::Flog2,
    AluOp::Fsin,
    AluOp::Fcos,
    AluOp::Fpow,
];

/// Ops whose 64-bit forms need IEEE binary64 division or square root (vISA `divm`,
/// `sqrtm`, `sqrt` on `df`): PVC has them, MTL does not (GenX_IR: "IEEE instruction
/// sqrt is not supported on MTL platform"), so their 64-bit cases run on PVC only and
/// are errors on MTL (checked below).
const NEEDS_IEEE64: &[AluOp] = &[
    AluOp::Fdiv,
    AluOp::Frcp,
    AluOp::Fsqrt,
    AluOp::Frsq,
    AluOp::Fmod,
    AluOp::Frem,
];

/// Whether a case has a binary64 operand or result.
fn is_float64(c: &Case) -> bool {
    let info = c.op.info();
    let n = usize::from(info.num_inputs);
    let db: u8 =
        c.ty.split('x')
            .next()
            .and_then(|b| b.parse().ok())
            .unwrap_or(0);
    (info.output_type.base == BaseType::Float && db == 64)
        || (0..n).any(|k| info.input_types[k].base == BaseType::Float && c.srcs[k].0 == 64)
}

#[test]
fn fp64_gaps_are_errors_naming_op_size_and_platform() {
    let all = cases_of(true, true, true);
    let mut checked = 0;
    for (plat, ops) in [
        ("pvc", NO_FP64_FORM),
        ("mtl", NO_FP64_FORM),
        ("mtl", NEEDS_IEEE64),
    ] {
        let d = Device::preset(plat).unwrap();
        for op in ops {
            let case = all
                .iter()
                .find(|c| c.op == *op && is_float64(c))
                .expect("a 64-bit case of every op");
            let text = kernel_text(16, std::slice::from_ref(case)).unwrap();
            let e = visa::emit_kernel(&common::parse(&text), &d, &Default::default())
                .expect_err("no 64-bit form");
            let msg = e.to_string();
            assert!(
                matches!(*e.kind, visa::EmitErrorKind::Unsupported { .. })
                    && msg.contains(&format!("= {}`", op.name()))
                    && msg.contains("64-bit")
                    && msg.contains(plat),
                "{msg}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * NO_FP64_FORM.len() + NEEDS_IEEE64.len());
}

/// Every op at every size the validator accepts that the platform can emit: without
/// `fp64` no 64-bit floats, without `ieee64` none of [`NEEDS_IEEE64`] at 64 bits, and
/// never [`NO_FP64_FORM`] at 64 bits.
fn cases(fp64: bool, ieee64: bool) -> Vec<Case> {
    cases_of(fp64, ieee64, false)
        .into_iter()
        .filter(|c| !(is_float64(c) && NO_FP64_FORM.contains(&c.op)))
        .collect()
}

/// Every op at every size the validator accepts (`all`: 64-bit floats too, whatever
/// the platform lacks).
fn cases_of(fp64: bool, ieee64: bool, all: bool) -> Vec<Case> {
    let mut out = Vec::new();
    let mut ops_seen = std::collections::HashSet::new();
    for &op in AluOp::ALL {
        let info = op.info();
        let n = usize::from(info.num_inputs);
        let free_types: Vec<BaseType> = std::iter::once(info.output_type)
            .chain(info.input_types[..n].iter().copied())
            .filter(|t| !t.is_sized())
            .map(|t| t.base)
            .collect();
        let bit_choices: Vec<u8> = match free_types.first() {
            Some(base) => sizes(*base)
                .iter()
                .copied()
                .filter(|b| free_types.iter().all(|t| sizes(*t).contains(b)))
                .collect(),
            None => vec![0],
        };
        let comp_choices: Vec<u8> = if info.output_size != 0 {
            vec![info.output_size]
        } else {
            vec![1, 4]
        };
        for &bits in &bit_choices {
            for &comps in &comp_choices {
                for imm in [false, true] {
                    let srcs: Vec<(u8, u8)> = (0..n)
                        .map(|k| {
                            let t = info.input_types[k];
                            let sb = if t.is_sized() { t.bits } else { bits };
                            let sc = if info.input_sizes[k] == 0 {
                                comps
                            } else {
                                info.input_sizes[k]
                            };
                            (sb, sc)
                        })
                        .collect();
                    let db = if info.output_type.is_sized() {
                        info.output_type.bits
                    } else {
                        bits
                    };
                    let ty = if comps == 1 {
                        db.to_string()
                    } else {
                        format!("{db}x{comps}")
                    };
                    let case = Case { ty, op, srcs, imm };
                    let float64 = is_float64(&case);
                    if !all && float64 && (!fp64 || (NEEDS_IEEE64.contains(&op) && !ieee64)) {
                        continue;
                    }
                    // Keep what the validator accepts (some ops restrict their sizes
                    // further than their type classes).
                    if kernel_text(16, std::slice::from_ref(&case))
                        .and_then(|t| ir::parse_shader(&t).ok())
                        .is_some_and(|sh| ir::validate(&sh).is_ok())
                    {
                        ops_seen.insert(op);
                        out.push(case);
                    }
                }
            }
        }
    }
    assert_eq!(
        ops_seen.len(),
        AluOp::ALL.len(),
        "some ops were never valid"
    );
    out
}

/// A kernel computing `cases` from operands loaded per lane.
fn kernel_text(subgroup: u32, cases: &[Case]) -> Option<String> {
    let keys: std::collections::BTreeSet<(u8, u8)> =
        cases.iter().flat_map(|c| c.srcs.iter().copied()).collect();
    if keys
        .iter()
        .any(|(b, c)| ![1, 8, 16, 32, 64].contains(b) || ![1, 2, 3, 4, 8, 16].contains(c))
    {
        return None;
    }
    let (pool, map) = pool_lines(&keys);
    let mut body = pool;
    // Every result is folded into an accumulator that is stored at the end, so that
    // values have the short lives of real code.
    body.push_str("    32   %90 = load_const (0)\n");
    let mut acc = 90u32;
    let mut next = 50000u32;
    let mut fresh = || {
        next += 1;
        next
    };
    for (k, c) in cases.iter().enumerate() {
        let id = 100 + k as u32;
        body.push_str(&c.line(id, &map));
        let (bits, comps) = match c.ty.split_once('x') {
            Some((b, n)) => (b.parse::<u8>().ok()?, n.parse::<u8>().ok()?),
            None => (c.ty.parse::<u8>().ok()?, 1),
        };
        for i in 0..comps {
            let comp = if comps == 1 {
                format!("%{id}")
            } else {
                format!(
                    "%{id}.{}",
                    ["x", "y", "z", "w"]
                        .get(usize::from(i))
                        .copied()
                        .unwrap_or("x")
                )
            };
            let v = fresh();
            let line = match bits {
                1 => format!("    32   %{v} = b2i32 {comp}\n"),
                8 | 16 => format!("    32   %{v} = u2u32 {comp}\n"),
                32 => format!("    32   %{v} = mov {comp}\n"),
                _ => format!("    32   %{v} = unpack_64_2x32_split_y {comp}\n"),
            };
            body.push_str(&line);
            let a = fresh();
            body.push_str(&format!("    32   %{a} = ixor %{acc}, %{v}\n"));
            acc = a;
        }
    }
    body.push_str(&format!(
        "    @store_global (%{acc}, %6) (access=none, align_mul=4)\n"
    ));
    Some(format!(
        "shader compute (local_size=32,1,1, subgroup_size={subgroup})
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    64   %3 = u2u64 %0.x
    32   %4 = load_const (6)
    64   %5 = ishl %3, %4
    64   %6 = iadd %2, %5
    64   %8 = load_const (32)
    64   %7 = iadd %6, %8
{body}}}
"
    ))
}

#[test]
fn every_alu_op_compiles() {
    let mut jobs = Vec::new();
    let sets = [cases(false, false), cases(true, false), cases(true, true)];
    for (plat, widths, set) in [
        ("dg2", &[8u32, 16, 32][..], &sets[0]),
        ("mtl", &[8, 16, 32], &sets[1]),
        ("pvc", &[16, 32], &sets[2]),
    ] {
        assert!(set.len() > 300, "only {} ALU instructions", set.len());
        let d = Device::preset(plat).unwrap();
        for &w in widths {
            // Small kernels (fewer at wider SIMD, where each value takes more
            // registers): a stress test of one kernel would only test spilling.
            // At SIMD32 with 32-byte registers a 64-bit vec4 takes 32 registers; the
            // pools of such cases alone would fill the register file.
            let set: Vec<Case> = set
                .iter()
                .filter(|c| {
                    // Booleans are stored in 32 bits.
                    let stored = |b: u32| if b == 1 { 32 } else { b };
                    let dest_bits: u32 = match c.ty.split_once('x') {
                        Some((b, n)) => {
                            stored(b.parse::<u32>().unwrap()) * n.parse::<u32>().unwrap()
                        }
                        None => stored(c.ty.parse().unwrap()),
                    };
                    !(w == 32 && d.grf_bytes == 32)
                        || (dest_bits <= 256
                            && c.srcs
                                .iter()
                                .all(|(b, n)| u32::from(*b) * u32::from(*n) <= 64))
                })
                .cloned()
                .collect();
            for (k, chunk) in set.chunks((192 / w) as usize).enumerate() {
                let text = kernel_text(w, chunk).expect("pool sizes are legal");
                let s = common::parse(&text);
                let kernel = visa::emit_kernel(&s, &d, &Default::default())
                    .unwrap_or_else(|e| panic!("{plat} SIMD{w}: {e}"));
                assert!(kernel.text.contains(&format!("SimdSize={w}")));
                jobs.push((
                    format!("alu-{plat}-simd{w}-{k}"),
                    kernel.text,
                    kernel.genx_platform.unwrap().to_string(),
                ));
            }
        }
    }
    if common::have_genx("every_alu_op_compiles") {
        common::compile_all(jobs);
    }
}

/// The same ops on uniform operands (push constants at constant offsets): each
/// instruction runs once per thread in scalar mode, `(M1_NM, 1)`, its temporaries and
/// predicates one element wide.
#[test]
fn every_alu_op_compiles_on_uniform_operands() {
    let mut jobs = Vec::new();
    let mut ops = std::collections::HashSet::new();
    for (plat, set) in [("dg2", cases(false, false)), ("pvc", cases(true, true))] {
        let d = Device::preset(plat).unwrap();
        for (k, chunk) in set.chunks(16).enumerate() {
            let text = kernel_text(16, chunk)
                .expect("pool sizes are legal")
                .replace(
                    "@load_global (%6) (access=none, align_mul=4)",
                    "@load_push_constant (%1) (base=0, range=128)",
                )
                .replace(
                    "@load_global (%7) (access=none, align_mul=4)",
                    "@load_push_constant (%1) (base=64, range=128)",
                );
            let s = common::parse(&text);
            let kernel = visa::emit_kernel(&s, &d, &Default::default())
                .unwrap_or_else(|e| panic!("{plat} uniform {k}: {e}"));
            // The ops themselves ran in scalar mode.
            assert!(kernel.text.contains("(M1_NM, 1)"));
            ops.extend(chunk.iter().map(|c| c.op));
            jobs.push((
                format!("alu-uniform-{plat}-{k}"),
                kernel.text,
                kernel.genx_platform.unwrap().to_string(),
            ));
        }
    }
    assert_eq!(ops.len(), AluOp::ALL.len());
    if common::have_genx("every_alu_op_compiles_on_uniform_operands") {
        common::compile_all(jobs);
    }
}

#[test]
fn fp64_on_dg2_is_an_error_naming_the_instruction() {
    let text = "shader compute (local_size=16,1,1)
fn main {
  block b0:
    32   %1 = load_const (0)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    64   %3 = @load_global (%2) (access=none, align_mul=8)
    64   %4 = fadd %3, %3
}";
    let s = common::parse(text);
    let e =
        visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "7:5: in fn main: `%4 = fadd`: dg2 has no 64-bit floating point (IGC HWCaps noFP64) (vISA for dg2)"
    );
    // MTL and PVC have it.
    for p in ["mtl", "pvc"] {
        visa::emit_kernel(&s, &Device::preset(p).unwrap(), &Default::default()).unwrap();
    }
}

#[test]
fn fp64_division_needs_divm() {
    let text = "shader compute (local_size=16,1,1)
fn main {
  block b0:
    32   %1 = load_const (0)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    64   %3 = @load_global (%2) (access=none, align_mul=8)
    64   %4 = fdiv %3, %3
}";
    let s = common::parse(text);
    let e =
        visa::emit_kernel(&s, &Device::preset("mtl").unwrap(), &Default::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("mtl has no IEEE 64-bit float division (vISA divm)"),
        "{e}"
    );
    visa::emit_kernel(&s, &Device::preset("pvc").unwrap(), &Default::default()).unwrap();
}
