//! The shader's constant data as the translator collects it (NIR's
//! `nir_shader::constant_data`), and which variables may live there: those a
//! constant initializes and nothing writes (Mesa's `nir_opt_large_constants` finds
//! them after `spirv_to_nir`, by their stores; here the module's instructions say it).

use super::module::{Id, Module};
use super::spec::{ConstVal, Declarations};
use spirv::{Op, StorageClass};
use std::collections::{HashMap, HashSet};

/// Constant data placed so far, and the read-only variables of the module.
#[derive(Clone, Debug, Default)]
pub struct ConstantData {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where each distinct block of bytes was placed (identical tables share one
    /// copy, as `nir_opt_large_constants` shares equal variables).
    placed: HashMap<Vec<u8>, u32>,
    /// The read-only variables and the constant each holds, found on first use.
    read_only: Option<HashMap<Id, Id>>,
}

impl ConstantData {
    /// Places `bytes` at the next offset aligned to `align` (or where an identical
    /// block already is); returns the offset, or `None` past 4 GiB.
    pub fn place(&mut self, bytes: Vec<u8>, align: u32) -> Option<u32> {
        if let Some(&at) = self.placed.get(&bytes) {
            return Some(at);
        }
        let align = u64::from(align.max(1));
        let at = (self.bytes.len() as u64).div_ceil(align) * align;
        let end = at.checked_add(bytes.len() as u64)?;
        if end > u64::from(u32::MAX) {
            return None;
        }
        self.bytes.resize(at as usize, 0);
        self.bytes.extend_from_slice(&bytes);
        self.placed.insert(bytes, at as u32);
        Some(at as u32)
    }

    /// Takes the read-only variables already found ([`read_only_variables`]).
    pub fn set_read_only(&mut self, read_only: HashMap<Id, Id>) {
        self.read_only = Some(read_only);
    }

    /// The constant variable `id` holds wherever it is read, if it is read-only
    /// ([`read_only_variables`]).
    pub fn constant_of(&mut self, m: &Module, d: &Declarations, id: Id) -> Option<Id> {
        self.read_only
            .get_or_insert_with(|| read_only_variables(m, d))
            .get(&id)
            .copied()
    }
}

/// Whether a constant has no undefined part.
fn defined(v: &ConstVal) -> bool {
    match v {
        ConstVal::Scalar(_) => true,
        ConstVal::Comp(items) => items.iter().all(defined),
        ConstVal::Undef => false,
    }
}

/// The words of an instruction's operands that may name a pointer: everything but the
/// literals of the instructions that have them in known places. A literal taken for
/// an id only makes a variable look written, which keeps it out of constant data.
fn id_words(op: u16, ops: &[u32]) -> &[u32] {
    let at = |n: usize| &ops[..n.min(ops.len())];
    match op {
        x if x == Op::Line as u16 || x == Op::NoLine as u16 => &[],
        x if x == Op::SelectionMerge as u16 || x == Op::Branch as u16 => at(1),
        x if x == Op::LoopMerge as u16 || x == Op::Switch as u16 => at(1),
        x if x == Op::BranchConditional as u16 => at(3),
        x if x == Op::Store as u16 => at(2),
        _ => ops,
    }
}

/// The `Function` and `Private` variables of `m` that hold one constant wherever they
/// are read, with that constant: every write of the variable (its initializer, and
/// stores to the whole variable) writes a constant with no undefined part, all of them
/// the same value, and every other use of the variable, and of the pointers derived
/// from it by access chains and copies, is a load's pointer or the base of another such
/// pointer. Any other use (a store through a derived pointer, a copy, an atomic, a call
/// argument, a phi) counts as a write of something else.
///
/// A load that runs before the first store reads an undefined value in SPIR-V, of
/// which the constant is one: so unlike Mesa's `nir_opt_large_constants`, which wants
/// its stores in one block before every read, the order of the loads and stores does
/// not matter. glslang writes a constant array indexed at run time as a variable
/// (`indexable`) that it initializes (SPIR-V 1.4 and later) or stores to right before
/// each access.
pub fn read_only_variables(m: &Module, d: &Declarations) -> HashMap<Id, Id> {
    let constant = |id: &Id| d.consts.get(id).filter(|c| defined(&c.val));
    let mut root: HashMap<Id, Id> = HashMap::new();
    let mut value: HashMap<Id, Id> = HashMap::new();
    let mut written: HashSet<Id> = HashSet::new();
    for (i, inst) in m.insts.iter().enumerate() {
        if inst.opcode != Op::Variable as u16 {
            continue;
        }
        if let [_, id, sc, rest @ ..] = m.ops(i) {
            if *sc == StorageClass::Function as u32 || *sc == StorageClass::Private as u32 {
                root.insert(*id, *id);
                match rest.first() {
                    Some(init) if constant(init).is_some() => {
                        value.insert(*id, *init);
                    }
                    Some(_) => {
                        written.insert(*id);
                    }
                    None => {}
                }
            }
        }
    }
    if root.is_empty() {
        return HashMap::new();
    }
    let start = m.first_function_inst();
    for i in start..m.insts.len() {
        let op = m.insts[i].opcode;
        let ops = m.ops(i);
        let derives = [
            Op::AccessChain,
            Op::InBoundsAccessChain,
            Op::PtrAccessChain,
            Op::InBoundsPtrAccessChain,
            Op::CopyObject,
        ]
        .iter()
        .any(|o| *o as u16 == op);
        let rest = if op == Op::Variable as u16 {
            // A variable's initializer is a constant, never one of these pointers.
            &[][..]
        } else if let (true, [_, id, base, rest @ ..]) = (derives, ops) {
            if let Some(&r) = root.get(base) {
                root.insert(*id, r);
            }
            rest
        } else if let (true, [_, _, _, rest @ ..]) = (op == Op::Load as u16, ops) {
            rest
        } else if let (true, [ptr, obj, ..]) = (op == Op::Store as u16, ops) {
            // A store of a constant to the whole variable is one of its writes.
            let whole = root.get(ptr) == Some(ptr);
            match (whole, constant(obj)) {
                (true, Some(c)) => {
                    let same = value
                        .get(ptr)
                        .is_none_or(|v| d.consts.get(v).is_some_and(|k| k == c));
                    if same {
                        value.insert(*ptr, *obj);
                    } else {
                        written.insert(*ptr);
                    }
                }
                _ => {
                    if let Some(&r) = root.get(ptr) {
                        written.insert(r);
                    }
                }
            }
            std::slice::from_ref(obj)
        } else {
            id_words(op, ops)
        };
        for w in rest {
            if let Some(&r) = root.get(w) {
                written.insert(r);
            }
        }
    }
    value
        .into_iter()
        .filter(|(id, _)| !written.contains(id))
        .collect()
}
