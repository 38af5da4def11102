//! Constructs the IR cannot express, through the naga-IR oracle (`frontend::oracle`):
//! each is an error naming the construct, at the location naga gives (line and column
//! in WGSL and GLSL text, the instruction's word offset in SPIR-V), never a panic and
//! never a different program. (`spirv_refusals.rs` tests the front door's translator.)
//!
//! The expected location of each error is where the construct's text starts in the
//! source below, found by searching the source for it (the `at` argument), not by
//! asking the front end.

mod external;

use frontend::oracle::import;
use frontend::{ErrorKind, ImportError, Language, Location};

/// The 1-based line and column (in characters) of the first `marker` in `src`.
fn position(src: &str, marker: &str) -> Location {
    let off = src
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` is not in the source"));
    let before = &src[..off];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count() as u32
        + 1;
    Location::Text { line, column: col }
}

/// Imports `src`, expecting an Unsupported error whose message contains every one of
/// `says`, located at `at` in the source.
fn refuse(language: Language, src: &str, at: &str, says: &[&str]) -> ImportError {
    let e = import(src.as_bytes(), language, None).expect_err("the import must fail");
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    for s in says {
        assert!(e.message.contains(s), "`{}` does not say `{s}`", e.message);
    }
    assert_eq!(e.location, position(src, at), "{e}");
    e
}

/// A WGSL compute shader around `body`, with a sampled texture `t`, a sampler `s`, a
/// storage texture `img` and a storage buffer `buf`.
fn wgsl(decls: &str, body: &str) -> String {
    format!(
        "@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var img: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(3) var<storage, read_write> buf: array<f32>;
{decls}
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
    let uv = vec2<f32>(id.xy) / 16.0;
{body}
}}
"
    )
}

fn w(decls: &str, body: &str, at: &str, says: &[&str]) -> ImportError {
    refuse(Language::Wgsl, &wgsl(decls, body), at, says)
}

#[test]
fn filtered_sampling() {
    // (textureSample itself, with an implicit LOD, is naga's validation error in compute.)
    let body = "    textureStore(img, id.xy, textureSampleBaseClampToEdge(t, s, uv));";
    w(
        "",
        body,
        "textureSampleBaseClampToEdge(",
        &["filtered sampling", "textureLoad"],
    );
}

#[test]
fn sampling_at_a_level() {
    w(
        "",
        "    textureStore(img, id.xy, textureSampleLevel(t, s, uv, 0.0));",
        "textureSampleLevel(",
        &["filtered sampling"],
    );
}

#[test]
fn sampling_with_a_gradient() {
    w(
        "",
        "    textureStore(img, id.xy, textureSampleGrad(t, s, uv, uv, uv));",
        "textureSampleGrad(",
        &["filtered sampling"],
    );
}

#[test]
fn gather() {
    w(
        "",
        "    textureStore(img, id.xy, textureGather(0, t, s, uv));",
        "textureGather(",
        &["texture gather"],
    );
}

#[test]
fn depth_comparison() {
    let decls = "@group(1) @binding(0) var d: texture_depth_2d;\n@group(1) @binding(1) var sc: sampler_comparison;";
    let body = "    buf[id.x] = textureSampleCompareLevel(d, sc, uv, 0.5);";
    w(
        decls,
        body,
        "textureSampleCompareLevel(",
        &["depth-comparison sample"],
    );
}

#[test]
fn external_texture() {
    // Level counts and sizes at a level, refused here before, are imported now
    // (tests/level_queries.rs); these two constructs took their places.
    w(
        "@group(1) @binding(0) var ext: texture_external;",
        "    buf[id.x] = textureLoad(ext, id.xy).x;",
        "var ext: texture_external",
        &["external texture", "multi-plane"],
    );
}

#[test]
fn integer_packing() {
    w(
        "",
        "    buf[id.x] = f32(pack4xI8(vec4<i32>(id.xyzx)));",
        "pack4xI8(",
        &["`pack4xI8`", "no op"],
    );
}

#[test]
fn matrix_inverse_and_large_determinant() {
    // naga's WGSL reader has no `inverse`; a 4x4 determinant has no expansion here.
    let body = "    let m = mat4x4<f32>(vec4(uv, 1.0, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(0.0, 0.0, 1.0, 0.0), vec4(0.0, 0.0, 0.0, 1.0));\n    buf[id.x] = determinant(m);";
    w(
        "",
        body,
        "determinant(m)",
        &["`determinant` of a 4x4 matrix"],
    );
}

#[test]
fn packing_without_an_op() {
    let body = "    buf[id.x] = f32(pack4x8snorm(vec4(uv, uv)));";
    w("", body, "pack4x8snorm(", &["`pack4x8snorm`", "no op"]);
}

#[test]
fn ray_queries() {
    let src = "enable wgpu_ray_query;
@group(0) @binding(0) var acc: acceleration_structure;
@group(0) @binding(1) var<storage, read_write> buf: array<u32>;
@compute @workgroup_size(1)
fn main() {
    var rq: ray_query;
    rayQueryInitialize(&rq, acc, RayDesc(0u, 0xffu, 0.1, 100.0, vec3(0.0), vec3(0.0, 0.0, 1.0)));
    buf[0] = 1u;
}
";
    let e = import(src.as_bytes(), Language::Wgsl, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(
        e.message.contains("acceleration structure") || e.message.contains("ray query"),
        "{e}"
    );
    assert!(
        matches!(e.location, Location::Text { line: 2 | 7, .. }),
        "{e}"
    );
}

#[test]
fn bgra_storage_texture() {
    let src = "@group(0) @binding(0) var img: texture_storage_2d<bgra8unorm, write>;
@compute @workgroup_size(1)
fn main() {
    textureStore(img, vec2(0u), vec4(1.0));
}
";
    refuse(Language::Wgsl, src, "var img", &["Bgra8Unorm", "BGRA"]);
}

#[test]
fn double_precision_conversion() {
    let body = "    let x = f64(uv.x);\n    buf[id.x] = f32(x * x);";
    w(
        "",
        body,
        "f64(uv.x)",
        &["conversion from 32-bit Float to 64-bit Float"],
    );
}

#[test]
fn glsl_filtered_texture_read() {
    let src = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D dst;
void main() {
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / 64.0;
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), textureLod(sampler2D(tex, smp), uv, 0.0));
}
";
    refuse(Language::Glsl, src, "textureLod(", &["filtered sampling"]);
}

#[test]
fn glsl_nested_call_location() {
    let src = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D dst;
void main() {
    vec2 p = vec2(gl_GlobalInvocationID.xy);
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(inverse(mat2(p, p.yx))[0], 0.0, 1.0));
}
";
    // naga's GLSL reader gives a call nested in arguments the span of its own
    // argument: the line is the construct's, the column where that argument starts.
    let e = import(src.as_bytes(), Language::Glsl, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("`inverse`"), "{e}");
    assert_eq!(e.location, position(src, "mat2(p, p.yx)"), "{e}");
}

/// The SPIR-V opcode of the instruction starting at `word`.
fn opcode_at(spv: &[u8], word: u32) -> u16 {
    let i = word as usize * 4;
    u32::from_le_bytes(spv[i..i + 4].try_into().unwrap()) as u16
}

/// Compiles `glsl` with glslang and imports the SPIR-V, expecting an Unsupported error
/// that says `says`, located at an instruction whose opcode is `opcode` (numbers from
/// the SPIR-V specification, as the `spirv` crate lists them).
fn spv_refuse(glsl: &str, opcode: u16, says: &str) {
    if !have_glslang() {
        return;
    }
    let spv = glslang(glsl);
    let e = import(&spv, Language::SpirV, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(e.message.contains(says), "{e}");
    let Location::SpirV { word } = e.location else {
        panic!("{e}: not a SPIR-V location")
    };
    assert_eq!(opcode_at(&spv, word), opcode, "{e}: word {word}");
    assert!(
        e.to_string().starts_with(&format!("SPIR-V word {word}: ")),
        "{e}"
    );
}

const OP_EXT_INST: u16 = 12;
const OP_IMAGE_SAMPLE_EXPLICIT_LOD: u16 = 88;
const OP_MEMORY_BARRIER: u16 = 225;
const OP_GROUP_NON_UNIFORM_BROADCAST: u16 = 337;
const OP_GROUP_NON_UNIFORM_BALLOT: u16 = 339;
const OP_GROUP_NON_UNIFORM_FADD: u16 = 350;
const OP_VARIABLE: u16 = 59;

#[test]
fn spirv_filtered_sampling() {
    let src = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D dst;
void main() {
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / 64.0;
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), textureLod(sampler2D(tex, smp), uv, 0.0));
}
";
    spv_refuse(src, OP_IMAGE_SAMPLE_EXPLICIT_LOD, "filtered sampling");
}

#[test]
fn spirv_matrix_inverse() {
    let src = "#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D dst;
void main() {
    float x = float(gl_GlobalInvocationID.x) / 8.0;
    mat2 m = inverse(mat2(x, 1.0, 2.0, x));
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(m[0], 0.0, 1.0));
}
";
    spv_refuse(src, OP_EXT_INST, "`inverse`");
}

#[test]
fn spirv_memory_barrier_alone() {
    let src = "#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint s[64];
void main() {
    s[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
    memoryBarrierShared();
    data[gl_LocalInvocationIndex] = s[63 - gl_LocalInvocationIndex];
}
";
    spv_refuse(
        src,
        OP_MEMORY_BARRIER,
        "memory barrier without an execution barrier",
    );
}

const SUBGROUP_HEADER: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float data[]; };
void main() {
    float x = data[gl_GlobalInvocationID.x];
";

#[test]
fn spirv_subgroup_arithmetic() {
    let src = format!("{SUBGROUP_HEADER}    data[gl_GlobalInvocationID.x] = subgroupAdd(x);\n}}\n");
    spv_refuse(&src, OP_GROUP_NON_UNIFORM_FADD, "subgroup operation");
}

#[test]
fn spirv_subgroup_ballot() {
    let src = format!("{SUBGROUP_HEADER}    data[gl_GlobalInvocationID.x] = float(subgroupBallot(x > 0.5).x);\n}}\n");
    spv_refuse(&src, OP_GROUP_NON_UNIFORM_BALLOT, "subgroup ballot");
}

#[test]
fn spirv_subgroup_broadcast() {
    let src = format!(
        "{SUBGROUP_HEADER}    data[gl_GlobalInvocationID.x] = subgroupBroadcast(x, 3u);\n}}\n"
    );
    spv_refuse(&src, OP_GROUP_NON_UNIFORM_BROADCAST, "subgroup gather");
}

#[test]
fn spirv_subgroup_size() {
    let src = format!(
        "{SUBGROUP_HEADER}    data[gl_GlobalInvocationID.x] = float(gl_SubgroupSize);\n}}\n"
    );
    // naga makes the builtin an argument of the entry point, spanning its variable.
    spv_refuse(&src, OP_VARIABLE, "subgroup size");
}

/// Whether glslangValidator is here (required in CI).
fn have_glslang() -> bool {
    external::have("glslangValidator")
}

/// Compiles GLSL compute source to SPIR-V with glslang.
fn glslang(src: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("fe-unsupported-{}-{:p}", std::process::id(), src));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("s.comp");
    let output = dir.join("s.spv");
    std::fs::write(&input, src).unwrap();
    let r = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let spv = std::fs::read(&output).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    spv
}

#[test]
fn entry_points_are_chosen_by_name() {
    let src = "@group(0) @binding(0) var img: texture_storage_2d<r32uint, write>;
@compute @workgroup_size(1) fn a() { textureStore(img, vec2(0u), vec4(1u)); }
@compute @workgroup_size(1) fn b() { textureStore(img, vec2(1u), vec4(2u)); }
";
    let e = import(src.as_bytes(), Language::Wgsl, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::EntryPoint);
    assert!(
        e.message.contains("2 compute entry points (`a`, `b`)"),
        "{e}"
    );
    let e = import(src.as_bytes(), Language::Wgsl, Some("c")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::EntryPoint);
    assert!(e.message.contains("there is no entry point `c`"), "{e}");
    let s = import(src.as_bytes(), Language::Wgsl, Some("b")).unwrap();
    assert_eq!(s.entry, "b");
}

#[test]
fn hostile_input_is_an_error_not_a_panic() {
    // Truncated, random and wrong-magic SPIR-V, and garbage text.
    let mut words: Vec<u8> = vec![0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0];
    words.extend(std::iter::repeat_n(0xffu8, 64));
    for bytes in [&words[..], &words[..12], &[0u8; 40][..], b"\x00\x01\x02"] {
        let e = import(bytes, Language::SpirV, None).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Parse | ErrorKind::Invalid),
            "{e}"
        );
    }
    for text in [
        "@compute fn",
        "#version 450\nvoid main() { (((( }",
        "\u{0}\u{1}",
    ] {
        for lang in [Language::Wgsl, Language::Glsl] {
            let e = import(text.as_bytes(), lang, None).unwrap_err();
            assert!(
                matches!(e.kind, ErrorKind::Parse | ErrorKind::Invalid),
                "{e}"
            );
        }
    }
}

/// glslang's image atomics (`OpImageTexelPointer` on a pointer of the `Image` storage
/// class) are beyond naga's SPIR-V reader: the error says what the storage class is and
/// where such shaders can come in instead, not only naga's number.
#[test]
fn spirv_image_atomics_say_what_naga_lacks() {
    if !have_glslang() {
        return;
    }
    let spv = glslang(
        "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32ui) uniform uimage2D counts;
void main() {
  imageAtomicAdd(counts, ivec2(gl_GlobalInvocationID.xy), 1u);
}
",
    );
    let e = import(&spv, Language::SpirV, None).expect_err("naga cannot read it");
    assert_eq!(e.kind, ErrorKind::Parse, "{e}");
    for s in [
        "storage class",
        "Image storage class",
        "OpImageTexelPointer",
        "textureAtomic",
    ] {
        assert!(e.message.contains(s), "`{}` does not say `{s}`", e.message);
    }
}
