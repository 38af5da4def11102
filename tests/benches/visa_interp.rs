//! Speed of the vISA interpreter on the back end's real kernels, in vISA instructions
//! per second, against the IR executor running the same lowered shaders on the same
//! memory in the same run.
//!
//! ```text
//! cargo bench -p suites --bench visa_interp                 # best of 3 runs
//! cargo bench -p suites --bench visa_interp -- --runs 5 --only blur
//! ```
//!
//! The options are `suites::bench_shader::BenchArgs`: `--runs R` (best of R), `--only
//! PREFIX` (the rows whose name starts with it: `blur`, `blur pvc`); `--max` does not
//! apply.
//!
//! For every example under `examples/`, on DG2 and PVC, typed and `force_untyped`:
//! the shader is lowered (`verify::verifier::lower`), its kernel emitted
//! (`visa::emit_kernel`, SIMD16) and read, and the memory of the default setup built
//! once. Each run then executes the whole default grid twice from copies of that memory,
//! access logs off:
//!
//! * **executor**: the lowered shader in the IR executor (`verify::exec::Executor`,
//!   subgroups of 16), counting IR instructions (one per SIMD execution);
//! * **vISA**: the kernel in the interpreter (`verify::visa::dispatch::run_workgroups`,
//!   its inputs laid out by `DocumentedAbi`), counting vISA instructions.
//!
//! Each row shows the best time of `--runs` runs (thread CPU time where the platform
//! has it), both instruction rates and the time ratio vISA / executor; the last row sums
//! every shader.

use cpu_time::ThreadTime;
use lowering::{Device, LowerOptions};
use std::time::{Duration, Instant};
use suites::bench_shader::BenchArgs;
use verify::exec::{ExecConfig, Executor};
use verify::memory::Memory;
use verify::setup::Setup;
use verify::verifier::lower;
use verify::visa::abi::DocumentedAbi;
use verify::visa::dispatch::{run_workgroups, Grid, ThreadLanes};
use verify::visa::leg::{KernelAbi, MAX_REGISTER_BYTES};
use verify::visa::program::Program;
use verify::visa::reader::read;
use verify::visa::run::RunConfig;

fn die(msg: &str) -> ! {
    eprintln!("visa_interp: {msg}");
    std::process::exit(1)
}

/// The row of `file` on `target`: `blur dg2`, `blur dg2 untyped`.
fn row_name(file: &str, target: &str, force_untyped: bool) -> String {
    format!(
        "{} {target}{}",
        file.trim_end_matches(".ir"),
        if force_untyped { " untyped" } else { "" }
    )
}

/// One shader ready to run both ways.
struct Prepared {
    name: String,
    lowered: ir::Shader,
    grid: [u32; 3],
    memory: Memory,
    program: Program,
    abi: DocumentedAbi,
    /// The kernel's memory: `memory` with what the inputs point to.
    kernel_memory: Memory,
}

fn prepare(file: &str, target: &str, force_untyped: bool) -> Prepared {
    let path = format!("{}/../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    let shader = ir::parse_shader(&text).unwrap_or_else(|e| die(&format!("{path}: {e:?}")));
    let device = Device::preset(target).unwrap_or_else(|| die(target));
    let options = LowerOptions {
        force_untyped,
        ..LowerOptions::default()
    };
    let name = row_name(file, target, force_untyped);
    let fail = |e: &dyn std::fmt::Display| -> ! { die(&format!("{name}: {e}")) };
    let l = lower(&shader, &device, &options).unwrap_or_else(|e| fail(&e));
    let mut setup = Setup::default_for(&shader, &device, 0).unwrap_or_else(|e| fail(&e));
    setup.bindings = l.report.bindings.clone();
    let kernel = visa::emit_kernel(&l.lowered, &device, &visa::Options::with_simd(16))
        .unwrap_or_else(|e| fail(&e));
    let program = read(&kernel.text)
        .and_then(|listing| Program::new(&listing, device.grf_bytes, MAX_REGISTER_BYTES))
        .unwrap_or_else(|e| fail(&e));
    let mut memory = setup
        .build_memory(&l.lowered, &device)
        .unwrap_or_else(|e| fail(&e));
    memory.set_logging(false);
    let mut abi = DocumentedAbi::new(&program, &l.lowered, setup.grid).unwrap_or_else(|e| fail(&e));
    let mut kernel_memory = memory.clone();
    abi.prepare(&mut kernel_memory).unwrap_or_else(|e| fail(&e));
    Prepared {
        name,
        lowered: l.lowered,
        grid: setup.grid,
        memory,
        program,
        abi,
        kernel_memory,
    }
}

/// The best time of `runs` calls of `f`, and what the last call returned.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let (t, c0) = (Instant::now(), ThreadTime::try_now());
        let r = f();
        let wall = t.elapsed();
        let time = c0.and_then(|c| c.try_elapsed()).unwrap_or(wall);
        best = best.min(time);
        last = Some(r);
    }
    (best, last.unwrap_or_else(|| die("no run")))
}

/// Runs the lowered shader over the grid: (invocations, IR instructions).
fn run_executor(p: &Prepared) -> (u64, u64) {
    let config = ExecConfig {
        subgroup_size: 16,
        log_accesses: false,
        ..ExecConfig::default()
    };
    let mut ex = Executor::with_config(&p.lowered, config);
    ex.memory = p.memory.clone();
    let r = ex
        .run(p.grid)
        .unwrap_or_else(|e| die(&format!("{}: the executor failed: {e}", p.name)));
    (u64::from(r.invocations), r.stats.instructions)
}

/// Runs the kernel over the grid: vISA instructions.
fn run_kernel(p: &Prepared) -> u64 {
    let grid = Grid {
        local_size: p.lowered.local_size,
        workgroups: p.grid,
        simd: p.program.simd.unwrap_or(16),
        shared_size: ExecConfig::default().shared_size,
        shared_init: Vec::new(),
    };
    let mut mem = p.kernel_memory.clone();
    let mut payload = |l: &ThreadLanes, out: &mut Vec<u8>| p.abi.payload(l, out);
    let n = grid.num_workgroups();
    run_workgroups(
        &p.program,
        &grid,
        0..n,
        &mut mem,
        &mut payload,
        &RunConfig::default(),
    )
    .unwrap_or_else(|e| die(&format!("{}: the kernel failed: {e}", p.name)))
    .instructions
}

fn main() {
    let o = BenchArgs::parse(std::env::args().skip(1), "an example name, `blur dg2`, ...")
        .unwrap_or_else(|e| die(&e));
    let cpu = ThreadTime::try_now().is_ok();
    let dir = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| die(&format!("{dir}: {e}")))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ir"))
        .collect();
    files.sort();
    println!(
        "{:<28} {:>7} {:>10} {:>10} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "shader",
        "invocs",
        "IR insts",
        "vISA insts",
        if cpu { "exec cpu" } else { "exec wall" },
        if cpu { "vISA cpu" } else { "vISA wall" },
        "IR insts/s",
        "vISA insts/s",
        "ratio"
    );
    let (mut t_exec, mut t_visa) = (Duration::ZERO, Duration::ZERO);
    let (mut ir_total, mut visa_total, mut invocations) = (0u64, 0u64, 0u64);
    for file in &files {
        for (target, untyped) in [("dg2", false), ("dg2", true), ("pvc", false), ("pvc", true)] {
            let name = row_name(file, target, untyped);
            if !o.runs_part(&name) {
                continue;
            }
            let p = prepare(file, target, untyped);
            let (te, (inv, ir_insts)) = best(o.runs, || run_executor(&p));
            let (tv, visa_insts) = best(o.runs, || run_kernel(&p));
            t_exec += te;
            t_visa += tv;
            ir_total += ir_insts;
            visa_total += visa_insts;
            invocations += inv;
            row(&p.name, inv, ir_insts, visa_insts, te, tv);
        }
    }
    row("all", invocations, ir_total, visa_total, t_exec, t_visa);
}

fn row(name: &str, invocations: u64, ir: u64, visa: u64, te: Duration, tv: Duration) {
    let (se, sv) = (te.as_secs_f64(), tv.as_secs_f64());
    println!(
        "{:<28} {:>7} {:>10} {:>10} {:>8.2}ms {:>8.2}ms {:>12.0} {:>12.0} {:>7.2}",
        name,
        invocations,
        ir,
        visa,
        se * 1e3,
        sv * 1e3,
        ir as f64 / se,
        visa as f64 / sv,
        sv / se
    );
}
