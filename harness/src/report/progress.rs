//! Run progress: a bar per model with pass/fail/error counts on a terminal, one plain line per
//! trial otherwise (CI logs).

use crate::events::{Event, TrialStatus};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::{IsTerminal, Write};

/// One line to stderr in one write: stderr is unbuffered, and `eprintln!` with arguments would
/// make a system call per formatted piece. Inert: a failed criterion's evidence quotes the model.
fn line(text: String) {
    let _ = std::io::stderr()
        .lock()
        .write_all(format!("{}\n", super::inert(&text)).as_bytes());
}

#[derive(Default, Clone, Copy)]
struct Counts {
    pass: u64,
    fail: u64,
    inconclusive: u64,
}

pub struct Progress {
    bars: Option<MultiProgress>,
    /// Print each trial's story (focused runs) instead of a line or a bar.
    story: Option<super::story::StoryOptions>,
    per_model: HashMap<String, (ProgressBar, Counts)>,
}

impl Progress {
    /// Bars or lines; with `story`, each trial's story on stdout instead.
    pub fn with_story(story: Option<super::story::StoryOptions>) -> Progress {
        let mut p = Progress::new();
        if story.is_some() {
            p.bars = None;
        }
        p.story = story;
        p
    }

    pub fn new() -> Progress {
        Progress {
            story: None,
            // Bars only when a person watches stdout; piped or in CI, one line per trial.
            bars: std::io::stdout()
                .is_terminal()
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            per_model: HashMap::new(),
        }
    }

    pub fn on_event(&mut self, ev: &Event) {
        match ev {
            Event::RunStarted { run_dir, per_model } => {
                line(format!("writing transcripts to {}", run_dir.display()));
                let style =
                    ProgressStyle::with_template("{prefix:>22} [{bar:30}] {pos}/{len} {msg}")
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
            Event::TrialFinished { record: r, why } => {
                let status = r.status;
                if let Some((bar, counts)) = self.per_model.get_mut(&*r.model) {
                    match status {
                        TrialStatus::Pass => counts.pass += 1,
                        TrialStatus::Fail => counts.fail += 1,
                        TrialStatus::Inconclusive => counts.inconclusive += 1,
                    }
                    bar.inc(1);
                    bar.set_message(format!(
                        "pass {} fail {} error {}",
                        counts.pass, counts.fail, counts.inconclusive
                    ));
                }
                if self.story.is_some() {
                    // Stories are told at the end, from the run's records (`story::print_all`).
                } else if self.bars.is_none() {
                    let why = why.as_ref().map(|w| format!(" ({w})")).unwrap_or_default();
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
            Event::Retry {
                model,
                case,
                variant,
                trial,
                attempt,
                reason,
                wait_ms,
            } => {
                let reason = super::inert(reason);
                let line = format!("retry {case}/{variant} trial {trial}: attempt {attempt} failed ({reason}); next in {:.1}s", *wait_ms as f64 / 1000.0);
                match self.per_model.get(model) {
                    Some((bar, _)) if self.bars.is_some() => bar.set_message(line),
                    _ => self::line(format!("{:>12} {model} {line}", "RETRY")),
                }
            }
            Event::RunFinished => {
                for (bar, _) in self.per_model.values() {
                    bar.finish();
                }
            }
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}
