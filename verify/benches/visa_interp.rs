//! Speed of the vISA interpreter, in vISA instructions executed per second.
//!
//! ```text
//! cargo bench -p verify --bench visa_interp                  # 2,000 threads per kernel
//! cargo bench -p verify --bench visa_interp -- --threads 200 --runs 5
//! ```
//!
//! Three kernels in the shapes the vISA back end emits:
//!
//! * `address` (SIMD16, 32-byte registers as on DG2): straight-line integer address
//!   math (shifts, masks, `bfe`/`bfi`, multiplies, `add3`), a bounds check with `cmp`
//!   and `sel`, a float `mad` and conversions, repeated in a uniform `jmp` loop;
//! * `divergent` (SIMD32 as two SIMD16 halves, 64-byte registers as on PVC): a loop
//!   whose trip count differs per channel (backward `goto`), an `if`/`else` inside it
//!   (forward `goto`s), 64-bit adds;
//! * `wide` (SIMD32, one instruction per 32 channels, 64-byte registers).
//!
//! For each kernel: the time to read and resolve its text (lines per second), then the
//! best of `--runs` runs of `--threads` threads, each from a fresh register file: the
//! instructions executed, their rate, and the rate of channel operations (the enabled
//! channels of each ALU instruction). Times are thread CPU time where the platform has
//! it, else wall time.

use cpu_time::ThreadTime;
use std::fmt::Write;
use std::time::{Duration, Instant};
use verify::visa::program::Program;
use verify::visa::reader::read;
use verify::visa::run::{NoMemory, RunConfig, Stop, Thread, ThreadInit};

fn die(msg: &str) -> ! {
    eprintln!("visa_interp: {msg}");
    std::process::exit(1)
}

struct Options {
    threads: u32,
    runs: u32,
}

fn options() -> Options {
    let mut o = Options {
        threads: 2000,
        runs: 3,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> u32 {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|v| *v > 0)
                .unwrap_or_else(|| die(&format!("{name} takes a positive whole number")))
        };
        match a.as_str() {
            "--bench" => {}
            "--threads" => o.threads = num("--threads"),
            "--runs" => o.runs = num("--runs"),
            other => die(&format!("unknown option `{other}` (--threads N, --runs R)")),
        }
    }
    o
}

fn header(simd: u32, decls: &str) -> String {
    format!(".version 4.1\n.kernel \"bench\"\n{decls}\n.kernel_attr SimdSize={simd}\n.function \"main\"\nmain:\n")
}

/// Integer address math and a float conversion in a uniform loop (SIMD16, DG2).
fn address_kernel() -> String {
    let decls = ".decl LID v_type=G type=uw num_elts=16\n\
        .decl X v_type=G type=ud num_elts=16\n.decl Y v_type=G type=ud num_elts=16\n\
        .decl T v_type=G type=ud num_elts=16\n.decl U v_type=G type=ud num_elts=16\n\
        .decl A v_type=G type=ud num_elts=16\n.decl Q v_type=G type=uq num_elts=16\n\
        .decl F v_type=G type=f num_elts=16\n.decl FI v_type=G type=f num_elts=16 alias=<U, 0>\n\
        .decl K v_type=G type=ud num_elts=1\n\
        .decl P1 v_type=P num_elts=16\n.decl P2 v_type=P num_elts=16\n\
        .input LID offset=32 size=32";
    let mut s = header(16, decls);
    s.push_str(
        "    mov (M1_NM, 1) K(0,0)<1> 0:ud\n\
         LOOP:\n\
         \x20   add (M1, 16) X(0,0)<1> LID(0,0)<1;1,0> %group_id_x(0,0)<0;1,0>\n\
         \x20   shl (M1, 16) Y(0,0)<1> %group_id_y(0,0)<0;1,0> 3:ud\n\
         \x20   and (M1, 16) T(0,0)<1> X(0,0)<1;1,0> 0x7f:ud\n\
         \x20   shr (M1, 16) U(0,0)<1> X(0,0)<1;1,0> 7:ud\n\
         \x20   bfe (M1, 16) A(0,0)<1> 3:ud 4:ud Y(0,0)<1;1,0>\n\
         \x20   bfi (M1, 16) A(0,0)<1> 3:ud 4:ud T(0,0)<1;1,0> A(0,0)<1;1,0>\n\
         \x20   mul (M1, 16) U(0,0)<1> U(0,0)<1;1,0> 4096:ud\n\
         \x20   add3 (M1, 16) A(0,0)<1> A(0,0)<1;1,0> U(0,0)<1;1,0> T(0,0)<1;1,0>\n\
         \x20   xor (M1, 16) T(0,0)<1> A(0,0)<1;1,0> Y(0,0)<1;1,0>\n\
         \x20   cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 1000:ud\n\
         \x20   (P1) sel (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0:ud\n\
         \x20   mul (M1, 16) Q(0,0)<1> A(0,0)<1;1,0> 4:ud\n\
         \x20   add (M1, 16) Q(0,0)<1> Q(0,0)<1;1,0> 0x100000000:uq\n\
         \x20   mov (M1, 16) F(0,0)<1> T(0,0)<1;1,0>\n\
         \x20   mad (M1, 16) F(0,0)<1> F(0,0)<1;1,0> 0.00392156:f 0.5:f\n\
         \x20   mov.sat (M1, 16) FI(0,0)<1> F(0,0)<1;1,0>\n\
         \x20   add (M1_NM, 1) K(0,0)<1> K(0,0)<0;1,0> 1:ud\n\
         \x20   cmp.lt (M1_NM, 16) P2 K(0,0)<0;1,0> 64:ud\n\
         \x20   (P2) jmp (M1, 1) LOOP\n\
         \x20   ret (M1, 1)\n",
    );
    s
}

/// A per-channel loop with an if/else inside (SIMD32 halves, PVC).
fn divergent_kernel() -> String {
    let decls = ".decl LID v_type=G type=uw num_elts=32\n\
        .decl N v_type=G type=ud num_elts=32\n.decl I v_type=G type=ud num_elts=32\n\
        .decl S v_type=G type=ud num_elts=32\n.decl Q v_type=G type=uq num_elts=32\n\
        .decl P1 v_type=P num_elts=32\n.decl P2 v_type=P num_elts=32\n\
        .input LID offset=64 size=64";
    let mut s = header(32, decls);
    s.push_str(
        "    and (M1, 16) N(0,0)<1> LID(0,0)<1;1,0> 0x1f:ud\n\
         \x20   and (M5, 16) N(1,0)<1> LID(0,16)<1;1,0> 0x1f:ud\n\
         \x20   add (M1, 16) N(0,0)<1> N(0,0)<1;1,0> 16:ud\n\
         \x20   add (M5, 16) N(1,0)<1> N(1,0)<1;1,0> 16:ud\n\
         \x20   mov (M1, 16) I(0,0)<1> 0:ud\n\
         \x20   mov (M5, 16) I(1,0)<1> 0:ud\n\
         \x20   mov (M1, 16) S(0,0)<1> 0:ud\n\
         \x20   mov (M5, 16) S(1,0)<1> 0:ud\n\
         LOOP:\n\
         \x20   and (M1, 16) P1 I(0,0)<1;1,0> 1:ud\n\
         \x20   cmp.eq (M1_NM, 16) P1 I(0,0)<1;1,0> N(0,0)<1;1,0>\n\
         \x20   cmp.eq (M5_NM, 16) P1 I(1,0)<1;1,0> N(1,0)<1;1,0>\n\
         \x20   (P1) goto (M1, 32) END\n\
         \x20   and (M1, 16) S(0,0)<1> I(0,0)<1;1,0> 3:ud\n\
         \x20   and (M5, 16) S(1,0)<1> I(1,0)<1;1,0> 3:ud\n\
         \x20   cmp.eq (M1_NM, 16) P2 S(0,0)<1;1,0> 0:ud\n\
         \x20   cmp.eq (M5_NM, 16) P2 S(1,0)<1;1,0> 0:ud\n\
         \x20   (!P2) goto (M1, 32) ELSE\n\
         \x20   add (M1, 16) Q(0,0)<1> Q(0,0)<1;1,0> I(0,0)<1;1,0>\n\
         \x20   add (M5, 16) Q(2,0)<1> Q(2,0)<1;1,0> I(1,0)<1;1,0>\n\
         \x20   goto (M1, 32) ENDIF\n\
         ELSE:\n\
         \x20   shl (M1, 16) S(0,0)<1> I(0,0)<1;1,0> 2:ud\n\
         \x20   shl (M5, 16) S(1,0)<1> I(1,0)<1;1,0> 2:ud\n\
         ENDIF:\n\
         \x20   add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 1:ud\n\
         \x20   add (M5, 16) I(1,0)<1> I(1,0)<1;1,0> 1:ud\n\
         \x20   goto (M1, 32) LOOP\n\
         END:\n\
         \x20   ret (M1, 1)\n",
    );
    s.replace(
        "    and (M1, 16) P1 I(0,0)<1;1,0> 1:ud\n",
        "    mov (M1, 16) Q(0,0)<1> 0:uq\n",
    )
}

/// Straight-line SIMD32 instructions on 64-byte registers.
fn wide_kernel() -> String {
    let decls = ".decl LID v_type=G type=uw num_elts=32\n\
        .decl A v_type=G type=ud num_elts=32\n.decl B v_type=G type=ud num_elts=32\n\
        .decl F v_type=G type=f num_elts=32\n.decl P1 v_type=P num_elts=32\n\
        .input LID offset=64 size=64";
    let mut s = header(32, decls);
    let mut body = String::new();
    for i in 0..50 {
        let _ = writeln!(
            body,
            "    add (M1, 32) A(0,0)<1> LID(0,0)<1;1,0> {i}:ud\n\
             \x20   shl (M1, 32) B(0,0)<1> A(0,0)<1;1,0> 2:ud\n\
             \x20   or (M1, 32) B(0,0)<1> B(0,0)<1;1,0> A(0,0)<1;1,0>\n\
             \x20   mov (M1, 32) F(0,0)<1> B(0,0)<1;1,0>\n\
             \x20   mul (M1, 32) F(0,0)<1> F(0,0)<1;1,0> 0.5:f\n\
             \x20   cmp.gt (M1, 32) P1 F(0,0)<1;1,0> 100.0:f\n\
             \x20   (P1) mov (M1, 32) A(0,0)<1> F(0,0)<1;1,0>"
        );
    }
    s.push_str(&body);
    s.push_str("    ret (M1, 1)\n");
    s
}

fn main() {
    let o = options();
    let kernels: [(&str, String, u32); 3] = [
        ("address (SIMD16, DG2)", address_kernel(), 32),
        ("divergent (SIMD32, PVC)", divergent_kernel(), 64),
        ("wide (SIMD32, PVC)", wide_kernel(), 64),
    ];
    let cpu = ThreadTime::try_now().is_ok();
    println!(
        "{:<26} {:>10} {:>11} {:>13} {:>12} {:>14} {:>16}",
        "kernel",
        "lines",
        "read/s",
        "instructions",
        if cpu { "best cpu" } else { "best wall" },
        "instructions/s",
        "channel-insts/s"
    );
    let config = RunConfig::default();
    for (name, text, grf) in &kernels {
        let lines = text.lines().count();
        let t0 = Instant::now();
        let reps = 200;
        let mut program = None;
        for _ in 0..reps {
            let listing = read(text).unwrap_or_else(|e| die(&format!("{name}: {e}")));
            program = Some(
                Program::new(&listing, *grf, 1 << 20)
                    .unwrap_or_else(|e| die(&format!("{name}: {e}"))),
            );
        }
        let read_secs = t0.elapsed().as_secs_f64() / f64::from(reps);
        let program = program.unwrap_or_else(|| die("no program"));
        let simd = program.simd.unwrap_or(16);
        let mask = if simd >= 32 {
            u32::MAX
        } else {
            (1 << simd) - 1
        };
        let (mut best, mut executed, mut channel_insts) = (Duration::MAX, 0u64, 0u64);
        for _ in 0..o.runs {
            let (t, c0) = (Instant::now(), ThreadTime::try_now());
            let (mut total, mut channels) = (0u64, 0u64);
            for tid in 0..o.threads {
                let mut payload = vec![0u8; 256];
                payload[4..8].copy_from_slice(&tid.to_le_bytes());
                payload[24..28].copy_from_slice(&(tid / 7).to_le_bytes());
                for lane in 0..32u16 {
                    let at = *grf as usize + 2 * lane as usize;
                    payload[at..at + 2].copy_from_slice(&(lane + tid as u16).to_le_bytes());
                }
                let init = ThreadInit {
                    payload: &payload,
                    dispatch_mask: mask,
                    hw_id: tid,
                };
                let mut th = Thread::new(&program, &init, &config)
                    .unwrap_or_else(|e| die(&format!("{name}: {e}")));
                match th.run(&program, &mut NoMemory, &config) {
                    Ok(Stop::Done) => {}
                    Ok(Stop::Barrier) => die("unexpected barrier"),
                    Err(e) => die(&format!("{name}: {e}")),
                }
                total += th.executed();
                channels += th.channels_executed();
            }
            let wall = t.elapsed();
            let time = c0.and_then(|c| c.try_elapsed()).unwrap_or(wall);
            if time < best {
                best = time;
            }
            (executed, channel_insts) = (total, channels);
        }
        let secs = best.as_secs_f64();
        println!(
            "{:<26} {:>10} {:>11.0} {:>13} {:>10.2}ms {:>14.0} {:>16.0}",
            name,
            lines,
            lines as f64 / read_secs,
            executed,
            secs * 1e3,
            executed as f64 / secs,
            channel_insts as f64 / secs,
        );
    }
}
