//! The shapes the typed path produces: messages, coordinates, data shapes, conversions
//! and how the original values stay defined.

mod genx;
mod shaders;

use ir::{Access, AluType, BaseType, Format, ImageDim, IntrinsicOp, Src, Type};
use lowering::SurfaceFormat;
use shaders::*;

const F32: AluType = AluType::new(BaseType::Float, 32);
const U32: AluType = AluType::new(BaseType::Uint, 32);

#[test]
fn dg2_rgba8_unorm_load_is_native() {
    let d = decl(ImageDim::D2, false, Format::Rgba8Unorm, Access::NONE);
    let (mut sh, v) = load_shader(&d, 4, F32);
    let r = lower(&mut sh, "dg2");
    let f = &sh.functions[0];
    assert_eq!(r.typed_loads, 1);
    assert_eq!(
        messages(f),
        [
            "lsc_load_quad lsc_sfid=tgm lsc_addr=bti lsc_addr_size=a32 lsc_data=d32.xyzw \
          lsc_cache=df.df lsc_offset=0"
        ]
    );
    // Native format, four channels, no conversion: the message itself defines %v.
    let def = f.value_def(v).unwrap();
    assert_eq!(
        f.inst(def).as_intrinsic().unwrap().op,
        IntrinsicOp::LscLoadQuad
    );
    assert_eq!(ty(f, v), Type::vec32(4));
    assert_eq!(ir::stats::Stats::of_function(f).image, 0);
    assert_eq!(r.bindings.len(), 1);
    assert_eq!(
        r.bindings[0].surface,
        SurfaceFormat::Typed(Format::Rgba8Unorm)
    );
}

#[test]
fn coordinates_per_dimension() {
    // (dim, arrayed, how many coordinate components reach U, V, R)
    let cases = [
        (ImageDim::D1, false, 1),
        (ImageDim::D1, true, 2),
        (ImageDim::D2, false, 2),
        (ImageDim::D2, true, 3),
        (ImageDim::D3, false, 3),
        (ImageDim::Cube, false, 3),
        (ImageDim::Cube, true, 3),
        (ImageDim::Buffer, false, 1),
    ];
    for (dim, arrayed, n) in cases {
        let d = decl(dim, arrayed, Format::R32Uint, Access::NONE);
        let (mut sh, _) = load_shader(&d, 1, U32);
        lower(&mut sh, "dg2");
        let f = &sh.functions[0];
        let msg = find(f, IntrinsicOp::LscLoadQuad)[0];
        let srcs = f.inst(msg).as_intrinsic().unwrap().srcs.clone();
        assert_eq!(srcs.len(), 4, "{dim} {arrayed}");
        for (i, s) in srcs.iter().enumerate() {
            if i < n {
                assert_eq!(const_of(f, *s), None, "{dim} {arrayed} coord {i}");
                assert_eq!(s.swizzle.component(0), i as u8, "{dim} {arrayed} coord {i}");
            } else {
                assert_eq!(const_of(f, *s), Some(0), "{dim} {arrayed} src {i}");
            }
        }
        // One shared zero for R/LOD.
        let zeros: std::collections::HashSet<_> = srcs[n..].iter().map(|s| s.value).collect();
        assert_eq!(zeros.len(), 1);
    }
}

#[test]
fn ivb_rgba8_unorm_load_unpacks_from_r32_uint() {
    let d = decl(ImageDim::D2, false, Format::Rgba8Unorm, Access::NONE);
    let (mut sh, v) = load_shader(&d, 4, F32);
    let r = lower(&mut sh, "ivb");
    let f = &sh.functions[0];
    let m = messages(f);
    assert_eq!(m, ["dp_typed_read dp_cmask=x"]);
    let ops: Vec<String> = listing(f).into_iter().filter(|s| s != "const").collect();
    // Packed unpack (ishl + ushr per channel), vec4, u2f32, fdiv; the final fdiv is
    // the original instruction, defining %v.
    let tail: Vec<&str> = ops[ops.len() - 11..].iter().map(|s| s.as_str()).collect();
    assert_eq!(
        tail,
        ["ishl", "ushr", "ishl", "ushr", "ishl", "ushr", "ishl", "ushr", "vec4", "u2f32", "fdiv"]
    );
    let def = f.value_def(v).unwrap();
    assert_eq!(describe(f, def), "fdiv");
    assert_eq!(r.bindings[0].surface, SurfaceFormat::Typed(Format::R32Uint));
}

#[test]
fn store_converts_then_writes_contiguous_channels() {
    let d = decl(ImageDim::D2, false, Format::Rgba16Unorm, Access::NONE);
    let (mut sh, _) = shader(&d, |b, d, r, c| {
        let data = b.zero(Type::vec32(4));
        b.image_store(d, r, c, data, F32);
        None
    });
    let rep = lower(&mut sh, "skl");
    let f = &sh.functions[0];
    assert_eq!(rep.typed_stores, 1);
    // Gfx9: RGBA16_UNORM is bound as R32G32_UINT (docs/hardware/mesa-storage-images.md §3).
    assert_eq!(
        rep.bindings[0].surface,
        SurfaceFormat::Typed(Format::Rg32Uint)
    );
    // Gfx9 has no LSC: the legacy typed write of the two channels.
    let m = messages(f);
    assert_eq!(m, ["dp_typed_write dp_cmask=xy"]);
    let st = find(f, IntrinsicOp::DpTypedWrite)[0];
    let data = f.inst(st).as_intrinsic().unwrap().srcs[4];
    assert_eq!(f.src_type(data), Type::vec32(2));
    let ops = listing(f);
    for op in [
        "fsat",
        "fmul",
        "fround_even",
        "f2u32",
        "ishl",
        "ior",
        "vec2",
    ] {
        assert!(ops.iter().any(|o| o == op), "{op} missing from {ops:?}");
    }
}

#[test]
fn writeonly_store_is_left_to_the_hardware() {
    let d = decl(
        ImageDim::D2,
        false,
        Format::Rgba8Snorm,
        Access::NON_READABLE,
    );
    let (mut sh, _) = shader(&d, |b, d, r, c| {
        let data = b.zero(Type::vec32(4));
        b.image_store(d, r, c, data, F32);
        None
    });
    let rep = lower(&mut sh, "ivb");
    let f = &sh.functions[0];
    assert_eq!(
        rep.bindings[0].surface,
        SurfaceFormat::Typed(Format::Rgba8Snorm)
    );
    let ops = listing(f);
    assert!(!ops.iter().any(|o| o == "fmul"), "{ops:?}");
    assert_eq!(messages(f), ["dp_typed_write dp_cmask=xyzw"]);
}

#[test]
fn format_less_access() {
    let d = decl(ImageDim::D2, false, Format::None, Access::NONE);
    let (mut sh, v) = load_shader(&d, 4, F32);
    let rep = lower(&mut sh, "dg2");
    assert_eq!(rep.bindings[0].surface, SurfaceFormat::ViewFormat);
    let f = &sh.functions[0];
    assert!(messages(f)[0].contains("lsc_data=d32.xyzw"));
    assert_eq!(
        f.inst(f.value_def(v).unwrap()).as_intrinsic().unwrap().op,
        IntrinsicOp::LscLoadQuad
    );
    // Before Gfx12.5 too the load is the typed read of the view's format, all four
    // channels, with no conversion after it (the view must be of a format TGL reads
    // typed, as Vulkan's STORAGE_READ_WITHOUT_FORMAT format feature promises).
    let (mut sh, v) = load_shader(&d, 4, F32);
    let rep = lower(&mut sh, "tgl");
    assert_eq!(rep.bindings[0].surface, SurfaceFormat::ViewFormat);
    let f = &sh.functions[0];
    assert_eq!(messages(f), ["dp_typed_read dp_cmask=xyzw"]);
    assert_eq!(
        f.inst(f.value_def(v).unwrap()).as_intrinsic().unwrap().op,
        IntrinsicOp::DpTypedRead
    );
    // Stores convert in hardware everywhere.
    let (mut sh, _) = shader(&d, |b, d, r, c| {
        let data = b.zero(Type::vec32(2));
        b.image_store(d, r, c, data, F32);
        None
    });
    lower(&mut sh, "ivb");
    assert_eq!(messages(&sh.functions[0]), ["dp_typed_write dp_cmask=xy"]);
}

#[test]
fn r64_load_and_store_go_through_r32g32_uint() {
    let u64t = AluType::new(BaseType::Uint, 64);
    let d = decl(ImageDim::D2, false, Format::R64Uint, Access::NONE);
    let (mut sh, v) = load_shader(&d, 1, u64t);
    lower(&mut sh, "tgl");
    let f = &sh.functions[0];
    assert_eq!(messages(f), ["dp_typed_read dp_cmask=xy"]);
    assert_eq!(describe(f, f.value_def(v).unwrap()), "pack_64_2x32_split");
    assert_eq!(ty(f, v), Type::U64);

    let (mut sh, _) = shader(&d, |b, d, r, c| {
        let data = b.imm_u64(0x1234_5678_9abc_def0);
        b.image_store(d, r, c, data, u64t);
        None
    });
    lower(&mut sh, "skl");
    let ops = listing(&sh.functions[0]);
    assert!(ops.iter().any(|o| o == "unpack_64_2x32_split_x"));
    assert!(ops.iter().any(|o| o == "unpack_64_2x32_split_y"));

    // Not a storage format before Gfx9.
    let (mut sh, _) = load_shader(&d, 1, u64t);
    let e = lowering::lower_images(&mut sh, &dev("bdw"), &Default::default()).unwrap_err();
    assert!(matches!(
        e.kind,
        lowering::LowerErrorKind::UnsupportedFormat(..)
    ));
}

#[test]
fn scalar_load_of_missing_channels_expands() {
    // An R32_FLOAT load of four components: G, B = 0, A = 1.0.
    let d = decl(ImageDim::D2, false, Format::R32Float, Access::NONE);
    let (mut sh, v) = load_shader(&d, 4, F32);
    lower(&mut sh, "dg2");
    let f = &sh.functions[0];
    let def = f.value_def(v).unwrap();
    assert_eq!(describe(f, def), "vec4");
    let srcs = f.inst(def).as_alu().unwrap().srcs.clone();
    assert_eq!(const_of(f, srcs[1]), Some(0));
    assert_eq!(const_of(f, srcs[2]), Some(0));
    assert_eq!(const_of(f, srcs[3]), Some(1.0f32.to_bits() as u64));
    // Integer formats get integer 1.
    let d = decl(ImageDim::D2, false, Format::Rg32Uint, Access::NONE);
    let (mut sh, v) = load_shader(&d, 4, U32);
    lower(&mut sh, "dg2");
    let f = &sh.functions[0];
    let srcs = f
        .inst(f.value_def(v).unwrap())
        .as_alu()
        .unwrap()
        .srcs
        .clone();
    assert_eq!(const_of(f, srcs[2]), Some(0));
    assert_eq!(const_of(f, srcs[3]), Some(1));
    assert_eq!(srcs[0], Src::channel(srcs[0].value, 0));
}

/// Lowers an unvalidated shader and returns the error kind; the shader must be unchanged.
fn error_kind(sh: &mut ir::Shader, device: &str) -> lowering::LowerErrorKind {
    let before = sh.clone();
    let e = lowering::lower_images(sh, &dev(device), &Default::default()).unwrap_err();
    assert_eq!(*sh, before);
    assert!(e.to_string().contains(device), "{e}");
    e.kind
}

#[test]
fn malformed_accesses_are_errors_not_panics() {
    use ir::{AtomicOp, ImageRef, IntrinsicOp};
    use lowering::LowerErrorKind as K;
    let d2 = decl(ImageDim::D2, false, Format::Rgba8Unorm, Access::NONE);
    // A 2D load with a one-component coordinate.
    let (mut sh, _) = shader(&d2, |b, d, r, c| {
        Some(b.image_load(d, r, c.component(0), 4, F32))
    });
    assert!(matches!(error_kind(&mut sh, "dg2"), K::Malformed(_)));
    // An arrayed 3D image.
    let d3 = decl(ImageDim::D3, true, Format::R32Uint, Access::NONE);
    let (mut sh, _) = shader(&d3, |b, d, r, c| Some(b.image_load(d, r, c, 1, U32)));
    assert!(matches!(error_kind(&mut sh, "dg2"), K::UnsupportedDim(_)));
    // A load that defines nothing.
    let (mut sh, _) = shader(&d2, |b, d, r, c| {
        let idx = ir::builder::image_indices(d);
        let mut ind = idx.to_vec();
        ind.push(F32.to_index());
        b.intrinsic(IntrinsicOp::ImageLoad, Some(r), &[c], &ind, None);
        None
    });
    assert!(matches!(error_kind(&mut sh, "dg2"), K::Malformed(_)));
    // A store of two components to a four-channel format that needs conversion.
    let (mut sh, _) = shader(&d2, |b, d, r, c| {
        let data = b.zero(Type::vec32(2));
        b.image_store(d, r, c, data, F32);
        None
    });
    assert!(matches!(error_kind(&mut sh, "ivb"), K::Malformed(_)));
    // Atomics: a bad op index, and a swap op on image_atomic.
    let du = decl(ImageDim::D2, false, Format::R32Uint, Access::NONE);
    let (mut sh, _) = shader(&du, |b, d, r, c| {
        let v = b.image_atomic(d, r, AtomicOp::Iadd, c, c.component(0));
        let def = b.func.value_def(v).unwrap();
        if let ir::InstKind::Intrinsic(i) = &mut b.func.inst_mut(def).kind {
            i.set_index(ir::IndexKind::AtomicOp, 99);
        }
        Some(v)
    });
    assert!(matches!(error_kind(&mut sh, "dg2"), K::Malformed(_)));
    let (mut sh, _) = shader(&du, |b, d, r, c| {
        Some(b.image_atomic(d, r, AtomicOp::Cmpxchg, c, c.component(0)))
    });
    assert!(matches!(error_kind(&mut sh, "dg2"), K::Malformed(_)));
    // An image reference to an undeclared image.
    let (mut sh, _) = shader(&du, |b, d, _, c| {
        Some(b.image_load(d, ImageRef::new(ir::ImageId::from_u32(7)), c, 1, U32))
    });
    assert!(matches!(error_kind(&mut sh, "dg2"), K::Malformed(_)));
}
