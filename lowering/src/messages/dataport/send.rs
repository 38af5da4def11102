//! The send instruction of a legacy data-port message: its shared function (SFID), its
//! message descriptor and extended descriptor, and its payload lengths.
//!
//! The descriptor is Mesa's layout (`brw_eu.h`: `brw_message_desc` puts the message
//! length in \[28:25\], the response length in \[24:20\] and the header bit in \[19\];
//! `brw_dp_desc` the message type in \[18:14\], the message control in \[13:8\] and
//! the binding-table index in \[7:0\]), and each message's type and control field
//! follow Mesa's encoders (`brw_dp_typed_surface_rw_desc`, `brw_dp_untyped_atomic_desc`,
//! `brw_dp_a64_byte_scattered_rw_desc`, ... and their `elk_` versions for Gfx7).
//!
//! Gfx8 to Gfx12 kernels are finalized by IGC, whose vISA finalizer
//! (`visa/VisaToG4/TranslateSendLdStLegacy.cpp`) chooses some fields differently from
//! Mesa; there the descriptor is IGC's, so that it equals what `GenX_IR` emits for the
//! project's vISA (`docs/hardware/dataport.md` lists each difference):
//!
//! - A64 messages use binding-table index 255 (IGC's `getA64BTI`), Mesa 253;
//! - typed read/write/atomic select the low slot group always (IGC's `MDC_SG3_SG8L`),
//!   Mesa the group of the lanes;
//! - on Broadwell a header is sent with typed reads and writes and with byte scattered
//!   messages on surfaces, not with typed atomics (IGC); Mesa sends one with every
//!   typed message before Gfx9 and with none of the others.
//!
//! Gfx7 and Gfx7.5 have no IGC target and follow Mesa's `elk` encoders throughout.
//!
//! Payload layout: the address (the typed coordinates, or one address per lane) is one
//! part and the data (written channels, atomic operands) another. From Gfx9 the two go
//! as a split send (`sends`, or `send` with two sources on Gfx12): the message length
//! counts the header and address, the extended descriptor's \[9:6\] the data. Before
//! Gfx9, and for dword scattered writes (which IGC always builds as one payload), the
//! message length counts everything.

use super::caps::{DataportCaps, DpEncoding};
use super::legality::{check_dataport, check_simd};
use super::rule::DataportRule;
use ir::dataport::{DpAddr, DpDesc, DpMsg};
use std::fmt;

/// The shared function a data-port message goes to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum DpSfid {
    /// The render cache data port (Mesa `GFX6_SFID_DATAPORT_RENDER_CACHE`, 5): typed
    /// surface messages on Ivy Bridge.
    RenderCache,
    /// Data cache 0 (`GFX7_SFID_DATAPORT_DATA_CACHE`, 10; IGC `dc0`): byte and dword
    /// scattered messages, and untyped messages on Ivy Bridge.
    DataCache0,
    /// Data cache 1 (`HSW_SFID_DATAPORT_DATA_CACHE_1`, 12; IGC `dc1`): typed, untyped
    /// and A64 messages from Haswell.
    DataCache1,
}

impl DpSfid {
    /// The hardware SFID number.
    pub fn code(self) -> u32 {
        match self {
            DpSfid::RenderCache => 5,
            DpSfid::DataCache0 => 10,
            DpSfid::DataCache1 => 12,
        }
    }

    /// IGC's assembly name (`send.dc1`).
    pub fn name(self) -> &'static str {
        match self {
            DpSfid::RenderCache => "rc",
            DpSfid::DataCache0 => "dc0",
            DpSfid::DataCache1 => "dc1",
        }
    }
}

impl fmt::Display for DpSfid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How one message is sent: what the descriptor depends on besides the message's
/// fields.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SendShape {
    /// SIMD width of the send (8 or 16, as [`super::simd_widths`] allows).
    pub exec_size: u32,
    /// First lane of the send within the kernel's lanes (0, 8, 16, 24): the slot group
    /// of typed messages on Gfx7 and Gfx7.5.
    pub group: u32,
    /// Typed coordinates sent (1 to 4: U, then V, R, LOD as far as the last one used);
    /// ignored for untyped messages.
    pub coords: u32,
    /// The binding-table index of the surface (`dp_addr=bti` and typed messages);
    /// ignored otherwise.
    pub bti: u64,
    /// Whether an atomic returns the old value (ignored for other messages, whose
    /// reads always return and writes never do).
    pub returns: bool,
}

impl SendShape {
    /// A SIMD`exec_size` send of lanes from 0, four typed coordinates, surface 0 and a
    /// returned value.
    pub fn new(exec_size: u32) -> SendShape {
        SendShape {
            exec_size,
            group: 0,
            coords: 4,
            bti: 0,
            returns: true,
        }
    }
}

/// The send instruction of a message.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LegacySend {
    /// The shared function.
    pub sfid: DpSfid,
    /// The message descriptor (`desc`).
    pub desc: u32,
    /// The extended descriptor (`ex_desc`): the data part's length in \[9:6\] for split
    /// sends, and the SFID in \[3:0\] before Gfx12.
    pub ex_desc: u32,
    /// Registers of the first payload part (header and address; everything when not
    /// split).
    pub mlen: u32,
    /// Registers of the second payload part (0 when not split).
    pub ex_mlen: u32,
    /// Registers written back.
    pub rlen: u32,
    /// Whether the first payload register is a message header.
    pub header: bool,
}

/// Registers of `elems` 32-bit elements per lane at `exec_size` lanes (32-byte GRFs).
fn regs(exec_size: u32, elems: u32) -> u32 {
    (exec_size * 4 * elems).div_ceil(32)
}

/// The send of data-port message `d` on a generation with `caps` (`platform` names it
/// in errors), for the lanes and surface of `shape`. Fails when the table does not
/// allow the message at that width ([`check_dataport`], [`check_simd`]).
pub fn legacy_send(
    caps: &DataportCaps,
    platform: &str,
    d: &DpDesc,
    shape: &SendShape,
) -> Result<LegacySend, DataportRule> {
    check_dataport(caps, platform, d)?;
    check_simd(caps, platform, d, shape.exec_size)?;
    let exec = shape.exec_size;
    let enc = caps.encoding;
    let old_gen = matches!(enc, DpEncoding::Ivb | DpEncoding::Hsw);
    let typed = d.msg.is_typed();
    if typed && !(1..=4).contains(&shape.coords) {
        return Err(DataportRule::TypedCoords {
            coords: shape.coords,
        });
    }
    let bti = match (typed, d.addr) {
        (false, DpAddr::Slm) => 254,
        (false, DpAddr::A64) => 255,
        _ => {
            if shape.bti > 251 {
                return Err(DataportRule::Bti { bti: shape.bti });
            }
            shape.bti as u32
        }
    };
    let cmask_hw = u32::from(!d.cmask & 0xf);
    // MDC_SM3 (untyped surface messages): 2 for SIMD8, 1 for SIMD16.
    let sm3 = if exec == 8 { 2 } else { 1 };
    let simd16 = u32::from(exec == 16);
    let half = (shape.group / 8) % 2;
    let returns = d.msg.has_dest() && (!d.msg.is_atomic() || shape.returns);
    let ret = u32::from(returns);
    let aop = d.op.aop();
    let elem_regs = regs(exec, u32::from(d.data_bits()) / 32);
    let (sfid, msg_type, control) = match d.msg {
        DpMsg::TypedRead | DpMsg::TypedWrite => {
            let write = d.msg == DpMsg::TypedWrite;
            let (sfid, ty) = match (enc, write) {
                (DpEncoding::Ivb, false) => (DpSfid::RenderCache, 5),
                (DpEncoding::Ivb, true) => (DpSfid::RenderCache, 13),
                (_, false) => (DpSfid::DataCache1, 5),
                (_, true) => (DpSfid::DataCache1, 13),
            };
            let group = match enc {
                DpEncoding::Ivb => half << 1,
                DpEncoding::Hsw => 1 + half,
                _ => 1,
            };
            (sfid, ty, cmask_hw | group << 4)
        }
        DpMsg::TypedAtomic => {
            let sfid = if enc == DpEncoding::Ivb {
                DpSfid::RenderCache
            } else {
                DpSfid::DataCache1
            };
            let ty = if d.bits == 16 { 7 } else { 6 };
            let high = if old_gen { half } else { 0 };
            (sfid, ty, aop | high << 4 | ret << 5)
        }
        DpMsg::UntypedRead | DpMsg::UntypedWrite => {
            let write = d.msg == DpMsg::UntypedWrite;
            let (sfid, ty) = match (d.addr, enc, write) {
                (DpAddr::A64, _, false) => (DpSfid::DataCache1, 0x11),
                (DpAddr::A64, _, true) => (DpSfid::DataCache1, 0x19),
                (_, DpEncoding::Ivb, false) => (DpSfid::DataCache0, 5),
                (_, DpEncoding::Ivb, true) => (DpSfid::DataCache0, 13),
                (_, _, false) => (DpSfid::DataCache1, 1),
                (_, _, true) => (DpSfid::DataCache1, 9),
            };
            (sfid, ty, cmask_hw | sm3 << 4)
        }
        DpMsg::UntypedAtomic if d.addr == DpAddr::A64 => {
            let (ty, wide) = match (d.op.is_float(), d.bits) {
                (false, 16) => (0x13, 0),
                (false, 64) => (0x12, 1),
                (false, _) => (0x12, 0),
                (true, 16) => (0x1e, 0),
                (true, _) => (0x1d, 0),
            };
            (DpSfid::DataCache1, ty, aop | wide << 4 | ret << 5)
        }
        DpMsg::UntypedAtomic => {
            let simd8 = u32::from(exec == 8);
            let (sfid, ty) = match (d.op.is_float(), enc) {
                (true, _) => (DpSfid::DataCache1, 0x1b),
                (false, DpEncoding::Ivb) => (DpSfid::DataCache0, 6),
                // Gfx12's half-integer untyped atomic (IGC
                // `DC1_UNTYPED_HALF_INTEGER_ATOMIC`).
                (false, _) if d.bits == 16 => (DpSfid::DataCache1, 3),
                (false, _) => (DpSfid::DataCache1, 2),
            };
            (sfid, ty, aop | simd8 << 4 | ret << 5)
        }
        DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite => {
            let write = d.msg == DpMsg::ByteScatteredWrite;
            // MDC_DS / MDC_A64_DS: the log2 of the bytes per lane.
            let ds = u32::from(d.bytes).trailing_zeros();
            if d.addr == DpAddr::A64 {
                let ty = if write { 0x1a } else { 0x10 };
                (DpSfid::DataCache1, ty, ds << 2 | simd16 << 4)
            } else {
                let ty = if write { 12 } else { 4 };
                (DpSfid::DataCache0, ty, simd16 | ds << 2)
            }
        }
        DpMsg::DwordScatteredRead | DpMsg::DwordScatteredWrite => {
            let ty = if d.msg == DpMsg::DwordScatteredWrite {
                11
            } else {
                3
            };
            // Bit 1: the legacy SIMD mode; bit 0: SIMD16.
            (DpSfid::DataCache0, ty, 2 | simd16)
        }
    };
    let header = match enc {
        DpEncoding::Ivb | DpEncoding::Hsw => typed,
        DpEncoding::Bdw => {
            matches!(d.msg, DpMsg::TypedRead | DpMsg::TypedWrite)
                || (matches!(d.msg, DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite)
                    && d.addr == DpAddr::Bti)
        }
        DpEncoding::Skl | DpEncoding::Tgl => false,
    };
    let addr_regs = if typed {
        shape.coords * regs(exec, 1)
    } else {
        regs(exec, u32::from(d.addr_bits()) / 32)
    };
    let data_regs = if d.msg.has_data() {
        u32::from(d.components()) * elem_regs
    } else {
        d.num_atomic_srcs() as u32 * elem_regs
    };
    let rlen = if !returns {
        0
    } else if d.msg.is_atomic() {
        elem_regs
    } else {
        u32::from(d.components()) * elem_regs
    };
    let one_payload = d.msg == DpMsg::DwordScatteredWrite;
    let split = caps.split_send && data_regs > 0 && !one_payload;
    let (mlen, ex_mlen) = if split {
        (u32::from(header) + addr_regs, data_regs)
    } else {
        (u32::from(header) + addr_regs + data_regs, 0)
    };
    let desc =
        mlen << 25 | rlen << 20 | u32::from(header) << 19 | msg_type << 14 | control << 8 | bti;
    let sfid_bits = if caps.sfid_in_opcode() {
        0
    } else {
        sfid.code()
    };
    let ex_desc = ex_mlen << 6 | sfid_bits;
    Ok(LegacySend {
        sfid,
        desc,
        ex_desc,
        mlen,
        ex_mlen,
        rlen,
        header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::dataport::DpAtomicOp;
    use tiling::Gen;

    fn send(g: Gen, d: DpDesc, shape: SendShape) -> LegacySend {
        legacy_send(&DataportCaps::for_gen(g).unwrap(), "p", &d, &shape).unwrap()
    }

    fn at(exec: u32, coords: u32, bti: u64) -> SendShape {
        SendShape {
            coords,
            bti,
            ..SendShape::new(exec)
        }
    }

    // Values computed by hand from Mesa's encoders (brw_eu.h/elk_eu.h, message types
    // and SFIDs of brw_eu_defines.h); the Gfx8+ ones were also seen in the `.asm` of
    // IGC's GenX_IR 1.0.12504 (the lowering's GenX_IR tests recompute them all).

    #[test]
    fn ivy_bridge_follows_elk() {
        // Typed write of xy, SIMD8, lanes 8-15, 2 coordinates, surface 3: render
        // cache (5), GFX7_DATAPORT_RC_TYPED_SURFACE_WRITE 13, control = mask of the
        // disabled channels 0xC | slot group 1 << 5; header + 2 coords + 2 data.
        let s = send(
            Gen::Gfx7,
            DpDesc::typed_write(0b0011),
            SendShape {
                group: 8,
                ..at(8, 2, 3)
            },
        );
        assert_eq!(s.sfid, DpSfid::RenderCache);
        assert_eq!(s.desc, 5 << 25 | 1 << 19 | 13 << 14 | 0x2c << 8 | 3);
        assert_eq!(s.ex_desc, 5);
        // Untyped atomic add on SLM, SIMD16, returning: data cache 0 (10), type 6,
        // control 7 | SIMD16 (bit 4 clear) | return << 5; address 2 + data 2.
        let s = send(
            Gen::Gfx7,
            DpDesc::untyped_atomic(DpAddr::Slm, DpAtomicOp::Add, 32),
            SendShape::new(16),
        );
        assert_eq!(s.desc, 4 << 25 | 2 << 20 | 6 << 14 | 0x27 << 8 | 254);
        assert_eq!(s.ex_desc, 10);
    }

    #[test]
    fn haswell_slot_groups() {
        // HSW typed read of xyzw, lanes 8-15: DC1, type 5, slot group 2 in [13:12].
        let s = send(
            Gen::Gfx75,
            DpDesc::typed_read(0xf),
            SendShape {
                group: 8,
                ..at(8, 3, 7)
            },
        );
        assert_eq!(
            s.desc,
            4 << 25 | 4 << 20 | 1 << 19 | 5 << 14 | 0x20 << 8 | 7
        );
        assert_eq!(s.ex_desc, 12);
        // Byte scattered read of 2 bytes, SIMD16, no header on Haswell.
        let s = send(
            Gen::Gfx75,
            DpDesc::byte_scattered_read(DpAddr::Bti, 2),
            at(16, 0, 1),
        );
        assert_eq!(s.desc, 2 << 25 | 2 << 20 | 4 << 14 | 0x05 << 8 | 1);
    }

    #[test]
    fn igc_descriptors() {
        // BDW typed read xyzw, U and V, surface 3: 0x06495003 with its header.
        let s = send(Gen::Gfx8, DpDesc::typed_read(0xf), at(8, 2, 3));
        assert_eq!((s.desc, s.ex_desc), (0x0649_5003, 0xc));
        // BDW typed atomic add, no header: 0x0611A703 (U, V, src0).
        let s = send(
            Gen::Gfx8,
            DpDesc::typed_atomic(DpAtomicOp::Add, 32),
            at(8, 2, 3),
        );
        assert_eq!(s.desc, 0x0611_a703);
        // BDW byte gather 8 bits SIMD16 on a surface: header, 0x06290103.
        let s = send(
            Gen::Gfx8,
            DpDesc::byte_scattered_read(DpAddr::Bti, 1),
            at(16, 0, 3),
        );
        assert_eq!(s.desc, 0x0629_0103);
        // SKL untyped write xy SIMD16: sends 0x04025C03, ex_desc 0x10C.
        let s = send(
            Gen::Gfx9,
            DpDesc::untyped_write(DpAddr::Bti, 0b0011),
            at(16, 0, 3),
        );
        assert_eq!((s.desc, s.ex_desc, s.ex_mlen), (0x0402_5c03, 0x10c, 4));
        // SKL float max SIMD16: 0x0426E103, ex 0x8C.
        let s = send(
            Gen::Gfx9,
            DpDesc::untyped_atomic(DpAddr::Bti, DpAtomicOp::Fmax, 32),
            at(16, 0, 3),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0426_e103, 0x8c));
        // A64 int64 compare-and-swap SIMD8: 0x0424BEFF, two 2-register operands.
        let s = send(
            Gen::Gfx9,
            DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Cmpwr, 64),
            SendShape::new(8),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0424_beff, 0x10c));
        // TGL: the SFID leaves the extended descriptor.
        let s = send(
            Gen::Gfx12,
            DpDesc::typed_atomic(DpAtomicOp::Add, 16),
            at(8, 1, 3),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0211_e703, 0x40));
        let s = send(
            Gen::Gfx12,
            DpDesc::untyped_read(DpAddr::Slm, 1),
            SendShape::new(16),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0420_5efe, 0));
        // TGL 16-bit untyped umax on SLM, SIMD8: 0x0210FCFE (type 3).
        let s = send(
            Gen::Gfx12,
            DpDesc::untyped_atomic(DpAddr::Slm, DpAtomicOp::Umax, 16),
            SendShape::new(8),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0210_fcfe, 0x40));
        // Dword scattered writes are one payload even with split sends.
        let s = send(
            Gen::Gfx12,
            DpDesc::dword_scattered_write(DpAddr::Bti),
            at(16, 0, 3),
        );
        assert_eq!((s.desc, s.ex_desc), (0x0802_c303, 0));
        // A64 8-byte gather SIMD8 on ICL: 0x04240CFF.
        let s = send(
            Gen::Gfx11,
            DpDesc::byte_scattered_read(DpAddr::A64, 8),
            SendShape::new(8),
        );
        assert_eq!(s.desc, 0x0424_0cff);
        // No return: typed atomic add on TGL, U only: 0x02018703, one data register.
        let s = send(
            Gen::Gfx12,
            DpDesc::typed_atomic(DpAtomicOp::Add, 32),
            SendShape {
                returns: false,
                ..at(8, 1, 3)
            },
        );
        assert_eq!((s.desc, s.ex_desc, s.rlen), (0x0201_8703, 0x40, 0));
    }

    #[test]
    fn errors() {
        let c = DataportCaps::for_gen(Gen::Gfx9).unwrap();
        let d = DpDesc::typed_read(1);
        let e = legacy_send(&c, "skl", &d, &at(8, 5, 0)).unwrap_err();
        assert_eq!(e, DataportRule::TypedCoords { coords: 5 });
        let e = legacy_send(&c, "skl", &d, &at(8, 1, 254)).unwrap_err();
        assert_eq!(e, DataportRule::Bti { bti: 254 });
        let e = legacy_send(&c, "skl", &d, &at(16, 1, 0)).unwrap_err();
        assert!(matches!(e, DataportRule::SimdWidth { exec_size: 16, .. }));
    }
}
