//! Structural equality of functions.

use super::body::Function;
use super::tree::CfNode;
use crate::entity::Block;

impl PartialEq for Function {
    /// Structural equality: the same name, tree, block ids and, block by block, the same
    /// instructions defining the same value ids with the same types. Spans, instruction
    /// ids and dead entries of the arenas are ignored, so a function equals the result of
    /// printing and re-parsing it.
    fn eq(&self, other: &Function) -> bool {
        self.name == other.name && self.lists_eq(&self.body, other, &other.body)
    }
}

impl Eq for Function {}

impl Function {
    pub(super) fn lists_eq(&self, a: &[CfNode], other: &Function, b: &[CfNode]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (*x, *y) {
                (CfNode::Block(p), CfNode::Block(q)) => p == q && self.blocks_eq(p, other, q),
                (CfNode::If(p), CfNode::If(q)) => {
                    let (d, e) = (&self.ifs[p.index()], &other.ifs[q.index()]);
                    d.cond == e.cond
                        && self.lists_eq(&d.then_list, other, &e.then_list)
                        && self.lists_eq(&d.else_list, other, &e.else_list)
                }
                (CfNode::Loop(p), CfNode::Loop(q)) => self.lists_eq(
                    &self.loops[p.index()].body,
                    other,
                    &other.loops[q.index()].body,
                ),
                _ => false,
            })
    }

    pub(super) fn blocks_eq(&self, a: Block, other: &Function, b: Block) -> bool {
        if self.blocks[a.index()].jump != other.blocks[b.index()].jump {
            return false;
        }
        let mut x = self.block_insts(a);
        let mut y = other.block_insts(b);
        loop {
            match (x.next(), y.next()) {
                (None, None) => return true,
                (Some(i), Some(j)) => {
                    let (d, e) = (self.inst(i), other.inst(j));
                    if d.kind != e.kind || d.dest != e.dest {
                        return false;
                    }
                    if let Some(v) = d.dest {
                        if self.value_type(v) != other.value_type(v) {
                            return false;
                        }
                    }
                }
                _ => return false,
            }
        }
    }
}
