//! Plumbing shared by the command-line tools: reading inputs, rendering diagnostics,
//! exit codes.

use ir::diag::{render_all, Diagnostic};
use std::io::Read;
use std::path::Path;

/// A problem that ends a tool run with exit status 1, already rendered for stderr.
#[derive(Debug)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

/// Reads `path`, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, Failure> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure(format!("error: cannot read standard input: {e}")))?;
    } else {
        text = std::fs::read_to_string(Path::new(path))
            .map_err(|e| Failure(format!("error: cannot read `{path}`: {e}")))?;
    }
    Ok(text)
}

/// Writes `text` to `path`, or standard output when `path` is `None` or `-`.
pub fn write_output(path: Option<&str>, text: &str) -> Result<(), Failure> {
    match path {
        None | Some("-") => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| Failure(format!("error: cannot write standard output: {e}")))
        }
        Some(p) => {
            std::fs::write(p, text).map_err(|e| Failure(format!("error: cannot write `{p}`: {e}")))
        }
    }
}

/// Renders diagnostics against the input text, naming the input `file`.
pub fn render(diags: &[Diagnostic], file: &str, source: &str) -> Failure {
    Failure(render_all(diags, file, source))
}

/// Parses and validates a shader, rendering every problem.
pub fn load_shader(file: &str, source: &str) -> Result<ir::Shader, Failure> {
    let shader = ir::parse_shader(source).map_err(|d| render(&d, file, source))?;
    ir::validate(&shader).map_err(|d| render(&d, file, source))?;
    Ok(shader)
}

/// Pass registration for the tools: the IR's cleanup passes plus `lower-images`.
pub mod pipeline {
    use ir::passes::manager::{PassOptions, PassRegistry};
    use ir::passes::Pass;
    use lowering::{Device, LowerOptions};

    /// A registry with the IR passes and `lower-images` for `device` (whose options
    /// default to `defaults` and can be overridden per pipeline item, e.g.
    /// `lower-images(force-untyped,bounds-check=false)`). Without a device,
    /// `lower-images` exists but reports that it needs `--target`.
    pub fn registry(device: Option<&Device>, defaults: LowerOptions) -> PassRegistry {
        let mut r = PassRegistry::with_ir_passes();
        match device {
            Some(d) => lowering::register_lower_images(&mut r, d.clone(), defaults),
            None => r.register(
                "lower-images",
                "lower image intrinsics to LSC messages (needs --target)",
                |_: &PassOptions| -> Result<Box<dyn Pass>, String> {
                    Err("lower-images needs a platform: pass --target".to_string())
                },
            ),
        }
        lowering::register_lower_async_copies(&mut r, device.cloned(), Default::default());
        r
    }
}
