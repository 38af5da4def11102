//! Reading an intrinsic call of the IR: who makes its accesses, which image binding it
//! names in each lane, operands that must be uniform across its lanes, and register
//! images spread over its lanes.
//!
//! Everything IR-specific about a call is here, so that the semantics of images and
//! messages ([`crate::image`], [`crate::messages`]) and of group async copies work on
//! plain values.

use crate::memory::{AccessCtx, AccessKind, ImageBinding, Memory};
use crate::messages::{MessageError, Sender};
use ir::interp::{EnvError, IntrinsicCall};
use ir::Type;
use std::fmt;

/// `e` as the error of lane `lane` of an intrinsic.
pub fn lane_err(lane: usize, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> EnvError {
    EnvError::at_lane(lane as u32, e)
}

/// The sender of a call's accesses, as the access log records it.
pub fn sender<'a>(call: &IntrinsicCall<'a>) -> Sender<'a> {
    Sender {
        inst: call.inst,
        span: call.span,
        op: call.op(),
        invocations: call.invocations,
    }
}

/// The access context of lane `lane` of a call.
pub fn access_ctx(call: &IntrinsicCall<'_>, lane: usize) -> AccessCtx {
    sender(call).ctx(lane)
}

/// A descriptor-array index beyond the array an intrinsic names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayIndexError {
    /// The image name.
    pub image: String,
    /// The index.
    pub index: u64,
    /// The array size.
    pub count: u32,
}

impl fmt::Display for ArrayIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "image `@{}`: descriptor index {} is outside the array of {}",
            self.image, self.index, self.count
        )
    }
}

impl std::error::Error for ArrayIndexError {}

/// The binding-table index of the image a call names, in lane `lane`: the declaration's
/// binding plus the descriptor-array index.
pub fn image_binding_index(call: &IntrinsicCall<'_>, lane: usize) -> Result<u32, EnvError> {
    let decl = call
        .image
        .ok_or_else(|| EnvError::msg(format!("`@{}` names no image", call.op())))?;
    let index = call.image_index(lane);
    if let Some(count) = decl.count {
        if index >= count as u64 {
            return Err(lane_err(
                lane,
                ArrayIndexError {
                    image: decl.name.clone(),
                    index,
                    count,
                },
            ));
        }
    }
    Ok(decl.binding + index as u32)
}

/// The binding-table indices of the image a call names, one per lane (0 in the lanes
/// that do not access memory, the lanes outside `mask`).
pub fn image_binding_indices(call: &IntrinsicCall<'_>, mask: u32) -> Result<Vec<u32>, EnvError> {
    (0..call.num_lanes())
        .map(|lane| {
            if mask & (1 << lane) != 0 {
                image_binding_index(call, lane)
            } else {
                Ok(0)
            }
        })
        .collect()
}

/// The image a call names, in lane `lane`, with its binding-table index.
pub fn bound_image<'m>(
    mem: &'m Memory,
    call: &IntrinsicCall<'_>,
    lane: usize,
) -> Result<(u32, &'m ImageBinding), EnvError> {
    let binding = image_binding_index(call, lane)?;
    match mem.image(binding) {
        Some(b) => Ok((binding, b)),
        None => Err(lane_err(
            lane,
            Memory::unbound(
                AccessKind::Load,
                "image binding",
                binding as u64,
                &access_ctx(call, lane),
            ),
        )),
    }
}

/// Checks that every lane of the subgroup runs a subgroup-level call.
pub fn check_whole_subgroup(call: &IntrinsicCall<'_>) -> Result<(), EnvError> {
    let n = call.num_lanes();
    let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    if call.exec_mask & all != all {
        let missing: Vec<String> = (0..n)
            .filter(|l| call.exec_mask & (1 << l) == 0)
            .map(|l| l.to_string())
            .collect();
        return Err(EnvError::new(MessageError::Subgroup {
            reason: format!(
                "`@{}` runs once for the whole subgroup and needs all {n} lanes active, but lanes {} are inactive",
                call.op(),
                missing.join(", ")
            ),
        }));
    }
    Ok(())
}

/// Lane 0's value of scalar source `src`, checked to be the same in every lane.
pub fn uniform_scalar(
    call: &IntrinsicCall<'_>,
    src: usize,
    operand: &'static str,
) -> Result<u64, EnvError> {
    uniform_in_lanes(call, operand, |lane| call.src_scalar(src, lane))
}

/// Lane 0's value of source `src` (all components), checked to be the same in every
/// lane.
pub fn uniform_vector(
    call: &IntrinsicCall<'_>,
    src: usize,
    operand: &'static str,
) -> Result<Vec<u64>, EnvError> {
    uniform_in_lanes(call, operand, |lane| call.src(src, lane)).map(<[u64]>::to_vec)
}

/// The binding-table index of the image a subgroup-level call names, the same in every
/// lane.
pub fn uniform_binding(call: &IntrinsicCall<'_>) -> Result<u32, EnvError> {
    let first = image_binding_index(call, 0)?;
    for lane in 1..call.num_lanes() {
        if image_binding_index(call, lane)? != first {
            return Err(lane_err(
                lane,
                MessageError::NotUniform {
                    operand: "image",
                    lane: lane as u32,
                },
            ));
        }
    }
    Ok(first)
}

/// Lane 0's `value`, or [`MessageError::NotUniform`] at the first lane that differs.
fn uniform_in_lanes<T: PartialEq>(
    call: &IntrinsicCall<'_>,
    operand: &'static str,
    value: impl Fn(usize) -> T,
) -> Result<T, EnvError> {
    let v = value(0);
    match (1..call.num_lanes()).find(|&lane| value(lane) != v) {
        Some(lane) => Err(lane_err(
            lane,
            MessageError::NotUniform {
                operand,
                lane: lane as u32,
            },
        )),
        None => Ok(v),
    }
}

/// Checks that a value of type `t` spreads `bytes` over the call's lanes.
pub fn check_spread(
    call: &IntrinsicCall<'_>,
    what: &str,
    t: Type,
    bytes: usize,
) -> Result<(), EnvError> {
    let sg = call.num_lanes();
    let have = t.num_components() as usize * (t.bit_size() as usize / 8) * sg;
    if t.bit_size() < 8 || have != bytes {
        return Err(EnvError::new(MessageError::Subgroup {
            reason: format!(
                "{what} is {t}, which spreads {have} bytes over {sg} lanes, but the block's register image is {bytes} bytes"
            ),
        }));
    }
    Ok(())
}

/// Writes register image `r` to the destination: component `k` of lane `i` gets bytes
/// `r[(k·SG + i)·b/8 ..][.. b/8]` (little-endian), `SG` being the number of lanes and
/// `b` the destination's bit size.
pub fn scatter_to_lanes(call: &mut IntrinsicCall<'_>, r: &[u8]) -> Result<(), EnvError> {
    let t = call
        .dest_type
        .ok_or_else(|| EnvError::msg(format!("`@{}` has no destination", call.op())))?;
    check_spread(call, "the destination", t, r.len())?;
    let sg = call.num_lanes();
    let bb = t.bit_size() as usize / 8;
    for lane in 0..sg {
        let vals: Vec<u64> = (0..t.num_components() as usize)
            .map(|k| {
                let at = (k * sg + lane) * bb;
                let mut w = [0u8; 8];
                w[..bb].copy_from_slice(&r[at..at + bb]);
                u64::from_le_bytes(w)
            })
            .collect();
        call.set_dest(lane, &vals);
    }
    Ok(())
}

/// Reads a register image of `bytes` bytes from source `src` of every lane (the inverse
/// of [`scatter_to_lanes`]).
pub fn gather_from_lanes(
    call: &IntrinsicCall<'_>,
    src: usize,
    bytes: usize,
) -> Result<Vec<u8>, EnvError> {
    let t = call.src_type(src);
    check_spread(call, "the data", t, bytes)?;
    let sg = call.num_lanes();
    let bb = t.bit_size() as usize / 8;
    let mut r = vec![0u8; bytes];
    for lane in 0..sg {
        for (k, v) in call.src(src, lane).iter().enumerate() {
            let at = (k * sg + lane) * bb;
            r[at..at + bb].copy_from_slice(&v.to_le_bytes()[..bb]);
        }
    }
    Ok(r)
}
