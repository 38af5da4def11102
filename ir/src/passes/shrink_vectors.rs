//! Vector narrowing (`opt-shrink-vectors`), NIR's `nir_opt_shrink_vectors` with phis:
//! a vector whose components are not all read is computed at the width of the ones
//! that are.
//!
//! Mesa's Intel compiler gets the same result another way: its NIR is scalar (brw runs
//! `nir_lower_alu_to_scalar` and `nir_lower_phis_to_scalar` in its optimization loop),
//! so an unread component is an unread scalar and dead code elimination removes it.
//! This IR keeps vectors, and a vector is live as long as one of its components is.
//! The costly case is a loop that carries a `vec4` in phis of which the code after the
//! loop reads one component: every other component, and whatever computes it inside
//! the loop, stays alive through the phis that feed each other.
//!
//! **Liveness.** One mask of live components per value, computed backwards from the
//! readers that are not narrowed (intrinsics, ALU ops with inputs of a fixed width,
//! `if` conditions), which read every component they name (all of them through an
//! identity swizzle). A narrowable instruction passes the liveness of each component of
//! its result on to the source components it reads for it: per-component ALU ops
//! (`output_size` and every `input_sizes` 0, as NIR's `nir_op_infos` say) and phis
//! component `c` of each source, `vecN` its `c`-th source. A work list makes this a
//! fixed point, so components that only phis read, around a loop, are never marked.
//!
//! **Rewrite.** Each narrowable instruction with dead components (but some live) keeps
//! only the live ones, in order: a per-component op or phi reads the live components of
//! its sources, a `vecN` keeps the sources of the live components (one left is a `mov`),
//! a `load_const` the live constants, an `undef` its narrower type, and a memory load
//! (`load_ssbo`, `load_ubo`, `load_shared` and the like) the components up to the last
//! one read, as NIR trims loads. Then every source
//! that reads a narrowed value is renumbered. A width the IR has no type for (5 to 7
//! of a `vec8`, for example) keeps the vector, which then reads its sources whole.
//! Narrowable instructions none of whose components is read are removed first (they
//! may read components of a narrowed vector that nothing live needs); other dead
//! instructions are left to `dce`.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::{Inst, Value};
use crate::function::{Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::types::{Src, Swizzle, Type};
use smallvec::SmallVec;

/// The vector-narrowing pass, `opt-shrink-vectors`.
#[derive(Copy, Clone, Debug, Default)]
pub struct ShrinkVectors;

impl Pass for ShrinkVectors {
    fn name(&self) -> &'static str {
        "opt-shrink-vectors"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= shrink_vectors_function(f);
        }
        Ok(changed)
    }
}

/// How an instruction's result components depend on its sources.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Shape {
    /// Component `c` reads component `c` of every source (per-component ALU, phi).
    PerComponent,
    /// Component `c` is source `c` (`vecN`).
    Vec,
    /// No sources (`load_const`, `undef`).
    Leaf,
    /// A memory load: its sources are addresses, read whole; only components past the
    /// last one read can go (NIR trims loads the same way), so the bytes loaded start
    /// where they did.
    Load,
}

fn shape(kind: &InstKind) -> Option<Shape> {
    match kind {
        InstKind::Alu(a) if a.op.is_vec() => Some(Shape::Vec),
        InstKind::Alu(a) => {
            let info = a.op.info();
            let per_component = info.output_size == 0
                && info.input_sizes[..info.num_inputs as usize]
                    .iter()
                    .all(|&s| s == 0);
            per_component.then_some(Shape::PerComponent)
        }
        InstKind::Phi(_) => Some(Shape::PerComponent),
        InstKind::LoadConst(_) | InstKind::Undef => Some(Shape::Leaf),
        InstKind::Intrinsic(i) => matches!(
            i.op,
            IntrinsicOp::LoadSsbo
                | IntrinsicOp::LoadUbo
                | IntrinsicOp::LoadPushConstant
                | IntrinsicOp::LoadConstant
                | IntrinsicOp::LoadGlobal
                | IntrinsicOp::LoadShared
                | IntrinsicOp::LoadScratch
        )
        .then_some(Shape::Load),
    }
}

/// The components a source reads, as a mask: those its swizzle names, or every
/// component of the value through an identity swizzle.
fn src_mask(func: &Function, src: &Src) -> u16 {
    if src.swizzle.is_identity() {
        full_mask(func.value_type(src.value).num_components())
    } else {
        src.swizzle.components().fold(0, |m, c| m | 1 << c)
    }
}

fn full_mask(components: u8) -> u16 {
    ((1u32 << components) - 1) as u16
}

/// Narrows the vectors of one function whose components are not all read; returns
/// whether it changed anything.
pub fn shrink_vectors_function(func: &mut Function) -> bool {
    let insts = func.insts_in_order();
    let live = live_components(func, &insts);
    // Plan first: which instructions narrow, to which components. Nothing changes when
    // nothing narrows; unread instructions are then `dce`'s to remove.
    let mut unread: Vec<Inst> = Vec::new();
    let mut narrowed: Vec<(Inst, Shape, u16, Type)> = Vec::new();
    for &inst in &insts {
        let data = func.inst(inst);
        let Some(dest) = data.dest else { continue };
        let Some(shape) = shape(&data.kind) else {
            continue;
        };
        let ty = func.value_type(dest);
        let width = ty.num_components();
        let mask = kept_components(shape, live[dest.index()], width);
        if mask == 0 {
            let eliminable = match &data.kind {
                InstKind::Intrinsic(i) => i.op.info().can_eliminate,
                _ => true,
            };
            if eliminable {
                unread.push(inst);
            }
        } else if mask != full_mask(width) {
            if let Some(new_ty) = ty.with_components(mask.count_ones() as u8) {
                narrowed.push((inst, shape, mask, new_ty));
            }
        }
    }
    if narrowed.is_empty() {
        return false;
    }
    // Unread instructions go before anything narrows: they may read components of a
    // narrowed vector that nothing live needs.
    for inst in unread {
        func.remove_inst(inst);
    }
    // Per narrowed value: its old width and, per old component, the new one.
    let mut remap: Vec<Option<Remap>> = vec![None; func.num_value_ids()];
    for (inst, shape, mask, new_ty) in narrowed {
        let Some(dest) = func.inst(inst).dest else {
            continue;
        };
        let ty = func.value_type(dest);
        let kept: SmallVec<[u8; 16]> = (0..ty.num_components())
            .filter(|&c| mask & 1 << c != 0)
            .collect();
        narrow_inst(func, inst, shape, &kept);
        func.set_value_type(dest, new_ty);
        let mut map = Remap {
            old_components: ty.num_components(),
            new_components: new_ty.num_components(),
            new: [u8::MAX; 16],
        };
        for (n, &c) in kept.iter().enumerate() {
            map.new[c as usize] = n as u8;
        }
        remap[dest.index()] = Some(map);
    }
    let renumber = |src: &mut Src| {
        let Some(map) = &remap[src.value.index()] else {
            return;
        };
        let comps: SmallVec<[u8; 16]> = if src.swizzle.is_identity() {
            (0..map.old_components)
                .map(|c| map.new[c as usize])
                .collect()
        } else {
            src.swizzle
                .components()
                .map(|c| map.new[c as usize])
                .collect()
        };
        debug_assert!(comps.iter().all(|&c| c != u8::MAX));
        src.swizzle = Swizzle::reading(&comps, map.new_components).unwrap_or(src.swizzle);
    };
    for inst in func.insts_in_order() {
        func.inst_mut(inst).for_each_src_mut(&renumber);
    }
    for id in func.ifs_in_order() {
        renumber(&mut func.if_data_mut(id).cond);
    }
    true
}

#[derive(Copy, Clone, Debug)]
struct Remap {
    old_components: u8,
    new_components: u8,
    new: [u8; 16],
}

/// Keeps the components `kept` of what `inst` computes, still reading its sources'
/// old numbering (the renumbering pass fixes those).
fn narrow_inst(func: &mut Function, inst: Inst, shape: Shape, kept: &[u8]) {
    let select = |src: &Src| -> Src {
        let comps: SmallVec<[u8; 16]> = kept.iter().map(|&c| src.swizzle.component(c)).collect();
        Src {
            value: src.value,
            swizzle: Swizzle::new(&comps).unwrap_or(src.swizzle),
        }
    };
    match (&mut func.inst_mut(inst).kind, shape) {
        (InstKind::Alu(a), Shape::Vec) => {
            let srcs = kept.iter().map(|&c| a.srcs[c as usize]).collect();
            a.srcs = srcs;
            a.op = AluOp::vec(kept.len() as u8).unwrap_or(AluOp::Mov);
        }
        (InstKind::Alu(a), Shape::PerComponent) => {
            for s in a.srcs.iter_mut() {
                *s = select(s);
            }
        }
        (InstKind::Phi(p), _) => {
            for (_, s) in p.srcs.iter_mut() {
                *s = select(s);
            }
        }
        (InstKind::LoadConst(values), _) => {
            *values = kept.iter().map(|&c| values[c as usize]).collect();
        }
        _ => {}
    }
}

/// The components an instruction of `shape` and `width` components keeps when `live`
/// are read: those, or for a load every one up to the last of them; all of them when
/// the IR has no vector of that many (5 of a `vec8`), since the instruction then stays
/// whole and reads its sources whole.
fn kept_components(shape: Shape, live: u16, width: u8) -> u16 {
    let full = full_mask(width);
    let mut mask = live & full;
    if shape == Shape::Load {
        mask = full_mask(16 - mask.leading_zeros() as u8);
    }
    if mask != 0 && !Type::is_valid_num_components(mask.count_ones() as u8) {
        mask = full;
    }
    mask
}

/// The live components of every value, by value id: each narrowable instruction reads
/// its sources for the components it keeps ([`kept_components`]).
fn live_components(func: &Function, insts: &[Inst]) -> Vec<u16> {
    let mut live = vec![0u16; func.num_value_ids()];
    let mut work: Vec<Inst> = Vec::new();
    let mark = |v: Value, mask: u16, live: &mut [u16], work: &mut Vec<Inst>| {
        let old = live[v.index()];
        if old | mask != old {
            live[v.index()] = old | mask;
            if let Some(d) = func.value_def(v) {
                work.push(d);
            }
        }
    };
    for &inst in insts {
        let data = func.inst(inst);
        if matches!(shape(&data.kind), None | Some(Shape::Load)) {
            data.for_each_src(|s| mark(s.value, src_mask(func, s), &mut live, &mut work));
        }
    }
    for id in func.ifs_in_order() {
        let cond = func.if_data(id).cond;
        mark(cond.value, src_mask(func, &cond), &mut live, &mut work);
    }
    while let Some(inst) = work.pop() {
        let data = func.inst(inst);
        let Some(dest) = data.dest else { continue };
        let Some(shape) = shape(&data.kind) else {
            continue;
        };
        let dest_live = kept_components(
            shape,
            live[dest.index()],
            func.value_type(dest).num_components(),
        );
        match shape {
            Shape::PerComponent => data.for_each_src(|s| {
                let mask = (0..16u8)
                    .filter(|&c| dest_live & 1 << c != 0)
                    .fold(0, |m, c| m | 1 << s.swizzle.component(c));
                mark(s.value, mask, &mut live, &mut work);
            }),
            Shape::Vec => {
                let Some(a) = data.as_alu() else { continue };
                for (c, s) in a.srcs.iter().enumerate() {
                    if dest_live & 1 << c != 0 {
                        mark(s.value, 1 << s.swizzle.component(0), &mut live, &mut work);
                    }
                }
            }
            Shape::Leaf | Shape::Load => {}
        }
    }
    live
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_shader, print_shader, validate};

    const HEADER: &str = "shader compute (local_size=8,1,1)\nbuffer @b : ssbo (block=0, size=0, stride=4)\n\nfn main {\n  block b0:\n    32   %0 = @load_local_invocation_index\n    32   %1 = load_const (0x00000000)\n    32   %2 = load_const (0x00000001)\n";

    fn shrink(body: &str) -> (bool, String) {
        let text = format!("{HEADER}{body}}}\n");
        let mut s = parse_shader(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let changed = ShrinkVectors.run(&mut s).unwrap();
        validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{}", print_shader(&s)));
        super::super::Dce.run(&mut s).unwrap();
        (changed, print_shader(&s))
    }

    #[test]
    fn components_only_loop_phis_read_die_with_their_computation() {
        // The loop carries a vec4; after it only `.w` is stored. The other three
        // components feed nothing but the phis, so the vector math computing them goes.
        let (changed, out) = shrink(
            "    32x4 %3 = vec4 %0, %0, %0, %2
  loop {
    block b1:
      32   %10 = phi b0: %1, b2: %11
      32x4 %12 = phi b0: %3, b2: %14
      1    %15 = uge %10, %0
    if %15 {
      block b3:
        break
    } else {
      block b4:
    }
    block b2:
      32x4 %13 = imul %12, %12.yzxw
      32x4 %14 = iadd %13, %3
      32   %11 = iadd %10, %2
  }
  block b5:
    @store_ssbo (%12.w, %1, %0) (access=none, align_mul=4)
",
        );
        assert!(changed);
        assert!(out.contains("32   %12 = phi b0: %3, b2: %14"), "{out}");
        assert!(out.contains("32   %13 = imul %12, %12"), "{out}");
        assert!(out.contains("32   %3 = mov %2"), "{out}");
        assert!(!out.contains("32x4"), "{out}");
        assert!(out.contains("@store_ssbo (%12, %1, %0)"), "{out}");
    }

    #[test]
    fn vectors_keep_the_components_read_in_order() {
        let (changed, out) = shrink(
            "    32x4 %3 = vec4 %0, %1, %2, %0
    32x4 %4 = load_const (0x00000005, 0x00000006, 0x00000007, 0x00000008)
    32x4 %5 = iadd %3, %4
    32   %6 = iadd %5.w, %5.y
    @store_ssbo (%6, %1, %0) (access=none, align_mul=4)
",
        );
        assert!(changed);
        assert!(out.contains("32x2 %3 = vec2 %1, %0"), "{out}");
        assert!(
            out.contains("32x2 %4 = load_const (0x00000006, 0x00000008)"),
            "{out}"
        );
        assert!(out.contains("32x2 %5 = iadd %3, %4"), "{out}");
        assert!(out.contains("32   %6 = iadd %5.y, %5.x"), "{out}");
    }

    #[test]
    fn memory_loads_lose_the_components_after_the_last_one_read() {
        let (changed, out) = shrink(
            "    32x4 %3 = @load_ssbo (%1, %0) (access=none, align_mul=16)
    32x4 %4 = @load_ssbo (%1, %2) (access=none, align_mul=4)
    32   %5 = iadd %3.y, %4.w
    @store_ssbo (%5, %1, %0) (access=none, align_mul=4)
",
        );
        assert!(changed);
        assert!(out.contains("32x2 %3 = @load_ssbo (%1, %0)"), "{out}");
        assert!(out.contains("32x4 %4 = @load_ssbo (%1, %2)"), "{out}");
        assert!(out.contains("32   %5 = iadd %3.y, %4.w"), "{out}");
    }

    #[test]
    fn a_vector_kept_whole_reads_its_sources_whole() {
        // Five components of %4 are read: no vector has five, so %4 stays a vec8 and
        // reads all of %3, although its five live components need only four of them.
        let (_, out) = shrink(
            "    32x8 %3 = load_const (1, 2, 3, 4, 5, 6, 7, 8)
    32x8 %4 = iadd %3.aabcdefg, %3.aabcdefg
    32x4 %5 = vec4 %4.a, %4.b, %4.c, %4.d
    @store_ssbo (%5, %1, %0) (access=none, align_mul=4)
    @store_ssbo (%4.e, %1, %0) (access=none, align_mul=4)
",
        );
        assert!(out.contains("32x8 %3 = load_const"), "{out}");
        assert!(
            out.contains("32x8 %4 = iadd %3.aabcdefg, %3.aabcdefg"),
            "{out}"
        );
    }

    #[test]
    fn unread_instructions_do_not_keep_reading_narrowed_components() {
        // %5 is never read, but reads %3.z, which nothing live needs: %3 narrows to
        // two components and %5 goes with the pass (dce would only come later).
        let (changed, out) = shrink(
            "    32x3 %3 = load_const (1, 2, 3)
    32x2 %4 = iadd %3.xy, %3.yx
    @store_ssbo (%4, %1, %0) (access=none, align_mul=4)
    32x4 %5 = imul %3.zyyz, %3.xxxx
",
        );
        assert!(changed);
        assert!(
            out.contains("32x2 %3 = load_const (0x00000001, 0x00000002)"),
            "{out}"
        );
        assert!(!out.contains("imul"), "{out}");
    }

    #[test]
    fn vectors_read_whole_or_by_fixed_width_ops_stay() {
        let text = "    32x2 %3 = vec2 %0, %1
    32x2 %4 = iadd %3, %3
    @store_ssbo (%4, %1, %0) (access=none, align_mul=8)
    32x2 %5 = vec2 %2, %0
    32x2 %6 = vec2 %0, %2
    32   %7 = fdot2 %5, %6
    @store_ssbo (%7, %1, %0) (access=none, align_mul=4)
    32x4 %8 = vec4 %0, %1, %2, %0
    32x3 %9 = iadd %8.xyz, %8.yzw
    @store_ssbo (%9, %1, %0) (access=none, align_mul=4)
";
        let (changed, out) = shrink(text);
        assert!(!changed, "{out}");
    }
}
