//! vISA text: the printed examples of lsc.md §6 that the IR can express, and
//! hand-written expectations for atomics, predication, caching, surfaces, null
//! destinations, strided, transposed and SLM messages and sampler loads.
//!
//! Value ids are padded so that the operands get the variable numbers of the examples
//! (`%12` prints as `V12`).

use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, LscAtomicOp, LscDesc, Sfid};
use ir::{
    Access, AluType, Builder, Format, Function, ImageDecl, ImageDim, ImageId, ImageRef, IndexKind,
    IntrinsicOp, Shader, Span, Src, Type, Value,
};
use lowering::visa::emit_visa;
use lowering::Device;

mod platforms;
use platforms::{dg2, lnl, pvc, tgl};

fn image(name: &str, binding: u32, count: Option<u32>) -> ImageDecl {
    ImageDecl {
        name: name.into(),
        dim: ImageDim::D2,
        arrayed: false,
        format: Format::R32Uint,
        access: Access::NONE,
        binding,
        count,
        layout: None,
    }
}

fn desc(sfid: &str, addr: &str, size: &str, data: &str, cache: &str, offset: i32) -> LscDesc {
    LscDesc::new(
        Sfid::from_name(sfid).unwrap(),
        AddrType::from_name(addr).unwrap(),
        AddrSize::from_name(size).unwrap(),
        DataShape::parse(data).unwrap(),
    )
    .with_cache(CacheControl::parse(cache).unwrap())
    .with_offset(offset)
}

fn idx(sfid: &str, addr: &str, size: &str, data: &str, cache: &str, offset: i32) -> Vec<u32> {
    desc(sfid, addr, size, data, cache, offset)
        .indices()
        .to_vec()
}

fn atomic_idx(sfid: &str, addr: &str, size: &str, data: &str, op: &str) -> Vec<u32> {
    desc(sfid, addr, size, data, "df.df", 0)
        .with_atomic(LscAtomicOp::from_name(op).unwrap())
        .indices()
        .to_vec()
}

/// Emits filler constants until the next value is `%n`.
fn pad_to(b: &mut Builder, n: u32) {
    while (b.func.num_value_ids() as u32) < n {
        b.imm_u32(0xdead);
    }
    assert_eq!(
        b.func.num_value_ids() as u32,
        n,
        "value %{n} already allocated"
    );
}

/// A 32-bit scalar defined as `%n`: a non-zero constant, so that it is neither dropped
/// as a zero coordinate nor mistaken for a null U.
fn scalar32(b: &mut Builder, n: u32) -> Value {
    pad_to(b, n);
    let v = b.imm_u32(1000 + n);
    assert_eq!(v.as_u32(), n);
    v
}

/// A non-constant value of type `ty` defined as `%n` (an `undef` is not a constant).
fn value_at(b: &mut Builder, n: u32, ty: Type) -> Value {
    pad_to(b, n);
    let v = b.undef(ty);
    assert_eq!(v.as_u32(), n);
    v
}

/// A 32-bit vector of `comps` components defined as `%n` by a `vec` (neither constant nor
/// undefined).
fn vec_at(b: &mut Builder, n: u32, comps: u8) -> Value {
    let k = b.imm_u32(7);
    pad_to(b, n);
    let v = b.vec(&vec![Src::from(k); usize::from(comps)]);
    assert_eq!(v.as_u32(), n);
    v
}

fn shader_with(images: Vec<ImageDecl>, f: impl FnOnce(&mut Builder)) -> Shader {
    let mut s = Shader::new([16, 1, 1]);
    for d in images {
        s.add_image(d);
    }
    let mut func = Function::new("main");
    let mut b = Builder::at_end(&mut func);
    f(&mut b);
    s.functions.push(func);
    s
}

/// The message lines of the listing (everything that is not a comment or header).
fn message_lines(p: &Device, s: &Shader) -> Vec<String> {
    let text = emit_visa(s, p).unwrap_or_else(|e| panic!("{e}"));
    text.lines()
        .filter(|l| l.starts_with("    ") && !l.trim_start().starts_with("//"))
        .map(|l| l.trim_start().to_string())
        .collect()
}

fn one_line(p: &Device, s: &Shader) -> String {
    let lines = message_lines(p, s);
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].clone()
}

fn img(i: u32) -> Option<ImageRef> {
    Some(ImageRef::new(ImageId::from_u32(i)))
}

// ----- lsc.md §6 printed examples --------------------------------------------------------

#[test]
fn example_predicated_cached_bti_load_with_offset() {
    // (P) lsc_load.ugm.ca.ca (M1, 16)  V13:d32x4  bti(0x4)[0x4*V12+0x100]:a32
    // The IR has no address scale; the rest prints as in the example.
    let s = shader_with(vec![image("buf", 4, None)], |b| {
        let x = scalar32(b, 3);
        let p = b.ine(x, x);
        let a = scalar32(b, 12);
        b.intrinsic(
            IntrinsicOp::LscLoad,
            img(0),
            &[a.into(), p.into()],
            &idx("ugm", "bti", "a32", "d32x4", "ca.ca", 0x100),
            Some(Type::vec32(4)),
        );
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "(P4) lsc_load.ugm.ca.ca (M1, 16)  V13:d32x4  bti(0x4)[V12+0x100]:a32"
    );
}

#[test]
fn example_transposed_flat_a64_load() {
    // lsc_load.ugm (M1, 1)  V13:d32x16t  flat[V12]:a64
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 12, Type::U64);
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[a.into()],
            &idx("ugm", "flat", "a64", "d32x16t", "df.df", 0),
            Some(Type::vec32(16)),
        );
    });
    for p in [dg2(), pvc(), lnl()] {
        assert_eq!(
            one_line(&p, &s),
            "lsc_load.ugm (M1, 1)  V13:d32x16t  flat[V12]:a64"
        );
    }
}

#[test]
fn example_slm_store() {
    // lsc_store.slm (M1, 32)  flat[V12]:a32  V13:d32x4
    let s = shader_with(vec![], |b| {
        let a = scalar32(b, 12);
        let d = value_at(b, 13, Type::vec32(4));
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), d.into()],
            &idx("slm", "flat", "a32", "d32x4", "df.df", 0),
            None,
        );
    });
    for p in [pvc(), lnl()] {
        assert_eq!(
            one_line(&p, &s),
            "lsc_store.slm (M1, 32)  flat[V12]:a32  V13:d32x4"
        );
    }
    assert_eq!(
        one_line(&dg2(), &s),
        "lsc_store.slm (M1, 16)  flat[V12]:a32  V13:d32x4"
    );
}

#[test]
fn example_strided_load_with_constant_pitch() {
    // lsc_load_strided.ugm (M1, 32)  V13:d32  flat[V12, 0x100]:a32
    let s = shader_with(vec![], |b| {
        let pitch = b.imm_u32(0x100);
        let a = scalar32(b, 12);
        b.intrinsic(
            IntrinsicOp::LscLoadStrided,
            None,
            &[a.into(), pitch.into()],
            &idx("ugm", "flat", "a32", "d32", "df.df", 0),
            Some(Type::U32),
        );
    });
    assert_eq!(
        one_line(&lnl(), &s),
        "lsc_load_strided.ugm (M1, 32)  V13:d32  flat[V12, 0x100]:a32"
    );
}

#[test]
fn example_predicated_untyped_atomic() {
    // (P) lsc_atomic_iadd.ugm (M1, 16)  VDST:d32  flat[VADDR]:a64  VSRC1  %null
    let s = shader_with(vec![], |b| {
        let x = scalar32(b, 2);
        let p = b.ine(x, x);
        let a = value_at(b, 12, Type::U64);
        let v = scalar32(b, 13);
        b.intrinsic(
            IntrinsicOp::LscAtomic,
            None,
            &[a.into(), v.into(), p.into()],
            &atomic_idx("ugm", "flat", "a64", "d32", "iadd"),
            Some(Type::U32),
        );
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "(P3) lsc_atomic_iadd.ugm (M1, 16)  V14:d32  flat[V12]:a64  V13  %null"
    );
}

/// U, V, R, LOD as four separate non-constant scalars `%56..%59`, and a predicate `%2`.
fn typed_coords(b: &mut Builder) -> (Value, [Src; 4]) {
    let x = scalar32(b, 1);
    let p = b.ine(x, x);
    let u = scalar32(b, 56);
    let v = scalar32(b, 57);
    let r = scalar32(b, 58);
    let l = scalar32(b, 59);
    (p, [u.into(), v.into(), r.into(), l.into()])
}

#[test]
fn example_typed_load_quad() {
    // (P) lsc_load_quad.tgm (M1, 16)  V60:d32.xyzw  bti(0x7B)[U,V,R,LOD]:a32
    let s = shader_with(vec![image("img", 0x7b, None)], |b| {
        let (p, c) = typed_coords(b);
        let mut srcs = c.to_vec();
        srcs.push(p.into());
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            img(0),
            &srcs,
            &idx("tgm", "bti", "a32", "d32.xyzw", "df.df", 0),
            Some(Type::vec32(4)),
        );
    });
    let line = "(P2) lsc_load_quad.tgm (M1, 16)  V60:d32.xyzw  bti(0x7B)[V56,V57,V58,V59]:a32";
    assert_eq!(one_line(&pvc(), &s), line);
    assert_eq!(one_line(&lnl(), &s), line);
    assert_eq!(
        one_line(&dg2(), &s),
        "(P2) lsc_load_quad.tgm (M1, 8)  V60:d32.xyzw  bti(0x7B)[V56,V57,V58,V59]:a32"
    );
}

#[test]
fn example_cache_warming_typed_load() {
    // (P) lsc_load_quad.tgm.ca.ca (M1, 16)  %null:d32.x  bti(0x7B)[U,V,R,LOD]:a32
    let s = shader_with(vec![image("img", 0x7b, None)], |b| {
        let (p, c) = typed_coords(b);
        let mut srcs = c.to_vec();
        srcs.push(p.into());
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            img(0),
            &srcs,
            &idx("tgm", "bti", "a32", "d32.x", "ca.ca", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&lnl(), &s),
        "(P2) lsc_load_quad.tgm.ca.ca (M1, 16)  %null:d32.x  bti(0x7B)[V56,V57,V58,V59]:a32"
    );
    // Before Xe2, TGM takes only default caching.
    let e = emit_visa(&s, &pvc()).unwrap_err();
    assert_eq!(
        e.reason.to_string(),
        "lsc.md §13.7: .tgm messages take only default caching (.df.df) before Xe2, found .ca.ca on pvc"
    );
}

#[test]
fn example_bss_typed_store() {
    // (P) lsc_store_quad.tgm (M1, 16)  bss(V10)[U,V]:a32  V60:d32.xy
    // The IR carries no register for the surface-state offset: it prints as SS_<image>.
    let s = shader_with(vec![image("dst", 0, None)], |b| {
        let (p, c) = typed_coords(b);
        let d = value_at(b, 60, Type::vec32(2));
        let zero = b.imm_u32(0);
        b.intrinsic(
            IntrinsicOp::LscStoreQuad,
            img(0),
            &[c[0], c[1], zero.into(), zero.into(), d.into(), p.into()],
            &idx("tgm", "bss", "a32", "d32.xy", "df.df", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&pvc(), &s),
        "(P2) lsc_store_quad.tgm (M1, 16)  bss(SS_dst)[V56,V57]:a32  V60:d32.xy"
    );
}

#[test]
fn example_typed_atomic() {
    // (P) lsc_atomic_iadd.tgm (M1, 16)  VDST:d32  bti(0x1)[U+1,V-2]:a32  VSRC1  %null
    // Typed immediate offsets are illegal (lsc.md §13.14); the rest prints as shown.
    let s = shader_with(vec![image("img", 1, None)], |b| {
        let (p, c) = typed_coords(b);
        let zero = b.imm_u32(0);
        let v = scalar32(b, 62);
        b.intrinsic(
            IntrinsicOp::LscAtomic,
            img(0),
            &[c[0], c[1], zero.into(), zero.into(), v.into(), p.into()],
            &atomic_idx("tgm", "bti", "a32", "d32", "iadd"),
            Some(Type::U32),
        );
    });
    assert_eq!(
        one_line(&lnl(), &s),
        "(P2) lsc_atomic_iadd.tgm (M1, 16)  V63:d32  bti(0x1)[V56,V57]:a32  V62  %null"
    );
}

// ----- the brief's DG2 examples ------------------------------------------------------

/// U = `%10`, V = `%11`, R = LOD = 0.
fn uv(b: &mut Builder) -> (Src, Src, Src) {
    let zero = b.imm_u32(0);
    let u = scalar32(b, 10);
    let v = scalar32(b, 11);
    (u.into(), v.into(), zero.into())
}

/// A typed `lsc_load_quad` of image 0 at `(V10, V11)` (see [`uv`]) with address model
/// `addr` of `size` and data shape `data`, into a value of the shape's components.
fn uv_quad_load(b: &mut Builder, addr: &str, size: &str, data: &str) {
    let (u, v, z) = uv(b);
    let comps = DataShape::parse(data).unwrap().components();
    b.intrinsic(
        IntrinsicOp::LscLoadQuad,
        img(0),
        &[u, v, z, z],
        &idx("tgm", addr, size, data, "df.df", 0),
        Some(Type::new(32, comps).unwrap()),
    );
}

#[test]
fn dg2_typed_messages() {
    let s = shader_with(vec![image("img", 1, None)], |b| {
        let (u, v, z) = uv(b);
        pad_to(b, 12);
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            img(0),
            &[u, v, z, z],
            &idx("tgm", "bti", "a32", "d32.xyzw", "df.df", 0),
            Some(Type::vec32(4)),
        );
        let d = value_at(b, 13, Type::vec32(2));
        b.intrinsic(
            IntrinsicOp::LscStoreQuad,
            img(0),
            &[u, v, z, z, d.into()],
            &idx("tgm", "bti", "a32", "d32.xy", "df.df", 0),
            None,
        );
        let s1 = value_at(b, 13 + 1, Type::U32);
        assert_eq!(s1.as_u32(), 14);
        b.intrinsic(
            IntrinsicOp::LscAtomic,
            img(0),
            &[u, v, z, z, s1.into()],
            &atomic_idx("tgm", "bti", "a32", "d32", "iadd"),
            Some(Type::U32),
        );
    });
    assert_eq!(
        message_lines(&dg2(), &s),
        [
            "lsc_load_quad.tgm (M1, 8)  V12:d32.xyzw  bti(0x1)[V10,V11]:a32",
            "lsc_store_quad.tgm (M1, 8)  bti(0x1)[V10,V11]:a32  V13:d32.xy",
            "lsc_atomic_iadd.tgm (M1, 8)  V15:d32  bti(0x1)[V10,V11]:a32  V14  %null",
        ]
    );
}

#[test]
fn dg2_untyped_bti_load() {
    // lsc_load.ugm (M1, 16)  V13:d32x4  bti(0x4)[V12]:a32
    let s = shader_with(vec![image("buf", 4, None)], |b| {
        let a = scalar32(b, 12);
        b.intrinsic(
            IntrinsicOp::LscLoad,
            img(0),
            &[a.into()],
            &idx("ugm", "bti", "a32", "d32x4", "df.df", 0),
            Some(Type::vec32(4)),
        );
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "lsc_load.ugm (M1, 16)  V13:d32x4  bti(0x4)[V12]:a32"
    );
}

// ----- hand-written expectations ---------------------------------------------------------

#[test]
fn every_atomic_sub_op() {
    // lsc.md §2: mnemonic suffix and data operand count of every sub-op.
    let ops: [(&str, usize); 19] = [
        ("iinc", 0),
        ("idec", 0),
        ("load", 0),
        ("store", 1),
        ("iadd", 1),
        ("isub", 1),
        ("smin", 1),
        ("smax", 1),
        ("umin", 1),
        ("umax", 1),
        ("icas", 2),
        ("fadd", 1),
        ("fsub", 1),
        ("fmin", 1),
        ("fmax", 1),
        ("fcas", 2),
        ("and", 1),
        ("or", 1),
        ("xor", 1),
    ];
    assert_eq!(ops.len(), LscAtomicOp::ALL.len());
    for (op, n) in ops {
        let s = shader_with(vec![], |b| {
            let a = value_at(b, 5, Type::U64);
            let x = scalar32(b, 7);
            let y = scalar32(b, 9);
            let srcs: Vec<Src> = [a.into(), x.into(), y.into()][..1 + n].to_vec();
            pad_to(b, 20);
            b.intrinsic(
                IntrinsicOp::LscAtomic,
                None,
                &srcs,
                &atomic_idx("ugm", "flat", "a64", "d32", op),
                Some(Type::U32),
            );
        });
        let (s1, s2) = match n {
            0 => ("%null", "%null"),
            1 => ("V7", "%null"),
            _ => ("V7", "V9"),
        };
        assert_eq!(
            one_line(&pvc(), &s),
            format!("lsc_atomic_{op}.ugm (M1, 32)  V20:d32  flat[V5]:a64  {s1}  {s2}")
        );
    }
}

#[test]
fn atomic_without_destination_and_slm_d64_cas() {
    let s = shader_with(vec![], |b| {
        let a = scalar32(b, 3);
        let c = value_at(b, 4, Type::U64);
        let d = value_at(b, 5, Type::U64);
        b.intrinsic(
            IntrinsicOp::LscAtomic,
            None,
            &[a.into(), c.into(), d.into()],
            &atomic_idx("slm", "flat", "a32", "d64", "icas"),
            None,
        );
    });
    assert_eq!(
        one_line(&lnl(), &s),
        "lsc_atomic_icas.slm (M1, 32)  %null:d64  flat[V3]:a32  V4  V5"
    );
}

#[test]
fn cache_controls_print_unless_default() {
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 2, Type::U64);
        let d = scalar32(b, 3);
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), d.into()],
            &idx("ugm", "flat", "a64", "d32", "uc.wb", 0),
            None,
        );
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), d.into()],
            &idx("ugm", "flat", "a64", "d32", "df.df", 0),
            None,
        );
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[a.into()],
            &idx("ugm", "flat", "a64", "d32", "st.ca", 0),
            Some(Type::U32),
        );
    });
    assert_eq!(
        message_lines(&dg2(), &s),
        [
            "lsc_store.ugm.uc.wb (M1, 16)  flat[V2]:a64  V3:d32",
            "lsc_store.ugm (M1, 16)  flat[V2]:a64  V3:d32",
            "lsc_load.ugm.st.ca (M1, 16)  V4:d32  flat[V2]:a64",
        ]
    );
}

#[test]
fn bti_from_an_image_array_index() {
    // Binding 0: the index is the binding-table index. Binding 3: binding + index is
    // computed first.
    let s = shader_with(vec![image("a", 0, Some(4)), image("b", 3, Some(4))], |b| {
        let i = scalar32(b, 7);
        let u = scalar32(b, 8);
        let z = b.imm_u32(0);
        pad_to(b, 12);
        for n in 0..2 {
            let r = ImageRef {
                image: ImageId::from_u32(n),
                index: Some(i.into()),
            };
            b.intrinsic(
                IntrinsicOp::LscLoadQuad,
                Some(r),
                &[u.into(), z.into(), z.into(), z.into()],
                &idx("tgm", "bti", "a32", "d32.x", "df.df", 0),
                Some(Type::U32),
            );
        }
    });
    assert_eq!(
        message_lines(&dg2(), &s),
        [
            "lsc_load_quad.tgm (M1, 8)  V12:d32.x  bti(V7)[V8]:a32",
            "add (M1_NM, 1) V7_bti3(0,0)<1> V7(0,0)<0;1,0> 0x3:ud",
            "lsc_load_quad.tgm (M1, 8)  V13:d32.x  bti(V7_bti3)[V8]:a32",
        ]
    );
}

#[test]
fn swizzled_sources_are_raw_offsets() {
    // A 32x2 coordinate vector %10: V is component 1, one SIMD-wide 32-bit register run
    // after U: 8 lanes × 4 bytes = 32 bytes on DG2, 16 × 4 = 64 on PVC and LNL.
    let s = shader_with(vec![image("img", 2, None)], |b| {
        let z = b.imm_u32(0);
        let c = vec_at(b, 10, 2);
        let d = value_at(b, 11, Type::vec32(4));
        b.intrinsic(
            IntrinsicOp::LscStoreQuad,
            img(0),
            &[
                Src::channel(c, 0),
                Src::channel(c, 1),
                z.into(),
                z.into(),
                Src::swizzled(d, &[1, 2, 3]).unwrap(),
            ],
            &idx("tgm", "bti", "a32", "d32.xyz", "df.df", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "lsc_store_quad.tgm (M1, 8)  bti(0x2)[V10,V10.32]:a32  V11.32:d32.xyz"
    );
    assert_eq!(
        one_line(&pvc(), &s),
        "lsc_store_quad.tgm (M1, 16)  bti(0x2)[V10,V10.64]:a32  V11.64:d32.xyz"
    );
    // An untyped store of %13.zw at SIMD16 on DG2: components are 2 registers apart.
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 12, Type::U64);
        let d = value_at(b, 13, Type::vec32(4));
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), Src::swizzled(d, &[2, 3]).unwrap()],
            &idx("ugm", "flat", "a64", "d32x2", "df.df", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "lsc_store.ugm (M1, 16)  flat[V12]:a64  V13.128:d32x2"
    );
    // Transposed data is packed: component 4 of a 32x8 value is 16 bytes in.
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 12, Type::U64);
        let d = value_at(b, 13, Type::new(32, 8).unwrap());
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), Src::swizzled(d, &[4, 5, 6, 7]).unwrap()],
            &idx("ugm", "flat", "a64", "d32x4t", "df.df", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&lnl(), &s),
        "lsc_store.ugm (M1, 1)  flat[V12]:a64  V13.16:d32x4t"
    );
}

#[test]
fn non_contiguous_data_is_gathered_first() {
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 12, Type::U64);
        let d = value_at(b, 13, Type::vec32(4));
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), Src::swizzled(d, &[0, 2]).unwrap()],
            &idx("ugm", "flat", "a64", "d32x2", "df.df", 0),
            None,
        );
    });
    // DG2 untyped SIMD16 with 32-byte GRFs: a 32-bit component spans 16 * 4 / 32 = 2
    // rows, so .x sits at row 0 and .z at row 4; the copy packs them at rows 0 and 2.
    let text = emit_visa(&s, &dg2()).unwrap();
    let expected = "    mov (M1, 16) V13_xz(0,0)<1> V13(0,0)<1;1,0>\n    \
                    mov (M1, 16) V13_xz(2,0)<1> V13(4,0)<1;1,0>\n    \
                    lsc_store.ugm (M1, 16)  flat[V12]:a64  V13_xz:d32x2\n";
    assert!(text.contains(expected), "{text}");
}

#[test]
fn immediate_offsets_and_hex_case() {
    // IGC prints the offset in hex; an immediate surface leaves std::uppercase set.
    let s = shader_with(vec![image("buf", 10, None)], |b| {
        let a = value_at(b, 12, Type::U64);
        let a32 = scalar32(b, 13);
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[a.into()],
            &idx("ugm", "flat", "a64", "d32", "df.df", 0xab),
            Some(Type::U32),
        );
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[a.into()],
            &idx("ugm", "flat", "a64", "d32", "df.df", -16),
            Some(Type::U32),
        );
        b.intrinsic(
            IntrinsicOp::LscLoad,
            img(0),
            &[a32.into()],
            &idx("ugm", "bti", "a32", "d32", "df.df", 0xab),
            Some(Type::U32),
        );
    });
    assert_eq!(
        message_lines(&dg2(), &s),
        [
            "lsc_load.ugm (M1, 16)  V14:d32  flat[V12+0xab]:a64",
            "lsc_load.ugm (M1, 16)  V15:d32  flat[V12-0x10]:a64",
            "lsc_load.ugm (M1, 16)  V16:d32  bti(0xA)[V13+0xAB]:a32",
        ]
    );
}

#[test]
fn strided_with_register_pitch() {
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 12, Type::U64);
        let p = value_at(b, 14, Type::U32);
        let d = scalar32(b, 16);
        b.intrinsic(
            IntrinsicOp::LscStoreStrided,
            None,
            &[a.into(), p.into(), d.into()],
            &idx("ugm", "flat", "a64", "d32", "df.df", 0),
            None,
        );
    });
    assert_eq!(
        one_line(&pvc(), &s),
        "lsc_store_strided.ugm (M1, 32)  flat[V12, V14]:a64  V16:d32"
    );
}

#[test]
fn trailing_zero_typed_coordinates() {
    // (u, v, r, lod) with zeros in various places: only trailing zeros are dropped.
    let cases: [([bool; 4], &str); 5] = [
        ([true, true, true, true], "[V20,V21,V22,V23]"),
        ([true, true, true, false], "[V20,V21,V22]"),
        ([true, true, false, false], "[V20,V21]"),
        ([true, false, false, false], "[V20]"),
        ([true, false, true, false], "[V20,V9,V22]"),
    ];
    for (live, want) in cases {
        let s = shader_with(vec![image("img", 1, None)], |b| {
            pad_to(b, 9);
            let z = b.imm_u32(0);
            let coords: Vec<Value> = (20..24).map(|n| scalar32(b, n)).collect();
            let srcs: Vec<Src> = (0..4)
                .map(|i| if live[i] { coords[i].into() } else { z.into() })
                .collect();
            pad_to(b, 30);
            b.intrinsic(
                IntrinsicOp::LscLoadQuad,
                img(0),
                &srcs,
                &idx("tgm", "bti", "a32", "d32.x", "df.df", 0),
                Some(Type::U32),
            );
        });
        assert_eq!(
            one_line(&dg2(), &s),
            format!("lsc_load_quad.tgm (M1, 8)  V30:d32.x  bti(0x1){want}:a32")
        );
    }
}

fn sampler_indices(channels: &str) -> Vec<u32> {
    vec![
        IndexKind::Channels.parse_value(channels).unwrap(),
        AluType::parse("float32").unwrap().to_index(),
    ]
}

#[test]
fn sampler_loads() {
    let s = shader_with(vec![image("tex", 5, None)], |b| {
        let z = b.imm_u32(0);
        let u = scalar32(b, 10);
        let v = scalar32(b, 11);
        let l = scalar32(b, 12);
        pad_to(b, 20);
        // ld with u, v, lod = 0, r = 0: trailing zeros dropped.
        b.intrinsic(
            IntrinsicOp::SamplerLd,
            img(0),
            &[u.into(), v.into(), z.into(), z.into()],
            &sampler_indices("rgba"),
            Some(Type::vec32(4)),
        );
        // ld with a LOD.
        b.intrinsic(
            IntrinsicOp::SamplerLd,
            img(0),
            &[u.into(), v.into(), l.into(), z.into()],
            &sampler_indices("r"),
            Some(Type::U32),
        );
        // ld_lz with r.
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            img(0),
            &[u.into(), v.into(), l.into()],
            &sampler_indices("rga"),
            Some(Type::vec32(3)),
        );
    });
    assert_eq!(
        message_lines(&dg2(), &s),
        [
            "load_3d.RGBA (M1, 16)  0x0:uw T5 V20.0 %null.0 V10.0 V11.0",
            "load_3d.R (M1, 16)  0x0:uw T5 V21.0 %null.0 V10.0 V11.0 V12.0",
            "load_lz.RGA (M1, 16)  0x0:uw T5 V22.0 %null.0 V10.0 V11.0 V12.0",
        ]
    );
    // No sampler on PVC.
    let e = emit_visa(&s, &pvc()).unwrap_err();
    assert_eq!(
        e.reason.to_string(),
        "pvc has no 3D sampler (IGC Platform.hpp hasSamplerSupport)"
    );
}

#[test]
fn predicated_sampler_from_an_image_array() {
    let s = shader_with(vec![image("tex", 2, Some(8))], |b| {
        let x = scalar32(b, 1);
        let p = b.ine(x, x);
        let i = scalar32(b, 4);
        let u = scalar32(b, 10);
        let z = b.imm_u32(0);
        pad_to(b, 20);
        let r = ImageRef {
            image: ImageId::from_u32(0),
            index: Some(i.into()),
        };
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            Some(r),
            &[u.into(), z.into(), z.into(), p.into()],
            &sampler_indices("rgba"),
            Some(Type::vec32(4)),
        );
    });
    assert_eq!(
        message_lines(&lnl(), &s),
        [
            "add (M1_NM, 1) V4_bti2(0,0)<1> V4(0,0)<0;1,0> 0x2:ud",
            "movs (M1_NM, 1) T_V4_bti2(0) V4_bti2(0,0)<0;1,0>",
            "(P2) load_lz.RGBA (M1, 16)  0x0:uw T_V4_bti2 V20.0 %null.0 V10.0",
        ]
    );
}

#[test]
fn whole_listing_from_text() {
    // The comment lines are the IR's own text (ir::print), block labels and control
    // flow included; each message is followed by its vISA instruction.
    let ir_text = "\
shader compute (local_size=16,1,1)
image @img : 2d r32_uint (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000000)
    1    %2 = ine %0.x, %1
  if %2 {
    block b1:
      32   %3 = @lsc_load_quad (@img, %0.x, %0.y, %1, %1) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x) if %2
      @lsc_store_quad (@img, %0.x, %0.y, %1, %1, %3) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x, lsc_cache=uc.wb)
  } else {
    block b2:
  }
  block b3:
  loop {
    block b4:
      break
  }
  block b5:
}
";
    let s = ir::parse_shader(ir_text).unwrap_or_else(|d| panic!("{d:?}"));
    let text = emit_visa(&s, &lnl()).unwrap();
    assert_eq!(
        text,
        "\
// vISA for lnl: verx10 200, 64-byte GRFs, typed SIMD16, untyped SIMD32
.kernel \"main\"
    // block b0:
    //   32x3 %0 = @load_global_invocation_id
    //   32   %1 = load_const (0x00000000)
    //   1    %2 = ine %0.x, %1
    // if %2 {
    //   block b1:
    //     32   %3 = @lsc_load_quad (@img, %0.x, %0.y, %1, %1) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x) if %2
    (P2) lsc_load_quad.tgm (M1, 16)  V3:d32.x  bti(0x1)[V0,V0.64]:a32
    //     @lsc_store_quad (@img, %0.x, %0.y, %1, %1, %3) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x, lsc_cache=uc.wb)
    lsc_store_quad.tgm.uc.wb (M1, 16)  bti(0x1)[V0,V0.64]:a32  V3:d32.x
    // } else {
    //   block b2:
    // }
    // block b3:
    // loop {
    //   block b4:
    //     break
    // }
    // block b5:
"
    );
    // Before Xe2 the store's cache controls are illegal on TGM; the error names the line.
    let e = emit_visa(&s, &dg2()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "12:7: in fn main: `@lsc_store_quad`: lsc.md §13.7: .tgm messages take only default caching (.df.df) before Xe2, found .uc.wb on dg2"
    );
}

#[test]
fn pre_lsc_platforms_are_rejected() {
    let mut s = shader_with(vec![image("img", 1, None)], |b| {
        uv_quad_load(b, "bti", "a32", "d32.xyzw");
    });
    let f = &mut s.functions[0];
    let inst = f.insts_in_order().into_iter().last().unwrap();
    f.set_inst_span(inst, Span::new(4, 5));
    let e = emit_visa(&s, &tgl()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "4:5: in fn main: `%12 = @lsc_load_quad`: tgl (verx10 120) has no LSC messages (DG2, verx10 125, is the first); its backend maps them onto legacy HDC messages"
    );
    // Sampler loads exist before LSC and print.
    let s = shader_with(vec![image("tex", 5, None)], |b| {
        let u = scalar32(b, 10);
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            img(0),
            &[u.into(), u.into(), u.into()],
            &sampler_indices("r"),
            Some(Type::U32),
        );
    });
    assert_eq!(
        one_line(&tgl(), &s),
        "load_lz.R (M1, 16)  0x0:uw T5 V11.0 %null.0 V10.0 V10.0 V10.0"
    );
}

#[test]
fn illegal_messages_are_errors() {
    // a64 on tgm.
    let s = shader_with(vec![image("img", 1, None)], |b| {
        uv_quad_load(b, "bti", "a64", "d32.xyzw");
    });
    let e = emit_visa(&s, &lnl()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "<unknown>: in fn main: `%12 = @lsc_load_quad`: lsc.md §13.1: .tgm messages take :a32 addresses, found :a64"
    );
    // A transposed store too large for the payload: d64x64t is 512 bytes, 16 GRFs on DG2.
    let s = shader_with(vec![], |b| {
        let a = value_at(b, 1, Type::U64);
        let d = value_at(b, 2, Type::U64);
        b.intrinsic(
            IntrinsicOp::LscStore,
            None,
            &[a.into(), d.into()],
            &idx("ugm", "flat", "a64", "d64x64t", "df.df", 0),
            None,
        );
    });
    assert!(emit_visa(&s, &dg2()).is_err());
    assert_eq!(DataShape::parse("d64x64t").unwrap().vect, 64);
}

#[test]
fn presets_choose_exec_sizes() {
    // lsc.md §10 via the device presets: typed SIMD8 on DG2/MTL, 16 on PVC, 32 on Xe2;
    // untyped SIMD16 on DG2/MTL, 32 on PVC and Xe2; no LSC before DG2.
    let s = shader_with(vec![image("img", 1, None)], |b| {
        uv_quad_load(b, "bti", "a32", "d32.xyzw");
        let a = value_at(b, 20, Type::U64);
        b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[a.into()],
            &idx("ugm", "flat", "a64", "d32x2", "df.df", 0),
            Some(Type::vec32(2)),
        );
    });
    for name in Device::PRESET_NAMES {
        let d = Device::preset(name).unwrap();
        let (typed, untyped) = match name {
            "dg2" | "mtl" => (8, 16),
            "pvc" => (16, 32),
            "lnl" | "bmg" => (32, 32),
            _ => {
                let e = emit_visa(&s, &d).unwrap_err();
                assert!(
                    e.to_string()
                        .contains(&format!("{name} (verx10 {})", d.verx10())),
                    "{e}"
                );
                continue;
            }
        };
        assert_eq!(
            message_lines(&d, &s),
            [
                format!("lsc_load_quad.tgm (M1, {typed})  V12:d32.xyzw  bti(0x1)[V10,V11]:a32"),
                format!("lsc_load.ugm (M1, {untyped})  V21:d32x2  flat[V20]:a64"),
            ],
            "{name}"
        );
    }
}

#[test]
fn ss_surfaces_vector_predicates_and_diagnostics() {
    // ss prints the variable holding the image's surface-state offset.
    let s = shader_with(vec![image("dst", 0, None)], |b| {
        uv_quad_load(b, "ss", "a32", "d32.x");
    });
    assert_eq!(
        one_line(&dg2(), &s),
        "lsc_load_quad.tgm (M1, 8)  V12:d32.x  ss(SS_dst)[V10,V11]:a32"
    );
    // An indexed bss surface would need the surface-state stride.
    let s = shader_with(vec![image("dst", 0, Some(4))], |b| {
        let (u, v, z) = uv(b);
        let r = ImageRef {
            image: ImageId::from_u32(0),
            index: Some(u),
        };
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            Some(r),
            &[u, v, z, z],
            &idx("tgm", "bss", "a32", "d32.x", "df.df", 0),
            Some(Type::U32),
        );
    });
    let e = emit_visa(&s, &dg2()).unwrap_err();
    assert_eq!(
        e.reason.to_string(),
        "a bss surface indexed by %10 needs the surface-state stride of @dst, which the IR does not carry"
    );
    // A predicate reading one component of a boolean vector has no vISA spelling.
    let text = "\
shader compute (local_size=16,1,1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    64   %1 = u2u64 %0.x
    1x2  %2 = load_const (true, false)
    32   %3 = @lsc_load (%1, %2.y) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
}
";
    let s = ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    let e = emit_visa(&s, &dg2()).unwrap_err();
    assert_eq!(
        e.to_diagnostic().render("t.ir", text),
        "error: in fn main: `%3 = @lsc_load`: predicate %2.y reads a component of a 2-component boolean; vISA predicates are whole variables\n --> t.ir:8:5\n  |\n8 |     32   %3 = @lsc_load (%1, %2.y) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)\n  |     ^\n"
    );
}
