//! Image atomics as typed `lsc_atomic` messages (docs/hardware/mesa-storage-images.md §8,
//! docs/hardware/lsc-messages.md §2, §4).
//!
//! Policies:
//! - **Formats.** Typed atomics run on R32 surfaces (`d32`) and, from Gfx12
//!   (isl TA column: R16 from verx10 120), on R16 surfaces with `d16u32` (docs/hardware/lsc-messages.md §4).
//!   A format-less image is taken to be a 32-bit surface, as Mesa derives the data size from
//!   the data's bit size. Integer arithmetic on a float format, and float arithmetic on an
//!   integer format, are errors; exchange and compare-exchange move bits and fit every
//!   format. R32_FLOAT exchange and compare-exchange are allowed on every generation:
//!   BSpec 1706 allows R32_UINT, R32_SINT and R32_FLOAT typed atomic surfaces, and both
//!   anv and hasvk (Gfx7/8) expose `shaderImageFloat32Atomics`.
//! - **Float ops** only where [`Device`] says so (see its field documentation).
//! - **64-bit atomics** go through A64 global atomics on a computed texel address (anv,
//!   §9): the untyped fallback, on parts with [`Device::image_int64_atomics`].
//! - **Cache controls.** Before Xe2 every TGM message uses default caching: IGC's
//!   verifier requires df/df on TGM before Xe2 (docs/hardware/lsc-messages.md §9), which keeps the messages
//!   legal where Mesa's L1UC_L3WB would not be; legacy messages have no cache field. On
//!   Xe2+ atomics use L1UC_L3WB as Mesa does (atomics require an uncached L1).
//! - **IVB/BYT** typed atomics ignore null surfaces and would corrupt memory, so the
//!   message is predicated on `SIZE.x != 0` (an unbound image has SIZE 0) and the result
//!   is 0 otherwise (§8).
//!
//! # Atomics on R16 images
//!
//! The isl TA column allows typed atomics on R16_{UINT,SINT,FLOAT} surfaces from
//! verx10 120 (docs/hardware/mesa-storage-images.md §3), as `d16u32` messages (docs/hardware/lsc-messages.md §4):
//! the atomic reads and writes the 16-bit texel, takes the low 16 bits of each 32-bit data
//! operand, and returns the old texel in the low 16 bits of a dword. The IR's image
//! atomics keep 32-bit data and results, so their meaning on a 16-bit texel is defined
//! here (and executed so by the reference, `verify::image`):
//!
//! - **R16_UINT, R16_SINT**: the operation is the 32-bit one done on 16 bits with the
//!   data's low 16 bits: `iadd` wraps modulo 2^16, `imin`/`imax` compare 16-bit two's
//!   complement values, `umin`/`umax` 16-bit unsigned ones, `xchg` and `cmpxchg` store
//!   and compare the low 16 bits (an atomic truncates where `image_store` saturates: a
//!   saturating conversion is no part of a read-modify-write). The result is the old
//!   texel widened: zero-extended on R16_UINT, sign-extended on R16_SINT. So the data
//!   goes to the message as it is; the result is sign-extended for R16_SINT (as a load
//!   converts it, `ishl`/`ishr` by 16) and, for R16_UINT, masked with 0xffff before
//!   Xe2, where `d16u32` leaves the upper 16 bits undefined (docs/hardware/lsc-messages.md §1; Xe2 zeroes
//!   them).
//! - **R16_FLOAT**: data and result are float32 values, as for loads and stores of the
//!   format: each data operand is converted to binary16 (round to nearest even, the
//!   store conversion) before the message, the operation (`fadd`, `fmin`, `fmax`,
//!   `fcmpxchg`, `xchg`) is done on the binary16 texel, and the old texel is converted
//!   to float32 (exactly, the load conversion). Float operations follow the device's float-atomic fields, which
//!   describe the 32-bit operations; that they hold for 16-bit texels too is inferred (the
//!   references list LSC float atomics without a data-size restriction beyond
//!   `d16u32`/`d32`/`d64`, and isl's TA column gives R16_FLOAT typed atomics).
//! - Integer arithmetic on R16_FLOAT and float arithmetic on R16_{UINT,SINT} are
//!   [`LowerErrorKind::AtomicTypeMismatch`] errors, as on R32 formats (the validator
//!   already refuses them, and `cmpxchg` on float formats). Before Gfx12
//!   every R16 atomic is an [`LowerErrorKind::AtomicFormatUnsupported`] error.

use super::access::ImageAccess;
use super::context::{EmitCtx, PlanCtx, Route, UntypedReason};
use super::typed::{tgm_desc, typed_coords};
use crate::address::slot;
use crate::convert;
use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind, Malformation};
use crate::format::supports_typed_atomic;
use crate::messages::{LscMessage, LscOp};
use crate::report::SurfaceFormat;
use ir::lsc::{CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp};
use ir::{AtomicOp, Builder, Format, Function, ImageRef, Inst, IntrinsicOp, Src};
use smallvec::SmallVec;

/// The LSC atomic operation for a NIR atomic op, as Mesa's `lsc_op_for_nir_intrinsic`
/// (docs/hardware/mesa-storage-images.md §8 table). `constant_data` is the data operand's value when it
/// is a constant (32-bit): an `iadd` of 1 becomes `iinc` and of -1 `idec`, which take no
/// data operand. `None` for ops with no LSC operation (`inc_wrap`, `dec_wrap`;
/// docs/hardware/lsc-messages.md §13.12).
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

/// The data operands of an atomic on a `format` image as the `d16u32` message takes
/// them (see the module documentation): float32 data converted to binary16 on
/// R16_FLOAT; anything else as it is (the message takes the low 16 bits).
pub(crate) fn r16_atomic_operands(
    b: &mut Builder,
    device: &Device,
    format: Format,
    operands: &[Src],
) -> SmallVec<[Src; 2]> {
    operands
        .iter()
        .map(|&s| {
            if format == Format::R16Float {
                Src::new(
                    convert::convert_color_for_store(b, device, format, Format::R16Uint, s)
                        .expect("a 32-bit scalar converts to R16_UINT"),
                )
            } else {
                s
            }
        })
        .collect()
}

/// Whether atomics on R16 images exist (typed on the R16 surface, untyped with
/// `d16u32`): where isl's TA column gives R16 surfaces typed atomics (Gfx12).
pub(crate) fn r16_atomics(device: &Device) -> bool {
    supports_typed_atomic(device, Format::R16Uint)
}

/// The result of an atomic on a `format` image from the `d16u32` message's `old` (see
/// the module documentation): R16_UINT zero-extended (masked before Xe2), R16_SINT
/// sign-extended, R16_FLOAT converted to float32; other formats unchanged.
pub(crate) fn r16_atomic_result(b: &mut Builder, device: &Device, format: Format, old: Src) -> Src {
    match format {
        Format::R16Uint if !device.narrow_data_zero_extended => {
            let m = b.imm_u32(0xffff);
            Src::new(b.iand(old, m))
        }
        Format::R16Sint | Format::R16Float => {
            convert::load_color(b, device, format, Format::R16Uint, old, 1)
                .expect("an R16 dword converts")
        }
        _ => old,
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
    /// docs/hardware/lsc-messages.md §11: "CAS sends src1 (compare) and then src2 (new value)").
    operands: SmallVec<[Src; 2]>,
    size: DataSize,
    cache: CacheControl,
    /// Whether the message is predicated on the image being bound (IVB/BYT).
    pub guard: bool,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
    /// The image format (R16 formats convert data and result).
    format: Format,
}

/// Whether `op` does arithmetic on integers, on floats, or just moves bits.
fn op_domain(op: AtomicOp) -> Option<bool> {
    match op {
        AtomicOp::Xchg | AtomicOp::Cmpxchg => None,
        o if o.is_float() => Some(true),
        _ => Some(false),
    }
}

/// Refuses a float atomic the platform does not offer on images
/// ([`Device::has_image_atomic`]).
pub(crate) fn check_supported(
    a: &ImageAccess<'_>,
    op: AtomicOp,
    device: &Device,
) -> Result<(), LowerError> {
    if device.has_image_atomic(op) {
        return Ok(());
    }
    Err(a.error(LowerErrorKind::FloatAtomicUnsupported { op }))
}

/// Refuses integer arithmetic on a float format and float arithmetic on an integer one
/// (`is_float`: whether the format holds floats); exchanges move bits and suit both.
pub(crate) fn check_domain(
    a: &ImageAccess<'_>,
    op: AtomicOp,
    is_float: bool,
) -> Result<(), LowerError> {
    match op_domain(op) {
        Some(float_op) if float_op != is_float => {
            Err(a.error(LowerErrorKind::AtomicTypeMismatch {
                op,
                float_format: is_float,
            }))
        }
        _ => Ok(()),
    }
}

/// Plans an `image_atomic` or `image_atomic_swap`.
pub(crate) fn plan(
    a: &ImageAccess<'_>,
    ctx: &PlanCtx<'_>,
) -> Result<Route<TypedAtomic>, LowerError> {
    let (device, options) = (ctx.device, ctx.options);
    let coord = a.check_coord()?;
    let op = a.atomic_op()?;
    let swap = a.op == IntrinsicOp::ImageAtomicSwap;
    let dest = a.atomic_type()?;
    let is64 = dest.bit_size() == 64 || matches!(a.format, Format::R64Uint | Format::R64Sint);
    if is64 {
        // The untyped path checks that the platform has 64-bit atomics.
        return Ok(Route::Untyped(UntypedReason::Int64Atomic));
    }
    if dest.bit_size() != 32 {
        return Err(a.malformed(Malformation::AtomicBits { found: dest }));
    }
    if options.force_untyped {
        return Ok(Route::Untyped(UntypedReason::Forced));
    }
    check_supported(a, op, device)?;
    let (size, float_format) = match a.format {
        Format::None => (DataSize::D32, None),
        Format::R32Uint | Format::R32Sint => (DataSize::D32, Some(false)),
        Format::R32Float => (DataSize::D32, Some(true)),
        Format::R16Uint | Format::R16Sint | Format::R16Float if r16_atomics(device) => {
            (DataSize::D16U32, Some(a.format == Format::R16Float))
        }
        format => {
            return Err(a.error(LowerErrorKind::AtomicFormatUnsupported {
                format,
                untyped: false,
                r16: r16_atomics(device),
            }))
        }
    };
    if let Some(is_float) = float_format {
        check_domain(a, op, is_float)?;
    }
    let constant = a.const_srcs.get(1).copied().flatten().map(|v| v as u32);
    let lsc = lsc_op_for_atomic(op, if swap { None } else { constant })
        .expect("inc_wrap and dec_wrap were rejected");
    let operands: SmallVec<[Src; 2]> = match lsc.num_data_operands() {
        0 => SmallVec::new(),
        1 => SmallVec::from_slice(&[a.srcs[1]]),
        _ => SmallVec::from_slice(&[a.srcs[1], a.srcs[2]]),
    };
    Ok(Route::Typed(TypedAtomic {
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
        format: a.format,
    }))
}

impl TypedAtomic {
    /// The message the atomic sends.
    pub(crate) fn message(&self) -> LscMessage {
        let desc =
            tgm_desc(DataShape::vector(self.size, 1, false), self.cache).with_atomic(self.op);
        LscMessage::new(LscOp::Atomic(self.op), &desc)
    }

    pub(crate) fn emit(self, func: &mut Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        let zero = ctx.zero(func);
        let mut b = ctx.builder(func, inst);
        let coords = typed_coords(self.coord, self.coord_comps, zero);
        let operands = r16_atomic_operands(&mut b, device, self.format, &self.operands);
        let predicate = if self.guard {
            let size = b.image_load_param(self.image, slot::SIZE, 3);
            Some(b.ine(Src::channel(size, 0), zero))
        } else {
            None
        };
        let desc =
            tgm_desc(DataShape::vector(self.size, 1, false), self.cache).with_atomic(self.op);
        let old = b.lsc_atomic(
            &desc,
            Some(self.image),
            &coords,
            &operands,
            predicate.map(Src::new),
        );
        let old = r16_atomic_result(&mut b, device, self.format, Src::new(old));
        let result = match predicate {
            Some(p) => Src::new(b.bcsel(p, old, zero)),
            None => old,
        };
        ctx.finish(func, inst, result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nir_to_lsc_table() {
        // docs/hardware/mesa-storage-images.md §8.
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

    /// The instructions that use the atomic message's result, printed, after lowering an
    /// `iadd` on a `format` image for `platform` (typed path).
    fn r16_result_ops(format: &str, data: &str, op: &str, platform: &str) -> Vec<String> {
        let text = format!(
            "shader compute (local_size=1,1,1)
image @img : 2d {format} (binding=0)
fn main {{
  block b0:
    32x2 %0 = load_const (1, 2)
    32   %1 = load_const ({data})
    32   %2 = @image_atomic (@img, %0, %1) (atomic_op={op})
    @store_ssbo (%2, %0.x, %0.y) (access=none, align_mul=4)
}}
"
        );
        let mut shader = ir::parse_shader(&text).unwrap();
        let device = Device::preset(platform).unwrap();
        crate::lower_images(&mut shader, &device, &crate::LowerOptions::default()).unwrap();
        let f = &shader.functions[0];
        let text = ir::print::print_function(&shader, f);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Without LSC (TGL) the atomic is the legacy typed atomic of 16 bits.
        let at = lines
            .iter()
            .position(|l| l.contains("@lsc_atomic") || l.contains("@dp_typed_atomic"))
            .expect("an atomic message");
        assert!(
            lines[at].contains("lsc_data=d16u32") || lines[at].contains("dp_bits=16"),
            "{text}"
        );
        lines[at..]
            .iter()
            .take_while(|l| !l.contains("@store_ssbo"))
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn r16_results_are_widened_as_the_format_says() {
        // R16_UINT: d16u32 leaves the upper bits undefined before Xe2 (docs/hardware/lsc-messages.md §1):
        // masked on TGL and DG2; Xe2 zeroes them.
        for p in ["tgl", "dg2"] {
            let ops = r16_result_ops("r16_uint", "7", "iadd", p);
            assert_eq!(ops.len(), 3, "{p}: {ops:?}");
            assert!(ops[1].ends_with("load_const (0x0000ffff)"), "{ops:?}");
            assert!(ops[2].starts_with("32   %2 = iand "), "{ops:?}");
        }
        assert_eq!(r16_result_ops("r16_uint", "7", "iadd", "lnl").len(), 1);
        // R16_SINT: sign-extended (shift left, then arithmetic right, by 16).
        let ops = r16_result_ops("r16_sint", "7", "imin", "lnl");
        assert!(ops.iter().any(|l| l.contains("= ishl ")), "{ops:?}");
        assert!(ops.last().unwrap().contains("%2 = ishr "), "{ops:?}");
        // R16_FLOAT: the binary16 result unpacked to float32 (the data's conversion is
        // checked by value in `tests/tests/r16_atomics.rs`).
        let ops = r16_result_ops("r16_float", "0x3f800000", "xchg", "tgl");
        assert!(
            ops.last()
                .unwrap()
                .contains("%2 = unpack_half_2x16_split_x "),
            "{ops:?}"
        );
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
