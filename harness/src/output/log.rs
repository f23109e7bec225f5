//! Diagnostic logs: `tracing` events, and the `log` records of reqwest and git2 bridged into
//! them, to stderr, filtered by `--log-level` or `RUST_LOG` (default: warnings), every line
//! through the key-masking printer ([`crate::output::err_always`]): no key value and no control
//! character reaches a log.

use tracing_subscriber::fmt::MakeWriter;

/// What filters the logs when neither `--log-level` nor `RUST_LOG` says.
const DEFAULT: &str = "warn";

/// Install the logger once, at start. `level` is `--log-level` (a level or a `RUST_LOG`-style
/// directive list); it wins over `RUST_LOG`. A directive that does not parse is an error
/// naming it.
pub fn init(level: Option<&str>) -> Result<(), String> {
    let (directives, from) = match level {
        Some(l) => (l.to_string(), "--log-level"),
        None => match std::env::var("RUST_LOG")
            .ok()
            .filter(|v| !v.trim().is_empty())
        {
            Some(v) => (v, "RUST_LOG"),
            None => (DEFAULT.to_string(), "the default"),
        },
    };
    let filter = tracing_subscriber::EnvFilter::builder()
        .parse(&directives)
        .map_err(|e| format!("{from}: {directives:?} is not a log level or filter ({e}); e.g. debug, or harness=debug,reqwest=info"))?;
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
    Ok(())
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

    /// The log goes through the printer that masks keys: an event that quotes a key value
    /// (a header dumped at trace level) shows the mask, through the same function.
    #[test]
    fn a_logged_key_value_is_masked_like_every_printed_line() {
        crate::output::secrets::register("sk-log-test-5a1f0e9d2c");
        let line = "TRACE hyper: authorization: Bearer sk-log-test-5a1f0e9d2c\u{1b}[2J\n";
        let shown = crate::output::inert(line);
        assert!(!shown.contains("sk-log-test-5a1f0e9d2c"), "{shown}");
        assert!(!shown.contains('\u{1b}'), "{shown}");
        // And the writer the subscriber is given takes the whole event in one write.
        use std::io::Write;
        let mut w = super::Masked.make_writer();
        assert_eq!(w.write(line.as_bytes()).unwrap(), line.len());
    }
}
