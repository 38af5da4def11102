//! Shuffles and quad operations in the interpreter, against hand-computed lanes: every
//! component of a vector or 64-bit value moves from the same source lane, and a
//! result whose source lane is inactive or out of range, or whose index or source
//! value derives from an `undef`, is tainted (`Config::track_undef`) rather than
//! given a meaning.

use ir::interp::{Config, Env, EnvError, Interpreter, IntrinsicCall};
use ir::{IntrinsicOp, Shader};

/// Serves the local invocation id as (lane, 0, 0).
struct Lanes;

impl Env for Lanes {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let lanes: Vec<usize> = call.active_lanes().collect();
        match call.op() {
            IntrinsicOp::LoadLocalInvocationId => {
                for lane in lanes {
                    call.set_dest(lane, &[lane as u64, 0, 0]);
                }
                Ok(())
            }
            op => Err(EnvError::msg(format!("unexpected @{op}"))),
        }
    }
}

fn parse(body: &str) -> Shader {
    let text = format!(
        "shader compute (local_size=8,1,1)
fn main {{
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000064)
    32   %3 = iadd %0.x, %2
{body}
}}"
    );
    let s = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    s
}

/// Runs `main` over 8 lanes of a subgroup of 8, tracking undefs; per lane, `%v`'s
/// components and whether any is tainted (`None` where the lane did not define it).
fn run(s: &Shader, v: u32) -> Vec<Option<(Vec<u64>, bool)>> {
    let f = &s.functions[0];
    let config = Config {
        track_undef: true,
        ..Config::default()
    };
    let mut interp = Interpreter::new(s, f, config);
    interp
        .run(&(0..8).collect::<Vec<_>>(), &mut Lanes)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let value = f.value_named(v).expect("the value exists");
    (0..8)
        .map(|l| {
            let x = interp.value(value, l)?.to_vec();
            let u = interp.value_undef(value, l)?.iter().any(|&u| u);
            Some((x, u))
        })
        .collect()
}

/// The values of the lanes, all of which must be defined and untainted.
fn defined(r: &[Option<(Vec<u64>, bool)>]) -> Vec<Vec<u64>> {
    r.iter()
        .map(|l| {
            let (x, u) = l.clone().expect("the lane defined the value");
            assert!(!u, "tainted: {r:?}");
            x
        })
        .collect()
}

#[test]
fn every_component_comes_from_the_source_lane() {
    // %4 = (100 + x, x) in lane x, shuffled from lane 7 - x.
    let s = parse(
        "    32x2 %4 = vec2 %3, %0.x
    32   %5 = load_const (0x00000007)
    32   %6 = isub %5, %0.x
    32x2 %7 = @shuffle (%4, %6)",
    );
    let want: Vec<Vec<u64>> = (0..8u64).map(|x| vec![100 + 7 - x, 7 - x]).collect();
    assert_eq!(defined(&run(&s, 7)), want);
}

#[test]
fn sixty_four_bit_values_move_whole() {
    // (x << 32) | 0xffffffff, from lane x ^ 1 (a horizontal quad swap).
    let s = parse(
        "    64   %4 = u2u64 %0.x
    32   %5 = load_const (0x00000020)
    64   %6 = ishl %4, %5
    64   %7 = load_const (0x00000000ffffffff)
    64   %8 = ior %6, %7
    64   %9 = @quad_swap_horizontal (%8)",
    );
    let want: Vec<Vec<u64>> = [1u64, 0, 3, 2, 5, 4, 7, 6]
        .iter()
        .map(|&l| vec![(l << 32) | 0xffff_ffff])
        .collect();
    assert_eq!(defined(&run(&s, 9)), want);
}

#[test]
fn out_of_range_source_lanes_are_tainted() {
    // Down by 3: lanes 5..7 would read lanes 8..10, beyond the subgroup of 8. Up by
    // 1: lane 0 would read lane -1. Index 8: no lane. Quad index 4: outside the quad.
    let s = parse(
        "    32   %4 = load_const (0x00000003)
    32   %5 = @shuffle_down (%3, %4)
    32   %6 = @shuffle_up (%3, %1)
    32   %7 = load_const (0x00000008)
    32   %8 = @shuffle (%3, %7)
    32   %9 = load_const (0x00000004)
    32   %10 = @quad_broadcast (%3, %9)
    32   %11 = @shuffle_xor (%3, %7)",
    );
    let down = run(&s, 5);
    for (x, lane) in down.iter().enumerate() {
        if x < 5 {
            assert_eq!(*lane, Some((vec![100 + x as u64 + 3], false)));
        } else {
            assert!(lane.as_ref().is_some_and(|l| l.1), "lane {x}: {down:?}");
        }
    }
    let up = run(&s, 6);
    assert!(up[0].as_ref().is_some_and(|l| l.1), "{up:?}");
    for (x, lane) in up.iter().enumerate().skip(1) {
        assert_eq!(*lane, Some((vec![100 + x as u64 - 1], false)));
    }
    for v in [8, 10, 11] {
        let r = run(&s, v);
        assert!(
            r.iter().all(|l| l.as_ref().is_some_and(|l| l.1)),
            "%{v}: {r:?}"
        );
    }
}

#[test]
fn inactive_source_lanes_are_tainted() {
    // Only the odd lanes run the shuffles: xor 1 reads an even, inactive, lane; xor 2
    // reads an odd, active, one; a vertical quad swap is xor 2 as well.
    let s = parse(
        "    32   %4 = iand %0.x, %1
    1    %5 = ine %4, %1
    32   %6 = load_const (0x00000002)
  if %5 {
    block b1:
  } else {
    block b2:
      32 %7 = @shuffle_xor (%3, %1)
      32 %8 = @shuffle_xor (%3, %6)
      32 %9 = @quad_swap_vertical (%3)
      32 %10 = @quad_swap_diagonal (%3)
  }
  block b3:",
    );
    let r = run(&s, 7);
    for x in 0..8 {
        if x % 2 == 0 {
            assert_eq!(r[x], None, "lane {x} did not run it");
        } else {
            // Tainted, and the value the inactive lane computed before it left (what
            // its register holds on hardware).
            assert_eq!(
                r[x],
                Some((vec![100 + (x ^ 1) as u64], true)),
                "lane {x}: {r:?}"
            );
        }
    }
    for v in [8, 9] {
        let r = run(&s, v);
        for x in (1..8).step_by(2) {
            assert_eq!(r[x], Some((vec![100 + (x ^ 2) as u64], false)), "%{v}");
        }
    }
    // Diagonal: 1 <-> 2, 3 <-> 0: every odd lane reads an even one.
    let r = run(&s, 10);
    assert!((1..8)
        .step_by(2)
        .all(|x| r[x].as_ref().is_some_and(|l| l.1)));
}

#[test]
fn an_undef_index_or_source_value_taints_only_the_lanes_that_read_it() {
    // %5 is undef in every lane but stands as the value of lanes 4..7 only (bcsel on
    // x < 4 picks %3 there): lanes reading lanes 0..3 are defined. An undef index
    // taints every lane.
    let s = parse(
        "    32   %4 = undef
    32   %5 = load_const (0x00000004)
    1    %6 = ult %0.x, %5
    32   %7 = bcsel %6, %3, %4
    32   %8 = @shuffle_xor (%7, %5)
    32   %9 = @shuffle (%3, %4)",
    );
    let r = run(&s, 8);
    for x in 0..8 {
        let tainted = r[x].as_ref().expect("defined").1;
        // Lane x reads lane x ^ 4: tainted where that is 4..7, i.e. x < 4.
        assert_eq!(tainted, x < 4, "lane {x}: {r:?}");
        if x >= 4 {
            assert_eq!(
                r[x].as_ref().expect("defined").0,
                vec![100 + (x - 4) as u64]
            );
        }
    }
    let r = run(&s, 9);
    assert!(r.iter().all(|l| l.as_ref().is_some_and(|l| l.1)), "{r:?}");
}
