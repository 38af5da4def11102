//! The platforms the message tests (`message.rs`, `visa.rs`) check and print for.

use lowering::Device;

/// DG2 (Xe-HPG), the first platform with LSC messages.
pub fn dg2() -> Device {
    Device::preset("dg2").unwrap()
}

/// PVC (Xe-HPC).
pub fn pvc() -> Device {
    Device::preset("pvc").unwrap()
}

/// LNL with SIMD16 typed messages (the preset uses SIMD32, the Xe2 maximum; IGC uses
/// SIMD16 under `DisableLSCSIMD32TGMMessages`, and docs/hardware/lsc-messages.md §6 prints SIMD16).
pub fn lnl() -> Device {
    let mut d = Device::preset("lnl").unwrap();
    d.typed_simd = 16;
    d
}

/// TGL (Xe-LP), before LSC.
pub fn tgl() -> Device {
    Device::preset("tgl").unwrap()
}
