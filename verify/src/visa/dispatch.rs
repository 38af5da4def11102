//! Running a kernel over a grid of workgroups: each workgroup is split into hardware
//! threads of the kernel's SIMD width over consecutive invocations (linear local index
//! `x + y·sx + z·sx·sy`, as the executor numbers them; the last thread of a workgroup
//! whose size is not a multiple runs with the missing channels off), the threads of a
//! workgroup run together through their barriers ([`run_workgroup`]) on one memory,
//! with the workgroup's shared local memory set up first.
//!
//! What a thread's payload holds (the register file at kernel entry: `%r0` and the
//! inputs) is the kernel's ABI; the caller writes it from the thread's lanes. The
//! dispatch then writes what the hardware puts in `%r0` besides: the thread's scratch
//! base in bits 31:10 of `r0.5` ([`super::scratch`]).
//!
//! Invocations are numbered as the executor numbers them: `workgroup_linear ·
//! workgroup_size + local_linear`, workgroups in `x`-fastest order.

use super::error::{ErrorKind, VisaError};
use super::port::MemoryPort;
use super::program::Program;
use super::run::{run_workgroup, RunConfig, Thread, ThreadInit};
use crate::memory::Memory;
use std::fmt;
use std::ops::Range;

/// The shape of a dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Invocations per workgroup in x, y, z.
    pub local_size: [u32; 3],
    /// Workgroups in x, y, z.
    pub workgroups: [u32; 3],
    /// Channels per hardware thread (the kernel's SIMD width).
    pub simd: u32,
    /// Bytes of shared local memory per workgroup.
    pub shared_size: usize,
    /// The bytes a workgroup's shared memory starts with (the rest is zero).
    pub shared_init: Vec<u8>,
}

impl Grid {
    /// Invocations per workgroup.
    pub fn workgroup_size(&self) -> u64 {
        self.local_size.iter().map(|&n| u64::from(n)).product()
    }

    /// Workgroups in the dispatch.
    pub fn num_workgroups(&self) -> u64 {
        self.workgroups.iter().map(|&n| u64::from(n)).product()
    }

    /// The workgroup of linear index `wl` (x fastest).
    pub fn workgroup(&self, wl: u64) -> [u32; 3] {
        let [gx, gy, _] = self.workgroups.map(u64::from);
        [
            (wl % gx.max(1)) as u32,
            (wl / gx.max(1) % gy.max(1)) as u32,
            (wl / (gx.max(1) * gy.max(1))) as u32,
        ]
    }
}

/// One hardware thread's place in the dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadLanes {
    /// Its workgroup.
    pub workgroup: [u32; 3],
    /// The workgroup's linear index.
    pub workgroup_linear: u64,
    /// The thread's index in the workgroup.
    pub thread: u32,
    /// The local invocation id (x, y, z) of each channel (the missing channels of a
    /// partial thread hold 0).
    pub local_ids: Vec<[u32; 3]>,
    /// The invocation (linear index in the dispatch) of each channel.
    pub invocations: Vec<u32>,
    /// The channels that exist.
    pub dispatch_mask: u32,
}

/// A dispatch that failed.
#[derive(Clone, Debug)]
pub struct GridError {
    /// The workgroup.
    pub workgroup: [u32; 3],
    /// The error (with its vISA line).
    pub error: VisaError,
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(f, "workgroup ({x}, {y}, {z}): {}", self.error)
    }
}

impl std::error::Error for GridError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What a dispatch did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GridStats {
    /// Hardware threads run.
    pub threads: u64,
    /// vISA instructions executed.
    pub instructions: u64,
}

/// The threads of workgroup `wl` of `grid`.
pub fn thread_lanes(grid: &Grid, wl: u64) -> Vec<ThreadLanes> {
    let size = grid.workgroup_size();
    let simd = u64::from(grid.simd.clamp(1, 32));
    let [sx, sy, _] = grid.local_size.map(u64::from);
    let workgroup = grid.workgroup(wl);
    (0..size.div_ceil(simd))
        .map(|t| {
            let mut lanes = ThreadLanes {
                workgroup,
                workgroup_linear: wl,
                thread: t as u32,
                local_ids: Vec::with_capacity(simd as usize),
                invocations: Vec::with_capacity(simd as usize),
                dispatch_mask: 0,
            };
            for l in 0..simd {
                let li = t * simd + l;
                if li < size {
                    lanes.dispatch_mask |= 1 << l;
                    lanes.local_ids.push([
                        (li % sx.max(1)) as u32,
                        (li / sx.max(1) % sy.max(1)) as u32,
                        (li / (sx.max(1) * sy.max(1))) as u32,
                    ]);
                    lanes.invocations.push((wl * size + li) as u32);
                } else {
                    lanes.local_ids.push([0; 3]);
                    lanes.invocations.push(0);
                }
            }
            lanes
        })
        .collect()
}

/// Writes a thread's payload (`%r0` and the inputs) from its place in the dispatch.
pub type PayloadWriter<'a> = dyn FnMut(&ThreadLanes, &mut Vec<u8>) -> Result<(), VisaError> + 'a;

/// Runs workgroups `range` (linear indices) of `grid` on `mem`, `payload` writing each
/// thread's payload.
pub fn run_workgroups(
    program: &Program,
    grid: &Grid,
    range: Range<u64>,
    mem: &mut Memory,
    payload: &mut PayloadWriter<'_>,
    config: &RunConfig,
) -> Result<GridStats, GridError> {
    let mut stats = GridStats::default();
    let mut bytes = Vec::new();
    for wl in range {
        let workgroup = grid.workgroup(wl);
        let fail = |error: VisaError| GridError { workgroup, error };
        mem.begin_workgroup(wl as u32, grid.shared_size);
        if !grid.shared_init.is_empty() {
            let shared = mem.shared_mut();
            let n = shared.len().min(grid.shared_init.len());
            shared[..n].copy_from_slice(&grid.shared_init[..n]);
        }
        let mut threads = Vec::new();
        for lanes in thread_lanes(grid, wl) {
            bytes.clear();
            payload(&lanes, &mut bytes).map_err(fail)?;
            // The hardware's part of r0: the thread's scratch base in r0.5.
            super::scratch::set_r0_5(&mut bytes, lanes.thread, program.scratch_bytes).map_err(
                |e| {
                    fail(VisaError::new(
                        0,
                        ErrorKind::Unsupported {
                            what: e.to_string(),
                        },
                    ))
                },
            )?;
            let init = ThreadInit {
                payload: &bytes,
                dispatch_mask: lanes.dispatch_mask,
                hw_id: lanes.thread,
            };
            let mut t = Thread::new(program, &init, config).map_err(fail)?;
            t.invocations = lanes.invocations;
            threads.push(t);
        }
        stats.threads += threads.len() as u64;
        let mut port = MemoryPort::new(mem).with_dataport(config.dataport);
        stats.instructions +=
            run_workgroup(program, &mut threads, &mut port, config).map_err(fail)?;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::reader::read;
    use crate::visa::testing::kernel;

    #[test]
    fn threads_cover_the_workgroup_in_linear_order() {
        let grid = Grid {
            local_size: [5, 3, 1],
            workgroups: [2, 2, 1],
            simd: 8,
            shared_size: 0,
            shared_init: Vec::new(),
        };
        assert_eq!(grid.workgroup(3), [1, 1, 0]);
        let t = thread_lanes(&grid, 3);
        // 15 invocations: two threads, the second with seven channels.
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].dispatch_mask, 0x7f);
        // Channel 2 of thread 1 is local index 10: (0, 2, 0), invocation 3 * 15 + 10.
        assert_eq!(t[1].local_ids[2], [0, 2, 0]);
        assert_eq!(t[1].invocations[2], 55);
        assert_eq!(t[0].local_ids[7], [2, 1, 0]);
    }

    #[test]
    fn a_grid_writes_every_invocation_once() {
        // Each channel stores its invocation index (from the payload: one dword per
        // channel at byte 32) at address B + 4 * index.
        let decls = ".decl B v_type=G type=uq num_elts=1\n.decl I v_type=G type=ud num_elts=8\n\
                     .decl A v_type=G type=uq num_elts=8\n.decl O v_type=G type=ud num_elts=8\n\
                     .input I offset=32 size=32\n.input B offset=64 size=8";
        let body = "shl (M1, 8) O(0,0)<1> I(0,0)<1;1,0> 2:ud\n\
                    add (M1, 8) A(0,0)<1> B(0,0)<0;1,0> O(0,0)<1;1,0>\n\
                    lsc_store.ugm (M1, 8) flat[A]:a64 I:d32";
        let text = kernel(8, decls, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let grid = Grid {
            local_size: [3, 3, 1],
            workgroups: [2, 1, 2],
            simd: 8,
            shared_size: 0,
            shared_init: Vec::new(),
        };
        let mut mem = Memory::new();
        let id = mem.alloc("out", vec![0xff; 4 * 36]);
        let base = mem.allocation(id).base;
        let mut payload = |l: &ThreadLanes, out: &mut Vec<u8>| {
            out.resize(72, 0);
            for (c, inv) in l.invocations.iter().enumerate() {
                out[32 + 4 * c..][..4].copy_from_slice(&inv.to_le_bytes());
            }
            out[64..72].copy_from_slice(&base.to_le_bytes());
            Ok(())
        };
        let stats = run_workgroups(
            &program,
            &grid,
            0..grid.num_workgroups(),
            &mut mem,
            &mut payload,
            &RunConfig::default(),
        )
        .unwrap();
        // 4 workgroups of 9 invocations: two threads each.
        assert_eq!(stats.threads, 8);
        assert_eq!(stats.instructions, 8 * 4);
        let words: Vec<u32> = mem
            .allocation(id)
            .bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(words, (0..36).collect::<Vec<u32>>());
        // The log names each access's invocation.
        assert!(mem
            .log()
            .iter()
            .all(|a| a.ctx.invocation as u64 * 4 == a.offset));
    }
}
