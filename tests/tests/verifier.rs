//! The verifier on the examples and on hand-written shaders.

use lowering::{Device, LowerOptions};
use verify::setup::Setup;
use verify::verifier::lower_and_verify;

fn parse(text: &str) -> ir::Shader {
    let s = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
    ir::validate(&s).unwrap_or_else(|d| panic!("validate: {d:?}"));
    s
}

#[test]
fn blur_verifies_on_every_platform() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/blur.ir"))
        .unwrap();
    let shader = parse(&text);
    for name in Device::PRESET_NAMES {
        let device = Device::preset(name).unwrap();
        let setup = Setup::default_for(&shader, &device, 0).unwrap();
        for force_untyped in [false, true] {
            let opts = LowerOptions {
                force_untyped,
                ..LowerOptions::default()
            };
            let r = lower_and_verify(&shader, &device, &opts, &setup)
                .unwrap_or_else(|e| panic!("{name} (force_untyped {force_untyped}): {e}"));
            assert!(r.passed(), "{name} (force_untyped {force_untyped}): {r}");
            assert!(r.accesses > 0);
        }
    }
}
