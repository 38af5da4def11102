//! The image parameter block against docs/hardware/mesa-storage-images.md §6 and §7, and the formulas
//! against `texel_offset` by quickcheck.

use quickcheck::{Arbitrary, Gen as QcGen, TestResult};

use super::mesa_formula::mesa_image_address;
use super::properties::SurfCase;
use super::quickcheck;
use crate::dim::{minify, SurfDim};
use crate::dim_layout::DimLayout;
use crate::format::Format;
use crate::generation::Gen;
use crate::image_param::{
    fill_buffer_image_param, fill_image_param, max_address_fields, slot, storage_tilings,
    FieldCounts, ImageParam, ImageView, ParamError,
};
use crate::surface::{Surface, SurfaceDesc};
use crate::swizzle::Bit6Swizzle;
use crate::tile::Tiling;
use crate::usage::Usage;

fn surf(desc: SurfaceDesc) -> Surface {
    Surface::new(desc).unwrap()
}

fn mesa_params(
    offset: [u32; 2],
    stride: [u32; 4],
    tiling: [u32; 3],
    swizzling: [u32; 2],
) -> ImageParam {
    let mut p = ImageParam::unbound();
    p.offset = [offset[0], offset[1], 0];
    p.stride = stride;
    p.tiling = tiling;
    p.swizzling = swizzling;
    p
}

#[test]
fn section_6_worked_vectors_with_mesa_formula() {
    let bdw = mesa_params([0, 0], [4, 512, 0, 772], [2, 5, 0], [255, 255]);
    assert_eq!(mesa_image_address(&bdw, &[100, 37], false), 78416);
    let bdw_l3 = mesa_params([256, 640], [4, 512, 0, 772], [2, 5, 0], [255, 255]);
    assert_eq!(mesa_image_address(&bdw_l3, &[5, 7], false), 1344116);
    assert_eq!(mesa_image_address(&bdw, &[3, 4, 1], false), 1573004);
    for (swz, a, b) in [([3, 4], 5312, 8736), ([255, 255], 5248, 8800)] {
        let ivb_x = mesa_params([0, 0], [16, 256, 0, 0], [5, 3, 0], swz);
        assert_eq!(mesa_image_address(&ivb_x, &[40, 2], true), a);
        assert_eq!(mesa_image_address(&ivb_x, &[70, 1], true), b);
    }
    for (swz, want) in [([3, 255], 5744), ([255, 255], 5680)] {
        let ivb_y = mesa_params([0, 0], [8, 128, 0, 0], [1, 5, 0], swz);
        assert_eq!(mesa_image_address(&ivb_y, &[22, 3], true), want);
    }
    let linear = mesa_params([0, 0], [16, 100, 0, 0], [0, 0, 0], [255, 255]);
    assert_eq!(mesa_image_address(&linear, &[7, 3], false), 4912);
    let buffer = mesa_params([0, 0], [16, 0, 0, 0], [0, 0, 0], [255, 255]);
    assert_eq!(mesa_image_address(&buffer, &[123], false), 1968);
    let bdw_3d = mesa_params([0, 73728], [4, 256, 64, 64], [2, 5, 2], [255, 255]);
    assert_eq!(mesa_image_address(&bdw_3d, &[10, 20, 5], false), 75572552);
}

#[test]
fn section_7_derived_params_and_fill() {
    // BDW 2D RGBA8 512^2, view level 3.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx8, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Y)
            .extent(512, 512, 1)
            .levels(10)
            .usage(Usage::STORAGE),
    );
    let p = fill_image_param(&s, &ImageView::level(&s, 3), Bit6Swizzle::None).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [256, 640, 0, 0]);
    assert_eq!(p.slot(slot::SIZE), [64, 64, 1, 0]);
    assert_eq!(p.slot(slot::STRIDE), [4, 512, 0, 772]);
    assert_eq!(p.slot(slot::TILING), [2, 5, 0, 0]);
    assert_eq!(p.slot(slot::SWIZZLING), [0xff, 0xff, 0, 0]);
    // Slot 7 is SAMPLES: 1 for every single-sampled surface.
    assert_eq!(p.slot(slot::SAMPLES), [1, 0, 0, 0]);
    assert_eq!(mesa_image_address(&p, &[5, 7], false), 1344116);
    assert_eq!(p.texel_address(5, 7, 0), 1344116);
    let p0 = fill_image_param(&s, &ImageView::level(&s, 0), Bit6Swizzle::None).unwrap();
    assert_eq!(p0.texel_address(100, 37, 0), 78416);

    // BDW 3D 256^3, view level 2.
    let s = surf(
        SurfaceDesc::new(Gen::Gfx8, SurfDim::D3, Format::R8G8B8A8_UNORM, Tiling::Y)
            .extent(256, 256, 256)
            .levels(9)
            .usage(Usage::STORAGE),
    );
    let p = fill_image_param(&s, &ImageView::level(&s, 2), Bit6Swizzle::None).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [0, 73728, 0, 0]);
    assert_eq!(p.slot(slot::SIZE), [64, 64, 64, 0]);
    assert_eq!(p.slot(slot::STRIDE), [4, 256, 64, 64]);
    assert_eq!(p.slot(slot::TILING), [2, 5, 2, 0]);
    assert_eq!(mesa_image_address(&p, &[10, 20, 5], false), 75572552);
    assert_eq!(p.texel_address(10, 20, 5), 75572552);

    // IVB X and Y with bit-6 swizzling: Mesa's SWIZZLING values.
    let x = surf(
        SurfaceDesc::new(
            Gen::Gfx7,
            SurfDim::D2,
            Format::R32G32B32A32_FLOAT,
            Tiling::X,
        )
        .extent(256, 8, 1)
        .usage(Usage::STORAGE),
    );
    let p = fill_image_param(&x, &ImageView::level(&x, 0), Bit6Swizzle::Enabled).unwrap();
    assert_eq!(p.slot(slot::SWIZZLING), [3, 4, 0, 0]);
    assert_eq!(&p.slot(slot::STRIDE)[..3], &[16, 256, 0]);
    assert_eq!(p.slot(slot::TILING), [5, 3, 0, 0]);
    assert_eq!(p.texel_address(40, 2, 0), 5312);
    assert_eq!(p.texel_address(70, 1, 0), 8736);
    let p = fill_image_param(&x, &ImageView::level(&x, 0), Bit6Swizzle::None).unwrap();
    assert_eq!(p.texel_address(40, 2, 0), 5248);
    let y = surf(
        SurfaceDesc::new(Gen::Gfx7, SurfDim::D2, Format::R32G32_FLOAT, Tiling::Y)
            .extent(128, 8, 1)
            .usage(Usage::STORAGE),
    );
    let p = fill_image_param(&y, &ImageView::level(&y, 0), Bit6Swizzle::Enabled).unwrap();
    assert_eq!(p.slot(slot::SWIZZLING), [3, 0xff, 0, 0]);
    assert_eq!(p.slot(slot::TILING), [1, 5, 0, 0]);
    assert_eq!(p.texel_address(22, 3, 0), 5744);
    assert_eq!(mesa_image_address(&p, &[22, 3], true), 5744);

    // Buffers.
    let b = fill_buffer_image_param(Format::R32G32B32A32_FLOAT, 4000);
    assert_eq!(b.slot(slot::STRIDE), [16, 0, 0, 0]);
    assert_eq!(b.slot(slot::SIZE), [250, 0, 0, 0]);
    assert_eq!(b.slot(slot::SAMPLES), [1, 0, 0, 0]);
    assert_eq!(b.texel_address(123, 0, 0), 1968);
    assert_eq!(mesa_image_address(&b, &[123], false), 1968);
    assert!(b.in_bounds(&[249]) && !b.in_bounds(&[250]));
}

#[test]
fn extension_slots_for_tile64_3d() {
    // DG2 RGBA16 3D 33x1x8, 5 levels, Tile64 (docs/hardware/surface-layout.md §9): level 1 sits in the
    // tail.
    let s = surf(
        SurfaceDesc::new(
            Gen::Gfx125,
            SurfDim::D3,
            Format::R16G16B16A16_UNORM,
            Tiling::Tile64,
        )
        .extent(33, 1, 8)
        .levels(5)
        .usage(Usage::STORAGE),
    );
    let p = fill_image_param(&s, &ImageView::level(&s, 1), Bit6Swizzle::None).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [16, 16, 0, 0]);
    assert_eq!(p.slot(slot::SIZE), [16, 1, 4, 0]);
    assert_eq!(p.slot(slot::STRIDE), [8, 64, 0, 0]);
    // Tile64 3D 64 bpb: 32x16x16 elements, 256 B x 256 rows.
    assert_eq!(p.slot(slot::TILING), [5, 4, 0, 0]);
    assert_eq!(p.slot(slot::TILE), [4, 512 * 256, 4, 2 * 512 * 256]);
    assert_eq!(p.slot(slot::BASE)[3], 7);
    assert_eq!(p.texel_address(13, 0, 3) as u64, 138888);
    // Fields: "r3 r2 v3 u7 u6 u5 r1 v2 r0 u4 v1 v0 u3..u0".
    let f = |s: u32| p.slot(s);
    assert_eq!(f(slot::U_FIELDS), [0, 0, 4, 0]);
    assert_eq!(f(slot::U_FIELDS + 1), [4, 6, 1, 0]);
    assert_eq!(f(slot::U_FIELDS + 2), [5, 10, 3, 0]);
    assert_eq!(f(slot::U_FIELDS + 3), [8, 16, 16, 0]);
    assert_eq!(f(slot::U_FIELDS + 4), [0, 0, 0, 0]);
    assert_eq!(f(slot::V_FIELDS), [0, 4, 2, 0]);
    assert_eq!(f(slot::V_FIELDS + 1), [2, 8, 1, 0]);
    assert_eq!(f(slot::V_FIELDS + 2), [3, 13, 1, 0]);
    assert_eq!(f(slot::R_FIELDS), [0, 7, 1, 0]);
    assert_eq!(f(slot::R_FIELDS + 1), [1, 9, 1, 0]);
    assert_eq!(f(slot::R_FIELDS + 2), [2, 14, 2, 0]);
    // A view starting at slice 2 adds it to OFFSET.z.
    let v = ImageView {
        base_level: 0,
        base_layer: 2,
        layer_count: 6,
        format: Format::R16G16B16A16_UINT,
    };
    let p = fill_image_param(&s, &v, Bit6Swizzle::None).unwrap();
    assert_eq!(p.slot(slot::OFFSET), [0, 0, 2, 0]);
    assert_eq!(p.texel_address(21, 0, 5) as u64, 22152);
}

#[test]
fn fill_errors() {
    let s = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::R8G8B8A8_UNORM, Tiling::Y)
            .extent(16, 16, 1)
            .array_len(4)
            .levels(2),
    );
    let v = ImageView::level(&s, 0);
    assert!(matches!(
        fill_image_param(&s, &ImageView { base_level: 2, ..v }, Bit6Swizzle::None),
        Err(ParamError::LevelOutOfRange { .. })
    ));
    assert!(matches!(
        fill_image_param(&s, &ImageView { base_layer: 2, ..v }, Bit6Swizzle::None),
        Err(ParamError::LayersOutOfRange { .. })
    ));
    assert!(matches!(
        fill_image_param(
            &s,
            &ImageView {
                layer_count: 0,
                ..v
            },
            Bit6Swizzle::None
        ),
        Err(ParamError::LayersOutOfRange { .. })
    ));
    assert!(matches!(
        fill_image_param(
            &s,
            &ImageView {
                format: Format::R16_UINT,
                ..v
            },
            Bit6Swizzle::None
        ),
        Err(ParamError::FormatSizeMismatch { .. })
    ));
    assert!(matches!(
        fill_image_param(&s, &v, Bit6Swizzle::Enabled),
        Err(ParamError::SwizzleUnsupported { .. })
    ));
    let bc = surf(
        SurfaceDesc::new(Gen::Gfx9, SurfDim::D2, Format::BC1_UNORM, Tiling::Y).extent(16, 16, 1),
    );
    assert!(matches!(
        fill_image_param(&bc, &ImageView::level(&bc, 0), Bit6Swizzle::None),
        Err(ParamError::Compressed { .. })
    ));
    // Reinterpreting with another format of the same size is fine.
    let ok = fill_image_param(
        &s,
        &ImageView {
            format: Format::R32_UINT,
            ..v
        },
        Bit6Swizzle::None,
    );
    assert!(ok.is_ok());
}

#[test]
fn storage_tilings_and_field_counts() {
    assert_eq!(
        storage_tilings(Gen::Gfx125, Format::R8G8B8A8_UNORM, SurfDim::D2),
        vec![Tiling::Linear, Tiling::X, Tiling::Tile4, Tiling::Tile64]
    );
    // Tile64 2D 32 bpb ("v6 v5 u8 u7 v4 v3 u6 v2 u5 u4 v1 v0 u3..u0") has the most:
    // U (0,0,4) (4,6,2) (6,9,1) (7,12,2) + tile column; V (0,4,2) (2,8,1) (3,10,2) (5,14,2).
    assert_eq!(
        max_address_fields(Gen::Gfx125, Format::R8G8B8A8_UNORM, SurfDim::D2),
        FieldCounts { u: 5, v: 4, r: 0 }
    );
    // Tile64 3D 64 bpb (see extension_slots_for_tile64_3d): U 4, V 3, R 3; Tile4 and
    // linear have fewer.
    assert_eq!(
        max_address_fields(Gen::Gfx125, Format::R16G16B16A16_UINT, SurfDim::D3),
        FieldCounts { u: 4, v: 3, r: 3 }
    );
    // IVB: linear, X, Y. X has 2 U fields and 1 V field; Y 2 and 1.
    assert_eq!(
        max_address_fields(Gen::Gfx7, Format::R32_UINT, SurfDim::D2),
        FieldCounts { u: 2, v: 1, r: 0 }
    );
    for gen in Gen::ALL {
        for dim in SurfDim::ALL {
            for &f in Format::ALL.iter().filter(|f| f.is_storage_image_format()) {
                let c = max_address_fields(gen, f, dim);
                assert!(c.u <= 8 && c.v <= 8 && c.r <= 8, "{gen} {dim} {f}: {c:?}");
                assert!(c.u >= 1, "{gen} {dim} {f}");
            }
        }
    }
}

// ---- quickcheck: the formulas against texel_offset.

/// A random surface (no compressed formats), a random view of one of its levels and a
/// swizzle setting the generation allows.
#[derive(Clone, Debug)]
struct ParamCase {
    desc: SurfaceDesc,
    view: ImageView,
    swizzle: Bit6Swizzle,
}

impl Arbitrary for ParamCase {
    fn arbitrary(g: &mut QcGen) -> ParamCase {
        loop {
            let desc = SurfCase::arbitrary(g).desc;
            if desc.format.is_compressed() {
                continue;
            }
            let s = Surface::new(desc).unwrap();
            let level = u32::arbitrary(g) % s.levels();
            let available = if s.dim() == SurfDim::D3 {
                minify(desc.depth, level)
            } else {
                s.array_len()
            };
            let base = u32::arbitrary(g) % available;
            let count = 1 + u32::arbitrary(g) % (available - base);
            let swizzle = Bit6Swizzle::from_has_bit6_swizzling(
                s.gen().ver() < 8
                    && matches!(s.tiling(), Tiling::X | Tiling::Y | Tiling::Linear)
                    && bool::arbitrary(g),
            );
            return ParamCase {
                desc,
                view: ImageView {
                    base_level: level,
                    base_layer: base,
                    layer_count: count,
                    format: desc.format,
                },
                swizzle,
            };
        }
    }
}

/// Calls `f(x, y, z, layer_or_z)` for every texel of the view: `(x, y, z)` are the
/// shader's coordinates (1D arrays: `(x, 0, layer)`), `layer_or_z` the surface's.
fn for_each_view_texel(s: &Surface, v: &ImageView, mut f: impl FnMut(u32, u32, u32, u32)) {
    let e = s.level_extent_el(v.base_level);
    for i in 0..v.layer_count {
        for y in 0..e.h {
            for x in 0..e.w {
                f(x, y, i, v.base_layer + i);
            }
        }
    }
}

fn param_formula_matches(case: ParamCase) -> TestResult {
    let s = Surface::new(case.desc).unwrap();
    let p = match fill_image_param(&s, &case.view, case.swizzle) {
        Ok(p) => p,
        Err(e) => return TestResult::error(format!("{case:?}: {e}")),
    };
    // The dword image carries everything the formula needs.
    let p = ImageParam::from_dwords(&p.to_dwords());
    let level = case.view.base_level;
    let mut failure = None;
    for_each_view_texel(&s, &case.view, |x, y, z, layer| {
        if failure.is_some() {
            return;
        }
        let want = s.texel_offset(x, y, layer, level, case.swizzle).unwrap();
        let got = p.texel_address(x, y, z);
        if got as u64 != want {
            failure = Some(format!("({x},{y},{z}): formula {got}, texel_offset {want}"));
        }
        // NIR-form bounds check: every in-view texel passes.
        let coords: Vec<u32> = match (s.dim(), s.array_len() > 1 || case.view.layer_count > 1) {
            (SurfDim::D1, true) => vec![x, z],
            (SurfDim::D1, false) => vec![x],
            (SurfDim::D2, false) => vec![x, y],
            _ => vec![x, y, z],
        };
        if !p.in_bounds(&coords) {
            failure = Some(format!("({x},{y},{z}) fails the bounds check {:?}", p.size));
        }
        // row_base_B lets y-free accesses skip the V fields and row term.
        if y == 0 && z == 0 && p.offset[2] == 0 && !case.swizzle.is_enabled() && p.stride[2] == 0 {
            let mut a = p.row_base_B;
            let xb = (x + p.offset[0]) * p.stride[0];
            let mut u = 0u32;
            for f in &p.u_fields {
                if f.width > 0 {
                    let mask = ((1u64 << f.width) - 1) as u32;
                    u = (u & !(mask << f.dst_shift))
                        | (((xb >> f.src_shift) & mask) << f.dst_shift);
                }
            }
            a = a.wrapping_add(u);
            if a != got {
                failure = Some(format!("({x},0,0): row_base_B path {a}, formula {got}"));
            }
        }
    });
    match failure {
        Some(f) => TestResult::error(format!("{case:?}: {f}")),
        None => TestResult::passed(),
    }
}

#[test]
fn param_formula_equals_texel_offset() {
    quickcheck(100, 0x5eed_0201, 400)
        .quickcheck(param_formula_matches as fn(ParamCase) -> TestResult);
}

fn mesa_formula_matches(case: ParamCase) -> TestResult {
    let s = Surface::new(case.desc).unwrap();
    // Mesa's formula covers linear, X and Y with power-of-two elements; its GFX4_3D
    // placement assumes views start at slice 0, and its one-coordinate (1D) path is
    // linear addressing (isl picks linear for 1D surfaces).
    let arrayed = s.array_len() > 1;
    if !matches!(s.tiling(), Tiling::Linear | Tiling::X | Tiling::Y)
        || !s.format().is_pow2_bpb()
        || (s.dim_layout() == DimLayout::GFX4_3D && case.view.base_layer != 0)
        || (s.dim() == SurfDim::D1 && !arrayed && s.tiling() != Tiling::Linear)
    {
        return TestResult::discard();
    }
    let p = fill_image_param(&s, &case.view, case.swizzle).unwrap();
    let level = case.view.base_level;
    let mut failure = None;
    for_each_view_texel(&s, &case.view, |x, y, z, layer| {
        if failure.is_some() {
            return;
        }
        let want = s.texel_offset(x, y, layer, level, case.swizzle).unwrap();
        let coords: Vec<u32> = match (s.dim(), arrayed) {
            (SurfDim::D1, false) => vec![x],
            (SurfDim::D1, true) => vec![x, 0, z],
            (SurfDim::D2, false) => vec![x, y],
            _ => vec![x, y, z],
        };
        let got = mesa_image_address(&p, &coords, case.swizzle.is_enabled());
        if got as u64 != want {
            failure = Some(format!(
                "{coords:?}: Mesa formula {got}, texel_offset {want}"
            ));
        }
    });
    match failure {
        Some(f) => TestResult::error(format!("{case:?}: {f}")),
        None => TestResult::passed(),
    }
}

#[test]
fn mesa_formula_equals_texel_offset_for_linear_x_y() {
    quickcheck(100, 0x5eed_0202, 300)
        .quickcheck(mesa_formula_matches as fn(ParamCase) -> TestResult);
}
