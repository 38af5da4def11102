//! The shader the lowering and vISA emission benchmarks share
//! (`cargo bench -p lowering --bench lower`, `cargo bench -p visa --bench emit`): one
//! construction, so that their figures are about the same input. [`BenchArgs`] reads
//! their common options.

use ir::{
    Access, AluType, AtomicOp, BaseType, Builder, Format, Function, ImageDecl, ImageDim, ImageRef,
    IntrinsicOp, LayoutTiling, Shader, Src, StaticLayout,
};

fn decl(name: &str, dim: ImageDim, arrayed: bool, format: Format, binding: u32) -> ImageDecl {
    ImageDecl {
        name: name.into(),
        dim,
        arrayed,
        format,
        access: Access::NONE,
        binding,
        count: None,
        layout: None,
    }
}

/// A shader of `n` image accesses over seven images of different dimensions and
/// formats (one with a static X-tiled layout): loads feeding stores of the same data
/// type, and `iadd` atomics whose results are stored.
pub fn image_accesses(n: usize) -> Shader {
    let mut sh = Shader::new([8, 8, 1]);
    let mut y_layout = decl("ys", ImageDim::D2, false, Format::R32Uint, 5);
    y_layout.layout = Some(StaticLayout {
        tiling: LayoutTiling::X,
        row_pitch: 8192,
        qpitch: None,
        swizzle: false,
    });
    let decls = [
        decl("a", ImageDim::D2, false, Format::Rgba8Unorm, 0),
        decl("b", ImageDim::D2, true, Format::R32Uint, 1),
        decl("c", ImageDim::D3, false, Format::Rgba16Float, 2),
        decl("d", ImageDim::D1, false, Format::R32Float, 3),
        decl("e", ImageDim::Cube, true, Format::Rgba8Uint, 4),
        y_layout,
        decl("f", ImageDim::Buffer, false, Format::R32Uint, 6),
    ];
    let refs: Vec<(ImageDecl, ImageRef)> = decls
        .iter()
        .map(|d| (d.clone(), ImageRef::new(sh.add_image(d.clone()))))
        .collect();
    let mut f = Function::new("main");
    let mut b = Builder::at_end(&mut f);
    let gid = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
    // Every access reads its own coordinate (the invocation id plus a per-access
    // offset), so that the cleanup loop cannot merge the address code of different
    // accesses.
    let coord = |b: &mut Builder, d: &ImageDecl, i: usize| -> Src {
        let k = i as u64;
        let off = b.load_const(ir::Type::vec32(3), &[k & 63, (k >> 6) & 63, k >> 12]);
        let c = b.iadd(gid, off);
        let n = d.coord_components();
        let comps: Vec<u8> = (0..n).collect();
        Src::swizzled(c, &comps).expect("1 to 3 components")
    };
    let ty = |f: Format| {
        let base = f.data_base_type().unwrap_or(BaseType::Float);
        AluType::new(base, 32)
    };
    let mut i = 0usize;
    let mut emitted = 0usize;
    while emitted < n {
        let (src_decl, src) = &refs[i % refs.len()];
        let (dst_decl, dst) = &refs[(i + 3) % refs.len()];
        match i % 3 {
            // A load whose value a store of the same data type consumes.
            0 | 1 => {
                let t = ty(src_decl.format);
                let c = coord(&mut b, src_decl, i);
                let v = b.image_load(src_decl, *src, c, 4, t);
                emitted += 1;
                if emitted < n {
                    let target = refs
                        .iter()
                        .cycle()
                        .skip(i + 1)
                        .take(refs.len())
                        .find(|(d, _)| ty(d.format) == t && d.name != src_decl.name)
                        .unwrap_or(&refs[i % refs.len()]);
                    let c = coord(&mut b, &target.0, i);
                    b.image_store(&target.0, target.1, c, v, t);
                    emitted += 1;
                }
            }
            _ => {
                // Atomics on the R32 UINT images.
                let (d, r) = if dst_decl.format == Format::R32Uint {
                    (dst_decl, dst)
                } else {
                    (&refs[1].0, &refs[1].1)
                };
                let data = Src::channel(gid, 2);
                let c = coord(&mut b, d, i);
                let old = b.image_atomic(d, *r, AtomicOp::Iadd, c, data);
                emitted += 1;
                if emitted < n {
                    let (fd, fr) = &refs[6];
                    let c = coord(&mut b, fd, i);
                    b.image_store(fd, *fr, c, old, ty(fd.format));
                    emitted += 1;
                }
            }
        }
        i += 1;
    }
    sh.functions.push(f);
    sh
}

/// The options of the lowering and vISA benches: `--max N` (the largest shader, at
/// least 1000 accesses; default 100,000), `--runs R` (best of R; default 3) and
/// `--only NAME` (the parts whose name starts with NAME). Cargo's own `--bench` is
/// accepted and ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// The largest shader, in image accesses.
    pub max: usize,
    /// Runs per measurement; the best counts.
    pub runs: usize,
    /// A prefix of the part names to run (empty: all).
    pub only: String,
}

impl BenchArgs {
    /// Reads `args` (without the program name); `parts` says in the error what `--only`
    /// takes. The error is a sentence for the bench to print before exiting.
    pub fn parse(args: impl IntoIterator<Item = String>, parts: &str) -> Result<BenchArgs, String> {
        let mut out = BenchArgs {
            max: 100_000,
            runs: 3,
            only: String::new(),
        };
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            let mut value = |name: &str| -> Result<usize, String> {
                args.next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("{name} needs a positive number"))
            };
            match a.as_str() {
                "--bench" => {}
                "--max" => out.max = value("--max")?.max(1000),
                "--runs" => out.runs = value("--runs")?.max(1),
                "--only" => {
                    out.only = args
                        .next()
                        .ok_or_else(|| format!("--only needs a part name ({parts})"))?
                }
                other => {
                    return Err(format!(
                        "unknown option `{other}` (--max N, --runs R, --only {parts})"
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Whether the part `name` runs.
    pub fn runs_part(&self, name: &str) -> bool {
        self.only.is_empty() || name.starts_with(self.only.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::BenchArgs;

    fn parse(args: &[&str]) -> Result<BenchArgs, String> {
        BenchArgs::parse(args.iter().map(|a| a.to_string()), "a|b")
    }

    #[test]
    fn options_and_their_errors() {
        let a = parse(&["--bench", "--max", "10", "--runs", "0", "--only", "typed"]).unwrap();
        assert_eq!((a.max, a.runs, a.only.as_str()), (1000, 1, "typed"));
        assert!(a.runs_part("typed dg2") && !a.runs_part("untyped bdw"));
        assert!(parse(&[]).unwrap().runs_part("anything"));
        assert_eq!(
            parse(&["--max", "x"]).unwrap_err(),
            "--max needs a positive number"
        );
        assert_eq!(
            parse(&["-x"]).unwrap_err(),
            "unknown option `-x` (--max N, --runs R, --only a|b)"
        );
    }
}
