//! Everything a run needs from its options, loaded and checked before any model is called:
//! manifest, suite, charter bound to the suite, providers, units, and the sandbox.

use crate::error::{Error, Result};
use crate::provider;
use crate::run::options::RunOptions;
use crate::suite::charter::{self, Charter};
use crate::suite::manifest;
use crate::suite::{self, Suite};
use std::path::PathBuf;
use std::sync::Arc;

/// Everything a run needs from its options, loaded and checked before any model is called.
pub(crate) struct Inputs {
    pub(crate) loaded: manifest::LoadedManifest,
    pub(crate) suite_root: PathBuf,
    /// The suite bound to the charter (see `_prepared`).
    pub(crate) suite: Suite,
    pub(crate) charter: Arc<Charter>,
    /// Keeps the bound fixtures alive for the run.
    pub(crate) _prepared: crate::run::prepare::Prepared,
    pub(crate) providers: Vec<(manifest::ModelEntry, Arc<dyn provider::Provider>)>,
    pub(crate) units: Vec<(Arc<crate::suite::case::Case>, String)>,
    /// What a whole gate of this manifest is: every model × every case variant.
    pub(crate) units_total: usize,
}

impl Inputs {
    /// Load and check what `opts` names (its selection already resolved): the manifest, the
    /// suite bound to the charter, the sandbox, each selected model's provider and key.
    pub(crate) fn load(opts: &RunOptions) -> Result<Inputs> {
        let loaded = manifest::load(&manifest::resolve(&opts.matrix))?;
        for w in &loaded.warnings {
            errln!("warning: {w}");
        }
        let suite_root = suite::locate(opts.suite.as_deref())?;
        let suite = Suite::load(&suite_root)?;
        let charter = load_charter(opts, &loaded)?;
        sandbox_for(&suite, opts)?;
        let stale = crate::trial::workspace::remove_stale();
        if stale > 0 {
            errln!("removed {stale} trial folder(s) left by harness runs that died");
        }
        // The suite bound to this charter: state files hold its Core Invariants, tokens match
        // the rendered files, history steps are in the fixtures' git history.
        let prepared = crate::run::prepare::bind(
            &suite,
            &charter.core_invariants,
            std::time::Duration::from_secs(loaded.manifest.run.test_timeout_secs),
        )?;
        let suite = prepared.suite.clone();
        let models = models_of(&loaded, opts)?;
        let selected = crate::run::plan::units(suite::select(&suite, &opts.cases, &opts.variants)?);
        let max_reply = loaded.manifest.run.max_reply_bytes;
        let providers = providers_of(&models, &suite, max_reply, &selected, opts.dry_run)?;
        let units = selected
            .iter()
            .map(|(c, v)| (Arc::new((*c).clone()), v.id.clone()))
            .collect();
        let units_total = loaded.manifest.models.len()
            * suite.cases.iter().map(|c| c.variants.len()).sum::<usize>();
        Ok(Inputs {
            loaded,
            suite_root,
            suite,
            charter: Arc::new(charter),
            _prepared: prepared,
            providers,
            units,
            units_total,
        })
    }

    /// A plan of this run, priced with the manifest's prices.
    pub(crate) fn priced<'a>(
        &'a self,
        plan: &'a crate::run::plan::Plan,
        system: &'a str,
    ) -> crate::run::plan::Priced<'a> {
        let manifest = &self.loaded.manifest;
        crate::run::plan::Priced {
            plan,
            models: &self.providers,
            units: &self.units,
            system,
            max_tokens: manifest.decoding.max_tokens.unwrap_or(4096),
            budget_usd: manifest.run.budget_usd,
        }
    }
}

/// The models `--model` selects, each held to `--max-concurrency`, their keys checked (a dry run
/// names the missing ones and goes on: it prices the plan without them).
fn models_of(
    loaded: &manifest::LoadedManifest,
    opts: &RunOptions,
) -> Result<Vec<manifest::ModelEntry>> {
    let mut models = loaded.select_models(&opts.models)?;
    for m in &mut models {
        m.max_concurrency = m
            .max_concurrency
            .min(opts.max_concurrency.unwrap_or(usize::MAX));
    }
    match manifest::check_api_keys(&loaded.path, &models) {
        Err(e) if opts.dry_run => errln!(
            "note: {e}\n      (a dry run needs no key: the plan below is priced without them; a run stops here)"
        ),
        checked => checked?,
    }
    Ok(models)
}

/// Confine commands a model could influence, or say loudly that they are not. A unit that runs
/// commands (`run_tests`, a behavioural probe) refuses to start without a working sandbox.
fn sandbox_for(suite: &Suite, opts: &RunOptions) -> Result<()> {
    if opts.no_sandbox {
        crate::trial::sandbox::set_unconfined(true);
        errln!("{}", crate::report::findings::NO_SANDBOX_WARNING);
        return Ok(());
    }
    let runs_commands = suite::select(suite, &opts.cases, &opts.variants)?
        .iter()
        .any(|(c, v)| v.runs_commands() || c.probe.is_some());
    if !runs_commands {
        return Ok(());
    }
    crate::trial::sandbox::check().map_err(|e| {
        Error::input(format!(
            "the selected cases run commands a model can influence, and this machine cannot confine them: {e}\n\
             The sandbox needs Linux with Landlock and mount/network/PID namespaces (user namespaces when not root). \
             Only as a last resort, with models you trust on a machine you can lose: --no-sandbox runs them unconfined."
        ))
    })
}

/// The charter `--charter` names (relative to `--charter-dir`, else the working folder), or the
/// one the manifest names (relative to the manifest; an error is placed at its line).
fn load_charter(opts: &RunOptions, loaded: &manifest::LoadedManifest) -> Result<Charter> {
    match &opts.charter {
        Some(src) => charter::load(
            src,
            &opts
                .charter_dir
                .clone()
                .unwrap_or_else(|| std::env::current_dir().unwrap_or_default()),
        ),
        None => charter::load(&loaded.manifest.charter.source, loaded.dir())
            .map_err(|e| loaded.at_charter(e)),
    }
}

type Providers = Vec<(manifest::ModelEntry, Arc<dyn provider::Provider>)>;

/// Each model's provider, checked to answer every selected unit; in a dry run, a model whose
/// key is not set gets [`Unkeyed`].
fn providers_of(
    models: &[manifest::ModelEntry],
    suite: &Suite,
    max_reply_bytes: u64,
    selected: &[(&suite::case::Case, &suite::case::Variant)],
    dry_run: bool,
) -> Result<Providers> {
    let mut providers = Vec::new();
    for m in models {
        let unset = |var: &str| std::env::var(var).map_or(true, |v| v.trim().is_empty());
        let p = match m.api_key_env.as_deref() {
            Some(var) if dry_run && unset(var) => Arc::new(Unkeyed) as Arc<dyn provider::Provider>,
            _ => provider::build(m, suite, max_reply_bytes)?,
        };
        if let Some((c, v)) = selected.iter().find(|(c, v)| !p.covers(&c.id, &v.id)) {
            return Err(Error::input(format!("model {}: cannot answer {}/{} (for a scripted model: no fixtures/scripted/{}/{}-{}.toml)", m.name(), c.id, v.id, m.script.as_deref().unwrap_or(""), c.id, v.id)));
        }
        providers.push((m.clone(), p));
    }
    Ok(providers)
}

/// A dry run's stand-in for a model whose key is not set: the plan is priced from the manifest,
/// and nothing is ever sent (its account's limits are not known without a key).
struct Unkeyed;

impl provider::Provider for Unkeyed {
    fn complete<'a>(
        &'a self,
        _req: provider::ModelRequest<'a>,
    ) -> provider::BoxFuture<'a, std::result::Result<provider::ModelReply, provider::ProviderError>>
    {
        Box::pin(async {
            Err(provider::ProviderError::Rejected {
                status: 0,
                body: "a dry run sends nothing".into(),
            })
        })
    }
}
