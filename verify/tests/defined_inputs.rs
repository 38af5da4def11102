//! `verify` on a shader the random contents make undefined: it retries on the simpler
//! contents of `verify::defined_inputs` and names them.

use verify::cli::{RunOptions, VerifyOptions};

/// A 16-byte buffer read at the dword a push constant and a uniform buffer name,
/// the sum stored back at dword 0: out of range on random contents.
const PUSHED_INDEX: &str = "shader compute (local_size=1,1,1)
buffer @data : ssbo (block=0, size=16)
buffer @params : ubo (block=0, size=16)
fn main {
  block b0:
    32   %0 = load_const (0)
    32   %1 = load_const (4)
    32   %2 = @load_push_constant (%0) (base=0, range=4)
    32   %3 = @load_ubo (%0, %0) (access=none, align_mul=4)
    32   %4 = iadd %2, %3
    32   %5 = imul %4, %1
    32   %6 = @load_ssbo (%0, %5) (access=none, align_mul=4)
    @store_ssbo (%6, %0, %0) (access=none, align_mul=4)
}
";

/// Where the random contents make the original read out of range, `verify` runs on
/// simpler ones and says so; a shader out of range on every input still fails.
#[test]
fn verify_retries_contents_the_original_is_defined_on() {
    let o = RunOptions {
        target: Some("dg2".into()),
        ..RunOptions::default()
    };
    let v = VerifyOptions::default();
    let text = verify::cli::verify("t.ir", PUSHED_INDEX, &o, &v).unwrap();
    // Dwords 1: index 1 + 1 = 2, byte 8 of 16.
    assert!(
        text.contains("(on push constants and uniform buffers of dwords 1: the original shader fails or writes no memory on random contents)"),
        "{text}"
    );
    // An index given with --push stays: 3 + 1 = dword 4 is out of range with the
    // uniform buffer of ones, in range (3) with it zero.
    let pushed = RunOptions {
        push: vec!["0=3".into()],
        ..o.clone()
    };
    let text = verify::cli::verify("t.ir", PUSHED_INDEX, &pushed, &v).unwrap();
    assert!(
        text.contains("(on push constants and uniform buffers zero:"),
        "{text}"
    );
    let always = PUSHED_INDEX.replace("%5 = imul %4, %1", "%5 = iadd %1, %1");
    let always = always.replace("load_const (4)", "load_const (64)");
    let e = verify::cli::verify("t.ir", &always, &o, &v)
        .unwrap_err()
        .to_string();
    assert!(e.contains("the original shader failed"), "{e}");
}

/// A store only where a uniform-buffer dword is 1: on random contents no invocation
/// writes anything, which proves nothing, so `verify` retries as if the original had
/// failed; where no contents make it write, it says that little was compared.
#[test]
fn verify_retries_contents_on_which_the_shader_writes_nothing() {
    let gated = |expected: u32| {
        format!(
            "shader compute (local_size=1,1,1)
buffer @data : ssbo (block=0, size=16)
buffer @params : ubo (block=0, size=16)
fn main {{
  block b0:
    32   %0 = load_const (0)
    32   %1 = load_const ({expected})
    32   %2 = @load_ubo (%0, %0) (access=none, align_mul=4)
    1    %3 = ieq %2, %1
  if %3 {{
    block b1:
      @store_ssbo (%1, %0, %0) (access=none, align_mul=4)
  }} else {{
    block b2:
  }}
  block b3:
}}
"
        )
    };
    let o = RunOptions {
        target: Some("dg2".into()),
        ..RunOptions::default()
    };
    let v = VerifyOptions::default();
    let text = verify::cli::verify("t.ir", &gated(1), &o, &v).unwrap();
    assert!(
        text.contains("(on push constants and uniform buffers of dwords 1: the original shader fails or writes no memory on random contents)"),
        "{text}"
    );
    let text = verify::cli::verify("t.ir", &gated(12345), &o, &v).unwrap();
    assert!(text.contains("(no invocation wrote memory"), "{text}");
}
