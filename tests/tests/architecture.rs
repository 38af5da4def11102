//! The workspace's structural rules, checked on its sources:
//!
//! * no two modules of a crate import each other, directly or through others: the
//!   graph of "file A names an item defined in file B" is acyclic in every crate
//!   (re-exports are followed to the file that defines the item, so a `lib.rs` that
//!   re-exports its modules is not a hub);
//! * no source file outside the tests is longer than 1,500 lines;
//! * nothing cites a note a clone of the repository does not have (hardware facts are
//!   cited from `docs/hardware/` or their public source).
//!
//! Sources are read with `syn`. Test code (`#[cfg(test)]` modules and items, files under
//! `tests/` and `benches/`) is left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The longest a non-test source file may be.
const MAX_LINES: usize = 1500;

/// Crates whose import circles are still being taken apart. Each entry goes when its
/// crate is fixed; the list only shrinks.
const CRATES_WITH_KNOWN_CIRCLES: &[&str] = &[];

/// Files still over [`MAX_LINES`], to be split. The list only shrinks.
const KNOWN_LONG_FILES: &[&str] = &[];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Library crate roots of the workspace: every member directory with a `src/lib.rs`.
fn crate_roots() -> Vec<(String, PathBuf)> {
    let root = workspace_root();
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("workspace manifest");
    let members = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("a members line");
    let mut out = Vec::new();
    for m in members.split('"').skip(1).step_by(2) {
        let lib = root.join(m).join("src/lib.rs");
        if lib.exists() {
            out.push((m.to_string(), lib));
        }
    }
    assert!(out.len() >= 5, "found only {out:?}");
    out
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>().is_ok_and(|m| match m {
                syn::Meta::Path(p) => p.is_ident("test"),
                // `cfg(any(test, ...))` and friends: treated as test code.
                syn::Meta::List(l) => l.tokens.to_string().contains("test"),
                syn::Meta::NameValue(_) => false,
            })
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// One module of a crate: the file it lives in and what it declares.
#[derive(Default, Debug)]
struct Module {
    file: usize,
    parent: Option<usize>,
    children: HashMap<String, usize>,
    /// Items defined here (functions, types, constants, macros by name).
    items: BTreeSet<String>,
    /// `use` declarations: the name they bring in and the path it stands for.
    uses: HashMap<String, Vec<String>>,
}

struct Crate {
    files: Vec<PathBuf>,
    modules: Vec<Module>,
    /// Paths each module names, as segment lists (from `use` trees and expressions).
    refs: Vec<Vec<Vec<String>>>,
}

fn use_tree_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(String, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut p = prefix.clone();
            let name = n.ident.to_string();
            if name == "self" {
                let last = p.last().cloned().unwrap_or_default();
                out.push((last, p));
            } else {
                p.push(name.clone());
                out.push((name, p));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            out.push((r.rename.to_string(), p));
        }
        syn::UseTree::Glob(_) => {
            let mut p = prefix.clone();
            p.push("*".into());
            out.push(("*".into(), p));
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree_paths(t, prefix, out);
            }
        }
    }
}

/// Collects every path an item names, skipping test code.
#[derive(Default)]
struct PathCollector {
    paths: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.len() > 1 {
            self.paths
                .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, p);
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        // Inline modules are walked by the loader as modules of their own.
        let _ = m;
    }
    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !is_cfg_test(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    Some(match item {
        syn::Item::Const(i) => i.ident.to_string(),
        syn::Item::Enum(i) => i.ident.to_string(),
        syn::Item::Fn(i) => i.sig.ident.to_string(),
        syn::Item::Macro(i) => i.ident.as_ref()?.to_string(),
        syn::Item::Static(i) => i.ident.to_string(),
        syn::Item::Struct(i) => i.ident.to_string(),
        syn::Item::Trait(i) => i.ident.to_string(),
        syn::Item::Type(i) => i.ident.to_string(),
        syn::Item::Union(i) => i.ident.to_string(),
        _ => return None,
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

impl Crate {
    fn load(lib: &Path) -> Crate {
        let mut c = Crate {
            files: Vec::new(),
            modules: Vec::new(),
            refs: Vec::new(),
        };
        let text = fs::read_to_string(lib).unwrap();
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
        c.files.push(lib.to_path_buf());
        c.modules.push(Module::default());
        c.refs.push(Vec::new());
        // A crate root and `mod.rs` files own the directory they sit in.
        c.load_items(0, &file.items, lib.parent().unwrap().to_path_buf());
        c
    }

    fn load_items(&mut self, m: usize, items: &[syn::Item], dir: PathBuf) {
        for item in items {
            if is_cfg_test(item_attrs(item)) {
                continue;
            }
            if let Some(name) = item_name(item) {
                self.modules[m].items.insert(name);
            }
            match item {
                syn::Item::Use(u) => {
                    let mut out = Vec::new();
                    use_tree_paths(&u.tree, &mut Vec::new(), &mut out);
                    for (name, path) in out {
                        self.refs[m].push(path.clone());
                        if name != "*" {
                            self.modules[m].uses.insert(name, path);
                        }
                    }
                }
                syn::Item::Mod(md) => {
                    let name = md.ident.to_string();
                    let id = self.modules.len();
                    let (file, child_dir, child_items);
                    if let Some((_, inline)) = &md.content {
                        file = self.modules[m].file;
                        child_dir = dir.join(&name);
                        child_items = inline.clone();
                    } else {
                        let path = match path_attr(&md.attrs) {
                            Some(p) => dir.join(p),
                            None if dir.join(format!("{name}.rs")).exists() => {
                                dir.join(format!("{name}.rs"))
                            }
                            None => dir.join(&name).join("mod.rs"),
                        };
                        let text = fs::read_to_string(&path)
                            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                        let parsed = syn::parse_file(&text)
                            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                        file = self.files.len();
                        self.files.push(path.clone());
                        child_dir = if path.file_name().unwrap() == "mod.rs" {
                            path.parent().unwrap().to_path_buf()
                        } else {
                            path.with_extension("")
                        };
                        child_items = parsed.items;
                    }
                    self.modules.push(Module {
                        file,
                        parent: Some(m),
                        ..Module::default()
                    });
                    self.refs.push(Vec::new());
                    self.modules[m].children.insert(name, id);
                    self.load_items(id, &child_items, child_dir);
                }
                _ => {
                    let mut v = PathCollector::default();
                    v.visit_item(item);
                    self.refs[m].extend(v.paths);
                }
            }
        }
    }

    /// The file defining what `path` names when written in module `m`, or `None` for
    /// paths outside the crate (other crates, `std`, generic parameters, enum variants
    /// of local types).
    fn resolve(&self, m: usize, path: &[String], depth: u32) -> Option<usize> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let mut cur = match path[0].as_str() {
            "crate" => 0,
            "self" => m,
            "super" => self.modules[m].parent?,
            first => {
                if let Some(&c) = self.modules[m].children.get(first) {
                    c
                } else if let Some(target) = self.modules[m].uses.get(first) {
                    // A name brought in by `use`: continue from what it stands for.
                    if target.as_slice() == path {
                        return None;
                    }
                    let mut full = target.clone();
                    full.extend_from_slice(&path[1..]);
                    return self.resolve(m, &full, depth + 1);
                } else {
                    return None;
                }
            }
        };
        for (i, seg) in path.iter().enumerate().skip(1) {
            match seg.as_str() {
                "super" => cur = self.modules[cur].parent?,
                "self" => {}
                "*" => return Some(self.modules[cur].file),
                s => {
                    if let Some(&c) = self.modules[cur].children.get(s) {
                        cur = c;
                    } else if self.modules[cur].items.contains(s) {
                        return Some(self.modules[cur].file);
                    } else if let Some(target) = self.modules[cur].uses.get(s) {
                        let mut full = target.clone();
                        full.extend_from_slice(&path[i + 1..]);
                        return self.resolve(cur, &full, depth + 1);
                    } else {
                        // Enum variants, associated items: the last named module.
                        return Some(self.modules[cur].file);
                    }
                }
            }
        }
        Some(self.modules[cur].file)
    }

    /// Edges "file A names an item of file B", A != B.
    fn edges(&self) -> BTreeMap<usize, BTreeSet<usize>> {
        let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (m, refs) in self.refs.iter().enumerate() {
            let from = self.modules[m].file;
            for r in refs {
                if let Some(to) = self.resolve(m, r, 0) {
                    if to != from {
                        edges.entry(from).or_default().insert(to);
                    }
                }
            }
        }
        edges
    }
}

/// Strongly connected components of more than one file (Tarjan).
fn cycles(n: usize, edges: &BTreeMap<usize, BTreeSet<usize>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn connect(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let succ: Vec<usize> = s.edges.get(&v).into_iter().flatten().copied().collect();
        for w in succ {
            match s.index[w] {
                None => {
                    connect(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            connect(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_two_modules_of_a_crate_import_each_other() {
    let root = workspace_root();
    let mut report = String::new();
    for (name, lib) in crate_roots() {
        if CRATES_WITH_KNOWN_CIRCLES.contains(&name.as_str()) {
            continue;
        }
        let c = Crate::load(&lib);
        let edges = c.edges();
        for comp in cycles(c.files.len(), &edges) {
            let set: BTreeSet<usize> = comp.iter().copied().collect();
            report.push_str(&format!("crate `{name}`: these files import each other:\n"));
            for &f in &set {
                let rel = c.files[f].strip_prefix(&root).unwrap_or(&c.files[f]);
                let to: Vec<String> = edges[&f]
                    .iter()
                    .filter(|t| set.contains(t))
                    .map(|&t| {
                        let p = c.files[t].strip_prefix(&root).unwrap_or(&c.files[t]);
                        p.display().to_string()
                    })
                    .collect();
                report.push_str(&format!("  {} -> {}\n", rel.display(), to.join(", ")));
            }
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn the_checker_finds_a_cycle_through_a_re_export() {
    // a.rs uses b::f, b.rs uses crate::g which lib.rs re-exports from a.
    let dir = std::env::temp_dir().join(format!("arch-check-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("lib.rs"), "mod a; mod b; pub use a::g;").unwrap();
    fs::write(dir.join("a.rs"), "pub fn g() { crate::b::f() }").unwrap();
    fs::write(dir.join("b.rs"), "pub fn f() { crate::g() }").unwrap();
    let c = Crate::load(&dir.join("lib.rs"));
    let found = cycles(c.files.len(), &c.edges());
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 2);
}

#[test]
fn the_checker_accepts_a_shared_context_module() {
    // mod.rs uses its children, the children share a context module: no cycle.
    let dir = std::env::temp_dir().join(format!("arch-ok-{}", std::process::id()));
    fs::create_dir_all(dir.join("p")).unwrap();
    fs::write(dir.join("lib.rs"), "mod p; pub use p::run;").unwrap();
    fs::write(
        dir.join("p/mod.rs"),
        "mod ctx; mod x; mod y; pub fn run() { x::f(); y::g(); }",
    )
    .unwrap();
    fs::write(dir.join("p/ctx.rs"), "pub struct Ctx;").unwrap();
    fs::write(
        dir.join("p/x.rs"),
        "use super::ctx::Ctx; pub fn f() { let _ = Ctx; }",
    )
    .unwrap();
    fs::write(
        dir.join("p/y.rs"),
        "pub fn g() { let _ = super::ctx::Ctx; }",
    )
    .unwrap();
    let c = Crate::load(&dir.join("lib.rs"));
    let found = cycles(c.files.len(), &c.edges());
    // ...but a child that reaches back into mod.rs closes a circle.
    fs::write(dir.join("p/y.rs"), "pub fn g() { super::run() }").unwrap();
    let c2 = Crate::load(&dir.join("lib.rs"));
    let found2 = cycles(c2.files.len(), &c2.edges());
    fs::remove_dir_all(&dir).unwrap();
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(found2.len(), 1, "{found2:?}");
}

#[test]
fn no_source_file_outside_tests_is_longer_than_the_limit() {
    let root = workspace_root();
    let mut long = Vec::new();
    for (_, lib) in crate_roots() {
        let c = Crate::load(&lib);
        for f in &c.files {
            let lines = fs::read_to_string(f).unwrap().lines().count();
            let rel = f.strip_prefix(&root).unwrap_or(f);
            if lines > MAX_LINES && !KNOWN_LONG_FILES.contains(&rel.to_str().unwrap()) {
                long.push(format!("{}: {lines} lines", rel.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// Every file of the repository that may cite a source: code, docs, lit files,
/// manifests, CI scripts.
fn cited_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | ".git" | "fuzz-corpus" | "artifacts"
            ) {
                cited_files(&p, out);
            }
        } else if ["rs", "md", "ir", "toml", "wgsl", "comp", "glsl"]
            .iter()
            .any(|x| name.ends_with(&format!(".{x}")))
            || name == "run"
        {
            out.push(p);
        }
    }
}

/// The development notes the hardware facts were condensed from: they live outside
/// the repository, under the names below, so a line naming one (or a path to them)
/// cites something a clone does not have. The names are spelled in pieces so that this
/// file does not cite them itself.
const PRIVATE_NOTES: [&str; 7] = [
    concat!("lsc", ".md"),
    concat!("tiling", ".md"),
    concat!("image-lowering", ".md"),
    concat!("design", ".md"),
    concat!("style", ".md"),
    concat!("visa-kernels", ".md"),
    concat!("mesa-image-lowering", "-review"),
];

/// Paths that lead outside the repository, spelled in pieces like [`PRIVATE_NOTES`].
const PRIVATE_PATHS: [&str; 4] = [
    concat!("/work/", "shared"),
    concat!("shared/", "reference"),
    concat!("shared/", "spec"),
    concat!("../", "shared"),
];

/// The project's own hardware pages, which lines outside `docs/hardware/` cite by their
/// path from the repository root.
const HARDWARE_PAGES: [&str; 6] = [
    "lsc-messages.md",
    "surface-layout.md",
    "mesa-storage-images.md",
    "dataport.md",
    "visa-spec.md",
    "async-copies.md",
];

/// The occurrences of `name` in `line` that stand as a file name of their own (not
/// the end of a longer one such as `brw_tiling.md`), each with the text before it.
fn file_name_uses<'a>(line: &'a str, name: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find(name) {
        let before = &line[..from + at];
        let part_of_a_name = before
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !part_of_a_name {
            out.push(before);
        }
        from += at + name.len();
    }
    out
}

/// Where a line cites something a clone of the repository does not have: a path
/// outside it, a development note, or a hardware page without its `docs/hardware/`
/// path (inside `docs/hardware/` the pages name each other by file name). `None` for a
/// line that is fine.
fn dangling_citation(line: &str, in_hardware_docs: bool) -> Option<&'static str> {
    if PRIVATE_PATHS.iter().any(|p| line.contains(p)) {
        return Some("a path outside the repository");
    }
    if PRIVATE_NOTES
        .iter()
        .any(|n| !file_name_uses(line, n).is_empty())
    {
        return Some("a development note outside the repository");
    }
    if in_hardware_docs {
        return None;
    }
    for page in HARDWARE_PAGES {
        let unprefixed = file_name_uses(line, page)
            .iter()
            .any(|before| !before.ends_with("hardware/"));
        if unprefixed {
            return Some("a hardware page not under docs/hardware/");
        }
    }
    None
}

#[test]
fn nothing_cites_a_note_outside_the_repository() {
    let root = workspace_root();
    let mut files = Vec::new();
    cited_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 100, "found only {} files", files.len());
    let this_file = Path::new(file!()).file_name().unwrap().to_owned();
    let mut found = Vec::new();
    for f in &files {
        if f.file_name() == Some(this_file.as_os_str()) {
            continue; // the patterns themselves
        }
        let Ok(text) = fs::read_to_string(f) else {
            continue;
        };
        let rel = f.strip_prefix(&root).unwrap_or(f);
        let in_hardware_docs = rel.starts_with("docs/hardware");
        for (i, line) in text.lines().enumerate() {
            if let Some(why) = dangling_citation(line, in_hardware_docs) {
                found.push(format!(
                    "{}:{}: {why}: {}",
                    rel.display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} citation(s) a clone cannot follow:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_citation_check_knows_its_cases() {
    let lsc_note = PRIVATE_NOTES[0];
    let tiling_note = PRIVATE_NOTES[1];
    let dangling = |line: String, docs: bool| dangling_citation(&line, docs);
    assert!(dangling(format!("// see {lsc_note} §9"), false).is_some());
    assert!(dangling(format!("// see {lsc_note} §9"), true).is_some());
    assert!(dangling(format!("\"{tiling_note} §5: rows\""), false).is_some());
    assert!(dangling(format!("// {}/reference/x", PRIVATE_PATHS[3]), false).is_some());
    assert!(dangling(format!("// as {} says", PRIVATE_NOTES[3]), false).is_some());
    assert!(dangling_citation("// docs/hardware/lsc-messages.md §9", false).is_none());
    assert!(dangling_citation("// see lsc-messages.md §9", false).is_some());
    assert!(dangling_citation("// see lsc-messages.md §9", true).is_none());
    assert!(dangling_citation("// LSC_TYPED.md in IGC", false).is_none());
    assert!(dangling(format!("// brw_{tiling_note}"), false).is_none());
}
