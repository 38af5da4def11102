// Buffer load and store through a pointer argument (a push constant in the IR twin):
// out[i] = in[i] * 3 + 1.
__kernel __attribute__((reqd_work_group_size(64, 1, 1), intel_reqd_sub_group_size(16)))
void buffer(__global const uint *in, __global uint *out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * 3u + 1u;
}
