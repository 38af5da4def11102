//! The storage and uniform buffers a run binds, and how big each is.
//!
//! A buffer the shader declares (`buffer @name : ssbo (block=B, size=S[, stride=T])`,
//! [`ir::BufferDecl`]) is bound at each of its blocks with the size its layout gives:
//! `S` bytes, plus [`DEFAULT_RUNTIME_ELEMENTS`] elements of `T` bytes when its last
//! member is a runtime array, as a driver binds the buffer an application sized for its
//! data. A block the shader reaches without declaring it (text written before
//! declarations existed, or by hand) gets [`DEFAULT_SSBO_BYTES`] or
//! [`DEFAULT_UBO_BYTES`]; such blocks are the constant block indices of the accesses,
//! and block 0 stands for an index that is not a constant. `ir-opt run` and `verify`
//! take `--buffer BLOCK=BYTES` to size a storage buffer otherwise (the `sizes` of
//! [`default_buffers`], which also binds a block nothing else names). Contents are a
//! seeded byte pattern.

use crate::contents::{pattern_bytes, SeedRng};
pub use ir::BufferKind;
use ir::{IntrinsicOp, Shader};

/// Default size of storage buffers the shader does not declare, in bytes.
pub const DEFAULT_SSBO_BYTES: usize = 64 * 1024;
/// Default size of uniform buffers the shader does not declare, in bytes.
pub const DEFAULT_UBO_BYTES: usize = 4 * 1024;
/// Default element count of a declared buffer's runtime array: with the 4-byte
/// elements of a `uint data[]`, 64 KiB, the size undeclared buffers get; enough for an
/// element per invocation of a few hundred 8x8 workgroups.
pub const DEFAULT_RUNTIME_ELEMENTS: u64 = 16 * 1024;

/// One buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferSetup {
    /// SSBO or UBO.
    pub kind: BufferKind,
    /// The block index.
    pub binding: u32,
    /// The initial contents.
    pub bytes: Vec<u8>,
}

/// The blocks of `kind` the shader's accesses name by a constant (0 for an index that
/// is not one), sorted, without repeats.
fn accessed_blocks(shader: &Shader, kind: BufferKind) -> Vec<u32> {
    let ops: &[(IntrinsicOp, usize)] = match kind {
        BufferKind::Ssbo => &[
            (IntrinsicOp::LoadSsbo, 0),
            (IntrinsicOp::StoreSsbo, 1),
            (IntrinsicOp::SsboAtomic, 0),
            (IntrinsicOp::SsboAtomicSwap, 0),
            (IntrinsicOp::GetSsboSize, 0),
        ],
        BufferKind::Ubo => &[(IntrinsicOp::LoadUbo, 0)],
    };
    let mut out = Vec::new();
    for func in &shader.functions {
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            let Some(&(_, src)) = ops.iter().find(|(o, _)| *o == intr.op) else {
                continue;
            };
            let Some(s) = intr.srcs.get(src) else {
                continue;
            };
            let c = func
                .value_def(s.value)
                .and_then(|d| func.inst(d).as_const())
                .and_then(|c| c.get(s.swizzle.component(0) as usize).copied());
            out.push(c.map_or(0, |v| v as u32));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The bytes the buffer at block `block` of `kind` gets by default: its declaration's
/// size (with [`DEFAULT_RUNTIME_ELEMENTS`] runtime-array elements), else the kind's
/// default.
pub fn default_bytes(shader: &Shader, kind: BufferKind, block: u32) -> u64 {
    match shader.buffer_for_block(kind, block) {
        Some(d) => d.bytes_with(DEFAULT_RUNTIME_ELEMENTS),
        None => match kind {
            BufferKind::Ssbo => DEFAULT_SSBO_BYTES as u64,
            BufferKind::Ubo => DEFAULT_UBO_BYTES as u64,
        },
    }
}

/// Every buffer of `shader`: each block of each declaration, each block its accesses
/// name and each storage block `ssbo_sizes` sizes (`(block, bytes)`, which replace the
/// default size), storage buffers first, each kind by block index, filled from `rng`.
/// A buffer larger than `max_bytes` is an error naming it, before anything is
/// allocated.
pub fn default_buffers(
    shader: &Shader,
    rng: &mut SeedRng,
    ssbo_sizes: &[(u32, u64)],
    max_bytes: u64,
) -> Result<Vec<BufferSetup>, (String, String)> {
    let mut out = Vec::new();
    for kind in [BufferKind::Ssbo, BufferKind::Ubo] {
        let mut blocks = accessed_blocks(shader, kind);
        if kind == BufferKind::Ssbo {
            blocks.extend(ssbo_sizes.iter().map(|&(b, _)| b));
        }
        for d in shader.buffers.iter().filter(|d| d.kind == kind) {
            // Blocks past u32::MAX are a validation error; bind what exists.
            let end = d.block.saturating_add(d.count.unwrap_or(1));
            blocks.extend(d.block..end);
        }
        blocks.sort_unstable();
        blocks.dedup();
        for block in blocks {
            let chosen = ssbo_sizes
                .iter()
                .find(|&&(b, _)| kind == BufferKind::Ssbo && b == block);
            let bytes = chosen.map_or_else(|| default_bytes(shader, kind, block), |&(_, n)| n);
            if bytes > max_bytes {
                let why = if chosen.is_some() {
                    format!("{bytes} bytes is more than the limit of {max_bytes}")
                } else {
                    format!(
                        "its declaration asks for {bytes} bytes, more than the limit of \
                         {max_bytes}; size it with --buffer {block}=BYTES"
                    )
                };
                return Err((format!("{kind} {block}"), why));
            }
            out.push(BufferSetup {
                kind,
                binding: block,
                bytes: pattern_bytes(rng.next_u64(), bytes as usize),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::parse;

    #[test]
    fn declared_buffers_are_sized_from_their_layout() {
        let shader = parse(
            "shader compute (local_size=1,1,1)
buffer @data : ssbo (block=1, size=16, stride=12)
buffer @pair[2] : ssbo (block=4, size=40)
buffer @u : ubo (block=0, size=48)
fn main {
  block b0:
    32   %0 = load_const (7)
    32   %1 = @get_ssbo_size (%0) (access=none)
    32   %2 = load_const (0)
    32   %3 = @load_ubo (%2, %2) (align_mul=4)
}",
        );
        let mut rng = SeedRng::new(1);
        let got: Vec<(BufferKind, u32, usize)> = default_buffers(&shader, &mut rng, &[], 1 << 28)
            .unwrap()
            .iter()
            .map(|b| (b.kind, b.binding, b.bytes.len()))
            .collect();
        assert_eq!(
            got,
            [
                (BufferKind::Ssbo, 1, 16 + 12 * 16384),
                (BufferKind::Ssbo, 4, 40),
                (BufferKind::Ssbo, 5, 40),
                // Named by get_ssbo_size, not declared.
                (BufferKind::Ssbo, 7, 65536),
                (BufferKind::Ubo, 0, 48),
            ]
        );
        let mut big = shader.clone();
        big.buffers[1].size = u32::MAX;
        let err = default_buffers(&big, &mut SeedRng::new(1), &[], 1 << 28).unwrap_err();
        assert_eq!(err.0, "ssbo 4");
        assert!(err.1.contains("4294967295 bytes"), "{}", err.1);
        // Sizes given replace the declaration's, and bind blocks nothing names.
        let sized = default_buffers(
            &big,
            &mut SeedRng::new(1),
            &[(4, 12), (5, 40), (9, 3)],
            1 << 28,
        )
        .unwrap();
        let got: Vec<(u32, usize)> = sized
            .iter()
            .filter(|b| b.kind == BufferKind::Ssbo)
            .map(|b| (b.binding, b.bytes.len()))
            .collect();
        assert_eq!(
            got,
            [(1, 16 + 12 * 16384), (4, 12), (5, 40), (7, 65536), (9, 3)]
        );
    }
}
