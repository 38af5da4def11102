//! The IGC pairs (issue 21): OpenCL C programs under `tests/parity/igc/` compiled by
//! IGC through `ocloc` (Debian `intel-opencl-icd`; `IGC_ShaderDumpEnable=1
//! IGC_DumpToCustomDir=DIR` keeps its `.asm`), against our kernel for the same program,
//! written in the IR beside it (`NAME.cl` and `NAME.ir`). Both listings are counted by
//! `count::parse_asm`. The OpenCL kernels address their buffers with 64-bit pointers,
//! ours through binding-table indices: the counts include that difference.

use crate::count::{self, Stats};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `ocloc -device` for a platform preset.
fn ocloc_device(platform: &str) -> Option<&'static str> {
    Some(match platform {
        "skl" => "skl",
        "icl" => "icllp",
        "tgl" => "tgllp",
        "dg2" => "dg2",
        _ => return None,
    })
}

/// The pairs: every `.cl` of `dir` that has an `.ir` beside it, sorted.
pub fn pairs(dir: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let mut out: Vec<(String, PathBuf, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .filter_map(|cl| {
            let ir = cl.with_extension("ir");
            let name = cl.file_stem()?.to_string_lossy().into_owned();
            ir.exists().then_some((name, cl, ir))
        })
        .collect();
    out.sort();
    out
}

/// IGC's kernel for `cl` on `platform`.
pub fn igc(cl: &Path, platform: &str, scratch: &Path) -> Result<Stats, String> {
    let device = ocloc_device(platform).ok_or_else(|| format!("no ocloc device for {platform}"))?;
    let dump = scratch.join(format!(
        "igc-{}-{platform}",
        cl.file_stem().unwrap_or_default().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&dump);
    let out = Command::new("ocloc")
        .args(["compile", "-file"])
        .arg(cl)
        .args(["-device", device, "-out_dir"])
        .arg(dump.join("out"))
        .env("IGC_ShaderDumpEnable", "1")
        .env("IGC_DumpToCustomDir", &dump)
        .output()
        .map_err(|e| format!("cannot run ocloc (Debian intel-opencl-icd): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "ocloc: {}",
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    let asm = std::fs::read_dir(&dump)
        .map_err(|e| format!("{}: {e}", dump.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "asm")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains("_simd"))
        })
        .ok_or("IGC dumped no .asm")?;
    let name = asm
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let simd = name
        .split("_simd")
        .nth(1)
        .and_then(|s| s.split('_').next())
        .and_then(|s| s.parse().ok())
        .ok_or("the .asm's name has no SIMD width")?;
    let text = std::fs::read_to_string(&asm).map_err(|e| format!("{}: {e}", asm.display()))?;
    Ok(count::parse_asm(&text, simd))
}

/// Our kernel for the IR program `ir`: parsed, lowered, emitted as for the corpus.
pub fn ours(ir: &Path, platform: &str) -> Result<Stats, String> {
    let text = std::fs::read_to_string(ir).map_err(|e| format!("{}: {e}", ir.display()))?;
    let shader = ir::parse_shader(&text).map_err(|d| {
        format!(
            "{}: {}",
            ir.display(),
            d.first().map_or(String::new(), |d| d.message.clone())
        )
    })?;
    crate::compile_ours(shader, platform)
}
