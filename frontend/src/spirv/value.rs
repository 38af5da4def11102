//! What a SPIR-V id stands for while a function is translated: a value (a tree of IR
//! sources), a pointer (a promoted variable or memory, and a path into it), an image,
//! or a texel pointer; and the keys of the promoted variables.

use super::module::Id;
use ir::{ImageId, Src, Swizzle};

/// A value: a scalar or vector source, or a composite of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// A scalar or vector.
    Leaf(Src),
    /// A matrix (columns), array (elements) or struct (members).
    Comp(Vec<Val>),
}

impl Val {
    /// The source of a scalar or vector.
    pub fn leaf(&self) -> Option<Src> {
        match self {
            Val::Leaf(s) => Some(*s),
            Val::Comp(_) => None,
        }
    }

    /// Every leaf, in order.
    pub fn leaves(&self) -> Vec<Src> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<Src>) {
        match self {
            Val::Leaf(s) => out.push(*s),
            Val::Comp(v) => v.iter().for_each(|m| m.collect(out)),
        }
    }

    /// This tree's shape with its leaves replaced, in order, by `leaves`.
    pub fn with_leaves(&self, leaves: &mut impl Iterator<Item = Src>) -> Option<Val> {
        Some(match self {
            Val::Leaf(_) => Val::Leaf(leaves.next()?),
            Val::Comp(v) => Val::Comp(
                v.iter()
                    .map(|m| m.with_leaves(leaves))
                    .collect::<Option<Vec<_>>>()?,
            ),
        })
    }
}

/// Selects components of a source: component `i` of the result reads component
/// `comps[i]` of `src` (through its own swizzle). `None` for an empty or too long list.
pub fn select(src: Src, comps: &[u8]) -> Option<Src> {
    let mapped: Vec<u8> = comps.iter().map(|&c| src.swizzle.component(c)).collect();
    Some(Src {
        value: src.value,
        swizzle: Swizzle::new(&mapped)?,
    })
}

/// A promoted variable: a value the translation keeps in SSA form.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKey {
    /// A `Private` variable.
    Private(Id),
    /// A `Function` variable of the function inlined as frame `frame`.
    Local(u32, Id),
    /// The value an `OpPhi` takes, set on each edge into its block.
    Phi(u32, Id),
    /// Whether a jump out of the construct numbered `n` (counted per import), of the
    /// given kind, is under way (it leaves more than one level of the IR's control
    /// flow).
    Exit(u32, ExitKind),
    /// Whether frame `frame` has returned.
    Returned(u32),
    /// The value frame `frame` returns.
    ReturnValue(u32),
    /// Whether a case of switch `n` was entered (the next case runs on fall-through).
    Taken(u32),
}

impl VarKey {
    /// Whether a path that never set the variable reads it as `false` (the flags)
    /// rather than as an undefined value.
    pub fn is_flag(self) -> bool {
        matches!(
            self,
            VarKey::Exit(..) | VarKey::Returned(_) | VarKey::Taken(_)
        )
    }
}

/// What a branch to a construct's block means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExitKind {
    /// To the merge block: the end of a selection, a `break` of a loop or switch.
    Merge,
    /// To a loop's continue target: `continue`.
    Continue,
    /// To a loop's header from its continue construct: the back edge.
    BackEdge,
    /// To the next case of a switch: fall-through.
    Fallthrough,
    /// Out of the function: `OpReturn`.
    Return,
}

/// One step of a path into a variable or memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A constant member, element, column or component index.
    Const(u32),
    /// An index computed at run time (a 32-bit scalar).
    Dyn(Src),
}

/// Where memory reached through a pointer lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// A storage buffer: `load_ssbo`, `store_ssbo`, `ssbo_atomic`.
    Ssbo,
    /// A uniform buffer: `load_ubo`.
    Ubo,
    /// The push constants: `load_push_constant`.
    Push,
    /// Workgroup memory: `load_shared`, `store_shared`, `shared_atomic`.
    Shared,
    /// The invocation's scratch memory (a large private array indexed at run time,
    /// [`super::scratch`]): `load_scratch`, `store_scratch`.
    Scratch,
    /// Memory reached through a buffer device address (a `PhysicalStorageBuffer`
    /// pointer): `load_global`, `store_global`. The block is the 64-bit address the
    /// offsets count from.
    Global,
}

/// The largest alignment the translator claims of a buffer access (NIR's `align_mul`
/// as `nir_lower_explicit_io` derives it, capped): a binding's start is aligned at
/// least this much where Vulkan's offset alignment limits are met.
pub const MAX_ALIGN: u32 = 16;

/// A pointer into memory: the space, the block, the type pointed to and its byte
/// offset.
#[derive(Clone, Debug, PartialEq)]
pub struct MemPtr {
    /// The space.
    pub space: Space,
    /// The block index (buffers; a run-time index for arrays of buffers).
    pub block: Option<Src>,
    /// For an array of buffers not yet indexed: its first block index.
    pub array_base: Option<u32>,
    /// NIR access bits of the buffer.
    pub access: u32,
    /// Bytes of push constants the shader declares (push constants only).
    pub range: u32,
    /// The type pointed to.
    pub pointee: Id,
    /// The constant part of the byte offset.
    pub offset: u32,
    /// The run-time part of the byte offset (a 32-bit scalar), if any.
    pub dynamic: Option<Src>,
    /// The largest power of two, up to [`MAX_ALIGN`], that divides every stride the
    /// run-time part scales an index by ([`MAX_ALIGN`] without one).
    pub dynamic_align: u32,
    /// The `MatrixStride` of the matrices the pointee is or holds, and whether they are
    /// row-major.
    pub matrix: Option<(u32, bool)>,
    /// The byte distance between the components of a vector pointee, when they are not
    /// adjacent (a column of a row-major matrix).
    pub vec_stride: Option<u32>,
    /// Whether the pointer was reached through a `NonUniform` index.
    pub non_uniform: bool,
}

/// A pointer to a promoted variable: the variable and a path into it.
#[derive(Clone, Debug, PartialEq)]
pub struct VarPtr {
    /// The variable.
    pub key: VarKey,
    /// The type pointed to.
    pub pointee: Id,
    /// The member, element, column and component indices, outermost first.
    pub path: Vec<Step>,
}

/// A pointer to an image variable (an image, or an element of an array of images).
#[derive(Clone, Debug, PartialEq)]
pub struct ImagePtr {
    /// The image declaration.
    pub image: ImageId,
    /// The type pointed to.
    pub pointee: Id,
    /// The array index, once indexed.
    pub index: Option<Src>,
    /// Whether the index is `NonUniform`.
    pub non_uniform: bool,
}

/// A bound image (a loaded image, sampled image or texel buffer).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageUse {
    /// The declaration.
    pub image: ImageId,
    /// The descriptor-array index, if any.
    pub index: Option<Src>,
    /// Whether the descriptor index is `NonUniform`.
    pub non_uniform: bool,
}

/// What an id stands for.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// Not translated (yet).
    #[default]
    None,
    /// A value.
    Val(Val),
    /// A pointer to a promoted variable.
    Var(VarPtr),
    /// A pointer into memory.
    Mem(MemPtr),
    /// A pointer to an image variable.
    ImagePtr(ImagePtr),
    /// An image (a combined image sampler's too: [`Mapping::combined`](super::variables::Mapping::combined) holds its sampler).
    Image(ImageUse),
    /// `OpSampledImage`: an image with a separate sampler's index.
    SampledImage {
        /// The image.
        image: ImageUse,
        /// The sampler index.
        sampler: u32,
    },
    /// A sampler, by its sampler index.
    Sampler(u32),
    /// `OpImageTexelPointer`: a texel of an image, the target of image atomics.
    Texel {
        /// The image.
        image: ImageUse,
        /// The coordinate (the IR's: array layer, then a multisampled image's sample,
        /// last).
        coord: Src,
    },
    /// An `Input` variable holding a builtin: loading it reads the system value.
    Builtin {
        /// `spirv::BuiltIn` as a number.
        builtin: u32,
        /// The type pointed to.
        pointee: Id,
        /// A component index into the builtin's vector.
        component: Option<Step>,
    },
}
