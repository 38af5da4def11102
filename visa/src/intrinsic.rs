//! The dispatcher of intrinsics: system values, memory access, messages, barriers; the
//! high-level image intrinsics and group async copies are the lowering's and are errors
//! here.

use crate::ctx::{Ctx, Opnd};
use crate::error::{EmitError, EmitErrorKind};
use crate::target::Family;
use crate::{block2d, dataport, lsc, memory, sampler, sysval};
use ir::{Inst, IntrinsicClass, IntrinsicInst, IntrinsicOp, Value};

/// Emits one intrinsic.
pub fn emit(
    cx: &mut Ctx,
    inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    use IntrinsicOp::*;
    let need_dest = |cx: &Ctx| {
        dest.ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("`@{}` must define a value", i.op),
            })
        })
    };
    match i.op {
        op if sysval::handles(op) => sysval::emit(cx, op, need_dest(cx)?),
        Barrier | MemoryBarrier => {
            // A workgroup control barrier, or a memory barrier alone (its fences without
            // the thread barrier): accesses of its `mem_modes` memory before it are
            // visible to the workgroup after it. Without LSC the fences are those
            // IGC writes for OpenCL's barrier(CLK_LOCAL_MEM_FENCE |
            // CLK_GLOBAL_MEM_FENCE): an SLM fence of its own from ICL (before, SLM
            // needs only a scheduling fence, `fence_sw`, beside the data cache's
            // fence, which also serves SLM) and a committed global fence that from ICL
            // also flushes the L1 read-only cache. As brw_fs_nir.cpp picks them, the
            // global fences are there for buffers, global memory and images, the SLM
            // fence for shared memory.
            //
            // A workgroup that fits in one thread runs in lock step and its shared
            // memory messages complete in order, so it needs neither the thread
            // barrier nor the SLM fence, only the global ones (brw_fs_nir.cpp: a
            // control barrier becomes a scheduling fence and the SLM fence is dropped
            // when the workgroup size is at most the dispatch width).
            let one_thread = cx.shader.workgroup_invocations() <= u64::from(cx.t.simd);
            let modes = i
                .index(ir::IndexKind::MemModes)
                .and_then(ir::MemModes::from_bits)
                .unwrap_or(ir::MemModes::ALL);
            let global =
                modes.intersects(ir::MemModes::SSBO | ir::MemModes::GLOBAL | ir::MemModes::IMAGE);
            let slm = modes.contains(ir::MemModes::SHARED) && !one_thread;
            match cx.t.family {
                Family::Bdw | Family::Skl => {
                    if global || slm {
                        cx.line("fence_sw");
                        cx.line("fence_global.E");
                    }
                }
                Family::Icl | Family::Tgl => {
                    if slm {
                        cx.line("fence_local.E");
                    }
                    if global {
                        cx.line("fence_global.EL1");
                    }
                }
                _ => {
                    // Images read and written untyped (the lowering's fallback) go
                    // through .ugm too.
                    if global {
                        cx.line("lsc_fence.ugm.none.group");
                    }
                    if modes.contains(ir::MemModes::IMAGE) {
                        cx.line("lsc_fence.tgm.none.group");
                    }
                    if slm {
                        cx.line("lsc_fence.slm.none.group");
                    }
                }
            }
            if i.op == Barrier && !one_thread {
                cx.line("barrier");
            }
            Ok(())
        }
        LoadGlobal | StoreGlobal | LoadSsbo | StoreSsbo | GetSsboSize | LoadUbo | LoadShared
        | StoreShared | SsboAtomic | SsboAtomicSwap | GlobalAtomic | GlobalAtomicSwap
        | SharedAtomic | SharedAtomicSwap | LoadPushConstant | LoadConstant | ImageLoadParam => {
            memory::emit(cx, inst, i, dest)
        }
        LoadScratch | StoreScratch => crate::scratch::emit(cx, i, dest),
        Shuffle | ShuffleXor | ShuffleUp | ShuffleDown | QuadBroadcast | QuadSwapHorizontal
        | QuadSwapVertical | QuadSwapDiagonal => {
            let dest = need_dest(cx)?;
            crate::shuffle::emit(cx, i, dest)
        }
        Reduce | InclusiveScan | ExclusiveScan => {
            let dest = need_dest(cx)?;
            crate::subgroup::emit(cx, i, dest)
        }
        ReadFirstInvocation => {
            // The first active lane's value, in a scalar; copied to every active lane
            // unless the value itself lives in a scalar (`uniform`).
            let dest = need_dest(cx)?;
            let src = *i.srcs.first().ok_or_else(|| {
                cx.err(EmitErrorKind::Malformed {
                    what: "`@read_first_invocation` without a source".into(),
                })
            })?;
            let ty = crate::ctx::storage_type(cx.func.value_type(dest).bit_size());
            for c in 0..cx.func.value_type(dest).num_components() {
                let o = cx.comp(src, c)?;
                let s = cx.uniform(o, ty);
                let d = cx.dest(dest, c)?;
                cx.op("mov", d, ty, &[Opnd::Reg(s)]);
            }
            Ok(())
        }
        op if op.is_lsc() => lsc::emit(cx, inst, i, dest),
        op if op.is_dataport() => dataport::emit(cx, inst, i, dest),
        LscLoadBlock2d | LscStoreBlock2d => block2d::emit(cx, inst, i, dest),
        SamplerLd | SamplerLdLz | SamplerLdMcs | SamplerLd2dmsW | SamplerResinfo
        | SamplerSampleL | SamplerGather4 => sampler::emit(cx, inst, i, dest),
        op if op.info().class == IntrinsicClass::Image => Err(cx.err(EmitErrorKind::NotLowered {
            intrinsic: op.name(),
        })),
        GroupAsyncCopy2d2d | GroupAsyncCopy3d3d | GroupWaitEvents => {
            Err(cx.err(EmitErrorKind::NotLowered {
                intrinsic: i.op.name(),
            }))
        }
        other => Err(cx.unsupported(format!("`@{other}` has no vISA form in this back end"))),
    }
}
