//! Group async copies at the reference level: `group_async_copy_2d2d`,
//! `group_async_copy_3d3d` and `group_wait_events` (the builtins of the OpenCL
//! extension `cl_khr_extended_async_copies`).
//!
//! A group async copy is a workgroup-level operation: every work-item of the workgroup
//! must encounter it, with the same operands. The reference performs it once per
//! workgroup, in element-by-element order (plane by plane, line by line, element by
//! element), when the first subgroup of the workgroup executes it, and returns the event:
//! the event operand if it is non-zero, else a fresh non-zero token (1, 2, ... in the
//! order the workgroup's copies are performed). A later subgroup executing the same copy
//! (the same instruction, the same number of times before) only checks that its operands
//! are the ones the first subgroup copied with, and gets the same event. As the copy is
//! complete when it returns, `group_wait_events` has nothing to wait for and is a no-op.
//!
//! Operands (in the intrinsic's order): `dst`, `dst_offset`, `src`, `src_offset`,
//! `elem_bytes`, `elems_per_line`, `lines`, (3D: `planes`), `src_line_length`,
//! (3D: `src_plane_area`), `dst_line_length`, (3D: `dst_plane_area`), `event`. A 64-bit pointer
//! is a global (CrossWorkgroup) address, a 32-bit one a byte offset into the
//! workgroup's shared (Workgroup) memory; exactly one side is shared. Offsets, line
//! lengths and plane areas count elements of `elem_bytes` bytes. Element `e` of line
//! `l` of plane `p` is at `ptr + (offset + p·plane_area + l·line_length + e)·elem_bytes`
//! on each side.
//!
//! What the specification leaves undefined is an error here, naming the instruction:
//! a line length below `elems_per_line` (overlapping lines), a plane area below
//! `lines · line_length` (overlapping planes), an element index that does not fit the
//! 32-bit operands, an address beyond its space (outside every allocation, beyond the
//! shared memory), lanes or subgroups that disagree on an operand, and a copy not
//! executed by every lane of the subgroup. The workgroup-level checks (every subgroup
//! executed each copy as often as the first) are [`AsyncCopies::finish`]'s.

use crate::call::access_ctx;
use crate::memory::{Memory, Target};
use ir::interp::{EnvError, IntrinsicCall};
use ir::{Inst, IntrinsicOp, Span};
use std::collections::BTreeMap;
use std::fmt;

/// Why a group async copy cannot be executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsyncCopyError {
    /// Some lanes of the subgroup do not execute the copy (it must be encountered by
    /// every work-item of the workgroup).
    Divergent {
        /// The lanes that do not execute it.
        missing: u32,
    },
    /// Two lanes of a subgroup give an operand different values.
    LanesDisagree {
        /// The operand.
        operand: &'static str,
        /// The first lane's value.
        first: u64,
        /// A lane with another value.
        lane: u32,
        /// That lane's value.
        value: u64,
    },
    /// A subgroup gives an operand another value than the subgroup that performed the
    /// copy.
    SubgroupsDisagree {
        /// The operand.
        operand: &'static str,
        /// The subgroup that performed the copy.
        first_subgroup: u32,
        /// Its value.
        first: u64,
        /// This subgroup's value.
        value: u64,
    },
    /// Both pointers are global, or both shared.
    Spaces {
        /// The bit size of `dst`.
        dst_bits: u8,
        /// The bit size of `src`.
        src_bits: u8,
    },
    /// A line length below the elements per line: lines overlap.
    OverlappingLines {
        /// `source` or `destination`.
        side: &'static str,
        /// The line length.
        line_length: u64,
        /// The elements per line.
        elems_per_line: u64,
    },
    /// A plane area below `lines · line_length`: planes overlap.
    OverlappingPlanes {
        /// `source` or `destination`.
        side: &'static str,
        /// The plane area.
        plane_area: u64,
        /// `lines · line_length`.
        needed: u64,
    },
    /// An element index (offset plus plane, line and element) beyond the 32-bit
    /// operands.
    IndexOverflow {
        /// `source` or `destination`.
        side: &'static str,
        /// The index.
        index: u64,
    },
    /// A shared-memory byte offset beyond 32 bits, or a global address beyond 64.
    AddressOverflow {
        /// `source` or `destination`.
        side: &'static str,
    },
}

impl fmt::Display for AsyncCopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsyncCopyError::Divergent { missing } => write!(
                f,
                "lanes {missing:#x} do not execute the group async copy: every work-item of the workgroup must encounter it"
            ),
            AsyncCopyError::LanesDisagree {
                operand,
                first,
                lane,
                value,
            } => write!(
                f,
                "operand `{operand}` differs between work-items ({first:#x}, and {value:#x} in lane {lane}): a group async copy takes the same operands in every work-item"
            ),
            AsyncCopyError::SubgroupsDisagree {
                operand,
                first_subgroup,
                first,
                value,
            } => write!(
                f,
                "operand `{operand}` is {value:#x}, but subgroup {first_subgroup} performed this copy with {first:#x}: a group async copy takes the same operands in every work-item"
            ),
            AsyncCopyError::Spaces { dst_bits, src_bits } => write!(
                f,
                "`dst` is {dst_bits}-bit and `src` {src_bits}-bit: one side must be shared (a 32-bit offset) and the other global (a 64-bit address)"
            ),
            AsyncCopyError::OverlappingLines {
                side,
                line_length,
                elems_per_line,
            } => write!(
                f,
                "overlapping lines: the {side} line length {line_length} is smaller than the {elems_per_line} elements per line"
            ),
            AsyncCopyError::OverlappingPlanes {
                side,
                plane_area,
                needed,
            } => write!(
                f,
                "overlapping planes: the {side} plane area {plane_area} is smaller than lines x line length = {needed}"
            ),
            AsyncCopyError::IndexOverflow { side, index } => write!(
                f,
                "the {side} element index {index:#x} does not fit the 32-bit operands"
            ),
            AsyncCopyError::AddressOverflow { side } => {
                write!(f, "the {side} address overflows its address space")
            }
        }
    }
}

impl std::error::Error for AsyncCopyError {}

/// The operands of one group async copy (a 2D copy has one plane, and plane areas of
/// `lines · line_length`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CopyOperands {
    /// Whether `dst` is the shared side (else `src` is).
    pub dst_shared: bool,
    /// Destination pointer.
    pub dst: u64,
    /// Destination offset in elements.
    pub dst_offset: u64,
    /// Source pointer.
    pub src: u64,
    /// Source offset in elements.
    pub src_offset: u64,
    /// Bytes per element.
    pub elem_bytes: u64,
    /// Elements per line.
    pub elems_per_line: u64,
    /// Lines per plane.
    pub lines: u64,
    /// Planes.
    pub planes: u64,
    /// Source line length in elements.
    pub src_line_length: u64,
    /// Source plane area in elements.
    pub src_plane_area: u64,
    /// Destination line length in elements.
    pub dst_line_length: u64,
    /// Destination plane area in elements.
    pub dst_plane_area: u64,
    /// The event operand.
    pub event: u64,
}

impl CopyOperands {
    /// The operands in the intrinsic's source order, with their names.
    fn named(&self, op: IntrinsicOp) -> Vec<(&'static str, u64)> {
        let mut v = vec![
            ("dst", self.dst),
            ("dst_offset", self.dst_offset),
            ("src", self.src),
            ("src_offset", self.src_offset),
            ("elem_bytes", self.elem_bytes),
            ("elems_per_line", self.elems_per_line),
            ("lines", self.lines),
        ];
        if op == IntrinsicOp::GroupAsyncCopy3d3d {
            v.extend([
                ("planes", self.planes),
                ("src_line_length", self.src_line_length),
                ("src_plane_area", self.src_plane_area),
                ("dst_line_length", self.dst_line_length),
                ("dst_plane_area", self.dst_plane_area),
            ]);
        } else {
            v.extend([
                ("src_line_length", self.src_line_length),
                ("dst_line_length", self.dst_line_length),
            ]);
        }
        v.push(("event", self.event));
        v
    }

    /// Decodes the operands of lane `lane` of a copy.
    fn of_lane(call: &IntrinsicCall<'_>, lane: usize) -> Result<CopyOperands, AsyncCopyError> {
        let s = |i: usize| call.src_scalar(i, lane);
        let dst_bits = call.src_type(0).bit_size();
        let src_bits = call.src_type(2).bit_size();
        let dst_shared = match (dst_bits, src_bits) {
            (32, 64) => true,
            (64, 32) => false,
            _ => return Err(AsyncCopyError::Spaces { dst_bits, src_bits }),
        };
        let (planes, src_ll, src_pa, dst_ll, dst_pa, event) =
            if call.op() == IntrinsicOp::GroupAsyncCopy3d3d {
                (s(7), s(8), s(9), s(10), s(11), s(12))
            } else {
                (1, s(7), s(6) * s(7), s(8), s(6) * s(8), s(9))
            };
        Ok(CopyOperands {
            dst_shared,
            dst: s(0),
            dst_offset: s(1),
            src: s(2),
            src_offset: s(3),
            elem_bytes: s(4),
            elems_per_line: s(5),
            lines: s(6),
            planes,
            src_line_length: src_ll,
            src_plane_area: src_pa,
            dst_line_length: dst_ll,
            dst_plane_area: dst_pa,
            event,
        })
    }

    /// The specification's undefined-behaviour rules on the shape.
    pub fn check_shape(&self) -> Result<(), AsyncCopyError> {
        for (side, ll, pa) in [
            ("source", self.src_line_length, self.src_plane_area),
            ("destination", self.dst_line_length, self.dst_plane_area),
        ] {
            if ll < self.elems_per_line {
                return Err(AsyncCopyError::OverlappingLines {
                    side,
                    line_length: ll,
                    elems_per_line: self.elems_per_line,
                });
            }
            let needed = self.lines * ll;
            if pa < needed {
                return Err(AsyncCopyError::OverlappingPlanes {
                    side,
                    plane_area: pa,
                    needed,
                });
            }
        }
        Ok(())
    }

    /// The target of element `e` of line `l` of plane `p` on one side.
    fn target(&self, dst_side: bool, p: u64, l: u64, e: u64) -> Result<Target, AsyncCopyError> {
        let (side, ptr, off, ll, pa, shared) = if dst_side {
            (
                "destination",
                self.dst,
                self.dst_offset,
                self.dst_line_length,
                self.dst_plane_area,
                self.dst_shared,
            )
        } else {
            (
                "source",
                self.src,
                self.src_offset,
                self.src_line_length,
                self.src_plane_area,
                !self.dst_shared,
            )
        };
        let wide = off as u128 + p as u128 * pa as u128 + l as u128 * ll as u128 + e as u128;
        if wide > u32::MAX as u128 {
            return Err(AsyncCopyError::IndexOverflow {
                side,
                index: u64::try_from(wide).unwrap_or(u64::MAX),
            });
        }
        // Both factors fit in 32 bits.
        let bytes = wide as u64 * self.elem_bytes;
        let overflow = AsyncCopyError::AddressOverflow { side };
        if shared {
            let a = ptr + bytes;
            if a > u32::MAX as u64 {
                return Err(overflow);
            }
            Ok(Target::Shared(a))
        } else {
            Ok(Target::Global(ptr.checked_add(bytes).ok_or(overflow)?))
        }
    }

    /// Performs the copy, element by element.
    fn perform(
        &self,
        mem: &mut Memory,
        call: &IntrinsicCall<'_>,
        lane: usize,
    ) -> Result<(), EnvError> {
        self.check_shape().map_err(EnvError::new)?;
        if self.planes == 0 || self.lines == 0 || self.elems_per_line == 0 {
            return Ok(());
        }
        // The last element has the largest index on each side: check both before
        // copying anything.
        let (p, l, e) = (self.planes - 1, self.lines - 1, self.elems_per_line - 1);
        self.target(false, p, l, e).map_err(EnvError::new)?;
        self.target(true, p, l, e).map_err(EnvError::new)?;
        let ctx = access_ctx(call, lane);
        // Elements move in pieces of at most 128 bytes (the largest OpenCL gentype), so
        // that an absurd element size cannot make the executor allocate it whole.
        let mut buf = [0u8; 128];
        let mem_err = |er| EnvError::at_lane(lane as u32, er);
        for p in 0..self.planes {
            for l in 0..self.lines {
                for e in 0..self.elems_per_line {
                    let from = self.target(false, p, l, e).map_err(EnvError::new)?;
                    let to = self.target(true, p, l, e).map_err(EnvError::new)?;
                    let mut done = 0u64;
                    while done < self.elem_bytes {
                        let n = (self.elem_bytes - done).min(128) as usize;
                        mem.load(shift(from, done), &mut buf[..n], &ctx)
                            .map_err(mem_err)?;
                        mem.store(shift(to, done), &buf[..n], &ctx)
                            .map_err(mem_err)?;
                        done += n as u64;
                    }
                }
            }
        }
        Ok(())
    }
}

/// `t` moved `by` bytes further (wrapping, like the hardware's address arithmetic; the
/// memory then reports an access outside its space).
fn shift(t: Target, by: u64) -> Target {
    match t {
        Target::Global(a) => Target::Global(a.wrapping_add(by)),
        Target::Shared(a) => Target::Shared(a.wrapping_add(by)),
        other => other,
    }
}

/// One copy a workgroup performed.
#[derive(Clone, Debug)]
struct Performed {
    operands: CopyOperands,
    event: u32,
    subgroup: u32,
}

/// A subgroup that executed a copy another number of times than the subgroup that
/// executed it most.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountMismatch {
    /// The copy's position.
    pub span: Span,
    /// The subgroup.
    pub subgroup: u32,
    /// How often it executed the copy.
    pub count: usize,
    /// How often the copy was performed (executed by the subgroup that executed it
    /// most).
    pub expected: usize,
}

impl fmt::Display for CountMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "subgroup {} executed the group async copy at {} {} time{}, but it was performed {} time{}: every work-item of the workgroup must encounter it",
            self.subgroup,
            self.span,
            self.count,
            if self.count == 1 { "" } else { "s" },
            self.expected,
            if self.expected == 1 { "" } else { "s" },
        )
    }
}

impl std::error::Error for CountMismatch {}

/// The group async copies of one workgroup: which were performed, by whom, and how
/// often each subgroup has executed each copy instruction.
#[derive(Clone, Debug, Default)]
pub struct AsyncCopies {
    performed: BTreeMap<Inst, (Span, Vec<Performed>)>,
    /// Per subgroup, per instruction: executions so far.
    counts: Vec<BTreeMap<Inst, usize>>,
    next_token: u32,
}

impl AsyncCopies {
    /// The state of a workgroup that has not started.
    pub fn new() -> AsyncCopies {
        AsyncCopies::default()
    }

    /// Executes a group async copy for subgroup `subgroup`, whose lanes `lanes` (a
    /// mask) run: performs it if this subgroup is the first to reach it, or checks the
    /// operands against the copy performed; writes the event to every active lane.
    pub fn execute(
        &mut self,
        mem: &mut Memory,
        call: &mut IntrinsicCall<'_>,
        subgroup: u32,
        lanes: u32,
    ) -> Result<(), EnvError> {
        call.check_sources()?;
        let missing = lanes & !call.exec_mask;
        if missing != 0 {
            return Err(EnvError::new(AsyncCopyError::Divergent { missing }));
        }
        let active: Vec<usize> = call.active_lanes().collect();
        let Some(&first_lane) = active.first() else {
            return Ok(());
        };
        let op = call.op();
        let ops = CopyOperands::of_lane(call, first_lane).map_err(EnvError::new)?;
        let named = ops.named(op);
        for &lane in &active[1..] {
            let other = CopyOperands::of_lane(call, lane)
                .map_err(EnvError::new)?
                .named(op);
            if let Some(((operand, first), (_, value))) =
                named.iter().zip(&other).find(|(a, b)| a.1 != b.1)
            {
                return Err(EnvError::at_lane(
                    lane as u32,
                    AsyncCopyError::LanesDisagree {
                        operand,
                        first: *first,
                        lane: lane as u32,
                        value: *value,
                    },
                ));
            }
        }
        let sg = subgroup as usize;
        if self.counts.len() <= sg {
            self.counts.resize(sg + 1, BTreeMap::new());
        }
        let n = {
            let c = self.counts[sg].entry(call.inst).or_insert(0);
            *c += 1;
            *c - 1
        };
        let (_, list) = self
            .performed
            .entry(call.inst)
            .or_insert_with(|| (call.span, Vec::new()));
        let event = if let Some(done) = list.get(n) {
            let first = done.operands.named(op);
            if let Some(((operand, f), (_, value))) =
                first.iter().zip(&named).find(|(a, b)| a.1 != b.1)
            {
                return Err(EnvError::new(AsyncCopyError::SubgroupsDisagree {
                    operand,
                    first_subgroup: done.subgroup,
                    first: *f,
                    value: *value,
                }));
            }
            done.event
        } else {
            ops.perform(mem, call, first_lane)?;
            let event = if ops.event != 0 {
                ops.event as u32
            } else {
                self.next_token += 1;
                self.next_token
            };
            list.push(Performed {
                operands: ops,
                event,
                subgroup,
            });
            event
        };
        for lane in active {
            call.set_dest(lane, &[event as u64]);
        }
        Ok(())
    }

    /// `group_wait_events`: the copies are complete when they return, so there is
    /// nothing to wait for; the lanes must all execute it (it is a workgroup function).
    pub fn wait(call: &mut IntrinsicCall<'_>, lanes: u32) -> Result<(), EnvError> {
        call.check_sources()?;
        let missing = lanes & !call.exec_mask;
        if missing != 0 {
            return Err(EnvError::msg(format!(
                "lanes {missing:#x} do not execute `@group_wait_events`: every work-item of the workgroup must encounter it"
            )));
        }
        Ok(())
    }

    /// At the end of the workgroup, whose `subgroups` subgroups have all finished:
    /// checks that each executed every copy as often as it was performed.
    pub fn finish(&self, subgroups: u32) -> Result<(), CountMismatch> {
        for (inst, (span, list)) in &self.performed {
            for sg in 0..subgroups {
                let count = self
                    .counts
                    .get(sg as usize)
                    .and_then(|c| c.get(inst))
                    .copied()
                    .unwrap_or(0);
                if count != list.len() {
                    return Err(CountMismatch {
                        span: *span,
                        subgroup: sg,
                        count,
                        expected: list.len(),
                    });
                }
            }
        }
        Ok(())
    }
}
