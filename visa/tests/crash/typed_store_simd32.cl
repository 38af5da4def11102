// What IGC does with the construct of `mtl_typed_store.visaasm`: a typed load, a
// buffer store and a typed store in a lane-divergent loop, at SIMD32. Dumped with
//
//   IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump ocloc compile -file typed_store_simd32.cl -device dg2
//
// (Debian's ocloc 22.43 has no MTL, and writes DG2's typed stores as `scatter4_typed`),
// its `.visaasm` stores each group of 8 lanes from a variable of its own, of exactly
// the payload's size, filled just before the message:
//
//   .decl V0065 v_type=G type=f num_elts=32 align=hword
//   mov (M3, 8) V0065(0,0)<1> 0x0:f
//   ...
//   scatter4_typed.RGBA (M3, 8) T6 V0056.32 %null.0 %null.0 %null.0 V0065.0
//
// while its addresses are offsets into shared variables (`V0056.32`).
__kernel __attribute__((intel_reqd_sub_group_size(32)))
void t(__read_only image2d_t src, __write_only image2d_t img, __global uint *out, uint n) {
    int x = get_global_id(0);
    uint k = x & 3;
    for (uint i = 0; i < k; i++) {
        uint4 v = read_imageui(src, (int2)(x + i, i));
        out[x * 3 + i] = v.x;
        write_imageui(img, (int2)(x + 5, i), (uint4)(i, 0, 0, 0));
    }
}
