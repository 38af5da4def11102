//! What a naga expression becomes: a tree of IR sources ([`Val`]), a reference to a
//! variable or memory ([`Place`]), an image, or a sampler.
//!
//! naga's scalars and vectors are one IR source each (a value and a swizzle); matrices,
//! arrays and structs are trees of them, in member (column, element) order. Booleans are
//! 1-bit, as in NIR before `nir_lower_bool_to_int32`.

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
    /// The source of a scalar or vector (`None` for composites).
    pub fn leaf(&self) -> Option<Src> {
        match self {
            Val::Leaf(s) => Some(*s),
            Val::Comp(_) => None,
        }
    }

    /// Member `i` of a composite.
    pub fn member(&self, i: usize) -> Option<&Val> {
        match self {
            Val::Comp(v) => v.get(i),
            Val::Leaf(_) => None,
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
/// `comps[i]` of `src` (through its own swizzle).
pub fn select(src: Src, comps: &[u8]) -> Src {
    let mapped: Vec<u8> = comps.iter().map(|&c| src.swizzle.component(c)).collect();
    Src {
        value: src.value,
        swizzle: Swizzle::new(&mapped).unwrap_or(Swizzle::IDENTITY),
    }
}

/// A function-local, private or argument variable promoted to SSA values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKey {
    /// A local variable of the function inlined as frame `frame`.
    Local(u32, naga::Handle<naga::LocalVariable>),
    /// A `private` global (one per invocation).
    Private(naga::Handle<naga::GlobalVariable>),
    /// Whether frame `frame` has returned.
    Returned(u32),
    /// The value frame `frame` returns.
    ReturnValue(u32),
    /// Whether a `continue` left the switch statement number `n` (counted per import).
    SwitchContinue(u32),
    /// Whether a case of switch statement `n` was entered (fall-through).
    SwitchTaken(u32),
}

/// One step of a path into a variable or memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A constant member, element, column or component index.
    Const(u32),
    /// An index computed at run time (a 32-bit scalar).
    Dyn(Src),
}

/// Where memory accessed through a pointer lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// Storage buffer `block` (`load_ssbo`, `store_ssbo`, `ssbo_atomic`), with access
    /// qualifier bits.
    Ssbo {
        /// The block index (see the binding mapping).
        block: u32,
        /// NIR access bits ([`ir::Access`]).
        access: u32,
    },
    /// Uniform buffer `block` (`load_ubo`).
    Ubo {
        /// The block index.
        block: u32,
    },
    /// The push constants (`load_push_constant`).
    Push {
        /// Bytes of push constants the shader declares.
        range: u32,
    },
    /// Workgroup-shared memory (`load_shared`, `store_shared`, `shared_atomic`).
    Shared,
}

/// A pointer: a promoted variable and a path into it, or memory at a byte offset.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// A promoted variable and the indices into it.
    Var {
        /// The variable.
        key: VarKey,
        /// The variable's naga type.
        ty: naga::Handle<naga::Type>,
        /// Member, element, column and component indices, outermost first.
        path: Vec<Step>,
    },
    /// Memory: the space, the pointee's type and its byte offset.
    Memory {
        /// The space.
        space: Space,
        /// The type pointed to.
        pointee: naga::TypeInner,
        /// The constant part of the byte offset.
        offset: u32,
        /// The run-time part of the byte offset (a 32-bit scalar), if any.
        dynamic: Option<Src>,
    },
}

/// A bound image: the declaration and, for arrays of images, the element.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageUse {
    /// The declaration.
    pub image: ImageId,
    /// The descriptor-array index, if the image is an element of an array.
    pub index: Option<Src>,
}

/// What a naga expression stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum Cached {
    /// A value.
    Val(Val),
    /// A pointer.
    Place(Place),
    /// An image.
    Image(ImageUse),
    /// A global that names an array of images, not yet indexed.
    ImageArray(ImageId),
    /// A sampler (only a filtered sample, which is refused, uses one).
    Sampler,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Value;

    #[test]
    fn leaves_round_trip_through_a_shape() {
        let v = |i: u32| Src::new(Value::from_u32(i));
        let t = Val::Comp(vec![
            Val::Leaf(v(1)),
            Val::Comp(vec![Val::Leaf(v(2)), Val::Leaf(v(3))]),
        ]);
        assert_eq!(t.leaves(), [v(1), v(2), v(3)]);
        let mut it = [v(7), v(8), v(9)].into_iter();
        let u = t.with_leaves(&mut it).unwrap();
        assert_eq!(u.leaves(), [v(7), v(8), v(9)]);
        assert_eq!(
            u.member(1).and_then(|m| m.member(0)),
            Some(&Val::Leaf(v(8)))
        );
    }

    #[test]
    fn select_composes_swizzles() {
        let s = Src::swizzled(Value::from_u32(4), &[2, 0, 1]).unwrap();
        let t = select(s, &[1, 1]);
        assert_eq!(t.swizzle.components().collect::<Vec<_>>(), [0, 0]);
    }
}
