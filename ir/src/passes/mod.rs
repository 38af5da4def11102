//! Generic cleanup passes and the pass manager.
//!
//! Each pass lives in its own file and implements [`Pass`]. The [`PassManager`] runs a
//! named pipeline (`-p const-fold,cse,dce` in `ir-opt`), can validate after each pass
//! and print the shader after each one, and records per-pass timings.

pub mod algebraic;
mod buffer_access;
pub mod cleanup;
pub mod compute_system_values;
pub mod const_fold;
pub mod copy_prop;
pub mod copy_prop_shared;
pub mod cse;
pub mod dce;
pub mod dead_cf;
pub mod dead_write;
pub mod idiv_const;
pub mod load_store_vectorize;
pub mod loop_unroll;
pub mod manager;
pub mod mem_access_bit_sizes;
pub mod non_uniform;
pub mod opt_access;
pub mod opt_if;
pub mod opt_undef;
pub mod pass;
pub mod peephole_ffma;
pub mod peephole_select;
pub mod remove_phis;
pub mod shrink_vectors;
pub mod trivial_continues;

pub use algebraic::Algebraic;
pub use cleanup::Cleanup;
pub use compute_system_values::LowerComputeSystemValues;
pub use const_fold::ConstFold;
pub use copy_prop::CopyProp;
pub use copy_prop_shared::CopyPropShared;
pub use cse::Cse;
pub use dce::Dce;
pub use dead_cf::DeadCf;
pub use dead_write::DeadWrite;
pub use idiv_const::IdivConst;
pub use load_store_vectorize::LoadStoreVectorize;
pub use loop_unroll::LoopUnroll;
pub use manager::{PassManager, PassOptions, PassRegistry};
pub use mem_access_bit_sizes::LowerMemAccessBitSizes;
pub use non_uniform::LowerNonUniformAccess;
pub use opt_access::OptAccess;
pub use opt_if::OptIf;
pub use opt_undef::OptUndef;
pub use pass::{Pass, PassError};
pub use peephole_select::PeepholeSelect;
pub use remove_phis::RemovePhis;
pub use shrink_vectors::ShrinkVectors;
pub use trivial_continues::TrivialContinues;
