//! The corpus of real compute shaders under `tests/corpus/` (origins and licences in
//! `tests/corpus/SOURCES.md`), as cases the suites import, lower and verify.
//!
//! `tests/corpus/MANIFEST.md` says what each entry point must do (import, or be refused
//! with an error naming a construct) and whether today's front end does it ([`manifest`]).
//! The cases below are the entry points that import today; the corpus test holds the
//! others to their rows.
//!
//! A GLSL file that imports today is a case twice: compiled by `glslangValidator`
//! (Debian `glslang-tools`) and read as a SPIR-V module, and as GLSL through the front
//! door (which compiles it with glslang too), unless it `#include`s a file beside it.
//! Each compute entry point of a module is a case of its own.
//!
//! [`for_each_lowered`] walks every case on every platform preset and hands the
//! lowered shader to a hook: the corpus test verifies it, and a back end's test can
//! compile it (for example through IGC's `GenX_IR`).

use frontend::{ErrorKind, Language};
use lowering::{Device, LowerOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus directory.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// One input of the corpus: a file read by one of naga's readers.
#[derive(Clone, Debug)]
pub struct Input {
    /// The file, relative to the corpus directory (`bevy/game_of_life.wgsl`).
    pub name: String,
    /// The reader.
    pub language: Language,
    /// The bytes the reader gets (the file, or the SPIR-V glslang made of it).
    pub bytes: Vec<u8>,
}

/// Files naga's GLSL reader cannot read, with naga's reason: the naga-IR oracle
/// (`frontend::oracle`) cannot check them. The test checks that each still fails, so
/// that the list shrinks when naga's reader grows.
pub const NAGA_GLSL_GAPS: &[(&str, &str)] = &[
    (
        "granite/fill_image.comp",
        "Unknown function 'memoryBarrierShared'",
    ),
    (
        "kompute/test_workgroup_shader.comp",
        "Storage address space",
    ),
    ("sascha_willems/edgedetect.comp", "Unknown function 'conv'"),
    ("sascha_willems/emboss.comp", "Unknown function 'conv'"),
    ("sascha_willems/sharpen.comp", "Unknown function 'conv'"),
];

/// Files of the corpus that other corpus files `#include` and that are no shaders of
/// their own (headers with a `.glsl` name).
pub const INCLUDED: &[&str] = &["dxvk/dxvk_formats.glsl"];

/// The corpus's shader files, sorted, relative to [`dir`] (the [`INCLUDED`] headers and
/// the licences are not shaders).
pub fn files() -> Vec<String> {
    fn walk(d: &Path, base: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(d) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, base, out);
            } else if Language::from_path(&p.to_string_lossy()).is_some() {
                if let Ok(rel) = p.strip_prefix(base) {
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    if !INCLUDED.contains(&rel.as_str()) {
                        out.push(rel);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&dir(), &dir(), &mut out);
    out.sort();
    out
}

/// Whether `glslangValidator` runs here. In CI (`CI` set) a missing tool is a failure,
/// not a skip.
pub fn have_glslang() -> bool {
    let ok = Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "glslangValidator is missing, and CI needs it (apt-get install glslang-tools)"
        );
        eprintln!("glslangValidator is not installed: the corpus's SPIR-V cases are skipped");
    }
    ok
}

/// The Vulkan environment the corpus's GLSL is compiled for (`--target-env`).
pub const TARGET_ENV: &str = "vulkan1.2";

/// Compiles a GLSL compute shader to SPIR-V (the [`TARGET_ENV`] target) with glslang;
/// `#include`s resolve beside the file.
pub fn glslang(path: &Path) -> Result<Vec<u8>, String> {
    // One file per call: the suites' tests compile the same shader on several threads
    // at once, and one's clean-up must not remove another's output.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!(
        "corpus-{}-{call}-{}.spv",
        std::process::id(),
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let r = Command::new("glslangValidator")
        .args(["-V", "--target-env", TARGET_ENV, "-S", "comp"])
        .arg(path)
        .arg("-o")
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run glslangValidator: {e}"))?;
    if !r.status.success() {
        return Err(format!(
            "glslangValidator rejects {}: {}",
            path.display(),
            String::from_utf8_lossy(&r.stdout)
        ));
    }
    let bytes = std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&out);
    Ok(bytes)
}

/// Every input that imports today (a `yes`/`imports` row of the manifest): each file in
/// its own language (GLSL without `#include`s), and each GLSL file as SPIR-V, when
/// glslang is there.
pub fn inputs() -> Result<Vec<Input>, String> {
    let glslang_here = have_glslang();
    let rows = manifest()?;
    let mut out = Vec::new();
    for name in files() {
        let imports_today = rows
            .iter()
            .any(|r| r.file == name && r.expected == Expected::Imports && r.today.is_yes());
        if !imports_today {
            continue;
        }
        let path = dir().join(&name);
        let language = Language::from_path(&name).ok_or("no language")?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{name}: {e}"))?;
        if language == Language::Glsl && glslang_here {
            out.push(Input {
                name: format!("{name} (glslang SPIR-V)"),
                language: Language::SpirV,
                bytes: glslang(&path)?,
            });
        }
        if language == Language::Glsl
            && (!glslang_here || String::from_utf8_lossy(&bytes).contains("#include"))
        {
            continue;
        }
        out.push(Input {
            name,
            language,
            bytes,
        });
    }
    Ok(out)
}

/// What the front end must do with an entry point (issue 19).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Import, lower on every platform and verify with 0 mismatches.
    Imports,
    /// Fail to import with an error whose text contains these words (the construct the
    /// IR does not have, e.g. `filtered sampling`).
    Refused(String),
}

/// Whether today's front end does what [`Expected`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Today {
    /// It does: the corpus test holds the entry point to its row.
    Yes,
    /// Not yet, for this reason: the entry point waits for the SPIR-V translator.
    AwaitsTranslator(String),
}

impl Today {
    /// Whether today's front end does what is expected.
    pub fn is_yes(&self) -> bool {
        *self == Today::Yes
    }
}

/// One row of `tests/corpus/MANIFEST.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The file, relative to [`dir`].
    pub file: String,
    /// The compute entry point.
    pub entry: String,
    /// What the front end must do with it.
    pub expected: Expected,
    /// Whether it does today.
    pub today: Today,
}

/// Reads `tests/corpus/MANIFEST.md`: every table row after the header, in order. A row
/// that does not have four cells of the documented forms is an error naming its line.
pub fn manifest() -> Result<Vec<Row>, String> {
    let path = dir().join("MANIFEST.md");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_manifest(&text)
}

/// Parses the manifest's table (see [`manifest`]).
pub fn parse_manifest(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') || line.starts_with("| file ") || line.starts_with("| ---") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [file, entry, expected, today] = cells[..] else {
            return Err(format!(
                "MANIFEST.md line {}: {} cells, expected 4 (file, entry, expected, today)",
                i + 1,
                cells.len()
            ));
        };
        let expected = match expected.strip_prefix("refused:") {
            Some(words) if !words.trim().is_empty() => Expected::Refused(words.trim().into()),
            _ if expected == "imports" => Expected::Imports,
            _ => {
                return Err(format!(
                "MANIFEST.md line {}: expected is `{expected}`, not `imports` or `refused: WORDS`",
                i + 1
            ))
            }
        };
        let today = match today.strip_prefix("awaits translator:") {
            Some(why) if !why.trim().is_empty() => Today::AwaitsTranslator(why.trim().into()),
            _ if today == "yes" => Today::Yes,
            _ => {
                return Err(format!(
                "MANIFEST.md line {}: today is `{today}`, not `yes` or `awaits translator: WHY`",
                i + 1
            ))
            }
        };
        rows.push(Row {
            file: file.into(),
            entry: entry.into(),
            expected,
            today,
        });
    }
    Ok(rows)
}

/// Whether `spirv-val` (Debian `spirv-tools`) runs here; in CI a missing tool is a
/// failure, not a skip.
pub fn have_spirv_val() -> bool {
    let ok = Command::new("spirv-val")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "spirv-val is missing, and CI needs it (apt-get install spirv-tools)"
        );
        eprintln!("spirv-val is not installed: the corpus's SPIR-V is not validated");
    }
    ok
}

/// Runs `spirv-val` for [`TARGET_ENV`] on a module; `Err` carries its verdict.
pub fn spirv_val(spirv: &[u8], name: &str) -> Result<(), String> {
    let file = std::env::temp_dir().join(format!(
        "corpus-val-{}-{}.spv",
        std::process::id(),
        name.replace(['/', ' ', '(', ')'], "_")
    ));
    std::fs::write(&file, spirv).map_err(|e| format!("{}: {e}", file.display()))?;
    let r = Command::new("spirv-val")
        .args(["--target-env", TARGET_ENV])
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run spirv-val: {e}"));
    let _ = std::fs::remove_file(&file);
    let r = r?;
    if r.status.success() {
        Ok(())
    } else {
        Err(format!(
            "spirv-val rejects {name}: {}{}",
            String::from_utf8_lossy(&r.stdout),
            String::from_utf8_lossy(&r.stderr)
        ))
    }
}

/// The compute entry points of an input.
pub fn entry_points(input: &Input) -> Result<Vec<String>, frontend::ImportError> {
    frontend::compute_entry_points(&input.bytes, input.language)
}

/// A lowering refusal the corpus expects: the case (a substring of its name), the
/// platform, and a substring of the error. Each is a rule of the lowering, documented
/// in `SOURCES.md`.
pub const DOCUMENTED_REFUSALS: &[(&str, &str, &str)] = &[
    // Sampled textures are read through the sampler, and Xe-HPC has none.
    ("vello/pseudo_blur.wgsl", "pvc", "has no 3D sampler"),
    ("niagara/shadowfill.comp", "pvc", "has no 3D sampler"),
    ("niagara/bloom.comp", "pvc", "has no 3D sampler"),
    ("vulkan_samples/threshold.comp", "pvc", "has no 3D sampler"),
    ("granite/image_write.comp", "pvc", "has no 3D sampler"),
    ("granite/subgroup.comp", "pvc", "has no 3D sampler"),
    ("granite/texel_buffer.comp", "pvc", "has no 3D sampler"),
    ("granite/bindless.comp", "pvc", "has no 3D sampler"),
    (
        "dxvk/d3d9_convert_a2w10v10u10.comp",
        "pvc",
        "has no 3D sampler",
    ),
    ("dxvk/d3d9_convert_l6v5u5.comp", "pvc", "has no 3D sampler"),
    (
        "dxvk/dxvk_copy_buffer_image.comp",
        "pvc",
        "has no 3D sampler",
    ),
    ("niagara/shadowblur.comp", "pvc", "has no 3D sampler"),
    (
        "dxvk/d3d9_convert_yuy2_uyvy.comp",
        "pvc",
        "has no 3D sampler",
    ),
];

/// Cases the vISA back end cannot emit yet (`tests/tests/corpus_genx.rs`): `(case
/// substring, substring of the emission error)`. They import, lower and verify; the
/// back end lacks a message. The test checks that each still fails, so that the list
/// shrinks when the back end grows.
pub const EMISSION_GAPS: &[(&str, &str)] = &[];

/// Cases whose vISA kernel the vISA leg does not yet verify (`tests/tests/visa_leg.rs`):
/// `(case substring, substring of the failure)`. The lowered shader verifies; the kernel
/// in the vISA interpreter differs in a few bytes. The test checks that each still fails
/// so that the list shrinks when the back end or the interpreter is fixed.
pub const VISA_LEG_GAPS: &[(&str, &str)] = &[];

/// Push-constant words some cases need for a run that ends (a loop count read from
/// them): `(case substring, ["OFFSET=V,..."])`, as `ir-opt verify --push` takes them.
pub const PUSH_CONSTANTS: &[(&str, &[&str])] = &[
    // num_blobs = 2, seed = 0.25, range = (1, 1).
    (
        "vulkan_samples/compute_buffer.comp",
        &["0=2,0x3e800000,1,1"],
    ),
    // burn_count = 4: the sample's loop count is a push constant.
    ("granite/burn.comp", &["0=4"]),
    // text.offset = (0, 0), text.scale = 2 (the loop counts), text.color = 0xff8040ff;
    // the characters are the seeded pattern's bytes (any byte indexes the font table).
    ("niagara/debugtext.comp", &["0=0,0,2,0xff8040ff"]),
    // llama.cpp's row operations: KX = 16 columns per row (the loop bound), KY = 1 and
    // two unused floats; with the default specialization (a workgroup of one
    // invocation), the rows of the default grid stay inside the 16384-element buffers.
    ("llama_cpp/argmax_f32.comp", &["0=16,1,0,0"]),
    ("llama_cpp/sum_rows_f32.comp", &["0=16,1,0,0"]),
    // KX = 32, KY = 1, scale = 1.0, max_bias = 0 (no ALiBi slope), m0 = m1 = 0,
    // n_head_log2 = 0, nrows_x = 4.
    (
        "llama_cpp/soft_max_f32.comp",
        &["0=32,1,0x3f800000,0,0,0,0,4"],
    ),
];

/// A case's descriptor counts and grid: `(case substring, [(set, binding, count)],
/// grid)`.
pub type DescriptorRun = (&'static str, &'static [(u32, u32, u32)], &'static str);

/// Runtime descriptor arrays some cases index with the invocation id, and the grid
/// their run dispatches so that the ids stay within the counts:
/// `(case substring, [(set, binding, count)], grid)`, as `ir-opt --descriptors
/// SET.BINDING=N --grid X` take them. (Vulkan leaves an index past the array undefined,
/// and the verifier reports it.)
pub const DESCRIPTOR_RUNS: &[DescriptorRun] = &[
    // One workgroup of 64 invocations indexes three arrays of sampled textures with its
    // global invocation id x.
    (
        "granite/bindless.comp",
        &[(0, 0, 64), (1, 0, 64), (2, 0, 64)],
        "1",
    ),
];

/// The descriptor counts case `name` is imported with.
pub fn descriptors(name: &str) -> frontend::DescriptorCounts {
    DESCRIPTOR_RUNS
        .iter()
        .filter(|(case, _, _)| name.contains(case))
        .flat_map(|(_, counts, _)| counts.iter())
        .map(|&(set, binding, n)| ((set, binding), n))
        .collect()
}

/// The grid case `name` runs with, if not the default.
pub fn grid(name: &str) -> Option<String> {
    DESCRIPTOR_RUNS
        .iter()
        .find(|(case, _, _)| name.contains(case))
        .map(|(_, _, g)| g.to_string())
}

/// Imports entry point `entry` of `input` as the corpus runs it (its descriptor counts).
pub fn import(input: &Input, entry: &str) -> Result<frontend::Imported, frontend::ImportError> {
    let options = frontend::Options {
        entry: Some(entry.to_string()),
        descriptors: descriptors(&input.name),
        ..frontend::Options::default()
    };
    frontend::import_with(&input.bytes, input.language, &options)
}

/// How case `name` runs on `target`: its push constants and grid.
pub fn run_options(name: &str, target: &str) -> verify::cli::RunOptions {
    verify::cli::RunOptions {
        target: Some(target.to_string()),
        push: push_constants(name),
        grid: grid(name),
        ..verify::cli::RunOptions::default()
    }
}

/// The push-constant words of case `name` (`--push` values), if it needs some.
pub fn push_constants(name: &str) -> Vec<String> {
    PUSH_CONSTANTS
        .iter()
        .filter(|(case, _)| name.contains(case))
        .flat_map(|(_, p)| p.iter().map(|s| s.to_string()))
        .collect()
}

/// What a hook sees: the case and the platform, and the shader before and after
/// lowering (or the lowering's error).
pub struct Lowered<'a> {
    /// The input.
    pub input: &'a Input,
    /// The entry point.
    pub entry: &'a str,
    /// The platform.
    pub device: &'a Device,
    /// The imported shader.
    pub shader: &'a ir::Shader,
    /// The lowered shader, or why the lowering refused.
    pub lowered: Result<ir::Shader, verify::verifier::VerifyError>,
}

/// Imports every case (every input's every compute entry point) and lowers it for
/// every platform preset with the default options, calling `hook` for each. An import
/// failure is returned as an error naming the case.
pub fn for_each_lowered(mut hook: impl FnMut(Lowered<'_>)) -> Result<usize, String> {
    let mut n = 0;
    for input in inputs()? {
        let entries = entry_points(&input).map_err(|e| format!("{}: {e}", input.name))?;
        if entries.is_empty() {
            return Err(format!("{}: no compute entry point", input.name));
        }
        for entry in &entries {
            let imported = import(&input, entry)
                .map_err(|e| format!("{} (entry {entry}): {e}", input.name))?;
            for device in Device::presets() {
                let lowered =
                    verify::verifier::lower(&imported.shader, &device, &LowerOptions::default())
                        .map(|l| l.lowered);
                hook(Lowered {
                    input: &input,
                    entry,
                    device: &device,
                    shader: &imported.shader,
                    lowered,
                });
                n += 1;
            }
        }
    }
    Ok(n)
}

/// Whether an import error is naga's GLSL reader (the oracle's) refusing the file for
/// the reason [`NAGA_GLSL_GAPS`] records.
pub fn is_known_glsl_gap(name: &str, e: &frontend::ImportError) -> bool {
    matches!(e.kind, ErrorKind::Parse | ErrorKind::Invalid)
        && NAGA_GLSL_GAPS
            .iter()
            .any(|(n, why)| *n == name && e.message.contains(why))
}
