//! The corpus of real compute shaders under `tests/corpus/` (origins and licences in
//! `tests/corpus/SOURCES.md`), as cases the suites import, lower and verify.
//!
//! Every file is stored verbatim. A GLSL file is a case twice: as GLSL through the front
//! door (which compiles it with glslang) and as the SPIR-V `glslangValidator` (Debian
//! `glslang-tools`) makes of it, read as a SPIR-V module. Each compute entry point of a
//! module is a case of its own.
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
    ("sascha_willems/edgedetect.comp", "Unknown function 'conv'"),
    ("sascha_willems/emboss.comp", "Unknown function 'conv'"),
    ("sascha_willems/sharpen.comp", "Unknown function 'conv'"),
];

/// The corpus files, sorted, relative to [`dir`].
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
                    out.push(rel.to_string_lossy().replace('\\', "/"));
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

/// Compiles a GLSL compute shader to SPIR-V (Vulkan 1.1 target) with glslang.
pub fn glslang(path: &Path) -> Result<Vec<u8>, String> {
    let out = std::env::temp_dir().join(format!(
        "corpus-{}-{}.spv",
        std::process::id(),
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    let r = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-S", "comp"])
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

/// Every input: each file in its own language, and each GLSL file also as SPIR-V, when
/// glslang is there.
pub fn inputs() -> Result<Vec<Input>, String> {
    let glslang_here = have_glslang();
    let mut out = Vec::new();
    for name in files() {
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
        if language == Language::Glsl && !glslang_here {
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
];

/// Push-constant words some cases need for a run that ends (a loop count read from
/// them): `(case substring, ["OFFSET=V,..."])`, as `ir-opt verify --push` takes them.
pub const PUSH_CONSTANTS: &[(&str, &[&str])] = &[
    // num_blobs = 2, seed = 0.25, range = (1, 1).
    (
        "vulkan_samples/compute_buffer.comp",
        &["0=2,0x3e800000,1,1"],
    ),
];

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
            let imported = frontend::import(&input.bytes, input.language, Some(entry))
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
    e.kind == ErrorKind::Parse
        && NAGA_GLSL_GAPS
            .iter()
            .any(|(n, why)| *n == name && e.message.contains(why))
}
