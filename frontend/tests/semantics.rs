//! The imported programs compute what their source says: small shaders write results to
//! a storage buffer, the executor runs the imported IR, and the words are compared with
//! values worked out by hand from the WGSL and GLSL specifications.

use frontend::{import, Language};
use verify::exec::{ExecConfig, Executor};

/// Imports `src`, runs `workgroups` workgroups with storage buffer 0 holding `words`
/// words (initially `init`), and returns the words afterwards.
fn run(language: Language, src: &str, workgroups: [u32; 3], init: &[u32]) -> Vec<u32> {
    let imported = import(src.as_bytes(), language, None).unwrap_or_else(|e| panic!("{e}"));
    let mut ex = Executor::with_config(
        &imported.shader,
        ExecConfig {
            subgroup_size: 8,
            ..ExecConfig::default()
        },
    );
    let bytes: Vec<u8> = init.iter().flat_map(|w| w.to_le_bytes()).collect();
    let buf = ex.memory.alloc("buf", bytes);
    ex.memory.bind_ssbo(0, buf);
    ex.run(workgroups).unwrap_or_else(|e| panic!("{e}"));
    ex.memory
        .allocation(buf)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn wgsl(src: &str, n: usize) -> Vec<u32> {
    run(Language::Wgsl, src, [1, 1, 1], &vec![0; n])
}

#[test]
fn integer_division_follows_wgsl() {
    // x / 0 = x, x % 0 = 0, i32::MIN / -1 = i32::MIN, i32::MIN % -1 = 0,
    // -7 / 2 = -3 (truncated), -7 % 2 = -1 (sign of the dividend).
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    let zero = i32(li);
    let m1 = zero - 1;
    let min = i32(-2147483647 + zero) - 1;
    out[0] = 7 / zero;
    out[1] = 7 % zero;
    out[2] = min / m1;
    out[3] = min % m1;
    out[4] = (-7 + zero) / 2;
    out[5] = (-7 + zero) % 2;
    out[6] = i32(9u / u32(zero));
    out[7] = i32(9u % u32(zero));
}";
    let r = wgsl(src, 8);
    let i = |v: i32| v as u32;
    assert_eq!(r, [7, 0, i(i32::MIN), 0, i(-3), i(-1), 9, 0]);
}

#[test]
fn loops_with_continuing_break_if_and_continue() {
    // i runs 0..; odd i skip the sum by `continue`, which still runs the continuing
    // block; `break if i >= 6` ends the loop: sum = 0 + 2 + 4 = 6, i = 6, steps = 6.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    var i = 0u;
    var sum = 0u;
    var steps = 0u;
    loop {
        if (i % 2u) == 1u { continue; }
        sum += i;
        continuing {
            i += 1u;
            steps += 1u;
            break if i >= 6u;
        }
    }
    out[0] = sum;
    out[1] = i;
    out[2] = steps;
}";
    assert_eq!(wgsl(src, 3), [6, 6, 6]);
}

#[test]
fn early_returns_in_loops_of_called_functions() {
    // first(k) returns the first j in 0..10 with j * j > k, or 99: first(10) = 4,
    // first(200) = 99. A return in the entry point skips the last store.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn first(k: u32) -> u32 {
    for (var j = 0u; j < 10u; j++) {
        if j * j > k { return j; }
    }
    return 99u;
}
@compute @workgroup_size(1)
fn main() {
    out[0] = first(10u);
    out[1] = first(200u);
    if out[0] == 4u { return; }
    out[2] = 1u;
}";
    assert_eq!(wgsl(src, 3), [4, 99, 0]);
}

#[test]
fn pointer_arguments_private_globals_and_local_arrays() {
    // bump adds 3 through a pointer to a local; a private counter counts the calls;
    // a local array written and read at run-time indices (3 - k).
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<private> calls: u32 = 10u;
fn bump(p: ptr<function, u32>) { *p += 3u; calls += 1u; }
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    var x = 1u;
    bump(&x);
    bump(&x);
    var a = array<u32, 4>(1u, 2u, 3u, 4u);
    for (var k = 0u; k < 4u; k++) { a[3u - k + li] = a[k] * 10u; }
    out[0] = x;
    out[1] = calls;
    out[2] = a[0];
    out[3] = a[1];
    out[4] = a[2];
    out[5] = a[3];
}";
    // a after k = 0: [1,2,3,10]; k = 1: a[2] = 20 -> [1,2,20,10]; k = 2: a[1] = 200;
    // k = 3: a[0] = a[3] * 10 = 100.
    assert_eq!(wgsl(src, 6), [7, 12, 100, 200, 20, 10]);
}

#[test]
fn glsl_switch_with_fall_through() {
    // case 1 falls into case 2; default runs for 5; case 3 breaks out.
    let src = "#version 450
layout(local_size_x = 6) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    uint r = 0u;
    switch (i) {
    case 1u: r += 10u;
    case 2u: r += 100u; break;
    case 3u: r = 7u; break;
    default: r = 1000u;
    }
    data[i] = r;
}
";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 6]);
    assert_eq!(r, [1000, 110, 100, 7, 1000, 1000]);
}

#[test]
fn atomics_and_workgroup_memory() {
    // 16 invocations: atomicAdd of 1 each to a storage counter (old values 0..15 in
    // some order, final 16); a workgroup max of the local index; WGSL zero-initializes
    // the workgroup variable; compare-exchange of 0 -> 5 succeeds once.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<atomic<u32>>;
var<workgroup> wmax: atomic<u32>;
var<workgroup> untouched: u32;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) li: u32) {
    let old = atomicAdd(&out[0], 1u);
    atomicMax(&wmax, li);
    workgroupBarrier();
    if li == 0u {
        atomicStore(&out[1], atomicLoad(&wmax));
        atomicStore(&out[2], untouched + 1u);
    }
    let r = atomicCompareExchangeWeak(&out[3], 0u, 5u);
    if r.exchanged { atomicAdd(&out[4], 1u); }
    atomicMax(&out[5], old);
}";
    let r = wgsl(src, 6);
    assert_eq!(r, [16, 15, 1, 5, 1, 15]);
}

#[test]
fn matrices() {
    // M = [[1, 2], [3, 4]] (columns); M * (1, 1) = (4, 6); (1, 1) * M = (3, 7);
    // det M = 1 * 4 - 3 * 2 = -2; transpose(M)[0] = (1, 3).
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    let one = 1.0 + f32(li);
    let m = mat2x2<f32>(vec2(one, 2.0), vec2(3.0, 4.0));
    let v = vec2(one, one);
    let a = m * v;
    let b = v * m;
    let t = transpose(m);
    out[0] = a.x; out[1] = a.y; out[2] = b.x; out[3] = b.y;
    out[4] = determinant(m); out[5] = t[0].x; out[6] = t[0].y;
}";
    let r: Vec<f32> = wgsl(src, 7).into_iter().map(f32::from_bits).collect();
    assert_eq!(r, [4.0, 6.0, 3.0, 7.0, -2.0, 1.0, 3.0]);
}

#[test]
fn bit_operations_follow_wgsl() {
    // extractBits(0xf0f0, 4, 8) = 0x0f; with offset + count past 32 it clamps:
    // extractBits(x, 28, 8) = x >> 28; countLeadingZeros(1) = 31,
    // countTrailingZeros(0) = 32, firstLeadingBit(-2i) = 0, reverseBits(1) = 1 << 31,
    // insertBits(0, 0xff, 4, 4) = 0xf0.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    let x = 0xf000f0f0u + li;
    out[0] = extractBits(x & 0xffffu, 4u, 8u);
    out[1] = extractBits(x, 28u, 8u);
    out[2] = countLeadingZeros(1u + li);
    out[3] = countTrailingZeros(li);
    out[4] = u32(firstLeadingBit(-2 + i32(li)));
    out[5] = reverseBits(1u + li);
    out[6] = insertBits(li, 0xffu, 4u, 4u);
    out[7] = u32(extractBits(i32(x), 28u, 4u));
}";
    // The last: bits 28..31 of 0xf000f0f0 are 0xf, sign-extended: -1.
    assert_eq!(
        wgsl(src, 8),
        [0x0f, 0xf, 31, 32, 0, 0x8000_0000, 0xf0, u32::MAX]
    );
}

#[test]
fn array_length_is_the_bound_size_past_the_fixed_part() {
    // Buffer 0 has 8 fixed bytes and 8-byte elements: bound with 11 words (44 bytes),
    // (44 - 8) / 8 = 4 elements (the partial one does not count). Buffer 1 is a bare
    // array of 4-byte elements; arrayLength of the 44 bytes is 11.
    let src = "struct Data { count: u32, pad: u32, values: array<vec2<u32>> }
@group(0) @binding(0) var<storage, read_write> data: Data;
@group(0) @binding(1) var<storage, read_write> plain: array<u32>;
@compute @workgroup_size(1)
fn main() {
    data.count = arrayLength(&data.values);
    data.pad = arrayLength(&plain);
}";
    let imported = import(src.as_bytes(), Language::Wgsl, None).unwrap_or_else(|e| panic!("{e}"));
    let decls: Vec<(u32, u32, Option<u32>)> = imported
        .shader
        .buffers
        .iter()
        .map(|d| (d.block, d.size, d.stride))
        .collect();
    assert_eq!(decls, [(0, 8, Some(8)), (1, 0, Some(4))]);
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    let buf = ex.memory.alloc("buf", vec![0; 44]);
    ex.memory.bind_ssbo(0, buf);
    ex.memory.bind_ssbo(1, buf);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let b = &ex.memory.allocation(buf).bytes;
    assert_eq!(&b[..8], &[4, 0, 0, 0, 11, 0, 0, 0]);
    // A buffer bound smaller than the fixed part holds no element.
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    let small = ex.memory.alloc("small", vec![0; 8]);
    let other = ex.memory.alloc("other", vec![0; 4]);
    ex.memory.bind_ssbo(0, small);
    ex.memory.bind_ssbo(1, other);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        &ex.memory.allocation(small).bytes[..8],
        &[0, 0, 0, 0, 1, 0, 0, 0]
    );
}
