//! Target devices: what the lowering needs to know about a GPU generation.
//!
//! A [`Device`] is plain data with public fields, so a driver can describe a part field by
//! field; [`Device::preset`] gives the platforms the project knows by name. Every number
//! below names its source: `image-lowering.md` and `lsc.md` are the project's reference
//! files (`shared/reference/`), the Mesa and IGC files are the ones those references read.

use std::fmt;

/// Cache-control field of the LSC message descriptor.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CacheControlField {
    /// No LSC: legacy data-port messages carry no L1/L3 cache controls.
    None,
    /// Three bits in desc\[19:17\] (DG2, MTL, ARL, PVC; lsc.md §9, §11).
    Bits3,
    /// Four bits in desc\[19:16\] (Xe2 and later; lsc.md §9, §11).
    Bits4,
}

/// A GPU as the lowering sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Device {
    /// Platform name used in diagnostics (`dg2`, `ivb`, ...).
    pub name: String,
    /// Generation times ten, as Mesa's `devinfo->verx10`: 70 IVB/BYT, 75 HSW, 80 BDW,
    /// 90 SKL, 110 ICL, 120 TGL, 125 DG2/MTL/PVC, 200 LNL/BMG (image-lowering.md
    /// "Generations").
    pub verx10: u32,
    /// Whether this is Bay Trail (VLV). Mesa's IVB-only checks are written
    /// `ver < 8 && !BYT` (image-lowering.md §6, §7).
    pub is_baytrail: bool,
    /// Whether LSC messages exist (verx10 >= 125; image-lowering.md "Generations",
    /// lsc.md §1).
    pub has_lsc: bool,
    /// SIMD width of one typed (TGM) message.
    pub typed_simd: u32,
    /// SIMD width of one untyped surface/UGM message.
    pub untyped_simd: u32,
    /// Bytes in one general register.
    pub grf_bytes: u32,
    /// Whether surfaces may be bit-6 swizzled, so that untyped tiled addressing must
    /// XOR bit 6: IVB and HSW only (`ver < 8 && !BYT`; image-lowering.md §6, §7;
    /// tiling.md §6).
    pub may_have_bit6_swizzle: bool,
    /// Typed image `fadd` (LSC FADD on TGM).
    pub image_float_atomic_add: bool,
    /// Typed image `fmin`/`fmax` (LSC FMIN/FMAX on TGM).
    pub image_float_atomic_min_max: bool,
    /// Typed image `fcmpxchg` (LSC FCAS on TGM).
    pub image_float_atomic_cmpxchg: bool,
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
    /// The names [`Device::preset`] knows.
    pub const PRESET_NAMES: [&'static str; 12] = [
        "ivb", "byt", "hsw", "bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc", "lnl", "bmg",
    ];

    /// The platform called `name` (case-insensitive), or `None`.
    pub fn preset(name: &str) -> Option<Device> {
        let name = name.to_ascii_lowercase();
        let verx10 = match name.as_str() {
            "ivb" | "byt" => 70,
            "hsw" => 75,
            "bdw" => 80,
            "skl" => 90,
            "icl" => 110,
            "tgl" => 120,
            "dg2" | "mtl" | "pvc" => 125,
            "lnl" | "bmg" => 200,
            _ => return None,
        };
        let is_pvc = name == "pvc";
        let is_baytrail = name == "byt";
        let xe2 = verx10 >= 200;
        let has_lsc = verx10 >= 125;
        Some(Device {
            // Typed messages: Mesa splits them to SIMD8 whenever ver < 20
            // (brw_lower_simd_width.cpp, MEMORY_MODE_TYPED; legacy typed surface
            // messages are SIMD8 too). IGC's maxima are DG2/MTL 8, PVC 16, Xe2 32
            // (lsc.md §10); PVC takes IGC's figure since Mesa has no PVC driver.
            typed_simd: if xe2 {
                32
            } else if is_pvc {
                16
            } else {
                8
            },
            // Untyped: Mesa caps memory messages at SIMD16 when ver < 20
            // (brw_lower_simd_width.cpp); PVC's native UGM width is SIMD32 (lsc.md §10,
            // older vISA docs), Xe2 does not split (SIMD32).
            untyped_simd: if xe2 || is_pvc { 32 } else { 16 },
            // 32-byte GRFs up to DG2/MTL, 64-byte on PVC and Xe2 (lsc.md §1).
            grf_bytes: if xe2 || is_pvc { 64 } else { 32 },
            may_have_bit6_swizzle: verx10 < 80 && !is_baytrail,
            // Float image atomics follow anv's exposure (image-lowering.md §8, anv
            // `anv_physical_device.c`) where the hardware could do more:
            // - fadd: `shaderImageFloat32AtomicAdd = (ver >= 20)`; TGM fadd exists
            //   from Xe2 only (lsc.md §1, §13.6; IGC's verifier agrees).
            // - fmin/fmax and fcas: LSC defines them on every SFID including TGM
            //   (lsc.md §2), and Mesa 24.3+ maps NIR fmin/fmax/fcmpxchg to them; the
            //   legacy typed atomic messages have no float operations, so they are
            //   offered on LSC parts only. (anv reports
            //   `shaderImageFloat32AtomicMinMax = false`; a driver that wants that
            //   behaviour clears the field.)
            image_float_atomic_add: xe2,
            image_float_atomic_min_max: has_lsc,
            image_float_atomic_cmpxchg: has_lsc,
            // anv (Gfx9+) sets `shaderImageInt64Atomics = true` and lowers them to A64
            // global atomics (image-lowering.md §9); hasvk (Gfx7/8) exposes neither
            // VK_EXT_shader_image_atomic_int64 nor `shaderBufferInt64Atomics`
            // (mesa `src/intel/vulkan_hasvk/anv_device.c`).
            image_int64_atomics: verx10 >= 90,
            has_a64: verx10 >= 80,
            // Typed block2d: Xe2+ only; untyped block2d: PVC and Xe2+, not DG2/MTL
            // (lsc.md §1, §8).
            typed_block2d: xe2,
            untyped_block2d: xe2 || is_pvc,
            // desc[19:17] before Xe2, desc[19:16] from Xe2 (lsc.md §9, §11).
            cache_control: if xe2 {
                CacheControlField::Bits4
            } else if has_lsc {
                CacheControlField::Bits3
            } else {
                CacheControlField::None
            },
            // IGC's verifier: before Xe2 TGM (and UGML) must use df/df (lsc.md §9).
            tgm_cache_control: xe2,
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
            name,
            verx10,
            is_baytrail,
            has_lsc,
        })
    }

    /// Every preset, in [`Device::PRESET_NAMES`] order.
    pub fn presets() -> Vec<Device> {
        Device::PRESET_NAMES
            .iter()
            .filter_map(|n| Device::preset(n))
            .collect()
    }

    /// The major generation (`verx10 / 10`, Mesa's `devinfo->ver`).
    pub fn ver(&self) -> u32 {
        self.verx10 / 10
    }

    /// The tilings a storage image of `format` and `dim` may have on this device: what
    /// isl allows (`tiling::storage_tilings`) within the driver's policy
    /// ([`Device::storage_tilings`], [`Device::linear_1d_storage`]). Surfaces bound to
    /// lowered shaders must use one of these. Empty if the device has no tiling crate
    /// generation.
    pub fn storage_tilings_for(
        &self,
        format: tiling::Format,
        dim: tiling::SurfDim,
    ) -> Vec<tiling::Tiling> {
        let Some(gen) = tiling::Gen::from_verx10(self.verx10) else {
            return Vec::new();
        };
        tiling::storage_tilings(gen, format, dim)
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

    /// Whether this is Xe2 or later (4-bit cache controls, TGM float add).
    pub fn is_xe2(&self) -> bool {
        self.verx10 >= 200
    }

    /// Whether this is Xe-HPC (Ponte Vecchio): an LSC part with 64-byte GRFs before Xe2.
    /// It has SIMD16 typed messages and no 3D sampler.
    pub fn is_xe_hpc(&self) -> bool {
        self.has_lsc && !self.is_xe2() && self.grf_bytes == 64
    }

    /// The widest typed message the hardware takes: SIMD8 on DG2/MTL/ARL, SIMD16 on
    /// PVC, SIMD32 on Xe2+.
    pub fn typed_simd_max(&self) -> u32 {
        if self.is_xe2() {
            32
        } else if self.is_xe_hpc() {
            16
        } else {
            8
        }
    }

    /// Whether the platform has a 3D sampler. IGC's `Platform.hpp` (`hasSamplerSupport`)
    /// gives Xe-HPC none.
    pub fn has_sampler(&self) -> bool {
        !self.is_xe_hpc()
    }

    /// The SIMD width of sampler messages: the untyped width capped at 16, the widest the
    /// vISA 3D_LOAD encoding lists (`visa-3d-load.md`, Exec_size).
    pub fn sampler_simd(&self) -> u32 {
        self.untyped_simd.min(16)
    }

    /// Ivy Bridge or Bay Trail: the generation whose typed reads of R8/R16 surfaces
    /// need masking and whose typed atomics need the null-surface guard
    /// (verx10 < 75; image-lowering.md §4, §8).
    pub fn is_gfx7_without_hsw(&self) -> bool {
        self.verx10 < 75
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(n: &str) -> Device {
        Device::preset(n).unwrap()
    }

    #[test]
    fn generations_match_the_reference() {
        // image-lowering.md "Generations".
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
            assert_eq!(dev(n).verx10, v, "{n}");
            assert_eq!(dev(n).name, n);
            assert_eq!(dev(n).has_lsc, v >= 125, "{n}");
        }
        assert_eq!(Device::presets().len(), 12);
        assert!(Device::preset("gfx13").is_none());
        assert_eq!(Device::preset("DG2").unwrap().name, "dg2");
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
        assert_eq!(names(Device::is_xe_hpc), ["pvc"]);
        assert_eq!(names(|d| !d.has_sampler()), ["pvc"]);
        let max: Vec<u32> = ["dg2", "mtl", "pvc", "lnl", "bmg"]
            .iter()
            .map(|n| Device::preset(n).unwrap().typed_simd_max())
            .collect();
        assert_eq!(max, [8, 8, 16, 32, 32]);
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
