//! Errors of the legacy data-port message intrinsics (`@dp_*`): their image operand
//! and the shapes of their destination, data and atomic operands against their fields.

use super::wording::Intr;
use crate::dataport::{DpAddr, DpDesc};
use crate::intrinsic::IntrinsicOp;
use crate::types::Type;
use std::fmt;

/// Which register operand of a data-port message a shape error is about.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum DpOperand {
    /// The destination of a read or atomic.
    Dest,
    /// The written `data` of a write.
    Data,
    /// An atomic operand, `src0` or `src1`.
    AtomicSrc(&'static str),
}

/// A problem with a legacy data-port message intrinsic.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DataPortError {
    /// A typed message without an image operand (the typed surface).
    MissingTypedSurface {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// A `dp_addr=bti` message without an image operand (the surface).
    MissingSurface {
        /// The intrinsic.
        op: IntrinsicOp,
    },
    /// An `slm` or `a64` message that names an image.
    ImageWithAddr {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its address model.
        addr: DpAddr,
    },
    /// Fields whose data has no register shape (more than 4 components or an
    /// element size no IR value has).
    NoRegisterShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its fields.
        desc: DpDesc,
    },
    /// A destination, data or atomic operand whose type is not the fields' shape.
    OperandShape {
        /// The intrinsic.
        op: IntrinsicOp,
        /// Its fields.
        desc: DpDesc,
        /// Which operand.
        operand: DpOperand,
        /// The type the fields give.
        expected: Type,
        /// The operand's type.
        found: Type,
    },
}

/// The fields as the text writes them: `dp_addr=a64, dp_cmask=xy`.
struct Fields<'a>(&'a DpDesc);

impl fmt::Display for Fields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        // `@dp_untyped_read (dp_addr=a64, dp_cmask=xy)` without the name and parentheses.
        let inner = text
            .split_once(" (")
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .unwrap_or(&text);
        f.write_str(inner)
    }
}

impl fmt::Display for DataPortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataPortError::MissingTypedSurface { op } => write!(
                f,
                "{} needs an image operand (`@image`): the typed surface",
                Intr(*op)
            ),
            DataPortError::MissingSurface { op } => write!(
                f,
                "{} with dp_addr=bti needs an image operand (`@image`): the surface",
                Intr(*op)
            ),
            DataPortError::ImageWithAddr { op, addr } => {
                write!(f, "{} with dp_addr={addr} cannot name an image", Intr(*op))
            }
            DataPortError::NoRegisterShape { op, desc } => {
                write!(f, "{}: {desc} has no register data shape", Intr(*op))
            }
            DataPortError::OperandShape {
                op,
                desc,
                operand,
                expected,
                found,
            } => {
                let what = match operand {
                    DpOperand::Dest => "the destination".to_string(),
                    DpOperand::Data => "the data".to_string(),
                    DpOperand::AtomicSrc(s) => format!("atomic operand `{s}`"),
                };
                write!(
                    f,
                    "{}: {what} is {found}, expected {expected} for {}",
                    Intr(*op),
                    Fields(desc)
                )
            }
        }
    }
}
