//! Copy propagation (NIR's `nir_opt_copy_prop`): uses of a copy read the copied value
//! directly.
//!
//! Copies are:
//! - `mov x` (with any swizzle): its uses read `x`, the swizzles composed;
//! - `vecN` whose sources are components of one value, as `vec2 %a.x, %a.y`: its uses
//!   read that value through the equivalent swizzle (`%a.xy`, or `%a` when the vector
//!   is the whole value in order);
//! - a phi whose sources, other than the phi itself, are all the same source (a
//!   "trivial" phi, as `nir_opt_remove_phis` finds them): its uses read that source.
//!   Every path to the phi's block carries the same value, so its definition dominates
//!   the block.
//!
//! - a use that reads some components of a `vecN` whose selected sources are all
//!   components of one value: it reads that value directly (`%v.x` of
//!   `%v = vec2 %a.z, %b` becomes `%a.z`), as NIR's `copy_prop_alu_src` does for vector
//!   sources, so that a vector built only to feed component reads dies.
//!
//! All uses are rewritten in one sweep ([`Function::replace_uses_dense`]), so the pass is
//! linear in the size of the function. Copies left without uses are removed by DCE.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::Value;
use crate::function::{AluInst, Function, InstData, InstKind};
use crate::shader::Shader;
use crate::types::{Src, Swizzle};

/// The copy-propagation pass, `copy-prop`.
#[derive(Copy, Clone, Debug, Default)]
pub struct CopyProp;

impl Pass for CopyProp {
    fn name(&self) -> &'static str {
        "copy-prop"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= copy_prop_function(f);
        }
        Ok(changed)
    }
}

/// Propagates the copies of one function; returns whether a use changed.
pub fn copy_prop_function(func: &mut Function) -> bool {
    let insts = func.insts_in_order();
    // The copied source per value (indexed by value; the shaders this runs on after
    // lowering have millions of values, where a hash map costs a cache miss and a hash
    // per lookup).
    let mut map: Vec<Option<Src>> = vec![None; func.num_value_ids()];
    let mut copies = 0usize;
    for &inst in &insts {
        let data = func.inst(inst);
        let Some(dest) = data.dest else { continue };
        let copied = match &data.kind {
            InstKind::Alu(a) => alu_copy(func, a, dest),
            InstKind::Phi(p) => {
                let mut same: Option<Src> = None;
                let mut trivial = true;
                for &(_, s) in &p.srcs {
                    if s == Src::new(dest) {
                        continue;
                    }
                    match same {
                        None => same = Some(s),
                        Some(t) if t == s => {}
                        Some(_) => {
                            trivial = false;
                            break;
                        }
                    }
                }
                if trivial {
                    same
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some(src) = copied {
            if src.value != dest {
                map[dest.index()] = Some(src);
                copies += 1;
            }
        }
    }
    let mut changed = false;
    if copies > 0 {
        break_cycles(&mut map);
        changed = propagate_whole_copies(func, &insts, map);
    }
    // The component rewrite reads the function as the whole-copy rewrite left it.
    changed | propagate_vec_components(func, &insts)
}

/// Whether `f` holds for a source of `data` (the image index included), without
/// collecting the sources.
fn any_src(data: &InstData, mut f: impl FnMut(Src) -> bool) -> bool {
    match &data.kind {
        InstKind::Alu(a) => a.srcs.iter().any(|&s| f(s)),
        InstKind::Phi(p) => p.srcs.iter().any(|&(_, s)| f(s)),
        InstKind::Intrinsic(i) => {
            i.image.and_then(|r| r.index).is_some_and(&mut f) || i.srcs.iter().any(|&s| f(s))
        }
        InstKind::LoadConst(_) | InstKind::Undef => false,
    }
}

/// Rewrites the uses of the values in `map` (whole-value copies, indexed by value);
/// returns whether a use changed.
fn propagate_whole_copies(
    func: &mut Function,
    insts: &[crate::entity::Inst],
    map: Vec<Option<Src>>,
) -> bool {
    let is_copy = |v: Value| map.get(v.index()).is_some_and(Option::is_some);
    // Only report progress when a use actually reads a copy; dead copies are DCE's.
    let used = insts
        .iter()
        .any(|&i| any_src(func.inst(i), |s| is_copy(s.value)))
        || func
            .ifs_in_order()
            .iter()
            .any(|&i| is_copy(func.if_data(i).cond.value));
    if !used {
        return false;
    }
    func.replace_uses_dense(map);
    true
}

/// Rewrites uses that read components of a `vecN` when every selected component comes
/// from one value; returns whether a use changed.
fn propagate_vec_components(func: &mut Function, insts: &[crate::entity::Inst]) -> bool {
    // Per value: the index in `parts` of its scalar sources, if it is such a `vecN`.
    const NOT_A_VEC: u32 = u32::MAX;
    let mut vec_of: Vec<u32> = Vec::new();
    let mut parts: Vec<smallvec::SmallVec<[Src; 4]>> = Vec::new();
    for &inst in insts {
        let data = func.inst(inst);
        if let (InstKind::Alu(a), Some(dest)) = (&data.kind, data.dest) {
            if a.op.is_vec() && a.srcs.iter().all(|s| func.src_components(*s) == 1) {
                if vec_of.is_empty() {
                    vec_of = vec![NOT_A_VEC; func.num_value_ids()];
                }
                vec_of[dest.index()] = parts.len() as u32;
                parts.push(a.srcs.iter().map(|s| s.component(0)).collect());
            }
        }
    }
    if parts.is_empty() {
        return false;
    }
    let parts_of = |v: Value| -> Option<&smallvec::SmallVec<[Src; 4]>> {
        match vec_of.get(v.index()) {
            Some(&k) if k != NOT_A_VEC => parts.get(k as usize),
            _ => None,
        }
    };
    let rewrite = |func: &Function, src: Src| -> Option<Src> {
        let parts = parts_of(src.value)?;
        let n = func.src_components(src);
        let first = parts.get(src.swizzle.component(0) as usize)?.value;
        if func.value_type(first).bit_size() != func.value_type(src.value).bit_size() {
            return None;
        }
        let mut comps: smallvec::SmallVec<[u8; 4]> = smallvec::SmallVec::new();
        for i in 0..n {
            let part = parts.get(src.swizzle.component(i) as usize)?;
            if part.value != first {
                return None;
            }
            comps.push(part.swizzle.component(0));
        }
        let whole = func.value_type(first).num_components();
        if comps.len() == whole as usize && comps.iter().enumerate().all(|(i, &c)| i as u8 == c) {
            Some(Src::new(first))
        } else {
            Some(Src {
                value: first,
                swizzle: Swizzle::new(&comps)?,
            })
        }
    };
    let mut changed = false;
    for &inst in insts {
        if !any_src(func.inst(inst), |s| parts_of(s.value).is_some()) {
            continue;
        }
        let mut data = func.inst(inst).clone();
        let mut any = false;
        data.for_each_src_mut(|s| {
            if let Some(r) = rewrite(func, *s) {
                *s = r;
                any = true;
            }
        });
        if any {
            func.inst_mut(inst).kind = data.kind;
            changed = true;
        }
    }
    for id in func.ifs_in_order() {
        let cond = func.if_data(id).cond;
        if let Some(r) = rewrite(func, cond) {
            func.if_data_mut(id).cond = r;
            changed = true;
        }
    }
    changed
}

/// The source a `mov` or `vecN` copies, if it is a copy.
fn alu_copy(func: &Function, a: &AluInst, dest: Value) -> Option<Src> {
    if a.op == AluOp::Mov {
        return a.srcs.first().copied();
    }
    if !a.op.is_vec() || a.srcs.is_empty() {
        return None;
    }
    let value = a.srcs[0].value;
    if func.value_type(value).bit_size() != func.value_type(dest).bit_size() {
        return None;
    }
    let mut comps = Vec::with_capacity(a.srcs.len());
    for s in &a.srcs {
        if s.value != value || func.src_components(*s) != 1 {
            return None;
        }
        comps.push(s.swizzle.component(0));
    }
    let n = func.value_type(value).num_components();
    if comps.len() == n as usize && comps.iter().enumerate().all(|(i, &c)| i as u8 == c) {
        return Some(Src::new(value));
    }
    Some(Src {
        value,
        swizzle: Swizzle::new(&comps)?,
    })
}

/// Removes the copies that only lead back to themselves (possible in unreachable code,
/// where dominance does not order the definitions). `map` is indexed by value.
fn break_cycles(map: &mut [Option<Src>]) {
    // 1: on the current path, 2: resolved.
    let mut state: Vec<u8> = vec![0; map.len()];
    let mut path: Vec<Value> = Vec::new();
    for k in 0..map.len() {
        if map[k].is_none() || state[k] != 0 {
            continue;
        }
        path.clear();
        let mut cur = Value::from_u32(k as u32);
        loop {
            match state.get(cur.index()).copied().unwrap_or(0) {
                2 => break,
                1 => {
                    let start = path.iter().position(|&v| v == cur).unwrap_or(0);
                    for v in &path[start..] {
                        map[v.index()] = None;
                    }
                    break;
                }
                _ => match map.get(cur.index()).copied().flatten() {
                    Some(next) => {
                        state[cur.index()] = 1;
                        path.push(cur);
                        cur = next.value;
                    }
                    None => break,
                },
            }
        }
        for v in &path {
            state[v.index()] = 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::intrinsic::IntrinsicOp;
    use crate::types::Type;

    fn srcs_of(f: &Function, v: Value) -> Vec<Src> {
        f.inst(f.value_def(v).unwrap()).srcs().to_vec()
    }

    #[test]
    fn component_reads_of_a_vec_read_its_sources() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let one = b.imm_u32(1);
        let x1 = b.iadd(Src::channel(id, 0), one);
        // %v = vec2 %x1, %id.y: `.x` reads %x1, `.y` reads %id.y, `.yx` mixes values.
        let v = b.vec(&[Src::new(x1), Src::channel(id, 1)]);
        let a = b.iadd(Src::channel(v, 0), Src::channel(v, 1));
        let mixed = b.mov(Src::swizzled(v, &[1, 0]).unwrap());
        assert!(copy_prop_function(&mut f));
        assert_eq!(srcs_of(&f, a), vec![Src::new(x1), Src::channel(id, 1)]);
        assert_eq!(srcs_of(&f, mixed), vec![Src::swizzled(v, &[1, 0]).unwrap()]);
    }

    #[test]
    fn mov_uses_read_the_source_with_composed_swizzles() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let zyx = b.mov(Src::swizzled(id, &[2, 1, 0]).unwrap());
        let m = b.mov(zyx);
        let y = b.iadd(Src::channel(m, 0), Src::channel(m, 2));
        let whole = b.mov(id);
        let again = b.iadd(whole, whole);
        assert!(copy_prop_function(&mut f));
        assert_eq!(
            srcs_of(&f, y),
            vec![Src::channel(id, 2), Src::channel(id, 0)]
        );
        assert_eq!(srcs_of(&f, again), vec![Src::new(id), Src::new(id)]);
        // Nothing left to propagate.
        assert!(!copy_prop_function(&mut f));
    }

    #[test]
    fn vec_of_one_value_becomes_a_swizzle() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let xy = b.vec(&[Src::channel(id, 0), Src::channel(id, 1)]);
        let yx = b.vec(&[Src::channel(id, 1), Src::channel(id, 0)]);
        let all = b.vec(&[
            Src::channel(id, 0),
            Src::channel(id, 1),
            Src::channel(id, 2),
        ]);
        let k = b.imm_u32(3);
        let mixed = b.vec(&[Src::channel(id, 0), k.into()]);
        let u1 = b.iadd(xy, yx);
        let u2 = b.iadd(all, all);
        let u3 = b.iadd(mixed, mixed);
        assert!(copy_prop_function(&mut f));
        assert_eq!(
            srcs_of(&f, u1),
            vec![
                Src::swizzled(id, &[0, 1]).unwrap(),
                Src::swizzled(id, &[1, 0]).unwrap()
            ]
        );
        assert_eq!(srcs_of(&f, u2), vec![Src::new(id), Src::new(id)]);
        assert_eq!(srcs_of(&f, u3), vec![Src::new(mixed), Src::new(mixed)]);
    }

    #[test]
    fn trivial_phis_and_if_conditions() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(5);
        let c = b.imm_bool(true);
        let c2 = b.mov(c);
        let i = b.push_if(c2);
        b.pop_if(i);
        let p = b.if_phi(i, x, x);
        let pre = b.current_block();
        let l = b.push_loop();
        // A header phi fed by itself around the back edge: a copy of %x.
        let h = b.phi(Type::U32, &[(pre, x.into())]);
        let use_h = b.iadd(h, p);
        let latch = b.current_block();
        let hi = b.func.value_def(h).unwrap();
        if let InstKind::Phi(phi) = &mut b.func.inst_mut(hi).kind {
            phi.srcs.push((latch, h.into()));
        }
        let inner = b.push_if(c);
        b.jump(crate::function::Jump::Break);
        b.pop_if(inner);
        b.pop_loop(l);
        assert!(copy_prop_function(&mut f));
        assert_eq!(srcs_of(&f, use_h), vec![Src::new(x), Src::new(x)]);
        assert_eq!(f.if_data(i).cond, Src::new(c));
    }

    #[test]
    fn copy_cycles_in_unreachable_code_are_left_alone() {
        let mut map = vec![None; 10];
        let (a, b, c, d) = (
            Value::from_u32(1),
            Value::from_u32(2),
            Value::from_u32(3),
            Value::from_u32(4),
        );
        map[a.index()] = Some(Src::new(b));
        map[b.index()] = Some(Src::new(a));
        map[c.index()] = Some(Src::new(a));
        map[d.index()] = Some(Src::new(Value::from_u32(9)));
        break_cycles(&mut map);
        let keys: Vec<usize> = (0..map.len()).filter(|&i| map[i].is_some()).collect();
        assert_eq!(keys, vec![c.index(), d.index()]);
    }
}
