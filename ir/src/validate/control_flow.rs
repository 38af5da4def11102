//! NIR's control-flow shape: lists of blocks and `if`/`loop` nodes, parents, jumps.

use super::context::{list_owner_location, node_location, FnCheck};
use super::error::{CfList, CfNodeName, ControlFlowError};
use crate::function::{CfNode, CfParent};
use crate::span::Span;

impl FnCheck<'_> {
    /// Names a node in messages (a block by how the text names it).
    pub(super) fn node_name(&self, node: CfNode) -> CfNodeName {
        match node {
            CfNode::Block(b) => CfNodeName::Block(self.func.block_name(b)),
            CfNode::If(i) => CfNodeName::If(i),
            CfNode::Loop(l) => CfNodeName::Loop(l),
        }
    }

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
    pub(super) fn cf_list(&self, parent: CfParent) -> CfList {
        let owner = match parent {
            CfParent::Root => Span::UNKNOWN,
            _ => self.list_owner_span(parent),
        };
        CfList {
            parent,
            function: self.func.name.clone(),
            owner,
        }
    }

    pub(super) fn check_list(&mut self, parent: CfParent, in_loop: bool) {
        let nodes = self.func.cf_list(parent);
        if nodes.is_empty() {
            let span = self.list_owner_span(parent);
            let list = self.cf_list(parent);
            self.shape_error(
                list_owner_location(parent),
                span,
                ControlFlowError::EmptyList { list },
            );
            return;
        }
        if !matches!(nodes[0], CfNode::Block(_)) {
            let span = self.node_span(nodes[0]);
            let list = self.cf_list(parent);
            self.shape_error(
                node_location(nodes[0]),
                span,
                ControlFlowError::ListStart {
                    list,
                    found: self.node_name(nodes[0]),
                },
            );
        }
        let last = nodes.len() - 1;
        if nodes.len() > 1 && !matches!(nodes[last], CfNode::Block(_)) {
            let span = self.node_span(nodes[last]);
            let list = self.cf_list(parent);
            self.shape_error(
                node_location(nodes[last]),
                span,
                ControlFlowError::ListEnd {
                    list,
                    found: self.node_name(nodes[last]),
                },
            );
        }
        for (pos, &node) in nodes.iter().enumerate() {
            let span = self.node_span(node);
            let location = node_location(node);
            if pos > 0 {
                match (nodes[pos - 1], node) {
                    (CfNode::Block(first), CfNode::Block(second)) => {
                        let list = self.cf_list(parent);
                        self.shape_error(
                            location,
                            span,
                            ControlFlowError::AdjacentBlocks {
                                list,
                                first: self.func.block_name(first),
                                second: self.func.block_name(second),
                            },
                        )
                    }
                    (CfNode::Block(_), _) | (_, CfNode::Block(_)) => {}
                    (prev, _) => {
                        let list = self.cf_list(parent);
                        self.shape_error(
                            location,
                            span,
                            ControlFlowError::AdjacentNodes {
                                list,
                                prev: self.node_name(prev),
                                node: self.node_name(node),
                            },
                        )
                    }
                }
            }
            if !self.enter_node(node, span, parent) {
                continue;
            }
            match node {
                CfNode::Block(block) => {
                    if let Some(jump) = self.func.block(block).jump {
                        let block = self.func.block_name(block);
                        if !in_loop {
                            self.shape_error(
                                location,
                                span,
                                ControlFlowError::JumpOutsideLoop { jump, block },
                            );
                        } else if pos != last {
                            let list = self.cf_list(parent);
                            self.shape_error(
                                location,
                                span,
                                ControlFlowError::JumpNotLast { jump, block, list },
                            );
                        }
                    }
                }
                CfNode::If(i) => {
                    let before = match pos.checked_sub(1).map(|p| nodes[p]) {
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
    pub(super) fn enter_node(&mut self, node: CfNode, span: Span, parent: CfParent) -> bool {
        let location = node_location(node);
        let (index, count) = match node {
            CfNode::Block(b) => (b.index(), self.func.num_block_ids()),
            CfNode::If(i) => (i.index(), self.func.num_if_ids()),
            CfNode::Loop(l) => (l.index(), self.func.num_loop_ids()),
        };
        if index >= count {
            let list = self.cf_list(parent);
            let node = self.node_name(node);
            self.shape_error(location, span, ControlFlowError::MissingNode { list, node });
            return false;
        }
        let seen = match node {
            CfNode::Block(_) => &mut self.seen_blocks,
            CfNode::If(_) => &mut self.seen_ifs,
            CfNode::Loop(_) => &mut self.seen_loops,
        };
        if std::mem::replace(&mut seen[index], true) {
            let node = self.node_name(node);
            self.shape_error(location, span, ControlFlowError::NodeTwice { node });
            return false;
        }
        let recorded = match node {
            CfNode::Block(b) => self.func.block(b).parent,
            CfNode::If(i) => Some(self.func.if_data(i).parent),
            CfNode::Loop(l) => Some(self.func.loop_data(l).parent),
        };
        if recorded != Some(parent) {
            let list = self.cf_list(parent);
            let recorded = recorded.map(|p| self.cf_list(p));
            self.shape_error(
                location,
                span,
                ControlFlowError::WrongParent {
                    node: self.node_name(node),
                    list,
                    recorded,
                },
            );
        }
        true
    }
}
