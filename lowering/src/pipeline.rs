//! [`lower_shader`]: the one definition of the default pipeline, the entry point a
//! driver calls.
//!
//! The pipeline is `lower-compute-system-values` (a workgroup one invocation wide in a
//! dimension has local ID 0 there) and the IR's `optimize` loop (Intel's
//! `brw_nir_optimize`: loops of constant trip count unrolled, small `if`s flattened,
//! dead code and control flow removed, before any image access is lowered, as Mesa
//! optimizes before `brw_nir_lower_storage_image`; then `opt-idiv-const` and
//! `opt-load-store-vectorize`, as brw follows its loop with them), `lower-non-uniform-access` (a loop over the distinct
//! indices of each `non_uniform` image access, as NIR's `nir_lower_non_uniform_access`
//! runs before the driver lowers images), `lower-float-atomics` (the float atomics of
//! memory the platform lacks as compare-and-swap loops, [`crate::atomic_loop`]),
//! `lower-images`, `lower-async-copies`, then
//! the IR's `cleanup` loop ([`PIPELINE`]), the list `ir-opt -O` and the verifier run
//! too. On platforms without LSC, `lower-images` and `lower-async-copies` each end
//! with the `lower-dataport` rewrite ([`crate::dataport`]), so that the shader never
//! holds an LSC message there. The stages stay passes of their own for custom
//! pipelines (`ir-opt -p`, a [`ir::passes::PassManager`]), sharing this code.
//!
//! The lowering requires a valid shader: [`lower_shader`] runs the validator once, first,
//! and reports what it finds as [`LowerErrorKind::InvalidShader`] errors. It then
//! optimizes and lowers a copy, planning every image access and every group async copy
//! before changing anything else, so a shader with any access that cannot be lowered is
//! left as it was, with every such access reported.

use crate::async_copy;
use crate::dataport;
use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind};
use crate::images;
use crate::options::LowerOptions;
use crate::report::LowerReport;
use ir::diag::Diagnostic;
use ir::passes::cleanup::{Cleanup, DEFAULT_MAX_ITERATIONS, DEFAULT_OPTIMIZE_ITERATIONS};
use ir::passes::Pass;
use ir::passes::{LowerComputeSystemValues, LowerNonUniformAccess};
use ir::Shader;

/// The stages of the default pipeline, in order, as the pass registry names them.
pub const PIPELINE: [&str; 6] = [
    "optimize",
    "lower-non-uniform-access",
    "lower-float-atomics",
    "lower-images",
    "lower-async-copies",
    "cleanup",
];

/// Lowers `shader` for `device`: every image intrinsic and group async copy becomes
/// messages, then the cleanup loop tightens the address code. Returns what a driver
/// needs to know ([`LowerReport`]: the surfaces to bind, the parameter blocks to fill,
/// the messages sent), or every problem found ([`LowerError`]); on error the shader is
/// unchanged.
///
/// See `lowering/examples/driver.rs` for a driver that builds a shader, lowers it and
/// fills its parameter blocks.
pub fn lower_shader(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<LowerReport, Vec<LowerError>> {
    lower_shader_with(shader, device, options, &mut |_, _| {})
}

/// [`lower_shader`], calling `after_stage` with the stage's name ([`PIPELINE`]) and the
/// shader after each stage (for printing or timing the pipeline, as `ir-opt
/// --print-after-all` does).
pub fn lower_shader_with(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
    after_stage: &mut dyn FnMut(&str, &Shader),
) -> Result<LowerReport, Vec<LowerError>> {
    validate_input(shader, device)?;
    // The shader is optimized and lowered as a copy, so that it is left as it was
    // when planning finds an access that cannot be lowered.
    let mut work = shader.clone();
    // Once, before the loop, as brw lowers the compute system values before it
    // optimizes: the constants it makes of a narrow workgroup's IDs then fold. Before
    // that, the images the shader only writes become `writeonly`, as anv runs
    // `nir_opt_access` before it picks their surface states.
    ir::passes::OptAccess
        .run(&mut work)
        .and_then(|_| LowerComputeSystemValues.run(&mut work))
        .and_then(|_| Cleanup::optimize(DEFAULT_OPTIMIZE_ITERATIONS).run(&mut work))
        .and_then(|_| idiv_const(&mut work, device))
        .and_then(|_| vectorize(&mut work))
        .map_err(|e| stage_failed(PIPELINE[0], e.diagnostics, device))?;
    stage_done(PIPELINE[0], &work, device)?;
    after_stage(PIPELINE[0], &work);
    // The loops of non-uniform accesses come before the lowering, so that everything
    // the lowering makes of such an access (parameter reads, messages) sits inside its
    // loop with a uniform index; planning then sees the accesses in their loops.
    if has_non_uniform_images(&work) {
        LowerNonUniformAccess
            .run(&mut work)
            .map_err(|e| stage_failed(PIPELINE[1], e.diagnostics, device))?;
    }
    stage_done(PIPELINE[1], &work, device)?;
    after_stage(PIPELINE[1], &work);
    // Float atomics of memory the platform lacks, as compare-and-swap loops (those of
    // images become loops inside `lower-images`, where planning can fall back to the
    // atomic's own errors).
    crate::atomic_loop::lower_float_atomics(&mut work, device);
    stage_done(PIPELINE[2], &work, device)?;
    after_stage(PIPELINE[2], &work);
    let report = lower_images_and_copies(&mut work, device, options, after_stage)?;
    *shader = work;
    Ok(report)
}

/// Division by a constant, as brw runs `nir_opt_idiv_const` in its optimization loop:
/// signed division by a power of two as shifts everywhere; unsigned division by other
/// constants as a multiplication only where the device has no integer division
/// (Gfx12.5 on: no math unit `INT DIV`), since on the platforms before the back end's
/// one math-unit instruction is the shorter code.
fn idiv_const(shader: &mut Shader, device: &Device) -> Result<bool, ir::passes::PassError> {
    let mut pass = ir::passes::IdivConst {
        multiply: device.has_lsc,
    };
    if !pass.run(shader)? {
        return Ok(false);
    }
    Cleanup::standard(DEFAULT_MAX_ITERATIONS).run(shader)
}

/// Adjacent storage-buffer accesses as one, as brw runs `nir_opt_load_store_vectorize`
/// after its optimization loop (dword-aligned narrow vectors first become dword loads),
/// and the clean-up of what that leaves (the moves of the vectors they build).
fn vectorize(shader: &mut Shader) -> Result<bool, ir::passes::PassError> {
    // Narrow vectors in whole dwords first, as dword loads the vectorizer then merges
    // (brw's vectorizer merges accesses of any bit size before
    // `nir_lower_mem_access_bit_sizes`; this one merges 32-bit accesses).
    let widened = ir::passes::LowerMemAccessBitSizes.run(shader)?;
    let merged = ir::passes::LoadStoreVectorize.run(shader)?;
    if !merged && !widened {
        return Ok(false);
    }
    Cleanup::standard(DEFAULT_MAX_ITERATIONS).run(shader)
}

/// Whether an image access of `shader` is qualified `non_uniform`.
fn has_non_uniform_images(shader: &Shader) -> bool {
    shader.functions.iter().any(|f| {
        f.insts_in_order()
            .into_iter()
            .any(|i| match &f.inst(i).kind {
                ir::InstKind::Intrinsic(x) => x.image.is_some() && x.is_non_uniform(),
                _ => false,
            })
    })
}

/// The validator's verdict on the shader a driver hands in, as lowering errors.
fn validate_input(shader: &Shader, device: &Device) -> Result<(), Vec<LowerError>> {
    ir::validate(shader).map_err(|diagnostics| {
        diagnostics
            .into_iter()
            .map(|d| LowerError {
                span: d.span,
                ..LowerError::new(LowerErrorKind::InvalidShader(Box::new(d)), &device.name)
            })
            .collect::<Vec<_>>()
    })
}

/// The stages after `lower-non-uniform-access`: the lowering proper and the cleanup loop.
fn lower_images_and_copies(
    shader: &mut Shader,
    device: &Device,
    options: &LowerOptions,
    after_stage: &mut dyn FnMut(&str, &Shader),
) -> Result<LowerReport, Vec<LowerError>> {
    // Plan both stages before changing anything (but the float atomics the device
    // lacks, which become loops of accesses to plan); without LSC, the LSC messages the
    // shader holds already must have legacy data-port forms too.
    let image_plans = images::emulate_and_plan(shader, device, options);
    let copy_plans = async_copy::plan_shader(shader, device, &options.async_copies);
    let checked = dataport::check_input(shader, device);
    let (image_plans, copy_plans) = match (image_plans, copy_plans, checked) {
        (Ok(i), Ok(c), Ok(())) => (i, c),
        (i, c, d) => {
            let mut errors = i.err().unwrap_or_default();
            errors.extend(c.err().unwrap_or_default());
            errors.extend(d.err().unwrap_or_default());
            return Err(errors);
        }
    };
    let mut report = images::emit_shader(shader, image_plans, device);
    // The planners checked that every message they emit has a legacy form: a failure
    // here is the lowering's bug, reported as such.
    dataport::lower_dataport(shader, device).map_err(|e| rewrite_failed(PIPELINE[3], e))?;
    stage_done(PIPELINE[3], shader, device)?;
    after_stage(PIPELINE[3], shader);
    report.async_copies = async_copy::emit_shader(shader, copy_plans);
    dataport::lower_dataport(shader, device).map_err(|e| rewrite_failed(PIPELINE[4], e))?;
    stage_done(PIPELINE[4], shader, device)?;
    after_stage(PIPELINE[4], shader);
    Cleanup::standard(DEFAULT_MAX_ITERATIONS)
        .run(shader)
        .map_err(|e| stage_failed(PIPELINE[5], e.diagnostics, device))?;
    stage_done(PIPELINE[5], shader, device)?;
    after_stage(PIPELINE[5], shader);
    report.summarize(shader);
    Ok(report)
}

/// The errors of the data-port rewrite after `stage`, which planning should have
/// prevented: stage failures, each naming the message and the rule.
fn rewrite_failed(stage: &'static str, errors: Vec<LowerError>) -> Vec<LowerError> {
    errors
        .into_iter()
        .map(|e| LowerError {
            kind: LowerErrorKind::StageFailed {
                stage,
                diagnostic: Box::new(e.to_diagnostic()),
            },
            ..e
        })
        .collect()
}

/// The errors of a stage that failed, one per diagnostic.
fn stage_failed(
    stage: &'static str,
    diagnostics: Vec<Diagnostic>,
    device: &Device,
) -> Vec<LowerError> {
    diagnostics
        .into_iter()
        .map(|diagnostic| LowerError {
            span: diagnostic.span,
            ..LowerError::new(
                LowerErrorKind::StageFailed {
                    stage,
                    diagnostic: Box::new(diagnostic),
                },
                &device.name,
            )
        })
        .collect()
}

/// Debug builds validate the shader after each stage (each pass validates its own
/// output in debug builds).
fn stage_done(
    stage: &'static str,
    shader: &Shader,
    device: &Device,
) -> Result<(), Vec<LowerError>> {
    if cfg!(debug_assertions) {
        ir::validate(shader).map_err(|d| stage_failed(stage, d, device))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LowerErrorCode, SurfaceFormat};

    fn parse(text: &str) -> Shader {
        ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"))
    }

    const SHADER: &str = "shader compute (local_size=8,8,1)
image @src : 2d rgba8_unorm readonly (binding=0)
image @dst : 2d r64_uint (binding=1)
image @unused : 2d r32_uint (binding=2)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32x4 %2 = @image_load (@src, %1) (dest_type=float32)
    32   %3 = f2u32 %2.x
    64   %4 = u2u64 %3
    64   %5 = @image_atomic (@dst, %1, %4) (atomic_op=umax)
    32x2 %6 = @image_size (@src)
    @store_ssbo (%6, %0.x, %0.y) (access=none, align_mul=8)
}
";

    #[test]
    fn the_report_says_what_each_image_needs() {
        let mut sh = parse(SHADER);
        let dg2 = Device::preset("dg2").unwrap();
        let r = lower_shader(&mut sh, &dg2, &LowerOptions::default()).unwrap();
        assert_eq!(
            (r.typed_loads, r.untyped_atomics, r.sizes, r.sampler_queries),
            (1, 1, 0, 1)
        );
        assert_eq!(r.a64_accesses, 1);
        let [src, dst, unused] = &r.images[..] else {
            panic!("{:?}", r.images)
        };
        // @src: a typed load of RGBA8_UNORM (native on DG2), and a size query that the
        // sampler answers from the same typed surface: no parameter block.
        assert_eq!(
            src.surface,
            Some(SurfaceFormat::Typed(ir::Format::Rgba8Unorm))
        );
        assert!(src.typed && !src.untyped && src.sampler);
        let size = tiling::image_param::slot::SIZE;
        assert_eq!(src.param_block, None);
        // @dst: a 64-bit atomic through A64 addresses from the block's BASE: no binding.
        assert_eq!(dst.surface, None);
        assert!(!dst.typed && !dst.untyped);
        let slots = &dst.param_block.as_ref().expect("a block").slots;
        assert!(
            slots.contains(&tiling::image_param::slot::BASE),
            "{slots:?}"
        );
        assert!(slots.contains(&size), "{slots:?}");
        assert_eq!(dst.binding, 1);
        // @unused: nothing.
        assert_eq!((unused.surface, &unused.param_block), (None, &None));
        // Messages: one typed load, one predicated untyped atomic, one resinfo.
        let m = r.messages;
        assert_eq!(
            (m.total, m.typed, m.untyped, m.atomics, m.sampler),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(m.predicated, 1);
        // The pipeline ran to the end: no image access is left, only parameter loads.
        let text = ir::print_shader(&sh);
        for op in ["@image_load (", "@image_atomic", "@image_size"] {
            assert!(!text.contains(op), "{text}");
        }
    }

    #[test]
    fn without_lsc_the_report_counts_the_data_port_messages() {
        // Sky Lake: the same accesses as the legacy data port's messages (a typed read
        // and an A64 atomic), counted as the LSC ones are; no LSC message is left.
        let mut sh = parse(SHADER);
        let skl = Device::preset("skl").unwrap();
        let r = lower_shader(&mut sh, &skl, &LowerOptions::default()).unwrap();
        let m = r.messages;
        assert_eq!(
            (m.total, m.typed, m.untyped, m.atomics, m.sampler),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(m.predicated, 1);
        assert!(r.images[0].typed && !r.images[0].untyped);
        let text = ir::print_shader(&sh);
        assert!(!text.contains("@lsc_"), "{text}");
        assert!(text.contains("@dp_typed_read (@src,"), "{text}");
        assert!(
            text.contains("(dp_addr=a64, dp_op=umax, dp_bits=64) if"),
            "{text}"
        );
    }

    #[test]
    fn invalid_or_unlowerable_shaders_are_errors_and_left_alone() {
        // An image load with a one-component coordinate: the validator's error.
        let bad = SHADER.replace("(@src, %1)", "(@src, %0.x)");
        let mut sh = parse(&bad);
        let before = sh.clone();
        let dg2 = Device::preset("dg2").unwrap();
        let errors = lower_shader(&mut sh, &dg2, &LowerOptions::default()).unwrap_err();
        assert!(!errors.is_empty());
        assert!(errors
            .iter()
            .all(|e| e.kind.code() == LowerErrorCode::InvalidShader && e.span.is_known()));
        assert_eq!(sh, before);
        // 64-bit atomics before Gfx9, and a group copy's global side on Gfx7: both
        // reported, nothing changed.
        let with_copy = SHADER.replace(
            "    @store_ssbo",
            "    64   %7 = load_const (0x0000000100000000)\n    32   %8 = load_const (4)\n    32   %9 = load_const (0)\n    32   %10 = @group_async_copy_2d2d (%9, %9, %7, %9, %8, %8, %8, %8, %8, %9)\n    @store_ssbo",
        );
        let mut sh = parse(&with_copy);
        let before = sh.clone();
        let hsw = Device::preset("hsw").unwrap();
        let errors = lower_shader(&mut sh, &hsw, &LowerOptions::default()).unwrap_err();
        let codes: Vec<LowerErrorCode> = errors.iter().map(|e| e.kind.code()).collect();
        assert_eq!(
            codes,
            [
                LowerErrorCode::Int64AtomicUnsupported,
                LowerErrorCode::A64Unsupported
            ],
            "{errors:?}"
        );
        assert_eq!(sh, before);
        // Gfx6: no storage images.
        let mut sh = parse(SHADER);
        let snb = Device::preset("snb").unwrap();
        let errors = lower_shader(&mut sh, &snb, &LowerOptions::default()).unwrap_err();
        assert_eq!(errors.len(), 3);
        assert!(errors.iter().all(|e| e.kind
            == LowerErrorKind::NoStorageImages {
                gen: tiling::Gen::Gfx6
            }));
        assert!(
            errors[0].to_string().contains("gfx6 has no storage images"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn stages_are_observed_in_order() {
        let mut sh = parse(SHADER);
        let mut seen = Vec::new();
        lower_shader_with(
            &mut sh,
            &Device::preset("lnl").unwrap(),
            &LowerOptions::default(),
            &mut |stage, s| seen.push((stage.to_string(), ir::validate(s).is_ok())),
        )
        .unwrap();
        let want: Vec<(String, bool)> = PIPELINE.iter().map(|s| (s.to_string(), true)).collect();
        assert_eq!(seen, want);
    }
}
