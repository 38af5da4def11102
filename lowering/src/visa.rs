//! vISA text for the message intrinsics of a shader.
//!
//! [`emit_visa`] prints every function of a shader as a vISA listing: each message
//! intrinsic becomes one vISA instruction, spelled exactly as IGC's vISA printer
//! (`IsaDisassembly.cpp`, `LscInstFormatter` and `printInstructionSampler`) spells it;
//! every instruction, block and control-flow node is also printed as a `//` comment in
//! the IR's text notation (`ir::print`), so the listing reads next to the IR it came
//! from. Each function starts with `.kernel "main"` (`.global_function "name"` for the
//! others), as IGC's `printFunctionDecl`. The listing is not a complete vISA program
//! (there are no `.decl` lines): it shows what the lowering asks of the hardware.
//!
//! # Syntax decisions
//!
//! * Layout (IGC `printInstruction`, `LscInstFormatter::format`): four spaces of indent,
//!   the predicate `(P<n>) ` first, then the mnemonic with `.sfid` and the cache controls
//!   (only when not `.df.df`), one space, the execution size `(M1, N)`, then the operands
//!   separated by two spaces.
//! * Values: an SSA value `%12` is the vISA variable `V12`, a 1-bit predicate `%7` the
//!   predicate variable `P7`. Message payloads are raw operands (IGC `CISA.y`
//!   `LscPayloadReg`, `RawOperandOffsetSuffix`): a source that reads component `c` of a
//!   vector value is printed `V10.<bytes>`, the byte offset of that component. The
//!   register layout of a value is SIMT at the message's execution size `N`: component
//!   `c` of a value with `B`-byte components starts at `c * ceil(N*B / GRF) * GRF`
//!   (lsc.md §11: "one or more GRFs per enabled channel"); the data of transposed
//!   messages is one packed block, component `c` at `c * B`. The offset is printed only
//!   when non-zero, as IGC's `formatRawOperand` does. A data source whose components are
//!   not one ascending run (`%5.xz`, `%5.yx`) is not one register range: the listing
//!   first gathers it with one SIMT `mov` per component into a variable named after the
//!   value and its swizzle (`mov (M1, 16) V5_xz(1,0)<1> V5(2,0)<1;1,0>`, vISA region
//!   syntax `(row,col)<hstride>` and `<vstride;width,hstride>`), as a backend builds a
//!   payload, and the message reads `V5_xz`.
//! * Surfaces (IGC `formatAddrTypeArgs`): `flat` with no parenthesis; `bti(0x<binding>)`
//!   in upper-case hex; an image indexed by `%n` gives `bti(Vn)` when the binding is 0 and
//!   otherwise a preceding `add (M1_NM, 1) Vn_bti<b>(0,0)<1> Vn(0,0)<0;1,0> 0x<b>:ud`
//!   and `bti(Vn_bti<b>)`; a vector register read at a non-zero position prints as
//!   `V10(row,col)` (IGC `LscVectorOpReg`), its temporary as `V10_<row>_<col>_bti<b>`.
//!   `bss`/`ss` surfaces print the variable that holds the image's surface-state offset,
//!   named `SS_<image>` (the IR carries no value for it; the driver supplies it as a
//!   kernel input); an indexed `bss`/`ss` image is an error, since the IR does not carry
//!   the surface-state stride either.
//! * Addresses (IGC `formatUntypedSimple`): `flat[V12]:a64`, `bti(0x4)[V12+0x100]:a32`,
//!   immediate offsets in hex after `+`/`-`; a strided pitch follows a comma and a space,
//!   `flat[V12, 0x100]:a32` for a constant pitch and `flat[V12, V14]:a32` otherwise.
//!   IGC sets `std::uppercase` when it prints an immediate surface and never clears it,
//!   so offsets after `bti(0x..)` have upper-case hex digits and offsets after `flat`
//!   lower-case ones; this is reproduced.
//! * Typed addresses (IGC `formatTyped`, lsc.md §6): `bti(0x1)[U,V,R,LOD]:a32`, where
//!   trailing coordinates that are the constant 0 are dropped (LOD when it is 0, then R
//!   when R and LOD are, then V when V, R and LOD are); U is always printed.
//! * Null operands: a load or atomic without a destination prints `%null:<shape>` (an
//!   unused destination is the IR's business: the emitter prints what the IR says);
//!   unused atomic sources print `%null`.
//! * Predicates: the predicate variable is named after the 1-bit value (`(P7) `); a
//!   component of a boolean vector has no spelling and is an error.
//! * Sampler loads (IGC `printInstructionSampler`, `getSampleOp3DName`; lsc.md §7.6):
//!   `load_3d.RGBA (M1, 16)  0x0:uw T<binding> V12.0 %null.0 V10.0 V11.0`: the op
//!   (`load_3d` for `ld`, `load_lz` for `ld_lz`), the channels, the exec size, the
//!   `aoffimmi` immediate `0x0:uw`, the surface variable, the destination, the paired
//!   resource (`%null.0`) and the parameters (u, v, lod, r for `ld`; u, v, r for
//!   `ld_lz`), every raw operand with its `.offset` as this printer always shows it.
//!   Trailing parameters that are the constant 0 are dropped (the 3D_LOAD
//!   documentation: "the missing parameters will have a value of 0"); u is kept. The
//!   surface variable of binding `b` is named `T<b>`; an indexed image gets an `add` as
//!   above and `movs (M1_NM, 1) T_<index variable>(0) <index variable>(0,0)<0;1,0>`
//!   (IGC `CISA.y` `MovsInstruction`). The sampler width is the untyped width capped at
//!   16, the widest the 3D_LOAD encoding lists. `resinfo` (IGC's `printInstruction`
//!   for `ISA_3D_INFO`; INFO.md) prints the channels, the exec size, the surface, the
//!   LOD and the destination: `resinfo.RGBA (M1, 16)  T0 V10.0 V12.0`.
//! * 2D block messages (lsc.md §6, §7 errata 3, 8, 10): untyped
//!   `lsc_load_block2d.ugm (M1, 1)  V12:d16.2x16x32nn  flat[BASE,W-1,H-1,P-1,X,Y]` and
//!   `lsc_store_block2d.ugm (M1, 1)  flat[...]  V12:d32.8x2nn` (`<size>.[B x]W x H` then
//!   transpose and VNNI as `n`/`t`, the block count omitted when 1); typed, with neither
//!   predicate nor execution size, `lsc_load_block2d.tgm  V53:8x8  bti(0x1)[X,Y]` and
//!   `lsc_store_block2d.tgm  bti(0x1)[X,Y]  V53:8x8` (width in bytes; the older docs'
//!   six-operand typed form is erratum 3). Payload fields that are constants print as
//!   upper-case hex immediates (IGC's block2d tests print `0x1FF`); others as variables.
//!   The IR cannot express the Xe2 x/y immediate offsets (`[...,X+16,Y-32]`): its
//!   payload operands are plain values. A data source reading from component `c`
//!   prints `V12.<c·SG·b/8>`, the byte where that component's part of the register
//!   image starts. The text of a typed block cannot be re-assembled by IGC (erratum
//!   10: no lexer rule for `WxH`); it is printed as IGC's printer writes it.
//! * Execution sizes come from the platform: typed messages use the device's typed SIMD
//!   width, transposed messages 1, other untyped messages the untyped width.
//!
//! Platforms without LSC (verx10 < 125) are rejected for LSC messages: vISA LSC text
//! cannot express what their backend does.

use crate::device::Device;
use crate::messages::block2d::{block2d_operands, Block2dMessage, Block2dOp};
use crate::messages::{
    check_message, describe_inst, lsc_operands, sampler_operands, LscMessage, MessageError,
    MessageRule, OpClass, SamplerMessage, SamplerOp,
};
use ir::diag::Diagnostic;
use ir::lsc::{AddrType, Sfid};
use ir::print::print_inst;
use ir::types::swizzle_letter;
use ir::{CfNode, CfParent, Function, Inst, Shader, Span, Src};
use std::fmt::{self, Write as _};

/// Why an instruction could not be printed as vISA.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VisaReason {
    /// The message breaks a platform rule (or the platform has no LSC).
    Message(MessageRule),
    /// An operand has no vISA spelling.
    Operand(String),
}

impl fmt::Display for VisaReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VisaReason::Message(r) => write!(f, "{r}"),
            VisaReason::Operand(s) => f.write_str(s),
        }
    }
}

/// An instruction the emitter cannot print: where it is and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VisaError {
    /// The function.
    pub function: String,
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// How the instruction reads (`%12 = @lsc_load_quad`).
    pub what: String,
    /// Why.
    pub reason: VisaReason,
}

impl fmt::Display for VisaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: in fn {}: `{}`: {}",
            self.span, self.function, self.what, self.reason
        )
    }
}

impl std::error::Error for VisaError {}

impl VisaError {
    /// The error as a diagnostic at the instruction's position, for rendering with a
    /// source snippet (`Diagnostic::render`).
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(
            self.span,
            format!("in fn {}: `{}`: {}", self.function, self.what, self.reason),
        )
    }
}

impl VisaError {
    fn from_message(function: &str, e: MessageError) -> VisaError {
        VisaError {
            function: function.to_string(),
            inst: e.inst,
            span: e.span,
            what: e.what,
            reason: VisaReason::Message(e.rule),
        }
    }
}

/// Prints every function of `shader` as vISA text for `device` (see the module
/// documentation for the syntax). Fails on the first message that breaks a platform
/// rule or has no vISA spelling, naming the instruction and its line.
pub fn emit_visa(shader: &Shader, device: &Device) -> Result<String, VisaError> {
    let p = device;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// vISA for {}: verx10 {}, {}-byte GRFs, typed SIMD{}, untyped SIMD{}",
        p.name,
        p.verx10(),
        p.grf_bytes,
        p.typed_simd,
        p.untyped_simd
    );
    for func in &shader.functions {
        let mut e = Emitter {
            shader,
            p,
            func,
            out: String::new(),
            depth: 0,
            gathers: Default::default(),
        };
        let kind = if func.name == "main" {
            ".kernel"
        } else {
            ".global_function"
        };
        let _ = writeln!(e.out, "{kind} \"{}\"", func.name);
        e.list(func.body())?;
        out.push_str(&e.out);
    }
    Ok(out)
}

struct Emitter<'a> {
    shader: &'a Shader,
    p: &'a Device,
    func: &'a Function,
    out: String,
    depth: usize,
    /// `mov`s that gather a payload whose components are not one register range, to be
    /// printed before the message that reads it.
    gathers: std::cell::RefCell<Vec<String>>,
}

/// A register layout: how far apart the components of a value are.
#[derive(Copy, Clone)]
enum Layout {
    /// SIMT at an execution size: component stride `ceil(N*B / GRF) * GRF`.
    Simt(u32),
    /// Packed (transposed data): component stride `B`.
    Packed,
}

impl<'a> Emitter<'a> {
    fn comment(&mut self, text: &str) {
        let _ = writeln!(self.out, "    // {}{text}", "  ".repeat(self.depth));
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "    {text}");
    }

    fn list(&mut self, nodes: &[CfNode]) -> Result<(), VisaError> {
        for &node in nodes {
            match node {
                CfNode::Block(b) => {
                    self.comment(&format!("block {b}:"));
                    self.depth += 1;
                    for inst in self.func.block_insts(b) {
                        self.inst(inst)?;
                    }
                    if let Some(j) = self.func.block(b).jump {
                        self.comment(j.name());
                    }
                    self.depth -= 1;
                }
                CfNode::If(id) => {
                    let cond = src_text(self.func, self.func.if_data(id).cond);
                    self.comment(&format!("if {cond} {{"));
                    self.depth += 1;
                    self.list(self.func.cf_list(CfParent::Then(id)))?;
                    self.depth -= 1;
                    self.comment("} else {");
                    self.depth += 1;
                    self.list(self.func.cf_list(CfParent::Else(id)))?;
                    self.depth -= 1;
                    self.comment("}");
                }
                CfNode::Loop(id) => {
                    self.comment("loop {");
                    self.depth += 1;
                    self.list(self.func.cf_list(CfParent::Loop(id)))?;
                    self.depth -= 1;
                    self.comment("}");
                }
            }
        }
        Ok(())
    }

    fn error(&self, inst: Inst, reason: VisaReason) -> VisaError {
        VisaError {
            function: self.func.name.clone(),
            inst,
            span: self.func.inst_span(inst),
            what: describe_inst(self.func, inst),
            reason,
        }
    }

    fn inst(&mut self, inst: Inst) -> Result<(), VisaError> {
        let lsc = LscMessage::decode(self.func, inst)
            .map_err(|r| self.error(inst, VisaReason::Message(r)))?;
        let sampler = SamplerMessage::decode(self.func, inst)
            .map_err(|r| self.error(inst, VisaReason::Message(r)))?;
        let block = Block2dMessage::decode(self.func, inst)
            .map_err(|r| self.error(inst, VisaReason::Message(r)))?;
        if let Some(m) = block {
            check_message(self.p, &self.shader.images, self.func, inst)
                .map_err(|e| VisaError::from_message(&self.func.name, e))?;
            let text = print_inst(self.shader, self.func, inst);
            self.comment(&text);
            let lines = self
                .block2d(inst, &m)
                .map_err(|s| self.error(inst, VisaReason::Operand(s)))?;
            self.flush_gathers();
            for l in lines {
                self.line(&l);
            }
            return Ok(());
        }
        if lsc.is_none() && sampler.is_none() {
            let text = print_inst(self.shader, self.func, inst);
            self.comment(&text);
            return Ok(());
        }
        if lsc.is_some() && !self.p.has_lsc {
            return Err(self.error(
                inst,
                VisaReason::Message(MessageRule::NoLsc {
                    platform: self.p.name.clone(),
                    verx10: self.p.verx10(),
                }),
            ));
        }
        check_message(self.p, &self.shader.images, self.func, inst)
            .map_err(|e| VisaError::from_message(&self.func.name, e))?;
        let text = print_inst(self.shader, self.func, inst);
        self.comment(&text);
        let lines = match (lsc, sampler) {
            (Some(m), _) => self.lsc(inst, &m),
            (None, Some(m)) => self.sampler(inst, &m),
            (None, None) => unreachable!("handled above"),
        }
        .map_err(|s| self.error(inst, VisaReason::Operand(s)))?;
        self.flush_gathers();
        for l in lines {
            self.line(&l);
        }
        Ok(())
    }

    fn flush_gathers(&mut self) {
        let gathers = std::mem::take(&mut *self.gathers.borrow_mut());
        for g in gathers {
            self.line(&g);
        }
    }

    /// A raw operand reading `comps` components of `bytes` bytes from `src`.
    fn raw(&self, src: Src, comps: u8, bytes: u32, layout: Layout) -> Result<String, String> {
        let stride = match layout {
            Layout::Simt(n) => (n * bytes).div_ceil(self.p.grf_bytes) * self.p.grf_bytes,
            Layout::Packed => bytes,
        };
        let first = match first_component(self.func, src, comps) {
            Ok(first) => first,
            Err(e) => match layout {
                Layout::Simt(n) if !src.swizzle.is_identity() && src.swizzle.len() == comps => {
                    return Ok(self.gather(src, n, stride, bytes));
                }
                _ => return Err(e),
            },
        };
        let off = u32::from(first) * stride;
        Ok(if off == 0 {
            format!("V{}", src.value.as_u32())
        } else {
            format!("V{}.{off}", src.value.as_u32())
        })
    }

    /// A payload whose components are not one register range (`%5.xz`): the backend
    /// copies them into consecutive registers first, one SIMT `mov` per component
    /// (`mov (M1, N) V5_xz(1,0)<1> V5(2,0)<1;1,0>`: regions at (GRF row, element
    /// column), components `stride` bytes apart, elements of `bytes` bytes), and the
    /// message reads the copy, named after the value and its swizzle.
    fn gather(&self, src: Src, n: u32, stride: u32, bytes: u32) -> String {
        let comps = self.func.value_type(src.value).num_components();
        let letters: String = src
            .swizzle
            .components()
            .map(|c| swizzle_letter(c, comps))
            .collect();
        let var = format!("V{}_{letters}", src.value.as_u32());
        let grf = self.p.grf_bytes;
        let region = |off: u32| format!("({},{})", off / grf, (off % grf) / bytes.max(1));
        let mut gathers = self.gathers.borrow_mut();
        for (i, c) in src.swizzle.components().enumerate() {
            gathers.push(format!(
                "mov (M1, {n}) {var}{}<1> V{}{}<1;1,0>",
                region(i as u32 * stride),
                src.value.as_u32(),
                region(u32::from(c) * stride)
            ));
        }
        var
    }

    /// A scalar vector operand (a surface index or a pitch register), read in lane 0 of
    /// its SIMT layout at execution size `n`: its variable and (row, column) position.
    fn vector_position(&self, src: Src, n: u32) -> Result<(String, u32, u32), String> {
        let first = first_component(self.func, src, 1)?;
        let bytes = u32::from(self.func.value_type(src.value).bit_size() / 8).max(1);
        let stride = (n * bytes).div_ceil(self.p.grf_bytes) * self.p.grf_bytes;
        let off = u32::from(first) * stride;
        Ok((
            format!("V{}", src.value.as_u32()),
            off / self.p.grf_bytes,
            (off % self.p.grf_bytes) / bytes,
        ))
    }

    /// A scalar vector operand as IGC's LSC printer spells it: `V10`, or `V10(row,col)`
    /// away from the start of the variable.
    fn vector_operand(&self, src: Src, n: u32) -> Result<String, String> {
        let (var, row, col) = self.vector_position(src, n)?;
        Ok(if row == 0 && col == 0 {
            var
        } else {
            format!("{var}({row},{col})")
        })
    }

    fn predicate(&self, pred: Option<Src>) -> Result<String, String> {
        let Some(p) = pred else {
            return Ok(String::new());
        };
        let comps = self.func.value_type(p.value).num_components();
        if comps != 1 {
            return Err(format!(
                "predicate {} reads a component of a {comps}-component boolean; vISA predicates are whole variables",
                src_text(self.func, p)
            ));
        }
        Ok(format!("(P{}) ", p.value.as_u32()))
    }

    /// The register holding binding + index for an indexed image, with the instruction
    /// that computes it when the binding is not 0. The register is the index variable
    /// itself, or a temporary named after it (`V7_bti3`, `V7_1_0_bti3` for a position
    /// away from its start).
    fn indexed_surface(
        &self,
        index: Src,
        binding: u32,
        n: u32,
    ) -> Result<(String, Option<String>), String> {
        let (var, row, col) = self.vector_position(index, n)?;
        let at_start = row == 0 && col == 0;
        if binding == 0 {
            let reg = if at_start {
                var
            } else {
                format!("{var}({row},{col})")
            };
            return Ok((reg, None));
        }
        let tmp = if at_start {
            format!("{var}_bti{binding}")
        } else {
            format!("{var}_{row}_{col}_bti{binding}")
        };
        Ok((
            tmp.clone(),
            Some(format!(
                "add (M1_NM, 1) {tmp}(0,0)<1> {var}({row},{col})<0;1,0> 0x{binding:x}:ud"
            )),
        ))
    }

    fn lsc(&self, inst: Inst, m: &LscMessage) -> Result<Vec<String>, String> {
        let func = self.func;
        let ops = lsc_operands(func, inst, m).map_err(|r| r.to_string())?;
        let n = m.exec_size(self.p);
        let mut lines = Vec::new();

        // Surface, IGC formatAddrTypeArgs; `upper` models the sticky std::uppercase.
        let image = func.inst(inst).as_intrinsic().and_then(|i| i.image);
        let mut upper = false;
        let surface = match (m.addr_type, image) {
            (AddrType::Flat, _) => "flat".to_string(),
            (t, Some(r)) => {
                let decl = self
                    .shader
                    .images
                    .get(r.image.index())
                    .ok_or_else(|| format!("image {} is not declared", r.image.as_u32()))?;
                match (t, r.index) {
                    (AddrType::Bti, None) => {
                        upper = true;
                        format!("bti(0x{:X})", decl.binding)
                    }
                    (AddrType::Bti, Some(idx)) => {
                        let (reg, pre) = self.indexed_surface(idx, decl.binding, n)?;
                        lines.extend(pre);
                        format!("bti({reg})")
                    }
                    (_, Some(idx)) => {
                        return Err(format!(
                            "a {} surface indexed by {} needs the surface-state stride of @{}, which the IR does not carry",
                            t.name(),
                            src_text(func, idx),
                            decl.name
                        ))
                    }
                    (_, None) => format!("{}(SS_{})", t.name(), decl.name),
                }
            }
            (t, None) => return Err(format!("the {} address model needs a surface", t.name())),
        };

        // Address.
        let mut addr = format!("{surface}[");
        if m.sfid == Sfid::Tgm {
            let mut used = 4;
            while used > 1 && is_const_zero(func, ops.addr[used - 1]) {
                used -= 1;
            }
            let coords: Vec<String> = ops.addr[..used]
                .iter()
                .map(|s| self.raw(*s, 1, 4, Layout::Simt(n)))
                .collect::<Result<_, _>>()?;
            addr.push_str(&coords.join(","));
        } else {
            let bytes = u32::from(m.addr_size.bits() / 8);
            addr.push_str(&self.raw(ops.addr[0], 1, bytes, Layout::Simt(n))?);
            if m.offset != 0 {
                let sign = if m.offset < 0 { '-' } else { '+' };
                let mag = m.offset.unsigned_abs();
                if upper {
                    let _ = write!(addr, "{sign}0x{mag:X}");
                } else {
                    let _ = write!(addr, "{sign}0x{mag:x}");
                }
            }
            if let Some(pitch) = ops.pitch {
                addr.push_str(", ");
                match const_value(func, pitch) {
                    Some(v) => {
                        let _ = write!(addr, "0x{v:X}");
                    }
                    None => addr.push_str(&self.vector_operand(pitch, n)?),
                }
            }
        }
        let _ = write!(addr, "]:{}", m.addr_size.name());

        // Data operands.
        let bytes = u32::from(m.data.size.reg_bits() / 8).max(1);
        let layout = if m.data.transpose {
            Layout::Packed
        } else {
            Layout::Simt(n)
        };
        let comps = m.data.components();
        let dest = match func.inst(inst).dest {
            Some(v) => format!("V{}:{}", v.as_u32(), m.data),
            None => format!("%null:{}", m.data),
        };

        let mut text = self.predicate(ops.predicate)?;
        text.push_str(&m.op.mnemonic());
        let _ = write!(text, ".{}", m.sfid.name());
        if !m.cache.is_default() {
            let _ = write!(text, ".{}.{}", m.cache.l1.name(), m.cache.l3.name());
        }
        let _ = write!(text, " (M1, {n})  ");
        match m.op.class() {
            OpClass::Load => {
                let _ = write!(text, "{dest}  {addr}");
            }
            OpClass::Store => {
                let data = ops.data.expect("stores have data");
                let reg = self.raw(data, comps, bytes, layout)?;
                let _ = write!(text, "{addr}  {reg}:{}", m.data);
            }
            OpClass::Atomic => {
                let mut srcs = Vec::new();
                for s in &ops.atomic {
                    srcs.push(self.raw(*s, 1, bytes, layout)?);
                }
                while srcs.len() < 2 {
                    srcs.push("%null".to_string());
                }
                let _ = write!(text, "{dest}  {addr}  {}  {}", srcs[0], srcs[1]);
            }
        }
        lines.push(text);
        Ok(lines)
    }

    /// A 2D block message (lsc.md §6): untyped
    /// `lsc_load_block2d.ugm (M1, 1)  V12:d16.2x16x32nn  flat[BASE,W-1,H-1,P-1,X,Y]` and
    /// `lsc_store_block2d.ugm (M1, 1)  flat[...]  V12:d32.8x2nn`; typed (no predicate, no
    /// execution size) `lsc_load_block2d.tgm  V53:8x8  bti(0x1)[X,Y]` and
    /// `lsc_store_block2d.tgm  bti(0x1)[X,Y]  V53:8x8`.
    fn block2d(&self, inst: Inst, m: &Block2dMessage) -> Result<Vec<String>, String> {
        let func = self.func;
        let ops = block2d_operands(func, inst, m).map_err(|r| r.to_string())?;
        let mut lines = Vec::new();
        let typed = m.sfid == Sfid::Tgm;
        let shape = if typed {
            m.shape.to_string()
        } else {
            format!("{}.{}", m.size.name(), m.shape)
        };
        // Payload fields are uniform scalars (vISA vec_operands): a constant prints as an
        // immediate in upper-case hex, as IGC prints the payload of its block2d tests
        // (`flat[...,0x1FF,0x2D,0x1FF,...]`); a value as its variable, `V10(row,col)`
        // away from its start (SIMT layout at the untyped width).
        let n = self.p.untyped_simd;
        let payload: Vec<String> = ops
            .payload
            .iter()
            .map(|s| match const_value(func, *s) {
                Some(v) => Ok(format!("0x{v:X}")),
                None => self.vector_operand(*s, n),
            })
            .collect::<Result<_, _>>()?;
        let surface = if typed {
            let r = func
                .inst(inst)
                .as_intrinsic()
                .and_then(|i| i.image)
                .ok_or("typed block2d needs an image")?;
            let decl = self
                .shader
                .images
                .get(r.image.index())
                .ok_or_else(|| format!("image {} is not declared", r.image.as_u32()))?;
            match r.index {
                None => format!("bti(0x{:X})", decl.binding),
                Some(idx) => {
                    let (reg, pre) = self.indexed_surface(idx, decl.binding, n)?;
                    lines.extend(pre);
                    format!("bti({reg})")
                }
            }
        } else {
            "flat".to_string()
        };
        let addr = format!("{surface}[{}]", payload.join(","));
        // The register image is spread over the subgroup: component c of a b-bit value
        // starts at byte c * SG * b / 8.
        let data = match (ops.data, func.inst(inst).dest) {
            (Some(d), _) => {
                let t = func.src_type(d);
                let sg = self.shader.subgroup_size.ok_or(
                    "block messages spread their data over the subgroup, and the shader fixes no subgroup_size",
                )?;
                let bytes = u32::from(t.bit_size() / 8).max(1);
                let stride = sg * bytes;
                match first_component(func, d, t.num_components()) {
                    Ok(first) => {
                        let off = u32::from(first) * stride;
                        if off == 0 {
                            format!("V{}", d.value.as_u32())
                        } else {
                            format!("V{}.{off}", d.value.as_u32())
                        }
                    }
                    // A payload spread over several components that are not one
                    // register range is gathered first, as for SIMT payloads.
                    Err(_) => self.gather(d, sg, stride, bytes),
                }
            }
            (None, Some(v)) => format!("V{}", v.as_u32()),
            (None, None) => "%null".to_string(),
        };
        let mut text = String::from(m.op.mnemonic());
        let _ = write!(text, ".{}", m.sfid.name());
        if !m.cache.is_default() {
            let _ = write!(text, ".{}.{}", m.cache.l1.name(), m.cache.l3.name());
        }
        if !typed {
            text.push_str(" (M1, 1)");
        }
        match m.op {
            Block2dOp::Load => {
                let _ = write!(text, "  {data}:{shape}  {addr}");
            }
            Block2dOp::Store => {
                let _ = write!(text, "  {addr}  {data}:{shape}");
            }
        }
        lines.push(text);
        Ok(lines)
    }

    fn sampler(&self, inst: Inst, m: &SamplerMessage) -> Result<Vec<String>, String> {
        let func = self.func;
        let ops = sampler_operands(func, inst, m).map_err(|r| r.to_string())?;
        let n = self.p.sampler_simd();
        let mut lines = Vec::new();
        let r = func
            .inst(inst)
            .as_intrinsic()
            .and_then(|i| i.image)
            .ok_or("sampler messages need an image")?;
        let decl = self
            .shader
            .images
            .get(r.image.index())
            .ok_or_else(|| format!("image {} is not declared", r.image.as_u32()))?;
        let surface = match r.index {
            None => format!("T{}", decl.binding),
            Some(idx) => {
                let (reg, pre) = self.indexed_surface(idx, decl.binding, n)?;
                lines.extend(pre);
                let (base, region) = match reg.split_once('(') {
                    Some((var, pos)) => (
                        format!("{var}_{}", pos.trim_end_matches(')').replace(',', "_")),
                        format!("{reg}<0;1,0>"),
                    ),
                    None => (reg.clone(), format!("{reg}(0,0)<0;1,0>")),
                };
                let tvar = format!("T_{base}");
                lines.push(format!("movs (M1_NM, 1) {tvar}(0) {region}"));
                tvar
            }
        };
        let mut used = ops.params.len();
        while used > 1 && is_const_zero(func, ops.params[used - 1]) {
            used -= 1;
        }
        let mut text = self.predicate(ops.predicate)?;
        text.push_str(m.op.visa_name());
        text.push('.');
        for (i, c) in "RGBA".chars().enumerate() {
            if m.channels & (1 << i) != 0 {
                text.push(c);
            }
        }
        let dest = match func.inst(inst).dest {
            Some(v) => format!(" V{}.0", v.as_u32()),
            None => " %null.0".to_string(),
        };
        let mut params = String::new();
        for s in &ops.params[..used] {
            let reg = self.raw(*s, 1, 4, Layout::Simt(n))?;
            if reg.contains('.') {
                let _ = write!(params, " {reg}");
            } else {
                let _ = write!(params, " {reg}.0");
            }
        }
        match m.op {
            // IGC's printer: the surface, the LOD, then the destination (INFO.md).
            SamplerOp::Resinfo => {
                let _ = write!(text, " (M1, {n})  {surface}{params}{dest}");
            }
            SamplerOp::Ld | SamplerOp::LdLz => {
                let _ = write!(text, " (M1, {n})  0x0:uw {surface}{dest} %null.0{params}");
            }
        }
        lines.push(text);
        Ok(lines)
    }
}

/// The first component `src` reads, when it reads `comps` consecutive components.
fn first_component(func: &Function, src: Src, comps: u8) -> Result<u8, String> {
    if src.swizzle.is_identity() {
        return Ok(0);
    }
    let first = src.swizzle.component(0);
    let run = src
        .swizzle
        .components()
        .enumerate()
        .all(|(i, c)| c == first + i as u8);
    if !run || src.swizzle.len() != comps {
        return Err(format!(
            "{} is not one register range (its components are not one ascending run); copy it with a vec first",
            src_text(func, src)
        ));
    }
    Ok(first)
}

/// The constant a scalar source reads, if it is defined by `load_const`.
fn const_value(func: &Function, src: Src) -> Option<u64> {
    let def = func.value_def(src.value)?;
    let c = func.inst(def).as_const()?;
    c.get(usize::from(src.swizzle.component(0))).copied()
}

fn is_const_zero(func: &Function, src: Src) -> bool {
    const_value(func, src) == Some(0)
}

/// A source in IR notation: `%3`, `%4.xy`.
fn src_text(func: &Function, src: Src) -> String {
    if src.swizzle.is_identity() {
        return src.value.to_string();
    }
    let comps = func.value_type(src.value).num_components();
    let letters: String = src
        .swizzle
        .components()
        .map(|c| swizzle_letter(c, comps))
        .collect();
    format!("{}.{letters}", src.value)
}

#[cfg(test)]
mod block2d_tests {
    use super::*;

    fn emit(text: &str, platform: &str) -> Result<String, VisaError> {
        let shader = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
        ir::validate(&shader).unwrap_or_else(|d| panic!("validate: {d:?}"));
        emit_visa(&shader, &Device::preset(platform).unwrap())
    }

    /// Values %3..%8 are the untyped payload (base, w-1, h-1, p-1, x, y), %10 and %11 the
    /// typed x and y; padding values give the operands the example numbers.
    const PAYLOAD: &str = "    32x3 %0 = @load_local_invocation_id
    32   %1 = @load_subgroup_id
    64   %2 = u2u64 %1
    64   %3 = iadd %2, %2
    32   %4 = iadd %1, %1
    32   %5 = iadd %4, %1
    32   %6 = iadd %5, %1
    32   %7 = iadd %6, %1
    32   %8 = iadd %7, %1
    32   %9 = iadd %8, %1
    32   %10 = iadd %9, %1
    32   %11 = iadd %10, %1";

    fn shader(body: &str) -> String {
        format!(
            "shader compute (local_size=16,1,1, subgroup_size=16)
image @img : 2d r32_uint (binding=1)
image @imgs[2] : 2d r32_uint (binding=0)
fn main {{
  block b0:
{PAYLOAD}
{body}
}}"
        )
    }

    #[test]
    fn lsc_md_section_6_examples() {
        // lsc.md §6 (and the brief's spelling of them), without the x/y immediate
        // offsets the IR cannot express.
        let text = shader(
            "    64x16 %12 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x32nn)
    32   %13 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)
    @lsc_store_block2d (%3, %4, %5, %6, %7, %8, %13) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)
    64   %14 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x8x2nn, lsc_cache=uc.ca)
    @lsc_store_block2d (%3, %4, %5, %6, %7, %8, %13) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn, lsc_cache=wt.wb)",
        );
        let out = emit(&text, "pvc").unwrap();
        for want in [
            "    lsc_load_block2d.ugm (M1, 1)  V12:d16.2x16x32nn  flat[V3,V4,V5,V6,V7,V8]\n",
            "    lsc_store_block2d.ugm (M1, 1)  flat[V3,V4,V5,V6,V7,V8]  V13:d32.8x2nn\n",
            "    lsc_load_block2d.ugm.uc.ca (M1, 1)  V14:d16.2x8x2nn  flat[V3,V4,V5,V6,V7,V8]\n",
            "    lsc_store_block2d.ugm.wt.wb (M1, 1)  flat[V3,V4,V5,V6,V7,V8]  V13:d32.8x2nn\n",
        ] {
            assert!(out.contains(want), "{want}\n{out}");
        }
        let text = shader(
            "    32   %53 = @lsc_load_block2d (@img, %10, %11) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)
    @lsc_store_block2d (@img, %10, %11, %53) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)
    32   %54 = @lsc_load_block2d (@imgs[%10], %10, %11) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)",
        );
        let out = emit(&text, "lnl").unwrap();
        for want in [
            "    lsc_load_block2d.tgm  V53:8x8  bti(0x1)[V10,V11]\n",
            "    lsc_store_block2d.tgm  bti(0x1)[V10,V11]  V53:8x8\n",
            "    lsc_load_block2d.tgm  V54:8x8  bti(V10)[V10,V11]\n",
        ] {
            assert!(out.contains(want), "{want}\n{out}");
        }
    }

    #[test]
    fn constants_components_and_errors() {
        // Constant payload fields print as IGC prints them (`0x1FF`); a store of the
        // second component of a 32x2 value starts at byte 1 x 16 lanes x 4 = 64.
        let text = shader(
            "    64   %20 = load_const (0x0000000100000000)
    32   %21 = load_const (0x000001ff)
    32   %22 = load_const (0x0000002d)
    32x2 %23 = @lsc_load_block2d (%20, %21, %22, %21, %7, %8) (lsc_sfid=ugm, lsc_data=d32, lsc_block=16x2nn)
    @lsc_store_block2d (%20, %21, %22, %21, %7, %8, %23.y) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)",
        );
        let out = emit(&text, "bmg").unwrap();
        assert!(
            out.contains(
                "    lsc_load_block2d.ugm (M1, 1)  V23:d32.16x2nn  flat[0x100000000,0x1FF,0x2D,0x1FF,V7,V8]\n"
            ),
            "{out}"
        );
        assert!(
            out.contains("  flat[0x100000000,0x1FF,0x2D,0x1FF,V7,V8]  V23.64:d32.8x2nn\n"),
            "{out}"
        );
        // Platform and table errors name the rule.
        let e = emit(&text, "dg2").unwrap_err().to_string();
        assert!(e.contains("lsc.md §13.9: untyped block2d"), "{e}");
        let text = shader(
            "    32   %12 = @lsc_load_block2d (@img, %10, %11) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)",
        );
        let e = emit(&text, "pvc").unwrap_err().to_string();
        assert!(e.contains("lsc.md §13.8: typed block2d"), "{e}");
    }
}
