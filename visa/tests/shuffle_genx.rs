//! Subgroup shuffles and quad operations (`visa::shuffle`) through GenX_IR on every
//! platform and width: 32- and 64-bit values and booleans, every lane rule, by a
//! register and by a constant, in straight-line code and in a divergent branch; and
//! the typed error for a size the back end does not move.

mod common;

use lowering::Device;

/// Every shuffle and quad operation, 32- and 64-bit, some in a branch; `%43`
/// shuffles a uniform 64-bit value (a copy).
const SHADER: &str = "shader compute (local_size=64,1,1, subgroup_size=SG)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    32   %3 = load_const (3)
    32   %4 = iand %0.x, %3
    32   %5 = load_const (2)
    32   %7 = @shuffle (%0.y, %0.x)
    32   %8 = @shuffle_xor (%0.y, %4)
    32   %22 = iadd %7, %8
    32   %9 = @shuffle_up (%0.y, %4)
    32   %23 = iadd %22, %9
    32   %10 = @shuffle_down (%0.y, %4)
    32   %24 = iadd %23, %10
    32   %11 = @quad_broadcast (%0.y, %4)
    32   %25 = iadd %24, %11
    32   %12 = @quad_broadcast (%0.y, %5)
    32   %26 = iadd %25, %12
    32   %13 = @shuffle (%0.y, %5)
    32   %27 = iadd %26, %13
    32   %14 = @quad_swap_horizontal (%0.y)
    32   %28 = iadd %27, %14
    32   %15 = @quad_swap_vertical (%0.y)
    32   %29 = iadd %28, %15
    32   %16 = @quad_swap_diagonal (%0.y)
    32   %30 = iadd %29, %16
    64   %6 = u2u64 %0.x
    64   %17 = @shuffle (%6, %0.x)
    64   %18 = @quad_swap_vertical (%6)
    64   %31 = iadd %17, %18
    64   %19 = @quad_broadcast (%6, %5)
    64   %32 = iadd %31, %19
    64   %42 = @load_push_constant (%1) (base=0, range=8)
    64   %43 = @shuffle (%42, %0.x)
    64   %44 = iadd %32, %43
    32   %33 = u2u32 %44
    32   %34 = iadd %30, %33
    1    %20 = ieq %4, %1
    1    %21 = @shuffle_xor (%20, %5)
    32   %35 = bcsel %21, %34, %3
  if %20 {
    block b1:
      32   %36 = @shuffle_xor (%35, %5)
      32   %37 = @quad_swap_diagonal (%36)
  } else {
    block b2:
  }
  block b3:
    32   %38 = phi b1: %37, b2: %35
    64   %39 = u2u64 %0.x
    64   %40 = ishl %39, %5
    64   %41 = iadd %2, %40
    @store_global (%38, %41) (access=none, align_mul=4)
}
";

#[test]
fn shuffles_compile_on_every_platform_and_width() {
    let mut jobs = Vec::new();
    for (plat, widths) in [
        ("bdw", &[8u32, 16, 32][..]),
        ("skl", &[8, 16, 32]),
        ("icl", &[8, 16, 32]),
        ("tgl", &[8, 16, 32]),
        ("dg2", &[8, 16, 32]),
        ("mtl", &[8, 16, 32]),
        ("pvc", &[16, 32]),
    ] {
        let d = Device::preset(plat).unwrap();
        for &w in widths {
            let text = SHADER.replace("SG", &w.to_string());
            let s = common::parse(&text);
            let k = visa::emit_kernel(&s, &d, &Default::default())
                .unwrap_or_else(|e| panic!("{plat} SIMD{w}: {e}"));
            // Each shuffle by a lane that varies reads through the address register,
            // once per 16 lanes; the constant broadcasts are regioned movs.
            let halves = w.div_ceil(16) as usize;
            let indirect = k.text.matches("r[A0(0),").count();
            // Seven 32-bit or boolean ones with a varying lane (all but `%12` and
            // `%13`, and the four quad swaps), two 64-bit ones of two halves each
            // (not the broadcast `%19`).
            assert_eq!(
                indirect,
                halves * (7 + 2 * 2),
                "{plat} SIMD{w}:\n{}",
                k.text
            );
            assert!(k.text.contains("<4;4,0>"), "{plat} SIMD{w}");
            // The 32-bit quad swaps exchange lanes by strided moves: two for the
            // horizontal one, four for the others.
            assert!(k.text.contains("<2> ") && k.text.contains("<2;1,0>"));
            assert!(k.text.contains("<4> ") && k.text.contains("<4;1,0>"));
            assert!(k
                .text
                .contains(&format!(".decl A0 v_type=A num_elts={}", w.min(16))));
            jobs.push((
                format!("shuffle-{plat}-simd{w}"),
                k.text,
                k.genx_platform.unwrap().to_string(),
            ));
        }
    }
    if common::have_genx("shuffles_compile_on_every_platform_and_width") {
        common::compile_all(jobs);
    }
}

#[test]
fn a_shuffle_of_16_bit_values_moves_dwords() {
    // The lanes are zero-extended into a dword staging value (every lane's, NoMask),
    // shuffled as dwords and truncated back; GenX_IR takes the kernel. (Values are
    // checked by tests/lit/visa/narrow_subgroup_lanes.ir on five platforms.)
    let s = common::parse(
        "shader compute (local_size=16,1,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    16   %1 = u2u16 %0.y
    16   %2 = @shuffle (%1, %0.x)
    32   %3 = u2u32 %2
    32   %4 = load_const (0)
    @store_shared (%3, %4) (base=0, align_mul=4)
}
",
    );
    let k = visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default())
        .expect("a 16-bit shuffle");
    assert!(k.text.contains("mov (M1_NM, 16)"), "{}", k.text);
    if common::have_genx("a_shuffle_of_16_bit_values_moves_dwords") {
        common::compile_all(vec![(
            "shuffle16-dg2".to_string(),
            k.text,
            k.genx_platform.unwrap().to_string(),
        )]);
    }
}

#[test]
fn a_float16_reduction_is_a_typed_error() {
    // A float16 sum rounds at each step: a 32-bit sum rounded once is not it.
    let s = common::parse(
        "shader compute (local_size=16,1,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = u2f32 %0.y
    16   %2 = f2f16 %1
    16   %3 = @reduce (%2) (reduction_op=fadd)
    32   %4 = f2f32 %3
    32   %5 = load_const (0)
    @store_shared (%4, %5) (base=0, align_mul=4)
}
",
    );
    let e = visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default())
        .expect_err("a float16 reduction");
    let text = e.to_string();
    assert!(text.contains("subgroup fadd of 16-bit values"), "{text}");
}
