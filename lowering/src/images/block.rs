//! Lowering of image block accesses (`image_block_load` / `image_block_store`) to 2D block
//! messages, part of the `lower-images` pass.
//!
//! An image block access moves the `W x H` texel block at `(x, y)` of a non-arrayed 2D
//! image as raw texel bits, packed row-major without padding into a register image that
//! the subgroup's lanes share: component `k` of lane `i` of the `b`-bit value holds bytes
//! `[(k·SG + i)·b/8, +b/8)` (see the block messages of `verify/src/message.rs`). The access
//! becomes block messages over that rectangle of texels (one element per texel):
//!
//! * **Xe2** (`Device::typed_block2d`: LNL, BMG): typed `.tgm` messages on the image's
//!   surface (x in bytes, y in rows, relative to the view; the hardware clips to the
//!   view and finds texels through the surface's tiling). The surface is bound as the
//!   typed path binds it (the lowered storage format, which has the texel's size).
//! * **PVC** (`Device::untyped_block2d` without typed): untyped `.ugm` messages on a flat
//!   surface described by the payload, computed from the image parameter block (slot
//!   numbers in `tiling::image_param`): the base is the surface base address
//!   (`BASE.y | BASE.z << 32`) plus the view origin's bytes
//!   (`BASE.x = row_base_B`, the row term of `OFFSET.y`, plus `OFFSET.x · cpp`); width
//!   `SIZE.x · cpp` bytes, height `SIZE.y` rows, pitch `STRIDE.y · cpp` bytes, with `cpp`
//!   the texel size the declaration's format fixes. The hardware clips to that
//!   rectangle, which is exactly the view. This describes the view only when the surface
//!   is linear, so the image must declare a static `layout={tiling=linear, ...}`;
//!   anything else is a [`LowerErrorKind::BlockUnsupported`] error.
//! * Other platforms have no block messages: a [`LowerErrorKind::BlockUnsupported`] error
//!   naming the platform (no per-texel fallback).
//!
//! The rectangle is split with [`block2d::split_rect`] under [`Packing::Simt`] with the
//! value's component size (`SG · b / 8` bytes): every message's register image is made
//! of whole components of the result, so a load's result is a `vecN` of message
//! components (or a message's own value when one message covers the block in order) and
//! a store's messages take swizzled components of the data. Consequences (each a
//! `BlockUnsupported` error naming the rule when broken):
//!
//! * a row of the block is either one unpadded block row (`W · bpp` a power of two, 4
//!   to 64 bytes) or a whole number of components;
//! * every message holds whole components (and, untyped, whole 64-byte registers), at
//!   most 16, so widths and heights are powers of two;
//! * the result has 1, 2, 3, 4, 8 or 16 components (the IR's counts).
//!
//! Block accesses are subgroup-level: the coordinates must be uniform and every lane
//! active, as for the messages.

use super::access::ImageAccess;
use super::context::EmitCtx;
use crate::address::{slot, Emitter, Operand};
use crate::device::Device;
use crate::error::{BlockProblem, DimProblem, FormatUse, LowerError, LowerErrorKind, Malformation};
use crate::format::{storage_access, StorageAccess};
use crate::messages::block2d::{
    self, data_size_of, Block2dForm, Block2dRule, Block2dTable, BlockAccess, BlockPiece, BlockRect,
    Packing,
};
use crate::report::SurfaceFormat;
use ir::function::{InstKind, IntrinsicInst};
use ir::lsc::Block2dDesc;
use ir::{Function, ImageDim, ImageRef, IndexKind, Inst, IntrinsicOp, LayoutTiling, Src, Type};
use smallvec::SmallVec;

/// A planned image block access.
#[derive(Clone, Debug)]
pub(crate) struct ImageBlock {
    image: ImageRef,
    coord: Src,
    /// The stored data (stores).
    data: Option<Src>,
    form: Block2dForm,
    texel_bytes: u32,
    rect: BlockRect,
    pieces: Vec<BlockPiece>,
    /// The type of the result or data.
    ty: Type,
    /// Bytes per component of the value over the subgroup.
    chunk: u32,
    /// The surface the driver binds (typed messages only).
    pub surface: Option<SurfaceFormat>,
}

impl ImageBlock {
    /// Whether this is a store.
    pub fn is_store(&self) -> bool {
        self.data.is_some()
    }

    /// Number of block messages emitted.
    pub fn messages(&self) -> usize {
        self.pieces.len()
    }
}

fn unsupported(a: &ImageAccess<'_>, problem: BlockProblem) -> LowerError {
    a.error(LowerErrorKind::BlockUnsupported(Box::new(problem)))
}

/// Plans an `image_block_load` or `image_block_store`.
pub(crate) fn plan(a: &ImageAccess<'_>, device: &Device) -> Result<ImageBlock, LowerError> {
    let store = a.op == IntrinsicOp::ImageBlockStore;
    if a.dim != ImageDim::D2 || a.arrayed {
        return Err(
            a.error(LowerErrorKind::UnsupportedDim(DimProblem::BlockNot2d {
                dim: a.dim,
                arrayed: a.arrayed,
            })),
        );
    }
    let coord = a.check_coord()?;
    let tb = a.format.bits_per_texel() / 8;
    data_size_of(tb).ok_or_else(|| {
        if a.format == ir::Format::None {
            a.error(LowerErrorKind::FormatRequired(FormatUse::BlockTexels))
        } else {
            unsupported(a, BlockProblem::TexelBytes { bytes: tb })
        }
    })?;
    let index =
        a.op.index_position(IndexKind::Block)
            .and_then(|p| a.indices.get(p).copied());
    let shape = index
        .and_then(ir::lsc::BlockShape::from_index)
        .filter(|s| !s.is_untyped())
        .ok_or_else(|| {
            a.malformed(Malformation::BadIndex {
                kind: IndexKind::Block,
                value: index,
            })
        })?;
    let ty = if store {
        a.src_types[1]
    } else {
        a.dest.unwrap_or(Type::U32)
    };
    let sg = a
        .subgroup_size
        .ok_or_else(|| a.malformed(Malformation::NoSubgroupSize))?;
    let chunk = sg * u32::from(ty.bit_size()) / 8;
    let rect = BlockRect {
        width: u32::from(shape.width),
        height: u32::from(shape.height),
        elem_bytes: tb,
    };
    if u32::from(ty.num_components()) * chunk != rect.bytes() || ty.bit_size() < 8 {
        return Err(a.malformed(Malformation::BlockValue {
            store,
            found: ty,
            bytes: rect.bytes(),
            subgroup: sg,
        }));
    }
    let table = Block2dTable::for_device(device);
    let linear = matches!(a.decl.layout, Some(l) if l.tiling == LayoutTiling::Linear);
    if !store && a.is_write_only() {
        return Err(a.error(LowerErrorKind::WriteOnlyLoad));
    }
    // The surface is bound as the image's other typed accesses bind it (a block moves raw
    // texels, so any format of the texel's size would do): write-only images with their
    // own format (the typed store path, docs/hardware/mesa-storage-images.md §2), the others with the
    // lowered storage format.
    let is_r64 = matches!(a.format, ir::Format::R64Uint | ir::Format::R64Sint);
    let typed_surface = if a.is_write_only() && !is_r64 {
        Some(a.format)
    } else {
        match storage_access(device, a.format) {
            Ok(StorageAccess::Typed(lower)) => Some(lower),
            _ => None,
        }
    };
    let (form, surface) = match (device.typed_block2d, typed_surface, device.untyped_block2d) {
        (true, Some(lower), _) => (Block2dForm::Typed, Some(SurfaceFormat::Typed(lower))),
        (_, _, true) => {
            if !linear {
                return Err(unsupported(
                    a,
                    BlockProblem::UntypedNeedsLinear {
                        format: a.format,
                        platform: device.name.clone(),
                        image: a.decl.name.clone(),
                    },
                ));
            }
            (Block2dForm::Untyped, None)
        }
        _ => {
            // Neither typed messages on this surface nor untyped ones: the untyped
            // table says why there are none.
            let rule = table
                .check_available(Block2dForm::Untyped)
                .err()
                .unwrap_or_else(|| Block2dRule::UntypedUnavailable {
                    platform: device.name.clone(),
                });
            return Err(unsupported(
                a,
                BlockProblem::NoBlockMessages {
                    platform: device.name.clone(),
                    rule,
                },
            ));
        }
    };
    let access = if store {
        BlockAccess::Store
    } else {
        BlockAccess::Load
    };
    let pieces = block2d::split_rect(
        &table,
        form,
        access,
        rect,
        Packing::Simt { chunk_bytes: chunk },
    )
    .map_err(|error| {
        unsupported(
            a,
            BlockProblem::Split {
                width: shape.width,
                height: shape.height,
                texel_bytes: tb,
                ty,
                subgroup: sg,
                typed: form == Block2dForm::Typed,
                error,
            },
        )
    })?;
    Ok(ImageBlock {
        image: a.image,
        coord,
        data: store.then(|| a.srcs[1]),
        form,
        texel_bytes: tb,
        rect,
        pieces,
        ty,
        chunk,
        surface,
    })
}

/// The untyped payload fields shared by the messages of one access.
struct UntypedSurface {
    base: Src,
    width_minus_1: Src,
    height_minus_1: Src,
    pitch_minus_1: Src,
}

impl ImageBlock {
    /// The message of one piece: one texel per element, default caching.
    fn desc(&self, piece: &BlockPiece) -> Block2dDesc {
        let size = data_size_of(self.texel_bytes).expect("checked when planned");
        Block2dDesc::new(self.form.sfid(), size, piece.shape)
    }

    /// The component of the result that component `j` of `piece`'s message holds.
    fn result_component(&self, piece: &BlockPiece, j: u32) -> u8 {
        (piece.packed_offset(&self.rect, j * self.chunk) / self.chunk) as u8
    }

    /// Components of `piece`'s message value.
    fn piece_components(&self, piece: &BlockPiece) -> u8 {
        (piece.width * piece.height * self.texel_bytes / self.chunk) as u8
    }

    /// Emits the access in place of `inst`.
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let mut b = ctx.builder(func, inst);
        let mut e = Emitter::new(&mut b, self.image);
        let cx = Operand::Val(self.coord.component(0));
        let cy = Operand::Val(self.coord.component(1));
        let tb = self.texel_bytes;
        let surface = (self.form == Block2dForm::Untyped).then(|| untyped_surface(&mut e, tb));
        // Typed x is in bytes.
        let x_base = match self.form {
            Block2dForm::Typed => e.imul(cx, Operand::Imm(tb)),
            Block2dForm::Untyped => cx,
        };
        let x_scale = match self.form {
            Block2dForm::Typed => tb,
            Block2dForm::Untyped => 1,
        };
        let mut values: SmallVec<[(usize, ir::Value); 4]> = SmallVec::new();
        let mut stores: Vec<IntrinsicInst> = Vec::new();
        for (k, piece) in self.pieces.iter().enumerate() {
            let x = e.iadd(x_base, Operand::Imm(piece.x * x_scale));
            let y = e.iadd(cy, Operand::Imm(piece.y));
            let (x, y) = (e.src(x), e.src(y));
            let mut srcs: SmallVec<[Src; 4]> = match &surface {
                Some(s) => SmallVec::from_slice(&[
                    s.base,
                    s.width_minus_1,
                    s.height_minus_1,
                    s.pitch_minus_1,
                    x,
                    y,
                ]),
                None => SmallVec::from_slice(&[x, y]),
            };
            let image = (self.form == Block2dForm::Typed).then_some(self.image);
            let comps = self.piece_components(piece);
            let pty =
                Type::new(self.ty.bit_size(), comps).expect("split pieces hold 1 to 16 components");
            match self.data {
                Some(data) => {
                    let picks: SmallVec<[u8; 16]> = (0..u32::from(comps))
                        .map(|j| self.result_component(piece, j))
                        .collect();
                    let full = picks.len() == usize::from(self.ty.num_components())
                        && picks.iter().enumerate().all(|(i, &c)| usize::from(c) == i);
                    let run = picks.windows(2).all(|w| w[1] == w[0] + 1);
                    let d = if full {
                        data
                    } else if run {
                        // A run of components is one register range: a swizzle.
                        let sw: SmallVec<[u8; 16]> =
                            picks.iter().map(|&c| data.swizzle.component(c)).collect();
                        Src::swizzled(data.value, &sw).expect("at most 16 components")
                    } else {
                        let comp: SmallVec<[Src; 16]> =
                            picks.iter().map(|&c| data.component(c)).collect();
                        Src::new(e.b.vec(&comp))
                    };
                    srcs.push(d);
                    stores.push(IntrinsicInst {
                        op: IntrinsicOp::LscStoreBlock2d,
                        image,
                        srcs,
                        indices: self
                            .desc(piece)
                            .indices()
                            .expect("split pieces encode")
                            .into_iter()
                            .collect(),
                    });
                }
                None => {
                    let v =
                        e.b.lsc_load_block2d(&self.desc(piece), image, &srcs, pty)
                            .expect("split pieces encode");
                    values.push((k, v));
                }
            }
        }
        if self.data.is_some() {
            // The last message takes the place of the original instruction; the others go
            // in front of it.
            let last = stores.pop().expect("a split has at least one piece");
            for s in stores {
                e.b.insert(InstKind::Intrinsic(Box::new(s)), None);
            }
            func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(last));
            return;
        }
        // The result: component c comes from the message component that holds it.
        let n = usize::from(self.ty.num_components());
        let mut comps: Vec<Option<Src>> = vec![None; n];
        for &(k, v) in &values {
            let piece = &self.pieces[k];
            for j in 0..u32::from(self.piece_components(piece)) {
                comps[usize::from(self.result_component(piece, j))] =
                    Some(Src::channel(v, j as u8));
            }
        }
        let comps: Vec<Src> = comps
            .into_iter()
            .map(|c| c.expect("the split covers every component"))
            .collect();
        let identity = values.len() == 1
            && comps
                .iter()
                .enumerate()
                .all(|(i, s)| s.swizzle.component(0) == i as u8);
        let result = if identity {
            Src::new(values[0].1)
        } else if n == 1 {
            comps[0]
        } else {
            Src::new(e.b.vec(&comps))
        };
        ctx.finish(func, inst, result);
    }
}

/// The untyped surface of the view (see the module documentation).
fn untyped_surface(e: &mut Emitter<'_, '_>, tb: u32) -> UntypedSurface {
    let lo = e.param(slot::BASE, 1);
    let hi = e.param(slot::BASE, 2);
    let row_base = e.param(slot::BASE, 0);
    let off_x = e.param(slot::OFFSET, 0);
    let off_xb = e.imul(off_x, Operand::Imm(tb));
    let origin = e.iadd(row_base, off_xb);
    let (lo, hi) = (e.src(lo), e.src(hi));
    let base = e.b.pack_64_2x32_split(lo, hi);
    let origin = e.src(origin);
    let origin64 = e.b.u2u64(origin);
    let base = Src::new(e.b.iadd(base, origin64));
    let w = e.param(slot::SIZE, 0);
    let wb = e.imul(w, Operand::Imm(tb));
    let w1 = e.iadd(wb, Operand::Imm(u32::MAX));
    let h = e.param(slot::SIZE, 1);
    let h1 = e.iadd(h, Operand::Imm(u32::MAX));
    let p = e.param(slot::STRIDE, 1);
    let pb = e.imul(p, Operand::Imm(tb));
    let p1 = e.iadd(pb, Operand::Imm(u32::MAX));
    UntypedSurface {
        base,
        width_minus_1: e.src(w1),
        height_minus_1: e.src(h1),
        pitch_minus_1: e.src(p1),
    }
}
