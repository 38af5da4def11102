//! The printer of the text format (grammar and examples in `ir/SYNTAX.md`).
//!
//! The output is deterministic and is exactly what [`crate::parse::parse_shader`]
//! reads back: `parse(print(s)) == s` for every valid shader, and printing the result of
//! parsing a text is a fixed point. The printer never panics, also not on shaders the
//! validator would reject (dangling ids, indices that do not decode): it then prints a
//! form that names the problem and that the parser refuses.
//!
//! Everything is written into one buffer through [`fmt::Write`]; nothing is allocated per
//! instruction.

use crate::buffer::BufferDecl;
use crate::entity::{ImageId, Value};
use crate::function::{CfNode, Function, InstKind, IntrinsicInst};
use crate::image::{ImageDecl, ImageRef};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::CacheControl;
use crate::sampler::SamplerDecl;
use crate::shader::Shader;
use crate::types::{swizzle_letter, Src, Type};
use crate::Inst;
use std::fmt::{self, Write};

/// Width of the type column: instructions line up for types up to `32x4`.
const TYPE_COLUMN: usize = 4;

/// Prints a whole shader.
pub fn print_shader(shader: &Shader) -> String {
    let mut out = String::new();
    // Writing into a `String` cannot fail.
    let _ = write_shader(&mut out, shader);
    out
}

/// Prints one function of `shader` (the shader supplies image names and declarations).
pub fn print_function(shader: &Shader, func: &Function) -> String {
    let mut out = String::new();
    let _ = write_function(&mut out, shader, func);
    out
}

/// Prints one instruction of `func`, without indentation or line break (for diagnostics
/// and pass traces).
pub fn print_inst(shader: &Shader, func: &Function, inst: Inst) -> String {
    let mut out = String::new();
    let _ = Printer {
        out: &mut out,
        shader,
        func,
    }
    .inst(inst);
    out
}

/// Writes a whole shader: the `shader` line, the image and buffer declarations, then each function
/// after a blank line.
pub fn write_shader(out: &mut impl Write, shader: &Shader) -> fmt::Result {
    let [x, y, z] = shader.local_size;
    write!(
        out,
        "shader {} (local_size={x},{y},{z}",
        shader.stage.name()
    )?;
    if let Some(n) = shader.subgroup_size {
        write!(out, ", subgroup_size={n}")?;
    }
    if shader.scratch_size != 0 {
        write!(out, ", scratch_size={}", shader.scratch_size)?;
    }
    out.write_str(")\n")?;
    for decl in &shader.images {
        write_image_decl(out, decl)?;
        out.write_char('\n')?;
    }
    for decl in &shader.buffers {
        write_buffer_decl(out, decl)?;
        out.write_char('\n')?;
    }
    for decl in &shader.samplers {
        write_sampler_decl(out, decl)?;
        out.write_char('\n')?;
    }
    if !shader.constant_data.is_empty() {
        write_constant_data(out, &shader.constant_data)?;
    }
    for func in &shader.functions {
        out.write_char('\n')?;
        write_function(out, shader, func)?;
    }
    Ok(())
}

/// Writes an image declaration (one line, without the line break).
pub fn write_image_decl(out: &mut impl Write, decl: &ImageDecl) -> fmt::Result {
    write!(out, "image @{}", decl.name)?;
    if let Some(n) = decl.count {
        write!(out, "[{n}]")?;
    }
    write!(out, " : {}", decl.dim.name())?;
    if decl.arrayed {
        out.write_str(" array")?;
    }
    write!(out, " {}", decl.format.name())?;
    for name in decl.access.names() {
        write!(out, " {name}")?;
    }
    write!(out, " (binding={}", decl.binding)?;
    if let Some(l) = decl.layout {
        write!(
            out,
            ", layout={{tiling={}, row_pitch={}",
            l.tiling.name(),
            l.row_pitch
        )?;
        if let Some(q) = l.qpitch {
            write!(out, ", qpitch={q}")?;
        }
        if l.swizzle {
            out.write_str(", swizzle=true")?;
        }
        out.write_char('}')?;
    }
    out.write_char(')')
}

/// Bytes per line of a `constant_data` block.
const CONSTANT_BYTES_PER_LINE: usize = 16;

/// Writes the shader's constant data: `constant_data (size=N) {`, then lines of 16
/// bytes in hex, each after the offset of its first byte, then `}` (with line breaks).
pub fn write_constant_data(out: &mut impl Write, data: &[u8]) -> fmt::Result {
    writeln!(out, "constant_data (size={}) {{", data.len())?;
    for (k, line) in data.chunks(CONSTANT_BYTES_PER_LINE).enumerate() {
        write!(out, "  0x{:04x}:", k * CONSTANT_BYTES_PER_LINE)?;
        for b in line {
            write!(out, " {b:02x}")?;
        }
        out.write_char('\n')?;
    }
    out.write_str("}\n")
}

/// Writes a buffer declaration (one line, without the line break).
pub fn write_buffer_decl(out: &mut impl Write, decl: &BufferDecl) -> fmt::Result {
    write!(out, "buffer @{}", decl.name)?;
    if let Some(n) = decl.count {
        write!(out, "[{n}]")?;
    }
    write!(out, " : {}", decl.kind.name())?;
    for name in decl.access.names() {
        write!(out, " {name}")?;
    }
    write!(out, " (block={}, size={}", decl.block, decl.size)?;
    if let Some(s) = decl.stride {
        write!(out, ", stride={s}")?;
    }
    out.write_char(')')
}

/// Writes a sampler declaration (one line, without the line break).
pub fn write_sampler_decl(out: &mut impl Write, decl: &SamplerDecl) -> fmt::Result {
    write!(out, "sampler @{}", decl.name)?;
    if let Some(n) = decl.count {
        write!(out, "[{n}]")?;
    }
    write!(out, " (binding={})", decl.binding)
}

/// Writes one function, ending with a line break.
pub fn write_function(out: &mut impl Write, shader: &Shader, func: &Function) -> fmt::Result {
    writeln!(out, "fn {} {{", func.name)?;
    Printer { out, shader, func }.list(func.body(), 1)?;
    out.write_str("}\n")
}

/// The value an omitted index takes, if it may be omitted: the image indices of an image
/// intrinsic come from the image's declaration, LSC cache controls default to `df.df`
/// the LSC offset and a texture lookup's texel offset to 0, a barrier's `mem_modes` to every kind. The `access` of the intrinsics that take it only for
/// `non_uniform` (`image_samples`, `image_load_param`, `load_ubo`) defaults to none.
/// Shared by the printer (which omits an index equal to its default) and the parser
/// (which fills a missing index with it).
pub(crate) fn index_default(
    images: &[ImageDecl],
    image: Option<ImageRef>,
    op: IntrinsicOp,
    kind: IndexKind,
) -> Option<u32> {
    let decl = || image.and_then(|r| images.get(r.image.index()));
    match kind {
        IndexKind::ImageDim => decl().map(|d| d.dim.to_index()),
        IndexKind::ImageArray => decl().map(|d| d.arrayed as u32),
        IndexKind::Format => decl().map(|d| d.format.to_index()),
        IndexKind::Access
            if matches!(
                op,
                IntrinsicOp::ImageSamples | IntrinsicOp::ImageLoadParam | IntrinsicOp::LoadUbo
            ) =>
        {
            Some(0)
        }
        IndexKind::Access => decl().map(|d| d.access.bits()),
        IndexKind::LscCache => Some(CacheControl::DEFAULT.to_index()),
        IndexKind::MemModes => Some(crate::intrinsic::MemModes::ALL.0),
        IndexKind::LscOffset | IndexKind::TexelOffset | IndexKind::ClusterSize => Some(0),
        _ => None,
    }
}

impl fmt::Display for Shader {
    /// The text form, as [`print_shader`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_shader(f, self)
    }
}

struct Printer<'a, W: Write> {
    out: &'a mut W,
    shader: &'a Shader,
    func: &'a Function,
}

impl<W: Write> Printer<'_, W> {
    fn indent(&mut self, depth: usize) -> fmt::Result {
        for _ in 0..depth {
            self.out.write_str("  ")?;
        }
        Ok(())
    }

    fn list(&mut self, list: &[CfNode], depth: usize) -> fmt::Result {
        for &node in list {
            match node {
                CfNode::Block(b) => {
                    self.indent(depth)?;
                    writeln!(self.out, "block {}:", self.func.block_name(b))?;
                    if b.index() >= self.func.num_block_ids() {
                        continue;
                    }
                    for inst in self.func.block_insts(b) {
                        self.indent(depth + 1)?;
                        self.inst(inst)?;
                        self.out.write_char('\n')?;
                    }
                    if let Some(j) = self.func.block(b).jump {
                        self.indent(depth + 1)?;
                        writeln!(self.out, "{}", j.name())?;
                    }
                }
                CfNode::If(id) => {
                    let d = self.func.if_data(id);
                    self.indent(depth)?;
                    self.out.write_str("if ")?;
                    self.src(d.cond)?;
                    self.out.write_str(" {\n")?;
                    self.list(&d.then_list, depth + 1)?;
                    self.indent(depth)?;
                    self.out.write_str("} else {\n")?;
                    self.list(&d.else_list, depth + 1)?;
                    self.indent(depth)?;
                    self.out.write_str("}\n")?;
                }
                CfNode::Loop(id) => {
                    self.indent(depth)?;
                    self.out.write_str("loop {\n")?;
                    self.list(&self.func.loop_data(id).body, depth + 1)?;
                    self.indent(depth)?;
                    self.out.write_str("}\n")?;
                }
            }
        }
        Ok(())
    }

    /// The type of a value, if the id is in the arena.
    fn value_type(&self, v: Value) -> Option<Type> {
        (v.index() < self.func.num_value_ids()).then(|| self.func.value_type(v))
    }

    fn src(&mut self, src: Src) -> fmt::Result {
        write!(self.out, "{}", self.func.value_name(src.value))?;
        if !src.swizzle.is_identity() {
            // Letters follow NIR: `xyzw` for values of up to four components, `a`..`p`
            // for wider ones. A dangling value prints as if it were narrow.
            let comps = self.value_type(src.value).map_or(4, |t| t.num_components());
            self.out.write_char('.')?;
            for c in src.swizzle.components() {
                self.out.write_char(swizzle_letter(c, comps))?;
            }
        }
        Ok(())
    }

    fn srcs(&mut self, srcs: &[Src]) -> fmt::Result {
        for (i, &s) in srcs.iter().enumerate() {
            if i > 0 {
                self.out.write_str(", ")?;
            }
            self.src(s)?;
        }
        Ok(())
    }

    fn inst(&mut self, inst: Inst) -> fmt::Result {
        let data = self.func.inst(inst);
        let ty = data.dest.and_then(|v| self.value_type(v));
        if let Some(v) = data.dest {
            // The type column: `32x4 %2`, `32   %3`, `1    %6`.
            let len = match ty {
                Some(t) => {
                    write!(self.out, "{t}")?;
                    let digits = |n: u8| if n >= 10 { 2 } else { 1 };
                    let mut len = digits(t.bit_size());
                    if t.num_components() > 1 {
                        len += 1 + digits(t.num_components());
                    }
                    len
                }
                None => {
                    // A destination id outside the arena: print a type the parser rejects.
                    self.out.write_char('?')?;
                    1
                }
            };
            for _ in len..TYPE_COLUMN {
                self.out.write_char(' ')?;
            }
            write!(self.out, " {} = ", self.func.value_name(v))?;
        }
        match &data.kind {
            InstKind::Alu(a) => {
                if a.exact {
                    self.out.write_str("exact ")?;
                }
                self.out.write_str(a.op.name())?;
                if !a.srcs.is_empty() {
                    self.out.write_char(' ')?;
                    self.srcs(&a.srcs)?;
                }
            }
            InstKind::LoadConst(vals) => {
                self.out.write_str("load_const (")?;
                let bits = ty.map_or(0, |t| t.bit_size());
                for (i, &c) in vals.iter().enumerate() {
                    if i > 0 {
                        self.out.write_str(", ")?;
                    }
                    match (bits, c) {
                        (1, 0) => self.out.write_str("false")?,
                        (1, 1) => self.out.write_str("true")?,
                        (8, _) => write!(self.out, "0x{c:02x}")?,
                        (16, _) => write!(self.out, "0x{c:04x}")?,
                        (32, _) => write!(self.out, "0x{c:08x}")?,
                        (64, _) => write!(self.out, "0x{c:016x}")?,
                        _ => write!(self.out, "{c:#x}")?,
                    }
                }
                self.out.write_char(')')?;
            }
            InstKind::Undef => self.out.write_str("undef")?,
            InstKind::Phi(p) => {
                self.out.write_str("phi")?;
                for (i, &(b, s)) in p.srcs.iter().enumerate() {
                    self.out.write_str(if i == 0 { " " } else { ", " })?;
                    write!(self.out, "{}: ", self.func.block_name(b))?;
                    self.src(s)?;
                }
            }
            InstKind::Intrinsic(intr) => self.intrinsic(intr)?,
        }
        Ok(())
    }

    fn image_name(&mut self, id: ImageId) -> fmt::Result {
        match self.shader.images.get(id.index()) {
            Some(d) => write!(self.out, "@{}", d.name),
            None => write!(self.out, "@<undeclared {id}>"),
        }
    }

    fn intrinsic(&mut self, intr: &IntrinsicInst) -> fmt::Result {
        let info = intr.op.info();
        write!(self.out, "@{}", info.name)?;
        let pred = intr.predicate();
        let srcs = if pred.is_some() {
            &intr.srcs[..intr.srcs.len() - 1]
        } else {
            &intr.srcs[..]
        };
        if intr.image.is_some() || !srcs.is_empty() {
            self.out.write_str(" (")?;
            if let Some(r) = intr.image {
                self.image_name(r.image)?;
                if let Some(idx) = r.index {
                    self.out.write_char('[')?;
                    self.src(idx)?;
                    self.out.write_char(']')?;
                }
                if !srcs.is_empty() {
                    self.out.write_str(", ")?;
                }
            }
            self.srcs(srcs)?;
            self.out.write_char(')')?;
        }
        let mut first = true;
        for (i, &value) in intr.indices.iter().enumerate() {
            let Some(&kind) = info.indices.get(i) else {
                // More indices than the opcode has: name the slot so the parser refuses.
                self.out.write_str(if first { " (" } else { ", " })?;
                first = false;
                write!(self.out, "index{i}={value}")?;
                continue;
            };
            if index_default(&self.shader.images, intr.image, intr.op, kind) == Some(value) {
                continue;
            }
            self.out.write_str(if first { " (" } else { ", " })?;
            first = false;
            write!(self.out, "{}=", kind.name())?;
            match kind.format_value(value) {
                Some(s) => self.out.write_str(&s)?,
                // Not a valid encoding: the raw number shows what is there.
                None => write!(self.out, "{value}")?,
            }
        }
        if !first {
            self.out.write_char(')')?;
        }
        if let Some(p) = pred {
            self.out.write_str(" if ")?;
            self.src(p)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{image_indices, Builder};
    use crate::image::{Access, Format, ImageDim, LayoutTiling, StaticLayout};
    use crate::intrinsic::IntrinsicOp;
    use crate::lsc::{DataShape, DataSize};
    use crate::types::{AluType, BaseType};

    fn decl(name: &str, dim: ImageDim, format: Format) -> ImageDecl {
        ImageDecl::new(name, dim, format)
    }

    /// The body lines of the only function (without `fn`, block label and `}`).
    fn body_lines(shader: &Shader) -> Vec<String> {
        let text = print_function(shader, &shader.functions[0]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "fn main {");
        assert_eq!(lines[1], "  block b0:");
        assert_eq!(*lines.last().unwrap(), "}");
        lines[2..lines.len() - 1]
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn type_column_and_constant_widths() {
        let mut shader = Shader::new([1, 1, 1]);
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        b.imm_bool(true);
        b.imm_bool(false);
        b.imm_int(8, -1);
        b.imm_int(16, 0x12);
        b.imm_u32(10);
        b.imm_u64(0xdead_beef_0000_0001);
        b.load_const(Type::new(32, 4).unwrap(), &[1, 2, 3, 4]);
        b.load_const(Type::new(8, 16).unwrap(), &[0; 16]);
        b.undef(Type::new(64, 16).unwrap());
        shader.functions.push(f);
        let z = "0x00, ".repeat(15);
        assert_eq!(
            body_lines(&shader),
            [
                "    1    %0 = load_const (true)",
                "    1    %1 = load_const (false)",
                "    8    %2 = load_const (0xff)",
                "    16   %3 = load_const (0x0012)",
                "    32   %4 = load_const (0x0000000a)",
                "    64   %5 = load_const (0xdeadbeef00000001)",
                "    32x4 %6 = load_const (0x00000001, 0x00000002, 0x00000003, 0x00000004)",
                &format!("    8x16 %7 = load_const ({z}0x00)"),
                "    64x16 %8 = undef",
            ]
        );
    }

    #[test]
    fn swizzle_letters_follow_the_value_width() {
        let mut shader = Shader::new([1, 1, 1]);
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let v4 = b.load_const(Type::new(32, 4).unwrap(), &[0; 4]);
        let v8 = b.load_const(Type::new(32, 8).unwrap(), &[0; 8]);
        b.mov(Src::swizzled(v4, &[3, 2, 1, 0]).unwrap());
        b.mov(Src::swizzled(v8, &[0, 7, 4]).unwrap());
        b.mov(Src::swizzled(v8, &[1, 2]).unwrap());
        b.iadd(Src::channel(v4, 1), Src::channel(v8, 15));
        shader.functions.push(f);
        let lines = body_lines(&shader);
        assert_eq!(lines[2], "    32x4 %2 = mov %0.wzyx");
        assert_eq!(lines[3], "    32x3 %3 = mov %1.ahe");
        assert_eq!(lines[4], "    32x2 %4 = mov %1.bc");
        assert_eq!(lines[5], "    32   %5 = iadd %0.y, %1.p");
    }

    #[test]
    fn image_declarations() {
        let mut shader = Shader::new([8, 4, 2]);
        let mut d = decl("a", ImageDim::D2, Format::Rgba8Unorm);
        d.arrayed = true;
        d.access = Access::COHERENT | Access::NON_WRITEABLE;
        d.binding = 3;
        d.count = Some(4);
        shader.add_image(d);
        let mut d = decl("b", ImageDim::D3, Format::R32Uint);
        d.layout = Some(StaticLayout {
            tiling: LayoutTiling::Tile4,
            row_pitch: 512,
            qpitch: None,
            swizzle: false,
        });
        shader.add_image(d);
        let mut d = decl("c", ImageDim::Buffer, Format::None);
        d.layout = Some(StaticLayout {
            tiling: LayoutTiling::X,
            row_pitch: 4096,
            qpitch: Some(64),
            swizzle: true,
        });
        shader.add_image(d);
        assert_eq!(
            print_shader(&shader),
            "shader compute (local_size=8,4,2)\n\
             image @a[4] : 2d array rgba8_unorm readonly coherent (binding=3)\n\
             image @b : 3d r32_uint (binding=0, layout={tiling=4, row_pitch=512})\n\
             image @c : buffer unknown (binding=0, layout={tiling=x, row_pitch=4096, qpitch=64, swizzle=true})\n"
        );
    }

    #[test]
    fn omitted_indices_and_nested_control_flow() {
        let mut shader = Shader::new([1, 1, 1]);
        let img = shader.add_image(decl("img", ImageDim::D2, Format::R32Float));
        let d = shader.image(img).clone();
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let c = b.load_const(Type::new(32, 2).unwrap(), &[0, 0]);
        let float32 = AluType::new(BaseType::Float, 32);
        b.image_load(&d, ImageRef::new(img), c, 1, float32);
        // A format different from the declaration's is printed.
        let [dim, arr, _, acc] = image_indices(&d);
        let fmt = Format::Rgba8Unorm.to_index();
        b.intrinsic(
            IntrinsicOp::ImageLoad,
            Some(ImageRef::new(img)),
            &[c.into()],
            &[dim, arr, fmt, acc, float32.to_index()],
            Some(Type::new(32, 4).unwrap()),
        );
        let p = b.imm_bool(true);
        let id = b.push_if(p);
        let lp = b.push_loop();
        let data = DataShape::vector(DataSize::D32, 1, false).to_index();
        let uc_wb = crate::lsc::CacheControl::parse("uc.wb").unwrap().to_index();
        // Flat untyped load with the default cache and offset: both omitted.
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[Src::channel(c, 0), p.into()],
            &[0, 0, 1, data, 0, 0],
            Some(Type::U32),
        );
        // Non-default cache controls and offset are printed.
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[Src::channel(c, 0)],
            &[0, 0, 1, data, uc_wb, (-8i32) as u32],
            Some(Type::U32),
        );
        b.jump(crate::function::Jump::Break);
        b.pop_loop(lp);
        b.pop_if(id);
        shader.functions.push(f);
        assert_eq!(
            print_function(&shader, &shader.functions[0]),
            "fn main {
  block b0:
    32x2 %0 = load_const (0x00000000, 0x00000000)
    32   %1 = @image_load (@img, %0) (dest_type=float32)
    32x4 %2 = @image_load (@img, %0) (format=rgba8_unorm, dest_type=float32)
    1    %3 = load_const (true)
  if %3 {
    block b2:
    loop {
      block b5:
        32   %4 = @lsc_load (%0.x) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32) if %3
        32   %5 = @lsc_load (%0.x) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32, lsc_cache=uc.wb, lsc_offset=-8)
        break
    }
    block b4:
  } else {
    block b3:
  }
  block b1:
}
"
        );
    }

    #[test]
    fn broken_functions_print_without_panicking() {
        let shader = Shader::new([1, 1, 1]);
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let v = b.imm_u32(1);
        // An image that is not declared, indices that do not decode, a source that
        // names a value outside the arena.
        b.intrinsic(
            IntrinsicOp::ImageLoadParam,
            Some(ImageRef::new(ImageId::from_u32(9))),
            &[Src::new(Value::from_u32(77))],
            &[5, 0, 6],
            None,
        );
        b.intrinsic(
            IntrinsicOp::ImageSamples,
            Some(ImageRef::new(ImageId::from_u32(0))),
            &[v.into()],
            &[99, 7],
            None,
        );
        let text = print_function(&shader, &f);
        assert!(
            text.contains("@image_load_param (@<undeclared image9>, %77) (base=5, index2=6)"),
            "{text}"
        );
        assert!(text.contains("(image_dim=99, image_array=7)"), "{text}");
        assert!(crate::parse::parse_shader(&format!("{shader}{text}")).is_err());
    }
}
