use super::literal::constant;
use super::*;
use crate::entity::Value;
use crate::function::{CfNode, Jump};
use crate::intrinsic::IntrinsicOp;
use crate::print::print_shader;
use crate::span::Span;

const EXAMPLE: &str = r#"// comments run to end of line
shader compute (local_size=8,8,1)
image @src : 2d rgba8_unorm readonly (binding=0)
image @arr : 2d array r32_uint coherent (binding=2)
image @imgs[4] : 2d r32_float (binding=4)        // array of 4 descriptors, bindings 4..7
image @dst : 2d r32_uint (binding=1, layout={tiling=y, row_pitch=4096, qpitch=772, swizzle=true})

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32x4 %2 = @image_load (@src, %1) (dest_type=float32)
    32   %3 = f2u32 %2.x
    @image_store (@dst, %1, %3) (src_type=uint32)
    32   %4 = load_const (0x00000010)
    32x2 %5 = load_const (0x00000001, 0x00000002)
    1    %6 = ult %3, %4
    32   %7 = undef
    32   %8 = @image_load (@imgs[%3], %1) (dest_type=float32)
  if %6 {
    block b1:
      32 %9 = iadd %3, %4
  } else {
    block b2:
  }
  block b3:
    32 %10 = phi b1: %9, b2: %7
  loop {
    block b4:
      break
  }
  block b5:
    32x4 %11 = @lsc_load_quad (@src, %3, %4, %4, %4) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw) if %6
    32x4 %12 = @image_load (@src, %1, %3) (dest_type=float32)
}
"#;

#[test]
fn image_load_lod_is_a_trailing_source() {
    let s = parse_ok(EXAMPLE);
    let f = &s.functions[0];
    let loads: Vec<_> = f
        .insts_in_order()
        .into_iter()
        .filter_map(|i| f.inst(i).as_intrinsic())
        .filter(|i| i.op == IntrinsicOp::ImageLoad)
        .collect();
    assert_eq!(loads.len(), 3);
    // Without a LOD the load has only its coordinate; with one, the LOD follows it.
    assert_eq!(loads[0].srcs.len(), 1);
    assert_eq!(loads[2].srcs.len(), 2);
    assert_eq!(loads[2].srcs[1].value, Value::from_u32(3));
    assert_eq!(loads[2].predicate(), None);
    crate::validate(&s).unwrap_or_else(|d| panic!("{d:?}"));
    // `if %p` stays for messages: image_load takes a LOD, never a predicate.
    let bad = EXAMPLE.replace(
        "@image_load (@src, %1, %3) (dest_type=float32)",
        "@image_load (@src, %1) (dest_type=float32) if %6",
    );
    assert!(parse_err(&bad).contains("@image_load cannot be predicated"));
}

#[test]
fn example_round_trips() {
    let s = parse_shader(EXAMPLE).unwrap_or_else(|e| panic!("{}", e[0].render("ex", EXAMPLE)));
    let text = print_shader(&s);
    println!("{text}");
    let s2 = parse_shader(&text).unwrap_or_else(|e| panic!("{}", e[0].render("p", &text)));
    assert_eq!(s, s2);
    assert_eq!(print_shader(&s2), text);
}

fn parse_ok(src: &str) -> Shader {
    parse_shader(src).unwrap_or_else(|e| panic!("{}", e[0].render("test", src)))
}

fn parse_err(src: &str) -> String {
    match parse_shader(src) {
        Ok(_) => panic!("parsed: {src}"),
        Err(e) => e[0].to_string(),
    }
}

#[test]
fn constants_of_every_spelling() {
    let cases: &[(&str, u8, u64)] = &[
        ("true", 1, 1),
        ("false", 1, 0),
        ("1", 1, 1),
        ("-1", 1, 1),
        ("0xff", 8, 0xff),
        ("-1", 8, 0xff),
        ("-128", 8, 0x80),
        ("255", 8, 255),
        ("0x0012", 16, 0x12),
        ("1.0", 16, 0x3c00),
        ("-2.5", 16, 0xc100),
        ("1.0", 32, 0x3f80_0000),
        ("-0.5e3", 32, 0xc3fa_0000),
        ("1e0", 32, 0x3f80_0000),
        ("-0.0", 32, 0x8000_0000),
        ("16777217.0", 32, 0x4b80_0000), // rounds to even: 2^24
        ("0.1", 64, 0x3fb9_9999_9999_999a),
        ("18446744073709551615", 64, u64::MAX),
        ("-9223372036854775808", 64, 0x8000_0000_0000_0000),
        ("4294967295", 32, 0xffff_ffff),
        ("-2147483648", 32, 0x8000_0000),
    ];
    for &(text, bits, want) in cases {
        assert_eq!(constant(text, bits), Ok(want), "{text} as {bits}-bit");
    }
    let errors: &[(&str, u8, &str)] = &[
        ("2", 1, "constant 2 does not fit in 1 bits"),
        ("-2", 1, "constant -2 does not fit in 1 bits"),
        ("256", 8, "constant 256 does not fit in 8 bits"),
        ("-129", 8, "constant -129 does not fit in 8 bits"),
        ("0x100", 8, "constant 0x100 does not fit in 8 bits"),
        (
            "18446744073709551616",
            64,
            "constant 18446744073709551616 does not fit in 64 bits",
        ),
        (
            "0x10000000000000000",
            64,
            "constant 0x10000000000000000 does not fit in 64 bits",
        ),
        (
            "-9223372036854775809",
            64,
            "constant -9223372036854775809 does not fit in 64 bits",
        ),
        (
            "65520.0",
            16,
            "float constant 65520.0 is out of range for 16-bit floats",
        ),
        (
            "1e39",
            32,
            "float constant 1e39 is out of range for 32-bit floats",
        ),
        (
            "1.5",
            8,
            "float constant 1.5 needs a 16-, 32- or 64-bit type, not 8-bit",
        ),
        (
            "true",
            32,
            "`true` is a 1-bit constant; a 32-bit constant needs a number",
        ),
    ];
    for &(text, bits, want) in errors {
        assert_eq!(
            constant(text, bits),
            Err(want.to_string()),
            "{text} as {bits}-bit"
        );
    }
    for bad in [
        "0x", "0xg1", "1.2.3", "1e", "e5", "inf", "nan", "1_000", "--1", "-0x1",
    ] {
        assert!(
            constant(bad, 32)
                .unwrap_err()
                .starts_with("malformed constant"),
            "{bad}"
        );
    }
    // 65519 is below the midpoint between 65504 and the overflow threshold: it rounds
    // down to the largest half.
    assert_eq!(constant("65519.0", 16), Ok(0x7bff));
}

#[test]
fn omitted_blocks_get_fresh_ids_after_the_text() {
    let s = parse_ok(
        "fn main {
  32 %0 = load_const (1)
  1 %1 = ieq %0, %0
  if %1 {
  } else {
    block b7:
  }
  if %1 {
    loop { break }
  }
}",
    );
    let f = &s.functions[0];
    // b8: the instructions; b9: then of the first if; b7: its else; b10: between the
    // ifs; b11: before the loop; b12: the loop body; b13: after the loop; b14: the
    // second else; b15: the end of the function.
    let text = print_shader(&s);
    let labels: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("block "))
        .collect();
    assert_eq!(
        labels,
        ["b8:", "b9:", "b7:", "b10:", "b11:", "b12:", "b13:", "b14:", "b15:"]
    );
    let b = |n: u32| f.block_named(n).unwrap();
    assert_eq!(f.block_insts(b(8)).count(), 2);
    assert_eq!(f.block(b(12)).jump, Some(Jump::Break));
    assert_eq!(parse_ok(&text), s);
    // One block per label and per block added, nothing for the numbers not written.
    assert_eq!(f.num_block_ids(), 9);
    assert_eq!(f.block_name(b(8)).block, b(8));
}

#[test]
fn spans_point_at_the_text() {
    let src = "shader compute\nimage @a : 1d r32_uint (binding=0)\n\nfn main {\n  block b0:\n    32 %0 = load_const (7)\n  loop {\n    block b1:\n      @image_store (@a, %0, %0) (src_type=uint32)\n      break\n  }\n  block b2:\n  if %3 {\n    block b4:\n  }\n  block b5:\n}\n";
    let s = parse_ok(src);
    assert_eq!(s.image_spans, [Span::new(2, 1)]);
    let f = &s.functions[0];
    assert_eq!(f.span, Span::new(4, 1));
    let b = |n: u32| f.block_named(n).unwrap();
    assert_eq!(f.block(b(0)).span, Span::new(5, 3));
    assert_eq!(f.block(b(1)).span, Span::new(8, 5));
    let insts = f.insts_in_order();
    assert_eq!(f.inst_span(insts[0]), Span::new(6, 5));
    assert_eq!(f.inst_span(insts[1]), Span::new(9, 7));
    let CfNode::Loop(l) = f.body()[1] else {
        panic!()
    };
    assert_eq!(f.loop_data(l).span, Span::new(7, 3));
    let CfNode::If(i) = f.body()[3] else { panic!() };
    assert_eq!(f.if_data(i).span, Span::new(13, 3));
    // The omitted else block takes the span of its `if`, and the used-but-undefined
    // %3 still has an entry in the arena (the second: the arena holds what the text
    // names, %0 and %3, not the numbers in between).
    assert_eq!(f.block(b(6)).span, Span::new(13, 3));
    let v3 = f.value_named(3).unwrap();
    assert!(f.num_value_ids() == 2 && f.value_def(v3).is_none());
}

#[test]
fn phis_may_name_later_blocks_and_values() {
    let s = parse_ok(
        "fn main {
  block b0:
    32 %0 = load_const (0)
  loop {
    block b1:
      32 %1 = phi b0: %0, b3: %2
      1 %5 = ieq %1, %0
    if %5 {
      block b2:
        break
    } else {
      block b6:
    }
    block b3:
      32 %2 = iadd %1, %0
  }
  block b4:
}",
    );
    assert_eq!(parse_ok(&print_shader(&s)), s);
    assert_eq!(
        parse_err("fn main {\n  block b0:\n    32 %1 = phi b9: %1\n}"),
        "3:17: phi source names block b9, which is not defined in fn main"
    );
}

#[test]
fn line_breaks_end_statements() {
    // Lists in parentheses may span lines; a statement may not continue after its end.
    let s = parse_ok(
        "image @i : 2d r32_uint (binding=0)\nfn main {\n  32x2 %0 = load_const (1,\n     2)\n  @image_store (@i,\n  %0, %0.x)\n    (src_type=uint32)\n}",
    );
    assert_eq!(s.functions[0].insts_in_order().len(), 2);
    assert_eq!(
        parse_err("fn main {\n  32 %0 = load_const (1) 32 %1 = undef\n}"),
        "2:26: expected the end of the line but found `32`"
    );
    assert_eq!(
        parse_err("fn main {\n  32 %0 = iadd\n  %1, %2\n}"),
        "3:3: expected a type before `%1` (instructions are written `<type> %N = ...`)"
    );
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let ok_depth = MAX_NESTING as usize;
    let nest = |n: usize| format!("fn main {{\n{}{}}}", "loop {\n".repeat(n), "}\n".repeat(n));
    let s = parse_ok(&nest(ok_depth));
    assert_eq!(parse_ok(&print_shader(&s)), s);
    assert_eq!(
        parse_err(&nest(ok_depth + 1)),
        format!(
            "{}:1: control flow is nested more than 128 levels deep",
            ok_depth + 2
        )
    );
    // Far deeper input fails at the same limit.
    assert!(parse_err(&nest(100_000)).contains("nested more than"));
}

/// Found while looking into the fuzzer's memory use: ids indexed the arenas, so an
/// input repeating `fn fN { 32 %16777215 = undef }` made the parser allocate 200 MB per
/// 40 bytes of text (2 GB for ten functions); a shader-wide budget of ids then refused
/// such text. Ids are now dense whatever the numbers written: every function of such a
/// shader costs what it holds, and the bounds are on the numbers alone.
#[test]
fn id_bounds_are_on_the_numbers_not_the_memory() {
    // Functions whose largest number is near the bound each hold one value.
    let half = (MAX_VALUE_ID / 2 - 1) as usize;
    let two = format!("fn a {{ 32 %{half} = undef }}\nfn b {{ 32 %{half} = undef }}\n");
    let shader = parse_shader(&two).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(shader.functions.len(), 2);
    let three = format!("{two}fn c {{\n  32 %0 = undef\n}}\n");
    let shader = parse_shader(&three).unwrap_or_else(|d| panic!("{d:?}"));
    let arenas: Vec<usize> = shader.functions.iter().map(|f| f.num_value_ids()).collect();
    assert_eq!(arenas, [1, 1, 1]);

    // Many functions at the largest number: one value and one block each.
    let max = MAX_VALUE_ID - 1;
    let many: String = (0..64)
        .map(|i| {
            format!(
                "fn f{i} {{ block b{}: 32 %{max} = undef }}\n",
                MAX_BLOCK_ID - 1
            )
        })
        .collect();
    let shader = parse_shader(&many).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(shader.functions.len(), 64);
    for f in &shader.functions {
        assert_eq!((f.num_value_ids(), f.num_block_ids()), (1, 1));
        let v = f.value_named(max).unwrap();
        assert_eq!(f.value_name(v).to_string(), "%16777215");
        let b = f.body()[0];
        let CfNode::Block(b) = b else { panic!() };
        assert_eq!(f.block_name(b).to_string(), "b4194303");
    }
    assert_eq!(parse_ok(&print_shader(&shader)), shader);

    // Blocks likewise.
    let last = MAX_BLOCK_ID - 2;
    let ok = format!("fn a {{ block b{last}: }}\nfn b {{ block b1: }}\n");
    let shader = parse_shader(&ok).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(shader.functions.iter().all(|f| f.num_block_ids() == 1));

    // The numbers themselves stay bounded.
    let err = &parse_shader(&format!("fn a {{ 32 %{MAX_VALUE_ID} = undef }}")).unwrap_err()[0];
    assert_eq!(
        err.message,
        "value id %16777216 is too large (value ids must be below 16777216)"
    );
    let err = &parse_shader(&format!("fn a {{ block b{MAX_BLOCK_ID}: }}")).unwrap_err()[0];
    assert_eq!(
        err.message,
        "block id b4194304 is too large (block ids must be below 4194304)"
    );
}

#[test]
fn cr_and_crlf_line_breaks_read_as_lf() {
    // A file saved with CR line breaks (classic Mac OS) or CRLF parses to the same
    // shader, with the same positions, as with LF; none of them reads as one long
    // comment line.
    let lf = parse_ok(EXAMPLE);
    let spans = |s: &Shader| -> Vec<Span> {
        let f = &s.functions[0];
        f.insts_in_order().iter().map(|&i| f.inst_span(i)).collect()
    };
    for sep in ["\r", "\r\n"] {
        let text = EXAMPLE.replace('\n', sep);
        let other = parse_ok(&text);
        assert_eq!(other, lf, "{sep:?}");
        assert_eq!(spans(&other), spans(&lf), "{sep:?}");
        assert_eq!(other.image_spans, lf.image_spans, "{sep:?}");
    }
    assert!(!lf.functions[0].insts_in_order().is_empty());
    // An error on line 5 of a CR file is reported on line 5.
    let err = parse_ok_or_diag("shader compute (local_size=1,1,1)\r// a comment\rfn main {\r  block b0:\r    32 %0 = foo\r}\r");
    assert_eq!(err.span, Span::new(5, 13), "{err:?}");
}

fn parse_ok_or_diag(src: &str) -> crate::diag::Diagnostic {
    parse_shader(src).unwrap_err().remove(0)
}

/// The shader of issue 14: its only value is `%16777215`. Printed form.
pub(crate) const LARGE_VALUE: &str = "shader compute (local_size=1,1,1)

fn main {
  block b0:
    32x3 %16777215 = @load_global_invocation_id
}
";

/// Block numbers at and near the bound, in an `if`.
pub(crate) const LARGE_BLOCKS: &str = "shader compute (local_size=4,1,1)
image @dst : 1d r32_uint (binding=0)

fn main {
  block b4194303:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000002)
    1    %2 = ult %0.x, %1
  if %2 {
    block b4194302:
      @image_store (@dst, %0.x, %1) (src_type=uint32)
  } else {
    block b3000000:
      @image_store (@dst, %0.x, %0.x) (src_type=uint32)
  }
  block b1:
}
";

/// A loop whose header phi reads `%16777214` before the text defines it, with large
/// value and block numbers in no order.
pub(crate) const LARGE_LOOP: &str = "shader compute (local_size=8,1,1)
image @dst : 1d r32_uint (binding=0)

fn main {
  block b4000000:
    32x3 %16777000 = @load_global_invocation_id
    32   %9000000 = load_const (0x00000000)
    32   %9000001 = load_const (0x00000001)
    32   %9000002 = load_const (0x00000004)
  loop {
    block b4194303:
      32   %16777215 = phi b4000000: %9000000, b7: %16777214
      1    %5 = uge %16777215, %9000002
    if %5 {
      block b3000000:
        break
    } else {
      block b12:
    }
    block b7:
      32   %16777214 = iadd %16777215, %9000001
  }
  block b1:
    32   %16776000 = iadd %16777000.x, %16777215
    @image_store (@dst, %16777000.x, %16776000) (src_type=uint32)
}
";

/// `n` functions, each with the largest value and block numbers.
pub(crate) fn large_functions(n: usize) -> String {
    let mut text = "shader compute (local_size=1,1,1)\n".to_string();
    for i in 0..n {
        text.push_str(&format!(
            "\nfn f{i} {{\n  block b4194303:\n    32   %16777215 = load_const (0x{i:08x})\n}}\n"
        ));
    }
    text
}

#[test]
fn large_numbers_cost_what_exists_and_print_back() {
    let many = large_functions(64);
    // (text, values, blocks) of each function.
    let cases: [(&str, usize, usize); 4] = [
        (LARGE_VALUE, 1, 1),
        (LARGE_BLOCKS, 3, 4),
        (LARGE_LOOP, 8, 6),
        (&many, 1, 1),
    ];
    for (text, values, blocks) in cases {
        let s = parse_ok(text);
        assert_eq!(print_shader(&s), text);
        assert_eq!(parse_ok(&print_shader(&s)), s);
        for f in &s.functions {
            assert_eq!(
                (f.num_value_ids(), f.num_block_ids()),
                (values, blocks),
                "{text}"
            );
        }
        crate::validate::check_shader(&s).unwrap_or_else(|e| panic!("{e:?}"));
    }
    // The issue's text, without the blank line the printer writes.
    let s = parse_ok(&LARGE_VALUE.replacen("\n\n", "\n", 1));
    assert_eq!(print_shader(&s), LARGE_VALUE);
    assert_eq!(s.functions[0].num_value_ids(), 1);

    // Ids follow the text's first mention: %16777214 is read by the phi before its
    // definition and is the sixth value named; b7, named by the same phi, the third
    // block.
    let s = parse_ok(LARGE_LOOP);
    let f = &s.functions[0];
    assert!(!f.names_are_ids());
    let v = f.value_named(16_777_214).unwrap();
    assert_eq!(v, Value::from_u32(5));
    assert_eq!(f.value_name(v).to_string(), "%16777214");
    let b = f.block_named(7).unwrap();
    assert_eq!(
        (b.as_u32(), f.block_name(b).to_string()),
        (2, "b7".to_string())
    );
    // Text numbered in order keeps no table.
    assert!(parse_ok(EXAMPLE).functions[0].names_are_ids());
}

#[test]
fn messages_about_large_numbers_quote_them() {
    assert_eq!(
        parse_err(&LARGE_VALUE.replace(
            "@load_global_invocation_id\n",
            "@load_global_invocation_id\n    32 %16777215 = undef\n"
        )),
        "6:8: value %16777215 is defined twice (first at 5:5)"
    );
    assert_eq!(
        parse_err(&LARGE_LOOP.replace("b7: %16777214", "b4194301: %16777214")),
        "12:48: phi source names block b4194301, which is not defined in fn main"
    );
    assert_eq!(
        parse_err(&LARGE_BLOCKS.replace("  block b1:\n", "  block b1:\n  block b4194301:\n")),
        "17:3: block b4194301 directly follows block b1; blocks must be separated by an `if` or a `loop`"
    );
    assert_eq!(
        parse_err(&LARGE_BLOCKS.replace("block b1:", "block b4194302:")),
        "16:9: block b4194302 is defined twice (first at 10:11)"
    );
}

#[test]
fn buffer_declarations_round_trip() {
    let src = "shader compute (local_size=1,1,1)
buffer @data : ssbo readonly (block=0, size=16, stride=4)
buffer @bufs[3] : ssbo (block=1, size=64)
buffer @params : ubo (block=0, size=32)

fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @get_ssbo_size (%0) (access=none)
}
";
    let s = parse_ok(src);
    assert_eq!(s.buffers.len(), 3);
    let d = &s.buffers[0];
    assert_eq!(
        (d.kind, d.block, d.count, d.size, d.stride),
        (crate::BufferKind::Ssbo, 0, None, 16, Some(4))
    );
    assert!(d.access.contains(crate::Access::NON_WRITEABLE));
    assert_eq!(s.buffers[1].count, Some(3));
    assert_eq!(s.buffers[2].kind, crate::BufferKind::Ubo);
    assert_eq!(crate::print_shader(&s), src);
    assert_eq!(
        s.buffer_for_block(crate::BufferKind::Ssbo, 3).unwrap().name,
        "bufs"
    );
    assert!(s.buffer_for_block(crate::BufferKind::Ssbo, 4).is_none());
    assert!(s.buffer_for_block(crate::BufferKind::Ubo, 1).is_none());
}

#[test]
fn bad_buffer_declarations_say_what_is_wrong() {
    for (text, want) in [
        ("buffer @b : ssbo (size=4)", "1:18: missing `block` in the declaration of buffer `@b`"),
        ("buffer @b : ssbo (block=0)", "1:18: missing `size` in the declaration of buffer `@b`"),
        ("buffer @b : sbo (block=0, size=4)", "1:13: unknown buffer kind `sbo` (expected ssbo or ubo)"),
        ("buffer @b : ssbo (block=0, size=4, stride=0)", "1:43: a runtime array's stride must be at least 1 byte"),
        ("buffer @b : ssbo sampled (block=0, size=4)", "1:18: unknown buffer access qualifier `sampled` (expected readonly, writeonly, coherent, volatile or restrict)"),
        ("buffer @b : ssbo (block=0, size=4, pitch=4)", "1:36: unknown buffer property `pitch` (expected block, size or stride)"),
        ("buffer @b : ssbo (block=0, block=1, size=4)", "1:28: `block` is given twice"),
        ("buffer @b[0] : ssbo (block=0, size=4)", "1:11: an array of buffers must hold at least one"),
        ("buffer @b : ssbo non_uniform (block=0, size=4)", "1:18: `non_uniform` qualifies one access, not a buffer: write it on the instruction, as `(access=non_uniform)`"),
        ("image @i[0] : 2d r32_uint (binding=0)", "1:10: an array of images must hold at least one"),
        ("sampler @s (binding=0)\nsampler @s (binding=1)", "2:10: sampler `@s` is declared twice (first at 1:1)"),
        ("buffer @b : ssbo (block=0, size=4)\nbuffer @b : ubo (block=0, size=4)", "2:9: buffer `@b` is declared twice (first at 1:1)"),
    ] {
        assert_eq!(parse_err(text), want, "{text}");
    }
}

#[test]
fn exact_qualifies_alu_ops_and_prints_back() {
    let text = "fn main {\n  block b0:\n    32   %0 = undef\n    32   %1 = exact fmul %0, %0\n    32   %2 = fmul %1, %0\n}\n";
    let sh = parse_ok(text);
    let f = &sh.functions[0];
    let exact: Vec<bool> = f
        .insts_in_order()
        .into_iter()
        .filter_map(|i| f.inst(i).as_alu().map(|a| a.exact))
        .collect();
    assert_eq!(exact, [true, false]);
    assert!(crate::print_shader(&sh).contains("%1 = exact fmul %0, %0\n"));
    assert_eq!(
        parse_err("fn main {\n  block b0:\n    32 %0 = exact undef\n}"),
        "3:19: expected an ALU opcode after `exact` but found `undef`"
    );
    assert_eq!(
        parse_err("fn main {\n  block b0:\n    32 %0 = exact @load_global_invocation_id\n}"),
        "3:19: expected an ALU opcode after `exact` but found `@load_global_invocation_id`"
    );
}
