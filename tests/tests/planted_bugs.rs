//! The verifier catches planted bugs: each test lowers a shader, checks that the
//! unmodified lowering verifies, then corrupts the lowered shader the way a lowering bug
//! would and checks that verification fails for the right reason, naming the
//! instruction.

use ir::function::{InstKind, IntrinsicInst};
use ir::lsc::DataShape;
use ir::{AluOp, Builder, Cursor, Function, IndexKind, Inst, IntrinsicOp, Src, Swizzle, Type};
use lowering::{Device, LowerOptions};
use verify::setup::{ImageLayout, Setup};
use verify::verifier::{lower, verify, Lowered, Mismatch, MismatchKind, Report};

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> ir::Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Lowers `text` for `platform` and builds the default setup with the lowering's
/// bindings; asserts that the unmodified lowering verifies on it.
fn lowered(text: &str, platform: &str, force_untyped: bool) -> (Lowered, Setup, Device) {
    let shader = parse(text);
    let device = Device::preset(platform).unwrap();
    let opts = LowerOptions {
        force_untyped,
        ..LowerOptions::default()
    };
    let l = lower(&shader, &device, &opts).unwrap_or_else(|e| panic!("{e}"));
    let mut setup = Setup::default_for(&l.original, &device, 11).unwrap();
    setup.bindings = l.report.bindings.clone();
    (l, setup, device)
}

fn check(l: &Lowered, setup: &Setup, device: &Device) -> Report {
    verify(&l.original, &l.lowered, device, setup).unwrap_or_else(|e| panic!("{e}"))
}

/// The report on the corrupted lowering, which must fail.
fn check_fails(l: &Lowered, setup: &Setup, device: &Device) -> Report {
    let r = check(l, setup, device);
    assert!(!r.passed(), "the corrupted lowering must not verify:\n{r}");
    r
}

/// Asserts that mismatch `m` names an instruction whose text starts with `prefix`.
fn assert_instruction(m: &Mismatch, prefix: &str) {
    let named = m
        .instruction
        .as_deref()
        .unwrap_or_else(|| panic!("no instruction: {m}"));
    assert!(named.starts_with(prefix), "{m}");
}

/// The first `op` intrinsic of `f`.
fn first_intrinsic(f: &Function, op: IntrinsicOp) -> Inst {
    f.insts_in_order()
        .into_iter()
        .find(|&i| f.inst(i).as_intrinsic().is_some_and(|x| x.op == op))
        .unwrap_or_else(|| panic!("no {op} in the lowered shader"))
}

fn assert_unmodified_passes(l: &Lowered, setup: &Setup, device: &Device) {
    let r = check(l, setup, device);
    assert!(r.passed(), "the unmodified lowering must verify:\n{r}");
}

/// The instructions of `main` in order, with their ALU op or intrinsic.
fn insts(l: &Lowered) -> Vec<Inst> {
    l.lowered.functions[0].insts_in_order()
}

fn func(l: &mut Lowered) -> &mut Function {
    &mut l.lowered.functions[0]
}

fn alu_op(f: &Function, i: Inst) -> Option<AluOp> {
    f.inst(i).as_alu().map(|a| a.op)
}

fn const_of(f: &Function, s: Src) -> Option<u64> {
    let d = f.value_def(s.value)?;
    f.inst(d)
        .as_const()
        .and_then(|c| c.get(s.swizzle.component(0) as usize).copied())
}

/// Points source `src` of ALU instruction `inst` at a new constant `bits` of `ty`,
/// placed just before it.
fn set_const_src(f: &mut Function, inst: Inst, src: usize, ty: Type, bits: &[u64]) {
    let c = Builder::new(f, Cursor::Before(inst)).load_const(ty, bits);
    match &mut f.inst_mut(inst).kind {
        InstKind::Alu(a) => a.srcs[src] = Src::new(c),
        _ => panic!("not an ALU instruction"),
    }
}

/// The one mismatch of `kind` the report lists first.
fn first(r: &Report, kind: MismatchKind) -> &Mismatch {
    r.mismatches
        .iter()
        .find(|m| m.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} mismatch in:\n{r}"))
}

/// An 8x8-workgroup copy from `@src` (`src_format`) to `@dst` (`dst_format`) of
/// texels loaded as `value` (type text) of `ty`.
fn copy_2d(src_format: &str, dst_format: &str, value: &str, ty: &str) -> String {
    format!(
        "shader compute (local_size=8,8,1)
image @src : 2d {src_format} readonly (binding=0)
image @dst : 2d {dst_format} (binding=1)
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    {value:<4} %2 = @image_load (@src, %1) (dest_type={ty})
    @image_store (@dst, %1, %2) (src_type={ty})
}}
"
    )
}

/// The r32_uint copy.
fn copy_r32() -> String {
    copy_2d("r32_uint", "r32_uint", "32", "uint32")
}

/// The line of the `image_store` of [`copy_2d`].
const STORE_LINE: u32 = 9;

#[test]
fn off_by_one_shift_in_the_texel_address() {
    let (mut l, setup, device) = lowered(&copy_r32(), "dg2", true);
    assert_unmodified_passes(&l, &setup, &device);
    // The byte column of the store's address: `ishl x', log2(cpp)` with cpp = 4.
    let target = insts(&l)
        .into_iter()
        .find(|&i| {
            let f = &l.lowered.functions[0];
            f.inst_span(i).line == STORE_LINE
                && alu_op(f, i) == Some(AluOp::Ishl)
                && const_of(f, f.inst(i).as_alu().unwrap().srcs[1]) == Some(2)
        })
        .expect("the store's cpp shift");
    set_const_src(func(&mut l), target, 1, Type::U32, &[3]);
    let r = check_fails(&l, &setup, &device);
    let m = first(&r, MismatchKind::Address);
    assert_eq!(m.span.map(|s| s.line), Some(STORE_LINE), "{m}");
    assert_instruction(m, "@image_store (@dst, %1, %2)");
    // Invocation 1 stores texel (1, 0) at byte 4; the shifted column lands on byte 8.
    let m1 = r
        .mismatches
        .iter()
        .find(|m| m.kind == MismatchKind::Address && m.invocation == Some(1))
        .unwrap_or_else(|| panic!("invocation 1 is listed:\n{r}"));
    assert!(
        m1.expected.starts_with("store: texel (1, 0) of layer"),
        "{m1}"
    );
    assert!(
        m1.actual.starts_with("store: texel (2, 0) of layer"),
        "{m1}"
    );
    // Doubled columns run off the end of the surface: either the run fails there
    // (reported with the store), or texels end up wrong.
    assert!(
        r.has(MismatchKind::ImageTexel) || r.has(MismatchKind::Execution),
        "{r}"
    );
}

const ARRAY_STORE: &str = "shader compute (local_size=8,8,1)
image @dst : 2d array r32_uint (binding=1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    @image_store (@dst, %0, %0.x) (src_type=uint32)
}
";

#[test]
fn wrong_qpitch() {
    let (mut l, setup, device) = lowered(ARRAY_STORE, "dg2", true);
    assert_unmodified_passes(&l, &setup, &device);
    // `imul z', STRIDE.w`: the layer's rows; make the shader see qpitch + 1.
    let f = &l.lowered.functions[0];
    let stride = insts(&l)
        .into_iter()
        .find(|&i| {
            f.inst(i).as_intrinsic().is_some_and(|x| {
                x.op == IntrinsicOp::ImageLoadParam && x.index(IndexKind::Base) == Some(2)
            })
        })
        .and_then(|i| f.inst(i).dest)
        .expect("the STRIDE slot is loaded");
    let user = insts(&l)
        .into_iter()
        .find(|&i| {
            f.inst(i).as_alu().is_some_and(|a| {
                a.op == AluOp::Imul
                    && a.srcs
                        .iter()
                        .any(|s| s.value == stride && s.swizzle.component(0) == 3)
            })
        })
        .expect("qpitch is multiplied by the layer");
    let f = func(&mut l);
    let k = f
        .inst(user)
        .as_alu()
        .unwrap()
        .srcs
        .iter()
        .position(|s| s.value == stride)
        .unwrap();
    let wrong = {
        let mut b = Builder::new(f, Cursor::Before(user));
        let one = b.imm_u32(1);
        b.iadd(Src::channel(stride, 3), Src::new(one))
    };
    if let InstKind::Alu(a) = &mut f.inst_mut(user).kind {
        a.srcs[k] = Src::new(wrong);
    }
    let r = check_fails(&l, &setup, &device);
    let m = first(&r, MismatchKind::Address);
    assert_instruction(m, "@image_store (@dst, %0, %0.x)");
    // Layer 0 is unaffected; the first wrong access is in a later layer, one row down.
    assert!(m.expected.contains("of layer "), "{m}");
    assert!(!m.expected.contains("of layer 0,"), "{m}");
}

#[test]
fn missing_bit6_swizzle_on_ivb() {
    let (mut l, mut setup, device) = lowered(&copy_r32(), "ivb", true);
    // Both images X-tiled with bit-6 swizzling, as an IVB kernel with swizzling sets
    // them up.
    for img in &mut setup.images {
        if let ImageLayout::Surface {
            desc, bit6_swizzle, ..
        } = &mut img.layout
        {
            desc.tiling = tiling::Tiling::X;
            *bit6_swizzle = tiling::Bit6Swizzle::Enabled;
        }
    }
    assert_unmodified_passes(&l, &setup, &device);
    // `a ^= ((a >> s0) ^ (a >> s1)) & 64` of the store: drop it (a becomes `mov a`).
    let f = &l.lowered.functions[0];
    let is_mask64 = |s: Src| {
        f.value_def(s.value).is_some_and(|d| {
            f.inst(d).as_alu().is_some_and(|a| {
                a.op == AluOp::Iand && a.srcs.iter().any(|&x| const_of(f, x) == Some(64))
            })
        })
    };
    let xor = insts(&l)
        .into_iter()
        .find(|&i| {
            f.inst_span(i).line == STORE_LINE
                && f.inst(i)
                    .as_alu()
                    .is_some_and(|a| a.op == AluOp::Ixor && a.srcs.iter().any(|&s| is_mask64(s)))
        })
        .expect("the store's swizzle XOR");
    let keep = *f
        .inst(xor)
        .as_alu()
        .unwrap()
        .srcs
        .iter()
        .find(|&&s| !is_mask64(s))
        .unwrap();
    if let InstKind::Alu(a) = &mut func(&mut l).inst_mut(xor).kind {
        a.op = AluOp::Mov;
        a.srcs = smallvec::smallvec![keep];
    }
    let r = check_fails(&l, &setup, &device);
    let m = first(&r, MismatchKind::Address);
    assert_eq!(m.span.map(|s| s.line), Some(STORE_LINE), "{m}");
    assert_instruction(m, "@image_store");
    // Bit 6 differs: the two texels are 64 bytes apart.
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
}

#[test]
fn wrong_channel_mask_on_a_typed_store() {
    let (mut l, setup, device) = lowered(
        &copy_2d("rgba32_float", "rgba32_float", "32x4", "float32"),
        "dg2",
        false,
    );
    assert_unmodified_passes(&l, &setup, &device);
    let f = func(&mut l);
    let store = first_intrinsic(f, IntrinsicOp::LscStoreQuad);
    let InstKind::Intrinsic(intr) = &mut f.inst_mut(store).kind else {
        unreachable!()
    };
    let IntrinsicInst {
        srcs, indices, op, ..
    } = &mut **intr;
    let pos = op.index_position(IndexKind::LscData).unwrap();
    let mut shape = DataShape::from_index(indices[pos]).unwrap();
    assert_eq!(shape.cmask, 0xf, "lsc_data=d32.xyzw");
    shape.cmask = 0x7;
    indices[pos] = shape.to_index();
    // The data keeps its first three channels, as the mask now says.
    srcs[4].swizzle = Swizzle::new(&[0, 1, 2]).unwrap();
    let r = check_fails(&l, &setup, &device);
    let m = first(&r, MismatchKind::ImageTexel);
    assert!(m.location.starts_with("@dst texel ("), "{m}");
    assert_instruction(m, "@image_store (@dst, %1, %2)");
    // The texel's alpha stays what the pattern put there: expected and actual differ in
    // the last channel only.
    let exp: Vec<&str> = m.expected.split(", ").collect();
    let act: Vec<&str> = m.actual.split(", ").collect();
    assert_eq!(exp.len(), 4, "{m}");
    assert_eq!(exp[1..3], act[1..3], "{m}");
    assert_ne!(exp[3], act[3], "{m}");
    // Addresses are still right.
    assert!(!r.has(MismatchKind::Address), "{r}");
}

#[test]
fn missing_bounds_check_on_an_untyped_store() {
    let (mut l, setup, device) = lowered(&copy_r32(), "dg2", true);
    assert_unmodified_passes(&l, &setup, &device);
    let f = func(&mut l);
    let store = first_intrinsic(f, IntrinsicOp::LscStore);
    let InstKind::Intrinsic(x) = &mut f.inst_mut(store).kind else {
        unreachable!()
    };
    assert!(x.predicate().is_some(), "the store is predicated");
    x.srcs.pop();
    let r = check_fails(&l, &setup, &device);
    // The grid reaches past the image: those stores were dropped by the original and
    // land somewhere in (or outside) the surface in the lowered run.
    let m = r
        .mismatches
        .iter()
        .find(|m| {
            m.kind == MismatchKind::Address
                && m.expected.starts_with("store: no access (out of bounds")
        })
        .unwrap_or_else(|| panic!("an out-of-bounds store that went through:\n{r}"));
    assert_eq!(m.span.map(|s| s.line), Some(STORE_LINE), "{m}");
    assert_instruction(m, "@image_store");
    assert!(m.actual.starts_with("store: "), "{m}");
    assert!(!m.actual.contains("no access"), "{m}");
    // Some of them overwrite texels of the image (the next row's first texels, or a
    // texel of another level): corrupted neighbours.
    assert!(
        r.has(MismatchKind::ImageTexel) || r.has(MismatchKind::Execution),
        "{r}"
    );
}

#[test]
fn wrong_colour_conversion_constant() {
    // SKL binds RGBA8_UNORM storage as R32_UINT and unpacks in the shader: each channel
    // is `u2f32(c) / 255.0` (docs/hardware/mesa-storage-images.md §4 load step 6).
    let (mut l, setup, device) = lowered(
        &copy_2d("rgba8_unorm", "rgba32_float", "32x4", "float32"),
        "skl",
        false,
    );
    assert_unmodified_passes(&l, &setup, &device);
    let f = &l.lowered.functions[0];
    let div = insts(&l)
        .into_iter()
        .find(|&i| {
            alu_op(f, i) == Some(AluOp::Fdiv)
                && const_of(f, f.inst(i).as_alu().unwrap().srcs[1]) == Some(0x437f_0000)
        })
        .expect("the division by 255.0");
    let ty = f.src_type(f.inst(div).as_alu().unwrap().srcs[1]);
    let n = ty.num_components() as usize;
    // 256.0 instead of 255.0.
    set_const_src(func(&mut l), div, 1, ty, &vec![0x4380_0000; n]);
    let r = check_fails(&l, &setup, &device);
    let m = first(&r, MismatchKind::Value);
    assert_instruction(m, "32x4 %2 = @image_load (@src, %1) (dest_type=float32)");
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
    assert!(!r.has(MismatchKind::Address), "{r}");
}

/// The SKL lowering of the RGBA8_UNORM to RGBA32_FLOAT copy of [`copy_2d`], with the
/// divisor of its shader-side conversion (`u2f32(c) / 255.0`) replaced by `divisor`
/// (the bits of a float): the report of its verification.
fn conversion_with_divisor(divisor: u32) -> Report {
    let (mut l, setup, device) = lowered(
        &copy_2d("rgba8_unorm", "rgba32_float", "32x4", "float32"),
        "skl",
        false,
    );
    assert_unmodified_passes(&l, &setup, &device);
    let f = &l.lowered.functions[0];
    let div = insts(&l)
        .into_iter()
        .find(|&i| {
            alu_op(f, i) == Some(AluOp::Fdiv)
                && const_of(f, f.inst(i).as_alu().unwrap().srcs[1]) == Some(0x437f_0000)
        })
        .expect("the division by 255.0");
    let ty = f.src_type(f.inst(div).as_alu().unwrap().srcs[1]);
    let n = ty.num_components() as usize;
    set_const_src(func(&mut l), div, 1, ty, &vec![u64::from(divisor); n]);
    check(&l, &setup, &device)
}

#[test]
fn a_conversion_within_the_division_bound_verifies() {
    // Dividing by 255.0 one ulp up errs by at most 1.5 ulp (the quotient of the wrong
    // divisor is within 2^-24 relative of the right one's, then rounded): within the
    // 2.5 ULP Vulkan's OpFDiv allows, which the verifier holds normalized loads to
    // (`ir/PRECISION.md`). It does change the loaded values: bit for bit, the copy
    // would not verify: every channel value but 0 gives another float.
    let wrong = f32::from_bits(0x437f_0001);
    let changed = (0..=255u32)
        .filter(|&c| c as f32 / wrong != c as f32 / 255.0)
        .count();
    assert_eq!(changed, 255);
    let r = conversion_with_divisor(0x437f_0001);
    assert!(r.passed(), "{r}");
    assert!(r.values > 0 && r.texels > 0, "{r}");
}

#[test]
fn a_conversion_beyond_the_division_bound_is_caught() {
    // 255.0 four ulps up: most quotients move by 3 to 4.5 ulp, beyond 2.5.
    let r = conversion_with_divisor(0x437f_0004);
    assert!(!r.passed(), "the corrupted lowering must not verify:\n{r}");
    let m = first(&r, MismatchKind::Value);
    assert_instruction(m, "32x4 %2 = @image_load (@src, %1) (dest_type=float32)");
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
    assert!(!r.has(MismatchKind::Address), "{r}");
}
