//! Our kernels have the skeleton of IGC's own kernels for the same programs
//! (`visa/IGC-SKELETON.md`). For each OpenCL C program under `visa/igc-reference/`
//! (image read and write, buffer load and store, atomics, a loop, a branch, a barrier
//! with shared memory, SIMD8, 16 and 32) its IR twin (`<program>.ir`) is lowered,
//! emitted and compiled by GenX_IR with the platform's finalizer options
//! ([`visa::igc::finalizer_options`]); the listing is then compared with the skeleton of
//! IGC's kernel for the program (`visa/igc-reference/skeleton/<device>.txt`, written by
//! `dump.sh` from `ocloc`'s dumps) on BDW, SKL, ICL, TGL, DG2 and PVC (ocloc 22.43 has
//! no MTL):
//!
//! * the kernel attributes (`.kernel_attr` lines);
//! * the per-thread payload: the registers of the local ids and where the cross-thread
//!   inputs start;
//! * the payload prolog GenX_IR puts before the kernel (DG2, PVC): the same
//!   instructions and the same per-thread loads, a cross-thread part, or no prolog at
//!   all (BDW to TGL);
//! * the float-mode instruction (`cr0`);
//! * the epilog: the fences, their commits and the end-of-thread send, message by
//!   message (extended descriptor and descriptor).
//!
//! What differs on purpose is left out: IGC's copy of the COMPUTE_WALKER's inline data
//! (`-useInlineData` on DG2), the size and contents of the cross-thread block (the
//! prolog's immediates), and the float mode of a kernel without float instructions
//! (IGC sets it in every kernel, we as brw only where a result depends on it);
//! IGC-SKELETON.md says why.

mod common;

use lowering::Device;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// (device of the reference, our preset).
const DEVICES: [(&str, &str); 6] = [
    ("bdw", "bdw"),
    ("skl", "skl"),
    ("icllp", "icl"),
    ("tgllp", "tgl"),
    ("dg2", "dg2"),
    ("pvc", "pvc"),
];

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("igc-reference")
}

/// The skeleton of one kernel, IGC's (from a `skeleton/<device>.txt` section) or ours
/// (from a listing and its vISA text).
#[derive(Debug, Default, PartialEq, Eq)]
struct Skeleton {
    /// `.kernel_attr` lines.
    attrs: Vec<String>,
    /// (offset, size) of every `.input`.
    inputs: Vec<(u32, u32)>,
    /// The prolog's lines up to `// cross_thread_prolog:`, and the rest.
    per_thread_prolog: Vec<String>,
    cross_thread_prolog: Vec<String>,
    /// The float-mode instruction, without its SWSB and comment.
    cr0: Vec<String>,
    /// Whether the kernel has a float variable or immediate (ours only).
    floats: bool,
    /// The epilog, a line each: `send <ex_desc> <desc>` or `commit`.
    epilog: Vec<String>,
}

/// The code of a listing line: no comment, no SWSB braces, single spaces.
fn code(line: &str) -> String {
    let l = line.split("//").next().unwrap_or("");
    let l = l.split('{').next().unwrap_or("");
    l.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An epilog line as its message's descriptors, or `commit` for a fence's commit.
fn epilog_item(line: &str) -> String {
    if line.contains("memory fence commit") {
        return "commit".into();
    }
    let sends = visa::igc::parse_raw_sends(line);
    match sends.first() {
        Some(s) => format!("send {:#x} {:#x}", s.ex_desc, s.desc),
        None => format!("unreadable: {line}"),
    }
}

/// A prolog line as its message's descriptors (what it loads), or its opcode (the
/// immediates hold the size of the cross-thread block, whose contents differ), or
/// `None` for IGC's copy of the inline data into the first cross-thread register
/// (`mov (8|M0) r4.0<1>:ud r1.0<1;1,0>:ud`, from its `-useInlineData`).
fn prolog_item(line: &str) -> Option<String> {
    let lsc = visa::igc::parse_sends(line);
    let raw = visa::igc::parse_raw_sends(line);
    if let (Some(s), _) | (None, Some(s)) = (lsc.first(), raw.first()) {
        return Some(format!("send {:#x} {:#x}", s.ex_desc, s.desc));
    }
    let c = code(line);
    let mut tokens = c.split_whitespace().filter(|t| !t.starts_with('('));
    let op = tokens.next().unwrap_or("").to_string();
    let inline_copy = op == "mov" && tokens.nth(1).is_some_and(|src| src.starts_with("r1.0<"));
    (!inline_copy).then_some(op)
}

/// IGC's skeletons of `device`, by program.
fn reference(device: &str) -> Vec<(String, Skeleton)> {
    let path = reference_dir().join(format!("skeleton/{device}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<(String, Skeleton)> = Vec::new();
    let mut cross = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            let program = rest.split(':').next().unwrap_or("").to_string();
            out.push((program, Skeleton::default()));
            cross = false;
            continue;
        }
        let Some((_, s)) = out.last_mut() else {
            continue;
        };
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim_start();
        match key {
            "vISA" => {
                if value.starts_with(".kernel_attr") {
                    s.attrs.push(value.trim().to_string());
                } else if value.starts_with(".input") {
                    s.inputs.push(input(value));
                }
            }
            "prolog" => {
                if value.starts_with("// cross_thread_prolog:") {
                    cross = true;
                } else if !value.ends_with("prolog:") && code(value) != "nop" {
                    let list = if cross {
                        &mut s.cross_thread_prolog
                    } else {
                        &mut s.per_thread_prolog
                    };
                    list.extend(prolog_item(value));
                }
            }
            "cr0" => s.cr0.push(code(value)),
            "epilog" => s.epilog.push(epilog_item(value)),
            _ => {}
        }
    }
    out
}

/// (offset, size) of an `.input` line.
fn input(line: &str) -> (u32, u32) {
    let field = |k: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("`{line}`: no {k}"))
    };
    (field("offset="), field("size="))
}

/// Our kernel's skeleton: its vISA text and GenX_IR's listing.
fn ours(text: &str, asm: &str) -> Skeleton {
    let mut s = Skeleton {
        floats: text
            .split(|c: char| c.is_whitespace() || c == ',')
            .any(|w| {
                matches!(w, "type=f" | "type=hf" | "type=df")
                    || [":f", ":hf", ":df"].iter().any(|t| w.ends_with(t))
            }),
        ..Skeleton::default()
    };
    for l in text.lines() {
        if l.starts_with(".kernel_attr") {
            s.attrs.push(l.trim().to_string());
        } else if l.starts_with(".input") {
            s.inputs.push(input(l));
        }
    }
    let mut lines: Vec<&str> = Vec::new();
    let (mut prolog, mut cross) = (false, false);
    for l in asm.lines() {
        let t = l.trim();
        if t == "per_thread_prolog:" {
            prolog = true;
            continue;
        }
        if t.starts_with("// cross_thread_prolog:") {
            cross = true;
            continue;
        }
        if t.is_empty() || t.starts_with("//") || t.ends_with(':') {
            continue;
        }
        // The kernel's instructions carry their vISA number (`// $N`); the prolog's
        // carry none, but for its sends. The kernel starts at instruction 1, or where
        // the finalizer folded that away (a kernel without a float mode to set starts
        // with a move it may coalesce), at the first other numbered instruction.
        let tag = t.split("//").nth(1).map(str::trim).unwrap_or("");
        if prolog && (tag == "$1" || (tag.starts_with('$') && !code(t).contains("send"))) {
            prolog = false;
        }
        if prolog {
            if code(t) != "nop" {
                let list = if cross {
                    &mut s.cross_thread_prolog
                } else {
                    &mut s.per_thread_prolog
                };
                list.extend(prolog_item(t));
            }
            continue;
        }
        if t.contains("cr0.0<1>") {
            s.cr0.push(code(t));
        }
        lines.push(t);
    }
    for (e, l) in lines.iter().enumerate() {
        if !l.split('{').nth(1).is_some_and(|w| w.contains("EOT")) {
            continue;
        }
        let mut start = e;
        while start > 0
            && (lines[start - 1].contains("fence")
                || lines[start - 1].contains("memory fence commit"))
        {
            start -= 1;
        }
        s.epilog
            .extend(lines[start..=e].iter().map(|l| epilog_item(l)));
    }
    s
}

/// The registers (of `grf` bytes) the inputs below byte `end` touch.
fn registers(inputs: &[(u32, u32)], grf: u32, end: u32) -> BTreeSet<u32> {
    inputs
        .iter()
        .filter(|(o, _)| *o < end)
        .flat_map(|&(o, n)| (o / grf)..=((o + n - 1) / grf))
        .collect()
}

/// The differences between IGC's skeleton and ours.
fn compare(igc: &Skeleton, ours: &Skeleton, grf: u32, per_thread: u32) -> Vec<String> {
    let mut out = Vec::new();
    let mut same = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        let (a, b) = (format!("{a:?}"), format!("{b:?}"));
        if a != b {
            out.push(format!("{what}: IGC {a}, ours {b}"));
        }
    };
    same("kernel attributes", &igc.attrs, &ours.attrs);
    // The local ids fill the registers after r0, and the cross-thread inputs start
    // right after them.
    let end = grf + per_thread;
    let ids: BTreeSet<u32> = (1..end / grf).collect();
    same(
        "local-id registers",
        &registers(&igc.inputs, grf, end),
        &registers(&ours.inputs, grf, end),
    );
    same(
        "local-id registers (IGC)",
        &ids,
        &registers(&igc.inputs, grf, end),
    );
    // (Our kernel of a program without cross-thread inputs has none.)
    let cross = |s: &Skeleton| s.inputs.iter().map(|i| i.0).filter(|&o| o >= end).min();
    same("first cross-thread input (IGC)", &Some(end), &cross(igc));
    if cross(ours).is_some() {
        same("first cross-thread input", &cross(igc), &cross(ours));
    }
    same(
        "per-thread prolog",
        &igc.per_thread_prolog,
        &ours.per_thread_prolog,
    );
    same(
        "a cross-thread prolog",
        &igc.cross_thread_prolog.is_empty(),
        &ours.cross_thread_prolog.is_empty(),
    );
    if ours.floats || !ours.cr0.is_empty() {
        same("float mode", &igc.cr0, &ours.cr0);
    }
    same("epilog", &igc.epilog, &ours.epilog);
    out
}

#[test]
fn our_kernels_have_the_skeleton_of_igcs() {
    let mut jobs = Vec::new();
    let mut cases = Vec::new();
    for (igc_device, preset) in DEVICES {
        let device = Device::preset(preset).unwrap();
        for (program, skeleton) in reference(igc_device) {
            let path = reference_dir().join(format!("{program}.ir"));
            let mut shader = common::parse(&std::fs::read_to_string(&path).unwrap());
            common::lower(&mut shader, &device, &Default::default())
                .unwrap_or_else(|e| panic!("{program} on {preset}: {e}"));
            let k = visa::emit_kernel(&shader, &device, &Default::default())
                .unwrap_or_else(|e| panic!("{program} on {preset}: {e}"));
            jobs.push((k.text.clone(), k.genx_platform.unwrap().to_string()));
            cases.push((program, preset, skeleton, k, device.grf_bytes));
        }
    }
    // Every program on every device.
    assert_eq!(cases.len(), 6 * 9 - 1, "{}", cases.len());
    if !common::have_genx("our_kernels_have_the_skeleton_of_igcs") {
        return;
    }
    let results = visa::igc::compile_many(jobs, 2);
    let mut failures = Vec::new();
    for ((program, preset, igc, k, grf), r) in cases.iter().zip(results) {
        let c = r.unwrap_or_else(|e| panic!("{program} on {preset}: {e}"));
        let ours = ours(&k.text, &c.asm);
        for d in compare(igc, &ours, *grf, k.abi.per_thread_bytes) {
            failures.push(format!("{program} on {preset}: {d}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison sees a missing fence, a kernel attribute too many and a prolog that
/// loads the wrong bytes.
#[test]
fn the_comparison_finds_a_difference() {
    let tgl = reference("tgllp");
    let (_, buffer) = tgl.iter().find(|(p, _)| p == "buffer").unwrap();
    let mut ours = Skeleton {
        attrs: buffer.attrs.clone(),
        inputs: buffer.inputs.clone(),
        cr0: buffer.cr0.clone(),
        epilog: buffer.epilog.clone(),
        ..Skeleton::default()
    };
    assert!(compare(buffer, &ours, 32, 96).is_empty());
    ours.epilog.retain(|e| e != "commit");
    ours.attrs.push(".kernel_attr PerThreadInputSize=96".into());
    let d = compare(buffer, &ours, 32, 96);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(
        d[0].starts_with("kernel attributes") && d[1].starts_with("epilog"),
        "{d:?}"
    );
    let dg2 = reference("dg2");
    let (_, simd32) = dg2.iter().find(|(p, _)| p == "simd32").unwrap();
    let mut ours = Skeleton {
        attrs: simd32.attrs.clone(),
        inputs: simd32.inputs.clone(),
        per_thread_prolog: simd32.per_thread_prolog.clone(),
        cross_thread_prolog: simd32.cross_thread_prolog.clone(),
        cr0: simd32.cr0.clone(),
        epilog: simd32.epilog.clone(),
        floats: false,
    };
    assert!(compare(simd32, &ours, 32, 192).is_empty());
    let first_load = ours
        .per_thread_prolog
        .iter_mut()
        .find(|l| l.starts_with("send"))
        .unwrap();
    *first_load = "send 0x0 0x22843fd".into();
    let d = compare(simd32, &ours, 32, 192);
    assert!(
        d.len() == 1 && d[0].starts_with("per-thread prolog"),
        "{d:?}"
    );
}
