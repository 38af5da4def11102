//! Image intrinsics against their declaration: dimension, format, coordinates, data.

use super::context::{image_name, FnCheck, IntrCtx};
use super::error::{DataOperand, ImageError, Qualifier, TxlProblem};
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
        let (Some(decl), Some(image)) = (c.decl, c.image) else {
            return;
        };
        let intr = c.intr;
        let op = c.op;
        let span = c.span;
        // The indices restate the declaration; they must agree with it.
        if let Some(v) = intr.index(IndexKind::ImageDim) {
            if let Some(dim) = ImageDim::from_index(v) {
                if dim != decl.dim {
                    self.error(
                        span,
                        ImageError::DimMismatch {
                            op,
                            image: image_name(image, decl),
                            found: dim,
                            declared: decl.dim,
                        },
                    );
                }
            }
        }
        if let Some(v) = intr.index(IndexKind::ImageArray) {
            if (v != 0) != decl.arrayed {
                self.error(
                    span,
                    ImageError::ArrayedMismatch {
                        op,
                        image: image_name(image, decl),
                        found: v != 0,
                        declared: decl.arrayed,
                    },
                );
            }
        }
        if let Some(v) = intr.index(IndexKind::Format) {
            if let Some(f) = Format::from_index(v) {
                if f != decl.format {
                    self.error(
                        span,
                        ImageError::FormatMismatch {
                            op,
                            image: image_name(image, decl),
                            found: f,
                            declared: decl.format,
                        },
                    );
                }
            }
        }
        let coords = decl.coord_components();
        if let Some(ty) = src_of("coord") {
            if ty.num_components() != coords {
                self.error(
                    span,
                    ImageError::CoordComponents {
                        op,
                        dim: decl.dim,
                        arrayed: decl.arrayed,
                        expected: coords,
                        found: ty.num_components(),
                    },
                );
            }
        }
        // Texel buffers have no mip levels to count or to take the size of.
        let level_query = match op {
            IntrinsicOp::ImageLevels => true,
            IntrinsicOp::ImageSize => src_of("lod").is_some(),
            _ => false,
        };
        if decl.dim == ImageDim::Ms && (level_query || src_of("lod").is_some()) {
            self.error(
                span,
                ImageError::MultisampledLevels {
                    op,
                    image: image_name(image, decl),
                },
            );
        }
        if level_query && decl.dim == ImageDim::Buffer {
            self.error(
                span,
                ImageError::BufferLevels {
                    op,
                    image: image_name(image, decl),
                },
            );
        }
        let format = decl.format;
        let data_bits = format.data_bit_size();
        match op {
            IntrinsicOp::ImageLoad => {
                if let Some(d) = c.dest {
                    self.check_texel_data(c, DataOperand::Destination, d, data_bits);
                    if let Some(t) = intr
                        .index(IndexKind::DestType)
                        .and_then(AluType::from_index)
                    {
                        self.check_data_type(c, IndexKind::DestType, t, d.bit_size(), format);
                    }
                }
            }
            IntrinsicOp::ImageStore => {
                if let Some(d) = src_of("data") {
                    self.check_texel_data(c, DataOperand::Data, d, data_bits);
                    if let Some(t) = intr.index(IndexKind::SrcType).and_then(AluType::from_index) {
                        self.check_data_type(c, IndexKind::SrcType, t, d.bit_size(), format);
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
                    self.error(span, ImageError::AtomicNeedsSwap { op, atomic: aop });
                } else if !aop.is_swap() && swap {
                    self.error(span, ImageError::SwapNeedsCompare { op, atomic: aop });
                }
                if let Some(base) = format.data_base_type() {
                    let float_format = base == BaseType::Float;
                    // Exchange moves bits and works on any format.
                    if aop != AtomicOp::Xchg && aop.is_float() != float_format {
                        self.error(
                            span,
                            ImageError::AtomicFormat {
                                op,
                                atomic: aop,
                                image: image_name(image, decl),
                                format,
                            },
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
                                ImageError::AtomicOperandBits {
                                    op,
                                    operand: which,
                                    format,
                                    expected: data_bits,
                                    found: t.bit_size(),
                                },
                            );
                        }
                    }
                }
                if let Some(d) = c.dest {
                    let want = Type::scalar(data_bits).unwrap_or(Type::U32);
                    if d != want {
                        self.error(
                            span,
                            ImageError::AtomicDest {
                                op,
                                expected: want,
                                found: d,
                            },
                        );
                    }
                }
            }
            IntrinsicOp::ImageSize => {
                if let Some(d) = c.dest {
                    let want = Type::vec32(decl.dim.texel_coord_components(decl.arrayed));
                    // A non-array cube's size is its face size: SPIR-V's
                    // OpImageQuerySize and GLSL's imageSize(imageCube) give 2
                    // components, and NIR's lower_cube_size uses the def's component
                    // count, so 2 is accepted besides the coordinate count (whose third
                    // component is 1, one cube).
                    let face = decl.dim == ImageDim::Cube && !decl.arrayed && d == Type::vec32(2);
                    if d != want && !face {
                        self.error(
                            span,
                            ImageError::SizeDest {
                                op,
                                dim: decl.dim,
                                arrayed: decl.arrayed,
                                expected: want,
                                found: d,
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// The texel data of an image load or store: 1 to 4 components of the format's
    /// data size.
    pub(super) fn check_texel_data(
        &mut self,
        c: &IntrCtx<'_>,
        operand: DataOperand,
        ty: Type,
        bits: u8,
    ) {
        if ty.num_components() > 4 {
            self.error(
                c.span,
                ImageError::TexelComponents {
                    op: c.op,
                    operand,
                    found: ty.num_components(),
                },
            );
        }
        if ty.bit_size() != bits {
            let format = c.decl.map(|d| d.format).unwrap_or(Format::None);
            self.error(
                c.span,
                ImageError::TexelBits {
                    op: c.op,
                    operand,
                    format,
                    expected: bits,
                    found: ty.bit_size(),
                },
            );
        }
    }

    pub(super) fn check_data_type(
        &mut self,
        c: &IntrCtx<'_>,
        index: IndexKind,
        t: AluType,
        bits: u8,
        format: Format,
    ) {
        let op = c.op;
        if t.base == BaseType::Bool {
            self.error(c.span, ImageError::BoolDataType { op, index, ty: t });
            return;
        }
        // A format-less image (SPIR-V's `Unknown` format) has only its sampled type:
        // the bound view's format converts to it, and the SPIR-V type is one of these.
        let sampled_type =
            matches!(t.base, BaseType::Float | BaseType::Int | BaseType::Uint) && t.bits == 32;
        if format == Format::None
            && !sampled_type
            && matches!(op, IntrinsicOp::ImageLoad | IntrinsicOp::ImageStore)
        {
            self.error(c.span, ImageError::FormatlessDataType { op, index, ty: t });
            return;
        }
        if t.is_sized() && t.bits != bits {
            self.error(
                c.span,
                ImageError::DataTypeBits {
                    op,
                    index,
                    ty: t,
                    bits,
                },
            );
        }
        if let Some(base) = format.data_base_type() {
            let float_format = base == BaseType::Float;
            if (t.base == BaseType::Float) != float_format {
                self.error(
                    c.span,
                    ImageError::DataTypeFormat {
                        op,
                        index,
                        ty: t,
                        format,
                    },
                );
            }
        }
    }

    /// `txl` (after [`FnCheck::check_image_access`]): a sampled 1D, 2D or 3D texture,
    /// a declared sampler, and 1 to 4 32-bit components of a `dest_type` its format's
    /// data has (any 32-bit one for an unknown format).
    pub(super) fn check_txl(&mut self, c: &IntrCtx<'_>) {
        let (Some(decl), Some(image)) = (c.decl, c.image) else {
            return;
        };
        let mut problems = Vec::new();
        if !decl.access.contains(Access::SAMPLED) {
            problems.push(TxlProblem::NotSampled);
        }
        let dim_ok = match c.op {
            IntrinsicOp::Tg4 => decl.dim == ImageDim::D2,
            _ => !matches!(decl.dim, ImageDim::Buffer | ImageDim::Cube | ImageDim::Ms),
        };
        if !dim_ok {
            problems.push(TxlProblem::Dim(decl.dim));
        }
        if let Some(d) = c.dest {
            if d.bit_size() != 32 || !(1..=4).contains(&d.num_components()) {
                problems.push(TxlProblem::Dest(d));
            }
        }
        if let Some(t) = c
            .intr
            .index(IndexKind::DestType)
            .and_then(AluType::from_index)
        {
            // Float, normalized and unknown formats are filtered into float32; an
            // integer texture is read unfiltered (Vulkan filters no integer format) into
            // its own sampled type.
            if t.bits != 32 {
                problems.push(TxlProblem::DestType(t));
            } else if let Some(base) = decl.format.data_base_type() {
                if base != t.base {
                    problems.push(TxlProblem::FormatType {
                        format: decl.format,
                        dest_type: t,
                    });
                }
            } else if t.base == BaseType::Bool {
                problems.push(TxlProblem::DestType(t));
            }
        }
        for problem in problems {
            self.error(
                c.span,
                ImageError::Txl {
                    op: c.op,
                    image: image_name(image, decl),
                    problem,
                },
            );
        }
    }

    /// The image's access qualifiers against what the intrinsic does to it: a
    /// `readonly` image (NIR's ACCESS_NON_WRITEABLE) is never written and a `writeonly`
    /// one (ACCESS_NON_READABLE) never read. Loads (`image_load`, `image_block_load`,
    /// the sampler's `ld`/`ld_lz`) read; stores (`image_store`, `image_block_store`)
    /// write; atomics do both. Queries (`image_size`, `image_samples`, `image_levels`,
    /// `image_load_param`, the sampler's `resinfo`) read the descriptor, not the
    /// texels, and are allowed on either. The qualifiers are the declaration's together with the intrinsic's
    /// `access` index, which restates them.
    pub(super) fn check_access_qualifiers(&mut self, c: &IntrCtx<'_>) {
        let (Some(decl), Some(image)) = (c.decl, c.image) else {
            return;
        };
        let Some((reads, writes)) = c.intr.op.image_texel_access() else {
            return;
        };
        let access = c
            .intr
            .index(IndexKind::Access)
            .and_then(Access::from_bits)
            .map_or(decl.access, |a| a | decl.access);
        let qualifier = if writes && access.contains(Access::SAMPLED) {
            Qualifier::Sampled
        } else if writes && access.contains(Access::NON_WRITEABLE) {
            Qualifier::Readonly
        } else if reads && access.contains(Access::NON_READABLE) {
            Qualifier::Writeonly
        } else {
            return;
        };
        self.error(
            c.span,
            ImageError::Access {
                op: c.op,
                image: image_name(image, decl),
                qualifier,
                reads,
                writes,
            },
        );
    }
}
