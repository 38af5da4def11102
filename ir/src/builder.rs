//! A builder in the spirit of `nir_builder`: emits instructions at a cursor.
//!
//! ```
//! use ir::{Builder, Function, Type};
//! let mut f = Function::new("main");
//! let mut b = Builder::at_end(&mut f);
//! let x = b.imm_u32(6);
//! let y = b.imm_u32(7);
//! let z = b.imul(x, y);
//! assert_eq!(b.func.value_type(z), Type::U32);
//! ```

use crate::alu::AluOp;
use crate::atomic::AtomicOp;
use crate::dataport::DpDesc;
use crate::entity::{Block, IfId, LoopId, Value};
use crate::function::{
    AluInst, CfNode, CfParent, Cursor, Function, InstKind, IntrinsicInst, Jump, Phi,
};
use crate::image::{Access, ImageDecl, ImageRef};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::lsc::{Block2dDesc, LscDesc};
use crate::sampler::TexelOffset;
use crate::span::Span;
use crate::types::{AluType, Src, Type};
use crate::Inst;
use smallvec::SmallVec;

/// Emits instructions into a function at a cursor, advancing past each one.
pub struct Builder<'a> {
    /// The function being built.
    pub func: &'a mut Function,
    /// Where the next instruction goes.
    pub cursor: Cursor,
    /// The span given to new instructions (a lowering pass sets it to the span of the
    /// instruction it replaces).
    pub span: Span,
    /// Whether the ALU instructions emitted are `exact` (NIR's `nir_builder::exact`);
    /// false unless set.
    pub exact: bool,
}

/// The type of the result of `op` applied to `srcs`, inferred as NIR's builder does: a
/// per-component op has as many components as its widest per-component source, and an
/// unsized result takes the bit size of the first unsized source. `None` if the sources
/// do not fit the op.
pub fn alu_dest_type(func: &Function, op: AluOp, srcs: &[Src]) -> Option<Type> {
    let info = op.info();
    if srcs.len() != info.num_inputs as usize {
        return None;
    }
    let comps = if info.output_size != 0 {
        info.output_size
    } else {
        srcs.iter()
            .enumerate()
            .filter(|(i, _)| info.input_sizes[*i] == 0)
            .map(|(_, s)| func.src_components(*s))
            .max()
            .unwrap_or(1)
    };
    let bits = if info.output_type.is_sized() {
        info.output_type.bits
    } else {
        let i = (0..srcs.len())
            .find(|&i| !info.input_types[i].is_sized())
            .unwrap_or(0);
        func.value_type(srcs.get(i)?.value).bit_size()
    };
    Type::new(bits, comps)
}

/// The four image indices NIR's image intrinsics carry, taken from a declaration:
/// `image_dim`, `image_array`, `format`, `access`.
pub fn image_indices(decl: &ImageDecl) -> [u32; 4] {
    [
        decl.dim.to_index(),
        decl.arrayed as u32,
        decl.format.to_index(),
        decl.access.bits(),
    ]
}

macro_rules! alu_methods {
    ($($name:ident => $op:ident / $n:tt),* $(,)?) => {
        $( alu_methods!(@one $name, $op, $n); )*
    };
    (@one $name:ident, $op:ident, 1) => {
        #[doc = concat!("Emits `", stringify!($name), "`.")]
        pub fn $name(&mut self, a: impl Into<Src>) -> Value {
            self.alu(AluOp::$op, &[a.into()])
        }
    };
    (@one $name:ident, $op:ident, 2) => {
        #[doc = concat!("Emits `", stringify!($name), "`.")]
        pub fn $name(&mut self, a: impl Into<Src>, b: impl Into<Src>) -> Value {
            self.alu(AluOp::$op, &[a.into(), b.into()])
        }
    };
    (@one $name:ident, $op:ident, 3) => {
        #[doc = concat!("Emits `", stringify!($name), "`.")]
        pub fn $name(&mut self, a: impl Into<Src>, b: impl Into<Src>, c: impl Into<Src>) -> Value {
            self.alu(AluOp::$op, &[a.into(), b.into(), c.into()])
        }
    };
    (@one $name:ident, $op:ident, 4) => {
        #[doc = concat!("Emits `", stringify!($name), "`.")]
        pub fn $name(&mut self, a: impl Into<Src>, b: impl Into<Src>, c: impl Into<Src>, d: impl Into<Src>) -> Value {
            self.alu(AluOp::$op, &[a.into(), b.into(), c.into(), d.into()])
        }
    };
}

/// What a texture lookup (`txl`, `tg4`) takes besides its image and coordinate: the
/// sampler index it filters with, the type it returns and its constant texel offset.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TexLookup {
    /// The sampler index (NIR's `sampler_index`).
    pub sampler: u32,
    /// `float32` for a float, normalized or format-less texture; the sampled integer
    /// type of an integer one.
    pub dest_type: AluType,
    /// The constant texel offset (`ConstOffset`).
    pub offset: TexelOffset,
}

impl<'a> Builder<'a> {
    /// A builder at `cursor`.
    pub fn new(func: &'a mut Function, cursor: Cursor) -> Builder<'a> {
        Builder {
            func,
            cursor,
            span: Span::UNKNOWN,
            exact: false,
        }
    }

    /// A builder at the end of the last block of the function body.
    pub fn at_end(func: &'a mut Function) -> Builder<'a> {
        let b = func
            .last_block(CfParent::Root)
            .expect("function body has no final block");
        Builder::new(func, Cursor::BlockEnd(b))
    }

    /// Inserts an instruction at the cursor and moves the cursor after it.
    pub fn insert(&mut self, kind: InstKind, dest: Option<Type>) -> Inst {
        let inst = self.func.create_inst(kind, dest, self.span);
        self.cursor = self.func.insert_inst(inst, self.cursor);
        inst
    }

    fn insert_value(&mut self, kind: InstKind, ty: Type) -> Value {
        let inst = self.insert(kind, Some(ty));
        self.func
            .inst(inst)
            .dest
            .expect("instruction has a destination")
    }

    /// Emits an ALU instruction, inferring its type. Panics if the sources do not fit
    /// the op (a bug in the caller; text input goes through the parser and validator).
    pub fn alu(&mut self, op: AluOp, srcs: &[Src]) -> Value {
        let ty = alu_dest_type(self.func, op, srcs)
            .unwrap_or_else(|| panic!("sources do not fit `{}`", op.name()));
        self.alu_typed(op, srcs, ty)
    }

    /// Emits an ALU instruction with an explicit result type.
    pub fn alu_typed(&mut self, op: AluOp, srcs: &[Src], ty: Type) -> Value {
        self.insert_value(
            InstKind::Alu(AluInst {
                op,
                srcs: srcs.iter().copied().collect(),
                exact: self.exact,
            }),
            ty,
        )
    }

    alu_methods! {
        mov => Mov / 1,
        iadd => Iadd / 2, isub => Isub / 2, imul => Imul / 2, imul_high => ImulHigh / 2,
        umul_high => UmulHigh / 2, udiv => Udiv / 2, idiv => Idiv / 2, umod => Umod / 2,
        ineg => Ineg / 1, iabs => Iabs / 1,
        imin => Imin / 2, imax => Imax / 2, umin => Umin / 2, umax => Umax / 2,
        iand => Iand / 2, ior => Ior / 2, ixor => Ixor / 2, inot => Inot / 1,
        ishl => Ishl / 2, ishr => Ishr / 2, ushr => Ushr / 2,
        ubfe => Ubfe / 3, ibfe => Ibfe / 3, bfi => Bfi / 3, bitfield_insert => BitfieldInsert / 4,
        ufind_msb => UfindMsb / 1, bit_count => BitCount / 1,
        extract_u8 => ExtractU8 / 2, extract_i8 => ExtractI8 / 2,
        extract_u16 => ExtractU16 / 2, extract_i16 => ExtractI16 / 2,
        ieq => Ieq / 2, ine => Ine / 2, ilt => Ilt / 2, ige => Ige / 2, ult => Ult / 2, uge => Uge / 2,
        feq => Feq / 2, fneu => Fneu / 2, flt => Flt / 2, fge => Fge / 2,
        bcsel => Bcsel / 3, b2i32 => B2i32 / 1, b2f32 => B2f32 / 1,
        fadd => Fadd / 2, fsub => Fsub / 2, fmul => Fmul / 2, ffma => Ffma / 3, fdiv => Fdiv / 2,
        fmin => Fmin / 2, fmax => Fmax / 2, fneg => Fneg / 1, fabs => Fabs / 1, fsat => Fsat / 1,
        ffloor => Ffloor / 1, fceil => Fceil / 1, fround_even => FroundEven / 1, ftrunc => Ftrunc / 1,
        frcp => Frcp / 1,
        f2i32 => F2i32 / 1, f2u32 => F2u32 / 1, i2f32 => I2f32 / 1, u2f32 => U2f32 / 1,
        f2f16 => F2f16 / 1, f2f32 => F2f32 / 1,
        u2u8 => U2u8 / 1, u2u16 => U2u16 / 1, u2u32 => U2u32 / 1, u2u64 => U2u64 / 1,
        i2i8 => I2i8 / 1, i2i16 => I2i16 / 1, i2i32 => I2i32 / 1, i2i64 => I2i64 / 1,
        pack_half_2x16_split => PackHalf2x16Split / 2,
        unpack_half_2x16_split_x => UnpackHalf2x16SplitX / 1,
        unpack_half_2x16_split_y => UnpackHalf2x16SplitY / 1,
        pack_64_2x32_split => Pack64_2x32Split / 2,
        unpack_64_2x32_split_x => Unpack64_2x32SplitX / 1,
        unpack_64_2x32_split_y => Unpack64_2x32SplitY / 1,
    }

    /// `ine x, 0`: NIR's `i2b`.
    pub fn i2b(&mut self, x: impl Into<Src>) -> Value {
        let x = x.into();
        let bits = self.func.value_type(x.value).bit_size();
        let zero = self.imm_int(bits, 0);
        self.ine(x, zero)
    }

    /// Emits `vecN` of scalar sources (or a `mov` for one source).
    pub fn vec(&mut self, comps: &[Src]) -> Value {
        match comps.len() {
            1 => self.mov(comps[0]),
            n => {
                let op = AluOp::vec(n as u8).expect("vec of 2, 3, 4, 8 or 16 components");
                self.alu(op, comps)
            }
        }
    }

    /// Component `c` of `v` as a source (no instruction: a swizzle).
    pub fn channel(&self, v: impl Into<Src>, c: u8) -> Src {
        v.into().component(c)
    }

    /// Emits a `load_const` of the given type; `bits` holds one entry per component.
    pub fn load_const(&mut self, ty: Type, bits: &[u64]) -> Value {
        debug_assert_eq!(bits.len(), ty.num_components() as usize);
        let mask = ty.component_mask();
        let vals: SmallVec<[u64; 4]> = bits.iter().map(|b| b & mask).collect();
        self.insert_value(InstKind::LoadConst(vals), ty)
    }

    /// A scalar integer constant of `bits` bits (two's complement, truncated).
    pub fn imm_int(&mut self, bits: u8, v: i64) -> Value {
        self.load_const(Type::scalar(bits).expect("legal bit size"), &[v as u64])
    }

    /// A 32-bit constant.
    pub fn imm_u32(&mut self, v: u32) -> Value {
        self.imm_int(32, v as i64)
    }

    /// A 64-bit constant.
    pub fn imm_u64(&mut self, v: u64) -> Value {
        self.load_const(Type::U64, &[v])
    }

    /// A 32-bit float constant.
    pub fn imm_f32(&mut self, v: f32) -> Value {
        self.imm_u32(v.to_bits())
    }

    /// A 1-bit boolean constant.
    pub fn imm_bool(&mut self, v: bool) -> Value {
        self.load_const(Type::BOOL, &[v as u64])
    }

    /// A zero vector of the given type.
    pub fn zero(&mut self, ty: Type) -> Value {
        let z = vec![0u64; ty.num_components() as usize];
        self.load_const(ty, &z)
    }

    /// An `undef` of the given type.
    pub fn undef(&mut self, ty: Type) -> Value {
        self.insert_value(InstKind::Undef, ty)
    }

    /// A phi with one source per predecessor.
    pub fn phi(&mut self, ty: Type, srcs: &[(Block, Src)]) -> Value {
        self.insert_value(
            InstKind::Phi(Phi {
                srcs: srcs.iter().copied().collect(),
            }),
            ty,
        )
    }

    /// Adds the source `src` from predecessor `pred` to the phi defining `phi`, as
    /// `nir_phi_instr_add_src`: a loop header's phi gets its back-edge source once the
    /// block ending the body exists. Panics if `phi` is not defined by a phi.
    pub fn add_phi_src(&mut self, phi: Value, pred: Block, src: impl Into<Src>) {
        let inst = self.func.value_def(phi).expect("the phi is defined");
        match &mut self.func.inst_mut(inst).kind {
            InstKind::Phi(p) => p.srcs.push((pred, src.into())),
            other => panic!("{phi:?} is defined by {other:?}, not a phi"),
        }
    }

    /// After [`Builder::pop_if`]: a phi merging `then_val` (from the end of the then
    /// list) and `else_val` (from the end of the else list), as `nir_if_phi`.
    pub fn if_phi(
        &mut self,
        id: IfId,
        then_val: impl Into<Src>,
        else_val: impl Into<Src>,
    ) -> Value {
        let then_val = then_val.into();
        let t = self
            .func
            .last_block(CfParent::Then(id))
            .expect("then list ends with a block");
        let e = self
            .func
            .last_block(CfParent::Else(id))
            .expect("else list ends with a block");
        let ty = self.func.src_type(then_val);
        self.phi(ty, &[(t, then_val), (e, else_val.into())])
    }

    /// Emits an intrinsic. `dest` gives the destination type for intrinsics that have one.
    pub fn intrinsic(
        &mut self,
        op: IntrinsicOp,
        image: Option<ImageRef>,
        srcs: &[Src],
        indices: &[u32],
        dest: Option<Type>,
    ) -> Option<Value> {
        let kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
            op,
            image,
            srcs: srcs.iter().copied().collect(),
            indices: indices.iter().copied().collect(),
        }));
        let inst = self.insert(kind, dest);
        self.func.inst(inst).dest
    }

    /// Emits an image intrinsic whose indices are `decl`'s four image indices followed
    /// by `last`: `image_load`, `image_store` and the atomics all end their indices
    /// with one more (`dest_type`, `src_type` or `atomic_op`).
    fn image_access(
        &mut self,
        op: IntrinsicOp,
        decl: &ImageDecl,
        image: ImageRef,
        srcs: &[Src],
        last: u32,
        dest: Option<Type>,
    ) -> Option<Value> {
        let [d, a, f, acc] = image_indices(decl);
        self.intrinsic(op, Some(image), srcs, &[d, a, f, acc, last], dest)
    }

    /// `image_load` with the sources `srcs` (`coord`, then `lod` when given).
    fn image_load_srcs(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        srcs: &[Src],
        components: u8,
        dest_type: AluType,
    ) -> Value {
        let ty = Type::new(dest_type.bits, components).expect("legal image data type");
        let last = dest_type.to_index();
        self.image_access(IntrinsicOp::ImageLoad, decl, image, srcs, last, Some(ty))
            .expect("image_load has a destination")
    }

    /// `image_load` of `components` components of `dest_type` data.
    pub fn image_load(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        coord: impl Into<Src>,
        components: u8,
        dest_type: AluType,
    ) -> Value {
        self.image_load_srcs(decl, image, &[coord.into()], components, dest_type)
    }

    /// `image_load` with NIR's `lod` source (relative to the view's base level): like
    /// [`Builder::image_load`], which leaves the LOD out (LOD 0).
    pub fn image_load_lod(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        coord: impl Into<Src>,
        lod: impl Into<Src>,
        components: u8,
        dest_type: AluType,
    ) -> Value {
        let srcs = [coord.into(), lod.into()];
        self.image_load_srcs(decl, image, &srcs, components, dest_type)
    }

    /// `txl` (NIR's `nir_texop_txl`): `components` components of `decl`'s texture
    /// sampled at the float `coord` and `lod` as `lookup` says (`float32` filtered;
    /// `int32`/`uint32` for an integer texture).
    pub fn txl(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        coord: impl Into<Src>,
        lod: impl Into<Src>,
        lookup: TexLookup,
        components: u8,
    ) -> Value {
        let [d, a, f, acc] = image_indices(decl);
        let ty = Type::new(32, components).expect("1 to 4 components");
        self.intrinsic(
            IntrinsicOp::Txl,
            Some(image),
            &[coord.into(), lod.into()],
            &[
                d,
                a,
                f,
                acc,
                lookup.dest_type.to_index(),
                lookup.sampler,
                lookup.offset.to_index(),
            ],
            Some(ty),
        )
        .expect("txl has a destination")
    }

    /// `tg4` (NIR's `nir_texop_tg4`): channel `component` of the four texels of
    /// `decl`'s texture a bilinear filter at the float `coord` would read, as `lookup`
    /// says.
    pub fn tg4(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        coord: impl Into<Src>,
        lookup: TexLookup,
        component: u32,
    ) -> Value {
        let [d, a, f, acc] = image_indices(decl);
        self.intrinsic(
            IntrinsicOp::Tg4,
            Some(image),
            &[coord.into()],
            &[
                d,
                a,
                f,
                acc,
                lookup.dest_type.to_index(),
                lookup.sampler,
                component,
                lookup.offset.to_index(),
            ],
            Some(Type::vec32(4)),
        )
        .expect("tg4 has a destination")
    }

    /// `image_store` of `data` (typed `src_type`).
    pub fn image_store(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        coord: impl Into<Src>,
        data: impl Into<Src>,
        src_type: AluType,
    ) {
        let srcs = [coord.into(), data.into()];
        let last = src_type.to_index();
        self.image_access(IntrinsicOp::ImageStore, decl, image, &srcs, last, None);
    }

    /// `image_atomic` or `image_atomic_swap` with the sources `srcs`, whose last is the
    /// data: the old texel it returns has the data's type.
    fn image_atomic_srcs(
        &mut self,
        intrinsic: IntrinsicOp,
        decl: &ImageDecl,
        image: ImageRef,
        op: AtomicOp,
        srcs: &[Src],
    ) -> Value {
        let ty = self.func.src_type(srcs[srcs.len() - 1]);
        self.image_access(intrinsic, decl, image, srcs, op.to_index(), Some(ty))
            .expect("image atomics have a destination")
    }

    /// `image_atomic` with `op` (not a swap), returning the old value.
    pub fn image_atomic(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        op: AtomicOp,
        coord: impl Into<Src>,
        data: impl Into<Src>,
    ) -> Value {
        let srcs = [coord.into(), data.into()];
        self.image_atomic_srcs(IntrinsicOp::ImageAtomic, decl, image, op, &srcs)
    }

    /// `image_atomic_swap` (`cmpxchg` or `fcmpxchg`), returning the old value.
    pub fn image_atomic_swap(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        op: AtomicOp,
        coord: impl Into<Src>,
        compare: impl Into<Src>,
        data: impl Into<Src>,
    ) -> Value {
        let srcs = [coord.into(), compare.into(), data.into()];
        self.image_atomic_srcs(IntrinsicOp::ImageAtomicSwap, decl, image, op, &srcs)
    }

    /// `image_size`: one 32-bit component per coordinate component (a multisampled
    /// image's sample aside), of the view's base level (LOD 0).
    pub fn image_size(&mut self, decl: &ImageDecl, image: ImageRef) -> Value {
        let idx = image_indices(decl);
        let ty = Type::vec32(decl.dim.texel_coord_components(decl.arrayed));
        self.intrinsic(IntrinsicOp::ImageSize, Some(image), &[], &idx, Some(ty))
            .expect("dest")
    }

    /// `image_size` with NIR's `lod` source: the size of mip level `lod` of the view
    /// (relative to its base level), like [`Builder::image_size`], which leaves the LOD
    /// out (LOD 0).
    pub fn image_size_lod(
        &mut self,
        decl: &ImageDecl,
        image: ImageRef,
        lod: impl Into<Src>,
    ) -> Value {
        let idx = image_indices(decl);
        let ty = Type::vec32(decl.dim.texel_coord_components(decl.arrayed));
        self.intrinsic(
            IntrinsicOp::ImageSize,
            Some(image),
            &[lod.into()],
            &idx,
            Some(ty),
        )
        .expect("dest")
    }

    /// `image_levels`: the number of mip levels of the view, a 32-bit scalar.
    pub fn image_levels(&mut self, decl: &ImageDecl, image: ImageRef) -> Value {
        let idx = image_indices(decl);
        self.intrinsic(
            IntrinsicOp::ImageLevels,
            Some(image),
            &[],
            &idx,
            Some(Type::U32),
        )
        .expect("dest")
    }

    /// The sampler's `resinfo` at mip `lod` of `image`'s view, returning the channels of
    /// `channels` (R in bit 0: width, height, depth or layers, level count), one 32-bit
    /// component each. A mask without channels gives a scalar the validator rejects.
    pub fn sampler_resinfo(&mut self, image: ImageRef, lod: impl Into<Src>, channels: u8) -> Value {
        let ty = Type::new(32, channels.count_ones() as u8).unwrap_or(Type::U32);
        self.intrinsic(
            IntrinsicOp::SamplerResinfo,
            Some(image),
            &[lod.into()],
            &[u32::from(channels)],
            Some(ty),
        )
        .expect("dest")
    }

    /// A subgroup `reduce`, `inclusive_scan` or `exclusive_scan` of `value` (a scalar)
    /// with `op`.
    pub fn subgroup_op(
        &mut self,
        kind: crate::subgroup::GroupOperation,
        op: crate::subgroup::ReductionOp,
        value: impl Into<Src>,
    ) -> Value {
        use crate::subgroup::GroupOperation;
        let intrinsic = match kind {
            GroupOperation::Reduce => return self.clustered_reduce(op, value, 0),
            GroupOperation::InclusiveScan => IntrinsicOp::InclusiveScan,
            GroupOperation::ExclusiveScan => IntrinsicOp::ExclusiveScan,
        };
        let s = value.into();
        let ty = self.func.src_type(s);
        self.intrinsic(intrinsic, None, &[s], &[op.to_index()], Some(ty))
            .expect("a subgroup operation has a destination")
    }

    /// A `reduce` of `value` (a scalar) with `op` over each aligned cluster of
    /// `cluster_size` lanes (NIR's `cluster_size`; 0 for the whole subgroup).
    pub fn clustered_reduce(
        &mut self,
        op: crate::subgroup::ReductionOp,
        value: impl Into<Src>,
        cluster_size: u32,
    ) -> Value {
        let s = value.into();
        let ty = self.func.src_type(s);
        self.intrinsic(
            IntrinsicOp::Reduce,
            None,
            &[s],
            &[op.to_index(), cluster_size],
            Some(ty),
        )
        .expect("a reduction has a destination")
    }

    /// A shuffle or quad operation (`shuffle`, `shuffle_xor`, `shuffle_up`,
    /// `shuffle_down`, `quad_broadcast`, `quad_swap_*`) of `value`, with `operand` (the
    /// 32-bit index, mask or delta) for those that take one; `None` if `op` is none of
    /// them or `operand` is missing or given to a quad swap.
    pub fn shuffle(
        &mut self,
        op: IntrinsicOp,
        value: impl Into<Src>,
        operand: Option<Src>,
    ) -> Option<Value> {
        let kind = op.shuffle_kind()?;
        let s = value.into();
        let ty = self.func.src_type(s);
        match (kind.has_operand(), operand) {
            (true, Some(o)) => self.intrinsic(op, None, &[s, o], &[], Some(ty)),
            (false, None) => self.intrinsic(op, None, &[s], &[], Some(ty)),
            _ => None,
        }
    }

    /// `read_first_invocation`: `value` in the first active lane, for every active lane.
    pub fn read_first_invocation(&mut self, value: impl Into<Src>) -> Value {
        let s = value.into();
        let ty = self.func.src_type(s);
        self.intrinsic(IntrinsicOp::ReadFirstInvocation, None, &[s], &[], Some(ty))
            .expect("read_first_invocation has a destination")
    }

    /// `image_load_param` of parameter slot `slot` (`components` dwords).
    pub fn image_load_param(&mut self, image: ImageRef, slot: u32, components: u8) -> Value {
        self.intrinsic(
            IntrinsicOp::ImageLoadParam,
            Some(image),
            &[],
            &[slot, Access::NONE.bits()],
            Some(Type::vec32(components)),
        )
        .expect("dest")
    }

    // ----- message intrinsics (the lowering's output) ------------------------------

    /// Sources of a message: `addr`, then `rest`, then the predicate if any.
    fn message_srcs(addr: &[Src], rest: &[Src], predicate: Option<Src>) -> SmallVec<[Src; 4]> {
        let mut srcs: SmallVec<[Src; 4]> = SmallVec::from_slice(addr);
        srcs.extend_from_slice(rest);
        srcs.extend(predicate);
        srcs
    }

    /// The register type of one lane's data of `desc`: the register element size times
    /// the components (vector size or channel count).
    fn message_data_type(desc: &LscDesc) -> Type {
        Type::new(desc.data.size.reg_bits(), desc.data.components())
            .expect("a message data shape with an IR type")
    }

    /// `@lsc_load` of `desc`, or `@lsc_load_quad` when its data has a channel mask, at
    /// `addr` (one address, or U, V, R, LOD on `.tgm`), predicated when `predicate` is
    /// given. `image` is the surface of stateful address models. The value has the
    /// register type of the data shape (`d32x4`: 32x4, `d8u32`: 32, `d32.xy`: 32x2).
    pub fn lsc_load(
        &mut self,
        desc: &LscDesc,
        image: Option<ImageRef>,
        addr: &[Src],
        predicate: Option<Src>,
    ) -> Value {
        let op = if desc.data.cmask != 0 {
            IntrinsicOp::LscLoadQuad
        } else {
            IntrinsicOp::LscLoad
        };
        let srcs = Builder::message_srcs(addr, &[], predicate);
        let ty = Builder::message_data_type(desc);
        self.intrinsic(op, image, &srcs, &desc.indices(), Some(ty))
            .expect("loads define a value")
    }

    /// `@lsc_store` of `desc` (`@lsc_store_quad` for a channel-mask shape): `data` to
    /// `addr`, predicated when `predicate` is given.
    pub fn lsc_store(
        &mut self,
        desc: &LscDesc,
        image: Option<ImageRef>,
        addr: &[Src],
        data: Src,
        predicate: Option<Src>,
    ) -> Inst {
        let op = if desc.data.cmask != 0 {
            IntrinsicOp::LscStoreQuad
        } else {
            IntrinsicOp::LscStore
        };
        let srcs = Builder::message_srcs(addr, &[data], predicate);
        let kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
            op,
            image,
            srcs,
            indices: desc.indices().into_iter().collect(),
        }));
        self.insert(kind, None)
    }

    /// `@lsc_atomic` of `desc` (whose `atomic` names the sub-operation) at `addr` with
    /// the sub-operation's data `operands` (none, one, or compare then new value),
    /// predicated when `predicate` is given. Returns the old value, of the data size's
    /// register type.
    pub fn lsc_atomic(
        &mut self,
        desc: &LscDesc,
        image: Option<ImageRef>,
        addr: &[Src],
        operands: &[Src],
        predicate: Option<Src>,
    ) -> Value {
        debug_assert!(
            desc.atomic.is_some(),
            "lsc_atomic needs an atomic sub-operation"
        );
        let srcs = Builder::message_srcs(addr, operands, predicate);
        let ty = Builder::message_data_type(desc);
        self.intrinsic(
            IntrinsicOp::LscAtomic,
            image,
            &srcs,
            &desc.indices(),
            Some(ty),
        )
        .expect("atomics define a value")
    }

    /// `@lsc_load_block2d` of `desc` with the payload `payload` (untyped `base,
    /// width - 1, height - 1, pitch - 1, x, y`; typed `x, y`), its register image read
    /// as `ty`. `None` if the block shape does not encode.
    pub fn lsc_load_block2d(
        &mut self,
        desc: &Block2dDesc,
        image: Option<ImageRef>,
        payload: &[Src],
        ty: Type,
    ) -> Option<Value> {
        let indices = desc.indices()?;
        self.intrinsic(
            IntrinsicOp::LscLoadBlock2d,
            image,
            payload,
            &indices,
            Some(ty),
        )
    }

    /// `@lsc_store_block2d` of `desc`: `data` to the block the payload describes.
    /// `None` if the block shape does not encode.
    pub fn lsc_store_block2d(
        &mut self,
        desc: &Block2dDesc,
        image: Option<ImageRef>,
        payload: &[Src],
        data: Src,
    ) -> Option<Inst> {
        let indices = desc.indices()?;
        let srcs = Builder::message_srcs(payload, &[data], None);
        let kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
            op: IntrinsicOp::LscStoreBlock2d,
            image,
            srcs,
            indices: indices.into_iter().collect(),
        }));
        Some(self.insert(kind, None))
    }

    /// A system value with a fixed 32x3 type (`load_global_invocation_id`, ...).
    pub fn system_value(&mut self, op: IntrinsicOp) -> Value {
        self.intrinsic(op, None, &[], &[], Some(Type::vec32(3)))
            .expect("dest")
    }

    /// The encoded value of an intrinsic's index.
    pub fn index_of(&self, inst: Inst, kind: IndexKind) -> Option<u32> {
        self.func.inst(inst).as_intrinsic()?.index(kind)
    }

    // ----- structured control flow (nir_push_if and friends) -----------------------

    /// Splits the cursor's block at the cursor, where a new `if` or `loop` goes: returns
    /// the first half, which the node follows, and the list both sit in.
    fn split_at_cursor(&mut self) -> (Block, CfParent) {
        let block = self.current_block();
        self.func.split_block(self.cursor);
        let parent = self.func.block(block).parent.expect("block in the tree");
        (block, parent)
    }

    /// Appends a new block to `list`: each list of a new `if` or `loop` starts as one
    /// block (NIR's shape rule that lists begin and end with a block).
    fn start_list(&mut self, list: CfParent) -> Block {
        let b = self.func.create_block(list);
        self.func.append_cf_node(list, CfNode::Block(b));
        b
    }

    /// Moves the cursor to the start of the block after `node`, an `if` or `loop`
    /// (`what` names it if the tree lacks that block).
    fn move_after(&mut self, node: CfNode, what: &str) {
        let after = match self.func.next_node(node) {
            Some(CfNode::Block(b)) => b,
            _ => panic!("{what} not followed by a block"),
        };
        self.cursor = Cursor::BlockStart(after);
    }

    /// Starts an `if` at the cursor: splits the block there, inserts the `if` and moves
    /// the cursor to the end of the then list.
    pub fn push_if(&mut self, cond: impl Into<Src>) -> IfId {
        let (block, parent) = self.split_at_cursor();
        let id = self.func.create_if(cond.into(), parent, self.span);
        self.func.insert_cf_after(block, CfNode::If(id));
        let t = self.start_list(CfParent::Then(id));
        self.start_list(CfParent::Else(id));
        self.cursor = Cursor::BlockEnd(t);
        id
    }

    /// Moves the cursor to the end of the else list of `id`.
    pub fn push_else(&mut self, id: IfId) {
        let e = self
            .func
            .last_block(CfParent::Else(id))
            .expect("else list ends with a block");
        self.cursor = Cursor::BlockEnd(e);
    }

    /// Moves the cursor after the `if`: the start of the block following it.
    pub fn pop_if(&mut self, id: IfId) {
        self.move_after(CfNode::If(id), "if");
    }

    /// Starts a `loop` at the cursor and moves the cursor into its header.
    pub fn push_loop(&mut self) -> LoopId {
        let (block, parent) = self.split_at_cursor();
        let id = self.func.create_loop(parent, self.span);
        self.func.insert_cf_after(block, CfNode::Loop(id));
        self.cursor = Cursor::BlockEnd(self.start_list(CfParent::Loop(id)));
        id
    }

    /// Moves the cursor after the loop.
    pub fn pop_loop(&mut self, id: LoopId) {
        self.move_after(CfNode::Loop(id), "loop");
    }

    /// Ends the cursor's block with a jump.
    pub fn jump(&mut self, jump: Jump) {
        let b = self.current_block();
        self.func.block_mut(b).jump = Some(jump);
    }

    /// The block the cursor is in.
    pub fn current_block(&self) -> Block {
        self.func
            .cursor_block(self.cursor)
            .expect("cursor in the tree")
    }
}

#[cfg(test)]
impl Builder<'_> {
    /// At the cursor, `if cond { %t = then_value } else { %e = else_value }` with the
    /// cursor left after the `if`: the diamond the crate's unit tests put phis on.
    /// Returns the `if`, `%t` and `%e`.
    pub(crate) fn if_else_u32(
        &mut self,
        cond: impl Into<Src>,
        then_value: u32,
        else_value: u32,
    ) -> (IfId, Value, Value) {
        let id = self.push_if(cond);
        let t = self.imm_u32(then_value);
        self.push_else(id);
        let e = self.imm_u32(else_value);
        self.pop_if(id);
        (id, t, e)
    }

    /// `if cond { break }` at the cursor, the cursor left after it: the loop exit of
    /// the tests' loops.
    pub(crate) fn break_if(&mut self, cond: impl Into<Src>) -> IfId {
        let id = self.push_if(cond);
        self.jump(Jump::Break);
        self.pop_if(id);
        id
    }
}

/// Legacy data-port messages (`@dp_*`, [`crate::dataport`]).
impl Builder<'_> {
    /// Emits the data-port message `desc` with its indices. `image` names the surface
    /// (typed messages and `dp_addr=bti`), `srcs` are the coordinates U, V, R, LOD or
    /// the address, then the data or the atomic operands, in
    /// [`IntrinsicOp::srcs`] order; `pred`, when given, is a 1-bit predicate that
    /// leaves the message off in lanes where it is false. Returns the destination of
    /// reads and atomics, whose type the fields give ([`DpDesc::data_bits`] by
    /// [`DpDesc::components`]).
    pub fn dp_message(
        &mut self,
        desc: &DpDesc,
        image: Option<ImageRef>,
        srcs: &[Src],
        pred: Option<Src>,
    ) -> Option<Value> {
        let dest = desc
            .msg
            .has_dest()
            .then(|| Type::new(desc.data_bits(), desc.components()))
            .flatten();
        let mut all: SmallVec<[Src; 8]> = srcs.iter().copied().collect();
        all.extend(pred);
        self.intrinsic(
            IntrinsicOp::for_dp_msg(desc.msg),
            image,
            &all,
            &desc.to_indices(),
            dest,
        )
    }

    /// A typed surface read of the channels `cmask` of the texel at `coords`
    /// (U, V, R, LOD).
    pub fn dp_typed_read(&mut self, image: ImageRef, coords: [Src; 4], cmask: u8) -> Value {
        self.dp_message(&DpDesc::typed_read(cmask), Some(image), &coords, None)
            .expect("a typed read has a destination")
    }

    /// A typed surface write of the channels `cmask` from `data`.
    pub fn dp_typed_write(&mut self, image: ImageRef, coords: [Src; 4], data: Src, cmask: u8) {
        let [u, v, r, lod] = coords;
        self.dp_message(
            &DpDesc::typed_write(cmask),
            Some(image),
            &[u, v, r, lod, data],
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::function::CfNode;

    #[test]
    fn if_else_with_phi_has_nir_shape() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(1);
        let c = b.i2b(x);
        let (id, t, e) = b.if_else_u32(c, 10, 20);
        let p = b.if_phi(id, t, e);
        assert_eq!(b.func.value_type(p), Type::U32);
        let body = f.body();
        assert_eq!(body.len(), 3);
        assert!(matches!(body[0], CfNode::Block(_)));
        assert!(matches!(body[1], CfNode::If(_)));
        assert!(matches!(body[2], CfNode::Block(_)));
        let merge = match body[2] {
            CfNode::Block(m) => m,
            _ => unreachable!(),
        };
        let preds = f.predecessors();
        assert_eq!(preds[&merge].len(), 2);
    }

    #[test]
    fn loop_with_break() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let l = b.push_loop();
        b.jump(Jump::Break);
        b.pop_loop(l);
        let _ = b.imm_u32(0);
        let header = f.first_block(CfParent::Loop(l)).unwrap();
        let after = match f.next_node(CfNode::Loop(l)) {
            Some(CfNode::Block(a)) => a,
            _ => unreachable!(),
        };
        assert_eq!(f.successors(header).as_slice(), &[after]);
    }

    #[test]
    fn add_phi_src_appends_the_back_edge_source() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let zero = b.imm_u32(0);
        let pre = b.current_block();
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(pre, zero.into())]);
        let next = b.iadd(h, h);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(h, latch, next);
        let hi = f.value_def(h).unwrap();
        match &f.inst(hi).kind {
            InstKind::Phi(p) => assert_eq!(
                p.srcs.as_slice(),
                &[(pre, Src::new(zero)), (latch, Src::new(next))]
            ),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn dataport_messages_validate() {
        use crate::dataport::{DpAddr, DpAtomicOp};
        let mut sh = crate::parse_shader(
            "shader compute (local_size=8,1,1)\nimage @img : 2d r32_uint (binding=0)\nfn main {\n  block b0:\n}\n",
        )
        .unwrap();
        let img = ImageRef {
            image: crate::ImageId::from_u32(0),
            index: None,
        };
        let mut f = sh.functions.pop().unwrap();
        let mut b = Builder::at_end(&mut f);
        let zero = Src::new(b.imm_u32(0));
        let texel = b.dp_typed_read(img, [zero; 4], 0b0001);
        b.dp_typed_write(img, [zero; 4], Src::new(texel), 0b0001);
        let addr = Src::new(b.imm_u64(0x1000));
        let old = b
            .dp_message(
                &DpDesc::untyped_atomic(DpAddr::A64, DpAtomicOp::Umax, 64),
                None,
                &[addr, addr],
                None,
            )
            .unwrap();
        let pred = Src::new(b.imm_bool(true));
        let none = b.dp_message(
            &DpDesc::byte_scattered_write(DpAddr::Slm, 2),
            None,
            &[zero, Src::new(texel)],
            Some(pred),
        );
        assert!(none.is_none());
        assert_eq!(f.value_type(old), Type::U64);
        sh.functions.push(f);
        crate::validate(&sh).unwrap();
        let text = sh.to_string();
        assert!(
            text.contains("@dp_untyped_atomic (%2, %2) (dp_addr=a64, dp_op=umax, dp_bits=64)"),
            "{text}"
        );
        assert!(text.contains("(dp_addr=slm, dp_bytes=2) if %4"), "{text}");
    }

    #[test]
    #[should_panic(expected = "not a phi")]
    fn add_phi_src_to_a_non_phi_panics() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(0);
        let block = b.current_block();
        b.add_phi_src(x, block, x);
    }
}
