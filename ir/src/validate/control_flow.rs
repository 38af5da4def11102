//! NIR's control-flow shape: lists of blocks and `if`/`loop` nodes, parents, jumps.

use super::context::FnCheck;
use crate::function::{CfNode, CfParent};
use crate::span::Span;

impl FnCheck<'_> {
    pub(super) fn node_span(&self, node: CfNode) -> Span {
        match node {
            CfNode::Block(b) if b.index() < self.func.num_block_ids() => self.func.block(b).span,
            CfNode::If(i) if i.index() < self.func.num_if_ids() => self.func.if_data(i).span,
            CfNode::Loop(l) if l.index() < self.func.num_loop_ids() => self.func.loop_data(l).span,
            _ => Span::UNKNOWN,
        }
    }

    pub(super) fn list_owner_span(&self, parent: CfParent) -> Span {
        match parent {
            CfParent::Root => self.func.span,
            CfParent::Then(i) | CfParent::Else(i) => self.node_span(CfNode::If(i)),
            CfParent::Loop(l) => self.node_span(CfNode::Loop(l)),
        }
    }

    /// Names a list in messages. Tolerates ids outside the arenas (a block may record
    /// a parent that does not exist).
    pub(super) fn describe_list(&self, parent: CfParent) -> String {
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

    pub(super) fn node_kind(node: CfNode) -> String {
        match node {
            CfNode::Block(b) => format!("block {b}"),
            CfNode::If(_) => "an `if`".to_string(),
            CfNode::Loop(_) => "a `loop`".to_string(),
        }
    }

    pub(super) fn check_list(&mut self, parent: CfParent, in_loop: bool) {
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
    pub(super) fn enter_node(
        &mut self,
        node: CfNode,
        span: Span,
        parent: CfParent,
        desc: &str,
    ) -> bool {
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
}
