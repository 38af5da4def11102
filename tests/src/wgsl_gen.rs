//! Random valid WGSL compute shaders for the differential test of the two
//! translations (`tests/tests/oracle.rs`): integer, float and vector arithmetic with
//! WGSL's defined edge cases (division by zero, shifts, conversions), `if`, `for`,
//! `loop`, `switch`, `break`, `continue`, early `return`, calls of helper functions
//! with early returns of their own, function-local arrays indexed at run time, private
//! and workgroup variables, atomics, and storage-texture loads and stores. Every
//! program ends by writing its variables to a storage buffer, so that any difference
//! in a computed value shows in memory.
//!
//! Generation is deterministic for a given seed.

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Ty {
    U,
    I,
    F,
}

struct Gen {
    rng: Rng,
    out: String,
    indent: usize,
    /// Statements left to emit.
    budget: u32,
    /// Nesting of loops (for `break` and `continue`).
    loops: u32,
    /// Whether the program has a storage texture.
    image: bool,
    /// Whether the function being written is a helper (its returns return a value).
    helper: bool,
    /// Counter for fresh loop variable names.
    fresh: u32,
}

const U_VARS: [&str; 3] = ["u0", "u1", "u2"];
const I_VARS: [&str; 2] = ["i0", "i1"];
const F_VARS: [&str; 2] = ["f0", "f1"];

impl Gen {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn var(&mut self, t: Ty) -> String {
        if self.helper {
            return match t {
                Ty::U => self.rng.pick(&["a", "t"]).to_string(),
                Ty::I => "b".to_string(),
                Ty::F => "f32(a)".to_string(),
            };
        }
        match t {
            Ty::U => self.rng.pick(&U_VARS).to_string(),
            Ty::I => self.rng.pick(&I_VARS).to_string(),
            Ty::F => self.rng.pick(&F_VARS).to_string(),
        }
    }

    fn literal(&mut self, t: Ty) -> String {
        match t {
            Ty::U => format!(
                "{}u",
                self.rng.pick(&[0u32, 1, 2, 3, 7, 31, 255, 0xffff_ffff])
            ),
            Ty::I => format!(
                "{}i",
                self.rng.pick(&[0i32, 1, -1, 2, -7, 100, i32::MIN + 1])
            ),
            Ty::F => format!(
                "{:?}f",
                self.rng.pick(&[0.0f32, 1.0, -1.5, 0.25, 3.0, 1e6, -0.0])
            ),
        }
    }

    fn expr(&mut self, t: Ty, depth: u32) -> String {
        if depth == 0 || self.rng.chance(25) {
            return if self.rng.chance(75) {
                self.var(t)
            } else {
                // A literal alone would make a constant expression, where WGSL rejects
                // division by zero; pair it with a variable.
                let v = self.var(t);
                let l = self.literal(t);
                match t {
                    Ty::F => format!("({v} + {l})"),
                    _ => format!("({v} ^ {l})"),
                }
            };
        }
        let d = depth - 1;
        match t {
            Ty::U => match self.rng.below(14) {
                0..=4 => {
                    let op = *self.rng.pick(&["+", "-", "*", "/", "%", "&", "|", "^"]);
                    format!("({} {op} {})", self.expr(Ty::U, d), self.expr(Ty::U, d))
                }
                5 => {
                    let op = *self.rng.pick(&["<<", ">>"]);
                    format!(
                        "({} {op} ({} & 31u))",
                        self.expr(Ty::U, d),
                        self.expr(Ty::U, d)
                    )
                }
                6 => format!("u32({})", self.expr(Ty::I, d)),
                7 => format!("u32({})", self.expr(Ty::F, d)),
                8 => {
                    let f = *self.rng.pick(&["min", "max"]);
                    format!("{f}({}, {})", self.expr(Ty::U, d), self.expr(Ty::U, d))
                }
                9 => format!(
                    "select({}, {}, {})",
                    self.expr(Ty::U, d),
                    self.expr(Ty::U, d),
                    self.cond(d)
                ),
                // A small array stays in registers; one of more than 16 elements
                // indexed at run time lives in scratch memory.
                10 if !self.helper && self.rng.chance(50) => {
                    format!("big[{} % 24u]", self.expr(Ty::U, d))
                }
                10 if !self.helper => format!("arr[{} & 3u]", self.expr(Ty::U, d)),
                11 if !self.helper => {
                    format!("h0({}, {})", self.expr(Ty::U, d), self.expr(Ty::I, d))
                }
                12 => {
                    let f = *self.rng.pick(&[
                        "countOneBits",
                        "reverseBits",
                        "firstLeadingBit",
                        "countTrailingZeros",
                    ]);
                    format!("{f}({})", self.expr(Ty::U, d))
                }
                13 if !self.helper => format!("uv.{}", self.rng.pick(&["x", "y"])),
                _ => format!("bitcast<u32>({})", self.expr(Ty::F, d)),
            },
            Ty::I => match self.rng.below(9) {
                0..=3 => {
                    let op = *self.rng.pick(&["+", "-", "*", "/", "%", "&", "|", "^"]);
                    format!("({} {op} {})", self.expr(Ty::I, d), self.expr(Ty::I, d))
                }
                4 => format!("i32({})", self.expr(Ty::U, d)),
                5 => format!("i32({})", self.expr(Ty::F, d)),
                6 => {
                    let f = *self.rng.pick(&["min", "max"]);
                    format!("{f}({}, {})", self.expr(Ty::I, d), self.expr(Ty::I, d))
                }
                7 => format!("abs({})", self.expr(Ty::I, d)),
                _ => format!("(-{})", self.expr(Ty::I, d)),
            },
            Ty::F => match self.rng.below(11) {
                0..=3 => {
                    let op = *self.rng.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", self.expr(Ty::F, d), self.expr(Ty::F, d))
                }
                4 => format!("f32({})", self.expr(Ty::U, d)),
                5 => format!("f32({})", self.expr(Ty::I, d)),
                6 => {
                    let f = *self
                        .rng
                        .pick(&["floor", "fract", "abs", "ceil", "trunc", "round", "sign"]);
                    format!("{f}({})", self.expr(Ty::F, d))
                }
                7 => {
                    let f = *self.rng.pick(&["min", "max"]);
                    format!("{f}({}, {})", self.expr(Ty::F, d), self.expr(Ty::F, d))
                }
                8 if !self.helper => {
                    format!("dot(v, vec4<f32>({}, 1.0, 0.5, 2.0))", self.expr(Ty::F, d))
                }
                9 if !self.helper => format!("v.{}", self.rng.pick(&["x", "y", "z", "w"])),
                _ => format!("sqrt(abs({}))", self.expr(Ty::F, d)),
            },
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.below(4) {
            0 => format!("({} < {})", self.expr(Ty::U, d), self.expr(Ty::U, d)),
            1 => format!("({} >= {})", self.expr(Ty::I, d), self.expr(Ty::I, d)),
            2 => format!("({} > {})", self.expr(Ty::F, d), self.expr(Ty::F, d)),
            _ => format!("(({} & 1u) == 0u)", self.expr(Ty::U, d)),
        }
    }

    fn assign(&mut self) {
        if self.helper {
            let e = self.expr(Ty::U, 2);
            self.line(&format!("t = {e};"));
            return;
        }
        match self.rng.below(8) {
            0..=2 => {
                let v = self.var(Ty::U);
                let e = self.expr(Ty::U, 3);
                self.line(&format!("{v} = {e};"));
            }
            3 => {
                let v = self.var(Ty::I);
                let e = self.expr(Ty::I, 3);
                self.line(&format!("{v} = {e};"));
            }
            4 => {
                let v = self.var(Ty::F);
                let e = self.expr(Ty::F, 3);
                self.line(&format!("{v} = {e};"));
            }
            5 => {
                let i = self.expr(Ty::U, 1);
                let e = self.expr(Ty::U, 2);
                if self.rng.chance(50) {
                    self.line(&format!("big[{i} % 24u] = {e};"));
                } else {
                    self.line(&format!("arr[{i} & 3u] = {e};"));
                }
            }
            6 => {
                let c = *self.rng.pick(&["x", "y", "z", "w"]);
                let e = self.expr(Ty::F, 2);
                self.line(&format!("v.{c} = {e};"));
                if self.rng.chance(30) {
                    self.line("v = v.yzwx * 0.5;");
                }
            }
            _ => {
                let e = self.expr(Ty::U, 2);
                let slot = self.rng.below(4);
                self.line(&format!("atomicAdd(&counters[{slot}u], {e});"));
            }
        }
    }

    fn block(&mut self, depth: u32) {
        let n = 1 + self.rng.below(3);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt(depth);
        }
    }

    fn stmt(&mut self, depth: u32) {
        self.budget = self.budget.saturating_sub(1);
        let kind = if depth == 0 { 0 } else { self.rng.below(12) };
        match kind {
            0..=4 => self.assign(),
            5 | 6 => {
                let c = self.cond(2);
                self.line(&format!("if {c} {{"));
                self.indent += 1;
                self.block(depth - 1);
                self.indent -= 1;
                if self.rng.chance(50) {
                    self.line("} else {");
                    self.indent += 1;
                    self.block(depth - 1);
                    self.indent -= 1;
                }
                self.line("}");
            }
            7 => {
                let k = format!("k{}", self.fresh);
                self.fresh += 1;
                let n = 1 + self.rng.below(4);
                self.line(&format!("for (var {k}: u32 = 0u; {k} < {n}u; {k}++) {{"));
                self.indent += 1;
                self.loops += 1;
                if !self.helper {
                    self.line(&format!("u2 = u2 + {k};"));
                }
                self.block(depth - 1);
                self.loops -= 1;
                self.indent -= 1;
                self.line("}");
            }
            8 => {
                let k = format!("k{}", self.fresh);
                self.fresh += 1;
                self.line(&format!("var {k}: u32 = 0u;"));
                self.line("loop {");
                self.indent += 1;
                let n = 1 + self.rng.below(3);
                self.line(&format!("if {k} >= {n}u {{ break; }}"));
                self.loops += 1;
                self.block(depth - 1);
                self.loops -= 1;
                self.indent -= 1;
                self.line("    continuing {");
                self.line(&format!("        {k} = {k} + 1u;"));
                self.line("    }");
                self.line("}");
            }
            9 => {
                let e = self.expr(Ty::U, 1);
                self.line(&format!("switch ({e} & 3u) {{"));
                self.indent += 1;
                for case in ["case 0u", "case 1u, 2u", "default"] {
                    if case != "default" && self.rng.chance(30) {
                        continue;
                    }
                    self.line(&format!("{case}: {{"));
                    self.indent += 1;
                    self.block(depth - 1);
                    self.indent -= 1;
                    self.line("}");
                }
                self.indent -= 1;
                self.line("}");
            }
            10 if self.loops > 0 => {
                let c = self.cond(1);
                let j = *self.rng.pick(&["break", "continue"]);
                self.line(&format!("if {c} {{ {j}; }}"));
            }
            11 => {
                let c = self.cond(1);
                if self.helper {
                    let e = self.expr(Ty::U, 1);
                    self.line(&format!("if {c} {{ return {e}; }}"));
                } else {
                    self.line(&format!("if {c} {{"));
                    self.line("    write_out(gid.x);");
                    self.line("    return;");
                    self.line("}");
                }
            }
            _ => self.assign(),
        }
    }
}

/// The WGSL program for `seed`.
pub fn generate(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed ^ 0x5157_0a11_c0de_0001),
        out: String::new(),
        indent: 0,
        budget: 0,
        loops: 0,
        image: false,
        helper: false,
        fresh: 0,
    };
    g.image = g.rng.chance(25);
    g.line("@group(0) @binding(0) var<storage, read_write> out: array<u32>;");
    g.line("@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>, 4>;");
    if g.image {
        g.line("@group(0) @binding(2) var img: texture_storage_2d<r32uint, read_write>;");
    }
    g.line("var<workgroup> sh: array<u32, 8>;");
    g.line("var<private> u0: u32;");
    g.line("var<private> u1: u32;");
    g.line("var<private> u2: u32;");
    g.line("var<private> i0: i32;");
    g.line("var<private> i1: i32;");
    g.line("var<private> f0: f32;");
    g.line("var<private> f1: f32;");
    g.line("var<private> v: vec4<f32>;");
    g.line("var<private> uv: vec2<u32>;");
    g.line("var<private> arr: array<u32, 4>;");
    g.line("var<private> big: array<u32, 24>;");
    g.line("");
    // A helper with early returns of its own.
    g.line("fn h0(a: u32, b: i32) -> u32 {");
    g.indent += 1;
    g.helper = true;
    g.line("var t: u32 = a;");
    g.budget = 4;
    g.block(2);
    g.line("return t + u32(b);");
    g.helper = false;
    g.indent -= 1;
    g.line("}");
    g.line("");
    g.line("fn write_out(x: u32) {");
    g.line("    let base = x * 16u;");
    g.line("    out[base] = u0;");
    g.line("    out[base + 1u] = u1;");
    g.line("    out[base + 2u] = u2;");
    g.line("    out[base + 3u] = bitcast<u32>(i0);");
    g.line("    out[base + 4u] = bitcast<u32>(i1);");
    g.line("    out[base + 5u] = bitcast<u32>(f0);");
    g.line("    out[base + 6u] = bitcast<u32>(f1);");
    g.line("    out[base + 7u] = bitcast<u32>(v.x) ^ bitcast<u32>(v.y) ^ bitcast<u32>(v.z) ^ bitcast<u32>(v.w);");
    g.line("    out[base + 8u] = arr[0] + arr[1] * 3u + arr[2] * 5u + arr[3] * 7u;");
    g.line("    out[base + 9u] = uv.x ^ uv.y;");
    g.line("    out[base + 10u] = big[0] + big[7] * 3u + big[23] * 5u;");
    g.line("}");
    g.line("");
    g.line("@compute @workgroup_size(8, 1, 1)");
    g.line("fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {");
    g.indent += 1;
    g.line("u0 = gid.x * 2654435761u;");
    g.line("u1 = gid.x + 3u;");
    g.line("u2 = li;");
    g.line("i0 = i32(gid.x) - 5i;");
    g.line("i1 = i32(u0 >> 3u);");
    g.line("f0 = f32(gid.x) * 0.75 - 2.0;");
    g.line("f1 = f32(li) + 0.5;");
    g.line("v = vec4<f32>(f0, f1, 1.0, -2.0);");
    g.line("uv = vec2<u32>(gid.x, li * 3u);");
    g.line("arr = array<u32, 4>(1u, u0, u1, 9u);");
    g.line("big[gid.x % 24u] = u0 ^ 0x55u;");
    // Workgroup memory, while the control flow is still uniform.
    g.line("sh[li & 7u] = u0;");
    g.line("workgroupBarrier();");
    g.line("u1 = u1 + sh[(li + 1u) & 7u];");
    if g.image {
        g.line("let p = vec2<u32>(gid.x % 8u, li % 4u);");
        g.line("u2 = u2 + textureLoad(img, p).x;");
    }
    g.budget = 12 + g.rng.below(14) as u32;
    while g.budget > 0 {
        g.stmt(3);
    }
    if g.image {
        g.line("textureStore(img, vec2<u32>(gid.x % 8u, 5u), vec4<u32>(u0 ^ u1, 0u, 0u, 0u));");
    }
    g.line("write_out(gid.x);");
    g.indent -= 1;
    g.line("}");
    g.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(generate(7), generate(7));
        assert_ne!(generate(7), generate(8));
    }
}
