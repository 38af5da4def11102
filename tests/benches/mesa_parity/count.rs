//! What each compiler's output says: anv's `INTEL_DEBUG=cs` report and the Gen assembly
//! that GenX_IR and IGC write (`.asm`), counted the same way.
//!
//! brw (`src/intel/compiler/brw_fs_generator.cpp`, `fs_generator::generate_code`)
//! reports `SIMD16 shader: N instructions`, N being every native instruction it emitted
//! for the shader (`before_size / 16`, before compaction: sync NOPs and the EOT send
//! included). anv gets its thread payload (local ids, push constants) from the hardware,
//! so brw's code has no payload loads. GenX_IR's kernels start with a
//! `per_thread_prolog` that reads the per-thread and cross-thread payload from memory
//! (oword block reads through `r127`, and NOPs, none tagged with a vISA instruction);
//! that prolog is counted apart, and the comparison uses the rest, the shader's own
//! code, counted as brw counts. NOPs padding the program behind its last instruction
//! are not counted (IGC's kernels end with one).

/// One compiled kernel, as a compiler reported it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Lanes per thread.
    pub simd: u32,
    /// Native instructions of the shader's code (the payload prolog excluded).
    pub instructions: u32,
    /// Instructions of the payload prolog (0 for anv).
    pub prolog: u32,
    /// `send`s of the shader's code.
    pub sends: u32,
    /// Spills and fills (anv), or the spill size in bytes (GenX_IR), 0 when none.
    pub spills: u32,
}

impl Stats {
    /// Instructions per lane: what one invocation costs in issued instructions.
    pub fn per_lane(&self) -> f64 {
        f64::from(self.instructions) / f64::from(self.simd.max(1))
    }
}

/// Parses anv's report (`INTEL_DEBUG=cs` on stderr). With a fixed workgroup size brw
/// keeps, and prints, only the SIMD width it selected; should there be several, the
/// last is taken.
pub fn parse_anv(stderr: &str) -> Option<Stats> {
    let mut found = None;
    for line in stderr.lines() {
        let Some(rest) = line.trim().strip_prefix("SIMD") else {
            continue;
        };
        let Some((simd, rest)) = rest.split_once(" shader: ") else {
            continue;
        };
        let num = |s: &str| s.trim().parse::<u32>().ok();
        let instructions = rest.split(" instructions").next().and_then(num);
        let spills = rest
            .split(" cycles. ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|sf| sf.split_once(':'))
            .and_then(|(s, f)| Some(num(s)? + num(f)?));
        let sends = rest
            .split(" spills:fills, ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(num);
        if let (Some(simd), Some(instructions), Some(spills), Some(sends)) =
            (num(simd), instructions, spills, sends)
        {
            found = Some(Stats {
                simd,
                instructions,
                prolog: 0,
                sends,
                spills,
            });
        }
    }
    found
}

/// Whether an `.asm` line is an instruction (not a comment, label or blank).
fn is_instruction(line: &str) -> bool {
    let t = line.trim();
    !(t.is_empty() || t.starts_with("//") || t.ends_with(':') || t.starts_with('.'))
}

/// Whether an instruction of the `per_thread_prolog` section belongs to the payload
/// prolog: a send that reads through `r127`, the prolog's address register, or an
/// instruction without a vISA instruction tag (`// $N`), which GenX_IR and IGC add to
/// every instruction of the kernel's own code.
fn is_prolog(line: &str) -> bool {
    let t = line.trim();
    let fields: Vec<&str> = t
        .strip_prefix("(W)")
        .unwrap_or(t)
        .split_whitespace()
        .collect();
    if fields.first().is_some_and(|op| op.starts_with("send")) && fields.get(3) == Some(&"r127") {
        return true;
    }
    let comment = t.split_once("//").map_or("", |(_, c)| c);
    !comment.split_whitespace().any(|w| {
        w.trim_end_matches(';')
            .strip_prefix('$')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    })
}

/// Counts a GenX_IR or IGC `.asm` (see the module docs); `simd` from the kernel.
pub fn parse_asm(asm: &str, simd: u32) -> Stats {
    let mut s = Stats {
        simd,
        ..Stats::default()
    };
    let mut in_prolog = false;
    let mut code: Vec<&str> = Vec::new();
    for line in asm.lines() {
        let t = line.trim();
        if t.ends_with(':') && !t.starts_with("//") {
            in_prolog = t.contains("prolog");
            continue;
        }
        if let Some(v) = t.strip_prefix("//.spill size") {
            s.spills = v.trim().parse().unwrap_or(0);
        }
        if !is_instruction(line) {
            continue;
        }
        if in_prolog && is_prolog(line) {
            s.prolog += 1;
            continue;
        }
        in_prolog = false;
        code.push(t);
    }
    // NOPs after the last instruction (padding behind the end of thread) never run.
    while code
        .last()
        .is_some_and(|t| t.split_whitespace().next() == Some("nop"))
    {
        code.pop();
    }
    for t in code {
        s.instructions += 1;
        let word = t
            .split_whitespace()
            .find(|w| !w.starts_with('('))
            .unwrap_or("");
        // Legacy data-port sends print as `send`/`sends`; LSC ones by their operation
        // and shared function (`load.ugm`, `store_quad.tgm`, `atomic_iadd.slm`, ...).
        let lsc = [".ugm", ".ugml", ".tgm", ".slm", ".urb"]
            .iter()
            .any(|sfid| word.contains(sfid));
        if word.starts_with("send") || lsc {
            s.sends += 1;
        }
    }
    s
}
