// Image read and write, as examples/blur.ir: a 3x1 box blur of an RGBA8 image into an
// R32_UINT image, one work-item per texel, 8x8 work-groups.
__kernel __attribute__((reqd_work_group_size(8, 8, 1), intel_reqd_sub_group_size(16)))
void image_rw(__read_only image2d_t src, __write_only image2d_t dst) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 a = read_imagef(src, (int2)(x - 1, y));
    float4 b = read_imagef(src, (int2)(x, y));
    float4 c = read_imagef(src, (int2)(x + 1, y));
    float4 s = (a + b + c) * (1.0f / 3.0f);
    write_imageui(dst, (int2)(x, y), (uint4)((uint)((s.x + s.y + s.z) * 85.0f), 0, 0, 0));
}
