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
//! All uses are rewritten in one sweep ([`Function::replace_uses`]), so the pass is
//! linear in the size of the function. Copies left without uses are removed by DCE.

use super::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::Value;
use crate::function::{AluInst, Function, InstKind};
use crate::shader::Shader;
use crate::types::{Src, Swizzle};
use std::collections::HashMap;

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
    let mut map: HashMap<Value, Src> = HashMap::new();
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
                map.insert(dest, src);
            }
        }
    }
    break_cycles(&mut map);
    if map.is_empty() {
        return false;
    }
    // Only report progress when a use actually reads a copy; dead copies are DCE's.
    let used = insts.iter().any(|&i| {
        func.inst(i)
            .srcs()
            .iter()
            .any(|s| map.contains_key(&s.value))
    }) || func
        .ifs_in_order()
        .iter()
        .any(|&i| map.contains_key(&func.if_data(i).cond.value));
    if !used {
        return false;
    }
    func.replace_uses(&map);
    true
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
/// where dominance does not order the definitions).
fn break_cycles(map: &mut HashMap<Value, Src>) {
    // 1: on the current path, 2: resolved.
    let mut state: HashMap<Value, u8> = HashMap::with_capacity(map.len());
    let keys: Vec<Value> = map.keys().copied().collect();
    let mut path: Vec<Value> = Vec::new();
    for k in keys {
        if state.contains_key(&k) {
            continue;
        }
        path.clear();
        let mut cur = k;
        loop {
            match state.get(&cur) {
                Some(2) => break,
                Some(_) => {
                    let start = path.iter().position(|&v| v == cur).unwrap_or(0);
                    for v in &path[start..] {
                        map.remove(v);
                    }
                    break;
                }
                None => match map.get(&cur) {
                    Some(next) => {
                        state.insert(cur, 1);
                        path.push(cur);
                        cur = next.value;
                    }
                    None => break,
                },
            }
        }
        for v in &path {
            state.insert(*v, 2);
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
        let mut map = HashMap::new();
        let (a, b, c, d) = (
            Value::from_u32(1),
            Value::from_u32(2),
            Value::from_u32(3),
            Value::from_u32(4),
        );
        map.insert(a, Src::new(b));
        map.insert(b, Src::new(a));
        map.insert(c, Src::new(a));
        map.insert(d, Src::new(Value::from_u32(9)));
        break_cycles(&mut map);
        let mut keys: Vec<Value> = map.keys().copied().collect();
        keys.sort();
        assert_eq!(keys, vec![c, d]);
    }
}
