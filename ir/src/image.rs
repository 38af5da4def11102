//! Image declarations and the image-related intrinsic indices: dimension, format, access.

use crate::entity::ImageId;
use crate::types::Src;
use std::fmt;

spelled_enum! {
    /// The dimensionality of an image (NIR's `glsl_sampler_dim`, restricted to storage
    /// images and the textures `image_load` reads).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum ImageDim {
        /// Every dimension.
        const ALL;
        /// The text name (`1d`, `2d`, `3d`, `cube`, `buffer`, `ms`).
        fn name;
        /// Parses a text name.
        fn from_name;

        /// 1D.
        D1 => "1d",
        /// 2D.
        D2 => "2d",
        /// 3D.
        D3 => "3d",
        /// Cube map (six 2D faces; a cube array has 6 layers per cube).
        Cube => "cube",
        /// Buffer image (texel buffer).
        Buffer => "buffer",
        /// Multisampled 2D (NIR's `GLSL_SAMPLER_DIM_MS`; SPIR-V's `2D` with `MS` 1):
        /// one level, several samples per texel. An access's coordinate ends with the
        /// sample index, after x, y and (arrays) the layer, where NIR keeps the sample
        /// in a source of its own: the form Mesa's brw gives it before the back end
        /// (`brw_nir_lower_storage_image.c`), so that every image intrinsic keeps one
        /// coordinate source. The sample count is the bound image's (`image_samples`).
        Ms => "ms",
    }
}

impl ImageDim {
    /// Number of coordinate components of an image access, as NIR's
    /// `nir_image_intrinsic_coord_components`: 1 for 1D and buffers, 2 for 2D, 3 for 3D
    /// and cubes, plus one for arrays except cube arrays (the face and layer share `z`);
    /// multisampled images add the sample index last (3, or 4 for arrays).
    pub fn coord_components(self, arrayed: bool) -> u8 {
        let base = match self {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 | ImageDim::Cube | ImageDim::Ms => 3,
        };
        if arrayed && self != ImageDim::Cube {
            base + 1
        } else {
            base
        }
    }

    /// Whether an image of this dimension may be arrayed.
    pub fn can_be_arrayed(self) -> bool {
        matches!(
            self,
            ImageDim::D1 | ImageDim::D2 | ImageDim::Cube | ImageDim::Ms
        )
    }

    /// The coordinate components that address a texel of the image's level, without
    /// a multisampled image's sample index: [`coord_components`](Self::coord_components)
    /// minus one for [`ImageDim::Ms`].
    pub fn texel_coord_components(self, arrayed: bool) -> u8 {
        self.coord_components(arrayed) - u8::from(self == ImageDim::Ms)
    }

    /// Index encoding.
    pub fn to_index(self) -> u32 {
        self as u32
    }

    /// Inverse of [`ImageDim::to_index`].
    pub fn from_index(v: u32) -> Option<ImageDim> {
        ImageDim::ALL.get(v as usize).copied()
    }
}

/// How the bits of one format channel are interpreted.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ChannelKind {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// Floating point (16, 32 or 64 bits, or the unsigned 11/10-bit floats of R11G11B10).
    Float,
}

/// One channel of a format: its width and interpretation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Channel {
    /// Width in bits.
    pub bits: u8,
    /// Interpretation.
    pub kind: ChannelKind,
}

macro_rules! formats {
    ($( #[doc = $doc:literal] $variant:ident = $name:literal : [$(($bits:literal, $kind:ident)),*] ;)*) => {
        /// A storage image format, named as in GLSL/NIR layout qualifiers (`rgba8_unorm`,
        /// `r32_uint`). Channels are listed from the lowest bits up (R first).
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Format {
            /// No format qualifier: SPIR-V's `Unknown` image format (GLSL's image without
            /// a layout format, for `shaderStorageImageReadWithoutFormat` and
            /// `...WriteWithoutFormat`), NIR's `PIPE_FORMAT_NONE`. Written `unknown`. The
            /// surface state's format converts the texels: typed messages carry no
            /// conversion, and `ir-opt run`/`verify` bind a view of a real format.
            None,
            $(
                #[doc = concat!("`", $name, "`:", $doc)]
                $variant,
            )*
        }

        impl Format {
            /// Every format except [`Format::None`].
            pub const ALL: &'static [Format] = &[$(Format::$variant,)*];

            /// The text name.
            pub fn name(self) -> &'static str {
                match self {
                    Format::None => "unknown",
                    $(Format::$variant => $name,)*
                }
            }

            /// The channels, R first. Empty for [`Format::None`].
            pub fn channels(self) -> &'static [Channel] {
                match self {
                    Format::None => &[],
                    $(Format::$variant => &[$(Channel { bits: $bits, kind: ChannelKind::$kind }),*],)*
                }
            }
        }
    };
}

formats! {
    /// Four 32-bit unsigned integer channels (R, G, B, A); 16 bytes per texel.
    Rgba32Uint = "rgba32_uint": [(32, Uint), (32, Uint), (32, Uint), (32, Uint)];
    /// Four 32-bit signed integer channels (R, G, B, A); 16 bytes per texel.
    Rgba32Sint = "rgba32_sint": [(32, Sint), (32, Sint), (32, Sint), (32, Sint)];
    /// Four 32-bit float channels (R, G, B, A); 16 bytes per texel.
    Rgba32Float = "rgba32_float": [(32, Float), (32, Float), (32, Float), (32, Float)];
    /// Two 32-bit unsigned integer channels (R, G); 8 bytes per texel.
    Rg32Uint = "rg32_uint": [(32, Uint), (32, Uint)];
    /// Two 32-bit signed integer channels (R, G); 8 bytes per texel.
    Rg32Sint = "rg32_sint": [(32, Sint), (32, Sint)];
    /// Two 32-bit float channels (R, G); 8 bytes per texel.
    Rg32Float = "rg32_float": [(32, Float), (32, Float)];
    /// One 32-bit unsigned integer channel (R); 4 bytes per texel.
    R32Uint = "r32_uint": [(32, Uint)];
    /// One 32-bit signed integer channel (R); 4 bytes per texel.
    R32Sint = "r32_sint": [(32, Sint)];
    /// One 32-bit float channel (R); 4 bytes per texel.
    R32Float = "r32_float": [(32, Float)];
    /// Four 16-bit unsigned integer channels (R, G, B, A); 8 bytes per texel.
    Rgba16Uint = "rgba16_uint": [(16, Uint), (16, Uint), (16, Uint), (16, Uint)];
    /// Four 16-bit signed integer channels (R, G, B, A); 8 bytes per texel.
    Rgba16Sint = "rgba16_sint": [(16, Sint), (16, Sint), (16, Sint), (16, Sint)];
    /// Four 16-bit float channels (R, G, B, A); 8 bytes per texel.
    Rgba16Float = "rgba16_float": [(16, Float), (16, Float), (16, Float), (16, Float)];
    /// Four 16-bit unsigned normalized channels (R, G, B, A); 8 bytes per texel.
    Rgba16Unorm = "rgba16_unorm": [(16, Unorm), (16, Unorm), (16, Unorm), (16, Unorm)];
    /// Four 16-bit signed normalized channels (R, G, B, A); 8 bytes per texel.
    Rgba16Snorm = "rgba16_snorm": [(16, Snorm), (16, Snorm), (16, Snorm), (16, Snorm)];
    /// Two 16-bit unsigned integer channels (R, G); 4 bytes per texel.
    Rg16Uint = "rg16_uint": [(16, Uint), (16, Uint)];
    /// Two 16-bit signed integer channels (R, G); 4 bytes per texel.
    Rg16Sint = "rg16_sint": [(16, Sint), (16, Sint)];
    /// Two 16-bit float channels (R, G); 4 bytes per texel.
    Rg16Float = "rg16_float": [(16, Float), (16, Float)];
    /// Two 16-bit unsigned normalized channels (R, G); 4 bytes per texel.
    Rg16Unorm = "rg16_unorm": [(16, Unorm), (16, Unorm)];
    /// Two 16-bit signed normalized channels (R, G); 4 bytes per texel.
    Rg16Snorm = "rg16_snorm": [(16, Snorm), (16, Snorm)];
    /// One 16-bit unsigned integer channel (R); 2 bytes per texel.
    R16Uint = "r16_uint": [(16, Uint)];
    /// One 16-bit signed integer channel (R); 2 bytes per texel.
    R16Sint = "r16_sint": [(16, Sint)];
    /// One 16-bit float channel (R); 2 bytes per texel.
    R16Float = "r16_float": [(16, Float)];
    /// One 16-bit unsigned normalized channel (R); 2 bytes per texel.
    R16Unorm = "r16_unorm": [(16, Unorm)];
    /// One 16-bit signed normalized channel (R); 2 bytes per texel.
    R16Snorm = "r16_snorm": [(16, Snorm)];
    /// Four 8-bit unsigned integer channels (R, G, B, A); 4 bytes per texel.
    Rgba8Uint = "rgba8_uint": [(8, Uint), (8, Uint), (8, Uint), (8, Uint)];
    /// Four 8-bit signed integer channels (R, G, B, A); 4 bytes per texel.
    Rgba8Sint = "rgba8_sint": [(8, Sint), (8, Sint), (8, Sint), (8, Sint)];
    /// Four 8-bit unsigned normalized channels (R, G, B, A); 4 bytes per texel.
    Rgba8Unorm = "rgba8_unorm": [(8, Unorm), (8, Unorm), (8, Unorm), (8, Unorm)];
    /// Four 8-bit signed normalized channels (R, G, B, A); 4 bytes per texel.
    Rgba8Snorm = "rgba8_snorm": [(8, Snorm), (8, Snorm), (8, Snorm), (8, Snorm)];
    /// Two 8-bit unsigned integer channels (R, G); 2 bytes per texel.
    Rg8Uint = "rg8_uint": [(8, Uint), (8, Uint)];
    /// Two 8-bit signed integer channels (R, G); 2 bytes per texel.
    Rg8Sint = "rg8_sint": [(8, Sint), (8, Sint)];
    /// Two 8-bit unsigned normalized channels (R, G); 2 bytes per texel.
    Rg8Unorm = "rg8_unorm": [(8, Unorm), (8, Unorm)];
    /// Two 8-bit signed normalized channels (R, G); 2 bytes per texel.
    Rg8Snorm = "rg8_snorm": [(8, Snorm), (8, Snorm)];
    /// One 8-bit unsigned integer channel (R); 1 byte per texel.
    R8Uint = "r8_uint": [(8, Uint)];
    /// One 8-bit signed integer channel (R); 1 byte per texel.
    R8Sint = "r8_sint": [(8, Sint)];
    /// One 8-bit unsigned normalized channel (R); 1 byte per texel.
    R8Unorm = "r8_unorm": [(8, Unorm)];
    /// One 8-bit signed normalized channel (R); 1 byte per texel.
    R8Snorm = "r8_snorm": [(8, Snorm)];
    /// Unsigned integer channels R10, G10, B10, A2, R in the lowest bits; 4 bytes per texel.
    Rgb10A2Uint = "rgb10a2_uint": [(10, Uint), (10, Uint), (10, Uint), (2, Uint)];
    /// Unsigned normalized channels R10, G10, B10, A2, R in the lowest bits; 4 bytes per texel.
    Rgb10A2Unorm = "rgb10a2_unorm": [(10, Unorm), (10, Unorm), (10, Unorm), (2, Unorm)];
    /// Unsigned floats R11, G11, B10 (5-bit exponents; 6-, 6-, 5-bit mantissas), R lowest; 4 bytes per texel.
    R11G11B10Float = "r11g11b10_float": [(11, Float), (11, Float), (10, Float)];
    /// One 64-bit unsigned integer channel (R); 8 bytes per texel.
    R64Uint = "r64_uint": [(64, Uint)];
    /// One 64-bit signed integer channel (R); 8 bytes per texel.
    R64Sint = "r64_sint": [(64, Sint)];
}

impl Format {
    /// Parses a text name (case-insensitive). `unknown` is [`Format::None`], and so is
    /// `none`, its spelling before SPIR-V's name was adopted.
    pub fn from_name(s: &str) -> Option<Format> {
        let lower = s.to_ascii_lowercase();
        if lower == "unknown" || lower == "none" {
            return Some(Format::None);
        }
        Format::ALL.iter().copied().find(|f| f.name() == lower)
    }

    /// Bits per texel (0 for [`Format::None`]).
    pub fn bits_per_texel(self) -> u32 {
        self.channels().iter().map(|c| c.bits as u32).sum()
    }

    /// Number of channels.
    pub fn num_channels(self) -> u8 {
        self.channels().len() as u8
    }

    /// Whether the channels are integers (UINT/SINT), so that a missing alpha reads as
    /// integer 1 rather than 1.0.
    pub fn is_integer(self) -> bool {
        self.channels()
            .iter()
            .any(|c| matches!(c.kind, ChannelKind::Uint | ChannelKind::Sint))
    }

    /// The base type shaders use for this format's data: `float` for UNORM/SNORM/FLOAT,
    /// `int` for SINT, `uint` for UINT. `None` for [`Format::None`].
    pub fn data_base_type(self) -> Option<crate::types::BaseType> {
        use crate::types::BaseType;
        let c = self.channels().first()?;
        Some(match c.kind {
            ChannelKind::Uint => BaseType::Uint,
            ChannelKind::Sint => BaseType::Int,
            _ => BaseType::Float,
        })
    }

    /// The bit size of shader-side data for this format: 64 for the R64 formats,
    /// otherwise 32.
    pub fn data_bit_size(self) -> u8 {
        if self.channels().iter().any(|c| c.bits == 64) {
            64
        } else {
            32
        }
    }

    /// Index encoding.
    pub fn to_index(self) -> u32 {
        match self {
            Format::None => 0,
            f => 1 + Format::ALL.iter().position(|g| *g == f).unwrap_or(0) as u32,
        }
    }

    /// Inverse of [`Format::to_index`].
    pub fn from_index(v: u32) -> Option<Format> {
        if v == 0 {
            Some(Format::None)
        } else {
            Format::ALL.get(v as usize - 1).copied()
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Memory access qualifiers (NIR's `gl_access_qualifier`), a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Access(u32);

impl Access {
    /// No qualifier.
    pub const NONE: Access = Access(0);
    /// `coherent` (ACCESS_COHERENT).
    pub const COHERENT: Access = Access(1 << 0);
    /// `volatile` (ACCESS_VOLATILE).
    pub const VOLATILE: Access = Access(1 << 1);
    /// `restrict` (ACCESS_RESTRICT).
    pub const RESTRICT: Access = Access(1 << 2);
    /// `readonly` (ACCESS_NON_WRITEABLE).
    pub const NON_WRITEABLE: Access = Access(1 << 3);
    /// `writeonly` (ACCESS_NON_READABLE).
    pub const NON_READABLE: Access = Access(1 << 4);
    /// `sampled`: the image is a sampled texture (Vulkan's `SAMPLED_IMAGE`, a WGSL
    /// `texture_2d`, a GLSL `texture2D` read with `texelFetch`), which the driver binds
    /// for the sampler. Shaders only read it, and every read goes through the sampler's
    /// `ld` / `ld_lz`, never the data port's typed or untyped messages: a platform
    /// without a sampler refuses it. NIR has no such qualifier (it keeps textures apart
    /// from images altogether); the IR marks them here so that one `image_load`
    /// describes both kinds of read.
    pub const SAMPLED: Access = Access(1 << 5);
    /// `non_uniform` (ACCESS_NON_UNIFORM): the access's descriptor index (the array
    /// index of `@imgs[%i]`, the block of a buffer access) may differ between the
    /// invocations that execute it together. Without it the index must be dynamically
    /// uniform, as Vulkan requires of resource indices not decorated `NonUniform`; an
    /// access qualifier of the instruction, never of a declaration.
    pub const NON_UNIFORM: Access = Access(1 << 6);

    const NAMES: [(Access, &'static str); 7] = [
        (Access::NON_WRITEABLE, "readonly"),
        (Access::NON_READABLE, "writeonly"),
        (Access::COHERENT, "coherent"),
        (Access::VOLATILE, "volatile"),
        (Access::RESTRICT, "restrict"),
        (Access::SAMPLED, "sampled"),
        (Access::NON_UNIFORM, "non_uniform"),
    ];

    /// The raw bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// From raw bits; `None` if an unknown bit is set.
    pub fn from_bits(bits: u32) -> Option<Access> {
        (bits & !0x7f == 0).then_some(Access(bits))
    }

    /// The qualifiers of `self` without those of `other`.
    pub fn without(self, other: Access) -> Access {
        Access(self.0 & !other.0)
    }

    /// Whether every qualifier of `other` is set.
    pub fn contains(self, other: Access) -> bool {
        self.0 & other.0 == other.0
    }

    /// The qualifier called `name` (`readonly`, `writeonly`, `coherent`, `volatile`,
    /// `restrict`, `sampled`, `non_uniform`).
    pub fn from_name(name: &str) -> Option<Access> {
        Access::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(a, _)| *a)
    }

    /// The names of the set qualifiers, in canonical order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Access::NAMES
            .iter()
            .filter(move |(a, _)| self.contains(*a))
            .map(|(_, n)| *n)
    }
}

impl std::ops::BitOr for Access {
    type Output = Access;
    fn bitor(self, rhs: Access) -> Access {
        Access(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Access {
    fn bitor_assign(&mut self, rhs: Access) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("none");
        }
        for (i, n) in self.names().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            f.write_str(n)?;
        }
        Ok(())
    }
}

spelled_enum! {
    /// The tiling named by a static layout. The IR does not interpret it; the lowering maps
    /// it onto the tiling crate's layouts.
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum LayoutTiling {
        /// Every static tiling.
        const ALL;
        /// The text name (`linear`, `x`, `y`, `4`, `64`).
        fn name;
        /// Parses a text name.
        fn from_name;

        /// Linear.
        Linear => "linear",
        /// Legacy X tiling.
        X => "x",
        /// Legacy Y-major tiling.
        Y => "y",
        /// Tile4 (Gfx12.5+).
        Tile4 => "4",
        /// Tile64 (Gfx12.5+, the generation's variant).
        Tile64 => "64",
    }
}

/// A surface layout known when the shader is compiled, so that the untyped address code
/// can use constants instead of parameter-block loads. Written
/// `layout={tiling=y, row_pitch=4096, qpitch=772, swizzle=false}`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StaticLayout {
    /// The tiling.
    pub tiling: LayoutTiling,
    /// Row pitch in bytes.
    pub row_pitch: u32,
    /// Array pitch (qpitch) in element rows, for arrays, cubes and Gfx9+ 3D.
    pub qpitch: Option<u32>,
    /// Whether bit-6 swizzling is on (IVB/HSW X and Y surfaces).
    pub swizzle: bool,
}

/// The binding-table entries an Intel kernel can address: indices 0 to 239 (anv's
/// `MAX_BINDING_TABLE_SIZE`; the indices above name the stateless and shared-memory
/// models on the legacy data port).
pub const MAX_BINDING_TABLE_ENTRIES: u32 = 240;

/// A storage image declaration.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImageDecl {
    /// The name, without the `@`.
    pub name: String,
    /// The dimension.
    pub dim: ImageDim,
    /// Whether the image is an array.
    pub arrayed: bool,
    /// The format qualifier.
    pub format: Format,
    /// Access qualifiers.
    pub access: Access,
    /// Binding-table index (the first one, for descriptor arrays), below
    /// [`MAX_BINDING_TABLE_ENTRIES`].
    pub binding: u32,
    /// Number of descriptors for an array of images (`@imgs[4]`), or `None` for one image.
    pub count: Option<u32>,
    /// A layout known at compile time.
    pub layout: Option<StaticLayout>,
}

impl ImageDecl {
    /// The plain declaration `image @name : dim format (binding=0)`: one image, not
    /// arrayed, no access qualifiers, no static layout. Set the other fields on the
    /// result for anything else.
    pub fn new(name: &str, dim: ImageDim, format: Format) -> ImageDecl {
        ImageDecl {
            name: name.to_string(),
            dim,
            arrayed: false,
            format,
            access: Access::NONE,
            binding: 0,
            count: None,
            layout: None,
        }
    }

    /// Number of coordinate components of an access to this image.
    pub fn coord_components(&self) -> u8 {
        self.dim.coord_components(self.arrayed)
    }
}

/// A reference to a declared image in an intrinsic, optionally indexed by an SSA value
/// for arrays of images (`@imgs[%3]`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ImageRef {
    /// The declaration.
    pub image: ImageId,
    /// The descriptor-array index, if any.
    pub index: Option<Src>,
}

impl ImageRef {
    /// A reference to a non-array image.
    pub fn new(image: ImageId) -> ImageRef {
        ImageRef { image, index: None }
    }
}
