//! Reading vISA text into a [`Listing`]: the directives (`.version`, `.kernel`,
//! `.decl`, `.input`, `.kernel_attr`, `.function`), labels and instructions of the
//! subset of IGC's grammar (`visa/CISA.y`, `visa/CISA.l`) that the vISA back end emits.
//!
//! As in IGC's grammar, a newline ends every statement, `.version` comes first, labels
//! start at the first column (`NAME:`), and `//` and `/* */` are comments.

use super::error::{ErrorKind, VisaError};
use super::lexer::{strip_block_comments, Cursor};
use super::listing::{
    Align, AluInst, AluOp, Attr, AttrValue, BranchOp, Decl, DeclKind, Input, Inst, InstKind,
    Listing, StateOr, Stmt,
};
use super::read_dataport::{dataport, is_dataport};
use super::read_messages::{is_message, message};
use super::read_operands::{dst, exec_size, predicate, src};
use super::types::{CondMod, VType};

/// Reads a vISA listing.
///
/// Errors name the line (and the column for syntax errors). Everything outside the
/// interpreter's subset (function calls, indirect operands, media messages, ...) is
/// [`ErrorKind::Unsupported`].
pub fn read(text: &str) -> Result<Listing, VisaError> {
    let text = strip_block_comments(text);
    let mut version = None;
    let mut kernel = None;
    let mut decls = Vec::new();
    let mut inputs = Vec::new();
    let mut attrs = Vec::new();
    let mut body = Vec::new();
    for (i, line_text) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut c = Cursor::new(line_text, line);
        if c.at_end() {
            continue;
        }
        if version.is_none() {
            if !c.eat_str(".version") {
                return Err(c.error("`.version` as the first statement"));
            }
            version = Some(read_version(&mut c)?);
            continue;
        }
        if let Some(name) = label(line_text) {
            body.push(Stmt::Label {
                name: name.to_string(),
                line,
            });
            continue;
        }
        if c.peek() == Some('.') {
            let m = c.mark();
            let directive = c.word().unwrap_or("");
            match directive {
                ".version" => return Err(c.error("one `.version` only")),
                ".kernel" => {
                    if kernel.is_some() {
                        return Err(unsupported(line, "a second `.kernel`"));
                    }
                    kernel = Some(name_or_string(&mut c, "the kernel's name")?);
                    c.expect_end()?;
                }
                ".decl" => decls.push(read_decl(&mut c)?),
                ".input" => inputs.push(read_input(&mut c)?),
                ".kernel_attr" => attrs.push(read_attr(&mut c)?),
                ".function" => {
                    // The kernel's body: IGC names it, the name is not used.
                    name_or_string(&mut c, "the function's name")?;
                    c.expect_end()?;
                }
                other if other.starts_with(".implicit") || other == ".parameter" => {
                    return Err(unsupported(line, &format!("the `{other}` directive")))
                }
                ".global_function" | ".funcdecl" => {
                    return Err(unsupported(line, &format!("the `{directive}` directive")))
                }
                _ => {
                    c.reset(m);
                    return Err(c.error("a directive (`.decl`, `.input`, `.kernel_attr`, ...)"));
                }
            }
            continue;
        }
        if c.peek() == Some('{') || c.peek() == Some('}') {
            return Err(unsupported(line, "a declaration scope `{ ... }`"));
        }
        body.push(Stmt::Inst(read_inst(&mut c)?));
    }
    let Some(version) = version else {
        return Err(VisaError::new(
            0,
            ErrorKind::MissingDirective {
                directive: ".version",
            },
        ));
    };
    let Some(kernel) = kernel else {
        return Err(VisaError::new(
            0,
            ErrorKind::MissingDirective {
                directive: ".kernel",
            },
        ));
    };
    Ok(Listing {
        version,
        kernel,
        decls,
        inputs,
        attrs,
        body,
    })
}

fn unsupported(line: u32, what: &str) -> VisaError {
    VisaError::new(
        line,
        ErrorKind::Unsupported {
            what: what.to_string(),
        },
    )
}

/// CISA.l's label: `^[a-zA-Z_$@?][a-zA-Z0-9_\-$@?]*:` followed by nothing but
/// blanks and comments.
fn label(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let first = *b.first()?;
    if !(first.is_ascii_alphabetic() || matches!(first, b'_' | b'$' | b'@' | b'?')) {
        return None;
    }
    let len = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'$' | b'@' | b'?'))
        .count();
    if b.get(len) != Some(&b':') {
        return None;
    }
    let rest = line[len + 1..].trim_start();
    (rest.is_empty() || rest.starts_with("//")).then(|| &line[..len])
}

fn read_version(c: &mut Cursor<'_>) -> Result<(u32, u32), VisaError> {
    c.skip_ws();
    let major = c
        .number()
        .ok_or_else(|| c.error("a version `major.minor`"))?;
    if !c.eat_raw('.') {
        return Err(c.error("`.minor` after the major version"));
    }
    let minor = c.number().ok_or_else(|| c.error("the minor version"))?;
    c.expect_end()?;
    Ok((major as u32, minor as u32))
}

/// `IdentOrStringLit`.
fn name_or_string(c: &mut Cursor<'_>, what: &str) -> Result<String, VisaError> {
    if let Some(s) = c.string_lit()? {
        return Ok(s);
    }
    Ok(c.expect_ident(what)?.to_string())
}

/// `key=` (the lexer's `num_elts[ ]*=` style tokens).
fn key(c: &mut Cursor<'_>, k: &str) -> bool {
    let m = c.mark();
    if c.ident() == Some(k) && c.eat('=') {
        return true;
    }
    c.reset(m);
    false
}

fn count(c: &mut Cursor<'_>, what: &str) -> Result<u32, VisaError> {
    let m = c.mark();
    let v = c.int_expr(true)?;
    u32::try_from(v).map_err(|_| {
        c.reset(m);
        c.error(what)
    })
}

/// `.decl NAME v_type=G type=T num_elts=N [align=A] [alias=<V, off>] [attrs={...}]` and
/// the `P`, `A`, `S`, `T` forms.
fn read_decl(c: &mut Cursor<'_>) -> Result<Decl, VisaError> {
    let line = c.line();
    let name = c.expect_ident("the variable's name")?.to_string();
    if !key(c, "v_type") {
        return Err(c.error("`v_type=`"));
    }
    let vt = c.expect_ident("a variable kind `G`, `P`, `A`, `S` or `T`")?;
    let kind = match vt {
        "G" => {
            if !key(c, "type") {
                return Err(c.error("`type=`"));
            }
            let m = c.mark();
            let ty = match c.ident().and_then(VType::from_name) {
                Some(t) if t.is_storage() => t,
                _ => {
                    c.reset(m);
                    return Err(c.error("a variable type (`ud`, `d`, `uw`, `w`, `ub`, `b`, `uq`, `q`, `df`, `f`, `hf`, `bf`)"));
                }
            };
            if !key(c, "num_elts") {
                return Err(c.error("`num_elts=`"));
            }
            let num_elts = count(c, "an element count")?;
            let align = if key(c, "align") {
                Some(read_align(c)?)
            } else {
                None
            };
            let alias = if key(c, "alias") {
                c.expect('<')?;
                let base = c.expect_ident("the aliased variable")?.to_string();
                c.expect(',')?;
                let m = c.mark();
                let off = c.int_expr(false)?;
                let off = u32::try_from(off).map_err(|_| {
                    c.reset(m);
                    c.error("a byte offset >= 0")
                })?;
                c.expect('>')?;
                Some((base, off))
            } else {
                None
            };
            DeclKind::General {
                ty,
                num_elts,
                align,
                alias,
            }
        }
        "P" | "A" | "S" | "T" => {
            if !key(c, "num_elts") {
                return Err(c.error("`num_elts=`"));
            }
            let num_elts = count(c, "an element count")?;
            if matches!(vt, "S" | "T") && key(c, "v_name") {
                c.expect_ident("a name")?;
            }
            match vt {
                "P" => DeclKind::Predicate { num_elts },
                "A" => DeclKind::Address { num_elts },
                "S" => DeclKind::Sampler { num_elts },
                _ => DeclKind::Surface { num_elts },
            }
        }
        _ => return Err(c.error("a variable kind `G`, `P`, `A`, `S` or `T`")),
    };
    if key(c, "attrs") {
        skip_attrs(c)?;
    }
    c.expect_end()?;
    Ok(Decl { name, kind, line })
}

/// `attrs={a, b=1, c="s"}`: read and dropped (the finalizer's hints).
fn skip_attrs(c: &mut Cursor<'_>) -> Result<(), VisaError> {
    c.expect('{')?;
    loop {
        c.expect_ident("an attribute name")?;
        if c.eat('=') && c.string_lit()?.is_none() {
            c.int_expr(false)?;
        }
        if !c.eat(',') {
            break;
        }
    }
    c.expect('}')
}

/// The `align=` values of CISA.y's `Align` rule.
fn read_align(c: &mut Cursor<'_>) -> Result<Align, VisaError> {
    let m = c.mark();
    if let Some(word) = c.word() {
        let a = match word {
            "byte" => Some(Align::Bytes(1)),
            "word" => Some(Align::Bytes(2)),
            "dword" => Some(Align::Bytes(4)),
            "qword" => Some(Align::Bytes(8)),
            "oword" => Some(Align::Bytes(16)),
            "hword" => Some(Align::Bytes(32)),
            "wordx32" | "32word" => Some(Align::Bytes(64)),
            "wordx64" | "64word" => Some(Align::Bytes(128)),
            "GRF" => Some(Align::Grf),
            "GRFx2" | "2GRF" => Some(Align::Grf2),
            _ => None,
        };
        if let Some(a) = a {
            return Ok(a);
        }
        c.reset(m);
    }
    let v = c.int_expr(false)?;
    match v {
        1 | 2 | 4 | 8 | 16 | 32 | 64 | 128 => Ok(Align::Bytes(v as u32)),
        _ => {
            c.reset(m);
            Err(c.error("an alignment (`byte` ... `GRFx2`, or 1, 2, 4, ..., 128 bytes)"))
        }
    }
}

/// `.input V [offset=N] [size=N]`.
fn read_input(c: &mut Cursor<'_>) -> Result<Input, VisaError> {
    let line = c.line();
    let name = c.expect_ident("the input variable")?.to_string();
    let offset = if key(c, "offset") {
        count(c, "an offset")?
    } else {
        0
    };
    let size = if key(c, "size") {
        Some(count(c, "a size")?)
    } else {
        None
    };
    c.expect_end()?;
    Ok(Input {
        name,
        offset,
        size,
        line,
    })
}

/// `.kernel_attr NAME[=value]`.
fn read_attr(c: &mut Cursor<'_>) -> Result<Attr, VisaError> {
    let line = c.line();
    let name = c.expect_ident("the attribute's name")?.to_string();
    let value = if c.eat('=') {
        if let Some(s) = c.string_lit()? {
            AttrValue::Str(s)
        } else if c.at_end() {
            AttrValue::None
        } else {
            AttrValue::Int(c.int_expr(true)?)
        }
    } else {
        AttrValue::None
    };
    c.expect_end()?;
    Ok(Attr { name, value, line })
}

/// One instruction line.
fn read_inst(c: &mut Cursor<'_>) -> Result<Inst, VisaError> {
    let line = c.line();
    let pred = predicate(c)?;
    let m = c.mark();
    let Some(word) = c.word() else {
        return Err(c.error("an instruction"));
    };
    let parts: Vec<&str> = word.split('.').collect();
    let base = parts[0];
    let kind = if is_message(base) {
        message(c, pred, &parts)?
    } else if is_dataport(base) {
        dataport(c, pred, &parts)?
    } else {
        match base {
            "goto" | "jmp" => {
                no_modifiers(c, &parts, m)?;
                let exec = exec_size(c)?;
                let label = name_or_string(c, "a label")?;
                c.expect_end()?;
                InstKind::Branch {
                    op: if base == "goto" {
                        BranchOp::Goto
                    } else {
                        BranchOp::Jmp
                    },
                    pred,
                    exec,
                    label,
                }
            }
            "ret" => {
                no_modifiers(c, &parts, m)?;
                let exec = exec_size(c)?;
                c.expect_end()?;
                InstKind::Ret { pred, exec }
            }
            "lifetime" => {
                let start = match parts.get(1..) {
                    Some(["start"]) => true,
                    Some(["end"]) => false,
                    _ => {
                        c.reset(m);
                        return Err(c.error("`lifetime.start` or `lifetime.end`"));
                    }
                };
                if pred.is_some() {
                    return Err(bad(line, "`lifetime` takes no predicate"));
                }
                let var = c.expect_ident("a variable")?.to_string();
                c.expect_end()?;
                InstKind::Lifetime { start, var }
            }
            "movs" => {
                no_modifiers(c, &parts, m)?;
                if pred.is_some() {
                    return Err(bad(line, "`movs` takes no predicate"));
                }
                let exec = exec_size(c)?;
                let dst = match state_operand(c)? {
                    Some((var, offset)) => StateOr::State { var, offset },
                    None => StateOr::General(dst(c, false)?),
                };
                let src = match state_operand(c)? {
                    Some((var, offset)) => StateOr::State { var, offset },
                    None => StateOr::General(src(c, false)?),
                };
                c.expect_end()?;
                InstKind::Movs { exec, dst, src }
            }
            "addr_add" => {
                no_modifiers(c, &parts, m)?;
                if pred.is_some() {
                    return Err(bad(line, "`addr_add` takes no predicate"));
                }
                super::indirect::read_addr_add(c)?
            }
            "mov" if parts.len() == 1 && super::indirect::has_indirect_source(c) => {
                super::indirect::read_mov_indirect(c, pred)?
            }
            "setp" => {
                no_modifiers(c, &parts, m)?;
                if pred.is_some() {
                    return Err(bad(line, "`setp` takes no predicate"));
                }
                let exec = exec_size(c)?;
                let dst = c.expect_ident("a predicate variable")?.to_string();
                let s = src(c, false)?;
                c.expect_end()?;
                InstKind::Setp { exec, dst, src: s }
            }
            _ => InstKind::Alu(read_alu(c, pred, &parts, m)?),
        }
    };
    Ok(Inst { line, kind })
}

/// `SrcStateOperand` / `DstStateOperand`: `V(offset)`, told from a general operand
/// `V(row, col)<...>` by the closing parenthesis after one number.
fn state_operand(c: &mut Cursor<'_>) -> Result<Option<(String, u32)>, VisaError> {
    let m = c.mark();
    let Some(var) = c.ident() else {
        return Ok(None);
    };
    if c.peek_raw() != Some('(') {
        c.reset(m);
        return Ok(None);
    }
    c.expect('(')?;
    let v = c.int_expr(true)?;
    if !c.eat(')') {
        c.reset(m);
        return Ok(None);
    }
    match u32::try_from(v) {
        Ok(off) if off < 0x100 => Ok(Some((var.to_string(), off))),
        _ => {
            c.reset(m);
            Err(c.error("a state operand offset below 256"))
        }
    }
}

fn bad(line: u32, reason: &str) -> VisaError {
    VisaError::new(
        line,
        ErrorKind::BadInstruction {
            reason: reason.to_string(),
        },
    )
}

fn no_modifiers(c: &mut Cursor<'_>, parts: &[&str], m: usize) -> Result<(), VisaError> {
    if parts.len() > 1 {
        c.reset(m);
        return Err(c.error(&format!("`{}` without modifiers", parts[0])));
    }
    Ok(())
}

fn read_alu(
    c: &mut Cursor<'_>,
    pred: Option<super::listing::PredUse>,
    parts: &[&str],
    m: usize,
) -> Result<AluInst, VisaError> {
    let line = c.line();
    let base = parts[0];
    let mut mods = &parts[1..];
    let op = if base == "bfn" {
        // `bfn.xHH`: the truth table in hex.
        let table = mods
            .first()
            .and_then(|t| t.strip_prefix('x'))
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        let Some(table) = table else {
            c.reset(m);
            return Err(c.error("`bfn.xHH` with a two-digit truth table"));
        };
        mods = &mods[1..];
        AluOp::Bfn(table)
    } else {
        match AluOp::from_name(base) {
            Some(op) => op,
            None => return Err(unsupported(line, &format!("instruction `{base}`"))),
        }
    };
    let mut cond = None;
    if op == AluOp::Cmp {
        cond = mods.first().and_then(|s| CondMod::from_name(s));
        if cond.is_none() {
            c.reset(m);
            return Err(c.error("`cmp.eq|ne|gt|ge|lt|le`"));
        }
        mods = &mods[1..];
    }
    let sat = match mods {
        [] => false,
        ["sat"] if !matches!(op, AluOp::Cmp | AluOp::Addc | AluOp::Subb) => true,
        _ => {
            c.reset(m);
            return Err(c.error(&format!("`{}` with the modifiers CISA.y allows", op.name())));
        }
    };
    if pred.is_some() && op == AluOp::Cmp {
        // CISA.y: "predication not permitted" on `cmp`.
        return Err(bad(line, "`cmp` takes no predicate"));
    }
    let exec = exec_size(c)?;
    // Predicate operands: `cmp` writes one; the logic ops and `mov` may read them.
    let logic = matches!(op, AluOp::And | AluOp::Or | AluOp::Xor | AluOp::Not);
    let d = dst(c, op == AluOp::Cmp || logic)?;
    let dst2 = if matches!(op, AluOp::Addc | AluOp::Subb) {
        Some(dst(c, false)?)
    } else {
        None
    };
    let mut srcs = Vec::with_capacity(op.num_srcs());
    for _ in 0..op.num_srcs() {
        srcs.push(src(c, logic || op == AluOp::Mov)?);
    }
    c.expect_end()?;
    Ok(AluInst {
        op,
        cond,
        pred,
        sat,
        exec,
        dst: d,
        dst2,
        srcs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::listing::{Dst, Src};
    use crate::visa::types::{ExecCtrl, PredCombine, SrcMod};

    /// The head of a kernel as IGC's own `ocloc` dump writes it (DG2, SIMD32).
    const IGC_DUMP: &str = r#".version 4.1
.kernel "k"

/// VISA Predefined Variables
// .decl V0 v_type=G v_name=%null
.decl V0032 v_type=G type=d num_elts=8 align=hword
.decl V0033 v_type=G type=d num_elts=8 align=hword alias=<%r0, 0>
.decl V0050 v_type=G type=uw num_elts=16 align=hword alias=<V0039, 0>
.decl P1 v_type=P num_elts=32
.decl T6 v_type=T num_elts=1
.input V0039 offset=32 size=32
.input V0038 offset=288 size=12
.kernel_attr Target="3d"
.kernel_attr SimdSize=32
.kernel_attr PerThreadInputSize=192    
.function "_main_0"

_main_0:
    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud                         /// $1
    mov (M5, 16) V0049(0,0)<1> V0051(0,0)<1;1,0>                                 /// $4
    cmp.gt (M5_NM, 16) P1 V0034(0,0)<0;1,0> 0x0:d                                /// $8
    (P1) goto (M1, 32) _0_015                                                    /// $9
    add (M1_NM, 1) V0055(0,0)<1> V0034(0,0)<0;1,0> 0xffffffff:w                  /// $14
    (!P2) goto (M1, 32) _0_018                                                   /// $18
    bfn.xd8 (M1_NM, 1) V0071(0,0)<1> V0072(0,0)<0;1,0> V0070(0,0)<0;1,0> V0068(0,0)<0;1,0> /// $38
    load_lz.RGBA (M1, 16)  0x0:uw T6 V0107.0 V0052.0 V0109.0                     /// $98
    mul (M1, 16) V0133(0,0)<1> V0133(0,0)<1;1,0> 0x40600000:f                    /// $138
_0_015:
    ret (M1, 1)                                                                  /// $159
"#;

    #[test]
    fn reads_an_igc_dump() {
        let l = read(IGC_DUMP).unwrap();
        assert_eq!(l.version, (4, 1));
        assert_eq!(l.kernel, "k");
        assert_eq!(l.int_attr("SimdSize"), Some(32));
        assert_eq!(l.int_attr("PerThreadInputSize"), Some(192));
        assert_eq!(l.decls.len(), 5);
        assert_eq!(
            l.decls[1].kind,
            DeclKind::General {
                ty: VType::D,
                num_elts: 8,
                align: Some(Align::Bytes(32)),
                alias: Some(("%r0".into(), 0))
            }
        );
        assert_eq!(l.decls[3].kind, DeclKind::Predicate { num_elts: 32 });
        assert_eq!(l.inputs[1].offset, 288);
        assert_eq!(l.inputs[1].size, Some(12));
        let insts: Vec<&Inst> = l
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::Inst(i) => Some(i),
                Stmt::Label { .. } => None,
            })
            .collect();
        assert_eq!(insts.len(), 10);
        assert_eq!(insts[0].line, 19);
        let InstKind::Alu(cmp) = &insts[2].kind else {
            panic!()
        };
        assert_eq!((cmp.op, cmp.cond), (AluOp::Cmp, Some(CondMod::Gt)));
        assert_eq!(cmp.dst, Dst::Pred("P1".into()));
        assert_eq!(
            cmp.exec,
            ExecCtrl {
                size: 16,
                offset: 16,
                no_mask: true
            }
        );
        let InstKind::Branch { pred, label, .. } = &insts[5].kind else {
            panic!()
        };
        let p = pred.as_ref().unwrap();
        assert!(p.invert && p.combine == PredCombine::Sequential);
        assert_eq!(label, "_0_018");
        let InstKind::Alu(bfn) = &insts[6].kind else {
            panic!()
        };
        assert_eq!(bfn.op, AluOp::Bfn(0xd8));
        let InstKind::Alu(add) = &insts[4].kind else {
            panic!()
        };
        assert_eq!(
            add.srcs[1],
            Src::Imm {
                bits: 0xffff,
                ty: VType::W
            }
        );
        let labels: Vec<&str> = l
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::Label { name, .. } => Some(name.as_str()),
                Stmt::Inst(_) => None,
            })
            .collect();
        assert_eq!(labels, ["_main_0", "_0_015"]);
    }

    fn one(inst: &str) -> Result<InstKind, VisaError> {
        let text = format!(".version 4.1\n.kernel k\n{inst}\n");
        read(&text).map(|l| match l.body.into_iter().next() {
            Some(Stmt::Inst(i)) => i.kind,
            other => panic!("{other:?}"),
        })
    }

    #[test]
    fn alu_forms() {
        let InstKind::Alu(a) =
            one("(P2.all) add.sat (M1, 8) V1(0,0)<1> (-)V2(0,1)<1;1,0> (abs)V3(1,0)<0;1,0>")
                .unwrap()
        else {
            panic!()
        };
        assert!(a.sat);
        assert_eq!(a.pred.unwrap().combine, PredCombine::All);
        assert!(matches!(
            a.srcs[0],
            Src::General {
                modifier: SrcMod::Neg,
                col: 1,
                ..
            }
        ));
        assert!(matches!(
            a.srcs[1],
            Src::General {
                modifier: SrcMod::Abs,
                row: 1,
                vstride: 0,
                ..
            }
        ));
        let InstKind::Alu(a) =
            one("addc (M1, 8) V1(0,0)<1> V9(0,0)<1> V2(0,0)<1;1,0> 0x1:ud").unwrap()
        else {
            panic!()
        };
        assert!(a.dst2.is_some());
        let InstKind::Alu(a) = one("and (M1_NM, 16) P1 P2 P3").unwrap() else {
            panic!()
        };
        assert_eq!(a.srcs, [Src::Pred("P2".into()), Src::Pred("P3".into())]);
        let InstKind::Alu(a) =
            one("bfi (M1, 8) V1(0,0)<1> 0x8:ud 0x4:ud V2(0,0)<1;1,0> V3(0,0)<1;1,0>").unwrap()
        else {
            panic!()
        };
        assert_eq!(a.srcs.len(), 4);
        assert!(matches!(
            one("setp (M1_NM, 16) P1 0xff:uw").unwrap(),
            InstKind::Setp { .. }
        ));
        assert_eq!(
            one("lifetime.start V12").unwrap(),
            InstKind::Lifetime {
                start: true,
                var: "V12".into()
            }
        );
        assert_eq!(
            one("movs (M1_NM, 1) T6(0) 0x2:ud").unwrap(),
            InstKind::Movs {
                exec: ExecCtrl {
                    size: 1,
                    offset: 0,
                    no_mask: true
                },
                dst: StateOr::State {
                    var: "T6".into(),
                    offset: 0
                },
                src: StateOr::General(Src::Imm {
                    bits: 2,
                    ty: VType::Ud
                })
            }
        );
        assert!(matches!(
            one("movs (M1_NM, 1) V1(0,0)<1> T6(0)").unwrap(),
            InstKind::Movs {
                dst: StateOr::General(_),
                src: StateOr::State { .. },
                ..
            }
        ));
        assert!(matches!(
            one("jmp (M1, 1) L2").unwrap(),
            InstKind::Branch {
                op: BranchOp::Jmp,
                ..
            }
        ));
    }

    #[test]
    fn errors_name_the_line() {
        let cases: &[(&str, u32)] = &[
            ("mov (M1, 8) V1(0,0)<1>", 3),
            ("cmp.xx (M1, 8) P1 V1(0,0)<1;1,0> 0x0:d", 3),
            ("(P1) cmp.eq (M1, 8) P1 V1(0,0)<1;1,0> 0x0:d", 3),
            ("fcall (M1, 1) foo 0 0", 3),
            ("mov (M1, 8) r[A0(0), 0]<1>:d V1(0,0)<1;1,0>", 3),
            ("mov.sat.sat (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0>", 3),
            (
                "add (M1, 8) V1(0,0)<1> V2(0,0)<1;1,0> V3(0,0)<1;1,0> V4(0,0)<1;1,0>",
                3,
            ),
            (".decl V1 v_type=G type=v num_elts=1", 3),
            ("  L1:", 3),
        ];
        for (text, line) in cases {
            let e = one(text).expect_err(text);
            assert_eq!(e.line, *line, "{text}: {e}");
        }
        assert!(matches!(
            read(".kernel k\n").unwrap_err().kind,
            ErrorKind::Syntax { .. }
        ));
        assert!(matches!(
            read(".version 4.1\n").unwrap_err().kind,
            ErrorKind::MissingDirective {
                directive: ".kernel"
            }
        ));
    }
}
