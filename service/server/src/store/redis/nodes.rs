//! The nodes of a `redis-cluster://[user:pass@]h1:p1,h2:p2,...` store URL: each seed node as a
//! `redis://` URL the cluster client connects to first (it learns the rest of the cluster from
//! them).

/// The seed nodes of a `redis-cluster://` URL, each as `redis://[user:pass@]host:port`, or why
/// the URL is unusable. Errors never repeat the credentials.
pub fn cluster_nodes(url: &str) -> Result<Vec<String>, String> {
    let rest = url
        .split_once("://")
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("redis-cluster"))
        .map(|(_, rest)| rest)
        .ok_or("a Redis Cluster URL starts with `redis-cluster://`")?;
    let (credentials, hosts) = match rest.rsplit_once('@') {
        Some((credentials, hosts)) => (Some(credentials), hosts),
        None => (None, rest),
    };
    // A trailing path or query (`/0`, `?x`) has no meaning for a cluster.
    if hosts.contains(['/', '?', '#']) {
        return Err("a Redis Cluster URL names nodes only: `host:port,host:port,...`".into());
    }
    let mut nodes = Vec::new();
    for host in hosts.split(',').map(str::trim) {
        let port = host
            .rsplit_once(':')
            .map(|(name, port)| (name, port.parse::<u16>()))
            .filter(|(name, port)| !name.is_empty() && port.is_ok());
        if port.is_none() {
            return Err(format!(
                "`{host}` is not a `host:port` node of a Redis Cluster URL"
            ));
        }
        nodes.push(match credentials {
            Some(credentials) => format!("redis://{credentials}@{host}"),
            None => format!("redis://{host}"),
        });
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_becomes_a_redis_url_with_the_credentials() {
        assert_eq!(
            cluster_nodes("redis-cluster://a:7000,b:7001").unwrap(),
            vec!["redis://a:7000", "redis://b:7001"]
        );
        assert_eq!(
            cluster_nodes("redis-cluster://user:pw@a:7000, 10.0.0.2:7001").unwrap(),
            vec!["redis://user:pw@a:7000", "redis://user:pw@10.0.0.2:7001"]
        );
        assert_eq!(
            cluster_nodes("REDIS-CLUSTER://:pw@[::1]:7000").unwrap(),
            vec!["redis://:pw@[::1]:7000"]
        );
    }

    #[test]
    fn malformed_urls_are_refused_without_the_password() {
        for url in [
            "redis://a:7000",
            "redis-cluster://",
            "redis-cluster://user:hunter2@a",
            "redis-cluster://user:hunter2@a:7000,",
            "redis-cluster://a:port",
            "redis-cluster://a:7000/0",
        ] {
            let error = cluster_nodes(url).unwrap_err();
            assert!(!error.contains("hunter2"), "{url}: {error}");
        }
    }
}
