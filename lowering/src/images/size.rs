//! `image_size` and `image_samples`.
//!
//! `image_size` reads the parameter block's SIZE slot on every path: the IR has no
//! sampler RESINFO message, and the driver fills the block (image-lowering.md §7) for
//! every storage image, typed or not. Cubes report `z / 6` (NIR's `lower_cube_size`,
//! §11); components past the image's coordinates are 1. `image_samples` of a storage
//! image is 1.

use super::access::ImageAccess;
use super::context::EmitCtx;
use crate::address::slot;
use crate::error::{DimProblem, LowerError, LowerErrorKind, Malformation};
use ir::function::InstKind;
use ir::{Function, ImageDim, ImageRef, Inst, Src, Type};
use smallvec::{smallvec, SmallVec};

/// A planned `image_size`.
#[derive(Clone, Debug)]
pub(crate) struct ImageSize {
    /// The image reference.
    image: ImageRef,
    /// Coordinate components of the image.
    coord_comps: u8,
    /// Result components.
    comps: u8,
    /// Whether the image is a cube (size.z counts faces).
    cube: bool,
}

/// Plans an `image_size`.
pub(crate) fn plan_size(access: &ImageAccess<'_>) -> Result<ImageSize, LowerError> {
    if access.arrayed && !access.dim.can_be_arrayed() {
        return Err(
            access.error(LowerErrorKind::UnsupportedDim(DimProblem::Arrayed {
                dim: access.dim,
            })),
        );
    }
    let comps = match access.dest {
        Some(t) if t.bit_size() == 32 && t.num_components() <= 4 => t.num_components(),
        found => {
            return Err(access.malformed(Malformation::QueryType {
                op: access.op,
                found,
            }))
        }
    };
    Ok(ImageSize {
        image: access.image,
        coord_comps: access.coord_components(),
        comps,
        cube: access.dim == ImageDim::Cube,
    })
}

/// Checks an `image_samples`: its value is the constant 1.
pub(crate) fn plan_samples(access: &ImageAccess<'_>) -> Result<(), LowerError> {
    match access.dest {
        Some(t) if t == Type::U32 => Ok(()),
        found => Err(access.malformed(Malformation::QueryType {
            op: access.op,
            found,
        })),
    }
}

impl ImageSize {
    /// Emits the size in place of `inst`.
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let mut b = ctx.builder(func, inst);
        let size = b.image_load_param(self.image, slot::SIZE, 3);
        let mut out: SmallVec<[Src; 4]> = SmallVec::new();
        for c in 0..self.comps {
            let v = if c < self.coord_comps.min(3) {
                if self.cube && c == 2 {
                    let six = b.imm_u32(6);
                    Src::new(b.udiv(Src::channel(size, 2), six))
                } else {
                    Src::channel(size, c)
                }
            } else {
                Src::new(b.imm_u32(1))
            };
            out.push(v);
        }
        let result = if out.len() == 1 {
            out[0]
        } else {
            Src::new(b.vec(&out))
        };
        ctx.finish(func, inst, result);
    }
}

/// Replaces an `image_samples` with the constant 1.
pub(crate) fn emit_samples(func: &mut Function, inst: Inst) {
    func.inst_mut(inst).kind = InstKind::LoadConst(smallvec![1]);
}
