//! What the messages of several topics name: an image declaration, a texel or block
//! operand.

use crate::entity::ImageId;
use std::fmt;

/// An image declaration named in an error: its id and its name, printed `` `@name` ``.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ImageName {
    /// The declaration (its index in [`Shader::images`](crate::Shader::images)).
    pub id: ImageId,
    /// The declared name, without the `@`.
    pub name: String,
}

impl fmt::Display for ImageName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`@{}`", self.name)
    }
}

/// The operand holding the data an access moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DataOperand {
    /// The `data` source of a store.
    Data,
    /// The value a load defines.
    Destination,
}

impl fmt::Display for DataOperand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DataOperand::Data => "the data",
            DataOperand::Destination => "the destination",
        })
    }
}
