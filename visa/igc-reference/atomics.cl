// Atomics, as examples/histogram.ir: a returning add into a 16-bin histogram and a
// compare-exchange, their results stored.
__kernel __attribute__((reqd_work_group_size(8, 8, 1), intel_reqd_sub_group_size(16)))
void atomics(__global const uint *src, __global uint *hist, __global uint *owner,
             __global uint2 *out) {
    uint i = get_global_id(0) + get_global_id(1) * 64u;
    uint bin = src[i] & 15u;
    uint old = atomic_add(&hist[bin], 1u);
    uint prev = atomic_cmpxchg(&owner[bin], owner[bin], i + 1u);
    out[i] = (uint2)(old, prev);
}
