//! The legality table of legacy data-port messages: which messages, address models,
//! atomics and SIMD widths each generation takes.
//!
//! | message | models | SIMD | generations |
//! | --- | --- | --- | --- |
//! | typed read/write, any channel mask | surface | 8 | Gfx7+ |
//! | typed atomic, integer ops, 32-bit | surface | 8 | Gfx7+ (16-bit Gfx12) |
//! | untyped read/write, any channel mask | bti, slm | 8, 16 | Gfx7+ |
//! | untyped read/write | a64 | 8 (Gfx8), 8/16 (Gfx9+) | Gfx8+ |
//! | untyped atomic, integer ops, 32-bit | bti, slm | 8, 16 | Gfx7+ (16-bit but `cmpwr` Gfx12) |
//! | untyped atomic, `fmax`/`fmin`/`fcmpwr` 32-bit | bti, slm | 8, 16 | Gfx9+ |
//! | A64 atomic, integer 32/64-bit, float 32-bit | a64 | 8 | Gfx8+ (float Gfx9+, 16-bit Gfx12) |
//! | byte scattered 1, 2, 4 bytes | bti, slm | 8, 16 | Gfx7.5+ |
//! | byte scattered 1, 2, 4 bytes | a64 | 8 (Gfx8), 8/16 | Gfx8+ |
//! | byte scattered 8 bytes | a64 | as above | Gfx8 to Gfx11 |
//! | dword scattered | bti | 8, 16 | Gfx7+ |
//!
//! Sources: Mesa's `brw_eu.h`/`elk_eu.h` descriptor encoders (which assert the widths
//! and sizes they take) and `brw_lower_simd_width.cpp` (typed messages split to SIMD8,
//! untyped and scattered ones to SIMD16, A64 to SIMD8 on Gfx8, A64 atomics to SIMD8);
//! IGC's `HWCaps.inc` for 8-byte A64 gathers and float atomics. The project leaves out
//! what vISA cannot say: 16-bit float and 16-bit `cmpwr` atomics on surfaces and SLM
//! (IGC's vISA verifier rejects `dword_atomic .16` with float operations and with
//! `cmpxchg`), the SIMD4x2 forms, `revsub` and `predec`. Dword scattered messages take `bti` only: IGC's
//! finalizer turns a dword gather on SLM into an untyped surface read.

use super::caps::DataportCaps;
use super::rule::DataportRule;
use ir::dataport::{DpAddr, DpAtomicOp, DpDesc, DpMsg};

/// Checks the fields of data-port message `d` on a generation with `caps`;
/// `platform` names it in errors.
pub fn check_dataport(caps: &DataportCaps, platform: &str, d: &DpDesc) -> Result<(), DataportRule> {
    let name = || platform.to_string();
    let untyped = !d.msg.is_typed();
    if untyped && d.addr == DpAddr::A64 && !caps.a64 {
        return Err(DataportRule::NoA64 {
            platform: name(),
            msg: d.msg,
        });
    }
    match d.msg {
        DpMsg::TypedAtomic => {
            if d.op.is_float() {
                return Err(DataportRule::TypedFloatAtomic { op: d.op });
            }
            check_bits(caps, platform, d, &[16, 32])?;
        }
        DpMsg::UntypedAtomic => {
            if d.op.is_float() && !caps.float_atomics {
                return Err(DataportRule::NoFloatAtomics {
                    platform: name(),
                    op: d.op,
                });
            }
            let widths: &[u8] = match (d.addr, d.op.is_float()) {
                (DpAddr::A64, false) => &[16, 32, 64],
                (DpAddr::A64, true) => &[16, 32],
                // 16-bit integer atomics on surfaces and SLM (Gfx12), except cmpwr.
                (_, false) if d.op != DpAtomicOp::Cmpwr => &[16, 32],
                (_, _) => &[32],
            };
            check_bits(caps, platform, d, widths)?;
        }
        DpMsg::ByteScatteredRead | DpMsg::ByteScatteredWrite => {
            if d.addr != DpAddr::A64 && !caps.byte_scattered {
                return Err(DataportRule::NoByteScattered { platform: name() });
            }
            if d.bytes == 8 && (d.addr != DpAddr::A64 || !caps.a64_byte8) {
                return Err(DataportRule::ByteScatteredEight {
                    platform: name(),
                    addr: d.addr,
                });
            }
        }
        DpMsg::DwordScatteredRead | DpMsg::DwordScatteredWrite => {
            if d.addr != DpAddr::Bti {
                return Err(DataportRule::DwordScatteredAddr { addr: d.addr });
            }
        }
        DpMsg::TypedRead | DpMsg::TypedWrite | DpMsg::UntypedRead | DpMsg::UntypedWrite => {}
    }
    Ok(())
}

fn check_bits(
    caps: &DataportCaps,
    platform: &str,
    d: &DpDesc,
    widths: &[u8],
) -> Result<(), DataportRule> {
    if !widths.contains(&d.bits) {
        return Err(DataportRule::AtomicBits {
            msg: d.msg,
            addr: d.addr,
            op: d.op,
            bits: d.bits,
        });
    }
    if d.bits == 16 && !caps.half_atomics {
        return Err(DataportRule::NoHalfAtomics {
            platform: platform.to_string(),
        });
    }
    Ok(())
}

/// The SIMD widths message `d` takes on a generation with `caps`, narrowest first.
/// A wider kernel sends one message per group of lanes.
pub fn simd_widths(caps: &DataportCaps, d: &DpDesc) -> &'static [u32] {
    match d.msg {
        DpMsg::TypedRead | DpMsg::TypedWrite | DpMsg::TypedAtomic => &[8],
        DpMsg::UntypedAtomic if d.addr == DpAddr::A64 => &[8],
        _ if d.addr == DpAddr::A64 && !caps.a64_simd16 => &[8],
        _ => &[8, 16],
    }
}

/// The widest SIMD width message `d` takes (see [`simd_widths`]).
pub fn max_simd(caps: &DataportCaps, d: &DpDesc) -> u32 {
    simd_widths(caps, d).last().copied().unwrap_or(8)
}

/// Checks that message `d` takes SIMD width `exec_size` (see [`simd_widths`]).
pub fn check_simd(
    caps: &DataportCaps,
    platform: &str,
    d: &DpDesc,
    exec_size: u32,
) -> Result<(), DataportRule> {
    let allowed = simd_widths(caps, d);
    if allowed.contains(&exec_size) {
        Ok(())
    } else {
        Err(DataportRule::SimdWidth {
            platform: platform.to_string(),
            msg: d.msg,
            exec_size,
            allowed: allowed.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::dataport::DpAtomicOp;
    use tiling::Gen;

    fn caps(g: Gen) -> DataportCaps {
        DataportCaps::for_gen(g).unwrap()
    }

    fn ok(g: Gen, d: DpDesc) -> bool {
        check_dataport(&caps(g), "p", &d).is_ok()
    }

    #[test]
    fn a64_from_gfx8() {
        let d = DpDesc::untyped_read(DpAddr::A64, 0xf);
        assert!(!ok(Gen::Gfx7, d));
        assert!(!ok(Gen::Gfx75, d));
        for g in [Gen::Gfx8, Gen::Gfx9, Gen::Gfx11, Gen::Gfx12] {
            assert!(ok(g, d), "{g:?}");
        }
        assert_eq!(
            check_dataport(&caps(Gen::Gfx7), "ivb", &d)
                .unwrap_err()
                .to_string(),
            "ivb has no A64 messages (@dp_untyped_read with dp_addr=a64): 64-bit stateless addresses arrive with Gfx8 (Broadwell)"
        );
        // Surfaces and SLM are every generation's.
        assert!(ok(Gen::Gfx7, DpDesc::untyped_read(DpAddr::Slm, 0b11)));
    }

    #[test]
    fn atomics_per_generation() {
        let f = |addr, op, bits| DpDesc::untyped_atomic(addr, op, bits);
        // Integer 32-bit everywhere; float from Gfx9.
        assert!(ok(Gen::Gfx7, f(DpAddr::Bti, DpAtomicOp::Cmpwr, 32)));
        assert!(!ok(Gen::Gfx8, f(DpAddr::Bti, DpAtomicOp::Fmax, 32)));
        assert!(ok(Gen::Gfx9, f(DpAddr::Bti, DpAtomicOp::Fmax, 32)));
        assert!(!ok(Gen::Gfx8, f(DpAddr::A64, DpAtomicOp::Fcmpwr, 32)));
        assert!(ok(Gen::Gfx9, f(DpAddr::A64, DpAtomicOp::Fcmpwr, 32)));
        // 64-bit on A64 only, integer only.
        assert!(ok(Gen::Gfx8, f(DpAddr::A64, DpAtomicOp::Umax, 64)));
        assert!(!ok(Gen::Gfx12, f(DpAddr::Bti, DpAtomicOp::Umax, 64)));
        assert!(!ok(Gen::Gfx12, f(DpAddr::A64, DpAtomicOp::Fmin, 64)));
        // 16-bit on Gfx12, A64 and typed only.
        assert!(!ok(Gen::Gfx11, f(DpAddr::A64, DpAtomicOp::Add, 16)));
        assert!(ok(Gen::Gfx12, f(DpAddr::A64, DpAtomicOp::Add, 16)));
        assert!(ok(Gen::Gfx12, f(DpAddr::A64, DpAtomicOp::Fmax, 16)));
        assert!(ok(Gen::Gfx12, f(DpAddr::Slm, DpAtomicOp::Add, 16)));
        assert!(!ok(Gen::Gfx11, f(DpAddr::Slm, DpAtomicOp::Add, 16)));
        assert!(!ok(Gen::Gfx12, f(DpAddr::Bti, DpAtomicOp::Cmpwr, 16)));
        assert!(!ok(Gen::Gfx12, f(DpAddr::Bti, DpAtomicOp::Fmax, 16)));
        assert!(ok(Gen::Gfx12, DpDesc::typed_atomic(DpAtomicOp::Inc, 16)));
        assert!(!ok(Gen::Gfx11, DpDesc::typed_atomic(DpAtomicOp::Inc, 16)));
        assert!(!ok(Gen::Gfx12, DpDesc::typed_atomic(DpAtomicOp::Inc, 64)));
        assert_eq!(
            check_dataport(
                &caps(Gen::Gfx12),
                "tgl",
                &DpDesc::typed_atomic(DpAtomicOp::Fmin, 32)
            )
            .unwrap_err()
            .to_string(),
            "typed atomics are integer operations, found dp_op=fmin"
        );
        assert_eq!(
            check_dataport(
                &caps(Gen::Gfx12),
                "tgl",
                &f(DpAddr::Slm, DpAtomicOp::Add, 64)
            )
            .unwrap_err()
            .to_string(),
            "untyped integer atomics on dp_addr=slm are 32-bit (16-bit from Gfx12), found dp_bits=64"
        );
    }

    #[test]
    fn scattered() {
        let b = DpDesc::byte_scattered_read;
        assert!(!ok(Gen::Gfx7, b(DpAddr::Bti, 1)));
        assert!(ok(Gen::Gfx75, b(DpAddr::Bti, 2)));
        assert!(ok(Gen::Gfx75, b(DpAddr::Slm, 4)));
        assert!(!ok(Gen::Gfx75, b(DpAddr::Slm, 8)));
        assert!(ok(Gen::Gfx8, b(DpAddr::A64, 8)));
        assert!(ok(Gen::Gfx11, b(DpAddr::A64, 8)));
        assert!(!ok(Gen::Gfx12, b(DpAddr::A64, 8)));
        assert!(ok(Gen::Gfx12, b(DpAddr::A64, 4)));
        assert!(ok(Gen::Gfx7, DpDesc::dword_scattered_write(DpAddr::Bti)));
        assert!(!ok(Gen::Gfx9, DpDesc::dword_scattered_write(DpAddr::Slm)));
        assert!(!ok(Gen::Gfx9, DpDesc::dword_scattered_read(DpAddr::A64)));
    }

    #[test]
    fn simd() {
        let c = |g| caps(g);
        let t = DpDesc::typed_write(0xf);
        assert_eq!(simd_widths(&c(Gen::Gfx12), &t), [8]);
        let a = DpDesc::untyped_read(DpAddr::A64, 1);
        assert_eq!(simd_widths(&c(Gen::Gfx8), &a), [8]);
        assert_eq!(simd_widths(&c(Gen::Gfx9), &a), [8, 16]);
        let at = DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Add, 32);
        assert_eq!(max_simd(&c(Gen::Gfx12), &at), 8);
        let s = DpDesc::untyped_atomic(DpAddr::Slm, DpAtomicOp::Add, 32);
        assert_eq!(max_simd(&c(Gen::Gfx7), &s), 16);
        assert!(check_simd(&c(Gen::Gfx9), "skl", &s, 16).is_ok());
        assert_eq!(
            check_simd(&c(Gen::Gfx9), "skl", &t, 16)
                .unwrap_err()
                .to_string(),
            "@dp_typed_write on skl takes SIMD8, not SIMD16"
        );
        assert_eq!(
            check_simd(&c(Gen::Gfx9), "skl", &s, 32)
                .unwrap_err()
                .to_string(),
            "@dp_untyped_atomic on skl takes SIMD8 or SIMD16, not SIMD32"
        );
    }
}
