//! The message intrinsics with the hardware's semantics: LSC typed and untyped messages
//! and the sampler `ld`/`ld_lz`, following the pseudo-code of the vISA specifications
//! (`shared/spec/visa-lsc-typed.md`, `visa-lsc-untyped.md`, `visa-3d-load.md`) with the
//! corrections of `shared/reference/lsc.md`.
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
//!   half (lsc.md §3).
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
//! Loads convert the texel with the surface-state format ([`TexelLayout`], the same
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
//! `d16u32` result undefined, lsc.md §1; zero is the value modelled, so the lowering
//! must not rely on it there, and masks or sign-extends the result itself.)
//!
//! # Atomics
//!
//! Every LSC sub-op (lsc.md §2): `iinc`/`idec` add or subtract 1, `load` returns the old
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
//! `u`, `v`, `r` per surface type (`visa-3d-load.md`): 1D/1D array: x, array index,
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
//!   pseudo-code of `visa-lsc-untyped.md` with 64-byte GRFs: element `(b, y, x)` comes
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
//!   for no other purpose). The surface's alignment rules (lsc.md §14: unknown) are not
//!   enforced.
//! * **Typed** (`.tgm`, Xe2): the payload is `x` in bytes (`visa-lsc-typed.md`:
//!   "Src0AddrX ... position in bytes"; lsc.md §8.1 calls DW5 "block X" without a
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

use crate::exec::lane_err;
use crate::image::{access_ctx, bound_image, image_binding_index};
use crate::memory::{AccessKind, ImageBinding, Memory, Space, Target};
use crate::texel::{ChannelKind, TexelLayout};
use ir::eval::{eval_alu, Operand};
use ir::interp::{EnvError, IntrinsicCall};
use ir::lsc::{AddrSize, AddrType, BlockShape, DataShape, DataSize, LscAtomicOp, Sfid};
use ir::{AluOp, AluType, AtomicOp, BaseType, IndexKind, IntrinsicOp, Type};
use std::fmt;
use tiling::SurfDim;

/// Why a message cannot execute: an encoding the hardware does not accept, or operands
/// that do not fit the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// An index is missing or does not decode.
    BadIndex {
        /// The index.
        index: &'static str,
    },
    /// A message the hardware does not accept (lsc.md §13).
    Illegal {
        /// Why.
        reason: String,
    },
    /// An operand does not have the shape the message needs.
    Shape {
        /// Why.
        reason: String,
    },
    /// A subgroup-level message (a block message, an image block access) run with
    /// some lanes of the subgroup inactive, or whose data does not spread over them.
    Subgroup {
        /// Why.
        reason: String,
    },
    /// An operand that must be uniform across the message's lanes is not.
    NotUniform {
        /// The operand.
        operand: &'static str,
        /// A lane whose value differs from the first lane's.
        lane: u32,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::BadIndex { index } => write!(f, "index `{index}` is missing or invalid"),
            MessageError::Illegal { reason } => write!(f, "illegal message: {reason}"),
            MessageError::Shape { reason } => f.write_str(reason),
            MessageError::NotUniform { operand, lane } => write!(
                f,
                "the {operand} of a strided or block message must be uniform across its lanes, but lane {lane} differs"
            ),
            MessageError::Subgroup { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for MessageError {}

fn illegal(reason: impl Into<String>) -> EnvError {
    EnvError::new(MessageError::Illegal {
        reason: reason.into(),
    })
}

fn shape_err(reason: impl Into<String>) -> EnvError {
    EnvError::new(MessageError::Shape {
        reason: reason.into(),
    })
}

/// A decoded LSC message: its indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LscMessage {
    /// The opcode.
    pub op: IntrinsicOp,
    /// The shared function.
    pub sfid: Sfid,
    /// The address model.
    pub addr_type: AddrType,
    /// The address size.
    pub addr_size: AddrSize,
    /// The data shape.
    pub shape: DataShape,
    /// The immediate address offset in bytes.
    pub offset: i32,
    /// The atomic sub-op, for `lsc_atomic`.
    pub atomic: Option<LscAtomicOp>,
}

impl LscMessage {
    /// Decodes the indices of an LSC message and checks the hardware's rules that the
    /// executor depends on (lsc.md §4, §5, §13).
    pub fn decode(call: &IntrinsicCall<'_>) -> Result<LscMessage, EnvError> {
        let bad = |k: IndexKind| EnvError::new(MessageError::BadIndex { index: k.name() });
        let op = call.op();
        let d = ir::lsc::LscDesc::from_indices(&call.intrinsic.indices)
            .map_err(|e| bad(e.field.into()))?;
        let atomic = if op == IntrinsicOp::LscAtomic {
            Some(d.atomic.ok_or_else(|| bad(IndexKind::LscOp))?)
        } else {
            None
        };
        let m = LscMessage {
            op,
            sfid: d.sfid,
            addr_type: d.addr_type,
            addr_size: d.addr_size,
            shape: d.data,
            offset: d.offset,
            atomic,
        };
        m.check()?;
        Ok(m)
    }

    fn check(&self) -> Result<(), EnvError> {
        let s = self.shape;
        let quad = matches!(
            self.op,
            IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad
        );
        match self.sfid {
            Sfid::Tgm => {
                // lsc.md §5, §7.1, §11: typed messages are stateful and a32, with no offset.
                if self.addr_type == AddrType::Flat {
                    return Err(illegal(".tgm messages cannot use the flat address model"));
                }
                if self.addr_size != AddrSize::A32 {
                    return Err(illegal(format!(
                        ".tgm messages take a32 coordinates, not {}",
                        self.addr_size.name()
                    )));
                }
                if self.offset != 0 {
                    return Err(illegal("TGM messages cannot have a base offset"));
                }
                if !matches!(
                    self.op,
                    IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad | IntrinsicOp::LscAtomic
                ) {
                    return Err(illegal(format!(
                        ".tgm supports load_quad, store_quad and atomics, not {}",
                        self.op
                    )));
                }
            }
            Sfid::Slm => {
                if self.addr_type != AddrType::Flat {
                    return Err(illegal(".slm messages use the flat address model"));
                }
                if self.addr_size == AddrSize::A64 {
                    return Err(illegal(".slm messages cannot use a64 addresses"));
                }
            }
            Sfid::Ugm | Sfid::Ugml => {
                if self.addr_size == AddrSize::A16 {
                    return Err(illegal("a16 addresses are for .slm only"));
                }
                if self.addr_type != AddrType::Flat && self.addr_size != AddrSize::A32 {
                    return Err(illegal(format!(
                        "stateful ({}) untyped messages take a32 addresses",
                        self.addr_type.name()
                    )));
                }
            }
        }
        if quad != (s.cmask != 0) {
            return Err(shape_err(format!(
                "{} needs {} data shape, found {s}",
                self.op,
                if quad { "a channel-mask" } else { "a vector" }
            )));
        }
        if self.op == IntrinsicOp::LscStoreQuad && !matches!(s.cmask, 0x1 | 0x3 | 0x7 | 0xf) {
            // lsc.md §4: store_quad masks must be contiguous from x.
            return Err(illegal(format!(
                "store_quad channel mask {s} is not contiguous from x"
            )));
        }
        if s.vect > 1 && !s.transpose && !matches!(s.size, DataSize::D32 | DataSize::D64) {
            return Err(illegal(format!("vector data needs d32 or d64, found {s}")));
        }
        if !s.transpose && s.cmask == 0 {
            // lsc.md §4: SIMT vector sizes.
            let legal: &[u8] = if self.sfid == Sfid::Ugml {
                &[1, 2, 4]
            } else {
                &[1, 2, 3, 4, 8]
            };
            if !legal.contains(&s.vect) {
                return Err(illegal(format!(
                    "{s} on .{}: non-transposed vector sizes are {legal:?}",
                    self.sfid.name()
                )));
            }
        }
        if s.transpose && (quad || self.atomic.is_some()) {
            return Err(illegal(
                "transposed data is not allowed with a channel mask or an atomic",
            ));
        }
        if self.atomic.is_some()
            && (s.vect != 1 || !matches!(s.size, DataSize::D16U32 | DataSize::D32 | DataSize::D64))
        {
            return Err(illegal(format!(
                "atomics take d16u32, d32 or d64 with one element, found {s}"
            )));
        }
        Ok(())
    }
}

/// Executes a message intrinsic (`lsc_*`, `lsc_*_block2d`, `sampler_ld`, `sampler_ld_lz`)
/// for all its lanes.
pub fn execute(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    call.check_sources()?;
    match call.op() {
        IntrinsicOp::SamplerLd | IntrinsicOp::SamplerLdLz => sampler_ld(mem, call),
        IntrinsicOp::LscLoadBlock2d | IntrinsicOp::LscStoreBlock2d => block2d(mem, call),
        op if op.is_lsc() => {
            let m = LscMessage::decode(call)?;
            if m.sfid == Sfid::Tgm {
                typed(mem, call, &m)
            } else {
                untyped(mem, call, &m)
            }
        }
        op => Err(EnvError::msg(format!("`@{op}` is not a message"))),
    }
}

// ----- untyped ---------------------------------------------------------------------------

/// Register value of an element read from memory.
fn widen(size: DataSize, raw: u64) -> u64 {
    match size {
        DataSize::D16U32H => raw << 16,
        _ => raw,
    }
}

/// Memory value of an element written from a register.
fn narrow(size: DataSize, reg: u64) -> u64 {
    match size {
        DataSize::D16U32H => (reg >> 16) & 0xffff,
        DataSize::D8 | DataSize::D8U32 => reg & 0xff,
        DataSize::D16 | DataSize::D16U32 => reg & 0xffff,
        DataSize::D32 => reg & 0xffff_ffff,
        DataSize::D64 => reg,
    }
}

/// Resolves an untyped element address to a memory target.
fn untyped_target(
    mem: &Memory,
    call: &IntrinsicCall<'_>,
    m: &LscMessage,
    lane: usize,
    address: u64,
) -> Result<Target, EnvError> {
    Ok(match (m.sfid, m.addr_type) {
        (Sfid::Slm, _) => Target::Shared(address),
        (_, AddrType::Flat) => Target::Global(address),
        _ => {
            let (_, b) = bound_image(mem, call, lane)?;
            Target::Alloc(b.alloc, address)
        }
    })
}

/// `(a + offset) mod 2^bits`.
fn wrap_address(a: u64, offset: i64, size: AddrSize) -> u64 {
    (a.wrapping_add(offset as u64)) & ir::types::bit_mask(size.bits())
}

fn check_addr_type(
    call: &IntrinsicCall<'_>,
    src: usize,
    m: &LscMessage,
    what: &str,
) -> Result<(), EnvError> {
    let t = call.src_type(src);
    if t.bit_size() != m.addr_size.bits() || t.num_components() != 1 {
        return Err(shape_err(format!(
            "the {what} is {t}, expected a {}-bit scalar for {}",
            m.addr_size.bits(),
            m.addr_size.name()
        )));
    }
    Ok(())
}

fn check_data(
    call: &IntrinsicCall<'_>,
    src: usize,
    want: Type,
    what: &str,
) -> Result<(), EnvError> {
    let t = call.src_type(src);
    if t != want {
        return Err(shape_err(format!("the {what} is {t}, expected {want}")));
    }
    Ok(())
}

fn check_dest(call: &IntrinsicCall<'_>, want: Type) -> Result<(), EnvError> {
    if let Some(d) = call.dest_type {
        if d != want {
            return Err(shape_err(format!(
                "the destination is {d}, expected {want}"
            )));
        }
    }
    Ok(())
}

/// The per-lane data type of a message with this shape.
fn data_type(shape: DataShape) -> Result<Type, EnvError> {
    Type::new(shape.size.reg_bits(), shape.components()).ok_or_else(|| {
        shape_err(format!(
            "lsc_data={shape} has {} components per lane, which no IR value can hold",
            shape.components()
        ))
    })
}

fn untyped(mem: &mut Memory, call: &mut IntrinsicCall<'_>, m: &LscMessage) -> Result<(), EnvError> {
    let shape = m.shape;
    let esize = shape.size.mem_bytes() as u64;
    let enabled = call.enabled_mask();
    let lanes: Vec<usize> = (0..call.num_lanes())
        .filter(|l| enabled & (1 << l) != 0)
        .collect();
    let offset = m.offset as i64;
    match m.op {
        IntrinsicOp::LscAtomic => return untyped_atomic(mem, call, m, &lanes),
        IntrinsicOp::LscLoadStrided | IntrinsicOp::LscStoreStrided => {
            return strided(mem, call, m, &lanes)
        }
        _ => {}
    }
    check_addr_type(call, 0, m, "address")?;
    let dtype = data_type(shape)?;
    // The elements a lane moves: vector elements 0..vect, or the enabled channels of a
    // quad; element v sits at address + v * size.
    let elements: Vec<u64> = if shape.cmask != 0 {
        (0..4).filter(|v| shape.cmask & (1 << v) != 0).collect()
    } else {
        (0..shape.vect as u64).collect()
    };
    match m.op {
        IntrinsicOp::LscLoad | IntrinsicOp::LscLoadQuad => {
            check_dest(call, dtype)?;
            for &lane in &lanes {
                let ctx = access_ctx(call, lane);
                let base = wrap_address(call.src_scalar(0, lane), offset, m.addr_size);
                let mut vals = Vec::with_capacity(elements.len());
                for &v in &elements {
                    let t = untyped_target(mem, call, m, lane, base + v * esize)?;
                    let raw = mem
                        .load_uint(t, esize as usize, &ctx)
                        .map_err(|e| lane_err(lane, e))?;
                    vals.push(widen(shape.size, raw));
                }
                call.set_dest(lane, &vals);
            }
        }
        IntrinsicOp::LscStore | IntrinsicOp::LscStoreQuad => {
            check_data(call, 1, dtype, "data")?;
            for &lane in &lanes {
                let ctx = access_ctx(call, lane);
                let base = wrap_address(call.src_scalar(0, lane), offset, m.addr_size);
                for (i, &v) in elements.iter().enumerate() {
                    let t = untyped_target(mem, call, m, lane, base + v * esize)?;
                    let val = narrow(shape.size, call.src(1, lane)[i]);
                    mem.store_uint(t, esize as usize, val, &ctx)
                        .map_err(|e| lane_err(lane, e))?;
                }
            }
        }
        op => return Err(EnvError::msg(format!("`@{op}` is not an untyped message"))),
    }
    Ok(())
}

fn strided(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &LscMessage,
    lanes: &[usize],
) -> Result<(), EnvError> {
    let shape = m.shape;
    let esize = shape.size.mem_bytes() as u64;
    check_addr_type(call, 0, m, "base address")?;
    let dtype = data_type(shape)?;
    let Some(&first) = lanes.first() else {
        return Ok(());
    };
    let base = call.src_scalar(0, first);
    let pitch = call.src_scalar(1, first);
    for &lane in lanes {
        if call.src_scalar(0, lane) != base {
            return Err(lane_err(
                lane,
                MessageError::NotUniform {
                    operand: "base address",
                    lane: lane as u32,
                },
            ));
        }
        if call.src_scalar(1, lane) != pitch {
            return Err(lane_err(
                lane,
                MessageError::NotUniform {
                    operand: "pitch",
                    lane: lane as u32,
                },
            ));
        }
    }
    let store = m.op == IntrinsicOp::LscStoreStrided;
    if store {
        check_data(call, 2, dtype, "data")?;
    } else {
        check_dest(call, dtype)?;
    }
    for &lane in lanes {
        let ctx = access_ctx(call, lane);
        let lane_base = wrap_address(
            base.wrapping_add((lane as u64).wrapping_mul(pitch)),
            m.offset as i64,
            m.addr_size,
        );
        let mut vals = Vec::new();
        for v in 0..shape.vect as u64 {
            let t = untyped_target(mem, call, m, lane, lane_base + v * esize)?;
            if store {
                let val = narrow(shape.size, call.src(2, lane)[v as usize]);
                mem.store_uint(t, esize as usize, val, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
            } else {
                let raw = mem
                    .load_uint(t, esize as usize, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                vals.push(widen(shape.size, raw));
            }
        }
        if !store {
            call.set_dest(lane, &vals);
        }
    }
    Ok(())
}

/// One float ALU op through the shared ALU semantics.
fn float_op(op: AluOp, bits: u8, a: u64, b: u64) -> u64 {
    let ty = if op == AluOp::Feq {
        Type::BOOL
    } else {
        Type::scalar(bits).expect("16, 32 or 64")
    };
    eval_alu(
        op,
        ty,
        &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
    )
    .map(|v| v[0])
    .expect("float ops on 16-, 32- and 64-bit scalars evaluate")
}

/// The LSC atomic `op` on a `bits`-bit memory value (16, 32 or 64). Returns the new
/// value.
pub fn apply_lsc_atomic(op: LscAtomicOp, bits: u8, old: u64, src1: u64, src2: u64) -> u64 {
    let m = ir::types::bit_mask(bits);
    let (old, a, b) = (old & m, src1 & m, src2 & m);
    let sext = |v: u64| ir::eval::sign_extend(bits, v);
    let new = match op {
        LscAtomicOp::Iinc => old.wrapping_add(1),
        LscAtomicOp::Idec => old.wrapping_sub(1),
        LscAtomicOp::Load => old,
        LscAtomicOp::Store => a,
        LscAtomicOp::Iadd => old.wrapping_add(a),
        LscAtomicOp::Isub => old.wrapping_sub(a),
        LscAtomicOp::Smin => {
            if sext(a) < sext(old) {
                a
            } else {
                old
            }
        }
        LscAtomicOp::Smax => {
            if sext(a) > sext(old) {
                a
            } else {
                old
            }
        }
        LscAtomicOp::Umin => old.min(a),
        LscAtomicOp::Umax => old.max(a),
        LscAtomicOp::Icas => {
            if old == a {
                b
            } else {
                old
            }
        }
        LscAtomicOp::Fadd => float_op(AluOp::Fadd, bits, old, a),
        LscAtomicOp::Fsub => float_op(AluOp::Fsub, bits, old, a),
        LscAtomicOp::Fmin => float_op(AluOp::Fmin, bits, old, a),
        LscAtomicOp::Fmax => float_op(AluOp::Fmax, bits, old, a),
        LscAtomicOp::Fcas => {
            if float_op(AluOp::Feq, bits, old, a) != 0 {
                b
            } else {
                old
            }
        }
        LscAtomicOp::And => old & a,
        LscAtomicOp::Or => old | a,
        LscAtomicOp::Xor => old ^ a,
    };
    new & m
}

/// The source indices of an atomic's `src1`/`src2` given the number of address sources.
fn atomic_operands(
    call: &IntrinsicCall<'_>,
    first: usize,
    op: LscAtomicOp,
    lane: usize,
) -> (u64, u64) {
    let n = op.num_data_operands();
    let a = if n >= 1 {
        call.src_scalar(first, lane)
    } else {
        0
    };
    let b = if n >= 2 {
        call.src_scalar(first + 1, lane)
    } else {
        0
    };
    (a, b)
}

fn check_atomic_operands(
    call: &IntrinsicCall<'_>,
    first: usize,
    op: LscAtomicOp,
    bits: u8,
) -> Result<(), EnvError> {
    for i in 0..op.num_data_operands() {
        let t = call.src_type(first + i);
        if t.bit_size() != bits || t.num_components() != 1 {
            return Err(shape_err(format!(
                "atomic operand src{} is {t}, expected a {bits}-bit scalar",
                i + 1
            )));
        }
    }
    Ok(())
}

fn untyped_atomic(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &LscMessage,
    lanes: &[usize],
) -> Result<(), EnvError> {
    let op = m.atomic.expect("decoded for lsc_atomic");
    let size = m.shape.size;
    let bytes = size.mem_bytes() as usize;
    let bits = (bytes * 8) as u8;
    check_addr_type(call, 0, m, "address")?;
    check_atomic_operands(call, 1, op, size.reg_bits())?;
    check_dest(call, data_type(m.shape)?)?;
    for &lane in lanes {
        let ctx = access_ctx(call, lane);
        let address = wrap_address(call.src_scalar(0, lane), m.offset as i64, m.addr_size);
        let t = untyped_target(mem, call, m, lane, address)?;
        let (a, b) = atomic_operands(call, 1, op, lane);
        let old = mem
            .atomic(t, bytes, &ctx, |old| apply_lsc_atomic(op, bits, old, a, b))
            .map_err(|e| lane_err(lane, e))?;
        call.set_dest(lane, &[old]);
    }
    Ok(())
}

// ----- typed -----------------------------------------------------------------------------

/// Where a typed or sampler access lands: the texel's byte offset in the image's
/// allocation, or `None` when the surface state's bounds check fails.
fn typed_texel(
    b: &ImageBinding,
    x: u64,
    y: u64,
    r: u64,
    lod: u64,
) -> Result<Option<u64>, EnvError> {
    let s = |v: u64| v as u32 as i32 as i64;
    let (x, y, r, lod) = (s(x), s(y), s(r), s(lod));
    if lod < 0 {
        return Ok(None);
    }
    let Some(ext) = b.view_extent(lod as u32) else {
        return Ok(None);
    };
    // (x, y, array index or slice, its limit) per surface type.
    let (x, y, z, zl) = match ext.surf_dim {
        None => (x, 0, 0, 1),
        Some(SurfDim::D1) => (x, 0, y, ext.layers),
        Some(SurfDim::D2) => (x, y, r, ext.layers),
        Some(SurfDim::D3) => (x, y, r, ext.depth),
    };
    b.view_texel_offset(&ext, [x, y, z], zl)
        .map_err(EnvError::msg)
}

/// How a typed message's data size carries channel values.
fn check_typed_size(layout: &TexelLayout, size: DataSize) -> Result<(), EnvError> {
    let ok = match size {
        DataSize::D32 => !layout.is_64bit(),
        DataSize::D64 => layout.is_64bit(),
        DataSize::D16U32 | DataSize::D8U32 => {
            let w = if size == DataSize::D16U32 { 16 } else { 8 };
            layout.channels.iter().all(|c| {
                c.bits <= w
                    && match c.kind {
                        ChannelKind::Uint | ChannelKind::Sint | ChannelKind::Raw => true,
                        ChannelKind::Float => c.bits == 16,
                        _ => false,
                    }
            })
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(illegal(format!(
            "typed data size {} cannot carry the channels of surface format {}",
            size.name(),
            layout.name
        )))
    }
}

/// The four typed coordinates of lane `lane`.
fn coords(call: &IntrinsicCall<'_>, lane: usize) -> [u64; 4] {
    [
        call.src_scalar(0, lane),
        call.src_scalar(1, lane),
        call.src_scalar(2, lane),
        call.src_scalar(3, lane),
    ]
}

fn typed(mem: &mut Memory, call: &mut IntrinsicCall<'_>, m: &LscMessage) -> Result<(), EnvError> {
    for i in 0..4 {
        let t = call.src_type(i);
        if t != Type::U32 {
            return Err(shape_err(format!(
                "typed coordinate {} is {t}, expected a 32-bit scalar",
                ["u", "v", "r", "lod"][i]
            )));
        }
    }
    let enabled = call.enabled_mask();
    let lanes: Vec<usize> = (0..call.num_lanes())
        .filter(|l| enabled & (1 << l) != 0)
        .collect();
    let shape = m.shape;
    let dtype = data_type(shape)?;
    match m.op {
        IntrinsicOp::LscLoadQuad => check_dest(call, dtype)?,
        IntrinsicOp::LscStoreQuad => check_data(call, 4, dtype, "data")?,
        _ => {
            let op = m.atomic.expect("decoded for lsc_atomic");
            check_atomic_operands(call, 4, op, shape.size.reg_bits())?;
            check_dest(call, dtype)?;
        }
    }
    for &lane in &lanes {
        let ctx = access_ctx(call, lane);
        let (_, b) = bound_image(mem, call, lane)?;
        let layout = TexelLayout::from_isl(b.state_format).map_err(|e| lane_err(lane, e))?;
        let alloc = b.alloc;
        let [u, v, r, lod] = coords(call, lane);
        let texel = typed_texel(b, u, v, r, lod)?;
        let tbytes = layout.bytes;
        match m.op {
            IntrinsicOp::LscLoadQuad => {
                check_typed_size(&layout, shape.size)?;
                // Out of bounds, the texel reads as all-zero bytes converted with the
                // surface format: 0 in the format's channels and the format's (0, 0, 1)
                // in the missing G, B, A (Vulkan's texel replacement, which anv
                // guarantees with robustImageAccess2).
                let mut bytes = vec![0u8; tbytes];
                mem.texel_access(AccessKind::Load, alloc, texel, &mut bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                let rgba = if shape.size.is_conversion() {
                    raw_channels(&layout, &bytes)
                } else {
                    layout.decode(&bytes).map_err(|e| lane_err(lane, e))?
                };
                let vals: Vec<u64> = (0..4)
                    .filter(|c| shape.cmask & (1 << c) != 0)
                    .map(|c| rgba[c])
                    .collect();
                call.set_dest(lane, &vals);
            }
            IntrinsicOp::LscStoreQuad => {
                check_typed_size(&layout, shape.size)?;
                let Some(off) = texel else {
                    mem.discard_texel(AccessKind::Store, alloc, tbytes, &ctx);
                    continue;
                };
                let data = call.src(4, lane);
                let mut rgba = [0u64; 4];
                let mut k = 0;
                for (c, slot) in rgba.iter_mut().enumerate() {
                    if shape.cmask & (1 << c) != 0 {
                        *slot = data[k];
                        k += 1;
                    }
                }
                let target = Target::Alloc(alloc, off);
                let mut bytes = vec![0u8; tbytes];
                mem.peek(target, &mut bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                if shape.size.is_conversion() {
                    for ch in &layout.channels {
                        if shape.cmask & (1 << ch.slot) != 0 {
                            crate::texel::write_bits(
                                &mut bytes,
                                ch.start_bit,
                                ch.bits,
                                rgba[ch.slot as usize],
                            );
                        }
                    }
                } else {
                    layout
                        .encode_into(&rgba, shape.cmask, &mut bytes)
                        .map_err(|e| lane_err(lane, e))?;
                }
                mem.store(target, &bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
            }
            IntrinsicOp::LscAtomic => {
                let op = m.atomic.expect("decoded for lsc_atomic");
                let bytes = shape.size.mem_bytes() as usize;
                if bytes != tbytes {
                    return Err(illegal(format!(
                        "a {} typed atomic on surface format {} ({} bytes per texel)",
                        shape.size.name(),
                        layout.name,
                        tbytes
                    )));
                }
                let Some(off) = texel else {
                    mem.discard_texel(AccessKind::Atomic, alloc, tbytes, &ctx);
                    continue;
                };
                let (a, bb) = atomic_operands(call, 4, op, lane);
                let bits = (bytes * 8) as u8;
                let old = mem
                    .atomic(Target::Alloc(alloc, off), bytes, &ctx, |old| {
                        apply_lsc_atomic(op, bits, old, a, bb)
                    })
                    .map_err(|e| lane_err(lane, e))?;
                call.set_dest(lane, &[old]);
            }
            op => return Err(illegal(format!("{op} on .tgm"))),
        }
    }
    Ok(())
}

/// The raw bits of each channel, zero-extended, in RGBA slots (missing channels 0, alpha
/// 1): what `d16u32`/`d8u32` typed loads return.
fn raw_channels(layout: &TexelLayout, bytes: &[u8]) -> [u64; 4] {
    let mut out = [0, 0, 0, 1];
    for c in &layout.channels {
        out[c.slot as usize] = crate::texel::read_bits(bytes, c.start_bit, c.bits);
    }
    out
}

// ----- subgroup-level data ---------------------------------------------------------------

/// Checks that every lane of the subgroup runs a subgroup-level call.
pub fn check_whole_subgroup(call: &IntrinsicCall<'_>) -> Result<(), EnvError> {
    let n = call.num_lanes();
    let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    if call.exec_mask & all != all {
        let missing: Vec<String> = (0..n)
            .filter(|l| call.exec_mask & (1 << l) == 0)
            .map(|l| l.to_string())
            .collect();
        return Err(EnvError::new(MessageError::Subgroup {
            reason: format!(
                "`@{}` runs once for the whole subgroup and needs all {n} lanes active, but lanes {} are inactive",
                call.op(),
                missing.join(", ")
            ),
        }));
    }
    Ok(())
}

/// Lane 0's value of scalar source `src`, checked to be the same in every lane.
pub fn uniform_scalar(
    call: &IntrinsicCall<'_>,
    src: usize,
    operand: &'static str,
) -> Result<u64, EnvError> {
    uniform_in_lanes(call, operand, |lane| call.src_scalar(src, lane))
}

/// Lane 0's value of source `src` (all components), checked to be the same in every
/// lane.
pub fn uniform_vector(
    call: &IntrinsicCall<'_>,
    src: usize,
    operand: &'static str,
) -> Result<Vec<u64>, EnvError> {
    uniform_in_lanes(call, operand, |lane| call.src(src, lane)).map(<[u64]>::to_vec)
}

/// Lane 0's `value`, or [`MessageError::NotUniform`] at the first lane that differs.
fn uniform_in_lanes<T: PartialEq>(
    call: &IntrinsicCall<'_>,
    operand: &'static str,
    value: impl Fn(usize) -> T,
) -> Result<T, EnvError> {
    let v = value(0);
    match (1..call.num_lanes()).find(|&lane| value(lane) != v) {
        Some(lane) => Err(lane_err(
            lane,
            MessageError::NotUniform {
                operand,
                lane: lane as u32,
            },
        )),
        None => Ok(v),
    }
}

/// Checks that a value of type `t` spreads `bytes` over the call's lanes.
fn check_spread(
    call: &IntrinsicCall<'_>,
    what: &str,
    t: Type,
    bytes: usize,
) -> Result<(), EnvError> {
    let sg = call.num_lanes();
    let have = t.num_components() as usize * (t.bit_size() as usize / 8) * sg;
    if t.bit_size() < 8 || have != bytes {
        return Err(EnvError::new(MessageError::Subgroup {
            reason: format!(
                "{what} is {t}, which spreads {have} bytes over {sg} lanes, but the block's register image is {bytes} bytes"
            ),
        }));
    }
    Ok(())
}

/// Writes register image `r` to the destination: component `k` of lane `i` gets bytes
/// `r[(k·SG + i)·b/8 ..][.. b/8]` (little-endian).
pub fn scatter_to_lanes(call: &mut IntrinsicCall<'_>, r: &[u8]) -> Result<(), EnvError> {
    let t = call
        .dest_type
        .ok_or_else(|| EnvError::msg(format!("`@{}` has no destination", call.op())))?;
    check_spread(call, "the destination", t, r.len())?;
    let sg = call.num_lanes();
    let bb = t.bit_size() as usize / 8;
    for lane in 0..sg {
        let vals: Vec<u64> = (0..t.num_components() as usize)
            .map(|k| {
                let at = (k * sg + lane) * bb;
                let mut w = [0u8; 8];
                w[..bb].copy_from_slice(&r[at..at + bb]);
                u64::from_le_bytes(w)
            })
            .collect();
        call.set_dest(lane, &vals);
    }
    Ok(())
}

/// Reads a register image of `bytes` bytes from source `src` of every lane (the inverse
/// of [`scatter_to_lanes`]).
pub fn gather_from_lanes(
    call: &IntrinsicCall<'_>,
    src: usize,
    bytes: usize,
) -> Result<Vec<u8>, EnvError> {
    let t = call.src_type(src);
    check_spread(call, "the data", t, bytes)?;
    let sg = call.num_lanes();
    let bb = t.bit_size() as usize / 8;
    let mut r = vec![0u8; bytes];
    for lane in 0..sg {
        for (k, v) in call.src(src, lane).iter().enumerate() {
            let at = (k * sg + lane) * bb;
            r[at..at + bb].copy_from_slice(&v.to_le_bytes()[..bb]);
        }
    }
    Ok(r)
}

// ----- 2D block messages ----------------------------------------------------------------

/// The decoded indices of a block message.
struct Block2d {
    store: bool,
    sfid: Sfid,
    elem: usize,
    size: DataSize,
    shape: BlockShape,
}

fn decode_block2d(call: &IntrinsicCall<'_>) -> Result<Block2d, EnvError> {
    let bad = |k: IndexKind| EnvError::new(MessageError::BadIndex { index: k.name() });
    let d = ir::lsc::Block2dDesc::from_indices(&call.intrinsic.indices)
        .map_err(|e| bad(e.field.into()))?;
    let (sfid, shape) = (d.sfid, d.shape);
    let data = DataShape::vector(d.size, 1, false);
    if data.size.is_conversion() {
        return Err(illegal(format!(
            "block messages move d8, d16, d32 or d64 elements, found lsc_data={data}"
        )));
    }
    let store = call.op() == IntrinsicOp::LscStoreBlock2d;
    match sfid {
        Sfid::Ugm if !shape.is_untyped() => {
            return Err(illegal(format!(
                "an untyped block is BxWxH with flags, found {shape}"
            )))
        }
        Sfid::Tgm if shape.is_untyped() => {
            return Err(illegal(format!(
                "a typed block is WxH in bytes, found {shape}"
            )))
        }
        Sfid::Ugm | Sfid::Tgm => {}
        other => {
            return Err(illegal(format!(
                "block messages go to .ugm or .tgm, not .{}",
                other.name()
            )))
        }
    }
    if store && (shape.blocks > 1 || shape.transpose || shape.vnni) {
        return Err(illegal(format!(
            "a block store writes one plain block, found {shape}"
        )));
    }
    Ok(Block2d {
        store,
        sfid,
        elem: data.size.mem_bytes() as usize,
        size: data.size,
        shape,
    })
}

fn block2d(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let m = decode_block2d(call)?;
    check_whole_subgroup(call)?;
    if m.sfid == Sfid::Tgm {
        typed_block2d(mem, call, &m)
    } else {
        untyped_block2d(mem, call, &m)
    }
}

/// The untyped surface of a block message's payload.
struct BlockSurface {
    base: u64,
    width: i64,
    height: i64,
    pitch: i64,
    x: i64,
    y: i64,
}

fn untyped_block2d(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &Block2d,
) -> Result<(), EnvError> {
    let names = ["base", "width - 1", "height - 1", "pitch - 1", "x", "y"];
    let mut p = [0u64; 6];
    for (i, name) in names.iter().enumerate() {
        p[i] = uniform_scalar(call, i, name)?;
    }
    let s32 = |v: u64| v as u32 as i32 as i64;
    let surf = BlockSurface {
        base: p[0],
        width: (p[1] as u32) as i64 + 1,
        height: (p[2] as u32) as i64 + 1,
        pitch: (p[3] as u32) as i64 + 1,
        x: s32(p[4]),
        y: s32(p[5]),
    };
    let e = m.elem;
    let s = m.shape;
    let (w, h, nb) = (s.width as usize, s.height as usize, s.blocks as usize);
    let ctx = access_ctx(call, 0);
    // Where element column `col`, row `row` of the surface is, if inside it.
    let elem_addr = |col: i64, row: i64| -> Option<u64> {
        let inside =
            col >= 0 && (col + 1) * e as i64 <= surf.width && row >= 0 && row < surf.height;
        inside.then(|| {
            surf.base
                .wrapping_add((row * surf.pitch + col * e as i64) as u64)
        })
    };
    let surface_space = mem.resolve(surf.base, 1).map(|(a, _)| Space::Alloc(a));
    if m.store {
        // One block in the layout of an `nn` load: rows at a pitch of next_pow2(W).
        let rp = w.next_power_of_two();
        let bytes = round_up(rp * h, 64 / e) * e;
        let r = gather_from_lanes(call, 6, bytes)?;
        for y in 0..h {
            for x in 0..w {
                let at = (y * rp + x) * e;
                match elem_addr(surf.x + x as i64, surf.y + y as i64) {
                    Some(a) => mem
                        .store(Target::Global(a), &r[at..at + e], &ctx)
                        .map_err(|err| lane_err(0, err))?,
                    None => {
                        if let Some(space) = surface_space {
                            mem.record_discarded(AccessKind::Store, space, e as u32, &ctx);
                        }
                    }
                }
            }
        }
        return Ok(());
    }
    let per_dword = 4 / e;
    if s.vnni && s.transpose {
        return Err(illegal(format!(
            "{shape}: a block cannot be transposed and VNNI-transformed together",
            shape = s
        )));
    }
    if s.vnni && (e >= 4 || !h.is_multiple_of(per_dword)) {
        return Err(illegal(format!(
            "{s} of {}: VNNI packs 4 / size rows per dword, so it needs d8 or d16 and a height that is a multiple of that",
            m.size.name()
        )));
    }
    // The pseudo-code's pitches, in elements.
    let row_size = if s.transpose { h } else { w };
    let rp = row_size.next_power_of_two();
    let block_size = rp * if s.transpose { w } else { h };
    let bp = round_up(block_size, 64 / e);
    let mut r = vec![0u8; nb * bp * e];
    // Loads element (b, y, x) of the block into register element `dst` (zero outside).
    let mut load = |mem: &mut Memory, dst: usize, b: usize, y: usize, x: usize| {
        let col = surf.x + (b * w + x) as i64;
        let row = surf.y + y as i64;
        match elem_addr(col, row) {
            Some(a) => mem
                .load(Target::Global(a), &mut r[dst * e..dst * e + e], &ctx)
                .map_err(|err| lane_err(0, err)),
            None => {
                if let Some(space) = surface_space {
                    mem.record_discarded(AccessKind::Load, space, e as u32, &ctx);
                }
                Ok(())
            }
        }
    };
    for b in 0..nb {
        match (s.transpose, s.vnni) {
            (false, false) => {
                for y in 0..h {
                    for x in 0..w {
                        load(mem, b * bp + y * rp + x, b, y, x)?;
                    }
                }
            }
            (false, true) => {
                for y in (0..h).step_by(per_dword) {
                    for x in 0..w {
                        for i in 0..per_dword {
                            load(mem, b * bp + y * rp + x * per_dword + i, b, y + i, x)?;
                        }
                    }
                }
            }
            (true, false) => {
                for x in 0..w {
                    for i in 0..h {
                        load(mem, b * bp + x * rp + i, b, i, x)?;
                    }
                }
            }
            (true, true) => unreachable!("rejected above"),
        }
    }
    scatter_to_lanes(call, &r)
}

fn round_up(v: usize, m: usize) -> usize {
    v.div_ceil(m) * m
}

fn typed_block2d(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &Block2d,
) -> Result<(), EnvError> {
    let x = uniform_scalar(call, 0, "x")? as u32 as i32 as i64;
    let y = uniform_scalar(call, 1, "y")? as u32 as i32 as i64;
    let ctx = access_ctx(call, 0);
    let (_, b) = bound_image(mem, call, 0)?;
    let b = b.clone();
    for lane in 1..call.num_lanes() {
        if image_binding_index(call, lane)? != image_binding_index(call, 0)? {
            return Err(lane_err(
                lane,
                MessageError::NotUniform {
                    operand: "image",
                    lane: lane as u32,
                },
            ));
        }
    }
    let surf_dim = b.view_extent(0).and_then(|e| e.surf_dim);
    if surf_dim != Some(SurfDim::D2) {
        return Err(illegal(
            "typed block2d addresses a 2D surface, but the bound image is not one",
        ));
    }
    let tb = b.state_texel_bytes();
    let wb = m.shape.width as usize;
    let h = m.shape.height as usize;
    if !wb.is_multiple_of(tb) || x.rem_euclid(tb as i64) != 0 {
        return Err(illegal(format!(
            "a typed block of {wb} bytes at x = {x} bytes is not made of whole {tb}-byte texels of {}",
            b.state_format.name()
        )));
    }
    if !wb.is_multiple_of(m.elem) {
        return Err(illegal(format!(
            "a typed block of {wb} bytes does not hold whole {} elements",
            m.size.name()
        )));
    }
    let pitch = wb.next_power_of_two().max(4);
    let bytes = pitch * h;
    let tx = x.div_euclid(tb as i64);
    let alloc = b.alloc;
    let kind = if m.store {
        AccessKind::Store
    } else {
        AccessKind::Load
    };
    let mut r = if m.store {
        gather_from_lanes(call, 2, bytes)?
    } else {
        if let Some(t) = call.dest_type {
            check_spread(call, "the destination", t, bytes)?;
        }
        vec![0u8; bytes]
    };
    for u in 0..h {
        for v in 0..wb / tb {
            let (cx, cy) = (tx + v as i64, y + u as i64);
            let at = u * pitch + v * tb;
            let offset = typed_texel(&b, cx as u64, cy as u64, 0, 0)?;
            mem.texel_access(kind, alloc, offset, &mut r[at..at + tb], &ctx)
                .map_err(|e| lane_err(0, e))?;
        }
    }
    if m.store {
        Ok(())
    } else {
        scatter_to_lanes(call, &r)
    }
}

// ----- sampler ---------------------------------------------------------------------------

fn sampler_ld(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let lz = call.op() == IntrinsicOp::SamplerLdLz;
    let channels = call
        .index(IndexKind::Channels)
        .filter(|c| (1..=0xf).contains(c))
        .ok_or_else(|| EnvError::new(MessageError::BadIndex { index: "channels" }))?;
    let dest_type = call
        .index(IndexKind::DestType)
        .and_then(AluType::from_index)
        .ok_or_else(|| EnvError::new(MessageError::BadIndex { index: "dest_type" }))?;
    let nsrc = if lz { 3 } else { 4 };
    for i in 0..nsrc {
        if call.src_type(i) != Type::U32 {
            return Err(shape_err(format!(
                "sampler parameter {i} is {}, expected a 32-bit scalar",
                call.src_type(i)
            )));
        }
    }
    let dest_bits = call.dest_type.map_or(32, |t| t.bit_size());
    if !matches!(dest_bits, 16 | 32) {
        return Err(shape_err(format!(
            "the sampler returns 16- or 32-bit data, not {dest_bits}-bit"
        )));
    }
    let enabled = call.enabled_mask();
    let lanes: Vec<usize> = (0..call.num_lanes())
        .filter(|l| enabled & (1 << l) != 0)
        .collect();
    for lane in lanes {
        let ctx = access_ctx(call, lane);
        let (_, b) = bound_image(mem, call, lane)?;
        let layout = TexelLayout::from_isl(b.state_format).map_err(|e| lane_err(lane, e))?;
        if layout.is_64bit() {
            return Err(illegal(format!(
                "the sampler cannot load the 64-bit format {}",
                layout.name
            )));
        }
        let alloc = b.alloc;
        // ld: u, v, lod, r; ld_lz: u, v, r.
        let (u, v, lod, r) = if lz {
            (
                call.src_scalar(0, lane),
                call.src_scalar(1, lane),
                0,
                call.src_scalar(2, lane),
            )
        } else {
            (
                call.src_scalar(0, lane),
                call.src_scalar(1, lane),
                call.src_scalar(2, lane),
                call.src_scalar(3, lane),
            )
        };
        let Some(off) = typed_texel(b, u, v, r, lod)? else {
            mem.discard_texel(AccessKind::Load, alloc, layout.bytes, &ctx);
            continue;
        };
        let mut bytes = vec![0u8; layout.bytes];
        mem.load(Target::Alloc(alloc, off), &mut bytes, &ctx)
            .map_err(|e| lane_err(lane, e))?;
        let rgba = layout.decode(&bytes).map_err(|e| lane_err(lane, e))?;
        let vals: Vec<u64> = (0..4)
            .filter(|c| channels & (1 << c) != 0)
            .map(|c| to_dest(rgba[c], dest_bits, dest_type.base))
            .collect();
        call.set_dest(lane, &vals);
    }
    Ok(())
}

/// A 32-bit register value returned as a `bits`-bit destination of base type `base`.
fn to_dest(v: u64, bits: u8, base: BaseType) -> u64 {
    if bits == 32 {
        return v & 0xffff_ffff;
    }
    match base {
        BaseType::Float => half::f16::from_f32(f32::from_bits(v as u32)).to_bits() as u64,
        _ => v & 0xffff,
    }
}

/// NIR atomic ops and LSC sub-ops agree where both exist; used by tests and the verifier
/// to relate the two levels.
pub fn lsc_op_for_nir(op: AtomicOp) -> Option<LscAtomicOp> {
    Some(match op {
        AtomicOp::Iadd => LscAtomicOp::Iadd,
        AtomicOp::Imin => LscAtomicOp::Smin,
        AtomicOp::Umin => LscAtomicOp::Umin,
        AtomicOp::Imax => LscAtomicOp::Smax,
        AtomicOp::Umax => LscAtomicOp::Umax,
        AtomicOp::Iand => LscAtomicOp::And,
        AtomicOp::Ior => LscAtomicOp::Or,
        AtomicOp::Ixor => LscAtomicOp::Xor,
        AtomicOp::Xchg => LscAtomicOp::Store,
        AtomicOp::Fadd => LscAtomicOp::Fadd,
        AtomicOp::Fmin => LscAtomicOp::Fmin,
        AtomicOp::Fmax => LscAtomicOp::Fmax,
        AtomicOp::Cmpxchg => LscAtomicOp::Icas,
        AtomicOp::Fcmpxchg => LscAtomicOp::Fcas,
        // lsc.md §13: no LSC mapping.
        AtomicOp::IncWrap | AtomicOp::DecWrap => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::apply_nir_atomic;

    #[test]
    fn out_of_bounds_typed_reads_return_the_texel_replacement() {
        use ir::Value;
        // An RG16_FLOAT surface read as four channels: in bounds the missing B and A
        // read (0, 1.0); out of bounds R and G are 0 too.
        let text = "shader compute (local_size=1,1,1)
image @img : 2d rg16_float (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000002)
    32x4 %2 = @lsc_load_quad (@img, %1, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
    32x4 %3 = @lsc_load_quad (@img, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
}";
        let shader = crate::fixtures::parse(text);
        let mut ex = crate::fixtures::executor(&shader, 1);
        let f = tiling::Format::R16G16_FLOAT;
        let id =
            crate::fixtures::bind_linear_2d(&mut ex.memory, 0, f, ir::Format::Rg16Float, [2, 2]);
        // 1.0 (0x3c00) in R and G of every texel.
        for t in ex.memory.allocation_mut(id).bytes.chunks_mut(4) {
            t.copy_from_slice(&[0x00, 0x3c, 0x00, 0x3c]);
        }
        let rec = [Value::from_u32(2), Value::from_u32(3)];
        let r = ex.run_recording([1, 1, 1], &rec).unwrap();
        let get = |v: Value| r.values[&v][0].clone().unwrap();
        assert_eq!(get(rec[0]), [0, 0, 0, 0x3f80_0000]);
        assert_eq!(get(rec[1]), [0x3f80_0000, 0x3f80_0000, 0, 0x3f80_0000]);
    }

    #[test]
    fn lsc_and_nir_atomics_agree_where_both_exist() {
        let values = [
            0u64,
            1,
            5,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x7fc0_0000,
        ];
        for &op in &AtomicOp::ALL {
            let Some(lop) = lsc_op_for_nir(op) else {
                continue;
            };
            for &a in &values {
                for &b in &values {
                    for &c in &[0u64, 9] {
                        let n = apply_nir_atomic(op, 32, a, b, c).unwrap();
                        let l = apply_lsc_atomic(lop, 32, a, b, c);
                        assert_eq!(n, l, "{op} {a:#x} {b:#x} {c}");
                    }
                }
            }
        }
    }
}
