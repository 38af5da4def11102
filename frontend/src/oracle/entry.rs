//! One compute entry point of a module as an IR shader: the entry point's choice, its
//! builtins, the globals' initial values, the body, and the clean-up that leaves a valid
//! IR shader.

use crate::error::{ErrorKind, ImportError, Location};
use crate::imported::Imported;
use crate::oracle::context::{Ctx, Frame};
use crate::oracle::resources::{self, Role};
use crate::oracle::value::{Cached, Val, VarKey};
use crate::oracle::{expr, stmt};
use crate::source::{Language, Parsed};
use ir::passes::Pass;
use ir::{AluOp, Cursor, Function, IntrinsicOp, Jump, Shader, Src, Type};
use naga::{Binding as NagaBinding, BuiltIn, ShaderStage, TypeInner};
use std::collections::HashMap;

/// The most rounds of copy propagation and dead-code elimination after the import.
const MAX_CLEANUP_ROUNDS: usize = 32;

/// The index of the compute entry point named `name`, or the only one.
fn choose_entry(module: &naga::Module, name: Option<&str>) -> Result<usize, ImportError> {
    let compute: Vec<(usize, &naga::EntryPoint)> = module
        .entry_points
        .iter()
        .enumerate()
        .filter(|(_, e)| e.stage == ShaderStage::Compute)
        .collect();
    let names = || {
        compute
            .iter()
            .map(|(_, e)| format!("`{}`", e.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let err = |m: String| ImportError::new(ErrorKind::EntryPoint, Location::Unknown, m);
    match name {
        Some(n) => match module.entry_points.iter().position(|e| e.name == n) {
            Some(i) if module.entry_points[i].stage == ShaderStage::Compute => Ok(i),
            Some(i) => Err(err(format!(
                "entry point `{n}` is a {:?} shader; the IR has compute shaders only",
                module.entry_points[i].stage
            ))),
            None if compute.is_empty() => Err(err(format!(
                "there is no entry point `{n}`, and the module has no compute entry point"
            ))),
            None => Err(err(format!(
                "there is no entry point `{n}`; the compute entry points are {}",
                names()
            ))),
        },
        None => match compute.as_slice() {
            [(i, _)] => Ok(*i),
            [] => Err(err("the module has no compute entry point".into())),
            _ => Err(err(format!(
                "the module has {} compute entry points ({}): name one",
                compute.len(),
                names()
            ))),
        },
    }
}

/// The value of a builtin input.
fn builtin(ctx: &mut Ctx<'_>, b: BuiltIn) -> Result<Val, ImportError> {
    let sv3 = |ctx: &mut Ctx<'_>, op: IntrinsicOp| -> Result<Val, ImportError> {
        let v = ctx
            .intrinsic(op, None, &[], &[], Some(Type::vec32(3)))
            .ok_or_else(|| ctx.internal("a system value without a value"))?;
        Ok(Val::Leaf(Src::new(v)))
    };
    let sv1 = |ctx: &mut Ctx<'_>, op: IntrinsicOp| -> Result<Val, ImportError> {
        let v = ctx
            .intrinsic(op, None, &[], &[], Some(Type::U32))
            .ok_or_else(|| ctx.internal("a system value without a value"))?;
        Ok(Val::Leaf(Src::new(v)))
    };
    match b {
        BuiltIn::GlobalInvocationId => sv3(ctx, IntrinsicOp::LoadGlobalInvocationId),
        BuiltIn::LocalInvocationId => sv3(ctx, IntrinsicOp::LoadLocalInvocationId),
        BuiltIn::WorkGroupId => sv3(ctx, IntrinsicOp::LoadWorkgroupId),
        BuiltIn::NumWorkGroups => sv3(ctx, IntrinsicOp::LoadNumWorkgroups),
        BuiltIn::LocalInvocationIndex => sv1(ctx, IntrinsicOp::LoadLocalInvocationIndex),
        BuiltIn::SubgroupInvocationId => sv1(ctx, IntrinsicOp::LoadSubgroupInvocation),
        BuiltIn::SubgroupId => sv1(ctx, IntrinsicOp::LoadSubgroupId),
        BuiltIn::NumSubgroups => sv1(ctx, IntrinsicOp::LoadNumSubgroups),
        BuiltIn::WorkGroupSize => {
            let [x, y, z] = ctx.workgroup_size;
            let v = ctx.constant(Type::vec32(3), &[x as u64, y as u64, z as u64]);
            Ok(Val::Leaf(Src::new(v)))
        }
        BuiltIn::SubgroupSize => Err(ctx.unsupported(
            "the subgroup size builtin",
            "the IR shader fixes no SIMD width; it is chosen when the shader is compiled",
        )),
        other => Err(ctx.unsupported(
            &format!("the builtin {other:?}"),
            "compute shaders have no such input",
        )),
    }
}

/// The value of an entry-point argument: a builtin, or a struct of builtins.
fn argument(ctx: &mut Ctx<'_>, arg: &naga::FunctionArgument) -> Result<Val, ImportError> {
    match &arg.binding {
        Some(NagaBinding::BuiltIn(b)) => builtin(ctx, *b),
        Some(NagaBinding::Location { .. }) => Err(ctx.unsupported(
            "an entry-point input at a location",
            "compute shaders have no stage inputs",
        )),
        None => {
            let module = ctx.module;
            let TypeInner::Struct { members, .. } = &module.types[arg.ty].inner else {
                return Err(ctx.internal("an entry-point argument without a binding"));
            };
            let mut out = Vec::with_capacity(members.len());
            for m in members {
                match &m.binding {
                    Some(NagaBinding::BuiltIn(b)) => out.push(builtin(ctx, *b)?),
                    _ => {
                        return Err(ctx.unsupported(
                            "an entry-point input at a location",
                            "compute shaders have no stage inputs",
                        ))
                    }
                }
            }
            Ok(Val::Comp(out))
        }
    }
}

/// WGSL zero-initializes workgroup variables (WGSL §7.3): every invocation clears the
/// dwords `local_index, local_index + size, ...` of the variables' bytes, then the
/// workgroup waits at a barrier. GLSL and SPIR-V leave them undefined.
fn zero_shared(ctx: &mut Ctx<'_>) -> Result<(), ImportError> {
    let words = ctx.mapping.shared_bytes.div_ceil(4);
    let size: u32 = ctx.workgroup_size.iter().product();
    let index = ctx
        .intrinsic(
            IntrinsicOp::LoadLocalInvocationIndex,
            None,
            &[],
            &[],
            Some(Type::U32),
        )
        .ok_or_else(|| ctx.internal("no local index"))?;
    let id = ctx.push_loop();
    let pre = ctx.block_before(id)?;
    let i = ctx.build(|b| b.phi(Type::U32, &[(pre, Src::new(index))]));
    let n = ctx.u32(words);
    let done = Src::new(ctx.alu(AluOp::Uge, &[Src::new(i), n])?);
    let branch = ctx.push_if(done);
    ctx.jump(Jump::Break);
    ctx.push_else(branch);
    ctx.pop_if(branch);
    ctx.live = true;
    let four = ctx.u32(4);
    let offset = Src::new(ctx.alu(AluOp::Imul, &[Src::new(i), four])?);
    let zero = ctx.u32(0);
    ctx.intrinsic(
        IntrinsicOp::StoreShared,
        None,
        &[zero, offset],
        &[0, 4],
        None,
    );
    let step = ctx.u32(size.max(1));
    let next = ctx.alu(AluOp::Iadd, &[Src::new(i), step])?;
    let back = ctx.current_block()?;
    ctx.build(|b| b.add_phi_src(i, back, Src::new(next)));
    ctx.pop_loop(id);
    ctx.intrinsic(
        IntrinsicOp::Barrier,
        None,
        &[],
        &[ir::MemModes::ALL.0],
        None,
    );
    Ok(())
}

/// Gives every phi a source for each predecessor: an edge from a block no path reaches
/// (after a jump or a return everywhere above it) carries an `undef`.
fn complete_phis(func: &mut Function) {
    let preds = func.predecessors();
    for b in func.blocks_in_order() {
        let phis: Vec<ir::Inst> = func
            .block_insts(b)
            .filter(|&i| func.inst(i).is_phi())
            .collect();
        for phi in phis {
            let ty = func.inst(phi).dest.map(|v| func.value_type(v));
            let Some(ty) = ty else { continue };
            let have: Vec<ir::Block> = match &func.inst(phi).kind {
                ir::InstKind::Phi(p) => p.srcs.iter().map(|(b, _)| *b).collect(),
                _ => continue,
            };
            for &p in preds.get(&b).map(|v| v.as_slice()).unwrap_or(&[]) {
                if have.contains(&p) {
                    continue;
                }
                let mut bd = ir::Builder::new(func, Cursor::BlockEnd(p));
                let u = bd.undef(ty);
                if let ir::InstKind::Phi(ph) = &mut func.inst_mut(phi).kind {
                    ph.srcs.push((p, Src::new(u)));
                }
            }
        }
    }
}

/// Imports entry point `entry` (or the module's only compute entry point).
pub fn import(parsed: &Parsed, entry: Option<&str>) -> Result<Imported, ImportError> {
    let module = &parsed.module;
    let index = choose_entry(module, entry)?;
    let ep = &module.entry_points[index];
    let ep_info = parsed.info.get_entry_point(index);
    let language = parsed.language;
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| {
        ImportError::new(
            ErrorKind::Invalid,
            Location::Unknown,
            format!("naga's layouter: {e}"),
        )
    })?;
    let locate = |span: naga::Span| parsed.map.locate(span);
    let mapping = resources::map(module, &layouter, &|g| ep_info[g], &locate)?;
    let mut func = Function::new("main");
    let first = func.first_block(ir::CfParent::Root).ok_or_else(|| {
        ImportError::new(
            ErrorKind::Internal,
            Location::Unknown,
            "a function without a block",
        )
    })?;
    func.reserve_block(first);
    let mut ctx = Ctx {
        module,
        info: &parsed.info,
        language,
        map: &parsed.map,
        layouter,
        mapping,
        workgroup_size: ep.workgroup_size,
        func,
        cursor: Cursor::BlockEnd(first),
        span: ir::Span::UNKNOWN,
        naga_span: naga::Span::default(),
        live: true,
        skipping: false,
        vars: Default::default(),
        frames: Vec::new(),
        loops: Vec::new(),
        locals: None,
        next_frame: 1,
        next_switch: 0,
    };
    ctx.frames.push(Frame {
        id: 0,
        function: &ep.function,
        info: ep_info,
        cache: HashMap::new(),
        args: Vec::new(),
        loop_base: 0,
    });
    for (i, arg) in ep.function.arguments.iter().enumerate() {
        // Errors about an argument point at naga's expression for it.
        let span = ep
            .function
            .expressions
            .iter()
            .find(|(_, e)| matches!(e, naga::Expression::FunctionArgument(k) if *k as usize == i))
            .map(|(h, _)| ep.function.expressions.get_span(h));
        if let Some(span) = span {
            ctx.at(span);
        }
        let v = argument(&mut ctx, arg)?;
        ctx.frame_mut()?.args.push(Cached::Val(v));
    }
    if language == Language::Wgsl && ctx.mapping.shared_bytes > 0 {
        zero_shared(&mut ctx)?;
    }
    for (h, var) in module.global_variables.iter() {
        if ctx.mapping.roles[h.index()] != Role::Private {
            continue;
        }
        ctx.at(module.global_variables.get_span(h));
        let v = match var.init {
            Some(init) => expr::global_const(&mut ctx, init)?,
            None => ctx.zero_of(&module.types[var.ty].inner.clone())?,
        };
        ctx.vars.insert(VarKey::Private(h), v);
    }
    stmt::start_frame(&mut ctx, &ep.function)?;
    stmt::body(&mut ctx, &ep.function)?;
    let shared_bytes = ctx.mapping.shared_bytes;
    let Ctx {
        mut func, mapping, ..
    } = ctx;
    complete_phis(&mut func);
    let mut shader = Shader::new(ep.workgroup_size);
    for (decl, loc) in mapping.images.into_iter().zip(mapping.image_locations) {
        shader.add_image_at(decl, loc.ir_span());
    }
    for (decl, loc) in mapping.buffers.into_iter().zip(mapping.buffer_locations) {
        shader.add_buffer_at(decl, loc.ir_span());
    }
    shader.functions.push(func);
    // The SSA construction leaves phis no edge changes and values nothing reads.
    // A loop's header phi can read an inner loop's, so one sweep leaves some: repeat
    // (each round only removes instructions, so the rounds are bounded by them).
    let cleanup: Result<(), ir::passes::PassError> = (|| {
        for _ in 0..MAX_CLEANUP_ROUNDS {
            let a = ir::passes::copy_prop::CopyProp.run(&mut shader)?;
            let b = ir::passes::dce::Dce.run(&mut shader)?;
            if !a && !b {
                break;
            }
        }
        // As the SPIR-V translator contracts products and sums (naga's IR has no
        // `NoContraction`: every one may be fused).
        ir::passes::peephole_ffma::PeepholeFfma.run(&mut shader)?;
        Ok(())
    })();
    cleanup.map_err(|e| {
        ImportError::new(
            ErrorKind::Internal,
            Location::Unknown,
            format!("internal error of the front end: {e}"),
        )
    })?;
    ir::validate(&shader).map_err(|diags| {
        let text: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        ImportError::new(
            ErrorKind::Internal,
            Location::Unknown,
            format!(
                "internal error of the front end: the imported IR does not validate: {}",
                text.join("; ")
            ),
        )
    })?;
    Ok(Imported {
        shader,
        bindings: mapping.bindings,
        entry: ep.name.clone(),
        shared_bytes,
        spec_constants: Vec::new(),
        source_file: None,
    })
}
