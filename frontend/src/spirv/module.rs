//! The SPIR-V binary as a table of instructions: the header, every instruction with its
//! word offset and debug line, where each id is defined, the module's sections (entry
//! points, execution modes, names, strings), and the functions cut into blocks.
//!
//! Reading checks the framing only (magic, version, word counts, ids below the bound,
//! instructions where their section allows them); what the instructions mean is the
//! other modules' business. Every check is an error, never a panic: the input may be
//! hostile or truncated, and reading is linear in its size.

use super::grammar;
use super::op;
use crate::error::{ErrorKind, ImportError, Location};
use rustc_hash::FxHashMap as HashMap;

/// A SPIR-V result id.
pub type Id = u32;

/// "No instruction" in the id-to-definition table.
const NONE: u32 = u32::MAX;

/// The largest id bound accepted: spirv-val's default limit (`0x3FFFFF`), which keeps
/// the per-id tables of a tiny hostile module small.
pub const MAX_ID_BOUND: u32 = 0x40_0000;

/// One instruction: where it is and what it holds.
#[derive(Copy, Clone, Debug)]
pub struct Inst {
    /// Its offset in words from the start of the module.
    pub word: u32,
    /// The opcode.
    pub opcode: u16,
    /// The index of its first operand word in [`Module::words`].
    pub start: u32,
    /// The number of operand words (the word count less one).
    pub len: u16,
    /// The debug line in force (an index into [`Module::lines`]), or `u32::MAX`.
    pub line: u32,
}

/// `NonSemantic.Shader.DebugInfo.100`'s line instructions (what `glslang -gVS`
/// writes instead of `OpLine` inside functions): `DebugLine` (103) names a
/// `DebugSource` (35), whose file is an `OpString`, and its line and column as ids of
/// 32-bit constants; `DebugNoLine` (104) ends it, as `OpNoLine` does.
#[derive(Default)]
struct DebugLines {
    /// The instruction set's id, once imported.
    set: Option<Id>,
    /// The 32-bit constants seen so far.
    uints: HashMap<Id, u32>,
    /// Each `DebugSource`'s file string.
    sources: HashMap<Id, Id>,
}

/// What a debug instruction says of the lines that follow.
enum DebugLine {
    /// They are at a position.
    At(Line),
    /// They have none.
    None,
}

impl DebugLines {
    const SOURCE: u32 = 35;
    const LINE: u32 = 103;
    const NO_LINE: u32 = 104;

    /// Reads instruction `opcode` with operands `ops` for what it tells.
    fn scan(&mut self, opcode: u16, ops: &[u32]) -> Option<DebugLine> {
        match opcode {
            op::EXT_INST_IMPORT => {
                let (name, _) = literal_string(ops.get(1..)?)?;
                if name == "NonSemantic.Shader.DebugInfo.100" {
                    self.set = ops.first().copied();
                }
                None
            }
            // Only a module that imports the set has lines to read constants for (the
            // import comes before every constant): the others keep no map.
            op::CONSTANT if self.set.is_some() => {
                if let [_, id, value] = ops {
                    self.uints.insert(*id, *value);
                }
                None
            }
            op::EXT_INST => {
                let [_, result, set, number, args @ ..] = ops else {
                    return None;
                };
                if Some(*set) != self.set {
                    return None;
                }
                match *number {
                    Self::SOURCE => {
                        self.sources.insert(*result, *args.first()?);
                        None
                    }
                    Self::LINE => {
                        let [source, line, _, column, ..] = args else {
                            return None;
                        };
                        Some(DebugLine::At(Line {
                            file: *self.sources.get(source)?,
                            line: *self.uints.get(line)?,
                            column: *self.uints.get(column)?,
                        }))
                    }
                    Self::NO_LINE => Some(DebugLine::None),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A debug position from `OpLine` (or a `DebugLine`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The `OpString` naming the file.
    pub file: Id,
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
}

/// An `OpEntryPoint`.
#[derive(Clone, Debug)]
pub struct EntryPoint {
    /// The instruction's index.
    pub inst: usize,
    /// The execution model (5 is `GLCompute`).
    pub model: u32,
    /// The function.
    pub function: Id,
    /// The name.
    pub name: String,
    /// The interface variables.
    pub interface: Vec<Id>,
}

/// An `OpExecutionMode` or `OpExecutionModeId`.
#[derive(Clone, Debug)]
pub struct ExecMode {
    /// The instruction's index.
    pub inst: usize,
    /// The entry point's function.
    pub function: Id,
    /// The mode.
    pub mode: u32,
    /// Its operands (literals, or ids for `OpExecutionModeId`).
    pub args: Vec<u32>,
}

/// How a block's construct is declared: the merge instruction before its terminator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Merge {
    /// `OpSelectionMerge`.
    Selection {
        /// The merge block.
        merge: Id,
    },
    /// `OpLoopMerge`.
    Loop {
        /// The merge block.
        merge: Id,
        /// The continue target.
        cont: Id,
    },
}

/// A basic block of a function.
#[derive(Clone, Debug)]
pub struct BlockDef {
    /// Its label.
    pub label: Id,
    /// The index of its `OpLabel`.
    pub first: usize,
    /// The index of its terminator.
    pub terminator: usize,
    /// The merge instruction before the terminator, if any.
    pub merge: Option<Merge>,
}

/// A function.
#[derive(Clone, Debug)]
pub struct FunctionDef {
    /// Its id.
    pub id: Id,
    /// The index of its `OpFunction`.
    pub inst: usize,
    /// Its result type.
    pub result_type: Id,
    /// Its parameters' ids.
    pub params: Vec<Id>,
    /// Its blocks, in the module's order (the first is the entry).
    pub blocks: Vec<BlockDef>,
}

/// A read module.
pub struct Module {
    /// Every word, in the host's byte order.
    pub words: Vec<u32>,
    /// The SPIR-V version (major, minor).
    pub version: (u8, u8),
    /// The id bound.
    pub bound: u32,
    /// Every instruction after the header, in order.
    pub insts: Vec<Inst>,
    /// The debug lines the instructions point to.
    pub lines: Vec<Line>,
    /// For each id, the index of the instruction that defines it.
    defs: Vec<u32>,
    /// The capabilities declared, with their instructions.
    pub capabilities: Vec<(u32, usize)>,
    /// The extended instruction sets imported: id and name.
    pub ext_imports: HashMap<Id, String>,
    /// The addressing and memory models, if declared.
    pub memory_model: Option<(u32, u32, usize)>,
    /// The entry points.
    pub entry_points: Vec<EntryPoint>,
    /// The execution modes.
    pub exec_modes: Vec<ExecMode>,
    /// `OpName`s.
    pub names: HashMap<Id, String>,
    /// `OpString`s.
    pub strings: HashMap<Id, String>,
    /// Indices of the annotation instructions (decorations), in order.
    pub annotations: Vec<usize>,
    /// Indices of the types, constants, global variables and global `OpUndef`s, in order.
    pub globals: Vec<usize>,
    /// The functions, in order.
    pub functions: Vec<FunctionDef>,
    /// For each block label: its function's and its own index.
    pub blocks: HashMap<Id, (u32, u32)>,
}

/// Reads the words of a SPIR-V binary, in either byte order.
fn to_words(bytes: &[u8]) -> Result<Vec<u32>, ImportError> {
    let err = |m: String| ImportError::new(ErrorKind::Parse, Location::Unknown, m);
    if !bytes.len().is_multiple_of(4) {
        return Err(err(format!(
            "a SPIR-V module is a sequence of 32-bit words, and this one has {} bytes (not a \
             multiple of 4)",
            bytes.len()
        )));
    }
    if bytes.len() < 20 {
        return Err(err(format!(
            "a SPIR-V module starts with a 5-word header, and this one has {} bytes",
            bytes.len()
        )));
    }
    let le = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let swap = if le == op::MAGIC {
        false
    } else if le.swap_bytes() == op::MAGIC {
        true
    } else {
        return Err(err(format!(
            "not a SPIR-V module: the first word is {le:#010x}, not the magic number {:#010x}",
            op::MAGIC
        )));
    };
    Ok(bytes
        .chunks_exact(4)
        .map(|c| {
            let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if swap {
                w.swap_bytes()
            } else {
                w
            }
        })
        .collect())
}

/// A literal string starting at `words[0]`: its text and the words it takes.
pub fn literal_string(words: &[u32]) -> Option<(String, usize)> {
    let mut bytes = Vec::new();
    for (i, w) in words.iter().enumerate() {
        for b in w.to_le_bytes() {
            if b == 0 {
                return Some((String::from_utf8_lossy(&bytes).into_owned(), i + 1));
            }
            bytes.push(b);
        }
    }
    None
}

/// Which section of the module the reader is in (SPIR-V §2.4's logical layout).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Section {
    Preamble,
    Globals,
    Functions,
}

impl Module {
    /// Reads a module.
    pub fn read(bytes: &[u8]) -> Result<Module, ImportError> {
        let words = to_words(bytes)?;
        let version = words[1];
        let (major, minor) = ((version >> 16) as u8, (version >> 8) as u8);
        let header_err = |m: String| ImportError::new(ErrorKind::Parse, Location::Unknown, m);
        if major != 1 || minor > 6 || version & 0xff00_00ff != 0 {
            return Err(header_err(format!(
                "SPIR-V version word {version:#010x} is not a version from 1.0 to 1.6"
            )));
        }
        let bound = words[3];
        if bound == 0 || bound > MAX_ID_BOUND {
            return Err(header_err(format!(
                "the id bound {bound} is outside 1..={MAX_ID_BOUND} (spirv-val's limit)"
            )));
        }
        let mut m = Module {
            version: (major, minor),
            bound,
            insts: Vec::with_capacity(words.len() / 4),
            lines: Vec::new(),
            defs: vec![NONE; bound as usize],
            capabilities: Vec::new(),
            ext_imports: HashMap::default(),
            memory_model: None,
            entry_points: Vec::new(),
            exec_modes: Vec::new(),
            names: HashMap::default(),
            strings: HashMap::default(),
            annotations: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            blocks: HashMap::default(),
            words: Vec::new(),
        };
        m.scan(&words)?;
        m.words = words;
        m.sections()?;
        Ok(m)
    }

    /// Cuts the words into instructions and records their lines and results.
    fn scan(&mut self, words: &[u32]) -> Result<(), ImportError> {
        let mut i = 5usize;
        let mut line = NONE;
        let mut debug = DebugLines::default();
        while i < words.len() {
            let first = words[i];
            let (count, opcode) = ((first >> 16) as usize, (first & 0xffff) as u16);
            let at = Location::SpirV { word: i as u32 };
            if count == 0 {
                return Err(ImportError::new(
                    ErrorKind::Parse,
                    at,
                    format!("an instruction with a word count of 0 (opcode {opcode})"),
                ));
            }
            if i + count > words.len() {
                return Err(ImportError::new(
                    ErrorKind::Parse,
                    at,
                    format!(
                        "the module is truncated: an instruction ({}) of {count} words starts \
                         {} words before the end",
                        op::name(opcode),
                        words.len() - i
                    ),
                ));
            }
            let index = self.insts.len();
            let ops = &words[i + 1..i + count];
            match opcode {
                op::LINE => {
                    if ops.len() < 3 {
                        return Err(self.short(at, opcode, 3));
                    }
                    self.lines.push(Line {
                        file: ops[0],
                        line: ops[1],
                        column: ops[2],
                    });
                    line = self.lines.len() as u32 - 1;
                }
                op::NO_LINE => line = NONE,
                _ => match debug.scan(opcode, ops) {
                    Some(DebugLine::At(l)) => {
                        self.lines.push(l);
                        line = self.lines.len() as u32 - 1;
                    }
                    Some(DebugLine::None) => line = NONE,
                    None => {}
                },
            }
            self.insts.push(Inst {
                word: i as u32,
                opcode,
                start: (i + 1) as u32,
                len: (count - 1) as u16,
                line: if matches!(opcode, op::LINE | op::NO_LINE) {
                    NONE
                } else {
                    line
                },
            });
            // OpLine's scope ends with the block (SPIR-V §3.42.2, OpLine).
            if op::is_terminator(opcode) || opcode == op::FUNCTION_END {
                line = NONE;
            }
            if let Some(result) = result_of(opcode, ops) {
                let result = result.ok_or_else(|| self.short(at, opcode, 2))?;
                let slot = self.defs.get_mut(result as usize).ok_or_else(|| {
                    ImportError::new(
                        ErrorKind::Parse,
                        at,
                        format!(
                            "{} defines %{result}, which is not below the id bound {}",
                            op::name(opcode),
                            self.bound
                        ),
                    )
                })?;
                if result == 0 || *slot != NONE {
                    return Err(ImportError::new(
                        ErrorKind::Parse,
                        at,
                        format!("{} defines %{result} a second time", op::name(opcode)),
                    ));
                }
                *slot = index as u32;
            }
            i += count;
        }
        Ok(())
    }

    /// An error: the instruction has too few operands.
    fn short(&self, at: Location, opcode: u16, want: usize) -> ImportError {
        ImportError::new(
            ErrorKind::Parse,
            at,
            format!(
                "{} has too few operands (it needs at least {want})",
                op::name(opcode)
            ),
        )
    }

    /// The operand words of instruction `i`.
    pub fn ops(&self, i: usize) -> &[u32] {
        let inst = &self.insts[i];
        &self.words[inst.start as usize..inst.start as usize + inst.len as usize]
    }

    /// The index of the first function's `OpFunction` (the instructions' length without
    /// functions): the declarations end there.
    pub fn first_function_inst(&self) -> usize {
        self.functions
            .iter()
            .map(|f| f.inst)
            .min()
            .unwrap_or(self.insts.len())
    }

    /// The index of the instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<usize> {
        match self.defs.get(id as usize) {
            Some(&d) if d != NONE => Some(d as usize),
            _ => None,
        }
    }

    /// The opcode of the instruction defining `id`.
    pub fn def_opcode(&self, id: Id) -> Option<u16> {
        self.def(id).map(|i| self.insts[i].opcode)
    }

    /// Sorts the instructions into the module's sections and functions.
    fn sections(&mut self) -> Result<(), ImportError> {
        let words = std::mem::take(&mut self.words);
        let r = self.sections_of(&words);
        self.words = words;
        r
    }

    fn sections_of(&mut self, words: &[u32]) -> Result<(), ImportError> {
        let mut section = Section::Preamble;
        let mut func: Option<FunctionDef> = None;
        let mut block: Option<(Id, usize, Option<Merge>)> = None;
        for i in 0..self.insts.len() {
            let inst = self.insts[i];
            let at = Location::SpirV { word: inst.word };
            let ops = &words[inst.start as usize..inst.start as usize + inst.len as usize];
            let need = |n: usize| -> Result<(), ImportError> {
                if ops.len() < n {
                    Err(ImportError::new(
                        ErrorKind::Parse,
                        at,
                        format!(
                            "{} has too few operands (it needs at least {n})",
                            op::name(inst.opcode)
                        ),
                    ))
                } else {
                    Ok(())
                }
            };
            let misplaced = |what: &str| {
                ImportError::new(
                    ErrorKind::Parse,
                    at,
                    format!("{} is not allowed {what}", op::name(inst.opcode)),
                )
            };
            match inst.opcode {
                op::NOP | op::LINE | op::NO_LINE => {}
                op::CAPABILITY => {
                    need(1)?;
                    self.capabilities.push((ops[0], i));
                }
                op::EXTENSION
                | op::SOURCE
                | op::SOURCE_CONTINUED
                | op::SOURCE_EXTENSION
                | op::MODULE_PROCESSED => {}
                op::EXT_INST_IMPORT => {
                    need(2)?;
                    let (name, _) = literal_string(&ops[1..]).unwrap_or_default();
                    self.ext_imports.insert(ops[0], name);
                }
                op::MEMORY_MODEL => {
                    need(2)?;
                    self.memory_model = Some((ops[0], ops[1], i));
                }
                op::ENTRY_POINT => {
                    need(3)?;
                    let (name, n) = literal_string(&ops[2..]).ok_or_else(|| {
                        ImportError::new(
                            ErrorKind::Parse,
                            at,
                            "OpEntryPoint's name is not a terminated string",
                        )
                    })?;
                    self.entry_points.push(EntryPoint {
                        inst: i,
                        model: ops[0],
                        function: ops[1],
                        name,
                        interface: ops[2 + n..].to_vec(),
                    });
                }
                op::EXECUTION_MODE | op::EXECUTION_MODE_ID => {
                    need(2)?;
                    self.exec_modes.push(ExecMode {
                        inst: i,
                        function: ops[0],
                        mode: ops[1],
                        args: ops[2..].to_vec(),
                    });
                }
                op::STRING => {
                    need(2)?;
                    let (s, _) = literal_string(&ops[1..]).unwrap_or_default();
                    self.strings.insert(ops[0], s);
                }
                op::NAME => {
                    need(2)?;
                    if let Some((s, _)) = literal_string(&ops[1..]) {
                        self.names.entry(ops[0]).or_insert(s);
                    }
                }
                op::MEMBER_NAME => {}
                op::DECORATE
                | op::MEMBER_DECORATE
                | op::DECORATION_GROUP
                | op::GROUP_DECORATE
                | op::GROUP_MEMBER_DECORATE
                | op::DECORATE_ID
                | op::DECORATE_STRING
                | op::MEMBER_DECORATE_STRING => {
                    if section > Section::Globals {
                        return Err(misplaced("inside a function"));
                    }
                    self.annotations.push(i);
                }
                op::FUNCTION => {
                    need(4)?;
                    if func.is_some() {
                        return Err(misplaced("inside another function"));
                    }
                    section = Section::Functions;
                    func = Some(FunctionDef {
                        id: ops[1],
                        inst: i,
                        result_type: ops[0],
                        params: Vec::new(),
                        blocks: Vec::new(),
                    });
                }
                op::FUNCTION_PARAMETER => {
                    need(2)?;
                    match &mut func {
                        Some(f) if f.blocks.is_empty() && block.is_none() => f.params.push(ops[1]),
                        _ => return Err(misplaced("outside a function's header")),
                    }
                }
                op::FUNCTION_END => {
                    let Some(f) = func.take() else {
                        return Err(misplaced("outside a function"));
                    };
                    if block.is_some() {
                        return Err(ImportError::new(
                            ErrorKind::Parse,
                            at,
                            "a function ends inside a block (its last block has no terminator)",
                        ));
                    }
                    self.functions.push(f);
                }
                op::LABEL => {
                    need(1)?;
                    let Some(f) = func.as_mut() else {
                        return Err(misplaced("outside a function"));
                    };
                    if block.is_some() {
                        return Err(ImportError::new(
                            ErrorKind::Parse,
                            at,
                            "a block starts inside another block (the one before has no \
                             terminator)",
                        ));
                    }
                    let fi = self.functions.len() as u32;
                    self.blocks.insert(ops[0], (fi, f.blocks.len() as u32));
                    block = Some((ops[0], i, None));
                }
                op::SELECTION_MERGE | op::LOOP_MERGE => {
                    let Some(b) = block.as_mut() else {
                        return Err(misplaced("outside a block"));
                    };
                    need(if inst.opcode == op::LOOP_MERGE { 2 } else { 1 })?;
                    b.2 = Some(if inst.opcode == op::LOOP_MERGE {
                        Merge::Loop {
                            merge: ops[0],
                            cont: ops[1],
                        }
                    } else {
                        Merge::Selection { merge: ops[0] }
                    });
                    // The merge instruction must come right before the terminator.
                    let next = self.insts.get(i + 1).map(|n| n.opcode);
                    if !next.is_some_and(op::is_terminator) {
                        return Err(ImportError::new(
                            ErrorKind::Parse,
                            at,
                            format!(
                                "{} must come right before its block's terminator",
                                op::name(inst.opcode)
                            ),
                        ));
                    }
                }
                code if op::is_terminator(code) => {
                    let (Some(f), Some((label, first, merge))) = (func.as_mut(), block.take())
                    else {
                        return Err(misplaced("outside a block"));
                    };
                    f.blocks.push(BlockDef {
                        label,
                        first,
                        terminator: i,
                        merge,
                    });
                }
                _ => {
                    if func.is_some() {
                        if block.is_none() {
                            return Err(misplaced("outside a block (before OpLabel)"));
                        }
                    } else {
                        if section == Section::Functions {
                            return Err(misplaced("between functions"));
                        }
                        section = Section::Globals;
                        self.globals.push(i);
                    }
                }
            }
        }
        if func.is_some() {
            return Err(ImportError::new(
                ErrorKind::Parse,
                Location::Unknown,
                "the module is truncated: its last function has no OpFunctionEnd",
            ));
        }
        Ok(())
    }

    /// The instruction `i` in disassembly, with its ids as `%N` (`spirv-dis --raw-id`
    /// style): the result, the opcode's name, then the operands.
    pub fn disassemble(&self, i: usize) -> String {
        let inst = &self.insts[i];
        disassemble(inst.opcode, self.ops(i))
    }

    /// The source position of instruction `i` from its `OpLine`, if any.
    pub fn source_pos(&self, i: usize) -> Option<crate::error::SourcePos> {
        let l = *self.lines.get(self.insts.get(i)?.line as usize)?;
        Some(crate::error::SourcePos {
            file: self
                .strings
                .get(&l.file)
                .cloned()
                .unwrap_or_else(|| format!("%{}", l.file)),
            line: l.line,
            column: l.column,
        })
    }

    /// An error of `kind` at instruction `i`: its word offset, its disassembly and its
    /// source position.
    pub fn error(&self, i: usize, kind: ErrorKind, message: impl Into<String>) -> ImportError {
        let Some(inst) = self.insts.get(i) else {
            return ImportError::new(kind, Location::Unknown, message);
        };
        ImportError::new(kind, Location::SpirV { word: inst.word }, message).at_instruction(
            crate::error::SpirvSite {
                disassembly: self.disassemble(i),
                source: self.source_pos(i),
            },
        )
    }

    /// The name `OpName` gives `id`, if any.
    pub fn name(&self, id: Id) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }
}

/// Where the result id of an instruction is among its operands: `None` for
/// instructions without one, `Some(None)` when the operands are too few to hold it.
fn result_of(opcode: u16, ops: &[u32]) -> Option<Option<Id>> {
    let (_, _, ty, res, _) = grammar::info(opcode)?;
    if !res {
        return None;
    }
    let at = usize::from(*ty);
    Some(ops.get(at).copied())
}

/// An instruction in disassembly: `%r = OpName %type operands...`.
pub fn disassemble(opcode: u16, ops: &[u32]) -> String {
    let Some(&(_, name, ty, res, shape)) = grammar::info(opcode) else {
        let mut s = format!("Op{opcode}");
        for w in ops {
            s.push_str(&format!(" {w}"));
        }
        return s;
    };
    let mut out = String::new();
    let mut rest = ops;
    let mut head = Vec::new();
    if ty {
        if let Some((&t, r)) = rest.split_first() {
            head.push(format!("%{t}"));
            rest = r;
        }
    }
    if res {
        if let Some((&r, tail)) = rest.split_first() {
            out.push_str(&format!("%{r} = "));
            rest = tail;
        }
    }
    out.push_str(name);
    for h in head {
        out.push(' ');
        out.push_str(&h);
    }
    // The operand shapes, the last repeated while its `*` says so.
    let shapes: Vec<(char, char)> = {
        let mut v = Vec::new();
        let mut it = shape.chars().peekable();
        while let Some(c) = it.next() {
            let q = match it.peek() {
                Some(&q) if q == '?' || q == '*' => {
                    it.next();
                    q
                }
                _ => ' ',
            };
            v.push((c, q));
        }
        v
    };
    let mut si = 0;
    while !rest.is_empty() {
        let (kind, q) = shapes.get(si).copied().unwrap_or(('l', '*'));
        let take = match kind {
            'p' | 'q' | 'r' => 2,
            _ => 1,
        };
        match kind {
            's' => {
                let (text, n) = literal_string(rest).unwrap_or_default();
                out.push_str(&format!(" {text:?}"));
                rest = &rest[n.max(1).min(rest.len())..];
            }
            _ => {
                for (k, &w) in rest.iter().enumerate().take(take) {
                    let is_id = kind == 'i'
                        || kind == 'p'
                        || (kind == 'q' && k == 1)
                        || (kind == 'r' && k == 0);
                    if is_id {
                        out.push_str(&format!(" %{w}"));
                    } else {
                        out.push_str(&format!(" {w}"));
                    }
                }
                rest = &rest[take.min(rest.len())..];
            }
        }
        if q != '*' {
            si += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn header_checks() {
        assert!(Module::read(&[1, 2, 3]).is_err());
        let e = Module::read(&module(&[0xdead_beef, 0x10000, 0, 1, 0]))
            .err()
            .unwrap();
        assert!(e.message.contains("magic"), "{e}");
        let e = Module::read(&module(&[op::MAGIC, 0x20000, 0, 1, 0]))
            .err()
            .unwrap();
        assert!(e.message.contains("version"), "{e}");
        let e = Module::read(&module(&[op::MAGIC, 0x10000, 0, u32::MAX, 0]))
            .err()
            .unwrap();
        assert!(e.message.contains("bound"), "{e}");
        // Big-endian modules read the same.
        let be: Vec<u8> = [op::MAGIC, 0x10300, 0, 4, 0]
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        assert_eq!(Module::read(&be).unwrap().version, (1, 3));
    }

    #[test]
    fn truncation_and_zero_counts_are_errors_with_words() {
        // OpCapability Shader, then an OpTypeInt claiming 4 words with 2 left.
        let w = [
            op::MAGIC,
            0x10000,
            0,
            8,
            0,
            (2 << 16) | 17,
            1,
            (4 << 16) | 21,
            1,
        ];
        let e = Module::read(&module(&w)).err().unwrap();
        assert_eq!(e.location, Location::SpirV { word: 7 });
        assert!(e.message.contains("truncated"), "{e}");
        assert!(e.message.contains("OpTypeInt"), "{e}");
        let w = [op::MAGIC, 0x10000, 0, 8, 0, 17];
        let e = Module::read(&module(&w)).err().unwrap();
        assert!(e.message.contains("word count of 0"), "{e}");
        // A result id at the bound.
        let w = [op::MAGIC, 0x10000, 0, 8, 0, (2 << 16) | 19, 8];
        let e = Module::read(&module(&w)).err().unwrap();
        assert!(e.message.contains("id bound"), "{e}");
    }

    #[test]
    fn disassembly_names_ids_and_literals() {
        // %7 = OpTypeInt 32 1
        assert_eq!(disassemble(21, &[7, 32, 1]), "%7 = OpTypeInt 32 1");
        // %12 = OpImageSampleImplicitLod %4 %10 %11
        assert_eq!(
            disassemble(87, &[4, 12, 10, 11]),
            "%12 = OpImageSampleImplicitLod %4 %10 %11"
        );
        // OpSwitch %5 %6 1 %7 2 %8
        assert_eq!(
            disassemble(251, &[5, 6, 1, 7, 2, 8]),
            "OpSwitch %5 %6 1 %7 2 %8"
        );
        let name = u32::from_le_bytes(*b"main");
        assert_eq!(
            disassemble(15, &[5, 3, name, 0, 9, 10]),
            "OpEntryPoint 5 %3 \"main\" %9 %10"
        );
        assert_eq!(disassemble(60000, &[1, 2]), "Op60000 1 2");
    }
}
