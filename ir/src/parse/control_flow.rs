//! Control flow: lists, labels, `if`, `loop` and jumps, and placing the parsed tree
//! into the function.

use super::limits::MAX_NESTING;
use super::parser::{error, FnState, PBlock, PNode, PResult, Parser};
use crate::entity::Block;
use crate::function::SrcSite;
use crate::function::{CfNode, CfParent, Cursor, Jump};
use crate::span::Span;

impl<'a> Parser<'a> {
    /// The statements of a list up to and including its closing `}`.
    pub(super) fn list(&mut self, st: &mut FnState, open: Span) -> PResult<Vec<PNode>> {
        let mut list = Vec::new();
        loop {
            let Some(b) = self.lx.peek() else {
                return Err(error(
                    self.lx.span(),
                    format!("expected `}}` to close the `{{` at {open} but found end of input"),
                ));
            };
            let span = self.lx.span();
            match b {
                b'}' => {
                    self.lx.bump(1);
                    return Ok(list);
                }
                b'@' | b'0'..=b'9' => self.instruction(st, &mut list, span)?,
                b'%' => {
                    return Err(error(
                        span,
                        format!(
                            "expected a type before {} (instructions are written `<type> %N = ...`)",
                            self.lx.found()
                        ),
                    ))
                }
                _ => match self.lx.peek_word() {
                    "block" => self.label(st, &mut list, span)?,
                    "if" => self.if_node(st, &mut list, span)?,
                    "loop" => self.loop_node(st, &mut list, span)?,
                    "break" => self.jump(st, &mut list, span, Jump::Break)?,
                    "continue" => self.jump(st, &mut list, span, Jump::Continue)?,
                    _ => {
                        return Err(self.expected(
                            "an instruction (`<type> %N = ...` or `@intrinsic`), `block`, `if`, `loop`, `break`, `continue` or `}`",
                        ))
                    }
                },
            }
        }
    }

    pub(super) fn enter(&mut self, st: &mut FnState, span: Span) -> PResult<()> {
        st.depth += 1;
        if st.depth > MAX_NESTING {
            return Err(error(
                span,
                format!("control flow is nested more than {MAX_NESTING} levels deep"),
            ));
        }
        Ok(())
    }

    /// `block bN:`
    pub(super) fn label(
        &mut self,
        st: &mut FnState,
        list: &mut Vec<PNode>,
        span: Span,
    ) -> PResult<()> {
        self.keyword("block");
        let (b, n, lspan) = self.block_label(st)?;
        self.expect(b':', "`:` after the block label")?;
        if let Some(first) = st.labels.get(&n) {
            return Err(error(
                lspan,
                format!("block b{n} is defined twice (first at {first})"),
            ));
        }
        if let Some(PNode::Block(prev)) = list.last() {
            let what = match prev.label {
                Some(p) => format!("block b{}", st.blocks.number(p.as_u32())),
                None => "the instructions before it".to_string(),
            };
            return Err(error(
                span,
                format!(
                    "block b{n} directly follows {what}; blocks must be separated by an `if` or a `loop`"
                ),
            ));
        }
        st.labels.insert(n, lspan);
        let at = st.pending.len();
        list.push(PNode::Block(PBlock {
            label: Some(b),
            span,
            start: at,
            end: at,
            jump: None,
        }));
        Ok(())
    }

    /// `if <src> { ... } [else { ... }]`
    pub(super) fn if_node(
        &mut self,
        st: &mut FnState,
        list: &mut Vec<PNode>,
        span: Span,
    ) -> PResult<()> {
        self.keyword("if");
        self.enter(st, span)?;
        let cond = self.src(st)?;
        let open = self.here();
        self.expect(b'{', "`{` after the condition")?;
        let id = st.func.create_if(cond, CfParent::Root, span);
        st.record_swizzles(SrcSite::If(id));
        let then_list = self.list(st, open)?;
        let mut else_list = Vec::new();
        if self.lx.peek_word() == "else" {
            self.keyword("else");
            let open = self.here();
            self.expect(b'{', "`{` after `else`")?;
            else_list = self.list(st, open)?;
        }
        st.depth -= 1;
        list.push(PNode::If {
            id,
            then_list,
            else_list,
        });
        Ok(())
    }

    /// `loop { ... }`
    pub(super) fn loop_node(
        &mut self,
        st: &mut FnState,
        list: &mut Vec<PNode>,
        span: Span,
    ) -> PResult<()> {
        self.keyword("loop");
        self.enter(st, span)?;
        let open = self.here();
        self.expect(b'{', "`{` after `loop`")?;
        let id = st.func.create_loop(CfParent::Root, span);
        st.loop_depth += 1;
        let body = self.list(st, open)?;
        st.loop_depth -= 1;
        st.depth -= 1;
        list.push(PNode::Loop { id, body });
        Ok(())
    }

    /// `break` / `continue`
    pub(super) fn jump(
        &mut self,
        st: &mut FnState,
        list: &mut Vec<PNode>,
        span: Span,
        jump: Jump,
    ) -> PResult<()> {
        self.keyword(jump.name());
        if st.loop_depth == 0 {
            return Err(error(
                span,
                format!("`{}` is only allowed inside a `loop`", jump.name()),
            ));
        }
        open_block(st, list, span)?;
        if let Some(PNode::Block(b)) = list.last_mut() {
            b.jump = Some(jump);
        }
        self.end_of_statement()
    }
}

/// Makes sure the list ends with an open block for the next instruction or jump: the
/// last block of the list, or an unlabelled one the parser adds.
pub(super) fn open_block(st: &FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
    match list.last() {
        Some(PNode::Block(b)) if b.jump.is_some() => {
            let jump = b.jump.map_or("", |j| j.name());
            Err(error(
                span,
                format!(
                    "`{jump}` must be the last line of its block; start a new block (`block bN:`) or close the list with `}}`"
                ),
            ))
        }
        Some(PNode::Block(_)) => Ok(()),
        _ => {
            let at = st.pending.len();
            list.push(PNode::Block(PBlock {
                label: None,
                span,
                start: at,
                end: at,
                jump: None,
            }));
            Ok(())
        }
    }
}

/// Places a parsed list into the function under `parent`, adding the empty blocks NIR's
/// shape needs where the text left them out (`owner` is the span they get when nothing
/// closer exists).
pub(super) fn place_list(st: &mut FnState, parent: CfParent, list: Vec<PNode>, owner: Span) {
    let mut after_block = false;
    let mut last_span = owner;
    for node in list {
        match node {
            PNode::Block(pb) => {
                place_block(st, parent, pb);
                after_block = true;
            }
            PNode::If {
                id,
                then_list,
                else_list,
            } => {
                let span = st.func.if_data(id).span;
                if !after_block {
                    place_empty(st, parent, span);
                }
                st.func.append_cf_node(parent, CfNode::If(id));
                place_list(st, CfParent::Then(id), then_list, span);
                place_list(st, CfParent::Else(id), else_list, span);
                after_block = false;
                last_span = span;
            }
            PNode::Loop { id, body } => {
                let span = st.func.loop_data(id).span;
                if !after_block {
                    place_empty(st, parent, span);
                }
                st.func.append_cf_node(parent, CfNode::Loop(id));
                place_list(st, CfParent::Loop(id), body, span);
                after_block = false;
                last_span = span;
            }
        }
    }
    if !after_block {
        place_empty(st, parent, last_span);
    }
}

pub(super) fn place_empty(st: &mut FnState, parent: CfParent, span: Span) {
    let pb = PBlock {
        label: None,
        span,
        start: 0,
        end: 0,
        jump: None,
    };
    place_block(st, parent, pb);
}

/// Places a parsed block. A block the text left out gets the next id; it is placed
/// after every block the text names, so its number ([`Function::block_name`]) comes
/// after every label of the function, in program order.
///
/// [`Function::block_name`]: crate::Function::block_name
pub(super) fn place_block(st: &mut FnState, parent: CfParent, pb: PBlock) {
    let b = pb.label.unwrap_or_else(|| {
        let b = Block::from_u32(st.func.num_block_ids() as u32);
        st.func.reserve_block(b);
        b
    });
    let data = st.func.block_mut(b);
    data.span = pb.span;
    data.jump = pb.jump;
    for i in pb.start..pb.end {
        let inst = st.pending[i];
        st.func.insert_inst(inst, Cursor::BlockEnd(b));
    }
    st.func.append_cf_node(parent, CfNode::Block(b));
}
