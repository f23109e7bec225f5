//! The reporters of a run as one set: each is fed every runner event, then the arm's records
//! when the arm ends. Built from facts about the console the caller probes once
//! ([`Console::detect`]); no reporter probes for itself.

use super::progress::Progress;
use super::story::StoryOptions;
use crate::report::events::Event;
use crate::store::trial::TrialRecord;

/// Where the output goes, as the reporters are told it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Console {
    pub stdout_terminal: bool,
    pub stderr_terminal: bool,
    /// Running in CI (`CI` set and not `false`/`0`, or `GITHUB_ACTIONS=true`): logs, not a
    /// person, read the output, even when the runner gives it a terminal.
    pub ci: bool,
    /// `NO_COLOR` set and not empty (no-color.org).
    pub no_color: bool,
}

impl Console {
    /// The one place the terminal and the environment are looked at for the reporters.
    pub fn detect() -> Console {
        use std::io::IsTerminal;
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Console {
            stdout_terminal: std::io::stdout().is_terminal(),
            // Under -q no progress is drawn on stderr.
            stderr_terminal: std::io::stderr().is_terminal() && !crate::output::quiet(),
            ci: var("CI").is_some_and(|v| v != "false" && v != "0")
                || var("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }
}

/// One reporter of the set.
pub trait Reporter: Send {
    fn on_event(&mut self, _event: &Event) {}
    /// The arm's trials, once it has ended (not after a failed run).
    fn arm_ended(&mut self, _records: &[TrialRecord]) {}
}

impl Reporter for Progress {
    fn on_event(&mut self, event: &Event) {
        Progress::on_event(self, event)
    }
}

/// Each trial's story on stdout when the arm ends (focused runs: `--verbose`, one case).
pub struct Stories(pub StoryOptions);

impl Reporter for Stories {
    fn arm_ended(&mut self, records: &[TrialRecord]) {
        super::story::print_all(records, self.0);
    }
}

/// The set `run` feeds: progress always, stories when asked for.
pub struct Reporters(Vec<Box<dyn Reporter>>);

impl Reporters {
    pub fn new(console: Console, story: Option<StoryOptions>) -> Reporters {
        let mut set: Vec<Box<dyn Reporter>> =
            vec![Box::new(Progress::new(console, story.is_some()))];
        if let Some(opts) = story {
            set.push(Box::new(Stories(opts)));
        }
        Reporters(set)
    }

    pub fn on_event(&mut self, event: &Event) {
        for r in &mut self.0 {
            r.on_event(event);
        }
    }

    pub fn arm_ended(&mut self, records: &[TrialRecord]) {
        for r in &mut self.0 {
            r.arm_ended(records);
        }
    }
}
