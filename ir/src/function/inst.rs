//! Instructions and values: what an instruction computes and what it defines.

use crate::alu::AluOp;
use crate::entity::{Block, Inst, Value};
use crate::image::{Access, ImageRef};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::types::{Src, Type};
use smallvec::SmallVec;

/// An ALU instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AluInst {
    /// The opcode.
    pub op: AluOp,
    /// The sources, one per input of the opcode.
    pub srcs: SmallVec<[Src; 3]>,
    /// NIR's `exact`: the result must be the op's own, as its definition and its
    /// precision bound give it (SPIR-V's `NoContraction`, GLSL's `precise`). Rules that
    /// assume float arithmetic without infinities, NaNs or signed zeros (`a * 0.0` is
    /// `0.0`) and rewrites that trade precision for speed (`fdiv` as `frcp` and `fmul`)
    /// leave an exact instruction alone. Written `exact` before the opcode.
    pub exact: bool,
}

impl AluInst {
    /// An instruction of `op` reading `srcs`, not `exact`.
    pub fn new(op: AluOp, srcs: impl IntoIterator<Item = Src>) -> AluInst {
        AluInst {
            op,
            srcs: srcs.into_iter().collect(),
            exact: false,
        }
    }
}

/// An intrinsic instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntrinsicInst {
    /// The opcode.
    pub op: IntrinsicOp,
    /// The image operand, for intrinsics that name one.
    pub image: Option<ImageRef>,
    /// The sources; a predicable intrinsic may end with a 1-bit predicate.
    pub srcs: SmallVec<[Src; 4]>,
    /// Constant indices, in the order of the opcode's `IntrinsicInfo::indices`.
    pub indices: SmallVec<[u32; 6]>,
}

impl IntrinsicInst {
    /// The encoded value of index `kind`, if the opcode has it.
    pub fn index(&self, kind: IndexKind) -> Option<u32> {
        let pos = self.op.index_position(kind)?;
        self.indices.get(pos).copied()
    }

    /// Sets index `kind`; returns false if the opcode has no such index.
    pub fn set_index(&mut self, kind: IndexKind, value: u32) -> bool {
        match self.op.index_position(kind) {
            Some(pos) if pos < self.indices.len() => {
                self.indices[pos] = value;
                true
            }
            _ => false,
        }
    }

    /// The predicate of a predicated message (`if %p` in text): the source after the
    /// ones the opcode takes.
    pub fn predicate(&self) -> Option<Src> {
        if !self.op.info().predicable {
            return None;
        }
        let n = self.op.srcs(&self.indices)?.len();
        (self.srcs.len() == n + 1).then(|| self.srcs[n])
    }

    /// The descriptor index the intrinsic takes, if it takes one that is not a
    /// constant of the text: the array index of an indexed image (`@imgs[%i]`), or the
    /// `block` of a buffer access (`load_ubo`, `load_ssbo`, `store_ssbo`, the
    /// `ssbo_atomic`s). Vulkan requires it to be dynamically uniform unless the access
    /// is [`non_uniform`](IntrinsicInst::is_non_uniform).
    pub fn descriptor_index(&self) -> Option<Src> {
        if let Some(r) = self.image {
            return r.index;
        }
        let pos = self.op.info().srcs.iter().position(|s| s.name == "block")?;
        self.srcs.get(pos).copied()
    }

    /// Whether the access is qualified `non_uniform` ([`Access::NON_UNIFORM`]): its
    /// descriptor index may differ between the lanes that execute it together.
    pub fn is_non_uniform(&self) -> bool {
        self.index(IndexKind::Access)
            .and_then(Access::from_bits)
            .is_some_and(|a| a.contains(Access::NON_UNIFORM))
    }
}

/// A phi: one source per predecessor block.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Phi {
    /// `(predecessor, value)` pairs.
    pub srcs: SmallVec<[(Block, Src); 2]>,
}

/// What an instruction does.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum InstKind {
    /// An ALU operation.
    Alu(AluInst),
    /// Constants, one `u64` per component holding the bits (masked to the bit size).
    LoadConst(SmallVec<[u64; 4]>),
    /// An undefined value.
    Undef,
    /// A phi.
    Phi(Phi),
    /// An intrinsic. Boxed: an intrinsic carries up to four sources, an image operand
    /// and six indices, and unboxed it would double the size of every instruction
    /// (most are ALU operations), which the passes pay for in memory traffic.
    Intrinsic(Box<IntrinsicInst>),
}

/// An instruction: what it does and the value it defines, if any.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstData {
    /// The operation.
    pub kind: InstKind,
    /// The defined value.
    pub dest: Option<Value>,
}

impl InstData {
    /// The sources read by this instruction, in order (for intrinsics, the image index
    /// comes first).
    pub fn srcs(&self) -> SmallVec<[Src; 6]> {
        let mut out = SmallVec::new();
        match &self.kind {
            InstKind::Alu(a) => out.extend(a.srcs.iter().copied()),
            InstKind::Phi(p) => out.extend(p.srcs.iter().map(|(_, s)| *s)),
            InstKind::Intrinsic(i) => {
                if let Some(idx) = i.image.and_then(|r| r.index) {
                    out.push(idx);
                }
                out.extend(i.srcs.iter().copied());
            }
            InstKind::LoadConst(_) | InstKind::Undef => {}
        }
        out
    }

    /// Calls `f` on every source, in the order of [`InstData::srcs`], without
    /// collecting them.
    pub fn for_each_src(&self, mut f: impl FnMut(&Src)) {
        match &self.kind {
            InstKind::Alu(a) => a.srcs.iter().for_each(f),
            InstKind::Phi(p) => p.srcs.iter().for_each(|(_, s)| f(s)),
            InstKind::Intrinsic(i) => {
                if let Some(idx) = i.image.as_ref().and_then(|r| r.index.as_ref()) {
                    f(idx);
                }
                i.srcs.iter().for_each(f);
            }
            InstKind::LoadConst(_) | InstKind::Undef => {}
        }
    }

    /// Calls `f` on every source, allowing it to be rewritten.
    pub fn for_each_src_mut(&mut self, mut f: impl FnMut(&mut Src)) {
        match &mut self.kind {
            InstKind::Alu(a) => a.srcs.iter_mut().for_each(f),
            InstKind::Phi(p) => p.srcs.iter_mut().for_each(|(_, s)| f(s)),
            InstKind::Intrinsic(i) => {
                if let Some(idx) = i.image.as_mut().and_then(|r| r.index.as_mut()) {
                    f(idx);
                }
                i.srcs.iter_mut().for_each(f);
            }
            InstKind::LoadConst(_) | InstKind::Undef => {}
        }
    }

    /// The ALU part, if this is an ALU instruction.
    pub fn as_alu(&self) -> Option<&AluInst> {
        match &self.kind {
            InstKind::Alu(a) => Some(a),
            _ => None,
        }
    }

    /// The intrinsic part, if this is an intrinsic.
    pub fn as_intrinsic(&self) -> Option<&IntrinsicInst> {
        match &self.kind {
            InstKind::Intrinsic(i) => Some(i),
            _ => None,
        }
    }

    /// The constants, if this is a `load_const`.
    pub fn as_const(&self) -> Option<&[u64]> {
        match &self.kind {
            InstKind::LoadConst(c) => Some(c),
            _ => None,
        }
    }

    /// Whether this is a phi.
    pub fn is_phi(&self) -> bool {
        matches!(self.kind, InstKind::Phi(_))
    }
}

/// A value: its type and defining instruction.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ValueData {
    /// The type.
    pub ty: Type,
    /// The defining instruction; `None` for a reserved id that was never defined.
    pub def: Option<Inst>,
}
