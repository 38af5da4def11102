//! The vISA interpreter's message instructions bound to the executor's message
//! semantics ([`crate::messages`]; the legacy data-port messages through
//! [`super::port_dataport`]): the registers of a message become plain per-lane
//! values (the layouts of [`super::payload`]), the semantics run on the [`Memory`], and
//! the results go back to the registers of the channels the message served.
//!
//! The same functions serve the lowered IR's message intrinsics, so the two legs of the
//! verifier share every rule of what a message does to memory.
//!
//! * The access log names a vISA message by its line: the access context's span is
//!   `(line, 0)` and its instruction the line number.
//! * A stateful surface (`bti(..)`, `ss(..)`, `bss(..)`, a sampler's surface) is the
//!   value of its operand, taken as the binding-table index the memory binds the image
//!   at; the back end's inputs give bindless handles those values.
//! * Except the thread's scratch: `%scratch` data-port messages, and `ss(..)` LSC
//!   messages whose handle is a scratch surface, reach the thread's own scratch space
//!   ([`super::scratch`]), not the memory, and are not logged.
//! * The immediate address scale multiplies each address before the semantics add the
//!   immediate offset (`AddrScale * addr + AddrImmOffset`).
//! * Only the served channels of a load's destination are written; a destination of
//!   `%null` still performs the access (a prefetch).
//! * `aoffimmi`'s bits 11:0 are `sample_l`'s and `sample4`'s texel offsets (U, V, R,
//!   4-bit signed); the loads have none modelled, and an offset there is an error.
//!   Bit 15 is IGC's mark of a sampler index from 16 on, which the finalizer reaches through the message header: the
//!   sampler variable's value is then the whole index. Without it an index from 16 on
//!   does not fit the descriptor and is an error.
//! * `sample_l`'s sampler state is the one the memory binds at the sampler variable's
//!   value (the driver's sampler table, `visa/ABI.md`), as the IR message's `sampler`
//!   index names it.
//! * `load_mcs` and `load_2dms_w` run the IR's `@sampler_ld_mcs` and
//!   `@sampler_ld2dms_w` semantics: the memory binds surfaces without an MCS, so
//!   `load_mcs` returns 0 and `load_2dms_w` reads sample `si` of its texel whatever
//!   its `mcsl` and `mcsh`.

use super::convert::int_value;
use super::listing::{LscOp, SamplerOp};
use super::payload::{
    addr_bytes, block_bytes, read_bytes, read_lanes, read_simt, read_transposed, reg_bytes,
    write_bytes, write_simt, write_transposed, DpSurfaceRef, RawRef, ScalarRef, XAddr, XLsc,
    XMessage, XSampler, XShape,
};
use super::port_dataport::run_dataport;
use super::run::{MessageCtx, MessagePort};
use super::types::VType;
use crate::memory::{Access, AccessCtx, AccessKind, Memory};
use crate::messages::block2d::{load_untyped, store_untyped, Block2d, UntypedBlock};
use crate::messages::lanes::{Lanes, LanesMut, Sender};
use crate::messages::lsc::{LscMessage, Message};
use crate::messages::sample::{gather4, sample_l, SampleMessage};
use crate::messages::sampler::{ld, ld2dms_w, ld_mcs, resinfo, ResinfoMessage, SamplerMessage};
use crate::messages::{typed, untyped};
use ir::interp::EnvError;
use ir::lsc::{AddrType, Block2dDesc, LscDesc, Sfid};
use ir::{BaseType, Inst, IntrinsicOp, Span};
use lowering::messages::dataport::DataportCaps;
use std::fmt;
use std::sync::Arc;

/// Why a message cannot run through the shared semantics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortError {
    /// Why.
    pub reason: String,
}

impl fmt::Display for PortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for PortError {}

type PortResult = Result<(), Arc<dyn std::error::Error + Send + Sync>>;

fn fail(reason: impl Into<String>) -> Arc<dyn std::error::Error + Send + Sync> {
    Arc::new(PortError {
        reason: reason.into(),
    })
}

fn env(e: EnvError) -> Arc<dyn std::error::Error + Send + Sync> {
    Arc::new(e)
}

/// Message instructions run on a [`Memory`]. The access log records, for each lane,
/// the invocation its thread's channel serves ([`MessageCtx::invocations`]; channels
/// past its end log invocation 0).
pub struct MemoryPort<'m> {
    /// The memory.
    pub mem: &'m mut Memory,
    /// The legacy data port of the generation the kernel runs on, which runs its
    /// data-port messages ([`super::port_dataport`]); `None` runs none.
    pub dataport: Option<DataportCaps>,
}

impl<'m> MemoryPort<'m> {
    /// A port on `mem` without a data port.
    pub fn new(mem: &'m mut Memory) -> MemoryPort<'m> {
        MemoryPort {
            mem,
            dataport: None,
        }
    }

    /// The port with the legacy data port `caps`.
    pub fn with_dataport(self, caps: Option<DataportCaps>) -> MemoryPort<'m> {
        MemoryPort {
            dataport: caps,
            ..self
        }
    }
}

/// The IR intrinsic a vISA LSC operation corresponds to (the access log's opcode).
fn intrinsic(op: LscOp) -> IntrinsicOp {
    match op {
        LscOp::Load => IntrinsicOp::LscLoad,
        LscOp::LoadQuad => IntrinsicOp::LscLoadQuad,
        LscOp::LoadStrided => IntrinsicOp::LscLoadStrided,
        LscOp::LoadBlock2d => IntrinsicOp::LscLoadBlock2d,
        LscOp::Store => IntrinsicOp::LscStore,
        LscOp::StoreQuad => IntrinsicOp::LscStoreQuad,
        LscOp::StoreStrided => IntrinsicOp::LscStoreStrided,
        LscOp::StoreBlock2d => IntrinsicOp::LscStoreBlock2d,
        LscOp::Atomic(_) => IntrinsicOp::LscAtomic,
    }
}

/// The per-lane values of a sampler coordinate: signed types sign-extended.
fn coord_lanes(st: &super::regfile::RegState, raw: RawRef, exec: u32) -> Vec<u64> {
    let esz = raw.ty.size();
    read_lanes(st, raw.start, esz, exec)
        .into_iter()
        .map(|b| int_value(b, raw.ty) as i64 as u64)
        .collect()
}

/// `vals[n]` flattened lane after lane.
fn flat(vals: Vec<Vec<u64>>) -> Vec<u64> {
    vals.into_iter().flatten().collect()
}

/// Splits a flat result (`comps` per lane) into lanes.
fn lanes_of(flat: &[u64], comps: usize) -> Vec<Vec<u64>> {
    flat.chunks(comps.max(1)).map(<[u64]>::to_vec).collect()
}

/// The invocations of channels `first .. first + exec` of a thread whose channels serve
/// `inv` (0 past its end): the message's lanes, as many as its SIMD width.
fn lane_invocations(inv: &[u32], first: u32, exec: u32) -> Vec<u32> {
    (first..first + exec)
        .map(|c| inv.get(c as usize).copied().unwrap_or(0))
        .collect()
}

/// The sender of a message at `line` whose lanes run `invocations`.
fn sender(invocations: &[u32], op: IntrinsicOp, line: u32) -> Sender<'_> {
    Sender {
        inst: Inst::from_u32(line),
        span: Span::new(line, 0),
        op,
        invocations,
    }
}

impl MemoryPort<'_> {
    fn lsc(&mut self, m: &XLsc, ctx: &mut MessageCtx<'_>) -> PortResult {
        let op = intrinsic(m.op);
        let exec = u32::from(m.exec.size);
        let invocations = lane_invocations(ctx.invocations, u32::from(m.exec.offset), exec);
        let grf = ctx.grf;
        let line = ctx.line;
        if let XShape::Block(size, shape) = m.shape {
            return self.block2d(m, op, size, shape, ctx);
        }
        let XShape::Vector(shape) = m.shape else {
            return Ok(());
        };
        let XAddr::Vector {
            model,
            surface,
            scale,
            offset,
            size,
            regs,
            stride,
        } = &m.addr
        else {
            return Err(fail("a vector LSC message has a 2D block address"));
        };
        let offset = i32::try_from(*offset).map_err(|_| {
            fail(format!(
                "the immediate offset {offset} does not fit 32 bits"
            ))
        })?;
        let mut desc = LscDesc::new(m.sfid, *model, *size, shape).with_offset(offset);
        if let LscOp::Atomic(a) = m.op {
            desc = desc.with_atomic(a);
        }
        let desc = LscMessage::from_desc(op, &desc).map_err(env)?;
        let st = &mut *ctx.regs;
        let surface_value = surface.map(|s| s.value(st) as u32);
        if super::scratch::is_scratch_lsc(m, surface_value, ctx.scratch) {
            let handle = surface_value.unwrap_or(0);
            return super::scratch::run_lsc(
                m,
                handle,
                &mut super::scratch::ScratchCtx {
                    regs: ctx.regs,
                    chen: ctx.chen,
                    grf: ctx.grf,
                    scratch: ctx.scratch,
                },
            );
        }
        let st = &mut *ctx.regs;
        let stateful = m.sfid == Sfid::Tgm || (*model != AddrType::Flat && m.sfid != Sfid::Slm);
        let surfaces: Vec<u32> = match (stateful, surface_value) {
            (true, Some(b)) => vec![b; exec as usize],
            (true, None) => return Err(fail("a stateful message without a surface")),
            (false, _) => Vec::new(),
        };
        let esz = reg_bytes(shape.size);
        let comps = usize::from(shape.components());
        let abytes = addr_bytes(*size);
        let chen = ctx.chen;
        // The data operand of a store, or the sources of an atomic.
        let data_in = |st: &super::regfile::RegState, raw: Option<RawRef>| -> Vec<u64> {
            match raw {
                None => vec![0; exec as usize * comps],
                Some(r) if shape.transpose => read_transposed(st, r, esz, comps as u32),
                Some(r) => flat(read_simt(st, r, exec, esz, comps as u32, grf)),
            }
        };
        let write_back = |st: &mut super::regfile::RegState, out: &[u64]| {
            if let Some(r) = m.data {
                if shape.transpose {
                    if chen & 1 != 0 {
                        write_transposed(st, r, esz, &out[..comps.min(out.len())]);
                    }
                } else {
                    write_simt(st, r, esz, grf, chen, &lanes_of(out, comps));
                }
            }
        };
        let mut out = vec![0u64; exec as usize * comps.max(1)];
        if m.sfid == Sfid::Tgm {
            let coords: Vec<Vec<u64>> = (0..4)
                .map(|k| match regs.get(k) {
                    Some(r) => read_lanes(st, r.start, 4, exec),
                    None => vec![0; exec as usize],
                })
                .collect();
            let c = typed::Coords {
                u: Lanes::new(&coords[0], 1),
                v: Lanes::new(&coords[1], 1),
                r: Lanes::new(&coords[2], 1),
                lod: Lanes::new(&coords[3], 1),
            };
            let msg = Message {
                sender: sender(&invocations, op, line),
                desc,
                enabled: chen,
                surfaces: &surfaces,
            };
            match m.op {
                LscOp::LoadQuad => {
                    typed::load_quad(self.mem, &msg, c, &mut LanesMut::new(&mut out, comps))
                        .map_err(env)?;
                    write_back(st, &out);
                }
                LscOp::StoreQuad => {
                    let data = data_in(st, m.data);
                    typed::store_quad(self.mem, &msg, c, Lanes::new(&data, comps)).map_err(env)?;
                }
                _ => {
                    let (s1, s2) = (data_in(st, m.src1), data_in(st, m.src2));
                    typed::atomic(
                        self.mem,
                        &msg,
                        c,
                        Lanes::new(&s1, 1),
                        Lanes::new(&s2, 1),
                        &mut LanesMut::new(&mut out, 1),
                    )
                    .map_err(env)?;
                    write_back(st, &out);
                }
            }
            return Ok(());
        }
        let addr_reg = regs
            .first()
            .copied()
            .ok_or_else(|| fail("an LSC message without an address register"))?;
        let scaled = |a: u64| a.wrapping_mul(*scale as u64);
        let msg = Message {
            sender: sender(&invocations, op, line),
            desc,
            enabled: chen,
            surfaces: &surfaces,
        };
        match m.op {
            LscOp::LoadStrided | LscOp::StoreStrided => {
                let base = scaled(st.read(addr_reg.start, abytes));
                // "The stride defaults to the data width times the vector size."
                let pitch = match stride {
                    Some(s) => s.value(st) as u64,
                    None => u64::from(shape.size.mem_bytes()) * u64::from(shape.vect),
                };
                let (b, p) = (vec![base; exec as usize], vec![pitch; exec as usize]);
                if m.op == LscOp::LoadStrided {
                    untyped::load_strided(
                        self.mem,
                        &msg,
                        Lanes::new(&b, 1),
                        Lanes::new(&p, 1),
                        &mut LanesMut::new(&mut out, comps),
                    )
                    .map_err(env)?;
                    write_back(st, &out);
                } else {
                    let data = data_in(st, m.data);
                    untyped::store_strided(
                        self.mem,
                        &msg,
                        Lanes::new(&b, 1),
                        Lanes::new(&p, 1),
                        Lanes::new(&data, comps),
                    )
                    .map_err(env)?;
                }
            }
            _ => {
                let addrs: Vec<u64> = read_lanes(st, addr_reg.start, abytes, exec)
                    .into_iter()
                    .map(scaled)
                    .collect();
                let addr = Lanes::new(&addrs, 1);
                match m.op {
                    LscOp::Load | LscOp::LoadQuad => {
                        untyped::load(self.mem, &msg, addr, &mut LanesMut::new(&mut out, comps))
                            .map_err(env)?;
                        write_back(st, &out);
                    }
                    LscOp::Store | LscOp::StoreQuad => {
                        let data = data_in(st, m.data);
                        untyped::store(self.mem, &msg, addr, Lanes::new(&data, comps))
                            .map_err(env)?;
                    }
                    _ => {
                        let (s1, s2) = (data_in(st, m.src1), data_in(st, m.src2));
                        untyped::atomic(
                            self.mem,
                            &msg,
                            addr,
                            Lanes::new(&s1, 1),
                            Lanes::new(&s2, 1),
                            &mut LanesMut::new(&mut out, 1),
                        )
                        .map_err(env)?;
                        write_back(st, &out);
                    }
                }
            }
        }
        Ok(())
    }

    fn block2d(
        &mut self,
        m: &XLsc,
        op: IntrinsicOp,
        size: ir::lsc::DataSize,
        shape: ir::lsc::BlockShape,
        ctx: &mut MessageCtx<'_>,
    ) -> PortResult {
        let XAddr::Block2d(fields) = &m.addr else {
            return Err(fail("a 2D block message without its six payload fields"));
        };
        let desc = Block2d::from_desc(op, &Block2dDesc::new(m.sfid, size, shape)).map_err(env)?;
        let st = &mut *ctx.regs;
        let p: [u64; 6] = fields.map(|f: ScalarRef| f.value(st) as u64);
        let surf = UntypedBlock::from_payload(p);
        let invocations = lane_invocations(ctx.invocations, u32::from(m.exec.offset), 1);
        let sender = sender(&invocations, op, ctx.line);
        let raw = m.data;
        if desc.store {
            let Some(r) = raw else {
                return Err(fail("a 2D block store needs data"));
            };
            let mut bytes = read_bytes(st, r);
            bytes.resize(desc.untyped_store_bytes(), 0);
            store_untyped(self.mem, &sender, &desc, &surf, &bytes).map_err(env)?;
        } else {
            let bytes = load_untyped(self.mem, &sender, &desc, &surf).map_err(env)?;
            if let Some(r) = raw {
                write_bytes(st, r, &bytes);
            }
        }
        Ok(())
    }

    fn sampler(&mut self, s: &XSampler, ctx: &mut MessageCtx<'_>) -> PortResult {
        // Bit 15 of a sampling message's `aoffimmi` marks a sampler index from 16 on
        // (IGC's `isSamplerIdxLT16` and the finalizer's `IsSamplerIndexGE16`); bits
        // 11:0 are its texel offsets.
        if s.op.uses_sampler_state() {
            if s.aoffimmi & !(SAMPLER_INDEX_GE16 | 0xfff) != 0 {
                return Err(fail(format!(
                    "aoffimmi {:#x} sets reserved bits 14:12",
                    s.aoffimmi
                )));
            }
            return self.sample(s, ctx);
        }
        if s.aoffimmi != 0 {
            return Err(fail(format!(
                "texel offsets (aoffimmi {:#x}) on `{}`, which has none modelled",
                s.aoffimmi,
                s.op.visa_name()
            )));
        }
        let exec = u32::from(s.exec.size);
        let grf = ctx.grf;
        let st = &mut *ctx.regs;
        let binding = s.surface.value(st) as u32;
        let surfaces = vec![binding; exec as usize];
        let coord = |k: usize| match s.srcs.get(k) {
            Some(r) => coord_lanes(st, *r, exec),
            None => vec![0; exec as usize],
        };
        let comps = s.channels.count_ones() as usize;
        let invocations = lane_invocations(ctx.invocations, u32::from(s.exec.offset), exec);
        if s.op == SamplerOp::Resinfo {
            // INFO.md: the returned channels are 32-bit unsigned integers.
            if let Some(t) = s
                .dst
                .map(|d| d.ty)
                .filter(|t| !matches!(t, VType::Ud | VType::D))
            {
                return Err(fail(format!("a resinfo destination of type {t}")));
            }
            let lod = coord(0);
            let msg = ResinfoMessage {
                sender: sender(&invocations, IntrinsicOp::SamplerResinfo, ctx.line),
                enabled: ctx.chen,
                surfaces: &surfaces,
                channels: s.channels,
            };
            let mut out = vec![0u64; exec as usize * comps];
            resinfo(
                self.mem,
                &msg,
                Lanes::new(&lod, 1),
                &mut LanesMut::new(&mut out, comps),
            )
            .map_err(env)?;
            if let Some(d) = s.dst {
                write_simt(st, d, 4, grf, ctx.chen, &lanes_of(&out, comps));
            }
            return Ok(());
        }
        let (dest_bits, dest_base) = match s.dst.map(|d| d.ty) {
            None | Some(VType::F) => (32, BaseType::Float),
            Some(VType::Hf) => (16, BaseType::Float),
            Some(VType::D) => (32, BaseType::Int),
            Some(VType::Ud) => (32, BaseType::Uint),
            Some(VType::W) => (16, BaseType::Int),
            Some(VType::Uw) => (16, BaseType::Uint),
            Some(t) => return Err(fail(format!("a sampler destination of type {t}"))),
        };
        let op = match s.op {
            SamplerOp::Ld => IntrinsicOp::SamplerLd,
            SamplerOp::LdMcs => IntrinsicOp::SamplerLdMcs,
            SamplerOp::Ld2dmsW => IntrinsicOp::SamplerLd2dmsW,
            _ => IntrinsicOp::SamplerLdLz,
        };
        let msg = SamplerMessage {
            sender: sender(&invocations, op, ctx.line),
            enabled: ctx.chen,
            surfaces: &surfaces,
            channels: s.channels,
            dest_bits,
            dest_base,
        };
        let mut out = vec![0u64; exec as usize * comps];
        let mut dest = LanesMut::new(&mut out, comps);
        fn lanes(c: &[u64]) -> Lanes<'_> {
            Lanes::new(c, 1)
        }
        // 3D_LOAD.md's parameters, missing ones 0: `ld` u, v, lod, r; `ld_lz` and
        // `ld_mcs` u, v, r; `ld2dms_w` si, mcsl, mcsh, u, v, r, run by the semantics
        // of the IR's `@sampler_*` messages of the same names.
        match s.op {
            SamplerOp::Ld2dmsW => {
                // The MCS value names where a compressed surface keeps the sample;
                // the semantics bind no MCS and read it nowhere.
                let (si, u, v, r) = (coord(0), coord(3), coord(4), coord(5));
                let uvr = [lanes(&u), lanes(&v), lanes(&r)];
                ld2dms_w(self.mem, &msg, lanes(&si), uvr, &mut dest).map_err(env)?;
            }
            SamplerOp::LdMcs => {
                // The MCS value is two dwords, whatever the variable's type says.
                if dest_bits != 32 {
                    return Err(fail("a load_mcs destination of 16-bit elements"));
                }
                ld_mcs(self.mem, &msg, &mut dest).map_err(env)?;
            }
            _ => {
                let ld3d = s.op == SamplerOp::Ld;
                let (u, v, r) = (coord(0), coord(1), coord(if ld3d { 3 } else { 2 }));
                let lod = ld3d.then(|| coord(2));
                let lod = lod.as_deref().map(lanes);
                ld(
                    self.mem,
                    &msg,
                    lanes(&u),
                    lanes(&v),
                    lanes(&r),
                    lod,
                    &mut dest,
                )
                .map_err(env)?;
            }
        }
        if let Some(d) = s.dst {
            let esz = d.ty.size();
            write_simt(st, d, esz, grf, ctx.chen, &lanes_of(&out, comps));
            if s.pixel_null_mask {
                write_pixel_null_mask(
                    st,
                    d.start + comps as u32 * block_bytes(exec, esz, grf),
                    exec,
                );
            }
        }
        Ok(())
    }
}

/// Bit 15 of `aoffimmi`: the sampler index may be 16 or more.
const SAMPLER_INDEX_GE16: u64 = 0x8000;

impl MemoryPort<'_> {
    /// `sample_l`: lod, u, v, r as float bits (3D_SAMPLE.md), filtered with the state
    /// of the sampler variable's index by the semantics the IR's `@sampler_sample_l`
    /// runs ([`sample_l`]); `sample4`: u, v, r, gathered as `@sampler_gather4` does
    /// ([`gather4`]).
    fn sample(&mut self, s: &XSampler, ctx: &mut MessageCtx<'_>) -> PortResult {
        let name = s.op.visa_name();
        let exec = u32::from(s.exec.size);
        let grf = ctx.grf;
        let st = &mut *ctx.regs;
        let index = s
            .sampler
            .ok_or_else(|| fail(format!("a {name} without a sampler variable")))?
            .value(st) as u32;
        // The descriptor holds 4 bits of sampler index; the finalizer reaches the
        // others through the message header only when `aoffimmi` carries the mark.
        if index >= 16 && s.aoffimmi & SAMPLER_INDEX_GE16 == 0 {
            return Err(fail(format!(
                "sampler index {index} without bit 15 of aoffimmi: the descriptor holds \
                 indices 0 to 15, larger ones need the mark that makes the finalizer \
                 send a sampler state pointer in the header"
            )));
        }
        if let Some(t) = s
            .dst
            .map(|d| d.ty)
            .filter(|t| !matches!(t, VType::F | VType::Ud | VType::D))
        {
            return Err(fail(format!(
                "a {name} destination of type {t}: the message returns 32-bit channels here"
            )));
        }
        let binding = s.surface.value(st) as u32;
        let surfaces = vec![binding; exec as usize];
        // Parameters past the last given are 0 (3D_SAMPLE.md); the bits are taken
        // as they are.
        let param = |k: usize| match s.srcs.get(k) {
            Some(r) => read_lanes(st, r.start, 4, exec),
            None => vec![0; exec as usize],
        };
        let gather = s.op == SamplerOp::Gather4;
        let comps = if gather {
            4
        } else {
            s.channels.count_ones() as usize
        };
        let invocations = lane_invocations(ctx.invocations, u32::from(s.exec.offset), exec);
        let op = if gather {
            IntrinsicOp::SamplerGather4
        } else {
            IntrinsicOp::SamplerSampleL
        };
        let msg = SampleMessage {
            sender: sender(&invocations, op, ctx.line),
            enabled: ctx.chen,
            surfaces: &surfaces,
            sampler: index,
            channels: if gather { 0xf } else { s.channels },
            offset: ir::TexelOffset::from_index((s.aoffimmi & 0xfff) as u32).unwrap_or_default(),
        };
        let mut out = vec![0u64; exec as usize * comps];
        let mut dest = LanesMut::new(&mut out, comps);
        if gather {
            let (u, v, r) = (param(0), param(1), param(2));
            let component = s.channels.trailing_zeros() as usize;
            let (u, v, r) = (Lanes::new(&u, 1), Lanes::new(&v, 1), Lanes::new(&r, 1));
            gather4(self.mem, &msg, component, u, v, r, &mut dest).map_err(env)?;
        } else {
            let (lod, u, v, r) = (param(0), param(1), param(2), param(3));
            let (u, v, r) = (Lanes::new(&u, 1), Lanes::new(&v, 1), Lanes::new(&r, 1));
            sample_l(self.mem, &msg, Lanes::new(&lod, 1), u, v, r, &mut dest).map_err(env)?;
        }
        if let Some(d) = s.dst {
            write_simt(st, d, 4, grf, ctx.chen, &lanes_of(&out, comps));
            if s.pixel_null_mask {
                write_pixel_null_mask(st, d.start + comps as u32 * block_bytes(exec, 4, grf), exec);
            }
        }
        Ok(())
    }
}

/// The pixel-null-mask register after a sampler message's data: no page is null
/// here, so every pixel's bit is set.
fn write_pixel_null_mask(st: &mut super::regfile::RegState, at: u32, exec: u32) {
    let mask = if exec >= 32 {
        u32::MAX
    } else {
        (1 << exec) - 1
    };
    st.write(at, 4, u64::from(mask));
}

impl MessagePort for MemoryPort<'_> {
    fn message(&mut self, msg: &XMessage, ctx: &mut MessageCtx<'_>) -> PortResult {
        let logged = self.mem.log().len();
        match msg {
            XMessage::Lsc(m) => self.lsc(m, ctx),
            XMessage::Sampler(s) => self.sampler(s, ctx),
            XMessage::Dataport(d) if d.surface == Some(DpSurfaceRef::Scratch) => {
                if self.dataport.is_none() {
                    return Err(fail(
                        "legacy data-port messages need the platform they run on (its generation decides their behaviour)",
                    ));
                }
                super::scratch::run_dataport(
                    d,
                    &mut super::scratch::ScratchCtx {
                        regs: ctx.regs,
                        chen: ctx.chen,
                        grf: ctx.grf,
                        scratch: ctx.scratch,
                    },
                )
            }
            XMessage::Dataport(d) => run_dataport(self.mem, self.dataport, d, ctx).map_err(env),
        }?;
        if let Some(active) = ctx.active {
            attribute_uniform_load(self.mem, logged, active, ctx.invocations);
        }
        Ok(())
    }
}

/// A load of a uniform buffer without mask whose channels all read the same bytes is
/// a uniform load (brw's and IGC's block read of a value every lane uses): it is made
/// for every lane
/// the execution mask `active` holds, so its accesses are those lanes' invocations'
/// (each the accesses of one channel), whichever channels the message itself used.
/// Other messages without mask keep their channels' accesses.
fn attribute_uniform_load(mem: &mut Memory, from: usize, active: u32, invocations: &[u32]) {
    let made = &mem.log()[from.min(mem.log().len())..];
    let Some(first) = made.first().copied() else {
        return;
    };
    // Only a uniform buffer's loads: the kernel's own uniform loads are of UBOs
    // (`visa::uniform`), while a SIMD1 message of the lowered shader (a 2D block or
    // transposed load) is the subgroup's, attributed as the executor does.
    let ubo = |a: &Access| matches!(a.space, crate::memory::Space::Alloc(id) if mem.is_ubo(id));
    if made.iter().any(|a| a.kind != AccessKind::Load || !ubo(a)) {
        return;
    }
    // The accesses of the first channel, and whether every channel made the same.
    let one: Vec<Access> = made
        .iter()
        .filter(|a| a.ctx.lane == first.ctx.lane)
        .copied()
        .collect();
    let plain = |a: &Access| Access {
        ctx: first.ctx,
        ..*a
    };
    let mut lanes: Vec<u32> = made.iter().map(|a| a.ctx.lane).collect();
    lanes.sort_unstable();
    lanes.dedup();
    let same = lanes.iter().all(|&l| {
        let mine: Vec<Access> = made.iter().filter(|a| a.ctx.lane == l).map(plain).collect();
        mine.len() == one.len() && mine.iter().zip(&one).all(|(x, y)| *x == plain(y))
    });
    if !same {
        return;
    }
    let mut entries = Vec::new();
    for n in (0..32u32).filter(|n| active & (1 << n) != 0) {
        let Some(&invocation) = invocations.get(n as usize) else {
            continue;
        };
        entries.extend(one.iter().map(|a| Access {
            ctx: AccessCtx {
                lane: n,
                invocation,
                ..a.ctx
            },
            ..*a
        }));
    }
    mem.replace_log_since(from, entries);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::program::Program;
    use crate::visa::reader::read;
    use crate::visa::run::{RunConfig, Stop, Thread, ThreadInit};
    use crate::visa::testing::{elems, kernel, words};

    /// Uniform loads under the execution mask `0b1010`: two channels reading the same
    /// 4 bytes become one load per active lane (lanes 1 and 3, their invocations); one
    /// channel's two pieces become both pieces for each active lane; channels reading
    /// different bytes, and stores, keep their channels' accesses.
    #[test]
    fn uniform_loads_are_made_by_every_active_lane() {
        let mut mem = Memory::new();
        mem.set_logging(true);
        let (id, base) = mem.alloc_zeroed("buf", 64);
        mem.bind_ubo(0, id);
        let (_, other_base) = mem.alloc_zeroed("ssbo", 64);
        let at = AccessCtx {
            inst: Inst::from_u32(7),
            span: Span::new(7, 0),
            op: IntrinsicOp::LoadUbo,
            lane: 0,
            invocation: 40,
        };
        let load = |mem: &mut Memory, off: u64| {
            let mut out = [0u8; 4];
            mem.load(crate::memory::Target::Global(base + off), &mut out, &at)
                .unwrap();
        };
        // Channels 0 and 1 read the same 4 bytes (the legacy SIMD8 read with every
        // lane at one address).
        load(&mut mem, 8);
        let second = AccessCtx {
            lane: 1,
            invocation: 41,
            ..at
        };
        let mut out = [0u8; 4];
        mem.load(crate::memory::Target::Global(base + 8), &mut out, &second)
            .unwrap();
        attribute_uniform_load(&mut mem, 0, 0b1010, &[40, 41, 42, 43]);
        let log = mem.take_log();
        let who: Vec<(u32, u32)> = log.iter().map(|a| (a.ctx.lane, a.ctx.invocation)).collect();
        assert_eq!(who, vec![(1, 41), (3, 43)]);
        assert!(log
            .iter()
            .all(|a| a.offset == 8 && a.size == 4 && a.kind == AccessKind::Load));

        // One channel's load in two pieces (a vector read element by element): each
        // active lane gets both.
        load(&mut mem, 8);
        load(&mut mem, 12);
        attribute_uniform_load(&mut mem, 0, 0b1010, &[40, 41, 42, 43]);
        let log = mem.take_log();
        let got: Vec<(u32, u64)> = log.iter().map(|a| (a.ctx.invocation, a.offset)).collect();
        assert_eq!(got, vec![(41, 8), (41, 12), (43, 8), (43, 12)]);

        // Two channels loading different bytes: a gather, not a uniform load.
        load(&mut mem, 8);
        let other = AccessCtx {
            lane: 1,
            invocation: 41,
            ..at
        };
        let mut out = [0u8; 4];
        mem.load(crate::memory::Target::Global(base + 16), &mut out, &other)
            .unwrap();
        attribute_uniform_load(&mut mem, 0, 0b1010, &[40, 41, 42, 43]);
        let got: Vec<(u32, u64)> = mem
            .take_log()
            .iter()
            .map(|a| (a.ctx.invocation, a.offset))
            .collect();
        assert_eq!(got, vec![(40, 8), (41, 16)]);

        // The same load of a buffer that is not a UBO (a 2D block load of the lowered
        // shader, say) stays the channel's.
        mem.load(crate::memory::Target::Global(other_base), &mut out, &at)
            .unwrap();
        attribute_uniform_load(&mut mem, 0, 0b1010, &[40, 41, 42, 43]);
        let got: Vec<u32> = mem.take_log().iter().map(|a| a.ctx.invocation).collect();
        assert_eq!(got, vec![40]);

        mem.store(crate::memory::Target::Global(base), &[1, 2, 3, 4], &at)
            .unwrap();
        attribute_uniform_load(&mut mem, 0, 0b1010, &[40, 41, 42, 43]);
        let log = mem.take_log();
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].ctx.invocation, 40);
    }

    /// Runs `body` (SIMD 8, 32-byte registers) with `B` (uq) = `base` as input at byte
    /// 32, on `mem`, and returns the program and thread.
    fn run_on(mem: &mut Memory, decls: &str, body: &str, base: u64) -> (Program, Thread) {
        let decls =
            format!(".decl B v_type=G type=uq num_elts=1\n.input B offset=32 size=8\n{decls}");
        let text = kernel(8, &decls, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let mut payload = vec![0u8; 64];
        payload[32..40].copy_from_slice(&base.to_le_bytes());
        let config = RunConfig::default();
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        t.invocations = (100..108).collect();
        let mut port = MemoryPort::new(mem);
        let stop = t
            .run(&program, &mut port, &config)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(stop, Stop::Done);
        (program, t)
    }

    const DECLS: &str = ".decl L v_type=G type=uw num_elts=8\n\
        .decl A v_type=G type=uq num_elts=8\n\
        .decl V v_type=G type=ud num_elts=16\n\
        .decl R v_type=G type=ud num_elts=16\n\
        .decl P1 v_type=P num_elts=8";

    /// Lane ids in L, per-lane addresses B + 4 * lane in A.
    const ADDRS: &str = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
        shl (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 2:ud\n\
        add (M1, 8) A(0,0)<1> B(0,0)<0;1,0> V(0,0)<1;1,0>";

    #[test]
    fn simt_stores_and_loads_go_through_the_memory() {
        let mut mem = Memory::new();
        let id = mem.alloc("buf", vec![0; 256]);
        let base = mem.allocation(id).base;
        // Each lane stores 10 + lane at B + 4 lane; odd lanes only (a predicate), then
        // every lane loads two dwords from its address into R (SIMT, one register each).
        let body = format!(
            "{ADDRS}\nadd (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 10:ud\n\
             setp (M1_NM, 8) P1 0xaa:uw\n\
             (P1) lsc_store.ugm (M1, 8) flat[A]:a64 V:d32\n\
             lsc_load.ugm (M1, 8) R:d32x2 flat[A]:a64"
        );
        let (p, t) = run_on(&mut mem, DECLS, &body, base);
        assert_eq!(words(&mem, id, 9), [0, 11, 0, 13, 0, 15, 0, 17, 0]);
        let r = elems(&p, &t, "R");
        // Component 0 of lanes 0..8, then component 1 (the next dword in memory).
        assert_eq!(&r[..8], [0, 11, 0, 13, 0, 15, 0, 17]);
        assert_eq!(&r[8..], [11, 0, 13, 0, 15, 0, 17, 0]);
        // The access log names the vISA line (the store is line 18, the load 19) and
        // each lane's invocation.
        let log = mem.log();
        let lines: std::collections::BTreeSet<u32> = log.iter().map(|a| a.ctx.span.line).collect();
        assert_eq!(lines.into_iter().collect::<Vec<_>>(), [18, 19]);
        assert!(log.iter().any(|a| a.ctx.invocation == 107));
    }

    #[test]
    fn transposed_loads_atomics_and_offsets() {
        let mut mem = Memory::new();
        let id = mem.alloc("buf", (0..64u8).collect());
        let base = mem.allocation(id).base;
        // A SIMD1 transposed load of four dwords from B + 8 (the immediate offset).
        let body = "lsc_load.ugm (M1_NM, 1) R:d32x4t flat[B+0x8]:a64";
        let (p, t) = run_on(&mut mem, DECLS, body, base);
        let r = elems(&p, &t, "R");
        assert_eq!(
            &r[..4],
            [0x0b0a_0908, 0x0f0e_0d0c, 0x1312_1110, 0x1716_1514]
        );
        // Eight lanes add lane + 1 to the same dword at B, in lane order: the old values
        // are the running sums.
        let mut mem = Memory::new();
        let id = mem.alloc("buf", vec![0; 16]);
        let base = mem.allocation(id).base;
        let body =
            "mov (M1, 8) L(0,0)<1> 0x76543210:uv\nadd (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 1:ud\n\
                    mov (M1, 8) A(0,0)<1> B(0,0)<0;1,0>\n\
                    lsc_atomic_iadd.ugm (M1, 8) R:d32 flat[A]:a64 V %null";
        let (p, t) = run_on(&mut mem, DECLS, body, base);
        assert_eq!(words(&mem, id, 1), [36]);
        assert_eq!(&elems(&p, &t, "R")[..8], [0, 1, 3, 6, 10, 15, 21, 28]);
    }

    #[test]
    fn shared_memory_and_errors_with_the_line() {
        let mut mem = Memory::new();
        mem.begin_workgroup(0, 64);
        let body =
            "mov (M1, 8) L(0,0)<1> 0x76543210:uv\nshl (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 2:ud\n\
                    lsc_store.slm (M1, 8) flat[V]:a32 V:d32\n\
                    lsc_load.slm (M1, 8) R:d32 flat[V+0x4]:a32";
        let (p, t) = run_on(&mut mem, DECLS, body, 0);
        assert_eq!(&elems(&p, &t, "R")[..7], [4, 8, 12, 16, 20, 24, 28]);
        // An address outside every allocation is an error of the message's line.
        let text = kernel(
            8,
            &format!(".decl B v_type=G type=uq num_elts=1\n{DECLS}"),
            "mov (M1, 8) A(0,0)<1> 0x10:uq\nlsc_load.ugm (M1, 8) R:d32 flat[A]:a64",
        );
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let config = RunConfig::default();
        let payload = [0u8; 32];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        let mut m2 = Memory::new();
        let e = t
            .run(&program, &mut MemoryPort::new(&mut m2), &config)
            .unwrap_err();
        // .version, .kernel, seven .decl, .kernel_attr, .function, main:, the mov, the
        // load.
        assert_eq!(e.line, 13);
        assert!(
            matches!(e.kind, crate::visa::error::ErrorKind::Message { .. }),
            "{e}"
        );
    }

    #[test]
    fn resinfo_returns_each_lanes_level_size_and_the_level_count() {
        // A 37x19 2D array of 4 layers and 6 levels at binding-table index 5. Lane n asks
        // for LOD n: width 37 >> n and height 19 >> n, each at least 1 (37, 18, 9, 4, 2,
        // 1 and 19, 9, 4, 2, 1, 1); LODs 6 and 7 are past the last level, so 0. A is the
        // level count in every lane; B (the layers, 4) is not asked for.
        let desc = tiling::SurfaceDesc::new(
            tiling::Gen::Gfx125,
            tiling::SurfDim::D2,
            tiling::Format::R32_UINT,
            tiling::Tiling::Linear,
        )
        .extent(37, 19, 1)
        .array_len(4)
        .levels(6);
        let surface = tiling::Surface::new(desc).unwrap();
        let view = tiling::ImageView::level(&surface, 0);
        let mut mem = Memory::new();
        mem.bind_surface_image(
            5,
            "t",
            surface,
            view,
            ir::Format::R32Uint,
            tiling::Format::R32_UINT,
            tiling::Bit6Swizzle::None,
        )
        .unwrap();
        mem.set_view_levels(5, 6).unwrap();
        let decls =
            format!("{DECLS}\n.decl Q v_type=G type=ud num_elts=24\n.decl T6 v_type=T num_elts=1");
        let body = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
                    mov (M1, 8) V(0,0)<1> L(0,0)<1;1,0>\n\
                    movs (M1_NM, 1) T6(0) 0x5:ud\n\
                    resinfo.RGA (M1, 8)  T6 V.0 Q.0";
        let (p, t) = run_on(&mut mem, &decls, body, 0);
        let q = elems(&p, &t, "Q");
        // One register (8 dwords) per returned channel: R, then G, then A.
        assert_eq!(&q[..8], [37, 18, 9, 4, 2, 1, 0, 0]);
        assert_eq!(&q[8..16], [19, 9, 4, 2, 1, 1, 0, 0]);
        assert_eq!(&q[16..24], [6; 8]);
        // No texel was read.
        assert!(mem.log().is_empty());
        // A surface index the memory does not bind is an error, not a silent zero.
        let mut empty = Memory::new();
        let text = kernel(
            8,
            &format!(".decl B v_type=G type=uq num_elts=1\n{decls}"),
            "movs (M1_NM, 1) T6(0) 0x9:ud\nresinfo.R (M1, 8)  T6 V.0 Q.0",
        );
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let payload = vec![0u8; 64];
        let config = RunConfig::default();
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        let mut port = MemoryPort::new(&mut empty);
        assert!(t.run(&program, &mut port, &config).is_err());
    }

    /// Runs `text` (SIMD8, 32-byte registers) on `mem`, returning the program and
    /// thread, or the run's error.
    fn try_run(mem: &mut Memory, text: &str) -> Result<(Program, Thread), String> {
        let program = Program::new(&read(text).unwrap(), 32, 1 << 20).unwrap();
        let payload = vec![0u8; 64];
        let config = RunConfig::default();
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        let mut port = MemoryPort::new(mem);
        t.run(&program, &mut port, &config)
            .map_err(|e| e.to_string())?;
        Ok((program, t))
    }

    #[test]
    fn sample_l_filters_with_the_sampler_variables_state() {
        // A 4x1 R32_FLOAT surface holding 10, 20, 30, 40 at binding-table index 2;
        // sampler 3 nearest, sampler 17 linear (both clamp to edge). Lane n samples at
        // u = n / 8, LOD 0 (v = 0 on the one row).
        //   nearest: texel floor(4u) = floor(n / 2): 10 10 20 20 30 30 40 40;
        //   linear: 4u - 1/2 = n/2 - 1/2 between texels floor of it and the next,
        //   clamped: 10 10 15 20 25 30 35 40.
        let desc = tiling::SurfaceDesc::new(
            tiling::Gen::Gfx125,
            tiling::SurfDim::D2,
            tiling::Format::R32_FLOAT,
            tiling::Tiling::Linear,
        )
        .extent(4, 1, 1);
        let surface = tiling::Surface::new(desc).unwrap();
        let view = tiling::ImageView::level(&surface, 0);
        let mut mem = Memory::new();
        let id = mem
            .bind_surface_image(
                2,
                "t",
                surface,
                view,
                ir::Format::R32Float,
                tiling::Format::R32_FLOAT,
                tiling::Bit6Swizzle::None,
            )
            .unwrap();
        for (k, v) in [10.0f32, 20.0, 30.0, 40.0].iter().enumerate() {
            mem.allocation_mut(id).bytes[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
        }
        use crate::sampler_state::{Filter, SamplerState};
        let nearest = SamplerState {
            mag_filter: Filter::Nearest,
            min_filter: Filter::Nearest,
            ..SamplerState::default()
        };
        mem.bind_sampler(3, nearest);
        mem.bind_sampler(17, SamplerState::default());
        let decls = ".decl B v_type=G type=uq num_elts=1\n\
            .decl L v_type=G type=uw num_elts=8\n\
            .decl U v_type=G type=f num_elts=8\n\
            .decl Z v_type=G type=f num_elts=8\n\
            .decl N v_type=G type=f num_elts=8\n\
            .decl Q v_type=G type=f num_elts=8\n\
            .decl S0 v_type=S num_elts=1\n\
            .decl T6 v_type=T num_elts=1";
        let setup = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
            mov (M1, 8) U(0,0)<1> L(0,0)<1;1,0>\n\
            mul (M1, 8) U(0,0)<1> U(0,0)<1;1,0> 0x3e000000:f\n\
            mov (M1, 8) Z(0,0)<1> 0x0:f\n\
            movs (M1_NM, 1) T6(0) 0x2:ud";
        let body = format!(
            "{setup}\n\
             movs (M1_NM, 1) S0(0) 0x3:ud\n\
             sample_l.R (M1, 8)  0x0:uw S0 T6 N.0 Z.0 U.0\n\
             movs (M1_NM, 1) S0(0) 0x11:ud\n\
             sample_l.R (M1, 8)  0x8000:uw S0 T6 Q.0 Z.0 U.0"
        );
        let (p, t) = try_run(&mut mem, &kernel(8, decls, &body)).unwrap();
        let floats = |name| -> Vec<f32> {
            elems(&p, &t, name)
                .into_iter()
                .map(|b| f32::from_bits(b as u32))
                .collect()
        };
        assert_eq!(
            floats("N"),
            [10.0, 10.0, 20.0, 20.0, 30.0, 30.0, 40.0, 40.0]
        );
        assert_eq!(
            floats("Q"),
            [10.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]
        );
        // A texel offset of -1 in U (aoffimmi bits 11:8) moves the nearest texel
        // floor(lane / 2) one left, clamped to the edge; gather4 of red returns the
        // texels i0 = floor(2 lane / 4 - 1/2) (clamped) and i0 + 1 of row 0 (v = 0
        // clamps both rows there) as lower left, lower right, upper right, upper left.
        let body = format!(
            "{setup}\n\
             movs (M1_NM, 1) S0(0) 0x3:ud\n\
             sample_l.R (M1, 8)  0xf00:uw S0 T6 N.0 Z.0 U.0\n\
             sample4.R (M1, 8)  0x0:uw S0 T6 G.0 U.0 Z.0"
        );
        let decls_g = format!("{decls}\n.decl G v_type=G type=f num_elts=32");
        let (p, t) = try_run(&mut mem, &kernel(8, &decls_g, &body)).unwrap();
        let g: Vec<f32> = elems(&p, &t, "G")
            .into_iter()
            .map(|b| f32::from_bits(b as u32))
            .collect();
        assert_eq!(
            elems(&p, &t, "N")
                .into_iter()
                .map(|b| f32::from_bits(b as u32))
                .collect::<Vec<_>>(),
            [10.0, 10.0, 10.0, 10.0, 20.0, 20.0, 30.0, 30.0]
        );
        assert_eq!(g[..8], [10.0, 10.0, 10.0, 20.0, 20.0, 30.0, 30.0, 40.0]);
        assert_eq!(g[8..16], [10.0, 20.0, 20.0, 30.0, 30.0, 40.0, 40.0, 40.0]);
        assert_eq!(g[16..24], g[8..16]);
        assert_eq!(g[24..], g[..8]);
        // Index 17 without aoffimmi's bit 15 does not fit the descriptor; bits 14:12
        // are reserved; index 4 has no state bound.
        for (sampler, aoffimmi, why) in [
            ("0x11", "0x0", "sampler index 17 without bit 15"),
            ("0x3", "0x1000", "reserved bits"),
            ("0x4", "0x0", "no sampler state"),
        ] {
            let body = format!(
                "{setup}\n\
                 movs (M1_NM, 1) S0(0) {sampler}:ud\n\
                 sample_l.R (M1, 8)  {aoffimmi}:uw S0 T6 N.0 Z.0 U.0"
            );
            let e = try_run(&mut mem, &kernel(8, decls, &body)).err().unwrap();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn multisample_loads_run_the_ir_semantics() {
        // A 4-sample 8x2 R32_UINT 2D array of 2 layers (Y-tiled, Gfx9) at
        // binding-table index 4; sample s of texel (x, y) of layer l holds
        // 1000 l + 100 s + 10 y + x, written where the layout reference puts it.
        let desc = tiling::SurfaceDesc::new(
            tiling::Gen::Gfx9,
            tiling::SurfDim::D2,
            tiling::Format::R32_UINT,
            tiling::Tiling::Y,
        )
        .extent(8, 2, 1)
        .array_len(2)
        .samples(4);
        let surface = tiling::Surface::new(desc).unwrap();
        let mut at = Vec::new();
        for (l, s, y, x) in (0..2u32).flat_map(|l| {
            (0..4u32).flat_map(move |s| {
                (0..2u32).flat_map(move |y| (0..8u32).map(move |x| (l, s, y, x)))
            })
        }) {
            let off = surface
                .sample_offset(x, y, l, s, 0, tiling::Bit6Swizzle::None)
                .unwrap() as usize;
            at.push((off, 1000 * l + 100 * s + 10 * y + x));
        }
        let view = tiling::ImageView::level(&surface, 0);
        let mut mem = Memory::new();
        let id = mem
            .bind_surface_image(
                4,
                "t",
                surface,
                view,
                ir::Format::R32Uint,
                tiling::Format::R32_UINT,
                tiling::Bit6Swizzle::None,
            )
            .unwrap();
        for (off, v) in at {
            mem.allocation_mut(id).bytes[off..off + 4].copy_from_slice(&v.to_le_bytes());
        }
        let decls = ".decl B v_type=G type=uq num_elts=1\n\
            .decl L v_type=G type=uw num_elts=8\n\
            .decl SI v_type=G type=ud num_elts=8\n\
            .decl U v_type=G type=ud num_elts=8\n\
            .decl X v_type=G type=ud num_elts=8\n\
            .decl V v_type=G type=ud num_elts=8\n\
            .decl M v_type=G type=ud num_elts=16\n\
            .decl Q v_type=G type=ud num_elts=32\n\
            .decl N v_type=G type=ud num_elts=16\n\
            .decl H v_type=G type=uw num_elts=32\n\
            .decl T6 v_type=T num_elts=1";
        // Lane n: si = n (clamped to 3 from 3 on), u = n, v = 1; x = n + 4.
        let setup = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
            mov (M1, 8) SI(0,0)<1> L(0,0)<1;1,0>\n\
            mov (M1, 8) U(0,0)<1> L(0,0)<1;1,0>\n\
            add (M1, 8) X(0,0)<1> U(0,0)<1;1,0> 0x4:ud\n\
            mov (M1, 8) V(0,0)<1> 0x1:ud\n\
            mov (M1, 8) M(0,0)<1> 0x7:ud\n\
            mov (M1, 8) M(1,0)<1> 0x7:ud\n\
            movs (M1_NM, 1) T6(0) 0x4:ud";
        // load_mcs: 0 in R and G (no MCS is bound). load_2dms_w of layer 1 (r = v = 1),
        // R32_UINT's missing G, B, A read 0, 0, 1; then of layer 0 (r left out) at x =
        // n + 4, past the width from lane 4 on (the zero texel: R 0, A 1).
        let body = format!(
            "{setup}\n\
             load_mcs.RG (M1, 8)  0x0:uw T6 M.0 U.0 V.0 V.0\n\
             load_2dms_w.RGBA (M1, 8)  0x0:uw T6 Q.0 SI.0 M.0 M.32 U.0 V.0 V.0\n\
             load_2dms_w.RA (M1, 8)  0x0:uw T6 N.0 SI.0 M.0 M.32 X.0 V.0"
        );
        let (p, t) = try_run(&mut mem, &kernel(8, decls, &body)).unwrap();
        assert_eq!(elems(&p, &t, "M"), [0; 16]);
        let q = elems(&p, &t, "Q");
        let want: Vec<u64> = (0..8).map(|n| 1000 + 100 * n.min(3) + 10 + n).collect();
        assert_eq!(q[..8], want);
        assert_eq!(q[8..24], [0; 16]);
        assert_eq!(q[24..], [1; 8]);
        let n = elems(&p, &t, "N");
        let want: Vec<u64> = (0..8)
            .map(|n| {
                if n < 4 {
                    100 * n.min(3) + 10 + n + 4
                } else {
                    0
                }
            })
            .collect();
        assert_eq!(n[..8], want);
        assert_eq!(n[8..], [1; 8]);
        // The loads are logged as the IR's messages.
        let ops: Vec<_> = mem.log().iter().map(|a| a.ctx.op).collect();
        assert!(ops.contains(&IntrinsicOp::SamplerLd2dmsW), "{ops:?}");
        // A texel offset, a 16-bit MCS destination: errors.
        for (line, why) in [
            ("load_2dms_w.R (M1, 8)  0x1:uw T6 N.0 SI.0", "texel offsets"),
            ("load_mcs.RG (M1, 8)  0x0:uw T6 H.0 U.0", "16-bit"),
        ] {
            let body = format!("{setup}\n{line}");
            let e = try_run(&mut mem, &kernel(8, decls, &body)).err().unwrap();
            assert!(e.contains(why), "{e}");
        }
    }
}
