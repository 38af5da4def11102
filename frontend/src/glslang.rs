//! GLSL into SPIR-V with glslang, the reference GLSL compiler, run as the
//! `glslangValidator` executable (Debian `glslang-tools`; `GLSLANG_VALIDATOR` names
//! another): a Vulkan 1.2 compute shader (`-V --target-env vulkan1.2 -S comp`) with
//! debug lines (`-g`), so the translator's errors and the IR's spans point into the
//! GLSL; `#include`s resolve in the directories given (`-I`).

use crate::error::{ErrorKind, ImportError, Location};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The executable that compiles GLSL.
pub fn executable() -> String {
    std::env::var("GLSLANG_VALIDATOR").unwrap_or_else(|_| "glslangValidator".to_string())
}

/// Compiles GLSL compute shader text to a SPIR-V module, `#include`s resolving in
/// `include_dirs`.
pub fn compile(bytes: &[u8], include_dirs: &[std::path::PathBuf]) -> Result<Vec<u8>, ImportError> {
    compile_text(bytes, include_dirs).map(|c| c.spirv)
}

/// A compiled GLSL shader: the SPIR-V, and the name its `OpString`s (and glslang's
/// messages) give the shader's own file, as opposed to the files it `#include`s.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The SPIR-V module.
    pub spirv: Vec<u8>,
    /// The shader's file as glslang names it.
    pub main_file: String,
}

/// [`compile`], with the name of the shader's own file in the debug information.
pub fn compile_text(
    bytes: &[u8],
    include_dirs: &[std::path::PathBuf],
) -> Result<Compiled, ImportError> {
    let parse = |loc: Location, m: String| ImportError::new(ErrorKind::Parse, loc, m);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        parse(
            Location::Unknown,
            format!(
                "the GLSL input is not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "frontend-glslang-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let io = |what: &str, e: std::io::Error| {
        parse(Location::Unknown, format!("cannot {what} for glslang: {e}"))
    };
    std::fs::create_dir_all(&dir).map_err(|e| io("make a directory", e))?;
    let input = dir.join("shader.comp");
    let output = dir.join("shader.spv");
    let main_file = input.display().to_string();
    let result = (|| {
        std::fs::write(&input, text).map_err(|e| io("write the GLSL", e))?;
        let exe = executable();
        let mut cmd = Command::new(&exe);
        cmd.args(["-V", "--target-env", "vulkan1.2", "-S", "comp", "-g"]);
        for d in include_dirs {
            // glslang takes an empty `-I` for a missing argument and refuses to run.
            let d = if d.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                d.as_path()
            };
            cmd.arg(format!("-I{}", d.display()));
        }
        let run = cmd
            .arg("-o")
            .arg(&output)
            .arg(&input)
            .output()
            .map_err(|e| {
                parse(
                    Location::Unknown,
                    format!(
                        "GLSL is compiled by glslang's `{exe}`, which cannot run here ({e}); install \
                         it (Debian package glslang-tools)"
                    ),
                )
            })?;
        if !run.status.success() {
            return Err(glslang_error(
                &String::from_utf8_lossy(&run.stdout),
                &String::from_utf8_lossy(&run.stderr),
                &main_file,
            ));
        }
        let spirv = std::fs::read(&output).map_err(|e| io("read glslang's SPIR-V", e))?;
        Ok(Compiled {
            spirv,
            main_file: main_file.clone(),
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// glslang's first error (`ERROR: FILE:LINE: message`) as an import error at its line
/// when FILE is the shader's own (`main_file`), else naming the included file and line
/// in the message; without one, the first line glslang printed (its complaints about
/// its own command line go to standard output without the prefix).
fn glslang_error(out: &str, err: &str, main_file: &str) -> ImportError {
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("ERROR: ")).collect();
    let Some(first) = errors.first() else {
        let said = out
            .lines()
            .chain(err.lines())
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.ends_with("shader.comp"))
            .unwrap_or("glslang gave no message");
        return ImportError::new(
            ErrorKind::Parse,
            Location::Unknown,
            format!("glslang cannot compile the GLSL: {said}"),
        );
    };
    let body = &first["ERROR: ".len()..];
    // "path:LINE: message", where the path may hold colons of its own.
    let mut loc = Location::Unknown;
    let mut message = body.to_string();
    let parts: Vec<&str> = body.splitn(3, ':').collect();
    if let [file, line, rest] = parts.as_slice() {
        if let Ok(l) = line.trim().parse::<u32>() {
            if file.trim() == main_file {
                loc = Location::Text {
                    line: l.max(1),
                    column: 1,
                };
                message = rest.trim().to_string();
            } else {
                message = format!("{}:{l}: {}", file.trim(), rest.trim());
            }
        }
    }
    let more = match errors.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} more errors)", n - 1),
    };
    ImportError::new(
        ErrorKind::Parse,
        loc,
        format!("glslang cannot compile the GLSL: {message}{more}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_carry_glslang_lines() {
        let e = glslang_error("shader.comp\nERROR: /tmp/x/shader.comp:7: 'foo' : undeclared identifier\nERROR: 1 compilation errors.\n", "", "/tmp/x/shader.comp");
        assert_eq!(e.location, Location::Text { line: 7, column: 1 });
        assert!(e.message.contains("'foo' : undeclared identifier"), "{e}");
        assert!(e.message.contains("1 more"), "{e}");
    }

    #[test]
    fn errors_in_included_files_name_the_file() {
        let e = glslang_error(
            "ERROR: ./inc.h:3: 'x' : undeclared identifier\n",
            "",
            "/tmp/x/shader.comp",
        );
        assert_eq!(e.location, Location::Unknown);
        assert!(
            e.message.contains("./inc.h:3: 'x' : undeclared identifier"),
            "{e}"
        );
    }

    /// glslang's complaints about its command line have no `ERROR: ` prefix.
    #[test]
    fn an_error_without_a_line_says_what_glslang_said() {
        let said = "-I<dir> include path must immediately follow option (no spaces)";
        let e = glslang_error(&format!("{said}\n"), "", "shader.comp");
        assert_eq!(e.location, Location::Unknown);
        assert!(e.message.ends_with(said), "{e}");
        let e = glslang_error("", "", "shader.comp");
        assert!(e.message.ends_with("glslang gave no message"), "{e}");
    }
}
