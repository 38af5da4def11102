#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) writeonly uniform image2D uImage;
layout(set = 0, binding = 1) uniform sampler2D uTexture;

void main()
{
    imageStore(uImage, ivec2(gl_GlobalInvocationID.xy), texelFetch(uTexture, ivec2(gl_GlobalInvocationID.xy), 0));
}