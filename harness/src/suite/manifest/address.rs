//! Where a model's key may be sent: a base URL's shape (no credentials, query or fragment in
//! it) and the private-network, link-local and cloud metadata addresses refused unless the
//! model's entry allows them.

/// A base URL the harness will call: http(s), a host, and no credentials, query or fragment —
/// a key in a URL would be written to run.json and every transcript. Keys go in the environment.
pub fn check_base_url(url: &str) -> std::result::Result<(), String> {
    let u = reqwest::Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
        return Err(format!("{url:?} must be an http(s) URL with a host"));
    }
    if !u.username().is_empty() || u.password().is_some() {
        return Err(
            "holds a user name or password; put the key in the variable api_key_env names".into(),
        );
    }
    if u.query().is_some() || u.fragment().is_some() {
        return Err("holds a query string or fragment (a key there would be written to every transcript); put the key in the variable api_key_env names".into());
    }
    Ok(())
}

/// Why a model server at `ip` would not get a key unless its entry allows private networks:
/// link-local and cloud metadata addresses (a key sent there, or a redirect a metadata service
/// answers, reaches the machine's own credentials), private networks and non-host addresses.
/// Loopback passes: local servers (vLLM, llama.cpp, Ollama) listen there.
pub fn private_address(ip: std::net::IpAddr) -> Option<&'static str> {
    use std::net::IpAddr;
    const METADATA: &str = "a cloud metadata service's address";
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            if v4.is_loopback() {
                None
            } else if v4.octets() == [100, 100, 100, 200] || v4.octets() == [192, 0, 0, 192] {
                Some(METADATA)
            } else if v4.is_link_local() {
                Some("a link-local address, where cloud metadata services answer")
            } else if v4.is_private() || (a == 100 && (64..128).contains(&b)) {
                Some("a private-network address")
            } else if v4.is_unspecified() || v4.is_broadcast() || v4.is_multicast() || a == 0 {
                Some("not a host's address")
            } else {
                None
            }
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped().or_else(|| embedded_v4(v6)) {
                return private_address(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                None
            } else if v6 == std::net::Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
                Some(METADATA)
            } else if first & 0xffc0 == 0xfe80 {
                Some("a link-local address, where cloud metadata services answer")
            } else if first & 0xfe00 == 0xfc00 || first & 0xffc0 == 0xfec0 {
                Some("a private-network address")
            } else if v6.is_unspecified() || v6.is_multicast() {
                Some("not a host's address")
            } else {
                None
            }
        }
    }
}

/// The IPv4 address an IPv6 one carries to the same host: NAT64 (64:ff9b::/96 and the local-use
/// 64:ff9b:1::/48, last 32 bits), 6to4 (2002::/16, the next 32 bits) and the deprecated
/// IPv4-compatible ::a.b.c.d (not :: or ::1).
fn embedded_v4(v6: std::net::Ipv6Addr) -> Option<std::net::Ipv4Addr> {
    let s = v6.segments();
    let last = || std::net::Ipv4Addr::from((u32::from(s[6]) << 16) | u32::from(s[7]));
    let nat64 = s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] || s[..2] == [0x64, 0xff9b] && s[2] == 1;
    if nat64 {
        Some(last())
    } else if s[0] == 0x2002 {
        Some(std::net::Ipv4Addr::from(
            (u32::from(s[1]) << 16) | u32::from(s[2]),
        ))
    } else if s[..6] == [0; 6] && !v6.is_unspecified() && !v6.is_loopback() {
        Some(last())
    } else {
        None
    }
}

/// Host names of cloud metadata services (they resolve to link-local addresses only inside
/// the cloud, so the name itself is refused).
fn metadata_host(host: &str) -> bool {
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    matches!(
        h.as_str(),
        "metadata" | "metadata.google.internal" | "metadata.goog" | "instance-data"
    ) || h.starts_with("instance-data.")
}

/// Why `url`'s host is refused for a model without `allow_private_network`, if it is.
pub fn private_base_url(url: &str) -> Option<String> {
    let u = reqwest::Url::parse(url).ok()?;
    let host = u.host_str()?;
    if metadata_host(host) {
        return Some(format!("{host} is a cloud metadata service's name"));
    }
    let ip: std::net::IpAddr = host.trim_matches(['[', ']']).parse().ok()?;
    private_address(ip).map(|why| format!("{ip} is {why}"))
}
