//! The register side of the legacy data-port messages: which operand forms each
//! instruction takes, where its operands lie in the register file and how many bytes
//! each covers, as IGC's vISA specification (`documentation/visa/instructions/`) lays
//! them out. What the memory does with them is [`super::port_dataport`]'s.
//!
//! * **Four-channel data** (`gather4_typed`, `scatter4_typed`, `gather4_scaled`,
//!   `scatter4_scaled`, `svm_gather4scaled`, `svm_scatter4scaled`): one 32-bit element
//!   per lane and enabled channel, the channels in RGBA order, each channel's block
//!   starting a register: element `ch_pos * max(exec_size, GRF_SIZE / 4) + i` (the
//!   pages' pseudo-code).
//! * **Typed coordinates** U, V, R, LOD: `exec_size` 32-bit elements each; `%null`
//!   where a coordinate does not apply (read as 0).
//! * **Offsets and addresses**: `exec_size` elements of 32 bits (`gather4_scaled`,
//!   `gather_scaled`, `gather`, `dword_atomic`) or 64 bits (the `svm_*` messages).
//! * **Scattered data** (`gather_scaled`, `gather`): a 32-bit element per lane, the
//!   bytes moved in its low bytes; `svm_gather.1.N` the same for N up to 4 and a 64-bit
//!   element per lane for 8 (`SVM_GATHER.md`'s register tables).
//! * **Atomic operands and results**: an element per lane of 32 bits (16- and 32-bit
//!   atomics: "only the lower 16bit part of each dword is used") or 64 bits
//!   (`svm_atomic.64`).
//!
//! Execution sizes are the pages' (typed messages 8; the four-channel untyped ones 8
//! and 16; `dword_atomic` and `svm_gather` up to 16, `gather_scaled` up to 32,
//! `gather` 1, 8 or 16, `svm_atomic` up to 8). `svm_gather`/`svm_scatter` with 4- or
//! 8-byte blocks have no counterpart among the executor's messages and are refused as
//! unsupported.

use super::error::{ErrorKind, VisaError};
use super::listing::{DataportInst, DpOpcode, Raw, Scalar, Src, VisaAtomicOp};
use super::payload::{
    resolve_raw, resolve_scalar, simt_span, DpSurfaceRef, RawRef, ScalarRef, XDataport,
};
use super::regfile::{Layout, VarRef};

/// What each operand of one message covers.
struct Operands<'a> {
    layout: &'a Layout,
    d: &'a DataportInst,
    line: u32,
}

impl Operands<'_> {
    fn bad(&self, reason: String) -> VisaError {
        VisaError::new(self.line, ErrorKind::BadInstruction { reason })
    }

    /// The raw operand `r` with elements of `esz` bytes (checked against its variable's
    /// type), covering `bytes`; `None` for `%null`.
    fn raw(
        &self,
        r: &Raw,
        esz: u32,
        bytes: u32,
        operand: &'static str,
    ) -> Result<Option<RawRef>, VisaError> {
        let Some(rr) = resolve_raw(self.layout, r, bytes, self.line)? else {
            return Ok(None);
        };
        if rr.ty.size() != esz {
            return Err(VisaError::new(
                self.line,
                ErrorKind::BadType {
                    op: self.d.op.name(),
                    operand,
                    ty: rr.ty,
                    rule: if esz == 8 {
                        "this operand has 64-bit elements (uq, q)"
                    } else {
                        "this operand has 32-bit elements (ud, d, f)"
                    },
                },
            ));
        }
        Ok(Some(rr))
    }

    /// Like [`Operands::raw`], but `%null` is an error.
    fn required(
        &self,
        r: &Raw,
        esz: u32,
        bytes: u32,
        operand: &'static str,
    ) -> Result<RawRef, VisaError> {
        self.raw(r, esz, bytes, operand)?
            .ok_or_else(|| self.bad(format!("{operand} may not be %null")))
    }

    fn surface(&self) -> Result<Option<DpSurfaceRef>, VisaError> {
        let Some(name) = &self.d.surface else {
            return Ok(None);
        };
        if name == "%slm" {
            if matches!(
                self.d.op,
                DpOpcode::Gather4Typed | DpOpcode::Scatter4Typed | DpOpcode::TypedAtomic
            ) {
                return Err(self.bad(format!(
                    "`{}` addresses a typed surface, not shared local memory (%slm)",
                    self.d.op.name()
                )));
            }
            return Ok(Some(DpSurfaceRef::Slm));
        }
        if name == "%scratch" {
            // The thread's scratch space (vISA's T5, the stateless binding-table index
            // 255): the interpreter runs the untyped reads and writes the back end
            // emits there ([`super::scratch`]).
            if !matches!(
                self.d.op,
                DpOpcode::Gather4Scaled | DpOpcode::Scatter4Scaled
            ) {
                return Err(VisaError::new(
                    self.line,
                    ErrorKind::Unsupported {
                        what: format!(
                            "`{}` on %scratch (the interpreter runs gather4_scaled and scatter4_scaled there)",
                            self.d.op.name()
                        ),
                    },
                ));
            }
            return Ok(Some(DpSurfaceRef::Scratch));
        }
        match self.layout.lookup(name, self.line)? {
            VarRef::State(i)
                if self.layout.states[i].kind == super::regfile::StateKind::Surface =>
            {
                Ok(Some(DpSurfaceRef::State(self.layout.states[i].first)))
            }
            _ => Err(VisaError::new(
                self.line,
                ErrorKind::WrongVariableKind {
                    name: name.clone(),
                    expected: "a surface variable, %slm or %scratch",
                },
            )),
        }
    }

    /// The global offset: an integer immediate or a register element.
    fn offset(&self) -> Result<Option<ScalarRef>, VisaError> {
        match &self.d.offset {
            None => Ok(None),
            Some(Src::Imm { bits, ty }) if ty.is_int() => Ok(Some(ScalarRef::Imm(*bits as i64))),
            Some(Src::General {
                var,
                row,
                col,
                modifier,
                ..
            }) if *modifier == super::types::SrcMod::None => {
                let s = Scalar::Var {
                    var: var.clone(),
                    row: *row,
                    col: *col,
                };
                resolve_scalar(self.layout, &s, self.line).map(Some)
            }
            Some(_) => Err(self.bad(format!(
                "the global offset of `{}` is an integer immediate or a register element",
                self.d.op.name()
            ))),
        }
    }

    fn exec_sizes(&self) -> &'static [u8] {
        match self.d.op {
            DpOpcode::Gather4Typed | DpOpcode::Scatter4Typed | DpOpcode::TypedAtomic => &[8],
            DpOpcode::Gather4Scaled
            | DpOpcode::Scatter4Scaled
            | DpOpcode::SvmGather4Scaled
            | DpOpcode::SvmScatter4Scaled => &[8, 16],
            DpOpcode::DwordAtomic | DpOpcode::SvmGather | DpOpcode::SvmScatter => &[1, 2, 4, 8, 16],
            DpOpcode::GatherScaled | DpOpcode::ScatterScaled => &[1, 2, 4, 8, 16, 32],
            DpOpcode::Gather | DpOpcode::Scatter => &[1, 8, 16],
            DpOpcode::SvmAtomic => &[1, 2, 4, 8],
            DpOpcode::OwordLd => &[1],
        }
    }

    /// Checks the atomic operation against its width and operands (`DWORD_ATOMIC.md`,
    /// `SVM_ATOMIC.md`, `TYPED_ATOMIC.md`).
    fn check_atomic(&self, a: VisaAtomicOp) -> Result<(), VisaError> {
        let d = self.d;
        if a.is_float() && d.bits == 64 {
            return Err(self.bad(format!(
                "`{}` has no 64-bit float atomics (HF and F only)",
                a.name()
            )));
        }
        if a.is_float() && d.op == DpOpcode::TypedAtomic {
            return Err(self.bad(format!(
                "typed atomics have no float operations (`{}`)",
                a.name()
            )));
        }
        let n = a.num_srcs();
        for (k, s) in d.srcs.iter().enumerate() {
            if k >= n && !s.is_null() {
                return Err(self.bad(format!(
                    "`{}` takes {n} data operand(s): src{k} must be %null",
                    a.name()
                )));
            }
            if k < n && s.is_null() {
                return Err(self.bad(format!("`{}` needs src{k}", a.name())));
            }
        }
        Ok(())
    }

    fn resolve(&self) -> Result<XDataport, VisaError> {
        let d = self.d;
        let grf = self.layout.grf;
        let exec = u32::from(d.exec.size);
        let name = d.op.name();
        if !self.exec_sizes().contains(&d.exec.size) {
            return Err(self.bad(format!(
                "`{name}` has execution size {}, not {exec}",
                self.exec_sizes()
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if matches!(d.op, DpOpcode::SvmGather | DpOpcode::SvmScatter) {
            if d.block_size != 1 {
                return Err(VisaError::new(
                    self.line,
                    ErrorKind::Unsupported {
                        what: format!(
                            "`{name}` with {}-byte blocks (the interpreter runs 1-byte blocks, \
                             the A64 byte scattered messages)",
                            d.block_size
                        ),
                    },
                ));
            }
            if d.num_blocks > 1 && exec < 8 {
                return Err(self.bad(format!(
                    "`{name}` of {} blocks needs an execution size of at least 8",
                    d.num_blocks
                )));
            }
        }
        if let Some(a) = d.atomic {
            self.check_atomic(a)?;
        }
        let svm = matches!(
            d.op,
            DpOpcode::SvmGather4Scaled
                | DpOpcode::SvmScatter4Scaled
                | DpOpcode::SvmGather
                | DpOpcode::SvmScatter
                | DpOpcode::SvmAtomic
        );
        // The element size of the address operands, and of the data.
        let addr_esz = if svm { 8 } else { 4 };
        let data_esz = match d.op {
            DpOpcode::SvmAtomic if d.bits == 64 => 8,
            DpOpcode::SvmGather | DpOpcode::SvmScatter if d.num_blocks == 8 => 8,
            _ => 4,
        };
        let data_bytes = if d.op == DpOpcode::OwordLd {
            // The owords land in consecutive bytes from the destination's start,
            // which starts a register (the operand is raw).
            if self.surface()? == Some(DpSurfaceRef::Slm) || self.surface()?.is_none() {
                return Err(self.bad(
                    "`oword_ld` reads a buffer's binding-table surface (the data port's \
                     shared-memory block reads are ICL's and later)"
                        .into(),
                ));
            }
            16 * u32::from(d.num_blocks)
        } else if d.op.has_channels() {
            simt_span(d.channels.count_ones(), exec, 4, grf)
        } else {
            exec * data_esz
        };
        let typed = matches!(
            d.op,
            DpOpcode::Gather4Typed | DpOpcode::Scatter4Typed | DpOpcode::TypedAtomic
        );
        let addr = d
            .addr
            .iter()
            .map(|r| {
                if typed {
                    self.raw(r, 4, exec * 4, "a coordinate")
                } else {
                    self.required(r, addr_esz, exec * addr_esz, "the address operand")
                        .map(Some)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if typed && addr.first().is_some_and(Option::is_none) {
            return Err(self.bad(format!("the U coordinate of `{name}` may not be %null")));
        }
        let srcs = d
            .srcs
            .iter()
            .map(|r| {
                if d.op.is_atomic() {
                    self.raw(r, data_esz, data_bytes, "an atomic operand")
                } else {
                    self.required(r, data_esz, data_bytes, "the data").map(Some)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let dst = match &d.dst {
            Some(r) => self.raw(r, data_esz, data_bytes, "the destination")?,
            None => None,
        };
        if d.op == DpOpcode::OwordLd && dst.is_some_and(|r| r.start % grf != 0) {
            return Err(self.bad(format!(
                "the destination of `{name}` starts a register (a message writes whole registers)"
            )));
        }
        Ok(XDataport {
            op: d.op,
            exec: d.exec,
            channels: d.channels,
            atomic: d.atomic,
            bits: d.bits,
            block_size: d.block_size,
            num_blocks: d.num_blocks,
            surface: self.surface()?,
            offset: self.offset()?,
            addr,
            srcs,
            dst,
        })
    }
}

/// Resolves the data-port message `d` of line `line` on `layout`: checks its execution
/// size, operation, surface and operand types, and that every operand covers the bytes
/// the message reads or writes.
pub fn resolve_dataport(
    layout: &Layout,
    d: &DataportInst,
    line: u32,
) -> Result<XDataport, VisaError> {
    Operands { layout, d, line }.resolve()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::listing::{InstKind, Stmt};
    use crate::visa::reader::read;

    const DECLS: &str = ".decl A v_type=G type=uq num_elts=16\n\
        .decl D v_type=G type=ud num_elts=128\n\
        .decl DD v_type=G type=d num_elts=16 alias=<D, 0>\n\
        .decl W v_type=G type=uw num_elts=16\n\
        .decl T6 v_type=T num_elts=1\n\
        .decl S0 v_type=S num_elts=1";

    fn resolve(body: &str) -> Result<XDataport, VisaError> {
        let text = format!(".version 4.1\n.kernel k\n{DECLS}\n{body}\n");
        let listing = read(&text).unwrap_or_else(|e| panic!("{body}: {e}"));
        let layout = Layout::new(&listing, 32, 1 << 20).unwrap();
        let Some(Stmt::Inst(i)) = listing.body.first() else {
            panic!()
        };
        let InstKind::Dataport(d) = &i.kind else {
            panic!("{:?}", i.kind)
        };
        resolve_dataport(&layout, d, i.line)
    }

    #[test]
    fn footprints_follow_the_pages_register_layouts() {
        // Two channels of 16 lanes on 32-byte registers: 2 registers each, the second
        // channel's last one full: 64 + 64 bytes.
        let m = resolve("gather4_scaled.RA (M1, 16) T6 0x10:ud D.0 D.128").unwrap();
        assert_eq!(m.dst.unwrap().bytes, 128);
        assert_eq!(m.addr[0].unwrap().bytes, 64);
        assert_eq!(m.surface, Some(DpSurfaceRef::State(0)));
        assert_eq!(m.offset, Some(ScalarRef::Imm(0x10)));
        // Typed: SIMD8, each coordinate 32 bytes; %null coordinates are None.
        let m = resolve("gather4_typed.RGB (M3, 8) T6 D.0 D.32 %null.0 %null.0 D.64").unwrap();
        assert_eq!(
            m.addr.iter().map(Option::is_some).collect::<Vec<_>>(),
            [true, true, false, false]
        );
        assert_eq!(m.dst.unwrap().bytes, 3 * 32);
        // A64: 8-byte addresses; a 64-bit atomic's operands are 8 bytes per lane.
        let m = resolve("svm_atomic.cmpxchg.64 (M1, 8) A.0 A.64 A.0 A.64").unwrap();
        assert_eq!((m.addr[0].unwrap().bytes, m.dst.unwrap().bytes), (64, 64));
        let m = resolve("svm_gather.1.8 (M1, 8) A.0 A.64").unwrap();
        assert_eq!(m.dst.unwrap().bytes, 64);
        let m = resolve("svm_gather.1.2 (M1, 16) A.0 D.0").unwrap();
        assert_eq!(m.dst.unwrap().bytes, 64);
        // %slm and an SLM dword atomic of 16 lanes with one operand.
        let m = resolve("dword_atomic.maxsint (M1, 16) %slm D.0 DD.0 %null.0 DD.0").unwrap();
        assert_eq!(m.surface, Some(DpSurfaceRef::Slm));
        assert_eq!(m.srcs[1], None);
    }

    #[test]
    fn rules_of_the_pages_are_errors_of_the_line() {
        for body in [
            // Typed messages are SIMD8.
            "gather4_typed.R (M1, 16) T6 D.0 %null.0 %null.0 %null.0 D.64",
            // svm_atomic has no SIMD16.
            "svm_atomic.add (M1, 16) A.0 D.0 D.64 %null.0",
            // Typed surfaces are not SLM; a sampler is no surface.
            "gather4_typed.R (M1, 8) %slm D.0 %null.0 %null.0 %null.0 D.64",
            "gather4_scaled.R (M1, 8) S0 0x0:ud D.0 D.64",
            // U may not be %null; addresses are 64-bit on svm, 32-bit elsewhere.
            "scatter4_typed.R (M1, 8) T6 %null.0 D.0 %null.0 %null.0 D.64",
            "svm_gather4scaled.R (M1, 8) 0x0:uq D.0 D.64",
            "gather_scaled.4 (M1, 8) T6 0x0:ud A.0 D.0",
            // Operand counts of the atomic operations.
            "dword_atomic.inc (M1, 8) T6 D.0 D.32 %null.0 D.64",
            "dword_atomic.cmpxchg (M1, 8) T6 D.0 D.32 %null.0 D.64",
            "svm_atomic.fmax.64 (M1, 8) A.0 A.64 A.0 %null.0",
            "typed_atomic.fmin (M1, 8) T6 D.0 %null.0 %null.0 %null.0 D.32 %null.0 D.64",
            // 16-bit data registers; a payload past its variable.
            "scatter_scaled.2 (M1, 16) T6 0x0:ud D.0 W.0",
            "gather4_scaled.RGBA (M1, 16) T6 0x0:ud D.0 D.320",
            // More than one block needs SIMD8.
            "svm_gather.1.4 (M1, 4) A.0 D.0",
        ] {
            let e = resolve(body).expect_err(body);
            assert_eq!(e.line, 9, "{body}: {e}");
        }
        // 4-byte blocks: valid vISA the interpreter does not run.
        let e = resolve("svm_gather.4.1 (M1, 8) A.0 D.0").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported { .. }), "{e}");
    }
}
