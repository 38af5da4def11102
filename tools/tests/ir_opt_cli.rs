//! `ir-opt` as a user meets it: what it does with no input on a terminal, and how a
//! failed pipeline reads.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ir_opt() -> &'static str {
    env!("CARGO_BIN_EXE_ir-opt")
}

/// Runs `cmd` to completion, or kills it after `limit` and fails.
fn run_with_limit(mut cmd: Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A file under the target directory's temporary folder.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a temporary file");
    path
}

#[test]
fn no_input_on_a_terminal_prints_the_usage() {
    // `script` (util-linux, Debian's essential bsdutils) runs ir-opt with a
    // pseudo-terminal as its standard input.
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        assert!(
            std::env::var_os("CI").is_none(),
            "`script` (util-linux) is needed to give ir-opt a terminal"
        );
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let mut cmd = Command::new("script");
    cmd.args(["-q", "-e", "-c", ir_opt(), "/dev/null"]);
    let out = run_with_limit(cmd, Duration::from_secs(60));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("error: no input: give a FILE, or pipe a shader into standard input"),
        "{text}"
    );
    assert!(text.contains("Usage: ir-opt [OPTIONS] [FILE]"), "{text}");
}

#[test]
fn piped_input_is_still_read() {
    let mut child = Command::new(ir_opt())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"shader compute (local_size=2,1,1)\nfn main {\n  block b0:\n}\n")
        .expect("write");
    let out = child.wait_with_output().expect("output");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("shader compute (local_size=2,1,1)"));
}

#[test]
fn a_failed_pass_says_why_on_its_first_line() {
    let path = temp_file(
        "r64_on_ivb.ir",
        "shader compute (local_size=8,1,1)
image @acc : 2d r64_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    64   %2 = load_const (0x1)
    64   %3 = @image_atomic (@acc, %1, %2) (atomic_op=iadd)
}
",
    );
    let mut cmd = Command::new(ir_opt());
    cmd.arg(&path).args(["--target", "ivb", "-O"]);
    let out = run_with_limit(cmd, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("error: cannot lower @image_atomic of @acc (r64_uint) on ivb: "),
        "{err}"
    );
    assert!(lines[1].ends_with("r64_on_ivb.ir:8:5"), "{err}");
    assert_eq!(
        lines.last().copied(),
        Some("note: the -O pipeline failed (1 error)"),
        "{err}"
    );
}

/// The workspace's corpus directory.
fn corpus(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus")
        .join(file)
}

/// glslang's SPIR-V of `glsl`, written under the target's temporary folder; `None`
/// (a skip) without glslang, except in CI.
fn spirv_of(name: &str, glsl: &str) -> Option<PathBuf> {
    let src = temp_file(&format!("{name}.comp"), glsl);
    let out = src.with_extension("spv");
    match Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.2"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
    {
        Ok(o) if o.status.success() => Some(out),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "glslangValidator is missing"
            );
            None
        }
    }
}

const SPECIALIZED: &str = "#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint K = 3u;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() { o[gl_LocalInvocationIndex] = K; }
";

#[test]
fn a_clean_import_prints_nothing_on_stderr() {
    let mut inputs = vec![
        (corpus("bevy/game_of_life.wgsl"), Some("update")),
        (corpus("sascha_willems/sharpen.comp"), None),
    ];
    if let Some(spv) = spirv_of("quiet", SPECIALIZED) {
        inputs.push((spv, None));
    }
    for (path, entry) in inputs {
        let mut cmd = Command::new(ir_opt());
        cmd.arg(&path);
        if let Some(e) = entry {
            cmd.args(["--entry", e]);
        }
        let out = run_with_limit(cmd, Duration::from_secs(60));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn spec_sets_constants_and_the_workgroup_size() {
    let Some(spv) = spirv_of("spec", SPECIALIZED) else {
        return;
    };
    let run = |args: &[&str]| {
        let mut cmd = Command::new(ir_opt());
        cmd.arg(&spv).args(args);
        run_with_limit(cmd, Duration::from_secs(60))
    };
    // local_size_x_id's default is 1; the constant 3 is stored.
    let out = run(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("local_size=1,1,1"), "{text}");
    assert!(text.contains("load_const (0x00000003)"), "{text}");
    let out = run(&["--spec", "0=64", "--spec", "1=0x2a"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("local_size=64,1,1"), "{text}");
    assert!(text.contains("load_const (0x0000002a)"), "{text}");
    // An id the module does not have, and a value that is not one.
    let out = run(&["--spec", "9=1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no specialization constant 9"), "{err}");
    assert!(err.contains("0, 1"), "{err}");
    let out = run(&["--spec", "1=banana"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--spec"));
}

/// A GLSL file named without a directory (`ir-opt shader.comp` in its folder) compiles:
/// its `#include` directory is `.`, not an empty `-I` glslang refuses.
#[test]
fn glsl_named_without_a_directory_imports() {
    if Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "glslangValidator is missing"
        );
        return;
    }
    let src = temp_file("bare_name.comp", SPECIALIZED);
    let mut cmd = Command::new(ir_opt());
    cmd.current_dir(src.parent().expect("a folder"))
        .arg(src.file_name().expect("a file name"));
    let out = run_with_limit(cmd, Duration::from_secs(60));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("shader compute"));
}
