//! Whether an intrinsic's descriptor index is uniform over the lanes that run it.

use super::lanes::{lanes_of, Mask};
use crate::function::IntrinsicInst;

/// Two active lanes that give an intrinsic without `non_uniform` different descriptor
/// indices, as `(lane, index)` (the lowest lane first), if there are such lanes.
pub(super) fn divergent_index(
    intr: &IntrinsicInst,
    mask: Mask,
    lanes: usize,
    src_data: &[u64],
    image_index: Option<usize>,
    src_offsets: &[usize],
) -> Option<((usize, u64), (usize, u64))> {
    if intr.is_non_uniform() {
        return None;
    }
    let index_of = |lane: usize| -> Option<u64> {
        if let Some(off) = image_index {
            return src_data.get(off + lane).copied();
        }
        let pos = intr.op.info().srcs.iter().position(|s| s.name == "block")?;
        let _ = intr.srcs.get(pos)?;
        src_data.get(src_offsets.get(pos)? + lane).copied()
    };
    let mut active = lanes_of(mask).filter(|&l| l < lanes);
    let first = active.next()?;
    let want = index_of(first)?;
    active
        .filter_map(|l| index_of(l).map(|i| (l, i)))
        .find(|&(_, i)| i != want)
        .map(|other| ((first, want), other))
}
