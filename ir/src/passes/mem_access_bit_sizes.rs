//! Narrow loads as dword loads (`lower-mem-access-bit-sizes`), the part of NIR's
//! `nir_lower_mem_access_bit_sizes` that Intel's `brw_nir_lower_mem_access_bit_sizes`
//! needs for loads: a load of 8- or 16-bit components whose bytes fill whole dwords
//! (an `u8vec4`, an `f16vec2`, an `i16vec4`) at an address known to be dword aligned
//! (`align_mul` of 4 or more) reads those dwords as 32-bit components and takes the
//! components out of them (`extract_u8`, `extract_u16`, then `u2u8`, `u2u16`), little
//! endian as memory is. A `u2u32` or `i2i32` of the loaded vector reads the extracts
//! (`extract_u8`, `extract_i8`, ...) directly, which are already those conversions.
//!
//! Without it every narrow component is a byte or word gather of its own: a message,
//! and an address, per component. A load that reads a byte or a word alone, or whose
//! bytes end inside a dword, is left: reading the rest of the dword could reach past
//! the end of a buffer the original access stays inside.
//!
//! `load_ssbo`, `load_ubo` and `load_global` read at their address source;
//! `load_shared` adds its `base`, which must keep the dword alignment too.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::builder::Builder;
use crate::entity::Value;
use crate::function::{Cursor, Function, InstKind};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::shader::Shader;
use crate::types::{Src, Type};
use std::collections::HashMap;

/// The pass, `lower-mem-access-bit-sizes`.
#[derive(Copy, Clone, Debug, Default)]
pub struct LowerMemAccessBitSizes;

impl Pass for LowerMemAccessBitSizes {
    fn name(&self) -> &'static str {
        "lower-mem-access-bit-sizes"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= lower_function(f);
        }
        Ok(changed)
    }
}

fn lower_function(func: &mut Function) -> bool {
    let mut map: HashMap<Value, Src> = HashMap::new();
    // Each narrow load replaced: its dwords and its components' bit size. A definition
    // comes before its uses in program order, so one walk meets each load before the
    // conversions of its value.
    let mut words_of: HashMap<Value, (Value, u8)> = HashMap::new();
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let Some(dest) = data.dest else {
            continue;
        };
        let span = func.inst_span(inst);
        match &data.kind {
            InstKind::Intrinsic(i) => {
                let aligned_base = match i.op {
                    IntrinsicOp::LoadSsbo | IntrinsicOp::LoadUbo | IntrinsicOp::LoadGlobal => true,
                    IntrinsicOp::LoadShared => i.index(IndexKind::Base).is_some_and(|b| b % 4 == 0),
                    _ => continue,
                };
                let ty = func.value_type(dest);
                let (bits, comps) = (ty.bit_size(), ty.num_components());
                let bytes = u32::from(bits / 8) * u32::from(comps);
                if !aligned_base
                    || !matches!(bits, 8 | 16)
                    || bytes % 4 != 0
                    || bytes > 16
                    || i.index(IndexKind::AlignMul).is_none_or(|a| a < 4)
                {
                    continue;
                }
                let Some(dwords) = Type::new(32, (bytes / 4) as u8) else {
                    continue;
                };
                let (op, image, srcs, indices) = (i.op, i.image, i.srcs.clone(), i.indices.clone());
                let mut b = Builder::new(func, Cursor::Before(inst));
                b.span = span;
                let Some(words) = b.intrinsic(op, image, &srcs, &indices, Some(dwords)) else {
                    continue;
                };
                let (extract, narrow) = match bits {
                    8 => (AluOp::ExtractU8, AluOp::U2u8),
                    _ => (AluOp::ExtractU16, AluOp::U2u16),
                };
                let mut parts: Vec<Src> = Vec::with_capacity(usize::from(comps));
                for c in 0..comps {
                    let wide = extract_component(&mut b, extract, words, bits, c);
                    parts.push(Src::new(b.alu(narrow, &[wide])));
                }
                map.insert(dest, Src::new(b.vec(&parts)));
                words_of.insert(dest, (words, bits));
            }
            // A conversion of a replaced load's value to 32 bits (what a shader mostly
            // does with it) reads the extracts themselves: `extract_u8` is already
            // `u2u32` of the byte, `extract_i8` `i2i32` of it.
            InstKind::Alu(alu) => {
                let signed = match alu.op {
                    AluOp::U2u32 => false,
                    AluOp::I2i32 => true,
                    _ => continue,
                };
                let src = alu.srcs[0];
                let Some(&(words, bits)) = words_of.get(&src.value) else {
                    continue;
                };
                let extract = match (bits, signed) {
                    (8, false) => AluOp::ExtractU8,
                    (8, true) => AluOp::ExtractI8,
                    (_, false) => AluOp::ExtractU16,
                    (_, true) => AluOp::ExtractI16,
                };
                let comps = func.value_type(dest).num_components();
                let mut b = Builder::new(func, Cursor::Before(inst));
                b.span = span;
                let parts: Vec<Src> = (0..comps)
                    .map(|c| {
                        extract_component(&mut b, extract, words, bits, src.swizzle.component(c))
                    })
                    .collect();
                let v = match parts[..] {
                    [one] => one,
                    _ => Src::new(b.vec(&parts)),
                };
                map.insert(dest, v);
            }
            _ => {}
        }
    }
    let changed = !map.is_empty();
    func.replace_uses(&map);
    changed
}

/// Component `c` of the narrow vector of `bits`-wide components held in the dwords
/// `words`, taken out with `extract` (`extract_u8`, `extract_i16`, ...).
fn extract_component(b: &mut Builder<'_>, extract: AluOp, words: Value, bits: u8, c: u8) -> Src {
    let per_dword = 32 / bits;
    let word = Src::channel(words, c / per_dword);
    let at = Src::new(b.imm_u32(u32::from(c % per_dword)));
    Src::new(b.alu(extract, &[word, at]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_shader, print_shader, validate};

    fn lower(body: &str) -> (bool, String) {
        let text = format!(
            "shader compute (local_size=8,1,1)\nbuffer @b : ssbo (block=0, size=64)\n\nfn main {{\n  block b0:\n    32 %0 = load_const (0)\n    32 %1 = load_const (8)\n{body}}}\n"
        );
        let mut s = parse_shader(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let changed = LowerMemAccessBitSizes.run(&mut s).unwrap();
        validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{}", print_shader(&s)));
        (changed, print_shader(&s))
    }

    #[test]
    fn aligned_byte_vectors_read_dwords() {
        let (changed, out) = lower(
            "    8x4 %2 = @load_ssbo (%0, %1) (access=none, align_mul=8)\n    16x4 %3 = @load_ssbo (%0, %1) (access=none, align_mul=4)\n",
        );
        assert!(changed);
        assert!(
            out.contains("32   %4 = @load_ssbo (%0, %1) (access=none, align_mul=8)"),
            "{out}"
        );
        assert!(out.contains("32x2 %"), "{out}");
        assert_eq!(out.matches("extract_u8").count(), 4, "{out}");
        assert_eq!(out.matches("extract_u16").count(), 4, "{out}");
    }

    #[test]
    fn unaligned_or_partial_loads_stay() {
        let (changed, out) = lower(
            "    8x4 %2 = @load_ssbo (%0, %1) (access=none, align_mul=2)\n    8x2 %3 = @load_ssbo (%0, %1) (access=none, align_mul=4)\n    8x3 %4 = @load_ssbo (%0, %1) (access=none, align_mul=4)\n",
        );
        assert!(!changed, "{out}");
    }
}
