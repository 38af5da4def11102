//! How mismatches are described: instructions printed, byte ranges named as texels of
//! an image (position, layer, level) or bytes of a buffer, texels decoded.

use crate::memory::{AllocId, ImageBinding, ImageStorage, Memory, Space};
use crate::setup::{texel_positions, TexelPos};
use crate::texel::TexelLayout;
use crate::verifier::events::{access_kind, is_group_copy, Hit};
use ir::{Function, Inst, IntrinsicClass, Shader, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Facts about a bound image for describing its bytes.
pub struct ImageFacts {
    /// The image's name (`@img`, `@img[2]`).
    pub label: String,
    /// Bytes per texel of its surface state.
    pub texel_bytes: usize,
    /// The shader's format, for decoding texels.
    pub layout: Option<TexelLayout>,
    /// Texel start offset -> position.
    pub positions: HashMap<u64, TexelPos>,
    /// The view: base level, first layer, layer count (None for buffers).
    pub view: Option<(u32, u32, u32)>,
    /// A 3D surface (its layers are slices).
    pub is_3d: bool,
}

/// Describes instructions and bytes of a verification's two shaders and memory.
pub struct Describer<'a> {
    /// The original shader.
    pub original: &'a Shader,
    /// The lowered shader.
    pub lowered: &'a Shader,
    /// The original's entry point.
    pub ofunc: &'a Function,
    /// The lowered entry point.
    pub lfunc: &'a Function,
    /// The images bound (their bindings do not change during a run).
    images: Vec<ImageBinding>,
    /// Every allocation's name, by id.
    names: Vec<String>,
    facts: RefCell<HashMap<AllocId, Rc<ImageFacts>>>,
}

impl<'a> Describer<'a> {
    /// A describer of `original` and `lowered` running on (a copy of) `mem`.
    pub fn new(
        original: &'a Shader,
        lowered: &'a Shader,
        ofunc: &'a Function,
        lfunc: &'a Function,
        mem: &Memory,
    ) -> Describer<'a> {
        Describer {
            original,
            lowered,
            ofunc,
            lfunc,
            images: mem.images().map(|(_, b)| b.clone()).collect(),
            names: mem.allocations().iter().map(|a| a.name.clone()).collect(),
            facts: RefCell::new(HashMap::new()),
        }
    }

    /// The original's image or message intrinsic at `span`, printed.
    pub fn original_text(&self, span: Span) -> Option<String> {
        // Without source positions every instruction has the unknown span: it names
        // none of them.
        if span == Span::UNKNOWN {
            return None;
        }
        let func = self.ofunc;
        func.insts_in_order()
            .into_iter()
            .find(|&i| {
                func.inst_span(i) == span
                    && func.inst(i).as_intrinsic().is_some_and(|x| {
                        access_kind(x.op).is_some()
                            || is_group_copy(x.op)
                            || x.op.info().class == IntrinsicClass::Image
                    })
            })
            .map(|i| {
                ir::print::print_inst(self.original, func, i)
                    .trim()
                    .to_string()
            })
    }

    /// The text of the original's instruction `inst` (an access's, as its context
    /// names it), where the span names none.
    pub fn original_inst_text(&self, span: Span, inst: Inst) -> Option<String> {
        self.original_text(span).or_else(|| {
            (inst.index() < self.ofunc.num_inst_ids()).then(|| {
                ir::print::print_inst(self.original, self.ofunc, inst)
                    .trim()
                    .to_string()
            })
        })
    }

    /// The instruction text for a span: the original's, else the lowered `inst`'s.
    pub fn text_for(&self, span: Span, lowered_inst: Option<Inst>) -> Option<String> {
        self.original_text(span).or_else(|| {
            lowered_inst.map(|i| {
                format!(
                    "lowered: {}",
                    ir::print::print_inst(self.lowered, self.lfunc, i).trim()
                )
            })
        })
    }

    /// Byte ranges `(space, start, end)` for a report (the first four).
    pub fn describe_ranges(&self, ranges: &[(Space, u64, u64)]) -> String {
        if ranges.is_empty() {
            return "nothing".into();
        }
        let p: Vec<String> = ranges
            .iter()
            .take(4)
            .map(|&(s, lo, hi)| format!("bytes {lo:#x}..{hi:#x} of {}", self.space_name(s)))
            .collect();
        format!(
            "{} range{}: {}{}",
            ranges.len(),
            if ranges.len() == 1 { "" } else { "s" },
            p.join(", "),
            if ranges.len() > 4 { ", ..." } else { "" }
        )
    }

    pub fn facts(&self, alloc: AllocId) -> Option<Rc<ImageFacts>> {
        if let Some(f) = self.facts.borrow().get(&alloc) {
            return Some(f.clone());
        }
        let b = self.images.iter().find(|b| b.alloc == alloc)?;
        let tb = b.state_texel_bytes();
        let positions = texel_positions(&b.storage, tb, b.bit6_swizzle)
            .into_iter()
            .map(|p| (p.offset, p))
            .collect();
        let (view, is_3d) = match &b.storage {
            ImageStorage::Surface { surface, view } => (
                Some((view.base_level, view.base_layer, view.layer_count)),
                surface.desc().dim == tiling::SurfDim::D3,
            ),
            ImageStorage::Buffer { .. } => (None, false),
        };
        let name = &self.names[alloc.0 as usize];
        let f = Rc::new(ImageFacts {
            label: name.strip_prefix("image ").unwrap_or(name).to_string(),
            texel_bytes: tb,
            layout: TexelLayout::from_ir(b.logical_format).ok(),
            positions,
            view,
            is_3d,
        });
        self.facts.borrow_mut().insert(alloc, f.clone());
        Some(f)
    }

    pub fn space_name(&self, space: Space) -> String {
        match space {
            Space::Alloc(id) => self.names[id.0 as usize].clone(),
            Space::Shared(wg) => format!("shared memory of workgroup {wg}"),
            Space::PushConstants => "the push constants".into(),
            Space::Scratch(wg) => format!("scratch memory of workgroup {wg}"),
        }
    }

    /// "texel (x, y) of layer z, level l of @img (byte 0x..)" or "bytes a..b of ssbo 0".
    pub fn describe_range(&self, space: Space, offset: u64, size: u64) -> String {
        if let Space::Alloc(id) = space {
            if let Some(f) = self.facts(id) {
                let tb = f.texel_bytes as u64;
                let start = offset - offset % tb;
                if let Some(p) = f.positions.get(&start) {
                    let whole = start == offset && size == tb;
                    let what = if whole {
                        "texel".to_string()
                    } else {
                        format!("{size} bytes at +{} in texel", offset - start)
                    };
                    return format!(
                        "{what} {} of {} (byte {offset:#x})",
                        position_text(&f, p),
                        f.label
                    );
                }
                return format!(
                    "{size} bytes at byte {offset:#x} of {}, which is not a texel",
                    f.label
                );
            }
        }
        format!(
            "{size} bytes at byte {offset:#x} of {}",
            self.space_name(space)
        )
    }

    pub fn describe_hit(&self, hit: &Hit) -> String {
        match hit {
            Hit::Nothing => "no access (out of bounds, or the lane predicated off)".into(),
            Hit::At {
                space,
                offset,
                size,
            } => self.describe_range(*space, *offset, *size),
            Hit::Ranges(parts) => {
                let p: Vec<String> = parts
                    .iter()
                    .take(4)
                    .map(|&(s, o, n)| self.describe_range(s, o, n))
                    .collect();
                format!(
                    "{} separate ranges: {}{}",
                    parts.len(),
                    p.join(", "),
                    if parts.len() > 4 { ", ..." } else { "" }
                )
            }
        }
    }
}

/// A texel's position: `(x, y) of layer z, level l` (`slice` for 3D), noting one outside
/// the view; the element index of a buffer.
pub fn position_text(f: &ImageFacts, p: &TexelPos) -> String {
    let Some((level, base, count)) = f.view else {
        return format!("{}", p.x);
    };
    let z = if f.is_3d { "slice" } else { "layer" };
    let in_view = p.level == level && p.layer >= base && p.layer < base + count;
    format!(
        "({}, {}) of {z} {}, level {}{}",
        p.x,
        p.y,
        p.layer,
        p.level,
        if in_view { "" } else { " (outside the view)" }
    )
}

/// Bytes as a little-endian hexadecimal number (bytes listed when longer than 8).
pub fn hex_le(bytes: &[u8]) -> String {
    if bytes.len() <= 8 {
        let mut v = [0u8; 8];
        v[..bytes.len()].copy_from_slice(bytes);
        format!("{:#0w$x}", u64::from_le_bytes(v), w = 2 + 2 * bytes.len())
    } else {
        let parts: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("bytes {}", parts.join(" "))
    }
}

/// A texel's bits and its decoded channels.
pub fn texel_text(f: &ImageFacts, bytes: &[u8]) -> String {
    let bits = hex_le(bytes);
    let Some(layout) = &f.layout else {
        return bits;
    };
    let Ok(rgba) = layout.decode(bytes) else {
        return bits;
    };
    let vals = layout.channel_texts(&rgba);
    format!("{bits} = ({})", vals.join(", "))
}

/// Components as hexadecimal (and as floats for 32-bit values that look like floats is
/// not guessed: the bits are what is compared).
pub fn format_components(c: &[u64], bits: u8) -> String {
    let w = (bits as usize).div_ceil(4).max(1);
    let parts: Vec<String> = c.iter().map(|v| format!("{v:#0w$x}", w = w + 2)).collect();
    format!("({})", parts.join(", "))
}
