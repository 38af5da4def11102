//! Rewriting uses: replacing values by other sources across the whole function.

use super::body::Function;
use super::inst::{InstData, InstKind};
use crate::entity::Value;
use crate::types::Src;
use std::collections::HashMap;

impl Function {
    // ----- rewriting ----------------------------------------------------------------

    /// Rewrites every use of the values in `map` (instruction sources, phi sources,
    /// image indices and `if` conditions) in one sweep. A replacement with a swizzle is
    /// composed with the use's swizzle. Chains (`a -> b`, `b -> c`) are followed.
    pub fn replace_uses(&mut self, map: &HashMap<Value, Src>) {
        if map.is_empty() {
            return;
        }
        let mut dense = vec![None; self.values.len()];
        for (v, s) in map {
            if let Some(slot) = dense.get_mut(v.index()) {
                *slot = Some(*s);
            }
        }
        self.replace_uses_dense(dense);
    }

    /// [`Function::replace_uses`] with the map as a vector indexed by value (it may be
    /// shorter than the value arena): the form passes that number values densely build
    /// directly. The map is consumed: each chain is resolved once, in place, so the
    /// sweep is linear in the size of the function plus the map and allocates no second
    /// map (which would be a hundred megabytes on a shader of millions of values).
    pub fn replace_uses_dense(&mut self, mut map: Vec<Option<Src>>) {
        let entries = map.iter().filter(|s| s.is_some()).count();
        if entries == 0 {
            return;
        }
        // Cycles (callers break them beforehand) keep the capped walk per use of
        // `replace_uses`; otherwise every chain is resolved first.
        let cyclic = map_has_cycle(&map);
        if !cyclic {
            // Composing swizzles is associative and `replace_step` leaves them in one
            // canonical form, so an entry can be replaced by the end of its chain and a
            // use then takes a single step.
            let mut done = vec![false; map.len()];
            let mut path: Vec<Value> = Vec::new();
            for index in 0..map.len() {
                if map[index].is_none() || done[index] {
                    continue;
                }
                let mut cur = Value::from_u32(index as u32);
                while let Some(rep) = map.get(cur.index()).copied().flatten() {
                    if done[cur.index()] {
                        break;
                    }
                    path.push(cur);
                    cur = rep.value;
                }
                // Back to front: the next value of each chain is resolved (or not
                // replaced at all) when its predecessor is.
                while let Some(v) = path.pop() {
                    let rep = map[v.index()].expect("path values are replaced");
                    let mut r = self.replace_step(Src::new(v), rep);
                    if let Some(tail) = map.get(rep.value.index()).copied().flatten() {
                        r = self.replace_step(r, tail);
                    }
                    map[v.index()] = Some(r);
                    done[v.index()] = true;
                }
            }
        }
        let resolve = |func: &Function, src: Src| -> Src {
            let lookup = |v: Value| map.get(v.index()).copied().flatten();
            if !cyclic {
                return match lookup(src.value) {
                    Some(r) => func.replace_step(src, r),
                    None => src,
                };
            }
            let mut cur = src;
            let mut guard = 0;
            while let Some(rep) = lookup(cur.value) {
                cur = func.replace_step(cur, rep);
                guard += 1;
                if guard > entries {
                    break;
                }
            }
            cur
        };
        self.rewrite_srcs(resolve);
    }

    /// Rewrites every use of `v` into a use of `repl[v]` (shorter than the value arena
    /// is fine), keeping the use's swizzle: what [`Function::replace_uses`] does for a
    /// map of whole values of the same type none of which is itself replaced (CSE's
    /// merges), without building that map.
    pub fn replace_values(&mut self, repl: &[Option<Value>]) {
        self.rewrite_srcs(
            |func, src| match repl.get(src.value.index()).copied().flatten() {
                Some(v) => func.replace_step(src, Src::new(v)),
                None => src,
            },
        );
    }

    /// Sets every source of the instructions of the tree and every `if` condition to
    /// `f` of it, in program order.
    pub(super) fn rewrite_srcs(&mut self, f: impl Fn(&Function, Src) -> Src) {
        for b in self.blocks_in_order() {
            let mut cur = self.blocks[b.index()].first;
            while let Some(i) = cur {
                cur = self.nodes[i.index()].next;
                let mut data = std::mem::replace(&mut self.insts[i.index()].kind, InstKind::Undef);
                {
                    let mut tmp = InstData {
                        kind: data,
                        dest: None,
                    };
                    tmp.for_each_src_mut(|s| *s = f(self, *s));
                    data = tmp.kind;
                }
                self.insts[i.index()].kind = data;
            }
        }
        for id in 0..self.ifs.len() {
            let cond = self.ifs[id].cond;
            self.ifs[id].cond = f(self, cond);
        }
    }

    /// `cur` read through `rep`, the replacement of `cur.value`.
    pub(super) fn replace_step(&self, cur: Src, rep: Src) -> Src {
        // `compose` needs the component count of the value the replacement reads (not
        // of the value being replaced) to recognise a whole-value selection: `%1 ->
        // %0.xy` of a vec3 `%0` must stay `%0.xy`.
        let rep_comps = self.value_type(rep.value).num_components();
        let mut out = Src {
            value: rep.value,
            swizzle: if cur.swizzle.is_identity() && rep.swizzle.is_identity() {
                crate::types::Swizzle::IDENTITY
            } else {
                cur.swizzle.compose(rep.swizzle, rep_comps)
            },
        };
        if !out.swizzle.is_identity() && out.swizzle.len() == rep_comps {
            let identity = out
                .swizzle
                .components()
                .enumerate()
                .all(|(i, c)| i as u8 == c);
            if identity {
                out.swizzle = crate::types::Swizzle::IDENTITY;
            }
        }
        out
    }
}

/// Whether following `map` (indexed by value) from some entry comes back to it.
fn map_has_cycle(map: &[Option<Src>]) -> bool {
    // 1: on the current path, 2: known to end.
    let mut state = vec![0u8; map.len()];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..map.len() {
        if map[start].is_none() || state[start] != 0 {
            continue;
        }
        let mut cur = start;
        loop {
            match state.get(cur).copied() {
                Some(1) => return true,
                Some(0) => match map[cur] {
                    Some(rep) => {
                        state[cur] = 1;
                        path.push(cur);
                        cur = rep.value.index();
                    }
                    None => break,
                },
                // Known to end, or beyond the map (not replaced).
                _ => break,
            }
        }
        for v in path.drain(..) {
            state[v] = 2;
        }
    }
    false
}
