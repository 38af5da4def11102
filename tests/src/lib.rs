//! The random generators the integration and property suites draw their cases from.
//!
//! * [`bench_shader`]: the shader of `n` image accesses the lowering and vISA
//!   benchmarks share;
//! * [`shader_gen`] draws random valid shaders (ALU code, control flow, image and message
//!   intrinsics) for the text round trip and the pass properties;
//! * [`cases`]: generators of the lowering property suites (platforms, formats,
//!   surfaces, coordinates, image shaders with the memory they run on);
//! * [`corpus`]: the real shaders of `tests/corpus/`, imported through the front end and
//!   lowered for every platform.
//!
//! The suites themselves are the files under `tests/tests/`; the lit files under
//! `tests/lit/` are driven by `tools/tests/lit.rs`.

pub mod bench_shader;
pub mod cases;
pub mod corpus;
pub mod shader_gen;
