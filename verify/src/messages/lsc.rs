//! The LSC message descriptor: what the indices of an LSC intrinsic (or the fields of
//! a vISA LSC instruction) say, checked against the hardware's rules.

use crate::messages::error::MessageError;
use crate::messages::lanes::Sender;
use ir::interp::EnvError;
use ir::lsc::{AddrSize, AddrType, DataShape, DataSize, LscAtomicOp, LscDesc, Sfid};
use ir::{IndexKind, IntrinsicOp};

/// A decoded LSC message: its indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LscMessage {
    /// The opcode.
    pub op: IntrinsicOp,
    /// The shared function.
    pub sfid: Sfid,
    /// The address model.
    pub addr_type: AddrType,
    /// The address size.
    pub addr_size: AddrSize,
    /// The data shape.
    pub shape: DataShape,
    /// The immediate address offset in bytes.
    pub offset: i32,
    /// The atomic sub-op, for `lsc_atomic`.
    pub atomic: Option<LscAtomicOp>,
}

impl LscMessage {
    /// Decodes the indices of an LSC message `op` and checks the hardware's rules that
    /// the executor depends on (`docs/hardware/lsc-messages.md` §4, §5, §13).
    pub fn decode(op: IntrinsicOp, indices: &[u32]) -> Result<LscMessage, EnvError> {
        let desc = LscDesc::from_indices(indices)
            .map_err(|e| MessageError::bad_index(IndexKind::from(e.field).name()))?;
        LscMessage::from_desc(op, &desc)
    }

    /// The message `op` with descriptor `desc` (from an IR intrinsic's indices or a vISA
    /// instruction's fields), checked against the hardware's rules that the executor
    /// depends on (`docs/hardware/lsc-messages.md` §4, §5, §13).
    pub fn from_desc(op: IntrinsicOp, desc: &LscDesc) -> Result<LscMessage, EnvError> {
        let atomic = if op == IntrinsicOp::LscAtomic {
            Some(
                desc.atomic
                    .ok_or_else(|| MessageError::bad_index(IndexKind::LscOp.name()))?,
            )
        } else {
            None
        };
        let m = LscMessage {
            op,
            sfid: desc.sfid,
            addr_type: desc.addr_type,
            addr_size: desc.addr_size,
            shape: desc.data,
            offset: desc.offset,
            atomic,
        };
        m.check()?;
        Ok(m)
    }

    fn check(&self) -> Result<(), EnvError> {
        let s = self.shape;
        let quad = matches!(
            self.op,
            IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad
        );
        match self.sfid {
            Sfid::Tgm => {
                // docs/hardware/lsc-messages.md §5, §7.1, §11: typed messages are stateful and a32, with no offset.
                if self.addr_type == AddrType::Flat {
                    return Err(MessageError::illegal(
                        ".tgm messages cannot use the flat address model",
                    ));
                }
                if self.addr_size != AddrSize::A32 {
                    return Err(MessageError::illegal(format!(
                        ".tgm messages take a32 coordinates, not {}",
                        self.addr_size.name()
                    )));
                }
                if self.offset != 0 {
                    return Err(MessageError::illegal(
                        "TGM messages cannot have a base offset",
                    ));
                }
                if !matches!(
                    self.op,
                    IntrinsicOp::LscLoadQuad | IntrinsicOp::LscStoreQuad | IntrinsicOp::LscAtomic
                ) {
                    return Err(MessageError::illegal(format!(
                        ".tgm supports load_quad, store_quad and atomics, not {}",
                        self.op
                    )));
                }
            }
            Sfid::Slm => {
                if self.addr_type != AddrType::Flat {
                    return Err(MessageError::illegal(
                        ".slm messages use the flat address model",
                    ));
                }
                if self.addr_size == AddrSize::A64 {
                    return Err(MessageError::illegal(
                        ".slm messages cannot use a64 addresses",
                    ));
                }
            }
            Sfid::Ugm | Sfid::Ugml => {
                if self.addr_size == AddrSize::A16 {
                    return Err(MessageError::illegal("a16 addresses are for .slm only"));
                }
                if self.addr_type != AddrType::Flat && self.addr_size != AddrSize::A32 {
                    return Err(MessageError::illegal(format!(
                        "stateful ({}) untyped messages take a32 addresses",
                        self.addr_type.name()
                    )));
                }
            }
        }
        if quad != (s.cmask != 0) {
            return Err(MessageError::shape(format!(
                "{} needs {} data shape, found {s}",
                self.op,
                if quad { "a channel-mask" } else { "a vector" }
            )));
        }
        if self.op == IntrinsicOp::LscStoreQuad && !matches!(s.cmask, 0x1 | 0x3 | 0x7 | 0xf) {
            // docs/hardware/lsc-messages.md §4: store_quad masks must be contiguous from x.
            return Err(MessageError::illegal(format!(
                "store_quad channel mask {s} is not contiguous from x"
            )));
        }
        if s.vect > 1 && !s.transpose && !matches!(s.size, DataSize::D32 | DataSize::D64) {
            return Err(MessageError::illegal(format!(
                "vector data needs d32 or d64, found {s}"
            )));
        }
        if !s.transpose && s.cmask == 0 {
            // docs/hardware/lsc-messages.md §4: SIMT vector sizes.
            let legal: &[u8] = if self.sfid == Sfid::Ugml {
                &[1, 2, 4]
            } else {
                &[1, 2, 3, 4, 8]
            };
            if !legal.contains(&s.vect) {
                return Err(MessageError::illegal(format!(
                    "{s} on .{}: non-transposed vector sizes are {legal:?}",
                    self.sfid.name()
                )));
            }
        }
        if s.transpose && (quad || self.atomic.is_some()) {
            return Err(MessageError::illegal(
                "transposed data is not allowed with a channel mask or an atomic",
            ));
        }
        if self.atomic.is_some()
            && (s.vect != 1 || !matches!(s.size, DataSize::D16U32 | DataSize::D32 | DataSize::D64))
        {
            return Err(MessageError::illegal(format!(
                "atomics take d16u32, d32 or d64 with one element, found {s}"
            )));
        }
        Ok(())
    }
}

/// One LSC message as the semantics take it: who sends it, its descriptor, the lanes it
/// serves, and the surface each lane addresses.
#[derive(Copy, Clone, Debug)]
pub struct Message<'a> {
    /// The sender (the access log's context of each lane).
    pub sender: Sender<'a>,
    /// The decoded descriptor.
    pub desc: LscMessage,
    /// The lanes that access memory: the active lanes whose predicate is true (the vISA
    /// `Msg.ChEn`). The other lanes touch no memory and their results are left alone.
    pub enabled: u32,
    /// For each lane, the binding-table index of the surface it addresses (typed
    /// messages, stateful untyped models); may be empty for flat and `.slm` messages.
    pub surfaces: &'a [u32],
}

impl Message<'_> {
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
                        "a .{} {} message names a surface, but lane {lane} has none",
                        self.desc.sfid.name(),
                        self.desc.addr_type.name()
                    ),
                },
            )
        })
    }
}
