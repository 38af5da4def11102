//! What the lowering did, and what a driver must do for the lowered shader
//! ([`LowerReport`]): the surface each image's binding is created with, the parameter
//! blocks to fill, how each image is accessed, and the messages the shader sends.

use crate::async_copy::AsyncCopyReport;
use ir::dataport::{DpAddr, DpDesc};
use ir::lsc::{Block2dDesc, LscDesc, Sfid};
use ir::{Format, ImageId, IntrinsicOp, Shader};

/// The surface a driver must bind for an image the lowered shader accesses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SurfaceFormat {
    /// A typed surface of this format: the lowered format, or the image format itself
    /// where the hardware converts (write-only images).
    Typed(Format),
    /// A typed surface of whatever format the bound view has (format-less images). An
    /// image the shader loads from is read with typed messages of that format, with
    /// no conversion in the shader: its view must be of a format the platform reads
    /// typed ([`crate::format::supports_typed_read`]; every storage format from Gfx12.5), the
    /// formats a Vulkan driver gives `VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT`.
    ViewFormat,
    /// An untyped (raw buffer) view of the image's memory.
    Raw,
}

/// One image the lowered shader accesses with messages, and how to bind it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ImageBinding {
    /// The image.
    pub image: ImageId,
    /// Its name, without `@`.
    pub name: String,
    /// The surface to bind.
    pub surface: SurfaceFormat,
}

/// The parameter block a lowered shader reads for one image
/// (`docs/hardware/mesa-storage-images.md` §7): the driver fills it with
/// `tiling::fill_image_param` for the bound surface and view, and hands the shader its
/// dwords (`ImageParam::to_dwords`) where `image_load_param` finds them.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ParamBlock {
    /// Bytes of the whole block as `tiling::image_param` lays it out.
    pub bytes: u32,
    /// The 16-byte slots the shader reads (`tiling::image_param::slot`), ascending: a
    /// driver may fill only these. Reading `BASE` means the shader forms 64-bit
    /// addresses from the surface's base address (`ImageParam::set_base_address`).
    pub slots: Vec<u32>,
}

/// How the lowered shader uses one declared image.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ImageReport {
    /// The image.
    pub image: ImageId,
    /// Its name, without `@`.
    pub name: String,
    /// Its binding-table index (of the first element, for image arrays).
    pub binding: u32,
    /// The surface format its binding must be created with; `None` when no message
    /// reads the binding (only its parameter block is read, or nothing).
    pub surface: Option<SurfaceFormat>,
    /// The parameter block the shader reads, if any.
    pub param_block: Option<ParamBlock>,
    /// Whether typed messages (`.tgm`: quad loads and stores, atomics, typed block2d)
    /// access it.
    pub typed: bool,
    /// Whether untyped messages access it through the binding table (a raw buffer
    /// view). Flat A64 accesses name no binding: they show as a read of the
    /// parameter block's `BASE` slot.
    pub untyped: bool,
    /// Whether sampler messages (`ld`, `ld_lz`, `resinfo`) read it or its state.
    pub sampler: bool,
}

/// The messages a lowered shader sends, by kind.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[non_exhaustive]
pub struct MessageStats {
    /// Every message intrinsic.
    pub total: usize,
    /// Typed messages (`.tgm`; the legacy typed surface messages).
    pub typed: usize,
    /// Untyped global-memory messages (`.ugm`, `.ugml`; the legacy untyped, scattered
    /// and A64 messages on surfaces and global memory).
    pub untyped: usize,
    /// Shared-local-memory messages (`.slm`; legacy messages with `dp_addr=slm`).
    pub shared: usize,
    /// Sampler messages.
    pub sampler: usize,
    /// Of those, 2D block messages.
    pub block2d: usize,
    /// Of those, atomics.
    pub atomics: usize,
    /// Of those, messages predicated on a 1-bit value (bounds checks, guards).
    pub predicated: usize,
}

/// What the lowering did.
///
/// [`crate::lower_images`] fills the access counters and [`LowerReport::bindings`];
/// [`crate::lower_shader`] adds [`LowerReport::async_copies`], then
/// [`LowerReport::summarize`]s the final shader into [`LowerReport::images`] and
/// [`LowerReport::messages`]. A custom pipeline calls `summarize` itself after its last
/// pass.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct LowerReport {
    /// `image_load`s lowered to typed messages.
    pub typed_loads: usize,
    /// `image_store`s lowered to typed messages.
    pub typed_stores: usize,
    /// Atomics lowered to typed messages.
    pub typed_atomics: usize,
    /// Atomics guarded against unbound images (IVB/BYT).
    pub guarded_atomics: usize,
    /// `image_load`s lowered to untyped messages.
    pub untyped_loads: usize,
    /// `image_load`s lowered to sampler `ld` / `ld_lz` messages.
    pub sampler_loads: usize,
    /// `txl`s lowered to sampler `sample_l` messages.
    pub sampler_samples: usize,
    /// `image_store`s lowered to untyped messages.
    pub untyped_stores: usize,
    /// Atomics lowered to untyped messages.
    pub untyped_atomics: usize,
    /// Of the untyped accesses, those using flat A64 addresses.
    pub a64_accesses: usize,
    /// `image_size`s read from the parameter block.
    pub sizes: usize,
    /// `image_levels` of storage views replaced by 1.
    pub levels: usize,
    /// `image_size`s and `image_levels` of sampled images lowered to the sampler's
    /// `resinfo`.
    pub sampler_queries: usize,
    /// `image_samples` replaced by 1.
    pub samples: usize,
    /// `image_block_load`s lowered to 2D block messages.
    pub block_loads: usize,
    /// `image_block_store`s lowered to 2D block messages.
    pub block_stores: usize,
    /// The 2D block messages those took.
    pub block_messages: usize,
    /// The images accessed by messages, in declaration order, with their surfaces.
    pub bindings: Vec<ImageBinding>,
    /// What the group async copy lowering did.
    pub async_copies: AsyncCopyReport,
    /// Every declared image, in declaration order: what the lowered shader needs of it.
    pub images: Vec<ImageReport>,
    /// The messages the lowered shader sends.
    pub messages: MessageStats,
}

impl LowerReport {
    /// Number of instructions lowered.
    pub fn lowered(&self) -> usize {
        self.typed_loads
            + self.typed_stores
            + self.typed_atomics
            + self.untyped_loads
            + self.sampler_loads
            + self.sampler_samples
            + self.untyped_stores
            + self.untyped_atomics
            + self.sizes
            + self.levels
            + self.sampler_queries
            + self.samples
            + self.block_loads
            + self.block_stores
    }

    /// Fills [`LowerReport::images`] and [`LowerReport::messages`] from `shader`, the
    /// lowered shader as it will run, with the surfaces of [`LowerReport::bindings`].
    pub fn summarize(&mut self, shader: &Shader) {
        let mut images: Vec<ImageReport> = shader
            .images
            .iter()
            .enumerate()
            .map(|(i, d)| ImageReport {
                image: ImageId::from_u32(i as u32),
                name: d.name.clone(),
                binding: d.binding,
                surface: None,
                param_block: None,
                typed: false,
                untyped: false,
                sampler: false,
            })
            .collect();
        let mut slots: Vec<Vec<u32>> = vec![Vec::new(); images.len()];
        let mut stats = MessageStats::default();
        for func in &shader.functions {
            for inst in func.insts_in_order() {
                let Some(intr) = func.inst(inst).as_intrinsic() else {
                    continue;
                };
                let image = intr.image.map(|r| r.image.index());
                if intr.op == IntrinsicOp::ImageLoadParam {
                    if let (Some(i), Some(&slot)) = (image, intr.indices.first()) {
                        if let Some(s) = slots.get_mut(i) {
                            s.push(slot);
                        }
                    }
                    continue;
                }
                let sfid = if intr.op.is_lsc() {
                    LscDesc::from_indices(&intr.indices).ok().map(|d| d.sfid)
                } else if let Some(msg) = intr.op.dp_msg() {
                    // Legacy data-port messages count as the LSC messages they stand
                    // for: typed, shared local memory, or untyped.
                    DpDesc::from_indices(msg, &intr.indices).ok().map(|d| {
                        if d.msg.is_typed() {
                            Sfid::Tgm
                        } else if d.addr == DpAddr::Slm {
                            Sfid::Slm
                        } else {
                            Sfid::Ugm
                        }
                    })
                } else if intr.op.is_block2d() {
                    Block2dDesc::from_indices(&intr.indices)
                        .ok()
                        .map(|d| d.sfid)
                } else if matches!(
                    intr.op,
                    IntrinsicOp::SamplerLd
                        | IntrinsicOp::SamplerLdLz
                        | IntrinsicOp::SamplerResinfo
                        | IntrinsicOp::SamplerSampleL
                        | IntrinsicOp::SamplerGather4
                        | IntrinsicOp::SamplerLdMcs
                        | IntrinsicOp::SamplerLd2dmsW
                ) {
                    None
                } else {
                    continue;
                };
                stats.total += 1;
                stats.block2d += usize::from(intr.op.is_block2d());
                stats.atomics += usize::from(
                    intr.op == IntrinsicOp::LscAtomic
                        || intr.op.dp_msg().is_some_and(|m| m.is_atomic()),
                );
                let required = intr.op.srcs(&intr.indices).map_or(0, |s| s.len());
                stats.predicated +=
                    usize::from(intr.op.info().predicable && intr.srcs.len() > required);
                let img = image.and_then(|i| images.get_mut(i));
                match sfid {
                    Some(Sfid::Tgm) => {
                        stats.typed += 1;
                        if let Some(r) = img {
                            r.typed = true;
                        }
                    }
                    Some(Sfid::Ugm | Sfid::Ugml) => {
                        stats.untyped += 1;
                        if let Some(r) = img {
                            r.untyped = true;
                        }
                    }
                    Some(Sfid::Slm) => stats.shared += 1,
                    None => {
                        stats.sampler += 1;
                        if let Some(r) = img {
                            r.sampler = true;
                        }
                    }
                }
            }
        }
        for (r, mut s) in images.iter_mut().zip(slots) {
            if r.typed || r.untyped || r.sampler {
                r.surface = self
                    .bindings
                    .iter()
                    .find(|b| b.image == r.image)
                    .map(|b| b.surface);
            }
            if !s.is_empty() {
                s.sort_unstable();
                s.dedup();
                r.param_block = Some(ParamBlock {
                    bytes: (tiling::image_param::DWORDS * 4) as u32,
                    slots: s,
                });
            }
        }
        self.images = images;
        self.messages = stats;
    }
}
