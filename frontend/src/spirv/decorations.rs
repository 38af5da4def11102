//! Decorations: what `OpDecorate`, `OpMemberDecorate` and the decoration groups say
//! about an id or a struct member, as tables the other modules query by decoration.

use super::module::{Id, Module};
use super::op;
use crate::error::{ErrorKind, ImportError, Location};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use spirv::Decoration as D;

/// One decoration: its number and its literal or id operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dec {
    /// The decoration (`spirv::Decoration` as a number).
    pub kind: u32,
    /// Its operands.
    pub args: Vec<u32>,
}

/// The decorations of a module.
#[derive(Default, Debug)]
pub struct Decorations {
    ids: HashMap<Id, Vec<Dec>>,
    members: HashMap<(Id, u32), Vec<Dec>>,
    /// The ids decorated `NoContraction`, kept apart because every ALU instruction
    /// asks (most modules have none, and the set is then empty).
    no_contraction: HashSet<Id>,
}

impl Decorations {
    /// Reads the annotation instructions of `m`.
    pub fn read(m: &Module) -> Result<Decorations, ImportError> {
        let mut d = Decorations::default();
        // Decoration groups collect decorations first and hand them out later.
        let mut groups: HashMap<Id, Vec<Dec>> = HashMap::default();
        for &i in &m.annotations {
            let inst = m.insts[i];
            let ops = m.ops(i);
            let at = Location::SpirV { word: inst.word };
            let short = || {
                ImportError::new(
                    ErrorKind::Parse,
                    at,
                    format!("{} has too few operands", op::name(inst.opcode)),
                )
            };
            match inst.opcode {
                op::DECORATE | op::DECORATE_ID | op::DECORATE_STRING => {
                    let [target, kind, args @ ..] = ops else {
                        return Err(short());
                    };
                    let dec = Dec {
                        kind: *kind,
                        args: args.to_vec(),
                    };
                    if m.def_opcode(*target) == Some(op::DECORATION_GROUP) {
                        groups.entry(*target).or_default().push(dec);
                    } else {
                        d.ids.entry(*target).or_default().push(dec);
                    }
                }
                op::MEMBER_DECORATE | op::MEMBER_DECORATE_STRING => {
                    let [target, member, kind, args @ ..] = ops else {
                        return Err(short());
                    };
                    d.members.entry((*target, *member)).or_default().push(Dec {
                        kind: *kind,
                        args: args.to_vec(),
                    });
                }
                op::DECORATION_GROUP => {}
                op::GROUP_DECORATE => {
                    let [group, targets @ ..] = ops else {
                        return Err(short());
                    };
                    let decs = groups.get(group).cloned().unwrap_or_default();
                    for t in targets {
                        d.ids.entry(*t).or_default().extend(decs.iter().cloned());
                    }
                }
                op::GROUP_MEMBER_DECORATE => {
                    let [group, pairs @ ..] = ops else {
                        return Err(short());
                    };
                    let decs = groups.get(group).cloned().unwrap_or_default();
                    for p in pairs.chunks_exact(2) {
                        d.members
                            .entry((p[0], p[1]))
                            .or_default()
                            .extend(decs.iter().cloned());
                    }
                }
                _ => {}
            }
        }
        for (id, decs) in &d.ids {
            if decs.iter().any(|x| x.kind == D::NoContraction as u32) {
                d.no_contraction.insert(*id);
            }
        }
        Ok(d)
    }

    /// Whether `id` is decorated `NoContraction` (GLSL's `precise`): the ALU
    /// instructions that compute it are NIR's `exact` ones.
    pub fn no_contraction(&self, id: Id) -> bool {
        self.no_contraction.contains(&id)
    }

    /// Whether any id is decorated `NoContraction`.
    pub fn any_no_contraction(&self) -> bool {
        !self.no_contraction.is_empty()
    }

    /// The decorations of `id`.
    pub fn of(&self, id: Id) -> &[Dec] {
        self.ids.get(&id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The decorations of member `member` of struct `id`.
    pub fn of_member(&self, id: Id, member: u32) -> &[Dec] {
        self.members
            .get(&(id, member))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether `id` has decoration `kind`.
    pub fn has(&self, id: Id, kind: D) -> bool {
        self.of(id).iter().any(|d| d.kind == kind as u32)
    }

    /// The first operand of decoration `kind` of `id`.
    pub fn get(&self, id: Id, kind: D) -> Option<u32> {
        self.of(id)
            .iter()
            .find(|d| d.kind == kind as u32)
            .and_then(|d| d.args.first().copied())
    }

    /// Whether member `member` of `id` has decoration `kind`.
    pub fn member_has(&self, id: Id, member: u32, kind: D) -> bool {
        self.of_member(id, member)
            .iter()
            .any(|d| d.kind == kind as u32)
    }

    /// The first operand of decoration `kind` of member `member` of `id`.
    pub fn member_get(&self, id: Id, member: u32, kind: D) -> Option<u32> {
        self.of_member(id, member)
            .iter()
            .find(|d| d.kind == kind as u32)
            .and_then(|d| d.args.first().copied())
    }

    /// Whether any member of struct `id` (of `members` members) has decoration `kind`.
    pub fn any_member_has(&self, id: Id, members: usize, kind: D) -> bool {
        (0..members as u32).any(|i| self.member_has(id, i, kind))
    }
}
