//! Group async copies, property-tested: random 2D and 3D copies run at the reference
//! level (the executor's `group_async_copy_*`) and lowered by `lower-async-copies` for
//! every platform preset with A64 messages (Gfx7 must refuse them), and every destination byte is compared with an independent
//! model: a plain element-by-element copy computed here.
//!
//! A case copies a region from global memory into shared memory, waits, and copies a
//! (possibly differently laid out) region of shared memory back to global memory:
//! random element sizes (1 to 128 bytes), edge sizes 1 and non-powers of two, line
//! lengths and plane areas with gaps, offsets, several workgroup shapes and subgroup
//! sizes, one to three workgroups whose global offsets depend on the workgroup id, and
//! operands that are constants or come from push constants (dynamic shapes, dynamic
//! element sizes). Shared memory starts with random bytes, so a read of an element the
//! first copy did not write is checked too. The lowered shaders are validated and every
//! message in them must be legal on the platform (`lowering::messages::check_function`).
//!
//! A second property checks that the executor reports overlapping lines and planes.
//!
//! Fixed seeds; `QC_TESTS=<n>` runs `n` cases per property instead of the default.

use ir::passes::Pass;
use ir::Shader;
use lowering::{lower_async_copies, A64Use, AsyncCopyOptions, Device, LowerErrorKind};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use verify::exec::{ExecConfig, Executor};

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

const SHARED_SIZE: usize = 64 * 1024;

/// The shape of one copy, in elements.
#[derive(Clone, Debug)]
struct Layout {
    offset: u32,
    line_length: u32,
    plane_area: u32,
}

/// One random case.
#[derive(Clone, Debug)]
struct Case {
    three_d: bool,
    elem_bytes: u32,
    elems_per_line: u32,
    lines: u32,
    planes: u32,
    /// Global source, shared destination (first copy).
    g_src: Layout,
    s_dst: Layout,
    /// Shared source, global destination (second copy).
    s_src: Layout,
    g_dst: Layout,
    /// Byte pointers of the two shared regions.
    s_dst_ptr: u32,
    s_src_ptr: u32,
    /// Elements added to the global offsets per workgroup.
    wg_stride: u32,
    workgroups: u32,
    local_size: [u32; 3],
    subgroup_size: Option<u32>,
    exec_subgroup: u32,
    /// Operands read from push constants: the shape, or only the element size.
    dynamic_shape: bool,
    dynamic_elem_bytes: bool,
    seed: u64,
}

fn pick<T: Copy>(g: &mut Gen, xs: &[T]) -> T {
    *g.choose(xs).expect("non-empty")
}

fn small(g: &mut Gen, max: u32) -> u32 {
    u32::arbitrary(g) % (max + 1)
}

impl Layout {
    fn random(g: &mut Gen, epl: u32, lines: u32) -> Layout {
        let line_length = epl + pick(g, &[0, 0, 1, 3]);
        let plane_area = lines * line_length + pick(g, &[0, 0, 2, 5]);
        Layout {
            offset: small(g, 5),
            line_length,
            plane_area,
        }
    }

    /// Elements from the first to one past the last.
    fn extent(&self, c: &Case) -> u32 {
        self.offset
            + (c.planes - 1) * self.plane_area
            + (c.lines - 1) * self.line_length
            + c.elems_per_line
    }
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let three_d = bool::arbitrary(g);
        let elem_bytes = pick(g, &[1, 2, 4, 8, 16, 32, 64, 128]);
        let elems_per_line = pick(g, &[1, 1, 2, 3, 4, 5, 7, 8, 9, 16]);
        let lines = pick(g, &[1, 1, 2, 3, 4, 5]);
        let planes = if three_d { pick(g, &[1, 2, 3]) } else { 1 };
        let mut c = Case {
            three_d,
            elem_bytes,
            elems_per_line,
            lines,
            planes,
            g_src: Layout::random(g, elems_per_line, lines),
            s_dst: Layout::random(g, elems_per_line, lines),
            s_src: Layout::random(g, elems_per_line, lines),
            g_dst: Layout::random(g, elems_per_line, lines),
            s_dst_ptr: 0,
            s_src_ptr: 0,
            wg_stride: 0,
            workgroups: pick(g, &[1, 1, 2, 3]),
            local_size: pick(
                g,
                &[
                    [1, 1, 1],
                    [7, 1, 1],
                    [16, 1, 1],
                    [8, 4, 1],
                    [3, 3, 3],
                    [32, 1, 1],
                    [64, 1, 1],
                    [5, 2, 1],
                ],
            ),
            subgroup_size: pick(g, &[None, Some(8), Some(16), Some(32)]),
            exec_subgroup: pick(g, &[8, 16, 32]),
            dynamic_shape: small(g, 3) == 0,
            dynamic_elem_bytes: small(g, 5) == 0,
            seed: u64::arbitrary(g),
        };
        if bool::arbitrary(g) {
            // Shapes 2D block messages can take (on PVC and Xe2): a fixed subgroup size,
            // whole subgroups, constant shapes.
            c.subgroup_size = Some(pick(g, &[8, 16, 32]));
            c.local_size = pick(
                g,
                &[[32, 1, 1], [64, 1, 1], [8, 4, 1], [16, 2, 1], [96, 1, 1]],
            );
            c.dynamic_shape = false;
            c.dynamic_elem_bytes = false;
        }
        if !three_d {
            // 2D copies have no plane areas.
            for l in [&mut c.g_src, &mut c.s_dst, &mut c.s_src, &mut c.g_dst] {
                l.plane_area = 0;
            }
        }
        // The shared regions: the second copy often reads what the first wrote (same
        // pointer), sometimes another place.
        let eb = c.elem_bytes;
        c.s_dst_ptr = eb * small(g, 3);
        c.s_src_ptr = if bool::arbitrary(g) {
            c.s_dst_ptr
        } else {
            eb * small(g, 6)
        };
        c.wg_stride = if c.workgroups > 1 {
            pick(g, &[0, 1, c.g_src.extent(&c), c.g_dst.extent(&c) + 2])
        } else {
            0
        };
        c
    }
}

/// Deterministic bytes.
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

impl Case {
    fn plane_area(&self, l: &Layout) -> u32 {
        if self.three_d {
            l.plane_area
        } else {
            self.lines * l.line_length
        }
    }

    /// Bytes of the global source and destination buffers.
    fn global_sizes(&self) -> (usize, usize) {
        let more = (self.workgroups - 1) * self.wg_stride;
        (
            ((self.g_src.extent(self) + more) * self.elem_bytes) as usize,
            ((self.g_dst.extent(self) + more) * self.elem_bytes) as usize,
        )
    }

    /// The independent model: copies element by element. Returns the global destination
    /// and the last workgroup's shared memory.
    fn model(&self, src: &[u8], dst: &[u8], shared_init: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let eb = self.elem_bytes as usize;
        let mut dst = dst.to_vec();
        let mut shared = Vec::new();
        let index = |l: &Layout, pa: u32, wg_off: u32, p: u32, ln: u32, e: u32| {
            (l.offset + wg_off + p * pa + ln * l.line_length + e) as usize
        };
        for wg in 0..self.workgroups {
            shared = shared_init.to_vec();
            shared.resize(SHARED_SIZE, 0);
            let off = wg * self.wg_stride;
            for p in 0..self.planes {
                for ln in 0..self.lines {
                    for e in 0..self.elems_per_line {
                        let s = index(&self.g_src, self.plane_area(&self.g_src), off, p, ln, e);
                        let d = index(&self.s_dst, self.plane_area(&self.s_dst), 0, p, ln, e);
                        let d = self.s_dst_ptr as usize + d * eb;
                        shared[d..d + eb].copy_from_slice(&src[s * eb..s * eb + eb]);
                    }
                }
            }
            for p in 0..self.planes {
                for ln in 0..self.lines {
                    for e in 0..self.elems_per_line {
                        let s = index(&self.s_src, self.plane_area(&self.s_src), 0, p, ln, e);
                        let s = self.s_src_ptr as usize + s * eb;
                        let d = index(&self.g_dst, self.plane_area(&self.g_dst), off, p, ln, e);
                        dst[d * eb..d * eb + eb].copy_from_slice(&shared[s..s + eb]);
                    }
                }
            }
        }
        (dst, shared)
    }

    /// The shader: two copies and two waits. Global bases come from push constants 0
    /// and 8; dynamic operands from push constants 16 on (their values in the returned
    /// list).
    fn shader(&self) -> (Shader, Vec<u32>) {
        let [x, y, z] = self.local_size;
        let mut t = Text::default();
        t.text
            .push_str(&format!("shader compute (local_size={x},{y},{z}"));
        if let Some(s) = self.subgroup_size {
            t.text.push_str(&format!(", subgroup_size={s}"));
        }
        t.text.push_str(")\nfn main {\n  block b0:\n");
        let zero = t.line("32", "load_const (0x00000000)".into());
        let eight = t.line("32", "load_const (0x00000008)".into());
        let g_src = t.line(
            "64",
            format!("@load_push_constant ({zero}) (base=0, range=256)"),
        );
        let g_dst = t.line(
            "64",
            format!("@load_push_constant ({eight}) (base=0, range=256)"),
        );
        let wg = t.line("32x3", "@load_workgroup_id".into());
        let dynamic = self.dynamic_shape;
        let eb = t.operand(self.elem_bytes, dynamic || self.dynamic_elem_bytes);
        let epl = t.operand(self.elems_per_line, dynamic);
        let lines = t.operand(self.lines, dynamic);
        let planes = t.operand(self.planes, dynamic);
        let stride = t.operand(self.wg_stride, false);
        let wg_off = t.line("32", format!("imul {wg}.x, {stride}"));
        let region = |t: &mut Text, l: &Layout, global: bool| {
            let off = t.operand(l.offset, false);
            let off = if global {
                t.line("32", format!("iadd {off}, {wg_off}"))
            } else {
                off
            };
            let ll = t.operand(l.line_length, dynamic);
            let pa = t.operand(l.plane_area, dynamic);
            [off, ll, pa]
        };
        let gs = region(&mut t, &self.g_src, true);
        let sd = region(&mut t, &self.s_dst, false);
        let ss = region(&mut t, &self.s_src, false);
        let gd = region(&mut t, &self.g_dst, true);
        let sd_ptr = t.operand(self.s_dst_ptr, false);
        let ss_ptr = t.operand(self.s_src_ptr, false);
        let copy = |dst: &str, src: &str, d: &[String; 3], s: &[String; 3]| {
            let ([doff, dll, dpa], [soff, sll, spa]) = (d, s);
            if self.three_d {
                format!("@group_async_copy_3d3d ({dst}, {doff}, {src}, {soff}, {eb}, {epl}, {lines}, {planes}, {sll}, {spa}, {dll}, {dpa}, {zero})")
            } else {
                format!("@group_async_copy_2d2d ({dst}, {doff}, {src}, {soff}, {eb}, {epl}, {lines}, {sll}, {dll}, {zero})")
            }
        };
        let e1 = t.line("32", copy(&sd_ptr, &g_src, &sd, &gs));
        t.text.push_str(&format!("    @group_wait_events ({e1})\n"));
        let e2 = t.line("32", copy(&g_dst, &ss_ptr, &gd, &ss));
        t.text
            .push_str(&format!("    @group_wait_events ({e2})\n}}\n"));
        let text = t.text;
        let shader = ir::parse_shader(&text).unwrap_or_else(|d| panic!("{text}\n{d:?}"));
        if let Err(d) = ir::validate(&shader) {
            panic!("{text}\n{d:?}");
        }
        (shader, t.push)
    }

    /// Runs `shader` on fresh memory; returns the global destination and the shared
    /// memory at the end.
    fn run(&self, shader: &Shader, push: &[u32]) -> Result<(Vec<u8>, Vec<u8>), String> {
        let (src_n, dst_n) = self.global_sizes();
        let mut ex = Executor::with_config(
            shader,
            ExecConfig {
                subgroup_size: self.exec_subgroup,
                shared_size: SHARED_SIZE,
                log_accesses: false,
                ..ExecConfig::default()
            },
        );
        let src = ex.memory.alloc("src", bytes(self.seed, src_n));
        let dst = ex.memory.alloc("dst", bytes(self.seed ^ 0xd57, dst_n));
        let mut pc = ex.memory.allocation(src).base.to_le_bytes().to_vec();
        pc.extend(ex.memory.allocation(dst).base.to_le_bytes());
        for v in push {
            pc.extend(v.to_le_bytes());
        }
        pc.resize(256, 0);
        ex.memory.set_push_constants(pc);
        ex.set_initial_shared(bytes(self.seed ^ 0x5a5, 4096));
        ex.run([self.workgroups, 1, 1]).map_err(|e| e.to_string())?;
        Ok((
            ex.memory.allocation(dst).bytes.clone(),
            ex.memory.shared().to_vec(),
        ))
    }
}

/// Shader text being written: numbered values and the dynamic operands' values.
#[derive(Default)]
struct Text {
    text: String,
    next: u32,
    push: Vec<u32>,
}

impl Text {
    fn line(&mut self, ty: &str, rhs: String) -> String {
        let v = format!("%{}", self.next);
        self.next += 1;
        self.text.push_str(&format!("    {ty} {v} = {rhs}\n"));
        v
    }

    /// A 32-bit operand: a constant, or a push constant holding `v`.
    fn operand(&mut self, v: u32, dynamic: bool) -> String {
        if dynamic {
            let off = 16 + 4 * self.push.len() as u32;
            self.push.push(v);
            let o = self.line("32", format!("load_const (0x{off:08x})"));
            self.line(
                "32",
                format!("@load_push_constant ({o}) (base=0, range=256)"),
            )
        } else {
            self.line("32", format!("load_const (0x{v:08x})"))
        }
    }
}

static CASES: AtomicUsize = AtomicUsize::new(0);
static LOWERED_RUNS: AtomicUsize = AtomicUsize::new(0);
static BLOCK_CASES: AtomicUsize = AtomicUsize::new(0);
static BLOCK_MESSAGES: AtomicUsize = AtomicUsize::new(0);

fn check_case(c: Case) -> TestResult {
    let c = &c;
    let (shader, push) = c.shader();
    let (src_n, dst_n) = c.global_sizes();
    let (want_dst, want_shared) = c.model(
        &bytes(c.seed, src_n),
        &bytes(c.seed ^ 0xd57, dst_n),
        &bytes(c.seed ^ 0x5a5, 4096),
    );
    let compare = |what: &str, got: (Vec<u8>, Vec<u8>)| -> Result<(), String> {
        if got.0 != want_dst {
            let i = got.0.iter().zip(&want_dst).position(|(a, b)| a != b);
            return Err(format!("{what}: global destination differs at byte {i:?}"));
        }
        if got.1 != want_shared {
            let i = got.1.iter().zip(&want_shared).position(|(a, b)| a != b);
            return Err(format!("{what}: shared memory differs at byte {i:?}"));
        }
        Ok(())
    };
    let reference = match c.run(&shader, &push) {
        Ok(r) => r,
        Err(e) => return TestResult::error(format!("reference: {e}")),
    };
    if let Err(e) = compare("reference", reference) {
        return TestResult::error(e);
    }
    // Lower for every preset; run each distinct lowered shader once.
    let mut runs: HashMap<String, String> = HashMap::new();
    let mut block2d = false;
    for device in Device::presets() {
        let mut lowered = shader.clone();
        match lower_async_copies(&mut lowered, &device, &AsyncCopyOptions::default()) {
            // Gfx7 has no A64 messages to reach the global side with: the copy must be
            // refused, never lowered.
            Err(e)
                if !device.has_a64
                    && e.kind == LowerErrorKind::A64Unsupported(A64Use::GroupCopy) =>
            {
                continue
            }
            Ok(_) if !device.has_a64 => {
                return TestResult::error(format!("{}: lowered without A64", device.name))
            }
            Ok(r) => {
                if r.block2d_copies > 0 {
                    block2d = true;
                }
                BLOCK_MESSAGES.fetch_add(r.block2d_messages, Ordering::Relaxed);
            }
            Err(e) => return TestResult::error(format!("{}: lowering failed: {e}", device.name)),
        }
        if let Err(d) = ir::validate(&lowered) {
            return TestResult::error(format!("{}: invalid after lowering: {d:?}", device.name));
        }
        for f in &lowered.functions {
            if let Err(errs) = lowering::messages::check_function(&device, &lowered.images, f) {
                return TestResult::error(format!("{}: illegal message: {}", device.name, errs[0]));
            }
        }
        let text = ir::print_shader(&lowered);
        if runs.contains_key(&text) {
            continue;
        }
        runs.insert(text, device.name.clone());
        LOWERED_RUNS.fetch_add(1, Ordering::Relaxed);
        let got = match c.run(&lowered, &push) {
            Ok(r) => r,
            Err(e) => return TestResult::error(format!("{} lowered: {e}", device.name)),
        };
        if let Err(e) = compare(&format!("{} lowered", device.name), got) {
            return TestResult::error(e);
        }
        // The -O pipeline's cleanup must keep it right too (once per distinct shader).
        let mut cleaned = lowered;
        if let Err(e) = ir::passes::Cleanup::standard(8).run(&mut cleaned) {
            return TestResult::error(format!("cleanup: {e:?}"));
        }
        match c.run(&cleaned, &push) {
            Ok(r) => {
                if let Err(e) = compare(&format!("{} lowered + cleanup", device.name), r) {
                    return TestResult::error(e);
                }
            }
            Err(e) => return TestResult::error(format!("{} cleaned: {e}", device.name)),
        }
    }
    CASES.fetch_add(1, Ordering::Relaxed);
    if block2d {
        BLOCK_CASES.fetch_add(1, Ordering::Relaxed);
    }
    TestResult::passed()
}

#[test]
fn lowered_copies_match_the_reference_and_the_model_on_every_platform() {
    let n = cases(40);
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(50, 0xa5c0_0001))
        .tests(n)
        .max_tests(n * 10)
        .quickcheck(check_case as fn(Case) -> TestResult);
    let (cases, blocks) = (
        CASES.load(Ordering::Relaxed),
        BLOCK_CASES.load(Ordering::Relaxed),
    );
    eprintln!(
        "async copies: {cases} cases ({blocks} with 2D block messages on some platform, {} block messages in all), {} distinct lowered shaders run (each also after cleanup), 12 platforms each",
        BLOCK_MESSAGES.load(Ordering::Relaxed),
        LOWERED_RUNS.load(Ordering::Relaxed)
    );
    // The generator reaches both strategies.
    assert!(
        blocks * 5 >= cases,
        "too few block2d cases: {blocks} of {cases}"
    );
    assert!(blocks < cases, "no loop-only case");
}

/// A case whose shape breaks the specification's overlap rules (dynamic operands, so
/// that the validator cannot see it).
#[derive(Clone, Debug)]
struct Overlap {
    case: Case,
    planes_overlap: bool,
}

impl Arbitrary for Overlap {
    fn arbitrary(g: &mut Gen) -> Overlap {
        let mut case = Case::arbitrary(g);
        case.dynamic_shape = true;
        let planes_overlap = bool::arbitrary(g);
        if planes_overlap {
            case.three_d = true;
            case.lines = case.lines.max(2);
            case.planes = case.planes.max(2);
            case.g_src.line_length = case.elems_per_line + 1;
            case.g_src.plane_area = case.lines * case.g_src.line_length - 1;
        } else {
            case.elems_per_line = case.elems_per_line.max(2);
            case.g_src.line_length = case.elems_per_line - 1;
            if case.three_d {
                case.g_src.plane_area = case.lines * case.elems_per_line;
            }
        }
        Overlap {
            case,
            planes_overlap,
        }
    }
}

static OVERLAPS: AtomicUsize = AtomicUsize::new(0);

#[test]
fn the_executor_reports_overlapping_lines_and_planes() {
    fn prop(o: Overlap) -> TestResult {
        let (shader, push) = o.case.shader();
        let e = match o.case.run(&shader, &push) {
            Ok(_) => return TestResult::error("an overlapping copy ran"),
            Err(e) => e,
        };
        let want = if o.planes_overlap {
            "overlapping planes: the source plane area"
        } else {
            "overlapping lines: the source line length"
        };
        if !e.contains(want) || !e.contains("group_async_copy") {
            return TestResult::error(format!("expected `{want}`, got: {e}"));
        }
        OVERLAPS.fetch_add(1, Ordering::Relaxed);
        TestResult::passed()
    }
    let n = cases(40);
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(50, 0xa5c0_0002))
        .tests(n)
        .max_tests(n * 10)
        .quickcheck(prop as fn(Overlap) -> TestResult);
    eprintln!(
        "async copies: {} overlapping copies reported",
        OVERLAPS.load(Ordering::Relaxed)
    );
}
