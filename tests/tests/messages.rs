//! Message intrinsics with the hardware's semantics, against expectations computed by
//! hand from the vISA pseudo-code
//! (`intel-graphics-compiler/documentation/visa/instructions/LSC_UNTYPED.md`,
//! `intel-graphics-compiler/documentation/visa/instructions/LSC_TYPED.md`,
//! `intel-graphics-compiler/documentation/visa/instructions/3D_LOAD.md`) and
//! `docs/hardware/lsc-messages.md`.

use ir::{Shader, Value};
use std::collections::HashMap;
use verify::exec::{ExecConfig, ExecError, Executor, RunResult};
use verify::memory::{AccessKind, AllocId, Memory, Space};

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

fn config(lanes: u32) -> ExecConfig {
    ExecConfig {
        subgroup_size: lanes,
        ..ExecConfig::default()
    }
}

/// A global buffer of 32-bit words `words`, whose base address is passed as the 64-bit
/// push constant at offset 0.
fn global_words(mem: &mut Memory, words: &[u32]) -> (AllocId, u64) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let id = mem.alloc("buf", bytes);
    let base = mem.allocation(id).base;
    mem.set_push_constants(base.to_le_bytes().to_vec());
    (id, base)
}

fn words(mem: &Memory, id: AllocId) -> Vec<u32> {
    mem.allocation(id)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// What a run recorded, with the values the text names `%N` by `N`.
struct Recorded {
    run: RunResult,
    by_number: HashMap<u32, Value>,
}

impl std::ops::Deref for Recorded {
    type Target = RunResult;
    fn deref(&self) -> &RunResult {
        &self.run
    }
}

fn value(r: &Recorded, v: u32, inv: usize) -> Vec<u64> {
    r.values[&r.by_number[&v]][inv]
        .clone()
        .unwrap_or_else(|| panic!("%{v} undefined in invocation {inv}"))
}

const PRELUDE: &str = "
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    64   %3 = u2u64 %0.x
";

/// Runs `text` on one workgroup of subgroups of `lanes`, recording the values the text
/// names `%N` for each `N` of `record`, after `setup` prepared the memory; returns what
/// `setup` returned too.
fn run<T>(
    text: &str,
    lanes: u32,
    record: &[u32],
    setup: impl FnOnce(&mut Memory) -> T,
) -> (Executor<'static>, Recorded, T) {
    let shader: &'static Shader = Box::leak(Box::new(parse(text)));
    let mut ex = Executor::with_config(shader, config(lanes));
    let prepared = setup(&mut ex.memory);
    let r = run_named(&mut ex, record);
    (ex, r, prepared)
}

/// Runs one workgroup, recording the values `main` names `%N` for each `N` of `record`.
fn run_named(ex: &mut Executor<'_>, record: &[u32]) -> Recorded {
    let main = &ex.shader().functions[0];
    let by_number: HashMap<u32, Value> = record
        .iter()
        .map(|&v| (v, main.value_named(v).unwrap_or_else(|| panic!("no %{v}"))))
        .collect();
    let rec: Vec<Value> = record.iter().map(|v| by_number[v]).collect();
    let run = ex
        .run_recording([1, 1, 1], &rec)
        .unwrap_or_else(|e| panic!("{e}"));
    Recorded { run, by_number }
}

#[test]
fn simt_vector_load_gives_each_lane_its_vector() {
    // Lane n loads d32x4 at base + 16n: words 4n .. 4n+3.
    let text = format!(
        "shader compute (local_size=4,1,1)
fn main {{
  block b0:{PRELUDE}
    64   %4 = load_const (0x0000000000000010)
    64   %5 = imul %3, %4
    64   %6 = iadd %2, %5
    32x4 %7 = @lsc_load (%6) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x4)
    32x4 %8 = @lsc_load (%6) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x4t)
}}"
    );
    let init: Vec<u32> = (0..16).map(|i| 0x100 + i).collect();
    let (_, r, _) = run(&text, 4, &[7, 8], |m| {
        global_words(m, &init);
    });
    for n in 0..4u64 {
        let want: Vec<u64> = (0..4).map(|v| 0x100 + 4 * n + v).collect();
        assert_eq!(value(&r, 7, n as usize), want, "SIMT lane {n}");
        // The transposed (block) form reads the same memory for the lane.
        assert_eq!(value(&r, 8, n as usize), want, "transposed lane {n}");
    }
    // The pseudo-code's order: lane by lane, element by element.
    let loads: Vec<(u32, u64)> = r
        .accesses
        .iter()
        .filter(|a| a.kind == AccessKind::Load && matches!(a.space, Space::Alloc(_)))
        .take(16)
        .map(|a| (a.ctx.lane, a.offset))
        .collect();
    let want: Vec<(u32, u64)> = (0..4u32)
        .flat_map(|n| (0..4u64).map(move |v| (n, 16 * n as u64 + 4 * v)))
        .collect();
    assert_eq!(loads, want);
}

#[test]
fn conversion_data_sizes_zero_extend() {
    // Bytes 0..3 are 80 ff 34 12.
    let text = format!(
        "shader compute (local_size=1,1,1)
fn main {{
  block b0:{PRELUDE}
    64   %4 = load_const (0x0000000000000001)
    64   %5 = load_const (0x0000000000000002)
    64   %6 = iadd %2, %4
    64   %7 = iadd %2, %5
    32   %10 = @lsc_load (%6) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d8u32)
    32   %11 = @lsc_load (%2) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16u32)
    32   %12 = @lsc_load (%7) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16u32h)
    8    %13 = @lsc_load (%2) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d8)
    16   %14 = @lsc_load (%7) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16)
    32   %15 = load_const (0x123456ab)
    32   %16 = load_const (0xcafebabe)
    64   %17 = load_const (0x0000000000000008)
    64   %18 = load_const (0x000000000000000c)
    64   %19 = load_const (0x000000000000000e)
    64   %20 = iadd %2, %17
    64   %21 = iadd %2, %18
    64   %22 = iadd %2, %19
    @lsc_store (%20, %15) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d8u32)
    @lsc_store (%21, %16) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16u32h)
    @lsc_store (%22, %16) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16u32)
}}"
    );
    let (ex, r, buf) = run(&text, 1, &[10, 11, 12, 13, 14], |m| {
        global_words(m, &[0x1234_ff80, 0, 0, 0]).0
    });
    assert_eq!(value(&r, 10, 0), [0x0000_00ff], "d8u32 zero-extends byte 1");
    assert_eq!(
        value(&r, 11, 0),
        [0x0000_ff80],
        "d16u32 zero-extends bytes 0..1"
    );
    assert_eq!(
        value(&r, 12, 0),
        [0x1234_0000],
        "d16u32h fills the high half"
    );
    assert_eq!(value(&r, 13, 0), [0x80]);
    assert_eq!(value(&r, 14, 0), [0x1234]);
    // d8u32 stores the low byte only (bytes 9..11 stay 0); d16u32h stores the high half,
    // d16u32 the low half: bytes 12..15 = fe ca be ba.
    assert_eq!(
        words(&ex.memory, buf),
        [0x1234_ff80, 0, 0x0000_00ab, 0xbabe_cafe]
    );
}

#[test]
fn strided_loads_broadcast_and_custom_pitch() {
    let text = format!(
        "shader compute (local_size=4,1,1)
fn main {{
  block b0:{PRELUDE}
    32   %4 = load_const (0x00000000)
    32   %5 = load_const (0x00000008)
    32   %6 = load_const (0x00000004)
    32   %10 = @lsc_load_strided (%2, %4) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
    32   %11 = @lsc_load_strided (%2, %5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
    32   %12 = @lsc_load_strided (%2, %5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_offset=4)
    32x2 %13 = @lsc_load_strided (%2, %5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x2)
    64   %14 = load_const (0x0000000000000040)
    64   %15 = iadd %2, %14
    32   %16 = load_const (0x00000003)
    32   %17 = imul %0.x, %16
    @lsc_store_strided (%15, %6, %17) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
}}"
    );
    let init: Vec<u32> = (0..20).map(|i| 0x200 + i).collect();
    let (ex, r, buf) = run(&text, 4, &[10, 11, 12, 13], |m| global_words(m, &init).0);
    for n in 0..4u64 {
        // Pitch 0: every lane reads the word at the base.
        assert_eq!(value(&r, 10, n as usize), [0x200], "broadcast, lane {n}");
        // Pitch 8: lane n reads word 2n; with the immediate offset 4, word 2n + 1.
        assert_eq!(
            value(&r, 11, n as usize),
            [0x200 + 2 * n],
            "pitch 8, lane {n}"
        );
        assert_eq!(
            value(&r, 12, n as usize),
            [0x201 + 2 * n],
            "offset 4, lane {n}"
        );
        // A vector per lane: words 2n and 2n + 1.
        assert_eq!(value(&r, 13, n as usize), [0x200 + 2 * n, 0x201 + 2 * n]);
    }
    // The strided store with pitch 4 from word 16 writes 3n to word 16 + n.
    let w = words(&ex.memory, buf);
    assert_eq!(&w[16..20], &[0, 3, 6, 9]);
    assert_eq!(&w[..16], &init[..16]);
}

/// Runs one single-lane untyped atomic on a 32-bit word holding `old`.
fn atomic32(op: &str, old: u32, src1: u32, src2: u32) -> (u32, u32) {
    let n = ir::lsc::LscAtomicOp::from_name(op)
        .unwrap()
        .num_data_operands();
    let operands = ["%2", ", %4", ", %5"][..=n].concat();
    let text = format!(
        "shader compute (local_size=1,1,1)
fn main {{
  block b0:{PRELUDE}
    32   %4 = load_const ({src1:#010x})
    32   %5 = load_const ({src2:#010x})
    32   %6 = @lsc_atomic ({operands}) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op={op})
}}"
    );
    let (ex, r, buf) = run(&text, 1, &[6], |m| global_words(m, &[old]).0);
    let returned = value(&r, 6, 0)[0] as u32;
    (returned, words(&ex.memory, buf)[0])
}

#[test]
fn every_untyped_atomic_sub_op() {
    const NAN: u32 = 0x7fc0_0000;
    const NEG_ZERO: u32 = 0x8000_0000;
    // (op, memory before, src1, src2, memory after); every op returns the old value.
    let cases: &[(&str, u32, u32, u32, u32)] = &[
        ("iinc", 5, 0, 0, 6),
        ("idec", 0, 0, 0, 0xffff_ffff),
        ("load", 7, 0, 0, 7),
        ("store", 7, 9, 0, 9),
        ("iadd", 0xffff_ffff, 2, 0, 1),
        ("isub", 1, 2, 0, 0xffff_ffff),
        ("smin", 5, 0xffff_fffd, 0, 0xffff_fffd),
        ("smax", 0xffff_fffd, 5, 0, 5),
        ("umin", 5, 0xffff_fffd, 0, 5),
        ("umax", 5, 0xffff_fffd, 0, 0xffff_fffd),
        // icas: src1 is the comparand, src2 the new value.
        ("icas", 5, 5, 9, 9),
        ("icas", 5, 4, 9, 5),
        // 1.5 + 2.25 = 3.75; 1.5 - 2.25 = -0.75.
        ("fadd", 0x3fc0_0000, 0x4010_0000, 0, 0x4070_0000),
        ("fsub", 0x3fc0_0000, 0x4010_0000, 0, 0xbf40_0000),
        // min/max ignore a NaN operand, either side, and order -0 below +0.
        ("fmin", 0x4000_0000, NAN, 0, 0x4000_0000),
        ("fmin", NAN, 0x4000_0000, 0, 0x4000_0000),
        ("fmin", 0, NEG_ZERO, 0, NEG_ZERO),
        ("fmax", NEG_ZERO, 0, 0, 0),
        ("fmax", 0x3f80_0000, 0x4040_0000, 0, 0x4040_0000),
        // fcas compares as floats: -0 == +0 succeeds, NaN == NaN fails.
        ("fcas", NEG_ZERO, 0, 0x3f80_0000, 0x3f80_0000),
        ("fcas", NAN, NAN, 0x3f80_0000, NAN),
        ("and", 0xf0f0, 0xff00, 0, 0xf000),
        ("or", 0xf0f0, 0x0f0f, 0, 0xffff),
        ("xor", 0xf0f0, 0xff00, 0, 0x0ff0),
    ];
    for &(op, before, a, b, after) in cases {
        let (ret, mem) = atomic32(op, before, a, b);
        assert_eq!(
            ret, before,
            "{op}({before:#x}, {a:#x}, {b:#x}) returns the old value"
        );
        assert_eq!(
            mem, after,
            "{op}({before:#x}, {a:#x}, {b:#x}) leaves {after:#x}"
        );
    }
}

#[test]
fn atomics_apply_in_ascending_lane_order() {
    let text = format!(
        "shader compute (local_size=4,1,1)
fn main {{
  block b0:{PRELUDE}
    32   %4 = load_const (0x00000001)
    32   %5 = iadd %0.x, %4
    32   %6 = @lsc_atomic (%2, %5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=iadd)
    64   %7 = load_const (0x0000000000000004)
    64   %8 = iadd %2, %7
    32   %9 = load_const (0x00000000)
    32   %10 = @lsc_atomic (%8, %9, %5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=icas)
}}"
    );
    let (ex, r, buf) = run(&text, 4, &[6, 10], |m| global_words(m, &[0, 0]).0);
    // iadd of 1, 2, 3, 4 in lane order: old values 0, 1, 3, 6; 10 in the end.
    let olds: Vec<u64> = (0..4).map(|n| value(&r, 6, n)[0]).collect();
    assert_eq!(olds, [0, 1, 3, 6]);
    // icas(0 -> n + 1): lane 0 wins; the others see 1 and fail.
    let cas: Vec<u64> = (0..4).map(|n| value(&r, 10, n)[0]).collect();
    assert_eq!(cas, [0, 1, 1, 1]);
    assert_eq!(words(&ex.memory, buf), [10, 1]);
}

#[test]
fn sixteen_and_sixty_four_bit_atomics() {
    let text = format!(
        "shader compute (local_size=1,1,1)
fn main {{
  block b0:{PRELUDE}
    64   %4 = load_const (0x0000000000000002)
    64   %5 = iadd %2, %4
    32   %6 = @lsc_atomic (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d16u32, lsc_op=iinc)
    64   %7 = load_const (0x0000000000000008)
    64   %8 = iadd %2, %7
    64   %9 = load_const (0x0000000000000001)
    64   %10 = @lsc_atomic (%8, %9) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d64, lsc_op=iadd)
    64   %11 = load_const (0x00000000ffffffff)
    64   %12 = @lsc_atomic (%8, %11) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d64, lsc_op=umax)
}}"
    );
    let (ex, r, buf) = run(&text, 1, &[6, 10, 12], |m| {
        global_words(m, &[0xffff_2211, 0, 0xffff_ffff, 0]).0
    });
    // d16u32: the halfword at byte 2 wraps from 0xffff to 0; the old value comes back
    // zero-extended; bytes 0..1 are untouched.
    assert_eq!(value(&r, 6, 0), [0x0000_ffff]);
    // d64: 0xffffffff + 1 carries into the high word; umax keeps 2^32.
    assert_eq!(value(&r, 10, 0), [0xffff_ffff]);
    assert_eq!(value(&r, 12, 0), [0x1_0000_0000]);
    assert_eq!(words(&ex.memory, buf), [0x0000_2211, 0, 0, 1]);
}

#[test]
fn address_sizes() {
    // SLM with a16: 0xfffe + 6 wraps to 0x0004 in 16 bits; a32 reads it back, and so
    // does load_shared.
    let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    16   %0 = load_const (0xfffe)
    32   %1 = load_const (0xdeadbeef)
    @lsc_store (%0, %1) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a16, lsc_data=d32, lsc_offset=6)
    32   %2 = load_const (0x00000004)
    32   %3 = @lsc_load (%2) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)
    32   %4 = @load_shared (%2) (base=0, align_mul=4)
}";
    let (_, r, _) = run(text, 1, &[3, 4], |_| {});
    assert_eq!(value(&r, 3, 0), [0xdead_beef]);
    assert_eq!(value(&r, 4, 0), [0xdead_beef]);
    let slm: Vec<_> = r
        .accesses
        .iter()
        .map(|a| (a.kind, a.space, a.offset))
        .collect();
    assert_eq!(
        slm,
        [
            (AccessKind::Store, Space::Shared(0), 4),
            (AccessKind::Load, Space::Shared(0), 4),
            (AccessKind::Load, Space::Shared(0), 4)
        ]
    );

    // A flat a32 address is zero-extended; nothing is mapped below 4 GiB.
    let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00001000)
    32   %1 = @lsc_load (%0) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)
}";
    let shader = parse(text);
    let mut ex = Executor::with_config(&shader, config(1));
    let e = ex.run([1, 1, 1]).unwrap_err();
    assert!(
        e.to_string()
            .contains("at address 0x1000 is outside every allocation"),
        "{e}"
    );
}

#[test]
fn out_of_range_accesses_name_the_instruction_and_lane() {
    // Lane n loads base + 4n from a two-word buffer: lane 2 runs off the end.
    let text = format!(
        "shader compute (local_size=4,1,1)
fn main {{
  block b0:{PRELUDE}
    64   %4 = load_const (0x0000000000000004)
    64   %5 = imul %3, %4
    64   %6 = iadd %2, %5
    32   %7 = @lsc_load (%6) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
}}"
    );
    let shader = parse(&text);
    let mut ex = Executor::with_config(&shader, config(4));
    let (_, base) = global_words(&mut ex.memory, &[1, 2]);
    let e = ex.run([1, 1, 1]).unwrap_err();
    let ExecError::Run { error, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(error.lane, Some(2));
    assert_eq!(error.span, ir::Span::new(12, 5), "the lsc_load line");
    let text = e.to_string();
    assert!(text.contains("`@lsc_load` (lane 2)"), "{text}");
    assert!(
        text.contains(&format!(
            "load of 4 bytes at address {:#x} is outside every allocation",
            base + 8
        )),
        "{text}"
    );
    let mem = error
        .env_error()
        .and_then(|x| x.downcast_ref::<verify::memory::MemoryError>())
        .expect("a memory error");
    assert_eq!(mem.ctx.invocation, 2);

    // Shared memory has its size: a store past it fails too.
    let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x000000fe)
    32   %1 = load_const (0x00000000)
    @lsc_store (%0, %1) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)
}";
    let shader = parse(text);
    let mut ex = Executor::with_config(
        &shader,
        ExecConfig {
            subgroup_size: 1,
            shared_size: 256,
            ..ExecConfig::default()
        },
    );
    let e = ex.run([1, 1, 1]).unwrap_err().to_string();
    assert!(
        e.contains("store of 4 bytes at offset 0xfe is out of range of shared memory (256 bytes)"),
        "{e}"
    );
}

#[test]
fn predicated_off_lanes_do_not_touch_memory() {
    // Lane n stores n to word n if n is even; loads word n if n is odd.
    let text = format!(
        "shader compute (local_size=4,1,1)
fn main {{
  block b0:{PRELUDE}
    64   %4 = load_const (0x0000000000000004)
    64   %5 = imul %3, %4
    64   %6 = iadd %2, %5
    32   %7 = load_const (0x00000001)
    32   %8 = iand %0.x, %7
    1    %9 = ieq %8, %1
    1    %10 = inot %9
    @lsc_store (%6, %0.x) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32) if %9
    32   %11 = @lsc_load (%6) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32) if %10
}}"
    );
    let (ex, r, buf) = run(&text, 4, &[11], |m| {
        global_words(m, &[0xaa, 0xbb, 0xcc, 0xdd]).0
    });
    assert_eq!(words(&ex.memory, buf), [0, 0xbb, 2, 0xdd]);
    // Odd lanes load their word; even lanes are predicated off and read 0.
    let loaded: Vec<u64> = (0..4).map(|n| value(&r, 11, n)[0]).collect();
    assert_eq!(loaded, [0, 0xbb, 0, 0xdd]);
    let touched: Vec<(AccessKind, u32)> = r
        .accesses
        .iter()
        .filter(|a| matches!(a.space, Space::Alloc(_)))
        .map(|a| (a.kind, a.ctx.lane))
        .collect();
    assert_eq!(
        touched,
        [
            (AccessKind::Store, 0),
            (AccessKind::Store, 2),
            (AccessKind::Load, 1),
            (AccessKind::Load, 3)
        ]
    );
}

// ----- typed messages and the sampler ----------------------------------------------------

/// Binds a `w`x`h` (x `layers`) 2D surface of `surface_format` at binding 0, viewed from
/// layer `base_layer`, seen by the shader as `logical` and by the hardware as `state`.
#[allow(clippy::too_many_arguments)]
fn bind_2d(
    mem: &mut Memory,
    binding: u32,
    w: u32,
    h: u32,
    layers: u32,
    base_layer: u32,
    surface_format: tiling::Format,
    logical: ir::Format,
    state: tiling::Format,
) -> AllocId {
    let desc = tiling::SurfaceDesc::new(
        tiling::Gen::Gfx125,
        tiling::SurfDim::D2,
        surface_format,
        tiling::Tiling::Linear,
    )
    .extent(w, h, 1)
    .array_len(layers);
    let surface = tiling::Surface::new(desc).unwrap();
    let view = tiling::ImageView {
        base_level: 0,
        base_layer,
        layer_count: layers - base_layer,
        format: surface_format,
    };
    mem.bind_surface_image(
        binding,
        "img",
        surface,
        view,
        logical,
        state,
        tiling::Bit6Swizzle::None,
    )
    .unwrap()
}

/// [`bind_2d`] of a 4x4 single-layer surface at binding 0, of the same format for the
/// surface and its state.
fn bind_4x4(mem: &mut Memory, format: tiling::Format, logical: ir::Format) -> AllocId {
    bind_2d(mem, 0, 4, 4, 1, 0, format, logical, format)
}

/// The byte offset of texel (x, y, layer) through the layout reference.
fn texel_at(mem: &Memory, binding: u32, x: u32, y: u32, layer: u32) -> usize {
    match &mem.image(binding).unwrap().storage {
        verify::memory::ImageStorage::Surface { surface, .. } => surface
            .texel_offset(x, y, layer, 0, tiling::Bit6Swizzle::None)
            .unwrap() as usize,
        _ => unreachable!(),
    }
}

fn put_texel(
    mem: &mut Memory,
    id: AllocId,
    binding: u32,
    x: u32,
    y: u32,
    layer: u32,
    bytes: &[u8],
) {
    let o = texel_at(mem, binding, x, y, layer);
    mem.allocation_mut(id).bytes[o..o + bytes.len()].copy_from_slice(bytes);
}

fn get_texel(
    mem: &Memory,
    id: AllocId,
    binding: u32,
    x: u32,
    y: u32,
    layer: u32,
    n: usize,
) -> Vec<u8> {
    let o = texel_at(mem, binding, x, y, layer);
    mem.allocation(id).bytes[o..o + n].to_vec()
}

const TGM: &str = "lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32";

#[test]
fn typed_quad_channel_masks() {
    let text = format!(
        "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm (binding=0)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000002)
    32   %3 = load_const (0x00000003)
    32x2 %4 = @lsc_load_quad (@img, %1, %2, %0, %0) ({TGM}, lsc_data=d32.xz)
    32x2 %5 = @lsc_load_quad (@img, %1, %2, %0, %0) ({TGM}, lsc_data=d32.yw)
    32x4 %6 = @lsc_load_quad (@img, %1, %2, %0, %0) ({TGM}, lsc_data=d32.xyzw)
    32   %7 = load_const (0x3f800000)
    32x2 %8 = vec2 %7, %0
    @lsc_store_quad (@img, %2, %3, %0, %0, %8) ({TGM}, lsc_data=d32.xy)
}}"
    );
    let (ex, r, alloc) = run(&text, 1, &[4, 5, 6], |m| {
        let id = bind_4x4(m, tiling::Format::R8G8B8A8_UNORM, ir::Format::Rgba8Unorm);
        put_texel(m, id, 0, 1, 2, 0, &[0x00, 0x80, 0xff, 0x40]);
        put_texel(m, id, 0, 2, 3, 0, &[0x11, 0x22, 0x33, 0x44]);
        id
    });
    // .xz returns R and B packed: 0/255 and 255/255.
    assert_eq!(value(&r, 4, 0), [0, 0x3f80_0000]);
    // .yw returns G and A: 128/255 and 64/255, correctly rounded.
    assert_eq!(value(&r, 5, 0), [0x3f00_8081, 0x3e80_8081]);
    assert_eq!(value(&r, 6, 0), [0, 0x3f00_8081, 0x3f80_0000, 0x3e80_8081]);
    // .xy writes R = 1.0 -> 0xff and G = 0.0 -> 0x00; B and A keep 0x33 and 0x44.
    assert_eq!(
        get_texel(&ex.memory, alloc, 0, 2, 3, 0, 4),
        [0xff, 0x00, 0x33, 0x44]
    );
}

#[test]
fn typed_accesses_out_of_bounds_read_zero_and_drop_writes() {
    let text = format!(
        "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm (binding=0)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000004)
    32   %3 = load_const (0xffffffff)
    32x4 %4 = @lsc_load_quad (@img, %2, %0, %0, %0) ({TGM}, lsc_data=d32.xyzw)
    32x4 %5 = @lsc_load_quad (@img, %3, %0, %0, %0) ({TGM}, lsc_data=d32.xyzw)
    32x4 %6 = @lsc_load_quad (@img, %0, %0, %0, %1) ({TGM}, lsc_data=d32.xyzw)
    32x4 %7 = @lsc_load_quad (@img, %0, %0, %1, %0) ({TGM}, lsc_data=d32.xyzw)
    32x4 %8 = @lsc_load_quad (@img, %0, %0, %0, %0) ({TGM}, lsc_data=d32.xyzw)
    32x4 %9 = vec4 %0, %0, %0, %0
    @lsc_store_quad (@img, %0, %2, %0, %0, %9) ({TGM}, lsc_data=d32.xyzw)
}}"
    );
    let (ex, r, id) = run(&text, 1, &[4, 5, 6, 7, 8], |m| {
        let id = bind_4x4(m, tiling::Format::R8G8B8A8_UNORM, ir::Format::Rgba8Unorm);
        for y in 0..4 {
            for x in 0..4 {
                put_texel(m, id, 0, x, y, 0, &[0xff; 4]);
            }
        }
        id
    });
    // x = 4 (width 4), x = -1, lod 1 (a one-level view), layer 1 (one layer): all 0.
    for v in [4, 5, 6, 7] {
        assert_eq!(value(&r, v, 0), [0, 0, 0, 0], "%{v}");
    }
    assert_eq!(value(&r, 8, 0), [0x3f80_0000; 4], "in bounds");
    // The store at y = 4 is dropped: every byte is still 0xff.
    assert!(ex
        .memory
        .allocation(id)
        .bytes
        .iter()
        .take(16)
        .all(|&b| b == 0xff));
    let discarded: Vec<(AccessKind, bool)> =
        r.accesses.iter().map(|a| (a.kind, a.in_bounds)).collect();
    assert_eq!(
        discarded,
        [
            (AccessKind::Load, false),
            (AccessKind::Load, false),
            (AccessKind::Load, false),
            (AccessKind::Load, false),
            (AccessKind::Load, true),
            (AccessKind::Store, false)
        ]
    );
}

#[test]
fn surface_state_format_converts_and_views_select_layers() {
    // An rgba8_unorm image bound with the lowered R32_UINT surface-state format: typed
    // loads return the packed texel. The view starts at layer 1 of a 2-layer surface.
    let text = format!(
        "shader compute (local_size=1,1,1)
image @img : 2d array rgba8_unorm (binding=0)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @lsc_load_quad (@img, %0, %0, %0, %0) ({TGM}, lsc_data=d32.x)
    32x4 %2 = @image_load (@img, %0.xxx) (dest_type=float32)
    32   %3 = load_const (0xa1b2c3d4)
    32   %4 = load_const (0x00000001)
    @lsc_store_quad (@img, %4, %0, %0, %0, %3) ({TGM}, lsc_data=d32.x)
}}"
    );
    let (ex, r, id) = run(&text, 1, &[1, 2], |m| {
        let id = bind_2d(
            m,
            0,
            2,
            2,
            2,
            1,
            tiling::Format::R8G8B8A8_UNORM,
            ir::Format::Rgba8Unorm,
            tiling::Format::R32_UINT,
        );
        put_texel(m, id, 0, 0, 0, 0, &[0xde, 0xad, 0xbe, 0xef]);
        put_texel(m, id, 0, 0, 0, 1, &[0x00, 0x80, 0xff, 0x40]);
        id
    });
    // Layer 0 of the view is physical layer 1.
    assert_eq!(value(&r, 1, 0), [0x40ff_8000]);
    // The reference decodes the same texel as rgba8_unorm.
    assert_eq!(value(&r, 2, 0), [0, 0x3f00_8081, 0x3f80_0000, 0x3e80_8081]);
    // The raw store lands in physical layer 1 at x = 1, unconverted.
    assert_eq!(
        get_texel(&ex.memory, id, 0, 1, 0, 1, 4),
        0xa1b2_c3d4u32.to_le_bytes()
    );
    assert_eq!(
        get_texel(&ex.memory, id, 0, 0, 0, 0, 4),
        [0xde, 0xad, 0xbe, 0xef]
    );
}

#[test]
fn typed_atomics_act_on_the_texel() {
    let text = format!(
        "shader compute (local_size=2,1,1)
image @img : 2d r32_uint (binding=0)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000003)
    32   %3 = @lsc_atomic (@img, %1, %1, %0, %0, %2) ({TGM}, lsc_data=d32, lsc_op=iadd)
    32   %4 = load_const (0x00000008)
    32   %5 = load_const (0x00000063)
    32   %6 = @lsc_atomic (@img, %1, %1, %0, %0, %4, %5) ({TGM}, lsc_data=d32, lsc_op=icas)
    32   %7 = load_const (0x00000007)
    32   %8 = @lsc_atomic (@img, %7, %1, %0, %0) ({TGM}, lsc_data=d32, lsc_op=iinc)
}}"
    );
    let (ex, r, alloc) = run(&text, 2, &[3, 6, 8], |m| {
        let id = bind_4x4(m, tiling::Format::R32_UINT, ir::Format::R32Uint);
        put_texel(m, id, 0, 1, 1, 0, &5u32.to_le_bytes());
        id
    });
    // Two lanes add 3 each: 5 -> 8 -> 11; the icas(8 -> 99) of both lanes then fails.
    assert_eq!([value(&r, 3, 0)[0], value(&r, 3, 1)[0]], [5, 8]);
    assert_eq!([value(&r, 6, 0)[0], value(&r, 6, 1)[0]], [11, 11]);
    // x = 7 is outside the 4-wide image: dropped, returns 0.
    assert_eq!([value(&r, 8, 0)[0], value(&r, 8, 1)[0]], [0, 0]);
    assert_eq!(
        get_texel(&ex.memory, alloc, 0, 1, 1, 0, 4),
        11u32.to_le_bytes()
    );
}

#[test]
fn sampler_ld_returns_enabled_channels() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm readonly (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000002)
    32   %3 = load_const (0x00000004)
    32x2 %4 = @sampler_ld (@img, %1, %2, %0, %0) (channels=rb, dest_type=float32)
    32x4 %5 = @sampler_ld_lz (@img, %1, %2, %0) (channels=rgba, dest_type=float32)
    32x4 %6 = @sampler_ld_lz (@img, %3, %2, %0) (channels=rgba, dest_type=float32)
    32x4 %7 = @sampler_ld (@img, %1, %2, %1, %0) (channels=rgba, dest_type=float32)
    16   %8 = @sampler_ld_lz (@img, %1, %2, %0) (channels=g, dest_type=float16)
}";
    let (_, r, _) = run(text, 1, &[4, 5, 6, 7, 8], |m| {
        let id = bind_4x4(m, tiling::Format::R8G8B8A8_UNORM, ir::Format::Rgba8Unorm);
        put_texel(m, id, 0, 1, 2, 0, &[0x00, 0x80, 0xff, 0x40]);
    });
    // channels=rb: R and B packed.
    assert_eq!(value(&r, 4, 0), [0, 0x3f80_0000]);
    assert_eq!(value(&r, 5, 0), [0, 0x3f00_8081, 0x3f80_0000, 0x3e80_8081]);
    // u = 4 is outside the 4-wide surface, lod 1 outside the one-level view: 0.
    assert_eq!(value(&r, 6, 0), [0; 4]);
    assert_eq!(value(&r, 7, 0), [0; 4]);
    // 128/255 as binary16: 0.50196 -> mantissa 1028/1024 -> 0x3804.
    assert_eq!(value(&r, 8, 0), [0x3804]);
}

#[test]
fn untyped_bti_addresses_the_surface_bytes() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm (binding=0)
fn main {
  block b0:
    32   %1 = load_const (0x00000000)
    32   %0 = @load_push_constant (%1) (base=0, range=4)
    32   %2 = @lsc_load (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32)
}";
    let shader = parse(text);
    let mut ex = Executor::with_config(&shader, config(1));
    let id = bind_4x4(
        &mut ex.memory,
        tiling::Format::R8G8B8A8_UNORM,
        ir::Format::Rgba8Unorm,
    );
    put_texel(&mut ex.memory, id, 0, 3, 1, 0, &[1, 2, 3, 4]);
    let off = texel_at(&ex.memory, 0, 3, 1, 0) as u32;
    ex.memory.set_push_constants(off.to_le_bytes().to_vec());
    let r = run_named(&mut ex, &[2]);
    assert_eq!(value(&r, 2, 0), [0x0403_0201]);
    // Past the end of the surface's bytes: an error, not a bounds-checked read.
    let size = ex.memory.allocation(id).bytes.len() as u32;
    ex.memory.set_push_constants(size.to_le_bytes().to_vec());
    let e = ex.run([1, 1, 1]).unwrap_err().to_string();
    assert!(e.contains("is out of range of img"), "{e}");
}

#[test]
fn both_levels_share_the_tiled_surface() {
    // Each invocation stores x * 1000 + y at (x, y) through the reference, reads it back
    // with a typed message, and stores a typed value at (x + 8, y) that the reference
    // reads back. The surface is Tile4, so texels are far from their linear places.
    let text = format!(
        "shader compute (local_size=8,8,1)
image @img : 2d r32_uint (binding=0)
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x000003e8)
    32   %2 = imul %0.x, %1
    32   %3 = iadd %2, %0.y
    @image_store (@img, %0.xy, %3) (src_type=uint32)
    32   %4 = load_const (0x00000000)
    32   %5 = @lsc_load_quad (@img, %0.x, %0.y, %4, %4) ({TGM}, lsc_data=d32.x)
    32   %6 = load_const (0x00000008)
    32   %7 = iadd %0.x, %6
    32   %8 = load_const (0x00010000)
    32   %9 = iadd %3, %8
    @lsc_store_quad (@img, %7, %0.y, %4, %4, %9) ({TGM}, lsc_data=d32.x)
    32x2 %10 = vec2 %7, %0.y
    32   %11 = @image_load (@img, %10) (dest_type=uint32)
}}"
    );
    let shader = parse(&text);
    let mut ex = Executor::with_config(&shader, config(16));
    let desc = tiling::SurfaceDesc::new(
        tiling::Gen::Gfx125,
        tiling::SurfDim::D2,
        tiling::Format::R32_UINT,
        tiling::Tiling::Tile4,
    )
    .extent(32, 32, 1);
    let surface = tiling::Surface::new(desc).unwrap();
    let view = tiling::ImageView::level(&surface, 0);
    let id = ex
        .memory
        .bind_surface_image(
            0,
            "img",
            surface,
            view,
            ir::Format::R32Uint,
            tiling::Format::R32_UINT,
            tiling::Bit6Swizzle::None,
        )
        .unwrap();
    let r = run_named(&mut ex, &[5, 11]);
    for inv in 0..64usize {
        let (x, y) = ((inv % 8) as u64, (inv / 8) as u64);
        assert_eq!(
            value(&r, 5, inv),
            [x * 1000 + y],
            "typed read of ({x}, {y})"
        );
        assert_eq!(
            value(&r, 11, inv),
            [x * 1000 + y + 0x10000],
            "reference read of ({}, {y})",
            x + 8
        );
        let got = get_texel(&ex.memory, id, 0, x as u32, y as u32, 0, 4);
        assert_eq!(got, ((x * 1000 + y) as u32).to_le_bytes());
    }
    // The layout is really tiled: row 1 does not start one 128-byte pitch after row 0.
    assert_ne!(texel_at(&ex.memory, 0, 0, 1, 0), 128);
}
