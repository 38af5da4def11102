//! The send descriptors GenX_IR encodes equal the lowering's `message_descriptor`, for
//! every LSC operation, SFID, address model and size, data shape, channel mask, cache
//! setting and typed coordinate count the legality table allows on DG2, MTL and PVC.
//!
//! Each message is an IR message intrinsic emitted by the back end at the platform's
//! message width (the kernel runs at the untyped width, so untyped messages are not
//! split; typed ones are split to the typed width, each part with the same
//! descriptor). Transposed messages, which the back end emits as SIMT messages, are
//! written directly with the crate's instruction formatter at SIMD1. The `$N` comment
//! of each `send` in the `.asm` names the vISA instruction it came from.

mod common;

use ir::lsc::{AddrSize, AddrType, CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp, Sfid};
use lowering::messages::{check_lsc, message_descriptor, LscMessage, LscOp};
use lowering::Device;
use std::collections::BTreeSet;

/// One message to check: the message, whether it writes back, its typed coordinates.
#[derive(Clone, Debug)]
struct Probe {
    m: LscMessage,
    dest: bool,
    coords: u32,
}

fn msg(
    op: LscOp,
    sfid: Sfid,
    addr_type: AddrType,
    addr_size: AddrSize,
    data: DataShape,
    cache: CacheControl,
) -> LscMessage {
    LscMessage {
        op,
        sfid,
        addr_type,
        addr_size,
        data,
        cache,
        offset: 0,
    }
}

fn ops() -> Vec<LscOp> {
    let mut v = vec![
        LscOp::Load,
        LscOp::LoadStrided,
        LscOp::LoadQuad,
        LscOp::Store,
        LscOp::StoreStrided,
        LscOp::StoreQuad,
    ];
    v.extend(LscAtomicOp::ALL.iter().map(|a| LscOp::Atomic(*a)));
    v
}

/// A shape an operation takes by default on an SFID.
fn base_shape(op: LscOp) -> DataShape {
    if op.is_quad() {
        DataShape::parse("d32.x").unwrap()
    } else {
        DataShape::parse("d32").unwrap()
    }
}

/// The messages to probe on `p`: every operation on every legal addressing, every
/// shape, every cache pair, every typed coordinate count.
fn probes(p: &Device) -> Vec<Probe> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut push = |m: LscMessage, coords: u32, out: &mut Vec<Probe>| {
        if check_lsc(p, &m).is_err() {
            return;
        }
        let key = format!("{m:?}{coords}");
        if seen.insert(key) {
            let dest = m.op.class() != lowering::messages::OpClass::Store;
            out.push(Probe { m, dest, coords });
        }
    };
    let sfids = [Sfid::Ugm, Sfid::Ugml, Sfid::Tgm, Sfid::Slm];
    let addr_types = [AddrType::Flat, AddrType::Bti, AddrType::Bss, AddrType::Ss];
    let addr_sizes = [AddrSize::A16, AddrSize::A32, AddrSize::A64];
    // Every operation on every addressing.
    for op in ops() {
        for sfid in sfids {
            for at in addr_types {
                for size in addr_sizes {
                    push(
                        msg(op, sfid, at, size, base_shape(op), CacheControl::DEFAULT),
                        2,
                        &mut out,
                    );
                    let mut d64 = base_shape(op);
                    d64.size = DataSize::D64;
                    push(
                        msg(op, sfid, at, size, d64, CacheControl::DEFAULT),
                        2,
                        &mut out,
                    );
                }
            }
        }
    }
    // Every shape, on each SFID's usual addressing.
    for op in ops() {
        for (sfid, at, size) in [
            (Sfid::Ugm, AddrType::Flat, AddrSize::A64),
            (Sfid::Ugm, AddrType::Bti, AddrSize::A32),
            (Sfid::Slm, AddrType::Flat, AddrSize::A32),
            (Sfid::Tgm, AddrType::Bti, AddrSize::A32),
            (Sfid::Ugml, AddrType::Flat, AddrSize::A64),
        ] {
            for s in DataSize::ALL {
                for &v in &DataShape::VECT_SIZES {
                    for t in [false, true] {
                        push(
                            msg(
                                op,
                                sfid,
                                at,
                                size,
                                DataShape::vector(s, v, t),
                                CacheControl::DEFAULT,
                            ),
                            4,
                            &mut out,
                        );
                    }
                }
                for mask in 1..16u8 {
                    let shape = DataShape {
                        size: s,
                        vect: 1,
                        transpose: false,
                        cmask: mask,
                    };
                    push(
                        msg(op, sfid, at, size, shape, CacheControl::DEFAULT),
                        4,
                        &mut out,
                    );
                }
            }
        }
    }
    // Every cache pair.
    for op in [
        LscOp::Load,
        LscOp::Store,
        LscOp::Atomic(LscAtomicOp::Iadd),
        LscOp::LoadQuad,
        LscOp::StoreQuad,
    ] {
        for sfid in sfids {
            for l1 in CacheOpt::ALL {
                for l3 in CacheOpt::ALL {
                    let (at, size) = match sfid {
                        Sfid::Tgm => (AddrType::Bti, AddrSize::A32),
                        Sfid::Slm => (AddrType::Flat, AddrSize::A32),
                        _ => (AddrType::Flat, AddrSize::A64),
                    };
                    push(
                        msg(op, sfid, at, size, base_shape(op), CacheControl { l1, l3 }),
                        2,
                        &mut out,
                    );
                }
            }
        }
    }
    // Typed coordinate counts.
    for op in [
        LscOp::LoadQuad,
        LscOp::StoreQuad,
        LscOp::Atomic(LscAtomicOp::Iadd),
    ] {
        for coords in 1..=4 {
            push(
                msg(
                    op,
                    Sfid::Tgm,
                    AddrType::Bti,
                    AddrSize::A32,
                    base_shape(op),
                    CacheControl::DEFAULT,
                ),
                coords,
                &mut out,
            );
        }
    }
    out
}

/// The IR type spelling of `bits` x `comps`.
fn ty(bits: u8, comps: u8) -> String {
    if comps == 1 {
        bits.to_string()
    } else {
        format!("{bits}x{comps}")
    }
}

/// An IR instruction for a (non-transposed) probe; `id` numbers its values.
fn ir_line(pr: &Probe, id: &mut u32, defs: &mut String) -> String {
    let m = &pr.m;
    let name = match m.op {
        LscOp::Load => "lsc_load",
        LscOp::LoadStrided => "lsc_load_strided",
        LscOp::LoadQuad => "lsc_load_quad",
        LscOp::Store => "lsc_store",
        LscOp::StoreStrided => "lsc_store_strided",
        LscOp::StoreQuad => "lsc_store_quad",
        LscOp::Atomic(_) => "lsc_atomic",
    };
    let mut srcs = Vec::new();
    if m.addr_type != AddrType::Flat {
        srcs.push("@buf".to_string());
    }
    if m.sfid == Sfid::Tgm {
        // U, V, R, LOD: the first `coords` per lane, the rest the constant 0.
        for k in 0..4 {
            srcs.push(if k < pr.coords {
                format!("%c{k}")
            } else {
                "%z".to_string()
            });
        }
    } else {
        srcs.push(
            match m.addr_size {
                AddrSize::A16 => "%a16",
                AddrSize::A32 => "%a32",
                AddrSize::A64 => "%a64",
            }
            .to_string(),
        );
    }
    if m.op.is_strided() {
        srcs.push("%pitch".into());
    }
    let bits = m.data.size.reg_bits();
    let comps = m.data.components();
    let value = |id: &mut u32, defs: &mut String, bits: u8, comps: u8| {
        *id += 1;
        let lanes: Vec<&str> = (0..comps).map(|_| "%c0").collect();
        let base = if comps == 1 {
            "mov %c0".to_string()
        } else {
            format!("vec{comps} {}", lanes.join(", "))
        };
        let conv = match bits {
            8 => "u2u8",
            16 => "u2u16",
            64 => "u2u64",
            _ => "mov",
        };
        defs.push_str(&format!("    {} %w{} = {base}\n", ty(32, comps), *id));
        defs.push_str(&format!(
            "    {} %d{} = {conv} %w{}\n",
            ty(bits, comps),
            *id,
            *id
        ));
        format!("%d{}", *id)
    };
    if m.op.class() == lowering::messages::OpClass::Store {
        srcs.push(value(id, defs, bits, comps));
    }
    if let LscOp::Atomic(a) = m.op {
        for _ in 0..a.num_data_operands() {
            srcs.push(value(id, defs, bits, 1));
        }
    }
    let mut idx = vec![
        format!("lsc_sfid={}", m.sfid.name()),
        format!("lsc_addr={}", m.addr_type.name()),
        format!("lsc_addr_size={}", m.addr_size.name()),
        format!("lsc_data={}", m.data),
    ];
    if !m.cache.is_default() {
        idx.push(format!("lsc_cache={}", m.cache));
    }
    if let LscOp::Atomic(a) = m.op {
        idx.push(format!("lsc_op={}", a.name()));
    }
    let call = format!("@{name} ({}) ({})", srcs.join(", "), idx.join(", "));
    if pr.dest {
        *id += 1;
        format!("    {} %r{} = {call}\n", ty(bits, comps), *id)
    } else {
        format!("    {call}\n")
    }
}

/// The kernel of `probes` (none transposed) and the vISA instruction indices of each
/// probe's sends.
fn kernel(p: &Device, probes: &[Probe]) -> (String, Vec<Vec<usize>>) {
    let mut body = String::new();
    let mut id = 0;
    for pr in probes {
        // Each message's data is defined right before it, so values live briefly.
        let mut defs = String::new();
        let line = ir_line(pr, &mut id, &mut defs);
        body.push_str(&defs);
        body.push_str(&line);
    }
    let simd = p.untyped_simd;
    let text = format!(
        "shader compute (local_size={simd},1,1, subgroup_size={simd})
image @buf : buffer r32_uint (binding=5)
fn main {{
  block b0:
    32x3 %g = @load_global_invocation_id
    32   %c0 = mov %g.x
    32   %c1 = mov %g.y
    32   %c2 = mov %g.z
    32   %c3 = iadd %g.x, %g.y
    32   %z = load_const (0)
    32   %pitch = load_const (4)
    32   %a32 = mov %g.x
    16   %a16 = u2u16 %g.x
    64   %a64 = u2u64 %g.x
{body}}}
"
    );
    // Value names must be numbers: renumber %name to %N.
    let mut names = std::collections::HashMap::new();
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let n = names.len();
        let k = *names.entry(rest[..end].to_string()).or_insert(n);
        out.push_str(&k.to_string());
        rest = &rest[end..];
    }
    out.push_str(rest);
    let s = common::parse(&out);
    let k = visa::emit_kernel(&s, p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    // The index of every instruction line; messages in order, each split into
    // `simd / width` parts.
    let mut lines = Vec::new();
    for (n, l) in k.text.lines().filter(|l| l.starts_with("    ")).enumerate() {
        let t = l.trim();
        let body = match t.strip_prefix('(') {
            Some(r) => r.split_once(") ").map(|x| x.1).unwrap_or(t),
            None => t,
        };
        if body.starts_with("lsc_") && !body.starts_with("lsc_fence") {
            // GenX_IR numbers the entry label `$0`.
            lines.push(n + 1);
        }
    }
    let mut at = lines.into_iter();
    let parts = probes
        .iter()
        .map(|pr| {
            let width = if pr.m.sfid == Sfid::Tgm {
                p.typed_simd
            } else {
                p.untyped_simd
            };
            (0..simd / width.min(simd))
                .map(|_| at.next().expect("a send per part"))
                .collect()
        })
        .collect();
    assert!(at.next().is_none(), "more message lines than probes");
    (k.text, parts)
}

/// A kernel of transposed probes, written with the instruction formatter at SIMD1.
fn transposed_kernel(p: &Device, probes: &[Probe]) -> (String, Vec<Vec<usize>>) {
    let mut decls = String::from(
        ".decl a64 v_type=G type=uq num_elts=8 align=GRF\n.decl a32 v_type=G type=ud num_elts=16 align=GRF\n",
    );
    let mut body = String::from(
        "    mov (M1_NM, 1) a64(0,0)<1> 0x1000:uq\n    mov (M1_NM, 1) a32(0,0)<1> 0x100:ud\n",
    );
    let mut parts = Vec::new();
    for (k, pr) in probes.iter().enumerate() {
        let bytes = u32::from(pr.m.data.vect) * pr.m.data.size.mem_bytes().max(4);
        decls.push_str(&format!(
            ".decl d{k} v_type=G type=ud num_elts={} align=GRF\n",
            bytes.div_ceil(4).max(16)
        ));
        let surface = match pr.m.addr_type {
            AddrType::Flat => "flat".to_string(),
            AddrType::Bti => "bti(0x5)".to_string(),
            other => format!("{}(0x40)", other.name()),
        };
        let a = if pr.m.addr_size == AddrSize::A64 {
            "a64"
        } else {
            "a32"
        };
        let addr = format!("{surface}[{a}]:{}", pr.m.addr_size.name());
        let data = format!("d{k}");
        let srcs = if pr.dest { vec![] } else { vec![data.clone()] };
        let line = visa::lsc::format_message(
            &pr.m,
            None,
            "(M1, 1)",
            pr.dest.then_some(data.as_str()),
            &addr,
            &srcs,
        );
        // `$0` is the entry label, `$1` and `$2` the two `mov`s.
        parts.push(vec![3 + k]);
        body.push_str(&format!("    {line}\n"));
    }
    let text = format!(
        ".version 4.1\n.kernel \"main\"\n{decls}.kernel_attr Target=\"3d\"\n.kernel_attr SimdSize={}\n.function \"_main_0\"\n_main_0:\n{body}    ret (M1, 1)\n",
        p.untyped_simd
    );
    (text, parts)
}

/// The send descriptors of `asm` by vISA instruction index.
fn descs_by_index(asm: &str) -> std::collections::HashMap<usize, Vec<u32>> {
    let mut out: std::collections::HashMap<usize, Vec<u32>> = std::collections::HashMap::new();
    for s in visa::igc::parse_sends(asm) {
        if let Some(n) = s
            .line
            .rsplit("// $")
            .next()
            .and_then(|t| t.trim().parse().ok())
        {
            out.entry(n).or_default().push(s.desc);
        }
    }
    out
}

#[test]
fn genx_descriptors_equal_message_descriptor() {
    if !common::have_genx("genx_descriptors_equal_message_descriptor") {
        return;
    }
    let mut total = 0;
    for plat in ["dg2", "mtl", "pvc"] {
        let p = Device::preset(plat).unwrap();
        let all = probes(&p);
        let (transposed, simt): (Vec<Probe>, Vec<Probe>) =
            all.into_iter().partition(|pr| pr.m.data.transpose);
        assert!(
            simt.len() > 150 && !transposed.is_empty(),
            "{plat}: {} + {}",
            simt.len(),
            transposed.len()
        );
        let (probes_here, sends_before) = (simt.len() + transposed.len(), total);
        let mut jobs = Vec::new();
        let mut groups: Vec<(Vec<Probe>, Vec<Vec<usize>>)> = Vec::new();
        for chunk in simt.chunks(40) {
            let (text, parts) = kernel(&p, chunk);
            jobs.push((text, plat.to_ascii_uppercase()));
            groups.push((chunk.to_vec(), parts));
        }
        for chunk in transposed.chunks(40) {
            let (text, parts) = transposed_kernel(&p, chunk);
            jobs.push((text, plat.to_ascii_uppercase()));
            groups.push((chunk.to_vec(), parts));
        }
        let texts: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
        let results = visa::igc::compile_many(jobs, 2);
        let mut mismatches = Vec::new();
        for (((probes, parts), r), text) in groups.iter().zip(results).zip(&texts) {
            let compiled = r.unwrap_or_else(|e| panic!("{plat}: {e}\n{text}"));
            let descs = descs_by_index(&compiled.asm);
            for (pr, idx) in probes.iter().zip(parts) {
                let want = message_descriptor(&p, &pr.m, pr.dest, pr.coords).unwrap();
                for n in idx {
                    let got = descs.get(n).unwrap_or_else(|| {
                        panic!("{plat}: no send for ${n} ({pr:?})\n{}", compiled.asm)
                    });
                    total += 1;
                    if !got.contains(&want) {
                        mismatches.push(format!(
                            "{plat} {} {}.{} {:?} {:?} {} {}: GenX_IR {:#010x?}, message_descriptor {want:#010x}",
                            pr.m.op, pr.m.sfid.name(), pr.m.addr_type.name(), pr.m.addr_size, pr.m.data, pr.m.cache, pr.coords, got
                        ));
                    }
                }
            }
        }
        eprintln!(
            "{plat}: {probes_here} messages, {} sends: GenX_IR's desc == message_descriptor",
            total - sends_before
        );
        assert!(
            mismatches.is_empty(),
            "{} mismatches:\n{}",
            mismatches.len(),
            mismatches.join("\n")
        );
    }
    assert!(total > 600, "only {total} sends compared");
}
