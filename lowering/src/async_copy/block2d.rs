//! Copies as 2D block messages.

use super::address::side_desc;
use super::arith::Arith;
use super::copy::{builder, Copy, Num, Side};
use crate::device::Device;
use crate::error::CopyBlockProblem;
use crate::messages::block2d::{
    data_size_of, register_bytes, split_rect, Block2dForm, Block2dOp, Block2dTable, BlockAccess,
    BlockRect, Packing,
};
use ir::lsc::{Block2dDesc, BlockShape, DataShape, DataSize, Sfid};
use ir::{Builder, Function, IntrinsicOp, Src, Type};

/// Copies that take more block messages than this use the loop under
/// [`Block2dPolicy::Auto`](super::Block2dPolicy::Auto) (each message comes with up to 16 shared-memory messages).
pub const MAX_AUTO_BLOCKS: usize = 64;

/// The direction of a copy.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Direction {
    /// Global to shared: block loads, then shared-memory stores.
    ToShared,
    /// Shared to global: shared-memory loads, then block stores.
    ToGlobal,
}

/// One block message of a copy and how its register image spreads over the lanes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct PlannedBlock {
    pub(super) plane: u32,
    /// First element (of the message's element size) and row in the plane.
    pub(super) x: u32,
    pub(super) y: u32,
    pub(super) w: u32,
    pub(super) h: u32,
    pub(super) shape: BlockShape,
    /// Bytes per register-image chunk (one component of one lane): 1, 2, 4 or 8.
    pub(super) chunk: u32,
    /// Components per lane.
    pub(super) comps: u32,
}

/// A copy as 2D block messages.
#[derive(Clone, Debug)]
pub(super) struct BlockPlan {
    pub(super) dir: Direction,
    /// Bytes of the message's elements (1, 2, 4 or 8).
    pub(super) e: u32,
    /// The copy's constant element size.
    pub(super) elem_bytes: u32,
    /// Bytes per line, lines per plane, constant line lengths and plane areas (bytes).
    pub(super) line_bytes: u32,
    pub(super) lines: u32,
    pub(super) src_pitch: u64,
    pub(super) dst_pitch: u64,
    pub(super) src_plane: u64,
    pub(super) dst_plane: u64,
    pub(super) subgroup_size: u32,
    pub(super) subgroups: u32,
    pub(super) blocks: Vec<PlannedBlock>,
}

impl BlockPlan {
    /// Whether [`Block2dPolicy::Auto`] takes it.
    pub(super) fn auto_ok(&self) -> bool {
        self.blocks.len() <= MAX_AUTO_BLOCKS
    }

    /// Register-image row pitch of a block, in bytes.
    pub(super) fn row_pitch(&self, b: &PlannedBlock) -> u32 {
        b.w.next_power_of_two() * self.e
    }

    /// Whether chunk `k` of lane `lane` of block `b` holds an element byte (not padding).
    pub(super) fn chunk_valid(&self, b: &PlannedBlock, k: u32, lane: u32) -> bool {
        let off = (k * self.subgroup_size + lane) * b.chunk;
        let rp = self.row_pitch(b);
        off / rp < b.h && off % rp < b.w * self.e
    }
}

/// The component counts a block's value may have: those of an IR vector (a load
/// defines one; a store assembles its data with `vec2` .. `vec16`).
pub(super) fn comps_ok(n: u32) -> bool {
    u8::try_from(n).is_ok_and(Type::is_valid_num_components)
}

/// How a register image of `bytes` bytes spreads over `sg` lanes: the largest chunk (1,
/// 2, 4 or 8 bytes) that divides the row bytes `row` (so no chunk straddles an element
/// row and its padding) and gives an IR vector's component count.
pub(super) fn lane_layout(bytes: u32, sg: u32, row: u32) -> Option<(u32, u32)> {
    [8u32, 4, 2, 1].into_iter().find_map(|chunk| {
        let per = sg * chunk;
        (row.is_multiple_of(chunk) && bytes.is_multiple_of(per) && comps_ok(bytes / per))
            .then_some((chunk, bytes / per))
    })
}

/// Plans a copy as 2D block messages, or says why it cannot be one.
pub(super) fn plan_block2d(
    c: &Copy,
    device: &Device,
    subgroup_size: Option<u32>,
    wg_size: u32,
) -> Result<BlockPlan, CopyBlockProblem> {
    let table = Block2dTable::for_device(device);
    table
        .check_available(Block2dForm::Untyped)
        .map_err(CopyBlockProblem::Rule)?;
    let sg = subgroup_size.ok_or(CopyBlockProblem::NoSubgroupSize)?;
    if !wg_size.is_multiple_of(sg) {
        return Err(CopyBlockProblem::PartialSubgroups {
            invocations: wg_size,
            subgroup: sg,
        });
    }
    let konst = |n: Num, operand: &'static str| match n {
        Num::K(k) => Ok(k),
        Num::V(_) => Err(CopyBlockProblem::DynamicShape { operand }),
    };
    let eb = konst(c.elem_bytes, "elem_bytes")?;
    let epl = konst(c.elems_per_line, "elems_per_line")?;
    let lines = konst(c.lines, "lines")?;
    let planes = konst(c.planes, "planes")?;
    let src_ll = konst(c.src.line_length, "src_line_length")?;
    let dst_ll = konst(c.dst.line_length, "dst_line_length")?;
    let src_pa = konst(c.src.plane_area, "src_plane_area")?;
    let dst_pa = konst(c.dst.plane_area, "dst_plane_area")?;
    let line_bytes = epl * eb;
    let fits = |v: u64| (1..=1u64 << 32).contains(&v);
    if !fits(line_bytes) || !fits(lines) || !fits(src_ll * eb) || !fits(dst_ll * eb) {
        return Err(CopyBlockProblem::PayloadRange {
            width: line_bytes,
            height: lines,
            src_pitch: src_ll * eb,
            dst_pitch: dst_ll * eb,
        });
    }
    // The message's element: the largest of 8, 4, 2, 1 bytes dividing a line.
    let e = [8u64, 4, 2, 1]
        .into_iter()
        .find(|e| line_bytes % e == 0)
        .unwrap_or(1) as u32;
    let dir = if c.dst.side == Side::Shared {
        Direction::ToShared
    } else {
        Direction::ToGlobal
    };
    let access = match dir {
        Direction::ToShared => BlockAccess::Load,
        Direction::ToGlobal => BlockAccess::Store,
    };
    let rect = BlockRect {
        width: (line_bytes / e as u64) as u32,
        height: lines as u32,
        elem_bytes: e,
    };
    let pieces = split_rect(&table, Block2dForm::Untyped, access, rect, Packing::Any)
        .map_err(CopyBlockProblem::Split)?;
    let size = data_size_of(e).expect("e is 1, 2, 4 or 8");
    let mut blocks = Vec::new();
    for plane in 0..planes as u32 {
        for p in &pieces {
            // Cut the piece into heights whose register image spreads over the lanes.
            let mut y = 0;
            while y < p.height {
                let mut h = p.height - y;
                let layout = loop {
                    let shape = BlockShape::untyped(1, p.width as u16, h as u16, false, false);
                    let bytes = register_bytes(Block2dForm::Untyped, size, shape);
                    if let Some((chunk, comps)) = lane_layout(bytes, sg, p.width * e) {
                        break Some((shape, chunk, comps));
                    }
                    if h == 1 {
                        break None;
                    }
                    h = h.div_ceil(2);
                };
                let Some((shape, chunk, comps)) = layout else {
                    return Err(CopyBlockProblem::LaneLayout {
                        row_bytes: p.width * e,
                        subgroup: sg,
                    });
                };
                let access_op = match dir {
                    Direction::ToShared => Block2dOp::Load,
                    Direction::ToGlobal => Block2dOp::Store,
                };
                table
                    .check_shape(Block2dForm::Untyped, access_op, size, shape)
                    .map_err(CopyBlockProblem::Rule)?;
                blocks.push(PlannedBlock {
                    plane,
                    x: p.x,
                    y: p.y + y,
                    w: p.width,
                    h,
                    shape,
                    chunk,
                    comps,
                });
                y += h;
            }
        }
    }
    Ok(BlockPlan {
        dir,
        e,
        elem_bytes: eb as u32,
        line_bytes: line_bytes as u32,
        lines: lines as u32,
        src_pitch: src_ll * eb,
        dst_pitch: dst_ll * eb,
        src_plane: src_pa * eb,
        dst_plane: dst_pa * eb,
        subgroup_size: sg,
        subgroups: wg_size / sg,
        blocks,
    })
}

/// The data shape of a shared-memory access of `chunk` bytes.
pub(super) fn chunk_shape(chunk: u32) -> DataShape {
    match chunk {
        1 => DataShape::vector(DataSize::D8U32, 1, false),
        2 => DataShape::vector(DataSize::D16U32, 1, false),
        4 => DataShape::vector(DataSize::D32, 1, false),
        _ => DataShape::vector(DataSize::D64, 1, false),
    }
}

/// Emits a copy as 2D block messages in front of it: block `j` is executed by subgroup
/// `j mod subgroups`, each subgroup's blocks under one `if` on the subgroup id (uniform
/// in the subgroup, so every lane runs the messages).
pub(super) fn emit_block2d(func: &mut Function, c: &Copy, p: &BlockPlan) {
    let mut b = builder(func, c);
    let intr32 = |b: &mut Builder<'_>, op: IntrinsicOp| {
        b.intrinsic(op, None, &[], &[], Some(Type::U32))
            .map(Src::new)
            .expect("a system value")
    };
    let lane = intr32(&mut b, IntrinsicOp::LoadSubgroupInvocation);
    let sgid = (p.subgroups > 1).then(|| intr32(&mut b, IntrinsicOp::LoadSubgroupId));
    let (global, shared) = match p.dir {
        Direction::ToShared => (&c.src, &c.dst),
        Direction::ToGlobal => (&c.dst, &c.src),
    };
    let (g_pitch, s_pitch, g_plane, s_plane) = match p.dir {
        Direction::ToShared => (p.src_pitch, p.dst_pitch, p.src_plane, p.dst_plane),
        Direction::ToGlobal => (p.dst_pitch, p.src_pitch, p.dst_plane, p.src_plane),
    };
    let eb = Num::K(p.elem_bytes as u64);
    // The first byte of each side: ptr + offset * elem_bytes (global offsets in 64 bits).
    let (g_base, s_base, payload) = {
        let mut a = Arith::new(&mut b);
        let off = a.u2u64(global.offset);
        let bytes = a.mul(off, eb, 64);
        let g_base = a.add(Num::V(global.ptr), bytes, 64);
        let bytes = a.mul(shared.offset, eb, 32);
        let s_base = a.add(Num::V(shared.ptr), bytes, 32);
        let payload = [
            a.src(Num::K(p.line_bytes as u64 - 1), 32),
            a.src(Num::K(p.lines as u64 - 1), 32),
            a.src(Num::K(g_pitch - 1), 32),
        ];
        (g_base, s_base, payload)
    };
    let groups = p.subgroups.min(p.blocks.len() as u32).max(1);
    for s in 0..groups {
        let if_id = sgid.map(|id| {
            let k = b.imm_u32(s);
            let mine = b.ieq(id, k);
            b.push_if(mine)
        });
        let mut a = Arith::new(&mut b);
        for (j, blk) in p.blocks.iter().enumerate() {
            if j as u32 % groups != s {
                continue;
            }
            emit_block(
                &mut a, p, blk, lane, g_base, s_base, payload, g_plane, s_plane, s_pitch,
            );
        }
        if let Some(id) = if_id {
            b.pop_if(id);
        }
    }
}

/// Emits one block message and the shared-memory messages of its register image.
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_block(
    a: &mut Arith<'_, '_>,
    p: &BlockPlan,
    blk: &PlannedBlock,
    lane: Src,
    g_base: Num,
    s_base: Num,
    payload: [Src; 3],
    g_plane: u64,
    s_plane: u64,
    s_pitch: u64,
) {
    let sg = p.subgroup_size;
    let size = data_size_of(p.e).expect("e is 1, 2, 4 or 8");
    let plane = blk.plane as u64;
    let g_plane_base = a.add(g_base, Num::K(plane * g_plane), 64);
    let base = a.src(g_plane_base, 64);
    let x = a.src(Num::K(blk.x as u64), 32);
    let y = a.src(Num::K(blk.y as u64), 32);
    let block_srcs = [base, payload[0], payload[1], payload[2], x, y];
    let block = Block2dDesc::new(Sfid::Ugm, size, blk.shape);
    let shared = side_desc(Side::Shared, chunk_shape(blk.chunk));
    let rp = p.row_pitch(blk);
    let chunk = blk.chunk;
    let chunk_ty = Type::new((chunk * 8) as u8, 1).expect("chunks are 8 to 64 bits");
    let value_ty = Type::new((chunk * 8) as u8, blk.comps as u8).expect("planned counts");
    // The shared-memory address of chunk `k` of this lane (row r, byte c of the
    // register image) and whether it is an element byte.
    let lane_bytes = a.mul(Num::V(lane), Num::K(chunk as u64), 32);
    let s_block = a.add(
        s_base,
        Num::K(plane * s_plane + blk.y as u64 * s_pitch + (blk.x * p.e) as u64),
        32,
    );
    let chunk_addr = |a: &mut Arith<'_, '_>, k: u32| -> (Src, Option<Src>) {
        let all = (0..sg).all(|l| p.chunk_valid(blk, k, l));
        let first = k * sg * chunk;
        let (r_lo, r_hi) = (first / rp, (first + sg * chunk - 1) / rp);
        // When the component's chunks lie in one register row (the usual case), the
        // row is a constant and only the column depends on the lane.
        let (r, col) = if r_lo == r_hi {
            let col = a.add(Num::K((first - r_lo * rp) as u64), lane_bytes, 32);
            (Num::K(r_lo as u64), col)
        } else {
            let off = a.add(Num::K(first as u64), lane_bytes, 32);
            (
                a.udiv(off, Num::K(rp as u64)),
                a.umod(off, Num::K(rp as u64)),
            )
        };
        let row_off = a.mul(r, Num::K(s_pitch), 32);
        let at = a.add(s_block, row_off, 32);
        let at = a.add(at, col, 32);
        let addr = a.src(at, 32);
        let pred = (!all).then(|| {
            let w = Num::K((blk.w * p.e) as u64);
            let in_row = {
                let (col, w) = (a.src(col, 32), a.src(w, 32));
                a.b.ult(col, w)
            };
            match r {
                // Rows below the block's height hold elements; only columns can be
                // padding.
                Num::K(r) if r < blk.h as u64 => Src::new(in_row),
                _ => {
                    let (r, h) = (a.src(r, 32), a.src(Num::K(blk.h as u64), 32));
                    let in_block = a.b.ult(r, h);
                    Src::new(a.b.iand(in_row, in_block))
                }
            }
        });
        (addr, pred)
    };
    match p.dir {
        Direction::ToShared => {
            let data =
                a.b.lsc_load_block2d(&block, None, &block_srcs, value_ty)
                    .expect("planned shapes encode");
            for k in 0..blk.comps {
                if !(0..sg).any(|l| p.chunk_valid(blk, k, l)) {
                    continue;
                }
                let (addr, pred) = chunk_addr(a, k);
                let comp = Src::new(data).component(k as u8);
                let value = if chunk < 4 {
                    Src::new(a.b.u2u32(comp))
                } else if blk.comps == 1 {
                    Src::new(data)
                } else {
                    comp
                };
                a.b.lsc_store(&shared, None, &[addr], value, pred);
            }
        }
        Direction::ToGlobal => {
            let mut comps = Vec::with_capacity(blk.comps as usize);
            for k in 0..blk.comps {
                if !(0..sg).any(|l| p.chunk_valid(blk, k, l)) {
                    comps.push(Src::new(a.b.zero(chunk_ty)));
                    continue;
                }
                let (addr, pred) = chunk_addr(a, k);
                let v = a.b.lsc_load(&shared, None, &[addr], pred);
                let v = match chunk {
                    1 => a.b.u2u8(v),
                    2 => a.b.u2u16(v),
                    _ => v,
                };
                comps.push(Src::new(v));
            }
            let data = if comps.len() == 1 {
                comps[0]
            } else {
                Src::new(a.b.vec(&comps))
            };
            a.b.lsc_store_block2d(&block, None, &block_srcs, data)
                .expect("planned shapes encode");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_images_spread_over_lanes() {
        // (image bytes, subgroup, row bytes) -> (chunk, components).
        assert_eq!(lane_layout(64, 16, 8), Some((4, 1)));
        assert_eq!(lane_layout(2048, 16, 64), Some((8, 16)));
        assert_eq!(lane_layout(192, 16, 64), Some((4, 3)));
        // A 12-byte row cannot take 8-byte chunks.
        assert_eq!(lane_layout(128, 8, 12), Some((4, 4)));
        assert_eq!(lane_layout(64, 32, 4), Some((2, 1)));
        assert_eq!(lane_layout(64, 1, 8), Some((8, 8)));
        // 5 components is no IR vector, nor 10, 20, 40.
        assert_eq!(lane_layout(320, 16, 64), None);
        // Odd rows move bytes: 64 of them in one lane is too many.
        assert_eq!(lane_layout(64, 1, 5), None);
        assert_eq!(lane_layout(64, 4, 5), Some((1, 16)));
    }
}
