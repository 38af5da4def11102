//! The kernel's symbol table: general variables and their typed aliases, predicates and
//! surfaces, printed as `.decl` lines (IGC `documentation/visa/4_visa_header.md`).
//!
//! Names are chosen by the caller; this module only makes sure that each is declared
//! once and that a typed view of a variable (`v12_f`, the bits of `v12` read as floats)
//! is one alias declaration shared by every use.

use crate::vtype::VType;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A general variable of the kernel.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct VarId(u32);

impl VarId {
    /// The variable declared `k` declarations after this one (for variables declared
    /// together, as the parts of a large value are).
    pub fn nth(self, k: u32) -> VarId {
        VarId(self.0 + k)
    }
}

/// The alignment of a variable.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Align {
    /// Its element size.
    Natural,
    /// A whole register (`align=GRF`): every SIMT value, so that its components start
    /// registers as message payloads need.
    Grf,
}

#[derive(Clone, Debug)]
struct VarDecl {
    name: String,
    ty: VType,
    elts: u32,
    align: Align,
    alias: Option<(VarId, u32)>,
}

/// The symbol table.
#[derive(Clone, Debug, Default)]
pub struct Decls {
    vars: Vec<VarDecl>,
    views: HashMap<(VarId, VType), VarId>,
    preds: Vec<(String, u32)>,
    addrs: Vec<(String, u32)>,
    surfaces: Vec<String>,
    samplers: Vec<String>,
}

impl Decls {
    /// Declares a general variable of `elts` elements of `ty`.
    pub fn var(&mut self, name: String, ty: VType, elts: u32, align: Align) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl {
            name,
            ty,
            elts,
            align,
            alias: None,
        });
        id
    }

    /// `base` read as elements of `ty`: `base` itself when it has that type, otherwise an
    /// alias named `<base>_<ty>` over the same bytes (declared on first use).
    pub fn view(&mut self, base: VarId, ty: VType) -> VarId {
        let root = self.root(base);
        if self.vars[root.0 as usize].ty == ty {
            return root;
        }
        if let Some(v) = self.views.get(&(root, ty)) {
            return *v;
        }
        let r = &self.vars[root.0 as usize];
        let bytes = r.elts * r.ty.bytes();
        let decl = VarDecl {
            name: format!("{}_{}", r.name, ty.name()),
            ty,
            elts: bytes / ty.bytes(),
            align: r.align,
            alias: Some((root, 0)),
        };
        let id = VarId(self.vars.len() as u32);
        self.vars.push(decl);
        self.views.insert((root, ty), id);
        id
    }

    /// Gives variable `v` (not an alias) `elts` elements; its views follow.
    pub fn resize(&mut self, v: VarId, elts: u32) {
        let bytes = elts * self.vars[v.0 as usize].ty.bytes();
        self.vars[v.0 as usize].elts = elts;
        for d in &mut self.vars {
            if d.alias.map(|(b, _)| b) == Some(v) {
                d.elts = bytes / d.ty.bytes();
            }
        }
    }

    /// The variable an alias reads (the variable itself if it is no alias).
    pub fn root(&self, v: VarId) -> VarId {
        match self.vars[v.0 as usize].alias {
            Some((base, _)) => base,
            None => v,
        }
    }

    /// The variable's name.
    pub fn name(&self, v: VarId) -> &str {
        &self.vars[v.0 as usize].name
    }

    /// The variable's element type.
    pub fn ty(&self, v: VarId) -> VType {
        self.vars[v.0 as usize].ty
    }

    /// The variable's size in bytes.
    pub fn bytes(&self, v: VarId) -> u32 {
        let d = &self.vars[v.0 as usize];
        d.elts * d.ty.bytes()
    }

    /// Declares a predicate variable of `elts` lanes.
    pub fn pred(&mut self, name: &str, elts: u32) {
        if !self.preds.iter().any(|(n, _)| n == name) {
            self.preds.push((name.to_string(), elts));
        }
    }

    /// Declares an address variable of `elts` 16-bit elements (`v_type=A`), the
    /// address register an indirect operand `r[A0(0),0]` reads; declared once, the
    /// widest asked for.
    pub fn addr(&mut self, name: &str, elts: u32) {
        match self.addrs.iter_mut().find(|(n, _)| n == name) {
            Some((_, e)) => *e = (*e).max(elts),
            None => self.addrs.push((name.to_string(), elts)),
        }
    }

    /// Declares a surface variable (its value, the binding-table index, is set with
    /// `movs` before use).
    pub fn surface(&mut self, name: &str) {
        if !self.surfaces.iter().any(|n| n == name) {
            self.surfaces.push(name.to_string());
        }
    }

    /// Declares a sampler variable (its value, the sampler index, is set with `movs`
    /// before use).
    pub fn sampler(&mut self, name: &str) {
        if !self.samplers.iter().any(|n| n == name) {
            self.samplers.push(name.to_string());
        }
    }

    /// Number of general variables declared (aliases included).
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// The `.decl` lines, variables in declaration order (an alias always follows the
    /// variable it reads), then predicates, samplers and surfaces (IGC's order).
    pub fn render(&self, out: &mut String) {
        for d in &self.vars {
            let align = match d.align {
                Align::Grf => "GRF",
                Align::Natural => match d.ty.bytes() {
                    1 => "byte",
                    2 => "word",
                    4 => "dword",
                    _ => "qword",
                },
            };
            let _ = write!(
                out,
                ".decl {} v_type=G type={} num_elts={} align={align}",
                d.name, d.ty, d.elts
            );
            if let Some((base, off)) = d.alias {
                let _ = write!(out, " alias=<{}, {off}>", self.vars[base.0 as usize].name);
            }
            out.push('\n');
        }
        for (a, n) in &self.addrs {
            let _ = writeln!(out, ".decl {a} v_type=A num_elts={n}");
        }
        for (p, n) in &self.preds {
            let _ = writeln!(out, ".decl {p} v_type=P num_elts={n}");
        }
        for s in &self.samplers {
            let _ = writeln!(out, ".decl {s} v_type=S num_elts=1");
        }
        for s in &self.surfaces {
            let _ = writeln!(out, ".decl {s} v_type=T num_elts=1");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_shared_aliases() {
        let mut d = Decls::default();
        let v = d.var("v3".into(), VType::Uq, 16, Align::Grf);
        let a = d.view(v, VType::Ud);
        assert_eq!(d.view(v, VType::Ud), a);
        assert_eq!(d.view(a, VType::Uq), v);
        assert_eq!(d.name(a), "v3_ud");
        assert_eq!(d.bytes(a), 128);
        d.pred("p1", 16);
        d.pred("p1", 16);
        d.surface("T6");
        let mut s = String::new();
        d.render(&mut s);
        assert_eq!(
            s,
            ".decl v3 v_type=G type=uq num_elts=16 align=GRF\n\
             .decl v3_ud v_type=G type=ud num_elts=32 align=GRF alias=<v3, 0>\n\
             .decl p1 v_type=P num_elts=16\n\
             .decl T6 v_type=T num_elts=1\n"
        );
    }
}
