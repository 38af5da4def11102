//! What every intrinsic shares: indices, the image operand, sources, the destination;
//! then the checks of its family.

use super::context::{image_name, FnCheck, IntrCtx, UseAt};
use super::dataport;
use super::error::{IntrinsicError, User};
use crate::dominance::{Cfg, DomTree};
use crate::function::IntrinsicInst;
use crate::image::ImageDecl;
use crate::intrinsic::{DestInfo, ImageOperand, IndexKind, IntrinsicOp};
use crate::lsc::AddrType;
use crate::span::Span;
use crate::types::Type;
use smallvec::SmallVec;

/// Number of vec4 slots of an image parameter block that `image_load_param` may read.
pub const IMAGE_PARAM_SLOTS: i32 = 32;

impl FnCheck<'_> {
    pub(super) fn check_intrinsic(
        &mut self,
        intr: &IntrinsicInst,
        dest_ty: Option<Type>,
        span: Span,
        at: UseAt,
        cfg: &Cfg,
        dom: Option<&DomTree>,
    ) {
        let op = intr.op;
        let info = op.info();
        let user = User::Intrinsic(op);

        // Indices first: most shape checks depend on them.
        let mut indices_ok = true;
        if intr.indices.len() != info.indices.len() {
            indices_ok = false;
            self.error(
                span,
                IntrinsicError::IndexCount {
                    op,
                    found: intr.indices.len(),
                },
            );
        } else {
            for (k, &v) in info.indices.iter().zip(&intr.indices) {
                if !k.decodes(v) {
                    indices_ok = false;
                    self.error(
                        span,
                        IntrinsicError::InvalidIndex {
                            op,
                            index: *k,
                            value: v,
                        },
                    );
                }
            }
        }
        let idx = |k: IndexKind| if indices_ok { intr.index(k) } else { None };

        // The image operand.
        let lsc_addr = idx(IndexKind::LscAddr).and_then(AddrType::from_index);
        let wants_image = match info.image {
            ImageOperand::None => Some(false),
            ImageOperand::Required => Some(true),
            ImageOperand::Optional => lsc_addr.map(|a| a != AddrType::Flat),
        };
        let mut decl: Option<&ImageDecl> = None;
        // A data-port message's image operand depends on its address model.
        if let Some(d) = dataport::desc_of(intr).filter(|_| indices_ok) {
            self.check_dataport_image(intr, &d, span);
        }
        match (wants_image, intr.image) {
            _ if op.is_dataport() => {}
            (Some(false), Some(_)) => {
                if info.image == ImageOperand::Optional {
                    self.error(span, IntrinsicError::FlatWithImage { op });
                } else {
                    self.error(span, IntrinsicError::UnexpectedImage { op });
                }
            }
            (Some(true), None) => {
                if let (ImageOperand::Optional, Some(addr)) = (info.image, lsc_addr) {
                    self.error(span, IntrinsicError::MissingSurface { op, addr });
                } else {
                    self.error(span, IntrinsicError::MissingImage { op });
                }
            }
            _ => {}
        }
        if let Some(r) = intr.image {
            match self.shader.images.get(r.image.index()) {
                None => self.error(span, IntrinsicError::UndeclaredImage { op, image: r.image }),
                Some(d) => {
                    decl = Some(d);
                    match (d.count, r.index) {
                        (Some(count), None) => self.error(
                            span,
                            IntrinsicError::MissingArrayIndex {
                                op,
                                image: image_name(r.image, d),
                                count,
                            },
                        ),
                        (None, Some(_)) => self.error(
                            span,
                            IntrinsicError::NotAnArray {
                                op,
                                image: image_name(r.image, d),
                            },
                        ),
                        _ => {}
                    }
                }
            }
            if let Some(index) = r.index {
                if let Some(ty) = self.use_type(index, at, span, cfg, dom, user) {
                    if ty != Type::U32 {
                        self.error(span, IntrinsicError::ImageIndexType { op, found: ty });
                    }
                }
            }
        }

        // Sources.
        let tys: SmallVec<[Option<Type>; 6]> = intr
            .srcs
            .iter()
            .map(|&s| self.use_type(s, at, span, cfg, dom, user))
            .collect();
        let specs = if indices_ok {
            op.srcs(&intr.indices)
        } else {
            None
        };
        let Some(mut specs) = specs else {
            return;
        };
        let n = specs.len();
        let with_pred = info.predicable && intr.srcs.len() == n + 1;
        // Optional trailing sources (the `lod` of `image_load`); never on a predicable
        // intrinsic (see `IntrinsicInfo::optional_srcs`).
        let optional = intr.srcs.len() > n && intr.srcs.len() <= n + info.optional_srcs.len();
        if intr.srcs.len() != n && !with_pred && !optional {
            self.error(
                span,
                IntrinsicError::SourceCount {
                    op,
                    indices: intr.indices.to_vec(),
                    found: intr.srcs.len(),
                },
            );
            return;
        }
        if optional {
            specs.extend_from_slice(&info.optional_srcs[..intr.srcs.len() - n]);
        }
        if with_pred {
            if let Some(ty) = tys[n] {
                if ty != Type::BOOL {
                    self.error(span, IntrinsicError::PredicateType { op, found: ty });
                }
            }
        }
        for (k, spec) in specs.iter().enumerate() {
            let Some(ty) = tys[k] else { continue };
            if spec.components != 0 && ty.num_components() != spec.components {
                self.error(
                    span,
                    IntrinsicError::SourceComponents {
                        op,
                        source: spec.name,
                        expected: spec.components,
                        found: ty.num_components(),
                    },
                );
            }
            if spec.bit_size != 0 && ty.bit_size() != spec.bit_size {
                self.error(
                    span,
                    IntrinsicError::SourceBits {
                        op,
                        source: spec.name,
                        expected: spec.bit_size,
                        found: ty.bit_size(),
                    },
                );
            }
        }
        let src_of = |want: &str| -> Option<Type> {
            specs
                .iter()
                .position(|s| s.name == want)
                .and_then(|k| tys[k])
        };

        // The destination.
        match info.dest {
            DestInfo::None => {
                if dest_ty.is_some() {
                    self.error(span, IntrinsicError::UnexpectedDest { op });
                }
            }
            DestInfo::Fixed {
                components,
                bit_size,
            } => match dest_ty {
                None => self.error(span, IntrinsicError::MissingDest { op }),
                Some(d) => {
                    let want = Type::new(bit_size, components).unwrap_or(Type::U32);
                    if d != want {
                        self.error(
                            span,
                            IntrinsicError::DestType {
                                op,
                                expected: want,
                                found: d,
                            },
                        );
                    }
                }
            },
            DestInfo::Variable => {
                if dest_ty.is_none() {
                    self.error(span, IntrinsicError::MissingDest { op });
                }
            }
        }

        let ctx = IntrCtx {
            op,
            span,
            intr,
            decl,
            image: decl.and(intr.image).map(|r| r.image),
            dest: dest_ty,
        };
        self.check_access_qualifiers(&ctx);
        match op {
            IntrinsicOp::ImageLoad
            | IntrinsicOp::ImageStore
            | IntrinsicOp::ImageAtomic
            | IntrinsicOp::ImageAtomicSwap
            | IntrinsicOp::ImageSize
            | IntrinsicOp::ImageSamples
            | IntrinsicOp::ImageLevels => {
                // The indices decoded (the sources were checked against them).
                self.check_image_access(&ctx, &src_of);
            }
            IntrinsicOp::ImageLoadParam => {
                if let Some(base) = idx(IndexKind::Base) {
                    let base = base as i32;
                    if !(0..IMAGE_PARAM_SLOTS).contains(&base) {
                        self.error(
                            span,
                            IntrinsicError::ParamSlot {
                                op,
                                base,
                                slots: IMAGE_PARAM_SLOTS,
                            },
                        );
                    }
                }
                if let Some(d) = dest_ty {
                    if d.bit_size() != 32 || d.num_components() > 4 {
                        self.error(span, IntrinsicError::ParamDest { op, found: d });
                    }
                }
            }
            IntrinsicOp::LoadScratch | IntrinsicOp::StoreScratch => {
                let ty = if op == IntrinsicOp::LoadScratch {
                    dest_ty
                } else {
                    src_of("data")
                };
                if let Some(t) = ty {
                    let size = self.shader.scratch_size;
                    if t.bit_size() != 32 || t.num_components() > 4 || size == 0 {
                        self.error(
                            span,
                            IntrinsicError::ScratchAccess {
                                op,
                                found: t,
                                scratch_size: size,
                            },
                        );
                    }
                }
            }
            IntrinsicOp::LoadConstant => {
                if let (Some(d), Some(base), Some(range)) =
                    (dest_ty, idx(IndexKind::Base), idx(IndexKind::Range))
                {
                    self.check_load_constant(span, d, base, range);
                }
            }
            _ if op.is_lsc() => {
                // The indices decoded (the sources were checked against them).
                self.check_lsc(&ctx, &src_of);
            }
            _ if op.is_dataport() => self.check_dataport(&ctx, &src_of),
            IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d => {
                self.check_async_copy(&ctx, &src_of);
            }
            IntrinsicOp::LscLoadBlock2d | IntrinsicOp::LscStoreBlock2d => {
                self.check_block2d(&ctx, &src_of);
            }
            IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore => {
                self.check_image_access(&ctx, &src_of);
                self.check_image_block(&ctx, &src_of);
            }
            IntrinsicOp::Txl | IntrinsicOp::Tg4 => {
                self.check_image_access(&ctx, &src_of);
                self.check_txl(&ctx);
                self.check_sampler_index(&ctx);
            }
            IntrinsicOp::SamplerLd
            | IntrinsicOp::SamplerLdLz
            | IntrinsicOp::SamplerLdMcs
            | IntrinsicOp::SamplerLd2dmsW => self.check_sampler(&ctx),
            IntrinsicOp::SamplerSampleL | IntrinsicOp::SamplerGather4 => {
                self.check_sampler(&ctx);
                self.check_sampler_index(&ctx);
            }
            IntrinsicOp::SamplerResinfo => self.check_resinfo(&ctx),
            IntrinsicOp::Reduce
            | IntrinsicOp::InclusiveScan
            | IntrinsicOp::ExclusiveScan
            | IntrinsicOp::ReadFirstInvocation
            | IntrinsicOp::Shuffle
            | IntrinsicOp::ShuffleXor
            | IntrinsicOp::ShuffleUp
            | IntrinsicOp::ShuffleDown
            | IntrinsicOp::QuadBroadcast
            | IntrinsicOp::QuadSwapHorizontal
            | IntrinsicOp::QuadSwapVertical
            | IntrinsicOp::QuadSwapDiagonal => {
                // A lane's value or a combination of lanes' values: the shape of the
                // source, of a size the reduction op takes.
                if let (Some(d), Some(s)) = (dest_ty, src_of("value")) {
                    if d != s {
                        self.error(
                            span,
                            IntrinsicError::DestType {
                                op,
                                expected: s,
                                found: d,
                            },
                        );
                    }
                    let reduction = idx(IndexKind::ReductionOp)
                        .and_then(crate::subgroup::ReductionOp::from_index);
                    if let Some(r) = reduction.filter(|r| !r.takes_bits(s.bit_size())) {
                        self.error(
                            span,
                            IntrinsicError::ReductionType {
                                op,
                                reduction: r,
                                found: s,
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

impl FnCheck<'_> {
    /// `load_constant`: the bytes `base .. base + range` are the shader's constant data
    /// (NIR's `nir_intrinsic_range` bounds what the load may read), a read fits in them,
    /// and `base` is aligned to the components, as NIR's `nir_opt_large_constants`
    /// places each array at its natural alignment. Booleans are refused: NIR widens
    /// them to 32 bits in constant data, and the IR keeps that choice to the producer.
    fn check_load_constant(&mut self, span: Span, d: Type, base: u32, range: u32) {
        let op = IntrinsicOp::LoadConstant;
        if d.bit_size() == 1 {
            self.error(span, IntrinsicError::ConstantBool { op });
            return;
        }
        let comp = u32::from(d.bit_size() / 8);
        let bytes = comp * u32::from(d.num_components());
        let size = self.shader.constant_data.len();
        let end = u64::from(base) + u64::from(range);
        if end > size as u64 || bytes > range {
            self.error(
                span,
                IntrinsicError::ConstantRange {
                    op,
                    base,
                    range,
                    bytes,
                    size,
                },
            );
        }
        if !base.is_multiple_of(comp) {
            self.error(
                span,
                IntrinsicError::ConstantAlign {
                    op,
                    base,
                    align: comp,
                },
            );
        }
    }
}
