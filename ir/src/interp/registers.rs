//! The interpreter's register file layout: where each value of a function lives.
//!
//! A function's value arena holds every value it ever had (the parser's ids are dense
//! whatever numbers the text writes, but passes leave dead values behind), and the
//! registers are allocated once per lane, so they are not sized by the arena. Instead
//! the values the function's placed instructions define or read are numbered densely
//! when the interpreter is created, and every
//! instruction's destination and sources are resolved to those numbers once, so that
//! executing an instruction looks nothing up by value id. The memory of a run is then
//! proportional to the values actually used: `components x lanes` words for the values,
//! plus one word per instruction operand.

use crate::entity::{IfId, Inst, Value};
use crate::function::{Function, InstKind};
use std::collections::HashMap;

/// The dense number of a value that has no register: its id lies outside the function's
/// value arena (a malformed function, which the validator rejects).
const NO_REGISTER: u32 = u32::MAX;

/// Where a value lives in the store: the components before it (per lane) and its shape.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Slot {
    /// Sum of the component counts of the registers before this one.
    pub base: u32,
    /// Components.
    pub comps: u8,
    /// Bit size of each component.
    pub bits: u8,
}

/// The operands of one instruction: its destination register and where its sources'
/// registers start in [`Registers::operands`].
#[derive(Copy, Clone, Debug)]
struct InstOperands {
    dest: u32,
    start: u32,
}

/// The dense register layout of one function.
#[derive(Debug)]
pub(crate) struct Registers {
    /// Value id -> register, for the values the function uses.
    ids: HashMap<Value, u32>,
    /// The shape and position of each register.
    slots: Vec<Slot>,
    /// Components of all registers together (per lane).
    total_comps: usize,
    /// Per instruction id: its operands (only placed instructions are filled in).
    insts: Vec<InstOperands>,
    /// The registers of every instruction's sources, instruction after instruction: an
    /// ALU instruction's sources in order; an intrinsic's sources, then its image index
    /// if it has one; a phi's sources in order.
    operands: Vec<u32>,
    /// Per `if` id: the register of its condition.
    if_conds: Vec<u32>,
}

impl Registers {
    /// The layout of `func`'s placed instructions and `if` conditions.
    pub fn new(func: &Function) -> Registers {
        let mut r = Registers {
            ids: HashMap::new(),
            slots: Vec::new(),
            total_comps: 0,
            insts: vec![
                InstOperands {
                    dest: NO_REGISTER,
                    start: 0,
                };
                func.num_inst_ids()
            ],
            operands: Vec::new(),
            if_conds: vec![NO_REGISTER; func.num_if_ids()],
        };
        for inst in func.insts_in_order() {
            let data = func.inst(inst);
            let dest = data.dest.map_or(NO_REGISTER, |v| r.register(func, v));
            let start = r.operands.len() as u32;
            match &data.kind {
                InstKind::Alu(alu) => {
                    for s in &alu.srcs {
                        let id = r.register(func, s.value);
                        r.operands.push(id);
                    }
                }
                InstKind::Intrinsic(intr) => {
                    for s in &intr.srcs {
                        let id = r.register(func, s.value);
                        r.operands.push(id);
                    }
                    if let Some(idx) = intr.image.and_then(|i| i.index) {
                        let id = r.register(func, idx.value);
                        r.operands.push(id);
                    }
                }
                InstKind::Phi(phi) => {
                    for (_, s) in &phi.srcs {
                        let id = r.register(func, s.value);
                        r.operands.push(id);
                    }
                }
                InstKind::LoadConst(_) | InstKind::Undef => {}
            }
            r.insts[inst.index()] = InstOperands { dest, start };
        }
        for id in func.ifs_in_order() {
            let cond = func.if_data(id).cond.value;
            r.if_conds[id.index()] = r.register(func, cond);
        }
        r
    }

    /// The register of `value`, given one if it has none yet.
    fn register(&mut self, func: &Function, value: Value) -> u32 {
        if value.index() >= func.num_value_ids() {
            return NO_REGISTER;
        }
        if let Some(&id) = self.ids.get(&value) {
            return id;
        }
        let ty = func.value_type(value);
        let id = self.slots.len() as u32;
        self.slots.push(Slot {
            base: self.total_comps as u32,
            comps: ty.num_components(),
            bits: ty.bit_size(),
        });
        self.total_comps += ty.num_components() as usize;
        self.ids.insert(value, id);
        id
    }

    /// The register of `value`, if the function uses it.
    pub fn id(&self, value: Value) -> Option<u32> {
        self.ids.get(&value).copied()
    }

    /// Number of registers.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Components of all registers together, per lane.
    pub fn total_comps(&self) -> usize {
        self.total_comps
    }

    /// The slot of register `id`, or `None` for [`NO_REGISTER`].
    #[inline]
    pub fn slot(&self, id: u32) -> Option<Slot> {
        self.slots.get(id as usize).copied()
    }

    /// The destination register of a placed instruction ([`NO_REGISTER`] without one).
    #[inline]
    pub fn dest(&self, inst: Inst) -> u32 {
        self.insts[inst.index()].dest
    }

    /// The register of source `i` of a placed instruction, in the order of
    /// [`Registers::operands`].
    #[inline]
    pub fn src(&self, inst: Inst, i: usize) -> u32 {
        self.operands[self.insts[inst.index()].start as usize + i]
    }

    /// The register of the condition of `if` `id`.
    #[inline]
    pub fn if_cond(&self, id: IfId) -> u32 {
        self.if_conds[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_shader, Type};

    #[test]
    fn registers_are_dense_whatever_the_ids() {
        let s = parse_shader(
            "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32x3 %16777215 = @load_global_invocation_id
    32 %9000000 = iadd %16777215.x, %16777215.y
}
",
        )
        .unwrap();
        let f = &s.functions[0];
        let r = Registers::new(f);
        assert_eq!(r.len(), 2);
        assert_eq!(r.total_comps(), 4);
        let big = f.value_named(16_777_215).unwrap();
        let sum = f.value_named(9_000_000).unwrap();
        assert_eq!(r.id(big), Some(0));
        assert_eq!(r.id(sum), Some(1));
        assert_eq!(r.id(Value::from_u32(5)), None);
        let add = f.value_def(sum).unwrap();
        assert_eq!(r.dest(add), 1);
        assert_eq!((r.src(add, 0), r.src(add, 1)), (0, 0));
        let s1 = r.slot(1).unwrap();
        assert_eq!((s1.base, s1.comps, s1.bits), (3, 1, 32));
        assert_eq!(f.value_type(sum), Type::U32);
    }
}
