//! The accounts' rate limits in a run: what the plan says before the first call (each account's
//! limits as known, and the least wall time they imply), and what the run's closing lines and
//! run.json say after it (time spent waiting on them, 429s seen).

use crate::provider::limiter::Limiter;
use crate::provider::Provider;
use crate::store::record::LimitRecord;
use crate::suite::manifest::ModelEntry;
use std::sync::Arc;

/// Each account once, with the model entries that share it and their episodes in the plan.
pub struct Accounts {
    all: Vec<(Arc<Limiter>, Vec<String>, usize)>,
}

impl Accounts {
    pub fn of(
        models: &[(ModelEntry, Arc<dyn Provider>)],
        episodes: &dyn Fn(usize) -> usize,
    ) -> Accounts {
        let mut all: Vec<(Arc<Limiter>, Vec<String>, usize)> = Vec::new();
        for (mi, (m, p)) in models.iter().enumerate() {
            let Some(l) = p.limiter() else { continue };
            match all.iter_mut().find(|(a, ..)| Arc::ptr_eq(a, &l)) {
                Some((_, names, n)) => {
                    names.push(m.name().to_string());
                    *n += episodes(mi);
                }
                None => all.push((l, vec![m.name().to_string()], episodes(mi))),
            }
        }
        Accounts { all }
    }

    /// One line per account, before the first call: its limits as known and, when the token
    /// rate is known, the least time the first turns alone need (`first_turn`: tokens one
    /// episode's first request is estimated to cost).
    pub fn plan_lines(&self, first_turn: u64) -> Vec<String> {
        self.all
            .iter()
            .map(|(l, names, episodes)| {
                let f = l.figures();
                let known = match (f.tpm, f.rpm) {
                    (None, None) => {
                        return format!(
                            "limits of {} ({}): not known yet; read from the first answer's headers",
                            l.account,
                            names.join(", ")
                        )
                    }
                    (tpm, rpm) => [tpm.map(|t| format!("{} TPM", si(t))), rpm.map(|r| format!("{} RPM", si(r)))]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                let need = f.tpm.map(|tpm| {
                    let total = (*episodes as u64 * first_turn) as f64;
                    let secs = (total - f.token_burst.unwrap_or(0.0)).max(0.0) / (tpm / 60.0);
                    format!(
                        "; at {} TPM the first turns alone ({episodes} × ~{} tokens) need ≥ {secs:.0}s",
                        si(tpm),
                        si(first_turn as f64)
                    )
                });
                format!(
                    "limits of {} ({}): {known}{}",
                    l.account,
                    names.join(", "),
                    need.unwrap_or_default()
                )
            })
            .collect()
    }

    /// The closing line per account that waited or was refused; none for an account far from
    /// its limits.
    pub fn closing_lines(&self) -> Vec<String> {
        self.all
            .iter()
            .map(|(l, _, _)| (l, l.figures()))
            .filter(|(_, f)| !f.waited.is_zero() || f.throttled > 0)
            .map(|(l, f)| {
                // What the provider counted against what the harness estimated, per request.
                let charged = f.charged.map_or(String::new(), |(c, e)| {
                    format!(
                        "; the provider charged {} tokens a request against an estimate of {} (x{:.2})",
                        si(c),
                        si(e),
                        c / e.max(1e-9)
                    )
                });
                format!(
                    "{}: waited {:.1}s on rate limits; {} answer{} 429 or 529{charged}",
                    l.account,
                    f.waited.as_secs_f64(),
                    f.throttled,
                    if f.throttled == 1 { "" } else { "s" }
                )
            })
            .collect()
    }

    /// What run.json keeps per account.
    pub fn records(&self) -> Vec<LimitRecord> {
        self.all
            .iter()
            .map(|(l, names, _)| {
                let f = l.figures();
                LimitRecord {
                    account: l.account.clone(),
                    models: names.clone(),
                    tpm: f.tpm.map(|t| t.round() as u64),
                    rpm: f.rpm.map(|r| r.round() as u64),
                    token_burst: f.token_burst.map(|b| b.round() as u64),
                    waited_ms: f.waited.as_millis() as u64,
                    throttled: f.throttled,
                }
            })
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }
}

/// 1.2 M, 150 k, 500.
fn si(n: f64) -> String {
    if n >= 1e6 {
        format!("{} M", trim(n / 1e6))
    } else if n >= 1e4 {
        format!("{} k", trim(n / 1e3))
    } else {
        format!("{}", n.round())
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(super::si(1_200_000.0), "1.2 M");
        assert_eq!(super::si(150_000.0), "150 k");
        assert_eq!(super::si(500.0), "500");
    }
}
