//! The scratch space of each hardware thread, and the messages that reach it: the
//! legacy data port's `gather4_scaled`/`scatter4_scaled` on vISA's `%scratch` surface
//! and LSC loads and stores in the surface-state model (`ss(handle)`) whose handle is
//! the thread's scratch surface (the vISA back end's `load_scratch`/`store_scratch`,
//! `visa::scratch`).
//!
//! * **Where.** The dispatch ([`super::dispatch::run_workgroups`]) gives thread `t` of
//!   a workgroup the scratch base [`thread_base`]`(t, bytes)` in bits 31:10 of `r0.5`,
//!   as the hardware writes the thread's scratch pointer (Gfx8 to Gfx12.0) or scratch
//!   surface state offset (Gfx12.5 on) there: distinct multiples of 1 KiB from
//!   [`SCRATCH_BASE`], far above the binding-table indices that stand for surfaces
//!   elsewhere in the interpreter ([`super::port`]). Threads of different workgroups
//!   reuse the bases, as the hardware reuses its thread slots; their workgroups do not
//!   run at the same time here.
//! * **How much.** A thread has the kernel's `.kernel_attr SpillMemOffset` bytes
//!   ([`super::program::Program::scratch_bytes`]): the part of the scratch space the
//!   kernel's own messages use (the finalizer's spills, which the interpreter does not
//!   make, go above). Every access outside them is an error naming the thread and the
//!   offset.
//! * **Contents.** The bytes are the thread's own, zero when it starts (as the IR
//!   executor's per-invocation scratch), and gone when it ends; they are not part of
//!   the memory the verifier compares, and their accesses are not logged.
//! * **Addresses.** `%scratch` takes 32-bit addresses relative to the general state
//!   base, as the hardware's stateless binding-table index 255 does: the thread's
//!   base plus its offset (`offset + element_offset[i]`, then `+ 4` per channel of
//!   the four-channel messages). An `ss` message whose handle is the thread's base
//!   takes offsets into the space itself (the hardware's scratch surface adds the
//!   thread's part): `scale * address + offset`, `+ v * size` per vector element, in
//!   32 bits.

use super::listing::{DpOpcode, LscOp};
use super::payload::{
    addr_bytes, read_lanes, read_simt, reg_bytes, write_simt, XAddr, XDataport, XLsc, XShape,
};
use super::regfile::RegState;
use ir::lsc::DataSize;
use std::fmt;
use std::sync::Arc;

/// The scratch base of thread 0: thread `t`'s is `t` strides further
/// ([`thread_base`]).
pub const SCRATCH_BASE: u32 = 0x4000_0000;

/// The most scratch bytes a thread may have: 2 MiB, the largest per-thread scratch
/// space of Gfx8 to Xe2 (64 KiB for each of 32 lanes).
pub const MAX_THREAD_SCRATCH: u32 = 2 << 20;

/// The bits of `r0.5` that hold the thread's scratch base: 31:10.
pub const R0_5_MASK: u32 = 0xffff_fc00;

/// Byte offset of `r0.5` in the payload.
const R0_5: usize = 20;

/// The scratch base of thread `thread` of a workgroup whose threads have `bytes` bytes
/// each: [`SCRATCH_BASE`] plus `thread` times `bytes` rounded up to 1 KiB (at least
/// 1 KiB); `None` past 32 bits.
pub fn thread_base(thread: u32, bytes: u32) -> Option<u32> {
    let stride = u64::from(bytes.max(1)).div_ceil(1024) * 1024;
    let base = u64::from(SCRATCH_BASE) + u64::from(thread) * stride;
    (base + u64::from(bytes) <= u64::from(u32::MAX)).then_some(base as u32)
}

/// Writes thread `thread`'s scratch base into bits 31:10 of `r0.5` of `payload` (the
/// others keep their value).
pub fn set_r0_5(payload: &mut [u8], thread: u32, bytes: u32) -> Result<(), ScratchError> {
    let base = thread_base(thread, bytes).ok_or(ScratchError::NoRoom { thread, bytes })?;
    if let Some(w) = payload.get_mut(R0_5..R0_5 + 4) {
        let old = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        w.copy_from_slice(&((old & !R0_5_MASK) | base).to_le_bytes());
    }
    Ok(())
}

/// The scratch base a payload's `r0.5` gives its thread (0 for a payload too short to
/// hold it).
pub fn base_of_payload(payload: &[u8]) -> u32 {
    payload.get(R0_5..R0_5 + 4).map_or(0, |w| {
        u32::from_le_bytes([w[0], w[1], w[2], w[3]]) & R0_5_MASK
    })
}

/// A scratch access that fails.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScratchError {
    /// An access outside the thread's scratch bytes.
    OutOfRange {
        /// The thread's index in its workgroup.
        thread: u32,
        /// The byte offset into its scratch space (from its base; negative below it).
        offset: i64,
        /// Bytes accessed.
        size: u32,
        /// The thread's scratch bytes.
        limit: u32,
    },
    /// An `ss` handle that is a scratch surface, but not the thread's.
    OtherThread {
        /// The thread's index in its workgroup.
        thread: u32,
        /// The handle.
        handle: u32,
        /// The thread's own.
        own: u32,
    },
    /// A message the scratch space does not serve.
    Unsupported {
        /// What.
        what: String,
    },
    /// The workgroup's threads do not fit 32-bit scratch bases.
    NoRoom {
        /// The thread.
        thread: u32,
        /// Its scratch bytes.
        bytes: u32,
    },
}

impl fmt::Display for ScratchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScratchError::OutOfRange {
                thread,
                offset,
                size,
                limit,
            } => write!(
                f,
                "thread {thread}: scratch access of {size} bytes at offset {offset} is outside the thread's {limit} bytes of scratch (SpillMemOffset)"
            ),
            ScratchError::OtherThread {
                thread,
                handle,
                own,
            } => write!(
                f,
                "thread {thread}: ss({handle:#x}) is another thread's scratch surface (its own is {own:#x})"
            ),
            ScratchError::Unsupported { what } => {
                write!(f, "{what} on scratch memory is not modelled")
            }
            ScratchError::NoRoom { thread, bytes } => write!(
                f,
                "thread {thread}'s {bytes} bytes of scratch do not fit below 4 GiB"
            ),
        }
    }
}

impl std::error::Error for ScratchError {}

/// The scratch space of one hardware thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadScratch {
    thread: u32,
    base: u32,
    limit: u32,
    /// The bytes, allocated at the first access.
    bytes: Vec<u8>,
}

impl ThreadScratch {
    /// The scratch space of thread `thread` (its index in the workgroup), at `base`,
    /// of `limit` bytes, all zero.
    pub fn new(thread: u32, base: u32, limit: u32) -> ThreadScratch {
        ThreadScratch {
            thread,
            base,
            limit,
            bytes: Vec::new(),
        }
    }

    /// The base: the thread's `r0.5 & ~0x3ff`, its scratch surface handle.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The thread's scratch bytes.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Whether `ss` value `handle` names scratch: the thread's own base, or one of the
    /// range the dispatch gives threads (an error at the access: another thread's).
    pub fn is_scratch_handle(&self, handle: u32) -> bool {
        handle == self.base || (handle >= SCRATCH_BASE && handle & !R0_5_MASK == 0)
    }

    /// The byte range of `size` bytes at `offset`.
    fn range(&mut self, offset: i64, size: u32) -> Result<std::ops::Range<usize>, ScratchError> {
        let end = offset + i64::from(size);
        if offset < 0 || end > i64::from(self.limit) {
            return Err(ScratchError::OutOfRange {
                thread: self.thread,
                offset,
                size,
                limit: self.limit,
            });
        }
        if self.bytes.is_empty() {
            self.bytes = vec![0; self.limit as usize];
        }
        Ok(offset as usize..end as usize)
    }

    /// Reads `size` (1 to 8) bytes at `offset`, little-endian.
    pub fn load(&mut self, offset: i64, size: u32) -> Result<u64, ScratchError> {
        let r = self.range(offset, size)?;
        let mut b = [0u8; 8];
        b[..r.len()].copy_from_slice(&self.bytes[r]);
        Ok(u64::from_le_bytes(b))
    }

    /// Writes the low `size` (1 to 8) bytes of `value` at `offset`.
    pub fn store(&mut self, offset: i64, size: u32, value: u64) -> Result<(), ScratchError> {
        let r = self.range(offset, size)?;
        let n = r.len();
        self.bytes[r].copy_from_slice(&value.to_le_bytes()[..n]);
        Ok(())
    }

    /// The offset into the space of a 32-bit stateless address.
    fn offset_of(&self, address: u64) -> i64 {
        (address & 0xffff_ffff) as i64 - i64::from(self.base)
    }
}

/// What a scratch message reads of its thread: the registers, the channel enables, the
/// register size and the scratch space (the parts of the interpreter's message context
/// it uses).
pub struct ScratchCtx<'a> {
    /// The thread's registers.
    pub regs: &'a mut RegState,
    /// The message's channel enables; bit `n` is channel `n`.
    pub chen: u32,
    /// Bytes per register.
    pub grf: u32,
    /// The thread's scratch space.
    pub scratch: &'a mut ThreadScratch,
}

type PortResult = Result<(), Arc<dyn std::error::Error + Send + Sync>>;

fn fail(e: ScratchError) -> Arc<dyn std::error::Error + Send + Sync> {
    Arc::new(e)
}

/// Runs `gather4_scaled` or `scatter4_scaled` on `%scratch` for the thread `ctx`: each
/// enabled lane reads or writes its enabled channels, dword `ch` at its address plus
/// `4 ch`.
pub fn run_dataport(m: &XDataport, ctx: &mut ScratchCtx<'_>) -> PortResult {
    let load = match m.op {
        DpOpcode::Gather4Scaled => true,
        DpOpcode::Scatter4Scaled => false,
        op => {
            return Err(fail(ScratchError::Unsupported {
                what: format!("`{}`", op.name()),
            }))
        }
    };
    let exec = u32::from(m.exec.size);
    let st = &mut *ctx.regs;
    let global = m.offset.map_or(0, |o| o.value(st) as u64);
    let addrs = match m.addr.first().copied().flatten() {
        Some(r) => read_lanes(st, r.start, 4, exec),
        None => vec![0; exec as usize],
    };
    let nch = m.channels.count_ones();
    let grf = ctx.grf;
    let scratch = &mut *ctx.scratch;
    if load {
        let mut out = vec![vec![0u64; nch as usize]; exec as usize];
        for (lane, vals) in out.iter_mut().enumerate() {
            if ctx.chen >> lane & 1 == 0 {
                continue;
            }
            let at = scratch.offset_of(global.wrapping_add(addrs[lane]));
            for (k, v) in vals.iter_mut().enumerate() {
                *v = scratch.load(at + 4 * k as i64, 4).map_err(fail)?;
            }
        }
        if let Some(d) = m.dst {
            write_simt(st, d, 4, grf, ctx.chen, &out);
        }
    } else {
        let data = match m.srcs.first().copied().flatten() {
            Some(r) => read_simt(st, r, exec, 4, nch, grf),
            None => vec![vec![0; nch as usize]; exec as usize],
        };
        for (lane, vals) in data.iter().enumerate() {
            if ctx.chen >> lane & 1 == 0 {
                continue;
            }
            let at = scratch.offset_of(global.wrapping_add(addrs[lane]));
            for (k, v) in vals.iter().enumerate() {
                scratch.store(at + 4 * k as i64, 4, *v).map_err(fail)?;
            }
        }
    }
    Ok(())
}

/// Whether LSC message `m`, whose surface operand has the value `surface`, goes to
/// the thread's scratch: an `ss` message whose handle is a scratch surface.
pub fn is_scratch_lsc(m: &XLsc, surface: Option<u32>, scratch: &ThreadScratch) -> bool {
    matches!(
        m.addr,
        XAddr::Vector {
            model: ir::lsc::AddrType::Ss,
            ..
        }
    ) && surface.is_some_and(|h| scratch.is_scratch_handle(h))
}

/// Runs LSC load or store `m` on the thread's scratch (see [`is_scratch_lsc`]): `d32`
/// or `d64` vectors, not transposed; lane `n`'s element `v` is at `scale * addr[n] +
/// offset + v * size`.
pub fn run_lsc(m: &XLsc, handle: u32, ctx: &mut ScratchCtx<'_>) -> PortResult {
    let scratch = &mut *ctx.scratch;
    if handle != scratch.base {
        return Err(fail(ScratchError::OtherThread {
            thread: scratch.thread,
            handle,
            own: scratch.base,
        }));
    }
    let unsupported = |what: &str| {
        fail(ScratchError::Unsupported {
            what: what.to_string(),
        })
    };
    let load = match m.op {
        LscOp::Load => true,
        LscOp::Store => false,
        _ => {
            return Err(unsupported(
                "an LSC message other than lsc_load and lsc_store",
            ))
        }
    };
    let XShape::Vector(shape) = m.shape else {
        return Err(unsupported("a 2D block message"));
    };
    if shape.transpose || shape.cmask != 0 || !matches!(shape.size, DataSize::D32 | DataSize::D64) {
        return Err(unsupported(
            "an LSC message other than a SIMT d32 or d64 vector",
        ));
    }
    let XAddr::Vector {
        scale,
        offset,
        size,
        regs,
        ..
    } = &m.addr
    else {
        return Err(unsupported("a 2D block address"));
    };
    let addr_reg = regs
        .first()
        .ok_or_else(|| unsupported("an LSC message without an address"))?;
    let exec = u32::from(m.exec.size);
    let esz = reg_bytes(shape.size);
    let comps = u32::from(shape.vect);
    let grf = ctx.grf;
    let st = &mut *ctx.regs;
    let addrs: Vec<i64> = read_lanes(st, addr_reg.start, addr_bytes(*size), exec)
        .into_iter()
        .map(|a| (a.wrapping_mul(*scale as u64).wrapping_add(*offset as u64) & 0xffff_ffff) as i64)
        .collect();
    if load {
        let mut out = vec![vec![0u64; comps as usize]; exec as usize];
        for (lane, vals) in out.iter_mut().enumerate() {
            if ctx.chen >> lane & 1 == 0 {
                continue;
            }
            for (v, x) in vals.iter_mut().enumerate() {
                *x = scratch
                    .load(addrs[lane] + v as i64 * i64::from(esz), esz)
                    .map_err(fail)?;
            }
        }
        if let Some(d) = m.data {
            write_simt(st, d, esz, grf, ctx.chen, &out);
        }
    } else {
        let data = match m.data {
            Some(r) => read_simt(st, r, exec, esz, comps, grf),
            None => vec![vec![0; comps as usize]; exec as usize],
        };
        for (lane, vals) in data.iter().enumerate() {
            if ctx.chen >> lane & 1 == 0 {
                continue;
            }
            for (v, x) in vals.iter().enumerate() {
                scratch
                    .store(addrs[lane] + v as i64 * i64::from(esz), esz, *x)
                    .map_err(fail)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Memory;
    use crate::visa::port::MemoryPort;
    use crate::visa::program::Program;
    use crate::visa::reader::read;
    use crate::visa::run::{RunConfig, Stop, Thread, ThreadInit};
    use crate::visa::testing::{elems, kernel};
    use lowering::messages::dataport::DataportCaps;

    const DECLS: &str = ".kernel_attr SpillMemOffset=256\n\
        .decl S v_type=G type=ud num_elts=1\n\
        .decl L v_type=G type=uw num_elts=8\n\
        .decl O v_type=G type=ud num_elts=8\n\
        .decl A v_type=G type=ud num_elts=8\n\
        .decl V v_type=G type=ud num_elts=16\n\
        .decl R v_type=G type=ud num_elts=16";

    /// S = the scratch base (r0.5 & ~0x3ff), L = the lane ids, O = 8 * lane, A = S + O,
    /// V = (10 + lane, 20 + lane).
    const PROLOG: &str = "and (M1_NM, 1) S(0,0)<1> %r0(0,5)<0;1,0> 0xfffffc00:ud\n\
        mov (M1, 8) L(0,0)<1> 0x76543210:uv\n\
        shl (M1, 8) O(0,0)<1> L(0,0)<1;1,0> 3:ud\n\
        add (M1, 8) A(0,0)<1> O(0,0)<1;1,0> S(0,0)<0;1,0>\n\
        add (M1, 8) V(0,0)<1> L(0,0)<1;1,0> 10:ud\n\
        add (M1, 8) V(1,0)<1> L(0,0)<1;1,0> 20:ud";

    /// Runs `body` after [`PROLOG`] (SIMD8, 32-byte registers) as thread 2 of its
    /// workgroup, with the scratch base the dispatch gives it and Skylake's data port.
    fn run(body: &str) -> Result<(Program, Thread), crate::visa::error::VisaError> {
        let text = kernel(8, DECLS, &format!("{PROLOG}\n{body}"));
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(program.scratch_bytes, 256);
        let mut payload = vec![0u8; 64];
        // Bits 9:0 of r0.5 are the hardware's other fields: they stay.
        payload[20] = 0x2a;
        set_r0_5(&mut payload, 2, program.scratch_bytes).unwrap();
        assert_eq!(base_of_payload(&payload), SCRATCH_BASE + 2048);
        assert_eq!(payload[20], 0x2a);
        let config = RunConfig {
            dataport: DataportCaps::for_gen(tiling::Gen::Gfx9),
            ..RunConfig::default()
        };
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 2,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        let mut mem = Memory::new();
        let mut port = MemoryPort::new(&mut mem).with_dataport(config.dataport);
        let stop = t.run(&program, &mut port, &config)?;
        assert_eq!(stop, Stop::Done);
        assert!(mem.log().is_empty(), "scratch accesses are not logged");
        Ok((program, t))
    }

    #[test]
    fn bases_are_distinct_kilobyte_multiples() {
        assert_eq!(thread_base(0, 256), Some(SCRATCH_BASE));
        assert_eq!(thread_base(3, 256), Some(SCRATCH_BASE + 3 * 1024));
        assert_eq!(thread_base(3, 0), Some(SCRATCH_BASE + 3 * 1024));
        assert_eq!(thread_base(1, 5000), Some(SCRATCH_BASE + 5120));
        assert_eq!(
            thread_base(1, MAX_THREAD_SCRATCH),
            Some(SCRATCH_BASE + (2 << 20))
        );
        assert_eq!(thread_base(2048, MAX_THREAD_SCRATCH), None);
    }

    #[test]
    fn gather_and_scatter_on_scratch_round_trip() {
        // scatter4_scaled.RG at S + 0x20 + 8 lane: R = 10 + lane, G = 20 + lane at the
        // next dword. gather4_scaled.RG at the same addresses reads them back, and .R
        // at 0x24 the G values; dwords never written read 0 (0x80 on).
        let body = "scatter4_scaled.RG (M1, 8) %scratch 0x20:ud A.0 V.0\n\
            gather4_scaled.RG (M1, 8) %scratch 0x20:ud A.0 R.0";
        let (p, t) = run(body).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(r[..8], (10..18).collect::<Vec<u64>>()[..]);
        assert_eq!(r[8..], (20..28).collect::<Vec<u64>>()[..]);
        let body = "scatter4_scaled.RG (M1, 8) %scratch 0x20:ud A.0 V.0\n\
            gather4_scaled.R (M1, 8) %scratch 0x24:ud A.0 R.0\n\
            gather4_scaled.R (M1, 8) %scratch 0x80:ud A.0 R.32";
        let (p, t) = run(body).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(r[..8], (20..28).collect::<Vec<u64>>()[..]);
        assert_eq!(r[8..], [0; 8]);
    }

    #[test]
    fn lsc_ss_messages_on_the_scratch_surface_round_trip() {
        // lsc_store d32x2 at O + 0x40 (offsets into the space, the handle S its
        // surface); lsc_load d32 at O + 0x44 reads the second elements, and the
        // %scratch message at S + O + 0x40 (the same bytes) the first.
        let body = "lsc_store.ugm (M1, 8)  ss(S)[O+0x40]:a32  V:d32x2\n\
            lsc_load.ugm (M1, 8)  R:d32  ss(S)[O+0x44]:a32\n\
            gather4_scaled.R (M1, 8) %scratch 0x40:ud A.0 R.32";
        let (p, t) = run(body).unwrap();
        let r = elems(&p, &t, "R");
        assert_eq!(r[..8], (20..28).collect::<Vec<u64>>()[..]);
        assert_eq!(r[8..], (10..18).collect::<Vec<u64>>()[..]);
    }

    #[test]
    fn accesses_outside_the_thread_scratch_are_errors() {
        // Lane 0 at 0xfc + 0 is in, lane 1 at 0xfc + 8 is past the 256 bytes.
        let e = run("gather4_scaled.R (M1, 8) %scratch 0xfc:ud A.0 R.0").unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("thread 2: scratch access of 4 bytes at offset 260"),
            "{text}"
        );
        assert!(text.contains("256 bytes of scratch"), "{text}");
        // Below the base: an address without it.
        let e = run("gather4_scaled.R (M1, 8) %scratch 0x0:ud O.0 R.0").unwrap_err();
        assert!(e.to_string().contains("at offset -1073743872"), "{e}");
        let e = run("lsc_load.ugm (M1, 8)  R:d32  ss(S)[O+0x100]:a32").unwrap_err();
        assert!(e.to_string().contains("at offset 256"), "{e}");
        // Another thread's scratch surface.
        let body = "add (M1_NM, 1) S(0,0)<1> S(0,0)<0;1,0> 0x400:ud\n\
            lsc_load.ugm (M1, 8)  R:d32  ss(S)[O]:a32";
        let e = run(body).unwrap_err();
        assert!(
            e.to_string()
                .contains("is another thread's scratch surface"),
            "{e}"
        );
    }

    /// Each invocation writes a `vec4` at an offset of its own, reads a dword at
    /// another, and stores what it read to SSBO 0.
    const SHADER: &str = "shader compute (local_size=16,2,1, scratch_size=64)
fn main {
  block b0:
    32   %0 = @load_local_invocation_index
    32   %1 = load_const (0x00000003)
    32   %2 = iand %0, %1
    32   %3 = load_const (0x00000004)
    32   %4 = ishl %2, %3
    32x4 %5 = vec4 %0, %2, %4, %1
    @store_scratch (%5, %4) (align_mul=16)
    32   %6 = load_const (0x00000008)
    32   %7 = iadd %4, %6
    32   %8 = @load_scratch (%7) (align_mul=4)
    32x3 %9 = @load_workgroup_id
    32   %10 = load_const (0x00000005)
    32   %11 = ishl %9.x, %10
    32   %12 = iadd %11, %0
    32   %13 = load_const (0x00000002)
    32   %14 = ishl %12, %13
    32   %15 = load_const (0x00000000)
    @store_ssbo (%8, %15, %14) (access=none, align_mul=4)
}
";

    /// The leg's report on the kernel the back end makes for [`SHADER`] on
    /// `platform` at SIMD8, its text passed through `edit`.
    fn leg(platform: &str, edit: &dyn Fn(String) -> String) -> crate::verifier::Report {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = lowering::Device::preset(platform).unwrap();
        let mut setup = crate::setup::Setup::default_for(&shader, &device, 3).unwrap();
        setup.grid = [2, 1, 1];
        setup.subgroup_size = 8;
        let k = visa::emit_kernel(&shader, &device, &visa::Options::with_simd(8)).unwrap();
        let text = edit(k.text);
        crate::visa::check::verify_visa_text(&shader, &device, &setup, &text, &RunConfig::default())
            .unwrap()
    }

    #[test]
    fn the_leg_runs_scratch_kernels_and_checks_their_spill_offset() {
        for platform in ["skl", "dg2"] {
            let r = leg(platform, &|t| t);
            assert_eq!(r.mismatch_count, 0, "{platform}: {r:?}");
            assert_eq!(r.invocations, 64, "{platform}");
            // A kernel that reserves too little: its accesses past the reserved bytes
            // fail, and the attribute itself is named.
            let r = leg(platform, &|t| {
                t.replace("SpillMemOffset=512", "SpillMemOffset=256")
            });
            let text = format!("{r:?}");
            assert!(text.contains("SpillMemOffset"), "{platform}: {text}");
            assert!(
                text.contains("outside the thread's 256 bytes"),
                "{platform}: {text}"
            );
        }
    }
}
