//! The SPIR-V translator on arbitrary bytes: `frontend::spirv::import` must return an
//! error or a shader the IR's validator accepts (it validates its own output), never
//! panic, and finish in bounded time and memory. The input's first byte, when it is not
//! part of a SPIR-V header, also picks a specialization (constant ids 0 to 3 set to
//! small values), so the specialization paths are fuzzed too.

#![no_main]

use frontend::spirv::{import, Options};
use frontend::SpecValue;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut options = Options::default();
    // A module starts with the magic number; a leading byte before it picks the
    // specialization and is dropped.
    let bytes = if data.len() % 4 == 1 {
        let k = data[0];
        for id in 0..4u32 {
            if k & (1 << id) != 0 {
                options.spec.insert(id, SpecValue::Int((k >> 4) as i128 + id as i128));
            }
        }
        &data[1..]
    } else {
        data
    };
    if let Ok(imported) = import(bytes, &options) {
        assert!(ir::validate(&imported.shader).is_ok());
        let _ = ir::print_shader(&imported.shader);
    }
});
