//! Group async copies: `group_async_copy_2d2d` / `group_async_copy_3d3d`, the
//! instructions of Codeplay's `NonSemantic.Codeplay.GroupAsyncCopies` SPIR-V extended
//! instruction set (the builtins of the `cl_khr_extended_async_copies` OpenCL C
//! extension).
//!
//! The generic source checks already require 32-bit scalars for everything but the two
//! pointers. Here:
//!
//! - the pointers: the specification requires one side in Workgroup storage and the
//!   other in CrossWorkgroup storage. In the IR a global (CrossWorkgroup) pointer is a
//!   64-bit address and a shared (Workgroup) pointer a 32-bit byte offset, so exactly one
//!   of `dst` and `src` is 32-bit and the other 64-bit;
//! - a constant `elem_bytes` is a power of two from 1 to 128: the sizes of the OpenCL C
//!   gentypes the builtins copy (char to double16/long16; 3-component vectors are sized
//!   as 4-component ones);
//! - what the specification leaves undefined and constants reveal: a line length below
//!   the elements per line (overlapping lines) and a plane area below lines x line length
//!   (overlapping planes). With dynamic operands the executor reports these at run time.

use super::context::{FnCheck, IntrCtx};
use super::error::AsyncCopyError;
use crate::types::{Src, Type};

impl FnCheck<'_> {
    /// The value of a scalar source defined by a `load_const`.
    pub(super) fn const_scalar(&self, src: Src) -> Option<u64> {
        if src.value.index() >= self.func.num_value_ids() {
            return None;
        }
        let def = self.func.value_def(src.value)?;
        if def.index() >= self.func.num_inst_ids() {
            return None;
        }
        let vals = self.func.inst(def).as_const()?;
        vals.get(src.swizzle.component(0) as usize).copied()
    }

    pub(super) fn check_async_copy(
        &mut self,
        c: &IntrCtx<'_>,
        src_of: &dyn Fn(&str) -> Option<Type>,
    ) {
        let (op, span, intr) = (c.op, c.span, c.intr);
        // The pointers.
        let ptr_bits = |which: &str| src_of(which).map(|t| t.bit_size());
        for pointer in ["dst", "src"] {
            if let Some(bits) = ptr_bits(pointer) {
                if bits != 32 && bits != 64 {
                    self.error(
                        span,
                        AsyncCopyError::PointerBits {
                            op,
                            pointer,
                            found: bits,
                        },
                    );
                }
            }
        }
        if let (Some(d), Some(s)) = (ptr_bits("dst"), ptr_bits("src")) {
            if d == s && (d == 32 || d == 64) {
                self.error(span, AsyncCopyError::SameMemory { op, bits: d });
            }
        }
        // Constant operands, by name.
        let Some(specs) = intr.op.srcs(&intr.indices) else {
            return;
        };
        let konst = |this: &Self, which: &str| -> Option<u64> {
            let k = specs.iter().position(|s| s.name == which)?;
            this.const_scalar(*intr.srcs.get(k)?)
        };
        if let Some(eb) = konst(self, "elem_bytes") {
            if !eb.is_power_of_two() || eb > 128 {
                self.error(span, AsyncCopyError::ElemBytes { op, value: eb });
            }
        }
        let epl = konst(self, "elems_per_line");
        let lines = konst(self, "lines");
        for side in ["src", "dst"] {
            let ll = konst(self, &format!("{side}_line_length"));
            if let (Some(ll), Some(epl)) = (ll, epl) {
                if ll < epl {
                    self.error(
                        span,
                        AsyncCopyError::LinesOverlap {
                            op,
                            side,
                            line_length: ll,
                            elems_per_line: epl,
                        },
                    );
                }
            }
            let pa = konst(self, &format!("{side}_plane_area"));
            if let (Some(pa), Some(lines), Some(ll)) = (pa, lines, ll) {
                // In 128 bits: a 64-bit constant (reported by the source checks) must
                // not overflow the product.
                if u128::from(pa) < u128::from(lines) * u128::from(ll) {
                    self.error(
                        span,
                        AsyncCopyError::PlanesOverlap {
                            op,
                            side,
                            plane_area: pa,
                            lines,
                            line_length: ll,
                        },
                    );
                }
            }
        }
    }
}
