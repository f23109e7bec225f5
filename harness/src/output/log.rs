//! Diagnostic logs: `tracing` events, and the `log` records of reqwest and git2 bridged into
//! them, to stderr, filtered by `--log-level` or `RUST_LOG` (default: warnings), every line
//! through the key-masking printer ([`crate::output::err_always`]): no key value and no control
//! character reaches a log.

use tracing_subscriber::fmt::MakeWriter;

/// What filters the logs when neither `--log-level` nor `RUST_LOG` says.
const DEFAULT: &str = "warn";

/// The log targets worth naming alone (a bare word in a filter that is not a level): the
/// harness's own crates and the libraries whose records it collects. A bare word is a target
/// in `RUST_LOG` syntax, so a misspelt level (`debgu`) would silently filter on a target that
/// logs nothing; a word naming none of these is refused instead.
pub const TARGETS: [&str; 15] = [
    "harness",
    "checkers",
    "reqwest",
    "hyper",
    "hyper_util",
    "h2",
    "rustls",
    "tokio",
    "tower",
    "git2",
    "tracing",
    "mio",
    "want",
    "webpki",
    "log",
];

/// Install the logger once, at start. `level` is `--log-level` (a level or a `RUST_LOG`-style
/// directive list); it wins over `RUST_LOG`. A `--log-level` the harness cannot use is an
/// error naming it; a `RUST_LOG` it cannot use (it may be set for other programs) is a
/// warning, and the default applies.
pub fn init(level: Option<&str>) -> Result<(), String> {
    let env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let (filter, warning) = match (level, env) {
        (Some(l), _) => (filter(l).map_err(|e| format!("--log-level: {e}"))?, None),
        (None, Some(v)) => match filter(&v) {
            Ok(f) => (f, None),
            Err(e) => (
                filter(DEFAULT)?,
                Some(format!(
                    "warning: RUST_LOG: {e}; the harness logs at the default ({DEFAULT}) — --log-level LEVEL sets its own"
                )),
            ),
        },
        (None, None) => (filter(DEFAULT)?, None),
    };
    // reqwest's and git2's `log` records become events; refused only when a logger is there.
    let _ = tracing_log::LogTracer::init();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Masked)
        // The printer writes ESC as text; colour would arrive as `\u{1b}[…`.
        .with_ansi(false)
        .with_target(true)
        .finish();
    let _ = tracing::subscriber::set_global_default(subscriber);
    if let Some(w) = warning {
        errln!("{w}");
    }
    Ok(())
}

/// `directives` as a filter: each a level, a known target ([`TARGETS`], or a path under one),
/// or `target=level` (and the rest of `RUST_LOG`'s syntax); else what is wrong with it.
fn filter(directives: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    let example = "e.g. debug, or harness=debug,reqwest=info";
    for d in directives
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        if let Err(why) = bare_word(d) {
            return Err(format!("{why}; {example}"));
        }
    }
    tracing_subscriber::EnvFilter::builder()
        .parse(directives)
        .map_err(|e| format!("{directives:?} is not a log level or filter ({e}); {example}"))
}

/// A directive that is one bare word must be a level or a target the harness knows.
fn bare_word(d: &str) -> Result<(), String> {
    if d.contains(['=', '[', '{']) || d.parse::<tracing::level_filters::LevelFilter>().is_ok() {
        return Ok(());
    }
    let root = d.split("::").next().unwrap_or(d);
    if TARGETS.contains(&root) {
        return Ok(());
    }
    // The nearest level or target, within two edits (output/ sits below error.rs's helper).
    let lower = d.to_lowercase();
    let near = ["error", "warn", "info", "debug", "trace", "off"]
        .into_iter()
        .chain(TARGETS)
        .map(|k| (strsim::levenshtein(&lower, k), k))
        .filter(|(n, _)| *n <= 2)
        .min();
    let hint = near.map_or(String::new(), |(_, k)| format!("; did you mean {k:?}?"));
    Err(format!(
        "{d:?} is neither a level (error, warn, info, debug, trace, off) nor a log target the harness knows ({}){hint}",
        TARGETS.join(", ")
    ))
}

/// stderr through [`crate::output::err`]. The formatter writes each event whole in one
/// `write_all`, so a key is never split across two writes.
#[derive(Clone, Copy)]
struct Masked;

impl std::io::Write for Masked {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        crate::output::err_always(&String::from_utf8_lossy(buf));
        Ok(buf.len())
    }
    // One event is one `write_all`: it reaches `write` whole, as `write` takes every byte.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Masked {
    type Writer = Masked;
    fn make_writer(&'a self) -> Self::Writer {
        Masked
    }
}

#[cfg(test)]
mod tests {
    use tracing_subscriber::fmt::MakeWriter;

    #[test]
    fn a_misspelt_level_is_refused_naming_the_level_meant() {
        let e = super::filter("debgu").unwrap_err();
        assert!(e.contains("\"debgu\" is neither a level"), "{e}");
        assert!(e.contains("debug"), "{e}");
        // Within a list, too.
        assert!(super::filter("harness=debug,infoo").is_err());
    }

    #[test]
    fn levels_known_targets_and_per_target_filters_are_taken() {
        for ok in [
            "debug",
            "TRACE",
            "off",
            "harness",
            "reqwest",
            "harness::provider=debug",
            "harness=debug,reqwest=info",
            "hyper_util::client",
            "harness::files",
            "warn,harness::provider::http=trace",
        ] {
            assert!(
                super::filter(ok).is_ok(),
                "{ok}: {:?}",
                super::filter(ok).err()
            );
        }
    }

    /// The log goes through the printer that masks keys: an event that quotes a key value
    /// (a header dumped at trace level) shows the mask, through the same function.
    #[test]
    fn a_logged_key_value_is_masked_like_every_printed_line() {
        crate::output::secrets::register("sk-log-test-5a1f0e9d2c");
        let line = "TRACE hyper: authorization: Bearer sk-log-test-5a1f0e9d2c\u{1b}[2J\n";
        let shown = crate::output::printable(line);
        assert!(!shown.contains("sk-log-test-5a1f0e9d2c"), "{shown}");
        assert!(!shown.contains('\u{1b}'), "{shown}");
        // And the writer the subscriber is given takes the whole event in one write.
        use std::io::Write;
        let mut w = super::Masked.make_writer();
        assert_eq!(w.write(line.as_bytes()).unwrap(), line.len());
    }
}
