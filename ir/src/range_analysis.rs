//! Upper bounds of integer values read as unsigned, after NIR's
//! `nir_unsigned_upper_bound` (`nir_range_analysis.c`).
//!
//! A bound follows a value back through its definitions: constants are their own bound,
//! the compute system values are bounded by the workgroup size the shader declares and
//! by the device's dispatch limits ([`UpperBoundConfig`]), and the integer ALU
//! operations combine their operands' bounds where the result cannot wrap. Everything
//! else (memory loads, phis that feed themselves, float conversions, 64-bit values)
//! is bounded only by its type. A back end asks it the question NIR's users ask:
//! whether a 32-bit value is known non-negative when read as signed
//! ([`UpperBounds::non_negative`]), which lets a signed division skip the sign fix-ups.

use crate::alu::AluOp;
use crate::entity::Value;
use crate::function::{Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use std::collections::HashMap;

/// What bounds the system values: NIR's `nir_unsigned_upper_bound_config`, reduced to
/// the compute values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UpperBoundConfig {
    /// The workgroup size the shader declares (`local_size`).
    pub local_size: [u32; 3],
    /// The most workgroups a dispatch may have in each dimension, base included (Vulkan's
    /// `maxComputeWorkGroupCount`).
    pub max_workgroup_count: [u32; 3],
    /// The widest subgroup the shader may run with.
    pub max_subgroup_size: u32,
}

impl UpperBoundConfig {
    /// The bounds of a Vulkan dispatch on Intel hardware: anv's
    /// `maxComputeWorkGroupCount` of 65535 in each dimension (`anv_device.c`) and
    /// subgroups of at most 32 invocations.
    pub fn vulkan(local_size: [u32; 3]) -> UpperBoundConfig {
        UpperBoundConfig {
            local_size,
            max_workgroup_count: [65535; 3],
            max_subgroup_size: 32,
        }
    }
}

/// How deep a bound follows definitions before it settles for the type's maximum, as
/// NIR's analysis stops: a bound is an optimization hint, and a long chain rarely
/// stays small.
const MAX_DEPTH: u32 = 24;

/// The upper bounds of one function's values, computed on demand and remembered.
#[derive(Debug)]
pub struct UpperBounds<'f> {
    func: &'f Function,
    config: UpperBoundConfig,
    known: HashMap<(Value, u8), u64>,
}

impl<'f> UpperBounds<'f> {
    /// The bounds of `func`'s values under `config`.
    pub fn new(func: &'f Function, config: UpperBoundConfig) -> UpperBounds<'f> {
        UpperBounds {
            func,
            config,
            known: HashMap::new(),
        }
    }

    /// The largest value component `component` of `value` may take, read as unsigned.
    pub fn scalar(&mut self, value: Value, component: u8) -> u64 {
        self.bound(value, component, 0)
    }

    /// Whether component `component` of 32-bit (or narrower) `value` is known to be
    /// below `2^(bits - 1)`: the same number read as signed or unsigned.
    pub fn non_negative(&mut self, value: Value, component: u8) -> bool {
        let bits = self.func.value_type(value).bit_size();
        (1..=32).contains(&bits) && self.scalar(value, component) < 1u64 << (bits - 1)
    }

    fn bound(&mut self, value: Value, component: u8, depth: u32) -> u64 {
        let bits = self.func.value_type(value).bit_size();
        let max = type_max(bits);
        if let Some(&b) = self.known.get(&(value, component)) {
            return b;
        }
        if depth >= MAX_DEPTH || bits > 32 {
            return max;
        }
        // A phi may read itself through its loop: the type's maximum stands in while its
        // sources are bounded.
        self.known.insert((value, component), max);
        let b = self.compute(value, component, depth).min(max);
        self.known.insert((value, component), b);
        b
    }

    fn compute(&mut self, value: Value, component: u8, depth: u32) -> u64 {
        let bits = self.func.value_type(value).bit_size();
        let max = type_max(bits);
        let Some(inst) = self.func.value_def(value) else {
            return max;
        };
        match &self.func.inst(inst).kind {
            InstKind::LoadConst(c) => c.get(usize::from(component)).copied().unwrap_or(max),
            InstKind::Undef => max,
            InstKind::Phi(phi) => {
                let mut b = 0;
                for (_, s) in &phi.srcs {
                    b = b.max(self.bound(s.value, s.swizzle.component(component), depth + 1));
                    if b == max {
                        break;
                    }
                }
                b
            }
            InstKind::Intrinsic(i) => self.system_value(i.op, component).unwrap_or(max),
            InstKind::Alu(alu) => {
                let src = |this: &mut Self, k: usize| {
                    let s = alu.srcs[k];
                    this.bound(s.value, s.swizzle.component(component), depth + 1)
                };
                let const_src = |this: &Self, k: usize| {
                    let s = alu.srcs[k];
                    this.constant(s.value, s.swizzle.component(component))
                };
                match alu.op {
                    AluOp::Mov => src(self, 0),
                    // Component `k` of a vector is its source `k`.
                    op if is_vec(op) => {
                        let s = alu.srcs[usize::from(component)];
                        self.bound(s.value, s.swizzle.component(0), depth + 1)
                    }
                    // A sum or product that may wrap is bounded by the type alone, which
                    // the caller's clamp gives.
                    AluOp::Iadd => src(self, 0).saturating_add(src(self, 1)),
                    AluOp::Imul => src(self, 0).saturating_mul(src(self, 1)),
                    AluOp::Iand | AluOp::Umin => src(self, 0).min(src(self, 1)),
                    AluOp::Umax => src(self, 0).max(src(self, 1)),
                    AluOp::Ior | AluOp::Ixor => all_ones_up_to(src(self, 0).max(src(self, 1))),
                    AluOp::Udiv => src(self, 0),
                    // Below the divisor, and 0 for a zero divisor.
                    AluOp::Umod => src(self, 0).min(src(self, 1).saturating_sub(1)),
                    AluOp::Ishl => match const_src(self, 1) {
                        Some(k) => {
                            let k = k & u64::from(bits - 1);
                            let a = src(self, 0);
                            if a <= max >> k {
                                a << k
                            } else {
                                max
                            }
                        }
                        None => max,
                    },
                    AluOp::Ushr => {
                        let k = const_src(self, 1).map_or(0, |k| k & u64::from(bits - 1));
                        src(self, 0) >> k
                    }
                    // A non-negative operand shifts as `ushr`.
                    AluOp::Ishr => {
                        let a = src(self, 0);
                        if a < 1u64 << (bits - 1) {
                            let k = const_src(self, 1).map_or(0, |k| k & u64::from(bits - 1));
                            a >> k
                        } else {
                            max
                        }
                    }
                    AluOp::Imin | AluOp::Imax => {
                        let (a, b) = (src(self, 0), src(self, 1));
                        let half = 1u64 << (bits - 1);
                        match (a < half, b < half, alu.op) {
                            (true, true, AluOp::Imin) => a.min(b),
                            (true, true, _) => a.max(b),
                            // The minimum with a non-negative operand is at most it, but
                            // may be negative.
                            _ => max,
                        }
                    }
                    AluOp::Bcsel => src(self, 1).max(src(self, 2)),
                    AluOp::Ubfe => match const_src(self, 2) {
                        Some(w) => type_max((w & 31) as u8),
                        None => max,
                    },
                    AluOp::ExtractU8 => 0xff,
                    AluOp::ExtractU16 => 0xffff,
                    // At most the source's bits (a 64-bit source counts up to 64).
                    AluOp::BitCount => {
                        u64::from(self.func.value_type(alu.srcs[0].value).bit_size())
                    }
                    AluOp::B2i32 => 1,
                    // Widening keeps the value; narrowing keeps it where it fits.
                    AluOp::U2u8 | AluOp::U2u16 | AluOp::U2u32 => {
                        let s = alu.srcs[0];
                        let from = self.func.value_type(s.value).bit_size();
                        let b = src(self, 0);
                        if from <= bits {
                            b
                        } else {
                            b.min(max)
                        }
                    }
                    AluOp::I2i8 | AluOp::I2i16 | AluOp::I2i32 => {
                        let s = alu.srcs[0];
                        let from = self.func.value_type(s.value).bit_size();
                        let b = src(self, 0);
                        if from < bits && from > 0 && b < 1u64 << (from - 1) {
                            b
                        } else if from >= bits {
                            b.min(max)
                        } else {
                            max
                        }
                    }
                    _ => max,
                }
            }
        }
    }

    /// The bound of component `component` of a compute system value.
    fn system_value(&self, op: IntrinsicOp, component: u8) -> Option<u64> {
        let c = usize::from(component).min(2);
        let local = u64::from(self.config.local_size[c].max(1));
        let groups = u64::from(self.config.max_workgroup_count[c].max(1));
        let invocations: u64 = self
            .config
            .local_size
            .iter()
            .map(|&n| u64::from(n.max(1)))
            .product();
        let subgroup = u64::from(self.config.max_subgroup_size.max(1));
        Some(match op {
            IntrinsicOp::LoadLocalInvocationId => local - 1,
            IntrinsicOp::LoadLocalInvocationIndex => invocations - 1,
            IntrinsicOp::LoadWorkgroupId => groups - 1,
            IntrinsicOp::LoadNumWorkgroups => groups,
            IntrinsicOp::LoadGlobalInvocationId => groups * local - 1,
            IntrinsicOp::LoadSubgroupInvocation => subgroup - 1,
            IntrinsicOp::LoadSubgroupSize => subgroup,
            IntrinsicOp::LoadSubgroupId => invocations - 1,
            _ => return None,
        })
    }

    /// Component `component` of `value` when it is a constant.
    fn constant(&self, value: Value, component: u8) -> Option<u64> {
        let inst = self.func.value_def(value)?;
        match &self.func.inst(inst).kind {
            InstKind::LoadConst(c) => c.get(usize::from(component)).copied(),
            _ => None,
        }
    }
}

fn is_vec(op: AluOp) -> bool {
    matches!(
        op,
        AluOp::Vec2 | AluOp::Vec3 | AluOp::Vec4 | AluOp::Vec8 | AluOp::Vec16
    )
}

/// The largest `bits`-bit unsigned value.
fn type_max(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Every bit up to the highest set bit of `x` set: a bound of an `ior` or `ixor` of
/// values at most `x`.
fn all_ones_up_to(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        u64::MAX >> x.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_shader;

    /// The bounds of the values `names` of the shader's first function.
    fn bounds(text: &str, names: &[u32]) -> Vec<u64> {
        let shader = parse_shader(text).unwrap_or_else(|e| panic!("{e:?}"));
        let func = &shader.functions[0];
        let mut ub = UpperBounds::new(func, UpperBoundConfig::vulkan(shader.local_size));
        names
            .iter()
            .map(|&n| ub.scalar(func.value_named(n).expect("a value of the text"), 0))
            .collect()
    }

    #[test]
    fn system_values_and_their_arithmetic() {
        let text = "shader compute (local_size=64,2,1)
fn main {
  block b0:
    32x3 %1 = @load_global_invocation_id
    32x3 %2 = @load_local_invocation_id
    32   %3 = load_const (0x00000002)
    32   %4 = ishl %1.x, %3
    32   %5 = iadd %4, %3
    32   %6 = @load_push_constant (%3) (base=0, range=4)
    32   %7 = umod %6, %5
    32   %8 = iand %6, %3
    32   %9 = ior %2.y, %3
    32   %10 = ishl %6, %3
    32   %11 = imul %1.x, %1.x
    32   %12 = ushr %6, %3
    32   %13 = bcsel %8, %2.x, %9
    32   %14 = ushr %1.x, %6
}
";
        // 65535 groups of 64: ids up to 4194239; times 4 is 16776956, plus 2.
        assert_eq!(
            bounds(text, &[1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
            [
                4_194_239,
                16_776_956,
                16_776_958,
                u32::MAX as u64,
                16_776_957,
                2,
                3,
                u32::MAX as u64,
                u32::MAX as u64,
                u32::MAX as u64 >> 2,
                63,
                4_194_239,
            ]
        );
    }

    #[test]
    fn loops_settle_for_the_type_maximum() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32 %1 = load_const (0x00000000)
    32 %2 = load_const (0x00000001)
  loop {
    block b1:
      32 %3 = phi b0: %1, b1: %4
      32 %4 = iadd %3, %2
  }
  block b3:
}
";
        assert_eq!(bounds(text, &[3, 4]), [u32::MAX as u64, u32::MAX as u64]);
    }

    #[test]
    fn non_negative_means_below_the_sign_bit() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %1 = @load_workgroup_id
    32   %2 = load_const (0x7fffffff)
    32   %3 = load_const (0x80000000)
}
";
        let shader = parse_shader(text).unwrap();
        let func = &shader.functions[0];
        let mut ub = UpperBounds::new(func, UpperBoundConfig::vulkan(shader.local_size));
        let v = |n| func.value_named(n).unwrap();
        assert!(ub.non_negative(v(1), 2));
        assert!(ub.non_negative(v(2), 0));
        assert!(!ub.non_negative(v(3), 0));
    }
}
