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
//! the cleanup loop and the report), as `ir-opt -O` runs it.

use cpu_time::ThreadTime;
use ir::passes::cleanup::{Cleanup, DEFAULT_MAX_ITERATIONS};
use ir::passes::Pass;
use ir::{
    Access, AluType, AtomicOp, BaseType, Builder, Format, Function, ImageDecl, ImageDim, ImageRef,
    IntrinsicOp, LayoutTiling, Shader, Src, StaticLayout,
};
use lowering::{lower_images, lower_shader, Device, LowerOptions};
use std::time::{Duration, Instant};

fn decl(name: &str, dim: ImageDim, arrayed: bool, format: Format, binding: u32) -> ImageDecl {
    ImageDecl {
        name: name.into(),
        dim,
        arrayed,
        format,
        access: Access::NONE,
        binding,
        count: None,
        layout: None,
    }
}

/// A shader of `n` image accesses.
fn shader(n: usize) -> Shader {
    let mut sh = Shader::new([8, 8, 1]);
    let mut y_layout = decl("ys", ImageDim::D2, false, Format::R32Uint, 5);
    y_layout.layout = Some(StaticLayout {
        tiling: LayoutTiling::X,
        row_pitch: 8192,
        qpitch: None,
        swizzle: false,
    });
    let decls = [
        decl("a", ImageDim::D2, false, Format::Rgba8Unorm, 0),
        decl("b", ImageDim::D2, true, Format::R32Uint, 1),
        decl("c", ImageDim::D3, false, Format::Rgba16Float, 2),
        decl("d", ImageDim::D1, false, Format::R32Float, 3),
        decl("e", ImageDim::Cube, true, Format::Rgba8Uint, 4),
        y_layout,
        decl("f", ImageDim::Buffer, false, Format::R32Uint, 6),
    ];
    let refs: Vec<(ImageDecl, ImageRef)> = decls
        .iter()
        .map(|d| (d.clone(), ImageRef::new(sh.add_image(d.clone()))))
        .collect();
    let mut f = Function::new("main");
    let mut b = Builder::at_end(&mut f);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    // Every access reads its own coordinate (the invocation id plus a per-access
    // offset), so that the cleanup loop cannot merge the address code of different
    // accesses.
    let coord = |b: &mut Builder, d: &ImageDecl, i: usize| -> Src {
        let k = i as u64;
        let off = b.load_const(ir::Type::vec32(3), &[k & 63, (k >> 6) & 63, k >> 12]);
        let c = b.iadd(gid, off);
        let n = d.coord_components();
        let comps: Vec<u8> = (0..n).collect();
        Src::swizzled(c, &comps).expect("1 to 3 components")
    };
    let ty = |f: Format| {
        let base = f.data_base_type().unwrap_or(BaseType::Float);
        AluType::new(base, 32)
    };
    let mut i = 0usize;
    let mut emitted = 0usize;
    while emitted < n {
        let (src_decl, src) = &refs[i % refs.len()];
        let (dst_decl, dst) = &refs[(i + 3) % refs.len()];
        match i % 3 {
            // A load whose value a store of the same data type consumes.
            0 | 1 => {
                let t = ty(src_decl.format);
                let c = coord(&mut b, src_decl, i);
                let v = b.image_load(src_decl, *src, c, 4, t);
                emitted += 1;
                if emitted < n {
                    let target = refs
                        .iter()
                        .cycle()
                        .skip(i + 1)
                        .take(refs.len())
                        .find(|(d, _)| ty(d.format) == t && d.name != src_decl.name)
                        .unwrap_or(&refs[i % refs.len()]);
                    let c = coord(&mut b, &target.0, i);
                    b.image_store(&target.0, target.1, c, v, t);
                    emitted += 1;
                }
            }
            _ => {
                // Atomics on the R32 UINT images.
                let (d, r) = if dst_decl.format == Format::R32Uint {
                    (dst_decl, dst)
                } else {
                    (&refs[1].0, &refs[1].1)
                };
                let data = Src::channel(gid, 2);
                let c = coord(&mut b, d, i);
                let old = b.image_atomic(d, *r, AtomicOp::Iadd, c, data);
                emitted += 1;
                if emitted < n {
                    let (fd, fr) = &refs[6];
                    let c = coord(&mut b, fd, i);
                    b.image_store(fd, *fr, c, old, ty(fd.format));
                    emitted += 1;
                }
            }
        }
        i += 1;
    }
    sh.functions.push(f);
    sh
}

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
    let mut max = 100_000usize;
    let mut runs = 3usize;
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| die(&format!("{name} needs a positive number")))
        };
        match a.as_str() {
            "--bench" => {}
            "--max" => max = value("--max").max(1000),
            "--runs" => runs = value("--runs").max(1),
            "--only" => {
                only = args
                    .next()
                    .unwrap_or_else(|| die("--only needs a configuration name part"))
            }
            other => die(&format!(
                "unknown option `{other}` (--max N, --runs R, --only NAME)"
            )),
        }
    }
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
    for c in configs.iter().filter(|c| c.name.starts_with(only.as_str())) {
        let device = Device::preset(c.device).unwrap_or_else(|| die("unknown device"));
        let mut previous: Option<Duration> = None;
        for &n in &sizes {
            let base = shader(n);
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
