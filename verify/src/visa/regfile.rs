//! The register file of a vISA kernel: where each declared variable lives, following
//! vISA's declarations, types and aliases (IGC `documentation/visa/4_visa_header.md`,
//! "Variables"), on byte storage whose registers (GRFs) are 32 bytes (DG2, MTL) or
//! 64 bytes (PVC, Xe2) long.
//!
//! Every general variable that is not an alias gets its own bytes, laid out as the
//! finalizer does (the "implementation note" of `5_operands.md`): a variable of at least
//! one register starts on a register boundary; a smaller one sits inside one register.
//! An alias (`alias=<V, off>`) is a view of its base's bytes from `off`. Predicates,
//! surfaces and samplers are kept apart (they are not register bytes in vISA either).
//!
//! The predefined variables the back end can use exist as in IGC's
//! `visa/PreDefinedVars.cpp`: `%null` (writes are dropped), `%r0` (the thread payload
//! header, register 0 of the payload) with its views `%group_id_x` (byte 4),
//! `%group_id_y` (byte 24), `%group_id_z` (byte 28), `%thread_x` (4) and `%thread_y`
//! (6); `%arg`, `%retval`, `%sp`, `%fp`, `%hw_id`, `%sr0` (whose dword 2 is the dispatch
//! mask), `%cr0` (the float mode), `%dbg0` and `%color`. The others (`%tsc`, `%ce0`,
//! `%msg0`, ...) are unsupported.

use super::error::{ErrorKind, VisaError};
use super::listing::{Align, DeclKind, Listing};
use super::types::VType;
use std::collections::HashMap;

/// A general variable's place in the register file.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneralVar {
    /// Its name.
    pub name: String,
    /// Element type.
    pub ty: VType,
    /// Elements.
    pub num_elts: u32,
    /// First byte in the register file.
    pub start: u32,
    /// Bytes (`num_elts * size(ty)`).
    pub size: u32,
    /// The variable this one aliases, if any.
    pub alias_of: Option<usize>,
    /// Line of the declaration (0 for predefined variables).
    pub line: u32,
}

/// A predicate variable.
#[derive(Clone, Debug, PartialEq)]
pub struct PredVar {
    /// Its name.
    pub name: String,
    /// Bits (1, 2, 4, 8, 16 or 32).
    pub bits: u32,
    /// Line of the declaration.
    pub line: u32,
}

/// Surface (`T`), sampler (`S`) or address (`A`) variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// A surface.
    Surface,
    /// A sampler.
    Sampler,
    /// An address variable (`v_type=A`): two words per element, see
    /// `super::indirect`.
    Address,
}

/// A surface or sampler variable (one 32-bit handle per element) or an address variable
/// (two words per element).
#[derive(Clone, Debug, PartialEq)]
pub struct StateVar {
    /// Its name.
    pub name: String,
    /// Surface, sampler or address.
    pub kind: StateKind,
    /// Elements.
    pub num_elts: u32,
    /// Index of its first element in [`Layout::state_words`].
    pub first: u32,
    /// Line of the declaration.
    pub line: u32,
}

/// What a name refers to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VarRef {
    /// A general variable (index into [`Layout::general`]).
    General(usize),
    /// A predicate (index into [`Layout::preds`]).
    Pred(usize),
    /// A surface, sampler or address variable (index into [`Layout::states`]).
    State(usize),
    /// A predefined variable the interpreter does not model.
    Reserved,
}

/// Where an `.input` puts its bytes at kernel entry.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSlot {
    /// The variable.
    pub var: VarRef,
    /// Its name.
    pub name: String,
    /// Byte offset in the payload (the register file at kernel entry).
    pub offset: u32,
    /// Bytes.
    pub size: u32,
    /// Line of the `.input`.
    pub line: u32,
}

/// The register file's layout.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Bytes per register: 32 or 64.
    pub grf: u32,
    /// Every general variable, predefined ones first.
    pub general: Vec<GeneralVar>,
    /// Every predicate.
    pub preds: Vec<PredVar>,
    /// Every surface and sampler.
    pub states: Vec<StateVar>,
    /// Surface and sampler elements in all.
    pub state_words: u32,
    /// Every input, in order.
    pub inputs: Vec<InputSlot>,
    /// Bytes of the register file.
    pub bytes: u32,
    names: HashMap<String, (VarRef, u32)>,
}

/// Byte offsets of the predefined views of `%r0`.
pub const GROUP_ID_X_BYTE: u32 = 4;
/// `%group_id_y` is `%r0` dword 6.
pub const GROUP_ID_Y_BYTE: u32 = 24;
/// `%group_id_z` is `%r0` dword 7.
pub const GROUP_ID_Z_BYTE: u32 = 28;

/// Predefined names the interpreter does not model.
const RESERVED: [&str; 14] = [
    "%tsc",
    "%ce0",
    "%msg0",
    "%impl_arg_buf_ptr",
    "%local_id_buf_ptr",
    "%local_id_x",
    "%local_id_y",
    "%local_size_x",
    "%local_size_y",
    "%group_count_x",
    "%group_count_y",
    "%slm",
    "%bss",
    "%scratch",
];

impl Layout {
    /// Lays out the variables of `listing` on registers of `grf` bytes, in at most
    /// `max_bytes` bytes.
    pub fn new(listing: &Listing, grf: u32, max_bytes: u64) -> Result<Layout, VisaError> {
        let mut l = Layout {
            grf,
            general: Vec::new(),
            preds: Vec::new(),
            states: Vec::new(),
            state_words: 0,
            inputs: Vec::new(),
            bytes: 0,
            names: HashMap::new(),
        };
        let mut next: u64 = 0;
        l.predefine(&mut next);
        for d in &listing.decls {
            if let Some((_, first)) = l.names.get(&d.name) {
                return Err(VisaError::new(
                    d.line,
                    ErrorKind::Redeclared {
                        name: d.name.clone(),
                        first_line: *first,
                    },
                ));
            }
            let bad = |reason: String| {
                VisaError::new(
                    d.line,
                    ErrorKind::BadDeclaration {
                        name: d.name.clone(),
                        reason,
                    },
                )
            };
            let r = match &d.kind {
                DeclKind::General {
                    ty,
                    num_elts,
                    align,
                    alias,
                } => {
                    if !(1..=4096).contains(num_elts) {
                        return Err(bad(format!(
                            "a general variable has 1 to 4096 elements, not {num_elts}"
                        )));
                    }
                    let size = num_elts * ty.size();
                    let (start, alias_of) = match alias {
                        Some((base, off)) => {
                            let b = match l.names.get(base) {
                                Some((VarRef::General(b), _)) => *b,
                                Some(_) => {
                                    return Err(VisaError::new(
                                        d.line,
                                        ErrorKind::WrongVariableKind {
                                            name: base.clone(),
                                            expected: "a general variable",
                                        },
                                    ))
                                }
                                None => {
                                    return Err(VisaError::new(
                                        d.line,
                                        ErrorKind::UnknownVariable { name: base.clone() },
                                    ))
                                }
                            };
                            if off % ty.size() != 0 {
                                return Err(bad(format!(
                                    "the alias offset {off} is not aligned to its type {ty}"
                                )));
                            }
                            let base_size = l.general[b].size;
                            if u64::from(*off) + u64::from(size) > u64::from(base_size) {
                                return Err(bad(format!(
                                    "the alias covers bytes {off}..{} of `{base}`, which has {base_size}",
                                    u64::from(*off) + u64::from(size)
                                )));
                            }
                            (l.general[b].start + off, Some(b))
                        }
                        None => {
                            let align = match align {
                                Some(Align::Bytes(n)) => *n,
                                Some(Align::Grf) => grf,
                                Some(Align::Grf2) => 2 * grf,
                                None => 1,
                            };
                            (l.place(&mut next, size, align.max(ty.size())), None)
                        }
                    };
                    l.general.push(GeneralVar {
                        name: d.name.clone(),
                        ty: *ty,
                        num_elts: *num_elts,
                        start,
                        size,
                        alias_of,
                        line: d.line,
                    });
                    VarRef::General(l.general.len() - 1)
                }
                DeclKind::Predicate { num_elts } => {
                    if ![1, 2, 4, 8, 16, 32].contains(num_elts) {
                        return Err(bad(format!(
                            "a predicate has 1, 2, 4, 8, 16 or 32 elements, not {num_elts}"
                        )));
                    }
                    l.preds.push(PredVar {
                        name: d.name.clone(),
                        bits: *num_elts,
                        line: d.line,
                    });
                    VarRef::Pred(l.preds.len() - 1)
                }
                DeclKind::Address { num_elts } => {
                    if !(1..=16).contains(num_elts) {
                        return Err(bad(format!(
                            "an address variable has 1 to 16 elements, not {num_elts}"
                        )));
                    }
                    // Two words per element: the byte address and the end of the
                    // variable it was taken in (`super::indirect`).
                    l.states.push(StateVar {
                        name: d.name.clone(),
                        kind: StateKind::Address,
                        num_elts: *num_elts,
                        first: l.state_words,
                        line: d.line,
                    });
                    l.state_words += 2 * num_elts;
                    VarRef::State(l.states.len() - 1)
                }
                DeclKind::Surface { num_elts } | DeclKind::Sampler { num_elts } => {
                    if !(1..=256).contains(num_elts) {
                        return Err(bad(format!(
                            "a surface or sampler has 1 to 256 elements, not {num_elts}"
                        )));
                    }
                    let kind = if matches!(d.kind, DeclKind::Surface { .. }) {
                        StateKind::Surface
                    } else {
                        StateKind::Sampler
                    };
                    l.states.push(StateVar {
                        name: d.name.clone(),
                        kind,
                        num_elts: *num_elts,
                        first: l.state_words,
                        line: d.line,
                    });
                    l.state_words += num_elts;
                    VarRef::State(l.states.len() - 1)
                }
            };
            l.names.insert(d.name.clone(), (r, d.line));
            if next > max_bytes {
                return Err(VisaError::new(
                    d.line,
                    ErrorKind::RegisterFileTooLarge {
                        bytes: next,
                        limit: max_bytes,
                    },
                ));
            }
        }
        l.bytes = u32::try_from(next).unwrap_or(u32::MAX);
        l.lay_out_inputs(listing)?;
        Ok(l)
    }

    /// Places `size` bytes aligned to `align` without crossing a register boundary
    /// unless the variable is at least one register (then it starts on one).
    fn place(&self, next: &mut u64, size: u32, align: u32) -> u32 {
        let grf = u64::from(self.grf);
        let align = if size >= self.grf {
            u64::from(align.max(self.grf))
        } else {
            u64::from(align.max(1))
        };
        let mut start = next.div_ceil(align) * align;
        if size < self.grf && start / grf != (start + u64::from(size) - 1) / grf {
            start = start.div_ceil(grf) * grf;
        }
        *next = start + u64::from(size);
        start as u32
    }

    fn predefine(&mut self, next: &mut u64) {
        let grf = self.grf;
        let mut root = |l: &mut Layout, name: &str, ty: VType, n: u32| -> usize {
            let size = n * ty.size();
            let start = l.place(next, size, ty.size());
            l.general.push(GeneralVar {
                name: name.into(),
                ty,
                num_elts: n,
                start,
                size,
                alias_of: None,
                line: 0,
            });
            let i = l.general.len() - 1;
            l.names.insert(name.into(), (VarRef::General(i), 0));
            i
        };
        // %r0 first, so it is register 0 as in the hardware payload.
        let r0 = root(self, "%r0", VType::Ud, 8);
        root(self, "%null", VType::Ud, 1);
        let big = if grf >= 64 { 2 } else { 1 };
        root(self, "%arg", VType::Ud, 256 * big);
        root(self, "%retval", VType::Ud, 96 * big);
        root(self, "%sp", VType::Uq, 1);
        root(self, "%fp", VType::Uq, 1);
        root(self, "%hw_id", VType::Ud, 1);
        root(self, "%sr0", VType::Ud, 4);
        root(self, "%cr0", VType::Ud, 1);
        root(self, "%dbg0", VType::Ud, 2);
        root(self, "%color", VType::Uw, 1);
        let r0_start = self.general[r0].start;
        for (name, ty, byte) in [
            ("%group_id_x", VType::Ud, GROUP_ID_X_BYTE),
            ("%group_id_y", VType::Ud, GROUP_ID_Y_BYTE),
            ("%group_id_z", VType::Ud, GROUP_ID_Z_BYTE),
            ("%thread_x", VType::Uw, 4),
            ("%thread_y", VType::Uw, 6),
        ] {
            self.general.push(GeneralVar {
                name: name.into(),
                ty,
                num_elts: 1,
                start: r0_start + byte,
                size: ty.size(),
                alias_of: Some(r0),
                line: 0,
            });
            self.names
                .insert(name.into(), (VarRef::General(self.general.len() - 1), 0));
        }
        for name in RESERVED {
            self.names.insert(name.into(), (VarRef::Reserved, 0));
        }
    }

    fn lay_out_inputs(&mut self, listing: &Listing) -> Result<(), VisaError> {
        let mut taken: Vec<(u32, u32, u32)> = Vec::new();
        for input in &listing.inputs {
            let bad = |reason: String| {
                VisaError::new(
                    input.line,
                    ErrorKind::BadDeclaration {
                        name: input.name.clone(),
                        reason,
                    },
                )
            };
            let (var, size, align) = match self.lookup(&input.name, input.line)? {
                VarRef::General(i) => {
                    let v = &self.general[i];
                    if v.alias_of.is_some() || v.line == 0 {
                        return Err(bad(
                            "an input is a declared variable that is not an alias".into()
                        ));
                    }
                    (VarRef::General(i), v.size, v.ty.size())
                }
                VarRef::State(i) => (VarRef::State(i), self.states[i].num_elts * 4, 4),
                _ => {
                    return Err(VisaError::new(
                        input.line,
                        ErrorKind::WrongVariableKind {
                            name: input.name.clone(),
                            expected: "a general, surface or sampler variable",
                        },
                    ))
                }
            };
            let given = input.size.unwrap_or(size);
            if given != size {
                return Err(bad(format!(
                    "the input's size is {given} bytes, but the variable has {size}"
                )));
            }
            let off = input.offset;
            if off % align != 0 {
                return Err(bad(format!(
                    "input offset {off} is not aligned to {align} bytes"
                )));
            }
            if size >= self.grf && off % self.grf != 0 {
                return Err(bad(format!(
                    "an input of at least one register starts on a register boundary, not at {off}"
                )));
            }
            if size < self.grf && off / self.grf != (off + size - 1) / self.grf {
                return Err(bad(format!(
                    "an input smaller than a register may not cross one ({off}..{})",
                    off + size
                )));
            }
            if let Some((_, _, line)) = taken
                .iter()
                .find(|(o, s, _)| off < o + s && *o < off + size)
            {
                return Err(bad(format!("the input overlaps the input of line {line}")));
            }
            taken.push((off, size, input.line));
            self.inputs.push(InputSlot {
                var,
                name: input.name.clone(),
                offset: off,
                size,
                line: input.line,
            });
        }
        Ok(())
    }

    /// The variable `name` used on line `line`: an error if it is not declared, or is
    /// declared after `line` (IGC's parser finds only earlier declarations).
    pub fn lookup(&self, name: &str, line: u32) -> Result<VarRef, VisaError> {
        match self.names.get(name) {
            Some((VarRef::Reserved, _)) => Err(VisaError::new(
                line,
                ErrorKind::Unsupported {
                    what: format!("the predefined variable `{name}`"),
                },
            )),
            Some((r, decl_line)) if *decl_line <= line => Ok(*r),
            _ => Err(VisaError::new(
                line,
                ErrorKind::UnknownVariable {
                    name: name.to_string(),
                },
            )),
        }
    }

    /// The general variable `name` used on line `line`.
    pub fn general_var(&self, name: &str, line: u32) -> Result<&GeneralVar, VisaError> {
        match self.lookup(name, line)? {
            VarRef::General(i) => Ok(&self.general[i]),
            _ => Err(VisaError::new(
                line,
                ErrorKind::WrongVariableKind {
                    name: name.to_string(),
                    expected: "a general variable",
                },
            )),
        }
    }

    /// The predicate `name` used on line `line`.
    pub fn pred_var(&self, name: &str, line: u32) -> Result<usize, VisaError> {
        match self.lookup(name, line)? {
            VarRef::Pred(i) => Ok(i),
            _ => Err(VisaError::new(
                line,
                ErrorKind::WrongVariableKind {
                    name: name.to_string(),
                    expected: "a predicate",
                },
            )),
        }
    }

    /// The start of the general variable `name` (predefined ones included).
    pub fn start_of(&self, name: &str) -> Option<u32> {
        match self.names.get(name) {
            Some((VarRef::General(i), _)) => Some(self.general[*i].start),
            _ => None,
        }
    }
}

/// The state of a thread's registers: the general registers' bytes, the predicates'
/// bits (bit `n` = element `n`) and the surface and sampler handles.
#[derive(Clone, Debug)]
pub struct RegState {
    /// The register file's bytes.
    pub bytes: Vec<u8>,
    /// One word per predicate.
    pub preds: Vec<u32>,
    /// One word per surface or sampler element.
    pub states: Vec<u32>,
}

impl RegState {
    /// Registers for `layout`, every byte `fill` (vISA leaves variables uninitialised;
    /// a fill other than 0 exposes reads of registers nothing wrote), predicates clear.
    pub fn new(layout: &Layout, fill: u8) -> RegState {
        RegState {
            bytes: vec![fill; layout.bytes as usize],
            preds: vec![0; layout.preds.len()],
            states: vec![0; layout.state_words as usize],
        }
    }

    /// The `size`-byte little-endian value at byte `off` (offsets come from a checked
    /// [`Layout`], so they are in range).
    #[inline(always)]
    pub fn read(&self, off: u32, size: u32) -> u64 {
        let o = off as usize;
        let b = &self.bytes;
        match size {
            1 => u64::from(b[o]),
            2 => u64::from(u16::from_le_bytes([b[o], b[o + 1]])),
            4 => u64::from(u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])),
            _ => {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[o..o + 8]);
                u64::from_le_bytes(w)
            }
        }
    }

    /// Writes the low `size` bytes of `v` at byte `off`, little-endian.
    #[inline(always)]
    pub fn write(&mut self, off: u32, size: u32, v: u64) {
        let o = off as usize;
        let b = &mut self.bytes;
        match size {
            1 => b[o] = v as u8,
            2 => b[o..o + 2].copy_from_slice(&(v as u16).to_le_bytes()),
            4 => b[o..o + 4].copy_from_slice(&(v as u32).to_le_bytes()),
            _ => b[o..o + 8].copy_from_slice(&v.to_le_bytes()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::reader::read;

    fn layout(decls: &str, grf: u32) -> Result<Layout, VisaError> {
        let text = format!(".version 4.1\n.kernel k\n{decls}");
        Layout::new(&read(&text).unwrap(), grf, 1 << 20)
    }

    #[test]
    fn variables_follow_the_finalizers_alignment_rules() {
        let l = layout(
            ".decl A v_type=G type=ub num_elts=3\n\
             .decl B v_type=G type=d num_elts=16\n\
             .decl C v_type=G type=uw num_elts=15\n\
             .decl D v_type=G type=uw num_elts=2 alias=<B, 4>\n\
             .decl E v_type=G type=q num_elts=1 align=GRF\n",
            32,
        )
        .unwrap();
        let v = |n: &str| l.general_var(n, 100).unwrap().clone();
        // %r0 is register 0.
        assert_eq!(l.start_of("%r0"), Some(0));
        assert_eq!(l.start_of("%group_id_y"), Some(24));
        // B (64 bytes) starts on a 32-byte register; C (30 bytes) fits one register;
        // D views B's bytes 4..8; E is register-aligned.
        assert_eq!(v("B").start % 32, 0);
        assert_eq!(v("C").start / 32, (v("C").start + 29) / 32);
        assert_eq!(v("D").start, v("B").start + 4);
        assert_eq!(v("E").start % 32, 0);
        assert!(v("A").start + 3 <= l.bytes);
        let l64 = layout(".decl B v_type=G type=d num_elts=8\n", 64).unwrap();
        assert_eq!(l64.general_var("%arg", 1).unwrap().num_elts, 512);
    }

    #[test]
    fn declaration_errors() {
        let err = |d: &str| layout(d, 32).unwrap_err();
        assert!(matches!(
            err(".decl A v_type=G type=d num_elts=4\n.decl A v_type=G type=d num_elts=4\n").kind,
            ErrorKind::Redeclared { first_line: 3, .. }
        ));
        assert!(matches!(
            err(".decl %r0 v_type=G type=d num_elts=4\n").kind,
            ErrorKind::Redeclared { .. }
        ));
        // Alias offsets are aligned to the alias's type and stay inside the base.
        assert!(matches!(
            err(".decl A v_type=G type=d num_elts=4\n.decl B v_type=G type=d num_elts=1 alias=<A, 2>\n").kind,
            ErrorKind::BadDeclaration { .. }
        ));
        assert!(matches!(
            err(".decl A v_type=G type=d num_elts=4\n.decl B v_type=G type=d num_elts=2 alias=<A, 12>\n").kind,
            ErrorKind::BadDeclaration { .. }
        ));
        assert!(matches!(
            err(".decl B v_type=G type=d num_elts=2 alias=<A, 0>\n").kind,
            ErrorKind::UnknownVariable { .. }
        ));
        assert!(matches!(
            err(".decl P v_type=P num_elts=12\n").kind,
            ErrorKind::BadDeclaration { .. }
        ));
        assert!(matches!(
            layout(".decl A v_type=G type=d num_elts=4096\n", 32)
                .and_then(|_| Layout::new(
                    &read(".version 4.1\n.kernel k\n.decl A v_type=G type=d num_elts=4096\n")
                        .unwrap(),
                    32,
                    1024
                ))
                .unwrap_err()
                .kind,
            ErrorKind::RegisterFileTooLarge { .. }
        ));
    }

    #[test]
    fn inputs_follow_the_input_rules() {
        let ok = layout(
            ".decl A v_type=G type=uw num_elts=16\n.decl S v_type=G type=ud num_elts=1\n\
             .decl T6 v_type=T num_elts=1\n\
             .input A offset=32 size=32\n.input S offset=64 size=4\n.input T6 offset=68\n",
            32,
        )
        .unwrap();
        assert_eq!(ok.inputs.len(), 3);
        assert_eq!(ok.inputs[2].size, 4);
        let err = |d: &str| layout(d, 32).unwrap_err().kind;
        // Wrong size, misaligned, crossing a register, overlapping, alias input.
        let base = ".decl A v_type=G type=ud num_elts=2\n.decl B v_type=G type=ud num_elts=1\n";
        for bad in [
            ".input A offset=32 size=4\n",
            ".input A offset=34\n",
            ".input A offset=60\n",
            ".input A offset=32\n.input B offset=36\n",
        ] {
            assert!(
                matches!(
                    err(&format!("{base}{bad}")),
                    ErrorKind::BadDeclaration { .. }
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            err(".decl A v_type=G type=ud num_elts=1\n.decl B v_type=G type=ud num_elts=1 alias=<A, 0>\n.input B offset=32\n"),
            ErrorKind::BadDeclaration { .. }
        ));
        assert!(matches!(
            err(".input %tsc offset=32\n"),
            ErrorKind::Unsupported { .. }
        ));
    }
}
