//! What the verifier runs a case on: the images' memory and the output buffer.

use super::program::{Case, OUTPUT_SSBO};
use crate::cases::surface::{Fill, ImageMemory};
use verify::setup::{
    pattern_bytes, BufferKind, BufferSetup, Fill as SetupFill, ImageLayout,
    ImageSetup as SetupImage, Setup, ViewRange,
};

impl Case {
    /// What the verifier runs the case on: every image with its surface, view and
    /// initial contents, the output buffer (filled with a pattern, so that a missing
    /// or extra write shows), the dispatch and the subgroup size. The bindings are left
    /// to `lower_and_verify`, which takes them from the lowering's report.
    pub fn setup(&self) -> Setup {
        let images = self
            .images
            .iter()
            .flat_map(|img| img.elements().enumerate().map(move |(k, s)| (img, k, s)))
            .map(|(img, element, s)| {
                let texel_bytes = (s.format.bits_per_texel() / 8) as usize;
                let (layout, size) = match &s.memory {
                    ImageMemory::Surface {
                        desc,
                        view,
                        bit6_swizzle,
                    } => {
                        let size = s.surface().map_or(0, |surf| surf.size_B() as usize);
                        (
                            ImageLayout::Surface {
                                desc: *desc,
                                view: ViewRange {
                                    base_level: view.base_level,
                                    level_count: 1,
                                    base_layer: view.base_layer,
                                    layer_count: view.layer_count,
                                },
                                bit6_swizzle: *bit6_swizzle,
                            },
                            size,
                        )
                    }
                    ImageMemory::Buffer { elements } => (
                        ImageLayout::Buffer {
                            elements: *elements as u64,
                        },
                        *elements as usize * texel_bytes,
                    ),
                };
                let fill = match s.fill {
                    Fill::Zero => SetupFill::Zero,
                    Fill::Valid(seed) => SetupFill::Pattern(seed),
                    f => SetupFill::Bytes(
                        f.bytes(size, texel_bytes)
                            .expect("random and small fills have bytes"),
                    ),
                };
                SetupImage {
                    image: img.name.clone(),
                    element: element as u32,
                    format: s.format,
                    layout,
                    fill,
                }
            })
            .collect();
        let output = BufferSetup {
            kind: BufferKind::Ssbo,
            binding: OUTPUT_SSBO,
            bytes: pattern_bytes(
                0x0u64.wrapping_add(self.slots() as u64),
                self.output_bytes(),
            ),
        };
        Setup {
            images,
            buffers: vec![output],
            globals: Vec::new(),
            push_constants: Vec::new(),
            grid: self.workgroups,
            subgroup_size: self.subgroup_size,
            max_steps: ir::interp::DEFAULT_MAX_STEPS,
            bindings: Vec::new(),
            report_limit: 8,
            samplers: Vec::new(),
        }
    }
}
