//! Inputs that parse but break the IR's rules: the validator rejects each with the exact
//! message and position (line:col of the offending instruction, block label, `if` or
//! declaration), and the diagnostics render with the source line and a caret.
//!
//! Checks the text parser already enforces (`break` outside a loop, constants that do
//! not fit, duplicate image names) are covered by `malformed_syntax.rs`; the validator's
//! own versions are unit-tested in `ir/src/validate.rs` with builder-made functions.

use ir::diag::render_all;
use ir::{parse_shader, validate};

/// Parses `src` (which must parse) and returns the validator's findings as
/// `line:col: message`.
fn findings(src: &str) -> Vec<String> {
    let shader = parse_shader(src)
        .unwrap_or_else(|e| panic!("does not parse:\n{}", render_all(&e, "input", src)));
    match validate(&shader) {
        Ok(()) => Vec::new(),
        Err(d) => {
            // Rendering must work for every diagnostic and show the caret line.
            let text = render_all(&d, "input.ir", src);
            assert_eq!(text.matches("error: ").count(), d.len(), "{text}");
            d.iter().map(|x| x.to_string()).collect()
        }
    }
}

fn expect(src: &str, want: &[&str]) {
    assert_eq!(findings(src), want, "\n{src}");
}

#[test]
fn wrong_bit_size() {
    expect(
        "fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    16   %1 = iadd %0.x, %0.y
}",
        &[
            "4:5: source 0 of `iadd` is 32-bit, expected 16-bit (the destination's bit size)",
            "4:5: source 1 of `iadd` is 32-bit, expected 16-bit (the destination's bit size)",
        ],
    );
}

#[test]
fn wrong_component_count() {
    expect(
        "fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = iadd %0, %0.xy
}",
        &["4:5: source 0 of `iadd` has 3 components, expected 2 (the destination's component count)"],
    );
}

#[test]
fn shift_amount_must_be_32_bit() {
    expect(
        "fn main {
  block b0:
    32   %0 = load_const (0x00000001)
    16   %1 = load_const (0x0003)
    32   %2 = ishl %0, %1
}",
        &["5:5: source 1 of `ishl` must be 32-bit (uint32), found 16-bit"],
    );
}

#[test]
fn bool_where_int_expected() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
    32   %1 = load_const (0x00000001)
    32   %2 = iadd %1, %0
}",
        &["5:5: source 1 of `iadd` is 1-bit, expected 32-bit (the destination's bit size)"],
    );
}

#[test]
fn if_condition_must_be_a_boolean() {
    expect(
        "fn main {
  block b0:
    32   %0 = load_const (0x00000001)
  if %0 {
    block b1:
  } else {
    block b2:
  }
  block b3:
}",
        &["4:3: `if` condition must be a 1-bit scalar, found 32"],
    );
}

#[test]
fn swizzle_out_of_range() {
    expect(
        "fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000002)
    32   %1 = mov %0.z
}",
        &["4:21: swizzle `.z` reads component 2 of `%0`, which has 2 components"],
    );
}

#[test]
fn undefined_value() {
    expect(
        "fn main {
  block b0:
    32   %1 = iadd %7, %7
}",
        &["3:5: `iadd` uses `%7`, which is not defined"],
    );
}

#[test]
fn use_before_def() {
    expect(
        "fn main {
  block b0:
    32   %0 = load_const (0x00000001)
    32   %1 = iadd %2, %0
    32   %2 = iadd %0, %0
}",
        &["4:5: `iadd` uses `%2` before its definition at 5:5"],
    );
}

#[test]
fn use_not_dominated_by_def() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
  if %0 {
    block b1:
      32   %1 = load_const (0x00000001)
  } else {
    block b2:
  }
  block b3:
    32   %2 = iadd %1, %1
}",
        &["11:5: `iadd` uses `%1` in block b3, but its definition at 6:7 in block b1 does not dominate it"],
    );
}

#[test]
fn value_from_a_loop_used_after_a_break_that_skips_it() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
  loop {
    block b1:
    if %0 {
      block b2:
        break
    } else {
      block b3:
    }
    block b4:
      32   %1 = load_const (0x00000001)
      break
  }
  block b5:
    32   %2 = mov %1
}",
        &["17:5: `mov` uses `%1` in block b5, but its definition at 13:7 in block b4 does not dominate it"],
    );
}

#[test]
fn phi_with_missing_source() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
    32   %1 = load_const (0x00000001)
  if %0 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    32   %2 = phi b1: %1
}",
        &["11:5: phi has no source for predecessor b2 of b3"],
    );
}

#[test]
fn phi_with_source_from_a_non_predecessor() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
    32   %1 = load_const (0x00000001)
  if %0 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    32   %2 = phi b1: %1, b2: %1, b0: %1
}",
        &["11:5: phi has a source from b0, which is not a predecessor of b3 (predecessors: b1, b2)"],
    );
}

#[test]
fn phi_not_at_block_start() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
    32   %1 = load_const (0x00000001)
  if %0 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    32   %2 = iadd %1, %1
    32   %3 = phi b1: %1, b2: %1
}",
        &["12:5: phi in block b3 comes after other instructions; phis must be at the start of their block"],
    );
}

#[test]
fn phi_source_of_another_type() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
    32   %1 = load_const (0x00000001)
    64   %2 = load_const (0x0000000000000001)
  if %0 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    32   %3 = phi b1: %1, b2: %2
}",
        &["12:5: phi source from b2 is 64, expected 32 (the phi's type)"],
    );
}

#[test]
fn jump_that_does_not_end_its_list() {
    expect(
        "fn main {
  block b0:
    1    %0 = load_const (true)
  loop {
    block b1:
      break
    if %0 {
      block b2:
    } else {
      block b3:
    }
    block b4:
  }
  block b5:
}",
        &["5:5: `break` ends block b1, which is not the last node of the body of the `loop` at 4:3; a jump must end the last block of its list"],
    );
}

#[test]
fn coordinate_count_for_the_image_dimension() {
    expect(
        "image @img : 2d r32_uint (binding=0)
image @arr : 1d array r32_uint (binding=1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = @image_load (@img, %0) (dest_type=uint32)
    32   %2 = @image_load (@arr, %0.x) (dest_type=uint32)
}",
        &[
            "6:5: `@image_load`: the coordinate has 3 components, expected 2 for a 2d image",
            "7:5: `@image_load`: the coordinate has 1 component, expected 2 for a 1d array image",
        ],
    );
}

#[test]
fn atomic_data_of_the_wrong_type() {
    expect(
        "image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    64   %1 = load_const (0x0000000000000001)
    64   %2 = @image_atomic (@img, %0.xy, %1) (atomic_op=iadd)
    32   %3 = load_const (0x3f800000)
    32   %4 = @image_atomic (@img, %0.xy, %3) (atomic_op=fadd)
}",
        &[
            "6:5: `@image_atomic`: the atomic data is 64-bit, expected 32-bit for format r32_uint",
            "6:5: `@image_atomic`: the destination is 64, expected 32 (the old texel value)",
            "8:5: `@image_atomic`: atomic_op=fadd needs a float format, but `@img` is r32_uint (integer data)",
        ],
    );
}

#[test]
fn store_data_wider_than_the_format() {
    expect(
        "image @img : buffer r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000001)
    64   %1 = load_const (0x0000000000000001)
    @image_store (@img, %0, %1) (src_type=uint64)
}",
        &["6:5: `@image_store`: the data is 64-bit, expected 32-bit for format r32_uint"],
    );
}

#[test]
fn load_type_that_does_not_match_the_format() {
    expect(
        "image @img : 2d rgba8_unorm (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000002)
    32x4 %1 = @image_load (@img, %0) (dest_type=uint32)
}",
        &["5:5: `@image_load`: dest_type=uint32 does not match format rgba8_unorm, which holds float data"],
    );
}

#[test]
fn image_array_without_index() {
    expect(
        "image @imgs[4] : 2d r32_float (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000002)
    32   %1 = @image_load (@imgs, %0) (dest_type=float32)
}",
        &["5:5: `@image_load`: `@imgs` is an array of 4 images and needs an index (`@imgs[%i]`)"],
    );
}

#[test]
fn index_that_contradicts_the_declaration() {
    expect(
        "image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000002)
    32   %1 = @image_load (@img, %0) (image_dim=3d, dest_type=uint32)
}",
        &["5:5: `@image_load`: image_dim=3d does not match the declaration of `@img` (2d)"],
    );
}

#[test]
fn parameter_slot_out_of_range() {
    expect(
        "image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x4 %0 = @image_load_param (@img) (base=40)
}",
        &["4:5: `@image_load_param`: base 40 is out of range; the image parameter block has 32 slots (0..32)"],
    );
}

#[test]
fn lsc_address_size_and_sampler_channels() {
    expect(
        "image @img : 2d rgba8_unorm readonly (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000040)
    32x4 %1 = @lsc_load (%0) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x4)
    32x4 %2 = @sampler_ld_lz (@img, %0, %0, %0) (channels=rgb, dest_type=float32)
}",
        &[
            "5:5: `@lsc_load`: the address is 32-bit, expected 64-bit for lsc_addr_size=a64",
            "6:5: `@sampler_ld_lz`: the destination has 4 components, expected 3 for channels=rgb",
        ],
    );
}

#[test]
fn arrayed_3d_image() {
    expect(
        "image @vol : 3d array r32_uint (binding=0)
fn main {
  block b0:
}",
        &["1:1: image `@vol`: a 3d image cannot be arrayed; only 1d, 2d and cube images can"],
    );
}

#[test]
fn every_error_is_reported_in_source_order() {
    let src = "image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = @image_load (@img, %0) (dest_type=uint32)
    1    %2 = load_const (true)
  if %1 {
    block b1:
  } else {
    block b2:
  }
  block b3:
    32   %3 = iadd %1, %2
}";
    assert_eq!(
        findings(src),
        [
            "5:5: `@image_load`: the coordinate has 3 components, expected 2 for a 2d image",
            "7:3: `if` condition must be a 1-bit scalar, found 32",
            "13:5: source 1 of `iadd` is 1-bit, expected 32-bit (the destination's bit size)",
        ]
    );
    let shader = parse_shader(src).unwrap();
    let diags = validate(&shader).unwrap_err();
    assert_eq!(
        render_all(&diags[1..2], "input.ir", src),
        "error: `if` condition must be a 1-bit scalar, found 32
 --> input.ir:7:3
  |
7 |   if %1 {
  |   ^
"
    );
}

#[test]
fn documented_examples_are_valid() {
    // The example of SYNTAX.md and the bundled example shader.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let syntax = std::fs::read_to_string(format!("{root}/ir/SYNTAX.md")).unwrap();
    let start = syntax.find("## An example").unwrap();
    let block = &syntax[start..];
    let open = block.find("```\n").unwrap() + 4;
    let close = open + block[open..].find("```").unwrap();
    let example = &block[open..close];
    assert_eq!(findings(example), Vec::<String>::new(), "{example}");
    let blur = std::fs::read_to_string(format!("{root}/examples/blur.ir")).unwrap();
    assert_eq!(findings(&blur), Vec::<String>::new());
}

/// The validator reports, never panics, on shaders broken through the `Function` API:
/// sources naming other or missing values, instructions moved across blocks, nodes
/// dropped or duplicated in control-flow lists, stray jumps, scrambled indices.
#[test]
fn validator_survives_random_corruption() {
    use ir::function::{CfNode, CfParent, Cursor, InstKind, Jump};
    use suites::shader_gen::{generate, GenConfig};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            if n == 0 {
                0
            } else {
                (self.next() % n as u64) as usize
            }
        }
    }

    let cases: u64 = std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rejected = 0;
    for seed in 0..cases {
        let mut shader = generate(seed * 31 + 7, &GenConfig::default());
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let f = &mut shader.functions[0];
        for _ in 0..1 + rng.below(4) {
            let insts = f.insts_in_order();
            let blocks = f.blocks_in_order();
            if insts.is_empty() || blocks.is_empty() {
                break;
            }
            let inst = insts[rng.below(insts.len())];
            match rng.below(7) {
                0 => {
                    // A source names another value, possibly one never defined.
                    let nvals = f.num_value_ids() as u64 + 3;
                    let v = ir::Value::from_u32((rng.next() % nvals) as u32);
                    f.reserve_value(v);
                    f.inst_mut(inst).for_each_src_mut(|s| s.value = v);
                }
                1 => {
                    // The instruction moves to the start of another block.
                    let b = blocks[rng.below(blocks.len())];
                    f.remove_inst(inst);
                    f.insert_inst(inst, Cursor::BlockStart(b));
                }
                2 => {
                    // It defines another instruction's value.
                    let other = insts[rng.below(insts.len())];
                    let d = f.inst(other).dest;
                    f.inst_mut(inst).dest = d;
                }
                3 => {
                    // A node of a list is dropped or duplicated.
                    let parent = match f.block(blocks[rng.below(blocks.len())]).parent {
                        Some(p) => p,
                        None => CfParent::Root,
                    };
                    let list = f.cf_list_mut(parent);
                    if !list.is_empty() {
                        let k = (seed as usize) % list.len();
                        if seed % 2 == 0 {
                            list.remove(k);
                        } else {
                            let n: CfNode = list[k];
                            list.push(n);
                        }
                    }
                }
                4 => {
                    let b = blocks[rng.below(blocks.len())];
                    f.block_mut(b).jump = Some(if seed % 2 == 0 {
                        Jump::Break
                    } else {
                        Jump::Continue
                    });
                }
                5 => {
                    if let InstKind::Intrinsic(i) = &mut f.inst_mut(inst).kind {
                        for x in i.indices.iter_mut() {
                            *x = rng.next() as u32 % 300;
                        }
                        if rng.below(2) == 0 {
                            i.indices.pop();
                        }
                    }
                }
                _ => {
                    if let InstKind::Phi(p) = &mut f.inst_mut(inst).kind {
                        p.srcs.pop();
                    } else if let InstKind::Alu(a) = &mut f.inst_mut(inst).kind {
                        a.srcs.pop();
                    }
                }
            }
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| validate(&shader)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(d)) => {
                assert!(!d.is_empty());
                rejected += 1;
            }
            Err(_) => panic!("the validator panicked on corrupted shader {seed}"),
        }
    }
    assert!(
        rejected > cases / 2,
        "only {rejected} of {cases} corruptions were caught"
    );
}
