//! The SPIR-V translator on modules from glslang and hand-assembled ones: specialization
//! (defaults and values given, `OpSpecConstantOp`, the workgroup size), texel buffers,
//! image atomics through texel pointers, `OpPhi` and unstructured control flow, errors
//! with their source lines or disassembly, hostile modules, and `precise`. Expected values are
//! worked out by hand from the GLSL and SPIR-V specifications.

use frontend::{import_with, ErrorKind, Language, Location, Options, SpecMap, SpecValue};
use std::process::Command;
use verify::exec::{ExecConfig, Executor};

mod external;
use external::have;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("spirv-test-{}-{name}", std::process::id()))
}

/// glslang's SPIR-V of `src` (Vulkan 1.2), with debug lines if `debug`.
fn glslang(src: &str, debug: bool, name: &str) -> Vec<u8> {
    glslang_with(src, if debug { &["-g"] } else { &[] }, name)
}

/// glslang's SPIR-V of `src` (Vulkan 1.2) with the options `flags`.
fn glslang_with(src: &str, flags: &[&str], name: &str) -> Vec<u8> {
    let (i, o) = (temp(&format!("{name}.comp")), temp(&format!("{name}.spv")));
    std::fs::write(&i, src).unwrap();
    let mut cmd = Command::new("glslangValidator");
    cmd.args(["-V", "--target-env", "vulkan1.2", "-S", "comp"]);
    let r = cmd.args(flags).arg(&i).arg("-o").arg(&o).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let b = std::fs::read(&o).unwrap();
    let _ = std::fs::remove_file(i);
    let _ = std::fs::remove_file(o);
    b
}

/// spirv-as's binary of assembly `src` (SPIR-V 1.3).
fn assemble(src: &str, name: &str) -> Vec<u8> {
    let (i, o) = (
        temp(&format!("{name}.spvasm")),
        temp(&format!("{name}.spv")),
    );
    std::fs::write(&i, src).unwrap();
    let r = Command::new("spirv-as")
        .args(["--target-env", "spv1.3"])
        .arg(&i)
        .arg("-o")
        .arg(&o)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let b = std::fs::read(&o).unwrap();
    let _ = std::fs::remove_file(i);
    let _ = std::fs::remove_file(o);
    b
}

/// `shader` verifies with 0 mismatches on each of `targets`.
fn verifies_on(shader: &ir::Shader, targets: &[&str]) {
    for target in targets {
        let o = verify::cli::RunOptions {
            target: Some(target.to_string()),
            ..Default::default()
        };
        let v = verify::cli::verify_shader(shader, &o, &verify::cli::VerifyOptions::default())
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(v.contains(" 0 mismatches"), "{target}: {v}");
    }
}

/// Imports `spv` with `spec`, runs one workgroup with storage buffer 0 of `n` zero
/// words, and returns the words and the workgroup size.
fn run(spv: &[u8], spec: &[(u32, SpecValue)], n: usize) -> (Vec<u32>, [u32; 3]) {
    let options = Options {
        spec: spec.iter().copied().collect::<SpecMap>(),
        ..Options::default()
    };
    let imported = import_with(spv, Language::SpirV, &options).unwrap_or_else(|e| panic!("{e}"));
    let mut ex = Executor::with_config(
        &imported.shader,
        ExecConfig {
            subgroup_size: 8,
            ..ExecConfig::default()
        },
    );
    let buf = ex.memory.alloc("buf", vec![0; 4 * n]);
    ex.memory.bind_ssbo(0, buf);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let words = ex
        .memory
        .allocation(buf)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (words, imported.shader.local_size)
}

const SPEC: &str = "#version 450
layout(local_size_x_id = 0, local_size_y = 2) in;
layout(constant_id = 1) const uint K = 3u;
layout(constant_id = 2) const float F = 1.5;
layout(constant_id = 3) const bool B = false;
layout(constant_id = 4) const int S = -7;
const uint K2 = K * 2u + 1u;
const uint KS = (K << 3u) | (K >> 1u) ^ 5u;
const int SD = S / 2 - S % 3;
const bool BK = B || K > 4u;
const uint SEL = B ? K : 100u;
const uint CONV = uint(S) + uint(K == 10u);
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
    if (gl_LocalInvocationIndex == 0u) {
        o[0] = K; o[1] = K2; o[2] = floatBitsToUint(F); o[3] = uint(B);
        o[4] = KS; o[5] = uint(SD); o[6] = uint(BK); o[7] = SEL; o[8] = CONV;
        o[9] = gl_WorkGroupSize.x;
    }
}
";

#[test]
fn specialization_takes_defaults_and_given_values() {
    if !have("glslangValidator") {
        return;
    }
    let spv = glslang(SPEC, false, "spec");
    // Defaults: K = 3, F = 1.5, B = false, S = -7; local_size_x_id's default is 1.
    // K2 = 7; KS = 24 | (1 ^ 5) = 28 (^ binds tighter than |); SD = -7/2 - (-7 % 3)
    // = -3 - 2 = -5 (division truncates; glslang writes `%` as OpSMod, whose result
    // takes the divisor's sign); BK = false; SEL = 100; CONV = 2^32 - 7 + 0.
    let (w, ls) = run(&spv, &[], 10);
    assert_eq!(ls, [1, 2, 1]);
    assert_eq!(
        w,
        [
            3,
            7,
            1.5f32.to_bits(),
            0,
            28,
            (-5i32) as u32,
            0,
            100,
            (-7i32) as u32,
            1
        ]
    );
    // Specialized: K = 10, F = 2.5, B = true, S = 9, x = 64.
    // K2 = 21; KS = 80 | (5 ^ 5) = 80; SD = 4 - 0 = 4; BK = true; SEL = 10;
    // CONV = 9 + 1 = 10.
    let spec = [
        (0, SpecValue::Int(64)),
        (1, SpecValue::Int(10)),
        (2, SpecValue::Float(2.5)),
        (3, SpecValue::Bool(true)),
        (4, SpecValue::Int(9)),
    ];
    let (w, ls) = run(&spv, &spec, 10);
    assert_eq!(ls, [64, 2, 1]);
    assert_eq!(w, [10, 21, 2.5f32.to_bits(), 1, 80, 4, 1, 10, 10, 64]);
    // A value that does not fit its constant is an error naming it.
    let options = Options {
        spec: [(3, SpecValue::Int(2))].into_iter().collect(),
        ..Options::default()
    };
    let e = import_with(&spv, Language::SpirV, &options).unwrap_err();
    assert!(e.message.contains("specialization constant 3"), "{e}");
    // Ids no constant has are ignored, as Vulkan ignores them.
    let (w, _) = run(&spv, &[(77, SpecValue::Int(1))], 10);
    assert_eq!(w[0], 3);
}

#[test]
fn texel_buffers_and_image_atomics_import_and_verify() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 8) in;
layout(binding = 0) uniform usamplerBuffer src;
layout(binding = 1, r32ui) uniform uimageBuffer dst;
layout(binding = 2, r32ui) uniform uimage2D counts;
layout(binding = 3, r32i) uniform iimage2DArray lay;
void main() {
    int i = int(gl_GlobalInvocationID.x);
    uint v = texelFetch(src, i).x;
    imageStore(dst, i, uvec4(v * 3u + uint(textureSize(src))));
    uint old = imageAtomicAdd(counts, ivec2(i % 4, 0), 1u);
    imageAtomicMax(counts, ivec2(i % 4, 1), old + v);
    imageAtomicCompSwap(counts, ivec2(0, 2), 0u, uint(i) + 1u);
    imageAtomicExchange(lay, ivec3(i % 3, 0, 1), -i);
    imageAtomicMin(lay, ivec3(i % 3, 1, 2), i - 4);
}
";
    let spv = glslang(src, false, "texel");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let s = &imported.shader;
    let dims: Vec<String> = s
        .images
        .iter()
        .map(|d| format!("{} {} {} {}", d.name, d.dim.name(), d.format, d.access))
        .collect();
    assert_eq!(
        dims,
        [
            "src buffer unknown readonly|sampled",
            "dst buffer r32_uint none",
            "counts 2d r32_uint none",
            "lay 2d r32_sint none"
        ]
    );
    verifies_on(s, &["dg2", "tgl", "bdw"]);
}

#[test]
fn errors_point_into_the_glsl_or_show_the_instruction() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 8) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1, rgba8) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = textureGrad(tex, vec2(p) / 64.0, vec2(0.1), vec2(0.1));
    imageStore(dst, p, c);
}
";
    // Through the front door: the GLSL line of the sample.
    let e = frontend::import(src.as_bytes(), Language::Glsl, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("with Grad"), "{e}");
    assert!(matches!(e.location, Location::Text { line: 7, .. }), "{e}");
    let shown = e.render("x.comp", Some(src));
    assert!(shown.contains("7 |     vec4 c = textureGrad"), "{shown}");
    // A SPIR-V module with debug lines: the word, the disassembly and the file's line.
    let spv = glslang(src, true, "errg");
    let e = frontend::import(&spv, Language::SpirV, None).unwrap_err();
    let Location::SpirV { word } = e.location else {
        panic!("{e}")
    };
    let site = e.spirv.as_deref().unwrap();
    assert!(
        site.disassembly.contains("OpImageSampleExplicitLod %"),
        "{site:?}"
    );
    let pos = site.source.as_ref().unwrap();
    assert_eq!(pos.line, 7, "{pos:?}");
    assert!(pos.file.ends_with("errg.comp"), "{pos:?}");
    let opcode = u32::from_le_bytes(spv[4 * word as usize..][..4].try_into().unwrap()) & 0xffff;
    assert_eq!(opcode, 88, "word {word} is not OpImageSampleExplicitLod");
    // NonSemantic.Shader.DebugInfo.100's DebugLine (`-gVS`), which glslang writes in
    // function bodies instead of OpLine: the same line.
    let spv = glslang_with(src, &["-gVS"], "errgvs");
    let e = frontend::import(&spv, Language::SpirV, None).unwrap_err();
    let pos = e.spirv.as_deref().and_then(|s| s.source.as_ref()).unwrap();
    assert_eq!(pos.line, 7, "{pos:?}");
    assert!(pos.file.ends_with("errgvs.comp"), "{pos:?}");
    // Without debug lines: the word and the instruction, never a made-up line.
    let spv = glslang(src, false, "err");
    let e = frontend::import(&spv, Language::SpirV, None).unwrap_err();
    let shown = e.render("x.spv", None);
    assert!(shown.contains(" --> x.spv: word "), "{shown}");
    assert!(shown.contains("= OpImageSampleExplicitLod %"), "{shown}");
    // No `x.spv:LINE`: a binary file has no lines.
    assert!(
        !shown
            .split("x.spv:")
            .skip(1)
            .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit())),
        "{shown}"
    );
}

/// A module with `OpPhi`, a loop whose continue target has two predecessors, and a
/// switch with fall-through, assembled by hand: sum 0..n of i, where odd i count
/// twice (case 1 falls into the default), n = 6 -> 0+2+4 + 2*(1+3+5) = 24.
const PHI: &str = "
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Out Block
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %arr ArrayStride 4
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
        %arr = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %arr
       %pOut = OpTypePointer StorageBuffer %Out
       %pu32 = OpTypePointer StorageBuffer %uint
        %out = OpVariable %pOut StorageBuffer
         %u0 = OpConstant %uint 0
         %u1 = OpConstant %uint 1
         %u2 = OpConstant %uint 2
         %u6 = OpConstant %uint 6
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %u0 %entry %inext %cont
        %sum = OpPhi %uint %u0 %entry %snext %cont
       %more = OpULessThan %bool %i %u6
               OpLoopMerge %exit %cont None
               OpBranchConditional %more %body %exit
       %body = OpLabel
        %odd = OpUMod %uint %i %u2
               OpSelectionMerge %sw_merge None
               OpSwitch %odd %default 1 %case1
      %case1 = OpLabel
         %s1 = OpIAdd %uint %sum %i
               OpBranch %default
    %default = OpLabel
         %s2 = OpPhi %uint %sum %body %s1 %case1
         %s3 = OpIAdd %uint %s2 %i
               OpBranch %sw_merge
   %sw_merge = OpLabel
       %zero = OpIEqual %bool %i %u0
               OpSelectionMerge %if_merge None
               OpBranchConditional %zero %skip %if_merge
       %skip = OpLabel
               OpBranch %cont
   %if_merge = OpLabel
               OpBranch %cont
       %cont = OpLabel
      %snext = OpPhi %uint %sum %skip %s3 %if_merge
      %inext = OpIAdd %uint %i %u1
               OpBranch %header
       %exit = OpLabel
          %p = OpAccessChain %pu32 %out %u0 %u0
               OpStore %p %sum
               OpReturn
               OpFunctionEnd
";

#[test]
fn phis_loops_and_fall_through_assembled_by_hand() {
    if !have("spirv-as") {
        return;
    }
    let spv = assemble(PHI, "phi");
    let (w, _) = run(&spv, &[], 1);
    assert_eq!(w, [24]);
}

#[test]
fn unstructured_control_flow_is_an_error_naming_the_block() {
    if !have("spirv-as") {
        return;
    }
    // A branch back to a block that is not a loop header.
    let src = PHI.replace(
        "       %skip = OpLabel\n               OpBranch %cont",
        "       %skip = OpLabel\n               OpBranch %body",
    );
    let spv = assemble(&src, "unstructured");
    let e = frontend::import(&spv, Language::SpirV, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("not structured"), "{e}");
}

#[test]
fn an_atomic_with_a_vector_result_is_an_error() {
    if !have("spirv-as") {
        return;
    }
    // Found by the `spirv_import` fuzz target: an increment whose result type is a
    // vector made the translator build a one-component constant of four components.
    let src = PHI
        .replace(
            "       %uint = OpTypeInt 32 0\n",
            "       %uint = OpTypeInt 32 0\n      %uint4 = OpTypeVector %uint 4\n",
        )
        .replace(
            "               OpStore %p %sum\n",
            "               OpStore %p %sum\n        %inc = OpAtomicIIncrement %uint4 %p %u1 %u0\n",
        );
    let spv = assemble(&src, "atomic_vector");
    let e = frontend::import(&spv, Language::SpirV, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("not a scalar"), "{e}");
}

#[test]
fn truncated_and_corrupted_modules_are_errors_not_panics() {
    if !have("glslangValidator") {
        return;
    }
    let spv = glslang(SPEC, true, "hostile");
    for len in (0..spv.len()).step_by(4) {
        let r = frontend::import(&spv[..len], Language::SpirV, None);
        assert!(r.is_err(), "{len} bytes of {} import", spv.len());
    }
    // Every word changed in turn, a few ways: an error or a shader, never a panic.
    let words = spv.len() / 4;
    for w in 5..words {
        for x in [0u32, 1, 0xffff_ffff, 0x0001_0000, 0x7fff] {
            let mut b = spv.clone();
            b[4 * w..4 * w + 4].copy_from_slice(&x.to_le_bytes());
            let _ = frontend::import(&b, Language::SpirV, None);
        }
    }
}

#[test]
fn non_uniform_reaches_the_accesses_it_indexes() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8) in;
layout(binding = 0, r32ui) uniform readonly uimage2D imgs[4];
layout(binding = 1, r32ui) uniform uimage2D cnt[2];
layout(std430, binding = 2) buffer B { uint d[]; } bufs[2];
layout(std430, binding = 3) buffer O { uint o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    uint v = imageLoad(imgs[nonuniformEXT(i % 4u)], ivec2(i, 0)).x;
    imageAtomicAdd(cnt[nonuniformEXT(i & 1u)], ivec2(0, 0), 1u);
    uint w = bufs[nonuniformEXT(i >> 3)].d[i];
    o[i] = v + w + imageLoad(imgs[1], ivec2(0, i)).x;
}
";
    let spv = glslang(src, false, "nonuniform");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let text = ir::print_shader(&imported.shader);
    let line = |what: &str| -> Vec<&str> { text.lines().filter(|l| l.contains(what)).collect() };
    // The two image reads: the one indexed with nonuniformEXT says so, the constant
    // index does not.
    let loads = line("@image_load");
    assert_eq!(loads.len(), 2, "{text}");
    assert_eq!(
        loads.iter().filter(|l| l.contains("non_uniform")).count(),
        1,
        "{text}"
    );
    let atomics = line("@image_atomic");
    assert!(
        atomics.len() == 1 && atomics[0].contains("non_uniform"),
        "{text}"
    );
    // The buffer array's load, not the store to the single buffer. (Its index is 0 on
    // the 8 lanes run here: verify binds the first element of a buffer array.)
    let ssbo: Vec<&str> = line("@load_ssbo");
    assert!(ssbo.iter().any(|l| l.contains("non_uniform")), "{text}");
    assert!(
        line("@store_ssbo")
            .iter()
            .all(|l| !l.contains("non_uniform")),
        "{text}"
    );
    // Lowered (one pass per distinct index) and run against the original.
    verifies_on(&imported.shader, &["dg2", "tgl"]);
}

#[test]
fn array_length_reads_the_bound_size_and_buffers_are_declared() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { uint count; uint pad; uvec2 values[]; } data;
layout(std430, binding = 1) buffer Plain { uint words[]; };
layout(std140, binding = 2) uniform Params { uvec4 p; } params;
void main() {
    data.count = uint(data.values.length());
    data.pad = uint(words.length()) + params.p.x;
}
";
    let spv = glslang(src, false, "array_length");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    // Data: 8 fixed bytes, then 8-byte elements; Plain (an anonymous block: the block's
    // name) a bare array of words; Params a 16-byte uniform block.
    let decls: Vec<String> = imported
        .shader
        .buffers
        .iter()
        .map(|d| {
            format!(
                "{} {} {} {} {:?}",
                d.name, d.kind, d.block, d.size, d.stride
            )
        })
        .collect();
    assert_eq!(
        decls,
        [
            "data ssbo 0 8 Some(8)",
            "Plain ssbo 1 0 Some(4)",
            "params ubo 0 16 None"
        ]
    );
    let text = ir::print_shader(&imported.shader);
    assert!(text.contains("@get_ssbo_size"), "{text}");
    // Bound with 44 bytes each: (44 - 8) / 8 = 4 elements (the partial one does not
    // count) and 44 / 4 = 11 words; params.p.x = 0.
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    let a = ex.memory.alloc("a", vec![0; 44]);
    let b = ex.memory.alloc("b", vec![0; 44]);
    let u = ex.memory.alloc("u", vec![0; 16]);
    ex.memory.bind_ssbo(0, a);
    ex.memory.bind_ssbo(1, b);
    ex.memory.bind_ubo(0, u);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        &ex.memory.allocation(a).bytes[..8],
        &[4, 0, 0, 0, 11, 0, 0, 0]
    );
    // A buffer smaller than the fixed part holds no element, not a wrapped count.
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    let a = ex.memory.alloc("a", vec![0; 8]);
    let b = ex.memory.alloc("b", vec![0; 4]);
    let u = ex.memory.alloc("u", vec![0; 16]);
    ex.memory.bind_ssbo(0, a);
    ex.memory.bind_ssbo(1, b);
    ex.memory.bind_ubo(0, u);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        &ex.memory.allocation(a).bytes[..8],
        &[0, 0, 0, 0, 1, 0, 0, 0]
    );
}

#[test]
fn storage_images_without_a_format_are_unknown_and_verify() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform image2D img;
layout(binding = 1) uniform writeonly uimage2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 v = imageLoad(img, p);
    imageStore(img, p, v * 0.5 + vec4(0.25));
    imageStore(dst, p, uvec4(p.x, p.y, 7u, 9u));
}
";
    let spv = glslang(src, false, "formatless");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let s = &imported.shader;
    let dims: Vec<String> = s
        .images
        .iter()
        .map(|d| format!("{} {} {} {}", d.name, d.dim.name(), d.format, d.access))
        .collect();
    assert_eq!(dims, ["img 2d unknown none", "dst 2d unknown writeonly"]);
    // verify binds views of real formats of each sampled type (loads of format-less
    // images need Gfx12.5's typed reads: DG2).
    verifies_on(s, &["dg2"]);
}

#[test]
fn precise_arithmetic_is_exact() {
    if !have("glslangValidator") {
        return;
    }
    // glslang decorates every operation that computes a `precise` value NoContraction:
    // here the product and the sum of `p` and the quotient and the product of `d`, not
    // the same operations of `q` and `e`.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float a, b, c; float r[]; };
void main() {
    precise float p = a * b + c;
    float q = a * b + c;
    precise float d = (a / b) * 0.0;
    float e = (a / b) * 0.0;
    r[0] = p; r[1] = q; r[2] = d; r[3] = e;
}
";
    let spv = glslang(src, false, "precise");
    let mut imported =
        frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let alu = |shader: &ir::Shader| -> Vec<String> {
        ir::print_shader(shader)
            .lines()
            .filter_map(|l| l.split_once(" = ").map(|(_, r)| r))
            .filter(|r| r.starts_with("exact ") || r.starts_with('f'))
            .map(|r| r.split(" %").next().unwrap_or(r).to_string())
            .collect()
    };
    // In source order: `p`, `q`, `d` (glslang folds nothing: `* 0.0` stays), `e`;
    // `q`'s product and sum are contracted into one `ffma` (SPIR-V allows it without
    // NoContraction, brw fuses them), `p`'s are not.
    assert_eq!(
        alu(&imported.shader),
        [
            "exact fmul",
            "exact fadd",
            "ffma",
            "exact fdiv",
            "exact fmul",
            "fdiv",
            "fmul"
        ],
        "{}",
        ir::print_shader(&imported.shader)
    );
    // NIR's inexact rules may rewrite only the operations of `q` and `e`: `e`'s
    // `x * 0.0` becomes 0.0 (its division then dies), `d`'s stays, as its `a / b` may
    // be an infinity or a NaN (Vulkan's precision appendix, ir/PRECISION.md).
    let f = &mut imported.shader.functions[0];
    while ir::passes::algebraic::simplify_function(f) | ir::passes::dce::dce_function(f) {}
    assert_eq!(
        alu(&imported.shader),
        [
            "exact fmul",
            "exact fadd",
            "ffma",
            "exact fdiv",
            "exact fmul"
        ],
        "{}",
        ir::print_shader(&imported.shader)
    );
}

#[test]
fn normalized_packings_round_clamp_and_place_components() {
    if !have("glslangValidator") {
        return;
    }
    // Expected words by hand, from GLSL 4.60 §8.4 (pack: round(clamp(c, 0, 1) * 255),
    // round(clamp(c, -1, 1) * 127), ..., the first component in the low bits; rounding
    // to nearest even as NIR's lowering does; unpack: f / 255, clamp(f / 127, -1, 1)).
    // The inputs are read from the buffer (at word 32 on), so that glslang cannot fold
    // the calls.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
float i(uint k) { return uintBitsToFloat(o[32u + k]); }
void main() {
    o[0] = packUnorm4x8(vec4(i(0u), i(1u), i(2u), i(3u)));
    o[1] = packSnorm4x8(vec4(i(4u), i(5u), i(6u), i(7u)));
    o[2] = packUnorm2x16(vec2(i(8u), i(9u)));
    o[3] = packSnorm2x16(vec2(i(10u), i(11u)));
    o[4] = packHalf2x16(vec2(i(12u), i(13u)));
    vec4 u = unpackUnorm4x8(o[46]);
    o[5] = floatBitsToUint(u.x); o[6] = floatBitsToUint(u.y);
    o[7] = floatBitsToUint(u.z); o[8] = floatBitsToUint(u.w);
    vec4 s = unpackSnorm4x8(o[47]);
    o[10] = floatBitsToUint(s.x); o[11] = floatBitsToUint(s.y);
    o[12] = floatBitsToUint(s.z); o[13] = floatBitsToUint(s.w);
    vec2 u2 = unpackUnorm2x16(o[48]);
    o[15] = floatBitsToUint(u2.x); o[16] = floatBitsToUint(u2.y);
    vec2 s2 = unpackSnorm2x16(o[49]);
    o[18] = floatBitsToUint(s2.x); o[19] = floatBitsToUint(s2.y);
    vec2 h = unpackHalf2x16(o[50]);
    o[20] = floatBitsToUint(h.x); o[21] = floatBitsToUint(h.y);
}
";
    let spv = glslang(src, false, "packing");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let mut ex = Executor::new(&imported.shader);
    let mut init = vec![0u32; 64];
    let floats = [
        0.0f32, 1.0, 0.5, -2.0, -1.0, 0.5, 2.0, -0.003, 1.0, 0.25, -0.5, 1.5, 1.0, -2.0,
    ];
    for (k, x) in floats.iter().enumerate() {
        init[32 + k] = x.to_bits();
    }
    init[46] = 0x80FF_0001; // bytes 0x01, 0x00, 0xFF, 0x80
    init[47] = 0x7F80_8140; // bytes 0x40 (64), 0x81 (-127), 0x80 (-128), 0x7F (127)
    init[48] = 0x8000_FFFF; // 65535, 32768
    init[49] = 0x4000_8001; // -32767, 16384
    init[50] = 0xC000_3C00; // binary16 1.0, -2.0
    let bytes: Vec<u8> = init.iter().flat_map(|w| w.to_le_bytes()).collect();
    let buf = ex.memory.alloc("buf", bytes);
    ex.memory.bind_ssbo(0, buf);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let o: Vec<u32> = ex
        .memory
        .allocation(buf)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let f = |x: f32| x.to_bits();
    // 0.0 -> 0; 1.0 -> 255; 0.5 * 255 = 127.5 -> 128 (even); -2.0 clamps to 0.
    assert_eq!(o[0], 0x0080_FF00, "{:#x}", o[0]);
    // -1.0 -> -127 = 0x81; 0.5 * 127 = 63.5 -> 64 (even) = 0x40; 2.0 clamps to 127 =
    // 0x7F; -0.003 * 127 = -0.381 -> 0 (the sign of a zero does not show).
    assert_eq!(o[1], 0x007F_4081, "{:#x}", o[1]);
    // 1.0 -> 65535; 0.25 * 65535 = 16383.75 -> 16384 = 0x4000.
    assert_eq!(o[2], 0x4000_FFFF, "{:#x}", o[2]);
    // -0.5 * 32767 = -16383.5 -> -16384 (even) = 0xC000; 1.5 clamps to 32767 = 0x7FFF.
    assert_eq!(o[3], 0x7FFF_C000, "{:#x}", o[3]);
    // binary16 1.0 = 0x3C00, -2.0 = 0xC000.
    assert_eq!(o[4], 0xC000_3C00, "{:#x}", o[4]);
    // Bytes 0x01, 0x00, 0xFF, 0x80: 1/255 (binary32 0x3B808081, the nearest to
    // 0.0039215686...), 0, 255/255 = 1.0, 128/255 = 0.50196078... (0x3F008081).
    assert_eq!(
        o[5..9],
        [0x3B80_8081, 0, f(1.0), 0x3F00_8081],
        "{:x?}",
        &o[5..9]
    );
    // 64/127 = 0.50393700... (0x3F010204); -127/127 = -1.0; -128/127 clamps to -1.0;
    // 127/127 = 1.0.
    assert_eq!(
        o[10..14],
        [0x3F01_0204, f(-1.0), f(-1.0), f(1.0)],
        "{:x?}",
        &o[10..14]
    );
    // 65535/65535 = 1.0; 32768/65535 = 0.5000076295... (0x3F000080: 0.5 + 2^-17).
    assert_eq!(o[15..17], [f(1.0), 0x3F00_0080], "{:x?}", &o[15..17]);
    // -32767/32767 = -1.0; 16384/32767 = 0.50001525925... (0x3F000100: 0.5 + 2^-16).
    assert_eq!(o[18..20], [f(-1.0), 0x3F00_0100], "{:x?}", &o[18..20]);
    // binary16 0x3C00 = 1.0 (low half first), 0xC000 = -2.0.
    assert_eq!(o[20..22], [f(1.0), f(-2.0)], "{:x?}", &o[20..22]);
}

/// A shader with runtime descriptor arrays (`image2D imgs[]`, GL_EXT_nonuniform_qualifier)
/// as FFmpeg's filters write them.
const RUNTIME_ARRAYS: &str = "#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D src[];
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D dst[];
layout(set = 1, binding = 0, r32ui) uniform uimage2D one;
void main() {
    uint i = gl_LocalInvocationID.x;
    uint v = imageLoad(src[nonuniformEXT(i % 3u)], ivec2(i, 0)).x;
    imageStore(dst[gl_WorkGroupID.x & 1u], ivec2(i, 0), uvec4(v + imageLoad(one, ivec2(0, 0)).x));
}
";

#[test]
fn runtime_descriptor_arrays_take_the_counts_given_else_eight() {
    if !have("glslangValidator") {
        return;
    }
    let spv = glslang(RUNTIME_ARRAYS, false, "runtime_arrays");
    let options = Options {
        descriptors: frontend::DescriptorCounts::from([((0, 0), 3), ((0, 1), 2), ((7, 7), 99)]),
        ..Options::default()
    };
    let imported = import_with(&spv, Language::SpirV, &options).unwrap_or_else(|e| panic!("{e}"));
    let s = &imported.shader;
    // Images are numbered in (set, binding) order, an array of N taking N entries: src
    // at 0..2, dst at 3..4, then `one` at 5. The entry for set 7 names nothing the shader
    // has and is ignored, as a pipeline layout counts every binding.
    let decls: Vec<(String, Option<u32>, u32)> = s
        .images
        .iter()
        .map(|d| (d.name.clone(), d.count, d.binding))
        .collect();
    assert_eq!(
        decls,
        [
            ("src".to_string(), Some(3), 0),
            ("dst".to_string(), Some(2), 3),
            ("one".to_string(), None, 5)
        ]
    );
    let runtime: Vec<(u32, u32, u32, bool)> = imported
        .bindings
        .iter()
        .map(|b| (b.group, b.binding, b.count, b.runtime_array))
        .collect();
    assert_eq!(
        runtime,
        [(0, 0, 3, true), (0, 1, 2, true), (1, 0, 1, false)]
    );
    let text = ir::print_shader(s);
    assert!(
        text.contains("image @src[3] : 2d r32_uint readonly"),
        "{text}"
    );
    // The load indexed with nonuniformEXT says so; the store at the constant index 1
    // does not.
    let loads: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("@image_load (@src["))
        .collect();
    assert!(
        loads.len() == 1 && loads[0].contains("non_uniform"),
        "{text}"
    );
    let stores: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("@image_store"))
        .collect();
    assert!(
        stores.len() == 1 && !stores[0].contains("non_uniform"),
        "{text}"
    );
    verifies_on(s, &["dg2", "tgl", "bdw"]);
    // Without counts, each runtime array has 8 descriptors: `one` follows at 16.
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let decls: Vec<(Option<u32>, u32)> = imported
        .shader
        .images
        .iter()
        .map(|d| (d.count, d.binding))
        .collect();
    assert_eq!(decls, [(Some(8), 0), (Some(8), 8), (None, 16)]);
}

#[test]
fn a_descriptor_index_beyond_the_count_is_reported_by_the_executor() {
    if !have("glslangValidator") {
        return;
    }
    // `src` of 2 descriptors, indexed i % 3: lanes 2 and 5 read descriptor 2.
    let spv = glslang(RUNTIME_ARRAYS, false, "runtime_oob");
    let options = Options {
        descriptors: frontend::DescriptorCounts::from([((0, 0), 2)]),
        ..Options::default()
    };
    let imported = import_with(&spv, Language::SpirV, &options).unwrap_or_else(|e| panic!("{e}"));
    let o = verify::cli::RunOptions {
        target: Some("dg2".into()),
        ..Default::default()
    };
    let e =
        verify::cli::verify_shader(&imported.shader, &o, &verify::cli::VerifyOptions::default())
            .expect_err("descriptor 2 of an array of 2 was read");
    let e = e.to_string();
    assert!(
        e.contains("descriptor index 2 is outside the array of 2"),
        "{e}"
    );
}

#[test]
fn runtime_arrays_beyond_the_binding_table_are_an_error() {
    if !have("glslangValidator") {
        return;
    }
    let spv = glslang(RUNTIME_ARRAYS, false, "runtime_budget");
    // 200 + 40 = 240 entries hold src and dst, and `one` would be entry 240.
    let options = Options {
        descriptors: frontend::DescriptorCounts::from([((0, 0), 200), ((0, 1), 40)]),
        ..Options::default()
    };
    let e = import_with(&spv, Language::SpirV, &options).expect_err("241 binding-table entries");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert!(
        e.message.contains("`one` at set 1, binding 0 takes 1")
            && e.message.contains("the last would be 240"),
        "{e}"
    );
    // 199 + 40 + 1 = 240: the whole table.
    let options = Options {
        descriptors: frontend::DescriptorCounts::from([((0, 0), 199), ((0, 1), 40)]),
        ..Options::default()
    };
    let imported = import_with(&spv, Language::SpirV, &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.shader.images[2].binding, 239);
    // A count the table cannot hold at all, and a count of 0, name their binding.
    for (n, words) in [(241, "count of 241"), (0, "count of 0")] {
        let options = Options {
            descriptors: frontend::DescriptorCounts::from([((0, 1), n)]),
            ..Options::default()
        };
        let e = import_with(&spv, Language::SpirV, &options).expect_err("a bad count");
        assert_eq!(e.kind, ErrorKind::Limit, "{e}");
        assert!(
            e.message.contains("set 0, binding 1") && e.message.contains(words),
            "{e}"
        );
    }
}

/// GLSL's `textureLod` through a separate sampler and a combined image sampler: NIR's
/// `txl` with the sampler's index (separate samplers and combined image samplers share
/// the sampler index space, in `(set, binding)` order), which verifies on every kind of
/// platform against Vulkan's filtering.
#[test]
fn texture_lod_is_txl_with_its_sampler() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) uniform sampler2DArray combined;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D dst;
void main() {
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / 64.0;
    vec4 a = textureLod(sampler2D(tex, smp), uv, 0.5);
    vec4 b = textureLod(combined, vec3(uv, 1.0), 0.0);
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), a * 0.5 + b * 0.5);
}
";
    let imported =
        frontend::import(src.as_bytes(), Language::Glsl, None).unwrap_or_else(|e| panic!("{e}"));
    let text = ir::print_shader(&imported.shader);
    for want in [
        "sampler @smp (binding=0)",
        "sampler @combined (binding=1)",
        "image @combined : 2d array unknown readonly sampled (binding=1)",
        "@txl (@tex, ",
        "(dest_type=float32, sampler=0)",
        "@txl (@combined, ",
        "(dest_type=float32, sampler=1)",
    ] {
        assert!(text.contains(want), "no `{want}` in\n{text}");
    }
    let samplers: Vec<(u32, u32, u32)> = imported
        .bindings
        .iter()
        .filter(|b| b.kind == frontend::BindingKind::Sampler)
        .map(|b| (b.group, b.binding, b.index))
        .collect();
    assert_eq!(samplers, [(0, 1, 0), (0, 2, 1)]);
    let s = &imported.shader;
    verifies_on(s, &["dg2", "tgl", "skl"]);
}

/// A combined image sampler whose name a separate sampler declared before it holds
/// gets a sampler name of its own: the printed IR names each sampler once, so it
/// parses again.
#[test]
fn a_combined_sampler_does_not_take_a_separate_samplers_name() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform texture2D img;
layout(set = 0, binding = 1) uniform sampler tex0;
layout(set = 0, binding = 2) uniform sampler2D tex1;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D dst;
void main() {
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / 8.0;
    vec4 a = textureLod(sampler2D(img, tex0), uv, 0.0);
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), a + textureLod(tex1, uv, 0.0));
}
";
    // SPIR-V debug names need not be unique: rename `tex1` to `tex0`.
    let mut spv = glslang(src, false, "combined-name");
    let at = spv
        .windows(4)
        .position(|w| w == b"tex1")
        .expect("OpName tex1");
    spv[at + 3] = b'0';
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let text = ir::print_shader(&imported.shader);
    for want in [
        "sampler @tex0 (binding=0)",
        "sampler @tex0_2 (binding=1)",
        "image @tex0 : 2d unknown readonly sampled",
    ] {
        assert!(text.contains(want), "no `{want}` in\n{text}");
    }
    if let Err(e) = ir::parse_shader(&text) {
        panic!("the printed IR does not parse: {e:?}\n{text}");
    }
}

/// What `txl` does not take is refused by name: gradients, offsets, cube textures.
#[test]
fn sampling_the_ir_cannot_express_is_refused_by_name() {
    if !have("glslangValidator") {
        return;
    }
    let shader = |decl: &str, expr: &str| {
        format!(
            "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform {decl} tex;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D dst;
void main() {{
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / 64.0;
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), {expr});
}}
"
        )
    };
    for (decl, expr, says) in [
        (
            "sampler2D",
            "textureGrad(tex, uv, vec2(0.1), vec2(0.1))",
            "filtered sampling) with Grad",
        ),
        (
            "sampler2DShadow",
            "textureGather(tex, uv, 0.5)",
            "a depth-comparing gather",
        ),
        (
            "samplerCube",
            "textureLod(tex, vec3(uv, 1.0), 0.0)",
            "filtered sampling) of a cube texture",
        ),
    ] {
        let src = shader(decl, expr);
        let e = frontend::import(src.as_bytes(), Language::Glsl, None).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
        assert!(e.message.contains(says), "{expr}: {e}");
        assert!(matches!(e.location, Location::Text { line: 7, .. }), "{e}");
    }
}

/// Subgroup instructions the IR has no form for (partitioned reductions) are refused
/// by name, at their line; clustered reductions, shuffles and quad operations import.
#[test]
fn subgroup_operations_the_ir_cannot_express_are_refused_by_name() {
    if !have("glslangValidator") {
        return;
    }
    for (ext, expr, says) in [
        (
            "NV_shader_subgroup_partitioned",
            "subgroupPartitionedAddNV(x, uvec4(1u))",
            "OpGroupNonUniformIAdd with the group operation PartitionedReduce",
        ),
        (
            "KHR_shader_subgroup_clustered",
            "subgroupClusteredAdd(x, 4u)",
            "",
        ),
        ("KHR_shader_subgroup_shuffle", "subgroupShuffle(x, 3u)", ""),
        (
            "KHR_shader_subgroup_shuffle_relative",
            "subgroupShuffleDown(x, 3u)",
            "",
        ),
        (
            "KHR_shader_subgroup_quad",
            "subgroupQuadSwapHorizontal(x)",
            "",
        ),
        (
            "KHR_shader_subgroup_quad",
            "subgroupQuadBroadcast(x, 1u)",
            "",
        ),
    ] {
        let src = format!(
            "#version 450
#extension GL_{ext} : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B {{ uint data[]; }};
void main() {{
    uint x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = {expr};
}}
"
        );
        let result = frontend::import(src.as_bytes(), Language::Glsl, None);
        if says.is_empty() {
            assert!(result.is_ok(), "{expr}: {:?}", result.err());
            continue;
        }
        let e = result.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported, "{expr}: {e}");
        assert!(e.message.contains(says), "{expr}: {e}");
        assert!(matches!(e.location, Location::Text { line: 7, .. }), "{e}");
    }
}

/// A workgroup larger than Intel's 1024 invocations (in all, or along one dimension)
/// is a limit error at the entry point's line, not an internal error; ray queries are
/// refused by their capability.
#[test]
fn a_workgroup_over_the_limit_and_ray_queries_are_clear_errors() {
    if !have("glslangValidator") {
        return;
    }
    // glslang checks its own limits on literal sizes; specialization passes them.
    let src = "#version 450\nlayout(local_size_x_id = 0, local_size_y = 2) in;\n\
               layout(std430, binding = 0) buffer B { uint o[]; };\n\
               void main() { o[gl_LocalInvocationIndex] = 1u; }\n";
    let spv = glslang(src, false, "big_workgroup");
    for (x, n) in [(1024u32, 2048u64), (1025, 2050), (512, 1024)] {
        let options = Options {
            spec: [(0, SpecValue::Int(x.into()))]
                .into_iter()
                .collect::<SpecMap>(),
            ..Options::default()
        };
        let r = import_with(&spv, Language::SpirV, &options);
        if n <= 1024 {
            assert!(r.is_ok(), "{x}x2: {:?}", r.err());
            continue;
        }
        let e = r.unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit, "{e}");
        assert!(
            e.message.contains(&format!(
                "{x}x2x1 = {n} invocations: Intel GPUs run at most 1024"
            )),
            "{e}"
        );
    }
    // Sizes whose product passes u64 are an error too, not an overflow.
    if have("spirv-as") {
        let huge = PHI.replace(
            "LocalSize 1 1 1",
            "LocalSize 4294967295 4294967295 4294967295",
        );
        let e = frontend::import(&assemble(&huge, "huge_workgroup"), Language::SpirV, None)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    }
    let rq = "#version 460\n#extension GL_EXT_ray_query : require\nlayout(local_size_x = 1) in;\n\
              layout(binding = 0) uniform accelerationStructureEXT tlas;\n\
              layout(std430, binding = 1) buffer B { uint o[]; };\n\
              void main() { rayQueryEXT q; rayQueryInitializeEXT(q, tlas, 0u, 0xffu, vec3(0.0), 0.0, vec3(1.0), 1.0);\n\
              o[0] = rayQueryProceedEXT(q) ? 1u : 0u; }\n";
    let e = frontend::import(rq.as_bytes(), Language::Glsl, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(
        e.message
            .contains("the RayQueryKHR capability is not supported: ray queries"),
        "{e}"
    );
}

/// 32-bit integers convert to binary16 with one rounding to nearest even (through
/// binary32, exact up to 2^24, and infinite beyond binary16's range either way).
#[test]
fn integers_convert_to_half_floats_rounding_once() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint o[]; };
const int s[5] = int[](-3, 70000, 65519, 65520, 2049);
const uint u[3] = uint[](3u, 4294967295u, 2051u);
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i < 5u) o[i] = uint(float16BitsToUint16(float16_t(s[i])));
    if (i < 3u) o[5u + i] = uint(float16BitsToUint16(float16_t(u[i])));
}
";
    let spv = glslang(src, false, "int_to_half");
    let (words, _) = run(&spv, &[], 8);
    // By hand: -3 = 0xc200; 70000 and 65520 overflow (65520 is halfway between 65504 and
    // 2^16, and rounds to even: infinity); 65519 rounds down to 65504 = 0x7bff; 2049 is
    // halfway between 2048 and 2050 and rounds to even 2048 = 0x6800; 2051 to 2052 =
    // 0x6802; 3 = 0x4200; 2^32 - 1 is infinite.
    assert_eq!(
        &words[..8],
        &[0xc200, 0x7c00, 0x7bff, 0x7c00, 0x6800, 0x4200, 0x7c00, 0x6802]
    );
}

/// `OpGroupNonUniformQuadSwap`'s Direction picks the swap (2: diagonal); a Direction
/// SPIR-V does not define is an invalid-module error naming it.
#[test]
fn quad_swap_directions() {
    if !have("glslangValidator") || !have("spirv-as") || !have("spirv-dis") {
        return;
    }
    let src = "#version 450
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
    uint x = data[gl_GlobalInvocationID.x];
    data[gl_GlobalInvocationID.x] = subgroupQuadSwapDiagonal(x);
}
";
    let spv = glslang(src, false, "quad_swap");
    let imported = frontend::import(&spv, Language::SpirV, None).unwrap();
    let text = imported.shader.to_string();
    assert!(text.contains("@quad_swap_diagonal ("), "{text}");
    // The same module with Direction 64 (the workgroup size's constant).
    let bin = temp("quad_swap_dis.spv");
    std::fs::write(&bin, &spv).unwrap();
    let dis = Command::new("spirv-dis").arg(&bin).output().unwrap();
    let _ = std::fs::remove_file(bin);
    let dis = String::from_utf8(dis.stdout).unwrap();
    let swap = dis
        .lines()
        .find(|l| l.contains("OpGroupNonUniformQuadSwap"))
        .expect("a quad swap in the disassembly");
    let (head, _direction) = swap.rsplit_once(' ').unwrap();
    let changed = dis.replace(swap, &format!("{head} %uint_64"));
    let e =
        frontend::import(&assemble(&changed, "quad_swap_64"), Language::SpirV, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("Direction 64"), "{e}");
}

/// Two buffer variables at one set and binding are two views of one buffer (Vulkan
/// allows it; suyu's texture-unswizzle shaders read one buffer as words and as
/// vectors): one block, whose stores the other view's loads see, as large as the
/// larger view and writable as soon as one view writes.
#[test]
fn buffer_variables_at_one_binding_alias() {
    if !have("glslangValidator") {
        return;
    }
    let src = "#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) readonly buffer A { uint a[4]; };
layout(set = 0, binding = 0, std430) buffer B { uvec4 b[2]; };
layout(set = 0, binding = 1, std430) buffer O { uint o[4]; };
void main() {
    b[1].y = 0x12345678u;
    memoryBarrierBuffer();
    o[0] = a[gl_LocalInvocationID.x + 5u];
}
";
    let spv = glslang(src, false, "alias");
    let imported = import_with(&spv, Language::SpirV, &Options::default()).unwrap();
    // One declaration (named after one of the views) per binding.
    let decls: Vec<(u32, u32, bool)> = (imported.shader.buffers.iter())
        .map(|b| {
            let readonly = b.access.contains(ir::Access::NON_WRITEABLE);
            (b.block, b.size, readonly)
        })
        .collect();
    assert_eq!(decls, [(0, 32, false), (1, 16, false)]);
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    let a = ex.memory.alloc("a", vec![0; 32]);
    let o = ex.memory.alloc("o", vec![0; 16]);
    ex.memory.bind_ssbo(0, a);
    ex.memory.bind_ssbo(1, o);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    // b[1].y is byte 20, word 5 of the buffer: what a[5] reads.
    assert_eq!(
        &ex.memory.allocation(o).bytes[..4],
        &0x12345678u32.to_le_bytes()
    );
}
