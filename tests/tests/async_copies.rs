//! Group async copies at the reference level in the executor: the copy performed once
//! per workgroup, events, and the errors for what the specification leaves undefined.
//! Expected bytes are computed by hand.

use ir::{Shader, Value};
use verify::exec::{ExecConfig, ExecError, Executor, WorkgroupError};

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

fn config() -> ExecConfig {
    ExecConfig {
        subgroup_size: 4,
        shared_size: 256,
        ..ExecConfig::default()
    }
}

/// A 2D copy from global `%0` (push constant 0..8) to shared offset 16, then back from
/// shared offset 16 to global `%1` (push constant 8..16). Shape: 2-byte elements, 3
/// elements per line, 2 lines; global line length 5 from element 1, shared line length
/// 4; the second copy writes with line length 6 from element 2.
const ROUND_TRIP: &str = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32   %2 = load_const (0x00000000)
    32   %3 = load_const (0x00000008)
    64   %0 = @load_push_constant (%2) (base=0, range=16)
    64   %1 = @load_push_constant (%3) (base=0, range=16)
    32   %4 = load_const (0x00000010)
    32   %5 = load_const (0x00000001)
    32   %6 = load_const (0x00000002)
    32   %7 = load_const (0x00000003)
    32   %8 = load_const (0x00000005)
    32   %9 = load_const (0x00000004)
    32   %10 = load_const (0x00000006)
    32   %11 = @group_async_copy_2d2d (%4, %2, %0, %5, %6, %7, %6, %8, %9, %2)
    @group_wait_events (%11)
    32   %12 = @group_async_copy_2d2d (%1, %6, %4, %2, %6, %7, %6, %9, %10, %2)
    @group_wait_events (%12)
    32   %13 = @group_async_copy_2d2d (%1, %6, %4, %2, %6, %7, %6, %9, %10, %11)
}";

fn setup(ex: &mut Executor<'_>) -> (verify::memory::AllocId, verify::memory::AllocId) {
    let src: Vec<u8> = (0..32).collect();
    let (s, sbase) = {
        let id = ex.memory.alloc("src", src);
        (id, ex.memory.allocation(id).base)
    };
    let (d, dbase) = ex.memory.alloc_zeroed("dst", 32);
    let mut push = sbase.to_le_bytes().to_vec();
    push.extend(dbase.to_le_bytes());
    ex.memory.set_push_constants(push);
    (s, d)
}

#[test]
fn copies_are_performed_once_per_workgroup_with_events() {
    let shader = parse(ROUND_TRIP);
    let mut ex = Executor::with_config(&shader, config());
    let (_, d) = setup(&mut ex);
    let rec = [11, 12, 13].map(Value::from_u32);
    let r = ex.run_recording([2, 1, 1], &rec).unwrap();
    // Source elements (2 bytes) 1..4 and 6..9: bytes 2..8 and 12..18. Shared: lines of
    // 4 elements from byte 16: line 0 at 16..22, line 1 at 24..30.
    let shared = ex.memory.shared();
    assert_eq!(&shared[16..22], &[2, 3, 4, 5, 6, 7]);
    assert_eq!(&shared[22..24], &[0, 0]);
    assert_eq!(&shared[24..30], &[12, 13, 14, 15, 16, 17]);
    // Back to dst elements 2..5 and 8..11: bytes 4..10 and 16..22.
    let mut want = [0u8; 32];
    want[4..10].copy_from_slice(&[2, 3, 4, 5, 6, 7]);
    want[16..22].copy_from_slice(&[12, 13, 14, 15, 16, 17]);
    assert_eq!(ex.memory.allocation(d).bytes, want);
    // Events: fresh tokens 1 and 2 per workgroup; a non-zero event operand is returned.
    for inv in 0..16 {
        assert_eq!(r.values[&rec[0]][inv], Some(vec![1]));
        assert_eq!(r.values[&rec[1]][inv], Some(vec![2]));
        assert_eq!(r.values[&rec[2]][inv], Some(vec![1]));
    }
    // Each copy is performed once per workgroup: 6 element loads and stores each, three
    // copies, two workgroups.
    let copies = r
        .accesses
        .iter()
        .filter(|a| a.ctx.op == ir::IntrinsicOp::GroupAsyncCopy2d2d)
        .count();
    assert_eq!(copies, 2 * 3 * 2 * 6);
}

/// A 3D copy to shared offset 0 from global `%0` (push constant 0..8) at element 1:
/// 1-byte elements, 2 per line, 2 lines, 2 planes; source line length 3, destination
/// line length 2, plane areas `src_area` and `dst_area`.
fn three_d_copy(src_area: u32, dst_area: u32) -> String {
    format!(
        "shader compute (local_size=2,1,1)
fn main {{
  block b0:
    32   %1 = load_const (0x00000000)
    64   %0 = @load_push_constant (%1) (base=0, range=16)
    32   %2 = load_const (0x00000001)
    32   %3 = load_const (0x00000002)
    32   %4 = load_const (0x00000003)
    32   %5 = load_const ({src_area:#010x})
    32   %6 = load_const ({dst_area:#010x})
    32   %7 = @group_async_copy_3d3d (%1, %1, %0, %2, %2, %3, %3, %3, %4, %5, %3, %6, %1)
}}"
    )
}

#[test]
fn three_d_copies_walk_planes() {
    // 1-byte elements, 2 per line, 2 lines, 2 planes; source line length 3, plane area
    // 7, offset 1; destination (shared) line length 2, plane area 5.
    let shader = parse(&three_d_copy(7, 5));
    let mut ex = Executor::with_config(&shader, config());
    setup(&mut ex);
    ex.run([1, 1, 1]).unwrap();
    // Plane p, line l, element e from source byte 1 + 7p + 3l + e to 5p + 2l + e.
    let mut want = [0u8; 12];
    for p in 0..2 {
        for l in 0..2 {
            for e in 0..2 {
                want[5 * p + 2 * l + e] = (1 + 7 * p + 3 * l + e) as u8;
            }
        }
    }
    assert_eq!(&ex.memory.shared()[..12], &want[..]);
    assert_eq!(&want[..10], &[1, 2, 4, 5, 0, 8, 9, 11, 12, 0]);
}

/// The round trip's first copy with `%n` replaced.
fn first_copy_with(args: &str, extra: &str) -> String {
    format!(
        "shader compute (local_size=8,1,1)
fn main {{
  block b0:
    32   %2 = load_const (0x00000000)
    64   %0 = @load_push_constant (%2) (base=0, range=16)
    32   %4 = load_const (0x00000010)
    32   %5 = load_const (0x00000001)
    32   %6 = load_const (0x00000002)
    32   %7 = load_const (0x00000003)
    32   %8 = load_const (0x00000005)
    32   %9 = load_const (0x00000004)
    32   %20 = @load_local_invocation_index
    32   %21 = @load_subgroup_id
{extra}
    32   %11 = @group_async_copy_2d2d ({args})
}}"
    )
}

/// Runs a shader that may break the validator's static copy rules (the executor must
/// report them at run time as well).
fn run_err(text: &str) -> String {
    let shader = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
    let mut ex = Executor::with_config(&shader, config());
    setup(&mut ex);
    ex.run([1, 1, 1]).unwrap_err().to_string()
}

#[test]
fn undefined_copies_are_errors() {
    // Source line length 2 < 3 elements per line.
    let e = run_err(&first_copy_with(
        "%4, %2, %0, %5, %6, %7, %6, %6, %9, %2",
        "",
    ));
    assert!(
        e.contains(
            "overlapping lines: the source line length 2 is smaller than the 3 elements per line"
        ),
        "{e}"
    );
    // Destination line length 2.
    let e = run_err(&first_copy_with(
        "%4, %2, %0, %5, %6, %7, %6, %8, %6, %2",
        "",
    ));
    assert!(
        e.contains("overlapping lines: the destination line length 2"),
        "{e}"
    );
    // Operands that differ per lane (the offset is the local index).
    let e = run_err(&first_copy_with(
        "%4, %20, %0, %5, %6, %7, %6, %8, %9, %2",
        "",
    ));
    assert!(
        e.contains(
            "(lane 1): operand `dst_offset` differs between work-items (0x0, and 0x1 in lane 1)"
        ),
        "{e}"
    );
    // Uniform per subgroup, different between subgroups.
    let e = run_err(&first_copy_with(
        "%4, %21, %0, %5, %6, %7, %6, %8, %9, %2",
        "",
    ));
    assert!(
        e.contains("subgroup from invocation 4")
            && e.contains(
                "operand `dst_offset` is 0x1, but subgroup 0 performed this copy with 0x0"
            ),
        "{e}"
    );
    // Beyond the 256 bytes of shared memory.
    let extra = "    32   %30 = load_const (0x000000fc)";
    let e = run_err(&first_copy_with(
        "%30, %2, %0, %5, %6, %7, %6, %8, %9, %2",
        extra,
    ));
    assert!(
        e.contains("out of range of shared memory (256 bytes)"),
        "{e}"
    );
    // Beyond the source allocation (32 bytes): element 20 onwards.
    let extra = "    32   %30 = load_const (0x00000014)";
    let e = run_err(&first_copy_with(
        "%4, %2, %0, %30, %6, %7, %6, %8, %9, %2",
        extra,
    ));
    assert!(e.contains("is outside every allocation"), "{e}");
    // Element indices beyond 32 bits.
    let extra = "    32   %30 = load_const (0xffffffff)";
    let e = run_err(&first_copy_with(
        "%4, %2, %0, %30, %6, %7, %6, %8, %9, %2",
        extra,
    ));
    assert!(
        e.contains("the source element index 0x100000006 does not fit the 32-bit operands"),
        "{e}"
    );
}

#[test]
fn overlapping_planes_are_errors() {
    // Source plane area 5 < 2 lines x line length 3.
    let e = run_err(&three_d_copy(5, 4));
    assert!(
        e.contains(
            "overlapping planes: the source plane area 5 is smaller than lines x line length = 6"
        ),
        "{e}"
    );
}

#[test]
fn copies_not_met_by_every_work_item_are_errors() {
    // Only the lanes with index < 2: divergent within subgroup 0.
    let extra = "    32   %30 = load_const (0x00000002)
    1    %31 = ult %20, %30
  if %31 {
    block b1:";
    let text = first_copy_with("%4, %2, %0, %5, %6, %7, %6, %8, %9, %2", extra)
        .replace("\n}", "\n  }\n  block b2:\n}");
    let e = run_err(&text);
    assert!(
        e.contains("lanes 0xc do not execute the group async copy"),
        "{e}"
    );
    // Only subgroup 0 (uniform per subgroup): the workgroup check at the end.
    let extra = "    1    %31 = ieq %21, %2
  if %31 {
    block b1:";
    let text = first_copy_with("%4, %2, %0, %5, %6, %7, %6, %8, %9, %2", extra)
        .replace("\n}", "\n  }\n  block b2:\n}");
    let shader = parse(&text);
    let mut ex = Executor::with_config(&shader, config());
    setup(&mut ex);
    let e = ex.run([1, 1, 1]).unwrap_err();
    assert!(
        matches!(
            &e,
            ExecError::Workgroup {
                error: WorkgroupError::AsyncCopy(m),
                ..
            } if m.subgroup == 1 && m.count == 0 && m.expected == 1
        ),
        "{e}"
    );
    assert!(e.to_string().contains(
        "subgroup 1 executed the group async copy at 17:5 0 times, but it was performed 1 time"
    ));
}
