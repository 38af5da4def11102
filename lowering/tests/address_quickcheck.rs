//! The emitted texel-address code agrees with the tiling crate's reference layout.
//!
//! Each case is a random surface (every platform preset, every tiling the platform allows
//! for a storage image of the format and dimensionality, formats of every texel size,
//! levels, layers and cubes) and a random view of it (base level, base layer or slice).
//! The address code of [`AddressPlan`] is emitted into a function that stores the
//! address of 32 random in-range coordinates (one per SIMD lane), either reading the
//! layout from the parameter block (`tiling::fill_image_param`) or, where the tiling can
//! be named by an `ir::StaticLayout`, with the layout part as constants. The function is
//! run by the interpreter (`ir::interp`) before and after the cleanup passes, with an
//! environment serving `image_load_param` from the block, and every address must equal
//! `tiling::Surface::texel_offset` (with Mesa's bit-6 swizzle where the device swizzles),
//! modulo 2^32. Multisampled images (every sample count, the tilings a device gives
//! them) are checked against `tiling::Surface::sample_offset`.
//!
//! Fixed seeds; `QC_TESTS=<n>` runs `n` cases per property instead of the default.

use ir::interp::{Config, Env, EnvError, Interpreter, IntrinsicCall};
use ir::passes::{Cleanup, Pass};
use ir::{
    Access, Builder, Format, Function, ImageDecl, ImageDim, ImageRef, IndexKind, IntrinsicOp,
    LayoutTiling, Shader, Src, StaticLayout,
};
use lowering::address::{static_layout_tiling, AddressPlan};
use lowering::format::isl_format;
use lowering::Device;
use quickcheck::{Arbitrary, Gen as QcGen, QuickCheck, TestResult};

mod random_images;
use random_images::{below, extent, pick, qc_tests, storage_surface, surf_dim, view_and_param};
use tiling::{
    fill_buffer_image_param, fill_image_param, storage_tilings, Gen, ImageParam, ImageView,
    SurfDim, Surface, SurfaceDesc, Tiling, Usage,
};

const LANES: usize = 32;

/// Formats of every texel size (8 to 128 bits).
const FORMATS: [Format; 15] = [
    Format::R8Uint,
    Format::R8Snorm,
    Format::Rg8Unorm,
    Format::R16Float,
    Format::R16Uint,
    Format::Rgba8Unorm,
    Format::R32Float,
    Format::Rg16Sint,
    Format::Rgb10A2Unorm,
    Format::R11G11B10Float,
    Format::Rgba16Float,
    Format::Rg32Uint,
    Format::R64Uint,
    Format::Rgba32Float,
    Format::Rgba32Uint,
];

/// Extents: edge sizes, non-powers of two, and sizes spanning several tiles of every
/// kind (a Tile64 tile is up to 1 KiB wide and 256 rows high).
const SIZES: [u32; 14] = [1, 2, 3, 5, 8, 16, 17, 33, 64, 100, 129, 257, 300, 513];
const DEPTHS: [u32; 9] = [1, 2, 3, 5, 8, 16, 17, 33, 40];

/// One random image, view and set of coordinates.
#[derive(Clone, Debug)]
struct Case {
    device: Device,
    dim: ImageDim,
    arrayed: bool,
    format: Format,
    /// `None` for buffers.
    surface: Option<SurfaceDesc>,
    view: Option<ImageView>,
    swizzle: bool,
    layout: Option<StaticLayout>,
    /// `(x, y, z, w)` per lane in the image's coordinate order (unused components 0;
    /// `w` is a multisampled array's sample).
    coords: Vec<[u32; 4]>,
    /// The reference address per lane.
    expect: Vec<u64>,
    param: ImageParam,
}

impl Case {
    /// A case with the layout part dynamic (`statics == false`) or, when the tiling has a
    /// static-layout name, static. `None` when the random choices give no valid surface.
    fn generate(g: &mut QcGen, statics: bool) -> Option<Case> {
        let mut device = g.choose(&Device::presets()).expect("presets").clone();
        // Half the cases model a driver that lets isl choose any storage tiling (Yf and
        // Ys included, tiled 1D): the address code must follow the device's policy.
        if bool::arbitrary(g) {
            device.storage_tilings = Tiling::ALL.to_vec();
            device.linear_1d_storage = false;
        }
        let gen = Gen::from_verx10(device.verx10())?;
        let format = pick(g, &FORMATS);
        let tformat = isl_format(format)?;
        let (dim, arrayed) = pick(
            g,
            &[
                (ImageDim::D1, false),
                (ImageDim::D1, true),
                (ImageDim::D2, false),
                (ImageDim::D2, false),
                (ImageDim::D2, true),
                (ImageDim::Cube, false),
                (ImageDim::Cube, true),
                (ImageDim::D3, false),
                (ImageDim::D3, false),
                (ImageDim::Buffer, false),
            ],
        );
        if dim == ImageDim::Buffer {
            if statics {
                return None;
            }
            let cpp = tformat.cpp();
            let texels = 1 + below(g, 100_000);
            let param = fill_buffer_image_param(tformat, texels as u64 * cpp as u64);
            let coords: Vec<[u32; 4]> = (0..LANES).map(|_| [below(g, texels), 0, 0, 0]).collect();
            let expect = coords.iter().map(|c| c[0] as u64 * cpp as u64).collect();
            return Some(Case {
                device,
                dim,
                arrayed,
                format,
                surface: None,
                view: None,
                swizzle: false,
                layout: None,
                coords,
                expect,
                param,
            });
        }
        let sdim = surf_dim(dim);
        // Without a static layout the address code handles the driver's tilings
        // (`Device::storage_tilings_for`); a static layout may name any storage tiling
        // isl allows.
        let tilings = if statics {
            storage_tilings(gen, tformat, sdim)
        } else {
            device.storage_tilings_for(tformat, sdim)
        };
        if tilings.is_empty() {
            return None;
        }
        let tiling = pick(g, &tilings);
        if statics && static_layout_tiling(tiling).is_none() {
            return None;
        }
        let cube = dim == ImageDim::Cube;
        let [w, h, d] = extent(g, sdim, cube, &SIZES, &DEPTHS);
        let layers = if cube {
            6 * pick(g, &[1, 1, 2, 3])
        } else if sdim == SurfDim::D3 {
            1
        } else {
            pick(g, &[1, 1, 2, 3, 7])
        };
        let largest = w.max(h).max(d);
        let levels = 1 + below(g, 32 - largest.leading_zeros());
        let surface = storage_surface(gen, sdim, tformat, tiling, [w, h, d], levels, layers, cube)?;
        let level = below(g, levels);
        let (base, count) = match (dim, arrayed) {
            (ImageDim::D3, _) => {
                let slices = tiling::minify(d, level);
                let base = if bool::arbitrary(g) {
                    0
                } else {
                    below(g, slices)
                };
                let count = if base == 0 && bool::arbitrary(g) {
                    slices
                } else {
                    1 + below(g, slices - base)
                };
                (base, count)
            }
            (ImageDim::Cube, false) => (6 * below(g, layers / 6), 6),
            (ImageDim::Cube, true) => (0, layers),
            (_, false) => (below(g, layers), 1),
            (_, true) => {
                let base = below(g, layers);
                (base, 1 + below(g, layers - base))
            }
        };
        let (view, swizzle, param) = view_and_param(g, &device, &surface, level, [base, count])?;
        let size = param.size;
        let mut coords = Vec::with_capacity(LANES);
        let mut expect = Vec::with_capacity(LANES);
        for _ in 0..LANES {
            let x = below(g, size[0]);
            // Coordinates in the image's order, and the surface's (y, layer_or_z).
            let (c, y, z) = match (dim, arrayed) {
                (ImageDim::D1, false) => ([x, 0, 0], 0, 0),
                (ImageDim::D1, true) => {
                    let l = below(g, size[1]);
                    ([x, l, 0], 0, l)
                }
                (ImageDim::D2, false) => {
                    let y = below(g, size[1]);
                    ([x, y, 0], y, 0)
                }
                _ => {
                    let y = below(g, size[1]);
                    let z = below(g, size[2]);
                    ([x, y, z], y, z)
                }
            };
            let off = match surface.texel_offset(
                x,
                y,
                base + z,
                level,
                tiling::Bit6Swizzle::from_has_bit6_swizzling(swizzle),
            ) {
                Ok(o) => o,
                Err(e) => panic!("the reference rejects ({x}, {y}, {z}) of {view:?}: {e}"),
            };
            coords.push([c[0], c[1], c[2], 0]);
            expect.push(off);
        }
        let layout = if statics {
            Some(StaticLayout {
                tiling: static_layout_tiling(tiling)?,
                row_pitch: surface.row_pitch_B(),
                qpitch: (u8::arbitrary(g) % 4 != 0).then_some(surface.array_pitch_el_rows()),
                swizzle,
            })
        } else {
            None
        };
        Some(Case {
            device,
            dim,
            arrayed,
            format,
            surface: Some(*surface.desc()),
            view: Some(view),
            swizzle,
            layout,
            coords,
            expect,
            param,
        })
    }
}

impl Case {
    /// A multisampled storage image (2D or 2D array, 2 to 16 samples, a tiling the
    /// device gives such images: Y before Gfx12.5, Tile64 from it, whose tiles keep
    /// several samples) and a view of some of its layers, with coordinates `(x, y,
    /// sample)` or `(x, y, layer, sample)`. `None` when the choices give no surface.
    fn generate_multisampled(g: &mut QcGen) -> Option<Case> {
        let device = g.choose(&Device::presets()).expect("presets").clone();
        let gen = Gen::from_verx10(device.verx10())?;
        let format = pick(g, &FORMATS);
        let tformat = isl_format(format)?;
        let samples = pick(g, &lowering::device::MULTISAMPLE_COUNTS);
        let tilings: Vec<Tiling> = tiling::multisampled_tilings(gen, tformat, samples)
            .into_iter()
            .filter(|t| device.multisampled_storage_tilings_for(tformat).contains(t))
            .collect();
        if tilings.is_empty() {
            return None;
        }
        let tiling = pick(g, &tilings);
        let arrayed = bool::arbitrary(g);
        let [w, h, _] = extent(g, SurfDim::D2, false, &SIZES, &DEPTHS);
        let layers = if arrayed { pick(g, &[1, 2, 3, 7]) } else { 1 };
        let desc = SurfaceDesc::new(gen, SurfDim::D2, tformat, tiling)
            .extent(w, h, 1)
            .array_len(layers)
            .samples(samples)
            .usage(Usage::STORAGE);
        let surface = Surface::new(desc).ok()?;
        let base = below(g, layers);
        let count = if arrayed {
            1 + below(g, layers - base)
        } else {
            1
        };
        let (view, swizzle, param) = view_and_param(g, &device, &surface, 0, [base, count])?;
        let bit6 = tiling::Bit6Swizzle::from_has_bit6_swizzling(swizzle);
        let mut coords = Vec::with_capacity(LANES);
        let mut expect = Vec::with_capacity(LANES);
        for _ in 0..LANES {
            let (x, y) = (below(g, w), below(g, h));
            let l = below(g, count);
            let s = below(g, samples);
            let off = surface
                .sample_offset(x, y, base + l, s, 0, bit6)
                .unwrap_or_else(|e| panic!("the reference rejects ({x}, {y}, {l}, {s}): {e}"));
            coords.push(if arrayed { [x, y, l, s] } else { [x, y, s, 0] });
            expect.push(off);
        }
        Some(Case {
            device,
            dim: ImageDim::Ms,
            arrayed,
            format,
            surface: Some(*surface.desc()),
            view: Some(view),
            swizzle,
            layout: None,
            coords,
            expect,
            param,
        })
    }
}

/// Multisampled cases.
#[derive(Clone, Debug)]
struct Multisampled(Case);

impl Arbitrary for Multisampled {
    fn arbitrary(g: &mut QcGen) -> Multisampled {
        loop {
            if let Some(c) = Case::generate_multisampled(g) {
                return Multisampled(c);
            }
        }
    }
}

/// Dynamic-layout cases.
#[derive(Clone, Debug)]
struct Dynamic(Case);
/// Static-layout cases.
#[derive(Clone, Debug)]
struct Static(Case);

impl Arbitrary for Dynamic {
    fn arbitrary(g: &mut QcGen) -> Dynamic {
        loop {
            if let Some(c) = Case::generate(g, false) {
                return Dynamic(c);
            }
        }
    }
}

impl Arbitrary for Static {
    fn arbitrary(g: &mut QcGen) -> Static {
        loop {
            if let Some(c) = Case::generate(g, true) {
                return Static(c);
            }
        }
    }
}

/// Serves the coordinates (as `load_global_invocation_id`) and the parameter block, and
/// records what `store_global` stores.
struct BlockEnv<'a> {
    coords: &'a [[u32; 4]],
    param: &'a ImageParam,
    stored: Vec<Option<u64>>,
}

impl Env for BlockEnv<'_> {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        let lanes: Vec<usize> = call.active_lanes().collect();
        match call.op() {
            IntrinsicOp::LoadGlobalInvocationId => {
                for l in lanes {
                    let c = self.coords[call.invocations[l] as usize];
                    call.set_dest(l, &[c[0] as u64, c[1] as u64, c[2] as u64]);
                }
            }
            // A multisampled array's fourth coordinate component.
            IntrinsicOp::LoadLocalInvocationId => {
                for l in lanes {
                    let c = self.coords[call.invocations[l] as usize];
                    call.set_dest(l, &[c[3] as u64, 0, 0]);
                }
            }
            IntrinsicOp::ImageLoadParam => {
                let slot = call
                    .index(IndexKind::Base)
                    .ok_or_else(|| EnvError::msg("image_load_param without base"))?;
                let v = self.param.slot(slot);
                for l in lanes {
                    call.set_dest(l, &v.map(|d| d as u64));
                }
            }
            IntrinsicOp::StoreGlobal => {
                for l in lanes {
                    self.stored[l] = Some(call.src_scalar(0, l));
                }
            }
            op => return Err(EnvError::msg(format!("unexpected intrinsic {op}"))),
        }
        Ok(())
    }
}

/// A shader storing the address of lane `i`'s coordinate, and the lowered plan.
fn address_shader(case: &Case) -> Result<Shader, String> {
    let mut shader = Shader::new([LANES as u32, 1, 1]);
    let decl = ImageDecl {
        name: "img".into(),
        dim: case.dim,
        arrayed: case.arrayed,
        format: case.format,
        access: Access::NONE,
        binding: 0,
        count: None,
        layout: case.layout,
    };
    let plan = AddressPlan::new(
        &case.device,
        case.dim,
        case.arrayed,
        case.format,
        case.layout.as_ref(),
    )
    .map_err(|e| format!("no plan: {e}"))?;
    let id = shader.add_image(decl.clone());
    let mut f = Function::new("main");
    let mut b = Builder::at_end(&mut f);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    let n = decl.coord_components();
    let coord = if n == 4 {
        let lid = b.system_value(IntrinsicOp::LoadLocalInvocationId);
        let v = b.vec(&[
            Src::channel(gid, 0),
            Src::channel(gid, 1),
            Src::channel(gid, 2),
            Src::channel(lid, 0),
        ]);
        Src::new(v)
    } else {
        let comps: Vec<u8> = (0..n).collect();
        Src::swizzled(gid, &comps).expect("1 to 3 components")
    };
    let addr = plan.emit(&mut b, ImageRef::new(id), coord);
    let sink = b.imm_u64(0x1000);
    b.intrinsic(
        IntrinsicOp::StoreGlobal,
        None,
        &[Src::new(addr), Src::new(sink)],
        &[0, 4],
        None,
    );
    shader.functions.push(f);
    if let Err(e) = ir::validate(&shader) {
        return Err(format!(
            "invalid shader: {e:?}\n{}",
            ir::print_shader(&shader)
        ));
    }
    Ok(shader)
}

fn run(shader: &Shader, case: &Case) -> Result<Vec<u64>, String> {
    let f = &shader.functions[0];
    let mut env = BlockEnv {
        coords: &case.coords,
        param: &case.param,
        stored: vec![None; LANES],
    };
    let inv: Vec<u32> = (0..LANES as u32).collect();
    Interpreter::new(shader, f, Config::default())
        .run(&inv, &mut env)
        .map_err(|e| format!("interpreter: {e}"))?;
    env.stored
        .into_iter()
        .enumerate()
        .map(|(l, v)| v.ok_or_else(|| format!("lane {l} stored nothing")))
        .collect()
}

fn check(case: &Case) -> TestResult {
    let shader = match address_shader(case) {
        Ok(s) => s,
        Err(e) => return TestResult::error(format!("{e}\n{case:#?}")),
    };
    let mut cleaned = shader.clone();
    if let Err(e) = Cleanup::standard(16).run(&mut cleaned) {
        return TestResult::error(format!("cleanup: {e}"));
    }
    for (what, sh) in [("emitted", &shader), ("after cleanup", &cleaned)] {
        let got = match run(sh, case) {
            Ok(g) => g,
            Err(e) => return TestResult::error(format!("{what}: {e}\n{}", ir::print_shader(sh))),
        };
        for (l, (&g, &want)) in got.iter().zip(&case.expect).enumerate() {
            if g != want & 0xffff_ffff {
                let c = case.coords[l];
                return TestResult::error(format!(
                    "{what}: lane {l} coord {c:?}: address {g:#x}, reference {want:#x} \
                     (param formula {:#x})\n{case:#?}\n{}",
                    case.param.texel_address(c[0], c[1], c[2]),
                    ir::print_shader(sh)
                ));
            }
        }
    }
    TestResult::passed()
}

fn check_dynamic(c: Dynamic) -> TestResult {
    check(&c.0)
}

fn check_static(c: Static) -> TestResult {
    check(&c.0)
}

fn check_multisampled(c: Multisampled) -> TestResult {
    check(&c.0)
}

/// Multisampled storage images: sample `s` of layer `l` at physical slice
/// `l * SAMPLES + s`, the in-tile sample bits of Ys and Tile64 in the R fields.
#[test]
fn multisampled_addresses_match_the_reference() {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x0adc_0005))
        .tests(qc_tests(200))
        .max_tests(10 * qc_tests(200))
        .quickcheck(check_multisampled as fn(Multisampled) -> TestResult);
}

#[test]
fn dynamic_layout_addresses_match_the_reference() {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x0adc_0001))
        .tests(qc_tests(300))
        .max_tests(10 * qc_tests(300))
        .quickcheck(check_dynamic as fn(Dynamic) -> TestResult);
}

#[test]
fn static_layout_addresses_match_the_reference() {
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(100, 0x0adc_0002))
        .tests(qc_tests(200))
        .max_tests(10 * qc_tests(200))
        .quickcheck(check_static as fn(Static) -> TestResult);
}

/// The fixed-seed generators reach what the properties claim to cover.
#[test]
fn generators_cover_platforms_tilings_dimensions_and_views() {
    use std::collections::BTreeSet;
    let mut g = QcGen::from_size_and_seed(100, 0x0adc_0001);
    let n = qc_tests(300);
    let (mut devices, mut tilings, mut dims) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let (mut swizzled, mut slabs, mut gfx4_3d, mut levels, mut layers, mut slices) =
        (false, false, false, false, false, false);
    for _ in 0..n {
        let c = Dynamic::arbitrary(&mut g).0;
        devices.insert(c.device.name.clone());
        dims.insert(format!(
            "{}{}",
            c.dim,
            if c.arrayed { " array" } else { "" }
        ));
        let (Some(desc), Some(view)) = (c.surface, c.view) else {
            continue;
        };
        tilings.insert(desc.tiling);
        swizzled |= c.swizzle;
        let is3d = c.dim == ImageDim::D3;
        slabs |= is3d && matches!(desc.tiling, Tiling::Tile64 | Tiling::Ys);
        gfx4_3d |= is3d && c.device.verx10() < 90;
        levels |= view.base_level > 0;
        layers |= !is3d && view.base_layer > 0;
        slices |= is3d && view.base_layer > 0;
    }
    assert_eq!(devices.len(), Device::PRESET_NAMES.len(), "{devices:?}");
    for t in [
        Tiling::Linear,
        Tiling::X,
        Tiling::Y,
        Tiling::Yf,
        Tiling::Ys,
        Tiling::Tile4,
        Tiling::Tile64,
    ] {
        assert!(tilings.contains(&t), "{t} not covered: {tilings:?}");
    }
    assert_eq!(dims.len(), 8, "{dims:?}");
    assert!(swizzled && slabs && gfx4_3d && levels && layers && slices);

    let mut g = QcGen::from_size_and_seed(100, 0x0adc_0002);
    let mut statics = BTreeSet::new();
    for _ in 0..qc_tests(200) {
        let c = Static::arbitrary(&mut g).0;
        let l = c.layout.expect("static cases have a layout");
        statics.insert((l.tiling.name(), l.swizzle, l.qpitch.is_some()));
    }
    for t in LayoutTiling::ALL {
        assert!(statics.contains(&(t.name(), false, true)), "{statics:?}");
    }
    assert!(statics.iter().any(|s| s.1), "no swizzled static layout");
    assert!(
        statics.iter().any(|s| !s.2),
        "no static layout without qpitch"
    );
}

/// The worked vectors of docs/hardware/mesa-storage-images.md §6 (Mesa's formula, recomputed there
/// against isl's layouts), through the emitted code with the layout read from the block and with
/// static layouts.
#[test]
fn worked_vectors_of_the_reference() {
    struct V {
        device: &'static str,
        dim: ImageDim,
        arrayed: bool,
        format: Format,
        tiling: Tiling,
        extent: (u32, u32, u32),
        levels: u32,
        layers: u32,
        pitch: Option<u32>,
        level: u32,
        swizzle: bool,
        coord: [u32; 3],
        addr: u64,
    }
    let v2d = |level, swizzle, coord, addr| V {
        device: "bdw",
        dim: ImageDim::D2,
        arrayed: false,
        format: Format::Rgba8Unorm,
        tiling: Tiling::Y,
        extent: (512, 512, 1),
        levels: 10,
        layers: 1,
        pitch: None,
        level,
        swizzle,
        coord,
        addr,
    };
    let ivb = |format, tiling, pitch, swizzle, coord, addr| V {
        device: "ivb",
        dim: ImageDim::D2,
        arrayed: false,
        format,
        tiling,
        extent: (pitch / 16, 64, 1),
        levels: 1,
        layers: 1,
        pitch: Some(pitch),
        level: 0,
        swizzle,
        coord,
        addr,
    };
    let vectors = [
        v2d(0, false, [100, 37, 0], 78416),
        v2d(3, false, [5, 7, 0], 1344116),
        V {
            arrayed: true,
            layers: 2,
            ..v2d(0, false, [3, 4, 1], 1573004)
        },
        ivb(Format::Rgba32Float, Tiling::X, 4096, true, [40, 2, 0], 5312),
        ivb(
            Format::Rgba32Float,
            Tiling::X,
            4096,
            false,
            [40, 2, 0],
            5248,
        ),
        ivb(Format::Rgba32Float, Tiling::X, 4096, true, [70, 1, 0], 8736),
        ivb(
            Format::Rgba32Float,
            Tiling::X,
            4096,
            false,
            [70, 1, 0],
            8800,
        ),
        V {
            extent: (128, 64, 1),
            ..ivb(Format::Rg32Float, Tiling::Y, 1024, true, [22, 3, 0], 5744)
        },
        V {
            extent: (128, 64, 1),
            ..ivb(Format::Rg32Float, Tiling::Y, 1024, false, [22, 3, 0], 5680)
        },
        V {
            extent: (100, 8, 1),
            ..ivb(
                Format::Rgba32Float,
                Tiling::Linear,
                1600,
                false,
                [7, 3, 0],
                4912,
            )
        },
        V {
            device: "bdw",
            dim: ImageDim::D3,
            arrayed: false,
            format: Format::Rgba8Unorm,
            tiling: Tiling::Y,
            extent: (256, 256, 256),
            levels: 9,
            layers: 1,
            pitch: Some(1024),
            level: 2,
            swizzle: false,
            coord: [10, 20, 5],
            addr: 75572552,
        },
    ];
    for v in vectors {
        let device = Device::preset(v.device).unwrap();
        let gen = Gen::from_verx10(device.verx10()).unwrap();
        let tformat = isl_format(v.format).unwrap();
        let sdim = if v.dim == ImageDim::D3 {
            SurfDim::D3
        } else {
            SurfDim::D2
        };
        let mut desc = SurfaceDesc::new(gen, sdim, tformat, v.tiling)
            .extent(v.extent.0, v.extent.1, v.extent.2)
            .levels(v.levels)
            .array_len(v.layers)
            .usage(Usage::STORAGE);
        if let Some(p) = v.pitch {
            desc = desc.row_pitch(p);
        }
        let surface = Surface::new(desc).unwrap();
        let view = ImageView::level(&surface, v.level);
        let param = fill_image_param(
            &surface,
            &view,
            tiling::Bit6Swizzle::from_has_bit6_swizzling(v.swizzle),
        )
        .unwrap();
        for layout in [
            None,
            Some(StaticLayout {
                tiling: static_layout_tiling(v.tiling).unwrap(),
                row_pitch: surface.row_pitch_B(),
                qpitch: Some(surface.array_pitch_el_rows()),
                swizzle: v.swizzle,
            }),
        ] {
            let case = Case {
                device: device.clone(),
                dim: v.dim,
                arrayed: v.arrayed,
                format: v.format,
                surface: Some(desc),
                view: Some(view),
                swizzle: v.swizzle,
                layout,
                coords: vec![[v.coord[0], v.coord[1], v.coord[2], 0]; LANES],
                expect: vec![v.addr; LANES],
                param: param.clone(),
            };
            let r = check(&case);
            assert!(!r.is_failure(), "{:?} -> {}: {r:?}", v.coord, v.addr);
        }
    }
    // Buffer: x * cpp.
    let param = fill_buffer_image_param(tiling::Format::R32G32B32A32_FLOAT, 1 << 20);
    let case = Case {
        device: Device::preset("hsw").unwrap(),
        dim: ImageDim::Buffer,
        arrayed: false,
        format: Format::Rgba32Float,
        surface: None,
        view: None,
        swizzle: false,
        layout: None,
        coords: vec![[123, 0, 0, 0]; LANES],
        expect: vec![1968; LANES],
        param,
    };
    assert!(!check(&case).is_failure());
}
