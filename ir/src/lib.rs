//! A NIR-style SSA IR for storage-image intrinsics and the Intel LSC messages they lower
//! to.
//!
//! A [`Shader`] holds image declarations and [`Function`]s. A function is NIR-shaped
//! structured control flow (blocks, `if`, `loop`) over SSA values with a bit size and a
//! component count. Instructions are ALU ops with NIR's names and semantics
//! ([`AluOp`], [`eval`]), constants, undefs, phis and intrinsics ([`IntrinsicOp`]):
//! high-level image intrinsics and the message intrinsics the lowering produces: LSC
//! messages ([`lsc`]) from Gfx12.5, the legacy data-port messages ([`dataport`]) before.
//!
//! The crate also holds the text format (see `SYNTAX.md`), the validator, the generic
//! cleanup passes and the interpreter core.

// First: its macro declares enums of the modules below.
#[macro_use]
mod spelling;

pub mod alu;
pub mod atomic;
pub mod bounds;
pub mod buffer;
pub mod builder;
pub mod dataport;
pub mod diag;
pub mod divergence;
pub mod dominance;
pub mod entity;
pub mod eval;
pub mod function;
pub mod image;
pub mod interp;
pub mod intrinsic;
pub mod loop_analysis;
pub mod lsc;
pub mod parse;
pub mod passes;
pub mod precision;
pub mod print;
pub mod range_analysis;
pub mod sampler;
pub mod shader;
pub mod span;
pub mod stats;
pub mod subgroup;
pub mod types;
pub mod validate;

pub use alu::{AluOp, AluOpInfo};
pub use atomic::AtomicOp;
pub use buffer::{BufferDecl, BufferKind};
pub use builder::{Builder, TexLookup};
pub use entity::{Block, BlockName, IfId, ImageId, Inst, LoopId, Value, ValueName};
pub use function::{
    AluInst, BlockData, CfNode, CfParent, Cursor, Function, IfData, InstData, InstKind,
    IntrinsicInst, Jump, LoopData, Phi, ValueData,
};
pub use image::{
    Access, Channel, ChannelKind, Format, ImageDecl, ImageDim, ImageRef, LayoutTiling,
    StaticLayout, MAX_BINDING_TABLE_ENTRIES,
};
pub use intrinsic::{
    DestInfo, ImageOperand, IndexKind, IntrinsicClass, IntrinsicInfo, IntrinsicOp, MemModes,
    SrcInfo,
};
pub use parse::parse_shader;
pub use print::{print_function, print_shader};
pub use sampler::{SamplerDecl, TexelOffset};
pub use shader::{Shader, Stage};
pub use span::Span;
pub use types::{AluType, BaseType, Src, Swizzle, Type};
pub use validate::validate;
