// Included by err_include_location_glsl.ir: the refused construct is on line 4.
vec4 lookup(sampler2D s) {
    vec2 uv = vec2(0.5);
    return textureGrad(s, uv, vec2(0.1), vec2(0.1));
}
