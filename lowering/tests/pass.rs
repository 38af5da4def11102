//! The `lower-images` pass on text shaders: every format on every platform, atomics,
//! sizes, errors, and the pass's contract (valid output, values keep their ids, an
//! error leaves the shader untouched).

mod genx;

use ir::passes::Pass;
use ir::{parse_shader, print_shader, Format, IntrinsicOp, Shader};
use lowering::{
    lower_images, lower_images_all, Device, LowerError, LowerErrorKind, LowerImages, LowerOptions,
    LowerReport, StorageAccess, SurfaceFormat,
};

fn dev(name: &str) -> Device {
    Device::preset(name).unwrap()
}

fn parse(text: &str) -> Shader {
    let sh = parse_unvalidated(text);
    ir::validate::validate(&sh).unwrap_or_else(|e| panic!("input invalid: {e:?}\n{text}"));
    sh
}

/// For inputs the validator rejects but the pass must still refuse cleanly.
fn parse_unvalidated(text: &str) -> Shader {
    parse_shader(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// Parses, lowers for `device`, checks the result validates and holds no image
/// intrinsic; returns the report and the printed result.
fn lower_ok(text: &str, device: &str) -> (LowerReport, String) {
    let mut sh = parse(text);
    let r = lower_images(&mut sh, &dev(device), &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let out = print_shader(&sh);
    if let Err(e) = ir::validate::validate(&sh) {
        panic!("lowered shader invalid on {device}: {e:?}\n{out}");
    }
    for f in &sh.functions {
        assert_eq!(ir::stats::Stats::of_function(f).image, 0, "{out}");
        if let Err(e) = lowering::messages::check_function(&dev(device), &sh.images, f) {
            let msgs: Vec<String> = e.iter().map(|m| m.to_string()).collect();
            panic!("illegal messages on {device}: {msgs:#?}\n{out}");
        }
    }
    // The result becomes a vISA kernel IGC's GenX_IR compiles, and so does the shader
    // lowered for each generation of the legacy data port.
    genx::compiles(&sh, &dev(device), text);
    genx::compiles_on_legacy_platforms(&parse(text), text);
    (r, out)
}

fn lower_err(text: &str, device: &str, options: LowerOptions) -> LowerError {
    let mut sh = parse_unvalidated(text);
    let before = sh.clone();
    let e = lower_images(&mut sh, &dev(device), &options).expect_err("lowering should fail");
    assert_eq!(
        sh, before,
        "a failed lowering must leave the shader untouched"
    );
    e
}

fn one_access(decl: &str, body: &str) -> String {
    format!(
        "shader compute (local_size=8,8,1)\n{decl}\n\nfn main {{\n  block b0:\n    \
         32x3 %0 = @load_global_invocation_id\n    32x2 %1 = mov %0.xy\n{body}}}\n"
    )
}

fn data_type(f: Format) -> &'static str {
    match (f.data_base_type(), f.data_bit_size()) {
        (Some(ir::BaseType::Uint), 64) => "uint64",
        (Some(ir::BaseType::Int), 64) => "int64",
        (Some(ir::BaseType::Uint), _) => "uint32",
        (Some(ir::BaseType::Int), _) => "int32",
        _ => "float32",
    }
}

#[test]
fn every_format_on_every_platform() {
    for d in Device::presets() {
        for &fmt in Format::ALL {
            let bits = fmt.data_bit_size();
            let t = data_type(fmt);
            let text = one_access(
                &format!("image @img : 2d {fmt} (binding=0)"),
                &format!(
                    "    {bits}x4 %2 = @image_load (@img, %1) (dest_type={t})\n    \
                     @image_store (@img, %1, %2) (src_type={t})\n"
                ),
            );
            let what = format!("{fmt} on {}", d.name);
            match lowering::storage_access(&d, fmt) {
                Ok(StorageAccess::Typed(lower)) => {
                    let (r, out) = lower_ok(&text, &d.name);
                    assert_eq!((r.typed_loads, r.typed_stores), (1, 1), "{what}");
                    assert_eq!(r.bindings[0].surface, SurfaceFormat::Typed(lower), "{what}");
                    let mask = ["x", "xy", "xyz", "xyzw"][lower.num_channels() as usize - 1];
                    // LSC typed messages, or the legacy typed read and write.
                    let field = if d.has_lsc {
                        format!("lsc_data=d32.{mask})")
                    } else {
                        format!("(dp_cmask={mask})")
                    };
                    assert_eq!(out.matches(&field).count(), 2, "{what}\n{out}");
                }
                Ok(StorageAccess::Raw(_)) => {
                    let (r, out) = lower_ok(&text, &d.name);
                    assert_eq!((r.untyped_loads, r.untyped_stores), (1, 1), "{what}");
                    assert_eq!(r.bindings[0].surface, SurfaceFormat::Raw, "{what}");
                    let field = if d.has_lsc {
                        "lsc_sfid=ugm"
                    } else {
                        "dp_addr=bti"
                    };
                    assert_eq!(out.matches(field).count(), 2, "{what}\n{out}");
                }
                Err(_) => {
                    let e = lower_err(&text, &d.name, LowerOptions::default());
                    assert!(
                        matches!(e.kind, LowerErrorKind::UnsupportedFormat(..)),
                        "{what}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_dimension_lowers_and_validates() {
    let dims = [
        ("1d", "32", "%0.x"),
        ("1d array", "32x2", "%1"),
        ("2d", "32x2", "%1"),
        ("2d array", "32x3", "%0"),
        ("3d", "32x3", "%0"),
        ("cube", "32x3", "%0"),
        ("cube array", "32x3", "%0"),
        ("buffer", "32", "%0.x"),
    ];
    for (dim, _, coord) in dims {
        let text = one_access(
            &format!(
                "image @img : {dim} rgba16_float (binding=0)\n\
                 image @cnt : {dim} r32_uint (binding=1)"
            ),
            &format!(
                "    32x4 %2 = @image_load (@img, {coord}) (dest_type=float32)\n    \
                 @image_store (@img, {coord}, %2) (src_type=float32)\n    \
                 32 %3 = @image_atomic (@cnt, {coord}, %0.x) (atomic_op=iadd)\n"
            ),
        );
        for d in ["hsw", "skl", "dg2", "bmg"] {
            let (r, out) = lower_ok(&text, d);
            assert_eq!(r.typed_atomics, 1, "{dim} on {d}");
            let read = if dev(d).has_lsc {
                "lsc_load_quad"
            } else {
                "dp_typed_read"
            };
            assert!(out.contains(read), "{dim}");
        }
    }
}

#[test]
fn values_keep_their_ids() {
    let text = one_access(
        "image @img : 2d rgba8_snorm (binding=0)",
        "    32x4 %2 = @image_load (@img, %1) (dest_type=float32)\n    \
         32 %3 = fadd %2.x, %2.w\n",
    );
    let (_, out) = lower_ok(&text, "ivb");
    assert!(out.contains("32x4 %2 = fmax"), "{out}");
    assert!(out.contains("32   %3 = fadd %2.x, %2.w"), "{out}");
}

#[test]
fn shared_zero_dominates_uses_in_control_flow() {
    let text = "shader compute (local_size=8,8,1)
image @img : 2d r32_float (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    1    %2 = ieq %0.x, %0.y
  if %2 {
    block b1:
      32 %3 = @image_load (@img, %1) (dest_type=float32)
  } else {
    block b2:
  }
  block b3:
  loop {
    block b4:
      32 %4 = @image_load (@img, %0.zy) (dest_type=float32)
      break
  }
  block b5:
}
";
    let (r, out) = lower_ok(text, "dg2");
    assert_eq!(r.typed_loads, 2);
    assert_eq!(out.matches("load_const (0x00000000)").count(), 1, "{out}");
}

#[test]
fn image_arrays_keep_their_index() {
    let text = "shader compute (local_size=8,8,1)
image @imgs[4] : 2d r32_uint (binding=4)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32 %2 = @image_load (@imgs[%0.z], %1) (dest_type=uint32)
    32 %3 = @image_atomic (@imgs[%0.z], %1, %2) (atomic_op=umax)
    32x2 %4 = @image_size (@imgs[%0.z])
}
";
    let (_, out) = lower_ok(text, "ivb");
    assert!(
        out.contains("@dp_typed_read (@imgs[%0.z], %1.x, %1.y,"),
        "{out}"
    );
    assert!(out.contains("@dp_typed_atomic (@imgs[%0.z],"), "{out}");
    assert!(
        out.contains("@image_load_param (@imgs[%0.z]) (base=1)"),
        "{out}"
    );
}

#[test]
fn several_functions() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn helper {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32 %1 = @image_load (@img, %0.xy) (dest_type=uint32)
}
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    @image_store (@img, %0.xy, %0.z) (src_type=uint32)
}
";
    let (r, _) = lower_ok(text, "tgl");
    assert_eq!((r.typed_loads, r.typed_stores), (1, 1));
}

// ----- atomics ---------------------------------------------------------------------------

fn atomic_text(fmt: &str, op: &str, data: &str) -> String {
    let t = if fmt.ends_with("float") {
        "float"
    } else {
        "int"
    };
    let _ = t;
    if op.contains("cmpxchg") {
        one_access(
            &format!("image @img : 2d {fmt} (binding=0)"),
            &format!("    32 %2 = @image_atomic_swap (@img, %1, {data}, %0.z) (atomic_op={op})\n"),
        )
    } else {
        one_access(
            &format!("image @img : 2d {fmt} (binding=0)"),
            &format!("    32 %2 = @image_atomic (@img, %1, {data}) (atomic_op={op})\n"),
        )
    }
}

#[test]
fn atomic_ops_map_to_lsc() {
    // The LSC operation, and the legacy data port's (docs/hardware/dataport.md §5).
    let cases = [
        ("iadd", "r32_uint", "lsc_op=iadd", "dp_op=add"),
        ("imin", "r32_sint", "lsc_op=smin", "dp_op=imin"),
        ("imax", "r32_sint", "lsc_op=smax", "dp_op=imax"),
        ("umin", "r32_uint", "lsc_op=umin", "dp_op=umin"),
        ("umax", "r32_uint", "lsc_op=umax", "dp_op=umax"),
        ("iand", "r32_uint", "lsc_op=and", "dp_op=and"),
        ("ior", "r32_uint", "lsc_op=or", "dp_op=or"),
        ("ixor", "r32_uint", "lsc_op=xor", "dp_op=xor"),
        ("xchg", "r32_uint", "lsc_op=store", "dp_op=mov"),
        ("xchg", "r32_float", "lsc_op=store", "dp_op=mov"),
        ("cmpxchg", "r32_sint", "lsc_op=icas", "dp_op=cmpwr"),
    ];
    for d in Device::presets() {
        for (op, fmt, lsc, dp) in cases {
            let (r, out) = lower_ok(&atomic_text(fmt, op, "%0.x"), &d.name);
            let (want, width) = if d.has_lsc {
                (lsc, "lsc_data=d32")
            } else {
                (dp, "dp_bits=32")
            };
            assert!(out.contains(want), "{op} on {} {out}", d.name);
            assert!(out.contains(width), "{out}");
            assert_eq!(
                r.guarded_atomics,
                usize::from(d.verx10() < 75),
                "{}",
                d.name
            );
            if d.tgm_cache_control {
                assert!(out.contains("lsc_cache=uc.wb"), "{out}");
            } else {
                assert!(!out.contains("lsc_cache"), "{out}");
            }
        }
    }
}

#[test]
fn iadd_of_constants_becomes_inc_and_dec() {
    for (c, want) in [("1", "iinc"), ("-1", "idec"), ("2", "iadd")] {
        let text = one_access(
            "image @img : 2d r32_uint (binding=0)",
            &format!(
                "    32 %2 = load_const ({c})\n    32 %3 = @image_atomic (@img, %1, %2) (atomic_op=iadd)\n"
            ),
        );
        let (_, out) = lower_ok(&text, "dg2");
        assert!(out.contains(&format!("lsc_op={want})")), "{out}");
        if want != "iadd" {
            // No data operand: the four coordinates only.
            assert!(
                out.contains("(@img, %1.x, %1.y, %4, %4) (lsc_sfid=tgm"),
                "{out}"
            );
        }
    }
}

#[test]
fn cmpxchg_sends_compare_then_new_value() {
    let text = atomic_text("r32_uint", "cmpxchg", "%0.x");
    let (_, out) = lower_ok(&text, "dg2");
    // image_atomic_swap (img, coord, compare = %0.x, data = %0.z)
    assert!(out.contains(", %0.x, %0.z) (lsc_sfid=tgm"), "{out}");
}

#[test]
fn ivb_atomics_are_guarded_by_the_image_size() {
    let (r, out) = lower_ok(&atomic_text("r32_uint", "iadd", "%0.x"), "byt");
    assert_eq!(r.guarded_atomics, 1);
    assert!(out.contains("@image_load_param (@img) (base=1)"), "{out}");
    assert!(out.contains(" if %"), "{out}");
    assert!(out.contains("32   %2 = bcsel"), "{out}");
}

#[test]
fn r16_atomics_from_gfx12() {
    let text = atomic_text("r16_uint", "umax", "%0.x");
    let (_, out) = lower_ok(&text, "tgl");
    assert!(out.contains("(dp_op=umax, dp_bits=16)"), "{out}");
    let e = lower_err(&text, "icl", LowerOptions::default());
    assert!(matches!(
        e.kind,
        LowerErrorKind::AtomicFormatUnsupported { .. }
    ));
}

/// `out` emulates the float atomic `op` as a compare-and-swap loop on `d`: a read of the
/// texel, then a loop around the integer exchange, and no float atomic message.
fn assert_cas_loop(out: &str, d: &Device, op: &str) {
    let (read, exchange) = if d.has_lsc {
        ("@lsc_load_quad", "lsc_op=icas")
    } else {
        ("@dp_typed_read", "dp_op=cmpwr")
    };
    let at = |s: &str| {
        out.find(s)
            .unwrap_or_else(|| panic!("{op} {}: no {s}: {out}", d.name))
    };
    assert!(
        at(read) < at("loop {") && at("loop {") < at(exchange),
        "{op} {}: {out}",
        d.name
    );
    assert!(!out.contains(&format!("op={op}")), "{op} {}: {out}", d.name);
}

#[test]
fn float_atomics_per_platform() {
    let ops = [
        ("fadd", "lsc_op=fadd"),
        ("fmin", "lsc_op=fmin"),
        ("fmax", "lsc_op=fmax"),
    ];
    for d in Device::presets() {
        for (op, want) in ops {
            let text = atomic_text("r32_float", op, "%0.x");
            let ok = match op {
                "fadd" => d.image_float_atomic_add,
                _ => d.image_float_atomic_min_max,
            };
            let (_, out) = lower_ok(&text, &d.name);
            if ok {
                assert!(out.contains(want), "{out}");
            } else {
                assert_cas_loop(&out, &d, op);
            }
        }
        let text = atomic_text("r32_float", "fcmpxchg", "%0.x");
        let (_, out) = lower_ok(&text, &d.name);
        if d.image_float_atomic_cmpxchg {
            assert!(out.contains("lsc_op=fcas"), "{out}");
        } else {
            assert_cas_loop(&out, &d, "fcmpxchg");
        }
    }
    // A float atomic on a 16-bit texel has no loop: its load converts the texel.
    let e = lower_err(
        &atomic_text("r16_float", "fadd", "%0.x"),
        "dg2",
        LowerOptions::default(),
    );
    assert!(matches!(
        e.kind,
        LowerErrorKind::FloatAtomicUnsupported { .. }
    ));
    assert!(dev("bmg").image_float_atomic_add && !dev("dg2").image_float_atomic_add);
}

#[test]
fn atomic_type_mismatches() {
    let e = lower_err(
        &atomic_text("r32_float", "iadd", "%0.x"),
        "dg2",
        LowerOptions::default(),
    );
    assert!(matches!(e.kind, LowerErrorKind::AtomicTypeMismatch { .. }));
    let e = lower_err(
        &atomic_text("r32_uint", "fmax", "%0.x"),
        "dg2",
        LowerOptions::default(),
    );
    assert!(matches!(e.kind, LowerErrorKind::AtomicTypeMismatch { .. }));
    let e = lower_err(
        &atomic_text("rgba8_uint", "iadd", "%0.x"),
        "dg2",
        LowerOptions::default(),
    );
    assert!(matches!(
        e.kind,
        LowerErrorKind::AtomicFormatUnsupported { .. }
    ));
}

#[test]
fn wrap_atomics_have_no_lsc_operation() {
    for op in ["inc_wrap", "dec_wrap"] {
        let e = lower_err(
            &atomic_text("r32_uint", op, "%0.x"),
            "dg2",
            LowerOptions::default(),
        );
        assert!(matches!(e.kind, LowerErrorKind::AtomicOpUnmapped { .. }));
        assert!(e.to_string().contains(op), "{e}");
    }
}

#[test]
fn int64_atomics() {
    let text = "shader compute (local_size=8,8,1)
image @img : 2d r64_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    64 %1 = load_const (5)
    64 %2 = @image_atomic (@img, %0.xy, %1) (atomic_op=iadd)
}
";
    let (r, out) = lower_ok(text, "skl");
    assert_eq!((r.untyped_atomics, r.a64_accesses), (1, 1));
    assert!(
        out.contains("(dp_addr=a64, dp_op=add, dp_bits=64)"),
        "{out}"
    );
    let (_, out) = lower_ok(text, "dg2");
    assert!(
        out.contains("lsc_addr=flat, lsc_addr_size=a64, lsc_data=d64"),
        "{out}"
    );
    let e = lower_err(text, "bdw", LowerOptions::default());
    assert_eq!(e.kind, LowerErrorKind::Int64AtomicUnsupported);
}

// ----- image_size / image_samples ----------------------------------------------------------

#[test]
fn sizes_come_from_the_parameter_block() {
    let cases = [
        ("2d", "32x2", "vec2 %3.x, %3.y"),
        ("1d array", "32x2", "vec2 %3.x, %3.y"),
        ("3d", "32x3", "vec3 %3.x, %3.y, %3.z"),
        ("cube", "32x3", "udiv %3.z, %4"),
        ("cube array", "32x3", "udiv %3.z, %4"),
        ("buffer", "32", "mov %3.x"),
    ];
    for (dim, ty, want) in cases {
        let text = one_access(
            &format!("image @img : {dim} r32_uint (binding=0)"),
            &format!("    {ty} %2 = @image_size (@img)\n"),
        );
        let (r, out) = lower_ok(&text, "dg2");
        assert_eq!(r.sizes, 1);
        assert!(
            out.contains("32x3 %3 = @image_load_param (@img) (base=1)"),
            "{out}"
        );
        assert!(out.contains(want), "{dim}: {out}");
        if dim.starts_with("cube") {
            assert!(out.contains("load_const (0x00000006)"), "{out}");
        }
    }
    // Components past the coordinates are 1 (the validator asks for exactly the
    // coordinate count; the pass still handles wider results).
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32x3 %2 = @image_size (@img)\n",
    );
    let mut sh = parse_unvalidated(&text);
    lower_images(&mut sh, &dev("skl"), &LowerOptions::default()).unwrap();
    let out = print_shader(&sh);
    assert!(out.contains("load_const (0x00000001)"), "{out}");
    assert!(out.contains("32x3 %2 = vec3 %3.x, %3.y, %4"), "{out}");
}

#[test]
fn samples_is_one() {
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32 %2 = @image_samples (@img)\n",
    );
    let (r, out) = lower_ok(&text, "ivb");
    assert_eq!(r.samples, 1);
    assert!(out.contains("32   %2 = load_const (0x00000001)"), "{out}");
}

// ----- errors ------------------------------------------------------------------------------

#[test]
fn errors_name_instruction_position_format_and_platform() {
    let text = one_access(
        "image @img : 2d rgba32_float writeonly (binding=0)",
        "    32x4 %2 = @image_load (@img, %1) (dest_type=float32)\n",
    );
    let e = lower_err(&text, "hsw", LowerOptions::default());
    assert_eq!(e.kind, LowerErrorKind::WriteOnlyLoad);
    let s = e.to_string();
    assert!(
        s.starts_with("8:5: cannot lower @image_load of @img (rgba32_float) on hsw: "),
        "{s}"
    );
}

#[test]
fn writeonly_load_is_an_error() {
    let text = one_access(
        "image @img : 2d rgba8_unorm writeonly (binding=0)",
        "    32x4 %2 = @image_load (@img, %1) (dest_type=float32)\n",
    );
    let e = lower_err(&text, "dg2", LowerOptions::default());
    assert_eq!(e.kind, LowerErrorKind::WriteOnlyLoad);
}

#[test]
fn options() {
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32 %2 = @image_load (@img, %1) (dest_type=uint32)\n",
    );
    // readonly_via_sampler leaves loads of images that are not read-only alone.
    let o = LowerOptions {
        readonly_via_sampler: true,
        ..Default::default()
    };
    let mut sh = parse(&text);
    let r = lower_images(&mut sh, &dev("dg2"), &o).unwrap();
    assert_eq!((r.typed_loads, r.sampler_loads), (1, 0));
    let ro = text.replace("r32_uint (binding=0)", "r32_uint readonly (binding=0)");
    let mut sh = parse(&ro);
    let r = lower_images(&mut sh, &dev("dg2"), &o).unwrap();
    assert_eq!((r.typed_loads, r.sampler_loads), (0, 1));
    let o = LowerOptions {
        force_untyped: true,
        ..Default::default()
    };
    let mut sh = parse(&text);
    let r = lower_images(&mut sh, &dev("dg2"), &o).unwrap();
    assert_eq!((r.typed_loads, r.untyped_loads), (0, 1));
}

#[test]
fn all_errors_are_reported_and_the_pass_reports_diagnostics() {
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32 %2 = @image_atomic (@img, %1, %0.x) (atomic_op=inc_wrap)\n    \
         32 %3 = @image_atomic (@img, %1, %0.x) (atomic_op=dec_wrap)\n",
    );
    let mut sh = parse(&text);
    let errors = lower_images_all(&mut sh, &dev("dg2"), &Default::default()).unwrap_err();
    assert_eq!(errors.len(), 2);
    let mut pass = LowerImages::new(dev("dg2"));
    assert_eq!(pass.name(), "lower-images");
    let err = pass.run(&mut sh).unwrap_err();
    assert_eq!(err.pass, "lower-images");
    assert_eq!(err.diagnostics.len(), 2);
    assert_eq!(err.diagnostics[0].span, ir::Span::new(8, 5));
    assert!(err.diagnostics[1].message.contains("dec_wrap"));
}

#[test]
fn the_pass_is_idempotent() {
    let text = one_access(
        "image @img : 2d rgba8_unorm (binding=0)",
        "    32x4 %2 = @image_load (@img, %1) (dest_type=float32)\n    \
         32x2 %3 = @image_size (@img)\n",
    );
    let mut sh = parse(&text);
    let mut pass = LowerImages::new(dev("skl"));
    assert!(pass.run(&mut sh).unwrap());
    let once = print_shader(&sh);
    assert!(!pass.run(&mut sh).unwrap());
    assert_eq!(print_shader(&sh), once);
    assert_eq!(pass.report.unwrap().lowered(), 0);
    let f = &sh.functions[0];
    let quads = f
        .insts_in_order()
        .into_iter()
        .filter(|&i| {
            f.inst(i)
                .as_intrinsic()
                .is_some_and(|x| x.op == IntrinsicOp::DpTypedRead)
        })
        .count();
    assert_eq!(quads, 1);
}

#[test]
fn coherent_images_bypass_l1_from_xe2() {
    let text = one_access(
        "image @img : 2d r32_uint coherent (binding=0)",
        "    32 %2 = @image_load (@img, %1) (dest_type=uint32)\n    \
         @image_store (@img, %1, %2) (src_type=uint32)\n",
    );
    let (_, out) = lower_ok(&text, "lnl");
    assert!(out.contains("lsc_data=d32.x, lsc_cache=uc.ca)"), "{out}");
    assert!(out.contains("lsc_data=d32.x, lsc_cache=uc.wb)"), "{out}");
    // Before Xe2 TGM messages keep default caching.
    let (_, out) = lower_ok(&text, "dg2");
    assert!(!out.contains("lsc_cache"), "{out}");
}

#[test]
fn registered_in_a_pass_registry() {
    use ir::passes::{PassOptions, PassRegistry};
    let mut reg = PassRegistry::with_ir_passes();
    lowering::register_lower_images(&mut reg, dev("dg2"), LowerOptions::default());
    assert!(reg.contains("lower-images"));
    let text = one_access(
        "image @img : 2d r32_uint (binding=0)",
        "    32 %2 = @image_load (@img, %1) (dest_type=uint32)\n",
    );
    let mut pass = reg
        .create("lower-images", &PassOptions::none("lower-images"))
        .unwrap();
    let mut sh = parse(&text);
    assert!(pass.run(&mut sh).unwrap());
    // Options after the name reach the pass.
    let o = PassOptions::parse("lower-images", "force-untyped").unwrap();
    let mut pass = reg.create("lower-images", &o).unwrap();
    let mut sh = parse(&text);
    assert!(pass.run(&mut sh).unwrap());
    let out = print_shader(&sh);
    assert!(out.contains("@lsc_load (@img, "), "{out}");
    assert!(out.contains("lsc_sfid=ugm"), "{out}");
    let bad = PassOptions::parse("lower-images", "untyped-address=a32").unwrap();
    assert!(reg.create("lower-images", &bad).is_err());
    let bad = PassOptions::parse("lower-images", "fast").unwrap();
    assert!(reg.create("lower-images", &bad).is_err());
}
