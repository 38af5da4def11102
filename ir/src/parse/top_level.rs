//! The top level: the shader header, image declarations and their static layouts,
//! and functions.

use super::control_flow::place_list;
use super::ids::Numbering;
use super::lexer::is_word_byte;
use super::limits::{MAX_BLOCK_ID, MAX_VALUE_ID};
use super::literal::shorten;
use super::parser::{error, FnState, PResult, Parser};
use crate::buffer::{BufferDecl, BufferKind};
use crate::function::{CfParent, Function};
use crate::image::{Access, Format, ImageDecl, ImageDim, LayoutTiling, StaticLayout};
use crate::sampler::SamplerDecl;
use crate::shader::Shader;
use crate::span::Span;

use std::collections::HashMap;

impl<'a> Parser<'a> {
    pub(super) fn shader(mut self) -> PResult<Shader> {
        let mut first = true;
        while self.lx.peek().is_some() {
            let span = self.here();
            match self.lx.peek_word() {
                "shader" => {
                    if !first {
                        return Err(error(
                            span,
                            "the `shader` line may appear only once, before any `image`, `buffer`, `sampler`, `constant_data` or `fn`",
                        ));
                    }
                    self.header()?;
                }
                "image" => self.image_decl()?,
                "buffer" => self.buffer_decl()?,
                "sampler" => self.sampler_decl()?,
                "constant_data" => self.constant_data()?,
                "fn" => self.function()?,
                _ => {
                    return Err(self.expected(
                        "`shader`, `image`, `buffer`, `sampler`, `constant_data` or `fn`",
                    ))
                }
            }
            first = false;
        }
        Ok(self.shader)
    }

    /// `shader compute [(local_size=X,Y,Z[, subgroup_size=N][, scratch_size=N])]`
    pub(super) fn header(&mut self) -> PResult<()> {
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
        self.shader.local_size_span = self.here();
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
        let mut keys = 0u8;
        while self.lx.peek() == Some(b',') {
            self.lx.bump(1);
            let (bit, key) = match self.lx.peek_word() {
                "subgroup_size" => (1u8, "subgroup_size"),
                "scratch_size" => (2, "scratch_size"),
                _ => return Err(self.expected("`subgroup_size` or `scratch_size`")),
            };
            let span = self.here();
            if keys & bit != 0 {
                return Err(error(span, format!("`{key}` is given twice")));
            }
            keys |= bit;
            self.lx.bump(key.len());
            self.expect(b'=', "`=`")?;
            let span = self.here();
            if bit == 1 {
                let n = self.number_u32("a subgroup size")?;
                if ![1, 2, 4, 8, 16, 32].contains(&n) {
                    return Err(error(
                        span,
                        format!("subgroup size {n} is not one of 1, 2, 4, 8, 16, 32"),
                    ));
                }
                self.shader.subgroup_size = Some(n);
            } else {
                let n = self.number_u32("a scratch size in bytes")?;
                if n % 4 != 0 || n > crate::shader::MAX_SCRATCH_SIZE {
                    return Err(error(
                        span,
                        format!(
                            "scratch size {n} is not a multiple of 4 bytes of at most {}",
                            crate::shader::MAX_SCRATCH_SIZE
                        ),
                    ));
                }
                self.shader.scratch_size = n;
            }
        }
        self.expect(b')', "`)`, `, subgroup_size=N` or `, scratch_size=N`")
    }

    /// `image @name[N] : <dim> [array] <format> <access...> (binding=N[, layout={...}])`
    pub(super) fn image_decl(&mut self) -> PResult<()> {
        let (span, name, count) = self.decl_head(DeclKind::Image)?;
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
                        "unknown image format `{}` (expected a format such as rgba8_unorm or r32_uint, or unknown)",
                        shorten(fmt_word)
                    ),
                )
            }
        })?;
        self.lx.bump(fmt_word.len());
        let access = self.access_qualifiers(DeclKind::Image)?;

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

    /// `buffer @name[N] : ssbo|ubo <access...> (block=N, size=N[, stride=N])`
    pub(super) fn buffer_decl(&mut self) -> PResult<()> {
        let (span, name, count) = self.decl_head(DeclKind::Buffer)?;
        self.expect(b':', "`:` and the buffer kind (`ssbo` or `ubo`)")?;
        let kspan = self.here();
        let kind_word = self.lx.peek_word();
        let kind = BufferKind::from_name(kind_word).ok_or_else(|| {
            if kind_word.is_empty() {
                self.expected("a buffer kind (`ssbo` or `ubo`)")
            } else {
                error(
                    kspan,
                    format!(
                        "unknown buffer kind `{}` (expected ssbo or ubo)",
                        shorten(kind_word)
                    ),
                )
            }
        })?;
        self.lx.bump(kind_word.len());
        let access = self.access_qualifiers(DeclKind::Buffer)?;
        let open = self.here();
        self.expect(b'(', "`(block=N, size=N)`")?;
        let (mut block, mut size, mut stride) = (None, None, None);
        loop {
            let pspan = self.here();
            let key = self.lx.peek_word();
            let slot = match key {
                "block" => &mut block,
                "size" => &mut size,
                "stride" => &mut stride,
                "" => return Err(self.expected("`block`, `size` or `stride`")),
                _ => {
                    return Err(error(
                        pspan,
                        format!(
                            "unknown buffer property `{}` (expected block, size or stride)",
                            shorten(key)
                        ),
                    ))
                }
            };
            if slot.is_some() {
                return Err(error(pspan, format!("`{key}` is given twice")));
            }
            self.lx.bump(key.len());
            self.expect(b'=', "`=`")?;
            let what = match key {
                "block" => "a block index",
                "size" => "a size in bytes",
                _ => "a stride in bytes",
            };
            let vspan = self.here();
            let v = self.number_u32(what)?;
            if key == "stride" && v == 0 {
                return Err(error(
                    vspan,
                    "a runtime array's stride must be at least 1 byte",
                ));
            }
            match key {
                "block" => block = Some(v),
                "size" => size = Some(v),
                _ => stride = Some(v),
            }
            if self.lx.eat(b')') {
                break;
            }
            self.expect(b',', "`,` or `)`")?;
        }
        let (Some(block), Some(size)) = (block, size) else {
            let missing = if block.is_none() { "block" } else { "size" };
            return Err(error(
                open,
                format!("missing `{missing}` in the declaration of buffer `@{name}`"),
            ));
        };
        let decl = BufferDecl {
            name: name.to_string(),
            kind,
            access,
            block,
            count,
            size,
            stride,
        };
        self.shader.add_buffer_at(decl, span);
        Ok(())
    }

    /// `sampler @name[N] (binding=N)`
    pub(super) fn sampler_decl(&mut self) -> PResult<()> {
        let (span, name, count) = self.decl_head(DeclKind::Sampler)?;
        self.expect(b'(', "`(binding=N)`")?;
        let kspan = self.here();
        let key = self.lx.peek_word();
        if key != "binding" {
            return Err(if key.is_empty() {
                self.expected("`binding`")
            } else {
                error(
                    kspan,
                    format!(
                        "unknown sampler property `{}` (expected binding)",
                        shorten(key)
                    ),
                )
            });
        }
        self.lx.bump(key.len());
        self.expect(b'=', "`=`")?;
        let vspan = self.here();
        let binding = self.number_u32("a sampler index")?;
        self.expect(b')', "`)`")?;
        let decl = SamplerDecl {
            name: name.to_string(),
            binding,
            count,
        };
        if decl.indices().is_none() {
            return Err(error(
                vspan,
                format!("the indices of sampler `@{name}` pass 4294967295"),
            ));
        }
        self.shader.add_sampler_at(decl, span);
        Ok(())
    }

    /// `{tiling=y, row_pitch=N[, qpitch=N][, swizzle=true|false]}`
    pub(super) fn layout(&mut self) -> PResult<StaticLayout> {
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

    /// The head of a declaration: `<keyword> @name[N]`, with a name no earlier
    /// declaration of its kind holds and a count of at least one. Returns the
    /// declaration's span, its name and its count.
    fn decl_head(&mut self, kind: DeclKind) -> PResult<(Span, &'a str, Option<u32>)> {
        let (keyword, plural) = kind.words();
        let span = self.here();
        self.keyword(keyword);
        self.expect(b'@', &format!("{} name (`@name`)", kind.a()))?;
        let name_span = self.lx.span();
        let name = self.name_after_sigil(&format!("{} name after `@`", kind.a()))?;
        let first = match kind {
            DeclKind::Image => self
                .images
                .get(name)
                .map(|&id| self.shader.image_spans[id.index()]),
            DeclKind::Buffer => self
                .shader
                .buffers
                .iter()
                .position(|b| b.name == name)
                .map(|i| self.shader.buffer_spans[i]),
            DeclKind::Sampler => self
                .shader
                .samplers
                .iter()
                .position(|b| b.name == name)
                .map(|i| self.shader.sampler_spans[i]),
        };
        if let Some(first) = first {
            return Err(error(
                name_span,
                format!("{keyword} `@{name}` is declared twice (first at {first})"),
            ));
        }
        let mut count = None;
        if self.lx.eat(b'[') {
            let cspan = self.here();
            let n = self.number_u32(&format!("the number of {plural} in the array"))?;
            if n == 0 {
                return Err(error(
                    cspan,
                    format!("an array of {plural} must hold at least one"),
                ));
            }
            count = Some(n);
            self.expect(b']', "`]`")?;
        }
        Ok((span, name, count))
    }

    /// The access qualifiers of an image or buffer declaration, each at most once.
    /// `sampled` is an image's alone; `non_uniform` qualifies one access (NIR's
    /// `ACCESS_NON_UNIFORM`), never a declaration.
    fn access_qualifiers(&mut self, kind: DeclKind) -> PResult<Access> {
        let mut access = Access::NONE;
        loop {
            let aspan = self.here();
            let w = self.lx.peek_word();
            if w.is_empty() {
                return Ok(access);
            }
            let a = Access::from_name(w)
                .filter(|&a| kind == DeclKind::Image || a != Access::SAMPLED)
                .ok_or_else(|| {
                    let (what, list) = match kind {
                        DeclKind::Image => (
                            "access qualifier",
                            "readonly, writeonly, coherent, volatile, restrict or sampled",
                        ),
                        _ => (
                            "buffer access qualifier",
                            "readonly, writeonly, coherent, volatile or restrict",
                        ),
                    };
                    error(
                        aspan,
                        format!("unknown {what} `{}` (expected {list})", shorten(w)),
                    )
                })?;
            if access.contains(a) {
                return Err(error(
                    aspan,
                    format!("access qualifier `{w}` is given twice"),
                ));
            }
            if a == Access::NON_UNIFORM {
                return Err(error(
                    aspan,
                    format!(
                        "`non_uniform` qualifies one access, not {}: write it on the \
                         instruction, as `(access=non_uniform)`",
                        kind.a()
                    ),
                ));
            }
            access |= a;
            self.lx.bump(w.len());
        }
    }

    /// A name right after `@` (no blank in between).
    pub(super) fn name_after_sigil(&mut self, what: &str) -> PResult<&'a str> {
        match self.lx.peek_raw() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => Ok(self.lx.take_while(is_word_byte)),
            _ => Err(self.expected(what)),
        }
    }

    /// `fn name { ... }`
    pub(super) fn function(&mut self) -> PResult<()> {
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
            values: Numbering::default(),
            blocks: Numbering::default(),
            labels: HashMap::new(),
            phi_preds: Vec::new(),
            pending: Vec::new(),
            depth: 0,
            loop_depth: 0,
            swizzles: Vec::new(),
        };
        st.func.span = span;
        let list = self.list(&mut st, open)?;
        for &(n, pspan) in &st.phi_preds {
            if !st.labels.contains_key(&n) {
                return Err(error(
                    pspan,
                    format!("phi source names block b{n}, which is not defined in fn {name}"),
                ));
            }
        }
        place_list(&mut st, CfParent::Root, list, span);
        let mut func = st.func;
        func.set_written_names(
            (st.values.into_numbers(), MAX_VALUE_ID),
            (st.blocks.into_numbers(), MAX_BLOCK_ID),
        );
        self.shader.functions.push(func);
        Ok(())
    }
}

/// The declarations that share a head (`<keyword> @name[N]`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum DeclKind {
    Image,
    Buffer,
    Sampler,
}

impl DeclKind {
    /// The keyword and the plural of the declared thing.
    fn words(self) -> (&'static str, &'static str) {
        match self {
            DeclKind::Image => ("image", "images"),
            DeclKind::Buffer => ("buffer", "buffers"),
            DeclKind::Sampler => ("sampler", "samplers"),
        }
    }

    /// The declared thing with its article, as messages name it.
    fn a(self) -> &'static str {
        match self {
            DeclKind::Image => "an image",
            DeclKind::Buffer => "a buffer",
            DeclKind::Sampler => "a sampler",
        }
    }
}
