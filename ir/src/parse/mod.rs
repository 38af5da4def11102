//! The parser of the text format (grammar and examples in `ir/SYNTAX.md`).
//!
//! [`parse_shader`] builds a [`Shader`] that keeps the value and block ids written in the
//! text and records the source position of every function, image declaration, block,
//! `if`, `loop` and instruction, so that the validator and the passes can point at the
//! text. It checks what it needs to build the structure (syntax, names, duplicate
//! definitions, literal ranges, index names and values, phi labels); semantic checks
//! (types, dominance, operand shapes) are the validator's.
//!
//! The parser stops at the first error and never panics: nesting depth and ids are
//! bounded ([`MAX_NESTING`], [`MAX_VALUE_ID`], [`MAX_BLOCK_ID`], the id bounds for the
//! whole shader) so that no input can overflow the stack or allocate unbounded arenas.

mod lexer;

use crate::alu::AluOp;
use crate::diag::Diagnostic;
use crate::entity::{Block, IfId, ImageId, Inst, LoopId, Value};
use crate::function::{
    AluInst, CfNode, CfParent, Cursor, Function, InstKind, IntrinsicInst, Jump, Phi,
};
use crate::image::{Access, Format, ImageDecl, ImageDim, ImageRef, LayoutTiling, StaticLayout};
use crate::intrinsic::{ImageOperand, IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, AddrType, LscAtomicOp, Sfid};
use crate::print::index_default;
use crate::shader::Shader;
use crate::span::Span;
use crate::types::{swizzle_component, Src, Swizzle, Type};
use crate::AtomicOp;
use lexer::{is_word_byte, Lexer};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Value ids must be below this bound (`%16777215` is the largest). Ids index the value
/// arena, so the bound caps what one line of text can make the parser allocate. It holds
/// for the shader as a whole: the value arenas of all its functions together have at most
/// this many entries, so that repeating a short function cannot multiply the allocation.
pub const MAX_VALUE_ID: u32 = 1 << 24;

/// Block ids must be below this bound (`b4194303` is the largest); blocks are larger
/// than values, hence the lower bound. Like [`MAX_VALUE_ID`], a budget for the whole
/// shader.
pub const MAX_BLOCK_ID: u32 = 1 << 22;

/// The deepest nesting of `if` and `loop` the parser accepts.
pub const MAX_NESTING: u32 = 128;

/// Parses a shader from its text form.
///
/// Returns the first error found, as a diagnostic with its line and column (render it
/// with [`Diagnostic::render`] to show the source line and a caret).
pub fn parse_shader(src: &str) -> Result<Shader, Vec<Diagnostic>> {
    Parser::new(src).shader().map_err(|d| vec![d])
}

type PResult<T> = Result<T, Diagnostic>;

fn error(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, message)
}

fn alu_ops() -> &'static HashMap<&'static str, AluOp> {
    static TABLE: OnceLock<HashMap<&'static str, AluOp>> = OnceLock::new();
    TABLE.get_or_init(|| AluOp::ALL.iter().map(|&op| (op.name(), op)).collect())
}

fn intrinsic_ops() -> &'static HashMap<&'static str, IntrinsicOp> {
    static TABLE: OnceLock<HashMap<&'static str, IntrinsicOp>> = OnceLock::new();
    TABLE.get_or_init(|| IntrinsicOp::ALL.iter().map(|&op| (op.name(), op)).collect())
}

/// A block as parsed: its label (`None` when the text omitted it) and its instructions,
/// a range of the function's pending instructions (created, not yet placed).
struct PBlock {
    label: Option<Block>,
    span: Span,
    start: usize,
    end: usize,
    jump: Option<Jump>,
}

/// A control-flow node as parsed. The tree is placed into the function once the whole
/// function is read, because blocks the text omits get ids after every id in the text.
enum PNode {
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
struct FnState {
    func: Function,
    /// Labels written in the text, with their positions.
    labels: HashMap<u32, Span>,
    /// Blocks named by phi sources, checked once every label is known.
    phi_preds: Vec<(Block, Span)>,
    /// Instructions in program order, placed into blocks at the end.
    pending: Vec<Inst>,
    depth: u32,
    loop_depth: u32,
}

struct Parser<'a> {
    lx: Lexer<'a>,
    shader: Shader,
    images: HashMap<&'a str, ImageId>,
    functions: HashMap<&'a str, Span>,
    /// Value-arena entries of the functions parsed so far (see [`MAX_VALUE_ID`]).
    value_ids_used: usize,
    /// Block-arena entries of the functions parsed so far (see [`MAX_BLOCK_ID`]).
    block_ids_used: usize,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Parser<'a> {
        Parser {
            lx: Lexer::new(src),
            shader: Shader::new([1, 1, 1]),
            images: HashMap::new(),
            functions: HashMap::new(),
            value_ids_used: 0,
            block_ids_used: 0,
        }
    }

    // ----- small helpers ------------------------------------------------------------

    /// "expected `what` but found ..." at the current position.
    fn expected(&mut self, what: &str) -> Diagnostic {
        let _ = self.lx.peek();
        let span = self.lx.span();
        error(
            span,
            format!("expected {what} but found {}", self.lx.found()),
        )
    }

    fn expect(&mut self, b: u8, what: &str) -> PResult<()> {
        if self.lx.eat(b) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// The span of the next significant token.
    fn here(&mut self) -> Span {
        let _ = self.lx.peek();
        self.lx.span()
    }

    /// Consumes the keyword `kw` (the caller has seen it with `peek_word`).
    fn keyword(&mut self, kw: &str) {
        self.lx.bump(kw.len());
    }

    /// An instruction or jump must end its line (a `}` may follow on the same line).
    fn end_of_statement(&mut self) -> PResult<()> {
        if self.lx.at_line_break() || self.lx.peek() == Some(b'}') {
            Ok(())
        } else {
            Err(self.expected("the end of the line"))
        }
    }

    /// A name after `@` or `fn`: a word starting with a letter or `_`.
    fn name(&mut self, what: &str) -> PResult<&'a str> {
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
    fn number_u32(&mut self, what: &str) -> PResult<u32> {
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

    // ----- top level ----------------------------------------------------------------

    fn shader(mut self) -> PResult<Shader> {
        let mut first = true;
        while self.lx.peek().is_some() {
            let span = self.here();
            match self.lx.peek_word() {
                "shader" => {
                    if !first {
                        return Err(error(
                            span,
                            "the `shader` line may appear only once, before any `image` or `fn`",
                        ));
                    }
                    self.header()?;
                }
                "image" => self.image_decl()?,
                "fn" => self.function()?,
                _ => return Err(self.expected("`shader`, `image` or `fn`")),
            }
            first = false;
        }
        Ok(self.shader)
    }

    /// `shader compute [(local_size=X,Y,Z[, subgroup_size=N])]`
    fn header(&mut self) -> PResult<()> {
        self.keyword("shader");
        let span = self.here();
        let stage = self.lx.peek_word();
        if stage != "compute" {
            return Err(if stage.is_empty() {
                self.expected("a shader stage (`compute`)")
            } else {
                error(
                    span,
                    format!("unknown shader stage `{stage}` (expected `compute`)"),
                )
            });
        }
        self.lx.bump(stage.len());
        if self.lx.at_line_break() || self.lx.peek() != Some(b'(') {
            return Ok(());
        }
        self.lx.bump(1);
        if self.lx.peek_word() != "local_size" {
            return Err(self.expected("`local_size`"));
        }
        self.keyword("local_size");
        self.expect(b'=', "`=`")?;
        for i in 0..3 {
            if i > 0 {
                self.expect(b',', "`,` and the next workgroup dimension")?;
            }
            let span = self.here();
            let n = self.number_u32("a workgroup size")?;
            if n == 0 {
                return Err(error(span, "a workgroup dimension must be at least 1"));
            }
            self.shader.local_size[i] = n;
        }
        if self.lx.peek() == Some(b',') {
            self.lx.bump(1);
            if self.lx.peek_word() != "subgroup_size" {
                return Err(self.expected("`subgroup_size`"));
            }
            self.keyword("subgroup_size");
            self.expect(b'=', "`=`")?;
            let span = self.here();
            let n = self.number_u32("a subgroup size")?;
            if ![1, 2, 4, 8, 16, 32].contains(&n) {
                return Err(error(
                    span,
                    format!("subgroup size {n} is not one of 1, 2, 4, 8, 16, 32"),
                ));
            }
            self.shader.subgroup_size = Some(n);
        }
        self.expect(b')', "`)` or `, subgroup_size=N`")
    }

    /// `image @name[N] : <dim> [array] <format> <access...> (binding=N[, layout={...}])`
    fn image_decl(&mut self) -> PResult<()> {
        let span = self.here();
        self.keyword("image");
        self.expect(b'@', "an image name (`@name`)")?;
        let name_span = self.lx.span();
        let name = self.name_after_sigil("an image name after `@`")?;
        if let Some(&prev) = self.images.get(name) {
            let first = self.shader.image_spans[prev.index()];
            return Err(error(
                name_span,
                format!("image `@{name}` is declared twice (first at {first})"),
            ));
        }
        let mut count = None;
        if self.lx.eat(b'[') {
            let cspan = self.here();
            let n = self.number_u32("the number of images in the array")?;
            if n == 0 {
                return Err(error(cspan, "an image array must hold at least one image"));
            }
            count = Some(n);
            self.expect(b']', "`]`")?;
        }
        self.expect(b':', "`:` and the image type")?;

        let dspan = self.here();
        let dim_word = self.lx.peek_word();
        let dim = ImageDim::from_name(dim_word).ok_or_else(|| {
            if dim_word.is_empty() {
                self.expected("an image dimension (1d, 2d, 3d, cube, buffer)")
            } else {
                error(
                    dspan,
                    format!(
                        "unknown image dimension `{}` (expected 1d, 2d, 3d, cube or buffer)",
                        shorten(dim_word)
                    ),
                )
            }
        })?;
        self.lx.bump(dim_word.len());
        let arrayed = self.lx.peek_word() == "array";
        if arrayed {
            self.keyword("array");
        }
        let fspan = self.here();
        let fmt_word = self.lx.peek_word();
        let format = Format::from_name(fmt_word).ok_or_else(|| {
            if fmt_word.is_empty() {
                self.expected("an image format such as `rgba8_unorm`")
            } else {
                error(
                    fspan,
                    format!(
                        "unknown image format `{}` (expected a format such as rgba8_unorm or r32_uint, or none)",
                        shorten(fmt_word)
                    ),
                )
            }
        })?;
        self.lx.bump(fmt_word.len());
        let mut access = Access::NONE;
        loop {
            let aspan = self.here();
            let w = self.lx.peek_word();
            if w.is_empty() {
                break;
            }
            let a = Access::from_name(w).ok_or_else(|| {
                error(
                    aspan,
                    format!(
                        "unknown access qualifier `{}` (expected readonly, writeonly, coherent, volatile, restrict or sampled)",
                        shorten(w)
                    ),
                )
            })?;
            if access.contains(a) {
                return Err(error(
                    aspan,
                    format!("access qualifier `{w}` is given twice"),
                ));
            }
            access |= a;
            self.lx.bump(w.len());
        }

        let open = self.here();
        self.expect(b'(', "`(binding=N)`")?;
        let mut binding = None;
        let mut layout = None;
        loop {
            let kspan = self.here();
            let key = self.lx.peek_word();
            match key {
                "binding" | "layout" => {
                    let dup = if key == "binding" {
                        binding.is_some()
                    } else {
                        layout.is_some()
                    };
                    if dup {
                        return Err(error(kspan, format!("`{key}` is given twice")));
                    }
                    self.lx.bump(key.len());
                    self.expect(b'=', "`=`")?;
                    if key == "binding" {
                        binding = Some(self.number_u32("a binding number")?);
                    } else {
                        layout = Some(self.layout()?);
                    }
                }
                "" => return Err(self.expected("`binding` or `layout`")),
                _ => {
                    return Err(error(
                        kspan,
                        format!(
                            "unknown image property `{}` (expected `binding` or `layout`)",
                            shorten(key)
                        ),
                    ))
                }
            }
            if self.lx.eat(b')') {
                break;
            }
            self.expect(b',', "`,` or `)`")?;
        }
        let Some(binding) = binding else {
            return Err(error(
                open,
                format!("missing `binding` in the declaration of image `@{name}`"),
            ));
        };
        let decl = ImageDecl {
            name: name.to_string(),
            dim,
            arrayed,
            format,
            access,
            binding,
            count,
            layout,
        };
        let id = self.shader.add_image_at(decl, span);
        self.images.insert(name, id);
        Ok(())
    }

    /// `{tiling=y, row_pitch=N[, qpitch=N][, swizzle=true|false]}`
    fn layout(&mut self) -> PResult<StaticLayout> {
        let open = self.here();
        self.expect(b'{', "`{` and a layout")?;
        let mut tiling = None;
        let mut row_pitch = None;
        let mut qpitch = None;
        let mut swizzle = None;
        loop {
            let kspan = self.here();
            let key = self.lx.peek_word();
            let seen = match key {
                "tiling" => tiling.is_some(),
                "row_pitch" => row_pitch.is_some(),
                "qpitch" => qpitch.is_some(),
                "swizzle" => swizzle.is_some(),
                "" => return Err(self.expected("a layout property (`tiling`, `row_pitch`, `qpitch`, `swizzle`)")),
                _ => {
                    return Err(error(
                        kspan,
                        format!(
                            "unknown layout property `{}` (expected tiling, row_pitch, qpitch or swizzle)",
                            shorten(key)
                        ),
                    ))
                }
            };
            if seen {
                return Err(error(kspan, format!("`{key}` is given twice")));
            }
            self.lx.bump(key.len());
            self.expect(b'=', "`=`")?;
            match key {
                "tiling" => {
                    let vspan = self.here();
                    let w = self.lx.peek_word();
                    let t = LayoutTiling::from_name(w).ok_or_else(|| {
                        error(
                            vspan,
                            format!(
                                "unknown tiling {} (expected linear, x, y, 4 or 64)",
                                if w.is_empty() {
                                    self.lx.found()
                                } else {
                                    format!("`{}`", shorten(w))
                                }
                            ),
                        )
                    })?;
                    self.lx.bump(w.len());
                    tiling = Some(t);
                }
                "row_pitch" => row_pitch = Some(self.number_u32("a row pitch in bytes")?),
                "qpitch" => qpitch = Some(self.number_u32("a qpitch in rows")?),
                _ => {
                    let w = self.lx.peek_word();
                    let v = match w {
                        "true" => true,
                        "false" => false,
                        _ => return Err(self.expected("`true` or `false`")),
                    };
                    self.lx.bump(w.len());
                    swizzle = Some(v);
                }
            }
            if self.lx.eat(b'}') {
                break;
            }
            self.expect(b',', "`,` or `}`")?;
        }
        let (Some(tiling), Some(row_pitch)) = (tiling, row_pitch) else {
            let missing = if tiling.is_none() {
                "tiling"
            } else {
                "row_pitch"
            };
            return Err(error(open, format!("missing `{missing}` in the layout")));
        };
        Ok(StaticLayout {
            tiling,
            row_pitch,
            qpitch,
            swizzle: swizzle.unwrap_or(false),
        })
    }

    /// A name right after `@` (no blank in between).
    fn name_after_sigil(&mut self, what: &str) -> PResult<&'a str> {
        match self.lx.peek_raw() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => Ok(self.lx.take_while(is_word_byte)),
            _ => Err(self.expected(what)),
        }
    }

    /// `fn name { ... }`
    fn function(&mut self) -> PResult<()> {
        let span = self.here();
        self.keyword("fn");
        let name_span = self.here();
        let name = self.name("a function name")?;
        if let Some(first) = self.functions.get(name) {
            return Err(error(
                name_span,
                format!("function `{name}` is defined twice (first at {first})"),
            ));
        }
        self.functions.insert(name, span);
        let open = self.here();
        self.expect(b'{', "`{`")?;
        let mut st = FnState {
            func: Function::empty(name),
            labels: HashMap::new(),
            phi_preds: Vec::new(),
            pending: Vec::new(),
            depth: 0,
            loop_depth: 0,
        };
        st.func.span = span;
        let list = self.list(&mut st, open)?;
        for &(b, pspan) in &st.phi_preds {
            if !st.labels.contains_key(&b.as_u32()) {
                return Err(error(
                    pspan,
                    format!("phi source names block {b}, which is not defined in fn {name}"),
                ));
            }
        }
        let mut fresh = st.labels.keys().max().map_or(0, |&m| m + 1);
        place_list(&mut st, CfParent::Root, list, span, &mut fresh);
        self.value_ids_used += st.func.num_value_ids();
        self.block_ids_used += st.func.num_block_ids();
        self.shader.functions.push(st.func);
        Ok(())
    }

    // ----- control flow -------------------------------------------------------------

    /// The statements of a list up to and including its closing `}`.
    fn list(&mut self, st: &mut FnState, open: Span) -> PResult<Vec<PNode>> {
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

    fn enter(&mut self, st: &mut FnState, span: Span) -> PResult<()> {
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
    fn label(&mut self, st: &mut FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
        self.keyword("block");
        let (b, lspan) = self.block_label()?;
        self.expect(b':', "`:` after the block label")?;
        if let Some(first) = st.labels.get(&b.as_u32()) {
            return Err(error(
                lspan,
                format!("block {b} is defined twice (first at {first})"),
            ));
        }
        if let Some(PNode::Block(prev)) = list.last() {
            let what = match prev.label {
                Some(p) => format!("block {p}"),
                None => "the instructions before it".to_string(),
            };
            return Err(error(
                span,
                format!(
                    "block {b} directly follows {what}; blocks must be separated by an `if` or a `loop`"
                ),
            ));
        }
        st.labels.insert(b.as_u32(), lspan);
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
    fn if_node(&mut self, st: &mut FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
        self.keyword("if");
        self.enter(st, span)?;
        let cond = self.src(st)?;
        let open = self.here();
        self.expect(b'{', "`{` after the condition")?;
        let id = st.func.create_if(cond, CfParent::Root, span);
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
    fn loop_node(&mut self, st: &mut FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
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
    fn jump(
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

    // ----- instructions -------------------------------------------------------------

    /// `<type> %N = <op> ...` or `@intrinsic ...`
    #[inline(never)]
    fn instruction(&mut self, st: &mut FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
        open_block(st, list, span)?;
        let inst = if self.lx.peek() == Some(b'@') {
            let intr = self.intrinsic(st)?;
            st.func
                .create_inst(InstKind::Intrinsic(Box::new(intr)), None, span)
        } else {
            let ty = self.ty()?;
            let vspan = self.here();
            let v = self.value_id(st)?;
            if let Some(def) = defined_at(&st.func, v) {
                return Err(error(
                    vspan,
                    format!("value {v} is defined twice (first at {def})"),
                ));
            }
            self.expect(b'=', "`=`")?;
            let kind = self.operation(st, ty)?;
            match st.func.create_inst_with_dest(kind, v, ty, span) {
                Some(inst) => inst,
                None => return Err(error(vspan, format!("value {v} is defined twice"))),
            }
        };
        st.pending.push(inst);
        if let Some(PNode::Block(b)) = list.last_mut() {
            b.end = st.pending.len();
        }
        self.end_of_statement()
    }

    /// What follows `=`: an intrinsic, `load_const`, `undef`, `phi` or an ALU op.
    fn operation(&mut self, st: &mut FnState, ty: Type) -> PResult<InstKind> {
        if self.lx.peek() == Some(b'@') {
            return Ok(InstKind::Intrinsic(Box::new(self.intrinsic(st)?)));
        }
        let span = self.here();
        let name = self.lx.peek_word();
        match name {
            "" => Err(self.expected(
                "an operation (an ALU op, `load_const`, `undef`, `phi` or `@intrinsic`)",
            )),
            "load_const" => {
                self.lx.bump(name.len());
                self.load_const(ty)
            }
            "undef" => {
                self.lx.bump(name.len());
                Ok(InstKind::Undef)
            }
            "phi" => {
                self.lx.bump(name.len());
                self.phi(st)
            }
            _ => {
                let Some(&op) = alu_ops().get(name) else {
                    let hint = if intrinsic_ops().contains_key(name) {
                        format!(" (intrinsics are written `@{name}`)")
                    } else {
                        String::new()
                    };
                    return Err(error(
                        span,
                        format!("unknown ALU opcode `{}`{hint}", shorten(name)),
                    ));
                };
                self.lx.bump(name.len());
                let srcs = self.statement_list(|p| p.src(st))?;
                Ok(InstKind::Alu(AluInst { op, srcs }))
            }
        }
    }

    fn at_statement_end(&mut self) -> bool {
        self.lx.at_line_break() || self.lx.peek() == Some(b'}')
    }

    /// Items read by `item`, separated by `,`, up to the end of the statement (none if
    /// it ends at once): the sources of an ALU op or of a phi.
    fn statement_list<A: smallvec::Array>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> PResult<A::Item>,
    ) -> PResult<SmallVec<A>> {
        let mut items = SmallVec::new();
        if !self.at_statement_end() {
            loop {
                items.push(item(self)?);
                if !self.lx.eat(b',') {
                    break;
                }
            }
        }
        Ok(items)
    }

    /// `load_const (c, ...)`
    fn load_const(&mut self, ty: Type) -> PResult<InstKind> {
        self.expect(b'(', "`(` and the constants")?;
        let mut vals = SmallVec::new();
        loop {
            let span = self.here();
            let text = self.lx.literal();
            if text.is_empty() {
                return Err(self.expected("a constant"));
            }
            let v = constant(text, ty.bit_size()).map_err(|m| error(span, m))?;
            vals.push(v);
            if self.lx.eat(b')') {
                break;
            }
            self.expect(b',', "`,` or `)`")?;
        }
        Ok(InstKind::LoadConst(vals))
    }

    /// `phi bN: <src>, ...`
    fn phi(&mut self, st: &mut FnState) -> PResult<InstKind> {
        let srcs = self.statement_list(|p| {
            let (b, span) = p.block_label()?;
            p.expect(b':', "`:` after the predecessor block")?;
            let s = p.src(st)?;
            st.phi_preds.push((b, span));
            Ok((b, s))
        })?;
        Ok(InstKind::Phi(Phi { srcs }))
    }

    /// `@name [(<image>, <src>, ...)] [(<index>=<value>, ...)] [if <src>]`
    fn intrinsic(&mut self, st: &mut FnState) -> PResult<IntrinsicInst> {
        let at = self.here();
        self.lx.bump(1);
        let name = self.name_after_sigil("an intrinsic name after `@`")?;
        let Some(&op) = intrinsic_ops().get(name) else {
            let hint = if alu_ops().contains_key(name) {
                format!(" (`{name}` is an ALU op, written without `@`)")
            } else {
                String::new()
            };
            return Err(error(
                at,
                format!("unknown intrinsic `@{}`{hint}", shorten(name)),
            ));
        };
        let info = op.info();
        let mut image: Option<(ImageRef, Span)> = None;
        let mut srcs: SmallVec<[Src; 4]> = SmallVec::new();
        let mut given: SmallVec<[(IndexKind, u32); 8]> = SmallVec::new();
        let mut indices_read = false;
        // No statement starts with `(`, so a list may also begin on the next line.
        if self.lx.peek() == Some(b'(') {
            self.lx.bump(1);
            match self.lx.peek() {
                Some(b'%') | Some(b'@') | Some(b')') => {
                    self.operands(st, &mut image, &mut srcs)?;
                }
                Some(b) if is_word_byte(b) => {
                    self.indices(op, &mut given)?;
                    indices_read = true;
                }
                _ => {
                    return Err(self.expected("operands (`@image`, `%N`) or indices (`name=value`)"))
                }
            }
            if !indices_read && self.lx.peek() == Some(b'(') {
                self.lx.bump(1);
                self.indices(op, &mut given)?;
            }
        }
        let mut predicate = None;
        if !self.at_statement_end() && self.lx.peek_word() == "if" {
            let ispan = self.here();
            if !info.predicable {
                return Err(error(
                    ispan,
                    format!("@{name} cannot be predicated (`if %p` is for message intrinsics)"),
                ));
            }
            self.keyword("if");
            predicate = Some(self.src(st)?);
        }

        match (info.image, image) {
            (ImageOperand::Required, None) => {
                return Err(error(
                    at,
                    format!("@{name} needs an image operand: `@{name} (@image, ...)`"),
                ))
            }
            (ImageOperand::None, Some((_, ispan))) => {
                return Err(error(ispan, format!("@{name} takes no image operand")))
            }
            _ => {}
        }
        let image = image.map(|(r, _)| r);
        let mut indices = SmallVec::with_capacity(info.indices.len());
        for &kind in info.indices {
            let value = given
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|&(_, v)| v)
                .or_else(|| index_default(&self.shader.images, image, kind));
            match value {
                Some(v) => indices.push(v),
                None => {
                    return Err(error(
                        at,
                        format!("missing index `{}` for @{name}", kind.name()),
                    ))
                }
            }
        }
        if let Some(p) = predicate {
            srcs.push(p);
        }
        Ok(IntrinsicInst {
            op,
            image,
            srcs,
            indices,
        })
    }

    /// The operand list after `(`: an optional image first, then sources, up to `)`.
    fn operands(
        &mut self,
        st: &mut FnState,
        image: &mut Option<(ImageRef, Span)>,
        srcs: &mut SmallVec<[Src; 4]>,
    ) -> PResult<()> {
        if self.lx.eat(b')') {
            return Ok(());
        }
        loop {
            let span = self.here();
            if self.lx.peek() == Some(b'@') {
                if image.is_some() || !srcs.is_empty() {
                    return Err(error(
                        span,
                        "the image operand must come first, and only once",
                    ));
                }
                *image = Some((self.image_ref(st)?, span));
            } else {
                srcs.push(self.src(st)?);
            }
            if self.lx.eat(b')') {
                return Ok(());
            }
            self.expect(b',', "`,` or `)`")?;
        }
    }

    /// `@name` or `@name[<src>]`
    fn image_ref(&mut self, st: &mut FnState) -> PResult<ImageRef> {
        let span = self.here();
        self.lx.bump(1);
        let name = self.name_after_sigil("an image name after `@`")?;
        let Some(&image) = self.images.get(name) else {
            return Err(error(span, format!("unknown image `@{}`", shorten(name))));
        };
        let mut index = None;
        if self.lx.eat(b'[') {
            index = Some(self.src(st)?);
            self.expect(b']', "`]`")?;
        }
        Ok(ImageRef { image, index })
    }

    /// The index list after `(`: `name=value, ...` up to `)`.
    fn indices(
        &mut self,
        op: IntrinsicOp,
        given: &mut SmallVec<[(IndexKind, u32); 8]>,
    ) -> PResult<()> {
        let info = op.info();
        loop {
            let kspan = self.here();
            let key = self.lx.peek_word();
            if key.is_empty() {
                return Err(self.expected("an index (`name=value`)"));
            }
            let Some(kind) = IndexKind::from_name(key) else {
                return Err(error(kspan, format!("unknown index `{}`", shorten(key))));
            };
            if !info.indices.contains(&kind) {
                let msg = if info.indices.is_empty() {
                    format!("@{} takes no indices, but `{key}` is given", op.name())
                } else {
                    let names: Vec<&str> = info.indices.iter().map(|k| k.name()).collect();
                    format!(
                        "@{} has no index `{key}` (its indices are {})",
                        op.name(),
                        names.join(", ")
                    )
                };
                return Err(error(kspan, msg));
            }
            if given.iter().any(|(k, _)| *k == kind) {
                return Err(error(kspan, format!("index `{key}` is given twice")));
            }
            self.lx.bump(key.len());
            self.expect(b'=', "`=` after the index name")?;
            let vspan = self.here();
            let text = self.lx.index_value();
            if text.is_empty() {
                return Err(self.expected(&format!("a value for index `{key}`")));
            }
            let Some(v) = kind.parse_value(text) else {
                return Err(error(
                    vspan,
                    format!(
                        "invalid value `{}` for index `{key}` (expected {})",
                        shorten(text),
                        index_expectation(kind)
                    ),
                ));
            };
            given.push((kind, v));
            if self.lx.eat(b')') {
                return Ok(());
            }
            self.expect(b',', "`,` or `)`")?;
        }
    }

    // ----- operands -----------------------------------------------------------------

    /// `<bits>` or `<bits>x<components>`
    fn ty(&mut self) -> PResult<Type> {
        let span = self.here();
        let w = self.lx.peek_word();
        if !w.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.expected("a type (`32`, `32x4`)"));
        }
        let (bits, comps) = match w.split_once('x') {
            Some((b, c)) => (b, Some(c)),
            None => (w, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(bits) || comps.is_some_and(|c| !all_digits(c)) {
            return Err(error(
                span,
                format!(
                    "malformed type `{}` (expected `<bits>` or `<bits>x<components>`, as `32` or `32x4`)",
                    shorten(w)
                ),
            ));
        }
        let small = |s: &str| s.parse::<u8>().ok();
        let Some(b) = small(bits).filter(|&b| Type::is_valid_bit_size(b)) else {
            return Err(error(
                span,
                format!("bit size {} is not one of 1, 8, 16, 32, 64", shorten(bits)),
            ));
        };
        let n = match comps {
            None => 1,
            Some(c) => match small(c).filter(|&n| Type::is_valid_num_components(n)) {
                Some(n) => n,
                None => {
                    return Err(error(
                        span,
                        format!(
                            "component count {} is not one of 1, 2, 3, 4, 8, 16",
                            shorten(c)
                        ),
                    ))
                }
            },
        };
        self.lx.bump(w.len());
        Ok(Type::new(b, n).expect("bit size and component count were checked"))
    }

    /// `%N`
    fn value_id(&mut self, st: &mut FnState) -> PResult<Value> {
        let span = self.here();
        if self.lx.peek() != Some(b'%')
            || !self.lx.peek_raw_at(1).is_some_and(|b| b.is_ascii_digit())
        {
            return Err(self.expected("a value (`%N`)"));
        }
        self.lx.bump(1);
        let digits = self.lx.take_while(|b| b.is_ascii_digit());
        if self.lx.peek_raw().is_some_and(is_word_byte) {
            let rest = self.lx.take_while(is_word_byte);
            return Err(error(
                span,
                format!("malformed value `%{}{}`", digits, shorten(rest)),
            ));
        }
        let n = id_in_budget(
            span,
            digits,
            "value",
            '%',
            MAX_VALUE_ID,
            self.value_ids_used,
        )?;
        let v = Value::from_u32(n);
        // A use may come before the definition (phis at loop headers), and a value may
        // be used and never defined (the validator reports that): either way its id
        // must index the arena.
        st.func.reserve_value(v);
        Ok(v)
    }

    /// `%N` or `%N.<swizzle>`
    fn src(&mut self, st: &mut FnState) -> PResult<Src> {
        let value = self.value_id(st)?;
        if self.lx.peek_raw() != Some(b'.') || !self.lx.peek_raw_at(1).is_some_and(is_word_byte) {
            return Ok(Src::new(value));
        }
        let span = self.lx.span();
        self.lx.bump(1);
        let letters = self.lx.take_while(is_word_byte);
        let mut comps: SmallVec<[u8; 16]> = SmallVec::new();
        for c in letters.chars() {
            match swizzle_component(c) {
                Some(i) => comps.push(i),
                None => {
                    return Err(error(
                        span,
                        format!(
                            "invalid swizzle `.{}`: `{c}` is not a component (expected letters from `xyzw` or `a` to `p`)",
                            shorten(letters)
                        ),
                    ))
                }
            }
        }
        let Some(swizzle) = Swizzle::new(&comps) else {
            return Err(error(
                span,
                format!(
                    "swizzle `.{}` selects {} components; at most 16 are allowed",
                    shorten(letters),
                    comps.len()
                ),
            ));
        };
        Ok(Src { value, swizzle })
    }

    /// `bN`
    fn block_label(&mut self) -> PResult<(Block, Span)> {
        let span = self.here();
        let w = self.lx.peek_word();
        let digits = match w.strip_prefix('b') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => d,
            _ => return Err(self.expected("a block label (`bN`)")),
        };
        let n = id_in_budget(
            span,
            digits,
            "block",
            'b',
            MAX_BLOCK_ID,
            self.block_ids_used,
        )?;
        self.lx.bump(w.len());
        Ok((Block::from_u32(n), span))
    }
}

/// Where `v` is already defined, if it is.
fn defined_at(func: &Function, v: Value) -> Option<Span> {
    if v.index() >= func.num_value_ids() {
        return None;
    }
    func.value_def(v).map(|i| func.inst_span(i))
}

/// Makes sure the list ends with an open block for the next instruction or jump: the
/// last block of the list, or an unlabelled one the parser adds.
fn open_block(st: &FnState, list: &mut Vec<PNode>, span: Span) -> PResult<()> {
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
fn place_list(st: &mut FnState, parent: CfParent, list: Vec<PNode>, owner: Span, fresh: &mut u32) {
    let mut after_block = false;
    let mut last_span = owner;
    for node in list {
        match node {
            PNode::Block(pb) => {
                place_block(st, parent, pb, fresh);
                after_block = true;
            }
            PNode::If {
                id,
                then_list,
                else_list,
            } => {
                let span = st.func.if_data(id).span;
                if !after_block {
                    place_empty(st, parent, span, fresh);
                }
                st.func.append_cf_node(parent, CfNode::If(id));
                place_list(st, CfParent::Then(id), then_list, span, fresh);
                place_list(st, CfParent::Else(id), else_list, span, fresh);
                after_block = false;
                last_span = span;
            }
            PNode::Loop { id, body } => {
                let span = st.func.loop_data(id).span;
                if !after_block {
                    place_empty(st, parent, span, fresh);
                }
                st.func.append_cf_node(parent, CfNode::Loop(id));
                place_list(st, CfParent::Loop(id), body, span, fresh);
                after_block = false;
                last_span = span;
            }
        }
    }
    if !after_block {
        place_empty(st, parent, last_span, fresh);
    }
}

fn place_empty(st: &mut FnState, parent: CfParent, span: Span, fresh: &mut u32) {
    let pb = PBlock {
        label: None,
        span,
        start: 0,
        end: 0,
        jump: None,
    };
    place_block(st, parent, pb, fresh);
}

fn place_block(st: &mut FnState, parent: CfParent, pb: PBlock, fresh: &mut u32) {
    let b = pb.label.unwrap_or_else(|| {
        let b = Block::from_u32(*fresh);
        *fresh += 1;
        b
    });
    st.func.reserve_block(b);
    let data = st.func.block_mut(b);
    data.span = pb.span;
    data.jump = pb.jump;
    for i in pb.start..pb.end {
        let inst = st.pending[i];
        st.func.insert_inst(inst, Cursor::BlockEnd(b));
    }
    st.func.append_cf_node(parent, CfNode::Block(b));
}

/// A decimal number below `limit`, or `None`.
fn bounded(digits: &str, limit: u32) -> Option<u32> {
    let mut acc: u64 = 0;
    for b in digits.bytes() {
        acc = acc * 10 + (b - b'0') as u64;
        if acc >= limit as u64 {
            return None;
        }
    }
    Some(acc as u32)
}

/// The id `digits` of a value or block (`what`, written `{sigil}N`): it must be below
/// `max` and fit in what the shader-wide budget of `max` ids leaves after the `used`
/// ids of the functions before this one (the ids size arenas, see [`MAX_VALUE_ID`]).
fn id_in_budget(
    span: Span,
    digits: &str,
    what: &str,
    sigil: char,
    max: u32,
    used: usize,
) -> PResult<u32> {
    let Some(n) = bounded(digits, max) else {
        return Err(error(
            span,
            format!(
                "{what} id {sigil}{} is too large ({what} ids must be below {max})",
                shorten(digits)
            ),
        ));
    };
    if used + n as usize >= max as usize {
        return Err(error(
            span,
            format!(
                "{what} id {sigil}{n} is too large: the functions of a shader share a budget of \
                 {max} {what} ids and the functions before this one use {used}"
            ),
        ));
    }
    Ok(n)
}

/// A token cut to a length fit for a message.
fn shorten(s: &str) -> String {
    if s.len() <= 40 {
        s.to_string()
    } else {
        let mut end = 40;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    }
}

/// Converts the spelling of a constant to the bits of a `bits`-bit component.
///
/// Accepted: `true`/`false` (1-bit), hex `0x..`, decimal, negative decimal (two's
/// complement) and, for 16/32/64-bit components, decimal floats with a point or an
/// exponent (`1.0`, `-0.5e3`), rounded to nearest even.
fn constant(text: &str, bits: u8) -> Result<u64, String> {
    let mask = crate::types::bit_mask(bits);
    let too_big = || format!("constant {} does not fit in {bits} bits", shorten(text));
    match text {
        "true" | "false" => {
            return if bits == 1 {
                Ok((text == "true") as u64)
            } else {
                Err(format!(
                    "`{text}` is a 1-bit constant; a {bits}-bit constant needs a number"
                ))
            }
        }
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(malformed_constant(text));
        }
        return match u64::from_str_radix(hex, 16) {
            Ok(v) if v <= mask => Ok(v),
            _ => Err(too_big()),
        };
    }
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        let v: u128 = match body.parse::<u128>() {
            Ok(v) => v,
            Err(_) => return Err(too_big()),
        };
        if neg {
            // Two's complement: -2^(bits-1) is the most negative value that fits.
            if v > 1u128 << (bits - 1) {
                return Err(too_big());
            }
            return Ok((v as u64).wrapping_neg() & mask);
        }
        if v > mask as u128 {
            return Err(too_big());
        }
        return Ok(v as u64);
    }
    if !is_float_spelling(body) {
        return Err(malformed_constant(text));
    }
    let out_of_range = || {
        format!(
            "float constant {} is out of range for {bits}-bit floats",
            shorten(text)
        )
    };
    match bits {
        16 => {
            let x: f64 = text.parse().map_err(|_| malformed_constant(text))?;
            let h = half::f16::from_f64(x);
            if h.is_infinite() {
                return Err(out_of_range());
            }
            Ok(h.to_bits() as u64)
        }
        32 => {
            let x: f32 = text.parse().map_err(|_| malformed_constant(text))?;
            if x.is_infinite() {
                return Err(out_of_range());
            }
            Ok(x.to_bits() as u64)
        }
        64 => {
            let x: f64 = text.parse().map_err(|_| malformed_constant(text))?;
            if x.is_infinite() {
                return Err(out_of_range());
            }
            Ok(x.to_bits())
        }
        _ => Err(format!(
            "float constant {} needs a 16-, 32- or 64-bit type, not {bits}-bit",
            shorten(text)
        )),
    }
}

fn malformed_constant(text: &str) -> String {
    format!(
        "malformed constant `{}` (expected hex `0x..`, a decimal or float number, `true` or `false`)",
        shorten(text)
    )
}

/// `digits [. digits] [e [+-] digits]` with a digit in the mantissa and a point or an
/// exponent (so that plain integers are not floats).
fn is_float_spelling(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mantissa_digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        mantissa_digits += 1;
    }
    let mut point = false;
    if i < b.len() && b[i] == b'.' {
        point = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            mantissa_digits += 1;
        }
    }
    if mantissa_digits == 0 {
        return false;
    }
    let mut exponent = false;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
        exponent = true;
    }
    i == b.len() && (point || exponent)
}

/// What a value of index `kind` looks like, for error messages.
fn index_expectation(kind: IndexKind) -> String {
    fn list<T>(all: &[T], name: impl Fn(&T) -> &'static str) -> String {
        all.iter().map(name).collect::<Vec<_>>().join(", ")
    }
    match kind {
        IndexKind::ImageDim => format!("one of {}", list(&ImageDim::ALL, |d| d.name())),
        IndexKind::ImageArray => "`true` or `false`".into(),
        IndexKind::Format => "an image format such as rgba8_unorm or r32_uint, or none".into(),
        IndexKind::Access => {
            "access qualifiers joined by `|` (readonly, writeonly, coherent, volatile, restrict), or none".into()
        }
        IndexKind::DestType | IndexKind::SrcType => {
            "an ALU type such as float32, uint32, int16 or bool1".into()
        }
        IndexKind::AtomicOp => format!("one of {}", list(&AtomicOp::ALL, |o| o.name())),
        IndexKind::Base | IndexKind::LscOffset => "a signed 32-bit integer".into(),
        IndexKind::Range | IndexKind::AlignMul => "an unsigned 32-bit integer".into(),
        IndexKind::LscSfid => format!("one of {}", list(&Sfid::ALL, |s| s.name())),
        IndexKind::LscAddr => format!("one of {}", list(&AddrType::ALL, |a| a.name())),
        IndexKind::LscAddrSize => format!("one of {}", list(&AddrSize::ALL, |a| a.name())),
        IndexKind::LscData => {
            "a data shape such as d32, d32x4, d32x16t, d8u32 or d32.xyzw".into()
        }
        IndexKind::LscCache => "cache controls `l1.l3` such as df.df or uc.wb".into(),
        IndexKind::LscOp => format!("one of {}", list(&LscAtomicOp::ALL, |o| o.name())),
        IndexKind::Channels => "channels from `rgba` in order, such as rgba or rg".into(),
        IndexKind::LscBlock => {
            "a block shape such as 2x16x32nn (blocks x width x height, transpose, vnni) or 8x8 (typed)".into()
        }
        IndexKind::Block => "a block shape `WxH` in texels and rows, such as 16x8".into(),
    }
}

#[cfg(test)]
mod tests;
