//! Dead code elimination: unused instructions (NIR's `nir_opt_dce`), alternating with
//! dead control-flow removal ([`super::dead_cf`], NIR's `nir_opt_dead_cf`) until both
//! are done.
//!
//! **Instructions.** Mark and sweep: instructions with side effects (stores, atomics,
//! intrinsics without `can_eliminate`) and `if` conditions are live; whatever a live
//! instruction reads is live; everything else (ALU, `load_const`, `undef`, phis,
//! eliminable intrinsics) is removed. Marking follows sources once each, so the cost is
//! linear, and cycles of phis that only feed each other are removed too.
//!
//! **Control flow.** See [`super::dead_cf`]: constant conditions, empty `if`s,
//! unreachable code, loops that run once, dead loops.
//!
//! Instruction DCE and the rebuild
//! alternate until the rebuild finds nothing, which takes one round more than the
//! depth of nested constructs that become removable only after the one inside them.

use super::pass::{Pass, PassError};
use crate::entity::{Inst, Value};
use crate::function::{CfNode, Function, InstKind};
use crate::shader::Shader;

/// The DCE pass, `dce`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= dce_function(f);
        }
        Ok(changed)
    }
}

/// Removes dead instructions and dead control flow from one function; returns whether
/// it changed.
pub fn dce_function(func: &mut Function) -> bool {
    let mut changed = false;
    loop {
        changed |= remove_dead_instructions(func);
        if !super::dead_cf::remove_dead_cf(func) {
            return changed;
        }
        changed = true;
    }
}

/// Whether an instruction may be deleted when its value is unused.
fn removable(kind: &InstKind) -> bool {
    match kind {
        InstKind::Alu(_) | InstKind::LoadConst(_) | InstKind::Undef | InstKind::Phi(_) => true,
        InstKind::Intrinsic(i) => i.op.info().can_eliminate,
    }
}

/// Mark and sweep over the instructions of the tree; returns whether any was removed.
///
/// The marking walks the tree backwards, so that in SSA order (a definition before its
/// uses) every instruction is known to be live or dead when it is reached and the
/// instructions are read in one sequential sweep. A value whose definition was already
/// passed (a loop phi's back-edge source) goes to a work list instead; the live set is
/// the same as with a plain work-list marking: everything a root reaches.
pub fn remove_dead_instructions(func: &mut Function) -> bool {
    let n = func.num_inst_ids();
    // Per instruction: bit 0 live, bit 1 already passed by the backward walk.
    const LIVE: u8 = 1;
    const PASSED: u8 = 2;
    let mut state = vec![0u8; n];
    let mut work: Vec<Inst> = Vec::new();
    let mark = |v: Value, state: &mut [u8], work: &mut Vec<Inst>, func: &Function| {
        if let Some(d) = func.value_def(v) {
            let st = &mut state[d.index()];
            if *st & LIVE == 0 {
                *st |= LIVE;
                if *st & PASSED != 0 {
                    work.push(d);
                }
            }
        }
    };
    func.walk(|node| {
        if let CfNode::If(id) = node {
            mark(func.if_data(id).cond.value, &mut state, &mut work, func);
        }
    });
    // Instructions not live when passed: the candidates for removal.
    let mut dead: Vec<Inst> = Vec::new();
    let blocks = func.blocks_in_order();
    for &b in blocks.iter().rev() {
        let mut cur = func.last_inst(b);
        while let Some(i) = cur {
            cur = func.prev_inst(i);
            let data = func.inst(i);
            let st = &mut state[i.index()];
            *st |= PASSED;
            if *st & LIVE == 0 && removable(&data.kind) {
                dead.push(i);
                continue;
            }
            *st |= LIVE;
            data.for_each_src(|s| mark(s.value, &mut state, &mut work, func));
        }
    }
    // Live instructions the walk did not pass (outside the tree: only an invalid
    // function reads them) still keep their sources alive. From here on every newly
    // live instruction goes to the work list.
    for (k, st) in state.iter_mut().enumerate() {
        if *st == LIVE {
            work.push(Inst::from_u32(k as u32));
        }
        *st |= PASSED;
    }
    while let Some(i) = work.pop() {
        func.inst(i)
            .for_each_src(|s| mark(s.value, &mut state, &mut work, func));
    }
    let mut changed = false;
    for i in dead {
        if state[i.index()] & LIVE == 0 {
            func.remove_inst(i);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::Jump;
    use crate::image::{Format, ImageDecl, ImageDim, ImageRef};
    use crate::types::{AluType, BaseType, Type};
    use crate::validate::validate;

    fn kinds(f: &Function) -> Vec<String> {
        f.insts_in_order()
            .into_iter()
            .map(|i| match &f.inst(i).kind {
                InstKind::Alu(a) => a.op.name().to_string(),
                InstKind::LoadConst(c) => format!("const {c:?}"),
                InstKind::Undef => "undef".into(),
                InstKind::Phi(_) => "phi".into(),
                InstKind::Intrinsic(x) => format!("@{}", x.op.name()),
            })
            .collect()
    }

    fn shape(f: &Function) -> String {
        fn list(f: &Function, l: &[CfNode], out: &mut String) {
            for (k, n) in l.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                match *n {
                    CfNode::Block(b) => {
                        out.push('B');
                        if let Some(j) = f.block(b).jump {
                            out.push_str(&format!("({})", j.name()));
                        }
                    }
                    CfNode::If(i) => {
                        out.push_str("if[");
                        list(f, &f.if_data(i).then_list, out);
                        out.push_str("][");
                        list(f, &f.if_data(i).else_list, out);
                        out.push(']');
                    }
                    CfNode::Loop(lp) => {
                        out.push_str("loop[");
                        list(f, &f.loop_data(lp).body, out);
                        out.push(']');
                    }
                }
            }
        }
        let mut s = String::new();
        list(f, f.body(), &mut s);
        s
    }

    fn store_decl() -> ImageDecl {
        ImageDecl::new("out", ImageDim::Buffer, Format::R32Uint)
    }

    /// A side effect that keeps `v` alive: `image_store` to image 0.
    fn keep(b: &mut Builder, v: Value) {
        let zero = b.imm_u32(0);
        let r = ImageRef::new(crate::entity::ImageId::from_u32(0));
        b.image_store(&store_decl(), r, zero, v, AluType::new(BaseType::Uint, 32));
    }

    fn check_with_image(f: Function) -> Function {
        let mut sh = Shader::new([1, 1, 1]);
        sh.add_image(store_decl());
        sh.functions.push(f);
        if let Err(d) = validate(&sh) {
            panic!("invalid after DCE: {d:#?}");
        }
        sh.functions.pop().unwrap()
    }

    /// Runs DCE, which must change `f`, validates the result and checks its
    /// control-flow shape (see [`shape`]); returns it for further checks.
    fn dce_changes_to(mut f: Function, want_shape: &str) -> Function {
        assert!(dce_function(&mut f));
        let f = check_with_image(f);
        assert_eq!(shape(&f), want_shape);
        f
    }

    /// Runs DCE, which must leave `f` as it is, and checks its shape.
    fn dce_keeps(mut f: Function, want_shape: &str) {
        assert!(!dce_function(&mut f));
        assert_eq!(shape(&f), want_shape);
    }

    #[test]
    fn removes_unused_chains_and_phi_cycles() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(1);
        let y = b.iadd(x, x);
        let _z = b.imul(y, y);
        let kept = b.ishl(x, x);
        keep(&mut b, kept);
        let pre = b.current_block();
        let l = b.push_loop();
        let p = b.phi(Type::U32, &[(pre, x.into())]);
        let q = b.iadd(p, x);
        let c = b.imm_bool(false);
        b.break_if(c);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(p, latch, q);
        assert!(remove_dead_instructions(&mut f));
        assert_eq!(
            kinds(&f),
            vec![
                "const [1]",
                "ishl",
                "const [0]",
                "@image_store",
                "const [0]"
            ]
        );
        let _ = check_with_image(f);
    }

    #[test]
    fn constant_if_keeps_taken_branch_and_phi_source() {
        for taken in [true, false] {
            let mut f = Function::new("main");
            let mut b = Builder::at_end(&mut f);
            let c = b.imm_bool(taken);
            let (i, t, e) = b.if_else_u32(c, 10, 20);
            let p = b.if_phi(i, t, e);
            keep(&mut b, p);
            let f = dce_changes_to(f, "B");
            let want = if taken { "const [10]" } else { "const [20]" };
            assert_eq!(kinds(&f), vec![want, "mov", "const [0]", "@image_store"]);
        }
    }

    #[test]
    fn nested_constant_ifs_and_empty_ifs() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let c = b.imm_bool(true);
        let v = b.imm_u32(1);
        let unknown = b.ult(v, v);
        let i = b.push_if(c);
        let j = b.push_if(unknown);
        let dead = b.iadd(v, v); // unused: the inner if becomes empty
        let _ = dead;
        b.pop_if(j);
        keep(&mut b, v);
        b.push_else(i);
        keep(&mut b, v);
        b.pop_if(i);
        let f = dce_changes_to(f, "B");
        assert_eq!(kinds(&f), vec!["const [1]", "const [0]", "@image_store"]);
    }

    #[test]
    fn empty_if_followed_by_phi_stays() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let v = b.imm_u32(1);
        let w = b.imm_u32(2);
        let c = b.ult(v, w);
        let i = b.push_if(c);
        b.pop_if(i);
        let p = b.if_phi(i, v, w);
        keep(&mut b, p);
        dce_keeps(f, "B if[B][B] B");
    }

    #[test]
    fn constant_if_taking_a_break_deletes_the_rest_of_the_loop() {
        // loop { %h = phi; if true { break }; %x = iadd %h, 1; <back edge> }
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let pre = b.current_block();
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(pre, one.into())]);
        let t = b.imm_bool(true);
        b.break_if(t);
        let x = b.iadd(h, one);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(h, latch, x);
        keep(&mut b, h);
        // The loop ran once: it is gone too, its header phi a move of %one.
        let f = dce_changes_to(f, "B");
        assert_eq!(
            kinds(&f),
            vec!["const [1]", "mov", "const [0]", "@image_store"]
        );
    }

    #[test]
    fn both_branches_jumping_makes_the_rest_unreachable() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        keep(&mut b, one); // a side effect, so that the loop is not dead
        let c = b.ult(one, one);
        let i = b.push_if(c);
        b.jump(Jump::Break);
        b.push_else(i);
        b.jump(Jump::Continue);
        b.pop_if(i);
        keep(&mut b, one); // unreachable
        let j = b.push_if(c);
        keep(&mut b, one);
        b.pop_if(j);
        b.pop_loop(l);
        keep(&mut b, one);
        let f = dce_changes_to(f, "B loop[B if[B(break)][B(continue)] B] B");
        assert_eq!(
            kinds(&f),
            vec![
                "const [1]",
                "const [0]",
                "@image_store",
                "ult",
                "const [0]",
                "@image_store"
            ]
        );
    }

    #[test]
    fn new_unreachable_edge_gets_an_undef_phi_source() {
        // loop { %h = phi b0: 0, (continue): %next; ...; if %c { if true { break } }
        //        else { continue }; break }
        // Folding the inner if makes both branches of the outer one jump; the block
        // after it is emptied (its break goes) and falls through to the header: a new,
        // unreachable edge whose phi source is an undef.
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let zero = b.imm_u32(0);
        let one = b.imm_u32(1);
        let four = b.imm_u32(4);
        let pre = b.current_block();
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(pre, zero.into())]);
        let next = b.iadd(h, one);
        let c = b.ult(h, four);
        let outer = b.push_if(c);
        let t = b.imm_bool(true);
        b.break_if(t);
        b.push_else(outer);
        let cont = b.current_block();
        b.jump(Jump::Continue);
        b.pop_if(outer);
        let last = b.current_block();
        b.jump(Jump::Break);
        b.pop_loop(l);
        b.add_phi_src(h, cont, next);
        keep(&mut b, h);
        let hi = f.value_def(h).unwrap();
        let _ = check_with_image(f.clone());
        let f = dce_changes_to(f, "B loop[B if[B(break)][B(continue)] B] B");
        match &f.inst(hi).kind {
            InstKind::Phi(phi) => {
                assert_eq!(phi.srcs.len(), 3);
                let (pred, src) = phi.srcs[2];
                assert_eq!(pred, last);
                let d = f.value_def(src.value).unwrap();
                assert!(matches!(f.inst(d).kind, InstKind::Undef));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn infinite_loop_makes_what_follows_unreachable() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        keep(&mut b, one);
        b.pop_loop(l);
        let after = b.iadd(one, one);
        keep(&mut b, after);
        let f = dce_changes_to(f, "B loop[B] B");
        assert_eq!(kinds(&f), vec!["const [1]", "const [0]", "@image_store"]);
    }

    #[test]
    fn loops_that_may_iterate_are_kept() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        keep(&mut b, one);
        let c = b.ult(one, one);
        b.break_if(c);
        b.pop_loop(l);
        dce_keeps(f, "B loop[B if[B(break)][B] B] B");
    }

    #[test]
    fn loops_without_side_effects_are_dead() {
        // Nothing in the loop has a side effect and nothing after it reads its
        // values: NIR's nir_opt_dead_cf deletes it.
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        let c = b.ult(one, one);
        b.break_if(c);
        b.pop_loop(l);
        keep(&mut b, one);
        let f = dce_changes_to(f, "B");
        assert_eq!(kinds(&f), vec!["const [1]", "const [0]", "@image_store"]);
    }

    #[test]
    fn code_after_a_folded_break_and_a_break_is_emptied() {
        // loop { if c { if true { break }; %v = ...; } else { break }; use %v; break }
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        keep(&mut b, one);
        let c = b.ult(one, one);
        let i = b.push_if(c);
        let t = b.imm_bool(true);
        b.break_if(t);
        let v = b.iadd(one, one);
        b.push_else(i);
        b.jump(Jump::Break);
        b.pop_if(i);
        keep(&mut b, v);
        b.jump(Jump::Break);
        b.pop_loop(l);
        let _ = check_with_image(f.clone());
        dce_changes_to(f, "B loop[B if[B(break)][B(break)] B] B");
    }

    #[test]
    fn loop_running_once_is_inlined_with_nested_loops_kept() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let outer = b.push_loop();
        let inner = b.push_loop();
        keep(&mut b, one);
        let c = b.ult(one, one);
        b.break_if(c);
        b.pop_loop(inner);
        keep(&mut b, one);
        b.jump(Jump::Break);
        b.pop_loop(outer);
        dce_changes_to(f, "B loop[B if[B(break)][B] B] B");
    }
}
