//! Test shaders of one image access, built with the builder, and listings of what the
//! lowering made of them (for `typed_path.rs`).

use ir::function::InstKind;
use ir::{
    Access, AluType, Builder, Format, Function, ImageDecl, ImageDim, ImageId, ImageRef, Inst,
    IntrinsicOp, Shader, Src, Type, Value,
};
use lowering::{Device, LowerOptions};

/// A declaration of `@img`.
pub fn decl(dim: ImageDim, arrayed: bool, format: Format, access: Access) -> ImageDecl {
    ImageDecl {
        name: "img".into(),
        dim,
        arrayed,
        format,
        access,
        binding: 0,
        count: None,
        layout: None,
    }
}

/// A shader with `@img` and a `main` whose body `body` builds, given the builder, the
/// declaration, the image reference and a coordinate with the image's component count.
pub fn shader(
    d: &ImageDecl,
    body: impl FnOnce(&mut Builder, &ImageDecl, ImageRef, Src) -> Option<Value>,
) -> (Shader, Option<Value>) {
    let mut sh = Shader::new([8, 8, 1]);
    let id: ImageId = sh.add_image(d.clone());
    let mut f = Function::new("main");
    let mut b = Builder::at_end(&mut f);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    let n = d.coord_components();
    let comps: Vec<u8> = (0..n).collect();
    let coord = if n == 1 {
        Src::channel(gid, 0)
    } else {
        let c = Src::swizzled(gid, &comps).unwrap();
        Src::new(b.mov(c))
    };
    let v = body(&mut b, d, ImageRef::new(id), coord);
    sh.functions.push(f);
    (sh, v)
}

/// A shader loading `components` components of `dest` type from `@img`.
pub fn load_shader(d: &ImageDecl, components: u8, dest: AluType) -> (Shader, Value) {
    let (sh, v) = shader(d, |b, d, r, c| {
        Some(b.image_load(d, r, c, components, dest))
    });
    (sh, v.unwrap())
}

/// A platform by name.
pub fn dev(name: &str) -> Device {
    Device::preset(name).unwrap()
}

/// Lowers with default options, panicking on error; on LSC platforms the lowered
/// shader, cleaned up, must also become a kernel GenX_IR compiles.
pub fn lower(sh: &mut Shader, device: &str) -> lowering::LowerReport {
    let report = lowering::lower_images(sh, &dev(device), &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut cleaned = sh.clone();
    ir::passes::Pass::run(&mut ir::passes::Cleanup::standard(16), &mut cleaned).expect("cleanup");
    crate::genx::compiles(&cleaned, &dev(device), "a typed-path test shader");
    report
}

/// One line per instruction of `main`: `op` for ALU, `const` for constants, the
/// intrinsic name followed by its indices (`name=value`) for intrinsics.
pub fn listing(f: &Function) -> Vec<String> {
    f.insts_in_order()
        .into_iter()
        .map(|i| describe(f, i))
        .collect()
}

/// One instruction as in [`listing`].
pub fn describe(f: &Function, i: Inst) -> String {
    match &f.inst(i).kind {
        InstKind::Alu(a) => a.op.name().to_string(),
        InstKind::LoadConst(_) => "const".into(),
        InstKind::Undef => "undef".into(),
        InstKind::Phi(_) => "phi".into(),
        InstKind::Intrinsic(intr) => {
            let mut s = intr.op.name().to_string();
            for (k, v) in intr.op.info().indices.iter().zip(&intr.indices) {
                s.push_str(&format!(
                    " {}={}",
                    k.name(),
                    k.format_value(*v).unwrap_or_else(|| format!("?{v}"))
                ));
            }
            s
        }
    }
}

/// The message intrinsics of `main`, described as in [`listing`].
pub fn messages(f: &Function) -> Vec<String> {
    f.insts_in_order()
        .into_iter()
        .filter(|&i| f.inst(i).as_intrinsic().is_some_and(|x| x.op.is_lsc()))
        .map(|i| describe(f, i))
        .collect()
}

/// The instructions of `main` that are intrinsics of `op`.
pub fn find(f: &Function, op: IntrinsicOp) -> Vec<Inst> {
    f.insts_in_order()
        .into_iter()
        .filter(|&i| f.inst(i).as_intrinsic().is_some_and(|x| x.op == op))
        .collect()
}

/// The 32-bit constant a source reads, if it reads one.
pub fn const_of(f: &Function, s: Src) -> Option<u64> {
    let def = f.value_def(s.value)?;
    let c = f.inst(def).as_const()?;
    c.get(s.swizzle.component(0) as usize).copied()
}

/// The type a value has.
pub fn ty(f: &Function, v: Value) -> Type {
    f.value_type(v)
}
