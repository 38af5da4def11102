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
//! Per access (docs/hardware/mesa-storage-images.md §2, §8, §10, §11):
//! - loads and stores take the typed path (`lsc_load_quad` / `lsc_store_quad` on TGM)
//!   when a typed format matches, converting colours between the image format and the
//!   lowered format the surface is bound with (`typed.rs`);
//! - atomics become typed `lsc_atomic` messages (`atomic.rs`); the float atomics the
//!   device lacks on 32-bit texels first become compare-and-swap loops
//!   (`crate::atomic_loop`), whose load and exchange are then planned as any access;
//! - accesses without a matching typed format, 64-bit atomics, accesses to
//!   multisampled storage images (typed messages reach no sample before Xe3's MSRT
//!   messages) and everything under [`LowerOptions::force_untyped`] need the untyped
//!   fallback (`untyped.rs`). The typed
//!   planners never enter it: each returns a typed plan or the reason the access must
//!   be untyped (`context::Route`), and only the dispatcher below picks the path;
//! - under [`LowerOptions::readonly_via_sampler`], loads from read-only images become the
//!   sampler's `ld` / `ld_lz` (`sampler.rs`), as IGC does for OpenCL;
//! - `image_size` and `image_levels` of sampled images become the sampler's `resinfo`
//!   where there is a sampler; otherwise `image_size` reads the image parameter block
//!   and `image_levels` of a storage view is 1; `image_samples` is 1, or a
//!   multisampled storage image's `SAMPLES` parameter (`size.rs`);
//! - image block accesses become 2D block messages (`block.rs`);
//! - `txl` (filtered sampling) becomes the sampler's `sample_l` (`filtered.rs`).
//!
//! The files: `access.rs` decodes an intrinsic for the planners, `context.rs` holds the
//! state one run shares; the options and the report are the crate's ([`LowerOptions`],
//! [`LowerReport`]). This file is the pass and the dispatcher.

mod access;
mod atomic;
mod block;
mod context;
mod filtered;
mod sampler;
mod size;
mod typed;
mod untyped;

pub use atomic::{atomic_cache, lsc_op_for_atomic};
pub use sampler::sampler_reads_format;

use crate::address::AddressPlans;
use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind, Malformation};
use crate::messages::dataport::plan_legacy;
use crate::messages::LscMessage;
use crate::options::{LowerOptions, UntypedAddress};
use crate::report::{ImageBinding, LowerReport, SurfaceFormat};
use access::ImageAccess;
use context::{EmitCtx, PlanCtx, Route, UntypedReason};
use ir::passes::{Pass, PassError};
use ir::{ImageDecl, ImageDim, ImageId, Inst, IntrinsicClass, IntrinsicOp, Shader};

/// Lowers every image intrinsic of every function of `shader` for `device`. On a
/// device without LSC the messages are then the legacy data port's
/// ([`crate::lower_dataport`]).
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
    // The messages the shader holds already must have legacy forms without LSC; where
    // they do not, the accesses are planned on a copy, so the shader stays as it was.
    let plans = match crate::dataport::check_input(shader, device) {
        Ok(()) => emulate_and_plan(shader, device, options)?,
        Err(mut errors) => {
            let planned = emulate_and_plan(&mut shader.clone(), device, options);
            let mut all = planned.err().unwrap_or_default();
            all.append(&mut errors);
            return Err(all);
        }
    };
    let report = emit_shader(shader, plans, device);
    crate::dataport::lower_dataport(shader, device)?;
    Ok(report)
}

/// The plans of every image access of a shader, made before anything is emitted.
pub(crate) struct ShaderPlans {
    /// Per function, the accesses and their plans, in program order.
    plans: Vec<Vec<(Inst, Plan)>>,
    /// Per declared image, the surface its messages need, if any.
    surfaces: Vec<Option<SurfaceFormat>>,
}

/// Rewrites the float atomics of `shader` the device lacks as compare-and-swap loops
/// (`crate::atomic_loop`), then plans every image access. Where some access cannot be
/// lowered, the shader is left as it was and the errors are those of its own accesses:
/// a loop's load and exchange fail only where the atomic itself cannot be lowered
/// either, and the error then names the atomic, as the shader wrote it.
pub(crate) fn emulate_and_plan(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<ShaderPlans, Vec<LowerError>> {
    if !crate::atomic_loop::images_needed(shader, device) {
        return plan_shader(shader, device, options);
    }
    let original = shader.clone();
    crate::atomic_loop::emulate_images(shader, device);
    plan_shader(shader, device, options).map_err(|loop_errors| {
        *shader = original;
        plan_shader(shader, device, options)
            .err()
            .unwrap_or(loop_errors)
    })
}

/// Plans every image access of `shader` (nothing is changed): the plans, or every
/// access that cannot be lowered.
pub(crate) fn plan_shader(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<ShaderPlans, Vec<LowerError>> {
    let images: &[ImageDecl] = &shader.images;
    let mut ctx = PlanCtx {
        device,
        options,
        address_plans: AddressPlans::new(device),
        surfaces: vec![None; images.len()],
    };
    // Each plan and error with its function and position in program order.
    let mut errors: Vec<((usize, usize), LowerError)> = Vec::new();
    let mut plans: Vec<Vec<(usize, Inst, Plan)>> = Vec::with_capacity(shader.functions.len());
    // Sizes are planned last: a storage image's size comes from the surface its other
    // accesses bind when that is a typed one (see `size`).
    let mut sizes: Vec<(usize, usize, Inst, u16)> = Vec::new();
    for (fi, func) in shader.functions.iter().enumerate() {
        let mut fplans = Vec::new();
        let read = func.components_read();
        for (pos, inst) in func.insts_in_order().into_iter().enumerate() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            if intr.op.info().class != IntrinsicClass::Image {
                continue;
            }
            let dest_read = func.inst(inst).dest.map_or(0, |d| read[d.index()]);
            if intr.op == IntrinsicOp::ImageSize {
                sizes.push((fi, pos, inst, dest_read));
                continue;
            }
            plan_one(
                shader,
                (fi, pos),
                inst,
                dest_read,
                &mut ctx,
                &mut fplans,
                &mut errors,
            );
        }
        plans.push(fplans);
    }
    for (fi, pos, inst, dest_read) in sizes {
        plan_one(
            shader,
            (fi, pos),
            inst,
            dest_read,
            &mut ctx,
            &mut plans[fi],
            &mut errors,
        );
    }
    if errors.is_empty() {
        // The sizes back in program order.
        let plans = plans
            .into_iter()
            .map(|mut fplans| {
                fplans.sort_by_key(|&(pos, _, _)| pos);
                fplans.into_iter().map(|(_, inst, p)| (inst, p)).collect()
            })
            .collect();
        Ok(ShaderPlans {
            plans,
            surfaces: ctx.surfaces,
        })
    } else {
        errors.sort_by_key(|&(at, _)| at);
        Err(errors.into_iter().map(|(_, e)| e).collect())
    }
}

/// Plans the image access `inst` of function `fi`, whose result's components
/// `dest_read` are read, into `fplans` or `errors`.
fn plan_one(
    shader: &Shader,
    (fi, pos): (usize, usize),
    inst: Inst,
    dest_read: u16,
    ctx: &mut PlanCtx<'_>,
    fplans: &mut Vec<(usize, Inst, Plan)>,
    errors: &mut Vec<((usize, usize), LowerError)>,
) {
    let func = &shader.functions[fi];
    let planned = ImageAccess::decode(func, inst, &shader.images, ctx.device, shader.subgroup_size)
        .and_then(|mut access| {
            access.dest_read = dest_read;
            plan(&access, ctx).map(|p| (access, p))
        });
    match planned {
        Ok((access, p)) => {
            if let Some(surface) = p.surface() {
                ctx.surfaces[access.image.image.index()] = Some(surface);
            }
            fplans.push((pos, inst, p));
        }
        Err(e) => errors.push(((fi, pos), e)),
    }
}

/// Emits the plans of [`plan_shader`] into `shader`, which must be the shader they were
/// made for.
pub(crate) fn emit_shader(shader: &mut Shader, plans: ShaderPlans, device: &Device) -> LowerReport {
    let mut report = LowerReport::default();
    for (func, fplans) in shader.functions.iter_mut().zip(plans.plans) {
        let mut ctx = EmitCtx::new(func);
        for (inst, p) in fplans {
            p.count(&mut report);
            p.emit(func, inst, device, &mut ctx);
        }
    }
    report.bindings = plans
        .surfaces
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| {
            s.map(|surface| ImageBinding {
                image: ImageId::from_u32(i as u32),
                name: shader.images[i].name.clone(),
                surface,
            })
        })
        .collect();
    report
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
                ..defaults
            };
            Ok(Box::new(LowerImages::with_options(device.clone(), options)) as Box<dyn Pass>)
        },
    );
}

/// How one access is lowered.
#[derive(Clone, Debug)]
enum Plan {
    /// A typed load.
    Load(typed::TypedLoad),
    /// A typed store.
    Store(typed::TypedStore),
    /// A typed atomic.
    Atomic(atomic::TypedAtomic),
    /// An untyped load, store or atomic.
    Untyped(untyped::UntypedAccess),
    /// An image block load or store, as 2D block messages.
    Block(block::ImageBlock),
    /// A sampler `ld` / `ld_lz`.
    Sampler(sampler::SamplerLoad),
    /// A `txl` as the sampler's `sample_l`.
    Filtered(filtered::SampleL),
    /// `image_size` or `image_levels`: from the parameter block, the sampler's
    /// `resinfo`, or the constant 1.
    Query(size::Query),
    /// `image_samples`: 1, or a multisampled storage image's count.
    Samples(size::Samples),
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
            Plan::Filtered(l) => Some(l.surface),
            Plan::Query(q) => q.surface(),
            // The parameter block is the image's own: no surface to bind.
            Plan::Samples(_) => None,
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
            Plan::Filtered(_) => r.sampler_samples += 1,
            Plan::Query(size::Query::Resinfo(_)) => r.sampler_queries += 1,
            Plan::Query(size::Query::Param(_)) => r.sizes += 1,
            Plan::Query(size::Query::OneLevel) => r.levels += 1,
            Plan::Samples(_) => r.samples += 1,
        }
    }

    /// The LSC messages the plan sends, where one device may need them in another form
    /// (the legacy data port's): typed and untyped accesses.
    fn messages(&self) -> Vec<LscMessage> {
        match self {
            Plan::Load(l) => vec![l.message()],
            Plan::Store(s) => vec![s.message()],
            Plan::Atomic(a) => vec![a.message()],
            Plan::Untyped(u) => vec![u.message()],
            Plan::Block(_)
            | Plan::Sampler(_)
            | Plan::Filtered(_)
            | Plan::Query(_)
            | Plan::Samples(_) => Vec::new(),
        }
    }

    fn emit(self, func: &mut ir::Function, inst: Inst, device: &Device, ctx: &mut EmitCtx) {
        match self {
            Plan::Load(l) => l.emit(func, inst, device, ctx),
            Plan::Store(s) => s.emit(func, inst, device, ctx),
            Plan::Atomic(a) => a.emit(func, inst, device, ctx),
            Plan::Untyped(u) => u.emit(func, inst, device, ctx),
            Plan::Block(b) => b.emit(func, inst, ctx),
            Plan::Sampler(l) => l.emit(func, inst, ctx),
            Plan::Filtered(l) => l.emit(func, inst, ctx),
            Plan::Query(q) => q.emit(func, inst, ctx),
            Plan::Samples(q) => q.emit(func, inst, ctx),
        }
    }
}

/// The dispatcher: plans one image intrinsic, choosing its path. The typed planners
/// return a plan or the reason the access must be untyped; this is the only place that
/// sends an access down the untyped path.
fn plan(access: &ImageAccess<'_>, ctx: &mut PlanCtx<'_>) -> Result<Plan, LowerError> {
    if !ctx.device.storage_images {
        return Err(access.error(LowerErrorKind::NoStorageImages {
            gen: ctx.device.gen,
        }));
    }
    // The declaration's qualifiers count too: `sampled` is a property of the binding.
    let sampled = (access.qualifiers | access.decl.access).contains(ir::Access::SAMPLED);
    let ms_storage = access.dim == ImageDim::Ms && !sampled;
    let routed = match access.op {
        IntrinsicOp::ImageLoad
        | IntrinsicOp::ImageStore
        | IntrinsicOp::ImageAtomic
        | IntrinsicOp::ImageAtomicSwap
            if ms_storage =>
        {
            Route::Untyped(UntypedReason::Multisampled)
        }
        IntrinsicOp::ImageLoad => {
            if let Some(s) = sampler::plan(access, ctx.device, ctx.options)? {
                return Ok(Plan::Sampler(s));
            }
            typed::plan_load(access, ctx)?.map(Plan::Load)
        }
        IntrinsicOp::ImageStore => typed::plan_store(access, ctx)?.map(Plan::Store),
        IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => {
            atomic::plan(access, ctx)?.map(Plan::Atomic)
        }
        IntrinsicOp::Txl | IntrinsicOp::Tg4 => {
            return filtered::plan(access, ctx.device).map(Plan::Filtered)
        }
        IntrinsicOp::ImageSize => return size::plan_size(access, ctx).map(Plan::Query),
        IntrinsicOp::ImageLevels => return size::plan_levels(access, ctx.device).map(Plan::Query),
        IntrinsicOp::ImageSamples => return size::plan_samples(access).map(Plan::Samples),
        IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore => {
            return block::plan(access, ctx.device).map(Plan::Block)
        }
        op => return Err(access.malformed(Malformation::NotAnImageAccess { op })),
    };
    let p = match routed {
        Route::Typed(p) => p,
        Route::Untyped(reason) => untyped::plan(access, reason, ctx).map(Plan::Untyped)?,
    };
    check_legacy(access, ctx.device, &p)?;
    Ok(p)
}

/// Without LSC, the messages of `p` must have legacy data-port forms: the
/// `lower-dataport` rewrite that follows emission must not fail.
fn check_legacy(access: &ImageAccess<'_>, device: &Device, p: &Plan) -> Result<(), LowerError> {
    let Some(caps) = &device.dataport else {
        return Ok(());
    };
    for m in p.messages() {
        plan_legacy(caps, &device.name, &m)
            .map_err(|rule| access.error(LowerErrorKind::NoDataportMessage(Box::new(rule))))?;
    }
    Ok(())
}
