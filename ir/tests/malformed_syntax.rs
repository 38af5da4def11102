//! Parse errors: each malformed input is refused with one diagnostic whose position and
//! message are checked exactly (positions counted by hand: 1-based line and character
//! column of the offending token), and no input, however broken, makes the parser
//! panic.

use ir::parse_shader;

/// A shader prefix with images `@src` (2d rgba8_unorm) and `@dst` (2d r32_uint), so
/// function bodies start on line 4.
const IMAGES: &str = "shader compute (local_size=8,8,1)
image @src : 2d rgba8_unorm readonly (binding=0)
image @dst : 2d r32_uint (binding=1)
";

/// Wraps body lines (each without indentation) in `fn main { block b0: ... }`:
/// line 4 is `fn main {`, line 5 `  block b0:`, body line i is line 6 + i, indented by
/// four blanks so that its first character is in column 5.
fn body(lines: &[&str]) -> String {
    let mut s = String::from(IMAGES);
    s.push_str("fn main {\n  block b0:\n");
    for l in lines {
        s.push_str("    ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("}\n");
    s
}

#[track_caller]
fn fails(src: &str, want: &str) {
    match parse_shader(src) {
        Ok(s) => panic!("accepted:\n{src}\nas\n{s}"),
        Err(diags) => {
            assert_eq!(diags.len(), 1, "{diags:?}");
            let d = &diags[0];
            assert_eq!(d.to_string(), want, "\n{}", d.render("input", src));
            // The rendering shows the line and puts the caret under the column.
            let r = d.render("input", src);
            let line = src.lines().nth(d.span.line as usize - 1).unwrap_or("");
            assert!(r.contains(&format!("{} | {line}\n", d.span.line)), "{r}");
            let caret_line = r.lines().last().unwrap_or("");
            let caret_col = caret_line.chars().position(|c| c == '^').unwrap_or(0);
            let bar = caret_line.find('|').unwrap_or(0);
            assert_eq!(caret_col - bar - 1, d.span.col as usize, "{r}");
        }
    }
}

#[test]
fn unknown_alu_opcode() {
    fails(
        &body(&["32 %0 = load_const (1)", "32 %1 = fadd3 %0, %0"]),
        "7:13: unknown ALU opcode `fadd3`",
    );
}

#[test]
fn intrinsic_written_as_alu_op() {
    fails(
        &body(&["32x2 %0 = load_const (1, 2)", "32 %1 = image_load %0"]),
        "7:13: unknown ALU opcode `image_load` (intrinsics are written `@image_load`)",
    );
}

#[test]
fn unknown_intrinsic() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_lod (@src, %0)",
        ]),
        "7:15: unknown intrinsic `@image_lod`",
    );
}

#[test]
fn value_defined_twice() {
    fails(
        &body(&["32 %3 = load_const (1)", "32 %3 = load_const (2)"]),
        "7:8: value %3 is defined twice (first at 6:5)",
    );
}

#[test]
fn bad_bit_size() {
    fails(
        &body(&["7 %0 = undef"]),
        "6:5: bit size 7 is not one of 1, 8, 16, 32, 64",
    );
}

#[test]
fn bad_component_count() {
    fails(
        &body(&["32x5 %0 = undef"]),
        "6:5: component count 5 is not one of 1, 2, 3, 4, 8, 16",
    );
}

#[test]
fn malformed_type() {
    fails(
        &body(&["32y4 %0 = undef"]),
        "6:5: malformed type `32y4` (expected `<bits>` or `<bits>x<components>`, as `32` or `32x4`)",
    );
}

#[test]
fn unknown_image() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@nope, %0) (dest_type=float32)",
        ]),
        "7:28: unknown image `@nope`",
    );
}

#[test]
fn constant_too_wide() {
    fails(
        &body(&["8 %0 = load_const (300)"]),
        "6:24: constant 300 does not fit in 8 bits",
    );
}

#[test]
fn float_constant_in_8_bits() {
    fails(
        &body(&["8x2 %0 = load_const (1, 2.5)"]),
        "6:29: float constant 2.5 needs a 16-, 32- or 64-bit type, not 8-bit",
    );
}

#[test]
fn malformed_constant() {
    fails(
        &body(&["32 %0 = load_const (0xZZ)"]),
        "6:25: malformed constant `0xZZ` (expected hex `0x..`, a decimal or float number, `true` or `false`)",
    );
}

#[test]
fn expected_a_value() {
    fails(
        &body(&["32 %0 = load_const (1)", "32 %1 = iadd %0, foo"]),
        "7:22: expected a value (`%N`) but found `foo`",
    );
}

#[test]
fn missing_index() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@src, %0)",
        ]),
        "7:15: missing index `dest_type` for @image_load",
    );
}

#[test]
fn unknown_index() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@src, %0) (dest_typ=float32)",
        ]),
        "7:39: unknown index `dest_typ`",
    );
}

#[test]
fn index_of_another_intrinsic() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@src, %0) (dest_type=float32, base=2)",
        ]),
        "7:58: @image_load has no index `base` (its indices are image_dim, image_array, format, access, dest_type)",
    );
}

#[test]
fn invalid_index_value() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@src, %0) (dest_type=flaot32)",
        ]),
        "7:49: invalid value `flaot32` for index `dest_type` (expected an ALU type such as float32, uint32, int16 or bool1)",
    );
}

#[test]
fn index_given_twice() {
    fails(
        &body(&[
            "32x2 %0 = load_const (1, 2)",
            "32x4 %1 = @image_load (@src, %0) (dest_type=float32, dest_type=uint32)",
        ]),
        "7:58: index `dest_type` is given twice",
    );
}

#[test]
fn bad_swizzle_letter() {
    fails(
        &body(&["32x4 %0 = undef", "32 %1 = mov %0.q"]),
        "7:19: invalid swizzle `.q`: `q` is not a component (expected letters from `xyzw` or `a` to `p`)",
    );
}

#[test]
fn swizzle_too_long() {
    fails(
        &body(&["32x16 %0 = undef", "32x16 %1 = mov %0.xxxxxxxxxxxxxxxxx"]),
        "7:22: swizzle `.xxxxxxxxxxxxxxxxx` selects 17 components; at most 16 are allowed",
    );
}

#[test]
fn unterminated_function() {
    fails(
        "fn main {\n  block b0:\n    32 %0 = undef\n",
        "4:1: expected `}` to close the `{` at 1:9 but found end of input",
    );
}

#[test]
fn unterminated_if() {
    fails(
        "fn main {\n  block b0:\n    1 %0 = undef\n  if %0 {\n    block b1:\n}\n",
        "7:1: expected `}` to close the `{` at 1:9 but found end of input",
    );
}

#[test]
fn unknown_tiling() {
    fails(
        "image @a : 2d r32_uint (binding=0, layout={tiling=z, row_pitch=64})\n",
        "1:51: unknown tiling `z` (expected linear, x, y, 4 or 64)",
    );
}

#[test]
fn layout_without_row_pitch() {
    fails(
        "image @a : 2d r32_uint (binding=0, layout={tiling=y})\n",
        "1:43: missing `row_pitch` in the layout",
    );
}

#[test]
fn image_without_binding() {
    fails(
        "image @a : 2d r32_uint (layout={tiling=y, row_pitch=512})\n",
        "1:24: missing `binding` in the declaration of image `@a`",
    );
}

#[test]
fn unknown_format_dimension_and_access() {
    fails(
        "image @a : 2d rgba9_unorm (binding=0)\n",
        "1:15: unknown image format `rgba9_unorm` (expected a format such as rgba8_unorm or r32_uint, or unknown)",
    );
    fails(
        "image @a : 4d r32_uint (binding=0)\n",
        "1:12: unknown image dimension `4d` (expected 1d, 2d, 3d, cube or buffer)",
    );
    fails(
        "image @a : 2d r32_uint readable (binding=0)\n",
        "1:24: unknown access qualifier `readable` (expected readonly, writeonly, coherent, volatile, restrict or sampled)",
    );
}

#[test]
fn image_declared_twice() {
    fails(
        &format!("{IMAGES}image @src : 1d r32_uint (binding=5)\n"),
        "4:8: image `@src` is declared twice (first at 2:1)",
    );
}

#[test]
fn block_defined_twice() {
    fails(
        "fn main {\n  block b0:\n    1 %0 = undef\n  if %0 {\n    block b0:\n  }\n}\n",
        "5:11: block b0 is defined twice (first at 2:9)",
    );
}

#[test]
fn blocks_in_a_row() {
    fails(
        "fn main {\n  block b0:\n  block b1:\n}\n",
        "3:3: block b1 directly follows block b0; blocks must be separated by an `if` or a `loop`",
    );
}

#[test]
fn break_outside_loop() {
    fails(
        &body(&["break"]),
        "6:5: `break` is only allowed inside a `loop`",
    );
}

#[test]
fn instruction_after_jump() {
    fails(
        "fn main {\n  loop {\n    block b1:\n      continue\n      32 %0 = undef\n  }\n}\n",
        "5:7: `continue` must be the last line of its block; start a new block (`block bN:`) or close the list with `}`",
    );
}

#[test]
fn phi_names_unknown_block() {
    fails(
        &body(&["32 %0 = undef", "32 %1 = phi b0: %0, b7: %0"]),
        "7:25: phi source names block b7, which is not defined in fn main",
    );
}

#[test]
fn ids_too_large() {
    fails(
        &body(&["32 %4294967295 = undef"]),
        "6:8: value id %4294967295 is too large (value ids must be below 16777216)",
    );
    fails(
        "fn main {\n  block b99999999999999999999999:\n}\n",
        "2:9: block id b99999999999999999999999 is too large (block ids must be below 4194304)",
    );
}

#[test]
fn statement_runs_past_its_line() {
    fails(
        &body(&["32 %0 = undef", "32 %1 = iadd %0, %0 %0"]),
        "7:25: expected the end of the line but found `%0`",
    );
}

#[test]
fn missing_type() {
    fails(
        &body(&["%1 = undef"]),
        "6:5: expected a type before `%1` (instructions are written `<type> %N = ...`)",
    );
}

#[test]
fn predicate_on_image_intrinsic() {
    fails(
        &body(&[
            "1 %0 = undef",
            "32x2 %1 = undef",
            "32x4 %2 = @image_load (@src, %1) (dest_type=float32) if %0",
        ]),
        "8:58: @image_load cannot be predicated (`if %p` is for message intrinsics)",
    );
}

#[test]
fn image_operand_missing_or_unexpected() {
    fails(
        &body(&[
            "32x2 %1 = undef",
            "32x4 %2 = @image_load (%1) (dest_type=float32)",
        ]),
        "7:15: @image_load needs an image operand: `@image_load (@image, ...)`",
    );
    fails(
        &body(&["32x3 %0 = @load_global_invocation_id (@src)"]),
        "6:43: @load_global_invocation_id takes no image operand",
    );
    fails(
        &body(&[
            "32x2 %1 = undef",
            "32x4 %2 = @image_load (%1, @src) (dest_type=float32)",
        ]),
        "7:32: the image operand must come first, and only once",
    );
}

#[test]
fn top_level_garbage_and_header() {
    fails(
        "func main {\n}\n",
        "1:1: expected `shader`, `image`, `buffer`, `sampler`, `constant_data` or `fn` but found `func`",
    );
    fails(
        "shader vertex\n",
        "1:8: unknown shader stage `vertex` (expected `compute`)",
    );
    fails(
        "shader compute (local_size=8,0,1)\n",
        "1:30: a workgroup dimension must be at least 1",
    );
    fails(
        "shader compute (local_size=4294967296,1,1)\n",
        "1:28: number 4294967296 does not fit in 32 bits",
    );
}

#[test]
fn else_without_brace() {
    fails(
        "fn main {\n  block b0:\n    1 %0 = undef\n  if %0 {\n    block b1:\n  } else block b2:\n}\n",
        "6:10: expected `{` after `else` but found `block`",
    );
}

#[test]
fn unicode_is_reported_by_character_column() {
    fails(
        &body(&["32 %0 = undef é"]),
        "6:19: expected the end of the line but found `é`",
    );
    // A comment may hold anything; the error on the next line still counts characters.
    fails(
        "// ünïcödé ✓\nfn mäin {\n}\n",
        "2:5: expected `{` but found `ä`",
    );
}

#[test]
fn function_defined_twice() {
    fails(
        "fn main {\n}\nfn main {\n}\n",
        "3:4: function `main` is defined twice (first at 1:1)",
    );
}

/// A text using every construct: images of every kind, intrinsics with and without
/// images, indices, predicates, constants of every width, phis, nested control flow.
const RICH: &str = "// comment
shader compute (local_size=8,8,1)
image @src : 2d rgba8_unorm readonly (binding=0)
image @arr : 2d array r32_uint coherent (binding=2)
image @imgs[4] : 2d r32_float (binding=4)
image @dst : 2d r32_uint (binding=1, layout={tiling=y, row_pitch=4096, qpitch=772, swizzle=true})

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32x4 %2 = @image_load (@src, %1) (dest_type=float32)
    32   %3 = f2u32 %2.x
    @image_store (@dst, %1, %3) (src_type=uint32)
    16x2 %4 = load_const (1.5, -0x1)
    64   %5 = load_const (-0.5e3)
    1    %6 = ult %3, %3
    32x8 %7 = undef
    32   %8 = @image_load (@imgs[%7.h], %1) (dest_type=float32)
  if %6 {
    block b1:
      32   %9 = iadd %3, %3
  } else {
    block b2:
  }
  block b3:
    32   %10 = phi b1: %9, b2: %3
  loop {
    block b4:
      break
  }
  block b5:
    32x4 %11 = @lsc_load_quad (@src, %3, %3, %3, %3) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xyzw) if %6
}
";

/// Parsing must return, with a shader or an error, never panic.
fn must_not_panic(src: &str) {
    let r = std::panic::catch_unwind(|| {
        if let Err(d) = parse_shader(src) {
            assert!(!d.is_empty());
            // Rendering must not panic either, whatever the span.
            let _ = ir::diag::render_all(&d, "fuzz", src);
        }
    });
    assert!(r.is_ok(), "parser panicked on:\n{src:?}");
}

#[test]
fn rich_text_parses() {
    // Negative hex is not part of the syntax: the fixture is valid once `-0x1` is
    // spelled `-1`.
    let fixed = RICH.replace("-0x1", "-1");
    parse_shader(&fixed).unwrap_or_else(|d| panic!("{}", ir::diag::render_all(&d, "rich", &fixed)));
    fails(RICH, "15:32: malformed constant `-0x1` (expected hex `0x..`, a decimal or float number, `true` or `false`)");
}

#[test]
fn every_truncation_returns() {
    let fixed = RICH.replace("-0x1", "-1");
    for (i, _) in fixed.char_indices() {
        must_not_panic(&fixed[..i]);
    }
}

#[test]
fn random_mutations_return() {
    // A fixed-seed xorshift: replace, insert or delete a few characters, drawn from the
    // syntax's own punctuation, digits, letters and some non-ASCII.
    let alphabet: Vec<char> = "{}()[]%@.,:=|-+x0123456789abpqz \n\t/éλ✓\u{0}"
        .chars()
        .collect();
    let base: Vec<char> = RICH.replace("-0x1", "-1").chars().collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let mut text = base.clone();
        for _ in 0..1 + next() % 4 {
            let pos = (next() % text.len() as u64) as usize;
            let c = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 3 {
                0 => text[pos] = c,
                1 => text.insert(pos, c),
                _ => {
                    text.remove(pos);
                }
            }
        }
        let s: String = text.into_iter().collect();
        must_not_panic(&s);
    }
}

#[test]
fn pathological_inputs_return() {
    let huge = "9".repeat(10_000);
    let cases = [
        String::new(),
        "// only a comment".to_string(),
        "\u{feff}fn main {}".to_string(),
        "fn".to_string(),
        "fn main".to_string(),
        "fn main {".to_string(),
        "fn main { block".to_string(),
        "fn main { block b".to_string(),
        "fn main { block b0".to_string(),
        "fn main { 32".to_string(),
        "fn main { 32 %".to_string(),
        "fn main { 32 %0".to_string(),
        "fn main { 32 %0 =".to_string(),
        "fn main { 32 %0 = load_const (".to_string(),
        "fn main { 32 %0 = load_const (1,".to_string(),
        "fn main { 32 %0 = @".to_string(),
        "fn main { 32 %0 = @image_load (".to_string(),
        "fn main { 32 %0 = @image_load (@".to_string(),
        "fn main { 32 %0 = @lsc_load (%1) (lsc_sfid=".to_string(),
        "fn main { 32 %0 = @lsc_load (%1) (lsc_sfid=ugm) if".to_string(),
        "fn main { 32 %0 = mov %1.".to_string(),
        "fn main { 32 %0 = phi b".to_string(),
        "image @a : 2d r32_uint (binding=0, layout={".to_string(),
        format!("fn main {{ 32 %{huge} = undef }}"),
        format!("fn main {{ block b{huge}: }}"),
        format!("fn main {{ 32 %0 = load_const ({huge}) }}"),
        format!("fn main {{ 32 %0 = load_const ({huge}.5e{huge}) }}"),
        format!("fn main {{ 32 %0 = load_const (0x{huge}) }}"),
        format!("image @a[{huge}] : 2d r32_uint (binding=0)"),
        format!("fn main {{ 32 %0 = mov %1.{} }}", "x".repeat(100_000)),
        format!("fn main {{ {} }}", "if %0 { ".repeat(50_000)),
        format!("fn main {{ {} }}", "} else { ".repeat(1_000)),
        format!("fn main {{ 32 %0 = iadd {} }}", "%1, ".repeat(10_000)),
        "(".repeat(100_000),
        "{".repeat(100_000),
        "fn main { loop { 32 %0 = undef } }".to_string(),
        "fn main { 64x16 %16777215 = undef }".to_string(),
    ];
    for c in &cases {
        must_not_panic(c);
    }
}
