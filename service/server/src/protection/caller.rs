//! Who is calling (docs/OPERATIONS.md, "Limits"): the identity quotas are counted against.
//!
//! With API keys on, a caller that presented a valid key is the key's *name*. Otherwise it is the
//! client's IP address (never IP and port: one client opens many connections). The address is
//! the TCP peer's, unless that peer is a proxy named by `--trusted-proxies`: then the
//! `x-forwarded-for` chain is read from the right, skipping trusted proxies, and the first
//! address not trusted is the caller. Entries left of it were written by the client itself and
//! are never believed.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use ipnet::IpNet;
use tonic::metadata::MetadataMap;

/// The metadata key proxies append the address they received a call from to.
const FORWARDED_FOR: &str = "x-forwarded-for";

/// The identity a call's quotas are counted against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Caller {
    /// The name of the API key the call presented.
    Key(Arc<str>),
    /// The client's address.
    Address(IpAddr),
    /// A call without a known peer (only calls made in process, such as handler tests).
    Unknown,
}

impl fmt::Display for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Caller::Key(name) => write!(f, "key:{name}"),
            Caller::Address(address) => write!(f, "ip:{address}"),
            Caller::Unknown => f.write_str("unknown"),
        }
    }
}

/// The proxies whose `x-forwarded-for` entries are believed (`--trusted-proxies`); none by
/// default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    ranges: Vec<IpNet>,
}

impl TrustedProxies {
    /// Trusts the proxies in `ranges`.
    pub fn new(ranges: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies { ranges }
    }

    /// Whether `address` is a trusted proxy.
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.ranges.iter().any(|range| range.contains(&address))
    }

    /// The client address of a call that arrived from `peer` with `metadata`: `peer` itself
    /// unless it is trusted, else the right-most `x-forwarded-for` entry that is not trusted.
    /// When every entry is trusted, the left-most is the client; when an entry cannot be read,
    /// the nearest trusted hop (the one that wrote it) stands for the client.
    pub fn client_address(&self, peer: IpAddr, metadata: &MetadataMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let entries: Vec<&str> = metadata
            .get_all(FORWARDED_FOR)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .collect();
        for entry in entries.iter().rev() {
            let Some(address) = parse_forwarded(entry) else {
                return client;
            };
            client = address;
            if !self.trusts(address) {
                return address;
            }
        }
        client
    }
}

/// Reads one `x-forwarded-for` entry: an address, optionally with a port (`1.2.3.4:5`,
/// `[::1]:5`), as some proxies write them.
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address.to_canonical());
    }
    entry
        .parse::<std::net::SocketAddr>()
        .ok()
        .map(|socket| socket.ip().to_canonical())
}

/// Reads one `--trusted-proxies` entry: a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a single
/// address (`10.1.2.3`, meaning `/32` or `/128`).
pub fn parse_range(value: &str) -> Result<IpNet, String> {
    let value = value.trim();
    if let Ok(range) = value.parse::<IpNet>() {
        return Ok(range.trunc());
    }
    value
        .parse::<IpAddr>()
        .map(IpNet::from)
        .map_err(|_| format!("`{value}` is neither a CIDR range (10.0.0.0/8) nor an IP address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(ranges: &[&str]) -> TrustedProxies {
        TrustedProxies::new(ranges.iter().map(|r| parse_range(r).unwrap()).collect())
    }

    fn forwarded(values: &[&str]) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        for value in values {
            metadata.append(FORWARDED_FOR, value.parse().unwrap());
        }
        metadata
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_caller_whatever_it_forwards() {
        let none = TrustedProxies::default();
        let metadata = forwarded(&["9.9.9.9"]);
        assert_eq!(none.client_address(ip("1.2.3.4"), &metadata), ip("1.2.3.4"));
        let some = proxies(&["10.0.0.0/8"]);
        assert_eq!(some.client_address(ip("1.2.3.4"), &metadata), ip("1.2.3.4"));
    }

    #[test]
    fn a_trusted_peer_hands_over_the_right_most_untrusted_entry() {
        let trusted = proxies(&["10.0.0.0/8", "192.168.1.7"]);
        // The client forged 6.6.6.6; 5.5.5.5 reached the first trusted proxy.
        let metadata = forwarded(&["6.6.6.6, 5.5.5.5", "10.1.1.1"]);
        assert_eq!(
            trusted.client_address(ip("192.168.1.7"), &metadata),
            ip("5.5.5.5")
        );
    }

    #[test]
    fn all_trusted_means_the_left_most_and_garbage_stops_the_walk() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let metadata = forwarded(&["10.0.0.3, 10.0.0.2"]);
        assert_eq!(
            trusted.client_address(ip("10.0.0.1"), &metadata),
            ip("10.0.0.3")
        );
        let metadata = forwarded(&["5.5.5.5, nonsense, 10.0.0.2"]);
        assert_eq!(
            trusted.client_address(ip("10.0.0.1"), &metadata),
            ip("10.0.0.2")
        );
        // No header at all: the proxy itself is all we know.
        assert_eq!(
            trusted.client_address(ip("10.0.0.1"), &MetadataMap::new()),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn ports_and_mapped_addresses_are_normalised() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let metadata = forwarded(&["5.5.5.5:4711"]);
        assert_eq!(
            trusted.client_address(ip("::ffff:10.0.0.1"), &metadata),
            ip("5.5.5.5")
        );
        let metadata = forwarded(&["[2001:db8::1]:80"]);
        assert_eq!(
            trusted.client_address(ip("10.0.0.1"), &metadata),
            ip("2001:db8::1")
        );
    }

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("10.0.0.0/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(parse_range("10.1.2.3/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(parse_range("10.1.2.3").unwrap().to_string(), "10.1.2.3/32");
        assert_eq!(parse_range("fd00::/8").unwrap().to_string(), "fd00::/8");
        assert!(parse_range("10.0.0.0/33").is_err());
        assert!(parse_range("proxy.local").is_err());
    }

    #[test]
    fn callers_display_without_secrets() {
        assert_eq!(Caller::Key("web".into()).to_string(), "key:web");
        assert_eq!(Caller::Address(ip("1.2.3.4")).to_string(), "ip:1.2.3.4");
    }
}
