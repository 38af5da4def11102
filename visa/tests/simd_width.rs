//! SIMD width selection: a shader that leaves its width free gets the widest width
//! GenX_IR compiles without spilling, among those its workgroup allows.
//!
//! The expected width is GenX_IR's own verdict, found here without the pressure
//! model: each allowed width, widest first, is emitted with the model switched off
//! (`Options::unchecked_pressure`) and compiled; the first one GenX_IR accepts without
//! a spill report is the width `visa::emit_confirmed` must choose.

mod common;

use lowering::{Device, LowerOptions};
use visa::igc::CheckError;
use visa::Options;

/// A shader that loads `n` vec4s and keeps them live across a barrier (which keeps
/// GenX_IR from moving the loads to their uses) until it sums their last components,
/// in workgroups of `wg` invocations.
fn many_live(n: usize, wg: u32) -> String {
    let mut body = String::new();
    for k in 0..n {
        body.push_str(&format!(
            "    64 %{o} = load_const ({off})\n    64 %{a} = iadd %2, %{o}\n    32x4 %{v} = @load_global (%{a}) (access=none, align_mul=16)\n",
            o = 100 + 3 * k,
            a = 101 + 3 * k,
            v = 102 + 3 * k,
            off = 16 * k
        ));
    }
    body.push_str("    @barrier\n");
    let mut acc = "%1".to_string();
    for k in 0..n {
        let s = 1000 + k;
        body.push_str(&format!("    32 %{s} = iadd {acc}, %{}.w\n", 102 + 3 * k));
        acc = format!("%{s}");
    }
    format!(
        "shader compute (local_size={wg},1,1)\nfn main {{\n  block b0:\n    32 %1 = load_const (0)\n    64 %2 = @load_push_constant (%1) (base=0, range=8)\n{body}    @store_global ({acc}, %2) (access=none, align_mul=4)\n}}\n"
    )
}

/// The widths a workgroup of `wg` invocations allows on `platform`, widest first,
/// written out from brw's rules (Mesa `brw_simd_should_compile`): PVC dispatches
/// SIMD16 and SIMD32 only; a width needing more threads than a workgroup may have (56
/// on BDW, SKL and ICL, 64 elsewhere: `max_cs_workgroup_threads`) or whose half holds
/// the whole workgroup is skipped; SIMD32 only when no narrower width is left.
fn allowed(platform: &str, wg: u32) -> Vec<u32> {
    let all: &[u32] = if platform == "pvc" {
        &[32, 16]
    } else {
        &[32, 16, 8]
    };
    let max_threads = if ["bdw", "skl", "icl"].contains(&platform) {
        56
    } else {
        64
    };
    let narrowest = *all.last().unwrap();
    let fits = |w: u32| wg.div_ceil(w) <= max_threads;
    let narrower: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&w| w < 32 && fits(w) && (w == narrowest || wg > w / 2))
        .collect();
    if narrower.is_empty() {
        all.iter().copied().filter(|&w| fits(w)).collect()
    } else {
        narrower
    }
}

/// The widest allowed width at which GenX_IR compiles the kernel without spilling.
fn genx_width(shader: &ir::Shader, device: &Device, wg: u32, what: &str) -> u32 {
    for w in allowed(&device.name, wg) {
        let mut options = Options::with_simd(w);
        options.unchecked_pressure = true;
        let k = visa::emit_kernel(shader, device, &options)
            .unwrap_or_else(|e| panic!("{what} at SIMD{w}: {e}"));
        let platform = k.genx_platform.expect("a GenX_IR platform");
        match visa::igc::compile(&k.text, platform) {
            Ok(_) => return w,
            Err(CheckError::Spilled { .. }) => continue,
            Err(e) => panic!("{what} at SIMD{w}: {e}"),
        }
    }
    panic!("{what}: GenX_IR spills at every width")
}

const PLATFORMS: [&str; 7] = ["bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc"];

#[test]
fn the_chosen_width_is_the_widest_genx_ir_compiles_without_spilling() {
    if !common::have_genx("the_chosen_width_is_the_widest_genx_ir_compiles_without_spilling") {
        return;
    }
    // 1,024 invocations need SIMD32 where a workgroup has at most 56 threads.
    let mut shaders: Vec<(String, String)> =
        [(4, 64), (12, 64), (24, 64), (8, 8), (8, 16), (1, 1024)]
            .iter()
            .map(|&(n, wg)| (format!("{n} vec4s live, workgroup {wg}"), many_live(n, wg)))
            .collect();
    for ex in ["blur.ir", "histogram.ir"] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/");
        shaders.push((
            ex.to_string(),
            std::fs::read_to_string(format!("{path}{ex}")).unwrap(),
        ));
    }
    let mut widths = Vec::new();
    for plat in PLATFORMS {
        let device = Device::preset(plat).unwrap();
        for (name, text) in &shaders {
            let mut shader = common::parse(text);
            common::lower(&mut shader, &device, &LowerOptions::default())
                .unwrap_or_else(|e| panic!("{name} on {plat}: {e}"));
            let wg: u32 = shader.local_size.iter().product();
            let what = format!("{name} on {plat}");
            let want = genx_width(&shader, &device, wg, &what);
            let got = visa::emit_confirmed(&shader, &device, &Options::default())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                matches!(got.verdict, Some(Ok(_))),
                "{what}: {:?}",
                got.verdict
            );
            assert_eq!(got.kernel.abi.simd, want, "{what}");
            widths.push(format!("{plat} {name}: SIMD{want}"));
        }
    }
    eprintln!("{}", widths.join("\n"));
    // The shaders reach every width somewhere, or the test would not tell them apart.
    for w in [8, 16, 32] {
        assert!(
            widths.iter().any(|l| l.ends_with(&format!("SIMD{w}"))),
            "no shader chose SIMD{w}"
        );
    }
}

#[test]
fn a_fixed_width_stays_fixed() {
    let dg2 = Device::preset("dg2").unwrap();
    // 24 vec4s at SIMD32 take 24 * 4 * 128 = 12,288 bytes, far more than DG2's 128
    // registers of 32 bytes hold: a fixed SIMD32 is not narrowed. It spills (GenX_IR's
    // listing carries the spill code), or, with spills forbidden, is refused.
    let shader = common::parse(&many_live(24, 64));
    let e =
        visa::emit_confirmed(&shader, &dg2, &Options::with_simd(32).without_spills()).unwrap_err();
    assert!(
        matches!(*e.kind, visa::EmitErrorKind::RegisterPressure { .. }),
        "{e}"
    );
    let c = visa::emit_confirmed(&shader, &dg2, &Options::with_simd(32)).unwrap();
    assert_eq!(c.kernel.abi.simd, 32);
    assert!(c.kernel.spill_estimate.is_some());
    if let Some(verdict) = c.verdict {
        let compiled = verdict.unwrap_or_else(|e| panic!("{e}"));
        assert!(compiled.spill_bytes.is_some());
    }
    let free = visa::emit_kernel(&shader, &dg2, &Options::default()).unwrap();
    assert!(free.abi.simd < 32);
}

#[test]
fn small_workgroups_skip_the_widths_their_half_would_hold() {
    // As brw: 8 invocations run at SIMD8 where it exists (SIMD16 would leave half its
    // lanes empty), at SIMD16 on PVC; larger workgroups at SIMD16 (SIMD8 if SIMD16
    // spills), SIMD32 only when 16-wide threads cannot hold the workgroup: 1,024
    // invocations are 64 SIMD16 threads, more than SKL's 56.
    for (plat, wg, want) in [
        ("dg2", 8, vec![8]),
        ("dg2", 16, vec![16, 8]),
        ("dg2", 17, vec![16, 8]),
        ("dg2", 1024, vec![16]),
        ("skl", 1024, vec![32]),
        ("tgl", 1024, vec![16]),
        ("pvc", 8, vec![16]),
        ("pvc", 64, vec![16]),
    ] {
        let shader = common::parse(&many_live(1, wg));
        let d = Device::preset(plat).unwrap();
        assert_eq!(
            visa::candidate_widths(&shader, &d, &Options::default()).unwrap(),
            want,
            "{plat}, workgroup {wg}"
        );
    }
}
