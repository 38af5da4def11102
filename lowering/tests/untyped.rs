//! The untyped path end to end: lowered shaders run by the interpreter against the bytes
//! of a real (tiled) surface, and the instruction counts of the address code.
//!
//! The environment executes the untyped LSC messages as docs/hardware/lsc-messages.md describes
//! them (per-lane addresses into the surface's memory, `d8u32`/`d16u32` widening,
//! `d32xN` vectors, atomics returning the old value), and the legacy data-port messages
//! of the platforms before Gfx12.5 as `docs/hardware/dataport.md` describes them, and,
//! to catch code that relies on what the hardware does not promise, writes garbage into
//! the destination of every lane a predicate disables, into the upper bits of
//! `d8u32`/`d16u32` loads (undefined before Xe2, docs/hardware/lsc-messages.md §1) and into those
//! of byte scattered reads and 16-bit atomics. Surfaces, views and parameter blocks come
//! from the tiling crate; texel
//! positions from `Surface::texel_offset`.

use ir::dataport::{DpAddr, DpAtomicOp, DpDesc, DpMsg};
use ir::eval::{f16_to_f32, f32_to_f16};
use ir::interp::{Config, Env, EnvError, Interpreter, IntrinsicCall};
use ir::lsc::{AddrSize, AddrType, DataShape, LscAtomicOp, LscDesc};
use ir::passes::{Cleanup, Pass};
use ir::stats::Stats;
use ir::{ChannelKind, Format, ImageDim, IndexKind, IntrinsicOp, Shader};
use lowering::format::isl_format;
use lowering::{lower_images, Device, LowerErrorKind, LowerOptions, UntypedAddress};
use quickcheck::{Arbitrary, Gen as QcGen, QuickCheck, TestResult};

mod genx;
mod random_images;
use random_images::{below, extent, pick, qc_tests, storage_surface, surf_dim, view_and_param};
use std::collections::BTreeMap;
use tiling::{
    fill_image_param, Gen, ImageParam, ImageView, SurfDim, Surface, SurfaceDesc, Tiling, Usage,
};

fn dev(name: &str) -> Device {
    Device::preset(name).expect("preset")
}

const LANES: usize = 16;
/// Where flat (A64) accesses find the surface: above 4 GiB, so both base dwords matter.
const BASE_ADDRESS: u64 = 0x0000_0003_2000_0000;
/// What a disabled lane's destination and undefined upper bits read as.
const GARBAGE: u64 = 0xdead_beef_dead_beef;

// ----- the environment -------------------------------------------------------------------

/// Memory and inputs of one run.
struct Machine<'a> {
    device: &'a Device,
    param: &'a ImageParam,
    memory: Vec<u8>,
    /// Coordinates per invocation (as `load_global_invocation_id`).
    coords: &'a [[u32; 3]],
    /// `load_global` at address `k` returns `inputs[k][lane]`.
    inputs: &'a [Vec<Vec<u64>>],
    /// What `store_global` stored, per lane.
    outputs: Vec<Option<Vec<u64>>>,
    /// Flat or binding-table accesses seen, and their addresses (offsets in the surface).
    accesses: Vec<(IntrinsicOp, AddrType, u64)>,
}

fn err(m: impl Into<String>) -> EnvError {
    EnvError::msg(m.into())
}

impl Machine<'_> {
    /// The surface offset of lane `lane`'s address (source 0).
    fn offset(&self, call: &IntrinsicCall<'_>, lane: usize) -> Result<(AddrType, u64), EnvError> {
        let desc = Self::desc(call)?;
        let (addr, size) = (desc.addr_type, desc.addr_size);
        let a = call.src_scalar(0, lane);
        let off = match (addr, size) {
            (AddrType::Bti, AddrSize::A32) => a,
            (AddrType::Flat, AddrSize::A64) => a
                .checked_sub(BASE_ADDRESS)
                .ok_or_else(|| err(format!("flat address {a:#x} below the surface")))?,
            other => return Err(err(format!("unexpected address model {other:?}"))),
        };
        Ok((addr, off))
    }

    fn read(&self, off: u64, bytes: u64) -> Result<u64, EnvError> {
        let end = off
            .checked_add(bytes)
            .filter(|&e| e <= self.memory.len() as u64)
            .ok_or_else(|| err(format!("read of {bytes} B at {off:#x} outside the surface")))?;
        let mut v = 0u64;
        for (i, b) in self.memory[off as usize..end as usize].iter().enumerate() {
            v |= (*b as u64) << (8 * i);
        }
        Ok(v)
    }

    fn write(&mut self, off: u64, bytes: u64, v: u64) -> Result<(), EnvError> {
        let end = off
            .checked_add(bytes)
            .filter(|&e| e <= self.memory.len() as u64)
            .ok_or_else(|| {
                err(format!(
                    "write of {bytes} B at {off:#x} outside the surface"
                ))
            })?;
        for (i, b) in self.memory[off as usize..end as usize]
            .iter_mut()
            .enumerate()
        {
            *b = (v >> (8 * i)) as u8;
        }
        Ok(())
    }

    fn desc(call: &IntrinsicCall<'_>) -> Result<LscDesc, EnvError> {
        LscDesc::from_indices(&call.intrinsic.indices)
            .map_err(|e| err(format!("bad message indices: {e}")))
    }

    fn shape(call: &IntrinsicCall<'_>) -> Result<DataShape, EnvError> {
        Self::desc(call).map(|d| d.data)
    }

    fn message(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let shape = Self::shape(call)?;
        let elem = shape.size.mem_bytes() as u64;
        let upper_undefined = shape.size.is_conversion() && self.device.verx10() < 200;
        let lanes: Vec<usize> = call.active_lanes().collect();
        for lane in lanes {
            if !call.predicate(lane) {
                let n = call.dest_components();
                call.set_dest(lane, &vec![GARBAGE; n]);
                continue;
            }
            let (model, off) = self.offset(call, lane)?;
            self.accesses.push((call.op(), model, off));
            match call.op() {
                IntrinsicOp::LscLoad => {
                    let mut out = Vec::new();
                    for k in 0..shape.vect as u64 {
                        let mut v = self.read(off + k * elem, elem)?;
                        if upper_undefined {
                            v |= GARBAGE << (8 * elem) & 0xffff_ffff;
                        }
                        out.push(v);
                    }
                    call.set_dest(lane, &out);
                }
                IntrinsicOp::LscStore => {
                    let data = call.src(1, lane).to_vec();
                    for (k, &d) in data.iter().enumerate().take(shape.vect as usize) {
                        self.write(off + k as u64 * elem, elem, d)?;
                    }
                }
                IntrinsicOp::LscAtomic => {
                    let op = Self::desc(call)?.atomic.ok_or_else(|| err("no lsc_op"))?;
                    let old = self.read(off, elem)?;
                    let s1 = (op.num_data_operands() > 0).then(|| call.src_scalar(1, lane));
                    let s2 = (op.num_data_operands() > 1).then(|| call.src_scalar(2, lane));
                    let new = atomic(op, elem * 8, old, s1, s2)?;
                    self.write(off, elem, new)?;
                    call.set_dest(lane, &[old]);
                }
                op => return Err(err(format!("unexpected message {op}"))),
            }
        }
        Ok(())
    }
}

impl Machine<'_> {
    /// The surface offset of lane `lane`'s data-port address (source 0).
    fn dp_offset(&self, d: &DpDesc, a: u64) -> Result<(AddrType, u64), EnvError> {
        match d.addr {
            DpAddr::Bti => Ok((AddrType::Bti, a & 0xffff_ffff)),
            DpAddr::A64 => Ok((
                AddrType::Flat,
                a.checked_sub(BASE_ADDRESS)
                    .ok_or_else(|| err(format!("flat address {a:#x} below the surface")))?,
            )),
            DpAddr::Slm => Err(err("unexpected shared-memory message")),
        }
    }

    /// A legacy data-port message (docs/hardware/dataport.md §8): untyped reads and
    /// writes of the enabled dwords at `addr + 4c`, byte scattered reads and writes
    /// (the upper bytes of a read undefined), atomics on `dp_bits` returning the old
    /// value (the upper half of a 16-bit one undefined).
    fn dp_message(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let msg = call
            .op()
            .dp_msg()
            .ok_or_else(|| err("not a data-port message"))?;
        let d = DpDesc::from_indices(msg, &call.intrinsic.indices)
            .map_err(|e| err(format!("bad message indices: {e}")))?;
        let lanes: Vec<usize> = call.active_lanes().collect();
        for lane in lanes {
            if !call.predicate(lane) {
                let n = call.dest_components();
                call.set_dest(lane, &vec![GARBAGE; n]);
                continue;
            }
            let (model, off) = self.dp_offset(&d, call.src_scalar(0, lane))?;
            self.accesses.push((call.op(), model, off));
            let channels: Vec<u64> = (0..4).filter(|c| d.cmask & (1 << c) != 0).collect();
            match msg {
                DpMsg::UntypedRead => {
                    let mut out = Vec::new();
                    for &c in &channels {
                        out.push(self.read(off + 4 * c, 4)?);
                    }
                    call.set_dest(lane, &out);
                }
                DpMsg::UntypedWrite => {
                    let data = call.src(1, lane).to_vec();
                    for (&c, &v) in channels.iter().zip(&data) {
                        self.write(off + 4 * c, 4, v)?;
                    }
                }
                DpMsg::ByteScatteredRead => {
                    let n = u64::from(d.bytes);
                    let v = self.read(off, n)? | (GARBAGE << (8 * n) & 0xffff_ffff);
                    call.set_dest(lane, &[v]);
                }
                DpMsg::ByteScatteredWrite => {
                    let v = call.src_scalar(1, lane);
                    self.write(off, u64::from(d.bytes), v)?;
                }
                DpMsg::UntypedAtomic => {
                    let bytes = u64::from(d.bits / 8);
                    let old = self.read(off, bytes)?;
                    let n = d.num_atomic_srcs();
                    let s0 = (n > 0).then(|| call.src_scalar(1, lane));
                    let s1 = (n > 1).then(|| call.src_scalar(2, lane));
                    let op = match d.op {
                        DpAtomicOp::Inc => LscAtomicOp::Iinc,
                        DpAtomicOp::Dec => LscAtomicOp::Idec,
                        DpAtomicOp::Add => LscAtomicOp::Iadd,
                        DpAtomicOp::Sub => LscAtomicOp::Isub,
                        DpAtomicOp::Imin => LscAtomicOp::Smin,
                        DpAtomicOp::Imax => LscAtomicOp::Smax,
                        DpAtomicOp::Umin => LscAtomicOp::Umin,
                        DpAtomicOp::Umax => LscAtomicOp::Umax,
                        DpAtomicOp::And => LscAtomicOp::And,
                        DpAtomicOp::Or => LscAtomicOp::Or,
                        DpAtomicOp::Xor => LscAtomicOp::Xor,
                        DpAtomicOp::Mov => LscAtomicOp::Store,
                        DpAtomicOp::Cmpwr => LscAtomicOp::Icas,
                        DpAtomicOp::Fmin => LscAtomicOp::Fmin,
                        DpAtomicOp::Fmax => LscAtomicOp::Fmax,
                        DpAtomicOp::Fcmpwr => LscAtomicOp::Fcas,
                    };
                    let new = atomic(op, bytes * 8, old, s0, s1)?;
                    self.write(off, bytes, new)?;
                    let old = if bytes == 2 {
                        old | (GARBAGE << 16 & 0xffff_ffff)
                    } else {
                        old
                    };
                    call.set_dest(lane, &[old]);
                }
                other => return Err(err(format!("unexpected message {other}"))),
            }
        }
        Ok(())
    }
}

/// The memory value after an atomic `op` on `bits`-bit `old` (docs/hardware/lsc-messages.md §2).
fn atomic(
    op: LscAtomicOp,
    bits: u64,
    old: u64,
    s1: Option<u64>,
    s2: Option<u64>,
) -> Result<u64, EnvError> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let sx = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
    let a = s1.unwrap_or(0) & mask;
    let f = |v: u64| f32::from_bits(v as u32);
    let r = match op {
        LscAtomicOp::Iinc => old.wrapping_add(1),
        LscAtomicOp::Idec => old.wrapping_sub(1),
        LscAtomicOp::Iadd => old.wrapping_add(a),
        LscAtomicOp::Isub => old.wrapping_sub(a),
        LscAtomicOp::Smin => sx(old).min(sx(a)) as u64,
        LscAtomicOp::Smax => sx(old).max(sx(a)) as u64,
        LscAtomicOp::Umin => old.min(a),
        LscAtomicOp::Umax => old.max(a),
        LscAtomicOp::And => old & a,
        LscAtomicOp::Or => old | a,
        LscAtomicOp::Xor => old ^ a,
        LscAtomicOp::Store => a,
        LscAtomicOp::Icas => {
            if old == a {
                s2.unwrap_or(0)
            } else {
                old
            }
        }
        LscAtomicOp::Fmin if bits == 32 => f(old).min(f(a)).to_bits() as u64,
        LscAtomicOp::Fmax if bits == 32 => f(old).max(f(a)).to_bits() as u64,
        LscAtomicOp::Fadd if bits == 32 => (f(old) + f(a)).to_bits() as u64,
        LscAtomicOp::Fcas if bits == 32 => {
            if f(old) == f(a) {
                s2.unwrap_or(0)
            } else {
                old
            }
        }
        other => return Err(err(format!("atomic {other} on {bits} bits not modelled"))),
    };
    Ok(r & mask)
}

impl Env for Machine<'_> {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let lanes: Vec<usize> = call.active_lanes().collect();
        match call.op() {
            IntrinsicOp::LoadGlobalInvocationId => {
                for l in lanes {
                    let c = self.coords[call.invocations[l] as usize];
                    call.set_dest(l, &c.map(|x| x as u64));
                }
            }
            IntrinsicOp::ImageLoadParam => {
                let slot = call.index(IndexKind::Base).ok_or_else(|| err("no base"))?;
                let mut p = self.param.clone();
                p.set_base_address(BASE_ADDRESS);
                let v = p.slot(slot);
                for l in lanes {
                    call.set_dest(l, &v.map(|d| d as u64));
                }
            }
            IntrinsicOp::LoadGlobal => {
                for l in lanes {
                    let k = call.src_scalar(0, l) as usize;
                    let v = &self.inputs[k][call.invocations[l] as usize];
                    call.set_dest(l, v);
                }
            }
            IntrinsicOp::StoreGlobal => {
                for l in lanes {
                    self.outputs[l] = Some(call.src(0, l).to_vec());
                }
            }
            IntrinsicOp::LscLoad | IntrinsicOp::LscStore | IntrinsicOp::LscAtomic => {
                self.message(call)?
            }
            op if op.is_dataport() => self.dp_message(call)?,
            op => return Err(err(format!("unexpected intrinsic {op}"))),
        }
        Ok(())
    }
}

// ----- random images ---------------------------------------------------------------------

const SIZES: [u32; 11] = [1, 2, 3, 5, 8, 16, 17, 33, 64, 100, 130];
const DEPTHS: [u32; 7] = [1, 2, 3, 5, 16, 17, 33];

/// An image on a platform with a bound view and its parameter block.
#[derive(Clone, Debug)]
struct Image {
    device: Device,
    format: Format,
    dim: ImageDim,
    arrayed: bool,
    surface: Surface,
    view: ImageView,
    param: ImageParam,
    swizzle: bool,
    /// `layout={...}` text for a static layout, if the case uses one.
    layout: Option<String>,
}

impl Image {
    fn generate(g: &mut QcGen, device: Device, format: Format) -> Option<Image> {
        let gen = Gen::from_verx10(device.verx10())?;
        let tformat = isl_format(format)?;
        let (dim, arrayed) = pick(
            g,
            &[
                (ImageDim::D1, false),
                (ImageDim::D1, true),
                (ImageDim::D2, false),
                (ImageDim::D2, true),
                (ImageDim::Cube, false),
                (ImageDim::Cube, true),
                (ImageDim::D3, false),
            ],
        );
        let sdim = surf_dim(dim);
        let tiling = pick(g, &device.storage_tilings_for(tformat, sdim));
        let cube = dim == ImageDim::Cube;
        let [w, h, d] = extent(g, sdim, cube, &SIZES, &DEPTHS);
        let layers = if cube {
            6 * pick(g, &[1, 2])
        } else if sdim == SurfDim::D3 {
            1
        } else {
            pick(g, &[1, 2, 3])
        };
        let levels = 1 + below(g, (32 - w.max(h).max(d).leading_zeros()).min(3));
        let surface = storage_surface(gen, sdim, tformat, tiling, [w, h, d], levels, layers, cube)?;
        let level = below(g, levels);
        let (base, count) = match (dim, arrayed) {
            (ImageDim::D3, _) => (0, tiling::minify(d, level)),
            (ImageDim::Cube, false) => (6 * below(g, layers / 6), 6),
            (ImageDim::Cube, true) => (0, layers),
            (_, false) => (below(g, layers), 1),
            (_, true) => (0, layers),
        };
        let (view, swizzle, param) = view_and_param(g, &device, &surface, level, [base, count])?;
        let static_name = match tiling {
            Tiling::Linear => Some("linear"),
            Tiling::X => Some("x"),
            Tiling::Y => Some("y"),
            Tiling::Tile4 => Some("4"),
            Tiling::Tile64 => Some("64"),
            _ => None,
        };
        let layout = static_name.filter(|_| bool::arbitrary(g)).map(|t| {
            format!(
                ", layout={{tiling={t}, row_pitch={}, qpitch={}, swizzle={swizzle}}}",
                surface.row_pitch_B(),
                surface.array_pitch_el_rows()
            )
        });
        Some(Image {
            device,
            format,
            dim,
            arrayed,
            surface,
            view,
            param,
            swizzle,
            layout,
        })
    }

    fn decl(&self) -> String {
        let dim = match (self.dim, self.arrayed) {
            (d, true) => format!("{d} array"),
            (d, false) => d.to_string(),
        };
        format!(
            "image @img : {dim} {} (binding=0{})",
            self.format,
            self.layout.as_deref().unwrap_or("")
        )
    }

    fn coord_components(&self) -> u8 {
        self.dim.coord_components(self.arrayed)
    }

    /// The coordinate swizzle of `%0` in the text.
    fn coord_text(&self) -> &'static str {
        ["%0.x", "%0.xy", "%0"][self.coord_components() as usize - 1]
    }

    /// The surface offset of a coordinate of the view, if it is inside the view.
    fn texel(&self, c: [u32; 3]) -> Option<u64> {
        let n = self.coord_components() as usize;
        if c.iter().zip(self.param.size).take(n).any(|(&x, s)| x >= s) {
            return None;
        }
        let (x, y, z) = match (self.dim, self.arrayed) {
            (ImageDim::D1, false) => (c[0], 0, 0),
            (ImageDim::D1, true) => (c[0], 0, c[1]),
            (ImageDim::D2, false) => (c[0], c[1], 0),
            _ => (c[0], c[1], c[2]),
        };
        let z = self.view.base_layer + z;
        Some(
            self.surface
                .texel_offset(
                    x,
                    y,
                    z,
                    self.view.base_level,
                    tiling::Bit6Swizzle::from_has_bit6_swizzling(self.swizzle),
                )
                .unwrap_or_else(|e| panic!("reference rejects {c:?}: {e}")),
        )
    }

    /// `LANES` coordinates of distinct texels, about a quarter of them out of bounds
    /// (past the size, or negative).
    fn coords(&self, g: &mut QcGen) -> Vec<[u32; 3]> {
        let n = self.coord_components() as usize;
        let size = self.param.size;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        while out.len() < LANES {
            let mut c = [0u32; 3];
            for i in 0..n {
                c[i] = below(g, size[i]);
            }
            if u8::arbitrary(g) % 4 == 0 {
                let i = below(g, n as u32) as usize;
                let (past, negative) = (size[i] + below(g, 100), u32::MAX - below(g, 5));
                c[i] = pick(g, &[size[i], past, u32::MAX, negative]);
            }
            let key = self.texel(c);
            if key.is_none() || seen.insert(key) {
                out.push(c);
            }
        }
        out
    }
}

// ----- formats: representable values ------------------------------------------------------

/// A random value of one channel that survives `convert_color_for_store` then
/// `convert_color_for_load` unchanged (the shader-side bits).
fn channel_value(g: &mut QcGen, bits: u8, kind: ChannelKind, r11g11b10: bool) -> u64 {
    let max = |b: u8| if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
    match kind {
        ChannelKind::Uint => {
            if bits == 64 {
                u64::arbitrary(g)
            } else {
                u64::arbitrary(g) & max(bits)
            }
        }
        ChannelKind::Sint => {
            if bits == 64 {
                u64::arbitrary(g)
            } else {
                let v = (u64::arbitrary(g) & max(bits)) as i64;
                let v = (v << (64 - bits)) >> (64 - bits);
                v as u32 as u64
            }
        }
        ChannelKind::Unorm => {
            let m = max(bits) as u32;
            let k = below(g, m + 1);
            (k as f32 / m as f32).to_bits() as u64
        }
        ChannelKind::Snorm => {
            let m = max(bits - 1) as i32;
            let k = below(g, 2 * m as u32 + 1) as i32 - m;
            (k as f32 / m as f32).to_bits() as u64
        }
        ChannelKind::Float if bits == 32 => {
            let f = f32::from_bits(u32::arbitrary(g));
            if f.is_nan() {
                0x3f80_0000
            } else {
                f.to_bits() as u64
            }
        }
        ChannelKind::Float => {
            // A normal half, positive and with the low mantissa bits clear for the
            // 11/10-bit floats of R11G11B10.
            let exp = 1 + below(g, 30) as u16;
            let mant = below(g, 1 << 10) as u16;
            let (sign, mant) = if r11g11b10 {
                let keep = bits as u16 - 5;
                (0, mant & !((1 << (10 - keep)) - 1))
            } else {
                ((u16::arbitrary(g) & 1) << 15, mant)
            };
            let h = sign | (exp << 10) | mant;
            let f = f16_to_f32(h);
            assert_eq!(f32_to_f16(f), h);
            f.to_bits() as u64
        }
    }
}

/// The value a load of a texel whose bytes are all zero returns (bcsel to 0 then
/// convert), with 4 components.
fn zero_texel(format: Format) -> Vec<u64> {
    let n = format.num_channels() as usize;
    let one = if format.is_integer() { 1 } else { 0x3f80_0000 };
    (0..4)
        .map(|i| if i < n || i < 3 { 0 } else { one })
        .collect()
}

fn data_type(format: Format) -> String {
    let base = match format.channels()[0].kind {
        ChannelKind::Uint => "uint",
        ChannelKind::Sint => "int",
        _ => "float",
    };
    format!("{base}{}", format.data_bit_size())
}

// ----- running -----------------------------------------------------------------------------

struct Run {
    outputs: Vec<Option<Vec<u64>>>,
    memory: Vec<u8>,
    accesses: Vec<(IntrinsicOp, AddrType, u64)>,
}

fn lower_and_run(
    text: &str,
    img: &Image,
    options: &LowerOptions,
    coords: &[[u32; 3]],
    inputs: &[Vec<Vec<u64>>],
    memory: Vec<u8>,
) -> Result<(Run, Shader), String> {
    let mut sh = ir::parse_shader(text).map_err(|e| format!("{e:?}\n{text}"))?;
    lower_images(&mut sh, &img.device, options).map_err(|e| format!("lowering: {e}\n{text}"))?;
    ir::validate(&sh).map_err(|e| format!("invalid after lowering: {e:?}"))?;
    if let Err(e) = lowering::messages::check_function(&img.device, &sh.images, &sh.functions[0]) {
        return Err(format!(
            "illegal messages: {e:?}\n{}",
            ir::print_shader(&sh)
        ));
    }
    Cleanup::standard(16)
        .run(&mut sh)
        .map_err(|e| format!("cleanup: {e}"))?;
    genx::compiles(&sh, &img.device, text);
    let mut m = Machine {
        device: &img.device,
        param: &img.param,
        memory,
        coords,
        inputs,
        outputs: vec![None; LANES],
        accesses: Vec::new(),
    };
    let inv: Vec<u32> = (0..LANES as u32).collect();
    Interpreter::new(&sh, &sh.functions[0], Config::default())
        .run(&inv, &mut m)
        .map_err(|e| format!("run: {e}\n{}", ir::print_shader(&sh)))?;
    Ok((
        Run {
            outputs: m.outputs,
            memory: m.memory,
            accesses: m.accesses,
        },
        sh,
    ))
}

fn random_memory(g: &mut QcGen, len: u64) -> Vec<u8> {
    let seed = u64::arbitrary(g);
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// A store followed by a load of the same texels: the load returns what was stored,
/// out-of-bounds lanes read zeros and write nothing, and the store changes exactly the
/// bytes of the in-bounds texels.
#[derive(Clone, Debug)]
struct RoundTrip {
    img: Image,
    a64: bool,
    coords: Vec<[u32; 3]>,
    values: Vec<Vec<u64>>,
    memory_seed: u64,
}

impl Arbitrary for RoundTrip {
    fn arbitrary(g: &mut QcGen) -> RoundTrip {
        loop {
            let device = g.choose(&Device::presets()).expect("presets").clone();
            let format = *g.choose(Format::ALL).expect("formats");
            let Some(img) = Image::generate(g, device, format) else {
                continue;
            };
            let coords = img.coords(g);
            let chans = format.channels();
            let r11 = format == Format::R11G11B10Float;
            let values = (0..LANES)
                .map(|_| {
                    (0..4)
                        .map(|i| match chans.get(i) {
                            Some(c) => channel_value(g, c.bits, c.kind, r11),
                            None => u32::arbitrary(g) as u64,
                        })
                        .collect()
                })
                .collect();
            // A64 addresses exist from Gfx8 (Device::has_a64).
            let a64 = img.device.has_a64 && u8::arbitrary(g) % 4 == 0;
            return RoundTrip {
                a64,
                img,
                coords,
                values,
                memory_seed: u64::arbitrary(g),
            };
        }
    }
}

/// Whether a texel stored as `want` and loaded as `out` round-tripped: bit for bit, but a
/// normalized channel within the 2.5 ULP its conversion's inexact division may err
/// (Vulkan's bound for `OpFDiv`; Mesa's `nir_format_unorm_to_float` divides so too), as
/// the verifier holds normalized loads to (`ir::bounds`).
fn round_trips(format: ir::Format, out: &[u64], want: &[u64]) -> bool {
    out.len() == want.len()
        && out.iter().zip(want).enumerate().all(|(c, (&o, &w))| {
            let normalized = format.channels().get(c).is_some_and(|ch| {
                matches!(ch.kind, ir::ChannelKind::Unorm | ir::ChannelKind::Snorm)
            });
            let within = || {
                ir::bounds::component_value(ir::BaseType::Float, 32, w).is_some_and(|v| {
                    let bound = ir::bounds::Interval::new(v, v).widened_by_ulps(32, 2.5);
                    ir::bounds::accepts(ir::BaseType::Float, 32, bound, o)
                })
            };
            o == w || normalized && within()
        })
}

fn round_trip(case: RoundTrip) -> TestResult {
    let img = &case.img;
    let bits = img.format.data_bit_size();
    let t = data_type(img.format);
    let text = format!(
        "shader compute (local_size={LANES},1,1)\n{}\n\nfn main {{\n  block b0:\n    \
         32x3 %0 = @load_global_invocation_id\n    64 %1 = load_const (0)\n    \
         {bits}x4 %2 = @load_global (%1) (access=none, align_mul=4)\n    \
         @image_store (@img, {c}, %2) (src_type={t})\n    \
         {bits}x4 %3 = @image_load (@img, {c}) (dest_type={t})\n    \
         64 %4 = load_const (8)\n    \
         @store_global (%3, %4) (access=none, align_mul=4)\n}}\n",
        img.decl(),
        c = img.coord_text()
    );
    let options = LowerOptions {
        force_untyped: true,
        untyped_address: if case.a64 {
            UntypedAddress::A64
        } else {
            UntypedAddress::Bti
        },
        ..LowerOptions::default()
    };
    // Ivy Bridge and Bay Trail have no byte scattered messages, so the untyped path
    // has no message for 8- and 16-bit texels there (docs/hardware/dataport.md §1):
    // the documented error, and the shader left alone.
    if img.device.dataport.is_some_and(|c| !c.byte_scattered) && img.format.bits_per_texel() <= 16 {
        let mut sh = ir::parse_shader(&text).expect("the test's shader parses");
        let before = sh.clone();
        return match lower_images(&mut sh, &img.device, &options) {
            Err(e) if matches!(e.kind, LowerErrorKind::NoDataportMessage(_)) && sh == before => {
                TestResult::passed()
            }
            other => TestResult::error(format!(
                "expected the byte scattered error, got {other:?}\n{case:#?}"
            )),
        };
    }
    let mut g = QcGen::from_size_and_seed(10, case.memory_seed);
    let before = random_memory(&mut g, img.surface.size_B());
    let inputs = vec![case.values.clone()];
    let (run, sh) = match lower_and_run(&text, img, &options, &case.coords, &inputs, before.clone())
    {
        Ok(r) => r,
        Err(e) => return TestResult::error(format!("{e}\n{case:#?}")),
    };
    let cpp = img.format.bits_per_texel() as u64 / 8;
    let mut expect_mem = before.clone();
    let mut written = BTreeMap::new();
    for (lane, &c) in case.coords.iter().enumerate() {
        let out = run.outputs[lane].clone().unwrap_or_default();
        let want = match img.texel(c) {
            Some(off) => {
                written.insert(off, lane);
                let n = img.format.num_channels() as usize;
                let mut w = zero_texel(img.format);
                w[..n].copy_from_slice(&case.values[lane][..n]);
                w
            }
            None => zero_texel(img.format),
        };
        if !round_trips(img.format, &out, &want) {
            return TestResult::error(format!(
                "lane {lane} coord {c:?} (texel {:?}): loaded {out:x?}, expected {want:x?}\n{}\n{case:#?}",
                img.texel(c),
                ir::print_shader(&sh)
            ));
        }
    }
    // The bytes the stores changed are inside the in-bounds texels.
    for &off in written.keys() {
        for b in 0..cpp {
            expect_mem[(off + b) as usize] = run.memory[(off + b) as usize];
        }
    }
    if expect_mem != run.memory {
        let first = (0..before.len()).find(|&i| expect_mem[i] != run.memory[i]);
        return TestResult::error(format!(
            "a store wrote outside the in-bounds texels (first byte {first:?})\n{case:#?}"
        ));
    }
    let model = if case.a64 {
        AddrType::Flat
    } else {
        AddrType::Bti
    };
    if run.accesses.iter().any(|a| a.1 != model) || run.accesses.len() != 2 * written.len() {
        return TestResult::error(format!(
            "expected {} {model:?} accesses, got {:?}",
            2 * written.len(),
            run.accesses
        ));
    }
    TestResult::passed()
}

#[test]
fn stores_then_loads_round_trip_through_tiled_memory() {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x0a70_0001))
        .tests(qc_tests(150))
        .max_tests(10 * qc_tests(150))
        .quickcheck(round_trip as fn(RoundTrip) -> TestResult);
}

// ----- atomics -----------------------------------------------------------------------------

/// Random untyped atomics: every lane updates its own texel with its own data and gets
/// the old value back; out-of-bounds lanes get 0 and change nothing.
#[derive(Clone, Debug)]
struct Atomics {
    img: Image,
    op: &'static str,
    coords: Vec<[u32; 3]>,
    data: Vec<Vec<u64>>,
    compare: Vec<Vec<u64>>,
    memory_seed: u64,
}

/// NIR atomic ops valid on a format's data, with whether they need the device's float
/// atomic support.
fn atomic_ops(format: Format, device: &Device) -> Vec<&'static str> {
    let mut ops = vec!["xchg", "cmpxchg"];
    match format {
        Format::R32Float | Format::R16Float => {
            if device.image_float_atomic_min_max {
                ops.extend(["fmin", "fmax"]);
            }
            if device.image_float_atomic_add && format == Format::R32Float {
                ops.push("fadd");
            }
        }
        _ => ops.extend([
            "iadd", "imin", "imax", "umin", "umax", "iand", "ior", "ixor",
        ]),
    }
    ops
}

impl Arbitrary for Atomics {
    fn arbitrary(g: &mut QcGen) -> Atomics {
        loop {
            let device = g.choose(&Device::presets()).expect("presets").clone();
            let mut formats = vec![Format::R32Uint, Format::R32Sint, Format::R32Float];
            if device.image_int64_atomics {
                formats.extend([Format::R64Uint, Format::R64Sint]);
            }
            if device.verx10() >= 120 {
                formats.extend([Format::R16Uint, Format::R16Sint]);
            }
            let format = pick(g, &formats);
            let ops = atomic_ops(format, &device);
            let op = pick(g, &ops);
            let Some(img) = Image::generate(g, device, format) else {
                continue;
            };
            let coords = img.coords(g);
            let bits = format.data_bit_size();
            let word = |g: &mut QcGen| {
                let v = u64::arbitrary(g);
                match (bits, format) {
                    (64, _) => v,
                    (_, Format::R32Float) => {
                        let f = f32::from_bits(v as u32);
                        // Leave NaNs out: their min/max/add results differ by source.
                        if f.is_nan() {
                            0
                        } else {
                            f.to_bits() as u64
                        }
                    }
                    (_, Format::R16Uint | Format::R16Sint) => v & 0xffff,
                    _ => v & 0xffff_ffff,
                }
            };
            let data = (0..LANES).map(|_| vec![word(g)]).collect();
            let compare = (0..LANES).map(|_| vec![word(g)]).collect();
            return Atomics {
                img,
                op,
                coords,
                data,
                compare,
                memory_seed: u64::arbitrary(g),
            };
        }
    }
}

fn atomics(mut case: Atomics) -> TestResult {
    let mut g = QcGen::from_size_and_seed(10, case.memory_seed);
    let before = random_memory(&mut g, case.img.surface.size_B());
    let elem = case.img.format.bits_per_texel() as u64 / 8;
    let read = |off: u64| {
        (0..elem).fold(0u64, |v, b| {
            v | (before[(off + b) as usize] as u64) << (8 * b)
        })
    };
    // Half of the compare-exchanges compare equal.
    for lane in (0..LANES).step_by(2) {
        if let Some(off) = case.img.texel(case.coords[lane]) {
            case.compare[lane][0] = read(off);
        }
    }
    let img = &case.img;
    let bits = img.format.data_bit_size();
    let swap = case.op.ends_with("cmpxchg");
    let (intr, operands) = if swap {
        ("image_atomic_swap", "%5, %2")
    } else {
        ("image_atomic", "%2")
    };
    let text = format!(
        "shader compute (local_size={LANES},1,1)\n{}\n\nfn main {{\n  block b0:\n    \
         32x3 %0 = @load_global_invocation_id\n    64 %1 = load_const (0)\n    \
         {bits} %2 = @load_global (%1) (access=none, align_mul=4)\n    \
         64 %4 = load_const (1)\n    \
         {bits} %5 = @load_global (%4) (access=none, align_mul=4)\n    \
         {bits} %3 = @{intr} (@img, {c}, {operands}) (atomic_op={op})\n    \
         64 %6 = load_const (8)\n    \
         @store_global (%3, %6) (access=none, align_mul=4)\n}}\n",
        img.decl(),
        c = img.coord_text(),
        op = case.op,
    );
    let options = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    let inputs = vec![case.data.clone(), case.compare.clone()];
    let (run, sh) = match lower_and_run(&text, img, &options, &case.coords, &inputs, before.clone())
    {
        Ok(r) => r,
        Err(e) => return TestResult::error(format!("{e}\n{case:#?}")),
    };
    let a64 = bits == 64;
    let mut expect = before.clone();
    for (lane, &c) in case.coords.iter().enumerate() {
        let got = run.outputs[lane].clone().unwrap_or_default();
        let want_old = match img.texel(c) {
            Some(off) => {
                let mut old = 0u64;
                for b in 0..elem {
                    old |= (before[(off + b) as usize] as u64) << (8 * b);
                }
                let lsc = match case.op {
                    "iadd" => LscAtomicOp::Iadd,
                    "imin" => LscAtomicOp::Smin,
                    "imax" => LscAtomicOp::Smax,
                    "umin" => LscAtomicOp::Umin,
                    "umax" => LscAtomicOp::Umax,
                    "iand" => LscAtomicOp::And,
                    "ior" => LscAtomicOp::Or,
                    "ixor" => LscAtomicOp::Xor,
                    "xchg" => LscAtomicOp::Store,
                    "cmpxchg" => LscAtomicOp::Icas,
                    "fmin" => LscAtomicOp::Fmin,
                    "fmax" => LscAtomicOp::Fmax,
                    "fadd" => LscAtomicOp::Fadd,
                    other => panic!("{other}"),
                };
                // CAS sends the compare value first, then the new value (docs/hardware/lsc-messages.md §11).
                let (s1, s2) = if swap {
                    (case.compare[lane][0], Some(case.data[lane][0]))
                } else {
                    (case.data[lane][0], None)
                };
                let new = match atomic(lsc, elem * 8, old, Some(s1), s2) {
                    Ok(n) => n,
                    Err(e) => return TestResult::error(e.to_string()),
                };
                for b in 0..elem {
                    expect[(off + b) as usize] = (new >> (8 * b)) as u8;
                }
                old
            }
            None => 0,
        };
        // The old texel comes back widened as the format says (lowering::atomic, "Atomics
        // on R16 images"): sign-extended on R16_SINT, zero-extended otherwise.
        let want_old = if img.format == Format::R16Sint {
            want_old as u16 as i16 as i32 as u32 as u64
        } else {
            want_old
        };
        if got != [want_old] {
            return TestResult::error(format!(
                "lane {lane} coord {c:?}: returned {got:x?}, expected {want_old:#x}\n{}\n{case:#?}",
                ir::print_shader(&sh)
            ));
        }
    }
    if expect != run.memory {
        return TestResult::error(format!("memory differs after {}\n{case:#?}", case.op));
    }
    let model = if a64 { AddrType::Flat } else { AddrType::Bti };
    if run.accesses.iter().any(|a| a.1 != model) {
        return TestResult::error(format!("expected {model:?} accesses: {:?}", run.accesses));
    }
    TestResult::passed()
}

#[test]
fn atomics_update_their_texel_and_return_the_old_value() {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x0a70_0002))
        .tests(qc_tests(150))
        .max_tests(10 * qc_tests(150))
        .quickcheck(atomics as fn(Atomics) -> TestResult);
}

// ----- specific behaviours -----------------------------------------------------------------

fn one_access(decl: &str, body: &str) -> String {
    format!(
        "shader compute (local_size={LANES},1,1)\n{decl}\n\nfn main {{\n  block b0:\n    \
         32x3 %0 = @load_global_invocation_id\n{body}}}\n"
    )
}

fn lower_text(
    text: &str,
    device: &str,
    options: &LowerOptions,
) -> Result<String, lowering::LowerError> {
    // Not validated first: the pass must refuse what the validator would reject, too.
    let mut sh = ir::parse_shader(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    if ir::validate(&sh).is_ok() {
        genx::compiles_on_legacy_platforms(&sh, text);
    }
    lower_images(&mut sh, &dev(device), options)?;
    ir::validate(&sh).unwrap_or_else(|e| panic!("{e:?}"));
    Cleanup::standard(16).run(&mut sh).expect("cleanup");
    genx::compiles(&sh, &dev(device), text);
    Ok(ir::print_shader(&sh))
}

/// A 2D image on `device` with a fixed layout (level 0, layer 0).
fn image_2d(device: &str, format: Format, tiling: Tiling, w: u32, h: u32) -> Image {
    let device = dev(device);
    let gen = Gen::from_verx10(device.verx10()).unwrap();
    let tformat = isl_format(format).unwrap();
    let desc = SurfaceDesc::new(gen, SurfDim::D2, tformat, tiling)
        .extent(w, h, 1)
        .usage(Usage::STORAGE);
    let surface = Surface::new(desc).unwrap();
    let view = ImageView::level(&surface, 0);
    let param = fill_image_param(&surface, &view, tiling::Bit6Swizzle::None).unwrap();
    Image {
        device,
        format,
        dim: ImageDim::D2,
        arrayed: false,
        surface,
        view,
        param,
        swizzle: false,
        layout: None,
    }
}

/// IVB/BYT's natural raw path (64/128-bit formats) also requires a RAW surface
/// (`STRIDE.x > 4`, Mesa's guard against the IVB/VLV hang); forced untyped accesses do
/// not check it.
#[test]
fn ivb_raw_path_checks_for_a_raw_surface() {
    for device in ["ivb", "byt"] {
        let mut img = image_2d(device, Format::Rgba32Uint, Tiling::Y, 40, 40);
        let text = one_access(
            &img.decl(),
            "    32x4 %2 = @image_load (@img, %0.xy) (dest_type=uint32)\n    \
             64 %3 = load_const (8)\n    @store_global (%2, %3) (access=none, align_mul=4)\n",
        );
        let out = lower_text(&text, device, &LowerOptions::default()).unwrap();
        assert_eq!(out.matches("ult").count(), 3, "{out}");
        let coords: Vec<[u32; 3]> = (0..LANES as u32).map(|i| [i, 2 * i, 0]).collect();
        let memory = vec![0x5au8; img.surface.size_B() as usize];
        let o = LowerOptions::default();
        let (run, _) = lower_and_run(&text, &img, &o, &coords, &[], memory.clone()).unwrap();
        assert_eq!(run.accesses.len(), LANES);
        assert!(run
            .outputs
            .iter()
            .all(|v| v.as_deref() == Some(&[0x5a5a5a5a; 4][..])));
        // A surface with cpp 4 bound instead: nothing is read, the loads return 0.
        img.param.stride[0] = 4;
        let (run, _) = lower_and_run(&text, &img, &o, &coords, &[], memory).unwrap();
        assert!(run.accesses.is_empty(), "{:?}", run.accesses);
        assert!(run
            .outputs
            .iter()
            .all(|v| v.as_deref() == Some(&[0, 0, 0, 0][..])));
        // Stores are guarded the same way.
        let text = one_access(
            &img.decl(),
            "    @image_store (@img, %0.xy, %0.xyzx) (src_type=uint32)\n",
        );
        let out = lower_text(&text, device, &LowerOptions::default()).unwrap();
        assert_eq!(out.matches("ult").count(), 3, "{out}");
        // Forced untyped: no RAW check (an r32 image has cpp 4).
        let text = one_access(
            "image @img : 2d r32_uint (binding=0)",
            "    32 %2 = @image_load (@img, %0.xy) (dest_type=uint32)\n    \
             64 %3 = load_const (8)\n    @store_global (%2, %3) (access=none, align_mul=4)\n",
        );
        let forced = LowerOptions {
            force_untyped: true,
            ..LowerOptions::default()
        };
        let out = lower_text(&text, device, &forced).unwrap();
        assert_eq!(out.matches("ult").count(), 2, "{out}");
    }
    // HSW takes the raw path for 128-bit formats without the check.
    let img = image_2d("hsw", Format::Rgba32Float, Tiling::Y, 8, 8);
    let text = one_access(
        &img.decl(),
        "    32x4 %2 = @image_load (@img, %0.xy) (dest_type=float32)\n    \
         64 %3 = load_const (8)\n    @store_global (%2, %3) (access=none, align_mul=4)\n",
    );
    let out = lower_text(&text, "hsw", &LowerOptions::default()).unwrap();
    assert_eq!(out.matches("ult").count(), 2, "{out}");
}

/// `bounds_check: false` removes the compares and the predicate; IVB/BYT atomics then
/// keep Mesa's null-surface guard.
#[test]
fn bounds_check_can_be_turned_off() {
    let no_bounds = LowerOptions {
        force_untyped: true,
        bounds_check: false,
        ..LowerOptions::default()
    };
    let text = one_access(
        "image @img : 2d array r32_uint (binding=0)",
        "    32 %2 = @image_load (@img, %0) (dest_type=uint32)\n    \
         @image_store (@img, %0, %2) (src_type=uint32)\n",
    );
    let out = lower_text(&text, "dg2", &no_bounds).unwrap();
    assert!(!out.contains("ult") && !out.contains(" if %"), "{out}");
    assert!(!out.contains("bcsel"), "{out}");
    assert!(!out.contains("(base=1)"), "SIZE is not loaded:\n{out}");
    // In-range accesses still reach the right texels.
    let img = image_2d("dg2", Format::R32Uint, Tiling::Tile4, 64, 64);
    let text = one_access(
        &img.decl(),
        "    32 %2 = @image_load (@img, %0.xy) (dest_type=uint32)\n    \
         64 %3 = load_const (8)\n    @store_global (%2, %3) (access=none, align_mul=4)\n",
    );
    let coords: Vec<[u32; 3]> = (0..LANES as u32).map(|i| [3 * i + 1, 63 - i, 0]).collect();
    let mut memory = vec![0u8; img.surface.size_B() as usize];
    for (i, c) in coords.iter().enumerate() {
        let off = img.texel(*c).unwrap() as usize;
        memory[off..off + 4].copy_from_slice(&(1000 + i as u32).to_le_bytes());
    }
    let (run, _) = lower_and_run(&text, &img, &no_bounds, &coords, &[], memory).unwrap();
    for (i, v) in run.outputs.iter().enumerate() {
        assert_eq!(v.as_deref(), Some(&[1000 + i as u64][..]));
    }
    // IVB atomics without bounds checks are predicated on the image being bound.
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32 %2 = @image_atomic (@img, %0.xy, %0.z) (atomic_op=iadd)\n    \
         64 %3 = load_const (8)\n    @store_global (%2, %3) (access=none, align_mul=4)\n",
    );
    let out = lower_text(&text, "ivb", &no_bounds).unwrap();
    assert!(out.contains("ine ") && out.contains(" if %"), "{out}");
    let out = lower_text(&text, "hsw", &no_bounds).unwrap();
    assert!(!out.contains(" if %"), "{out}");
}

/// What the untyped path cannot do is an error naming the access, never a panic.
#[test]
fn errors() {
    let forced = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    /// Whether an error kind is the one a case expects.
    type KindCheck = fn(&LowerErrorKind) -> bool;
    let cases: [(&str, &str, &str, KindCheck, &str); 11] = [
        (
            "image @img : 2d none (binding=0)",
            "    @image_store (@img, %0.xy, %0) (src_type=uint32)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::FormatRequired(_)),
            "has none",
        ),
        (
            "image @img : 2d r32_uint (binding=0, layout={tiling=4, row_pitch=4096})",
            "    @image_store (@img, %0.xy, %0.x) (src_type=uint32)\n",
            "bdw",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "tiling tile4 is not allowed",
        ),
        (
            "image @img : 2d r32_uint (binding=0, layout={tiling=y, row_pitch=100})",
            "    @image_store (@img, %0.xy, %0.x) (src_type=uint32)\n",
            "bdw",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "row_pitch=100",
        ),
        (
            "image @img : 2d r32_uint (binding=0, layout={tiling=x, row_pitch=4096, swizzle=true})",
            "    @image_store (@img, %0.xy, %0.x) (src_type=uint32)\n",
            "bdw",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "never swizzles",
        ),
        (
            "image @img : 2d r32_uint (binding=0, layout={tiling=linear, row_pitch=4096, swizzle=true})",
            "    @image_store (@img, %0.xy, %0.x) (src_type=uint32)\n",
            "ivb",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "only X and Y",
        ),
        (
            "image @img : 3d r32_uint (binding=0, layout={tiling=64, row_pitch=4096, qpitch=3})",
            "    @image_store (@img, %0, %0.x) (src_type=uint32)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "qpitch=3",
        ),
        (
            "image @img : buffer r32_uint (binding=0, layout={tiling=linear, row_pitch=64})",
            "    @image_store (@img, %0.x, %0.x) (src_type=uint32)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::InvalidLayout(_)),
            "buffer",
        ),
        (
            "image @img : 2d rgba8_uint (binding=0)",
            "    32 %2 = @image_atomic (@img, %0.xy, %0.x) (atomic_op=iadd)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::AtomicFormatUnsupported { .. }),
            "rgba8_uint",
        ),
        (
            // (On R32_FLOAT the float atomics bdw lacks are compare-and-swap loops.)
            "image @img : 2d r16_float (binding=0)",
            "    32 %2 = @image_atomic (@img, %0.xy, %0.x) (atomic_op=fmin)\n",
            "bdw",
            |k| matches!(k, LowerErrorKind::AtomicFormatUnsupported { .. }),
            "r16_float",
        ),
        (
            "image @img : 2d r32_float (binding=0)",
            "    32 %2 = @image_atomic (@img, %0.xy, %0.x) (atomic_op=iadd)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::AtomicTypeMismatch { .. }),
            "integer atomic iadd",
        ),
        (
            "image @img : 2d r32_uint (binding=0)",
            "    32 %2 = @image_atomic (@img, %0.xy, %0.x) (atomic_op=inc_wrap)\n",
            "dg2",
            |k| matches!(k, LowerErrorKind::AtomicOpUnmapped { .. }),
            "inc_wrap",
        ),
    ];
    for (decl, body, device, kind, text) in cases {
        let src = one_access(decl, body);
        let e = lower_text(&src, device, &forced).expect_err(decl);
        assert!(kind(&e.kind), "{decl}: {e}");
        let s = e.to_string();
        assert!(s.contains(text) && s.contains(device), "{decl}: {s}");
        assert!(s.contains("cannot lower @image_"), "{s}");
    }
    // 64-bit atomics need A64 global atomics (Gfx9+), untyped or not.
    let src = one_access(
        "image @img : 2d r64_uint (binding=0)",
        "    64 %1 = load_const (7)\n    64 %2 = @image_atomic (@img, %0.xy, %1) (atomic_op=umax)\n",
    );
    for (o, name) in [(&forced, "forced"), (&LowerOptions::default(), "default")] {
        let e = lower_text(&src, "hsw", o).expect_err(name);
        assert!(
            matches!(
                e.kind,
                LowerErrorKind::Int64AtomicUnsupported | LowerErrorKind::UnsupportedFormat(_)
            ),
            "{name}: {e}"
        );
    }
}

// ----- instruction counts ------------------------------------------------------------------

/// ALU instructions of a single `image_store` of r32 data (no colour conversion) after
/// `-O` (lower-images, then cleanup), with or without the bounds check.
fn store_alu(device: &str, decl: &str, coord: &str, bounds_check: bool) -> usize {
    let text = one_access(
        &format!("image @img : {decl}"),
        &format!("    @image_store (@img, {coord}, %0.z) (src_type=uint32)\n"),
    );
    let o = LowerOptions {
        force_untyped: true,
        bounds_check,
        ..LowerOptions::default()
    };
    let mut sh = ir::parse_shader(&text).unwrap();
    lower_images(&mut sh, &dev(device), &o).unwrap_or_else(|e| panic!("{e}"));
    Cleanup::standard(16).run(&mut sh).unwrap();
    assert_eq!(Stats::of(&sh).message, 1);
    Stats::of(&sh).alu
}

/// The address code's ALU count per path, platform and layout source, against upper
/// bounds (so that a regression fails) and next to Mesa's estimates for its raw path
/// after optimisation (docs/hardware/mesa-storage-images.md §13: 2D 14, 3-coordinate 20, 1D 4; 19 and 25
/// with the IVB/HSW swizzle). `cargo test -p lowering --test untyped counts --
/// --nocapture` prints the table.
#[test]
fn address_instruction_counts() {
    // (path, declaration, coordinate, static tiled layout per platform)
    let devices = ["bdw", "ivb", "skl", "dg2"];
    let tiled = |d: &str, extra: &str| match d {
        "dg2" => format!("tiling=4, row_pitch=4096{extra}"),
        "ivb" => format!("tiling=y, row_pitch=4096{extra}, swizzle=true"),
        _ => format!("tiling=y, row_pitch=4096{extra}"),
    };
    let paths = [
        ("2D", "2d", "%0.xy", ""),
        ("3D", "3d", "%0", ", qpitch=64"),
        ("1D", "1d", "%0.x", ""),
    ];
    // Upper bounds: [dynamic, static tiled, static linear] per platform, address only.
    let bounds: [(&str, [[usize; 3]; 4]); 3] = [
        ("2D", [[10, 10, 5], [15, 13, 5], [28, 10, 5], [24, 18, 5]]),
        ("3D", [[17, 17, 12], [22, 20, 12], [12, 12, 7], [33, 20, 7]]),
        ("1D", [[6, 6, 3], [11, 9, 3], [6, 6, 3], [10, 10, 3]]),
    ];
    let mesa = |path: &str, dev: &str| {
        let swz = dev == "ivb";
        match path {
            "2D" => {
                if swz {
                    19
                } else {
                    14
                }
            }
            "3D" => {
                if swz {
                    25
                } else {
                    20
                }
            }
            _ => 4,
        }
    };
    let mut table = String::from(
        "path dev  | dynamic | static tiled | static linear | +bounds (dyn) | Mesa est.\n",
    );
    for ((path, dim, coord, extra), (bpath, per_dev)) in paths.iter().zip(bounds) {
        assert_eq!(*path, bpath);
        for (d, bound) in devices.iter().zip(per_dev) {
            let dynamic = store_alu(d, &format!("{dim} r32_uint (binding=0)"), coord, false);
            let stat = store_alu(
                d,
                &format!("{dim} r32_uint (binding=0, layout={{{}}})", tiled(d, extra)),
                coord,
                false,
            );
            let linear = store_alu(
                d,
                &format!(
                    "{dim} r32_uint (binding=0, layout={{tiling=linear, row_pitch=4096{extra}}})"
                ),
                coord,
                false,
            );
            let with_bounds = store_alu(d, &format!("{dim} r32_uint (binding=0)"), coord, true);
            table.push_str(&format!(
                "{path:4} {d:4} | {dynamic:7} | {stat:12} | {linear:13} | {with_bounds:13} | {:9}\n",
                mesa(path, d)
            ));
            assert!(
                dynamic <= bound[0] && stat <= bound[1] && linear <= bound[2],
                "{path} on {d}: {dynamic}/{stat}/{linear} exceeds {bound:?}\n{table}"
            );
            // The bounds check adds one compare per coordinate and an and per extra one.
            let comps = match *path {
                "2D" => 2,
                "3D" => 3,
                _ => 1,
            };
            assert_eq!(with_bounds, dynamic + 2 * comps - 1, "{path} on {d}");
        }
    }
    eprintln!("{table}");
}
