//! The fields of Intel's legacy data-port messages, the memory messages of Gfx7 to
//! Gfx12.0 (Ivy Bridge to Tiger Lake), which have no LSC: typed surface read, write and
//! atomic; untyped surface read, write and atomic; byte and dword scattered read and
//! write; and the A64 (stateless, 64-bit address) forms of the untyped and byte
//! scattered messages and of the atomics.
//!
//! A message intrinsic (`@dp_*`) names its message family ([`DpMsg`]) and carries the
//! fields of that family as indices; [`DpDesc`] is the typed view of them, with
//! [`DpDesc::to_indices`] and [`DpDesc::from_indices`] between the two. Names follow
//! Mesa's brw/elk backends (`brw_eu.h`: `brw_dp_typed_surface_rw_desc`,
//! `brw_dp_untyped_atomic_desc`, ...; the atomic operations are its `BRW_AOP_*`), the
//! vISA instructions they print as are in `docs/hardware/dataport.md`.
//!
//! Like [`crate::lsc`], these types only describe a message: which combinations a
//! generation accepts (SIMD widths, which atomics, A64 from Gfx8, ...) is the
//! lowering's legality table, and the validator checks only that the operands have the
//! shapes the fields give.

use crate::lsc::{channel_mask_letters, parse_channel_mask};
use std::fmt;

spelled_enum! {
    /// A message family: one `@dp_*` intrinsic each.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum DpMsg {
        /// Every family.
        const ALL;
        /// The intrinsic's name.
        fn name;
        /// The family of the intrinsic called `s`.
        fn from_name;

        /// Typed surface read: the enabled channels of the texel at (U, V, R, LOD),
        /// converted by the surface format (Mesa `TYPED_SURFACE_READ`, vISA
        /// `gather4_typed`).
        TypedRead => "dp_typed_read",
        /// Typed surface write of the enabled channels (`TYPED_SURFACE_WRITE`,
        /// `scatter4_typed`).
        TypedWrite => "dp_typed_write",
        /// Typed atomic on the texel (`TYPED_ATOMIC_OP`, `typed_atomic`).
        TypedAtomic => "dp_typed_atomic",
        /// Untyped surface read: the enabled dwords of four consecutive ones at a byte
        /// address (`UNTYPED_SURFACE_READ`, `A64_UNTYPED_SURFACE_READ`; vISA
        /// `gather4_scaled`, `svm_gather4scaled`).
        UntypedRead => "dp_untyped_read",
        /// Untyped surface write (`UNTYPED_SURFACE_WRITE`, `A64_UNTYPED_SURFACE_WRITE`;
        /// `scatter4_scaled`, `svm_scatter4scaled`).
        UntypedWrite => "dp_untyped_write",
        /// Untyped atomic at a byte address (`UNTYPED_ATOMIC_OP`,
        /// `UNTYPED_ATOMIC_FLOAT_OP`, `A64_UNTYPED_ATOMIC_OP`, ...; `dword_atomic`,
        /// `svm_atomic`).
        UntypedAtomic => "dp_untyped_atomic",
        /// Byte scattered read: 1, 2 or 4 bytes (8 with A64) at a byte address
        /// (`BYTE_SCATTERED_READ`, `A64_SCATTERED_READ`; `gather_scaled`,
        /// `svm_gather`).
        ByteScatteredRead => "dp_byte_scattered_read",
        /// Byte scattered write (`BYTE_SCATTERED_WRITE`, `A64_SCATTERED_WRITE`;
        /// `scatter_scaled`, `svm_scatter`).
        ByteScatteredWrite => "dp_byte_scattered_write",
        /// Dword scattered read: one dword at a byte address
        /// (`DWORD_SCATTERED_READ`, vISA `gather.4`).
        DwordScatteredRead => "dp_dword_scattered_read",
        /// Dword scattered write (`DWORD_SCATTERED_WRITE`, vISA `scatter.4`).
        DwordScatteredWrite => "dp_dword_scattered_write",
    }
}

spelled_enum! {
    /// A field of a data-port message: the name of its index in the text syntax.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum DpField {
        /// Every field.
        const ALL;
        /// The index name.
        fn name;
        /// The field whose index is called `s`.
        fn from_name;

        /// The address model ([`DpAddr`]).
        Addr => "dp_addr",
        /// The channel mask (`xyzw`, `xz`, ...).
        Cmask => "dp_cmask",
        /// The atomic operation ([`DpAtomicOp`]).
        Op => "dp_op",
        /// The width of an atomic's operands in memory: 16, 32 or 64.
        Bits => "dp_bits",
        /// The bytes a byte scattered message moves per lane: 1, 2, 4 or 8.
        Bytes => "dp_bytes",
    }
}

spelled_enum! {
    /// How a message addresses memory.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum DpAddr {
        /// Every model.
        const ALL;
        /// The spelling.
        fn name;
        /// The model spelled `s`.
        fn from_name;

        /// A 32-bit byte offset into the surface of a binding-table entry: the named
        /// image's.
        Bti => "bti",
        /// A 32-bit byte offset into the workgroup's shared local memory (binding-table
        /// index 254 from Gfx7, Mesa `GFX7_BTI_SLM`).
        Slm => "slm",
        /// A 64-bit virtual address, stateless (the A64 messages, Gfx8 and later).
        A64 => "a64",
    }
}

impl DpAddr {
    /// Bits of the address operand.
    pub fn bits(self) -> u8 {
        match self {
            DpAddr::A64 => 64,
            DpAddr::Bti | DpAddr::Slm => 32,
        }
    }
}

spelled_enum! {
    /// An atomic operation of the legacy data port (Mesa's `BRW_AOP_*`; the float ones
    /// go in the float-atomic messages of Gfx9 and later). `cmpwr` and `fcmpwr` take
    /// the compare value first and the new value second, the hardware's payload order.
    /// The hardware's `revsub` and `predec` are left out: no compiler emits them and
    /// vISA has no mnemonic for them.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum DpAtomicOp {
        /// Every op.
        const ALL;
        /// The spelling (Mesa's `BRW_AOP_*` name in lower case).
        fn name;
        /// The op spelled `s`.
        fn from_name;

        /// `old & src0`.
        And => "and",
        /// `old | src0`.
        Or => "or",
        /// `old ^ src0`.
        Xor => "xor",
        /// `src0` (exchange).
        Mov => "mov",
        /// `old + 1`, no data operand.
        Inc => "inc",
        /// `old - 1`, no data operand.
        Dec => "dec",
        /// `old + src0`.
        Add => "add",
        /// `old - src0`.
        Sub => "sub",
        /// Signed maximum.
        Imax => "imax",
        /// Signed minimum.
        Imin => "imin",
        /// Unsigned maximum.
        Umax => "umax",
        /// Unsigned minimum.
        Umin => "umin",
        /// `old == src0 ? src1 : old`, bitwise compare.
        Cmpwr => "cmpwr",
        /// Float maximum.
        Fmax => "fmax",
        /// Float minimum.
        Fmin => "fmin",
        /// `old == src0 ? src1 : old`, compared as floats.
        Fcmpwr => "fcmpwr",
    }
}

impl DpAtomicOp {
    /// Number of data operands (0, 1 or 2).
    pub fn num_srcs(self) -> usize {
        match self {
            DpAtomicOp::Inc | DpAtomicOp::Dec => 0,
            DpAtomicOp::Cmpwr | DpAtomicOp::Fcmpwr => 2,
            _ => 1,
        }
    }

    /// Whether this is a float operation (the float-atomic messages).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DpAtomicOp::Fmax | DpAtomicOp::Fmin | DpAtomicOp::Fcmpwr
        )
    }

    /// The hardware's operation code in the descriptor's message-control field: Mesa's
    /// `BRW_AOP_*` values (integer 1-14; float `FMAX` 1, `FMIN` 2, `FCMPWR` 3 in the
    /// float messages).
    pub fn aop(self) -> u32 {
        match self {
            DpAtomicOp::And => 1,
            DpAtomicOp::Or => 2,
            DpAtomicOp::Xor => 3,
            DpAtomicOp::Mov => 4,
            DpAtomicOp::Inc => 5,
            DpAtomicOp::Dec => 6,
            DpAtomicOp::Add => 7,
            DpAtomicOp::Sub => 8,
            DpAtomicOp::Imax => 10,
            DpAtomicOp::Imin => 11,
            DpAtomicOp::Umax => 12,
            DpAtomicOp::Umin => 13,
            DpAtomicOp::Cmpwr => 14,
            DpAtomicOp::Fmax => 1,
            DpAtomicOp::Fmin => 2,
            DpAtomicOp::Fcmpwr => 3,
        }
    }
}

impl DpMsg {
    /// The fields this family carries, in the order of its indices.
    pub fn fields(self) -> &'static [DpField] {
        use DpField as F;
        match self {
            DpMsg::TypedRead | DpMsg::TypedWrite => &[F::Cmask],
            DpMsg::TypedAtomic => &[F::Op, F::Bits],
            DpMsg::UntypedRead | DpMsg::UntypedWrite => &[F::Addr, F::Cmask],
            DpMsg::UntypedAtomic => &[F::Addr, F::Op, F::Bits],
            DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite => &[F::Addr, F::Bytes],
            DpMsg::DwordScatteredRead | DpMsg::DwordScatteredWrite => &[F::Addr],
        }
    }

    /// Whether this is a typed message (the surface format converts the data, the
    /// address is the U, V, R, LOD coordinates).
    pub fn is_typed(self) -> bool {
        matches!(
            self,
            DpMsg::TypedRead | DpMsg::TypedWrite | DpMsg::TypedAtomic
        )
    }

    /// Whether this is an atomic.
    pub fn is_atomic(self) -> bool {
        matches!(self, DpMsg::TypedAtomic | DpMsg::UntypedAtomic)
    }

    /// Whether the message reads memory into a destination (reads and atomics).
    pub fn has_dest(self) -> bool {
        matches!(
            self,
            DpMsg::TypedRead
                | DpMsg::UntypedRead
                | DpMsg::ByteScatteredRead
                | DpMsg::DwordScatteredRead
        ) || self.is_atomic()
    }

    /// Whether the message writes data from a `data` operand (the writes).
    pub fn has_data(self) -> bool {
        matches!(
            self,
            DpMsg::TypedWrite
                | DpMsg::UntypedWrite
                | DpMsg::ByteScatteredWrite
                | DpMsg::DwordScatteredWrite
        )
    }
}

/// Why indices do not decode into a [`DpDesc`].
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DpDecodeError {
    /// The family takes `expected` indices, `found` were given.
    Count {
        /// The family.
        msg: DpMsg,
        /// Indices it takes.
        expected: usize,
        /// Indices given.
        found: usize,
    },
    /// A field's value does not decode.
    Value {
        /// The field.
        field: DpField,
        /// The encoded value.
        value: u32,
    },
}

impl fmt::Display for DpDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DpDecodeError::Count {
                msg,
                expected,
                found,
            } => write!(f, "@{msg} takes {expected} indices, found {found}"),
            DpDecodeError::Value { field, value } => {
                write!(f, "index `{field}` has an invalid value ({value})")
            }
        }
    }
}

impl std::error::Error for DpDecodeError {}

/// A data-port message: its family and fields. Fields a family does not carry keep the
/// values of [`DpDesc::new`] (`bti`, mask `x`, `add`, 32 bits, 4 bytes) and take no
/// part in its meaning.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DpDesc {
    /// The family.
    pub msg: DpMsg,
    /// Address model (untyped and scattered messages; typed ones are `bti`).
    pub addr: DpAddr,
    /// Enabled channels, bit 0 = X (typed and untyped surface messages), 1 to 0xF.
    pub cmask: u8,
    /// Atomic operation (atomics).
    pub op: DpAtomicOp,
    /// Bits of an atomic's memory operand: 16, 32 or 64.
    pub bits: u8,
    /// Bytes per lane of a byte scattered message: 1, 2, 4 or 8.
    pub bytes: u8,
}

impl DpDesc {
    /// A message of family `msg` with the neutral field values.
    pub fn new(msg: DpMsg) -> DpDesc {
        DpDesc {
            msg,
            addr: DpAddr::Bti,
            cmask: 1,
            op: DpAtomicOp::Add,
            bits: 32,
            bytes: 4,
        }
    }

    /// Typed surface read of the channels `cmask`.
    pub fn typed_read(cmask: u8) -> DpDesc {
        DpDesc {
            cmask,
            ..DpDesc::new(DpMsg::TypedRead)
        }
    }

    /// Typed surface write of the channels `cmask`.
    pub fn typed_write(cmask: u8) -> DpDesc {
        DpDesc {
            cmask,
            ..DpDesc::new(DpMsg::TypedWrite)
        }
    }

    /// Typed atomic `op` on a `bits`-bit texel (32, or 16 for R16 surfaces).
    pub fn typed_atomic(op: DpAtomicOp, bits: u8) -> DpDesc {
        DpDesc {
            op,
            bits,
            ..DpDesc::new(DpMsg::TypedAtomic)
        }
    }

    /// Untyped surface read of the dwords `cmask`.
    pub fn untyped_read(addr: DpAddr, cmask: u8) -> DpDesc {
        DpDesc {
            addr,
            cmask,
            ..DpDesc::new(DpMsg::UntypedRead)
        }
    }

    /// Untyped surface write of the dwords `cmask`.
    pub fn untyped_write(addr: DpAddr, cmask: u8) -> DpDesc {
        DpDesc {
            addr,
            cmask,
            ..DpDesc::new(DpMsg::UntypedWrite)
        }
    }

    /// Untyped atomic `op` on `bits`-bit memory.
    pub fn untyped_atomic(addr: DpAddr, op: DpAtomicOp, bits: u8) -> DpDesc {
        DpDesc {
            addr,
            op,
            bits,
            ..DpDesc::new(DpMsg::UntypedAtomic)
        }
    }

    /// Byte scattered read of `bytes` bytes per lane.
    pub fn byte_scattered_read(addr: DpAddr, bytes: u8) -> DpDesc {
        DpDesc {
            addr,
            bytes,
            ..DpDesc::new(DpMsg::ByteScatteredRead)
        }
    }

    /// Byte scattered write of `bytes` bytes per lane.
    pub fn byte_scattered_write(addr: DpAddr, bytes: u8) -> DpDesc {
        DpDesc {
            addr,
            bytes,
            ..DpDesc::new(DpMsg::ByteScatteredWrite)
        }
    }

    /// Dword scattered read.
    pub fn dword_scattered_read(addr: DpAddr) -> DpDesc {
        DpDesc {
            addr,
            ..DpDesc::new(DpMsg::DwordScatteredRead)
        }
    }

    /// Dword scattered write.
    pub fn dword_scattered_write(addr: DpAddr) -> DpDesc {
        DpDesc {
            addr,
            ..DpDesc::new(DpMsg::DwordScatteredWrite)
        }
    }

    /// The encoded value of `field`.
    pub fn field(&self, field: DpField) -> u32 {
        match field {
            DpField::Addr => position(&DpAddr::ALL, self.addr),
            DpField::Cmask => u32::from(self.cmask),
            DpField::Op => position(&DpAtomicOp::ALL, self.op),
            DpField::Bits => u32::from(self.bits),
            DpField::Bytes => u32::from(self.bytes),
        }
    }

    /// The indices of the message's intrinsic, in [`DpMsg::fields`] order.
    pub fn to_indices(&self) -> Vec<u32> {
        self.msg.fields().iter().map(|f| self.field(*f)).collect()
    }

    /// The message of family `msg` whose intrinsic has the indices `indices`.
    pub fn from_indices(msg: DpMsg, indices: &[u32]) -> Result<DpDesc, DpDecodeError> {
        let fields = msg.fields();
        if indices.len() != fields.len() {
            return Err(DpDecodeError::Count {
                msg,
                expected: fields.len(),
                found: indices.len(),
            });
        }
        let mut d = DpDesc::new(msg);
        for (&field, &value) in fields.iter().zip(indices) {
            let bad = DpDecodeError::Value { field, value };
            match field {
                DpField::Addr => d.addr = *DpAddr::ALL.get(value as usize).ok_or(bad)?,
                DpField::Cmask => {
                    if !(1..=0xf).contains(&value) {
                        return Err(bad);
                    }
                    d.cmask = value as u8;
                }
                DpField::Op => d.op = *DpAtomicOp::ALL.get(value as usize).ok_or(bad)?,
                DpField::Bits => {
                    if !matches!(value, 16 | 32 | 64) {
                        return Err(bad);
                    }
                    d.bits = value as u8;
                }
                DpField::Bytes => {
                    if !matches!(value, 1 | 2 | 4 | 8) {
                        return Err(bad);
                    }
                    d.bytes = value as u8;
                }
            }
        }
        Ok(d)
    }

    /// Whether the message names an image: typed messages and `bti` addresses (the
    /// image's binding-table entry is the surface).
    pub fn names_image(&self) -> bool {
        self.msg.is_typed() || self.addr == DpAddr::Bti
    }

    /// Bits of the address operand of untyped and scattered messages.
    pub fn addr_bits(&self) -> u8 {
        self.addr.bits()
    }

    /// The number of atomic data operands (0 for other messages).
    pub fn num_atomic_srcs(&self) -> usize {
        if self.msg.is_atomic() {
            self.op.num_srcs()
        } else {
            0
        }
    }

    /// Channels per lane of the register data (the enabled channels of surface
    /// messages, 1 otherwise).
    pub fn components(&self) -> u8 {
        match self.msg {
            DpMsg::TypedRead | DpMsg::TypedWrite | DpMsg::UntypedRead | DpMsg::UntypedWrite => {
                self.cmask.count_ones() as u8
            }
            _ => 1,
        }
    }

    /// Bit size of each register element of the data (the destination of reads and
    /// atomics, the `data` and atomic operands): 32, except 64-bit atomics and 8-byte
    /// scattered messages. 16-bit atomics use 32-bit elements of which the low 16 bits
    /// count, as the hardware's unpacked payload does.
    pub fn data_bits(&self) -> u8 {
        match self.msg {
            DpMsg::TypedAtomic | DpMsg::UntypedAtomic if self.bits == 64 => 64,
            DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite if self.bytes == 8 => 64,
            _ => 32,
        }
    }

    /// Bytes of memory one lane's access covers at its address; 0 for typed messages,
    /// whose texel size the surface format gives.
    pub fn access_bytes(&self) -> u32 {
        match self.msg {
            DpMsg::TypedRead | DpMsg::TypedWrite | DpMsg::TypedAtomic => 0,
            // Dwords 0 up to the last enabled channel.
            DpMsg::UntypedRead | DpMsg::UntypedWrite => 4 * (8 - self.cmask.leading_zeros()),
            DpMsg::UntypedAtomic => u32::from(self.bits) / 8,
            DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite => u32::from(self.bytes),
            DpMsg::DwordScatteredRead | DpMsg::DwordScatteredWrite => 4,
        }
    }
}

fn position<T: PartialEq + Copy>(all: &[T], v: T) -> u32 {
    all.iter().position(|x| *x == v).unwrap_or(0) as u32
}

/// The letters of a channel mask, `xyzw` order (`xz` for 0b0101).
pub fn cmask_letters(cmask: u8) -> String {
    channel_mask_letters(u32::from(cmask), "xyzw")
}

/// Parses a channel mask written as [`cmask_letters`] writes it.
pub fn parse_cmask(s: &str) -> Option<u8> {
    parse_channel_mask(s, "xyzw").map(|m| m as u8)
}

/// Formats the encoded value `v` of `field` as the text syntax writes it; `None` if it
/// does not decode.
pub fn format_field(field: DpField, v: u32) -> Option<String> {
    Some(match field {
        DpField::Addr => DpAddr::ALL.get(v as usize)?.name().to_string(),
        DpField::Cmask => {
            if !(1..=0xf).contains(&v) {
                return None;
            }
            cmask_letters(v as u8)
        }
        DpField::Op => DpAtomicOp::ALL.get(v as usize)?.name().to_string(),
        DpField::Bits => matches!(v, 16 | 32 | 64).then(|| v.to_string())?,
        DpField::Bytes => matches!(v, 1 | 2 | 4 | 8).then(|| v.to_string())?,
    })
}

/// Parses the text of `field` into its encoded value.
pub fn parse_field(field: DpField, s: &str) -> Option<u32> {
    match field {
        DpField::Addr => DpAddr::from_name(s).map(|a| position(&DpAddr::ALL, a)),
        DpField::Cmask => parse_cmask(s).map(u32::from),
        DpField::Op => DpAtomicOp::from_name(s).map(|o| position(&DpAtomicOp::ALL, o)),
        DpField::Bits | DpField::Bytes => {
            let v: u32 = s.parse().ok()?;
            // The canonical decimal spelling only (`32`, not `032`).
            (v.to_string() == s && format_field(field, v).is_some()).then_some(v)
        }
    }
}

/// What a value of `field` looks like, for error messages.
pub fn field_expectation(field: DpField) -> String {
    let list = |names: Vec<&str>| format!("one of {}", names.join(", "));
    match field {
        DpField::Addr => list(DpAddr::ALL.iter().map(|a| a.name()).collect()),
        DpField::Cmask => "channels from `xyzw` in order, such as xyzw or xz".into(),
        DpField::Op => list(DpAtomicOp::ALL.iter().map(|o| o.name()).collect()),
        DpField::Bits => "one of 16, 32, 64".into(),
        DpField::Bytes => "one of 1, 2, 4, 8".into(),
    }
}

impl fmt::Display for DpDesc {
    /// `@dp_untyped_read (dp_addr=a64, dp_cmask=xy)`: the intrinsic and its indices.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{} (", self.msg)?;
        for (i, field) in self.msg.fields().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let v = format_field(*field, self.field(*field)).unwrap_or_default();
            write!(f, "{field}={v}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_descs() -> Vec<DpDesc> {
        let mut out = Vec::new();
        for msg in DpMsg::ALL {
            for addr in DpAddr::ALL {
                for cmask in 1..=0xf {
                    for op in DpAtomicOp::ALL {
                        for bits in [16, 32, 64] {
                            for bytes in [1, 2, 4, 8] {
                                let mut d = DpDesc::new(msg);
                                for f in msg.fields() {
                                    match f {
                                        DpField::Addr => d.addr = addr,
                                        DpField::Cmask => d.cmask = cmask,
                                        DpField::Op => d.op = op,
                                        DpField::Bits => d.bits = bits,
                                        DpField::Bytes => d.bytes = bytes,
                                    }
                                }
                                out.push(d);
                            }
                        }
                    }
                }
            }
        }
        out.sort_by_key(|d| format!("{d:?}"));
        out.dedup();
        out
    }

    #[test]
    fn indices_round_trip() {
        let all = all_descs();
        // Typed read/write: 15 masks each; typed atomic: 16 ops x 3 widths; untyped
        // read/write: 3 models x 15 masks each; untyped atomic: 3 x 16 x 3; byte
        // scattered: 2 x 3 models x 4 sizes; dword scattered: 2 x 3 models.
        assert_eq!(all.len(), 30 + 48 + 90 + 144 + 24 + 6);
        for d in all {
            let idx = d.to_indices();
            assert_eq!(idx.len(), d.msg.fields().len());
            assert_eq!(DpDesc::from_indices(d.msg, &idx), Ok(d), "{d}");
            for (f, v) in d.msg.fields().iter().zip(&idx) {
                let text = format_field(*f, *v).unwrap();
                assert_eq!(parse_field(*f, &text), Some(*v), "{f}={text}");
            }
        }
    }

    #[test]
    fn bad_indices_are_named() {
        assert_eq!(
            DpDesc::from_indices(DpMsg::TypedRead, &[0]),
            Err(DpDecodeError::Value {
                field: DpField::Cmask,
                value: 0
            })
        );
        assert_eq!(
            DpDesc::from_indices(DpMsg::UntypedAtomic, &[0, 0, 48]),
            Err(DpDecodeError::Value {
                field: DpField::Bits,
                value: 48
            })
        );
        assert_eq!(
            DpDesc::from_indices(DpMsg::DwordScatteredRead, &[]),
            Err(DpDecodeError::Count {
                msg: DpMsg::DwordScatteredRead,
                expected: 1,
                found: 0
            })
        );
        for (f, s) in [
            (DpField::Addr, "flat"),
            (DpField::Cmask, "zx"),
            (DpField::Cmask, ""),
            (DpField::Op, "iadd"),
            (DpField::Bits, "8"),
            (DpField::Bits, "032"),
            (DpField::Bytes, "3"),
        ] {
            assert_eq!(parse_field(f, s), None, "{f}={s}");
        }
    }

    #[test]
    fn shapes() {
        let d = DpDesc::untyped_read(DpAddr::A64, 0b0101);
        assert_eq!(d.to_string(), "@dp_untyped_read (dp_addr=a64, dp_cmask=xz)");
        assert_eq!((d.components(), d.data_bits(), d.addr_bits()), (2, 32, 64));
        // The access covers dwords 0 to 2 (the last enabled one is z).
        assert_eq!(d.access_bytes(), 12);
        assert_eq!(
            DpDesc::untyped_write(DpAddr::Bti, 0b1000).access_bytes(),
            16
        );
        assert_eq!(DpDesc::untyped_write(DpAddr::Bti, 0b0001).access_bytes(), 4);
        let a = DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Cmpwr, 64);
        assert_eq!(
            (a.num_atomic_srcs(), a.data_bits(), a.access_bytes()),
            (2, 64, 8)
        );
        let h = DpDesc::typed_atomic(DpAtomicOp::Inc, 16);
        assert_eq!((h.num_atomic_srcs(), h.data_bits()), (0, 32));
        assert!(h.names_image());
        assert!(!DpDesc::byte_scattered_read(DpAddr::Slm, 2).names_image());
        assert_eq!(DpDesc::byte_scattered_read(DpAddr::A64, 8).data_bits(), 64);
        assert_eq!(DpDesc::typed_read(0xf).components(), 4);
    }

    #[test]
    fn atomic_op_codes_are_mesas() {
        // brw_eu_defines.h: BRW_AOP_AND 1 ... BRW_AOP_CMPWR 14 (REVSUB 9 and PREDEC 15
        // are not modelled); BRW_AOP_FMAX 1, FMIN 2, FCMPWR 3.
        let int: Vec<(u32, &str)> = DpAtomicOp::ALL
            .iter()
            .filter(|o| !o.is_float())
            .map(|o| (o.aop(), o.name()))
            .collect();
        assert_eq!(
            int,
            [
                (1, "and"),
                (2, "or"),
                (3, "xor"),
                (4, "mov"),
                (5, "inc"),
                (6, "dec"),
                (7, "add"),
                (8, "sub"),
                (10, "imax"),
                (11, "imin"),
                (12, "umax"),
                (13, "umin"),
                (14, "cmpwr"),
            ]
        );
        assert_eq!(DpAtomicOp::Fcmpwr.aop(), 3);
        assert_eq!(DpAtomicOp::Fcmpwr.num_srcs(), 2);
    }
}
