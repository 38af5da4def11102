//! The fields of Intel LSC messages, as carried by the message intrinsics' indices.
//!
//! Names and spellings follow the vISA text syntax (`../shared/reference/lsc.md` §3, §6).
//! Legality (which combinations a platform accepts) is the lowering's business; these
//! types only describe a message.

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
/// bytes for typed messages (lsc.md §8.1), in texels for image block accesses.
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
    /// exist only on 64-byte-GRF parts, lsc.md §1).
    ///
    /// Untyped shapes follow the `LOAD_BLOCK2D` pseudo-code of `visa-lsc-untyped.md`:
    /// a register row is the width (the height when transposed) rounded up to a power
    /// of two, a block is that pitch times the other dimension, padded to whole GRFs,
    /// and the blocks follow each other. The `WxH` form is a typed block
    /// (`visa-lsc-typed.md`): `height` rows at a pitch of `max(4, next_pow2(width))`
    /// bytes, `elem_bytes` unused.
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
        // visa-lsc-untyped.md examples: d8 2x16x32nn is two 512-byte blocks; d16 1x16x32nt
        // is 1 KiB; a 12-wide d8 row pads to 16, 3 rows pad to one GRF per block.
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
}
