//! Image atomics on R16_UINT, R16_SINT and R16_FLOAT (typed `d16u32` atomics from
//! Gfx12, docs/hardware/mesa-storage-images.md §3; the semantics are `lowering::atomic`'s "Atomics on
//! R16 images"): one invocation runs a chain of atomics on texel (0, 0) of each image and
//! stores every result to SSBO 0. The results and the final texels are computed by hand
//! below, and checked for the reference (the original shader) and for the lowered
//! shader executed with the messages' semantics, on the typed and the untyped path.
//! Platforms before Gfx12 refuse the atomics with the documented error.

use lowering::{Device, LowerOptions};
use verify::exec::{ExecConfig, Executor};
use verify::memory::{ImageStorage, Memory};
use verify::setup::{Fill, Setup};
use verify::verifier::{lower, lower_and_verify, VerifyError};

/// Integer atomics and float exchanges: every Gfx12+ platform.
const INT_AND_XCHG: &str = "shader compute (local_size=1,1,1)
image @u : 2d r16_uint (binding=0)
image @s : 2d r16_sint (binding=1)
image @f : 2d r16_float (binding=2)
fn main {
  block b0:
    32x2 %0 = load_const (0, 0)
    32   %1 = load_const (0)
    32   %2 = load_const (0x0001fffe)
    32   %3 = @image_atomic (@u, %0, %2) (atomic_op=iadd)
    32   %4 = load_const (3)
    32   %5 = @image_atomic (@u, %0, %4) (atomic_op=iadd)
    32   %6 = load_const (0x00018000)
    32   %7 = @image_atomic (@u, %0, %6) (atomic_op=umax)
    32   %8 = load_const (0xffffffff)
    32   %9 = @image_atomic (@u, %0, %8) (atomic_op=iadd)
    32   %10 = load_const (0xffff63c0)
    32   %11 = @image_atomic (@s, %0, %10) (atomic_op=imin)
    32   %12 = load_const (0x00010005)
    32   %13 = @image_atomic (@s, %0, %12) (atomic_op=imax)
    32   %14 = load_const (0x00007ffe)
    32   %15 = @image_atomic (@s, %0, %14) (atomic_op=iadd)
    32   %16 = load_const (0x00000010)
    32   %17 = @image_atomic (@s, %0, %16) (atomic_op=umin)
    32   %18 = load_const (0xfff00010)
    32   %19 = load_const (0xfffffff6)
    32   %20 = @image_atomic_swap (@s, %0, %18, %19) (atomic_op=cmpxchg)
    32   %21 = load_const (0x3f801000)
    32   %22 = @image_atomic (@f, %0, %21) (atomic_op=xchg)
    32   %23 = load_const (0x3f803000)
    32   %24 = @image_atomic (@f, %0, %23) (atomic_op=xchg)
    32   %25 = load_const (0x477ff000)
    32   %26 = @image_atomic (@f, %0, %25) (atomic_op=xchg)
    32   %27 = load_const (0xc0400000)
    32   %28 = @image_atomic (@f, %0, %27) (atomic_op=xchg)
    32x4 %29 = vec4 %3, %5, %7, %9
    32x4 %30 = vec4 %11, %13, %15, %17
    32x4 %31 = vec4 %20, %22, %24, %26
    32   %32 = load_const (16)
    32   %33 = load_const (32)
    32   %34 = load_const (48)
    @store_ssbo (%29, %1, %1) (access=none, align_mul=16)
    @store_ssbo (%30, %1, %32) (access=none, align_mul=16)
    @store_ssbo (%31, %1, %33) (access=none, align_mul=16)
    @store_ssbo (%28, %1, %34) (access=none, align_mul=4)
}
";

/// Gradient texel (0, 0) is 0 (r16_uint), 0 - 32 (r16_sint), 0.0 (r16_float).
///
/// @u: 0 + 0xfffe (the data's low 16 bits) = 0xfffe, returns 0; + 3 wraps to 1,
/// returns 0xfffe zero-extended; umax with 0x8000 (low bits of 0x18000): 0x8000,
/// returns 1; iadd -1 (an idec): 0x7fff, returns 0x8000.
/// @s: imin with 0x63c0 (the low bits of -40000 are +25536): stays -32, returns
/// 0xffffffe0; imax with 5 (low bits of 0x10005): 5, returns -32; + 0x7ffe =
/// 0x8003 = -32765 (wraps), returns 5; umin with 0x10 compares unsigned 0x8003: 0x10,
/// returns -32765 sign-extended 0xffff8003; cmpxchg compares the low bits 0x0010:
/// equal, stores -10 (0xfff6), returns 0x10.
/// @f: 1 + 2^-11 is halfway between binary16 1.0 (0x3c00) and 0x3c01: to even, 0x3c00,
/// returns +0.0; 1 + 3 x 2^-11 is halfway between 0x3c01 and 0x3c02: 0x3c02, returns
/// 1.0; 65520.0 rounds to +inf (0x7c00), returns 1 + 2^-9 = 0x3f804000; -3.0 (0xc200)
/// returns +inf (0x7f800000).
const INT_AND_XCHG_RESULTS: [u32; 13] = [
    0,
    0xfffe,
    1,
    0x8000,
    0xffff_ffe0,
    0xffff_ffe0,
    5,
    0xffff_8003,
    0x10,
    0,
    0x3f80_0000,
    0x3f80_4000,
    0x7f80_0000,
];
/// Final texels (0, 0) of @u, @s, @f.
const INT_AND_XCHG_TEXELS: [u16; 3] = [0x7fff, 0xfff6, 0xc200];

/// Float operations (fadd needs Xe2).
const FLOAT_OPS: &str = "shader compute (local_size=1,1,1)
image @f : 2d r16_float (binding=0)
fn main {
  block b0:
    32x2 %0 = load_const (0, 0)
    32   %1 = load_const (0)
    32   %2 = load_const (0xc0400000)
    32   %3 = @image_atomic (@f, %0, %2) (atomic_op=xchg)
    32   %4 = load_const (0x7fc00000)
    32   %5 = @image_atomic (@f, %0, %4) (atomic_op=fmax)
    32   %6 = load_const (0x3f000000)
    32   %7 = @image_atomic (@f, %0, %6) (atomic_op=fadd)
    32   %8 = load_const (0xc0200001)
    32   %9 = @image_atomic (@f, %0, %8) (atomic_op=fmin)
    32   %10 = load_const (0xc0200000)
    32   %11 = load_const (0x33800000)
    32   %12 = @image_atomic_swap (@f, %0, %10, %11) (atomic_op=fcmpxchg)
    32   %13 = load_const (0xbf800000)
    32   %14 = @image_atomic_swap (@f, %0, %13, %2) (atomic_op=fcmpxchg)
    32x4 %15 = vec4 %3, %5, %7, %9
    32x2 %16 = vec2 %12, %14
    32   %17 = load_const (16)
    @store_ssbo (%15, %1, %1) (access=none, align_mul=16)
    @store_ssbo (%16, %1, %17) (access=none, align_mul=8)
}
";

/// From 0.0: xchg -3.0 (0xc200), returns +0.0; fmax with a NaN keeps -3.0, returns it;
/// fadd 0.5: -2.5 (0xc100), returns -3.0; fmin with -2.5000002 (binary16 -2.5): -2.5,
/// returns -2.5; fcmpxchg -2.5 -> 2^-24 (the smallest binary16 subnormal, 0x0001):
/// equal, returns -2.5; fcmpxchg -1.0 -> -3.0: not equal, returns 2^-24 (0x33800000).
const FLOAT_OPS_RESULTS: [u32; 6] = [
    0,
    0xc040_0000,
    0xc040_0000,
    0xc020_0000,
    0xc020_0000,
    0x3380_0000,
];
const FLOAT_OPS_TEXEL: u16 = 0x0001;

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> ir::Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

fn setup(shader: &ir::Shader, device: &Device) -> Setup {
    let mut s = Setup::default_for(shader, device, 0).unwrap();
    for img in &mut s.images {
        img.fill = Fill::Gradient;
    }
    s.grid = [1, 1, 1];
    s.subgroup_size = 1;
    s
}

/// Runs `shader` on `setup`; returns SSBO 0's first `n` dwords and the memory.
fn run(shader: &ir::Shader, device: &Device, setup: &Setup, n: usize) -> (Vec<u32>, Memory) {
    let mem = setup.build_memory(shader, device).unwrap();
    let mut ex = Executor::with_config(
        shader,
        ExecConfig {
            subgroup_size: 1,
            dataport: device.dataport,
            ..ExecConfig::default()
        },
    );
    ex.memory = mem;
    ex.run([1, 1, 1]).unwrap_or_else(|e| panic!("{e}"));
    let ssbo = ex.memory.ssbo(0).unwrap();
    let bytes = &ex.memory.allocation(ssbo).bytes;
    let dwords = (0..n)
        .map(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
        .collect();
    (dwords, ex.memory)
}

/// Texel (0, 0) of layer 0 of the image bound at `binding`.
fn texel(mem: &Memory, binding: u32) -> u16 {
    let b = mem.image(binding).unwrap();
    let ImageStorage::Surface { surface, view } = &b.storage else {
        panic!("a surface")
    };
    let off = surface
        .texel_offset(0, 0, view.base_layer, view.base_level, b.bit6_swizzle)
        .unwrap() as usize;
    let bytes = &mem.allocation(b.alloc).bytes;
    u16::from_le_bytes([bytes[off], bytes[off + 1]])
}

/// The reference, then the lowered shader on each platform and path: the same results.
fn check(text: &str, platforms: &[&str], results: &[u32], texels: &[u16]) {
    let shader = parse(text);
    let dg2 = Device::preset("dg2").unwrap();
    let (r, mem) = run(&shader, &dg2, &setup(&shader, &dg2), results.len());
    assert_eq!(r, results, "reference");
    for (i, &t) in texels.iter().enumerate() {
        assert_eq!(texel(&mem, i as u32), t, "reference, image {i}");
    }
    for p in platforms {
        let device = Device::preset(p).unwrap();
        for force_untyped in [false, true] {
            let options = LowerOptions {
                force_untyped,
                ..LowerOptions::default()
            };
            let l = lower(&shader, &device, &options).unwrap_or_else(|e| panic!("{p}: {e}"));
            let mut s = setup(&shader, &device);
            s.bindings = l.report.bindings.clone();
            let (r, mem) = run(&l.lowered, &device, &s, results.len());
            let what = format!("{p}{}", if force_untyped { " untyped" } else { "" });
            assert_eq!(r, results, "{what}");
            for (i, &t) in texels.iter().enumerate() {
                assert_eq!(texel(&mem, i as u32), t, "{what}, image {i}");
            }
            // And the verifier agrees, on its default setup (a grid of invocations
            // hitting every texel once and some outside the image).
            let s = Setup::default_for(&shader, &device, 0).unwrap();
            let report = lower_and_verify(&shader, &device, &options, &s).unwrap();
            assert!(report.passed(), "{what}: {report}");
        }
    }
}

#[test]
fn integer_atomics_and_exchanges_on_r16_texels() {
    check(
        INT_AND_XCHG,
        &["tgl", "dg2", "lnl"],
        &INT_AND_XCHG_RESULTS,
        &INT_AND_XCHG_TEXELS,
    );
}

#[test]
fn float_atomics_on_r16_float_texels() {
    check(
        FLOAT_OPS,
        &["lnl", "bmg"],
        &FLOAT_OPS_RESULTS,
        &[FLOAT_OPS_TEXEL],
    );
}

#[test]
fn before_gfx12_r16_atomics_are_refused() {
    let shader = parse(INT_AND_XCHG);
    for p in ["ivb", "byt", "hsw", "bdw", "skl", "icl"] {
        let device = Device::preset(p).unwrap();
        for (force_untyped, want) in [
            (false, "typed atomics need an R32 surface, not r16_uint"),
            (
                true,
                "untyped image atomics need an R32 or R64 image, not r16_uint",
            ),
        ] {
            let options = LowerOptions {
                force_untyped,
                ..LowerOptions::default()
            };
            match lower(&shader, &device, &options) {
                Err(VerifyError::Lower(e)) => {
                    let text = e.to_string();
                    assert!(
                        text.contains(&format!(
                            "cannot lower @image_atomic of @u (r16_uint) on {p}: {want}"
                        )),
                        "{p}: {text}"
                    );
                }
                Err(e) => panic!("{p}: {e}"),
                Ok(_) => panic!("{p}: R16 atomics lowered before Gfx12"),
            }
        }
    }
    // fadd on R16_FLOAT needs Xe2, as on R32_FLOAT.
    let shader = parse(FLOAT_OPS);
    let dg2 = Device::preset("dg2").unwrap();
    match lower(&shader, &dg2, &LowerOptions::default()) {
        Err(VerifyError::Lower(e)) => assert!(
            e.to_string()
                .contains("image atomic fadd is not supported on this platform"),
            "{e}"
        ),
        other => panic!("dg2: {:?}", other.map(|_| ())),
    }
}

/// The hardware's typed `d16u32` atomics (`verify::message`): on R16 surfaces they read
/// and write the 16-bit texel, take the low 16 bits of each source, and return the old
/// texel zero-extended; float sub-ops act on binary16.
#[test]
fn typed_d16u32_atomics_act_on_the_16_bit_texel() {
    let shader = parse(
        "shader compute (local_size=1,1,1)
image @s : 2d r16_sint (binding=0)
image @h : 2d r16_float (binding=1)
fn main {
  block b0:
    32   %0 = load_const (0)
    32   %1 = load_const (1)
    32   %2 = load_const (0x0001fff0)
    32   %3 = @lsc_atomic (@s, %1, %0, %0, %0, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=smin)
    32   %4 = @lsc_atomic (@s, %1, %0, %0, %0, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=umin)
    32   %5 = @lsc_atomic (@s, %1, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=idec)
    32   %6 = load_const (0x00003c00)
    32   %7 = @lsc_atomic (@h, %0, %1, %0, %0, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=fadd)
    32   %8 = load_const (0xffff7e00)
    32   %9 = @lsc_atomic (@h, %0, %1, %0, %0, %8) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=fmin)
    32   %10 = @lsc_atomic (@h, %1, %1, %0, %0, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d16u32, lsc_op=fadd)
}
",
    );
    let mut mem = Memory::new();
    let fmt = |n: &str| tiling::Format::from_name(n).unwrap();
    let mut bind = |binding: u32, name: &str, logical: ir::Format| {
        let desc = tiling::SurfaceDesc::new(
            tiling::Gen::Gfx125,
            tiling::SurfDim::D2,
            fmt(name),
            tiling::Tiling::Linear,
        )
        .extent(4, 4, 1);
        let surface = tiling::Surface::new(desc).unwrap();
        let view = tiling::ImageView {
            base_level: 0,
            base_layer: 0,
            layer_count: 1,
            format: fmt(name),
        };
        let pitch = surface.row_pitch_B() as usize;
        let id = mem
            .bind_surface_image(
                binding,
                "img",
                surface,
                view,
                logical,
                fmt(name),
                tiling::Bit6Swizzle::None,
            )
            .unwrap();
        (id, pitch)
    };
    let (s, _) = bind(0, "R16_SINT", ir::Format::R16Sint);
    let (h, hp) = bind(1, "R16_FLOAT", ir::Format::R16Float);
    // @s texel (1, 0) = -5 (0xfffb); @h texels (0, 1) = 2.0 (0x4000), (1, 1) = 65504
    // (0x7bff, the largest binary16).
    mem.allocation_mut(s).bytes[2..4].copy_from_slice(&0xfffbu16.to_le_bytes());
    mem.allocation_mut(h).bytes[hp..hp + 2].copy_from_slice(&0x4000u16.to_le_bytes());
    mem.allocation_mut(h).bytes[hp + 2..hp + 4].copy_from_slice(&0x7bffu16.to_le_bytes());
    let mut ex = Executor::with_config(
        &shader,
        ExecConfig {
            subgroup_size: 1,
            ..ExecConfig::default()
        },
    );
    ex.memory = mem;
    let values: Vec<ir::Value> = [3, 4, 5, 7, 9, 10].map(ir::Value::from_u32).to_vec();
    let r = ex.run_recording([1, 1, 1], &values).unwrap();
    let v = |i: usize| r.values[&values[i]][0].clone().unwrap();
    // smin with 0xfff0 (-16, the low bits of 0x1fff0): -16 < -5, returns 0xfffb
    // zero-extended; umin with 0xfff0 unsigned: 0xfff0 == 0xfff0 stays, returns 0xfff0;
    // idec: 0xffef, returns 0xfff0.
    assert_eq!(v(0), [0xfffb]);
    assert_eq!(v(1), [0xfff0]);
    assert_eq!(v(2), [0xfff0]);
    let bytes = &ex.memory.allocation(s).bytes;
    assert_eq!(&bytes[2..4], &0xffefu16.to_le_bytes());
    // fadd 1.0 (0x3c00): 2.0 + 1.0 = 3.0 (0x4200), returns 0x4000; fmin with a NaN
    // (0x7e00; the upper 16 bits 0xffff are ignored) keeps 3.0, returns 0x4200;
    // 65504 + 1.0 = 65505 rounds to 65504 (binary16 values are 32 apart there, and
    // rounding overflows to infinity only from 65520 on), returns 0x7bff.
    assert_eq!(v(3), [0x4000]);
    assert_eq!(v(4), [0x4200]);
    assert_eq!(v(5), [0x7bff]);
    let bytes = &ex.memory.allocation(h).bytes;
    assert_eq!(&bytes[hp..hp + 2], &0x4200u16.to_le_bytes());
    assert_eq!(&bytes[hp + 2..hp + 4], &0x7bffu16.to_le_bytes());
}
