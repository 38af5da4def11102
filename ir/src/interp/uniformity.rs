//! Whether an intrinsic's descriptor index is uniform over the lanes that run it.

use super::lanes::{lanes_of, Mask};
use crate::function::IntrinsicInst;

/// Where `src_data` holds an intrinsic's descriptor index, lane 0's entry: the image
/// index (at `image_index`) or its `block` source; `None` if it takes neither.
pub(super) fn index_offset(
    intr: &IntrinsicInst,
    image_index: Option<usize>,
    src_offsets: &[usize],
) -> Option<usize> {
    image_index.or_else(|| {
        let pos = intr.op.info().srcs.iter().position(|s| s.name == "block")?;
        intr.srcs.get(pos)?;
        src_offsets.get(pos).copied()
    })
}

/// Two active lanes that give an intrinsic without `non_uniform` different descriptor
/// indices, as `(lane, index)` (the lowest lane first), if there are such lanes; `at`
/// is the indices' place in `src_data` ([`index_offset`]).
pub(super) fn divergent_index(
    intr: &IntrinsicInst,
    mask: Mask,
    lanes: usize,
    src_data: &[u64],
    at: Option<usize>,
) -> Option<((usize, u64), (usize, u64))> {
    if intr.is_non_uniform() {
        return None;
    }
    let at = at?;
    let index_of = |lane: usize| src_data.get(at + lane).copied();
    let mut active = lanes_of(mask).filter(|&l| l < lanes);
    let first = active.next()?;
    let want = index_of(first)?;
    active
        .filter_map(|l| index_of(l).map(|i| (l, i)))
        .find(|&(_, i)| i != want)
        .map(|other| ((first, want), other))
}
