//! The numbers the text wrote for values and blocks.
//!
//! The parser gives the values and the blocks of a function dense ids, in the order the
//! text first names them, so that a function's arenas (and every side table a pass, the
//! validator or the interpreter sizes by them) hold what exists: `%16777215` alone is one
//! value, not sixteen million. The numbers written are kept here, one per parsed entry;
//! the printer, the parser's and validator's messages and every error that names a value
//! or a block show them, so the text round-trips and messages quote what the user wrote.
//!
//! A table is kept only when it says something: when the text numbered its values
//! `%0, %1, %2, ...` in the order it first named them (as the printer does for shaders
//! built with the builder, and most hand-written text), every id is its own number and
//! the table is empty. Entries created after parsing (by passes, the builder, or
//! [`Function::reserve_value`](super::Function::reserve_value)) are numbered on from
//! one above the largest written number, in creation order, so names never collide;
//! past the parser's bound on the numbers, they take the numbers the text left unused,
//! so that printed text still reads back.

use std::sync::OnceLock;

/// The written numbers of one arena (values or blocks).
#[derive(Clone, Debug)]
pub(super) struct Names {
    /// Entry index -> number, for the entries the parser created. Empty when every
    /// entry's number is its index.
    numbers: Vec<u32>,
    /// One above the largest number of `numbers` (0 when `numbers` is empty): the
    /// number of the first entry created after parsing.
    next: u32,
    /// The numbers the text may write are below this (the parser's bound). Created
    /// entries count on from `next` up to it, then take the numbers below `next` the
    /// text did not write, smallest first, so that printed text reads back; only when
    /// those run out too do they go past it.
    limit: u32,
    /// `numbers` sorted, built the first time a number below `next` is handed out or
    /// looked up.
    sorted: OnceLock<Vec<u32>>,
}

impl Default for Names {
    fn default() -> Names {
        Names {
            numbers: Vec::new(),
            next: 0,
            limit: u32::MAX,
            sorted: OnceLock::new(),
        }
    }
}

impl Names {
    /// The table for `numbers` (entry index -> number, distinct, below `limit`), empty
    /// if every number is its index.
    pub(super) fn new(numbers: Vec<u32>, limit: u32) -> Names {
        if numbers.iter().enumerate().all(|(i, &n)| n as usize == i) {
            return Names::default();
        }
        let next = numbers.iter().max().map_or(0, |&m| m.saturating_add(1));
        Names {
            numbers,
            next,
            limit: limit.max(next),
            sorted: OnceLock::new(),
        }
    }

    /// Whether every entry's number is its index.
    pub(super) fn is_identity(&self) -> bool {
        self.numbers.is_empty()
    }

    /// The number of entry `index` (any index: an id past the end of the arena also
    /// gets a number no other entry has).
    #[inline]
    pub(super) fn number(&self, index: usize) -> u32 {
        match self.numbers.get(index) {
            Some(&n) => n,
            None if self.numbers.is_empty() => index as u32,
            None => self.created(index - self.numbers.len()),
        }
    }

    /// The number of the `k`-th entry created after parsing.
    #[inline(never)]
    fn created(&self, k: usize) -> u32 {
        let room = (self.limit - self.next) as usize;
        if k < room {
            return self.next + k as u32;
        }
        let j = k - room;
        let gaps = self.next as usize - self.numbers.len();
        if j < gaps {
            self.gap(j)
        } else {
            self.limit.saturating_add((j - gaps) as u32)
        }
    }

    /// The `j`-th number below `next` that `numbers` does not hold (`j` < the count of
    /// such numbers).
    fn gap(&self, j: usize) -> u32 {
        let sorted = self.sorted();
        // Below `sorted[p]` lie `sorted[p] - p` unused numbers (the numbers are
        // distinct), which grows with `p`: the answer follows the written numbers up to
        // the first one with more than `j` unused numbers below it.
        let (mut lo, mut hi) = (0, sorted.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if sorted[mid] as usize - mid <= j {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (j + lo) as u32
    }

    fn sorted(&self) -> &[u32] {
        self.sorted.get_or_init(|| {
            let mut v = self.numbers.clone();
            v.sort_unstable();
            v
        })
    }

    /// The entry numbered `number`, among the first `len`.
    pub(super) fn find(&self, number: u32, len: usize) -> Option<usize> {
        let written = self.numbers.len();
        let room = (self.limit - self.next) as usize;
        let gaps = self.next as usize - written;
        let index = if number >= self.limit {
            written + room + gaps + (number - self.limit) as usize
        } else if number >= self.next {
            written + (number - self.next) as usize
        } else if let Some(i) = self.numbers.iter().position(|&n| n == number) {
            i
        } else {
            // A number the text left unused: the how-manieth such number it is.
            let below = self.sorted().partition_point(|&n| n < number);
            written + room + (number as usize - below)
        };
        (index < len).then_some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_numbers_keep_no_table() {
        let n = Names::new(vec![0, 1, 2], 100);
        assert!(n.is_identity());
        assert_eq!((n.number(1), n.number(7)), (1, 7));
        assert_eq!(n.find(2, 3), Some(2));
        assert_eq!(n.find(3, 3), None);
    }

    #[test]
    fn written_numbers_and_the_entries_created_after_them() {
        // Parsed: %5, %16777215, %2 (first appearance order); two entries created later.
        let n = Names::new(vec![5, 16_777_215, 2], 1 << 25);
        assert!(!n.is_identity());
        let all: Vec<u32> = (0..5).map(|i| n.number(i)).collect();
        assert_eq!(all, [5, 16_777_215, 2, 16_777_216, 16_777_217]);
        assert_eq!(n.find(16_777_215, 5), Some(1));
        assert_eq!(n.find(2, 5), Some(2));
        assert_eq!(n.find(16_777_217, 5), Some(4));
        // Beyond the arena, or a number nothing has.
        assert_eq!(n.find(16_777_218, 5), None);
        assert_eq!(n.find(3, 5), None);
    }

    #[test]
    fn a_permutation_is_not_the_identity() {
        let n = Names::new(vec![1, 0], 100);
        assert_eq!((n.number(0), n.number(1), n.number(2)), (1, 0, 2));
        assert_eq!(n.find(0, 2), Some(1));
    }

    #[test]
    fn past_the_bound_created_entries_take_the_unused_numbers() {
        // The text wrote %5, %9 and %2 with the bound at 10: nothing is left above %9.
        let n = Names::new(vec![5, 9, 2], 10);
        let all: Vec<u32> = (0..12).map(|i| n.number(i)).collect();
        assert_eq!(all, [5, 9, 2, 0, 1, 3, 4, 6, 7, 8, 10, 11]);
        for (i, &num) in all.iter().enumerate() {
            assert_eq!(n.find(num, 12), Some(i), "%{num}");
        }
        assert_eq!(n.find(12, 12), None);
        assert_eq!(n.find(8, 9), None);
    }

    #[test]
    fn numbers_are_distinct_and_found_again() {
        // Every table of distinct numbers below a small bound, in a few orders: the
        // numbers of the first entries (written and created) are distinct and `find`
        // inverts `number`.
        let limit = 7u32;
        for set in 0u32..(1 << limit) {
            let mut numbers: Vec<u32> = (0..limit).filter(|b| set & (1 << b) != 0).collect();
            for turn in 0..3 {
                if turn == 1 {
                    numbers.reverse();
                } else if turn == 2 {
                    let half = numbers.len() / 2;
                    numbers.rotate_left(half);
                }
                let n = Names::new(numbers.clone(), limit);
                let len = limit as usize + 3;
                let all: Vec<u32> = (0..len).map(|i| n.number(i)).collect();
                let mut seen = all.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), len, "{numbers:?}: {all:?}");
                // Below the bound while numbers are left there.
                assert!(
                    all[..limit as usize].iter().all(|&x| x < limit),
                    "{numbers:?}"
                );
                for (i, &num) in all.iter().enumerate() {
                    assert_eq!(n.find(num, len), Some(i), "{numbers:?}: %{num}");
                }
            }
        }
    }
}
