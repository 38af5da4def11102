//! How a case is shown when a property fails: the platform, the images, the program
//! and the shader it builds.

use super::program::{Case, Element, Op, Stmt};
use std::fmt;

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, l: &[Stmt], indent: usize) -> fmt::Result {
            for s in l {
                write_stmt(f, s, indent)?;
            }
            Ok(())
        }
        fn write_stmt(f: &mut fmt::Formatter<'_>, s: &Stmt, indent: usize) -> fmt::Result {
            let pad = "  ".repeat(indent);
            match s {
                Stmt::Access(a) => {
                    let coords: Vec<String> = a.coord.iter().map(|t| t.to_string()).collect();
                    let element = match a.element {
                        Element::Whole => String::new(),
                        Element::Const(k) => format!("[{k}]"),
                        Element::Workgroup => "[wg.x % n]".to_string(),
                        Element::Lane { shift } => format!("[(lin >> {shift}) % n]"),
                    };
                    writeln!(
                        f,
                        "{pad}#{} {} @img{}{element}{} ({}){}",
                        a.id,
                        a.op.name(),
                        a.image,
                        if a.non_uniform { " non_uniform" } else { "" },
                        coords.join(", "),
                        match &a.op {
                            Op::Store { data } => format!(" <- {data:?}"),
                            Op::Atomic { data, compare, .. } =>
                                format!(" data {data:?} compare {compare:?}"),
                            _ => String::new(),
                        }
                    )
                }
                Stmt::If { cond, then, els } => {
                    writeln!(f, "{pad}if {cond:?}")?;
                    list(f, then, indent + 1)?;
                    writeln!(f, "{pad}else")?;
                    list(f, els, indent + 1)
                }
                Stmt::Loop {
                    base,
                    lane_mask,
                    body,
                } => {
                    writeln!(f, "{pad}loop {base} + (lin & {lane_mask}) times")?;
                    list(f, body, indent + 1)
                }
            }
        }
        write_stmt(f, self, 0)
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        writeln!(
            f,
            "device {}{}, options {:?}, in-range only {}",
            self.device.name,
            if self.device.linear_1d_storage {
                ""
            } else {
                " (any storage tiling isl allows)"
            },
            self.options,
            self.in_range_only
        )?;
        writeln!(
            f,
            "local size {:?}, workgroups {:?}, subgroup {}",
            self.local_size, self.workgroups, self.subgroup_size
        )?;
        for (i, img) in self.images.iter().enumerate() {
            writeln!(
                f,
                "image {i}: {} {} (view {}) {:?} layout {:?} fill {:?}\n  {:?}",
                img.dim,
                img.decl_format,
                img.setup.format,
                img.access,
                img.static_layout,
                img.setup.fill,
                img.setup.memory
            )?;
            for (k, s) in img.others.iter().enumerate() {
                writeln!(
                    f,
                    "  element {}: fill {:?}\n  {:?}",
                    k + 1,
                    s.fill,
                    s.memory
                )?;
            }
        }
        for s in &self.body {
            write!(f, "{s}")?;
        }
        write!(f, "{}", self.build())
    }
}
