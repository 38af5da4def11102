//! Barriers: the interpreter's resumable runs (start/resume, uniform-control-flow
//! checks) and the executor running the subgroups of a workgroup in step, against
//! hand-computed results.

use ir::interp::{Config, Env, EnvError, InterpErrorKind, Interpreter, IntrinsicCall, RunState};
use ir::{IntrinsicOp, Shader, Value};
use std::collections::HashMap;
use verify::exec::{ExecConfig, ExecError, Executor, WorkgroupError};

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Serves `load_local_invocation_index` (the invocation) and shared memory as a map of
/// words, shared by every subgroup it is used with.
#[derive(Default)]
struct WordEnv {
    shared: HashMap<u64, u64>,
}

impl Env for WordEnv {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let lanes: Vec<usize> = call.active_lanes().collect();
        match call.op() {
            IntrinsicOp::LoadLocalInvocationIndex => {
                for lane in lanes {
                    let v = call.invocations[lane] as u64;
                    call.set_dest(lane, &[v]);
                }
            }
            IntrinsicOp::StoreShared => {
                for lane in lanes {
                    let (data, off) = (call.src_scalar(0, lane), call.src_scalar(1, lane));
                    self.shared.insert(off, data);
                }
            }
            IntrinsicOp::LoadShared => {
                for lane in lanes {
                    let v = self
                        .shared
                        .get(&call.src_scalar(0, lane))
                        .copied()
                        .unwrap_or(0);
                    call.set_dest(lane, &[v]);
                }
            }
            op => return Err(EnvError::msg(format!("unexpected @{op}"))),
        }
        Ok(())
    }
}

/// Three iterations (a uniform trip count) of: store `100·index + i` to word `index`,
/// barrier, add the word of the neighbour `(index + 1) mod 8` to a sum, barrier.
const EXCHANGE_LOOP: &str = "shader compute (local_size=8,1,1, subgroup_size=4)
fn main {
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000004)
    32   %3 = load_const (0x00000001)
    32   %4 = load_const (0x00000003)
    32   %5 = load_const (0x00000008)
    32   %6 = load_const (0x00000064)
  loop {
    block b1:
      32   %7 = phi b0: %1, b4: %17
      32   %8 = phi b0: %1, b4: %16
      1    %9 = uge %7, %4
    if %9 {
      block b2:
        break
    } else {
      block b3:
    }
    block b4:
      32   %10 = imul %0, %2
      32   %11 = imul %0, %6
      32   %12 = iadd %11, %7
      @store_shared (%12, %10) (base=0, align_mul=4)
      @barrier
      32   %13 = iadd %0, %3
      32   %14 = umod %13, %5
      32   %15 = imul %14, %2
      32   %18 = @load_shared (%15) (base=0, align_mul=4)
      32   %16 = iadd %8, %18
      @barrier
      32   %17 = iadd %7, %3
  }
  block b5:
    32   %19 = mov %8
}";

fn expected_sum(index: u64) -> u64 {
    let nb = (index + 1) % 8;
    (0..3).map(|i| nb * 100 + i).sum()
}

#[test]
fn subgroups_resumed_in_step_exchange_through_shared_memory() {
    let shader = parse(EXCHANGE_LOOP);
    let f = &shader.functions[0];
    let mut env = WordEnv::default();
    let mut sgs: Vec<Interpreter<'_>> = (0..2)
        .map(|_| Interpreter::new(&shader, f, Config::default()))
        .collect();
    for (i, sg) in sgs.iter_mut().enumerate() {
        let inv: Vec<u32> = (0..4).map(|l| (4 * i + l) as u32).collect();
        sg.start(&inv, 0xf).unwrap();
        assert_eq!(sg.entry_mask(), 0xf);
        assert!(!sg.is_finished());
    }
    // Six barriers (two per iteration), then the end.
    for round in 1..=6u64 {
        for sg in sgs.iter_mut() {
            match sg.resume(&mut env).unwrap() {
                RunState::Barrier(p) => assert_eq!(p.index, round),
                RunState::Finished => panic!("finished before barrier {round}"),
            }
        }
    }
    for sg in sgs.iter_mut() {
        assert_eq!(sg.resume(&mut env).unwrap(), RunState::Finished);
        assert!(sg.is_finished());
        // A finished run stays finished.
        assert_eq!(sg.resume(&mut env).unwrap(), RunState::Finished);
    }
    let sum = Value::from_u32(19);
    for (i, sg) in sgs.iter().enumerate() {
        for lane in 0..4 {
            let index = (4 * i + lane) as u64;
            assert_eq!(sg.value(sum, lane), Some(&[expected_sum(index)][..]));
        }
    }
}

#[test]
fn run_alone_passes_barriers_as_the_only_subgroup() {
    // One subgroup of all 8 invocations: every neighbour is in the subgroup.
    let shader = parse(EXCHANGE_LOOP);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let inv: Vec<u32> = (0..8).collect();
    interp.run(&inv, &mut WordEnv::default()).unwrap();
    for lane in 0..8 {
        assert_eq!(
            interp.value(Value::from_u32(19), lane),
            Some(&[expected_sum(lane as u64)][..])
        );
    }
    // Partial subgroup: lanes 5..7 inactive; the barrier needs only the lanes that
    // started.
    let stats = interp
        .run_masked(&inv, 0x1f, &mut WordEnv::default())
        .unwrap();
    assert!(stats.instructions > 0);
    assert_eq!(interp.value(Value::from_u32(19), 6), None);
}

/// A barrier inside `if %c` where `%c = ult index, limit`.
fn barrier_under_condition(limit: u32) -> Shader {
    parse(&format!(
        "shader compute (local_size=8,1,1)
fn main {{
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = load_const (0x{limit:08x})
    1    %2 = ult %0, %1
  if %2 {{
    block b1:
      @barrier
  }} else {{
    block b2:
  }}
  block b3:
    32   %3 = mov %0
}}"
    ))
}

#[test]
fn barriers_in_uniform_ifs_pass() {
    // Taken by every lane, and skipped by every lane.
    for limit in [8, 0] {
        let shader = barrier_under_condition(limit);
        let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
        interp.start(&[0, 1, 2, 3], 0xf).unwrap();
        let first = interp.resume(&mut WordEnv::default()).unwrap();
        if limit == 8 {
            let RunState::Barrier(p) = first else {
                panic!("expected the barrier, got {first:?}")
            };
            assert_eq!(p.index, 1);
            assert_eq!(p.span.line, 9);
            assert_eq!(
                interp.resume(&mut WordEnv::default()).unwrap(),
                RunState::Finished
            );
        } else {
            assert_eq!(first, RunState::Finished);
        }
        assert_eq!(interp.value(Value::from_u32(3), 3), Some(&[3u64][..]));
    }
}

#[test]
fn barriers_in_divergent_ifs_are_errors() {
    let shader = barrier_under_condition(2);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    let err = interp
        .run(&[0, 1, 2, 3], &mut WordEnv::default())
        .unwrap_err();
    assert!(
        matches!(
            err.kind,
            InterpErrorKind::DivergentBarrier {
                active: 0b0011,
                expected: 0b1111
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "9:7: barrier in divergent control flow: lanes 2, 3 of the subgroup do not reach it (active lanes 0, 1)"
    );
    // The failed run cannot be resumed.
    assert!(interp.is_finished());
}

#[test]
fn barriers_in_loops_with_per_lane_trip_counts_are_errors() {
    // Lane i runs i + 1 iterations: at the second barrier lane 0 has left the loop.
    let text = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000001)
  loop {
    block b1:
      32   %3 = phi b0: %1, b2: %4
      @barrier
      32   %4 = iadd %3, %2
      1    %5 = ult %0, %4
    if %5 {
      block b3:
        break
    } else {
      block b4:
    }
    block b2:
  }
  block b5:
}";
    let shader = parse(text);
    let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
    interp.start(&[0, 1, 2, 3], 0xf).unwrap();
    let mut env = WordEnv::default();
    assert!(matches!(
        interp.resume(&mut env).unwrap(),
        RunState::Barrier(_)
    ));
    let err = interp.resume(&mut env).unwrap_err();
    assert!(
        matches!(
            err.kind,
            InterpErrorKind::DivergentBarrier {
                active: 0b1110,
                expected: 0b1111
            }
        ),
        "{err}"
    );
}

fn exec_config(subgroup_size: u32) -> ExecConfig {
    ExecConfig {
        subgroup_size,
        shared_size: 256,
        ..ExecConfig::default()
    }
}

/// Each invocation stores its index to shared word `index`, optionally waits at a
/// barrier, then reads the word of `(index + 1) mod 8`.
fn neighbour_shader(with_barrier: bool) -> Shader {
    parse(&format!(
        "shader compute (local_size=8,1,1)
fn main {{
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = load_const (0x00000004)
    32   %2 = load_const (0x00000001)
    32   %3 = load_const (0x00000008)
    32   %4 = imul %0, %1
    32   %5 = iadd %0, %2
    @store_shared (%5, %4) (base=0, align_mul=4)
    {}
    32   %6 = umod %5, %3
    32   %7 = imul %6, %1
    32   %8 = @load_shared (%7) (base=0, align_mul=4)
}}",
        if with_barrier { "@barrier" } else { "" }
    ))
}

#[test]
fn executor_runs_subgroups_in_step_at_barriers() {
    for with_barrier in [false, true] {
        let shader = neighbour_shader(with_barrier);
        let mut ex = Executor::with_config(&shader, exec_config(4));
        let r = ex.run_recording([2, 1, 1], &[Value::from_u32(8)]).unwrap();
        for inv in 0..16usize {
            let index = inv % 8;
            // Word w holds w + 1 once written.
            let want = if !with_barrier && index == 3 {
                // Subgroup 0 runs to its end before subgroup 1 writes word 4.
                0
            } else {
                ((index + 1) % 8 + 1) as u64
            };
            assert_eq!(
                r.values[&Value::from_u32(8)][inv],
                Some(vec![want]),
                "invocation {inv}, barrier {with_barrier}"
            );
        }
    }
}

#[test]
fn executor_runs_barrier_loops_and_system_values() {
    let shader = parse(EXCHANGE_LOOP);
    // The shader fixes subgroup_size=4: the configured 16 is not used.
    let mut ex = Executor::with_config(&shader, exec_config(16));
    assert_eq!(ex.subgroup_size(), 4);
    let r = ex.run_recording([3, 1, 1], &[Value::from_u32(19)]).unwrap();
    for inv in 0..24usize {
        assert_eq!(
            r.values[&Value::from_u32(19)][inv],
            Some(vec![expected_sum((inv % 8) as u64)])
        );
    }
    let sv = parse(
        "shader compute (local_size=3,2,1)
fn main {
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = @load_subgroup_invocation
    32   %2 = @load_subgroup_id
    32   %3 = @load_num_subgroups
}",
    );
    let mut ex = Executor::with_config(&sv, exec_config(4));
    let rec: Vec<Value> = (0..4).map(Value::from_u32).collect();
    let r = ex.run_recording([2, 1, 1], &rec).unwrap();
    for inv in 0..12usize {
        let li = (inv % 6) as u64;
        let get = |v: u32| r.values[&Value::from_u32(v)][inv].clone().unwrap()[0];
        assert_eq!(get(0), li);
        assert_eq!(get(1), li % 4);
        assert_eq!(get(2), li / 4);
        assert_eq!(get(3), 2);
    }
}

/// The error of one workgroup of `shader` in subgroups of `subgroup_size`, which must
/// fail.
fn run_error(shader: &ir::Shader, subgroup_size: u32) -> ExecError {
    let mut ex = Executor::with_config(shader, exec_config(subgroup_size));
    ex.run([1, 1, 1]).unwrap_err()
}

#[test]
fn subgroups_that_miss_a_barrier_are_workgroup_errors() {
    // Uniform within each subgroup of 4, but only subgroup 0 takes the barrier.
    let shader = barrier_under_condition(4);
    let e = run_error(&shader, 4);
    assert!(
        matches!(
            e,
            ExecError::Workgroup {
                error: WorkgroupError::FinishedBeforeBarrier {
                    subgroup: 1,
                    index: 1,
                    waiting: 0,
                    ..
                },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "workgroup (0, 0, 0): subgroup 1 finished without reaching barrier 1 (subgroup 0 waits at 9:7): every invocation of the workgroup must reach every barrier"
    );
    // Within one subgroup of 8 the same condition diverges.
    let e = run_error(&shader, 8).to_string();
    assert!(e.contains("barrier in divergent control flow"), "{e}");

    // Different barriers on the two sides of an `if`.
    let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32   %0 = @load_subgroup_id
    32   %1 = load_const (0x00000000)
    1    %2 = ieq %0, %1
  if %2 {
    block b1:
      @barrier
  } else {
    block b2:
      @barrier
  }
  block b3:
}";
    let shader = parse(text);
    let e = run_error(&shader, 4);
    assert!(
        matches!(
            e,
            ExecError::Workgroup {
                error: WorkgroupError::DifferentBarriers {
                    index: 1,
                    subgroup: 1,
                    other: 0,
                    ..
                },
                ..
            }
        ),
        "{e}"
    );
}
