//! `load_constant`: the interpreter answers it from the shader's constant data.
//!
//! NIR leaves a read outside `base .. base + range` undefined (`nir_opt_constant_folding`
//! folds one at a constant offset to an undef). The IR makes it deterministic the way
//! anv's lowering does (`anv_nir_apply_pipeline_layout.c`, `lower_load_constant`): the
//! byte address `base + offset`, a 32-bit sum (`nir_iadd_imm`), is clamped to
//! `size - bytes` (`nir_umin`), the last whole read in the data, so every offset reads
//! bytes of the data. An address (after the clamp) that is
//! not a multiple of the component size is an error: the hardware's messages read
//! naturally aligned components.

use super::lanes::{lanes_of, Mask};
use crate::function::IntrinsicInst;
use crate::intrinsic::IndexKind;
use crate::types::Type;
use std::fmt;

/// Why a lane's `load_constant` read nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstantReadError {
    /// The read is larger than the shader's constant data (the validator refuses it).
    TooLarge {
        /// Bytes of the read.
        bytes: u64,
        /// Bytes of constant data.
        size: u64,
    },
    /// The (clamped) address is not a multiple of the component size.
    Unaligned {
        /// The byte address `min(base + offset, size - bytes)`.
        address: u64,
        /// Bytes of one component.
        align: u64,
    },
    /// The destination is booleans or missing (the validator refuses both).
    BadDest,
}

impl fmt::Display for ConstantReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstantReadError::TooLarge { bytes, size } => write!(
                f,
                "a read of {bytes} bytes from {size} bytes of constant data"
            ),
            ConstantReadError::Unaligned { address, align } => write!(
                f,
                "constant data read at byte {address}, which is not a multiple of its {align}-byte components"
            ),
            ConstantReadError::BadDest => {
                f.write_str("`load_constant` must define numbers of 8 to 64 bits")
            }
        }
    }
}

impl std::error::Error for ConstantReadError {}

/// The byte address a read of `bytes` at `base + offset` takes in `size` bytes of
/// data: `min(base + offset, size - bytes)`, the sum taken in 32 bits (it wraps, as
/// anv's `nir_iadd_imm` does), the minimum unsigned. `None` when the read is larger
/// than the data.
pub fn clamped_address(base: u32, offset: u32, bytes: u64, size: u64) -> Option<u64> {
    let last = size.checked_sub(bytes)?;
    Some(u64::from(offset.wrapping_add(base)).min(last))
}

/// Runs `load_constant` for the lanes of `mask`: `offsets[lane]` is the lane's offset
/// source, `dest` the lane-major destination slice. Returns the lane that failed.
pub(super) fn load(
    data: &[u8],
    intr: &IntrinsicInst,
    dest_type: Option<Type>,
    offsets: &[u64],
    mask: Mask,
    dest: &mut [u64],
) -> Result<(), (u32, ConstantReadError)> {
    let first = mask.trailing_zeros();
    let ty = dest_type
        .filter(|t| t.bit_size() >= 8)
        .ok_or((first, ConstantReadError::BadDest))?;
    let comp = u64::from(ty.bit_size() / 8);
    let n = usize::from(ty.num_components());
    let bytes = comp * n as u64;
    let size = data.len() as u64;
    let base = intr.index(IndexKind::Base).unwrap_or(0);
    for lane in lanes_of(mask) {
        let fail = |e| (lane as u32, e);
        let offset = offsets.get(lane).copied().unwrap_or(0) as u32;
        let address = clamped_address(base, offset, bytes, size)
            .ok_or_else(|| fail(ConstantReadError::TooLarge { bytes, size }))?;
        if address % comp != 0 {
            return Err(fail(ConstantReadError::Unaligned {
                address,
                align: comp,
            }));
        }
        for c in 0..n {
            let at = (address + c as u64 * comp) as usize;
            let mut word = [0u8; 8];
            word[..comp as usize].copy_from_slice(&data[at..at + comp as usize]);
            dest[lane * n + c] = u64::from_le_bytes(word);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_is_clamped_to_the_last_whole_read() {
        // 16 bytes of data, 4-byte reads: the last read starts at byte 12.
        assert_eq!(clamped_address(4, 8, 4, 16), Some(12));
        assert_eq!(clamped_address(4, 9, 4, 16), Some(12));
        assert_eq!(clamped_address(0, 0xffff_ffff, 8, 16), Some(8));
        assert_eq!(clamped_address(4, 4, 4, 16), Some(8));
        // The sum wraps in 32 bits before the clamp.
        assert_eq!(clamped_address(4, 0xffff_fffe, 4, 16), Some(2));
        assert_eq!(clamped_address(0, 0, 32, 16), None);
    }
}
