//! Typed surface read, write and atomic of the legacy data port, on the texels of a
//! surface through its surface state (format, view, tiled layout).
//!
//! * Coordinates: U, V, R, LOD, signed 32-bit, read per surface type as the hardware
//!   reads them from the surface state (1D: U = x, V = array index; 2D, cubes bound as
//!   2D arrays: U = x, V = y, R = array index; 3D: U, V, R = x, y, z; buffers: U =
//!   element; LOD relative to the view's base level; a storage view has one level).
//!   A coordinate outside the view is out of bounds (the surface state's bounds check).
//! * Read: each served lane gets the enabled channels (bit 0 = R) of the texel
//!   converted by the surface-state format, 32-bit, packed in channel order; a format
//!   without G, B or A reads 0, 0, 1 there. Out of bounds the message returns the
//!   all-zero texel converted by the surface format: 0 in the format's channels, and
//!   0, 0, 1 in a missing G, B, A. IGC's vISA specification of `GATHER4_TYPED` says "ones
//!   are returned in the alpha channel, zeros in the other channels", which agrees for
//!   formats without alpha; for formats with alpha the executor follows Mesa's anv, which
//!   exposes Vulkan's `robustImageAccess2` (out-of-bounds image loads return zero values)
//!   on Gfx9 to Gfx12 with these messages and no bounds check in the shader
//!   (*inferred*; `docs/hardware/dataport.md` §8).
//! * Ivy Bridge and Bay Trail: a typed read of an `R8_UINT` or `R16_UINT` surface returns
//!   the 32-bit word at the texel's address in R (the texel and the bytes after it),
//!   which is why Mesa masks such reads there (its storage-image lowering,
//!   `docs/hardware/image-lowering.md` §3, §4). Bytes past the surface read as
//!   [`super::UNDEFINED_BYTE`].
//! * Write: each served lane converts its enabled channels with the surface-state format
//!   (`SCATTER4_TYPED`'s conversions: float rounding to even, clamping of narrower
//!   normalized and integer channels) and writes them, leaving the texel's other channels
//!   as they are; out of bounds nothing is written.
//! * Atomic: integer operations on the whole texel, which must be `dp_bits` wide (32-bit
//!   `R32_UINT`/`R32_SINT`/`R32_FLOAT` surfaces, 16-bit `R16_*` ones on Gfx12), lanes in
//!   ascending order; a 16-bit atomic takes the low 16 bits of its operands and returns
//!   the old texel in the low 16 bits of the element, the upper ones undefined. Out of
//!   bounds the atomic is dropped and returns 0 (`TYPED_ATOMIC`: "On read: zeros are
//!   returned. On write: data is dropped").
//!
//! Typed messages carry 32-bit channel values: a surface format with 64-bit channels is
//! an error.

use super::atomic::apply_dp_atomic;
use super::payload::{src_values, with_undefined_upper, DpExecError, DpPayload, UNDEFINED_BYTE};
use crate::memory::{AccessKind, AllocId, ImageBinding, Memory, Target};
use crate::texel::TexelLayout;
use ir::dataport::{DpDesc, DpMsg};
use ir::interp::EnvError;
use lowering::messages::dataport::{DataportCaps, DpEncoding};
use tiling::SurfDim;

fn at_lane(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

fn illegal(lane: usize, reason: String) -> EnvError {
    at_lane(lane, DpExecError::Illegal { reason })
}

/// The byte offset of the texel at U, V, R, LOD in the image's allocation, or `None`
/// when the surface state's bounds check fails.
fn texel_offset(b: &ImageBinding, [u, v, r, lod]: [u64; 4]) -> Result<Option<u64>, EnvError> {
    let s = |v: u64| v as u32 as i32 as i64;
    let (x, y, r, lod) = (s(u), s(v), s(r), s(lod));
    if lod < 0 {
        return Ok(None);
    }
    let Some(ext) = b.view_extent(lod as u32) else {
        return Ok(None);
    };
    let (x, y, z, zl) = match ext.surf_dim {
        None => (x, 0, 0, 1),
        Some(SurfDim::D1) => (x, 0, y, ext.layers),
        Some(SurfDim::D2) => (x, y, r, ext.layers),
        Some(SurfDim::D3) => (x, y, r, ext.depth),
    };
    b.view_texel_offset(&ext, [x, y, z], zl)
        .map_err(EnvError::msg)
}

/// What a typed message of one lane reaches.
struct Texel {
    /// The surface's allocation.
    alloc: AllocId,
    /// Its bytes.
    size: u64,
    /// The surface-state format.
    format: tiling::Format,
    /// Its layout (32-bit channels only).
    layout: TexelLayout,
    /// The texel's offset, `None` out of bounds.
    offset: Option<u64>,
}

/// The surface and texel of lane `lane`.
fn surface(mem: &Memory, p: &dyn DpPayload, lane: usize) -> Result<Texel, EnvError> {
    let binding = p.binding(lane)?;
    let b = mem.image(binding).ok_or_else(|| {
        at_lane(
            lane,
            Memory::unbound(
                AccessKind::Load,
                "image binding",
                u64::from(binding),
                &p.ctx(lane),
            ),
        )
    })?;
    let layout = TexelLayout::from_isl(b.state_format).map_err(|e| at_lane(lane, e))?;
    if layout.is_64bit() {
        return Err(illegal(
            lane,
            format!(
                "typed data-port messages carry 32-bit channels; surface format {} has 64-bit ones",
                layout.name
            ),
        ));
    }
    let coords = src_values(p, 0, lane, 1, "u")?[0];
    let c = [
        coords,
        src_values(p, 1, lane, 1, "v")?[0],
        src_values(p, 2, lane, 1, "r")?[0],
        src_values(p, 3, lane, 1, "lod")?[0],
    ];
    Ok(Texel {
        alloc: b.alloc,
        size: mem.allocation(b.alloc).bytes.len() as u64,
        format: b.state_format,
        offset: texel_offset(b, c)?,
        layout,
    })
}

/// Whether a typed read of this surface format returns the misaligned 32-bit word on
/// Ivy Bridge (the single-channel 8- and 16-bit unsigned integer formats).
fn ivb_word_read(caps: &DataportCaps, format: tiling::Format) -> bool {
    caps.encoding == DpEncoding::Ivb
        && matches!(format, tiling::Format::R8_UINT | tiling::Format::R16_UINT)
}

/// `@dp_typed_read`.
pub fn read(
    mem: &mut Memory,
    caps: &DataportCaps,
    d: &DpDesc,
    p: &mut dyn DpPayload,
) -> Result<(), EnvError> {
    for lane in p.lanes() {
        let ctx = p.ctx(lane);
        let t = surface(mem, p, lane)?;
        let rgba = match t.offset {
            None => {
                // The zero texel, converted (the discarded load leaves the bytes 0).
                let mut bytes = vec![0u8; t.layout.bytes];
                mem.texel_access(AccessKind::Load, t.alloc, None, &mut bytes, &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                t.layout.decode(&bytes).map_err(|e| at_lane(lane, e))?
            }
            Some(off) if ivb_word_read(caps, t.format) => {
                // The word at the texel: the texel (the access, as logged) and as much
                // of the bytes after it as the surface holds.
                let n = t.size.saturating_sub(off).min(4) as usize;
                let mut bytes = [UNDEFINED_BYTE; 4];
                let texel = t.layout.bytes.min(n);
                mem.load(Target::Alloc(t.alloc, off), &mut bytes[..texel], &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                mem.peek(
                    Target::Alloc(t.alloc, off + texel as u64),
                    &mut bytes[texel..n],
                    &ctx,
                )
                .map_err(|e| at_lane(lane, e))?;
                [u64::from(u32::from_le_bytes(bytes)), 0, 0, 1]
            }
            Some(off) => {
                let mut bytes = vec![0u8; t.layout.bytes];
                mem.load(Target::Alloc(t.alloc, off), &mut bytes, &ctx)
                    .map_err(|e| at_lane(lane, e))?;
                t.layout.decode(&bytes).map_err(|e| at_lane(lane, e))?
            }
        };
        let vals: Vec<u64> = (0..4)
            .filter(|c| d.cmask & (1 << c) != 0)
            .map(|c| rgba[c])
            .collect();
        p.set_dest(lane, &vals);
    }
    Ok(())
}

/// `@dp_typed_write`.
pub fn write(mem: &mut Memory, d: &DpDesc, p: &mut dyn DpPayload) -> Result<(), EnvError> {
    let n = d.components() as usize;
    for lane in p.lanes() {
        let ctx = p.ctx(lane);
        let t = surface(mem, p, lane)?;
        let (alloc, layout) = (t.alloc, &t.layout);
        let Some(off) = t.offset else {
            mem.discard_texel(AccessKind::Store, alloc, layout.bytes, &ctx);
            continue;
        };
        let data = src_values(p, 4, lane, n, "data")?;
        let mut rgba = [0u64; 4];
        let mut k = 0;
        for (c, slot) in rgba.iter_mut().enumerate() {
            if d.cmask & (1 << c) != 0 {
                *slot = data[k];
                k += 1;
            }
        }
        let target = Target::Alloc(alloc, off);
        let mut bytes = vec![0u8; layout.bytes];
        mem.peek(target, &mut bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
        layout
            .encode_into(&rgba, d.cmask, &mut bytes)
            .map_err(|e| at_lane(lane, e))?;
        mem.store(target, &bytes, &ctx)
            .map_err(|e| at_lane(lane, e))?;
    }
    Ok(())
}

/// `@dp_typed_atomic`.
pub fn atomic(mem: &mut Memory, d: &DpDesc, p: &mut dyn DpPayload) -> Result<(), EnvError> {
    debug_assert_eq!(d.msg, DpMsg::TypedAtomic);
    let bytes = usize::from(d.bits / 8);
    let nsrc = d.num_atomic_srcs();
    for lane in p.lanes() {
        let ctx = p.ctx(lane);
        let t = surface(mem, p, lane)?;
        let (alloc, layout, texel) = (t.alloc, &t.layout, t.offset);
        if layout.bytes != bytes || layout.channels.len() != 1 {
            return Err(illegal(
                lane,
                format!(
                    "a {}-bit typed atomic needs a single-channel {}-bit surface format, found {}",
                    d.bits, d.bits, layout.name
                ),
            ));
        }
        let srcs = (0..nsrc)
            .map(|i| src_values(p, 4 + i, lane, 1, ["src0", "src1"][i]).map(|v| v[0]))
            .collect::<Result<Vec<u64>, EnvError>>()?;
        let a = srcs.first().copied().unwrap_or(0);
        let b = srcs.get(1).copied().unwrap_or(0);
        let old = match texel {
            None => {
                mem.discard_texel(AccessKind::Atomic, alloc, bytes, &ctx);
                0
            }
            Some(off) => mem
                .atomic(Target::Alloc(alloc, off), bytes, &ctx, |old| {
                    apply_dp_atomic(d.op, d.bits, old, a, b)
                })
                .map_err(|e| at_lane(lane, e))?,
        };
        let value = if d.bits == 16 && texel.is_some() {
            with_undefined_upper(old, 2)
        } else {
            old
        };
        p.set_dest(lane, &[value]);
    }
    Ok(())
}
