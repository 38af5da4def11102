//! The vISA back end: a lowered shader as one whole vISA kernel that IGC's vISA
//! finalizer (`GenX_IR` 1.0.12504, `.version 4.1`) compiles for DG2, MTL and PVC.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let text = std::fs::read_to_string("examples/blur.ir")?;
//! let mut shader = ir::parse_shader(&text).map_err(|d| format!("{d:?}"))?;
//! let device = lowering::Device::preset("dg2").ok_or("no preset")?;
//! lowering::lower_images(&mut shader, &device, &Default::default())?;
//! let kernel = visa::emit_kernel(&shader, &device, &visa::Options::default())?;
//! println!("{}", kernel.text);
//! let compiled = visa::igc::compile(&kernel.text, "DG2")?;
//! # let _ = compiled; Ok(()) }
//! ```
//!
//! [`emit_kernel`] returns the text and the [`Abi`]: what a driver puts where
//! (`visa/ABI.md`). Anything the back end cannot express for the platform is an
//! [`EmitError`] naming the instruction, its position and the platform; no listing is
//! silently wrong. Platforms without LSC (Gfx7 to Gfx12) are errors for now; Xe2
//! kernels are emitted, but GenX_IR 1.0.12504 predates Xe2 and cannot check them.
//!
//! # The emitted subset
//!
//! The listing uses a small, regular part of vISA (IGC `documentation/visa/`,
//! grammar `visa/CISA.y`), so that a reader, or an interpreter, can follow it:
//!
//! **Kernel.** `.version 4.1`, `.kernel "<name>"`, the `.decl` lines, the `.input`
//! lines, `.kernel_attr Target="3d"`, `.kernel_attr SimdSize=<W>`, `.kernel_attr
//! PerThreadInputSize=<bytes>`, then the body: first
//! `or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud` (keep F, DF and HF
//! denormals; round to nearest even), last `ret (M1, 1)`.
//!
//! **SIMD width.** Every kernel runs `W` lanes per thread: the shader's
//! `subgroup_size`, else [`Options::simd`], else 16. Whole-kernel instructions are
//! `(M1, W)`: they write only the enabled lanes. `(M1_NM, n)` (no mask) appears only in
//! scalar work (uniform payload fields) and in copies into temporaries.
//!
//! **Variables.** IR value `%n` is `v<n>`; temporaries are `t<k>` (SIMT) and `s<k>`
//! (one element); inputs have the names of the ABI. A value of `N` components and `B`
//! bits is `N` runs of `W` elements, each run padded to whole registers (`align=GRF`):
//! component `c` of lane `l` is at byte `c * run + l * bytes`, `run = ceil(W * bytes /
//! GRF) * GRF`. Element types: `ub`, `uw`, `ud`, `uq` for 8, 16, 32, 64 bits. Other
//! readings of the same bytes are aliases named `<var>_<type>` (`v3_f`, `v3_d`, and
//! `v3_ud` for the 32-bit halves of 64-bit values). No name collides with vISA's
//! predefined `V0`-`V31`, `P0`, `T0`-`T5`.
//!
//! **Booleans and predicates.** A 1-bit value is a `ud` holding `0` or `0xffffffff`.
//! Predicates (`p1`-`p4`, `W` lanes) are written by `cmp.<cond> (M1, W) pK a b` right
//! before the one instruction that reads them, as `(pK)` or `(!pK)`, and read no later;
//! predicate logic is `and`/`or` on predicates. A boolean result is written as
//! `(pK) sel (M1, W) d 0xffffffff:ud 0x0:ud`.
//!
//! **Operands.** Sources are `var(row,col)<v;1,0>` with `v` = 1 (packed), 2 (a half of
//! 64-bit lanes) or 0 (a broadcast scalar), optionally with a `(-)` or `(abs)` modifier;
//! destinations are `var(row,col)<h>` with `h` = 1 or 2; rows are registers, columns
//! elements of the operand's type. Immediates are `0x..:<type>` (bytes as words);
//! `0x76543210:uv` once for lane numbers. Message payloads are raw operands
//! `var.<byte offset>` (LSC: the offset omitted when 0).
//!
//! **Instructions.** `mov`, `mov.sat`, `add`, `add3`, `addc`, `subb`, `mul`, `mulh`,
//! `mad`, `and`, `or`, `xor`, `not`, `shl`, `shr`, `asr`, `min`, `max`, `sel`, `cmp`,
//! `bfe`, `bfi`, `fbl`, `lzd`, `cbit`, `inv`, `divm` (PVC), `rndd`, `rndu`, `rnde`,
//! `rndz`; `goto`, labels, `ret`; `lsc_*` messages and `lsc_fence`, `barrier`, `movs`
//! and `load_3d`/`load_lz`; `lifetime.start <var>` right before a variable is first
//! written, a liveness hint with no effect on values (the variable holds nothing live
//! before it; emitted for temporaries, and for values defined outside loops). 64-bit integers are computed on 32-bit halves
//! ([`alu64`]); integer division is emulated ([`idiv`]); float division is correctly
//! rounded ([`float`]).
//!
//! **Control flow.** `if` and `loop` become SIMD `goto`s ([`control`]): lanes that take
//! a forward `goto` wait at its label; the loop's back edge is an unconditional
//! backward `goto`. Phis are copies at the ends of their predecessors ([`phi`]).
//!
//! **Messages.** Each message runs at the width the lowering's legality table gives
//! the platform, split over the kernel's lanes with execution masks `M1`, `M3`, `M5`,
//! ... ([`payload`], [`lsc`], [`block2d`], [`sampler`]).
//!
//! # Modules
//!
//! [`kernel`] assembles the kernel, walking the control flow ([`control`], [`phi`]) and
//! dispatching instructions ([`alu`] and friends, [`intrinsic`] to [`sysval`],
//! [`memory`], [`lsc`], [`block2d`], [`sampler`]) over the shared [`ctx::Ctx`];
//! [`abi`] lays out the inputs, [`decl`] the symbol table, [`target`] the platform
//! facts; [`igc`] runs GenX_IR.

pub mod abi;
pub mod alu;
pub mod alu64;
pub mod block2d;
pub mod control;
pub mod convert;
pub mod ctx;
pub mod decl;
pub mod div64;
pub mod error;
pub mod float;
pub mod idiv;
pub mod igc;
pub mod intrinsic;
pub mod kernel;
pub mod lsc;
pub mod memory;
pub mod ops;
pub mod payload;
pub mod phi;
pub mod pressure;
pub mod round64;
pub mod sampler;
pub mod sysval;
pub mod target;
pub mod uniform;
pub mod vtype;

pub use abi::{Abi, Input, InputKind};
pub use error::{EmitError, EmitErrorKind};
pub use kernel::{emit_kernel, Kernel};
pub use target::{genx_platform, Family, Options, Target};
