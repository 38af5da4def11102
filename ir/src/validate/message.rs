//! Messages: LSC messages, 2D block messages, image block accesses and the sampler
//! `ld`/`ld_lz`.

use super::context::{FnCheck, IntrCtx};
use crate::image::{Format, ImageDim};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::{AddrSize, BlockShape, DataShape, Sfid};
use crate::types::{AluType, Type};

impl FnCheck<'_> {
    pub(super) fn check_lsc(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (name, span) = (c.name, c.span);
        let dec = |k: IndexKind| intr.index(k);
        let (Some(sfid), Some(asz), Some(shape)) = (
            dec(IndexKind::LscSfid).and_then(|v| Sfid::ALL.get(v as usize).copied()),
            dec(IndexKind::LscAddrSize).and_then(|v| AddrSize::ALL.get(v as usize).copied()),
            dec(IndexKind::LscData).and_then(DataShape::from_index),
        ) else {
            return;
        };
        let op = intr.op;
        let quad = matches!(op, IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad);
        if quad && shape.cmask == 0 {
            self.error(
                span,
                format!("{name} needs a channel-mask data shape such as d32.xyzw, found lsc_data={shape}"),
            );
        } else if !quad && shape.cmask != 0 {
            self.error(
                span,
                format!("{name} takes a vector data shape such as d32x4, found the channel mask lsc_data={shape}"),
            );
        }
        if sfid != Sfid::Tgm {
            if let Some(t) = src_of("addr") {
                if t.bit_size() != asz.bits() {
                    self.error(
                        span,
                        format!(
                            "{name}: the address is {}-bit, expected {}-bit for lsc_addr_size={}",
                            t.bit_size(),
                            asz.bits(),
                            asz.name()
                        ),
                    );
                }
            }
        }
        let comps = shape.components();
        let bits = shape.size.reg_bits();
        let Some(want) = Type::new(bits, comps) else {
            self.error(
                span,
                format!("{name}: lsc_data={shape} has {comps} components per address, which no IR value can hold"),
            );
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
                        format!(
                            "{name}: the destination is {d}, expected {want} for lsc_data={shape}"
                        ),
                    );
                }
            }
        }
        if let Some(t) = src_of("data") {
            if t != want {
                self.error(
                    span,
                    format!("{name}: the data is {t}, expected {want} for lsc_data={shape}"),
                );
            }
        }
        if op == IntrinsicOp::LscAtomic {
            for which in ["src1", "src2"] {
                if let Some(t) = src_of(which) {
                    if t.bit_size() != bits {
                        self.error(
                            span,
                            format!(
                                "{name}: atomic operand `{which}` is {}-bit, expected {bits}-bit for lsc_data={shape}",
                                t.bit_size()
                            ),
                        );
                    }
                }
            }
        }
    }
}

// ----- 2D block messages and image block accesses ---------------------------------------
//
// A block message moves a register image R (`docs/hardware/lsc.md §8`;
// `BlockShape::register_bytes`)
// that is spread over the lanes of a subgroup: component k of lane i of a value of `b`
// bits holds bytes `R[(k * SG + i) * b / 8 ..][.. b / 8]`, SG being the shader's
// `subgroup_size`. So the value's components x bits x SG must be the image's size.

impl FnCheck<'_> {
    /// The data (or destination) of a subgroup-level block access: 8- to 64-bit
    /// components that spread `bytes` over the shader's subgroup.
    pub(super) fn check_block_value(&mut self, c: &IntrCtx<'_>, what: &str, ty: Type, bytes: u32) {
        let (name, span) = (c.name, c.span);
        if ty.bit_size() < 8 {
            self.error(
                span,
                format!("{name}: {what} is {ty}; block data has 8-, 16-, 32- or 64-bit components"),
            );
            return;
        }
        let Some(sg) = self.shader.subgroup_size else {
            self.error(
                span,
                format!(
                    "{name} spreads its data over a subgroup, so the shader must fix `subgroup_size` in its header"
                ),
            );
            return;
        };
        let have = u32::from(ty.num_components()) * u32::from(ty.bit_size()) / 8 * sg;
        if have != bytes {
            self.error(
                span,
                format!(
                    "{name}: {what} is {ty}, which spreads {have} bytes over a subgroup of {sg}, but the block is {bytes} bytes"
                ),
            );
        }
    }

    pub(super) fn check_block2d(&mut self, c: &IntrCtx<'_>, src_of: &dyn Fn(&str) -> Option<Type>) {
        let intr = c.intr;
        let (name, span) = (c.name, c.span);
        let (Some(sfid), Some(data), Some(shape)) = (
            intr.index(IndexKind::LscSfid)
                .and_then(|v| Sfid::ALL.get(v as usize).copied()),
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
            other => {
                self.error(
                    span,
                    format!(
                        "{name}: 2D block messages go to .ugm or .tgm, found lsc_sfid={}",
                        other.name()
                    ),
                );
                return;
            }
        };
        if data.size.is_conversion() || data.vect != 1 || data.transpose || data.cmask != 0 {
            self.error(
                span,
                format!(
                    "{name}: lsc_data of a block message is d8, d16, d32 or d64 (transpose and VNNI are in lsc_block), found {data}"
                ),
            );
            return;
        }
        if typed == shape.is_untyped() {
            self.error(
                span,
                if typed {
                    format!("{name}: a .tgm block is WxH in bytes (`8x8`), found lsc_block={shape}")
                } else {
                    format!(
                        "{name}: a .ugm block is [BxWxH] with transpose and VNNI flags (`16x8nn`), found lsc_block={shape}"
                    )
                },
            );
            return;
        }
        match (typed, c.decl) {
            (true, None) if intr.image.is_none() => self.error(
                span,
                format!("{name} on .tgm needs an image operand (the surface)"),
            ),
            (true, Some(d)) if d.dim != ImageDim::D2 || d.arrayed => self.error(
                span,
                format!(
                    "{name} on .tgm addresses a 2D surface, but `@{}` is a {}{} image",
                    d.name,
                    d.dim,
                    if d.arrayed { " array" } else { "" }
                ),
            ),
            (false, _) if intr.image.is_some() => self.error(
                span,
                format!("{name} on .ugm is flat (the surface is in the payload) and cannot name an image"),
            ),
            _ => {}
        }
        let bytes = shape.register_bytes(data.size.mem_bytes());
        let value = if intr.op == IntrinsicOp::LscStoreBlock2d {
            src_of("data").map(|t| ("the data", t))
        } else {
            c.dest.map(|t| ("the destination", t))
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
        let (name, span) = (c.name, c.span);
        let Some(decl) = c.decl else { return };
        if decl.dim != ImageDim::D2 || decl.arrayed {
            self.error(
                span,
                format!(
                    "{name} reads and writes 2D blocks of a non-arrayed 2D image, but `@{}` is a {}{} image",
                    decl.name,
                    decl.dim,
                    if decl.arrayed { " array" } else { "" }
                ),
            );
            return;
        }
        if decl.format == Format::None {
            self.error(
                span,
                format!(
                    "{name}: `@{}` has no format, so its texel size is unknown",
                    decl.name
                ),
            );
            return;
        }
        let tb = decl.format.bits_per_texel() / 8;
        if !matches!(tb, 1 | 2 | 4 | 8) {
            self.error(
                span,
                format!(
                    "{name}: block accesses move texels of 1, 2, 4 or 8 bytes, but {} texels are {tb} bytes",
                    decl.format
                ),
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
            src_of("data").map(|t| ("the data", t))
        } else {
            c.dest.map(|t| ("the destination", t))
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
        let (name, span) = (c.name, c.span);
        let (Some(d), Some(ch)) = (c.dest, c.intr.index(IndexKind::Channels)) else {
            return;
        };
        let want = ch.count_ones() as u8;
        if d.num_components() != want {
            let chans = IndexKind::Channels.format_value(ch).unwrap_or_default();
            self.error(
                span,
                format!(
                    "{name}: the destination has {} components, expected {want} for channels={chans}",
                    d.num_components()
                ),
            );
        }
        let dt = c
            .intr
            .index(IndexKind::DestType)
            .and_then(AluType::from_index);
        match dt {
            Some(t) if t.is_sized() && t.bits != d.bit_size() => self.error(
                span,
                format!(
                    "{name}: dest_type {t} does not match the {}-bit destination",
                    d.bit_size()
                ),
            ),
            _ if !matches!(d.bit_size(), 16 | 32) => self.error(
                span,
                format!(
                    "{name}: the destination is {}-bit; the sampler returns 16 or 32-bit data",
                    d.bit_size()
                ),
            ),
            _ => {}
        }
    }
}
