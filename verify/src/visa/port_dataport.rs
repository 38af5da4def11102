//! The legacy data-port message instructions of vISA bound to the executor's
//! data-port semantics ([`crate::messages::dataport`]), the ones the IR's `@dp_*`
//! intrinsics run with, so that both legs of the verifier share every rule of what a
//! message does to memory. [`super::port::MemoryPort`] hands these messages here.
//!
//! Each instruction is the message family its page in IGC's
//! `documentation/visa/instructions/` describes, with its fields
//! ([`ir::dataport::DpDesc`]):
//!
//! | vISA | message |
//! |---|---|
//! | `gather4_typed`, `scatter4_typed`, `typed_atomic` | typed read, write, atomic |
//! | `gather4_scaled`, `scatter4_scaled` (`bti`, `%slm`) | untyped read, write |
//! | `svm_gather4scaled`, `svm_scatter4scaled` | untyped read, write, `a64` |
//! | `dword_atomic`, `svm_atomic` | untyped atomic (`bti`/`slm`, `a64`) |
//! | `gather_scaled.N`, `scatter_scaled.N`, `svm_gather.1.N`, `svm_scatter.1.N` | byte scattered read, write of N bytes |
//! | `gather.4`, `scatter.4` | dword scattered read, write (on `%slm`: untyped read, write of one channel) |
//! | `gather.1`/`.2`, `scatter.1`/`.2` | byte scattered read, write of 1 or 2 bytes |
//!
//! * **Addresses.** The scaled messages address `offset + element_offset[i]` (the
//!   pages: "Scale: This field is ignored and scale is always zero"), 32-bit, and
//!   `svm_*4scaled` `address + element_offset[i]`, 64-bit; `dword_atomic` and the
//!   `svm_gather`/`svm_scatter`/`svm_atomic` messages take the per-lane offset or
//!   address alone; `gather`/`scatter` count `global_offset + element_offset[i]` in
//!   elements. The surface of a typed or `bti` message is the surface variable's value,
//!   taken as the binding-table index the memory binds the image at; `%slm` is the
//!   workgroup's shared local memory.
//! * **Atomic operations.** vISA's names map to the hardware's (`min`/`max` unsigned,
//!   `minsint`/`maxsint` signed, `xchg` a move); `cmpxchg` writes `src0` where the old
//!   value equals `src1` (`DWORD_ATOMIC.md`'s table), so its operands go to the
//!   hardware's compare-then-new order swapped, while `fcmpwr` already compares `src0`.
//! * **Lanes.** The message's lanes are its channels `M*` selects, enabled by the
//!   execution mask (all with `_NM`) and the predicate: the others touch no memory and
//!   their destination elements keep their bytes. A destination of `%null` still
//!   performs the access.
//! * **Generation.** What the message does (and whether the generation has it at all)
//!   is the generation's ([`crate::visa::run::RunConfig::dataport`]); without one no
//!   data-port message runs.

use super::listing::{DpOpcode, VisaAtomicOp};
use super::payload::{read_lanes, read_simt, write_simt, DpSurfaceRef, RawRef, XDataport};
use super::regfile::RegState;
use super::run::MessageCtx;
use crate::memory::Memory;
use crate::messages::dataport::{typed, untyped, DpMessage};
use crate::messages::lanes::Sender;
use crate::messages::typed::Coords;
use crate::messages::{Lanes, LanesMut, MessageError};
use ir::dataport::{DpAddr, DpAtomicOp, DpDesc, DpMsg};
use ir::interp::EnvError;
use ir::{Inst, IntrinsicOp, Span};
use lowering::messages::dataport::DataportCaps;

/// The hardware's atomic operation of a vISA one, and whether its two operands go to
/// the hardware swapped.
pub fn hardware_atomic(op: VisaAtomicOp) -> (DpAtomicOp, bool) {
    match op {
        VisaAtomicOp::Add => (DpAtomicOp::Add, false),
        VisaAtomicOp::Sub => (DpAtomicOp::Sub, false),
        VisaAtomicOp::Inc => (DpAtomicOp::Inc, false),
        VisaAtomicOp::Dec => (DpAtomicOp::Dec, false),
        VisaAtomicOp::Min => (DpAtomicOp::Umin, false),
        VisaAtomicOp::Max => (DpAtomicOp::Umax, false),
        VisaAtomicOp::Xchg => (DpAtomicOp::Mov, false),
        // new = (old == src1) ? src0 : old; the hardware's cmpwr compares its first.
        VisaAtomicOp::Cmpxchg => (DpAtomicOp::Cmpwr, true),
        VisaAtomicOp::And => (DpAtomicOp::And, false),
        VisaAtomicOp::Or => (DpAtomicOp::Or, false),
        VisaAtomicOp::Xor => (DpAtomicOp::Xor, false),
        VisaAtomicOp::Minsint => (DpAtomicOp::Imin, false),
        VisaAtomicOp::Maxsint => (DpAtomicOp::Imax, false),
        VisaAtomicOp::Fmax => (DpAtomicOp::Fmax, false),
        VisaAtomicOp::Fmin => (DpAtomicOp::Fmin, false),
        // new = (src0 == old) ? src1 : old: the hardware's order already.
        VisaAtomicOp::Fcmpwr => (DpAtomicOp::Fcmpwr, false),
    }
}

/// The message fields of instruction `m`.
pub fn desc_of(m: &XDataport) -> DpDesc {
    let model = match m.surface {
        Some(DpSurfaceRef::Slm) => DpAddr::Slm,
        // `%scratch` is binding-table index 255 (stateless), a surface of the table.
        Some(DpSurfaceRef::State(_) | DpSurfaceRef::Scratch) => DpAddr::Bti,
        None => DpAddr::A64,
    };
    let atomic = |model| {
        let (op, _) = hardware_atomic(m.atomic.unwrap_or(VisaAtomicOp::Add));
        DpDesc::untyped_atomic(model, op, m.bits)
    };
    match m.op {
        DpOpcode::Gather4Typed => DpDesc::typed_read(m.channels),
        DpOpcode::Scatter4Typed => DpDesc::typed_write(m.channels),
        DpOpcode::TypedAtomic => {
            let (op, _) = hardware_atomic(m.atomic.unwrap_or(VisaAtomicOp::Add));
            DpDesc::typed_atomic(op, m.bits)
        }
        DpOpcode::Gather4Scaled | DpOpcode::SvmGather4Scaled => {
            DpDesc::untyped_read(model, m.channels)
        }
        DpOpcode::Scatter4Scaled | DpOpcode::SvmScatter4Scaled => {
            DpDesc::untyped_write(model, m.channels)
        }
        DpOpcode::DwordAtomic | DpOpcode::SvmAtomic => atomic(model),
        DpOpcode::GatherScaled | DpOpcode::SvmGather => {
            DpDesc::byte_scattered_read(model, m.num_blocks)
        }
        DpOpcode::ScatterScaled | DpOpcode::SvmScatter => {
            DpDesc::byte_scattered_write(model, m.num_blocks)
        }
        // The hardware's dword scattered messages address surfaces only; on shared
        // memory IGC's finalizer sends a dword gather or scatter as an untyped surface
        // read or write of one channel (`translateVISAGatherInst`), the same dwords.
        DpOpcode::Gather if m.block_size == 4 && model == DpAddr::Slm => {
            DpDesc::untyped_read(model, 1)
        }
        DpOpcode::Scatter if m.block_size == 4 && model == DpAddr::Slm => {
            DpDesc::untyped_write(model, 1)
        }
        DpOpcode::Gather if m.block_size == 4 => DpDesc::dword_scattered_read(model),
        DpOpcode::Scatter if m.block_size == 4 => DpDesc::dword_scattered_write(model),
        DpOpcode::Gather => DpDesc::byte_scattered_read(model, m.block_size),
        DpOpcode::Scatter => DpDesc::byte_scattered_write(model, m.block_size),
        // A dword at a time ([`oword_load`]).
        DpOpcode::OwordLd => DpDesc::untyped_read(DpAddr::Bti, 1),
    }
}

/// Bytes of one lane's element of the data, destination and atomic operands (the
/// four-channel messages: of each channel's).
fn data_esz(m: &XDataport) -> u32 {
    match m.op {
        DpOpcode::SvmAtomic if m.bits == 64 => 8,
        DpOpcode::SvmGather | DpOpcode::SvmScatter if m.num_blocks == 8 => 8,
        _ => 4,
    }
}

/// The per-lane byte addresses (or, typed, nothing: the coordinates are read apart).
fn addresses(m: &XDataport, st: &RegState, exec: u32) -> Vec<u64> {
    let Some(Some(reg)) = m.addr.first().copied() else {
        return vec![0; exec as usize];
    };
    let offset = m.offset.map_or(0, |o| o.value(st) as u64);
    let svm = m.surface.is_none();
    let esz = if svm { 8 } else { 4 };
    let lanes = read_lanes(st, reg.start, esz, exec);
    lanes
        .into_iter()
        .map(|e| match m.op {
            DpOpcode::Gather | DpOpcode::Scatter => {
                offset.wrapping_add(e).wrapping_mul(u64::from(m.block_size)) & 0xffff_ffff
            }
            _ if svm => offset.wrapping_add(e),
            _ => offset.wrapping_add(e) & 0xffff_ffff,
        })
        .collect()
}

/// The per-lane values of raw operand `r` (elements of `esz` bytes), zeros for `%null`.
fn lanes_or_zero(st: &RegState, r: Option<RawRef>, esz: u32, exec: u32) -> Vec<u64> {
    match r {
        Some(r) => read_lanes(st, r.start, esz, exec),
        None => vec![0; exec as usize],
    }
}

/// Runs data-port message `m` for the thread `ctx` on `mem`, on a generation with the
/// data port `caps`.
pub fn run_dataport(
    mem: &mut Memory,
    caps: Option<DataportCaps>,
    m: &XDataport,
    ctx: &mut MessageCtx<'_>,
) -> Result<(), EnvError> {
    let caps = caps.ok_or_else(|| {
        MessageError::illegal(
            "legacy data-port messages need the platform they run on (its generation decides their behaviour)",
        )
    })?;
    if m.op == DpOpcode::OwordLd {
        return oword_load(mem, caps, m, ctx);
    }
    let desc = desc_of(m);
    let exec = u32::from(m.exec.size);
    let first = u32::from(m.exec.offset);
    let invocations: Vec<u32> = (first..first + exec)
        .map(|c| ctx.invocations.get(c as usize).copied().unwrap_or(0))
        .collect();
    let st = &mut *ctx.regs;
    let surfaces: Vec<u32> = match m.surface {
        Some(DpSurfaceRef::State(w)) => vec![st.states[w as usize]; exec as usize],
        _ => Vec::new(),
    };
    let sender = Sender {
        inst: Inst::from_u32(ctx.line),
        span: Span::new(ctx.line, 0),
        op: IntrinsicOp::for_dp_msg(desc.msg),
        invocations: &invocations,
    };
    let msg = DpMessage::new(sender, desc, caps, ctx.chen, &surfaces)?;
    let grf = ctx.grf;
    let chen = ctx.chen;
    let esz = data_esz(m);
    let nch = m.channels.count_ones();
    let comps = if m.op.has_channels() { nch as usize } else { 1 };
    let mut out = vec![0u64; exec as usize * comps];
    match m.op {
        DpOpcode::Gather4Typed | DpOpcode::Scatter4Typed | DpOpcode::TypedAtomic => {
            let c: Vec<Vec<u64>> = (0..4)
                .map(|k| lanes_or_zero(st, m.addr.get(k).copied().flatten(), 4, exec))
                .collect();
            let coords = Coords {
                u: Lanes::new(&c[0], 1),
                v: Lanes::new(&c[1], 1),
                r: Lanes::new(&c[2], 1),
                lod: Lanes::new(&c[3], 1),
            };
            match m.op {
                DpOpcode::Gather4Typed => {
                    typed::read(mem, &msg, coords, &mut LanesMut::new(&mut out, comps))?
                }
                DpOpcode::Scatter4Typed => {
                    let data = write_data(st, m, exec, grf, esz);
                    typed::write(mem, &msg, coords, Lanes::new(&data, comps))?;
                }
                _ => {
                    let (s0, s1) = atomic_operands(st, m, exec, esz);
                    typed::atomic(
                        mem,
                        &msg,
                        coords,
                        Lanes::new(&s0, 1),
                        Lanes::new(&s1, 1),
                        &mut LanesMut::new(&mut out, 1),
                    )?;
                }
            }
        }
        _ => {
            let addrs = addresses(m, st, exec);
            let addr = Lanes::new(&addrs, 1);
            let mut dest = LanesMut::new(&mut out, comps);
            match desc.msg {
                DpMsg::UntypedRead => untyped::read(mem, &msg, addr, &mut dest)?,
                DpMsg::UntypedWrite => {
                    let data = write_data(st, m, exec, grf, esz);
                    untyped::write(mem, &msg, addr, Lanes::new(&data, comps))?;
                }
                DpMsg::UntypedAtomic => {
                    let (s0, s1) = atomic_operands(st, m, exec, esz);
                    let (s0, s1) = (Lanes::new(&s0, 1), Lanes::new(&s1, 1));
                    untyped::atomic(mem, &msg, addr, s0, s1, &mut dest)?;
                }
                DpMsg::ByteScatteredRead | DpMsg::DwordScatteredRead => {
                    untyped::scattered_read(mem, &msg, addr, &mut dest)?
                }
                _ => {
                    let data = write_data(st, m, exec, grf, esz);
                    untyped::scattered_write(mem, &msg, addr, Lanes::new(&data, 1))?;
                }
            }
        }
    }
    if let (true, Some(d)) = (m.op.has_dst(), m.dst) {
        let lanes: Vec<Vec<u64>> = out.chunks(comps).map(<[u64]>::to_vec).collect();
        let elem = if m.op.has_channels() { 4 } else { esz };
        write_simt(st, d, elem, grf, chen, &lanes);
    }
    Ok(())
}

/// `oword_ld`: the dwords of `num_blocks` owords from byte `16 * offset` of the
/// surface, in order from the destination's first byte, whatever the execution mask.
/// Each dword is read as the untyped read of one channel on the message's first lane,
/// so that the bounds check and the access log are the untyped messages': a dword
/// outside the buffer reads 0 (`OWORD_LD.md`: "On read: zeros are returned"), and the
/// reads are a uniform load, made for every active lane ([`super::port`]). The
/// hardware checks bounds per oword; a driver that binds a UBO's range rounded up to
/// whole owords and more (`visa/ABI.md`) sees no difference.
fn oword_load(
    mem: &mut Memory,
    caps: DataportCaps,
    m: &XDataport,
    ctx: &mut MessageCtx<'_>,
) -> Result<(), EnvError> {
    let desc = desc_of(m);
    let invocations = [ctx.invocations.first().copied().unwrap_or(0)];
    let st = &mut *ctx.regs;
    let Some(DpSurfaceRef::State(w)) = m.surface else {
        return Err(MessageError::illegal(
            "`oword_ld` reads a binding-table surface",
        ));
    };
    let surfaces = [st.states[w as usize]];
    let base = m.offset.map_or(0, |o| o.value(st) as u64).wrapping_mul(16);
    // One message for every dword: the sender, descriptor and surface are the same for
    // all of them, and `DpMessage::new` runs the legality check and formats a string.
    // The reader takes 1, 2, 4 or 8 owords, so an illegal message still fails.
    let sender = Sender {
        inst: Inst::from_u32(ctx.line),
        span: Span::new(ctx.line, 0),
        op: IntrinsicOp::for_dp_msg(desc.msg),
        invocations: &invocations,
    };
    let msg = DpMessage::new(sender, desc, caps, 1, &surfaces)?;
    for k in 0..4 * u32::from(m.num_blocks) {
        let addr = [base.wrapping_add(4 * u64::from(k)) & 0xffff_ffff];
        let mut out = [0u64];
        untyped::read(
            mem,
            &msg,
            Lanes::new(&addr, 1),
            &mut LanesMut::new(&mut out, 1),
        )?;
        if let Some(d) = m.dst {
            st.write(d.start + 4 * k, 4, out[0]);
        }
    }
    Ok(())
}

/// The data of a write, lane after lane: each lane's enabled channels (four-channel
/// messages) or its one element of `esz` bytes.
fn write_data(st: &RegState, m: &XDataport, exec: u32, grf: u32, esz: u32) -> Vec<u64> {
    let src = m.srcs.first().copied().flatten();
    if !m.op.has_channels() {
        return lanes_or_zero(st, src, esz, exec);
    }
    let nch = m.channels.count_ones();
    match src {
        Some(r) => read_simt(st, r, exec, 4, nch, grf)
            .into_iter()
            .flatten()
            .collect(),
        None => vec![0; (exec * nch) as usize],
    }
}

/// The hardware's `src0`, `src1` of an atomic (vISA's `cmpxchg` swapped).
fn atomic_operands(st: &RegState, m: &XDataport, exec: u32, esz: u32) -> (Vec<u64>, Vec<u64>) {
    let get = |k: usize| lanes_or_zero(st, m.srcs.get(k).copied().flatten(), esz, exec);
    let (a, b) = (get(0), get(1));
    match m.atomic.map(hardware_atomic) {
        Some((_, true)) => (b, a),
        _ => (a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::payload::XMessage;
    use crate::visa::program::Program;
    use crate::visa::reader::read;
    use crate::visa::run::{MessagePort, RunConfig, Stop, Thread, ThreadInit};
    use crate::visa::testing::{elems, kernel, words};
    use std::sync::Arc;

    /// A port that runs data-port messages only (the memory port is the one of
    /// `super::port`, which hands them here).
    struct DpPort<'m> {
        mem: &'m mut Memory,
        caps: Option<DataportCaps>,
    }

    impl MessagePort for DpPort<'_> {
        fn message(
            &mut self,
            msg: &XMessage,
            ctx: &mut MessageCtx<'_>,
        ) -> Result<(), Arc<dyn std::error::Error + Send + Sync>> {
            let XMessage::Dataport(d) = msg else {
                panic!("a data-port message, not {msg:?}");
            };
            run_dataport(self.mem, self.caps, d, ctx).map_err(|e| Arc::new(e) as Arc<_>)
        }
    }

    fn caps(gen: tiling::Gen) -> Option<DataportCaps> {
        DataportCaps::for_gen(gen)
    }

    /// Runs `body` (SIMD 8, 32-byte registers) with `B` (uq) = `base` as input at byte
    /// 32, on `mem` with the data port of `gen`.
    fn run_on(
        mem: &mut Memory,
        gen: tiling::Gen,
        decls: &str,
        body: &str,
        base: u64,
    ) -> Result<(Program, Thread), crate::visa::error::VisaError> {
        let decls =
            format!(".decl B v_type=G type=uq num_elts=1\n.input B offset=32 size=8\n{decls}");
        let text = kernel(8, &decls, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut payload = vec![0u8; 64];
        payload[32..40].copy_from_slice(&base.to_le_bytes());
        let config = RunConfig {
            dataport: caps(gen),
            ..RunConfig::default()
        };
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        t.invocations = (100..108).collect();
        let mut port = DpPort {
            mem,
            caps: config.dataport,
        };
        let stop = t.run(&program, &mut port, &config)?;
        assert_eq!(stop, Stop::Done);
        Ok((program, t))
    }

    const DECLS: &str = ".decl L v_type=G type=uw num_elts=8\n\
        .decl O v_type=G type=ud num_elts=8\n\
        .decl A v_type=G type=uq num_elts=8\n\
        .decl V v_type=G type=ud num_elts=32\n\
        .decl R v_type=G type=ud num_elts=32\n\
        .decl RQ v_type=G type=uq num_elts=8 alias=<R, 0>\n\
        .decl P1 v_type=P num_elts=8\n\
        .decl T6 v_type=T num_elts=1";

    /// Lane ids in L; O = 4 * lane; A = B + 4 * lane.
    const LANES: &str = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
        shl (M1, 8) O(0,0)<1> L(0,0)<1;1,0> 2:ud\n\
        add (M1, 8) A(0,0)<1> B(0,0)<0;1,0> O(0,0)<1;1,0>";

    /// A buffer of `n` bytes `0, 1, 2, ...` bound at binding-table index 5.
    fn buffer(mem: &mut Memory, n: usize) -> crate::memory::AllocId {
        let id = mem
            .bind_buffer_image(
                5,
                "buf",
                n as u64 / 4,
                ir::Format::R32Uint,
                tiling::Format::R32_UINT,
            )
            .unwrap();
        for (k, b) in mem.allocation_mut(id).bytes.iter_mut().enumerate() {
            *b = k as u8;
        }
        id
    }

    #[test]
    fn svm_messages_read_write_and_swap_cmpxchg_operands() {
        let mut mem = Memory::new();
        let id = mem.alloc("buf", vec![0; 128]);
        let base = mem.allocation(id).base;
        // svm_scatter4scaled.RG at B + 4 lane + 16 (the base address operand): lane n
        // writes 10 + n (R) at byte 16 + 4n and 20 + n (G) at 20 + 4n, the dword R of
        // lane n + 1 would take. Odd lanes only (a predicate), so no two lanes meet.
        let body = format!(
            "{LANES}\nadd (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 10:ud\n\
             add (M1, 8) V(1,0)<1> L(0,0)<1;1,0> 20:ud\n\
             setp (M1_NM, 8) P1 0xaa:uw\n\
             (P1) svm_scatter4scaled.RG (M1, 8) 0x10:uq A.0 V.0\n\
             svm_gather4scaled.GB (M1, 8) 0x10:uq A.0 R.0"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, base).unwrap();
        // Dwords 4.. : lane 1 writes 11 at 4+1, 21 at 4+2; lane 3: 13 at 7, 23 at 8 ...
        assert_eq!(
            words(&mem, id, 13),
            [0, 0, 0, 0, 0, 11, 21, 13, 23, 15, 25, 17, 27]
        );
        // G (dword 5 + n) in R's first register, B (dword 6 + n) in its second.
        let r = elems(&p, &t, "R");
        assert_eq!(&r[..8], [11, 21, 13, 23, 15, 25, 17, 27]);
        assert_eq!(&r[8..16], [21, 13, 23, 15, 25, 17, 27, 0]);
        // cmpxchg: vISA's src0 is the new value, src1 the compare value. Lanes whose
        // dword holds 4n + 0x100 (even lanes) swap in 77.
        let mut mem = Memory::new();
        let init: Vec<u8> = (0..8u32)
            .flat_map(|n| (if n % 2 == 0 { 4 * n + 0x100 } else { 1 }).to_le_bytes())
            .collect();
        let id = mem.alloc("buf", init);
        let base = mem.allocation(id).base;
        let body = format!(
            "{LANES}\nadd (M1, 8) V(0,0)<1> O(0,0)<1;1,0> 0x100:ud\n\
             mov (M1, 8) V(1,0)<1> 77:ud\n\
             svm_atomic.cmpxchg (M1, 8) A.0 R.0 V.32 V.0"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, base).unwrap();
        assert_eq!(words(&mem, id, 8), [77, 1, 77, 1, 77, 1, 77, 1]);
        assert_eq!(
            &elems(&p, &t, "R")[..8],
            [0x100, 1, 0x108, 1, 0x110, 1, 0x118, 1]
        );
    }

    #[test]
    fn svm_64_bit_atomics_and_byte_scattered() {
        // svm_atomic.max.64 (unsigned): every lane at B; the old values are the running
        // maxima, in lane order. Lane n offers (n << 32) | (7 - n).
        let mut mem = Memory::new();
        let id = mem.alloc("buf", vec![0; 16]);
        let base = mem.allocation(id).base;
        let body = "mov (M1, 8) L(0,0)<1> 0x25370416:uv\n\
             mov (M1, 8) A(0,0)<1> B(0,0)<0;1,0>\n\
             mov (M1, 8) RQ(0,0)<1> L(0,0)<1;1,0>\n\
             shl (M1, 8) RQ(0,0)<1> RQ(0,0)<1;1,0> 32:ud\n\
             svm_atomic.max.64 (M1, 8) A.0 RQ.0 RQ.0 %null.0\n\
             svm_atomic.inc (M1, 8) A.0 %null.0 %null.0 %null.0";
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, body, base).unwrap();
        // Offers 6, 1, 4, 0, 7, 3, 5, 2 (each << 32): old = 0, 6, 6, 6, 6, 7, 7, 7.
        let rq = elems(&p, &t, "RQ");
        let old: Vec<u64> = rq.iter().map(|v| v >> 32).collect();
        assert_eq!(old, [0, 6, 6, 6, 6, 7, 7, 7]);
        // A %null destination still performs the atomic: eight 32-bit increments of
        // the low dword.
        assert_eq!(
            u64::from_le_bytes(mem.allocation(id).bytes[..8].try_into().unwrap()),
            (7 << 32) + 8
        );
        // svm_gather.1.2: two bytes at B + 4n + 1 in the low half of each dword, the
        // upper half undefined (0xA5 here); svm_scatter.1.1 writes each lane's low byte.
        let mut mem = Memory::new();
        let id = mem.alloc("buf", (0..64u8).collect());
        let base = mem.allocation(id).base + 1;
        let body = format!(
            "{LANES}\nsvm_gather.1.2 (M1, 8) A.0 R.0\n\
             add (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 0x1f0:ud\n\
             svm_scatter.1.1 (M1, 8) A.0 V.0"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, base).unwrap();
        assert_eq!(
            &elems(&p, &t, "R")[..3],
            [0xa5a5_0201, 0xa5a5_0605, 0xa5a5_0a09]
        );
        assert_eq!(
            &mem.allocation(id).bytes[..10],
            [0, 0xf0, 2, 3, 4, 0xf1, 6, 7, 8, 0xf2]
        );
    }

    #[test]
    fn oword_block_reads_fill_consecutive_bytes_whatever_the_mask() {
        let mut mem = Memory::new();
        buffer(&mut mem, 256);
        // oword_ld (4) at oword 2: bytes 0x20..0x60 into R's first two registers;
        // (1) at oword 15: bytes 0xf0..0x100 into R's third, whose upper half keeps
        // its bytes; (2) at oword 15: 0xf0..0x100, then past the 256-byte buffer,
        // zeros (the offset from a register).
        let body = "movs (M1_NM, 1) T6(0) 0x5:ud\n\
             mov (M1_NM, 8) R(2,0)<1> 0x77:ud\n\
             oword_ld (4) T6 0x2:ud R.0\n\
             oword_ld (1) T6 0xf:ud R.64\n\
             mov (M1_NM, 8) O(0,0)<1> 0xf:ud\n\
             oword_ld (2) T6 O(0,0)<0;1,0> R.96";
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, body, 0).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(r[0], 0x2322_2120);
        assert_eq!(r[15], 0x5f5e_5d5c);
        assert_eq!(
            &r[16..20],
            [0xf3f2_f1f0, 0xf7f6_f5f4, 0xfbfa_f9f8, 0xfffe_fdfc]
        );
        assert_eq!(&r[20..24], [0x77; 4]);
        assert_eq!(
            &r[24..28],
            [0xf3f2_f1f0, 0xf7f6_f5f4, 0xfbfa_f9f8, 0xfffe_fdfc]
        );
        assert_eq!(&r[28..32], [0; 4]);
    }

    #[test]
    fn oword_block_reads_need_a_surface_and_a_register_start() {
        for (body, what) in [
            ("oword_ld (2) %slm 0x0:ud R.0", "binding-table surface"),
            (
                "movs (M1_NM, 1) T6(0) 0x5:ud\noword_ld (1) T6 0x0:ud R.16",
                "starts a register",
            ),
        ] {
            let text = kernel(8, DECLS, body);
            let e = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap_err();
            assert!(e.to_string().contains(what), "{body}: {e}");
        }
    }

    #[test]
    fn surface_messages_take_the_global_offset_and_the_binding_table_index() {
        let mut mem = Memory::new();
        let id = buffer(&mut mem, 256);
        // gather4_scaled.R at 0x40 + 4n; gather_scaled.1 at 0x40 + 4n + 3; gather.4
        // counts dwords: (0x10 + n) * 4; dword_atomic.add adds 0x01010101.
        let body = format!(
            "{LANES}\nmovs (M1_NM, 1) T6(0) 0x5:ud\n\
             gather4_scaled.R (M1, 8) T6 0x40:ud O.0 R.0\n\
             gather_scaled.1 (M1, 8) T6 0x43:ud O.0 R.32\n\
             mov (M1, 8) V(0,0)<1> L(0,0)<1;1,0>\n\
             gather.4 (M1, 8) T6 0x10:ud V.0 R.64\n\
             mov (M1, 8) V(1,0)<1> 0x01010101:ud\n\
             dword_atomic.add (M1, 8) T6 O.0 V.32 %null.0 R.96"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx12, DECLS, &body, 0).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(r[0], 0x4342_4140);
        assert_eq!(r[1], 0x4746_4544);
        assert_eq!(r[8], 0xa5a5_a543);
        assert_eq!(r[9], 0xa5a5_a547);
        assert_eq!(r[16], 0x4342_4140);
        assert_eq!(r[24], 0x0302_0100);
        assert_eq!(r[31], 0x1f1e_1d1c);
        assert_eq!(words(&mem, id, 2), [0x0403_0201, 0x0807_0605]);
        // Out of bounds (past the 256-byte buffer) a read returns 0 and a write is
        // dropped: scatter4_scaled.R at 0xf8 + 4n writes lanes 0 and 1 only.
        let mut mem = Memory::new();
        let id = buffer(&mut mem, 256);
        let body = format!(
            "{LANES}\nmovs (M1_NM, 1) T6(0) 0x5:ud\n\
             mov (M1, 8) V(0,0)<1> 0x99:ud\n\
             scatter4_scaled.R (M1, 8) T6 0xf8:ud O.0 V.0\n\
             gather4_scaled.R (M1, 8) T6 0xf8:ud O.0 R.0"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, 0).unwrap();
        assert_eq!(&elems(&p, &t, "R")[..4], [0x99, 0x99, 0, 0]);
        assert_eq!(
            &mem.allocation(id).bytes[0xf8..0x100],
            [0x99, 0, 0, 0, 0x99, 0, 0, 0]
        );
    }

    #[test]
    fn typed_messages_read_and_write_texels_through_the_surface_format() {
        // A 4x2 R32_UINT image at index 5: texel (x, y) holds 10 * y + x. gather4_typed
        // reads R (and G, B, A of a format without them: 0, 0, 1); lanes 4-7 ask for
        // x = 4..7, outside: zeros (0, 0, 1 in G, B, A as for any missing channel).
        let desc = tiling::SurfaceDesc::new(
            tiling::Gen::Gfx9,
            tiling::SurfDim::D2,
            tiling::Format::R32_UINT,
            tiling::Tiling::Linear,
        )
        .extent(4, 2, 1);
        let surface = tiling::Surface::new(desc).unwrap();
        let view = tiling::ImageView::level(&surface, 0);
        let at = |x: u32, y: u32| {
            surface
                .texel_offset(x, y, 0, 0, tiling::Bit6Swizzle::None)
                .unwrap() as usize
        };
        let offsets: Vec<usize> = (0..8).map(|k| at(k % 4, k / 4)).collect();
        let mut mem = Memory::new();
        let id = mem
            .bind_surface_image(
                5,
                "img",
                surface,
                view,
                ir::Format::R32Uint,
                tiling::Format::R32_UINT,
                tiling::Bit6Swizzle::None,
            )
            .unwrap();
        let texel = |mem: &Memory, k: usize| {
            let b = &mem.allocation(id).bytes[offsets[k]..offsets[k] + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        for (k, &o) in offsets.iter().enumerate() {
            let v = 10 * (k as u32 / 4) + k as u32 % 4;
            mem.allocation_mut(id).bytes[o..o + 4].copy_from_slice(&v.to_le_bytes());
        }
        // U = lane, V = 1; R then A in two registers.
        let body = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
             mov (M1, 8) O(0,0)<1> L(0,0)<1;1,0>\n\
             mov (M1, 8) V(0,0)<1> 1:ud\n\
             movs (M1_NM, 1) T6(0) 0x5:ud\n\
             gather4_typed.RA (M1, 8) T6 O.0 V.0 %null.0 %null.0 R.0\n\
             mov (M1, 8) V(1,0)<1> 0x55:ud\n\
             scatter4_typed.R (M1, 8) T6 O.0 %null.0 %null.0 %null.0 V.32\n\
             typed_atomic.inc (M1, 8) T6 O.0 V.0 %null.0 %null.0 %null.0 %null.0 R.64";
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, body, 0).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(&r[..8], [10, 11, 12, 13, 0, 0, 0, 0]);
        assert_eq!(&r[8..16], [1; 8]);
        // The atomic returned the old row 1 (zeros outside) and incremented it.
        assert_eq!(&r[16..24], [10, 11, 12, 13, 0, 0, 0, 0]);
        let all: Vec<u32> = (0..8).map(|k| texel(&mem, k)).collect();
        assert_eq!(all, [0x55, 0x55, 0x55, 0x55, 11, 12, 13, 14]);
    }

    #[test]
    fn gather_and_scatter_count_offsets_in_elements() {
        // scatter.4 on %slm stores n + 7 at dword 2 + n (global offset 2, element
        // offset n); gather.2 reads the word at (4 + n) * 2 = byte 8 + 2n, its upper
        // half undefined; gather.4 the dword 1 + n.
        let mut mem = Memory::new();
        mem.begin_workgroup(0, 64);
        let body = format!(
            "{LANES}\nmov (M1, 8) V(0,0)<1> L(0,0)<1;1,0>\n\
             add (M1, 8) V(1,0)<1> L(0,0)<1;1,0> 7:ud\n\
             scatter.4 (M1, 8) %slm 0x2:ud V.0 V.32\n\
             gather.2 (M1, 8) %slm 0x4:ud V.0 R.0\n\
             gather.4 (M1, 8) %slm 0x1:ud V.0 R.32"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, 0).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(
            &r[..8],
            [
                0xa5a5_0007,
                0xa5a5_0000,
                0xa5a5_0008,
                0xa5a5_0000,
                0xa5a5_0009,
                0xa5a5_0000,
                0xa5a5_000a,
                0xa5a5_0000
            ]
        );
        assert_eq!(&r[8..16], [0, 7, 8, 9, 10, 11, 12, 13]);
        // The surface form is the dword scattered message: a misaligned byte address
        // cannot arise (offsets count dwords), and an offset past the buffer reads 0.
        let mut mem = Memory::new();
        buffer(&mut mem, 256);
        let body = format!(
            "{LANES}\nmovs (M1_NM, 1) T6(0) 0x5:ud\n\
             mov (M1, 8) V(0,0)<1> L(0,0)<1;1,0>\n\
             gather.4 (M1, 8) T6 0x3c:ud V.0 R.0"
        );
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, 0).unwrap();
        assert_eq!(
            &elems(&p, &t, "R")[..8],
            [
                0xf3f2_f1f0,
                0xf7f6_f5f4,
                0xfbfa_f9f8,
                0xfffe_fdfc,
                0,
                0,
                0,
                0
            ]
        );
    }

    #[test]
    fn what_the_generation_lacks_is_an_error_of_the_line() {
        // 16-bit atomics are Tiger Lake's; Skylake refuses them, and a run without a
        // generation runs no data-port message.
        let mut mem = Memory::new();
        mem.begin_workgroup(0, 64);
        let body = format!("{LANES}\ndword_atomic.inc.16 (M1, 8) %slm O.0 %null.0 %null.0 R.0");
        let Err(e) = run_on(&mut mem, tiling::Gen::Gfx9, DECLS, &body, 0) else {
            panic!("SKL has no 16-bit atomics");
        };
        assert!(
            matches!(e.kind, crate::visa::error::ErrorKind::Message { .. }),
            "{e}"
        );
        // .version, .kernel, B and its .input, eight .decl, .kernel_attr, .function,
        // main:, the three lines of LANES, the atomic.
        assert_eq!(e.line, 19);
        let (p, t) = run_on(&mut mem, tiling::Gen::Gfx12, DECLS, &body, 0).unwrap();
        // 16-bit: the old word in the low half, the upper half undefined.
        assert_eq!(elems(&p, &t, "R")[1], 0xa5a5_0000);
        assert_eq!(&mem.shared_mut()[..4], [1, 0, 0, 0]);
    }
}
