//! The sampler send descriptors GenX_IR encodes equal the lowering's
//! `sampler_descriptor`, for `ld`, `ld_lz`, `resinfo`, `sample_l`, `gather4`, `ld_mcs`
//! and `ld2dms_w` (of multisampled images), every parameter count, the channel masks
//! that are a prefix of RGBA and some that are not (which need a message header),
//! three binding-table indices, `sample_l`'s sampler indices 0, 5, 15, 16 and 17 (from
//! 16 on through the message header), and `gather4` of each channel with and without
//! texel offsets (the header's), on SKL, ICL, TGL, DG2 and MTL (PVC has no sampler)
//! and, without `ld_lz` (Gfx9's), on BDW, in SIMD16 kernels and in SIMD32 kernels
//! whose messages are split in two; a SIMD16 message whose payload is over 11
//! registers GenX_IR sends as two SIMD8 halves itself, which `sampler_descriptor`
//! describes too (`halves`).
//!
//! Each message is an IR sampler intrinsic the back end emits; its sends are found by
//! the `$N` comment GenX_IR writes after each `send` (the vISA instruction it came
//! from).

mod common;

use lowering::messages::{sampler_descriptor, SamplerMessage, SamplerOp};
use lowering::Device;
use std::collections::HashMap;

/// One message to check.
#[derive(Copy, Clone, Debug)]
struct Probe {
    op: SamplerOp,
    channels: u8,
    /// Parameters that are not the constant 0 (the leading ones).
    params: u32,
    /// The image: 0, 1 or 2 (bindings 0, 3 and 200; the multisampled images of
    /// `ld_mcs` and `ld2dms_w` 1, 4 and 201).
    image: usize,
    /// The sampler index (`sample_l`, `gather4`).
    sampler: u32,
    /// The texel offset (`aoffimmi`; `sample_l`, `gather4`).
    offset: ir::TexelOffset,
}

const BINDINGS: [u8; 3] = [0, 3, 200];

/// The bindings of the multisampled images `@m0`, `@m1` and `@m2`.
const MS_BINDINGS: [u8; 3] = [1, 4, 201];

/// Whether the probe reads a multisampled image.
fn multisampled(op: SamplerOp) -> bool {
    matches!(op, SamplerOp::LdMcs | SamplerOp::Ld2dmsW)
}

/// The binding-table index of a probe's image.
fn binding(p: &Probe) -> u8 {
    if multisampled(p.op) {
        MS_BINDINGS[p.image]
    } else {
        BINDINGS[p.image]
    }
}

/// `sample_l`'s sampler indices: the descriptor's 4 bits, and past them.
const SAMPLERS: [u32; 5] = [0, 5, 15, 16, 17];

fn probes() -> Vec<Probe> {
    let masks = [0b0001, 0b0011, 0b0111, 0b1111, 0b1000, 0b0101, 0b1011];
    let mut out = Vec::new();
    let mut k = 0;
    for (op, max) in [
        (SamplerOp::Ld, 4),
        (SamplerOp::LdLz, 3),
        (SamplerOp::Resinfo, 1),
        (SamplerOp::SampleL, 4),
        (SamplerOp::Gather4, 3),
        (SamplerOp::LdMcs, 3),
        (SamplerOp::Ld2dmsW, 6),
    ] {
        for params in 1..=max {
            // `gather4` names one channel.
            let masks: &[u8] = if op == SamplerOp::Gather4 {
                &[0b0001, 0b0010, 0b0100, 0b1000, 0b0001]
            } else {
                &masks
            };
            for &channels in masks {
                let (sampler, offset) = if op.uses_sampler_state() {
                    let o = [[0, 0, 0], [1, -2, 0], [-8, 7, 0]][k % 3];
                    (
                        SAMPLERS[k % SAMPLERS.len()],
                        ir::TexelOffset::new(o).unwrap(),
                    )
                } else {
                    (0, ir::TexelOffset::default())
                };
                out.push(Probe {
                    op,
                    channels,
                    params,
                    image: k % 3,
                    sampler,
                    offset,
                });
                k += 1;
            }
        }
    }
    out
}

/// The IR line of a probe defining `%n`.
fn ir_line(p: &Probe, n: usize) -> String {
    let comps = if p.op == SamplerOp::Gather4 {
        4
    } else {
        p.channels.count_ones()
    };
    let ty = if comps == 1 {
        "32".to_string()
    } else {
        format!("32x{comps}")
    };
    let ch: String = "rgba"
        .chars()
        .enumerate()
        .filter(|(k, _)| p.channels & (1 << k) != 0)
        .map(|(_, c)| c)
        .collect();
    // %1..%4 are per-lane values (`ld2dms_w`'s fifth and sixth parameters %1 and %2
    // again), %5 the constant 0.
    let total = p.op.params().len() as u32;
    let srcs: Vec<String> = (0..total)
        .map(|k| {
            if k < p.params {
                format!("%{}", k % 4 + 1)
            } else {
                "%5".into()
            }
        })
        .collect();
    let (name, idx) = match p.op {
        SamplerOp::Ld => ("sampler_ld", format!("channels={ch}, dest_type=float32")),
        SamplerOp::LdLz => ("sampler_ld_lz", format!("channels={ch}, dest_type=float32")),
        SamplerOp::Resinfo => ("sampler_resinfo", format!("channels={ch}")),
        SamplerOp::LdMcs => ("sampler_ld_mcs", format!("channels={ch}")),
        SamplerOp::Ld2dmsW => (
            "sampler_ld2dms_w",
            format!("channels={ch}, dest_type=float32"),
        ),
        SamplerOp::SampleL => (
            "sampler_sample_l",
            format!(
                "channels={ch}, dest_type=float32, sampler={}, texel_offset={}",
                p.sampler, p.offset
            ),
        ),
        SamplerOp::Gather4 => (
            "sampler_gather4",
            format!(
                "component={}, dest_type=float32, sampler={}, texel_offset={}",
                p.channels.trailing_zeros(),
                p.sampler,
                p.offset
            ),
        ),
    };
    let image = if multisampled(p.op) { "m" } else { "t" };
    format!(
        "    {ty} %{n} = @{name} (@{image}{}, {}) ({idx})\n",
        p.image,
        srcs.join(", ")
    )
}

/// The vISA kernel of `probes` at SIMD `simd` on `p`, and the instruction indices of
/// each probe's sends.
fn kernel(p: &Device, probes: &[Probe], simd: u32) -> (String, Vec<Vec<usize>>) {
    let mut body = String::new();
    for (k, pr) in probes.iter().enumerate() {
        body.push_str(&ir_line(pr, 10 + k));
    }
    let text = format!(
        "shader compute (local_size={simd},1,1, subgroup_size={simd})
image @t0 : 2d array r32_float readonly sampled (binding={})
image @t1 : 2d array r32_float readonly sampled (binding={})
image @t2 : 2d array r32_float readonly sampled (binding={})
image @m0 : ms array r32_float readonly sampled (binding={})
image @m1 : ms array r32_float readonly sampled (binding={})
image @m2 : ms array r32_float readonly sampled (binding={})
sampler @s[18] (binding=0)
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = mov %0.x
    32   %2 = mov %0.y
    32   %3 = mov %0.z
    32   %4 = iadd %0.x, %0.y
    32   %5 = load_const (0)
{body}}}
",
        BINDINGS[0], BINDINGS[1], BINDINGS[2], MS_BINDINGS[0], MS_BINDINGS[1], MS_BINDINGS[2]
    );
    let s = common::parse(&text);
    let k = visa::emit_kernel(&s, p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut lines = Vec::new();
    for (n, l) in k.text.lines().filter(|l| l.starts_with("    ")).enumerate() {
        let t = l.trim();
        if [
            "load_3d.",
            "load_lz.",
            "resinfo.",
            "sample_l.",
            "sample4.",
            "load_mcs.",
            "load_2dms_w.",
        ]
        .iter()
        .any(|m| t.starts_with(m))
        {
            // GenX_IR numbers the entry label `$0`.
            lines.push(n + 1);
        }
    }
    let parts_each = (simd / 16).max(1) as usize;
    assert_eq!(lines.len(), probes.len() * parts_each, "{}", k.text);
    let parts = lines.chunks(parts_each).map(<[usize]>::to_vec).collect();
    (k.text, parts)
}

/// The descriptors of the sampler sends of `asm` by vISA instruction index. GenX_IR
/// prints a sampler send with immediate descriptors as
/// `send.smpl (16|M0)  dst  src0  src1:len  ex_desc  desc  {..} // ... // $N` (Gfx12
/// on) or `send (16|M0)  dst  src0  ex_desc  desc  // ...; sampler; ... // $N`: the
/// descriptor is the last immediate before the comment or the `{..}` annotations.
fn descs_by_index(asm: &str) -> HashMap<usize, Vec<u32>> {
    let mut out: HashMap<usize, Vec<u32>> = HashMap::new();
    for l in asm
        .lines()
        .filter(|l| l.contains("send.smpl") || l.contains("; sampler;"))
    {
        let head = l.split("//").next().unwrap_or("");
        let head = head.split('{').next().unwrap_or("");
        let desc = head
            .split_whitespace()
            .rev()
            .find(|w| w.starts_with("0x"))
            .and_then(|d| u32::from_str_radix(&d[2..], 16).ok());
        let n = l.rsplit("// $").next().and_then(|t| t.trim().parse().ok());
        if let (Some(d), Some(n)) = (desc, n) {
            out.entry(n).or_default().push(d);
        }
    }
    out
}

#[test]
fn genx_sampler_descriptors_equal_sampler_descriptor() {
    if !common::have_genx("genx_sampler_descriptors_equal_sampler_descriptor") {
        return;
    }
    let all = probes();
    let mut compared = 0;
    let mut messages = 0;
    let mut wanted = 0;
    let mut split = 0;
    let mut mismatches = Vec::new();
    // (device, the platform whose kernel it compiles, GenX_IR's platform): the back end
    // emits for DG2 and MTL; SKL, ICL and TGL (32-byte registers, SIMD16 sampler
    // messages, no LSC in these kernels) finalize DG2's kernel.
    let targets = [
        ("bdw", "bdw", "BDW"),
        ("dg2", "dg2", "DG2"),
        ("mtl", "mtl", "MTL"),
        ("skl", "dg2", "SKL"),
        ("icl", "dg2", "ICLLP"),
        ("tgl", "dg2", "TGLLP"),
    ];
    for (plat, emit_for, genx) in targets {
        let p = Device::preset(plat).unwrap();
        // Gfx8's sampler has no `ld_lz`.
        let these: Vec<Probe> = all
            .iter()
            .copied()
            .filter(|pr| p.ver() >= 9 || pr.op != SamplerOp::LdLz)
            .collect();
        for simd in [16, 32] {
            let (text, parts) = kernel(&Device::preset(emit_for).unwrap(), &these, simd);
            let compiled = visa::igc::compile(&text, genx)
                .unwrap_or_else(|e| panic!("{plat} SIMD{simd}: {e}\n{text}"));
            let descs = descs_by_index(&compiled.asm);
            messages += these.len();
            // One send per SIMD16 message, two per SIMD32 one.
            wanted += these.len() * (simd as usize / 16);
            for (pr, idx) in these.iter().zip(&parts) {
                let gather = pr.op == SamplerOp::Gather4;
                let m = SamplerMessage {
                    op: pr.op,
                    channels: if gather { 0xf } else { pr.channels },
                    sampler: pr.sampler,
                    component: if gather {
                        pr.channels.trailing_zeros() as u8
                    } else {
                        0
                    },
                    offset: pr.offset,
                };
                let want = sampler_descriptor(&p, &m, 16, pr.params, binding(pr)).unwrap();
                // Before ICL, mid-thread preemption (`-enablePreemption`, which IGC and
                // `visa::igc::compile` pass on SKL) makes the finalizer give sampler
                // messages a header (IGC `visa/HWCaps.inc`, `forceSamplerHeader`; a
                // `resinfo` of every channel keeps none): a split send with the header
                // alone in its first source (message length 1, header bit 19) and the
                // payload in the second. Every other bit is the descriptor's.
                let mut forms = vec![want.desc];
                if genx == "SKL" {
                    assert!(visa::igc::finalizer_options(genx).contains(&"-enablePreemption"));
                    let has_header = want.desc & (1 << 19) != 0;
                    forms.push(if want.halves {
                        // The halves keep one source: the header joins it.
                        let mlen = ((want.desc >> 25) & 0xf) + u32::from(!has_header);
                        (want.desc & !(0xf << 25)) | (mlen << 25) | (1 << 19)
                    } else {
                        (want.desc & !(0xf << 25)) | (1 << 25) | (1 << 19)
                    });
                }
                for n in idx {
                    let got = descs.get(n).unwrap_or_else(|| {
                        panic!(
                            "{plat}: no send for ${n} ({pr:?})\n{text}\n{}",
                            compiled.asm
                        )
                    });
                    if want.halves {
                        // GenX_IR sends the message as two SIMD8 halves with one
                        // descriptor (`sampler_descriptor`'s `halves`).
                        split += 1;
                        if !(got.len() == 2 && got.iter().all(|d| forms.contains(d))) {
                            mismatches.push(format!(
                                "{plat} SIMD{simd} {pr:?}: GenX_IR {got:x?}, two SIMD8 halves of {:x}",
                                want.desc
                            ));
                        }
                        continue;
                    }
                    compared += 1;
                    if !forms.iter().any(|f| got.contains(f)) {
                        mismatches.push(format!(
                            "{plat} SIMD{simd} {pr:?}: GenX_IR {got:x?}, sampler_descriptor {:x}",
                            want.desc
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "{messages} sampler messages, {compared} sends: GenX_IR's desc == sampler_descriptor; \
         {split} SIMD16 messages sent as two SIMD8 halves, both compared"
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert_eq!(compared + split, wanted, "sends compared");
}

#[test]
fn resinfo_is_spelled_as_igc_prints_it() {
    let p = Device::preset("dg2").unwrap();
    let probes = [
        Probe {
            op: SamplerOp::Resinfo,
            channels: 0b0111,
            params: 1,
            image: 1,
            sampler: 0,
            offset: ir::TexelOffset::default(),
        },
        Probe {
            op: SamplerOp::Resinfo,
            channels: 0b1000,
            params: 0,
            image: 2,
            sampler: 0,
            offset: ir::TexelOffset::default(),
        },
    ];
    let (text, _) = kernel(&p, &probes, 16);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("resinfo") || l.starts_with("movs"))
        .collect();
    // The surface T<6 + image> set to the binding, then the channels, the exec size,
    // the surface, the LOD (v1, or a temporary holding the constant 0) and the
    // destination.
    assert_eq!(lines[0], "movs (M1_NM, 1) T7(0) 0x3:ud");
    assert_eq!(lines[1], "resinfo.RGB (M1, 16)  T7 v1.0 v10.0");
    assert_eq!(lines[2], "movs (M1_NM, 1) T8(0) 0xc8:ud");
    assert!(
        lines[3].starts_with("resinfo.A (M1, 16)  T8 t") && lines[3].ends_with(".0 v11.0"),
        "{}",
        lines[3]
    );
    if common::have_genx("resinfo_is_spelled_as_igc_prints_it") {
        visa::igc::compile(&text, "DG2").unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

#[test]
fn lowered_level_queries_compile_on_dg2_and_mtl() {
    // The lit test's shader: sizes at per-invocation LODs and level counts of a 2D
    // array, a 3D and a cube array texture, and a storage image's size and level
    // count, lowered with the -O pipeline (resinfo for the textures, the parameter
    // block for the storage image).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/lit/levels/run_queries.ir"
    );
    let text = std::fs::read_to_string(path).unwrap();
    for plat in ["dg2", "mtl"] {
        let mut s = common::parse(&text);
        let device = Device::preset(plat).unwrap();
        common::lower(&mut s, &device, &Default::default()).unwrap();
        let k = visa::emit_kernel(&s, &device, &Default::default())
            .unwrap_or_else(|e| panic!("{plat}: {e}"));
        let resinfos = k
            .text
            .lines()
            .filter(|l| l.trim().starts_with("resinfo."))
            .count();
        // Four sizes and four level counts of textures (one of each per branch), one
        // resinfo each.
        assert_eq!(resinfos, 8, "{plat}:\n{}", k.text);
        if common::have_genx("lowered_level_queries_compile_on_dg2_and_mtl") {
            let p = k
                .genx_platform
                .expect("DG2 and MTL have a GenX_IR platform");
            visa::igc::compile(&k.text, p).unwrap_or_else(|e| panic!("{plat}: {e}\n{}", k.text));
        }
    }
}
