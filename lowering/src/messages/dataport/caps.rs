//! What the legacy data port of a generation offers: the per-generation facts behind the
//! legality table ([`super::check_dataport`]) and the send descriptors
//! ([`super::legacy_send`]). A [`Device`](crate::Device) holds its generation's as
//! [`Device::dataport`](crate::Device::dataport).
//!
//! The facts are keyed by generation in their sources (Mesa's `brw_eu.h`/`elk_eu.h`
//! encoders and `brw_lower_simd_width.cpp`, IGC's vISA finalizer
//! `visa/VisaToG4/TranslateSendLdStLegacy.cpp` and `visa/HWCaps.inc`), so they are
//! looked up here by [`tiling::Gen`]; `docs/hardware/dataport.md` states each with its
//! source.

/// How descriptors are encoded: the generations whose send instructions, SFIDs and
/// message types differ.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum DpEncoding {
    /// Ivy Bridge and Bay Trail (Gfx7): typed messages go to the render cache, untyped
    /// ones to data cache 0 with Gfx7's message types (Mesa `elk_eu.h`).
    Ivb,
    /// Haswell (Gfx7.5): typed and untyped surface messages on data cache 1 (Mesa
    /// `elk_eu.h`, the `verx10 >= 75` branches).
    Hsw,
    /// Broadwell (Gfx8): Haswell's messages plus A64, one payload per send (no split
    /// sends).
    Bdw,
    /// Gfx9 and Gfx11 (Sky Lake, Ice Lake): split sends, the SFID in the extended
    /// descriptor.
    Skl,
    /// Gfx12.0 (Tiger Lake): split sends, the SFID in the send opcode (`send.dc1`).
    Tgl,
}

/// The legacy data-port facts of one generation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct DataportCaps {
    /// The generation.
    pub gen: tiling::Gen,
    /// The descriptor encoding.
    pub encoding: DpEncoding,
    /// Byte scattered messages on surfaces and SLM: Haswell and later (Mesa's elk
    /// asserts `verx10 >= 75` for `elk_dp_byte_scattered_rw_desc`).
    pub byte_scattered: bool,
    /// A64 (stateless 64-bit) untyped, byte scattered and atomic messages: Gfx8 and
    /// later (Mesa's `GFX8_DATAPORT_DC_PORT1_A64_*`).
    pub a64: bool,
    /// SIMD16 A64 untyped and byte scattered messages: Gfx9 and later; Gfx8 takes
    /// SIMD8 only (Mesa `brw_lower_simd_width.cpp`: `devinfo->ver <= 8 ? 8 : 16`).
    pub a64_simd16: bool,
    /// 8-byte A64 byte scattered messages: Gfx8 to Gfx11 (IGC's
    /// `has8ByteA64Gather()` is false on Tiger Lake).
    pub a64_byte8: bool,
    /// Float atomics (`fmax`, `fmin`, `fcmpwr`) in untyped and A64 messages: Gfx9 and
    /// later (Mesa `GFX9_DATAPORT_DC_PORT1_*_ATOMIC_FLOAT_OP`; IGC `hasFloatAtomics`,
    /// "only supported on SKL+").
    pub float_atomics: bool,
    /// 16-bit atomics (typed and A64; integer, and float on A64): Gfx12 (Mesa
    /// `GFX12_DATAPORT_DC_PORT1_A64_UNTYPED_ATOMIC_HALF_*`; the vISA atomic
    /// instructions' 16-bit bit, "TGLLP+").
    pub half_atomics: bool,
    /// Split sends (two payloads, the second's length in the extended descriptor):
    /// Gfx9 and later.
    pub split_send: bool,
}

impl DataportCaps {
    /// The facts of `gen`, or `None` for generations that do not lower image accesses
    /// to legacy data-port messages: Gfx6 and earlier (no storage images) and Gfx12.5
    /// and later (LSC).
    pub fn for_gen(gen: tiling::Gen) -> Option<DataportCaps> {
        use tiling::Gen as G;
        let encoding = match gen {
            G::Gfx7 => DpEncoding::Ivb,
            G::Gfx75 => DpEncoding::Hsw,
            G::Gfx8 => DpEncoding::Bdw,
            G::Gfx9 | G::Gfx11 => DpEncoding::Skl,
            G::Gfx12 => DpEncoding::Tgl,
            _ => return None,
        };
        Some(DataportCaps {
            gen,
            encoding,
            byte_scattered: gen >= G::Gfx75,
            a64: gen >= G::Gfx8,
            a64_simd16: gen >= G::Gfx9,
            a64_byte8: gen >= G::Gfx8 && gen < G::Gfx12,
            float_atomics: gen >= G::Gfx9,
            half_atomics: gen >= G::Gfx12,
            split_send: gen >= G::Gfx9,
        })
    }

    /// Whether typed and untyped surface messages use Haswell's data cache 1 (every
    /// generation but Ivy Bridge/Bay Trail).
    pub fn data_cache_1(&self) -> bool {
        self.encoding != DpEncoding::Ivb
    }

    /// Whether the SFID travels in the send opcode (Gfx12) rather than in the extended
    /// descriptor's low bits.
    pub fn sfid_in_opcode(&self) -> bool {
        self.encoding == DpEncoding::Tgl
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiling::Gen;

    #[test]
    fn generations() {
        let has = |f: fn(&DataportCaps) -> bool| -> Vec<Gen> {
            Gen::ALL
                .into_iter()
                .filter(|g| DataportCaps::for_gen(*g).as_ref().is_some_and(f))
                .collect()
        };
        let legacy = has(|_| true);
        assert_eq!(
            legacy,
            [
                Gen::Gfx7,
                Gen::Gfx75,
                Gen::Gfx8,
                Gen::Gfx9,
                Gen::Gfx11,
                Gen::Gfx12
            ]
        );
        assert_eq!(has(|c| c.a64), &legacy[2..]);
        assert_eq!(has(|c| c.byte_scattered), &legacy[1..]);
        assert_eq!(has(|c| c.float_atomics), &legacy[3..]);
        assert_eq!(has(|c| c.a64_simd16), &legacy[3..]);
        assert_eq!(has(|c| c.a64_byte8), [Gen::Gfx8, Gen::Gfx9, Gen::Gfx11]);
        assert_eq!(has(|c| c.half_atomics), [Gen::Gfx12]);
        assert_eq!(has(|c| c.split_send), &legacy[3..]);
        assert_eq!(has(|c| !c.data_cache_1()), [Gen::Gfx7]);
        assert_eq!(has(|c| c.sfid_in_opcode()), [Gen::Gfx12]);
    }
}
