//! Structured control flow and phis: divergent ifs, loops with break and continue,
//! values leaving loops, and parallel phi copies, through GenX_IR on every platform
//! and width.

mod common;

use lowering::Device;

/// Nested divergent ifs, a loop with a divergent break and continue, phis at merges and
/// at the loop header (two of them swapping each iteration), values used after the loop.
const SHADER: &str = "shader compute (local_size=32,1,1, subgroup_size=SG)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    32   %3 = load_const (3)
    32   %4 = iand %0.x, %3
    1    %5 = ieq %4, %1
  if %5 {
    block b1:
      32   %6 = iadd %0.x, %3
      1    %7 = ult %6, %0.y
    if %7 {
      block b2:
        32   %8 = imul %6, %6
    } else {
      block b3:
        32   %9 = isub %6, %3
    }
    block b4:
      32   %10 = phi b2: %8, b3: %9
  } else {
    block b5:
      32   %11 = ishl %0.x, %3
  }
  block b6:
    32   %12 = phi b4: %10, b5: %11
    32   %13 = load_const (1)
    32   %14 = load_const (100)
  loop {
    block b7:
      32   %15 = phi b6: %12, b11: %17, b13: %17
      32   %16 = phi b6: %1, b11: %15, b13: %15
      32   %17 = phi b6: %13, b11: %16, b13: %16
      32   %18 = iadd %15, %16
      1    %19 = uge %18, %14
    if %19 {
      block b8:
        break
    } else {
      block b9:
    }
    block b10:
      32   %20 = iand %18, %13
      1    %21 = ine %20, %1
    if %21 {
      block b11:
        continue
    } else {
      block b12:
    }
    block b13:
  }
  block b14:
    32   %22 = iadd %15, %18
    64   %23 = u2u64 %0.x
    32   %24 = load_const (2)
    64   %25 = ishl %23, %24
    64   %26 = iadd %2, %25
    @store_global (%22, %26) (access=none, align_mul=4)
}
";

#[test]
fn divergent_control_flow_and_phis_compile() {
    let mut jobs = Vec::new();
    for (plat, widths) in [
        ("dg2", &[8u32, 16, 32][..]),
        ("mtl", &[8, 16, 32]),
        ("pvc", &[16, 32]),
    ] {
        let d = Device::preset(plat).unwrap();
        for &w in widths {
            let text = SHADER.replace("SG", &w.to_string());
            let s = common::parse(&text);
            let k = visa::emit_kernel(&s, &d, &Default::default())
                .unwrap_or_else(|e| panic!("{plat} SIMD{w}: {e}"));
            jobs.push((
                format!("control-{plat}-simd{w}"),
                k.text,
                k.genx_platform.unwrap().to_string(),
            ));
        }
    }
    if common::have_genx("divergent_control_flow_and_phis_compile") {
        common::compile_all(jobs);
    }
}

#[test]
fn structure_of_gotos_and_phi_copies() {
    let s = common::parse(&SHADER.replace("SG", "16"));
    let k = visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default()).unwrap();
    let body: Vec<&str> = k
        .text
        .lines()
        .filter(|l| !l.starts_with('.') && !l.contains("lifetime.start"))
        .map(str::trim)
        .collect();
    let pos = |needle: &str| {
        body.iter()
            .position(|l| *l == needle)
            .unwrap_or_else(|| panic!("no `{needle}` in\n{}", k.text))
    };
    // The outer if: lanes where %5 is false go to the else label; the inner if nests.
    let outer = pos("if1_else:");
    assert!(body[outer - 1] == "goto (M1, 16) if1_end");
    assert!(pos("if2_else:") < outer && pos("if2_end:") < outer);
    // The merges' phis %10 and %12 and the values they take (%8, %9, %11) share the
    // variable of the loop's %15 that reads them (`visa::coalesce`): each arm writes it
    // in place, and no copy is left. (DG2 has no dword x dword multiply: the low word's
    // product goes to the destination, `visa::alu`'s `mul_dword`.)
    let i = pos("mul (M1, 16) v15(0,0)<1> v6(0,0)<1;1,0> v6_uw(0,0)<2;1,0>");
    assert!(i < pos("if2_else:"));
    assert!(pos("shl (M1, 16) v15(0,0)<1> v0(0,0)<1;1,0> 0x3:ud") > outer);
    assert!(!body[..pos("loop3_head:")]
        .iter()
        .any(|l| l.starts_with("mov (M1, 16) v15")));
    // The loop: head, body, break to the end, continue to the continue label, back
    // edge.
    let head = pos("loop3_head:");
    let cont = pos("loop3_cont:");
    assert_eq!(body[cont + 1], "goto (M1, 16) loop3_head");
    assert_eq!(body[cont + 2], "loop3_end:");
    // `if c { break }` is one predicated goto to the loop's end (brw's predicated break).
    let brk = body
        .iter()
        .position(|l| l.starts_with("(p") && l.ends_with(") goto (M1, 16) loop3_end"))
        .unwrap_or_else(|| panic!("no predicated break in\n{}", k.text));
    assert!(head < brk && brk < cont);
    assert!(pos("goto (M1, 16) loop3_cont") < cont);
    // The header phis %15 <- %17, %16 <- %15, %17 <- %16 form a cycle: one value is
    // saved in a temporary first, then each copy reads a value before it is overwritten.
    let saved = body
        .iter()
        .position(|l| l.starts_with("mov (M1, 16) t") && l.ends_with("v15(0,0)<1;1,0>"))
        .unwrap_or_else(|| panic!("no save of v15 in\n{}", k.text));
    assert!(saved > head && saved < cont);
}

#[test]
fn jumps_outside_loops_are_errors() {
    // The validator rejects this; the back end still refuses it cleanly.
    let text = "shader compute (local_size=16,1,1)
fn main {
  block b0:
    break
}";
    let s = ir::parse_shader(text).unwrap_or_else(|_| {
        // The parser refuses it too; build it by hand.
        let mut s = ir::Shader::new([16, 1, 1]);
        let mut f = ir::Function::new("main");
        let b = f.first_block(ir::CfParent::Root).unwrap();
        f.block_mut(b).jump = Some(ir::Jump::Break);
        s.functions.push(f);
        s
    });
    let e =
        visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default()).unwrap_err();
    assert!(e.to_string().contains("`break` outside a loop"), "{e}");
}
