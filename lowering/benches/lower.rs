//! Throughput of the `lower-images` pass on shaders with many image accesses.
//!
//! ```text
//! cargo bench -p lowering --bench lower                  # N = 1k, 10k, 100k
//! cargo bench -p lowering --bench lower -- --max 1000000 # up to 1M accesses
//! cargo bench -p lowering --bench lower -- --runs 5      # best of 5 per size
//! cargo bench -p lowering --bench lower -- --only typed  # configurations named typed...
//! ```
//!
//! The shader is built with the builder: straight-line code of N image accesses, each
//! at its own coordinate,
//! round-robin over loads, stores and atomics on seven images of different dimensions,
//! formats and layouts (2D RGBA8, 2D-array R32, 3D RGBA16F, 1D R32F, cube-array RGBA8
//! UINT, a 2D R32 image with a static X layout, and a buffer), every loaded value stored
//! to another image so that nothing is dead. Each configuration lowers a fresh copy of
//! the shader (the copy is not timed) and reports the best time over the runs, accesses
//! per second and the time per access; the growth column is the time ratio to the
//! previous size, 10.0 for linear time. Times are the thread's CPU time (the `cpu-time`
//! crate; wall time where there is no thread clock), so that the scheduling delays of a
//! loaded machine do not count; the wall time of the best run is printed next to it.
//!
//! Configurations: typed on DG2 (LSC typed messages), untyped on BDW (`force_untyped`:
//! the Gfx8 address code), untyped on DG2 (all tilings of Gfx12.5 to address), and the
//! untyped DG2 lowering followed by the `cleanup` loop, and the whole entry point
//! `lower_shader` on the untyped DG2 configuration (validation, both lowering passes,
//! the cleanup loop and the report), as `ir-opt -O` runs it; the same entry point on
//! SKL typed and BDW untyped adds the `lower-dataport` rewrite into the legacy data
//! port's messages (compare them with the DG2 one).

use cpu_time::ThreadTime;
use ir::passes::cleanup::{Cleanup, DEFAULT_MAX_ITERATIONS};
use ir::passes::Pass;
use lowering::{lower_images, lower_shader, Device, LowerOptions};
use std::time::{Duration, Instant};
use suites::bench_shader::{image_accesses, BenchArgs};

struct Config {
    name: &'static str,
    device: &'static str,
    options: LowerOptions,
    stage: Stage,
}

/// What a configuration times.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Stage {
    /// `lower_images` alone.
    Images,
    /// `lower_images`, then the cleanup loop.
    ImagesThenCleanup,
    /// `lower_shader`.
    Shader,
}

fn die(msg: &str) -> ! {
    eprintln!("lower bench: {msg}");
    std::process::exit(2)
}

fn main() {
    let args = BenchArgs::parse(std::env::args().skip(1), "a configuration name part")
        .unwrap_or_else(|e| die(&e));
    let (max, runs) = (args.max, args.runs);
    let mut sizes = vec![1000usize];
    while sizes.last().is_some_and(|&s| s * 10 <= max) {
        let next = sizes.last().map_or(1000, |s| s * 10);
        sizes.push(next);
    }
    let forced = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    let configs = [
        Config {
            name: "typed, dg2",
            device: "dg2",
            options: LowerOptions::default(),
            stage: Stage::Images,
        },
        Config {
            name: "untyped, bdw",
            device: "bdw",
            options: forced,
            stage: Stage::Images,
        },
        Config {
            name: "untyped, dg2",
            device: "dg2",
            options: forced,
            stage: Stage::Images,
        },
        Config {
            name: "untyped, dg2, + cleanup",
            device: "dg2",
            options: forced,
            stage: Stage::ImagesThenCleanup,
        },
        Config {
            name: "lower_shader, untyped, dg2",
            device: "dg2",
            options: forced,
            stage: Stage::Shader,
        },
        Config {
            name: "lower_shader, typed, skl",
            device: "skl",
            options: LowerOptions::default(),
            stage: Stage::Shader,
        },
        Config {
            name: "lower_shader, untyped, bdw",
            device: "bdw",
            options: forced,
            stage: Stage::Shader,
        },
    ];
    let cpu = ThreadTime::try_now().is_ok();
    println!(
        "{:<27} {:>8} {:>12} {:>12} {:>12} {:>10} {:>7} {:>10}",
        "configuration",
        "accesses",
        if cpu { "best cpu" } else { "best wall" },
        "(wall)",
        "accesses/s",
        "ns/access",
        "growth",
        "ALU after"
    );
    for c in configs.iter().filter(|c| args.runs_part(c.name)) {
        let device = Device::preset(c.device).unwrap_or_else(|| die("unknown device"));
        let mut previous: Option<Duration> = None;
        for &n in &sizes {
            let base = image_accesses(n);
            let (mut best, mut best_wall) = (Duration::MAX, Duration::MAX);
            let mut alu = 0;
            for _ in 0..runs {
                let mut sh = base.clone();
                let (t, c0) = (Instant::now(), ThreadTime::try_now());
                if c.stage == Stage::Shader {
                    lower_shader(&mut sh, &device, &c.options)
                        .unwrap_or_else(|e| die(&format!("{}: {}", c.name, e[0])));
                } else {
                    lower_images(&mut sh, &device, &c.options)
                        .unwrap_or_else(|e| die(&format!("{}: {e}", c.name)));
                }
                if c.stage == Stage::ImagesThenCleanup {
                    Cleanup::standard(DEFAULT_MAX_ITERATIONS)
                        .run(&mut sh)
                        .unwrap_or_else(|e| die(&format!("cleanup: {e}")));
                }
                let wall = t.elapsed();
                let time = c0.and_then(|c| c.try_elapsed()).unwrap_or(wall);
                if time < best {
                    (best, best_wall) = (time, wall);
                }
                alu = ir::stats::Stats::of(&sh).alu;
            }
            let secs = best.as_secs_f64();
            let growth = previous.map_or("-".to_string(), |p| {
                format!("{:.1}", secs / p.as_secs_f64())
            });
            println!(
                "{:<27} {:>8} {:>10.2}ms {:>10.2}ms {:>12.0} {:>10.0} {:>7} {:>10}",
                c.name,
                n,
                secs * 1e3,
                best_wall.as_secs_f64() * 1e3,
                n as f64 / secs,
                secs * 1e9 / n as f64,
                growth,
                alu
            );
            previous = Some(best);
        }
    }
}
