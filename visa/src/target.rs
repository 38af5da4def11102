//! The platform as the back end sees it: the kernel's SIMD width, the register size, the
//! message widths of the lowering's legality table (LSC from Gfx12.5, the legacy data
//! port's on Gfx8 to Gfx12.0), and the ALU facts of IGC's vISA finalizer for the
//! platform. Gfx7 and earlier have no finalizer platform.
//!
//! The message widths and the register size come from [`lowering::Device`] (the one
//! platform table); this module adds what only the vISA back end needs, each fact with
//! its source in IGC (`visa/HWCaps.inc`, the vISA verifier messages of GenX_IR
//! 1.0.12504).

use crate::error::{EmitError, EmitErrorKind};
use lowering::Device;
use tiling::Gen;

/// Options of the back end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The kernel's SIMD width when the shader fixes no `subgroup_size`; `None` leaves
    /// it free: brw's choice among the widths that fit ([`crate::candidate_widths`],
    /// [`crate::emit_kernel`]).
    pub simd: Option<u32>,
    /// Emit the kernel at the given width even where the pressure model says its live
    /// values overflow the registers (in the 128-register mode), leaving the finalizer
    /// to spill: what [`crate::emit_kernel`] does at the narrowest width when no width
    /// fits, and what measuring the model against GenX_IR's spill reports needs at any.
    pub unchecked_pressure: bool,
    /// Refuse a kernel that would spill ([`crate::EmitErrorKind::RegisterPressure`])
    /// rather than leave the spill to the finalizer.
    pub forbid_spills: bool,
}

impl Options {
    /// Options with the kernel SIMD width `simd` for shaders that fix no subgroup size.
    pub fn with_simd(simd: u32) -> Options {
        Options {
            simd: Some(simd),
            ..Options::default()
        }
    }

    /// These options with spills forbidden ([`Options::forbid_spills`]).
    pub fn without_spills(self) -> Options {
        Options {
            forbid_spills: true,
            ..self
        }
    }
}

/// The GPU family of a device, as far as vISA emission differs between them.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Family {
    /// Broadwell (Gfx8): legacy data-port messages, SIMD8 A64 messages, FP64.
    Bdw,
    /// Sky Lake and its refreshes (Gfx9): legacy data-port messages, float atomics,
    /// FP64.
    Skl,
    /// Ice Lake (Gfx11): legacy data-port messages, no FP64, SLM fences of their own.
    Icl,
    /// Tiger Lake and the other Gfx12.0 parts: legacy data-port messages, 16-bit
    /// atomics, no FP64.
    Tgl,
    /// DG2 (Alchemist) and its relatives with 32-byte registers and no FP64.
    Dg2,
    /// Meteor Lake: DG2's messages, with FP64.
    Mtl,
    /// Ponte Vecchio: 64-byte registers, SIMD16 typed messages, untyped 2D blocks.
    Pvc,
    /// Xe2 (Lunar Lake, Battlemage): emitted, but GenX_IR 1.0.12504 predates it.
    Xe2,
}

/// What the back end knows about the platform and the kernel it emits.
#[derive(Clone, Debug)]
pub struct Target {
    /// The platform's name (for messages).
    pub platform: String,
    /// The family.
    pub family: Family,
    /// The kernel's SIMD width: the lanes of one hardware thread.
    pub simd: u32,
    /// Bytes per general register.
    pub grf: u32,
    /// Lanes of one typed (`.tgm`) message.
    pub typed_simd: u32,
    /// Lanes of one untyped (`.ugm`, `.slm`) message.
    pub untyped_simd: u32,
    /// Lanes of one sampler message.
    pub sampler_simd: u32,
    /// Whether the ALU has 64-bit floats. IGC `HWCaps.inc` `noFP64()`: ICL, TGL and DG2
    /// have none.
    pub fp64: bool,
    /// Whether vISA `divm` (the IEEE divide macro) exists: GenX_IR rejects it on DG2 and
    /// MTL ("IEEE instruction divm is not supported on DG2 platform") and takes it on PVC.
    pub divm: bool,
    /// Whether vISA `sqrtm` (the IEEE square root macro) exists, and `sqrt` takes `df`
    /// operands: GenX_IR rejects both on DG2 and MTL ("IEEE instruction sqrtm is not
    /// supported on MTL platform") and takes them on PVC.
    pub sqrtm: bool,
    /// Whether the math unit divides integers (`INT DIV`: vISA `div`/`mod` on `ud`,
    /// which GenX_IR compiles to `math.iqot`/`math.irem`): Gfx8 to Gfx12.0, as brw
    /// emits `SHADER_OPCODE_INT_QUOTIENT` there. Gfx12.5 dropped it ("int
    /// divide/remainder is not supported for this platform").
    pub int_div: bool,
    /// The `-platform` name of GenX_IR, if GenX_IR 1.0.12504 knows the platform.
    pub genx_platform: Option<&'static str>,
    /// The legacy data port the kernel's messages go to (Gfx8 to Gfx12.0); `None` where
    /// they are LSC messages.
    pub dataport: Option<lowering::messages::dataport::DataportCaps>,
}

impl Family {
    /// Whether the ALU has the three-source `add3` (and `bfn`): Gfx12.5 and later
    /// (IGC's `hasAdd3Bfn()`, which emulates `add3` with two `add`s before). GenX_IR
    /// 1.0.12504 encodes an `add3` for TGLLP all the same, into an instruction its own
    /// disassembler calls "INVALID opcode add3".
    pub fn has_add3(self) -> bool {
        self.has_lsc()
    }

    /// Whether the ALU multiplies two dwords in one instruction per register's lanes:
    /// Gfx8 and Gfx9 (brw's `has_integer_dword_mul`) and PVC. GenX_IR expands a `ud`
    /// × `ud` `mul` into a `mul` and a `mach` per eight lanes on ICL, TGL, DG2 and MTL.
    pub fn has_dword_mul(self) -> bool {
        matches!(self, Family::Bdw | Family::Skl | Family::Pvc)
    }

    /// Whether the ALU computes on 64-bit integers: Gfx8 and Gfx9 (Mesa's
    /// `has_64bit_int`; Gfx11 and Gfx12 dropped them).
    pub fn has_int64(self) -> bool {
        matches!(self, Family::Bdw | Family::Skl)
    }

    /// Whether the family's messages are LSC messages (Gfx12.5 and later).
    pub fn has_lsc(self) -> bool {
        matches!(self, Family::Dg2 | Family::Mtl | Family::Pvc | Family::Xe2)
    }
}

/// The SIMD widths a family dispatches: PVC and Xe2 have no SIMD8 compute dispatch
/// (IGC compiles their kernels at SIMD16 or SIMD32).
pub fn dispatch_widths(family: Family) -> &'static [u32] {
    match family {
        Family::Pvc | Family::Xe2 => &[16, 32],
        _ => &[8, 16, 32],
    }
}

/// The GenX_IR `-platform` name of a Gfx8-12.0 device: the Atom parts have their own
/// (`CHV`, `BXT`), the others the generation's first part.
fn legacy_genx_platform(device: &Device) -> &'static str {
    match (device.gen, device.name.as_str()) {
        (Gen::Gfx8, "chv") => "CHV",
        (Gen::Gfx8, _) => "BDW",
        (Gen::Gfx9, "bxt" | "glk") => "BXT",
        (Gen::Gfx9, _) => "SKL",
        (Gen::Gfx11, _) => "ICLLP",
        _ => "TGLLP",
    }
}

impl Target {
    /// The target for `device`, with the kernel's SIMD width taken from the shader's
    /// `subgroup_size` (the SIMD width block messages spread their data over), else from
    /// `options`, else 16.
    pub fn new(
        device: &Device,
        subgroup_size: Option<u32>,
        options: &Options,
    ) -> Result<Target, EmitError> {
        let err = |kind| Err(EmitError::shader(kind, &device.name));
        if device.gen < Gen::Gfx8 {
            // GenX_IR 1.0.12504 lists BDW, CHV, SKL, BXT, ICLLP, TGLLP, XeHP_SDV, DG2,
            // MTL, PVC: nothing older.
            return err(EmitErrorKind::NoFinalizerPlatform { gen: device.gen });
        }
        let dataport = if device.has_lsc {
            None
        } else {
            Some(device.dataport.ok_or_else(|| {
                EmitError::shader(
                    EmitErrorKind::Platform {
                        reason: format!(
                            "{} has neither LSC nor legacy data-port messages",
                            device.name
                        ),
                    },
                    &device.name,
                )
            })?)
        };
        // Among Gfx12.5 parts, Ponte Vecchio is the one with 64-byte registers; Meteor
        // Lake and Arrow Lake (Xe-LPG) differ from DG2 in the ALU (they have fp64).
        let family = if !device.has_lsc {
            match device.gen {
                Gen::Gfx8 => Family::Bdw,
                Gen::Gfx9 => Family::Skl,
                Gen::Gfx11 => Family::Icl,
                _ => Family::Tgl,
            }
        } else if device.gen >= Gen::Gfx20 {
            Family::Xe2
        } else if device.grf_bytes == 64 {
            Family::Pvc
        } else if matches!(device.name.as_str(), "mtl" | "arl") {
            Family::Mtl
        } else {
            Family::Dg2
        };
        let simd = subgroup_size.or(options.simd).unwrap_or(16);
        let allowed = dispatch_widths(family);
        if !allowed.contains(&simd) {
            return err(EmitErrorKind::SimdWidth { simd, allowed });
        }
        if device.typed_simd > device.typed_simd_max || device.untyped_simd == 0 {
            return err(EmitErrorKind::Platform {
                reason: format!(
                    "{} asks for SIMD{} typed messages; the hardware takes at most SIMD{}",
                    device.name, device.typed_simd, device.typed_simd_max
                ),
            });
        }
        Ok(Target {
            platform: device.name.clone(),
            family,
            simd,
            grf: device.grf_bytes,
            typed_simd: device.typed_simd,
            untyped_simd: device.untyped_simd,
            sampler_simd: device.sampler_simd(),
            // IGC `HWCaps.inc` `noFP64()`: ICL, the Xe-LP parts (TGL) and DG2.
            fp64: !matches!(family, Family::Dg2 | Family::Icl | Family::Tgl),
            // GenX_IR takes the IEEE divide and square root macros where the hardware
            // has them (BDW, SKL, PVC): "IEEE instruction divm/sqrtm is not supported
            // on ICLLP/TGLLP/DG2/MTL platform".
            divm: matches!(
                family,
                Family::Bdw | Family::Skl | Family::Pvc | Family::Xe2
            ),
            sqrtm: matches!(
                family,
                Family::Bdw | Family::Skl | Family::Pvc | Family::Xe2
            ),
            int_div: !device.has_lsc,
            genx_platform: match family {
                Family::Dg2 => Some("DG2"),
                Family::Mtl => Some("MTL"),
                Family::Pvc => Some("PVC"),
                Family::Xe2 => None,
                _ => Some(legacy_genx_platform(device)),
            },
            dataport,
        })
    }

    /// Bytes one component of a SIMT value of `elem_bytes`-byte elements occupies: the
    /// kernel's lanes, rounded up to whole registers (every component of a message
    /// payload starts a register, IGC `LSC_UNTYPED.md`).
    pub fn comp_bytes(&self, elem_bytes: u32) -> u32 {
        (self.simd * elem_bytes).div_ceil(self.grf) * self.grf
    }
}

/// The GenX_IR `-platform` name of a device, if GenX_IR 1.0.12504 knows it (BDW, CHV,
/// SKL, BXT, ICLLP, TGLLP, DG2, MTL, PVC); `None` for Xe2 and before Gfx8.
pub fn genx_platform(device: &Device) -> Option<&'static str> {
    Target::new(device, None, &Options::default())
        .ok()
        .and_then(|t| t.genx_platform)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(n: &str) -> Device {
        Device::preset(n).unwrap()
    }

    #[test]
    fn families_and_widths() {
        let t = Target::new(&dev("dg2"), None, &Options::default()).unwrap();
        assert_eq!(
            (t.family, t.simd, t.grf, t.fp64, t.divm),
            (Family::Dg2, 16, 32, false, false)
        );
        let t = Target::new(&dev("mtl"), Some(8), &Options::default()).unwrap();
        assert_eq!((t.family, t.simd, t.fp64), (Family::Mtl, 8, true));
        let t = Target::new(&dev("pvc"), None, &Options::with_simd(32)).unwrap();
        assert_eq!(
            (t.family, t.simd, t.grf, t.divm, t.sqrtm),
            (Family::Pvc, 32, 64, true, true)
        );
        assert_eq!(t.genx_platform, Some("PVC"));
        let m = Target::new(&dev("mtl"), None, &Options::default()).unwrap();
        assert_eq!((m.fp64, m.divm, m.sqrtm), (true, false, false));
        assert_eq!(genx_platform(&dev("bmg")), None);
        let e = Target::new(&dev("pvc"), Some(8), &Options::default()).unwrap_err();
        assert!(matches!(*e.kind, EmitErrorKind::SimdWidth { simd: 8, .. }));
        // Gfx8 to Gfx12.0: the legacy data port, GenX_IR's names for the platforms.
        for (name, family, genx, fp64) in [
            ("bdw", Family::Bdw, "BDW", true),
            ("chv", Family::Bdw, "CHV", true),
            ("skl", Family::Skl, "SKL", true),
            ("glk", Family::Skl, "BXT", true),
            ("icl", Family::Icl, "ICLLP", false),
            ("tgl", Family::Tgl, "TGLLP", false),
            ("adl", Family::Tgl, "TGLLP", false),
        ] {
            let t = Target::new(&dev(name), Some(8), &Options::default()).unwrap();
            assert_eq!(
                (t.family, t.genx_platform, t.fp64),
                (family, Some(genx), fp64)
            );
            assert!(t.dataport.is_some() && !t.family.has_lsc(), "{name}");
        }
        // Gfx7: no finalizer platform.
        for name in ["ivb", "byt", "hsw"] {
            let e = Target::new(&dev(name), None, &Options::default()).unwrap_err();
            assert!(
                matches!(*e.kind, EmitErrorKind::NoFinalizerPlatform { .. }),
                "{e}"
            );
            assert!(
                e.to_string()
                    .contains("has no vISA target: IGC's vISA finalizer (GenX_IR) knows no platform before Broadwell"),
                "{e}"
            );
        }
    }

    #[test]
    fn components_start_registers() {
        let dg2 = Target::new(&dev("dg2"), None, &Options::default()).unwrap();
        assert_eq!(dg2.comp_bytes(4), 64);
        assert_eq!(dg2.comp_bytes(1), 32);
        assert_eq!(dg2.comp_bytes(8), 128);
        let pvc = Target::new(&dev("pvc"), None, &Options::default()).unwrap();
        assert_eq!(pvc.comp_bytes(2), 64);
        assert_eq!(pvc.comp_bytes(8), 128);
    }
}
