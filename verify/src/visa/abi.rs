//! The vISA back end's kernel inputs, as its ABI document (`visa/ABI.md`) defines them:
//! what a driver puts in each `.input` the kernel declares, and what those inputs point
//! to in memory.
//!
//! The ABI names every input by its vISA variable, so the kernel's own `.input` lines
//! (name, offset, size) are its whole layout:
//!
//! | variable | contents |
//! |---|---|
//! | `local_id_x`, `local_id_y`, `local_id_z` | the local invocation id of each lane along the axis, `u16` each |
//! | `num_groups` | `u32 x 3`: workgroups dispatched along x, y, z |
//! | `push` | the push-constant bytes `0 .. size` |
//! | `push_addr` | `u64`: the address of a copy of the push constants |
//! | `ubo_table`, `ssbo_table` | `u64`: the address of an array of `u64` base addresses, one per binding |
//! | `ss_<image>` | `u32`: the surface the `bss`/`ss` address models name for the image |
//! | `param_<image>` | `u64`: the address of the image's parameter blocks, 512 bytes per array element, slot `s` of element `i` at byte `512 i + 16 s` |
//!
//! `%r0` (the thread payload header, which the hardware writes) holds the workgroup ids
//! in dwords 1, 6 and 7 (vISA's `%group_id_x/y/z`).
//!
//! The memory the inputs point to (tables, parameter blocks, the push-constant copy) is
//! added to the kernel's memory as allocations of its own, after the setup's
//! ([`KernelAbi::prepare`]); the verifier leaves accesses to them out of its
//! comparison. A table entry of a binding the setup does not bind is 0, an address no
//! allocation covers. A stateful surface is the binding-table index the memory binds
//! the image at ([`super::port`]), so `ss_<image>` holds the image's binding.

use super::dispatch::ThreadLanes;
use super::error::{ErrorKind, VisaError};
use super::leg::KernelAbi;
use super::program::Program;
use crate::memory::Memory;
use ir::Shader;

/// Bytes of one image parameter block (`tiling::image_param`: 128 dwords).
pub const PARAM_BLOCK_BYTES: usize = 512;

/// Entries of the UBO and SSBO tables: bindings `0 .. TABLE_ENTRIES`.
pub const TABLE_ENTRIES: u32 = 256;

/// What an input holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// `local_id_x/y/z`: the local invocation id of each lane along an axis (`u16`).
    LocalId(usize),
    /// `num_groups`.
    NumWorkgroups,
    /// `push`.
    PushConstants,
    /// `push_addr`.
    PushConstantsAddress,
    /// `ubo_table`.
    UboTable,
    /// `ssbo_table`.
    SsboTable,
    /// `ss_<image>`: the binding of the image's first element.
    SurfaceState {
        /// Its binding.
        binding: u32,
    },
    /// `param_<image>`.
    ImageParams {
        /// The binding of the image's first element.
        binding: u32,
        /// Elements of the image array (1 for a single image).
        count: u32,
    },
}

/// One input: what it holds and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbiInput {
    /// What it holds.
    pub kind: InputKind,
    /// Its vISA variable.
    pub name: String,
    /// Byte offset in the register file at kernel entry.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

/// The documented ABI of one kernel: its inputs, and once [`KernelAbi::prepare`] has
/// run, the addresses its pointer inputs hold.
#[derive(Clone, Debug)]
pub struct DocumentedAbi {
    /// Every input, in `.input` order.
    pub inputs: Vec<AbiInput>,
    /// Workgroups in the dispatch (`num_groups`).
    pub workgroups: [u32; 3],
    /// The bytes of each input that is the same for every thread (all but the local
    /// ids), filled by `prepare`.
    values: Vec<Vec<u8>>,
    /// Payload bytes: the end of the last input, at least one register.
    bytes: usize,
}

/// The image declaration of `lowered` named `name`.
fn image<'a>(lowered: &'a Shader, name: &str) -> Option<&'a ir::ImageDecl> {
    lowered.images.iter().find(|d| d.name == name)
}

impl DocumentedAbi {
    /// The ABI of `program` (a kernel the back end made from `lowered`), dispatched as
    /// `workgroups`. An input the ABI does not define, or of the wrong size, is an error
    /// at its `.input` line.
    pub fn new(
        program: &Program,
        lowered: &Shader,
        workgroups: [u32; 3],
    ) -> Result<DocumentedAbi, VisaError> {
        let simd = program.simd.unwrap_or(16);
        let mut inputs = Vec::new();
        let mut bytes = program.layout.grf as usize;
        for slot in &program.layout.inputs {
            let bad = |reason: String| {
                VisaError::new(
                    slot.line,
                    ErrorKind::BadDeclaration {
                        name: slot.name.clone(),
                        reason,
                    },
                )
            };
            let name = slot.name.as_str();
            let (kind, size) = match name {
                "local_id_x" => (InputKind::LocalId(0), Some(2 * simd)),
                "local_id_y" => (InputKind::LocalId(1), Some(2 * simd)),
                "local_id_z" => (InputKind::LocalId(2), Some(2 * simd)),
                "num_groups" => (InputKind::NumWorkgroups, Some(12)),
                "push" => (InputKind::PushConstants, None),
                "push_addr" => (InputKind::PushConstantsAddress, Some(8)),
                "ubo_table" => (InputKind::UboTable, Some(8)),
                "ssbo_table" => (InputKind::SsboTable, Some(8)),
                _ => {
                    if let Some(img) = name.strip_prefix("ss_") {
                        let d = image(lowered, img)
                            .ok_or_else(|| bad(format!("the shader declares no image `@{img}`")))?;
                        (InputKind::SurfaceState { binding: d.binding }, Some(4))
                    } else if let Some(img) = name.strip_prefix("param_") {
                        let d = image(lowered, img)
                            .ok_or_else(|| bad(format!("the shader declares no image `@{img}`")))?;
                        let kind = InputKind::ImageParams {
                            binding: d.binding,
                            count: d.count.unwrap_or(1),
                        };
                        (kind, Some(8))
                    } else {
                        return Err(bad(
                            "is not an input of the vISA back end's ABI (visa/ABI.md)".into(),
                        ));
                    }
                }
            };
            let size_ok = match size {
                Some(s) => slot.size == s,
                None => slot.size % 4 == 0,
            };
            if !size_ok {
                return Err(bad(format!(
                    "the ABI's input has {} bytes, not {}",
                    size.map_or("a multiple of 4".to_string(), |s| s.to_string()),
                    slot.size
                )));
            }
            bytes = bytes.max((slot.offset + slot.size) as usize);
            inputs.push(AbiInput {
                kind,
                name: slot.name.clone(),
                offset: slot.offset,
                size: slot.size,
            });
        }
        Ok(DocumentedAbi {
            values: vec![Vec::new(); inputs.len()],
            inputs,
            workgroups,
            bytes,
        })
    }
}

/// Adds `bytes` to `mem` as a new allocation; returns its address.
fn place(mem: &mut Memory, name: &str, bytes: Vec<u8>) -> u64 {
    let id = mem.alloc(format!("ABI: {name}"), bytes);
    mem.allocation(id).base
}

/// A table of the base addresses of the allocations `bound` gives, one `u64` per
/// binding.
fn table(mem: &Memory, bound: impl Fn(&Memory, u32) -> Option<crate::memory::AllocId>) -> Vec<u8> {
    let mut t = vec![0u8; 8 * TABLE_ENTRIES as usize];
    for b in 0..TABLE_ENTRIES {
        if let Some(id) = bound(mem, b) {
            t[8 * b as usize..][..8].copy_from_slice(&mem.allocation(id).base.to_le_bytes());
        }
    }
    t
}

impl KernelAbi for DocumentedAbi {
    fn prepare(&mut self, mem: &mut Memory) -> Result<(), String> {
        for (i, input) in self.inputs.iter().enumerate() {
            let value: Vec<u8> = match &input.kind {
                InputKind::LocalId(_) => Vec::new(),
                InputKind::NumWorkgroups => self
                    .workgroups
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect(),
                InputKind::PushConstants => {
                    let mut v = mem.push_constants().to_vec();
                    v.resize(input.size as usize, 0);
                    v
                }
                InputKind::PushConstantsAddress => {
                    let copy = mem.push_constants().to_vec();
                    place(mem, "push constants", copy).to_le_bytes().to_vec()
                }
                InputKind::UboTable => {
                    let t = table(mem, Memory::ubo);
                    place(mem, "UBO table", t).to_le_bytes().to_vec()
                }
                InputKind::SsboTable => {
                    let t = table(mem, Memory::ssbo);
                    place(mem, "SSBO table", t).to_le_bytes().to_vec()
                }
                InputKind::SurfaceState { binding } => binding.to_le_bytes().to_vec(),
                InputKind::ImageParams { binding, count } => {
                    let mut blocks = vec![0u8; PARAM_BLOCK_BYTES * *count as usize];
                    for e in 0..*count {
                        let Some(b) = binding.checked_add(e).and_then(|x| mem.image(x)) else {
                            continue;
                        };
                        let block = &mut blocks[PARAM_BLOCK_BYTES * e as usize..];
                        for (k, d) in b.param.iter().enumerate().take(PARAM_BLOCK_BYTES / 4) {
                            block[4 * k..4 * k + 4].copy_from_slice(&d.to_le_bytes());
                        }
                    }
                    let name = format!("parameters of {}", input.name);
                    place(mem, &name, blocks).to_le_bytes().to_vec()
                }
            };
            self.values[i] = value;
        }
        Ok(())
    }

    fn payload(&self, lanes: &ThreadLanes, out: &mut Vec<u8>) -> Result<(), VisaError> {
        out.clear();
        out.resize(self.bytes, 0);
        // %r0: the workgroup ids in dwords 1, 6 and 7.
        let [x, y, z] = lanes.workgroup;
        out[4..8].copy_from_slice(&x.to_le_bytes());
        out[24..28].copy_from_slice(&y.to_le_bytes());
        out[28..32].copy_from_slice(&z.to_le_bytes());
        for (input, value) in self.inputs.iter().zip(&self.values) {
            let o = input.offset as usize;
            let dst = &mut out[o..o + input.size as usize];
            match input.kind {
                InputKind::LocalId(axis) => {
                    for (lane, id) in lanes.local_ids.iter().enumerate() {
                        if let Some(d) = dst.get_mut(2 * lane..2 * lane + 2) {
                            // Local ids fit 16 bits: workgroups have at most 1024
                            // invocations.
                            d.copy_from_slice(&(id[axis] as u16).to_le_bytes());
                        }
                    }
                }
                _ => {
                    let n = dst.len().min(value.len());
                    dst[..n].copy_from_slice(&value[..n]);
                }
            }
        }
        Ok(())
    }
}
