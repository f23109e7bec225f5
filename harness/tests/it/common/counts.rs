//! The figures tests state, derived once: the cases from the checkers' registry, the units
//! from the built-in suite's variants, models and trials from the manifests. A test that
//! counts cases, units, units on models or episodes takes them from here, never a literal.

use super::repo_root;
use std::sync::OnceLock;

/// The figures as this build counts them.
pub struct Counts {
    /// Cases: the checkers' registry.
    pub cases: usize,
    /// Units (case variants): the built-in suite.
    pub units: usize,
    pub offline_models: usize,
    pub pinned_models: usize,
    /// Trials per unit of both manifests.
    pub trials: usize,
}

impl Counts {
    pub fn get() -> &'static Counts {
        static COUNTS: OnceLock<Counts> = OnceLock::new();
        COUNTS.get_or_init(|| {
            let root = harness::suite::embedded::root().unwrap();
            let suite = harness::suite::Suite::load(&root).unwrap();
            let manifest = |name: &str| {
                harness::suite::manifest::load(&repo_root().join("manifests").join(name))
                    .unwrap()
                    .manifest
            };
            let (offline, pinned) = (manifest("offline.toml"), manifest("pinned.toml"));
            assert_eq!(offline.run.trials, pinned.run.trials, "one trials figure");
            Counts {
                cases: checkers::CASE_IDS.len(),
                units: suite.cases.iter().map(|c| c.variants.len()).sum(),
                offline_models: offline.models.len(),
                pinned_models: pinned.models.len(),
                trials: offline.run.trials as usize,
            }
        })
    }

    /// Units on the offline matrix's models: what one trial each makes.
    pub fn offline_units(&self) -> usize {
        self.units * self.offline_models
    }

    /// Episodes of a whole offline gate: units on models × trials.
    pub fn offline_episodes(&self) -> usize {
        self.offline_units() * self.trials
    }
}
