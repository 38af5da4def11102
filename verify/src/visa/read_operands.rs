//! Reading the operands of vISA instructions (the operand rules of IGC's `visa/CISA.y`:
//! `Predicate`, `ExecSize`, `DstGeneralOperand`, `SrcGeneralOperand`, `SrcImmOperand`,
//! `RawOperand`, ...), shared by the statement and message readers.

use super::error::VisaError;
use super::lexer::Cursor;
use super::listing::{Dst, PredUse, Raw, Scalar, Src};
use super::types::{ExecCtrl, PredCombine, SrcMod, VType};

/// `Predicate`: `( [!] P [.any|.all] )` if the line starts with `(`.
pub fn predicate(c: &mut Cursor<'_>) -> Result<Option<PredUse>, VisaError> {
    if c.peek() != Some('(') {
        return Ok(None);
    }
    c.expect('(')?;
    let invert = c.eat('!');
    let name = c.expect_ident("a predicate variable")?.to_string();
    let combine = if c.eat_str(".any") {
        PredCombine::Any
    } else if c.eat_str(".all") {
        PredCombine::All
    } else {
        PredCombine::Sequential
    };
    c.expect(')')?;
    Ok(Some(PredUse {
        name,
        invert,
        combine,
    }))
}

/// `ExecSize`: `(N)` or `(Mk[_NM], N)`, `(NoMask, N)`; N is 1, 2, 4, 8, 16 or 32.
pub fn exec_size(c: &mut Cursor<'_>) -> Result<ExecCtrl, VisaError> {
    c.expect('(')?;
    let mut exec = ExecCtrl::m1(1);
    if let Some(mask) = c.ident() {
        (exec.offset, exec.no_mask) = match mask {
            "NoMask" => (0, true),
            m => {
                let (num, nm) = match m.strip_suffix("_NM") {
                    Some(n) => (n, true),
                    None => (m, false),
                };
                match num.strip_prefix('M').and_then(|d| d.parse::<u8>().ok()) {
                    Some(k @ 1..=8) => ((k - 1) * 4, nm),
                    _ => return Err(c.error("a mask control `M1`..`M8`, `_NM` or `NoMask`")),
                }
            }
        };
        c.expect(',')?;
    }
    c.skip_ws();
    let n = c.number();
    exec.size = match n {
        Some(n @ (1 | 2 | 4 | 8 | 16 | 32)) => n as u8,
        _ => return Err(c.error("an execution size 1, 2, 4, 8, 16 or 32")),
    };
    c.expect(')')?;
    Ok(exec)
}

/// A value of a region or offset field: an integer expression without `> & ^ |`.
fn field(c: &mut Cursor<'_>, what: &str) -> Result<u32, VisaError> {
    let m = c.mark();
    let v = c.int_expr(false)?;
    u32::try_from(v).map_err(|_| {
        c.reset(m);
        c.error(what)
    })
}

/// `TwoDimOffset`: `(row, col)`.
fn two_dim_offset(c: &mut Cursor<'_>) -> Result<(u32, u32), VisaError> {
    c.expect('(')?;
    let row = field(c, "a row offset >= 0")?;
    c.expect(',')?;
    let col = field(c, "a column offset >= 0")?;
    c.expect(')')?;
    Ok((row, col))
}

/// A region value that must be one of `allowed`.
fn region_value(c: &mut Cursor<'_>, allowed: &[u32], what: &str) -> Result<u32, VisaError> {
    let m = c.mark();
    let v = field(c, what)?;
    if allowed.contains(&v) {
        Ok(v)
    } else {
        c.reset(m);
        Err(c.error(what))
    }
}

/// `DstRegion`: `<hstride>`, hstride 0, 1, 2 or 4 (CISA.y's check).
fn dst_region(c: &mut Cursor<'_>) -> Result<u32, VisaError> {
    c.expect('<')?;
    let hs = region_value(c, &[0, 1, 2, 4], "a horizontal stride 0, 1, 2 or 4")?;
    c.expect('>')?;
    Ok(hs)
}

/// `SrcRegionDirect`: `<vstride; width, hstride>` with CISA.y's allowed values.
fn src_region(c: &mut Cursor<'_>) -> Result<(u32, u32, u32), VisaError> {
    c.expect('<')?;
    let vs = region_value(
        c,
        &[0, 1, 2, 4, 8, 16, 32],
        "a vertical stride 0, 1, 2, 4, 8, 16 or 32",
    )?;
    c.expect(';')?;
    let w = region_value(c, &[0, 1, 2, 4, 8, 16], "a width 0, 1, 2, 4, 8 or 16")?;
    c.expect(',')?;
    let hs = region_value(c, &[0, 1, 2, 4], "a horizontal stride 0, 1, 2 or 4")?;
    c.expect('>')?;
    Ok((vs, w, hs))
}

/// A destination: `V(row, col)<hstride>`, `V<hstride>`, or (when `allow_pred`) a
/// predicate variable.
pub fn dst(c: &mut Cursor<'_>, allow_pred: bool) -> Result<Dst, VisaError> {
    if c.peek() == Some('r') && c.rest().starts_with("r[") {
        return Err(unsupported(c, "an indirect operand `r[...]`"));
    }
    let var = c.expect_ident("a destination operand")?.to_string();
    match c.peek_raw() {
        Some('(') => {
            let (row, col) = two_dim_offset(c)?;
            let hstride = dst_region(c)?;
            Ok(Dst::General {
                var,
                row,
                col,
                hstride,
            })
        }
        _ if c.peek() == Some('<') => {
            let hstride = dst_region(c)?;
            Ok(Dst::General {
                var,
                row: 0,
                col: 0,
                hstride,
            })
        }
        _ if allow_pred => Ok(Dst::Pred(var)),
        _ => Err(c.error("`(row, col)<hstride>` after the destination")),
    }
}

fn unsupported(c: &mut Cursor<'_>, what: &str) -> VisaError {
    VisaError::new(
        c.line(),
        super::error::ErrorKind::Unsupported {
            what: what.to_string(),
        },
    )
}

/// A source: `[mod] V(row, col)<vs; w, hs>`, an immediate `value:type`, or (when
/// `allow_pred`) a predicate variable.
pub fn src(c: &mut Cursor<'_>, allow_pred: bool) -> Result<Src, VisaError> {
    let modifier = if c.eat_str("(-abs)") {
        SrcMod::NegAbs
    } else if c.eat_str("(-)") {
        SrcMod::Neg
    } else if c.eat_str("(abs)") {
        SrcMod::Abs
    } else if c.eat_str("(~)") {
        SrcMod::Not
    } else {
        SrcMod::None
    };
    if c.rest().starts_with("r[") {
        return Err(unsupported(c, "an indirect operand `r[...]`"));
    }
    if c.rest().starts_with('&') {
        return Err(unsupported(c, "an address-of operand `&V`"));
    }
    let m = c.mark();
    if let Some(var) = c.ident() {
        if c.peek_raw() == Some('(') {
            let (row, col) = two_dim_offset(c)?;
            let (vstride, width, hstride) = src_region(c)?;
            return Ok(Src::General {
                modifier,
                var: var.to_string(),
                row,
                col,
                vstride,
                width,
                hstride,
            });
        }
        if allow_pred && modifier == SrcMod::None {
            return Ok(Src::Pred(var.to_string()));
        }
        c.reset(m);
        return Err(c.error("`(row, col)<vstride; width, hstride>` after the source"));
    }
    if modifier != SrcMod::None {
        return Err(c.error("a variable after the source modifier"));
    }
    immediate(c)
}

/// `SrcImmOperand`: `IntExpUnr:type` (the integer's low bits), `N:f`/`N:df`/`N:hf` (the
/// bits of the float), `1.5:f`, `-2.0e+3:df` (the value, rounded to the type).
pub fn immediate(c: &mut Cursor<'_>) -> Result<Src, VisaError> {
    let start = c.mark();
    let neg = c.eat('-');
    c.skip_ws();
    // A float literal: the value (F32_LIT / F64_LIT include their `:f`/`:df`).
    let lit = c.mark();
    if let Some(text) = c.float_text() {
        let ty = if c.eat_str(":df") {
            Some(VType::Df)
        } else if c.eat_str(":f") {
            Some(VType::F)
        } else {
            None
        };
        if let (Some(ty), Ok(v)) = (ty, text.parse::<f64>()) {
            // `:df` reads the text as a double; `:f` rounds that double to a float as
            // IGC does (`(float)atof(...)`).
            let v = if neg { -v } else { v };
            let bits = if ty == VType::Df {
                v.to_bits()
            } else {
                u64::from((v as f32).to_bits())
            };
            return Ok(Src::Imm { bits, ty });
        }
        c.reset(lit);
    }
    // An integer literal typed as a float: its bits (`1:f` is the smallest denormal).
    let lit = c.mark();
    if let Some(v) = c.number() {
        let ty = if c.eat_raw(':') {
            c.ident().and_then(VType::from_name)
        } else {
            None
        };
        match ty {
            Some(VType::F) => {
                let f = f32::from_bits(v as u32);
                let f = if neg { -f } else { f };
                return Ok(Src::Imm {
                    bits: u64::from(f.to_bits()),
                    ty: VType::F,
                });
            }
            Some(VType::Df) => {
                let f = f64::from_bits(v);
                let f = if neg { -f } else { f };
                return Ok(Src::Imm {
                    bits: f.to_bits(),
                    ty: VType::Df,
                });
            }
            Some(VType::Hf) if !neg => {
                if v >= 0x10000 {
                    c.reset(lit);
                    return Err(c.error("a half-float literal below 0x10000"));
                }
                return Ok(Src::Imm {
                    bits: v,
                    ty: VType::Hf,
                });
            }
            _ => {}
        }
    }
    // `IntExpUnr DataTypeIntOrVector`.
    c.reset(start);
    let v = c.unary_expr()?;
    let ty_mark = c.mark();
    if !c.eat(':') {
        return Err(c.error("`:type` after the immediate"));
    }
    let ty = match c.ident().and_then(VType::from_name) {
        Some(t) if t.is_int() || matches!(t, VType::V | VType::Uv | VType::Vf) => t,
        _ => {
            c.reset(ty_mark);
            return Err(c.error(
                "an integer or packed immediate type (`ud`, `d`, `uw`, `w`, `ub`, `b`, `q`, `uq`, `v`, `uv`, `vf`)",
            ));
        }
    };
    let bits = if ty.size() >= 8 {
        v as u64
    } else {
        (v as u64) & ((1u64 << ty.bits()) - 1)
    };
    Ok(Src::Imm { bits, ty })
}

/// `RawOperand`: `V.offset`, `V.(expr)` or `%null.0`; with `bare_ok`, a plain `V`
/// (`LscPayloadReg`) is `V.0`.
pub fn raw(c: &mut Cursor<'_>, bare_ok: bool) -> Result<Raw, VisaError> {
    let var = c.expect_ident("a raw operand `V.offset`")?.to_string();
    if c.peek_raw() == Some('.') {
        let m = c.mark();
        c.eat_raw('.');
        let offset = if c.peek_raw() == Some('(') {
            c.expect('(')?;
            let v = c.int_expr(true)?;
            c.expect(')')?;
            v
        } else if let Some(v) = c.number() {
            v as i64
        } else {
            // Not an offset (e.g. the channel suffix of a payload); leave the dot.
            c.reset(m);
            return if bare_ok {
                Ok(Raw { var, offset: 0 })
            } else {
                Err(c.error("`.offset` after the raw operand"))
            };
        };
        if !(0..=0x10000).contains(&offset) {
            c.reset(m);
            return Err(c.error("a raw operand offset 0..=0x10000"));
        }
        if var == "%null" && offset != 0 {
            c.reset(m);
            return Err(c.error("`%null.0` (%null must have 0 as offset)"));
        }
        return Ok(Raw {
            var,
            offset: offset as u32,
        });
    }
    if bare_ok {
        Ok(Raw { var, offset: 0 })
    } else {
        Err(c.error("`.offset` after the raw operand"))
    }
}

/// `LscVectorOpRegOrImm`: `V`, `V.N` (element N), `V(row, col)`, or an integer
/// expression.
pub fn scalar(c: &mut Cursor<'_>) -> Result<Scalar, VisaError> {
    if let Some(var) = c.ident() {
        let var = var.to_string();
        if c.peek_raw() == Some('(') {
            let (row, col) = two_dim_offset(c)?;
            return Ok(Scalar::Var { var, row, col });
        }
        if c.peek_raw() == Some('.') {
            let m = c.mark();
            c.eat_raw('.');
            if let Some(n) = c.number() {
                return Ok(Scalar::Var {
                    var,
                    row: 0,
                    col: n as u32,
                });
            }
            c.reset(m);
        }
        return Ok(Scalar::Var {
            var,
            row: 0,
            col: 0,
        });
    }
    Ok(Scalar::Imm(c.int_expr(true)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cur(s: &str) -> Cursor<'_> {
        Cursor::new(s, 3)
    }

    #[test]
    fn predicates_and_exec_sizes() {
        let mut c = cur("(!P12.any) (M5_NM, 16) (8) (NoMask, 1)");
        let p = predicate(&mut c).unwrap().unwrap();
        assert_eq!(
            p,
            PredUse {
                name: "P12".into(),
                invert: true,
                combine: PredCombine::Any
            }
        );
        let e = exec_size(&mut c).unwrap();
        assert_eq!((e.size, e.offset, e.no_mask), (16, 16, true));
        assert_eq!(exec_size(&mut c).unwrap(), ExecCtrl::m1(8));
        let e = exec_size(&mut c).unwrap();
        assert_eq!((e.size, e.offset, e.no_mask), (1, 0, true));
        assert!(exec_size(&mut cur("(M9, 8)")).is_err());
        assert!(exec_size(&mut cur("(M1, 3)")).is_err());
    }

    #[test]
    fn general_operands_and_regions() {
        let mut c = cur("V0048(0,0)<1> (-abs)V0050(1,3)<8;8,1> V7<2>");
        assert_eq!(
            dst(&mut c, false).unwrap(),
            Dst::General {
                var: "V0048".into(),
                row: 0,
                col: 0,
                hstride: 1
            }
        );
        assert_eq!(
            src(&mut c, false).unwrap(),
            Src::General {
                modifier: SrcMod::NegAbs,
                var: "V0050".into(),
                row: 1,
                col: 3,
                vstride: 8,
                width: 8,
                hstride: 1
            }
        );
        assert!(matches!(
            dst(&mut c, false).unwrap(),
            Dst::General { hstride: 2, .. }
        ));
        // CISA.y: a source vertical stride of 3 is rejected.
        assert!(src(&mut cur("V1(0,0)<3;1,0>"), false).is_err());
        assert!(dst(&mut cur("V1(0,0)<3>"), false).is_err());
        assert_eq!(dst(&mut cur("P3"), true).unwrap(), Dst::Pred("P3".into()));
        assert_eq!(src(&mut cur("P3"), true).unwrap(), Src::Pred("P3".into()));
    }

    #[test]
    fn immediates_follow_the_lexer() {
        let imm = |s: &str| match immediate(&mut cur(s)).unwrap() {
            Src::Imm { bits, ty } => (bits, ty),
            other => panic!("{other:?}"),
        };
        // CISA.y: an integer immediate keeps the low bits of its type (IGC's own dumps
        // write `0xffffffff:w` for -1).
        assert_eq!(imm("0xffffffff:w"), (0xffff, VType::W));
        assert_eq!(imm("-1:d"), (0xffff_ffff, VType::D));
        assert_eq!(imm("-1:q"), (u64::MAX, VType::Q));
        assert_eq!(imm("0x76543210:v"), (0x7654_3210, VType::V));
        // `N:f` is the bit pattern N; `1.5:f` is the value 1.5 (0x3fc00000).
        assert_eq!(imm("0x40600000:f"), (0x4060_0000, VType::F));
        assert_eq!(imm("1:f"), (1, VType::F));
        assert_eq!(imm("1.5:f"), (0x3fc0_0000, VType::F));
        assert_eq!(imm("-2.0:f"), (0xc000_0000, VType::F));
        assert_eq!(imm("1.0e+1:df"), (10f64.to_bits(), VType::Df));
        assert_eq!(imm("0x3c00:hf"), (0x3c00, VType::Hf));
        assert_eq!(imm("(1+2):uw"), (3, VType::Uw));
        assert!(immediate(&mut cur("5")).is_err());
    }

    #[test]
    fn raw_operands_and_scalars() {
        let r = raw(&mut cur("V0064.32"), false).unwrap();
        assert_eq!((r.var.as_str(), r.offset), ("V0064", 32));
        assert!(raw(&mut cur("%null.0"), false).unwrap().is_null());
        assert!(raw(&mut cur("%null.4"), false).is_err());
        assert!(raw(&mut cur("V1"), false).is_err());
        let r = raw(&mut cur("V1:d32"), true).unwrap();
        assert_eq!(r.offset, 0);
        assert_eq!(
            scalar(&mut cur("V10.2")).unwrap(),
            Scalar::Var {
                var: "V10".into(),
                row: 0,
                col: 2
            }
        );
        assert_eq!(scalar(&mut cur("0x10")).unwrap(), Scalar::Imm(16));
    }
}
