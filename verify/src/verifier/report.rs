//! What a verification found: mismatches, their kinds, the report, and the bounded
//! collector that keeps a report's worth of them however many are found.

use crate::memory::Space;
use ir::Span;
use std::collections::BTreeMap;
use std::fmt;

/// What a mismatch is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MismatchKind {
    /// The lowered run failed where the original ran.
    Execution,
    /// An access reached other bytes than the original's (or reached memory where the
    /// original's was out of bounds, or the other way round, or was another kind).
    Address,
    /// A value an image intrinsic defines differs.
    Value,
    /// A texel (or a padding byte) of an image differs afterwards.
    ImageTexel,
    /// A buffer byte differs afterwards.
    BufferByte,
}

impl MismatchKind {
    /// A short name: `execution`, `address`, `value`, `image texel`, `buffer byte`.
    pub fn name(self) -> &'static str {
        match self {
            MismatchKind::Execution => "execution",
            MismatchKind::Address => "address",
            MismatchKind::Value => "value",
            MismatchKind::ImageTexel => "image texel",
            MismatchKind::BufferByte => "buffer byte",
        }
    }
}

impl fmt::Display for MismatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One difference between the original and the lowered run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What differs.
    pub kind: MismatchKind,
    /// The invocation (linear index in the dispatch), where one is concerned.
    pub invocation: Option<u32>,
    /// The span of the instruction concerned (the original's image intrinsic; for
    /// texels, the instruction that wrote it).
    pub span: Option<Span>,
    /// The printed IR of that instruction in the original (or, failing that, in the
    /// lowered shader, prefixed with `lowered: `).
    pub instruction: Option<String>,
    /// Where: the texel, the buffer byte, the value.
    pub location: String,
    /// What the original did or holds.
    pub expected: String,
    /// What the lowered shader did or holds.
    pub actual: String,
    /// More context (who wrote a texel in each run), possibly empty.
    pub note: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} mismatch", self.kind)?;
        if !self.location.is_empty() {
            write!(f, " at {}", self.location)?;
        }
        if let Some(i) = self.invocation {
            write!(f, ", invocation {i}")?;
        }
        writeln!(f)?;
        if let Some(text) = &self.instruction {
            match self.span {
                Some(s) => writeln!(f, "    instruction: {s}: `{text}`")?,
                None => writeln!(f, "    instruction: `{text}`")?,
            }
        }
        writeln!(f, "    expected: {}", self.expected)?;
        writeln!(f, "    actual:   {}", self.actual)?;
        if !self.note.is_empty() {
            writeln!(f, "    {}", self.note)?;
        }
        Ok(())
    }
}

/// The outcome of a verification.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Invocations run (per level).
    pub invocations: u32,
    /// Accesses checked: pairs of original and lowered accesses compared (image accesses
    /// against typed messages and untyped addresses).
    pub accesses: u64,
    /// Stores and atomics of the original shader's run, to any memory (buffers,
    /// images, workgroup, global, scratch). None means the run did nothing a caller
    /// could see (every invocation returned before writing, past a bound read from a
    /// uniform buffer), which `verify` retries on simpler contents.
    pub memory_writes: u64,
    /// Values of image intrinsics compared (per invocation).
    pub values: u64,
    /// Texels compared afterwards.
    pub texels: u64,
    /// Buffer bytes compared afterwards.
    pub buffer_bytes: u64,
    /// Total number of mismatches found.
    pub mismatch_count: usize,
    /// The number of mismatches of each kind found.
    pub by_kind: BTreeMap<MismatchKind, usize>,
    /// Some of the mismatches (as many as the setup's `report_limit`; every kind found
    /// is represented), sorted by kind (execution, address, value, image texel, buffer
    /// byte), then in the order found.
    pub mismatches: Vec<Mismatch>,
    /// The filtered lookups (`txl`, `tg4`) whose results differed between the runs
    /// within the filter's allowed error, in program order: where the shader then
    /// compares or branches on such a value, the runs may part ways without a fault of
    /// the lowering, which a failed report says.
    pub differing_samples: Vec<DifferingSample>,
}

/// A filtered lookup whose result differed between the runs within its allowed error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferingSample {
    /// Where the lookup was written.
    pub span: Span,
    /// The original's instruction.
    pub instruction: String,
    /// The lanes whose results differed.
    pub lanes: u64,
}

impl Report {
    /// Whether both runs agreed.
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0
    }

    /// Whether a mismatch of `kind` was found.
    pub fn has(&self, kind: MismatchKind) -> bool {
        self.by_kind.contains_key(&kind)
    }

    /// The one-line summary: `verified: I invocations, A accesses, M mismatches`.
    pub fn summary(&self) -> String {
        self.summary_of(None)
    }

    /// [`Report::summary`], naming the run after its verdict when `run` is given
    /// (`verification failed with @img as r32_float: ...`), so that one of several
    /// runs of a shader says which it was.
    pub fn summary_of(&self, run: Option<&str>) -> String {
        let verdict = if self.passed() {
            "verified"
        } else {
            "verification failed"
        };
        let mut s = format!(
            "{}{}: {} invocations, {} accesses, {} mismatches",
            verdict,
            run.map(|r| format!(" with {r}")).unwrap_or_default(),
            self.invocations,
            self.accesses,
            self.mismatch_count
        );
        if !self.passed() {
            let kinds: Vec<String> = self
                .by_kind
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            s.push_str(&format!(" ({})", kinds.join(", ")));
        }
        s
    }

    /// The whole report (as its `Display`), its summary naming the run when `run` is
    /// given ([`Report::summary_of`]).
    pub fn write_of(&self, f: &mut fmt::Formatter<'_>, run: Option<&str>) -> fmt::Result {
        writeln!(f, "{}", self.summary_of(run))?;
        for m in &self.mismatches {
            write!(f, "{m}")?;
        }
        if self.mismatches.len() < self.mismatch_count {
            writeln!(
                f,
                "... and {} more mismatches",
                self.mismatch_count - self.mismatches.len()
            )?;
        }
        if !self.passed() && !self.differing_samples.is_empty() {
            writeln!(
                f,
                "note: filtered sampling gave the runs different values within the filter's \
                 allowed error (Vulkan leaves the filter's precision to the implementation); \
                 a comparison, a branch or a texel address computed from such a value may go \
                 either way, so mismatches that follow from one need not be the lowering's:"
            )?;
            for d in &self.differing_samples {
                writeln!(f, "    {}: `{}` ({} lanes)", d.span, d.instruction, d.lanes)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_of(f, None)
    }
}

/// Where an image or buffer mismatch lies, for naming the instructions that last wrote
/// it ([`super::writers`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriterQuery {
    /// The space.
    pub space: Space,
    /// The first byte.
    pub offset: u64,
    /// The bytes.
    pub size: u64,
}

/// A kept mismatch, with the bytes whose writers are still to be named.
type Kept = (Mismatch, Option<WriterQuery>);

/// The mismatches of a verification, kept within bounds: every mismatch is counted, but
/// each *stream* (a kind of mismatch from one source, such as the values of one
/// instruction) keeps only its first `limit`, which is all a report of `limit` entries
/// can show. Streams are listed in key order, so the report reads as if every
/// mismatch had been kept and sorted: by kind, then by stream, then in the order found.
#[derive(Debug)]
pub struct Findings {
    limit: usize,
    streams: BTreeMap<(MismatchKind, u64), Vec<Kept>>,
    counts: BTreeMap<MismatchKind, usize>,
}

impl Findings {
    /// A collector for a report of at most `limit` mismatches.
    pub fn new(limit: usize) -> Findings {
        Findings {
            limit,
            streams: BTreeMap::new(),
            counts: BTreeMap::new(),
        }
    }

    /// Records a mismatch of stream `stream` (of its kind).
    pub fn push(&mut self, stream: u64, m: Mismatch) {
        self.push_with(stream, m, None);
    }

    /// Records a mismatch whose writers are still to be named.
    pub fn push_with(&mut self, stream: u64, m: Mismatch, query: Option<WriterQuery>) {
        *self.counts.entry(m.kind).or_insert(0) += 1;
        let kept = self.streams.entry((m.kind, stream)).or_default();
        if kept.len() < self.limit.max(1) {
            kept.push((m, query));
        }
    }

    /// Fills `report`'s mismatch counts and list: every kind found gets an equal share of
    /// the `limit` entries first, so one kind's flood does not hide the others, and the
    /// rest of the list is filled in order. Returns, for the listed mismatches whose
    /// writers are to be named, their index in the list and where they lie.
    pub fn finish(self, report: &mut Report) -> Vec<(usize, WriterQuery)> {
        let limit = self.limit;
        report.mismatch_count = self.counts.values().sum();
        report.by_kind = self.counts;
        let mut found: Vec<Kept> = Vec::new();
        let mut kind_len: BTreeMap<MismatchKind, usize> = BTreeMap::new();
        for ((kind, _), list) in self.streams {
            *kind_len.entry(kind).or_insert(0) += list.len();
            found.extend(list);
        }
        let share = (limit / report.by_kind.len().max(1)).max(1);
        let mut keep = vec![false; found.len()];
        let mut start = 0;
        let mut left = limit;
        for &n in kind_len.values() {
            for k in keep.iter_mut().skip(start).take(n.min(share).min(left)) {
                *k = true;
                left -= 1;
            }
            start += n;
        }
        for k in keep.iter_mut() {
            if left == 0 {
                break;
            }
            if !*k {
                *k = true;
                left -= 1;
            }
        }
        let mut queries = Vec::new();
        report.mismatches.clear();
        for ((m, q), kept) in found.into_iter().zip(keep) {
            if kept {
                if let Some(q) = q {
                    queries.push((report.mismatches.len(), q));
                }
                report.mismatches.push(m);
            }
        }
        queries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(kind: MismatchKind, n: u32) -> Mismatch {
        Mismatch {
            kind,
            invocation: Some(n),
            span: None,
            instruction: None,
            location: String::new(),
            expected: String::new(),
            actual: String::new(),
            note: String::new(),
        }
    }

    #[test]
    fn findings_keep_a_report_of_each_kind_and_count_all() {
        let mut f = Findings::new(4);
        // Stream 1 of values before stream 0 in time; the list follows stream order.
        for i in 0..1000 {
            f.push(1, m(MismatchKind::Value, 100 + i));
        }
        for i in 0..1000 {
            f.push(0, m(MismatchKind::Value, i));
        }
        f.push(0, m(MismatchKind::Address, 7));
        let mut r = Report::default();
        f.finish(&mut r);
        assert_eq!(r.mismatch_count, 2001);
        assert_eq!(r.by_kind[&MismatchKind::Value], 2000);
        let listed: Vec<(MismatchKind, Option<u32>)> = r
            .mismatches
            .iter()
            .map(|m| (m.kind, m.invocation))
            .collect();
        // A share of 2 each, then the rest in order.
        assert_eq!(
            listed,
            [
                (MismatchKind::Address, Some(7)),
                (MismatchKind::Value, Some(0)),
                (MismatchKind::Value, Some(1)),
                (MismatchKind::Value, Some(2)),
            ]
        );
    }
}
