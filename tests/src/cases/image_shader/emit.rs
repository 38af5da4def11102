//! The shader of a case: its program as IR, built with [`ir::Builder`], every returned
//! value stored to the output buffer.

use super::program::{
    AccessSpec, Case, Cond, Element, Op, Scalar, Stmt, MAX_TRIPS, OUTPUT_SSBO, SLOT_BYTES,
};
use crate::cases::coords::CoordBase;
use ir::builder::image_indices;
use ir::function::{Cursor, InstKind, Phi};
use ir::{
    Access, BaseType, Builder, Function, ImageDecl, ImageRef, IndexKind, IntrinsicOp, Jump, Shader,
    Src, Type, Value,
};
use std::collections::HashMap;

impl Case {
    /// The shader: `main` runs the program, storing every returned value to the output
    /// buffer. Validated in debug builds.
    pub fn build(&self) -> Shader {
        let mut shader = Shader::new(self.local_size);
        let decls = self.decls();
        for d in &decls {
            shader.add_image(d.clone());
        }
        let mut func = Function::new("main");
        {
            let mut b = Builder::at_end(&mut func);
            let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
            let grid = self.grid();
            let gx = b.imm_u32(grid.global[0]);
            let gxy = b.imm_u32(grid.global[0] * grid.global[1]);
            let y = b.imul(Src::channel(gid, 1), gx);
            let z = b.imul(Src::channel(gid, 2), gxy);
            let yz = b.iadd(y, z);
            let lin = b.iadd(Src::channel(gid, 0), yz);
            let wg = b.system_value(IntrinsicOp::LoadWorkgroupId);
            let slots = b.imm_u32(self.slots().max(1));
            let lin_slots = b.imul(lin, slots);
            let mut e = Emitter {
                b,
                case: self,
                decls: &decls,
                gid,
                lin,
                wg,
                lin_slots,
                next_slot: 0,
                visible: HashMap::new(),
                iter: None,
                loop_slots: false,
            };
            e.list(&self.body);
        }
        shader.functions.push(func);
        if cfg!(debug_assertions) {
            if let Err(d) = ir::validate(&shader) {
                panic!("generated shader does not validate: {d:?}\n{shader}");
            }
        }
        shader
    }
}

/// Emission state.
struct Emitter<'a, 'f> {
    b: Builder<'f>,
    case: &'a Case,
    decls: &'a [ImageDecl],
    gid: Value,
    lin: Value,
    /// The workgroup id.
    wg: Value,
    lin_slots: Value,
    next_slot: u32,
    /// Values of earlier accesses visible here.
    visible: HashMap<u32, Value>,
    /// The innermost loop's counter.
    iter: Option<Value>,
    /// Whether accesses reserve [`MAX_TRIPS`] slots (inside a loop).
    loop_slots: bool,
}

impl Emitter<'_, '_> {
    fn list(&mut self, list: &[Stmt]) {
        for s in list {
            match s {
                Stmt::Access(a) => self.access(a),
                Stmt::If { cond, then, els } => {
                    let c = self.cond(cond);
                    let saved = self.visible.clone();
                    let id = self.b.push_if(c);
                    self.list(then);
                    self.visible = saved.clone();
                    self.b.push_else(id);
                    self.list(els);
                    self.visible = saved;
                    self.b.pop_if(id);
                }
                Stmt::Loop {
                    base,
                    lane_mask,
                    body,
                } => {
                    if self.iter.is_some() {
                        // Shrinking never nests loops, but a nested body still runs.
                        self.list(body);
                        continue;
                    }
                    self.lp(*base, *lane_mask, body);
                }
            }
        }
    }

    fn lp(&mut self, base: u32, lane_mask: u32, body: &[Stmt]) {
        let b = &mut self.b;
        let base_v = b.imm_u32(base.min(MAX_TRIPS));
        let mask = b.imm_u32(lane_mask);
        let lanes = b.iand(self.lin, mask);
        let sum = b.iadd(base_v, lanes);
        let max = b.imm_u32(MAX_TRIPS);
        let limit = b.umin(sum, max);
        let zero = b.imm_u32(0);
        let one = b.imm_u32(1);
        let preheader = b.current_block();
        let id = b.push_loop();
        let i = b.phi(Type::U32, &[]);
        let phi_inst = b.func.value_def(i).expect("a phi has a definition");
        let done = b.uge(i, limit);
        let exit = b.push_if(done);
        b.jump(Jump::Break);
        b.push_else(exit);
        b.pop_if(exit);
        let next = b.iadd(i, one);
        let saved = self.visible.clone();
        self.iter = Some(i);
        self.loop_slots = true;
        self.list(body);
        self.iter = None;
        self.loop_slots = false;
        self.visible = saved;
        self.b.pop_loop(id);
        let func = &mut *self.b.func;
        let header = func.inst_block(phi_inst).expect("the phi is placed");
        let preds = func.predecessors();
        let srcs = preds
            .get(&header)
            .map(|p| p.to_vec())
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p, Src::new(if p == preheader { zero } else { next })))
            .collect();
        func.inst_mut(phi_inst).kind = InstKind::Phi(Phi { srcs });
    }

    fn base_value(&mut self, base: CoordBase) -> Src {
        match base {
            CoordBase::Zero => Src::new(self.b.imm_u32(0)),
            CoordBase::Global(a) => Src::channel(self.gid, a),
            CoordBase::Linear => Src::new(self.lin),
        }
    }

    fn cond(&mut self, cond: &Cond) -> Value {
        match *cond {
            Cond::Bit { base, bit, set } => {
                let v = self.base_value(base);
                let sh = self.b.imm_u32(bit as u32);
                let shifted = self.b.ushr(v, sh);
                let one = self.b.imm_u32(1);
                let t = self.b.iand(shifted, one);
                let zero = self.b.imm_u32(0);
                if set {
                    self.b.ine(t, zero)
                } else {
                    self.b.ieq(t, zero)
                }
            }
            Cond::Below { k } => {
                let k = self.b.imm_u32(k);
                self.b.ult(self.lin, k)
            }
            Cond::LoadedNonZero { access, comp } => match self.visible.get(&access).copied() {
                Some(v) => {
                    let ty = self.b.func.value_type(v);
                    let c = Src::channel(v, comp % ty.num_components());
                    let zero = self.b.imm_int(ty.bit_size(), 0);
                    self.b.ine(c, zero)
                }
                None => {
                    let k = self.b.imm_u32(self.case.invocations() / 2);
                    self.b.ult(self.lin, k)
                }
            },
        }
    }

    fn coord(&mut self, a: &AccessSpec) -> Src {
        let mut comps: Vec<Src> = Vec::new();
        for t in &a.coord {
            let mut v = match t.base {
                CoordBase::Zero => Src::new(self.b.imm_u32(t.offset as u32)),
                base => {
                    let bv = self.base_value(base);
                    let off = self.b.imm_u32(t.offset as u32);
                    Src::new(self.b.iadd(bv, off))
                }
            };
            if t.plus_iter {
                if let Some(i) = self.iter {
                    v = Src::new(self.b.iadd(v, i));
                }
            }
            if let Some(m) = t.wrap {
                let m = self.b.imm_u32(m.max(1));
                v = Src::new(self.b.umod(v, m));
            }
            comps.push(v);
        }
        self.gather(&comps, a.swizzled.then_some(a.id as u8))
    }

    /// The components as one source: a vector of them, or with `rotate`, a swizzled read
    /// of a vec4 holding component `i` at `(i + rotate) mod 4` and junk elsewhere.
    fn gather(&mut self, comps: &[Src], rotate: Option<u8>) -> Src {
        let Some(rot) = rotate else {
            return if comps.len() == 1 {
                comps[0]
            } else {
                Src::new(self.b.vec(comps))
            };
        };
        let bits = self.b.func.src_type(comps[0]).bit_size();
        let junk = Src::new(self.b.imm_int(bits, 0x5eed_0bad));
        let mut all = [junk; 4];
        let mut sel = Vec::with_capacity(comps.len());
        for (i, &c) in comps.iter().enumerate() {
            let p = (i as u8 + rot) % 4;
            all[p as usize] = c;
            sel.push(p);
        }
        let v = self.b.vec(&all);
        Src::swizzled(v, &sel).expect("at most four components")
    }

    /// A scalar of `bits` bits (float data when `float`).
    fn scalar(&mut self, s: Scalar, bits: u8, float: bool) -> Src {
        let b = &mut self.b;
        match s {
            Scalar::Const(v) => Src::new(b.imm_int(bits, v as i64)),
            Scalar::Invocation { mul, add, scale } => {
                let m = b.imm_u32(mul);
                let a = b.imm_u32(add);
                let x = b.imul(self.lin, m);
                let x = b.iadd(x, a);
                if bits == 64 {
                    let sc = b.imm_u32(scale);
                    let hi = b.ixor(x, sc);
                    Src::new(b.pack_64_2x32_split(x, hi))
                } else if float {
                    let f = b.i2f32(x);
                    let sc = b.imm_u32(scale);
                    // `exact`: the data are the case's, signed zeros and all (NIR's
                    // inexact rules would fold a scale of 0.0 to +0.0).
                    b.exact = true;
                    let v = b.fmul(f, sc);
                    b.exact = false;
                    Src::new(v)
                } else {
                    Src::new(x)
                }
            }
            Scalar::Loaded { access, comp } => match self.visible.get(&access).copied() {
                Some(v) => {
                    let ty = b.func.value_type(v);
                    let c = Src::channel(v, comp % ty.num_components());
                    match (ty.bit_size(), bits) {
                        (x, y) if x == y => c,
                        (32, 64) => Src::new(b.u2u64(c)),
                        (64, 32) => Src::new(b.u2u32(c)),
                        _ => Src::new(b.imm_int(bits, 0)),
                    }
                }
                None => self.scalar(
                    Scalar::Const(if float { 0x3f80_0000 } else { 1 }),
                    bits,
                    float,
                ),
            },
            Scalar::Iter => {
                let i = match self.iter {
                    Some(i) => i,
                    None => b.imm_u32(0),
                };
                if bits == 64 {
                    Src::new(b.u2u64(i))
                } else if float {
                    Src::new(b.u2f32(i))
                } else {
                    Src::new(i)
                }
            }
        }
    }

    /// The image operand of `a`: the image, indexed as its element says.
    fn image_ref(&mut self, a: &AccessSpec) -> ImageRef {
        let image = ImageRef::new(ir::ImageId::from_u32(a.image as u32));
        let count = self.case.images[a.image].count();
        let b = &mut self.b;
        let index = match a.element {
            Element::Whole => return image,
            Element::Const(k) => b.imm_u32(k % count),
            Element::Workgroup => {
                let n = b.imm_u32(count);
                b.umod(Src::channel(self.wg, 0), n)
            }
            Element::Lane { shift } => {
                let s = b.imm_u32(u32::from(shift));
                let x = b.ushr(self.lin, s);
                let n = b.imm_u32(count);
                b.umod(x, n)
            }
        };
        ImageRef {
            index: Some(Src::new(index)),
            ..image
        }
    }

    /// Qualifies the instruction just built `non_uniform`.
    fn mark_non_uniform(&mut self) {
        if let Cursor::After(inst) = self.b.cursor {
            if let InstKind::Intrinsic(x) = &mut self.b.func.inst_mut(inst).kind {
                let a = x.index(IndexKind::Access).unwrap_or(0);
                x.set_index(IndexKind::Access, a | Access::NON_UNIFORM.bits());
            }
        }
    }

    fn access(&mut self, a: &AccessSpec) {
        let img = &self.case.images[a.image];
        let decl = &self.decls[a.image];
        let image = self.image_ref(a);
        let ty = img.data_type();
        let float = ty.base == BaseType::Float;
        let value = match &a.op {
            Op::Load { comps } => {
                let coord = self.coord(a);
                Some(self.b.image_load(decl, image, coord, *comps, ty))
            }
            Op::Store { data } => {
                let coord = self.coord(a);
                let comps: Vec<Src> = data
                    .iter()
                    .map(|&s| self.scalar(s, ty.bits, float))
                    .collect();
                let v = self.gather(&comps, a.swizzled.then_some(a.id as u8 + 1));
                self.b.image_store(decl, image, coord, v, ty);
                None
            }
            Op::Atomic { op, data, compare } => {
                let coord = self.coord(a);
                let fop = op.is_float() || float;
                let d = self.scalar(*data, ty.bits, fop);
                Some(match compare {
                    Some(c) if op.is_swap() => {
                        let c = self.scalar(*c, ty.bits, fop);
                        self.b.image_atomic_swap(decl, image, *op, coord, c, d)
                    }
                    _ if op.is_swap() => {
                        let c = self.b.imm_int(ty.bits, 0);
                        self.b.image_atomic_swap(decl, image, *op, coord, c, d)
                    }
                    _ => self.b.image_atomic(decl, image, *op, coord, d),
                })
            }
            Op::Size => Some(self.b.image_size(decl, image)),
            Op::Samples => {
                let [d, arr, _, _] = image_indices(decl);
                self.b.intrinsic(
                    IntrinsicOp::ImageSamples,
                    Some(image),
                    &[],
                    &[d, arr, ir::Access::NONE.bits()],
                    Some(Type::U32),
                )
            }
        };
        if a.non_uniform {
            self.mark_non_uniform();
        }
        let Some(v) = value else {
            return;
        };
        self.visible.insert(a.id, v);
        // The output slot: (linear · slots + slot [+ iteration]) · SLOT_BYTES.
        let slot = self.next_slot;
        self.next_slot += if self.loop_slots { MAX_TRIPS } else { 1 };
        let b = &mut self.b;
        let s = b.imm_u32(slot);
        let mut index = b.iadd(self.lin_slots, s);
        if let Some(i) = self.iter {
            index = b.iadd(index, i);
        }
        let shift = b.imm_u32(SLOT_BYTES.trailing_zeros());
        let offset = b.ishl(index, shift);
        let block = b.imm_u32(OUTPUT_SSBO);
        let align = b.func.value_type(v).bit_size() as u32 / 8;
        b.intrinsic(
            IntrinsicOp::StoreSsbo,
            None,
            &[Src::new(v), Src::new(block), Src::new(offset)],
            &[0, align],
            None,
        );
    }
}
