//! Name resolution for a model without `allow_private_network`: `base_url`'s host gets only
//! public and loopback addresses.

/// Name resolution for a model without `allow_private_network`: `base_url`'s host gets only
/// public and loopback addresses, so a name that points at a metadata service or a private
/// network gets no key. Other names (an HTTPS proxy's, set in the environment) resolve as usual.
pub struct PublicOnly {
    pub host: String,
}

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        let guarded = host.eq_ignore_ascii_case(self.host.trim_end_matches('.'))
            || host.eq_ignore_ascii_case(&self.host);
        Box::pin(async move {
            let all: Vec<std::net::SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if !guarded {
                let addrs: reqwest::dns::Addrs = Box::new(all.into_iter());
                return Ok(addrs);
            }
            let addrs: reqwest::dns::Addrs = Box::new(public_only(&host, all)?.into_iter());
            Ok(addrs)
        })
    }
}

/// The public and loopback addresses among those `host` resolved to; none is an error naming
/// why, and the fix.
fn public_only(
    host: &str,
    all: Vec<std::net::SocketAddr>,
) -> Result<Vec<std::net::SocketAddr>, String> {
    let (public, refused): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|a| crate::suite::manifest::private_address(a.ip()).is_none());
    match refused.first() {
        Some(a) if public.is_empty() => {
            let why = crate::suite::manifest::private_address(a.ip()).unwrap_or_default();
            Err(format!("{host} resolves to {}, {why}; the key is not sent there unless the model's entry sets allow_private_network = true", a.ip()))
        }
        _ => Ok(public),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_resolving_only_to_metadata_or_private_addresses_is_refused() {
        let at = |ip: &str| std::net::SocketAddr::new(ip.parse().unwrap(), 0);
        let err = public_only("evil.example", vec![at("169.254.169.254")]).unwrap_err();
        assert!(
            err.contains("169.254.169.254") && err.contains("allow_private_network = true"),
            "{err}"
        );
        assert!(public_only("lan.example", vec![at("10.1.2.3"), at("fd00::1")]).is_err());
        // Mixed answers keep only what may get a key; loopback and public names pass.
        assert_eq!(
            public_only("mixed.example", vec![at("10.1.2.3"), at("93.184.216.34")]).unwrap(),
            vec![at("93.184.216.34")]
        );
        assert_eq!(
            public_only("localhost", vec![at("127.0.0.1"), at("::1")]).unwrap(),
            vec![at("127.0.0.1"), at("::1")]
        );
    }
}
