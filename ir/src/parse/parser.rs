//! The parser's state and the small helpers every part of the grammar uses.

use super::ids::Numbering;
use super::lexer::Lexer;
use super::literal::shorten;
use crate::alu::AluOp;
use crate::diag::Diagnostic;
use crate::entity::{Block, IfId, ImageId, Inst, LoopId};
use crate::function::{Function, Jump};
use crate::function::{SrcSite, SwizzleSpelling};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::span::Span;

use std::collections::HashMap;
use std::sync::OnceLock;

pub(super) type PResult<T> = Result<T, Diagnostic>;

pub(super) fn error(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, message)
}

pub(super) fn alu_ops() -> &'static HashMap<&'static str, AluOp> {
    static TABLE: OnceLock<HashMap<&'static str, AluOp>> = OnceLock::new();
    TABLE.get_or_init(|| AluOp::ALL.iter().map(|&op| (op.name(), op)).collect())
}

pub(super) fn intrinsic_ops() -> &'static HashMap<&'static str, IntrinsicOp> {
    static TABLE: OnceLock<HashMap<&'static str, IntrinsicOp>> = OnceLock::new();
    TABLE.get_or_init(|| IntrinsicOp::ALL.iter().map(|&op| (op.name(), op)).collect())
}

/// A block as parsed: its label (`None` when the text omitted it) and its instructions,
/// a range of the function's pending instructions (created, not yet placed).
pub(super) struct PBlock {
    pub(super) label: Option<Block>,
    pub(super) span: Span,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) jump: Option<Jump>,
}

/// A control-flow node as parsed. The tree is placed into the function once the whole
/// function is read, because blocks the text omits get ids after every id in the text.
pub(super) enum PNode {
    Block(PBlock),
    If {
        id: IfId,
        then_list: Vec<PNode>,
        else_list: Vec<PNode>,
    },
    Loop {
        id: LoopId,
        body: Vec<PNode>,
    },
}

/// What the parser tracks while reading one function.
pub(super) struct FnState {
    pub(super) func: Function,
    /// The value ids of the numbers the text writes.
    pub(super) values: Numbering,
    /// The block ids of the numbers the text writes.
    pub(super) blocks: Numbering,
    /// Labels written in the text (by number), with their positions.
    pub(super) labels: HashMap<u32, Span>,
    /// Block numbers named by phi sources, checked once every label is known.
    pub(super) phi_preds: Vec<(u32, Span)>,
    /// Instructions in program order, placed into blocks at the end.
    pub(super) pending: Vec<Inst>,
    pub(super) depth: u32,
    pub(super) loop_depth: u32,
    /// Swizzles of the statement being read, recorded in the function once the
    /// statement's instruction or `if` exists.
    pub(super) swizzles: Vec<SwizzleSpelling>,
}

impl FnState {
    /// Records the swizzles read since the last call as read at `site`.
    pub(super) fn record_swizzles(&mut self, site: SrcSite) {
        for s in self.swizzles.drain(..) {
            self.func.record_swizzle_spelling(site, s);
        }
    }
}

pub(super) struct Parser<'a> {
    pub(super) lx: Lexer<'a>,
    pub(super) shader: Shader,
    pub(super) images: HashMap<&'a str, ImageId>,
    pub(super) functions: HashMap<&'a str, Span>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Parser<'a> {
        Parser {
            lx: Lexer::new(src),
            shader: Shader::new([1, 1, 1]),
            images: HashMap::new(),
            functions: HashMap::new(),
        }
    }

    /// "expected `what` but found ..." at the current position.
    pub(super) fn expected(&mut self, what: &str) -> Diagnostic {
        let _ = self.lx.peek();
        let span = self.lx.span();
        error(
            span,
            format!("expected {what} but found {}", self.lx.found()),
        )
    }

    pub(super) fn expect(&mut self, b: u8, what: &str) -> PResult<()> {
        if self.lx.eat(b) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// The span of the next significant token.
    pub(super) fn here(&mut self) -> Span {
        let _ = self.lx.peek();
        self.lx.span()
    }

    /// Consumes the keyword `kw` (the caller has seen it with `peek_word`).
    pub(super) fn keyword(&mut self, kw: &str) {
        self.lx.bump(kw.len());
    }

    /// An instruction or jump must end its line (a `}` may follow on the same line).
    pub(super) fn end_of_statement(&mut self) -> PResult<()> {
        if self.lx.at_line_break() || self.lx.peek() == Some(b'}') {
            Ok(())
        } else {
            Err(self.expected("the end of the line"))
        }
    }

    /// A name after `@` or `fn`: a word starting with a letter or `_`.
    pub(super) fn name(&mut self, what: &str) -> PResult<&'a str> {
        let w = self.lx.peek_word();
        match w.bytes().next() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
                self.lx.bump(w.len());
                Ok(w)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// An unsigned 32-bit number, decimal or `0x` hex.
    pub(super) fn number_u32(&mut self, what: &str) -> PResult<u32> {
        let span = self.here();
        let w = self.lx.peek_word();
        if !w.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.expected(what));
        }
        let parsed = match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).map_err(|e| *e.kind()),
            None => w.parse::<u64>().map_err(|e| *e.kind()),
        };
        match parsed {
            Ok(v) if v <= u32::MAX as u64 => {
                self.lx.bump(w.len());
                Ok(v as u32)
            }
            Err(std::num::IntErrorKind::InvalidDigit) | Err(std::num::IntErrorKind::Empty) => {
                Err(self.expected(what))
            }
            _ => Err(error(
                span,
                format!("number {} does not fit in 32 bits", shorten(w)),
            )),
        }
    }
}
