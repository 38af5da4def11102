//! The library behind `ir-opt run` and `ir-opt verify`.
//!
//! * `ir-opt run FILE [--target P] [--grid X,Y,Z] [--subgroup N] [--seed N]
//!   [--image @name=FILL ...]` executes a shader: image intrinsics with the reference
//!   semantics, message intrinsics with the hardware's (a lowered dump runs too; messages
//!   need `--target`, which also chooses the surface layouts, DG2's otherwise). It
//!   prints one line per image level and layer (a checksum and the first texels,
//!   decoded) and per buffer (a checksum, the range of bytes the run changed, the first
//!   dwords).
//! * `ir-opt verify FILE --target P [--force-untyped] [--no-bounds-check]
//!   [--untyped-address bti|a64] [--grid X,Y,Z] [--subgroup N] [--seed N]
//!   [--image @name=FILL ...]` lowers the shader (`lower-images`, then `cleanup`),
//!   runs both versions on the same initial memory and prints
//!   `verified: I invocations, A accesses, 0 mismatches`, or fails with the mismatches.
//!   With `--visa` the vISA kernel of the lowered shader runs on the same memory too
//!   ([`verify_shader_visa`]; the caller passes the back end), and the line counts all
//!   three forms.
//!
//! Both build their memory with [`Setup::default_for`] (`--seed`, default 0, varies
//! the tilings, views and fills); `--grid` and `--subgroup` override the dispatch,
//! `--image` an image's initial contents. Every 64-bit push constant the shader reads
//! at a constant, 8-byte-aligned offset points to a global allocation of its own
//! (see [`crate::setup`]): `--global-size N` sets their size (default 64 KiB; 0: none),
//! `--global OFFSET=FILL` the initial contents of the one whose pointer is at push
//! constant byte `OFFSET` (decimal or `0x` hexadecimal; `gradient` puts `k` in the
//! dword at byte `4k`). The other push constants hold a seeded pattern; `--push
//! OFFSET=V[,V...]` writes 32-bit values (decimal or `0x` hexadecimal, little-endian)
//! from byte `OFFSET` on, within the first 64 KiB, for shaders that read sizes or
//! offsets from them.
//!
//! Fills (`--image @name=FILL`, for every element of an image array, or
//! `@name[i]=FILL` for one; the image is named with its `@`, as in the IR):
//!
//! | fill | contents |
//! |---|---|
//! | `zero` | all bytes 0 |
//! | `pattern` | random valid texels (finite floats) from the run's seed, random padding |
//! | `pattern:SEED` | the same from `SEED` |
//! | `gradient` | channel `c` of texel (x, y) of layer z, level l from `n = x + 2y + 3z + 5c + 7l`: integers `n`, normalized and float channels `(n mod 64) / 63` |
//!
//! An image of unknown format (`image @img : 2d unknown`) is bound with a view of a
//! real format: `--image @img=FORMAT` picks it (`r32_float`, `rgba16_uint`, ...: a
//! format of the image's sampled type, which its accesses' `dest_type`/`src_type`
//! give). Without one, `run` binds the first of [`formatless_view_formats`] (RGBA8 of the
//! sampled type) and `verify` verifies once for each of the three (8-bit RGBA, 16-bit,
//! 32-bit single channel of that type), one `verified:` line each naming the formats.
//! An image the shader loads from takes only the formats the platform reads typed (a
//! load without a format is a typed read of the view's format): on BDW a float image
//! takes `r32_float` alone.
//!
//! Each image element, global allocation and push-constant byte may be set by one
//! option only: a second `--image` for the same element, `--global` for the same
//! offset or `--push` over the same bytes is an error rather than a silent override.
//!
//! Sizes are checked before anything runs: the dispatch (workgroups times the
//! shader's workgroup size) must stay within the executor's limit
//! ([`crate::exec::DEFAULT_MAX_INVOCATIONS`] invocations), and the memory the setup
//! allocates within [`MAX_MEMORY_BYTES`]; `--subgroup` is a power of two up to 32
//! and must agree with a `subgroup_size` the shader fixes. `--max-steps N` sets the
//! step budget of each subgroup (instructions and blocks it may execute,
//! [`ir::interp::DEFAULT_MAX_STEPS`] by default); a run that exhausts it fails with a
//! hint naming the option. Neither command keeps a log of the whole grid: `run` counts
//! accesses, `verify` compares a slice of workgroups at a time
//! ([`crate::verifier`]).

use crate::defined_inputs::{with_defined_inputs, InputFallback, RETRIED_NOTE};
use crate::exec::{dispatch_invocations, ExecConfig, ExecError, Executor};
use crate::memory::{ImageStorage, Memory};
use crate::setup::{
    formatless_view_formats, image_label, pointer_slots, texel_positions, Choices, Fill,
    PointerHome, Setup, SetupError, MAX_MEMORY_BYTES,
};
use crate::texel::TexelLayout;
use crate::verifier::{lower, verify_lowered, Lowered, Report, VerifyError};
use crate::visa::check::{verify_lowered_visa, Backend, Kernels, Verified};
use crate::visa::run::RunConfig;
use ir::diag::Diagnostic;
use ir::interp::InterpErrorKind;
use ir::{Format, IntrinsicClass, Shader, Span};
use lowering::{Device, LowerOptions, UntypedAddress};
use std::fmt;
use std::fmt::Write as _;

/// The options both commands share.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// The platform (`--target`).
    pub target: Option<String>,
    /// Workgroups (`--grid X,Y,Z`), instead of the default covering grid.
    pub grid: Option<String>,
    /// Lanes per subgroup (`--subgroup N`, default 16).
    pub subgroup: Option<u32>,
    /// The setup's seed (`--seed N`, default 0).
    pub seed: u64,
    /// Initial contents (`--image @name=FILL`).
    pub images: Vec<String>,
    /// Bytes of every global allocation (`--global-size N`).
    pub global_size: Option<usize>,
    /// Initial contents of global allocations (`--global OFFSET=FILL`).
    pub globals: Vec<String>,
    /// Push-constant dwords (`--push OFFSET=V[,V...]`).
    pub push: Vec<String>,
    /// Sizes of storage buffers (`--buffer BLOCK=BYTES`), instead of the size the
    /// shader's declaration gives ([`crate::buffers`]).
    pub buffers: Vec<String>,
    /// The step budget of each subgroup (`--max-steps N`, default
    /// [`ir::interp::DEFAULT_MAX_STEPS`]).
    pub max_steps: Option<u64>,
    /// Sampler states (`--sampler @name=STATE`, [`crate::sampler_state`]), instead of
    /// the default state.
    pub samplers: Vec<String>,
}

/// The options of `verify` beyond [`RunOptions`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// `--force-untyped`.
    pub force_untyped: bool,
    /// `--no-bounds-check`.
    pub no_bounds_check: bool,
    /// `--untyped-address bti|a64` (default bti).
    pub untyped_address: Option<String>,
    /// `--readonly-via-sampler`: loads from read-only images through the sampler.
    pub readonly_via_sampler: bool,
}

/// Why a command failed; its `Display` is the one-line form, [`CliError::render`] what
/// goes to standard error (exit status 1).
#[derive(Debug)]
pub enum CliError {
    /// A bad option value.
    Usage(String),
    /// The input does not parse or validate (rendered diagnostics).
    Input(String),
    /// A problem with one instruction of the input.
    Located {
        /// The instruction's position.
        span: Span,
        /// What is wrong.
        message: String,
    },
    /// The setup cannot be built.
    Setup(SetupError),
    /// The shader failed to run.
    Run(ExecError),
    /// The lowering or the verification could not be carried out.
    Verify(VerifyError),
    /// Verification found mismatches.
    Mismatch {
        /// The failed run's report (boxed: it is most of the error's size).
        report: Box<Report>,
        /// The view formats the run bound to images of unknown format (empty when
        /// `verify` had a single run to make).
        views: Vec<(String, Format)>,
    },
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "error: {m}"),
            CliError::Input(m) => f.write_str(m),
            CliError::Located { span, message } => write!(f, "error: {span}: {message}"),
            CliError::Setup(e) => write!(f, "error: cannot set up the run: {e}"),
            CliError::Run(e) => write!(f, "error: the shader failed: {e}{}", step_hint(e)),
            CliError::Verify(e) => write!(f, "error: {e}"),
            CliError::Mismatch { report, views } if views.is_empty() => write!(f, "{report}"),
            CliError::Mismatch { report, views } => report.write_of(f, Some(&views_text(views))),
        }
    }
}

impl std::error::Error for CliError {}

impl CliError {
    /// The error as `ir-opt` prints it: an error about an instruction of the input
    /// `source` (read from `file`) as a diagnostic naming the file, line and column,
    /// with the source line and a caret (as `ir-opt -O` shows lowering errors); any
    /// other error in its one-line form.
    pub fn render(&self, file: &str, source: &str) -> String {
        match self.diagnostic() {
            Some(d) => d.render(file, source),
            None => format!("{self}\n"),
        }
    }

    /// The error as a diagnostic at its instruction, if it concerns one.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        match self {
            CliError::Located { span, message } if span.is_known() => {
                Some(Diagnostic::error(*span, message.clone()))
            }
            CliError::Run(e) => exec_diagnostic("the shader failed: ", e),
            CliError::Verify(VerifyError::Lower(e)) if e.span.is_known() => {
                Some(Diagnostic::error(e.span, e.describe()))
            }
            // `verify` reports this only after every simpler fill failed too
            // (`defined_inputs`), so the message says so.
            CliError::Verify(VerifyError::Original(e)) => {
                exec_diagnostic("the original shader failed: ", e).map(|mut d| {
                    d.message.push_str(RETRIED_NOTE);
                    d
                })
            }
            _ => None,
        }
    }
}

/// A subgroup's failure at a known instruction, as a diagnostic there.
fn exec_diagnostic(prefix: &str, e: &ExecError) -> Option<Diagnostic> {
    let ExecError::Run {
        workgroup: [x, y, z],
        first_invocation,
        error,
    } = e
    else {
        return None;
    };
    if !error.span.is_known() {
        return None;
    }
    // The interpreter's message starts with the position, which the rendering shows.
    let text = error.to_string();
    let position = format!("{}: ", error.span);
    let what = text.strip_prefix(&position).unwrap_or(&text);
    Some(Diagnostic::error(
        error.span,
        format!(
            "{prefix}workgroup ({x}, {y}, {z}), subgroup from invocation {first_invocation}: {what}{}",
            step_hint(e)
        ),
    ))
}

/// How to raise the step budget, after an error that exhausted it.
fn step_hint(e: &ExecError) -> &'static str {
    match e {
        ExecError::Run { error, .. } if matches!(error.kind, InterpErrorKind::StepLimit { .. }) => {
            "; a loop that really runs this long needs a larger budget: --max-steps N"
        }
        _ => "",
    }
}

/// Parses and validates `source`, rendering problems against `file`.
pub fn load(file: &str, source: &str) -> Result<Shader, CliError> {
    let shader = ir::parse_shader(source)
        .map_err(|d| CliError::Input(ir::diag::render_all(&d, file, source)))?;
    ir::validate(&shader).map_err(|d| CliError::Input(ir::diag::render_all(&d, file, source)))?;
    Ok(shader)
}

/// The device preset `name`.
pub fn device(name: &str) -> Result<Device, CliError> {
    Device::preset(name).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown --target `{name}`; expected one of: {}",
            Device::PRESET_NAMES.join(", ")
        ))
    })
}

/// Parses `--grid X[,Y[,Z]]` (missing dimensions are 1).
pub fn parse_grid(text: &str) -> Result<[u32; 3], CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--grid: expected 1 to 3 positive 32-bit numbers separated by commas (X,Y,Z), not `{text}`"
        ))
    };
    let parts: Vec<&str> = text.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut g = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        g[i] = p.trim().parse().map_err(|_| bad())?;
        if g[i] == 0 {
            return Err(bad());
        }
    }
    Ok(g)
}

/// The end of the push constants `--push` may write: the documented 64 KiB.
const PUSH_LIMIT: u64 = 1 << 16;

/// The setup of a run: defaults for `shader` on `device`, then the options.
pub(crate) fn make_setup(
    shader: &Shader,
    device: &Device,
    o: &RunOptions,
) -> Result<Setup, CliError> {
    make_setup_with(shader, device, o, &[])
}

/// [`make_setup`], binding the format-less images `variant` names with its formats
/// (one of `verify`'s runs over several view formats).
fn make_setup_with(
    shader: &Shader,
    device: &Device,
    o: &RunOptions,
    variant: &[(String, Format)],
) -> Result<Setup, CliError> {
    let mut view_formats = view_formats(shader, o)?;
    view_formats.extend(variant.iter().cloned());
    let choices = Choices {
        ssbo_sizes: buffer_sizes(o)?,
        view_formats,
    };
    let mut setup =
        Setup::default_with(shader, device, o.seed, &choices).map_err(CliError::Setup)?;
    if let Some(g) = &o.grid {
        setup.grid = parse_grid(g)?;
    }
    // Checked before anything is run: a grid the executor would refuse is an option
    // error, not a failure halfway through.
    let limit = ExecConfig::default().max_invocations;
    if dispatch_invocations(shader.local_size, [1, 1, 1], limit).is_err() {
        let [x, y, z] = shader.local_size;
        let size = crate::exec::workgroup_invocations(shader.local_size)
            .map_or_else(|| "more than 2^64".to_string(), |n| n.to_string());
        return Err(CliError::Usage(format!(
            "the shader's workgroup (local_size={x},{y},{z}) has {size} invocations, more \
             than the executor's limit of {} for a whole dispatch",
            limit.min(u32::MAX as u64)
        )));
    }
    if let Err(e) = dispatch_invocations(shader.local_size, setup.grid, limit) {
        return Err(CliError::Usage(match &o.grid {
            Some(_) => format!("--grid: {e}"),
            None => format!(
                "the default grid (covering the largest image): {e}; choose a smaller one \
                 with --grid"
            ),
        }));
    }
    if let Some(n) = o.subgroup {
        // NIR's (and the IR header's) subgroup sizes: powers of two up to SIMD32.
        if ![1, 2, 4, 8, 16, 32].contains(&n) {
            return Err(CliError::Usage(format!(
                "--subgroup: {n} is not one of 1, 2, 4, 8, 16, 32"
            )));
        }
        if let Some(fixed) = shader.subgroup_size.filter(|&f| f != n) {
            return Err(CliError::Usage(format!(
                "--subgroup: the shader fixes subgroup_size={fixed}, so it cannot run in \
                 subgroups of {n}"
            )));
        }
        setup.subgroup_size = n;
    }
    if let Some(n) = o.max_steps {
        if n == 0 {
            return Err(CliError::Usage(
                "--max-steps: a subgroup needs at least 1 step".into(),
            ));
        }
        setup.max_steps = n;
    }
    apply_image_fills(shader, &mut setup, o)?;
    apply_samplers(shader, &mut setup, o)?;
    if let Some(n) = o.global_size {
        if n as u64 > MAX_MEMORY_BYTES {
            return Err(CliError::Usage(format!(
                "--global-size: {n} bytes is more than the limit of {MAX_MEMORY_BYTES} bytes \
                 of memory a run may use"
            )));
        }
        setup.set_global_size(n);
    }
    apply_global_fills(shader, &mut setup, o)?;
    apply_push(&mut setup, o)?;
    match setup.memory_bytes() {
        Some(n) if n <= MAX_MEMORY_BYTES => {}
        n => {
            let need = n.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string());
            let what = format!(
                "the run needs {need} bytes of memory, more than the limit of \
                 {MAX_MEMORY_BYTES}"
            );
            return Err(CliError::Usage(match o.global_size {
                Some(g) if !setup.globals.is_empty() => format!(
                    "--global-size: {} global allocations of {g} bytes: {what}",
                    setup.globals.len()
                ),
                _ => what,
            }));
        }
    }
    Ok(setup)
}

/// A fill named on the command line; a bare `pattern` follows the run's seed.
fn parse_fill(option: &str, spec: &str, text: &str, seed: u64) -> Result<Fill, CliError> {
    match text {
        "pattern" => Ok(Fill::Pattern(seed)),
        f => Fill::parse(f).map_err(|e| CliError::Usage(format!("{option} {spec}: {e}"))),
    }
}

/// The `--image` options that name a view format (`@name=FORMAT`) rather than a fill.
fn format_specs(o: &RunOptions) -> impl Iterator<Item = (&str, &str, Format)> {
    o.images.iter().filter_map(|spec| {
        let (lhs, rhs) = spec.split_once('=')?;
        let f = Format::from_name(rhs).filter(|f| *f != Format::None)?;
        Some((spec.as_str(), lhs, f))
    })
}

/// `--image @name=FORMAT`: the view format of a format-less image, of its sampled
/// type, each image at most once.
fn view_formats(shader: &Shader, o: &RunOptions) -> Result<Vec<(String, Format)>, CliError> {
    let mut out: Vec<(String, Format)> = Vec::new();
    let mut set_by: Vec<&str> = Vec::new();
    for (spec, lhs, format) in format_specs(o) {
        let usage = |why: String| CliError::Usage(format!("--image {spec}: {why}"));
        let name = lhs.strip_prefix('@').ok_or_else(|| {
            usage(format!(
                "name the image with `@`, as the shader does: `@{lhs}={format}`"
            ))
        })?;
        if name.contains('[') {
            return Err(usage(
                "a view format is the whole image's: name it without an element".into(),
            ));
        }
        let Some(id) = shader.image_by_name(name) else {
            return Err(usage(format!("the shader declares no image `@{name}`")));
        };
        let decl = &shader.images[id.index()];
        if decl.format != Format::None {
            return Err(usage(format!(
                "`@{name}` is declared {}; only images of unknown format take a view format",
                decl.format
            )));
        }
        if let Some(t) = crate::setup::sampled_type(shader, id.index()) {
            if format.data_base_type() != Some(t) {
                return Err(usage(format!(
                    "`@{name}` is accessed as {} data and {format} holds {} data",
                    t.name(),
                    format.data_base_type().map_or("no", |b| b.name())
                )));
            }
        }
        if let Some(i) = out.iter().position(|(n, _)| n == name) {
            return Err(usage(format!(
                "the view format of `@{name}` is already set by --image {}",
                set_by[i]
            )));
        }
        out.push((name.to_string(), format));
        set_by.push(spec);
    }
    Ok(out)
}

/// `--sampler @name=STATE`: each declared sampler at most once.
fn apply_samplers(shader: &Shader, setup: &mut Setup, o: &RunOptions) -> Result<(), CliError> {
    for spec in &o.samplers {
        let usage = |why: String| CliError::Usage(format!("--sampler {spec}: {why}"));
        let Some((name, state)) = spec.strip_prefix('@').and_then(|s| s.split_once('=')) else {
            return Err(usage("expected @name=STATE".into()));
        };
        if !shader.samplers.iter().any(|d| d.name == name) {
            return Err(usage(format!("the shader declares no sampler `@{name}`")));
        }
        if setup.samplers.iter().any(|(n, _)| n == name) {
            return Err(usage(format!("the state of `@{name}` is given twice")));
        }
        let state = crate::sampler_state::SamplerState::parse(state).map_err(usage)?;
        setup.samplers.push((name.to_string(), state));
    }
    Ok(())
}

/// `--image @name=FILL` and `@name[i]=FILL`: each image element at most once.
fn apply_image_fills(shader: &Shader, setup: &mut Setup, o: &RunOptions) -> Result<(), CliError> {
    // (image, element) -> the option that set it.
    let mut set_by: Vec<(String, u32, &str)> = Vec::new();
    let formats: Vec<&str> = format_specs(o).map(|(spec, _, _)| spec).collect();
    for spec in o.images.iter().filter(|s| !formats.contains(&s.as_str())) {
        let usage = |why: String| CliError::Usage(format!("--image {spec}: {why}"));
        let (lhs, fill) = spec.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "--image takes @name=FILL or @name=FORMAT, not `{spec}`"
            ))
        })?;
        let fill = parse_fill("--image", spec, fill, o.seed)?;
        // Images are named as the IR names them, with `@`; one spelling only.
        let name = lhs.strip_prefix('@').ok_or_else(|| {
            usage(format!(
                "name the image with `@`, as the shader does: `@{lhs}={}`",
                &spec[lhs.len() + 1..]
            ))
        })?;
        let (name, element) = match name.split_once('[') {
            Some((n, rest)) => {
                let idx = rest
                    .strip_suffix(']')
                    .and_then(|i| i.parse::<u32>().ok())
                    .ok_or_else(|| usage(format!("`{lhs}` is not @name[index]")))?;
                (n, Some(idx))
            }
            None => (name, None),
        };
        let Some(decl) = shader
            .image_by_name(name)
            .map(|i| &shader.images[i.index()])
        else {
            return Err(usage(format!("the shader declares no image `@{name}`")));
        };
        let count = decl.count.unwrap_or(1);
        if let Some(e) = element {
            if decl.count.is_none() || e >= count {
                return Err(usage(format!(
                    "`@{name}` {}",
                    match decl.count {
                        None => "is not an image array".to_string(),
                        Some(c) => format!("has elements 0 to {}", c - 1),
                    }
                )));
            }
        }
        for img in setup.images.iter_mut() {
            if img.image != name || element.is_some_and(|e| e != img.element) {
                continue;
            }
            if let Some((_, _, prev)) = set_by
                .iter()
                .find(|(n, e, _)| n == name && *e == img.element)
            {
                return Err(usage(format!(
                    "{} is already set by --image {prev}",
                    image_label(decl, img.element)
                )));
            }
            set_by.push((name.to_string(), img.element, spec));
            img.fill = fill.clone();
        }
    }
    Ok(())
}

/// `--buffer BLOCK=BYTES`: each storage buffer at most once, within the memory limit.
fn buffer_sizes(o: &RunOptions) -> Result<Vec<(u32, u64)>, CliError> {
    let mut sizes = Vec::new();
    let mut seen: Vec<(u32, &str)> = Vec::new();
    for spec in &o.buffers {
        let bad = |why: String| CliError::Usage(format!("--buffer {spec}: {why}"));
        let (block, bytes) = spec
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--buffer takes BLOCK=BYTES, not `{spec}`")))?;
        let block = parse_offset(block)
            .and_then(|b| u32::try_from(b).ok())
            .ok_or_else(|| bad(format!("`{block}` is not a 32-bit block index")))?;
        let bytes = parse_offset(bytes)
            .ok_or_else(|| bad(format!("`{bytes}` is not a number of bytes")))?;
        if bytes > MAX_MEMORY_BYTES {
            return Err(bad(format!(
                "{bytes} bytes is more than the limit of {MAX_MEMORY_BYTES} bytes of memory \
                 a run may use"
            )));
        }
        if let Some((_, prev)) = seen.iter().find(|(b, _)| *b == block) {
            return Err(bad(format!(
                "ssbo {block} is already sized by --buffer {prev}"
            )));
        }
        seen.push((block, spec));
        sizes.push((block, bytes));
    }
    Ok(sizes)
}

/// `--global OFFSET=FILL`: each allocation at most once.
fn apply_global_fills(shader: &Shader, setup: &mut Setup, o: &RunOptions) -> Result<(), CliError> {
    let mut set_by: Vec<(u64, &str)> = Vec::new();
    for spec in &o.globals {
        let (lhs, fill) = spec
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--global takes OFFSET=FILL, not `{spec}`")))?;
        let fill = parse_fill("--global", spec, fill, o.seed)?;
        let offset = parse_offset(lhs).ok_or_else(|| {
            CliError::Usage(format!(
                "--global {spec}: `{lhs}` is not a push-constant byte offset"
            ))
        })?;
        let g = setup
            .globals
            .iter_mut()
            .find(|g| g.home == PointerHome::PushConstants && u64::from(g.offset) == offset)
            .ok_or_else(|| {
                let slots: Vec<String> = pointer_slots(shader)
                    .iter()
                    .map(|s| format!("{s:#x}"))
                    .collect();
                CliError::Usage(format!(
                    "--global {spec}: no global allocation's pointer is at push constant {offset:#x} \
                     (pointers: {})",
                    if slots.is_empty() || o.global_size == Some(0) {
                        "none".to_string()
                    } else {
                        slots.join(", ")
                    }
                ))
            })?;
        if let Some((_, prev)) = set_by.iter().find(|(at, _)| *at == offset) {
            return Err(CliError::Usage(format!(
                "--global {spec}: the allocation at push constant {offset:#x} is already set \
                 by --global {prev}"
            )));
        }
        set_by.push((offset, spec));
        g.fill = fill;
    }
    Ok(())
}

/// `--push OFFSET=V[,V...]`: within the first 64 KiB, no byte written twice.
fn apply_push(setup: &mut Setup, o: &RunOptions) -> Result<(), CliError> {
    let mut written: Vec<(u64, u64, &str)> = Vec::new();
    for spec in &o.push {
        let bad = |why: String| CliError::Usage(format!("--push {spec}: {why}"));
        let (lhs, values) = spec.split_once('=').ok_or_else(|| {
            CliError::Usage(format!("--push takes OFFSET=V[,V...], not `{spec}`"))
        })?;
        let offset = parse_offset(lhs)
            .filter(|o| o.is_multiple_of(4) && *o < PUSH_LIMIT)
            .ok_or_else(|| {
                bad(format!(
                    "`{lhs}` is not a push-constant byte offset (a multiple of 4 below {PUSH_LIMIT})"
                ))
            })?;
        let mut dwords = Vec::new();
        for v in values.split(',') {
            let v = parse_offset(v.trim())
                .filter(|v| *v <= u32::MAX as u64)
                .ok_or_else(|| bad(format!("`{v}` is not a 32-bit value")))?;
            dwords.push(v as u32);
        }
        // The values were spelled out on the command line: far fewer than 2^62.
        let end = offset + 4 * dwords.len() as u64;
        if end > PUSH_LIMIT {
            return Err(bad(format!(
                "bytes {offset:#x}..{end:#x} go past the {PUSH_LIMIT} bytes of push constants"
            )));
        }
        if let Some((s, e, prev)) = written.iter().find(|(s, e, _)| *s < end && offset < *e) {
            return Err(bad(format!(
                "bytes {offset:#x}..{end:#x} overlap bytes {s:#x}..{e:#x}, set by --push {prev}"
            )));
        }
        written.push((offset, end, spec));
        let (start, end) = (offset as usize, end as usize);
        if let Some(g) = setup.globals.iter().find(|g| {
            g.home == PointerHome::PushConstants
                && (g.offset as usize) < end
                && start < g.offset as usize + 8
        }) {
            return Err(bad(format!(
                "bytes {start:#x}..{end:#x} overlap the pointer slot of {} \
                 (--global-size 0 leaves the push constants to --push)",
                g.name()
            )));
        }
        if setup.push_constants.len() < end {
            setup.push_constants.resize(end, 0);
        }
        for (k, d) in dwords.iter().enumerate() {
            setup.push_constants[start + 4 * k..start + 4 * k + 4]
                .copy_from_slice(&d.to_le_bytes());
        }
    }
    Ok(())
}

/// A decimal or `0x` hexadecimal number.
fn parse_offset(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// `ir-opt run`: runs `source` and returns the summary it prints.
pub fn run(file: &str, source: &str, o: &RunOptions) -> Result<String, CliError> {
    run_shader(&load(file, source)?, o)
}

/// `ir-opt run` on a shader already loaded (the IR text, or a shader a front end
/// imported): runs it and returns the summary it prints.
pub fn run_shader(shader: &Shader, o: &RunOptions) -> Result<String, CliError> {
    let shader = shader.clone();
    let has_messages = shader.entry().and_then(|f| {
        f.insts_in_order()
            .into_iter()
            .find(|&i| {
                f.inst(i)
                    .as_intrinsic()
                    .is_some_and(|x| x.op.info().class == IntrinsicClass::Message)
            })
            .map(|i| (f.inst_span(i), f.inst(i).as_intrinsic().map(|x| x.op)))
    });
    let dev = match (&o.target, has_messages) {
        (Some(t), _) => device(t)?,
        (None, Some((span, op))) => {
            return Err(CliError::Located {
                span,
                message: format!(
                    "the shader sends messages (`@{}`), which run on a platform's surfaces: \
                     pass --target",
                    op.map_or("?", |op| op.name())
                ),
            })
        }
        (None, None) => device("dg2")?,
    };
    let setup = make_setup(&shader, &dev, o)?;
    let mem = setup.build_memory(&shader, &dev).map_err(CliError::Setup)?;
    let initial = mem.clone();
    // Accesses are counted, not logged: the log of a large grid would outgrow any
    // memory.
    let mut config = ExecConfig {
        subgroup_size: setup.subgroup_size,
        log_accesses: false,
        dataport: dev.dataport,
        ..ExecConfig::default()
    };
    config.interp.max_steps = setup.max_steps;
    let mut ex = Executor::with_config(&shader, config);
    ex.memory = mem;
    let r = ex.run(setup.grid).map_err(CliError::Run)?;
    let accesses = r.access_count;
    let mut out = String::new();
    // The run succeeded, so the executor found that the workgroup size fits in 64 bits.
    let _ = writeln!(
        out,
        "ran {} invocations ({} workgroups of {}, subgroups of {}) on {}: {} memory accesses",
        r.invocations,
        setup.grid.iter().map(|&g| g as u64).product::<u64>(),
        shader.local_size.iter().map(|&n| n as u64).product::<u64>(),
        ex.subgroup_size(),
        dev.name,
        accesses
    );
    summarize(&mut out, &shader, &initial, &ex.memory);
    Ok(out)
}

/// What [`compare_shaders`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Whether the two runs agree: both ran and left every byte the same, or both
    /// failed with the same error.
    pub agree: bool,
    /// What was compared, or the first difference.
    pub summary: String,
}

/// Runs two shaders that must compute the same results (two translations of one
/// source) on identical memory, set up for `a` as `run` sets it up (its images, buffers,
/// push constants and grid; `b` must declare the same images), and compares every byte
/// of every image, buffer and global allocation afterwards.
pub fn compare_shaders(a: &Shader, b: &Shader, o: &RunOptions) -> Result<Comparison, CliError> {
    let dev = device(o.target.as_deref().unwrap_or("dg2"))?;
    let setup = make_setup(a, &dev, o)?;
    let run = |s: &Shader| -> Result<Result<Memory, String>, CliError> {
        let mem = setup.build_memory(s, &dev).map_err(CliError::Setup)?;
        let mut config = ExecConfig {
            subgroup_size: setup.subgroup_size,
            log_accesses: false,
            dataport: dev.dataport,
            ..ExecConfig::default()
        };
        config.interp.max_steps = setup.max_steps;
        let mut ex = Executor::with_config(s, config);
        ex.memory = mem;
        Ok(match ex.run(setup.grid) {
            Ok(_) => Ok(ex.memory),
            Err(e) => Err(e.to_string()),
        })
    };
    let (ra, rb) = (run(a)?, run(b)?);
    let (ma, mb) = match (ra, rb) {
        (Ok(ma), Ok(mb)) => (ma, mb),
        (Err(ea), Err(eb)) => {
            return Ok(Comparison {
                agree: true,
                summary: format!("both fail: {ea} / {eb}"),
            })
        }
        (Err(e), Ok(_)) => {
            return Ok(Comparison {
                agree: false,
                summary: format!("only the first fails: {e}"),
            })
        }
        (Ok(_), Err(e)) => {
            return Ok(Comparison {
                agree: false,
                summary: format!("only the second fails: {e}"),
            })
        }
    };
    let (xa, xb) = (ma.allocations(), mb.allocations());
    if xa.len() != xb.len() {
        return Ok(Comparison {
            agree: false,
            summary: format!("{} allocations against {}", xa.len(), xb.len()),
        });
    }
    let mut bytes = 0usize;
    for (x, y) in xa.iter().zip(xb) {
        if let Some(i) = x.bytes.iter().zip(&y.bytes).position(|(p, q)| p != q) {
            return Ok(Comparison {
                agree: false,
                summary: format!(
                    "{} differs at byte {i:#x}: {:#04x} against {:#04x}",
                    x.name, x.bytes[i], y.bytes[i]
                ),
            });
        }
        if x.bytes.len() != y.bytes.len() {
            return Ok(Comparison {
                agree: false,
                summary: format!(
                    "{} has {} bytes against {}",
                    x.name,
                    x.bytes.len(),
                    y.bytes.len()
                ),
            });
        }
        bytes += x.bytes.len();
    }
    Ok(Comparison {
        agree: true,
        summary: format!(
            "{} allocations, {bytes} bytes, the same after {} workgroups",
            xa.len(),
            setup.grid.iter().map(|&g| g as u64).product::<u64>()
        ),
    })
}

/// `ir-opt verify`: lowers and verifies `source`; returns the summary line.
pub fn verify(
    file: &str,
    source: &str,
    o: &RunOptions,
    v: &VerifyOptions,
) -> Result<String, CliError> {
    verify_shader(&load(file, source)?, o, v)
}

/// `ir-opt verify` on a shader already loaded (the IR text, or a shader a front end
/// imported): lowers and verifies it; returns the summary line.
pub fn verify_shader(
    shader: &Shader,
    o: &RunOptions,
    v: &VerifyOptions,
) -> Result<String, CliError> {
    let (dev, variants) = format_variants(shader, o)?;
    let options = lower_options(v)?;
    let mut lowered = None;
    let mut known_inputs = None;
    let mut out = String::new();
    for variant in variants {
        let setup = make_setup_with(shader, &dev, o, &variant)?;
        let l = lower_once(&mut lowered, shader, &dev, &options)?;
        let keep_push = !o.push.is_empty();
        let idle = |r: &Report| r.memory_writes == 0;
        let (report, inputs) =
            with_defined_inputs(&setup, keep_push, &mut known_inputs, idle, |setup| {
                verify_lowered(l, &dev, setup)
            })
            .map_err(CliError::Verify)?;
        out += &outcome(report, &variant, inputs)?;
    }
    Ok(out)
}

/// The lowering of `shader`, made on the first call (after the first run's setup, so
/// that errors come in the order they always did) and kept in `slot`: it depends on
/// the shader, device and options alone, so every run and retry verifies the one pair.
fn lower_once<'a>(
    slot: &'a mut Option<Lowered>,
    shader: &Shader,
    dev: &Device,
    options: &LowerOptions,
) -> Result<&'a Lowered, CliError> {
    if slot.is_none() {
        *slot = Some(lower(shader, dev, options).map_err(CliError::Verify)?);
    }
    Ok(slot.as_ref().expect("lowered above"))
}

/// The view formats of one of `verify`'s runs: each format-less image's name and the
/// format it is bound as.
type Variant = Vec<(String, Format)>;

/// The device `--target` names and the view formats `verify` runs with, one run per
/// entry: with format-less images whose format no `--image @name=FORMAT` picks, each
/// of [`formatless_view_formats`] in turn (all such images take the k-th format of
/// their sampled type in run k); otherwise one run with no choice beyond the options'.
fn format_variants(shader: &Shader, o: &RunOptions) -> Result<(Device, Vec<Variant>), CliError> {
    let chosen = view_formats(shader, o)?;
    let target = o
        .target
        .as_deref()
        .ok_or_else(|| CliError::Usage("verify needs --target PLATFORM".into()))?;
    let dev = device(target)?;
    let open: Vec<(String, Vec<Format>)> = shader
        .images
        .iter()
        .enumerate()
        .filter(|(_, d)| d.format == Format::None && !chosen.iter().any(|(n, _)| *n == d.name))
        .map(|(i, d)| {
            let formats = formatless_view_formats(
                crate::setup::sampled_type(shader, i),
                &dev,
                crate::setup::loads_image(shader, i),
            );
            (d.name.clone(), formats)
        })
        .collect();
    // Run k binds the k-th format of each image (its last when it has fewer), and runs
    // that would bind the same views are made once.
    let runs = open.iter().map(|(_, f)| f.len()).max().unwrap_or(0);
    let mut variants: Vec<Variant> = Vec::new();
    for k in 0..runs {
        let v: Vec<(String, Format)> = open
            .iter()
            .map(|(n, f)| (n.clone(), f[k.min(f.len() - 1)]))
            .collect();
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    if variants.is_empty() {
        variants.push(Vec::new());
    }
    Ok((dev, variants))
}

/// `ir-opt verify --visa`: as [`verify_shader`], and the vISA kernel `backend` makes
/// from the lowered shader (at the subgroup size of the run: `--subgroup`, the
/// shader's, or else the width the back end chooses) runs on the same memory
/// too ([`crate::visa::check::lower_and_verify_visa`]); the summary counts all three
/// forms, and a mismatch of the kernel names its vISA line.
pub fn verify_shader_visa(
    shader: &Shader,
    o: &RunOptions,
    v: &VerifyOptions,
    backend: &dyn Backend,
) -> Result<String, CliError> {
    let (dev, variants) = format_variants(shader, o)?;
    let options = lower_options(v)?;
    let mut lowered = None;
    let mut known_inputs = None;
    // Each width's kernel is emitted once, the free width's by `free_width` itself.
    let mut kernels = Kernels::new(backend);
    let mut free_width = None;
    let mut out = String::new();
    for variant in variants {
        let mut setup = make_setup_with(shader, &dev, o, &variant)?;
        let first = lowered.is_none();
        let l = lower_once(&mut lowered, shader, &dev, &options)?;
        if first && o.subgroup.is_none() && shader.subgroup_size.is_none() {
            let made = backend.free_width(&l.lowered, &dev).map_err(|e| {
                CliError::Verify(VerifyError::Shaders(format!(
                    "the vISA back end made no kernel: {e}"
                )))
            })?;
            if let Some((w, text)) = made {
                kernels.insert(w, text);
                free_width = Some(w);
            }
        }
        if let Some(w) = free_width {
            setup.subgroup_size = w;
        }
        let keep_push = !o.push.is_empty();
        let (verified, inputs) = with_defined_inputs(
            &setup,
            keep_push,
            &mut known_inputs,
            |v: &Verified| v.lowering.memory_writes == 0,
            |setup| verify_lowered_visa(l, &dev, setup, &mut kernels, &RunConfig::default()),
        )
        .map_err(CliError::Verify)?;
        out += &outcome(verified.report(), &variant, inputs)?;
    }
    Ok(out)
}

/// The summary line of a passed report (naming the view formats of a run over
/// several, `verified: ... (@img as r32_float)`, and the simpler contents it ran on
/// if the random ones did not suit the original), or the mismatches.
fn outcome(
    report: Report,
    variant: &[(String, Format)],
    inputs: Option<InputFallback>,
) -> Result<String, CliError> {
    if !report.passed() {
        return Err(CliError::Mismatch {
            report: Box::new(report),
            views: variant.to_vec(),
        });
    }
    let mut line = report.summary();
    if !variant.is_empty() {
        line += &format!(" ({})", views_text(variant));
    }
    if report.memory_writes == 0 {
        line += " (no invocation wrote memory, on the random contents or on any simpler \
                 fill: little was compared)";
    } else if let Some(f) = inputs {
        line += &format!(
            " (on {}: the original shader fails or writes no memory on random contents)",
            f.describe()
        );
    }
    Ok(line + "\n")
}

/// The view formats of one run: `@src as r32_float, @dst as rgba8_unorm`.
fn views_text(variant: &[(String, Format)]) -> String {
    let views: Vec<String> = variant
        .iter()
        .map(|(n, f)| format!("@{n} as {f}"))
        .collect();
    views.join(", ")
}

/// The lowering options `verify` runs with.
fn lower_options(v: &VerifyOptions) -> Result<LowerOptions, CliError> {
    let untyped_address = match v.untyped_address.as_deref() {
        None | Some("bti") => UntypedAddress::Bti,
        Some("a64") => UntypedAddress::A64,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "--untyped-address must be `bti` or `a64`, not `{other}`"
            )))
        }
    };
    Ok(LowerOptions {
        bounds_check: !v.no_bounds_check,
        force_untyped: v.force_untyped,
        untyped_address,
        readonly_via_sampler: v.readonly_via_sampler,
        ..LowerOptions::default()
    })
}

/// FNV-1a, 64 bits.
fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// How many texels of a row the summary shows.
const SHOWN_TEXELS: usize = 3;

/// Appends one line per image level and layer and one per buffer.
fn summarize(out: &mut String, shader: &Shader, initial: &Memory, mem: &Memory) {
    let mut image_allocs = Vec::new();
    for decl in &shader.images {
        for element in 0..decl.count.unwrap_or(1) {
            let Some(b) = decl.binding.checked_add(element).and_then(|i| mem.image(i)) else {
                continue;
            };
            image_allocs.push(b.alloc);
            let label = crate::setup::image_label(decl, element);
            let layout = TexelLayout::from_ir(b.logical_format).ok();
            let tb = b.state_texel_bytes();
            let bytes = &mem.allocation(b.alloc).bytes;
            let changed = bytes != &initial.allocation(b.alloc).bytes;
            match &b.storage {
                ImageStorage::Buffer { elements } => {
                    let _ = writeln!(
                        out,
                        "image {label}: buffer of {elements} {} texels{}",
                        b.logical_format,
                        if changed { ", written" } else { "" }
                    );
                    let positions = texel_positions(&b.storage, tb, tiling::Bit6Swizzle::None);
                    let _ = writeln!(out, "  {}", row_text(&positions, bytes, tb, &layout));
                }
                ImageStorage::Surface { surface, view } => {
                    let d = surface.desc();
                    let _ = writeln!(
                        out,
                        "image {label}: {} {} {}x{}x{}, {} levels, {} layers, {}{}; view {}, layers {}..{}{}",
                        d.dim,
                        b.logical_format,
                        d.width,
                        d.height,
                        d.depth,
                        d.levels,
                        d.array_len,
                        d.tiling.name(),
                        if b.bit6_swizzle.is_enabled() { " (bit-6 swizzled)" } else { "" },
                        if b.levels > 1 {
                            format!("levels {}..{}", view.base_level, view.base_level + b.levels)
                        } else {
                            format!("level {}", view.base_level)
                        },
                        view.base_layer,
                        view.base_layer + view.layer_count,
                        if changed { ", written" } else { "" }
                    );
                    let positions = texel_positions(&b.storage, tb, b.bit6_swizzle);
                    let mut k = 0;
                    while k < positions.len() {
                        let (level, layer) = (positions[k].level, positions[k].layer);
                        let mut e = k;
                        while e < positions.len()
                            && positions[e].level == level
                            && positions[e].layer == layer
                        {
                            e += 1;
                        }
                        // Layers (3D: slices) of the view at its base level; a view
                        // of several levels is whole at the levels below it.
                        let in_view = if level == view.base_level {
                            layer >= view.base_layer && layer < view.base_layer + view.layer_count
                        } else {
                            level > view.base_level
                                && level < view.base_level + b.levels
                                && (d.dim == tiling::SurfDim::D3
                                    || (layer >= view.base_layer
                                        && layer < view.base_layer + view.layer_count))
                        };
                        let _ = writeln!(
                            out,
                            "  {} level {level} layer {layer}: {}",
                            if in_view { "*" } else { " " },
                            row_text(&positions[k..e], bytes, tb, &layout)
                        );
                        k = e;
                    }
                }
            }
        }
    }
    for (n, a) in mem.allocations().iter().enumerate() {
        if image_allocs.contains(&crate::memory::AllocId(n as u32)) {
            continue;
        }
        let before = &initial.allocations()[n].bytes;
        let first = a.bytes.iter().zip(before).position(|(x, y)| x != y);
        let last = a.bytes.iter().zip(before).rposition(|(x, y)| x != y);
        let changed = match (first, last) {
            (Some(f), Some(l)) => format!("bytes {f:#x}..{:#x} changed", l + 1),
            _ => "unchanged".into(),
        };
        let words: Vec<String> = a
            .bytes
            .chunks(4)
            .take(8)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                format!("{:#010x}", u32::from_le_bytes(w))
            })
            .collect();
        let _ = writeln!(
            out,
            "{} ({} bytes): fnv {:#018x}, {changed}; first dwords {}",
            a.name,
            a.bytes.len(),
            fnv(a.bytes.iter().copied()),
            words.join(" ")
        );
    }
}

/// The checksum of some texels (in their order) and the first few, decoded.
fn row_text(
    positions: &[crate::setup::TexelPos],
    bytes: &[u8],
    tb: usize,
    layout: &Option<TexelLayout>,
) -> String {
    let texel = |p: &crate::setup::TexelPos| {
        let o = p.offset as usize;
        bytes.get(o..o + tb).unwrap_or(&[])
    };
    let sum = fnv(positions.iter().flat_map(|p| texel(p).iter().copied()));
    let shown: Vec<String> = positions
        .iter()
        .take(SHOWN_TEXELS)
        .map(|p| {
            let t = texel(p);
            let v = layout
                .as_ref()
                .and_then(|l| l.decode(t).ok().map(|rgba| decoded(l, &rgba)))
                .unwrap_or_else(|| format!("{t:02x?}"));
            format!("({},{})={v}", p.x, p.y)
        })
        .collect();
    format!(
        "{} texels, fnv {sum:#018x}; {}",
        positions.len(),
        shown.join(" ")
    )
}

/// The channels of a decoded texel, in RGBA order.
fn decoded(layout: &TexelLayout, rgba: &[u64; 4]) -> String {
    let parts = layout.channel_texts(rgba);
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "shader compute (local_size=4,4,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    @image_store (@img, %1, %0.x) (src_type=uint32)
}
";

    #[test]
    fn grids_parse() {
        assert_eq!(parse_grid("3").unwrap(), [3, 1, 1]);
        assert_eq!(parse_grid("3,2").unwrap(), [3, 2, 1]);
        assert_eq!(parse_grid("3, 2,5").unwrap(), [3, 2, 5]);
        for bad in ["", "0", "1,2,3,4", "a", "1,,2", "-1", "4294967296"] {
            let e = parse_grid(bad).unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "error: --grid: expected 1 to 3 positive 32-bit numbers separated by \
                     commas (X,Y,Z), not `{bad}`"
                )
            );
        }
    }

    #[test]
    fn run_prints_images_and_rejects_bad_fills() {
        let o = RunOptions {
            grid: Some("1".into()),
            images: vec!["@img=zero".into()],
            ..RunOptions::default()
        };
        let text = run("t.ir", SRC, &o).unwrap();
        assert!(text.starts_with("ran 16 invocations (1 workgroups of 16, subgroups of 16) on dg2: 16 memory accesses"), "{text}");
        // Row 0 of the view: texels (0..3, 0) hold their x.
        assert!(text.contains("(0,0)=0 (1,0)=1 (2,0)=2"), "{text}");
        let bad = RunOptions {
            images: vec!["@img=noise".into()],
            ..RunOptions::default()
        };
        let e = run("t.ir", SRC, &bad).unwrap_err().to_string();
        assert_eq!(
            e,
            "error: --image @img=noise: unknown fill `noise`; expected zero, pattern, pattern:SEED or gradient"
        );
        let bad = RunOptions {
            images: vec!["@other=zero".into()],
            ..RunOptions::default()
        };
        let e = run("t.ir", SRC, &bad).unwrap_err().to_string();
        assert!(e.contains("declares no image `@other`"), "{e}");
    }

    const POINTER: &str = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0)
    64   %1 = @load_push_constant (%0) (base=0, range=16)
    32   %2 = @load_push_constant (%0) (base=8, range=16)
    @store_global (%2, %1) (access=none, align_mul=4)
}
";

    #[test]
    fn global_and_push_options() {
        let shader = load("t.ir", POINTER).unwrap();
        let dev = device("dg2").unwrap();
        let o = RunOptions {
            global_size: Some(32),
            globals: vec!["0x0=gradient".into()],
            push: vec!["8=0x11223344,5".into(), "300=7".into()],
            ..RunOptions::default()
        };
        let s = make_setup(&shader, &dev, &o).unwrap();
        assert_eq!(s.globals.len(), 1);
        assert_eq!(s.globals[0].size, 32);
        assert_eq!(s.globals[0].fill, Fill::Gradient);
        assert_eq!(
            &s.push_constants[8..16],
            &[0x44, 0x33, 0x22, 0x11, 5, 0, 0, 0]
        );
        // Past the default 256 bytes: zeros up to the value.
        assert_eq!(s.push_constants.len(), 304);
        assert_eq!(
            &s.push_constants[256..304],
            &[[0u8; 44].as_slice(), &[7, 0, 0, 0]].concat()
        );
        // The run stores push constant 8 at the pointer: dword 0 of the global.
        let text = run("t.ir", POINTER, &o).unwrap();
        assert!(
            text.contains("global (push constant 0x0) (32 bytes): fnv 0x")
                && text.contains(", bytes 0x0..0x4 changed; first dwords 0x11223344 0x00000001"),
            "{text}"
        );
        for (opts, want) in [
            (
                RunOptions {
                    push: vec!["6=1".into()],
                    ..RunOptions::default()
                },
                "error: --push 6=1: `6` is not a push-constant byte offset (a multiple of 4 below 65536)",
            ),
            (
                RunOptions {
                    push: vec!["8=0x100000000".into()],
                    ..RunOptions::default()
                },
                "error: --push 8=0x100000000: `0x100000000` is not a 32-bit value",
            ),
            (
                RunOptions {
                    push: vec!["8".into()],
                    ..RunOptions::default()
                },
                "error: --push takes OFFSET=V[,V...], not `8`",
            ),
            (
                RunOptions {
                    globals: vec!["x=zero".into()],
                    ..RunOptions::default()
                },
                "error: --global x=zero: `x` is not a push-constant byte offset",
            ),
            (
                RunOptions {
                    globals: vec!["0=noise".into()],
                    ..RunOptions::default()
                },
                "error: --global 0=noise: unknown fill `noise`; expected zero, pattern, pattern:SEED or gradient",
            ),
        ] {
            let e = make_setup(&shader, &dev, &opts).unwrap_err().to_string();
            assert_eq!(e, want);
        }
    }

    /// A loop of `n` iterations, each storing its counter to texel (0, 0).
    fn loop_of(n: u32) -> String {
        format!(
            "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {{
  block b0:
    32   %0 = load_const (0)
    32   %1 = load_const (1)
    32   %2 = load_const ({n})
    32x2 %3 = vec2 %0, %0
  loop {{
    block b1:
      32 %4 = phi b0: %0, b3: %5
      1  %6 = uge %4, %2
    if %6 {{
      block b2:
        break
    }} else {{
      block b4:
    }}
    block b3:
      32 %5 = iadd %4, %1
  }}
  block b5:
    @image_store (@img, %3, %4) (src_type=uint32)
}}
"
        )
    }

    #[test]
    fn the_step_budget_lets_long_loops_finish_and_can_be_set() {
        // 400,000 iterations of 6 steps: refused as "infinite" by the old limit of
        // 1,000,000 blocks, well within the default budget.
        let o = RunOptions {
            grid: Some("1".into()),
            ..RunOptions::default()
        };
        let text = run("t.ir", &loop_of(400_000), &o).unwrap();
        assert!(text.contains("(0,0)=400000 "), "{text}");
        // A smaller budget stops it, naming the option that raises it.
        let small = RunOptions {
            max_steps: Some(1000),
            ..o.clone()
        };
        let e = run("t.ir", &loop_of(400_000), &small).unwrap_err();
        let shown = e.render("t.ir", &loop_of(400_000));
        assert!(
            shown.contains("more than 1000 steps") && shown.contains("--max-steps N"),
            "{shown}"
        );
        let v = verify(
            "t.ir",
            &loop_of(400_000),
            &RunOptions {
                target: Some("dg2".into()),
                max_steps: Some(1000),
                ..o.clone()
            },
            &VerifyOptions::default(),
        )
        .unwrap_err()
        .render("t.ir", &loop_of(400_000));
        assert!(
            v.contains("the original shader failed") && v.contains("--max-steps N"),
            "{v}"
        );
        let zero = RunOptions {
            max_steps: Some(0),
            ..o
        };
        let e = run("t.ir", &loop_of(3), &zero).unwrap_err().to_string();
        assert_eq!(e, "error: --max-steps: a subgroup needs at least 1 step");
    }

    #[test]
    fn verify_reports_and_fails() {
        let o = RunOptions {
            target: Some("tgl".into()),
            ..RunOptions::default()
        };
        let text = verify("t.ir", SRC, &o, &VerifyOptions::default()).unwrap();
        assert!(text.starts_with("verified: "), "{text}");
        assert!(text.ends_with(" accesses, 0 mismatches\n"), "{text}");
        // Without the bounds check, the default grid's stores past the image go through.
        let v = VerifyOptions {
            force_untyped: true,
            no_bounds_check: true,
            ..VerifyOptions::default()
        };
        let e = verify("t.ir", SRC, &o, &v).unwrap_err();
        assert!(matches!(e, CliError::Mismatch { .. }), "{e}");
        let e = verify(
            "t.ir",
            SRC,
            &RunOptions::default(),
            &VerifyOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "error: verify needs --target PLATFORM");
    }

    #[test]
    fn a_failed_run_over_view_formats_names_them() {
        let report = Report {
            invocations: 4,
            accesses: 8,
            mismatch_count: 2,
            by_kind: [(crate::verifier::MismatchKind::Value, 2)]
                .into_iter()
                .collect(),
            ..Report::default()
        };
        let views = [("depth".to_string(), Format::R32Float)];
        let e = outcome(report.clone(), &views, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "verification failed with @depth as r32_float: 4 invocations, 8 accesses, \
             2 mismatches (value 2)\n... and 2 more mismatches\n"
        );
        // A single run names nothing.
        let e = outcome(report, &[], None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("verification failed: 4 invocations"),
            "{e}"
        );
    }
}
