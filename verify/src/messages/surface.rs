//! The surface a typed, sampler or stateful message addresses: the image bound at a
//! binding-table index, and where typed coordinates land in it.

use crate::memory::{AccessCtx, AccessKind, AllocId, ImageBinding, Memory};
use crate::messages::lanes::Sender;
use crate::texel::TexelLayout;
use ir::interp::EnvError;
use tiling::SurfDim;

/// The image bound at binding-table index `binding`, for lane `lane` of a message.
pub fn bound<'m>(
    mem: &'m Memory,
    sender: &Sender<'_>,
    binding: u32,
    lane: usize,
) -> Result<&'m ImageBinding, EnvError> {
    mem.image(binding).ok_or_else(|| {
        EnvError::at_lane(
            lane as u32,
            Memory::unbound(
                AccessKind::Load,
                "image binding",
                binding as u64,
                &sender.ctx(lane),
            ),
        )
    })
}

/// Where a typed or sampler access lands: the texel's byte offset in the image's
/// allocation, or `None` when the surface state's bounds check fails. The coordinates
/// are the message's `u`, `v`, `r` and `lod` (signed 32-bit), read per surface type as
/// the hardware reads them from the surface state: 1D: `u` = x, `v` = array index; 2D
/// (also cubes, bound as 2D arrays): `u` = x, `v` = y, `r` = array index; 3D: `u`, `v`,
/// `r` = x, y, z; buffer: `u` = element; `lod` relative to the view's base level.
pub fn typed_texel(
    b: &ImageBinding,
    u: u64,
    v: u64,
    r: u64,
    lod: u64,
) -> Result<Option<u64>, EnvError> {
    if b.samples() > 1 {
        // Typed messages reach no sample before Xe3's MSRT messages; the lowering
        // never sends them to a multisampled surface.
        return Err(EnvError::msg(
            "a typed or single-sample sampler message addresses a multisampled surface",
        ));
    }
    surface_texel(b, u, v, r, lod, 0)
}

/// Where sampler message `ld2dms_w` lands: sample `si` of the texel at `(u, v, r)`
/// (x, y, array index) of a multisampled surface, `si` clamped to the surface's sample
/// count as the sampler does (IGC's `3D_LOAD.md`: "clamped to the number of samples on
/// the surface"); `None` out of bounds.
pub fn sample_texel(
    b: &ImageBinding,
    si: u64,
    u: u64,
    v: u64,
    r: u64,
) -> Result<Option<u64>, EnvError> {
    let si = (si as u32).min(b.samples().saturating_sub(1));
    surface_texel(b, u, v, r, 0, i64::from(si))
}

/// [`typed_texel`] of sample `sample`.
fn surface_texel(
    b: &ImageBinding,
    u: u64,
    v: u64,
    r: u64,
    lod: u64,
    sample: i64,
) -> Result<Option<u64>, EnvError> {
    let s = |v: u64| v as u32 as i32 as i64;
    let (x, y, r, lod) = (s(u), s(v), s(r), s(lod));
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
    b.view_texel_offset(&ext, [x, y, z], zl, sample)
        .map_err(EnvError::msg)
}

/// The channels of the texel a sampler message reads at `texel` of `alloc` (where
/// [`typed_texel`] put it), decoded with the surface format `layout`; `None`, out of
/// bounds, reads as all-zero bytes converted (the discarded access is logged). Errors
/// are lane `lane`'s.
pub fn sampler_texel(
    mem: &mut Memory,
    alloc: AllocId,
    texel: Option<u64>,
    layout: &TexelLayout,
    ctx: &AccessCtx,
    lane: usize,
) -> Result<[u64; 4], EnvError> {
    let mut bytes = vec![0u8; layout.bytes];
    mem.texel_access(AccessKind::Load, alloc, texel, &mut bytes, ctx)
        .map_err(|e| EnvError::at_lane(lane as u32, e))?;
    layout
        .decode(&bytes)
        .map_err(|e| EnvError::at_lane(lane as u32, e))
}
