//! The SPIR-V translator: a Vulkan compute shader's SPIR-V into the IR, as a driver
//! reads it (Mesa's `spirv_to_nir`, `src/compiler/spirv/`).
//!
//! [`import`] reads the module with a reader of its own over the `spirv` crate's
//! definitions ([`module`]), applies specialization ([`spec`]), maps the resources
//! ([`variables`]), and translates the compute entry point: structured control flow
//! and inlined calls ([`mod@cfg`]), the instructions of each block ([`function`], with
//! [`alu`], [`glsl450`], [`memory`] and [`image`]), then the SSA clean-up ([`ssa`]).
//!
//! The subset is Vulkan's for compute: SPIR-V 1.0 to 1.6, the `Shader` capability, the
//! `GLCompute` execution model, logical addressing with buffer device addresses
//! (`PhysicalStorageBuffer64`: such a pointer is its 64-bit address, and accesses
//! through it are the IR's global memory intrinsics). What the IR cannot express (filtered
//! sampling, derivatives, subgroup operations, ...) is an error of kind
//! [`ErrorKind::Unsupported`] naming the instruction; a module that breaks SPIR-V's
//! rules is an [`ErrorKind::Invalid`] or [`ErrorKind::Parse`] error. Every error carries
//! the instruction's word offset and disassembly, and its `OpLine` position when the
//! module has one. The translator never panics on hostile input, and a small module
//! cannot make it take unbounded time or memory (see [`context::MAX_IR_INSTRUCTIONS`]).

pub mod alu;
pub mod cfg;
pub mod constant_data;
pub mod constants;
pub mod context;
pub mod decorations;
pub mod function;
pub mod glsl450;
pub mod grammar;
pub mod image;
pub mod inverse_trig;
pub mod memory;
pub mod module;
pub mod op;
pub mod promoted;
pub mod scratch;
pub mod spec;
pub mod ssa;
pub mod subgroup;
pub mod types;
pub mod value;
pub mod variables;

use crate::error::{ErrorKind, ImportError, Location};
use crate::imported::Imported;
use context::Ctx;
use ir::validate::{MAX_WORKGROUP_INVOCATIONS, MAX_WORKGROUP_SIZE};
use module::{Id, Module};
use spec::{ConstVal, SpecMap};
use spirv::{Capability, Decoration as D, ExecutionMode as EM};
use value::VarKey;

/// The most rounds of copy propagation and dead-code elimination after the import.
const MAX_CLEANUP_ROUNDS: usize = 32;

/// What to import and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The compute entry point (default: the module's only one).
    pub entry: Option<String>,
    /// Specialization: `SpecId` to value (Vulkan's `VkSpecializationInfo`). Ids no
    /// constant has are ignored, as Vulkan ignores them.
    pub spec: SpecMap,
    /// The descriptor counts of runtime descriptor arrays, by `(set, binding)`
    /// ([`crate::bindings::DescriptorCounts`]); an array without an entry has
    /// [`crate::bindings::DEFAULT_DESCRIPTOR_COUNT`].
    pub descriptors: crate::bindings::DescriptorCounts,
}

/// Capabilities a Vulkan compute shader may declare that the translator refuses
/// upfront: they change what every pointer or instruction means.
fn refused_capability(c: Capability) -> Option<&'static str> {
    Some(match c {
        Capability::Kernel | Capability::Addresses => "OpenCL kernels are not Vulkan compute shaders",
        Capability::Linkage => "a module to link is not a shader to compile",
        Capability::VariablePointers | Capability::VariablePointersStorageBuffer => {
            "variable pointers need pointers chosen at run time, which the translator does not model"
        }
        Capability::RayQueryKHR
        | Capability::RayTracingKHR
        | Capability::RayQueryProvisionalKHR
        | Capability::RayTracingProvisionalKHR => {
            "ray queries and ray tracing need acceleration structures and the ray-tracing \
             hardware's messages, which the IR does not have"
        }
        _ => return None,
    })
}

/// The names of a module's compute entry points.
pub fn compute_entry_points(bytes: &[u8]) -> Result<Vec<String>, ImportError> {
    let m = Module::read(bytes)?;
    Ok(m.entry_points
        .iter()
        .filter(|e| e.model == spirv::ExecutionModel::GLCompute as u32)
        .map(|e| e.name.clone())
        .collect())
}

/// Imports a compute entry point of a SPIR-V module.
pub fn import(bytes: &[u8], options: &Options) -> Result<Imported, ImportError> {
    let m = Module::read(bytes)?;
    for &(c, i) in &m.capabilities {
        if let Some(why) = Capability::from_u32(c).and_then(refused_capability) {
            let name = Capability::from_u32(c).map_or(format!("{c}"), |c| format!("{c:?}"));
            return Err(m.error(
                i,
                ErrorKind::Unsupported,
                format!("the {name} capability is not supported: {why}"),
            ));
        }
    }
    if let Some((addressing, _, i)) = m.memory_model {
        // Logical pointers, and buffer device addresses beside them
        // (`PhysicalStorageBuffer64`, Vulkan's only physical addressing model).
        if addressing != spirv::AddressingModel::Logical as u32
            && addressing != spirv::AddressingModel::PhysicalStorageBuffer64 as u32
        {
            return Err(m.error(
                i,
                ErrorKind::Unsupported,
                "a module with physical addressing is not supported: the translator models logical pointers and buffer device addresses (PhysicalStorageBuffer64)",
            ));
        }
    }
    let decs = decorations::Decorations::read(&m)?;
    let d = spec::declare(&m, &decs, &options.spec)?;
    let ep = choose_entry(&m, options.entry.as_deref())?;
    let ep_fn = m
        .functions
        .iter()
        .position(|f| f.id == ep.function)
        .ok_or_else(|| {
            m.error(
                ep.inst,
                ErrorKind::Invalid,
                format!("the entry point's function %{} is not defined", ep.function),
            )
        })?;
    let workgroup_size = workgroup_size(&m, &decs, &d, ep)?;
    let funcs = reachable_functions(&m, ep_fn);
    let globals: rustc_hash::FxHashMap<Id, variables::Global> = d
        .variables
        .iter()
        .filter_map(|&i| match m.ops(i) {
            [_, id, sc, rest @ ..] => Some((
                *id,
                variables::Global {
                    inst: i,
                    pointee: 0,
                    sc: *sc,
                    init: rest.first().copied(),
                },
            )),
            _ => None,
        })
        .collect();
    let used = variables::used_globals(&m, &funcs, &globals);
    let mut mapping = variables::map(&m, &decs, &d, &used, &funcs, &options.descriptors)?;
    let read_only = mapping.read_only.take();
    let mut ctx = Ctx::new(&m, &decs, &d, &mapping, workgroup_size);
    if let Some(r) = read_only {
        ctx.constants.set_read_only(r);
    }
    ctx.preserve_signed_zero_inf_nan = float_controls(&m, ep)?;
    ctx.inst = ep.inst;
    // The globals: pointers, and the private variables' initial values.
    let mut ids: Vec<Id> = mapping.roles.keys().copied().collect();
    ids.sort();
    for id in ids {
        let p = memory::global_pointer(&mut ctx, id)?;
        ctx.set(id, p)?;
    }
    for &id in &mapping.privates {
        let g = mapping.globals[&id];
        ctx.at(g.inst);
        let scratch = matches!(
            mapping.roles.get(&id),
            Some(variables::Role::Scratch { .. })
        );
        let v = match g.init {
            Some(init) => match d.consts.get(&init) {
                Some(c) => ctx.constant(c.ty, &c.val.clone())?,
                None => {
                    return Err(ctx.invalid("a private variable's initializer is not a constant"))
                }
            },
            // Scratch without an initializer stays undefined, as SPIR-V leaves it.
            None if scratch => continue,
            None => ctx.zero_of(g.pointee)?,
        };
        if scratch {
            let p = ctx.pointer(id)?;
            memory::store(&mut ctx, &p, &v)?;
        } else {
            ctx.set_var(VarKey::Private(id), v)?;
        }
    }
    ctx.inst = ep.inst;
    cfg::run_function(&mut ctx, ep_fn, Vec::new())?;
    let source_file = ctx.source_file.clone();
    let Ctx {
        mut func,
        constants,
        ..
    } = ctx;
    ssa::complete_phis(&mut func);
    ssa::repair(&mut func);
    let mut shader = ir::Shader::new(workgroup_size);
    shader.constant_data = constants.bytes;
    shader.scratch_size = mapping.scratch_bytes;
    for (decl, span) in mapping
        .images
        .iter()
        .cloned()
        .zip(mapping.image_spans.iter().copied())
    {
        shader.add_image_at(decl, span);
    }
    for (decl, span) in mapping
        .buffers
        .iter()
        .cloned()
        .zip(mapping.buffer_spans.iter().copied())
    {
        shader.add_buffer_at(decl, span);
    }
    for decl in &mapping.samplers {
        shader.add_sampler(decl.clone());
    }
    shader.functions.push(func);
    finish(&mut shader)?;
    Ok(Imported {
        shader,
        bindings: mapping.bindings.clone(),
        entry: ep.name.clone(),
        shared_bytes: mapping.shared_bytes,
        spec_constants: d.spec_constants.clone(),
        source_file,
    })
}

/// Copy propagation and dead-code elimination until nothing changes, multiply-add fusion,
/// then the IR's validation: a shader it rejects is a translator bug, reported as an error.
fn finish(shader: &mut ir::Shader) -> Result<(), ImportError> {
    use ir::passes::Pass;
    let internal = |m: String| {
        ImportError::new(
            ErrorKind::Internal,
            Location::Unknown,
            format!("internal error of the SPIR-V translator: {m}"),
        )
    };
    // Each pass runs again only after the other changed something: DCE reaches its own
    // fixpoint, and copy propagation only has new work where DCE removed control flow.
    let mut dce_done = false;
    for _ in 0..MAX_CLEANUP_ROUNDS {
        let propagated = ir::passes::copy_prop::CopyProp
            .run(shader)
            .map_err(|e| internal(e.to_string()))?;
        if !propagated && dce_done {
            break;
        }
        let removed = ir::passes::dce::Dce
            .run(shader)
            .map_err(|e| internal(e.to_string()))?;
        if !removed {
            break;
        }
        dce_done = true;
    }
    // SPIR-V lets the implementation contract a product and a sum that are not
    // `NoContraction`; brw fuses them into `mad` (`ir::passes::peephole_ffma`).
    ir::passes::peephole_ffma::PeepholeFfma
        .run(shader)
        .map_err(|e| internal(e.to_string()))?;
    ir::validate(shader).map_err(|diags| {
        let text: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        internal(format!(
            "the translated IR does not validate: {}",
            text.join("; ")
        ))
    })
}

/// The entry point's float controls (`SPV_KHR_float_controls`): whether it asks for
/// `SignedZeroInfNanPreserve` (the translator then makes every instruction `exact`).
/// Denormal modes and `RoundingModeRTE` ask for what the IR does or leaves open (it
/// evaluates IEEE binary32 with denormals and rounds to nearest even); round-toward-zero
/// is refused: the IR has no such rounding.
fn float_controls(m: &Module, ep: &module::EntryPoint) -> Result<bool, ImportError> {
    let mut preserve = false;
    for em in m.exec_modes.iter().filter(|e| e.function == ep.function) {
        match EM::from_u32(em.mode) {
            Some(EM::SignedZeroInfNanPreserve) => preserve = true,
            Some(EM::RoundingModeRTZ) => {
                return Err(m.error(
                    em.inst,
                    ErrorKind::Unsupported,
                    "the RoundingModeRTZ execution mode is not supported: the IR's float \
                     arithmetic rounds to nearest even",
                ))
            }
            _ => {}
        }
    }
    Ok(preserve)
}

/// The compute entry point named `name`, or the only one.
fn choose_entry<'m>(
    m: &'m Module,
    name: Option<&str>,
) -> Result<&'m module::EntryPoint, ImportError> {
    let glc = spirv::ExecutionModel::GLCompute as u32;
    let compute: Vec<&module::EntryPoint> =
        m.entry_points.iter().filter(|e| e.model == glc).collect();
    let names = || {
        compute
            .iter()
            .map(|e| format!("`{}`", e.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let err = |msg: String| ImportError::new(ErrorKind::EntryPoint, Location::Unknown, msg);
    match name {
        Some(n) => match m.entry_points.iter().find(|e| e.name == n) {
            Some(e) if e.model == glc => Ok(e),
            Some(e) => Err(m.error(
                e.inst,
                ErrorKind::EntryPoint,
                format!(
                    "entry point `{n}` is a {} shader; the IR has compute shaders only",
                    spirv::ExecutionModel::from_u32(e.model)
                        .map_or(format!("model {}", e.model), |x| format!("{x:?}"))
                ),
            )),
            None if compute.is_empty() => Err(err(format!(
                "there is no entry point `{n}`, and the module has no compute entry point"
            ))),
            None => Err(err(format!(
                "there is no entry point `{n}`; the compute entry points are {}",
                names()
            ))),
        },
        None => match compute.as_slice() {
            [e] => Ok(e),
            [] => Err(err(match m.entry_points.first() {
                Some(e) => format!(
                    "the module has no compute (GLCompute) entry point; `{}` is a {} shader",
                    e.name,
                    spirv::ExecutionModel::from_u32(e.model)
                        .map_or(format!("model {}", e.model), |x| format!("{x:?}"))
                ),
                None => "the module has no entry point".to_string(),
            })),
            _ => Err(err(format!(
                "the module has {} compute entry points ({}): name one",
                compute.len(),
                names()
            ))),
        },
    }
}

/// The workgroup size: a constant decorated `WorkgroupSize` (a specialization constant
/// composite, as GLSL's `local_size_x_id` makes), else `LocalSizeId`, else
/// `LocalSize`.
fn workgroup_size(
    m: &Module,
    decs: &decorations::Decorations,
    d: &spec::Declarations,
    ep: &module::EntryPoint,
) -> Result<[u32; 3], ImportError> {
    let builtin = d
        .consts
        .iter()
        .find(|(id, _)| decs.get(**id, D::BuiltIn) == Some(spirv::BuiltIn::WorkgroupSize as u32));
    let three = |c: &ConstVal| -> Option<[u32; 3]> {
        let v = spec::components(c)?;
        match v.as_slice() {
            [x, y, z] => Some([*x as u32, *y as u32, *z as u32]),
            _ => None,
        }
    };
    let size = if let Some((id, c)) = builtin {
        three(&c.val).ok_or_else(|| {
            ImportError::new(
                ErrorKind::Invalid,
                Location::Unknown,
                format!("the WorkgroupSize constant %{id} is not a vector of three integers"),
            )
        })?
    } else {
        let mut size = None;
        for em in m.exec_modes.iter().filter(|e| e.function == ep.function) {
            match EM::from_u32(em.mode) {
                Some(EM::LocalSize) => {
                    if let [x, y, z, ..] = em.args.as_slice() {
                        size = Some([*x, *y, *z]);
                    } else {
                        return Err(m.error(
                            em.inst,
                            ErrorKind::Parse,
                            "LocalSize needs three sizes",
                        ));
                    }
                }
                Some(EM::LocalSizeId) => {
                    let mut s = [0u32; 3];
                    for (k, id) in em.args.iter().take(3).enumerate() {
                        s[k] = match d.consts.get(id).map(|c| &c.val) {
                            Some(ConstVal::Scalar(v)) => *v as u32,
                            _ => {
                                return Err(m.error(
                                    em.inst,
                                    ErrorKind::Invalid,
                                    format!("LocalSizeId's %{id} is not an integer constant"),
                                ))
                            }
                        };
                    }
                    size = Some(s);
                }
                _ => {}
            }
        }
        size.ok_or_else(|| m.error(ep.inst, ErrorKind::Invalid, "the compute entry point has no workgroup size (LocalSize, LocalSizeId or a WorkgroupSize constant)"))?
    };
    if size.contains(&0) {
        return Err(m.error(
            ep.inst,
            ErrorKind::Invalid,
            format!("a workgroup size of {}x{}x{}", size[0], size[1], size[2]),
        ));
    }
    // The IR validator's limits (anv's), checked here so that the error points at the
    // entry point instead of reading as the translator's own. Three u32 sizes can pass
    // u64 (a hostile module), hence the saturation.
    let invocations = size
        .iter()
        .fold(1u64, |t, &n| t.saturating_mul(u64::from(n)));
    if size.iter().zip(MAX_WORKGROUP_SIZE).any(|(&n, max)| n > max)
        || invocations > u64::from(MAX_WORKGROUP_INVOCATIONS)
    {
        return Err(m.error(
            ep.inst,
            ErrorKind::Limit,
            format!(
                "a workgroup of {}x{}x{} = {invocations} invocations: Intel GPUs run at most \
                 {MAX_WORKGROUP_INVOCATIONS} invocations in a workgroup",
                size[0], size[1], size[2]
            ),
        ));
    }
    Ok(size)
}

/// The functions the entry point reaches through calls, itself first.
fn reachable_functions(m: &Module, entry: usize) -> Vec<usize> {
    let call = spirv::Op::FunctionCall as u16;
    let mut out = vec![entry];
    let mut k = 0;
    while k < out.len() {
        let f = &m.functions[out[k]];
        for b in &f.blocks {
            for i in b.first..b.terminator {
                if m.insts[i].opcode == call {
                    if let Some(callee) = m.ops(i).get(2) {
                        if let Some(fi) = m.functions.iter().position(|g| g.id == *callee) {
                            if !out.contains(&fi) {
                                out.push(fi);
                            }
                        }
                    }
                }
            }
        }
        k += 1;
    }
    out
}
