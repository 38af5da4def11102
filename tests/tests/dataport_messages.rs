//! The legacy data-port messages (`@dp_*`) executed with the hardware's semantics,
//! against expectations computed by hand from IGC's vISA specification
//! (`documentation/visa/instructions/GATHER4_TYPED.md`, `SCATTER4_TYPED.md`,
//! `TYPED_ATOMIC.md`, `GATHER4_SCALED.md`, `GATHER_SCALED.md`, `DWORD_ATOMIC.md`,
//! `SVM_*.md`) and `docs/hardware/dataport.md`.

use ir::{Shader, Value};
use lowering::messages::dataport::DataportCaps;
use tiling::Gen;
use verify::exec::{ExecConfig, ExecError, Executor, RunResult};
use verify::memory::{AccessKind, AllocId, Memory};

fn parse(text: &str) -> Shader {
    verify::cli::load("test.ir", text).unwrap_or_else(|e| panic!("{e}"))
}

fn config(lanes: u32, gen: Option<Gen>) -> ExecConfig {
    ExecConfig {
        subgroup_size: lanes,
        dataport: gen.map(|g| DataportCaps::for_gen(g).unwrap()),
        ..ExecConfig::default()
    }
}

fn value(r: &RunResult, v: u32, inv: usize) -> Vec<u64> {
    r.values[&Value::from_u32(v)][inv]
        .clone()
        .unwrap_or_else(|| panic!("%{v} undefined in invocation {inv}"))
}

/// Runs `text` on one workgroup of subgroups of `lanes` on generation `gen`, recording
/// `record`, after `setup` prepared the memory.
fn try_run<T>(
    text: &str,
    lanes: u32,
    gen: Option<Gen>,
    record: &[u32],
    setup: impl FnOnce(&mut Memory) -> T,
) -> (Executor<'static>, Result<RunResult, ExecError>, T) {
    let shader: &'static Shader = Box::leak(Box::new(parse(text)));
    let mut ex = Executor::with_config(shader, config(lanes, gen));
    let prepared = setup(&mut ex.memory);
    let rec: Vec<Value> = record.iter().map(|&v| Value::from_u32(v)).collect();
    let r = ex.run_recording([1, 1, 1], &rec);
    (ex, r, prepared)
}

fn run<T>(
    text: &str,
    lanes: u32,
    gen: Gen,
    record: &[u32],
    setup: impl FnOnce(&mut Memory) -> T,
) -> (Executor<'static>, RunResult, T) {
    let (ex, r, t) = try_run(text, lanes, Some(gen), record, setup);
    (ex, r.unwrap_or_else(|e| panic!("{e}")), t)
}

/// Binds a linear `w`x`h` 2D surface at `binding`, of `format` for the surface, the
/// shader (`logical`) and the hardware.
fn bind_2d(
    mem: &mut Memory,
    binding: u32,
    w: u32,
    h: u32,
    format: tiling::Format,
    logical: ir::Format,
) -> AllocId {
    let desc = tiling::SurfaceDesc::new(
        tiling::Gen::Gfx9,
        tiling::SurfDim::D2,
        format,
        tiling::Tiling::Linear,
    )
    .extent(w, h, 1);
    let surface = tiling::Surface::new(desc).unwrap();
    let view = tiling::ImageView {
        base_level: 0,
        base_layer: 0,
        layer_count: 1,
        format,
    };
    mem.bind_surface_image(
        binding,
        "img",
        surface,
        view,
        logical,
        format,
        tiling::Bit6Swizzle::None,
    )
    .unwrap()
}

fn put(mem: &mut Memory, id: AllocId, at: usize, bytes: &[u8]) {
    mem.allocation_mut(id).bytes[at..at + bytes.len()].copy_from_slice(bytes);
}

fn get(mem: &Memory, id: AllocId, at: usize, n: usize) -> Vec<u8> {
    mem.allocation(id).bytes[at..at + n].to_vec()
}

const ONE_F: u64 = 0x3f80_0000;

#[test]
fn typed_reads_mask_channels_and_give_the_zero_texel_out_of_bounds() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d rgba8_unorm (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000004)
    32x2 %3 = @dp_typed_read (@img, %1, %0, %0, %0) (dp_cmask=xz)
    32x4 %4 = @dp_typed_read (@img, %2, %0, %0, %0) (dp_cmask=xyzw)
    32x2 %5 = @dp_typed_read (@img, %0, %0, %0, %1) (dp_cmask=zw)
}";
    let (_, r, _) = run(text, 1, Gen::Gfx11, &[3, 4, 5], |m| {
        let id = bind_2d(
            m,
            0,
            4,
            4,
            tiling::Format::R8G8B8A8_UNORM,
            ir::Format::Rgba8Unorm,
        );
        put(m, id, 4, &[0xff, 0x00, 0xff, 0x00]);
        for x in [0, 8, 12] {
            put(m, id, x, &[0x80; 4]);
        }
    });
    // Texel (1, 0) is (1.0, 0, 1.0, 0): .xz gives R and B.
    assert_eq!(value(&r, 3, 0), [ONE_F, ONE_F]);
    // x = 4 is outside the 4-wide view, LOD 1 outside the one-level view: the zero
    // texel, alpha included (RGBA8 has alpha).
    assert_eq!(value(&r, 4, 0), [0, 0, 0, 0]);
    assert_eq!(value(&r, 5, 0), [0, 0]);
}

#[test]
fn typed_reads_out_of_bounds_fill_missing_alpha_with_integer_one() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0xffffffff)
    32x4 %1 = @dp_typed_read (@img, %0, %0, %0, %0) (dp_cmask=xyzw)
}";
    let (_, r, _) = run(text, 1, Gen::Gfx9, &[1], |m| {
        bind_2d(m, 0, 4, 4, tiling::Format::R32_UINT, ir::Format::R32Uint);
    });
    assert_eq!(value(&r, 1, 0), [0, 0, 0, 1]);
}

#[test]
fn ivy_bridge_reads_a_word_from_8_and_16_bit_surfaces() {
    // Texels 0..3 of row 0 of an R16_UINT surface hold 0x1111, 0x2222, 0x3333, 0x4444.
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r16_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = @dp_typed_read (@img, %1, %0, %0, %0) (dp_cmask=x)
}";
    let setup = |m: &mut Memory| {
        let id = bind_2d(m, 0, 4, 4, tiling::Format::R16_UINT, ir::Format::R16Uint);
        put(m, id, 0, &[0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44]);
    };
    // Ivy Bridge: the word at texel 1, texels 1 and 2.
    let (_, r, _) = run(text, 1, Gen::Gfx7, &[2], setup);
    assert_eq!(value(&r, 2, 0), [0x3333_2222]);
    // Haswell on: the texel.
    let (_, r, _) = run(text, 1, Gen::Gfx75, &[2], setup);
    assert_eq!(value(&r, 2, 0), [0x2222]);
}

#[test]
fn typed_writes_keep_disabled_channels_and_drop_out_of_bounds() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d rgba8_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000004)
    32   %3 = load_const (0x00000123)
    32   %4 = load_const (0x00000007)
    32x2 %5 = vec2 %3, %4
    @dp_typed_write (@img, %1, %0, %0, %0, %5) (dp_cmask=xz)
    @dp_typed_write (@img, %0, %2, %0, %0, %5) (dp_cmask=xz)
}";
    let (ex, r, id) = run(text, 1, Gen::Gfx9, &[], |m| {
        let id = bind_2d(
            m,
            0,
            4,
            4,
            tiling::Format::R8G8B8A8_UINT,
            ir::Format::Rgba8Uint,
        );
        put(m, id, 4, &[0x10, 0x20, 0x30, 0x40]);
        id
    });
    // R = 0x123 clamps to 0xff (SCATTER4_TYPED: UINT clamps), B = 7; G and A stay.
    assert_eq!(get(&ex.memory, id, 4, 4), [0xff, 0x20, 0x07, 0x40]);
    let kinds: Vec<(AccessKind, bool)> = r.accesses.iter().map(|a| (a.kind, a.in_bounds)).collect();
    assert_eq!(
        kinds,
        [(AccessKind::Store, true), (AccessKind::Store, false)]
    );
}

#[test]
fn typed_atomics_act_on_texels() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
image @h : 2d r16_uint (binding=1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000005)
    32   %3 = load_const (0x00000009)
    32   %4 = @dp_typed_atomic (@img, %1, %0, %0, %0, %2) (dp_op=add, dp_bits=32)
    32   %5 = @dp_typed_atomic (@img, %1, %0, %0, %0, %2, %3) (dp_op=cmpwr, dp_bits=32)
    32   %6 = @dp_typed_atomic (@img, %3, %0, %0, %0, %2) (dp_op=add, dp_bits=32)
    32   %7 = @dp_typed_atomic (@h, %1, %0, %0, %0) (dp_op=dec, dp_bits=16)
}";
    let (ex, r, (a, h)) = run(text, 1, Gen::Gfx12, &[4, 5, 6, 7], |m| {
        let a = bind_2d(m, 0, 4, 4, tiling::Format::R32_UINT, ir::Format::R32Uint);
        let h = bind_2d(m, 1, 4, 4, tiling::Format::R16_UINT, ir::Format::R16Uint);
        put(m, a, 4, &[0, 0, 0, 0]);
        put(m, h, 2, &[0, 0]);
        (a, h)
    });
    // add 5 to 0 returns 0; cmpwr compares with 5 (src0) and writes 9 (src1).
    assert_eq!(value(&r, 4, 0), [0]);
    assert_eq!(value(&r, 5, 0), [5]);
    assert_eq!(get(&ex.memory, a, 4, 4), 9u32.to_le_bytes());
    // x = 9 is out of bounds: 0, nothing written.
    assert_eq!(value(&r, 6, 0), [0]);
    // The 16-bit decrement wraps at 16 bits; the result's upper half is undefined.
    assert_eq!(value(&r, 7, 0), [0xa5a5_0000]);
    assert_eq!(get(&ex.memory, h, 2, 2), [0xff, 0xff]);
}

#[test]
fn untyped_surface_messages_check_the_buffer_per_dword() {
    // A linear 4x4 R32_UINT surface is a raw buffer of 64 bytes.
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000038)
    32x2 %2 = @dp_untyped_read (@img, %0) (dp_addr=bti, dp_cmask=xz)
    32x3 %3 = @dp_untyped_read (@img, %1) (dp_addr=bti, dp_cmask=xyz)
    32   %4 = load_const (0x0000abcd)
    32x2 %5 = vec2 %4, %4
    @dp_untyped_write (@img, %1, %5) (dp_addr=bti, dp_cmask=xz)
}";
    let (ex, r, id) = run(text, 1, Gen::Gfx9, &[2, 3], |m| {
        let id = bind_2d(m, 0, 4, 4, tiling::Format::R32_UINT, ir::Format::R32Uint);
        let bytes: Vec<u8> = (0..16u32).flat_map(|w| (0x100 + w).to_le_bytes()).collect();
        put(m, id, 0, &bytes);
        id
    });
    assert_eq!(ex.memory.allocation(id).bytes.len(), 64);
    // .xz reads dwords 0 and 2.
    assert_eq!(value(&r, 2, 0), [0x100, 0x102]);
    // At byte 56: dwords 14 and 15, then 64 is outside the buffer and reads 0.
    assert_eq!(value(&r, 3, 0), [0x10e, 0x10f, 0]);
    // The write of x lands at 56; z (64) is dropped.
    assert_eq!(
        get(&ex.memory, id, 56, 8),
        [0xcd, 0xab, 0, 0, 0x0f, 1, 0, 0]
    );
    let discarded = r.accesses.iter().filter(|a| !a.in_bounds).count();
    assert_eq!(discarded, 2);
}

#[test]
fn byte_scattered_reads_leave_upper_bytes_undefined() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000001)
    32   %1 = @dp_byte_scattered_read (@img, %0) (dp_addr=bti, dp_bytes=1)
    32   %2 = @dp_byte_scattered_read (@img, %0) (dp_addr=bti, dp_bytes=2)
    32   %3 = @dp_byte_scattered_read (@img, %0) (dp_addr=bti, dp_bytes=4)
    32   %4 = load_const (0x00007788)
    @dp_byte_scattered_write (@img, %0, %4) (dp_addr=bti, dp_bytes=2)
}";
    let (ex, r, id) = run(text, 1, Gen::Gfx75, &[1, 2, 3], |m| {
        let id = bind_2d(m, 0, 4, 4, tiling::Format::R32_UINT, ir::Format::R32Uint);
        put(m, id, 0, &[0x10, 0x11, 0x12, 0x13, 0x14]);
        id
    });
    // Unaligned byte accesses are allowed; bytes past the read are undefined (0xa5).
    assert_eq!(value(&r, 1, 0), [0xa5a5_a511]);
    assert_eq!(value(&r, 2, 0), [0xa5a5_1211]);
    assert_eq!(value(&r, 3, 0), [0x1413_1211]);
    assert_eq!(get(&ex.memory, id, 0, 5), [0x10, 0x88, 0x77, 0x13, 0x14]);
}

#[test]
fn misaligned_dword_messages_are_errors() {
    let text = "shader compute (local_size=1,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x00000002)
    32   %1 = @dp_dword_scattered_read (@img, %0) (dp_addr=bti)
}";
    let (_, r, _) = try_run(text, 1, Some(Gen::Gfx9), &[], |m| {
        bind_2d(m, 0, 4, 4, tiling::Format::R32_UINT, ir::Format::R32Uint);
    });
    let e = r.unwrap_err().to_string();
    assert!(e.contains("address 0x2 is not 4-byte aligned"), "{e}");
}

#[test]
fn a64_messages_use_flat_addresses() {
    let text = "shader compute (local_size=2,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    64   %2 = @load_push_constant (%1) (base=0, range=8)
    64   %3 = u2u64 %0.x
    64   %4 = load_const (0x0000000000000010)
    64   %5 = imul %3, %4
    64   %6 = iadd %2, %5
    32x4 %7 = @dp_untyped_read (%6) (dp_addr=a64, dp_cmask=xyzw)
    64   %8 = @dp_byte_scattered_read (%6) (dp_addr=a64, dp_bytes=8)
    64   %9 = load_const (0x0000000000000100)
    64   %10 = @dp_untyped_atomic (%2, %9) (dp_addr=a64, dp_op=umax, dp_bits=64)
}";
    let (ex, r, id) = run(text, 2, Gen::Gfx11, &[7, 8, 10], |m| {
        let bytes: Vec<u8> = (0..8u32).flat_map(|w| (0x10 + w).to_le_bytes()).collect();
        let id = m.alloc("buf", bytes);
        let base = m.allocation(id).base;
        m.set_push_constants(base.to_le_bytes().to_vec());
        id
    });
    assert_eq!(value(&r, 7, 0), [0x10, 0x11, 0x12, 0x13]);
    assert_eq!(value(&r, 7, 1), [0x14, 0x15, 0x16, 0x17]);
    assert_eq!(value(&r, 8, 1), [0x0000_0015_0000_0014]);
    // Lanes apply the atomic in order: lane 0 sees the initial 0x11_0000_0010, lane 1
    // the 0x100 lane 0 did not write (umax keeps the larger old value).
    assert_eq!(value(&r, 10, 0), [0x0000_0011_0000_0010]);
    assert_eq!(value(&r, 10, 1), [0x0000_0011_0000_0010]);
    assert_eq!(get(&ex.memory, id, 0, 8), [0x10, 0, 0, 0, 0x11, 0, 0, 0]);
}

#[test]
fn shared_memory_messages_and_their_limits() {
    let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000010)
    32   %1 = load_const (0x00000009)
    32x2 %2 = vec2 %1, %1
    @dp_untyped_write (%0, %2) (dp_addr=slm, dp_cmask=xw)
    32x4 %3 = @dp_untyped_read (%0) (dp_addr=slm, dp_cmask=xyzw)
    32   %4 = @dp_untyped_atomic (%0) (dp_addr=slm, dp_op=inc, dp_bits=32)
    32   %5 = @dp_untyped_read (%0) (dp_addr=slm, dp_cmask=x)
}";
    let (_, r, _) = run(text, 1, Gen::Gfx7, &[3, 4, 5], |_| ());
    assert_eq!(value(&r, 3, 0), [9, 0, 0, 9]);
    assert_eq!(value(&r, 4, 0), [9]);
    assert_eq!(value(&r, 5, 0), [10]);
    // Outside the shared memory: an error, not a guess.
    let far = text.replace("0x00000010", "0x7ffffff0");
    let (_, r, _) = try_run(&far, 1, Some(Gen::Gfx7), &[], |_| ());
    assert!(r.unwrap_err().to_string().contains("shared memory"));
}

#[test]
fn messages_a_generation_lacks_are_errors() {
    let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    64   %0 = load_const (0x0000000000001000)
    32   %1 = @dp_untyped_read (%0) (dp_addr=a64, dp_cmask=x)
}";
    let (_, r, _) = try_run(text, 1, Some(Gen::Gfx7), &[], |_| ());
    let e = r.unwrap_err().to_string();
    assert!(e.contains("gfx7 has no A64 messages"), "{e}");
    let (_, r, _) = try_run(text, 1, None, &[], |_| ());
    let e = r.unwrap_err().to_string();
    assert!(e.contains("need the platform they run on"), "{e}");
}

#[test]
fn predicated_off_lanes_touch_nothing() {
    let text = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000004)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0x00000002)
    1    %4 = ult %0.x, %3
    32   %5 = @dp_untyped_atomic (%2, %1) (dp_addr=slm, dp_op=add, dp_bits=32) if %4
    32   %6 = @dp_untyped_read (%2) (dp_addr=slm, dp_cmask=x)
}";
    let (_, r, _) = run(text, 4, Gen::Gfx12, &[5, 6], |_| ());
    let got: Vec<u64> = (0..4).map(|i| value(&r, 6, i)[0]).collect();
    assert_eq!(got, [4, 4, 0, 0]);
    // Lanes 2 and 3 kept the destination's 0.
    assert_eq!(value(&r, 5, 3), [0]);
}
