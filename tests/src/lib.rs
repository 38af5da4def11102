//! The random generators the integration and property suites draw their cases from.
//!
//! * [`bench_shader`]: the shader of `n` image accesses the lowering and vISA
//!   benchmarks share;
//! * [`shader_gen`] draws random valid shaders (ALU code, control flow, image and message
//!   intrinsics) for the text round trip and the pass properties;
//! * [`cases`]: generators of the lowering property suites (platforms, formats,
//!   surfaces, coordinates, image shaders with the memory they run on);
//! * [`corpus`]: the real shaders of `tests/corpus/`, imported through the front end and
//!   lowered for every platform;
//! * [`wgsl_gen`] draws random valid WGSL compute shaders, and [`oracle`] compares the
//!   front end's two translations of a shader by running both.
//!
//! The suites themselves are the files under `tests/tests/`; the lit files under
//! `tests/lit/` are driven by `tools/tests/lit.rs`.

pub mod bench_shader;
pub mod cases;
pub mod corpus;
pub mod oracle;
pub mod shader_gen;
pub mod wgsl_gen;
