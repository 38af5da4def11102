//! The validator's errors as data: what a driver can match on (kinds and their fields,
//! the entity and function a problem is about), and that the diagnostics the tools
//! print are the errors' `Display`.

use crate::alu::AluOp;
use crate::builder::Builder;
use crate::diag::Diagnostic;
use crate::entity::{Block, BlockName, ImageId, Value, ValueName};
use crate::function::{Function, Jump};
use crate::image::{Format, ImageDecl, ImageDim};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::span::Span;
use crate::types::Type;
use crate::validate::{
    check_function, check_shader, validate, AluError, AsyncCopyError, BitSizeRef, ControlFlowError,
    ImageError, ImageName, InterfaceError, IntrinsicError, Location, MessageError, Qualifier,
    SsaError, User, ValidationError, ValidationErrorKind,
};

fn errors(text: &str) -> Vec<ValidationError> {
    let shader = crate::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"));
    check_shader(&shader).expect_err("the shader is invalid")
}

#[test]
fn a_builder_shader_is_told_the_instruction_and_function() {
    // No text, so no positions: the location names the instruction.
    let mut sh = Shader::new([1, 1, 1]);
    let mut func = Function::new("kernel");
    let mut b = Builder::at_end(&mut func);
    let a = b.imm_u32(1);
    let wide = b.alu_typed(AluOp::Iadd, &[a.into(), a.into()], Type::U64);
    let inst = func.value_def(wide).unwrap();
    sh.functions.push(func);

    let errs = check_shader(&sh).unwrap_err();
    // Both sources are 32-bit where the 64-bit destination sets the size.
    let want: Vec<ValidationError> = (0..2)
        .map(|index| {
            ValidationError::new(
                Span::UNKNOWN,
                Some("kernel".into()),
                Location::Inst(inst),
                AluError::SourceBitsMismatch {
                    op: AluOp::Iadd,
                    index,
                    expected: 64,
                    reference: BitSizeRef::Destination,
                    found: 32,
                },
            )
        })
        .collect();
    assert_eq!(errs, want);
    // The same from the one-function entry point.
    assert_eq!(check_function(&sh, &sh.functions[0]).unwrap_err(), errs);
}

#[test]
fn uses_name_the_user_and_the_value() {
    let errs = errors(
        "fn main {\n  block b0:\n    32 %1 = iadd %0, %0\n    32 %0 = load_const (0x00000001)\n}\n",
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    match &errs[0].kind {
        ValidationErrorKind::Ssa(SsaError::UseBeforeDef { user, value, def }) => {
            assert_eq!(*user, User::Alu(AluOp::Iadd));
            assert_eq!(value.number, 0);
            assert_eq!(*def, Span::new(4, 5));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(errs[0].span, Span::new(3, 5));
    assert!(matches!(errs[0].location, Location::Inst(_)));
}

#[test]
fn swizzles_carry_the_text_as_written() {
    let errs = errors(
        "fn main {\n  block b0:\n    32x2 %0 = undef\n    32 %1 = mov %0.z\n    32 %2 = mov %0.abcdefghi\n}\n",
    );
    let kinds: Vec<&ValidationErrorKind> = errs.iter().map(|e| &e.kind).collect();
    assert_eq!(
        kinds,
        [
            &ValidationErrorKind::Ssa(SsaError::SwizzleComponent {
                value: ValueName {
                    value: Value::from_u32(0),
                    number: 0
                },
                letters: "z".into(),
                component: 2,
                components: 2,
            }),
            &ValidationErrorKind::Ssa(SsaError::SwizzleLength {
                value: ValueName {
                    value: Value::from_u32(0),
                    number: 0
                },
                letters: "abcdefghi".into(),
                len: 9,
            }),
        ]
    );
    // The position is the swizzle's `.`.
    assert_eq!(errs[0].span, Span::new(4, 19));
}

#[test]
fn image_errors_name_the_declaration() {
    let errs = errors(
        "image @a : 2d r32_uint (binding=0)\nimage @ro : 2d r32_uint readonly (binding=1)\n\
         fn main {\n  block b0:\n    32x2 %0 = undef\n    32 %1 = undef\n\
         \x20   @image_store (@ro, %0, %1) (src_type=uint32)\n}\n",
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].kind,
        ValidationErrorKind::Image(ImageError::Access {
            op: IntrinsicOp::ImageStore,
            image: ImageName {
                id: ImageId::from_u32(1),
                name: "ro".into(),
            },
            qualifier: Qualifier::Readonly,
            reads: false,
            writes: true,
        })
    );
    assert_eq!(errs[0].function.as_deref(), Some("main"));
}

#[test]
fn interface_errors_are_about_the_header_and_declarations() {
    // The parser refuses a second `@a` itself; a shader built in memory can have one.
    let mut sh = Shader::new([8, 8, 2000]);
    sh.local_size_span = Span::new(1, 1);
    let decl = |dim| ImageDecl::new("a", dim, Format::R32Uint);
    sh.add_image_at(decl(ImageDim::D2), Span::new(2, 1));
    sh.add_image_at(
        ImageDecl {
            arrayed: true,
            ..decl(ImageDim::D3)
        },
        Span::new(3, 1),
    );
    let errs = check_shader(&sh).unwrap_err();
    let got: Vec<(Location, Option<&str>, &ValidationErrorKind)> = errs
        .iter()
        .map(|e| (e.location, e.function.as_deref(), &e.kind))
        .collect();
    let second = ImageName {
        id: ImageId::from_u32(1),
        name: "a".into(),
    };
    assert_eq!(
        got,
        [
            (
                Location::Shader,
                None,
                &ValidationErrorKind::Interface(InterfaceError::WorkgroupDimension {
                    local_size: [8, 8, 2000],
                    axis: 2,
                    max: 1024,
                })
            ),
            (
                Location::Image(ImageId::from_u32(1)),
                None,
                &ValidationErrorKind::Interface(InterfaceError::DuplicateImage {
                    image: second.clone(),
                    first: Span::new(2, 1),
                })
            ),
            (
                Location::Image(ImageId::from_u32(1)),
                None,
                &ValidationErrorKind::Interface(InterfaceError::ArrayedDim {
                    image: second,
                    dim: ImageDim::D3,
                })
            ),
        ]
    );
    assert_eq!(
        errs[0].to_string(),
        "local_size=8,8,2000: the workgroup is 2000 invocations wide in z; Intel GPUs allow at most 1024 per dimension"
    );
}

#[test]
fn shape_errors_are_about_the_node() {
    let mut sh = Shader::new([1, 1, 1]);
    let mut func = Function::new("main");
    Builder::at_end(&mut func).jump(Jump::Break);
    sh.functions.push(func);
    let errs = check_shader(&sh).unwrap_err();
    let b0 = Block::from_u32(0);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].location, Location::Block(b0));
    assert_eq!(
        errs[0].kind,
        ValidationErrorKind::ControlFlow(ControlFlowError::JumpOutsideLoop {
            jump: Jump::Break,
            block: BlockName {
                block: b0,
                number: 0
            },
        })
    );
    // An empty body is about the function.
    let mut sh = Shader::new([1, 1, 1]);
    sh.functions.push(Function::empty("f"));
    let errs = check_shader(&sh).unwrap_err();
    assert_eq!(errs[0].location, Location::Function);
    match &errs[0].kind {
        ValidationErrorKind::ControlFlow(ControlFlowError::EmptyList { list }) => {
            assert_eq!(list.function, "f");
            assert_eq!(list.to_string(), "the body of fn `f`");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn intrinsic_and_message_kinds() {
    let errs = errors(
        "image @i : 2d r32_uint (binding=0)\nfn main {\n  block b0:\n\
         \x20   32 %0 = @image_load_param (@i) (base=40)\n\
         \x20   32 %1 = @image_block_load (@i, %0) (image_dim=2d, image_array=false, format=r32_uint, access=none, block=8x2)\n}\n",
    );
    let kinds: Vec<&ValidationErrorKind> = errs.iter().map(|e| &e.kind).collect();
    assert!(
        kinds.contains(&&ValidationErrorKind::Intrinsic(
            IntrinsicError::ParamSlot {
                op: IntrinsicOp::ImageLoadParam,
                base: 40,
                slots: 32,
            }
        )),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&&ValidationErrorKind::Message(
            MessageError::NeedsSubgroupSize {
                op: IntrinsicOp::ImageBlockLoad,
            }
        )),
        "{kinds:?}"
    );
}

#[test]
fn plane_areas_of_64_bit_constants_do_not_overflow() {
    // lines and src_line_length are 2^40 (64-bit constants, reported as such): their
    // product, 2^80, overflows 64 bits. The overlap is still found and its message
    // says 2^40 x 2^40 = 2^80 = 1208925819614629174706176.
    let errs = errors(
        "shader compute (local_size=8,1,1)\nfn main {\n  block b0:\n\
         \x20   32 %0 = load_const (0x00000000)\n\
         \x20   32 %1 = load_const (0x00000001)\n\
         \x20   64 %2 = load_const (0x0000010000000000)\n\
         \x20   64 %6 = load_const (0x0000000100000000)\n\
         \x20   32 %7 = load_const (0x00000040)\n\
         \x20   32 %20 = @group_async_copy_3d3d (%7, %0, %6, %0, %1, %1, %2, %1, %2, %1, %1, %2, %0)\n}\n",
    );
    let overlap: Vec<&ValidationError> = errs
        .iter()
        .filter(|e| matches!(e.kind, ValidationErrorKind::AsyncCopy(_)))
        .collect();
    assert_eq!(overlap.len(), 1, "{errs:?}");
    assert_eq!(
        overlap[0].kind,
        ValidationErrorKind::AsyncCopy(AsyncCopyError::PlanesOverlap {
            op: IntrinsicOp::GroupAsyncCopy3d3d,
            side: "src",
            plane_area: 1,
            lines: 1 << 40,
            line_length: 1 << 40,
        })
    );
    assert_eq!(
        overlap[0].to_string(),
        "`@group_async_copy_3d3d`: src_plane_area 1 is smaller than lines x src_line_length = \
         1099511627776 x 1099511627776 = 1208925819614629174706176: the planes overlap, which \
         the specification leaves undefined"
    );
}

#[test]
fn diagnostics_are_the_errors_display() {
    let text = "fn main {\n  block b0:\n    32 %0 = undef\n    64 %1 = iadd %0, %0\n    1 %2 = mov %9\n}\n";
    let shader = crate::parse_shader(text).unwrap();
    let errs = check_shader(&shader).unwrap_err();
    let diags = validate(&shader).unwrap_err();
    let want: Vec<Diagnostic> = errs
        .iter()
        .map(|e| Diagnostic::error(e.span, e.to_string()))
        .collect();
    assert_eq!(diags, want);
    assert_eq!(diags.len(), 3, "{diags:?}");
    assert_eq!(
        diags[2].message, "`mov` uses `%9`, which is not defined",
        "{diags:?}"
    );
    // std's error machinery sees them.
    let boxed: Box<dyn std::error::Error> = Box::new(errs[0].clone());
    assert_eq!(boxed.to_string(), errs[0].to_string());
}

#[test]
fn level_queries_of_buffers_and_resinfo_destinations() {
    let errs = errors(
        "shader compute (local_size=1,1,1)
image @buf : buffer r32_uint (binding=0)
image @tex : 2d array rgba8_unorm readonly sampled (binding=1)

fn main {
  block b0:
    32   %0 = load_const (0x00000001)
    32   %1 = @image_size (@buf)
    32   %2 = @image_size (@buf, %0)
    32   %3 = @image_levels (@buf)
    32x3 %4 = @image_size (@tex, %0)
    32   %5 = @image_levels (@tex)
    32x2 %6 = @sampler_resinfo (@tex, %0) (channels=rgb)
    16   %7 = @sampler_resinfo (@tex, %0) (channels=a)
    32   %8 = @sampler_resinfo (@buf, %0) (channels=r)
}
",
    );
    let kinds: Vec<&ValidationErrorKind> = errs.iter().map(|e| &e.kind).collect();
    let buf = ImageName {
        id: ImageId::from_u32(0),
        name: "buf".into(),
    };
    assert_eq!(
        kinds,
        [
            &ValidationErrorKind::Image(ImageError::BufferLevels {
                op: IntrinsicOp::ImageSize,
                image: buf.clone(),
            }),
            &ValidationErrorKind::Image(ImageError::BufferLevels {
                op: IntrinsicOp::ImageLevels,
                image: buf.clone(),
            }),
            &ValidationErrorKind::Message(MessageError::SamplerComponents {
                op: IntrinsicOp::SamplerResinfo,
                channels: 0b111,
                found: 2,
            }),
            &ValidationErrorKind::Message(MessageError::ResinfoBits {
                op: IntrinsicOp::SamplerResinfo,
                found: 16,
            }),
            &ValidationErrorKind::Message(MessageError::ResinfoOfBuffer {
                op: IntrinsicOp::SamplerResinfo,
                image: buf,
            }),
        ],
        "{errs:?}"
    );
    // The lines: the size with a LOD (not the one without), the level count, the two
    // resinfo destinations, the resinfo of the buffer.
    let lines: Vec<u32> = errs.iter().map(|e| e.span.line).collect();
    assert_eq!(lines, [9, 10, 13, 14, 15]);
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        text,
        [
            "`@image_size`: `@buf` is a buffer image, which has no mip levels; its size takes no lod",
            "`@image_levels`: `@buf` is a buffer image, which has no mip levels",
            "`@sampler_resinfo`: the destination has 2 components, expected 3 for channels=rgb",
            "`@sampler_resinfo`: the destination is 16-bit; resinfo returns 32-bit integers",
            "`@sampler_resinfo`: `@buf` is a buffer image; resinfo reads 1D, 2D, 3D and cube \
             surfaces, and a texel buffer's size is in its parameter block",
        ]
    );
}

#[test]
fn errors_name_values_and_blocks_as_the_text_does() {
    // Ids are dense (`%16777215` is the second value, b3000000 the second block); the
    // errors carry and print the numbers written.
    let errs =
        errors("fn main {\n  block b4194303:\n    32 %16777214 = iadd %16777215, %16777215\n}\n");
    assert_eq!(errs.len(), 1, "{errs:?}");
    let undefined = ValueName {
        value: Value::from_u32(1),
        number: 16_777_215,
    };
    assert_eq!(
        errs[0].kind,
        ValidationErrorKind::Ssa(SsaError::Undefined {
            user: User::Alu(AluOp::Iadd),
            value: undefined,
        })
    );
    assert_eq!(
        errs[0].to_string(),
        "`iadd` uses `%16777215`, which is not defined"
    );

    let errs = errors(
        "fn main {
  block b4194303:
    32 %0 = load_const (1)
    1  %1 = ieq %0, %0
  if %1 {
    block b3000000:
      32 %16777215 = iadd %0, %0
  } else {
    block b9:
  }
  block b4000000:
    32 %16777214 = iadd %16777215, %0
}
",
    );
    let texts: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        ["`iadd` uses `%16777215` in block b4000000, but its definition at 7:7 in block b3000000 does not dominate it"]
    );

    // A loop header's phi without its back-edge source names both blocks.
    let errs = errors(
        "fn main {
  block b4000000:
    32 %9 = load_const (0)
  loop {
    block b4194303:
      32 %16777215 = phi b4000000: %9
      1  %2 = ieq %9, %16777215
    if %2 {
      block b5:
        break
    } else {
      block b6:
    }
    block b7:
  }
  block b1:
}
",
    );
    let texts: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        texts.contains(&"phi has no source for predecessor b7 of b4194303".to_string()),
        "{texts:?}"
    );
    let b7 = BlockName {
        block: Block::from_u32(4),
        number: 7,
    };
    assert!(errs.iter().any(|e| e.kind
        == ValidationErrorKind::Ssa(SsaError::PhiMissingSource {
            pred: b7,
            block: BlockName {
                block: Block::from_u32(1),
                number: 4_194_303
            },
        })));
}
