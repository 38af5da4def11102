//! The shader's constant data and `load_constant`: the text form round-trips and its
//! mistakes are refused at their line, the validator holds loads to the data, and the
//! interpreter reads the bytes at `min(base + offset, size - bytes)` (the 32-bit sum
//! wrapping), with the expected values worked out by hand from the bytes below.

use ir::interp::{Config, Env, EnvError, InterpErrorKind, Interpreter, IntrinsicCall};
use ir::{parse_shader, print_shader, validate, IntrinsicOp, Shader};

/// 16 bytes: the words 0x11223344, 0x55667788, 0x99aabbcc, 0xff00ff00, little-endian.
const DATA: &str = "constant_data (size=16) {
  0x0000: 44 33 22 11 88 77 66 55 cc bb aa 99 00 ff 00 ff
}
";

fn shader(body: &str) -> String {
    format!("shader compute (local_size=4,1,1)\n{DATA}\nfn main {{\n  block b0:\n{body}}}\n")
}

/// Serves `load_subgroup_invocation` (the lane); nothing else.
struct Lanes;

impl Env for Lanes {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        if call.intrinsic.op != IntrinsicOp::LoadSubgroupInvocation {
            return Err(EnvError::msg(format!("unexpected {}", call.intrinsic.op)));
        }
        for lane in 0..4 {
            call.set_dest(lane, &[lane as u64]);
        }
        Ok(())
    }
}

/// Runs four lanes of `text`'s `main`; returns the value numbered `n` in each lane.
fn run(text: &str, values: &[u32]) -> Vec<Vec<Vec<u64>>> {
    let s = parse_shader(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    validate(&s).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let f = &s.functions[0];
    let mut interp = Interpreter::new(&s, f, Config::default());
    interp.run(&[0, 1, 2, 3], &mut Lanes).unwrap();
    values
        .iter()
        .map(|&n| {
            let v = (0..f.num_value_ids())
                .map(|i| ir::Value::from_u32(i as u32))
                .find(|v| f.value_name(*v).number == n)
                .expect("value");
            (0..4)
                .map(|l| interp.value(v, l).unwrap().to_vec())
                .collect()
        })
        .collect()
}

#[test]
fn loads_read_the_bytes_clamped_to_the_data() {
    let text = shader(
        "    32   %0 = @load_subgroup_invocation
    32   %1 = load_const (4)
    32   %2 = imul %0, %1
    32   %3 = @load_constant (%2) (base=0, range=16)
    32   %4 = @load_constant (%2) (base=4, range=12)
    32x2 %5 = @load_constant (%2) (base=0, range=16)
    32   %6 = load_const (2)
    32   %7 = imul %0, %6
    16   %8 = @load_constant (%7) (base=0, range=8)
    32   %9 = load_const (8)
    32   %10 = imul %0, %9
    64   %11 = @load_constant (%10) (base=0, range=16)
    32   %12 = load_const (0xfffffffc)
    32   %13 = @load_constant (%12) (base=4, range=12)
    8x4  %14 = @load_constant (%0) (base=12, range=4)
",
    );
    let v = run(&text, &[3, 4, 5, 8, 11, 13, 14]);
    let w = [0x11223344u64, 0x55667788, 0x99aabbcc, 0xff00ff00];
    // Offsets 0, 4, 8, 12 from base 0: each word.
    assert_eq!(v[0], w.map(|x| vec![x]).to_vec());
    // From base 4: bytes 4, 8, 12, then 16, clamped to 12 (the last whole word).
    assert_eq!(v[1], [w[1], w[2], w[3], w[3]].map(|x| vec![x]).to_vec());
    // Two words at 0, 4, 8, then 12 clamped to 8.
    assert_eq!(
        v[2],
        vec![
            vec![w[0], w[1]],
            vec![w[1], w[2]],
            vec![w[2], w[3]],
            vec![w[2], w[3]]
        ]
    );
    // Halves at bytes 0, 2, 4, 6.
    assert_eq!(
        v[3],
        [0x3344u64, 0x1122, 0x7788, 0x5566]
            .map(|x| vec![x])
            .to_vec()
    );
    // A 64-bit word at 0, then 8 (and 16, 24 clamped to 8).
    let (q0, q1) = (0x5566_7788_1122_3344u64, 0xff00_ff00_99aa_bbccu64);
    assert_eq!(v[4], [q0, q1, q1, q1].map(|x| vec![x]).to_vec());
    // 4 + 0xfffffffc wraps to byte 0, as a 32-bit add does.
    assert_eq!(v[5], vec![vec![w[0]]; 4]);
    // Bytes 12 + lane, 4 of them, clamped to 12: every lane reads 00 ff 00 ff.
    assert_eq!(v[6], vec![vec![0x00, 0xff, 0x00, 0xff]; 4]);
}

#[test]
fn an_unaligned_address_is_an_error_of_its_lane() {
    let text = shader(
        "    32   %0 = @load_subgroup_invocation
    32   %1 = load_const (2)
    32   %2 = imul %0, %1
    32   %3 = @load_constant (%2) (base=0, range=16)
",
    );
    let s = parse_shader(&text).unwrap();
    validate(&s).unwrap();
    let mut interp = Interpreter::new(&s, &s.functions[0], Config::default());
    let e = interp.run(&[0, 1, 2, 3], &mut Lanes).unwrap_err();
    // Lane 1 reads at byte 2 (the load is on line 11).
    assert_eq!(e.lane, Some(1));
    assert!(
        matches!(e.kind, InterpErrorKind::ConstantData { .. }),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "11:5: `@load_constant`: lane 1: constant data read at byte 2, which is not a multiple of its 4-byte components"
    );
}

#[test]
fn the_text_round_trips() {
    let mut s = Shader::new([1, 1, 1]);
    s.constant_data = (0u8..37).map(|b| b.wrapping_mul(7)).collect();
    let text = print_shader(&s);
    assert!(
        text.contains("constant_data (size=37) {\n  0x0000: 00 07 0e 15"),
        "{text}"
    );
    assert!(text.contains("\n  0x0020: e0 e7 ee f5 fc\n}\n"), "{text}");
    let back = parse_shader(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(print_shader(&back), text);
    // Without data there is no block.
    assert!(!print_shader(&Shader::new([1, 1, 1])).contains("constant_data"));
}

#[track_caller]
fn refused(text: &str, want: &str) {
    match parse_shader(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(d) => assert_eq!(d[0].to_string(), want),
    }
}

#[test]
fn malformed_data_is_refused_at_its_line() {
    refused(
        "constant_data (size=2) {\n  0x0000: 01 02 03\n}\n",
        "2:17: more bytes than the 2 that `size` gives",
    );
    refused(
        "constant_data (size=3) {\n  0x0000: 01 02\n}\n",
        "1:24: the constant data holds 2 bytes, but `size` gives 3",
    );
    refused(
        "constant_data (size=3) {\n  0x0000: 01\n  0x0002: 02 03\n}\n",
        "3:3: this line starts at byte 0x2, but 0x1 bytes come before it",
    );
    refused(
        "constant_data (size=2) {\n  0x0000: 01 2\n}\n",
        "2:14: `2` is not a byte (two hex digits)",
    );
    refused(
        "constant_data (size=1) {\n  0x0000:\n}\n",
        "2:3: a line of constant data without bytes",
    );
    refused(
        "constant_data (length=1) {\n}\n",
        "1:16: expected `size` but found `length`",
    );
    refused(
        "constant_data (size=1) {\n  0x0000: 01\n}\nconstant_data (size=1) {\n  0x0000: 01\n}\n",
        "4:1: `constant_data` is given twice (first at 1:1)",
    );
}

#[track_caller]
fn invalid(body: &str, want: &str) {
    let text = shader(body);
    let s = parse_shader(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let errs = validate(&s).expect_err("accepted");
    let msgs: Vec<String> = errs.iter().map(|d| d.to_string()).collect();
    assert!(msgs.iter().any(|m| m == want), "{msgs:#?}");
}

#[test]
fn the_validator_holds_loads_to_the_data() {
    let zero = "    32   %0 = load_const (0)\n";
    invalid(
        &format!("{zero}    32   %1 = @load_constant (%0) (base=8, range=12)\n"),
        "9:5: `@load_constant`: bytes 8..20 (base 8, range 12) of 4-byte reads are not inside the shader's 16 bytes of constant data",
    );
    invalid(
        &format!("{zero}    32x4 %1 = @load_constant (%0) (base=0, range=8)\n"),
        "9:5: `@load_constant`: bytes 0..8 (base 0, range 8) of 16-byte reads are not inside the shader's 16 bytes of constant data",
    );
    invalid(
        &format!("{zero}    32   %1 = @load_constant (%0) (base=2, range=8)\n"),
        "9:5: `@load_constant`: base 2 is not a multiple of the 4-byte components it reads",
    );
    invalid(
        &format!("{zero}    1    %1 = @load_constant (%0) (base=0, range=4)\n"),
        "9:5: `@load_constant`: booleans have no bytes in constant data; read 32-bit values and compare them",
    );
    invalid(
        "    16   %0 = load_const (0)\n    32   %1 = @load_constant (%0) (base=0, range=4)\n",
        "9:5: `@load_constant`: source `offset` is 16-bit, expected 32-bit",
    );
}
