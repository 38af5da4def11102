//! Types and constants, with specialization applied: the module's types, constants,
//! specialization constants (`OpSpecConstant*`, their `SpecId`s replaced by the values
//! the caller gives, as `VkSpecializationInfo` does) and `OpSpecConstantOp`, evaluated
//! in module order as Mesa's `vtn_handle_constant` does.
//!
//! An `OpSpecConstantOp` of an ALU opcode is evaluated by translating it with the
//! function bodies' own ALU code ([`super::alu`]) into a scratch IR function and
//! folding that function's constants with the IR's evaluator, so a specialization
//! constant computes exactly what the same instruction computes at run time.

use super::alu::{self, AluError, Operand};
use super::decorations::Decorations;
use super::module::{Id, Module};
use super::types::{ImageTy, Ty, Types};
use super::value::Val;
use crate::error::{ErrorKind, ImportError};
use ir::{Builder, Cursor, Src, Type};
use rustc_hash::FxHashMap as HashMap;
use spirv::{Decoration as D, Op};
use std::collections::BTreeMap;
use std::fmt;

/// The longest array the translator accepts.
pub const MAX_ARRAY_LEN: u32 = 1 << 24;

/// A specialization value as the caller gives it; it is converted to the constant's
/// type (an error if it does not fit).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SpecValue {
    /// `true` or `false`.
    Bool(bool),
    /// An integer (a negative one is taken in two's complement).
    Int(i128),
    /// A floating-point number.
    Float(f64),
}

impl SpecValue {
    /// Parses `true`, `false`, an integer (decimal, or hexadecimal with `0x`, with an
    /// optional `-`) or a floating-point number.
    pub fn parse(text: &str) -> Option<SpecValue> {
        let t = text.trim();
        match t {
            "true" => return Some(SpecValue::Bool(true)),
            "false" => return Some(SpecValue::Bool(false)),
            _ => {}
        }
        let (neg, digits) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let int = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(h) => i128::from_str_radix(h, 16).ok(),
            None if digits.chars().all(|c| c.is_ascii_digit()) => digits.parse::<i128>().ok(),
            None => None,
        };
        if let Some(v) = int {
            return Some(SpecValue::Int(if neg { -v } else { v }));
        }
        t.parse::<f64>().ok().map(SpecValue::Float)
    }
}

impl fmt::Display for SpecValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecValue::Bool(b) => write!(f, "{b}"),
            SpecValue::Int(i) => write!(f, "{i}"),
            SpecValue::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// Specialization: `SpecId` to value.
pub type SpecMap = BTreeMap<u32, SpecValue>;

/// A constant's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstVal {
    /// A scalar's bits (a boolean is 0 or 1).
    Scalar(u64),
    /// A vector's components, a matrix's columns, an array's elements or a struct's
    /// members.
    Comp(Vec<ConstVal>),
    /// An undefined value (`OpUndef`).
    Undef,
}

/// A constant: its type and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constant {
    /// The type.
    pub ty: Id,
    /// The value.
    pub val: ConstVal,
}

/// A specialization constant of the module and the value it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    /// Its `SpecId`.
    pub spec_id: u32,
    /// Its result id.
    pub id: Id,
    /// Its name (`OpName`), if any.
    pub name: Option<String>,
    /// Whether the caller's specialization gave its value (else it kept its default).
    pub specialized: bool,
}

/// The module's types and constants.
#[derive(Default)]
pub struct Declarations {
    /// The types.
    pub types: Types,
    /// The constants (and global `OpUndef`s), specialized.
    pub consts: HashMap<Id, Constant>,
    /// The indices of the global `OpVariable`s, in order.
    pub variables: Vec<usize>,
    /// The specialization constants with a `SpecId`.
    pub spec_constants: Vec<SpecConstant>,
}

/// Reads the types and constants of `m`, specialized by `spec`.
pub fn declare(
    m: &Module,
    decs: &Decorations,
    spec: &SpecMap,
) -> Result<Declarations, ImportError> {
    let mut d = Declarations::default();
    for &i in &m.globals {
        let inst = m.insts[i];
        let ops = m.ops(i);
        let err = |kind: ErrorKind, msg: std::string::String| m.error(i, kind, msg);
        let short = || {
            err(
                ErrorKind::Parse,
                format!("{} has too few operands", super::op::name(inst.opcode)),
            )
        };
        let Some(o) = Op::from_u32(inst.opcode as u32) else {
            return Err(err(
                ErrorKind::Unsupported,
                format!("opcode {} is not a SPIR-V 1.6 instruction", inst.opcode),
            ));
        };
        use Op::*;
        let ty = match o {
            TypeVoid => Some(Ty::Void),
            TypeBool => Some(Ty::Bool),
            TypeInt => {
                let [_, w, s, ..] = ops else {
                    return Err(short());
                };
                if !matches!(w, 8 | 16 | 32 | 64) {
                    return Err(err(
                        ErrorKind::Unsupported,
                        format!("a {w}-bit integer type"),
                    ));
                }
                Some(Ty::Int {
                    bits: *w as u8,
                    signed: *s != 0,
                })
            }
            TypeFloat => {
                let [_, w, ..] = ops else { return Err(short()) };
                if !matches!(w, 16 | 32 | 64) || ops.len() > 2 {
                    return Err(err(ErrorKind::Unsupported, format!("a {w}-bit float type")));
                }
                Some(Ty::Float { bits: *w as u8 })
            }
            TypeVector => {
                let [_, elem, n, ..] = ops else {
                    return Err(short());
                };
                if !matches!(
                    d.types.get(*elem),
                    Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. })
                ) || !matches!(n, 2 | 3 | 4 | 8 | 16)
                {
                    return Err(err(
                        ErrorKind::Invalid,
                        format!("a vector of {n} %{elem}: vectors have 2, 3, 4, 8 or 16 scalars"),
                    ));
                }
                Some(Ty::Vector {
                    elem: *elem,
                    n: *n as u8,
                })
            }
            TypeMatrix => {
                let [_, col, n, ..] = ops else {
                    return Err(short());
                };
                if !matches!(d.types.get(*col), Some(Ty::Vector { .. })) || !matches!(n, 2..=4) {
                    return Err(err(
                        ErrorKind::Invalid,
                        format!("a matrix of {n} %{col}: matrices have 2 to 4 vector columns"),
                    ));
                }
                Some(Ty::Matrix {
                    col: *col,
                    n: *n as u8,
                })
            }
            TypeArray => {
                let [_, elem, len, ..] = ops else {
                    return Err(short());
                };
                let n = match d.consts.get(len) {
                    Some(self::Constant {
                        val: ConstVal::Scalar(v),
                        ty,
                    }) if matches!(d.types.get(*ty), Some(Ty::Int { .. })) => *v,
                    _ => {
                        return Err(err(
                            ErrorKind::Invalid,
                            format!(
                                "the length %{len} of an array type is not an integer constant"
                            ),
                        ))
                    }
                };
                if n == 0 || n > MAX_ARRAY_LEN as u64 {
                    return Err(err(
                        ErrorKind::Limit,
                        format!(
                            "an array of {n} elements (the translator takes 1 to {MAX_ARRAY_LEN})"
                        ),
                    ));
                }
                check_type(m, &d.types, *elem).map_err(|e| err(ErrorKind::Invalid, e))?;
                Some(Ty::Array {
                    elem: *elem,
                    len: n as u32,
                })
            }
            TypeRuntimeArray => {
                let [_, elem, ..] = ops else {
                    return Err(short());
                };
                check_type(m, &d.types, *elem).map_err(|e| err(ErrorKind::Invalid, e))?;
                Some(Ty::RuntimeArray { elem: *elem })
            }
            TypeStruct => {
                let [_, members @ ..] = ops else {
                    return Err(short());
                };
                for mem in members {
                    check_type(m, &d.types, *mem).map_err(|e| err(ErrorKind::Invalid, e))?;
                }
                Some(Ty::Struct {
                    members: members.to_vec(),
                })
            }
            TypePointer => {
                let [_, sc, pointee, ..] = ops else {
                    return Err(short());
                };
                Some(Ty::Pointer {
                    sc: *sc,
                    pointee: *pointee,
                })
            }
            TypeFunction => {
                let [_, ret, params @ ..] = ops else {
                    return Err(short());
                };
                Some(Ty::Function {
                    ret: *ret,
                    params: params.to_vec(),
                })
            }
            TypeImage => {
                let [_, st, dim, depth, arrayed, ms, sampled, format, ..] = ops else {
                    return Err(short());
                };
                Some(Ty::Image(ImageTy {
                    sampled_type: *st,
                    dim: *dim,
                    depth: *depth,
                    arrayed: *arrayed != 0,
                    ms: *ms != 0,
                    sampled: *sampled,
                    format: *format,
                }))
            }
            TypeSampler => Some(Ty::Sampler),
            TypeSampledImage => {
                let [_, image, ..] = ops else {
                    return Err(short());
                };
                if !matches!(d.types.get(*image), Some(Ty::Image(_))) {
                    return Err(err(
                        ErrorKind::Invalid,
                        format!("OpTypeSampledImage of %{image}, which is not an image type"),
                    ));
                }
                Some(Ty::SampledImage { image: *image })
            }
            _ if (inst.opcode as u32) >= TypeVoid as u32
                && (inst.opcode as u32) <= TypeForwardPointer as u32 =>
            {
                Some(Ty::Other(inst.opcode))
            }
            _ => None,
        };
        if let Some(t) = ty {
            let [id, ..] = ops else { return Err(short()) };
            d.types.insert(*id, t);
            continue;
        }
        match o {
            Variable => d.variables.push(i),
            Undef => {
                let [ty, id, ..] = ops else {
                    return Err(short());
                };
                d.consts.insert(
                    *id,
                    self::Constant {
                        ty: *ty,
                        val: ConstVal::Undef,
                    },
                );
            }
            ConstantTrue
            | ConstantFalse
            | SpecConstantTrue
            | SpecConstantFalse
            | Constant
            | SpecConstant
            | ConstantComposite
            | SpecConstantComposite
            | ConstantNull
            | SpecConstantOp => {
                let [ty, id, rest @ ..] = ops else {
                    return Err(short());
                };
                let c = constant(m, &d, decs, spec, i, o, *ty, *id, rest)?;
                if matches!(o, SpecConstantTrue | SpecConstantFalse | SpecConstant) {
                    if let Some(sid) = decs.get(*id, D::SpecId) {
                        d.spec_constants.push(self::SpecConstant {
                            spec_id: sid,
                            id: *id,
                            name: m.name(*id).map(str::to_string),
                            specialized: spec.contains_key(&sid),
                        });
                    }
                }
                d.consts.insert(*id, self::Constant { ty: *ty, val: c });
            }
            Line | NoLine | Nop | ExtInst => {}
            ConstantSampler | ConstantPipeStorage => {
                return Err(err(
                    ErrorKind::Unsupported,
                    format!("Op{o:?} is not supported: the IR has no samplers"),
                ))
            }
            _ => {
                return Err(err(
                    ErrorKind::Invalid,
                    format!(
                        "Op{o:?} is not allowed among the module's types, constants and variables"
                    ),
                ))
            }
        }
    }
    Ok(d)
}

/// Checks that `id` is a type declared before its use.
fn check_type(m: &Module, types: &Types, id: Id) -> Result<(), String> {
    match types.get(id) {
        Some(_) => Ok(()),
        None => Err(format!(
            "%{id} is used as a type but is {}",
            match m.def_opcode(id) {
                Some(o) => format!("defined by {}", super::op::name(o)),
                None => "not defined before it".to_string(),
            }
        )),
    }
}

/// The value of a constant-defining instruction `i` of opcode `o`.
#[allow(clippy::too_many_arguments)]
fn constant(
    m: &Module,
    d: &Declarations,
    decs: &Decorations,
    spec: &SpecMap,
    i: usize,
    o: Op,
    ty: Id,
    id: Id,
    rest: &[u32],
) -> Result<ConstVal, ImportError> {
    use Op::*;
    let err = |kind: ErrorKind, msg: std::string::String| m.error(i, kind, msg);
    let t = d.types.get(ty).ok_or_else(|| {
        err(
            ErrorKind::Invalid,
            format!("the result type %{ty} is not a type"),
        )
    })?;
    let spec_value = decs
        .get(id, D::SpecId)
        .filter(|_| matches!(o, SpecConstantTrue | SpecConstantFalse | SpecConstant))
        .and_then(|sid| spec.get(&sid).map(|v| (sid, *v)));
    match o {
        ConstantTrue | ConstantFalse | SpecConstantTrue | SpecConstantFalse => {
            if *t != Ty::Bool {
                return Err(err(
                    ErrorKind::Invalid,
                    format!("Op{o:?} of a non-boolean type %{ty}"),
                ));
            }
            let default = matches!(o, ConstantTrue | SpecConstantTrue);
            let v = match spec_value {
                Some((sid, v)) => specialize(t, v).map_err(|why| {
                    err(
                        ErrorKind::Invalid,
                        format!("specialization constant {sid}: {why}"),
                    )
                })?,
                None => default as u64,
            };
            Ok(ConstVal::Scalar(v))
        }
        Constant | SpecConstant => {
            let bits = match t {
                Ty::Int { bits, .. } | Ty::Float { bits } => *bits,
                _ => {
                    return Err(err(
                        ErrorKind::Invalid,
                        format!("Op{o:?} of a non-scalar type %{ty}"),
                    ))
                }
            };
            let words = if bits == 64 { 2 } else { 1 };
            if rest.len() < words {
                return Err(err(
                    ErrorKind::Parse,
                    format!("Op{o:?} of a {bits}-bit type needs {words} value words"),
                ));
            }
            let raw = if bits == 64 {
                rest[0] as u64 | (rest[1] as u64) << 32
            } else {
                rest[0] as u64 & ir::types::bit_mask(bits)
            };
            match spec_value {
                Some((sid, v)) => specialize(t, v).map(ConstVal::Scalar).map_err(|why| {
                    err(
                        ErrorKind::Invalid,
                        format!("specialization constant {sid}: {why}"),
                    )
                }),
                None => Ok(ConstVal::Scalar(raw)),
            }
        }
        ConstantNull => zero(&d.types, ty).ok_or_else(|| {
            err(
                ErrorKind::Unsupported,
                format!("OpConstantNull of %{ty}, a type without a null value in the IR"),
            )
        }),
        ConstantComposite | SpecConstantComposite => {
            let want = match t {
                Ty::Vector { n, .. } => *n as usize,
                Ty::Matrix { n, .. } => *n as usize,
                Ty::Array { len, .. } => *len as usize,
                Ty::Struct { members } => members.len(),
                _ => {
                    return Err(err(
                        ErrorKind::Invalid,
                        format!("Op{o:?} of a non-composite type %{ty}"),
                    ))
                }
            };
            if rest.len() != want {
                return Err(err(
                    ErrorKind::Invalid,
                    format!(
                        "Op{o:?} has {} constituents where its type has {want}",
                        rest.len()
                    ),
                ));
            }
            let mut parts = Vec::with_capacity(want);
            for c in rest {
                let k = d.consts.get(c).ok_or_else(|| {
                    err(
                        ErrorKind::Invalid,
                        format!("%{c} is not a constant defined before it"),
                    )
                })?;
                parts.push(k.val.clone());
            }
            Ok(ConstVal::Comp(parts))
        }
        SpecConstantOp => {
            let [opcode, args @ ..] = rest else {
                return Err(err(
                    ErrorKind::Parse,
                    "OpSpecConstantOp without an opcode".into(),
                ));
            };
            spec_op(m, d, i, ty, *opcode, args)
        }
        _ => Err(err(
            ErrorKind::Invalid,
            format!("Op{o:?} is not a constant"),
        )),
    }
}

/// The bits of specialization value `v` for a scalar of type `t`.
fn specialize(t: &Ty, v: SpecValue) -> Result<u64, String> {
    match (t, v) {
        (Ty::Bool, SpecValue::Bool(b)) => Ok(b as u64),
        (Ty::Bool, SpecValue::Int(i @ (0 | 1))) => Ok(i as u64),
        (Ty::Bool, v) => Err(format!("{v} is not a boolean (true, false, 1 or 0)")),
        (Ty::Int { bits, signed }, SpecValue::Int(i)) => {
            let lo = -(1i128 << (bits - 1));
            let hi = 1i128 << bits;
            if i < lo || i >= hi {
                return Err(format!(
                    "{i} does not fit a {bits}-bit {} integer",
                    if *signed { "signed" } else { "unsigned" }
                ));
            }
            Ok(i as u64 & ir::types::bit_mask(*bits))
        }
        (Ty::Int { bits, .. }, SpecValue::Bool(b)) => Ok(b as u64 & ir::types::bit_mask(*bits)),
        (Ty::Int { bits, .. }, SpecValue::Float(x)) => Err(format!(
            "{x:?} is not an integer (the constant is a {bits}-bit integer)"
        )),
        (Ty::Float { bits }, SpecValue::Float(x)) => Ok(float_bits(*bits, x)),
        (Ty::Float { bits }, SpecValue::Int(i)) => Ok(float_bits(*bits, i as f64)),
        (Ty::Float { bits }, SpecValue::Bool(_)) => Err(format!(
            "a boolean is not a number (the constant is a {bits}-bit float)"
        )),
        _ => Err("the constant is not a scalar".into()),
    }
}

fn float_bits(bits: u8, x: f64) -> u64 {
    match bits {
        16 => ir::eval::f64_to_f16(x) as u64,
        32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// The zero value of a type (`OpConstantNull`), `None` for types without one.
pub fn zero(types: &Types, ty: Id) -> Option<ConstVal> {
    zero_depth(types, ty, 0)
}

fn zero_depth(types: &Types, ty: Id, depth: u32) -> Option<ConstVal> {
    if depth > 64 {
        return None;
    }
    Some(match types.get(ty)? {
        Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => ConstVal::Scalar(0),
        Ty::Vector { n, .. } => ConstVal::Comp(vec![ConstVal::Scalar(0); *n as usize]),
        Ty::Matrix { col, n } => {
            ConstVal::Comp(vec![zero_depth(types, *col, depth + 1)?; *n as usize])
        }
        Ty::Array { elem, len } => {
            if *len > 1 << 16 {
                return None;
            }
            ConstVal::Comp(vec![zero_depth(types, *elem, depth + 1)?; *len as usize])
        }
        Ty::Struct { members } => ConstVal::Comp(
            members
                .iter()
                .map(|m| zero_depth(types, *m, depth + 1))
                .collect::<Option<Vec<_>>>()?,
        ),
        _ => return None,
    })
}

/// The components of a scalar or vector constant.
pub fn components(c: &ConstVal) -> Option<Vec<u64>> {
    match c {
        ConstVal::Scalar(v) => Some(vec![*v]),
        ConstVal::Comp(parts) => parts
            .iter()
            .map(|p| match p {
                ConstVal::Scalar(v) => Some(*v),
                _ => None,
            })
            .collect(),
        ConstVal::Undef => None,
    }
}

/// Evaluates `OpSpecConstantOp` of `opcode` on constant operands `args`.
fn spec_op(
    m: &Module,
    d: &Declarations,
    i: usize,
    ty: Id,
    opcode: u32,
    args: &[u32],
) -> Result<ConstVal, ImportError> {
    use Op::*;
    let err = |kind: ErrorKind, msg: std::string::String| m.error(i, kind, msg);
    let o = Op::from_u32(opcode).ok_or_else(|| {
        err(
            ErrorKind::Invalid,
            format!("OpSpecConstantOp of unknown opcode {opcode}"),
        )
    })?;
    let get = |id: &u32| -> Result<&self::Constant, ImportError> {
        d.consts.get(id).ok_or_else(|| {
            err(
                ErrorKind::Invalid,
                format!("operand %{id} of OpSpecConstantOp is not a constant defined before it"),
            )
        })
    };
    match o {
        CompositeExtract => {
            let [c, path @ ..] = args else { return Err(err(ErrorKind::Parse, "OpCompositeExtract needs a composite".into())) };
            let mut v = &get(c)?.val;
            for &k in path {
                v = match v {
                    ConstVal::Comp(parts) => parts.get(k as usize).ok_or_else(|| err(ErrorKind::Invalid, format!("index {k} is out of range")))?,
                    _ => return Err(err(ErrorKind::Invalid, "OpCompositeExtract indexes into a scalar".into())),
                };
            }
            Ok(v.clone())
        }
        CompositeInsert => {
            let [obj, c, path @ ..] = args else { return Err(err(ErrorKind::Parse, "OpCompositeInsert needs an object and a composite".into())) };
            let mut out = get(c)?.val.clone();
            let mut slot = &mut out;
            for &k in path {
                slot = match slot {
                    ConstVal::Comp(parts) => parts.get_mut(k as usize).ok_or_else(|| err(ErrorKind::Invalid, format!("index {k} is out of range")))?,
                    _ => return Err(err(ErrorKind::Invalid, "OpCompositeInsert indexes into a scalar".into())),
                };
            }
            *slot = get(obj)?.val.clone();
            Ok(out)
        }
        VectorShuffle => {
            let [a, b, sel @ ..] = args else { return Err(err(ErrorKind::Parse, "OpVectorShuffle needs two vectors".into())) };
            let mut all = components(&get(a)?.val).unwrap_or_default();
            all.extend(components(&get(b)?.val).unwrap_or_default());
            let mut out = Vec::with_capacity(sel.len());
            for &s in sel {
                // 0xFFFFFFFF selects an undefined component.
                out.push(ConstVal::Scalar(all.get(s as usize).copied().unwrap_or(0)));
            }
            Ok(ConstVal::Comp(out))
        }
        Select if !matches!(d.types.get(ty), Some(Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. })) => {
            let [c, a, b] = args else { return Err(err(ErrorKind::Parse, "OpSelect takes three operands".into())) };
            match &get(c)?.val {
                ConstVal::Scalar(v) => Ok(if *v != 0 { get(a)?.val.clone() } else { get(b)?.val.clone() }),
                _ => Err(err(ErrorKind::Invalid, "OpSelect of composites needs a scalar condition".into())),
            }
        }
        _ if alu::handles(o) => {
            let mut operands = Vec::with_capacity(args.len());
            let mut f = ir::Function::new("spec");
            let first = f.first_block(ir::CfParent::Root).ok_or_else(|| err(ErrorKind::Internal, "a scratch function without a block".into()))?;
            let mut b = Builder::new(&mut f, Cursor::BlockEnd(first));
            for a in args {
                let k = get(a)?;
                let t = d.types.ir_type(k.ty).ok_or_else(|| err(ErrorKind::Invalid, format!("operand %{a} is not a scalar or vector")))?;
                let comps = match components(&k.val) {
                    Some(c) => c,
                    None => vec![0; t.num_components() as usize],
                };
                if comps.len() != t.num_components() as usize {
                    return Err(err(ErrorKind::Invalid, format!("operand %{a} does not have its type's shape")));
                }
                operands.push(Operand { src: Src::new(b.load_const(t, &comps)), ty: k.ty });
            }
            let r = alu::alu(&mut b, &d.types, o, ty, &operands).map_err(|e| match e {
                AluError::Unsupported(s) => err(ErrorKind::Unsupported, format!("OpSpecConstantOp {s}")),
                AluError::Invalid(s) => err(ErrorKind::Invalid, format!("OpSpecConstantOp Op{o:?}: {s}")),
            })?;
            ir::passes::const_fold::fold_function(&mut f);
            let read = |s: Src| -> Result<ConstVal, ImportError> {
                let c = ir::passes::const_fold::const_components(&f, s).ok_or_else(|| {
                    err(ErrorKind::Internal, format!("OpSpecConstantOp Op{o:?} did not evaluate to a constant"))
                })?;
                Ok(match c.len() {
                    1 => ConstVal::Scalar(c[0]),
                    _ => ConstVal::Comp(c.iter().map(|v| ConstVal::Scalar(*v)).collect()),
                })
            };
            match r {
                Val::Leaf(s) => {
                    // A one-component vector type does not exist, so a scalar result
                    // type means a scalar.
                    let v = read(s)?;
                    match (v, d.types.get(ty)) {
                        (ConstVal::Scalar(x), Some(Ty::Vector { .. })) => Ok(ConstVal::Comp(vec![ConstVal::Scalar(x)])),
                        (v, _) => Ok(v),
                    }
                }
                Val::Comp(parts) => parts
                    .into_iter()
                    .map(|p| p.leaf().ok_or_else(|| err(ErrorKind::Internal, "a nested result".into())).and_then(read))
                    .collect::<Result<Vec<_>, _>>()
                    .map(ConstVal::Comp),
            }
        }
        _ => Err(err(
            ErrorKind::Unsupported,
            format!("OpSpecConstantOp of Op{o:?} is not supported: Vulkan allows conversions, arithmetic, bit operations, comparisons, OpSelect, OpVectorShuffle and OpComposite* there"),
        )),
    }
}

/// The IR type of a scalar or vector constant.
pub fn const_type(types: &Types, c: &Constant) -> Option<Type> {
    types.ir_type(c.ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_values_parse() {
        assert_eq!(SpecValue::parse("true"), Some(SpecValue::Bool(true)));
        assert_eq!(SpecValue::parse("64"), Some(SpecValue::Int(64)));
        assert_eq!(SpecValue::parse("-3"), Some(SpecValue::Int(-3)));
        assert_eq!(SpecValue::parse("0x10"), Some(SpecValue::Int(16)));
        assert_eq!(SpecValue::parse("1.5"), Some(SpecValue::Float(1.5)));
        assert_eq!(SpecValue::parse("x"), None);
    }

    #[test]
    fn specialization_fits_the_type() {
        let u8t = Ty::Int {
            bits: 8,
            signed: false,
        };
        assert_eq!(specialize(&u8t, SpecValue::Int(255)), Ok(255));
        assert_eq!(specialize(&u8t, SpecValue::Int(-1)), Ok(255));
        assert!(specialize(&u8t, SpecValue::Int(256)).is_err());
        assert!(specialize(&u8t, SpecValue::Float(1.0)).is_err());
        let f = Ty::Float { bits: 32 };
        assert_eq!(
            specialize(&f, SpecValue::Int(2)),
            Ok(2.0f32.to_bits() as u64)
        );
        assert_eq!(specialize(&Ty::Bool, SpecValue::Int(1)), Ok(1));
        assert!(specialize(&Ty::Bool, SpecValue::Int(2)).is_err());
    }
}
