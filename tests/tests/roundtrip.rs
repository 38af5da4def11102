//! Text round trip over random valid shaders: printing, parsing and printing again gives
//! the same text, and the parsed shader equals the original (ids, control flow,
//! instructions; spans aside). `QC_TESTS` scales the number of cases.

use ir::{parse_shader, print_shader, Shader};
use quickcheck::{Gen, QuickCheck, TestResult};
use suites::shader_gen::{generate, GenConfig, RandomShader};

fn round_trip(shader: &Shader) -> TestResult {
    let text = print_shader(shader);
    let parsed = match parse_shader(&text) {
        Ok(p) => p,
        Err(e) => return TestResult::error(ir::diag::render_all(&e, "printed", &text)),
    };
    if &parsed != shader {
        return TestResult::error("the parsed shader differs from the original");
    }
    let again = print_shader(&parsed);
    if again != text {
        return TestResult::error(format!("printing is not a fixed point:\n{again}"));
    }
    // The generator's shaders are valid, and so is what the parser builds from them
    // (with the spans of the printed text, which the diagnostics point into).
    if let Err(d) = ir::validate(&parsed) {
        return TestResult::error(ir::diag::render_all(&d, "printed", &text));
    }
    TestResult::passed()
}

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn print_parse_print_is_identity() {
    fn prop(s: RandomShader) -> TestResult {
        round_trip(&s.0)
    }
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(60, 0x5eed_7e47))
        .tests(cases(300))
        // quickcheck stops at 10,000 generated cases unless told otherwise.
        .max_tests(cases(300))
        .quickcheck(prop as fn(RandomShader) -> TestResult);
}

/// Other corners of the generator: deep control flow, long straight-line code, no
/// swizzles, nothing but ALU, buffer declarations with `get_ssbo_size`.
#[test]
fn round_trip_under_other_configurations() {
    let configs = [
        GenConfig {
            max_depth: 6,
            max_insts: 200,
            ..GenConfig::default()
        },
        GenConfig {
            max_insts: 400,
            ..GenConfig::straight_line()
        },
        GenConfig {
            swizzles: false,
            wide_vectors: false,
            ..GenConfig::default()
        },
        GenConfig::alu_only(),
        GenConfig {
            buffers: true,
            ..GenConfig::default()
        },
    ];
    let n = cases(300) / 10;
    for (i, cfg) in configs.iter().enumerate() {
        for seed in 0..n.max(1) {
            let s = generate(seed * 7919 + i as u64, cfg);
            let r = round_trip(&s);
            assert!(
                !r.is_failure() && !r.is_error(),
                "config {i}, seed {seed}: {r:?}\n{s}"
            );
        }
    }
}

/// Text that leaves things out (blocks, `else`, default indices, the header) is filled
/// in by the parser; printing the result is a fixed point from then on.
#[test]
fn friendly_text_reaches_a_fixed_point() {
    let text = "image @img : 2d r32_uint (binding=0)
fn main {
  32x2 %0 = load_const (1, 2)
  1 %1 = ieq %0.x, %0.y
  if %1 {
    32 %2 = @image_load (@img, %0) (dest_type=uint32)
  }
  loop {
    if %1 { break }
    continue
  }
}
";
    let s =
        parse_shader(text).unwrap_or_else(|d| panic!("{}", ir::diag::render_all(&d, "t", text)));
    let printed = print_shader(&s);
    assert_eq!(
        printed,
        "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)

fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000002)
    1    %1 = ieq %0.x, %0.y
  if %1 {
    block b1:
      32   %2 = @image_load (@img, %0) (dest_type=uint32)
  } else {
    block b2:
  }
  block b3:
  loop {
    block b4:
    if %1 {
      block b5:
        break
    } else {
      block b6:
    }
    block b7:
      continue
  }
  block b8:
}
"
    );
    ir::validate(&s).unwrap_or_else(|d| panic!("{}", ir::diag::render_all(&d, "t", text)));
    let again = parse_shader(&printed).expect("printed text parses");
    assert_eq!(again, s);
    assert_eq!(print_shader(&again), printed);
}
