//! The vISA interpreter on malformed input: mutated kernels are read, laid out and run
//! (with a small instruction budget) without a panic; each step either succeeds or
//! returns an error with a line. `QC_TESTS` scales the number of cases.

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use verify::visa::program::Program;
use verify::visa::reader::read;
use verify::visa::run::{NoMemory, RunConfig, Stop, Thread, ThreadInit};

/// Valid kernels covering the reader's and interpreter's features.
const BASES: [&str; 3] = [
    r#".version 4.1
.kernel "a"
.decl L v_type=G type=w num_elts=16
.decl I v_type=G type=d num_elts=16
.decl S v_type=G type=d num_elts=16
.decl U v_type=G type=ud num_elts=16 alias=<S, 0>
.decl F v_type=G type=f num_elts=16
.decl H v_type=G type=hf num_elts=16
.decl Q v_type=G type=uq num_elts=16
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.input L offset=32 size=32
.kernel_attr SimdSize=16
.function "main"
main:
    mov (M1, 8) I(0,0)<1> 0x76543210:v
    add (M1, 8) I(0,8)<1> I(0,0)<1;1,0> 8:d
    mov (M1, 16) S(0,0)<1> 0:d
LOOP:
    cmp.eq (M1, 16) P2 S(0,0)<1;1,0> I(0,0)<1;1,0>
    (P2) goto (M1, 16) END
    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 1:d
    shl (M1, 16) U(0,0)<1> U(0,0)<1;1,0> 0:ud
    mov (M1, 16) F(0,0)<1> S(0,0)<1;1,0>
    mad (M1, 16) F(0,0)<1> F(0,0)<1;1,0> 0.5:f (-)F(0,0)<1;1,0>
    mov (M1, 16) H(0,0)<1> F(0,0)<1;1,0>
    mul (M1, 16) Q(0,0)<1> S(0,0)<1;1,0> 0x10:d
    bfe (M1, 16) U(0,0)<1> 4:ud 2:ud U(0,0)<1;1,0>
    goto (M1, 16) LOOP
END:
    setp (M1_NM, 16) P1 0xff00:uw
    (P1) sel (M1, 16) S(0,0)<1> 1:d 2:d
    (!P1.any) ret (M1, 16)
    ret (M1, 1)
"#,
    r#".version 4.1
.kernel "b"
.decl A v_type=G type=ud num_elts=32
.decl B v_type=G type=ud num_elts=32 align=GRF
.decl D v_type=G type=df num_elts=4
.decl P1 v_type=P num_elts=32
.decl T6 v_type=T num_elts=1
.input T6 offset=64 size=4
.kernel_attr SimdSize=32
.function "main"
main:
    mov (M1, 16) A(0,0)<1> %group_id_x(0,0)<0;1,0>
    mov (M5, 16) A(2,0)<1> %group_id_y(0,0)<0;1,0>
    cmp.gt (M1_NM, 16) P1 A(0,0)<1;1,0> 3:ud
    cmp.gt (M5_NM, 16) P1 A(2,0)<1;1,0> 3:ud
    (P1) goto (M1, 32) L2
    addc (M1, 16) A(0,0)<1> B(0,0)<1> A(0,0)<1;1,0> 0xffffffff:ud
    add (M1_NM, 4) D(0,0)<1> D(0,0)<1;1,0> 1.0:df
    jmp (M1, 1) L2
L2:
    bfn.x96 (M1, 16) B(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0> 0x1:ud
    lsc_fence.ugm.none.group
    barrier
    ret (M1, 1)
"#,
    r#".version 4.1
.kernel "c"
.decl V v_type=G type=ud num_elts=32
.decl W v_type=G type=ud num_elts=64
.decl P1 v_type=P num_elts=16
.decl T6 v_type=T num_elts=1
.kernel_attr SimdSize=16
.function "main"
main:
    (P1) lsc_load.ugm.ca.ca (M1, 16) W:d32x4 flat[V+0x10]:a64
    lsc_store.slm (M1, 16) flat[0x4*V-0x10]:a32 W:d32
    lsc_atomic_iadd.ugm (M1, 16) %null:d32 flat[V]:a32 W %null
    lsc_load_quad.tgm (M1, 16) W:d32.xyzw bti(T6)[V,V]:a32
    load_lz.RGBA (M1, 16) 0x0:uw T6 W.0 V.0 V.0
    lsc_load_block2d.ugm (M1_NM, 1) W:d8.2x16x4nn flat[V,V(0,1),V(0,2),V(0,3),0x0,0x0]
    ret (M1, 1)
"#,
];

const ALPHABET: &[u8] = b" \t\n()<>;,.:[]{}+-*/%&|^~!=\"0123456789abcdefxMNP_VT%lsc";

/// Up to twelve edits of one of the base kernels.
#[derive(Clone, Debug)]
struct Mutated(String);

fn line_bounds(text: &[u8], at: usize) -> (usize, usize) {
    let start = text[..at]
        .iter()
        .rposition(|c| *c == b'\n')
        .map_or(0, |p| p + 1);
    let end = text[at..]
        .iter()
        .position(|c| *c == b'\n')
        .map_or(text.len(), |p| at + p + 1);
    (start, end)
}

impl Arbitrary for Mutated {
    fn arbitrary(g: &mut Gen) -> Mutated {
        let base = BASES[usize::arbitrary(g) % BASES.len()];
        let mut text: Vec<u8> = base.as_bytes().to_vec();
        let edits = 1 + usize::arbitrary(g) % 12;
        for _ in 0..edits {
            if text.is_empty() {
                break;
            }
            let at = usize::arbitrary(g) % text.len();
            let byte = ALPHABET[usize::arbitrary(g) % ALPHABET.len()];
            match u8::arbitrary(g) % 6 {
                0 => text[at] = byte,
                1 => {
                    text.remove(at);
                }
                2 => text.insert(at, byte),
                3 => {
                    // A number: large values stress the checks.
                    let n = [
                        0u64,
                        1,
                        7,
                        31,
                        32,
                        33,
                        255,
                        4096,
                        65536,
                        u64::from(u32::MAX),
                        u64::MAX,
                    ][usize::arbitrary(g) % 11];
                    let s = n.to_string();
                    text.splice(at..at, s.bytes());
                }
                4 => {
                    let (start, end) = line_bounds(&text, at);
                    let line: Vec<u8> = text[start..end].to_vec();
                    text.splice(end..end, line);
                }
                _ => {
                    let (start, end) = line_bounds(&text, at);
                    text.drain(start..end);
                }
            }
        }
        Mutated(String::from_utf8_lossy(&text).into_owned())
    }
}

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn exercise(text: &str) -> TestResult {
    let Ok(listing) = read(text) else {
        return TestResult::passed();
    };
    let config = RunConfig {
        max_instructions: 2000,
        ..RunConfig::default()
    };
    for grf in [32, 64] {
        let Ok(program) = Program::new(&listing, grf, 1 << 20) else {
            continue;
        };
        let payload = vec![7u8; 256];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xffff,
            hw_id: 0,
        };
        if let Ok(mut t) = Thread::new(&program, &init, &config) {
            // Errors are fine; a thread stopped at a barrier runs on.
            for _ in 0..4 {
                match t.run(&program, &mut NoMemory, &config) {
                    Ok(Stop::Barrier) => continue,
                    Ok(Stop::Done) | Err(_) => break,
                }
            }
        }
    }
    TestResult::passed()
}

#[test]
fn the_base_kernels_read_and_lay_out() {
    // The third has a 2D block message, which needs 64-byte registers.
    for (base, grf) in BASES.iter().zip([32, 32, 64]) {
        let listing = read(base).unwrap_or_else(|e| panic!("{e}"));
        Program::new(&listing, grf, 1 << 20).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn mutated_kernels_never_panic() {
    fn prop(m: Mutated) -> TestResult {
        exercise(&m.0)
    }
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(100, 0x715a_b0b5))
        .tests(cases(3000))
        .max_tests(cases(3000))
        .quickcheck(prop as fn(Mutated) -> TestResult);
}
