//! The send descriptors GenX_IR encodes for the legacy data-port messages equal the
//! lowering's (`lowering::messages::dataport::legacy_send`), on BDW, SKL, ICLLP and
//! TGLLP, for every message kind and shape the generation's table allows: typed
//! reads and writes of every channel mask and typed coordinate count, typed atomics of
//! every operation and width, untyped reads and writes of every mask on surfaces, SLM
//! and A64 addresses, untyped and A64 atomics, byte and dword scattered messages, at
//! every SIMD width the table gives the message, atomics with and without a returned
//! value.
//!
//! Each message is written with the back end's instruction formatter
//! (`visa::dataport::format_message`) over payloads laid out as the back end lays them
//! out: the typed coordinates as consecutive register runs of one variable, the address
//! in one variable, the data in another, each atomic operand in its own. The `$N`
//! comment of each `send` in the `.asm` names the vISA instruction it came from; the
//! extended descriptor is compared too (the data part's length and, before Gfx12, the
//! SFID).

mod common;

use ir::dataport::{DpAddr, DpAtomicOp, DpDesc, DpMsg};
use lowering::messages::dataport::{check_dataport, legacy_send, simd_widths, SendShape};
use lowering::Device;
use std::collections::HashMap;

/// One message to check.
#[derive(Clone, Debug)]
struct Probe {
    desc: DpDesc,
    exec: u32,
    coords: u32,
    returns: bool,
}

/// Every field combination of every family.
fn all_descs() -> Vec<DpDesc> {
    let addrs = [DpAddr::Bti, DpAddr::Slm, DpAddr::A64];
    let mut out = Vec::new();
    for cmask in 1..16u8 {
        out.push(DpDesc::typed_read(cmask));
        out.push(DpDesc::typed_write(cmask));
        for a in addrs {
            out.push(DpDesc::untyped_read(a, cmask));
            out.push(DpDesc::untyped_write(a, cmask));
        }
    }
    for op in DpAtomicOp::ALL {
        for bits in [16, 32, 64] {
            out.push(DpDesc::typed_atomic(op, bits));
            for a in addrs {
                out.push(DpDesc::untyped_atomic(a, op, bits));
            }
        }
    }
    for a in addrs {
        for bytes in [1, 2, 4, 8] {
            out.push(DpDesc::byte_scattered_read(a, bytes));
            out.push(DpDesc::byte_scattered_write(a, bytes));
        }
        out.push(DpDesc::dword_scattered_read(a));
        out.push(DpDesc::dword_scattered_write(a));
    }
    out
}

/// The messages the table of `p` allows, in every shape.
fn probes(p: &Device) -> Vec<Probe> {
    let caps = p.dataport.expect("a legacy data port");
    let mut out = Vec::new();
    for desc in all_descs() {
        if check_dataport(&caps, &p.name, &desc).is_err() {
            continue;
        }
        for &exec in simd_widths(&caps, &desc) {
            let coords: Vec<u32> = if desc.msg.is_typed() {
                (1..=4).collect()
            } else {
                vec![1]
            };
            let returns: &[bool] = if desc.msg.is_atomic() {
                &[true, false]
            } else {
                &[true]
            };
            for &c in &coords {
                for &r in returns {
                    out.push(Probe {
                        desc,
                        exec,
                        coords: c,
                        returns: r,
                    });
                }
            }
        }
    }
    out
}

/// The register element of a probe's data, as `visa::dataport` reads it.
fn data_type(d: &DpDesc) -> &'static str {
    let wide = d.data_bits() == 64;
    if d.msg.is_atomic() {
        match d.op {
            DpAtomicOp::Imax | DpAtomicOp::Imin if d.bits == 16 => return "ud",
            DpAtomicOp::Imax | DpAtomicOp::Imin => return if wide { "q" } else { "d" },
            DpAtomicOp::Fmax | DpAtomicOp::Fmin | DpAtomicOp::Fcmpwr => return "f",
            _ => {}
        }
    }
    if wide {
        "uq"
    } else {
        "ud"
    }
}

/// A kernel of `probes` and the vISA instruction index of each probe's message.
fn kernel(probes: &[Probe]) -> (String, Vec<usize>) {
    // 16 lanes: runs of two registers per 32-bit component, four per 64-bit one.
    let mut decls = String::from(
        ".decl c v_type=G type=ud num_elts=64 align=GRF\n\
         .decl a32 v_type=G type=ud num_elts=16 align=GRF\n\
         .decl a64 v_type=G type=uq num_elts=16 align=GRF\n\
         .decl T6 v_type=T num_elts=1\n",
    );
    for (base, elts) in [("d", 64), ("s0", 32), ("s1", 32), ("r", 64)] {
        decls.push_str(&format!(
            ".decl {base} v_type=G type=ud num_elts={elts} align=GRF\n"
        ));
        for ty in ["d", "f", "uq", "q"] {
            decls.push_str(&format!(
                ".decl {base}_{ty} v_type=G type={ty} num_elts={} alias=<{base}, 0>\n",
                if ty.ends_with('q') { elts / 2 } else { elts }
            ));
        }
    }
    let mut body = String::new();
    // GenX_IR numbers the entry label `$0`, the first instruction `$1`.
    let mut n = 1;
    let mut line = |text: &str, body: &mut String| {
        body.push_str(&format!("    {text}\n"));
        n += 1;
        n - 1
    };
    for v in ["c", "d", "s0", "s1"] {
        let rows = if v == "c" || v == "d" { 8 } else { 4 };
        for row in (0..rows).step_by(2) {
            line(&format!("mov (M1, 16) {v}({row},0)<1> 0x10:ud"), &mut body);
        }
    }
    line("mov (M1, 16) a32(0,0)<1> 0x40:ud", &mut body);
    line("mov (M1, 8) a64(0,0)<1> 0x10000:uq", &mut body);
    line("mov (M1, 8) a64(2,0)<1> 0x10000:uq", &mut body);
    line("movs (M1_NM, 1) T6(0) 0x5:ud", &mut body);
    let mut at = Vec::new();
    for pr in probes {
        let d = &pr.desc;
        let run = (pr.exec * 4).div_ceil(32) * 32;
        let addr: Vec<String> = if d.msg.is_typed() {
            (0..pr.coords).map(|k| format!("c.{}", k * run)).collect()
        } else if d.addr == DpAddr::A64 {
            vec!["a64.0".into()]
        } else {
            vec!["a32.0".into()]
        };
        let ty = data_type(d);
        let view = |base: &str| {
            if ty == "ud" {
                format!("{base}.0")
            } else {
                format!("{base}_{ty}.0")
            }
        };
        let mut data = Vec::new();
        if d.msg.has_data() {
            data.push(view("d"));
        }
        for k in 0..d.num_atomic_srcs() {
            data.push(view(["s0", "s1"][k]));
        }
        let dst = (d.msg.has_dest() && pr.returns).then(|| view("r"));
        let surface = match (d.msg.is_typed(), d.addr) {
            (false, DpAddr::Slm) => "%slm",
            (false, DpAddr::A64) => "",
            _ => "T6",
        };
        let text = visa::dataport::format_message(
            d,
            None,
            &format!("(M1, {})", pr.exec),
            surface,
            &addr,
            &data,
            dst.as_deref(),
        );
        at.push(line(&text, &mut body));
    }
    let text = format!(
        ".version 4.1\n.kernel \"main\"\n{decls}.kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=16\n.function \"_main_0\"\n_main_0:\n{body}    ret (M1, 1)\n"
    );
    (text, at)
}

/// The (extended descriptor, descriptor) pairs of `asm` by vISA instruction index.
fn sends_by_index(asm: &str) -> HashMap<usize, Vec<(u32, u32)>> {
    let mut out: HashMap<usize, Vec<(u32, u32)>> = HashMap::new();
    for s in visa::igc::parse_raw_sends(asm) {
        if let Some(n) = s
            .line
            .rsplit("// $")
            .next()
            .and_then(|t| t.trim().parse().ok())
        {
            out.entry(n).or_default().push((s.ex_desc, s.desc));
        }
    }
    out
}

#[test]
fn genx_descriptors_equal_legacy_send() {
    if !common::have_genx("genx_descriptors_equal_legacy_send") {
        return;
    }
    let mut total = 0;
    let mut mismatches = Vec::new();
    for (plat, genx) in [
        ("bdw", "BDW"),
        ("skl", "SKL"),
        ("icl", "ICLLP"),
        ("tgl", "TGLLP"),
    ] {
        let p = Device::preset(plat).unwrap();
        let caps = p.dataport.unwrap();
        let all = probes(&p);
        // Every family appears on every platform.
        for msg in DpMsg::ALL {
            assert!(
                all.iter().any(|pr| pr.desc.msg == msg),
                "{plat}: no {msg} probe"
            );
        }
        let groups: Vec<&[Probe]> = all.chunks(60).collect();
        let jobs: Vec<(String, String)> = groups
            .iter()
            .map(|g| (kernel(g).0, genx.to_string()))
            .collect();
        let texts: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
        let results = visa::igc::compile_many(jobs, 2);
        let before = total;
        for ((group, r), text) in groups.iter().zip(results).zip(&texts) {
            let compiled = r.unwrap_or_else(|e| panic!("{plat}: {e}\n{text}"));
            let (_, at) = kernel(group);
            let sends = sends_by_index(&compiled.asm);
            for (pr, n) in group.iter().zip(at) {
                let shape = SendShape {
                    exec_size: pr.exec,
                    group: 0,
                    coords: pr.coords,
                    bti: 5,
                    returns: pr.returns,
                };
                let want = legacy_send(&caps, &p.name, &pr.desc, &shape).unwrap();
                let got = sends.get(&n).unwrap_or_else(|| {
                    panic!("{plat}: no send for ${n} ({pr:?})\n{}", compiled.asm)
                });
                total += 1;
                if !got.contains(&(want.ex_desc, want.desc)) {
                    mismatches.push(format!(
                        "{plat} {} SIMD{} coords {} returns {}: GenX_IR {:x?}, legacy_send (ex_desc {:#x}, desc {:#010x})",
                        pr.desc, pr.exec, pr.coords, pr.returns, got, want.ex_desc, want.desc
                    ));
                }
            }
        }
        eprintln!(
            "{plat}: {} messages: GenX_IR's (ex_desc, desc) == legacy_send",
            total - before
        );
    }
    assert!(
        mismatches.is_empty(),
        "{} of {total} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(total > 1000, "only {total} sends compared");
}
