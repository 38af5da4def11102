//! The external tools the front end's tests hand their shaders to (glslang,
//! spirv-as): whether each is here.

/// Whether `tool` runs here (`tool --version` succeeds). Under `CI` a missing tool is a
/// failure; elsewhere the test that needs it is skipped, saying so.
pub fn have(tool: &str) -> bool {
    let ok = std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing, and CI needs it"
        );
        eprintln!("{tool} is not installed: skipped");
    }
    ok
}
