//! `ir-opt`: reads a shader (the IR's text, or SPIR-V, WGSL or GLSL through the front
//! end), runs a pass pipeline, prints the result.
//!
//! See `ir-opt --help` for the options and examples.

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use ir::passes::manager::{PassManager, RunError};
use std::io::IsTerminal;
use std::process::ExitCode;
use tools::{load_shader, read_bytes, read_input, write_output, Failure, OptionError};

const EXAMPLES: &str = "\
Examples:
  ir-opt examples/blur.ir                      parse, validate and print
  ir-opt tests/corpus/x.comp --target dg2 -O   import GLSL (compiled by glslang), then lower
  ir-opt shader.spv --spec 0=64 --spec 1=true  specialize constants 0 and 1
  ir-opt x.comp --descriptors 0.1=4            4 descriptors in the runtime array at set 0, binding 1
  ir-opt shader.spv --entry main               import one entry point of a SPIR-V module
  ir-opt examples/blur.ir -p cse,dce           run passes
  ir-opt examples/blur.ir --target dg2 -O      lower images for DG2, then clean up
  ir-opt examples/blur.ir --target dg2 -O --emit visa
  ir-opt examples/blur.ir --target pvc -O --emit visa --check-with-igc
  ir-opt examples/blur.ir --target ivb -O --force-untyped --stats
  cat shader.ir | ir-opt - -o out.ir --verify --print-after-all
  ir-opt run examples/blur.ir --image @src=gradient --grid 5,3,1
  ir-opt verify examples/blur.ir --target ivb --force-untyped
  ir-opt verify examples/blur.ir --target pvc --visa   also run the vISA kernel";

/// The text after the options: the examples, then every registered pass, so that the
/// list cannot drift from the registry.
fn after_help() -> String {
    format!(
        "{EXAMPLES}\n\n{}\nLogging: RUST_LOG=debug ir-opt ...",
        tools::pipeline::help_text()
    )
}

#[derive(Parser)]
#[command(
    name = "ir-opt",
    version,
    about = "Optimize and lower NIR-style IR shaders for Intel GPUs",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    opt: OptArgs,
}

/// Subcommands; without one, ir-opt optimizes FILE.
#[derive(Subcommand)]
enum Command {
    /// Execute a shader (image intrinsics at the reference level, messages with the
    /// hardware's semantics) and print its images and buffers afterwards.
    #[command(after_help = fills_help())]
    Run(RunArgs),
    /// Lower a shader (the -O pipeline: optimize, lower-non-uniform-access,
    /// lower-float-atomics, lower-images, lower-async-copies, cleanup), run both versions
    /// on the same memory and compare every access, value, texel and buffer byte.
    #[command(after_help = fills_help())]
    Verify(VerifyArgs),
}

/// The text after the options of `run` and `verify`.
fn fills_help() -> String {
    format!(
        "\
Images of unknown format: --image @name=FORMAT binds a view of FORMAT (of the image's
sampled type); otherwise run binds RGBA8 of that type and verify runs once each with
RGBA8, a 16-bit and a 32-bit format of it (float: rgba8_unorm, rgba16_float, r32_float).
Image fills (--image @name=FILL, or @name[i]=FILL for one element of an array; the name
keeps its @, and each element may be set once):
  zero          every byte 0
  pattern       random valid texels (finite floats) from --seed, random padding
  pattern:SEED  the same from SEED
  gradient      channel c of texel (x, y), layer z, level l from n = x + 2y + 3z + 5c + 7l:
                integers n, normalized and float channels (n mod 64) / 63
Surfaces: 2D 37x19 with 3 levels, arrays of 4 layers, 3D 9x7x5, cubes 8x8, buffers of
300 texels, tilings and views chosen by --seed; the default grid covers the largest
image plus a margin, so some accesses fall outside.
Buffers: each block of a `buffer` declaration gets its declared size, a runtime array
16384 elements of its stride; blocks used but not declared get 64 KiB (storage) or 4 KiB
(uniform); --buffer BLOCK=BYTES sizes a storage buffer; get_ssbo_size returns the size.
Global memory: every 64-bit push constant read at a constant, 8-byte-aligned offset is a
pointer to a global allocation of its own (--global-size bytes, a pattern from --seed;
--global OFFSET=gradient puts k in the dword at byte 4k), compared byte by byte after
both runs. Shared memory is not compared: copy results out of it.
Limits: at most {} invocations (workgroups times the workgroup size) and {} MiB
of images, buffers and global memory per run; each subgroup executes at most --max-steps
steps (instructions and blocks; default {}), enough for loops of hundreds of thousands
of iterations, while a runaway loop stops within seconds.",
        verify::exec::DEFAULT_MAX_INVOCATIONS,
        verify::setup::MAX_MEMORY_BYTES >> 20,
        ir::interp::DEFAULT_MAX_STEPS
    )
}

/// The front end that reads an input.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum From {
    /// A SPIR-V binary module.
    Spirv,
    /// WGSL text.
    Wgsl,
    /// GLSL compute shader text.
    Glsl,
}

impl From {
    fn language(self) -> frontend::Language {
        match self {
            From::Spirv => frontend::Language::SpirV,
            From::Wgsl => frontend::Language::Wgsl,
            From::Glsl => frontend::Language::Glsl,
        }
    }
}

/// How an input is read: the IR's text, or a shader through naga.
#[derive(Args)]
struct SourceArgs {
    /// Read FILE as SPIR-V, WGSL or GLSL (default: by extension, `.spv`, `.wgsl`,
    /// `.comp`, `.glsl`; anything else is the IR's text).
    #[arg(long, value_name = "LANG", value_enum)]
    from: Option<From>,
    /// The compute entry point to import from a SPIR-V, WGSL or GLSL module (default:
    /// its only one).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Specialize constant ID (SPIR-V SpecId, GLSL constant_id, WGSL @id) to VALUE: an
    /// integer, a float, or a boolean (true/false, 1/0); repeatable. The others keep
    /// their defaults.
    #[arg(long = "spec", value_name = "ID=VALUE")]
    spec: Vec<String>,
    /// The descriptor count N of the runtime descriptor array (`image2D imgs[]`) at
    /// descriptor set SET, binding BINDING, as the pipeline layout gives it
    /// (VkDescriptorSetLayoutBinding::descriptorCount); repeatable. Arrays not named
    /// have 8 descriptors.
    #[arg(long = "descriptors", value_name = "SET.BINDING=N")]
    descriptors: Vec<String>,
}

/// The descriptor counts `--descriptors` gives.
fn descriptor_counts(args: &[String]) -> Result<frontend::DescriptorCounts, Failure> {
    let mut map = frontend::DescriptorCounts::new();
    for a in args {
        let bad =
            |why: &str| Failure(OptionError::new("--descriptors", format!("`{a}`: {why}")).line());
        let (key, count) = a
            .split_once('=')
            .ok_or_else(|| bad("expected SET.BINDING=N"))?;
        let (set, binding) = key
            .split_once('.')
            .ok_or_else(|| bad("expected SET.BINDING=N (a set and a binding, joined by `.`)"))?;
        let number = |t: &str, what: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| bad(&format!("the {what} is not a whole number")))
        };
        let (set, binding, count) = (
            number(set, "SET")?,
            number(binding, "BINDING")?,
            number(count, "count N")?,
        );
        // The count's range is the front end's to check (frontend::descriptor_count),
        // with the binding in its error.
        if map.insert((set, binding), count).is_some() {
            return Err(bad("the binding is given twice"));
        }
    }
    Ok(map)
}

/// The specialization `--spec` gives.
fn spec_map(args: &[String]) -> Result<frontend::SpecMap, Failure> {
    let mut map = frontend::SpecMap::new();
    for a in args {
        let bad = |why: &str| Failure(OptionError::new("--spec", format!("`{a}`: {why}")).line());
        let (id, value) = a.split_once('=').ok_or_else(|| bad("expected ID=VALUE"))?;
        let id: u32 = id
            .trim()
            .parse()
            .map_err(|_| bad("the ID is not a whole number"))?;
        let v = frontend::SpecValue::parse(value)
            .ok_or_else(|| bad("the VALUE is not an integer, a float, true or false"))?;
        if map.insert(id, v).is_some() {
            return Err(bad("the ID is given twice"));
        }
    }
    Ok(map)
}

/// Options shared by `run` and `verify`.
#[derive(Args)]
struct ExecArgs {
    /// Input file, or `-` for standard input.
    file: String,
    #[command(flatten)]
    source: SourceArgs,
    /// Workgroups to dispatch: `X[,Y[,Z]]` (default: cover the largest image plus a margin).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    grid: Option<String>,
    /// Lanes per subgroup: 1, 2, 4, 8, 16 or 32 (default 16, or the shader's
    /// subgroup_size; with `verify --visa`, the width `--emit visa` chooses).
    #[arg(long, value_name = "N", value_parser = parse_u32, allow_hyphen_values = true)]
    subgroup: Option<u32>,
    /// Seed of the surface choices and fills.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_u64,
          allow_hyphen_values = true)]
    seed: u64,
    /// Initial contents of an image, @name=FILL, or the view format of an image of
    /// unknown format, @name=FORMAT (repeatable; see below).
    #[arg(long = "image", value_name = "@NAME=FILL|FORMAT")]
    images: Vec<String>,
    /// Bytes of each global allocation a 64-bit push-constant pointer points to
    /// (default 65536; 0: none).
    #[arg(long, value_name = "N", value_parser = parse_usize, allow_hyphen_values = true)]
    global_size: Option<usize>,
    /// Initial contents of the global allocation whose pointer is at push-constant byte
    /// OFFSET: OFFSET=FILL (repeatable; zero, pattern, pattern:SEED, gradient).
    #[arg(long = "global", value_name = "OFFSET=FILL")]
    globals: Vec<String>,
    /// Push-constant dwords from byte OFFSET on: OFFSET=V[,V...] (repeatable; decimal or
    /// 0x hexadecimal; the rest of the push constants is a pattern from --seed).
    #[arg(long = "push", value_name = "OFFSET=V,...")]
    push: Vec<String>,
    /// Size in bytes of storage buffer BLOCK: BLOCK=BYTES (repeatable; default: the
    /// shader's buffer declaration, a runtime array with 16384 elements).
    #[arg(long = "buffer", value_name = "BLOCK=BYTES")]
    buffers: Vec<String>,
    /// Step budget of each subgroup: the instructions and blocks it may execute before
    /// the run stops as a runaway loop (default: see Limits below).
    #[arg(long, value_name = "N", value_parser = parse_u64, allow_hyphen_values = true)]
    max_steps: Option<u64>,
    /// The sampler state bound at a `sampler` declaration: @name=STATE, STATE a
    /// comma-separated list of nearest|linear, mip_nearest|mip_linear, an address mode
    /// (clamp_to_edge, repeat, mirrored_repeat, mirror_clamp_to_edge) or u=/v=/w= one,
    /// min_lod=F, max_lod=F (repeatable; default linear,mip_nearest,clamp_to_edge).
    #[arg(long = "sampler", value_name = "@NAME=STATE")]
    samplers: Vec<String>,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    exec: ExecArgs,
    /// Platform whose surface layouts (and message semantics) to use (default: DG2's
    /// layouts; needed to run messages).
    #[arg(long, value_name = "PLATFORM")]
    target: Option<String>,
}

#[derive(Args)]
struct VerifyArgs {
    #[command(flatten)]
    exec: ExecArgs,
    /// Platform to lower for: a code name (ivb, byt, hsw, bdw, skl, icl, tgl, dg2, mtl,
    /// arl, pvc, lnl, bmg, ...) or a generation (9, 12.5, ...), as tile-calc --gen.
    #[arg(long, value_name = "PLATFORM")]
    target: String,
    /// lower-images: use the untyped fallback even where typed messages would do.
    #[arg(long)]
    force_untyped: bool,
    /// lower-images: omit bounds checks on the untyped path.
    #[arg(long)]
    no_bounds_check: bool,
    /// Untyped address model: bti or a64 (default bti).
    #[arg(long, value_name = "MODEL", value_enum)]
    untyped_address: Option<AddressModel>,
    /// lower-images: read read-only images through the sampler (ld / ld_lz).
    #[arg(long)]
    readonly_via_sampler: bool,
    /// Also run the vISA kernel of the lowered shader (as `--emit visa` makes it, at
    /// the --subgroup width, else at the width `--emit visa` chooses) in the vISA
    /// interpreter on the same memory; its mismatches name the vISA line.
    #[arg(long)]
    visa: bool,
}

/// The untyped path's address model.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum AddressModel {
    /// 32-bit offsets into a raw view of the image.
    Bti,
    /// 64-bit global addresses.
    A64,
}

impl AddressModel {
    fn name(self) -> &'static str {
        match self {
            AddressModel::Bti => "bti",
            AddressModel::A64 => "a64",
        }
    }
}

/// What to print.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// The IR text.
    Ir,
    /// A whole vISA kernel (`.version 4.1`) for IGC's finalizer, GenX_IR.
    Visa,
}

#[derive(Args)]
struct OptArgs {
    /// Input file, or `-` for standard input (the default when standard input is not a
    /// terminal; with neither FILE nor piped input, ir-opt prints its usage).
    file: Option<String>,
    #[command(flatten)]
    source: SourceArgs,
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
    /// Comma-separated pass pipeline, run in order (repeatable; see the passes below).
    #[arg(short = 'p', long = "passes", value_name = "PASS,...")]
    passes: Vec<String>,
    /// The default pipeline: optimize (NIR's loop), lower-images, lower-async-copies, then cleanup (needs --target).
    #[arg(short = 'O')]
    optimize: bool,
    /// Platform to lower for: a code name (ivb, byt, hsw, bdw, skl, icl, tgl, dg2, mtl,
    /// arl, pvc, lnl, bmg, ...) or a generation (9, 12.5, ...), as tile-calc --gen.
    /// Gfx4-6 parts are accepted and have no storage images: lowering an image access
    /// for them is an error.
    #[arg(long, value_name = "PLATFORM")]
    target: Option<String>,
    /// lower-images: use the untyped fallback even where typed messages would do.
    #[arg(long)]
    force_untyped: bool,
    /// lower-images: omit bounds checks on the untyped path.
    #[arg(long)]
    no_bounds_check: bool,
    /// lower-images: read read-only images through the sampler (ld / ld_lz).
    #[arg(long)]
    readonly_via_sampler: bool,
    /// Untyped address model for lower-images: bti (32-bit offsets into a raw view of the
    /// image) or a64 (64-bit global addresses). Default bti.
    #[arg(long, value_name = "MODEL", value_enum)]
    untyped_address: Option<AddressModel>,
    /// Output form.
    #[arg(long, value_enum, default_value = "ir")]
    emit: Emit,
    /// With --emit visa: compile the kernel with IGC's vISA finalizer (GenX_IR, Debian
    /// package libigc-tools) for the target and report its verdict; exit status 1 with
    /// GenX_IR's errors when it rejects the kernel.
    #[arg(long)]
    check_with_igc: bool,
    /// With --emit visa: the kernel's SIMD width (8, 16 or 32) when the shader fixes no
    /// subgroup_size (default 16).
    #[arg(long, value_name = "N", value_parser = parse_u32)]
    simd: Option<u32>,
    /// Validate the shader after every pass.
    #[arg(long)]
    verify: bool,
    /// Print the shader (to stderr) after every pass.
    #[arg(long)]
    print_after_all: bool,
    /// Print instruction counts by kind (to stderr) at the end.
    #[arg(long)]
    stats: bool,
    /// Print the time spent in each pass (to stderr).
    #[arg(long)]
    time_passes: bool,
}

/// A whole number for a `u64` option, with a message naming the range.
fn parse_u64(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number from 0 to {}", u64::MAX))
}

/// A whole number for a `u32` option.
fn parse_u32(text: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number from 0 to {}", u32::MAX))
}

/// A whole number for a byte count.
fn parse_usize(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number from 0 to {}", usize::MAX))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,naga=error"))
        .init();
    let command = Cli::command().after_help(after_help());
    let cli: Cli = match tools::command_line::parse(command) {
        Ok(cli) => cli,
        Err(exit) => return exit.report(),
    };
    let result = match &cli.command {
        // Nothing to read: no file, and standard input is the terminal, where reading
        // would wait silently for text the user does not know to type.
        None if cli.opt.file.is_none() && std::io::stdin().is_terminal() => {
            eprintln!(
                "error: no input: give a FILE, or pipe a shader into standard input \
                 (`-` reads the terminal)\n"
            );
            eprint!("{}", Cli::command().render_usage());
            eprintln!("\n\nFor more information, try '--help'.");
            return ExitCode::FAILURE;
        }
        None => optimize(&cli.opt),
        Some(Command::Run(a)) => run(a),
        Some(Command::Verify(a)) => verify(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(msg)) => {
            eprintln!("{}", msg.trim_end());
            ExitCode::FAILURE
        }
    }
}

fn run_options(e: &ExecArgs, target: Option<String>) -> verify::cli::RunOptions {
    verify::cli::RunOptions {
        target,
        grid: e.grid.clone(),
        subgroup: e.subgroup,
        seed: e.seed,
        images: e.images.clone(),
        global_size: e.global_size,
        globals: e.globals.clone(),
        push: e.push.clone(),
        buffers: e.buffers.clone(),
        max_steps: e.max_steps,
        samplers: e.samplers.clone(),
    }
}

/// A loaded input: the shader, the input's name for messages, and the text that
/// diagnostics point into (the IR text, or the WGSL or GLSL source; empty for SPIR-V,
/// whose imported instructions carry no text positions).
struct Input {
    shader: ir::Shader,
    file: String,
    text: String,
}

/// Reads `path` as the IR's text, or as SPIR-V, WGSL or GLSL (by `--from`, else by
/// extension) through the front end, and validates it.
fn load(path: &str, source: &SourceArgs) -> Result<Input, Failure> {
    let file = if path == "-" { "<stdin>" } else { path }.to_string();
    let language = match source.from {
        Some(f) => Some(f.language()),
        None => frontend::Language::from_path(path),
    };
    let Some(language) = language else {
        if !source.descriptors.is_empty() {
            return Err(Failure(
                OptionError::new(
                    "--descriptors",
                    "counts the runtime descriptor arrays of a SPIR-V, WGSL or GLSL input; this \
                     input is the IR's text, whose arrays have their lengths",
                )
                .line(),
            ));
        }
        if !source.spec.is_empty() {
            return Err(Failure(
                OptionError::new(
                    "--spec",
                    "specializes a SPIR-V, WGSL or GLSL input; this input is the IR's text",
                )
                .line(),
            ));
        }
        if source.entry.is_some() {
            return Err(Failure(
                OptionError::new(
                    "--entry",
                    "selects an entry point of a SPIR-V, WGSL or GLSL input; this input is \
                     the IR's text (name a .spv, .wgsl, .comp or .glsl file, or pass --from)",
                )
                .line(),
            ));
        }
        let text = read_input(path)?;
        let shader = load_shader(&file, &text)?;
        return Ok(Input { shader, file, text });
    };
    let (_, bytes) = read_bytes(path)?;
    let options = frontend::Options {
        entry: source.entry.clone(),
        spec: spec_map(&source.spec)?,
        descriptors: descriptor_counts(&source.descriptors)?,
        // `#include`s resolve beside the file (the front end reads a bare file name's
        // empty directory as `.`).
        include_dirs: std::path::Path::new(path)
            .parent()
            .map(|d| d.to_path_buf())
            .into_iter()
            .collect(),
    };
    let imported = frontend::import_with(&bytes, language, &options).map_err(|e| {
        let text = language
            .is_text()
            .then(|| String::from_utf8_lossy(&bytes).into_owned());
        Failure(e.render(&file, text.as_deref()))
    })?;
    if language != frontend::Language::Wgsl {
        for id in options.spec.keys() {
            if !imported.spec_constants.iter().any(|c| c.spec_id == *id) {
                let mut ids: Vec<u32> = imported.spec_constants.iter().map(|c| c.spec_id).collect();
                ids.sort_unstable();
                ids.dedup();
                let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
                return Err(Failure(
                    OptionError::new(
                        "--spec",
                        format!(
                            "the module has no specialization constant {id} ({})",
                            if ids.is_empty() {
                                "it has none".to_string()
                            } else {
                                format!("its ids are {}", ids.join(", "))
                            }
                        ),
                    )
                    .line(),
                ));
            }
        }
    }
    let runtime: Vec<(u32, u32)> = imported
        .bindings
        .iter()
        .filter(|b| b.runtime_array)
        .map(|b| (b.group, b.binding))
        .collect();
    // The front end ignores counts of other bindings, as a pipeline layout counts every
    // binding; on the command line such a count is a mistake (a wrong set or binding).
    if let Some((set, binding)) = options
        .descriptors
        .keys()
        .find(|key| !runtime.contains(key))
    {
        let uses = if runtime.is_empty() {
            "it uses none".to_string()
        } else {
            let keys: Vec<String> = runtime.iter().map(|(s, b)| format!("{s}.{b}")).collect();
            format!("it uses {}", keys.join(", "))
        };
        return Err(Failure(
            OptionError::new(
                "--descriptors",
                format!(
                    "entry point `{}` uses no runtime descriptor array at set {set}, binding \
                     {binding} ({uses})",
                    imported.entry
                ),
            )
            .line(),
        ));
    }
    log::info!(
        "imported entry point `{}` of {file} ({} resources)",
        imported.entry,
        imported.bindings.len()
    );
    // Spans point into the text: the input's own, or, for a SPIR-V module with debug
    // lines, the source file its OpLine names (read when it is there).
    let (file, text) = if language.is_text() {
        (file, String::from_utf8_lossy(&bytes).into_owned())
    } else if let Some(src) = &imported.source_file {
        let beside = std::path::Path::new(path)
            .parent()
            .map(|d| d.join(src))
            .filter(|p| p.exists());
        let text = beside
            .or_else(|| Some(std::path::PathBuf::from(src)))
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        (src.clone(), text)
    } else {
        (file, String::new())
    };
    Ok(Input {
        shader: imported.shader,
        file,
        text,
    })
}

fn run(a: &RunArgs) -> Result<(), Failure> {
    let input = load(&a.exec.file, &a.exec.source)?;
    let (file, source) = (&input.file, &input.text);
    let o = run_options(&a.exec, a.target.clone());
    let text =
        verify::cli::run_shader(&input.shader, &o).map_err(|e| Failure(e.render(file, source)))?;
    write_output(None, &text)
}

fn verify(a: &VerifyArgs) -> Result<(), Failure> {
    let input = load(&a.exec.file, &a.exec.source)?;
    let (file, source) = (&input.file, &input.text);
    let o = run_options(&a.exec, Some(a.target.clone()));
    let v = verify::cli::VerifyOptions {
        force_untyped: a.force_untyped,
        no_bounds_check: a.no_bounds_check,
        untyped_address: a.untyped_address.map(|m| m.name().to_string()),
        readonly_via_sampler: a.readonly_via_sampler,
    };
    let text = if a.visa {
        verify::cli::verify_shader_visa(&input.shader, &o, &v, &VisaBackend)
    } else {
        verify::cli::verify_shader(&input.shader, &o, &v)
    };
    write_output(None, &text.map_err(|e| Failure(e.render(file, source)))?)
}

/// The vISA back end as `verify --visa` runs it: at a given width, or at the one
/// `--emit visa` chooses (brw's rule, confirmed by GenX_IR's spill reports when it is
/// installed).
struct VisaBackend;

impl verify::visa::check::Backend for VisaBackend {
    fn emit(
        &self,
        lowered: &ir::Shader,
        device: &lowering::Device,
        simd: u32,
    ) -> Result<String, String> {
        visa::emit_kernel(lowered, device, &visa::Options::with_simd(simd))
            .map(|k| k.text)
            .map_err(|e| e.to_string())
    }

    fn free_width(
        &self,
        lowered: &ir::Shader,
        device: &lowering::Device,
    ) -> Result<Option<(u32, String)>, String> {
        // The kernel `--emit visa` prints, with its width: the run checks it as it is;
        // where it makes none, its error (the narrowest width's).
        visa::emit_confirmed(lowered, device, &visa::Options::default())
            .map(|c| Some((c.kernel.abi.simd, c.kernel.text)))
            .map_err(|e| e.to_string())
    }
}

/// The device `--target` names: any name of the platform table, the names
/// `tile-calc --gen` takes.
fn target_device(name: &str) -> Result<lowering::Device, Failure> {
    lowering::Device::preset(name).ok_or_else(|| {
        Failure(format!(
            "error: unknown --target `{name}`; expected one of: {}",
            tools::target_names()
        ))
    })
}

fn optimize(args: &OptArgs) -> Result<(), Failure> {
    let Input {
        shader,
        file,
        text: source,
    } = load(args.file.as_deref().unwrap_or("-"), &args.source)?;
    let file = file.as_str();
    log::info!("loaded {file}: {} function(s)", shader.functions.len());
    let device = args.target.as_deref().map(target_device).transpose()?;
    let mut shader = shader;
    run_pipeline(args, device.as_ref(), &mut shader, file, &source)?;
    if args.emit != Emit::Visa {
        for (flag, on) in [
            ("--check-with-igc", args.check_with_igc),
            ("--simd", args.simd.is_some()),
        ] {
            if on {
                return Err(Failure(
                    OptionError::new(flag, "applies to --emit visa only").line(),
                ));
            }
        }
    }
    let text = match args.emit {
        Emit::Ir => ir::print_shader(&shader),
        Emit::Visa => {
            let device = device
                .as_ref()
                .ok_or_else(|| Failure("error: --emit visa needs --target".into()))?;
            let options = match args.simd {
                Some(w) => visa::Options::with_simd(w),
                None => visa::Options::default(),
            };
            // A free width is brw's choice among those that fit, by the pressure model
            // and, when GenX_IR is installed, by its spill reports
            // (`visa::emit_confirmed`).
            let (kernel, verdict) = if args.simd.is_none() && shader.subgroup_size.is_none() {
                let c = visa::emit_confirmed(&shader, device, &options)
                    .map_err(|e| tools::render(&[e.to_diagnostic()], file, &source))?;
                for (w, bytes) in &c.spilled {
                    log::info!("SIMD{w}: GenX_IR spilled {bytes} bytes; trying narrower");
                }
                (c.kernel, c.verdict)
            } else {
                let k = visa::emit_kernel(&shader, device, &options)
                    .map_err(|e| tools::render(&[e.to_diagnostic()], file, &source))?;
                (k, None)
            };
            if args.check_with_igc {
                check_with_igc(&kernel, device, verdict)?;
            }
            kernel.text
        }
    };
    if args.stats {
        eprint!("{}", ir::stats::Stats::of(&shader));
    }
    write_output(args.output.as_deref(), &text)
}

/// Runs GenX_IR on the kernel and reports its verdict on stderr; a rejection is a
/// failure carrying GenX_IR's errors.
/// `verdict` is GenX_IR's verdict on the kernel if width selection compiled it already.
fn check_with_igc(
    kernel: &visa::Kernel,
    device: &lowering::Device,
    verdict: Option<Result<visa::igc::Compiled, visa::igc::CheckError>>,
) -> Result<(), Failure> {
    let platform = kernel.genx_platform.ok_or_else(|| {
        Failure(format!(
            "error: --check-with-igc: {}",
            visa::igc::CheckError::NoPlatform {
                platform: device.name.clone()
            }
        ))
    })?;
    // A kernel emitted to spill (no width fits its values) is taken with its spills.
    let compile = || match kernel.spill_estimate {
        Some(_) => visa::igc::compile_spilling(&kernel.text, platform),
        None => visa::igc::compile(&kernel.text, platform),
    };
    match verdict.unwrap_or_else(compile) {
        Ok(c) => {
            let mode = if c.registers == 128 {
                String::new()
            } else {
                format!(", with {} registers", c.registers)
            };
            let spills = match c.spill_bytes {
                Some(b) => format!(
                    ", spilling {b} bytes a thread to scratch: no SIMD width fits the values"
                ),
                None => String::new(),
            };
            eprintln!(
                "GenX_IR -platform {platform}: accepted ({} sends{mode}{spills})",
                c.sends.len()
            );
            for s in &c.sends {
                eprintln!(
                    "  desc:0x{:08x} ex_desc:0x{:08x}  {}",
                    s.desc, s.ex_desc, s.line
                );
            }
            Ok(())
        }
        Err(e) => Err(Failure(format!("error: GenX_IR -platform {platform}: {e}"))),
    }
}

/// The pipeline `-p` asks for, in order; every `-p` text is checked on its own first,
/// so that a problem (an empty pass name in `cse,,dce`) is reported against the text the
/// user wrote. `-O` is not part of it: it runs `lowering::lower_shader` first.
fn pipeline_text(args: &OptArgs) -> Result<String, Failure> {
    let mut items: Vec<String> = Vec::new();
    for text in &args.passes {
        tools::pipeline::check_text(text).map_err(|e| Failure(e.line()))?;
        items.push(text.clone());
    }
    Ok(items.join(","))
}

/// The lowering options given on the command line, refused when neither `-O` nor a
/// pass of the pipeline would read them.
fn check_lowering_options(args: &OptArgs, pipeline: &str) -> Result<(), Failure> {
    let given = [
        ("--force-untyped", args.force_untyped),
        ("--no-bounds-check", args.no_bounds_check),
        ("--readonly-via-sampler", args.readonly_via_sampler),
        ("--untyped-address", args.untyped_address.is_some()),
    ];
    let lowers = args.optimize
        || ir::passes::manager::split_pipeline(pipeline)
            .map(|items| items.iter().any(|(name, _)| name == "lower-images"))
            .unwrap_or(true);
    match given.iter().find(|(_, on)| *on) {
        Some((option, _)) if !lowers => Err(Failure(
            OptionError::new(
                option,
                "configures lower-images, which the pipeline does not run (add -O or \
                 -p lower-images)",
            )
            .line(),
        )),
        _ => Ok(()),
    }
}

fn run_pipeline(
    args: &OptArgs,
    device: Option<&lowering::Device>,
    shader: &mut ir::Shader,
    file: &str,
    source: &str,
) -> Result<(), Failure> {
    let text = pipeline_text(args)?;
    check_lowering_options(args, &text)?;
    let defaults = lowering::LowerOptions {
        bounds_check: !args.no_bounds_check,
        force_untyped: args.force_untyped,
        readonly_via_sampler: args.readonly_via_sampler,
        untyped_address: match args.untyped_address.unwrap_or(AddressModel::Bti) {
            AddressModel::Bti => lowering::UntypedAddress::Bti,
            AddressModel::A64 => lowering::UntypedAddress::A64,
        },
        ..lowering::LowerOptions::default()
    };
    if args.optimize {
        let device = device.ok_or_else(|| {
            Failure(OptionError::new("-O", "lowers for a platform: pass --target").line())
        })?;
        optimize_with_lower_shader(args, device, &defaults, shader, file, source)?;
    }
    if text.is_empty() {
        return Ok(());
    }
    let registry = tools::pipeline::registry(device, defaults);
    let mut pm = PassManager::parse_pipeline(&text, &registry)
        .map_err(|e| Failure(format!("error: {e}")))?;
    pm.set_verify(args.verify);
    if args.print_after_all {
        pm.print_after_each(|name, s| {
            eprint!("// ----- after {name} -----\n{}", ir::print_shader(s))
        });
    }
    let result = pm.run(shader);
    if args.time_passes {
        eprint!("{}", pm.timing_report());
    }
    result
        .map(|_| ())
        .map_err(|e| pipeline_failure(&e, file, source))
}

/// A failed pipeline as ir-opt prints it: the reasons first (every diagnostic with its
/// source line and caret, so the first line says what is wrong), then a note naming
/// the pass they came from.
fn pipeline_failure(e: &RunError, file: &str, source: &str) -> Failure {
    let context = match e {
        RunError::InvalidInput(_) => "the input shader is invalid".to_string(),
        RunError::Pass(p) => format!("pass `{}` failed", p.pass),
        RunError::InvalidAfter { pass, .. } => {
            format!("the shader is invalid after pass `{pass}` (a bug in that pass)")
        }
    };
    let diags = e.diagnostics();
    if diags.is_empty() {
        return Failure(format!("error: {context}"));
    }
    let details = tools::render(diags, file, source);
    let count = match diags.len() {
        1 => "1 error".to_string(),
        n => format!("{n} errors"),
    };
    Failure(format!(
        "{}\nnote: {context} ({count})",
        details.0.trim_end()
    ))
}

/// `-O`: the default pipeline, `lowering::lower_shader`, with `--print-after-all`,
/// `--time-passes` and `--verify` applied to its stages.
fn optimize_with_lower_shader(
    args: &OptArgs,
    device: &lowering::Device,
    options: &lowering::LowerOptions,
    shader: &mut ir::Shader,
    file: &str,
    source: &str,
) -> Result<(), Failure> {
    let mut timings: Vec<(String, std::time::Duration)> = Vec::new();
    let mut invalid: Option<(String, Vec<ir::diag::Diagnostic>)> = None;
    let mut last = std::time::Instant::now();
    let result = lowering::lower_shader_with(shader, device, options, &mut |stage, s| {
        timings.push((stage.to_string(), last.elapsed()));
        if args.print_after_all {
            eprint!("// ----- after {stage} -----\n{}", ir::print_shader(s));
        }
        if args.verify && invalid.is_none() {
            if let Err(d) = ir::validate(s) {
                invalid = Some((stage.to_string(), d));
            }
        }
        last = std::time::Instant::now();
    });
    if args.time_passes {
        eprint!("{}", tools::stage_timing_report(&timings));
    }
    if let Some((stage, diagnostics)) = invalid {
        return Err(Failure(format!(
            "error: the shader is invalid after pass `{stage}`\n{}",
            tools::render(&diagnostics, file, source)
        )));
    }
    result.map(|_| ()).map_err(|errors| {
        let hints = tools::LoweringFlags {
            force_untyped: args.force_untyped,
            no_bounds_check: args.no_bounds_check,
            untyped_address_a64: args.untyped_address == Some(AddressModel::A64),
        };
        // The reasons first, so the first line says what is wrong; then which step.
        let details = tools::render(&tools::lowering_diagnostics(&errors, &hints), file, source);
        let n = errors.len();
        Failure(format!(
            "{}\nnote: the -O pipeline failed ({n} error{})",
            details.0.trim_end(),
            if n == 1 { "" } else { "s" }
        ))
    })
}
