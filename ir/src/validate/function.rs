//! The walk over one function: the control-flow tree first, then every block and
//! instruction, handing each to the check of its kind.

use super::context::{FnCheck, UseAt};
use super::error::{AluError, ControlFlowError, SsaError, User};
use crate::dominance::{Cfg, DomTree};
use crate::entity::{Block, Inst};
use crate::function::{CfParent, InstKind, SrcSite};
use crate::types::Type;
use smallvec::SmallVec;

impl FnCheck<'_> {
    pub(super) fn run(mut self) {
        self.check_list(CfParent::Root, false);
        let cfg = Cfg::new(self.func);
        let dom = if self.shape_ok {
            Some(DomTree::new_fast(&cfg))
        } else {
            None
        };
        for (n, &b) in cfg.blocks().iter().enumerate() {
            for (k, i) in self.func.block_insts(b).enumerate() {
                self.inst_pos[i.index()] = (n as u32, k as u32);
            }
        }
        self.check_defs(&cfg);
        for (n, &b) in cfg.blocks().iter().enumerate() {
            self.check_block(&cfg, dom.as_ref(), n as u32, b);
        }
        let if_uses = std::mem::take(&mut self.if_uses);
        for (id, before) in if_uses {
            self.site = Some(SrcSite::If(id));
            let d = self.func.if_data(id);
            let at = match before.and_then(|b| cfg.node(b)) {
                Some(n) => UseAt::End { node: n as u32 },
                None => UseAt::Nowhere,
            };
            if let Some(ty) = self.use_type(d.cond, at, d.span, &cfg, dom.as_ref(), User::If) {
                if ty != Type::BOOL {
                    self.error(d.span, ControlFlowError::IfCondition { found: ty });
                }
            }
        }
    }

    pub(super) fn check_block(
        &mut self,
        cfg: &Cfg,
        dom: Option<&DomTree>,
        node: u32,
        block: Block,
    ) {
        let mut seen_non_phi = false;
        let insts: SmallVec<[Inst; 16]> = self.func.block_insts(block).collect();
        for (pos, &inst) in insts.iter().enumerate() {
            let start = self.errors.len();
            self.check_inst(cfg, dom, node, block, pos, inst, &mut seen_non_phi);
            // `iadd %1, %1` with a bad `%1` reports once.
            let mut tail = self.errors.split_off(start);
            tail.dedup();
            self.errors.extend(tail);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_inst(
        &mut self,
        cfg: &Cfg,
        dom: Option<&DomTree>,
        node: u32,
        block: Block,
        pos: usize,
        inst: Inst,
        seen_non_phi: &mut bool,
    ) {
        self.site = Some(SrcSite::Inst(inst));
        let data = self.func.inst(inst);
        let span = self.func.inst_span(inst);
        let dest_ty = data
            .dest
            .and_then(|v| (v.index() < self.func.num_value_ids()).then(|| self.func.value_type(v)));
        let at = UseAt::Inst {
            node,
            pos: pos as u32,
        };
        match &data.kind {
            InstKind::Phi(phi) => {
                if *seen_non_phi {
                    let block = self.func.block_name(block);
                    self.error(span, SsaError::PhiNotAtStart { block });
                }
                self.check_phi(cfg, dom, block, phi, dest_ty, span);
            }
            InstKind::Alu(a) => {
                *seen_non_phi = true;
                let tys: SmallVec<[Option<Type>; 4]> = a
                    .srcs
                    .iter()
                    .map(|&s| self.use_type(s, at, span, cfg, dom, User::Alu(a.op)))
                    .collect();
                match dest_ty {
                    Some(d) => self.check_alu(a, d, &tys, span),
                    None => self.error(span, AluError::MissingDest { op: a.op }),
                }
            }
            InstKind::LoadConst(vals) => {
                *seen_non_phi = true;
                match dest_ty {
                    Some(ty) => self.check_const(vals, ty, span),
                    None => self.error(span, AluError::ConstWithoutDest),
                }
            }
            InstKind::Undef => {
                *seen_non_phi = true;
                if dest_ty.is_none() {
                    self.error(span, AluError::UndefWithoutDest);
                }
            }
            InstKind::Intrinsic(intr) => {
                *seen_non_phi = true;
                self.check_intrinsic(intr, dest_ty, span, at, cfg, dom);
            }
        }
    }
}
