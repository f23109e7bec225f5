//! `harness comment`: the pull-request comment as Markdown, in every state the workflow posts
//! (a run's gate, lint findings, lint failed, a fork waiting for a maintainer), and the
//! `charter-gate` status that goes with it. Building it never fails: whatever cannot be read
//! becomes an `error` status with the reason, so a status is always posted.

use crate::error::Result;
use crate::report::comparison::code;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The first line of the workflow's comment, by which it finds its own comment to update.
pub const MARKER: &str = "<!-- charter-harness-gate -->";
/// GitHub's largest comment, in characters.
pub const MAX_CHARS: usize = 65_536;
/// GitHub's longest status description, in characters.
const MAX_DESCRIPTION: usize = 140;
/// Findings listed at most; the rest are counted.
const MAX_FINDINGS: usize = 200;

/// Which comment to build.
pub enum State {
    /// A run folder's gate (report.md and summary.json).
    Gate(PathBuf),
    /// `harness lint … --json` output: one finding a line.
    Lint(PathBuf),
    /// The lint job failed before it reported: why.
    LintFailed(String),
    /// A fork's pull request waits for a maintainer to run the gate.
    ForkWaiting(u64),
    /// The gate did not finish (a job failed before a gate was written): why.
    Error(String),
}

pub struct CommentOptions {
    pub state: State,
    /// The workflow run's page: linked at the end, and from the truncation note.
    pub run_url: Option<String>,
    /// Where to write the status (`{"state", "description"}`), for the step that posts it.
    pub status: Option<PathBuf>,
    /// With a gate: lint findings (`harness lint … --json`) whose questions for a reviewer
    /// follow the gate (a finding needing a reviewer let the gate run).
    pub lint: Option<PathBuf>,
    /// The commit the gate tested, named at the end.
    pub head: Option<String>,
}

/// The `charter-gate` commit status: `success`, `failure`, `error` or `pending`.
pub struct Status {
    pub state: &'static str,
    pub description: String,
}

/// Print the comment (and write the status); exit 0 whatever the state the inputs are in, so
/// the step that posts goes on to post. A path that is not a run (nor a findings file) is a
/// usage error, exit 2 naming it: the status, when asked for, is still written (`error`).
pub fn run(opts: &CommentOptions) -> Result<u8> {
    if let Err(e) = check_inputs(opts) {
        if let Some(path) = &opts.status {
            let why = e.to_string();
            crate::files::write_json_atomic(
                path,
                &serde_json::json!({"state": "error", "description": Status { state: "error", description: why }.shown()}),
            )?;
        }
        return Err(e);
    }
    let (body, status) = build(opts);
    out!("{body}");
    if let Some(path) = &opts.status {
        crate::files::write_json_atomic(
            path,
            &serde_json::json!({"state": status.state, "description": status.shown()}),
        )?;
    }
    Ok(crate::exit::OK)
}

/// The paths the comment reads exist as what they must be: a run folder (one holding run.json,
/// summary.json or report.md), a findings file.
fn check_inputs(opts: &CommentOptions) -> Result<()> {
    let not =
        |path: &Path, what: &str| crate::error::Error::input(format!("{}: {what}", path.display()));
    if let State::Gate(dir) = &opts.state {
        if !dir.is_dir() {
            return Err(not(dir, "not a run folder (no such directory)"));
        }
        if !["run.json", "summary.json", "report.md"]
            .iter()
            .any(|f| dir.join(f).is_file())
        {
            return Err(not(
                dir,
                "not a run folder (no run.json, summary.json or report.md in it)",
            ));
        }
    }
    let findings = match &opts.state {
        State::Lint(f) => Some(f),
        _ => opts.lint.as_ref(),
    };
    if let Some(f) = findings.filter(|f| !f.is_file()) {
        return Err(not(
            f,
            "not a lint findings file (harness lint … --json output)",
        ));
    }
    Ok(())
}

impl Status {
    /// The description as GitHub takes it: inert, on one line, at most 140 characters.
    pub fn shown(&self) -> String {
        crate::output::printable(&self.description)
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_DESCRIPTION)
            .collect()
    }
}

/// The comment and its status, for any state; a failure to read becomes the `error` state.
pub fn build(opts: &CommentOptions) -> (String, Status) {
    let (text, status) = match &opts.state {
        State::Gate(dir) => gate(dir)
            .map(|(text, st)| {
                let text = link_artifact(&text, opts.run_url.as_deref());
                (text + &reviewer_findings(opts.lint.as_deref()), st)
            })
            .unwrap_or_else(|why| failed(&why)),
        State::Error(why) => (
            format!("**The gate did not finish**: {}\n", code(why)),
            Status {
                state: "error",
                description: why.clone(),
            },
        ),
        State::Lint(file) => lint(file).unwrap_or_else(|why| failed(&why)),
        State::LintFailed(why) => (
            format!("**Lint failed**: {}\n", code(why)),
            Status {
                state: "error",
                description: format!("lint failed: {why}"),
            },
        ),
        State::ForkWaiting(pr) => (
            format!("This pull request comes from a fork: the gate, which spends on the model keys, waits for a maintainer (Actions → charter-gate → Run workflow, with the number {pr}).\n"),
            Status {
                state: "pending",
                description: "waits for a maintainer to run the gate (a fork's pull request)".into(),
            },
        ),
    };
    let head = opts
        .head
        .as_deref()
        .filter(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .map_or(String::new(), |h| format!("\nTested commit {h}.\n"));
    (bounded(&(text + &head), opts.run_url.as_deref()), status)
}

/// Under report.md's unsure verdicts, where their transcripts are: the run's artifact (GitHub
/// serves it as a zip, with no link to a file in it), with the folder the commands expect.
fn link_artifact(text: &str, run_url: Option<&str>) -> String {
    let heading = crate::report::unsure::HEADING;
    let url = run_url.filter(|u| {
        u.starts_with("https://")
            && !u.contains(|c: char| c.is_whitespace() || "()<>[]".contains(c))
    });
    match url {
        Some(u) if text.contains(heading) => text.replacen(
            heading,
            &format!("{heading}\n\nThe transcripts: [the run's artifacts]({u}#artifacts), `charter-gate-results` (a zip; `gh run download {} -n charter-gate-results -D results/gate` puts each transcript at the path named below).", u.rsplit('/').next().unwrap_or_default()),
            1,
        ),
        _ => text.to_string(),
    }
}

/// The lint findings that need a reviewer, as the lint comment lists them, after a gate; none
/// when the file is absent, unreadable or holds no such finding.
fn reviewer_findings(file: Option<&Path>) -> String {
    let Some((text, _)) = file.and_then(|f| lint(f).ok()) else {
        return String::new();
    };
    if !text.contains("- **needs-reviewer**") {
        return String::new();
    }
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("- **needs-reviewer**") || l.starts_with("**Lint**"))
        .collect();
    format!("\n{}\n", kept.join("\n\n"))
}

fn failed(why: &str) -> (String, Status) {
    (
        format!("**The comment could not be built**: {}\n", code(why)),
        Status {
            state: "error",
            description: format!("the gate's comment could not be built: {why}"),
        },
    )
}

/// The marker, `text`, the run link; cut to [`MAX_CHARS`] with a note that links the run.
fn bounded(text: &str, run_url: Option<&str>) -> String {
    let url = run_url.filter(|u| {
        u.starts_with("https://")
            && !u.contains(|c: char| c.is_whitespace() || "()<>[]".contains(c))
    });
    let footer = match url {
        Some(u) => format!("\n[The run]({u})\n"),
        None => String::new(),
    };
    let head = format!("{MARKER}\n");
    let whole = format!("{head}{text}{footer}");
    if whole.chars().count() <= MAX_CHARS {
        return whole;
    }
    let note = format!(
        "\n\n… cut here to fit GitHub's {MAX_CHARS} characters: the whole report is the run's artifact charter-gate-results{}.\n",
        url.map_or(String::new(), |u| format!(" ([the run]({u}))"))
    );
    let room = MAX_CHARS - head.chars().count() - note.chars().count() - footer.chars().count();
    // Cut at a line: a half line could open a code span or fence that swallows the note.
    let first: String = text.chars().take(room).collect();
    let mut cut = first.rsplit_once('\n').map_or("", |(a, _)| a);
    loop {
        // A fence left open would hold the note: close it with its own character and length.
        let fence = open_fence(cut).map_or(String::new(), |f| format!("\n{f}"));
        if cut.chars().count() + fence.chars().count() <= room || cut.is_empty() {
            return format!("{head}{cut}{fence}{note}{footer}");
        }
        cut = cut.rsplit_once('\n').map_or("", |(a, _)| a);
    }
}

/// The fence a Markdown text leaves open at its end, as the line that closes it: a run of three
/// or more backticks or tildes indented at most three spaces opens one, and only a line of the
/// same character, at least as long, closes it (CommonMark).
fn open_fence(text: &str) -> Option<String> {
    let mut open: Option<(char, usize)> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent > 3 {
            continue;
        }
        let l = line.trim_start_matches(' ');
        let Some(c) = l.chars().next().filter(|c| *c == '`' || *c == '~') else {
            continue;
        };
        let run = l.chars().take_while(|x| *x == c).count();
        match open {
            None if run >= 3 => open = Some((c, run)),
            Some((oc, on)) if oc == c && run >= on && l.trim_end().chars().all(|x| x == c) => {
                open = None
            }
            _ => {}
        }
    }
    open.map(|(c, n)| c.to_string().repeat(n))
}

/// The gate's comment: report.md (verdict first, then the comparison, the units, the rows),
/// then the cost from summary.json.
fn gate(dir: &Path) -> std::result::Result<(String, Status), String> {
    use crate::files::read::{read_text, Kind};
    let summary =
        read_text(&dir.join("summary.json"), Kind::SummaryJson).map_err(|e| e.to_string())?;
    let summary: GateSummary = serde_json::from_str(&summary)
        .map_err(|e| format!("{}: not JSON: {e}", dir.join("summary.json").display()))?;
    let code = summary
        .exit_code
        .ok_or_else(|| format!("{}: no exit_code", dir.join("summary.json").display()))?;
    let report = read_text(&dir.join("report.md"), Kind::SummaryJson).map_err(|e| e.to_string())?;
    let verdict = summary
        .comparison
        .and_then(|c| c.verdict)
        .or(summary.verdict)
        .unwrap_or_else(|| "?".to_string());
    let state = match code {
        0 => "success",
        1 => "failure",
        _ => "error",
    };
    let description = match (code, summary.needs_labels) {
        (3, Some(n)) if !n.is_empty() => {
            format!("needs a label: {} unit(s), harness label --decide", n.len())
        }
        (3, _) => "undecided: provider errors, run again".to_string(),
        _ => verdict,
    };
    let mut text = report;
    if let Some(usage) = summary.usage.filter(|u| !u.is_empty()) {
        text.push_str("\n**Cost:**\n");
        for m in &usage {
            let cost = m
                .cost_usd
                .map_or("not priced".to_string(), |c| format!("${c:.2}"));
            text.push_str(&format!(
                "- {}: {} input and {} output tokens, {cost}\n",
                code_name(m.model.as_deref()),
                m.input_tokens.unwrap_or(0),
                m.output_tokens.unwrap_or(0)
            ));
        }
    }
    text.push_str(&wait(dir));
    Ok((text, Status { state, description }))
}

/// When the models ran, from run.json (nothing when it is absent or unreadable).
fn wait(dir: &Path) -> String {
    let run = std::fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<RunTimes>(&t).ok());
    let Some(run) = run else {
        return String::new();
    };
    let at = |t: &Option<String>| code(t.as_deref().unwrap_or("?"));
    format!(
        "\n**Wait:** the models ran from {} to {}.\n",
        at(&run.started),
        at(&run.ended)
    )
}

fn code_name(name: Option<&str>) -> String {
    code(name.unwrap_or("?"))
}

/// What the comment reads of summary.json, typed; a part that is absent reads as none (a gate
/// that did not finish writes less).
#[derive(Deserialize, Default)]
#[serde(default)]
struct GateSummary {
    exit_code: Option<u64>,
    verdict: Option<String>,
    comparison: Option<ComparisonVerdict>,
    /// The units waiting on a label (only their number is read).
    needs_labels: Option<Vec<serde::de::IgnoredAny>>,
    usage: Option<Vec<ModelCost>>,
}

/// The verdict against the base, which the comment's status says first when there is one.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ComparisonVerdict {
    verdict: Option<String>,
}

/// One model's tokens and cost in summary.json's `usage`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ModelCost {
    model: Option<String>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    cost_usd: Option<f64>,
}

/// When the models ran, from run.json.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RunTimes {
    started: Option<String>,
    ended: Option<String>,
}

/// One finding of `harness lint … --json`.
#[derive(Deserialize)]
struct Finding {
    file: String,
    line: Option<u64>,
    rule: String,
    kind: String,
    message: String,
    #[serde(default)]
    fix: Option<String>,
}

/// `lint --json`'s findings, one a line; an error names the file and line of one that is not.
fn read_findings(file: &Path) -> std::result::Result<Vec<Finding>, String> {
    use crate::files::read::{read_text, Kind};
    let text = read_text(file, Kind::SummaryJson).map_err(|e| e.to_string())?;
    let mut findings = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let f: Finding = serde_json::from_str(line)
            .map_err(|e| format!("{}, line {}: not a finding: {e}", file.display(), i + 1))?;
        if !["error", "warning", "needs-reviewer"].contains(&f.kind.as_str()) {
            return Err(format!(
                "{}, line {}: kind {:?} is not error, warning or needs-reviewer",
                file.display(),
                i + 1,
                f.kind
            ));
        }
        findings.push(f);
    }
    Ok(findings)
}

/// Lint findings: errors fail the status, findings needing a reviewer are listed for one.
fn lint(file: &Path) -> std::result::Result<(String, Status), String> {
    let findings = read_findings(file)?;
    let count = |k: &str| findings.iter().filter(|f| f.kind == k).count();
    let (errors, reviewer) = (count("error"), count("needs-reviewer"));
    let mut out = format!(
        "**Lint**: {errors} error(s), {reviewer} finding(s) need a reviewer, {} warning(s)\n\n",
        count("warning")
    );
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| match f.kind.as_str() {
        "error" => 0,
        "needs-reviewer" => 1,
        _ => 2,
    });
    for f in sorted.iter().take(MAX_FINDINGS) {
        let at = match f.line {
            Some(l) => format!("{}:{l}", f.file),
            None => f.file.clone(),
        };
        let fix = f
            .fix
            .as_deref()
            .map_or(String::new(), |x| format!(" — fix: {}", code(x)));
        out.push_str(&format!(
            "- **{}** {} {}: {}{fix}\n",
            f.kind,
            code(&at),
            code(&f.rule),
            code(&f.message)
        ));
    }
    if findings.len() > MAX_FINDINGS {
        out.push_str(&format!("- … and {} more\n", findings.len() - MAX_FINDINGS));
    }
    let status = match (errors, reviewer) {
        (0, 0) => Status {
            state: "success",
            description: "lint: no error".into(),
        },
        (0, n) => Status {
            state: "success",
            description: format!("lint: {n} finding(s) need a reviewer"),
        },
        (n, _) => Status {
            state: "failure",
            description: format!("lint: {n} error(s)"),
        },
    };
    Ok((out, status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_over_githubs_limit_is_cut_at_a_line_with_a_note_linking_the_run() {
        let text = "```diff\n".to_string() + &"-a line of the charter\n".repeat(5000);
        let out = bounded(&text, Some("https://github.com/o/r/actions/runs/1"));
        assert!(out.chars().count() <= MAX_CHARS, "{}", out.chars().count());
        assert!(out.starts_with(MARKER));
        assert!(
            out.contains("… cut here")
                && out.contains("([the run](https://github.com/o/r/actions/runs/1))")
        );
        // The open fence is closed before the note.
        let note = out.find("… cut here").unwrap();
        assert_eq!(out[..note].matches("```").count() % 2, 0);
    }

    #[test]
    fn a_body_cut_inside_a_four_backtick_fence_is_closed_by_four_backticks_before_the_note() {
        // A reply quoted in a four-backtick fence may itself hold ``` lines: only a line of four
        // or more backticks closes it, so three would leave the note inside the block.
        let text = "````text\n".to_string() + &"```\na quoted reply line\n".repeat(4000);
        let out = bounded(&text, Some("https://github.com/o/r/actions/runs/1"));
        assert!(out.chars().count() <= MAX_CHARS, "{}", out.chars().count());
        let note = out.find("… cut here").unwrap();
        assert_eq!(open_fence(&out[..note]), None, "{}", &out[note - 40..note]);
        assert!(out[..note].trim_end().ends_with("````"));
    }

    #[test]
    fn an_open_fence_is_found_by_its_character_and_length() {
        assert_eq!(open_fence("a\n```rust\nx\n"), Some("```".into()));
        assert_eq!(open_fence("```\nx\n```\n"), None);
        assert_eq!(open_fence("~~~~\n```\nx\n~~~\n"), Some("~~~~".into()));
        assert_eq!(open_fence("   ```\nx\n"), Some("```".into()));
        assert_eq!(
            open_fence("    ```\nx\n"),
            None,
            "four spaces: indented code, no fence"
        );
    }

    #[test]
    fn a_run_url_that_is_not_a_plain_https_link_is_left_out() {
        let out = bounded("x\n", Some("javascript:alert(1)"));
        assert!(!out.contains("javascript"), "{out}");
    }
}
