//! The untyped fallback: image loads, stores and atomics as untyped LSC messages on a
//! byte address the shader computes (docs/hardware/mesa-storage-images.md §2, §5, §6, §9;
//! docs/hardware/lsc-messages.md §4, §5).
//!
//! An access takes this path when no typed format matches the image format on the
//! platform (64/128-bit formats before Gfx9, §2), for 64-bit atomics (§9), for every
//! access to a multisampled storage image (its coordinate's last component, the
//! sample, selects physical slice `layer * SAMPLES + sample` of isl's array layout, as
//! `crate::address` documents; the bounds check compares it with `SAMPLES.x`), and for every
//! load, store and atomic under [`LowerOptions::force_untyped`](crate::LowerOptions::force_untyped). Per access:
//!
//! 1. `in_bounds` ([`crate::bounds`]): unsigned compares of the coordinate against SIZE
//!    (and, for a load with a LOD source, `lod == 0`: see below);
//! 2. the texel byte offset ([`crate::address`]);
//! 3. the message, predicated on `in_bounds` (no branch: out-of-bounds lanes are
//!    disabled in the message itself, as `lsc_load ... if %p` in the IR):
//!    - loads: `@lsc_load` of the texel as its raw UINT format, then
//!      `bcsel(in_bounds, value, 0)` (out-of-bounds loads return 0, as Mesa's phi with
//!      0) and [`crate::convert`]'s `convert_color_for_load(image format, raw format)`;
//!    - stores: `convert_color_for_store`, then a predicated `@lsc_store`;
//!    - atomics: a predicated `@lsc_atomic` whose result is 0 out of bounds.
//!
//! Raw formats and LSC data shapes per texel size (vectors only with d32/d64 and
//! conversion sizes never vectors, docs/hardware/lsc-messages.md §4):
//!
//! | bits | raw format | data |
//! |---|---|---|
//! | 8 | R8_UINT | d8u32 |
//! | 16 | R16_UINT | d16u32 |
//! | 32 | R32_UINT | d32 |
//! | 64 | R32G32_UINT | d32x2 |
//! | 128 | R32G32B32A32_UINT | d32x4 |
//!
//! Address models ([`UntypedAddress`]): by default the message addresses a raw buffer
//! view of the image's memory through the binding table (`ugm`, `bti`, `a32`; the
//! binding in the report is [`SurfaceFormat::Raw`]). 64-bit atomics, and every untyped
//! access under [`UntypedAddress::A64`], use flat A64 addresses instead: the surface base
//! (`BASE.y`/`BASE.z` of the parameter block, `pack_64_2x32_split`) plus `u2u64` of the
//! offset, as anv does for 64-bit image atomics (§9); such accesses bind no surface.
//!
//! Policies:
//! - **IVB/BYT raw-surface check.** On verx10 70, Mesa predicates loads and stores of
//!   the natural raw path on `STRIDE.x > 4` too: a surface with cpp of 4 or less cannot
//!   be the RAW buffer the path needs, and untyped messages to a non-RAW surface hang IVB
//!   and VLV. Mesa only takes the raw path for 64/128-bit formats, whose cpp is 8 or 16,
//!   so the check only rejects a driver that bound something else. Under
//!   `force_untyped` the check is left out: there the image's own cpp may be 1 to 4 (an
//!   `r32_uint` image has STRIDE.x = 4), so the check would drop every access to such
//!   images; the lowering's report tells the driver to bind a raw view instead.
//! - **IVB/BYT atomics** (only reachable under `force_untyped`) are guarded by
//!   `SIZE.x != 0` when bounds checking is off (Mesa's null-surface guard, §8); with the
//!   bounds check on, `in_bounds` already implies it.
//! - **8/16-bit loads**: `d8u32`/`d16u32` leave the upper bits undefined before Xe2
//!   (docs/hardware/lsc-messages.md §1), so single-channel 8/16-bit texels are masked before conversion,
//!   except on IVB/BYT where the conversion masks them already.
//! - **Atomics** follow the typed path's format and operation rules (R32 formats, R16
//!   from Gfx12 with `d16u32` and the data and result conversions of
//!   the typed atomics' "Atomics on R16 images" (`atomic.rs`), float operations where the device
//!   exposes them on images); 64-bit atomics use `d64` on R64 images and need
//!   [`Device::image_int64_atomics`].
//! - **LOD.** The parameter block describes the view's one level, so the path can only
//!   address LOD 0. A load whose `lod` source is absent or the constant 0 needs nothing;
//!   any other LOD is out of bounds at the reference level (a storage view has one
//!   level, so it reads 0), which the bounds check expresses exactly and cheaply by
//!   AND-ing `ieq(lod, 0)` into `in_bounds`. Without the bounds check such a load is an
//!   error ([`LowerErrorKind::LodUnsupported`]): it would read level 0 instead of 0.
//! - **Cache controls** (LSC parts; pre-LSC messages carry none): atomics L1UC_L3WB
//!   (Mesa); coherent accesses L1UC_L3C loads / L1UC_L3WB stores, volatile L1UC_L3UC
//!   before Xe2 (docs/hardware/lsc-messages.md §9, Mesa's choices); otherwise the default.

use super::access::ImageAccess;
use super::atomic::{self, lsc_op_for_atomic, r16_atomic_operands, r16_atomic_result, r16_atomics};
use super::context::{EmitCtx, PlanCtx, UntypedReason};
use crate::address::{slot, AddressPlan, Emitter, Operand};
use crate::bounds;
use crate::convert;
use crate::device::Device;
use crate::error::{
    address_error_kind, A64Use, FormatProblem, FormatUse, LowerError, LowerErrorKind, Malformation,
};
use crate::messages::dataport::plan_legacy;
use crate::messages::{LscMessage, LscOp};
use crate::options::UntypedAddress;
use crate::report::SurfaceFormat;
use ir::function::{InstKind, IntrinsicInst};
use ir::lsc::{
    AddrSize, AddrType, CacheControl, CacheOpt, DataShape, DataSize, LscAtomicOp, LscDesc, Sfid,
};
use ir::{Format, Function, ImageRef, Inst, IntrinsicOp, Src, Type};
use smallvec::{smallvec, SmallVec};
use std::rc::Rc;

/// What the access does.
#[derive(Clone, Debug)]
enum Kind {
    Load {
        /// Components the load returns.
        dest_comps: u8,
    },
    Store {
        data: Src,
    },
    Atomic {
        op: LscAtomicOp,
        /// Data operands: none (iinc/idec), the data, or compare then new value.
        operands: SmallVec<[Src; 2]>,
        /// The result type (32- or 64-bit scalar).
        ty: Type,
    },
}

/// A planned untyped access.
#[derive(Clone, Debug)]
pub(crate) struct UntypedAccess {
    kind: Kind,
    image: ImageRef,
    coord: Src,
    plan: Rc<AddressPlan>,
    image_fmt: Format,
    raw_fmt: Format,
    shape: DataShape,
    a64: bool,
    bounds_check: bool,
    /// IVB/BYT natural raw path: `STRIDE.x > 4`.
    raw_guard: bool,
    /// IVB/BYT atomics without bounds check: `SIZE.x != 0`.
    bound_guard: bool,
    cache: CacheControl,
    /// Single-channel 8/16-bit texels whose loaded upper bits must be cleared.
    mask_bits: Option<u32>,
    /// A load's LOD that is not known to be 0: in bounds only when it is 0.
    lod: Option<Src>,
}

/// What [`LowerReport`](crate::LowerReport) counts of an untyped access.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum UntypedKind {
    /// A load.
    Load,
    /// A store.
    Store,
    /// An atomic.
    Atomic,
}

impl UntypedAccess {
    /// What the access is.
    pub fn kind(&self) -> UntypedKind {
        match self.kind {
            Kind::Load { .. } => UntypedKind::Load,
            Kind::Store { .. } => UntypedKind::Store,
            Kind::Atomic { .. } => UntypedKind::Atomic,
        }
    }

    /// Whether the message uses 64-bit flat addresses.
    pub fn is_a64(&self) -> bool {
        self.a64
    }

    /// The surface the driver binds: a raw buffer view for binding-table accesses, none
    /// for flat A64 ones.
    pub fn surface(&self) -> Option<SurfaceFormat> {
        (!self.a64).then_some(SurfaceFormat::Raw)
    }
}

/// The raw UINT format of a texel of `bits` bits and its LSC data shape.
fn raw_format(bits: u32) -> Option<(Format, DataShape)> {
    Some(match bits {
        8 => (Format::R8Uint, DataShape::vector(DataSize::D8U32, 1, false)),
        16 => (
            Format::R16Uint,
            DataShape::vector(DataSize::D16U32, 1, false),
        ),
        32 => (Format::R32Uint, DataShape::vector(DataSize::D32, 1, false)),
        64 => (Format::Rg32Uint, DataShape::vector(DataSize::D32, 2, false)),
        128 => (
            Format::Rgba32Uint,
            DataShape::vector(DataSize::D32, 4, false),
        ),
        _ => return None,
    })
}

fn is_coherent(q: ir::Access) -> bool {
    q.contains(ir::Access::COHERENT)
}

fn is_volatile(q: ir::Access) -> bool {
    q.contains(ir::Access::VOLATILE)
}

/// Cache controls of an untyped load (see the module documentation).
fn load_cache(device: &Device, q: ir::Access) -> CacheControl {
    access_cache(device, q, CacheOpt::Ca)
}

/// Cache controls of an untyped store.
fn store_cache(device: &Device, q: ir::Access) -> CacheControl {
    access_cache(device, q, CacheOpt::Wb)
}

/// Volatile and coherent accesses bypass L1; volatile ones bypass L3 too before Xe2,
/// and otherwise L3 does what `l3_coherent` says (cached loads, write-back stores).
fn access_cache(device: &Device, q: ir::Access, l3_coherent: CacheOpt) -> CacheControl {
    let uc = |l3| CacheControl {
        l1: CacheOpt::Uc,
        l3,
    };
    if !device.has_lsc {
        CacheControl::DEFAULT
    } else if is_volatile(q) && device.volatile_bypasses_l3 {
        uc(CacheOpt::Uc)
    } else if is_volatile(q) || is_coherent(q) {
        uc(l3_coherent)
    } else {
        CacheControl::DEFAULT
    }
}

/// Cache controls of an untyped atomic: L1 must be uncached (docs/hardware/lsc-messages.md §9).
fn atomic_cache(device: &Device) -> CacheControl {
    if device.has_lsc {
        CacheControl {
            l1: CacheOpt::Uc,
            l3: CacheOpt::Wb,
        }
    } else {
        CacheControl::DEFAULT
    }
}

/// Plans `a` through the untyped path.
pub(crate) fn plan(
    a: &ImageAccess<'_>,
    reason: UntypedReason,
    ctx: &mut PlanCtx<'_>,
) -> Result<UntypedAccess, LowerError> {
    let (device, options) = (ctx.device, ctx.options);
    let coord = a.check_coord()?;
    if a.format == Format::None {
        let what = if reason == UntypedReason::Multisampled {
            FormatUse::MultisampledStorage
        } else {
            FormatUse::UntypedAddress
        };
        return Err(a.error(LowerErrorKind::FormatRequired(what)));
    }
    if options.untyped_address == UntypedAddress::A64 && !device.has_a64 {
        return Err(a.error(LowerErrorKind::A64Unsupported(A64Use::UntypedAddress)));
    }
    let plan = ctx
        .address_plans
        .get(a.dim, a.arrayed, a.format, a.decl.layout.as_ref())
        .map_err(|e| a.error(address_error_kind(e)))?;
    let bits = a.format.bits_per_texel();
    let (raw_fmt, shape) = raw_format(bits).ok_or_else(|| {
        a.error(LowerErrorKind::UnsupportedFormat(Box::new(
            FormatProblem::UntypedTexelBits { bits },
        )))
    })?;
    let message = Type::vec32(raw_fmt.num_channels());
    let natural_raw = reason == UntypedReason::NoTypedFormat;
    let mut access = UntypedAccess {
        kind: Kind::Load { dest_comps: 0 },
        image: a.image,
        coord,
        plan,
        image_fmt: a.format,
        raw_fmt,
        shape,
        a64: options.untyped_address == UntypedAddress::A64,
        bounds_check: options.bounds_check,
        raw_guard: false,
        bound_guard: false,
        cache: CacheControl::DEFAULT,
        mask_bits: None,
        lod: None,
    };
    match a.op {
        IntrinsicOp::ImageLoad => {
            let dest = a.dest.unwrap_or(Type::U32);
            convert::check_load(a.format, raw_fmt, message, dest.num_components())
                .map_err(|e| a.malformed(Malformation::Conversion(e)))?;
            if dest.bit_size() != a.format.data_bit_size() {
                return Err(a.malformed(Malformation::LoadBits {
                    found: dest,
                    format: a.format,
                }));
            }
            access.kind = Kind::Load {
                dest_comps: dest.num_components(),
            };
            let lod = a.check_lod()?;
            if a.const_lod() != Some(0) {
                if !options.bounds_check {
                    return Err(a.error(LowerErrorKind::LodUnsupported));
                }
                access.lod = lod;
            }
            access.cache = load_cache(device, a.qualifiers);
            access.raw_guard = natural_raw && device.is_gfx7_without_hsw();
            let narrow = bits <= 16 && a.format.num_channels() == 1;
            if narrow && !device.narrow_data_zero_extended && !device.is_gfx7_without_hsw() {
                access.mask_bits = Some(bits);
            }
        }
        IntrinsicOp::ImageStore => {
            convert::check_store(a.format, raw_fmt, a.src_types[1])
                .map_err(|e| a.malformed(Malformation::Conversion(e)))?;
            access.kind = Kind::Store { data: a.srcs[1] };
            access.cache = store_cache(device, a.qualifiers);
            access.raw_guard = natural_raw && device.is_gfx7_without_hsw();
        }
        IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => {
            plan_atomic(a, &mut access)?;
            access.cache = atomic_cache(device);
            access.bound_guard = !options.bounds_check && device.is_gfx7_without_hsw();
        }
        op => return Err(a.malformed(Malformation::NotAnImageAccess { op })),
    }
    legacy_address(device, &mut access);
    Ok(access)
}

/// Without LSC, an access whose binding-table message the legacy data port lacks
/// takes A64 addresses when their message exists, as 64-bit atomics always do: 16-bit
/// compare-and-swap atomics on Gfx12 exist on A64 addresses only
/// (`docs/hardware/dataport.md` §5, §9). Anything else the data port lacks is the
/// dispatcher's error.
fn legacy_address(device: &Device, access: &mut UntypedAccess) {
    let Some(caps) = &device.dataport else {
        return;
    };
    if access.a64 || !device.has_a64 || plan_legacy(caps, &device.name, &access.message()).is_ok() {
        return;
    }
    let mut a64 = access.clone();
    a64.a64 = true;
    if plan_legacy(caps, &device.name, &a64.message()).is_ok() {
        access.a64 = true;
    }
}

fn plan_atomic(a: &ImageAccess<'_>, access: &mut UntypedAccess) -> Result<(), LowerError> {
    let device = a.device;
    let op = a.atomic_op()?;
    let swap = a.op == IntrinsicOp::ImageAtomicSwap;
    let ty = a.atomic_type()?;
    let is64 = ty.bit_size() == 64 || matches!(a.format, Format::R64Uint | Format::R64Sint);
    let (size, float_format) = match a.format {
        Format::R64Uint | Format::R64Sint => (DataSize::D64, false),
        Format::R32Uint | Format::R32Sint => (DataSize::D32, false),
        Format::R32Float => (DataSize::D32, true),
        Format::R16Uint | Format::R16Sint | Format::R16Float if r16_atomics(device) => {
            (DataSize::D16U32, a.format == Format::R16Float)
        }
        format => {
            return Err(a.error(LowerErrorKind::AtomicFormatUnsupported {
                format,
                untyped: true,
                r16: r16_atomics(device),
            }))
        }
    };
    if is64 != (size == DataSize::D64) {
        return Err(a.malformed(Malformation::AtomicFormatBits {
            found: ty,
            format: a.format,
        }));
    }
    if is64 {
        if !(device.image_int64_atomics && device.has_a64) {
            return Err(a.error(LowerErrorKind::Int64AtomicUnsupported));
        }
        // anv's path (§9): A64 UGM atomics on the computed texel address.
        access.a64 = true;
    }
    atomic::check_supported(a, op, device)?;
    atomic::check_domain(a, op, float_format)?;
    let constant = a
        .const_srcs
        .get(1)
        .copied()
        .flatten()
        .filter(|_| !is64)
        .map(|v| v as u32);
    let lsc = lsc_op_for_atomic(op, if swap { None } else { constant })
        .ok_or_else(|| a.error(LowerErrorKind::AtomicOpUnmapped { op }))?;
    let operands: SmallVec<[Src; 2]> = match lsc.num_data_operands() {
        0 => SmallVec::new(),
        1 => smallvec![a.srcs[1]],
        _ => smallvec![a.srcs[1], a.srcs[2]],
    };
    access.kind = Kind::Atomic {
        op: lsc,
        operands,
        ty,
    };
    access.shape = DataShape::vector(size, 1, false);
    Ok(())
}

impl UntypedAccess {
    /// The message the access sends.
    pub(crate) fn message(&self) -> LscMessage {
        let op = match &self.kind {
            Kind::Load { .. } => LscOp::Load,
            Kind::Store { .. } => LscOp::Store,
            Kind::Atomic { op, .. } => LscOp::Atomic(*op),
        };
        LscMessage::new(op, &self.desc())
    }

    /// The message: `.ugm` through the binding table (`bti`, `a32`) or flat `a64`.
    fn desc(&self) -> LscDesc {
        let (addr, size) = if self.a64 {
            (AddrType::Flat, AddrSize::A64)
        } else {
            (AddrType::Bti, AddrSize::A32)
        };
        let desc = LscDesc::new(Sfid::Ugm, addr, size, self.shape).with_cache(self.cache);
        match &self.kind {
            Kind::Atomic { op, .. } => desc.with_atomic(*op),
            _ => desc,
        }
    }

    /// Emits the access in place of `inst`.
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        let mut b = ctx.builder(func, inst);
        let mut e = Emitter::new(&mut b, self.image);
        let in_bounds = self
            .bounds_check
            .then(|| bounds::emit_with(&mut e, self.plan.dim, self.plan.arrayed, self.coord));
        // A storage view has one level: any other LOD is out of bounds.
        let level_zero = self.lod.map(|lod| {
            let zero = e.imm(0);
            e.b.ieq(lod, zero)
        });
        let in_bounds = bounds::and(&mut e, in_bounds, level_zero);
        let raw = self.raw_guard.then(|| bounds::emit_is_raw(&mut e));
        let bound = self.bound_guard.then(|| bounds::emit_is_bound(&mut e));
        let pred = bounds::and(&mut e, in_bounds, raw);
        let pred = bounds::and(&mut e, pred, bound);
        let offset = self.plan.emit_with(&mut e, self.coord);
        let addr = if self.a64 {
            let lo = e.param(slot::BASE, 1);
            let hi = e.param(slot::BASE, 2);
            let (lo, hi) = (e.src(lo), e.src(hi));
            let base = e.b.pack_64_2x32_split(lo, hi);
            let off = e.src(offset);
            let off64 = e.b.u2u64(off);
            Src::new(e.b.iadd(base, off64))
        } else {
            // A component read through a swizzle (a buffer of bytes: x * 1) needs no mov.
            e.src(offset)
        };
        let image = (!self.a64).then_some(self.image);
        let desc = self.desc();
        let pred_src = pred.map(Src::new);
        match self.kind {
            Kind::Load { dest_comps } => {
                let n = self.raw_fmt.num_channels();
                let v = e.b.lsc_load(&desc, image, &[addr], pred_src);
                let mut v = Operand::Val(Src::new(v));
                if let Some(bits) = self.mask_bits {
                    v = e.iand(v, Operand::Imm((1u32 << bits) - 1));
                }
                let v = match pred {
                    Some(p) => {
                        let zero = e.b.zero(Type::vec32(n));
                        let vs = e.src(v);
                        Src::new(e.b.bcsel(bounds::splat(p, n), vs, zero))
                    }
                    None => e.src(v),
                };
                let color =
                    convert::load_color(e.b, device, self.image_fmt, self.raw_fmt, v, dest_comps)
                        .expect("conversion checked when planned");
                ctx.finish(func, inst, color);
            }
            Kind::Store { data } => {
                let mut data =
                    convert::store_color(e.b, device, self.image_fmt, self.raw_fmt, data)
                        .expect("conversion checked when planned");
                // An R8/R16_UINT image stored as itself (force_untyped): the conversion
                // has nothing to do, but d8u32/d16u32 keep the low bits where a typed
                // write's format conversion saturates (umin(x, 2^bits - 1), as the
                // lowered formats' conversion does), so clamp here.
                let bits = self.image_fmt.bits_per_texel();
                if self.image_fmt == self.raw_fmt && bits < 32 {
                    let max = e.b.imm_u32((1u32 << bits) - 1);
                    data = Src::new(e.b.umin(data, max));
                }
                let mut srcs: SmallVec<[Src; 4]> = smallvec![addr, data];
                srcs.extend(pred_src);
                func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
                    op: IntrinsicOp::LscStore,
                    image,
                    srcs,
                    indices: desc.indices().into_iter().collect(),
                }));
            }
            Kind::Atomic { operands, ty, .. } => {
                let operands = r16_atomic_operands(e.b, device, self.image_fmt, &operands);
                let old = e.b.lsc_atomic(&desc, image, &[addr], &operands, pred_src);
                let old = r16_atomic_result(e.b, device, self.image_fmt, Src::new(old));
                let result = match pred {
                    Some(p) => {
                        let zero = e.b.zero(ty);
                        Src::new(e.b.bcsel(p, old, zero))
                    }
                    None => old,
                };
                ctx.finish(func, inst, result);
            }
        }
    }
}
