//! Descriptor indices as Vulkan and NIR define them: the interpreter's uniformity check,
//! `read_first_invocation`, and the `lower-non-uniform-access` loop, against
//! hand-computed lanes and calls.

use ir::interp::{Config, Env, EnvError, InterpErrorKind, Interpreter, IntrinsicCall};
use ir::passes::{LowerNonUniformAccess, Pass};
use ir::{IntrinsicOp, Shader};

/// Serves the local invocation id as (lane, 0, 0), answers `image_load` and
/// `load_ssbo` with `100 * index + lane`, and records each such call's index set and
/// execution mask.
#[derive(Default)]
struct Recorder {
    calls: Vec<(IntrinsicOp, Vec<u64>, u32)>,
}

impl Env for Recorder {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let lanes: Vec<usize> = call.active_lanes().collect();
        match call.op() {
            IntrinsicOp::LoadLocalInvocationId => {
                for lane in lanes {
                    call.set_dest(lane, &[lane as u64, 0, 0]);
                }
            }
            op @ (IntrinsicOp::ImageLoad | IntrinsicOp::LoadSsbo) => {
                let mut indices = Vec::new();
                for lane in lanes {
                    let index = if op == IntrinsicOp::ImageLoad {
                        call.image_index(lane)
                    } else {
                        call.src_scalar(0, lane)
                    };
                    indices.push(index);
                    call.set_dest(lane, &[100 * index + lane as u64]);
                }
                self.calls.push((op, indices, call.exec_mask));
            }
            op => return Err(EnvError::msg(format!("unexpected @{op}"))),
        }
        Ok(())
    }
}

fn parse(body: &str) -> Shader {
    let text = format!(
        "shader compute (local_size=8,1,1)
image @imgs[3] : 2d r32_uint readonly (binding=0)
fn main {{
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000003)
    32   %2 = umod %0.x, %1
    32x2 %3 = vec2 %0.x, %0.x
{body}
}}"
    );
    let s = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    s
}

/// Runs `main` over 8 lanes; the values of `%v` per lane, or the error.
fn run(s: &Shader, v: u32) -> Result<(Vec<u64>, Recorder), InterpErrorKind> {
    let f = &s.functions[0];
    let mut env = Recorder::default();
    let mut interp = Interpreter::new(s, f, Config::default());
    interp
        .run(&(0..8).collect::<Vec<_>>(), &mut env)
        .map_err(|e| e.kind)?;
    let value = f.value_named(v).expect("the value exists");
    let lanes = (0..8)
        .map(|l| interp.value(value, l).expect("defined")[0])
        .collect();
    Ok((lanes, env))
}

#[test]
fn a_divergent_index_without_non_uniform_is_an_error_naming_two_lanes() {
    let s = parse("    32 %4 = @image_load (@imgs[%2], %3) (dest_type=uint32)");
    let Err(InterpErrorKind::NonUniformIndex { op, first, other }) = run(&s, 4) else {
        panic!("no uniformity error");
    };
    assert_eq!(op, IntrinsicOp::ImageLoad);
    // Lane 0 reads element 0, lane 1 element 1: the first lane that differs.
    assert_eq!(
        (first.lane, first.index, other.lane, other.index),
        (0, 0, 1, 1)
    );
}

#[test]
fn a_uniform_or_non_uniform_index_runs() {
    // The same element everywhere (`%0.x - %0.x`), and a lane-varying one declared so.
    let s = parse(
        "    32 %5 = isub %0.x, %0.x
    32 %4 = @image_load (@imgs[%5], %3) (dest_type=uint32)
    32 %6 = @image_load (@imgs[%2], %3) (dest_type=uint32, access=readonly|non_uniform)",
    );
    let (v, env) = run(&s, 6).expect("runs");
    assert_eq!(v, [0, 101, 202, 3, 104, 205, 6, 107]);
    assert_eq!(env.calls.len(), 2);
}

#[test]
fn buffer_blocks_follow_the_same_rule() {
    let bad = parse("    32 %4 = @load_ssbo (%2, %1) (access=none, align_mul=4)");
    assert!(matches!(
        run(&bad, 4),
        Err(InterpErrorKind::NonUniformIndex { .. })
    ));
    let good = parse("    32 %4 = @load_ssbo (%2, %1) (access=non_uniform, align_mul=4)");
    assert_eq!(
        run(&good, 4).expect("runs").0,
        [0, 101, 202, 3, 104, 205, 6, 107]
    );
}

#[test]
fn read_first_invocation_gives_the_lowest_active_lane() {
    // Lanes 3..7 take the `if`; the value there is lane 3's (3 * 7 = 21).
    let s = parse(
        "    32 %4 = load_const (0x00000007)
    32 %5 = imul %0.x, %4
    32 %6 = load_const (0x00000002)
    1  %7 = ult %6, %0.x
  if %7 {
    block b1:
      32 %8 = @read_first_invocation (%5)
  } else {
    block b2:
      32 %9 = @read_first_invocation (%5)
  }
  block b3:
    32 %10 = phi b1: %8, b2: %9",
    );
    let (v, _) = run(&s, 10).expect("runs");
    assert_eq!(v, [0, 0, 0, 21, 21, 21, 21, 21]);
}

#[test]
fn the_loop_serves_one_index_per_iteration_and_keeps_every_value() {
    let mut s = parse(
        "    32 %4 = @image_load (@imgs[%2], %3) (dest_type=uint32, access=readonly|non_uniform)",
    );
    let (before, _) = run(&s, 4).expect("runs");
    assert!(LowerNonUniformAccess.run(&mut s).expect("the pass runs"));
    ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{s}"));
    let (after, env) = run(&s, 4).expect("runs");
    assert_eq!(before, after);
    // Elements 0, 1, 2 in turn, each for the lanes whose index it is.
    let calls: Vec<(Vec<u64>, u32)> = env.calls.into_iter().map(|c| (c.1, c.2)).collect();
    assert_eq!(
        calls,
        [
            (vec![0, 0, 0], 0b0100_1001),
            (vec![1, 1, 1], 0b1001_0010),
            (vec![2, 2], 0b0010_0100)
        ]
    );
    // The qualifier is gone: the access's index is now the same on its lanes.
    assert!(!s.to_string().contains("non_uniform"), "{s}");
}
