//! The register side of message instructions: where each operand of an LSC or sampler
//! message lies in the register file (the legacy data-port messages:
//! [`super::payload_dataport`]), how many bytes it covers, and how its per-lane
//! values are laid out, as the vISA spec and the hardware define them. What the memory
//! does with those values (the message semantics) is not here.
//!
//! Layouts (IGC `documentation/visa/instructions/LSC_UNTYPED.md`, `LSC_TYPED.md`,
//! `3D_LOAD.md`; Mesa's `lsc_msg_dest_len`/`lsc_msg_addr_len` for the register counts):
//!
//! * **SIMT data** (non-transposed LSC): component `v` of lane `n` is element `n` of a
//!   block of `exec_size` elements; "successive elements in successive registers", so
//!   each component's block starts a register: byte `v * ceil(exec * esz / GRF) * GRF +
//!   n * esz`, where `esz` is the data size's register size (d8 1, d16 2, d32 and the
//!   32-bit widening sizes 4, d64 8).
//! * **Transposed data** (SIMD1 block): component `v` at byte `v * esz`.
//! * **Quad data** (`.xyzw` masks): the enabled channels, in order, as SIMT components.
//! * **Addresses**: one element per lane of 2 (a16), 4 (a32) or 8 (a64) bytes; typed
//!   messages have one such block of 32-bit values per coordinate (u, v, r, lod).
//!   Strided messages have one base address.
//! * **2D block data**: the register image of `BlockShape::register_bytes` (64-byte
//!   registers; the messages exist only there).
//! * **Sampler**: each source is `exec_size` elements of its variable's type; each
//!   returned channel starts a register (`3D_LOAD.md`, `3D_SAMPLE.md`), followed by one
//!   register of pixel-null mask when asked for. The surface is a surface variable's
//!   element 0, `sample_l`'s sampler a sampler variable's.

use super::error::{ErrorKind, VisaError};
use super::listing::{
    DpOpcode, LscAddr, LscData, LscInst, LscOp, Raw, SamplerLoad, SamplerOp, Scalar, Src,
    VisaAtomicOp,
};
use super::regfile::{Layout, RegState, StateKind, VarRef};
use super::types::{ExecCtrl, VType};
use ir::lsc::{AddrSize, AddrType, BlockShape, CacheControl, DataShape, DataSize, Sfid};

/// A raw operand, resolved: its first byte in the register file and the bytes the
/// message covers from there (checked to lie inside the variable).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawRef {
    /// First byte.
    pub start: u32,
    /// Bytes the message reads or writes.
    pub bytes: u32,
    /// The variable's element type.
    pub ty: VType,
}

/// A scalar operand, resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarRef {
    /// A register element of type `ty` at byte `off`.
    Reg {
        /// Byte.
        off: u32,
        /// Type.
        ty: VType,
    },
    /// A surface or sampler element (state word index).
    State(u32),
    /// An immediate.
    Imm(i64),
}

impl ScalarRef {
    /// The operand's value: integers sign- or zero-extended from their type.
    pub fn value(self, st: &RegState) -> i128 {
        match self {
            ScalarRef::Reg { off, ty } => super::convert::int_value(st.read(off, ty.size()), ty),
            ScalarRef::State(w) => i128::from(st.states[w as usize]),
            ScalarRef::Imm(v) => i128::from(v),
        }
    }
}

/// The data of an LSC message: a vector or channel-mask shape, or a 2D block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XShape {
    /// SIMT, transposed or quad data.
    Vector(DataShape),
    /// 2D block data.
    Block(DataSize, BlockShape),
}

/// The address of an LSC message, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum XAddr {
    /// Per-lane addresses (untyped), one base (strided) or per-lane coordinates (typed).
    Vector {
        /// The address model.
        model: AddrType,
        /// The surface of stateful models.
        surface: Option<ScalarRef>,
        /// The immediate scale.
        scale: i64,
        /// The immediate offset.
        offset: i64,
        /// The address size.
        size: AddrSize,
        /// The address registers (untyped: one; typed: u, v, r, lod as given).
        regs: Vec<RawRef>,
        /// The stride of strided messages.
        stride: Option<ScalarRef>,
    },
    /// The six fields of a 2D block message: base, width, height, pitch, x, y.
    Block2d([ScalarRef; 6]),
}

/// An LSC message, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct XLsc {
    /// The operation.
    pub op: LscOp,
    /// The shared function.
    pub sfid: Sfid,
    /// The cache controls.
    pub caching: CacheControl,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The data shape.
    pub shape: XShape,
    /// The destination (loads, atomics) or stored data; `None` for `%null`.
    pub data: Option<RawRef>,
    /// The address.
    pub addr: XAddr,
    /// The atomic data sources (`None` for `%null` or absent).
    pub src1: Option<RawRef>,
    /// The second atomic data source.
    pub src2: Option<RawRef>,
}

/// A sampler load, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct XSampler {
    /// `ld`, `ld_lz`, `resinfo` or `sample_l`.
    pub op: SamplerOp,
    /// Returned channels (bit 0 = R).
    pub channels: u8,
    /// A pixel-null-mask register follows the data.
    pub pixel_null_mask: bool,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The immediate texel offsets (`aoffimmi`) bits.
    pub aoffimmi: u64,
    /// The sampler (a state word of a sampler variable; `sample_l` only).
    pub sampler: Option<ScalarRef>,
    /// The surface (a state word).
    pub surface: ScalarRef,
    /// The destination (`None` for `%null`).
    pub dst: Option<RawRef>,
    /// The coordinates in the operation's order (`ld`: u, v, lod, r; `ld_lz`: u, v, r;
    /// `resinfo`: lod; `sample_l`: lod, u, v, r).
    pub srcs: Vec<RawRef>,
}

/// The surface of a legacy data-port message, resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DpSurfaceRef {
    /// Element 0 of a surface variable (its state word): the binding-table index.
    State(u32),
    /// `%slm`, vISA's predefined surface T0: the workgroup's shared local memory.
    Slm,
    /// `%scratch`, vISA's predefined surface T5: the thread's scratch space
    /// ([`super::scratch`]).
    Scratch,
}

/// A legacy data-port message, resolved ([`super::payload_dataport`] checks its
/// operands and computes what each covers).
#[derive(Clone, Debug, PartialEq)]
pub struct XDataport {
    /// The instruction.
    pub op: DpOpcode,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The channel mask of the four-channel messages (bit 0 = R).
    pub channels: u8,
    /// The atomic operation.
    pub atomic: Option<VisaAtomicOp>,
    /// Bits of an atomic's memory operand: 16, 32 or 64.
    pub bits: u8,
    /// Bytes per block (`svm_gather`), per element (`gather`); 1 otherwise.
    pub block_size: u8,
    /// Blocks per lane (`svm_gather`, `gather_scaled`); 1 otherwise.
    pub num_blocks: u8,
    /// The surface (`None` for the `svm_*` messages).
    pub surface: Option<DpSurfaceRef>,
    /// The global offset (or `svm_*4scaled`'s base address).
    pub offset: Option<ScalarRef>,
    /// The address operands: `u, v, r, lod` of the typed messages (`None` for
    /// `%null`), else the one element offset or address operand.
    pub addr: Vec<Option<RawRef>>,
    /// `src` of the writes, `src0, src1` of the atomics (`None` for `%null`).
    pub srcs: Vec<Option<RawRef>>,
    /// The destination of the reads and atomics (`None` for `%null`).
    pub dst: Option<RawRef>,
}

/// A message instruction, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum XMessage {
    /// An LSC load, store or atomic.
    Lsc(XLsc),
    /// A sampler load.
    Sampler(XSampler),
    /// A legacy data-port message.
    Dataport(XDataport),
}

/// Bytes of one element of `size` in a register.
pub fn reg_bytes(size: DataSize) -> u32 {
    u32::from(size.reg_bits()) / 8
}

/// Bytes of one address of `size` in a register.
pub fn addr_bytes(size: AddrSize) -> u32 {
    u32::from(size.bits()) / 8
}

/// Bytes of a block of `n` elements of `esz` bytes, whole registers.
pub fn block_bytes(n: u32, esz: u32, grf: u32) -> u32 {
    (n * esz).div_ceil(grf) * grf
}

/// Bytes `comps` SIMT components of `n` elements of `esz` bytes reach: every component
/// but the last starts a register, the last ends after its `n` elements (a payload of
/// fewer bytes than a register may live in a smaller variable).
pub fn simt_span(comps: u32, n: u32, esz: u32, grf: u32) -> u32 {
    comps.saturating_sub(1) * block_bytes(n, esz, grf) + n * esz
}

struct Resolver<'a> {
    layout: &'a Layout,
    line: u32,
}

impl Resolver<'_> {
    fn err(&self, kind: ErrorKind) -> VisaError {
        VisaError::new(self.line, kind)
    }

    fn bad(&self, reason: String) -> VisaError {
        self.err(ErrorKind::BadInstruction { reason })
    }

    /// A raw operand covering `bytes` from its offset; `None` for `%null`.
    fn raw(&self, r: &Raw, bytes: u32) -> Result<Option<RawRef>, VisaError> {
        if r.is_null() {
            return Ok(None);
        }
        let v = self.layout.general_var(&r.var, self.line)?;
        let end = u64::from(r.offset) + u64::from(bytes);
        if end > u64::from(v.size) {
            return Err(self.err(ErrorKind::OutOfBounds {
                var: r.var.clone(),
                byte: end.min(u64::from(u32::MAX)) as u32,
                size: v.size,
            }));
        }
        Ok(Some(RawRef {
            start: v.start + r.offset,
            bytes,
            ty: v.ty,
        }))
    }

    fn required(&self, r: &Raw, bytes: u32, what: &str) -> Result<RawRef, VisaError> {
        self.raw(r, bytes)?
            .ok_or_else(|| self.bad(format!("{what} may not be %null")))
    }

    fn scalar(&self, s: &Scalar) -> Result<ScalarRef, VisaError> {
        match s {
            Scalar::Imm(v) => Ok(ScalarRef::Imm(*v)),
            Scalar::Var { var, row, col } => match self.layout.lookup(var, self.line)? {
                VarRef::State(i) => {
                    let st = &self.layout.states[i];
                    if *row != 0 || *col >= st.num_elts {
                        return Err(self.err(ErrorKind::OutOfBounds {
                            var: var.clone(),
                            byte: 4 * (col + 1),
                            size: 4 * st.num_elts,
                        }));
                    }
                    Ok(ScalarRef::State(st.first + col))
                }
                VarRef::General(_) => {
                    let v = self.layout.general_var(var, self.line)?;
                    let b = u64::from(*row) * u64::from(self.layout.grf)
                        + u64::from(*col) * u64::from(v.ty.size());
                    if b + u64::from(v.ty.size()) > u64::from(v.size) {
                        return Err(self.err(ErrorKind::OutOfBounds {
                            var: var.clone(),
                            byte: b.min(u64::from(u32::MAX)) as u32,
                            size: v.size,
                        }));
                    }
                    Ok(ScalarRef::Reg {
                        off: v.start + b as u32,
                        ty: v.ty,
                    })
                }
                _ => Err(self.err(ErrorKind::WrongVariableKind {
                    name: var.clone(),
                    expected: "a general, surface or sampler variable",
                })),
            },
        }
    }

    fn lsc(&self, l: &LscInst) -> Result<XLsc, VisaError> {
        let grf = self.layout.grf;
        let exec = u32::from(l.exec.size);
        let (data, shape) = match &l.data {
            LscData::Shape(r, shape) => {
                let esz = reg_bytes(shape.size);
                let bytes = if shape.transpose {
                    if exec != 1 {
                        return Err(self.bad(format!(
                            "a transposed message has execution size 1, not {exec}"
                        )));
                    }
                    u32::from(shape.vect) * esz
                } else {
                    simt_span(u32::from(shape.components()), exec, esz, grf)
                };
                (self.raw(r, bytes)?, XShape::Vector(*shape))
            }
            LscData::Block(r, size, shape) => {
                if grf != 64 {
                    return Err(
                        self.bad("2D block messages need 64-byte registers (PVC and later)".into())
                    );
                }
                let bytes = shape.register_bytes(size.mem_bytes());
                (self.raw(r, bytes)?, XShape::Block(*size, *shape))
            }
        };
        let addr = match &l.addr {
            LscAddr::Block2d { fields } => {
                let f = |i: usize| self.scalar(&fields[i]);
                XAddr::Block2d([f(0)?, f(1)?, f(2)?, f(3)?, f(4)?, f(5)?])
            }
            LscAddr::Vector {
                model,
                surface,
                scale,
                regs,
                offset,
                stride,
                size,
            } => {
                let strided = matches!(l.op, LscOp::LoadStrided | LscOp::StoreStrided);
                let typed = l.sfid == Sfid::Tgm;
                let per_reg = if strided {
                    addr_bytes(*size)
                } else if typed {
                    exec * 4
                } else {
                    exec * addr_bytes(*size)
                };
                let regs = regs
                    .iter()
                    .map(|r| self.required(r, per_reg, "an address register"))
                    .collect::<Result<Vec<_>, _>>()?;
                let surface = match surface {
                    Some(s) => Some(self.scalar(s)?),
                    None => None,
                };
                let stride = match stride {
                    Some(s) => Some(self.scalar(s)?),
                    None => None,
                };
                XAddr::Vector {
                    model: *model,
                    surface,
                    scale: *scale,
                    offset: *offset,
                    size: *size,
                    regs,
                    stride,
                }
            }
        };
        let src_bytes = match &l.data {
            LscData::Shape(_, shape) => simt_span(
                u32::from(shape.components()),
                exec,
                reg_bytes(shape.size),
                grf,
            ),
            LscData::Block(..) => 0,
        };
        let src = |r: &Option<Raw>| match r {
            Some(r) => self.raw(r, src_bytes),
            None => Ok(None),
        };
        Ok(XLsc {
            op: l.op,
            sfid: l.sfid,
            caching: l.caching,
            exec: l.exec,
            shape,
            data,
            addr,
            src1: src(&l.src1)?,
            src2: src(&l.src2)?,
        })
    }

    fn sampler(&self, s: &SamplerLoad) -> Result<XSampler, VisaError> {
        let grf = self.layout.grf;
        let exec = u32::from(s.exec.size);
        let aoffimmi = match &s.aoffimmi {
            Src::Imm { bits, .. } => *bits,
            _ => {
                return Err(self.err(ErrorKind::Unsupported {
                    what: "a sampler `aoffimmi` operand other than an immediate".into(),
                }))
            }
        };
        let surface = self.state(&s.surface, StateKind::Surface, "a surface")?;
        let sampler = match (&s.sampler, s.op.uses_sampler_state()) {
            (Some(name), true) => Some(self.state(name, StateKind::Sampler, "a sampler")?),
            (None, true) => {
                return Err(self.bad(format!("`{}` names a sampler variable", s.op.visa_name())))
            }
            (Some(_), false) => {
                return Err(self.bad("only `sample_l` and `sample4` name a sampler".into()))
            }
            (None, false) => None,
        };
        let dst = if s.dst.is_null() {
            None
        } else {
            let v = self.layout.general_var(&s.dst.var, self.line)?;
            // `sample4` returns its channel of four texels.
            let chans = match s.op {
                SamplerOp::Gather4 => 4,
                _ => s.channels.count_ones(),
            };
            let bytes = if s.pixel_null_mask {
                chans * block_bytes(exec, v.ty.size(), grf) + 4
            } else {
                simt_span(chans, exec, v.ty.size(), grf)
            };
            self.raw(&s.dst, bytes)?
        };
        let (max, name, operand) = match s.op {
            SamplerOp::Ld => (4, "load_3d", "a coordinate"),
            SamplerOp::LdLz => (3, "load_lz", "a coordinate"),
            // `resinfo` has exactly one source, the LOD (CISA.y `ResInfo3dInstruction`).
            SamplerOp::Resinfo => (1, "resinfo", "the LOD"),
            // 3D_SAMPLE's `sample_l` parameters: lod, u, v, r (`ai`, the cube's array
            // index, is outside the subset: cubes are refused by the lowering).
            SamplerOp::SampleL => (4, "sample_l", "a parameter"),
            // 3D_SAMPLE4's `gather4`: u, v, r (`ai` as for `sample_l`).
            SamplerOp::Gather4 => (3, "sample4", "a parameter"),
            // 3D_LOAD's `ld_mcs`: u, v, r; `ld2dms_w`: si, mcsl, mcsh, u, v, r (a 2D
            // multisampled surface has no LOD).
            SamplerOp::LdMcs => (3, "load_mcs", "a coordinate"),
            SamplerOp::Ld2dmsW => (6, "load_2dms_w", "a parameter"),
        };
        if s.srcs.is_empty() && s.op.uses_sampler_state() {
            // 3D_SAMPLE's and 3D_SAMPLE4's NumParams are 1 to 15.
            return Err(self.bad(format!("`{name}` takes at least one parameter")));
        }
        if s.srcs.len() > max {
            return Err(self.bad(format!("`{name}` takes at most {max} coordinates")));
        }
        let srcs = s
            .srcs
            .iter()
            .map(|r| {
                let v = self.layout.general_var(&r.var, self.line)?;
                // The LOD of `resinfo` is an unsigned integer per lane (INFO.md); the
                // load coordinates may also be words or the float bits the payload
                // carries.
                let ok = match s.op {
                    SamplerOp::Resinfo => matches!(v.ty, VType::Ud | VType::D),
                    SamplerOp::Ld | SamplerOp::LdLz | SamplerOp::LdMcs | SamplerOp::Ld2dmsW => {
                        matches!(v.ty, VType::Ud | VType::D | VType::Uw | VType::W | VType::F)
                    }
                    // Float bits, 32 per lane (a 16-bit payload is the sampler's
                    // half-float input mode, not modelled).
                    SamplerOp::SampleL | SamplerOp::Gather4 => {
                        matches!(v.ty, VType::F | VType::Ud | VType::D)
                    }
                };
                if !ok {
                    return Err(self.err(ErrorKind::BadType {
                        op: name,
                        operand,
                        ty: v.ty,
                        rule: match s.op {
                            SamplerOp::Resinfo => "the resinfo LOD is ud or d",
                            SamplerOp::SampleL | SamplerOp::Gather4 => {
                                "sample_l and sample4 parameters are 32-bit floats (f, or their bits in ud or d)"
                            }
                            SamplerOp::Ld
                            | SamplerOp::LdLz
                            | SamplerOp::LdMcs
                            | SamplerOp::Ld2dmsW => "sampler coordinates are ud or uw",
                        },
                    }));
                }
                self.required(r, exec * v.ty.size(), operand)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(XSampler {
            op: s.op,
            channels: s.channels,
            pixel_null_mask: s.pixel_null_mask,
            exec: s.exec,
            aoffimmi,
            sampler,
            surface,
            dst,
            srcs,
        })
    }

    /// Element 0 of the state variable `name`, which must be of `kind`.
    fn state(
        &self,
        name: &str,
        kind: StateKind,
        expected: &'static str,
    ) -> Result<ScalarRef, VisaError> {
        let wrong = || {
            self.err(ErrorKind::WrongVariableKind {
                name: name.to_string(),
                expected,
            })
        };
        match self.layout.lookup(name, self.line)? {
            VarRef::State(i) if self.layout.states[i].kind == kind => {}
            _ => return Err(wrong()),
        }
        self.scalar(&Scalar::Var {
            var: name.to_string(),
            row: 0,
            col: 0,
        })
    }
}

/// Resolves the raw operand `r` of an instruction at `line`, covering `bytes` from its
/// offset (checked to lie inside the variable); `None` for `%null`.
pub fn resolve_raw(
    layout: &Layout,
    r: &Raw,
    bytes: u32,
    line: u32,
) -> Result<Option<RawRef>, VisaError> {
    Resolver { layout, line }.raw(r, bytes)
}

/// Resolves the scalar operand `s` of an instruction at `line`.
pub fn resolve_scalar(layout: &Layout, s: &Scalar, line: u32) -> Result<ScalarRef, VisaError> {
    Resolver { layout, line }.scalar(s)
}

/// Resolves the LSC message `l` of line `line` on `layout`, checking that every
/// operand covers the bytes the message reads or writes.
pub fn resolve_lsc(layout: &Layout, l: &LscInst, line: u32) -> Result<XLsc, VisaError> {
    Resolver { layout, line }.lsc(l)
}

/// Resolves the sampler message `s` of line `line` on `layout`.
pub fn resolve_sampler(layout: &Layout, s: &SamplerLoad, line: u32) -> Result<XSampler, VisaError> {
    Resolver { layout, line }.sampler(s)
}

/// Reads per-lane values: lane `n`'s element of `esz` bytes at `start + n * esz`,
/// zero-extended, for the lanes `0 .. exec`.
pub fn read_lanes(st: &RegState, start: u32, esz: u32, exec: u32) -> Vec<u64> {
    (0..exec).map(|n| st.read(start + n * esz, esz)).collect()
}

/// The SIMT (or quad) data of `raw`: `out[n][v]` is component `v` of lane `n`, for
/// `comps` components of `esz` bytes.
pub fn read_simt(
    st: &RegState,
    raw: RawRef,
    exec: u32,
    esz: u32,
    comps: u32,
    grf: u32,
) -> Vec<Vec<u64>> {
    let block = block_bytes(exec, esz, grf);
    (0..exec)
        .map(|n| {
            (0..comps)
                .map(|v| st.read(raw.start + v * block + n * esz, esz))
                .collect()
        })
        .collect()
}

/// Writes SIMT data: component `v` of lane `n` from `vals[n][v]`, for the lanes set in
/// `lanes` (the others keep their bytes).
pub fn write_simt(
    st: &mut RegState,
    raw: RawRef,
    esz: u32,
    grf: u32,
    lanes: u32,
    vals: &[Vec<u64>],
) {
    let exec = vals.len() as u32;
    let block = block_bytes(exec, esz, grf);
    for (n, lane) in vals.iter().enumerate() {
        if lanes >> n & 1 == 0 {
            continue;
        }
        for (v, x) in lane.iter().enumerate() {
            st.write(raw.start + v as u32 * block + n as u32 * esz, esz, *x);
        }
    }
}

/// The transposed (SIMD1 block) data of `raw`: `comps` elements of `esz` bytes.
pub fn read_transposed(st: &RegState, raw: RawRef, esz: u32, comps: u32) -> Vec<u64> {
    (0..comps)
        .map(|v| st.read(raw.start + v * esz, esz))
        .collect()
}

/// Writes transposed data.
pub fn write_transposed(st: &mut RegState, raw: RawRef, esz: u32, vals: &[u64]) {
    for (v, x) in vals.iter().enumerate() {
        st.write(raw.start + v as u32 * esz, esz, *x);
    }
}

/// The register bytes of `raw`.
pub fn read_bytes(st: &RegState, raw: RawRef) -> Vec<u8> {
    st.bytes[raw.start as usize..(raw.start + raw.bytes) as usize].to_vec()
}

/// Writes register bytes from `raw`'s start.
pub fn write_bytes(st: &mut RegState, raw: RawRef, bytes: &[u8]) {
    let s = raw.start as usize;
    let n = bytes.len().min(raw.bytes as usize);
    st.bytes[s..s + n].copy_from_slice(&bytes[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::listing::{InstKind, Stmt};
    use crate::visa::reader::read;

    /// Resolves the one message of `body` with `decls`, on `grf`-byte registers.
    fn resolve(decls: &str, body: &str, grf: u32) -> Result<(Layout, XMessage), VisaError> {
        let text = format!(".version 4.1\n.kernel k\n{decls}\n{body}\n");
        let listing = read(&text).unwrap();
        let layout = Layout::new(&listing, grf, 1 << 20)?;
        let Some(Stmt::Inst(i)) = listing.body.first() else {
            panic!()
        };
        let m = match &i.kind {
            InstKind::Lsc(l) => XMessage::Lsc(resolve_lsc(&layout, l, i.line)?),
            InstKind::SamplerLoad(s) => XMessage::Sampler(resolve_sampler(&layout, s, i.line)?),
            other => panic!("{other:?}"),
        };
        Ok((layout, m))
    }

    const DECLS: &str = ".decl A v_type=G type=uq num_elts=32\n\
        .decl D v_type=G type=ud num_elts=128\n\
        .decl S v_type=G type=ud num_elts=1\n\
        .decl T6 v_type=T num_elts=1";

    #[test]
    fn footprints_follow_the_register_counts() {
        // SIMD16 d32x4 on 32-byte registers: each component is 64 bytes (2 registers).
        let (_, m) = resolve(DECLS, "lsc_load.ugm (M1, 16) D:d32x4 flat[A]:a64", 32).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 4 * 64);
        let XAddr::Vector { regs, .. } = &l.addr else {
            panic!()
        };
        assert_eq!(regs[0].bytes, 128);
        // SIMD8 d32x2 on 64-byte registers: each component starts a register, the last
        // ends after its 32 bytes.
        let (_, m) = resolve(DECLS, "lsc_load.ugm (M1, 8) D:d32x2 flat[A]:a32", 64).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 64 + 32);
        // So a SIMD1 message fits a scalar variable.
        let (_, m) = resolve(DECLS, "lsc_load.ugm (M1_NM, 1) S:d32 flat[A]:a64", 64).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 4);
        // A transposed d32x16 is 64 bytes; d16 SIMT packs two bytes per lane.
        let (_, m) = resolve(DECLS, "lsc_load.ugm (M1_NM, 1) D:d32x16t flat[A]:a64", 32).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 64);
        let (_, m) = resolve(DECLS, "lsc_load.ugm (M1, 16) D:d16 flat[A]:a32", 32).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 32);
        // Typed: one 32-bit block per coordinate; quad data per enabled channel.
        let (_, m) = resolve(
            DECLS,
            "lsc_load_quad.tgm (M1, 8) D:d32.xzw bti(T6)[D,D.32]:a32",
            32,
        )
        .unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 3 * 32);
        let XAddr::Vector { regs, surface, .. } = &l.addr else {
            panic!()
        };
        assert_eq!((regs.len(), regs[1].bytes), (2, 32));
        assert!(matches!(surface, Some(ScalarRef::State(_))));
        // A payload past its variable is an error naming the line.
        let e = resolve(DECLS, "lsc_load.ugm (M1, 32) S:d32 flat[A]:a64", 32).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::OutOfBounds { .. }));
        assert_eq!(e.line, 7);
        // 2D block needs 64-byte registers; its image is register_bytes.
        let body = "lsc_load_block2d.ugm (M1_NM, 1) D:d8.2x16x4nn flat[A,S,S,S,0x0,0x0]";
        assert!(resolve(DECLS, body, 32).is_err());
        let (_, m) = resolve(DECLS, body, 64).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        assert_eq!(l.data.unwrap().bytes, 128);
    }

    #[test]
    fn sampler_footprints() {
        // Four channels of 16 ud lanes (2 registers each on DG2) then the null-mask dword.
        let body = "load_lz.pixel_null_mask.RGBA (M1, 16) 0x0:uw T6 D.0 D.0 D.64";
        let (_, m) = resolve(DECLS, body, 32).unwrap();
        let XMessage::Sampler(s) = m else { panic!() };
        assert_eq!(s.dst.unwrap().bytes, 4 * 64 + 4);
        assert_eq!(s.srcs.len(), 2);
        assert!(resolve(DECLS, "load_lz.R (M1, 16) 0x0:uw D D.0 D.0", 32).is_err());
        // `resinfo`: one LOD of 16 ud lanes (64 bytes), three channels of 64 bytes each.
        let (_, m) = resolve(DECLS, "resinfo.RGB (M1, 16) T6 D.0 D.64", 32).unwrap();
        let XMessage::Sampler(s) = m else { panic!() };
        assert_eq!((s.op, s.dst.unwrap().bytes), (SamplerOp::Resinfo, 3 * 64));
        assert_eq!((s.srcs.len(), s.srcs[0].bytes), (1, 64));
        // Its LOD is ud or d, not a 64-bit value; the destination must hold every channel.
        let e = resolve(DECLS, "resinfo.R (M1, 16) T6 A.0 D.0", 32).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadType { op: "resinfo", .. }));
        assert!(resolve(DECLS, "resinfo.RGBA (M1, 16) T6 D.0 D.320", 32).is_err());
    }

    #[test]
    fn multisample_loads_take_load_3d_coordinates() {
        let decls =
            format!("{DECLS}\n.decl W v_type=G type=uw num_elts=64\n.decl S0 v_type=S num_elts=1");
        // `load_mcs`: u, v, r of 16 ud lanes; R and G of 64 bytes each.
        let (_, m) = resolve(
            &decls,
            "load_mcs.RG (M1, 16) 0x0:uw T6 D.0 D.0 D.64 D.128",
            32,
        )
        .unwrap();
        let XMessage::Sampler(s) = m else { panic!() };
        assert_eq!(
            (s.op, s.sampler, s.dst.unwrap().bytes),
            (SamplerOp::LdMcs, None, 2 * 64)
        );
        assert_eq!(s.srcs.iter().map(|r| r.bytes).collect::<Vec<_>>(), [64; 3]);
        // `load_2dms_w`: si, mcsl, mcsh, u, v, r, of ud or (16 lanes, 32 bytes) uw.
        let body = "load_2dms_w.pixel_null_mask.RGBA (M1, 16) 0x0:uw T6 D.0 W.0 D.256 D.320 W.32 D.384 W.64";
        let (_, m) = resolve(&decls, body, 32).unwrap();
        let XMessage::Sampler(s) = m else { panic!() };
        assert_eq!(
            (s.op, s.dst.unwrap().bytes),
            (SamplerOp::Ld2dmsW, 4 * 64 + 4)
        );
        assert_eq!(
            s.srcs.iter().map(|r| r.bytes).collect::<Vec<_>>(),
            [32, 64, 64, 32, 64, 32]
        );
        // A trailing parameter left out reads 0: any leading count from none on.
        assert!(resolve(&decls, "load_2dms_w.R (M1, 16) 0x0:uw T6 D.0", 32).is_ok());
        // At most 3 and 6 parameters; no 64-bit ones; a surface, not a sampler.
        for body in [
            "load_mcs.R (M1, 16) 0x0:uw T6 D.0 D.0 D.0 D.0 D.0",
            "load_2dms_w.R (M1, 16) 0x0:uw T6 D.0 D.0 D.0 D.0 D.0 D.0 D.0 D.0",
            "load_mcs.RG (M1, 16) 0x0:uw T6 D.0 D.0 D.0 A.0",
            "load_2dms_w.R (M1, 16) 0x0:uw T6 D.0 D.0 D.0 D.0 A.0",
            "load_2dms_w.R (M1, 16) 0x0:uw S0 D.0 D.0",
            // The destination must hold every channel.
            "load_2dms_w.RGBA (M1, 16) 0x0:uw T6 D.320 D.0",
        ] {
            assert!(resolve(&decls, body, 32).is_err(), "{body}");
        }
        let e = resolve(&decls, "load_mcs.R (M1, 16) 0x0:uw T6 D.0 A.0", 32).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::BadType { op: "load_mcs", .. }),
            "{e:?}"
        );
        let e = resolve(&decls, "load_2dms_w.R (M1, 16) 0x0:uw T6 D.0 A.0", 32).unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::BadType {
                    op: "load_2dms_w",
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn sample_l_names_a_sampler_and_a_surface() {
        let decls =
            format!("{DECLS}\n.decl S0 v_type=S num_elts=1\n.decl F v_type=G type=f num_elts=64");
        // lod, u, v of 16 lanes (64 bytes each), two channels of 64 bytes.
        let body = "sample_l.RG (M1, 16) 0x0:uw S0 T6 D.0 F.0 F.64 F.128";
        let (_, m) = resolve(&decls, body, 32).unwrap();
        let XMessage::Sampler(s) = m else { panic!() };
        assert_eq!(s.op, SamplerOp::SampleL);
        assert!(matches!(s.sampler, Some(ScalarRef::State(_))));
        assert_ne!(s.sampler, Some(s.surface));
        assert_eq!(s.dst.unwrap().bytes, 2 * 64);
        assert_eq!(s.srcs.iter().map(|r| r.bytes).collect::<Vec<_>>(), [64; 3]);
        // The sampler and the surface in each other's place (the surface is resolved
        // first), a general variable as the sampler: the wrong kind of variable.
        for (body, name) in [
            ("sample_l.R (M1, 16) 0x0:uw T6 S0 D.0 F.0", "S0"),
            ("sample_l.R (M1, 16) 0x0:uw S T6 D.0 F.0", "S"),
            ("sample_l.R (M1, 16) 0x0:uw T6 T6 D.0 F.0", "T6"),
        ] {
            let e = resolve(&decls, body, 32).unwrap_err();
            assert!(
                matches!(&e.kind, ErrorKind::WrongVariableKind { name: n, .. } if n == name),
                "{body}: {e:?}"
            );
        }
        // Parameters: 64-bit ones are refused, at most lod, u, v, r, at least the LOD.
        let e = resolve(&decls, "sample_l.R (M1, 16) 0x0:uw S0 T6 D.0 A.0", 32).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::BadType { op: "sample_l", .. }),
            "{e:?}"
        );
        for body in [
            "sample_l.R (M1, 16) 0x0:uw S0 T6 D.0 F.0 F.0 F.0 F.0 F.0",
            "sample_l.R (M1, 16) 0x0:uw S0 T6 D.0",
            // The destination must hold both channels.
            "sample_l.RG (M1, 16) 0x0:uw S0 T6 D.448 F.0",
        ] {
            assert!(resolve(&decls, body, 32).is_err(), "{body}");
        }
    }

    #[test]
    fn simt_and_transposed_layouts() {
        let (layout, m) = resolve(DECLS, "lsc_load.ugm (M1, 8) D:d32x2 flat[A]:a32", 64).unwrap();
        let XMessage::Lsc(l) = m else { panic!() };
        let raw = l.data.unwrap();
        let mut st = RegState::new(&layout, 0);
        // Lane n's component v: v * 100 + n.
        let vals: Vec<Vec<u64>> = (0..8).map(|n| vec![n, 100 + n]).collect();
        write_simt(&mut st, raw, 4, 64, 0b1111_1101, &vals);
        // Component 1 starts at byte 64 (a new register); lane 1 was not written.
        assert_eq!(st.read(raw.start + 64 + 4 * 3, 4), 103);
        assert_eq!(st.read(raw.start + 4, 4), 0);
        let back = read_simt(&st, raw, 8, 4, 2, 64);
        assert_eq!(back[3], vec![3, 103]);
        write_transposed(&mut st, raw, 8, &[7, 8]);
        assert_eq!(read_transposed(&st, raw, 8, 2), vec![7, 8]);
        assert_eq!(st.read(raw.start + 8, 8), 8);
    }
}
