//! Phi webs in one variable: a phi and the values its copies read share a vISA
//! variable where their live ranges do not overlap, so the copies out of SSA
//! ([`crate::phi`]) vanish, as brw's register coalescing removes the `MOV`s its phis
//! become (Budimlić et al., "Fast copy coalescing and live-range identification",
//! PLDI 2002: SSA values interfere exactly when one is live where the other is
//! defined).
//!
//! Each phi in program order tries to join each of its sources' classes: a source read
//! whole (no swizzle) of the same type, both SIMT values defined by ALU instructions,
//! phis or messages (below; not uniform, folded, constant, undefined, or a subgroup
//! operation's result, which writes lanes the execution mask leaves off), when no
//! member of one class is live just after the definition of a
//! member of the other. A value read by the instruction that defines another member
//! counts as live there too, unless that instruction is one vISA instruction per
//! component reading only the same component of it (`add`, `mul`, `mad`, `sel`, the
//! logic ops and shifts of 32-bit values): a longer expansion may write its destination
//! before it has read all its sources.
//!
//! A message's result (a load, a sampler response, an atomic's old value) may share
//! the variable of the phi it feeds in the shape IGC's own kernels give it, `if (c) v =
//! load; else v = 0` with the load written straight into `v`: the message is the only
//! one in its class, outside every loop, and before every other member in program
//! order. vISA returns a message's data to the enabled channels only (`3D_LOAD`: "only
//! the enabled pixels are returned"; LSC: inactive lanes are annulled), but the hardware
//! writes whole registers and the finalizer keeps the difference; in that shape no lane
//! off at the message holds a value of the class yet (every other member is written
//! later, under the mask), so nothing depends on it.

use crate::fold::Fold;
use crate::liveness::Liveness;
use ir::{AluOp, Function, Inst, InstKind, Value};
use std::collections::{HashMap, HashSet};

/// For each value id, the value whose variable it uses (itself unless coalesced).
#[derive(Clone, Debug)]
pub struct Classes {
    leader: Vec<Value>,
    size: Vec<u32>,
}

impl Classes {
    /// The value whose variable `v` uses.
    pub fn leader(&self, v: Value) -> Value {
        self.leader.get(v.index()).copied().unwrap_or(v)
    }

    /// Whether `v` shares its variable with another value.
    pub fn is_shared(&self, v: Value) -> bool {
        let l = self.leader(v);
        self.size.get(l.index()).is_some_and(|&n| n > 1)
    }
}

/// What is live just after each definition, on demand.
struct After<'f> {
    live: Liveness<'f>,
    after_def: HashMap<Value, HashSet<Value>>,
}

impl After<'_> {
    /// The values live just after `v` is defined (after all the phis of its block, for
    /// a phi).
    fn after(&mut self, v: Value) -> &HashSet<Value> {
        if !self.after_def.contains_key(&v) {
            let set = self.compute_after(v);
            self.after_def.insert(v, set);
        }
        &self.after_def[&v]
    }

    fn compute_after(&self, v: Value) -> HashSet<Value> {
        let func = self.live.func();
        let Some(def) = func.value_def(v) else {
            return HashSet::new();
        };
        let Some(b) = func.inst_block(def) else {
            return HashSet::new();
        };
        let is_phi = matches!(func.inst(def).kind, InstKind::Phi(_));
        // Every phi of the block is defined at its start: after a phi is after them all.
        let mut live = self.live.live_out(b);
        for inst in func.block_insts(b).collect::<Vec<_>>().into_iter().rev() {
            let here_phi = matches!(func.inst(inst).kind, InstKind::Phi(_));
            if (is_phi && here_phi) || inst == def {
                break;
            }
            self.live.step_back(inst, &mut live);
        }
        live
    }
}

/// Whether the instruction defining a value may read `src` while writing the value to
/// the same variable: one vISA instruction per component, each reading component `c`
/// of `src` only (identity swizzle) for destination component `c`.
fn shares_in_place(func: &Function, def: Inst, src: Value) -> bool {
    let Some(alu) = func.inst(def).as_alu() else {
        return false;
    };
    use AluOp::*;
    let one_instruction = matches!(
        alu.op,
        Iadd | Iand
            | Ior
            | Ixor
            | Ishl
            | Ishr
            | Ushr
            | Imin
            | Imax
            | Umin
            | Umax
            | Fadd
            | Fmul
            | Ffma
            | Fmin
            | Fmax
            | Bcsel
    );
    let Some(dest) = func.inst(def).dest else {
        return false;
    };
    one_instruction
        && func.value_type(dest).bit_size() == 32
        && alu
            .srcs
            .iter()
            .filter(|s| s.value == src)
            .all(|s| s.swizzle.is_identity())
}

/// Whether values `a` and `b` may not share a variable.
fn interfere(l: &mut After<'_>, a: Value, b: Value) -> bool {
    if l.after(a).contains(&b) || l.after(b).contains(&a) {
        return true;
    }
    let func = l.live.func();
    for (x, y) in [(a, b), (b, a)] {
        // `x` read by the instruction defining `y` (a phi reads on its edges). A read
        // through a folded operand (a source modifier, a comparison written at each
        // component of a `bcsel`) happens where that operand is written out, with its
        // own swizzle: never in place.
        if let Some(def) = func.value_def(y) {
            let all = l.live.uses(def).iter().filter(|&&v| v == x).count();
            let direct = func
                .inst(def)
                .srcs()
                .iter()
                .filter(|s| s.value == x)
                .count();
            if all > 0 && (all > direct || !shares_in_place(func, def, x)) {
                return true;
            }
        }
    }
    false
}

/// The phi classes of `func`: `eligible` says which values may share a variable (SIMT
/// values defined by an instruction), `writes_all_lanes` which of them a message writes
/// (see the module documentation), `folds` how values are folded into their uses.
pub fn classes(
    func: &Function,
    eligible: &dyn Fn(Value) -> bool,
    writes_all_lanes: &dyn Fn(Value) -> bool,
    folds: &[Option<Fold>],
) -> Classes {
    let n = func.num_value_ids();
    let mut leader: Vec<Value> = (0..n).map(|i| Value::from_u32(i as u32)).collect();
    let mut members: HashMap<Value, Vec<Value>> = HashMap::new();
    let phis: Vec<(Value, Vec<ir::Src>)> = func
        .insts_in_order()
        .into_iter()
        .filter_map(|i| {
            let data = func.inst(i);
            match (&data.kind, data.dest) {
                (InstKind::Phi(p), Some(d)) => Some((d, p.srcs.iter().map(|(_, s)| *s).collect())),
                _ => None,
            }
        })
        .collect();
    let mut size = vec![1u32; n];
    if phis.is_empty() {
        return Classes { leader, size };
    }
    let operands = |v: Value| crate::fold::operands_deep(func, folds, v);
    let mut live = After {
        live: Liveness::new(func, &operands),
        after_def: HashMap::new(),
    };
    // Program order, and whether a value is defined inside a loop.
    let mut position = vec![u32::MAX; n];
    for (k, i) in func.insts_in_order().into_iter().enumerate() {
        if let Some(d) = func.inst(i).dest {
            position[d.index()] = k as u32;
        }
    }
    let in_loop = |v: Value| {
        func.value_def(v)
            .and_then(|d| func.inst_block(d))
            .is_none_or(|b| func.enclosing_loop(ir::CfNode::Block(b)).is_some())
    };
    // A class may hold one message result, written before all its other members.
    let lanes_safe = |all: &[Value]| {
        let mut written = all.iter().filter(|&&v| writes_all_lanes(v));
        match (written.next(), written.next()) {
            (None, _) => true,
            (Some(_), Some(_)) => false,
            (Some(&m), None) => {
                !in_loop(m)
                    && all
                        .iter()
                        .all(|&v| v == m || position[v.index()] > position[m.index()])
            }
        }
    };
    for (p, srcs) in phis {
        if !eligible(p) {
            continue;
        }
        let ty = func.value_type(p);
        for s in srcs {
            if !s.swizzle.is_identity() || !eligible(s.value) || func.value_type(s.value) != ty {
                continue;
            }
            let (lp, ls) = (leader[p.index()], leader[s.value.index()]);
            if lp == ls {
                continue;
            }
            let a = members.get(&lp).cloned().unwrap_or_else(|| vec![lp]);
            let b = members.get(&ls).cloned().unwrap_or_else(|| vec![ls]);
            let joined: Vec<Value> = a.iter().chain(&b).copied().collect();
            if !lanes_safe(&joined) {
                continue;
            }
            let clash = a
                .iter()
                .any(|&x| b.iter().any(|&y| interfere(&mut live, x, y)));
            if clash {
                continue;
            }
            // The class takes the phi's variable (named after the phi).
            for &m in &b {
                leader[m.index()] = lp;
            }
            let mut all = a;
            all.extend(b);
            size[lp.index()] = all.len() as u32;
            members.remove(&ls);
            members.insert(lp, all);
        }
    }
    Classes { leader, size }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes_of(text: &str) -> (ir::Shader, Classes) {
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        let folds = crate::fold::folds(f, true);
        let eligible = |v: Value| {
            f.value_def(v)
                .is_some_and(|d| !matches!(f.inst(d).kind, InstKind::LoadConst(_)))
        };
        let c = classes(f, &eligible, &|_| false, &folds);
        (s, c)
    }

    const LOOP: &str = "shader compute (local_size=8,1,1)
buffer @b : ssbo (block=0, size=0, stride=4)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000001)
    32   %20 = iadd %0.x, %0.y
    32   %21 = iadd %0.y, %0.z
  loop {
    block b1:
      32   %3 = phi b0: %1, b2: %5
      32   %4 = phi b0: %20, b2: %6
      32   %7 = phi b0: %21, b2: %7
      32   %12 = phi b0: %0.y, b2: %13
      32   %13 = phi b0: %20, b2: %12
      1    %8 = uge %3, %0.x
    if %8 {
      block b3:
        break
    } else {
      block b4:
    }
    block b2:
      32   %5 = iadd %3, %2
      32   %6 = iadd %4, %7
  }
  block b5:
    32   %9 = iadd %12, %13
    @store_ssbo (%9, %1, %1) (access=none, align_mul=4)
}";

    #[test]
    fn an_accumulator_shares_its_phi_and_a_rotation_does_not() {
        let (s, c) = classes_of(LOOP);
        let f = &s.functions[0];
        let v = |n: u32| f.value_named(n).unwrap();
        // The counter and its increment; the sum, its update and its start value.
        assert_eq!(c.leader(v(5)), c.leader(v(3)));
        assert_eq!(c.leader(v(6)), c.leader(v(4)));
        assert_eq!(c.leader(v(20)), c.leader(v(4)));
        assert!(c.is_shared(v(4)));
        // %7 keeps its start value.
        assert_eq!(c.leader(v(21)), c.leader(v(7)));
        // %12 and %13 swap each iteration: both are live after the header's phis. A
        // swizzled source (%0.y) joins nothing.
        assert_ne!(c.leader(v(12)), c.leader(v(13)));
        assert_ne!(c.leader(v(12)), c.leader(v(0)));
    }

    #[test]
    fn a_value_read_after_the_phi_is_defined_keeps_its_variable() {
        let text = "shader compute (local_size=8,1,1)
buffer @b : ssbo (block=0, size=0, stride=4)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    32   %2 = iadd %0.x, %0.y
    1    %3 = ult %0.x, %0.y
  if %3 {
    block b1:
      32   %4 = iadd %2, %0.z
  } else {
    block b2:
  }
  block b3:
    32   %5 = phi b1: %4, b2: %2
    32   %6 = iadd %5, %2
    @store_ssbo (%6, %1, %1) (access=none, align_mul=4)
}";
        let (s, c) = classes_of(text);
        let f = &s.functions[0];
        let v = |n: u32| f.value_named(n).unwrap();
        // %4 joins the phi; %2 is read after the join, so it cannot.
        assert_eq!(c.leader(v(4)), c.leader(v(5)));
        assert_ne!(c.leader(v(2)), c.leader(v(5)));
    }
}
