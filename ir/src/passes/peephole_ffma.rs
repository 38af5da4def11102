//! Multiply-add fusion (`opt-peephole-ffma`), brw's `brw_nir_opt_peephole_ffma`: an
//! `fadd` of an `fmul` becomes one `ffma`, which Intel's `mad` computes in one
//! instruction with one rounding. An `fsub` fuses too, as NIR sees it (brw lowers
//! `fsub` to an `fadd` of an `fneg`, and `fneg (fmul a, b)` is `fmul (fneg a), b`):
//! `c - a b` is `ffma(-a, b, c)` and `a b - c` is `ffma(a, b, -c)`, the negations
//! exact (and free: the back end reads them as source modifiers).
//!
//! SPIR-V lets an implementation contract a multiplication and an addition that are not
//! decorated `NoContraction` (GLSL's `precise`: NIR's `exact`), and brw fuses them as
//! this pass does:
//!
//! * neither the `fadd` nor the `fmul` is `exact`;
//! * every use of the `fmul` is an `fadd` or `fsub` (a product also read elsewhere would be
//!   computed twice: fusing would cost an instruction, not save one); each of those adds
//!   becomes an `ffma` of the product's operands;
//! * not `a + a` or `a - a`;
//! * not when a constant read only there is an operand of the `fmul` and another one of
//!   the `fadd`: the constants then fold into the two instructions' immediates, where a
//!   three-source `mad` takes none before Gfx12 (brw's `any_alu_src_is_a_constant`).
//!
//! Fusion changes the rounding of the sum (the product is not rounded), so it is not an
//! optimization the rest of the IR may apply freely: the IR's `fmul` and `fadd` round
//! each result. The front ends run it on a translated shader, where SPIR-V's
//! contraction rule allows it, so that the shader the verifier takes as its reference
//! already computes what the hardware will (`ir/PRECISION.md`).

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::{Inst, Value};
use crate::function::{AluInst, Function, InstKind};
use crate::shader::Shader;
use crate::types::Src;

/// The pass, `opt-peephole-ffma`.
#[derive(Copy, Clone, Debug, Default)]
pub struct PeepholeFfma;

impl Pass for PeepholeFfma {
    fn name(&self) -> &'static str {
        "opt-peephole-ffma"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= fuse_function(f);
        }
        Ok(changed)
    }
}

/// Who reads each value: how many readers, and whether all are `fadd`s or `fsub`s, by
/// value index.
struct Readers {
    count: Vec<u32>,
    only_adds: Vec<bool>,
}

impl Readers {
    fn of(func: &Function) -> Readers {
        let n = func.num_value_ids();
        let mut r = Readers {
            count: vec![0; n],
            only_adds: vec![true; n],
        };
        for inst in func.insts_in_order() {
            let data = func.inst(inst);
            let is_add =
                matches!(&data.kind, InstKind::Alu(a) if matches!(a.op, AluOp::Fadd | AluOp::Fsub));
            data.for_each_src(|s| {
                let i = s.value.index();
                r.count[i] += 1;
                r.only_adds[i] &= is_add;
            });
        }
        // An `if` reads its condition: never a float, but say so rather than assume.
        for id in 0..func.num_if_ids() {
            let cond = func.if_data(crate::entity::IfId::from_u32(id as u32)).cond;
            r.only_adds[cond.value.index()] = false;
        }
        r
    }

    /// Whether `s` is a constant this is its only reader of.
    fn single_use_constant(&self, func: &Function, s: Src) -> bool {
        self.count[s.value.index()] == 1
            && func
                .value_def(s.value)
                .is_some_and(|d| func.inst(d).as_const().is_some())
    }
}

/// The `fmul` instruction that defines `v`, when it may be fused into its readers.
fn fusable_mul(func: &Function, readers: &Readers, v: Value) -> Option<AluInst> {
    let def = func.value_def(v)?;
    let alu = func.inst(def).as_alu()?;
    (alu.op == AluOp::Fmul && !alu.exact && readers.only_adds[v.index()]).then(|| alu.clone())
}

fn fuse_function(func: &mut Function) -> bool {
    let readers = Readers::of(func);
    // Per fused add: the `ffma`, and which of its sources is negated (`fsub`).
    let mut fused: Vec<(Inst, AluInst, Option<usize>)> = Vec::new();
    // Per product: how many of its reads the fusion took.
    let mut taken: std::collections::HashMap<Value, u32> = std::collections::HashMap::new();
    for inst in func.insts_in_order() {
        let Some(add) = func.inst(inst).as_alu() else {
            continue;
        };
        let sub = add.op == AluOp::Fsub;
        if !matches!(add.op, AluOp::Fadd | AluOp::Fsub)
            || add.exact
            || add.srcs[0].value == add.srcs[1].value
        {
            continue;
        }
        let Some((k, mul)) =
            (0..2).find_map(|k| fusable_mul(func, &readers, add.srcs[k].value).map(|m| (k, m)))
        else {
            continue;
        };
        let constant_in = |srcs: &[Src]| srcs.iter().any(|&s| readers.single_use_constant(func, s));
        if constant_in(&mul.srcs[..2]) && constant_in(&add.srcs[..2]) {
            continue;
        }
        // The product's operands as the add read the product: the add's swizzle of the
        // product applied after the multiply's swizzles of its operands.
        let via = add.srcs[k].swizzle;
        let operand = |s: Src| Src {
            value: s.value,
            swizzle: via.compose(s.swizzle, func.value_type(s.value).num_components()),
        };
        let srcs = [operand(mul.srcs[0]), operand(mul.srcs[1]), add.srcs[1 - k]];
        // `c - a b`: the first factor negated; `a b - c`: the addend.
        let negate = sub.then_some(if k == 1 { 0 } else { 2 });
        fused.push((inst, AluInst::new(AluOp::Ffma, srcs), negate));
        let product = add.srcs[k].value;
        // `a + a` was skipped, so this add reads the product once.
        *taken.entry(product).or_default() += 1;
    }
    let changed = !fused.is_empty();
    for (inst, mut ffma, negate) in fused {
        if let Some(i) = negate {
            let s = ffma.srcs[i];
            let ty = func.src_type(s);
            let mut b = crate::builder::Builder::new(func, crate::function::Cursor::Before(inst));
            b.span = b.func.inst_span(inst);
            ffma.srcs[i] = Src::new(b.alu_typed(AluOp::Fneg, &[s], ty));
        }
        func.inst_mut(inst).kind = InstKind::Alu(ffma);
    }
    // A product every read of which was fused is dead: removed here rather than by a
    // dead-code pass over the whole function.
    for (product, n) in taken {
        if n == readers.count[product.index()] {
            if let Some(def) = func.value_def(product) {
                func.remove_inst(def);
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_shader;

    /// The shader after the pass alone (it removes the products it fused itself).
    fn fused(text: &str) -> String {
        let mut s = parse_shader(text).unwrap();
        PeepholeFfma.run(&mut s).unwrap();
        crate::validate(&s).unwrap();
        s.to_string()
    }

    const HEAD: &str = "shader compute (local_size=1,1,1)\nbuffer @b : ssbo (block=0, size=0, stride=4)\nfn main {\n  block b0:\n    32x3 %0 = @load_global_invocation_id\n    32   %1 = u2f32 %0.x\n    32   %2 = u2f32 %0.y\n    32   %3 = u2f32 %0.z\n";

    #[test]
    fn a_product_read_only_by_adds_is_fused_into_each() {
        let t = format!(
            "{HEAD}    32   %4 = fmul %1, %2\n    32   %5 = fadd %4, %3\n    32   %6 = fadd %1, %4\n    32   %7 = fadd %5, %6\n    32   %8 = load_const (0x00000000)\n    @store_ssbo (%7, %8, %8) (access=none, align_mul=4)\n}}\n"
        );
        let out = fused(&t);
        assert!(out.contains("%5 = ffma %1, %2, %3"), "{out}");
        assert!(out.contains("%6 = ffma %1, %2, %1"), "{out}");
        assert!(!out.contains("fmul"), "{out}");
    }

    #[test]
    fn subtractions_fuse_with_a_negated_operand() {
        let t = format!(
            "{HEAD}    32   %4 = fmul %1, %2\n    32   %5 = fsub %3, %4\n    32   %6 = fmul %2, %3\n    32   %7 = fsub %6, %5\n    32   %9 = fsub %5, %5\n    32   %8 = load_const (0x00000000)\n    @store_ssbo (%9, %8, %8) (access=none, align_mul=4)\n    @store_ssbo (%7, %8, %8) (access=none, align_mul=4)\n}}\n"
        );
        let out = fused(&t);
        // %3 - %1 %2 is ffma(-%1, %2, %3); %2 %3 - %5 is ffma(%2, %3, -%5); %5 - %5 stays.
        assert!(out.contains("= fneg %1\n"), "{out}");
        assert!(out.contains("%5 = ffma %"), "{out}");
        assert!(out.contains("= fneg %5\n"), "{out}");
        assert!(out.contains("%7 = ffma %2, %3, %"), "{out}");
        assert!(out.contains("%9 = fsub %5, %5"), "{out}");
        assert!(!out.contains("fmul"), "{out}");
    }

    #[test]
    fn exact_instructions_other_readers_and_doubles_are_left() {
        for body in [
            // The add is exact.
            "    32   %4 = fmul %1, %2\n    32   %5 = exact fadd %4, %3\n",
            // The product is exact.
            "    32   %4 = exact fmul %1, %2\n    32   %5 = fadd %4, %3\n",
            // The product is also compared.
            "    32   %4 = fmul %1, %2\n    32   %5 = fadd %4, %3\n    1    %9 = flt %4, %3\n    32   %10 = b2f32 %9\n    32   %11 = fadd %5, %10\n",
            // a + a.
            "    32   %4 = fmul %1, %2\n    32   %5 = fadd %4, %4\n",
        ] {
            let last = if body.contains("%11") { "%11" } else { "%5" };
            let t = format!(
                "{HEAD}{body}    32   %8 = load_const (0x00000000)\n    @store_ssbo ({last}, %8, %8) (access=none, align_mul=4)\n}}\n"
            );
            let out = fused(&t);
            assert!(out.contains("= fmul") || out.contains("exact fmul"), "{out}");
            assert!(out.contains("%5 = fadd") || out.contains("%5 = exact fadd"), "{out}");
        }
    }

    #[test]
    fn constants_of_both_stay_immediates_and_swizzles_compose() {
        let t = format!(
            "{HEAD}    32   %4 = load_const (0x40000000)\n    32   %5 = fmul %1, %4\n    32   %6 = load_const (0x3f800000)\n    32   %7 = fadd %5, %6\n    32x2 %10 = vec2 %1, %2\n    32x2 %11 = vec2 %3, %2\n    32x2 %12 = fmul %10.yx, %11\n    32   %13 = fadd %12.y, %7\n    32   %8 = load_const (0x00000000)\n    @store_ssbo (%13, %8, %8) (access=none, align_mul=4)\n}}\n"
        );
        let out = fused(&t);
        // 2.0 and 1.0 are each read once: the first pair stays.
        assert!(out.contains("%7 = fadd %5, %6"), "{out}");
        // Component y of (%10.yx * %11) is %10.x * %11.y.
        assert!(out.contains("%13 = ffma %10.x, %11.y, %7"), "{out}");
    }
}
