//! A vISA text file as read: directives, declarations and statements with names as
//! written and the line of each, before any storage is laid out. The shapes follow the
//! text grammar of IGC's `visa/CISA.y` for the subset the interpreter runs.

use super::types::{CondMod, ExecCtrl, PredCombine, SrcMod, VType};
use ir::lsc::{AddrSize, AddrType, BlockShape, CacheControl, DataShape, LscAtomicOp, Sfid};

/// A whole vISA listing: one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// `.version major.minor`.
    pub version: (u32, u32),
    /// `.kernel "name"`.
    pub kernel: String,
    /// Every `.decl`, in order.
    pub decls: Vec<Decl>,
    /// Every `.input`, in order.
    pub inputs: Vec<Input>,
    /// Every `.kernel_attr`, in order.
    pub attrs: Vec<Attr>,
    /// Labels and instructions, in order.
    pub body: Vec<Stmt>,
}

impl Listing {
    /// The value of the integer kernel attribute `name` (`SimdSize`, ...).
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        self.attrs
            .iter()
            .find_map(|a| match (&a.value, a.name == name) {
                (AttrValue::Int(v), true) => Some(*v),
                _ => None,
            })
    }
}

/// A `.decl`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The variable's name.
    pub name: String,
    /// What it declares.
    pub kind: DeclKind,
    /// Line of the declaration (1-based).
    pub line: u32,
}

/// The kinds of vISA variables (`v_type=G|P|A|T|S`).
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// A general variable: `v_type=G type=T num_elts=N [align=A] [alias=<V, off>]`.
    General {
        /// Element type.
        ty: VType,
        /// Number of elements.
        num_elts: u32,
        /// Alignment, if given.
        align: Option<Align>,
        /// The variable this one is an alias of, and the byte offset into it.
        alias: Option<(String, u32)>,
    },
    /// A predicate: `v_type=P num_elts=N` (1 to 32 bits).
    Predicate {
        /// Number of bits.
        num_elts: u32,
    },
    /// An address variable: `v_type=A num_elts=N`.
    Address {
        /// Number of elements.
        num_elts: u32,
    },
    /// A surface: `v_type=T num_elts=N`.
    Surface {
        /// Number of elements.
        num_elts: u32,
    },
    /// A sampler: `v_type=S num_elts=N`.
    Sampler {
        /// Number of elements.
        num_elts: u32,
    },
}

/// The `align=` of a general variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Align {
    /// A byte count: `byte` 1, `word` 2, `dword` 4, `qword` 8, `oword` 16, `hword` 32,
    /// `wordx32` 64, `wordx64` 128, or a number.
    Bytes(u32),
    /// `GRF`: one register (32 or 64 bytes by platform).
    Grf,
    /// `GRFx2` / `2GRF`: two registers.
    Grf2,
}

/// An `.input V offset=B size=S`: the variable's bytes at kernel entry are the register
/// file's bytes `B .. B + S`.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The variable.
    pub name: String,
    /// Byte offset in the register file.
    pub offset: u32,
    /// Bytes, if written (otherwise the variable's size).
    pub size: Option<u32>,
    /// Line.
    pub line: u32,
}

/// A `.kernel_attr name[=value]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    /// The attribute's name.
    pub name: String,
    /// Its value.
    pub value: AttrValue,
    /// Line.
    pub line: u32,
}

/// The value of a kernel attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// No value.
    None,
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
}

/// A statement of the kernel body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `NAME:`, the start of a basic block.
    Label {
        /// The label.
        name: String,
        /// Line.
        line: u32,
    },
    /// An instruction.
    Inst(Inst),
}

/// One instruction and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// Line (1-based).
    pub line: u32,
    /// What it does.
    pub kind: InstKind,
}

/// The instructions the interpreter runs.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// Arithmetic, logic, comparison and move instructions.
    Alu(AluInst),
    /// `addr_add (exec) A(sub)<1> &V src`: each channel's address register element
    /// becomes the byte address of `V` plus the channel's `src` (`uw` byte offsets).
    AddrAdd {
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The address variable.
        addr: String,
        /// Its first element written.
        sub: u32,
        /// The variable whose address is taken.
        base: String,
        /// The byte offsets.
        src: Src,
    },
    /// `[(P)] mov (exec) dst r[A(sub),imm]<1,0>:ty`: each channel reads the `ty` at its
    /// own address register element plus `imm` (the `VxH` region).
    MovIndirect {
        /// The predicate.
        pred: Option<PredUse>,
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The destination.
        dst: Dst,
        /// The address variable.
        addr: String,
        /// Its element of channel 0.
        sub: u32,
        /// Bytes added to every address.
        imm: u32,
        /// The element type read.
        ty: super::types::VType,
    },
    /// `setp (exec) P src`.
    Setp {
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The predicate written.
        dst: String,
        /// The source.
        src: Src,
    },
    /// `movs (exec) dst src`: moves surface or sampler indices between state variables
    /// and general operands or immediates.
    Movs {
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The destination.
        dst: StateOr<Dst>,
        /// The source.
        src: StateOr<Src>,
    },
    /// `[(P)] goto (exec) label` or `[(P)] jmp (exec) label`.
    Branch {
        /// `goto` (SIMD control flow) or `jmp` (uniform).
        op: BranchOp,
        /// The predicate.
        pred: Option<PredUse>,
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The target.
        label: String,
    },
    /// `[(P)] ret (exec)`.
    Ret {
        /// The predicate.
        pred: Option<PredUse>,
        /// Execution size and mask.
        exec: ExecCtrl,
    },
    /// An LSC load, store or atomic (`lsc_load.ugm ...`).
    Lsc(Box<LscInst>),
    /// `lsc_fence.SFID.OP.SCOPE`.
    LscFence {
        /// The shared function fenced.
        sfid: Sfid,
        /// The fence operation (`none`, `evict`, ...).
        op: String,
        /// The scope (`group`, `local`, `gpu`, ...).
        scope: String,
    },
    /// A sampler message: `load_3d.RGBA`, `load_lz.RGBA` or `resinfo.RGBA`.
    SamplerLoad(Box<SamplerLoad>),
    /// A legacy data-port message (`gather4_typed`, `dword_atomic`, `svm_gather`, ...).
    Dataport(Box<DataportInst>),
    /// `fence_global[.opts]`, `fence_local[.opts]` or `fence_sw`.
    Fence {
        /// `fence_local`: shared local memory only.
        local: bool,
        /// `fence_sw`: a scheduling barrier only.
        software: bool,
    },
    /// `barrier`: workgroup barrier.
    Barrier,
    /// `lifetime.start V` / `lifetime.end V`: the variable's value is dead before the
    /// start (or after the end) marker.
    Lifetime {
        /// `lifetime.start`.
        start: bool,
        /// The variable.
        var: String,
    },
}

/// An operand of `movs`: a state operand `T6(0)` (a surface or sampler variable and
/// its first element) or a general operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateOr<T> {
    /// `V(offset)`.
    State {
        /// The surface or sampler variable.
        var: String,
        /// Its first element.
        offset: u32,
    },
    /// A general operand (or an immediate source).
    General(T),
}

/// `goto` or `jmp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BranchOp {
    /// SIMD (divergent) jump.
    Goto,
    /// Uniform jump.
    Jmp,
}

/// The ALU opcodes, named as in the vISA instruction chapters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AluOp {
    /// `mov`: copy with type conversion.
    Mov,
    /// `sel`: per-channel choice by predicate.
    Sel,
    /// `add`.
    Add,
    /// `add3`: three-source add.
    Add3,
    /// `avg`: `(src0 + src1 + 1) >> 1`.
    Avg,
    /// `mul`.
    Mul,
    /// `mulh`: high 32 bits of a 32x32 product.
    Mulh,
    /// `mad`: `src0 * src1 + src2`.
    Mad,
    /// `addc`: add with carry out.
    Addc,
    /// `subb`: subtract with borrow out.
    Subb,
    /// `div`.
    Div,
    /// `divm`: IEEE (correctly rounded) division.
    Divm,
    /// `mod`.
    Mod,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `cmp.rel`.
    Cmp,
    /// `shl`.
    Shl,
    /// `shr` (logical).
    Shr,
    /// `asr` (arithmetic).
    Asr,
    /// `rol`.
    Rol,
    /// `ror`.
    Ror,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `not`.
    Not,
    /// `bfn.xHH`: any three-input boolean function, its truth table in the `u8`.
    Bfn(u8),
    /// `bfe`: bit-field extract.
    Bfe,
    /// `bfi`: bit-field insert.
    Bfi,
    /// `bfrev`: bit reverse.
    Bfrev,
    /// `cbit`: count set bits.
    Cbit,
    /// `fbl`: first bit from the low end.
    Fbl,
    /// `fbh`: first bit from the high end.
    Fbh,
    /// `lzd`: leading zeros.
    Lzd,
    /// `inv`: `1 / x`.
    Inv,
    /// `sqrt`.
    Sqrt,
    /// `sqrtm`: IEEE (correctly rounded) square root.
    Sqrtm,
    /// `rsqrt`.
    Rsqrt,
    /// `exp`: base-2 exponential.
    Exp,
    /// `log`: base-2 logarithm.
    Log,
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `pow`.
    Pow,
    /// `rnde`: round to nearest even.
    Rnde,
    /// `rndd`: round down.
    Rndd,
    /// `rndu`: round up.
    Rndu,
    /// `rndz`: round toward zero.
    Rndz,
    /// `frc`: `x - floor(x)`.
    Frc,
}

impl AluOp {
    /// The opcode spelled `s` (lower case, without modifiers), as in IGC's lexer.
    pub fn from_name(s: &str) -> Option<AluOp> {
        Some(match s {
            "mov" => AluOp::Mov,
            "sel" => AluOp::Sel,
            "add" => AluOp::Add,
            "add3" => AluOp::Add3,
            "avg" => AluOp::Avg,
            "mul" => AluOp::Mul,
            "mulh" => AluOp::Mulh,
            "mad" => AluOp::Mad,
            "addc" => AluOp::Addc,
            "subb" => AluOp::Subb,
            "div" => AluOp::Div,
            "divm" => AluOp::Divm,
            "mod" => AluOp::Mod,
            "min" => AluOp::Min,
            "max" => AluOp::Max,
            "cmp" => AluOp::Cmp,
            "shl" => AluOp::Shl,
            "shr" => AluOp::Shr,
            "asr" => AluOp::Asr,
            "rol" => AluOp::Rol,
            "ror" => AluOp::Ror,
            "and" => AluOp::And,
            "or" => AluOp::Or,
            "xor" => AluOp::Xor,
            "not" => AluOp::Not,
            "bfe" => AluOp::Bfe,
            "bfi" => AluOp::Bfi,
            "bfrev" => AluOp::Bfrev,
            "cbit" => AluOp::Cbit,
            "fbl" => AluOp::Fbl,
            "fbh" => AluOp::Fbh,
            "lzd" => AluOp::Lzd,
            "inv" => AluOp::Inv,
            "sqrt" => AluOp::Sqrt,
            "sqrtm" => AluOp::Sqrtm,
            "rsqrt" => AluOp::Rsqrt,
            "exp" => AluOp::Exp,
            "log" => AluOp::Log,
            "sin" => AluOp::Sin,
            "cos" => AluOp::Cos,
            "pow" => AluOp::Pow,
            "rnde" => AluOp::Rnde,
            "rndd" => AluOp::Rndd,
            "rndu" => AluOp::Rndu,
            "rndz" => AluOp::Rndz,
            "frc" => AluOp::Frc,
            _ => return None,
        })
    }

    /// The mnemonic.
    pub fn name(self) -> &'static str {
        match self {
            AluOp::Mov => "mov",
            AluOp::Sel => "sel",
            AluOp::Add => "add",
            AluOp::Add3 => "add3",
            AluOp::Avg => "avg",
            AluOp::Mul => "mul",
            AluOp::Mulh => "mulh",
            AluOp::Mad => "mad",
            AluOp::Addc => "addc",
            AluOp::Subb => "subb",
            AluOp::Div => "div",
            AluOp::Divm => "divm",
            AluOp::Mod => "mod",
            AluOp::Min => "min",
            AluOp::Max => "max",
            AluOp::Cmp => "cmp",
            AluOp::Shl => "shl",
            AluOp::Shr => "shr",
            AluOp::Asr => "asr",
            AluOp::Rol => "rol",
            AluOp::Ror => "ror",
            AluOp::And => "and",
            AluOp::Or => "or",
            AluOp::Xor => "xor",
            AluOp::Not => "not",
            AluOp::Bfn(_) => "bfn",
            AluOp::Bfe => "bfe",
            AluOp::Bfi => "bfi",
            AluOp::Bfrev => "bfrev",
            AluOp::Cbit => "cbit",
            AluOp::Fbl => "fbl",
            AluOp::Fbh => "fbh",
            AluOp::Lzd => "lzd",
            AluOp::Inv => "inv",
            AluOp::Sqrt => "sqrt",
            AluOp::Sqrtm => "sqrtm",
            AluOp::Rsqrt => "rsqrt",
            AluOp::Exp => "exp",
            AluOp::Log => "log",
            AluOp::Sin => "sin",
            AluOp::Cos => "cos",
            AluOp::Pow => "pow",
            AluOp::Rnde => "rnde",
            AluOp::Rndd => "rndd",
            AluOp::Rndu => "rndu",
            AluOp::Rndz => "rndz",
            AluOp::Frc => "frc",
        }
    }

    /// Number of source operands.
    pub fn num_srcs(self) -> usize {
        match self {
            AluOp::Mov | AluOp::Not | AluOp::Bfrev | AluOp::Cbit | AluOp::Fbl | AluOp::Fbh => 1,
            AluOp::Lzd | AluOp::Inv | AluOp::Sqrt | AluOp::Rsqrt | AluOp::Exp | AluOp::Log => 1,
            AluOp::Sin | AluOp::Cos | AluOp::Rnde | AluOp::Rndd | AluOp::Rndu | AluOp::Rndz => 1,
            AluOp::Frc | AluOp::Sqrtm => 1,
            AluOp::Add3 | AluOp::Mad | AluOp::Bfe | AluOp::Bfn(_) => 3,
            AluOp::Bfi => 4,
            _ => 2,
        }
    }
}

/// An ALU instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct AluInst {
    /// The opcode.
    pub op: AluOp,
    /// The relational operator of `cmp`.
    pub cond: Option<CondMod>,
    /// The predicate.
    pub pred: Option<PredUse>,
    /// `.sat`.
    pub sat: bool,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The destination.
    pub dst: Dst,
    /// The second destination of `addc` (carry) and `subb` (borrow).
    pub dst2: Option<Dst>,
    /// The sources.
    pub srcs: Vec<Src>,
}

/// A predicate use: `(P1)`, `(!P1)`, `(P1.any)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredUse {
    /// The predicate variable.
    pub name: String,
    /// `!`: use the inverse.
    pub invert: bool,
    /// `.any`, `.all` or neither.
    pub combine: PredCombine,
}

/// A destination operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dst {
    /// `V(row, col)<hstride>`.
    General {
        /// The variable (`%null` discards).
        var: String,
        /// Row, in registers.
        row: u32,
        /// Column, in elements.
        col: u32,
        /// Horizontal stride, in elements.
        hstride: u32,
    },
    /// A predicate (`cmp` and the predicate logic instructions).
    Pred(String),
}

/// A source operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Src {
    /// `[mod] V(row, col)<vstride; width, hstride>`.
    General {
        /// Source modifier.
        modifier: SrcMod,
        /// The variable.
        var: String,
        /// Row, in registers.
        row: u32,
        /// Column, in elements.
        col: u32,
        /// Vertical stride, in elements.
        vstride: u32,
        /// Width, in elements.
        width: u32,
        /// Horizontal stride, in elements.
        hstride: u32,
    },
    /// `value:type`, the value's bits in the low bits (as many as the type has).
    Imm {
        /// The bits.
        bits: u64,
        /// The type.
        ty: VType,
    },
    /// A predicate variable.
    Pred(String),
}

/// A raw operand `V.offset` (message payloads): the variable's bytes from `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    /// The variable (`%null` for none).
    pub var: String,
    /// Byte offset.
    pub offset: u32,
}

impl Raw {
    /// Whether this is `%null`.
    pub fn is_null(&self) -> bool {
        self.var == "%null"
    }
}

/// A scalar operand of a message: a variable element (`V`, `V.2`, `V(0,2)`) or an
/// immediate (surface indices, block2d payload fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// Element `(row, col)` of a variable, read with the variable's type.
    Var {
        /// The variable.
        var: String,
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// An immediate (type `ud`).
    Imm(i64),
}

/// The LSC operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LscOp {
    /// `lsc_load`.
    Load,
    /// `lsc_load_quad`.
    LoadQuad,
    /// `lsc_load_strided`.
    LoadStrided,
    /// `lsc_load_block2d`.
    LoadBlock2d,
    /// `lsc_store`.
    Store,
    /// `lsc_store_quad`.
    StoreQuad,
    /// `lsc_store_strided`.
    StoreStrided,
    /// `lsc_store_block2d`.
    StoreBlock2d,
    /// `lsc_atomic_<op>`.
    Atomic(LscAtomicOp),
}

impl LscOp {
    /// Whether the operation returns data (loads and atomics).
    pub fn is_load(self) -> bool {
        matches!(
            self,
            LscOp::Load | LscOp::LoadQuad | LscOp::LoadStrided | LscOp::LoadBlock2d
        )
    }
}

/// The data operand of an LSC message and its shape.
#[derive(Clone, Debug, PartialEq)]
pub enum LscData {
    /// A vector or channel-mask shape (`V:d32x4`, `V:d32.xyzw`).
    Shape(Raw, DataShape),
    /// A 2D block shape (`V:d8.2x32x32nn`), with its element size.
    Block(Raw, ir::lsc::DataSize, BlockShape),
}

/// The address operand of an LSC message.
#[derive(Clone, Debug, PartialEq)]
pub enum LscAddr {
    /// `model[(surface)][ [scale*] V [+off] [, stride] ]:aNN` (untyped; typed with
    /// up to four coordinate registers `u, v, r, lod`).
    Vector {
        /// The address model.
        model: AddrType,
        /// The surface of `bti`/`ss`/`bss`.
        surface: Option<Scalar>,
        /// The immediate scale (1 unless written).
        scale: i64,
        /// The address registers: one (untyped), one to four (typed `u, v, r, lod`).
        regs: Vec<Raw>,
        /// The immediate offset in bytes.
        offset: i64,
        /// The stride of strided messages.
        stride: Option<Scalar>,
        /// The address size.
        size: AddrSize,
    },
    /// `flat[base, width, height, pitch, x, y]` of a 2D block message.
    Block2d {
        /// Surface base, width, height, pitch, x and y, in that order.
        fields: [Scalar; 6],
    },
}

/// An LSC message instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct LscInst {
    /// The operation.
    pub op: LscOp,
    /// The shared function.
    pub sfid: Sfid,
    /// The cache controls.
    pub caching: CacheControl,
    /// The predicate.
    pub pred: Option<PredUse>,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The destination (loads, atomics) or the stored data (stores).
    pub data: LscData,
    /// The address.
    pub addr: LscAddr,
    /// The first data source of atomics (`%null` if none).
    pub src1: Option<Raw>,
    /// The second data source of atomics (`%null` if none).
    pub src2: Option<Raw>,
}

/// The sampler message operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SamplerOp {
    /// `load_3d` (`ld`): `u, v, lod, r`.
    Ld,
    /// `load_lz` (`ld_lz`): `u, v, r`.
    LdLz,
    /// `resinfo` (vISA `info_3d` with `VISA_3D_RESINFO`): `lod`; the surface's size at
    /// that level and its level count (IGC `documentation/visa/instructions/INFO.md`).
    Resinfo,
    /// `sample_l` (vISA `3D_SAMPLE` with `VISA_3D_SAMPLE_L`): `lod, u, v, r`, filtered
    /// with the state of the sampler variable's index (IGC
    /// `documentation/visa/instructions/3D_SAMPLE.md`).
    SampleL,
    /// `sample4` (vISA `3D_SAMPLE4` with `gather4`): `u, v, r`; the one channel it
    /// names of the four texels a bilinear filter reads (IGC
    /// `documentation/visa/instructions/3D_SAMPLE4.md`).
    Gather4,
    /// `load_mcs` (vISA `3D_LOAD` with `VISA_3D_LD_MCS`): `u, v, r`; the multisample
    /// control surface's value of the texel, low dword in R, high in G (IGC
    /// `documentation/visa/instructions/3D_LOAD.md`).
    LdMcs,
    /// `load_2dms_w` (vISA `3D_LOAD` with `VISA_3D_LD2DMS_W`): `si, mcsl, mcsh, u, v,
    /// r`; sample `si` of the texel of a multisampled surface, through its `load_mcs`
    /// value (`3D_LOAD.md`).
    Ld2dmsW,
}

impl SamplerOp {
    /// Whether the message names a sampler variable: `sample_l` and `sample4` do.
    pub fn uses_sampler_state(self) -> bool {
        matches!(self, SamplerOp::SampleL | SamplerOp::Gather4)
    }

    /// The mnemonic.
    pub fn visa_name(self) -> &'static str {
        match self {
            SamplerOp::Ld => "load_3d",
            SamplerOp::LdLz => "load_lz",
            SamplerOp::Resinfo => "resinfo",
            SamplerOp::SampleL => "sample_l",
            SamplerOp::Gather4 => "sample4",
            SamplerOp::LdMcs => "load_mcs",
            SamplerOp::Ld2dmsW => "load_2dms_w",
        }
    }
}

/// `[(P)] load_3d|load_lz|load_mcs|load_2dms_w[.pixel_null_mask].CH (exec) aoffimmi
/// surface dst srcs...` (`Load3dInstruction`),
/// `[(P)] sample_l[.pixel_null_mask].CH (exec) aoffimmi sampler surface dst srcs...`
/// (`Sample3dInstruction`), or `resinfo.CH (exec) surface lod dst` (IGC `visa/CISA.y`
/// `ResInfo3dInstruction`: no predicate, no `aoffimmi`, the LOD before the
/// destination), read into the same shape with no predicate, a zero `aoffimmi` and the
/// LOD as the one source.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerLoad {
    /// The operation.
    pub op: SamplerOp,
    /// The predicate.
    pub pred: Option<PredUse>,
    /// `.pixel_null_mask`.
    pub pixel_null_mask: bool,
    /// Returned channels, bit 0 = R.
    pub channels: u8,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The immediate texel offsets (`aoffimmi`).
    pub aoffimmi: Src,
    /// The sampler variable (`sample_l`; `None` for the messages without one).
    pub sampler: Option<String>,
    /// The surface variable.
    pub surface: String,
    /// The destination.
    pub dst: Raw,
    /// The coordinate operands, in the operation's order.
    pub srcs: Vec<Raw>,
}

/// The legacy data-port message instructions of vISA (the memory messages of Gfx8 to
/// Gfx12.0; IGC `documentation/visa/instructions/`, one page each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DpOpcode {
    /// `gather4_typed.CH`: typed surface read (`GATHER4_TYPED.md`).
    Gather4Typed,
    /// `scatter4_typed.CH`: typed surface write (`SCATTER4_TYPED.md`).
    Scatter4Typed,
    /// `typed_atomic.OP[.16]` (`TYPED_ATOMIC.md`).
    TypedAtomic,
    /// `gather4_scaled.CH`: untyped surface read at byte offsets (`GATHER4_SCALED.md`).
    Gather4Scaled,
    /// `scatter4_scaled.CH` (`SCATTER4_SCALED.md`).
    Scatter4Scaled,
    /// `dword_atomic.OP[.16]` (`DWORD_ATOMIC.md`).
    DwordAtomic,
    /// `gather_scaled.N`: N bytes per lane at byte offsets (`GATHER_SCALED.md`).
    GatherScaled,
    /// `scatter_scaled.N` (`SCATTER_SCALED.md`).
    ScatterScaled,
    /// `gather.E`: one element of E bytes per lane at offsets counted in elements
    /// (`GATHER.md`).
    Gather,
    /// `scatter.E` (`SCATTER.md`).
    Scatter,
    /// `svm_gather4scaled.CH`: the A64 untyped read (`SVM_GATHER4_SCALED.md`).
    SvmGather4Scaled,
    /// `svm_scatter4scaled.CH` (`SVM_SCATTER4_SCALED.md`).
    SvmScatter4Scaled,
    /// `svm_gather.BS.NB`: NB blocks of BS bytes per lane at A64 addresses
    /// (`SVM_GATHER.md`).
    SvmGather,
    /// `svm_scatter.BS.NB` (`SVM_SCATTER.md`).
    SvmScatter,
    /// `svm_atomic.OP[.16|.32|.64]` (`SVM_ATOMIC.md`).
    SvmAtomic,
    /// `oword_ld (N) surface offset dst`: N owords (16 bytes each; 1, 2, 4 or 8) of a
    /// buffer surface from oword `offset` on, into consecutive bytes of `dst`, without
    /// mask (`OWORD_LD.md`).
    OwordLd,
}

impl DpOpcode {
    /// Every opcode.
    pub const ALL: [DpOpcode; 16] = [
        DpOpcode::Gather4Typed,
        DpOpcode::Scatter4Typed,
        DpOpcode::TypedAtomic,
        DpOpcode::Gather4Scaled,
        DpOpcode::Scatter4Scaled,
        DpOpcode::DwordAtomic,
        DpOpcode::GatherScaled,
        DpOpcode::ScatterScaled,
        DpOpcode::Gather,
        DpOpcode::Scatter,
        DpOpcode::SvmGather4Scaled,
        DpOpcode::SvmScatter4Scaled,
        DpOpcode::SvmGather,
        DpOpcode::SvmScatter,
        DpOpcode::SvmAtomic,
        DpOpcode::OwordLd,
    ];

    /// The mnemonic (IGC `visa/CISA.l`).
    pub fn name(self) -> &'static str {
        match self {
            DpOpcode::Gather4Typed => "gather4_typed",
            DpOpcode::Scatter4Typed => "scatter4_typed",
            DpOpcode::TypedAtomic => "typed_atomic",
            DpOpcode::Gather4Scaled => "gather4_scaled",
            DpOpcode::Scatter4Scaled => "scatter4_scaled",
            DpOpcode::DwordAtomic => "dword_atomic",
            DpOpcode::GatherScaled => "gather_scaled",
            DpOpcode::ScatterScaled => "scatter_scaled",
            DpOpcode::Gather => "gather",
            DpOpcode::Scatter => "scatter",
            DpOpcode::SvmGather4Scaled => "svm_gather4scaled",
            DpOpcode::SvmScatter4Scaled => "svm_scatter4scaled",
            DpOpcode::SvmGather => "svm_gather",
            DpOpcode::SvmScatter => "svm_scatter",
            DpOpcode::SvmAtomic => "svm_atomic",
            DpOpcode::OwordLd => "oword_ld",
        }
    }

    /// The opcode spelled `s`.
    pub fn from_name(s: &str) -> Option<DpOpcode> {
        DpOpcode::ALL.into_iter().find(|o| o.name() == s)
    }

    /// Whether the message returns data to a destination (reads and atomics).
    pub fn has_dst(self) -> bool {
        matches!(
            self,
            DpOpcode::Gather4Typed
                | DpOpcode::TypedAtomic
                | DpOpcode::Gather4Scaled
                | DpOpcode::DwordAtomic
                | DpOpcode::GatherScaled
                | DpOpcode::Gather
                | DpOpcode::SvmGather4Scaled
                | DpOpcode::SvmGather
                | DpOpcode::SvmAtomic
                | DpOpcode::OwordLd
        )
    }

    /// Whether this is an atomic.
    pub fn is_atomic(self) -> bool {
        matches!(
            self,
            DpOpcode::TypedAtomic | DpOpcode::DwordAtomic | DpOpcode::SvmAtomic
        )
    }

    /// Whether the message moves the channels of a channel mask (`.RGBA`).
    pub fn has_channels(self) -> bool {
        matches!(
            self,
            DpOpcode::Gather4Typed
                | DpOpcode::Scatter4Typed
                | DpOpcode::Gather4Scaled
                | DpOpcode::Scatter4Scaled
                | DpOpcode::SvmGather4Scaled
                | DpOpcode::SvmScatter4Scaled
        )
    }
}

/// vISA's atomic operations, as its text spells them (IGC `visa/CISA.l`; their meaning
/// is the table of `DWORD_ATOMIC.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VisaAtomicOp {
    /// `new = old + src0`.
    Add,
    /// `new = old - src0`.
    Sub,
    /// `new = old + 1`.
    Inc,
    /// `new = old - 1`.
    Dec,
    /// `new = min(old, src0)`, unsigned.
    Min,
    /// `new = max(old, src0)`, unsigned.
    Max,
    /// `new = src0`.
    Xchg,
    /// `new = (old == src1) ? src0 : old`.
    Cmpxchg,
    /// `new = old & src0`.
    And,
    /// `new = old | src0`.
    Or,
    /// `new = old ^ src0`.
    Xor,
    /// `new = min(old, src0)`, signed (the table's IMIN).
    Minsint,
    /// `new = max(old, src0)`, signed (IMAX).
    Maxsint,
    /// `new = max(old, src0)`, float.
    Fmax,
    /// `new = min(old, src0)`, float.
    Fmin,
    /// `new = (src0 == old) ? src1 : old`, compared as floats.
    Fcmpwr,
}

impl VisaAtomicOp {
    /// Every operation.
    pub const ALL: [VisaAtomicOp; 16] = [
        VisaAtomicOp::Add,
        VisaAtomicOp::Sub,
        VisaAtomicOp::Inc,
        VisaAtomicOp::Dec,
        VisaAtomicOp::Min,
        VisaAtomicOp::Max,
        VisaAtomicOp::Xchg,
        VisaAtomicOp::Cmpxchg,
        VisaAtomicOp::And,
        VisaAtomicOp::Or,
        VisaAtomicOp::Xor,
        VisaAtomicOp::Minsint,
        VisaAtomicOp::Maxsint,
        VisaAtomicOp::Fmax,
        VisaAtomicOp::Fmin,
        VisaAtomicOp::Fcmpwr,
    ];

    /// The spelling after the mnemonic's dot.
    pub fn name(self) -> &'static str {
        match self {
            VisaAtomicOp::Add => "add",
            VisaAtomicOp::Sub => "sub",
            VisaAtomicOp::Inc => "inc",
            VisaAtomicOp::Dec => "dec",
            VisaAtomicOp::Min => "min",
            VisaAtomicOp::Max => "max",
            VisaAtomicOp::Xchg => "xchg",
            VisaAtomicOp::Cmpxchg => "cmpxchg",
            VisaAtomicOp::And => "and",
            VisaAtomicOp::Or => "or",
            VisaAtomicOp::Xor => "xor",
            VisaAtomicOp::Minsint => "minsint",
            VisaAtomicOp::Maxsint => "maxsint",
            VisaAtomicOp::Fmax => "fmax",
            VisaAtomicOp::Fmin => "fmin",
            VisaAtomicOp::Fcmpwr => "fcmpwr",
        }
    }

    /// The operation spelled `s`.
    pub fn from_name(s: &str) -> Option<VisaAtomicOp> {
        VisaAtomicOp::ALL.into_iter().find(|o| o.name() == s)
    }

    /// Data operands it reads: none for `inc`/`dec`, `src0` and `src1` for the compare
    /// and exchanges, `src0` otherwise.
    pub fn num_srcs(self) -> usize {
        match self {
            VisaAtomicOp::Inc | VisaAtomicOp::Dec => 0,
            VisaAtomicOp::Cmpxchg | VisaAtomicOp::Fcmpwr => 2,
            _ => 1,
        }
    }

    /// Whether the operation acts on floats.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            VisaAtomicOp::Fmax | VisaAtomicOp::Fmin | VisaAtomicOp::Fcmpwr
        )
    }
}

/// A legacy data-port message instruction, its operands as written (the
/// `Scatter*Instruction`, `DwordAtomicInstruction`, `TypedAtomicInstruction` and
/// `SvmInstruction` rules of IGC's `visa/CISA.y`):
///
/// ```text
/// [(P)] gather4_typed.CH   (exec) S u v r lod dst
/// [(P)] scatter4_typed.CH  (exec) S u v r lod src
/// [(P)] typed_atomic.OP[.16] (exec) S u v r lod src0 src1 dst
/// [(P)] gather4_scaled.CH  (exec) S offset element_offset dst
/// [(P)] scatter4_scaled.CH (exec) S offset element_offset src
/// [(P)] dword_atomic.OP[.16] (exec) S element_offset src0 src1 dst
/// [(P)] gather_scaled.N    (exec) S offset element_offset dst
/// [(P)] scatter_scaled.N   (exec) S offset element_offset src
///       gather.E  (exec) [.mod] S global_offset element_offset dst
///       scatter.E (exec) S global_offset element_offset src
/// [(P)] svm_gather4scaled.CH  (exec) address element_offset dst
/// [(P)] svm_scatter4scaled.CH (exec) address element_offset src
/// [(P)] svm_gather.BS.NB  (exec) addresses dst
/// [(P)] svm_scatter.BS.NB (exec) addresses src
/// [(P)] svm_atomic.OP[.16|.32|.64] (exec) addresses dst src0 src1
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DataportInst {
    /// The instruction.
    pub op: DpOpcode,
    /// The predicate (none on `gather` and `scatter`, whose rule has no place for one).
    pub pred: Option<PredUse>,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The channel mask of the four-channel messages (bit 0 = R); 0 for the others.
    pub channels: u8,
    /// The atomic operation of the atomics.
    pub atomic: Option<VisaAtomicOp>,
    /// Bits of an atomic's memory operand: 16, 32 or 64 (32 unless written).
    pub bits: u8,
    /// Bytes per block: `svm_gather`'s block size (1, 4 or 8), `gather`'s element size
    /// (1, 2 or 4), 1 for `gather_scaled`.
    pub block_size: u8,
    /// Blocks per lane: `svm_gather`'s and `gather_scaled`'s block count (1, 2, 4 or
    /// 8), 1 for `gather`; `oword_ld`'s owords (1, 2, 4 or 8).
    pub num_blocks: u8,
    /// The surface variable (`T6`, `%slm`); `None` for the `svm_*` messages.
    pub surface: Option<String>,
    /// The global offset of the `*_scaled`, `gather`/`scatter` and `svm_*4scaled`
    /// messages, `oword_ld`'s offset in owords (an immediate or a scalar register
    /// element).
    pub offset: Option<Src>,
    /// The address operands: `u, v, r, lod` of the typed messages (`%null` where a
    /// coordinate does not apply), else the one element offset or address operand.
    pub addr: Vec<Raw>,
    /// The data read: `src` of the writes, `src0, src1` of the atomics (`%null` where
    /// the operation takes none).
    pub srcs: Vec<Raw>,
    /// The destination of the reads and atomics (`%null` for none).
    pub dst: Option<Raw>,
}
