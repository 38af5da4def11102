//! Folding arithmetic on the numbers of a copy ([`Arith`]).

use super::copy::Num;
use ir::{Builder, Src, Value};
use std::collections::HashMap;

/// Emits (or folds) 32- or 64-bit arithmetic on [`Num`]s. Constants are emitted once
/// per copy: the code of a copy is a pre-header followed by one loop body (or `if`
/// side), so a constant emitted first in either dominates its later uses.
pub(super) struct Arith<'b, 'f> {
    pub(super) b: &'b mut Builder<'f>,
    pub(super) consts: HashMap<(u8, u64), Value>,
}

impl<'b, 'f> Arith<'b, 'f> {
    pub(super) fn new(b: &'b mut Builder<'f>) -> Self {
        Arith {
            b,
            consts: HashMap::new(),
        }
    }

    pub(super) fn imm(&mut self, bits: u8, k: u64) -> Value {
        if let Some(&v) = self.consts.get(&(bits, k)) {
            return v;
        }
        let v = self.b.imm_int(bits, k as i64);
        self.consts.insert((bits, k), v);
        v
    }

    pub(super) fn src(&mut self, x: Num, bits: u8) -> Src {
        match x {
            Num::K(k) => Src::new(self.imm(bits, k)),
            Num::V(s) => s,
        }
    }

    pub(super) fn mask(bits: u8) -> u64 {
        ir::types::bit_mask(bits)
    }

    pub(super) fn add(&mut self, x: Num, y: Num, bits: u8) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) => Num::K(a.wrapping_add(b) & Self::mask(bits)),
            (Num::K(0), v) | (v, Num::K(0)) => v,
            (x, y) => {
                let (x, y) = (self.src(x, bits), self.src(y, bits));
                Num::V(Src::new(self.b.iadd(x, y)))
            }
        }
    }

    pub(super) fn mul(&mut self, x: Num, y: Num, bits: u8) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) => Num::K(a.wrapping_mul(b) & Self::mask(bits)),
            (Num::K(0), _) | (_, Num::K(0)) => Num::K(0),
            (Num::K(1), v) | (v, Num::K(1)) => v,
            (Num::K(k), v) | (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, bits);
                let sh = self.imm(32, k.trailing_zeros() as u64);
                Num::V(Src::new(self.b.ishl(v, sh)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, bits), self.src(y, bits));
                Num::V(Src::new(self.b.imul(x, y)))
            }
        }
    }

    /// `x / y` (unsigned, 32-bit); `y` is never the constant 0 here.
    pub(super) fn udiv(&mut self, x: Num, y: Num) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) if b != 0 => Num::K(a / b),
            (v, Num::K(1)) => v,
            (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, 32);
                let sh = self.imm(32, k.trailing_zeros() as u64);
                Num::V(Src::new(self.b.ushr(v, sh)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, 32), self.src(y, 32));
                Num::V(Src::new(self.b.udiv(x, y)))
            }
        }
    }

    /// `x mod y` (unsigned, 32-bit); `y` is never the constant 0 here.
    pub(super) fn umod(&mut self, x: Num, y: Num) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) if b != 0 => Num::K(a % b),
            (_, Num::K(1)) => Num::K(0),
            (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, 32);
                let m = self.imm(32, k - 1);
                Num::V(Src::new(self.b.iand(v, m)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, 32), self.src(y, 32));
                Num::V(Src::new(self.b.umod(x, y)))
            }
        }
    }

    /// Zero-extends a 32-bit number to 64 bits.
    pub(super) fn u2u64(&mut self, x: Num) -> Num {
        match x {
            Num::K(k) => Num::K(k),
            Num::V(s) => Num::V(Src::new(self.b.u2u64(s))),
        }
    }
}
