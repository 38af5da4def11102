//! What the frontend's executor tests share.

use verify::exec::{ExecConfig, Executor};

/// Runs `workgroups` of `shader` (subgroups of 8) with storage buffer 0 holding the
/// words `init`; the words afterwards.
pub fn run_words(shader: &ir::Shader, workgroups: [u32; 3], init: &[u32]) -> Vec<u32> {
    let mut ex = Executor::with_config(
        shader,
        ExecConfig {
            subgroup_size: 8,
            ..ExecConfig::default()
        },
    );
    let bytes: Vec<u8> = init.iter().flat_map(|w| w.to_le_bytes()).collect();
    let buf = ex.memory.alloc("buf", bytes);
    ex.memory.bind_ssbo(0, buf);
    ex.run(workgroups).unwrap_or_else(|e| panic!("{e}"));
    ex.memory
        .allocation(buf)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
