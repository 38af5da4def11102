// Included by err_include_location_glsl.ir: the refused construct is on line 4.
vec4 lookup(sampler2D s) {
    vec2 uv = vec2(0.5);
    return textureLodOffset(s, uv, 0.0, ivec2(1, 0));
}
