//! Unsigned division by a constant (`opt-idiv-const`), NIR's `nir_opt_idiv_const` for
//! 32-bit `udiv` and `umod`: a multiplication by a precomputed reciprocal and shifts
//! instead of a division, which Intel's Gfx12.5 and later have no instruction for (the
//! back end would emulate it in some twenty instructions).
//!
//! The reciprocal is Granlund and Montgomery's for every 32-bit dividend ("Division by
//! Invariant Integers using Multiplication", 1994, figure 4.1): for a divisor `d` that
//! is not a power of two, `l = ⌈log2 d⌉` and `m = ⌊2^32 (2^l - d) / d⌋ + 1` (which fits
//! 32 bits); then
//!
//! ```text
//! t = umul_high(n, m)
//! n / d = (t + ((n - t) >> 1)) >> (l - 1)
//! n % d = n - (n / d) * d
//! ```
//!
//! Powers of two, 0 and 1 are `algebraic`'s (a shift, a mask, NIR's 0); other bit
//! sizes, signed division and vectors of different divisors are left as they are.

use super::const_fold::const_components;
use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::builder::Builder;
use crate::function::{Cursor, Function};
use crate::shader::Shader;
use crate::types::{Src, Type};
use std::collections::HashMap;

/// The pass, `opt-idiv-const`.
#[derive(Copy, Clone, Debug, Default)]
pub struct IdivConst;

impl Pass for IdivConst {
    fn name(&self) -> &'static str {
        "opt-idiv-const"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= idiv_const_function(f);
        }
        Ok(changed)
    }
}

/// The multiplier `m` and the final shift `l - 1` for divisor `d` (2 < d, not a power
/// of two).
pub fn reciprocal(d: u32) -> (u32, u32) {
    let l = 32 - (d - 1).leading_zeros();
    let m = ((1u128 << 32) * ((1u128 << l) - u128::from(d)) / u128::from(d)) + 1;
    (m as u32, l - 1)
}

fn idiv_const_function(func: &mut Function) -> bool {
    let mut map = HashMap::new();
    for inst in func.insts_in_order() {
        let Some(alu) = func.inst(inst).as_alu() else {
            continue;
        };
        if !matches!(alu.op, AluOp::Udiv | AluOp::Umod) {
            continue;
        }
        let (op, n, d) = (alu.op, alu.srcs[0], alu.srcs[1]);
        let Some(dest) = func.inst(inst).dest else {
            continue;
        };
        let ty = func.value_type(dest);
        if ty.bit_size() != 32 {
            continue;
        }
        let Some(divisors) = const_components(func, d) else {
            continue;
        };
        let Some(&d) = divisors.first() else { continue };
        if divisors.iter().any(|&x| x != d) || d < 3 || (d as u32).is_power_of_two() {
            continue;
        }
        let d = d as u32;
        let (m, shift) = reciprocal(d);
        let n_comps = ty.num_components();
        let span = func.inst_span(inst);
        let mut b = Builder::new(func, Cursor::Before(inst));
        b.span = span;
        let splat = |b: &mut Builder<'_>, v: u32| -> Src {
            let t = Type::new(32, n_comps).expect("a 32-bit vector type");
            let bits: Vec<u64> = (0..n_comps).map(|_| u64::from(v)).collect();
            Src::new(b.load_const(t, &bits))
        };
        let mk = splat(&mut b, m);
        let t = Src::new(b.alu(AluOp::UmulHigh, &[n, mk]));
        let diff = Src::new(b.alu(AluOp::Isub, &[n, t]));
        let one = splat(&mut b, 1);
        let half = Src::new(b.alu(AluOp::Ushr, &[diff, one]));
        let sum = Src::new(b.alu(AluOp::Iadd, &[t, half]));
        let sh = splat(&mut b, shift);
        let q = Src::new(b.alu(AluOp::Ushr, &[sum, sh]));
        let result = if op == AluOp::Udiv {
            q
        } else {
            let dk = splat(&mut b, d);
            let prod = Src::new(b.alu(AluOp::Imul, &[q, dk]));
            Src::new(b.alu(AluOp::Isub, &[n, prod]))
        };
        map.insert(dest, result);
    }
    let changed = !map.is_empty();
    func.replace_uses(&map);
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion on plain integers, as the instructions compute it.
    fn divide(n: u32, d: u32) -> u32 {
        let (m, shift) = reciprocal(d);
        let t = ((u64::from(n) * u64::from(m)) >> 32) as u32;
        (t + ((n - t) >> 1)) >> shift
    }

    #[test]
    fn the_reciprocal_divides_every_dividend_it_is_tried_on() {
        // Divisors small and large (2^31 + 1 and u32::MAX too), dividends at the edges
        // and at multiples of the divisor and their neighbours, and a spread between.
        let divisors = [
            3u32,
            5,
            6,
            7,
            10,
            100,
            641,
            1000,
            65_537,
            0x8000_0001,
            u32::MAX - 1,
            u32::MAX,
        ];
        for &d in &divisors {
            let mut ns = vec![
                0u32,
                1,
                d - 1,
                d,
                d + 1,
                u32::MAX,
                u32::MAX - 1,
                0x8000_0000,
            ];
            for k in [2u64, 3, 1000, 123_457] {
                let m = u64::from(d) * k;
                if m < 1 << 32 {
                    ns.extend([(m - 1) as u32, m as u32]);
                }
            }
            let mut x = 0x9e37_79b9u32;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                ns.push(x);
            }
            for n in ns {
                assert_eq!(divide(n, d), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn udiv_and_umod_by_a_constant_become_multiplications() {
        let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @load_push_constant (%0) (base=0, range=4)
    32   %2 = load_const (0x00000064)
    32   %3 = udiv %1, %2
    32   %4 = umod %1, %2
    32   %5 = iadd %3, %4
    @store_ssbo (%5, %0, %0) (access=none, align_mul=4)
}
";
        let mut s = crate::parse_shader(text).unwrap();
        assert!(IdivConst.run(&mut s).unwrap());
        // The old divisions are unused: dce removes them.
        super::super::Dce.run(&mut s).unwrap();
        let out = crate::print_shader(&s);
        assert!(out.contains("umul_high"), "{out}");
        assert!(!out.contains("udiv") && !out.contains("umod"), "{out}");
        crate::validate::validate(&s).unwrap();
    }
}
