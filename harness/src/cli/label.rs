//! `harness label`: a person's verdict recorded for stored transcripts, for `harness calibrate`.

use crate::error::Result;
use crate::exit;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct LabelArgs {
    /// Transcript files to label.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// A careful reader of the charter passes the transcript.
    #[arg(long, conflicts_with = "fail", required_unless_present = "fail")]
    pass: bool,
    /// A careful reader of the charter fails the transcript.
    #[arg(long)]
    fail: bool,
    /// Why: kept with the label and shown with any disagreement (at most 4,096 bytes).
    #[arg(long)]
    note: Option<String>,
    /// The labels file to append to (default: labels.jsonl beside each transcript; with
    /// --decide, labels/labels.jsonl).
    #[arg(long)]
    labels: Option<PathBuf>,
    /// Decide the checker's unsure verdicts: the label goes to the charter repository's
    /// labels/labels.jsonl (commit it), keyed by case, variant, checker version and the reply,
    /// so every later run, check and gate that meets the same reply uses it. A label of a
    /// checker version no longer current decides nothing: every `harness label` names those.
    #[arg(long)]
    decide: bool,
}

pub(super) fn run(args: LabelArgs) -> Result<u8> {
    if args.decide {
        let file = args
            .labels
            .unwrap_or_else(|| PathBuf::from(crate::store::labels::DECIDING_LABELS));
        // Read before writing: a file the readers would refuse is refused, untouched.
        let stale = crate::store::labels::stale_report(&file)?;
        let n = crate::store::labels::decide(&args.paths, args.pass, args.note.as_deref(), &file)?;
        outln!(
            "decided {n} transcript{} in {} (commit it: every later check and gate reads it)",
            if n == 1 { "" } else { "s" },
            file.display()
        );
        print_lines(&stale);
        return Ok(exit::OK);
    }
    let n = crate::inspect::calibrate::label(
        &args.paths,
        args.pass,
        args.note.as_deref(),
        args.labels.as_deref(),
    )?;
    outln!("labelled {n} transcript{}", if n == 1 { "" } else { "s" });
    // The repository's deciding labels, when there are any: a calibration label is not one,
    // so a deciding file the readers refuse is a warning here, not this command's failure.
    let deciding = std::path::Path::new(crate::store::labels::DECIDING_LABELS);
    match crate::store::labels::stale_report(deciding) {
        Ok(lines) => print_lines(&lines),
        Err(e) => errln!("warning: {e}"),
    }
    Ok(exit::OK)
}

/// The stale deciding labels named (labels keyed by a checker version that is no longer
/// current stopped deciding when the checker changed).
fn print_lines(lines: &[String]) {
    for line in lines {
        outln!("{line}");
    }
}
