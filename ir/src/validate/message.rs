//! Messages: LSC messages, 2D block messages, image block accesses and the sampler
//! `ld`/`ld_lz`/`resinfo`.

use super::context::{image_name, FnCheck, IntrCtx};
use super::error::{DataOperand, MessageError};
use crate::image::{Format, ImageDim};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, BlockShape, DataShape, Sfid};
use crate::types::{AluType, Type};

impl FnCheck<'_> {
    pub(super) fn check_lsc(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (op, span) = (c.op, c.span);
        let dec = |k: IndexKind| intr.index(k);
        let (Some(sfid), Some(asz), Some(shape)) = (
            dec(IndexKind::LscSfid).and_then(Sfid::from_index),
            dec(IndexKind::LscAddrSize).and_then(AddrSize::from_index),
            dec(IndexKind::LscData).and_then(DataShape::from_index),
        ) else {
            return;
        };
        let quad = matches!(op, IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad);
        if quad && shape.cmask == 0 {
            self.error(span, MessageError::QuadNeedsChannelMask { op, shape });
        } else if !quad && shape.cmask != 0 {
            self.error(span, MessageError::VectorNeedsVectorShape { op, shape });
        }
        if sfid != Sfid::Tgm {
            if let Some(t) = src_of("addr") {
                if t.bit_size() != asz.bits() {
                    self.error(
                        span,
                        MessageError::AddressBits {
                            op,
                            size: asz,
                            found: t.bit_size(),
                        },
                    );
                }
            }
        }
        let comps = shape.components();
        let bits = shape.size.reg_bits();
        let Some(want) = Type::new(bits, comps) else {
            self.error(span, MessageError::UnrepresentableShape { op, shape });
            return;
        };
        let loads = matches!(
            op,
            IntrinsicOp::LscLoad
                | IntrinsicOp::LscLoadStrided
                | IntrinsicOp::LscLoadQuad
                | IntrinsicOp::LscAtomic
        );
        if loads {
            if let Some(d) = c.dest {
                if d != want {
                    self.error(
                        span,
                        MessageError::DestType {
                            op,
                            shape,
                            expected: want,
                            found: d,
                        },
                    );
                }
            }
        }
        if let Some(t) = src_of("data") {
            if t != want {
                self.error(
                    span,
                    MessageError::DataType {
                        op,
                        shape,
                        expected: want,
                        found: t,
                    },
                );
            }
        }
        if op == IntrinsicOp::LscAtomic {
            for which in ["src1", "src2"] {
                if let Some(t) = src_of(which) {
                    if t.bit_size() != bits {
                        self.error(
                            span,
                            MessageError::AtomicOperandBits {
                                op,
                                operand: which,
                                shape,
                                expected: bits,
                                found: t.bit_size(),
                            },
                        );
                    }
                }
            }
        }
    }
}

// ----- 2D block messages and image block accesses ---------------------------------------
//
// A block message moves a register image R (`docs/hardware/lsc-messages.md §8`;
// `BlockShape::register_bytes`)
// that is spread over the lanes of a subgroup: component k of lane i of a value of `b`
// bits holds bytes `R[(k * SG + i) * b / 8 ..][.. b / 8]`, SG being the shader's
// `subgroup_size`. So the value's components x bits x SG must be the image's size.

impl FnCheck<'_> {
    /// The data (or destination) of a subgroup-level block access: 8- to 64-bit
    /// components that spread `bytes` over the shader's subgroup.
    pub(super) fn check_block_value(
        &mut self,
        c: &IntrCtx<'_>,
        operand: DataOperand,
        ty: Type,
        bytes: u32,
    ) {
        let (op, span) = (c.op, c.span);
        if ty.bit_size() < 8 {
            self.error(span, MessageError::BlockComponentBits { op, operand, ty });
            return;
        }
        let Some(sg) = self.shader.subgroup_size else {
            self.error(span, MessageError::NeedsSubgroupSize { op });
            return;
        };
        let have = u32::from(ty.num_components()) * u32::from(ty.bit_size()) / 8 * sg;
        if have != bytes {
            self.error(
                span,
                MessageError::BlockSpread {
                    op,
                    operand,
                    ty,
                    subgroup_size: sg,
                    block_bytes: bytes,
                },
            );
        }
    }

    pub(super) fn check_block2d(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (op, span) = (c.op, c.span);
        let (Some(sfid), Some(data), Some(shape)) = (
            intr.index(IndexKind::LscSfid).and_then(Sfid::from_index),
            intr.index(IndexKind::LscData)
                .and_then(DataShape::from_index),
            intr.index(IndexKind::LscBlock)
                .and_then(BlockShape::from_index),
        ) else {
            return;
        };
        let typed = match sfid {
            Sfid::Tgm => true,
            Sfid::Ugm => false,
            sfid => {
                self.error(span, MessageError::Block2dSfid { op, sfid });
                return;
            }
        };
        if data.size.is_conversion() || data.vect != 1 || data.transpose || data.cmask != 0 {
            self.error(span, MessageError::Block2dDataShape { op, shape: data });
            return;
        }
        if typed == shape.is_untyped() {
            self.error(
                span,
                MessageError::Block2dShape {
                    op,
                    typed,
                    block: shape,
                },
            );
            return;
        }
        match (typed, c.decl.zip(c.image)) {
            (true, None) if intr.image.is_none() => {
                self.error(span, MessageError::TypedBlockNeedsImage { op })
            }
            (true, Some((d, id))) if d.dim != ImageDim::D2 || d.arrayed => self.error(
                span,
                MessageError::TypedBlockNot2d {
                    op,
                    image: image_name(id, d),
                    dim: d.dim,
                    arrayed: d.arrayed,
                },
            ),
            (false, _) if intr.image.is_some() => {
                self.error(span, MessageError::UntypedBlockWithImage { op })
            }
            _ => {}
        }
        let bytes = shape.register_bytes(data.size.mem_bytes());
        let value = if intr.op == IntrinsicOp::LscStoreBlock2d {
            src_of("data").map(|t| (DataOperand::Data, t))
        } else {
            c.dest.map(|t| (DataOperand::Destination, t))
        };
        if let Some((what, t)) = value {
            self.check_block_value(c, what, t, bytes);
        }
    }

    pub(super) fn check_image_block(
        &mut self,
        c: &IntrCtx<'_>,
        src_of: &dyn Fn(&str) -> Option<Type>,
    ) {
        let (op, span) = (c.op, c.span);
        let (Some(decl), Some(image)) = (c.decl, c.image) else {
            return;
        };
        if decl.dim != ImageDim::D2 || decl.arrayed {
            self.error(
                span,
                MessageError::ImageBlockNot2d {
                    op,
                    image: image_name(image, decl),
                    dim: decl.dim,
                    arrayed: decl.arrayed,
                },
            );
            return;
        }
        if decl.format == Format::None {
            self.error(
                span,
                MessageError::ImageBlockNoFormat {
                    op,
                    image: image_name(image, decl),
                },
            );
            return;
        }
        let tb = decl.format.bits_per_texel() / 8;
        if !matches!(tb, 1 | 2 | 4 | 8) {
            self.error(
                span,
                MessageError::ImageBlockTexelSize {
                    op,
                    format: decl.format,
                },
            );
            return;
        }
        let Some(shape) = c
            .intr
            .index(IndexKind::Block)
            .and_then(BlockShape::from_index)
        else {
            return;
        };
        let bytes = u32::from(shape.width) * u32::from(shape.height) * tb;
        let value = if c.intr.op == IntrinsicOp::ImageBlockStore {
            src_of("data").map(|t| (DataOperand::Data, t))
        } else {
            c.dest.map(|t| (DataOperand::Destination, t))
        };
        if let Some((what, t)) = value {
            self.check_block_value(c, what, t, bytes);
        }
    }
}

impl FnCheck<'_> {
    /// The sampler `ld`/`ld_lz`: the destination holds one component per channel read,
    /// of the size `dest_type` names.
    pub(super) fn check_sampler(&mut self, c: &IntrCtx<'_>) {
        let (op, span) = (c.op, c.span);
        // A gather returns its four texels' channel as R, G, B and A.
        let channels = match op {
            IntrinsicOp::SamplerGather4 => Some(0xf),
            _ => c.intr.index(IndexKind::Channels),
        };
        let (Some(d), Some(ch)) = (c.dest, channels) else {
            return;
        };
        let want = ch.count_ones() as u8;
        if d.num_components() != want {
            self.error(
                span,
                MessageError::SamplerComponents {
                    op,
                    channels: ch,
                    found: d.num_components(),
                },
            );
        }
        let dt = c
            .intr
            .index(IndexKind::DestType)
            .and_then(AluType::from_index);
        match dt {
            Some(t) if t.is_sized() && t.bits != d.bit_size() => self.error(
                span,
                MessageError::SamplerDestType {
                    op,
                    dest_type: t,
                    found: d.bit_size(),
                },
            ),
            _ if !matches!(d.bit_size(), 16 | 32) => self.error(
                span,
                MessageError::SamplerBits {
                    op,
                    found: d.bit_size(),
                },
            ),
            _ => {}
        }
    }
}

impl FnCheck<'_> {
    /// A sampler message's `sampler` index is one a `sampler` declaration covers.
    pub(super) fn check_sampler_index(&mut self, c: &IntrCtx<'_>) {
        if let Some(i) = c.intr.index(IndexKind::Sampler) {
            if self.shader.sampler_for_index(i).is_none() {
                self.error(
                    c.span,
                    MessageError::UndeclaredSampler { op: c.op, index: i },
                );
            }
        }
    }

    /// The sampler `resinfo`: one 32-bit component per channel read, of an image with
    /// mip levels (not a texel buffer).
    pub(super) fn check_resinfo(&mut self, c: &IntrCtx<'_>) {
        let (op, span) = (c.op, c.span);
        if let (Some(decl), Some(image)) = (c.decl, c.image) {
            if decl.dim == ImageDim::Buffer {
                self.error(
                    span,
                    MessageError::ResinfoOfBuffer {
                        op,
                        image: image_name(image, decl),
                    },
                );
            }
        }
        let (Some(d), Some(ch)) = (c.dest, c.intr.index(IndexKind::Channels)) else {
            return;
        };
        if d.num_components() != ch.count_ones() as u8 {
            self.error(
                span,
                MessageError::SamplerComponents {
                    op,
                    channels: ch,
                    found: d.num_components(),
                },
            );
        }
        if d.bit_size() != 32 {
            self.error(
                span,
                MessageError::ResinfoBits {
                    op,
                    found: d.bit_size(),
                },
            );
        }
    }
}
