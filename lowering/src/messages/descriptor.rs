//! The hardware send descriptor of an LSC message.

use super::legality::{cache_encoding, check_lsc};
use super::lsc::LscMessage;
use super::rule::MessageRule;
use crate::device::{CacheControlField, Device};
use ir::lsc::{AddrSize, AddrType, DataShape, DataSize};

/// The hardware send descriptor of an LSC message (docs/hardware/lsc-messages.md §11; Mesa's `lsc_msg_desc`
/// plus the register lengths of `brw_message_desc`):
///
/// | bits | field |
/// | --- | --- |
/// | 5:0 | opcode |
/// | 8:7 | address size (1 a16, 2 a32, 3 a64) |
/// | 11:9 | data size (0 d8 ... 6 d16u32h) |
/// | 14:12 | vector size code, or 15:12 channel mask for quad ops |
/// | 15 | transpose |
/// | 19:17 / 19:16 | cache control, before / from Xe2 |
/// | 24:20 | destination length (0 without a destination) |
/// | 28:25 | src0 (address) length |
/// | 30:29 | address type (0 flat, 1 bss, 2 ss, 3 bti) |
///
/// `has_dest` says whether the message writes back (loads and atomics with a
/// destination), `typed_coords` how many typed coordinates are sent (1 to 4; ignored for
/// untyped messages). The message must pass [`check_lsc`].
pub fn message_descriptor(
    p: &Device,
    m: &LscMessage,
    has_dest: bool,
    typed_coords: u32,
) -> Result<u32, MessageRule> {
    if !p.has_lsc {
        return Err(MessageRule::NoLsc {
            platform: p.name.clone(),
            verx10: p.verx10(),
        });
    }
    check_lsc(p, m)?;
    let cache = cache_encoding(p, m.op.class(), m.cache).expect("checked by check_lsc");
    let addr_size = match m.addr_size {
        AddrSize::A16 => 1,
        AddrSize::A32 => 2,
        AddrSize::A64 => 3,
    };
    let data_size = match m.data.size {
        DataSize::D8 => 0,
        DataSize::D16 => 1,
        DataSize::D32 => 2,
        DataSize::D64 => 3,
        DataSize::D8U32 => 4,
        DataSize::D16U32 => 5,
        DataSize::D16U32H => 6,
    };
    let addr_type = match m.addr_type {
        AddrType::Flat => 0,
        AddrType::Bss => 1,
        AddrType::Ss => 2,
        AddrType::Bti => 3,
    };
    let shape = if m.op.is_quad() {
        u32::from(m.data.cmask) & 0xf
    } else {
        DataShape::VECT_SIZES
            .iter()
            .position(|v| *v == m.data.vect)
            .expect("legal vector size") as u32
    };
    let dst_len = if has_dest { m.data_grfs(p) } else { 0 };
    let src0_len = m.addr_grfs(p, typed_coords.clamp(1, 4));
    let mut desc = m.op.opcode()
        | addr_size << 7
        | data_size << 9
        | shape << 12
        | u32::from(m.data.transpose) << 15
        | dst_len << 20
        | src0_len << 25
        | addr_type << 29;
    desc |= if p.cache_control == CacheControlField::Bits4 {
        cache << 16
    } else {
        cache << 17
    };
    Ok(desc)
}
