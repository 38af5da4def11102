//! The validator's tests: shaders built with the `Builder`, one table of expected
//! messages per topic.

use super::*;
use crate::alu::AluOp;
use crate::atomic::AtomicOp;
use crate::builder::{image_indices, Builder};
use crate::entity::{Block, IfId};
use crate::function::{CfNode, CfParent, Cursor, InstKind, Jump};
use crate::image::{Access, Format, ImageDecl, ImageDim};
use crate::image::{ImageRef, LayoutTiling, StaticLayout};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, AddrType, DataShape, Sfid};
use crate::lsc::{CacheControl, DataSize};
use crate::types::Swizzle;
use crate::types::{AluType, BaseType, Src, Type};

fn decl(name: &str, dim: ImageDim, arrayed: bool, format: Format) -> ImageDecl {
    ImageDecl {
        arrayed,
        ..ImageDecl::new(name, dim, format)
    }
}

/// A shader with `@img2d : 2d rgba8_unorm`, `@r32 : 2d r32_uint`,
/// `@r32f : 1d array r32_float`, `@r64 : 3d r64_uint`, `@arr[4] : 2d r32_sint`,
/// and one function built by `f`.
fn shader(f: impl FnOnce(&mut Builder, &Shader)) -> Shader {
    let mut sh = Shader::new([1, 1, 1]);
    sh.add_image(decl("img2d", ImageDim::D2, false, Format::Rgba8Unorm));
    sh.add_image(decl("r32", ImageDim::D2, false, Format::R32Uint));
    sh.add_image(decl("r32f", ImageDim::D1, true, Format::R32Float));
    sh.add_image(decl("r64", ImageDim::D3, false, Format::R64Uint));
    let mut arr = decl("arr", ImageDim::D2, false, Format::R32Sint);
    arr.count = Some(4);
    sh.add_image(arr);
    let mut func = Function::new("main");
    let mut b = Builder::at_end(&mut func);
    f(&mut b, &sh);
    sh.functions.push(func);
    sh
}

fn img(sh: &Shader, name: &str) -> (ImageDecl, ImageRef) {
    let id = sh.image_by_name(name).unwrap();
    (sh.image(id).clone(), ImageRef::new(id))
}

fn errors(sh: &Shader) -> Vec<String> {
    match validate(sh) {
        Ok(()) => Vec::new(),
        Err(d) => d.into_iter().map(|d| d.message).collect(),
    }
}

fn assert_errors(sh: &Shader, want: &[&str]) {
    assert_eq!(errors(sh), want, "diagnostics differ");
}

/// An intrinsic for [`emit`]: opcode, image, sources, indices, destination type.
type Intr<'a> = (
    IntrinsicOp,
    Option<ImageRef>,
    Vec<Src>,
    &'a [u32],
    Option<Type>,
);

/// Emits `list` in order: the tests of malformed intrinsics are tables of these,
/// one expected message each.
fn emit(b: &mut Builder, list: &[Intr<'_>]) {
    for (op, image, srcs, indices, dest) in list {
        b.intrinsic(*op, *image, srcs, indices, *dest);
    }
}

/// `decl`'s image indices followed by `last` (`dest_type`, `src_type` or
/// `atomic_op`), as the image access intrinsics carry them.
fn access_indices(decl: &ImageDecl, last: u32) -> Vec<u32> {
    image_indices(decl).into_iter().chain([last]).collect()
}

fn u32t() -> AluType {
    AluType::new(BaseType::Uint, 32)
}

fn f32t() -> AluType {
    AluType::new(BaseType::Float, 32)
}

fn coord2(b: &mut Builder) -> Value {
    let x = b.imm_u32(1);
    b.vec(&[x.into(), x.into()])
}

/// For [`shader`]: `if true {} else {}`, one `if` whose lists are one empty block
/// each.
fn empty_if(b: &mut Builder, _: &Shader) {
    let c = b.imm_bool(true);
    let i = b.push_if(c);
    b.pop_if(i);
}

use crate::entity::Value;

#[test]
fn valid_shader_passes() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "img2d");
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let xy = b.mov(Src::swizzled(id, &[0, 1]).unwrap());
        let texel = b.image_load(&d, r, xy, 4, f32t());
        b.image_store(&d, r, xy, texel, f32t());
        let (d32, r32) = img(sh, "r32");
        let one = b.imm_u32(1);
        let old = b.image_atomic(&d32, r32, AtomicOp::Iadd, xy, one);
        let _ = b.image_atomic_swap(&d32, r32, AtomicOp::Cmpxchg, xy, old, one);
        let _ = b.image_size(&d32, r32);
        let _ = b.image_load_param(r32, 31, 4);
        let (d64, r64) = img(sh, "r64");
        let xyz = b.mov(Src::swizzled(id, &[0, 1, 2]).unwrap());
        let big = b.imm_u64(7);
        let _ = b.image_atomic(&d64, r64, AtomicOp::Umax, xyz, big);
        let (df, rf) = img(sh, "r32f");
        let f1 = b.imm_f32(1.0);
        let _ = b.image_atomic(&df, rf, AtomicOp::Fadd, xy, f1);
        let _ = b.image_atomic(&df, rf, AtomicOp::Xchg, xy, f1);
        let aid = sh.image_by_name("arr").unwrap();
        let ar = ImageRef {
            image: aid,
            index: Some(one.into()),
        };
        let _ = b.image_load(sh.image(aid), ar, xy, 1, AluType::new(BaseType::Int, 32));
        // Control flow with a phi and a loop with a header phi.
        let c = b.ult(one, old);
        let i = b.push_if(c);
        let t = b.iadd(one, one);
        b.push_else(i);
        let e = b.imul(one, one);
        b.pop_if(i);
        let p = b.if_phi(i, t, e);
        let pre = b.current_block();
        let l = b.push_loop();
        let header = b.current_block();
        let ph = b.phi(Type::U32, &[(pre, p.into())]);
        let next = b.iadd(ph, one);
        let done = b.uge(next, old);
        b.break_if(done);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(ph, latch, next);
        let _ = header;
        // 1-bit operands of unsized integer ops are NIR booleans.
        let both = b.iand(c, c);
        let _ = b.bcsel(both, one, old);
        let _ = b.ufind_msb(old);
    });
    assert_errors(&sh, &[]);
}

// ----- declarations ---------------------------------------------------------------

#[test]
fn declaration_errors() {
    let mut sh = shader(|_, _| {});
    sh.add_image_at(
        decl("r32", ImageDim::D2, false, Format::R32Uint),
        Span::new(3, 1),
    );
    sh.add_image_at(
        decl("vol", ImageDim::D3, true, Format::R32Uint),
        Span::new(4, 1),
    );
    let mut none = decl("none", ImageDim::D2, false, Format::R32Uint);
    none.count = Some(0);
    sh.add_image_at(none, Span::new(5, 1));
    let mut lay = decl("lay", ImageDim::Buffer, false, Format::R32Uint);
    lay.layout = Some(StaticLayout {
        tiling: LayoutTiling::Y,
        row_pitch: 0,
        qpitch: Some(0),
        swizzle: false,
    });
    sh.add_image_at(lay, Span::new(6, 1));
    assert_errors(
        &sh,
        &[
            "image `@r32` is declared more than once",
            "image `@vol`: a 3d image cannot be arrayed; only 1d, 2d and cube images can",
            "image `@none`: an array of images needs at least one element, found 0",
            "image `@lay`: layout row_pitch must be greater than 0",
            "image `@lay`: layout qpitch must be greater than 0",
            "image `@lay`: buffer images are linear, found tiling=y",
        ],
    );
}

#[test]
fn duplicate_function_names() {
    let mut sh = shader(|_, _| {});
    let mut f = Function::new("main");
    f.span = Span::new(9, 1);
    sh.functions.push(f);
    assert_errors(&sh, &["function `main` is defined more than once"]);
}

// ----- shape ----------------------------------------------------------------------

#[test]
fn empty_body() {
    let mut sh = shader(|_, _| {});
    sh.functions[0] = Function::empty("main");
    assert_errors(
        &sh,
        &["the body of fn `main` is empty; expected at least one block"],
    );
}

#[test]
fn adjacent_blocks_and_nodes() {
    let mut sh = shader(|_, _| {});
    let f = &mut sh.functions[0];
    let b1 = f.create_block(CfParent::Root);
    f.append_cf_node(CfParent::Root, CfNode::Block(b1));
    assert_errors(
        &sh,
        &["blocks b0 and b1 follow each other in the body of fn `main`; expected an `if` or `loop` between them"],
    );

    let mut sh = shader(empty_if);
    let f = &mut sh.functions[0];
    // Drop the block between the `if` and a new loop: if, loop adjacent.
    let l = f.create_loop(CfParent::Root, Span::UNKNOWN);
    let h = f.create_block(CfParent::Loop(l));
    f.append_cf_node(CfParent::Loop(l), CfNode::Block(h));
    let body = f.cf_list_mut(CfParent::Root);
    let last = body.pop().unwrap();
    body.push(CfNode::Loop(l));
    body.push(last);
    assert_errors(
        &sh,
        &["a `loop` follows an `if` in the body of fn `main` without a block between them"],
    );
}

#[test]
fn list_must_start_and_end_with_blocks() {
    let build = || {
        shader(|b, _| {
            let i = b.push_if(Value::from_u32(0));
            b.pop_if(i);
            let c = b.imm_bool(true);
            let _ = c;
        })
    };
    // The condition %0 is defined in the block after the `if`, so the start and end
    // errors come with a dominance-free complaint only when the shape is intact.
    let mut sh = build();
    sh.functions[0].cf_list_mut(CfParent::Root).remove(0);
    assert_errors(
        &sh,
        &["the body of fn `main` must start with a block, found an `if`"],
    );
    let mut sh = build();
    sh.functions[0].cf_list_mut(CfParent::Root).pop();
    assert_errors(
        &sh,
        &[
            "the body of fn `main` must end with a block, found an `if`",
            "`if` uses `%0`, whose definition is not in the function body",
        ],
    );
}

#[test]
fn block_twice_and_wrong_parent() {
    let mut sh = shader(empty_if);
    let f = &mut sh.functions[0];
    let i = f.ifs_in_order()[0];
    let then_block = f.first_block(CfParent::Then(i)).unwrap();
    // The else list names the then block too.
    f.if_data_mut(i).else_list = vec![CfNode::Block(then_block)];
    let errs = errors(&sh);
    assert_eq!(
        errs,
        vec!["block b2 appears more than once in the control-flow tree"]
    );

    let mut sh = shader(empty_if);
    let f = &mut sh.functions[0];
    let i = f.ifs_in_order()[0];
    let else_block = f.first_block(CfParent::Else(i)).unwrap();
    f.block_mut(else_block).parent = Some(CfParent::Then(i));
    assert_errors(
        &sh,
        &["block b3 sits in the else-list of the `if` if0 but records its parent as the then-list of the `if` if0"],
    );
}

#[test]
fn parent_outside_the_arena_is_reported_not_a_panic() {
    let mut sh = shader(|_, _| {});
    let f = &mut sh.functions[0];
    f.block_mut(Block::from_u32(0)).parent = Some(CfParent::Then(IfId::from_u32(7)));
    assert_errors(
        &sh,
        &["block b0 sits in the body of fn `main` but records its parent as the then-list of the `if` if7"],
    );
}

#[test]
fn jumps_outside_loops_and_not_last() {
    let mut sh = shader(|b, _| {
        b.jump(Jump::Break);
    });
    sh.functions[0].block_mut(Block::from_u32(0)).span = Span::new(2, 3);
    assert_errors(&sh, &["`break` outside of a loop (it ends block b0)"]);

    let sh = shader(|b, _| {
        let l = b.push_loop();
        b.jump(Jump::Continue);
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.pop_if(i);
        b.pop_loop(l);
    });
    // push_if moved the jump to the block after the new `if`; put one back on the
    // header, which is followed by the `if`.
    let mut sh = sh;
    let f = &mut sh.functions[0];
    let l = match f.body()[1] {
        CfNode::Loop(l) => l,
        _ => unreachable!(),
    };
    let header = f.first_block(CfParent::Loop(l)).unwrap();
    f.block_mut(header).jump = Some(Jump::Break);
    assert_errors(
        &sh,
        &["`break` ends block b2, which is not the last node of the body of the `loop` loop0; a jump must end the last block of its list"],
    );
}

// ----- SSA ------------------------------------------------------------------------

#[test]
fn undefined_and_removed_values() {
    let sh = shader(|b, _| {
        let ghost = Value::from_u32(40);
        b.func.reserve_value(ghost);
        let x = b.imm_u32(1);
        b.iadd(x, ghost);
        let orphan = b
            .func
            .create_inst(InstKind::Undef, Some(Type::U32), Span::UNKNOWN);
        let ov = b.func.inst(orphan).dest.unwrap();
        b.iadd(x, ov);
    });
    assert_errors(
        &sh,
        &[
            "`iadd` uses `%40`, which is not defined",
            "`iadd` uses `%43`, whose definition is not in the function body",
        ],
    );
}

#[test]
fn use_before_def_in_block() {
    let sh = shader(|b, _| {
        let x = b.imm_u32(1);
        let y = b.iadd(x, x);
        let yi = b.func.value_def(y).unwrap();
        let xi = b.func.value_def(x).unwrap();
        b.func.remove_inst(xi);
        b.func.insert_inst(xi, Cursor::After(yi));
        b.func.set_inst_span(xi, Span::new(3, 5));
        b.func.set_inst_span(yi, Span::new(2, 5));
    });
    let d = validate(&sh).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].span, Span::new(2, 5));
    assert_eq!(
        d[0].message,
        "`iadd` uses `%0` before its definition at 3:5"
    );
}

#[test]
fn use_not_dominated() {
    let sh = shader(|b, _| {
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        let t = b.imm_u32(3);
        b.pop_if(i);
        b.iadd(t, t);
    });
    assert_errors(
        &sh,
        &["`iadd` uses `%1` in block b1, but its definition in block b2 does not dominate it"],
    );
}

#[test]
fn phi_source_must_dominate_predecessor_end() {
    let sh = shader(|b, _| {
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        let t = b.imm_u32(3);
        b.push_else(i);
        b.pop_if(i);
        // Both sources use the then-value; from the else block it is not available.
        b.if_phi(i, t, t);
    });
    assert_errors(
        &sh,
        &["phi source from b3 uses `%1` at the end of block b3, but its definition in block b2 does not dominate it"],
    );
}

#[test]
fn value_defined_twice() {
    let sh = shader(|b, _| {
        let x = b.imm_u32(1);
        let y = b.imm_u32(2);
        let yi = b.func.value_def(y).unwrap();
        b.func.inst_mut(yi).dest = Some(x);
    });
    assert_errors(&sh, &["`%0` is defined more than once (also elsewhere)"]);
}

#[test]
fn unreachable_uses_are_vacuous_but_defs_do_not_dominate() {
    // loop { if c { break } else { break }; <unreachable: uses a value from the
    // then-block> }; after the loop, a use of a value from the unreachable block.
    let sh = shader(|b, _| {
        let l = b.push_loop();
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        let t = b.imm_u32(1);
        b.jump(Jump::Break);
        b.push_else(i);
        b.jump(Jump::Break);
        b.pop_if(i);
        let dead = b.iadd(t, t);
        b.pop_loop(l);
        b.iadd(dead, dead);
    });
    assert_errors(
        &sh,
        &["`iadd` uses `%2` in block b1, but its definition in block b3 does not dominate it"],
    );
}

// ----- phis -----------------------------------------------------------------------

fn if_with_phi(f: impl FnOnce(&mut Builder, IfId, Value, Value)) -> Shader {
    shader(|b, _| {
        let c = b.imm_bool(true);
        let (i, t, e) = b.if_else_u32(c, 1, 2);
        f(b, i, t, e);
    })
}

#[test]
fn phi_not_at_block_start() {
    let sh = if_with_phi(|b, i, t, e| {
        b.undef(Type::U32);
        b.if_phi(i, t, e);
    });
    assert_errors(
        &sh,
        &["phi in block b1 comes after other instructions; phis must be at the start of their block"],
    );
}

#[test]
fn phi_sources_per_predecessor() {
    // The merge block is b1; its predecessors are the then-block b2 and the
    // else-block b3.
    let (b0, b2, b3) = (Block::from_u32(0), Block::from_u32(2), Block::from_u32(3));
    let sh = if_with_phi(|b, _, t, _| {
        b.phi(Type::U32, &[(b2, t.into())]);
    });
    assert_errors(&sh, &["phi has no source for predecessor b3 of b1"]);

    let sh = if_with_phi(|b, _, t, e| {
        b.phi(Type::U32, &[(b2, t.into()), (b3, e.into()), (b0, t.into())]);
    });
    assert_errors(
        &sh,
        &["phi has a source from b0, which is not a predecessor of b1 (predecessors: b2, b3)"],
    );

    let sh = if_with_phi(|b, _, t, e| {
        b.phi(Type::U32, &[(b2, t.into()), (b3, e.into()), (b3, e.into())]);
    });
    assert_errors(&sh, &["phi has more than one source from b3"]);
}

#[test]
fn phi_source_types() {
    let sh = shader(|b, _| {
        let w = b.imm_u64(2);
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.push_else(i);
        b.pop_if(i);
        let t = b.func.last_block(CfParent::Then(i)).unwrap();
        let e = b.func.last_block(CfParent::Else(i)).unwrap();
        b.phi(Type::U32, &[(t, w.into()), (e, w.into())]);
    });
    assert_errors(
        &sh,
        &[
            "phi source from b2 is 64, expected 32 (the phi's type)",
            "phi source from b3 is 64, expected 32 (the phi's type)",
        ],
    );
}

// ----- ALU, constants, swizzles, conditions ---------------------------------------

#[test]
fn alu_bit_sizes() {
    let sh = shader(|b, _| {
        let x = b.imm_u32(1);
        let h = b.imm_int(16, 1);
        let t = b.imm_bool(true);
        b.alu_typed(AluOp::Iadd, &[x.into(), h.into()], Type::U32);
        b.alu_typed(AluOp::Ishl, &[x.into(), h.into()], Type::U32);
        b.alu_typed(AluOp::Iadd, &[x.into(), t.into()], Type::U32);
        b.alu_typed(AluOp::Ieq, &[x.into(), x.into()], Type::U32);
        b.alu_typed(AluOp::Ult, &[h.into(), x.into()], Type::BOOL);
        let byte = b.imm_int(8, 1);
        b.alu_typed(
            AluOp::Fadd,
            &[byte.into(), byte.into()],
            Type::scalar(8).unwrap(),
        );
        b.alu_typed(AluOp::UfindMsb, &[h.into()], Type::U32);
        b.alu_typed(
            AluOp::Ubfe,
            &[h.into(), x.into(), x.into()],
            Type::scalar(16).unwrap(),
        );
    });
    assert_errors(
        &sh,
        &[
            "source 1 of `iadd` is 16-bit, expected 32-bit (the destination's bit size)",
            "source 1 of `ishl` must be 32-bit (uint32), found 16-bit",
            "source 1 of `iadd` is 1-bit, expected 32-bit (the destination's bit size)",
            "`ieq` produces a 1-bit result (bool1), but the destination is 32-bit",
            "source 1 of `ult` is 32-bit, expected 16-bit (like source 0)",
            "`fadd` produces a 8-bit float; floats are 16, 32 or 64-bit",
            "source 0 of `fadd` is a 8-bit float; floats are 16, 32 or 64-bit",
            "source 1 of `fadd` is a 8-bit float; floats are 16, 32 or 64-bit",
            "source 0 of `ufind_msb` must be 32 or 64-bit, found 16-bit",
            "`ubfe` produces a 32-bit result (uint32), but the destination is 16-bit",
            "source 0 of `ubfe` must be 32-bit (uint32), found 16-bit",
        ],
    );
}

#[test]
fn alu_component_counts() {
    let sh = shader(|b, _| {
        let v2 = b.load_const(Type::vec32(2), &[1, 2]);
        let x = b.imm_u32(1);
        b.alu_typed(AluOp::Iadd, &[v2.into(), x.into()], Type::vec32(2));
        b.alu_typed(AluOp::Vec2, &[v2.into(), x.into()], Type::vec32(2));
        b.alu_typed(AluOp::Vec3, &[x.into(), x.into(), x.into()], Type::vec32(2));
        b.alu_typed(AluOp::Iadd, &[x.into()], Type::U32);
    });
    assert_errors(
        &sh,
        &[
            "source 1 of `iadd` has 1 component, expected 2 (the destination's component count)",
            "source 0 of `vec2` has 2 components, expected 1",
            "`vec3` produces 3 components, but the destination has 2",
            "`iadd` takes 2 sources, found 1",
        ],
    );
}

#[test]
fn swizzles_constants_and_conditions() {
    let sh = shader(|b, _| {
        let v2 = b.load_const(Type::vec32(2), &[1, 2]);
        b.mov(Src::swizzled(v2, &[2]).unwrap());
        b.func.reserve_value(Value::from_u32(0));
        let wide = Src {
            value: v2,
            swizzle: Swizzle::new(&[0, 1, 0, 1, 0]).unwrap(),
        };
        b.alu_typed(AluOp::Mov, &[wide], Type::vec32(4));
        let k = b.func.create_inst(
            InstKind::LoadConst(smallvec::smallvec![1, 2, 3]),
            Some(Type::vec32(2)),
            Span::UNKNOWN,
        );
        b.func.insert_inst(k, b.cursor);
        b.cursor = Cursor::After(k);
        b.load_const(Type::vec32(1), &[1]);
        let k2 = b.func.create_inst(
            InstKind::LoadConst(smallvec::smallvec![0x1ff]),
            Some(Type::scalar(8).unwrap()),
            Span::UNKNOWN,
        );
        b.func.insert_inst(k2, b.cursor);
        b.cursor = Cursor::After(k2);
        let x = b.imm_u32(1);
        let i = b.push_if(x);
        b.pop_if(i);
    });
    assert_errors(
        &sh,
        &[
            "swizzle `.z` reads component 2 of `%0`, which has 2 components",
            "swizzle `.xyxyx` of `%0` selects 5 components; expected 1, 2, 3, 4, 8 or 16",
            "`load_const` has 3 values, expected 2 for type 32x2",
            "`load_const` value 0 (0x1ff) does not fit in 8 bits",
            "`if` condition must be a 1-bit scalar, found 32",
        ],
    );
}

// ----- intrinsics -----------------------------------------------------------------

#[test]
fn image_operand_presence() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32");
        let xy: Src = coord2(b).into();
        let ind = access_indices(&d, u32t().to_index());
        let bogus = ImageRef::new(crate::entity::ImageId::from_u32(9));
        let ty = Some(Type::U32);
        use IntrinsicOp::{ImageLoad, LoadGlobalInvocationId};
        emit(
            b,
            &[
                (ImageLoad, None, vec![xy], &ind, ty),
                (
                    LoadGlobalInvocationId,
                    Some(r),
                    vec![],
                    &[],
                    Some(Type::vec32(3)),
                ),
                (ImageLoad, Some(bogus), vec![xy], &ind, ty),
            ],
        );
    });
    assert_errors(
        &sh,
        &[
            "`@image_load` needs an image operand (`@image`)",
            "`@load_global_invocation_id` does not take an image operand",
            "`@image_load` names image9, which is not declared",
        ],
    );
}

#[test]
fn image_array_indexing() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "arr");
        let (d2, r2) = img(sh, "r32");
        let xy = coord2(b);
        let h = b.imm_int(16, 0);
        let one = b.imm_u32(1);
        let it = AluType::new(BaseType::Int, 32);
        b.image_load(&d, r, xy, 1, it);
        b.image_load(
            &d2,
            ImageRef {
                index: Some(one.into()),
                ..r2
            },
            xy,
            1,
            u32t(),
        );
        b.image_load(
            &d,
            ImageRef {
                index: Some(h.into()),
                ..r
            },
            xy,
            1,
            it,
        );
    });
    assert_errors(
        &sh,
        &[
            "`@image_load`: `@arr` is an array of 4 images and needs an index (`@arr[%i]`)",
            "`@image_load`: `@r32` is not an array of images and cannot be indexed",
            "`@image_load`: the image index must be a 32-bit scalar, found 16",
        ],
    );
}

#[test]
fn indices_and_source_counts() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32");
        let xy: Src = coord2(b).into();
        let t: Src = b.imm_bool(true).into();
        let zero: Src = b.imm_u32(0).into();
        let idx = image_indices(&d);
        let bad = [&idx[..], &[0x900]].concat();
        let ok = access_indices(&d, u32t().to_index());
        let ty = Some(Type::U32);
        use IntrinsicOp::{ImageLoad, ImageStore};
        emit(
            b,
            &[
                (ImageLoad, Some(r), vec![xy], &idx, ty),
                (ImageLoad, Some(r), vec![xy], &bad, ty),
                (ImageLoad, Some(r), vec![xy, t, t], &ok, ty),
                (ImageLoad, Some(r), vec![], &ok, ty),
                (ImageStore, Some(r), vec![xy, zero, zero], &ok, None),
            ],
        );
    });
    assert_errors(
        &sh,
        &[
            "`@image_load` takes 5 indices (image_dim, image_array, format, access, dest_type), found 4",
            "`@image_load`: index `dest_type` has an invalid value (2304)",
            "`@image_load` takes 1 or 2 sources (coord[, lod]), found 3",
            "`@image_load` takes 1 or 2 sources (coord[, lod]), found 0",
            "`@image_store` takes 2 sources (coord, data), found 3",
        ],
    );
}

#[test]
fn image_load_lod_operand() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32");
        let xy: Src = coord2(b).into();
        let lod: Src = b.imm_u32(1).into();
        let lod16: Src = b.load_const(Type::new(16, 1).unwrap(), &[1]).into();
        let ok = access_indices(&d, u32t().to_index());
        let load = |srcs| {
            (
                IntrinsicOp::ImageLoad,
                Some(r),
                srcs,
                &ok[..],
                Some(Type::U32),
            )
        };
        emit(
            b,
            &[
                // Fine: with and without a 32-bit scalar LOD.
                load(vec![xy]),
                load(vec![xy, lod]),
                // Wrong: a vector LOD, a 16-bit LOD.
                load(vec![xy, xy]),
                load(vec![xy, lod16]),
            ],
        );
    });
    assert_errors(
        &sh,
        &[
            "`@image_load`: source `lod` has 2 components, expected 1",
            "`@image_load`: source `lod` is 16-bit, expected 32-bit",
        ],
    );
}

#[test]
fn image_indices_agree_with_declaration() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32");
        let xy = coord2(b);
        let mut other = d.clone();
        other.dim = ImageDim::D1;
        other.arrayed = true;
        other.format = Format::R32Sint;
        b.image_load(&other, r, xy, 1, AluType::new(BaseType::Int, 32));
    });
    assert_errors(
        &sh,
        &[
            "`@image_load`: image_dim=1d does not match the declaration of `@r32` (2d)",
            "`@image_load`: image_array=true does not match the declaration of `@r32` (not arrayed)",
            "`@image_load`: format=r32_sint does not match the declaration of `@r32` (r32_uint)",
        ],
    );
}

#[test]
fn image_coordinates_and_texel_data() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "img2d");
        let (df, rf) = img(sh, "r32f");
        let x = b.imm_u32(0);
        let xyz = b.vec(&[x.into(), x.into(), x.into()]);
        let xy = coord2(b);
        b.image_load(&d, r, xyz, 4, f32t());
        b.image_load(&df, rf, x, 1, f32t());
        let wide = b.load_const(Type::vec32(8), &[0; 8]);
        b.image_store(&d, r, xy, wide, f32t());
        let h = b.load_const(Type::new(16, 4).unwrap(), &[0; 4]);
        b.image_store(&d, r, xy, h, AluType::new(BaseType::Float, 0));
        let v4 = b.load_const(Type::vec32(4), &[0; 4]);
        b.image_store(&d, r, xy, v4, u32t());
        b.image_store(&d, r, xy, v4, AluType::new(BaseType::Float, 16));
    });
    assert_errors(
        &sh,
        &[
            "`@image_load`: the coordinate has 3 components, expected 2 for a 2d image",
            "`@image_load`: the coordinate has 1 component, expected 2 for a 1d array image",
            "`@image_store`: the data has 8 components, expected 1 to 4",
            "`@image_store`: the data is 16-bit, expected 32-bit for format rgba8_unorm",
            "`@image_store`: src_type=uint32 does not match format rgba8_unorm, which holds float data",
            "`@image_store`: src_type=float16 does not match the 32-bit data",
        ],
    );
}

#[test]
fn image_atomics() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32");
        let (df, rf) = img(sh, "r32f");
        let (d64, r64) = img(sh, "r64");
        let xy = coord2(b);
        let one = b.imm_u32(1);
        let f = b.imm_f32(1.0);
        let big = b.imm_u64(1);
        let xyz = b.vec(&[one.into(), one.into(), one.into()]);
        b.image_atomic(&d, r, AtomicOp::Cmpxchg, xy, one);
        b.image_atomic_swap(&d, r, AtomicOp::Iadd, xy, one, one);
        b.image_atomic(&d, r, AtomicOp::Fadd, xy, f);
        b.image_atomic(&df, rf, AtomicOp::Imin, xy, f);
        b.image_atomic(&d64, r64, AtomicOp::Iadd, xyz, one);
        b.image_atomic(&d, r, AtomicOp::Iadd, xy, big);
    });
    assert_errors(
        &sh,
        &[
            "`@image_atomic`: atomic_op=cmpxchg compares and swaps; it needs `@image_atomic_swap`",
            "`@image_atomic_swap` takes atomic_op=cmpxchg or fcmpxchg, found iadd",
            "`@image_atomic`: atomic_op=fadd needs a float format, but `@r32` is r32_uint (integer data)",
            "`@image_atomic`: atomic_op=imin needs an integer format, but `@r32f` is r32_float (float data)",
            "`@image_atomic`: the atomic data is 32-bit, expected 64-bit for format r64_uint",
            "`@image_atomic`: the destination is 32, expected 64 (the old texel value)",
            "`@image_atomic`: the atomic data is 64-bit, expected 32-bit for format r32_uint",
            "`@image_atomic`: the destination is 64, expected 32 (the old texel value)",
        ],
    );
}

#[test]
fn image_size_and_params() {
    let sh = shader(|b, sh| {
        let (d, r) = img(sh, "r32f");
        let idx = image_indices(&d);
        let x: Src = b.imm_u32(0).into();
        let store = access_indices(&d, f32t().to_index());
        let minus_one = [-1i32 as u32, 0];
        use IntrinsicOp::{ImageLoadParam, ImageSamples, ImageSize, ImageStore, LoadWorkgroupId};
        emit(
            b,
            &[
                (ImageSize, Some(r), vec![], &idx, Some(Type::vec32(1))),
                (
                    ImageLoadParam,
                    Some(r),
                    vec![],
                    &[32, 0],
                    Some(Type::vec32(4)),
                ),
                (
                    ImageLoadParam,
                    Some(r),
                    vec![],
                    &minus_one,
                    Some(Type::vec32(2)),
                ),
                (ImageLoadParam, Some(r), vec![], &[0, 0], Some(Type::U64)),
                (
                    ImageSamples,
                    Some(r),
                    vec![],
                    &[idx[0], idx[1], 0],
                    Some(Type::U64),
                ),
                (LoadWorkgroupId, None, vec![], &[], Some(Type::vec32(2))),
                (LoadWorkgroupId, None, vec![], &[], None),
                (ImageStore, Some(r), vec![x, x], &store, Some(Type::U32)),
            ],
        );
    });
    assert_errors(
        &sh,
        &[
            "`@image_size`: the destination is 32, expected 32x2 for a 1d array image",
            "`@image_load_param`: base 32 is out of range; the image parameter block has 32 slots (0..32)",
            "`@image_load_param`: base -1 is out of range; the image parameter block has 32 slots (0..32)",
            "`@image_load_param`: the destination is 64, expected 1 to 4 32-bit components",
            "`@image_samples`: the destination is 64, expected 32",
            "`@load_workgroup_id`: the destination is 32x2, expected 32x3",
            "`@load_workgroup_id` must define a value",
            "`@image_store` does not produce a value",
            "`@image_store`: the coordinate has 1 component, expected 2 for a 1d array image",
        ],
    );
}

fn lsc(sfid: Sfid, addr: AddrType, asz: AddrSize, shape: DataShape) -> Vec<u32> {
    vec![
        sfid as u32,
        addr as u32,
        asz as u32,
        shape.to_index(),
        CacheControl::DEFAULT.to_index(),
        0,
    ]
}

#[test]
fn lsc_messages_valid() {
    let sh = shader(|b, sh| {
        let (_, r) = img(sh, "r32");
        let a64 = b.imm_u64(0);
        let a32 = b.imm_u32(0);
        let d4 = DataShape::vector(DataSize::D32, 4, false);
        let ind = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d4);
        let v = b
            .intrinsic(
                IntrinsicOp::LscLoad,
                None,
                &[a64.into()],
                &ind,
                Some(Type::vec32(4)),
            )
            .unwrap();
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a64.into(), v.into()],
            &ind,
            None,
        );
        let p = b.imm_bool(true);
        let ind = lsc(
            Sfid::Ugm,
            AddrType::Bti,
            AddrSize::A32,
            DataShape::vector(DataSize::D8U32, 1, false),
        );
        b.intrinsic(
            IntrinsicOp::LscLoad,
            Some(r),
            &[a32.into(), p.into()],
            &ind,
            Some(Type::U32),
        );
        let q = DataShape::quad(DataSize::D32, 0b1011);
        let ind = lsc(Sfid::Tgm, AddrType::Bti, AddrSize::A32, q);
        let c = [a32.into(), a32.into(), a32.into(), a32.into()];
        let t = b
            .intrinsic(
                IntrinsicOp::LscLoadQuad,
                Some(r),
                &c,
                &ind,
                Some(Type::vec32(3)),
            )
            .unwrap();
        let mut s = c.to_vec();
        s.push(t.into());
        b.intrinsic(IntrinsicOp::LscStoreQuad, Some(r), &s, &ind, None);
        let mut ind = lsc(
            Sfid::Tgm,
            AddrType::Bti,
            AddrSize::A32,
            DataShape::vector(DataSize::D32, 1, false),
        );
        ind.push(crate::lsc::LscAtomicOp::Icas.opcode());
        let mut s = c.to_vec();
        s.push(a32.into());
        s.push(a32.into());
        b.intrinsic(IntrinsicOp::LscAtomic, Some(r), &s, &ind, Some(Type::U32));
        let chans = IndexKind::Channels.parse_value("rga").unwrap();
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            Some(r),
            &[a32.into(), a32.into(), a32.into()],
            &[chans, f32t().to_index()],
            Some(Type::vec32(3)),
        );
    });
    assert_errors(&sh, &[]);
}

#[test]
fn lsc_message_errors() {
    let sh = shader(|b, sh| {
        let (_, r) = img(sh, "r32");
        let a64: Src = b.imm_u64(0).into();
        let a32: Src = b.imm_u32(0).into();
        let p: Src = b.imm_u32(1).into();
        let v64: Src = b.load_const(Type::new(64, 4).unwrap(), &[0; 4]).into();
        let d4 = DataShape::vector(DataSize::D32, 4, false);
        let flat = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d4);
        let bti = lsc(Sfid::Ugm, AddrType::Bti, AddrSize::A32, d4);
        let d32x32t = DataShape::vector(DataSize::D32, 32, true);
        let t = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d32x32t);
        let d32 = DataShape::vector(DataSize::D32, 1, false);
        let mut at = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d32);
        at.push(crate::lsc::LscAtomicOp::Iadd.opcode());
        let rgba = IndexKind::Channels.parse_value("rgba").unwrap();
        let sampler = [rgba, f32t().to_index()];
        let v4 = Some(Type::vec32(4));
        use IntrinsicOp::{LscAtomic, LscLoad, LscLoadQuad, LscStore, SamplerLd};
        emit(
            b,
            &[
                (LscLoad, Some(r), vec![a64], &flat, v4),
                (LscLoad, None, vec![a32], &bti, v4),
                (LscLoad, None, vec![a32], &flat, Some(Type::vec32(2))),
                (LscLoadQuad, None, vec![a64], &flat, v4),
                (LscStore, None, vec![a64, v64], &flat, None),
                (LscLoad, None, vec![a64], &t, Some(Type::vec32(16))),
                (LscAtomic, None, vec![a64, a64], &at, Some(Type::U32)),
                (LscLoad, None, vec![a64, p], &flat, v4),
                (
                    SamplerLd,
                    Some(r),
                    vec![a32; 4],
                    &sampler,
                    Some(Type::vec32(3)),
                ),
            ],
        );
    });
    assert_errors(
        &sh,
        &[
            "`@lsc_load` with lsc_addr=flat cannot name an image",
            "`@lsc_load` with lsc_addr=bti needs an image operand (the surface)",
            "`@lsc_load`: the address is 32-bit, expected 64-bit for lsc_addr_size=a64",
            "`@lsc_load`: the destination is 32x2, expected 32x4 for lsc_data=d32x4",
            "`@lsc_load_quad` needs a channel-mask data shape such as d32.xyzw, found lsc_data=d32x4",
            "`@lsc_store`: the data is 64x4, expected 32x4 for lsc_data=d32x4",
            "`@lsc_load`: lsc_data=d32x32t has 32 components per address, which no IR value can hold",
            "`@lsc_atomic`: atomic operand `src1` is 64-bit, expected 32-bit for lsc_data=d32",
            "`@lsc_load`: the predicate must be a 1-bit scalar, found 32",
            "`@sampler_ld`: the destination has 3 components, expected 4 for channels=rgba",
        ],
    );
}

#[test]
fn diagnostics_sorted_by_position() {
    let sh = shader(|b, _| {
        let x = b.imm_u32(1);
        let h = b.imm_int(16, 1);
        let a = b.alu_typed(AluOp::Iadd, &[x.into(), h.into()], Type::U32);
        let c = b.alu_typed(AluOp::Isub, &[x.into(), h.into()], Type::U32);
        let ai = b.func.value_def(a).unwrap();
        let ci = b.func.value_def(c).unwrap();
        b.func.set_inst_span(ai, Span::new(9, 2));
        b.func.set_inst_span(ci, Span::new(4, 7));
        b.alu_typed(AluOp::Imul, &[x.into(), h.into()], Type::U32);
    });
    let d = validate(&sh).unwrap_err();
    let spans: Vec<Span> = d.iter().map(|d| d.span).collect();
    assert_eq!(spans, vec![Span::new(4, 7), Span::new(9, 2), Span::UNKNOWN]);
}

// The text-in, text-out tests of block messages and group async copies are lit files
// under `tests/lit/validate/`.

#[test]
fn workgroups_within_the_hardware_limits() {
    let errors_for = |text: &str| -> Vec<(Span, String)> {
        let sh = crate::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
        match validate(&sh) {
            Ok(()) => Vec::new(),
            Err(d) => d.into_iter().map(|d| (d.span, d.message)).collect(),
        }
    };
    let fine = "fn main {\n  block b0:\n}\n";
    for ok in [
        "1024,1,1", "1,1024,1", "1,1,1024", "32,32,1", "16,8,8", "1,1,1",
    ] {
        let text = format!("shader compute (local_size={ok})\n{fine}");
        assert_eq!(errors_for(&text), [], "{ok}");
    }
    // The reproducer: 65535 wide in x.
    let text = format!("shader compute (local_size=65535,8,1)\n{fine}");
    assert_eq!(
        errors_for(&text),
        [(
            Span::new(1, 17),
            "local_size=65535,8,1: the workgroup is 65535 invocations wide in x; Intel GPUs allow at most 1024 per dimension".to_string()
        )]
    );
    let text = format!("shader compute (local_size=1,2,4096)\n{fine}");
    assert_eq!(
        errors_for(&text)[0].1,
        "local_size=1,2,4096: the workgroup is 4096 invocations wide in z; Intel GPUs allow at most 1024 per dimension"
    );
    // Every dimension within its limit, the product not: 64 x 32 = 2048, and
    // 1025 x 1024 x 1024 would overflow 32 bits.
    let text = format!("shader compute (local_size=64,32,1)\n{fine}");
    assert_eq!(
        errors_for(&text),
        [(
            Span::new(1, 17),
            "local_size=64,32,1: the workgroup has 64 x 32 x 1 = 2048 invocations; Intel GPUs run at most 1024 per workgroup".to_string()
        )]
    );
    let text = format!("shader compute (local_size=1024,1024,1024)\n{fine}");
    assert_eq!(
        errors_for(&text)[0].1,
        "local_size=1024,1024,1024: the workgroup has 1024 x 1024 x 1024 = 1073741824 invocations; Intel GPUs run at most 1024 per workgroup"
    );
    // Built without text: the same check, without a position.
    let mut sh = Shader::new([2048, 1, 1]);
    sh.functions.push(Function::new("main"));
    let d = validate(&sh).unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].span, Span::UNKNOWN);
}

#[test]
fn access_qualifiers_of_sampler_reads_and_restated_indices() {
    // The sampler's ld reads its image: refused on a writeonly image, fine on a
    // readonly one. An image access whose `access` index says readonly is held to it
    // even when the declaration does not say so.
    let mut sh = shader(|_, _| {});
    let mut ro = decl("ro", ImageDim::D2, false, Format::R32Float);
    ro.access = Access::NON_WRITEABLE;
    let ro = sh.add_image(ro);
    let mut wo = decl("wo", ImageDim::D2, false, Format::R32Float);
    wo.access = Access::NON_READABLE;
    let wo = sh.add_image(wo);
    let plain = sh.image_by_name("r32").unwrap();
    let mut func = Function::new("main");
    let mut b = Builder::at_end(&mut func);
    let a32 = b.imm_u32(0);
    let rgba = IndexKind::Channels.parse_value("rgba").unwrap();
    for image in [ro, wo] {
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            Some(ImageRef::new(image)),
            &[a32.into(), a32.into(), a32.into()],
            &[rgba, f32t().to_index()],
            Some(Type::vec32(4)),
        );
    }
    let d = sh.image(plain).clone();
    let xy = b.vec(&[a32.into(), a32.into()]);
    let mut idx = access_indices(&d, u32t().to_index());
    idx[3] = Access::NON_WRITEABLE.bits();
    b.intrinsic(
        IntrinsicOp::ImageStore,
        Some(ImageRef::new(plain)),
        &[xy.into(), a32.into()],
        &idx,
        None,
    );
    sh.functions[0] = func;
    assert_errors(
        &sh,
        &[
            "`@sampler_ld_lz`: `@wo` is writeonly, but this reads it; a writeonly image is never read",
            "`@image_store`: `@r32` is readonly, but this writes it; a readonly image is never written",
        ],
    );
}

#[test]
fn cube_sizes_have_two_or_three_components() {
    let check = |decl: &str, ty: &str| -> Vec<String> {
        let text = format!(
            "image @c : {decl} (binding=0)\nfn main {{\n  block b0:\n    {ty} %0 = @image_size (@c)\n}}\n"
        );
        errors(&crate::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}")))
    };
    // A non-array cube: its face size (SPIR-V OpImageQuerySize, GLSL imageSize on an
    // imageCube), or that and 1 cube.
    assert_eq!(check("cube rgba8_unorm", "32x2"), Vec::<String>::new());
    assert_eq!(check("cube rgba8_unorm", "32x3"), Vec::<String>::new());
    assert_eq!(
        check("cube rgba8_unorm", "32x4"),
        ["`@image_size`: the destination is 32x4, expected 32x3 for a cube image"]
    );
    // A cube array counts its cubes: 3 components only; other dimensions as before.
    assert_eq!(
        check("cube array rgba8_unorm", "32x2"),
        ["`@image_size`: the destination is 32x2, expected 32x3 for a cube array image"]
    );
    assert_eq!(
        check("3d rgba8_unorm", "32x2"),
        ["`@image_size`: the destination is 32x2, expected 32x3 for a 3d image"]
    );
}

#[test]
fn swizzle_messages_echo_the_text_and_point_at_it() {
    // The reproducer: `.xyzw` on a 2-component value is reported as written,
    // with the caret on the swizzle, not as a letter the user did not write.
    let text = "fn main {
  block b0:
    32x2 %0 = load_const (1, 2)
    32x4 %1 = mov %0.xyzw
    32x2 %2 = iadd %0.ab, %0.xd
    32x3 %3 = vec3 %0.x, %0.y, %0.xyyyx
    1    %4 = load_const (true)
    1x2  %5 = vec2 %4, %4
  if %5.xz {
    block b1:
  } else {
    block b2:
  }
  block b3:
}
";
    let sh = crate::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    let got: Vec<(Span, String)> = validate(&sh)
        .unwrap_err()
        .into_iter()
        .map(|d| (d.span, d.message))
        .collect();
    let want = [
        (
            4,
            21,
            "swizzle `.xyzw` reads component 2 of `%0`, which has 2 components",
        ),
        (
            5,
            29,
            "swizzle `.xd` reads component 3 of `%0`, which has 2 components",
        ),
        (
            6,
            34,
            "swizzle `.xyyyx` of `%0` selects 5 components; expected 1, 2, 3, 4, 8 or 16",
        ),
        (
            9,
            8,
            "swizzle `.xz` reads component 2 of `%5`, which has 2 components",
        ),
    ];
    let want: Vec<(Span, String)> = want
        .iter()
        .map(|&(l, c, m)| (Span::new(l, c), m.to_string()))
        .collect();
    assert_eq!(got, want);
    // Rendered, the caret is under the swizzle's `.`.
    let r = crate::diag::render_all(&validate(&sh).unwrap_err()[..1], "t.ir", text);
    let lines: Vec<&str> = r.lines().collect();
    let at = lines[4].find('^').unwrap();
    assert_eq!(&lines[3][at..at + 5], ".xyzw", "{r}");
}

#[test]
fn buffer_declarations_are_checked() {
    use crate::buffer::{BufferDecl, BufferKind};
    let mut sh = shader(|_, _| {});
    sh.add_buffer(BufferDecl::new("a", BufferKind::Ssbo, 0, 16));
    // Blocks 2..5: overlaps nothing of its kind yet.
    sh.add_buffer(BufferDecl {
        count: Some(3),
        ..BufferDecl::new("arr", BufferKind::Ssbo, 2, 0)
    });
    // The same block index in the other kind's space is fine.
    sh.add_buffer(BufferDecl::new("u", BufferKind::Ubo, 0, 16));
    check_shader(&sh).unwrap();
    sh.add_buffer(BufferDecl::new("b", BufferKind::Ssbo, 4, 8));
    sh.add_buffer(BufferDecl {
        stride: Some(0),
        ..BufferDecl::new("a", BufferKind::Ubo, 7, 8)
    });
    sh.add_buffer(BufferDecl {
        count: Some(2),
        ..BufferDecl::new("far", BufferKind::Ssbo, u32::MAX, 8)
    });
    let errs: Vec<String> = check_shader(&sh)
        .unwrap_err()
        .iter()
        .map(|e| e.kind.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "buffer `@b`: ssbo block 4 is also declared by `@arr`",
            "buffer `@a` is declared more than once",
            "buffer `@a`: a runtime array's stride must be at least 1 byte, found 0",
            "buffer `@far`: 2 blocks from block 4294967295 would pass block index 4294967295",
        ]
    );
}
