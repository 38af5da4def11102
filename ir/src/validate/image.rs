//! Image intrinsics against their declaration: dimension, format, coordinates, data.

use super::context::{FnCheck, IntrCtx};
use crate::atomic::AtomicOp;
use crate::image::{Access, Format, ImageDim};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::types::{AluType, BaseType, Type};

impl FnCheck<'_> {
    pub(super) fn check_image_access(
        &mut self,
        c: &IntrCtx<'_>,
        src_of: &dyn Fn(&str) -> Option<Type>,
    ) {
        let Some(decl) = c.decl else { return };
        let intr = c.intr;
        let name = c.name;
        let span = c.span;
        // The indices restate the declaration; they must agree with it.
        if let Some(v) = intr.index(IndexKind::ImageDim) {
            if let Some(dim) = ImageDim::from_index(v) {
                if dim != decl.dim {
                    self.error(
                        span,
                        format!(
                            "{name}: image_dim={dim} does not match the declaration of `@{}` ({})",
                            decl.name, decl.dim
                        ),
                    );
                }
            }
        }
        if let Some(v) = intr.index(IndexKind::ImageArray) {
            if (v != 0) != decl.arrayed {
                self.error(
                    span,
                    format!(
                        "{name}: image_array={} does not match the declaration of `@{}` ({})",
                        v != 0,
                        decl.name,
                        if decl.arrayed {
                            "arrayed"
                        } else {
                            "not arrayed"
                        }
                    ),
                );
            }
        }
        if let Some(v) = intr.index(IndexKind::Format) {
            if let Some(f) = Format::from_index(v) {
                if f != decl.format {
                    self.error(
                        span,
                        format!(
                            "{name}: format={f} does not match the declaration of `@{}` ({})",
                            decl.name, decl.format
                        ),
                    );
                }
            }
        }
        let coords = decl.coord_components();
        let kind = format!(
            "{} {}image",
            decl.dim,
            if decl.arrayed { "array " } else { "" }
        );
        if let Some(ty) = src_of("coord") {
            if ty.num_components() != coords {
                self.error(
                    span,
                    format!(
                        "{name}: the coordinate has {} component{}, expected {coords} for a {kind}",
                        ty.num_components(),
                        if ty.num_components() == 1 { "" } else { "s" }
                    ),
                );
            }
        }
        let format = decl.format;
        let data_bits = format.data_bit_size();
        let op = intr.op;
        if decl.access.contains(crate::image::Access::SAMPLED)
            && matches!(
                op,
                IntrinsicOp::ImageStore | IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap
            )
        {
            self.error(
                span,
                format!(
                    "{name}: @{} is a sampled image, which shaders only read",
                    decl.name
                ),
            );
        }
        match op {
            IntrinsicOp::ImageLoad => {
                if let Some(d) = c.dest {
                    self.check_texel_data(c, "the destination", d, data_bits);
                    if let Some(t) = intr
                        .index(IndexKind::DestType)
                        .and_then(AluType::from_index)
                    {
                        self.check_data_type(c, "dest_type", t, d.bit_size(), format);
                    }
                }
            }
            IntrinsicOp::ImageStore => {
                if let Some(d) = src_of("data") {
                    self.check_texel_data(c, "the data", d, data_bits);
                    if let Some(t) = intr.index(IndexKind::SrcType).and_then(AluType::from_index) {
                        self.check_data_type(c, "src_type", t, d.bit_size(), format);
                    }
                }
            }
            IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => {
                let Some(aop) = intr
                    .index(IndexKind::AtomicOp)
                    .and_then(AtomicOp::from_index)
                else {
                    return;
                };
                let swap = op == IntrinsicOp::ImageAtomicSwap;
                if aop.is_swap() && !swap {
                    self.error(
                        span,
                        format!("{name}: atomic_op={aop} compares and swaps; it needs `@image_atomic_swap`"),
                    );
                } else if !aop.is_swap() && swap {
                    self.error(
                        span,
                        format!("{name} takes atomic_op=cmpxchg or fcmpxchg, found {aop}"),
                    );
                }
                if let Some(base) = format.data_base_type() {
                    let float_format = base == BaseType::Float;
                    // Exchange moves bits and works on any format.
                    if aop != AtomicOp::Xchg && aop.is_float() != float_format {
                        let (needs, has) = if aop.is_float() {
                            ("a float", "integer")
                        } else {
                            ("an integer", "float")
                        };
                        self.error(
                            span,
                            format!(
                                "{name}: atomic_op={aop} needs {needs} format, but `@{}` is {format} ({has} data)",
                                decl.name
                            ),
                        );
                    }
                }
                let operands: &[&str] = if swap {
                    &["compare", "data"]
                } else {
                    &["data"]
                };
                for which in operands {
                    if let Some(t) = src_of(which) {
                        if t.bit_size() != data_bits {
                            self.error(
                                span,
                                format!(
                                    "{name}: the atomic {which} is {}-bit, expected {data_bits}-bit for format {format}",
                                    t.bit_size()
                                ),
                            );
                        }
                    }
                }
                if let Some(d) = c.dest {
                    let want = Type::scalar(data_bits).unwrap_or(Type::U32);
                    if d != want {
                        self.error(
                            span,
                            format!("{name}: the destination is {d}, expected {want} (the old texel value)"),
                        );
                    }
                }
            }
            IntrinsicOp::ImageSize => {
                if let Some(d) = c.dest {
                    let want = Type::vec32(coords);
                    // A non-array cube's size is its face size: SPIR-V's
                    // OpImageQuerySize and GLSL's imageSize(imageCube) give 2
                    // components, and NIR's lower_cube_size uses the def's component
                    // count, so 2 is accepted besides the coordinate count (whose third
                    // component is 1, one cube).
                    let face = decl.dim == ImageDim::Cube && !decl.arrayed && d == Type::vec32(2);
                    if d != want && !face {
                        self.error(
                            span,
                            format!("{name}: the destination is {d}, expected {want} for a {kind}"),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// The texel data of an image load or store: 1 to 4 components of the format's
    /// data size.
    pub(super) fn check_texel_data(&mut self, c: &IntrCtx<'_>, what: &str, ty: Type, bits: u8) {
        if ty.num_components() > 4 {
            self.error(
                c.span,
                format!(
                    "{}: {what} has {} components, expected 1 to 4",
                    c.name,
                    ty.num_components()
                ),
            );
        }
        if ty.bit_size() != bits {
            let format = c.decl.map(|d| d.format).unwrap_or(Format::None);
            self.error(
                c.span,
                format!(
                    "{}: {what} is {}-bit, expected {bits}-bit for format {format}",
                    c.name,
                    ty.bit_size()
                ),
            );
        }
    }

    pub(super) fn check_data_type(
        &mut self,
        c: &IntrCtx<'_>,
        which: &str,
        t: AluType,
        bits: u8,
        format: Format,
    ) {
        if t.base == BaseType::Bool {
            self.error(
                c.span,
                format!("{}: {which} cannot be a boolean type ({t})", c.name),
            );
            return;
        }
        if t.is_sized() && t.bits != bits {
            self.error(
                c.span,
                format!("{}: {which}={t} does not match the {bits}-bit data", c.name),
            );
        }
        if let Some(base) = format.data_base_type() {
            let float_format = base == BaseType::Float;
            if (t.base == BaseType::Float) != float_format {
                self.error(
                    c.span,
                    format!(
                        "{}: {which}={t} does not match format {format}, which holds {} data",
                        c.name,
                        if float_format { "float" } else { "integer" }
                    ),
                );
            }
        }
    }

    /// The image's access qualifiers against what the intrinsic does to it: a
    /// `readonly` image (NIR's ACCESS_NON_WRITEABLE) is never written and a `writeonly`
    /// one (ACCESS_NON_READABLE) never read. Loads (`image_load`, `image_block_load`,
    /// the sampler's `ld`/`ld_lz`) read; stores (`image_store`, `image_block_store`)
    /// write; atomics do both. Queries (`image_size`, `image_samples`,
    /// `image_load_param`) read the descriptor, not the texels, and are allowed on
    /// either. The qualifiers are the declaration's together with the intrinsic's
    /// `access` index, which restates them.
    pub(super) fn check_access_qualifiers(&mut self, c: &IntrCtx<'_>) {
        let Some(decl) = c.decl else { return };
        let (reads, writes) = match c.intr.op {
            IntrinsicOp::ImageLoad
            | IntrinsicOp::ImageBlockLoad
            | IntrinsicOp::SamplerLd
            | IntrinsicOp::SamplerLdLz => (true, false),
            IntrinsicOp::ImageStore | IntrinsicOp::ImageBlockStore => (false, true),
            IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap => (true, true),
            _ => return,
        };
        let access = c
            .intr
            .index(IndexKind::Access)
            .and_then(Access::from_bits)
            .map_or(decl.access, |a| a | decl.access);
        let does = match (reads, writes) {
            (true, true) => "reads and writes",
            (true, false) => "reads",
            _ => "writes",
        };
        let mut refuse = |qualifier: &str, rule: &str| {
            self.error(
                c.span,
                format!(
                    "{}: `@{}` is {qualifier}, but this {does} it; {rule}",
                    c.name, decl.name
                ),
            )
        };
        if writes && access.contains(Access::NON_WRITEABLE) {
            refuse("readonly", "a readonly image is never written");
        } else if reads && access.contains(Access::NON_READABLE) {
            refuse("writeonly", "a writeonly image is never read");
        }
    }
}
