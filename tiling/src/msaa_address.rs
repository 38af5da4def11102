//! Addresses of the samples of a multisampled surface ([`Surface::sample_offset`]).
//!
//! In isl's array layout (`ISL_MSAA_LAYOUT_ARRAY`, the PRM's `MSFMT_MSS`; see
//! [`crate::msaa`]) sample `s` of logical layer `l` is physical array slot `l * samples +
//! s`, laid out exactly like an array layer of a single-sampled surface. So the address of
//! a sample is the texel address of that slot ([`Surface::texel_byte_offset`]), which
//! already folds the slot into rows for the legacy tilings and places it at `slot /
//! tile_a` qpitch steps plus `slot % tile_a` in-tile sample bits for the tiles that hold
//! samples (docs/hardware/surface-layout.md §4).

use std::fmt;

use crate::dim::SurfDim;
use crate::msaa::physical_slot;
use crate::surface::{AddressError, Surface};
use crate::swizzle::Bit6Swizzle;

/// Why the address of a sample cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleAddressError {
    /// The coordinates, logical layer, level or byte are out of range, or the swizzle is
    /// not supported, as for [`Surface::texel_byte_offset`]. A layer error counts
    /// logical layers; multisampled surfaces have one level.
    Address(AddressError),
    /// `sample >= samples`.
    SampleOutOfRange {
        /// The sample asked for.
        sample: u32,
        /// The surface's sample count.
        samples: u32,
    },
}

impl fmt::Display for SampleAddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleAddressError::Address(e) => e.fmt(f),
            SampleAddressError::SampleOutOfRange { sample, samples } => write!(
                f,
                "sample {sample} out of range (surface has {samples} samples)"
            ),
        }
    }
}

impl std::error::Error for SampleAddressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SampleAddressError::Address(e) => Some(e),
            SampleAddressError::SampleOutOfRange { .. } => None,
        }
    }
}

impl From<AddressError> for SampleAddressError {
    fn from(e: AddressError) -> SampleAddressError {
        SampleAddressError::Address(e)
    }
}

impl Surface {
    /// The physical array slot of `sample` of logical layer `layer`: `layer * samples +
    /// sample`, after checking both against the surface (3D surfaces take the slice as
    /// `layer`, with sample 0).
    pub fn sample_slot(&self, layer: u32, sample: u32) -> Result<u32, SampleAddressError> {
        let samples = self.samples();
        if sample >= samples {
            return Err(SampleAddressError::SampleOutOfRange { sample, samples });
        }
        // 3D slices are checked per level by texel_byte_offset; layers here, in logical
        // units, so that the error names the caller's layer and not a physical slot.
        if self.dim() != SurfDim::D3 && layer >= self.array_len() {
            return Err(AddressError::LayerOutOfRange {
                layer,
                layers: self.array_len(),
            }
            .into());
        }
        // In range: layer < array_len and sample < samples, whose product fits (it is
        // the physical layer count of a surface that was laid out).
        physical_slot(layer, sample, samples)
            .ok_or(SampleAddressError::SampleOutOfRange { sample, samples })
    }

    /// Byte offset from the surface base of element `(x, y)` of sample `sample` of
    /// logical array layer `layer` of `level` (isl's array MSAA layout; see the module
    /// docs). `level` must be 0 on a multisampled surface (they have one level) and
    /// `sample` below [`samples`](Self::samples); with one sample this is
    /// [`texel_offset`](Self::texel_offset) of `sample == 0`. Bit-6 swizzling is applied
    /// as by `texel_offset`.
    pub fn sample_offset(
        &self,
        x: u32,
        y: u32,
        layer: u32,
        sample: u32,
        level: u32,
        swizzle: Bit6Swizzle,
    ) -> Result<u64, SampleAddressError> {
        self.sample_byte_offset(x, y, layer, sample, level, 0, swizzle)
    }

    /// Like [`sample_offset`](Self::sample_offset), for byte `byte` of the element (as
    /// [`texel_byte_offset`](Self::texel_byte_offset)).
    #[allow(clippy::too_many_arguments)]
    pub fn sample_byte_offset(
        &self,
        x: u32,
        y: u32,
        layer: u32,
        sample: u32,
        level: u32,
        byte: u32,
        swizzle: Bit6Swizzle,
    ) -> Result<u64, SampleAddressError> {
        let slot = self.sample_slot(layer, sample)?;
        Ok(self.texel_byte_offset(x, y, slot, level, byte, swizzle)?)
    }
}
