//! The typed path: `image_load` / `image_store` as `lsc_load_quad` / `lsc_store_quad`
//! on TGM (docs/hardware/mesa-storage-images.md §2, §10; docs/hardware/lsc-messages.md §4–§6).
//!
//! A typed message takes the texel coordinate as U, V, R and LOD, each one 32-bit
//! component: the image's coordinate components in order (1D `x`; 1D array `x, layer`;
//! 2D `x, y`; 2D array, cube and cube array `x, y, layer-or-face`; 3D `x, y, z`), the
//! unused ones the constant 0. LOD is the load's `lod` source (NIR's, relative to the
//! view's base level) or the constant 0 without one; stores and atomics take LOD 0.
//! A storage view has one level, so the surface state's bounds check makes a non-zero
//! LOD out of bounds (the load returns 0), exactly what the reference does.
//!
//! Data size: always `d32`. Every lowered image's shader-side data is 32-bit per channel
//! (R64 is lowered to R32G32_UINT), and Mesa derives the LSC data size from the NIR bit
//! size, so it emits D32 for these accesses too; IGC always uses d32 for typed messages
//! (docs/hardware/lsc-messages.md §4). The surface format converts between memory and the 32-bit register
//! element, so d8u32/d16u32, which cannot be vectors and leave the upper bits undefined
//! on DG2/PVC (docs/hardware/lsc-messages.md §1, §4), bring nothing.

use super::access::ImageAccess;
use super::context::{EmitCtx, PlanCtx, Route, UntypedReason};
use crate::convert;
use crate::device::Device;
use crate::error::{FormatUse, LowerError, LowerErrorKind, Malformation};
use crate::format::{storage_access, supports_typed_read, supports_typed_write, StorageAccess};
use crate::messages::{LscMessage, LscOp};
use crate::report::SurfaceFormat;
use ir::function::{InstKind, IntrinsicInst};
use ir::lsc::{CacheControl, CacheOpt, DataShape, DataSize, LscDesc};
use ir::{Format, Function, ImageRef, Inst, IntrinsicOp, Src, Type, Value};
use smallvec::SmallVec;

/// A TGM message through the binding table (`LscDesc::typed`: `.tgm`, `bti`, `a32`)
/// with data `shape` and cache controls `cache`, and no immediate offset (TGM messages
/// cannot have one, `docs/hardware/mesa-storage-images.md` §10).
pub(crate) fn tgm_desc(shape: DataShape, cache: CacheControl) -> LscDesc {
    LscDesc::typed(shape).with_cache(cache)
}

/// The channel mask of `n` contiguous channels from X: `(1 << n) - 1`.
pub(crate) fn contiguous_mask(n: u8) -> u8 {
    ((1u16 << n) - 1) as u8
}

/// U, V, R, LOD for an image access with `coord_comps` coordinate components.
pub(crate) fn typed_coords(coord: Src, coord_comps: u8, zero: Value) -> [Src; 4] {
    let pick = |i: u8| {
        if i < coord_comps {
            coord.component(i)
        } else {
            Src::new(zero)
        }
    };
    [pick(0), pick(1), pick(2), Src::new(zero)]
}

fn uc_with(l3: CacheOpt) -> CacheControl {
    CacheControl {
        l1: CacheOpt::Uc,
        l3,
    }
}

/// Cache controls of a typed load. Before Xe2, TGM messages must use default caching
/// (IGC's verifier, docs/hardware/lsc-messages.md §9), and legacy messages have no cache field. On Xe2+,
/// coherent and volatile images bypass L1 as Mesa does (L1UC_L3C for loads, docs/hardware/lsc-messages.md
/// §9); others keep the default (L1STATE_L3MOCS).
pub(crate) fn load_cache(device: &Device, q: ir::Access) -> CacheControl {
    if device.tgm_cache_control
        && (q.contains(ir::Access::COHERENT) || q.contains(ir::Access::VOLATILE))
    {
        uc_with(CacheOpt::Ca)
    } else {
        CacheControl::DEFAULT
    }
}

/// Cache controls of a typed store: as [`load_cache`], with L1UC_L3WB on Xe2+ for
/// coherent and volatile images (docs/hardware/lsc-messages.md §9).
pub(crate) fn store_cache(device: &Device, q: ir::Access) -> CacheControl {
    if device.tgm_cache_control
        && (q.contains(ir::Access::COHERENT) || q.contains(ir::Access::VOLATILE))
    {
        uc_with(CacheOpt::Wb)
    } else {
        CacheControl::DEFAULT
    }
}

/// A planned typed load.
#[derive(Clone, Debug)]
pub(crate) struct TypedLoad {
    image: ImageRef,
    coord: Src,
    coord_comps: u8,
    /// The LOD coordinate (`None`: the constant 0).
    lod: Option<Src>,
    image_fmt: Format,
    lower_fmt: Format,
    /// Whether the shader converts colours (false: the message's data is the result).
    convert: bool,
    /// Channels the message reads.
    channels: u8,
    dest_comps: u8,
    cache: CacheControl,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
}

/// A planned typed store.
#[derive(Clone, Debug)]
pub(crate) struct TypedStore {
    image: ImageRef,
    coord: Src,
    coord_comps: u8,
    data: Src,
    image_fmt: Format,
    lower_fmt: Format,
    convert: bool,
    channels: u8,
    cache: CacheControl,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
}

/// Plans an `image_load`.
pub(crate) fn plan_load(
    a: &ImageAccess<'_>,
    ctx: &PlanCtx<'_>,
) -> Result<Route<TypedLoad>, LowerError> {
    let (device, options) = (ctx.device, ctx.options);
    let coord = a.check_coord()?;
    let lod = a.check_lod()?;
    let dest = a.dest.unwrap_or(Type::U32);
    if a.is_write_only() {
        return Err(a.error(LowerErrorKind::WriteOnlyLoad));
    }
    let cache = load_cache(device, a.qualifiers);
    let dest_comps = dest.num_components();
    if a.format == Format::None {
        if options.force_untyped {
            return Err(a.error(LowerErrorKind::FormatRequired(FormatUse::UntypedAddress)));
        }
        // The typed read of the view's own format, whose data is the result: the view
        // must be of a format the platform reads typed (`supports_typed_read`, isl's TR
        // column; every storage format from Gfx12.5), which is what Vulkan's
        // STORAGE_READ_WITHOUT_FORMAT format feature promises and anv sets from
        // `isl_format_supports_typed_reads` (`anv_formats.c`): Mesa 22.3's brw leaves
        // such a load alone on every generation (docs/hardware/mesa-storage-images.md §14).
        if dest.bit_size() != 32 || dest_comps > 4 {
            return Err(a.malformed(Malformation::LoadComponents { found: dest }));
        }
        return Ok(Route::Typed(TypedLoad {
            image: a.image,
            coord,
            coord_comps: a.coord_components(),
            lod,
            image_fmt: Format::None,
            lower_fmt: Format::None,
            convert: false,
            channels: dest_comps,
            dest_comps,
            cache,
            surface: SurfaceFormat::ViewFormat,
        }));
    }
    if options.force_untyped {
        return Ok(Route::Untyped(UntypedReason::Forced));
    }
    let lower = match storage_access(device, a.format).map_err(|e| a.format_error(e))? {
        StorageAccess::Raw(_) => return Ok(Route::Untyped(UntypedReason::NoTypedFormat)),
        StorageAccess::Typed(lower) => lower,
    };
    // IVB/BYT read R8/R16_UINT surfaces through the misaligned 32-bit typed read that
    // the conversion masks (docs/hardware/mesa-storage-images.md §3 notes).
    let ivb_quirk =
        device.is_gfx7_without_hsw() && matches!(lower, Format::R8Uint | Format::R16Uint);
    if !supports_typed_read(device, lower) && !ivb_quirk {
        return Err(a.error(LowerErrorKind::TypedUnsupported {
            write: false,
            surface: lower,
        }));
    }
    let message = Type::vec32(lower.num_channels());
    convert::check_load(a.format, lower, message, dest_comps)
        .map_err(|e| a.malformed(Malformation::Conversion(e)))?;
    if dest.bit_size() != a.format.data_bit_size() {
        return Err(a.malformed(Malformation::LoadBits {
            found: dest,
            format: a.format,
        }));
    }
    Ok(Route::Typed(TypedLoad {
        image: a.image,
        coord,
        coord_comps: a.coord_components(),
        lod,
        image_fmt: a.format,
        lower_fmt: lower,
        convert: true,
        channels: lower.num_channels(),
        dest_comps,
        cache,
        surface: SurfaceFormat::Typed(lower),
    }))
}

/// Plans an `image_store`.
pub(crate) fn plan_store(
    a: &ImageAccess<'_>,
    ctx: &PlanCtx<'_>,
) -> Result<Route<TypedStore>, LowerError> {
    let (device, options) = (ctx.device, ctx.options);
    let coord = a.check_coord()?;
    let data = a.srcs[1];
    let data_ty = a.src_types[1];
    let cache = store_cache(device, a.qualifiers);
    // Stores the hardware converts: format-less images (every storage format is
    // typed-writable from Gfx7, TW column) and non-64-bit stores to write-only images,
    // which Mesa leaves alone (docs/hardware/mesa-storage-images.md §2, §10).
    let native = |channels: u8, surface: SurfaceFormat| -> Result<Route<TypedStore>, LowerError> {
        if data_ty.bit_size() != 32 || data_ty.num_components() < channels {
            return Err(a.malformed(Malformation::StoreData {
                found: data_ty,
                channels,
            }));
        }
        Ok(Route::Typed(TypedStore {
            image: a.image,
            coord,
            coord_comps: a.coord_components(),
            data,
            image_fmt: a.format,
            lower_fmt: a.format,
            convert: false,
            channels,
            cache,
            surface,
        }))
    };
    if a.format == Format::None {
        if options.force_untyped {
            return Err(a.error(LowerErrorKind::FormatRequired(FormatUse::UntypedAddress)));
        }
        if data_ty.num_components() > 4 {
            return Err(a.malformed(Malformation::StoreChannels { found: data_ty }));
        }
        return native(data_ty.num_components(), SurfaceFormat::ViewFormat);
    }
    if options.force_untyped {
        return Ok(Route::Untyped(UntypedReason::Forced));
    }
    let is_r64 = matches!(a.format, Format::R64Uint | Format::R64Sint);
    if a.is_write_only() && !is_r64 {
        if !supports_typed_write(device, a.format) {
            return Err(a.error(LowerErrorKind::TypedUnsupported {
                write: true,
                surface: a.format,
            }));
        }
        return native(a.format.num_channels(), SurfaceFormat::Typed(a.format));
    }
    let lower = match storage_access(device, a.format).map_err(|e| a.format_error(e))? {
        StorageAccess::Raw(_) => return Ok(Route::Untyped(UntypedReason::NoTypedFormat)),
        StorageAccess::Typed(lower) => lower,
    };
    if !supports_typed_write(device, lower) {
        return Err(a.error(LowerErrorKind::TypedUnsupported {
            write: true,
            surface: lower,
        }));
    }
    convert::check_store(a.format, lower, data_ty)
        .map_err(|e| a.malformed(Malformation::Conversion(e)))?;
    Ok(Route::Typed(TypedStore {
        image: a.image,
        coord,
        coord_comps: a.coord_components(),
        data,
        image_fmt: a.format,
        lower_fmt: lower,
        convert: true,
        channels: lower.num_channels(),
        cache,
        surface: SurfaceFormat::Typed(lower),
    }))
}

impl TypedLoad {
    /// The message the load sends.
    pub(crate) fn message(&self) -> LscMessage {
        let shape = DataShape::quad(DataSize::D32, contiguous_mask(self.channels));
        LscMessage::new(LscOp::LoadQuad, &tgm_desc(shape, self.cache))
    }

    pub(crate) fn emit(self, func: &mut Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        let zero = ctx.zero(func);
        let mut b = ctx.builder(func, inst);
        let mut coords = typed_coords(self.coord, self.coord_comps, zero);
        if let Some(lod) = self.lod {
            coords[3] = lod;
        }
        let shape = DataShape::quad(DataSize::D32, contiguous_mask(self.channels));
        let data = b.lsc_load(
            &tgm_desc(shape, self.cache),
            Some(self.image),
            &coords,
            None,
        );
        let result = if self.convert {
            convert::load_color(
                &mut b,
                device,
                self.image_fmt,
                self.lower_fmt,
                Src::new(data),
                self.dest_comps,
            )
            .expect("conversion checked when planned")
        } else {
            Src::new(data)
        };
        ctx.finish(func, inst, result);
    }
}

impl TypedStore {
    /// The message the store sends.
    pub(crate) fn message(&self) -> LscMessage {
        let shape = DataShape::quad(DataSize::D32, contiguous_mask(self.channels));
        LscMessage::new(LscOp::StoreQuad, &tgm_desc(shape, self.cache))
    }

    pub(crate) fn emit(self, func: &mut Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        let zero = ctx.zero(func);
        let mut b = ctx.builder(func, inst);
        let coords = typed_coords(self.coord, self.coord_comps, zero);
        let data = if self.convert {
            convert::store_color(&mut b, device, self.image_fmt, self.lower_fmt, self.data)
                .expect("conversion checked when planned")
        } else {
            convert::trim(&b, self.data, self.channels)
        };
        let shape = DataShape::quad(DataSize::D32, contiguous_mask(self.channels));
        let mut srcs: SmallVec<[Src; 4]> = SmallVec::from_slice(&coords);
        srcs.push(data);
        func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
            op: IntrinsicOp::LscStoreQuad,
            image: Some(self.image),
            srcs,
            indices: tgm_desc(shape, self.cache).indices().into_iter().collect(),
        }));
    }
}
