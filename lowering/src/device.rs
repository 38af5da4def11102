//! Target devices: what the lowering needs to know about a GPU.
//!
//! A [`Device`] answers every platform question the lowering asks: each fact is a field
//! (or a method computed from fields) here, and no other file of the crate compares
//! generations or guesses a platform from another fact. Tables that are keyed by
//! generation in their sources (ISL's format table, `format.rs`) are looked up with
//! [`Device::gen`].
//!
//! The platforms are named by one table, `tiling::Platform` (the names `tile-calc --gen`
//! and `ir-opt --target` both take): [`Device::for_platform`] gives the facts of a named
//! platform, [`Device::preset`] parses a name. A driver describing a part of its own
//! starts from [`Device::new`] (the facts of a generation) and sets the fields it knows
//! better; the fields are public, the struct is `#[non_exhaustive]` so that facts can be
//! added.
//!
//! Every number names its source: the project's hardware notes
//! (`docs/hardware/mesa-storage-images.md`, `docs/hardware/lsc-messages.md`,
//! `docs/hardware/dataport.md`) and the Mesa and IGC files they read.

use crate::messages::dataport::DataportCaps;
use std::fmt;
use tiling::{Gen, Platform};

/// Cache-control field of the LSC message descriptor.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum CacheControlField {
    /// No LSC: legacy data-port messages carry no L1/L3 cache controls.
    None,
    /// Three bits in desc\[19:17\] (DG2, MTL, ARL, PVC; `docs/hardware/lsc-messages.md` §9, §11).
    Bits3,
    /// Four bits in desc\[19:16\] (Xe2 and later; `docs/hardware/lsc-messages.md` §9, §11).
    Bits4,
}

/// A GPU as the lowering sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Device {
    /// Platform name used in diagnostics (`dg2`, `ivb`, ...).
    pub name: String,
    /// The generation: the key of generation-indexed tables (ISL's format table) and of
    /// surface layouts (`tiling`). Mesa's `devinfo->verx10` is [`Device::verx10`].
    pub gen: Gen,
    /// Whether the generation has storage images at all: typed surface reads and writes
    /// from shaders arrive with Gfx7 (Mesa exposes `ARB_shader_image_load_store` from
    /// Gfx7; nothing earlier has the typed surface messages). Lowering an image access
    /// for a part without them is a
    /// [`NoStorageImages`](crate::LowerErrorKind::NoStorageImages) error.
    pub storage_images: bool,
    /// Whether this is Bay Trail (VLV). Mesa's IVB-only checks are written
    /// `ver < 8 && !BYT` (`docs/hardware/mesa-storage-images.md` §6, §7).
    pub is_baytrail: bool,
    /// Whether LSC messages exist (Gfx12.5 and later; `docs/hardware/lsc-messages.md` §1).
    pub has_lsc: bool,
    /// The legacy data port the lowering sends its messages to where there is no LSC
    /// (Gfx7 to Gfx12.0): its messages, atomics, SIMD widths and descriptor encoding
    /// (`docs/hardware/dataport.md`). `None` from Gfx12.5 (LSC) and before Gfx7 (no
    /// storage images).
    pub dataport: Option<DataportCaps>,
    /// SIMD width of one typed (TGM) message.
    pub typed_simd: u32,
    /// The widest typed message the hardware takes (`docs/hardware/lsc-messages.md` §10, §13.11):
    /// SIMD8 on DG2/MTL/ARL, SIMD16 on PVC, SIMD32 on Xe2. A device asking for more
    /// ([`Device::typed_simd`]) has illegal typed messages.
    pub typed_simd_max: u32,
    /// SIMD width of one untyped surface/UGM message.
    pub untyped_simd: u32,
    /// Bytes in one general register.
    pub grf_bytes: u32,
    /// Whether the platform has a 3D sampler (for the sampler path and `@sampler_ld`
    /// messages). IGC's `Platform.hpp` (`hasSamplerSupport`) gives Xe-HPC (PVC) none.
    pub has_sampler: bool,
    /// Whether surfaces may be bit-6 swizzled, so that untyped tiled addressing must
    /// XOR bit 6: before Gfx8 except Bay Trail (`ver < 8 && !BYT`;
    /// `docs/hardware/mesa-storage-images.md` §6, §7; `docs/hardware/surface-layout.md` §6).
    pub may_have_bit6_swizzle: bool,
    /// Typed image `fadd` (LSC FADD on TGM), as the driver exposes it.
    pub image_float_atomic_add: bool,
    /// Typed image `fmin`/`fmax` (LSC FMIN/FMAX on TGM).
    pub image_float_atomic_min_max: bool,
    /// Typed image `fcmpxchg` (LSC FCAS on TGM).
    pub image_float_atomic_cmpxchg: bool,
    /// Whether `.tgm` atomics take the float add and subtract operations at all (a
    /// message rule, whatever the driver exposes): Xe2 and later
    /// (`docs/hardware/lsc-messages.md` §13.6; IGC's vISA verifier).
    pub tgm_float_add: bool,
    /// Whether data-port messages take 64-bit flat (A64) addresses: Gfx8 and later.
    /// Gfx7's stateless messages reach memory only through 32-bit offsets, so global
    /// pointers, `untyped-address=a64` and anything lowered to `.ugm` `:a64` messages
    /// are unavailable there (Mesa: the A64 data-port messages are Gfx8+, and hasvk
    /// sets `has_a64_buffer_access` only from Gfx8).
    pub has_a64: bool,
    /// 64-bit image atomics, done as A64 global atomics on a computed texel address
    /// (needs [`Device::has_a64`]).
    pub image_int64_atomics: bool,
    /// Typed 2D block messages (`lsc_*_block2d.tgm`).
    pub typed_block2d: bool,
    /// Untyped 2D block messages (`lsc_*_block2d.ugm`).
    pub untyped_block2d: bool,
    /// The cache-control field of LSC descriptors.
    pub cache_control: CacheControlField,
    /// Whether typed (TGM) messages accept non-default cache controls.
    pub tgm_cache_control: bool,
    /// Whether the widening data sizes (`d8u32`, `d16u32`) zero the upper bits of the
    /// register element: Xe2 and later. Before, the upper bits are undefined
    /// (`docs/hardware/lsc-messages.md` §1, §4) and the lowering masks them.
    pub narrow_data_zero_extended: bool,
    /// Whether volatile untyped accesses bypass L3 too (L1UC_L3UC): Mesa's choice
    /// before Xe2. From Xe2 they bypass L1 only, as coherent ones do
    /// (`docs/hardware/lsc-messages.md` §9).
    pub volatile_bypasses_l3: bool,
    /// The tilings the driver gives 2D, cube and 3D storage images: a driver policy,
    /// intersected with what isl allows for the format (`tiling::storage_tilings`).
    /// The untyped address code handles exactly these when the tiling is only known at
    /// run time, so a smaller set gives shorter code. The presets follow Mesa's drivers:
    /// linear, X and Y before Gfx12.5 (iris and anv clear `ISL_TILING_STD_Y_MASK`: "We
    /// don't support Yf or Ys tiling yet"; W is for stencil), linear, X, Tile4 and
    /// Tile64 from Gfx12.5.
    pub storage_tilings: Vec<tiling::Tiling>,
    /// Whether 1D storage images are always linear: isl's `isl_surf_choose_tiling`
    /// prefers linear for 1D surfaces ("they do not benefit from tiling"), so a driver
    /// that lets isl choose never tiles them.
    pub linear_1d_storage: bool,
}

impl Device {
    /// The names of one platform of each kind the lowering tells apart: the presets the
    /// tests and examples run on. [`Device::preset`] takes every name of
    /// `tiling::Platform` (and generation numbers), not only these.
    pub const PRESET_NAMES: [&'static str; 12] = [
        "ivb", "byt", "hsw", "bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc", "lnl", "bmg",
    ];

    /// The platform called `name` (case-insensitive): a code name or alias of
    /// `tiling::Platform` (`arl`, `haswell`) or a generation (`9`, `gfx12.5`, `125`,
    /// standing for the generation's first platform), or `None`. The device is named
    /// after the platform (`12.5` gives `dg2`).
    pub fn preset(name: &str) -> Option<Device> {
        name.parse::<Platform>().ok().map(Device::for_platform)
    }

    /// The facts of `platform`, named after it.
    pub fn for_platform(platform: Platform) -> Device {
        let mut d = Device::facts(platform.gen(), platform == Platform::Pvc);
        d.is_baytrail = platform == Platform::Byt;
        d.may_have_bit6_swizzle = d.gen.ver() < 8 && !d.is_baytrail;
        d.name = platform.name().to_string();
        d
    }

    /// The facts of generation `gen` (those of its first platform, [`Gen::platform`]),
    /// under the name `name`: where a driver describing a part of its own starts.
    ///
    /// ```
    /// let mut part = lowering::Device::new("my-part", tiling::Gen::Gfx125);
    /// part.storage_tilings.retain(|t| *t != tiling::Tiling::Tile64);
    /// assert!(part.has_lsc && part.storage_images);
    /// ```
    pub fn new(name: impl Into<String>, gen: Gen) -> Device {
        let mut d = Device::for_platform(gen.platform());
        d.name = name.into();
        d
    }

    /// Every preset of [`Device::PRESET_NAMES`], in that order.
    pub fn presets() -> Vec<Device> {
        Device::PRESET_NAMES
            .iter()
            .filter_map(|n| Device::preset(n))
            .collect()
    }

    /// The facts of a generation; `xe_hpc` selects Ponte Vecchio among Gfx12.5 parts.
    fn facts(gen: Gen, xe_hpc: bool) -> Device {
        let xe2 = gen >= Gen::Gfx20;
        let has_lsc = gen.has_lsc();
        Device {
            name: String::new(),
            gen,
            storage_images: gen >= Gen::Gfx7,
            is_baytrail: false,
            has_lsc,
            dataport: DataportCaps::for_gen(gen),
            // Typed messages: Mesa splits them to SIMD8 whenever ver < 20
            // (brw_lower_simd_width.cpp, MEMORY_MODE_TYPED; legacy typed surface
            // messages are SIMD8 too). IGC's maxima are DG2/MTL 8, PVC 16, Xe2 32
            // (docs/hardware/lsc-messages.md §10); PVC takes IGC's figure since Mesa has no PVC
            // driver.
            typed_simd: if xe2 {
                32
            } else if xe_hpc {
                16
            } else {
                8
            },
            typed_simd_max: if xe2 {
                32
            } else if xe_hpc {
                16
            } else {
                8
            },
            // Untyped: Mesa caps memory messages at SIMD16 when ver < 20
            // (brw_lower_simd_width.cpp); PVC's native UGM width is SIMD32
            // (docs/hardware/lsc-messages.md §10, older vISA docs), Xe2 does not split (SIMD32).
            untyped_simd: if xe2 || xe_hpc { 32 } else { 16 },
            // 32-byte GRFs up to DG2/MTL, 64-byte on PVC and Xe2 (docs/hardware/lsc-messages.md §1).
            grf_bytes: if xe2 || xe_hpc { 64 } else { 32 },
            has_sampler: !xe_hpc,
            may_have_bit6_swizzle: gen.ver() < 8,
            // Float image atomics follow anv's exposure (docs/hardware/mesa-storage-images.md
            // §8, anv `anv_physical_device.c`) where the hardware could do more:
            // - fadd: `shaderImageFloat32AtomicAdd = (ver >= 20)`; TGM fadd exists
            //   from Xe2 only (docs/hardware/lsc-messages.md §1, §13.6; IGC's verifier agrees).
            // - fmin/fmax and fcas: LSC defines them on every SFID including TGM
            //   (docs/hardware/lsc-messages.md §2), and Mesa 24.3+ maps NIR fmin/fmax/fcmpxchg to
            //   them; the legacy typed atomic messages have no float operations, so they
            //   are offered on LSC parts only. (anv reports
            //   `shaderImageFloat32AtomicMinMax = false`; a driver that wants that
            //   behaviour clears the field.)
            image_float_atomic_add: xe2,
            image_float_atomic_min_max: has_lsc,
            image_float_atomic_cmpxchg: has_lsc,
            tgm_float_add: xe2,
            // anv (Gfx9+) sets `shaderImageInt64Atomics = true` and lowers them to A64
            // global atomics (docs/hardware/mesa-storage-images.md §9); hasvk (Gfx7/8)
            // exposes neither VK_EXT_shader_image_atomic_int64 nor
            // `shaderBufferInt64Atomics` (mesa `src/intel/vulkan_hasvk/anv_device.c`).
            image_int64_atomics: gen >= Gen::Gfx9,
            has_a64: gen >= Gen::Gfx8,
            // Typed block2d: Xe2+ only; untyped block2d: PVC and Xe2+, not DG2/MTL
            // (docs/hardware/lsc-messages.md §1, §8).
            typed_block2d: xe2,
            untyped_block2d: xe2 || xe_hpc,
            // desc[19:17] before Xe2, desc[19:16] from Xe2 (docs/hardware/lsc-messages.md §9, §11).
            cache_control: if xe2 {
                CacheControlField::Bits4
            } else if has_lsc {
                CacheControlField::Bits3
            } else {
                CacheControlField::None
            },
            // IGC's verifier: before Xe2 TGM (and UGML) must use df/df
            // (docs/hardware/lsc-messages.md §9).
            tgm_cache_control: xe2,
            narrow_data_zero_extended: xe2,
            volatile_bypasses_l3: !xe2,
            storage_tilings: if has_lsc {
                vec![
                    tiling::Tiling::Linear,
                    tiling::Tiling::X,
                    tiling::Tiling::Tile4,
                    tiling::Tiling::Tile64,
                ]
            } else {
                vec![tiling::Tiling::Linear, tiling::Tiling::X, tiling::Tiling::Y]
            },
            linear_1d_storage: true,
        }
    }

    /// Mesa's `devinfo->verx10`: the generation times ten (Haswell 75, DG2 125).
    pub fn verx10(&self) -> u32 {
        self.gen.verx10()
    }

    /// The major generation (`verx10 / 10`, Mesa's `devinfo->ver`).
    pub fn ver(&self) -> u32 {
        self.gen.ver()
    }

    /// Whether the image atomic `op` exists on this device: every integer one and
    /// exchange; the float ones as [`Device::image_float_atomic_add`],
    /// [`Device::image_float_atomic_min_max`] and [`Device::image_float_atomic_cmpxchg`]
    /// say (typed and untyped paths alike: both end in the same LSC float operations).
    pub fn has_image_atomic(&self, op: ir::AtomicOp) -> bool {
        use ir::AtomicOp as A;
        match op {
            A::Fadd => self.image_float_atomic_add,
            A::Fmin | A::Fmax => self.image_float_atomic_min_max,
            A::Fcmpxchg => self.image_float_atomic_cmpxchg,
            _ => true,
        }
    }

    /// The tilings a storage image of `format` and `dim` may have on this device: what
    /// isl allows (`tiling::storage_tilings`) within the driver's policy
    /// ([`Device::storage_tilings`], [`Device::linear_1d_storage`]). Surfaces bound to
    /// lowered shaders must use one of these.
    pub fn storage_tilings_for(
        &self,
        format: tiling::Format,
        dim: tiling::SurfDim,
    ) -> Vec<tiling::Tiling> {
        tiling::storage_tilings(self.gen, format, dim)
            .into_iter()
            .filter(|t| {
                if dim == tiling::SurfDim::D1 && self.linear_1d_storage {
                    *t == tiling::Tiling::Linear
                } else {
                    self.storage_tilings.contains(t)
                }
            })
            .collect()
    }

    /// The tilings a multisampled storage image of `format` may have here, of any
    /// sample count: what isl allows for a multisampled 2D colour surface
    /// (`tiling::multisampled_tilings`: Y before Gfx12.5, Tile64 from it; isl keeps
    /// multisampled surfaces off linear, X and Tile4) within the driver's policy.
    pub fn multisampled_storage_tilings_for(&self, format: tiling::Format) -> Vec<tiling::Tiling> {
        let mut out: Vec<tiling::Tiling> = Vec::new();
        for samples in MULTISAMPLE_COUNTS {
            for t in tiling::multisampled_tilings(self.gen, format, samples) {
                if self.storage_tilings.contains(&t) && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Whether 3D surfaces use isl's GFX4_3D dimension layout (each level's slices
    /// side by side, the layout `isl_choose_dim_layout` picks for 3D before Gfx9), whose
    /// slice placement the untyped address code reads from the parameter block.
    pub fn gfx4_3d_layout(&self) -> bool {
        self.gen < Gen::Gfx9
    }

    /// The SIMD width of sampler messages: the untyped width capped at 16, the widest the
    /// vISA 3D_LOAD encoding lists (IGC `documentation/visa/instructions/3D_LOAD.md`,
    /// Exec_size).
    pub fn sampler_simd(&self) -> u32 {
        self.untyped_simd.min(16)
    }

    /// Ivy Bridge or Bay Trail (or older): the generation whose typed reads of R8/R16
    /// surfaces need masking and whose typed atomics need the null-surface guard
    /// (before Haswell; `docs/hardware/mesa-storage-images.md` §4, §8).
    pub fn is_gfx7_without_hsw(&self) -> bool {
        self.gen < Gen::Gfx75
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The sample counts of multisampled surfaces (`VkSampleCountFlagBits` 2 to 16).
pub const MULTISAMPLE_COUNTS: [u32; 4] = [2, 4, 8, 16];

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(n: &str) -> Device {
        Device::preset(n).unwrap()
    }

    #[test]
    fn generations_match_the_reference() {
        // docs/hardware/mesa-storage-images.md "Generations".
        let expect = [
            ("ivb", 70),
            ("byt", 70),
            ("hsw", 75),
            ("bdw", 80),
            ("skl", 90),
            ("icl", 110),
            ("tgl", 120),
            ("dg2", 125),
            ("mtl", 125),
            ("pvc", 125),
            ("lnl", 200),
            ("bmg", 200),
        ];
        for (n, v) in expect {
            assert_eq!(dev(n).verx10(), v, "{n}");
            assert_eq!(dev(n).name, n);
            assert_eq!(dev(n).has_lsc, v >= 125, "{n}");
        }
        assert_eq!(Device::presets().len(), 12);
        assert!(Device::preset("gfx13").is_none());
        assert_eq!(Device::preset("DG2").unwrap().name, "dg2");
    }

    #[test]
    fn every_platform_name_and_generation_is_a_device() {
        for p in Platform::ALL {
            let d = Device::for_platform(p);
            assert_eq!(d.gen, p.gen());
            assert_eq!(d.name, p.name());
            for a in p.aliases() {
                assert_eq!(Device::preset(a).as_ref(), Some(&d), "{a}");
            }
            // Parts of one generation differ only where the table says so.
            let first = Device::for_platform(p.gen().platform());
            if !matches!(p, Platform::Byt | Platform::Pvc) {
                assert_eq!(
                    Device {
                        name: first.name.clone(),
                        ..d
                    },
                    first,
                    "{p}"
                );
            }
        }
        // Generation numbers name the generation's first platform.
        assert_eq!(Device::preset("12.5").unwrap().name, "dg2");
        assert_eq!(Device::preset("gfx9").unwrap().name, "skl");
        assert_eq!(Device::preset("75").unwrap().name, "hsw");
        assert_eq!(
            dev("arl"),
            Device {
                name: "arl".into(),
                ..dev("mtl")
            }
        );
        // Gfx4-6 are devices (so that a driver or --target can name them), without
        // storage images.
        for n in ["i965", "g45", "ilk", "snb", "4", "5", "6"] {
            assert!(!dev(n).storage_images, "{n}");
        }
        assert!(Device::presets().iter().all(|d| d.storage_images));
        let custom = Device::new("part", Gen::Gfx12);
        assert_eq!(
            Device {
                name: "tgl".into(),
                ..custom
            },
            dev("tgl")
        );
    }

    #[test]
    fn simd_widths_per_lsc_md_section_10() {
        for n in [
            "ivb", "byt", "hsw", "bdw", "skl", "icl", "tgl", "dg2", "mtl",
        ] {
            assert_eq!(dev(n).typed_simd, 8, "{n}");
            assert_eq!(dev(n).untyped_simd, 16, "{n}");
            assert_eq!(dev(n).grf_bytes, 32, "{n}");
        }
        assert_eq!(dev("pvc").typed_simd, 16);
        assert_eq!(dev("pvc").untyped_simd, 32);
        assert_eq!(dev("pvc").grf_bytes, 64);
        for n in ["lnl", "bmg"] {
            assert_eq!(dev(n).typed_simd, 32);
            assert_eq!(dev(n).untyped_simd, 32);
            assert_eq!(dev(n).grf_bytes, 64);
        }
    }

    #[test]
    fn baytrail_and_swizzle() {
        assert!(dev("byt").is_baytrail);
        assert!(!dev("ivb").is_baytrail);
        let swz: Vec<_> = Device::presets()
            .into_iter()
            .filter(|d| d.may_have_bit6_swizzle)
            .map(|d| d.name)
            .collect();
        assert_eq!(swz, ["ivb", "hsw"]);
        assert!(dev("byt").is_gfx7_without_hsw());
        assert!(dev("ivb").is_gfx7_without_hsw());
        assert!(!dev("hsw").is_gfx7_without_hsw());
    }

    #[test]
    fn platform_classes() {
        let names = |f: fn(&Device) -> bool| -> Vec<String> {
            Device::presets()
                .into_iter()
                .filter(f)
                .map(|d| d.name)
                .collect()
        };
        // Xe-HPC is the one LSC part with 64-byte GRFs before Xe2: SIMD16 typed
        // messages, no 3D sampler.
        assert_eq!(names(|d| d.typed_simd_max == 16), ["pvc"]);
        assert_eq!(names(|d| !d.has_sampler), ["pvc"]);
        let max: Vec<u32> = ["dg2", "mtl", "pvc", "lnl", "bmg"]
            .iter()
            .map(|n| Device::preset(n).unwrap().typed_simd_max)
            .collect();
        assert_eq!(max, [8, 8, 16, 32, 32]);
        assert_eq!(names(|d| d.tgm_float_add), ["lnl", "bmg"]);
        assert_eq!(names(|d| d.narrow_data_zero_extended), ["lnl", "bmg"]);
        assert_eq!(names(|d| !d.volatile_bypasses_l3), ["lnl", "bmg"]);
        assert_eq!(dev("pvc").sampler_simd(), 16);
        assert_eq!(dev("dg2").sampler_simd(), 16);
    }

    #[test]
    fn atomics_and_blocks() {
        let with = |f: fn(&Device) -> bool| -> Vec<String> {
            Device::presets()
                .into_iter()
                .filter(f)
                .map(|d| d.name)
                .collect()
        };
        assert_eq!(with(|d| d.image_float_atomic_add), ["lnl", "bmg"]);
        assert_eq!(
            with(|d| d.image_float_atomic_min_max),
            ["dg2", "mtl", "pvc", "lnl", "bmg"]
        );
        assert_eq!(
            with(|d| d.image_int64_atomics),
            ["skl", "icl", "tgl", "dg2", "mtl", "pvc", "lnl", "bmg"]
        );
        assert_eq!(
            with(|d| d.has_a64),
            ["bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc", "lnl", "bmg"]
        );
        assert_eq!(with(|d| d.typed_block2d), ["lnl", "bmg"]);
        assert_eq!(with(|d| d.untyped_block2d), ["pvc", "lnl", "bmg"]);
        assert_eq!(with(|d| d.tgm_cache_control), ["lnl", "bmg"]);
        assert_eq!(dev("tgl").cache_control, CacheControlField::None);
        assert_eq!(dev("dg2").cache_control, CacheControlField::Bits3);
        assert_eq!(dev("bmg").cache_control, CacheControlField::Bits4);
    }
}
