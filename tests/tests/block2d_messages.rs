//! 2D block messages and image block accesses in the executor, against register images
//! worked out by hand from the `LOAD_BLOCK2D` pseudo-code of
//! `intel-graphics-compiler/documentation/visa/instructions/LSC_UNTYPED.md` (64-byte GRFs), the
//! typed block layout of `intel-graphics-compiler/documentation/visa/instructions/LSC_TYPED.md` and
//! docs/hardware/lsc-messages.md §8.
//!
//! Every expectation below is a list of the non-zero bytes of the register image `R`
//! (everything else is padding or out-of-surface zeros), recovered from the lanes by the
//! distribution rule: component `k` of lane `i` of a `b`-bit value holds
//! `R[(k·SG + i)·b/8 ..][.. b/8]`.

use ir::{Shader, Value};
use verify::exec::{ExecConfig, Executor, RunResult};
use verify::memory::{AccessKind, AllocId, Memory};

/// `text` parsed and validated; the test panics with the rendered diagnostics otherwise.
fn parse(text: &str) -> Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs one subgroup of `sg` lanes (the shader fixes the subgroup size).
/// Returns what `setup` (run on the memory first) returned too.
fn run<T>(
    text: &str,
    record: &[u32],
    setup: impl FnOnce(&mut Memory) -> T,
) -> Result<(Executor<'static>, RunResult, T), String> {
    let shader: &'static Shader = Box::leak(Box::new(parse(text)));
    let mut ex = Executor::with_config(shader, ExecConfig::default());
    let prepared = setup(&mut ex.memory);
    let rec: Vec<Value> = record.iter().map(|&v| Value::from_u32(v)).collect();
    let r = ex
        .run_recording([1, 1, 1], &rec)
        .map_err(|e| e.to_string())?;
    Ok((ex, r, prepared))
}

/// The error of a run of `text` after `setup`, which must fail.
fn run_error<T>(text: &str, setup: impl FnOnce(&mut Memory) -> T) -> String {
    run(text, &[], setup).err().expect("the run fails")
}

/// The register image of value `%v`, reassembled from the lanes (`bits` per component).
fn register_image(r: &RunResult, v: u32, sg: usize, bits: usize) -> Vec<u8> {
    let per_lane = &r.values[&Value::from_u32(v)];
    let comps = per_lane[0].as_ref().unwrap().len();
    let bb = bits / 8;
    let mut out = vec![0u8; comps * sg * bb];
    for (lane, vals) in per_lane.iter().enumerate().take(sg) {
        for (k, c) in vals.as_ref().unwrap().iter().enumerate() {
            let at = (k * sg + lane) * bb;
            out[at..at + bb].copy_from_slice(&c.to_le_bytes()[..bb]);
        }
    }
    out
}

/// `len` zero bytes with `set` (offset, bytes) written in.
fn image(len: usize, set: &[(usize, &[u8])]) -> Vec<u8> {
    let mut out = vec![0u8; len];
    for (at, bytes) in set {
        out[*at..*at + bytes.len()].copy_from_slice(bytes);
    }
    out
}

/// A 16-byte-pitch, 4-row surface whose byte at (row, col) is `0x10·row + col + 1`, its
/// address passed as the 64-bit push constant at 0.
fn byte_surface(mem: &mut Memory) -> (AllocId, u64) {
    let bytes: Vec<u8> = (0..64u32)
        .map(|o| (0x10 * (o / 16) + o % 16 + 1) as u8)
        .collect();
    let id = mem.alloc("surface", bytes);
    let base = mem.allocation(id).base;
    mem.set_push_constants(base.to_le_bytes().to_vec());
    (id, base)
}

/// The payload prelude: %1 = base, %2 = width-1, %3 = height-1, %4 = pitch-1, %5 = x,
/// %6 = y.
fn untyped(sg: u32, w1: u32, h1: u32, p1: u32, x: i32, y: i32, body: &str) -> String {
    format!(
        "shader compute (local_size={sg},1,1, subgroup_size={sg})
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = @load_push_constant (%0) (base=0, range=8)
    32   %2 = load_const ({w1:#010x})
    32   %3 = load_const ({h1:#010x})
    32   %4 = load_const ({p1:#010x})
    32   %5 = load_const ({:#010x})
    32   %6 = load_const ({:#010x})
{body}
}}",
        x as u32, y as u32
    )
}

#[test]
fn nn_pads_rows_to_a_power_of_two_and_blocks_to_a_grf() {
    // d8 2x3x2nn at (1, 1): W = 3 -> register rows of 4; each block is 8 bytes padded to
    // one 64-byte GRF; block 1 starts at column X + W = 4. R = 128 bytes = 16 lanes x 8 x 8.
    let text = untyped(
        16,
        15,
        3,
        15,
        1,
        1,
        "    8x8  %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data=d8, lsc_block=2x3x2nn)",
    );
    let (_, r, _) = run(&text, &[7], byte_surface).unwrap();
    let want = image(
        128,
        &[
            (0, &[0x12, 0x13, 0x14]),
            (4, &[0x22, 0x23, 0x24]),
            (64, &[0x15, 0x16, 0x17]),
            (68, &[0x25, 0x26, 0x27]),
        ],
    );
    assert_eq!(register_image(&r, 7, 16, 8), want);
    // Lane 4 holds R[4], R[20], ...: its component 0 is the first byte of row 2.
    assert_eq!(r.values[&Value::from_u32(7)][4].as_ref().unwrap()[0], 0x22);
    // One access per element, 12 in all, from lane 0.
    let loads: Vec<_> = r
        .accesses
        .iter()
        .filter(|a| a.kind == AccessKind::Load && a.in_bounds && a.size == 1)
        .collect();
    assert_eq!(loads.len(), 12);
    assert!(loads.iter().all(|a| a.ctx.lane == 0));
    assert_eq!(loads[0].offset, 16 + 1);
}

#[test]
fn vnni_packs_row_pairs_of_d16() {
    // d16 2x4nt at (0, 0): rows (0,1) and (2,3) of each column share a dword. d16
    // element (row, col) is bytes (16·row + 2·col ..): 0x10·row + 2·col + 1 and + 2.
    // rp = 2, the block is 8 elements = 16 bytes, padded to 64. R = 64 = 16 lanes x 32 bits.
    let text = untyped(
        16,
        15,
        3,
        15,
        0,
        0,
        "    32   %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data=d16, lsc_block=2x4nt)",
    );
    let (_, r, _) = run(&text, &[7], byte_surface).unwrap();
    let e = |row: u8, col: u8| [0x10 * row + 2 * col + 1, 0x10 * row + 2 * col + 2];
    let want = image(
        64,
        &[
            (0, &e(0, 0)),
            (2, &e(1, 0)),
            (4, &e(0, 1)),
            (6, &e(1, 1)),
            (8, &e(2, 0)),
            (10, &e(3, 0)),
            (12, &e(2, 1)),
            (14, &e(3, 1)),
        ],
    );
    assert_eq!(register_image(&r, 7, 16, 32), want);
}

#[test]
fn vnni_packs_four_rows_of_d8() {
    // d8 4x4nt at (2, 0): dword x holds rows 0..3 of column 2 + x.
    let text = untyped(
        16,
        15,
        3,
        15,
        2,
        0,
        "    32   %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data=d8, lsc_block=4x4nt)",
    );
    let (_, r, _) = run(&text, &[7], byte_surface).unwrap();
    let col = |c: u8| [c + 1, 0x10 + c + 1, 0x20 + c + 1, 0x30 + c + 1];
    let want = image(
        64,
        &[(0, &col(2)), (4, &col(3)), (8, &col(4)), (12, &col(5))],
    );
    assert_eq!(register_image(&r, 7, 16, 32), want);
}

#[test]
fn transpose_turns_columns_into_register_rows() {
    // d32 2x3tn at (1, 0): register row x is column x (3 elements, pitch 4); the block
    // is 8 elements = 32 bytes padded to 64. d32 element (row, col) is the word at byte
    // 16·row + 4·col. R = 64 = 16 lanes x 32 bits.
    let text = untyped(
        16,
        15,
        3,
        15,
        1,
        0,
        "    32   %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data=d32, lsc_block=2x3tn)",
    );
    let (_, r, _) = run(&text, &[7], byte_surface).unwrap();
    let w = |row: u8, col: u8| {
        let b = 0x10 * row + 4 * col + 1;
        [b, b + 1, b + 2, b + 3]
    };
    let want = image(
        64,
        &[
            (0, &w(0, 1)),
            (4, &w(1, 1)),
            (8, &w(2, 1)),
            (16, &w(0, 2)),
            (20, &w(1, 2)),
            (24, &w(2, 2)),
        ],
    );
    assert_eq!(register_image(&r, 7, 16, 32), want);
}

#[test]
fn out_of_surface_elements_read_zero() {
    // Surface 10 bytes x 4 rows (pitch 16): d32 4x2nn at (-1, 3). Column -1 is outside,
    // column 2 covers bytes 8..12 and sticks out of the 10-byte width, row 4 is past
    // the height. Only (3, 0) and (3, 1) are read.
    let text = untyped(
        16,
        9,
        3,
        15,
        -1,
        3,
        "    32   %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data=d32, lsc_block=4x2nn)",
    );
    let (_, r, _) = run(&text, &[7], byte_surface).unwrap();
    let want = image(
        64,
        &[
            (4, &[0x31, 0x32, 0x33, 0x34]),
            (8, &[0x35, 0x36, 0x37, 0x38]),
        ],
    );
    assert_eq!(register_image(&r, 7, 16, 32), want);
    let discarded = r.accesses.iter().filter(|a| !a.in_bounds).count();
    assert_eq!(discarded, 6);
}

#[test]
fn store_writes_one_block_from_the_nn_layout() {
    // d16 3x2nn at (5, 3) on a surface of 12 bytes x 4 rows: the register image has rows
    // of 4 elements (8 bytes); row 3, columns 5..7 are bytes 10..16 of row 3, of which
    // only 10..12 (column 5) is inside the 12-byte width; row 4 is past the height. The
    // data is 64 bytes = 16 lanes x 32 bits; lane i holds R[4i..4i+4] = 4i+0x80 ...
    let text = untyped(
        16,
        11,
        3,
        15,
        5,
        3,
        "    32x3 %7 = @load_local_invocation_id
    32   %8 = load_const (0x04040404)
    32   %9 = load_const (0x83828180)
    32   %10 = imul %7.x, %8
    32   %11 = iadd %10, %9
    @lsc_store_block2d (%1, %2, %3, %4, %5, %6, %11) (lsc_sfid=ugm, lsc_data=d16, lsc_block=3x2nn)",
    );
    let (ex, _, (id, _)) = run(&text, &[], byte_surface).unwrap();
    let bytes = &ex.memory.allocation(id).bytes;
    let mut want: Vec<u8> = (0..64u32)
        .map(|o| (0x10 * (o / 16) + o % 16 + 1) as u8)
        .collect();
    // Element 0 of register row 0 is R[0..2] = 0x80, 0x81.
    want[3 * 16 + 10] = 0x80;
    want[3 * 16 + 11] = 0x81;
    assert_eq!(bytes, &want);
}

#[test]
fn block_messages_need_the_whole_subgroup_and_uniform_operands() {
    // 16 lanes, the shader runs 12: the block message has inactive lanes.
    let text = "shader compute (local_size=12,1,1, subgroup_size=16)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = @load_push_constant (%0) (base=0, range=8)
    32   %2 = load_const (0x0000000f)
    32   %7 = @lsc_load_block2d (%1, %2, %2, %2, %0, %0) (lsc_sfid=ugm, lsc_data=d32, lsc_block=16x1nn)
}";
    let e = run_error(text, byte_surface);
    assert!(
        e.contains("needs all 16 lanes active, but lanes 12, 13, 14, 15 are inactive"),
        "{e}"
    );
    let text = "shader compute (local_size=16,1,1, subgroup_size=16)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    32   %3 = load_const (0x0000000f)
    32   %4 = @lsc_load_block2d (%2, %3, %3, %3, %0.x, %1) (lsc_sfid=ugm, lsc_data=d32, lsc_block=16x1nn)
}";
    let e = run_error(text, byte_surface);
    assert!(
        e.contains("the x of a strided or block message must be uniform across its lanes, but lane 1 differs"),
        "{e}"
    );
}

#[test]
fn illegal_layouts_are_errors() {
    for (shape, data, ty, want) in [
        (
            "16x4tt",
            "d16",
            "32x2",
            "cannot be transposed and VNNI-transformed together",
        ),
        ("4x4nt", "d32", "32", "needs d8 or d16"),
        ("4x3nt", "d16", "32", "a multiple of that"),
    ] {
        let body = format!(
            "    {ty} %7 = @lsc_load_block2d (%1, %2, %3, %4, %5, %6) (lsc_sfid=ugm, lsc_data={data}, lsc_block={shape})"
        );
        let text = untyped(16, 15, 3, 15, 0, 0, &body);
        let e = run_error(&text, byte_surface);
        assert!(e.contains(want), "{shape}: {e}");
    }
}

// ----- typed block2d on a tiled surface ------------------------------------------------

const R32: tiling::Format = tiling::Format::R32_UINT;

/// A 2D r32_uint image of 20 x 12 texels laid out Tile4 (Xe2), viewed whole, at binding
/// 0; texel (x, y) holds `0x1000·y + x + 1`, written through the layout reference.
fn tiled_image(mem: &mut Memory) -> AllocId {
    let desc = tiling::SurfaceDesc::new(
        tiling::Gen::Gfx20,
        tiling::SurfDim::D2,
        R32,
        tiling::Tiling::Tile4,
    )
    .extent(20, 12, 1);
    let surface = tiling::Surface::new(desc).unwrap();
    let view = tiling::ImageView {
        base_level: 0,
        base_layer: 0,
        layer_count: 1,
        format: R32,
    };
    let id = mem
        .bind_surface_image(
            0,
            "img",
            surface.clone(),
            view,
            ir::Format::R32Uint,
            R32,
            tiling::Bit6Swizzle::None,
        )
        .unwrap();
    for y in 0..12 {
        for x in 0..20 {
            let off = surface
                .texel_offset(x, y, 0, 0, tiling::Bit6Swizzle::None)
                .unwrap() as usize;
            let v = 0x1000 * y + x + 1;
            mem.allocation_mut(id).bytes[off..off + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    id
}

fn texel(mem: &Memory, id: AllocId, x: u32, y: u32) -> u32 {
    let b = mem.image(0).unwrap();
    let off = match &b.storage {
        verify::memory::ImageStorage::Surface { surface, .. } => surface
            .texel_offset(x, y, 0, 0, tiling::Bit6Swizzle::None)
            .unwrap() as usize,
        _ => unreachable!(),
    };
    u32::from_le_bytes(mem.allocation(id).bytes[off..off + 4].try_into().unwrap())
}

fn typed(x: i32, y: i32, body: &str) -> String {
    format!(
        "shader compute (local_size=16,1,1, subgroup_size=16)
image @img : 2d r32_uint (binding=0)
fn main {{
  block b0:
    32   %0 = load_const ({:#010x})
    32   %1 = load_const ({:#010x})
{body}
}}",
        x as u32, y as u32
    )
}

#[test]
fn typed_load_reads_the_tiled_surface() {
    // 12 bytes x 4 rows at x = 4 bytes (texel 1), y = 1: register pitch 16 (3 texels and
    // 4 zero bytes per row). R = 64 bytes = 16 lanes x 32 bits.
    let text = typed(
        4,
        1,
        "    32   %2 = @lsc_load_block2d (@img, %0, %1) (lsc_sfid=tgm, lsc_data=d32, lsc_block=12x4)",
    );
    let (_, r, _) = run(&text, &[2], tiled_image).unwrap();
    let t = |x: u32, y: u32| (0x1000 * y + x + 1).to_le_bytes();
    let rows: Vec<[[u8; 4]; 3]> = (1..5).map(|y| [t(1, y), t(2, y), t(3, y)]).collect();
    let mut set: Vec<(usize, &[u8])> = Vec::new();
    for (u, row) in rows.iter().enumerate() {
        for (v, tx) in row.iter().enumerate() {
            set.push((u * 16 + v * 4, tx));
        }
    }
    assert_eq!(register_image(&r, 2, 16, 32), image(64, &set));
}

#[test]
fn typed_blocks_clip_to_the_view() {
    // 8 bytes x 8 rows at texel (19, 10): only (19, 10) and (19, 11) are inside.
    // Register pitch 8, R = 64 bytes.
    let text = typed(
        76,
        10,
        "    32   %2 = @lsc_load_block2d (@img, %0, %1) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)",
    );
    let (_, r, _) = run(&text, &[2], tiled_image).unwrap();
    let a = (0x1000 * 10 + 20u32).to_le_bytes();
    let b = (0x1000 * 11 + 20u32).to_le_bytes();
    assert_eq!(
        register_image(&r, 2, 16, 32),
        image(64, &[(0, &a), (8, &b)])
    );
}

#[test]
fn typed_store_writes_the_tiled_surface() {
    // 16 bytes x 4 rows at texel (17, 9): lane i stores 0xA0 + i; R[4i..] is lane i's
    // word, so texel (17 + v, 9 + u) gets 0xA0 + 4u + v when inside the 20 x 12 view.
    let text = typed(
        68,
        9,
        "    32x3 %2 = @load_local_invocation_id
    32   %3 = load_const (0x000000a0)
    32   %4 = iadd %2.x, %3
    @lsc_store_block2d (@img, %0, %1, %4) (lsc_sfid=tgm, lsc_data=d32, lsc_block=16x4)",
    );
    let (ex, r, id) = run(&text, &[], tiled_image).unwrap();
    for y in 0..12 {
        for x in 0..20 {
            let inside = (17..20).contains(&x) && (9..12).contains(&y);
            let want = if inside {
                0xA0 + 4 * (y - 9) + (x - 17)
            } else {
                0x1000 * y + x + 1
            };
            assert_eq!(texel(&ex.memory, id, x, y), want, "({x}, {y})");
        }
    }
    // 9 texels written, 7 discarded.
    let stores = r.accesses.iter().filter(|a| a.kind == AccessKind::Store);
    let (inb, out): (Vec<&verify::memory::Access>, Vec<_>) = stores.partition(|a| a.in_bounds);
    assert_eq!((inb.len(), out.len()), (9, 7));
}

#[test]
fn typed_blocks_must_be_whole_texels() {
    let text = typed(
        2,
        0,
        "    32   %2 = @lsc_load_block2d (@img, %0, %1) (lsc_sfid=tgm, lsc_data=d32, lsc_block=8x8)",
    );
    let e = run_error(&text, tiled_image);
    assert!(e.contains("is not made of whole 4-byte texels"), "{e}");
}

// ----- image block accesses (the reference) ---------------------------------------------

#[test]
fn image_block_load_packs_texels_row_major() {
    // A 4 x 4 block of r32 at (18, 10): texels with x < 20 and y < 12 inside. R has rows
    // of 16 bytes without padding: 64 bytes = 16 lanes x 32 bits, so lane i is texel
    // (18 + i % 4, 10 + i / 4).
    let text = typed(
        18,
        10,
        "    32x2 %2 = vec2 %0, %1
    32   %3 = @image_block_load (@img, %2) (block=4x4)
    @image_block_store (@img, %2, %3) (block=4x4)",
    );
    let (_, r, _) = run(&text, &[3], tiled_image).unwrap();
    for i in 0..16u32 {
        let (x, y) = (18 + i % 4, 10 + i / 4);
        let want = if x < 20 && y < 12 {
            0x1000 * y + x + 1
        } else {
            0
        };
        assert_eq!(
            r.values[&Value::from_u32(3)][i as usize],
            Some(vec![want as u64]),
            "lane {i}"
        );
    }
}

#[test]
fn image_block_store_writes_raw_texels_inside_the_view() {
    // A 4 x 2 block of r32 at (18, 11) over 8 lanes: R = 32 bytes, lane i holds texel
    // (18 + i % 4, 11 + i / 4) = 0xB0 + i. Only (18, 11) and (19, 11) are inside the
    // 20 x 12 view; the other six texels are dropped.
    let text = "shader compute (local_size=8,1,1, subgroup_size=8)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x000000b0)
    32   %2 = iadd %0.x, %1
    32   %3 = load_const (0x00000012)
    32   %4 = load_const (0x0000000b)
    32x2 %5 = vec2 %3, %4
    @image_block_store (@img, %5, %2) (block=4x2)
}";
    let (ex, r, id) = run(text, &[], tiled_image).unwrap();
    for y in 0..12 {
        for x in 0..20 {
            let want = match (x, y) {
                (18, 11) => 0xB0,
                (19, 11) => 0xB1,
                _ => 0x1000 * y + x + 1,
            };
            assert_eq!(texel(&ex.memory, id, x, y), want, "({x}, {y})");
        }
    }
    let discarded = r.accesses.iter().filter(|a| !a.in_bounds).count();
    assert_eq!(discarded, 6);
}
