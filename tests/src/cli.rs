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
//! from byte `OFFSET` on, for shaders that read sizes or offsets from them. Fills (`--image @name=FILL`, for every element
//! of an image array, or `@name[i]=FILL` for one):
//!
//! | fill | contents |
//! |---|---|
//! | `zero` | all bytes 0 |
//! | `pattern` | random valid texels (finite floats) from the run's seed, random padding |
//! | `pattern:SEED` | the same from `SEED` |
//! | `gradient` | channel `c` of texel (x, y) of layer z, level l from `n = x + 2y + 3z + 5c + 7l`: integers `n`, normalized and float channels `(n mod 64) / 63` |

use crate::exec::{ExecConfig, Executor};
use crate::memory::{ImageStorage, Memory};
use crate::setup::{pointer_slots, texel_positions, Fill, Setup, SetupError};
use crate::texel::{ChannelKind, TexelLayout};
use crate::verifier::{lower_and_verify, Report, VerifyError};
use ir::{IntrinsicClass, Shader};
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

/// Why a command failed; its `Display` is what goes to standard error (exit status 1).
#[derive(Debug)]
pub enum CliError {
    /// A bad option value.
    Usage(String),
    /// The input does not parse or validate (rendered diagnostics).
    Input(String),
    /// The setup cannot be built.
    Setup(SetupError),
    /// The shader failed to run.
    Run(String),
    /// The lowering or the verification could not be carried out.
    Verify(VerifyError),
    /// Verification found mismatches.
    Mismatch(Report),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "error: {m}"),
            CliError::Input(m) => f.write_str(m),
            CliError::Setup(e) => write!(f, "error: cannot set up the run: {e}"),
            CliError::Run(m) => write!(f, "error: the shader failed: {m}"),
            CliError::Verify(e) => write!(f, "error: {e}"),
            CliError::Mismatch(r) => write!(f, "{r}"),
        }
    }
}

impl std::error::Error for CliError {}

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
            "--grid takes 1 to 3 positive numbers separated by commas (X,Y,Z), not `{text}`"
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

/// The setup of a run: defaults for `shader` on `device`, then the options.
fn make_setup(shader: &Shader, device: &Device, o: &RunOptions) -> Result<Setup, CliError> {
    let mut setup = Setup::default_for(shader, device, o.seed).map_err(CliError::Setup)?;
    if let Some(g) = &o.grid {
        setup.grid = parse_grid(g)?;
    }
    if let Some(n) = o.subgroup {
        if !(1..=32).contains(&n) {
            return Err(CliError::Usage(format!(
                "--subgroup must be 1 to 32, not {n}"
            )));
        }
        setup.subgroup_size = n;
    }
    for spec in &o.images {
        let (lhs, fill) = spec
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--image takes @name=FILL, not `{spec}`")))?;
        // A bare `pattern` follows the run's seed.
        let fill = match fill {
            "pattern" => Fill::Pattern(o.seed),
            f => Fill::parse(f).map_err(|e| CliError::Usage(format!("--image {spec}: {e}")))?,
        };
        let name = lhs.strip_prefix('@').unwrap_or(lhs);
        let (name, element) = match name.split_once('[') {
            Some((n, rest)) => {
                let idx = rest
                    .strip_suffix(']')
                    .and_then(|i| i.parse::<u32>().ok())
                    .ok_or_else(|| {
                        CliError::Usage(format!("--image {spec}: `{lhs}` is not @name[index]"))
                    })?;
                (n, Some(idx))
            }
            None => (name, None),
        };
        let mut found = false;
        for img in setup.images.iter_mut() {
            if img.image == name && element.is_none_or(|e| e == img.element) {
                img.fill = fill.clone();
                found = true;
            }
        }
        if !found {
            return Err(CliError::Usage(format!(
                "--image {spec}: the shader declares no image `{lhs}`"
            )));
        }
    }
    if let Some(n) = o.global_size {
        setup.set_global_size(n);
    }
    for spec in &o.globals {
        let (lhs, fill) = spec
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--global takes OFFSET=FILL, not `{spec}`")))?;
        let fill = match fill {
            "pattern" => Fill::Pattern(o.seed),
            f => Fill::parse(f).map_err(|e| CliError::Usage(format!("--global {spec}: {e}")))?,
        };
        let offset = parse_offset(lhs).ok_or_else(|| {
            CliError::Usage(format!(
                "--global {spec}: `{lhs}` is not a push-constant byte offset"
            ))
        })?;
        let g = setup
            .globals
            .iter_mut()
            .find(|g| g.push_offset as u64 == offset)
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
        g.fill = fill;
    }
    for spec in &o.push {
        let bad = |why: String| CliError::Usage(format!("--push {spec}: {why}"));
        let (lhs, values) = spec.split_once('=').ok_or_else(|| {
            CliError::Usage(format!("--push takes OFFSET=V[,V...], not `{spec}`"))
        })?;
        let offset = parse_offset(lhs)
            .filter(|o| o.is_multiple_of(4) && *o < 1 << 16)
            .ok_or_else(|| {
                bad(format!(
                    "`{lhs}` is not a push-constant byte offset (a multiple of 4 below 65536)"
                ))
            })?;
        let mut dwords = Vec::new();
        for v in values.split(',') {
            let v = parse_offset(v.trim())
                .filter(|v| *v <= u32::MAX as u64)
                .ok_or_else(|| bad(format!("`{v}` is not a 32-bit value")))?;
            dwords.push(v as u32);
        }
        let start = offset as usize;
        let end = start + 4 * dwords.len();
        if let Some(g) = setup
            .globals
            .iter()
            .find(|g| (g.push_offset as usize) < end && start < g.push_offset as usize + 8)
        {
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
    Ok(setup)
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
    let shader = load(file, source)?;
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
            return Err(CliError::Usage(format!(
                "the shader sends messages (`@{}` at {span}), which run on a platform's \
                 surfaces: pass --target",
                op.map_or("?", |op| op.name())
            )))
        }
        (None, None) => device("dg2")?,
    };
    let setup = make_setup(&shader, &dev, o)?;
    let mem = setup.build_memory(&shader, &dev).map_err(CliError::Setup)?;
    let initial = mem.clone();
    let mut ex = Executor::with_config(
        &shader,
        ExecConfig {
            subgroup_size: setup.subgroup_size,
            ..ExecConfig::default()
        },
    );
    ex.memory = mem;
    let r = ex
        .run(setup.grid)
        .map_err(|e| CliError::Run(e.to_string()))?;
    let accesses = r.accesses.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ran {} invocations ({} workgroups of {}, subgroups of {}) on {}: {} memory accesses",
        r.invocations,
        setup.grid.iter().map(|&g| g as u64).product::<u64>(),
        shader.workgroup_invocations(),
        setup.subgroup_size,
        dev.name,
        accesses
    );
    summarize(&mut out, &shader, &initial, &ex.memory);
    Ok(out)
}

/// `ir-opt verify`: lowers and verifies `source`; returns the summary line.
pub fn verify(
    file: &str,
    source: &str,
    o: &RunOptions,
    v: &VerifyOptions,
) -> Result<String, CliError> {
    let shader = load(file, source)?;
    let target = o
        .target
        .as_deref()
        .ok_or_else(|| CliError::Usage("verify needs --target PLATFORM".into()))?;
    let dev = device(target)?;
    let untyped_address = match v.untyped_address.as_deref() {
        None | Some("bti") => UntypedAddress::Bti,
        Some("a64") => UntypedAddress::A64,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "--untyped-address must be `bti` or `a64`, not `{other}`"
            )))
        }
    };
    let options = LowerOptions {
        bounds_check: !v.no_bounds_check,
        force_untyped: v.force_untyped,
        untyped_address,
        readonly_via_sampler: v.readonly_via_sampler,
    };
    let setup = make_setup(&shader, &dev, o)?;
    let report = lower_and_verify(&shader, &dev, &options, &setup).map_err(CliError::Verify)?;
    if report.passed() {
        Ok(format!("{}\n", report.summary()))
    } else {
        Err(CliError::Mismatch(report))
    }
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
            let Some(b) = mem.image(decl.binding + element) else {
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
                    let positions = texel_positions(&b.storage, tb, false);
                    let _ = writeln!(out, "  {}", row_text(&positions, bytes, tb, &layout));
                }
                ImageStorage::Surface { surface, view } => {
                    let d = surface.desc();
                    let _ = writeln!(
                        out,
                        "image {label}: {} {} {}x{}x{}, {} levels, {} layers, {}{}; view level {}, layers {}..{}{}",
                        d.dim,
                        b.logical_format,
                        d.width,
                        d.height,
                        d.depth,
                        d.levels,
                        d.array_len,
                        d.tiling.name(),
                        if b.bit6_swizzle { " (bit-6 swizzled)" } else { "" },
                        view.base_level,
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
                        let in_view = level == view.base_level
                            && layer >= view.base_layer
                            && layer < view.base_layer + view.layer_count;
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
    let mut chans: Vec<_> = layout.channels.iter().collect();
    chans.sort_by_key(|c| c.slot);
    let parts: Vec<String> = chans
        .iter()
        .map(|c| {
            let v = rgba[c.slot as usize];
            match c.kind {
                ChannelKind::Uint | ChannelKind::Raw => v.to_string(),
                ChannelKind::Sint if c.bits == 64 => (v as i64).to_string(),
                ChannelKind::Sint => (v as u32 as i32).to_string(),
                _ if c.bits == 64 => format!("{:?}", f64::from_bits(v)),
                _ => format!("{:?}", f32::from_bits(v as u32)),
            }
        })
        .collect();
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
        for bad in ["", "0", "1,2,3,4", "a", "1,,2"] {
            let e = parse_grid(bad).unwrap_err().to_string();
            assert!(
                e.starts_with("error: --grid takes 1 to 3 positive numbers"),
                "{e}"
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
        assert!(matches!(e, CliError::Mismatch(_)), "{e}");
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
}
