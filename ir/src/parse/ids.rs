//! Numbering the values and blocks of a function densely, in the order the text first
//! names them.
//!
//! The text may write any number below the id bounds (`%16777215` for a function's only
//! value); the function's arenas get one entry per distinct number instead, and the
//! numbers are kept for the printer and the messages (`Function::value_name`). Looking a
//! number up goes through a direct table while the numbers stay close to the count of
//! entries (the usual case, also with the out-of-order numbers of loop phis), and through
//! a hash map for the numbers far above it, so that the table never grows beyond a few
//! words per entry whatever the text writes.

use std::collections::HashMap;

/// Numbers below this (plus twice the count of entries) are looked up directly.
const DIRECT_SLACK: usize = 1024;

/// The written numbers of one kind of entity (values or blocks) of one function.
#[derive(Default)]
pub(super) struct Numbering {
    /// Written number -> dense id + 1 (0: not seen yet), for numbers below its length.
    /// Its length stays below `2 * numbers.len() + DIRECT_SLACK`.
    direct: Vec<u32>,
    /// Written number -> dense id, for the numbers too large for `direct` when first
    /// seen.
    sparse: HashMap<u32, u32>,
    /// Dense id -> written number.
    numbers: Vec<u32>,
}

impl Numbering {
    /// The dense id of the written `number`, and whether the number is new (it then got
    /// the next dense id: the count of numbers seen before).
    #[inline]
    pub(super) fn id(&mut self, number: u32) -> (u32, bool) {
        match self.direct.get(number as usize) {
            Some(&slot) if slot != 0 => (slot - 1, false),
            _ => self.new_or_sparse(number),
        }
    }

    /// [`Numbering::id`] for a number not in the direct table.
    #[inline(never)]
    fn new_or_sparse(&mut self, number: u32) -> (u32, bool) {
        let n = number as usize;
        if !self.sparse.is_empty() {
            if let Some(&id) = self.sparse.get(&number) {
                return (id, false);
            }
        }
        let id = self.numbers.len() as u32;
        self.numbers.push(number);
        if n < self.direct.len() {
            self.direct[n] = id + 1;
        } else if n == self.direct.len() {
            // The usual next number.
            self.direct.push(id + 1);
        } else if n < 2 * self.numbers.len() + DIRECT_SLACK {
            self.direct.resize(n, 0);
            self.direct.push(id + 1);
        } else {
            self.sparse.insert(number, id);
        }
        (id, true)
    }

    /// The written number of the dense `id` (which [`Numbering::id`] gave).
    pub(super) fn number(&self, id: u32) -> u32 {
        self.numbers[id as usize]
    }

    /// Dense id -> written number, for `Function::set_written_names`.
    pub(super) fn into_numbers(self) -> Vec<u32> {
        self.numbers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_first_appearance() {
        let mut n = Numbering::default();
        assert_eq!(n.id(0), (0, true));
        assert_eq!(n.id(1), (1, true));
        assert_eq!(n.id(5), (2, true));
        assert_eq!(n.id(1), (1, false));
        assert_eq!(n.id(2), (3, true));
        assert_eq!(n.id(16_777_215), (4, true));
        assert_eq!(n.id(16_777_215), (4, false));
        assert_eq!(n.id(5), (2, false));
        assert_eq!((n.number(2), n.number(4)), (5, 16_777_215));
        assert_eq!(n.into_numbers(), [0, 1, 5, 2, 16_777_215]);
    }

    #[test]
    fn the_direct_table_follows_the_count_not_the_numbers() {
        let mut n = Numbering::default();
        for i in 0..100u32 {
            n.id(16_777_215 - i * 1000);
        }
        assert!(n.direct.is_empty());
        assert_eq!(n.sparse.len(), 100);
        // Dense numbers after sparse ones go to the direct table.
        for i in 0..3000u32 {
            assert_eq!(n.id(i), (100 + i, true));
        }
        assert!(n.direct.len() <= 2 * n.numbers.len() + DIRECT_SLACK);
        assert_eq!(n.id(16_777_215), (0, false));
        assert_eq!(n.id(2999), (3099, false));
    }
}
