//! One image intrinsic decoded for the planners ([`ImageAccess`]).

use crate::device::Device;
use crate::error::{format_error_kind, DimProblem, LowerError, LowerErrorKind, Malformation};
use crate::format::FormatError;
use ir::{
    AtomicOp, Format, Function, ImageDecl, ImageDim, ImageRef, IndexKind, Inst, IntrinsicOp, Span,
    Src, Type,
};
use smallvec::SmallVec;

/// A decoded image intrinsic: what the callbacks plan from.
pub(crate) struct ImageAccess<'a> {
    pub op: IntrinsicOp,
    pub function: &'a str,
    pub span: Span,
    pub image: ImageRef,
    pub decl: &'a ImageDecl,
    pub dim: ImageDim,
    pub arrayed: bool,
    pub format: Format,
    /// The access qualifiers.
    pub qualifiers: ir::Access,
    pub srcs: SmallVec<[Src; 4]>,
    /// Types of `srcs` (what each reads).
    pub src_types: SmallVec<[Type; 4]>,
    pub dest: Option<Type>,
    /// The components of the result the shader reads, one bit each (all of them until
    /// the planner says otherwise).
    pub dest_read: u16,
    /// The intrinsic's indices.
    pub indices: SmallVec<[u32; 6]>,
    /// The value of a source when it is a `load_const` (per source, component read).
    pub const_srcs: SmallVec<[Option<u64>; 4]>,
    pub platform: &'a str,
    /// The device.
    pub device: &'a Device,
    /// The shader's fixed subgroup size (block accesses spread their data over it).
    pub subgroup_size: Option<u32>,
}

impl<'a> ImageAccess<'a> {
    pub fn decode(
        func: &'a Function,
        inst: Inst,
        images: &'a [ImageDecl],
        device: &'a Device,
        subgroup_size: Option<u32>,
    ) -> Result<ImageAccess<'a>, LowerError> {
        let data = func.inst(inst);
        let intr = data.as_intrinsic().expect("caller checked");
        let span = func.inst_span(inst);
        let malformed = |image: Option<&ImageDecl>, m: Malformation| {
            let e = LowerError::new(LowerErrorKind::Malformed(m), &device.name).at(
                &func.name,
                Some(intr.op.name()),
                span,
            );
            match image {
                Some(d) => LowerError {
                    image: Some(d.name.as_str().into()),
                    ..e
                },
                None => e,
            }
        };
        let Some(image) = intr.image else {
            return Err(malformed(None, Malformation::NoImage));
        };
        let Some(decl) = images.get(image.image.index()) else {
            return Err(malformed(
                None,
                Malformation::UndeclaredImage {
                    index: image.image.index(),
                },
            ));
        };
        let index = |k: IndexKind| intr.index(k);
        let bad = |kind: IndexKind, v: u32| {
            malformed(
                Some(decl),
                Malformation::BadIndex {
                    kind,
                    value: Some(v),
                },
            )
        };
        let dim = match index(IndexKind::ImageDim) {
            Some(v) => ImageDim::from_index(v).ok_or_else(|| bad(IndexKind::ImageDim, v))?,
            None => decl.dim,
        };
        let arrayed = match index(IndexKind::ImageArray) {
            Some(v) => v != 0,
            None => decl.arrayed,
        };
        let format = match index(IndexKind::Format) {
            Some(v) => Format::from_index(v).ok_or_else(|| bad(IndexKind::Format, v))?,
            None => decl.format,
        };
        let qualifiers = match index(IndexKind::Access) {
            Some(v) => ir::Access::from_bits(v).ok_or_else(|| bad(IndexKind::Access, v))?,
            None => decl.access,
        };
        let defines = intr.op.info().dest != ir::DestInfo::None;
        if data.dest.is_some() != defines {
            return Err(malformed(
                Some(decl),
                Malformation::Definition {
                    op: intr.op,
                    defines,
                },
            ));
        }
        // The required sources, then a prefix of the optional ones (the `lod` of
        // `image_load`); image intrinsics are never predicated.
        if intr
            .op
            .srcs_for_count(&intr.indices, intr.srcs.len())
            .is_none()
        {
            let required = intr.op.srcs(&intr.indices).map_or(0, |s| s.len());
            return Err(malformed(
                Some(decl),
                Malformation::SourceCount {
                    required,
                    optional: intr.op.optional_srcs().len(),
                    found: intr.srcs.len(),
                },
            ));
        }
        let src_types = intr.srcs.iter().map(|s| func.src_type(*s)).collect();
        let const_srcs = intr
            .srcs
            .iter()
            .map(|s| {
                let def = func.value_def(s.value)?;
                let c = func.inst(def).as_const()?;
                let comp = s.swizzle.component(0) as usize;
                (func.src_components(*s) == 1).then(|| c.get(comp).copied())?
            })
            .collect();
        Ok(ImageAccess {
            op: intr.op,
            function: &func.name,
            span,
            image,
            decl,
            dim,
            arrayed,
            format,
            qualifiers,
            srcs: intr.srcs.clone(),
            src_types,
            dest: data.dest.map(|v| func.value_type(v)),
            dest_read: u16::MAX,
            indices: intr.indices.clone(),
            const_srcs,
            platform: &device.name,
            device,
            subgroup_size,
        })
    }

    /// An error of `kind` about this access.
    pub fn error(&self, kind: LowerErrorKind) -> LowerError {
        LowerError::new(kind, self.platform)
            .at(self.function, Some(self.op.name()), self.span)
            .with_image(&self.decl.name, self.format)
    }

    /// The [`Malformation`] `m` of this access.
    pub fn malformed(&self, m: Malformation) -> LowerError {
        self.error(LowerErrorKind::Malformed(m))
    }

    /// The error for a format the platform cannot store.
    pub fn format_error(&self, e: FormatError) -> LowerError {
        self.error(format_error_kind(e))
    }

    /// Number of coordinate components (NIR's `nir_image_intrinsic_coord_components`).
    pub fn coord_components(&self) -> u8 {
        self.dim.coord_components(self.arrayed)
    }

    /// Checks the dimension and the coordinate source (source 0).
    pub fn check_coord(&self) -> Result<Src, LowerError> {
        if self.arrayed && !self.dim.can_be_arrayed() {
            return Err(
                self.error(LowerErrorKind::UnsupportedDim(DimProblem::Arrayed {
                    dim: self.dim,
                })),
            );
        }
        let need = self.coord_components();
        let ty = self.src_types[0];
        if ty.bit_size() != 32 || ty.num_components() < need {
            return Err(self.malformed(Malformation::Coordinate {
                found: ty,
                dim: self.dim,
                arrayed: self.arrayed,
            }));
        }
        Ok(self.srcs[0])
    }

    /// The position of the `lod` source (NIR's `lod` of `image_load`), when the
    /// instruction has one.
    fn lod_position(&self) -> Option<usize> {
        let req = self.op.srcs(&self.indices)?.len();
        let k = self
            .op
            .optional_srcs()
            .iter()
            .position(|s| s.name == "lod")?;
        (req + k < self.srcs.len()).then_some(req + k)
    }

    /// The LOD when it is known when lowering: 0 without a LOD source, the constant a
    /// `load_const` LOD holds, `None` for a LOD computed at run time.
    pub fn const_lod(&self) -> Option<u64> {
        match self.lod_position() {
            None => Some(0),
            Some(k) => self.const_srcs[k].map(|v| v & 0xffff_ffff),
        }
    }

    /// The LOD source (relative to the view's base level; without one the LOD is 0),
    /// checked to be a 32-bit scalar.
    pub fn check_lod(&self) -> Result<Option<Src>, LowerError> {
        let Some(k) = self.lod_position() else {
            return Ok(None);
        };
        let ty = self.src_types[k];
        if ty != Type::U32 {
            return Err(self.malformed(Malformation::Lod { found: ty }));
        }
        Ok(Some(self.srcs[k]))
    }

    /// The NIR atomic op of an `image_atomic` or `image_atomic_swap`: one that belongs
    /// to the intrinsic, and that has an LSC operation.
    pub fn atomic_op(&self) -> Result<AtomicOp, LowerError> {
        let v = self
            .op
            .index_position(IndexKind::AtomicOp)
            .and_then(|p| self.indices.get(p).copied());
        let op = v.and_then(AtomicOp::from_index).ok_or_else(|| {
            self.malformed(Malformation::BadIndex {
                kind: IndexKind::AtomicOp,
                value: v,
            })
        })?;
        if op.is_swap() != (self.op == IntrinsicOp::ImageAtomicSwap) {
            return Err(self.malformed(Malformation::AtomicIntrinsic { op }));
        }
        if matches!(op, AtomicOp::IncWrap | AtomicOp::DecWrap) {
            return Err(self.error(LowerErrorKind::AtomicOpUnmapped { op }));
        }
        Ok(op)
    }

    /// The type of an atomic's result, which its data operands share: one scalar.
    pub fn atomic_type(&self) -> Result<Type, LowerError> {
        let ty = self.dest.unwrap_or(Type::U32);
        let data = &self.src_types[1..];
        if ty.num_components() != 1 || data.iter().any(|t| *t != ty) {
            return Err(self.malformed(Malformation::AtomicTypes {
                result: ty,
                data: data.to_vec(),
            }));
        }
        Ok(ty)
    }

    /// Whether the image is declared `writeonly`.
    pub fn is_write_only(&self) -> bool {
        self.qualifiers.contains(ir::Access::NON_READABLE)
    }
}
