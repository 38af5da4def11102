//! The core ALU instructions as NIR ALU ops (Mesa's `vtn_alu.c`): arithmetic,
//! conversions, bit operations, comparisons and logic on scalars and vectors.
//!
//! The same code serves function bodies and `OpSpecConstantOp`: it emits into a
//! [`Builder`], and specialization evaluates what it emitted on constants (see
//! [`super::spec`]), as Mesa's `vtn_handle_constant` evaluates NIR opcodes.
//!
//! SPIR-V leaves division by zero, out-of-range shifts and out-of-range conversions
//! undefined; the IR's ops give 0 for a zero divisor, mask shift counts and saturate
//! float-to-integer conversions, which are valid choices.

use super::types::{Ty, Types};
use super::value::{select, Val};
use ir::builder::alu_dest_type;
use ir::{AluOp, Builder, Src, Type};
use spirv::Op;

/// Why an instruction cannot be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AluError {
    /// The IR has no operation for it: the message says what and why.
    Unsupported(String),
    /// The operands do not fit the instruction (an invalid module).
    Invalid(String),
}

/// One operand: its source and its SPIR-V type.
#[derive(Copy, Clone, Debug)]
pub struct Operand {
    /// The value.
    pub src: Src,
    /// Its type id.
    pub ty: u32,
}

/// Emits `op` on `srcs` after checking that the sources fit it: per-component sources
/// of one component count, unsized ones of one bit size.
pub fn op(b: &mut Builder<'_>, op: AluOp, srcs: &[Src]) -> Result<Src, AluError> {
    let info = op.info();
    if srcs.len() != info.num_inputs as usize {
        return Err(AluError::Invalid(format!(
            "`{op}` takes {} sources",
            info.num_inputs
        )));
    }
    let mut comps = None;
    let mut bits = None;
    for (i, s) in srcs.iter().enumerate() {
        let t = b.func.src_type(*s);
        let want = info.input_sizes[i];
        if want == 0 {
            if *comps.get_or_insert(t.num_components()) != t.num_components() {
                return Err(AluError::Invalid(format!(
                    "the operands of `{op}` have different component counts"
                )));
            }
        } else if t.num_components() != want {
            return Err(AluError::Invalid(format!(
                "`{op}` takes {want}-component operands"
            )));
        }
        let ty = info.input_types[i];
        if ty.is_sized() {
            if t.bit_size() != ty.bits {
                return Err(AluError::Invalid(format!(
                    "`{op}` takes {}-bit operand {i}, not {}-bit",
                    ty.bits,
                    t.bit_size()
                )));
            }
        } else if *bits.get_or_insert(t.bit_size()) != t.bit_size() {
            return Err(AluError::Invalid(format!(
                "the operands of `{op}` have different bit sizes"
            )));
        }
    }
    let ty = alu_dest_type(b.func, op, srcs)
        .ok_or_else(|| AluError::Invalid(format!("the operands do not fit `{op}`")))?;
    Ok(Src::new(b.alu_typed(op, srcs, ty)))
}

/// A constant of `ty`'s shape with every component `bits`.
pub fn splat_const(b: &mut Builder<'_>, ty: Type, bits: u64) -> Src {
    Src::new(b.load_const(ty, &vec![bits; ty.num_components() as usize]))
}

/// A float constant `v` of `bits` bits and `n` components.
pub fn fconst(b: &mut Builder<'_>, bits: u8, v: f64, n: u8) -> Result<Src, AluError> {
    let raw = match bits {
        16 => ir::eval::f64_to_f16(v) as u64,
        32 => (v as f32).to_bits() as u64,
        64 => v.to_bits(),
        _ => return Err(AluError::Invalid(format!("a {bits}-bit float"))),
    };
    let ty = Type::new(bits, n).ok_or_else(|| AluError::Invalid("a constant type".into()))?;
    Ok(splat_const(b, ty, raw))
}

/// An integer constant `v` of `bits` bits and `n` components.
pub fn iconst(b: &mut Builder<'_>, bits: u8, v: i64, n: u8) -> Result<Src, AluError> {
    let ty = Type::new(bits, n).ok_or_else(|| AluError::Invalid("a constant type".into()))?;
    Ok(splat_const(b, ty, v as u64 & ty_mask(bits)))
}

fn ty_mask(bits: u8) -> u64 {
    ir::types::bit_mask(bits)
}

/// `src` read `n` times over (a scalar splatted to a vector).
pub fn splat(src: Src, n: u8) -> Result<Src, AluError> {
    if n == 1 {
        return Ok(src);
    }
    select(src, &vec![0; n as usize]).ok_or_else(|| AluError::Invalid("a splat".into()))
}

/// A 32-bit version of an integer operand (shift counts, bitfield offsets).
fn to_u32(b: &mut Builder<'_>, s: Src) -> Result<Src, AluError> {
    match b.func.src_type(s).bit_size() {
        32 => Ok(s),
        _ => op(b, AluOp::U2u32, &[s]),
    }
}

/// An integer result of 32 bits as the width the result type asks for.
fn resize(b: &mut Builder<'_>, s: Src, bits: u8, signed: bool) -> Result<Src, AluError> {
    let have = b.func.src_type(s).bit_size();
    if have == bits {
        return Ok(s);
    }
    let alu = match (signed, bits) {
        (false, 8) => AluOp::U2u8,
        (false, 16) => AluOp::U2u16,
        (false, 32) => AluOp::U2u32,
        (false, 64) => AluOp::U2u64,
        (true, 8) => AluOp::I2i8,
        (true, 16) => AluOp::I2i16,
        (true, 32) => AluOp::I2i32,
        (true, 64) => AluOp::I2i64,
        _ => return Err(AluError::Invalid(format!("a {bits}-bit integer"))),
    };
    op(b, alu, &[s])
}

/// The IR type of a SPIR-V type that must be a scalar or vector.
fn shape(types: &Types, ty: u32) -> Result<Type, AluError> {
    types
        .ir_type(ty)
        .ok_or_else(|| AluError::Invalid(format!("%{ty} is not a scalar or vector type")))
}

/// Whether the instruction is one [`alu`] translates.
pub fn handles(o: Op) -> bool {
    use Op::*;
    matches!(
        o,
        ConvertFToU
            | ConvertFToS
            | ConvertSToF
            | ConvertUToF
            | UConvert
            | SConvert
            | FConvert
            | QuantizeToF16
            | Bitcast
            | SNegate
            | FNegate
            | IAdd
            | FAdd
            | ISub
            | FSub
            | IMul
            | FMul
            | UDiv
            | SDiv
            | FDiv
            | UMod
            | SRem
            | SMod
            | FRem
            | FMod
            | VectorTimesScalar
            | Dot
            | IAddCarry
            | ISubBorrow
            | UMulExtended
            | SMulExtended
            | ShiftRightLogical
            | ShiftRightArithmetic
            | ShiftLeftLogical
            | BitwiseOr
            | BitwiseXor
            | BitwiseAnd
            | Not
            | BitFieldInsert
            | BitFieldSExtract
            | BitFieldUExtract
            | BitReverse
            | BitCount
            | Any
            | All
            | IsNan
            | IsInf
            | LogicalEqual
            | LogicalNotEqual
            | LogicalOr
            | LogicalAnd
            | LogicalNot
            | Select
            | IEqual
            | INotEqual
            | UGreaterThan
            | SGreaterThan
            | UGreaterThanEqual
            | SGreaterThanEqual
            | ULessThan
            | SLessThan
            | ULessThanEqual
            | SLessThanEqual
            | FOrdEqual
            | FUnordEqual
            | FOrdNotEqual
            | FUnordNotEqual
            | FOrdLessThan
            | FUnordLessThan
            | FOrdGreaterThan
            | FUnordGreaterThan
            | FOrdLessThanEqual
            | FUnordLessThanEqual
            | FOrdGreaterThanEqual
            | FUnordGreaterThanEqual
    )
}

/// Translates ALU instruction `o` with result type `result` and operands `args`
/// (scalars and vectors; composite `OpSelect` is the caller's).
pub fn alu(
    b: &mut Builder<'_>,
    types: &Types,
    o: Op,
    result: u32,
    args: &[Operand],
) -> Result<Val, AluError> {
    use Op::*;
    let want = |n: usize| -> Result<(), AluError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(AluError::Invalid(format!(
                "Op{o:?} takes {n} operands, not {}",
                args.len()
            )))
        }
    };
    let leaf = |s: Src| Ok(Val::Leaf(s));
    // Two-result instructions return a struct.
    if matches!(o, IAddCarry | ISubBorrow | UMulExtended | SMulExtended) {
        want(2)?;
        let (x, y) = (args[0].src, args[1].src);
        let t = b.func.src_type(x);
        let (lo, hi) = match o {
            IAddCarry => {
                let sum = op(b, AluOp::Iadd, &[x, y])?;
                let carry = op(b, AluOp::Ult, &[sum, x])?;
                (sum, bool_to_int(b, carry, t)?)
            }
            ISubBorrow => {
                let diff = op(b, AluOp::Isub, &[x, y])?;
                let borrow = op(b, AluOp::Ult, &[x, y])?;
                (diff, bool_to_int(b, borrow, t)?)
            }
            UMulExtended => (
                op(b, AluOp::Imul, &[x, y])?,
                op(b, AluOp::UmulHigh, &[x, y])?,
            ),
            _ => (
                op(b, AluOp::Imul, &[x, y])?,
                op(b, AluOp::ImulHigh, &[x, y])?,
            ),
        };
        return Ok(Val::Comp(vec![Val::Leaf(lo), Val::Leaf(hi)]));
    }
    let rt = shape(types, result)?;
    let (rbits, rn) = (rt.bit_size(), rt.num_components());
    let signed_result = types.is_signed(result);
    match o {
        ConvertFToS | ConvertFToU => {
            want(1)?;
            if rbits == 64 {
                return Err(AluError::Unsupported(format!(
                    "Op{o:?} to a 64-bit integer: the IR has no conversion from float to 64-bit \
                     integers"
                )));
            }
            let (alu, signed) = if o == ConvertFToS {
                (AluOp::F2i32, true)
            } else {
                (AluOp::F2u32, false)
            };
            let r = op(b, alu, &[args[0].src])?;
            leaf(resize(b, r, rbits, signed)?)
        }
        ConvertSToF | ConvertUToF => {
            want(1)?;
            let src_bits = b.func.src_type(args[0].src).bit_size();
            let alu = if o == ConvertSToF {
                AluOp::I2f32
            } else {
                AluOp::U2f32
            };
            match rbits {
                32 => leaf(op(b, alu, &[args[0].src])?),
                // Through binary32, which rounds once: integers up to 2^24 in magnitude
                // are exact there, and every larger one is beyond binary16's range
                // (65520 and up round to infinity) before and after its rounding to
                // binary32, so binary16 is reached with one rounding either way.
                16 => {
                    let f = op(b, alu, &[args[0].src])?;
                    leaf(op(b, AluOp::F2f16, &[f])?)
                }
                _ => Err(AluError::Unsupported(format!(
                    "Op{o:?} from {src_bits}-bit integers to {rbits}-bit floats: the IR converts \
                     integers to 16- and 32-bit floats only"
                ))),
            }
        }
        UConvert | SConvert => {
            want(1)?;
            leaf(resize(b, args[0].src, rbits, o == SConvert)?)
        }
        FConvert => {
            want(1)?;
            let have = b.func.src_type(args[0].src).bit_size();
            match rbits {
                b2 if b2 == have => leaf(args[0].src),
                16 => leaf(op(b, AluOp::F2f16, &[args[0].src])?),
                32 => leaf(op(b, AluOp::F2f32, &[args[0].src])?),
                _ => Err(AluError::Unsupported(
                    "OpFConvert to a 64-bit float: the IR has no conversion to 64-bit floats"
                        .into(),
                )),
            }
        }
        QuantizeToF16 => {
            want(1)?;
            leaf(op(b, AluOp::Fquantize2f16, &[args[0].src])?)
        }
        Bitcast => {
            want(1)?;
            bitcast(b, args[0].src, rt).map(Val::Leaf)
        }
        SNegate => unary(b, AluOp::Ineg, args),
        FNegate => unary(b, AluOp::Fneg, args),
        Not => unary(b, AluOp::Inot, args),
        LogicalNot => unary(b, AluOp::Inot, args),
        IAdd => binary(b, AluOp::Iadd, args),
        FAdd => binary(b, AluOp::Fadd, args),
        ISub => binary(b, AluOp::Isub, args),
        FSub => binary(b, AluOp::Fsub, args),
        IMul => binary(b, AluOp::Imul, args),
        FMul => binary(b, AluOp::Fmul, args),
        UDiv => binary(b, AluOp::Udiv, args),
        SDiv => binary(b, AluOp::Idiv, args),
        FDiv => binary(b, AluOp::Fdiv, args),
        UMod => binary(b, AluOp::Umod, args),
        SRem => binary(b, AluOp::Irem, args),
        SMod => binary(b, AluOp::Imod, args),
        FRem => binary(b, AluOp::Frem, args),
        FMod => binary(b, AluOp::Fmod, args),
        BitwiseOr | LogicalOr => binary(b, AluOp::Ior, args),
        BitwiseXor => binary(b, AluOp::Ixor, args),
        BitwiseAnd | LogicalAnd => binary(b, AluOp::Iand, args),
        IEqual | LogicalEqual => binary(b, AluOp::Ieq, args),
        INotEqual | LogicalNotEqual => binary(b, AluOp::Ine, args),
        ULessThan => binary(b, AluOp::Ult, args),
        SLessThan => binary(b, AluOp::Ilt, args),
        UGreaterThanEqual => binary(b, AluOp::Uge, args),
        SGreaterThanEqual => binary(b, AluOp::Ige, args),
        UGreaterThan => swapped(b, AluOp::Ult, args),
        SGreaterThan => swapped(b, AluOp::Ilt, args),
        ULessThanEqual => swapped(b, AluOp::Uge, args),
        SLessThanEqual => swapped(b, AluOp::Ige, args),
        // The ordered comparisons are false with a NaN operand, the unordered ones true:
        // flt and fge are ordered, fneu unordered, and a negation swaps the two kinds.
        FOrdEqual => binary(b, AluOp::Feq, args),
        FUnordNotEqual => binary(b, AluOp::Fneu, args),
        FOrdLessThan => binary(b, AluOp::Flt, args),
        FOrdGreaterThan => swapped(b, AluOp::Flt, args),
        FOrdLessThanEqual => swapped(b, AluOp::Fge, args),
        FOrdGreaterThanEqual => binary(b, AluOp::Fge, args),
        FUnordLessThan => negated(b, AluOp::Fge, args, false),
        FUnordGreaterThan => negated(b, AluOp::Fge, args, true),
        FUnordLessThanEqual => negated(b, AluOp::Flt, args, true),
        FUnordGreaterThanEqual => negated(b, AluOp::Flt, args, false),
        FOrdNotEqual | FUnordEqual => {
            want(2)?;
            let (x, y) = (args[0].src, args[1].src);
            let lt = op(b, AluOp::Flt, &[x, y])?;
            let gt = op(b, AluOp::Flt, &[y, x])?;
            let ne = op(b, AluOp::Ior, &[lt, gt])?;
            if o == FOrdNotEqual {
                leaf(ne)
            } else {
                leaf(op(b, AluOp::Inot, &[ne])?)
            }
        }
        ShiftLeftLogical | ShiftRightLogical | ShiftRightArithmetic => {
            want(2)?;
            let count = to_u32(b, args[1].src)?;
            let alu = match o {
                ShiftLeftLogical => AluOp::Ishl,
                ShiftRightLogical => AluOp::Ushr,
                _ => AluOp::Ishr,
            };
            leaf(op(b, alu, &[args[0].src, count])?)
        }
        VectorTimesScalar => {
            want(2)?;
            let n = b.func.src_type(args[0].src).num_components();
            let s = splat(args[1].src, n)?;
            leaf(op(b, AluOp::Fmul, &[args[0].src, s])?)
        }
        Dot => {
            want(2)?;
            leaf(fdot(b, args[0].src, args[1].src)?)
        }
        Any | All => {
            want(1)?;
            let a = args[0].src;
            let n = b.func.src_type(a).num_components();
            let alu = if o == All { AluOp::Iand } else { AluOp::Ior };
            let mut acc = a.component(0);
            for i in 1..n {
                acc = op(b, alu, &[acc, a.component(i)])?;
            }
            leaf(acc)
        }
        IsNan => {
            want(1)?;
            leaf(op(b, AluOp::Fneu, &[args[0].src, args[0].src])?)
        }
        IsInf => {
            want(1)?;
            let t = b.func.src_type(args[0].src);
            let inf = fconst(b, t.bit_size(), f64::INFINITY, t.num_components())?;
            let abs = op(b, AluOp::Fabs, &[args[0].src])?;
            leaf(op(b, AluOp::Feq, &[abs, inf])?)
        }
        Select => {
            want(3)?;
            let n = b.func.src_type(args[1].src).num_components();
            let c = if b.func.src_type(args[0].src).num_components() == 1 {
                splat(args[0].src, n)?
            } else {
                args[0].src
            };
            leaf(op(b, AluOp::Bcsel, &[c, args[1].src, args[2].src])?)
        }
        BitFieldInsert => {
            want(4)?;
            require_32(b, args[0].src, "OpBitFieldInsert")?;
            let n = b.func.src_type(args[0].src).num_components();
            let off = to_u32(b, args[2].src)?;
            let off = splat(off, n)?;
            let cnt = to_u32(b, args[3].src)?;
            let cnt = splat(cnt, n)?;
            leaf(op(
                b,
                AluOp::BitfieldInsert,
                &[args[0].src, args[1].src, off, cnt],
            )?)
        }
        BitFieldSExtract | BitFieldUExtract => {
            want(3)?;
            require_32(b, args[0].src, &format!("Op{o:?}"))?;
            let base = args[0].src;
            let n = b.func.src_type(base).num_components();
            let off = to_u32(b, args[1].src)?;
            let off = splat(off, n)?;
            let cnt = to_u32(b, args[2].src)?;
            let cnt = splat(cnt, n)?;
            let alu = if o == BitFieldSExtract {
                AluOp::Ibfe
            } else {
                AluOp::Ubfe
            };
            let r = op(b, alu, &[base, off, cnt])?;
            // A count of 32 (the whole word, offset 0) is valid in SPIR-V; NIR's
            // ubfe/ibfe take the count modulo 32, which makes it 0.
            let w = iconst(b, 32, 32, n)?;
            let whole = op(b, AluOp::Ieq, &[cnt, w])?;
            leaf(op(b, AluOp::Bcsel, &[whole, base, r])?)
        }
        BitReverse => {
            want(1)?;
            require_32(b, args[0].src, "OpBitReverse")?;
            leaf(op(b, AluOp::BitfieldReverse, &[args[0].src])?)
        }
        BitCount => {
            want(1)?;
            let r = op(b, AluOp::BitCount, &[args[0].src])?;
            leaf(resize(b, r, rbits, signed_result)?)
        }
        _ => Err(AluError::Unsupported(format!(
            "Op{o:?} is not an ALU instruction"
        ))),
    }
    .and_then(|v| {
        // The result must have the result type's shape.
        if let Val::Leaf(s) = &v {
            let t = b.func.src_type(*s);
            if t.num_components() != rn || (t.bit_size() != rbits) {
                return Err(AluError::Invalid(format!(
                    "Op{o:?} gives a {}x{} value where its result type is {}x{}",
                    t.bit_size(),
                    t.num_components(),
                    rbits,
                    rn
                )));
            }
        }
        Ok(v)
    })
}

fn require_32(b: &Builder<'_>, s: Src, what: &str) -> Result<(), AluError> {
    match b.func.src_type(s).bit_size() {
        32 => Ok(()),
        n => Err(AluError::Unsupported(format!(
            "{what} on {n}-bit integers: the IR's bitfield ops are 32-bit"
        ))),
    }
}

fn bool_to_int(b: &mut Builder<'_>, c: Src, t: Type) -> Result<Src, AluError> {
    let one = splat_const(b, t, 1);
    let zero = splat_const(b, t, 0);
    op(b, AluOp::Bcsel, &[c, one, zero])
}

fn unary(b: &mut Builder<'_>, alu: AluOp, args: &[Operand]) -> Result<Val, AluError> {
    match args {
        [a] => Ok(Val::Leaf(op(b, alu, &[a.src])?)),
        _ => Err(AluError::Invalid(format!("`{alu}` takes one operand"))),
    }
}

fn binary(b: &mut Builder<'_>, alu: AluOp, args: &[Operand]) -> Result<Val, AluError> {
    match args {
        [x, y] => Ok(Val::Leaf(op(b, alu, &[x.src, y.src])?)),
        _ => Err(AluError::Invalid(format!("`{alu}` takes two operands"))),
    }
}

fn swapped(b: &mut Builder<'_>, alu: AluOp, args: &[Operand]) -> Result<Val, AluError> {
    match args {
        [x, y] => Ok(Val::Leaf(op(b, alu, &[y.src, x.src])?)),
        _ => Err(AluError::Invalid(format!("`{alu}` takes two operands"))),
    }
}

fn negated(b: &mut Builder<'_>, alu: AluOp, args: &[Operand], swap: bool) -> Result<Val, AluError> {
    let v = if swap {
        swapped(b, alu, args)?
    } else {
        binary(b, alu, args)?
    };
    let s = v
        .leaf()
        .ok_or_else(|| AluError::Invalid("a comparison".into()))?;
    Ok(Val::Leaf(op(b, AluOp::Inot, &[s])?))
}

/// A float dot product (`fmul` for scalars), as NIR's `fdotN`.
pub fn fdot(b: &mut Builder<'_>, x: Src, y: Src) -> Result<Src, AluError> {
    let alu = match b.func.src_type(x).num_components() {
        1 => AluOp::Fmul,
        2 => AluOp::Fdot2,
        3 => AluOp::Fdot3,
        4 => AluOp::Fdot4,
        n => {
            return Err(AluError::Invalid(format!(
                "a dot product of {n} components"
            )))
        }
    };
    op(b, alu, &[x, y])
}

/// `OpBitcast`: the IR's values are bits, so a cast between types of one shape is the
/// source itself; a 64-bit scalar and two 32-bit components convert with NIR's
/// `pack_64_2x32_split` and its inverse.
fn bitcast(b: &mut Builder<'_>, s: Src, to: Type) -> Result<Src, AluError> {
    let from = b.func.src_type(s);
    if from.bit_size() == to.bit_size() && from.num_components() == to.num_components() {
        return Ok(s);
    }
    let (fb, tb) = (from.bit_size(), to.bit_size());
    let total = |t: Type| u32::from(t.bit_size()) * u32::from(t.num_components());
    if total(from) != total(to) || fb == 1 || tb == 1 {
        return Err(AluError::Invalid(format!(
            "OpBitcast from {} {fb}-bit components to {} {tb}-bit ones: the sizes differ",
            from.num_components(),
            to.num_components()
        )));
    }
    // The bits as scalars of the narrower width, the lowest first (SPIR-V's order:
    // component 0 holds the low bits), then grouped into the wider ones.
    let narrow = fb.min(tb);
    let mut pieces =
        Vec::with_capacity(usize::from(from.num_components()) * usize::from(fb / narrow));
    for c in 0..from.num_components() {
        split_bits(b, s.component(c), fb, narrow, &mut pieces)?;
    }
    let mut out = Vec::with_capacity(usize::from(to.num_components()));
    for chunk in pieces.chunks(usize::from(tb / narrow)) {
        out.push(join_bits(b, chunk, narrow, tb)?);
    }
    match out.as_slice() {
        [x] => Ok(*x),
        parts => {
            let vec = match parts.len() {
                2 => AluOp::Vec2,
                3 => AluOp::Vec3,
                4 => AluOp::Vec4,
                8 => AluOp::Vec8,
                16 => AluOp::Vec16,
                n => return Err(AluError::Unsupported(format!("a vector of {n} components"))),
            };
            op(b, vec, parts)
        }
    }
}

/// Pushes the `bits`-bit scalar `x` to `out` as `bits / w` scalars of `w` bits, the
/// lowest first.
fn split_bits(
    b: &mut Builder<'_>,
    x: Src,
    bits: u8,
    w: u8,
    out: &mut Vec<Src>,
) -> Result<(), AluError> {
    if bits == w {
        out.push(x);
        return Ok(());
    }
    if bits == 64 {
        let lo = op(b, AluOp::Unpack64_2x32SplitX, &[x])?;
        let hi = op(b, AluOp::Unpack64_2x32SplitY, &[x])?;
        split_bits(b, lo, 32, w, out)?;
        return split_bits(b, hi, 32, w, out);
    }
    for j in 0..bits / w {
        let shifted = if j == 0 {
            x
        } else {
            let k = iconst(b, 32, i64::from(j * w), 1)?;
            op(b, AluOp::Ushr, &[x, k])?
        };
        out.push(resize(b, shifted, w, false)?);
    }
    Ok(())
}

/// The `bits`-bit scalar whose `w`-bit pieces, the lowest first, are `parts`.
fn join_bits(b: &mut Builder<'_>, parts: &[Src], w: u8, bits: u8) -> Result<Src, AluError> {
    if bits == w {
        return Ok(parts[0]);
    }
    if bits == 64 {
        let half = parts.len() / 2;
        let lo = join_bits(b, &parts[..half], w, 32)?;
        let hi = join_bits(b, &parts[half..], w, 32)?;
        return op(b, AluOp::Pack64_2x32Split, &[lo, hi]);
    }
    let mut acc = resize(b, parts[0], bits, false)?;
    for (j, &p) in parts.iter().enumerate().skip(1) {
        let wide = resize(b, p, bits, false)?;
        let k = iconst(b, 32, j as i64 * i64::from(w), 1)?;
        let shifted = op(b, AluOp::Ishl, &[wide, k])?;
        acc = op(b, AluOp::Ior, &[acc, shifted])?;
    }
    Ok(acc)
}

/// Whether a type is one [`alu`] can produce: a scalar or vector.
pub fn is_alu_type(types: &Types, ty: u32) -> bool {
    matches!(
        types.get(ty),
        Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. })
    )
}
