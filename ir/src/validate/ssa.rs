//! SSA: single definitions, dominance of every use, phis.

use super::context::{defined_at, FnCheck, PhiSource, UseAt, NONE};
use crate::dominance::{Cfg, DomTree};
use crate::entity::Block;
use crate::function::Phi;
use crate::span::Span;
use crate::types::{swizzle_letter, Src, Type};
use smallvec::SmallVec;

impl FnCheck<'_> {
    pub(super) fn check_defs(&mut self, cfg: &Cfg) {
        for &b in cfg.blocks() {
            for i in self.func.block_insts(b) {
                let Some(v) = self.func.inst(i).dest else {
                    continue;
                };
                let span = self.func.inst_span(i);
                if v.index() >= self.func.num_value_ids() {
                    self.error(span, format!("`{v}` has no entry in the value table"));
                    continue;
                }
                match self.func.value_def(v) {
                    Some(d) if d == i => {}
                    Some(d) if self.inst_pos[d.index()].0 != NONE => {
                        let other = self.func.inst_span(d);
                        self.error(
                            span,
                            format!("`{v}` is defined more than once (also{})", {
                                let s = defined_at(other);
                                if s.is_empty() {
                                    " elsewhere".to_string()
                                } else {
                                    s
                                }
                            }),
                        );
                    }
                    _ => self.error(
                        span,
                        format!(
                            "`{v}` is defined here but the value table names another definition"
                        ),
                    ),
                }
            }
        }
    }

    /// Checks one use of `src` and returns the type it reads, or `None` (after
    /// reporting) if the source is not usable.
    pub(super) fn use_type(
        &mut self,
        src: Src,
        at: UseAt,
        span: Span,
        cfg: &Cfg,
        dom: Option<&DomTree>,
        user: &dyn std::fmt::Display,
    ) -> Option<Type> {
        let v = src.value;
        if v.index() >= self.func.num_value_ids() {
            self.error(span, format!("{user} uses `{v}`, which is not defined"));
            return None;
        }
        let Some(def) = self.func.value_def(v) else {
            self.error(span, format!("{user} uses `{v}`, which is not defined"));
            return None;
        };
        let (dn, dk) = self.inst_pos[def.index()];
        if dn == NONE {
            self.error(
                span,
                format!("{user} uses `{v}`, whose definition is not in the function body"),
            );
            return None;
        }
        let ty = self.func.value_type(v);
        let comps = ty.num_components();
        if !src.swizzle.is_identity() {
            // The swizzle as the user wrote it, with the caret on it, when the text
            // recorded it; otherwise in the printer's spelling at the instruction.
            let written = self
                .site
                .and_then(|site| self.func.swizzle_spelling(site, src));
            let (sspan, letters) = match written {
                Some(w) => (w.span, w.letters()),
                None => (span, printed_swizzle(src)),
            };
            let len = src.swizzle.len();
            if !Type::is_valid_num_components(len) {
                self.error(
                    sspan,
                    format!("swizzle `.{letters}` of `{v}` selects {len} components; expected 1, 2, 3, 4, 8 or 16"),
                );
                return None;
            }
            if let Some(c) = src.swizzle.components().find(|&c| c >= comps) {
                self.error(
                    sspan,
                    format!(
                        "swizzle `.{letters}` reads component {c} of `{v}`, which has {comps} component{}",
                        if comps == 1 { "" } else { "s" }
                    ),
                );
                return None;
            }
        }
        let def_span = self.func.inst_span(def);
        match at {
            UseAt::Inst { node, pos } => {
                if dn == node {
                    if dk >= pos {
                        self.error(
                            span,
                            format!(
                                "{user} uses `{v}` before its definition{}",
                                defined_at(def_span)
                            ),
                        );
                    }
                } else if let Some(dom) = dom {
                    let (db, ub) = (cfg.block(dn as usize), cfg.block(node as usize));
                    if !dom.dominates(db, ub) {
                        self.error(
                            span,
                            format!(
                                "{user} uses `{v}` in block {ub}, but its definition{} in block {db} does not dominate it",
                                defined_at(def_span)
                            ),
                        );
                    }
                }
            }
            UseAt::End { node } => {
                if dn != node {
                    if let Some(dom) = dom {
                        let (db, ub) = (cfg.block(dn as usize), cfg.block(node as usize));
                        if !dom.dominates(db, ub) {
                            self.error(
                                span,
                                format!(
                                    "{user} uses `{v}` at the end of block {ub}, but its definition{} in block {db} does not dominate it",
                                    defined_at(def_span)
                                ),
                            );
                        }
                    }
                }
            }
            UseAt::Nowhere => {}
        }
        Some(self.func.src_type(src))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_phi(
        &mut self,
        cfg: &Cfg,
        dom: Option<&DomTree>,
        block: Block,
        phi: &Phi,
        dest_ty: Option<Type>,
        span: Span,
    ) {
        let Some(ty) = dest_ty else {
            self.error(span, "phi must define a value");
            return;
        };
        for &(pred, src) in &phi.srcs {
            let at = match cfg.node(pred) {
                Some(n) if cfg.has_edge(pred, block) => UseAt::End { node: n as u32 },
                _ => UseAt::Nowhere,
            };
            let user = PhiSource(pred);
            if let Some(st) = self.use_type(src, at, span, cfg, dom, &user) {
                if st != ty {
                    self.error(
                        span,
                        format!("phi source from {pred} is {st}, expected {ty} (the phi's type)"),
                    );
                }
            }
        }
        if !self.shape_ok {
            return;
        }
        let preds: SmallVec<[Block; 4]> = cfg.predecessors(block).collect();
        let mut covered: SmallVec<[Block; 4]> = SmallVec::new();
        for &(pred, _) in &phi.srcs {
            if !preds.contains(&pred) {
                let list = if preds.is_empty() {
                    "it has none".to_string()
                } else {
                    format!(
                        "predecessors: {}",
                        preds
                            .iter()
                            .map(|b| b.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.error(
                    span,
                    format!("phi has a source from {pred}, which is not a predecessor of {block} ({list})"),
                );
            } else if covered.contains(&pred) {
                self.error(span, format!("phi has more than one source from {pred}"));
            } else {
                covered.push(pred);
            }
        }
        for &p in &preds {
            if !covered.contains(&p) {
                self.error(
                    span,
                    format!("phi has no source for predecessor {p} of {block}"),
                );
            }
        }
    }
}

/// A swizzle in the printer's letters: `xyzw` when it reads only the first four
/// components, `a` to `p` otherwise.
fn printed_swizzle(src: Src) -> String {
    let wide = src.swizzle.components().any(|c| c >= 4);
    src.swizzle
        .components()
        .map(|c| swizzle_letter(c, if wide { 16 } else { 4 }))
        .collect()
}
