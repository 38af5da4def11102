//! The interpreter's errors: what went wrong and on which line of the vISA text.

use super::types::VType;
use std::fmt;
use std::sync::Arc;

/// An error of the vISA interpreter: reading the text, laying out its variables, or
/// running it. `line` is the 1-based line of the vISA text the error belongs to (0 when
/// it belongs to no line, e.g. a missing `.kernel`).
#[derive(Clone, Debug)]
pub struct VisaError {
    /// Line of the vISA text (1-based; 0 for none).
    pub line: u32,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl VisaError {
    /// An error of `kind` at `line`.
    pub fn new(line: u32, kind: ErrorKind) -> VisaError {
        VisaError { line, kind }
    }
}

/// What went wrong.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text does not follow the grammar.
    Syntax {
        /// Column (1-based) where the reader stopped.
        column: u32,
        /// What the grammar allows there.
        expected: String,
        /// What is there.
        found: String,
    },
    /// A directive every kernel needs is missing (`.version`, `.kernel`).
    MissingDirective {
        /// The directive.
        directive: &'static str,
    },
    /// A name that is not declared.
    UnknownVariable {
        /// The name.
        name: String,
    },
    /// A variable of the wrong kind (a predicate where a general variable is needed...).
    WrongVariableKind {
        /// The name.
        name: String,
        /// The kind needed.
        expected: &'static str,
    },
    /// A name declared twice.
    Redeclared {
        /// The name.
        name: String,
        /// The line of the first declaration.
        first_line: u32,
    },
    /// A label defined twice.
    DuplicateLabel {
        /// The label.
        name: String,
        /// The line of the first definition.
        first_line: u32,
    },
    /// A branch to a label that is not defined.
    UnknownLabel {
        /// The label.
        name: String,
    },
    /// A declaration the vISA rules reject (element count, alias offset, input size).
    BadDeclaration {
        /// The variable.
        name: String,
        /// Why.
        reason: String,
    },
    /// Something valid vISA that the interpreter does not run (an instruction, operand
    /// class or mode outside the subset the vISA back end emits).
    Unsupported {
        /// What.
        what: String,
    },
    /// An operand's region reaches outside its variable (the vISA spec leaves this
    /// undefined).
    OutOfBounds {
        /// The variable.
        var: String,
        /// First byte accessed past the end.
        byte: u32,
        /// The variable's size in bytes.
        size: u32,
    },
    /// An operand type the instruction does not take.
    BadType {
        /// The instruction.
        op: &'static str,
        /// Which operand.
        operand: &'static str,
        /// Its type.
        ty: VType,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// An instruction's operands, execution size or mask break a rule of the vISA spec.
    BadInstruction {
        /// Why.
        reason: String,
    },
    /// The variables need more register-file bytes than the limit.
    RegisterFileTooLarge {
        /// Bytes needed.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// The thread executed more instructions than its budget.
    BudgetExhausted {
        /// The budget.
        limit: u64,
    },
    /// An integer `div` or `mod` by zero in an enabled channel (the vISA spec leaves the
    /// result undefined).
    DivideByZero {
        /// The channel.
        channel: u32,
    },
    /// A float mode in `%cr0` that the interpreter does not model for this instruction.
    FloatMode {
        /// The value of `%cr0`.
        cr0: u32,
        /// Why it cannot run.
        reason: &'static str,
    },
    /// SIMD control flow that cannot continue: channels waiting at a point that
    /// execution has passed, a `jmp` over waiting channels, or running past the last
    /// instruction.
    ControlFlow {
        /// Why.
        reason: String,
    },
    /// A message instruction failed in the memory it accesses.
    Message {
        /// The message semantics' error.
        source: Arc<dyn std::error::Error + Send + Sync>,
    },
}

impl fmt::Display for VisaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line != 0 {
            write!(f, "vISA line {}: ", self.line)?;
        }
        match &self.kind {
            ErrorKind::Syntax {
                column,
                expected,
                found,
            } => write!(f, "column {column}: expected {expected}, found {found}"),
            ErrorKind::MissingDirective { directive } => {
                write!(f, "the listing has no `{directive}` directive")
            }
            ErrorKind::UnknownVariable { name } => write!(f, "`{name}` is not declared"),
            ErrorKind::WrongVariableKind { name, expected } => {
                write!(f, "`{name}` is not {expected}")
            }
            ErrorKind::Redeclared { name, first_line } => {
                write!(f, "`{name}` is already declared on line {first_line}")
            }
            ErrorKind::DuplicateLabel { name, first_line } => {
                write!(f, "label `{name}` is already defined on line {first_line}")
            }
            ErrorKind::UnknownLabel { name } => write!(f, "label `{name}` is not defined"),
            ErrorKind::BadDeclaration { name, reason } => write!(f, "`{name}`: {reason}"),
            ErrorKind::Unsupported { what } => {
                write!(f, "{what} is not supported by the vISA interpreter")
            }
            ErrorKind::OutOfBounds { var, byte, size } => write!(
                f,
                "the operand reaches byte {byte} of `{var}`, which has {size} bytes"
            ),
            ErrorKind::BadType {
                op,
                operand,
                ty,
                rule,
            } => write!(f, "`{op}`: {operand} has type {ty}, but {rule}"),
            ErrorKind::BadInstruction { reason } => f.write_str(reason),
            ErrorKind::RegisterFileTooLarge { bytes, limit } => write!(
                f,
                "the variables need {bytes} bytes of registers, more than the limit of {limit}"
            ),
            ErrorKind::BudgetExhausted { limit } => {
                write!(
                    f,
                    "the thread ran more than its budget of {limit} instructions"
                )
            }
            ErrorKind::DivideByZero { channel } => write!(
                f,
                "integer division by zero in channel {channel} (the result is undefined)"
            ),
            ErrorKind::FloatMode { cr0, reason } => write!(f, "%cr0 = {cr0:#x}: {reason}"),
            ErrorKind::ControlFlow { reason } => f.write_str(reason),
            ErrorKind::Message { source } => write!(f, "message failed: {source}"),
        }
    }
}

impl std::error::Error for VisaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Message { source } => Some(source.as_ref()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_line() {
        let e = VisaError::new(12, ErrorKind::UnknownVariable { name: "V40".into() });
        assert_eq!(e.to_string(), "vISA line 12: `V40` is not declared");
        let e = VisaError::new(
            0,
            ErrorKind::MissingDirective {
                directive: ".kernel",
            },
        );
        assert_eq!(e.to_string(), "the listing has no `.kernel` directive");
    }
}
