//! Register pressure: the most bytes of SIMT values live at once.
//!
//! A kernel whose live values alone exceed the register file cannot compile without
//! spilling, and GenX_IR 1.0.12504 treats a spill as a failure (exit status 1) or
//! crashes on it. The back end reports such a kernel as an error naming the place of
//! the peak instead of handing over a listing that cannot compile.
//!
//! Liveness is [`crate::liveness`]'s: a value computed where it is used
//! ([`crate::fold`]) keeps its operands live there instead.

use crate::liveness::Liveness;
use ir::{Function, Inst, Value};
use std::collections::{HashMap, HashSet};

/// The peak of live bytes, and an instruction where it is reached. `folded` gives the
/// operands of a folded value (nothing for other values); `scratch` the bytes an
/// instruction's expansion holds besides the values, during the instruction (see
/// [`scratch_peak`]).
pub fn peak(
    func: &Function,
    bytes: &dyn Fn(Value) -> u32,
    folded: &dyn Fn(Value) -> Vec<Value>,
    scratch: &dyn Fn(Inst) -> u32,
) -> (u32, Option<Inst>) {
    let liveness = Liveness::new(func, folded);
    let mut best = (0u32, None);
    for b in func.blocks_in_order() {
        let mut live = liveness.live_out(b);
        for inst in func.block_insts(b).collect::<Vec<_>>().into_iter().rev() {
            // During an instruction its sources, its destination and everything live
            // across it occupy registers.
            let d = func.inst(inst).dest;
            let uses = liveness.uses(inst);
            let mut during: HashSet<Value> = live.clone();
            during.extend(d);
            during.extend(uses.iter().copied());
            let total: u32 = during.iter().map(|v| bytes(*v)).sum::<u32>() + scratch(inst);
            if total > best.0 {
                best = (total, Some(inst));
            }
            if let Some(d) = d {
                live.remove(&d);
            }
            live.extend(uses);
        }
    }
    best
}

/// The most bytes of temporaries live at once in `text`, the emitted lines of one
/// instruction: a temporary `t<n>` (or a typed view of it, `t<n>_ud`) with `n` after
/// `first` is live from the first line that names it to the last, and `bytes` gives
/// its size (`None`: not a temporary of the instruction). A long expansion (an exact
/// division, a format conversion) can hold more temporaries at once than a fixed
/// margin allows for, and GenX_IR keeps every one of them in registers.
pub fn scratch_peak(text: &str, first: u32, bytes: &dyn Fn(u32) -> Option<u32>) -> u32 {
    // Per temporary: its size and its first and last line.
    let mut spans: HashMap<u32, (u32, usize, usize)> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        for tok in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            let Some(rest) = tok.strip_prefix('t') else {
                continue;
            };
            let digits = rest.split('_').next().unwrap_or("");
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let Ok(n) = digits.parse::<u32>() else {
                continue;
            };
            if n <= first {
                continue;
            }
            if let Some(b) = bytes(n) {
                spans.entry(n).and_modify(|s| s.2 = i).or_insert((b, i, i));
            }
        }
    }
    // Sizes start at their first line and end after their last.
    let mut events: Vec<(usize, i64)> = Vec::with_capacity(2 * spans.len());
    for &(b, from, to) in spans.values() {
        events.push((from, i64::from(b)));
        events.push((to + 1, -i64::from(b)));
    }
    // Ends before starts at the same line.
    events.sort_unstable_by_key(|&(at, d)| (at, d));
    let (mut now, mut best) = (0i64, 0i64);
    for (_, d) in events {
        now += d;
        best = best.max(now);
    }
    best as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_counts_values_live_together() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = iadd %0.x, %0.y
    32   %2 = iadd %1, %0.z
    1    %3 = ult %1, %2
  if %3 {
    block b1:
      32x4 %4 = vec4 %1, %1, %2, %2
      32   %5 = iadd %4.x, %4.w
  } else {
    block b2:
  }
  block b3:
    32   %6 = phi b1: %5, b2: %2
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        // Per component 4 bytes: at `vec4`, %1 and %2 and the new 4 components are
        // live: 4 + 4 + 16 = 24.
        let size = |v: Value| 4 * u32::from(f.value_type(v).num_components());
        let (bytes, at) = peak(f, &size, &|_| Vec::new(), &|_| 0);
        assert_eq!(bytes, 24);
        let at = at.unwrap();
        assert_eq!(f.inst(at).dest.map(|v| v.as_u32()), Some(4));
    }

    #[test]
    fn scratch_peak_counts_temporaries_live_together() {
        // t5 (64 bytes) is live on lines 0 to 2, t6 (32) on 1 to 3, t7 (64) on 3 to 4:
        // the most at once is 96 (lines 1 and 2, and line 3). t4 is older than the
        // instruction, v9 is no temporary, `tgm` no name.
        let text = "lifetime.start t5
    mov (M1, 16) t6(0,0)<1> t4(0,0)<1;1,0>
    add (M1, 16) t5_ud(0,0)<1> t5(0,0)<1;1,0> v9(0,0)<1;1,0>
    lsc_store_quad.tgm (M1, 8)  bti(0x0)[t6,t7.32]:a32  v9:d32.x
    mov (M1, 16) v9(0,0)<1> t7(0,0)<1;1,0>";
        let size = |n: u32| match n {
            4 | 5 | 7 => Some(64),
            6 => Some(32),
            _ => None,
        };
        assert_eq!(scratch_peak(text, 4, &size), 96);
        assert_eq!(scratch_peak(text, 7, &size), 0);
    }
}
