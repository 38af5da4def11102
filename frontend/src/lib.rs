//! SPIR-V, WGSL and GLSL compute shaders into the IR, through one translator of SPIR-V.
//!
//! [`import`] takes every language through SPIR-V, as a Vulkan driver sees shaders:
//!
//! * **SPIR-V** goes straight to the project's own translator, [`spirv`] (in the manner
//!   of Mesa's `spirv_to_nir`): specialization constants, format-less images, texel
//!   buffers, texel pointers, buffers and workgroup memory, structured control flow,
//!   inlined calls, `GLSL.std.450`.
//! * **WGSL** is read and validated by naga (the wgpu project's shader translator) and
//!   written as SPIR-V by naga's SPIR-V writer, with its debug lines, so errors and
//!   spans point into the WGSL ([`wgsl`]).
//! * **GLSL** is compiled by glslang, the reference GLSL compiler, run as the
//!   `glslangValidator` executable (Debian `glslang-tools`), with its debug lines
//!   ([`glslang`]).
//!
//! ```
//! let wgsl = "
//!     @group(0) @binding(0) var img: texture_storage_2d<r32uint, read_write>;
//!     @compute @workgroup_size(8, 8)
//!     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!         let v = textureLoad(img, id.xy);
//!         textureStore(img, id.xy, v + vec4<u32>(1u));
//!     }";
//! let imported = frontend::import(wgsl.as_bytes(), frontend::Language::Wgsl, None).unwrap();
//! assert_eq!(imported.shader.local_size, [8, 8, 1]);
//! assert_eq!(imported.shader.images[0].format, ir::Format::R32Uint);
//! ```
//!
//! The translation of naga's own IR, which the front end used before, stays as the
//! differential oracle ([`oracle`]): the suites import every shader both ways and run
//! both in the executor on the same inputs.
//!
//! Errors ([`ImportError`]) name the construct and where it is: a line and column of
//! WGSL or GLSL text, or a SPIR-V instruction's word offset, its disassembly and its
//! `OpLine` position. Nothing is logged on a clean import.

pub mod bindings;
pub mod error;
pub mod glslang;
pub mod imported;
pub mod oracle;
pub mod source;
pub mod spirv;
pub mod wgsl;

pub use bindings::{Binding, BindingKind, DescriptorCounts, DEFAULT_DESCRIPTOR_COUNT};
pub use error::{ErrorKind, ImportError, Location};
pub use imported::Imported;
pub use source::{Language, Parsed};
pub use spirv::spec::{SpecConstant, SpecMap, SpecValue};

/// What to import and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The compute entry point (default: the module's only one).
    pub entry: Option<String>,
    /// Specialization: constant id to value (SPIR-V's `SpecId`, GLSL's `constant_id`,
    /// WGSL's `@id` of an `override`). Ids no constant has are ignored, as Vulkan
    /// ignores them.
    pub spec: SpecMap,
    /// The descriptor count of each runtime descriptor array (`image2D imgs[]`), by
    /// `(set, binding)`, as the pipeline layout gives it; arrays without an entry have
    /// [`DEFAULT_DESCRIPTOR_COUNT`] ([`bindings`]).
    pub descriptors: DescriptorCounts,
    /// Where GLSL's `#include`s resolve (the including file's directory, for one).
    pub include_dirs: Vec<std::path::PathBuf>,
}

/// Imports the compute entry point `entry` (or the module's only one) of `bytes`, read
/// as `language`, with every specialization constant at its default.
pub fn import(
    bytes: &[u8],
    language: Language,
    entry: Option<&str>,
) -> Result<Imported, ImportError> {
    let options = Options {
        entry: entry.map(str::to_string),
        ..Options::default()
    };
    import_with(bytes, language, &options)
}

/// Imports a compute entry point of `bytes`, read as `language`, with `options`.
pub fn import_with(
    bytes: &[u8],
    language: Language,
    options: &Options,
) -> Result<Imported, ImportError> {
    let spirv_options = spirv::Options {
        entry: options.entry.clone(),
        spec: options.spec.clone(),
        descriptors: options.descriptors.clone(),
    };
    match language {
        Language::SpirV => spirv::import(bytes, &spirv_options),
        Language::Wgsl => {
            let words = wgsl::to_spirv(bytes, &options.spec)?;
            spirv::import(&words_to_bytes(&words), &spirv_options).map_err(|e| at_text(e, None))
        }
        Language::Glsl => {
            let c = glslang::compile_text(bytes, &options.include_dirs)?;
            spirv::import(&c.spirv, &spirv_options).map_err(|e| at_text(e, Some(&c.main_file)))
        }
    }
}

/// The SPIR-V module the front end translates for `bytes` of `language`: the bytes
/// themselves for SPIR-V, naga's SPIR-V writer's output for WGSL, glslang's for GLSL.
pub fn to_spirv(bytes: &[u8], language: Language, spec: &SpecMap) -> Result<Vec<u8>, ImportError> {
    match language {
        Language::SpirV => Ok(bytes.to_vec()),
        Language::Wgsl => Ok(words_to_bytes(&wgsl::to_spirv(bytes, spec)?)),
        Language::Glsl => glslang::compile(bytes, &[]),
    }
}

/// The names of the compute entry points of `bytes` read as `language`.
pub fn compute_entry_points(bytes: &[u8], language: Language) -> Result<Vec<String>, ImportError> {
    spirv::compute_entry_points(&to_spirv(bytes, language, &SpecMap::new())?)
}

fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A translator error of a module compiled from text, located in the text by the
/// instruction's `OpLine` when that names the text itself (`main_file`, where the
/// compiler names it); a line of an included file keeps its file's name and line.
fn at_text(mut e: ImportError, main_file: Option<&str>) -> ImportError {
    if let Some(pos) = e.spirv.as_ref().and_then(|s| s.source.as_ref()) {
        if pos.line > 0 && main_file.is_none_or(|m| pos.file == m) {
            e.location = Location::Text {
                line: pos.line,
                column: pos.column.max(1),
            };
            e.spirv = None;
        }
    }
    e
}
