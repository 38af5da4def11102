//! Coordinates: values by class, and the coordinate expressions of shader accesses.

use super::{below, chance, pick};
use quickcheck::Gen;
use std::fmt;

/// Where a coordinate falls relative to its limit.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CoordClass {
    /// Anywhere in `0..limit`.
    InRange,
    /// The first or last valid value.
    Edge,
    /// `limit` or just above.
    JustOut,
    /// Far above: 2^16, 2^20, `i32::MAX`, ...
    FarOut,
    /// Below 0.
    Negative,
}

impl CoordClass {
    /// Every class.
    pub const ALL: [CoordClass; 5] = [
        CoordClass::InRange,
        CoordClass::Edge,
        CoordClass::JustOut,
        CoordClass::FarOut,
        CoordClass::Negative,
    ];

    /// Whether values of the class are valid coordinates.
    pub fn in_range(self) -> bool {
        matches!(self, CoordClass::InRange | CoordClass::Edge)
    }
}

/// A class: in range (or at the edge) most of the time, so that most accesses touch
/// memory; only in-range classes unless `allow_oob`.
pub fn arbitrary_class(g: &mut Gen, allow_oob: bool) -> CoordClass {
    if !allow_oob {
        return if chance(g, 1, 3) {
            CoordClass::Edge
        } else {
            CoordClass::InRange
        };
    }
    match below(g, 12) {
        0..=4 => CoordClass::InRange,
        5..=7 => CoordClass::Edge,
        8 | 9 => CoordClass::JustOut,
        10 => CoordClass::FarOut,
        _ => CoordClass::Negative,
    }
}

/// A coordinate value of class `class` for a component whose valid range is
/// `0..limit` (`limit >= 1`).
pub fn coord_value(g: &mut Gen, class: CoordClass, limit: u32) -> i32 {
    let limit = limit.max(1) as i64;
    let v = match class {
        CoordClass::InRange => below(g, limit as usize) as i64,
        CoordClass::Edge => {
            if chance(g, 1, 2) {
                limit - 1
            } else {
                0
            }
        }
        CoordClass::JustOut => limit + below(g, 2) as i64,
        CoordClass::FarOut => pick(
            g,
            &[
                limit + 64,
                1 << 14,
                1 << 16,
                1 << 20,
                1 << 30,
                i32::MAX as i64,
            ],
        ),
        CoordClass::Negative => pick(g, &[-1, -2, -limit, -(1 << 16), i32::MIN as i64]),
    };
    v as i32
}

/// What a coordinate expression starts from.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CoordBase {
    /// 0: the coordinate is the offset.
    Zero,
    /// A component (0 = x) of the global invocation id.
    Global(u8),
    /// The invocation's linear index in the dispatch.
    Linear,
}

/// One coordinate component of an access, evaluated in 32-bit arithmetic with wrapping:
/// `base + offset (+ the loop iteration)`, then `umod wrap` if given (which keeps it in
/// range whatever the invocation).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CoordTerm {
    /// The invocation-dependent part.
    pub base: CoordBase,
    /// Added to the base.
    pub offset: i32,
    /// Add the innermost loop's iteration counter (0 outside loops).
    pub plus_iter: bool,
    /// Reduce modulo this limit.
    pub wrap: Option<u32>,
    /// The class the term was drawn for (for coverage tables).
    pub class: CoordClass,
}

impl CoordTerm {
    /// A constant coordinate.
    pub fn constant(v: i32) -> CoordTerm {
        CoordTerm {
            base: CoordBase::Zero,
            offset: v,
            plus_iter: false,
            wrap: None,
            class: CoordClass::InRange,
        }
    }

    /// The value for an invocation with global id `gid`, linear index `linear` and
    /// loop iteration `iter`.
    pub fn eval(&self, gid: [u32; 3], linear: u32, iter: u32) -> u32 {
        let base = match self.base {
            CoordBase::Zero => 0,
            CoordBase::Global(a) => gid[a as usize],
            CoordBase::Linear => linear,
        };
        let mut v = base.wrapping_add(self.offset as u32);
        if self.plus_iter {
            v = v.wrapping_add(iter);
        }
        match self.wrap {
            Some(m) => v % m.max(1),
            None => v,
        }
    }
}

impl fmt::Display for CoordTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base {
            CoordBase::Zero => write!(f, "{}", self.offset)?,
            CoordBase::Global(a) => {
                write!(f, "gid.{}{:+}", ["x", "y", "z"][a as usize], self.offset)?
            }
            CoordBase::Linear => write!(f, "lin{:+}", self.offset)?,
        }
        if self.plus_iter {
            f.write_str("+i")?;
        }
        if let Some(m) = self.wrap {
            write!(f, " mod {m}")?;
        }
        Ok(())
    }
}

/// The dispatch a coordinate expression can refer to: the global grid size per axis and
/// the number of invocations.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Grid {
    /// Global size in x, y, z (local size times workgroups).
    pub global: [u32; 3],
}

impl Grid {
    /// Number of invocations.
    pub fn invocations(&self) -> u32 {
        self.global.iter().product()
    }

    /// How many distinct values `base` takes over the dispatch.
    pub fn extent(&self, base: CoordBase) -> u32 {
        match base {
            CoordBase::Zero => 1,
            CoordBase::Global(a) => self.global[a as usize],
            CoordBase::Linear => self.invocations(),
        }
    }
}

/// A coordinate expression for component `component` whose valid range is `0..limit`.
///
/// The base prefers the invocation id's matching axis (so neighbouring invocations
/// touch neighbouring texels); the offset places the range of values the dispatch
/// produces according to a drawn [`CoordClass`]: inside, straddling the edge (some
/// invocations in, some out), just above, far above, or below 0. Without `allow_oob`
/// every term is in range for every invocation (a constant below the limit, or a
/// wrapped expression).
pub fn arbitrary_coord_term(
    g: &mut Gen,
    component: u8,
    limit: u32,
    grid: &Grid,
    allow_oob: bool,
    in_loop: bool,
) -> CoordTerm {
    let limit = limit.max(1);
    let class = arbitrary_class(g, allow_oob);
    let base = match below(g, 8) {
        0 => CoordBase::Zero,
        1 => CoordBase::Linear,
        2 => CoordBase::Global(below(g, 3) as u8),
        _ => CoordBase::Global(component.min(2)),
    };
    let plus_iter = in_loop && chance(g, 1, 3);
    let extent = grid.extent(base) as i64 + plus_iter as i64 * 2;
    let l = limit as i64;
    if !allow_oob {
        // In range for every invocation: a wrapped expression, or a constant.
        if base == CoordBase::Zero && !plus_iter {
            return CoordTerm {
                class,
                ..CoordTerm::constant(coord_value(g, class, limit))
            };
        }
        let offset = if chance(g, 1, 4) {
            pick(g, &[i32::MAX, -1, -(l as i32), 1 << 20])
        } else {
            below(g, limit as usize + 3) as i32
        };
        return CoordTerm {
            base,
            offset,
            plus_iter,
            wrap: Some(limit),
            class,
        };
    }
    let offset: i64 = match class {
        CoordClass::InRange => below(g, (l - extent).max(1) as usize) as i64,
        // Straddle the edge: the upper one at half the range, or the lower one.
        CoordClass::Edge => {
            if chance(g, 2, 3) {
                l - (extent + 1) / 2
            } else {
                -(extent / 2)
            }
        }
        CoordClass::JustOut => l + below(g, 2) as i64,
        CoordClass::FarOut => pick(g, &[l + 64, 1 << 16, 1 << 20, i32::MAX as i64 - 8]),
        CoordClass::Negative => pick(g, &[-extent, -1 - extent, -(1 << 16), i32::MIN as i64]),
    };
    CoordTerm {
        base,
        offset: offset as i32,
        plus_iter,
        wrap: None,
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_range_terms_stay_in_range() {
        let mut g = Gen::from_size_and_seed(10, 3);
        let grid = Grid { global: [8, 4, 2] };
        for _ in 0..5000 {
            let limit = 1 + below(&mut g, 70) as u32;
            let comp = below(&mut g, 3) as u8;
            let t = arbitrary_coord_term(&mut g, comp, limit, &grid, false, true);
            for lin in 0..grid.invocations() {
                let gid = [lin % 8, (lin / 8) % 4, lin / 32];
                for iter in 0..3 {
                    let v = t.eval(gid, lin, iter);
                    assert!(v < limit, "{t} with limit {limit}: {v}");
                }
            }
        }
    }

    #[test]
    fn edge_terms_straddle_the_limit() {
        let mut g = Gen::from_size_and_seed(10, 4);
        let grid = Grid { global: [8, 1, 1] };
        let mut straddled = 0;
        for _ in 0..2000 {
            let t = arbitrary_coord_term(&mut g, 0, 20, &grid, true, false);
            if t.class == CoordClass::Edge && t.base == CoordBase::Global(0) {
                let vals: Vec<i32> = (0..8).map(|x| t.eval([x, 0, 0], x, 0) as i32).collect();
                let inside = vals.iter().filter(|&&v| (0..20).contains(&v)).count();
                assert!(inside > 0 && inside < 8, "{t}: {vals:?}");
                straddled += 1;
            }
        }
        assert!(straddled > 50);
    }

    #[test]
    fn values_by_class() {
        let mut g = Gen::from_size_and_seed(10, 5);
        for _ in 0..1000 {
            let c = arbitrary_class(&mut g, true);
            let v = coord_value(&mut g, c, 9);
            assert_eq!((0..9).contains(&v), c.in_range(), "{c:?} {v}");
        }
    }
}
