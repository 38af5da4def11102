//! Opcode numbers the reader matches on, from the `spirv` crate's enumeration (the
//! SPIR-V headers), and the names errors use.

use spirv::Op;

/// The SPIR-V magic number.
pub const MAGIC: u32 = spirv::MAGIC_NUMBER;

macro_rules! opcodes {
    ($($name:ident = $op:ident,)*) => {
        $(
            #[doc = concat!("`Op", stringify!($op), "`.")]
            pub const $name: u16 = Op::$op as u16;
        )*
    };
}

opcodes! {
    NOP = Nop,
    SOURCE_CONTINUED = SourceContinued,
    SOURCE = Source,
    SOURCE_EXTENSION = SourceExtension,
    NAME = Name,
    MEMBER_NAME = MemberName,
    STRING = String,
    LINE = Line,
    NO_LINE = NoLine,
    MODULE_PROCESSED = ModuleProcessed,
    EXTENSION = Extension,
    EXT_INST_IMPORT = ExtInstImport,
    MEMORY_MODEL = MemoryModel,
    ENTRY_POINT = EntryPoint,
    EXECUTION_MODE = ExecutionMode,
    EXECUTION_MODE_ID = ExecutionModeId,
    CAPABILITY = Capability,
    DECORATE = Decorate,
    MEMBER_DECORATE = MemberDecorate,
    DECORATION_GROUP = DecorationGroup,
    GROUP_DECORATE = GroupDecorate,
    GROUP_MEMBER_DECORATE = GroupMemberDecorate,
    DECORATE_ID = DecorateId,
    DECORATE_STRING = DecorateString,
    MEMBER_DECORATE_STRING = MemberDecorateString,
    FUNCTION = Function,
    FUNCTION_PARAMETER = FunctionParameter,
    FUNCTION_END = FunctionEnd,
    LABEL = Label,
    SELECTION_MERGE = SelectionMerge,
    LOOP_MERGE = LoopMerge,
    BRANCH = Branch,
    BRANCH_CONDITIONAL = BranchConditional,
    SWITCH = Switch,
    RETURN = Return,
    RETURN_VALUE = ReturnValue,
    KILL = Kill,
    UNREACHABLE = Unreachable,
    TERMINATE_INVOCATION = TerminateInvocation,
    IGNORE_INTERSECTION = IgnoreIntersectionKHR,
    TERMINATE_RAY = TerminateRayKHR,
    EMIT_MESH_TASKS = EmitMeshTasksEXT,
    PHI = Phi,
    VARIABLE = Variable,
    CONSTANT = Constant,
    EXT_INST = ExtInst,
}

/// Whether `opcode` ends a block (SPIR-V §2.2.4, "Termination Instructions").
pub fn is_terminator(opcode: u16) -> bool {
    matches!(
        opcode,
        BRANCH
            | BRANCH_CONDITIONAL
            | SWITCH
            | RETURN
            | RETURN_VALUE
            | KILL
            | UNREACHABLE
            | TERMINATE_INVOCATION
            | IGNORE_INTERSECTION
            | TERMINATE_RAY
            | EMIT_MESH_TASKS
    )
}

/// The name of an opcode (`OpImageRead`), or `Op<number>` for one the grammar lacks.
pub fn name(opcode: u16) -> String {
    match super::grammar::info(opcode) {
        Some(i) => i.1.to_string(),
        None => format!("Op{opcode}"),
    }
}
