//! Large private arrays indexed at run time live in scratch memory: a `Private` array,
//! a `Function` array reached through a function's `inout` parameter, and arrays of
//! vectors and structs, read and written at indices the invocation computes. The
//! executor runs the imported IR; the words are compared with a model of the GLSL
//! written here in Rust. Small arrays stay in registers.

mod common;

use frontend::{import, Language};
use ir::IntrinsicOp;

const SHADER: &str = r#"#version 450
layout(local_size_x = 16) in;
layout(binding = 0) buffer B { uint data[]; } buf;
struct Cell { uint key; vec2 weight; };
uint hist[64];
void bump(inout uint a[20], uint k) { a[k % 20u] += k; }
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint local_[20];
    Cell cells[24];
    uint small[8];
    for (uint i = 0u; i < 64u; i++) hist[i] = i * g;
    for (uint i = 0u; i < 20u; i++) local_[i] = i + 100u;
    for (uint i = 0u; i < 24u; i++) cells[i] = Cell(i ^ g, vec2(float(i), 0.5));
    for (uint i = 0u; i < 8u; i++) small[i] = i * 3u + g;
    for (uint i = 0u; i < buf.data[64]; i++) {
        uint k = (g * 13u + i * 7u) % 64u;
        hist[k] += 1u;
        bump(local_, k);
        cells[k % 24u].weight.y += 1.0;
        small[k % 8u] += 2u;
    }
    Cell c = cells[(g * 5u) % 24u];
    buf.data[g] = hist[(g * 5u) % 64u] + local_[g % 20u] + small[g % 8u]
        + c.key + uint(c.weight.x + c.weight.y * 2.0);
}
"#;

/// What `SHADER` writes for invocation `g` after `rounds` rounds.
fn model(g: u32, rounds: u32) -> u32 {
    let mut hist: Vec<u32> = (0..64).map(|i| i * g).collect();
    let mut local: Vec<u32> = (0..20).map(|i| i + 100).collect();
    let mut cells: Vec<(u32, f32, f32)> = (0..24).map(|i| (i ^ g, i as f32, 0.5)).collect();
    let mut small: Vec<u32> = (0..8).map(|i| i * 3 + g).collect();
    for i in 0..rounds {
        let k = (g * 13 + i * 7) % 64;
        hist[k as usize] += 1;
        local[(k % 20) as usize] += k;
        cells[(k % 24) as usize].2 += 1.0;
        small[(k % 8) as usize] += 2;
    }
    let c = cells[((g * 5) % 24) as usize];
    hist[((g * 5) % 64) as usize]
        + local[(g % 20) as usize]
        + small[(g % 8) as usize]
        + c.0
        + (c.1 + c.2 * 2.0) as u32
}

#[test]
fn large_arrays_indexed_at_run_time_compute_in_scratch() {
    let imported =
        import(SHADER.as_bytes(), Language::Glsl, None).unwrap_or_else(|e| panic!("{e}"));
    let shader = &imported.shader;
    // hist (256 bytes), local_ and bump's copy of it (80 each), cells (24 * 16): small
    // stays in registers.
    assert_eq!(shader.scratch_size, 256 + 80 + 80 + 24 * 16, "{shader}");
    let f = &shader.functions[0];
    let count = |op| {
        f.insts_in_order()
            .into_iter()
            .filter(|&i| f.inst(i).as_intrinsic().is_some_and(|x| x.op == op))
            .count()
    };
    assert!(count(IntrinsicOp::LoadScratch) > 0 && count(IntrinsicOp::StoreScratch) > 0);
    for rounds in [0u32, 5, 9] {
        let mut init = vec![0u32; 65];
        init[64] = rounds;
        let words = common::run_words(shader, [2, 1, 1], &init);
        for g in 0..32 {
            assert_eq!(
                words[g as usize],
                model(g, rounds),
                "invocation {g}, {rounds} rounds"
            );
        }
    }
}

#[test]
fn arrays_of_at_most_sixteen_elements_and_constant_indices_stay_in_registers() {
    let src = r#"#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { uint data[]; } buf;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint a[16];
    uint b[40];
    for (uint i = 0u; i < 16u; i++) a[i] = i * g;
    b[3] = g; b[39] = 2u * g;
    buf.data[g] = a[g % 16u] + b[3] + b[39];
}
"#;
    let imported = import(src.as_bytes(), Language::Glsl, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.shader.scratch_size, 0, "{}", imported.shader);
}

/// `frontend/tests/scratch/NAME.spvasm` assembled by `spirv-as`; `None` (with a note)
/// when it is not installed outside CI.
fn assemble(name: &str) -> Option<Vec<u8>> {
    let have = std::process::Command::new("spirv-as")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(std::env::var_os("CI").is_none(), "CI needs spirv-as");
        eprintln!("spirv-as is not installed: {name} is skipped");
        return None;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scratch");
    let out = std::env::temp_dir().join(format!("scratch-{}-{name}.spv", std::process::id()));
    let r = std::process::Command::new("spirv-as")
        .arg(dir.join(format!("{name}.spvasm")))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let spv = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    Some(spv)
}

#[test]
fn arrays_of_explicit_layout_stay_in_registers_and_uncalled_functions_take_no_scratch() {
    // `explicit_layout_base`: `float p[20]; uint q[20];` (Private), both indexed at run
    // time; in `explicit_layout_stride` the type of `p` is the uniform block's array,
    // with `ArrayStride 16`, which the accesses would follow: `p` stays promoted.
    let (Some(base), Some(stride), Some(unused)) = (
        assemble("explicit_layout_base"),
        assemble("explicit_layout_stride"),
        assemble("unused_function"),
    ) else {
        return;
    };
    let import = |b: &[u8]| {
        frontend::import(b, Language::SpirV, None)
            .unwrap_or_else(|e| panic!("{e}"))
            .shader
    };
    let (base, stride) = (import(&base), import(&stride));
    assert_eq!(base.scratch_size, 160);
    assert_eq!(stride.scratch_size, 80);
    // s = sum over i of uint(p[(i + g) % 20]) * (i + 1) + q[(i * 3 + g) % 20], with
    // p[j] = j but p[g] = 55, q[j] = 1000 + j.
    let expected: Vec<u32> = (0..8u32)
        .map(|g| {
            (0..20u32)
                .map(|i| {
                    let j = (i + g) % 20;
                    let p = if j == g { 55 } else { j };
                    p * (i + 1) + 1000 + (i * 3 + g) % 20
                })
                .sum()
        })
        .collect();
    assert_eq!(common::run_words(&base, [1, 1, 1], &[0; 8]), expected);
    assert_eq!(common::run_words(&stride, [1, 1, 1], &[0; 8]), expected);
    // A function nobody calls holds `uint big[1000]` indexed at run time: only the
    // entry point's call tree gets scratch.
    assert_eq!(import(&unused).scratch_size, 80);
}
