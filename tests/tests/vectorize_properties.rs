//! The storage-buffer, workgroup-memory and global-memory vectorizer (`opt-load-store-vectorize`,
//! which the lowering runs) and the dead-write elimination (`opt-dead-write`, in the
//! lowering's optimization loop; stores of the same bytes meet here often) over random
//! sequences of loads, stores and atomics of two buffers, workgroup memory and global
//! memory through a pointer in the push constants (results to a third buffer): every
//! shader,
//! lowered for DG2 and SKL, does what the original does, as the verifier checks it
//! (every access and every byte of every buffer afterwards).
//!
//! Each invocation works on its own 64 bytes of each buffer (no races), at offsets
//! written as `base + constant` (negative ones wrap modulo 2^32), `base - constant +
//! constant` and `(index + k) << 2`, so that adjacent accesses arise in every form the pass
//! reads, three in four accesses of one buffer so that groups meet; loads are
//! `restrict` or unqualified, and `readonly` only on a buffer the shader never writes.
//! Every loaded value reaches memory. (The executor gives each binding its own memory,
//! so the rule that two bindings may name one buffer is not tested here.) With 4,000
//! programs the suite finds each of the review's bugs (merges that cross, ranges not
//! compared modulo 2^32) when it is put back, in under 2,300 programs.
//!
//! Fixed seed and count (4,000 programs, a few seconds); `QC_TESTS` scales the count,
//! `QC_SEED` moves the seed:
//!
//! ```text
//! QC_TESTS=100000 cargo test --release -p suites --test vectorize_properties
//! ```

use lowering::{Device, LowerOptions};
use std::fmt::Write;

fn cases() -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000)
}

fn seed() -> u64 {
    std::env::var("QC_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0b1e_c7a1_2024)
}

/// A xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The data of a store: a component of the last value loaded, or the invocation's id.
fn stored_data(rng: &mut Rng, loaded: &[(u32, u8)]) -> String {
    match loaded.last() {
        Some(&(v, 2)) if rng.below(2) == 0 => format!("%{v}.y"),
        Some(&(v, _)) if rng.below(2) == 0 => format!("%{v}.x"),
        _ => "%0.x".to_string(),
    }
}

/// One access of a storage buffer or global memory, whose operations `ops` (load,
/// store, atomic) take `operands` (the block and offset, or the address): a load of
/// one component (two where `pairs` allows), qualified at random (`readonly` only if
/// nothing writes the memory), three times in eight; a store three times in eight and
/// an atomic once where the memory is `written`. A load or atomic defines `%v`.
#[allow(clippy::too_many_arguments)]
fn buffer_statement(
    rng: &mut Rng,
    body: &mut String,
    loaded: &mut Vec<(u32, u8)>,
    v: u32,
    written: bool,
    pairs: bool,
    [load, store, atomic]: [&str; 3],
    operands: &str,
) {
    match rng.below(8) {
        0..=3 => {
            let comps = if pairs && rng.below(4) == 0 { 2 } else { 1 };
            let access = match rng.below(3) {
                0 => "restrict",
                1 if !written => "readonly",
                _ => "none",
            };
            let ty = if comps == 2 { "32x2" } else { "32  " };
            let _ = writeln!(
                body,
                "    {ty} %{v} = @{load} ({operands}) (access={access}, align_mul=4)"
            );
            loaded.push((v, comps));
        }
        4..=6 if written => {
            let data = stored_data(rng, loaded);
            let _ = writeln!(
                body,
                "    @{store} ({data}, {operands}) (access=none, align_mul=4)"
            );
        }
        7 if written => {
            let _ = writeln!(
                body,
                "    32   %{v} = @{atomic} ({operands}, %0.x) (access=none, atomic_op=iadd)"
            );
            loaded.push((v, 1));
        }
        _ => {}
    }
}

/// A random program of `rng`: its text.
fn program(rng: &mut Rng) -> String {
    let mut body = String::new();
    let mut next = 20u32;
    let mut fresh = || {
        next += 1;
        next
    };
    // Which of @a and @b the program stores to (@out always): a buffer never written
    // may be read `readonly`.
    let written = [rng.below(4) != 0, rng.below(4) != 0, rng.below(4) != 0];
    let mut loaded: Vec<(u32, u8)> = Vec::new();
    let statements = 8 + rng.below(24);
    for _ in 0..statements {
        // @a three times in six, @b once, workgroup memory once (the invocation's own
        // 64 bytes of it too, its offset source plus a `base` of 0 or 4), global memory
        // once (the invocation's 64 bytes of the push constant's allocation).
        let target = rng.below(6);
        let block = u32::from(target == 0);
        let shared = target == 4;
        if target == 5 {
            let dword = rng.below(6) as i64 - 3;
            // The address: the invocation's base plus a 64-bit constant, added once
            // or as a difference of two.
            let addr = fresh();
            if rng.below(2) == 0 {
                let k = fresh();
                let _ = writeln!(body, "    64   %{k} = load_const (0x{:016x})", 4 * dword);
                let _ = writeln!(body, "    64   %{addr} = iadd %16, %{k}");
            } else {
                let (k1, k2, t) = (fresh(), fresh(), fresh());
                let minus = 4 * (1 + rng.below(8) as i64);
                let _ = writeln!(body, "    64   %{k1} = load_const (0x{:016x})", -minus);
                let _ = writeln!(body, "    64   %{t} = iadd %16, %{k1}");
                let _ = writeln!(
                    body,
                    "    64   %{k2} = load_const (0x{:016x})",
                    4 * dword + minus
                );
                let _ = writeln!(body, "    64   %{addr} = iadd %{t}, %{k2}");
            }
            let v = fresh();
            let ops = ["load_global", "store_global", "global_atomic"];
            let operands = format!("%{addr}");
            buffer_statement(
                rng,
                &mut body,
                &mut loaded,
                v,
                written[2],
                true,
                ops,
                &operands,
            );
            continue;
        }
        let base = if shared && rng.below(2) == 0 { 4 } else { 0 };
        // Dwords -3 to 2 from the base, 32 bytes into the invocation's 64: a negative
        // one wraps modulo 2^32 in the constant the pass reads.
        let dword = rng.below(6) as i32 - 3 - base / 4;
        // The offset: base + 4 dword, in one of three forms.
        let off = fresh();
        match rng.below(3) {
            0 => {
                let k = fresh();
                let _ = writeln!(body, "    32   %{k} = load_const (0x{:08x})", 4 * dword);
                let _ = writeln!(body, "    32   %{off} = iadd %2, %{k}");
            }
            1 => {
                let (k1, k2, t) = (fresh(), fresh(), fresh());
                let minus = 4 * (1 + rng.below(8) as u32);
                let _ = writeln!(
                    body,
                    "    32   %{k1} = load_const (0x{:08x})",
                    0u32.wrapping_sub(minus)
                );
                let _ = writeln!(body, "    32   %{t} = iadd %2, %{k1}");
                let _ = writeln!(
                    body,
                    "    32   %{k2} = load_const (0x{:08x})",
                    (4 * dword).wrapping_add(minus as i32)
                );
                let _ = writeln!(body, "    32   %{off} = iadd %{t}, %{k2}");
            }
            _ => {
                let (k, t) = (fresh(), fresh());
                let _ = writeln!(body, "    32   %{k} = load_const (0x{:08x})", dword + 8);
                let _ = writeln!(body, "    32   %{t} = iadd %3, %{k}");
                let _ = writeln!(body, "    32   %{off} = ishl %{t}, %4");
            }
        }
        if shared {
            match rng.below(8) {
                0..=3 => {
                    let comps = if rng.below(4) == 0 { 2 } else { 1 };
                    let v = fresh();
                    let ty = if comps == 2 { "32x2" } else { "32  " };
                    let _ = writeln!(
                        body,
                        "    {ty} %{v} = @load_shared (%{off}) (base={base}, align_mul=4)"
                    );
                    loaded.push((v, comps));
                }
                4..=6 => {
                    let data = stored_data(rng, &loaded);
                    let _ = writeln!(
                        body,
                        "    @store_shared ({data}, %{off}) (base={base}, align_mul=4)"
                    );
                }
                _ => {
                    let v = fresh();
                    let _ = writeln!(
                        body,
                        "    32   %{v} = @shared_atomic (%{off}, %0.x) (base={base}, atomic_op=iadd)"
                    );
                    loaded.push((v, 1));
                }
            }
            continue;
        }
        let v = fresh();
        let ops = ["load_ssbo", "store_ssbo", "ssbo_atomic"];
        let operands = format!("%{}, %{off}", block + 5);
        let block_written = written[block as usize];
        buffer_statement(
            rng,
            &mut body,
            &mut loaded,
            v,
            block_written,
            dword < 5,
            ops,
            &operands,
        );
    }
    // Every loaded value to @out, at the invocation's own 64 bytes.
    let mut dword = 0u32;
    for (v, comps) in loaded {
        for c in 0..comps {
            if dword >= 16 {
                break;
            }
            let (k, off) = (fresh(), fresh());
            let _ = writeln!(body, "    32   %{k} = load_const (0x{:08x})", 4 * dword);
            let _ = writeln!(body, "    32   %{off} = iadd %12, %{k}");
            let comp = ["x", "y"][c as usize];
            let _ = writeln!(
                body,
                "    @store_ssbo (%{v}.{comp}, %7, %{off}) (access=none, align_mul=4)"
            );
            dword += 1;
        }
    }
    format!(
        "shader compute (local_size=16,1,1)
buffer @a : ssbo (block=0, size=1024)
buffer @b : ssbo (block=1, size=1024)
buffer @out : ssbo (block=2, size=1024)
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000006)
    32   %12 = ishl %0.x, %1
    32   %13 = load_const (0x00000020)
    32   %2 = ior %12, %13
    32   %9 = load_const (0x00000004)
    32   %3 = ishl %0.x, %9
    32   %4 = load_const (0x00000002)
    32   %5 = load_const (0x00000000)
    32   %6 = load_const (0x00000001)
    32   %7 = load_const (0x00000002)
    64   %14 = @load_push_constant (%5) (base=0, range=8)
    64   %15 = u2u64 %2
    64   %16 = iadd %14, %15
{body}}}
"
    )
}

#[test]
fn vectorized_programs_do_what_the_originals_do() {
    let mut rng = Rng(seed() | 1);
    let devices = [Device::preset("dg2"), Device::preset("skl")].map(|d| d.expect("preset"));
    let mut merged = 0u64;
    for case in 0..cases() {
        let text = program(&mut rng);

        let shader = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
        for device in &devices {
            let setup = verify::setup::Setup::default_for(&shader, device, case)
                .unwrap_or_else(|e| panic!("setup: {e}\n{text}"));
            let r = verify::verifier::lower_and_verify(
                &shader,
                device,
                &LowerOptions::default(),
                &setup,
            )
            .unwrap_or_else(|e| panic!("case {case} on {}: {e}\n{text}", device.name));
            assert!(r.passed(), "case {case} on {}:\n{r}\n{text}", device.name);
        }
        let mut vectorized = shader.clone();
        if ir::passes::Pass::run(&mut ir::passes::LoadStoreVectorize, &mut vectorized)
            .unwrap_or(false)
        {
            merged += 1;
        }
    }
    // The generator is meant to give the pass work: most programs merge something.
    assert!(
        merged * 2 >= cases(),
        "only {merged} of {} programs had accesses to merge",
        cases()
    );
}
