//! What a run, gate or merge tests, said before anything else: the charter (path, title,
//! version, runtime sha256), the matrix and the suite; for a run, also which models read the
//! charter, the proxy each goes through, the cases it cannot test and page chrome above the
//! title (`announce`). And which charter the built-in offline matrix tests in a charter
//! repository: the repository's own, not the built-in example.

use crate::run::inputs::Inputs;
use crate::suite::charter::Charter;
use crate::suite::embedded::shown;
use crate::suite::manifest;
use std::path::{Path, PathBuf};

/// The lines naming what is tested. `title` comes from the runtime text (the system prompt).
pub struct Tested<'a> {
    pub charter_source: &'a str,
    pub runtime: &'a str,
    pub version: Option<&'a str>,
    pub sha256: &'a str,
    pub matrix: &'a Path,
    pub suite: &'a Path,
}

impl Tested<'_> {
    pub fn render(&self) -> String {
        let title = crate::suite::charter::title(self.runtime)
            .map_or("(no title)".to_string(), |(_, t)| format!("\"{t}\""));
        let sha = &self.sha256[..self.sha256.len().min(12)];
        crate::output::printable(&format!(
            "testing: charter {} — {title}, version {}, runtime sha256 {sha}\n         matrix {}\n         suite {}\n",
            shown(Path::new(self.charter_source)),
            self.version.unwrap_or("(none)"),
            matrix_shown(self.matrix),
            suite_shown(self.suite),
        ))
    }
}

/// For `harness run`: the loaded charter, the manifest file and the suite folder (then
/// [`models`]).
pub fn for_run(charter: &Charter, matrix: &Path, suite: &Path) -> String {
    Tested {
        charter_source: &charter.source,
        runtime: &charter.runtime,
        version: charter.version.as_deref(),
        sha256: &charter.sha256,
        matrix,
        suite,
    }
    .render()
}

/// One model of the matrix, as the banner names it.
pub struct ModelShown<'a> {
    pub name: &'a str,
    pub provider: &'a str,
    pub model: &'a str,
    pub script: Option<&'a str>,
}

/// Which models read the charter and which are fixed scripts, one line each; and, when a
/// charter-reading model is among them, the rules cases name that this charter lacks (the units
/// it answers naively).
pub fn models(models: &[ModelShown], suite: &crate::suite::Suite, runtime: &str) -> String {
    let width = models.iter().map(|m| m.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    let mut reader = false;
    for (i, m) in models.iter().enumerate() {
        let what = match m.script {
            Some(s) if suite_reads(suite, s) => {
                reader = true;
                format!("scripted, reads the charter: a case's compliant script while the charter holds the case's rules, the naive one once a rule is gone ({})", m.model)
            }
            Some(_) => format!(
                "scripted, a fixed script: ignores the charter ({})",
                m.model
            ),
            None => format!("{} {}", m.provider, m.model),
        };
        let lead = if i == 0 { "models:" } else { "" };
        out.push_str(&format!("{lead:<9}{:<width$}  {what}\n", m.name));
    }
    if reader {
        let mut gone: Vec<(String, Vec<&str>)> = Vec::new();
        for c in &suite.cases {
            for r in crate::suite::rules::missing(runtime, &c.rules) {
                match gone.iter_mut().find(|(g, _)| g == r) {
                    Some((_, cases)) => cases.push(&c.id),
                    None => gone.push((r.to_string(), vec![&c.id])),
                }
            }
        }
        for (rule, cases) in gone {
            out.push_str(&format!(
                "         this charter has no {rule}: the charter-reading model answers {} naively\n",
                cases.join(", ")
            ));
        }
    }
    crate::output::printable(&out)
}

fn suite_reads(suite: &crate::suite::Suite, script: &str) -> bool {
    let marker = suite
        .root
        .join("fixtures/scripted")
        .join(script)
        .join(crate::provider::scripted::READS_CHARTER);
    crate::files::read::present(&marker)
}

/// The models a run recorded, as the banner names them.
pub fn recorded_models(run: &crate::store::record::RunRecord) -> Vec<ModelShown<'_>> {
    run.manifest
        .models
        .iter()
        .map(|m| {
            let field = |k: &str| m.rest.get(k).and_then(|v| v.as_str());
            ModelShown {
                name: &m.name,
                provider: field("provider").unwrap_or("?"),
                model: field("model").unwrap_or("?"),
                script: field("script"),
            }
        })
        .collect()
}

/// For `gate` and `merge`: what the run recorded, the runtime text from a transcript's system
/// prompt, and the suite that re-checks it now.
pub fn for_gate(
    run: &crate::store::record::RunRecord,
    system_prompt: &str,
    suite: &Path,
) -> String {
    let or_unknown = |s: &str| if s.is_empty() { "?" } else { s }.to_string();
    Tested {
        charter_source: &or_unknown(&run.charter.source),
        runtime: system_prompt,
        version: run.charter.version.as_deref(),
        sha256: &or_unknown(&run.charter.sha256),
        matrix: Path::new(run.manifest_path.as_deref().unwrap_or("?")),
        suite,
    }
    .render()
}

fn matrix_shown(p: &Path) -> String {
    if crate::suite::embedded::is_embedded(p) {
        let stem = p.file_stem().unwrap_or_default().to_string_lossy();
        return format!("{stem} (built in)");
    }
    shown(p)
}

fn suite_shown(p: &Path) -> String {
    if crate::suite::embedded::is_embedded(p) {
        return format!("built into harness {}", env!("CARGO_PKG_VERSION"));
    }
    shown(p)
}

/// Whether `matrix` (as given, or as a run recorded it) is the built-in offline manifest.
pub fn is_builtin_offline(matrix: &Path) -> bool {
    let resolved = crate::suite::manifest::resolve(matrix);
    crate::suite::embedded::is_embedded(&resolved)
        && resolved.file_name().is_some_and(|n| n == "offline.toml")
}

/// The charter of the repository in `dir`, for the built-in offline matrix (whose own manifest
/// names the built-in example charter): the file `manifests/pinned.toml` (as `harness init`
/// writes it) names in `[charter] source`, else `CHARTER.md`. With the reason, for the terminal.
pub fn repo_charter(dir: &Path) -> Option<(PathBuf, String)> {
    let pinned = dir.join("manifests/pinned.toml");
    let named = crate::files::read::read_text(&pinned, crate::files::read::Kind::Manifest)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| {
            t.get("charter")?
                .get("source")?
                .as_str()
                .map(str::to_string)
        })
        .map(|s| dir.join("manifests").join(s))
        .filter(|p| p.is_file());
    if let Some(p) = named {
        let p = std::fs::canonicalize(&p).unwrap_or(p);
        return Some((
            p.clone(),
            format!(
                "charter: {} (named by manifests/pinned.toml), not the offline matrix's built-in example; --charter FILE tests another",
                shown(&p)
            ),
        ));
    }
    let file = dir.join("CHARTER.md");
    file.is_file().then(|| {
        (
            file,
            "charter: CHARTER.md (this repository's), not the offline matrix's built-in example; --charter FILE tests another".to_string(),
        )
    })
}

/// Where the models' requests go, when any goes through a proxy or `NO_PROXY` sends one
/// directly: a line per route, naming the models, the proxy (its credentials masked) and the
/// variable or key it comes from. The same decision routes each model's client.
fn proxy_lines(inputs: &Inputs) -> Vec<String> {
    let mut routes: Vec<(crate::provider::proxy::Route, Vec<&str>)> = Vec::new();
    for m in (inputs.providers.iter().map(|(m, _)| m))
        .filter(|m| m.provider != manifest::ProviderKind::Scripted)
    {
        let Ok(r) = crate::provider::proxy::route(m, &crate::provider::proxy::process_env) else {
            continue;
        };
        match routes.iter_mut().find(|(seen, _)| *seen == r) {
            Some((_, names)) => names.push(m.name()),
            None => routes.push((r, vec![m.name()])),
        }
    }
    if routes
        .iter()
        .all(|(r, _)| *r == crate::provider::proxy::Route::Direct)
    {
        return Vec::new();
    }
    routes
        .iter()
        .map(|(r, names)| format!("proxy: {} {}", names.join(", "), r.describe()))
        .collect()
}

/// What the run tests, before anything else: the charter, matrix and suite, then which models
/// read the charter and which are fixed scripts, and the proxy each model goes through.
pub(crate) fn announce(inputs: &Inputs) {
    err!(
        "{}",
        for_run(&inputs.charter, &inputs.loaded.path, &inputs.suite_root)
    );
    let shown: Vec<ModelShown> = inputs
        .providers
        .iter()
        .map(|(m, _)| ModelShown {
            name: m.name(),
            provider: m.provider.as_str(),
            model: &m.model,
            script: m.script.as_deref(),
        })
        .collect();
    err!("{}", models(&shown, &inputs.suite, &inputs.charter.runtime));
    for line in proxy_lines(inputs) {
        errln!("{line}");
    }
    untestable(&crate::suite::lint::charter::untestable_cases(
        &inputs.charter.full_text,
    ));
    // Page chrome above the title reaches every model as part of the system prompt: said as
    // `lint charter` says it, before anything is sent.
    let source = crate::suite::embedded::shown(std::path::Path::new(&inputs.charter.source));
    if let Some(f) =
        crate::suite::lint::charter::text_before_title(&source, &inputs.charter.runtime)
    {
        errln!("{f}");
    }
}

/// Said before any model is called: the cases the charter lists that this harness cannot test
/// (the gate fails for them); the cases it has are run.
pub fn untestable(cases: &[String]) {
    for case in cases {
        errln!(
            "case {case} cannot be tested by this harness version: the charter lists it, and this harness has no checker for it (a new case needs a harness release that ships one); the cases it has are run, and the gate fails for {case}"
        );
    }
}
