//! The differential test of the front end's two translations: the SPIR-V translator
//! behind [`frontend::import`] and the naga-IR translation kept as its oracle
//! ([`frontend::oracle`]). Both import the same shader; both run in the executor on the
//! same memory; every byte of every image and buffer must agree afterwards
//! ([`verify::cli::compare_shaders`]).

use frontend::Language;
use verify::cli::{compare_shaders, RunOptions};

/// What one case gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Both imported, ran and agree (the comparison's summary).
    Agree(String),
    /// The oracle cannot read the shader (naga's reader's gap): nothing to compare.
    OracleCannot(String),
    /// Both refuse it.
    BothRefuse(String),
    /// A disagreement: a difference in memory, or only one translation imports.
    Disagree(String),
}

/// How to run a case.
#[derive(Clone, Debug, Default)]
pub struct RunSpec {
    /// The seed of the setup (surfaces, fills).
    pub seed: u64,
    /// Push-constant words (`OFFSET=V,...`, as `ir-opt --push` takes them).
    pub push: Vec<String>,
    /// The grid (`X,Y,Z`), if not the default.
    pub grid: Option<String>,
}

/// Imports `bytes` both ways and compares the runs on DG2.
pub fn compare(bytes: &[u8], language: Language, entry: Option<&str>, run: &RunSpec) -> Outcome {
    let oracle = frontend::oracle::import(bytes, language, entry);
    let door = frontend::import(bytes, language, entry);
    compare_imports(oracle, door, run)
}

/// Compares what the oracle and the translator imported (possibly of different
/// sources: a planted difference must show).
pub fn compare_imports(
    oracle: Result<frontend::Imported, frontend::ImportError>,
    door: Result<frontend::Imported, frontend::ImportError>,
    run: &RunSpec,
) -> Outcome {
    let (a, b) = match (oracle, door) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(ea), Err(eb)) => {
            return Outcome::BothRefuse(format!("oracle: {ea}; translator: {eb}"))
        }
        (Err(e), Ok(_)) => return Outcome::OracleCannot(e.to_string()),
        (Ok(_), Err(e)) => {
            return Outcome::Disagree(format!(
                "only the oracle imports it; the translator says: {e}"
            ))
        }
    };
    let names = |s: &ir::Shader| -> Vec<String> {
        s.images
            .iter()
            .map(|d| format!("{} {} {} {:?}", d.name, d.dim.name(), d.format, d.count))
            .collect()
    };
    if names(&a.shader) != names(&b.shader) {
        return Outcome::Disagree(format!(
            "the images differ: {:?} against {:?}",
            names(&a.shader),
            names(&b.shader)
        ));
    }
    if a.shader.local_size != b.shader.local_size {
        return Outcome::Disagree(format!(
            "workgroup sizes {:?} against {:?}",
            a.shader.local_size, b.shader.local_size
        ));
    }
    let o = RunOptions {
        target: Some("dg2".to_string()),
        seed: run.seed,
        push: run.push.clone(),
        grid: run.grid.clone(),
        ..RunOptions::default()
    };
    match compare_shaders(&a.shader, &b.shader, &o) {
        Ok(c) if c.agree => Outcome::Agree(c.summary),
        Ok(c) => Outcome::Disagree(c.summary),
        Err(e) => Outcome::Disagree(format!("the comparison cannot run: {e}")),
    }
}
