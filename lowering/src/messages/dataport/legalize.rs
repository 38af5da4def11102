//! LSC-shaped message intrinsics rewritten into the legacy data-port messages of a
//! generation without LSC, the way Mesa's brw/elk backends lower their logical memory
//! opcodes per generation (`brw_lower_logical_sends.cpp`).
//!
//! The lowering passes describe every access as an LSC message; on Gfx7 to Gfx12.0
//! [`legalize_function`] replaces each one, in place (the instruction keeps its value
//! id and source position), by the messages that generation has:
//!
//! | LSC message | legacy data port |
//! | --- | --- |
//! | `lsc_load_quad.tgm` / `lsc_store_quad.tgm`, d32 | `dp_typed_read` / `dp_typed_write`, same mask |
//! | `lsc_atomic.tgm`, d32 / d16u32 | `dp_typed_atomic`, 32 / 16 bits |
//! | `lsc_load`/`lsc_store` `.ugm` bti / `.slm` / `.ugm` flat a64, d32 x n | `dp_untyped_read`/`write` of up to four dwords per message |
//! | the same, d64 x n | the dwords of each element, packed or unpacked in the shader |
//! | the same, d8u32, d16u32, d16u32h, d8, d16 | `dp_byte_scattered_*` of 1 or 2 bytes (masked to the size) |
//! | quad forms on untyped memory | `dp_untyped_*` with the same mask |
//! | strided forms | the same, lane `n`'s address `base + n · pitch` |
//! | `lsc_atomic`, d32 / d64 / d16u32 | `dp_untyped_atomic`, 32 / 64 / 16 bits |
//!
//! An immediate `lsc_offset` is added to the address (the legacy messages have none);
//! cache controls are dropped (the legacy descriptors carry none). Atomic `load`
//! becomes `or` with 0, `store` becomes `mov`, `icas`/`fcas` become `cmpwr`/`fcmpwr`
//! (compare value first in both).
//!
//! Whatever the generation does not have is an error naming the instruction: A64 and
//! 8- or 16-bit accesses to surfaces and SLM on Gfx7 (byte scattered messages arrive
//! with Haswell; Mesa never needs them there, its raw image path is for 64- and 128-bit
//! formats), float atomic add, 64-bit atomics on surfaces, 2D blocks, 32-bit flat
//! addresses, bindless surfaces.

use super::caps::DataportCaps;
use super::legality::check_dataport;
use super::rule::DataportRule;
use crate::device::Device;
use crate::messages::lsc::LscMessage;
use crate::messages::op::LscOp;
use crate::messages::rule::describe_inst;
use ir::dataport::{DpAddr, DpAtomicOp, DpDesc};
use ir::lsc::{AddrSize, AddrType, DataSize, LscAtomicOp, Sfid};
use ir::{Builder, Cursor, Function, Inst, InstKind, IntrinsicOp, Span, Src, Type, Value};
use std::fmt;

/// An LSC message that has no legacy data-port form on the platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegacyError {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// How it reads (`%12 = @lsc_load_quad`).
    pub what: String,
    /// The rule it breaks.
    pub rule: DataportRule,
}

impl fmt::Display for LegacyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.rule)
    }
}

impl std::error::Error for LegacyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.rule)
    }
}

/// Where an untyped access goes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Space {
    Typed,
    Addr(DpAddr),
}

/// The legacy address model of an LSC message.
fn space(m: &LscMessage, platform: &str) -> Result<Space, DataportRule> {
    let unsupported = |what: &str| DataportRule::NoLegacyForm {
        platform: platform.to_string(),
        what: what.to_string(),
    };
    Ok(match (m.sfid, m.addr_type, m.addr_size) {
        (Sfid::Tgm, _, _) => Space::Typed,
        (Sfid::Slm, _, _) => Space::Addr(DpAddr::Slm),
        (_, AddrType::Flat, AddrSize::A64) => Space::Addr(DpAddr::A64),
        (_, AddrType::Flat, _) => {
            return Err(unsupported(
                "flat addresses narrower than 64 bits (stateless A32 messages are not modelled)",
            ))
        }
        (_, AddrType::Bti, _) => Space::Addr(DpAddr::Bti),
        (_, t, _) => {
            return Err(unsupported(&format!(
                "the {} address model (bindless surfaces)",
                t.name()
            )))
        }
    })
}

/// The legacy atomic of an LSC atomic sub-op.
fn atomic_op(op: LscAtomicOp, platform: &str) -> Result<DpAtomicOp, DataportRule> {
    use DpAtomicOp as D;
    use LscAtomicOp as L;
    Ok(match op {
        L::Iinc => D::Inc,
        L::Idec => D::Dec,
        // An atomic read: `or` with 0 writes back what it reads.
        L::Load => D::Or,
        L::Store => D::Mov,
        L::Iadd => D::Add,
        L::Isub => D::Sub,
        L::Smin => D::Imin,
        L::Smax => D::Imax,
        L::Umin => D::Umin,
        L::Umax => D::Umax,
        L::Icas => D::Cmpwr,
        L::Fmin => D::Fmin,
        L::Fmax => D::Fmax,
        L::Fcas => D::Fcmpwr,
        L::And => D::And,
        L::Or => D::Or,
        L::Xor => D::Xor,
        L::Fadd | L::Fsub => {
            return Err(DataportRule::NoLegacyForm {
                platform: platform.to_string(),
                what: format!(
                    "atomic {} (the legacy data port has no float add or subtract)",
                    op.name()
                ),
            })
        }
    })
}

/// Rewrites every LSC message of `func` (`@lsc_load`, `@lsc_store`, the strided and
/// quad forms, `@lsc_atomic`) into legacy data-port messages for `device`, which must
/// have no LSC. Returns how many it rewrote, or every message it could not.
pub fn legalize_function(func: &mut Function, device: &Device) -> Result<usize, Vec<LegacyError>> {
    let Some(caps) = DataportCaps::for_device(device) else {
        return Err(func
            .insts_in_order()
            .into_iter()
            .filter(|&i| is_lsc_message(func, i))
            .map(|inst| LegacyError {
                inst,
                span: func.inst_span(inst),
                what: describe_inst(func, inst),
                rule: DataportRule::NotLegacy {
                    platform: device.name.clone(),
                },
            })
            .collect());
    };
    let mut errors = Vec::new();
    let mut n = 0;
    for inst in func.insts_in_order() {
        if !is_lsc_message(func, inst) {
            continue;
        }
        match legalize(func, inst, &caps, &device.name) {
            Ok(()) => n += 1,
            Err(rule) => errors.push(LegacyError {
                inst,
                span: func.inst_span(inst),
                what: describe_inst(func, inst),
                rule,
            }),
        }
    }
    if errors.is_empty() {
        Ok(n)
    } else {
        Err(errors)
    }
}

/// Whether `inst` is an LSC message intrinsic (2D blocks included).
fn is_lsc_message(func: &Function, inst: Inst) -> bool {
    func.inst(inst)
        .as_intrinsic()
        .is_some_and(|i| i.op.is_lsc() || i.op.is_block2d())
}

/// The operands of one LSC instruction.
struct Operands {
    image: Option<ir::ImageRef>,
    srcs: Vec<Src>,
    pred: Option<Src>,
    dest: Option<Value>,
}

fn operands(func: &Function, inst: Inst) -> Operands {
    let data = func.inst(inst);
    let intr = data.as_intrinsic().expect("an intrinsic");
    let mut srcs: Vec<Src> = intr.srcs.iter().copied().collect();
    let expected = intr.op.srcs(&intr.indices).map_or(srcs.len(), |s| s.len());
    let pred = (srcs.len() > expected).then(|| srcs.pop()).flatten();
    Operands {
        image: intr.image,
        srcs,
        pred,
        dest: data.dest,
    }
}

fn legalize(
    func: &mut Function,
    inst: Inst,
    caps: &DataportCaps,
    platform: &str,
) -> Result<(), DataportRule> {
    let unsupported = |what: String| DataportRule::NoLegacyForm {
        platform: platform.to_string(),
        what,
    };
    let m = match LscMessage::decode(func, inst) {
        Ok(Some(m)) => m,
        // 2D block messages, and LSC intrinsics whose indices do not decode.
        _ => {
            let op = func.inst(inst).as_intrinsic().map(|i| i.op.name());
            return Err(unsupported(format!(
                "@{} (no 2D block or LSC message exists before Gfx12.5)",
                op.unwrap_or("?")
            )));
        }
    };
    let space = space(&m, platform)?;
    let ops = operands(func, inst);
    let span = func.inst_span(inst);
    let mut b = Builder::new(func, Cursor::Before(inst));
    b.span = span;
    let mut e = Emitter {
        b,
        caps,
        platform,
        pred: ops.pred,
    };
    let result = match (space, m.op) {
        (Space::Typed, LscOp::LoadQuad) => {
            e.check_size(&m, DataSize::D32)?;
            let coords = &ops.srcs[..4];
            Some(Src::new(e.read(
                DpDesc::typed_read(m.data.cmask),
                ops.image,
                coords,
            )?))
        }
        (Space::Typed, LscOp::StoreQuad) => {
            e.check_size(&m, DataSize::D32)?;
            e.message(DpDesc::typed_write(m.data.cmask), ops.image, &ops.srcs[..5])?;
            None
        }
        (Space::Typed, LscOp::Atomic(op)) => {
            let bits = match m.data.size {
                DataSize::D32 => 32,
                DataSize::D16U32 => 16,
                s => return Err(unsupported(format!("typed {} atomics", s.name()))),
            };
            let d = DpDesc::typed_atomic(atomic_op(op, platform)?, bits);
            let mut srcs = ops.srcs[..4].to_vec();
            srcs.extend(e.atomic_srcs(op, &ops.srcs[4..], 32));
            let v = e.read(d, ops.image, &srcs)?;
            Some(Src::new(e.narrow_atomic(v, bits)))
        }
        (Space::Typed, op) => return Err(unsupported(format!("typed {op}"))),
        (Space::Addr(addr), op) => {
            let image = (addr == DpAddr::Bti).then_some(ops.image).flatten();
            let address = e.address(&m, op, &ops.srcs)?;
            match op {
                LscOp::Load | LscOp::LoadStrided | LscOp::LoadQuad => {
                    Some(e.load(&m, addr, image, address)?)
                }
                LscOp::Store | LscOp::StoreStrided | LscOp::StoreQuad => {
                    let data = *ops.srcs.last().expect("stores have data");
                    e.store(&m, addr, image, address, data)?;
                    None
                }
                LscOp::Atomic(aop) => {
                    let bits = match m.data.size {
                        DataSize::D32 => 32,
                        DataSize::D64 => 64,
                        DataSize::D16U32 => 16,
                        s => return Err(unsupported(format!("{} atomics", s.name()))),
                    };
                    let d = DpDesc::untyped_atomic(addr, atomic_op(aop, platform)?, bits);
                    let mut srcs = vec![address];
                    srcs.extend(e.atomic_srcs(aop, &ops.srcs[1..], m.data.size.reg_bits()));
                    let v = e.read(d, image, &srcs)?;
                    Some(Src::new(e.narrow_atomic(v, bits)))
                }
            }
        }
    };
    match (ops.dest, result) {
        (Some(_), Some(r)) => {
            func.inst_mut(inst).kind = InstKind::Alu(ir::AluInst {
                op: ir::AluOp::Mov,
                srcs: std::iter::once(r).collect(),
            });
        }
        _ => func.remove_inst(inst),
    }
    Ok(())
}

/// Emits the data-port messages of one LSC message in front of it.
struct Emitter<'f, 'c> {
    b: Builder<'f>,
    caps: &'c DataportCaps,
    platform: &'c str,
    pred: Option<Src>,
}

impl Emitter<'_, '_> {
    /// One data-port message, checked against the legality table; its destination,
    /// for reads and atomics.
    fn message(
        &mut self,
        d: DpDesc,
        image: Option<ir::ImageRef>,
        srcs: &[Src],
    ) -> Result<Option<Value>, DataportRule> {
        check_dataport(self.caps, self.platform, &d)?;
        Ok(self.b.dp_message(&d, image, srcs, self.pred))
    }

    /// A message that reads: its destination.
    fn read(
        &mut self,
        d: DpDesc,
        image: Option<ir::ImageRef>,
        srcs: &[Src],
    ) -> Result<Value, DataportRule> {
        Ok(self
            .message(d, image, srcs)?
            .expect("reads and atomics have a destination"))
    }

    /// A `bits`-wide constant `v` (cut to the width).
    fn imm(&mut self, bits: u8, v: u64) -> Value {
        self.b.load_const(
            Type::scalar(bits).expect("32 or 64 bits"),
            &[v & ir::types::bit_mask(bits)],
        )
    }

    fn check_size(&self, m: &LscMessage, want: DataSize) -> Result<(), DataportRule> {
        if m.data.size == want {
            Ok(())
        } else {
            Err(DataportRule::NoLegacyForm {
                platform: self.platform.to_string(),
                what: format!(
                    "typed {} data (legacy typed messages carry d32)",
                    m.data.size
                ),
            })
        }
    }

    /// The data operands of an atomic: LSC's `src1`, `src2` in order (the compare value
    /// first for `icas`/`fcas`, as the legacy `cmpwr`), and the 0 of an atomic `load`.
    fn atomic_srcs(&mut self, op: LscAtomicOp, srcs: &[Src], bits: u8) -> Vec<Src> {
        if op == LscAtomicOp::Load {
            vec![Src::new(self.imm(bits, 0))]
        } else {
            srcs.iter().copied().take(op.num_data_operands()).collect()
        }
    }

    /// A 16-bit atomic's result with its undefined upper half cleared, as an LSC
    /// `d16u32` result reads.
    fn narrow_atomic(&mut self, v: Value, bits: u8) -> Value {
        if bits == 16 {
            let m = self.b.imm_u32(0xffff);
            self.b.iand(v, m)
        } else {
            v
        }
    }

    /// The byte address of lane `n`'s first element: the address (strided: the base
    /// plus `n` times the pitch) plus the immediate offset.
    fn address(&mut self, m: &LscMessage, op: LscOp, srcs: &[Src]) -> Result<Src, DataportRule> {
        let bits = m.addr_size.bits();
        let mut a = srcs[0];
        if op.is_strided() {
            let lane = self
                .b
                .intrinsic(
                    IntrinsicOp::LoadSubgroupInvocation,
                    None,
                    &[],
                    &[],
                    Some(Type::U32),
                )
                .expect("a system value");
            let pitch = srcs[1];
            let (lane, pitch) = if bits == 64 {
                let l = self.b.u2u64(lane);
                let p = self.b.u2u64(pitch);
                (Src::new(l), Src::new(p))
            } else {
                (Src::new(lane), pitch)
            };
            let step = self.b.imul(lane, pitch);
            a = Src::new(self.b.iadd(a, step));
        }
        if m.offset != 0 {
            let off = self.imm(bits, i64::from(m.offset) as u64);
            a = Src::new(self.b.iadd(a, off));
        }
        Ok(a)
    }

    /// `address + delta`.
    fn offset(&mut self, address: Src, delta: u64, bits: u8) -> Src {
        if delta == 0 {
            return address;
        }
        let d = self.imm(bits, delta);
        Src::new(self.b.iadd(address, d))
    }

    /// The dwords an access of `m` moves, as byte offsets from the address, with the
    /// register components they carry: `(offset, component, half)`, half 0 or 1 for the
    /// dwords of a 64-bit element.
    fn dwords(m: &LscMessage) -> Vec<(u64, u8, u8)> {
        let s = m.data;
        let elems: Vec<u8> = if s.cmask != 0 {
            (0..4).filter(|c| s.cmask & (1 << c) != 0).collect()
        } else {
            (0..s.vect).collect()
        };
        let mut out = Vec::new();
        for (k, &e) in elems.iter().enumerate() {
            if s.size == DataSize::D64 {
                let at = 8 * u64::from(e);
                out.push((at, k as u8, 0));
                out.push((at + 4, k as u8, 1));
            } else {
                out.push((4 * u64::from(e), k as u8, 0));
            }
        }
        out
    }

    /// The dwords grouped into untyped surface messages: windows of four dwords from
    /// the first one each covers, with their channel masks.
    fn windows(dwords: &[(u64, u8, u8)]) -> Vec<(u64, u8, Vec<usize>)> {
        let mut out: Vec<(u64, u8, Vec<usize>)> = Vec::new();
        for (i, &(at, _, _)) in dwords.iter().enumerate() {
            match out.last_mut() {
                Some((base, mask, members)) if at >= *base && at < *base + 16 => {
                    *mask |= 1 << ((at - *base) / 4);
                    members.push(i);
                }
                _ => out.push((at, 1, vec![i])),
            }
        }
        out
    }

    fn load(
        &mut self,
        m: &LscMessage,
        addr: DpAddr,
        image: Option<ir::ImageRef>,
        address: Src,
    ) -> Result<Src, DataportRule> {
        let bits = m.addr_size.bits();
        match m.data.size {
            DataSize::D32 | DataSize::D64 => {
                let dwords = Self::dwords(m);
                let mut words: Vec<Option<Src>> = vec![None; dwords.len()];
                for (base, mask, members) in Self::windows(&dwords) {
                    let a = self.offset(address, base, bits);
                    let v = self.read(DpDesc::untyped_read(addr, mask), image, &[a])?;
                    for (k, &i) in members.iter().enumerate() {
                        words[i] = Some(if members.len() == 1 {
                            Src::new(v)
                        } else {
                            Src::channel(v, k as u8)
                        });
                    }
                }
                let words: Vec<Src> = words
                    .into_iter()
                    .map(|w| w.expect("every dword is in a window"))
                    .collect();
                let comps: Vec<Src> = if m.data.size == DataSize::D64 {
                    words
                        .chunks(2)
                        .map(|p| Src::new(self.b.pack_64_2x32_split(p[0], p[1])))
                        .collect()
                } else {
                    words
                };
                Ok(Src::new(self.b.vec(&comps)))
            }
            size => {
                let bytes = size.mem_bytes();
                let raw = self.narrow_load(addr, image, address, bytes)?;
                Ok(Src::new(match size {
                    DataSize::D8 => self.b.u2u8(raw),
                    DataSize::D16 => self.b.u2u16(raw),
                    DataSize::D16U32H => {
                        let s = self.b.imm_u32(16);
                        self.b.ishl(raw, s)
                    }
                    _ => raw,
                }))
            }
        }
    }

    /// An 8- or 16-bit load, zero-extended to 32 bits.
    fn narrow_load(
        &mut self,
        addr: DpAddr,
        image: Option<ir::ImageRef>,
        address: Src,
        bytes: u32,
    ) -> Result<Value, DataportRule> {
        let d = DpDesc::byte_scattered_read(addr, bytes as u8);
        let v = self.read(d, image, &[address])?;
        // The bytes above the access are undefined.
        let mask = self.b.imm_u32(if bytes == 1 { 0xff } else { 0xffff });
        Ok(self.b.iand(v, mask))
    }

    fn store(
        &mut self,
        m: &LscMessage,
        addr: DpAddr,
        image: Option<ir::ImageRef>,
        address: Src,
        data: Src,
    ) -> Result<(), DataportRule> {
        let bits = m.addr_size.bits();
        match m.data.size {
            DataSize::D32 | DataSize::D64 => {
                let dwords = Self::dwords(m);
                let mut words = Vec::with_capacity(dwords.len());
                for &(_, comp, half) in &dwords {
                    let c = data.component(comp);
                    words.push(if m.data.size == DataSize::D64 {
                        Src::new(if half == 0 {
                            self.b.unpack_64_2x32_split_x(c)
                        } else {
                            self.b.unpack_64_2x32_split_y(c)
                        })
                    } else {
                        c
                    });
                }
                for (base, mask, members) in Self::windows(&dwords) {
                    let a = self.offset(address, base, bits);
                    let parts: Vec<Src> = members.iter().map(|&i| words[i]).collect();
                    let v = if parts.len() == 1 {
                        parts[0]
                    } else {
                        Src::new(self.b.vec(&parts))
                    };
                    self.message(DpDesc::untyped_write(addr, mask), image, &[a, v])?;
                }
                Ok(())
            }
            size => {
                let bytes = size.mem_bytes();
                let value = match size {
                    DataSize::D8 | DataSize::D16 => Src::new(self.b.u2u32(data)),
                    DataSize::D16U32H => {
                        let s = self.b.imm_u32(16);
                        Src::new(self.b.ushr(data, s))
                    }
                    _ => data,
                };
                let d = DpDesc::byte_scattered_write(addr, bytes as u8);
                self.message(d, image, &[address, value])?;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `body` (instructions of block b0) legalized for `platform`, printed; the result
    /// must validate.
    fn legalized(platform: &str, body: &str) -> Result<String, Vec<String>> {
        let text = format!(
            "shader compute (local_size=8,1,1)\nimage @img : 2d r32_uint (binding=0)\n\nfn main {{\n  block b0:\n    32   %0 = load_const (0x00000010)\n    64   %1 = load_const (0x0000000000001000)\n{body}}}\n"
        );
        let mut sh = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
        let dev = Device::preset(platform).unwrap();
        let f = &mut sh.functions[0];
        legalize_function(f, &dev)
            .map_err(|e| e.iter().map(|e| e.to_string()).collect::<Vec<_>>())?;
        ir::validate(&sh).unwrap_or_else(|d| panic!("{d:?}\n{sh}"));
        Ok(sh.to_string())
    }

    /// The instructions after the two constants every test starts with.
    fn lines(text: &str) -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.contains("block b0:"))
            .skip(3)
            .map(str::trim)
            .filter(|l| *l != "}")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn typed_messages_keep_their_masks_and_values() {
        let out = legalized(
            "skl",
            "    32x2 %2 = @lsc_load_quad (@img, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xz)\n    @lsc_store_quad (@img, %0, %0, %0, %0, %2.x) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)\n    32   %3 = @lsc_atomic (@img, %0, %0, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=icas)\n",
        )
        .unwrap();
        assert_eq!(
            lines(&out),
            [
                "32x2 %4 = @dp_typed_read (@img, %0, %0, %0, %0) (dp_cmask=xz)",
                "32x2 %2 = mov %4",
                "@dp_typed_write (@img, %0, %0, %0, %0, %2.x) (dp_cmask=x)",
                "32   %5 = @dp_typed_atomic (@img, %0, %0, %0, %0, %0, %0) (dp_op=cmpwr, dp_bits=32)",
                "32   %3 = mov %5",
            ]
        );
    }

    #[test]
    fn untyped_vectors_split_into_four_dword_messages() {
        // d32x8 at a64: two reads of four dwords, at +0 and +16; the immediate offset
        // is added first.
        let out = legalized(
            "bdw",
            "    32x8 %2 = @lsc_load (%1) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x8, lsc_offset=4)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[0], "64   %3 = load_const (0x0000000000000004)");
        assert_eq!(l[1], "64   %4 = iadd %1, %3");
        assert_eq!(
            l[2],
            "32x4 %5 = @dp_untyped_read (%4) (dp_addr=a64, dp_cmask=xyzw)"
        );
        assert_eq!(l[3], "64   %6 = load_const (0x0000000000000010)");
        assert_eq!(l[4], "64   %7 = iadd %4, %6");
        assert_eq!(
            l[5],
            "32x4 %8 = @dp_untyped_read (%7) (dp_addr=a64, dp_cmask=xyzw)"
        );
        assert_eq!(
            l[6],
            "32x8 %9 = vec8 %5.x, %5.y, %5.z, %5.w, %8.x, %8.y, %8.z, %8.w"
        );
    }

    #[test]
    fn narrow_and_wide_elements() {
        // d16u32 on SLM: a 2-byte gather masked to 16 bits; d64 on a surface: two
        // dwords packed; an 8-bit store: a 1-byte scatter of the zero-extended value.
        let out = legalized(
            "hsw",
            "    32   %2 = @lsc_load (%0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d16u32)\n    64   %3 = @lsc_load (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d64)\n    8    %4 = u2u8 %2\n    @lsc_store (%0, %4) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d8)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert!(
            l.contains(
                &"32   %5 = @dp_byte_scattered_read (%0) (dp_addr=slm, dp_bytes=2)".to_string()
            ),
            "{l:?}"
        );
        assert!(
            l.contains(
                &"32x2 %8 = @dp_untyped_read (@img, %0) (dp_addr=bti, dp_cmask=xy)".to_string()
            ),
            "{l:?}"
        );
        assert!(
            l.contains(&"64   %9 = pack_64_2x32_split %8.x, %8.y".to_string()),
            "{l:?}"
        );
        assert!(
            l.iter()
                .any(|x| x.starts_with("@dp_byte_scattered_write (%0, %")
                    && x.ends_with("(dp_addr=slm, dp_bytes=1)")),
            "{l:?}"
        );
    }

    #[test]
    fn strided_messages_address_each_lane() {
        let out = legalized(
            "tgl",
            "    32   %2 = @lsc_load_strided (%0, %0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[0], "32   %3 = @load_subgroup_invocation");
        assert_eq!(l[1], "32   %4 = imul %3, %0");
        assert_eq!(l[2], "32   %5 = iadd %0, %4");
        assert_eq!(
            l[3],
            "32   %6 = @dp_untyped_read (%5) (dp_addr=slm, dp_cmask=x)"
        );
    }

    #[test]
    fn what_a_generation_lacks_is_an_error() {
        let a64 = "    32   %2 = @lsc_load (%1) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)\n";
        let e = legalized("ivb", a64).unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(e[0].contains("ivb has no A64 messages"), "{e:?}");
        let narrow = "    32   %2 = @lsc_load (%0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d8u32)\n";
        let e = legalized("byt", narrow).unwrap_err();
        assert!(e[0].contains("byt has no byte scattered messages"), "{e:?}");
        let fadd = "    32   %2 = @lsc_atomic (%1, %0) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=fadd)\n";
        let e = legalized("tgl", fadd).unwrap_err();
        assert!(e[0].contains("no float add or subtract"), "{e:?}");
        let e = legalized("dg2", a64).unwrap_err();
        assert!(
            e[0].contains("dg2 has no legacy data-port messages"),
            "{e:?}"
        );
    }

    #[test]
    fn predicates_and_atomic_loads() {
        let out = legalized(
            "icl",
            "    1    %2 = ieq %0, %0\n    32   %3 = @lsc_atomic (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=load) if %2\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[1], "32   %4 = load_const (0x00000000)");
        assert_eq!(
            l[2],
            "32   %5 = @dp_untyped_atomic (@img, %0, %4) (dp_addr=bti, dp_op=or, dp_bits=32) if %2"
        );
    }
}
