//! The plan: exactly which trials (model, unit, trial) a run sends, deduplicated, and what they
//! may take (requests, cost), printed before the first call and held against what was sent.
//! Every way of running goes through it: a run, a filtered run, a shard, a resume, a base
//! rerun, a replay.

use crate::provider::prices::Cost;
use crate::suite::case::{Case, Variant};
use crate::suite::manifest::{self, ModelEntry};
use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

/// A trial of the run: (model index, unit index, trial number from 1).
pub type TrialKey = (usize, usize, u32);

/// The trials to send, in key order, each once.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    trials: BTreeSet<TrialKey>,
    models: usize,
    /// Model requests one episode may take at most.
    pub max_steps: u32,
    /// Trials of the selection the run folder already completed (a resume); not sent again.
    pub completed: usize,
}

impl Plan {
    /// The trials of `models` × `units` × `1..=trials` that `keep` keeps.
    pub fn new(
        models: usize,
        units: usize,
        trials: u32,
        max_steps: u32,
        keep: impl Fn(TrialKey) -> bool,
    ) -> Plan {
        let trials = (0..models)
            .flat_map(|mi| (0..units).flat_map(move |ui| (1..=trials).map(move |t| (mi, ui, t))))
            .filter(|k| keep(*k))
            .collect();
        Plan {
            trials,
            models,
            max_steps,
            completed: 0,
        }
    }

    /// Leave out trials already done (they are kept, never sent again).
    pub fn without(mut self, done: impl IntoIterator<Item = TrialKey>) -> Plan {
        for k in done {
            if self.trials.remove(&k) {
                self.completed += 1;
            }
        }
        self
    }

    pub fn contains(&self, key: &TrialKey) -> bool {
        self.trials.contains(key)
    }

    pub fn len(&self) -> usize {
        self.trials.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trials.is_empty()
    }

    /// The trials of model `mi`, in (unit, trial) order.
    pub fn of_model(&self, mi: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.trials
            .range((mi, 0, 0)..(mi + 1, 0, 0))
            .map(|&(_, ui, t)| (ui, t))
    }

    pub fn episodes(&self, mi: usize) -> usize {
        self.of_model(mi).count()
    }

    /// Requests model `mi` may be sent: each episode ends by `max_steps` requests (retries of a
    /// failed request aside).
    pub fn requests_at_most(&self, mi: usize) -> u64 {
        self.episodes(mi) as u64 * self.max_steps as u64
    }

    pub fn models(&self) -> usize {
        self.models
    }
}

/// The units of a selection, each once: `--case E1 --case e1` is one unit, not two.
pub fn units<'a>(selected: Vec<(&'a Case, &'a Variant)>) -> Vec<(&'a Case, &'a Variant)> {
    let mut seen = HashSet::new();
    selected
        .into_iter()
        .filter(|(c, v)| seen.insert((c.id.clone(), v.id.clone())))
        .collect()
}

/// The plan as printed before the first call: per model, its episodes, requests and cost.
pub struct Priced<'a> {
    pub plan: &'a Plan,
    pub models: &'a [(ModelEntry, Arc<dyn crate::provider::Provider>)],
    pub units: &'a [(Arc<Case>, String)],
    /// The system prompt every request carries (empty for the control arm).
    pub system: &'a str,
    pub max_tokens: u32,
    pub budget_usd: Option<f64>,
}

impl Priced<'_> {
    fn first_turn_tokens(&self, mi: usize) -> u64 {
        let chars: usize = self
            .plan
            .of_model(mi)
            .map(|(ui, _)| {
                let (case, v) = &self.units[ui];
                self.system.len()
                    + case
                        .variant(v)
                        .map_or(0, |v| v.seed.iter().map(|m| m.content.len()).sum())
            })
            .sum();
        (chars / 4) as u64
    }

    /// Model `mi`'s cost bounds, if its entry has prices.
    pub fn cost(&self, mi: usize) -> Option<Cost> {
        let m = &self.models[mi].0;
        m.price_input_per_mtok.or(m.price_output_per_mtok)?;
        let p = crate::provider::prices::Prices::of(m);
        let first_turn_tokens = self.first_turn_tokens(mi);
        let plain = p.input * first_turn_tokens as f64 / 1e6;
        let n = self.plan.episodes(mi) as f64;
        // With the prompt cache the charter is written once and read by every later request;
        // the rest of each first turn is paid in full.
        let system_tokens = (self.system.len() / 4) as f64;
        let cached_system = match (m.provider, m.prompt_cache) {
            (manifest::ProviderKind::Anthropic, true) => {
                system_tokens * (p.cache_write + p.cache_read * (n - 1.0).max(0.0))
            }
            (manifest::ProviderKind::Openai, _) if system_tokens >= 1024.0 => {
                system_tokens * (p.input + p.cache_read * (n - 1.0).max(0.0))
            }
            _ => system_tokens * p.input * n,
        } / 1e6;
        let cached = (plain - system_tokens * p.input * n / 1e6 + cached_system).max(0.0);
        let output =
            p.output * self.plan.requests_at_most(mi) as f64 * self.max_tokens as f64 / 1e6;
        Some(Cost {
            first_turns_usd: plain,
            first_turns_cached_usd: cached,
            output_at_most_usd: output,
        })
    }

    /// The lines printed before the first call.
    pub fn summary(&self) -> String {
        let s = |n: u64| if n == 1 { "" } else { "s" };
        // Every trial already stored (a base rerun reused whole, a finished run resumed): a
        // line of 0 episodes a model would only be noise.
        if self.plan.is_empty() {
            return match self.plan.completed {
                0 => "plan: nothing to send\n".to_string(),
                n => format!(
                    "plan: nothing to send: the {n} trial{} stored here {} reused\n",
                    s(n as u64),
                    if n == 1 { "is" } else { "are" }
                ),
            };
        }
        let mut out = String::from("plan:\n");
        for (mi, (m, _)) in self.models.iter().enumerate() {
            let episodes = self.plan.episodes(mi) as u64;
            let most = self.plan.requests_at_most(mi);
            // Two figures of different kinds, each named: what a run is expected to cost at
            // least, and the bound no run can pass.
            let cost = self
                .cost(mi)
                .map(|c| {
                    format!(
                        "; expected: at least {} (the first turns' input with the prompt cache; {} without), plus output; worst-case bound on output: {} (all {most} requests answering max_tokens {})",
                        usd(c.first_turns_cached_usd),
                        usd(c.first_turns_usd),
                        usd(c.output_at_most_usd),
                        self.max_tokens
                    )
                })
                .unwrap_or_default();
            out.push_str(&format!(
                "  {} ({} {}): {episodes} episode{}, {episodes} to {most} requests, about {} input tokens in first turns{cost}\n",
                m.name(),
                m.provider.as_str(),
                m.model,
                s(episodes),
                self.first_turn_tokens(mi),
            ));
        }
        if let Some(b) = self.budget_usd {
            out.push_str(&format!(
                "  spending stops at {} ([run] budget_usd)\n",
                usd(b)
            ));
        }
        out
    }

    /// The arm's plan as run.json records it.
    pub fn arm_plan(&self) -> crate::store::record::ArmPlan {
        let models = self
            .models
            .iter()
            .enumerate()
            .map(|(mi, (m, _))| crate::store::record::PlannedModel {
                model: m.name().to_string(),
                episodes: self.plan.episodes(mi),
                requests_at_most: self.plan.requests_at_most(mi),
                cost_usd: self.cost(mi),
            })
            .collect();
        crate::store::record::ArmPlan {
            already_completed: self.plan.completed,
            models,
        }
    }
}

/// Cents would round a real cost to "$0.00": show what it is.
pub fn usd(v: f64) -> String {
    if v < 0.01 {
        format!("${v:.4}")
    } else {
        format!("${v:.2}")
    }
}

/// The line printed at the end of a run, per model: what was sent against the plan.
pub fn sent_line(model: &str, sent: u64, retried: u64, at_most: u64) -> String {
    let s = if sent == 1 { "" } else { "s" };
    let retried = match retried {
        0 => String::new(),
        n => format!(", and {n} retried attempt{}", if n == 1 { "" } else { "s" }),
    };
    format!("{model}: sent {sent} request{s} (plan: at most {at_most}){retried}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_lists_each_trial_once_and_leaves_out_completed_ones() {
        let plan = Plan::new(2, 3, 2, 5, |(_, ui, _)| ui != 1);
        assert_eq!(plan.len(), 2 * 2 * 2);
        assert_eq!(
            plan.of_model(1).collect::<Vec<_>>(),
            vec![(0, 1), (0, 2), (2, 1), (2, 2)]
        );
        assert_eq!(plan.requests_at_most(0), 4 * 5);
        // A completed trial outside the plan is not counted as completed.
        let plan = plan.without([(0, 0, 1), (0, 0, 1), (1, 1, 1)]);
        assert_eq!((plan.len(), plan.completed), (7, 1));
        assert!(!plan.contains(&(0, 0, 1)));
    }

    #[test]
    fn sent_line_names_the_plan_and_any_retries() {
        assert_eq!(
            sent_line("oa", 3, 0, 10),
            "oa: sent 3 requests (plan: at most 10)"
        );
        assert_eq!(
            sent_line("oa", 1, 2, 1),
            "oa: sent 1 request (plan: at most 1), and 2 retried attempts"
        );
    }
}
