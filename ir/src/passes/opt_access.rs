//! Image access qualifiers from what the shader does (`opt-access`), NIR's
//! `nir_opt_access` for images: an image no instruction reads the texels of (no load,
//! no atomic, no sampler message; queries read only the descriptor) becomes
//! `writeonly` (`ACCESS_NON_READABLE`), in its declaration and in the `access` index of
//! every intrinsic that names it.
//!
//! Mesa's Vulkan drivers run it before they pick a storage image's surface state: anv
//! binds a write-only image with its own format, whose typed writes convert in the
//! hardware, and a read-write one in a format the typed reads of the platform take
//! (Gfx9 has none for `rgba8`, so the shader packs and unpacks texels itself). A
//! shader that stores to an `rgba8` image and never reads it, without declaring it
//! `writeonly`, then costs what a declared one costs.
//!
//! Images the shader never writes are left as they are: `readonly` would move their
//! loads to the sampler where `readonly_via_sampler` asks, a choice the shader's own
//! qualifiers make. Sampled images are left too (they are never written).

use super::pass::{Pass, PassError};
use crate::function::InstKind;
use crate::image::Access;
use crate::intrinsic::IndexKind;
use crate::shader::Shader;

/// The pass, `opt-access`.
#[derive(Copy, Clone, Debug, Default)]
pub struct OptAccess;

impl Pass for OptAccess {
    fn name(&self) -> &'static str {
        "opt-access"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut read = vec![false; shader.images.len()];
        for func in &shader.functions {
            for inst in func.insts_in_order() {
                if let InstKind::Intrinsic(i) = &func.inst(inst).kind {
                    let (Some(r), Some((reads, _))) = (i.image, i.op.image_texel_access()) else {
                        continue;
                    };
                    if let Some(flag) = read.get_mut(r.image.index()) {
                        *flag |= reads;
                    }
                }
            }
        }
        // The images that become `writeonly`: never read, not already so, not sampled.
        let becomes: Vec<bool> = shader
            .images
            .iter_mut()
            .zip(read)
            .map(|(decl, read)| {
                let kept = read
                    || decl.access.contains(Access::NON_READABLE)
                    || decl.access.contains(Access::SAMPLED);
                if !kept {
                    decl.access |= Access::NON_READABLE;
                }
                !kept
            })
            .collect();
        if !becomes.contains(&true) {
            return Ok(false);
        }
        for func in &mut shader.functions {
            for inst in func.insts_in_order() {
                let InstKind::Intrinsic(i) = &mut func.inst_mut(inst).kind else {
                    continue;
                };
                let Some(r) = i.image else {
                    continue;
                };
                if becomes.get(r.image.index()) == Some(&true) {
                    if let Some(a) = i.index(IndexKind::Access) {
                        i.set_index(IndexKind::Access, a | Access::NON_READABLE.bits());
                    }
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_shader, print_shader};

    fn run(text: &str) -> (bool, String) {
        let mut s = parse_shader(text).unwrap_or_else(|e| panic!("{e:?}"));
        let changed = OptAccess.run(&mut s).unwrap();
        crate::validate(&s).unwrap_or_else(|d| panic!("{d:?}"));
        (changed, print_shader(&s))
    }

    #[test]
    fn an_image_only_stored_to_becomes_writeonly() {
        let (changed, out) = run("shader compute (local_size=8,1,1)
image @out : 2d rgba8_unorm (binding=0)
image @src : 2d rgba8_unorm (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x4 %1 = @image_load (@src, %0.xy) (dest_type=float32)
    32x2 %2 = @image_size (@out)
    @image_store (@out, %0.xy, %1) (src_type=float32)
}
");
        assert!(changed);
        assert!(
            out.contains("image @out : 2d rgba8_unorm writeonly (binding=0)"),
            "{out}"
        );
        assert!(
            out.contains("image @src : 2d rgba8_unorm (binding=1)"),
            "{out}"
        );
        // The store's access restates the declaration's, so the printer leaves it out.
        assert!(
            out.contains("@image_store (@out, %0.xy, %1) (src_type=float32)\n"),
            "{out}"
        );
    }

    #[test]
    fn atomics_read_and_declared_images_stay() {
        let (changed, out) = run("shader compute (local_size=8,1,1)
image @counts : 2d r32_uint (binding=0)
image @done : 2d r32_uint writeonly (binding=1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (0x00000001)
    32   %2 = @image_atomic (@counts, %0.xy, %1) (atomic_op=iadd)
    @image_store (@done, %0.xy, %2) (src_type=uint32)
}
");
        assert!(!changed, "{out}");
    }
}
