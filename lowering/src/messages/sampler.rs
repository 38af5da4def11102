//! Sampler messages (`@sampler_ld`, `@sampler_ld_lz`, `@sampler_resinfo`,
//! `@sampler_sample_l`): decoding, operands and the send descriptor.

use super::operands::expect_type;
use super::rule::MessageRule;
use crate::device::Device;
use ir::{Function, IndexKind, Inst, IntrinsicOp, Src, Type};

/// The sampler operation of a sampler message.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SamplerOp {
    /// `ld` (vISA `load_3d`): u, v, lod, r.
    Ld,
    /// `ld_lz` (vISA `load_lz`): u, v, r at LOD 0.
    LdLz,
    /// `resinfo` (vISA `info_3d`, `resinfo`): the view's size at `lod` and its level
    /// count.
    Resinfo,
    /// `sample_l` (vISA `sample_l`, IGC's `3D_SAMPLE.md`): lod, u, v, r, filtered with
    /// the sampler state the message names.
    SampleL,
    /// `gather4` (vISA `sample4`, IGC's `3D_SAMPLE4.md`): u, v, r; one channel of the
    /// four texels a bilinear filter reads, wrapped by the sampler state's address
    /// modes.
    Gather4,
    /// `ld_mcs` (vISA `load_mcs`, `3D_LOAD.md`): u, v, r; the multisample control
    /// surface's value of the texel, low and high dwords in R and G.
    LdMcs,
    /// `ld2dms_w` (vISA `load_2dms_w`, `3D_LOAD.md`): si, mcsl, mcsh, u, v, r; sample
    /// `si` of a multisampled surface's texel, through its `ld_mcs` value.
    Ld2dmsW,
}

impl SamplerOp {
    /// The parameters in vISA order.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            SamplerOp::Ld => &["u", "v", "lod", "r"],
            SamplerOp::LdLz => &["u", "v", "r"],
            SamplerOp::Resinfo => &["lod"],
            SamplerOp::SampleL => &["lod", "u", "v", "r"],
            SamplerOp::Gather4 => &["u", "v", "r"],
            SamplerOp::LdMcs => &["u", "v", "r"],
            SamplerOp::Ld2dmsW => &["si", "mcsl", "mcsh", "u", "v", "r"],
        }
    }

    /// The sampler message type of the send descriptor (bits 16:12; Mesa's
    /// `GFX5_SAMPLER_MESSAGE_SAMPLE_LD` 7, `GFX9_SAMPLER_MESSAGE_SAMPLE_LD_LZ` 26,
    /// `GFX5_SAMPLER_MESSAGE_SAMPLE_RESINFO` 10, `GFX5_SAMPLER_MESSAGE_SAMPLE_LOD` 2 and
    /// `GFX7_SAMPLER_MESSAGE_SAMPLE_GATHER4` 8, `GFX9_SAMPLER_MESSAGE_SAMPLE_LD2DMS_W` 28
    /// and `GFX7_SAMPLER_MESSAGE_SAMPLE_LD_MCS` 29).
    pub fn message_type(self) -> u32 {
        match self {
            SamplerOp::Ld => 7,
            SamplerOp::LdLz => 26,
            SamplerOp::Resinfo => 10,
            SamplerOp::SampleL => 2,
            SamplerOp::Gather4 => 8,
            SamplerOp::Ld2dmsW => 28,
            SamplerOp::LdMcs => 29,
        }
    }

    /// Whether the message filters with a sampler state, named by its sampler index
    /// (`IndexKind::Sampler`): `sample_l` and `gather4` do, `ld`, `ld_lz` and
    /// `resinfo` read the surface alone.
    pub fn uses_sampler_state(self) -> bool {
        matches!(self, SamplerOp::SampleL | SamplerOp::Gather4)
    }

    /// The vISA mnemonic (IGC's `getSampleOp3DName`).
    pub fn visa_name(self) -> &'static str {
        match self {
            SamplerOp::Ld => "load_3d",
            SamplerOp::LdLz => "load_lz",
            SamplerOp::Resinfo => "resinfo",
            SamplerOp::SampleL => "sample_l",
            SamplerOp::Gather4 => "sample4",
            SamplerOp::LdMcs => "load_mcs",
            SamplerOp::Ld2dmsW => "load_2dms_w",
        }
    }
}

/// Sampler indices the message descriptor holds (bits 11:8). Larger ones need a
/// message header whose sampler state pointer (M0.3) is moved on by 16 states per 16
/// indices (Mesa's `lower_sampler_logical_send`, IGC's `emitSampleIndexGE16`).
pub const DESCRIPTOR_SAMPLER_INDICES: u32 = 16;

/// A decoded sampler message (`@sampler_ld`, `@sampler_ld_lz`, `@sampler_resinfo`,
/// `@sampler_sample_l`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SamplerMessage {
    /// Operation.
    pub op: SamplerOp,
    /// Returned channels, R in bit 0.
    pub channels: u8,
    /// The sampler index (the sampler state of the driver's table the message filters
    /// with): the intrinsic's `sampler` for `sample_l`, 0 for the messages that take
    /// none ([`SamplerOp::uses_sampler_state`]).
    pub sampler: u32,
    /// The channel `gather4` reads (0 for the others).
    pub component: u8,
    /// The texel offsets (`aoffimmi`) of `sample_l` and `gather4` (0 for the others).
    pub offset: ir::TexelOffset,
}

impl SamplerMessage {
    /// Decodes a sampler intrinsic; `Ok(None)` if `inst` is not one.
    pub fn decode(func: &Function, inst: Inst) -> Result<Option<SamplerMessage>, MessageRule> {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            return Ok(None);
        };
        let op = match i.op {
            IntrinsicOp::SamplerLd => SamplerOp::Ld,
            IntrinsicOp::SamplerLdLz => SamplerOp::LdLz,
            IntrinsicOp::SamplerResinfo => SamplerOp::Resinfo,
            IntrinsicOp::SamplerSampleL => SamplerOp::SampleL,
            IntrinsicOp::SamplerGather4 => SamplerOp::Gather4,
            IntrinsicOp::SamplerLdMcs => SamplerOp::LdMcs,
            IntrinsicOp::SamplerLd2dmsW => SamplerOp::Ld2dmsW,
            _ => return Ok(None),
        };
        let index = |kind: IndexKind| {
            i.index(kind)
                .ok_or(MessageRule::BadIndex { kind, value: None })
        };
        // A gather returns its four texels' channel as R, G, B and A.
        let channels = match op {
            SamplerOp::Gather4 => 0xf,
            _ => index(IndexKind::Channels)?,
        };
        if channels == 0 || channels > 0xf {
            return Err(MessageRule::BadIndex {
                kind: IndexKind::Channels,
                value: Some(channels),
            });
        }
        let sampler = if op.uses_sampler_state() {
            index(IndexKind::Sampler)?
        } else {
            0
        };
        let component = match op {
            SamplerOp::Gather4 => match index(IndexKind::Component)? {
                c @ 0..=3 => c as u8,
                c => {
                    return Err(MessageRule::BadIndex {
                        kind: IndexKind::Component,
                        value: Some(c),
                    })
                }
            },
            _ => 0,
        };
        let offset = if op.uses_sampler_state() {
            let v = index(IndexKind::TexelOffset)?;
            ir::TexelOffset::from_index(v).ok_or(MessageRule::BadIndex {
                kind: IndexKind::TexelOffset,
                value: Some(v),
            })?
        } else {
            ir::TexelOffset::default()
        };
        Ok(Some(SamplerMessage {
            op,
            channels: channels as u8,
            sampler,
            component,
            offset,
        }))
    }

    /// Whether the returned channels are R, RG, RGB or RGBA: the response length
    /// alone selects them. Any other mask is written in a message header (IGC sends
    /// one then, GenX_IR's `wr:1h+...`).
    pub fn channels_are_a_prefix(&self) -> bool {
        matches!(self.channels, 0b0001 | 0b0011 | 0b0111 | 0b1111)
    }
}

/// The operands of a sampler message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SamplerOperands {
    /// The parameters in vISA order ([`SamplerOp::params`]).
    pub params: Vec<Src>,
    /// The 1-bit predicate, if any (never for `resinfo`).
    pub predicate: Option<Src>,
}

/// Splits and checks the sources of a sampler intrinsic.
pub fn sampler_operands(
    func: &Function,
    inst: Inst,
    m: &SamplerMessage,
) -> Result<SamplerOperands, MessageRule> {
    let data = func.inst(inst);
    let i = data
        .as_intrinsic()
        .filter(|i| {
            matches!(
                i.op,
                IntrinsicOp::SamplerLd
                    | IntrinsicOp::SamplerLdLz
                    | IntrinsicOp::SamplerResinfo
                    | IntrinsicOp::SamplerSampleL
                    | IntrinsicOp::SamplerGather4
                    | IntrinsicOp::SamplerLdMcs
                    | IntrinsicOp::SamplerLd2dmsW
            )
        })
        .ok_or(MessageRule::NotAMessage)?;
    if i.image.is_none() {
        return Err(MessageRule::SamplerWithoutImage);
    }
    let names = m.op.params();
    let expected = names.len();
    let srcs = &i.srcs;
    let predicable = i.op.info().predicable;
    let predicate = if predicable
        && srcs.len() == expected + 1
        && func.src_type(srcs[expected]) == Type::BOOL
    {
        Some(srcs[expected])
    } else if srcs.len() == expected {
        None
    } else {
        return Err(MessageRule::OperandCount {
            expected,
            found: srcs.len(),
        });
    };
    for (s, name) in srcs.iter().zip(names) {
        expect_type(func, name, *s, Type::U32)?;
    }
    if let Some(dest) = data.dest {
        let found = func.value_type(dest);
        let comps = m.channels.count_ones() as u8;
        let bits_ok = match m.op {
            // `sample_l` returns 32-bit floats here (the lowering's `txl`); a 16-bit
            // return needs the sampler's 16-bit response format.
            SamplerOp::Resinfo | SamplerOp::SampleL | SamplerOp::Gather4 | SamplerOp::LdMcs => {
                found.bit_size() == 32
            }
            SamplerOp::Ld | SamplerOp::LdLz | SamplerOp::Ld2dmsW => {
                matches!(found.bit_size(), 16 | 32)
            }
        };
        if found.num_components() != comps || !bits_ok {
            return Err(MessageRule::OperandType {
                operand: "dest",
                expected: Type::new(32, comps).unwrap_or(found),
                found,
            });
        }
    }
    Ok(SamplerOperands {
        params: srcs[..expected].to_vec(),
        predicate,
    })
}

/// The send descriptor of a sampler message and the length of its second payload.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SamplerDescriptor {
    /// The message descriptor.
    pub desc: u32,
    /// Registers of the second source of a split send (the parameters, when a header
    /// leads the first); 0 when the message has one source. The extended descriptor
    /// carries it.
    pub src1_len: u32,
    /// Whether the finalizer sends the SIMD16 message as two SIMD8 halves (`(8|M0)`,
    /// `(8|M8)`), each with this descriptor: a payload over
    /// 11 registers (`ld2dms_w` with all six parameters).
    pub halves: bool,
}

/// The most registers GenX_IR gives one SIMD16 sampler message's payload (the header
/// and the parameters); a larger one it sends as two SIMD8 halves, every parameter
/// and the header in the one source of each (checked against GenX_IR on BDW to MTL,
/// `visa/tests/sampler_descriptors.rs`).
pub const MAX_SAMPLER_PAYLOAD_REGS: u32 = 11;

/// The send descriptor of sampler message `m` at SIMD `simd` (8 or 16) on `p`, sending
/// `params` parameters (after the trailing zeros vISA leaves out) to binding-table
/// index `bti` with 32-bit returns, laid out as Mesa's `brw_sampler_desc` and
/// `brw_message_desc` for Gfx8 to Gfx12.5 (`ld_lz` arrives with Gfx9: an error on
/// Gfx8):
///
/// | bits | field |
/// | --- | --- |
/// | 7:0 | binding-table index |
/// | 11:8 | sampler index, its low 4 bits (0: `ld`, `ld_lz` and `resinfo` use none) |
/// | 16:12 | message type ([`SamplerOp::message_type`]) |
/// | 18:17 | SIMD mode (1 SIMD8, 2 SIMD16) |
/// | 19 | header present |
/// | 24:20 | response length: a register run per returned channel |
/// | 28:25 | message length |
///
/// Gfx8 has no split send: its one source holds the header, if any, and every
/// parameter; it takes the header for every channel mask but RGBA. From Gfx9 the payload is a split send (`sends`), one register run per
/// parameter: a channel mask that is not a prefix (R, RG, RGB, RGBA) needs the message
/// header, which IGC sends alone as the first source (message length 1) with every
/// parameter in the second; without a header the first source is the first parameter
/// (`gather4`'s first two) and the second the others. Texel offsets, and a `gather4`
/// of a channel other than red, need the header too. A `sample_l` sampler index from
/// [`DESCRIPTOR_SAMPLER_INDICES`] on needs the header too: the descriptor holds the
/// index's low 4 bits and the header's sampler state pointer is moved on by 16 states
/// per 16 indices (IGC's `emitSampleIndexGE16`, which the finalizer runs when the vISA
/// `aoffimmi` has bit 15 set). Checked against GenX_IR's descriptors on BDW, SKL, ICL,
/// TGL, DG2 and MTL (`visa/tests/sampler_descriptors.rs`). Xe2's descriptor moves
/// fields (Mesa's `brw_sampler_desc` for `ver >= 20`) and is not described: the result
/// is an error there, as on platforms without a sampler.
pub fn sampler_descriptor(
    p: &Device,
    m: &SamplerMessage,
    simd: u32,
    params: u32,
    bti: u8,
) -> Result<SamplerDescriptor, MessageRule> {
    if !p.has_sampler {
        return Err(MessageRule::NoSampler {
            platform: p.name.clone(),
        });
    }
    if p.ver() >= 20 || p.ver() < 8 {
        return Err(MessageRule::SamplerDescriptorUnknown {
            platform: p.name.clone(),
        });
    }
    if p.ver() < 9 && m.op == SamplerOp::LdLz {
        return Err(MessageRule::SamplerOpUnavailable {
            op: m.op.visa_name(),
            platform: p.name.clone(),
        });
    }
    let simd_mode = match simd {
        8 => 1,
        16 => 2,
        _ => return Err(MessageRule::SamplerSimd { simd }),
    };
    // One register run per parameter and per returned channel: SIMD lanes of dwords.
    let run = (simd * 4).div_ceil(p.grf_bytes);
    // From Gfx9 the response length selects R, RG, RGB and RGBA (IGC's
    // `needHeaderForChannels`, "for SKL+"); Gfx8 masks any other than RGBA in the header.
    let channels_in_header = if p.ver() < 9 {
        m.channels != 0xf
    } else {
        !m.channels_are_a_prefix()
    };
    // The header holds the texel offsets and the channel `gather4` reads too (brw's
    // `lower_sampler_logical_send`: a TG4 whose component is not red, or any
    // offset).
    let header = channels_in_header
        || m.sampler >= DESCRIPTOR_SAMPLER_INDICES
        || !m.offset.is_zero()
        || m.component != 0;
    // A SIMD16 payload over the limit goes as two SIMD8 halves, each one source: the
    // header, if any, and a register per parameter.
    let halves = simd == 16 && u32::from(header) + params * run > MAX_SAMPLER_PAYLOAD_REGS;
    let (simd_mode, run) = if halves { (1, 1) } else { (simd_mode, run) };
    let rlen = m.channels.count_ones() * run;
    // Without a header the finalizer puts the first parameter in the first source,
    // `gather4`'s first two (`u, v`).
    let first = if m.op == SamplerOp::Gather4 { 2 } else { 1 };
    let (mlen, src1_len) = if p.ver() < 9 || halves {
        // One source: the header and every parameter.
        (u32::from(header) + params * run, 0)
    } else if header {
        (1, params * run)
    } else {
        let n = params.min(first);
        (n * run, (params - n) * run)
    };
    let desc = u32::from(bti)
        | (m.sampler % DESCRIPTOR_SAMPLER_INDICES) << 8
        | m.op.message_type() << 12
        | simd_mode << 17
        | u32::from(header) << 19
        | rlen << 20
        | mlen << 25;
    Ok(SamplerDescriptor {
        desc,
        src1_len,
        halves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(op: SamplerOp, channels: u8) -> SamplerMessage {
        SamplerMessage {
            op,
            channels,
            sampler: 0,
            component: 0,
            offset: ir::TexelOffset::default(),
        }
    }

    #[test]
    fn descriptors_are_the_ones_genx_ir_encodes_on_dg2() {
        // From GenX_IR 1.0.12504 (`-platform DG2`), surface 3 unless noted: the `desc`
        // of each `send.smpl` of a hand-written kernel.
        let dg2 = Device::preset("dg2").unwrap();
        let d = |op, ch, simd, params, bti| {
            sampler_descriptor(&dg2, &msg(op, ch), simd, params, bti).unwrap()
        };
        let plain = |desc| SamplerDescriptor {
            desc,
            src1_len: 0,
            halves: false,
        };
        // resinfo.RGBA (M1, 16), surface 0: wr:2+0, rd:8.
        assert_eq!(d(SamplerOp::Resinfo, 0xf, 16, 1, 0), plain(0x0484_A000));
        // resinfo.RG (M1, 16): wr:2+0, rd:4.
        assert_eq!(d(SamplerOp::Resinfo, 0b0011, 16, 1, 3), plain(0x0444_A003));
        // resinfo.A (M1, 16): a header, wr:1h+2, rd:2.
        assert_eq!(
            d(SamplerOp::Resinfo, 0b1000, 16, 1, 3),
            SamplerDescriptor {
                desc: 0x022C_A003,
                src1_len: 2,
                halves: false,
            }
        );
        // resinfo.RB (M1, 16): wr:1h+2, rd:4.
        assert_eq!(d(SamplerOp::Resinfo, 0b0101, 16, 1, 3).desc, 0x024C_A003);
        // resinfo.RGBA (M1, 8): wr:1+0, rd:4.
        assert_eq!(d(SamplerOp::Resinfo, 0xf, 8, 1, 3), plain(0x0242_A003));
        // load_lz.R (M1, 16) with u alone, surface 0: wr:2+0, rd:2.
        assert_eq!(d(SamplerOp::LdLz, 0b0001, 16, 1, 0), plain(0x0425_A000));
        // load_lz.RGA (M1, 16) with u: wr:1h+2, rd:6.
        assert_eq!(d(SamplerOp::LdLz, 0b1011, 16, 1, 3).desc, 0x026D_A003);
        // load_3d.R (M1, 16) with u and v: wr:2+2, rd:2 (v in the second source).
        assert_eq!(
            d(SamplerOp::Ld, 0b0001, 16, 2, 3),
            SamplerDescriptor {
                desc: 0x0424_7003,
                src1_len: 2,
                halves: false,
            }
        );
        // load_3d.RB (M1, 16) with u and v: wr:1h+4, rd:4.
        assert_eq!(
            d(SamplerOp::Ld, 0b0101, 16, 2, 0),
            SamplerDescriptor {
                desc: 0x024C_7000,
                src1_len: 4,
                halves: false,
            }
        );
    }

    #[test]
    fn sample_l_descriptors_are_the_ones_genx_ir_encodes() {
        // From GenX_IR 1.0.12504: the `desc` of the `send.smpl`/`send` of the back
        // end's kernels for two `txl`s (`--target dg2` and `--target bdw`, `-O`).
        let l = |channels, sampler| SamplerMessage {
            op: SamplerOp::SampleL,
            channels,
            sampler,
            component: 0,
            offset: ir::TexelOffset::default(),
        };
        let dg2 = Device::preset("dg2").unwrap();
        // sample_l.RGBA (M1, 16) with lod, u, v and sampler index 3, surface 0:
        // wr:2+4, rd:8, "sample override LOD using sampler index 3".
        assert_eq!(
            sampler_descriptor(&dg2, &l(0xf, 3), 16, 3, 0).unwrap(),
            SamplerDescriptor {
                desc: 0x0484_2300,
                src1_len: 4,
                halves: false,
            }
        );
        // sample_l.RG (M1, 16) with lod, u, v, r and sampler index 17 (aoffimmi bit
        // 15), surface 4: wr:1h+8, rd:4, "using sampler index 1".
        assert_eq!(
            sampler_descriptor(&dg2, &l(0b11, 17), 16, 4, 4).unwrap(),
            SamplerDescriptor {
                desc: 0x024C_2104,
                src1_len: 8,
                halves: false,
            }
        );
        // IGC's own SIMD8 kernel on TGL (ocloc, `read_imagef` of an image2d_array_t
        // with an explicit LOD and a second sampler): `sample_l.RGBA (M1, 8)` with
        // lod, u, v, r, sampler index 1, surface 0: wr:1+3, rd:4.
        let tgl = Device::preset("tgl").unwrap();
        assert_eq!(
            sampler_descriptor(&tgl, &l(0xf, 1), 8, 4, 0).unwrap(),
            SamplerDescriptor {
                desc: 0x0242_2100,
                src1_len: 3,
                halves: false,
            }
        );
        // BDW: one source. wr:6+0 and wr:9h+0.
        let bdw = Device::preset("bdw").unwrap();
        assert_eq!(
            sampler_descriptor(&bdw, &l(0xf, 3), 16, 3, 0).unwrap(),
            SamplerDescriptor {
                desc: 0x0C84_2300,
                src1_len: 0,
                halves: false,
            }
        );
        assert_eq!(
            sampler_descriptor(&bdw, &l(0b11, 17), 16, 4, 4).unwrap(),
            SamplerDescriptor {
                desc: 0x124C_2104,
                src1_len: 0,
                halves: false,
            }
        );
        // `ld_lz` is Gfx9's.
        assert!(matches!(
            sampler_descriptor(&bdw, &msg(SamplerOp::LdLz, 1), 16, 1, 0),
            Err(MessageRule::SamplerOpUnavailable { op: "load_lz", .. })
        ));
    }

    #[test]
    fn platforms_without_a_described_descriptor_are_errors() {
        let m = msg(SamplerOp::Resinfo, 0xf);
        for (name, rule) in [
            ("pvc", "NoSampler"),
            ("lnl", "SamplerDescriptorUnknown"),
            ("hsw", "SamplerDescriptorUnknown"),
        ] {
            let p = Device::preset(name).unwrap();
            let e = sampler_descriptor(&p, &m, 16, 1, 0).unwrap_err();
            assert!(format!("{e:?}").starts_with(rule), "{name}: {e:?}");
        }
        let dg2 = Device::preset("dg2").unwrap();
        assert!(matches!(
            sampler_descriptor(&dg2, &m, 32, 1, 0),
            Err(MessageRule::SamplerSimd { simd: 32 })
        ));
    }
}
