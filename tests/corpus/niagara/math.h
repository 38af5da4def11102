// 2D Polyhedral Bounds of a Clipped, Perspective-Projected 3D Sphere. Michael Mara, Morgan McGuire. 2013
bool projectSphere(vec3 c, float r, float znear, float P00, float P11, out vec4 aabb)
{
	if (c.z < r + znear)
		return false;

	vec3 cr = c * r;
	float czr2 = c.z * c.z - r * r;

	float vx = sqrt(c.x * c.x + czr2);
	float minx = (vx * c.x - cr.z) / (vx * c.z + cr.x);
	float maxx = (vx * c.x + cr.z) / (vx * c.z - cr.x);

	float vy = sqrt(c.y * c.y + czr2);
	float miny = (vy * c.y - cr.z) / (vy * c.z + cr.y);
	float maxy = (vy * c.y + cr.z) / (vy * c.z - cr.y);

	aabb = vec4(minx * P00, miny * P11, maxx * P00, maxy * P11);
	aabb = aabb.xwzy * vec4(0.5f, -0.5f, 0.5f, -0.5f) + vec4(0.5f); // clip space -> uv space

	return true;
}

float getOcclusionMip(vec4 aabb, float pyramidWidth, float pyramidHeight)
{
	vec2 size = aabb.zw - aabb.xy;

	// Because we only consider 2x2 pixels, we need to make sure we are sampling from a mip that reduces the rectangle to 1x1 texel or smaller.
	// Due to the rectangle being arbitrarily offset, a 1x1 rectangle may cover 2x2 texel area. Using floor() here would require sampling 4 corners
	// of AABB (using bilinear fetch), which is a little slower.
	float level = ceil(log2(max(size.x * pyramidWidth, size.y * pyramidHeight)));

	// ... however, if the result still covers at most 2x2 texels at the finer mip, we can sample from it for free.
	// fract(min) + size <= 2 means the finer footprint touches at most 2 texels on each axis.
	vec2 fmipSize = vec2(pyramidWidth, pyramidHeight) * exp2(1 - level);
	level -= float(all(lessThanEqual(fract(aabb.xy * fmipSize) + size * fmipSize, vec2(2.0))));

	return max(level, 0);
}

bool coneCull(vec3 center, float radius, vec3 cone_axis, float cone_cutoff, vec3 camera_position)
{
	return dot(center - camera_position, cone_axis) >= cone_cutoff * length(center - camera_position) + radius;
}

vec3 rotateQuat(vec3 v, vec4 q)
{
	return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// A Survey of Efficient Representations for Independent Unit Vectors
vec2 encodeOct(vec3 v)
{
	vec2 p = v.xy * (1.0 / (abs(v.x) + abs(v.y) + abs(v.z)));
	vec2 s = vec2((v.x >= 0.0) ? +1.0 : -1.0, (v.y >= 0.0) ? +1.0 : -1.0);
	vec2 r = (v.z <= 0.0) ? ((1.0 - abs(p.yx)) * s) : p;
	return r;
}

vec3 decodeOct(vec2 e)
{
	// https://x.com/Stubbesaurus/status/937994790553227264
	vec3 v = vec3(e.xy, 1.0 - abs(e.x) - abs(e.y));
	float t = max(-v.z, 0);
	v.xy += vec2(v.x >= 0 ? -t : t, v.y >= 0 ? -t : t);
	return normalize(v);
}

vec3 tosrgb(vec3 c)
{
	return pow(c.xyz, vec3(1.0 / 2.2));
}

vec4 tosrgb(vec4 c)
{
	return vec4(pow(c.xyz, vec3(1.0 / 2.2)), c.w);
}

vec3 fromsrgb(vec3 c)
{
	return pow(c.xyz, vec3(2.2));
}

vec4 fromsrgb(vec4 c)
{
	return vec4(pow(c.xyz, vec3(2.2)), c.w);
}

// Optimized filmic operator by Jim Hejl and Richard Burgess-Dawson
// http://filmicworlds.com/blog/filmic-tonemapping-operators/
vec3 tonemap(vec3 c)
{
	vec3 x = max(vec3(0), c - 0.004);
	return (x * (6.2 * x + .5)) / (x * (6.2 * x + 1.7) + 0.06);
}

// Gradient noise from Jorge Jimenez's presentation:
// http://www.iryoku.com/next-generation-post-processing-in-call-of-duty-advanced-warfare
float gradientNoise(vec2 uv)
{
	return fract(52.9829189 * fract(dot(uv, vec2(0.06711056, 0.00583715))));
}

void unpackTBN(uint np, uint tp, out vec3 normal, out vec4 tangent)
{
	normal = ((ivec3(np) >> ivec3(0, 10, 20)) & ivec3(1023)) / 511.0 - 1.0;
	tangent.xyz = decodeOct(((ivec2(tp) >> ivec2(0, 8)) & ivec2(255)) / 127.0 - 1.0);
	tangent.w = (np & (1 << 30)) != 0 ? -1.0 : 1.0;
}
