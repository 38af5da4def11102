//! One legacy data-port message as the semantics take it ([`DpMessage`]), and the
//! undefined bytes of narrow results.

use crate::messages::error::MessageError;
use crate::messages::lanes::Sender;
use ir::dataport::DpDesc;
use ir::interp::EnvError;
use lowering::messages::dataport::{check_dataport, DataportCaps};

/// One data-port message: who sends it, its fields, the generation's data port, the
/// lanes it serves and the surface each lane addresses.
#[derive(Copy, Clone, Debug)]
pub struct DpMessage<'a> {
    /// The sender (the access log's context of each lane).
    pub sender: Sender<'a>,
    /// The fields.
    pub desc: DpDesc,
    /// The data port of the generation the message runs on.
    pub caps: DataportCaps,
    /// The lanes that access memory: the active lanes whose predicate is true. The
    /// other lanes touch no memory and their results are left alone.
    pub enabled: u32,
    /// For each lane, the binding-table index of its surface (typed messages and
    /// `dp_addr=bti`); may be empty for `slm` and `a64` messages.
    pub surfaces: &'a [u32],
}

impl<'a> DpMessage<'a> {
    /// The message `desc` on a generation with `caps`, which must have it (its
    /// legality table): anything else is an error, never a guess at what hardware
    /// without the message would do.
    pub fn new(
        sender: Sender<'a>,
        desc: DpDesc,
        caps: DataportCaps,
        enabled: u32,
        surfaces: &'a [u32],
    ) -> Result<DpMessage<'a>, EnvError> {
        check_dataport(&caps, &caps.gen.to_string(), &desc)
            .map_err(|rule| MessageError::illegal(rule.to_string()))?;
        Ok(DpMessage {
            sender,
            desc,
            caps,
            enabled,
            surfaces,
        })
    }

    /// The served lanes, in ascending order.
    pub fn lanes(&self) -> impl Iterator<Item = usize> {
        self.sender.lanes_of(self.enabled)
    }

    /// The binding-table index of lane `lane`'s surface.
    pub fn surface(&self, lane: usize) -> Result<u32, EnvError> {
        self.surfaces.get(lane).copied().ok_or_else(|| {
            EnvError::at_lane(
                lane as u32,
                MessageError::Shape {
                    reason: format!(
                        "@{} addresses a surface, but lane {lane} has none",
                        self.desc.msg
                    ),
                },
            )
        })
    }
}

/// The byte that fills the undefined bytes of a register element (the upper bytes of
/// a 1- or 2-byte scattered read, the upper half of a 16-bit atomic's result): any
/// value is the hardware's, and a non-zero one catches a lowering that relies on them.
pub const UNDEFINED_BYTE: u8 = 0xA5;

/// `value`'s low `bytes` bytes with the rest of a 32-bit element undefined
/// ([`UNDEFINED_BYTE`]); 4 bytes and more are returned as they are.
pub fn with_undefined_upper(value: u64, bytes: u32) -> u64 {
    if bytes >= 4 {
        return value;
    }
    let low = value & ((1u64 << (8 * bytes)) - 1);
    let mut fill = 0u64;
    for b in bytes..4 {
        fill |= u64::from(UNDEFINED_BYTE) << (8 * b);
    }
    low | fill
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_upper_bytes() {
        assert_eq!(with_undefined_upper(0x1234_5678, 1), 0xA5A5_A578);
        assert_eq!(with_undefined_upper(0x1234_5678, 2), 0xA5A5_5678);
        assert_eq!(with_undefined_upper(0x1234_5678, 4), 0x1234_5678);
        assert_eq!(with_undefined_upper(u64::MAX, 8), u64::MAX);
    }
}
