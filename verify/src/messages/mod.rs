//! Message semantics: LSC typed and untyped messages, atomics, 2D block messages and the
//! sampler `ld`/`ld_lz`, following the pseudo-code of the vISA specification (IGC's
//! `documentation/visa/instructions/LSC_TYPED.md`, `LSC_UNTYPED.md`, `3D_LOAD.md`) with
//! the corrections of `docs/hardware/lsc-messages.md`.
//!
//! # The interface: plain per-lane data
//!
//! These functions know nothing of IR instructions. A message is its decoded
//! descriptor ([`LscMessage`], [`Block2d`], [`SamplerMessage`]), its sender
//! ([`Sender`]: what the access log records for each lane), the lanes it serves (a
//! mask), the binding-table index of the surface in each lane, and its payload as
//! per-lane values ([`Lanes`]: `n` values per lane, lane after lane, the layout of a
//! SIMD operand); results go to [`LanesMut`], and a block message's data is its register
//! image (bytes). The executor's adapter (`crate::message_intrinsics`) reads an IR
//! call into these; an interpreter of vISA kernels passes its register contents.
//!
//! | message | function |
//! |---|---|
//! | untyped load, store (`.ugm`, `.ugml`, `.slm`; vector or quad) | [`untyped::load`], [`untyped::store`] |
//! | untyped strided load, store | [`untyped::load_strided`], [`untyped::store_strided`] |
//! | untyped atomic | [`untyped::atomic`] |
//! | typed load_quad, store_quad, atomic (`.tgm`) | [`typed::load_quad`], [`typed::store_quad`], [`typed::atomic`] |
//! | the atomic sub-ops themselves | [`apply_lsc_atomic`] |
//! | 2D block load, store, untyped | [`block2d::load_untyped`], [`block2d::store_untyped`] |
//! | 2D block load, store, typed | [`block2d::TypedBlock`] |
//! | sampler `ld`, `ld_lz` | [`sampler::ld`] |
//! | sampler `sample_l` (filtering) | [`sample::sample_l`] |
//! | legacy data-port messages (Gfx7 to Gfx12.0) | [`dataport`] |
//!
//! A message runs once for all its lanes, as one SIMD message. The lanes it serves are
//! the active lanes whose predicate is true (the vISA `Msg.ChEn`); the others touch no
//! memory and get 0 in the destination. Atomics are applied in ascending lane order
//! within a message (and the executor runs subgroups in ascending order), so results are
//! deterministic.
//!
//! # Untyped (`.ugm`, `.ugml`, `.slm`)
//!
//! * Address of element `v` of lane `n`: `(addr[n] + lsc_offset) mod 2^a + v · size`,
//!   where `a` is the address size (16, 32, 64) and `size` the element's bytes in
//!   memory (the vISA `AddrScale` is always 1 here). `flat` on `.ugm`/`.ugml` is the
//!   global address space; `.slm` (flat only) is the workgroup's shared memory;
//!   `bti`/`bss`/`ss` address the bytes of the named image's surface from its start
//!   (the three stateful models reach the same surface state: the executor binds each
//!   image once, by binding-table index, and a bindless handle only names it).
//!   An element outside its space is an error naming the instruction and the lane.
//! * Data sizes: `d8`, `d16`, `d32`, `d64` move the value; `d8u32` and `d16u32` load 1 or
//!   2 bytes zero-extended to 32 bits (Xe2's rule; DG2 and PVC leave the upper bits
//!   undefined, so zero is one valid choice) and store the low byte(s); `d16u32h` loads 2
//!   bytes into the high half of a 32-bit element (low half zero) and stores the high
//!   half (docs/hardware/lsc-messages.md §3).
//! * Non-transposed (SIMT) and transposed (`x..t`, SIMD1 block) messages read the same
//!   memory for a lane: `vect` consecutive elements at its address. In the IR each lane
//!   gets its vector either way; only the register layout differs in hardware.
//! * `lsc_load_quad`/`lsc_store_quad` on untyped memory move the enabled channels of four
//!   consecutive elements, packed in channel order in the register.
//! * Strided messages take one base address and one pitch (uniform across the enabled
//!   lanes; a divergent value is an error) and serve lane `n` at `base + lsc_offset +
//!   n · pitch` (the `LOAD_STRIDED` pseudo-code; the `STORE_STRIDED` pseudo-code adds the
//!   immediate offset twice and reads a per-lane address, which contradicts the
//!   description of a single address and a stride, so stores use the load's formula).
//!
//! # Typed (`.tgm`)
//!
//! The surface is the named image; its surface state has the image's surface-state
//! format, its view (base level, base layer, layer count) and its layout. The four
//! coordinates are read per surface type, as the hardware does from the surface state:
//! 1D: `U` = x, `V` = array index; 2D (also cubes, bound as 2D arrays): `U` = x,
//! `V` = y, `R` = array index; 3D: `U`, `V`, `R` = x, y, z; buffer: `U` = element.
//! `LOD` is relative to the view's base level. Coordinates are signed; a coordinate
//! outside the view, or a non-zero LOD (a storage view has one level), makes the access
//! out of bounds, as the hardware's bounds check against the surface state does: typed
//! reads return an all-zero texel converted with the surface format (0 in its channels,
//! (0, 0, 1) in the missing G, B, A: Vulkan's texel replacement, which anv guarantees
//! with robustImageAccess2), writes and atomics are dropped (atomics return 0).
//!
//! Loads convert the texel with the surface-state format ([`crate::texel::TexelLayout`], the same
//! exact conversions as the reference) and return the enabled channels packed (missing
//! format channels read (0, 0, 0, 1)); stores convert the enabled channels and leave the
//! others in memory untouched. `d32` carries 32-bit channel values, `d64` the 64-bit
//! channels of 64-bit formats; `d16u32` and `d8u32` carry the raw bits of integer or
//! 16-bit-float channels no wider than 16 or 8 bits, zero-extended. Typed atomics act on
//! the whole texel (2, 4 or 8 bytes, matching the data size) without conversion: a
//! `d16u32` atomic (on R16_{UINT,SINT,FLOAT} surfaces, Gfx12+) takes the low 16 bits of
//! each source, operates on the 16-bit texel (integer sub-ops wrap modulo 2^16,
//! `smin`/`smax` compare 16-bit signed values, float sub-ops act on binary16) and
//! returns the old texel zero-extended. (DG2 and PVC leave the upper 16 bits of a
//! `d16u32` result undefined, docs/hardware/lsc-messages.md §1; zero is the value modelled, so the lowering
//! must not rely on it there, and masks or sign-extends the result itself.)
//!
//! # Atomics
//!
//! Every LSC sub-op (docs/hardware/lsc-messages.md §2): `iinc`/`idec` add or subtract 1, `load` returns the old
//! value, `store` exchanges, `iadd`/`isub`, `smin`/`smax` (signed), `umin`/`umax`,
//! `and`/`or`/`xor`, `icas` (`old == src1 ? src2 : old`, bitwise compare), and the float
//! ops on 16-bit (`d16u32`), 32-bit and 64-bit floats: `fadd`/`fsub` round to nearest
//! even and keep denormals; `fmin`/`fmax` return the non-NaN operand when one is NaN and
//! order −0 below +0 (IEEE 754-2019 minimumNumber/maximumNumber); `fcas` compares as
//! floats (`-0 == +0`, a NaN equals nothing). No public LSC document states the float
//! NaN and signed-zero rules; these are NIR's `fadd`/`fmin`/`fmax`/`feq` (shared through
//! [`ir::eval`]), which is what SPIR-V's float atomics ask for, so the typed and untyped
//! paths agree with the reference's NIR atomics. All ops return the old value.
//!
//! # Sampler (`ld`, `ld_lz`)
//!
//! `u`, `v`, `r` per surface type (IGC's `3D_LOAD.md`): 1D/1D array: x, array index,
//! ignored; 2D/2D array (and cubes): x, y, array index; 3D: x, y, z; `lod` (0 for `ld_lz`)
//! relative to the view's base level. The texel is converted with the surface-state
//! format and the enabled channels (R = bit 0) are returned packed, as `dest_type`:
//! 32-bit destinations get the converted value, 16-bit float destinations the value
//! rounded to binary16 (nearest even), 16-bit integer destinations its low 16 bits.
//! Out-of-range coordinates or LOD return 0 in every channel (the D3D `ld` rule Intel's
//! sampler implements for out-of-bounds integer loads).
//!
//! # 2D block messages (`lsc_load_block2d`, `lsc_store_block2d`)
//!
//! Block messages are subgroup-level: they run once per subgroup, with every lane of the
//! subgroup active (an inactive lane is an error) and with payload operands that are
//! uniform across the lanes (the executor takes lane 0's and reports the first lane that
//! disagrees). They move a *register image* `R` (bytes), spread over the lanes:
//! component `k` of lane `i` of the destination (or stored data) of `b` bits holds bytes
//! `R[(k·SG + i)·b/8 ..][.. b/8]`, `SG` being the number of lanes; the value's
//! components × bits × lanes must be `len(R)`.
//!
//! * **Untyped** (`.ugm`): the payload is the vISA operands `base` (64-bit address),
//!   `width − 1` and `pitch − 1` (bytes), `height − 1` (rows), `x` (elements) and `y`
//!   (rows), `x` and `y` signed 32-bit. A load builds `R` exactly as the `LOAD_BLOCK2D`
//!   pseudo-code of `LSC_UNTYPED.md` with 64-byte GRFs: element `(b, y, x)` comes
//!   from row `Y + y`, element column `X + b·W + x` (the pseudo-code's `load_elem`
//!   forgets `Y`; its unused `block_start` shows the intent), in the non-transposed
//!   (`nn`), VNNI (`nt`: `4 / size` rows per dword) and transposed (`tn`) layouts,
//!   with register rows padded to a power of two and each block padded to a whole GRF,
//!   all padding zero. Transposed VNNI (`tt`), VNNI of d32/d64 (the pseudo-code divides
//!   by `4 / size` = 0) and VNNI heights that are not a multiple of the rows per dword
//!   (the pseudo-code would read rows past the block) are errors. A store writes one
//!   block from the layout of an `nn` load of the same shape; blocks > 1, VNNI and
//!   transpose are errors on stores. (`STORE_BLOCK2D`'s pseudo-code indexes
//!   `Src1Data.elems[v·reg_pitch + n]` with `reg_pitch = round_up_pow2(BlockHeight)`, a
//!   column-major layout that contradicts "similar to load block2d"; the load's
//!   row-major layout is used, as the OpenCL 2D block builtins read and write the same
//!   layout.)
//! * Out-of-surface elements (a column outside `[0, width)` bytes, a row outside
//!   `[0, height)`) read as 0 and are not written. This is the hardware's 2D block
//!   boundary behaviour as far as public documents let us tell: none of the project's
//!   references states it, so it is *inferred* (the payload carries the surface size
//!   for no other purpose). The surface's alignment rules (docs/hardware/lsc-messages.md §14: unknown) are not
//!   enforced.
//! * **Typed** (`.tgm`, Xe2): the payload is `x` in bytes (`LSC_TYPED.md`:
//!   "Src0AddrX ... position in bytes"; docs/hardware/lsc-messages.md §8.1 calls DW5 "block X" without a
//!   unit, and the typed width is in bytes, so bytes it is) and `y` in rows, both signed
//!   and relative to the bound view; the surface (2D; format, pitch, tiling) comes from
//!   the image's surface state, so texels are found through the real tiled layout
//!   (`tiling::Surface::texel_offset`). `R` has `height` rows of `width` bytes at a
//!   register pitch of `max(4, next_pow2(width))` (padding zero, nothing after the last
//!   row). `x` and `width` must be whole texels of the surface-state format (the
//!   pseudo-code counts `BlockWidth / pixel_size` texels). Texels outside the view read
//!   0 and are not written (the surface state's bounds check). The data size is not part
//!   of a typed block (the IR's `lsc_data` names the element the width is counted in).
//! * The access log holds one record per element (untyped) or texel (typed), made for
//!   lane 0; out-of-surface ones are logged as discarded when the surface's allocation
//!   is known.

pub mod atomic;
pub mod block2d;
pub mod dataport;
pub mod error;
pub mod lanes;
pub mod lsc;
pub mod sample;
pub mod sampler;
pub mod surface;
pub mod typed;
pub mod untyped;

pub use atomic::{apply_lsc_atomic, lsc_op_for_nir};
pub use block2d::{Block2d, TypedBlock, UntypedBlock};
pub use error::MessageError;
pub use lanes::{Lanes, LanesMut, Sender};
pub use lsc::{LscMessage, Message};
pub use sampler::SamplerMessage;
