// A divergent branch, as examples/buffer_image.ir: every invocation writes a buffer,
// invocation 0 also its size.
__kernel __attribute__((reqd_work_group_size(64, 1, 1), intel_reqd_sub_group_size(16)))
void branch(__global const uchar4 *in, __global uint *out, __global uint *size, uint n) {
    uint i = get_global_id(0);
    uchar4 t = in[i];
    out[i] = t.x | (t.y << 8) | (t.z << 16) | ((uint)t.w << 24);
    if (i == 0)
        size[0] = n;
}
