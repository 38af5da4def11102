//! The two forms of a 2D block message: typed (`.tgm`) and untyped (`.ugm`), and
//! whether a message loads or stores.

use ir::lsc::Sfid;

/// Whether a block message loads or stores.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Block2dOp {
    /// `lsc_load_block2d`.
    Load,
    /// `lsc_store_block2d`.
    Store,
}

impl Block2dOp {
    /// The vISA mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            Block2dOp::Load => "lsc_load_block2d",
            Block2dOp::Store => "lsc_store_block2d",
        }
    }
}

/// Typed (`.tgm`, surface from the surface state) or untyped (`.ugm`, surface in the
/// payload).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Block2dForm {
    /// `.tgm`: width in bytes, X in bytes, Y in rows (docs/hardware/lsc-messages.md §8.1).
    Typed,
    /// `.ugm`: width in elements, X in elements, Y in rows (docs/hardware/lsc-messages.md §8.2).
    Untyped,
}

impl Block2dForm {
    /// The form of a message on `sfid`, if block2d exists there.
    pub fn of_sfid(sfid: Sfid) -> Option<Block2dForm> {
        match sfid {
            Sfid::Tgm => Some(Block2dForm::Typed),
            Sfid::Ugm => Some(Block2dForm::Untyped),
            Sfid::Ugml | Sfid::Slm => None,
        }
    }

    /// The SFID of the form.
    pub fn sfid(self) -> Sfid {
        match self {
            Block2dForm::Typed => Sfid::Tgm,
            Block2dForm::Untyped => Sfid::Ugm,
        }
    }
}
