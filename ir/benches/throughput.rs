//! Throughput of the text front end and the cleanup loop on a large shader.
//!
//! ```text
//! cargo bench -p ir --bench throughput                    # 50 MB, functions of ~1 MB
//! cargo bench -p ir --bench throughput -- --mb 5          # 5 MB
//! cargo bench -p ir --bench throughput -- --fn-kb 0       # one huge function
//! ```
//!
//! A deterministic generator writes a shader in the text format: image declarations of
//! several dimensions and formats, then functions made of straight-line code (every ALU
//! opcode, constants, swizzles, image and message intrinsics, system values) nested in
//! `if`/`else` and `loop` up to four deep, with phis at merge points and loop headers and
//! `break`/`continue`. The shader is then parsed, validated, printed, cleaned up (the
//! `cleanup` loop: const-fold, algebraic, copy-prop, CSE, DCE) and printed again. Each
//! phase reports its wall time and its throughput in MB/s of the *input* text, so the
//! figures compare across phases; the peak resident set comes from `VmHWM`.
//!
//! Options: `--mb N` (input size in MB, default 50), `--fn-kb K` (target size of each
//! function in KB, default 1024; 0 puts everything in `main`), `--seed S`, `--runs R`
//! (run the pipeline R times on the same text and report the best and the median time of
//! each phase; default 1). The peak RSS column is the high-water mark after each phase
//! of the first run: the input text, the parsed shader and what each phase allocates.
//! `--per-pass` adds one more run that drives the passes of the cleanup loop one by one
//! through the pass manager and shows where the cleanup time goes.

use ir::passes::cleanup::{Cleanup, DEFAULT_MAX_ITERATIONS};
use ir::passes::{Pass, PassManager, PassRegistry};
use ir::types::BaseType;
use ir::{parse_shader, print_shader, validate, AluOp};
use std::fmt::Write;
use std::time::{Duration, Instant};

const MB: f64 = 1024.0 * 1024.0;

struct Options {
    mb: f64,
    fn_kb: usize,
    seed: u64,
    runs: usize,
    per_pass: bool,
}

fn options() -> Options {
    let mut o = Options {
        mb: 50.0,
        fn_kb: 1024,
        seed: 1,
        runs: 1,
        per_pass: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| die(&format!("{name} needs a value")))
        };
        match a.as_str() {
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            "--mb" => {
                o.mb = value("--mb")
                    .parse()
                    .ok()
                    .filter(|&m: &f64| m > 0.0)
                    .unwrap_or_else(|| die("--mb takes a positive number"))
            }
            "--fn-kb" => {
                o.fn_kb = value("--fn-kb")
                    .parse()
                    .unwrap_or_else(|_| die("--fn-kb takes a whole number"))
            }
            "--seed" => {
                o.seed = value("--seed")
                    .parse()
                    .unwrap_or_else(|_| die("--seed takes a whole number"))
            }
            "--runs" => {
                o.runs = value("--runs")
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| die("--runs takes a positive whole number"))
            }
            "--per-pass" => o.per_pass = true,
            "-h" | "--help" => {
                println!("throughput [--mb N] [--fn-kb K] [--seed S] [--runs R] [--per-pass]");
                std::process::exit(0);
            }
            other => die(&format!("unknown argument `{other}`")),
        }
    }
    o
}

fn die(msg: &str) -> ! {
    eprintln!("throughput: {msg}");
    std::process::exit(2)
}

/// Peak resident set size in MB (`VmHWM`), if the kernel reports it.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

/// The phases, in the order they run.
const PHASES: [&str; 6] = [
    "parse",
    "validate",
    "print",
    "cleanup",
    "validate (cleaned)",
    "print (cleaned)",
];

/// What one run of the pipeline found besides its timings.
struct RunFacts {
    functions: usize,
    insts: usize,
    identical: bool,
    rounds: u32,
    insts_after: usize,
    cleaned_bytes: usize,
}

/// Parses, validates, prints, cleans up, validates and prints again; returns the time of
/// each phase (in `PHASES` order) and the peak RSS after it.
fn run_once(text: &str) -> ([Duration; 6], [Option<f64>; 6], RunFacts) {
    let mut times = [Duration::ZERO; 6];
    let mut rss = [None; 6];
    let mut phase = 0;
    let mut record = |d: Duration| {
        times[phase] = d;
        rss[phase] = peak_rss_mb();
        phase += 1;
    };

    let (parsed, t) = time(|| parse_shader(text));
    let mut shader = parsed.unwrap_or_else(|d| {
        die(&format!(
            "the generated text does not parse:\n{}",
            ir::diag::render_all(&d, "generated", text)
        ))
    });
    record(t);
    let insts = count_insts(&shader);

    let (r, t) = time(|| validate(&shader));
    if let Err(d) = r {
        let shown: Vec<_> = d.iter().take(10).cloned().collect();
        die(&format!(
            "the generated shader is invalid ({} errors):\n{}",
            d.len(),
            ir::diag::render_all(&shown, "generated", text)
        ));
    }
    record(t);

    let (printed, t) = time(|| print_shader(&shader));
    record(t);
    let identical = printed == text;
    drop(printed);

    let mut cleanup = Cleanup::standard(DEFAULT_MAX_ITERATIONS);
    let (r, t) = time(|| cleanup.run(&mut shader));
    if let Err(e) = r {
        die(&format!("cleanup failed: {e}"));
    }
    record(t);

    let (r, t) = time(|| validate(&shader));
    if let Err(d) = r {
        die(&format!(
            "cleanup produced an invalid shader ({} errors), first: {}",
            d.len(),
            d[0]
        ));
    }
    record(t);

    let (cleaned, t) = time(|| print_shader(&shader));
    record(t);

    let facts = RunFacts {
        functions: shader.functions.len(),
        insts,
        identical,
        rounds: cleanup.rounds(),
        insts_after: count_insts(&shader),
        cleaned_bytes: cleaned.len(),
    };
    (times, rss, facts)
}

/// The cleanup loop again, its passes run through the pass manager round by round so
/// that each one is timed; prints the total per pass.
fn per_pass(text: &str, in_mb: f64) {
    let mut shader = parse_shader(text).unwrap_or_else(|_| die("the text no longer parses"));
    let names = Cleanup::standard(DEFAULT_MAX_ITERATIONS).pass_names();
    let registry = PassRegistry::with_ir_passes();
    let mut pm = PassManager::parse_pipeline(&names.join(","), &registry)
        .unwrap_or_else(|e| die(&format!("cleanup pipeline: {e}")));
    pm.set_verify(false);
    let mut rounds = 0;
    while rounds < DEFAULT_MAX_ITERATIONS {
        rounds += 1;
        match pm.run(&mut shader) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => die(&format!("cleanup: {e:?}")),
        }
    }
    println!("cleanup per pass ({rounds} rounds):");
    for name in names {
        let total: Duration = pm
            .timings()
            .iter()
            .filter(|t| t.name == name)
            .map(|t| t.duration)
            .sum();
        println!(
            "  {name:<18} {:>10.3} {:>10.1}",
            total.as_secs_f64(),
            in_mb / total.as_secs_f64()
        );
    }
}

fn count_insts(shader: &ir::Shader) -> usize {
    shader
        .functions
        .iter()
        .map(|f| f.insts_in_order().len())
        .sum()
}

fn main() {
    let o = options();
    let target = (o.mb * MB) as usize;
    let fn_bytes = if o.fn_kb == 0 {
        usize::MAX
    } else {
        o.fn_kb * 1024
    };

    let (text, t_gen) = time(|| generate(target, fn_bytes, o.seed));
    let in_mb = text.len() as f64 / MB;
    let lines = text.bytes().filter(|&b| b == b'\n').count();
    println!(
        "input: {in_mb:.1} MB, {lines} lines, generated in {:.2} s (seed {}, {}, {} run{})",
        t_gen.as_secs_f64(),
        o.seed,
        if o.fn_kb == 0 {
            "one function".to_string()
        } else {
            format!("functions of ~{} KB", o.fn_kb)
        },
        o.runs,
        if o.runs == 1 { "" } else { "s" }
    );

    let mut all: Vec<[Duration; 6]> = Vec::new();
    let mut peak = [None; 6];
    let mut facts = None;
    for _ in 0..o.runs {
        let (times, rss, f) = run_once(&text);
        all.push(times);
        if facts.is_none() {
            peak = rss;
        }
        facts = Some(f);
    }
    let facts = facts.expect("at least one run");

    println!(
        "{:<20} {:>10} {:>10} {:>12} {:>10}",
        "phase", "best (s)", "MB/s", "median MB/s", "peak RSS"
    );
    for (i, name) in PHASES.iter().enumerate() {
        let mut ts: Vec<f64> = all.iter().map(|t| t[i].as_secs_f64()).collect();
        ts.sort_by(f64::total_cmp);
        let best = ts[0];
        let median = ts[ts.len() / 2];
        println!(
            "{name:<20} {best:>10.3} {:>10.1} {:>12.1} {:>10}",
            in_mb / best,
            in_mb / median,
            peak[i].map_or_else(|| "?".to_string(), |m| format!("{m:.0} MB"))
        );
    }
    println!(
        "{} functions, {} instructions; printed text {}; cleanup: {} rounds, {} instructions \
         left, {:.1} MB of text",
        facts.functions,
        facts.insts,
        if facts.identical {
            "identical to the input"
        } else {
            "differs from the input"
        },
        facts.rounds,
        facts.insts_after,
        facts.cleaned_bytes as f64 / MB
    );
    if o.per_pass {
        per_pass(&text, in_mb);
    }
}

// ----- the generator -----------------------------------------------------------------

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The images every generated shader declares. The intrinsics below are written for
/// exactly these declarations.
const HEADER: &str = "\
shader compute (local_size=8,8,1)
image @src : 2d rgba8_unorm readonly (binding=0)
image @dst : 2d rgba8_unorm writeonly (binding=1, layout={tiling=y, row_pitch=4096})
image @counters : 2d r32_uint (binding=2)
image @volume : 3d r32_float coherent (binding=3, layout={tiling=4, row_pitch=2048, qpitch=256})
image @layers : 2d array rgba16_float (binding=4)
image @textures[4] : 2d rgba32_float readonly (binding=5)
image @texels : buffer r32_sint (binding=9)
image @wide : 2d r64_uint (binding=10)
";

/// Bit sizes of values, indexed by `class`.
const BITS: [u8; 5] = [1, 8, 16, 32, 64];

fn class(bits: u8) -> usize {
    match bits {
        1 => 0,
        8 => 1,
        16 => 2,
        32 => 3,
        _ => 4,
    }
}

/// A value the generator may use: its id and component count.
#[derive(Copy, Clone)]
struct Avail {
    id: u32,
    comps: u8,
}

fn generate(target: usize, fn_bytes: usize, seed: u64) -> String {
    let mut g = Gen {
        out: String::with_capacity(target + target / 16),
        rng: Rng(seed),
        pools: Default::default(),
        next_value: 0,
        next_block: 0,
        fn_end: 0,
        ops: AluOp::ALL.to_vec(),
        defining: None,
    };
    g.out.push_str(HEADER);
    let mut n = 0;
    while g.out.len() < target {
        let name = if n == 0 {
            "main".to_string()
        } else {
            format!("f{n}")
        };
        let remaining = target - g.out.len();
        // Avoid a tiny last function.
        let size = if remaining < fn_bytes + fn_bytes / 2 {
            remaining
        } else {
            fn_bytes
        };
        g.function(&name, size);
        n += 1;
    }
    g.out
}

struct Gen {
    out: String,
    rng: Rng,
    /// Values visible at the current point, per bit-size class, innermost last.
    pools: [Vec<Avail>; 5],
    next_value: u32,
    next_block: u32,
    /// Where (in bytes of output) the current function should stop growing.
    fn_end: usize,
    ops: Vec<AluOp>,
    /// The value whose definition line is being written.
    defining: Option<u32>,
}

type Scope = [usize; 5];

impl Gen {
    fn scope(&self) -> Scope {
        std::array::from_fn(|i| self.pools[i].len())
    }

    fn restore(&mut self, s: Scope) {
        for (p, n) in self.pools.iter_mut().zip(s) {
            p.truncate(n);
        }
    }

    fn value(&mut self) -> u32 {
        self.next_value += 1;
        self.next_value - 1
    }

    fn block(&mut self) -> u32 {
        self.next_block += 1;
        self.next_block - 1
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn label(&mut self, b: u32, depth: usize) {
        self.indent(depth);
        writeln!(self.out, "block b{b}:").unwrap();
    }

    /// Starts a definition line: indentation and `<type> %N = `, the type padded to four
    /// columns as the printer does. Records the value as available.
    fn def(&mut self, depth: usize, bits: u8, comps: u8) -> u32 {
        let v = self.value();
        self.def_id(depth, v, bits, comps);
        v
    }

    fn def_id(&mut self, depth: usize, v: u32, bits: u8, comps: u8) {
        self.indent(depth + 1);
        let start = self.out.len();
        if comps == 1 {
            write!(self.out, "{bits}").unwrap();
        } else {
            write!(self.out, "{bits}x{comps}").unwrap();
        }
        while self.out.len() - start < 4 {
            self.out.push(' ');
        }
        write!(self.out, " %{v} = ").unwrap();
        self.pools[class(bits)].push(Avail { id: v, comps });
        self.defining = Some(v);
    }

    /// Writes a source of `bits` and `comps` components: a recent visible value, swizzled
    /// when its shape differs (or now and then anyway).
    fn src(&mut self, bits: u8, comps: u8) {
        let pool = &self.pools[class(bits)];
        // The value being defined is already in its pool but not usable yet.
        let len = pool.len() - usize::from(pool.last().map(|a| a.id) == self.defining);
        // Every function starts with constants of every class, so pools are never empty.
        let window = len.min(24);
        let a = pool[len - 1 - self.rng.below(window)];
        write!(self.out, "%{}", a.id).unwrap();
        if a.comps == comps && !self.rng.chance(1, 8) {
            return;
        }
        self.out.push('.');
        for _ in 0..comps {
            let c = self.rng.below(a.comps as usize);
            // `xyzw` for values of up to four components, `a`..`p` beyond (vec8/vec16).
            self.out.push(ir::types::swizzle_letter(c as u8, a.comps));
        }
    }

    fn constant(&mut self, depth: usize, bits: u8, comps: u8) -> u32 {
        let v = self.def(depth, bits, comps);
        self.out.push_str("load_const (");
        for i in 0..comps {
            if i > 0 {
                self.out.push_str(", ");
            }
            // Mostly small numbers and bit patterns that feed folding and the algebraic
            // rules, some arbitrary ones.
            let x = match self.rng.below(6) {
                0 => 0,
                1 => 1,
                2 => 1 << self.rng.below(bits.min(32) as usize),
                3 => u64::MAX,
                _ => self.rng.next(),
            } & if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            if bits == 1 {
                self.out.push_str(if x != 0 { "true" } else { "false" });
            } else {
                write!(self.out, "0x{x:0w$x}", w = bits as usize / 4).unwrap();
            }
        }
        self.out.push_str(")\n");
        v
    }

    fn function(&mut self, name: &str, size: usize) {
        self.next_value = 0;
        self.next_block = 0;
        self.pools = Default::default();
        self.fn_end = self.out.len() + size;
        writeln!(self.out, "\nfn {name} {{").unwrap();
        let b0 = self.block();
        self.label(b0, 1);
        let id = self.def(1, 32, 3);
        self.out.push_str("@load_global_invocation_id\n");
        let _ = id;
        let lid = self.def(1, 32, 3);
        self.out.push_str("@load_local_invocation_id\n");
        let _ = lid;
        for bits in BITS {
            self.constant(1, bits, 4);
        }
        // A non-constant value of every class, so that folding does not eat everything.
        let v = self.def(1, 1, 1);
        self.out.push_str("ult ");
        self.src(32, 1);
        self.out.push_str(", ");
        self.src(32, 1);
        self.out.push('\n');
        let _ = v;
        for bits in [8u8, 16, 64] {
            self.def(1, bits, 3);
            write!(self.out, "u2u{bits} ").unwrap();
            self.src(32, 3);
            self.out.push('\n');
        }
        self.list(1, 0, b0);
        self.out.push_str("}\n");
    }

    /// Writes a list of control-flow nodes whose first block, `first`, is already
    /// labelled. Grows until the function's size is reached (at the top level) or for a
    /// few nodes (nested). Returns the id of the last block, which is left open.
    fn list(&mut self, depth: usize, level: u32, first: u32) -> u32 {
        let mut cur = first;
        let nodes = if level == 0 {
            usize::MAX
        } else {
            1 + self.rng.below(3)
        };
        for _ in 0..nodes {
            let n = 3 + self.rng.below(if level == 0 { 24 } else { 12 });
            self.straight(depth, n);
            if level == 0 && self.out.len() >= self.fn_end {
                break;
            }
            if level >= 4 || (level > 0 && self.rng.chance(1, 4)) {
                break;
            }
            cur = if self.rng.chance(2, 5) {
                self.loop_node(depth, level, cur)
            } else {
                self.if_node(depth, level)
            };
        }
        cur
    }

    fn straight(&mut self, depth: usize, n: usize) {
        for _ in 0..n {
            match self.rng.below(20) {
                0..=12 => self.alu(depth),
                13 => {
                    let bits = self.rng.pick(&BITS);
                    let comps = 1 + self.rng.below(4) as u8;
                    self.constant(depth, bits, comps);
                }
                14..=17 => self.image(depth),
                _ => self.message(depth),
            }
        }
    }

    fn alu(&mut self, depth: usize) {
        let op = self.rng.pick(&self.ops);
        let info = op.info();
        let n_in = info.num_inputs as usize;
        let comps = if info.output_size != 0 {
            info.output_size
        } else {
            1 + self.rng.below(4) as u8
        };
        let unsized_float = (0..n_in)
            .map(|i| info.input_types[i])
            .chain([info.output_type])
            .any(|t| t.bits == 0 && t.base == BaseType::Float);
        let unsized_bits = if unsized_float {
            self.rng.pick(&[32, 32, 32, 16, 64])
        } else if op == AluOp::UfindMsb {
            // Only defined on 32- and 64-bit sources (NIR's validator).
            self.rng.pick(&[32, 64])
        } else {
            self.rng.pick(&[32, 32, 32, 32, 8, 16, 64])
        };
        let out_bits = if info.output_type.bits == 0 {
            unsized_bits
        } else {
            info.output_type.bits
        };
        self.def(depth, out_bits, comps);
        self.out.push_str(op.name());
        for i in 0..n_in {
            self.out.push_str(if i == 0 { " " } else { ", " });
            let t = info.input_types[i];
            let bits = if t.bits == 0 { unsized_bits } else { t.bits };
            let c = if info.input_sizes[i] == 0 {
                comps
            } else {
                info.input_sizes[i]
            };
            self.src(bits, c);
        }
        self.out.push('\n');
    }

    fn image(&mut self, depth: usize) {
        match self.rng.below(14) {
            0..=2 => {
                self.def(depth, 32, 4);
                self.out.push_str("@image_load (@src, ");
                self.src(32, 2);
                self.out.push_str(") (dest_type=float32)\n");
            }
            3 => {
                self.def(depth, 32, 4);
                self.out.push_str("@image_load (@textures[");
                self.src(32, 1);
                self.out.push_str("], ");
                self.src(32, 2);
                self.out.push_str(") (dest_type=float32)\n");
            }
            4..=5 => {
                self.indent(depth + 1);
                self.out.push_str("@image_store (@dst, ");
                self.src(32, 2);
                self.out.push_str(", ");
                self.src(32, 4);
                self.out.push_str(") (src_type=float32)\n");
            }
            6 => {
                self.def(depth, 32, 1);
                let op = self.rng.pick(&["iadd", "umax", "umin", "ior", "xchg"]);
                self.out.push_str("@image_atomic (@counters, ");
                self.src(32, 2);
                self.out.push_str(", ");
                self.src(32, 1);
                writeln!(self.out, ") (atomic_op={op})").unwrap();
            }
            7 => {
                self.def(depth, 32, 1);
                self.out.push_str("@image_atomic_swap (@counters, ");
                self.src(32, 2);
                self.out.push_str(", ");
                self.src(32, 1);
                self.out.push_str(", ");
                self.src(32, 1);
                self.out.push_str(") (atomic_op=cmpxchg)\n");
            }
            8 => {
                self.def(depth, 32, 1);
                self.out.push_str("@image_atomic (@volume, ");
                self.src(32, 3);
                self.out.push_str(", ");
                self.src(32, 1);
                self.out.push_str(") (atomic_op=fadd)\n");
            }
            9 => {
                let comps = 1 + self.rng.below(4) as u8;
                self.def(depth, 32, comps);
                self.out.push_str("@image_load (@layers, ");
                self.src(32, 3);
                self.out.push_str(") (dest_type=float32)\n");
            }
            10 => {
                self.indent(depth + 1);
                self.out.push_str("@image_store (@texels, ");
                self.src(32, 1);
                self.out.push_str(", ");
                self.src(32, 4);
                self.out.push_str(") (src_type=int32)\n");
            }
            11 => {
                self.def(depth, 64, 1);
                self.out.push_str("@image_atomic (@wide, ");
                self.src(32, 2);
                self.out.push_str(", ");
                self.src(64, 1);
                self.out.push_str(") (atomic_op=iadd)\n");
            }
            12 => {
                let (img, comps) = self.rng.pick(&[("src", 2), ("volume", 3), ("layers", 3)]);
                self.def(depth, 32, comps);
                writeln!(self.out, "@image_size (@{img})").unwrap();
            }
            _ => {
                let slot = self.rng.below(5);
                let comps = [2u8, 3, 4, 3, 2][slot];
                self.def(depth, 32, comps);
                writeln!(self.out, "@image_load_param (@dst) (base={slot})").unwrap();
            }
        }
    }

    fn message(&mut self, depth: usize) {
        let flat = "lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64";
        match self.rng.below(6) {
            0 => {
                self.def(depth, 32, 4);
                self.out.push_str("@lsc_load (");
                self.src(64, 1);
                writeln!(self.out, ") ({flat}, lsc_data=d32x4, lsc_cache=uc.wb)").unwrap();
            }
            1 => {
                self.indent(depth + 1);
                self.out.push_str("@lsc_store (");
                self.src(64, 1);
                self.out.push_str(", ");
                self.src(32, 2);
                writeln!(self.out, ") ({flat}, lsc_data=d32x2, lsc_offset=64)").unwrap();
            }
            2 => {
                self.def(depth, 32, 4);
                self.out.push_str("@lsc_load_quad (@counters, ");
                for i in 0..4 {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.src(32, 1);
                }
                self.out.push_str(
                    ") (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw) if ",
                );
                self.src(1, 1);
                self.out.push('\n');
            }
            3 => {
                self.def(depth, 32, 4);
                self.out.push_str("@sampler_ld_lz (@src, ");
                for i in 0..3 {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.src(32, 1);
                }
                self.out.push_str(") (channels=rgba, dest_type=float32)\n");
            }
            4 => {
                self.def(depth, 32, 1);
                self.out.push_str("@load_push_constant (");
                self.src(32, 1);
                self.out.push_str(") (base=0, range=64)\n");
            }
            _ => {
                self.def(depth, 32, 3);
                self.out.push_str("@load_workgroup_id\n");
            }
        }
    }

    /// A 1-bit scalar source.
    fn cond(&mut self) {
        self.src(1, 1);
    }

    /// `if`/`else` with a phi at the merge block; returns the merge block.
    fn if_node(&mut self, depth: usize, level: u32) -> u32 {
        self.indent(depth);
        self.out.push_str("if ");
        self.cond();
        self.out.push_str(" {\n");
        let outer = self.scope();
        let then_first = self.block();
        self.label(then_first, depth + 1);
        let then_last = self.list(depth + 1, level + 1, then_first);
        // The value the phi takes from the then side: the newest 32-bit value.
        let a = *self.pools[3].last().expect("32-bit values exist");
        self.restore(outer);
        self.indent(depth);
        self.out.push_str("} else {\n");
        let else_first = self.block();
        self.label(else_first, depth + 1);
        let else_last = self.list(depth + 1, level + 1, else_first);
        let b = match self.pools[3]
            .iter()
            .rev()
            .take(32)
            .find(|v| v.comps == a.comps)
        {
            Some(&b) => b.id,
            None => self.constant(depth + 1, 32, a.comps),
        };
        self.restore(outer);
        self.indent(depth);
        self.out.push_str("}\n");
        let merge = self.block();
        self.label(merge, depth);
        self.def(depth, 32, a.comps);
        writeln!(self.out, "phi b{then_last}: %{}, b{else_last}: %{b}", a.id).unwrap();
        merge
    }

    /// A counted loop: a header phi, a `break` when the count reaches a limit, a body,
    /// maybe `continue`s, and the increment in the last block. Returns the block after
    /// the loop.
    fn loop_node(&mut self, depth: usize, level: u32, pre: u32) -> u32 {
        // The ids the header phi names are reserved now: the latch block and its
        // increment, and one `continue` block with its own increment.
        let lp = Loop {
            counter: self.value(),
            latch: self.block(),
            next: self.value(),
            cont_block: self.block(),
            cont_next: self.value(),
        };
        let init = self.pools[3]
            .iter()
            .rev()
            .find(|v| v.comps == 1)
            .map(|v| v.id);
        let init = match init {
            Some(v) => v,
            None => self.constant(depth, 32, 1),
        };
        let outer = self.scope();
        self.indent(depth);
        self.out.push_str("loop {\n");
        let header = self.block();
        self.label(header, depth + 1);
        self.def_id(depth + 1, lp.counter, 32, 1);
        // The `continue` block is only written sometimes; the phi names it only then.
        let with_continue = self.rng.chance(1, 2);
        write!(self.out, "phi b{pre}: %{init}, b{}: %{}", lp.latch, lp.next).unwrap();
        if with_continue {
            write!(self.out, ", b{}: %{}", lp.cont_block, lp.cont_next).unwrap();
        }
        self.out.push('\n');
        let limit = self.def(depth + 1, 1, 1);
        write!(self.out, "uge %{}, ", lp.counter).unwrap();
        self.src(32, 1);
        self.out.push('\n');
        self.indent(depth + 1);
        writeln!(self.out, "if %{limit} {{").unwrap();
        let brk = self.block();
        self.label(brk, depth + 2);
        self.indent(depth + 3);
        self.out.push_str("break\n");
        self.indent(depth + 1);
        self.out.push_str("} else {\n");
        let e = self.block();
        self.label(e, depth + 2);
        self.indent(depth + 1);
        self.out.push_str("}\n");
        let body = self.block();
        self.label(body, depth + 1);
        self.list(depth + 1, level + 1, body);
        // The body ends with an `if` so that the latch gets the reserved label: its then
        // side is the reserved `continue` block, or a few plain instructions.
        self.latch_if(depth + 1, &lp, with_continue);
        // The latch block: the increment.
        self.label(lp.latch, depth + 1);
        self.def_id(depth + 1, lp.next, 32, 1);
        write!(self.out, "iadd %{}, ", lp.counter).unwrap();
        self.src(32, 1);
        self.out.push('\n');
        self.indent(depth);
        self.out.push_str("}\n");
        self.restore(outer);
        // The block after the loop is only reached from the header's `break`, so the
        // header's values dominate it.
        self.pools[3].push(Avail {
            id: lp.counter,
            comps: 1,
        });
        let exit = self.block();
        self.label(exit, depth);
        exit
    }

    /// `if c { <then> } else { block: }` with nothing after it: the caller labels the
    /// next block (the loop's latch). With `with_continue`, the then side is the reserved
    /// `continue` block, which increments the counter by its own step.
    fn latch_if(&mut self, depth: usize, lp: &Loop, with_continue: bool) {
        let outer = self.scope();
        self.indent(depth);
        self.out.push_str("if ");
        self.cond();
        self.out.push_str(" {\n");
        if with_continue {
            self.label(lp.cont_block, depth + 1);
            self.def_id(depth + 1, lp.cont_next, 32, 1);
            write!(self.out, "iadd %{}, ", lp.counter).unwrap();
            self.src(32, 1);
            self.out.push('\n');
            self.indent(depth + 2);
            self.out.push_str("continue\n");
        } else {
            let b = self.block();
            self.label(b, depth + 1);
            let n = 1 + self.rng.below(4);
            self.straight(depth + 1, n);
        }
        self.restore(outer);
        self.indent(depth);
        self.out.push_str("} else {\n");
        let e = self.block();
        self.label(e, depth + 1);
        self.indent(depth);
        self.out.push_str("}\n");
    }
}

/// The ids a loop reserves before its body is written.
struct Loop {
    counter: u32,
    latch: u32,
    next: u32,
    cont_block: u32,
    cont_next: u32,
}
