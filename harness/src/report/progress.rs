//! Run progress: a bar per model with pass/fail/error counts on a terminal, one plain line per
//! trial otherwise (CI logs, pipes). Whether a terminal watches is told, not probed.

use crate::report::events::Event;
use crate::store::trial::{TrialRecord, TrialStatus};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::Write;

/// One line to stderr in one write: stderr is unbuffered, and `eprintln!` with arguments would
/// make a system call per formatted piece. Inert: a failed criterion's evidence quotes the model.
fn line(text: String) {
    if crate::output::quiet() {
        return;
    }
    let _ = std::io::stderr()
        .lock()
        .write_all(format!("{}\n", crate::output::printable(&text)).as_bytes());
}

#[derive(Default, Clone, Copy)]
struct Counts {
    pass: u64,
    fail: u64,
    inconclusive: u64,
}

pub struct Progress {
    /// Bars on a terminal; `None`: one line per trial, or none when `lines` is off.
    bars: Option<MultiProgress>,
    /// A line per finished trial (off when each trial's story is told instead).
    lines: bool,
    per_model: HashMap<String, (ProgressBar, Counts)>,
    /// When each model last printed a "waiting on limit" line (lines mode: at most one every
    /// few seconds, so a paced run does not flood a CI log).
    waited: HashMap<String, std::time::Instant>,
}

impl Progress {
    /// Bars when a person watches (stdout and stderr terminals, not CI), else a line per
    /// trial; with `stories`, neither: the stories tell the trials.
    pub fn new(console: super::Console, stories: bool) -> Progress {
        let watched = console.stdout_terminal && console.stderr_terminal && !console.ci;
        Progress {
            bars: (watched && !stories)
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            lines: !stories,
            per_model: HashMap::new(),
            waited: HashMap::new(),
        }
    }

    pub fn on_event(&mut self, ev: &Event) {
        match ev {
            Event::RunStarted { run_dir, per_model } => self.run_started(run_dir, per_model),
            Event::TrialFinished { record, why } => self.trial_finished(record, why.as_deref()),
            Event::Retry {
                model,
                case,
                variant,
                trial,
                attempt,
                reason,
                wait_ms,
            } => {
                let reason = crate::output::printable(reason);
                let line = format!("retry {case}/{variant} trial {trial}: attempt {attempt} failed ({reason}); next in {:.1}s", *wait_ms as f64 / 1000.0);
                match self.per_model.get(model) {
                    Some((bar, _)) if self.bars.is_some() => bar.set_message(line),
                    _ => self::line(format!("{:>12} {model} {line}", "RETRY")),
                }
            }
            Event::Waiting {
                model,
                account,
                wait_ms,
            } => self.waiting(model, account, *wait_ms),
            Event::RunFinished => {
                for (bar, _) in self.per_model.values() {
                    bar.finish();
                }
            }
        }
    }
}

impl Progress {
    /// A bar per model, hidden when no person watches.
    fn run_started(&mut self, run_dir: &std::path::Path, per_model: &[(String, usize)]) {
        line(format!("writing transcripts to {}", run_dir.display()));
        let style = ProgressStyle::with_template("{prefix:>22} [{bar:30}] {pos}/{len} {msg}")
            .unwrap()
            .progress_chars("=> ");
        for (name, total) in per_model {
            let bar = match &self.bars {
                Some(mp) => mp.add(ProgressBar::new(*total as u64)),
                None => ProgressBar::hidden(),
            };
            bar.set_style(style.clone());
            bar.set_prefix(name.clone());
            self.per_model
                .insert(name.clone(), (bar, Counts::default()));
        }
    }

    /// A trial counted on its model's bar, or told in a line of its own.
    fn trial_finished(&mut self, r: &TrialRecord, why: Option<&str>) {
        let status = r.status;
        if let Some((bar, counts)) = self.per_model.get_mut(&*r.model) {
            match status {
                TrialStatus::Pass => counts.pass += 1,
                TrialStatus::Fail => counts.fail += 1,
                TrialStatus::Inconclusive | TrialStatus::Unsure => counts.inconclusive += 1,
            }
            bar.inc(1);
            bar.set_message(format!(
                "pass {} fail {} error {}",
                counts.pass, counts.fail, counts.inconclusive
            ));
        }
        // With stories, neither: they are told at the end, from the run's records.
        if self.lines && self.bars.is_none() {
            let why = why.map(|w| format!(" ({w})")).unwrap_or_default();
            line(format!(
                "{:>12} {}/{} {} trial {}{why}",
                format!("{status:?}").to_uppercase(),
                r.case,
                r.variant,
                r.model,
                r.trial
            ));
        }
    }

    /// A request of `model` waits on its account's limit: the bar's own state, or (as a retry
    /// is) a line, at most one every few seconds per model.
    fn waiting(&mut self, model: &str, account: &str, wait_ms: u64) {
        // A window a 429 narrowed has no length to say: until a request in flight ends.
        let how_long = match wait_ms {
            0 => "until a request in flight ends".to_string(),
            ms => format!("~{:.1}s", ms as f64 / 1000.0),
        };
        let text = format!(
            "waiting on limit: {} ({how_long})",
            crate::output::printable(account)
        );
        match self.per_model.get(model) {
            Some((bar, _)) if self.bars.is_some() => bar.set_message(text),
            _ => {
                let now = std::time::Instant::now();
                let quiet = self
                    .waited
                    .get(model)
                    .is_some_and(|t| now.duration_since(*t).as_secs() < 5);
                if !quiet {
                    self.waited.insert(model.to_string(), now);
                    line(format!("{:>12} {model} {text}", "WAITING"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Console;
    use super::Progress;

    #[test]
    fn bars_only_when_a_person_watches_both_streams_outside_ci_and_no_story_is_told() {
        let watched = Console {
            stdout_terminal: true,
            stderr_terminal: true,
            ..Console::default()
        };
        let bars = |c: Console, stories: bool| Progress::new(c, stories).bars.is_some();
        assert!(bars(watched, false));
        assert!(!bars(watched, true), "stories replace the bars");
        assert!(
            !bars(
                Console {
                    ci: true,
                    ..watched
                },
                false
            ),
            "CI logs get lines"
        );
        let piped = Console {
            stdout_terminal: false,
            ..watched
        };
        assert!(!bars(piped, false));
        let logged = Console {
            stderr_terminal: false,
            ..watched
        };
        assert!(
            !bars(logged, false),
            "2>log gets lines, not bars drawn to nowhere"
        );
        assert!(Progress::new(piped, false).lines && !Progress::new(watched, true).lines);
    }
}
