//! SSA: single definitions, dominance of every use, phis.

use super::context::{FnCheck, UseAt, NONE};
use super::error::{SsaError, User};
use crate::dominance::{Cfg, DomTree};
use crate::entity::Block;
use crate::function::{Phi, SrcSite};
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
                self.site = Some(SrcSite::Inst(i));
                let span = self.func.inst_span(i);
                let value = || self.func.value_name(v);
                if v.index() >= self.func.num_value_ids() {
                    let value = value();
                    self.error(span, SsaError::ValueWithoutEntry { value });
                    continue;
                }
                match self.func.value_def(v) {
                    Some(d) if d == i => {}
                    Some(d) if self.inst_pos[d.index()].0 != NONE => {
                        let (value, other) = (value(), self.func.inst_span(d));
                        self.error(span, SsaError::DefinedTwice { value, other });
                    }
                    _ => {
                        let value = value();
                        self.error(span, SsaError::DefinitionMismatch { value });
                    }
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
        user: User,
    ) -> Option<Type> {
        let v = src.value;
        // Looked up for the messages only (the common path reports nothing).
        let func = self.func;
        let name = move || func.value_name(v);
        if v.index() >= self.func.num_value_ids() {
            self.error(
                span,
                SsaError::Undefined {
                    user,
                    value: name(),
                },
            );
            return None;
        }
        let Some(def) = self.func.value_def(v) else {
            self.error(
                span,
                SsaError::Undefined {
                    user,
                    value: name(),
                },
            );
            return None;
        };
        let (dn, dk) = self.inst_pos[def.index()];
        if dn == NONE {
            let value = name();
            self.error(span, SsaError::DefinitionOutsideBody { user, value });
            return None;
        }
        let ty = self.func.value_type(v);
        let comps = ty.num_components();
        if !src.swizzle.is_identity() {
            let len = src.swizzle.len();
            let long = !Type::is_valid_num_components(len);
            let outside = src.swizzle.components().find(|&c| c >= comps);
            if long || outside.is_some() {
                // The swizzle as the user wrote it, with the caret on it, when the
                // text recorded it; otherwise in the printer's spelling at the
                // instruction. Looked up only for a bad swizzle: valid ones cost
                // nothing here.
                let written = self
                    .site
                    .and_then(|site| self.func.swizzle_spelling(site, src));
                let (sspan, letters) = match written {
                    Some(w) => (w.span, w.letters()),
                    None => (span, printed_swizzle(src)),
                };
                let kind = match outside {
                    Some(c) if !long => SsaError::SwizzleComponent {
                        value: name(),
                        letters,
                        component: c,
                        components: comps,
                    },
                    _ => SsaError::SwizzleLength {
                        value: name(),
                        letters,
                        len,
                    },
                };
                self.error(sspan, kind);
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
                            SsaError::UseBeforeDef {
                                user,
                                value: name(),
                                def: def_span,
                            },
                        );
                    }
                } else if let Some(dom) = dom {
                    let (db, ub) = (cfg.block(dn as usize), cfg.block(node as usize));
                    if !dom.dominates(db, ub) {
                        self.error(
                            span,
                            SsaError::NotDominated {
                                user,
                                value: name(),
                                use_block: self.func.block_name(ub),
                                def_block: self.func.block_name(db),
                                def: def_span,
                            },
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
                                SsaError::NotDominatedAtEnd {
                                    user,
                                    value: name(),
                                    use_block: self.func.block_name(ub),
                                    def_block: self.func.block_name(db),
                                    def: def_span,
                                },
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
            self.error(span, SsaError::PhiWithoutDest);
            return;
        };
        for &(pred, src) in &phi.srcs {
            let at = match cfg.node(pred) {
                Some(n) if cfg.has_edge(pred, block) => UseAt::End { node: n as u32 },
                _ => UseAt::Nowhere,
            };
            let user = User::PhiSource(self.func.block_name(pred));
            if let Some(st) = self.use_type(src, at, span, cfg, dom, user) {
                if st != ty {
                    self.error(
                        span,
                        SsaError::PhiSourceType {
                            pred: self.func.block_name(pred),
                            found: st,
                            expected: ty,
                        },
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
                self.error(
                    span,
                    SsaError::PhiSourceNotPredecessor {
                        pred: self.func.block_name(pred),
                        block: self.func.block_name(block),
                        predecessors: preds.iter().map(|&p| self.func.block_name(p)).collect(),
                    },
                );
            } else if covered.contains(&pred) {
                let pred = self.func.block_name(pred);
                self.error(span, SsaError::PhiDuplicateSource { pred });
            } else {
                covered.push(pred);
            }
        }
        for &p in &preds {
            if !covered.contains(&p) {
                let (pred, block) = (self.func.block_name(p), self.func.block_name(block));
                self.error(span, SsaError::PhiMissingSource { pred, block });
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
