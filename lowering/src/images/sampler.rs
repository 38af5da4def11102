//! The sampler path: `image_load`s from read-only images as the sampler `ld` / `ld_lz`
//! (`intel-graphics-compiler/documentation/visa/instructions/3D_LOAD.md`), under
//! [`LowerOptions::readonly_via_sampler`].
//!
//! Mesa never reads storage images through the sampler; IGC routes loads from read-only
//! OpenCL images to the sampler's `ld`/`ld_lz` (docs/hardware/mesa-storage-images.md §11), whose caches
//! and format conversion serve them without the typed path's format lowering. This pass
//! does the same when asked.
//!
//! # Which loads
//!
//! A load from a sampled image (`sampled` access: a texture, bound for the sampler)
//! always takes this path; on a platform without a sampler, or for a format the sampler
//! cannot read, it is an error ([`LowerErrorKind::SamplerUnavailable`]), never a data
//! port read of a surface the driver bound for sampling. Any other `image_load` takes
//! this path when all of these hold; otherwise it takes the normal (typed or untyped)
//! path, never an error, since the option states a preference and the normal path
//! reads the same texels:
//!
//! * the option is on;
//! * the access qualifiers say `readonly` (`NON_WRITEABLE`) and not `writeonly`;
//! * they say neither `coherent` nor `volatile`: the sampler's caches are not coherent
//!   with stores made during the dispatch, which those qualifiers ask to see;
//! * the platform has a 3D sampler ([`Device::has_sampler`](crate::Device::has_sampler): not Xe-HPC, IGC's
//!   `hasSamplerSupport`): PVC reads read-only images with typed messages as IGC does;
//! * the sampler can read the format: every storage format but R64 (ISL's format table
//!   has no sampling support for `R64_PASSTHRU`, the surface format R64 images need;
//!   the executor's sampler rejects 64-bit formats too). Format-less images are read
//!   through a surface of the view's own format, which the sampler converts.
//!
//! [`LowerOptions::force_untyped`] only replaces typed messages, so it does not keep a
//! load that qualifies off the sampler.
//!
//! # The message
//!
//! * **Operation.** `ld_lz` (u, v, r) when the load has no LOD or a constant 0 LOD;
//!   `ld` (u, v, lod, r) otherwise, with the load's LOD, which is relative to the
//!   view's base level as the sampler's is. A sampled view reads its level `lod`; a
//!   LOD beyond its levels, and any non-zero LOD of a storage view (which has one
//!   level), reads 0 (the sampler's out-of-range rule), as the reference does.
//! * **Parameters per surface type**
//!   (`intel-graphics-compiler/documentation/visa/instructions/3D_LOAD.md`, u/v/r table): 1D: u =
//!   x; 1D array: u = x, v = array index; 2D: u = x, v = y; 2D array: u = x, v = y, r = array
//!   index; cubes and cube arrays, bound as 2D arrays as for every storage access: u = x, v = y, r
//!   = face (NIR's cube-array coordinate is already `6 · cube + face`); 3D: u, v, r = x, y, z;
//!   buffers (a buffer surface, which `ld` reads by element): u = x. Unused parameters are the
//!   constant 0; 1D surfaces ignore v and r.
//! * **Multisampled textures** (`ms`) are read as brw reads NIR's `txf_ms`: `ld_mcs`
//!   (u, v, r) gives the texel's multisample control surface value, and `ld2dms_w`
//!   (si, mcsl, mcsh, u, v, r) the sample `si` (the coordinate's last component)
//!   through it. A surface bound without an MCS reads 0 from `ld_mcs` and `ld2dms_w`
//!   then reads the sample's own slice, so the pair serves compressed and uncompressed
//!   surfaces alike, as anv assumes every multisampled texture may be compressed.
//!   IGC's finalizer takes `load_2dms_w` on every sampler platform from BDW on.
//! * **Channels and type.** The load's first `min(components, format channels)`
//!   channels (all it asks for when the format is unknown), none past the last one the
//!   shader reads (as brw sizes a texture message's response), with the format's data type
//!   as 32-bit `dest_type` (`float32` for float, UNORM and SNORM formats, `uint32`,
//!   `int32`; a format-less load keeps its own `dest_type`).
//! * **Conversion.** The surface is bound with the image format itself
//!   ([`SurfaceFormat::Typed`] of it; format-less images with the view's format), so the
//!   sampler converts texels exactly as typed reads of that format do (the executor's
//!   sampler and typed messages share one conversion): its 32-bit return format is the
//!   value `image_load` defines. What is left for the shader is the channels the message
//!   did not return: 0 for green and blue, 1 (1.0 for float formats) for alpha, the
//!   values a texel of a format without them reads as.
//!
//! vISA: `load_lz.R (M1, 16)  0x0:uw T6 v12.0 v10.0 v11.0` (the `visa` crate emits
//! it).

use super::access::ImageAccess;
use super::context::EmitCtx;
use crate::convert;
use crate::device::Device;
use crate::error::{FormatProblem, LowerError, LowerErrorKind, Malformation};
use crate::options::LowerOptions;
use crate::report::SurfaceFormat;
use ir::{AluType, Format, Function, ImageDim, ImageRef, Inst, IntrinsicOp, Src, Type};

/// A planned sampler load.
#[derive(Clone, Debug)]
pub(crate) struct SamplerLoad {
    image: ImageRef,
    coord: Src,
    dim: ImageDim,
    arrayed: bool,
    /// The LOD of an `ld`; `None` for `ld_lz`.
    lod: Option<Src>,
    /// The image format (for the channels the message does not return).
    format: Format,
    /// Channels the message returns, from R.
    channels: u8,
    dest_type: AluType,
    dest_comps: u8,
    /// The surface the driver binds.
    pub surface: SurfaceFormat,
}

/// Whether the sampler can read surfaces of `format` (ISL's sampling column: every
/// storage format but R64, whose surface format `R64_PASSTHRU` cannot be sampled).
pub fn sampler_reads_format(format: Format) -> bool {
    !matches!(format, Format::R64Uint | Format::R64Sint)
}

/// Whether `a` (an `image_load`) goes through the sampler on `device` with `options`
/// (see the module documentation).
pub(crate) fn wants_sampler(a: &ImageAccess<'_>, device: &Device, options: &LowerOptions) -> bool {
    let q = a.qualifiers;
    if a.op == IntrinsicOp::ImageLoad && q.contains(ir::Access::SAMPLED) {
        return true;
    }
    options.readonly_via_sampler
        && a.op == IntrinsicOp::ImageLoad
        && q.contains(ir::Access::NON_WRITEABLE)
        && !q.contains(ir::Access::NON_READABLE)
        && !q.contains(ir::Access::COHERENT)
        && !q.contains(ir::Access::VOLATILE)
        && device.has_sampler
        && sampler_reads_format(a.format)
}

/// Plans `a` through the sampler; `Ok(None)` when it takes the normal path.
pub(crate) fn plan(
    a: &ImageAccess<'_>,
    device: &Device,
    options: &LowerOptions,
) -> Result<Option<SamplerLoad>, LowerError> {
    if !wants_sampler(a, device, options) {
        return Ok(None);
    }
    if a.qualifiers.contains(ir::Access::SAMPLED) {
        // A sampled image is bound for the sampler: no other path may read it.
        if !device.has_sampler {
            return Err(a.error(LowerErrorKind::SamplerUnavailable { format: None }));
        }
        if !sampler_reads_format(a.format) {
            return Err(a.error(LowerErrorKind::SamplerUnavailable {
                format: Some(a.format),
            }));
        }
    }
    let coord = a.check_coord()?;
    let lod = a.check_lod()?;
    let dest = a.dest.unwrap_or(Type::U32);
    let dest_comps = dest.num_components();
    if dest.bit_size() != 32 || !(1..=4).contains(&dest_comps) {
        return Err(a.malformed(Malformation::LoadComponents { found: dest }));
    }
    let (channels, dest_type, surface) = if a.format == Format::None {
        let t =
            a.op.index_position(ir::IndexKind::DestType)
                .and_then(|p| a.indices.get(p))
                .and_then(|&v| AluType::from_index(v))
                .filter(|t| t.bits == 32)
                .ok_or_else(|| a.malformed(Malformation::FormatlessDestType))?;
        (dest_comps, t, SurfaceFormat::ViewFormat)
    } else {
        let base = a.format.data_base_type().ok_or_else(|| {
            a.error(LowerErrorKind::UnsupportedFormat(Box::new(
                FormatProblem::NoDataType { format: a.format },
            )))
        })?;
        (
            dest_comps.min(a.format.num_channels()),
            AluType::new(base, 32),
            SurfaceFormat::Typed(a.format),
        )
    };
    // The sampler returns no channel past the last one the shader reads (brw's
    // response length from the texture's components read).
    let read = 16 - (a.dest_read & ((1 << dest_comps) - 1)).leading_zeros() as u8;
    let channels = channels.min(read.max(1));
    // ld_lz when the LOD is known to be 0, ld with the LOD otherwise.
    let lod = if a.const_lod() == Some(0) { None } else { lod };
    Ok(Some(SamplerLoad {
        image: a.image,
        coord,
        dim: a.dim,
        arrayed: a.arrayed,
        lod,
        format: a.format,
        channels,
        dest_type,
        dest_comps,
        surface,
    }))
}

/// The u, v, r parameters of a sampler message at `coord` on a surface of `dim`
/// (`arrayed`), per surface type, unused ones `zero`: the same for `ld`/`ld_lz`
/// (`intel-graphics-compiler/documentation/visa/instructions/3D_LOAD.md`) and
/// `sample_l` (`3D_SAMPLE.md`), so both messages take them from here.
pub(super) fn uvr(coord: Src, dim: ImageDim, arrayed: bool, zero: Src) -> [Src; 3] {
    let c = |i: u8| coord.component(i);
    match (dim, arrayed) {
        (ImageDim::D1, false) | (ImageDim::Buffer, _) => [c(0), zero, zero],
        (ImageDim::D1, true) | (ImageDim::D2 | ImageDim::Ms, false) => [c(0), c(1), zero],
        (ImageDim::D2 | ImageDim::Ms, true) | (ImageDim::Cube, _) | (ImageDim::D3, _) => {
            [c(0), c(1), c(2)]
        }
    }
}

impl SamplerLoad {
    pub(crate) fn emit(self, func: &mut Function, inst: Inst, ctx: &mut EmitCtx) {
        let zero = Src::new(ctx.zero(func));
        let mut b = ctx.builder(func, inst);
        let [u, v, r] = uvr(self.coord, self.dim, self.arrayed, zero);
        let (op, srcs) = match self.lod {
            _ if self.dim == ImageDim::Ms => {
                // brw's txf_ms: the texel's MCS value first, then the sample through
                // it (a surface without an MCS reads 0 and ld2dms_w ignores it).
                let si = self
                    .coord
                    .component(self.dim.coord_components(self.arrayed) - 1);
                let mcs = b
                    .intrinsic(
                        IntrinsicOp::SamplerLdMcs,
                        Some(self.image),
                        &[u, v, r],
                        &[0b11],
                        Some(Type::vec32(2)),
                    )
                    .expect("ld_mcs defines a value");
                let (lo, hi) = (Src::channel(mcs, 0), Src::channel(mcs, 1));
                (IntrinsicOp::SamplerLd2dmsW, vec![si, lo, hi, u, v, r])
            }
            Some(lod) => (IntrinsicOp::SamplerLd, vec![u, v, lod, r]),
            None => (IntrinsicOp::SamplerLdLz, vec![u, v, r]),
        };
        let mask = (1u32 << self.channels) - 1;
        let data = b
            .intrinsic(
                op,
                Some(self.image),
                &srcs,
                &[mask, self.dest_type.to_index()],
                Some(Type::vec32(self.channels)),
            )
            .expect("sampler loads define a value");
        let result = convert::expand(&mut b, self.format, Src::new(data), self.dest_comps);
        ctx.finish(func, inst, result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::lower_images;

    fn lower(
        decl: &str,
        load: &str,
        platform: &str,
        options: LowerOptions,
    ) -> (crate::LowerReport, ir::Shader) {
        let text = format!(
            "shader compute (local_size=8,8,1)\n{decl}\n\nfn main {{\n  block b0:\n    \
             32x3 %0 = @load_global_invocation_id\n    32x2 %1 = mov %0.xy\n    {load}\n}}\n"
        );
        let mut sh = ir::parse_shader(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let dev = Device::preset(platform).unwrap();
        let r = lower_images(&mut sh, &dev, &options).unwrap_or_else(|e| panic!("{e}"));
        (r, sh)
    }

    fn on() -> LowerOptions {
        LowerOptions {
            readonly_via_sampler: true,
            ..LowerOptions::default()
        }
    }

    #[test]
    fn the_sampler_reads_every_storage_format_but_r64() {
        let unreadable: Vec<Format> = Format::ALL
            .iter()
            .copied()
            .filter(|f| !sampler_reads_format(*f))
            .collect();
        assert_eq!(unreadable, [Format::R64Uint, Format::R64Sint]);
    }

    #[test]
    fn which_loads_take_the_sampler() {
        let load = "32 %2 = @image_load (@img, %1) (dest_type=float32)";
        // (access qualifiers, platform, option, goes through the sampler)
        let cases: &[(&str, &str, bool, bool)] = &[
            ("readonly", "skl", true, true),
            ("readonly", "ivb", true, true),
            ("readonly", "bmg", true, true),
            ("readonly", "pvc", true, false),
            ("readonly", "skl", false, false),
            ("", "skl", true, false),
            ("readonly coherent", "skl", true, false),
            ("readonly volatile", "dg2", true, false),
            ("readonly restrict", "dg2", true, true),
        ];
        for &(access, platform, option, sampler) in cases {
            let decl = format!("image @img : 2d r32_float {access} (binding=0)");
            let options = LowerOptions {
                readonly_via_sampler: option,
                ..LowerOptions::default()
            };
            let (r, _) = lower(&decl, load, platform, options);
            assert_eq!(
                r.sampler_loads,
                usize::from(sampler),
                "{access} on {platform}, option {option}"
            );
            assert_eq!(r.lowered(), 1, "{access} on {platform}");
            let surface = r.bindings[0].surface;
            if sampler {
                assert_eq!(surface, SurfaceFormat::Typed(Format::R32Float));
            }
        }
    }

    #[test]
    fn force_untyped_leaves_the_sampler_its_loads() {
        let decl = "image @img : 2d rgba8_unorm readonly (binding=0)";
        let load = "32x4 %2 = @image_load (@img, %1) (dest_type=float32)";
        let options = LowerOptions {
            force_untyped: true,
            ..on()
        };
        let (r, _) = lower(decl, load, "skl", options);
        assert_eq!((r.sampler_loads, r.untyped_loads), (1, 0));
        let (r, _) = lower(decl, load, "pvc", options);
        assert_eq!((r.sampler_loads, r.untyped_loads), (0, 1));
    }

    #[test]
    fn the_response_ends_at_the_last_channel_read() {
        // Reads of .x alone, of .y (x comes with it), and of the whole vector.
        for (reads, channels) in [
            ("32 %3 = iadd %2.x, %2.x", "channels=r,"),
            ("32 %3 = iadd %2.y, %2.y", "channels=rg,"),
            ("32x4 %3 = iadd %2, %2", "channels=rgba,"),
        ] {
            let (_, sh) = lower(
                "image @img : 2d rgba8_unorm readonly sampled (binding=0)",
                &format!("32x4 %2 = @image_load (@img, %1) (dest_type=float32)\n    {reads}"),
                "skl",
                on(),
            );
            let text = ir::print_shader(&sh);
            assert!(text.contains(channels), "{reads}: {text}");
        }
    }

    #[test]
    fn r64_and_formatless_images() {
        let (r, _) = lower(
            "image @img : 2d r64_uint readonly (binding=0)",
            "64 %2 = @image_load (@img, %1) (dest_type=uint64)",
            "skl",
            on(),
        );
        assert_eq!((r.sampler_loads, r.typed_loads), (0, 1));
        // A format-less image is read through a surface of the view's format on every
        // platform with a sampler, also where typed reads would need the format (IVB).
        let (r, sh) = lower(
            "image @img : 2d unknown readonly (binding=0)",
            "32x2 %2 = @image_load (@img, %1) (dest_type=int32)\n    32x2 %3 = iadd %2, %2",
            "ivb",
            on(),
        );
        assert_eq!(r.sampler_loads, 1);
        assert_eq!(r.bindings[0].surface, SurfaceFormat::ViewFormat);
        let text = ir::print_shader(&sh);
        assert!(
            text.contains("@sampler_ld_lz (@img, %1.x, %1.y, ")
                && text.contains("(channels=rg, dest_type=int32)"),
            "{text}"
        );
    }

    #[test]
    fn malformed_loads_are_errors() {
        let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_float readonly (binding=0)

fn main {
  block b0:
    32x2 %0 = load_const (0, 0)
    64 %1 = load_const (0)
    32 %2 = @image_load (@img, %0, %1) (dest_type=float32)
}
";
        let mut sh = ir::parse_shader(text).unwrap();
        let e = lower_images(&mut sh, &Device::preset("skl").unwrap(), &on()).unwrap_err();
        assert!(
            matches!(
                e.kind,
                LowerErrorKind::Malformed(Malformation::Lod { found }) if found == ir::Type::U64
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("the LOD is 64, expected a 32-bit scalar"),
            "{e}"
        );
        assert!(e.to_string().contains("@image_load"), "{e}");
    }
}
