//! Running a vISA kernel on its own: its inputs laid out as the back end's ABI says
//! ([`super::abi::DocumentedAbi`]), over a setup's grid and memory, and the memory
//! returned afterwards. The verifier's leg ([`super::leg`]) compares a kernel with the
//! shader it was made from; this is for tests that read what a kernel computes, such
//! as the vISA back end's ALU tests, which compare each lane's result with `ir::eval`.

use super::abi::DocumentedAbi;
use super::dispatch::{run_workgroups, Grid, GridError, ThreadLanes};
use super::error::VisaError;
use super::leg::{KernelAbi, MAX_REGISTER_BYTES};
use super::program::Program;
use super::reader::read;
use super::run::RunConfig;
use crate::exec::ExecConfig;
use crate::memory::Memory;
use crate::setup::{Setup, SetupError};
use ir::Shader;
use lowering::Device;
use std::fmt;

/// Why a kernel did not run to its end.
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// The setup cannot be built for the shader.
    Setup(SetupError),
    /// The kernel cannot be read or laid out, or its inputs are not the ABI's.
    Kernel(VisaError),
    /// The inputs' memory (tables, parameter blocks) cannot be added.
    Inputs(String),
    /// A thread failed.
    Failed(GridError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Setup(e) => write!(f, "cannot set up the run: {e}"),
            RunError::Kernel(e) => write!(f, "the kernel cannot run: {e}"),
            RunError::Inputs(e) => write!(f, "the kernel's inputs: {e}"),
            RunError::Failed(e) => write!(f, "the kernel failed in {e}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Setup(e) => Some(e),
            _ => None,
        }
    }
}

/// Runs the kernel `text`, made from `shader` for `device`, over `setup`'s grid and
/// memory with `config` (and `device`'s legacy data port), and returns the memory
/// afterwards: the setup's allocations first, in the order [`Setup::build_memory`]
/// makes them, then those the ABI adds.
pub fn run_visa_text(
    shader: &Shader,
    device: &Device,
    setup: &Setup,
    text: &str,
    config: &RunConfig,
) -> Result<Memory, RunError> {
    let program = read(text)
        .and_then(|l| Program::new(&l, device.grf_bytes, MAX_REGISTER_BYTES))
        .map_err(RunError::Kernel)?;
    let mut abi = DocumentedAbi::new(&program, shader, setup.grid).map_err(RunError::Kernel)?;
    let mut mem = setup
        .build_memory(shader, device)
        .map_err(RunError::Setup)?;
    abi.prepare(&mut mem).map_err(RunError::Inputs)?;
    let grid = Grid {
        local_size: shader.local_size,
        workgroups: setup.grid,
        simd: program.simd.unwrap_or(setup.subgroup_size),
        shared_size: ExecConfig::default().shared_size,
        shared_init: Vec::new(),
    };
    let config = RunConfig {
        dataport: device.dataport,
        ..*config
    };
    let mut payload = |l: &ThreadLanes, out: &mut Vec<u8>| abi.payload(l, out);
    run_workgroups(
        &program,
        &grid,
        0..grid.num_workgroups(),
        &mut mem,
        &mut payload,
        &config,
    )
    .map_err(RunError::Failed)?;
    Ok(mem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{BufferKind, BufferSetup};

    /// Each invocation stores `3 * id` at dword `id` of SSBO 0.
    const SHADER: &str = "shader compute (local_size=16,1,1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (4)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0)
    32   %4 = load_const (3)
    32   %5 = imul %0.x, %4
    @store_ssbo (%5, %3, %2) (access=none, align_mul=4)
}
";

    /// The kernel of `SHADER` as the back end lays it out, multiplying by `mul`.
    fn kernel(mul: u32) -> String {
        format!(
            ".version 4.1
.kernel \"main\"
.decl local_id_x v_type=G type=uw num_elts=16
.decl local_id_y v_type=G type=uw num_elts=16
.decl local_id_z v_type=G type=uw num_elts=16
.decl ssbo_table v_type=G type=uq num_elts=1
.decl BASE v_type=G type=uq num_elts=1
.decl G v_type=G type=ud num_elts=16
.decl OFF v_type=G type=ud num_elts=16
.decl V v_type=G type=ud num_elts=16
.decl A v_type=G type=uq num_elts=16
.input local_id_x offset=32 size=32
.input local_id_y offset=64 size=32
.input local_id_z offset=96 size=32
.input ssbo_table offset=128 size=8
.kernel_attr SimdSize=16
.function \"main\"
main:
    mul (M1, 16) G(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud
    add (M1, 16) G(0,0)<1> G(0,0)<1;1,0> local_id_x(0,0)<1;1,0>
    shl (M1, 16) OFF(0,0)<1> G(0,0)<1;1,0> 0x2:ud
    mul (M1, 16) V(0,0)<1> G(0,0)<1;1,0> {mul}:ud
    lsc_load.ugm (M1_NM, 1) BASE:d64 flat[ssbo_table]:a64
    add (M1, 16) A(0,0)<1> BASE(0,0)<0;1,0> OFF(0,0)<1;1,0>
    lsc_store.ugm (M1, 16) flat[A]:a64 V:d32
    ret (M1, 1)
"
        )
    }

    fn setup(shader: &Shader, device: &Device) -> Setup {
        let mut setup = Setup::default_for(shader, device, 5).unwrap();
        setup.grid = [2, 1, 1];
        setup.buffers = vec![BufferSetup {
            kind: BufferKind::Ssbo,
            binding: 0,
            bytes: vec![0; 4 * 32],
        }];
        setup
    }

    #[test]
    fn the_memory_afterwards_holds_what_the_kernel_wrote() {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let setup = setup(&shader, &device);
        let mem =
            run_visa_text(&shader, &device, &setup, &kernel(3), &RunConfig::default()).unwrap();
        let id = mem.ssbo(0).unwrap();
        let words: Vec<u32> = mem.allocation(id).bytes[..4 * 32]
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let want: Vec<u32> = (0..32).map(|i| 3 * i).collect();
        assert_eq!(words, want);
    }

    #[test]
    fn a_kernel_that_cannot_run_is_an_error() {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let setup = setup(&shader, &device);
        let bad_input = kernel(3).replace("ssbo_table", "table");
        let e =
            run_visa_text(&shader, &device, &setup, &bad_input, &RunConfig::default()).unwrap_err();
        assert!(matches!(e, RunError::Kernel(_)), "{e}");
        let budget = RunConfig {
            max_instructions: 3,
            ..RunConfig::default()
        };
        let e = run_visa_text(&shader, &device, &setup, &kernel(3), &budget).unwrap_err();
        assert!(
            matches!(e, RunError::Failed(_)) && e.to_string().contains("workgroup (0, 0, 0)"),
            "{e}"
        );
    }
}
