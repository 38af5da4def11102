//! (Tests only.) Runs one ALU op through the kernel the back end emits for it on
//! `verify`'s vISA interpreter (`verify::visa`, the one model of vISA semantics, which
//! the verifier's vISA leg runs too) and compares each lane's result with `ir::eval`,
//! NIR's semantics.
//!
//! The kernel ([`op_kernel_flagged`]) loads each component of each source per lane from SSBO
//! 0 (32 bits a load; a 64-bit component is two loads, low half first; narrower ones
//! are the low bits of their load, a 1-bit one `load != 0`), applies the op and stores
//! each result component as 32 bits to SSBO 1 (64-bit ones as two stores, low half
//! first): load `k` of invocation `i` of `n` is dword `k * n + i`. It runs SIMD16 on
//! 64-byte registers (PVC), SIMD8 on 32-byte ones, one invocation per set of
//! operands. The interpreter's math unit may err by a given number of ulps
//! (`verify::visa::run::RunConfig::math_ulps`), so that a test shows that the code
//! around `inv`, `sqrt`, `rsqrt`, `exp`, `log`, `sin`, `cos` and `pow` does not depend
//! on their last bits.

use ir::AluOp;
use lowering::Device;
use verify::setup::{BufferKind, BufferSetup, Setup};
use verify::visa::run::RunConfig;
use verify::visa::standalone::run_visa_text;

/// The shape of an operand or result: bit size and components.
pub type Shape = (u8, u8);

/// The IR of a kernel of `n` invocations (`simd` per workgroup) that applies `op` to
/// operands loaded from SSBO 0 and stores the result to SSBO 1 (module documentation),
/// the instruction `exact` (computing `ir::eval`'s result) or not.
pub fn op_kernel_flagged(
    op: AluOp,
    exact: bool,
    dest: Shape,
    srcs: &[Shape],
    simd: u32,
    n: u32,
) -> String {
    let mut body = String::new();
    let mut id = 100u32;
    let mut next = || {
        id += 1;
        id
    };
    // Dword `k * n` of a buffer, plus the invocation's dword (`%3`).
    let at = |body: &mut String, next: &mut dyn FnMut() -> u32, k: u32| {
        let (off, a) = (next(), next());
        body.push_str(&format!(
            "    32 %{off} = load_const ({})\n    32 %{a} = iadd %3, %{off}\n",
            4 * k * n
        ));
        a
    };
    let mut loads = 0u32;
    let mut load = |body: &mut String, next: &mut dyn FnMut() -> u32| {
        let a = at(body, next, loads);
        loads += 1;
        let v = next();
        body.push_str(&format!(
            "    32 %{v} = @load_ssbo (%1, %{a}) (access=none, align_mul=4)\n"
        ));
        v
    };
    let ty = |(bits, comps): Shape| {
        if comps == 1 {
            bits.to_string()
        } else {
            format!("{bits}x{comps}")
        }
    };
    let mut names = Vec::new();
    for &(bits, comps) in srcs {
        let mut cs = Vec::new();
        for _ in 0..comps {
            let lo = load(&mut body, &mut next);
            let c = match bits {
                32 => lo,
                64 => {
                    let hi = load(&mut body, &mut next);
                    let c = next();
                    body.push_str(&format!("    64 %{c} = pack_64_2x32_split %{lo}, %{hi}\n"));
                    c
                }
                1 => {
                    let c = next();
                    body.push_str(&format!("    1 %{c} = ine %{lo}, %1\n"));
                    c
                }
                b => {
                    let c = next();
                    body.push_str(&format!("    {b} %{c} = u2u{b} %{lo}\n"));
                    c
                }
            };
            cs.push(c);
        }
        if comps == 1 {
            names.push(format!("%{}", cs[0]));
        } else {
            let v = next();
            let list: Vec<String> = cs.iter().map(|c| format!("%{c}")).collect();
            body.push_str(&format!(
                "    {} %{v} = vec{comps} {}\n",
                ty((bits, comps)),
                list.join(", ")
            ));
            names.push(format!("%{v}"));
        }
    }
    let r = next();
    body.push_str(&format!(
        "    {} %{r} = {}{} {}\n",
        ty(dest),
        if exact { "exact " } else { "" },
        op.name(),
        names.join(", ")
    ));
    let mut stores = 0u32;
    for c in 0..dest.1 {
        let comp = if dest.1 == 1 {
            format!("%{r}")
        } else {
            format!("%{r}.{}", ['x', 'y', 'z', 'w'][usize::from(c)])
        };
        let outs: Vec<String> = match dest.0 {
            64 => vec![
                format!("unpack_64_2x32_split_x {comp}"),
                format!("unpack_64_2x32_split_y {comp}"),
            ],
            32 => vec![format!("mov {comp}")],
            1 => vec![format!("b2i32 {comp}")],
            _ => vec![format!("u2u32 {comp}")],
        };
        for o in outs {
            let v = next();
            body.push_str(&format!("    32 %{v} = {o}\n"));
            let a = at(&mut body, &mut next, stores);
            stores += 1;
            body.push_str(&format!(
                "    @store_ssbo (%{v}, %2, %{a}) (access=none, align_mul=4)\n"
            ));
        }
    }
    format!(
        "shader compute (local_size={simd},1,1, subgroup_size={simd})\nfn main {{\n  block b0:\n    32x3 %0 = @load_global_invocation_id\n    32 %1 = load_const (0)\n    32 %2 = load_const (1)\n    32 %4 = load_const (4)\n    32 %3 = imul %0.x, %4\n{body}}}\n"
    )
}

/// Runs `op` (`exact`) through the kernel emitted for `platform` on each lane's operands
/// (`lanes[l][k]`: the components of source `k`, each in the low bits) and returns
/// each lane's result components. The math unit errs by up to `math_ulps` ulps.
pub fn run_op(
    platform: &str,
    op: AluOp,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) -> Result<Vec<Vec<u64>>, String> {
    run_op_flagged(platform, op, true, dest, srcs, lanes, math_ulps)
}

/// [`run_op`], with the instruction `exact` or not.
pub fn run_op_flagged(
    platform: &str,
    op: AluOp,
    exact: bool,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) -> Result<Vec<Vec<u64>>, String> {
    let device = Device::preset(platform).ok_or("no such platform")?;
    let simd = if device.grf_bytes == 64 { 16 } else { 8 };
    // Whole workgroups; the lanes past the last operand set repeat the first one.
    let groups = lanes.len().div_ceil(simd as usize).max(1);
    let n = groups * simd as usize;
    let text = op_kernel_flagged(op, exact, dest, srcs, simd, n as u32);
    let shader = ir::parse_shader(&text).map_err(|d| format!("{d:?}"))?;
    ir::validate(&shader).map_err(|d| format!("{d:?}\n{text}"))?;
    let kernel =
        crate::emit_kernel(&shader, &device, &Default::default()).map_err(|e| e.to_string())?;
    // The loads' words, in kernel order, each a run of `n` lanes.
    let mut input = Vec::new();
    for (k, &(bits, comps)) in srcs.iter().enumerate() {
        for c in 0..usize::from(comps) {
            for w in 0..if bits == 64 { 2 } else { 1 } {
                for l in 0..n {
                    let lane = lanes.get(l).unwrap_or(&lanes[0]);
                    input.extend_from_slice(&((lane[k][c] >> (32 * w)) as u32).to_le_bytes());
                }
            }
        }
    }
    let words = usize::from(dest.1) * if dest.0 == 64 { 2 } else { 1 };
    let mut setup = Setup::default_for(&shader, &device, 0).map_err(|e| e.to_string())?;
    setup.grid = [groups as u32, 1, 1];
    setup.subgroup_size = simd;
    setup.buffers = vec![
        BufferSetup {
            kind: BufferKind::Ssbo,
            binding: 0,
            bytes: input,
        },
        BufferSetup {
            kind: BufferKind::Ssbo,
            binding: 1,
            bytes: vec![0; 4 * words * n],
        },
    ];
    let config = RunConfig {
        math_ulps: u32::try_from(math_ulps).map_err(|_| "a negative error")?,
        ..RunConfig::default()
    };
    let mem = run_visa_text(&shader, &device, &setup, &kernel.text, &config)
        .map_err(|e| format!("{e}\n{}", kernel.text))?;
    let out = &mem.allocation(mem.ssbo(1).ok_or("no SSBO 1")?).bytes;
    let word = |k: usize, l: usize| {
        let at = 4 * (k * n + l);
        u64::from(u32::from_le_bytes([
            out[at],
            out[at + 1],
            out[at + 2],
            out[at + 3],
        ]))
    };
    Ok((0..lanes.len())
        .map(|l| {
            let mut k = 0;
            (0..dest.1)
                .map(|_| {
                    if dest.0 == 64 {
                        k += 2;
                        word(k - 2, l) | word(k - 1, l) << 32
                    } else {
                        k += 1;
                        word(k - 1, l)
                    }
                })
                .collect()
        })
        .collect())
}

/// `ir::eval`'s result of `op` (`exact`) on one lane's operands.
pub fn eval(op: AluOp, dest: Shape, srcs: &[Shape], lane: &[Vec<u64>]) -> Vec<u64> {
    eval_flagged(op, true, dest, srcs, lane)
}

/// `ir::eval`'s result of `op`, `exact` or not, on one lane's operands.
pub fn eval_flagged(
    op: AluOp,
    exact: bool,
    dest: Shape,
    srcs: &[Shape],
    lane: &[Vec<u64>],
) -> Vec<u64> {
    let operands: Vec<ir::eval::Operand<'_>> = srcs
        .iter()
        .zip(lane)
        .map(|(&(bits, _), comps)| ir::eval::Operand::new(bits, comps))
        .collect();
    let ty = ir::types::Type::new(dest.0, dest.1).expect("a valid type");
    ir::eval::eval_alu_flagged(op, exact, ty, &operands)
        .expect("a valid instruction")
        .to_vec()
}

/// Checks that the kernel computes `ir::eval`'s result, bit for bit, on every lane.
pub fn check_exact(
    platform: &str,
    op: AluOp,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) {
    check_flagged(platform, op, true, dest, srcs, lanes, math_ulps);
}

/// [`check_exact`] for the instruction `exact` or not: the kernel of an inexact
/// instruction computes `ir::eval`'s inexact result (`eval_alu_flagged`) as the
/// interpreter models the math unit.
pub fn check_flagged(
    platform: &str,
    op: AluOp,
    exact: bool,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) {
    let got = run_op_flagged(platform, op, exact, dest, srcs, lanes, math_ulps)
        .unwrap_or_else(|e| panic!("{platform} {op}: {e}"));
    assert_eq!(got.len(), lanes.len());
    for (lane, g) in lanes.iter().zip(&got) {
        let want = eval_flagged(op, exact, dest, srcs, lane);
        assert_eq!(
            g, &want,
            "{platform} `{op}` (exact: {exact}) {dest:?} on {lane:x?}: kernel {g:x?}, ir::eval {want:x?}"
        );
    }
}
