//! Shrinking a case: fewer invocations, statements removed, `if`s and loops replaced by
//! their bodies. Values that refer to a removed access become constants when the case
//! is built.

use super::program::{AccessSpec, Case, Element, Stmt};

impl Case {
    /// Smaller cases: fewer invocations, statements removed, `if`s and loops replaced
    /// by their bodies.
    pub fn shrink_cases(&self) -> Vec<Case> {
        let mut out = Vec::new();
        if self.workgroups != [1, 1, 1] {
            out.push(Case {
                workgroups: [1, 1, 1],
                ..self.clone()
            });
        }
        if self.local_size != [1, 1, 1] {
            out.push(Case {
                local_size: [1, 1, 1],
                ..self.clone()
            });
        }
        for body in shrink_list(&self.body) {
            out.push(Case {
                body,
                ..self.clone()
            });
        }
        out
    }
}

/// Variants of a statement list with one change each.
fn shrink_list(list: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    for i in 0..list.len() {
        let mut without = list.to_vec();
        without.remove(i);
        out.push(without);
        let splice = |with: &[Stmt]| {
            let mut v = list[..i].to_vec();
            v.extend(with.iter().cloned());
            v.extend(list[i + 1..].iter().cloned());
            v
        };
        match &list[i] {
            Stmt::Access(a) => {
                // A uniform element in place of a lane-varying one, then no qualifier.
                if matches!(a.element, Element::Lane { .. } | Element::Workgroup) {
                    out.push(splice(&[Stmt::Access(AccessSpec {
                        element: Element::Const(0),
                        ..a.clone()
                    })]));
                } else if a.non_uniform {
                    out.push(splice(&[Stmt::Access(AccessSpec {
                        non_uniform: false,
                        ..a.clone()
                    })]));
                }
            }
            Stmt::If { cond, then, els } => {
                out.push(splice(then));
                out.push(splice(els));
                for t in shrink_list(then) {
                    out.push(splice(&[Stmt::If {
                        cond: *cond,
                        then: t,
                        els: els.clone(),
                    }]));
                }
                for e in shrink_list(els) {
                    out.push(splice(&[Stmt::If {
                        cond: *cond,
                        then: then.clone(),
                        els: e,
                    }]));
                }
            }
            Stmt::Loop {
                base,
                lane_mask,
                body,
            } => {
                out.push(splice(body));
                for b in shrink_list(body) {
                    out.push(splice(&[Stmt::Loop {
                        base: *base,
                        lane_mask: *lane_mask,
                        body: b,
                    }]));
                }
            }
        }
    }
    out
}
