//! `tile-calc`: lays out an Intel GPU surface the way Mesa's isl does and prints the
//! layout, or the byte offset of one texel; `tile-calc formats` lists the formats.
//!
//! See `tile-calc --help` for the options. The layout itself comes from the `tiling`
//! crate; this file only turns options into a [`SurfaceDesc`] and results into text.
//!
//! Error contract: every problem with the options, including those clap detects, is
//! printed as one line `error: --OPTION: what is wrong` on stderr with exit status 1;
//! `--help` and `--version` print to stdout with exit status 0.

use clap::{Args, CommandFactory, Parser, Subcommand};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::process::ExitCode;
use tiling::{
    AddressError, Bit6Swizzle, Format, Gen, ImageInfo, LayoutError, SurfDim, Surface, SurfaceDesc,
    Tiling, UnsupportedFormat, Usage,
};
use tools::OptionError;

const EXAMPLES: &str = "\
Examples:
  tile-calc layout --gen bdw --format r8g8b8a8_unorm --dim 2d --width 512 --height 512 \\
      --levels 10 --tiling y
  tile-calc layout --gen dg2 --format R16G16B16A16_UINT --dim 3d --width 33 --depth 8 \\
      --levels 5 --tiling 64 --json
  tile-calc offset --gen lnl --format rgba8_unorm --dim 2d --width 256 --height 128 \\
      --array-len 3 --tiling 64 --texel 195,99,2,0
  tile-calc offset --gen ivb --format r8_unorm --dim 2d --width 1024 --height 64 \\
      --tiling x --texel 354,33,0,0 --swizzle
  tile-calc formats

Surfaces are single-sampled and have no auxiliary (CCS/MCS/HiZ) surface, as with isl's
DISABLE_AUX usage. Cube maps: --width and --height must be equal, --array-len counts
cubes, and each cube has six layers, so layer (the Z of --texel and the `layer` of the
layout) is 6 * cube + face. Logging: RUST_LOG=debug tile-calc ...";

const SURFACE_HELP: &str = "\
Surface options (shared by both commands):
  --gen G         4, 5, 6, 7, 7.5, 8, 9, 11, 12, 12.5, 20, or a platform: ivb, byt, hsw,
                  bdw, skl, icl, tgl, dg2, mtl, arl, pvc, lnl, bmg, ... (the names
                  ir-opt --target takes)
  --format F      an isl format name in any case: r8g8b8a8_unorm, R32G32B32A32_FLOAT,
                  bc1_unorm, astc_ldr_2d_5x4_flt16, ... (short names such as
                  rgba8_unorm work too); `tile-calc formats` lists them
  --dim D         1d, 2d, 3d or cube
  --tiling T      linear, x, y, w, yf, ys, 4, 64 (yf, ys and 64 resolve to the
                  generation's variant: SKL or ICL Yf/Ys, Gfx12.5 or Xe2 Tile64)
  --usage U       texture (default), storage, render-target, stencil (or depth);
                  combine with +, e.g. storage+texture";

const LAYOUT_OUTPUT: &str = "\
Output: a table of the surface facts, then one row per image. With --json, one JSON
object on one line, with isl's names: row_pitch_B, array_pitch_el_rows, halign_el,
valign_el, dalign_el, size_B, miptail_start_level (isl's value: the first level in
the mip tail, or the number of levels when there is no tail), dim_layout (gfx4_2d,
gfx4_3d, gfx9_1d or gfx6_stencil_hiz), tile_w_el, tile_h_el, tile_d_el,
tile_phys_w_B, tile_phys_h, and images: one {level, layer, z, x_el, y_el,
z_el} per level and array layer (3D: per level and slice), the origin that
isl_surf_get_image_offset_el reports. Yf, Ys and Tile64 surfaces keep 3D slices (plus
any mip-tail z) in z_el and 2D layers as a separate array offset, equal to `layer`, of
array_pitch_el_rows rows each: neither is folded into y_el. For gfx4_3d,
array_pitch_el_rows is isl's nominal value and is not used for addressing.";

const FORMATS_OUTPUT: &str = "\
Output: one row per format tile-calc lays out, in the order of isl's format table
(Mesa's src/intel/isl/isl_format_layout.csv): the isl name, bits per element (per
block for compressed formats), the block in pixels, and notes: the compression
(isl's txc: dxt1, bptc, etc2, astc, ...), srgb, yuv, and storage for the formats isl
accepts for storage images. Then the isl formats tile-calc does not lay out, each with
the reason.";

const OFFSET_OUTPUT: &str = "\
Output: the byte offset of the texel's first byte from the surface base, in decimal,
alone on one line.";

fn command_help(output: &str) -> String {
    format!("{SURFACE_HELP}\n\n{output}")
}

#[derive(Parser)]
#[command(
    name = "tile-calc",
    version,
    about = "Lay out Intel GPU surfaces as Mesa's isl does: layout facts and texel byte offsets",
    after_help = EXAMPLES,
    subcommand_required = true,
    arg_required_else_help = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the surface layout: pitch, alignment, tile, size, and where every image
    /// (level, layer or 3D slice) starts.
    #[command(after_help = command_help(LAYOUT_OUTPUT))]
    Layout {
        #[command(flatten)]
        surface: SurfaceArgs,
        /// Print one JSON object (isl's field names) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the byte offset from the surface base of one texel, in decimal.
    #[command(after_help = command_help(OFFSET_OUTPUT))]
    Offset {
        #[command(flatten)]
        surface: SurfaceArgs,
        /// The texel: X and Y in elements of the level (Y is 0 for 1D), Z the array
        /// layer (cube: 6 * cube + face) or the 3D slice, LEVEL the mip level.
        #[arg(
            long,
            value_name = "X,Y,Z,LEVEL",
            value_parser = parse_texel,
            allow_hyphen_values = true
        )]
        texel: Texel,
        /// Apply Mesa's bit-6 address swizzle (Gfx4 to Gfx7.5 X and Y surfaces).
        #[arg(long)]
        swizzle: bool,
    },
    /// List the formats --format takes (isl's names, element size, block), then isl's
    /// other formats with the reason tile-calc does not lay them out.
    #[command(after_help = FORMATS_OUTPUT)]
    Formats,
}

#[derive(Args)]
struct SurfaceArgs {
    /// Generation or platform (see below).
    #[arg(long, value_name = "G", value_parser = parse_gen)]
    gen: Gen,
    /// Format, an isl name (see below).
    #[arg(long, value_name = "F", value_parser = parse_format)]
    format: Format,
    /// Dimensionality: 1d, 2d, 3d or cube.
    #[arg(long, value_name = "D", value_parser = parse_dim)]
    dim: Dim,
    /// Width in pixels.
    #[arg(long, value_name = "W", value_parser = parse_count, allow_negative_numbers = true)]
    width: u32,
    /// Height in pixels.
    #[arg(long, value_name = "H", value_parser = parse_count, default_value = "1", allow_negative_numbers = true)]
    height: u32,
    /// Depth in pixels (3D).
    #[arg(long, value_name = "D", value_parser = parse_count, default_value = "1", allow_negative_numbers = true)]
    depth: u32,
    /// Number of mip levels.
    #[arg(long, value_name = "L", value_parser = parse_count, default_value = "1", allow_negative_numbers = true)]
    levels: u32,
    /// Array layers; for cube maps, the number of cubes (six layers each).
    #[arg(long, value_name = "A", value_parser = parse_count, default_value = "1", allow_negative_numbers = true)]
    array_len: u32,
    /// Tiling (see below).
    #[arg(long, value_name = "T", value_parser = parse_tiling)]
    tiling: Tiling,
    /// Usage flags (see below).
    #[arg(long, value_name = "U", value_parser = parse_usage, default_value = "texture")]
    usage: Usage,
}

/// `--dim`: isl's dimensionalities plus cube, which isl expresses as a 2D surface with
/// the cube usage flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    Surf(SurfDim),
    Cube,
}

/// `--texel X,Y,Z,LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Texel {
    x: u32,
    y: u32,
    z: u32,
    level: u32,
}

fn parse_gen(s: &str) -> Result<Gen, String> {
    s.parse::<Gen>().map_err(|e| e.to_string())
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse::<Format>().map_err(|e| e.to_string())
}

fn parse_dim(s: &str) -> Result<Dim, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "1d" => Ok(Dim::Surf(SurfDim::D1)),
        "2d" => Ok(Dim::Surf(SurfDim::D2)),
        "3d" => Ok(Dim::Surf(SurfDim::D3)),
        "cube" => Ok(Dim::Cube),
        _ => Err(format!(
            "unknown dimension `{s}` (expected 1d, 2d, 3d or cube)"
        )),
    }
}

fn parse_tiling(s: &str) -> Result<Tiling, String> {
    s.parse::<Tiling>().map_err(|e| e.to_string())
}

/// Usage flags joined with `+`. `cube` is refused: the cube flag changes what
/// `--array-len` counts, so `--dim cube` is the one way to ask for it.
fn parse_usage(s: &str) -> Result<Usage, String> {
    const EXPECTED: &str = "expected texture, storage, render-target, stencil or depth, \
                            joined with +";
    let mut usage = Usage::NONE;
    for part in s.split('+') {
        let flag = part
            .parse::<Usage>()
            .ok()
            .filter(|u| *u != Usage::NONE && *u != Usage::CUBE);
        match flag {
            Some(u) => usage |= u,
            None if part.trim().eq_ignore_ascii_case("cube") => {
                return Err("cube is not a usage here; use --dim cube".into())
            }
            None => return Err(format!("unknown usage `{}` ({EXPECTED})", part.trim())),
        }
    }
    Ok(usage)
}

/// A size or count: a whole number of at least 1.
fn parse_count(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("`{s}` is too large (at most {})", u32::MAX))
        }
        _ => Err(format!("expected a whole number of at least 1, got `{s}`")),
    }
}

fn parse_texel(s: &str) -> Result<Texel, String> {
    let bad = || format!("expected X,Y,Z,LEVEL, got `{s}`");
    let parts: Vec<u32> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    match parts[..] {
        [x, y, z, level] => Ok(Texel { x, y, z, level }),
        _ => Err(bad()),
    }
}

/// The options that set the surface's extent, for errors about its overall size.
fn extent_options(dim: Dim) -> &'static str {
    match dim {
        Dim::Surf(SurfDim::D1) => "--width/--array-len",
        Dim::Surf(SurfDim::D2) | Dim::Cube => "--width/--height/--array-len",
        Dim::Surf(SurfDim::D3) => "--width/--height/--depth",
    }
}

/// The option that a `SurfaceDesc` field came from.
fn field_option(what: &str) -> &'static str {
    match what {
        "width" => "--width",
        "height" => "--height",
        "depth" => "--depth",
        "levels" => "--levels",
        _ => "--array-len",
    }
}

/// Names the option responsible for a layout error.
fn layout_error(e: &LayoutError, args: &SurfaceArgs) -> OptionError {
    let msg = e.to_string();
    let cube_note = |m: String| {
        if args.dim == Dim::Cube {
            format!("{m} (a cube has six layers)")
        } else {
            m
        }
    };
    match e {
        LayoutError::Tile(_) | LayoutError::TilingNotAllowed { .. } => {
            OptionError::new("--tiling", msg)
        }
        LayoutError::ZeroExtent { what }
        | LayoutError::ExtentTooLarge { what, .. }
        | LayoutError::MustBeOne { what, .. } => {
            let opt = field_option(what);
            if opt == "--array-len" {
                OptionError::new(opt, cube_note(msg))
            } else {
                OptionError::new(opt, msg)
            }
        }
        LayoutError::TooManyLevels { .. } => OptionError::new("--levels", msg),
        LayoutError::Cube { .. } => OptionError::new("--dim", msg),
        LayoutError::UsageFormat { .. } => OptionError::new("--usage", msg),
        // The row pitch follows from the width (no pitch option exists).
        LayoutError::RowPitchTooSmall { .. }
        | LayoutError::RowPitchMisaligned { .. }
        | LayoutError::RowPitchOutOfRange { .. } => OptionError::new("--width", msg),
        LayoutError::SizeTooLarge { .. } => OptionError::new(extent_options(args.dim), msg),
        // tile-calc always asks for one sample.
        LayoutError::Multisampled { .. } => OptionError::general(msg),
    }
}

/// Builds the surface, checking the cube-only rules first so their errors name the
/// option the user wrote.
fn build_surface(args: &SurfaceArgs) -> Result<Surface, OptionError> {
    let (dim, mut usage, array_len) = match args.dim {
        Dim::Surf(d) => (d, args.usage, args.array_len),
        Dim::Cube => {
            if args.width != args.height {
                return Err(OptionError::new(
                    "--height",
                    format!(
                        "cube faces must be square (width {}, height {})",
                        args.width, args.height
                    ),
                ));
            }
            if args.depth != 1 {
                return Err(OptionError::new(
                    "--depth",
                    format!("depth must be 1 for cube surfaces, got {}", args.depth),
                ));
            }
            if args.gen == Gen::Gfx4 && args.array_len != 1 {
                return Err(OptionError::new(
                    "--array-len",
                    format!(
                        "Gfx4 has no cube arrays (it lays a cube out as a 3D surface), got {} \
                         cubes",
                        args.array_len
                    ),
                ));
            }
            // isl counts cube layers, six per cube.
            let layers = args.array_len.checked_mul(6).ok_or_else(|| {
                OptionError::new(
                    "--array-len",
                    format!("{} cubes is too many", args.array_len),
                )
            })?;
            (SurfDim::D2, args.usage, layers)
        }
    };
    if args.dim == Dim::Cube {
        usage |= Usage::CUBE;
    }
    let desc = SurfaceDesc::new(args.gen, dim, args.format, args.tiling)
        .extent(args.width, args.height, args.depth)
        .levels(args.levels)
        .array_len(array_len)
        .usage(usage);
    Surface::new(desc).map_err(|e| layout_error(&e, args))
}

/// `images` entry fields: (layer, z) of an image, splitting isl's layer-or-slice index.
fn layer_and_z(s: &Surface, image: &ImageInfo) -> (u32, u32) {
    if s.dim() == SurfDim::D3 {
        (0, image.layer_or_z)
    } else {
        (image.layer_or_z, 0)
    }
}

/// A JSON object with its keys in the given order (serde_json's map sorts them).
fn json_object(fields: &[(&str, Value)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{}", Value::from(*k), v))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// The `--json` output: isl's field names, surface facts first, then `images`.
fn layout_json(s: &Surface) -> String {
    let tile = s.tile_logical_extent_el();
    let images: Vec<String> = s
        .images()
        .map(|i| {
            let (layer, z) = layer_and_z(s, &i);
            json_object(&[
                ("level", json!(i.level)),
                ("layer", json!(layer)),
                ("z", json!(z)),
                ("x_el", json!(i.offset.x_el)),
                ("y_el", json!(i.offset.y_el)),
                ("z_el", json!(i.offset.z_el)),
            ])
        })
        .collect();
    let facts = json_object(&[
        ("row_pitch_B", json!(s.row_pitch_B())),
        ("array_pitch_el_rows", json!(s.array_pitch_el_rows())),
        ("halign_el", json!(s.halign_el())),
        ("valign_el", json!(s.valign_el())),
        ("dalign_el", json!(s.dalign_el())),
        ("size_B", json!(s.size_B())),
        ("miptail_start_level", json!(s.miptail_start_level())),
        (
            "dim_layout",
            json!(s.dim_layout().name().to_ascii_lowercase()),
        ),
        ("tile_w_el", json!(tile.w)),
        ("tile_h_el", json!(tile.h)),
        ("tile_d_el", json!(tile.d)),
        ("tile_phys_w_B", json!(s.tile_phys_width_B())),
        ("tile_phys_h", json!(s.tile_phys_height())),
    ]);
    // Splice the images array in as the last key.
    format!(
        "{},\"images\":[{}]}}",
        facts.strip_suffix('}').unwrap_or(&facts),
        images.join(",")
    )
}

/// isl's `miptail_start_level` with what it means for this surface.
fn miptail_text(s: &Surface) -> String {
    let start = s.miptail_start_level();
    let levels = s.desc().levels;
    match s.miptail_first_level() {
        Some(first) if first + 1 == levels => format!("{start} (level {first} in the tail)"),
        Some(first) => format!("{start} (levels {first}-{} in the tail)", levels - 1),
        None => format!("{start} (no mip tail)"),
    }
}

fn layout_table(s: &Surface, args: &SurfaceArgs) -> String {
    let d = s.desc();
    let f = s.format();
    let tile = s.tile_logical_extent_el();
    let mut out = String::new();
    let dim = match args.dim {
        Dim::Cube => format!(
            "cube ({} cube{}, {} layers: layer = 6 * cube + face)",
            args.array_len,
            if args.array_len == 1 { "" } else { "s" },
            s.array_len()
        ),
        Dim::Surf(dim) => dim.to_string(),
    };
    let facts: [(&str, String); 14] = [
        ("gen", s.gen().to_string()),
        (
            "format",
            format!(
                "{} ({} bpb, {}x{} block)",
                f,
                f.bpb(),
                f.block_width(),
                f.block_height()
            ),
        ),
        ("dim", dim),
        (
            "extent",
            format!(
                "{}x{}x{} px, {} levels, array_len {}",
                d.width,
                d.height,
                d.depth,
                d.levels,
                s.array_len()
            ),
        ),
        (
            "tiling",
            format!("{} ({})", s.tiling(), s.tile_info().isl_tiling()),
        ),
        ("usage", d.usage.to_string()),
        ("dim_layout", s.dim_layout().name().to_ascii_lowercase()),
        ("row_pitch_B", s.row_pitch_B().to_string()),
        ("array_pitch_el_rows", s.array_pitch_el_rows().to_string()),
        (
            "image_alignment_el",
            format!(
                "{} x {} x {} (halign_el x valign_el x dalign_el)",
                s.halign_el(),
                s.valign_el(),
                s.dalign_el()
            ),
        ),
        ("size_B", s.size_B().to_string()),
        ("miptail_start_level", miptail_text(s)),
        (
            "tile_el",
            format!(
                "{} x {} x {} (tile_w_el x tile_h_el x tile_d_el)",
                tile.w, tile.h, tile.d
            ),
        ),
        (
            "tile_phys",
            format!(
                "{} B x {} rows (tile_phys_w_B x tile_phys_h)",
                s.tile_phys_width_B(),
                s.tile_phys_height()
            ),
        ),
    ];
    for (k, v) in facts {
        let _ = writeln!(out, "{k:<20} {v}");
    }
    out.push('\n');
    // isl reports 2D layers of Yf/Ys/Tile64 surfaces as a separate array offset (at
    // array_pitch_el_rows rows per layer) rather than folding them into y_el.
    let header = [
        "level", "layer", "z", "x_el", "y_el", "z_el", "array", "w_el", "h_el",
    ];
    let rows: Vec<[String; 9]> = s
        .images()
        .map(|i| {
            let (layer, z) = layer_and_z(s, &i);
            [
                i.level,
                layer,
                z,
                i.offset.x_el,
                i.offset.y_el,
                i.offset.z_el,
                i.offset.array_offset,
                i.extent_el.w,
                i.extent_el.h,
            ]
            .map(|n| n.to_string())
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[&str]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        padded.join("  ")
    };
    let _ = writeln!(out, "{}", line(&header));
    for r in &rows {
        let cells: Vec<&str> = r.iter().map(String::as_str).collect();
        let _ = writeln!(out, "{}", line(&cells));
    }
    out
}

/// Rephrases an address error for `--texel` / `--swizzle`.
fn texel_error(e: &AddressError) -> OptionError {
    let m = match e {
        AddressError::LevelOutOfRange { level, levels } => {
            format!("level {level} is outside the surface ({levels} levels)")
        }
        AddressError::LayerOutOfRange { layer, layers } => {
            format!("layer {layer} is outside the surface (array length {layers})")
        }
        AddressError::ZOutOfRange { z, depth, level } => {
            format!("z {z} is outside level {level} (depth {depth})")
        }
        AddressError::XOutOfRange { x, width, level } => {
            format!("x {x} is outside level {level} (width {width})")
        }
        AddressError::YOutOfRange { y, height, level } => {
            format!("y {y} is outside level {level} (height {height})")
        }
        AddressError::SwizzleUnsupported { .. } => {
            return OptionError::new("--swizzle", e.to_string())
        }
        AddressError::ByteOutOfRange { .. } => e.to_string(),
    };
    OptionError::new("--texel", m)
}

/// `tile-calc formats`: the supported formats, then isl's others with the reason.
fn formats_table() -> String {
    let mut rows: Vec<[String; 4]> = Format::ALL
        .iter()
        .map(|&f| {
            let mut notes: Vec<&str> = Vec::new();
            if let Some(c) = f.compression() {
                notes.push(c.name());
            }
            if f.is_srgb() {
                notes.push("srgb");
            }
            if f.is_yuv() {
                notes.push("yuv");
            }
            if f.is_storage_image_format() {
                notes.push("storage");
            }
            [
                f.name().to_string(),
                f.bpb().to_string(),
                format!("{}x{}", f.block_width(), f.block_height()),
                notes.join(", "),
            ]
        })
        .collect();
    rows.insert(0, ["format", "bpb", "block", "notes"].map(String::from));
    let width = |c: usize| rows.iter().map(|r| r[c].len()).max().unwrap_or(0);
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = String::new();
    for r in &rows {
        let line = format!("{:<w0$}  {:>w1$}  {:<w2$}  {}", r[0], r[1], r[2], r[3]);
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "\nisl formats tile-calc does not lay out:");
    let wu = UnsupportedFormat::ALL
        .iter()
        .map(|u| u.name.len())
        .max()
        .unwrap_or(0);
    for u in UnsupportedFormat::ALL {
        let _ = writeln!(out, "{:<wu$}  {}", u.name, u.reason);
    }
    out
}

fn run(cli: &Cli) -> Result<String, OptionError> {
    match &cli.command {
        Command::Formats => Ok(formats_table()),
        Command::Layout { surface, json } => {
            let s = build_surface(surface)?;
            Ok(if *json {
                format!("{}\n", layout_json(&s))
            } else {
                layout_table(&s, surface)
            })
        }
        Command::Offset {
            surface,
            texel,
            swizzle,
        } => {
            let s = build_surface(surface)?;
            let off = s
                .texel_offset(
                    texel.x,
                    texel.y,
                    texel.z,
                    texel.level,
                    Bit6Swizzle::from_has_bit6_swizzling(*swizzle),
                )
                .map_err(|e| texel_error(&e))?;
            Ok(format!("{off}\n"))
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli: Cli = match tools::command_line::parse(Cli::command()) {
        Ok(cli) => cli,
        Err(exit) => return exit.report(),
    };
    match run(&cli) {
        Ok(text) => match tools::write_output(None, &text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(tools::Failure(msg)) => {
                eprintln!("{}", msg.trim_end());
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{}", e.line());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texel_parses_four_numbers_only() {
        assert_eq!(
            parse_texel("1, 2,3,4"),
            Ok(Texel {
                x: 1,
                y: 2,
                z: 3,
                level: 4
            })
        );
        for bad in ["", "1,2,3", "1,2,3,4,5", "a,b,c,d", "1,2,-3,4", "1;2;3;4"] {
            assert_eq!(
                parse_texel(bad),
                Err(format!("expected X,Y,Z,LEVEL, got `{bad}`"))
            );
        }
    }

    #[test]
    fn dims_and_counts() {
        assert_eq!(parse_dim("CUBE"), Ok(Dim::Cube));
        assert_eq!(parse_dim("3d"), Ok(Dim::Surf(SurfDim::D3)));
        assert!(parse_dim("4d").is_err());
        assert_eq!(parse_count("7"), Ok(7));
        assert!(parse_count("0").is_err());
        assert!(parse_count("-1").is_err());
        assert_eq!(
            parse_count("4294967296"),
            Err("`4294967296` is too large (at most 4294967295)".to_string())
        );
        assert!(parse_usage("cube").is_err());
        assert!(parse_usage("storage+texture").is_ok());
    }

    #[test]
    fn messages_fold_to_one_line() {
        let e = OptionError::new("--gen", "a\nb  c");
        assert_eq!(e.line(), "error: --gen: a b c");
    }
}
