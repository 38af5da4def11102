#version 450
// An image atomic: glslang writes it as OpImageTexelPointer on a pointer of the
// Image storage class, which naga's SPIR-V reader does not read.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32ui) uniform uimage2D counts;
void main() {
  imageAtomicAdd(counts, ivec2(gl_GlobalInvocationID.xy), 1u);
}
