// A loop, as examples/row_sums.ir: the invocations of row 0 sum a column of an R32F
// image, the loop bound read from the image's size.
__kernel __attribute__((reqd_work_group_size(8, 1, 1), intel_reqd_sub_group_size(16)))
void loop(__read_only image2d_t src, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    if (y == 0) {
        float sum = 0.0f;
        for (int i = 0; i < get_image_width(src); i++)
            sum += read_imagef(src, (int2)(i, x)).x;
        out[x] = sum;
    }
}
