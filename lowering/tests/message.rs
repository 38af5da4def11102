//! Message legality: one test per rule of docs/hardware/lsc-messages.md §13 (items 1-7, 10, 11, 14) and §5,
//! with the exact error text, plus legal counterparts on DG2, PVC and LNL.

use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, LscAtomicOp, LscDesc, Sfid};
use ir::{
    Access, Builder, Format, Function, ImageDecl, ImageDim, ImageId, ImageRef, IndexKind, Inst,
    IntrinsicOp, Span, Src, Type, Value,
};
use lowering::messages::{
    cache_encoding, check_lsc, check_message, message_descriptor, LscMessage, LscOp, OpClass,
};
use lowering::Device;

mod platforms;
use platforms::{dg2, lnl, pvc, tgl};

fn image(binding: u32, count: Option<u32>) -> ImageDecl {
    ImageDecl {
        name: "img".into(),
        dim: ImageDim::D2,
        arrayed: false,
        format: Format::R32Uint,
        access: Access::NONE,
        binding,
        count,
        layout: None,
    }
}

/// The fields of a message, by their text names.
#[derive(Clone, Copy)]
struct Fields<'a> {
    sfid: &'a str,
    addr: &'a str,
    size: &'a str,
    data: &'a str,
    cache: &'a str,
    offset: i32,
    atomic: Option<&'a str>,
}

fn fields<'a>(sfid: &'a str, addr: &'a str, size: &'a str, data: &'a str) -> Fields<'a> {
    Fields {
        sfid,
        addr,
        size,
        data,
        cache: "df.df",
        offset: 0,
        atomic: None,
    }
}

fn indices(f: Fields) -> Vec<u32> {
    let mut desc = LscDesc::new(
        Sfid::from_name(f.sfid).unwrap(),
        AddrType::from_name(f.addr).unwrap(),
        AddrSize::from_name(f.size).unwrap(),
        DataShape::parse(f.data).unwrap(),
    )
    .with_cache(CacheControl::parse(f.cache).unwrap())
    .with_offset(f.offset);
    if let Some(a) = f.atomic {
        desc = desc.with_atomic(LscAtomicOp::from_name(a).unwrap());
    }
    desc.indices().to_vec()
}

/// A function holding one message, with the values it needs: a 32-bit scalar, a 64-bit
/// scalar, a 32x4 vector and a boolean.
struct Case {
    func: Function,
    inst: Inst,
}

struct Vals {
    u32: Value,
    u64: Value,
    v4: Value,
    d64: Value,
    pred: Value,
}

impl Vals {
    /// The four 32-bit coordinates (U, V, R, LOD) of a typed message.
    fn quad(&self) -> Vec<Src> {
        vec![self.u32.into(); 4]
    }
}

fn build(f: impl FnOnce(&mut Builder, &Vals) -> Inst) -> Case {
    let mut func = Function::new("main");
    let mut b = Builder::at_end(&mut func);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    let u32v = b.mov(Src::channel(gid, 0));
    let u64v = b.u2u64(u32v);
    let x = b.mov(Src::channel(gid, 1));
    let v4 = b.vec(&[u32v.into(), x.into(), u32v.into(), x.into()]);
    let pred = b.ine(u32v, x);
    let vals = Vals {
        u32: u32v,
        u64: u64v,
        v4,
        d64: u64v,
        pred,
    };
    let inst = f(&mut b, &vals);
    Case { func, inst }
}

fn emit(
    b: &mut Builder,
    op: IntrinsicOp,
    image: Option<ImageRef>,
    srcs: &[Src],
    f: Fields,
    dest: Option<Type>,
) -> Inst {
    b.intrinsic(op, image, srcs, &indices(f), dest);
    last_inst(b)
}

/// The instruction the builder just added.
fn last_inst(b: &Builder) -> Inst {
    match b.cursor {
        ir::Cursor::After(i) => i,
        c => panic!("cursor {c:?}"),
    }
}

/// A case of one `op` message with the sources `srcs` picks from the values.
fn message(
    op: IntrinsicOp,
    image: Option<ImageRef>,
    srcs: impl FnOnce(&Vals) -> Vec<Src>,
    f: Fields<'static>,
    dest: Option<Type>,
) -> Case {
    build(|b, v| emit(b, op, image, &srcs(v), f, dest))
}

fn img0() -> Option<ImageRef> {
    Some(ImageRef::new(ImageId::from_u32(0)))
}

fn check(p: &Device, c: &Case) -> Result<(), String> {
    check_message(p, &[image(1, None)], &c.func, c.inst).map_err(|e| e.rule.to_string())
}

/// The rules of the LSC-shaped form alone (`check_lsc`), which the lowering checks on
/// every platform before the legacy data port takes over where there is no LSC.
fn check_fields(p: &Device, c: &Case) -> Result<(), String> {
    let m = LscMessage::decode(&c.func, c.inst)
        .map_err(|r| r.to_string())?
        .expect("an LSC message");
    check_lsc(p, &m).map_err(|r| r.to_string())
}

fn check_images(p: &Device, images: &[ImageDecl], c: &Case) -> Result<(), String> {
    check_message(p, images, &c.func, c.inst).map_err(|e| e.rule.to_string())
}

// ----- messages used by several tests ---------------------------------------------------

fn typed_load(data: &'static str, size: &'static str, addr: &'static str) -> Case {
    build(|b, v| {
        let comps = DataShape::parse(data).unwrap().components();
        emit(
            b,
            IntrinsicOp::LscLoadQuad,
            img0(),
            &v.quad(),
            fields("tgm", addr, size, data),
            Some(Type::new(32, comps).unwrap()),
        )
    })
}

fn typed_store(data: &'static str) -> Case {
    build(|b, v| {
        let comps = DataShape::parse(data).unwrap().components();
        let d = match comps {
            1 => Src::channel(v.v4, 0),
            n => Src::swizzled(v.v4, &(0..n).collect::<Vec<_>>()).unwrap(),
        };
        emit(
            b,
            IntrinsicOp::LscStoreQuad,
            img0(),
            &[v.u32.into(), v.u32.into(), v.u32.into(), v.u32.into(), d],
            fields("tgm", "bti", "a32", data),
            None,
        )
    })
}

fn typed_atomic(op: &'static str, f: impl FnOnce(Fields<'static>) -> Fields<'static>) -> Case {
    build(|b, v| {
        let a = LscAtomicOp::from_name(op).unwrap();
        let mut srcs: Vec<Src> = vec![v.u32.into(), v.u32.into(), v.u32.into(), v.u32.into()];
        srcs.extend(std::iter::repeat_n(Src::from(v.u32), a.num_data_operands()));
        let mut fl = fields("tgm", "bti", "a32", "d32");
        fl.atomic = Some(op);
        let fl = f(fl);
        emit(
            b,
            IntrinsicOp::LscAtomic,
            img0(),
            &srcs,
            fl,
            Some(Type::U32),
        )
    })
}

fn ugm_load(
    sfid: &'static str,
    data: &'static str,
    f: impl FnOnce(Fields<'static>) -> Fields<'static>,
) -> Case {
    build(|b, v| {
        let shape = DataShape::parse(data).unwrap();
        let fl = f(fields(sfid, "flat", "a64", data));
        let addr: Src = if fl.size == "a64" {
            v.u64.into()
        } else {
            v.u32.into()
        };
        let ty = Type::new(shape.size.reg_bits(), shape.components());
        emit(b, IntrinsicOp::LscLoad, None, &[addr], fl, ty)
    })
}

fn untyped_atomic(sfid: &'static str, op: &'static str, data: &'static str) -> Case {
    build(|b, v| {
        let a = LscAtomicOp::from_name(op).unwrap();
        let shape = DataShape::parse(data).unwrap();
        let bits = shape.size.reg_bits();
        let val: Src = if bits == 64 {
            v.d64.into()
        } else {
            v.u32.into()
        };
        let (addr_model, size, addr): (&str, &str, Src) = if sfid == "slm" {
            ("flat", "a32", v.u32.into())
        } else {
            ("flat", "a64", v.u64.into())
        };
        let mut srcs = vec![addr];
        srcs.extend(std::iter::repeat_n(val, a.num_data_operands()));
        let mut fl = fields(sfid, addr_model, size, data);
        fl.atomic = Some(op);
        emit(
            b,
            IntrinsicOp::LscAtomic,
            None,
            &srcs,
            fl,
            Type::scalar(bits),
        )
    })
}

// ----- §13.1 -----------------------------------------------------------------------------

#[test]
fn tgm_with_a64_or_a16() {
    assert_eq!(
        check(&dg2(), &typed_load("d32.xyzw", "a64", "bti")),
        Err(
            "docs/hardware/lsc-messages.md §13.1: .tgm messages take :a32 addresses, found :a64"
                .into()
        )
    );
    assert_eq!(
        check(&dg2(), &typed_load("d32.xyzw", "a16", "bti")),
        Err(
            "docs/hardware/lsc-messages.md §13.1: .tgm messages take :a32 addresses, found :a16"
                .into()
        )
    );
}

#[test]
fn tgm_flat() {
    let c = message(
        IntrinsicOp::LscLoadQuad,
        None,
        Vals::quad,
        fields("tgm", "flat", "a32", "d32.x"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&pvc(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.1: .tgm messages need a stateful surface (bti, bss, ss), found flat".into()
        )
    );
}

#[test]
fn slm_non_flat() {
    let c = message(
        IntrinsicOp::LscLoad,
        img0(),
        |v| vec![v.u32.into()],
        fields("slm", "bti", "a32", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.1: .slm messages take flat addresses only, found bti".into())
    );
}

#[test]
fn a16_outside_slm() {
    let c = ugm_load("ugm", "d32", |mut f| {
        f.size = "a16";
        f
    });
    assert_eq!(
        check(&lnl(), &c),
        Err("docs/hardware/lsc-messages.md §13.1: :a16 addresses are legal only on .slm, found .ugm".into())
    );
}

#[test]
fn slm_a64() {
    let c = ugm_load("slm", "d32", |f| f);
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §5: .slm messages take :a16 or :a32 addresses, found :a64".into()
        )
    );
}

#[test]
fn ugm_a64_from_gfx8() {
    // Gfx7 data-port messages have no 64-bit flat addresses; BDW's do.
    let c = ugm_load("ugm", "d32", |f| f);
    let (hsw, bdw) = (
        Device::preset("hsw").unwrap(),
        Device::preset("bdw").unwrap(),
    );
    assert_eq!(
        check_fields(&hsw, &c),
        Err(
            ":a64 addresses need 64-bit flat (A64) messages, which this platform (before Gfx8) does not have"
                .into()
        )
    );
    assert_eq!(check_fields(&bdw, &c), Ok(()));
}

#[test]
fn ops_not_on_sfid() {
    let c = message(
        IntrinsicOp::LscLoad,
        img0(),
        Vals::quad,
        fields("tgm", "bti", "a32", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §2: lsc_load is not available on .tgm (typed loads are lsc_load_quad)".into())
    );
    let c = message(
        IntrinsicOp::LscLoadStrided,
        None,
        |v| vec![v.u64.into(), v.u32.into()],
        fields("ugml", "flat", "a64", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&pvc(), &c),
        Err("docs/hardware/lsc-messages.md §2: lsc_load_strided is not available on .ugml".into())
    );
}

// ----- §13.2 -----------------------------------------------------------------------------

#[test]
fn load_quad_mask_zero() {
    // DataShape::parse refuses an empty mask; build the index by hand.
    let c = build(|b, v| {
        let mut idx = indices(fields("tgm", "bti", "a32", "d32.x"));
        idx[3] = DataShape::quad(ir::lsc::DataSize::D32, 0).to_index();
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            img0(),
            &v.quad(),
            &idx,
            Some(Type::U32),
        );
        last_inst(b)
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.2: lsc_load_quad needs a non-zero channel mask within .xyzw, found 0x0"
                .into()
        )
    );
}

#[test]
fn store_quad_non_contiguous_mask() {
    assert_eq!(
        check(&dg2(), &typed_store("d32.xz")),
        Err("docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found .xz".into())
    );
    assert_eq!(
        check(&lnl(), &typed_store("d32.yzw")),
        Err("docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found .yzw".into())
    );
    // Any non-empty subset loads.
    assert_eq!(check(&dg2(), &typed_load("d32.xz", "a32", "bti")), Ok(()));
    for mask in ["d32.x", "d32.xy", "d32.xyz", "d32.xyzw"] {
        for p in [dg2(), pvc(), lnl()] {
            assert_eq!(
                check(&p, &typed_store(mask)),
                Ok(()),
                "{mask} on {}",
                p.name
            );
        }
    }
}

// ----- §13.3 -----------------------------------------------------------------------------

#[test]
fn vector_with_narrow_or_widening_data() {
    let c = ugm_load("ugm", "d16x2", |f| f);
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.3: non-transposed vector size x2 needs d32 or d64 data, found d16".into())
    );
    let c = ugm_load("ugm", "d8u32x4", |f| f);
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.3: d8u32 can never be a vector, found x4".into())
    );
    let c = ugm_load("ugm", "d16u32x2t", |f| f);
    assert_eq!(
        check(&pvc(), &c),
        Err("docs/hardware/lsc-messages.md §13.3: d16u32 can never be a vector, found x2".into())
    );
}

#[test]
fn vector_sizes_per_sfid() {
    let c = ugm_load("ugml", "d32x3", |f| f);
    assert_eq!(
        check(&pvc(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.3: .ugml vector sizes are {1, 2, 4}, found x3"
                .into()
        )
    );
    let c = ugm_load("ugml", "d32x8", |f| f);
    assert_eq!(
        check(&pvc(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.3: .ugml vector sizes are {1, 2, 4}, found x8"
                .into()
        )
    );
    let c = ugm_load("ugm", "d32x16", |f| f);
    assert_eq!(
        check(&pvc(), &c),
        Err("docs/hardware/lsc-messages.md §13.3: vector size x16 exists only transposed".into())
    );
    // UGM takes x3 and x8; the transposed x16 block is legal.
    for p in [dg2(), pvc(), lnl()] {
        assert_eq!(
            check(&p, &ugm_load("ugm", "d32x3", |f| f)),
            Ok(()),
            "{}",
            p.name
        );
        assert_eq!(
            check(&p, &ugm_load("ugm", "d32x16t", |f| f)),
            Ok(()),
            "{}",
            p.name
        );
        assert_eq!(
            check(&p, &ugm_load("ugml", "d32x4", |f| f)),
            Ok(()),
            "{}",
            p.name
        );
    }
    // x8 d32 at SIMD16 on DG2 is 16 registers: legal shape, too big a payload.
    assert_eq!(
        check(&dg2(), &ugm_load("ugm", "d32x8", |f| f)),
        Err(
            "docs/hardware/lsc-messages.md §13.10: the data payload takes 16 registers at SIMD16 on dg2, the limit is 8"
                .into()
        )
    );
}

// ----- §13.4 -----------------------------------------------------------------------------

#[test]
fn transpose_with_channel_mask_or_atomic() {
    let c = build(|b, v| {
        let mut idx = indices(fields("ugm", "flat", "a64", "d32.xy"));
        let mut shape = DataShape::parse("d32.xy").unwrap();
        shape.transpose = true;
        idx[3] = shape.to_index();
        b.intrinsic(
            IntrinsicOp::LscLoadQuad,
            None,
            &[v.u64.into()],
            &idx,
            Some(Type::vec32(2)),
        );
        last_inst(b)
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.4: lsc_load_quad has a channel mask and cannot be transposed"
                .into()
        )
    );
    let c = build(|b, v| {
        let mut fl = fields("ugm", "flat", "a64", "d32x1t");
        fl.atomic = Some("iadd");
        emit(
            b,
            IntrinsicOp::LscAtomic,
            None,
            &[v.u64.into(), v.u32.into()],
            fl,
            Some(Type::U32),
        )
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.4: atomics cannot be transposed (lsc_atomic_iadd)"
                .into()
        )
    );
}

#[test]
fn channel_mask_on_vector_op() {
    let c = message(
        IntrinsicOp::LscLoad,
        None,
        |v| vec![v.u64.into()],
        fields("ugm", "flat", "a64", "d32.xy"),
        Some(Type::vec32(2)),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §4: lsc_load takes a vector size, not a channel mask (only lsc_load_quad and lsc_store_quad have one)".into())
    );
}

// ----- §13.5 -----------------------------------------------------------------------------

#[test]
fn atomic_data_size_vector_and_operands() {
    let c = untyped_atomic("ugm", "iadd", "d16");
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.5: lsc_atomic_iadd takes d16u32, d32 or d64 data, found d16"
                .into()
        )
    );
    let c = untyped_atomic("ugm", "iadd", "d8u32");
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.5: lsc_atomic_iadd takes d16u32, d32 or d64 data, found d8u32".into())
    );
    let c = build(|b, v| {
        let mut fl = fields("ugm", "flat", "a64", "d32x2");
        fl.atomic = Some("iadd");
        emit(
            b,
            IntrinsicOp::LscAtomic,
            None,
            &[v.u64.into(), v.u32.into()],
            fl,
            Some(Type::vec32(2)),
        )
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.5: lsc_atomic_iadd takes one element per address, found x2"
                .into()
        )
    );
    // iadd with two data operands; icas with one; iinc with one.
    for (op, srcs, expected, found) in [("iadd", 2, 1, 2), ("icas", 1, 2, 1), ("iinc", 1, 0, 1)] {
        let c = build(|b, v| {
            let mut fl = fields("ugm", "flat", "a64", "d32");
            fl.atomic = Some(op);
            let mut s: Vec<Src> = vec![v.u64.into()];
            s.extend(std::iter::repeat_n(Src::from(v.u32), srcs));
            emit(b, IntrinsicOp::LscAtomic, None, &s, fl, Some(Type::U32))
        });
        let plural = if expected == 1 { "" } else { "s" };
        assert_eq!(
            check(&dg2(), &c),
            Err(format!(
                "docs/hardware/lsc-messages.md §13.5: lsc_atomic_{op} takes {expected} data operand{plural} (the other sources are %null), found {found}"
            ))
        );
    }
    // d16u32, d32 and d64 are the legal atomic sizes.
    for data in ["d16u32", "d32", "d64"] {
        for p in [dg2(), pvc(), lnl()] {
            assert_eq!(
                check(&p, &untyped_atomic("ugm", "umax", data)),
                Ok(()),
                "{data} {}",
                p.name
            );
        }
    }
}

// ----- §13.6 -----------------------------------------------------------------------------

#[test]
fn tgm_float_add_before_xe2() {
    for op in ["fadd", "fsub"] {
        for p in [dg2(), pvc()] {
            assert_eq!(
                check(&p, &typed_atomic(op, |f| f)),
                Err(format!(
                    "docs/hardware/lsc-messages.md §13.6: lsc_atomic_{op} on .tgm needs Xe2 (verx10 200) or later, {} has none",
                    p.name
                ))
            );
        }
        assert_eq!(check(&lnl(), &typed_atomic(op, |f| f)), Ok(()));
        // UGM float add exists before Xe2.
        assert_eq!(check(&dg2(), &untyped_atomic("ugm", op, "d32")), Ok(()));
    }
    // fmin/fmax/fcas are fine on TGM everywhere.
    for p in [dg2(), pvc(), lnl()] {
        assert_eq!(check(&p, &typed_atomic("fmax", |f| f)), Ok(()));
        assert_eq!(check(&p, &typed_atomic("fcas", |f| f)), Ok(()));
    }
}

#[test]
fn slm_d64_atomics() {
    assert_eq!(
        check(&pvc(), &untyped_atomic("slm", "iadd", "d64")),
        Err(
            "docs/hardware/lsc-messages.md §13.6: the only 64-bit .slm atomic is lsc_atomic_icas, found lsc_atomic_iadd"
                .into()
        )
    );
    for p in [dg2(), pvc(), lnl()] {
        assert_eq!(check(&p, &untyped_atomic("slm", "icas", "d64")), Ok(()));
        assert_eq!(check(&p, &untyped_atomic("slm", "iadd", "d32")), Ok(()));
        assert_eq!(check(&p, &untyped_atomic("ugm", "iadd", "d64")), Ok(()));
    }
}

// ----- §13.7 -----------------------------------------------------------------------------

#[test]
fn non_default_cache_on_tgm_and_ugml_before_xe2() {
    let c = typed_atomic("iadd", |mut f| {
        f.cache = "uc.wb";
        f
    });
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.7: .tgm messages take only default caching (.df.df) before Xe2, found .uc.wb on dg2".into())
    );
    assert_eq!(check(&lnl(), &c), Ok(()));
    let c = ugm_load("ugml", "d32", |mut f| {
        f.cache = "uc.uc";
        f
    });
    assert_eq!(
        check(&pvc(), &c),
        Err("docs/hardware/lsc-messages.md §13.7: .ugml messages take only default caching (.df.df) before Xe2, found .uc.uc on pvc".into())
    );
    assert_eq!(check(&lnl(), &c), Ok(()));
}

#[test]
fn slm_caching_must_be_default() {
    let c = ugm_load("slm", "d32", |mut f| {
        f.size = "a32";
        f.cache = "uc.uc";
        f
    });
    for p in [dg2(), lnl()] {
        assert_eq!(
            check(&p, &c),
            Err(
                "docs/hardware/lsc-messages.md §13.7: .slm messages take only default caching (.df.df), found .uc.uc"
                    .into()
            )
        );
    }
}

#[test]
fn atomic_l1_must_be_uncached() {
    let c = untyped_atomic("ugm", "iadd", "d32");
    let mut c2 = c;
    let i = c2.inst;
    let pos = IntrinsicOp::LscAtomic
        .index_position(IndexKind::LscCache)
        .unwrap();
    if let ir::InstKind::Intrinsic(x) = &mut c2.func.inst_mut(i).kind {
        x.indices[pos] = IndexKind::LscCache.parse_value("ca.wb").unwrap();
    }
    assert_eq!(
        check(&dg2(), &c2),
        Err("docs/hardware/lsc-messages.md §13.7: atomics need L1 uncached (.uc) or default caching (.df.df), found .ca.wb".into())
    );
    for cache in ["uc.uc", "uc.wb"] {
        if let ir::InstKind::Intrinsic(x) = &mut c2.func.inst_mut(i).kind {
            x.indices[pos] = IndexKind::LscCache.parse_value(cache).unwrap();
        }
        for p in [dg2(), pvc(), lnl()] {
            assert_eq!(check(&p, &c2), Ok(()), "{cache} {}", p.name);
        }
    }
}

#[test]
fn cache_pairs_that_do_not_encode() {
    // A store-only pair on a load, a load-only pair on a store.
    let c = ugm_load("ugm", "d32", |mut f| {
        f.cache = "uc.wb";
        f
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.7: .uc.wb has no 3-bit cache-control encoding for loads on dg2 (§9)".into()
        )
    );
    // Xe2's constant-cached loads do not exist before Xe2.
    let c = ugm_load("ugm", "d32", |mut f| {
        f.cache = "uc.cc";
        f
    });
    assert_eq!(
        check(&pvc(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.7: .uc.cc has no 3-bit cache-control encoding for loads on pvc (§9)".into()
        )
    );
    assert_eq!(check(&lnl(), &c), Ok(()));
    let c = ugm_load("ugm", "d32", |mut f| {
        f.cache = "wb.wb";
        f
    });
    assert_eq!(
        check(&lnl(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.7: .wb.wb has no 4-bit cache-control encoding for loads on lnl (§9)".into()
        )
    );
    let c = untyped_atomic("ugm", "iadd", "d32");
    let mut c2 = c;
    let pos = IntrinsicOp::LscAtomic
        .index_position(IndexKind::LscCache)
        .unwrap();
    let i = c2.inst;
    if let ir::InstKind::Intrinsic(x) = &mut c2.func.inst_mut(i).kind {
        x.indices[pos] = IndexKind::LscCache.parse_value("uc.ca").unwrap();
    }
    assert_eq!(
        check(&lnl(), &c2),
        Err(
            "docs/hardware/lsc-messages.md §13.7: .uc.ca has no 4-bit cache-control encoding for atomics on lnl (§9)"
                .into()
        )
    );
}

#[test]
fn cache_encodings_follow_the_tables() {
    // docs/hardware/lsc-messages.md §9, column by column; Xe2 doubles the values and adds three loads.
    let load = [
        ("df.df", 0),
        ("uc.uc", 1),
        ("uc.ca", 2),
        ("ca.uc", 3),
        ("ca.ca", 4),
        ("st.uc", 5),
        ("st.ca", 6),
        ("ri.ca", 7),
    ];
    let store = [
        ("df.df", 0),
        ("uc.uc", 1),
        ("uc.wb", 2),
        ("wt.uc", 3),
        ("wt.wb", 4),
        ("st.uc", 5),
        ("st.wb", 6),
        ("wb.wb", 7),
    ];
    for (class, table) in [(OpClass::Load, &load), (OpClass::Store, &store)] {
        for &(c, v) in table.iter() {
            let cc = CacheControl::parse(c).unwrap();
            assert_eq!(cache_encoding(&dg2(), class, cc), Some(v), "{c}");
            assert_eq!(cache_encoding(&lnl(), class, cc), Some(v * 2), "{c}");
        }
    }
    // Mesa's Xe2 load values: 0, 2, 4, 5, 6, 8, 9, 10, 12, 14.
    let mut xe2_loads: Vec<u32> = [
        "df.df", "uc.uc", "uc.ca", "uc.cc", "ca.uc", "ca.ca", "ca.cc", "st.uc", "st.ca", "ri.ca",
        "ri.ri",
    ]
    .iter()
    .map(|c| cache_encoding(&lnl(), OpClass::Load, CacheControl::parse(c).unwrap()).unwrap())
    .collect();
    xe2_loads.sort();
    xe2_loads.dedup();
    assert_eq!(xe2_loads, [0, 2, 4, 5, 6, 8, 9, 10, 12, 14]);
    assert_eq!(
        cache_encoding(&dg2(), OpClass::Load, CacheControl::parse("ri.ri").unwrap()),
        None
    );
}

// ----- §13.10, §13.11 ------------------------------------------------------------------

#[test]
fn data_payload_limit() {
    // d64x4 at SIMD16, 32-byte GRFs: 4 components × 4 registers.
    let c = ugm_load("ugm", "d64x4", |f| f);
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.10: the data payload takes 16 registers at SIMD16 on dg2, the limit is 8"
                .into()
        )
    );
    // d32x8 at SIMD32, 64-byte GRFs: 8 × 2.
    let c = ugm_load("ugm", "d32x8", |f| f);
    assert_eq!(
        check(&lnl(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.10: the data payload takes 16 registers at SIMD32 on lnl, the limit is 8"
                .into()
        )
    );
    // Transposed d64x64 = 512 bytes: 16 registers of 32 bytes, 8 of 64.
    let c = message(
        IntrinsicOp::LscStore,
        None,
        |v| vec![v.u64.into(), v.d64.into()],
        fields("ugm", "flat", "a64", "d64x64t"),
        None,
    );
    let err = check(&dg2(), &c).unwrap_err();
    assert_eq!(
        err,
        "docs/hardware/lsc-messages.md §13.10: the data payload takes 16 registers at SIMD1 on dg2, the limit is 8"
    );
    // d32x4 fills exactly 8 registers on every platform.
    for p in [dg2(), pvc(), lnl()] {
        assert_eq!(
            check(&p, &ugm_load("ugm", "d32x4", |f| f)),
            Ok(()),
            "{}",
            p.name
        );
    }
}

#[test]
fn typed_exec_size_above_platform_maximum() {
    let mut p = dg2();
    p.typed_simd = 16;
    assert_eq!(
        check(&p, &typed_load("d32.xyzw", "a32", "bti")),
        Err(
            "docs/hardware/lsc-messages.md §13.11: typed messages on dg2 are at most SIMD8, the device asks for SIMD16"
                .into()
        )
    );
    let mut p = pvc();
    p.typed_simd = 32;
    assert_eq!(
        check(&p, &typed_load("d32.x", "a32", "bti")),
        Err(
            "docs/hardware/lsc-messages.md §13.11: typed messages on pvc are at most SIMD16, the device asks for SIMD32"
                .into()
        )
    );
    let mut p = lnl();
    p.typed_simd = 32;
    assert_eq!(check(&p, &typed_load("d32.xyzw", "a32", "bti")), Ok(()));
}

// ----- §13.14 --------------------------------------------------------------------------

#[test]
fn typed_immediate_offset() {
    let c = build(|b, v| {
        let mut fl = fields("tgm", "bti", "a32", "d32.x");
        fl.offset = 16;
        emit(
            b,
            IntrinsicOp::LscLoadQuad,
            img0(),
            &v.quad(),
            fl,
            Some(Type::U32),
        )
    });
    assert_eq!(
        check(&lnl(), &c),
        Err(
            "docs/hardware/lsc-messages.md §13.14: typed messages take no immediate offset, found 16".into()
        )
    );
}

#[test]
fn typed_u_missing() {
    let c = build(|b, v| {
        let u = b.undef(Type::U32);
        emit(
            b,
            IntrinsicOp::LscLoadQuad,
            img0(),
            &[u.into(), v.u32.into(), v.u32.into(), v.u32.into()],
            fields("tgm", "bti", "a32", "d32.x"),
            Some(Type::U32),
        )
    });
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.14: typed messages need a U coordinate (V, R and LOD may be null)".into())
    );
    let c = build(|b, _| {
        emit(
            b,
            IntrinsicOp::LscLoadQuad,
            img0(),
            &[],
            fields("tgm", "bti", "a32", "d32.x"),
            Some(Type::U32),
        )
    });
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §13.14: typed messages need a U coordinate (V, R and LOD may be null)".into())
    );
}

// ----- §5: surfaces, address registers, offsets ---------------------------------------

#[test]
fn surfaces() {
    let c = message(
        IntrinsicOp::LscLoad,
        None,
        |v| vec![v.u32.into()],
        fields("ugm", "bti", "a32", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §5: the bti address model needs a surface, but the message names no image"
                .into()
        )
    );
    let c = message(
        IntrinsicOp::LscLoad,
        img0(),
        |v| vec![v.u64.into()],
        fields("ugm", "flat", "a64", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("docs/hardware/lsc-messages.md §5: flat messages take no surface, but the message names an image".into())
    );
    let c = typed_load("d32.x", "a32", "bti");
    assert_eq!(
        check_images(&dg2(), &[image(256, None)], &c),
        Err(
            "docs/hardware/lsc-messages.md §5: binding-table indices are 8 bits, the message reaches 256"
                .into()
        )
    );
    // An array of 8 at binding 250 reaches 257 once indexed.
    let c = build(|b, v| {
        let r = ImageRef {
            image: ImageId::from_u32(0),
            index: Some(v.u32.into()),
        };
        emit(
            b,
            IntrinsicOp::LscLoadQuad,
            Some(r),
            &v.quad(),
            fields("tgm", "bti", "a32", "d32.x"),
            Some(Type::U32),
        )
    });
    assert_eq!(
        check_images(&dg2(), &[image(250, Some(8))], &c),
        Err(
            "docs/hardware/lsc-messages.md §5: binding-table indices are 8 bits, the message reaches 257"
                .into()
        )
    );
    assert_eq!(check_images(&dg2(), &[image(248, Some(8))], &c), Ok(()));
}

#[test]
fn address_register_size() {
    let c = ugm_load("ugm", "d32", |mut f| {
        f.size = "a32";
        f
    });
    assert_eq!(check(&dg2(), &c), Ok(()));
    let c = message(
        IntrinsicOp::LscLoad,
        None,
        |v| vec![v.u32.into()],
        fields("ugm", "flat", "a64", "d32"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §5: :a64 addresses need a 64-bit address register, found 32-bit"
                .into()
        )
    );
}

#[test]
fn slm_a16_offset_range() {
    let c = build(|b, v| {
        let a16 = b.u2u16(v.u32);
        let mut fl = fields("slm", "flat", "a16", "d32");
        fl.offset = 0x8000;
        emit(
            b,
            IntrinsicOp::LscLoad,
            None,
            &[a16.into()],
            fl,
            Some(Type::U32),
        )
    });
    assert_eq!(
        check(&dg2(), &c),
        Err(
            "docs/hardware/lsc-messages.md §5: an :a16 immediate offset must fit in ±0x7FFF, found 32768"
                .into()
        )
    );
}

#[test]
fn operand_types_and_counts() {
    let c = message(
        IntrinsicOp::LscLoad,
        None,
        |v| vec![v.u64.into()],
        fields("ugm", "flat", "a64", "d32x4"),
        Some(Type::U32),
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("the dest operand must be 32x4 for this message, found 32".into())
    );
    let c = message(
        IntrinsicOp::LscStore,
        None,
        |v| vec![v.u64.into()],
        fields("ugm", "flat", "a64", "d32"),
        None,
    );
    assert_eq!(
        check(&dg2(), &c),
        Err("the message takes 2 sources (plus an optional 1-bit predicate), found 1".into())
    );
    // A trailing 1-bit source is a predicate.
    let c = message(
        IntrinsicOp::LscStore,
        None,
        |v| vec![v.u64.into(), v.u32.into(), v.pred.into()],
        fields("ugm", "flat", "a64", "d32"),
        None,
    );
    assert_eq!(check(&dg2(), &c), Ok(()));
}

// ----- sampler ---------------------------------------------------------------------------

#[test]
fn sampler_needs_a_sampler() {
    let c = build(|b, v| {
        b.intrinsic(
            IntrinsicOp::SamplerLdLz,
            img0(),
            &[v.u32.into(), v.u32.into(), v.u32.into()],
            &[
                IndexKind::Channels.parse_value("rgba").unwrap(),
                ir::AluType::parse("float32").unwrap().to_index(),
            ],
            Some(Type::vec32(4)),
        );
        last_inst(b)
    });
    assert_eq!(
        check(&pvc(), &c),
        Err("pvc has no 3D sampler (IGC Platform.hpp hasSamplerSupport)".into())
    );
    assert_eq!(check(&dg2(), &c), Ok(()));
    assert_eq!(check(&lnl(), &c), Ok(()));
    assert_eq!(check(&tgl(), &c), Ok(()));
}

// ----- platforms without LSC, errors, descriptors -----------------------------------------

#[test]
fn pre_lsc_messages_are_legal_ir() {
    // The LSC-shaped form the lowering describes accesses with: on a platform without
    // LSC only platform-independent rules apply to it.
    assert_eq!(
        check_fields(&tgl(), &typed_load("d32.xyzw", "a32", "bti")),
        Ok(())
    );
    assert_eq!(
        check_fields(&tgl(), &ugm_load("ugm", "d64x4", |f| f)),
        Ok(())
    );
    assert_eq!(
        check_fields(&tgl(), &typed_store("d32.xz")),
        Err("docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found .xz".into())
    );
    // As a message of the final IR it is not the platform's: the legacy data port's are.
    assert_eq!(
        check(&tgl(), &typed_load("d32.xyzw", "a32", "bti")),
        Err("tgl (verx10 120) has no LSC messages (DG2, verx10 125, is the first); its messages are the legacy data port's, which the lowering rewrites LSC-shaped messages into".into())
    );
}

#[test]
fn error_names_instruction_and_position() {
    let mut c = typed_store("d32.xz");
    c.func.set_inst_span(c.inst, Span::new(7, 5));
    let e = check_message(&dg2(), &[image(1, None)], &c.func, c.inst).unwrap_err();
    assert_eq!(
        e.to_string(),
        "7:5: `@lsc_store_quad`: docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found .xz"
    );
    let c = typed_load("d32.xyzw", "a64", "bti");
    let e = check_message(&dg2(), &[image(1, None)], &c.func, c.inst).unwrap_err();
    let dest = c.func.value_name(c.func.inst(c.inst).dest.unwrap());
    assert_eq!(
        e.to_string(),
        format!("<unknown>: `{dest} = @lsc_load_quad`: docs/hardware/lsc-messages.md §13.1: .tgm messages take :a32 addresses, found :a64")
    );
    // It is a std error.
    let _: &dyn std::error::Error = &e;
}

#[test]
fn error_quotes_the_value_as_the_text_writes_it() {
    // The function numbers its values densely (`%16777215` is its second value); the
    // message names the value as the text does.
    let shader = ir::parse_shader(
        "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=1)

fn main {
  block b4194303:
    32   %16777000 = load_const (0x00000000)
    32x4 %16777215 = @lsc_load_quad (@img, %16777000, %16777000, %16777000, %16777000) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a64, lsc_data=d32.xyzw)
}
",
    )
    .unwrap();
    let f = &shader.functions[0];
    let v = f.value_named(16_777_215).unwrap();
    assert_eq!(v, Value::from_u32(1));
    let inst = f.value_def(v).unwrap();
    let e = check_message(&dg2(), &shader.images, f, inst).unwrap_err();
    assert_eq!(
        e.to_string(),
        "7:5: `%16777215 = @lsc_load_quad`: docs/hardware/lsc-messages.md §13.1: .tgm messages take :a32 addresses, found :a64"
    );
}

#[test]
fn non_messages_pass() {
    let c = build(|b, v| {
        b.iadd(v.u32, v.u32);
        last_inst(b)
    });
    assert_eq!(check(&dg2(), &c), Ok(()));
}

#[test]
fn descriptors() {
    let decode = |c: &Case| LscMessage::decode(&c.func, c.inst).unwrap().unwrap();

    // lsc_load.ugm (M1, 16) d32x4 bti a32 on DG2: opcode 0, a32 (2) << 7, d32 (2) << 9,
    // x4 (3) << 12, dst 4 × ceil(64/32) = 8 << 20, src0 ceil(64/32) = 2 << 25, bti 3 << 29.
    let c = message(
        IntrinsicOp::LscLoad,
        img0(),
        |v| vec![v.u32.into()],
        fields("ugm", "bti", "a32", "d32x4"),
        Some(Type::vec32(4)),
    );
    let m = decode(&c);
    assert_eq!(m.op, LscOp::Load);
    let want = (2 << 7) | (2 << 9) | (3 << 12) | (8 << 20) | (2 << 25) | (3 << 29);
    assert_eq!(want, 0x6480_3500);
    assert_eq!(message_descriptor(&dg2(), &m, true, 1), Ok(want));

    // Typed load_quad .xyzw at SIMD8 on DG2 with U and V: opcode 2, a32, d32, mask 0xF
    // << 12, dst 4 × 1 = 4 << 20, src0 2 × 1 << 25, bti.
    let c = typed_load("d32.xyzw", "a32", "bti");
    let want = 2 | (2 << 7) | (2 << 9) | (0xf << 12) | (4 << 20) | (2 << 25) | (3 << 29);
    assert_eq!(message_descriptor(&dg2(), &decode(&c), true, 2), Ok(want));

    // Typed atomic iadd, .uc.wb on LNL (4-bit field, 2 << 1 = 4 at bit 16), SIMD16,
    // 64-byte GRFs: dst 1 << 20, src0 4 coordinates × 1 << 25.
    let c = typed_atomic("iadd", |mut f| {
        f.cache = "uc.wb";
        f
    });
    let want = 0x0c | (2 << 7) | (2 << 9) | (4 << 16) | (1 << 20) | (4 << 25) | (3 << 29);
    assert_eq!(message_descriptor(&lnl(), &decode(&c), true, 4), Ok(want));
    // The same pair before Xe2 does not encode on TGM.
    assert!(message_descriptor(&dg2(), &decode(&c), true, 4).is_err());

    // Transposed flat d32x16t a64 on PVC: vector code 5, transpose bit 15, dst
    // ceil(64/64) = 1, src0 ceil(8/64) = 1, flat (0), ca.ca load = 4 << 17.
    let c = ugm_load("ugm", "d32x16t", |mut f| {
        f.cache = "ca.ca";
        f
    });
    let want = (3 << 7) | (2 << 9) | (5 << 12) | (1 << 15) | (4 << 17) | (1 << 20) | (1 << 25);
    assert_eq!(message_descriptor(&pvc(), &decode(&c), true, 1), Ok(want));

    // A store has no destination: SLM d32x2 a32 SIMD32 on LNL, opcode 4, src0 2.
    let c = build(|b, v| {
        let d = b.vec(&[v.u32.into(), v.u32.into()]);
        emit(
            b,
            IntrinsicOp::LscStore,
            None,
            &[v.u32.into(), d.into()],
            fields("slm", "flat", "a32", "d32x2"),
            None,
        )
    });
    let want = 4 | (2 << 7) | (2 << 9) | (1 << 12) | (2 << 25);
    assert_eq!(message_descriptor(&lnl(), &decode(&c), false, 1), Ok(want));

    // No descriptor without LSC.
    assert_eq!(
        message_descriptor(&tgl(), &decode(&c), false, 1).unwrap_err().to_string(),
        "tgl (verx10 120) has no LSC messages (DG2, verx10 125, is the first); its messages are the legacy data port's, which the lowering rewrites LSC-shaped messages into"
    );
}

#[test]
fn legal_messages_on_each_platform_class() {
    for p in [dg2(), pvc(), lnl()] {
        let cases = [
            typed_load("d32.xyzw", "a32", "bti"),
            typed_load("d32.x", "a32", "bti"),
            typed_store("d32.xyzw"),
            typed_atomic("iadd", |f| f),
            typed_atomic("icas", |f| f),
            typed_atomic("iinc", |f| f),
            ugm_load("ugm", "d32", |f| f),
            ugm_load("ugm", "d32x64t", |f| f),
            ugm_load("ugm", "d8u32", |f| f),
            ugm_load("ugm", "d16x16t", |f| f),
            untyped_atomic("ugm", "iadd", "d32"),
            untyped_atomic("slm", "xor", "d32"),
            untyped_atomic("ugml", "umin", "d64"),
        ];
        for (i, c) in cases.iter().enumerate() {
            assert_eq!(check(&p, c), Ok(()), "case {i} on {}", p.name);
        }
    }
}

#[test]
fn check_function_reports_every_error() {
    let text = "\
shader compute (local_size=16,1,1)
image @img : 2d r32_uint (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000000)
    32x2 %2 = @lsc_load_quad (@img, %0.x, %0.y, %1, %1) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xz)
    @lsc_store_quad (@img, %0.x, %0.y, %1, %1, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xz)
    32   %3 = @lsc_atomic (@img, %0.x, %0.y, %1, %1, %1) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=fadd)
}
";
    let s = ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    let f = &s.functions[0];
    let errors = lowering::messages::check_function(&dg2(), &s.images, f).unwrap_err();
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        text,
        [
            "9:5: `@lsc_store_quad`: docs/hardware/lsc-messages.md §13.2: store_quad channel mask must be contiguous (.x, .xy, .xyz, .xyzw), found .xz",
            "10:5: `%3 = @lsc_atomic`: docs/hardware/lsc-messages.md §13.6: lsc_atomic_fadd on .tgm needs Xe2 (verx10 200) or later, dg2 has none",
        ]
    );
    // The store is illegal everywhere, the float add only before Xe2.
    let errors = lowering::messages::check_function(&lnl(), &s.images, f);
    assert_eq!(errors.map_err(|e| e.len()), Err(1));
}
