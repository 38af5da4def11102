//! 2D block messages (`lsc_load_block2d`, `lsc_store_block2d`): a block of a 2D
//! surface moved to or from a *register image* (bytes), untyped (`.ugm`, the payload
//! describes the surface) or typed (`.tgm`, Xe2, the surface state does). How the
//! register image is spread over the lanes of a subgroup is the caller's business: the
//! IR's adapter spreads it over its lanes, a vISA register holds it as is.

use crate::memory::{AccessKind, Memory, Space, Target};
use crate::messages::error::MessageError;
use crate::messages::lanes::Sender;
use crate::messages::surface::{bound, typed_texel};
use ir::interp::EnvError;
use ir::lsc::{Block2dDesc, BlockShape, DataShape, DataSize, Sfid};
use ir::{IndexKind, IntrinsicOp};
use tiling::SurfDim;

/// The decoded descriptor of a block message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Block2d {
    /// A store (else a load).
    pub store: bool,
    /// `.ugm` (untyped) or `.tgm` (typed).
    pub sfid: Sfid,
    /// Bytes per element.
    pub elem: usize,
    /// The element's data size.
    pub size: DataSize,
    /// The block's shape.
    pub shape: BlockShape,
}

impl Block2d {
    /// Decodes the indices of block message `op` and checks what the hardware accepts.
    pub fn decode(op: IntrinsicOp, indices: &[u32]) -> Result<Block2d, EnvError> {
        let desc = Block2dDesc::from_indices(indices)
            .map_err(|e| MessageError::bad_index(IndexKind::from(e.field).name()))?;
        Block2d::from_desc(op, &desc)
    }

    /// The block message `op` with descriptor `desc` (from an IR intrinsic's indices or
    /// a vISA instruction's fields), checked against what the hardware accepts.
    pub fn from_desc(op: IntrinsicOp, desc: &Block2dDesc) -> Result<Block2d, EnvError> {
        let (sfid, shape) = (desc.sfid, desc.shape);
        let data = DataShape::vector(desc.size, 1, false);
        if data.size.is_conversion() {
            return Err(MessageError::illegal(format!(
                "block messages move d8, d16, d32 or d64 elements, found lsc_data={data}"
            )));
        }
        let store = op == IntrinsicOp::LscStoreBlock2d;
        match sfid {
            Sfid::Ugm if !shape.is_untyped() => {
                return Err(MessageError::illegal(format!(
                    "an untyped block is BxWxH with flags, found {shape}"
                )))
            }
            Sfid::Tgm if shape.is_untyped() => {
                return Err(MessageError::illegal(format!(
                    "a typed block is WxH in bytes, found {shape}"
                )))
            }
            Sfid::Ugm | Sfid::Tgm => {}
            other => {
                return Err(MessageError::illegal(format!(
                    "block messages go to .ugm or .tgm, not .{}",
                    other.name()
                )))
            }
        }
        if store && (shape.blocks > 1 || shape.transpose || shape.vnni) {
            return Err(MessageError::illegal(format!(
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

    /// The bytes of the register image an untyped store reads: one block in the layout
    /// of an `nn` load of the same shape (rows at a pitch of `next_pow2(W)` elements,
    /// padded to whole 64-byte registers).
    pub fn untyped_store_bytes(&self) -> usize {
        let rp = (self.shape.width as usize).next_power_of_two();
        round_up(rp * self.shape.height as usize, 64 / self.elem) * self.elem
    }
}

/// The surface of an untyped block message, from its payload.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UntypedBlock {
    /// The surface's 64-bit base address.
    pub base: u64,
    /// Its width in bytes.
    pub width: i64,
    /// Its height in rows.
    pub height: i64,
    /// Its pitch in bytes.
    pub pitch: i64,
    /// The block's first element column (signed).
    pub x: i64,
    /// The block's first row (signed).
    pub y: i64,
}

impl UntypedBlock {
    /// The surface of the vISA payload `[base, width - 1, height - 1, pitch - 1, x, y]`
    /// (the sizes 32-bit, `x` and `y` signed 32-bit).
    pub fn from_payload(p: [u64; 6]) -> UntypedBlock {
        let s32 = |v: u64| v as u32 as i32 as i64;
        UntypedBlock {
            base: p[0],
            width: (p[1] as u32) as i64 + 1,
            height: (p[2] as u32) as i64 + 1,
            pitch: (p[3] as u32) as i64 + 1,
            x: s32(p[4]),
            y: s32(p[5]),
        }
    }

    /// The address of element column `col`, row `row` of `e`-byte elements, if inside
    /// the surface.
    fn elem_addr(&self, e: usize, col: i64, row: i64) -> Option<u64> {
        let inside =
            col >= 0 && (col + 1) * e as i64 <= self.width && row >= 0 && row < self.height;
        inside.then(|| {
            self.base
                .wrapping_add((row * self.pitch + col * e as i64) as u64)
        })
    }
}

fn round_up(v: usize, m: usize) -> usize {
    v.div_ceil(m) * m
}

/// An untyped block load: the register image of `m`'s blocks at `surf`, built as the
/// `LOAD_BLOCK2D` pseudo-code does with 64-byte registers (see the module documentation
/// of [`crate::messages`]). Elements outside the surface read 0 (logged as discarded
/// when the surface's allocation is known). Accesses are logged for lane 0 of `sender`.
pub fn load_untyped(
    mem: &mut Memory,
    sender: &Sender<'_>,
    m: &Block2d,
    surf: &UntypedBlock,
) -> Result<Vec<u8>, EnvError> {
    let e = m.elem;
    let s = m.shape;
    let (w, h, nb) = (s.width as usize, s.height as usize, s.blocks as usize);
    let ctx = sender.ctx(0);
    let surface_space = mem.resolve(surf.base, 1).map(|(a, _)| Space::Alloc(a));
    let per_dword = 4 / e;
    if s.vnni && s.transpose {
        return Err(MessageError::illegal(format!(
            "{s}: a block cannot be transposed and VNNI-transformed together"
        )));
    }
    if s.vnni && (e >= 4 || !h.is_multiple_of(per_dword)) {
        return Err(MessageError::illegal(format!(
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
        match surf.elem_addr(e, col, row) {
            Some(a) => mem
                .load(Target::Global(a), &mut r[dst * e..dst * e + e], &ctx)
                .map_err(|err| EnvError::at_lane(0, err)),
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
    Ok(r)
}

/// An untyped block store: writes one block from register image `r`
/// ([`Block2d::untyped_store_bytes`] bytes) to `surf`. Elements outside the surface are
/// not written (logged as discarded when the surface's allocation is known).
pub fn store_untyped(
    mem: &mut Memory,
    sender: &Sender<'_>,
    m: &Block2d,
    surf: &UntypedBlock,
    r: &[u8],
) -> Result<(), EnvError> {
    let e = m.elem;
    let (w, h) = (m.shape.width as usize, m.shape.height as usize);
    let rp = w.next_power_of_two();
    if r.len() < m.untyped_store_bytes() {
        return Err(MessageError::shape(format!(
            "a {} block store reads {} bytes of registers, found {}",
            m.shape,
            m.untyped_store_bytes(),
            r.len()
        )));
    }
    let ctx = sender.ctx(0);
    let surface_space = mem.resolve(surf.base, 1).map(|(a, _)| Space::Alloc(a));
    for y in 0..h {
        for x in 0..w {
            let at = (y * rp + x) * e;
            match surf.elem_addr(e, surf.x + x as i64, surf.y + y as i64) {
                Some(a) => mem
                    .store(Target::Global(a), &r[at..at + e], &ctx)
                    .map_err(|err| EnvError::at_lane(0, err))?,
                None => {
                    if let Some(space) = surface_space {
                        mem.record_discarded(AccessKind::Store, space, e as u32, &ctx);
                    }
                }
            }
        }
    }
    Ok(())
}

/// A typed block message (Xe2) on the surface bound at one binding-table index, checked
/// against its surface state.
#[derive(Clone, Debug)]
pub struct TypedBlock {
    desc: Block2d,
    binding: u32,
    texel_bytes: usize,
}

impl TypedBlock {
    /// Checks block `m` against the surface bound at `binding`: a 2D surface, a width of
    /// whole texels of its surface-state format and whole elements.
    pub fn new(
        mem: &Memory,
        sender: &Sender<'_>,
        m: &Block2d,
        binding: u32,
    ) -> Result<TypedBlock, EnvError> {
        let b = bound(mem, sender, binding, 0)?;
        let surf_dim = b.view_extent(0).and_then(|e| e.surf_dim);
        if surf_dim != Some(SurfDim::D2) {
            return Err(MessageError::illegal(
                "typed block2d addresses a 2D surface, but the bound image is not one",
            ));
        }
        let tb = b.state_texel_bytes();
        let wb = m.shape.width as usize;
        if !wb.is_multiple_of(tb) {
            return Err(MessageError::illegal(format!(
                "a typed block of {wb} bytes is not made of whole {tb}-byte texels of {}",
                b.state_format.name()
            )));
        }
        if !wb.is_multiple_of(m.elem) {
            return Err(MessageError::illegal(format!(
                "a typed block of {wb} bytes does not hold whole {} elements",
                m.size.name()
            )));
        }
        Ok(TypedBlock {
            desc: *m,
            binding,
            texel_bytes: tb,
        })
    }

    /// The register pitch: `max(4, next_pow2(width))` bytes.
    fn pitch(&self) -> usize {
        (self.desc.shape.width as usize).next_power_of_two().max(4)
    }

    /// The bytes of the block's register image: `height` rows at the register pitch
    /// (padding zero, nothing after the last row).
    pub fn register_bytes(&self) -> usize {
        self.pitch() * self.desc.shape.height as usize
    }

    /// Loads (into `r`) or stores (from `r`, [`TypedBlock::register_bytes`] bytes) the
    /// block whose first texel is at byte `x`, row `y` of the bound view (both signed;
    /// `x` must be a whole texel). Texels outside the view read 0 and are not written.
    /// Accesses are logged for lane 0 of `sender`.
    pub fn access(
        &self,
        mem: &mut Memory,
        sender: &Sender<'_>,
        x: i64,
        y: i64,
        r: &mut [u8],
    ) -> Result<(), EnvError> {
        let tb = self.texel_bytes;
        let b = bound(mem, sender, self.binding, 0)?.clone();
        if x.rem_euclid(tb as i64) != 0 {
            return Err(MessageError::illegal(format!(
                "a typed block of {} bytes at x = {x} bytes is not made of whole {tb}-byte texels of {}",
                self.desc.shape.width,
                b.state_format.name()
            )));
        }
        if r.len() < self.register_bytes() {
            return Err(MessageError::shape(format!(
                "a {} typed block moves {} bytes of registers, found {}",
                self.desc.shape,
                self.register_bytes(),
                r.len()
            )));
        }
        let ctx = sender.ctx(0);
        let pitch = self.pitch();
        let tx = x.div_euclid(tb as i64);
        let kind = if self.desc.store {
            AccessKind::Store
        } else {
            AccessKind::Load
        };
        let (wb, h) = (
            self.desc.shape.width as usize,
            self.desc.shape.height as usize,
        );
        for u in 0..h {
            for v in 0..wb / tb {
                let (cx, cy) = (tx + v as i64, y + u as i64);
                let at = u * pitch + v * tb;
                let offset = typed_texel(&b, cx as u64, cy as u64, 0, 0)?;
                mem.texel_access(kind, b.alloc, offset, &mut r[at..at + tb], &ctx)
                    .map_err(|e| EnvError::at_lane(0, e))?;
            }
        }
        Ok(())
    }
}
