//! Message spellings: the printed examples of the LSC documentation that the IR can
//! express (IGC's `LSC_UNTYPED.md`/`LSC_TYPED.md`, `CISA.y` `Lsc*` rules) and
//! hand-written expectations for atomics, predication, caching, surfaces, null
//! destinations, strided, transposed, SLM, 2D block and sampler messages, in whole
//! kernels. Every accepted kernel also goes through GenX_IR.
//!
//! (These replace the tests of the message-only listing `lowering::visa`; names are
//! now those of a kernel: `v<n>` for IR value `%n`, predicates `p1`-`p4`, temporaries
//! `t<k>`/`s<k>`, and messages run at the kernel's SIMD width, split to the platform's.)

mod common;

use lowering::Device;

fn dev(n: &str) -> Device {
    Device::preset(n).unwrap()
}

/// A shader of `body` (lines of IR) with `images`, run at SIMD `sg`.
fn shader(images: &str, sg: u32, body: &str) -> String {
    format!(
        "shader compute (local_size={sg},1,1, subgroup_size={sg})\n{images}\nfn main {{\n  block b0:\n{body}\n}}\n"
    )
}

/// Emits for `plat`; compiles with GenX_IR when the platform has one and the tool is
/// there.
fn kernel(text: &str, plat: &str) -> visa::Kernel {
    let s = common::parse(text);
    let k = visa::emit_kernel(&s, &dev(plat), &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    if let Some(p) = k.genx_platform {
        if common::have_genx("messages") {
            visa::igc::compile(&k.text, p).unwrap_or_else(|e| panic!("{e}\n{}", k.text));
        }
    }
    k
}

/// The message lines of a kernel (LSC, sampler, `movs`), without indentation.
fn messages(k: &visa::Kernel) -> Vec<String> {
    k.text
        .lines()
        .map(str::trim)
        .filter(|l| {
            let body = match l.strip_prefix('(') {
                Some(r) => r.split_once(") ").map(|x| x.1).unwrap_or(l),
                None => l,
            };
            (body.starts_with("lsc_") && !body.starts_with("lsc_fence"))
                || body.starts_with("load_")
                || body.starts_with("sample_l")
                || body.starts_with("movs")
        })
        .map(str::to_string)
        .collect()
}

fn err(text: &str, plat: &str) -> String {
    let s = ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    visa::emit_kernel(&s, &dev(plat), &Default::default())
        .unwrap_err()
        .to_string()
}

const OPERANDS: &str = "    32x3 %0 = @load_global_invocation_id
    32   %1 = undef
    32   %3 = mov %0.x
    32   %4 = mov %0.y
    1    %2 = ult %3, %4
    64   %5 = u2u64 %0.x
    32   %6 = load_const (0)";

// ----- the documentation's printed examples ----------------------------------------------

#[test]
fn predicated_cached_bti_load_with_offset() {
    // (P) lsc_load.ugm.ca.ca (M1, 16)  V13:d32x4  bti(0x4)[0x4*V12+0x100]:a32
    // (the IR has no address scale)
    let t = shader(
        "image @buf : buffer r32_uint (binding=4)",
        16,
        &format!("{OPERANDS}\n    32x4 %13 = @lsc_load (@buf, %3, %2) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32x4, lsc_cache=ca.ca, lsc_offset=256)"),
    );
    let k = kernel(&t, "dg2");
    assert_eq!(
        messages(&k),
        ["(p1) lsc_load.ugm.ca.ca (M1, 16)  v13:d32x4  bti(0x4)[v3+0x100]:a32"]
    );
    assert!(k
        .text
        .contains("    cmp.ne (M1, 16) p1 v2(0,0)<1;1,0> 0x0:ud\n    (p1) lsc_load"));
}

#[test]
fn transposed_loads_are_simt_pieces() {
    // lsc_load.ugm (M1, 1)  V13:d32x16t  flat[V12]:a64 reads 16 dwords per invocation;
    // in a kernel every lane reads its own vector, in SIMT pieces within 8 payload
    // registers: on DG2 (SIMD16, 64 bytes a component) pieces of 4 at +16 bytes.
    let t = shader(
        "",
        16,
        &format!("{OPERANDS}\n    32x16 %13 = @lsc_load (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x16t)"),
    );
    assert_eq!(
        messages(&kernel(&t, "dg2")),
        [
            "lsc_load.ugm (M1, 16)  v13:d32x4  flat[v5]:a64",
            "lsc_load.ugm (M1, 16)  v13.256:d32x4  flat[v5+0x10]:a64",
            "lsc_load.ugm (M1, 16)  v13.512:d32x4  flat[v5+0x20]:a64",
            "lsc_load.ugm (M1, 16)  v13.768:d32x4  flat[v5+0x30]:a64",
        ]
    );
}

#[test]
fn slm_store() {
    // lsc_store.slm (M1, 32)  flat[V12]:a32  V13:d32x4
    let body = format!("{OPERANDS}\n    32x4 %13 = vec4 %3, %4, %3, %4\n    @lsc_store (%3, %13) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32x4)");
    assert_eq!(
        messages(&kernel(&shader("", 32, &body), "pvc")),
        ["lsc_store.slm (M1, 32)  flat[v3]:a32  v13:d32x4"]
    );
    // DG2's untyped messages are SIMD16: a SIMD32 kernel stores in halves.
    assert_eq!(
        messages(&kernel(&shader("", 32, &body), "dg2")),
        [
            "lsc_store.slm (M1, 16)  flat[v3]:a32  t1:d32x4",
            "lsc_store.slm (M5, 16)  flat[v3.64]:a32  t2:d32x4"
        ]
    );
}

#[test]
fn strided_load_with_constant_pitch() {
    // lsc_load_strided.ugm (M1, 32)  V13:d32  flat[V12, 0x100]:a32: one base (here the
    // active lanes' uniform base, in a register of its own) and the pitch.
    let t = shader(
        "",
        32,
        &format!("{OPERANDS}\n    32   %12 = load_const (256)\n    32   %13 = @lsc_load_strided (%3, %12) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)"),
    );
    let m = messages(&kernel(&t, "pvc"));
    assert_eq!(m.len(), 1);
    assert!(
        m[0].starts_with("lsc_load_strided.ugm (M1, 32)  v13:d32  flat[t")
            && m[0].ends_with(", 0x100]:a32"),
        "{m:?}"
    );
}

#[test]
fn predicated_untyped_atomic() {
    // (P) lsc_atomic_iadd.ugm (M1, 16)  VDST:d32  flat[VADDR]:a64  VSRC1  %null
    let t = shader(
        "",
        16,
        &format!("{OPERANDS}\n    32   %14 = @lsc_atomic (%5, %4, %2) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=iadd)"),
    );
    assert_eq!(
        messages(&kernel(&t, "dg2")),
        ["(p1) lsc_atomic_iadd.ugm (M1, 16)  v14:d32  flat[v5]:a64  v4  %null"]
    );
}

const TYPED: &str = "    32x3 %0 = @load_global_invocation_id
    32   %3 = mov %0.x
    32   %4 = mov %0.y
    1    %2 = ult %3, %4
    32   %56 = iadd %0.x, %0.y
    32   %57 = iadd %0.y, %0.z
    32   %58 = iadd %0.z, %0.x
    32   %59 = iadd %56, %57";

#[test]
fn typed_load_quad() {
    // (P) lsc_load_quad.tgm (M1, 16)  V60:d32.xyzw  bti(0x7B)[U,V,R,LOD]:a32
    let img = "image @img : 2d r32_uint (binding=123)";
    let body = format!("{TYPED}\n    32x4 %60 = @lsc_load_quad (@img, %56, %57, %58, %59, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)");
    assert_eq!(
        messages(&kernel(&shader(img, 16, &body), "pvc")),
        ["(p1) lsc_load_quad.tgm (M1, 16)  v60:d32.xyzw  bti(0x7b)[v56,v57,v58,v59]:a32"]
    );
    // DG2: two SIMD8 messages, lanes 8-15 under M3 reading the coordinates' second
    // registers and writing a temporary copied into the value.
    let m = messages(&kernel(&shader(img, 16, &body), "dg2"));
    assert_eq!(m.len(), 2);
    assert!(
        m[0].starts_with("(p1) lsc_load_quad.tgm (M1, 8)  t1:d32.xyzw  bti(0x7b)[v56,v57,v58,v59]"),
        "{m:?}"
    );
    assert!(
        m[1].starts_with(
            "(p1) lsc_load_quad.tgm (M3, 8)  t2:d32.xyzw  bti(0x7b)[v56.32,v57.32,v58.32,v59.32]"
        ),
        "{m:?}"
    );
}

#[test]
fn cache_warming_typed_load_and_tgm_caching_before_xe2() {
    // (P) lsc_load_quad.tgm.ca.ca (M1, 16)  %null:d32.x  bti(0x7B)[U,V,R,LOD]:a32
    let img = "image @img : 2d r32_uint (binding=123)";
    let body = format!("{TYPED}\n    32   %12 = @lsc_load_quad (@img, %56, %57, %58, %59, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x, lsc_cache=ca.ca)");
    assert_eq!(
        messages(&kernel(&shader(img, 16, &body), "lnl")),
        ["(p1) lsc_load_quad.tgm.ca.ca (M1, 16)  v12:d32.x  bti(0x7b)[v56,v57,v58,v59]:a32"]
    );
    let e = err(&shader(img, 16, &body), "pvc");
    assert!(
        e.contains(
            ".tgm messages take only default caching (.df.df) before Xe2, found .ca.ca on pvc"
        ),
        "{e}"
    );
}

#[test]
fn bss_typed_store() {
    // (P) lsc_store_quad.tgm (M1, 16)  bss(V10)[U,V]:a32  V60:d32.xy: the surface-state
    // offset is a kernel input of the image.
    let img = "image @dst : 2d r32_uint (binding=0)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32x2 %60 = vec2 %3, %4\n    @lsc_store_quad (@dst, %56, %57, %6, %6, %60, %2) (lsc_sfid=tgm, lsc_addr=bss, lsc_addr_size=a32, lsc_data=d32.xy)");
    let k = kernel(&shader(img, 16, &body), "pvc");
    assert_eq!(
        messages(&k),
        ["(p1) lsc_store_quad.tgm (M1, 16)  bss(ss_dst)[v56,v57]:a32  v60:d32.xy"]
    );
    assert!(k
        .abi
        .input(&visa::InputKind::SurfaceState {
            image: "dst".into()
        })
        .is_some());
}

#[test]
fn typed_atomic() {
    // (P) lsc_atomic_iadd.tgm (M1, 16)  VDST:d32  bti(0x1)[U,V]:a32  VSRC1  %null
    let img = "image @img : 2d r32_uint (binding=1)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32   %63 = @lsc_atomic (@img, %56, %57, %6, %6, %3, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=iadd)");
    assert_eq!(
        messages(&kernel(&shader(img, 32, &body), "lnl")),
        ["(p1) lsc_atomic_iadd.tgm (M1, 32)  v63:d32  bti(0x1)[v56,v57]:a32  v3  %null"]
    );
}

// ----- hand-written expectations ---------------------------------------------------------

#[test]
fn dg2_typed_messages() {
    let img = "image @img : 2d r32_uint (binding=1)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32x4 %12 = @lsc_load_quad (@img, %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
    32x2 %13 = vec2 %3, %4
    @lsc_store_quad (@img, %56, %57, %6, %6, %13) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xy)
    32   %15 = @lsc_atomic (@img, %56, %57, %6, %6, %3) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=iadd)");
    assert_eq!(
        messages(&kernel(&shader(img, 8, &body), "dg2")),
        [
            "lsc_load_quad.tgm (M1, 8)  v12:d32.xyzw  bti(0x1)[v56,v57]:a32",
            "lsc_store_quad.tgm (M1, 8)  bti(0x1)[v56,v57]:a32  v13:d32.xy",
            "lsc_atomic_iadd.tgm (M1, 8)  v15:d32  bti(0x1)[v56,v57]:a32  v3  %null",
        ]
    );
}

#[test]
fn every_atomic_sub_op() {
    // The mnemonic suffix and data operand count of every sub-op.
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
    assert_eq!(ops.len(), ir::lsc::LscAtomicOp::ALL.len());
    for (op, n) in ops {
        let srcs = ["%5", "%3", "%4"][..1 + n].join(", ");
        let t = shader(
            "",
            32,
            &format!("{OPERANDS}\n    32   %20 = @lsc_atomic ({srcs}) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op={op})"),
        );
        let (s1, s2) = match n {
            0 => ("%null", "%null"),
            1 => ("v3", "%null"),
            _ => ("v3", "v4"),
        };
        assert_eq!(
            messages(&kernel(&t, "pvc")),
            [format!(
                "lsc_atomic_{op}.ugm (M1, 32)  v20:d32  flat[v5]:a64  {s1}  {s2}"
            )]
        );
    }
}

#[test]
fn slm_d64_cas() {
    let t = shader(
        "",
        32,
        &format!("{OPERANDS}\n    64   %7 = u2u64 %0.y\n    64   %8 = @lsc_atomic (%3, %5, %7) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d64, lsc_op=icas)"),
    );
    assert_eq!(
        messages(&kernel(&t, "pvc")),
        ["lsc_atomic_icas.slm (M1, 32)  v8:d64  flat[v3]:a32  v5  v7"]
    );
}

/// The back end's own shared-memory atomics are held to the same table as the IR's LSC
/// messages: `lsc_atomic_iadd.slm d64` does not exist (only icas is 64-bit on SLM),
/// nor does a float add on SLM, and the error names the rule.
#[test]
fn back_end_slm_atomics_the_table_forbids_are_errors() {
    for plat in ["dg2", "mtl", "pvc"] {
        let body = format!("{OPERANDS}\n    64   %7 = u2u64 %0.y\n    64   %8 = @shared_atomic (%3, %7) (base=0, atomic_op=iadd)");
        let e = err(&shader("", 16, &body), plat);
        assert!(
            e.contains("`%8 = @shared_atomic`")
                && e.contains(
                    "the only 64-bit .slm atomic is lsc_atomic_icas, found lsc_atomic_iadd"
                ),
            "{plat}: {e}"
        );
        let body = format!("{OPERANDS}\n    32   %7 = u2f32 %0.y\n    32   %8 = @shared_atomic (%3, %7) (base=0, atomic_op=fadd)");
        let e = err(&shader("", 16, &body), plat);
        assert!(
            e.contains("`%8 = @shared_atomic`")
                && e.contains(
                    "lsc_atomic_fadd exists on .ugm and .ugml (and .tgm from Xe2), not on .slm"
                ),
            "{plat}: {e}"
        );
    }
}

#[test]
fn cache_controls_print_unless_default() {
    let t = shader(
        "",
        16,
        &format!("{OPERANDS}
    @lsc_store (%5, %3) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_cache=uc.wb)
    @lsc_store (%5, %3) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
    32   %9 = @lsc_load (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_cache=st.ca)"),
    );
    assert_eq!(
        messages(&kernel(&t, "dg2")),
        [
            "lsc_store.ugm.uc.wb (M1, 16)  flat[v5]:a64  v3:d32",
            "lsc_store.ugm (M1, 16)  flat[v5]:a64  v3:d32",
            "lsc_load.ugm.st.ca (M1, 16)  v9:d32  flat[v5]:a64",
        ]
    );
}

#[test]
fn bti_from_an_image_array_index() {
    // The binding-table index is binding + index, the index read from the active lanes
    // (it must be the same on all of them) into a scalar: `bti(s..)`.
    let imgs = "image @a[4] : 2d r32_uint (binding=0)\nimage @b[4] : 2d r32_uint (binding=3)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)
    32   %12 = @lsc_load_quad (@a[%3], %56, %6, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)
    32   %13 = @lsc_load_quad (@b[%3], %56, %6, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)");
    let k = kernel(&shader(imgs, 8, &body), "dg2");
    let m = messages(&k);
    assert_eq!(m.len(), 2);
    assert!(
        m[0].starts_with("lsc_load_quad.tgm (M1, 8)  v12:d32.x  bti(s")
            && m[0].ends_with(")[v56]:a32"),
        "{m:?}"
    );
    // The index is made uniform first, then the binding added once, in a scalar.
    assert!(
        k.text.contains("add (M1_NM, 1) s") && k.text.contains("(0,0)<0;1,0> 0x3:ud"),
        "{}",
        k.text
    );
    // A constant index folds into the binding.
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32   %7 = load_const (2)
    32   %12 = @lsc_load_quad (@b[%7], %56, %6, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)");
    assert_eq!(
        messages(&kernel(&shader(imgs, 8, &body), "dg2")),
        ["lsc_load_quad.tgm (M1, 8)  v12:d32.x  bti(0x5)[v56]:a32"]
    );
}

#[test]
fn swizzled_sources_are_raw_offsets() {
    // A 32x2 coordinate vector %10: V is component 1, one run of the kernel's lanes
    // after U: 8 lanes x 4 bytes = 32 on DG2 at SIMD8, 16 x 4 = 64 on PVC at SIMD16.
    // The typed data %11.yzw is not: GenX_IR gives a typed message as many data
    // registers as the operand's whole variable holds (4 for `v11`, one past it from
    // `v11.32`), so the data is copied into a variable of the payload's size.
    let img = "image @img : 2d r32_uint (binding=2)";
    let body = "    32x3 %0 = @load_global_invocation_id
    32   %6 = load_const (0)
    32x2 %10 = vec2 %0.x, %0.y
    32x4 %11 = vec4 %0.x, %0.y, %0.z, %0.x
    @lsc_store_quad (@img, %10.x, %10.y, %6, %6, %11.yzw) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyz)";
    let k = kernel(&shader(img, 8, body), "dg2");
    assert_eq!(
        messages(&k),
        ["lsc_store_quad.tgm (M1, 8)  bti(0x2)[v10,v10.32]:a32  t1:d32.xyz"]
    );
    // Three components of 8 lanes, one 32-byte register each.
    assert!(
        k.text
            .contains(".decl t1 v_type=G type=ud num_elts=24 align=GRF\n"),
        "{}",
        k.text
    );
    assert_eq!(
        messages(&kernel(&shader(img, 16, body), "pvc")),
        ["lsc_store_quad.tgm (M1, 16)  bti(0x2)[v10,v10.64]:a32  t1:d32.xyz"]
    );
    // A typed store of a whole variable stores it in place.
    let body = "    32x3 %0 = @load_global_invocation_id
    32   %6 = load_const (0)
    32x2 %10 = vec2 %0.x, %0.y
    32x3 %11 = vec3 %0.y, %0.z, %0.x
    @lsc_store_quad (@img, %10.x, %10.y, %6, %6, %11) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyz)";
    assert_eq!(
        messages(&kernel(&shader(img, 8, body), "dg2")),
        ["lsc_store_quad.tgm (M1, 8)  bti(0x2)[v10,v10.32]:a32  v11:d32.xyz"]
    );
    // An untyped store of %13.zw at SIMD16 on DG2: components are 2 registers apart.
    let body = format!("{OPERANDS}\n    32x4 %13 = vec4 %3, %4, %3, %4\n    @lsc_store (%5, %13.zw) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x2)");
    assert_eq!(
        messages(&kernel(&shader("", 16, &body), "dg2")),
        ["lsc_store.ugm (M1, 16)  flat[v5]:a64  v13.128:d32x2"]
    );
}

#[test]
fn non_contiguous_data_is_gathered_first() {
    // %13.xz is not one register range: its components are copied into a payload
    // (rows 0 and 2 of DG2's 32-byte registers) first.
    let body = format!("{OPERANDS}\n    32x4 %13 = vec4 %3, %4, %3, %4\n    @lsc_store (%5, %13.xz) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x2)");
    let k = kernel(&shader("", 16, &body), "dg2");
    assert!(
        k.text.contains("    mov (M1, 16) t1(0,0)<1> v13(0,0)<1;1,0>\n    mov (M1, 16) t1(2,0)<1> v13(4,0)<1;1,0>\n    lsc_store.ugm (M1, 16)  flat[v5]:a64  t1:d32x2\n"),
        "{}",
        k.text
    );
}

#[test]
fn immediate_offsets() {
    let t = shader(
        "image @buf : buffer r32_uint (binding=10)",
        16,
        &format!("{OPERANDS}
    32   %14 = @lsc_load (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_offset=171)
    32   %15 = @lsc_load (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_offset=-16)
    32   %16 = @lsc_load (@buf, %3) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_offset=171)"),
    );
    assert_eq!(
        messages(&kernel(&t, "dg2")),
        [
            "lsc_load.ugm (M1, 16)  v14:d32  flat[v5+0xab]:a64",
            "lsc_load.ugm (M1, 16)  v15:d32  flat[v5-0x10]:a64",
            "lsc_load.ugm (M1, 16)  v16:d32  bti(0xa)[v3+0xab]:a32",
        ]
    );
}

#[test]
fn strided_with_register_pitch() {
    let t = shader(
        "",
        32,
        &format!("{OPERANDS}\n    @lsc_store_strided (%5, %4, %3) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)"),
    );
    let m = messages(&kernel(&t, "pvc"));
    assert_eq!(m.len(), 1);
    assert!(
        m[0].starts_with("lsc_store_strided.ugm (M1, 32)  flat[t")
            && m[0].contains(", s")
            && m[0].ends_with("]:a64  v3:d32"),
        "{m:?}"
    );
}

#[test]
fn trailing_zero_typed_coordinates() {
    // (u, v, r, lod) with zeros in various places: trailing constant zeros are dropped;
    // a zero before a live coordinate goes through a register.
    let cases: [([bool; 4], &str); 5] = [
        ([true, true, true, true], "[v20,v21,v22,v23]"),
        ([true, true, true, false], "[v20,v21,v22]"),
        ([true, true, false, false], "[v20,v21]"),
        ([true, false, false, false], "[v20]"),
        ([true, false, true, false], "[v20,t1,v22]"),
    ];
    for (live, want) in cases {
        let coords: Vec<String> = (0..4)
            .map(|i| {
                if live[i] {
                    format!("%{}", 20 + i)
                } else {
                    "%9".into()
                }
            })
            .collect();
        let body = format!(
            "    32x3 %0 = @load_global_invocation_id\n    32   %9 = load_const (0)
    32   %20 = iadd %0.x, %0.y\n    32   %21 = iadd %0.y, %0.z\n    32   %22 = iadd %0.x, %0.z\n    32   %23 = iadd %20, %21
    32   %30 = @lsc_load_quad (@img, {}) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)",
            coords.join(", ")
        );
        assert_eq!(
            messages(&kernel(
                &shader("image @img : 2d r32_uint (binding=1)", 8, &body),
                "dg2"
            )),
            [format!(
                "lsc_load_quad.tgm (M1, 8)  v30:d32.x  bti(0x1){want}:a32"
            )]
        );
    }
}

#[test]
fn sampler_loads() {
    let img = "image @tex : 2d rgba8_unorm readonly (binding=5)";
    let body = "    32x3 %0 = @load_global_invocation_id\n    32   %9 = load_const (0)
    32   %10 = mov %0.x\n    32   %11 = mov %0.y\n    32   %12 = mov %0.z
    32x4 %20 = @sampler_ld (@tex, %10, %11, %9, %9) (channels=rgba, dest_type=float32)
    32   %21 = @sampler_ld (@tex, %10, %11, %12, %9) (channels=r, dest_type=float32)
    32x3 %22 = @sampler_ld_lz (@tex, %10, %11, %12) (channels=rga, dest_type=float32)";
    assert_eq!(
        messages(&kernel(&shader(img, 16, body), "dg2")),
        [
            "movs (M1_NM, 1) T6(0) 0x5:ud",
            "load_3d.RGBA (M1, 16)  0x0:uw T6 v20.0 v10.0 v11.0",
            "movs (M1_NM, 1) T6(0) 0x5:ud",
            "load_3d.R (M1, 16)  0x0:uw T6 v21.0 v10.0 v11.0 v12.0",
            "movs (M1_NM, 1) T6(0) 0x5:ud",
            "load_lz.RGA (M1, 16)  0x0:uw T6 v22.0 v10.0 v11.0 v12.0",
        ]
    );
    // No sampler on PVC.
    let e = err(&shader(img, 16, body), "pvc");
    assert!(
        e.contains("pvc has no 3D sampler (IGC Platform.hpp hasSamplerSupport)"),
        "{e}"
    );
}

#[test]
fn predicated_sampler_from_an_image_array() {
    let img = "image @tex[8] : 2d rgba8_unorm readonly (binding=2)";
    let body = "    32x3 %0 = @load_global_invocation_id\n    32   %9 = load_const (0)
    32   %4 = mov %0.z\n    32   %10 = mov %0.x\n    1    %1 = ult %10, %4
    32x4 %20 = @sampler_ld_lz (@tex[%4], %10, %9, %9, %1) (channels=rgba, dest_type=float32)";
    let k = kernel(&shader(img, 32, body), "dg2");
    let m = messages(&k);
    // SIMD32 on DG2: two SIMD16 messages.
    assert_eq!(m.len(), 4, "{m:?}");
    assert!(
        m[0].starts_with("movs (M1_NM, 1) T6(0) s") && m[0].ends_with("(0,0)<0;1,0>"),
        "{m:?}"
    );
    assert!(
        m[1].starts_with("(p") && m[1].contains(") load_lz.RGBA (M1, 16)  0x0:uw T6 "),
        "{m:?}"
    );
    assert!(
        m[3].contains(") load_lz.RGBA (M5, 16)  0x0:uw T6 "),
        "{m:?}"
    );
}

#[test]
fn predicated_sample_l_names_its_sampler_before_each_half() {
    // IGC's own SIMD32 `read_imagef` with an explicit LOD: `movs` of S0 and T6 before
    // each SIMD16 half (M1, M5), lod, u, v after the destination (r, the constant 0,
    // dropped); the second half's parameters 64 bytes (16 dwords) in.
    let img = "image @tex : 2d unknown sampled (binding=3)\nsampler @s[8] (binding=0)";
    let body = "    32x3 %0 = @load_global_invocation_id\n    32   %9 = load_const (0)
    32   %10 = mov %0.x\n    32   %11 = mov %0.y\n    1    %1 = ult %10, %11
    32x2 %20 = @sampler_sample_l (@tex, %11, %10, %10, %9, %1) (channels=rg, dest_type=float32, sampler=5)";
    let m = messages(&kernel(&shader(img, 32, body), "dg2"));
    assert_eq!(m.len(), 6, "{m:?}");
    for (k, half, at) in [(0, "M1", 0), (3, "M5", 64)] {
        assert_eq!(m[k], "movs (M1_NM, 1) S0(0) 0x5:ud", "{m:?}");
        assert_eq!(m[k + 1], "movs (M1_NM, 1) T6(0) 0x3:ud", "{m:?}");
        assert!(
            m[k + 2].starts_with("(p")
                && m[k + 2].contains(&format!(") sample_l.RG ({half}, 16)  0x0:uw S0 T6 "))
                && m[k + 2].ends_with(&format!(".0 v11.{at} v10.{at} v10.{at}")),
            "{m:?}"
        );
    }
    // SIMD8 on MTL and TGL and BDW: one message; the kernel declares the sampler
    // variable once.
    for plat in ["mtl", "tgl", "bdw"] {
        let k = kernel(&shader(img, 8, body), plat);
        let m = messages(&k);
        assert_eq!(m.len(), 3, "{plat}: {m:?}");
        assert!(
            m[2].contains(") sample_l.RG (M1, 8)  0x0:uw S0 T6 "),
            "{plat}: {m:?}"
        );
        assert_eq!(
            k.text.matches(".decl S0 v_type=S num_elts=1").count(),
            1,
            "{}",
            k.text
        );
    }
    // No sampler on PVC.
    let e = err(&shader(img, 16, body), "pvc");
    assert!(e.contains("pvc has no 3D sampler"), "{e}");
    // An index whose 16-byte state lies past 4 GiB of table.
    let far = "image @tex : 2d unknown sampled (binding=3)\nsampler @s (binding=268435456)";
    let body = body.replace("sampler=5", "sampler=268435456");
    let e = err(&shader(far, 16, &body), "dg2");
    assert!(
        e.contains("sampler index 268435456: a sampler state table"),
        "{e}"
    );
}

#[test]
fn pre_lsc_platforms_are_rejected() {
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32x4 %12 = @lsc_load_quad (@img, %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)");
    let e = err(
        &shader("image @img : 2d r32_uint (binding=1)", 16, &body),
        "tgl",
    );
    assert!(e.contains("tgl (verx10 120) has no LSC messages"), "{e}");
}

#[test]
fn illegal_messages_are_errors() {
    // a64 on tgm, with the instruction's line.
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32x4 %12 = @lsc_load_quad (@img, %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a64, lsc_data=d32.xyzw)");
    let e = err(
        &shader("image @img : 2d r32_uint (binding=1)", 16, &body),
        "lnl",
    );
    assert!(
        e.starts_with("14:5: in fn main: `%12 = @lsc_load_quad`:")
            && e.contains(".tgm messages take :a32 addresses, found :a64"),
        "{e}"
    );
    // A transposed store too large for the payload: d64x64t is 512 bytes, 16 GRFs.
    let body = format!("{OPERANDS}\n    64   %7 = u2u64 %0.y\n    @lsc_store (%5, %7) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d64x64t)");
    assert!(ir::parse_shader(&shader("", 16, &body)).is_ok());
    let s = ir::parse_shader(&shader("", 16, &body)).unwrap();
    assert!(visa::emit_kernel(&s, &dev("dg2"), &Default::default()).is_err());
}

#[test]
fn presets_choose_exec_sizes() {
    // Typed messages at SIMD8 on DG2/MTL, 16 on PVC, 32 on Xe2; untyped at 16 on
    // DG2/MTL and 32 on PVC and Xe2; a SIMD32 kernel splits to those widths. No LSC
    // before DG2.
    let img = "image @img : 2d r32_uint (binding=1)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    64   %5 = u2u64 %0.x
    32x4 %12 = @lsc_load_quad (@img, %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw)
    32x2 %21 = @lsc_load (%5) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x2)");
    for d in Device::presets() {
        let text = shader(img, 32, &body);
        let s = common::parse(&text);
        let (typed, untyped) = match d.name.as_str() {
            "dg2" | "mtl" => (8, 16),
            "pvc" => (16, 32),
            "lnl" | "bmg" => (32, 32),
            _ => {
                // Before DG2: no LSC message is the platform's (Gfx8 to Gfx12.0 send
                // the legacy data port's), and Gfx7 has no finalizer platform at all.
                let e = visa::emit_kernel(&s, &d, &Default::default()).unwrap_err();
                if d.gen < tiling::Gen::Gfx8 {
                    assert!(
                        matches!(*e.kind, visa::EmitErrorKind::NoFinalizerPlatform { .. }),
                        "{e}"
                    );
                } else {
                    assert!(
                        e.to_string().contains(&format!(
                            "{} (verx10 {}) has no LSC messages",
                            d.name,
                            d.verx10()
                        )),
                        "{e}"
                    );
                }
                continue;
            }
        };
        let k = visa::emit_kernel(&s, &d, &Default::default()).unwrap();
        let m = messages(&k);
        let n_typed = m
            .iter()
            .filter(|l| {
                l.contains(&format!("lsc_load_quad.tgm (M1, {typed})"))
                    || l.contains(&format!(".tgm (M5, {typed})"))
                    || l.contains(&format!(".tgm (M3, {typed})"))
                    || l.contains(&format!(".tgm (M7, {typed})"))
            })
            .count();
        let n_untyped = m
            .iter()
            .filter(|l| {
                l.contains(&format!("lsc_load.ugm (M1, {untyped})"))
                    || l.contains(&format!("lsc_load.ugm (M5, {untyped})"))
            })
            .count();
        assert_eq!(n_typed as u32, 32 / typed, "{}: {m:?}", d.name);
        assert_eq!(n_untyped as u32, 32 / untyped, "{}: {m:?}", d.name);
    }
}

#[test]
fn ss_surfaces_indexed_bss_and_vector_predicates() {
    // ss: the image's surface-state offset input.
    let img = "image @dst : 2d r32_uint (binding=0)";
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32   %12 = @lsc_load_quad (@dst, %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=ss, lsc_addr_size=a32, lsc_data=d32.x)");
    assert_eq!(
        messages(&kernel(&shader(img, 8, &body), "dg2")),
        ["lsc_load_quad.tgm (M1, 8)  v12:d32.x  ss(ss_dst)[v56,v57]:a32"]
    );
    // An indexed bss surface would need the surface-state stride.
    let body = format!("{TYPED}\n    32   %6 = load_const (0)\n    32   %12 = @lsc_load_quad (@d[%3], %56, %57, %6, %6) (lsc_sfid=tgm, lsc_addr=bss, lsc_addr_size=a32, lsc_data=d32.x)");
    let e = err(
        &shader("image @d[4] : 2d r32_uint (binding=0)", 8, &body),
        "dg2",
    );
    assert!(e.contains("a bss surface indexed by %3 needs the surface-state stride of @d, which the IR does not carry"), "{e}");
    // A predicate reading one component of a boolean vector is one component: fine.
    // (The first predicate of the kernel: OPERANDS' unused `ult` writes none.)
    let body = format!("{OPERANDS}\n    1x2  %7 = load_const (true, false)\n    32   %8 = @lsc_load (%5, %7.y) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)");
    let k = kernel(&shader("", 16, &body), "dg2");
    assert!(
        k.text
            .contains("cmp.ne (M1, 16) p1 0x0:ud 0x0:ud\n    (p1) lsc_load.ugm"),
        "{}",
        k.text
    );
}

// ----- 2D blocks -------------------------------------------------------------------

/// Values %3..%8 are the untyped payload (base, w-1, h-1, p-1, x, y), %10 and %11 the
/// typed x and y.
const PAYLOAD: &str = "    32x3 %0 = @load_local_invocation_id
    32   %1 = @load_subgroup_id
    64   %2 = u2u64 %1
    64   %3 = iadd %2, %2
    32   %4 = iadd %1, %1
    32   %5 = iadd %4, %1
    32   %6 = iadd %5, %1
    32   %7 = iadd %6, %1
    32   %8 = iadd %7, %1
    32   %9 = iadd %8, %1
    32   %10 = iadd %9, %1
    32   %11 = iadd %10, %1";

#[test]
fn block2d_messages() {
    let t = shader(
        "image @img : 2d r32_uint (binding=1)\nimage @imgs[2] : 2d r32_uint (binding=0)",
        16,
        &format!("{PAYLOAD}
    64x16 %12 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x16x32nn)
    32   %13 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)
    @lsc_store_block2d (%3, %4, %5, %6, %7, %8, %13) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)
    64   %14 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x8x2nn, lsc_cache=uc.ca)
    @lsc_store_block2d (%3, %4, %5, %6, %7, %8, %13) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn, lsc_cache=wt.wb)"),
    );
    let m = messages(&kernel(&t, "pvc"));
    let shapes: Vec<&str> = m
        .iter()
        .map(|l| l.split_whitespace().nth(3).unwrap_or(""))
        .collect();
    assert_eq!(m.len(), 5, "{m:?}");
    assert!(
        m[0].starts_with("lsc_load_block2d.ugm (M1_NM, 1)  v12:d16.2x16x32nn  flat[s"),
        "{m:?}"
    );
    assert!(
        m[2].starts_with("lsc_store_block2d.ugm (M1_NM, 1)  flat[s")
            && m[2].ends_with("]  v13:d32.8x2nn"),
        "{m:?}"
    );
    assert!(
        m[3].starts_with("lsc_load_block2d.ugm.uc.ca (M1_NM, 1)  v14:d16.2x8x2nn"),
        "{m:?}"
    );
    assert!(
        m[4].starts_with("lsc_store_block2d.ugm.wt.wb (M1_NM, 1)  flat["),
        "{m:?} {shapes:?}"
    );
    // Typed blocks (Xe2): no predicate, no execution size.
    let t = shader(
        "image @img : 2d r32_uint (binding=1)\nimage @imgs[2] : 2d r32_uint (binding=0)",
        16,
        &format!(
            "{PAYLOAD}
    32   %53 = @lsc_load_block2d (@img, %10, %11) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)
    @lsc_store_block2d (@img, %10, %11, %53) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)"
        ),
    );
    let m = messages(&kernel(&t, "lnl"));
    assert!(
        m[0].starts_with("lsc_load_block2d.tgm  v53:8x8  bti(0x1)[s"),
        "{m:?}"
    );
    assert!(
        m[1].starts_with("lsc_store_block2d.tgm  bti(0x1)[s") && m[1].ends_with("]  v53:8x8"),
        "{m:?}"
    );
}

#[test]
fn block2d_constants_components_and_errors() {
    // Constant payload fields are immediates; the store of component 1 of a 32x2 value
    // reads the register image from byte 16 lanes x 4 = 64 (a whole register on PVC).
    let text = shader(
        "image @img : 2d r32_uint (binding=1)",
        16,
        &format!("{PAYLOAD}
    64   %20 = load_const (0x0000000100000000)
    32   %21 = load_const (0x000001ff)
    32   %22 = load_const (0x0000002d)
    32x2 %23 = @lsc_load_block2d (%20, %21, %22, %21, %7, %8) (lsc_sfid=ugm, lsc_data=d32, lsc_block=16x2nn)
    @lsc_store_block2d (%20, %21, %22, %21, %7, %8, %23.y) (lsc_sfid=ugm, lsc_data=d32, lsc_block=8x2nn)"),
    );
    let m = messages(&kernel(&text, "pvc"));
    assert!(
        m[0].starts_with("lsc_load_block2d.ugm (M1_NM, 1)  v23:d32.16x2nn  flat[s")
            && m[0].contains(",0x1ff,0x2d,0x1ff,s"),
        "{m:?}"
    );
    assert!(m[1].ends_with("]  v23.64:d32.8x2nn"), "{m:?}");
    // Platform and table errors name the rule.
    let e = err(&text, "dg2");
    assert!(e.contains("untyped block2d"), "{e}");
    let text = shader(
        "image @img : 2d r32_uint (binding=1)",
        16,
        &format!("{PAYLOAD}\n    32   %12 = @lsc_load_block2d (@img, %10, %11) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)"),
    );
    let e = err(&text, "pvc");
    assert!(e.contains("typed block2d"), "{e}");
}

#[test]
fn wide_block_stores_split_into_64_byte_columns_on_pvc() {
    // GenX_IR 1.0.12504 takes untyped block stores of at most 64 bytes a row on PVC: a
    // 32-dword-wide store becomes two 16-dword stores, the second 16 elements right,
    // each from its rows of the register image.
    let text = shader(
        "",
        16,
        &format!("{PAYLOAD}
    32x16 %23 = @lsc_load_block2d (%3, %4, %5, %6, %7, %8) (lsc_sfid=ugm, lsc_data=d32, lsc_block=16x16nn)
    @lsc_store_block2d (%3, %4, %5, %6, %7, %8, %23) (lsc_sfid=ugm, lsc_data=d32, lsc_block=32x8nn)"),
    );
    let k = kernel(&text, "pvc");
    let m = messages(&k);
    assert_eq!(m.len(), 3, "{m:?}");
    assert!(
        m[1].contains(":d32.16x8nn") && m[2].contains(":d32.16x8nn"),
        "{m:?}"
    );
    assert!(k.text.contains(" 0x10:ud\n"), "{}", k.text);
}

/// On the legacy data port the same UBO load at a constant offset reads a register
/// that an oword block read of the UBO's surface (index 2) filled at the kernel's
/// start: bytes 0x10..0x18 are oword 1 (`OWORD_LD.md` counts offsets in owords), read
/// whole into `ubo1_16`; no UBO table. Expected by hand from the ABI.
#[test]
fn legacy_uniform_ubo_loads_read_oword_blocks_at_the_start() {
    let text = "shader compute (local_size=16,1,1, subgroup_size=16)\n\
        buffer @out : ssbo (block=2, size=4096)\n\
        buffer @u : ubo (block=1, size=64)\n\
        fn main {\n  block b0:\n\
        32   %0 = load_const (0x00000001)\n\
        32   %1 = load_const (0x00000002)\n\
        32   %2 = load_const (0x00000010)\n\
        32x2 %3 = @load_ubo (%0, %2) (align_mul=4)\n\
        32x3 %4 = @load_local_invocation_id\n\
        32   %5 = load_const (0x00000002)\n\
        32   %6 = ishl %4.x, %5\n\
        32   %8 = iadd %6, %3.y\n\
        @store_ssbo (%8, %1, %6) (access=none, align_mul=4)\n\
        }\n";
    for plat in ["bdw", "skl", "tgl"] {
        let k = kernel(text, plat);
        let lines: Vec<&str> = k.text.lines().map(str::trim).collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("oword_ld"))
            .unwrap_or_else(|| panic!("{}", k.text));
        assert_eq!(lines[at - 1], "movs (M1_NM, 1) T6(0) 0x2:ud", "{}", k.text);
        assert_eq!(lines[at], "oword_ld (1) T6 0x1:ud ubo1_16.0", "{}", k.text);
        assert!(
            k.text
                .contains("mov (M1_NM, 1) v3(0,1)<1> ubo1_16(0,1)<0;1,0>"),
            "{}",
            k.text
        );
        assert!(!k.text.contains("ubo_table"), "{}", k.text);
    }
}

/// Buffer accesses (`visa/ABI.md`, "Buffer accesses"). With no images the buffers'
/// surfaces start at binding-table index 0: UBO block 1 at 2, SSBO block 2 at 5. The
/// SSBO's load and store are surface messages at the lane's offset; the UBO load at a
/// constant offset is uniform, a SIMD1 transposed load of its two dwords at `+0x10`
/// from the binding's base, which the kernel reads once from UBO table entry 1
/// (`+0x8`). Expected by hand from the ABI.
#[test]
fn buffers_are_surfaces_and_uniform_ubo_loads_are_transposed() {
    let text = "shader compute (local_size=16,1,1, subgroup_size=16)\n\
        buffer @out : ssbo (block=2, size=4096)\n\
        buffer @u : ubo (block=1, size=64)\n\
        fn main {\n  block b0:\n\
        32   %0 = load_const (0x00000001)\n\
        32   %1 = load_const (0x00000002)\n\
        32   %2 = load_const (0x00000010)\n\
        32x2 %3 = @load_ubo (%0, %2) (align_mul=4)\n\
        32x3 %4 = @load_local_invocation_id\n\
        32   %5 = load_const (0x00000002)\n\
        32   %6 = ishl %4.x, %5\n\
        32   %7 = @load_ssbo (%1, %6) (access=none, align_mul=4)\n\
        32   %8 = iadd %7, %3.y\n\
        @store_ssbo (%8, %1, %6) (access=none, align_mul=4)\n\
        }\n";
    let k = kernel(text, "dg2");
    let m = messages(&k);
    let uniform: Vec<&str> = m
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("lsc_load.ugm (M1_NM, 1)"))
        .collect();
    assert_eq!(uniform.len(), 2, "{}", k.text);
    assert!(
        uniform[0].ends_with("d32x2t  flat[t2+0x8]:a64"),
        "{}",
        k.text
    );
    assert!(
        uniform[1].contains("v3:d32x2t  flat[t3+0x10]:a64"),
        "{}",
        k.text
    );
    assert_eq!(k.text.matches("ubo_table_ud(0,0)").count(), 1, "{}", k.text);
    assert!(!k.text.contains("ssbo_table"), "{}", k.text);
    let per_lane: Vec<&str> = m
        .iter()
        .map(String::as_str)
        .filter(|l| l.contains("(M1, 16)"))
        .collect();
    assert_eq!(per_lane.len(), 2, "{}", k.text);
    assert!(
        per_lane[0].starts_with("lsc_load.ugm") && per_lane[0].contains("bti(0x5)[v6]:a32"),
        "{}",
        k.text
    );
    assert!(
        per_lane[1].starts_with("lsc_store.ugm") && per_lane[1].contains("bti(0x5)[v6]:a32"),
        "{}",
        k.text
    );
}
