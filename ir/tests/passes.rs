//! Pass combinations on text shaders: the printed result of each pipeline, worked out by
//! hand from what each pass does.

use ir::passes::manager::{PassManager, PassRegistry};
use ir::{parse_shader, print_shader, validate};

fn run(pipeline: &str, src: &str) -> String {
    let mut shader = parse_shader(src).unwrap_or_else(|e| panic!("{e:?}"));
    validate(&shader).unwrap_or_else(|e| panic!("input invalid: {e:?}"));
    let registry = PassRegistry::with_ir_passes();
    let mut pm = PassManager::parse_pipeline(pipeline, &registry).unwrap();
    pm.set_verify(true);
    pm.run(&mut shader).unwrap_or_else(|e| panic!("{e}"));
    // Running the same pipeline again on its output changes nothing.
    let mut again = shader.clone();
    let mut pm = PassManager::parse_pipeline(pipeline, &registry).unwrap();
    pm.set_verify(true);
    if pipeline == "cleanup" {
        assert!(
            !pm.run(&mut again).unwrap(),
            "cleanup did not reach a fixpoint"
        );
    }
    print_shader(&shader)
}

fn expect(pipeline: &str, src: &str, want: &str) {
    let got = run(pipeline, src);
    assert_eq!(got.trim_end(), want.trim_end(), "\n--- got\n{got}");
}

#[test]
fn copy_prop_then_dce_removes_copies() {
    // %1 is a mov of %0.xy and %2 a vec2 of its components in order: every use reads
    // %0.xy; %3 = vec2 %0.y, %0.x reads %0.yx. DCE then drops the dead copies.
    expect(
        "copy-prop,dce",
        "image @dst : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32x2 %2 = vec2 %1.x, %1.y
    32x2 %3 = vec2 %0.y, %0.x
    32x2 %4 = iadd %2, %3
    @image_store (@dst, %2, %4.x) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @dst : 2d r32_uint (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %4 = iadd %0.xy, %0.yx
    @image_store (@dst, %0.xy, %4.x) (src_type=uint32)
}",
    );
}

#[test]
fn cse_respects_dominance_across_an_if() {
    // %3 (before the if) dominates everything: the copies in both branches and after
    // the if go. %5 in the then-branch does not dominate %7 after the if: %7 stays.
    expect(
        "cse,dce",
        "image @dst : buffer r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000003)
    1    %2 = ult %0.x, %1
    32   %3 = iadd %0.x, %1
  if %2 {
    block b1:
      32   %4 = iadd %1, %0.x
      32   %5 = imul %0.y, %1
      @image_store (@dst, %4, %5) (src_type=uint32)
  } else {
    block b2:
      32   %6 = iadd %0.x, %1
      @image_store (@dst, %6, %6) (src_type=uint32)
  }
  block b3:
    32   %7 = imul %0.y, %1
    32   %8 = iadd %0.x, %1
    @image_store (@dst, %8, %7) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @dst : buffer r32_uint (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000003)
    1    %2 = ult %0.x, %1
    32   %3 = iadd %0.x, %1
  if %2 {
    block b1:
      32   %5 = imul %0.y, %1
      @image_store (@dst, %3, %5) (src_type=uint32)
  } else {
    block b2:
      @image_store (@dst, %3, %3) (src_type=uint32)
  }
  block b3:
    32   %7 = imul %0.y, %1
    @image_store (@dst, %3, %7) (src_type=uint32)
}",
    );
}

#[test]
fn folded_condition_inlines_the_taken_branch() {
    // const-fold turns `ieq 4, 4` into true; DCE keeps the then-branch, the phi becomes
    // a mov of its then-source, copy-prop forwards it and DCE removes the rest.
    expect(
        "const-fold,dce,copy-prop,dce",
        "image @dst : buffer r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000004)
    1    %2 = ieq %1, %1
  if %2 {
    block b1:
      32   %3 = iadd %0.x, %1
  } else {
    block b2:
      32   %4 = isub %0.x, %1
  }
  block b3:
    32   %5 = phi b1: %3, b2: %4
    @image_store (@dst, %0.x, %5) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @dst : buffer r32_uint (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000004)
    32   %3 = iadd %0.x, %1
    @image_store (@dst, %0.x, %3) (src_type=uint32)
}",
    );
}

#[test]
fn loop_running_once_becomes_straight_line_code() {
    // The body ends in a break and has no other jump: the loop runs once. Its header
    // phi has the single source from b0 and the phi after the loop the single source
    // from the body; both become movs that copy-prop forwards.
    expect(
        "dce,copy-prop,dce",
        "image @dst : buffer r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
  loop {
    block b1:
      32   %1 = phi b0: %0.x
      32   %2 = iadd %1, %1
      break
  }
  block b2:
    32   %3 = phi b1: %2
    @image_store (@dst, %0.y, %3) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @dst : buffer r32_uint (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %2 = iadd %0.x, %0.x
    @image_store (@dst, %0.y, %2) (src_type=uint32)
}",
    );
}

#[test]
fn empty_if_and_dead_loop_exit() {
    // The if only computed a dead value: DCE empties its branches and removes it. The
    // loop has no break, so nothing after it runs: the store after it goes (the block
    // stays, empty, as NIR's shape needs).
    expect(
        "dce",
        "image @dst : buffer r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    1    %1 = ult %0.x, %0.y
  if %1 {
    block b1:
      32   %2 = iadd %0.x, %0.y
  } else {
    block b2:
  }
  block b3:
  loop {
    block b4:
      @image_store (@dst, %0.x, %0.y) (src_type=uint32)
  }
  block b5:
    @image_store (@dst, %0.y, %0.x) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @dst : buffer r32_uint (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
  loop {
    block b4:
      @image_store (@dst, %0.x, %0.y) (src_type=uint32)
  }
  block b5:
}",
    );
}

#[test]
fn cleanup_tightens_address_math() {
    // What the lowering leaves behind: a copy of the coordinate, the same product in
    // both operand orders, a vec2 of the copy's components and a branch on a constant
    // comparison. cleanup folds the comparison, inlines the then-branch, rewrites the
    // multiplication by 4 as a shift (algebraic), merges the two products (CSE, after
    // copy-prop makes their operands equal) and forwards the vec2 as `%0.xy`.
    expect(
        "cleanup",
        "image @dst : 2d r32_uint (binding=1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32   %2 = load_const (0x00000004)
    32   %3 = imul %1.x, %2
    32   %4 = imul %2, %0.x
    32   %5 = iadd %3, %4
    32x2 %6 = vec2 %1.x, %1.y
    1    %7 = ieq %2, %2
  if %7 {
    block b1:
      @image_store (@dst, %6, %5) (src_type=uint32)
  } else {
    block b2:
      @image_store (@dst, %1, %2) (src_type=uint32)
  }
  block b3:
}",
        "shader compute (local_size=1,1,1)
image @dst : 2d r32_uint (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %8 = load_const (0x00000002)
    32   %3 = ishl %0.x, %8
    32   %5 = iadd %3, %3
    @image_store (@dst, %0.xy, %5) (src_type=uint32)
}",
    );
}

#[test]
fn reorderable_intrinsics_merge_memory_loads_do_not() {
    // Two image_load_param of the same slot merge; two image_loads of the same texel do
    // not (a store could sit between them).
    expect(
        "cse,dce",
        "image @img : buffer r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32x4 %1 = @image_load_param (@img) (base=2)
    32x4 %2 = @image_load_param (@img) (base=2)
    32   %3 = @image_load (@img, %0) (dest_type=uint32)
    @image_store (@img, %0, %1.x) (src_type=uint32)
    32   %4 = @image_load (@img, %0) (dest_type=uint32)
    32   %5 = iadd %3, %4
    32   %6 = iadd %5, %2.y
    @image_store (@img, %0, %6) (src_type=uint32)
}",
        "shader compute (local_size=1,1,1)
image @img : buffer r32_uint (binding=0)

fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32x4 %1 = @image_load_param (@img) (base=2)
    32   %3 = @image_load (@img, %0) (dest_type=uint32)
    @image_store (@img, %0, %1.x) (src_type=uint32)
    32   %4 = @image_load (@img, %0) (dest_type=uint32)
    32   %5 = iadd %3, %4
    32   %6 = iadd %5, %1.y
    @image_store (@img, %0, %6) (src_type=uint32)
}",
    );
}
