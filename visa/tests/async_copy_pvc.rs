//! The PVC async-copy layout: `examples/async_copy.ir` (subgroup_size=16) loads a 2D
//! block laid out for 16 lanes and stores its components to shared memory. The old
//! emitter took each message's width from the device (PVC's untyped SIMD32), not from
//! the kernel's SIMD width, so it stored `(M1, 32)` messages reading components 256 bytes
//! apart (up to byte 2048) of a 1024-byte register image. Messages now run at the
//! kernel's width (split to the widths the platform allows), over the value layout of
//! that width.

mod common;

use lowering::{Device, LowerOptions};
use std::collections::HashMap;

/// Every way a listing's LSC messages disagree with its kernel: a message wider than
/// the kernel or past its lanes, or a raw data operand reading past its variable.
fn payload_violations(text: &str, grf: u32) -> Vec<String> {
    let mut sizes: HashMap<String, u32> = HashMap::new();
    let mut simd = 0u32;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix(".decl ") {
            let mut it = rest.split_whitespace();
            let name = it.next().unwrap_or_default().to_string();
            let field = |key: &str| {
                rest.split_whitespace()
                    .find_map(|w| w.strip_prefix(key))
                    .map(str::to_string)
            };
            let ty = field("type=").unwrap_or_default();
            let elts: u32 = field("num_elts=").and_then(|n| n.parse().ok()).unwrap_or(0);
            let eb = match ty.as_str() {
                "ub" | "b" => 1,
                "uw" | "w" | "hf" => 2,
                "uq" | "q" | "df" => 8,
                _ => 4,
            };
            sizes.insert(name, elts * eb);
        }
        if let Some(w) = l.strip_prefix(".kernel_attr SimdSize=") {
            simd = w.trim().parse().unwrap_or(0);
        }
    }
    let mut out = Vec::new();
    for l in text.lines().map(str::trim) {
        let body = l
            .split_once(") ")
            .map(|(p, b)| if p.starts_with('(') { b } else { l })
            .unwrap_or(l);
        if !body.starts_with("lsc_") || body.contains("block2d") || body.starts_with("lsc_fence") {
            continue;
        }
        // (Mk, n)
        let Some(es) = body
            .split_once('(')
            .and_then(|(_, r)| r.split_once(')'))
            .map(|(e, _)| e)
        else {
            continue;
        };
        let (mask, n) = es.split_once(", ").unwrap_or(("M1", "1"));
        let n: u32 = n.trim().parse().unwrap_or(0);
        let first = 4
            * (mask
                .trim_start_matches('M')
                .trim_end_matches("_NM")
                .parse::<u32>()
                .unwrap_or(1)
                - 1);
        if n > simd || first + n > simd {
            out.push(format!(
                "`{l}`: lanes {first}..{} of a SIMD{simd} kernel",
                first + n
            ));
        }
        // Data operands: `name[.off]:shape` with a d32/d64 vector shape.
        for tok in body.split_whitespace() {
            let Some((reg, shape)) = tok.split_once(':') else {
                continue;
            };
            if !shape.starts_with('d') || reg.starts_with("%null") || tok.contains('[') {
                continue;
            }
            let (name, off) = match reg.split_once('.') {
                Some((n, o)) => (n, o.parse::<u32>().unwrap_or(0)),
                None => (reg, 0),
            };
            let eb = if shape.starts_with("d64") {
                8
            } else if shape.starts_with("d16") {
                2
            } else if shape.starts_with("d8 ") || shape == "d8" {
                1
            } else {
                4
            };
            let comps: u32 = shape
                .split_once('x')
                .and_then(|(_, v)| v.trim_end_matches('t').parse().ok())
                .unwrap_or(1);
            let bytes = comps * (n * eb).div_ceil(grf) * grf;
            match sizes.get(name) {
                Some(&size) if off + bytes > size => out.push(format!(
                    "`{l}`: reads bytes {off}..{} of {name}, a {size}-byte variable",
                    off + bytes
                )),
                _ => {}
            }
        }
    }
    out
}

fn pvc_kernel() -> visa::Kernel {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/async_copy.ir"
    ))
    .unwrap();
    let mut s = common::parse(&text);
    let d = Device::preset("pvc").unwrap();
    common::lower(&mut s, &d, &LowerOptions::default()).unwrap();
    visa::emit_kernel(&s, &d, &Default::default()).unwrap()
}

#[test]
fn messages_follow_the_kernel_width_and_the_block_layout() {
    let k = pvc_kernel();
    assert!(k.text.contains(".kernel_attr SimdSize=16"));
    assert_eq!(payload_violations(&k.text, 64), Vec::<String>::new());
    // The 8 stores of the block's components read the register image at c * 16 lanes *
    // 8 bytes, all inside its 16 * 8 * 8 = 1024 bytes.
    let image = k
        .text
        .lines()
        .find_map(|l| {
            let l = l.trim();
            l.strip_prefix("lsc_load_block2d.ugm (M1_NM, 1)  ")
                .and_then(|r| r.split_once(':'))
                .map(|(v, _)| v.to_string())
        })
        .expect("a block load");
    assert!(k.text.contains(&format!(
        ".decl {image} v_type=G type=uq num_elts=128 align=GRF"
    )));
    let stores: Vec<&str> = k
        .text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("lsc_store.slm") && l.contains(&format!(" {image}")))
        .collect();
    assert_eq!(stores.len(), 8, "{stores:#?}");
    for (c, s) in stores.iter().enumerate() {
        let operand = if c == 0 {
            format!("{image}:d64")
        } else {
            format!("{image}.{}:d64", c * 128)
        };
        assert!(
            s.starts_with("lsc_store.slm (M1, 16)  flat[") && s.ends_with(&operand),
            "{s}"
        );
    }
    if common::have_genx("messages_follow_the_kernel_width_and_the_block_layout") {
        visa::igc::compile(&k.text, "PVC").unwrap_or_else(|e| panic!("{e}\n{}", k.text));
    }
}

/// The listing the old emitter printed for `examples/async_copy.ir` on PVC (`ir-opt
/// --target pvc -O --emit visa` before this crate), with the declaration of the block's
/// register image the IR implies (64x8 values of 16 lanes: 1024 bytes), fails the check.
#[test]
fn the_old_listing_fails_the_check() {
    let old = "\
.decl V39 v_type=G type=uq num_elts=128 align=GRF
.kernel_attr SimdSize=16
    lsc_load_block2d.ugm (M1, 1)  V39:d64.8x16nn  flat[V30,0x3F,0xF,0xFF,0x0,0x0]
    lsc_store.slm (M1, 32)  flat[V47]:a32  V39:d64
    lsc_store.slm (M1, 32)  flat[V54]:a32  V39.256:d64
    lsc_store.slm (M1, 32)  flat[V61]:a32  V39.512:d64
    lsc_store.slm (M1, 32)  flat[V68]:a32  V39.768:d64
    lsc_store.slm (M1, 32)  flat[V75]:a32  V39.1024:d64
    lsc_store.slm (M1, 32)  flat[V82]:a32  V39.1280:d64
    lsc_store.slm (M1, 32)  flat[V89]:a32  V39.1536:d64
    lsc_store.slm (M1, 32)  flat[V96]:a32  V39.1792:d64
";
    let v = payload_violations(old, 64);
    // Every store is wider than the kernel; the last four read past the image.
    assert_eq!(
        v.iter()
            .filter(|m| m.contains("lanes 0..32 of a SIMD16 kernel"))
            .count(),
        8,
        "{v:#?}"
    );
    assert_eq!(
        v.iter()
            .filter(|m| m.contains("a 1024-byte variable"))
            .count(),
        4,
        "{v:#?}"
    );
    assert!(
        v.iter()
            .any(|m| m.contains("reads bytes 1792..2048 of V39")),
        "{v:#?}"
    );
}

#[test]
fn simd32_kernels_split_messages_into_legal_widths() {
    // The same copy with subgroup_size=32 on PVC: SIMD32 untyped messages are legal.
    // DG2 has no block messages; a SIMD32 kernel there splits untyped messages into
    // SIMD16 halves under M1 and M5 (lane 16 of a dword component starts at byte 64)
    // and typed ones into SIMD8 quarters (lanes 8, 16, 24 at bytes 32, 64, 96; the
    // second coordinate, component y, starts at 32 lanes * 4 = 128).
    let text = "shader compute (local_size=32,1,1, subgroup_size=32)
image @img : 2d r32_uint (binding=2)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0)
    32   %2 = @load_shared (%0.x) (base=0, align_mul=4)
    32   %3 = @lsc_load_quad (@img, %0.x, %0.y, %1, %1) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)
    32   %4 = iadd %2, %3
    @store_shared (%4, %0.x) (base=4, align_mul=4)
}";
    let s = common::parse(text);
    let k = visa::emit_kernel(&s, &Device::preset("dg2").unwrap(), &Default::default()).unwrap();
    assert_eq!(payload_violations(&k.text, 32), Vec::<String>::new());
    let msgs: Vec<&str> = k
        .text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("lsc_"))
        .collect();
    assert_eq!(
        msgs,
        [
            "lsc_load.slm (M1, 16)  v2:d32  flat[v0]:a32",
            "lsc_load.slm (M5, 16)  v2.64:d32  flat[v0.64]:a32",
            "lsc_load_quad.tgm (M1, 8)  v3:d32.x  bti(0x2)[v0,v0.128]:a32",
            "lsc_load_quad.tgm (M3, 8)  v3.32:d32.x  bti(0x2)[v0.32,v0.160]:a32",
            "lsc_load_quad.tgm (M5, 8)  v3.64:d32.x  bti(0x2)[v0.64,v0.192]:a32",
            "lsc_load_quad.tgm (M7, 8)  v3.96:d32.x  bti(0x2)[v0.96,v0.224]:a32",
            "lsc_store.slm (M1, 16)  flat[v0+0x4]:a32  v4:d32",
            "lsc_store.slm (M5, 16)  flat[v0.64+0x4]:a32  v4.64:d32",
        ]
    );
    if common::have_genx("simd32_kernels_split_messages_into_legal_widths") {
        visa::igc::compile(&k.text, "DG2").unwrap_or_else(|e| panic!("{e}\n{}", k.text));
    }
}
