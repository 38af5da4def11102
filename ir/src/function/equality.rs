//! Structural equality of functions.

use super::body::Function;
use super::inst::{InstData, InstKind};
use super::tree::CfNode;
use crate::entity::{Block, Value};
use crate::types::Src;

impl PartialEq for Function {
    /// Structural equality: the same name, tree, block names and, block by block, the
    /// same instructions defining the same value names with the same types. Values and
    /// blocks are compared by how the text names them ([`Function::value_name`],
    /// [`Function::block_name`]), not by id; spans, instruction ids and dead entries of
    /// the arenas are ignored, so a function equals the result of printing and re-parsing
    /// it (which numbers the ids in the order the text names them).
    fn eq(&self, other: &Function) -> bool {
        self.name == other.name && self.lists_eq(&self.body, other, &other.body)
    }
}

impl Eq for Function {}

impl Function {
    pub(super) fn lists_eq(&self, a: &[CfNode], other: &Function, b: &[CfNode]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (*x, *y) {
                (CfNode::Block(p), CfNode::Block(q)) => {
                    self.block_name(p).number == other.block_name(q).number
                        && self.blocks_eq(p, other, q)
                }
                (CfNode::If(p), CfNode::If(q)) => {
                    let (d, e) = (&self.ifs[p.index()], &other.ifs[q.index()]);
                    self.named_src(d.cond) == other.named_src(e.cond)
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
        let by_id = self.names_are_ids() && other.names_are_ids();
        let mut x = self.block_insts(a);
        let mut y = other.block_insts(b);
        loop {
            match (x.next(), y.next()) {
                (None, None) => return true,
                (Some(i), Some(j)) => {
                    let (d, e) = (self.inst(i), other.inst(j));
                    let same = if by_id {
                        d.kind == e.kind
                    } else {
                        self.named_kind(d) == other.named_kind(e)
                    };
                    if !same {
                        return false;
                    }
                    match (d.dest, e.dest) {
                        (None, None) => {}
                        (Some(v), Some(w)) => {
                            if self.value_name(v).number != other.value_name(w).number
                                || self.value_type(v) != other.value_type(w)
                            {
                                return false;
                            }
                        }
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
    }

    /// `src` with its value id replaced by the value's number.
    fn named_src(&self, src: Src) -> Src {
        Src {
            value: Value::from_u32(self.value_name(src.value).number),
            swizzle: src.swizzle,
        }
    }

    /// What `data` does, with every value and block id replaced by its number.
    fn named_kind(&self, data: &InstData) -> InstKind {
        let mut named = InstData {
            kind: data.kind.clone(),
            dest: None,
        };
        named.for_each_src_mut(|s| *s = self.named_src(*s));
        if let InstKind::Phi(p) = &mut named.kind {
            for (b, _) in &mut p.srcs {
                *b = Block::from_u32(self.block_name(*b).number);
            }
        }
        named.kind
    }
}
