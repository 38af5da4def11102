// The kernel of simd8.cl, simd16.cl and simd32.cl at SIMD8 (intel_reqd_sub_group_size):
// the per-thread payload (the local ids) and PerThreadInputSize follow the width.
__kernel __attribute__((reqd_work_group_size(64, 1, 1), intel_reqd_sub_group_size(8)))
void simd8(__global uint *out) {
    out[get_global_id(0)] = get_local_id(0) + 1u;
}
