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
//! | `ssbo_sizes` | `u64`: the address of an array of `u32` sizes in bytes, one per SSBO binding |
//! | `const_data` | `u64`: the address of the shader's constant data (`Shader::constant_data`, read by `load_constant`) |
//! | `ss_<image>` | `u32`: the surface the `bss`/`ss` address models name for the image |
//! | `param_<image>` | `u64`: the address of the image's parameter blocks, 512 bytes per array element, slot `s` of element `i` at byte `512 i + 16 s` |
//!
//! `%r0` (the thread payload header, which the hardware writes) holds the workgroup ids
//! in dwords 1, 6 and 7 (vISA's `%group_id_x/y/z`), and the thread's scratch base in
//! bits 31:10 of dword 5, which the dispatch writes ([`super::scratch`]).
//!
//! The memory the inputs point to (tables, parameter blocks, the push-constant copy, the
//! constant data) is
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
#[non_exhaustive]
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
    /// `ssbo_sizes`.
    SsboSizes,
    /// `const_data`.
    ConstantData,
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
    /// The first binding-table index after the images' surfaces, where the buffers'
    /// surfaces start.
    buffer_surfaces: u64,
    /// The shader's constant data, which `const_data` points to a copy of.
    constant_data: Vec<u8>,
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
                "ssbo_sizes" => (InputKind::SsboSizes, Some(8)),
                "const_data" => (InputKind::ConstantData, Some(8)),
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
        // The binding table (visa/ABI.md, "Surfaces and samplers"): each image's
        // surfaces at `binding + array index`, then the buffers.
        let buffer_surfaces = lowered
            .images
            .iter()
            .map(|d| u64::from(d.binding) + u64::from(d.count.unwrap_or(1)))
            .max()
            .unwrap_or(0);
        Ok(DocumentedAbi {
            values: vec![Vec::new(); inputs.len()],
            inputs,
            workgroups,
            bytes,
            buffer_surfaces,
            constant_data: lowered.constant_data.clone(),
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
        // UBO block `b` at `first + 2 b`, SSBO block `b` at `first + 2 b + 1`, as far as
        // the binding table reaches.
        for b in 0..TABLE_ENTRIES {
            for (k, bound) in [(0, mem.ubo(b)), (1, mem.ssbo(b))] {
                let index = self.buffer_surfaces + 2 * u64::from(b) + k;
                if let Some(id) = bound.filter(|_| index < u64::from(ir::MAX_BINDING_TABLE_ENTRIES))
                {
                    mem.bind_buffer_surface(index as u32, id)
                        .map_err(|e| format!("buffer surface: {e}"))?;
                }
            }
        }
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
                InputKind::SsboSizes => {
                    let mut t = vec![0u8; 4 * TABLE_ENTRIES as usize];
                    for b in 0..TABLE_ENTRIES {
                        if let Some(id) = mem.ssbo(b) {
                            let n = mem.allocation(id).bytes.len().min(u32::MAX as usize);
                            t[4 * b as usize..][..4].copy_from_slice(&(n as u32).to_le_bytes());
                        }
                    }
                    place(mem, "SSBO sizes", t).to_le_bytes().to_vec()
                }
                InputKind::ConstantData => {
                    let data = self.constant_data.clone();
                    place(mem, "constant data", data).to_le_bytes().to_vec()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;
    use crate::visa::reader::read;
    use lowering::Device;

    /// A shader that reads a UBO (block 0), writes SSBO 1 and loads image `@img`
    /// (binding 2): the setup binds all three and fills the push constants.
    const SHADER: &str = "shader compute (local_size=8,2,1)
image @img : 2d r32_uint (binding=2)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0)
    32   %2 = load_const (1)
    32   %3 = @load_ubo (%1, %1) (align_mul=4)
    32   %4 = @image_load (@img, %0.xy) (dest_type=uint32)
    32   %5 = iadd %3, %4
    @store_ssbo (%5, %2, %1) (access=none, align_mul=4)
}
";

    /// The ABI's layout of a SIMD8 kernel on 32-byte registers reading every input:
    /// three 16-byte local-id runs, one register each, then the cross-thread inputs in
    /// the documented order, each aligned to its element size.
    const INPUTS: &str = ".input local_id_x offset=32 size=16
.input local_id_y offset=64 size=16
.input local_id_z offset=96 size=16
.input num_groups offset=128 size=12
.input push offset=140 size=16
.input push_addr offset=160 size=8
.input ubo_table offset=168 size=8
.input ssbo_table offset=176 size=8
.input ss_img offset=184 size=4
.input param_img offset=192 size=8";

    fn decls() -> &'static str {
        ".decl local_id_x v_type=G type=uw num_elts=8
.decl local_id_y v_type=G type=uw num_elts=8
.decl local_id_z v_type=G type=uw num_elts=8
.decl num_groups v_type=G type=ud num_elts=3
.decl push v_type=G type=ud num_elts=4
.decl push_addr v_type=G type=uq num_elts=1
.decl ubo_table v_type=G type=uq num_elts=1
.decl ssbo_table v_type=G type=uq num_elts=1
.decl ss_img v_type=G type=ud num_elts=1
.decl param_img v_type=G type=uq num_elts=1"
    }

    fn program(decls: &str, inputs: &str) -> Result<Program, VisaError> {
        let text = format!(
            ".version 4.1\n.kernel \"k\"\n{decls}\n{inputs}\n.kernel_attr SimdSize=8\n\
             .function \"main\"\nmain:\n    ret (M1, 1)\n"
        );
        read(&text).and_then(|l| Program::new(&l, 32, 1 << 20))
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    /// The bytes of the allocation at address `addr`, from its start.
    fn at_address(mem: &Memory, addr: u64) -> &[u8] {
        let a = mem
            .allocations()
            .iter()
            .find(|a| a.base == addr)
            .unwrap_or_else(|| panic!("no allocation at {addr:#x}"));
        &a.bytes
    }

    #[test]
    fn every_input_holds_what_the_abi_document_says() {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let setup = Setup::default_for(&shader, &device, 3).unwrap();
        let mut mem = setup.build_memory(&shader, &device).unwrap();
        let p = program(decls(), INPUTS).unwrap();
        let mut abi = DocumentedAbi::new(&p, &shader, [5, 6, 7]).unwrap();
        let before = mem.allocations().len();
        abi.prepare(&mut mem).unwrap();
        // The push-constant copy, the two tables and the parameter blocks.
        assert_eq!(mem.allocations().len(), before + 4);
        // Thread 1 of workgroup (4, 5, 6): invocations 8..16 of the 8x2 workgroup,
        // local ids (0..8, 1, 0).
        let lanes = ThreadLanes {
            workgroup: [4, 5, 6],
            workgroup_linear: 4 + 5 * 5 + 6 * 30,
            thread: 1,
            local_ids: (0..8).map(|x| [x, 1, 0]).collect(),
            invocations: (0..8).map(|x| 16 * 209 + 8 + x).collect(),
            dispatch_mask: 0xff,
        };
        let mut out = Vec::new();
        abi.payload(&lanes, &mut out).unwrap();
        assert_eq!(out.len(), 200, "the payload ends with the last input");
        // %r0: the group ids in dwords 1, 6, 7.
        assert_eq!(
            [u32_at(&out, 4), u32_at(&out, 24), u32_at(&out, 28)],
            [4, 5, 6]
        );
        for lane in 0..8 {
            let id =
                |base: usize| u16::from_le_bytes([out[base + 2 * lane], out[base + 2 * lane + 1]]);
            assert_eq!([id(32), id(64), id(96)], [lane as u16, 1, 0]);
        }
        assert_eq!(
            [u32_at(&out, 128), u32_at(&out, 132), u32_at(&out, 136)],
            [5, 6, 7]
        );
        assert_eq!(&out[140..156], &setup.push_constants[..16]);
        assert_eq!(
            at_address(&mem, u64_at(&out, 160)),
            &setup.push_constants[..],
            "push_addr points to a copy of all the push constants"
        );
        // The tables: entry b is the base address of binding b's buffer.
        let ubo = mem.allocation(mem.ubo(0).unwrap()).base;
        let ssbo = mem.allocation(mem.ssbo(1).unwrap()).base;
        let ubo_table = at_address(&mem, u64_at(&out, 168));
        let ssbo_table = at_address(&mem, u64_at(&out, 176));
        assert_eq!(ubo_table.len(), 8 * TABLE_ENTRIES as usize);
        assert_eq!(u64_at(ubo_table, 0), ubo);
        assert_eq!(u64_at(ubo_table, 8), 0, "no UBO at binding 1");
        assert_eq!(u64_at(ssbo_table, 0), 0, "no SSBO at binding 0");
        assert_eq!(u64_at(ssbo_table, 8), ssbo);
        // The surface is the image's binding-table index.
        assert_eq!(u32_at(&out, 184), 2);
        // The parameter block: dword k of the image's parameters at byte 4k.
        let params = at_address(&mem, u64_at(&out, 192));
        let b = mem.image(2).unwrap();
        assert_eq!(params.len(), PARAM_BLOCK_BYTES);
        assert!(b.param.iter().any(|&d| d != 0), "the image has parameters");
        for (k, &d) in b.param.iter().enumerate().take(PARAM_BLOCK_BYTES / 4) {
            assert_eq!(u32_at(params, 4 * k), d, "dword {k}");
        }
        // Registers no input covers keep the interpreter's fill (here zero).
        assert_eq!(&out[156..160], &[0; 4]);
    }

    #[test]
    fn a_partial_thread_leaves_its_missing_lanes_zero() {
        let shader = ir::parse_shader(SHADER).unwrap();
        let p = program(decls(), INPUTS).unwrap();
        let abi = DocumentedAbi::new(&p, &shader, [1, 1, 1]).unwrap();
        let lanes = ThreadLanes {
            workgroup: [0, 0, 0],
            workgroup_linear: 0,
            thread: 0,
            local_ids: vec![[3, 0, 0], [4, 0, 0]],
            invocations: vec![3, 4],
            dispatch_mask: 0b11,
        };
        let mut out = vec![0xee; 8];
        abi.payload(&lanes, &mut out).unwrap();
        assert_eq!(
            &out[32..48],
            &[3, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(&out[0..4], &[0; 4], "the payload starts from zero");
    }

    #[test]
    fn inputs_outside_the_abi_are_errors_at_their_line() {
        let shader = ir::parse_shader(SHADER).unwrap();
        let cases = [
            // An input the ABI does not define.
            (
                ".decl local_id_x v_type=G type=uw num_elts=8\n.decl bogus v_type=G type=ud num_elts=1",
                ".input local_id_x offset=32 size=16\n.input bogus offset=64 size=4",
                "not an input of the vISA back end's ABI",
            ),
            // Local ids of a SIMD8 kernel are 16 bytes.
            (
                ".decl local_id_x v_type=G type=uw num_elts=16",
                ".input local_id_x offset=32 size=32",
                "has 16 bytes, not 32",
            ),
            (
                ".decl num_groups v_type=G type=ud num_elts=2",
                ".input num_groups offset=32 size=8",
                "has 12 bytes, not 8",
            ),
            (
                ".decl push v_type=G type=ub num_elts=6",
                ".input push offset=32 size=6",
                "a multiple of 4",
            ),
            (
                ".decl param_other v_type=G type=uq num_elts=1",
                ".input param_other offset=32 size=8",
                "declares no image `@other`",
            ),
            (
                ".decl ss_other v_type=G type=ud num_elts=1",
                ".input ss_other offset=32 size=4",
                "declares no image `@other`",
            ),
        ];
        for (decls, inputs, what) in cases {
            let p = program(decls, inputs).unwrap();
            let e = DocumentedAbi::new(&p, &shader, [1, 1, 1]).unwrap_err();
            let decl_lines = decls.lines().count() as u32;
            let input_lines = inputs.lines().count() as u32;
            // The last input's line: after `.version`, `.kernel` and the declarations.
            assert_eq!(e.line, 2 + decl_lines + input_lines, "{e}");
            assert!(e.to_string().contains(what), "{e}");
        }
    }
}
