//! `tile-calc --gen` and `ir-opt --target` take the same names: both parse them with the
//! one platform table (`tiling::Platform`). Every spelling below is given to both tools;
//! each must be accepted by both or refused by both. Accepted names lower a shader with
//! an image store for generations with storage images, and fail with the documented
//! error for Gfx4-6.

use std::io::Write;
use std::process::{Command, Output};

fn run(exe: &str, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {exe}: {e}"))
}

/// Whether `tile-calc --gen name` takes the name (other options are valid, so any
/// failure that is not about `--gen` would be a bug of the test).
fn tile_calc_takes(name: &str) -> bool {
    let out = run(
        env!("CARGO_BIN_EXE_tile-calc"),
        &[
            "layout", "--gen", name, "--format", "r32_uint", "--dim", "2d", "--width", "16",
            "--height", "16", "--tiling", "linear",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return true;
    }
    assert!(stderr.starts_with("error: --gen:"), "{name}: {stderr}");
    false
}

const SHADER: &str = "shader compute (local_size=8,8,1)
image @img : 2d r32_uint writeonly (binding=0)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    @image_store (@img, %1, %0.x) (src_type=uint32)
}
";

fn shader_file() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("target-names-{}.ir", std::process::id()));
    let mut f = std::fs::File::create(&path).expect("temp file");
    f.write_all(SHADER.as_bytes()).expect("write");
    path
}

#[test]
fn tile_calc_and_ir_opt_take_the_same_names() {
    let mut names: Vec<String> = tiling::Platform::names().map(String::from).collect();
    names.extend(tiling::Platform::names().map(str::to_ascii_uppercase));
    let spellings = [
        "4", "5", "6", "7", "7.5", "75", "8", "9", "11", "12", "12.5", "125", "20", "200", "40",
        "110", "gfx9", "gen9", "GFX12.5", "gen7.5", "gfx4", " dg2 ", // Refused by both.
        "10", "3", "12.7", "7.x", "foo", "gfx13", "dg3", "gfxskl", "",
    ];
    names.extend(spellings.iter().map(|s| s.to_string()));
    let file = shader_file();
    let file = file.to_str().expect("UTF-8 path");
    let mut accepted = 0;
    for name in &names {
        let gen_ok = tile_calc_takes(name);
        let out = run(
            env!("CARGO_BIN_EXE_ir-opt"),
            &[file, "--target", name, "-O"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let target_ok = !stderr.contains("unknown --target");
        assert_eq!(
            gen_ok, target_ok,
            "`{name}`: tile-calc {gen_ok}, ir-opt {stderr}"
        );
        if !target_ok {
            assert_eq!(out.status.code(), Some(1), "{name}");
            continue;
        }
        accepted += 1;
        let gen: tiling::Gen = name.parse().expect("tile-calc took it");
        if gen < tiling::Gen::Gfx7 {
            assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
            assert!(stderr.contains("has no storage images"), "{name}: {stderr}");
        } else {
            assert!(out.status.success(), "{name}: {stderr}");
            // The store became a message.
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("@lsc_store"),
                "{name}"
            );
        }
    }
    let _ = std::fs::remove_file(file);
    // Every name and alias twice (two cases), and the 22 generation spellings.
    assert_eq!(accepted, 2 * tiling::Platform::names().count() + 22);
}
