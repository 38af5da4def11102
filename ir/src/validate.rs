//! The validator: checks that a shader is well formed and reports every problem with
//! its source position.
//!
//! What is checked:
//!
//! - **Declarations**: unique image names, `arrayed` only for dimensions that can be
//!   arrayed, image arrays of at least one element, sane static layouts.
//! - **Control-flow shape** (NIR's): every list starts and ends with a block, blocks
//!   alternate with `if`/`loop` nodes, every block and node sits in the tree once and
//!   records the list it sits in, jumps end the last block of a list and only inside
//!   a loop.
//! - **SSA**: every used value is defined by an instruction in the tree, each value is
//!   defined once, and the definition dominates the use (within a block: comes
//!   before it). A phi source must be available at the end of its predecessor. An `if`
//!   condition is used at the end of the block before the `if`.
//! - **Phis**: only at the start of a block, exactly one source per predecessor, source
//!   types equal to the phi's type.
//! - **Types**: ALU operand bit sizes and component counts per [`AluOp::info`],
//!   swizzles within the value, `load_const` values that fit, 1-bit scalar `if`
//!   conditions.
//! - **Intrinsics**: image operand and index, source counts and shapes, index values,
//!   image access shapes against the declaration, LSC data shapes, sampler channels,
//!   system-value destinations; group async copies (one pointer shared, the other
//!   global; constant element sizes and the overlap rules on constant shapes); 2D block
//!   messages and image block accesses (surface, data size, shape form, and data
//!   spread over the shader's `subgroup_size`).
//!
//! Unreachable blocks follow NIR: dominance is vacuous for them (any definition
//! dominates a use in an unreachable block), while a definition in an unreachable
//! block dominates no reachable use. NIR produces such blocks, for example the block
//! after an `if` whose branches both end in a jump, so they are valid. Uses inside
//! unreachable blocks must still name live definitions, and within one block a
//! definition must still come before its uses.
//!
//! When the control-flow shape is broken, the dominance and phi-predecessor checks are
//! skipped (the graph they rely on is not meaningful) and only the shape errors and the
//! block-local checks are reported.

use crate::alu::AluOp;
use crate::atomic::AtomicOp;
use crate::diag::Diagnostic;
use crate::dominance::{Cfg, DomTree};
use crate::entity::{Block, IfId, Inst};
use crate::function::{AluInst, CfNode, CfParent, Function, InstKind, IntrinsicInst, Phi};
use crate::image::{Format, ImageDecl, ImageDim, LayoutTiling};
use crate::intrinsic::{DestInfo, ImageOperand, IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, AddrType, BlockShape, DataShape, Sfid};
use crate::shader::Shader;
use crate::span::Span;
use crate::types::{swizzle_letter, AluType, BaseType, Src, Type};
use smallvec::SmallVec;
use std::collections::HashMap;

/// Number of vec4 slots of an image parameter block that `image_load_param` may read.
pub const IMAGE_PARAM_SLOTS: i32 = 32;

/// Validates a whole shader: declarations and every function. Returns every problem
/// found, sorted by source position (problems without a position last).
pub fn validate(shader: &Shader) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    check_declarations(shader, &mut diags);
    let mut names: HashMap<&str, Span> = HashMap::new();
    for f in &shader.functions {
        if let Some(&first) = names.get(f.name.as_str()) {
            diags.push(Diagnostic::error(
                f.span,
                format!(
                    "function `{}` is defined more than once{}",
                    f.name,
                    first_at(first)
                ),
            ));
        }
        names.entry(f.name.as_str()).or_insert(f.span);
        FnCheck::new(shader, f, &mut diags).run();
    }
    finish(diags)
}

/// Validates one function of `shader` (the shader supplies the image declarations).
pub fn validate_function(shader: &Shader, func: &Function) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    FnCheck::new(shader, func, &mut diags).run();
    finish(diags)
}

fn finish(mut diags: Vec<Diagnostic>) -> Result<(), Vec<Diagnostic>> {
    if diags.is_empty() {
        return Ok(());
    }
    diags.sort_by_key(|d| (!d.span.is_known(), d.span.line, d.span.col));
    Err(diags)
}

fn first_at(span: Span) -> String {
    if span.is_known() {
        format!(" (first at {span})")
    } else {
        String::new()
    }
}

fn defined_at(span: Span) -> String {
    if span.is_known() {
        format!(" at {span}")
    } else {
        String::new()
    }
}

// ----- declarations -------------------------------------------------------------------

fn check_declarations(shader: &Shader, diags: &mut Vec<Diagnostic>) {
    let mut names: HashMap<&str, Span> = HashMap::new();
    for (i, decl) in shader.images.iter().enumerate() {
        let span = shader.image_spans.get(i).copied().unwrap_or(Span::UNKNOWN);
        let mut err = |msg: String| diags.push(Diagnostic::error(span, msg));
        match names.get(decl.name.as_str()) {
            Some(&first) => err(format!(
                "image `@{}` is declared more than once{}",
                decl.name,
                first_at(first)
            )),
            None => {
                names.insert(decl.name.as_str(), span);
            }
        }
        if decl.arrayed && !decl.dim.can_be_arrayed() {
            err(format!(
                "image `@{}`: a {} image cannot be arrayed; only 1d, 2d and cube images can",
                decl.name, decl.dim
            ));
        }
        if decl.count == Some(0) {
            err(format!(
                "image `@{}`: an array of images needs at least one element, found 0",
                decl.name
            ));
        }
        if let Some(layout) = decl.layout {
            if layout.row_pitch == 0 {
                err(format!(
                    "image `@{}`: layout row_pitch must be greater than 0",
                    decl.name
                ));
            }
            if layout.qpitch == Some(0) {
                err(format!(
                    "image `@{}`: layout qpitch must be greater than 0",
                    decl.name
                ));
            }
            if decl.dim == ImageDim::Buffer && layout.tiling != LayoutTiling::Linear {
                err(format!(
                    "image `@{}`: buffer images are linear, found tiling={}",
                    decl.name,
                    layout.tiling.name()
                ));
            }
        }
    }
}

// ----- functions ----------------------------------------------------------------------

const NONE: u32 = u32::MAX;

/// Where a value is read: by an instruction at a position in a block, or at the end of
/// a block (phi sources, `if` conditions).
#[derive(Copy, Clone)]
enum UseAt {
    Inst {
        node: u32,
        pos: u32,
    },
    End {
        node: u32,
    },
    /// Not at a meaningful point of the graph (a phi source naming a block that is
    /// not in the tree): only definedness is checked.
    Nowhere,
}

struct FnCheck<'a> {
    shader: &'a Shader,
    func: &'a Function,
    diags: &'a mut Vec<Diagnostic>,
    shape_ok: bool,
    seen_blocks: Vec<bool>,
    seen_ifs: Vec<bool>,
    seen_loops: Vec<bool>,
    /// `if` nodes with the block before them, where their condition is read.
    if_uses: Vec<(IfId, Option<Block>)>,
    /// (cfg node, position) of every instruction in the tree.
    inst_pos: Vec<(u32, u32)>,
}

impl<'a> FnCheck<'a> {
    fn new(shader: &'a Shader, func: &'a Function, diags: &'a mut Vec<Diagnostic>) -> Self {
        FnCheck {
            shader,
            func,
            diags,
            shape_ok: true,
            seen_blocks: vec![false; func.num_block_ids()],
            seen_ifs: vec![false; func.num_if_ids()],
            seen_loops: vec![false; func.num_loop_ids()],
            if_uses: Vec::new(),
            inst_pos: vec![(NONE, 0); func.num_inst_ids()],
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn shape_error(&mut self, span: Span, msg: impl Into<String>) {
        self.shape_ok = false;
        self.error(span, msg);
    }

    fn run(mut self) {
        self.check_list(CfParent::Root, false);
        let cfg = Cfg::new(self.func);
        let dom = if self.shape_ok {
            Some(DomTree::new(&cfg))
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
            let d = self.func.if_data(id);
            let at = match before.and_then(|b| cfg.node(b)) {
                Some(n) => UseAt::End { node: n as u32 },
                None => UseAt::Nowhere,
            };
            if let Some(ty) =
                self.use_type(d.cond, at, d.span, &cfg, dom.as_ref(), &Named("if", ""))
            {
                if ty != Type::BOOL {
                    self.error(
                        d.span,
                        format!("`if` condition must be a 1-bit scalar, found {ty}"),
                    );
                }
            }
        }
    }

    // ----- shape ----------------------------------------------------------------------

    fn node_span(&self, node: CfNode) -> Span {
        match node {
            CfNode::Block(b) if b.index() < self.func.num_block_ids() => self.func.block(b).span,
            CfNode::If(i) if i.index() < self.func.num_if_ids() => self.func.if_data(i).span,
            CfNode::Loop(l) if l.index() < self.func.num_loop_ids() => self.func.loop_data(l).span,
            _ => Span::UNKNOWN,
        }
    }

    fn list_owner_span(&self, parent: CfParent) -> Span {
        match parent {
            CfParent::Root => self.func.span,
            CfParent::Then(i) | CfParent::Else(i) => self.node_span(CfNode::If(i)),
            CfParent::Loop(l) => self.node_span(CfNode::Loop(l)),
        }
    }

    /// Names a list in messages. Tolerates ids outside the arenas (a block may record
    /// a parent that does not exist).
    fn describe_list(&self, parent: CfParent) -> String {
        let at = |node: CfNode, id: String| {
            let span = self.node_span(node);
            if span.is_known() {
                format!("at {span}")
            } else {
                id
            }
        };
        match parent {
            CfParent::Root => format!("the body of fn `{}`", self.func.name),
            CfParent::Then(i) => {
                format!(
                    "the then-list of the `if` {}",
                    at(CfNode::If(i), i.to_string())
                )
            }
            CfParent::Else(i) => {
                format!(
                    "the else-list of the `if` {}",
                    at(CfNode::If(i), i.to_string())
                )
            }
            CfParent::Loop(l) => format!(
                "the body of the `loop` {}",
                at(CfNode::Loop(l), l.to_string())
            ),
        }
    }

    fn node_kind(node: CfNode) -> String {
        match node {
            CfNode::Block(b) => format!("block {b}"),
            CfNode::If(_) => "an `if`".to_string(),
            CfNode::Loop(_) => "a `loop`".to_string(),
        }
    }

    fn check_list(&mut self, parent: CfParent, in_loop: bool) {
        let list = self.func.cf_list(parent);
        let desc = self.describe_list(parent);
        if list.is_empty() {
            let span = self.list_owner_span(parent);
            self.shape_error(
                span,
                format!("{desc} is empty; expected at least one block"),
            );
            return;
        }
        if !matches!(list[0], CfNode::Block(_)) {
            let span = self.node_span(list[0]);
            self.shape_error(
                span,
                format!(
                    "{desc} must start with a block, found {}",
                    Self::node_kind(list[0])
                ),
            );
        }
        let last = list.len() - 1;
        if list.len() > 1 && !matches!(list[last], CfNode::Block(_)) {
            let span = self.node_span(list[last]);
            self.shape_error(
                span,
                format!(
                    "{desc} must end with a block, found {}",
                    Self::node_kind(list[last])
                ),
            );
        }
        for (pos, &node) in list.iter().enumerate() {
            let span = self.node_span(node);
            if pos > 0 {
                match (list[pos - 1], node) {
                    (CfNode::Block(a), CfNode::Block(b)) => self.shape_error(
                        span,
                        format!(
                            "blocks {a} and {b} follow each other in {desc}; expected an `if` or `loop` between them"
                        ),
                    ),
                    (CfNode::Block(_), _) | (_, CfNode::Block(_)) => {}
                    (prev, _) => self.shape_error(
                        span,
                        format!(
                            "{} follows {} in {desc} without a block between them",
                            Self::node_kind(node),
                            Self::node_kind(prev)
                        ),
                    ),
                }
            }
            if !self.enter_node(node, span, parent, &desc) {
                continue;
            }
            match node {
                CfNode::Block(b) => {
                    if let Some(jump) = self.func.block(b).jump {
                        if !in_loop {
                            self.shape_error(
                                span,
                                format!("`{}` outside of a loop (it ends block {b})", jump.name()),
                            );
                        } else if pos != last {
                            self.shape_error(
                                span,
                                format!(
                                    "`{}` ends block {b}, which is not the last node of {desc}; a jump must end the last block of its list",
                                    jump.name()
                                ),
                            );
                        }
                    }
                }
                CfNode::If(i) => {
                    let before = match pos.checked_sub(1).map(|p| list[p]) {
                        Some(CfNode::Block(b)) => Some(b),
                        _ => None,
                    };
                    self.if_uses.push((i, before));
                    self.check_list(CfParent::Then(i), in_loop);
                    self.check_list(CfParent::Else(i), in_loop);
                }
                CfNode::Loop(l) => self.check_list(CfParent::Loop(l), true),
            }
        }
    }

    /// The checks every node a list names gets, whatever its kind: it exists, it sits
    /// in the tree once, and it records the list it sits in as its parent. Returns
    /// whether the node may be looked into (it exists and was not seen before), so
    /// that a node listed twice is not walked twice.
    fn enter_node(&mut self, node: CfNode, span: Span, parent: CfParent, desc: &str) -> bool {
        // `named`: how a list's message names the node (`block b3`, `if7`); `subject`:
        // how a message about the node itself begins (`block b3`, `this `if``: the
        // message's span already locates the `if` or `loop`).
        let (index, count, named, subject) = match node {
            CfNode::Block(b) => {
                let named = format!("block {b}");
                (b.index(), self.func.num_block_ids(), named.clone(), named)
            }
            CfNode::If(i) => (
                i.index(),
                self.func.num_if_ids(),
                i.to_string(),
                "this `if`".to_string(),
            ),
            CfNode::Loop(l) => (
                l.index(),
                self.func.num_loop_ids(),
                l.to_string(),
                "this `loop`".to_string(),
            ),
        };
        if index >= count {
            self.shape_error(span, format!("{desc} names {named}, which does not exist"));
            return false;
        }
        let seen = match node {
            CfNode::Block(_) => &mut self.seen_blocks,
            CfNode::If(_) => &mut self.seen_ifs,
            CfNode::Loop(_) => &mut self.seen_loops,
        };
        if std::mem::replace(&mut seen[index], true) {
            self.shape_error(
                span,
                format!("{subject} appears more than once in the control-flow tree"),
            );
            return false;
        }
        let recorded = match node {
            CfNode::Block(b) => self.func.block(b).parent,
            CfNode::If(i) => Some(self.func.if_data(i).parent),
            CfNode::Loop(l) => Some(self.func.loop_data(l).parent),
        };
        if recorded != Some(parent) {
            let recorded = match recorded {
                Some(p) => self.describe_list(p),
                None => "no list".to_string(),
            };
            self.shape_error(
                span,
                format!("{subject} sits in {desc} but records its parent as {recorded}"),
            );
        }
        true
    }

    // ----- SSA ------------------------------------------------------------------------

    fn check_defs(&mut self, cfg: &Cfg) {
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
    fn use_type(
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
            let len = src.swizzle.len();
            if !Type::is_valid_num_components(len) {
                self.error(
                    span,
                    format!("the swizzle of `{v}` selects {len} components; expected 1, 2, 3, 4, 8 or 16"),
                );
                return None;
            }
            if let Some(c) = src.swizzle.components().find(|&c| c >= comps) {
                self.error(
                    span,
                    format!(
                        "swizzle `.{}` reads component {c} of `{v}`, which has {comps} component{}",
                        swizzle_letter(c, 16),
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

    fn check_block(&mut self, cfg: &Cfg, dom: Option<&DomTree>, node: u32, block: Block) {
        let mut seen_non_phi = false;
        let insts: SmallVec<[Inst; 16]> = self.func.block_insts(block).collect();
        for (pos, &inst) in insts.iter().enumerate() {
            let start = self.diags.len();
            self.check_inst(cfg, dom, node, block, pos, inst, &mut seen_non_phi);
            // `iadd %1, %1` with a bad `%1` reports once.
            let mut tail = self.diags.split_off(start);
            tail.dedup();
            self.diags.extend(tail);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_inst(
        &mut self,
        cfg: &Cfg,
        dom: Option<&DomTree>,
        node: u32,
        block: Block,
        pos: usize,
        inst: Inst,
        seen_non_phi: &mut bool,
    ) {
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
                    self.error(
                        span,
                        format!("phi in block {block} comes after other instructions; phis must be at the start of their block"),
                    );
                }
                self.check_phi(cfg, dom, block, phi, dest_ty, span);
            }
            InstKind::Alu(a) => {
                *seen_non_phi = true;
                let name = Named(a.op.name(), "");
                let tys: SmallVec<[Option<Type>; 4]> = a
                    .srcs
                    .iter()
                    .map(|&s| self.use_type(s, at, span, cfg, dom, &name))
                    .collect();
                match dest_ty {
                    Some(d) => self.check_alu(a, d, &tys, span),
                    None => self.error(span, format!("{name} must define a value")),
                }
            }
            InstKind::LoadConst(vals) => {
                *seen_non_phi = true;
                match dest_ty {
                    Some(ty) => self.check_const(vals, ty, span),
                    None => self.error(span, "`load_const` must define a value"),
                }
            }
            InstKind::Undef => {
                *seen_non_phi = true;
                if dest_ty.is_none() {
                    self.error(span, "`undef` must define a value");
                }
            }
            InstKind::Intrinsic(intr) => {
                *seen_non_phi = true;
                self.check_intrinsic(intr, dest_ty, span, at, cfg, dom);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_phi(
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

    fn check_const(&mut self, vals: &[u64], ty: Type, span: Span) {
        if vals.len() != ty.num_components() as usize {
            self.error(
                span,
                format!(
                    "`load_const` has {} value{}, expected {} for type {ty}",
                    vals.len(),
                    if vals.len() == 1 { "" } else { "s" },
                    ty.num_components()
                ),
            );
        }
        let mask = ty.component_mask();
        for (i, &v) in vals.iter().enumerate() {
            if v & !mask != 0 {
                self.error(
                    span,
                    format!(
                        "`load_const` value {i} (0x{v:x}) does not fit in {} bit{}",
                        ty.bit_size(),
                        if ty.bit_size() == 1 { "" } else { "s" }
                    ),
                );
            }
        }
    }

    fn check_alu(&mut self, a: &AluInst, dest: Type, tys: &[Option<Type>], span: Span) {
        let info = a.op.info();
        let op = a.op.name();
        let n = info.num_inputs as usize;
        if a.srcs.len() != n {
            self.error(
                span,
                format!(
                    "`{op}` takes {n} source{}, found {}",
                    if n == 1 { "" } else { "s" },
                    a.srcs.len()
                ),
            );
            return;
        }
        let (db, dc) = (dest.bit_size(), dest.num_components());
        if info.output_size != 0 && dc != info.output_size {
            self.error(
                span,
                format!(
                    "`{op}` produces {} components, but the destination has {dc}",
                    info.output_size
                ),
            );
        }
        if info.output_type.is_sized() {
            if db != info.output_type.bits {
                self.error(
                    span,
                    format!(
                        "`{op}` produces a {}-bit result ({}), but the destination is {db}-bit",
                        info.output_type.bits, info.output_type
                    ),
                );
            }
        } else if info.output_type.base == BaseType::Float && !matches!(db, 16 | 32 | 64) {
            self.error(
                span,
                format!("`{op}` produces a {db}-bit float; floats are 16, 32 or 64-bit"),
            );
        }
        // All unsized operands share one bit size: the destination's when it is
        // unsized, otherwise the first unsized source's (as in NIR's validator).
        let mut reference: Option<(u8, String)> = if info.output_type.is_sized() {
            None
        } else {
            Some((db, "the destination's bit size".to_string()))
        };
        for (i, ty) in tys.iter().enumerate() {
            let Some(ty) = *ty else { continue };
            let it: AluType = info.input_types[i];
            let (sb, sc) = (ty.bit_size(), ty.num_components());
            if it.is_sized() {
                if sb != it.bits {
                    self.error(
                        span,
                        format!(
                            "source {i} of `{op}` must be {}-bit ({it}), found {sb}-bit",
                            it.bits
                        ),
                    );
                }
            } else {
                match &reference {
                    Some((rb, why)) => {
                        if sb != *rb {
                            self.error(
                                span,
                                format!(
                                    "source {i} of `{op}` is {sb}-bit, expected {rb}-bit ({why})"
                                ),
                            );
                        }
                    }
                    None => reference = Some((sb, format!("like source {i}"))),
                }
                if it.base == BaseType::Float && !matches!(sb, 16 | 32 | 64) {
                    self.error(
                        span,
                        format!(
                            "source {i} of `{op}` is a {sb}-bit float; floats are 16, 32 or 64-bit"
                        ),
                    );
                }
            }
            // ufind_msb is only defined on 32- and 64-bit sources, as NIR's validator
            // enforces.
            if a.op == AluOp::UfindMsb && !matches!(sb, 32 | 64) {
                self.error(
                    span,
                    format!("source {i} of `{op}` must be 32 or 64-bit, found {sb}-bit"),
                );
            }
            let want = match info.input_sizes[i] {
                0 => dc,
                k => k,
            };
            if sc != want {
                let why = if info.input_sizes[i] == 0 {
                    " (the destination's component count)"
                } else {
                    ""
                };
                self.error(
                    span,
                    format!(
                        "source {i} of `{op}` has {sc} component{}, expected {want}{why}",
                        if sc == 1 { "" } else { "s" }
                    ),
                );
            }
        }
    }

    // ----- intrinsics -----------------------------------------------------------------

    fn check_intrinsic(
        &mut self,
        intr: &IntrinsicInst,
        dest_ty: Option<Type>,
        span: Span,
        at: UseAt,
        cfg: &Cfg,
        dom: Option<&DomTree>,
    ) {
        let op = intr.op;
        let info = op.info();
        let name = Named(op.name(), "@");

        // Indices first: most shape checks depend on them.
        let mut indices_ok = true;
        if intr.indices.len() != info.indices.len() {
            indices_ok = false;
            let names: Vec<&str> = info.indices.iter().map(|k| k.name()).collect();
            self.error(
                span,
                format!(
                    "{name} takes {} ind{} ({}), found {}",
                    info.indices.len(),
                    if info.indices.len() == 1 {
                        "ex"
                    } else {
                        "ices"
                    },
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    },
                    intr.indices.len()
                ),
            );
        } else {
            for (k, &v) in info.indices.iter().zip(&intr.indices) {
                if k.format_value(v).is_none() {
                    indices_ok = false;
                    self.error(
                        span,
                        format!("{name}: index `{}` has an invalid value ({v})", k.name()),
                    );
                }
            }
        }
        let idx = |k: IndexKind| if indices_ok { intr.index(k) } else { None };

        // The image operand.
        let lsc_addr = idx(IndexKind::LscAddr).and_then(AddrType::from_index);
        let wants_image = match info.image {
            ImageOperand::None => Some(false),
            ImageOperand::Required => Some(true),
            ImageOperand::Optional => lsc_addr.map(|a| a != AddrType::Flat),
        };
        let mut decl: Option<&ImageDecl> = None;
        match (wants_image, intr.image) {
            (Some(false), Some(_)) => {
                if info.image == ImageOperand::Optional {
                    self.error(
                        span,
                        format!("{name} with lsc_addr=flat cannot name an image"),
                    );
                } else {
                    self.error(span, format!("{name} does not take an image operand"));
                }
            }
            (Some(true), None) => {
                if let (ImageOperand::Optional, Some(a)) = (info.image, lsc_addr) {
                    self.error(
                        span,
                        format!(
                            "{name} with lsc_addr={} needs an image operand (the surface)",
                            a.name()
                        ),
                    );
                } else {
                    self.error(span, format!("{name} needs an image operand (`@image`)"));
                }
            }
            _ => {}
        }
        if let Some(r) = intr.image {
            match self.shader.images.get(r.image.index()) {
                None => self.error(
                    span,
                    format!("{name} names {}, which is not declared", r.image),
                ),
                Some(d) => {
                    decl = Some(d);
                    match (d.count, r.index) {
                        (Some(count), None) => self.error(
                            span,
                            format!(
                                "{name}: `@{}` is an array of {count} images and needs an index (`@{}[%i]`)",
                                d.name, d.name
                            ),
                        ),
                        (None, Some(_)) => self.error(
                            span,
                            format!("{name}: `@{}` is not an array of images and cannot be indexed", d.name),
                        ),
                        _ => {}
                    }
                }
            }
            if let Some(index) = r.index {
                if let Some(ty) = self.use_type(index, at, span, cfg, dom, &name) {
                    if ty != Type::U32 {
                        self.error(
                            span,
                            format!("{name}: the image index must be a 32-bit scalar, found {ty}"),
                        );
                    }
                }
            }
        }

        // Sources.
        let tys: SmallVec<[Option<Type>; 6]> = intr
            .srcs
            .iter()
            .map(|&s| self.use_type(s, at, span, cfg, dom, &name))
            .collect();
        let specs = if indices_ok {
            op.srcs(&intr.indices)
        } else {
            None
        };
        let Some(mut specs) = specs else {
            return;
        };
        let n = specs.len();
        let with_pred = info.predicable && intr.srcs.len() == n + 1;
        // Optional trailing sources (the `lod` of `image_load`); never on a predicable
        // intrinsic (see `IntrinsicInfo::optional_srcs`).
        let optional = intr.srcs.len() > n && intr.srcs.len() <= n + info.optional_srcs.len();
        if intr.srcs.len() != n && !with_pred && !optional {
            let counts = op
                .srcs_description(&intr.indices)
                .unwrap_or_else(|| format!("{n} sources"));
            self.error(
                span,
                format!(
                    "{name} takes {counts}{}, found {}",
                    if info.predicable {
                        " plus an optional predicate".to_string()
                    } else {
                        String::new()
                    },
                    intr.srcs.len()
                ),
            );
            return;
        }
        if optional {
            specs.extend_from_slice(&info.optional_srcs[..intr.srcs.len() - n]);
        }
        if with_pred {
            if let Some(ty) = tys[n] {
                if ty != Type::BOOL {
                    self.error(
                        span,
                        format!("{name}: the predicate must be a 1-bit scalar, found {ty}"),
                    );
                }
            }
        }
        for (k, spec) in specs.iter().enumerate() {
            let Some(ty) = tys[k] else { continue };
            if spec.components != 0 && ty.num_components() != spec.components {
                self.error(
                    span,
                    format!(
                        "{name}: source `{}` has {} components, expected {}",
                        spec.name,
                        ty.num_components(),
                        spec.components
                    ),
                );
            }
            if spec.bit_size != 0 && ty.bit_size() != spec.bit_size {
                self.error(
                    span,
                    format!(
                        "{name}: source `{}` is {}-bit, expected {}-bit",
                        spec.name,
                        ty.bit_size(),
                        spec.bit_size
                    ),
                );
            }
        }
        let src_of = |want: &str| -> Option<Type> {
            specs
                .iter()
                .position(|s| s.name == want)
                .and_then(|k| tys[k])
        };

        // The destination.
        match info.dest {
            DestInfo::None => {
                if dest_ty.is_some() {
                    self.error(span, format!("{name} does not produce a value"));
                }
            }
            DestInfo::Fixed {
                components,
                bit_size,
            } => match dest_ty {
                None => self.error(span, format!("{name} must define a value")),
                Some(d) => {
                    let want = Type::new(bit_size, components).unwrap_or(Type::U32);
                    if d != want {
                        self.error(
                            span,
                            format!("{name}: the destination is {d}, expected {want}"),
                        );
                    }
                }
            },
            DestInfo::Variable => {
                if dest_ty.is_none() {
                    self.error(span, format!("{name} must define a value"));
                }
            }
        }

        let ctx = IntrCtx {
            name: &name,
            span,
            intr,
            decl,
            dest: dest_ty,
        };
        match op {
            IntrinsicOp::ImageLoad
            | IntrinsicOp::ImageStore
            | IntrinsicOp::ImageAtomic
            | IntrinsicOp::ImageAtomicSwap
            | IntrinsicOp::ImageSize
            | IntrinsicOp::ImageSamples => {
                // The indices decoded (the sources were checked against them).
                self.check_image_access(&ctx, &src_of);
            }
            IntrinsicOp::ImageLoadParam => {
                if let Some(base) = idx(IndexKind::Base) {
                    let base = base as i32;
                    if !(0..IMAGE_PARAM_SLOTS).contains(&base) {
                        self.error(
                            span,
                            format!(
                                "{name}: base {base} is out of range; the image parameter block has {IMAGE_PARAM_SLOTS} slots (0..{IMAGE_PARAM_SLOTS})"
                            ),
                        );
                    }
                }
                if let Some(d) = dest_ty {
                    if d.bit_size() != 32 || d.num_components() > 4 {
                        self.error(
                            span,
                            format!(
                                "{name}: the destination is {d}, expected 1 to 4 32-bit components"
                            ),
                        );
                    }
                }
            }
            _ if op.is_lsc() => {
                // The indices decoded (the sources were checked against them).
                self.check_lsc(&ctx, &src_of);
            }
            IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d => {
                self.check_async_copy(&ctx, &src_of);
            }
            IntrinsicOp::LscLoadBlock2d | IntrinsicOp::LscStoreBlock2d => {
                self.check_block2d(&ctx, &src_of);
            }
            IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore => {
                self.check_image_access(&ctx, &src_of);
                self.check_image_block(&ctx, &src_of);
            }
            IntrinsicOp::SamplerLd | IntrinsicOp::SamplerLdLz => {
                let (Some(d), Some(ch)) = (dest_ty, idx(IndexKind::Channels)) else {
                    return;
                };
                let want = ch.count_ones() as u8;
                if d.num_components() != want {
                    let chans = IndexKind::Channels.format_value(ch).unwrap_or_default();
                    self.error(
                        span,
                        format!(
                            "{name}: the destination has {} components, expected {want} for channels={chans}",
                            d.num_components()
                        ),
                    );
                }
                let dt = idx(IndexKind::DestType).and_then(AluType::from_index);
                match dt {
                    Some(t) if t.is_sized() && t.bits != d.bit_size() => self.error(
                        span,
                        format!("{name}: dest_type {t} does not match the {}-bit destination", d.bit_size()),
                    ),
                    _ if !matches!(d.bit_size(), 16 | 32) => self.error(
                        span,
                        format!("{name}: the destination is {}-bit; the sampler returns 16 or 32-bit data", d.bit_size()),
                    ),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn check_image_access(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let Some(decl) = c.decl else { return };
        let intr = c.intr;
        let name = c.name;
        let span = c.span;
        // The indices restate the declaration; they must agree with it.
        if let Some(v) = intr.index(IndexKind::ImageDim) {
            if let Some(dim) = ImageDim::from_index(v) {
                if dim != decl.dim {
                    self.error(
                        span,
                        format!(
                            "{name}: image_dim={dim} does not match the declaration of `@{}` ({})",
                            decl.name, decl.dim
                        ),
                    );
                }
            }
        }
        if let Some(v) = intr.index(IndexKind::ImageArray) {
            if (v != 0) != decl.arrayed {
                self.error(
                    span,
                    format!(
                        "{name}: image_array={} does not match the declaration of `@{}` ({})",
                        v != 0,
                        decl.name,
                        if decl.arrayed {
                            "arrayed"
                        } else {
                            "not arrayed"
                        }
                    ),
                );
            }
        }
        if let Some(v) = intr.index(IndexKind::Format) {
            if let Some(f) = Format::from_index(v) {
                if f != decl.format {
                    self.error(
                        span,
                        format!(
                            "{name}: format={f} does not match the declaration of `@{}` ({})",
                            decl.name, decl.format
                        ),
                    );
                }
            }
        }
        let coords = decl.coord_components();
        let kind = format!(
            "{} {}image",
            decl.dim,
            if decl.arrayed { "array " } else { "" }
        );
        if let Some(ty) = src_of("coord") {
            if ty.num_components() != coords {
                self.error(
                    span,
                    format!(
                        "{name}: the coordinate has {} component{}, expected {coords} for a {kind}",
                        ty.num_components(),
                        if ty.num_components() == 1 { "" } else { "s" }
                    ),
                );
            }
        }
        let format = decl.format;
        let data_bits = format.data_bit_size();
        let op = intr.op;
        match op {
            IntrinsicOp::ImageLoad => {
                if let Some(d) = c.dest {
                    self.check_texel_data(c, "the destination", d, data_bits);
                    if let Some(t) = intr
                        .index(IndexKind::DestType)
                        .and_then(AluType::from_index)
                    {
                        self.check_data_type(c, "dest_type", t, d.bit_size(), format);
                    }
                }
            }
            IntrinsicOp::ImageStore => {
                if let Some(d) = src_of("data") {
                    self.check_texel_data(c, "the data", d, data_bits);
                    if let Some(t) = intr.index(IndexKind::SrcType).and_then(AluType::from_index) {
                        self.check_data_type(c, "src_type", t, d.bit_size(), format);
                    }
                }
            }
            IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => {
                let Some(aop) = intr
                    .index(IndexKind::AtomicOp)
                    .and_then(AtomicOp::from_index)
                else {
                    return;
                };
                let swap = op == IntrinsicOp::ImageAtomicSwap;
                if aop.is_swap() && !swap {
                    self.error(
                        span,
                        format!("{name}: atomic_op={aop} compares and swaps; it needs `@image_atomic_swap`"),
                    );
                } else if !aop.is_swap() && swap {
                    self.error(
                        span,
                        format!("{name} takes atomic_op=cmpxchg or fcmpxchg, found {aop}"),
                    );
                }
                if let Some(base) = format.data_base_type() {
                    let float_format = base == BaseType::Float;
                    // Exchange moves bits and works on any format.
                    if aop != AtomicOp::Xchg && aop.is_float() != float_format {
                        let (needs, has) = if aop.is_float() {
                            ("a float", "integer")
                        } else {
                            ("an integer", "float")
                        };
                        self.error(
                            span,
                            format!(
                                "{name}: atomic_op={aop} needs {needs} format, but `@{}` is {format} ({has} data)",
                                decl.name
                            ),
                        );
                    }
                }
                let operands: &[&str] = if swap {
                    &["compare", "data"]
                } else {
                    &["data"]
                };
                for which in operands {
                    if let Some(t) = src_of(which) {
                        if t.bit_size() != data_bits {
                            self.error(
                                span,
                                format!(
                                    "{name}: the atomic {which} is {}-bit, expected {data_bits}-bit for format {format}",
                                    t.bit_size()
                                ),
                            );
                        }
                    }
                }
                if let Some(d) = c.dest {
                    let want = Type::scalar(data_bits).unwrap_or(Type::U32);
                    if d != want {
                        self.error(
                            span,
                            format!("{name}: the destination is {d}, expected {want} (the old texel value)"),
                        );
                    }
                }
            }
            IntrinsicOp::ImageSize => {
                if let Some(d) = c.dest {
                    let want = Type::vec32(coords);
                    if d != want {
                        self.error(
                            span,
                            format!("{name}: the destination is {d}, expected {want} for a {kind}"),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// The texel data of an image load or store: 1 to 4 components of the format's
    /// data size.
    fn check_texel_data(&mut self, c: &IntrCtx<'_>, what: &str, ty: Type, bits: u8) {
        if ty.num_components() > 4 {
            self.error(
                c.span,
                format!(
                    "{}: {what} has {} components, expected 1 to 4",
                    c.name,
                    ty.num_components()
                ),
            );
        }
        if ty.bit_size() != bits {
            let format = c.decl.map(|d| d.format).unwrap_or(Format::None);
            self.error(
                c.span,
                format!(
                    "{}: {what} is {}-bit, expected {bits}-bit for format {format}",
                    c.name,
                    ty.bit_size()
                ),
            );
        }
    }

    fn check_data_type(
        &mut self,
        c: &IntrCtx<'_>,
        which: &str,
        t: AluType,
        bits: u8,
        format: Format,
    ) {
        if t.base == BaseType::Bool {
            self.error(
                c.span,
                format!("{}: {which} cannot be a boolean type ({t})", c.name),
            );
            return;
        }
        if t.is_sized() && t.bits != bits {
            self.error(
                c.span,
                format!("{}: {which}={t} does not match the {bits}-bit data", c.name),
            );
        }
        if let Some(base) = format.data_base_type() {
            let float_format = base == BaseType::Float;
            if (t.base == BaseType::Float) != float_format {
                self.error(
                    c.span,
                    format!(
                        "{}: {which}={t} does not match format {format}, which holds {} data",
                        c.name,
                        if float_format { "float" } else { "integer" }
                    ),
                );
            }
        }
    }

    fn check_lsc(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (name, span) = (c.name, c.span);
        let dec = |k: IndexKind| intr.index(k);
        let (Some(sfid), Some(asz), Some(shape)) = (
            dec(IndexKind::LscSfid).and_then(Sfid::from_index),
            dec(IndexKind::LscAddrSize).and_then(AddrSize::from_index),
            dec(IndexKind::LscData).and_then(DataShape::from_index),
        ) else {
            return;
        };
        let op = intr.op;
        let quad = matches!(op, IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad);
        if quad && shape.cmask == 0 {
            self.error(
                span,
                format!("{name} needs a channel-mask data shape such as d32.xyzw, found lsc_data={shape}"),
            );
        } else if !quad && shape.cmask != 0 {
            self.error(
                span,
                format!("{name} takes a vector data shape such as d32x4, found the channel mask lsc_data={shape}"),
            );
        }
        if sfid != Sfid::Tgm {
            if let Some(t) = src_of("addr") {
                if t.bit_size() != asz.bits() {
                    self.error(
                        span,
                        format!(
                            "{name}: the address is {}-bit, expected {}-bit for lsc_addr_size={}",
                            t.bit_size(),
                            asz.bits(),
                            asz.name()
                        ),
                    );
                }
            }
        }
        let comps = shape.components();
        let bits = shape.size.reg_bits();
        let Some(want) = Type::new(bits, comps) else {
            self.error(
                span,
                format!("{name}: lsc_data={shape} has {comps} components per address, which no IR value can hold"),
            );
            return;
        };
        let loads = matches!(
            op,
            IntrinsicOp::LscLoad
                | IntrinsicOp::LscLoadStrided
                | IntrinsicOp::LscLoadQuad
                | IntrinsicOp::LscAtomic
        );
        if loads {
            if let Some(d) = c.dest {
                if d != want {
                    self.error(
                        span,
                        format!(
                            "{name}: the destination is {d}, expected {want} for lsc_data={shape}"
                        ),
                    );
                }
            }
        }
        if let Some(t) = src_of("data") {
            if t != want {
                self.error(
                    span,
                    format!("{name}: the data is {t}, expected {want} for lsc_data={shape}"),
                );
            }
        }
        if op == IntrinsicOp::LscAtomic {
            for which in ["src1", "src2"] {
                if let Some(t) = src_of(which) {
                    if t.bit_size() != bits {
                        self.error(
                            span,
                            format!(
                                "{name}: atomic operand `{which}` is {}-bit, expected {bits}-bit for lsc_data={shape}",
                                t.bit_size()
                            ),
                        );
                    }
                }
            }
        }
    }
}

// ----- group async copies ---------------------------------------------------------------
//
// `group_async_copy_2d2d` / `group_async_copy_3d3d` (shared/spec/group-async-copies.md).
// The generic source checks already require 32-bit scalars for everything but the two
// pointers. Here:
//
// - the pointers: the specification requires one side in Workgroup storage and the
//   other in CrossWorkgroup storage. In the IR a global (CrossWorkgroup) pointer is a
//   64-bit address and a shared (Workgroup) pointer a 32-bit byte offset, so exactly one
//   of `dst` and `src` is 32-bit and the other 64-bit;
// - a constant `elem_bytes` is a power of two from 1 to 128: the sizes of the OpenCL C
//   gentypes the builtins copy (char to double16/long16; 3-component vectors are sized
//   as 4-component ones);
// - what the specification leaves undefined and constants reveal: a line length below
//   the elements per line (overlapping lines) and a plane area below lines x line length
//   (overlapping planes). With dynamic operands the executor reports these at run time.

impl FnCheck<'_> {
    /// The value of a scalar source defined by a `load_const`.
    fn const_scalar(&self, src: Src) -> Option<u64> {
        if src.value.index() >= self.func.num_value_ids() {
            return None;
        }
        let def = self.func.value_def(src.value)?;
        if def.index() >= self.func.num_inst_ids() {
            return None;
        }
        let vals = self.func.inst(def).as_const()?;
        vals.get(src.swizzle.component(0) as usize).copied()
    }

    fn check_async_copy(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let (name, span, intr) = (c.name, c.span, c.intr);
        // The pointers.
        let ptr_bits = |which: &str| src_of(which).map(|t| t.bit_size());
        for which in ["dst", "src"] {
            if let Some(bits) = ptr_bits(which) {
                if bits != 32 && bits != 64 {
                    self.error(
                        span,
                        format!(
                            "{name}: `{which}` is {bits}-bit; expected a 64-bit global address or a 32-bit shared-memory offset"
                        ),
                    );
                }
            }
        }
        if let (Some(d), Some(s)) = (ptr_bits("dst"), ptr_bits("src")) {
            if d == s && (d == 32 || d == 64) {
                let what = if d == 64 {
                    "64-bit global addresses"
                } else {
                    "32-bit shared-memory offsets"
                };
                self.error(
                    span,
                    format!(
                        "{name}: `dst` and `src` are both {what}; a group async copy moves data between shared (Workgroup, a 32-bit offset) and global (CrossWorkgroup, a 64-bit address) memory, so exactly one side is shared"
                    ),
                );
            }
        }
        // Constant operands, by name.
        let Some(specs) = intr.op.srcs(&intr.indices) else {
            return;
        };
        let konst = |this: &Self, which: &str| -> Option<u64> {
            let k = specs.iter().position(|s| s.name == which)?;
            this.const_scalar(*intr.srcs.get(k)?)
        };
        if let Some(eb) = konst(self, "elem_bytes") {
            if !eb.is_power_of_two() || eb > 128 {
                self.error(
                    span,
                    format!(
                        "{name}: elem_bytes is {eb}; expected a power of two from 1 to 128 (the size of an OpenCL C gentype)"
                    ),
                );
            }
        }
        let epl = konst(self, "elems_per_line");
        let lines = konst(self, "lines");
        for side in ["src", "dst"] {
            let ll = konst(self, &format!("{side}_line_length"));
            if let (Some(ll), Some(epl)) = (ll, epl) {
                if ll < epl {
                    self.error(
                        span,
                        format!(
                            "{name}: {side}_line_length {ll} is smaller than elems_per_line {epl}: the lines overlap, which the specification leaves undefined"
                        ),
                    );
                }
            }
            let pa = konst(self, &format!("{side}_plane_area"));
            if let (Some(pa), Some(lines), Some(ll)) = (pa, lines, ll) {
                let needed = lines * ll;
                if pa < needed {
                    self.error(
                        span,
                        format!(
                            "{name}: {side}_plane_area {pa} is smaller than lines x {side}_line_length = {lines} x {ll} = {needed}: the planes overlap, which the specification leaves undefined"
                        ),
                    );
                }
            }
        }
    }
}

// ----- 2D block messages and image block accesses ---------------------------------------
//
// A block message moves a register image R (lsc.md §8; `BlockShape::register_bytes`)
// that is spread over the lanes of a subgroup: component k of lane i of a value of `b`
// bits holds bytes `R[(k * SG + i) * b / 8 ..][.. b / 8]`, SG being the shader's
// `subgroup_size`. So the value's components x bits x SG must be the image's size.

impl FnCheck<'_> {
    /// The data (or destination) of a subgroup-level block access: 8- to 64-bit
    /// components that spread `bytes` over the shader's subgroup.
    fn check_block_value(&mut self, c: &IntrCtx<'_>, what: &str, ty: Type, bytes: u32) {
        let (name, span) = (c.name, c.span);
        if ty.bit_size() < 8 {
            self.error(
                span,
                format!("{name}: {what} is {ty}; block data has 8-, 16-, 32- or 64-bit components"),
            );
            return;
        }
        let Some(sg) = self.shader.subgroup_size else {
            self.error(
                span,
                format!(
                    "{name} spreads its data over a subgroup, so the shader must fix `subgroup_size` in its header"
                ),
            );
            return;
        };
        let have = u32::from(ty.num_components()) * u32::from(ty.bit_size()) / 8 * sg;
        if have != bytes {
            self.error(
                span,
                format!(
                    "{name}: {what} is {ty}, which spreads {have} bytes over a subgroup of {sg}, but the block is {bytes} bytes"
                ),
            );
        }
    }

    fn check_block2d(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (name, span) = (c.name, c.span);
        let (Some(sfid), Some(data), Some(shape)) = (
            intr.index(IndexKind::LscSfid).and_then(Sfid::from_index),
            intr.index(IndexKind::LscData)
                .and_then(DataShape::from_index),
            intr.index(IndexKind::LscBlock)
                .and_then(BlockShape::from_index),
        ) else {
            return;
        };
        let typed = match sfid {
            Sfid::Tgm => true,
            Sfid::Ugm => false,
            other => {
                self.error(
                    span,
                    format!(
                        "{name}: 2D block messages go to .ugm or .tgm, found lsc_sfid={}",
                        other.name()
                    ),
                );
                return;
            }
        };
        if data.size.is_conversion() || data.vect != 1 || data.transpose || data.cmask != 0 {
            self.error(
                span,
                format!(
                    "{name}: lsc_data of a block message is d8, d16, d32 or d64 (transpose and VNNI are in lsc_block), found {data}"
                ),
            );
            return;
        }
        if typed == shape.is_untyped() {
            self.error(
                span,
                if typed {
                    format!("{name}: a .tgm block is WxH in bytes (`8x8`), found lsc_block={shape}")
                } else {
                    format!(
                        "{name}: a .ugm block is [BxWxH] with transpose and VNNI flags (`16x8nn`), found lsc_block={shape}"
                    )
                },
            );
            return;
        }
        match (typed, c.decl) {
            (true, None) if intr.image.is_none() => self.error(
                span,
                format!("{name} on .tgm needs an image operand (the surface)"),
            ),
            (true, Some(d)) if d.dim != ImageDim::D2 || d.arrayed => self.error(
                span,
                format!(
                    "{name} on .tgm addresses a 2D surface, but `@{}` is a {}{} image",
                    d.name,
                    d.dim,
                    if d.arrayed { " array" } else { "" }
                ),
            ),
            (false, _) if intr.image.is_some() => self.error(
                span,
                format!("{name} on .ugm is flat (the surface is in the payload) and cannot name an image"),
            ),
            _ => {}
        }
        let bytes = shape.register_bytes(data.size.mem_bytes());
        let value = if intr.op == IntrinsicOp::LscStoreBlock2d {
            src_of("data").map(|t| ("the data", t))
        } else {
            c.dest.map(|t| ("the destination", t))
        };
        if let Some((what, t)) = value {
            self.check_block_value(c, what, t, bytes);
        }
    }

    fn check_image_block(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let (name, span) = (c.name, c.span);
        let Some(decl) = c.decl else { return };
        if decl.dim != ImageDim::D2 || decl.arrayed {
            self.error(
                span,
                format!(
                    "{name} reads and writes 2D blocks of a non-arrayed 2D image, but `@{}` is a {}{} image",
                    decl.name,
                    decl.dim,
                    if decl.arrayed { " array" } else { "" }
                ),
            );
            return;
        }
        if decl.format == Format::None {
            self.error(
                span,
                format!(
                    "{name}: `@{}` has no format, so its texel size is unknown",
                    decl.name
                ),
            );
            return;
        }
        let tb = decl.format.bits_per_texel() / 8;
        if !matches!(tb, 1 | 2 | 4 | 8) {
            self.error(
                span,
                format!(
                    "{name}: block accesses move texels of 1, 2, 4 or 8 bytes, but {} texels are {tb} bytes",
                    decl.format
                ),
            );
            return;
        }
        let Some(shape) = c
            .intr
            .index(IndexKind::Block)
            .and_then(BlockShape::from_index)
        else {
            return;
        };
        let bytes = u32::from(shape.width) * u32::from(shape.height) * tb;
        let value = if c.intr.op == IntrinsicOp::ImageBlockStore {
            src_of("data").map(|t| ("the data", t))
        } else {
            c.dest.map(|t| ("the destination", t))
        };
        if let Some((what, t)) = value {
            self.check_block_value(c, what, t, bytes);
        }
    }
}

/// An instruction or keyword named in a message: `` `iadd` ``, `` `@image_load` ``.
struct Named(&'static str, &'static str);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}{}`", self.1, self.0)
    }
}

/// The user of a phi source in messages.
struct PhiSource(Block);

impl std::fmt::Display for PhiSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "phi source from {}", self.0)
    }
}

/// What the intrinsic checks share.
struct IntrCtx<'a> {
    name: &'a Named,
    span: Span,
    intr: &'a IntrinsicInst,
    decl: Option<&'a ImageDecl>,
    dest: Option<Type>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{image_indices, Builder};
    use crate::function::{Cursor, Jump};
    use crate::image::{ImageRef, StaticLayout};
    use crate::lsc::{CacheControl, DataSize};
    use crate::types::Swizzle;

    fn decl(name: &str, dim: ImageDim, arrayed: bool, format: Format) -> ImageDecl {
        ImageDecl {
            arrayed,
            ..ImageDecl::new(name, dim, format)
        }
    }

    /// A shader with `@img2d : 2d rgba8_unorm`, `@r32 : 2d r32_uint`,
    /// `@r32f : 1d array r32_float`, `@r64 : 3d r64_uint`, `@arr[4] : 2d r32_sint`,
    /// and one function built by `f`.
    fn shader(f: impl FnOnce(&mut Builder, &Shader)) -> Shader {
        let mut sh = Shader::new([1, 1, 1]);
        sh.add_image(decl("img2d", ImageDim::D2, false, Format::Rgba8Unorm));
        sh.add_image(decl("r32", ImageDim::D2, false, Format::R32Uint));
        sh.add_image(decl("r32f", ImageDim::D1, true, Format::R32Float));
        sh.add_image(decl("r64", ImageDim::D3, false, Format::R64Uint));
        let mut arr = decl("arr", ImageDim::D2, false, Format::R32Sint);
        arr.count = Some(4);
        sh.add_image(arr);
        let mut func = Function::new("main");
        let mut b = Builder::at_end(&mut func);
        f(&mut b, &sh);
        sh.functions.push(func);
        sh
    }

    fn img(sh: &Shader, name: &str) -> (ImageDecl, ImageRef) {
        let id = sh.image_by_name(name).unwrap();
        (sh.image(id).clone(), ImageRef::new(id))
    }

    fn errors(sh: &Shader) -> Vec<String> {
        match validate(sh) {
            Ok(()) => Vec::new(),
            Err(d) => d.into_iter().map(|d| d.message).collect(),
        }
    }

    fn assert_errors(sh: &Shader, want: &[&str]) {
        assert_eq!(errors(sh), want, "diagnostics differ");
    }

    /// An intrinsic for [`emit`]: opcode, image, sources, indices, destination type.
    type Intr<'a> = (
        IntrinsicOp,
        Option<ImageRef>,
        Vec<Src>,
        &'a [u32],
        Option<Type>,
    );

    /// Emits `list` in order: the tests of malformed intrinsics are tables of these,
    /// one expected message each.
    fn emit(b: &mut Builder, list: &[Intr<'_>]) {
        for (op, image, srcs, indices, dest) in list {
            b.intrinsic(*op, *image, srcs, indices, *dest);
        }
    }

    /// `decl`'s image indices followed by `last` (`dest_type`, `src_type` or
    /// `atomic_op`), as the image access intrinsics carry them.
    fn access_indices(decl: &ImageDecl, last: u32) -> Vec<u32> {
        image_indices(decl).into_iter().chain([last]).collect()
    }

    fn u32t() -> AluType {
        AluType::new(BaseType::Uint, 32)
    }

    fn f32t() -> AluType {
        AluType::new(BaseType::Float, 32)
    }

    fn coord2(b: &mut Builder) -> Value {
        let x = b.imm_u32(1);
        b.vec(&[x.into(), x.into()])
    }

    /// For [`shader`]: `if true {} else {}`, one `if` whose lists are one empty block
    /// each.
    fn empty_if(b: &mut Builder, _: &Shader) {
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.pop_if(i);
    }

    use crate::entity::Value;

    #[test]
    fn valid_shader_passes() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "img2d");
            let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
            let xy = b.mov(Src::swizzled(id, &[0, 1]).unwrap());
            let texel = b.image_load(&d, r, xy, 4, f32t());
            b.image_store(&d, r, xy, texel, f32t());
            let (d32, r32) = img(sh, "r32");
            let one = b.imm_u32(1);
            let old = b.image_atomic(&d32, r32, AtomicOp::Iadd, xy, one);
            let _ = b.image_atomic_swap(&d32, r32, AtomicOp::Cmpxchg, xy, old, one);
            let _ = b.image_size(&d32, r32);
            let _ = b.image_load_param(r32, 31, 4);
            let (d64, r64) = img(sh, "r64");
            let xyz = b.mov(Src::swizzled(id, &[0, 1, 2]).unwrap());
            let big = b.imm_u64(7);
            let _ = b.image_atomic(&d64, r64, AtomicOp::Umax, xyz, big);
            let (df, rf) = img(sh, "r32f");
            let f1 = b.imm_f32(1.0);
            let _ = b.image_atomic(&df, rf, AtomicOp::Fadd, xy, f1);
            let _ = b.image_atomic(&df, rf, AtomicOp::Xchg, xy, f1);
            let aid = sh.image_by_name("arr").unwrap();
            let ar = ImageRef {
                image: aid,
                index: Some(one.into()),
            };
            let _ = b.image_load(sh.image(aid), ar, xy, 1, AluType::new(BaseType::Int, 32));
            // Control flow with a phi and a loop with a header phi.
            let c = b.ult(one, old);
            let i = b.push_if(c);
            let t = b.iadd(one, one);
            b.push_else(i);
            let e = b.imul(one, one);
            b.pop_if(i);
            let p = b.if_phi(i, t, e);
            let pre = b.current_block();
            let l = b.push_loop();
            let header = b.current_block();
            let ph = b.phi(Type::U32, &[(pre, p.into())]);
            let next = b.iadd(ph, one);
            let done = b.uge(next, old);
            b.break_if(done);
            let latch = b.current_block();
            b.pop_loop(l);
            b.add_phi_src(ph, latch, next);
            let _ = header;
            // 1-bit operands of unsized integer ops are NIR booleans.
            let both = b.iand(c, c);
            let _ = b.bcsel(both, one, old);
            let _ = b.ufind_msb(old);
        });
        assert_errors(&sh, &[]);
    }

    // ----- declarations ---------------------------------------------------------------

    #[test]
    fn declaration_errors() {
        let mut sh = shader(|_, _| {});
        sh.add_image_at(
            decl("r32", ImageDim::D2, false, Format::R32Uint),
            Span::new(3, 1),
        );
        sh.add_image_at(
            decl("vol", ImageDim::D3, true, Format::R32Uint),
            Span::new(4, 1),
        );
        let mut none = decl("none", ImageDim::D2, false, Format::R32Uint);
        none.count = Some(0);
        sh.add_image_at(none, Span::new(5, 1));
        let mut lay = decl("lay", ImageDim::Buffer, false, Format::R32Uint);
        lay.layout = Some(StaticLayout {
            tiling: LayoutTiling::Y,
            row_pitch: 0,
            qpitch: Some(0),
            swizzle: false,
        });
        sh.add_image_at(lay, Span::new(6, 1));
        assert_errors(
            &sh,
            &[
                "image `@r32` is declared more than once",
                "image `@vol`: a 3d image cannot be arrayed; only 1d, 2d and cube images can",
                "image `@none`: an array of images needs at least one element, found 0",
                "image `@lay`: layout row_pitch must be greater than 0",
                "image `@lay`: layout qpitch must be greater than 0",
                "image `@lay`: buffer images are linear, found tiling=y",
            ],
        );
    }

    #[test]
    fn duplicate_function_names() {
        let mut sh = shader(|_, _| {});
        let mut f = Function::new("main");
        f.span = Span::new(9, 1);
        sh.functions.push(f);
        assert_errors(&sh, &["function `main` is defined more than once"]);
    }

    // ----- shape ----------------------------------------------------------------------

    #[test]
    fn empty_body() {
        let mut sh = shader(|_, _| {});
        sh.functions[0] = Function::empty("main");
        assert_errors(
            &sh,
            &["the body of fn `main` is empty; expected at least one block"],
        );
    }

    #[test]
    fn adjacent_blocks_and_nodes() {
        let mut sh = shader(|_, _| {});
        let f = &mut sh.functions[0];
        let b1 = f.create_block(CfParent::Root);
        f.append_cf_node(CfParent::Root, CfNode::Block(b1));
        assert_errors(
            &sh,
            &["blocks b0 and b1 follow each other in the body of fn `main`; expected an `if` or `loop` between them"],
        );

        let mut sh = shader(empty_if);
        let f = &mut sh.functions[0];
        // Drop the block between the `if` and a new loop: if, loop adjacent.
        let l = f.create_loop(CfParent::Root, Span::UNKNOWN);
        let h = f.create_block(CfParent::Loop(l));
        f.append_cf_node(CfParent::Loop(l), CfNode::Block(h));
        let body = f.cf_list_mut(CfParent::Root);
        let last = body.pop().unwrap();
        body.push(CfNode::Loop(l));
        body.push(last);
        assert_errors(
            &sh,
            &["a `loop` follows an `if` in the body of fn `main` without a block between them"],
        );
    }

    #[test]
    fn list_must_start_and_end_with_blocks() {
        let build = || {
            shader(|b, _| {
                let i = b.push_if(Value::from_u32(0));
                b.pop_if(i);
                let c = b.imm_bool(true);
                let _ = c;
            })
        };
        // The condition %0 is defined in the block after the `if`, so the start and end
        // errors come with a dominance-free complaint only when the shape is intact.
        let mut sh = build();
        sh.functions[0].cf_list_mut(CfParent::Root).remove(0);
        assert_errors(
            &sh,
            &["the body of fn `main` must start with a block, found an `if`"],
        );
        let mut sh = build();
        sh.functions[0].cf_list_mut(CfParent::Root).pop();
        assert_errors(
            &sh,
            &[
                "the body of fn `main` must end with a block, found an `if`",
                "`if` uses `%0`, whose definition is not in the function body",
            ],
        );
    }

    #[test]
    fn block_twice_and_wrong_parent() {
        let mut sh = shader(empty_if);
        let f = &mut sh.functions[0];
        let i = f.ifs_in_order()[0];
        let then_block = f.first_block(CfParent::Then(i)).unwrap();
        // The else list names the then block too.
        f.if_data_mut(i).else_list = vec![CfNode::Block(then_block)];
        let errs = errors(&sh);
        assert_eq!(
            errs,
            vec!["block b2 appears more than once in the control-flow tree"]
        );

        let mut sh = shader(empty_if);
        let f = &mut sh.functions[0];
        let i = f.ifs_in_order()[0];
        let else_block = f.first_block(CfParent::Else(i)).unwrap();
        f.block_mut(else_block).parent = Some(CfParent::Then(i));
        assert_errors(
            &sh,
            &["block b3 sits in the else-list of the `if` if0 but records its parent as the then-list of the `if` if0"],
        );
    }

    #[test]
    fn parent_outside_the_arena_is_reported_not_a_panic() {
        let mut sh = shader(|_, _| {});
        let f = &mut sh.functions[0];
        f.block_mut(Block::from_u32(0)).parent = Some(CfParent::Then(IfId::from_u32(7)));
        assert_errors(
            &sh,
            &["block b0 sits in the body of fn `main` but records its parent as the then-list of the `if` if7"],
        );
    }

    #[test]
    fn jumps_outside_loops_and_not_last() {
        let mut sh = shader(|b, _| {
            b.jump(Jump::Break);
        });
        sh.functions[0].block_mut(Block::from_u32(0)).span = Span::new(2, 3);
        assert_errors(&sh, &["`break` outside of a loop (it ends block b0)"]);

        let sh = shader(|b, _| {
            let l = b.push_loop();
            b.jump(Jump::Continue);
            let c = b.imm_bool(true);
            let i = b.push_if(c);
            b.pop_if(i);
            b.pop_loop(l);
        });
        // push_if moved the jump to the block after the new `if`; put one back on the
        // header, which is followed by the `if`.
        let mut sh = sh;
        let f = &mut sh.functions[0];
        let l = match f.body()[1] {
            CfNode::Loop(l) => l,
            _ => unreachable!(),
        };
        let header = f.first_block(CfParent::Loop(l)).unwrap();
        f.block_mut(header).jump = Some(Jump::Break);
        assert_errors(
            &sh,
            &["`break` ends block b2, which is not the last node of the body of the `loop` loop0; a jump must end the last block of its list"],
        );
    }

    // ----- SSA ------------------------------------------------------------------------

    #[test]
    fn undefined_and_removed_values() {
        let sh = shader(|b, _| {
            let ghost = Value::from_u32(40);
            b.func.reserve_value(ghost);
            let x = b.imm_u32(1);
            b.iadd(x, ghost);
            let orphan = b
                .func
                .create_inst(InstKind::Undef, Some(Type::U32), Span::UNKNOWN);
            let ov = b.func.inst(orphan).dest.unwrap();
            b.iadd(x, ov);
        });
        assert_errors(
            &sh,
            &[
                "`iadd` uses `%40`, which is not defined",
                "`iadd` uses `%43`, whose definition is not in the function body",
            ],
        );
    }

    #[test]
    fn use_before_def_in_block() {
        let sh = shader(|b, _| {
            let x = b.imm_u32(1);
            let y = b.iadd(x, x);
            let yi = b.func.value_def(y).unwrap();
            let xi = b.func.value_def(x).unwrap();
            b.func.remove_inst(xi);
            b.func.insert_inst(xi, Cursor::After(yi));
            b.func.set_inst_span(xi, Span::new(3, 5));
            b.func.set_inst_span(yi, Span::new(2, 5));
        });
        let d = validate(&sh).unwrap_err();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].span, Span::new(2, 5));
        assert_eq!(
            d[0].message,
            "`iadd` uses `%0` before its definition at 3:5"
        );
    }

    #[test]
    fn use_not_dominated() {
        let sh = shader(|b, _| {
            let c = b.imm_bool(true);
            let i = b.push_if(c);
            let t = b.imm_u32(3);
            b.pop_if(i);
            b.iadd(t, t);
        });
        assert_errors(
            &sh,
            &["`iadd` uses `%1` in block b1, but its definition in block b2 does not dominate it"],
        );
    }

    #[test]
    fn phi_source_must_dominate_predecessor_end() {
        let sh = shader(|b, _| {
            let c = b.imm_bool(true);
            let i = b.push_if(c);
            let t = b.imm_u32(3);
            b.push_else(i);
            b.pop_if(i);
            // Both sources use the then-value; from the else block it is not available.
            b.if_phi(i, t, t);
        });
        assert_errors(
            &sh,
            &["phi source from b3 uses `%1` at the end of block b3, but its definition in block b2 does not dominate it"],
        );
    }

    #[test]
    fn value_defined_twice() {
        let sh = shader(|b, _| {
            let x = b.imm_u32(1);
            let y = b.imm_u32(2);
            let yi = b.func.value_def(y).unwrap();
            b.func.inst_mut(yi).dest = Some(x);
        });
        assert_errors(&sh, &["`%0` is defined more than once (also elsewhere)"]);
    }

    #[test]
    fn unreachable_uses_are_vacuous_but_defs_do_not_dominate() {
        // loop { if c { break } else { break }; <unreachable: uses a value from the
        // then-block> }; after the loop, a use of a value from the unreachable block.
        let sh = shader(|b, _| {
            let l = b.push_loop();
            let c = b.imm_bool(true);
            let i = b.push_if(c);
            let t = b.imm_u32(1);
            b.jump(Jump::Break);
            b.push_else(i);
            b.jump(Jump::Break);
            b.pop_if(i);
            let dead = b.iadd(t, t);
            b.pop_loop(l);
            b.iadd(dead, dead);
        });
        assert_errors(
            &sh,
            &["`iadd` uses `%2` in block b1, but its definition in block b3 does not dominate it"],
        );
    }

    // ----- phis -----------------------------------------------------------------------

    fn if_with_phi(f: impl FnOnce(&mut Builder, IfId, Value, Value)) -> Shader {
        shader(|b, _| {
            let c = b.imm_bool(true);
            let (i, t, e) = b.if_else_u32(c, 1, 2);
            f(b, i, t, e);
        })
    }

    #[test]
    fn phi_not_at_block_start() {
        let sh = if_with_phi(|b, i, t, e| {
            b.undef(Type::U32);
            b.if_phi(i, t, e);
        });
        assert_errors(
            &sh,
            &["phi in block b1 comes after other instructions; phis must be at the start of their block"],
        );
    }

    #[test]
    fn phi_sources_per_predecessor() {
        // The merge block is b1; its predecessors are the then-block b2 and the
        // else-block b3.
        let (b0, b2, b3) = (Block::from_u32(0), Block::from_u32(2), Block::from_u32(3));
        let sh = if_with_phi(|b, _, t, _| {
            b.phi(Type::U32, &[(b2, t.into())]);
        });
        assert_errors(&sh, &["phi has no source for predecessor b3 of b1"]);

        let sh = if_with_phi(|b, _, t, e| {
            b.phi(Type::U32, &[(b2, t.into()), (b3, e.into()), (b0, t.into())]);
        });
        assert_errors(
            &sh,
            &["phi has a source from b0, which is not a predecessor of b1 (predecessors: b2, b3)"],
        );

        let sh = if_with_phi(|b, _, t, e| {
            b.phi(Type::U32, &[(b2, t.into()), (b3, e.into()), (b3, e.into())]);
        });
        assert_errors(&sh, &["phi has more than one source from b3"]);
    }

    #[test]
    fn phi_source_types() {
        let sh = shader(|b, _| {
            let w = b.imm_u64(2);
            let c = b.imm_bool(true);
            let i = b.push_if(c);
            b.push_else(i);
            b.pop_if(i);
            let t = b.func.last_block(CfParent::Then(i)).unwrap();
            let e = b.func.last_block(CfParent::Else(i)).unwrap();
            b.phi(Type::U32, &[(t, w.into()), (e, w.into())]);
        });
        assert_errors(
            &sh,
            &[
                "phi source from b2 is 64, expected 32 (the phi's type)",
                "phi source from b3 is 64, expected 32 (the phi's type)",
            ],
        );
    }

    // ----- ALU, constants, swizzles, conditions ---------------------------------------

    #[test]
    fn alu_bit_sizes() {
        let sh = shader(|b, _| {
            let x = b.imm_u32(1);
            let h = b.imm_int(16, 1);
            let t = b.imm_bool(true);
            b.alu_typed(AluOp::Iadd, &[x.into(), h.into()], Type::U32);
            b.alu_typed(AluOp::Ishl, &[x.into(), h.into()], Type::U32);
            b.alu_typed(AluOp::Iadd, &[x.into(), t.into()], Type::U32);
            b.alu_typed(AluOp::Ieq, &[x.into(), x.into()], Type::U32);
            b.alu_typed(AluOp::Ult, &[h.into(), x.into()], Type::BOOL);
            let byte = b.imm_int(8, 1);
            b.alu_typed(
                AluOp::Fadd,
                &[byte.into(), byte.into()],
                Type::scalar(8).unwrap(),
            );
            b.alu_typed(AluOp::UfindMsb, &[h.into()], Type::U32);
            b.alu_typed(
                AluOp::Ubfe,
                &[h.into(), x.into(), x.into()],
                Type::scalar(16).unwrap(),
            );
        });
        assert_errors(
            &sh,
            &[
                "source 1 of `iadd` is 16-bit, expected 32-bit (the destination's bit size)",
                "source 1 of `ishl` must be 32-bit (uint32), found 16-bit",
                "source 1 of `iadd` is 1-bit, expected 32-bit (the destination's bit size)",
                "`ieq` produces a 1-bit result (bool1), but the destination is 32-bit",
                "source 1 of `ult` is 32-bit, expected 16-bit (like source 0)",
                "`fadd` produces a 8-bit float; floats are 16, 32 or 64-bit",
                "source 0 of `fadd` is a 8-bit float; floats are 16, 32 or 64-bit",
                "source 1 of `fadd` is a 8-bit float; floats are 16, 32 or 64-bit",
                "source 0 of `ufind_msb` must be 32 or 64-bit, found 16-bit",
                "`ubfe` produces a 32-bit result (uint32), but the destination is 16-bit",
                "source 0 of `ubfe` must be 32-bit (uint32), found 16-bit",
            ],
        );
    }

    #[test]
    fn alu_component_counts() {
        let sh = shader(|b, _| {
            let v2 = b.load_const(Type::vec32(2), &[1, 2]);
            let x = b.imm_u32(1);
            b.alu_typed(AluOp::Iadd, &[v2.into(), x.into()], Type::vec32(2));
            b.alu_typed(AluOp::Vec2, &[v2.into(), x.into()], Type::vec32(2));
            b.alu_typed(AluOp::Vec3, &[x.into(), x.into(), x.into()], Type::vec32(2));
            b.alu_typed(AluOp::Iadd, &[x.into()], Type::U32);
        });
        assert_errors(
            &sh,
            &[
                "source 1 of `iadd` has 1 component, expected 2 (the destination's component count)",
                "source 0 of `vec2` has 2 components, expected 1",
                "`vec3` produces 3 components, but the destination has 2",
                "`iadd` takes 2 sources, found 1",
            ],
        );
    }

    #[test]
    fn swizzles_constants_and_conditions() {
        let sh = shader(|b, _| {
            let v2 = b.load_const(Type::vec32(2), &[1, 2]);
            b.mov(Src::swizzled(v2, &[2]).unwrap());
            b.func.reserve_value(Value::from_u32(0));
            let wide = Src {
                value: v2,
                swizzle: Swizzle::new(&[0, 1, 0, 1, 0]).unwrap(),
            };
            b.alu_typed(AluOp::Mov, &[wide], Type::vec32(4));
            let k = b.func.create_inst(
                InstKind::LoadConst(smallvec::smallvec![1, 2, 3]),
                Some(Type::vec32(2)),
                Span::UNKNOWN,
            );
            b.func.insert_inst(k, b.cursor);
            b.cursor = Cursor::After(k);
            b.load_const(Type::vec32(1), &[1]);
            let k2 = b.func.create_inst(
                InstKind::LoadConst(smallvec::smallvec![0x1ff]),
                Some(Type::scalar(8).unwrap()),
                Span::UNKNOWN,
            );
            b.func.insert_inst(k2, b.cursor);
            b.cursor = Cursor::After(k2);
            let x = b.imm_u32(1);
            let i = b.push_if(x);
            b.pop_if(i);
        });
        assert_errors(
            &sh,
            &[
                "swizzle `.c` reads component 2 of `%0`, which has 2 components",
                "the swizzle of `%0` selects 5 components; expected 1, 2, 3, 4, 8 or 16",
                "`load_const` has 3 values, expected 2 for type 32x2",
                "`load_const` value 0 (0x1ff) does not fit in 8 bits",
                "`if` condition must be a 1-bit scalar, found 32",
            ],
        );
    }

    // ----- intrinsics -----------------------------------------------------------------

    #[test]
    fn image_operand_presence() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32");
            let xy: Src = coord2(b).into();
            let ind = access_indices(&d, u32t().to_index());
            let bogus = ImageRef::new(crate::entity::ImageId::from_u32(9));
            let ty = Some(Type::U32);
            use IntrinsicOp::{ImageLoad, LoadGlobalInvocationId};
            emit(
                b,
                &[
                    (ImageLoad, None, vec![xy], &ind, ty),
                    (
                        LoadGlobalInvocationId,
                        Some(r),
                        vec![],
                        &[],
                        Some(Type::vec32(3)),
                    ),
                    (ImageLoad, Some(bogus), vec![xy], &ind, ty),
                ],
            );
        });
        assert_errors(
            &sh,
            &[
                "`@image_load` needs an image operand (`@image`)",
                "`@load_global_invocation_id` does not take an image operand",
                "`@image_load` names image9, which is not declared",
            ],
        );
    }

    #[test]
    fn image_array_indexing() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "arr");
            let (d2, r2) = img(sh, "r32");
            let xy = coord2(b);
            let h = b.imm_int(16, 0);
            let one = b.imm_u32(1);
            let it = AluType::new(BaseType::Int, 32);
            b.image_load(&d, r, xy, 1, it);
            b.image_load(
                &d2,
                ImageRef {
                    index: Some(one.into()),
                    ..r2
                },
                xy,
                1,
                u32t(),
            );
            b.image_load(
                &d,
                ImageRef {
                    index: Some(h.into()),
                    ..r
                },
                xy,
                1,
                it,
            );
        });
        assert_errors(
            &sh,
            &[
                "`@image_load`: `@arr` is an array of 4 images and needs an index (`@arr[%i]`)",
                "`@image_load`: `@r32` is not an array of images and cannot be indexed",
                "`@image_load`: the image index must be a 32-bit scalar, found 16",
            ],
        );
    }

    #[test]
    fn indices_and_source_counts() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32");
            let xy: Src = coord2(b).into();
            let t: Src = b.imm_bool(true).into();
            let zero: Src = b.imm_u32(0).into();
            let idx = image_indices(&d);
            let bad = [&idx[..], &[0x900]].concat();
            let ok = access_indices(&d, u32t().to_index());
            let ty = Some(Type::U32);
            use IntrinsicOp::{ImageLoad, ImageStore};
            emit(
                b,
                &[
                    (ImageLoad, Some(r), vec![xy], &idx, ty),
                    (ImageLoad, Some(r), vec![xy], &bad, ty),
                    (ImageLoad, Some(r), vec![xy, t, t], &ok, ty),
                    (ImageLoad, Some(r), vec![], &ok, ty),
                    (ImageStore, Some(r), vec![xy, zero, zero], &ok, None),
                ],
            );
        });
        assert_errors(
            &sh,
            &[
                "`@image_load` takes 5 indices (image_dim, image_array, format, access, dest_type), found 4",
                "`@image_load`: index `dest_type` has an invalid value (2304)",
                "`@image_load` takes 1 or 2 sources (coord[, lod]), found 3",
                "`@image_load` takes 1 or 2 sources (coord[, lod]), found 0",
                "`@image_store` takes 2 sources (coord, data), found 3",
            ],
        );
    }

    #[test]
    fn image_load_lod_operand() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32");
            let xy: Src = coord2(b).into();
            let lod: Src = b.imm_u32(1).into();
            let lod16: Src = b.load_const(Type::new(16, 1).unwrap(), &[1]).into();
            let ok = access_indices(&d, u32t().to_index());
            let load = |srcs| {
                (
                    IntrinsicOp::ImageLoad,
                    Some(r),
                    srcs,
                    &ok[..],
                    Some(Type::U32),
                )
            };
            emit(
                b,
                &[
                    // Fine: with and without a 32-bit scalar LOD.
                    load(vec![xy]),
                    load(vec![xy, lod]),
                    // Wrong: a vector LOD, a 16-bit LOD.
                    load(vec![xy, xy]),
                    load(vec![xy, lod16]),
                ],
            );
        });
        assert_errors(
            &sh,
            &[
                "`@image_load`: source `lod` has 2 components, expected 1",
                "`@image_load`: source `lod` is 16-bit, expected 32-bit",
            ],
        );
    }

    #[test]
    fn image_indices_agree_with_declaration() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32");
            let xy = coord2(b);
            let mut other = d.clone();
            other.dim = ImageDim::D1;
            other.arrayed = true;
            other.format = Format::R32Sint;
            b.image_load(&other, r, xy, 1, AluType::new(BaseType::Int, 32));
        });
        assert_errors(
            &sh,
            &[
                "`@image_load`: image_dim=1d does not match the declaration of `@r32` (2d)",
                "`@image_load`: image_array=true does not match the declaration of `@r32` (not arrayed)",
                "`@image_load`: format=r32_sint does not match the declaration of `@r32` (r32_uint)",
            ],
        );
    }

    #[test]
    fn image_coordinates_and_texel_data() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "img2d");
            let (df, rf) = img(sh, "r32f");
            let x = b.imm_u32(0);
            let xyz = b.vec(&[x.into(), x.into(), x.into()]);
            let xy = coord2(b);
            b.image_load(&d, r, xyz, 4, f32t());
            b.image_load(&df, rf, x, 1, f32t());
            let wide = b.load_const(Type::vec32(8), &[0; 8]);
            b.image_store(&d, r, xy, wide, f32t());
            let h = b.load_const(Type::new(16, 4).unwrap(), &[0; 4]);
            b.image_store(&d, r, xy, h, AluType::new(BaseType::Float, 0));
            let v4 = b.load_const(Type::vec32(4), &[0; 4]);
            b.image_store(&d, r, xy, v4, u32t());
            b.image_store(&d, r, xy, v4, AluType::new(BaseType::Float, 16));
        });
        assert_errors(
            &sh,
            &[
                "`@image_load`: the coordinate has 3 components, expected 2 for a 2d image",
                "`@image_load`: the coordinate has 1 component, expected 2 for a 1d array image",
                "`@image_store`: the data has 8 components, expected 1 to 4",
                "`@image_store`: the data is 16-bit, expected 32-bit for format rgba8_unorm",
                "`@image_store`: src_type=uint32 does not match format rgba8_unorm, which holds float data",
                "`@image_store`: src_type=float16 does not match the 32-bit data",
            ],
        );
    }

    #[test]
    fn image_atomics() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32");
            let (df, rf) = img(sh, "r32f");
            let (d64, r64) = img(sh, "r64");
            let xy = coord2(b);
            let one = b.imm_u32(1);
            let f = b.imm_f32(1.0);
            let big = b.imm_u64(1);
            let xyz = b.vec(&[one.into(), one.into(), one.into()]);
            b.image_atomic(&d, r, AtomicOp::Cmpxchg, xy, one);
            b.image_atomic_swap(&d, r, AtomicOp::Iadd, xy, one, one);
            b.image_atomic(&d, r, AtomicOp::Fadd, xy, f);
            b.image_atomic(&df, rf, AtomicOp::Imin, xy, f);
            b.image_atomic(&d64, r64, AtomicOp::Iadd, xyz, one);
            b.image_atomic(&d, r, AtomicOp::Iadd, xy, big);
        });
        assert_errors(
            &sh,
            &[
                "`@image_atomic`: atomic_op=cmpxchg compares and swaps; it needs `@image_atomic_swap`",
                "`@image_atomic_swap` takes atomic_op=cmpxchg or fcmpxchg, found iadd",
                "`@image_atomic`: atomic_op=fadd needs a float format, but `@r32` is r32_uint (integer data)",
                "`@image_atomic`: atomic_op=imin needs an integer format, but `@r32f` is r32_float (float data)",
                "`@image_atomic`: the atomic data is 32-bit, expected 64-bit for format r64_uint",
                "`@image_atomic`: the destination is 32, expected 64 (the old texel value)",
                "`@image_atomic`: the atomic data is 64-bit, expected 32-bit for format r32_uint",
                "`@image_atomic`: the destination is 64, expected 32 (the old texel value)",
            ],
        );
    }

    #[test]
    fn image_size_and_params() {
        let sh = shader(|b, sh| {
            let (d, r) = img(sh, "r32f");
            let idx = image_indices(&d);
            let x: Src = b.imm_u32(0).into();
            let store = access_indices(&d, f32t().to_index());
            let minus_one = [-1i32 as u32];
            use IntrinsicOp::{
                ImageLoadParam, ImageSamples, ImageSize, ImageStore, LoadWorkgroupId,
            };
            emit(
                b,
                &[
                    (ImageSize, Some(r), vec![], &idx, Some(Type::vec32(1))),
                    (ImageLoadParam, Some(r), vec![], &[32], Some(Type::vec32(4))),
                    (
                        ImageLoadParam,
                        Some(r),
                        vec![],
                        &minus_one,
                        Some(Type::vec32(2)),
                    ),
                    (ImageLoadParam, Some(r), vec![], &[0], Some(Type::U64)),
                    (ImageSamples, Some(r), vec![], &idx[..2], Some(Type::U64)),
                    (LoadWorkgroupId, None, vec![], &[], Some(Type::vec32(2))),
                    (LoadWorkgroupId, None, vec![], &[], None),
                    (ImageStore, Some(r), vec![x, x], &store, Some(Type::U32)),
                ],
            );
        });
        assert_errors(
            &sh,
            &[
                "`@image_size`: the destination is 32, expected 32x2 for a 1d array image",
                "`@image_load_param`: base 32 is out of range; the image parameter block has 32 slots (0..32)",
                "`@image_load_param`: base -1 is out of range; the image parameter block has 32 slots (0..32)",
                "`@image_load_param`: the destination is 64, expected 1 to 4 32-bit components",
                "`@image_samples`: the destination is 64, expected 32",
                "`@load_workgroup_id`: the destination is 32x2, expected 32x3",
                "`@load_workgroup_id` must define a value",
                "`@image_store` does not produce a value",
                "`@image_store`: the coordinate has 1 component, expected 2 for a 1d array image",
            ],
        );
    }

    fn lsc(sfid: Sfid, addr: AddrType, asz: AddrSize, shape: DataShape) -> Vec<u32> {
        vec![
            sfid as u32,
            addr as u32,
            asz as u32,
            shape.to_index(),
            CacheControl::DEFAULT.to_index(),
            0,
        ]
    }

    #[test]
    fn lsc_messages_valid() {
        let sh = shader(|b, sh| {
            let (_, r) = img(sh, "r32");
            let a64 = b.imm_u64(0);
            let a32 = b.imm_u32(0);
            let d4 = DataShape::vector(DataSize::D32, 4, false);
            let ind = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d4);
            let v = b
                .intrinsic(
                    IntrinsicOp::LscLoad,
                    None,
                    &[a64.into()],
                    &ind,
                    Some(Type::vec32(4)),
                )
                .unwrap();
            b.intrinsic(
                IntrinsicOp::LscStore,
                None,
                &[a64.into(), v.into()],
                &ind,
                None,
            );
            let p = b.imm_bool(true);
            let ind = lsc(
                Sfid::Ugm,
                AddrType::Bti,
                AddrSize::A32,
                DataShape::vector(DataSize::D8U32, 1, false),
            );
            b.intrinsic(
                IntrinsicOp::LscLoad,
                Some(r),
                &[a32.into(), p.into()],
                &ind,
                Some(Type::U32),
            );
            let q = DataShape::quad(DataSize::D32, 0b1011);
            let ind = lsc(Sfid::Tgm, AddrType::Bti, AddrSize::A32, q);
            let c = [a32.into(), a32.into(), a32.into(), a32.into()];
            let t = b
                .intrinsic(
                    IntrinsicOp::LscLoadQuad,
                    Some(r),
                    &c,
                    &ind,
                    Some(Type::vec32(3)),
                )
                .unwrap();
            let mut s = c.to_vec();
            s.push(t.into());
            b.intrinsic(IntrinsicOp::LscStoreQuad, Some(r), &s, &ind, None);
            let mut ind = lsc(
                Sfid::Tgm,
                AddrType::Bti,
                AddrSize::A32,
                DataShape::vector(DataSize::D32, 1, false),
            );
            ind.push(crate::lsc::LscAtomicOp::Icas.opcode());
            let mut s = c.to_vec();
            s.push(a32.into());
            s.push(a32.into());
            b.intrinsic(IntrinsicOp::LscAtomic, Some(r), &s, &ind, Some(Type::U32));
            let chans = IndexKind::Channels.parse_value("rga").unwrap();
            b.intrinsic(
                IntrinsicOp::SamplerLdLz,
                Some(r),
                &[a32.into(), a32.into(), a32.into()],
                &[chans, f32t().to_index()],
                Some(Type::vec32(3)),
            );
        });
        assert_errors(&sh, &[]);
    }

    #[test]
    fn lsc_message_errors() {
        let sh = shader(|b, sh| {
            let (_, r) = img(sh, "r32");
            let a64: Src = b.imm_u64(0).into();
            let a32: Src = b.imm_u32(0).into();
            let p: Src = b.imm_u32(1).into();
            let v64: Src = b.load_const(Type::new(64, 4).unwrap(), &[0; 4]).into();
            let d4 = DataShape::vector(DataSize::D32, 4, false);
            let flat = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d4);
            let bti = lsc(Sfid::Ugm, AddrType::Bti, AddrSize::A32, d4);
            let d32x32t = DataShape::vector(DataSize::D32, 32, true);
            let t = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d32x32t);
            let d32 = DataShape::vector(DataSize::D32, 1, false);
            let mut at = lsc(Sfid::Ugm, AddrType::Flat, AddrSize::A64, d32);
            at.push(crate::lsc::LscAtomicOp::Iadd.opcode());
            let rgba = IndexKind::Channels.parse_value("rgba").unwrap();
            let sampler = [rgba, f32t().to_index()];
            let v4 = Some(Type::vec32(4));
            use IntrinsicOp::{LscAtomic, LscLoad, LscLoadQuad, LscStore, SamplerLd};
            emit(
                b,
                &[
                    (LscLoad, Some(r), vec![a64], &flat, v4),
                    (LscLoad, None, vec![a32], &bti, v4),
                    (LscLoad, None, vec![a32], &flat, Some(Type::vec32(2))),
                    (LscLoadQuad, None, vec![a64], &flat, v4),
                    (LscStore, None, vec![a64, v64], &flat, None),
                    (LscLoad, None, vec![a64], &t, Some(Type::vec32(16))),
                    (LscAtomic, None, vec![a64, a64], &at, Some(Type::U32)),
                    (LscLoad, None, vec![a64, p], &flat, v4),
                    (
                        SamplerLd,
                        Some(r),
                        vec![a32; 4],
                        &sampler,
                        Some(Type::vec32(3)),
                    ),
                ],
            );
        });
        assert_errors(
            &sh,
            &[
                "`@lsc_load` with lsc_addr=flat cannot name an image",
                "`@lsc_load` with lsc_addr=bti needs an image operand (the surface)",
                "`@lsc_load`: the address is 32-bit, expected 64-bit for lsc_addr_size=a64",
                "`@lsc_load`: the destination is 32x2, expected 32x4 for lsc_data=d32x4",
                "`@lsc_load_quad` needs a channel-mask data shape such as d32.xyzw, found lsc_data=d32x4",
                "`@lsc_store`: the data is 64x4, expected 32x4 for lsc_data=d32x4",
                "`@lsc_load`: lsc_data=d32x32t has 32 components per address, which no IR value can hold",
                "`@lsc_atomic`: atomic operand `src1` is 64-bit, expected 32-bit for lsc_data=d32",
                "`@lsc_load`: the predicate must be a 1-bit scalar, found 32",
                "`@sampler_ld`: the destination has 3 components, expected 4 for channels=rgba",
            ],
        );
    }

    #[test]
    fn diagnostics_sorted_by_position() {
        let sh = shader(|b, _| {
            let x = b.imm_u32(1);
            let h = b.imm_int(16, 1);
            let a = b.alu_typed(AluOp::Iadd, &[x.into(), h.into()], Type::U32);
            let c = b.alu_typed(AluOp::Isub, &[x.into(), h.into()], Type::U32);
            let ai = b.func.value_def(a).unwrap();
            let ci = b.func.value_def(c).unwrap();
            b.func.set_inst_span(ai, Span::new(9, 2));
            b.func.set_inst_span(ci, Span::new(4, 7));
            b.alu_typed(AluOp::Imul, &[x.into(), h.into()], Type::U32);
        });
        let d = validate(&sh).unwrap_err();
        let spans: Vec<Span> = d.iter().map(|d| d.span).collect();
        assert_eq!(spans, vec![Span::new(4, 7), Span::new(9, 2), Span::UNKNOWN]);
    }

    /// The validator's messages for the shader `text`, which must parse.
    pub(super) fn text_errors(text: &str) -> Vec<String> {
        errors(&crate::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}")))
    }

    const BLOCK_DECLS: &str = "image @t : 2d r32_uint (binding=0)
image @a : 2d array r8_uint (binding=1)
image @f : 2d rgba32_float (binding=2)
image @n : 2d none (binding=3)
image @v : 3d r16_uint (binding=4)
image @g : 2d rg32_uint (binding=5)
";

    fn block_shader(sg: &str, body: &str) -> String {
        format!(
            "shader compute (local_size=16,1,1{sg})
{BLOCK_DECLS}fn main {{
  block b0:
    64   %0 = load_const (0x0000000100000000)
    32   %1 = load_const (0x0000003f)
    32   %2 = load_const (0x00000000)
    32x2 %3 = vec2 %2, %2
{body}
}}"
        )
    }

    #[test]
    fn block_messages_valid() {
        // Register images: d16 2x16x8nn is 2 x 256 B = 512 B = 16 lanes x 16 x 16 bits;
        // d16 32x8nn (store) 512 B; tgm 64x4 256 B = 16 lanes x 4 x 32 bits; an 8x4
        // block of r32 128 B = 16 lanes x 8 x 8 bits.
        let body = "    16x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x8nn)
    @lsc_store_block2d (%0, %1, %1, %1, %2, %2, %4) (lsc_sfid=ugm, lsc_data=d16, lsc_block=32x8nn)
    32x4 %5 = @lsc_load_block2d (@t, %2, %2) (lsc_sfid=tgm, lsc_data=d32, lsc_block=64x4)
    @lsc_store_block2d (@t, %2, %2, %5) (lsc_sfid=tgm, lsc_data=d32, lsc_block=64x4)
    8x8  %6 = @image_block_load (@t, %3) (block=8x4)
    @image_block_store (@t, %3, %6) (block=8x4)
    64   %7 = @image_block_load (@g, %3) (block=2x8)";
        assert_eq!(
            text_errors(&block_shader(", subgroup_size=16", body)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn block_message_errors() {
        let body = "    16x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x8nn)
    8x8  %5 = @image_block_load (@t, %3) (block=8x4)";
        assert_eq!(
            text_errors(&block_shader("", body)),
            [
                "`@lsc_load_block2d` spreads its data over a subgroup, so the shader must fix `subgroup_size` in its header",
                "`@image_block_load` spreads its data over a subgroup, so the shader must fix `subgroup_size` in its header",
            ]
        );
        let cases = [
            (
                "    32x4 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x8nn)",
                "`@lsc_load_block2d`: the destination is 32x4, which spreads 256 bytes over a subgroup of 16, but the block is 512 bytes",
            ),
            (
                "    16x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=slm, lsc_data=d16, lsc_block=2x16x8nn)",
                "`@lsc_load_block2d`: 2D block messages go to .ugm or .tgm, found lsc_sfid=slm",
            ),
            (
                "    16x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16u32, lsc_block=2x16x8nn)",
                "`@lsc_load_block2d`: lsc_data of a block message is d8, d16, d32 or d64 (transpose and VNNI are in lsc_block), found d16u32",
            ),
            (
                "    16x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=16x8)",
                "`@lsc_load_block2d`: a .ugm block is [BxWxH] with transpose and VNNI flags (`16x8nn`), found lsc_block=16x8",
            ),
            (
                "    32x4 %4 = @lsc_load_block2d (@t, %2, %2) (lsc_sfid=tgm, lsc_data=d32, lsc_block=16x4nn)",
                "`@lsc_load_block2d`: a .tgm block is WxH in bytes (`8x8`), found lsc_block=16x4nn",
            ),
            (
                "    32x4 %4 = @lsc_load_block2d (%2, %2) (lsc_sfid=tgm, lsc_data=d32, lsc_block=64x4)",
                "`@lsc_load_block2d` on .tgm needs an image operand (the surface)",
            ),
            (
                "    32x4 %4 = @lsc_load_block2d (@v, %2, %2) (lsc_sfid=tgm, lsc_data=d32, lsc_block=64x4)",
                "`@lsc_load_block2d` on .tgm addresses a 2D surface, but `@v` is a 3d image",
            ),
            (
                "    16x16 %4 = @lsc_load_block2d (@t, %0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x8nn)",
                "`@lsc_load_block2d` on .ugm is flat (the surface is in the payload) and cannot name an image",
            ),
            (
                "    1x16 %4 = @lsc_load_block2d (%0, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x8nn)",
                "`@lsc_load_block2d`: the destination is 1x16; block data has 8-, 16-, 32- or 64-bit components",
            ),
            (
                "    32 %4 = @lsc_load_block2d (%1, %1, %1, %1, %2, %2) (lsc_sfid=ugm, lsc_data=d8, lsc_block=16x4nn)",
                "`@lsc_load_block2d`: source `base` is 32-bit, expected 64-bit",
            ),
            (
                "    8x8 %4 = @image_block_load (@v, %3) (block=8x4)",
                "`@image_block_load` reads and writes 2D blocks of a non-arrayed 2D image, but `@v` is a 3d image",
            ),
            (
                "    8x8 %4 = @image_block_load (@n, %3) (block=8x4)",
                "`@image_block_load`: `@n` has no format, so its texel size is unknown",
            ),
            (
                "    32x8 %4 = @image_block_load (@f, %3) (block=1x2)",
                "`@image_block_load`: block accesses move texels of 1, 2, 4 or 8 bytes, but rgba32_float texels are 16 bytes",
            ),
            (
                "    @image_block_store (@t, %3, %1) (block=8x4)",
                "`@image_block_store`: the data is 32, which spreads 64 bytes over a subgroup of 16, but the block is 128 bytes",
            ),
        ];
        for (body, want) in cases {
            let errs = text_errors(&block_shader(", subgroup_size=16", body));
            assert!(errs.iter().any(|e| e == want), "{body}\n{errs:#?}");
        }
    }
}

#[cfg(test)]
mod async_copy_tests {
    use super::tests::text_errors;

    /// Validates `body` (instructions after the constants `%c0` = 0, `%c1` = 1,
    /// `%c2` = 2, `%c3` = 3, `%c4` = 4, `%c8` = 8, `%g` a 64-bit address, `%s` a 32-bit
    /// shared offset, `%x` a dynamic 32-bit value) and returns the messages.
    fn check(body: &str) -> Vec<String> {
        let text = format!(
            "shader compute (local_size=8,1,1)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000002)
    32   %3 = load_const (0x00000003)
    32   %4 = load_const (0x00000004)
    32   %5 = load_const (0x00000008)
    64   %6 = load_const (0x0000000100000000)
    32   %7 = load_const (0x00000040)
    32x3 %8 = @load_local_invocation_id
{body}
}}"
        )
        .replace("%c0", "%0")
        .replace("%c1", "%1")
        .replace("%c2", "%2")
        .replace("%c3", "%3")
        .replace("%c4", "%4")
        .replace("%c8", "%5")
        .replace("%g", "%6")
        .replace("%s", "%7")
        .replace("%x", "%8.x");
        text_errors(&text)
    }

    #[test]
    fn well_formed_copies_pass() {
        // Global to shared and back, constant and dynamic shapes, 2D and 3D.
        let ok = [
            "    32 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c1, %c4, %c3, %c2, %c3, %c4, %c0)",
            "    32 %20 = @group_async_copy_2d2d (%g, %x, %s, %x, %x, %x, %x, %x, %x, %x)",
            "    32 %20 = @group_async_copy_3d3d (%s, %c0, %g, %c0, %c1, %c2, %c2, %c3, %c2, %c4, %c3, %c8, %c0)
    @group_wait_events (%20)",
        ];
        for body in ok {
            assert_eq!(check(body), Vec::<String>::new(), "{body}");
        }
    }

    #[test]
    fn pointers_are_one_shared_and_one_global() {
        let name = "`@group_async_copy_2d2d`";
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%g, %c0, %g, %c0, %c4, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{name}: `dst` and `src` are both 64-bit global addresses; a group async copy moves data between shared (Workgroup, a 32-bit offset) and global (CrossWorkgroup, a 64-bit address) memory, so exactly one side is shared")]
        );
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%s, %c0, %s, %c0, %c4, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{name}: `dst` and `src` are both 32-bit shared-memory offsets; a group async copy moves data between shared (Workgroup, a 32-bit offset) and global (CrossWorkgroup, a 64-bit address) memory, so exactly one side is shared")]
        );
        assert_eq!(
            check("    16 %19 = load_const (0x0001)
    32 %20 = @group_async_copy_2d2d (%19, %c0, %g, %c0, %c4, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{name}: `dst` is 16-bit; expected a 64-bit global address or a 32-bit shared-memory offset")]
        );
        // The other operands are 32-bit scalars, the event too.
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%s, %g, %g, %c0, %c4, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{name}: source `dst_offset` is 64-bit, expected 32-bit")]
        );
        assert_eq!(
            check("    @group_wait_events (%g)"),
            ["`@group_wait_events`: source `event` is 64-bit, expected 32-bit"]
        );
        assert_eq!(
            check("    64 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c0, %c4, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{name}: the destination is 64, expected 32")]
        );
    }

    #[test]
    fn constant_shapes_are_checked() {
        let n2 = "`@group_async_copy_2d2d`";
        let n3 = "`@group_async_copy_3d3d`";
        // elem_bytes 3, and 256 (beyond the largest gentype).
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c0, %c3, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{n2}: elem_bytes is 3; expected a power of two from 1 to 128 (the size of an OpenCL C gentype)")]
        );
        assert_eq!(
            check("    32 %19 = load_const (0x00000100)
    32 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c0, %19, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{n2}: elem_bytes is 256; expected a power of two from 1 to 128 (the size of an OpenCL C gentype)")]
        );
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c0, %c0, %c1, %c1, %c1, %c1, %c0)"),
            [format!("{n2}: elem_bytes is 0; expected a power of two from 1 to 128 (the size of an OpenCL C gentype)")]
        );
        // Lines: 4 elements per line, line lengths 3 (src) and 2 (dst).
        assert_eq!(
            check("    32 %20 = @group_async_copy_2d2d (%s, %c0, %g, %c0, %c4, %c4, %c2, %c3, %c2, %c0)"),
            [
                format!("{n2}: src_line_length 3 is smaller than elems_per_line 4: the lines overlap, which the specification leaves undefined"),
                format!("{n2}: dst_line_length 2 is smaller than elems_per_line 4: the lines overlap, which the specification leaves undefined"),
            ]
        );
        // Planes: 2 lines of line length 3 need an area of 6; 4 is too small (src),
        // 8 is enough (dst).
        assert_eq!(
            check("    32 %20 = @group_async_copy_3d3d (%s, %c0, %g, %c0, %c1, %c2, %c2, %c2, %c3, %c4, %c3, %c8, %c0)"),
            [format!("{n3}: src_plane_area 4 is smaller than lines x src_line_length = 2 x 3 = 6: the planes overlap, which the specification leaves undefined")]
        );
        // Dynamic operands are the executor's to check.
        assert_eq!(
            check("    32 %20 = @group_async_copy_3d3d (%s, %c0, %g, %c0, %x, %x, %c2, %c2, %x, %c4, %c3, %x, %c0)"),
            Vec::<String>::new()
        );
    }
}
