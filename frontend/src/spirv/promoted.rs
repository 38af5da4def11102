//! The promoted variables' values at the translator's cursor, kept so that a join costs
//! what the joined constructs stored, not the number of variables in the function.
//!
//! One map holds the current value of every variable; an undo log, in segments, holds
//! what each store overwrote. A construct opens a segment (a *checkpoint*) where it
//! starts; the state along an edge out of it is the set of variables its log names
//! since the checkpoint (an [`Edge`]); going back to the checkpoint (for the other arm
//! of an `if`) undoes those segments. A segment keeps only the first value a variable
//! had in it, so a log never grows past the number of distinct variables stored in a
//! construct. This is the part of an SSA construction that tracks definitions per
//! variable along the structured walk (Braun et al., "Simple and Efficient Construction
//! of Static Single Assignment Form", CC 2013; Mesa's `nir_lower_vars_to_ssa` likewise
//! places phis only for the variables a construct writes).

use super::value::{Val, VarKey};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

/// What a construct stored along one edge out of it: each variable it changed, with its
/// value there (`None`: not defined there).
pub type Edge = BTreeMap<VarKey, Option<Val>>;

/// A checkpoint: the segment a construct opened.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint(usize);

/// One segment of the undo log.
#[derive(Default, Debug)]
struct Segment {
    /// Each variable's value when the segment first stored it, in store order.
    undo: Vec<(VarKey, Option<Val>)>,
    /// The variables in `undo`.
    stored: HashSet<VarKey>,
}

/// The values of the promoted variables, with their undo log.
#[derive(Debug)]
pub struct Promoted {
    values: HashMap<VarKey, Val>,
    /// The log's segments, the outermost first. Segment 0 is never undone and logs
    /// nothing.
    segments: Vec<Segment>,
    /// The keys each inlined frame defined (frame-local variables, phis, return flags),
    /// so that the frame's end can drop them without a walk over every variable.
    owned: HashMap<u32, Vec<VarKey>>,
}

impl Default for Promoted {
    fn default() -> Self {
        Promoted {
            values: HashMap::default(),
            segments: vec![Segment::default()],
            owned: HashMap::default(),
        }
    }
}

/// The frame a key belongs to, if it is frame-local.
fn frame_of(key: VarKey) -> Option<u32> {
    match key {
        VarKey::Local(f, _) | VarKey::Phi(f, _) | VarKey::Returned(f) | VarKey::ReturnValue(f) => {
            Some(f)
        }
        VarKey::Private(_) | VarKey::Exit(..) | VarKey::Taken(_) => None,
    }
}

impl Promoted {
    /// The value of `key`.
    pub fn get(&self, key: &VarKey) -> Option<&Val> {
        self.values.get(key)
    }

    /// Sets (or, with `None`, removes) the value of `key`.
    pub fn set(&mut self, key: VarKey, val: Option<Val>) {
        let top = self.segments.len() - 1;
        self.set_in(top, key, val);
    }

    /// Sets the value of `key`, logging the old one in segment `seg` (which must be the
    /// last segment, or one whose later segments have not stored `key`).
    fn set_in(&mut self, seg: usize, key: VarKey, val: Option<Val>) {
        let old = match &val {
            Some(v) => self.values.insert(key, v.clone()),
            None => self.values.remove(&key),
        };
        if old.is_none() && val.is_some() {
            if let Some(f) = frame_of(key) {
                self.owned.entry(f).or_default().push(key);
            }
        }
        if seg > 0 {
            let s = &mut self.segments[seg];
            if s.stored.insert(key) {
                s.undo.push((key, old));
            }
        }
    }

    /// Sets `key` as if it had been set just before checkpoint `cp` was taken: the
    /// constructs opened at or after `cp` see the value as the one they started with;
    /// the ones around them see it as stored inside. (A loop's header phi, made when a
    /// variable is first used in the loop.) `key` must not have been stored since `cp`.
    pub fn set_before(&mut self, cp: Checkpoint, key: VarKey, val: Val) {
        self.set_in(cp.0.saturating_sub(1), key, Some(val));
    }

    /// Opens a segment.
    pub fn checkpoint(&mut self) -> Checkpoint {
        self.segments.push(Segment::default());
        Checkpoint(self.segments.len() - 1)
    }

    /// The variables stored since `cp`, with their values now.
    pub fn edge(&self, cp: Checkpoint) -> Edge {
        let mut e = Edge::new();
        for s in &self.segments[cp.0..] {
            for (k, _) in &s.undo {
                e.entry(*k).or_insert_with(|| self.values.get(k).cloned());
            }
        }
        e
    }

    /// Undoes every store since `cp`; `cp` stays open.
    pub fn rewind(&mut self, cp: Checkpoint) {
        while self.segments.len() > cp.0 + 1 {
            if let Some(s) = self.segments.pop() {
                self.undo(s);
            }
        }
        if let Some(s) = self.segments.get_mut(cp.0).map(std::mem::take) {
            self.undo(s);
        }
    }

    /// Undoes every store since `cp` and closes it: the stores that follow are logged
    /// in the segment around it.
    pub fn close(&mut self, cp: Checkpoint) {
        self.rewind(cp);
        self.segments.truncate(cp.0.max(1));
    }

    fn undo(&mut self, s: Segment) {
        for (k, old) in s.undo.into_iter().rev() {
            match old {
                Some(v) => self.values.insert(k, v),
                None => self.values.remove(&k),
            };
        }
    }

    /// Drops every variable of frame `frame`.
    pub fn drop_frame(&mut self, frame: u32) {
        for k in self.owned.remove(&frame).unwrap_or_default() {
            if self.values.contains_key(&k) {
                self.set(k, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{Src, Value};

    fn v(n: u32) -> Val {
        Val::Leaf(Src::new(Value::from_u32(n)))
    }

    #[test]
    fn edges_name_what_a_construct_stored_and_rewinds_undo_it() {
        let mut p = Promoted::default();
        let (a, b, c) = (VarKey::Private(1), VarKey::Private(2), VarKey::Private(3));
        p.set(a, Some(v(1)));
        p.set(b, Some(v(2)));
        let cp = p.checkpoint();
        p.set(a, Some(v(10)));
        p.set(a, Some(v(11)));
        let inner = p.checkpoint();
        p.set(c, Some(v(30)));
        // The inner construct's edge names c only; the outer's names a and c.
        assert_eq!(p.edge(inner), Edge::from([(c, Some(v(30)))]));
        assert_eq!(p.edge(cp), Edge::from([(a, Some(v(11))), (c, Some(v(30)))]));
        p.close(inner);
        assert_eq!(p.get(&c), None);
        p.set(b, None);
        assert_eq!(p.edge(cp), Edge::from([(a, Some(v(11))), (b, None)]));
        p.rewind(cp);
        assert_eq!((p.get(&a), p.get(&b)), (Some(&v(1)), Some(&v(2))));
        assert!(p.edge(cp).is_empty());
        p.close(cp);
        // A value set before a checkpoint is the base inside it and a store outside.
        let outer = p.checkpoint();
        p.set(b, Some(v(5)));
        let lp = p.checkpoint();
        p.set_before(lp, a, v(7));
        assert!(p.edge(lp).is_empty());
        assert_eq!(
            p.edge(outer),
            Edge::from([(a, Some(v(7))), (b, Some(v(5)))])
        );
        p.rewind(lp);
        assert_eq!(p.get(&a), Some(&v(7)));
        p.rewind(outer);
        assert_eq!(p.get(&a), Some(&v(1)));
    }

    #[test]
    fn a_frame_drops_its_own_variables() {
        let mut p = Promoted::default();
        p.set(VarKey::Local(4, 9), Some(v(1)));
        p.set(VarKey::Returned(4), Some(v(2)));
        p.set(VarKey::Local(5, 9), Some(v(3)));
        p.drop_frame(4);
        assert_eq!(p.get(&VarKey::Local(4, 9)), None);
        assert_eq!(p.get(&VarKey::Returned(4)), None);
        assert_eq!(p.get(&VarKey::Local(5, 9)), Some(&v(3)));
    }
}
