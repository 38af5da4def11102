//! Helpers for the interpreter's tests: run a small kernel and read its variables.

use super::program::Program;
use super::reader::read;
use super::run::{NoMemory, RunConfig, Stop, Thread, ThreadInit};
use crate::memory::{AllocId, Memory};

/// A kernel with `decls` and `body` (one statement per line), ending with `ret`.
pub fn kernel(simd: u32, decls: &str, body: &str) -> String {
    format!(
        ".version 4.1\n.kernel \"t\"\n{decls}\n.kernel_attr SimdSize={simd}\n.function \"main\"\nmain:\n{body}\n    ret (M1, 1)\n"
    )
}

/// Runs `text` on `grf`-byte registers with the dispatch mask `dispatch` and `%cr0 =
/// cr0`, a zero payload of 4 KiB, and returns the program and finished thread.
pub fn run_with(text: &str, grf: u32, dispatch: u32, cr0: u32) -> (Program, Thread) {
    let listing = read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let program = Program::new(&listing, grf, 1 << 20).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let config = RunConfig {
        cr0,
        ..RunConfig::default()
    };
    let payload = vec![0u8; 4096];
    let init = ThreadInit {
        payload: &payload,
        dispatch_mask: dispatch,
        hw_id: 0,
    };
    let mut t = Thread::new(&program, &init, &config).unwrap();
    let stop = t
        .run(&program, &mut NoMemory, &config)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(stop, Stop::Done);
    (program, t)
}

/// Runs `text` with 32-byte registers, all channels of `simd` dispatched, `%cr0 = 0`.
pub fn run(text: &str, simd: u32) -> (Program, Thread) {
    let mask = if simd >= 32 {
        u32::MAX
    } else {
        (1 << simd) - 1
    };
    run_with(text, 32, mask, 0)
}

/// The elements of variable `name` (as its declared type's bits).
pub fn elems(p: &Program, t: &Thread, name: &str) -> Vec<u64> {
    let v = p.layout.general_var(name, u32::MAX).unwrap();
    (0..v.num_elts)
        .map(|i| t.regs.read(v.start + i * v.ty.size(), v.ty.size()))
        .collect()
}

/// Element 0 of `name`.
pub fn elem(p: &Program, t: &Thread, name: &str) -> u64 {
    elems(p, t, name)[0]
}

/// The bits of predicate `name`.
pub fn pred(p: &Program, t: &Thread, name: &str) -> u32 {
    t.regs.preds[p.layout.pred_var(name, u32::MAX).unwrap()]
}

/// The first `n` little-endian dwords of allocation `id`.
pub fn words(mem: &Memory, id: AllocId, n: usize) -> Vec<u32> {
    mem.allocation(id).bytes[..4 * n]
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
