//! The vISA back end: a lowered shader as one whole vISA kernel that IGC's vISA
//! finalizer (`GenX_IR` 1.0.12504, `.version 4.1`) compiles for BDW, SKL, ICL, TGL
//! (the legacy data-port messages, [`dataport`]) and DG2, MTL, PVC (LSC messages).
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
//! silently wrong. Gfx7 (IVB, BYT, HSW) is an error: GenX_IR has no platform before
//! Broadwell, so those shaders stay at IR level. Xe2 kernels are emitted, but GenX_IR
//! 1.0.12504 predates Xe2 and cannot check them.
//!
//! # The emitted subset
//!
//! The listing uses a small, regular part of vISA (IGC `documentation/visa/`,
//! grammar `visa/CISA.y`), so that a reader, or an interpreter, can follow it:
//!
//! **Kernel.** `.version 4.1`, `.kernel "<name>"`, the `.decl` lines, the `.input`
//! lines, `.kernel_attr Target="3d"`, `.kernel_attr SimdSize=<W>`, `.kernel_attr
//! SpillMemOffset=<scratch_size * W>` when the shader has scratch memory ([`scratch`]:
//! the finalizer spills above the kernel's own scratch), `//.kernel_attr
//! NumGRF=256` (a comment: [`NUM_GRF_COMMENT`]) in a PVC kernel that needs the
//! 256-register mode ([`Kernel::registers`]),
//! from Gfx12.5 `.kernel_attr PerThreadInputSize=<bytes>` (GenX_IR's prolog loads the
//! per-thread inputs from memory there), `.function "_main_0"` and its label (the entry: without
//! it GenX_IR compiles the closing `ret` as a subroutine return and the thread never
//! sends end-of-thread), then the body: first, when the shader computes with floats,
//! `or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud` (keep F, DF and HF
//! denormals; round to nearest even), last `ret (M1, 1)`, which GenX_IR compiles into
//! the end-of-thread send, after the fences the platform's workarounds need
//! ([`igc::finalizer_options`]). This is the skeleton of IGC's own kernels for the same
//! programs, compared part by part in `visa/IGC-SKELETON.md`.
//!
//! **SIMD width.** Every kernel runs `W` lanes per thread: the shader's
//! `subgroup_size`, else [`Options::simd`], else the width brw would pick: SIMD16
//! (SIMD8 when the workgroup is that small, SIMD32 only where narrower threads cannot
//! hold the workgroup, or on Xe2) whose live values fit a thread's registers
//! ([`candidate_widths`], [`emit_kernel`]; [`emit_confirmed`] also asks GenX_IR and
//! steps narrower when it spills). Whole-kernel instructions are
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
//! `(pK) sel (M1, W) d 0xffffffff:ud 0x0:ud`; a comparison used only as conditions
//! (selects and branches) has no boolean: it is written as the `cmp` of each
//! condition ([`fold`]).
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
//! `bfe`, `bfi`, `bfrev`, `fbl`, `lzd`, `cbit`, `inv`, `sqrt`, `exp`, `log`, `sin`,
//! `cos`, `pow`, `divm` and `sqrtm` (PVC, BDW, SKL), `rndd`, `rndu`, `rnde`, `rndz`;
//! `goto`, labels, `ret`; `lsc_*` messages and `lsc_fence` (Gfx12.5 on), the legacy
//! data port's `gather4_typed`, `scatter4_typed`, `typed_atomic`, `gather4_scaled`,
//! `scatter4_scaled`, `dword_atomic`, `gather_scaled`, `scatter_scaled`, `gather`,
//! `scatter`, `svm_gather4scaled`, `svm_scatter4scaled`, `svm_gather`, `svm_scatter`,
//! `svm_atomic` and `fence_global`, `fence_local`, `fence_sw` (Gfx8 to Gfx12.0),
//! `barrier`, `movs` (surface and sampler variables), the sampler's `load_3d`,
//! `load_lz`, `resinfo` and `sample_l` (every platform with a sampler: not PVC);
//! `lifetime.start <var>` right before a
//! variable is first written, a liveness hint with no effect on values (the variable holds nothing live
//! before it; emitted for temporaries, and for values defined outside loops). 64-bit
//! integers are computed on 32-bit halves ([`alu64`]); integer division is emulated
//! ([`idiv`], [`div64`]); float division and square roots are correctly rounded
//! ([`float`], [`sqrt`]).
//!
//! **Control flow.** `if` and `loop` become SIMD `goto`s ([`control`]): lanes that take
//! a forward `goto` wait at its label; the loop's back edge is an unconditional
//! backward `goto`. Phis are copies at the ends of their predecessors ([`phi`]).
//!
//! **Subgroups.** `reduce`, `inclusive_scan` and `exclusive_scan` of 32-bit values are
//! `NoMask` halving trees and Hillis-Steele steps over a temporary with one slot per
//! lane, in the order `ir::subgroup` defines ([`subgroup`]); `read_first_invocation`
//! finds the first active lane with `fbl`; `load_subgroup_size` is `W`. Shuffles and
//! quad operations of 32- and 64-bit values read each lane's source lane through the
//! address register (`addr_add`, then `mov` from `r[A0(0),0]<1,0>`), as IGC emits
//! `sub_group_shuffle` ([`shuffle`]).
//!
//! **Messages.** Each message runs at the width the lowering's legality table gives
//! the platform, split over the kernel's lanes with execution masks `M1`, `M3`, `M5`,
//! ... ([`payload`], [`lsc`], [`block2d`], [`sampler`], [`dataport`]; the back end's own
//! memory accesses become data-port messages before Gfx12.5, [`dataport_lsc`]).
//! Scratch memory (`load_scratch`, `store_scratch`) is swizzled per thread as Intel's
//! drivers lay it out, one message per 32-bit component: `gather4_scaled` and
//! `scatter4_scaled` on `%scratch` at the thread's scratch pointer (`r0.5`) plus the
//! lane's offset before Gfx12.5, LSC messages on the scratch surface state
//! `ss(r0.5 & ~0x3ff)` from it ([`scratch`]).
//!
//! # What the ALU computes, op by op
//!
//! `ir::eval` defines every ALU op bit for bit (NIR's constant folding). The kernel
//! computes the same bits wherever IEEE arithmetic and integer instructions can, and
//! says where the hardware's math unit decides instead:
//!
//! - **Integer ops** (every size: 1, 8, 16, 32, 64 bits), comparisons, selects,
//!   conversions, bit ops: exact. `irem`/`imod` give 0 for a zero divisor and for
//!   `INT_MIN % -1` and take the sign of `a`/`b`; `isign` is -1, 0 or 1; `find_lsb(0)`
//!   and `ifind_msb(0 or -1)` are -1 ([`idiv`], [`div64`], [`bits`]).
//! - **`fadd`, `fsub`, `fmul`, `ffma`, `fmin`, `fmax`, `fsat`, roundings, `fneg`,
//!   `fabs`**: exact ([`float`]; NaN payloads the hardware's).
//! - **`fdiv`, `frcp`**: correctly rounded whenever the quotient is a normal number, on
//!   every platform and whatever the error of the math unit's `inv` (a refined
//!   reciprocal, remainder corrections and Tuckerman's rounding test; PVC's `divm`); a
//!   subnormal quotient may be an ulp off ([`float`]).
//! - **`fsqrt`**: correctly rounded (PVC's `sqrtm`; on DG2 and MTL the math unit's
//!   `sqrt` corrected by a Newton step and Tuckerman's test) ([`sqrt`]).
//! - **`frsq`**: `1.0 / sqrt(x)`, both steps correctly rounded, as `ir::eval` defines
//!   it; vISA's `rsqrt` (one approximate step) is not used ([`math`]).
//! - **`ffract`, `flrp`, `fmod`, `frem`, `fdot2/3/4`**: exact, each of NIR's steps one
//!   IEEE operation in NIR's order ([`float_steps`]). Without `exact`, a 32-bit `flrp`
//!   is `add`, `mul` and a fused `mad`, and 32-bit `ffract`, `flrp` and dot products
//!   keep the NaN their steps give (`ir/PRECISION.md`).
//! - **`fsign`, `ldexp`, `fquantize2f16`**: exact, on the bits ([`float_bits`]).
//! - **`fexp2`, `flog2`, `fsin`, `fcos`, `fpow`**: the math unit's `exp`, `log`, `sin`,
//!   `cos`, `pow`, which are not correctly rounded: the results differ from
//!   `ir::eval`'s (the binary64 `libm` value rounded once) in the last bits, within
//!   at least Vulkan's precision requirements (`exp2` `3 + 2|x|` ulp, `log2` 3 ulp or
//!   2^-21 absolute in `[0.5, 2]`, `sin`/`cos` 2^-11 absolute in `[-pi, pi]`, `pow` as
//!   `exp2(y * log2(x))`). Their special values are exact: NaNs, and every one of C's
//!   `pow` special cases ([`math`]).
//! - **NaNs** of the multi-step float ops follow `ir::eval`: the first NaN operand,
//!   quieted, else the default NaN ([`nan`]).
//! - **16-bit floats** of the ops above compute in binary32 and round once at the end,
//!   as `ir::eval` does.
//! - **64-bit floats**: none on DG2. MTL has binary64 `add`, `mul`, `mad`, but no IEEE
//!   division or square root, so 64-bit `fdiv`, `frcp`, `fsqrt`, `frsq`, `fmod`,
//!   `frem` are errors there (PVC has `divm`, `sqrtm`). vISA has no binary64 `exp`,
//!   `log`, `sin`, `cos`, `pow`: 64-bit `fexp2`, `flog2`, `fsin`, `fcos`, `fpow` are
//!   errors on every platform. Each error names the op, the size and the platform.
//!
//! # Modules
//!
//! [`kernel`] assembles the kernel, walking the control flow ([`control`], [`phi`]) and
//! dispatching instructions ([`alu`] and friends: [`math`], [`sqrt`],
//! [`float_steps`], [`float_bits`], [`bits`], [`nan`], [`intrinsic`] to [`sysval`],
//! [`subgroup`],
//! [`memory`], [`scratch`], [`lsc`], [`block2d`], [`sampler`], [`dataport`]) over the shared
//! [`ctx::Ctx`];
//! [`abi`] lays out the inputs, [`decl`] the symbol table, [`target`] the platform
//! facts; [`igc`] runs GenX_IR; [`width`] picks the SIMD width with its verdicts.

pub mod abi;
pub mod alu;
pub mod alu64;
#[cfg(test)]
mod alu_check;
pub mod bits;
pub mod block2d;
pub mod coalesce;
pub mod control;
pub mod convert;
pub mod ctx;
pub mod dataport;
pub mod dataport_lsc;
pub mod decl;
pub mod div64;
pub mod error;
pub mod float;
pub mod float_bits;
pub mod float_steps;
pub mod fold;
pub mod idiv;
pub mod igc;
pub mod int64;
pub mod intrinsic;
pub mod kernel;
pub mod liveness;
pub mod lsc;
pub mod math;
pub mod memory;
pub mod nan;
pub mod ops;
pub mod param_block;
pub mod payload;
pub mod phi;
pub mod pressure;
pub mod round64;
pub mod sampler;
pub mod scratch;
pub mod shuffle;
pub mod sqrt;
pub mod subgroup;
pub mod sysval;
pub mod target;
pub mod ubo_block;
pub mod uniform;
pub mod vtype;
pub mod width;

pub use abi::{Abi, Input, InputKind};
pub use error::{EmitError, EmitErrorKind};
pub use kernel::{candidate_widths, emit_kernel, max_workgroup_threads, Kernel, NUM_GRF_COMMENT};
pub use target::{genx_platform, Family, Options, Target};
pub use width::{emit_confirmed, Confirmed};
