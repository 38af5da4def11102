//! Indirect register addressing, the subset the back end's shuffles use (as IGC's
//! `sub_group_shuffle` does; vISA spec `5_operands.md`, "Indirect Operand", and
//! `ADDR_ADD`):
//!
//! - `addr_add (exec) A(sub)<1> &V src`: channel `n` sets address element `sub + n` to
//!   the register-file byte address of `V` plus its `uw` byte offset in `src`;
//! - `[(P)] mov (exec) dst r[A(sub),imm]<1,0>:ty`: channel `n` reads the `ty` at address
//!   element `sub + n` plus `imm` (the `VxH` region, one address per channel).
//!
//! An address variable keeps two words per element: the byte address and the end of
//! the variable it was taken in. A read past that variable (or from an element no
//! `addr_add` wrote) is an error: the hardware reads whatever register lies there,
//! which depends on the finalizer's allocation, not on the kernel. Indirect
//! destinations and other instructions with indirect operands stay outside the subset.

use super::control::{mask_enable, pred_mask};
use super::error::{ErrorKind, VisaError};
use super::lanes::{channels, lane_bits, write_dst};
use super::lexer::Cursor;
use super::listing::{InstKind, PredUse};
use super::program::{Program, XAddrAdd, XDst, XMovIndirect};
use super::read_operands::{dst, exec_size, src};
use super::regfile::{RegState, StateKind, VarRef};
use super::types::{ExecCtrl, VType};

/// Whether the instruction's operands (after the execution size) read an indirect
/// source: `mov (exec) dst r[...]`.
pub fn has_indirect_source(c: &mut Cursor<'_>) -> bool {
    // After the execution size `(M1, 16)`, the destination is one token and the
    // source follows it.
    let rest = c.rest();
    rest.split_once(')')
        .and_then(|(_, after)| after.trim_start().split_once(char::is_whitespace))
        .is_some_and(|(_, src)| src.trim_start().starts_with("r["))
}

/// `A(sub)`: an address variable and its element.
fn addr_operand(c: &mut Cursor<'_>) -> Result<(String, u32), VisaError> {
    let a = c.expect_ident("an address variable")?.to_string();
    c.expect('(')?;
    let sub = c.int_expr(true)?;
    c.expect(')')?;
    let sub = u32::try_from(sub).map_err(|_| c.error("an address element 0 to 15"))?;
    Ok((a, sub))
}

/// The operands of `addr_add` (after its mnemonic).
pub fn read_addr_add(c: &mut Cursor<'_>) -> Result<InstKind, VisaError> {
    let exec = exec_size(c)?;
    let (addr, sub) = addr_operand(c)?;
    c.expect('<')?;
    if c.int_expr(true)? != 1 {
        return Err(c.error("the address destination region `<1>`"));
    }
    c.expect('>')?;
    if !c.eat('&') {
        return Err(c.error("`&V`, the variable whose address is taken"));
    }
    let base = c.expect_ident("a variable")?.to_string();
    let s = src(c, false)?;
    c.expect_end()?;
    Ok(InstKind::AddrAdd {
        exec,
        addr,
        sub,
        base,
        src: s,
    })
}

/// The operands of a `mov` whose source is `r[A(sub),imm]<1,0>:ty`.
pub fn read_mov_indirect(c: &mut Cursor<'_>, pred: Option<PredUse>) -> Result<InstKind, VisaError> {
    let exec = exec_size(c)?;
    let d = dst(c, false)?;
    if !c.eat_str("r[") {
        return Err(c.error("an indirect source `r[A(sub),imm]`"));
    }
    let (addr, sub) = addr_operand(c)?;
    c.expect(',')?;
    let imm = c.int_expr(true)?;
    let imm = u32::try_from(imm).map_err(|_| c.error("a non-negative immediate offset"))?;
    c.expect(']')?;
    if !c.eat_str("<1,0>") {
        return Err(c.error("the region `<1,0>` (one address per channel)"));
    }
    c.expect(':')?;
    let ty = c
        .ident()
        .and_then(VType::from_name)
        .ok_or_else(|| c.error("the element type of the indirect source"))?;
    c.expect_end()?;
    Ok(InstKind::MovIndirect {
        pred,
        exec,
        dst: d,
        addr,
        sub,
        imm,
        ty,
    })
}

fn bad(line: u32, reason: String) -> VisaError {
    VisaError::new(line, ErrorKind::BadInstruction { reason })
}

impl Program {
    /// The first word of address variable `name`'s element `sub`, checked to hold the
    /// execution size's elements from there.
    fn addr_words(
        &self,
        name: &str,
        sub: u32,
        exec: ExecCtrl,
        line: u32,
    ) -> Result<u32, VisaError> {
        let st = match self.layout.lookup(name, line)? {
            VarRef::State(i) if self.layout.states[i].kind == StateKind::Address => {
                &self.layout.states[i]
            }
            _ => {
                return Err(VisaError::new(
                    line,
                    ErrorKind::WrongVariableKind {
                        name: name.to_string(),
                        expected: "an address variable",
                    },
                ))
            }
        };
        if sub + u32::from(exec.size) > st.num_elts {
            return Err(bad(
                line,
                format!(
                    "`{name}` has {} elements, but the instruction uses {}..{}",
                    st.num_elts,
                    sub,
                    sub + u32::from(exec.size)
                ),
            ));
        }
        Ok(st.first + 2 * sub)
    }

    /// Resolves `addr_add`.
    pub(super) fn addr_add(&self, kind: &InstKind, line: u32) -> Result<XAddrAdd, VisaError> {
        let InstKind::AddrAdd {
            exec,
            addr,
            sub,
            base,
            src,
        } = kind
        else {
            return Err(bad(line, "not an `addr_add`".into()));
        };
        self.check_exec(*exec, line)?;
        let words = self.addr_words(addr, *sub, *exec, line)?;
        let v = self.layout.general_var(base, line)?;
        let (start, end) = (v.start, v.start + v.size);
        let s = self.src(src, *exec, line, false)?;
        if !matches!(s.ty(), VType::Uw | VType::W) {
            return Err(bad(
                line,
                format!("`addr_add` offsets are `uw`, not `{}`", s.ty()),
            ));
        }
        Ok(XAddrAdd {
            exec: *exec,
            words,
            base: start,
            end,
            src: s,
        })
    }

    /// Resolves a `mov` from an indirect source.
    pub(super) fn mov_indirect(
        &self,
        kind: &InstKind,
        line: u32,
    ) -> Result<XMovIndirect, VisaError> {
        let InstKind::MovIndirect {
            pred,
            exec,
            dst,
            addr,
            sub,
            imm,
            ty,
        } = kind
        else {
            return Err(bad(line, "not an indirect `mov`".into()));
        };
        self.check_exec(*exec, line)?;
        let words = self.addr_words(addr, *sub, *exec, line)?;
        let pred = self.pred_use(pred.as_ref(), *exec, line)?;
        let d = self.dst(dst, *exec, line)?;
        let dt = match &d {
            XDst::Reg { ty, .. } | XDst::Null(ty) => *ty,
            XDst::Pred(_) => VType::Bool,
        };
        if dt.size() != ty.size() || !matches!(ty.class(), super::types::TypeClass::Int) {
            return Err(bad(
                line,
                format!("an indirect `mov` of `{ty}` into `{dt}` (the subset moves integers of one size)"),
            ));
        }
        Ok(XMovIndirect {
            pred,
            exec: *exec,
            dst: d,
            words,
            imm: *imm,
            size: ty.size(),
        })
    }
}

/// Runs `addr_add` under the execution mask `em`.
pub fn addr_add(x: &XAddrAdd, st: &mut RegState, em: u32) {
    for n in channels(mask_enable(x.exec, em)) {
        let off = lane_bits(&x.src, st, n) as u32 & 0xffff;
        let w = (x.words + 2 * n as u32) as usize;
        st.states[w] = x.base + off;
        st.states[w + 1] = x.end;
    }
}

/// Runs an indirect `mov` under the execution mask `em`; a channel whose address lies
/// outside the variable it was taken in is an error.
pub fn mov_indirect(x: &XMovIndirect, st: &mut RegState, em: u32) -> Result<(), ErrorKind> {
    let chen = mask_enable(x.exec, em) & pred_mask(x.exec, x.pred.as_ref(), &st.preds);
    for n in channels(chen) {
        let w = (x.words + 2 * n as u32) as usize;
        let (at, end) = (st.states[w] + x.imm, st.states[w + 1]);
        if end == 0 || at + x.size > end || at as usize + x.size as usize > st.bytes.len() {
            return Err(ErrorKind::BadInstruction {
                reason: format!(
                    "channel {n} reads {} bytes at register-file byte {at}, past the variable its address was taken in (which ends at {end}), or from an address nothing set",
                    x.size
                ),
            });
        }
        let v = st.read(at, x.size);
        write_dst(&x.dst, st, n, v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::error::ErrorKind;
    use super::super::program::Program;
    use super::super::reader::read;
    use super::super::run::{NoMemory, RunConfig, Thread, ThreadInit};
    use super::super::testing::{elems, kernel, run};

    const DECLS: &str = ".decl V v_type=G type=ud num_elts=8 align=GRF
.decl Q v_type=G type=uq num_elts=8 align=GRF
.decl O v_type=G type=uw num_elts=8 align=GRF
.decl R v_type=G type=ud num_elts=8 align=GRF
.decl A0 v_type=A num_elts=8";

    /// V = 10 * lane, O = the byte offset of lane (7 - lane) (by hand: 28, 24, ... 0).
    const SETUP: &str = "mov (M1, 8) V(0,0)<1> 0x76543210:uv
mul (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 10:ud
mov (M1, 8) O(0,0)<1> 0x01234567:uv
shl (M1, 8) O(0,0)<1> O(0,0)<1;1,0> 2:uw";

    #[test]
    fn each_channel_reads_at_its_own_address() {
        let body = format!(
            "{SETUP}
addr_add (M1, 8) A0(0)<1> &V O(0,0)<1;1,0>
mov (M1, 8) R(0,0)<1> r[A0(0),0]<1,0>:ud"
        );
        let (p, t) = run(&kernel(8, DECLS, &body), 8);
        assert_eq!(elems(&p, &t, "R"), [70, 60, 50, 40, 30, 20, 10, 0]);
        // The high dword of 64-bit lanes: Q's lane k is k << 32 | k.
        let body = "mov (M1, 8) V(0,0)<1> 0x76543210:uv
mov (M1, 8) Q(0,0)<1> V(0,0)<1;1,0>
shl (M1, 8) Q(0,0)<1> Q(0,0)<1;1,0> 32:uq
or (M1, 8) Q(0,0)<1> Q(0,0)<1;1,0> V(0,0)<1;1,0>
mov (M1, 8) O(0,0)<1> 0x01234567:uv
shl (M1, 8) O(0,0)<1> O(0,0)<1;1,0> 3:uw
addr_add (M1, 8) A0(0)<1> &Q O(0,0)<1;1,0>
mov (M1, 8) R(0,0)<1> r[A0(0),4]<1,0>:ud";
        let (p, t) = run(&kernel(8, DECLS, body), 8);
        assert_eq!(elems(&p, &t, "R"), [7, 6, 5, 4, 3, 2, 1, 0]);
    }

    #[test]
    fn a_read_past_the_addressed_variable_is_an_error() {
        // Lane 0's address points at V's last dword; 4 bytes further is past V.
        let body = format!(
            "{SETUP}
addr_add (M1, 8) A0(0)<1> &V O(0,0)<1;1,0>
mov (M1, 8) R(0,0)<1> r[A0(0),4]<1,0>:ud"
        );
        let text = kernel(8, DECLS, &body);
        let listing = read(&text).unwrap();
        let program = Program::new(&listing, 32, 1 << 20).unwrap();
        let config = RunConfig::default();
        let payload = vec![0u8; 4096];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        let e = t.run(&program, &mut NoMemory, &config).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadInstruction { .. }), "{e}");
        assert!(e.to_string().contains("channel 0"), "{e}");
        // An address variable is no surface, and a general variable no address.
        let bad = kernel(8, DECLS, "movs (M1_NM, 1) A0(0) 0x1:ud");
        assert!(Program::new(&read(&bad).unwrap(), 32, 1 << 20).is_err());
        let bad = kernel(8, DECLS, "addr_add (M1, 8) R(0)<1> &V O(0,0)<1;1,0>");
        assert!(Program::new(&read(&bad).unwrap(), 32, 1 << 20).is_err());
    }
}
