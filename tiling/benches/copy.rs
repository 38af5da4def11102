//! Throughput of `copy_linear_to_tiled` / `copy_tiled_to_linear` on a 4096x4096 RGBA8
//! surface (level 0, the whole 64 MiB image), beside `memcpy` of the same bytes.
//!
//! `cargo bench -p tiling --bench copy [-- OPTIONS]`
//!
//! Options: `--reps N` (timed repetitions per measurement, default 25), `--filter TEXT`
//! (only cases whose name contains TEXT), `--ratio-only` (print name and ratio only),
//! `--stores auto|cached|streaming` (the copies' store hint, default auto).
//!
//! Every case alternates one `memcpy` (`copy_from_slice` of the whole buffer, in the
//! case's direction) and one tiled copy, `reps` times after a warm-up of each, and
//! reports the best time of each (the least disturbed run) and the ratio of the two best
//! throughputs. Times are the thread's CPU time where available (Linux), which a shared
//! machine disturbs less than wall time since descheduled time does not count; the
//! `wall` column is the same ratio from wall-clock times.

use cpu_time::ThreadTime;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times `f`: (CPU time, or wall time where there is no thread clock; wall time).
fn time(f: impl FnOnce()) -> (Duration, Duration) {
    let (c0, w0) = (ThreadTime::try_now(), Instant::now());
    f();
    let wall = w0.elapsed();
    let cpu = c0.and_then(|c| c.try_elapsed()).unwrap_or(wall);
    (cpu, wall)
}

use tiling::copy::{copy_linear_to_tiled, copy_tiled_to_linear, CopyRegion, StoreHint};
use tiling::{Bit6Swizzle, Format, Gen, SurfDim, Surface, SurfaceDesc, Tiling};

const SIZE: u32 = 4096;

struct Options {
    reps: usize,
    filter: Option<String>,
    ratio_only: bool,
    stores: StoreHint,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        reps: 25,
        filter: None,
        ratio_only: false,
        stores: StoreHint::Auto,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // Passed by `cargo bench`.
            "--bench" => {}
            "--reps" => {
                let v = args.next().ok_or("--reps needs a value")?;
                o.reps = v.parse().map_err(|_| format!("bad --reps `{v}`"))?;
                if o.reps == 0 {
                    return Err("--reps must be at least 1".into());
                }
            }
            "--filter" => o.filter = Some(args.next().ok_or("--filter needs a value")?),
            "--ratio-only" => o.ratio_only = true,
            "--stores" => {
                o.stores = match args.next().as_deref() {
                    Some("auto") => StoreHint::Auto,
                    Some("cached") => StoreHint::Cached,
                    Some("streaming") => StoreHint::Streaming,
                    other => return Err(format!("bad --stores {other:?}")),
                }
            }
            other if !other.starts_with('-') => o.filter = Some(other.to_string()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(o)
}

/// A zero-initialised-then-filled buffer of `len` bytes starting 64-byte aligned (as a
/// driver's mapping would be), every page touched.
struct Buffer {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl Buffer {
    fn new(len: usize, seed: u8) -> Buffer {
        let mut storage = vec![0u8; len + 64];
        let start = storage.as_ptr().align_offset(64);
        for (i, b) in storage.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(31).wrapping_add(seed);
        }
        Buffer {
            storage,
            start,
            len,
        }
    }
    fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

struct Case {
    name: String,
    gen: Gen,
    tiling: Tiling,
    swizzle: Bit6Swizzle,
    to_tiled: bool,
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("copy bench: {e}");
            std::process::exit(2);
        }
    };
    let mut cases = Vec::new();
    let configs = [
        ("linear", Gen::Gfx125, Tiling::Linear, Bit6Swizzle::None),
        ("x", Gen::Gfx125, Tiling::X, Bit6Swizzle::None),
        ("y", Gen::Gfx9, Tiling::Y, Bit6Swizzle::None),
        ("tile4", Gen::Gfx125, Tiling::Tile4, Bit6Swizzle::None),
        ("tile64", Gen::Gfx125, Tiling::Tile64, Bit6Swizzle::None),
        ("tile64-xe2", Gen::Gfx20, Tiling::Tile64, Bit6Swizzle::None),
        ("x-swizzle-gfx7", Gen::Gfx7, Tiling::X, Bit6Swizzle::Enabled),
        ("y-swizzle-gfx7", Gen::Gfx7, Tiling::Y, Bit6Swizzle::Enabled),
    ];
    for (name, gen, tiling, swizzle) in configs {
        for to_tiled in [true, false] {
            let dir = if to_tiled {
                "linear->tiled"
            } else {
                "tiled->linear"
            };
            cases.push(Case {
                name: format!("{name} {dir}"),
                gen,
                tiling,
                swizzle,
                to_tiled,
            });
        }
    }
    let bytes = (SIZE * SIZE * 4) as usize;
    let pitch = (SIZE * 4) as usize;
    let mut linear = Buffer::new(bytes, 1);
    let mut tiled = Buffer::new(bytes, 2);
    if !o.ratio_only {
        println!(
            "4096x4096 R8G8B8A8_UNORM, level 0, {} MiB per copy; best of {} runs each, stores {:?}",
            bytes >> 20,
            o.reps,
            o.stores
        );
        println!(
            "{:32} {:>9} {:>9} {:>7} {:>7}",
            "case", "copy GB/s", "memcpy", "ratio", "wall"
        );
    }
    for c in &cases {
        if o.filter
            .as_ref()
            .is_some_and(|f| !c.name.contains(f.as_str()))
        {
            continue;
        }
        let desc = SurfaceDesc::new(c.gen, SurfDim::D2, Format::R8G8B8A8_UNORM, c.tiling)
            .extent(SIZE, SIZE, 1);
        let s = match Surface::new(desc) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", c.name);
                std::process::exit(1);
            }
        };
        assert_eq!(s.size_B() as usize, bytes, "{}", c.name);
        let region = CopyRegion::image(&s, 0, 0)
            .with_swizzle(c.swizzle)
            .with_stores(o.stores);
        let copy = |linear: &mut Buffer, tiled: &mut Buffer| {
            let mut r = Ok(());
            let t = time(|| {
                r = if c.to_tiled {
                    copy_linear_to_tiled(
                        &s,
                        tiled.bytes_mut(),
                        &region,
                        black_box(linear.bytes()),
                        pitch,
                    )
                } else {
                    copy_tiled_to_linear(
                        &s,
                        linear.bytes_mut(),
                        pitch,
                        &region,
                        black_box(tiled.bytes()),
                    )
                };
            });
            if let Err(e) = r {
                eprintln!("{}: {e}", c.name);
                std::process::exit(1);
            }
            t
        };
        let memcpy = |linear: &mut Buffer, tiled: &mut Buffer| {
            time(|| {
                if c.to_tiled {
                    tiled.bytes_mut().copy_from_slice(black_box(linear.bytes()));
                } else {
                    linear.bytes_mut().copy_from_slice(black_box(tiled.bytes()));
                }
            })
        };
        memcpy(&mut linear, &mut tiled);
        copy(&mut linear, &mut tiled);
        let mut best = [Duration::MAX; 4]; // copy cpu, copy wall, memcpy cpu, memcpy wall
        for _ in 0..o.reps {
            let (mc, mw) = memcpy(&mut linear, &mut tiled);
            let (cc, cw) = copy(&mut linear, &mut tiled);
            for (b, t) in best.iter_mut().zip([cc, cw, mc, mw]) {
                *b = (*b).min(t);
            }
        }
        let g = |t: Duration| gbps(bytes, t);
        let ratio = g(best[0]) / g(best[2]);
        let wall = g(best[1]) / g(best[3]);
        if o.ratio_only {
            println!("{:32} {ratio:.2}", c.name);
        } else {
            println!(
                "{:32} {:9.2} {:9.2} {ratio:7.2} {wall:7.2}",
                c.name,
                g(best[0]),
                g(best[2]),
            );
        }
    }
}
