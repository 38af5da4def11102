//! Value types, ALU types, sources and swizzles.

use crate::entity::Value;
use smallvec::SmallVec;
use std::fmt;

/// The type of an SSA def: a bit size and a component count, as in NIR.
///
/// Printed `32x4`, or just `32` for one component. Booleans are 1-bit, as NIR's
/// `nir_lower_bool_to_*` has not run.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Type {
    bit_size: u8,
    num_components: u8,
}

impl Type {
    /// The legal bit sizes, as in NIR.
    pub const BIT_SIZES: [u8; 5] = [1, 8, 16, 32, 64];
    /// The legal component counts, as in NIR.
    pub const COMPONENT_COUNTS: [u8; 6] = [1, 2, 3, 4, 8, 16];

    /// A 1-bit boolean scalar.
    pub const BOOL: Type = Type {
        bit_size: 1,
        num_components: 1,
    };
    /// A 32-bit scalar.
    pub const U32: Type = Type {
        bit_size: 32,
        num_components: 1,
    };
    /// A 64-bit scalar.
    pub const U64: Type = Type {
        bit_size: 64,
        num_components: 1,
    };

    /// A type of `bit_size` x `num_components`, or `None` if either is not legal.
    pub fn new(bit_size: u8, num_components: u8) -> Option<Type> {
        (Self::is_valid_bit_size(bit_size) && Self::is_valid_num_components(num_components))
            .then_some(Type {
                bit_size,
                num_components,
            })
    }

    /// A scalar of `bit_size` bits, or `None` if the size is not legal.
    pub fn scalar(bit_size: u8) -> Option<Type> {
        Self::new(bit_size, 1)
    }

    /// A vector of `num_components` 32-bit components (panics on an illegal count; use
    /// [`Type::new`] for unchecked input).
    pub fn vec32(num_components: u8) -> Type {
        Type::new(32, num_components).expect("illegal component count")
    }

    /// Whether `bits` is one of 1, 8, 16, 32, 64.
    pub fn is_valid_bit_size(bits: u8) -> bool {
        Self::BIT_SIZES.contains(&bits)
    }

    /// Whether `n` is one of 1, 2, 3, 4, 8, 16.
    pub fn is_valid_num_components(n: u8) -> bool {
        Self::COMPONENT_COUNTS.contains(&n)
    }

    /// Bits per component.
    pub fn bit_size(self) -> u8 {
        self.bit_size
    }

    /// Number of components.
    pub fn num_components(self) -> u8 {
        self.num_components
    }

    /// The same bit size with another component count (`None` if the count is illegal).
    pub fn with_components(self, n: u8) -> Option<Type> {
        Type::new(self.bit_size, n)
    }

    /// The mask of the valid bits of one component (`u64::MAX` for 64-bit).
    pub fn component_mask(self) -> u64 {
        bit_mask(self.bit_size)
    }
}

/// The mask of the low `bits` bits (`bits` in 0..=64).
pub fn bit_mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.num_components == 1 {
            write!(f, "{}", self.bit_size)
        } else {
            write!(f, "{}x{}", self.bit_size, self.num_components)
        }
    }
}

/// The base type of an ALU operand or of an image intrinsic's data (NIR's `nir_alu_type`
/// without the size).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BaseType {
    /// Signed integer.
    Int,
    /// Unsigned integer.
    Uint,
    /// IEEE-754 float.
    Float,
    /// Boolean.
    Bool,
}

impl BaseType {
    /// NIR's spelling (`int`, `uint`, `float`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            BaseType::Int => "int",
            BaseType::Uint => "uint",
            BaseType::Float => "float",
            BaseType::Bool => "bool",
        }
    }
}

/// An ALU type: a base type and a bit size, where size 0 means "any size" (NIR's unsized
/// `tint`, `tfloat`, ...). Printed `float32`, `uint`, `bool1`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct AluType {
    /// The base type.
    pub base: BaseType,
    /// The bit size, or 0 if the type is unsized.
    pub bits: u8,
}

impl AluType {
    /// A sized or unsized ALU type.
    pub const fn new(base: BaseType, bits: u8) -> AluType {
        AluType { base, bits }
    }

    /// Whether the bit size is fixed.
    pub const fn is_sized(self) -> bool {
        self.bits != 0
    }

    /// Parses `float32`, `uint`, `int16`, `bool1`, ...
    pub fn parse(s: &str) -> Option<AluType> {
        let (base, rest) = [
            ("uint", BaseType::Uint),
            ("int", BaseType::Int),
            ("float", BaseType::Float),
            ("bool", BaseType::Bool),
        ]
        .iter()
        .find_map(|(p, b)| s.strip_prefix(p).map(|r| (*b, r)))?;
        if rest.is_empty() {
            return Some(AluType::new(base, 0));
        }
        let bits: u8 = rest.parse().ok()?;
        let ok = match base {
            BaseType::Bool => bits == 1 || bits == 8 || bits == 16 || bits == 32,
            BaseType::Float => bits == 16 || bits == 32 || bits == 64,
            _ => bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 1,
        };
        ok.then_some(AluType::new(base, bits))
    }

    /// An encoding into one `u32` for intrinsic indices (base in bits 8.., size in 0..8).
    pub fn to_index(self) -> u32 {
        let base = match self.base {
            BaseType::Int => 0,
            BaseType::Uint => 1,
            BaseType::Float => 2,
            BaseType::Bool => 3,
        };
        (base << 8) | self.bits as u32
    }

    /// The inverse of [`AluType::to_index`].
    pub fn from_index(v: u32) -> Option<AluType> {
        let base = match v >> 8 {
            0 => BaseType::Int,
            1 => BaseType::Uint,
            2 => BaseType::Float,
            3 => BaseType::Bool,
            _ => return None,
        };
        Some(AluType::new(base, (v & 0xff) as u8))
    }
}

impl fmt::Display for AluType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bits == 0 {
            f.write_str(self.base.name())
        } else {
            write!(f, "{}{}", self.base.name(), self.bits)
        }
    }
}

/// A component selection applied to a source (`%3.yx`).
///
/// `Swizzle::IDENTITY` reads every component of the value in order, however many it has.
/// An explicit swizzle holds up to 16 component indices.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Number of selected components; 0 means identity over the whole value.
    len: u8,
    /// Four bits per selected component, component `i` in bits `4i..4i+4` of the 64-bit
    /// word `comps[1]:comps[0]`. Two 32-bit halves rather than a `u64`, so that a
    /// swizzle is 4-byte aligned and a source (value and swizzle) takes 16 bytes, not
    /// 24: every instruction holds several.
    comps: [u32; 2],
}

impl Swizzle {
    /// Read the whole value, in order.
    pub const IDENTITY: Swizzle = Swizzle {
        len: 0,
        comps: [0, 0],
    };

    /// A swizzle selecting `comps` (each 0..16, at most 16 of them). `None` if out of range.
    pub fn new(comps: &[u8]) -> Option<Swizzle> {
        if comps.is_empty() || comps.len() > 16 || comps.iter().any(|&c| c >= 16) {
            return None;
        }
        let mut packed = 0u64;
        for (i, &c) in comps.iter().enumerate() {
            packed |= (c as u64) << (4 * i);
        }
        Some(Swizzle {
            len: comps.len() as u8,
            comps: [packed as u32, (packed >> 32) as u32],
        })
    }

    /// A single-component swizzle.
    pub fn channel(c: u8) -> Swizzle {
        Swizzle::new(&[c]).expect("component index out of range")
    }

    /// Whether this is the identity over the whole value.
    pub fn is_identity(self) -> bool {
        self.len == 0
    }

    /// Number of explicitly selected components (0 for identity).
    pub fn len(self) -> u8 {
        self.len
    }

    /// Whether no component is explicitly selected (the identity).
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The value component read for source component `i`.
    pub fn component(self, i: u8) -> u8 {
        if self.len == 0 {
            i
        } else {
            let word = self.comps.get(i as usize / 8).copied().unwrap_or(0);
            ((word >> (4 * (i as u32 % 8))) & 0xf) as u8
        }
    }

    /// The explicitly selected components.
    pub fn components(self) -> impl Iterator<Item = u8> {
        (0..self.len).map(move |i| self.component(i))
    }

    /// The swizzle reading `comps` of a value of `value_components` components: the
    /// identity when that is the whole value in order, so that equal reads compare equal.
    /// `None` if `comps` is empty, longer than 16, or names a component out of range.
    pub fn reading(comps: &[u8], value_components: u8) -> Option<Swizzle> {
        let whole = comps.len() == value_components as usize
            && comps.iter().enumerate().all(|(i, &c)| i == c as usize);
        if whole {
            Some(Swizzle::IDENTITY)
        } else {
            Swizzle::new(comps)
        }
    }

    /// `self` applied after `inner`: reading component `i` of the result reads component
    /// `inner.component(self.component(i))` of the underlying value.
    pub fn compose(self, inner: Swizzle, inner_value_comps: u8) -> Swizzle {
        let n = if self.len == 0 {
            if inner.len == 0 {
                return Swizzle::IDENTITY;
            }
            inner.len
        } else {
            self.len
        };
        let comps: SmallVec<[u8; 16]> =
            (0..n).map(|i| inner.component(self.component(i))).collect();
        Swizzle::reading(&comps, inner_value_comps).expect("composed swizzle in range")
    }
}

impl fmt::Debug for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            return f.write_str("identity");
        }
        for c in self.components() {
            write!(f, "{}", swizzle_letter(c, 16))?;
        }
        Ok(())
    }
}

/// The letter NIR prints for component `c`: `xyzw` for values of up to four components,
/// `abcdefghijklmnop` for wider ones.
pub fn swizzle_letter(c: u8, value_components: u8) -> char {
    if value_components <= 4 && c < 4 {
        b"xyzw"[c as usize] as char
    } else {
        (b'a' + c) as char
    }
}

/// The component index of a swizzle letter (`x`..`w` or `a`..`p`).
pub fn swizzle_component(letter: char) -> Option<u8> {
    match letter {
        'x' => Some(0),
        'y' => Some(1),
        'z' => Some(2),
        'w' => Some(3),
        'a'..='p' => Some(letter as u8 - b'a'),
        _ => None,
    }
}

/// An instruction operand: an SSA value with an optional swizzle.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Src {
    /// The value read.
    pub value: Value,
    /// Which of its components are read, in which order.
    pub swizzle: Swizzle,
}

impl Src {
    /// The whole value.
    pub fn new(value: Value) -> Src {
        Src {
            value,
            swizzle: Swizzle::IDENTITY,
        }
    }

    /// One component of a value.
    pub fn channel(value: Value, c: u8) -> Src {
        Src {
            value,
            swizzle: Swizzle::channel(c),
        }
    }

    /// Selected components of a value.
    pub fn swizzled(value: Value, comps: &[u8]) -> Option<Src> {
        Some(Src {
            value,
            swizzle: Swizzle::new(comps)?,
        })
    }

    /// Component `c` of this source, as a source of its own.
    pub fn component(self, c: u8) -> Src {
        Src {
            value: self.value,
            swizzle: Swizzle::channel(self.swizzle.component(c)),
        }
    }
}

impl From<Value> for Src {
    fn from(value: Value) -> Src {
        Src::new(value)
    }
}

impl fmt::Debug for Src {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.swizzle.is_identity() {
            write!(f, "{:?}", self.value)
        } else {
            write!(f, "{:?}.{:?}", self.value, self.swizzle)
        }
    }
}
