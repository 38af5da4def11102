//! The `lower-images` pass: every image intrinsic becomes message intrinsics.
//!
//! As NIR's `nir_shader_instructions_pass`, the pass visits each instruction once and
//! hands image intrinsics to a per-intrinsic callback. It runs in two phases so that a
//! shader it cannot lower is left untouched: first every access is *planned* (which path,
//! which formats, which message; every error is found here), then the plans are
//! *emitted*. Emission builds the new code in front of the original instruction and
//! turns the original instruction into the last instruction of its replacement, so the
//! value it defines keeps its id and no use is rewritten: the pass is linear in the size
//! of the shader.
//!
//! Per access (image-lowering.md §2, §8, §10, §11):
//! - loads and stores take the typed path (`lsc_load_quad` / `lsc_store_quad` on TGM)
//!   when a typed format matches, converting colours between the image format and the
//!   lowered format the surface is bound with (see [`crate::typed`]);
//! - atomics become typed `lsc_atomic` messages (see [`crate::atomic`]);
//! - accesses without a matching typed format, 64-bit atomics and everything under
//!   [`LowerOptions::force_untyped`] need the untyped fallback, entered through one
//!   function (`plan_untyped`);
//! - under [`LowerOptions::readonly_via_sampler`], loads from read-only images become the
//!   sampler's `ld` / `ld_lz` (see [`crate::sampler`]), as IGC does for OpenCL;
//! - `image_size` reads the image parameter block, `image_samples` is 1;
//! - image block accesses become 2D block messages ([`crate::image_block`]).

use crate::address::AddressPlans;
use crate::atomic;
use crate::device::Device;
use crate::error::{FormatError, FormatErrorKind, LowerError, LowerErrorKind};
use crate::image_block;
use crate::sampler;
use crate::typed;
use crate::untyped;
use ir::function::InstKind;
use ir::passes::{Pass, PassError};
use ir::{
    AluInst, Builder, Cursor, Format, Function, ImageDecl, ImageDim, ImageId, ImageRef, IndexKind,
    Inst, IntrinsicClass, IntrinsicOp, Shader, Span, Src, Type, Value,
};
use smallvec::{smallvec, SmallVec};

/// Where untyped accesses find their memory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum UntypedAddress {
    /// A raw buffer view of the image bound at its binding-table index, addressed with
    /// 32-bit byte offsets (Mesa's Gfx7/8 raw path).
    #[default]
    Bti,
    /// 64-bit global addresses from the surface base (anv's 64-bit image atomics).
    A64,
}

/// Options of the lowering.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LowerOptions {
    /// Bounds-check untyped accesses against the image size (typed messages are
    /// bounds-checked by the hardware). Default: on.
    pub bounds_check: bool,
    /// Take the untyped path for every load, store and atomic, even where typed
    /// messages could be used.
    pub force_untyped: bool,
    /// The address model of untyped accesses.
    pub untyped_address: UntypedAddress,
    /// Route loads from read-only images through the sampler (`sampler_ld_lz`, or
    /// `sampler_ld` with a LOD), as IGC does for OpenCL; see [`crate::sampler`] for
    /// which loads qualify (the others take the normal path). It takes precedence over
    /// `force_untyped` for the loads it covers. Default: off.
    pub readonly_via_sampler: bool,
}

impl Default for LowerOptions {
    fn default() -> LowerOptions {
        LowerOptions {
            bounds_check: true,
            force_untyped: false,
            untyped_address: UntypedAddress::Bti,
            readonly_via_sampler: false,
        }
    }
}

/// The surface a driver must bind for an image the lowered shader accesses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SurfaceFormat {
    /// A typed surface of this format: the lowered format, or the image format itself
    /// where the hardware converts (write-only images).
    Typed(Format),
    /// A typed surface of whatever format the bound view has (format-less images).
    ViewFormat,
    /// An untyped (raw buffer) view of the image's memory.
    Raw,
}

/// One image the lowered shader accesses with messages, and how to bind it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImageBinding {
    /// The image.
    pub image: ImageId,
    /// Its name, without `@`.
    pub name: String,
    /// The surface to bind.
    pub surface: SurfaceFormat,
}

/// What the pass did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LowerReport {
    /// `image_load`s lowered to typed messages.
    pub typed_loads: usize,
    /// `image_store`s lowered to typed messages.
    pub typed_stores: usize,
    /// Atomics lowered to typed messages.
    pub typed_atomics: usize,
    /// Atomics guarded against unbound images (IVB/BYT).
    pub guarded_atomics: usize,
    /// `image_load`s lowered to untyped messages.
    pub untyped_loads: usize,
    /// `image_load`s lowered to sampler `ld` / `ld_lz` messages.
    pub sampler_loads: usize,
    /// `image_store`s lowered to untyped messages.
    pub untyped_stores: usize,
    /// Atomics lowered to untyped messages.
    pub untyped_atomics: usize,
    /// Of the untyped accesses, those using flat A64 addresses.
    pub a64_accesses: usize,
    /// `image_size`s read from the parameter block.
    pub sizes: usize,
    /// `image_samples` replaced by 1.
    pub samples: usize,
    /// `image_block_load`s lowered to 2D block messages.
    pub block_loads: usize,
    /// `image_block_store`s lowered to 2D block messages.
    pub block_stores: usize,
    /// The 2D block messages those took.
    pub block_messages: usize,
    /// The images accessed by messages, in declaration order, with their surfaces.
    pub bindings: Vec<ImageBinding>,
}

impl LowerReport {
    /// Number of instructions lowered.
    pub fn lowered(&self) -> usize {
        self.typed_loads
            + self.typed_stores
            + self.typed_atomics
            + self.untyped_loads
            + self.sampler_loads
            + self.untyped_stores
            + self.untyped_atomics
            + self.sizes
            + self.samples
            + self.block_loads
            + self.block_stores
    }
}

/// Lowers every image intrinsic of every function of `shader` for `device`.
///
/// On error the shader is unchanged and the first problem (in program order) is
/// returned; [`LowerImages`] reports all of them.
pub fn lower_images(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<LowerReport, LowerError> {
    lower_images_all(shader, device, options).map_err(|mut errors| errors.swap_remove(0))
}

/// [`lower_images`], reporting every access that cannot be lowered.
pub fn lower_images_all(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<LowerReport, Vec<LowerError>> {
    let subgroup_size = shader.subgroup_size;
    let Shader {
        images, functions, ..
    } = shader;
    let images: &[ImageDecl] = images;
    let mut ctx = PlanCtx {
        device,
        options,
        address_plans: AddressPlans::new(device),
    };
    let mut errors = Vec::new();
    let mut plans: Vec<Vec<(Inst, Plan)>> = Vec::with_capacity(functions.len());
    let mut used = vec![None; images.len()];
    for func in functions.iter() {
        let mut fplans = Vec::new();
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            if intr.op.info().class != IntrinsicClass::Image {
                continue;
            }
            let planned = ImageAccess::decode(func, inst, images, device, subgroup_size)
                .and_then(|access| plan(&access, &mut ctx).map(|p| (access, p)));
            match planned {
                Ok((access, p)) => {
                    if let Some(surface) = p.surface() {
                        used[access.image.image.index()] = Some(surface);
                    }
                    fplans.push((inst, p));
                }
                Err(e) => errors.push(e),
            }
        }
        plans.push(fplans);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut report = LowerReport::default();
    for (func, fplans) in functions.iter_mut().zip(plans) {
        let mut ctx = EmitCtx {
            zero: None,
            first_new_inst: func.num_inst_ids(),
        };
        for (inst, p) in fplans {
            p.count(&mut report);
            p.emit(func, inst, device, &mut ctx);
        }
    }
    report.bindings = used
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.map(|surface| ImageBinding {
                image: ImageId::from_u32(i as u32),
                name: images[i].name.clone(),
                surface,
            })
        })
        .collect();
    Ok(report)
}

/// The `lower-images` pass for a pass pipeline.
#[derive(Clone, Debug)]
pub struct LowerImages {
    /// The target.
    pub device: Device,
    /// The options.
    pub options: LowerOptions,
    /// What the last run did.
    pub report: Option<LowerReport>,
}

impl LowerImages {
    /// The pass for `device` with default options.
    pub fn new(device: Device) -> LowerImages {
        LowerImages::with_options(device, LowerOptions::default())
    }

    /// The pass for `device` with `options`.
    pub fn with_options(device: Device, options: LowerOptions) -> LowerImages {
        LowerImages {
            device,
            options,
            report: None,
        }
    }
}

impl Pass for LowerImages {
    fn name(&self) -> &'static str {
        "lower-images"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let lowered = lower_images_all(shader, &self.device, &self.options).map(|report| {
            let n = report.lowered();
            self.report = Some(report);
            n
        });
        crate::error::pass_outcome(self.name(), shader, lowered)
    }
}

/// Registers `lower-images` for `device` in a pass registry, so that pipelines such as
/// `-p lower-images,cleanup` can name it. `defaults` are the options when the pipeline
/// gives none; options written after the name override them:
/// `lower-images(force-untyped, bounds-check=false, untyped-address=a64,
/// readonly-via-sampler)`.
pub fn register_lower_images(
    registry: &mut ir::passes::PassRegistry,
    device: Device,
    defaults: LowerOptions,
) {
    registry.register(
        "lower-images",
        "lower image intrinsics to LSC typed messages (force-untyped, bounds-check=B, \
         untyped-address=bti|a64, readonly-via-sampler)",
        move |o: &ir::passes::PassOptions| {
            o.expect_only(&[
                "force-untyped",
                "bounds-check",
                "untyped-address",
                "readonly-via-sampler",
            ])?;
            let untyped_address = match o.string("untyped-address")? {
                None => defaults.untyped_address,
                Some("bti") => UntypedAddress::Bti,
                Some("a64") => UntypedAddress::A64,
                Some(other) => {
                    return Err(format!(
                        "untyped-address must be `bti` or `a64`, not `{other}`"
                    ))
                }
            };
            let options = LowerOptions {
                force_untyped: o.bool("force-untyped", defaults.force_untyped)?,
                bounds_check: o.bool("bounds-check", defaults.bounds_check)?,
                untyped_address,
                readonly_via_sampler: o
                    .bool("readonly-via-sampler", defaults.readonly_via_sampler)?,
            };
            Ok(Box::new(LowerImages::with_options(device.clone(), options)) as Box<dyn Pass>)
        },
    );
}

/// A decoded image intrinsic: what the callbacks plan from.
pub(crate) struct ImageAccess<'a> {
    pub op: IntrinsicOp,
    pub function: &'a str,
    pub span: Span,
    pub image: ImageRef,
    pub decl: &'a ImageDecl,
    pub dim: ImageDim,
    pub arrayed: bool,
    pub format: Format,
    /// The access qualifiers.
    pub qualifiers: ir::Access,
    pub srcs: SmallVec<[Src; 4]>,
    /// Types of `srcs` (what each reads).
    pub src_types: SmallVec<[Type; 4]>,
    pub dest: Option<Type>,
    /// The intrinsic's indices.
    pub indices: SmallVec<[u32; 6]>,
    /// The value of a source when it is a `load_const` (per source, component read).
    pub const_srcs: SmallVec<[Option<u64>; 4]>,
    pub platform: &'a str,
    /// The device.
    pub device: &'a Device,
    /// The shader's fixed subgroup size (block accesses spread their data over it).
    pub subgroup_size: Option<u32>,
}

impl<'a> ImageAccess<'a> {
    fn decode(
        func: &'a Function,
        inst: Inst,
        images: &'a [ImageDecl],
        device: &'a Device,
        subgroup_size: Option<u32>,
    ) -> Result<ImageAccess<'a>, LowerError> {
        let data = func.inst(inst);
        let intr = data.as_intrinsic().expect("caller checked");
        let span = func.inst_span(inst);
        let malformed = |image: Option<&ImageDecl>, message: String| LowerError {
            kind: LowerErrorKind::Malformed,
            function: Some(func.name.as_str().into()),
            intrinsic: Some(intr.op.name()),
            span,
            image: image.map(|d| d.name.as_str().into()),
            format: None,
            platform: device.name.as_str().into(),
            message,
        };
        let Some(image) = intr.image else {
            return Err(malformed(None, "the intrinsic names no image".into()));
        };
        let Some(decl) = images.get(image.image.index()) else {
            return Err(malformed(
                None,
                format!("image {} is not declared", image.image.index()),
            ));
        };
        let index = |k: IndexKind| intr.index(k);
        let dim = match index(IndexKind::ImageDim) {
            Some(v) => ImageDim::from_index(v)
                .ok_or_else(|| malformed(Some(decl), format!("bad image_dim index {v}")))?,
            None => decl.dim,
        };
        let arrayed = match index(IndexKind::ImageArray) {
            Some(v) => v != 0,
            None => decl.arrayed,
        };
        let format = match index(IndexKind::Format) {
            Some(v) => Format::from_index(v)
                .ok_or_else(|| malformed(Some(decl), format!("bad format index {v}")))?,
            None => decl.format,
        };
        let qualifiers = match index(IndexKind::Access) {
            Some(v) => ir::Access::from_bits(v)
                .ok_or_else(|| malformed(Some(decl), format!("bad access index {v}")))?,
            None => decl.access,
        };
        let defines = intr.op.info().dest != ir::DestInfo::None;
        if data.dest.is_some() != defines {
            return Err(malformed(
                Some(decl),
                format!(
                    "`{}` {} a value",
                    intr.op,
                    if defines {
                        "must define"
                    } else {
                        "cannot define"
                    }
                ),
            ));
        }
        // The required sources, then a prefix of the optional ones (the `lod` of
        // `image_load`); image intrinsics are never predicated.
        if intr
            .op
            .srcs_for_count(&intr.indices, intr.srcs.len())
            .is_none()
        {
            let counts = intr
                .op
                .srcs_description(&intr.indices)
                .unwrap_or_else(|| "sources its indices do not determine".into());
            return Err(malformed(
                Some(decl),
                format!("expected {counts}, found {}", intr.srcs.len()),
            ));
        }
        let src_types = intr.srcs.iter().map(|s| func.src_type(*s)).collect();
        let const_srcs = intr
            .srcs
            .iter()
            .map(|s| {
                let def = func.value_def(s.value)?;
                let c = func.inst(def).as_const()?;
                let comp = s.swizzle.component(0) as usize;
                (func.src_components(*s) == 1).then(|| c.get(comp).copied())?
            })
            .collect();
        Ok(ImageAccess {
            op: intr.op,
            function: &func.name,
            span,
            image,
            decl,
            dim,
            arrayed,
            format,
            qualifiers,
            srcs: intr.srcs.clone(),
            src_types,
            dest: data.dest.map(|v| func.value_type(v)),
            indices: intr.indices.clone(),
            const_srcs,
            platform: &device.name,
            device,
            subgroup_size,
        })
    }

    /// An error about this access.
    pub fn error(&self, kind: LowerErrorKind, message: impl Into<String>) -> LowerError {
        LowerError {
            kind,
            function: Some(self.function.into()),
            intrinsic: Some(self.op.name()),
            span: self.span,
            image: Some(self.decl.name.as_str().into()),
            format: Some(self.format),
            platform: self.platform.into(),
            message: message.into(),
        }
    }

    /// The error for a format the platform cannot store.
    pub fn format_error(&self, e: FormatError) -> LowerError {
        let kind = match e.kind {
            FormatErrorKind::NoFormat => LowerErrorKind::FormatRequired,
            FormatErrorKind::NotStorable => LowerErrorKind::UnsupportedFormat,
        };
        self.error(kind, e.to_string())
    }

    /// Number of coordinate components (NIR's `nir_image_intrinsic_coord_components`).
    pub fn coord_components(&self) -> u8 {
        self.dim.coord_components(self.arrayed)
    }

    /// Checks the dimension and the coordinate source (source 0).
    pub fn check_coord(&self) -> Result<Src, LowerError> {
        if self.arrayed && !self.dim.can_be_arrayed() {
            return Err(self.error(
                LowerErrorKind::UnsupportedDim,
                format!("{} images cannot be arrayed", self.dim),
            ));
        }
        let need = self.coord_components();
        let ty = self.src_types[0];
        if ty.bit_size() != 32 || ty.num_components() < need {
            return Err(self.error(
                LowerErrorKind::Malformed,
                format!(
                    "the coordinate is {ty}, a{} {} image needs 32x{need}",
                    if self.arrayed { "n arrayed" } else { "" },
                    self.dim
                ),
            ));
        }
        Ok(self.srcs[0])
    }

    /// The position of the `lod` source (NIR's `lod` of `image_load`), when the
    /// instruction has one.
    fn lod_position(&self) -> Option<usize> {
        let req = self.op.srcs(&self.indices)?.len();
        let k = self
            .op
            .optional_srcs()
            .iter()
            .position(|s| s.name == "lod")?;
        (req + k < self.srcs.len()).then_some(req + k)
    }

    /// The LOD when it is known when lowering: 0 without a LOD source, the constant a
    /// `load_const` LOD holds, `None` for a LOD computed at run time.
    pub fn const_lod(&self) -> Option<u64> {
        match self.lod_position() {
            None => Some(0),
            Some(k) => self.const_srcs[k].map(|v| v & 0xffff_ffff),
        }
    }

    /// The LOD source (relative to the view's base level; without one the LOD is 0),
    /// checked to be a 32-bit scalar.
    pub fn check_lod(&self) -> Result<Option<Src>, LowerError> {
        let Some(k) = self.lod_position() else {
            return Ok(None);
        };
        let ty = self.src_types[k];
        if ty != Type::U32 {
            return Err(self.error(
                LowerErrorKind::Malformed,
                format!("the LOD is {ty}, expected a 32-bit scalar"),
            ));
        }
        Ok(Some(self.srcs[k]))
    }

    /// Whether the image is declared `writeonly`.
    pub fn is_write_only(&self) -> bool {
        self.qualifiers.contains(ir::Access::NON_READABLE)
    }
}

/// Why an access needs the untyped path.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum UntypedReason {
    /// No typed format matches the image format (image-lowering.md §2).
    NoTypedFormat,
    /// [`LowerOptions::force_untyped`].
    Forced,
    /// A 64-bit atomic: A64 global atomics on a computed texel address (§9).
    Int64Atomic,
}

/// One run of the pass while it plans: the target, the options, and the address plans
/// made so far (owned by the run, for its one device).
pub(crate) struct PlanCtx<'r> {
    /// The target.
    pub device: &'r Device,
    /// The options.
    pub options: &'r LowerOptions,
    /// The untyped path's address plans.
    pub address_plans: AddressPlans<'r>,
}

/// The entry to the untyped fallback ([`crate::untyped`]: texel address from the
/// parameter block, bounds check, untyped messages): plans `access` through untyped
/// messages. It is the only place the decision reaches the fallback.
pub(crate) fn plan_untyped(
    access: &ImageAccess<'_>,
    reason: UntypedReason,
    ctx: &mut PlanCtx<'_>,
) -> Result<Plan, LowerError> {
    untyped::plan(access, reason, ctx).map(Plan::Untyped)
}

/// How one access is lowered.
#[derive(Clone, Debug)]
pub(crate) enum Plan {
    /// A typed load.
    Load(typed::TypedLoad),
    /// A typed store.
    Store(typed::TypedStore),
    /// A typed atomic.
    Atomic(atomic::TypedAtomic),
    /// An untyped load, store or atomic.
    Untyped(untyped::UntypedAccess),
    /// An image block load or store, as 2D block messages.
    Block(image_block::ImageBlock),
    /// A sampler `ld` / `ld_lz`.
    Sampler(sampler::SamplerLoad),
    /// `image_size` from the parameter block.
    Size {
        /// The image reference.
        image: ImageRef,
        /// Coordinate components of the image.
        coord_comps: u8,
        /// Result components.
        comps: u8,
        /// Whether the image is a cube (size.z counts faces).
        cube: bool,
    },
    /// `image_samples`: 1.
    Samples,
}

impl Plan {
    fn surface(&self) -> Option<SurfaceFormat> {
        match self {
            Plan::Load(l) => Some(l.surface),
            Plan::Store(s) => Some(s.surface),
            Plan::Atomic(a) => Some(a.surface),
            Plan::Untyped(u) => u.surface(),
            Plan::Block(b) => b.surface,
            Plan::Sampler(l) => Some(l.surface),
            Plan::Size { .. } | Plan::Samples => None,
        }
    }

    fn count(&self, r: &mut LowerReport) {
        match self {
            Plan::Load(_) => r.typed_loads += 1,
            Plan::Store(_) => r.typed_stores += 1,
            Plan::Atomic(a) => {
                r.typed_atomics += 1;
                if a.guard {
                    r.guarded_atomics += 1;
                }
            }
            Plan::Untyped(u) => {
                match u.kind() {
                    untyped::UntypedKind::Load => r.untyped_loads += 1,
                    untyped::UntypedKind::Store => r.untyped_stores += 1,
                    untyped::UntypedKind::Atomic => r.untyped_atomics += 1,
                }
                if u.is_a64() {
                    r.a64_accesses += 1;
                }
            }
            Plan::Block(b) => {
                if b.is_store() {
                    r.block_stores += 1;
                } else {
                    r.block_loads += 1;
                }
                r.block_messages += b.messages();
            }
            Plan::Sampler(_) => r.sampler_loads += 1,
            Plan::Size { .. } => r.sizes += 1,
            Plan::Samples => r.samples += 1,
        }
    }

    fn emit(self, func: &mut Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        match self {
            Plan::Load(l) => l.emit(func, inst, device, ctx),
            Plan::Store(s) => s.emit(func, inst, device, ctx),
            Plan::Atomic(a) => a.emit(func, inst, device, ctx),
            Plan::Untyped(u) => u.emit(func, inst, device, ctx),
            Plan::Block(b) => b.emit(func, inst, ctx),
            Plan::Sampler(l) => l.emit(func, inst, ctx),
            Plan::Size {
                image,
                coord_comps,
                comps,
                cube,
            } => emit_size(func, inst, ctx, image, coord_comps, comps, cube),
            Plan::Samples => {
                func.inst_mut(inst).kind = InstKind::LoadConst(smallvec![1]);
            }
        }
    }
}

/// Plans one image intrinsic.
fn plan(access: &ImageAccess<'_>, ctx: &mut PlanCtx<'_>) -> Result<Plan, LowerError> {
    match access.op {
        IntrinsicOp::ImageLoad => match sampler::plan(access, ctx.device, ctx.options)? {
            Some(p) => Ok(p),
            None => typed::plan_load(access, ctx),
        },
        IntrinsicOp::ImageStore => typed::plan_store(access, ctx),
        IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => atomic::plan(access, ctx),
        IntrinsicOp::ImageSize => plan_size(access),
        IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore => {
            image_block::plan(access, ctx.device).map(Plan::Block)
        }
        IntrinsicOp::ImageSamples => match access.dest {
            Some(t) if t == Type::U32 => Ok(Plan::Samples),
            other => Err(access.error(
                LowerErrorKind::Malformed,
                format!("image_samples defines {other:?}, expected a 32-bit scalar"),
            )),
        },
        other => Err(access.error(
            LowerErrorKind::Malformed,
            format!("`{other}` is not an image access the pass knows"),
        )),
    }
}

/// `image_size` from the parameter block's SIZE slot on every path: the IR has no
/// sampler RESINFO message, and the driver fills the block (image-lowering.md §7) for
/// every storage image, typed or not. Cubes report `z / 6` (NIR's `lower_cube_size`,
/// §11); components past the image's coordinates are 1.
fn plan_size(access: &ImageAccess<'_>) -> Result<Plan, LowerError> {
    if access.arrayed && !access.dim.can_be_arrayed() {
        return Err(access.error(
            LowerErrorKind::UnsupportedDim,
            format!("{} images cannot be arrayed", access.dim),
        ));
    }
    let comps = match access.dest {
        Some(t) if t.bit_size() == 32 && t.num_components() <= 4 => t.num_components(),
        other => {
            return Err(access.error(
                LowerErrorKind::Malformed,
                format!("image_size defines {other:?}, expected 32-bit with 1 to 4 components"),
            ))
        }
    };
    Ok(Plan::Size {
        image: access.image,
        coord_comps: access.coord_components(),
        comps,
        cube: access.dim == ImageDim::Cube,
    })
}

/// The parameter-block slot holding SIZE (dword offset 4, loaded with `base = 4 / 4`;
/// image-lowering.md §7).
pub(crate) const PARAM_SLOT_SIZE: u32 = 1;

fn emit_size(
    func: &mut Function,
    inst: Inst,
    ctx: &mut EmitCtx,
    image: ImageRef,
    coord_comps: u8,
    comps: u8,
    cube: bool,
) {
    let mut b = ctx.builder(func, inst);
    let size = b.image_load_param(image, PARAM_SLOT_SIZE, 3);
    let mut out: SmallVec<[Src; 4]> = SmallVec::new();
    for c in 0..comps {
        let v = if c < coord_comps.min(3) {
            if cube && c == 2 {
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

/// Per-function emission state.
pub(crate) struct EmitCtx {
    /// The function's shared constant 0 (unused typed coordinates, LOD).
    zero: Option<Value>,
    /// Instructions with ids from here on were created by this pass.
    first_new_inst: usize,
}

impl EmitCtx {
    /// A builder inserting in front of `inst`, giving new instructions its span.
    pub fn builder<'f>(&self, func: &'f mut Function, inst: Inst) -> Builder<'f> {
        let span = func.inst_span(inst);
        let mut b = Builder::new(func, Cursor::Before(inst));
        b.span = span;
        b
    }

    /// The function's shared 32-bit constant 0, placed at the start of its first block so
    /// that it dominates every use.
    pub fn zero(&mut self, func: &mut Function) -> Value {
        if let Some(z) = self.zero {
            return z;
        }
        let first = func
            .first_block(ir::CfParent::Root)
            .expect("a function body starts with a block");
        let mut b = Builder::new(func, Cursor::BlockStart(first));
        let z = b.imm_u32(0);
        self.zero = Some(z);
        z
    }

    /// Makes `inst` (the original intrinsic) define `result`: when `result` is the whole
    /// value of the instruction just emitted in front of `inst`, that instruction moves
    /// into `inst` (keeping `inst`'s value id); otherwise `inst` becomes a `mov`.
    pub fn finish(&self, func: &mut Function, inst: Inst, result: Src) {
        let dest = func
            .inst(inst)
            .dest
            .expect("a lowered value-defining intrinsic");
        let ty = func.value_type(dest);
        if result.swizzle.is_identity() && func.value_type(result.value) == ty {
            if let Some(def) = func.value_def(result.value) {
                // The instruction right before `inst`, created by this pass, has no uses
                // yet: everything emitted for this access comes before it.
                if def.index() >= self.first_new_inst && func.prev_inst(inst) == Some(def) {
                    let kind = std::mem::replace(&mut func.inst_mut(def).kind, InstKind::Undef);
                    func.remove_inst(def);
                    func.inst_mut(inst).kind = kind;
                    return;
                }
            }
        }
        func.inst_mut(inst).kind = InstKind::Alu(AluInst {
            op: ir::AluOp::Mov,
            srcs: smallvec![result],
        });
    }
}
