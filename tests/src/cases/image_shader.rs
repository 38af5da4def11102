//! Small random image shaders and everything they run on: a [`Case`].
//!
//! A case is a device, lowering options, a dispatch (local size, workgroups, subgroup
//! size), one to three images (declaration, surface, view, initial contents) and a
//! structured program of one to six image accesses ([`Stmt`]): loads, stores, atomics of
//! every NIR op the format allows (compare-and-swap included), `image_size` and
//! `image_samples`, some under `if`s on invocation-dependent conditions and inside small
//! loops whose trip count depends on the invocation, so lanes diverge.
//!
//! [`Case::build`] turns the program into IR with [`ir::Builder`]:
//!
//! * coordinates are expressions of the invocation id plus generated offsets
//!   ([`CoordTerm`]), so accesses reach edges and fall out of range for some lanes only;
//! * stored values and atomic operands come from constants (the format's special values:
//!   ±0, ±∞, NaNs, denormals, the limits of every channel width), from the invocation
//!   id, from values loaded earlier (reinterpreted, so loaded bits land in other formats)
//!   and from the loop counter;
//! * every value an access returns is stored (`store_ssbo`, SSBO binding
//!   [`OUTPUT_SSBO`]) to its own slot of [`SLOT_BYTES`] bytes:
//!   `(linear invocation index · slots + slot + loop iteration) · SLOT_BYTES`, so the
//!   verifier compares every returned value through the output buffer.
//!
//! Accesses carry stable ids ([`AccessSpec::id`]) that later values refer to, so that
//! shrinking (removing statements, flattening `if`s and loops) keeps a program buildable:
//! a reference to a value that is gone or no longer visible becomes a constant.

use super::coords::{arbitrary_coord_term, CoordBase, CoordTerm, Grid};
use super::device::{arbitrary_device, arbitrary_format};
use super::surface::{
    arbitrary_dim, arbitrary_image_setup, DimKind, Fill, ImageMemory, ImageSetup,
};
use super::{below, between, bits64, chance, pick};
use ir::builder::image_indices;
use ir::function::{InstKind, Phi};
use ir::{
    Access, AluType, AtomicOp, BaseType, Builder, Format, Function, ImageDecl, ImageRef,
    IntrinsicOp, Jump, Shader, Src, StaticLayout, Type, Value,
};
use lowering::{Device, LowerOptions};
use quickcheck::Gen;
use std::collections::HashMap;
use std::fmt;
use verify::setup::{
    pattern_bytes, BufferKind, BufferSetup, Fill as SetupFill, ImageLayout,
    ImageSetup as SetupImage, Setup, ViewRange,
};

/// Bytes of one output slot: room for a 64x4 load.
pub const SLOT_BYTES: u32 = 32;

/// The most iterations a generated loop runs.
pub const MAX_TRIPS: u32 = 3;

/// The SSBO binding of the output buffer.
pub const OUTPUT_SSBO: u32 = 0;

/// One scalar of a stored value or an atomic operand.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scalar {
    /// A constant (the low `bits` bits are used).
    Const(u64),
    /// From the linear invocation index: `x = linear · mul + add` (32-bit); float data
    /// take `f32(x as i32) · scale`, 64-bit data `pack(x, x ^ scale)`.
    Invocation {
        /// Multiplier.
        mul: u32,
        /// Addend.
        add: u32,
        /// Scale (bits of an `f32`) or high-word pattern.
        scale: u32,
    },
    /// Component `comp` (modulo its size) of the value an earlier access returned,
    /// reinterpreted (and truncated or zero-extended to the data's bit size).
    Loaded {
        /// The access's id.
        access: u32,
        /// The component.
        comp: u8,
    },
    /// The innermost loop's iteration counter (0 outside loops), converted to float for
    /// float data.
    Iter,
}

/// What an access does.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Op {
    /// `image_load` of `comps` components.
    Load {
        /// Components of the result (1 to 4).
        comps: u8,
    },
    /// `image_store` of one scalar per component (at least the format's channels).
    Store {
        /// The components.
        data: Vec<Scalar>,
    },
    /// `image_atomic` (or `image_atomic_swap` for `cmpxchg`/`fcmpxchg`, `compare` then
    /// being the comparand).
    Atomic {
        /// The NIR op.
        op: AtomicOp,
        /// The operand (the new value of a swap).
        data: Scalar,
        /// The comparand of a swap.
        compare: Option<Scalar>,
    },
    /// `image_size`.
    Size,
    /// `image_samples`.
    Samples,
}

impl Op {
    /// Whether the access returns a value (which goes to the output buffer).
    pub fn returns_value(&self) -> bool {
        !matches!(self, Op::Store { .. })
    }

    /// A short name for tables: `load`, `store`, the atomic op's name, `size`, `samples`.
    pub fn name(&self) -> String {
        match self {
            Op::Load { .. } => "load".into(),
            Op::Store { .. } => "store".into(),
            Op::Atomic { op, .. } => format!("atomic {op}"),
            Op::Size => "size".into(),
            Op::Samples => "samples".into(),
        }
    }
}

/// One image access.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AccessSpec {
    /// A stable id (values refer to it).
    pub id: u32,
    /// Index of the image in [`Case::images`].
    pub image: usize,
    /// The operation.
    pub op: Op,
    /// One term per coordinate component (the validator wants exactly the image's
    /// coordinate components).
    pub coord: Vec<CoordTerm>,
    /// Pass the coordinate and the stored data as swizzled reads of a wider vector
    /// (rotated, with junk in the other components) instead of whole values.
    pub swizzled: bool,
}

/// An `if` condition.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Cond {
    /// Bit `bit` of an invocation-id component is set (or clear).
    Bit {
        /// The value tested.
        base: CoordBase,
        /// The bit.
        bit: u8,
        /// Whether the branch is taken when the bit is set.
        set: bool,
    },
    /// The linear invocation index is below `k`.
    Below {
        /// The bound.
        k: u32,
    },
    /// A component of an earlier access's value is not zero.
    LoadedNonZero {
        /// The access's id.
        access: u32,
        /// The component.
        comp: u8,
    },
}

/// A statement of the program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Stmt {
    /// An image access.
    Access(AccessSpec),
    /// `if`/`else`.
    If {
        /// The condition.
        cond: Cond,
        /// The then list.
        then: Vec<Stmt>,
        /// The else list.
        els: Vec<Stmt>,
    },
    /// A loop running `base + (linear & lane_mask)` iterations (at most [`MAX_TRIPS`]).
    Loop {
        /// Iterations of every invocation.
        base: u32,
        /// Mask of the linear index added to the trip count.
        lane_mask: u32,
        /// The body.
        body: Vec<Stmt>,
    },
}

/// One image of a case.
#[derive(Clone, Debug)]
pub struct ImageCase {
    /// The declaration's name (without `@`).
    pub name: String,
    /// The dimension.
    pub dim: DimKind,
    /// The declared format ([`Format::None`] for a format-less image, whose view has
    /// [`ImageSetup::format`]).
    pub decl_format: Format,
    /// The access qualifiers.
    pub access: Access,
    /// A static layout matching the surface, if the declaration carries one.
    pub static_layout: Option<StaticLayout>,
    /// Surface, view and contents.
    pub setup: ImageSetup,
}

impl ImageCase {
    /// The declaration, at binding-table index `binding`.
    pub fn decl(&self, binding: u32) -> ImageDecl {
        ImageDecl {
            name: self.name.clone(),
            dim: self.dim.ir_dim(),
            arrayed: self.dim.arrayed(),
            format: self.decl_format,
            access: self.access,
            binding,
            count: None,
            layout: self.static_layout,
        }
    }

    /// The format the shader's data follows: the declared one, or the view's.
    pub fn data_format(&self) -> Format {
        if self.decl_format == Format::None {
            self.setup.format
        } else {
            self.decl_format
        }
    }

    /// The ALU type of loaded and stored data.
    pub fn data_type(&self) -> AluType {
        let f = self.data_format();
        AluType::new(
            f.data_base_type().unwrap_or(BaseType::Uint),
            f.data_bit_size(),
        )
    }

    /// Whether the reference defines atomics on the image: single-channel 32- and 64-bit
    /// formats (`r32_uint`, `r32_sint`, `r32_float`, `r64_uint`, `r64_sint`), as Vulkan
    /// requires of atomic storage images, and, where `r16` (platforms with typed
    /// `d16u32` atomics, Gfx12+), the declared `r16_uint`, `r16_sint` and `r16_float`
    /// (a format-less image's atomics are 32-bit, so a format-less R16 view has none).
    pub fn atomics_allowed(&self, r16: bool) -> bool {
        match self.data_format() {
            Format::R32Uint
            | Format::R32Sint
            | Format::R32Float
            | Format::R64Uint
            | Format::R64Sint => true,
            Format::R16Uint | Format::R16Sint | Format::R16Float => {
                r16 && self.decl_format != Format::None
            }
            _ => false,
        }
    }
}

/// A complete property case.
#[derive(Clone)]
pub struct Case {
    /// The platform.
    pub device: Device,
    /// The lowering options.
    pub options: LowerOptions,
    /// Whether every coordinate is in range for every invocation (cases lowered
    /// without bounds checks).
    pub in_range_only: bool,
    /// Workgroup size.
    pub local_size: [u32; 3],
    /// Workgroups dispatched.
    pub workgroups: [u32; 3],
    /// Lanes per subgroup.
    pub subgroup_size: u32,
    /// The images, bound at binding-table index = position.
    pub images: Vec<ImageCase>,
    /// The program.
    pub body: Vec<Stmt>,
}

/// What a case may contain.
#[derive(Clone, Debug)]
pub struct CaseConfig {
    /// The lowering options of a case are drawn uniformly from these.
    pub options: Vec<LowerOptions>,
    /// Only in-range coordinates (required when the options turn bounds checks off).
    pub in_range_only: bool,
    /// At most this many images (at least 1).
    pub max_images: usize,
    /// At most this many accesses (at least 1).
    pub max_accesses: usize,
    /// Percentage of images drawn among every storage format, including ones the
    /// platform cannot lower (a documented error).
    pub unlowerable_share: usize,
    /// Percentage of atomics on integer formats that use `inc_wrap`/`dec_wrap`, which
    /// have no LSC operation (a documented error).
    pub unmapped_atomic_share: usize,
    /// Percentage of format-less images.
    pub format_less_share: usize,
    /// Percentage of images whose declaration carries their static layout.
    pub static_layout_share: usize,
    /// Percentage of images drawn among the formats atomics run on (R32, R64).
    pub atomic_format_share: usize,
    /// Percentage of cases whose device lets isl choose any storage tiling (Yf and Ys
    /// before Gfx12.5, tiled 1D) instead of the presets' driver policy.
    pub wide_policy_share: usize,
}

impl Default for CaseConfig {
    fn default() -> CaseConfig {
        CaseConfig {
            options: vec![LowerOptions::default()],
            in_range_only: false,
            max_images: 3,
            max_accesses: 6,
            unlowerable_share: 2,
            unmapped_atomic_share: 3,
            format_less_share: 6,
            static_layout_share: 25,
            atomic_format_share: 20,
            wide_policy_share: 40,
        }
    }
}

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
    /// Ids of value-returning accesses visible here, with their component counts.
    visible: Vec<(u32, u8)>,
    in_loop: bool,
    /// Whether the platform has atomics on R16 images (Gfx12+).
    r16_atomics: bool,
}

impl Case {
    /// A case drawn with `cfg`.
    pub fn arbitrary_with(g: &mut Gen, cfg: &CaseConfig) -> Case {
        let mut device = arbitrary_device(g);
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
            .map(|i| arbitrary_image(g, &device, cfg, i))
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
            r16_atomics: device.verx10 >= 120,
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

    /// The dispatch's global size.
    pub fn grid(&self) -> Grid {
        Grid {
            global: [0, 1, 2].map(|a| self.local_size[a] * self.workgroups[a]),
        }
    }

    /// Number of invocations.
    pub fn invocations(&self) -> u32 {
        self.grid().invocations()
    }

    /// The image declarations (binding = position).
    pub fn decls(&self) -> Vec<ImageDecl> {
        self.images
            .iter()
            .enumerate()
            .map(|(i, img)| img.decl(i as u32))
            .collect()
    }

    /// Every access of the program, in program order.
    pub fn accesses(&self) -> Vec<&AccessSpec> {
        fn walk<'a>(list: &'a [Stmt], out: &mut Vec<&'a AccessSpec>) {
            for s in list {
                match s {
                    Stmt::Access(a) => out.push(a),
                    Stmt::If { then, els, .. } => {
                        walk(then, out);
                        walk(els, out);
                    }
                    Stmt::Loop { body, .. } => walk(body, out),
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.body, &mut out);
        out
    }

    /// Output slots per invocation.
    pub fn slots(&self) -> u32 {
        fn count(list: &[Stmt], in_loop: bool) -> u32 {
            list.iter()
                .map(|s| match s {
                    Stmt::Access(a) => {
                        if !a.op.returns_value() {
                            0
                        } else if in_loop {
                            MAX_TRIPS
                        } else {
                            1
                        }
                    }
                    Stmt::If { then, els, .. } => count(then, in_loop) + count(els, in_loop),
                    Stmt::Loop { body, .. } => count(body, true),
                })
                .sum()
        }
        count(&self.body, false)
    }

    /// Bytes of the output buffer.
    pub fn output_bytes(&self) -> usize {
        (self.slots().max(1) * SLOT_BYTES * self.invocations()) as usize
    }

    /// The shader: `main` runs the program, storing every returned value to the output
    /// buffer. Validated in debug builds.
    pub fn build(&self) -> Shader {
        let mut shader = Shader::new(self.local_size);
        let decls = self.decls();
        for d in &decls {
            shader.add_image(d.clone());
        }
        let mut func = Function::new("main");
        {
            let mut b = Builder::at_end(&mut func);
            let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
            let grid = self.grid();
            let gx = b.imm_u32(grid.global[0]);
            let gxy = b.imm_u32(grid.global[0] * grid.global[1]);
            let y = b.imul(Src::channel(gid, 1), gx);
            let z = b.imul(Src::channel(gid, 2), gxy);
            let yz = b.iadd(y, z);
            let lin = b.iadd(Src::channel(gid, 0), yz);
            let slots = b.imm_u32(self.slots().max(1));
            let lin_slots = b.imul(lin, slots);
            let mut e = Emitter {
                b,
                case: self,
                decls: &decls,
                gid,
                lin,
                lin_slots,
                next_slot: 0,
                visible: HashMap::new(),
                iter: None,
                loop_slots: false,
            };
            e.list(&self.body);
        }
        shader.functions.push(func);
        if cfg!(debug_assertions) {
            if let Err(d) = ir::validate(&shader) {
                panic!("generated shader does not validate: {d:?}\n{shader}");
            }
        }
        shader
    }

    /// What the verifier runs the case on: every image with its surface, view and
    /// initial contents, the output buffer (filled with a pattern, so that a missing
    /// or extra write shows), the dispatch and the subgroup size. The bindings are left
    /// to `lower_and_verify`, which takes them from the lowering's report.
    pub fn setup(&self) -> Setup {
        let images = self
            .images
            .iter()
            .map(|img| {
                let s = &img.setup;
                let texel_bytes = (s.format.bits_per_texel() / 8) as usize;
                let (layout, size) = match &s.memory {
                    ImageMemory::Surface {
                        desc,
                        view,
                        bit6_swizzle,
                    } => {
                        let size = s.surface().map_or(0, |surf| surf.size_B() as usize);
                        (
                            ImageLayout::Surface {
                                desc: *desc,
                                view: ViewRange {
                                    base_level: view.base_level,
                                    base_layer: view.base_layer,
                                    layer_count: view.layer_count,
                                },
                                bit6_swizzle: *bit6_swizzle,
                            },
                            size,
                        )
                    }
                    ImageMemory::Buffer { elements } => (
                        ImageLayout::Buffer {
                            elements: *elements as u64,
                        },
                        *elements as usize * texel_bytes,
                    ),
                };
                let fill = match s.fill {
                    Fill::Zero => SetupFill::Zero,
                    Fill::Valid(seed) => SetupFill::Pattern(seed),
                    f => SetupFill::Bytes(
                        f.bytes(size, texel_bytes)
                            .expect("random and small fills have bytes"),
                    ),
                };
                SetupImage {
                    image: img.name.clone(),
                    element: 0,
                    format: s.format,
                    layout,
                    fill,
                }
            })
            .collect();
        let output = BufferSetup {
            kind: BufferKind::Ssbo,
            binding: OUTPUT_SSBO,
            bytes: pattern_bytes(
                0x0u64.wrapping_add(self.slots() as u64),
                self.output_bytes(),
            ),
        };
        Setup {
            images,
            buffers: vec![output],
            globals: Vec::new(),
            push_constants: Vec::new(),
            grid: self.workgroups,
            subgroup_size: self.subgroup_size,
            max_steps: ir::interp::DEFAULT_MAX_STEPS,
            bindings: Vec::new(),
            report_limit: 8,
        }
    }

    /// Smaller cases: fewer invocations, statements removed, `if`s and loops replaced
    /// by their bodies.
    pub fn shrink_cases(&self) -> Vec<Case> {
        let mut out = Vec::new();
        if self.workgroups != [1, 1, 1] {
            out.push(Case {
                workgroups: [1, 1, 1],
                ..self.clone()
            });
        }
        if self.local_size != [1, 1, 1] {
            out.push(Case {
                local_size: [1, 1, 1],
                ..self.clone()
            });
        }
        for body in shrink_list(&self.body) {
            out.push(Case {
                body,
                ..self.clone()
            });
        }
        out
    }
}

fn pick_options(g: &mut Gen, options: &[LowerOptions]) -> LowerOptions {
    if options.is_empty() {
        LowerOptions::default()
    } else {
        options[below(g, options.len())]
    }
}

/// Variants of a statement list with one change each.
fn shrink_list(list: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    for i in 0..list.len() {
        let mut without = list.to_vec();
        without.remove(i);
        out.push(without);
        let splice = |with: &[Stmt]| {
            let mut v = list[..i].to_vec();
            v.extend(with.iter().cloned());
            v.extend(list[i + 1..].iter().cloned());
            v
        };
        match &list[i] {
            Stmt::Access(_) => {}
            Stmt::If { cond, then, els } => {
                out.push(splice(then));
                out.push(splice(els));
                for t in shrink_list(then) {
                    out.push(splice(&[Stmt::If {
                        cond: *cond,
                        then: t,
                        els: els.clone(),
                    }]));
                }
                for e in shrink_list(els) {
                    out.push(splice(&[Stmt::If {
                        cond: *cond,
                        then: then.clone(),
                        els: e,
                    }]));
                }
            }
            Stmt::Loop {
                base,
                lane_mask,
                body,
            } => {
                out.push(splice(body));
                for b in shrink_list(body) {
                    out.push(splice(&[Stmt::Loop {
                        base: *base,
                        lane_mask: *lane_mask,
                        body: b,
                    }]));
                }
            }
        }
    }
    out
}

/// One image: dimension, format (or none), qualifiers, static layout, memory.
fn arbitrary_image(g: &mut Gen, device: &Device, cfg: &CaseConfig, index: usize) -> ImageCase {
    let dim = arbitrary_dim(g);
    let mut format = if chance(g, cfg.atomic_format_share, 100) {
        // The formats atomics run on (five of the 41, and the three R16 formats from
        // Gfx12): drawn more often so that every atomic op is exercised on every
        // platform.
        let r16: &[Format] = if device.verx10 >= 120 {
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
        .filter(|&f| super::device::can_lower(device, f))
        .collect();
        pick(g, &atomic)
    } else {
        arbitrary_format(g, device, cfg.unlowerable_share)
    };
    let format_less = chance(g, cfg.format_less_share, 100);
    if format_less && matches!(format, Format::R64Uint | Format::R64Sint) {
        // Format-less data is 32-bit; a 64-bit view needs its format.
        format = Format::R32Uint;
    }
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
    ImageCase {
        name: format!("img{index}"),
        dim,
        decl_format: if format_less { Format::None } else { format },
        access,
        static_layout,
        setup,
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
                st.visible.push((a.id, comps));
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
            Some(&(access, comps)) => Cond::LoadedNonZero {
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
    if readable && writable && img.atomics_allowed(st.r16_atomics) {
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
    AccessSpec {
        id,
        image,
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
        pick(
            g,
            // Integer compare-and-swap is an integer op (the validator's rule).
            &[A::Xchg, A::Fadd, A::Fmin, A::Fmax, A::Fcmpxchg, A::Fcmpxchg],
        )
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
        7 | 8 if !st.visible.is_empty() => {
            let (access, comps) = st.visible[below(g, st.visible.len())];
            Scalar::Loaded {
                access,
                comp: below(g, comps as usize) as u8,
            }
        }
        _ if st.in_loop => Scalar::Iter,
        _ => Scalar::Const(if float { 0x3f80_0000 } else { 1 }),
    }
}

/// Emission state.
struct Emitter<'a, 'f> {
    b: Builder<'f>,
    case: &'a Case,
    decls: &'a [ImageDecl],
    gid: Value,
    lin: Value,
    lin_slots: Value,
    next_slot: u32,
    /// Values of earlier accesses visible here.
    visible: HashMap<u32, Value>,
    /// The innermost loop's counter.
    iter: Option<Value>,
    /// Whether accesses reserve [`MAX_TRIPS`] slots (inside a loop).
    loop_slots: bool,
}

impl Emitter<'_, '_> {
    fn list(&mut self, list: &[Stmt]) {
        for s in list {
            match s {
                Stmt::Access(a) => self.access(a),
                Stmt::If { cond, then, els } => {
                    let c = self.cond(cond);
                    let saved = self.visible.clone();
                    let id = self.b.push_if(c);
                    self.list(then);
                    self.visible = saved.clone();
                    self.b.push_else(id);
                    self.list(els);
                    self.visible = saved;
                    self.b.pop_if(id);
                }
                Stmt::Loop {
                    base,
                    lane_mask,
                    body,
                } => {
                    if self.iter.is_some() {
                        // Shrinking never nests loops, but a nested body still runs.
                        self.list(body);
                        continue;
                    }
                    self.lp(*base, *lane_mask, body);
                }
            }
        }
    }

    fn lp(&mut self, base: u32, lane_mask: u32, body: &[Stmt]) {
        let b = &mut self.b;
        let base_v = b.imm_u32(base.min(MAX_TRIPS));
        let mask = b.imm_u32(lane_mask);
        let lanes = b.iand(self.lin, mask);
        let sum = b.iadd(base_v, lanes);
        let max = b.imm_u32(MAX_TRIPS);
        let limit = b.umin(sum, max);
        let zero = b.imm_u32(0);
        let one = b.imm_u32(1);
        let preheader = b.current_block();
        let id = b.push_loop();
        let i = b.phi(Type::U32, &[]);
        let phi_inst = b.func.value_def(i).expect("a phi has a definition");
        let done = b.uge(i, limit);
        let exit = b.push_if(done);
        b.jump(Jump::Break);
        b.push_else(exit);
        b.pop_if(exit);
        let next = b.iadd(i, one);
        let saved = self.visible.clone();
        self.iter = Some(i);
        self.loop_slots = true;
        self.list(body);
        self.iter = None;
        self.loop_slots = false;
        self.visible = saved;
        self.b.pop_loop(id);
        let func = &mut *self.b.func;
        let header = func.inst_block(phi_inst).expect("the phi is placed");
        let preds = func.predecessors();
        let srcs = preds
            .get(&header)
            .map(|p| p.to_vec())
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p, Src::new(if p == preheader { zero } else { next })))
            .collect();
        func.inst_mut(phi_inst).kind = InstKind::Phi(Phi { srcs });
    }

    fn base_value(&mut self, base: CoordBase) -> Src {
        match base {
            CoordBase::Zero => Src::new(self.b.imm_u32(0)),
            CoordBase::Global(a) => Src::channel(self.gid, a),
            CoordBase::Linear => Src::new(self.lin),
        }
    }

    fn cond(&mut self, cond: &Cond) -> Value {
        match *cond {
            Cond::Bit { base, bit, set } => {
                let v = self.base_value(base);
                let sh = self.b.imm_u32(bit as u32);
                let shifted = self.b.ushr(v, sh);
                let one = self.b.imm_u32(1);
                let t = self.b.iand(shifted, one);
                let zero = self.b.imm_u32(0);
                if set {
                    self.b.ine(t, zero)
                } else {
                    self.b.ieq(t, zero)
                }
            }
            Cond::Below { k } => {
                let k = self.b.imm_u32(k);
                self.b.ult(self.lin, k)
            }
            Cond::LoadedNonZero { access, comp } => match self.visible.get(&access).copied() {
                Some(v) => {
                    let ty = self.b.func.value_type(v);
                    let c = Src::channel(v, comp % ty.num_components());
                    let zero = self.b.imm_int(ty.bit_size(), 0);
                    self.b.ine(c, zero)
                }
                None => {
                    let k = self.b.imm_u32(self.case.invocations() / 2);
                    self.b.ult(self.lin, k)
                }
            },
        }
    }

    fn coord(&mut self, a: &AccessSpec) -> Src {
        let mut comps: Vec<Src> = Vec::new();
        for t in &a.coord {
            let mut v = match t.base {
                CoordBase::Zero => Src::new(self.b.imm_u32(t.offset as u32)),
                base => {
                    let bv = self.base_value(base);
                    let off = self.b.imm_u32(t.offset as u32);
                    Src::new(self.b.iadd(bv, off))
                }
            };
            if t.plus_iter {
                if let Some(i) = self.iter {
                    v = Src::new(self.b.iadd(v, i));
                }
            }
            if let Some(m) = t.wrap {
                let m = self.b.imm_u32(m.max(1));
                v = Src::new(self.b.umod(v, m));
            }
            comps.push(v);
        }
        self.gather(&comps, a.swizzled.then_some(a.id as u8))
    }

    /// The components as one source: a vector of them, or with `rotate`, a swizzled read
    /// of a vec4 holding component `i` at `(i + rotate) mod 4` and junk elsewhere.
    fn gather(&mut self, comps: &[Src], rotate: Option<u8>) -> Src {
        let Some(rot) = rotate else {
            return if comps.len() == 1 {
                comps[0]
            } else {
                Src::new(self.b.vec(comps))
            };
        };
        let bits = self.b.func.src_type(comps[0]).bit_size();
        let junk = Src::new(self.b.imm_int(bits, 0x5eed_0bad));
        let mut all = [junk; 4];
        let mut sel = Vec::with_capacity(comps.len());
        for (i, &c) in comps.iter().enumerate() {
            let p = (i as u8 + rot) % 4;
            all[p as usize] = c;
            sel.push(p);
        }
        let v = self.b.vec(&all);
        Src::swizzled(v, &sel).expect("at most four components")
    }

    /// A scalar of `bits` bits (float data when `float`).
    fn scalar(&mut self, s: Scalar, bits: u8, float: bool) -> Src {
        let b = &mut self.b;
        match s {
            Scalar::Const(v) => Src::new(b.imm_int(bits, v as i64)),
            Scalar::Invocation { mul, add, scale } => {
                let m = b.imm_u32(mul);
                let a = b.imm_u32(add);
                let x = b.imul(self.lin, m);
                let x = b.iadd(x, a);
                if bits == 64 {
                    let sc = b.imm_u32(scale);
                    let hi = b.ixor(x, sc);
                    Src::new(b.pack_64_2x32_split(x, hi))
                } else if float {
                    let f = b.i2f32(x);
                    let sc = b.imm_u32(scale);
                    Src::new(b.fmul(f, sc))
                } else {
                    Src::new(x)
                }
            }
            Scalar::Loaded { access, comp } => match self.visible.get(&access).copied() {
                Some(v) => {
                    let ty = b.func.value_type(v);
                    let c = Src::channel(v, comp % ty.num_components());
                    match (ty.bit_size(), bits) {
                        (x, y) if x == y => c,
                        (32, 64) => Src::new(b.u2u64(c)),
                        (64, 32) => Src::new(b.u2u32(c)),
                        _ => Src::new(b.imm_int(bits, 0)),
                    }
                }
                None => self.scalar(
                    Scalar::Const(if float { 0x3f80_0000 } else { 1 }),
                    bits,
                    float,
                ),
            },
            Scalar::Iter => {
                let i = match self.iter {
                    Some(i) => i,
                    None => b.imm_u32(0),
                };
                if bits == 64 {
                    Src::new(b.u2u64(i))
                } else if float {
                    Src::new(b.u2f32(i))
                } else {
                    Src::new(i)
                }
            }
        }
    }

    fn access(&mut self, a: &AccessSpec) {
        let img = &self.case.images[a.image];
        let decl = &self.decls[a.image];
        let image = ImageRef::new(ir::ImageId::from_u32(a.image as u32));
        let ty = img.data_type();
        let float = ty.base == BaseType::Float;
        let value = match &a.op {
            Op::Load { comps } => {
                let coord = self.coord(a);
                Some(self.b.image_load(decl, image, coord, *comps, ty))
            }
            Op::Store { data } => {
                let coord = self.coord(a);
                let comps: Vec<Src> = data
                    .iter()
                    .map(|&s| self.scalar(s, ty.bits, float))
                    .collect();
                let v = self.gather(&comps, a.swizzled.then_some(a.id as u8 + 1));
                self.b.image_store(decl, image, coord, v, ty);
                None
            }
            Op::Atomic { op, data, compare } => {
                let coord = self.coord(a);
                let fop = op.is_float() || float;
                let d = self.scalar(*data, ty.bits, fop);
                Some(match compare {
                    Some(c) if op.is_swap() => {
                        let c = self.scalar(*c, ty.bits, fop);
                        self.b.image_atomic_swap(decl, image, *op, coord, c, d)
                    }
                    _ if op.is_swap() => {
                        let c = self.b.imm_int(ty.bits, 0);
                        self.b.image_atomic_swap(decl, image, *op, coord, c, d)
                    }
                    _ => self.b.image_atomic(decl, image, *op, coord, d),
                })
            }
            Op::Size => Some(self.b.image_size(decl, image)),
            Op::Samples => {
                let [d, arr, _, _] = image_indices(decl);
                self.b.intrinsic(
                    IntrinsicOp::ImageSamples,
                    Some(image),
                    &[],
                    &[d, arr],
                    Some(Type::U32),
                )
            }
        };
        let Some(v) = value else {
            return;
        };
        self.visible.insert(a.id, v);
        // The output slot: (linear · slots + slot [+ iteration]) · SLOT_BYTES.
        let slot = self.next_slot;
        self.next_slot += if self.loop_slots { MAX_TRIPS } else { 1 };
        let b = &mut self.b;
        let s = b.imm_u32(slot);
        let mut index = b.iadd(self.lin_slots, s);
        if let Some(i) = self.iter {
            index = b.iadd(index, i);
        }
        let shift = b.imm_u32(SLOT_BYTES.trailing_zeros());
        let offset = b.ishl(index, shift);
        let block = b.imm_u32(OUTPUT_SSBO);
        let align = b.func.value_type(v).bit_size() as u32 / 8;
        b.intrinsic(
            IntrinsicOp::StoreSsbo,
            None,
            &[Src::new(v), Src::new(block), Src::new(offset)],
            &[0, align],
            None,
        );
    }
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, l: &[Stmt], indent: usize) -> fmt::Result {
            for s in l {
                write_stmt(f, s, indent)?;
            }
            Ok(())
        }
        fn write_stmt(f: &mut fmt::Formatter<'_>, s: &Stmt, indent: usize) -> fmt::Result {
            let pad = "  ".repeat(indent);
            match s {
                Stmt::Access(a) => {
                    let coords: Vec<String> = a.coord.iter().map(|t| t.to_string()).collect();
                    writeln!(
                        f,
                        "{pad}#{} {} @img{} ({}){}",
                        a.id,
                        a.op.name(),
                        a.image,
                        coords.join(", "),
                        match &a.op {
                            Op::Store { data } => format!(" <- {data:?}"),
                            Op::Atomic { data, compare, .. } =>
                                format!(" data {data:?} compare {compare:?}"),
                            _ => String::new(),
                        }
                    )
                }
                Stmt::If { cond, then, els } => {
                    writeln!(f, "{pad}if {cond:?}")?;
                    list(f, then, indent + 1)?;
                    writeln!(f, "{pad}else")?;
                    list(f, els, indent + 1)
                }
                Stmt::Loop {
                    base,
                    lane_mask,
                    body,
                } => {
                    writeln!(f, "{pad}loop {base} + (lin & {lane_mask}) times")?;
                    list(f, body, indent + 1)
                }
            }
        }
        write_stmt(f, self, 0)
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(
            f,
            "device {}{}, options {:?}, in-range only {}",
            self.device.name,
            if self.device.linear_1d_storage {
                ""
            } else {
                " (any storage tiling isl allows)"
            },
            self.options,
            self.in_range_only
        )?;
        writeln!(
            f,
            "local size {:?}, workgroups {:?}, subgroup {}",
            self.local_size, self.workgroups, self.subgroup_size
        )?;
        for (i, img) in self.images.iter().enumerate() {
            writeln!(
                f,
                "image {i}: {} {} (view {}) {:?} layout {:?} fill {:?}\n  {:?}",
                img.dim,
                img.decl_format,
                img.setup.format,
                img.access,
                img.static_layout,
                img.setup.fill,
                img.setup.memory
            )?;
        }
        for s in &self.body {
            write!(f, "{s}")?;
        }
        write!(f, "{}", self.build())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases(n: usize, seed: u64, cfg: &CaseConfig) -> Vec<Case> {
        let mut g = Gen::from_size_and_seed(10, seed);
        (0..n).map(|_| Case::arbitrary_with(&mut g, cfg)).collect()
    }

    #[test]
    fn cases_build_valid_shaders() {
        for c in cases(400, 1, &CaseConfig::default()) {
            let s = c.build();
            ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{c:?}"));
            let n = c.accesses().len();
            assert!((1..=6).contains(&n), "{n} accesses");
            for shrunk in c.shrink_cases() {
                let s = shrunk.build();
                ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{shrunk:?}"));
            }
        }
    }

    #[test]
    fn generation_is_deterministic() {
        let a = cases(20, 9, &CaseConfig::default());
        let b = cases(20, 9, &CaseConfig::default());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.build(), y.build());
        }
    }

    #[test]
    fn in_range_cases_only_have_in_range_coordinates() {
        let cfg = CaseConfig {
            in_range_only: true,
            ..CaseConfig::default()
        };
        for c in cases(300, 2, &cfg) {
            let grid = c.grid();
            for a in c.accesses() {
                let limits = c.images[a.image].setup.coord_limits();
                for (t, &l) in a.coord.iter().zip(&limits) {
                    for lin in 0..grid.invocations() {
                        let gx = grid.global;
                        let gid = [lin % gx[0], (lin / gx[0]) % gx[1], lin / (gx[0] * gx[1])];
                        for it in 0..MAX_TRIPS {
                            assert!(t.eval(gid, lin, it) < l, "{t} limit {l}\n{c:?}");
                        }
                    }
                }
                assert!(!a
                    .coord
                    .iter()
                    .any(|t| !t.class.in_range() && t.wrap.is_none()));
            }
        }
    }
}
