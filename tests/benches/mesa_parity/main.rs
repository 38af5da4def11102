//! Parity with Mesa's anv (issue 21 item 4): every corpus shader (`tests/corpus/`,
//! every row of its manifest) compiled by anv on a stubbed SKL, ICL, TGL and DG2 and by
//! this project (`-O`, vISA, GenX_IR), side by side: Gen instructions per lane, sends,
//! SIMD widths, spills, ours / anv's; geomean and worst per platform. Shaders one side
//! cannot compile are listed as failures with the reason, never dropped.
//!
//! ```sh
//! bash tools/anv-stub/setup.sh                # once: builds Mesa's noop DRM shim
//! cargo bench -p suites --bench mesa_parity   # [-- --only SUBSTR --platforms skl,dg2]
//! cargo bench -p suites --bench mesa_parity -- --dir DIR   # shaders not in the corpus
//! ```
//!
//! `--dir DIR` compares every shader under `DIR` instead of the corpus: `.comp` files
//! (compiled by `glslangValidator`, as the corpus is), `.wgsl` files and `.spv` modules,
//! each at every compute entry point; how a new user would try shaders of their own.
//!
//! anv runs in a child process (this binary, `--anv-compile FILE.spv --entry NAME`),
//! the shim preloaded: `LD_PRELOAD`, `INTEL_STUB_GPU_PLATFORM`, `INTEL_DEBUG=cs`,
//! `MESA_SHADER_CACHE_DISABLE=true`, `VK_ICD_FILENAMES` (anv's ICD). The shim is
//! `$ANV_STUB_SHIM`, else where `tools/anv-stub/setup.sh` builds it. What is counted on
//! each side: `count.rs`. Then the IGC pairs (`pairs.rs`, `tests/parity/igc/`): OpenCL C
//! through `ocloc` against our kernel for the same program (`--no-igc` skips them).

mod count;
mod pairs;
mod vulkan;

use count::Stats;
use frontend::Language;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use suites::corpus;

/// The platforms anv's stub runs (`bdw` and `hsw` need hasvk, which crashes on it).
const PLATFORMS: [&str; 4] = ["skl", "icl", "tgl", "dg2"];

/// anv's ICD manifest (Debian's `mesa-vulkan-drivers`).
const ICD: &str = "/usr/share/vulkan/icd.d/intel_icd.x86_64.json";

/// How long one anv compile may take.
const ANV_TIMEOUT: Duration = Duration::from_secs(120);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let Some(file) = value("--anv-compile") {
        let entry = value("--entry").unwrap_or_else(|| "main".into());
        let r = std::fs::read(&file)
            .map_err(|e| format!("{file}: {e}"))
            .and_then(|spv| vulkan::create_compute_pipeline(&spv, &entry));
        if let Err(e) = r {
            eprintln!("anv-compile: {file}: {e}");
            std::process::exit(1);
        }
        return;
    }
    let only = value("--only");
    let platforms: Vec<String> = value("--platforms")
        .map(|p| p.split(',').map(str::to_string).collect())
        .unwrap_or_else(|| PLATFORMS.iter().map(|p| p.to_string()).collect());
    let Some(shim) = find_shim() else {
        eprintln!(
            "mesa_parity: Mesa's noop DRM shim is not built: run `bash tools/anv-stub/setup.sh` \
             (or set ANV_STUB_SHIM); nothing compared"
        );
        return;
    };
    if visa::igc::find_tool().is_none() {
        eprintln!(
            "mesa_parity: GenX_IR is missing (apt-get install libigc-tools); nothing compared"
        );
        return;
    }
    let rows = match value("--dir") {
        Some(d) => shaders_under(Path::new(&d)),
        None => corpus::manifest().map(|rows| {
            rows.into_iter()
                .map(|r| (corpus::dir().join(&r.file), r.file, r.entry))
                .collect()
        }),
    };
    let rows = match rows {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mesa_parity: {e}");
            std::process::exit(1);
        }
    };
    let dir = std::env::temp_dir().join(format!("mesa-parity-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut results = Vec::new();
    for (path, file, entry) in &rows {
        // A corpus row names its entry; a shader of `--dir` is read for its first.
        let named = if entry.is_empty() {
            file.clone()
        } else {
            format!("{file} ({entry})")
        };
        if only.as_ref().is_some_and(|o| !named.contains(o.as_str())) {
            continue;
        }
        let spv = spirv_of(path);
        // A shader of `--dir` is compared at each of its compute entry points.
        let entries = match (entry.is_empty(), &spv) {
            (true, Ok(bytes)) => frontend::compute_entry_points(bytes, Language::SpirV)
                .ok()
                .filter(|e| !e.is_empty())
                .unwrap_or_else(|| vec!["main".into()]),
            _ => vec![entry.clone()],
        };
        for entry in &entries {
            let case = format!("{file} ({entry})");
            let spv_path = dir.join(format!("{}-{}.spv", file.replace('/', "_"), entry));
            if let Ok(bytes) = &spv {
                let _ = std::fs::write(&spv_path, bytes);
            }
            for p in &platforms {
                let (anv, ours) = match &spv {
                    Err(e) => (Err(e.clone()), Err(e.clone())),
                    Ok(bytes) => (anv(&shim, &spv_path, entry, p), ours(bytes, entry, p)),
                };
                print_row(&case, p, "anv", &anv, &ours);
                results.push((case.clone(), p.clone(), anv, ours));
            }
        }
    }
    summarize(&results, &platforms);
    if !args.iter().any(|a| a == "--no-igc") {
        println!();
        println!(
            "IGC pairs (tests/parity/igc: OpenCL C through ocloc, against our kernel of the .ir):"
        );
        let igc_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("parity/igc");
        for (name, cl, ir) in pairs::pairs(&igc_dir) {
            for p in &platforms {
                let igc = pairs::igc(&cl, p, &dir);
                let ours = pairs::ours(&ir, p);
                print_row(&format!("igc/{name}"), p, "IGC", &igc, &ours);
                for (side, r) in [("IGC", &igc), ("ours", &ours)] {
                    if let Err(e) = r {
                        println!("  igc/{name} on {p}: {side}: {e}");
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shim: `$ANV_STUB_SHIM`, else `tools/anv-stub/setup.sh`'s default build.
fn find_shim() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ANV_STUB_SHIM") {
        return Some(PathBuf::from(p)).filter(|p| p.exists());
    }
    let cache = std::env::var_os("ANV_STUB_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(|c| PathBuf::from(c).join("anv-stub"))
                .or_else(|| {
                    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/anv-stub"))
                })
        })?;
    let p = cache.join("mesa-22.3.6/build/src/intel/tools/libintel_noop_drm_shim.so");
    p.exists().then_some(p)
}

/// The shaders under `root` for `--dir`: `(path, name relative to root, entry)`, the
/// entry left empty for the module's first compute entry point.
fn shaders_under(root: &Path) -> Result<Vec<(PathBuf, String, String)>, String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "comp" || x == "wgsl" || x == "spv")
            {
                let name = p.strip_prefix(root).unwrap_or(&p).display().to_string();
                out.push((p, name, String::new()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The SPIR-V both compilers get: glslang's for GLSL (`--target-env vulkan1.2`, as the
/// corpus test compiles it), naga's SPIR-V writer for WGSL, a `.spv` file's own bytes.
fn spirv_of(path: &Path) -> Result<Vec<u8>, String> {
    let file = path.display().to_string();
    if path.extension().is_some_and(|x| x == "spv") {
        return std::fs::read(path).map_err(|e| format!("{file}: {e}"));
    }
    match Language::from_path(&file) {
        Some(Language::Glsl) => corpus::glslang(path),
        // The front door's own WGSL path: naga's SPIR-V writer after the `override`s
        // took their defaults.
        Some(Language::Wgsl) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{file}: {e}"))?;
            frontend::to_spirv(&bytes, Language::Wgsl, &frontend::SpecMap::default())
                .map_err(|e| format!("naga cannot write SPIR-V: {}", first_line(&e.to_string())))
        }
        _ => Err(format!("{file}: neither GLSL nor WGSL")),
    }
}

/// anv's compile of `spv` on `platform`, from a child with the shim preloaded.
fn anv(shim: &Path, spv: &Path, entry: &str, platform: &str) -> Result<Stats, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut child = Command::new(exe)
        .arg("--anv-compile")
        .arg(spv)
        .args(["--entry", entry])
        .env("LD_PRELOAD", shim)
        .env("INTEL_STUB_GPU_PLATFORM", platform)
        .env("INTEL_DEBUG", "cs")
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .env("VK_ICD_FILENAMES", ICD)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the Vulkan program: {e}"))?;
    // Read stderr on a thread, so that a large NIR dump cannot fill the pipe.
    let mut pipe = child.stderr.take().ok_or("no stderr")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > ANV_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("anv took more than {} s", ANV_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let stderr = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("anv: {status}: {}", failure_reason(&stderr)));
    }
    count::parse_anv(&stderr).ok_or_else(|| "anv printed no SIMD report".into())
}

/// Our compile of a SPIR-V entry point: import, then [`compile_ours`].
fn ours(spv: &[u8], entry: &str, platform: &str) -> Result<Stats, String> {
    let imported = frontend::import(spv, Language::SpirV, Some(entry))
        .map_err(|e| format!("import: {}", first_line(&e.to_string())))?;
    compile_ours(imported.shader, platform)
}

/// `lower_shader` and the vISA kernel for one SIMD width: the shader compiled for that
/// width (its subgroup size fixed to it, unless the shader fixes its own), as brw
/// compiles a compute shader once per dispatch width. The register-pressure model does
/// not refuse the width: GenX_IR's spill report decides ([`compile_ours`]).
fn kernel_at(
    shader: &ir::Shader,
    device: &lowering::Device,
    simd: u32,
) -> Result<visa::Kernel, String> {
    let mut shader = shader.clone();
    shader.subgroup_size.get_or_insert(simd);
    lowering::lower_shader(&mut shader, device, &lowering::LowerOptions::default()).map_err(
        |e| {
            format!(
                "lowering: {}",
                e.first()
                    .map_or(String::new(), |e| first_line(&e.to_string()))
            )
        },
    )?;
    let mut options = visa::Options::default();
    options.unchecked_pressure = true;
    visa::emit_kernel(&shader, device, &options).map_err(|e| e.to_string())
}

/// The vISA kernel at the widest of brw's candidate widths (`visa::candidate_widths`)
/// that GenX_IR compiles without spilling (else the narrowest, spilled), counted: brw
/// compiles each width and keeps the widest without spills (`brw_simd_select`), and
/// GenX_IR's spill report is the fact the back end's pressure model approximates
/// (`visa::emit_confirmed` decides the same way for a shader of free width).
pub(crate) fn compile_ours(shader: ir::Shader, platform: &str) -> Result<Stats, String> {
    let device =
        lowering::Device::preset(platform).ok_or_else(|| format!("no platform {platform}"))?;
    let widths = visa::candidate_widths(&shader, &device, &visa::Options::default())
        .map_err(|e| format!("vISA: {}", first_line(&e.to_string())))?;
    let narrowest = widths.iter().copied().min();
    let mut last = Err("no SIMD width to compile for".to_string());
    for w in widths {
        let kernel = match kernel_at(&shader, &device, w) {
            Ok(k) => k,
            Err(e) if e.starts_with("lowering: ") => return Err(e),
            Err(e) => {
                last = Err(format!("vISA: {}", first_line(&e)));
                continue;
            }
        };
        let simd = kernel
            .text
            .lines()
            .find_map(|l| l.trim().strip_prefix(".kernel_attr SimdSize="))
            .and_then(|v| v.trim().parse().ok())
            .ok_or("the kernel has no SimdSize")?;
        let genx = kernel
            .genx_platform
            .ok_or_else(|| format!("GenX_IR has no platform for {platform}"))?;
        let compiled = if Some(w) == narrowest {
            visa::igc::compile_spilling(&kernel.text, genx)
        } else {
            match visa::igc::compile(&kernel.text, genx) {
                Err(visa::igc::CheckError::Spilled { .. }) => continue,
                r => r,
            }
        };
        return compiled
            .map(|c| count::parse_asm(&c.asm, simd))
            .map_err(|e| format!("GenX_IR: {}", first_line(&e.to_string())));
    }
    last
}

/// Why the anv child failed: its own error line, else a panic's message (the line
/// after `panicked at`), else its last line.
fn failure_reason(stderr: &str) -> &str {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    if let Some(l) = lines.iter().find(|l| l.starts_with("anv-compile:")) {
        return l;
    }
    if let Some(k) = lines.iter().position(|l| l.contains("panicked at")) {
        if let Some(l) = lines.get(k + 1) {
            return l;
        }
    }
    lines.last().copied().unwrap_or("no message")
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(140).collect()
}

/// One line of the table: the reference compiler's (`reference`: anv, IGC) side, ours,
/// and ours / the reference's instructions per lane.
fn print_row(
    case: &str,
    platform: &str,
    reference: &str,
    anv: &Result<Stats, String>,
    ours: &Result<Stats, String>,
) {
    let side = |r: &Result<Stats, String>| match r {
        Ok(s) => format!(
            "SIMD{:<2} {:>5} inst {:>7.1}/lane {:>3} sends {:>4} spill",
            s.simd,
            s.instructions,
            s.per_lane(),
            s.sends,
            s.spills
        ),
        Err(_) => format!("{:<46}", "FAILED"),
    };
    let ratio = match (anv, ours) {
        (Ok(a), Ok(o)) => format!("{:>6.2}x", o.per_lane() / a.per_lane()),
        _ => "     -".into(),
    };
    let prolog = ours
        .as_ref()
        .map_or(String::new(), |o| format!("(+{} prolog)", o.prolog));
    println!(
        "{case:<48} {platform:<4} {reference} {} | ours {} {prolog:<12} {ratio}",
        side(anv),
        side(ours)
    );
}

type Outcome = (String, String, Result<Stats, String>, Result<Stats, String>);

fn summarize(results: &[Outcome], platforms: &[String]) {
    println!();
    println!("failures (the side that cannot compile, and why):");
    for (case, p, a, o) in results {
        if let Err(e) = a {
            println!("  {case} on {p}: anv: {e}");
        }
        if let Err(e) = o {
            println!("  {case} on {p}: ours: {e}");
        }
    }
    println!();
    let mut all = Vec::new();
    for p in platforms
        .iter()
        .map(String::as_str)
        .chain(["skl+tgl+dg2", "all"])
    {
        let pick: Vec<&Outcome> = results
            .iter()
            .filter(|r| match p {
                "all" => true,
                "skl+tgl+dg2" => ["skl", "tgl", "dg2"].contains(&r.1.as_str()),
                _ => r.1 == p,
            })
            .collect();
        let ratios: Vec<(f64, &str)> = pick
            .iter()
            .filter_map(|(c, _, a, o)| match (a, o) {
                (Ok(a), Ok(o)) => Some((o.per_lane() / a.per_lane(), c.as_str())),
                _ => None,
            })
            .collect();
        let ours_failed = pick.iter().filter(|r| r.3.is_err() && r.2.is_ok()).count();
        let anv_failed = pick.iter().filter(|r| r.2.is_err()).count();
        let narrower = pick
            .iter()
            .filter(|r| matches!((&r.2, &r.3), (Ok(a), Ok(o)) if o.simd < a.simd))
            .count();
        let geomean = if ratios.is_empty() {
            f64::NAN
        } else {
            (ratios.iter().map(|(r, _)| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
        };
        let worst = ratios
            .iter()
            .cloned()
            .fold((0.0, ""), |w, r| if r.0 > w.0 { r } else { w });
        println!(
            "{p:<12} compared {:>3}, geomean ours/anv {geomean:.2}x, worst {:.2}x ({}), \
             ours narrower than anv {narrower}, ours failed {ours_failed} (anv compiled them), \
             anv failed {anv_failed}",
            ratios.len(),
            worst.0,
            worst.1
        );
        all.push(geomean);
    }
}
