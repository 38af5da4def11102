//! Moving bytes: 16-byte chunks and runs, with ordinary or streaming (non-temporal) stores.
//!
//! Streaming stores (`movntdq`, SSE2, part of the x86-64 baseline) write whole cache lines
//! straight to memory without first reading them in for ownership, which is what lets a
//! copy much larger than the caches run at `memcpy` speed: glibc's `memcpy` switches to
//! them for large sizes too. They need a 16-byte aligned destination and pay off only when
//! consecutive stores fill whole 64-byte lines, so the kernels call them only in that
//! order (see `kernels`). On other architectures the `NT` variants are ordinary copies.

use std::ptr;

/// Copies 16 bytes from `src` to `dst`, with a streaming store when `NT`.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing 16 bytes, the ranges must not
/// overlap, and with `NT` `dst` must be 16-byte aligned.
#[inline(always)]
pub(super) unsafe fn copy16<const NT: bool>(dst: *mut u8, src: *const u8) {
    #[cfg(target_arch = "x86_64")]
    if NT {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        debug_assert_eq!(
            dst as usize % 16,
            0,
            "streaming store to an unaligned address"
        );
        // SAFETY: the caller guarantees 16 readable bytes at `src` (loadu has no alignment
        // requirement) and 16 writable, 16-byte aligned bytes at `dst`; SSE2 is part of
        // the x86-64 baseline.
        unsafe { _mm_stream_si128(dst.cast::<__m128i>(), _mm_loadu_si128(src.cast())) };
        return;
    }
    // SAFETY: as documented by the caller's contract above.
    unsafe { ptr::copy_nonoverlapping(src, dst, 16) };
}

/// Copies `src` into `dst` (same length), streaming the 16-byte aligned middle when `NT`.
///
/// # Panics
/// If the lengths differ (an internal invariant: callers slice both sides to one run).
#[inline]
pub(super) fn copy_slice<const NT: bool>(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "copy run lengths differ");
    if !NT || cfg!(not(target_arch = "x86_64")) || dst.len() < 64 {
        dst.copy_from_slice(src);
        return;
    }
    let head = dst.as_ptr().align_offset(16).min(dst.len());
    let body = (dst.len() - head) & !15;
    let (d_head, rest) = dst.split_at_mut(head);
    let (d_body, d_tail) = rest.split_at_mut(body);
    let (s_head, rest) = src.split_at(head);
    let (s_body, s_tail) = rest.split_at(body);
    d_head.copy_from_slice(s_head);
    for (d, s) in d_body.chunks_exact_mut(16).zip(s_body.chunks_exact(16)) {
        // SAFETY: `d` and `s` are 16-byte chunks of distinct slices (one is borrowed
        // mutably, the other shared), and `d` starts 16-byte aligned: `head` brought
        // `d_body` to alignment and every chunk is 16 bytes.
        unsafe { copy16::<true>(d.as_mut_ptr(), s.as_ptr()) };
    }
    d_tail.copy_from_slice(s_tail);
}

/// Asks for the cache line at `p` to be fetched soon, without keeping it in the outer
/// caches (`prefetchnta`); a no-op off x86-64. Any address is fine: a prefetch is a hint
/// and never faults.
#[inline(always)]
pub(super) fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch instructions do not access memory architecturally and never
    // fault, whatever the address; SSE is part of the x86-64 baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_NTA};
        _mm_prefetch::<_MM_HINT_NTA>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Orders the streaming stores of a copy before whatever the caller does next (they are
/// weakly ordered); a no-op without `NT`.
#[inline]
pub(super) fn fence<const NT: bool>() {
    #[cfg(target_arch = "x86_64")]
    if NT {
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { std::arch::x86_64::_mm_sfence() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_slice_streams_every_alignment_and_length() {
        let src: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for start in 0..20 {
            for len in [0, 1, 15, 16, 17, 63, 64, 65, 100, 250] {
                let mut dst = vec![0xccu8; 300];
                copy_slice::<true>(&mut dst[start..start + len], &src[..len]);
                assert_eq!(&dst[start..start + len], &src[..len], "{start} {len}");
                assert!(dst[..start].iter().all(|&b| b == 0xcc));
                assert!(dst[start + len..].iter().all(|&b| b == 0xcc));
                fence::<true>();
            }
        }
    }
}
