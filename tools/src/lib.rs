//! Plumbing shared by the command-line tools: reading inputs, rendering diagnostics,
//! exit codes.

use ir::diag::{render_all, Diagnostic};
use std::io::Read;
use std::path::Path;

/// A problem that ends a tool run with exit status 1, already rendered for stderr.
#[derive(Debug)]
pub struct Failure(pub String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

/// The largest text the tools read or write, in bytes: 256 MiB. Shaders are text of a
/// few kilobytes; the limit turns `ir-opt /dev/zero` into an error instead of a run
/// that ends when the host's memory does. It holds for output too, so that whatever a
/// tool writes it can read back: lowering can multiply a shader's size (every image
/// access of an untyped Gfx7 lowering becomes dozens of instructions), and an output
/// past the limit is an error rather than a file `ir-opt` then refuses. Parsing costs
/// a few times the text's size in memory, so raising the limit would only move the
/// problem to the host's memory.
pub const MAX_TEXT_BYTES: u64 = 1 << 28;

/// Reads `path`, or standard input for `-`. The text must be UTF-8; otherwise the
/// failure names the first invalid byte, its offset, line and column.
pub fn read_input(path: &str) -> Result<String, Failure> {
    let (name, bytes) = read_bytes(path)?;
    decode_utf8(bytes).map_err(|e| Failure(format!("error: {name} is not UTF-8 text: {e}")))
}

/// Reads `path`, or standard input for `-`, as bytes (up to [`MAX_TEXT_BYTES`]):
/// returns how to name the input in messages and its bytes.
pub fn read_bytes(path: &str) -> Result<(String, Vec<u8>), Failure> {
    let (name, result) = if path == "-" {
        (
            "standard input".to_string(),
            read_limited(std::io::stdin().lock()),
        )
    } else {
        (
            format!("`{path}`"),
            std::fs::File::open(Path::new(path)).and_then(read_limited),
        )
    };
    let bytes = result.map_err(|e| Failure(format!("error: cannot read {name}: {e}")))?;
    Ok((name, bytes))
}

/// Reads everything, up to [`MAX_TEXT_BYTES`].
fn read_limited(input: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input.take(MAX_TEXT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(std::io::Error::other(format!(
            "the input is larger than the limit of {MAX_TEXT_BYTES} bytes"
        )));
    }
    Ok(bytes)
}

/// Checks that an output of `len` bytes is within [`MAX_TEXT_BYTES`], the most the
/// tools read back.
pub fn check_output_size(len: usize) -> Result<(), Failure> {
    if len as u64 > MAX_TEXT_BYTES {
        return Err(Failure(format!(
            "error: the output is {len} bytes ({} MiB), more than the limit of {MAX_TEXT_BYTES} \
             bytes ({} MiB) the tools read: nothing was written. Lower a smaller shader, or \
             split it into several",
            len >> 20,
            MAX_TEXT_BYTES >> 20
        )));
    }
    Ok(())
}

/// Where the first byte that is not UTF-8 lies in an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidUtf8 {
    /// The byte's value.
    pub byte: u8,
    /// Its offset from the start of the input.
    pub offset: usize,
    /// Its line (1-based).
    pub line: usize,
    /// Its column (1-based, counting the characters before it on its line).
    pub col: usize,
}

impl std::fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "byte {:#04x} at offset {} (line {}, column {}) starts no valid UTF-8 character",
            self.byte, self.offset, self.line, self.col
        )
    }
}

impl std::error::Error for InvalidUtf8 {}

/// Turns the bytes of an input into text, or locates its first invalid byte.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, InvalidUtf8> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Everything before `offset` is valid, so lines and columns count characters.
        let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line_start = valid.rfind('\n').map_or(0, |i| i + 1);
        InvalidUtf8 {
            byte: bytes[offset],
            offset,
            line: valid.matches('\n').count() + 1,
            col: valid[line_start..].chars().count() + 1,
        }
    })
}

/// Writes `text` to `path`, or standard output when `path` is `None` or `-`. A text
/// over [`MAX_TEXT_BYTES`] is an error and nothing is written.
pub fn write_output(path: Option<&str>, text: &str) -> Result<(), Failure> {
    check_output_size(text.len())?;
    match path {
        None | Some("-") => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| Failure(format!("error: cannot write standard output: {e}")))
        }
        Some(p) => {
            std::fs::write(p, text).map_err(|e| Failure(format!("error: cannot write `{p}`: {e}")))
        }
    }
}

/// Renders diagnostics against the input text, naming the input `file`.
pub fn render(diags: &[Diagnostic], file: &str, source: &str) -> Failure {
    Failure(render_all(diags, file, source))
}

/// Parses and validates a shader, rendering every problem.
pub fn load_shader(file: &str, source: &str) -> Result<ir::Shader, Failure> {
    let shader = ir::parse_shader(source).map_err(|d| render(&d, file, source))?;
    ir::validate(&shader).map_err(|d| render(&d, file, source))?;
    Ok(shader)
}

/// The names `ir-opt --target` takes, for its error message: the presets first, then
/// every other name of the platform table (`tiling::Platform`, which `tile-calc --gen`
/// reads too) and the generation numbers.
pub fn target_names() -> String {
    let presets = lowering::Device::PRESET_NAMES;
    let others: Vec<&str> = tiling::Platform::names()
        .filter(|n| !presets.contains(n))
        .collect();
    let gens: Vec<String> = tiling::Gen::ALL
        .iter()
        .map(|g| g.to_string().trim_start_matches("gfx").to_string())
        .collect();
    format!(
        "{} (or another platform: {}; or a generation: {})",
        presets.join(", "),
        others.join(", "),
        gens.join(", ")
    )
}

/// Which lowering flags the command line gave, for the hints [`lowering_diagnostics`]
/// adds to lowering errors.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoweringFlags {
    /// `--force-untyped`.
    pub force_untyped: bool,
    /// `--no-bounds-check`.
    pub no_bounds_check: bool,
    /// `--untyped-address a64`.
    pub untyped_address_a64: bool,
}

/// The flag that asked for what a lowering error refuses, if a flag did: the library's
/// messages never name flags, so the tool says which of its own led there.
pub fn lowering_hint(
    kind: &lowering::LowerErrorKind,
    flags: &LoweringFlags,
) -> Option<&'static str> {
    use lowering::{A64Use, FormatUse, LowerErrorKind as K};
    match kind {
        K::A64Unsupported(A64Use::UntypedAddress) if flags.untyped_address_a64 => Some(
            "--untyped-address a64 asks for these addresses; the default, bti, works on every \
             platform",
        ),
        K::LodUnsupported if flags.no_bounds_check => {
            Some("--no-bounds-check leaves out the check such a load needs")
        }
        K::FormatRequired(FormatUse::UntypedAddress) if flags.force_untyped => {
            Some("--force-untyped sends the access down the untyped path")
        }
        K::NoStorageImages { .. } => {
            Some("--target names a part without storage images; Gfx7 (ivb) is the first with them")
        }
        _ => None,
    }
}

/// Lowering errors as diagnostics at their positions, each followed by a note naming
/// the flag that led to it, if one did.
pub fn lowering_diagnostics(
    errors: &[lowering::LowerError],
    flags: &LoweringFlags,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for e in errors {
        out.push(e.to_diagnostic());
        if let Some(hint) = lowering_hint(&e.kind, flags) {
            out.push(Diagnostic::note(e.span, hint));
        }
    }
    out
}

/// A table of stage timings (`ir-opt -O --time-passes`), in the layout of the pass
/// manager's: one line per stage, then the total.
pub fn stage_timing_report(stages: &[(String, std::time::Duration)]) -> String {
    let total: std::time::Duration = stages.iter().map(|(_, d)| *d).sum();
    let share = |d: std::time::Duration| {
        if total.is_zero() {
            0.0
        } else {
            100.0 * d.as_secs_f64() / total.as_secs_f64()
        }
    };
    let mut out = String::from("     time (ms)   share  stage (-O)\n");
    for (name, d) in stages {
        out.push_str(&format!(
            "{:>14.3}  {:>5.1}%  {name}\n",
            d.as_secs_f64() * 1e3,
            share(*d)
        ));
    }
    out.push_str(&format!(
        "{:>14.3}  100.0%  total\n",
        total.as_secs_f64() * 1e3
    ));
    out
}

/// Pass registration for the tools: the IR's cleanup passes plus `lower-images`.
pub mod pipeline {
    use crate::OptionError;
    use ir::passes::manager::{split_pipeline, PassOptions, PassRegistry, PipelineError};
    use ir::passes::Pass;
    use lowering::{Device, LowerOptions};

    /// A registry with the IR passes and `lower-images` for `device` (whose options
    /// default to `defaults` and can be overridden per pipeline item, e.g.
    /// `lower-images(force-untyped,bounds-check=false)`). Without a device,
    /// `lower-images` exists but reports that it needs `--target`.
    pub fn registry(device: Option<&Device>, defaults: LowerOptions) -> PassRegistry {
        let mut r = PassRegistry::with_ir_passes();
        match device {
            Some(d) => lowering::register_lower_images(&mut r, d.clone(), defaults),
            None => r.register(
                "lower-images",
                "lower image intrinsics to LSC messages (needs --target)",
                |_: &PassOptions| -> Result<Box<dyn Pass>, String> {
                    Err("lower-images needs a platform: pass --target".to_string())
                },
            ),
        }
        lowering::register_lower_float_atomics(&mut r, device.cloned());
        lowering::register_lower_async_copies(&mut r, device.cloned(), Default::default());
        lowering::register_lower_dataport(&mut r, device.cloned());
        r
    }

    /// The `Passes:` section of `ir-opt --help`: every pass the registry holds, with its
    /// description, marking those that need `--target` (the ones that cannot be built
    /// without a platform). Generated from the registry, so it lists every pass.
    pub fn help_text() -> String {
        let any_device = Device::presets().into_iter().next();
        let with_device = registry(any_device.as_ref(), LowerOptions::default());
        let without = registry(None, LowerOptions::default());
        let width = with_device
            .passes()
            .map(|(n, _)| n.len())
            .max()
            .unwrap_or(0);
        let mut out = format!(
            "Passes (-p NAME or NAME(OPTION=VALUE,...), comma-separated;\n\
             -O runs lowering::lower_shader: {}):\n",
            lowering::PIPELINE.join(",")
        );
        for (name, description) in with_device.passes() {
            let needs_target = split_pipeline(name)
                .ok()
                .and_then(|items| items.into_iter().next())
                .is_some_and(|(n, o)| without.create(&n, &o).is_err());
            out.push_str(&format!(
                "  {name:width$}  {description}{}\n",
                if needs_target {
                    " [needs --target]"
                } else {
                    ""
                }
            ));
        }
        out
    }

    /// Checks one `-p` text on its own: a syntax error (an empty pass name in
    /// `cse,,dce`, an unclosed parenthesis) names the text, the pass's position in it
    /// and the byte offset. An empty text is an error too: `-p` takes at least one pass.
    pub fn check_text(text: &str) -> Result<(), OptionError> {
        if text.trim().is_empty() {
            return Err(OptionError::new(
                "-p",
                "empty pipeline (expected PASS[,PASS...])",
            ));
        }
        match split_pipeline(text) {
            Ok(_) => Ok(()),
            Err(PipelineError::Syntax {
                item,
                offset,
                message,
            }) => Err(OptionError::new(
                "-p",
                format!("`{text}`, pass {item} (byte {offset}): {message}"),
            )),
            // Option values are checked when the passes are built.
            Err(_) => Ok(()),
        }
    }
}

/// A one-line diagnostic about the command line: `error: --OPTION: message`, or
/// `error: message` when no single option is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option at fault (`--grid`), if one is.
    pub option: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl OptionError {
    /// An error about `option`.
    pub fn new(option: &str, message: impl Into<String>) -> OptionError {
        OptionError {
            option: Some(option.to_string()),
            message: message.into(),
        }
    }

    /// An error about the command line as a whole.
    pub fn general(message: impl Into<String>) -> OptionError {
        OptionError {
            option: None,
            message: message.into(),
        }
    }

    /// The line to print. Whitespace runs (newlines included) in the message fold to
    /// one space, so the error stays one line whatever the message holds.
    pub fn line(&self) -> String {
        let msg = self
            .message
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        match &self.option {
            Some(o) => format!("error: {o}: {msg}"),
            None => format!("error: {msg}"),
        }
    }
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line())
    }
}

impl std::error::Error for OptionError {}

/// Reading a command line with clap under the tools' error contract: every problem
/// with the options, including those clap detects, is one line `error: --OPTION: what
/// is wrong` on standard error and exit status 1; `--help` and `--version` print to
/// standard output with exit status 0.
pub mod command_line {
    use super::OptionError;
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::{Command, FromArgMatches};
    use std::ffi::OsString;
    use std::process::ExitCode;

    /// Why a command line gives no options to run with.
    #[derive(Debug)]
    pub enum Exit {
        /// `--help` or `--version` was asked for: clap's text, for standard output.
        Info(clap::Error),
        /// The command line is bad.
        Error(OptionError),
    }

    impl Exit {
        /// Prints the help text to standard output or the error line to standard error,
        /// and returns the exit status: 0 for help and version, 1 for errors.
        pub fn report(&self) -> ExitCode {
            match self {
                Exit::Info(e) => {
                    let _ = e.print();
                    ExitCode::SUCCESS
                }
                Exit::Error(e) => {
                    eprintln!("{}", e.line());
                    ExitCode::FAILURE
                }
            }
        }
    }

    /// Parses `args` (the program name first) against `cmd` into `P`.
    pub fn parse_from<P, I, T>(mut cmd: Command, args: I) -> Result<P, Exit>
    where
        P: FromArgMatches,
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let fold = |e: clap::Error, cmd: &Command| match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Exit::Info(e),
            _ => Exit::Error(fold_error(&e, cmd)),
        };
        let matches = cmd
            .try_get_matches_from_mut(args)
            .map_err(|e| fold(e, &cmd))?;
        P::from_arg_matches(&matches).map_err(|e| fold(e, &cmd))
    }

    /// Parses the process's arguments against `cmd`; see [`parse_from`].
    pub fn parse<P: FromArgMatches>(cmd: Command) -> Result<P, Exit> {
        parse_from(cmd, std::env::args_os())
    }

    /// The option name of a clap argument display such as `--gen <G>` or `<FILE>`.
    fn option_name(display: &str) -> String {
        display
            .split_whitespace()
            .next()
            .unwrap_or(display)
            .to_string()
    }

    fn context_string(e: &clap::Error, kind: ContextKind) -> Option<String> {
        match e.get(kind)? {
            ContextValue::String(s) => Some(s.clone()),
            ContextValue::Strings(v) => Some(v.join(", ")),
            ContextValue::StyledStr(s) => Some(s.to_string()),
            ContextValue::StyledStrs(v) => Some(
                v.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ContextValue::Number(n) => Some(n.to_string()),
            ContextValue::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// `a`, `a or b`, `a, b or c`.
    fn alternatives(items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The names of `cmd`'s subcommands, for messages about a missing or unknown one.
    fn subcommands(cmd: &Command) -> Vec<String> {
        cmd.get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(|s| s.get_name().to_string())
            .collect()
    }

    /// Folds a clap error into the one-line form, naming the option at fault.
    pub fn fold_error(e: &clap::Error, cmd: &Command) -> OptionError {
        let arg = context_string(e, ContextKind::InvalidArg);
        let value = context_string(e, ContextKind::InvalidValue).unwrap_or_default();
        let opt = || option_name(arg.as_deref().unwrap_or("option"));
        match e.kind() {
            ErrorKind::ValueValidation => {
                let why = std::error::Error::source(e)
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| format!("invalid value `{value}`"));
                OptionError::new(&opt(), why)
            }
            ErrorKind::MissingRequiredArgument => {
                let missing: Vec<String> = match e.get(ContextKind::InvalidArg) {
                    Some(ContextValue::Strings(v)) => v.iter().map(|a| option_name(a)).collect(),
                    _ => arg.iter().map(|a| option_name(a)).collect(),
                };
                match missing.as_slice() {
                    [one] if one.starts_with('-') => {
                        OptionError::new(one, "required option is missing")
                    }
                    [one] => OptionError::general(format!("missing {one}")),
                    _ => OptionError::new(&missing.join(", "), "required options are missing"),
                }
            }
            ErrorKind::InvalidValue | ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues
                if value.is_empty() =>
            {
                OptionError::new(&opt(), "missing value")
            }
            ErrorKind::InvalidValue => {
                let valid: Vec<String> = match e.get(ContextKind::ValidValue) {
                    Some(ContextValue::Strings(v)) => v.clone(),
                    _ => Vec::new(),
                };
                let mut msg = format!("invalid value `{value}`");
                if !valid.is_empty() {
                    msg.push_str(&format!(" (expected {})", alternatives(&valid)));
                }
                OptionError::new(&opt(), msg)
            }
            ErrorKind::ArgumentConflict if arg.is_none() => {
                // A word in a command's place after options (`ir-opt -O run x.ir`): the
                // options took the first word as their file, the next one is left over.
                let word = context_string(e, ContextKind::InvalidSubcommand).unwrap_or_default();
                OptionError::general(format!(
                    "unexpected argument `{word}` (a command, {}, comes before its options \
                     and file)",
                    alternatives(&subcommands(cmd))
                ))
            }
            ErrorKind::ArgumentConflict => {
                let prior = match e.get(ContextKind::PriorArg) {
                    Some(ContextValue::String(p)) => Some(option_name(p)),
                    Some(ContextValue::Strings(v)) => Some(
                        v.iter()
                            .map(|p| option_name(p))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    _ => None,
                };
                match prior {
                    // clap reports a repeated option as a conflict with itself.
                    Some(p) if p != opt() => {
                        OptionError::new(&opt(), format!("cannot be used with {p}"))
                    }
                    _ => OptionError::new(&opt(), "given more than once"),
                }
            }
            ErrorKind::UnknownArgument => {
                let a = arg.clone().unwrap_or_default();
                let hint = context_string(e, ContextKind::SuggestedArg)
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                if a.starts_with('-') {
                    OptionError::new(&option_name(&a), format!("unknown option{hint}"))
                } else {
                    OptionError::general(format!("unexpected argument `{a}`"))
                }
            }
            ErrorKind::InvalidSubcommand => {
                let sub = context_string(e, ContextKind::InvalidSubcommand).unwrap_or_default();
                OptionError::general(format!(
                    "unknown command `{sub}` (expected {})",
                    alternatives(&subcommands(cmd))
                ))
            }
            ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                OptionError::general(format!(
                    "missing command (expected {}; see {} --help)",
                    alternatives(&subcommands(cmd)),
                    cmd.get_name()
                ))
            }
            _ => {
                // Anything else: clap's own first line, minus its `error: ` prefix.
                let text = e.to_string();
                let first = text.lines().next().unwrap_or("invalid arguments");
                let first = first.strip_prefix("error: ").unwrap_or(first);
                match &arg {
                    Some(a) if a.starts_with('-') => OptionError::new(&option_name(a), first),
                    _ => OptionError::general(first),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_write_only_what_they_can_read_back() {
        // The largest text read is the largest written.
        let limit = MAX_TEXT_BYTES as usize;
        assert!(check_output_size(limit).is_ok());
        let e = check_output_size(limit + 1).unwrap_err().0;
        assert!(
            e.starts_with("error: the output is 268435457 bytes (256 MiB), more than the limit of 268435456 bytes (256 MiB)"),
            "{e}"
        );
        // Reading stops at the same limit.
        let over = std::io::repeat(b' ').take(MAX_TEXT_BYTES + 1);
        let e = read_limited(over).unwrap_err().to_string();
        assert_eq!(e, "the input is larger than the limit of 268435456 bytes");
        let at = std::io::repeat(b' ').take(MAX_TEXT_BYTES);
        assert_eq!(read_limited(at).unwrap().len(), limit);
    }

    #[test]
    fn an_output_over_the_limit_writes_nothing() {
        let dir = std::env::temp_dir().join(format!("tools-output-{}", std::process::id()));
        let path = dir.to_str().unwrap().to_string();
        let big = " ".repeat(MAX_TEXT_BYTES as usize + 1);
        assert!(write_output(Some(&path), &big).is_err());
        assert!(!dir.exists(), "a partial output was written");
    }
}
