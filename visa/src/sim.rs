//! (Tests only.) An executable model of the part of vISA the ALU sequences use, so that
//! unit tests can run an emitted kernel on chosen lane values and compare its results
//! with `ir::eval`, NIR's semantics.
//!
//! The model follows the instruction pages of IGC's `documentation/visa/`: integer
//! instructions compute exactly on the sources extended by their own types and
//! truncate to the destination's type; float instructions compute in binary32 (binary64
//! when an operand is `df`) with one rounding to nearest even, denormals kept (the
//! kernels set `%cr0` so), `mad` fused; `min`/`max` return the non-NaN source; `cmp` is
//! unordered on NaN. The math unit (`inv`, `sqrt`, `rsqrt`, `exp`, `log`, `sin`, `cos`,
//! `pow`) gives a binary32 within [`Sim::math_ulps`] ulps of the true value (1: a
//! faithful rounding), picked by a fixed hash of the operand, to stand for the
//! hardware's approximations; `divm` and `sqrtm` are exact. Messages: `lsc_load.ugm ... :d32` fills its destination with the
//! next input vector (one `u32` per lane), `lsc_store.ugm ... :d32` records its lanes.
//! Control flow: labels and `goto` that every enabled lane takes alike (uniform loops).

use ir::eval::{f16_to_f32, f32_to_f16};
use ir::AluOp;
use std::collections::HashMap;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Ty {
    Ub,
    B,
    Uw,
    W,
    Ud,
    D,
    Uq,
    Q,
    Hf,
    F,
    Df,
}

impl Ty {
    fn parse(s: &str) -> Result<Ty, String> {
        Ok(match s {
            "ub" => Ty::Ub,
            "b" => Ty::B,
            "uw" => Ty::Uw,
            "w" => Ty::W,
            "ud" => Ty::Ud,
            "d" => Ty::D,
            "uq" => Ty::Uq,
            "q" => Ty::Q,
            "hf" => Ty::Hf,
            "f" => Ty::F,
            "df" => Ty::Df,
            other => return Err(format!("type `{other}`")),
        })
    }

    fn bytes(self) -> usize {
        match self {
            Ty::Ub | Ty::B => 1,
            Ty::Uw | Ty::W | Ty::Hf => 2,
            Ty::Ud | Ty::D | Ty::F => 4,
            Ty::Uq | Ty::Q | Ty::Df => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::Hf | Ty::F | Ty::Df)
    }

    fn signed(self) -> bool {
        matches!(self, Ty::B | Ty::W | Ty::D | Ty::Q)
    }

    fn mask(self) -> u64 {
        match self.bytes() {
            8 => u64::MAX,
            n => (1u64 << (8 * n)) - 1,
        }
    }

    /// The integer value of `bits` read as this (integer) type.
    fn int(self, bits: u64) -> i128 {
        let b = bits & self.mask();
        if self.signed() {
            let sh = 64 - 8 * self.bytes();
            i128::from(((b << sh) as i64) >> sh)
        } else {
            i128::from(b)
        }
    }

    /// The value of `bits` read as this float type.
    fn float(self, bits: u64) -> f64 {
        match self {
            Ty::Hf => f64::from(f16_to_f32(bits as u16)),
            Ty::F => f64::from(f32::from_bits(bits as u32)),
            _ => f64::from_bits(bits),
        }
    }
}

/// A binary32 result's bits (NaNs as they come).
fn f32_bits(x: f32) -> u64 {
    u64::from(x.to_bits())
}

/// A region: bytes `byte..` of root variable `root`, every `stride`-th element of `ty`.
#[derive(Copy, Clone, Debug)]
struct Region {
    root: usize,
    byte: usize,
    stride: usize,
    ty: Ty,
}

#[derive(Copy, Clone, Debug)]
enum Src {
    Reg { r: Region, neg: bool, abs: bool },
    Imm { bits: u64, ty: Ty },
    Pred(usize),
}

impl Src {
    fn ty(&self) -> Ty {
        match self {
            Src::Reg { r, .. } => r.ty,
            Src::Imm { ty, .. } => *ty,
            Src::Pred(_) => Ty::Ud,
        }
    }
}

/// The model: variables, predicates, the kernel's lines.
pub struct Sim {
    grf: usize,
    simd: usize,
    /// Per variable name: its root, byte offset in the root, and type.
    vars: HashMap<String, (usize, usize, Ty)>,
    roots: Vec<Vec<u8>>,
    preds: HashMap<String, usize>,
    pred_bits: Vec<u64>,
    lines: Vec<String>,
    labels: HashMap<String, usize>,
    /// The math unit's error, in ulps (0: correctly rounded).
    pub math_ulps: i64,
    /// Instructions run, to bound loops.
    pub steps: usize,
}

impl Sim {
    /// Reads a kernel's text for `simd` lanes and `grf`-byte registers.
    pub fn new(text: &str, simd: usize, grf: usize) -> Result<Sim, String> {
        let mut s = Sim {
            grf,
            simd,
            vars: HashMap::new(),
            roots: Vec::new(),
            preds: HashMap::new(),
            pred_bits: Vec::new(),
            lines: Vec::new(),
            labels: HashMap::new(),
            math_ulps: 0,
            steps: 0,
        };
        let attr = |l: &str, k: &str| -> Option<String> {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix(k).map(str::to_string))
        };
        let mut decls = Vec::new();
        for line in text.lines() {
            let l = line.trim();
            if let Some(rest) = l.strip_prefix(".decl ") {
                decls.push(rest.to_string());
            } else if l.starts_with('.') || l.is_empty() || l.starts_with("//") {
                continue;
            } else if let Some(label) = l.strip_suffix(':') {
                s.labels.insert(label.to_string(), s.lines.len());
            } else {
                s.lines.push(l.to_string());
            }
        }
        // Roots first, then aliases (which name their root).
        for alias_pass in [false, true] {
            for d in &decls {
                let name = d.split_whitespace().next().unwrap_or("").to_string();
                let vtype = attr(d, "v_type=").unwrap_or_default();
                let n: usize = attr(d, "num_elts=")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1);
                if vtype == "P" {
                    if !alias_pass {
                        s.preds.insert(name, s.pred_bits.len());
                        s.pred_bits.push(0);
                    }
                    continue;
                }
                if vtype != "G" {
                    continue;
                }
                let ty = Ty::parse(&attr(d, "type=").unwrap_or_default())?;
                match d.find("alias=<") {
                    Some(at) if alias_pass => {
                        let inner = &d[at + 7..];
                        let inner = &inner[..inner.find('>').ok_or("alias")?];
                        let (root, off) = inner.split_once(',').ok_or("alias")?;
                        let (r, o, _) = *s
                            .vars
                            .get(root.trim())
                            .ok_or(format!("alias of unknown {root}"))?;
                        let off: usize = off.trim().parse().map_err(|_| "alias offset")?;
                        s.vars.insert(name, (r, o + off, ty));
                    }
                    None if !alias_pass => {
                        s.vars.insert(name, (s.roots.len(), 0, ty));
                        s.roots.push(vec![0; n * ty.bytes()]);
                    }
                    _ => {}
                }
            }
        }
        Ok(s)
    }

    fn region(&self, text: &str, dst: bool) -> Result<Region, String> {
        let open = text.find('(').ok_or(format!("operand `{text}`"))?;
        let name = &text[..open];
        let &(root, off, ty) = self
            .vars
            .get(name)
            .ok_or(format!("unknown variable `{name}`"))?;
        let close = text.find(')').ok_or("operand")?;
        let (row, col) = text[open + 1..close].split_once(',').ok_or("operand")?;
        let row: usize = row.parse().map_err(|_| "row")?;
        let col: usize = col.parse().map_err(|_| "col")?;
        let reg = &text[close + 1..];
        let inner = reg.trim_start_matches('<').trim_end_matches('>');
        let stride: usize = if dst {
            inner.parse().map_err(|_| "dst stride")?
        } else {
            inner
                .split(';')
                .next()
                .unwrap_or("1")
                .parse()
                .map_err(|_| "stride")?
        };
        Ok(Region {
            root,
            byte: off + row * self.grf + col * ty.bytes(),
            stride,
            ty,
        })
    }

    fn src(&self, text: &str) -> Result<Src, String> {
        if let Some(&p) = self.preds.get(text) {
            return Ok(Src::Pred(p));
        }
        if let Some(imm) = text.strip_prefix("0x") {
            let (v, t) = imm.split_once(':').ok_or("immediate")?;
            let bits = u64::from_str_radix(v, 16).map_err(|_| "immediate")?;
            return Ok(Src::Imm {
                bits,
                ty: Ty::parse(t)?,
            });
        }
        let (mut neg, mut abs, mut t) = (false, false, text);
        loop {
            if let Some(r) = t.strip_prefix("(-abs)") {
                neg = true;
                abs = true;
                t = r;
            } else if let Some(r) = t.strip_prefix("(-)") {
                neg = true;
                t = r;
            } else if let Some(r) = t.strip_prefix("(abs)") {
                abs = true;
                t = r;
            } else {
                break;
            }
        }
        Ok(Src::Reg {
            r: self.region(t, false)?,
            neg,
            abs,
        })
    }

    fn load(&self, r: Region, lane: usize) -> u64 {
        let at = r.byte + lane * r.stride * r.ty.bytes();
        let mut b = [0u8; 8];
        b[..r.ty.bytes()].copy_from_slice(&self.roots[r.root][at..at + r.ty.bytes()]);
        u64::from_le_bytes(b)
    }

    fn store(&mut self, r: Region, lane: usize, bits: u64) {
        let at = r.byte + lane * r.stride.max(1) * r.ty.bytes();
        let n = r.ty.bytes();
        self.roots[r.root][at..at + n].copy_from_slice(&bits.to_le_bytes()[..n]);
    }

    /// Source `s` of lane `lane`: its bits (as its type), modifiers applied.
    fn read(&self, s: &Src, lane: usize) -> u64 {
        match *s {
            Src::Imm { bits, ty } => bits & ty.mask(),
            Src::Pred(p) => (self.pred_bits[p] >> lane) & 1,
            Src::Reg { r, neg, abs } => {
                let b = self.load(r, lane);
                if r.ty.is_float() {
                    let sign = 1u64 << (8 * r.ty.bytes() - 1);
                    let b = if abs { b & !sign } else { b };
                    if neg {
                        b ^ sign
                    } else {
                        b
                    }
                } else {
                    let mut v = r.ty.int(b);
                    if abs {
                        v = v.abs();
                    }
                    if neg {
                        v = -v;
                    }
                    v as u64
                }
            }
        }
    }

    /// The math unit: a binary32 within [`Sim::math_ulps`] ulps of the true value `v`
    /// (any of them, picked by a hash of the operand), or the correctly rounded one.
    fn math(&self, v: f64, seed: u64) -> u64 {
        let r = v as f32;
        if self.math_ulps == 0 || !r.is_finite() || r == 0.0 {
            return f32_bits(r);
        }
        let h = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        let k = (h % (2 * self.math_ulps as u64 + 1)) as i64 - self.math_ulps;
        let c = f32::from_bits((i64::from(r.to_bits()) + k) as u32);
        let ulp = f64::from(f32::from_bits(r.to_bits() + 1) - r).abs();
        if c.is_finite() && (f64::from(c) - v).abs() < self.math_ulps as f64 * ulp {
            f32_bits(c)
        } else {
            f32_bits(r)
        }
    }

    /// Runs the kernel with `inputs` (one vector of lane values per `lsc_load`, in
    /// order) and returns what each `lsc_store` wrote.
    pub fn run(&mut self, inputs: &[Vec<u32>]) -> Result<Vec<Vec<u32>>, String> {
        let mut loads = inputs.iter();
        let mut stores = Vec::new();
        let mut pc = 0;
        while pc < self.lines.len() {
            self.steps += 1;
            if self.steps > 1_000_000 {
                return Err("too many steps".into());
            }
            let line = self.lines[pc].clone();
            pc += 1;
            let (pred, rest) = match line.strip_prefix('(') {
                Some(r) if !r.starts_with('M') => {
                    let close = r.find(')').ok_or("predicate")?;
                    (Some(&r[..close]), r[close + 1..].trim_start())
                }
                _ => (None, line.as_str()),
            };
            let (mnem, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            if mnem == "lifetime.start" || rest.contains("%cr0") {
                continue;
            }
            let es_end = rest.find(')').ok_or(format!("no execution size: {line}"))?;
            let es = &rest[1..es_end];
            let (mask, n) = es.split_once(',').ok_or("execution size")?;
            let n: usize = n.trim().parse().map_err(|_| "execution size")?;
            let _ = mask;
            let ops: Vec<&str> = rest[es_end + 1..].split_whitespace().collect();
            let pbits = match pred {
                Some(p) => {
                    let (neg, name) = match p.strip_prefix('!') {
                        Some(n) => (true, n),
                        None => (false, p),
                    };
                    let v = self.pred_bits[*self.preds.get(name).ok_or("predicate")?];
                    Some(if neg { !v } else { v })
                }
                None => None,
            };
            let lanes = n.min(64);
            let on = |l: usize| pbits.is_none_or(|b| (b >> l) & 1 == 1);
            match mnem {
                "ret" => break,
                "goto" => {
                    let taken: Vec<bool> = (0..lanes).map(on).collect();
                    if taken.iter().any(|&t| t != taken[0]) {
                        return Err(format!("divergent goto: {line}"));
                    }
                    if taken[0] {
                        pc = *self.labels.get(ops[0]).ok_or("label")?;
                    }
                }
                "lsc_load.ugm" => {
                    let name = ops[0].strip_suffix(":d32").ok_or("only d32 loads")?;
                    let r = self.region(&format!("{name}(0,0)<1>"), true)?;
                    let v = loads.next().ok_or("more loads than inputs")?;
                    for (l, &x) in v.iter().enumerate().take(self.simd.min(n)) {
                        self.store(r, l, u64::from(x));
                    }
                }
                "lsc_store.ugm" => {
                    let name = ops[1].strip_suffix(":d32").ok_or("only d32 stores")?;
                    let r = self.region(&format!("{name}(0,0)<1>"), true)?;
                    stores.push((0..n).map(|l| self.load(r, l) as u32).collect());
                }
                _ if mnem.starts_with("cmp.") => {
                    let cond = &mnem[4..];
                    let p = *self.preds.get(ops[0]).ok_or("cmp destination")?;
                    let (a, b) = (self.src(ops[1])?, self.src(ops[2])?);
                    let mut bits = self.pred_bits[p];
                    for l in 0..lanes {
                        if !on(l) {
                            continue;
                        }
                        let t = compare(cond, &a, &b, self.read(&a, l), self.read(&b, l))?;
                        bits = (bits & !(1 << l)) | (u64::from(t) << l);
                    }
                    self.pred_bits[p] = bits;
                }
                _ if self.preds.contains_key(ops[0]) => {
                    // Predicate logic.
                    let p = self.preds[ops[0]];
                    let a = self.pred_bits[*self.preds.get(ops[1]).ok_or("predicate")?];
                    let b = self.pred_bits[*self.preds.get(ops[2]).ok_or("predicate")?];
                    self.pred_bits[p] = match mnem {
                        "and" => a & b,
                        "or" => a | b,
                        _ => return Err(format!("predicate `{mnem}`")),
                    };
                }
                "addc" | "subb" => {
                    let (d, c) = (self.region(ops[0], true)?, self.region(ops[1], true)?);
                    let (a, b) = (self.src(ops[2])?, self.src(ops[3])?);
                    for l in (0..lanes).filter(|&l| on(l)) {
                        let (x, y) = (self.read(&a, l) as u32, self.read(&b, l) as u32);
                        let (v, carry) = if mnem == "addc" {
                            x.overflowing_add(y)
                        } else {
                            x.overflowing_sub(y)
                        };
                        self.store(d, l, u64::from(v));
                        self.store(c, l, u64::from(carry));
                    }
                }
                _ => {
                    let (mnem, sat) = match mnem.strip_suffix(".sat") {
                        Some(m) => (m, true),
                        None => (mnem, false),
                    };
                    let d = self.region(ops[0], true)?;
                    let srcs: Vec<Src> = ops[1..]
                        .iter()
                        .map(|o| self.src(o))
                        .collect::<Result<_, _>>()?;
                    for l in 0..lanes {
                        let v: Vec<u64> = srcs.iter().map(|s| self.read(s, l)).collect();
                        if mnem == "sel" {
                            let pick = if on(l) { v[0] } else { v[1] };
                            let out =
                                convert(srcs[if on(l) { 0 } else { 1 }].ty(), d.ty, pick, false);
                            self.store(d, l, out);
                            continue;
                        }
                        if !on(l) {
                            continue;
                        }
                        let out = self.alu(mnem, d.ty, &srcs, &v, sat)?;
                        self.store(d, l, out);
                    }
                }
            }
        }
        Ok(stores)
    }

    /// One lane of an ALU instruction: the destination's bits.
    fn alu(&self, m: &str, dt: Ty, srcs: &[Src], v: &[u64], sat: bool) -> Result<u64, String> {
        let st: Vec<Ty> = srcs.iter().map(Src::ty).collect();
        if m == "mov" {
            return Ok(convert(st[0], dt, v[0], sat));
        }
        let float = dt.is_float() || st.iter().any(|t| t.is_float());
        if float {
            return self.float_alu(m, dt, &st, v, sat);
        }
        let x: Vec<i128> = st.iter().zip(v).map(|(t, &b)| t.int(b)).collect();
        let u32v = |k: usize| v[k] as u32;
        // Shifts: 64-bit when the destination or src0 is a quadword, else 32.
        let wide = dt.bytes() == 8 || st[0].bytes() == 8;
        let r: i128 = match m {
            "add" => x[0] + x[1],
            "add3" => x[0] + x[1] + x[2],
            "mul" => x[0] * x[1],
            "mulh" => (x[0] * x[1]) >> 32,
            "and" => x[0] & x[1],
            "or" => x[0] | x[1],
            "xor" => x[0] ^ x[1],
            "not" => !x[0],
            "min" => x[0].min(x[1]),
            "max" => x[0].max(x[1]),
            "shl" | "shr" | "asr" => {
                let c = if wide { v[1] & 63 } else { v[1] & 31 } as u32;
                let w = if wide { 64 } else { 32 };
                let a = x[0] & ((1i128 << w) - 1);
                match m {
                    "shl" => a << c,
                    "shr" => a >> c,
                    _ => {
                        let sa = if wide {
                            i128::from(a as u64 as i64)
                        } else {
                            i128::from(a as u32 as i32)
                        };
                        sa >> c
                    }
                }
            }
            "lzd" => i128::from(u32v(0).leading_zeros()),
            "fbl" => i128::from(if u32v(0) == 0 {
                u32::MAX
            } else {
                u32v(0).trailing_zeros()
            }),
            "fbh" => {
                let a = u32v(0);
                let c = if st[0].signed() {
                    let m = if (a as i32) < 0 { !a } else { a };
                    if m == 0 {
                        u32::MAX
                    } else {
                        m.leading_zeros()
                    }
                } else if a == 0 {
                    u32::MAX
                } else {
                    a.leading_zeros()
                };
                i128::from(c)
            }
            "bfrev" => i128::from(u32v(0).reverse_bits()),
            "cbit" => i128::from(u32v(0).count_ones()),
            other => return Err(format!("integer `{other}` is not modelled")),
        };
        Ok(if sat {
            let lo = if dt.signed() {
                dt.int(1u64 << (8 * dt.bytes() - 1))
            } else {
                0
            };
            let hi = if dt.signed() {
                -lo - 1
            } else {
                i128::from(dt.mask())
            };
            r.clamp(lo, hi) as u64 & dt.mask()
        } else {
            r as u64 & dt.mask()
        })
    }

    fn float_alu(&self, m: &str, dt: Ty, st: &[Ty], v: &[u64], sat: bool) -> Result<u64, String> {
        let wide = dt == Ty::Df || st.contains(&Ty::Df);
        let x: Vec<f64> = st
            .iter()
            .zip(v)
            .map(|(t, &b)| {
                if t.is_float() {
                    t.float(b)
                } else {
                    t.int(b) as f64
                }
            })
            .collect();
        let seed = v[0];
        let r: f64 = if wide {
            match m {
                "add" => x[0] + x[1],
                "mul" => x[0] * x[1],
                "mad" => x[0].mul_add(x[1], x[2]),
                "divm" => x[0] / x[1],
                "sqrtm" | "sqrt" => x[0].sqrt(),
                "inv" => 1.0 / x[0],
                "min" | "max" => minmax(m, x[0], x[1]),
                other => return Err(format!("binary64 `{other}` is not modelled")),
            }
        } else {
            let f: Vec<f32> = x.iter().map(|&a| a as f32).collect();
            let bits = match m {
                "add" => f32_bits(f[0] + f[1]),
                "mul" => f32_bits(f[0] * f[1]),
                "mad" => f32_bits(f[0].mul_add(f[1], f[2])),
                "min" | "max" => f32_bits(minmax(m, x[0], x[1]) as f32),
                "rndd" => f32_bits(f[0].floor()),
                "rndu" => f32_bits(f[0].ceil()),
                "rnde" => f32_bits(f[0].round_ties_even()),
                "rndz" => f32_bits(f[0].trunc()),
                "divm" => f32_bits(f[0] / f[1]),
                "sqrtm" => f32_bits(f[0].sqrt()),
                "inv" => self.math(1.0 / x[0], seed),
                "sqrt" => self.math(x[0].sqrt(), seed),
                "rsqrt" => self.math(1.0 / x[0].sqrt(), seed),
                "exp" => self.math(x[0].exp2(), seed),
                "log" => self.math(x[0].log2(), seed),
                "sin" => self.math(x[0].sin(), seed),
                "cos" => self.math(x[0].cos(), seed),
                "pow" => self.math(x[0].powf(x[1]), seed),
                other => return Err(format!("float `{other}` is not modelled")),
            };
            f64::from(f32::from_bits(bits as u32))
        };
        let r = if sat {
            if r.is_nan() {
                0.0
            } else {
                r.clamp(0.0, 1.0)
            }
        } else {
            r
        };
        Ok(match dt {
            Ty::Df => r.to_bits(),
            Ty::F => f32_bits(r as f32),
            Ty::Hf => u64::from(f32_to_f16(r as f32)),
            t => float_to_int(r, t),
        })
    }
}

fn minmax(m: &str, a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let less = a < b || (a == 0.0 && b == 0.0 && a.is_sign_negative());
    if (m == "min") == less {
        a
    } else {
        b
    }
}

/// A float value to an integer type: truncated, saturated, NaN to 0.
fn float_to_int(r: f64, t: Ty) -> u64 {
    if r.is_nan() {
        return 0;
    }
    let lo = if t.signed() {
        t.int(1u64 << (8 * t.bytes() - 1))
    } else {
        0
    };
    let hi = if t.signed() {
        -lo - 1
    } else {
        i128::from(t.mask())
    };
    let v = r.trunc();
    let i = if v < lo as f64 {
        lo
    } else if v > hi as f64 {
        hi
    } else {
        v as i128
    };
    i as u64 & t.mask()
}

/// `mov` from `from` to `to` (conversions round to nearest even).
fn convert(from: Ty, to: Ty, bits: u64, sat: bool) -> u64 {
    if from == to && !sat {
        return bits & to.mask();
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => from.int(bits) as u64 & to.mask(),
        (false, true) => {
            let v = from.int(bits);
            match to {
                Ty::Df => (v as f64).to_bits(),
                Ty::F => f32_bits(v as f32),
                _ => u64::from(f32_to_f16(v as f32)),
            }
        }
        (true, false) => float_to_int(from.float(bits), to),
        (true, true) => {
            let v = from.float(bits);
            let v = if sat && !v.is_nan() {
                v.clamp(0.0, 1.0)
            } else if sat {
                0.0
            } else {
                v
            };
            match to {
                Ty::Df => v.to_bits(),
                Ty::F => f32_bits(v as f32),
                _ => u64::from(f32_to_f16(v as f32)),
            }
        }
    }
}

/// `cmp.<cond>` of one lane.
fn compare(cond: &str, a: &Src, b: &Src, x: u64, y: u64) -> Result<bool, String> {
    let float = a.ty().is_float() || b.ty().is_float();
    let ord = if float {
        let (p, q) = (a.ty().float(x), b.ty().float(y));
        if p.is_nan() || q.is_nan() {
            return Ok(cond == "ne");
        }
        p.partial_cmp(&q).ok_or("nan")?
    } else {
        a.ty().int(x).cmp(&b.ty().int(y))
    };
    use std::cmp::Ordering::*;
    Ok(match cond {
        "eq" => ord == Equal,
        "ne" => ord != Equal,
        "lt" => ord == Less,
        "le" => ord != Greater,
        "gt" => ord == Greater,
        "ge" => ord != Less,
        other => return Err(format!("cmp.{other}")),
    })
}

/// The shape of an operand or result: bit size and components.
pub type Shape = (u8, u8);

/// The IR of a kernel that loads each component of each source per lane (32 bits a
/// load; a 64-bit component is two loads, low half first; narrower ones are the low
/// bits of their load, a 1-bit one `load != 0`), applies `op` and stores each result
/// component as 32 bits (64-bit ones as two stores, low half first).
pub fn op_kernel(op: AluOp, dest: Shape, srcs: &[Shape], simd: u32) -> String {
    let mut body = String::new();
    let mut id = 100u32;
    let mut next = || {
        id += 1;
        id
    };
    let mut load_at = 0u32;
    let mut load = |body: &mut String, next: &mut dyn FnMut() -> u32| {
        let (off, a, v) = (next(), next(), next());
        body.push_str(&format!(
            "    64 %{off} = load_const ({})\n    64 %{a} = iadd %2, %{off}\n    32 %{v} = @load_global (%{a}) (access=none, align_mul=4)\n",
            4 * load_at
        ));
        load_at += 1;
        v
    };
    let ty = |(bits, comps): Shape| {
        if comps == 1 {
            bits.to_string()
        } else {
            format!("{bits}x{comps}")
        }
    };
    let mut names = Vec::new();
    for &(bits, comps) in srcs {
        let mut cs = Vec::new();
        for _ in 0..comps {
            let lo = load(&mut body, &mut next);
            let c = match bits {
                32 => lo,
                64 => {
                    let hi = load(&mut body, &mut next);
                    let c = next();
                    body.push_str(&format!("    64 %{c} = pack_64_2x32_split %{lo}, %{hi}\n"));
                    c
                }
                1 => {
                    let c = next();
                    body.push_str(&format!("    1 %{c} = ine %{lo}, %1\n"));
                    c
                }
                b => {
                    let c = next();
                    body.push_str(&format!("    {b} %{c} = u2u{b} %{lo}\n"));
                    c
                }
            };
            cs.push(c);
        }
        if comps == 1 {
            names.push(format!("%{}", cs[0]));
        } else {
            let v = next();
            let list: Vec<String> = cs.iter().map(|c| format!("%{c}")).collect();
            body.push_str(&format!(
                "    {} %{v} = vec{comps} {}\n",
                ty((bits, comps)),
                list.join(", ")
            ));
            names.push(format!("%{v}"));
        }
    }
    let r = next();
    body.push_str(&format!(
        "    {} %{r} = {} {}\n",
        ty(dest),
        op.name(),
        names.join(", ")
    ));
    for c in 0..dest.1 {
        let comp = if dest.1 == 1 {
            format!("%{r}")
        } else {
            format!("%{r}.{}", ['x', 'y', 'z', 'w'][usize::from(c)])
        };
        let outs: Vec<String> = match dest.0 {
            64 => vec![
                format!("unpack_64_2x32_split_x {comp}"),
                format!("unpack_64_2x32_split_y {comp}"),
            ],
            32 => vec![format!("mov {comp}")],
            1 => vec![format!("b2i32 {comp}")],
            _ => vec![format!("u2u32 {comp}")],
        };
        for o in outs {
            let v = next();
            body.push_str(&format!(
                "    32 %{v} = {o}\n    @store_global (%{v}, %2) (access=none, align_mul=4)\n"
            ));
        }
    }
    format!(
        "shader compute (local_size={simd},1,1, subgroup_size={simd})\nfn main {{\n  block b0:\n    32 %1 = load_const (0)\n    64 %2 = @load_push_constant (%1) (base=0, range=8)\n{body}}}\n"
    )
}

/// Runs `op` through the kernel emitted for `platform` on each lane's operands
/// (`lanes[l][k]`: the components of source `k`, each in the low bits) and returns
/// each lane's result components. The math unit errs by up to `math_ulps` ulps.
pub fn run_op(
    platform: &str,
    op: AluOp,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) -> Result<Vec<Vec<u64>>, String> {
    let device = lowering::Device::preset(platform).ok_or("no such platform")?;
    let simd = if device.grf_bytes == 64 { 16 } else { 8 };
    let text = op_kernel(op, dest, srcs, simd);
    let shader = ir::parse_shader(&text).map_err(|d| format!("{d:?}"))?;
    ir::validate(&shader).map_err(|d| format!("{d:?}\n{text}"))?;
    let kernel =
        crate::emit_kernel(&shader, &device, &Default::default()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for chunk in lanes.chunks(simd as usize) {
        // Loads in kernel order; lanes past the chunk repeat its first lane.
        let mut inputs = Vec::new();
        for (k, &(bits, comps)) in srcs.iter().enumerate() {
            for c in 0..usize::from(comps) {
                let words = if bits == 64 { 2 } else { 1 };
                for w in 0..words {
                    let v: Vec<u32> = (0..simd as usize)
                        .map(|l| {
                            let lane = chunk.get(l).unwrap_or(&chunk[0]);
                            (lane[k][c] >> (32 * w)) as u32
                        })
                        .collect();
                    inputs.push(v);
                }
            }
        }
        let mut sim = Sim::new(&kernel.text, simd as usize, device.grf_bytes as usize)?;
        sim.math_ulps = math_ulps;
        let stores = sim.run(&inputs)?;
        // Each lane's stored words, in store order.
        let per_lane = (0..chunk.len()).map(|l| stores.iter().map(move |s| u64::from(s[l])));
        for words in per_lane {
            let words: Vec<u64> = words.collect();
            let mut comps = Vec::new();
            let mut k = 0;
            let word = |k: usize| words[k];
            for _ in 0..dest.1 {
                let v = if dest.0 == 64 {
                    k += 2;
                    word(k - 2) | word(k - 1) << 32
                } else {
                    k += 1;
                    word(k - 1)
                };
                comps.push(v);
            }
            out.push(comps);
        }
    }
    Ok(out)
}

/// `ir::eval`'s result of `op` on one lane's operands.
pub fn eval(op: AluOp, dest: Shape, srcs: &[Shape], lane: &[Vec<u64>]) -> Vec<u64> {
    let operands: Vec<ir::eval::Operand<'_>> = srcs
        .iter()
        .zip(lane)
        .map(|(&(bits, _), comps)| ir::eval::Operand::new(bits, comps))
        .collect();
    let ty = ir::types::Type::new(dest.0, dest.1).expect("a valid type");
    ir::eval::eval_alu(op, ty, &operands)
        .expect("a valid instruction")
        .to_vec()
}

/// Checks that the kernel computes `ir::eval`'s result, bit for bit, on every lane.
pub fn check_exact(
    platform: &str,
    op: AluOp,
    dest: Shape,
    srcs: &[Shape],
    lanes: &[Vec<Vec<u64>>],
    math_ulps: i64,
) {
    let got = run_op(platform, op, dest, srcs, lanes, math_ulps)
        .unwrap_or_else(|e| panic!("{platform} {op}: {e}"));
    for (lane, g) in lanes.iter().zip(&got) {
        let want = eval(op, dest, srcs, lane);
        assert_eq!(
            g, &want,
            "{platform} `{op}` {dest:?} on {lane:x?}: kernel {g:x?}, ir::eval {want:x?}"
        );
    }
}
