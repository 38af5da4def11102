//! WGSL into SPIR-V: naga reads and validates the WGSL, applies the specialization to
//! its `override`s (by their `@id`), and its SPIR-V writer writes the module with
//! debug lines (`OpLine`, `OpString`), so the translator's errors and the IR's spans
//! point into the WGSL.
//!
//! naga's writer keeps WGSL's semantics where SPIR-V leaves a case undefined (it wraps
//! integer division, clamps float-to-integer conversions, zero-initializes workgroup
//! memory), so the translated program is the WGSL program.

use crate::error::{ErrorKind, ImportError, Location};
use crate::source::{self, Language, SourceMap};
use crate::spirv::spec::{SpecMap, SpecValue};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The file name the SPIR-V's debug lines give the WGSL.
pub const FILE_NAME: &str = "shader.wgsl";

/// The SPIR-V module naga's SPIR-V writer makes of WGSL text `bytes`, with the
/// `override`s whose `@id` `spec` names set.
pub fn to_spirv(bytes: &[u8], spec: &SpecMap) -> Result<Vec<u32>, ImportError> {
    let (module, text) = source::parse(Language::Wgsl, bytes)?;
    let text = text.unwrap_or_default();
    let map = SourceMap::new(Language::Wgsl, bytes, Some(text.clone()));
    let info = source::validate(&module, &map)?;
    let internal = |m: String| ImportError::new(ErrorKind::Unsupported, Location::Unknown, m);
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut constants = naga::back::PipelineConstants::default();
        for o in module.overrides.iter().map(|(_, o)| o) {
            let Some(id) = o.id else { continue };
            if let Some(v) = spec.get(&(id as u32)) {
                let x = match *v {
                    SpecValue::Bool(b) => b as u8 as f64,
                    SpecValue::Int(i) => i as f64,
                    SpecValue::Float(f) => f,
                };
                constants.insert(id.to_string(), x);
            }
        }
        let (module, info) =
            naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants)
                .map_err(|e| {
                    internal(format!(
                        "the WGSL's overrides cannot take the values given: {e}"
                    ))
                })?;
        let options = naga::back::spv::Options {
            lang_version: (1, 3),
            flags: naga::back::spv::WriterFlags::DEBUG,
            force_loop_bounding: false,
            // WGSL lets no access fault: an index out of range reads or writes some
            // element in range (the specification's "Out-of-Bounds Access"). Clamping
            // the index (naga's `Restrict`, as wgpu asks where the device gives no
            // robust access) keeps that meaning in the SPIR-V, where a Vulkan driver
            // without robustBufferAccess would read past the array. Texel loads need
            // no check: a typed read out of bounds returns zero, which WGSL allows.
            bounds_check_policies: naga::proc::BoundsCheckPolicies {
                index: naga::proc::BoundsCheckPolicy::Restrict,
                buffer: naga::proc::BoundsCheckPolicy::Restrict,
                image_load: naga::proc::BoundsCheckPolicy::Unchecked,
                binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
            },
            debug_info: Some(naga::back::spv::DebugInfo {
                source_code: &text,
                file_name: FILE_NAME,
                language: naga::back::spv::SourceLanguage::WGSL,
            }),
            ..naga::back::spv::Options::default()
        };
        naga::back::spv::write_vec(&module, &info, &options, None)
            .map_err(|e| internal(format!("naga's SPIR-V writer cannot write the WGSL: {e}")))
    }));
    match result {
        Ok(r) => r,
        Err(_) => Err(ImportError::new(
            ErrorKind::Parse,
            Location::Unknown,
            "naga's SPIR-V writer panicked on this WGSL; the input is not supported",
        )),
    }
}
