//! Image atomics as typed `lsc_atomic` messages (image-lowering.md §8, lsc.md §2, §4).
//!
//! Policies:
//! - **Formats.** Typed atomics run on R32 surfaces (`d32`) and, from Gfx12
//!   (isl TA column: R16 from verx10 120), on R16 surfaces with `d16u32` (lsc.md §4). A
//!   format-less image is taken to be a 32-bit surface, as Mesa derives the data size from
//!   the data's bit size. Integer arithmetic on a float format, and float arithmetic on an
//!   integer format, are errors; exchange and compare-exchange move bits and fit every
//!   format. R32_FLOAT exchange and compare-exchange are allowed on every generation:
//!   BSpec 1706 allows R32_UINT, R32_SINT and R32_FLOAT typed atomic surfaces, and both
//!   anv and hasvk (Gfx7/8) expose `shaderImageFloat32Atomics`.
//! - **Float ops** only where [`Device`] says so (see its field documentation).
//! - **64-bit atomics** go through A64 global atomics on a computed texel address (anv,
//!   §9): the untyped fallback, on parts with [`Device::image_int64_atomics`].
//! - **Cache controls.** Before Xe2 every TGM message uses default caching: IGC's
//!   verifier requires df/df on TGM before Xe2 (lsc.md §9), which keeps the messages
//!   legal where Mesa's L1UC_L3WB would not be; legacy messages have no cache field. On
//!   Xe2+ atomics use L1UC_L3WB as Mesa does (atomics require an uncached L1).
//! - **IVB/BYT** typed atomics ignore null surfaces and would corrupt memory, so the
//!   message is predicated on `SIZE.x != 0` (an unbound image has SIZE 0) and the result
//!   is 0 otherwise (§8).

use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind};
use crate::lower_images::{
    plan_untyped, EmitCtx, ImageAccess, LowerOptions, Plan, SurfaceFormat, UntypedReason,
    PARAM_SLOT_SIZE,
};
use crate::typed::{tgm_indices, typed_coords};
use ir::lsc::{CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp};
use ir::{AtomicOp, Format, Function, ImageRef, IndexKind, Inst, IntrinsicOp, Src, Type};
use smallvec::SmallVec;

/// The LSC atomic operation for a NIR atomic op, as Mesa's `lsc_op_for_nir_intrinsic`
/// (image-lowering.md §8 table). `constant_data` is the data operand's value when it is
/// a constant (32-bit): an `iadd` of 1 becomes `iinc` and of -1 `idec`, which take no
/// data operand. `None` for ops with no LSC operation (`inc_wrap`, `dec_wrap`;
/// lsc.md §13.12).
pub fn lsc_op_for_atomic(op: AtomicOp, constant_data: Option<u32>) -> Option<LscAtomicOp> {
    Some(match op {
        AtomicOp::Iadd => match constant_data {
            Some(1) => LscAtomicOp::Iinc,
            Some(u32::MAX) => LscAtomicOp::Idec,
            _ => LscAtomicOp::Iadd,
        },
        AtomicOp::Imin => LscAtomicOp::Smin,
        AtomicOp::Imax => LscAtomicOp::Smax,
        AtomicOp::Umin => LscAtomicOp::Umin,
        AtomicOp::Umax => LscAtomicOp::Umax,
        AtomicOp::Iand => LscAtomicOp::And,
        AtomicOp::Ior => LscAtomicOp::Or,
        AtomicOp::Ixor => LscAtomicOp::Xor,
        AtomicOp::Xchg => LscAtomicOp::Store,
        AtomicOp::Cmpxchg => LscAtomicOp::Icas,
        AtomicOp::Fadd => LscAtomicOp::Fadd,
        AtomicOp::Fmin => LscAtomicOp::Fmin,
        AtomicOp::Fmax => LscAtomicOp::Fmax,
        AtomicOp::Fcmpxchg => LscAtomicOp::Fcas,
        AtomicOp::IncWrap | AtomicOp::DecWrap => return None,
    })
}

/// Cache controls of a typed atomic (see the module documentation).
pub fn atomic_cache(device: &Device) -> CacheControl {
    if device.tgm_cache_control {
        CacheControl {
            l1: CacheOpt::Uc,
            l3: CacheOpt::Wb,
        }
    } else {
        CacheControl::DEFAULT
    }
}

/// A planned typed atomic.
#[derive(Clone, Debug)]
pub(crate) struct TypedAtomic {
    image: ImageRef,
    coord: Src,
    coord_comps: u8,
    op: LscAtomicOp,
    /// Data operands: none (iinc/idec), the data, or compare then new value (CAS,
    /// lsc.md §11: "CAS sends src1 (compare) and then src2 (new value)").
    operands: SmallVec<[Src; 2]>,
    size: DataSize,
    cache: CacheControl,
    /// Whether the message is predicated on the image being bound (IVB/BYT).
    pub guard: bool,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
}

/// Whether `op` does arithmetic on integers, on floats, or just moves bits.
fn op_domain(op: AtomicOp) -> Option<bool> {
    match op {
        AtomicOp::Xchg | AtomicOp::Cmpxchg => None,
        o if o.is_float() => Some(true),
        _ => Some(false),
    }
}

/// Plans an `image_atomic` or `image_atomic_swap`.
pub(crate) fn plan(
    a: &ImageAccess<'_>,
    device: &Device,
    options: &LowerOptions,
) -> Result<Plan, LowerError> {
    let coord = a.check_coord()?;
    let op = a
        .indices
        .get(
            a.op.index_position(IndexKind::AtomicOp)
                .expect("image atomics carry atomic_op"),
        )
        .and_then(|&v| AtomicOp::from_index(v))
        .ok_or_else(|| a.error(LowerErrorKind::Malformed, "bad atomic_op index"))?;
    let swap = a.op == IntrinsicOp::ImageAtomicSwap;
    if op.is_swap() != swap {
        return Err(a.error(
            LowerErrorKind::Malformed,
            format!(
                "atomic op {op} belongs to {}",
                if op.is_swap() {
                    "image_atomic_swap"
                } else {
                    "image_atomic"
                }
            ),
        ));
    }
    if matches!(op, AtomicOp::IncWrap | AtomicOp::DecWrap) {
        return Err(a.error(
            LowerErrorKind::AtomicOpUnmapped,
            format!("atomic op {op} has no LSC operation"),
        ));
    }
    let dest = a.dest.unwrap_or(Type::U32);
    let data_tys = &a.src_types[1..];
    if dest.num_components() != 1 || data_tys.iter().any(|t| *t != dest) {
        return Err(a.error(
            LowerErrorKind::Malformed,
            format!(
                "atomic data and result must be one scalar type, found {dest} and {data_tys:?}"
            ),
        ));
    }
    let is64 = dest.bit_size() == 64 || matches!(a.format, Format::R64Uint | Format::R64Sint);
    if is64 {
        if !device.image_int64_atomics {
            return Err(a.error(
                LowerErrorKind::Int64AtomicUnsupported,
                "64-bit image atomics need A64 global atomics (Gfx9+)",
            ));
        }
        return plan_untyped(a, UntypedReason::Int64Atomic, options);
    }
    if dest.bit_size() != 32 {
        return Err(a.error(
            LowerErrorKind::Malformed,
            format!("image atomics operate on 32- or 64-bit data, not {dest}"),
        ));
    }
    if options.force_untyped {
        return plan_untyped(a, UntypedReason::Forced, options);
    }
    let supported = match op {
        AtomicOp::Fadd => device.image_float_atomic_add,
        AtomicOp::Fmin | AtomicOp::Fmax => device.image_float_atomic_min_max,
        AtomicOp::Fcmpxchg => device.image_float_atomic_cmpxchg,
        _ => true,
    };
    if !supported {
        return Err(a.error(
            LowerErrorKind::FloatAtomicUnsupported,
            format!("image atomic {op} is not supported on this platform"),
        ));
    }
    let (size, float_format) = match a.format {
        Format::None => (DataSize::D32, None),
        Format::R32Uint | Format::R32Sint => (DataSize::D32, Some(false)),
        Format::R32Float => (DataSize::D32, Some(true)),
        Format::R16Uint | Format::R16Sint | Format::R16Float if device.verx10 >= 120 => {
            (DataSize::D16U32, Some(a.format == Format::R16Float))
        }
        f => {
            return Err(a.error(
                LowerErrorKind::AtomicFormatUnsupported,
                format!(
                    "typed atomics need an R32 surface{}, not {f}",
                    if device.verx10 >= 120 {
                        " or an R16 one"
                    } else {
                        ""
                    }
                ),
            ))
        }
    };
    if let (Some(is_float), Some(float_op)) = (float_format, op_domain(op)) {
        if is_float != float_op {
            return Err(a.error(
                LowerErrorKind::AtomicTypeMismatch,
                format!(
                    "{} atomic {op} on a{} format",
                    if float_op { "float" } else { "integer" },
                    if is_float { " float" } else { "n integer" }
                ),
            ));
        }
    }
    let constant = a.const_srcs.get(1).copied().flatten().map(|v| v as u32);
    let lsc = lsc_op_for_atomic(op, if swap { None } else { constant })
        .expect("inc_wrap and dec_wrap were rejected");
    let operands: SmallVec<[Src; 2]> = match lsc.num_data_operands() {
        0 => SmallVec::new(),
        1 => SmallVec::from_slice(&[a.srcs[1]]),
        _ => SmallVec::from_slice(&[a.srcs[1], a.srcs[2]]),
    };
    Ok(Plan::Atomic(TypedAtomic {
        image: a.image,
        coord,
        coord_comps: a.coord_components(),
        op: lsc,
        operands,
        size,
        cache: atomic_cache(device),
        guard: device.is_gfx7_without_hsw(),
        surface: if a.format == Format::None {
            SurfaceFormat::ViewFormat
        } else {
            SurfaceFormat::Typed(a.format)
        },
    }))
}

impl TypedAtomic {
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let zero = ctx.zero(func);
        let mut b = ctx.builder(func, inst);
        let coords = typed_coords(self.coord, self.coord_comps, zero);
        let mut srcs: SmallVec<[Src; 7]> = SmallVec::from_slice(&coords);
        srcs.extend(self.operands.iter().copied());
        let predicate = if self.guard {
            let size = b.image_load_param(self.image, PARAM_SLOT_SIZE, 3);
            let bound = b.ine(Src::channel(size, 0), zero);
            srcs.push(Src::new(bound));
            Some(bound)
        } else {
            None
        };
        let mut indices = tgm_indices(DataShape::vector(self.size, 1, false), self.cache);
        indices.push(self.op.opcode());
        let old = b
            .intrinsic(
                IntrinsicOp::LscAtomic,
                Some(self.image),
                &srcs,
                &indices,
                Some(Type::U32),
            )
            .expect("lsc_atomic defines a value");
        let result = match predicate {
            Some(p) => Src::new(b.bcsel(p, old, zero)),
            None => Src::new(old),
        };
        ctx.finish(func, inst, result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nir_to_lsc_table() {
        // image-lowering.md §8.
        let cases = [
            (AtomicOp::Iadd, Some(1), Some(0x08)),
            (AtomicOp::Iadd, Some(u32::MAX), Some(0x09)),
            (AtomicOp::Iadd, Some(2), Some(0x0C)),
            (AtomicOp::Iadd, None, Some(0x0C)),
            (AtomicOp::Imin, None, Some(0x0E)),
            (AtomicOp::Imax, None, Some(0x0F)),
            (AtomicOp::Umin, None, Some(0x10)),
            (AtomicOp::Umax, None, Some(0x11)),
            (AtomicOp::Iand, None, Some(0x18)),
            (AtomicOp::Ior, None, Some(0x19)),
            (AtomicOp::Ixor, None, Some(0x1A)),
            (AtomicOp::Xchg, None, Some(0x0B)),
            (AtomicOp::Cmpxchg, None, Some(0x12)),
            (AtomicOp::Fadd, None, Some(0x13)),
            (AtomicOp::Fmin, None, Some(0x15)),
            (AtomicOp::Fmax, None, Some(0x16)),
            (AtomicOp::Fcmpxchg, None, Some(0x17)),
            (AtomicOp::IncWrap, None, None),
            (AtomicOp::DecWrap, None, None),
        ];
        for (op, c, want) in cases {
            assert_eq!(lsc_op_for_atomic(op, c).map(|o| o.opcode()), want, "{op}");
        }
        assert_eq!(LscAtomicOp::Iinc.num_data_operands(), 0);
        assert_eq!(LscAtomicOp::Icas.num_data_operands(), 2);
    }

    #[test]
    fn cache_policy() {
        let dg2 = Device::preset("dg2").unwrap();
        let lnl = Device::preset("lnl").unwrap();
        let tgl = Device::preset("tgl").unwrap();
        assert!(atomic_cache(&dg2).is_default());
        assert!(atomic_cache(&tgl).is_default());
        assert_eq!(atomic_cache(&lnl).to_string(), "uc.wb");
    }
}
