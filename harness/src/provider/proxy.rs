//! Which proxy a model's requests go through: the model's own `proxy` key, else the process
//! environment's `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` (upper case first, as reqwest and curl
//! read them) for `base_url`'s scheme, unless `NO_PROXY` names its host. One decision, made per
//! model, both routes the client and is named in the plan, so what the plan says is what runs.
//! A `.env` never sets these (`suite::manifest::adopt_keys` ignores them): a pull request's
//! `.env` could otherwise send the key's header anywhere. A proxy is shown with any
//! credentials in its URL masked (`http://***@host:port`).

use crate::suite::manifest::{ModelEntry, ProviderKind};
use std::net::IpAddr;

/// Where a model's requests go.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// Straight to `base_url`: no proxy variable applies.
    Direct,
    /// Straight to `base_url` because the named variable (`NO_PROXY` or `no_proxy`) excludes
    /// its host.
    Excluded(&'static str),
    /// Through `url`, from `source`: the model's `proxy` key or the variable's name.
    Proxy { url: String, source: &'static str },
}

impl Route {
    /// The route as the plan says it, credentials masked.
    pub fn describe(&self) -> String {
        match self {
            Route::Direct => "directly".into(),
            Route::Excluded(var) => format!("directly ({var} names the host)"),
            Route::Proxy { url, source } => format!("through {} ({source})", masked(url)),
        }
    }
}

/// The variables read for each scheme, in order: the scheme's own, then `ALL_PROXY`.
const HTTPS: [&str; 4] = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"];
const HTTP: [&str; 4] = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];
const NO_PROXY: [&str; 2] = ["NO_PROXY", "no_proxy"];

/// `model`'s route given the environment `env` (a variable's value by name). A proxy URL that
/// is not `http://` or `https://` is an error naming its variable, its credentials masked.
pub fn route(model: &ModelEntry, env: &dyn Fn(&str) -> Option<String>) -> Result<Route, String> {
    if let Some(p) = &model.proxy {
        return Ok(Route::Proxy {
            url: p.clone(),
            source: "the model's proxy key",
        });
    }
    let target = target(model);
    let set = |var: &&str| env(var).filter(|v| !v.trim().is_empty());
    let vars = if target.scheme() == "http" {
        HTTP
    } else {
        HTTPS
    };
    let Some((var, value)) = vars.iter().find_map(|v| set(v).map(|value| (*v, value))) else {
        return Ok(Route::Direct);
    };
    if let Some((no, list)) = NO_PROXY.iter().find_map(|v| set(v).map(|l| (*v, l))) {
        if target.host_str().is_some_and(|h| excluded(&list, h)) {
            return Ok(Route::Excluded(no));
        }
    }
    let url = proxy_url(&value)
        .ok_or_else(|| format!("{var} in the environment ({}) is not an http:// or https:// proxy URL; unset it, or name the host in NO_PROXY", masked(&value)))?;
    Ok(Route::Proxy { url, source: var })
}

/// The process environment's value of `name`.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// `base_url`, or the provider's own API.
fn target(model: &ModelEntry) -> reqwest::Url {
    let default = match model.provider {
        ProviderKind::Anthropic => "https://api.anthropic.com",
        _ => "https://api.openai.com",
    };
    model
        .base_url
        .as_deref()
        .and_then(|u| reqwest::Url::parse(u).ok())
        .unwrap_or_else(|| reqwest::Url::parse(default).expect("a valid URL"))
}

/// A proxy variable's value as a URL: `host:port` alone means `http://` (as curl reads it).
fn proxy_url(value: &str) -> Option<String> {
    let value = value.trim();
    let full = if value.contains("://") {
        value.to_string()
    } else {
        format!("http://{value}")
    };
    let url = reqwest::Url::parse(&full).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host().is_some()).then_some(full)
}

/// Whether the `NO_PROXY` list names `host`: `*`; an address or a CIDR block holding it; a
/// domain equal to it or a parent of it (`example.com` and `.example.com` both cover
/// `api.example.com`).
fn excluded(list: &str, host: &str) -> bool {
    let ip = host.trim_matches(['[', ']']).parse::<IpAddr>().ok();
    let name = host.to_ascii_lowercase();
    list.split(',').map(str::trim).any(|entry| {
        if entry == "*" {
            return true;
        }
        if let Some(ip) = ip {
            return in_block(entry.trim_matches(['[', ']']), ip);
        }
        let domain = entry.trim_start_matches("*.").trim_start_matches('.');
        let domain = domain.to_ascii_lowercase();
        !domain.is_empty() && (name == domain || name.ends_with(&format!(".{domain}")))
    })
}

/// Whether `entry` (an address, or an address/prefix length) holds `ip`.
fn in_block(entry: &str, ip: IpAddr) -> bool {
    let (addr, len) = entry.split_once('/').unwrap_or((entry, ""));
    let Ok(addr) = addr.parse::<IpAddr>() else {
        return false;
    };
    let bits = |a: IpAddr| match a {
        IpAddr::V4(v) => (u128::from(u32::from(v)) << 96, 32),
        IpAddr::V6(v) => (u128::from(v), 128),
    };
    let ((a, width), (b, other)) = (bits(addr), bits(ip));
    if width != other {
        return false;
    }
    let len: u32 = if len.is_empty() {
        width
    } else {
        match len.parse() {
            Ok(l) if l <= width => l,
            _ => return false,
        }
    };
    let mask = if len == 0 {
        0
    } else {
        u128::MAX << (128 - len)
    };
    a & mask == b & mask
}

/// `url` with any user name or password replaced by `***`, its path, query and fragment
/// dropped: `http://***@host:port`. Something that is not a URL shows as `***`.
pub fn masked(url: &str) -> String {
    let full = if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    };
    let Ok(u) = reqwest::Url::parse(&full) else {
        return "***".into();
    };
    let Some(host) = u.host_str() else {
        return "***".into();
    };
    let creds = if u.username().is_empty() && u.password().is_none() {
        ""
    } else {
        "***@"
    };
    let port = u.port().map(|p| format!(":{p}")).unwrap_or_default();
    format!("{}://{creds}{host}{port}", u.scheme())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(base_url: &str) -> ModelEntry {
        let toml = format!("name = \"m\"\nrole = \"frontier\"\nprovider = \"openai\"\nmodel = \"x\"\nbase_url = \"{base_url}\"\napi_key_env = \"K\"\n");
        toml::from_str(&toml).unwrap()
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn the_schemes_own_variable_then_all_proxy_upper_case_first() {
        let e = env(&[
            ("https_proxy", "http://lower:1"),
            ("HTTPS_PROXY", "http://upper:1"),
            ("ALL_PROXY", "http://all:1"),
        ]);
        let r = route(&model("https://api.example.com/v1"), &e).unwrap();
        assert_eq!(
            r,
            Route::Proxy {
                url: "http://upper:1".into(),
                source: "HTTPS_PROXY"
            }
        );
        let r = route(&model("http://api.example.com/v1"), &e).unwrap();
        assert_eq!(
            r,
            Route::Proxy {
                url: "http://all:1".into(),
                source: "ALL_PROXY"
            }
        );
        assert_eq!(
            route(&model("http://x/v1"), &env(&[])).unwrap(),
            Route::Direct
        );
    }

    #[test]
    fn no_proxy_names_hosts_domains_addresses_and_blocks() {
        let yes = |list: &str, url: &str| {
            let e = env(&[("HTTP_PROXY", "proxy:3128"), ("no_proxy", list)]);
            route(&model(url), &e).unwrap() == Route::Excluded("no_proxy")
        };
        assert!(yes("127.0.0.1", "http://127.0.0.1:9/v1"));
        assert!(yes("10.0.0.0/8, localhost", "http://10.1.2.3/v1"));
        assert!(yes("example.com", "http://api.example.com/v1"));
        assert!(yes(".Example.com", "http://api.example.com/v1"));
        assert!(yes("*", "http://anything/v1"));
        assert!(yes("[::1]", "http://[::1]:9/v1"));
        assert!(!yes("example.com", "http://badexample.com/v1"));
        assert!(!yes("127.0.0.2,10.0.0.0/8", "http://127.0.0.1:9/v1"));
    }

    #[test]
    fn a_proxy_is_shown_with_its_credentials_masked_and_a_bad_one_is_refused() {
        let url = "http://user:sk-secret-123@proxy.example:3128/path?q=1";
        assert_eq!(masked(url), "http://***@proxy.example:3128");
        assert_eq!(masked("proxy.example:3128"), "http://proxy.example:3128");
        let e = env(&[("HTTPS_PROXY", "socks5://user:sk-secret-123@proxy:1080")]);
        let err = route(&model("https://api.example.com"), &e).unwrap_err();
        assert!(
            err.contains("HTTPS_PROXY") && !err.contains("sk-secret"),
            "{err}"
        );
        assert!(err.contains("socks5://***@proxy:1080"), "{err}");
    }
}
