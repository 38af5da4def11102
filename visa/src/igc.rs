//! Running IGC's vISA finalizer, `GenX_IR` (Debian package `libigc-tools`), on a kernel:
//! the judge of syntax and legality.
//!
//! `GenX_IR k.visaasm -platform DG2 -output -timestats` writes `k.asm`, the Gen assembly, where
//! every message's `send` carries `desc:` and `ex_desc:` in its comment; on a rejection
//! it exits 1 and writes the reasons to `k.errors.txt`. Each run gets a fresh directory
//! (GenX_IR writes next to its input and leaves old error files behind). Many kernels
//! run on a pool of threads ([`compile_many`]).

mod exits;

pub use exits::ThreadExits;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The environment variable that names the `GenX_IR` executable (default: `GenX_IR`
/// on `PATH`).
pub const GENX_IR_ENV: &str = "VISA_GENX_IR";

/// One message of the compiled kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendDesc {
    /// The assembly line.
    pub line: String,
    /// The message descriptor.
    pub desc: u32,
    /// The extended message descriptor.
    pub ex_desc: u32,
}

/// What `GenX_IR` made of an accepted kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The Gen assembly (`.asm`).
    pub asm: String,
    /// The sends of the listing, in order: the kernel's messages, and any payload
    /// loads GenX_IR adds at entry (as the `bti[255]` loads of cross-thread inputs
    /// seen on PVC); before DG2 every `send` (fences and barriers too). A message's
    /// line ends in `// $N`, the vISA instruction it came from.
    pub sends: Vec<SendDesc>,
    /// The bytes of scratch space per thread the finalizer's spills use ("Spill memory
    /// used"), when it spilled ([`compile_spilling`]); `None` when it did not. They
    /// start at the kernel's `SpillMemOffset`, after its own scratch
    /// ([`crate::Abi::scratch_bytes`]), which they do not count.
    pub spill_bytes: Option<u32>,
    /// The registers of a thread it was compiled for (`-TotalGRFNum`; 128 unless the
    /// kernel asked for PVC's 256-register mode with `//.kernel_attr NumGRF=256`).
    pub registers: u32,
    /// The finalizer's own time for the kernel: the `Total` line of the `jit_time.txt`
    /// that `-timestats` makes it write (`None` if it wrote none).
    pub finalize: Option<Duration>,
    /// The wall time of the `GenX_IR` process that compiled the kernel (start-up and
    /// file handling included).
    pub process: Duration,
}

/// Why a kernel did not compile.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckError {
    /// No `GenX_IR` executable.
    ToolMissing {
        /// The executable looked for.
        tool: String,
    },
    /// The platform has no `GenX_IR` name (Xe2 postdates GenX_IR 1.0.12504).
    NoPlatform {
        /// The platform.
        platform: String,
    },
    /// `GenX_IR` rejected the kernel: its `errors.txt` (or its output).
    Rejected {
        /// The exit status.
        status: i32,
        /// What it said.
        errors: String,
    },
    /// `GenX_IR` crashed on the kernel (it was killed by a signal, a segmentation fault
    /// as a rule): a construct of the kernel that the finalizer mishandles, which the
    /// emitter must avoid. Nothing retries it.
    Crashed {
        /// The signal, where the platform reports one.
        signal: Option<i32>,
        /// What it printed before.
        output: String,
    },
    /// `GenX_IR` had to spill registers to memory ("Spill memory used = N bytes"),
    /// which it reports as a failure: the kernel's values do not fit the registers of
    /// its width, which the emitter's pressure check must have seen.
    Spilled {
        /// The bytes of spill memory.
        bytes: u32,
    },
    /// `GenX_IR` compiled the kernel, but a path of its threads would not end: it
    /// reaches a subroutine `ret` (what a kernel without its entry `.function` compiles
    /// to) or runs past the last instruction instead of an end-of-thread send
    /// ([`ThreadExits`]). On hardware such a dispatch hangs.
    NoEndOfThread {
        /// What the listing has instead.
        reason: String,
    },
    /// `GenX_IR` compiled the kernel into an instruction that its own disassembler
    /// cannot read (`<<error formatting instruction at PC 0x108>>`, "INVALID opcode
    /// add3"): an instruction the platform does not have, which the hardware would not
    /// run either.
    InvalidInstruction {
        /// The listing's lines about it.
        lines: String,
    },
    /// Reading or writing the work files failed.
    Io(std::io::Error),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::ToolMissing { tool } => write!(
                f,
                "IGC's vISA finalizer `{tool}` was not found (Debian package libigc-tools)"
            ),
            CheckError::NoPlatform { platform } => write!(
                f,
                "GenX_IR 1.0.12504 knows no platform for {platform}; its kernel is emitted but cannot be checked"
            ),
            CheckError::Rejected { status, errors } => {
                write!(f, "GenX_IR rejected the kernel (exit status {status}):\n{errors}")
            }
            CheckError::Crashed { signal, output } => {
                match signal {
                    Some(s) => write!(f, "GenX_IR crashed on the kernel (signal {s})")?,
                    None => write!(f, "GenX_IR crashed on the kernel (killed by a signal)")?,
                }
                write!(f, ":\n{output}")
            }
            CheckError::Spilled { bytes } => write!(
                f,
                "GenX_IR spilled {bytes} bytes of registers to memory: the kernel's values do not fit a thread's registers"
            ),
            CheckError::NoEndOfThread { reason } => write!(
                f,
                "GenX_IR compiled the kernel, but its threads never end: {reason}"
            ),
            CheckError::InvalidInstruction { lines } => write!(
                f,
                "GenX_IR encoded an instruction the platform does not have:\n{lines}"
            ),
            CheckError::Io(e) => write!(f, "GenX_IR work files: {e}"),
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for CheckError {
    fn from(e: std::io::Error) -> CheckError {
        CheckError::Io(e)
    }
}

/// The `GenX_IR` executable to run.
pub fn tool() -> String {
    std::env::var(GENX_IR_ENV).unwrap_or_else(|_| "GenX_IR".to_string())
}

/// The path of the `GenX_IR` executable, if there is one.
pub fn find_tool() -> Option<PathBuf> {
    let t = tool();
    let p = Path::new(&t);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(&t))
        .find(|c| c.is_file())
}

/// The options IGC passes its finalizer for `platform` (a GenX_IR `-platform` name)
/// that a kernel of ours needs too: hardware workarounds and the float mode and
/// register-0 contract of the kernel, as IGC's own kernels for the production stepping
/// record them (`//.full_options` in `ocloc`'s dumps, `visa/igc-reference/skeleton/`;
/// `visa/IGC-SKELETON.md` says what each does and which of IGC's options are left out
/// and why). [`compile`] passes them, and a driver that finalizes our kernels passes
/// them as IGC does (`visa/ABI.md`). The fences before the end of thread come from here:
/// `-waClearHDCWrite` on TGL (Wa_1807084924: an HDC fence with commit when the kernel
/// writes memory) and `-waLscUgmFence` on DG2 (Wa_22013689345: a UGM fence when it
/// writes global memory without write-back caching or runs an atomic without a return).
/// Before Gfx12.5, `-enableStructurizer` has the finalizer turn `goto`s that form an
/// `if`/`else` or a loop into the hardware's `if`/`else`/`endif` and `while` (one
/// instruction each where a `goto` over an `else` costs a flag write, the `goto` and a
/// `join`), as IGC asks there; on DG2 and later IGC keeps `goto`/`join`.
pub fn finalizer_options(platform: &str) -> &'static [&'static str] {
    match platform {
        "BDW" => &["-hasRNEandDenorm", "-boundsChecking", "-enableStructurizer"],
        "SKL" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-enablePreemption",
            "-enableStructurizer",
        ],
        "ICLLP" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-enablePreemption",
            "-noSendSrcDstOverlap",
            "-enableStructurizer",
        ],
        "TGLLP" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-enablePreemption",
            "-enableStructurizer",
            "-noMaskWA",
            "-noScalarJmp",
            "-waClearHDCWrite",
        ],
        "DG2" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-enablePreemption",
            "-enableHalfLSC",
            "-waLscUgmFence",
        ],
        // ocloc 22.43 has no MTL: the options follow IGC's source (`Platform.hpp`:
        // preemption, half-size LSC messages, no send source/destination overlap; the
        // UGM fence workaround only before stepping B0).
        "MTL" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-enablePreemption",
            "-enableHalfLSC",
            "-noSendSrcDstOverlap",
        ],
        "PVC" => &[
            "-hasRNEandDenorm",
            "-boundsChecking",
            "-preserver0",
            "-enableHalfLSC",
            "-hasInt64Add",
            "-partialInt64",
        ],
        _ => &[],
    }
}

static RUN: AtomicU64 = AtomicU64::new(0);

/// A fresh work directory.
fn work_dir() -> std::io::Result<PathBuf> {
    let n = RUN.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let d = std::env::temp_dir().join(format!("visa-genx-{}-{n}-{t}", std::process::id()));
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

/// Compiles `text` with `GenX_IR -platform <platform> -output -timestats` and the
/// platform's [`finalizer_options`], and checks the listing: every instruction readable
/// ([`check_encoding`]), every path ending its thread ([`check_end_of_thread`]).
///
/// A kernel that asks for PVC's 256-register mode (`//.kernel_attr NumGRF=256`,
/// [`crate::NUM_GRF_COMMENT`]: the attribute of later vISA versions, commented out
/// because GenX_IR 1.0.12504 mishandles it) is compiled with `-TotalGRFNum 256`, as
/// IGC passes it.
///
/// Nothing is retried: a crash of the finalizer is [`CheckError::Crashed`] and a spill
/// [`CheckError::Spilled`], each a failure of the kernel to be fixed in the emitter.
pub fn compile(text: &str, platform: &str) -> Result<Compiled, CheckError> {
    compile_with(text, platform, false)
}

/// [`compile`], taking a kernel the finalizer spills: GenX_IR still writes the
/// listing, with the spill and fill messages to the thread's scratch space, and exits
/// with status 1 ("Spill memory used = N bytes"); the result has
/// [`Compiled::spill_bytes`]. For the kernels [`crate::emit_kernel`] emits with a
/// [`crate::Kernel::spill_estimate`], as a driver takes IGC's spilling kernels and
/// gives their threads the scratch space they ask for.
pub fn compile_spilling(text: &str, platform: &str) -> Result<Compiled, CheckError> {
    compile_with(text, platform, true)
}

fn compile_with(text: &str, platform: &str, spills: bool) -> Result<Compiled, CheckError> {
    let exe = find_tool().ok_or_else(|| CheckError::ToolMissing { tool: tool() })?;
    let dir = work_dir()?;
    let r = compile_in(&exe, &dir, text, platform, num_grf(text), spills);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// The register count a kernel's text asks for ([`crate::NUM_GRF_COMMENT`]), if any.
pub fn num_grf(text: &str) -> Option<u32> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(crate::NUM_GRF_COMMENT))
        .and_then(|n| n.trim().parse().ok())
}

fn compile_in(
    exe: &Path,
    dir: &Path,
    text: &str,
    platform: &str,
    registers: Option<u32>,
    spills: bool,
) -> Result<Compiled, CheckError> {
    let input = dir.join("k.visaasm");
    std::fs::write(&input, text)?;
    let mut cmd = Command::new(exe);
    cmd.arg("k.visaasm")
        .arg("-platform")
        .arg(platform)
        .arg("-output")
        .arg("-timestats")
        .args(finalizer_options(platform))
        .current_dir(dir);
    if let Some(n) = registers {
        cmd.arg("-TotalGRFNum").arg(n.to_string());
    }
    let started = Instant::now();
    let out = cmd.output()?;
    let process = started.elapsed();
    let errors = std::fs::read_to_string(dir.join("k.errors.txt")).unwrap_or_default();
    let mut spill_bytes_used = None;
    if !out.status.success() {
        let output = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let Some(status) = out.status.code() else {
            return Err(CheckError::Crashed {
                signal: signal_of(&out.status),
                output,
            });
        };
        match spill_bytes(&output) {
            Some(bytes) if spills && dir.join("k.asm").exists() => spill_bytes_used = Some(bytes),
            Some(bytes) => return Err(CheckError::Spilled { bytes }),
            None => {
                let errors = if errors.trim().is_empty() {
                    output
                } else {
                    errors
                };
                return Err(CheckError::Rejected { status, errors });
            }
        }
    }
    let asm = std::fs::read_to_string(dir.join("k.asm"))?;
    check_encoding(&asm)?;
    check_end_of_thread(&asm)?;
    // Before DG2 the listing writes sends with their descriptors as operands.
    let sends = if matches!(platform, "BDW" | "CHV" | "SKL" | "BXT" | "ICLLP" | "TGLLP") {
        parse_raw_sends(&asm)
    } else {
        parse_sends(&asm)
    };
    let finalize = std::fs::read_to_string(dir.join("jit_time.txt"))
        .ok()
        .and_then(|t| total_seconds(&t))
        .map(Duration::from_secs_f64);
    Ok(Compiled {
        asm,
        sends,
        spill_bytes: spill_bytes_used,
        registers: registers.unwrap_or(128),
        finalize,
        process,
    })
}

/// Checks that the listing has no instruction GenX_IR's disassembler cannot read
/// (`<<error formatting instruction at PC ...>>`, followed by the reason, such as
/// "INVALID opcode add3").
pub fn check_encoding(asm: &str) -> Result<(), CheckError> {
    let mut lines = asm.lines();
    let mut bad = Vec::new();
    while let Some(l) = lines.next() {
        if l.contains("<<error formatting instruction") {
            bad.push(l.trim().to_string());
            if let Some(why) = lines.next() {
                bad.push(why.trim().to_string());
            }
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CheckError::InvalidInstruction {
            lines: bad.join("\n"),
        })
    }
}

/// Checks that every way out of a compiled kernel ends the thread: every path from the
/// entry of the listing ends in an unpredicated end-of-thread send (`send.gtwy ...
/// {EOT}`, or `{EOT,...}` with other SWSB tokens), none in a subroutine `ret` or past
/// the last instruction ([`ThreadExits`]). A kernel with no way out (a loop without a
/// break, whose exit GenX_IR deletes as unreachable) needs no end-of-thread send.
pub fn check_end_of_thread(asm: &str) -> Result<(), CheckError> {
    let exits = ThreadExits::of(asm);
    if exits.open.is_empty() {
        return Ok(());
    }
    let mut reason = exits.open.join("; ");
    if exits.end_of_thread.is_empty() {
        reason = format!("no end-of-thread send; {reason}");
    }
    Err(CheckError::NoEndOfThread { reason })
}

/// The signal that ended a process, where the platform says.
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal()
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// The bytes of GenX_IR's spill report (`Spill memory used = 5824 bytes for kernel
/// main`), if its output has one.
pub fn spill_bytes(output: &str) -> Option<u32> {
    let at = output.find("Spill memory used = ")?;
    output[at + 20..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
}

/// The seconds of the `Total` line of a `jit_time.txt` (`Total <tab> 0.0428 <tab> 100%`).
fn total_seconds(jit_time: &str) -> Option<f64> {
    jit_time.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        (f.next() == Some("Total"))
            .then(|| f.next().and_then(|s| s.parse::<f64>().ok()))
            .flatten()
            .filter(|s| s.is_finite() && *s >= 0.0)
    })
}

/// The messages of an assembly listing: lines whose comment has `desc:`.
pub fn parse_sends(asm: &str) -> Vec<SendDesc> {
    let hex = |s: &str| -> Option<u32> {
        let digits: String = s
            .trim_start_matches("0x")
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    asm.lines()
        .filter_map(|l| {
            let ex = l.find("ex_desc:")?;
            let ex_desc = hex(&l[ex + 8..])?;
            let rest = &l[ex + 8..];
            let d = rest.find(" desc:")?;
            let desc = hex(&rest[d + 6..])?;
            Some(SendDesc {
                line: l.trim().to_string(),
                desc,
                ex_desc,
            })
        })
        .collect()
}

/// The raw `send` instructions of an assembly listing (Gfx8 to Gfx12.0: `send`,
/// `sends`, `send.dc1`, ...), whose extended descriptor and descriptor are the last two
/// hexadecimal operands (`send (8|M0) r7 r24:f 0xC 0x06295C05 // ...`,
/// `send.dc1 (8|M0) r7 r1 r23 0x40 0x02215C05 {@2,$0} // ...`).
pub fn parse_raw_sends(asm: &str) -> Vec<SendDesc> {
    asm.lines()
        .filter_map(|l| {
            let code = l.split("//").next()?.split('{').next()?;
            let mut tokens = code.split_whitespace().peekable();
            // An optional predicate or `(W)`.
            if tokens.peek().is_some_and(|t| t.starts_with('(')) {
                tokens.next();
            }
            let op = tokens.next()?;
            if !(op == "send"
                || op == "sends"
                || op.starts_with("send.")
                || op.starts_with("sends."))
            {
                return None;
            }
            let hex: Vec<u32> = tokens
                .filter_map(|t| t.strip_prefix("0x"))
                .filter_map(|t| u32::from_str_radix(t, 16).ok())
                .collect();
            let [.., ex_desc, desc] = hex[..] else {
                return None;
            };
            Some(SendDesc {
                line: l.trim().to_string(),
                desc,
                ex_desc,
            })
        })
        .collect()
}

/// Compiles many kernels (text, platform) on `threads` threads; results in input order.
pub fn compile_many(
    jobs: Vec<(String, String)>,
    threads: usize,
) -> Vec<Result<Compiled, CheckError>> {
    let n = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>()));
    let results = Arc::new(Mutex::new((0..n).map(|_| None).collect::<Vec<_>>()));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            let results = Arc::clone(&results);
            s.spawn(move || loop {
                let job = queue.lock().map(|mut q| q.pop()).unwrap_or(None);
                let Some((k, (text, platform))) = job else {
                    break;
                };
                let r = compile(&text, &platform);
                if let Ok(mut res) = results.lock() {
                    res[k] = Some(r);
                }
            });
        }
    });
    let results = Arc::try_unwrap(results)
        .map(|m| m.into_inner().unwrap_or_default())
        .unwrap_or_default();
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(CheckError::Io(std::io::Error::other(
                    "a worker thread stopped before compiling this kernel",
                )))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_are_parsed_from_comments() {
        let asm = "\
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x021842FD           {A@1,$0} // wr:1h+0, rd:1; oword aligned block read x2 // $19
        store.slm.d32.a32 (16|M0)  [r7:2]       r7:2               {A@1,$2} // ex_desc:0x0; desc:0x4000504 // $11
        load_quad.tgm.d32.xyzw.a32 (8|M8)  r13:4 bti[3][r8:1]      {$4} // ex_desc:0x3000000; desc:0x6240F502 // $10
";
        let s = parse_sends(asm);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].desc, s[0].ex_desc), (0x0400_0504, 0));
        assert_eq!((s[1].desc, s[1].ex_desc), (0x6240_F502, 0x0300_0000));
    }

    #[test]
    fn raw_sends_are_parsed_from_operands() {
        let asm = "\
        send.dc1 (8|M0)          r7       r1      r23     0x40            0x02215C05           {@2,$0} // wr:1+1, rd:2; typed surface read with xy; u // $4
        sends (8|M0)             null:ud  r0      r4      0x10C            0x04035005           // wr:2+4, rd:0; hdc.dc1; typed surface write with xyzw; u,v // $6
(W)     send (8|M0)              r74      r0:f    0xA            0x0219E000           // wr:1h+0, rd:1; hdc.dc0; synchronized global fence flushing // $21
        mov (8|M0)               r3.0<1>:ud    0x10:ud
        store.slm.d32.a32 (16|M0)  [r7:2]       r7:2               {A@1,$2} // ex_desc:0x0; desc:0x4000504 // $11
";
        let s = parse_raw_sends(asm);
        let got: Vec<(u32, u32)> = s.iter().map(|s| (s.ex_desc, s.desc)).collect();
        assert_eq!(
            got,
            [
                (0x40, 0x0221_5C05),
                (0x10C, 0x0403_5005),
                (0xA, 0x0219_E000)
            ]
        );
    }

    #[test]
    fn threads_end_with_an_eot_send_and_no_return() {
        // GenX_IR 1.0.12504's listings of one kernel with and without its entry
        // `.function`: TGL (the `send.ts` form), DG2, and the subroutine return.
        let tgl = "(W)     send.ts (8|M0)           null     r127    null    0x0            0x02000010           {EOT} // wr:1+0, rd:0; end of thread // $111\n";
        let dg2 = "        store_quad.tgm.d32.x.a32 (8|M8)  bti[1][r110:2] r93:2      {$9} // ex_desc:0x1000000; desc:0x64001506 // $78
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $79
L1160:
        nop                                                                                          // $79
";
        let ret = "//.declare %retval (23)  rf=r size=0 type=ud align=16 words (r26.0) Output
        ret (16|M0)                          r0.2                             {A@1}                  // $78
";
        assert!(check_end_of_thread(tgl).is_ok());
        assert!(check_end_of_thread(dg2).is_ok());
        let e = check_end_of_thread(ret).unwrap_err();
        assert!(
            e.to_string().contains("subroutine return `ret (16|M0)"),
            "{e}"
        );
        // One path ends the thread, the other returns.
        let e = check_end_of_thread(&format!("(f0.0)  jmpi L1\n{dg2}L1:\n{ret}")).unwrap_err();
        assert!(matches!(e, CheckError::NoEndOfThread { .. }), "{e}");
        assert!(!e.to_string().contains("no end-of-thread send"), "{e}");
        // A loop without a way out.
        let endless = "loop1_head:
        store_quad.tgm.d32.x.a32 (8|M0)  bti[0][r4:1] r6:6         {A@1,$3} // ex_desc:0x0; desc:0x62001506 // $10
(W)     jmpi                                 loop1_head                                              // $13
";
        assert!(check_end_of_thread(endless).is_ok());
        let leaves = endless.replace("(W)     jmpi", "(f0.0)  jmpi");
        assert!(check_end_of_thread(&leaves).is_err());
        let none = check_end_of_thread("        nop\n").unwrap_err();
        assert!(none.to_string().contains("no end-of-thread send"), "{none}");
    }

    #[test]
    fn an_instruction_the_disassembler_cannot_read_is_an_error() {
        // GenX_IR 1.0.12504's listing of a TGLLP kernel with an `add3`.
        let asm = "(W)     jmpi                                 loop1_head                                              // $27
L264:
<<error formatting instruction at PC 0x108>>
 // $1DINVALID opcode add3
";
        let e = check_encoding(asm).unwrap_err();
        assert!(e.to_string().contains("INVALID opcode add3"), "{e}");
        assert!(check_encoding("        nop\n").is_ok());
    }

    #[test]
    fn spill_reports_and_register_modes_are_read() {
        // GenX_IR 1.0.12504's output for a DG2 kernel of 150 live SIMD16 values.
        let out = "[vISA Finalizer Messages]\nSpill memory used = 5824 bytes for kernel main\n Compiling kernel with spill code may degrade performance.\n";
        assert_eq!(spill_bytes(out), Some(5824));
        assert_eq!(
            spill_bytes("GenX_IR k.visaasm -platform DG2 -output\n"),
            None
        );
        let text = ".kernel_attr SimdSize=16\n//.kernel_attr NumGRF=256\n.function \"_main_0\"\n";
        assert_eq!(num_grf(text), Some(256));
        assert_eq!(num_grf(".kernel_attr SimdSize=16\n"), None);
    }

    #[test]
    fn finalize_time_is_the_total_line() {
        let t = "Total                   \t0.0428627   \t100%\nIR_Build                \t0.00102868  \t2.4%\n";
        assert_eq!(total_seconds(t), Some(0.0428627));
        assert_eq!(total_seconds("IR_Build 0.1 2%"), None);
    }
}
