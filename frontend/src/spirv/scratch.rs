//! Which private arrays live in scratch memory, as Mesa places them: an array that a
//! `Function` or `Private` variable holds and that the shader indexes at run time stays
//! in registers only while it is small. brw lowers a run-time index into an array of at
//! most 16 elements to a chain of selects (`nir_lower_indirect_derefs` with a threshold
//! of 16, `brw_nir.c`); a larger one costs a select per element on every access, so it
//! goes to the invocation's scratch memory (`nir_lower_vars_to_scratch`; brw emits
//! `load_scratch` and `store_scratch` as scratch-space messages), one message per access.
//!
//! The whole variable moves, in its natural layout (`Types::natural`, NIR's
//! `glsl_get_natural_size_align_bytes`), when every scalar in it is a 32-bit number or a
//! boolean (kept as a 32-bit word, as in shared memory): scratch is accessed in dwords.
//! Variables that hold one constant wherever they are read go to the shader's constant
//! data instead ([`super::constant_data::read_only_variables`]).
//!
//! Pointers reach a variable through access chains, `OpCopyObject` and function
//! parameters (the translator inlines calls, so an argument's variable is what the
//! callee's parameter points to); the scan follows all three until nothing changes.

use super::module::{Id, Module};
use super::spec::{ConstVal, Declarations};
use super::types::Ty;
use spirv::{Op, StorageClass};
use std::collections::{BTreeSet, HashMap};

/// The most elements an array indexed at run time may have and stay in registers
/// (brw's `nir_lower_indirect_derefs` threshold).
pub const MAX_INDIRECT_REGISTER_ELEMENTS: u32 = 16;

/// The `Function` and `Private` variables to place in scratch memory, in id order, out
/// of those not in `read_only`.
pub fn scratch_variables(
    m: &Module,
    d: &Declarations,
    read_only: &HashMap<Id, Id>,
) -> BTreeSet<Id> {
    // Each pointer's variables; the variables themselves are the candidates.
    let mut roots: HashMap<Id, BTreeSet<Id>> = HashMap::new();
    for (i, inst) in m.insts.iter().enumerate() {
        if inst.opcode != Op::Variable as u16 {
            continue;
        }
        if let [ty, id, sc, ..] = m.ops(i) {
            let private =
                *sc == StorageClass::Function as u32 || *sc == StorageClass::Private as u32;
            let pointee = match d.types.get(*ty) {
                Some(Ty::Pointer { pointee, .. }) => *pointee,
                _ => continue,
            };
            if private && !read_only.contains_key(id) && dword_leaves(d, pointee, 0) {
                roots.insert(*id, BTreeSet::from([*id]));
            }
        }
    }
    if roots.is_empty() {
        return BTreeSet::new();
    }
    let params: HashMap<Id, &[Id]> = m
        .functions
        .iter()
        .map(|f| (f.id, f.params.as_slice()))
        .collect();
    let start = m.first_function_inst();
    let mut chosen = BTreeSet::new();
    // Each round carries roots one step further through calls declared before their
    // callers; the number of functions bounds the rounds.
    for _ in 0..=m.functions.len() {
        let mut changed = false;
        for i in start..m.insts.len() {
            let op = m.insts[i].opcode;
            let ops = m.ops(i);
            if op == Op::FunctionCall as u16 {
                let [_, _, callee, args @ ..] = ops else {
                    continue;
                };
                let Some(ps) = params.get(callee) else {
                    continue;
                };
                for (p, a) in ps.iter().zip(args) {
                    if let Some(rs) = roots.get(a).cloned() {
                        let entry = roots.entry(*p).or_default();
                        let before = entry.len();
                        entry.extend(rs);
                        changed |= entry.len() != before;
                    }
                }
                continue;
            }
            let chain = [
                Op::AccessChain,
                Op::InBoundsAccessChain,
                Op::PtrAccessChain,
                Op::InBoundsPtrAccessChain,
            ]
            .iter()
            .any(|o| *o as u16 == op);
            if !chain && op != Op::CopyObject as u16 {
                continue;
            }
            let [_, id, base, indices @ ..] = ops else {
                continue;
            };
            let Some(rs) = roots.get(base).cloned() else {
                continue;
            };
            if chain && indexes_large_array(m, d, *base, indices, op) {
                chosen.extend(rs.iter().copied());
            }
            let entry = roots.entry(*id).or_default();
            let before = entry.len();
            entry.extend(rs);
            changed |= entry.len() != before;
        }
        if !changed {
            break;
        }
    }
    chosen
}

/// Whether some `Function` or `Private` variable holds an array of more than
/// [`MAX_INDIRECT_REGISTER_ELEMENTS`] elements: without one no variable goes to scratch,
/// and the scan of every access chain is skipped.
pub fn has_large_private_array(m: &Module, d: &Declarations) -> bool {
    fn large(d: &Declarations, ty: Id, depth: u32) -> bool {
        depth <= 64
            && match d.types.get(ty) {
                Some(Ty::Array { elem, len }) => {
                    *len > MAX_INDIRECT_REGISTER_ELEMENTS || large(d, *elem, depth + 1)
                }
                Some(Ty::Struct { members }) => members.iter().any(|m| large(d, *m, depth + 1)),
                _ => false,
            }
    }
    m.insts.iter().enumerate().any(|(i, inst)| {
        inst.opcode == Op::Variable as u16
            && match m.ops(i) {
                [ty, _, sc, ..]
                    if *sc == StorageClass::Function as u32
                        || *sc == StorageClass::Private as u32 =>
                {
                    matches!(d.types.get(*ty), Some(Ty::Pointer { pointee, .. }) if large(d, *pointee, 0))
                }
                _ => false,
            }
    })
}

/// Whether every scalar of `ty` is a 32-bit number or a boolean (and `ty` has a
/// natural layout: no runtime arrays, pointers or opaque types).
fn dword_leaves(d: &Declarations, ty: Id, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match d.types.get(ty) {
        Some(Ty::Bool) => true,
        Some(Ty::Int { bits, .. } | Ty::Float { bits }) => *bits == 32,
        Some(Ty::Vector { elem, .. }) => dword_leaves(d, *elem, depth + 1),
        Some(Ty::Matrix { col, .. }) => dword_leaves(d, *col, depth + 1),
        Some(Ty::Array { elem, .. }) => dword_leaves(d, *elem, depth + 1),
        Some(Ty::Struct { members }) => members.iter().all(|m| dword_leaves(d, *m, depth + 1)),
        _ => false,
    }
}

/// Whether access chain `indices` from pointer `base` takes a run-time index into an
/// array of more than [`MAX_INDIRECT_REGISTER_ELEMENTS`] elements.
fn indexes_large_array(m: &Module, d: &Declarations, base: Id, indices: &[Id], op: u16) -> bool {
    let Some(mut ty) = pointee_of(m, d, base) else {
        return false;
    };
    // A pointer access chain's first index steps the pointer itself.
    let steps = if op == Op::PtrAccessChain as u16 || op == Op::InBoundsPtrAccessChain as u16 {
        indices.get(1..).unwrap_or(&[])
    } else {
        indices
    };
    for ix in steps {
        let constant = match d.consts.get(ix).map(|c| &c.val) {
            Some(ConstVal::Scalar(k)) => Some(*k),
            _ => None,
        };
        match d.types.get(ty) {
            Some(Ty::Array { elem, len }) => {
                if constant.is_none() && *len > MAX_INDIRECT_REGISTER_ELEMENTS {
                    return true;
                }
                ty = *elem;
            }
            Some(Ty::Struct { members }) => match constant.and_then(|k| members.get(k as usize)) {
                Some(t) => ty = *t,
                None => return false,
            },
            Some(Ty::Matrix { col, .. }) => ty = *col,
            Some(Ty::Vector { elem, .. }) => ty = *elem,
            _ => return false,
        }
    }
    false
}

/// The type `pointer` points to, from its defining instruction's result type.
fn pointee_of(m: &Module, d: &Declarations, pointer: Id) -> Option<Id> {
    let ty = *m.ops(m.def(pointer)?).first()?;
    match d.types.get(ty)? {
        Ty::Pointer { pointee, .. } => Some(*pointee),
        _ => None,
    }
}
