//! Run progress: a bar per model with pass/fail/error counts on a terminal, one plain line per
//! trial otherwise (CI logs).

use crate::events::{Event, TrialRecord, TrialStatus};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::{IsTerminal, Write};

/// One line to stderr in one write: stderr is unbuffered, and `eprintln!` with arguments would
/// make a system call per formatted piece.
fn line(text: String) {
    let _ = std::io::stderr()
        .lock()
        .write_all(format!("{text}\n").as_bytes());
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
    /// Stories wait for the run's end, so they print in trial order, identical trials folded;
    /// only the records wait (the story is told from the transcript file then).
    stories: Vec<(usize, TrialRecord)>,
    per_model: HashMap<String, (ProgressBar, Counts)>,
}

impl Progress {
    /// Every buffered story in trial order; a trial whose reply and verdict repeat the one
    /// before it in its unit is folded into one line.
    fn print_stories(&mut self) {
        let Some(opts) = self.story else {
            return;
        };
        let mut stories = std::mem::take(&mut self.stories);
        let key = |(case_at, r): &(usize, TrialRecord)| {
            (r.model.clone(), *case_at, r.variant.clone(), r.trial)
        };
        stories.sort_by_key(key);
        // What makes two trials "the same": the reply and which criteria failed.
        let same = |(case_at, r): &(usize, TrialRecord)| {
            (
                r.model.clone(),
                *case_at,
                r.variant.clone(),
                r.reply_digest,
                r.failed.clone(),
            )
        };
        let mut out = std::io::stdout().lock();
        let mut i = 0;
        while i < stories.len() {
            // Told from the transcript file, read back one trial at a time.
            let r = &stories[i].1;
            let text = match r.transcript() {
                Ok(t) => super::story::render(&t, &r.verdict.get(), opts),
                Err(e) => format!("{e}\n"),
            };
            let _ = writeln!(out, "{text}");
            let mut j = i + 1;
            while j < stories.len() && same(&stories[j]) == same(&stories[i]) {
                j += 1;
            }
            if j > i + 1 {
                let (first, last) = (stories[i + 1].1.trial, stories[j - 1].1.trial);
                let which = if first == last {
                    format!("trial {first}")
                } else {
                    format!("trials {first}–{last}")
                };
                let _ = write!(
                    out,
                    "  ({which}: the same reply and verdict as trial {})\n\n",
                    r.trial
                );
            }
            i = j;
        }
    }

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
            stories: Vec::new(),
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
                    let case_at = checkers::CASE_IDS
                        .iter()
                        .position(|c| *c == &*r.case)
                        .unwrap_or(99);
                    self.stories.push((case_at, r.clone()));
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
                self.print_stories();
            }
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}
