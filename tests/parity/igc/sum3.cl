// A 3-tap sum: each work item adds three neighbouring floats (issue 21's IGC pair).
// The same program in the IR: sum3.ir.
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void sum3(__global const float *a, __global float *b)
{
    size_t i = get_global_id(0);
    b[i] = a[i] + a[i + 1] + a[i + 2];
}
