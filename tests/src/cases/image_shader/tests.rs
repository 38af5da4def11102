//! The generator's own checks: cases build valid shaders, generation is deterministic,
//! in-range cases stay in range.

use super::*;
use quickcheck::Gen;

fn cases(n: usize, seed: u64, cfg: &CaseConfig) -> Vec<Case> {
    let mut g = Gen::from_size_and_seed(10, seed);
    (0..n).map(|_| Case::arbitrary_with(&mut g, cfg)).collect()
}

#[test]
fn cases_build_valid_shaders() {
    for c in cases(400, 1, &CaseConfig::default()) {
        let s = c.build();
        ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{c:?}"));
        let n = c.accesses().len();
        assert!((1..=6).contains(&n), "{n} accesses");
        for shrunk in c.shrink_cases() {
            let s = shrunk.build();
            ir::validate(&s).unwrap_or_else(|d| panic!("{d:?}\n{shrunk:?}"));
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let a = cases(20, 9, &CaseConfig::default());
    let b = cases(20, 9, &CaseConfig::default());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.build(), y.build());
    }
}

#[test]
fn in_range_cases_only_have_in_range_coordinates() {
    let cfg = CaseConfig {
        in_range_only: true,
        ..CaseConfig::default()
    };
    for c in cases(300, 2, &cfg) {
        let grid = c.grid();
        for a in c.accesses() {
            let limits = c.images[a.image].setup.coord_limits();
            for (t, &l) in a.coord.iter().zip(&limits) {
                for lin in 0..grid.invocations() {
                    let gx = grid.global;
                    let gid = [lin % gx[0], (lin / gx[0]) % gx[1], lin / (gx[0] * gx[1])];
                    for it in 0..MAX_TRIPS {
                        assert!(t.eval(gid, lin, it) < l, "{t} limit {l}\n{c:?}");
                    }
                }
            }
            assert!(!a
                .coord
                .iter()
                .any(|t| !t.class.in_range() && t.wrap.is_none()));
        }
    }
}
