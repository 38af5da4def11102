// A barrier and shared local memory, as the transpose in examples/async_copy.ir: a
// 16x16 tile is written to SLM, and read back transposed after the barrier.
__kernel __attribute__((reqd_work_group_size(16, 16, 1), intel_reqd_sub_group_size(16)))
void barrier_slm(__global const uint *in, __global uint *out) {
    __local uint tile[16 * 17];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint gx = get_global_id(0), gy = get_global_id(1);
    tile[ly * 17 + lx] = in[gy * get_global_size(0) + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gy * get_global_size(0) + gx] = tile[lx * 17 + ly];
}
