//! The `lower-dataport` rewrite: LSC-shaped message intrinsics replaced, in place, by
//! the legacy data-port messages of a generation without LSC, as their plans
//! ([`plan_legacy`]) say.
//!
//! Every image and group-copy lowering describes its accesses as LSC messages; on
//! Gfx7 to Gfx12.0 the lowering then rewrites each one (the instruction keeps its value
//! id and source position, so no use changes). It plans every message of a function
//! before it changes anything, so a function with a message the generation cannot send
//! is left as it was, with every such message reported ([`LegacyError`]).
//!
//! The data the legacy messages return reads as the LSC message's: 64-bit elements are
//! packed from their dwords, `d8` and `d16` data narrowed and `d16u32h` data shifted,
//! and a strided message's lanes get their own address. The upper bytes of 1- and
//! 2-byte scattered reads and of 16-bit atomics stay undefined, as those of LSC's
//! `d8u32` and `d16u32` data are before Xe2 (`docs/hardware/lsc-messages.md` §1), the only LSC
//! parts that have them; the image lowering clears them where it needs to.

use super::caps::DataportCaps;
use super::legacy::{plan_legacy, Access, LegacyPlan};
use super::rule::{DataportRule, LegacyGap};
use crate::device::Device;
use crate::messages::lsc::LscMessage;
use crate::messages::rule::describe_inst;
use ir::dataport::DpDesc;
use ir::lsc::DataSize;
use ir::{Builder, Cursor, Function, Inst, InstKind, IntrinsicOp, Shader, Span, Src, Type, Value};
use std::fmt;

/// An LSC message that has no legacy data-port form on the platform.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LegacyError {
    /// The function.
    pub function: String,
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// The intrinsic (`lsc_load_quad`).
    pub op: IntrinsicOp,
    /// How it reads (`%12 = @lsc_load_quad`).
    pub what: String,
    /// The rule it breaks.
    pub rule: DataportRule,
}

impl fmt::Display for LegacyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.rule)
    }
}

impl std::error::Error for LegacyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.rule)
    }
}

/// Whether `inst` is an LSC message intrinsic (2D blocks included).
fn is_lsc_message(func: &Function, inst: Inst) -> bool {
    func.inst(inst)
        .as_intrinsic()
        .is_some_and(|i| i.op.is_lsc() || i.op.is_block2d())
}

/// The plan of LSC message `inst`.
fn plan_inst(
    func: &Function,
    inst: Inst,
    caps: Option<&DataportCaps>,
    platform: &str,
) -> Result<LegacyPlan, DataportRule> {
    let Some(caps) = caps else {
        return Err(DataportRule::NotLegacy {
            platform: platform.to_string(),
        });
    };
    match LscMessage::decode(func, inst) {
        Ok(Some(m)) => plan_legacy(caps, platform, &m),
        // 2D block messages.
        Ok(None) => Err(DataportRule::NoLegacyForm {
            platform: platform.to_string(),
            gap: LegacyGap::Block2d,
        }),
        Err(_) => Err(DataportRule::NoLegacyForm {
            platform: platform.to_string(),
            gap: LegacyGap::Undecodable,
        }),
    }
}

/// The plans of every LSC message of `func` for `device`, in program order, or every
/// message the device cannot send (nothing is changed).
pub fn plan_function(
    func: &Function,
    device: &Device,
) -> Result<Vec<(Inst, LegacyPlan)>, Vec<LegacyError>> {
    let mut plans = Vec::new();
    let mut errors = Vec::new();
    for inst in func.insts_in_order() {
        if !is_lsc_message(func, inst) {
            continue;
        }
        match plan_inst(func, inst, device.dataport.as_ref(), &device.name) {
            Ok(p) => plans.push((inst, p)),
            Err(rule) => errors.push(LegacyError {
                function: func.name.clone(),
                inst,
                span: func.inst_span(inst),
                op: func
                    .inst(inst)
                    .as_intrinsic()
                    .map_or(IntrinsicOp::LscLoad, |i| i.op),
                what: describe_inst(func, inst),
                rule,
            }),
        }
    }
    if errors.is_empty() {
        Ok(plans)
    } else {
        Err(errors)
    }
}

/// Rewrites every LSC message of `func` (`@lsc_load`, `@lsc_store`, the strided and
/// quad forms, `@lsc_atomic`) into the legacy data-port messages of `device`, which
/// must have them ([`Device::dataport`]). Returns how many it rewrote, or every message
/// it cannot rewrite (the function is then unchanged).
pub fn legalize_function(func: &mut Function, device: &Device) -> Result<usize, Vec<LegacyError>> {
    let plans = plan_function(func, device)?;
    Ok(emit_plans(func, plans))
}

/// [`legalize_function`] over every function of `shader`: every function is planned
/// before any is changed.
pub fn legalize_shader(shader: &mut Shader, device: &Device) -> Result<usize, Vec<LegacyError>> {
    let mut plans = Vec::with_capacity(shader.functions.len());
    let mut errors = Vec::new();
    for func in &shader.functions {
        match plan_function(func, device) {
            Ok(p) => plans.push(p),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(shader
        .functions
        .iter_mut()
        .zip(plans)
        .map(|(func, p)| emit_plans(func, p))
        .sum())
}

/// Emits `plans` (of [`plan_function`] on `func`); returns how many messages it
/// rewrote.
pub fn emit_plans(func: &mut Function, plans: Vec<(Inst, LegacyPlan)>) -> usize {
    let n = plans.len();
    for (inst, plan) in plans {
        emit(func, inst, &plan);
    }
    n
}

/// The operands of one LSC instruction.
struct Operands {
    image: Option<ir::ImageRef>,
    srcs: Vec<Src>,
    pred: Option<Src>,
    dest: Option<Value>,
}

fn operands(func: &Function, inst: Inst) -> Operands {
    let data = func.inst(inst);
    let (image, mut srcs, expected) = match data.as_intrinsic() {
        Some(intr) => {
            let srcs: Vec<Src> = intr.srcs.iter().copied().collect();
            let expected = intr.op.srcs(&intr.indices).map_or(srcs.len(), |s| s.len());
            (intr.image, srcs, expected)
        }
        None => (None, Vec::new(), 0),
    };
    let pred = (srcs.len() > expected).then(|| srcs.pop()).flatten();
    Operands {
        image,
        srcs,
        pred,
        dest: data.dest,
    }
}

/// Replaces LSC message `inst` by the messages of `plan`. A plan of one message that
/// needs no conversion of its result becomes the instruction itself (the value keeps
/// its definition); otherwise the messages go in front and the instruction becomes the
/// `mov` of their assembled result, or goes away.
fn emit(func: &mut Function, inst: Inst, plan: &LegacyPlan) {
    let ops = operands(func, inst);
    let span = func.inst_span(inst);
    let mut b = Builder::new(func, Cursor::Before(inst));
    b.span = span;
    let mut e = Emitter {
        b,
        pred: ops.pred,
        image: ops.image,
    };
    let data = || *ops.srcs.last().expect("a store has data");
    let single = |d: &DpDesc, srcs: Vec<Src>| Outcome::InPlace(*d, srcs);
    let outcome = match &plan.access {
        Access::Typed(d) => {
            // Typed messages keep the LSC operands: U, V, R, LOD, then the data or the
            // atomic operands.
            let mut srcs = ops.srcs[..4.min(ops.srcs.len())].to_vec();
            if d.msg.has_data() {
                srcs.extend(ops.srcs.get(4).copied());
            } else if d.msg.is_atomic() {
                srcs.extend(e.atomic_srcs(plan, ops.srcs.get(4..).unwrap_or(&[]), 32));
            }
            single(d, srcs)
        }
        access => {
            let address = e.address(plan, &ops.srcs);
            match access {
                Access::Atomic(d) => {
                    let mut srcs = vec![address];
                    let operands = ops.srcs.get(1..).unwrap_or(&[]);
                    srcs.extend(e.atomic_srcs(plan, operands, d.data_bits()));
                    single(d, srcs)
                }
                // d8u32 and d16u32 read as the legacy message returns them: the bytes
                // above the access undefined, as LSC leaves them before Xe2
                // (docs/hardware/lsc-messages.md §1).
                Access::Narrow { desc, size }
                    if plan.load && matches!(size, DataSize::D8U32 | DataSize::D16U32) =>
                {
                    single(desc, vec![address])
                }
                Access::Narrow { desc, size } if plan.load => {
                    Outcome::Value(e.narrow_load(desc, *size, address))
                }
                Access::Narrow { desc, size } => {
                    e.narrow_store(desc, *size, address, data());
                    Outcome::Done
                }
                Access::Dwords {
                    wide: false,
                    windows,
                    ..
                } if windows.len() == 1 && windows[0].offset == 0 => {
                    let w = &windows[0];
                    let mut srcs = vec![address];
                    if !plan.load {
                        srcs.push(data());
                    }
                    single(&w.desc, srcs)
                }
                Access::Dwords {
                    wide,
                    dwords,
                    windows,
                } if plan.load => {
                    Outcome::Value(e.load_dwords(*wide, dwords, windows, address, plan))
                }
                Access::Dwords {
                    wide,
                    dwords,
                    windows,
                } => {
                    e.store_dwords(*wide, dwords, windows, address, data(), plan);
                    Outcome::Done
                }
                Access::Typed(_) => Outcome::Done,
            }
        }
    };
    match outcome {
        Outcome::InPlace(d, mut srcs) => {
            srcs.extend(ops.pred);
            let image = if d.names_image() { ops.image } else { None };
            func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(ir::IntrinsicInst {
                op: IntrinsicOp::for_dp_msg(d.msg),
                image,
                srcs: srcs.into_iter().collect(),
                indices: d.to_indices().into_iter().collect(),
            }));
        }
        Outcome::Value(r) if ops.dest.is_some() => {
            func.inst_mut(inst).kind = InstKind::Alu(ir::AluInst {
                op: ir::AluOp::Mov,
                srcs: std::iter::once(r).collect(),
                exact: false,
            });
        }
        Outcome::Value(_) | Outcome::Done => func.remove_inst(inst),
    }
}

/// What replaces an LSC message.
enum Outcome {
    /// One data-port message with these sources (without the predicate), in place.
    InPlace(DpDesc, Vec<Src>),
    /// Messages in front, and the LSC message's value assembled from them.
    Value(Src),
    /// Messages in front, and no value.
    Done,
}

/// Emits the data-port messages of one LSC message in front of it.
struct Emitter<'f> {
    b: Builder<'f>,
    pred: Option<Src>,
    image: Option<ir::ImageRef>,
}

impl Emitter<'_> {
    /// One data-port message; its destination, for reads and atomics.
    fn message(&mut self, d: &DpDesc, srcs: &[Src]) -> Option<Value> {
        let image = if d.names_image() { self.image } else { None };
        self.b.dp_message(d, image, srcs, self.pred)
    }

    /// A `bits`-wide constant `v` (cut to the width).
    fn imm(&mut self, bits: u8, v: u64) -> Value {
        let ty = if bits == 64 { Type::U64 } else { Type::U32 };
        self.b.load_const(ty, &[v & ir::types::bit_mask(bits)])
    }

    /// The operands of an atomic: the LSC data operands in order (the compare value
    /// first for `icas`/`fcas`, as the legacy `cmpwr`), or the 0 of an atomic `load`.
    fn atomic_srcs(&mut self, plan: &LegacyPlan, data: &[Src], bits: u8) -> Vec<Src> {
        if plan.atomic_load {
            let bits = if bits == 64 { 64 } else { 32 };
            vec![Src::new(self.imm(bits, 0))]
        } else {
            data.iter().copied().take(plan.atomic_operands).collect()
        }
    }

    /// The byte address of lane `n`'s first element: the address (strided: the base
    /// plus `n` times the pitch) plus the immediate offset.
    fn address(&mut self, plan: &LegacyPlan, srcs: &[Src]) -> Src {
        let bits = plan.addr_bits;
        let mut a = srcs[0];
        if plan.strided {
            let lane = self
                .b
                .intrinsic(
                    IntrinsicOp::LoadSubgroupInvocation,
                    None,
                    &[],
                    &[],
                    Some(Type::U32),
                )
                .expect("a system value has a destination");
            let pitch = srcs[1];
            let (lane, pitch) = if bits == 64 {
                let l = self.b.u2u64(lane);
                let p = self.b.u2u64(pitch);
                (Src::new(l), Src::new(p))
            } else {
                (Src::new(lane), pitch)
            };
            let step = self.b.imul(lane, pitch);
            a = Src::new(self.b.iadd(a, step));
        }
        if plan.offset != 0 {
            let off = self.imm(bits, plan.offset as u64);
            a = Src::new(self.b.iadd(a, off));
        }
        a
    }

    /// `address + delta`.
    fn offset(&mut self, address: Src, delta: u64, bits: u8) -> Src {
        if delta == 0 {
            return address;
        }
        let d = self.imm(bits, delta);
        Src::new(self.b.iadd(address, d))
    }

    fn load_dwords(
        &mut self,
        wide: bool,
        dwords: &[super::legacy::Dword],
        windows: &[super::legacy::Window],
        address: Src,
        plan: &LegacyPlan,
    ) -> Src {
        let mut words: Vec<Option<Src>> = vec![None; dwords.len()];
        for w in windows {
            let a = self.offset(address, w.offset, plan.addr_bits);
            let v = self
                .message(&w.desc, &[a])
                .expect("a read has a destination");
            for (k, &i) in w.dwords.iter().enumerate() {
                words[i] = Some(if w.dwords.len() == 1 {
                    Src::new(v)
                } else {
                    Src::channel(v, k as u8)
                });
            }
        }
        let words: Vec<Src> = words
            .into_iter()
            .map(|w| w.expect("every dword is in a window"))
            .collect();
        let comps: Vec<Src> = if wide {
            words
                .chunks(2)
                .map(|p| Src::new(self.b.pack_64_2x32_split(p[0], p[1])))
                .collect()
        } else {
            words
        };
        if comps.len() == 1 {
            comps[0]
        } else {
            Src::new(self.b.vec(&comps))
        }
    }

    fn store_dwords(
        &mut self,
        wide: bool,
        dwords: &[super::legacy::Dword],
        windows: &[super::legacy::Window],
        address: Src,
        data: Src,
        plan: &LegacyPlan,
    ) {
        let mut words = Vec::with_capacity(dwords.len());
        for d in dwords {
            let c = data.component(d.component);
            words.push(if wide {
                Src::new(if d.half == 0 {
                    self.b.unpack_64_2x32_split_x(c)
                } else {
                    self.b.unpack_64_2x32_split_y(c)
                })
            } else {
                c
            });
        }
        for w in windows {
            let a = self.offset(address, w.offset, plan.addr_bits);
            let parts: Vec<Src> = w.dwords.iter().map(|&i| words[i]).collect();
            let v = if parts.len() == 1 {
                parts[0]
            } else {
                Src::new(self.b.vec(&parts))
            };
            self.message(&w.desc, &[a, v]);
        }
    }

    /// An 8- or 16-bit load, in the register as LSC data size `size` holds it.
    fn narrow_load(&mut self, d: &DpDesc, size: DataSize, address: Src) -> Src {
        let raw = self
            .message(d, &[address])
            .expect("a read has a destination");
        Src::new(match size {
            DataSize::D8 => self.b.u2u8(raw),
            DataSize::D16 => self.b.u2u16(raw),
            DataSize::D16U32H => {
                let s = self.b.imm_u32(16);
                self.b.ishl(raw, s)
            }
            // d8u32, d16u32: as the message returns them (see `emit`).
            _ => raw,
        })
    }

    /// An 8- or 16-bit store of `data`, held as LSC data size `size` says.
    fn narrow_store(&mut self, d: &DpDesc, size: DataSize, address: Src, data: Src) {
        let value = match size {
            DataSize::D8 | DataSize::D16 => Src::new(self.b.u2u32(data)),
            DataSize::D16U32H => {
                let s = self.b.imm_u32(16);
                Src::new(self.b.ushr(data, s))
            }
            _ => data,
        };
        self.message(d, &[address, value]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `body` (instructions of block b0) legalized for `platform`, printed; the result
    /// must validate.
    fn legalized(platform: &str, body: &str) -> Result<String, Vec<String>> {
        let text = format!(
            "shader compute (local_size=8,1,1)\nimage @img : 2d r32_uint (binding=0)\n\nfn main {{\n  block b0:\n    32   %0 = load_const (0x00000010)\n    64   %1 = load_const (0x0000000000001000)\n{body}}}\n"
        );
        let mut sh = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
        let dev = Device::preset(platform).unwrap();
        let f = &mut sh.functions[0];
        legalize_function(f, &dev)
            .map_err(|e| e.iter().map(|e| e.to_string()).collect::<Vec<_>>())?;
        ir::validate(&sh).unwrap_or_else(|d| panic!("{d:?}\n{sh}"));
        Ok(sh.to_string())
    }

    /// The instructions after the two constants every test starts with.
    fn lines(text: &str) -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.contains("block b0:"))
            .skip(3)
            .map(str::trim)
            .filter(|l| *l != "}")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn typed_messages_keep_their_masks_and_values() {
        let out = legalized(
            "skl",
            "    32x2 %2 = @lsc_load_quad (@img, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.xz)\n    @lsc_store_quad (@img, %0, %0, %0, %0, %2.x) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)\n    32   %3 = @lsc_atomic (@img, %0, %0, %0, %0, %0, %0) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=icas)\n",
        )
        .unwrap();
        assert_eq!(
            lines(&out),
            [
                "32x2 %2 = @dp_typed_read (@img, %0, %0, %0, %0) (dp_cmask=xz)",
                "@dp_typed_write (@img, %0, %0, %0, %0, %2.x) (dp_cmask=x)",
                "32   %3 = @dp_typed_atomic (@img, %0, %0, %0, %0, %0, %0) (dp_op=cmpwr, dp_bits=32)",
            ]
        );
    }

    #[test]
    fn untyped_vectors_split_into_four_dword_messages() {
        // d32x8 at a64: two reads of four dwords, at +0 and +16; the immediate offset
        // is added first.
        let out = legalized(
            "bdw",
            "    32x8 %2 = @lsc_load (%1) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32x8, lsc_offset=4)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[0], "64   %3 = load_const (0x0000000000000004)");
        assert_eq!(l[1], "64   %4 = iadd %1, %3");
        assert_eq!(
            l[2],
            "32x4 %5 = @dp_untyped_read (%4) (dp_addr=a64, dp_cmask=xyzw)"
        );
        assert_eq!(l[3], "64   %6 = load_const (0x0000000000000010)");
        assert_eq!(l[4], "64   %7 = iadd %4, %6");
        assert_eq!(
            l[5],
            "32x4 %8 = @dp_untyped_read (%7) (dp_addr=a64, dp_cmask=xyzw)"
        );
        assert_eq!(
            l[6],
            "32x8 %9 = vec8 %5.x, %5.y, %5.z, %5.w, %8.x, %8.y, %8.z, %8.w"
        );
    }

    #[test]
    fn narrow_and_wide_elements() {
        // d16u32 on SLM: a 2-byte gather in place (its upper bytes undefined, as LSC's
        // before Xe2); d64 on a surface: two dwords packed; an 8-bit store: a 1-byte
        // scatter of the zero-extended value.
        let out = legalized(
            "hsw",
            "    32   %2 = @lsc_load (%0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d16u32)\n    64   %3 = @lsc_load (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d64)\n    8    %4 = u2u8 %2\n    @lsc_store (%0, %4) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d8)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert!(
            l.contains(
                &"32   %2 = @dp_byte_scattered_read (%0) (dp_addr=slm, dp_bytes=2)".to_string()
            ),
            "{l:?}"
        );
        assert!(
            l.contains(
                &"32x2 %5 = @dp_untyped_read (@img, %0) (dp_addr=bti, dp_cmask=xy)".to_string()
            ),
            "{l:?}"
        );
        assert!(
            l.contains(&"64   %6 = pack_64_2x32_split %5.x, %5.y".to_string()),
            "{l:?}"
        );
        assert!(
            l.iter()
                .any(|x| x.starts_with("@dp_byte_scattered_write (%0, %")
                    && x.ends_with("(dp_addr=slm, dp_bytes=1)")),
            "{l:?}"
        );
    }

    #[test]
    fn strided_messages_address_each_lane() {
        let out = legalized(
            "tgl",
            "    32   %2 = @lsc_load_strided (%0, %0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d32)\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[0], "32   %3 = @load_subgroup_invocation");
        assert_eq!(l[1], "32   %4 = imul %3, %0");
        assert_eq!(l[2], "32   %5 = iadd %0, %4");
        assert_eq!(
            l[3],
            "32   %2 = @dp_untyped_read (%5) (dp_addr=slm, dp_cmask=x)"
        );
    }

    #[test]
    fn what_a_generation_lacks_is_an_error() {
        let a64 = "    32   %2 = @lsc_load (%1) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)\n";
        let e = legalized("ivb", a64).unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(e[0].contains("ivb has no A64 messages"), "{e:?}");
        let narrow = "    32   %2 = @lsc_load (%0) (lsc_sfid=slm, lsc_addr=flat, lsc_addr_size=a32, lsc_data=d8u32)\n";
        let e = legalized("byt", narrow).unwrap_err();
        assert!(e[0].contains("byt has no byte scattered messages"), "{e:?}");
        let fadd = "    32   %2 = @lsc_atomic (%1, %0) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32, lsc_op=fadd)\n";
        let e = legalized("tgl", fadd).unwrap_err();
        assert!(
            e[0].contains("float add and subtract arrive with LSC"),
            "{e:?}"
        );
        let e = legalized("dg2", a64).unwrap_err();
        assert!(
            e[0].contains("dg2 has no legacy data-port messages"),
            "{e:?}"
        );
    }

    #[test]
    fn predicates_and_atomic_loads() {
        let out = legalized(
            "icl",
            "    1    %2 = ieq %0, %0\n    32   %3 = @lsc_atomic (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32, lsc_op=load) if %2\n",
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[1], "32   %4 = load_const (0x00000000)");
        assert_eq!(
            l[2],
            "32   %3 = @dp_untyped_atomic (@img, %0, %4) (dp_addr=bti, dp_op=or, dp_bits=32) if %2"
        );
    }
}
