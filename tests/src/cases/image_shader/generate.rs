//! Drawing a case: the device and options, the images, then a program that spends an
//! access budget on accesses, `if`s and loops, with values that refer to what earlier
//! accesses left visible.

use super::program::{
    AccessSpec, Case, CaseConfig, Cond, Element, ImageCase, Op, Scalar, Stmt, MAX_TRIPS,
};
use crate::cases::coords::{arbitrary_coord_term, CoordBase, Grid};
use crate::cases::device::{arbitrary_device, arbitrary_format};
use crate::cases::surface::{arbitrary_dim, arbitrary_fill, arbitrary_image_setup, DimKind};
use crate::cases::{below, between, bits64, chance, pick};
use ir::{Access, AtomicOp, BaseType, ChannelKind, Format};
use lowering::{Device, LowerOptions};
use quickcheck::Gen;

/// Workgroup sizes (at most 32 invocations; some leave a partial subgroup).
const LOCAL_SIZES: [[u32; 3]; 10] = [
    [1, 1, 1],
    [4, 1, 1],
    [8, 1, 1],
    [16, 1, 1],
    [32, 1, 1],
    [4, 2, 1],
    [2, 2, 2],
    [3, 3, 1],
    [4, 4, 1],
    [8, 4, 1],
];

/// Workgroup counts.
const WORKGROUPS: [[u32; 3]; 6] = [
    [1, 1, 1],
    [1, 1, 1],
    [2, 1, 1],
    [1, 2, 1],
    [2, 1, 2],
    [3, 1, 1],
];

/// Special 32-bit float values: zeros, ones, the UNORM/SNORM rounding edges, binary16
/// and small-float limits and overflow, denormals, infinities and NaNs (quiet,
/// signalling, negative).
const SPECIAL_F32: [u32; 30] = [
    0x0000_0000, // 0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0x3f7f_ffff, // 0.99999994
    0x3f80_0001, // 1.0000001
    0xbf80_0001, // -1.0000001
    0x3b80_8081, // 1/255
    0x3b00_0000, // 1/512: half an 8-bit UNORM step
    0x3c01_0204, // 1/127
    0x3780_0080, // 1/65535
    0x477f_e000, // 65504: largest binary16
    0x477f_f000, // 65520: rounds to binary16 infinity
    0x477e_0000, // 65024: largest 11-bit small float
    0x477c_0000, // 64512: largest 10-bit small float
    0x3880_0000, // 2^-14: smallest binary16 normal
    0x3380_0000, // 2^-24: smallest binary16 denormal
    0x3300_0000, // 2^-25: rounds to 0 or the smallest binary16 denormal
    0x0000_0001, // smallest f32 denormal
    0x0080_0000, // smallest f32 normal
    0x7f7f_ffff, // largest f32
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0xffc0_0000, // negative quiet NaN
    0x7f80_0001, // signalling NaN
    0x7fc1_2345, // NaN with payload
    0x4b80_0000, // 2^24
    0xc2fe_0000, // -127
];

/// Special 32-bit integers: every channel width's limits and their neighbours.
const SPECIAL_I32: [u32; 22] = [
    0,
    1,
    2,
    3,
    0xffff_ffff,
    0x7f,
    0x80,
    0xff,
    0x100,
    0xffff_ff80,
    0xffff_ff7f,
    0x3ff,
    0x400,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0xffff_8000,
    0xffff_7fff,
    0x7fff_ffff,
    0x8000_0000,
    0x1234_5678,
];

/// Special 64-bit integers.
const SPECIAL_I64: [u64; 10] = [
    0,
    1,
    3,
    u64::MAX,
    i64::MIN as u64,
    i64::MAX as u64,
    0xffff_ffff,
    0x1_0000_0000,
    0x1_0000_0001,
    0xdead_beef_0123_4567,
];

/// Float scales of invocation-derived float data.
const SCALES: [f32; 8] = [1.0, 0.25, 1.0 / 7.0, 0.37, 1.0 / 255.0, -0.5, 1000.0, 3.0e4];

/// Generation state: what earlier accesses left visible.
struct GenState<'c> {
    cfg: &'c CaseConfig,
    grid: Grid,
    images: &'c [ImageCase],
    in_range_only: bool,
    budget: usize,
    next_id: u32,
    /// Ids of value-returning accesses visible here, with their component counts and
    /// whether their values are exact: a load converting normalized channels is
    /// compared within the conversion's allowed error (the lowering multiplies by the
    /// reciprocal where the reference divides), so its bits may differ in the last
    /// place, and data made of those bits (the operand of an integer atomic) would then
    /// differ exactly.
    visible: Vec<(u32, u8, bool)>,
    in_loop: bool,
    /// Whether the platform has atomics on R16 images (Gfx12+).
    r16_atomics: bool,
    /// The platform.
    device: &'c Device,
}
impl Case {
    /// A case drawn with `cfg`.
    pub fn arbitrary_with(g: &mut Gen, cfg: &CaseConfig) -> Case {
        let mut device = if cfg.platforms.is_empty() {
            arbitrary_device(g)
        } else {
            let name = pick(g, &cfg.platforms);
            Device::preset(name).unwrap_or_else(|| panic!("`{name}` is not a platform preset"))
        };
        if chance(g, cfg.wide_policy_share, 100) {
            // A driver that lets isl choose any storage tiling (Yf and Ys, tiled 1D).
            device.storage_tilings = tiling::Tiling::ALL.to_vec();
            device.linear_1d_storage = false;
        }
        let options = pick_options(g, &cfg.options);
        let local_size = pick(g, &LOCAL_SIZES);
        let workgroups = pick(g, &WORKGROUPS);
        let subgroup_size = pick(g, &[8, 16, 16, 32]);
        let n_images = between(g, 1, cfg.max_images.max(1) as u32) as usize;
        let images: Vec<ImageCase> = (0..n_images)
            .map(|i| arbitrary_image(g, &device, &options, cfg, i))
            .collect();
        let grid = Grid {
            global: [0, 1, 2].map(|a| local_size[a] * workgroups[a]),
        };
        let mut st = GenState {
            cfg,
            grid,
            images: &images,
            in_range_only: cfg.in_range_only,
            budget: between(g, 1, cfg.max_accesses.max(1) as u32) as usize,
            next_id: 0,
            visible: Vec::new(),
            in_loop: false,
            r16_atomics: device.verx10() >= 120,
            device: &device,
        };
        let mut body = Vec::new();
        while st.budget > 0 {
            body.extend(gen_list(g, &mut st, 0));
        }
        Case {
            device,
            options,
            in_range_only: cfg.in_range_only,
            local_size,
            workgroups,
            subgroup_size,
            images,
            body,
        }
    }
}

fn pick_options(g: &mut Gen, options: &[LowerOptions]) -> LowerOptions {
    if options.is_empty() {
        LowerOptions::default()
    } else {
        options[below(g, options.len())]
    }
}

/// One image: dimension, format (or none), qualifiers, static layout, memory.
fn arbitrary_image(
    g: &mut Gen,
    device: &Device,
    options: &LowerOptions,
    cfg: &CaseConfig,
    index: usize,
) -> ImageCase {
    let dim = arbitrary_dim(g);
    let mut format = if chance(g, cfg.atomic_format_share, 100) {
        // The formats atomics run on (five of the 41, and the three R16 formats from
        // Gfx12): drawn more often so that every atomic op is exercised on every
        // platform.
        let r16: &[Format] = if device.verx10() >= 120 {
            &[Format::R16Uint, Format::R16Sint, Format::R16Float]
        } else {
            &[]
        };
        let atomic: Vec<Format> = [
            Format::R32Uint,
            Format::R32Sint,
            Format::R32Float,
            Format::R32Float,
            Format::R64Uint,
            Format::R64Sint,
        ]
        .iter()
        .chain(r16)
        .copied()
        .filter(|&f| crate::cases::device::can_lower(device, f))
        .filter(|f| {
            // 64-bit image atomics need Gfx9.
            !cfg.supported_only
                || device.image_int64_atomics
                || !matches!(f, Format::R64Uint | Format::R64Sint)
        })
        .collect();
        pick(g, &atomic)
    } else {
        arbitrary_format(g, device, cfg.unlowerable_share)
    };
    // Without a format only typed messages move texels (the untyped path needs the
    // format to address them). Before Gfx12.5 a supported case keeps its format, so
    // that the cases drawn stay those drawn before such loads lowered there.
    let format_less = chance(g, cfg.format_less_share, 100)
        && !(cfg.supported_only && (options.force_untyped || !device.has_lsc));
    if format_less && matches!(format, Format::R64Uint | Format::R64Sint) {
        // Format-less data is 32-bit; a 64-bit view needs its format.
        format = Format::R32Uint;
    }
    // A load without a format is the typed read of the view's format, so a format-less
    // image has a view of a format the device reads typed (Vulkan's
    // STORAGE_READ_WITHOUT_FORMAT feature); one drawn otherwise keeps its format.
    let format_less = format_less && lowering::format::supports_typed_read(device, format);
    let access = match below(g, 20) {
        0..=10 => Access::NONE,
        11..=13 => Access::NON_WRITEABLE,
        14 | 15 => Access::NON_READABLE,
        16 | 17 => Access::COHERENT,
        18 => Access::COHERENT | Access::VOLATILE,
        _ => Access::RESTRICT,
    };
    let statics = dim != DimKind::Buffer && chance(g, cfg.static_layout_share, 100);
    let setup = arbitrary_image_setup(g, device, dim, format, statics);
    let static_layout = if statics { setup.static_layout() } else { None };
    // The other elements of an array: surfaces of their own where coordinates may
    // leave them (each element is bounds-checked against its own size), the first
    // element's layout with other contents where they must stay in range or the
    // declaration fixes the layout.
    // (No draw at all when arrays are off: a configuration without them draws the
    // cases it drew before arrays existed.)
    let elements = if cfg.array_share > 0 && chance(g, cfg.array_share, 100) {
        between(g, 2, 3)
    } else {
        1
    };
    let others = (1..elements)
        .map(|_| {
            if statics || cfg.in_range_only {
                let mut s = setup.clone();
                s.fill = arbitrary_fill(g);
                s
            } else {
                arbitrary_image_setup(g, device, dim, format, false)
            }
        })
        .collect();
    ImageCase {
        name: format!("img{index}"),
        dim,
        decl_format: if format_less { Format::None } else { format },
        access,
        static_layout,
        setup,
        others,
    }
}

/// A statement list at nesting depth `depth`, spending the access budget.
fn gen_list(g: &mut Gen, st: &mut GenState<'_>, depth: u32) -> Vec<Stmt> {
    let mut out = Vec::new();
    while st.budget > 0 {
        let r = below(g, 20);
        if r < 3 && depth < 2 && st.budget >= 1 {
            let cond = gen_cond(g, st);
            let saved = st.visible.len();
            let then = gen_list(g, st, depth + 1);
            st.visible.truncate(saved);
            let els = if chance(g, 1, 2) {
                gen_list(g, st, depth + 1)
            } else {
                Vec::new()
            };
            st.visible.truncate(saved);
            out.push(Stmt::If { cond, then, els });
        } else if r < 6 && depth < 2 && !st.in_loop {
            let base = between(g, 0, 2);
            let lane_mask = if base < MAX_TRIPS && chance(g, 2, 3) {
                1
            } else {
                0
            };
            st.in_loop = true;
            let saved = st.visible.len();
            let body = gen_list(g, st, depth + 1);
            st.visible.truncate(saved);
            st.in_loop = false;
            out.push(Stmt::Loop {
                base,
                lane_mask,
                body,
            });
        } else {
            st.budget -= 1;
            let a = gen_access(g, st);
            if a.op.returns_value() {
                let comps = match &a.op {
                    Op::Load { comps } => *comps,
                    Op::Size => st.images[a.image].dim.coord_components(),
                    _ => 1,
                };
                let normalized = matches!(a.op, Op::Load { .. })
                    && st.images[a.image]
                        .data_format()
                        .channels()
                        .iter()
                        .any(|c| matches!(c.kind, ChannelKind::Unorm | ChannelKind::Snorm));
                st.visible.push((a.id, comps, !normalized));
            }
            out.push(Stmt::Access(a));
        }
        // Lists inside control flow end early now and then, leaving the budget to the
        // enclosing list.
        if depth > 0 && chance(g, 1, 2) {
            break;
        }
    }
    // The caller truncates `visible` after nested lists: their values are not visible
    // after the `if` or loop.
    out
}

fn gen_cond(g: &mut Gen, st: &GenState<'_>) -> Cond {
    match below(g, 6) {
        0..=2 => Cond::Bit {
            base: pick(
                g,
                &[
                    CoordBase::Linear,
                    CoordBase::Global(0),
                    CoordBase::Global(1),
                    CoordBase::Global(2),
                ],
            ),
            bit: below(g, 3) as u8,
            set: chance(g, 1, 2),
        },
        3 | 4 => Cond::Below {
            k: below(g, st.grid.invocations() as usize + 1) as u32,
        },
        _ => match st.visible.last() {
            Some(&(access, comps, _)) => Cond::LoadedNonZero {
                access,
                comp: below(g, comps as usize) as u8,
            },
            None => Cond::Below {
                k: st.grid.invocations() / 2,
            },
        },
    }
}

/// An access to a random image.
fn gen_access(g: &mut Gen, st: &mut GenState<'_>) -> AccessSpec {
    let id = st.next_id;
    st.next_id += 1;
    let image = below(g, st.images.len());
    let img = &st.images[image];
    let readable = !img.access.contains(Access::NON_READABLE);
    let writable = !img.access.contains(Access::NON_WRITEABLE);
    let mut ops: Vec<(u32, u8)> = Vec::new(); // (weight, kind)
    if readable {
        ops.push((35, 0));
    }
    if writable {
        ops.push((30, 1));
    }
    let int64_atomics_refused = st.cfg.supported_only
        && !st.device.image_int64_atomics
        && img.data_format().data_bit_size() == 64;
    if readable && writable && img.atomics_allowed(st.r16_atomics) && !int64_atomics_refused {
        ops.push((30, 2));
    }
    ops.push((6, 3));
    ops.push((3, 4));
    let total: u32 = ops.iter().map(|o| o.0).sum();
    let mut r = below(g, total as usize) as u32;
    let mut kind = 3;
    for (w, k) in ops {
        if r < w {
            kind = k;
            break;
        }
        r -= w;
    }
    let ty = img.data_type();
    let float = ty.base == BaseType::Float;
    let op = match kind {
        0 => Op::Load {
            comps: pick(g, &[4, 4, 4, 1, 2, 3]),
        },
        1 => {
            let chans = img.data_format().num_channels();
            let n = if chance(g, 2, 3) { 4 } else { chans };
            Op::Store {
                data: (0..n).map(|_| gen_scalar(g, st, ty.bits, float)).collect(),
            }
        }
        2 => gen_atomic(g, st, img),
        3 => Op::Size,
        _ => Op::Samples,
    };
    let limits = img.setup.coord_limits();
    let coord = limits
        .iter()
        .enumerate()
        .map(|(c, &l)| arbitrary_coord_term(g, c as u8, l, &st.grid, !st.in_range_only, st.in_loop))
        .collect();
    let element = if img.others.is_empty() {
        Element::Whole
    } else {
        match below(g, 8) {
            0 | 1 => Element::Const(below(g, img.count() as usize) as u32),
            2 | 3 => Element::Workgroup,
            _ => Element::Lane {
                shift: pick(g, &[0, 0, 1, 2]),
            },
        }
    };
    let non_uniform =
        matches!(element, Element::Lane { .. }) || (element != Element::Whole && chance(g, 1, 4));
    AccessSpec {
        id,
        image,
        element,
        non_uniform,
        op,
        coord,
        swizzled: chance(g, 1, 4),
    }
}

fn gen_atomic(g: &mut Gen, st: &GenState<'_>, img: &ImageCase) -> Op {
    use AtomicOp as A;
    let ty = img.data_type();
    let float_format = matches!(img.data_format(), Format::R32Float | Format::R16Float);
    let op = if float_format {
        // Integer compare-and-swap is an integer op (the validator's rule).
        let ops = [A::Xchg, A::Fadd, A::Fmin, A::Fmax, A::Fcmpxchg, A::Fcmpxchg];
        let d = st.device;
        let has = |op: &A| match op {
            A::Fadd => d.image_float_atomic_add,
            A::Fmin | A::Fmax => d.image_float_atomic_min_max,
            A::Fcmpxchg => d.image_float_atomic_cmpxchg,
            _ => true,
        };
        let ops: Vec<A> = ops
            .into_iter()
            .filter(|op| !st.cfg.supported_only || has(op))
            .collect();
        pick(g, &ops)
    } else if ty.bits == 32 && chance(g, st.cfg.unmapped_atomic_share, 100) {
        pick(g, &[A::IncWrap, A::DecWrap])
    } else {
        pick(
            g,
            &[
                A::Iadd,
                A::Iadd,
                A::Imin,
                A::Imax,
                A::Umin,
                A::Umax,
                A::Iand,
                A::Ior,
                A::Ixor,
                A::Xchg,
                A::Cmpxchg,
                A::Cmpxchg,
            ],
        )
    };
    let float_op = op.is_float() || (float_format && chance(g, 1, 2));
    let data = if op == A::Iadd && ty.bits == 32 && chance(g, 1, 3) {
        // 1 and -1 become the operand-less iinc/idec.
        Scalar::Const(pick(g, &[1, 0xffff_ffff]))
    } else {
        gen_scalar(g, st, ty.bits, float_op)
    };
    let compare = op.is_swap().then(|| {
        if chance(g, 1, 2) {
            // Values the memory is likely to hold: the small fill's, zero.
            Scalar::Const(below(g, 4) as u64)
        } else {
            gen_scalar(g, st, ty.bits, float_op)
        }
    });
    Op::Atomic { op, data, compare }
}

/// A scalar of `bits` bits for float (`float`) or integer data.
fn gen_scalar(g: &mut Gen, st: &GenState<'_>, bits: u8, float: bool) -> Scalar {
    match below(g, 10) {
        0..=3 => Scalar::Const(if bits == 64 {
            pick(g, &SPECIAL_I64)
        } else if float {
            pick(g, &SPECIAL_F32) as u64
        } else if chance(g, 1, 4) {
            bits64(g) & 0xffff_ffff
        } else {
            pick(g, &SPECIAL_I32) as u64
        }),
        4..=6 => Scalar::Invocation {
            mul: pick(g, &[1, 3, 37, 255, 0x0101_0101, 0x9e37_79b9]),
            add: pick(g, &[0, 1, 100, 0xffff_fff0, 0x7fff_fffc, 0x3f80_0000]),
            scale: if float {
                pick(g, &SCALES).to_bits()
            } else {
                bits64(g) as u32
            },
        },
        7 | 8 if st.visible.iter().any(|v| v.2) => {
            let exact = || st.visible.iter().filter(|v| v.2);
            let k = below(g, exact().count());
            let &(access, comps, _) = exact().nth(k).expect("k counts exact values");
            Scalar::Loaded {
                access,
                comp: below(g, comps as usize) as u8,
            }
        }
        _ if st.in_loop => Scalar::Iter,
        _ => Scalar::Const(if float { 0x3f80_0000 } else { 1 }),
    }
}
