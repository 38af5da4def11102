//! Tests of the arenas, the layout and the editing operations.

use super::*;
use crate::alu::AluOp;
use crate::entity::{Block, IfId, Inst, Value};
use crate::span::Span;
use crate::types::{Src, Type};
use std::collections::HashMap;

/// Appends an instruction of `kind` defining a `ty` value to block `b`.
fn append(f: &mut Function, b: Block, kind: InstKind, ty: Type) -> (Inst, Value) {
    let i = f.create_inst(kind, Some(ty), Span::UNKNOWN);
    f.insert_inst(i, Cursor::BlockEnd(b));
    (i, f.inst(i).dest.unwrap())
}

/// Appends the 32-bit constant `v` to block `b`.
fn konst(f: &mut Function, b: Block, v: u64) -> Value {
    append(f, b, InstKind::LoadConst(smallvec::smallvec![v]), Type::U32).1
}

/// Appends `load_const (1, 2, 3)` to block `b`.
fn vec3_const(f: &mut Function, b: Block) -> Value {
    let kind = InstKind::LoadConst(smallvec::smallvec![1, 2, 3]);
    append(f, b, kind, Type::vec32(3)).1
}

/// Appends `mov src` (of type `ty`) to block `b`.
fn append_mov(f: &mut Function, b: Block, src: Src, ty: Type) -> (Inst, Value) {
    let kind = InstKind::Alu(AluInst {
        op: AluOp::Mov,
        srcs: smallvec::smallvec![src],
        exact: false,
    });
    append(f, b, kind, ty)
}

#[test]
fn insert_and_remove_keep_order() {
    let mut f = Function::new("main");
    let b0 = f.first_block(CfParent::Root).unwrap();
    let a = konst(&mut f, b0, 1);
    let c = konst(&mut f, b0, 3);
    let ia = f.value_def(a).unwrap();
    let ic = f.value_def(c).unwrap();
    let ib = f.create_inst(
        InstKind::LoadConst(smallvec::smallvec![2]),
        Some(Type::U32),
        Span::UNKNOWN,
    );
    f.insert_inst(ib, Cursor::After(ia));
    assert_eq!(f.block_insts(b0).collect::<Vec<_>>(), vec![ia, ib, ic]);
    f.remove_inst(ib);
    assert_eq!(f.block_insts(b0).collect::<Vec<_>>(), vec![ia, ic]);
    assert!(!f.is_value_live(f.inst(ib).dest.unwrap()));
}

#[test]
fn replace_uses_keeps_partial_swizzles() {
    let mut f = Function::new("main");
    let b0 = f.first_block(CfParent::Root).unwrap();
    let v3 = vec3_const(&mut f, b0);
    let user = |f: &mut Function, src: Src, ty: Type| append_mov(f, b0, src, ty);
    let (_, xy) = user(&mut f, Src::swizzled(v3, &[0, 1]).unwrap(), Type::vec32(2));
    let (_, xyz) = user(
        &mut f,
        Src::swizzled(v3, &[0, 1, 2]).unwrap(),
        Type::vec32(3),
    );
    let (u1, _) = user(&mut f, Src::new(xy), Type::vec32(2));
    let (u2, _) = user(&mut f, Src::channel(xy, 1), Type::U32);
    let (u3, _) = user(&mut f, Src::new(xyz), Type::vec32(3));
    let mut map = HashMap::new();
    map.insert(xy, Src::swizzled(v3, &[0, 1]).unwrap());
    map.insert(xyz, Src::swizzled(v3, &[0, 1, 2]).unwrap());
    f.replace_uses(&map);
    assert_eq!(f.inst(u1).srcs()[0], Src::swizzled(v3, &[0, 1]).unwrap());
    assert_eq!(f.inst(u2).srcs()[0], Src::channel(v3, 1));
    assert_eq!(f.inst(u3).srcs()[0], Src::new(v3));
}

#[test]
fn replace_uses_follows_chains_in_any_id_order_and_stops_cycles() {
    let mut f = Function::new("main");
    let b0 = f.first_block(CfParent::Root).unwrap();
    let v3 = vec3_const(&mut f, b0);
    let mov = |f: &mut Function, src: Src, ty: Type| append_mov(f, b0, src, ty);
    let (_, a) = mov(&mut f, Src::new(v3), Type::vec32(3));
    let (_, b) = mov(&mut f, Src::swizzled(v3, &[0, 1]).unwrap(), Type::vec32(2));
    // `a` (the lower id) is replaced by a read of `c` (a higher one).
    let (_, c) = mov(&mut f, Src::new(v3), Type::vec32(3));
    let (_, p) = mov(&mut f, Src::new(v3), Type::vec32(3));
    let (_, q) = mov(&mut f, Src::new(v3), Type::vec32(3));
    let sw = |v: Value, comps: &[u8]| Src::swizzled(v, comps).unwrap();
    let (u_a, _) = mov(&mut f, Src::new(a), Type::vec32(3));
    let (u_b, _) = mov(&mut f, Src::new(b), Type::vec32(2));
    let (u_by, _) = mov(&mut f, Src::channel(b, 1), Type::U32);
    let (u_azyx, _) = mov(&mut f, sw(a, &[2, 1, 0]), Type::vec32(3));
    let (u_cyzx, _) = mov(&mut f, sw(c, &[1, 2, 0]), Type::vec32(3));
    let mut map = HashMap::new();
    map.insert(a, sw(c, &[2, 1, 0]));
    map.insert(c, sw(v3, &[1, 2, 0]));
    map.insert(b, sw(a, &[0, 2]));
    f.replace_uses(&map);
    // By hand: a = c.zyx = (v3.yzx).zyx = v3.xzy; b = a.xz = v3.xy.
    assert_eq!(f.inst(u_a).srcs()[0], sw(v3, &[0, 2, 1]));
    assert_eq!(f.inst(u_b).srcs()[0], sw(v3, &[0, 1]));
    assert_eq!(f.inst(u_by).srcs()[0], Src::channel(v3, 1));
    assert_eq!(f.inst(u_azyx).srcs()[0], sw(v3, &[1, 2, 0]));
    // c.yzx = (v3.yzx).yzx = v3.zxy.
    assert_eq!(f.inst(u_cyzx).srcs()[0], sw(v3, &[2, 0, 1]));

    // A cycle (which callers break beforehand) stops after as many steps as the map
    // has entries: p -> q -> p -> q.
    let (u_p, _) = mov(&mut f, Src::new(p), Type::vec32(3));
    let mut cyclic = HashMap::new();
    cyclic.insert(p, Src::new(q));
    cyclic.insert(q, Src::new(p));
    f.replace_uses(&cyclic);
    assert_eq!(f.inst(u_p).srcs()[0], Src::new(q));
}

/// `b0; if %c { b2: %t } else { b3: %e }; b1: %p = phi b2: %t, b3: %e; use %p`
fn if_with_phi(f: &mut Function) -> (IfId, Value, Value, Value, Inst) {
    let mut b = crate::builder::Builder::at_end(f);
    let c = b.imm_bool(true);
    let (i, t, e) = b.if_else_u32(c, 10, 20);
    let p = b.if_phi(i, t, e);
    let user = b.iadd(p, p);
    let user = b.func.value_def(user).unwrap();
    (i, t, e, p, user)
}

fn valid(f: &Function) {
    let mut sh = crate::shader::Shader::new([1, 1, 1]);
    sh.functions.push(f.clone());
    if let Err(d) = crate::validate::validate(&sh) {
        panic!("invalid: {d:?}");
    }
}

#[test]
fn inline_if_branch_keeps_the_taken_path() {
    for take_then in [true, false] {
        let mut f = Function::new("main");
        let (i, t, e, p, user) = if_with_phi(&mut f);
        f.inline_if_branch(i, take_then);
        valid(&f);
        assert_eq!(f.body().len(), 1);
        let b0 = f.first_block(CfParent::Root).unwrap();
        let kept = if take_then { t } else { e };
        let dropped = if take_then { e } else { t };
        assert!(f.is_value_live(kept) && !f.is_value_live(dropped));
        // The phi became a move of the taken source, in place before its user.
        let pi = f.value_def(p).unwrap();
        assert_eq!(f.inst_block(pi), Some(b0));
        match &f.inst(pi).kind {
            InstKind::Alu(a) => {
                assert_eq!(a.op, AluOp::Mov);
                assert_eq!(a.srcs[0], Src::new(kept));
            }
            k => panic!("phi not turned into a mov: {k:?}"),
        }
        assert_eq!(f.next_inst(pi), Some(user));
    }
}

#[test]
fn inline_if_branch_with_nested_control_flow() {
    let mut f = Function::new("main");
    let mut b = crate::builder::Builder::at_end(&mut f);
    let c = b.imm_bool(false);
    let outer = b.push_if(c);
    let x = b.imm_u32(1);
    b.push_else(outer);
    let y = b.imm_u32(2);
    let inner = b.push_if(c);
    let z = b.iadd(y, y);
    b.pop_if(inner);
    let w = b.imul(y, y);
    b.pop_if(outer);
    let p = b.if_phi(outer, x, w);
    let _ = b.iadd(p, p);
    let _ = z;
    f.inline_if_branch(outer, false);
    valid(&f);
    // b0 (with the else-branch's first block merged in), the inner if, and the
    // else-branch's last block merged with the block after the outer if.
    assert_eq!(f.body().len(), 3);
    assert_eq!(f.body()[1], CfNode::If(inner));
    assert_eq!(f.if_data(inner).parent, CfParent::Root);
    assert!(!f.is_value_live(x));
    let last = f.last_block(CfParent::Root).unwrap();
    assert_eq!(f.inst_block(f.value_def(w).unwrap()), Some(last));
    assert_eq!(f.inst_block(f.value_def(p).unwrap()), Some(last));
}

#[test]
#[should_panic(expected = "the taken branch ends in a jump")]
fn inline_if_branch_rejects_a_branch_ending_in_a_jump() {
    let mut f = Function::new("main");
    let mut b = crate::builder::Builder::at_end(&mut f);
    let l = b.push_loop();
    let c = b.imm_bool(true);
    let i = b.break_if(c);
    let _ = b.imm_u32(3);
    b.pop_loop(l);
    f.inline_if_branch(i, true);
}

#[test]
fn merge_blocks_appends_and_renames_phi_predecessors() {
    // b0 and a second block made adjacent by hand (as after removing an `if`), then
    // a loop whose header phi names the second block as its entry predecessor.
    let mut f = Function::new("main");
    let b0 = f.first_block(CfParent::Root).unwrap();
    let a = konst(&mut f, b0, 1);
    let second = f.create_block(CfParent::Root);
    f.append_cf_node(CfParent::Root, CfNode::Block(second));
    let c = konst(&mut f, second, 2);
    let mut b = crate::builder::Builder::new(&mut f, Cursor::BlockEnd(second));
    let l = b.push_loop();
    let h = b.phi(Type::U32, &[(second, c.into())]);
    let _ = b.iadd(h, a);
    b.jump(Jump::Break);
    b.pop_loop(l);
    f.merge_blocks(b0, second);
    valid(&f);
    assert_eq!(f.block_insts(b0).count(), 2);
    assert_eq!(f.block(second).parent, None);
    let hi = f.value_def(h).unwrap();
    match &f.inst(hi).kind {
        InstKind::Phi(p) => assert_eq!(p.srcs.as_slice(), &[(b0, Src::new(c))]),
        k => panic!("{k:?}"),
    }
}

#[test]
fn split_moves_tail_and_jump() {
    let mut f = Function::new("main");
    let b0 = f.first_block(CfParent::Root).unwrap();
    let a = konst(&mut f, b0, 1);
    let _c = konst(&mut f, b0, 2);
    let ia = f.value_def(a).unwrap();
    let nb = f.split_block(Cursor::After(ia));
    assert_eq!(f.block_insts(b0).count(), 1);
    assert_eq!(f.block_insts(nb).count(), 1);
    assert_eq!(f.body(), &[CfNode::Block(b0), CfNode::Block(nb)]);
}
