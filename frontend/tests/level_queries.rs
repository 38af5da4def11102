//! Sizes at a level and level counts of sampled textures, from WGSL and GLSL text: the
//! imported IR runs on the executor against textures bound with several levels, and
//! the words it stores are compared with sizes worked out by hand (each level's extent
//! is `max(1, size >> level)` of the view's base level; array layers do not shrink).
//! Outside the view's levels the IR's size is 0 in every component: WGSL and Vulkan
//! leave it indeterminate, and 0 is what the sampler's `resinfo` returns there.

use frontend::{import, Language};
use tiling::{Bit6Swizzle, Gen, ImageView, SurfDim, Surface, SurfaceDesc, Tiling};
use verify::exec::{ExecConfig, Executor};
use verify::memory::Memory;

/// A texture to bind at binding-table index 0: a linear surface of `dim`, `extent`,
/// `layers` layers and `levels` levels, viewed from `base` with `view_levels` levels.
struct Texture {
    dim: SurfDim,
    extent: [u32; 3],
    layers: u32,
    levels: u32,
    base: u32,
    view_levels: u32,
    format: tiling::Format,
    ir_format: ir::Format,
}

fn bind(mem: &mut Memory, t: &Texture) {
    let desc = SurfaceDesc::new(Gen::Gfx125, t.dim, t.format, Tiling::Linear)
        .extent(t.extent[0], t.extent[1], t.extent[2])
        .array_len(t.layers)
        .levels(t.levels);
    let surface = Surface::new(desc).unwrap();
    let view = ImageView::level(&surface, t.base);
    mem.bind_surface_image(
        0,
        "t",
        surface,
        view,
        t.ir_format,
        t.format,
        Bit6Swizzle::None,
    )
    .unwrap();
    mem.set_view_levels(0, t.view_levels).unwrap();
    verify::setup::fill_image(mem, 0, &verify::setup::Fill::Gradient).unwrap();
}

/// Imports `src`, binds `texture` and a storage buffer of `n` words at block 0, runs
/// one invocation and returns the words.
fn run(language: Language, src: &[u8], texture: &Texture, n: usize) -> Vec<u32> {
    let imported = import(src, language, None).unwrap_or_else(|e| panic!("{e}"));
    let text = ir::print_shader(&imported.shader);
    assert!(text.contains("@image_levels"), "{text}");
    let mut ex = Executor::with_config(
        &imported.shader,
        ExecConfig {
            subgroup_size: 8,
            ..ExecConfig::default()
        },
    );
    bind(&mut ex.memory, texture);
    let buf = ex.memory.alloc("buf", vec![0xee; n * 4]);
    ex.memory.bind_ssbo(0, buf);
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    ex.memory
        .allocation(buf)
        .bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn wgsl_dimensions_at_each_level_and_the_level_count() {
    // 64x24, 3 layers, 5 levels, viewed from level 1 with 4 levels: the view's levels
    // are 32x12, 16x6, 8x3 and 4x1 (24 >> 4 = 1); level 4 of the view is outside it,
    // and so is level -1 (an i32 converted to the u32 4294967295).
    let src = "@group(0) @binding(0) var t: texture_2d_array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) li: u32) {
    out[0] = textureNumLevels(t);
    out[1] = textureNumLayers(t);
    for (var l = 0u; l < 5u; l++) {
        let d = textureDimensions(t, l);
        out[2u + 2u * l] = d.x;
        out[3u + 2u * l] = d.y;
    }
    let d0 = textureDimensions(t);
    out[12] = d0.x;
    out[13] = d0.y;
    out[14] = textureDimensions(t, i32(li) - 1).x;
    out[15] = textureDimensions(t, 0).y;
}";
    let t = Texture {
        dim: SurfDim::D2,
        extent: [64, 24, 1],
        layers: 3,
        levels: 5,
        base: 1,
        view_levels: 4,
        format: tiling::Format::R32_FLOAT,
        ir_format: ir::Format::R32Float,
    };
    let r = run(Language::Wgsl, src.as_bytes(), &t, 16);
    assert_eq!(
        r,
        [4, 3, 32, 12, 16, 6, 8, 3, 4, 1, 0, 0, 32, 12, 0, 12],
        "levels, layers, (w, h) at levels 0..5, (w, h) without a level, w at -1, h at 0"
    );
}

#[test]
fn glsl_texture_size_and_query_levels_of_a_3d_texture() {
    // 20x12x10 with 4 levels, viewed whole: 10x6x5, 5x3x2, 2x1x1 (12 >> 3 = 1,
    // 10 >> 3 = 1). texelFetch at level 2 reads the view's level 2: the gradient fill
    // puts x + 2y + 3z + 7 level in texel (x, y, z), so (1, 1, 1) reads 1 + 2 + 3 + 14.
    let src = "#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform utexture3D vol;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, std430) buffer Out { uint v[]; } o;
void main() {
    int zero = int(gl_LocalInvocationIndex);
    o.v[0] = uint(textureQueryLevels(usampler3D(vol, smp)));
    for (int l = 0; l < 4; l++) {
        ivec3 s = textureSize(usampler3D(vol, smp), zero + l);
        o.v[1 + 3 * l] = uint(s.x);
        o.v[2 + 3 * l] = uint(s.y);
        o.v[3 + 3 * l] = uint(s.z);
    }
    o.v[13] = uint(textureSize(usampler3D(vol, smp), zero + 4).z);
    o.v[14] = texelFetch(usampler3D(vol, smp), ivec3(1, 1, 1), zero + 2).x;
    o.v[15] = uint(textureSize(usampler3D(vol, smp), 0).x);
}
";
    let t = Texture {
        dim: SurfDim::D3,
        extent: [20, 12, 10],
        layers: 1,
        levels: 4,
        base: 0,
        view_levels: 4,
        format: tiling::Format::R32_UINT,
        ir_format: ir::Format::R32Uint,
    };
    let want = [4, 20, 12, 10, 10, 6, 5, 5, 3, 2, 2, 1, 1, 0, 20, 20];
    let r = run(Language::Glsl, src.as_bytes(), &t, 16);
    assert_eq!(
        r, want,
        "levels, (w, h, d) at levels 0..4, d at 4, the texel, w at the constant 0"
    );
    // The same through glslang's SPIR-V (OpImageQueryLevels, OpImageQuerySizeLod).
    if let Some(spv) = glslang(src) {
        assert_eq!(run(Language::SpirV, &spv, &t, 16), want, "from SPIR-V");
    }
}

/// `src` compiled to SPIR-V by glslangValidator; `None` (with a note) when it is not
/// installed outside CI.
fn glslang(src: &str) -> Option<Vec<u8>> {
    let have = std::process::Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs glslangValidator"
        );
        eprintln!("glslangValidator is not installed: the SPIR-V leg is skipped");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("fe-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("s.comp"), dir.join("s.spv"));
    std::fs::write(&input, src).unwrap();
    let r = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    let spv = std::fs::read(&output).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Some(spv)
}
