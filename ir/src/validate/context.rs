//! The state the checks of one function share, and the small types their messages use.

use crate::diag::Diagnostic;
use crate::entity::{Block, IfId};
use crate::function::SrcSite;
use crate::function::{Function, IntrinsicInst};
use crate::image::ImageDecl;
use crate::shader::Shader;
use crate::span::Span;
use crate::types::Type;

pub(super) const NONE: u32 = u32::MAX;

/// Where a value is read: by an instruction at a position in a block, or at the end of
/// a block (phi sources, `if` conditions).
#[derive(Copy, Clone)]
pub(super) enum UseAt {
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

pub(super) struct FnCheck<'a> {
    pub(super) shader: &'a Shader,
    pub(super) func: &'a Function,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    pub(super) shape_ok: bool,
    pub(super) seen_blocks: Vec<bool>,
    pub(super) seen_ifs: Vec<bool>,
    pub(super) seen_loops: Vec<bool>,
    /// `if` nodes with the block before them, where their condition is read.
    pub(super) if_uses: Vec<(IfId, Option<Block>)>,
    /// (cfg node, position) of every instruction in the tree.
    pub(super) inst_pos: Vec<(u32, u32)>,
    /// Where the sources being checked are read, to find how the text spelled their
    /// swizzles.
    pub(super) site: Option<SrcSite>,
}

impl<'a> FnCheck<'a> {
    pub(super) fn new(
        shader: &'a Shader,
        func: &'a Function,
        diags: &'a mut Vec<Diagnostic>,
    ) -> Self {
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
            site: None,
        }
    }

    pub(super) fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    pub(super) fn shape_error(&mut self, span: Span, msg: impl Into<String>) {
        self.shape_ok = false;
        self.error(span, msg);
    }
}

pub(super) fn first_at(span: Span) -> String {
    if span.is_known() {
        format!(" (first at {span})")
    } else {
        String::new()
    }
}

pub(super) fn defined_at(span: Span) -> String {
    if span.is_known() {
        format!(" at {span}")
    } else {
        String::new()
    }
}

/// An instruction or keyword named in a message: `` `iadd` ``, `` `@image_load` ``.
pub(super) struct Named(pub(super) &'static str, pub(super) &'static str);

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}{}`", self.1, self.0)
    }
}

/// The user of a phi source in messages.
pub(super) struct PhiSource(pub(super) Block);

impl std::fmt::Display for PhiSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "phi source from {}", self.0)
    }
}

/// What the intrinsic checks share.
pub(super) struct IntrCtx<'a> {
    pub(super) name: &'a Named,
    pub(super) span: Span,
    pub(super) intr: &'a IntrinsicInst,
    pub(super) decl: Option<&'a ImageDecl>,
    pub(super) dest: Option<Type>,
}
