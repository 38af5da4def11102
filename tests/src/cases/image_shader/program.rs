//! A case and its program, as data: images, statements, accesses, the values they
//! store, and what a case is made of and may contain.

use crate::cases::coords::{CoordBase, CoordTerm, Grid};
use crate::cases::surface::{DimKind, ImageSetup};
use ir::{Access, AluType, AtomicOp, BaseType, Format, ImageDecl, StaticLayout};
use lowering::{Device, LowerOptions};

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

/// Which element of an image array an access names (`@img[%i]`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Element {
    /// No index: the image is not an array.
    Whole,
    /// A constant element.
    Const(u32),
    /// `workgroup_id.x mod count`: the same on every lane of a subgroup (dynamically
    /// uniform), so the access needs no `non_uniform`.
    Workgroup,
    /// `(linear >> shift) mod count`: lane-varying, which only a `non_uniform` access
    /// may use.
    Lane {
        /// Lanes sharing an element come in runs of `1 << shift`.
        shift: u8,
    },
}

/// One image access.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AccessSpec {
    /// A stable id (values refer to it).
    pub id: u32,
    /// Index of the image in [`Case::images`].
    pub image: usize,
    /// The array element it names.
    pub element: Element,
    /// Whether the access is qualified `non_uniform` (always with [`Element::Lane`],
    /// sometimes with a uniform element, which the lowering's loop then serves in one
    /// iteration).
    pub non_uniform: bool,
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
    /// Surface, view and contents (of element 0 of an array).
    pub setup: ImageSetup,
    /// Elements 1 and up of an image array (`image @img[n]`), with the dimension and
    /// format of element 0 and surfaces of their own (the same layout when the
    /// declaration carries a static one); empty for an image that is not an array.
    pub others: Vec<ImageSetup>,
}

impl ImageCase {
    /// The declaration, at binding-table index `binding` (element `k` of an array at
    /// `binding + k`).
    pub fn decl(&self, binding: u32) -> ImageDecl {
        ImageDecl {
            name: self.name.clone(),
            dim: self.dim.ir_dim(),
            arrayed: self.dim.arrayed(),
            format: self.decl_format,
            access: self.access,
            binding,
            count: (!self.others.is_empty()).then(|| self.count()),
            layout: self.static_layout,
        }
    }

    /// The array elements (1 for an image that is not an array).
    pub fn count(&self) -> u32 {
        1 + self.others.len() as u32
    }

    /// The setups of every element, element 0 first.
    pub fn elements(&self) -> impl Iterator<Item = &ImageSetup> {
        std::iter::once(&self.setup).chain(&self.others)
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
    /// The images, bound one after the other ([`Case::decls`]).
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
    /// Draw only what the drawn device and options lower: format-less images only
    /// where typed messages read and write them, atomic operations the platform has
    /// (float atomics, 64-bit ones), so that no case is refused before the stages a
    /// suite tests after the lowering (the vISA leg); the lowering's documented
    /// refusals are `lowering_properties`' business. The shares of unlowerable
    /// formats and unmapped atomics still apply.
    pub supported_only: bool,
    /// Percentage of images that are arrays of two or three (`image @img[n]`), whose
    /// accesses index them with constants, workgroup-uniform values or, `non_uniform`,
    /// lane-varying ones.
    pub array_share: usize,
    /// The platform presets a case is drawn from, uniformly (empty: all of
    /// `Device::PRESET_NAMES`).
    pub platforms: Vec<&'static str>,
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
            array_share: 25,
            supported_only: false,
            platforms: Vec::new(),
        }
    }
}

impl Case {
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

    /// The image declarations, bound one after the other (an array takes one
    /// binding-table index per element).
    pub fn decls(&self) -> Vec<ImageDecl> {
        let mut binding = 0;
        self.images
            .iter()
            .map(|img| {
                let d = img.decl(binding);
                binding += img.count();
                d
            })
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
}
