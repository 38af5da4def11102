//! Random valid shaders for property tests.
//!
//! [`generate`] builds a shader from a seed and a [`GenConfig`]; [`RandomShader`] wraps
//! it as a quickcheck [`Arbitrary`]. The shaders are valid by construction:
//!
//! - instructions are generated in program order and a source only names a value that
//!   is visible there (defined earlier in the same block or in a block that dominates
//!   it: values defined inside an `if` branch or a loop body go out of scope when it
//!   closes);
//! - ALU operands follow the opcode's signature from [`AluOp::info`]: per-component
//!   inputs have as many components as the result, fixed-size inputs their size, sized
//!   types their size and every unsized operand the instruction's bit size (16/32/64 for
//!   floats, 8..64 for integers); about a quarter of them carry NIR's `exact` flag;
//! - phis sit at the top of merge blocks (after an `if`, after a loop) and of loop
//!   headers, with one source per predecessor, each a value that dominates the end of
//!   that predecessor;
//! - `break`/`continue` only end the last block of a list inside a loop, never make a
//!   block unreachable, and every loop counts its iterations in a header phi and leaves
//!   after [`GenConfig::loop_trip_limit`] of them, so that the shaders also terminate when
//!   executed;
//! - image intrinsics use coordinates of the image's `coord_components` (loads sometimes
//!   a `lod` too), data of the
//!   format's base type and bit size, atomics only on single-channel integer formats
//!   (and exchange/float ops on `r32_float`), stores and atomics only on images that are
//!   not `readonly`, loads only on images that are not `writeonly`;
//! - message intrinsics use consistent LSC fields (flat A64 untyped messages, `tgm`
//!   typed quad messages naming an image, sampler `ld_lz`).
//!
//! Generation is deterministic for a given seed and configuration.

use ir::builder::{image_indices, Builder};
use ir::function::{Function, InstKind, Jump, Phi};
use ir::image::{Access, Format, ImageDecl, ImageDim, ImageRef, LayoutTiling, StaticLayout};
use ir::intrinsic::{IndexKind, IntrinsicOp};
use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, DataSize, LscAtomicOp, LscDesc, Sfid};
use ir::subgroup::{GroupOperation, ReductionOp};
use ir::types::{AluType, BaseType};
use ir::{AluOp, AtomicOp, Block, ImageId, Inst, Shader, Src, Swizzle, Type, Value};
use quickcheck::{Arbitrary, Gen};
use std::fmt;

/// What the generator may produce, and how much.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Deepest nesting of `if` and `loop` (0: straight-line code).
    pub max_depth: u32,
    /// Each function gets an instruction budget drawn from `min_insts..=max_insts` and
    /// is generated until the budget is spent (so set both to get a given size).
    pub min_insts: usize,
    /// Upper bound on the instructions of each function.
    pub max_insts: usize,
    /// Number of functions is 1 (`main`) up to this.
    pub max_functions: usize,
    /// Number of image declarations is 0 up to this.
    pub max_images: usize,
    /// The ALU opcodes to draw from (empty: no ALU instructions besides the ones loops
    /// need for their counters).
    pub alu_ops: Vec<AluOp>,
    /// Emit `undef`s.
    pub undefs: bool,
    /// Let sources swizzle (otherwise every source reads a whole value of the right
    /// shape, and a constant is made when none exists).
    pub swizzles: bool,
    /// Use 8- and 16-component vectors for per-component ALU ops.
    pub wide_vectors: bool,
    /// Emit the high-level image intrinsics.
    pub image_intrinsics: bool,
    /// Emit message intrinsics (LSC and sampler), some predicated.
    pub message_intrinsics: bool,
    /// Emit system-value loads (`load_global_invocation_id`, ...) and subgroup
    /// reductions and scans.
    pub system_values: bool,
    /// Emit `if`/`else` and `loop` (with `break` and `continue`).
    pub control_flow: bool,
    /// Emit phis at merge points (loop counters get theirs regardless).
    pub phis: bool,
    /// Iterations after which every loop leaves through its counter.
    pub loop_trip_limit: u32,
    /// Declare 0 to 3 storage and uniform buffers (fixed or runtime-array layouts,
    /// arrays of blocks) and, among the system values, read their sizes with
    /// `get_ssbo_size` at constant block indices they declare.
    pub buffers: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            max_depth: 3,
            min_insts: 1,
            max_insts: 60,
            max_functions: 2,
            max_images: 5,
            alu_ops: AluOp::ALL.to_vec(),
            undefs: true,
            swizzles: true,
            wide_vectors: true,
            image_intrinsics: true,
            message_intrinsics: true,
            system_values: true,
            control_flow: true,
            phis: true,
            loop_trip_limit: 4,
            buffers: false,
        }
    }
}

impl GenConfig {
    /// The default configuration with about `size` instructions per function (at least 4).
    pub fn sized(size: usize) -> GenConfig {
        GenConfig {
            max_insts: size.max(4),
            ..GenConfig::default()
        }
    }

    /// Straight-line code: no `if`, `loop` or phi.
    pub fn straight_line() -> GenConfig {
        GenConfig {
            max_depth: 0,
            control_flow: false,
            phis: false,
            ..GenConfig::default()
        }
    }

    /// Only ALU, constants and control flow: no intrinsics at all.
    pub fn alu_only() -> GenConfig {
        GenConfig {
            image_intrinsics: false,
            message_intrinsics: false,
            system_values: false,
            ..GenConfig::default()
        }
    }
}

/// A random valid shader drawn with `GenConfig::sized(g.size())`.
pub fn arbitrary_shader(g: &mut Gen) -> Shader {
    arbitrary_shader_with(g, &GenConfig::sized(g.size()))
}

/// A random valid shader drawn with the given configuration.
pub fn arbitrary_shader_with(g: &mut Gen, cfg: &GenConfig) -> Shader {
    generate(u64::arbitrary(g), cfg)
}

/// A quickcheck wrapper around a random valid shader. `Debug` prints the text form, so a
/// failing property shows the shader as it would be written.
#[derive(Clone)]
pub struct RandomShader(pub Shader);

impl Arbitrary for RandomShader {
    fn arbitrary(g: &mut Gen) -> RandomShader {
        RandomShader(arbitrary_shader(g))
    }
}

impl fmt::Debug for RandomShader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

/// The shader for `seed` under `cfg`.
pub fn generate(seed: u64, cfg: &GenConfig) -> Shader {
    let mut rng = Rng(seed);
    let dims = [1u32, 1, 2, 4, 8, 16];
    let mut local_size = [1u32; 3];
    for d in local_size.iter_mut() {
        *d = *rng.pick(&dims);
    }
    // Within the 1024 invocations every Intel GPU runs per workgroup (the validator
    // refuses more): halve the z dimension, then y, until it fits.
    for d in [2, 1] {
        while local_size.iter().product::<u32>() > ir::validate::MAX_WORKGROUP_INVOCATIONS {
            if local_size[d] == 1 {
                break;
            }
            local_size[d] /= 2;
        }
    }
    let mut shader = Shader::new(local_size);
    for decl in gen_images(&mut rng, cfg) {
        shader.add_image(decl);
    }
    if cfg.buffers {
        for decl in gen_buffers(&mut rng) {
            shader.add_buffer(decl);
        }
    }
    let ssbo_blocks: Vec<u32> = shader
        .buffers
        .iter()
        .filter(|d| d.kind == ir::BufferKind::Ssbo)
        .flat_map(|d| d.block..d.block + d.count.unwrap_or(1))
        .collect();
    let nfuncs = 1 + rng.below(cfg.max_functions.max(1));
    for i in 0..nfuncs {
        let name = if i == 0 {
            "main".to_string()
        } else {
            format!("helper{i}")
        };
        let func = FnGen::run(&mut rng, cfg, &shader.images, &ssbo_blocks, name);
        shader.functions.push(func);
    }
    shader
}

/// SplitMix64: a small, seedable generator that is fine for any seed (quickcheck's
/// `u64::arbitrary` likes 0 and `u64::MAX`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `num/den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Up to three buffer declarations with distinct names and blocks that do not overlap
/// within their kind: storage or uniform, access qualifiers, arrays of 1 to 4 blocks,
/// fixed sizes or a runtime array's stride.
fn gen_buffers(rng: &mut Rng) -> Vec<ir::BufferDecl> {
    let n = rng.below(4);
    let mut next = [0u32; 2];
    let mut out = Vec::new();
    for i in 0..n {
        let kind = *rng.pick(&ir::BufferKind::ALL);
        let k = kind as usize;
        let block = next[k] + rng.below(3) as u32;
        let count = rng.chance(1, 3).then(|| 1 + rng.below(4) as u32);
        next[k] = block + count.unwrap_or(1);
        let size = 4 * rng.below(64) as u32;
        let stride = rng
            .chance(1, 2)
            .then(|| *rng.pick(&[1u32, 4, 8, 12, 16, 48]));
        let access = *rng.pick(&[
            Access::NONE,
            Access::NON_WRITEABLE,
            Access::NON_READABLE,
            Access::COHERENT | Access::RESTRICT,
            Access::VOLATILE,
        ]);
        out.push(ir::BufferDecl {
            access,
            count,
            stride,
            ..ir::BufferDecl::new(&format!("buf{i}"), kind, block, size)
        });
    }
    out
}

fn gen_images(rng: &mut Rng, cfg: &GenConfig) -> Vec<ImageDecl> {
    let n = rng.below(cfg.max_images + 1);
    let mut binding = 0u32;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let dim = *rng.pick(&ImageDim::ALL);
        let arrayed = dim.can_be_arrayed() && rng.chance(1, 3);
        // Mostly real formats (accesses need one); now and then a format-less image,
        // which only gets size queries and parameter loads.
        let format = if rng.chance(1, 12) {
            Format::None
        } else {
            *rng.pick(Format::ALL)
        };
        let access = *rng.pick(&[
            Access::NONE,
            Access::NONE,
            Access::NON_WRITEABLE,
            Access::NON_READABLE,
            Access::COHERENT,
            Access::COHERENT | Access::VOLATILE,
            Access::RESTRICT | Access::NON_WRITEABLE,
        ]);
        let count = rng.chance(1, 5).then(|| 2 + rng.below(4) as u32);
        // Multisampled images take no static layout: their tiles' layout depends on
        // the sample count bound at run time.
        let layout = (dim != ImageDim::Ms && rng.chance(1, 3)).then(|| {
            let tiling = if dim == ImageDim::Buffer {
                LayoutTiling::Linear
            } else {
                *rng.pick(&LayoutTiling::ALL)
            };
            StaticLayout {
                tiling,
                // A multiple of every tile width (512 B for X).
                row_pitch: 512 * (1 + rng.below(16) as u32),
                qpitch: (arrayed || dim == ImageDim::D3 || dim == ImageDim::Cube)
                    .then(|| 64 * (1 + rng.below(16) as u32)),
                // Bit-6 swizzling only exists for X and Y tiling (IVB/HSW).
                swizzle: matches!(tiling, LayoutTiling::X | LayoutTiling::Y) && rng.chance(1, 3),
            }
        });
        out.push(ImageDecl {
            name: format!("img{i}"),
            dim,
            arrayed,
            format,
            access,
            binding,
            count,
            layout,
        });
        binding += count.unwrap_or(1);
    }
    out
}

const BIT_SIZES: [u8; 5] = [1, 8, 16, 32, 64];

fn bit_class(bits: u8) -> usize {
    BIT_SIZES.iter().position(|&b| b == bits).unwrap_or(3)
}

/// A phi whose sources are filled in once the function's control flow is complete.
enum PendingPhi {
    /// A merge-point phi: for each predecessor, one of `candidates` (values visible
    /// before the construct, so dominating every predecessor) or a value of the same
    /// type defined in the predecessor itself.
    Merge { inst: Inst, candidates: Vec<Value> },
    /// A loop counter: `entry` from the block before the loop, `next` from back edges.
    Counter {
        inst: Inst,
        preheader: Block,
        entry: Value,
        next: Value,
    },
}

/// What a new list node is.
#[derive(Copy, Clone)]
enum Item {
    Alu,
    Const,
    Undef,
    Image,
    Message,
    SystemValue,
    If,
    Loop,
}

struct FnGen<'a, 'f> {
    b: Builder<'f>,
    rng: &'a mut Rng,
    cfg: &'a GenConfig,
    images: &'a [ImageDecl],
    /// The storage blocks the shader declares (`get_ssbo_size` names them).
    ssbo_blocks: &'a [u32],
    /// Values visible at the cursor, by bit size class; scopes truncate them.
    visible: [Vec<Value>; 5],
    phis: Vec<PendingPhi>,
    budget: usize,
}

type Scope = [usize; 5];

impl<'a, 'f> FnGen<'a, 'f> {
    fn run(
        rng: &mut Rng,
        cfg: &GenConfig,
        images: &[ImageDecl],
        ssbo_blocks: &[u32],
        name: String,
    ) -> Function {
        let mut func = Function::new(name);
        let lo = cfg.min_insts.clamp(1, cfg.max_insts.max(1));
        let budget = lo + rng.below(cfg.max_insts.max(1) - lo + 1);
        let phis = {
            let mut g = FnGen {
                b: Builder::at_end(&mut func),
                rng,
                cfg,
                images,
                ssbo_blocks,
                visible: Default::default(),
                phis: Vec::new(),
                budget,
            };
            // The function body runs until the budget is spent; nested lists are short.
            while g.budget > 0 {
                g.list(0, false, false);
            }
            g.phis
        };
        fill_phis(&mut func, rng, phis);
        func
    }

    fn scope(&self) -> Scope {
        let mut s = [0; 5];
        for (i, v) in self.visible.iter().enumerate() {
            s[i] = v.len();
        }
        s
    }

    fn restore(&mut self, s: Scope) {
        for (v, &n) in self.visible.iter_mut().zip(&s) {
            v.truncate(n);
        }
    }

    fn define(&mut self, v: Value) -> Value {
        let bits = self.b.func.value_type(v).bit_size();
        self.visible[bit_class(bits)].push(v);
        self.budget = self.budget.saturating_sub(1);
        v
    }

    fn ty(&self, v: Value) -> Type {
        self.b.func.value_type(v)
    }

    /// A component count for a per-component result.
    fn comps(&mut self) -> u8 {
        if self.cfg.wide_vectors && self.rng.chance(1, 16) {
            *self.rng.pick(&[8u8, 16])
        } else {
            *self.rng.pick(&[1u8, 1, 1, 2, 3, 4])
        }
    }

    /// Emits the items of a list at the cursor; ends the list's last block with a jump
    /// sometimes when `in_loop` and `may_jump`. Returns whether it did.
    fn list(&mut self, depth: u32, in_loop: bool, may_jump: bool) -> bool {
        let items = 1 + self.rng.below(8);
        for _ in 0..items {
            if self.budget == 0 {
                break;
            }
            match self.item(depth) {
                Item::Alu => self.alu(),
                Item::Const => {
                    let ty = self.random_type();
                    self.constant(ty);
                }
                Item::Undef => {
                    let ty = self.random_type();
                    let v = self.b.undef(ty);
                    self.define(v);
                }
                Item::Image => self.image_intrinsic(),
                Item::Message => self.message(),
                Item::SystemValue if !self.ssbo_blocks.is_empty() && self.rng.chance(1, 3) => {
                    let block = *self.rng.pick(self.ssbo_blocks);
                    let b = self.b.imm_u32(block);
                    let v = self
                        .b
                        .intrinsic(
                            IntrinsicOp::GetSsboSize,
                            None,
                            &[Src::new(b)],
                            &[0],
                            Some(Type::U32),
                        )
                        .expect("get_ssbo_size defines a value");
                    self.define(b);
                    self.define(v);
                }
                // A subgroup reduction or scan of a 32-bit value: the lanes that run it
                // depend on the control flow around it, which no pass may change.
                Item::SystemValue if self.rng.chance(1, 3) => {
                    let kind = *self.rng.pick(&[
                        GroupOperation::Reduce,
                        GroupOperation::InclusiveScan,
                        GroupOperation::ExclusiveScan,
                    ]);
                    let op = *self.rng.pick(&ReductionOp::ALL);
                    let x = self.src(32, 1);
                    // A reduction over the whole subgroup, or over clusters of it.
                    let v = match kind {
                        GroupOperation::Reduce => {
                            let c = *self.rng.pick(&[0, 1, 2, 4, 8, 16, 32]);
                            self.b.clustered_reduce(op, x, c)
                        }
                        _ => self.b.subgroup_op(kind, op, x),
                    };
                    self.define(v);
                }
                Item::SystemValue => {
                    let op = *self.rng.pick(&[
                        IntrinsicOp::LoadGlobalInvocationId,
                        IntrinsicOp::LoadLocalInvocationId,
                        IntrinsicOp::LoadWorkgroupId,
                        IntrinsicOp::LoadNumWorkgroups,
                    ]);
                    let v = self.b.system_value(op);
                    self.define(v);
                }
                Item::If => self.if_node(depth, in_loop),
                Item::Loop => self.loop_node(depth),
            }
        }
        if in_loop && may_jump && self.rng.chance(1, 4) {
            let j = if self.rng.chance(1, 2) {
                Jump::Break
            } else {
                Jump::Continue
            };
            self.b.jump(j);
            return true;
        }
        false
    }

    fn item(&mut self, depth: u32) -> Item {
        let cfg = self.cfg;
        let cf = cfg.control_flow && depth < cfg.max_depth && self.budget > 2;
        let weighted: [(Item, u64); 8] = [
            (Item::Alu, if cfg.alu_ops.is_empty() { 0 } else { 50 }),
            (Item::Const, 8),
            (Item::Undef, if cfg.undefs { 2 } else { 0 }),
            (
                Item::Image,
                if cfg.image_intrinsics && self.images.iter().any(|d| d.format != Format::None) {
                    14
                } else {
                    0
                },
            ),
            (Item::Message, if cfg.message_intrinsics { 5 } else { 0 }),
            (Item::SystemValue, if cfg.system_values { 3 } else { 0 }),
            (Item::If, if cf { 7 } else { 0 }),
            (Item::Loop, if cf { 4 } else { 0 }),
        ];
        let total: u64 = weighted.iter().map(|w| w.1).sum();
        let mut r = self.rng.next() % total;
        for (item, w) in weighted {
            if r < w {
                return item;
            }
            r -= w;
        }
        Item::Const
    }

    fn random_type(&mut self) -> Type {
        let bits = *self.rng.pick(&BIT_SIZES);
        let comps = self.comps();
        Type::new(bits, comps).expect("legal type")
    }

    /// A `load_const` of `ty` with values that exercise edge cases.
    fn constant(&mut self, ty: Type) -> Value {
        let bits = ty.bit_size();
        let vals: Vec<u64> = (0..ty.num_components())
            .map(|_| match self.rng.below(6) {
                0 => self.rng.below(17) as u64,
                1 => u64::MAX,
                2 => 1u64 << (bits - 1),
                3 => match bits {
                    16 => *self.rng.pick(&[0x3c00u64, 0xbc00, 0x3800, 0x7bff, 0x0001]),
                    32 => *self.rng.pick(&[
                        0x3f80_0000u64,
                        0xbf00_0000,
                        0x4b00_0000,
                        0x7f80_0000,
                        0x0000_0001,
                    ]),
                    64 => *self
                        .rng
                        .pick(&[0x3ff0_0000_0000_0000u64, 0xbfe0_0000_0000_0000]),
                    _ => self.rng.next(),
                },
                _ => self.rng.next(),
            })
            .collect();
        let v = self.b.load_const(ty, &vals);
        self.define(v)
    }

    /// A source of `comps` components of `bits` bits: a visible value (swizzled when
    /// needed and allowed) or a new constant.
    fn src(&mut self, bits: u8, comps: u8) -> Src {
        let class = bit_class(bits);
        let ty = Type::new(bits, comps).expect("legal source type");
        if self.visible[class].is_empty() || self.rng.chance(1, 12) {
            return self.constant(ty).into();
        }
        let v = *self.rng.pick(&self.visible[class]);
        let vc = self.ty(v).num_components();
        if vc == comps && (!self.cfg.swizzles || self.rng.chance(2, 3)) {
            return Src::new(v);
        }
        if self.cfg.swizzles {
            let sel: Vec<u8> = (0..comps)
                .map(|_| self.rng.below(vc as usize) as u8)
                .collect();
            return Src {
                value: v,
                swizzle: Swizzle::new(&sel).expect("at most 16 components"),
            };
        }
        // Without swizzles only a value of exactly this shape will do.
        let exact: Vec<Value> = self.visible[class]
            .iter()
            .copied()
            .filter(|&w| self.ty(w).num_components() == comps)
            .collect();
        if exact.is_empty() {
            self.constant(ty).into()
        } else {
            Src::new(*self.rng.pick(&exact))
        }
    }

    fn alu(&mut self) {
        let op = *self.rng.pick(&self.cfg.alu_ops);
        let info = op.info();
        let nin = info.num_inputs as usize;
        let n = if info.output_size != 0 {
            info.output_size
        } else {
            self.comps()
        };
        // The bit size shared by the unsized operands.
        let float = info.input_types[..nin]
            .iter()
            .chain(std::iter::once(&info.output_type))
            .any(|t| !t.is_sized() && t.base == BaseType::Float);
        let shared = if float {
            *self.rng.pick(&[16u8, 32, 32, 64])
        } else if op == AluOp::UfindMsb {
            // NIR only defines ufind_msb on 32- and 64-bit sources.
            *self.rng.pick(&[32u8, 64])
        } else {
            *self.rng.pick(&[8u8, 16, 32, 32, 64])
        };
        let mut srcs = Vec::with_capacity(nin);
        for i in 0..nin {
            let t = info.input_types[i];
            let bits = if t.is_sized() { t.bits } else { shared };
            let comps = if info.input_sizes[i] != 0 {
                info.input_sizes[i]
            } else {
                n
            };
            srcs.push(self.src(bits, comps));
        }
        let out_bits = if info.output_type.is_sized() {
            info.output_type.bits
        } else {
            shared
        };
        let ty = Type::new(out_bits, n).expect("legal ALU result");
        // A quarter of the instructions carry NIR's `exact` flag, taken from the number
        // of values so far rather than from the random stream, which stays as it was.
        self.b.exact = self.b.func.num_value_ids().is_multiple_of(4);
        let v = self.b.alu_typed(op, &srcs, ty);
        self.b.exact = false;
        self.define(v);
    }

    fn image_ref(&mut self, idx: usize) -> ImageRef {
        let decl = &self.images[idx];
        let index = decl.count.map(|_| self.src(32, 1));
        ImageRef {
            image: ImageId::from_u32(idx as u32),
            index,
        }
    }

    fn image_intrinsic(&mut self) {
        let with_format: Vec<usize> = (0..self.images.len())
            .filter(|&i| self.images[i].format != Format::None)
            .collect();
        let Some(&idx) = (!with_format.is_empty()).then(|| self.rng.pick(&with_format)) else {
            return;
        };
        let decl = self.images[idx].clone();
        let readable = !decl.access.contains(Access::NON_READABLE);
        let writable = !decl.access.contains(Access::NON_WRITEABLE);
        let base = decl.format.data_base_type().unwrap_or(BaseType::Uint);
        let bits = decl.format.data_bit_size();
        let data_type = AluType::new(base, bits);
        let atomic_ops = atomic_ops(decl.format);
        let mut ops = vec![
            IntrinsicOp::ImageSize,
            IntrinsicOp::ImageSamples,
            IntrinsicOp::ImageLoadParam,
        ];
        if readable {
            ops.extend([IntrinsicOp::ImageLoad, IntrinsicOp::ImageLoad]);
        }
        if writable {
            ops.extend([IntrinsicOp::ImageStore, IntrinsicOp::ImageStore]);
        }
        if writable && readable && !atomic_ops.is_empty() {
            ops.extend([IntrinsicOp::ImageAtomic, IntrinsicOp::ImageAtomicSwap]);
        }
        let op = *self.rng.pick(&ops);
        let image = self.image_ref(idx);
        let coord_comps = decl.coord_components();
        match op {
            IntrinsicOp::ImageLoad => {
                let coord = self.src(32, coord_comps);
                let comps = *self.rng.pick(&[4u8, 4, 4, 1, 2, 3]);
                // Some loads pass NIR's optional `lod` source (multisampled images
                // have one level and take none).
                let v = if decl.dim != ImageDim::Ms && self.rng.below(4) == 0 {
                    let lod = self.src(32, 1);
                    self.b
                        .image_load_lod(&decl, image, coord, lod, comps, data_type)
                } else {
                    self.b.image_load(&decl, image, coord, comps, data_type)
                };
                self.define(v);
            }
            IntrinsicOp::ImageStore => {
                let coord = self.src(32, coord_comps);
                let data = self.src(bits, 4);
                self.b.image_store(&decl, image, coord, data, data_type);
                self.budget = self.budget.saturating_sub(1);
            }
            IntrinsicOp::ImageAtomic => {
                let aop = *self.rng.pick(&atomic_ops);
                let coord = self.src(32, coord_comps);
                let data = self.src(bits, 1);
                let v = self.b.image_atomic(&decl, image, aop, coord, data);
                self.define(v);
            }
            IntrinsicOp::ImageAtomicSwap => {
                let aop = if base == BaseType::Float {
                    AtomicOp::Fcmpxchg
                } else {
                    AtomicOp::Cmpxchg
                };
                let coord = self.src(32, coord_comps);
                let compare = self.src(bits, 1);
                let data = self.src(bits, 1);
                let v = self
                    .b
                    .image_atomic_swap(&decl, image, aop, coord, compare, data);
                self.define(v);
            }
            IntrinsicOp::ImageSize => {
                let v = self.b.image_size(&decl, image);
                self.define(v);
            }
            IntrinsicOp::ImageSamples => {
                let [dim, arrayed, _, _] = image_indices(&decl);
                let v = self
                    .b
                    .intrinsic(op, Some(image), &[], &[dim, arrayed, 0], Some(Type::U32))
                    .expect("image_samples has a result");
                self.define(v);
            }
            _ => {
                // The parameter block's five fields (docs/hardware/mesa-storage-images.md §7): OFFSET,
                // SIZE, STRIDE, TILING, SWIZZLING with 2, 3, 4, 3, 2 dwords.
                let slot = self.rng.below(5);
                let comps = [2u8, 3, 4, 3, 2][slot];
                let v = self.b.image_load_param(image, slot as u32, comps);
                self.define(v);
            }
        }
        // An array element chosen by an arbitrary value, which may differ between
        // lanes: the access is `non_uniform`.
        if let (Some(_), ir::function::Cursor::After(inst)) = (image.index, self.b.cursor) {
            if let InstKind::Intrinsic(x) = &mut self.b.func.inst_mut(inst).kind {
                let a = x.index(IndexKind::Access).unwrap_or(0);
                x.set_index(IndexKind::Access, a | Access::NON_UNIFORM.bits());
            }
        }
    }

    fn message(&mut self) {
        let idx = |k: IndexKind, s: &str| k.parse_value(s).expect("valid index spelling");
        const CACHES: [&str; 4] = ["uc.uc", "uc.wb", "ca.ca", "st.st"];
        let cache_name = if self.rng.chance(1, 3) {
            CACHES[self.rng.below(CACHES.len())]
        } else {
            "df.df"
        };
        let cache = CacheControl::parse(cache_name).expect("valid cache spelling");
        let offset = if self.rng.chance(1, 3) {
            4 * (self.rng.below(64) as i32 - 32)
        } else {
            0
        };
        let predicate = self.rng.chance(1, 3);
        let flat = |shape: DataShape| {
            LscDesc::new(Sfid::Ugm, AddrType::Flat, AddrSize::A64, shape)
                .with_cache(cache)
                .with_offset(offset)
        };
        let with_image: Vec<usize> = (0..self.images.len()).collect();
        // The sampler reads its image, which a writeonly image forbids.
        let readable: Vec<usize> = with_image
            .iter()
            .copied()
            .filter(|&i| !self.images[i].access.contains(Access::NON_READABLE))
            .collect();
        let mut choice = self.rng.below(if with_image.is_empty() { 3 } else { 6 });
        if choice == 5 && readable.is_empty() {
            choice = 3;
        }
        let mut srcs: Vec<Src> = Vec::new();
        let (op, image, indices, dest) = match choice {
            0 | 1 => {
                // Untyped flat load or store of 1 to 4 dwords, or one qword.
                let (size, vect) = *self.rng.pick(&[
                    (DataSize::D32, 1u8),
                    (DataSize::D32, 2),
                    (DataSize::D32, 4),
                    (DataSize::D64, 1),
                ]);
                let shape = DataShape::vector(size, vect, false);
                srcs.push(self.src(64, 1));
                let ty = Type::new(size.reg_bits(), vect).expect("legal data type");
                let indices = flat(shape).indices().to_vec();
                if choice == 0 {
                    (IntrinsicOp::LscLoad, None, indices, Some(ty))
                } else {
                    srcs.push(self.src(ty.bit_size(), ty.num_components()));
                    (IntrinsicOp::LscStore, None, indices, None)
                }
            }
            2 => {
                // Untyped flat atomic on a dword.
                let aop = *self.rng.pick(&[
                    LscAtomicOp::Iinc,
                    LscAtomicOp::Iadd,
                    LscAtomicOp::Umax,
                    LscAtomicOp::Icas,
                    LscAtomicOp::And,
                ]);
                srcs.push(self.src(64, 1));
                for _ in 0..aop.num_data_operands() {
                    srcs.push(self.src(32, 1));
                }
                let shape = DataShape::vector(DataSize::D32, 1, false);
                let indices = flat(shape).with_atomic(aop).indices().to_vec();
                (IntrinsicOp::LscAtomic, None, indices, Some(Type::U32))
            }
            3 | 4 => {
                // Typed quad load or store through the binding table, coordinates U, V,
                // R, LOD.
                let img = *self.rng.pick(&with_image);
                let image = self.image_ref(img);
                let cmask = 1 + self.rng.below(15) as u8;
                let shape = DataShape::quad(DataSize::D32, cmask);
                for _ in 0..4 {
                    srcs.push(self.src(32, 1));
                }
                let indices = LscDesc::typed(shape).with_cache(cache).indices().to_vec();
                let ty = Type::new(32, cmask.count_ones() as u8).expect("1 to 4 channels");
                if choice == 3 {
                    (IntrinsicOp::LscLoadQuad, Some(image), indices, Some(ty))
                } else {
                    srcs.push(self.src(32, ty.num_components()));
                    (IntrinsicOp::LscStoreQuad, Some(image), indices, None)
                }
            }
            _ => {
                // Sampler ld_lz of all four channels.
                let img = *self.rng.pick(&readable);
                let image = self.image_ref(img);
                for _ in 0..3 {
                    srcs.push(self.src(32, 1));
                }
                let ty = *self.rng.pick(&["float32", "uint32", "int32"]);
                let indices = vec![
                    idx(IndexKind::Channels, "rgba"),
                    idx(IndexKind::DestType, ty),
                ];
                (
                    IntrinsicOp::SamplerLdLz,
                    Some(image),
                    indices,
                    Some(Type::new(32, 4).expect("vec4")),
                )
            }
        };
        if predicate {
            srcs.push(self.src(1, 1));
        }
        let v = self.b.intrinsic(op, image, &srcs, &indices, dest);
        match v {
            Some(v) => {
                self.define(v);
            }
            None => self.budget = self.budget.saturating_sub(1),
        }
    }

    /// Up to two merge-point phis at the cursor (the top of a merge block), each typed
    /// after a value visible before the construct.
    fn merge_phis(&mut self) {
        if !self.cfg.phis {
            return;
        }
        // Sources come from values visible before the construct, never from the phis
        // added here (they live in the merge block, which dominates no predecessor).
        let before = self.scope();
        for _ in 0..self.rng.below(3) {
            let nonempty: Vec<usize> = (0..5).filter(|&c| before[c] > 0).collect();
            if nonempty.is_empty() {
                return;
            }
            let class = *self.rng.pick(&nonempty);
            let pool = &self.visible[class][..before[class]];
            let seed = pool[self.rng.below(pool.len())];
            let ty = self.ty(seed);
            let candidates: Vec<Value> = pool
                .iter()
                .rev()
                .copied()
                .filter(|&v| self.ty(v) == ty)
                .take(8)
                .collect();
            let v = self.b.phi(ty, &[]);
            let inst = self.b.func.value_def(v).expect("phi has a def");
            self.phis.push(PendingPhi::Merge { inst, candidates });
            self.define(v);
        }
    }

    fn if_node(&mut self, depth: u32, in_loop: bool) {
        let cond = self.src(1, 1);
        let id = self.b.push_if(cond);
        let scope = self.scope();
        let then_jumped = self.list(depth + 1, in_loop, true);
        self.restore(scope);
        self.b.push_else(id);
        // At most one branch may jump away, so that the block after the `if` stays
        // reachable.
        self.list(depth + 1, in_loop, !then_jumped);
        self.restore(scope);
        self.b.pop_if(id);
        self.merge_phis();
    }

    fn loop_node(&mut self, depth: u32) {
        let zero = self.b.imm_u32(0);
        let limit = self.b.imm_u32(self.cfg.loop_trip_limit);
        let one = self.b.imm_u32(1);
        for v in [zero, limit, one] {
            self.define(v);
        }
        let preheader = self.b.current_block();
        let id = self.b.push_loop();
        let scope = self.scope();
        // The header counts iterations and leaves after `loop_trip_limit` of them; the
        // increment sits in the block after that test, which dominates every back edge.
        let i = self.b.phi(Type::U32, &[]);
        let phi_inst = self.b.func.value_def(i).expect("phi has a def");
        self.define(i);
        let done = self.b.uge(i, limit);
        self.define(done);
        let exit = self.b.push_if(done);
        self.b.jump(Jump::Break);
        self.b.push_else(exit);
        self.b.pop_if(exit);
        let next = self.b.iadd(i, one);
        self.define(next);
        self.phis.push(PendingPhi::Counter {
            inst: phi_inst,
            preheader,
            entry: zero,
            next,
        });
        self.list(depth + 1, true, true);
        self.restore(scope);
        self.b.pop_loop(id);
        self.merge_phis();
    }
}

/// The atomic ops an image of `format` supports: the integer ops on single-channel
/// 32/64-bit integer formats (signed or unsigned min/max after the format), exchange and
/// the float ops on `r32_float`; none otherwise.
fn atomic_ops(format: Format) -> Vec<AtomicOp> {
    use AtomicOp as A;
    let common = [A::Iadd, A::Iand, A::Ior, A::Ixor, A::Xchg];
    match format {
        Format::R32Uint | Format::R64Uint => {
            let mut v = common.to_vec();
            v.extend([A::Umin, A::Umax, A::IncWrap, A::DecWrap]);
            v
        }
        Format::R32Sint | Format::R64Sint => {
            let mut v = common.to_vec();
            v.extend([A::Imin, A::Imax]);
            v
        }
        Format::R32Float => vec![A::Xchg, A::Fadd, A::Fmin, A::Fmax],
        _ => Vec::new(),
    }
}

/// Gives every pending phi one source per predecessor, now that the control flow is
/// final.
fn fill_phis(func: &mut Function, rng: &mut Rng, phis: Vec<PendingPhi>) {
    let preds = func.predecessors();
    for p in phis {
        let inst = match &p {
            PendingPhi::Merge { inst, .. } | PendingPhi::Counter { inst, .. } => *inst,
        };
        let Some(block) = func.inst_block(inst) else {
            continue;
        };
        let ty = func
            .inst(inst)
            .dest
            .map(|v| func.value_type(v))
            .unwrap_or(Type::U32);
        let mut srcs = smallvec::SmallVec::new();
        for &pred in preds.get(&block).map(|v| v.as_slice()).unwrap_or(&[]) {
            let value = match &p {
                PendingPhi::Counter {
                    preheader,
                    entry,
                    next,
                    ..
                } => {
                    if pred == *preheader {
                        *entry
                    } else {
                        *next
                    }
                }
                PendingPhi::Merge { candidates, .. } => {
                    // Values defined in the predecessor itself dominate its end too.
                    let mut pool = candidates.clone();
                    pool.extend(
                        func.block_insts(pred)
                            .filter_map(|i| func.inst(i).dest)
                            .filter(|&v| func.value_type(v) == ty)
                            .take(8),
                    );
                    *rng.pick(&pool)
                }
            };
            srcs.push((pred, Src::new(value)));
        }
        func.inst_mut(inst).kind = InstKind::Phi(Phi { srcs });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::CfNode;

    #[test]
    fn generation_is_deterministic_and_varied() {
        let cfg = GenConfig::default();
        let a = generate(7, &cfg);
        assert_eq!(a, generate(7, &cfg));
        let texts: std::collections::HashSet<String> =
            (0..20).map(|s| generate(s, &cfg).to_string()).collect();
        assert!(texts.len() > 15);
        // Subgroup reductions and scans are among the system values.
        let with = |word: &str| (0..200).any(|s| generate(s, &cfg).to_string().contains(word));
        for word in ["@reduce", "@inclusive_scan", "@exclusive_scan"] {
            assert!(with(word), "no {word} in 200 shaders");
        }
    }

    #[test]
    fn generated_shaders_validate() {
        let configs = [
            GenConfig::default(),
            GenConfig::straight_line(),
            GenConfig::alu_only(),
            GenConfig {
                max_depth: 5,
                max_insts: 150,
                swizzles: false,
                ..GenConfig::default()
            },
            GenConfig {
                buffers: true,
                ..GenConfig::default()
            },
        ];
        for (i, cfg) in configs.iter().enumerate() {
            for seed in 0..100 {
                let s = generate(seed, cfg);
                if let Err(d) = ir::validate(&s) {
                    let text = s.to_string();
                    panic!(
                        "config {i}, seed {seed}:\n{}\n{text}",
                        ir::diag::render_all(&d, "generated", &text)
                    );
                }
            }
        }
    }

    #[test]
    fn buffers_and_their_sizes_are_generated() {
        let cfg = GenConfig {
            buffers: true,
            ..GenConfig::default()
        };
        let (mut decls, mut runtime, mut arrays, mut sizes) = (0, 0, 0, 0);
        for seed in 0..200 {
            let s = generate(seed, &cfg);
            decls += s.buffers.len();
            runtime += s.buffers.iter().filter(|d| d.stride.is_some()).count();
            arrays += s.buffers.iter().filter(|d| d.count.is_some()).count();
            sizes += s.to_string().matches("@get_ssbo_size").count();
        }
        assert!(
            decls > 100 && runtime > 30 && arrays > 20 && sizes > 20,
            "{decls} {runtime} {arrays} {sizes}"
        );
        assert!(generate(3, &GenConfig::default()).buffers.is_empty());
    }

    #[test]
    fn straight_line_has_no_control_flow() {
        for seed in 0..50 {
            let s = generate(seed, &GenConfig::straight_line());
            for f in &s.functions {
                assert!(f.body().iter().all(|n| matches!(n, CfNode::Block(_))));
                assert_eq!(f.body().len(), 1);
            }
        }
    }

    #[test]
    fn phis_have_one_source_per_predecessor() {
        let mut seen_phi = false;
        for seed in 0..200 {
            let s = generate(seed, &GenConfig::default());
            for f in &s.functions {
                let preds = f.predecessors();
                for b in f.blocks_in_order() {
                    for i in f.block_insts(b) {
                        if let InstKind::Phi(p) = &f.inst(i).kind {
                            seen_phi = true;
                            let mut got: Vec<Block> = p.srcs.iter().map(|s| s.0).collect();
                            let mut want: Vec<Block> = preds[&b].to_vec();
                            got.sort();
                            want.sort();
                            assert_eq!(got, want, "seed {seed}\n{s}");
                        }
                    }
                }
            }
        }
        assert!(seen_phi);
    }
}
