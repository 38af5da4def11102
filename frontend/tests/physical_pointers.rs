//! Buffer device addresses (`PhysicalStorageBuffer` pointers, GLSL's
//! `GL_EXT_buffer_reference`) through the translator: values from the executor against
//! hand-computed ones, and the lowered shader against the original.

use frontend::{import, Language};
use std::process::Command;
use verify::exec::{ExecConfig, Executor};

mod external;
use external::have;

/// `tool args... input -o output` on `src` written to a file named `name`.
fn compile(tool: &str, args: &[&str], src: &str, name: &str) -> Vec<u8> {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let (i, o) = (
        dir.join(format!("physical-{pid}-{name}")),
        dir.join(format!("physical-{pid}-{name}.spv")),
    );
    std::fs::write(&i, src).unwrap();
    let r = Command::new(tool)
        .args(args)
        .arg(&i)
        .arg("-o")
        .arg(&o)
        .output()
        .unwrap();
    assert!(
        r.status.success(),
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    let b = std::fs::read(&o).unwrap();
    let _ = std::fs::remove_file(i);
    let _ = std::fs::remove_file(o);
    b
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The lowered `shader` verifies against the original with 0 mismatches on each of
/// `targets` (the vISA leg: `tests/lit/frontend/buffer_reference_glsl.ir`).
fn verifies_on(shader: &ir::Shader, targets: &[&str]) {
    for target in targets {
        let o = verify::cli::RunOptions {
            target: Some(target.to_string()),
            ..Default::default()
        };
        let v = verify::cli::VerifyOptions::default();
        let report =
            verify::cli::verify_shader(shader, &o, &v).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(report.contains(" 0 mismatches"), "{target}: {report}");
    }
}

const TABLE: &str = "#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 8) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Word { uint w; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Pair { uint a; uint b; };
layout(buffer_reference, std430) buffer Table { Word words; Pair pairs; uint count; };
layout(push_constant) uniform PC { Table t; Word out_words; } pc;
void main() {
    uint i = gl_LocalInvocationID.x;
    Table t = pc.t;
    Pair p = t.pairs;
    if ((i & 1u) == 1u) p = p + 1;
    uint v = (t.words + i).w * 10u + p.a * 3u + p.b;
    (pc.out_words + i).w = v;
    atomicAdd(t.count, v);
}
";

#[test]
fn pointers_in_memory_arithmetic_phis_and_atomics() {
    if !have("glslangValidator") {
        return;
    }
    let spv = compile(
        "glslangValidator",
        &["-V", "--target-env", "vulkan1.2", "-S", "comp"],
        TABLE,
        "table.comp",
    );
    let imported = import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let shader = &imported.shader;
    let mut ex = Executor::with_config(
        shader,
        ExecConfig {
            subgroup_size: 8,
            ..ExecConfig::default()
        },
    );
    let m = &mut ex.memory;
    // words: w[k] = k + 1; pairs: (5, 7), (11, 13); out: zeros.
    let w = m.alloc("words", bytes(&[1, 2, 3, 4, 5, 6, 7, 8]));
    let p = m.alloc("pairs", bytes(&[5, 7, 11, 13]));
    let out = m.alloc("out", vec![0; 32]);
    let (wa, pa, oa) = (
        m.allocation(w).base,
        m.allocation(p).base,
        m.allocation(out).base,
    );
    // The table: the words' address, the pairs' address, count = 100.
    let mut table = wa.to_le_bytes().to_vec();
    table.extend(pa.to_le_bytes());
    table.extend(bytes(&[100, 0]));
    let t = m.alloc("table", table);
    let mut push = m.allocation(t).base.to_le_bytes().to_vec();
    push.extend(oa.to_le_bytes());
    m.set_push_constants(push);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    // Lane i: w = i + 1; even lanes read the first pair (5*3 + 7 = 22), odd lanes the
    // second (11*3 + 13 = 46): v = 10 (i + 1) + 22 or + 46.
    let expect = [32, 66, 52, 86, 72, 106, 92, 126];
    assert_eq!(words(&ex.memory.allocation(out).bytes), expect);
    // count: 100 plus every lane's v.
    let count = words(&ex.memory.allocation(t).bytes[16..20])[0];
    assert_eq!(count, 100 + expect.iter().sum::<u32>());
    // The verifier finds the table's two pointers behind the push constant's and
    // allocates for all four.
    verifies_on(shader, &["dg2", "tgl", "skl", "bdw"]);
}

/// `OpPtrAccessChain` (no GLSL writes it): element 2, member 1 of an array of
/// 16-byte structs (`ArrayStride` on the pointer type) is byte 36; element -1 of
/// element 1, member 0, is byte 0.
const PTR_ACCESS_CHAIN: &str = "
OpCapability Shader
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
OpExtension \"SPV_KHR_physical_storage_buffer\"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpDecorate %ptr ArrayStride 16
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%S = OpTypeStruct %uint %uint
%ptr = OpTypePointer PhysicalStorageBuffer %S
%ptr_u = OpTypePointer PhysicalStorageBuffer %uint
%PC = OpTypeStruct %ptr
%pc_ptr = OpTypePointer PushConstant %PC
%pc_member = OpTypePointer PushConstant %ptr
%pc = OpVariable %pc_ptr PushConstant
%c0 = OpConstant %int 0
%c1 = OpConstant %int 1
%c2 = OpConstant %int 2
%cm1 = OpConstant %int -1
%main = OpFunction %void None %fn
%entry = OpLabel
%member = OpAccessChain %pc_member %pc %c0
%base = OpLoad %ptr %member
%e2 = OpPtrAccessChain %ptr_u %base %c2 %c1
%v = OpLoad %uint %e2 Aligned 4
%e1 = OpPtrAccessChain %ptr %base %c1
%back = OpPtrAccessChain %ptr_u %e1 %cm1 %c0
OpStore %back %v Aligned 4
OpReturn
OpFunctionEnd
";

#[test]
fn ptr_access_chain_steps_by_the_array_stride() {
    if !have("spirv-as") {
        return;
    }
    let spv = compile(
        "spirv-as",
        &["--target-env", "spv1.3"],
        PTR_ACCESS_CHAIN,
        "chain.spvasm",
    );
    let imported = import(&spv, Language::SpirV, None).unwrap_or_else(|e| panic!("{e}"));
    let mut ex = Executor::with_config(&imported.shader, ExecConfig::default());
    // Dword k holds 100 + k.
    let data: Vec<u32> = (0..16).map(|k| 100 + k).collect();
    let g = ex.memory.alloc("data", bytes(&data));
    let base = ex.memory.allocation(g).base;
    ex.memory.set_push_constants(base.to_le_bytes().to_vec());
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    // Byte 36 is dword 9, stored at dword 0; the rest unchanged.
    let mut expect = data.clone();
    expect[0] = 109;
    assert_eq!(words(&ex.memory.allocation(g).bytes), expect);
    verifies_on(&imported.shader, &["dg2", "bdw"]);
}

#[test]
fn physical_addressing_other_than_buffer_device_addresses_is_refused() {
    if !have("spirv-as") {
        return;
    }
    let text = PTR_ACCESS_CHAIN
        .replace(
            "OpCapability Shader",
            "OpCapability Shader\nOpCapability Addresses",
        )
        .replace("PhysicalStorageBuffer64 GLSL450", "Physical64 GLSL450");
    let spv = compile(
        "spirv-as",
        &["--target-env", "spv1.3"],
        &text,
        "phys64.spvasm",
    );
    let e = import(&spv, Language::SpirV, None).unwrap_err().to_string();
    assert!(e.contains("Addresses capability is not supported"), "{e}");
}
