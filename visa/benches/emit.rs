//! vISA emission: throughput on large shaders, and per example kernel the time of
//! lowering + emission beside GenX_IR's finalize time.
//!
//! ```text
//! cargo bench -p visa --bench emit                  # N = 1k, 10k, 100k; the examples
//! cargo bench -p visa --bench emit -- --max 1000    # only N = 1k
//! cargo bench -p visa --bench emit -- --runs 5      # best of 5
//! cargo bench -p visa --bench emit -- --only examples   # one part: throughput | examples
//! ```
//!
//! **Throughput.** The shader of the lowering bench (`lowering/benches/lower.rs`):
//! straight-line code of N image accesses at their own coordinates, round-robin over
//! loads, stores and atomics on seven images (2D RGBA8, 2D-array R32, 3D RGBA16F, 1D
//! R32F, cube-array RGBA8 UINT, 2D R32 with a static X layout, a buffer), every loaded
//! value stored. It is lowered for DG2 and for SKL like `ir-opt -O` (typed messages,
//! LSC on DG2 and the legacy data port's on SKL, then the cleanup loop; not timed),
//! then emitted at SIMD16 (timed): the best time over the
//! runs, accesses and IR instructions per second, and the kernel's size. Growth is the
//! time ratio to the previous size (10.0 for linear time).
//!
//! **Examples.** Every shader under `examples/` for BDW, SKL, ICL, TGL, DG2, MTL and
//! PVC: the best time of
//! lowering (`-O`'s passes) + emission over the runs, then GenX_IR on the kernel in the
//! same run (`-timestats`: its own `Total`, and the process's wall time), and the ratio
//! finalize / (lowering + emission). Without GenX_IR the GenX_IR columns are empty.
//!
//! Times are the thread's CPU time (the `cpu-time` crate; wall time where there is no
//! thread clock), so that the scheduling delays of a loaded machine do not count.

use cpu_time::ThreadTime;
use ir::Shader;
use lowering::{Device, LowerOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use suites::bench_shader::{image_accesses, BenchArgs};

fn die(msg: &str) -> ! {
    eprintln!("emit bench: {msg}");
    std::process::exit(2)
}

/// Runs `f` and returns its result with the thread's CPU time (wall time without a
/// thread clock).
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let (t, c0) = (Instant::now(), ThreadTime::try_now());
    let r = f();
    let wall = t.elapsed();
    (r, c0.and_then(|c| c.try_elapsed()).unwrap_or(wall))
}

/// `ir-opt -O`'s lowering.
fn lower(shader: &mut Shader, device: &Device) -> Result<(), String> {
    lowering::lower_shader(shader, device, &LowerOptions::default())
        .map(|_| ())
        .map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            lines.join("\n")
        })
}

fn throughput(max: usize, runs: usize) {
    // DG2's LSC messages, and Sky Lake's legacy data-port messages.
    for plat in ["dg2", "skl"] {
        throughput_on(plat, max, runs);
    }
}

fn throughput_on(plat: &str, max: usize, runs: usize) {
    let device = Device::preset(plat).unwrap_or_else(|| die("no preset"));
    let mut sizes = vec![1000usize];
    while sizes.last().is_some_and(|&s| s * 10 <= max) {
        let next = sizes.last().map_or(1000, |s| s * 10);
        sizes.push(next);
    }
    println!("emission throughput on {plat}: the lowering bench's shader, typed + cleanup, SIMD16");
    println!(
        "{:>8} {:>10} {:>12} {:>12} {:>13} {:>10} {:>10} {:>7}",
        "accesses",
        "IR insts",
        "best emit",
        "accesses/s",
        "IR insts/s",
        "ns/access",
        "kernel",
        "growth"
    );
    let mut previous: Option<Duration> = None;
    for &n in &sizes {
        let mut sh = image_accesses(n);
        lower(&mut sh, &device).unwrap_or_else(|e| die(&format!("lowering: {e}")));
        let st = ir::stats::Stats::of(&sh);
        let insts = st.alu + st.intrinsic + st.message + st.phi + st.load_const + st.undef;
        let options = visa::Options::with_simd(16);
        let mut best = Duration::MAX;
        let mut bytes = 0;
        for _ in 0..runs {
            let (k, t) = timed(|| visa::emit_kernel(&sh, &device, &options));
            let k = k.unwrap_or_else(|e| die(&format!("emission: {e}")));
            bytes = k.text.len();
            best = best.min(t);
        }
        let secs = best.as_secs_f64();
        let growth = previous.map_or("-".to_string(), |p| {
            format!("{:.1}", secs / p.as_secs_f64())
        });
        println!(
            "{:>8} {:>10} {:>10.2}ms {:>12.0} {:>13.0} {:>10.0} {:>8.1}MB {:>7}",
            n,
            insts,
            secs * 1e3,
            n as f64 / secs,
            insts as f64 / secs,
            secs * 1e9 / n as f64,
            bytes as f64 / 1e6,
            growth
        );
        previous = Some(best);
    }
}

fn examples(runs: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| die(&format!("{}: {e}", dir.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    let genx = visa::igc::find_tool().is_some();
    println!();
    println!("examples: lowering (-O) + emission vs GenX_IR finalize, same run");
    if !genx {
        println!("(GenX_IR, Debian package libigc-tools, is not installed: no finalize times)");
    }
    println!(
        "{:<20} {:<4} {:>6} {:>12} {:>10} {:>12} {:>12} {:>8}",
        "example", "plat", "lines", "lower+emit", "(emit)", "finalize", "GenX_IR wall", "ratio"
    );
    let mut ratios = Vec::new();
    for file in &files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| die(&format!("{name}: {e}")));
        let parsed = ir::parse_shader(&text).unwrap_or_else(|d| die(&format!("{name}: {d:?}")));
        for plat in ["bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc"] {
            let device = Device::preset(plat).unwrap_or_else(|| die("no preset"));
            let mut best = (Duration::MAX, Duration::MAX);
            let mut kernel = None;
            for _ in 0..runs {
                let mut sh = parsed.clone();
                let (r, t) = timed(|| {
                    lower(&mut sh, &device)?;
                    let (k, e) = timed(|| visa::emit_kernel(&sh, &device, &Default::default()));
                    k.map(|k| (k, e)).map_err(|e| e.to_string())
                });
                match r {
                    Ok((k, e)) => {
                        if t < best.0 {
                            best = (t, e);
                        }
                        kernel = Some(k);
                    }
                    Err(e) => {
                        println!("{name:<20} {plat:<4} refused: {e}");
                        break;
                    }
                }
            }
            let Some(k) = kernel else { continue };
            let lines = k.text.lines().count();
            let (fin, wall) = match (genx, k.genx_platform) {
                (true, Some(p)) => match visa::igc::compile(&k.text, p) {
                    Ok(c) => (c.finalize, Some(c.process)),
                    Err(e) => {
                        println!("{name:<20} {plat:<4} GenX_IR rejected the kernel: {e}");
                        continue;
                    }
                },
                _ => (None, None),
            };
            let ms = |d: Option<Duration>| {
                d.map_or("-".to_string(), |d| {
                    format!("{:.3}ms", d.as_secs_f64() * 1e3)
                })
            };
            let ratio = fin.map(|f| f.as_secs_f64() / best.0.as_secs_f64());
            if let Some(r) = ratio {
                ratios.push(r);
            }
            println!(
                "{:<20} {:<4} {:>6} {:>12} {:>10} {:>12} {:>12} {:>8}",
                name,
                plat,
                lines,
                ms(Some(best.0)),
                ms(Some(best.1)),
                ms(fin),
                ms(wall),
                ratio.map_or("-".to_string(), |r| format!("{r:.0}x"))
            );
        }
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        println!(
            "finalize / (lowering + emission): median {:.0}x, min {:.0}x, max {:.0}x over {} kernels",
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1],
            ratios.len()
        );
    }
}

fn main() {
    let args = BenchArgs::parse(std::env::args().skip(1), "throughput|examples")
        .unwrap_or_else(|e| die(&e));
    if args.runs_part("throughput") {
        throughput(args.max, args.runs);
    }
    if args.runs_part("examples") {
        examples(args.runs);
    }
}
