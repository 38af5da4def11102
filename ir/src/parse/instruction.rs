//! Instructions: ALU operations, constants, phis and intrinsics with their image
//! operand and indices.

use super::control_flow::open_block;
use super::lexer::is_word_byte;
use super::literal::{constant, shorten};
use super::parser::{alu_ops, error, intrinsic_ops, FnState, PNode, PResult, Parser};
use crate::entity::Value;
use crate::function::SrcSite;
use crate::function::{AluInst, Function, InstKind, IntrinsicInst, Phi};
use crate::image::{ImageDim, ImageRef};
use crate::intrinsic::{ImageOperand, IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, AddrType, LscAtomicOp, Sfid};
use crate::print::index_default;
use crate::span::Span;
use crate::types::{Src, Type};
use crate::AtomicOp;

use smallvec::SmallVec;

impl<'a> Parser<'a> {
    /// `<type> %N = <op> ...` or `@intrinsic ...`
    #[inline(never)]
    pub(super) fn instruction(
        &mut self,
        st: &mut FnState,
        list: &mut Vec<PNode>,
        span: Span,
    ) -> PResult<()> {
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
                let n = st.values.number(v.as_u32());
                return Err(error(
                    vspan,
                    format!("value %{n} is defined twice (first at {def})"),
                ));
            }
            self.expect(b'=', "`=`")?;
            let kind = self.operation(st, ty)?;
            match st.func.create_inst_with_dest(kind, v, ty, span) {
                Some(inst) => inst,
                None => {
                    let n = st.values.number(v.as_u32());
                    return Err(error(vspan, format!("value %{n} is defined twice")));
                }
            }
        };
        st.record_swizzles(SrcSite::Inst(inst));
        st.pending.push(inst);
        if let Some(PNode::Block(b)) = list.last_mut() {
            b.end = st.pending.len();
        }
        self.end_of_statement()
    }

    /// What follows `=`: an intrinsic, `load_const`, `undef`, `phi` or an ALU op.
    pub(super) fn operation(&mut self, st: &mut FnState, ty: Type) -> PResult<InstKind> {
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
            "exact" => {
                // NIR's `exact` flag, which qualifies an ALU op: `exact fadd %1, %2`.
                self.lx.bump(name.len());
                let next = self.lx.peek_word();
                if !alu_ops().contains_key(next) {
                    return Err(self.expected("an ALU opcode after `exact`"));
                }
                match self.operation(st, ty)? {
                    InstKind::Alu(mut alu) => {
                        alu.exact = true;
                        Ok(InstKind::Alu(alu))
                    }
                    _ => Err(self.expected("an ALU opcode after `exact`")),
                }
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
                Ok(InstKind::Alu(AluInst {
                    op,
                    srcs,
                    exact: false,
                }))
            }
        }
    }

    pub(super) fn at_statement_end(&mut self) -> bool {
        self.lx.at_line_break() || self.lx.peek() == Some(b'}')
    }

    /// Items read by `item`, separated by `,`, up to the end of the statement (none if
    /// it ends at once): the sources of an ALU op or of a phi.
    pub(super) fn statement_list<A: smallvec::Array>(
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
    pub(super) fn load_const(&mut self, ty: Type) -> PResult<InstKind> {
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
    pub(super) fn phi(&mut self, st: &mut FnState) -> PResult<InstKind> {
        let srcs = self.statement_list(|p| {
            let (b, n, span) = p.block_label(st)?;
            p.expect(b':', "`:` after the predecessor block")?;
            let s = p.src(st)?;
            st.phi_preds.push((n, span));
            Ok((b, s))
        })?;
        Ok(InstKind::Phi(Phi { srcs }))
    }

    /// `@name [(<image>, <src>, ...)] [(<index>=<value>, ...)] [if <src>]`
    pub(super) fn intrinsic(&mut self, st: &mut FnState) -> PResult<IntrinsicInst> {
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
                .or_else(|| index_default(&self.shader.images, image, op, kind));
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
    pub(super) fn operands(
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
    pub(super) fn image_ref(&mut self, st: &mut FnState) -> PResult<ImageRef> {
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
    pub(super) fn indices(
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
}

/// Where `v` is already defined, if it is.
pub(super) fn defined_at(func: &Function, v: Value) -> Option<Span> {
    if v.index() >= func.num_value_ids() {
        return None;
    }
    func.value_def(v).map(|i| func.inst_span(i))
}

/// What a value of index `kind` looks like, for error messages.
pub(super) fn index_expectation(kind: IndexKind) -> String {
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
        IndexKind::Sampler => "a sampler index (an unsigned 32-bit integer)".into(),
        IndexKind::TexelOffset => "a texel offset `UxVxR` of integers from -8 to 7, such as 1x-1x0".into(),
        IndexKind::Component => "a channel number from 0 to 3".into(),
        IndexKind::ClusterSize => {
            "a cluster of lanes: 1, 2, 4, 8, 16 or 32, or 0 for the whole subgroup".into()
        }
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
        IndexKind::MemModes => {
            "memory modes joined by `|` (shared, ssbo, global, image), none or all".into()
        }
        IndexKind::ReductionOp => format!(
            "one of {}",
            list(&crate::subgroup::ReductionOp::ALL, |o| o.name())
        ),
        IndexKind::DpAddr
        | IndexKind::DpCmask
        | IndexKind::DpOp
        | IndexKind::DpBits
        | IndexKind::DpBytes => kind
            .dp_field()
            .map(crate::dataport::field_expectation)
            .unwrap_or_default(),
    }
}
