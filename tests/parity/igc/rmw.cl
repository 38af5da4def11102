// A read-modify-write: each work item scales and offsets its own element in place
// (issue 21's IGC pair). The same program in the IR: rmw.ir.
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void rmw(__global uint *buf)
{
    size_t i = get_global_id(0);
    buf[i] = buf[i] * 3u + 1u;
}
