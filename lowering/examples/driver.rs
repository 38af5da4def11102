//! A driver's use of the lowering, end to end: the integration guide.
//!
//! ```text
//! cargo run -p lowering --example driver            # for DG2
//! cargo run -p lowering --example driver -- ivb     # any name tile-calc --gen takes
//! ```
//!
//! A driver compiler that lowers storage-image accesses with this crate does five
//! things, each a step of `main` below:
//!
//! 1. **Build the shader.** With `ir::Builder` (as here), the text parser
//!    (`ir::parse_shader`) or a front end. Image declarations carry what the driver
//!    knows: dimension, format, access qualifiers, binding, and optionally a static
//!    surface layout that lets the lowering specialise the address code.
//! 2. **Describe the GPU.** `lowering::Device::preset` takes a code name (`dg2`, `arl`,
//!    `icl`) or a generation (`12.5`); `Device::new(name, gen)` starts a description of
//!    a part of the driver's own, whose public fields it then sets.
//! 3. **Lower.** `lowering::lower_shader(&mut shader, &device, &options)` validates the
//!    shader once, lowers every image access and group async copy to messages, and
//!    cleans up. On error the shader is unchanged and every problem is reported as a
//!    `LowerError`: an instruction, its position, the image and format, and a
//!    `LowerErrorKind` a driver can match on (`kind.code()` drops the data).
//! 4. **Bind what the report asks for.** `LowerReport::images` lists every declared
//!    image: the surface format its binding must be created with (`SurfaceFormat`:
//!    the lowered typed format, the view's format, or a raw buffer view), and whether
//!    typed messages, untyped messages or the sampler read it.
//! 5. **Fill the parameter blocks.** An image whose `param_block` is set is addressed
//!    (or sized) by the shader itself: the driver lays the surface out with `tiling`
//!    (the same layout the hardware uses), fills the block with
//!    `tiling::fill_image_param` for the bound view, and hands the shader the dwords of
//!    the slots it reads (`ImageParam::slot`; `ImageParam::to_dwords` for all of them).
//!    A shader that reads `BASE` forms 64-bit addresses: set the surface's address with
//!    `ImageParam::set_base_address`.
//!
//! 6. **Generate code.** The `visa` crate turns the lowered shader into one whole vISA
//!    kernel (`visa::emit_kernel`) that IGC's finalizer (GenX_IR) compiles: with the
//!    legacy data port's messages on BDW, SKL, ICL and TGL, with LSC messages on DG2,
//!    MTL and PVC (Gfx7 has no finalizer platform; its shaders stay IR). `Kernel::abi` lists its inputs: where the driver puts
//!    the local ids, push constants, binding-table indices and the parameter blocks of
//!    step 5 in the thread payload; `visa/ABI.md` in the repository says what each one
//!    holds.

use ir::{
    Access, AluType, BaseType, Builder, Format, Function, ImageDecl, ImageDim, ImageRef,
    IntrinsicOp, Shader, Src,
};
use lowering::{Device, LowerOptions, SurfaceFormat};
use std::process::ExitCode;
use tiling::{fill_image_param, Bit6Swizzle, ImageView, SurfDim, Surface, SurfaceDesc, Usage};

/// Step 1: a kernel that reads `@src` (RGBA8, read-only) at the invocation's texel,
/// clamped to the image, and writes half of it to `@dst` (RGBA16_UNORM: typed from
/// Haswell, the untyped path with a parameter block on Ivy Bridge and Bay Trail).
fn build_shader() -> Shader {
    let mut shader = Shader::new([8, 8, 1]);
    let decl = |name: &str, format: Format, access: Access, binding: u32| ImageDecl {
        name: name.into(),
        dim: ImageDim::D2,
        arrayed: false,
        format,
        access,
        binding,
        count: None,
        layout: None,
    };
    let src = decl("src", Format::Rgba8Unorm, Access::NON_WRITEABLE, 0);
    let dst = decl("dst", Format::Rgba16Unorm, Access::NONE, 1);
    let src_ref = ImageRef::new(shader.add_image(src.clone()));
    let dst_ref = ImageRef::new(shader.add_image(dst.clone()));
    let mut main = Function::new("main");
    let mut b = Builder::at_end(&mut main);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    let xy = Src::swizzled(gid, &[0, 1]).expect("two components");
    // Clamp the coordinate to the last texel of `@src`: `image_size` reads the image's
    // parameter block.
    let size = b.image_size(&src, src_ref);
    let minus_one = b.imm_u32(u32::MAX);
    let last = b.iadd(size, Src::swizzled(minus_one, &[0, 0]).expect("xx"));
    let at = b.umin(xy, last);
    let f32 = AluType::new(BaseType::Float, 32);
    let texel = b.image_load(&src, src_ref, at, 4, f32);
    let half = b.imm_f32(0.5);
    let dimmed = b.fmul(texel, Src::swizzled(half, &[0, 0, 0, 0]).expect("xxxx"));
    b.image_store(&dst, dst_ref, at, dimmed, f32);
    shader.functions.push(main);
    shader
}

/// Steps 1 to 6 for `platform`; the error is what went wrong, for the caller to print.
fn run(platform: &str) -> Result<(), String> {
    // Step 1.
    let mut shader = build_shader();
    println!("// ----- the shader -----\n{}", ir::print_shader(&shader));

    // Step 2.
    let Some(device) = Device::preset(platform) else {
        return Err(format!("unknown platform `{platform}`"));
    };

    // Step 3.
    let report = match lowering::lower_shader(&mut shader, &device, &LowerOptions::default()) {
        Ok(report) => report,
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            return Err(lines.join("\nerror: "));
        }
    };

    // Step 4.
    println!(
        "// ----- bindings on {} ({}) -----",
        device.name, device.gen
    );
    for image in &report.images {
        println!(
            "// @{} (binding {}): surface {:?}; typed {}, untyped {}, sampler {}",
            image.name, image.binding, image.surface, image.typed, image.untyped, image.sampler
        );
    }
    let m = report.messages;
    println!(
        "// messages: {} ({} typed, {} untyped, {} predicated)",
        m.total, m.typed, m.untyped, m.predicated
    );

    // Step 5: a 64x48 surface per image, tiled as the device allows.
    for image in &report.images {
        let Some(block) = &image.param_block else {
            continue;
        };
        let decl = &shader.images[image.image.index()];
        let format = lowering::format::isl_format(decl.format).expect("a storage format");
        let tilings = device.storage_tilings_for(format, SurfDim::D2);
        let tiled = tilings.iter().find(|t| **t != tiling::Tiling::Linear);
        let Some(&tiling) = tiled.or(tilings.first()) else {
            return Err(format!(
                "no storage tiling for {format:?} on {}",
                device.name
            ));
        };
        let desc = SurfaceDesc::new(device.gen, SurfDim::D2, format, tiling)
            .extent(64, 48, 1)
            .usage(Usage::STORAGE);
        let filled = Surface::new(desc)
            .map_err(|e| e.to_string())
            .and_then(|surface| {
                fill_image_param(&surface, &ImageView::level(&surface, 0), Bit6Swizzle::None)
                    .map_err(|e| e.to_string())
            });
        let mut param = match filled {
            Ok(param) => param,
            Err(e) => return Err(format!("@{}: {e}", image.name)),
        };
        // Where the driver placed the surface in the GPU's address space.
        param.set_base_address(0x1_0000_0000);
        println!(
            "// parameter block of @{} ({} bytes, {:?} surface), the slots the shader reads:",
            image.name, block.bytes, tiling
        );
        for &slot in &block.slots {
            println!("//   slot {slot}: {:?}", param.slot(slot));
        }
        if image.surface == Some(SurfaceFormat::Raw) {
            println!("//   (bound as a raw buffer view of the same memory)");
        }
    }

    // The lowered shader, for the code generator.
    println!(
        "// ----- lowered for {} -----\n{}",
        device.name,
        ir::print_shader(&shader)
    );

    // Step 6: the vISA kernel, on the platforms the back end emits for.
    let kernel = match visa::emit_kernel(&shader, &device, &visa::Options::default()) {
        Ok(kernel) => kernel,
        Err(e)
            if matches!(
                *e.kind,
                visa::EmitErrorKind::Platform { .. }
                    | visa::EmitErrorKind::NoFinalizerPlatform { .. }
            ) =>
        {
            println!("// ----- no vISA kernel: {e} -----");
            return Ok(());
        }
        Err(e) => return Err(e.to_string()),
    };
    let abi = &kernel.abi;
    println!(
        "// ----- the kernel's inputs (SIMD{}, {}-byte registers; see visa/ABI.md) -----",
        abi.simd, abi.grf_bytes
    );
    for input in &abi.inputs {
        println!(
            "//   {:<12} {} bytes at register-file offset {}: {:?}",
            input.name, input.size, input.offset, input.kind
        );
    }
    println!(
        "// ----- vISA kernel for {} -----\n{}",
        device.name, kernel.text
    );
    Ok(())
}

fn main() -> ExitCode {
    let platform = std::env::args().nth(1).unwrap_or_else(|| "dg2".into());
    match run(&platform) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    /// The guide's own check: the driver runs on an LSC part (with a vISA kernel), on
    /// Gfx7 (IR only: no finalizer platform), on a Gfx9 part (legacy data-port
    /// messages) and PVC, and refuses an unknown name.
    #[test]
    fn the_driver_runs() {
        for platform in ["dg2", "mtl", "pvc", "ivb", "skl", "lnl"] {
            run(platform).unwrap_or_else(|e| panic!("{platform}: {e}"));
        }
        assert_eq!(
            run("no-such-gpu").unwrap_err(),
            "unknown platform `no-such-gpu`"
        );
    }
}
