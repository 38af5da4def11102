//! The message intrinsics of the IR (`lsc_*`, `lsc_*_block2d`, `sampler_ld`,
//! `sampler_ld_lz`, `sampler_resinfo`), executed through [`crate::messages`].
//!
//! This adapter is the IR's side of a message: it decodes the intrinsic's indices, checks
//! that its operands have the types the message needs (an address of the address size,
//! data of the data shape, 32-bit coordinates), reads them as per-lane values, resolves
//! the image each lane names to its binding-table index, and writes the results back.
//! Block messages are subgroup-level: the adapter checks that every lane is active and
//! that the payload is uniform, and spreads the register image over the lanes (component
//! `k` of lane `i` of `b` bits holds bytes `R[(k·SG + i)·b/8 ..][.. b/8]`).

use crate::call::{
    check_spread, check_whole_subgroup, gather_from_lanes, image_binding_indices, scatter_to_lanes,
    sender, uniform_binding, uniform_scalar,
};
use crate::memory::Memory;
use crate::messages::block2d::{self, Block2d, TypedBlock, UntypedBlock};
use crate::messages::lsc::{LscMessage, Message};
use crate::messages::sample::{self, SampleMessage};
use crate::messages::sampler::{self, ResinfoMessage, SamplerMessage};
use crate::messages::typed::{self, Coords};
use crate::messages::{untyped, Lanes, LanesMut, MessageError};
use ir::interp::{EnvError, IntrinsicCall};
use ir::lsc::{DataShape, Sfid};
use ir::{AluType, IndexKind, IntrinsicOp, Type};

/// Executes a message intrinsic for all its lanes.
pub fn execute(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    call.check_sources()?;
    match call.op() {
        IntrinsicOp::SamplerLd
        | IntrinsicOp::SamplerLdLz
        | IntrinsicOp::SamplerLdMcs
        | IntrinsicOp::SamplerLd2dmsW => sampler_ld(mem, call),
        IntrinsicOp::SamplerResinfo => sampler_resinfo(mem, call),
        IntrinsicOp::SamplerSampleL | IntrinsicOp::SamplerGather4 => sampler_sample(mem, call),
        IntrinsicOp::LscLoadBlock2d | IntrinsicOp::LscStoreBlock2d => block(mem, call),
        op if op.is_lsc() => {
            let m = LscMessage::decode(op, &call.intrinsic.indices)?;
            if m.sfid == Sfid::Tgm {
                typed_message(mem, call, m)
            } else {
                untyped_message(mem, call, m)
            }
        }
        op => Err(EnvError::msg(format!("`@{op}` is not a message"))),
    }
}

/// Source `i` of every lane.
fn lanes<'a>(call: &IntrinsicCall<'a>, i: usize) -> Lanes<'a> {
    Lanes::new(
        call.src_lanes(i),
        call.src_type(i).num_components() as usize,
    )
}

/// The atomic's `src1` and `src2` from source `first` on (empty where the sub-op takes
/// fewer operands).
fn atomic_operands<'a>(call: &IntrinsicCall<'a>, first: usize, m: &LscMessage) -> [Lanes<'a>; 2] {
    let n = m.atomic.map_or(0, |op| op.num_data_operands());
    let empty = Lanes::new(&[], 1);
    [
        if n >= 1 { lanes(call, first) } else { empty },
        if n >= 2 {
            lanes(call, first + 1)
        } else {
            empty
        },
    ]
}

/// Runs `f` with the call's destination as per-lane results.
fn with_dest<R>(
    call: &mut IntrinsicCall<'_>,
    f: impl FnOnce(&mut LanesMut<'_>) -> Result<R, EnvError>,
) -> Result<R, EnvError> {
    let comps = call.dest_components();
    let mut dest = LanesMut::new(call.dest_lanes_mut(), comps);
    f(&mut dest)
}

fn check_addr_type(
    call: &IntrinsicCall<'_>,
    src: usize,
    m: &LscMessage,
    what: &str,
) -> Result<(), EnvError> {
    let t = call.src_type(src);
    if t.bit_size() != m.addr_size.bits() || t.num_components() != 1 {
        return Err(MessageError::shape(format!(
            "the {what} is {t}, expected a {}-bit scalar for {}",
            m.addr_size.bits(),
            m.addr_size.name()
        )));
    }
    Ok(())
}

fn check_data(
    call: &IntrinsicCall<'_>,
    src: usize,
    want: Type,
    what: &str,
) -> Result<(), EnvError> {
    let t = call.src_type(src);
    if t != want {
        return Err(MessageError::shape(format!(
            "the {what} is {t}, expected {want}"
        )));
    }
    Ok(())
}

fn check_dest(call: &IntrinsicCall<'_>, want: Type) -> Result<(), EnvError> {
    if let Some(d) = call.dest_type {
        if d != want {
            return Err(MessageError::shape(format!(
                "the destination is {d}, expected {want}"
            )));
        }
    }
    Ok(())
}

/// The per-lane data type of a message with this shape.
fn data_type(shape: DataShape) -> Result<Type, EnvError> {
    Type::new(shape.size.reg_bits(), shape.components()).ok_or_else(|| {
        MessageError::shape(format!(
            "lsc_data={shape} has {} components per lane, which no IR value can hold",
            shape.components()
        ))
    })
}

fn check_atomic_operands(
    call: &IntrinsicCall<'_>,
    first: usize,
    m: &LscMessage,
) -> Result<(), EnvError> {
    let bits = m.shape.size.reg_bits();
    let n = m.atomic.map_or(0, |op| op.num_data_operands());
    for i in 0..n {
        let t = call.src_type(first + i);
        if t.bit_size() != bits || t.num_components() != 1 {
            return Err(MessageError::shape(format!(
                "atomic operand src{} is {t}, expected a {bits}-bit scalar",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The binding-table index of the image each served lane names (none for a message
/// that names no image).
fn surfaces(call: &IntrinsicCall<'_>) -> Result<Vec<u32>, EnvError> {
    if call.image.is_none() {
        return Ok(Vec::new());
    }
    image_binding_indices(call, call.enabled_mask())
}

fn untyped_message(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: LscMessage,
) -> Result<(), EnvError> {
    let stateful = !matches!(m.addr_type, ir::lsc::AddrType::Flat) && m.sfid != Sfid::Slm;
    let surfaces = if stateful {
        surfaces(call)?
    } else {
        Vec::new()
    };
    let msg = Message {
        sender: sender(call),
        desc: m,
        enabled: call.enabled_mask(),
        surfaces: &surfaces,
    };
    let dtype = data_type(m.shape);
    match m.op {
        IntrinsicOp::LscAtomic => {
            check_addr_type(call, 0, &m, "address")?;
            check_atomic_operands(call, 1, &m)?;
            check_dest(call, dtype?)?;
            let addr = lanes(call, 0);
            let [a, b] = atomic_operands(call, 1, &m);
            with_dest(call, |d| untyped::atomic(mem, &msg, addr, a, b, d))
        }
        IntrinsicOp::LscLoadStrided | IntrinsicOp::LscStoreStrided => {
            check_addr_type(call, 0, &m, "base address")?;
            let dtype = dtype?;
            let (base, pitch) = (lanes(call, 0), lanes(call, 1));
            if m.op == IntrinsicOp::LscStoreStrided {
                check_data(call, 2, dtype, "data")?;
                untyped::store_strided(mem, &msg, base, pitch, lanes(call, 2))
            } else {
                check_dest(call, dtype)?;
                with_dest(call, |d| untyped::load_strided(mem, &msg, base, pitch, d))
            }
        }
        IntrinsicOp::LscLoad | IntrinsicOp::LscLoadQuad => {
            check_addr_type(call, 0, &m, "address")?;
            check_dest(call, dtype?)?;
            let addr = lanes(call, 0);
            with_dest(call, |d| untyped::load(mem, &msg, addr, d))
        }
        IntrinsicOp::LscStore | IntrinsicOp::LscStoreQuad => {
            check_addr_type(call, 0, &m, "address")?;
            check_data(call, 1, dtype?, "data")?;
            untyped::store(mem, &msg, lanes(call, 0), lanes(call, 1))
        }
        op => Err(EnvError::msg(format!("`@{op}` is not an untyped message"))),
    }
}

fn typed_message(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: LscMessage,
) -> Result<(), EnvError> {
    for i in 0..4 {
        let t = call.src_type(i);
        if t != Type::U32 {
            return Err(MessageError::shape(format!(
                "typed coordinate {} is {t}, expected a 32-bit scalar",
                ["u", "v", "r", "lod"][i]
            )));
        }
    }
    let dtype = data_type(m.shape)?;
    match m.op {
        IntrinsicOp::LscLoadQuad => check_dest(call, dtype)?,
        IntrinsicOp::LscStoreQuad => check_data(call, 4, dtype, "data")?,
        IntrinsicOp::LscAtomic => {
            check_atomic_operands(call, 4, &m)?;
            check_dest(call, dtype)?;
        }
        op => return Err(MessageError::illegal(format!("{op} on .tgm"))),
    }
    let surfaces = surfaces(call)?;
    let msg = Message {
        sender: sender(call),
        desc: m,
        enabled: call.enabled_mask(),
        surfaces: &surfaces,
    };
    let coords = Coords {
        u: lanes(call, 0),
        v: lanes(call, 1),
        r: lanes(call, 2),
        lod: lanes(call, 3),
    };
    match m.op {
        IntrinsicOp::LscLoadQuad => with_dest(call, |d| typed::load_quad(mem, &msg, coords, d)),
        IntrinsicOp::LscStoreQuad => typed::store_quad(mem, &msg, coords, lanes(call, 4)),
        _ => {
            let [a, b] = atomic_operands(call, 4, &m);
            with_dest(call, |d| typed::atomic(mem, &msg, coords, a, b, d))
        }
    }
}

fn block(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let m = Block2d::decode(call.op(), &call.intrinsic.indices)?;
    check_whole_subgroup(call)?;
    if m.sfid == Sfid::Tgm {
        typed_block(mem, call, &m)
    } else {
        untyped_block(mem, call, &m)
    }
}

fn untyped_block(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &Block2d,
) -> Result<(), EnvError> {
    let names = ["base", "width - 1", "height - 1", "pitch - 1", "x", "y"];
    let mut p = [0u64; 6];
    for (i, name) in names.iter().enumerate() {
        p[i] = uniform_scalar(call, i, name)?;
    }
    let surf = UntypedBlock::from_payload(p);
    if m.store {
        let r = gather_from_lanes(call, 6, m.untyped_store_bytes())?;
        return block2d::store_untyped(mem, &sender(call), m, &surf, &r);
    }
    let r = block2d::load_untyped(mem, &sender(call), m, &surf)?;
    scatter_to_lanes(call, &r)
}

fn typed_block(
    mem: &mut Memory,
    call: &mut IntrinsicCall<'_>,
    m: &Block2d,
) -> Result<(), EnvError> {
    let x = uniform_scalar(call, 0, "x")? as u32 as i32 as i64;
    let y = uniform_scalar(call, 1, "y")? as u32 as i32 as i64;
    let binding = uniform_binding(call)?;
    let block = TypedBlock::new(mem, &sender(call), m, binding)?;
    let bytes = block.register_bytes();
    if m.store {
        let mut r = gather_from_lanes(call, 2, bytes)?;
        return block.access(mem, &sender(call), x, y, &mut r);
    }
    if let Some(t) = call.dest_type {
        check_spread(call, "the destination", t, bytes)?;
    }
    let mut r = vec![0u8; bytes];
    block.access(mem, &sender(call), x, y, &mut r)?;
    scatter_to_lanes(call, &r)
}

/// The sampler's unfiltered loads: `ld` (u, v, lod, r), `ld_lz` (u, v, r), `ld_mcs`
/// (u, v, r) and `ld2dms_w` (si, mcsl, mcsh, u, v, r).
fn sampler_ld(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let op = call.op();
    let channels = call
        .index(IndexKind::Channels)
        .filter(|c| (1..=0xf).contains(c))
        .ok_or_else(|| MessageError::bad_index("channels"))?;
    // `ld_mcs` returns the MCS dwords; the others the texel as `dest_type`.
    let base = if op == IntrinsicOp::SamplerLdMcs {
        ir::BaseType::Uint
    } else {
        call.index(IndexKind::DestType)
            .and_then(AluType::from_index)
            .ok_or_else(|| MessageError::bad_index("dest_type"))?
            .base
    };
    let nsrc = match op {
        IntrinsicOp::SamplerLd => 4,
        IntrinsicOp::SamplerLd2dmsW => 6,
        _ => 3,
    };
    for i in 0..nsrc {
        if call.src_type(i) != Type::U32 {
            return Err(MessageError::shape(format!(
                "sampler parameter {i} is {}, expected a 32-bit scalar",
                call.src_type(i)
            )));
        }
    }
    let surfaces = surfaces(call)?;
    let msg = SamplerMessage {
        sender: sender(call),
        enabled: call.enabled_mask(),
        surfaces: &surfaces,
        channels: channels as u8,
        dest_bits: call.dest_type.map_or(32, |t| t.bit_size()),
        dest_base: base,
    };
    let l = |i| lanes(call, i);
    match op {
        IntrinsicOp::SamplerLdMcs => with_dest(call, |d| sampler::ld_mcs(mem, &msg, d)),
        IntrinsicOp::SamplerLd2dmsW => {
            let (si, uvr) = (l(0), [l(3), l(4), l(5)]);
            with_dest(call, |d| sampler::ld2dms_w(mem, &msg, si, uvr, d))
        }
        IntrinsicOp::SamplerLd => {
            let (u, v, lod, r) = (l(0), l(1), l(2), l(3));
            with_dest(call, |d| sampler::ld(mem, &msg, u, v, r, Some(lod), d))
        }
        _ => {
            let (u, v, r) = (l(0), l(1), l(2));
            with_dest(call, |d| sampler::ld(mem, &msg, u, v, r, None, d))
        }
    }
}

/// `sample_l` (lod, u, v, r) and `gather4` (u, v, r).
fn sampler_sample(mem: &mut Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let gather = call.op() == IntrinsicOp::SamplerGather4;
    let (name, params) = if gather {
        ("gather4", 3)
    } else {
        ("sample_l", 4)
    };
    let channels = if gather {
        0xf
    } else {
        call.index(IndexKind::Channels)
            .filter(|c| (1..=0xf).contains(c))
            .ok_or_else(|| MessageError::bad_index("channels"))?
    };
    let sampler = call
        .index(IndexKind::Sampler)
        .ok_or_else(|| MessageError::bad_index("sampler"))?;
    let offset = call
        .index(IndexKind::TexelOffset)
        .and_then(ir::TexelOffset::from_index)
        .ok_or_else(|| MessageError::bad_index("texel_offset"))?;
    for i in 0..params {
        if call.src_type(i) != Type::U32 {
            return Err(MessageError::shape(format!(
                "{name} parameter {i} is {}, expected a 32-bit scalar",
                call.src_type(i)
            )));
        }
    }
    check_dest(call, Type::vec32(channels.count_ones() as u8))?;
    let surfaces = surfaces(call)?;
    let msg = SampleMessage {
        sender: sender(call),
        enabled: call.enabled_mask(),
        surfaces: &surfaces,
        sampler,
        channels: channels as u8,
        offset,
    };
    if gather {
        let component = call
            .index(IndexKind::Component)
            .filter(|&c| c < 4)
            .ok_or_else(|| MessageError::bad_index("component"))? as usize;
        let (u, v, r) = (lanes(call, 0), lanes(call, 1), lanes(call, 2));
        return with_dest(call, |d| sample::gather4(mem, &msg, component, u, v, r, d));
    }
    // sample_l: lod, u, v, r.
    let (lod, u, v, r) = (
        lanes(call, 0),
        lanes(call, 1),
        lanes(call, 2),
        lanes(call, 3),
    );
    with_dest(call, |d| sample::sample_l(mem, &msg, lod, u, v, r, d))
}

fn sampler_resinfo(mem: &Memory, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
    let channels = call
        .index(IndexKind::Channels)
        .filter(|c| (1..=0xf).contains(c))
        .ok_or_else(|| MessageError::bad_index("channels"))?;
    if call.src_type(0) != Type::U32 {
        return Err(MessageError::shape(format!(
            "the resinfo LOD is {}, expected a 32-bit scalar",
            call.src_type(0)
        )));
    }
    let want = Type::vec32(channels.count_ones() as u8);
    check_dest(call, want)?;
    let surfaces = surfaces(call)?;
    let msg = ResinfoMessage {
        sender: sender(call),
        enabled: call.enabled_mask(),
        surfaces: &surfaces,
        channels: channels as u8,
    };
    let lod = lanes(call, 0);
    with_dest(call, |d| sampler::resinfo(mem, &msg, lod, d))
}

#[cfg(test)]
mod tests {
    #[test]
    fn out_of_bounds_typed_reads_return_the_texel_replacement() {
        use ir::Value;
        // An RG16_FLOAT surface read as four channels: in bounds the missing B and A
        // read (0, 1.0); out of bounds R and G are 0 too.
        let text = "shader compute (local_size=1,1,1)
image @img : 2d rg16_float (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000002)
    32x4 %2 = @lsc_load_quad (@img, %1, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
    32x4 %3 = @lsc_load_quad (@img, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
}";
        let shader = crate::fixtures::parse(text);
        let mut ex = crate::fixtures::executor(&shader, 1);
        let f = tiling::Format::R16G16_FLOAT;
        let id =
            crate::fixtures::bind_linear_2d(&mut ex.memory, 0, f, ir::Format::Rg16Float, [2, 2]);
        // 1.0 (0x3c00) in R and G of every texel.
        for t in ex.memory.allocation_mut(id).bytes.chunks_mut(4) {
            t.copy_from_slice(&[0x00, 0x3c, 0x00, 0x3c]);
        }
        let rec = [Value::from_u32(2), Value::from_u32(3)];
        let r = ex.run_recording([1, 1, 1], &rec).unwrap();
        let get = |v: Value| r.values[&v][0].clone().unwrap();
        assert_eq!(get(rec[0]), [0, 0, 0, 0x3f80_0000]);
        assert_eq!(get(rec[1]), [0x3f80_0000, 0x3f80_0000, 0, 0x3f80_0000]);
    }
}
