//! The imported programs compute what their source says: small shaders write results to
//! a storage buffer, the executor runs the imported IR, and the words are compared with
//! values worked out by hand from the WGSL and GLSL specifications.

mod common;

use frontend::{import, Language};
use verify::exec::{ExecConfig, Executor};

/// Imports `src`, runs `workgroups` workgroups with storage buffer 0 holding `words`
/// words (initially `init`), and returns the words afterwards.
fn run(language: Language, src: &str, workgroups: [u32; 3], init: &[u32]) -> Vec<u32> {
    let imported = import(src.as_bytes(), language, None).unwrap_or_else(|e| panic!("{e}"));
    common::run_words(&imported.shader, workgroups, init)
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

#[test]
fn subgroup_masks_and_barrier_follow_glsl() {
    // One subgroup of 8 lanes: lane i writes gl_SubgroupEqMask ... LtMask (five uvec4s)
    // and, after subgroupBarrier(), the value its neighbour i ^ 1 put in shared memory.
    let src = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Out { uvec4 m[]; } o;
shared uint s[8];
void main() {
    uint i = gl_LocalInvocationIndex;
    o.m[i * 6u + 0u] = gl_SubgroupEqMask;
    o.m[i * 6u + 1u] = gl_SubgroupGeMask;
    o.m[i * 6u + 2u] = gl_SubgroupGtMask;
    o.m[i * 6u + 3u] = gl_SubgroupLeMask;
    o.m[i * 6u + 4u] = gl_SubgroupLtMask;
    s[i] = i * 10u;
    subgroupBarrier();
    o.m[i * 6u + 5u] = uvec4(s[i ^ 1u], 0u, 0u, 0u);
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 8 * 6 * 4]);
    for i in 0..8u32 {
        let lanes = 0xffu32;
        let (bit, up) = (1u32 << i, 2u32 << i);
        let expect = [
            bit,
            !(bit - 1) & lanes,
            !(up - 1) & lanes,
            up - 1,
            bit - 1,
            (i ^ 1) * 10,
        ];
        for (k, e) in expect.iter().enumerate() {
            let at = (i as usize * 6 + k) * 4;
            assert_eq!(r[at..at + 4], [*e, 0, 0, 0], "lane {i}, value {k}");
        }
    }
}

#[test]
fn hyperbolic_functions_follow_their_definitions() {
    // Vulkan defines them by formulas of exp, log and sqrt (each within that formula's
    // error), so the values agree with the true ones to a few ULPs; tanh saturates to
    // exactly 1 past its clamp and keeps the sign of zero.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float v[]; } o;
void main() {
    float z = float(gl_LocalInvocationIndex);
    o.v[0] = sinh(1.0 + z);
    o.v[1] = cosh(1.0 + z);
    o.v[2] = tanh(0.5 + z);
    o.v[3] = tanh(20.0 + z);
    o.v[4] = tanh(-0.0 - z);
    o.v[5] = asinh(-2.0 + z);
    o.v[6] = acosh(2.0 + z);
    o.v[7] = atanh(0.5 + z);
    o.v[8] = tanh(-30.0 + z);
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 9]);
    let f = |k: usize| f32::from_bits(r[k]);
    let truth = [
        (0, 1.175_201_193_643_801_4),
        (1, 1.543_080_634_815_243_7),
        (2, 0.462_117_157_260_009_8),
        (5, -1.443_635_475_178_810_3),
        (6, 1.316_957_896_924_816_6),
        (7, 0.549_306_144_334_054_9),
    ];
    for (k, t) in truth {
        let got = f64::from(f(k));
        assert!(
            (got - t).abs() <= 4e-7 * t.abs(),
            "value {k}: {got} against {t}"
        );
    }
    assert_eq!(f(3), 1.0);
    assert_eq!(r[4], 0x8000_0000, "tanh(-0) is -0");
    assert_eq!(f(8), -1.0);
}

#[test]
fn bitcasts_split_and_join_the_bits_low_first() {
    // uint -> u8vec4 and back, u16vec2 -> uint, uint64 -> u16vec4: component 0 holds
    // the lowest bits.
    let src = "#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint v[]; } o;
void main() {
    uint x = 0x11223344u + gl_LocalInvocationIndex;
    u8vec4 b = unpack8(x);
    o.v[0] = uint(b.x); o.v[1] = uint(b.y); o.v[2] = uint(b.z); o.v[3] = uint(b.w);
    o.v[4] = pack32(u8vec4(b.w, b.z, b.y, b.x));
    o.v[5] = pack32(u16vec2(0xbeefus, 0xdeadus));
    u16vec4 h = unpack16(uint64_t(0x0123456789abcdeful) + uint64_t(gl_LocalInvocationIndex));
    o.v[6] = uint(h.x); o.v[7] = uint(h.w);
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 8]);
    assert_eq!(
        r,
        [
            0x44,
            0x33,
            0x22,
            0x11,
            0x4433_2211,
            0xdead_beef,
            0xcdef,
            0x0123
        ]
    );
}

#[test]
fn inverse_trigonometric_functions_take_mesas_polynomials() {
    // An independent model of Mesa's expansions (vtn_glsl450.c's build_asin,
    // nir_builtin_builder.c's nir_atan and nir_atan2) in binary64: the 32-bit results
    // agree with it to float rounding, and with the true values to the polynomials'
    // own error (asin's is 3.5e-4 at -0.9); a wrong quadrant, branch or sign would be
    // off by a large fraction of π.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float v[]; } o;
void main() {
    float z = float(gl_LocalInvocationIndex);
    o.v[0] = atan(0.5 + z);
    o.v[1] = atan(3.0 + z);
    o.v[2] = atan(-10.0 + z);
    o.v[3] = atan(1.0 + z, -1.0 + z);
    o.v[4] = atan(-1.0 + z, -1.0 + z);
    o.v[5] = atan(0.5 + z, 2.0 + z);
    o.v[6] = atan(3.0 + z, 0.0 + z);
    o.v[7] = asin(0.3 + z);
    o.v[8] = asin(-0.9 + z);
    o.v[9] = acos(0.3 + z);
    o.v[10] = acos(-0.9 + z);
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 11]);
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
    let atan = |y: f64| {
        let x = y.abs().min(1.0) / y.abs().max(1.0);
        let c = [
            0.999_979_312_831_035_5,
            -0.332_675_641_809_124_6,
            0.193_892_497_711_561,
            -0.117_350_319_478_685_1,
            0.053_681_378_431_040_6,
            -0.012_132_321_317_344_4,
        ];
        let t: f64 = (0..6).map(|k| c[k] * x.powi(2 * k as i32 + 1)).sum();
        let t = if y.abs() > 1.0 { FRAC_PI_2 - t } else { t };
        t.copysign(y)
    };
    let atan2 = |y: f64, x: f64| {
        let flip = x <= 0.0;
        let (s, t) = if flip { (x.abs(), y) } else { (y, x.abs()) };
        let tan = if x.abs() == y.abs() {
            1.0
        } else {
            (s / t).abs()
        };
        let arc = atan(tan) + if flip { FRAC_PI_2 } else { 0.0 };
        if y.min(1.0 / t) < 0.0 {
            -arc
        } else {
            arc
        }
    };
    let asin_tail = |x: f64, p0: f64, p1: f64| {
        let a = x.abs();
        let tail = FRAC_PI_2 + a * (FRAC_PI_4 - 1.0 + a * (p0 + a * p1));
        (FRAC_PI_2 - (1.0 - a).sqrt() * tail).copysign(x)
    };
    let asin = |x: f64| {
        if x.abs() < 0.5 {
            let x2 = x * x;
            let p = x2 * (0.166_665_866_97 + x2 * (-0.042_743_422_091 + x2 * -0.008_656_363_003));
            x + x * p / (1.0 + x2 * -0.706_629_633_9)
        } else {
            asin_tail(x, 0.086_566_724, -0.031_029_55)
        }
    };
    let acos = |x: f64| FRAC_PI_2 - asin_tail(x, 0.081_324_63, -0.023_633_18);
    let cases: [(f64, f64); 11] = [
        (atan(0.5), 0.5f64.atan()),
        (atan(3.0), 3f64.atan()),
        (atan(-10.0), (-10f64).atan()),
        (atan2(1.0, -1.0), 1f64.atan2(-1.0)),
        (atan2(-1.0, -1.0), (-1f64).atan2(-1.0)),
        (atan2(0.5, 2.0), 0.5f64.atan2(2.0)),
        (atan2(3.0, 0.0), 3f64.atan2(0.0)),
        (asin(0.3), 0.3f64.asin()),
        (asin(-0.9), (-0.9f64).asin()),
        (acos(0.3), 0.3f64.acos()),
        (acos(-0.9), (-0.9f64).acos()),
    ];
    for (k, (model, truth)) in cases.iter().enumerate() {
        let got = f64::from(f32::from_bits(r[k]));
        assert!(
            (got - model).abs() <= 2e-6,
            "value {k}: {got} against the model's {model}"
        );
        assert!(
            (got - truth).abs() <= 4e-4,
            "value {k}: {got} against {truth}"
        );
    }
}

#[test]
fn a_four_by_four_determinant_expands_by_its_first_column() {
    // Columns (2,0,0,1), (1,3,0,0), (0,1,4,0), (0,0,1,5): expanding along the first
    // column, 2·det[[3,1,0],[0,4,1],[0,0,5]] - 0 + 0 - 1·det[[1,0,0],[3,1,0],[0,4,1]]
    // = 2·60 - 1·1 = 119 (rows of each minor written as rows of the matrix).
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float v[]; } o;
void main() {
    float z = float(gl_LocalInvocationIndex);
    mat4 m = mat4(vec4(2.0 + z, 0.0, 0.0, 1.0), vec4(1.0, 3.0, 0.0, 0.0),
                  vec4(0.0, 1.0, 4.0, 0.0), vec4(0.0, 0.0, 1.0, 5.0));
    o.v[0] = determinant(m);
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0]);
    assert_eq!(f32::from_bits(r[0]), 119.0);
}

#[test]
fn matrix_inverses_are_the_adjugate_over_the_determinant() {
    // Matrices whose inverses are exact (integer cofactors over a determinant of -2, 1
    // or 2), written by rows:
    //   [[1, 3], [2, 4]]: det -2, inverse [[-2, 1.5], [1, -0.5]]
    //   [[1, 2, 0], [0, 1, 0], [0, 0, 1]]: det 1, inverse [[1, -2, 0], [0, 1, 0], [0, 0, 1]]
    //   [[1, 0, 0, 5], [0, 2, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]: det 2, inverse
    //   [[1, 0, 0, -5], [0, 0.5, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    // GLSL's constructors take columns; the results are written column by column.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float v[]; } o;
void main() {
    float z = float(gl_LocalInvocationIndex);
    mat2 a = inverse(mat2(vec2(1.0 + z, 2.0), vec2(3.0, 4.0)));
    mat3 b = inverse(mat3(vec3(1.0 + z, 0.0, 0.0), vec3(2.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0)));
    mat4 c = inverse(mat4(vec4(1.0 + z, 0.0, 0.0, 0.0), vec4(0.0, 2.0, 0.0, 0.0),
                          vec4(0.0, 0.0, 1.0, 0.0), vec4(5.0, 0.0, 0.0, 1.0)));
    for (int j = 0; j < 2; j++) for (int i = 0; i < 2; i++) o.v[j * 2 + i] = a[j][i];
    for (int j = 0; j < 3; j++) for (int i = 0; i < 3; i++) o.v[4 + j * 3 + i] = b[j][i];
    for (int j = 0; j < 4; j++) for (int i = 0; i < 4; i++) o.v[13 + j * 4 + i] = c[j][i];
}";
    let r = run(Language::Glsl, src, [1, 1, 1], &[0; 29]);
    let got: Vec<f32> = r.iter().map(|&w| f32::from_bits(w)).collect();
    #[rustfmt::skip]
    let want: [f32; 29] = [
        -2.0, 1.0, 1.5, -0.5,
        1.0, 0.0, 0.0, -2.0, 1.0, 0.0, 0.0, 0.0, 1.0,
        1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -5.0, 0.0, 0.0, 1.0,
    ];
    // Compared as numbers: a cofactor of 0 may be -0.
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(*g == w, "element {k}: {g} against {w}\n{got:?}");
    }
}

#[test]
fn modf_and_frexp_struct_results_through_both_translations() {
    // Worked by hand: 3.75 = 0.75 + 3 = 0.9375 * 2^2, -2.5 = -0.5 - 2 = -0.625 * 2^2,
    // 1024 = 0 + 1024 = 0.5 * 2^11; -0.0 keeps its sign in every float part.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    let xs = array<f32, 4>(3.75, -2.5, 1024.0, -0.0);
    for (var i = 0u; i < 4u; i++) {
        let x = xs[i + li];
        let m = modf(x);
        let f = frexp(x);
        out[4u * i] = bitcast<u32>(m.fract);
        out[4u * i + 1u] = bitcast<u32>(m.whole);
        out[4u * i + 2u] = bitcast<u32>(f.fract);
        out[4u * i + 3u] = bitcast<u32>(f.exp);
    }
}
";
    let expected = [
        0x3f40_0000,
        0x4040_0000,
        0x3f70_0000,
        2, // 3.75
        0xbf00_0000,
        0xc000_0000,
        0xbf20_0000,
        2, // -2.5
        0x0000_0000,
        0x4480_0000,
        0x3f00_0000,
        11, // 1024
        0x8000_0000,
        0x8000_0000,
        0x8000_0000,
        0, // -0.0
    ];
    assert_eq!(wgsl(src, 16), expected);
    let oracle = frontend::oracle::import(src.as_bytes(), Language::Wgsl, None)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        common::run_words(&oracle.shader, [1, 1, 1], &[0; 16]),
        expected
    );
}
