//! How sure a gate is: a unit's pass rate with its Clopper–Pearson interval and pass^k, Fisher's
//! exact test between two arms (regression, improvement or within noise), and flaky units.
//! Trials that errored are no sample of the model's behaviour: rates count passed and failed
//! trials only. The beta quantiles and the hypergeometric pmf come from statrs.

use crate::gate::Unit;
use crate::store::trial::TrialStatus;
use serde::Serialize;
use statrs::distribution::{Beta, ContinuousCDF, Discrete, Hypergeometric};

/// The confidence of every interval the reports show.
pub const CONFIDENCE: f64 = 0.95;
/// A difference between two arms is significant below this p-value (one look at the data).
pub const ALPHA: f64 = 0.05;

/// Passed of decided (passed or failed) trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rate {
    pub passed: u32,
    pub trials: u32,
}

impl Rate {
    pub fn new(passed: u32, trials: u32) -> Rate {
        assert!(passed <= trials, "{passed} passed of {trials}");
        Rate { passed, trials }
    }

    pub fn of(unit: &Unit) -> Rate {
        let count = |s| unit.trials.iter().filter(|t| t.status == s).count() as u32;
        let passed = count(TrialStatus::Pass);
        Rate::new(passed, passed + count(TrialStatus::Fail))
    }

    /// Both arms' trials together (a unit's gate trials and its `--settle` trials).
    pub fn plus(self, other: Rate) -> Rate {
        Rate::new(self.passed + other.passed, self.trials + other.trials)
    }

    pub fn fraction(self) -> f64 {
        if self.trials == 0 {
            f64::NAN
        } else {
            self.passed as f64 / self.trials as f64
        }
    }

    /// The two-sided `CONFIDENCE` interval of the true pass rate; (0, 1) with no trials.
    pub fn interval(self) -> (f64, f64) {
        clopper_pearson(self.passed, self.trials, CONFIDENCE)
    }

    /// pass^k for k = 1 ..= trials, from one running product: the same factors, in the same
    /// order, as [`pass_hat_k`] multiplies for each k (so the same bits), in time linear in
    /// the trials rather than quadratic.
    pub fn pass_ks(self) -> Vec<f64> {
        let mut product = 1.0f64;
        (0..self.trials)
            .map(|i| {
                product *= self.passed.saturating_sub(i) as f64 / (self.trials - i) as f64;
                product
            })
            .collect()
    }

    /// `3/3 (0.29–1)`: passed of decided trials and the interval, two decimals.
    pub fn cell(self) -> String {
        let (lo, hi) = self.interval();
        format!(
            "{}/{} ({}–{})",
            self.passed,
            self.trials,
            short(lo),
            short(hi)
        )
    }
}

/// A probability in two decimals, whole numbers bare: `0.29`, `1`, `0`.
pub fn short(p: f64) -> String {
    let s = format!("{p:.2}");
    match s.as_str() {
        "0.00" => "0".into(),
        "1.00" => "1".into(),
        _ => s,
    }
}

/// Four decimals, for summary.json: stable bytes, more precision than a reader needs.
pub fn round4(p: f64) -> f64 {
    (p * 1e4).round() / 1e4
}

/// The exact (Clopper–Pearson) two-sided interval for `passed` of `trials` at `confidence`:
/// the beta quantiles Beta(x, n−x+1) at α/2 and Beta(x+1, n−x) at 1−α/2.
pub fn clopper_pearson(passed: u32, trials: u32, confidence: f64) -> (f64, f64) {
    let alpha = 1.0 - confidence;
    (
        lower_bound(passed, trials, 1.0 - alpha / 2.0),
        1.0 - lower_bound(trials - passed, trials, 1.0 - alpha / 2.0),
    )
}

/// The one-sided Clopper–Pearson lower bound: the true rate is at least this with `confidence`.
/// 3 of 3 at 95%: 0.05^(1/3) = 0.368.
pub fn lower_bound(passed: u32, trials: u32, confidence: f64) -> f64 {
    if passed == 0 {
        return 0.0;
    }
    let (x, n) = (passed as f64, trials as f64);
    Beta::new(x, n - x + 1.0)
        .expect("shapes are positive")
        .inverse_cdf(1.0 - confidence)
}

/// pass^k as τ²-bench estimates it from c passes of n trials: C(c, k) / C(n, k), the chance
/// that k trials drawn from the n all passed (unbiased for p^k). 0 when k > n.
pub fn pass_hat_k(passed: u32, trials: u32, k: u32) -> f64 {
    if k > trials {
        return 0.0;
    }
    (0..k)
        .map(|i| (passed.saturating_sub(i)) as f64 / (trials - i) as f64)
        .product()
}

/// Fisher's exact test, two-sided, on two arms' passes and fails: the probability, with the
/// margins fixed, of a table no more likely than the one seen.
pub fn fisher_exact(a: Rate, b: Rate) -> f64 {
    let population = (a.trials + b.trials) as u64;
    if population == 0 || a.trials == 0 || b.trials == 0 {
        return 1.0;
    }
    let passes = (a.passed + b.passed) as u64;
    let h = Hypergeometric::new(population, passes, a.trials as u64).expect("valid margins");
    let seen = h.pmf(a.passed as u64);
    let lo = (a.trials as u64 + passes).saturating_sub(population);
    let hi = passes.min(a.trials as u64);
    // Tables as likely as the one seen count: compare with a relative tolerance, as R does.
    let p: f64 = (lo..=hi)
        .map(|x| h.pmf(x))
        .filter(|&q| q <= seen * (1.0 + 1e-7))
        .sum();
    p.min(1.0)
}

/// What a difference between a base arm and a head arm is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Label {
    /// The head passes significantly less often than the base.
    Regression,
    /// The head passes significantly more often than the base.
    Improvement,
    /// The two arms' pass rates could be the same.
    WithinNoise,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Regression => "regression",
            Label::Improvement => "improvement",
            Label::WithinNoise => "within noise",
        }
    }
}

/// The label of head against base and Fisher's p-value; significant below `alpha`.
pub fn label(base: Rate, head: Rate, alpha: f64) -> (Label, f64) {
    let p = fisher_exact(base, head);
    let label = if p >= alpha {
        Label::WithinNoise
    } else if head.fraction() < base.fraction() {
        Label::Regression
    } else {
        Label::Improvement
    };
    (label, p)
}

/// A p-value for people: `0.1`, `0.0032`, `< 0.0001`.
pub fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".into()
    } else if p >= 0.01 {
        format!("{}", (p * 1000.0).round() / 1000.0)
    } else {
        format!("{}", (p * 10000.0).round() / 10000.0)
    }
}

/// A unit whose trials both passed and failed: the criteria that failed in some failing trial
/// and passed in some passing one (what tells its passing trials from its failing ones).
/// `None` for a unit whose decided trials all agree.
pub fn flaky_criteria(unit: &Unit) -> Option<Vec<String>> {
    let of = |s| unit.trials.iter().filter(move |t| t.status == s);
    if of(TrialStatus::Pass).next().is_none() || of(TrialStatus::Fail).next().is_none() {
        return None;
    }
    let failed_in_fails: std::collections::BTreeSet<&str> = of(TrialStatus::Fail)
        .flat_map(|t| t.failed.iter().map(|c| &**c))
        .collect();
    Some(
        failed_in_fails
            .into_iter()
            .filter(|c| !of(TrialStatus::Pass).all(|t| t.failed.iter().any(|f| &**f == *c)))
            .map(str::to_string)
            .collect(),
    )
}

/// pass^k per model, as τ²-bench reports it: each unit's estimate averaged over the model's
/// units, for k = 1 ..= `max_k` (units with fewer decided trials than k left out). Linear in the
/// trials: each unit is counted once, and its pass^k for every k comes from one running product
/// (the same factors, in the same order, as [`pass_hat_k`] multiplies).
pub fn model_pass_ks(units: &[&Unit], max_k: u32) -> Vec<Option<f64>> {
    let k_max = max_k as usize;
    let mut sums = vec![0.0f64; k_max];
    let mut counts = vec![0usize; k_max];
    for u in units {
        let r = Rate::of(u);
        let mut product = 1.0f64;
        for i in 0..r.trials.min(max_k) {
            product *= r.passed.saturating_sub(i) as f64 / (r.trials - i) as f64;
            sums[i as usize] += product;
            counts[i as usize] += 1;
        }
    }
    // Summed unit by unit as before: the averages are the same to the last bit.
    sums.into_iter()
        .zip(counts)
        .map(|(sum, n)| (n > 0).then(|| sum / n as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn three_of_three_means_a_pass_rate_of_at_least_0_368_at_95_percent_one_sided() {
        let lo = lower_bound(3, 3, 0.95);
        assert!(close(lo, 0.05f64.powf(1.0 / 3.0), 1e-9), "{lo}");
        assert_eq!(format!("{lo:.3}"), "0.368");
        // Two-sided 95%: the lower end at 2.5%, 0.025^(1/3) = 0.292; the upper end is 1.
        let (lo, hi) = clopper_pearson(3, 3, 0.95);
        assert_eq!((format!("{lo:.3}"), hi), ("0.292".to_string(), 1.0));
    }

    #[test]
    fn clopper_pearson_matches_published_values() {
        // R: binom.test(x, n)$conf.int
        for (x, n, lo, hi) in [
            (0, 3, 0.0, 0.7075982),
            (1, 3, 0.008403759, 0.9057007),
            (2, 3, 0.09429932, 0.9915962),
            (7, 10, 0.3475471, 0.9332605),
            (18, 20, 0.6830173, 0.9876505),
        ] {
            let (l, h) = clopper_pearson(x, n, 0.95);
            assert!(close(l, lo, 1e-6) && close(h, hi, 1e-6), "{x}/{n}: {l} {h}");
        }
    }

    #[test]
    fn fisher_exact_three_of_three_against_none_of_three_is_0_1_two_sided() {
        let p = fisher_exact(Rate::new(3, 3), Rate::new(0, 3));
        assert!(close(p, 0.1, 1e-12), "{p}");
        assert!(close(
            fisher_exact(Rate::new(0, 3), Rate::new(3, 3)),
            0.1,
            1e-12
        ));
        assert_eq!(fisher_exact(Rate::new(3, 3), Rate::new(3, 3)), 1.0);
        // 3/3 against 2/3: nothing to tell them apart.
        assert!(close(
            fisher_exact(Rate::new(3, 3), Rate::new(2, 3)),
            1.0,
            1e-12
        ));
        // 18/20 against 6/20: the sum over tables with exact binomials (Python's math.comb).
        let p = fisher_exact(Rate::new(18, 20), Rate::new(6, 20));
        assert!(close(p, 0.000244361757, 1e-10), "{p}");
    }

    #[test]
    fn three_of_three_against_none_of_three_is_within_noise_twenty_each_is_not() {
        let (l, p) = label(Rate::new(3, 3), Rate::new(0, 3), ALPHA);
        assert_eq!((l, p_text(p)), (Label::WithinNoise, "0.1".to_string()));
        let (l, _) = label(Rate::new(18, 20), Rate::new(6, 20), ALPHA);
        assert_eq!(l, Label::Regression);
        let (l, _) = label(Rate::new(6, 20), Rate::new(18, 20), ALPHA);
        assert_eq!(l, Label::Improvement);
    }

    #[test]
    fn pass_k_is_the_chance_k_trials_drawn_from_the_n_all_passed() {
        assert_eq!(Rate::new(3, 3).pass_ks(), vec![1.0, 1.0, 1.0]);
        let two_of_three = Rate::new(2, 3).pass_ks();
        assert!(close(two_of_three[0], 2.0 / 3.0, 1e-12));
        assert!(close(two_of_three[1], 1.0 / 3.0, 1e-12));
        assert_eq!(two_of_three[2], 0.0);
        // 3 of 4: pass^2 = C(3,2)/C(4,2) = 3/6.
        assert!(close(pass_hat_k(3, 4, 2), 0.5, 1e-12));
        assert!(close(pass_hat_k(3, 4, 3), 0.25, 1e-12));
        assert_eq!(pass_hat_k(1, 3, 2), 0.0);
        assert_eq!(pass_hat_k(3, 3, 4), 0.0);
    }

    /// One unit of `n` trials, every third failing.
    fn many(n: u32) -> Unit {
        let mut u = unit(&[(TrialStatus::Pass, &[])]);
        let one = u.trials[0].clone();
        u.trials = (1..=n)
            .map(|i| crate::gate::UnitTrial {
                trial: i,
                status: if i % 3 == 0 {
                    TrialStatus::Fail
                } else {
                    TrialStatus::Pass
                },
                ..one.clone()
            })
            .collect();
        u
    }

    #[test]
    fn pass_ks_are_the_old_quadratic_figures_to_the_bit() {
        let units = [many(7), many(12), unit(&[(TrialStatus::Pass, &[])])];
        let refs: Vec<&Unit> = units.iter().collect();
        let old: Vec<Option<f64>> = (1..=12)
            .map(|k| {
                let rates: Vec<Rate> = refs
                    .iter()
                    .map(|u| Rate::of(u))
                    .filter(|r| r.trials >= k)
                    .collect();
                (!rates.is_empty()).then(|| {
                    rates
                        .iter()
                        .map(|r| pass_hat_k(r.passed, r.trials, k))
                        .sum::<f64>()
                        / rates.len() as f64
                })
            })
            .collect();
        assert_eq!(model_pass_ks(&refs, 12), old);
        for u in &units {
            let r = Rate::of(u);
            let old: Vec<f64> = (1..=r.trials)
                .map(|k| pass_hat_k(r.passed, r.trials, k))
                .collect();
            assert_eq!(r.pass_ks(), old);
        }
    }

    fn unit(trials: &[(TrialStatus, &[&str])]) -> Unit {
        let spool = crate::store::spool::Spool::new().unwrap();
        let verdict = checkers::Verdict {
            case: "E9".into(),
            variant: "default".into(),
            checker_version: "1.0.0".into(),
            checker_source_sha256: String::new(),
            pass: true,
            inconclusive: false,
            criteria: vec![],
            final_figure: None,
            file: None,
        };
        Unit {
            model: "m".into(),
            case: "E9".into(),
            variant: "default".into(),
            trials: trials
                .iter()
                .enumerate()
                .map(|(i, (status, failed))| crate::gate::UnitTrial {
                    trial: i as u32 + 1,
                    status: *status,
                    failed: failed.iter().map(|c| std::sync::Arc::from(*c)).collect(),
                    verdict: spool.put(&verdict).unwrap(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_unit_that_passed_some_trials_and_failed_others_is_flaky_naming_the_criteria_that_differ() {
        use TrialStatus::*;
        let u = unit(&[
            (Pass, &[]),
            (Fail, &["search-before-edit", "all-five-paths"]),
            (Fail, &["all-five-paths"]),
            (Inconclusive, &[]),
        ]);
        assert_eq!(
            flaky_criteria(&u),
            Some(vec![
                "all-five-paths".to_string(),
                "search-before-edit".to_string()
            ])
        );
        assert_eq!(
            Rate::of(&u),
            Rate::new(1, 3),
            "the errored trial is no sample"
        );
        assert_eq!(
            flaky_criteria(&unit(&[(Fail, &["x"]), (Fail, &["x"])])),
            None
        );
        assert_eq!(
            flaky_criteria(&unit(&[(Pass, &[]), (Inconclusive, &[])])),
            None
        );
    }

    /// A seeded stream of uniform numbers in [0, 1) (splitmix64): the tests' coin.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / (u64::MAX as f64 + 1.0)
        }
    }

    #[test]
    fn over_200_seeded_runs_the_95_percent_intervals_cover_the_true_rate_at_least_90_percent() {
        for (rate, trials) in [(0.3, 3), (0.8, 3), (0.9, 10), (0.5, 20), (0.95, 20)] {
            let mut coin = uniform(7 + trials as u64);
            let covered = (0..200)
                .filter(|_| {
                    let passed = (0..trials).filter(|_| coin() < rate).count() as u32;
                    let (lo, hi) = clopper_pearson(passed, trials, 0.95);
                    lo <= rate && rate <= hi
                })
                .count();
            assert!(
                covered >= 180,
                "rate {rate}, {trials} trials: {covered}/200"
            );
        }
    }
}
