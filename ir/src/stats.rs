//! Instruction counts by kind, for `ir-opt --stats`.

use crate::function::{CfNode, Function, InstKind};
use crate::intrinsic::IntrinsicClass;
use crate::shader::Shader;
use std::fmt;

/// How many instructions of each kind a shader holds, and how much control flow.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    /// ALU instructions (including `mov` and `vecN`).
    pub alu: usize,
    /// Intrinsics that are not messages: image intrinsics, system values, memory.
    pub intrinsic: usize,
    /// Of `intrinsic`: the high-level image intrinsics the lowering rewrites.
    pub image: usize,
    /// Message intrinsics (LSC and sampler): the lowering's output.
    pub message: usize,
    /// Phis.
    pub phi: usize,
    /// `load_const`.
    pub load_const: usize,
    /// `undef`.
    pub undef: usize,
    /// Blocks in the control-flow tree.
    pub blocks: usize,
    /// `if` nodes.
    pub ifs: usize,
    /// `loop` nodes.
    pub loops: usize,
    /// `break` and `continue`.
    pub jumps: usize,
}

impl Stats {
    /// Counts every function of `shader`.
    pub fn of(shader: &Shader) -> Stats {
        let mut s = Stats::default();
        for f in &shader.functions {
            s.add_function(f);
        }
        s
    }

    /// Counts one function.
    pub fn of_function(func: &Function) -> Stats {
        let mut s = Stats::default();
        s.add_function(func);
        s
    }

    fn add_function(&mut self, func: &Function) {
        func.walk(|node| match node {
            CfNode::Block(b) => {
                self.blocks += 1;
                if func.block(b).jump.is_some() {
                    self.jumps += 1;
                }
                for i in func.block_insts(b) {
                    match &func.inst(i).kind {
                        InstKind::Alu(_) => self.alu += 1,
                        InstKind::LoadConst(_) => self.load_const += 1,
                        InstKind::Undef => self.undef += 1,
                        InstKind::Phi(_) => self.phi += 1,
                        InstKind::Intrinsic(intr) => match intr.op.info().class {
                            IntrinsicClass::Message => self.message += 1,
                            IntrinsicClass::Image => {
                                self.intrinsic += 1;
                                self.image += 1;
                            }
                            _ => self.intrinsic += 1,
                        },
                    }
                }
            }
            CfNode::If(_) => self.ifs += 1,
            CfNode::Loop(_) => self.loops += 1,
        });
    }

    /// Every instruction counted (ALU, intrinsics, messages, phis, constants, undefs).
    pub fn instructions(&self) -> usize {
        self.alu + self.intrinsic + self.message + self.phi + self.load_const + self.undef
    }
}

impl fmt::Display for Stats {
    /// One `name: count` line per kind, in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = [
            ("instructions", self.instructions()),
            ("alu", self.alu),
            ("intrinsic", self.intrinsic),
            ("  image", self.image),
            ("message", self.message),
            ("phi", self.phi),
            ("load_const", self.load_const),
            ("undef", self.undef),
            ("blocks", self.blocks),
            ("if", self.ifs),
            ("loop", self.loops),
            ("jump", self.jumps),
        ];
        for (name, n) in rows {
            writeln!(f, "{name:<14}{n:>10}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::image::{Format, ImageDecl, ImageDim, ImageRef};
    use crate::intrinsic::IntrinsicOp;
    use crate::types::{AluType, BaseType, Src, Type};

    #[test]
    fn counts_each_kind() {
        let mut sh = Shader::new([1, 1, 1]);
        let decl = ImageDecl::new("img", ImageDim::D2, Format::R32Uint);
        let img = sh.add_image(decl.clone());
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let xy = b.mov(Src::swizzled(id, &[0, 1]).unwrap());
        let v = b.image_load(
            &decl,
            ImageRef::new(img),
            xy,
            1,
            AluType::new(BaseType::Uint, 32),
        );
        let c = b.imm_u32(1);
        let w = b.iadd(v, c);
        let l = b.push_loop();
        let u = b.undef(Type::U32);
        let cond = b.ieq(u, w);
        b.break_if(cond);
        b.pop_loop(l);
        sh.functions.push(f);
        let s = Stats::of(&sh);
        assert_eq!(s.alu, 3); // mov, iadd, ieq
        assert_eq!(s.intrinsic, 2); // invocation id, image_load
        assert_eq!(s.image, 1);
        assert_eq!(s.message, 0);
        assert_eq!(s.load_const, 1);
        assert_eq!(s.undef, 1);
        assert_eq!(s.phi, 0);
        assert_eq!(s.ifs, 1);
        assert_eq!(s.loops, 1);
        assert_eq!(s.jumps, 1);
        // b0, loop header, then, else, after-if, after-loop
        assert_eq!(s.blocks, 6);
        assert_eq!(s.instructions(), 7);
        assert!(s.to_string().starts_with("instructions           7\n"));
    }
}
