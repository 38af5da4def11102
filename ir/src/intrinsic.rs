//! Intrinsic opcodes, their signatures and their constant indices, after NIR's
//! `nir_intrinsics.py`.
//!
//! An intrinsic has an optional image operand, a list of sources, an optional destination
//! and a list of constant indices (NIR's `const_index[]`). The indices an intrinsic
//! carries, and their order, come from its [`IntrinsicInfo`]. Index values are stored as
//! `u32` and decoded through [`IndexKind`].

use crate::atomic::AtomicOp;
use crate::dataport::{self, DpDesc, DpField, DpMsg};
use crate::image::{Access, Format, ImageDim};
use crate::lsc::{
    channel_mask_letters, parse_channel_mask, AddrSize, AddrType, BlockShape, CacheControl,
    DataShape, LscAtomicOp, LscDesc, LscField, Sfid,
};
use crate::sampler::TexelOffset;
use crate::subgroup::{GroupOperation, ReductionOp, ShuffleKind};
use crate::types::AluType;
use std::fmt;

spelled_enum! {
    /// The kind of a constant index: its name in the text syntax and how its value is
    /// encoded.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum IndexKind {
        /// Every index kind.
        const ALL;
        /// The name in the text syntax (`image_dim=2d`).
        fn name;
        /// The kind called `name`.
        fn from_name;

        /// [`ImageDim`] of an image access.
        ImageDim => "image_dim",
        /// Whether the image is arrayed (`true`/`false`).
        ImageArray => "image_array",
        /// The image [`Format`].
        Format => "format",
        /// [`Access`] qualifiers.
        Access => "access",
        /// Type of the loaded data ([`AluType`]).
        DestType => "dest_type",
        /// Type of the stored data ([`AluType`]).
        SrcType => "src_type",
        /// NIR [`AtomicOp`].
        AtomicOp => "atomic_op",
        /// A base offset or parameter slot (signed).
        Base => "base",
        /// A range in bytes.
        Range => "range",
        /// Alignment multiplier in bytes.
        AlignMul => "align_mul",
        /// LSC shared function ([`Sfid`]).
        LscSfid => "lsc_sfid",
        /// LSC address model ([`AddrType`]).
        LscAddr => "lsc_addr",
        /// LSC address size ([`AddrSize`]).
        LscAddrSize => "lsc_addr_size",
        /// LSC data shape ([`DataShape`]).
        LscData => "lsc_data",
        /// LSC cache controls ([`CacheControl`]).
        LscCache => "lsc_cache",
        /// LSC atomic sub-op ([`LscAtomicOp`]).
        LscOp => "lsc_op",
        /// LSC immediate address offset in bytes (signed).
        LscOffset => "lsc_offset",
        /// Sampler return channels, a mask with R in bit 0 (`rgba`, `r`, ...).
        Channels => "channels",
        /// The shape of a 2D block message ([`BlockShape`]: `2x16x32nn`, typed `8x8`).
        LscBlock => "lsc_block",
        /// The shape of an image block access in texels and rows ([`BlockShape`], `WxH`).
        Block => "block",
        /// Data-port address model ([`dataport::DpAddr`]: `bti`, `slm`, `a64`).
        DpAddr => "dp_addr",
        /// Data-port channel mask (`xyzw`, `xz`, ...).
        DpCmask => "dp_cmask",
        /// Data-port atomic operation ([`dataport::DpAtomicOp`]).
        DpOp => "dp_op",
        /// Bits of a data-port atomic's memory operand (16, 32, 64).
        DpBits => "dp_bits",
        /// Bytes per lane of a byte scattered message (1, 2, 4, 8).
        DpBytes => "dp_bytes",
        /// The sampler index a texture is filtered with (NIR's `sampler_index`): a
        /// binding of a `sampler` declaration.
        Sampler => "sampler",
        /// The memory a barrier orders ([`MemModes`], NIR's `memory_modes`).
        MemModes => "mem_modes",
        /// The operation of a subgroup reduction or scan ([`ReductionOp`], NIR's
        /// `reduction_op`).
        ReductionOp => "reduction_op",
        /// A constant texel offset of a texture lookup ([`TexelOffset`], NIR's
        /// `nir_tex_src_offset` when constant; the sampler's `aoffimmi`): `1x-1x0`.
        TexelOffset => "texel_offset",
        /// The channel a gather reads (NIR's `nir_tex_instr::component`): 0 to 3.
        Component => "component",
        /// The lanes a `reduce` combines (NIR's `cluster_size`): aligned clusters of
        /// this many lanes, a power of two up to 32; 0 (the default) for the whole
        /// subgroup.
        ClusterSize => "cluster_size",
    }
}

impl From<DpField> for IndexKind {
    /// The index that holds a data-port field.
    fn from(f: DpField) -> IndexKind {
        match f {
            DpField::Addr => IndexKind::DpAddr,
            DpField::Cmask => IndexKind::DpCmask,
            DpField::Op => IndexKind::DpOp,
            DpField::Bits => IndexKind::DpBits,
            DpField::Bytes => IndexKind::DpBytes,
        }
    }
}

impl IndexKind {
    /// The data-port field this index holds, if it is one.
    pub fn dp_field(self) -> Option<DpField> {
        Some(match self {
            IndexKind::DpAddr => DpField::Addr,
            IndexKind::DpCmask => DpField::Cmask,
            IndexKind::DpOp => DpField::Op,
            IndexKind::DpBits => DpField::Bits,
            IndexKind::DpBytes => DpField::Bytes,
            _ => return None,
        })
    }
}

impl From<LscField> for IndexKind {
    /// The index kind of a message descriptor field.
    fn from(f: LscField) -> IndexKind {
        match f {
            LscField::Sfid => IndexKind::LscSfid,
            LscField::AddrType => IndexKind::LscAddr,
            LscField::AddrSize => IndexKind::LscAddrSize,
            LscField::Data => IndexKind::LscData,
            LscField::Cache => IndexKind::LscCache,
            LscField::Offset => IndexKind::LscOffset,
            LscField::AtomicOp => IndexKind::LscOp,
            LscField::Block => IndexKind::LscBlock,
        }
    }
}

impl IndexKind {
    /// Formats an encoded value; `None` if the value does not decode.
    pub fn format_value(self, v: u32) -> Option<String> {
        let mut text = String::new();
        self.write_value(v, &mut text)?;
        Some(text)
    }

    /// Whether `v` decodes as a value of this kind (what [`IndexKind::format_value`]
    /// accepts, without building the text: the validator asks it of every index).
    pub fn decodes(self, v: u32) -> bool {
        /// A writer that keeps nothing.
        struct Discard;
        impl fmt::Write for Discard {
            fn write_str(&mut self, _: &str) -> fmt::Result {
                Ok(())
            }
        }
        self.write_value(v, &mut Discard).is_some()
    }

    /// Writes an encoded value's text to `out`; `None` if the value does not decode.
    fn write_value(self, v: u32, out: &mut dyn fmt::Write) -> Option<()> {
        let r = match self {
            IndexKind::ImageDim => out.write_str(ImageDim::from_index(v)?.name()),
            IndexKind::ImageArray => out.write_str(match v {
                0 => "false",
                1 => "true",
                _ => return None,
            }),
            IndexKind::Format => out.write_str(Format::from_index(v)?.name()),
            IndexKind::Access => write!(out, "{}", Access::from_bits(v)?),
            IndexKind::DestType | IndexKind::SrcType => write!(out, "{}", AluType::from_index(v)?),
            IndexKind::AtomicOp => out.write_str(AtomicOp::from_index(v)?.name()),
            IndexKind::Base | IndexKind::LscOffset => write!(out, "{}", v as i32),
            IndexKind::Range | IndexKind::AlignMul | IndexKind::Sampler => write!(out, "{v}"),
            IndexKind::LscSfid => out.write_str(Sfid::from_index(v)?.name()),
            IndexKind::LscAddr => out.write_str(AddrType::from_index(v)?.name()),
            IndexKind::LscAddrSize => out.write_str(AddrSize::from_index(v)?.name()),
            IndexKind::LscData => write!(out, "{}", DataShape::from_index(v)?),
            IndexKind::LscCache => write!(out, "{}", CacheControl::from_index(v)?),
            IndexKind::LscOp => out.write_str(LscAtomicOp::from_opcode(v)?.name()),
            IndexKind::LscBlock => write!(out, "{}", BlockShape::from_index(v)?),
            IndexKind::Block => {
                let shape = BlockShape::from_index(v)?;
                if shape.is_untyped() {
                    return None;
                }
                write!(out, "{shape}")
            }
            IndexKind::Channels => {
                if v == 0 || v > 0xf {
                    return None;
                }
                out.write_str(&channel_mask_letters(v, "rgba"))
            }
            IndexKind::DpAddr
            | IndexKind::DpCmask
            | IndexKind::DpOp
            | IndexKind::DpBits
            | IndexKind::DpBytes => out.write_str(&dataport::format_field(self.dp_field()?, v)?),
            IndexKind::MemModes => write!(out, "{}", MemModes::from_bits(v)?),
            IndexKind::ReductionOp => out.write_str(ReductionOp::from_index(v)?.name()),
            IndexKind::TexelOffset => write!(out, "{}", TexelOffset::from_index(v)?),
            IndexKind::Component => match v {
                0..=3 => write!(out, "{v}"),
                _ => return None,
            },
            IndexKind::ClusterSize if v == 0 || cluster_size_is_valid(v) => write!(out, "{v}"),
            IndexKind::ClusterSize => return None,
        };
        r.ok()
    }

    /// Parses a value in the text syntax into its encoding.
    pub fn parse_value(self, s: &str) -> Option<u32> {
        Some(match self {
            IndexKind::ImageDim => ImageDim::from_name(s)?.to_index(),
            IndexKind::ImageArray => match s {
                "false" => 0,
                "true" => 1,
                _ => return None,
            },
            IndexKind::Format => Format::from_name(s)?.to_index(),
            IndexKind::Access => {
                if s == "none" {
                    0
                } else {
                    let mut a = Access::NONE;
                    for part in s.split('|') {
                        a |= Access::from_name(part)?;
                    }
                    a.bits()
                }
            }
            IndexKind::DestType | IndexKind::SrcType => AluType::parse(s)?.to_index(),
            IndexKind::AtomicOp => AtomicOp::from_name(s)?.to_index(),
            IndexKind::Base | IndexKind::LscOffset => s.parse::<i32>().ok()? as u32,
            IndexKind::Range | IndexKind::AlignMul | IndexKind::Sampler => s.parse::<u32>().ok()?,
            IndexKind::LscSfid => Sfid::from_name(s)?.to_index(),
            IndexKind::LscAddr => AddrType::from_name(s)?.to_index(),
            IndexKind::LscAddrSize => AddrSize::from_name(s)?.to_index(),
            IndexKind::LscData => DataShape::parse(s)?.to_index(),
            IndexKind::LscCache => CacheControl::parse(s)?.to_index(),
            IndexKind::LscOp => LscAtomicOp::from_name(s)?.opcode(),
            IndexKind::LscBlock => BlockShape::parse(s)?.to_index()?,
            IndexKind::Block => {
                let shape = BlockShape::parse(s)?;
                if shape.is_untyped() {
                    return None;
                }
                shape.to_index()?
            }
            IndexKind::Channels => parse_channel_mask(s, "rgba")?,
            IndexKind::DpAddr
            | IndexKind::DpCmask
            | IndexKind::DpOp
            | IndexKind::DpBits
            | IndexKind::DpBytes => dataport::parse_field(self.dp_field()?, s)?,
            IndexKind::MemModes => MemModes::parse(s)?.0,
            IndexKind::ReductionOp => ReductionOp::from_name(s)?.to_index(),
            IndexKind::TexelOffset => TexelOffset::parse(s)?.to_index(),
            IndexKind::Component => match s.parse::<u32>().ok()? {
                v @ 0..=3 => v,
                _ => return None,
            },
            IndexKind::ClusterSize => match s.parse::<u32>().ok()? {
                v if v == 0 || cluster_size_is_valid(v) => v,
                _ => return None,
            },
        })
    }
}

/// Whether `v` is a cluster of lanes a `reduce` may combine: a power of two no wider
/// than a subgroup's [`SLOTS`](crate::subgroup::SLOTS) (SPIR-V's `ClusterSize`).
fn cluster_size_is_valid(v: u32) -> bool {
    v.is_power_of_two() && v as usize <= crate::subgroup::SLOTS
}

/// The memory whose accesses a barrier orders, NIR's `memory_modes` of a
/// `scoped_barrier` (`nir_var_mem_shared`, `nir_var_mem_ssbo`, `nir_var_mem_global`,
/// `nir_var_image`), as `spirv_to_nir` derives them from the barrier's memory
/// semantics. Written `shared|ssbo`, `none` or `all`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemModes(pub u32);

impl MemModes {
    /// Workgroup-shared memory.
    pub const SHARED: MemModes = MemModes(1);
    /// Storage buffers.
    pub const SSBO: MemModes = MemModes(2);
    /// Global memory (physical pointers).
    pub const GLOBAL: MemModes = MemModes(4);
    /// Storage images.
    pub const IMAGE: MemModes = MemModes(8);
    /// No memory: an execution barrier only.
    pub const NONE: MemModes = MemModes(0);
    /// Every kind of memory.
    pub const ALL: MemModes = MemModes(15);

    const NAMES: [(&'static str, MemModes); 4] = [
        ("shared", MemModes::SHARED),
        ("ssbo", MemModes::SSBO),
        ("global", MemModes::GLOBAL),
        ("image", MemModes::IMAGE),
    ];

    /// The modes of an encoding, if it is one.
    pub fn from_bits(v: u32) -> Option<MemModes> {
        (v & !MemModes::ALL.0 == 0).then_some(MemModes(v))
    }

    /// Whether every mode of `other` is in `self`.
    pub fn contains(self, other: MemModes) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether `self` and `other` share a mode.
    pub fn intersects(self, other: MemModes) -> bool {
        self.0 & other.0 != 0
    }

    /// Parses `shared|ssbo`, `none` or `all`.
    pub fn parse(s: &str) -> Option<MemModes> {
        match s {
            "none" => return Some(MemModes::NONE),
            "all" => return Some(MemModes::ALL),
            _ => {}
        }
        let mut m = 0;
        for part in s.split('|') {
            m |= MemModes::NAMES.iter().find(|(n, _)| *n == part)?.1 .0;
        }
        Some(MemModes(m))
    }
}

impl std::ops::BitOr for MemModes {
    type Output = MemModes;
    fn bitor(self, o: MemModes) -> MemModes {
        MemModes(self.0 | o.0)
    }
}

impl fmt::Display for MemModes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MemModes::NONE => return f.write_str("none"),
            MemModes::ALL => return f.write_str("all"),
            _ => {}
        }
        let names: Vec<&str> = MemModes::NAMES
            .iter()
            .filter(|(_, m)| self.contains(*m))
            .map(|(n, _)| *n)
            .collect();
        f.write_str(&names.join("|"))
    }
}

/// What an intrinsic source holds: its name (for diagnostics) and shape.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SrcInfo {
    /// Name used in diagnostics (`coord`, `data`, `addr`).
    pub name: &'static str,
    /// Required component count, or 0 if it depends on the instruction.
    pub components: u8,
    /// Required bit size, or 0 if it depends on the instruction.
    pub bit_size: u8,
}

const fn src(name: &'static str, components: u8, bit_size: u8) -> SrcInfo {
    SrcInfo {
        name,
        components,
        bit_size,
    }
}

/// The destination of an intrinsic.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DestInfo {
    /// No destination.
    None,
    /// A destination of a fixed shape.
    Fixed {
        /// Components.
        components: u8,
        /// Bit size.
        bit_size: u8,
    },
    /// A destination whose shape depends on the instruction (checked by the validator).
    Variable,
}

/// Whether an intrinsic names an image.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ImageOperand {
    /// Never.
    None,
    /// Always.
    Required,
    /// LSC messages: when the address model is stateful (`bti`, `bss`, `ss`), the image
    /// supplies the surface; flat messages name none.
    Optional,
}

/// How an intrinsic is classified in statistics and by passes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum IntrinsicClass {
    /// A high-level image intrinsic (what the lowering rewrites).
    Image,
    /// A system value or uniform load.
    SystemValue,
    /// A buffer, global or shared memory access.
    Memory,
    /// An Intel message (LSC or sampler): the lowering's output.
    Message,
}

/// The signature of an intrinsic.
#[derive(Copy, Clone, Debug)]
pub struct IntrinsicInfo {
    /// NIR-style name (printed after `@`).
    pub name: &'static str,
    /// Whether the intrinsic names an image (`@img` as first operand).
    pub image: ImageOperand,
    /// Sources (for message intrinsics whose sources depend on the SFID or atomic op,
    /// see [`IntrinsicOp::srcs`]).
    pub srcs: &'static [SrcInfo],
    /// Trailing sources that may be left out, in order: an instance takes the sources
    /// of `srcs` followed by a prefix of these (NIR's `lod` of `image_load`, which
    /// means LOD 0 when absent). An intrinsic with optional sources is never
    /// [`predicable`](IntrinsicInfo::predicable): a trailing predicate could not be
    /// told apart from an optional source.
    pub optional_srcs: &'static [SrcInfo],
    /// Destination.
    pub dest: DestInfo,
    /// Constant indices, in order.
    pub indices: &'static [IndexKind],
    /// Class.
    pub class: IntrinsicClass,
    /// Whether the intrinsic may take a trailing 1-bit predicate source (`if %p`).
    pub predicable: bool,
    /// Whether an unused instance can be deleted (no side effects).
    pub can_eliminate: bool,
    /// Whether two instances with equal operands produce equal results anywhere in the
    /// program (no memory dependence), so CSE may merge them.
    pub can_reorder: bool,
}

use IndexKind as K;

const IMAGE_IDX: &[IndexKind] = &[K::ImageDim, K::ImageArray, K::Format, K::Access];
const LSC_IDX: &[IndexKind] = &[
    K::LscSfid,
    K::LscAddr,
    K::LscAddrSize,
    K::LscData,
    K::LscCache,
    K::LscOffset,
];
const DP_CMASK_IDX: &[IndexKind] = &[K::DpCmask];
const DP_TYPED_ATOMIC_IDX: &[IndexKind] = &[K::DpOp, K::DpBits];
const DP_UNTYPED_IDX: &[IndexKind] = &[K::DpAddr, K::DpCmask];
const DP_UNTYPED_ATOMIC_IDX: &[IndexKind] = &[K::DpAddr, K::DpOp, K::DpBits];
const DP_BYTE_IDX: &[IndexKind] = &[K::DpAddr, K::DpBytes];
const DP_DWORD_IDX: &[IndexKind] = &[K::DpAddr];
const LSC_ATOMIC_IDX: &[IndexKind] = &[
    K::LscSfid,
    K::LscAddr,
    K::LscAddrSize,
    K::LscData,
    K::LscCache,
    K::LscOffset,
    K::LscOp,
];

/// The optional sources of an intrinsic table entry: none unless given.
macro_rules! optional_srcs {
    () => {
        &[]
    };
    ($opt:expr) => {
        $opt
    };
}

macro_rules! intrinsics {
    ($( #[doc = $doc:literal] $variant:ident = $name:literal {
        image: $img:expr, srcs: $srcs:expr, $(optional: $opt:expr,)? dest: $dest:expr, indices: $idx:expr,
        class: $class:ident, predicable: $pred:expr, eliminate: $elim:expr, reorder: $reord:expr $(,)?
    } )*) => {
        /// An intrinsic opcode. Names, sources and semantics are NIR's where NIR has an
        /// intrinsic of that name (`image_load`, `load_ubo`, `barrier`, ...); the `lsc_*`
        /// and `sampler_*` intrinsics model the vISA messages of `docs/hardware/visa-spec.md`, and
        /// the `group_*` ones the OpenCL builtins of `cl_khr_extended_async_copies`.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum IntrinsicOp {
            $(
                #[doc = concat!("`", $name, "`:", $doc)]
                $variant,
            )*
        }

        impl IntrinsicOp {
            /// Every intrinsic, in declaration order.
            pub const ALL: &'static [IntrinsicOp] = &[$(IntrinsicOp::$variant,)*];

            /// The signature.
            pub fn info(self) -> &'static IntrinsicInfo {
                &INTRINSIC_INFO[self as usize]
            }
        }

        static INTRINSIC_INFO: &[IntrinsicInfo] = &[$(
            IntrinsicInfo {
                name: $name,
                image: $img,
                srcs: $srcs,
                optional_srcs: optional_srcs!($($opt)?),
                dest: $dest,
                indices: $idx,
                class: IntrinsicClass::$class,
                predicable: $pred,
                can_eliminate: $elim,
                can_reorder: $reord,
            },
        )*];
    };
}

const fn fixed(components: u8, bit_size: u8) -> DestInfo {
    DestInfo::Fixed {
        components,
        bit_size,
    }
}

intrinsics! {
    /// Reads the texel at `coord` (at mip level `lod`, 0 if absent), converted to `dest_type`.
    ImageLoad = "image_load" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32)], optional: &[src("lod", 1, 32)],
        dest: DestInfo::Variable,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::DestType],
        class: Image, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes `data`, converted from `src_type` to the format, to the texel at `coord`.
    ImageStore = "image_store" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32), src("data", 0, 0)], dest: DestInfo::None,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::SrcType],
        class: Image, predicable: false, eliminate: false, reorder: false,
    }
    /// Applies `atomic_op` with `data` to the texel at `coord`, returning the old texel.
    ImageAtomic = "image_atomic" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32), src("data", 1, 0)], dest: DestInfo::Variable,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::AtomicOp],
        class: Image, predicable: false, eliminate: false, reorder: false,
    }
    /// Compare-and-swap (`cmpxchg`) or exchange of the texel at `coord`, returning the old texel.
    ImageAtomicSwap = "image_atomic_swap" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32), src("compare", 1, 0), src("data", 1, 0)],
        dest: DestInfo::Variable,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::AtomicOp],
        class: Image, predicable: false, eliminate: false, reorder: false,
    }
    /// The size in texels of mip level `lod` of the image's view (0 if absent): width, height and depth minified, array layers (cubes) not; 0 in every component when `lod` is outside the view's levels.
    ImageSize = "image_size" {
        image: ImageOperand::Required, srcs: &[], optional: &[src("lod", 1, 32)], dest: DestInfo::Variable,
        indices: IMAGE_IDX, class: Image, predicable: false, eliminate: true, reorder: true,
    }
    /// The number of samples per texel of the bound image: 1 unless it is multisampled.
    ImageSamples = "image_samples" {
        image: ImageOperand::Required, srcs: &[], dest: fixed(1, 32), indices: &[K::ImageDim, K::ImageArray, K::Access],
        class: Image, predicable: false, eliminate: true, reorder: true,
    }
    /// The number of mip levels of the image's view (1 for storage views).
    ImageLevels = "image_levels" {
        image: ImageOperand::Required, srcs: &[], dest: fixed(1, 32), indices: IMAGE_IDX,
        class: Image, predicable: false, eliminate: true, reorder: true,
    }
    /// Reads dwords at slot `base` of the image's parameter block (Mesa's `image_deref_load_param_intel`).
    ImageLoadParam = "image_load_param" {
        image: ImageOperand::Required, srcs: &[], dest: DestInfo::Variable, indices: &[K::Base, K::Access],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The invocation's global ID, `workgroup_id * local_size + local_invocation_id`.
    LoadGlobalInvocationId = "load_global_invocation_id" {
        image: ImageOperand::None, srcs: &[], dest: fixed(3, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The invocation's ID within its workgroup.
    LoadLocalInvocationId = "load_local_invocation_id" {
        image: ImageOperand::None, srcs: &[], dest: fixed(3, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The ID of the invocation's workgroup.
    LoadWorkgroupId = "load_workgroup_id" {
        image: ImageOperand::None, srcs: &[], dest: fixed(3, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The number of workgroups dispatched in each dimension.
    LoadNumWorkgroups = "load_num_workgroups" {
        image: ImageOperand::None, srcs: &[], dest: fixed(3, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// Reads uniform buffer `block` at byte `offset`.
    LoadUbo = "load_ubo" {
        image: ImageOperand::None, srcs: &[src("block", 1, 32), src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::Access, K::AlignMul], class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// Reads push constants at byte `base + offset`.
    LoadPushConstant = "load_push_constant" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::Base, K::Range], class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// Reads the shader's constant data at byte `base + offset` (NIR's `load_constant`; `range` bytes from `base` may be read). A read past `base + range` is undefined in NIR; here it reads at `min(base + offset, size - bytes)` of the data's `size` (a 32-bit sum), as anv clamps it (`ir/SYNTAX.md`).
    LoadConstant = "load_constant" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::Base, K::Range], class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// Reads global memory at the 64-bit `address`.
    LoadGlobal = "load_global" {
        image: ImageOperand::None, srcs: &[src("address", 1, 64)], dest: DestInfo::Variable,
        indices: &[K::Access, K::AlignMul], class: Memory, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes `data` to global memory at the 64-bit `address`.
    StoreGlobal = "store_global" {
        image: ImageOperand::None, srcs: &[src("data", 0, 0), src("address", 1, 64)], dest: DestInfo::None,
        indices: &[K::Access, K::AlignMul], class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Applies `atomic_op` with `data` to the scalar at the 64-bit global `address`, returning the old value (a buffer device address's atomic).
    GlobalAtomic = "global_atomic" {
        image: ImageOperand::None, srcs: &[src("address", 1, 64), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Access, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Compare-and-swap (`cmpxchg`, `fcmpxchg`) of the scalar at the 64-bit global `address`, returning the old value.
    GlobalAtomicSwap = "global_atomic_swap" {
        image: ImageOperand::None,
        srcs: &[src("address", 1, 64), src("compare", 1, 0), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Access, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Reads storage buffer `block` at byte `offset`.
    LoadSsbo = "load_ssbo" {
        image: ImageOperand::None, srcs: &[src("block", 1, 32), src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::Access, K::AlignMul], class: Memory, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes `data` to storage buffer `block` at byte `offset`.
    StoreSsbo = "store_ssbo" {
        image: ImageOperand::None, srcs: &[src("data", 0, 0), src("block", 1, 32), src("offset", 1, 32)],
        dest: DestInfo::None, indices: &[K::Access, K::AlignMul],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Reads workgroup-shared memory at byte `base + offset`.
    LoadShared = "load_shared" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::Base, K::AlignMul], class: Memory, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes `data` to workgroup-shared memory at byte `base + offset`.
    StoreShared = "store_shared" {
        image: ImageOperand::None, srcs: &[src("data", 0, 0), src("offset", 1, 32)], dest: DestInfo::None,
        indices: &[K::Base, K::AlignMul], class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Reads the invocation's scratch memory at byte `offset` (NIR's `load_scratch`): 32-bit components at consecutive dwords, the offset a multiple of 4 below the shader's `scratch_size`.
    LoadScratch = "load_scratch" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::AlignMul], class: Memory, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes `data` (32-bit components) to the invocation's scratch memory at byte `offset` (NIR's `store_scratch`).
    StoreScratch = "store_scratch" {
        image: ImageOperand::None, srcs: &[src("data", 0, 0), src("offset", 1, 32)], dest: DestInfo::None,
        indices: &[K::AlignMul], class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Applies `atomic_op` with `data` to the scalar at byte `offset` of storage buffer `block`, returning the old value.
    SsboAtomic = "ssbo_atomic" {
        image: ImageOperand::None, srcs: &[src("block", 1, 32), src("offset", 1, 32), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Access, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Compare-and-swap (`cmpxchg`, `fcmpxchg`) of the scalar at byte `offset` of storage buffer `block`, returning the old value.
    SsboAtomicSwap = "ssbo_atomic_swap" {
        image: ImageOperand::None,
        srcs: &[src("block", 1, 32), src("offset", 1, 32), src("compare", 1, 0), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Access, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// The size in bytes of storage buffer `block` as bound (NIR's `get_ssbo_size`; `.length()` of a runtime array is `(size - offset) / stride` of it).
    GetSsboSize = "get_ssbo_size" {
        image: ImageOperand::None, srcs: &[src("block", 1, 32)], dest: fixed(1, 32), indices: &[K::Access],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// Applies `atomic_op` with `data` to the scalar at byte `base + offset` of shared memory, returning the old value.
    SharedAtomic = "shared_atomic" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Base, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Compare-and-swap of the scalar at byte `base + offset` of shared memory, returning the old value.
    SharedAtomicSwap = "shared_atomic_swap" {
        image: ImageOperand::None, srcs: &[src("offset", 1, 32), src("compare", 1, 0), src("data", 1, 0)],
        dest: DestInfo::Variable, indices: &[K::Base, K::AtomicOp],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// LSC untyped (or typed) load: one address per lane, each reading the data shape's vector.
    LscLoad = "lsc_load" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0)], dest: DestInfo::Variable, indices: LSC_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// LSC untyped (or typed) store: one address per lane, each writing the data shape's vector.
    LscStore = "lsc_store" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0), src("data", 0, 0)], dest: DestInfo::None,
        indices: LSC_IDX, class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// LSC strided load: lane `i` reads at `addr + i * pitch`, a block load when `pitch` is the element size.
    LscLoadStrided = "lsc_load_strided" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0), src("pitch", 1, 32)], dest: DestInfo::Variable,
        indices: LSC_IDX, class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// LSC strided store: lane `i` writes at `addr + i * pitch`.
    LscStoreStrided = "lsc_store_strided" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0), src("pitch", 1, 32), src("data", 0, 0)],
        dest: DestInfo::None, indices: LSC_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// LSC load with an XYZW channel mask (`lsc_load_quad`, typed `.tgm` for images).
    LscLoadQuad = "lsc_load_quad" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0)], dest: DestInfo::Variable, indices: LSC_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// LSC store with an XYZW channel mask (`lsc_store_quad`, typed `.tgm` for images).
    LscStoreQuad = "lsc_store_quad" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0), src("data", 0, 0)], dest: DestInfo::None,
        indices: LSC_IDX, class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// LSC atomic: applies the `lsc_op` sub-op at each lane's address, returning the old value.
    LscAtomic = "lsc_atomic" {
        image: ImageOperand::Optional, srcs: &[src("addr", 1, 0)], dest: DestInfo::Variable, indices: LSC_ATOMIC_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// LSC 2D block load: a rectangle of a surface into the subgroup's registers.
    LscLoadBlock2d = "lsc_load_block2d" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::Variable,
        indices: &[K::LscSfid, K::LscData, K::LscBlock, K::LscCache],
        class: Message, predicable: false, eliminate: true, reorder: false,
    }
    /// LSC 2D block store: the subgroup's registers into a rectangle of a surface.
    LscStoreBlock2d = "lsc_store_block2d" {
        image: ImageOperand::Optional, srcs: &[src("data", 0, 0)], dest: DestInfo::None,
        indices: &[K::LscSfid, K::LscData, K::LscBlock, K::LscCache],
        class: Message, predicable: false, eliminate: false, reorder: false,
    }
    /// Reads a `W x H` block of raw texels at `coord` for the whole subgroup.
    ImageBlockLoad = "image_block_load" {
        image: ImageOperand::Required, srcs: &[src("coord", 2, 32)], dest: DestInfo::Variable,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::Block],
        class: Image, predicable: false, eliminate: true, reorder: false,
    }
    /// Writes a `W x H` block of raw texels at `coord` for the whole subgroup.
    ImageBlockStore = "image_block_store" {
        image: ImageOperand::Required, srcs: &[src("coord", 2, 32), src("data", 0, 0)], dest: DestInfo::None,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::Block],
        class: Image, predicable: false, eliminate: false, reorder: false,
    }
    /// OpenCL's `async_work_group_copy_2D2D`: the workgroup copies a rectangle of lines between memories, returning `event`.
    GroupAsyncCopy2d2d = "group_async_copy_2d2d" {
        image: ImageOperand::None,
        srcs: &[
            src("dst", 1, 0), src("dst_offset", 1, 32), src("src", 1, 0), src("src_offset", 1, 32),
            src("elem_bytes", 1, 32), src("elems_per_line", 1, 32), src("lines", 1, 32),
            src("src_line_length", 1, 32), src("dst_line_length", 1, 32), src("event", 1, 32),
        ],
        dest: fixed(1, 32), indices: &[],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// OpenCL's `async_work_group_copy_3D3D`: the workgroup copies a box of planes between memories, returning `event`.
    GroupAsyncCopy3d3d = "group_async_copy_3d3d" {
        image: ImageOperand::None,
        srcs: &[
            src("dst", 1, 0), src("dst_offset", 1, 32), src("src", 1, 0), src("src_offset", 1, 32),
            src("elem_bytes", 1, 32), src("elems_per_line", 1, 32), src("lines", 1, 32),
            src("planes", 1, 32), src("src_line_length", 1, 32), src("src_plane_area", 1, 32),
            src("dst_line_length", 1, 32), src("dst_plane_area", 1, 32), src("event", 1, 32),
        ],
        dest: fixed(1, 32), indices: &[],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// OpenCL's `wait_group_events`: waits until the copies of `event` are complete.
    GroupWaitEvents = "group_wait_events" {
        image: ImageOperand::None, srcs: &[src("event", 1, 32)], dest: DestInfo::None, indices: &[],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// Workgroup control barrier, ordering the accesses of `mem_modes` memory (omitted: every kind) before it with those after it.
    Barrier = "barrier" {
        image: ImageOperand::None, srcs: &[], dest: DestInfo::None, indices: &[K::MemModes],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// NIR's `barrier` with no execution scope (SPIR-V's `OpMemoryBarrier`, GLSL's `memoryBarrier*()` alone): the invocation's accesses of `mem_modes` memory before it are visible to the workgroup before those after it; no invocation waits for another.
    MemoryBarrier = "memory_barrier" {
        image: ImageOperand::None, srcs: &[], dest: DestInfo::None, indices: &[K::MemModes],
        class: Memory, predicable: false, eliminate: false, reorder: false,
    }
    /// The invocation's linear index within its workgroup.
    LoadLocalInvocationIndex = "load_local_invocation_index" {
        image: ImageOperand::None, srcs: &[], dest: fixed(1, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The invocation's lane within its subgroup.
    LoadSubgroupInvocation = "load_subgroup_invocation" {
        image: ImageOperand::None, srcs: &[], dest: fixed(1, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The subgroup's index within its workgroup.
    LoadSubgroupId = "load_subgroup_id" {
        image: ImageOperand::None, srcs: &[], dest: fixed(1, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The number of subgroups in a workgroup.
    LoadNumSubgroups = "load_num_subgroups" {
        image: ImageOperand::None, srcs: &[], dest: fixed(1, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// The number of lanes of a subgroup, the SIMD width the shader runs at (NIR's `load_subgroup_size`, SPIR-V's `SubgroupSize`).
    LoadSubgroupSize = "load_subgroup_size" {
        image: ImageOperand::None, srcs: &[], dest: fixed(1, 32), indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: true,
    }
    /// `value` in the first (lowest) active lane of the subgroup, given to every active lane (SPIR-V's `OpGroupNonUniformBroadcastFirst`); the result depends on which lanes execute it, so it is never moved or merged.
    ReadFirstInvocation = "read_first_invocation" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `reduce`: the `reduction_op` combination of `value` over the active lanes of the subgroup (of each aligned cluster of `cluster_size` lanes where that is not 0), in every active lane (SPIR-V's `OpGroupNonUniform*` arithmetic with `Reduce`, or `ClusteredReduce`); floats are combined in the order `ir::subgroup` defines. The result depends on which lanes run it, so it is never moved or merged.
    Reduce = "reduce" {
        image: ImageOperand::None, srcs: &[src("value", 1, 0)], dest: DestInfo::Variable, indices: &[K::ReductionOp, K::ClusterSize],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `inclusive_scan`: in each active lane, the `reduction_op` combination of `value` over the active lanes up to and including it (`InclusiveScan`).
    InclusiveScan = "inclusive_scan" {
        image: ImageOperand::None, srcs: &[src("value", 1, 0)], dest: DestInfo::Variable, indices: &[K::ReductionOp],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `exclusive_scan`: in each active lane, the `reduction_op` combination of `value` over the active lanes below it, the identity in the lowest (`ExclusiveScan`).
    ExclusiveScan = "exclusive_scan" {
        image: ImageOperand::None, srcs: &[src("value", 1, 0)], dest: DestInfo::Variable, indices: &[K::ReductionOp],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `shuffle`: `value` of lane `index` of the subgroup (SPIR-V's `OpGroupNonUniformShuffle`); undefined where that lane is inactive or beyond the subgroup (`ir::subgroup`, "Shuffles and quad operations"). Never moved or merged.
    Shuffle = "shuffle" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0), src("index", 1, 32)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `shuffle_xor`: `value` of lane `lane ^ mask` (`OpGroupNonUniformShuffleXor`).
    ShuffleXor = "shuffle_xor" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0), src("mask", 1, 32)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `shuffle_up`: `value` of lane `lane - delta` (`OpGroupNonUniformShuffleUp`); undefined below lane `delta`.
    ShuffleUp = "shuffle_up" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0), src("delta", 1, 32)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `shuffle_down`: `value` of lane `lane + delta` (`OpGroupNonUniformShuffleDown`); undefined where that is beyond the subgroup.
    ShuffleDown = "shuffle_down" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0), src("delta", 1, 32)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `quad_broadcast`: `value` of lane `index` (0 to 3) of the lane's quad, lanes `4q .. 4q + 3` (`OpGroupNonUniformQuadBroadcast`).
    QuadBroadcast = "quad_broadcast" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0), src("index", 1, 32)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `quad_swap_horizontal`: `value` of lane `lane ^ 1` (`OpGroupNonUniformQuadSwap`, direction 0).
    QuadSwapHorizontal = "quad_swap_horizontal" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `quad_swap_vertical`: `value` of lane `lane ^ 2` (`OpGroupNonUniformQuadSwap`, direction 1).
    QuadSwapVertical = "quad_swap_vertical" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `quad_swap_diagonal`: `value` of lane `lane ^ 3` (`OpGroupNonUniformQuadSwap`, direction 2).
    QuadSwapDiagonal = "quad_swap_diagonal" {
        image: ImageOperand::None, srcs: &[src("value", 0, 0)], dest: DestInfo::Variable, indices: &[],
        class: SystemValue, predicable: false, eliminate: true, reorder: false,
    }
    /// The sampler's `ld` message: fetches the texel at integer `(u, v, r)` and mip `lod`, no filtering.
    SamplerLd = "sampler_ld" {
        image: ImageOperand::Required, srcs: &[src("u", 1, 32), src("v", 1, 32), src("lod", 1, 32), src("r", 1, 32)],
        dest: DestInfo::Variable, indices: &[K::Channels, K::DestType],
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// The sampler's `ld_lz` message: `ld` at mip level 0.
    SamplerLdLz = "sampler_ld_lz" {
        image: ImageOperand::Required, srcs: &[src("u", 1, 32), src("v", 1, 32), src("r", 1, 32)],
        dest: DestInfo::Variable, indices: &[K::Channels, K::DestType],
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// The sampler's `ld_mcs` message: the multisample control surface's value of the texel at integer `(u, v, r)`, low dword in R and high in G (0 when the surface has none); a texture's MCS does not change during a dispatch, so equal fetches merge, as NIR's CSE merges `txf_ms_mcs_intel`.
    SamplerLdMcs = "sampler_ld_mcs" {
        image: ImageOperand::Required, srcs: &[src("u", 1, 32), src("v", 1, 32), src("r", 1, 32)],
        dest: DestInfo::Variable, indices: &[K::Channels], class: Message, predicable: true, eliminate: true, reorder: true,
    }
    /// The sampler's `ld2dms_w` message: sample `si` of the texel at integer `(u, v, r)` of a multisampled surface, through the `ld_mcs` value `(mcsl, mcsh)`.
    SamplerLd2dmsW = "sampler_ld2dms_w" {
        image: ImageOperand::Required, srcs: &[src("si", 1, 32), src("mcsl", 1, 32), src("mcsh", 1, 32), src("u", 1, 32), src("v", 1, 32), src("r", 1, 32)],
        dest: DestInfo::Variable, indices: &[K::Channels, K::DestType], class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// NIR's `nir_texop_txl`: the texture filtered at the float `coord` (normalized; an array's layer unnormalized, last) and the explicit float `lod`, with the sampler state of sampler index `sampler`, converted to `dest_type` (Vulkan's "Texel Filtering"; `ir/SYNTAX.md`).
    Txl = "txl" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32), src("lod", 1, 32)], dest: DestInfo::Variable,
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::DestType, K::Sampler, K::TexelOffset],
        class: Image, predicable: false, eliminate: true, reorder: false,
    }
    /// NIR's `nir_texop_tg4`: channel `component` of the four texels a bilinear filter of the 2D texture at the float `coord` (an array's layer unnormalized, last) would weight, from the view's base level, with sampler index `sampler`'s address modes: `(i0, j1)`, `(i1, j1)`, `(i1, j0)`, `(i0, j0)` in x, y, z, w (Vulkan's "Texel Gathering"; `ir/SYNTAX.md`).
    Tg4 = "tg4" {
        image: ImageOperand::Required, srcs: &[src("coord", 0, 32)], dest: fixed(4, 32),
        indices: &[K::ImageDim, K::ImageArray, K::Format, K::Access, K::DestType, K::Sampler, K::Component, K::TexelOffset],
        class: Image, predicable: false, eliminate: true, reorder: false,
    }
    /// The sampler's `sample_l` message (IGC's `3D_SAMPLE.md`): the surface filtered at the float `(u, v, r)` (normalized; a 2D array's `r` and a 1D array's `v` the unnormalized layer) and float `lod`, with the state of sampler index `sampler`, returning `channels`.
    SamplerSampleL = "sampler_sample_l" {
        image: ImageOperand::Required, srcs: &[src("lod", 1, 32), src("u", 1, 32), src("v", 1, 32), src("r", 1, 32)],
        dest: DestInfo::Variable, indices: &[K::Channels, K::DestType, K::Sampler, K::TexelOffset],
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// The sampler's `gather4` message (vISA `sample4`, IGC's `3D_SAMPLE4.md`): channel `component` of the 2x2 texels of the surface's base level a bilinear filter at the float `(u, v, r)` would read (a 2D array's `r` the unnormalized layer), lower left, lower right, upper right, upper left (`(i0, j1)`, `(i1, j1)`, `(i1, j0)`, `(i0, j0)`) in R, G, B, A, with the address modes of sampler index `sampler`.
    SamplerGather4 = "sampler_gather4" {
        image: ImageOperand::Required, srcs: &[src("u", 1, 32), src("v", 1, 32), src("r", 1, 32)],
        dest: fixed(4, 32), indices: &[K::Component, K::DestType, K::Sampler, K::TexelOffset],
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// Legacy data port, typed surface read: the `dp_cmask` channels of the texel at (U, V, R, LOD), converted by the surface format.
    DpTypedRead = "dp_typed_read" {
        image: ImageOperand::Required, srcs: &TYPED_COORD_SRCS, dest: DestInfo::Variable, indices: DP_CMASK_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// Legacy data port, typed surface write of the `dp_cmask` channels of `data` to the texel at (U, V, R, LOD).
    DpTypedWrite = "dp_typed_write" {
        image: ImageOperand::Required, srcs: &[], dest: DestInfo::None, indices: DP_CMASK_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// Legacy data port, typed atomic `dp_op` on the texel at (U, V, R, LOD), returning the old texel.
    DpTypedAtomic = "dp_typed_atomic" {
        image: ImageOperand::Required, srcs: &[], dest: DestInfo::Variable, indices: DP_TYPED_ATOMIC_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// Legacy data port, untyped surface read: the `dp_cmask` dwords of four consecutive ones at `addr`.
    DpUntypedRead = "dp_untyped_read" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::Variable, indices: DP_UNTYPED_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// Legacy data port, untyped surface write of the `dp_cmask` dwords of `data` at `addr`.
    DpUntypedWrite = "dp_untyped_write" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::None, indices: DP_UNTYPED_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// Legacy data port, untyped atomic `dp_op` on `dp_bits`-bit memory at `addr`, returning the old value.
    DpUntypedAtomic = "dp_untyped_atomic" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::Variable, indices: DP_UNTYPED_ATOMIC_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// Legacy data port, byte scattered read of `dp_bytes` bytes at `addr` into the low bytes of each lane's element.
    DpByteScatteredRead = "dp_byte_scattered_read" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::Variable, indices: DP_BYTE_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// Legacy data port, byte scattered write of the low `dp_bytes` bytes of `data` at `addr`.
    DpByteScatteredWrite = "dp_byte_scattered_write" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::None, indices: DP_BYTE_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// Legacy data port, dword scattered read of one dword at `addr`.
    DpDwordScatteredRead = "dp_dword_scattered_read" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::Variable, indices: DP_DWORD_IDX,
        class: Message, predicable: true, eliminate: true, reorder: false,
    }
    /// Legacy data port, dword scattered write of `data` at `addr`.
    DpDwordScatteredWrite = "dp_dword_scattered_write" {
        image: ImageOperand::Optional, srcs: &[], dest: DestInfo::None, indices: DP_DWORD_IDX,
        class: Message, predicable: true, eliminate: false, reorder: false,
    }
    /// The sampler's `resinfo` message: the view's width, height, depth or layers at mip `lod` and its level count, as `channels` selects.
    SamplerResinfo = "sampler_resinfo" {
        image: ImageOperand::Required, srcs: &[src("lod", 1, 32)], dest: DestInfo::Variable, indices: &[K::Channels],
        class: Message, predicable: false, eliminate: true, reorder: true,
    }
}

/// The coordinate sources of a typed (`.tgm`) message: U, V, R and LOD, each one 32-bit
/// component. Unused trailing coordinates are the constant 0 (IGC omits them in text).
pub const TYPED_COORD_SRCS: [SrcInfo; 4] = [
    src("u", 1, 32),
    src("v", 1, 32),
    src("r", 1, 32),
    src("lod", 1, 32),
];

/// The sources of a data-port message: the typed coordinates U, V, R, LOD or the
/// address (32- or 64-bit by the address model), then the written `data` or the
/// atomic's `src0` and `src1` (as many as the operation takes; the compare value first
/// for `cmpwr`/`fcmpwr`). Data shapes are the validator's to check against the
/// message's fields.
fn dp_srcs(d: &DpDesc) -> Vec<SrcInfo> {
    let mut out = Vec::with_capacity(6);
    if d.msg.is_typed() {
        out.extend_from_slice(&TYPED_COORD_SRCS);
    } else {
        out.push(src("addr", 1, d.addr_bits()));
    }
    if d.msg.has_data() {
        out.push(src("data", 0, 0));
    }
    for name in ["src0", "src1"].iter().take(d.num_atomic_srcs()) {
        out.push(src(name, 1, 0));
    }
    out
}

/// The payload sources of an untyped 2D block message, as the vISA operands: surface
/// base address, width - 1 and pitch - 1 in bytes, height - 1 in rows, and the block
/// origin X (elements) and Y (rows).
pub const UNTYPED_BLOCK2D_SRCS: [SrcInfo; 6] = [
    src("base", 1, 64),
    src("width_minus_1", 1, 32),
    src("height_minus_1", 1, 32),
    src("pitch_minus_1", 1, 32),
    src("x", 1, 32),
    src("y", 1, 32),
];

impl IntrinsicOp {
    /// Whether this is `lsc_load_block2d` or `lsc_store_block2d`.
    pub fn is_block2d(self) -> bool {
        matches!(
            self,
            IntrinsicOp::LscLoadBlock2d | IntrinsicOp::LscStoreBlock2d
        )
    }

    /// The intrinsic's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The intrinsic called `name`.
    pub fn from_name(name: &str) -> Option<IntrinsicOp> {
        IntrinsicOp::ALL
            .iter()
            .copied()
            .find(|op| op.name() == name)
    }

    /// The group operation of a subgroup `reduce`, `inclusive_scan` or
    /// `exclusive_scan`.
    pub fn group_operation(self) -> Option<GroupOperation> {
        match self {
            IntrinsicOp::Reduce => Some(GroupOperation::Reduce),
            IntrinsicOp::InclusiveScan => Some(GroupOperation::InclusiveScan),
            IntrinsicOp::ExclusiveScan => Some(GroupOperation::ExclusiveScan),
            _ => None,
        }
    }

    /// The lane rule of a shuffle or quad operation (`shuffle`, `shuffle_xor`,
    /// `shuffle_up`, `shuffle_down`, `quad_broadcast`, `quad_swap_*`).
    pub fn shuffle_kind(self) -> Option<ShuffleKind> {
        Some(match self {
            IntrinsicOp::Shuffle => ShuffleKind::Index,
            IntrinsicOp::ShuffleXor => ShuffleKind::Xor,
            IntrinsicOp::ShuffleUp => ShuffleKind::Up,
            IntrinsicOp::ShuffleDown => ShuffleKind::Down,
            IntrinsicOp::QuadBroadcast => ShuffleKind::QuadBroadcast,
            IntrinsicOp::QuadSwapHorizontal => ShuffleKind::QuadSwap(1),
            IntrinsicOp::QuadSwapVertical => ShuffleKind::QuadSwap(2),
            IntrinsicOp::QuadSwapDiagonal => ShuffleKind::QuadSwap(3),
            _ => return None,
        })
    }

    /// Whether this is one of the LSC message intrinsics (`lsc_*`).
    pub fn is_lsc(self) -> bool {
        matches!(
            self,
            IntrinsicOp::LscLoad
                | IntrinsicOp::LscStore
                | IntrinsicOp::LscLoadStrided
                | IntrinsicOp::LscStoreStrided
                | IntrinsicOp::LscLoadQuad
                | IntrinsicOp::LscStoreQuad
                | IntrinsicOp::LscAtomic
        )
    }

    /// The legacy data-port message family of a `@dp_*` intrinsic.
    pub fn dp_msg(self) -> Option<DpMsg> {
        Some(match self {
            IntrinsicOp::DpTypedRead => DpMsg::TypedRead,
            IntrinsicOp::DpTypedWrite => DpMsg::TypedWrite,
            IntrinsicOp::DpTypedAtomic => DpMsg::TypedAtomic,
            IntrinsicOp::DpUntypedRead => DpMsg::UntypedRead,
            IntrinsicOp::DpUntypedWrite => DpMsg::UntypedWrite,
            IntrinsicOp::DpUntypedAtomic => DpMsg::UntypedAtomic,
            IntrinsicOp::DpByteScatteredRead => DpMsg::ByteScatteredRead,
            IntrinsicOp::DpByteScatteredWrite => DpMsg::ByteScatteredWrite,
            IntrinsicOp::DpDwordScatteredRead => DpMsg::DwordScatteredRead,
            IntrinsicOp::DpDwordScatteredWrite => DpMsg::DwordScatteredWrite,
            _ => return None,
        })
    }

    /// The intrinsic of a data-port message family.
    pub fn for_dp_msg(msg: DpMsg) -> IntrinsicOp {
        match msg {
            DpMsg::TypedRead => IntrinsicOp::DpTypedRead,
            DpMsg::TypedWrite => IntrinsicOp::DpTypedWrite,
            DpMsg::TypedAtomic => IntrinsicOp::DpTypedAtomic,
            DpMsg::UntypedRead => IntrinsicOp::DpUntypedRead,
            DpMsg::UntypedWrite => IntrinsicOp::DpUntypedWrite,
            DpMsg::UntypedAtomic => IntrinsicOp::DpUntypedAtomic,
            DpMsg::ByteScatteredRead => IntrinsicOp::DpByteScatteredRead,
            DpMsg::ByteScatteredWrite => IntrinsicOp::DpByteScatteredWrite,
            DpMsg::DwordScatteredRead => IntrinsicOp::DpDwordScatteredRead,
            DpMsg::DwordScatteredWrite => IntrinsicOp::DpDwordScatteredWrite,
        }
    }

    /// Whether this is one of the legacy data-port message intrinsics (`dp_*`).
    pub fn is_dataport(self) -> bool {
        self.dp_msg().is_some()
    }

    /// The sources this intrinsic takes given its indices (not counting a predicate).
    ///
    /// For LSC messages on `.tgm` the single address becomes the four typed coordinates,
    /// and atomics take as many data operands as their sub-op needs. `None` if the
    /// indices do not decode (the validator reports that).
    pub fn srcs(self, indices: &[u32]) -> Option<Vec<SrcInfo>> {
        let info = self.info();
        if self.is_block2d() {
            // Untyped 2D blocks address a linear surface given in the payload (docs/hardware/lsc-messages.md
            // §8.2); typed ones take the surface from the image's surface state and only
            // the block origin (§8.1).
            let sfid = Sfid::from_index(*indices.first()?)?;
            let mut out = if sfid == Sfid::Tgm {
                vec![src("x", 1, 32), src("y", 1, 32)]
            } else {
                UNTYPED_BLOCK2D_SRCS.to_vec()
            };
            out.extend_from_slice(info.srcs);
            return Some(out);
        }
        if let Some(msg) = self.dp_msg() {
            return Some(dp_srcs(&DpDesc::from_indices(msg, indices).ok()?));
        }
        if !self.is_lsc() {
            return Some(info.srcs.to_vec());
        }
        // Only the fields that shape the sources: the SFID and the atomic sub-op (the
        // validator reports the other indices, `LscDesc::from_indices` decodes them).
        let sfid = Sfid::from_index(*indices.first()?)?;
        let mut out = Vec::with_capacity(6);
        if sfid == Sfid::Tgm {
            out.extend_from_slice(&TYPED_COORD_SRCS);
        } else {
            out.push(info.srcs[0]);
        }
        out.extend_from_slice(&info.srcs[1..]);
        if self == IntrinsicOp::LscAtomic {
            let op = LscAtomicOp::from_opcode(*indices.get(LscDesc::INDICES)?)?;
            let names = ["src1", "src2"];
            for name in names.iter().take(op.num_data_operands()) {
                out.push(src(name, 1, 0));
            }
        }
        Some(out)
    }

    /// The trailing sources an instance may leave out (see
    /// [`IntrinsicInfo::optional_srcs`]).
    pub fn optional_srcs(self) -> &'static [SrcInfo] {
        self.info().optional_srcs
    }

    /// The sources of an instance with `n` sources (not counting a predicate): the
    /// required ones ([`IntrinsicOp::srcs`]) followed by the first optional ones.
    /// `None` if the indices do not decode or `n` is not between the number of
    /// required sources and that plus the optional ones.
    pub fn srcs_for_count(self, indices: &[u32], n: usize) -> Option<Vec<SrcInfo>> {
        let mut out = self.srcs(indices)?;
        let extra = n.checked_sub(out.len())?;
        out.extend_from_slice(self.optional_srcs().get(..extra)?);
        Some(out)
    }

    /// The accepted source counts (not counting a predicate) as text for diagnostics:
    /// `1 source (coord)`, `1 or 2 sources (coord[, lod])`. `None` if the indices do not
    /// decode.
    pub fn srcs_description(self, indices: &[u32]) -> Option<String> {
        let req = self.srcs(indices)?;
        let opt = self.optional_srcs();
        let n = req.len();
        let mut list = req.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
        for s in opt {
            let sep = if list.is_empty() { "" } else { ", " };
            list = format!("{list}[{sep}{}", s.name);
        }
        list.push_str(&"]".repeat(opt.len()));
        if list.is_empty() {
            list.push_str("none");
        }
        let counts = match opt.len() {
            0 => n.to_string(),
            1 => format!("{n} or {}", n + 1),
            k => format!("{n} to {}", n + k),
        };
        let plural = if n == 1 && opt.is_empty() { "" } else { "s" };
        Some(format!("{counts} source{plural} ({list})"))
    }

    /// Whether the intrinsic reads and whether it writes the texels of its image:
    /// loads (`image_load`, `image_block_load`, the sampler's messages) read, stores
    /// (`image_store`, `image_block_store`) write, atomics do both; `None` for the
    /// intrinsics without an image and those that read only its descriptor (`image_size`,
    /// `image_samples`, `image_levels`, `image_load_param`, the sampler's `resinfo`).
    pub fn image_texel_access(self) -> Option<(bool, bool)> {
        use IntrinsicOp::*;
        Some(match self {
            ImageLoad | ImageBlockLoad | Txl | Tg4 | SamplerLd | SamplerLdLz | SamplerLdMcs
            | SamplerLd2dmsW | SamplerSampleL | SamplerGather4 => (true, false),
            ImageStore | ImageBlockStore => (false, true),
            ImageAtomic | ImageAtomicSwap => (true, true),
            _ => return None,
        })
    }

    /// The position of `kind` among this intrinsic's indices.
    pub fn index_position(self, kind: IndexKind) -> Option<usize> {
        self.info().indices.iter().position(|k| *k == kind)
    }
}

impl fmt::Display for IntrinsicOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_descriptors_encode_in_the_table_order() {
        use crate::lsc::{Block2dDesc, DataSize, LscIndexError};
        let desc = LscDesc::new(
            Sfid::Slm,
            AddrType::Ss,
            AddrSize::A16,
            DataShape::vector(DataSize::D64, 8, true),
        )
        .with_cache(CacheControl::parse("st.uc").unwrap())
        .with_offset(-8)
        .with_atomic(LscAtomicOp::Umax);
        let idx = desc.indices();
        let at = |op: IntrinsicOp, k: IndexKind| op.index_position(k).map(|p| idx[p]);
        for op in [
            IntrinsicOp::LscLoad,
            IntrinsicOp::LscStore,
            IntrinsicOp::LscLoadStrided,
            IntrinsicOp::LscStoreStrided,
            IntrinsicOp::LscLoadQuad,
            IntrinsicOp::LscStoreQuad,
            IntrinsicOp::LscAtomic,
        ] {
            let n = op.info().indices.len();
            assert_eq!(
                n,
                LscDesc::INDICES + usize::from(op == IntrinsicOp::LscAtomic)
            );
            assert_eq!(at(op, K::LscSfid), Some(Sfid::Slm.to_index()), "{op}");
            assert_eq!(at(op, K::LscAddr), Some(AddrType::Ss.to_index()), "{op}");
            assert_eq!(
                at(op, K::LscAddrSize),
                Some(AddrSize::A16.to_index()),
                "{op}"
            );
            assert_eq!(at(op, K::LscData), Some(desc.data.to_index()), "{op}");
            assert_eq!(at(op, K::LscCache), Some(desc.cache.to_index()), "{op}");
            assert_eq!(at(op, K::LscOffset), Some(-8i32 as u32), "{op}");
        }
        assert_eq!(
            at(IntrinsicOp::LscAtomic, K::LscOp),
            Some(LscAtomicOp::Umax.opcode())
        );
        // A decoding error names the intrinsic table's index kind.
        let e = LscDesc::from_indices(&idx[..3]).unwrap_err();
        assert_eq!(IndexKind::from(e.field), K::LscData);
        assert_eq!(
            LscDesc::from_indices(&[0, 0, 1, 2, 0, 0, 1]),
            Err(LscIndexError {
                field: LscField::AtomicOp,
                value: Some(1)
            })
        );
        let b = Block2dDesc::new(Sfid::Tgm, DataSize::D8, BlockShape::plain(8, 4));
        let bidx = b.indices().unwrap();
        for op in [IntrinsicOp::LscLoadBlock2d, IntrinsicOp::LscStoreBlock2d] {
            let pos = |k: IndexKind| op.index_position(k).map(|p| bidx[p]);
            assert_eq!(pos(K::LscSfid), Some(Sfid::Tgm.to_index()));
            assert_eq!(
                pos(K::LscData),
                Some(DataShape::vector(DataSize::D8, 1, false).to_index())
            );
            assert_eq!(pos(K::LscBlock), b.shape.to_index());
            assert_eq!(pos(K::LscCache), Some(CacheControl::DEFAULT.to_index()));
        }
    }

    #[test]
    fn names_unique_and_round_trip() {
        for &op in IntrinsicOp::ALL {
            assert_eq!(IntrinsicOp::from_name(op.name()), Some(op));
        }
    }

    #[test]
    fn index_values_round_trip() {
        let samples: &[(IndexKind, &str)] = &[
            (K::ImageDim, "cube"),
            (K::ImageArray, "true"),
            (K::Format, "rgba8_unorm"),
            (K::Access, "readonly|coherent"),
            (K::Access, "none"),
            (K::DestType, "float32"),
            (K::AtomicOp, "fcmpxchg"),
            (K::Base, "-4"),
            (K::LscSfid, "tgm"),
            (K::LscAddr, "bti"),
            (K::LscAddrSize, "a64"),
            (K::LscData, "d32x4"),
            (K::LscCache, "uc.wb"),
            (K::LscOp, "iinc"),
            (K::LscOffset, "256"),
            (K::Channels, "rga"),
        ];
        for &(k, s) in samples {
            let v = k.parse_value(s).unwrap_or_else(|| panic!("{k:?} {s}"));
            assert_eq!(k.format_value(v).as_deref(), Some(s));
        }
    }

    #[test]
    fn decodes_is_what_format_value_accepts() {
        // Every index kind an intrinsic uses, over small values, the edges of the
        // encodings and the top of the range.
        let values: Vec<u32> = (0..300)
            .chain([0x7fff_ffff, 0xffff_fffe, u32::MAX])
            .collect();
        for &op in IntrinsicOp::ALL {
            for &k in op.info().indices {
                for &v in &values {
                    assert_eq!(k.decodes(v), k.format_value(v).is_some(), "{k:?} {v}");
                }
            }
        }
    }

    #[test]
    fn optional_sources_never_meet_a_predicate() {
        // A predicate is recognised as the source after the required ones; an optional
        // source in that place would make the two ambiguous.
        for &op in IntrinsicOp::ALL {
            let info = op.info();
            assert!(
                !info.predicable || info.optional_srcs.is_empty(),
                "{op} is predicable and has optional sources"
            );
        }
        assert!(!IntrinsicOp::ImageLoad.info().predicable);
        assert_eq!(IntrinsicOp::ImageLoad.optional_srcs()[0].name, "lod");
    }

    #[test]
    fn sources_for_a_count() {
        let names = |n: usize| {
            IntrinsicOp::ImageLoad
                .srcs_for_count(&[], n)
                .map(|v| v.iter().map(|s| s.name).collect::<Vec<_>>())
        };
        assert_eq!(names(0), None);
        assert_eq!(names(1).unwrap(), ["coord"]);
        assert_eq!(names(2).unwrap(), ["coord", "lod"]);
        assert_eq!(names(3), None);
        assert_eq!(
            IntrinsicOp::ImageLoad.srcs_description(&[]).unwrap(),
            "1 or 2 sources (coord[, lod])"
        );
        assert_eq!(
            IntrinsicOp::ImageStore.srcs_description(&[]).unwrap(),
            "2 sources (coord, data)"
        );
        assert_eq!(
            IntrinsicOp::LoadSsbo.srcs_description(&[]).unwrap(),
            "2 sources (block, offset)"
        );
        assert_eq!(
            IntrinsicOp::ImageSize.srcs_description(&[]).unwrap(),
            "0 or 1 sources ([lod])"
        );
        assert_eq!(
            IntrinsicOp::ImageLevels.srcs_description(&[]).unwrap(),
            "0 sources (none)"
        );
        assert_eq!(
            IntrinsicOp::LoadPushConstant.srcs_description(&[]).unwrap(),
            "1 source (offset)"
        );
    }

    #[test]
    fn dataport_intrinsics_carry_their_fields() {
        for msg in DpMsg::ALL {
            let op = IntrinsicOp::for_dp_msg(msg);
            assert_eq!(op.dp_msg(), Some(msg));
            assert_eq!(op.name(), msg.name());
            let kinds: Vec<Option<DpField>> =
                op.info().indices.iter().map(|k| k.dp_field()).collect();
            let fields: Vec<Option<DpField>> = msg.fields().iter().copied().map(Some).collect();
            assert_eq!(kinds, fields, "{op}");
            for k in op.info().indices {
                assert_eq!(k.name(), k.dp_field().unwrap().name());
            }
        }
        let n = IntrinsicOp::ALL.iter().filter(|o| o.is_dataport()).count();
        assert_eq!(n, DpMsg::ALL.len());
        let atomic = DpDesc::untyped_atomic(
            crate::dataport::DpAddr::A64,
            crate::dataport::DpAtomicOp::Fcmpwr,
            32,
        );
        let names = |op: IntrinsicOp, d: &DpDesc| -> Vec<&str> {
            op.srcs(&d.to_indices())
                .unwrap()
                .iter()
                .map(|s| s.name)
                .collect()
        };
        assert_eq!(
            names(IntrinsicOp::DpUntypedAtomic, &atomic),
            ["addr", "src0", "src1"]
        );
        assert_eq!(
            IntrinsicOp::DpUntypedAtomic
                .srcs(&atomic.to_indices())
                .unwrap()[0]
                .bit_size,
            64
        );
        let w = DpDesc::typed_write(0b11);
        assert_eq!(
            names(IntrinsicOp::DpTypedWrite, &w),
            ["u", "v", "r", "lod", "data"]
        );
        let inc = DpDesc::typed_atomic(crate::dataport::DpAtomicOp::Inc, 16);
        assert_eq!(
            names(IntrinsicOp::DpTypedAtomic, &inc),
            ["u", "v", "r", "lod"]
        );
        // Indices that do not decode give no source list.
        assert_eq!(IntrinsicOp::DpTypedRead.srcs(&[0]), None);
    }

    #[test]
    fn tgm_messages_take_four_coordinates() {
        let tgm = 2u32;
        let idx = [tgm, 3, 1, 0, 0, 0, LscAtomicOp::Icas.opcode()];
        let srcs = IntrinsicOp::LscAtomic.srcs(&idx).unwrap();
        let names: Vec<_> = srcs.iter().map(|s| s.name).collect();
        assert_eq!(names, ["u", "v", "r", "lod", "src1", "src2"]);
    }
}
