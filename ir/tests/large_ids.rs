//! Shaders that write large value and block numbers (`%16777215`, `b4194303`): the
//! interpreter and the passes take memory for the values and blocks that exist, printing
//! after passes reads back, and messages quote the numbers written.

use ir::interp::{Config, Env, EnvError, InterpErrorKind, Interpreter, IntrinsicCall};
use ir::passes::manager::{PassManager, PassRegistry};
use ir::{parse_shader, print_shader, validate, Builder, IntrinsicOp, Shader};

/// Serves `load_local_invocation_id` as (invocation, 0, 0).
struct Invocations;

impl Env for Invocations {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        match call.op() {
            IntrinsicOp::LoadLocalInvocationId => {
                let lanes: Vec<usize> = call.active_lanes().collect();
                for lane in lanes {
                    let inv = call.invocations[lane] as u64;
                    call.set_dest(lane, &[inv, 0, 0]);
                }
                Ok(())
            }
            op => panic!("unexpected @{}", op.name()),
        }
    }
}

/// Lane `i` sums `0 + 1 + ... + (i - 1)` in a loop whose header phis read values the
/// text defines later, every number large and out of order.
const TRIANGLE: &str = "shader compute (local_size=32,1,1)

fn main {
  block b4000000:
    32x3 %16777000 = @load_local_invocation_id
    32   %9000000 = load_const (0x00000000)
    32   %9000001 = load_const (0x00000001)
  loop {
    block b4194303:
      32   %16777215 = phi b4000000: %9000000, b7: %16777214
      32   %12345678 = phi b4000000: %9000000, b7: %16000000
      1    %5 = uge %16777215, %16777000.x
    if %5 {
      block b3000000:
        break
    } else {
      block b12:
    }
    block b7:
      32   %16000000 = iadd %12345678, %16777215
      32   %16777214 = iadd %16777215, %9000001
  }
  block b1:
}
";

fn parse(text: &str) -> Shader {
    let s = parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    validate(&s).unwrap_or_else(|d| panic!("{d:?}"));
    s
}

#[test]
fn the_interpreter_runs_large_numbers_in_registers_for_what_exists() {
    let shader = parse(TRIANGLE);
    let f = &shader.functions[0];
    assert_eq!((f.num_value_ids(), f.num_block_ids()), (8, 6));
    let mut interp = Interpreter::new(&shader, f, Config::default());
    let lanes: Vec<u32> = (0..32).collect();
    interp.run(&lanes, &mut Invocations).unwrap();
    // 8 values of one component, except the 3-component invocation id: 10 words a lane.
    assert_eq!(interp.register_words(), 10 * 32);
    let sum = f.value_named(12_345_678).unwrap();
    let count = f.value_named(16_777_215).unwrap();
    for lane in 0..32u64 {
        let l = lane as usize;
        assert_eq!(
            interp.value(sum, l),
            Some(&[lane * lane.saturating_sub(1) / 2][..])
        );
        assert_eq!(interp.value(count, l), Some(&[lane][..]));
    }
}

#[test]
fn interpreter_errors_quote_the_numbers_written() {
    // Not validated: %16777215 is read before anything defines it.
    let shader = parse_shader(
        "shader compute (local_size=1,1,1)

fn main {
  block b4194303:
    32   %16777214 = iadd %16777215, %16777215
    32   %16777215 = load_const (0x00000001)
}
",
    )
    .unwrap();
    let f = &shader.functions[0];
    let mut interp = Interpreter::new(&shader, f, Config::default());
    let err = interp.run(&[0], &mut Invocations).unwrap_err();
    match err.kind {
        InterpErrorKind::UndefinedValue { value } => {
            assert_eq!(value.number, 16_777_215);
            assert_eq!(value.value, f.value_named(16_777_215).unwrap());
        }
        ref other => panic!("{other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "5:5: lane 0: %16777215 is read but was never defined in this lane"
    );
}

#[test]
fn cleanup_keeps_the_arenas_small_and_its_output_reads_back() {
    let text = "shader compute (local_size=8,1,1)

fn main {
  block b4194303:
    32x3 %16777000 = @load_local_invocation_id
    32   %16777215 = load_const (0x00000000)
    32   %9000000 = iadd %16777000.x, %16777215
    32   %9000001 = iadd %16777000.x, %16777215
    32   %4 = load_const (0x00000002)
    32   %5 = load_const (0x00000003)
    32   %6 = iadd %4, %5
    32   %7 = imul %9000000, %6
    32   %8 = iadd %9000001, %7
    @store_ssbo (%8, %16777215, %16777215) (access=none, align_mul=4)
}
";
    let mut shader = parse(text);
    let registry = PassRegistry::with_ir_passes();
    let mut pm = PassManager::parse_pipeline("cleanup", &registry).unwrap();
    pm.set_verify(true);
    assert!(pm.run(&mut shader).unwrap());
    let f = &shader.functions[0];
    // What the text had, and what the passes made: never a table of 2^24 entries.
    assert!(f.num_value_ids() < 20, "{}", f.num_value_ids());
    assert_eq!(f.num_block_ids(), 1);
    let printed = print_shader(&shader);
    assert!(printed.contains("block b4194303:"), "{printed}");
    assert!(
        printed.contains("%16777000 = @load_local_invocation_id"),
        "{printed}"
    );
    let again = parse(&printed);
    assert_eq!(again, shader);
    assert_eq!(print_shader(&again), printed);
}

#[test]
fn values_and_blocks_created_past_the_bound_take_unused_numbers() {
    // Nothing is left above %16777215 and b4194303; new values and blocks take the
    // smallest numbers the text did not write, so the printed text reads back.
    let mut shader = parse(
        "shader compute (local_size=1,1,1)

fn main {
  block b4194303:
    32   %16777215 = load_const (0x00000001)
    32   %0 = load_const (0x00000002)
    1    %2 = ieq %16777215, %0
}
",
    );
    let f = &mut shader.functions[0];
    let mut b = Builder::at_end(f);
    let one = b.imm_u32(7);
    let two = b.imm_u32(8);
    let (one, two) = (f.value_name(one), f.value_name(two));
    assert_eq!((one.number, two.number), (1, 3));
    assert_eq!(f.value_named(3), Some(two.value));
    let cond = f.value_named(2).unwrap();
    let mut b = Builder::at_end(f);
    let id = b.push_if(cond);
    b.pop_if(id);
    let names: Vec<String> = f
        .blocks_in_order()
        .iter()
        .map(|&b| f.block_name(b).to_string())
        .collect();
    // In creation order: the builder splits off the block after the `if` (b0) before it
    // creates the then- and else-blocks.
    assert_eq!(names, ["b4194303", "b1", "b2", "b0"]);
    let printed = print_shader(&shader);
    assert!(
        printed.contains("32   %3 = load_const (0x00000008)"),
        "{printed}"
    );
    let again = parse(&printed);
    assert_eq!(again, shader);
    assert_eq!(print_shader(&again), printed);
}
