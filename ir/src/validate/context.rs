//! The state the checks of one function share, and how they report.

use super::error::{ImageName, Location, ValidationError, ValidationErrorKind};
use crate::entity::{Block, IfId, ImageId};
use crate::function::{CfNode, CfParent, SrcSite};
use crate::function::{Function, IntrinsicInst};
use crate::image::ImageDecl;
use crate::intrinsic::IntrinsicOp;
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
    pub(super) errors: &'a mut Vec<ValidationError>,
    pub(super) shape_ok: bool,
    pub(super) seen_blocks: Vec<bool>,
    pub(super) seen_ifs: Vec<bool>,
    pub(super) seen_loops: Vec<bool>,
    /// `if` nodes with the block before them, where their condition is read.
    pub(super) if_uses: Vec<(IfId, Option<Block>)>,
    /// (cfg node, position) of every instruction in the tree.
    pub(super) inst_pos: Vec<(u32, u32)>,
    /// What is being checked: the instruction or `if` whose sources are read (also to
    /// find how the text spelled their swizzles), `None` for the function as a whole.
    pub(super) site: Option<SrcSite>,
}

impl<'a> FnCheck<'a> {
    pub(super) fn new(
        shader: &'a Shader,
        func: &'a Function,
        errors: &'a mut Vec<ValidationError>,
    ) -> Self {
        FnCheck {
            shader,
            func,
            errors,
            shape_ok: true,
            seen_blocks: vec![false; func.num_block_ids()],
            seen_ifs: vec![false; func.num_if_ids()],
            seen_loops: vec![false; func.num_loop_ids()],
            if_uses: Vec::new(),
            inst_pos: vec![(NONE, 0); func.num_inst_ids()],
            site: None,
        }
    }

    /// Reports `kind` at `span`, about what is being checked (the current site).
    pub(super) fn error(&mut self, span: Span, kind: impl Into<ValidationErrorKind>) {
        let location = match self.site {
            Some(SrcSite::Inst(i)) => Location::Inst(i),
            Some(SrcSite::If(i)) => Location::If(i),
            None => Location::Function,
        };
        self.error_at(location, span, kind);
    }

    /// Reports `kind` at `span`, about `location`.
    pub(super) fn error_at(
        &mut self,
        location: Location,
        span: Span,
        kind: impl Into<ValidationErrorKind>,
    ) {
        self.errors.push(ValidationError::new(
            span,
            Some(self.func.name.clone()),
            location,
            kind,
        ));
    }

    /// Reports a problem with the tree's shape, about `location`: the checks that rely
    /// on the control-flow graph are skipped.
    pub(super) fn shape_error(
        &mut self,
        location: Location,
        span: Span,
        kind: impl Into<ValidationErrorKind>,
    ) {
        self.shape_ok = false;
        self.error_at(location, span, kind);
    }
}

/// A node of the tree as a location.
pub(super) fn node_location(node: CfNode) -> Location {
    match node {
        CfNode::Block(b) => Location::Block(b),
        CfNode::If(i) => Location::If(i),
        CfNode::Loop(l) => Location::Loop(l),
    }
}

/// The owner of a list as a location: the function, the `if` or the `loop`.
pub(super) fn list_owner_location(parent: CfParent) -> Location {
    match parent {
        CfParent::Root => Location::Function,
        CfParent::Then(i) | CfParent::Else(i) => Location::If(i),
        CfParent::Loop(l) => Location::Loop(l),
    }
}

/// An image declaration as errors name it.
pub(super) fn image_name(id: ImageId, decl: &ImageDecl) -> ImageName {
    ImageName {
        id,
        name: decl.name.clone(),
    }
}

/// What the intrinsic checks share.
pub(super) struct IntrCtx<'a> {
    pub(super) op: IntrinsicOp,
    pub(super) span: Span,
    pub(super) intr: &'a IntrinsicInst,
    /// The image operand's declaration, when it names a declared image.
    pub(super) decl: Option<&'a ImageDecl>,
    /// The declared image `decl` is (set together with it).
    pub(super) image: Option<ImageId>,
    pub(super) dest: Option<Type>,
}
