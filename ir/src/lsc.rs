//! The fields of Intel LSC messages, as carried by the message intrinsics' indices.
//!
//! Names and spellings follow the vISA text syntax (`docs/hardware/lsc-messages.md` §3, §6).
//! Legality (which combinations a platform accepts) is the lowering's business; these
//! types only describe a message.
//!
//! A message intrinsic's indices are the fields of one [`LscDesc`] (`@lsc_load`,
//! `@lsc_store`, their strided and quad forms, `@lsc_atomic`) or [`Block2dDesc`]
//! (`@lsc_load_block2d`, `@lsc_store_block2d`): every producer builds its indices with
//! [`LscDesc::indices`] and every consumer reads them back with
//! [`LscDesc::from_indices`], so that the encoding is written once, here.

use smallvec::SmallVec;
use std::fmt;

spelled_enum! {
    /// The shared function an LSC message goes to.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum Sfid {
        /// Every SFID.
        const ALL;
        /// vISA spelling (`ugm`, `ugml`, `tgm`, `slm`).
        fn name;
        /// The value spelled `s`: the inverse of [`Sfid::name`].
        fn from_name;

        /// Untyped global memory.
        Ugm => "ugm",
        /// Low-bandwidth untyped global memory (cross tile).
        Ugml => "ugml",
        /// Typed global memory (surface-state formatted).
        Tgm => "tgm",
        /// Shared local memory.
        Slm => "slm",
    }
}

spelled_enum! {
    /// The address model (vISA "address type").
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum AddrType {
        /// Every address type.
        const ALL;
        /// vISA spelling.
        fn name;
        /// The value spelled `s`: the inverse of [`AddrType::name`].
        fn from_name;

        /// Flat (stateless) addresses.
        Flat => "flat",
        /// Bindless surface state.
        Bss => "bss",
        /// Surface state.
        Ss => "ss",
        /// Binding-table index.
        Bti => "bti",
    }
}

spelled_enum! {
    /// The address size.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum AddrSize {
        /// Every address size.
        const ALL;
        /// vISA spelling.
        fn name;
        /// The value spelled `s`: the inverse of [`AddrSize::name`].
        fn from_name;

        /// 16-bit addresses (SLM only).
        A16 => "a16",
        /// 32-bit addresses.
        A32 => "a32",
        /// 64-bit addresses.
        A64 => "a64",
    }
}

impl AddrSize {
    /// Width of an address in bits.
    pub fn bits(self) -> u8 {
        match self {
            AddrSize::A16 => 16,
            AddrSize::A32 => 32,
            AddrSize::A64 => 64,
        }
    }
}

spelled_enum! {
    /// The size of one data element in memory and in the register.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum DataSize {
        /// Every data size.
        const ALL;
        /// vISA spelling.
        fn name;
        /// The value spelled `s`: the inverse of [`DataSize::name`].
        fn from_name;

        /// 8 bits.
        D8 => "d8",
        /// 16 bits.
        D16 => "d16",
        /// 32 bits.
        D32 => "d32",
        /// 64 bits.
        D64 => "d64",
        /// 8 bits in memory, zero-extended to 32 in the register.
        D8U32 => "d8u32",
        /// 16 bits in memory, zero-extended to 32 in the register.
        D16U32 => "d16u32",
        /// 16 bits in memory, placed in the high half of a 32-bit register element.
        D16U32H => "d16u32h",
    }
}

impl DataSize {
    /// Bytes of one element in memory.
    pub fn mem_bytes(self) -> u32 {
        match self {
            DataSize::D8 | DataSize::D8U32 => 1,
            DataSize::D16 | DataSize::D16U32 | DataSize::D16U32H => 2,
            DataSize::D32 => 4,
            DataSize::D64 => 8,
        }
    }

    /// Bit size of one element in the register (and of the IR value carrying it).
    pub fn reg_bits(self) -> u8 {
        match self {
            DataSize::D8 => 8,
            DataSize::D16 => 16,
            DataSize::D64 => 64,
            _ => 32,
        }
    }

    /// Whether this is a widening size (d8u32, d16u32, d16u32h).
    pub fn is_conversion(self) -> bool {
        matches!(self, DataSize::D8U32 | DataSize::D16U32 | DataSize::D16U32H)
    }
}

/// The data operand shape: element size plus either a vector size (with optional
/// transpose) or, for quad messages, a channel mask. Printed as in vISA: `d32`, `d32x4`,
/// `d32x16t`, `d32.xz`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DataShape {
    /// Element size.
    pub size: DataSize,
    /// Elements per address: 1, 2, 3, 4, 8, 16, 32 or 64 (1 for quad messages).
    pub vect: u8,
    /// Transposed (block) order.
    pub transpose: bool,
    /// Channel mask for quad messages (bit 0 = X), or 0 for vector messages.
    pub cmask: u8,
}

impl DataShape {
    /// Legal vector sizes.
    pub const VECT_SIZES: [u8; 8] = [1, 2, 3, 4, 8, 16, 32, 64];

    /// A vector shape.
    pub fn vector(size: DataSize, vect: u8, transpose: bool) -> DataShape {
        DataShape {
            size,
            vect,
            transpose,
            cmask: 0,
        }
    }

    /// A quad (channel-mask) shape.
    pub fn quad(size: DataSize, cmask: u8) -> DataShape {
        DataShape {
            size,
            vect: 1,
            transpose: false,
            cmask,
        }
    }

    /// Components per lane of the data operand: the vector size, or the number of
    /// enabled channels.
    pub fn components(self) -> u8 {
        if self.cmask != 0 {
            self.cmask.count_ones() as u8
        } else {
            self.vect
        }
    }

    /// Index encoding: size in bits 0..4, vector-size code in 4..8, transpose at 8,
    /// channel mask in 12..16.
    pub fn to_index(self) -> u32 {
        let size = DataSize::ALL
            .iter()
            .position(|s| *s == self.size)
            .unwrap_or(0) as u32;
        let vect = DataShape::VECT_SIZES
            .iter()
            .position(|v| *v == self.vect)
            .unwrap_or(0) as u32;
        size | (vect << 4) | ((self.transpose as u32) << 8) | ((self.cmask as u32 & 0xf) << 12)
    }

    /// Inverse of [`DataShape::to_index`].
    pub fn from_index(v: u32) -> Option<DataShape> {
        let size = *DataSize::ALL.get((v & 0xf) as usize)?;
        let vect = *DataShape::VECT_SIZES.get(((v >> 4) & 0xf) as usize)?;
        Some(DataShape {
            size,
            vect,
            transpose: (v >> 8) & 1 != 0,
            cmask: ((v >> 12) & 0xf) as u8,
        })
    }

    /// Parses the vISA spelling.
    pub fn parse(s: &str) -> Option<DataShape> {
        let (size_str, rest) = match s.find(['x', '.']) {
            // `d8u32` contains no 'x'; `d32x4` splits at the 'x'.
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        };
        let size = DataSize::from_name(size_str)?;
        if rest.is_empty() {
            return Some(DataShape::vector(size, 1, false));
        }
        if let Some(mask) = rest.strip_prefix('.') {
            let cmask = parse_channel_mask(mask, "xyzw")?;
            return Some(DataShape::quad(size, cmask as u8));
        }
        let rest = rest.strip_prefix('x')?;
        let (num, transpose) = match rest.strip_suffix('t') {
            Some(n) => (n, true),
            None => (rest, false),
        };
        let vect: u8 = num.parse().ok()?;
        DataShape::VECT_SIZES
            .contains(&vect)
            .then_some(DataShape::vector(size, vect, transpose))
    }
}

/// The letters of the four-bit channel mask `mask` in the alphabet `letters` (`xyzw`
/// for the data of quad messages, `rgba` for the sampler's return channels): one per
/// set bit, lowest bit first.
pub(crate) fn channel_mask_letters(mask: u32, letters: &str) -> String {
    letters
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// Inverse of [`channel_mask_letters`]: `None` unless `s` is at least one letter of
/// `letters`, in increasing order and none twice (the one spelling of each mask).
pub(crate) fn parse_channel_mask(s: &str, letters: &str) -> Option<u32> {
    let mut mask = 0u32;
    let mut last = -1i32;
    for ch in s.chars() {
        let bit = letters.find(ch)? as i32;
        if bit <= last {
            return None;
        }
        last = bit;
        mask |= 1 << bit;
    }
    (mask != 0).then_some(mask)
}

impl fmt::Display for DataShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.size.name())?;
        if self.cmask != 0 {
            return write!(f, ".{}", channel_mask_letters(self.cmask.into(), "xyzw"));
        }
        if self.vect != 1 || self.transpose {
            write!(f, "x{}", self.vect)?;
        }
        if self.transpose {
            f.write_str("t")?;
        }
        Ok(())
    }
}

spelled_enum! {
    /// A cache option of one level.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum CacheOpt {
        /// Every option, in vISA enum order.
        const ALL;
        /// vISA spelling.
        fn name;
        /// Parses the vISA spelling (one level of `l1.l3`).
        fn from_name;

        /// Default (MOCS).
        Df => "df",
        /// Uncached.
        Uc => "uc",
        /// Cached.
        Ca => "ca",
        /// Write-back.
        Wb => "wb",
        /// Write-through.
        Wt => "wt",
        /// Streaming.
        St => "st",
        /// Read-invalidate.
        Ri => "ri",
        /// Constant-cached (Xe2 loads).
        Cc => "cc",
    }
}

/// The L1 and L3 cache controls of a message. Printed `l1.l3`, e.g. `uc.wb`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CacheControl {
    /// L1 behaviour.
    pub l1: CacheOpt,
    /// L3 behaviour.
    pub l3: CacheOpt,
}

impl CacheControl {
    /// Default caching on both levels.
    pub const DEFAULT: CacheControl = CacheControl {
        l1: CacheOpt::Df,
        l3: CacheOpt::Df,
    };

    /// Whether both levels use the default.
    pub fn is_default(self) -> bool {
        self == CacheControl::DEFAULT
    }

    /// Index encoding.
    pub fn to_index(self) -> u32 {
        (self.l1 as u32) | ((self.l3 as u32) << 8)
    }

    /// Inverse of [`CacheControl::to_index`].
    pub fn from_index(v: u32) -> Option<CacheControl> {
        Some(CacheControl {
            l1: *CacheOpt::ALL.get((v & 0xff) as usize)?,
            l3: *CacheOpt::ALL.get(((v >> 8) & 0xff) as usize)?,
        })
    }

    /// Parses `l1.l3`.
    pub fn parse(s: &str) -> Option<CacheControl> {
        let (a, b) = s.split_once('.')?;
        Some(CacheControl {
            l1: CacheOpt::from_name(a)?,
            l3: CacheOpt::from_name(b)?,
        })
    }
}

impl fmt::Display for CacheControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.l1.name(), self.l3.name())
    }
}

spelled_enum! {
    /// An LSC atomic sub-operation (the hardware opcode of `lsc_atomic_*`).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum LscAtomicOp {
        /// Every sub-op.
        const ALL;
        /// The suffix of the vISA mnemonic (`lsc_atomic_<name>`).
        fn name;
        /// Parses the mnemonic suffix.
        fn from_name;

        /// Increment (0x08), no data operand.
        Iinc = 0x08 => "iinc",
        /// Decrement (0x09), no data operand.
        Idec = 0x09 => "idec",
        /// Atomic load (0x0A).
        Load = 0x0A => "load",
        /// Atomic store / exchange (0x0B), returns the old value.
        Store = 0x0B => "store",
        /// Integer add (0x0C).
        Iadd = 0x0C => "iadd",
        /// Integer subtract (0x0D).
        Isub = 0x0D => "isub",
        /// Signed minimum (0x0E).
        Smin = 0x0E => "smin",
        /// Signed maximum (0x0F).
        Smax = 0x0F => "smax",
        /// Unsigned minimum (0x10).
        Umin = 0x10 => "umin",
        /// Unsigned maximum (0x11).
        Umax = 0x11 => "umax",
        /// Integer compare and swap (0x12), two data operands.
        Icas = 0x12 => "icas",
        /// Float add (0x13).
        Fadd = 0x13 => "fadd",
        /// Float subtract (0x14).
        Fsub = 0x14 => "fsub",
        /// Float minimum (0x15).
        Fmin = 0x15 => "fmin",
        /// Float maximum (0x16).
        Fmax = 0x16 => "fmax",
        /// Float compare and swap (0x17), two data operands.
        Fcas = 0x17 => "fcas",
        /// Bitwise and (0x18).
        And = 0x18 => "and",
        /// Bitwise or (0x19).
        Or = 0x19 => "or",
        /// Bitwise xor (0x1A).
        Xor = 0x1A => "xor",
    }
}

impl LscAtomicOp {
    /// Number of data operands (0, 1 or 2).
    pub fn num_data_operands(self) -> usize {
        match self {
            LscAtomicOp::Iinc | LscAtomicOp::Idec | LscAtomicOp::Load => 0,
            LscAtomicOp::Icas | LscAtomicOp::Fcas => 2,
            _ => 1,
        }
    }

    /// Whether the data is floating point.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            LscAtomicOp::Fadd
                | LscAtomicOp::Fsub
                | LscAtomicOp::Fmin
                | LscAtomicOp::Fmax
                | LscAtomicOp::Fcas
        )
    }

    /// The hardware sub-opcode.
    pub fn opcode(self) -> u32 {
        self as u32
    }

    /// From the hardware sub-opcode.
    pub fn from_opcode(v: u32) -> Option<LscAtomicOp> {
        LscAtomicOp::ALL.iter().copied().find(|o| o.opcode() == v)
    }
}

/// Encodes and decodes the position of a value in `ALL` (declaration order), the index
/// encoding of the enums above.
macro_rules! index_encoding {
    ($($ty:ident),+) => {$(
        impl $ty {
            /// The index encoding: the position in `ALL`.
            pub fn to_index(self) -> u32 {
                self as u32
            }

            /// Inverse of `to_index`.
            pub fn from_index(v: u32) -> Option<$ty> {
                $ty::ALL.get(usize::try_from(v).ok()?).copied()
            }
        }
    )+};
}

index_encoding!(Sfid, AddrType, AddrSize);

/// A field of a message intrinsic's indices, named in [`LscIndexError`] (the
/// intrinsic table's `IndexKind` of the same name: `lsc_sfid`, `lsc_addr`, ...).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum LscField {
    /// `lsc_sfid`.
    Sfid,
    /// `lsc_addr`.
    AddrType,
    /// `lsc_addr_size`.
    AddrSize,
    /// `lsc_data`.
    Data,
    /// `lsc_cache`.
    Cache,
    /// `lsc_offset`.
    Offset,
    /// `lsc_op`.
    AtomicOp,
    /// `lsc_block`.
    Block,
}

/// An index of a message intrinsic that is missing or does not decode.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LscIndexError {
    /// The field.
    pub field: LscField,
    /// The value found, or `None` when the index is missing.
    pub value: Option<u32>,
}

impl fmt::Display for LscIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            None => write!(f, "the message has no {:?} index", self.field),
            Some(v) => write!(f, "the {:?} index value {v} does not decode", self.field),
        }
    }
}

impl std::error::Error for LscIndexError {}

/// The message an LSC intrinsic (`@lsc_load`, `@lsc_store`, `@lsc_load_strided`,
/// `@lsc_store_strided`, `@lsc_load_quad`, `@lsc_store_quad`, `@lsc_atomic`) sends: its
/// indices by name. The operation is the intrinsic; `atomic` is the sub-operation of
/// `@lsc_atomic` and `None` for the others.
///
/// ```
/// use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, DataSize, LscDesc, Sfid};
/// // `lsc_load.ugm.uc.ca (flat, a64) d32x4`, as the text format spells its indices.
/// let desc = LscDesc::new(Sfid::Ugm, AddrType::Flat, AddrSize::A64, DataShape::vector(DataSize::D32, 4, false))
///     .with_cache(CacheControl::parse("uc.ca").unwrap());
/// assert_eq!(LscDesc::from_indices(&desc.indices()), Ok(desc));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LscDesc {
    /// The shared function.
    pub sfid: Sfid,
    /// The address model.
    pub addr_type: AddrType,
    /// The address size.
    pub addr_size: AddrSize,
    /// The data shape.
    pub data: DataShape,
    /// The L1/L3 cache controls.
    pub cache: CacheControl,
    /// The immediate byte offset added to every address.
    pub offset: i32,
    /// The atomic sub-operation (`@lsc_atomic` only).
    pub atomic: Option<LscAtomicOp>,
}

impl LscDesc {
    /// Number of indices without an atomic sub-operation.
    pub const INDICES: usize = 6;

    /// A message with default caching, no offset and no atomic sub-operation.
    pub fn new(sfid: Sfid, addr_type: AddrType, addr_size: AddrSize, data: DataShape) -> LscDesc {
        LscDesc {
            sfid,
            addr_type,
            addr_size,
            data,
            cache: CacheControl::DEFAULT,
            offset: 0,
            atomic: None,
        }
    }

    /// A typed message through the binding table: `.tgm`, `bti`, `a32` (typed messages
    /// are a32 only and never flat, `docs/hardware/lsc-messages.md` §5).
    pub fn typed(data: DataShape) -> LscDesc {
        LscDesc::new(Sfid::Tgm, AddrType::Bti, AddrSize::A32, data)
    }

    /// The same message with cache controls `cache`.
    pub fn with_cache(self, cache: CacheControl) -> LscDesc {
        LscDesc { cache, ..self }
    }

    /// The same message with immediate offset `offset`.
    pub fn with_offset(self, offset: i32) -> LscDesc {
        LscDesc { offset, ..self }
    }

    /// The same message as the atomic `op`.
    pub fn with_atomic(self, op: LscAtomicOp) -> LscDesc {
        LscDesc {
            atomic: Some(op),
            ..self
        }
    }

    /// The intrinsic's indices: `lsc_sfid, lsc_addr, lsc_addr_size, lsc_data,
    /// lsc_cache, lsc_offset`, then `lsc_op` for an atomic.
    pub fn indices(&self) -> SmallVec<[u32; 7]> {
        let mut out: SmallVec<[u32; 7]> = SmallVec::new();
        out.extend([
            self.sfid.to_index(),
            self.addr_type.to_index(),
            self.addr_size.to_index(),
            self.data.to_index(),
            self.cache.to_index(),
            self.offset as u32,
        ]);
        if let Some(op) = self.atomic {
            out.push(op.opcode());
        }
        out
    }

    /// Inverse of [`LscDesc::indices`]: six indices, or seven with an atomic
    /// sub-operation. The error names the first index that is missing or does not
    /// decode.
    pub fn from_indices(indices: &[u32]) -> Result<LscDesc, LscIndexError> {
        let get = |i: usize, field: LscField| {
            indices
                .get(i)
                .copied()
                .ok_or(LscIndexError { field, value: None })
        };
        let bad = |field: LscField, v: u32| LscIndexError {
            field,
            value: Some(v),
        };
        let v = get(0, LscField::Sfid)?;
        let sfid = Sfid::from_index(v).ok_or(bad(LscField::Sfid, v))?;
        let v = get(1, LscField::AddrType)?;
        let addr_type = AddrType::from_index(v).ok_or(bad(LscField::AddrType, v))?;
        let v = get(2, LscField::AddrSize)?;
        let addr_size = AddrSize::from_index(v).ok_or(bad(LscField::AddrSize, v))?;
        let v = get(3, LscField::Data)?;
        let data = DataShape::from_index(v).ok_or(bad(LscField::Data, v))?;
        let v = get(4, LscField::Cache)?;
        let cache = CacheControl::from_index(v).ok_or(bad(LscField::Cache, v))?;
        let offset = get(5, LscField::Offset)? as i32;
        let atomic = match indices.get(6..) {
            Some([]) | None => None,
            Some([v]) => Some(LscAtomicOp::from_opcode(*v).ok_or(bad(LscField::AtomicOp, *v))?),
            Some([_, extra, ..]) => return Err(bad(LscField::AtomicOp, *extra)),
        };
        Ok(LscDesc {
            sfid,
            addr_type,
            addr_size,
            data,
            cache,
            offset,
            atomic,
        })
    }
}

/// The message a 2D block intrinsic (`@lsc_load_block2d`, `@lsc_store_block2d`) sends:
/// its indices by name.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Block2dDesc {
    /// The shared function (`.ugm` or `.tgm`).
    pub sfid: Sfid,
    /// The element size.
    pub size: DataSize,
    /// The block shape: untyped `[B x] W x H` in elements with flags, typed `W x H`
    /// with the width in bytes.
    pub shape: BlockShape,
    /// The L1/L3 cache controls.
    pub cache: CacheControl,
}

impl Block2dDesc {
    /// A block message with default caching.
    pub fn new(sfid: Sfid, size: DataSize, shape: BlockShape) -> Block2dDesc {
        Block2dDesc {
            sfid,
            size,
            shape,
            cache: CacheControl::DEFAULT,
        }
    }

    /// The intrinsic's indices: `lsc_sfid, lsc_data, lsc_block, lsc_cache`. `None` if
    /// the shape does not encode ([`BlockShape::to_index`]).
    pub fn indices(&self) -> Option<[u32; 4]> {
        Some([
            self.sfid.to_index(),
            DataShape::vector(self.size, 1, false).to_index(),
            self.shape.to_index()?,
            self.cache.to_index(),
        ])
    }

    /// Inverse of [`Block2dDesc::indices`]. The data index must be one element size: a
    /// block's vector, transpose and channel mask are not `lsc_data`'s (transpose and
    /// VNNI are `lsc_block`'s).
    pub fn from_indices(indices: &[u32]) -> Result<Block2dDesc, LscIndexError> {
        let get = |i: usize, field: LscField| {
            indices
                .get(i)
                .copied()
                .ok_or(LscIndexError { field, value: None })
        };
        let bad = |field: LscField, v: u32| LscIndexError {
            field,
            value: Some(v),
        };
        let v = get(0, LscField::Sfid)?;
        let sfid = Sfid::from_index(v).ok_or(bad(LscField::Sfid, v))?;
        let v = get(1, LscField::Data)?;
        let data = DataShape::from_index(v)
            .filter(|d| d.vect == 1 && !d.transpose && d.cmask == 0)
            .ok_or(bad(LscField::Data, v))?;
        let v = get(2, LscField::Block)?;
        let shape = BlockShape::from_index(v).ok_or(bad(LscField::Block, v))?;
        let v = get(3, LscField::Cache)?;
        let cache = CacheControl::from_index(v).ok_or(bad(LscField::Cache, v))?;
        Ok(Block2dDesc {
            sfid,
            size: data.size,
            shape,
            cache,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_masks_have_one_spelling() {
        assert_eq!(channel_mask_letters(0b0101, "xyzw"), "xz");
        assert_eq!(channel_mask_letters(0b1011, "rgba"), "rga");
        assert_eq!(parse_channel_mask("xz", "xyzw"), Some(0b0101));
        assert_eq!(parse_channel_mask("rga", "rgba"), Some(0b1011));
        for mask in 1..=0xf {
            for letters in ["xyzw", "rgba"] {
                let s = channel_mask_letters(mask, letters);
                assert_eq!(parse_channel_mask(&s, letters), Some(mask), "{s}");
            }
        }
        // Empty, out of order, repeated, foreign letters.
        for bad in ["", "yx", "xx", "xq", "rg"] {
            assert_eq!(parse_channel_mask(bad, "xyzw"), None, "{bad}");
        }
    }

    #[test]
    fn data_shapes_round_trip() {
        for s in [
            "d32", "d32x4", "d32x16t", "d64x2", "d8u32", "d16u32h", "d32.xyzw", "d32.xz",
        ] {
            let shape = DataShape::parse(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(shape.to_string(), s);
            assert_eq!(DataShape::from_index(shape.to_index()), Some(shape));
        }
        assert_eq!(DataShape::parse("d32.zx"), None);
        assert_eq!(DataShape::parse("d32x5"), None);
        assert_eq!(DataShape::parse("d33"), None);
    }

    #[test]
    fn cache_round_trip() {
        let c = CacheControl::parse("uc.wb").unwrap();
        assert_eq!(c.to_string(), "uc.wb");
        assert_eq!(CacheControl::from_index(c.to_index()), Some(c));
    }
}

/// The shape of a 2D block message (`lsc_load_block2d` / `lsc_store_block2d`), or of a
/// high-level image block access.
///
/// Untyped (UGM) blocks are counted in elements of the data size and print as in vISA:
/// `[B x] W x H` followed by the transpose and VNNI flags, `n` or `t` each
/// (`2x16x32nn`; the block count is omitted when it is 1: `16x8nn`). Typed (TGM) blocks
/// and image block accesses have no count and no flags and print `WxH` (`8x8`): width in
/// bytes for typed messages (docs/hardware/lsc-messages.md §8.1), in texels for image block accesses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct BlockShape {
    /// Width (elements, bytes for typed messages), 1..=256.
    pub width: u16,
    /// Height in rows, 1..=256.
    pub height: u16,
    /// Number of side-by-side blocks (untyped only, 1..=15); 0 for the `WxH` form.
    pub blocks: u8,
    /// Transposed load (untyped only).
    pub transpose: bool,
    /// VNNI transform (untyped only).
    pub vnni: bool,
}

impl BlockShape {
    /// An untyped (UGM) block shape.
    pub fn untyped(blocks: u8, width: u16, height: u16, transpose: bool, vnni: bool) -> BlockShape {
        BlockShape {
            width,
            height,
            blocks,
            transpose,
            vnni,
        }
    }

    /// A `WxH` shape (typed messages, image block accesses).
    pub fn plain(width: u16, height: u16) -> BlockShape {
        BlockShape {
            width,
            height,
            blocks: 0,
            transpose: false,
            vnni: false,
        }
    }

    /// Whether this is the untyped form (with a block count and flags).
    pub fn is_untyped(self) -> bool {
        self.blocks != 0
    }

    /// Bytes of the register image a 2D block message of this shape reads or writes,
    /// with elements of `elem_bytes` (1, 2, 4 or 8) and 64-byte GRFs (block messages
    /// exist only on 64-byte-GRF parts, docs/hardware/lsc-messages.md §1).
    ///
    /// Untyped shapes follow the `LOAD_BLOCK2D` pseudo-code of
    /// `intel-graphics-compiler/documentation/visa/instructions/LSC_UNTYPED.md`: a register row is
    /// the width (the height when transposed) rounded up to a power of two, a block is that pitch
    /// times the other dimension, padded to whole GRFs, and the blocks follow each other. The `WxH`
    /// form is a typed block
    /// (`intel-graphics-compiler/documentation/visa/instructions/LSC_TYPED.md`): `height` rows at a
    /// pitch of `max(4, next_pow2(width))` bytes, `elem_bytes` unused.
    pub fn register_bytes(self, elem_bytes: u32) -> u32 {
        let (w, h) = (u32::from(self.width), u32::from(self.height));
        if !self.is_untyped() {
            return w.next_power_of_two().max(4) * h;
        }
        let e = elem_bytes.max(1);
        let (row, rows) = if self.transpose { (h, w) } else { (w, h) };
        let block = row.next_power_of_two() * rows * e;
        u32::from(self.blocks) * block.div_ceil(64) * 64
    }

    /// Index encoding: width-1 in bits 0..8, height-1 in 8..16, blocks in 16..20,
    /// transpose at 20, VNNI at 21. `None` if a field is out of range.
    pub fn to_index(self) -> Option<u32> {
        if !(1..=256).contains(&self.width) || !(1..=256).contains(&self.height) || self.blocks > 15
        {
            return None;
        }
        if self.blocks == 0 && (self.transpose || self.vnni) {
            return None;
        }
        Some(
            (self.width as u32 - 1)
                | ((self.height as u32 - 1) << 8)
                | ((self.blocks as u32) << 16)
                | ((self.transpose as u32) << 20)
                | ((self.vnni as u32) << 21),
        )
    }

    /// Inverse of [`BlockShape::to_index`].
    pub fn from_index(v: u32) -> Option<BlockShape> {
        if v >> 22 != 0 {
            return None;
        }
        let shape = BlockShape {
            width: (v & 0xff) as u16 + 1,
            height: ((v >> 8) & 0xff) as u16 + 1,
            blocks: ((v >> 16) & 0xf) as u8,
            transpose: (v >> 20) & 1 != 0,
            vnni: (v >> 21) & 1 != 0,
        };
        (shape.blocks != 0 || !(shape.transpose || shape.vnni)).then_some(shape)
    }

    /// Parses `WxH`, `WxHnn` or `BxWxHtn`.
    pub fn parse(s: &str) -> Option<BlockShape> {
        let (dims, flags) = match s.char_indices().find(|(_, c)| *c == 'n' || *c == 't') {
            Some((i, _)) => (&s[..i], Some(&s[i..])),
            None => (s, None),
        };
        let nums: Vec<u32> = dims
            .split('x')
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?;
        let flag = |c: u8| match c {
            b'n' => Some(false),
            b't' => Some(true),
            _ => None,
        };
        let shape = match (flags, nums.as_slice()) {
            (None, [w, h]) => BlockShape::plain(u16::try_from(*w).ok()?, u16::try_from(*h).ok()?),
            (Some(f), nums) if f.len() == 2 && (nums.len() == 2 || nums.len() == 3) => {
                let f = f.as_bytes();
                let (b, w, h) = match nums {
                    [w, h] => (1, *w, *h),
                    [b, w, h] => (*b, *w, *h),
                    _ => return None,
                };
                BlockShape::untyped(
                    u8::try_from(b).ok().filter(|b| *b >= 1)?,
                    u16::try_from(w).ok()?,
                    u16::try_from(h).ok()?,
                    flag(f[0])?,
                    flag(f[1])?,
                )
            }
            _ => return None,
        };
        shape.to_index().map(|_| shape)
    }
}

impl fmt::Display for BlockShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.blocks == 0 {
            return write!(f, "{}x{}", self.width, self.height);
        }
        if self.blocks != 1 {
            write!(f, "{}x", self.blocks)?;
        }
        let flag = |b: bool| if b { 't' } else { 'n' };
        write!(
            f,
            "{}x{}{}{}",
            self.width,
            self.height,
            flag(self.transpose),
            flag(self.vnni)
        )
    }
}

#[cfg(test)]
mod block_tests {
    use super::*;

    #[test]
    fn block_shapes_round_trip() {
        for s in ["8x8", "64x4", "16x8nn", "2x16x32nn", "4x8x16tn", "16x32nt"] {
            let shape = BlockShape::parse(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(shape.to_string(), s);
            assert_eq!(
                BlockShape::from_index(shape.to_index().unwrap()),
                Some(shape)
            );
        }
        assert_eq!(BlockShape::parse("1x16x8nn").unwrap().to_string(), "16x8nn");
        // intel-graphics-compiler/documentation/visa/instructions/LSC_UNTYPED.md examples: d8
        // 2x16x32nn is two 512-byte blocks; d16 1x16x32nt is 1 KiB; a 12-wide d8 row pads to 16, 3
        // rows pad to one GRF per block.
        let bytes = |s: &str, e: u32| BlockShape::parse(s).unwrap().register_bytes(e);
        assert_eq!(bytes("2x16x32nn", 1), 1024);
        assert_eq!(bytes("16x32nt", 2), 1024);
        assert_eq!(bytes("2x12x3nn", 1), 128);
        assert_eq!(bytes("8x5tn", 4), 256);
        assert_eq!(bytes("8x8", 1), 64);
        assert_eq!(bytes("3x5", 1), 20);
        for bad in [
            "8", "8x", "0x8", "8x8n", "8x8nnn", "0x8x8nn", "8x8xx", "300x2", "16x8an",
        ] {
            assert_eq!(BlockShape::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn descriptors_round_trip_through_their_indices() {
        let shapes = ["d32", "d32x4", "d64x16t", "d8u32", "d32.xyz"];
        let caches = ["df.df", "uc.wb", "ri.ri"];
        let mut n = 0;
        for sfid in Sfid::ALL {
            for addr_type in AddrType::ALL {
                for addr_size in AddrSize::ALL {
                    for shape in shapes {
                        for cache in caches {
                            let data = DataShape::parse(shape).unwrap();
                            let d = LscDesc::new(sfid, addr_type, addr_size, data)
                                .with_cache(CacheControl::parse(cache).unwrap())
                                .with_offset(-64);
                            assert_eq!(d.indices().len(), LscDesc::INDICES);
                            assert_eq!(LscDesc::from_indices(&d.indices()), Ok(d));
                            let a = d.with_atomic(LscAtomicOp::Fcas);
                            assert_eq!(a.indices().len(), LscDesc::INDICES + 1);
                            assert_eq!(LscDesc::from_indices(&a.indices()), Ok(a));
                            n += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(n, 4 * 4 * 3 * 5 * 3);
        // The positions: sfid, addr, addr size, data, cache, offset, op. Values by hand:
        // tgm is the third SFID, bti the fourth model, a32 the second size; d32 is data
        // size 2, vector code 0; uc.wb is l1 1 | l3 3 << 8.
        let t = LscDesc::typed(DataShape::vector(DataSize::D32, 1, false))
            .with_cache(CacheControl::parse("uc.wb").unwrap())
            .with_atomic(LscAtomicOp::Iadd);
        assert_eq!(t.indices().as_slice(), &[2, 3, 1, 2, 0x301, 0, 0x0C]);
    }

    #[test]
    fn bad_indices_name_their_field() {
        fn bad<T>(field: LscField, value: Option<u32>) -> Result<T, LscIndexError> {
            Err(LscIndexError { field, value })
        }
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 2, 0]),
            bad(LscField::Offset, None)
        );
        assert_eq!(
            LscDesc::from_indices(&[4, 0, 1, 2, 0, 0]),
            bad(LscField::Sfid, Some(4))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 9, 1, 2, 0, 0]),
            bad(LscField::AddrType, Some(9))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 3, 2, 0, 0]),
            bad(LscField::AddrSize, Some(3))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 0xf, 0, 0]),
            bad(LscField::Data, Some(0xf))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 2, 0x900, 0]),
            bad(LscField::Cache, Some(0x900))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 2, 0, 0, 7]),
            bad(LscField::AtomicOp, Some(7))
        );
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 2, 0, 0, 8, 9]),
            bad(LscField::AtomicOp, Some(9))
        );
        let b = Block2dDesc::new(
            Sfid::Ugm,
            DataSize::D16,
            BlockShape::parse("2x16x8nn").unwrap(),
        );
        assert_eq!(Block2dDesc::from_indices(&b.indices().unwrap()), Ok(b));
        // d16x2 is no block element.
        let mut idx = b.indices().unwrap();
        idx[1] = DataShape::vector(DataSize::D16, 2, false).to_index();
        assert_eq!(
            Block2dDesc::from_indices(&idx),
            bad(LscField::Data, Some(idx[1]))
        );
        assert_eq!(
            Block2dDesc::from_indices(&idx[..3]),
            bad(LscField::Data, Some(idx[1]))
        );
        assert_eq!(Block2dDesc::from_indices(&[1]), bad(LscField::Data, None));
    }
}
