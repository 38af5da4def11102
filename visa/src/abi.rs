//! The kernel's inputs: what a driver puts where (documented for drivers in
//! `visa/ABI.md`).
//!
//! Every input is a vISA `.input` variable at a byte offset of the register file at
//! kernel entry. Register 0 is the thread payload header (`%r0`; the workgroup ids are
//! the predefined `%group_id_x/y/z`). The per-thread inputs follow: the local invocation
//! ids x, y and z of every lane, 16 bits each, each axis in its own run of whole
//! registers. The cross-thread inputs follow them, each present only when the kernel
//! reads it, in a fixed order: the workgroup count, the push constants, the address of
//! the push constants (only for dynamic offsets), the UBO and SSBO address tables, the
//! SSBO size table, the address of the shader's constant data, the surface-state
//! offsets, and one parameter-block address per image whose parameters the kernel reads.
//!
//! The emitting modules ask for an input when they need it ([`AbiBuilder`]); the layout
//! is fixed once the body is emitted ([`AbiBuilder::finish`]).

use crate::decl::{Align, Decls, VarId};
use crate::vtype::VType;
use std::fmt::Write as _;

/// What an input holds.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum InputKind {
    /// The local invocation id along an axis (0 = x, 1 = y, 2 = z) of each lane, as
    /// `u16` per lane.
    LocalId(u8),
    /// `u32 x 3`: the number of workgroups dispatched along x, y and z.
    NumWorkgroups,
    /// The push-constant bytes `0..size`.
    PushConstants,
    /// `u64`: the address of a copy of the push constants in memory, read when an
    /// offset is not a constant.
    PushConstantsAddress,
    /// `u64`: the address of the UBO table, one `u64` base address per binding.
    UboTable,
    /// `u64`: the address of the SSBO table, one `u64` base address per binding.
    SsboTable,
    /// `u64`: the address of the SSBO size table, one `u32` size in bytes per binding
    /// (`get_ssbo_size`).
    SsboSizes,
    /// `u64`: the address of the shader's constant data (`load_constant`), which a
    /// driver uploads with the kernel (anv relocates this address into its code).
    ConstantData,
    /// `u32`: the surface-state offset of an image accessed through the `bss` or `ss`
    /// address models.
    SurfaceState {
        /// The image's name (without `@`).
        image: String,
    },
    /// `u64`: the address of the image's parameter blocks (`tiling::image_param`, 512
    /// bytes each, one per array element).
    ImageParams {
        /// The image's name (without `@`).
        image: String,
    },
}

/// One input of the kernel.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Input {
    /// What it holds.
    pub kind: InputKind,
    /// The vISA variable.
    pub name: String,
    /// Byte offset in the register file at kernel entry.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

/// The kernel's inputs and their layout.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Abi {
    /// The kernel's SIMD width (lanes per hardware thread).
    pub simd: u32,
    /// Bytes per register.
    pub grf_bytes: u32,
    /// Bytes of per-thread inputs (the local ids), starting at register 1.
    pub per_thread_bytes: u32,
    /// Bytes of cross-thread inputs, starting right after the per-thread inputs.
    pub cross_thread_bytes: u32,
    /// Every input, in register order.
    pub inputs: Vec<Input>,
    /// Bytes of each thread's scratch space the kernel's own scratch accesses use, at
    /// its start: the shader's `scratch_size` times `simd` (0 without scratch). The
    /// driver gives each thread at least this plus the finalizer's spill size, and the
    /// kernel says it as `.kernel_attr SpillMemOffset` (visa/ABI.md, "Scratch memory").
    pub scratch_bytes: u32,
}

impl Abi {
    /// The input of `kind`, if the kernel has it.
    pub fn input(&self, kind: &InputKind) -> Option<&Input> {
        self.inputs.iter().find(|i| &i.kind == kind)
    }
}

#[derive(Clone, Debug)]
struct Pending {
    kind: InputKind,
    var: VarId,
    size: u32,
    align: u32,
}

/// Collects the inputs the body asks for.
#[derive(Clone, Debug)]
pub struct AbiBuilder {
    simd: u32,
    grf: u32,
    local_ids: [VarId; 3],
    cross: Vec<Pending>,
}

/// The order of cross-thread inputs.
fn rank(kind: &InputKind) -> u32 {
    match kind {
        InputKind::LocalId(_) => 0,
        InputKind::NumWorkgroups => 1,
        InputKind::PushConstants => 2,
        InputKind::PushConstantsAddress => 3,
        InputKind::UboTable => 4,
        InputKind::SsboTable => 5,
        InputKind::SsboSizes => 6,
        InputKind::ConstantData => 7,
        InputKind::SurfaceState { .. } => 8,
        InputKind::ImageParams { .. } => 9,
    }
}

impl AbiBuilder {
    /// The inputs of a kernel of `simd` lanes with `grf`-byte registers; declares the
    /// local-id inputs, which every kernel has.
    pub fn new(simd: u32, grf: u32, decls: &mut Decls) -> AbiBuilder {
        let ids = ["local_id_x", "local_id_y", "local_id_z"]
            .map(|n| decls.var(n.to_string(), VType::Uw, simd, Align::Grf));
        AbiBuilder {
            simd,
            grf,
            local_ids: ids,
            cross: Vec::new(),
        }
    }

    /// The variable of the local ids along `axis` (`u16` per lane).
    pub fn local_id(&self, axis: usize) -> VarId {
        self.local_ids[axis]
    }

    fn get(
        &mut self,
        decls: &mut Decls,
        kind: InputKind,
        name: &str,
        ty: VType,
        elts: u32,
    ) -> VarId {
        if let Some(p) = self.cross.iter().find(|p| p.kind == kind) {
            return p.var;
        }
        let var = decls.var(name.to_string(), ty, elts, Align::Natural);
        self.cross.push(Pending {
            kind,
            var,
            size: ty.bytes() * elts,
            align: ty.bytes(),
        });
        var
    }

    /// `u32 x 3`: the workgroup counts.
    pub fn num_workgroups(&mut self, decls: &mut Decls) -> VarId {
        self.get(decls, InputKind::NumWorkgroups, "num_groups", VType::Ud, 3)
    }

    /// The push constants, at least `bytes` long (a multiple of 4). The variable grows
    /// to the largest size asked for.
    pub fn push_constants(&mut self, decls: &mut Decls, bytes: u32) -> VarId {
        let bytes = bytes.div_ceil(4) * 4;
        if let Some(p) = self
            .cross
            .iter_mut()
            .find(|p| p.kind == InputKind::PushConstants)
        {
            if p.size < bytes {
                p.size = bytes;
                decls.resize(p.var, bytes / 4);
            }
            return p.var;
        }
        self.get(
            decls,
            InputKind::PushConstants,
            "push",
            VType::Ud,
            bytes.max(4) / 4,
        )
    }

    /// `u64`: the address of the push constants in memory.
    pub fn push_constants_address(&mut self, decls: &mut Decls) -> VarId {
        self.get(
            decls,
            InputKind::PushConstantsAddress,
            "push_addr",
            VType::Uq,
            1,
        )
    }

    /// `u64`: the UBO table.
    pub fn ubo_table(&mut self, decls: &mut Decls) -> VarId {
        self.get(decls, InputKind::UboTable, "ubo_table", VType::Uq, 1)
    }

    /// `u64`: the SSBO table.
    pub fn ssbo_table(&mut self, decls: &mut Decls) -> VarId {
        self.get(decls, InputKind::SsboTable, "ssbo_table", VType::Uq, 1)
    }

    /// `u64`: the SSBO size table.
    pub fn ssbo_sizes(&mut self, decls: &mut Decls) -> VarId {
        self.get(decls, InputKind::SsboSizes, "ssbo_sizes", VType::Uq, 1)
    }

    /// `u64`: the shader's constant data.
    pub fn constant_data(&mut self, decls: &mut Decls) -> VarId {
        self.get(decls, InputKind::ConstantData, "const_data", VType::Uq, 1)
    }

    /// `u64`: the parameter blocks of image `image`.
    pub fn image_params(&mut self, decls: &mut Decls, image: &str) -> VarId {
        let kind = InputKind::ImageParams {
            image: image.to_string(),
        };
        self.get(decls, kind, &format!("param_{image}"), VType::Uq, 1)
    }

    /// `u32`: the surface-state offset of image `image`.
    pub fn surface_state(&mut self, decls: &mut Decls, image: &str) -> VarId {
        let kind = InputKind::SurfaceState {
            image: image.to_string(),
        };
        self.get(decls, kind, &format!("ss_{image}"), VType::Ud, 1)
    }

    /// Lays the inputs out; returns the ABI and the `.input` lines.
    pub fn finish(mut self, decls: &Decls) -> (Abi, String) {
        let grf = self.grf;
        let id_bytes = (self.simd * 2).div_ceil(grf) * grf;
        let mut inputs = Vec::new();
        let mut off = grf;
        for (axis, v) in self.local_ids.iter().enumerate() {
            inputs.push(Input {
                kind: InputKind::LocalId(axis as u8),
                name: decls.name(*v).to_string(),
                offset: off,
                size: self.simd * 2,
            });
            off += id_bytes;
        }
        let per_thread = off - grf;
        let cross_start = off;
        // A stable sort keeps the image parameter blocks in the order they were asked
        // for, which is program order.
        self.cross.sort_by_key(|p| rank(&p.kind));
        for p in &self.cross {
            let mut o = off.div_ceil(p.align) * p.align;
            if p.size >= grf {
                o = o.div_ceil(grf) * grf;
            } else if o / grf != (o + p.size - 1) / grf {
                // An input smaller than a register may not cross one (vISA spec, input
                // variables).
                o = o.div_ceil(grf) * grf;
            }
            inputs.push(Input {
                kind: p.kind.clone(),
                name: decls.name(p.var).to_string(),
                offset: o,
                size: p.size,
            });
            off = o + p.size;
        }
        let cross = off - cross_start;
        let mut text = String::new();
        for i in &inputs {
            let _ = writeln!(
                text,
                ".input {} offset={} size={}",
                i.name, i.offset, i.size
            );
        }
        (
            Abi {
                simd: self.simd,
                grf_bytes: grf,
                per_thread_bytes: per_thread,
                cross_thread_bytes: cross,
                inputs,
                scratch_bytes: 0,
            },
            text,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_follows_the_documented_order() {
        let mut d = Decls::default();
        let mut a = AbiBuilder::new(16, 32, &mut d);
        a.ssbo_table(&mut d);
        a.image_params(&mut d, "src");
        a.constant_data(&mut d);
        a.push_constants(&mut d, 6);
        a.num_workgroups(&mut d);
        a.push_constants(&mut d, 16);
        a.image_params(&mut d, "dst");
        let (abi, text) = a.finish(&d);
        // r0 | 3 x 32 bytes of local ids | num_groups (12) | push (16 at 140, inside the
        // register 128..160) | ssbo_table (8-aligned: 160) | const_data | params in
        // request order.
        assert_eq!(
            text,
            ".input local_id_x offset=32 size=32\n\
             .input local_id_y offset=64 size=32\n\
             .input local_id_z offset=96 size=32\n\
             .input num_groups offset=128 size=12\n\
             .input push offset=140 size=16\n\
             .input ssbo_table offset=160 size=8\n\
             .input const_data offset=168 size=8\n\
             .input param_src offset=176 size=8\n\
             .input param_dst offset=184 size=8\n"
        );
        assert_eq!(abi.per_thread_bytes, 96);
        assert_eq!(abi.cross_thread_bytes, 64);
        assert_eq!(abi.input(&InputKind::PushConstants).unwrap().size, 16);
    }

    #[test]
    fn simd8_and_large_inputs() {
        let mut d = Decls::default();
        let mut a = AbiBuilder::new(8, 32, &mut d);
        a.num_workgroups(&mut d);
        a.push_constants(&mut d, 40);
        a.ssbo_table(&mut d);
        let (abi, _) = a.finish(&d);
        // SIMD8: 16 bytes of ids per axis, one register each; 40 bytes of push
        // constants (more than a register) start one: 160, after num_groups at 128;
        // the table does not cross a register: 200.
        assert_eq!(abi.inputs[1].offset, 64);
        assert_eq!(abi.inputs[3].offset, 128);
        assert_eq!((abi.inputs[4].offset, abi.inputs[4].size), (160, 40));
        assert_eq!(abi.inputs[5].offset, 200);
    }
}
