//! Lane masks: which lanes of a subgroup an instruction runs on.

/// The largest subgroup the interpreter runs (one bit per lane in a `u32` mask).
pub const MAX_LANES: usize = 32;

/// A set of lanes, bit `i` = lane `i`.
pub(super) type Mask = u32;

/// The lanes of a mask as text: `0, 2, 3` (or `none`).
pub(super) fn lane_list(mask: Mask) -> String {
    if mask == 0 {
        return "none".into();
    }
    lanes_of(mask)
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lanes of a mask, in ascending order.
pub(super) fn lanes_of(mask: Mask) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}
