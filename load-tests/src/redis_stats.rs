//! [`RedisMeter`]: what the Redis nodes behind the servers spent (`--redis-url`), read from
//! `INFO commandstats` (the microseconds spent in each command, summed over every command) and
//! `INFO stats` (`total_net_input_bytes` + `total_net_output_bytes`) of each node at the start
//! and the end of each measured window.
//!
//! The counters are the whole node's: every client's commands and traffic count, the meter's
//! own two `INFO` calls per reading included (a few kilobytes per window).

use std::time::Duration;

use redis::AsyncConnectionConfig;
use redis::aio::MultiplexedConnection;

/// How long connecting to a node or one `INFO` call may take.
const TIMEOUT: Duration = Duration::from_secs(5);

/// A node's counters at one moment, or their growth over a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RedisCounters {
    /// Microseconds spent executing commands.
    pub(crate) cpu_us: u64,
    /// Bytes received and sent over the network.
    pub(crate) net_bytes: u64,
}

impl RedisCounters {
    /// The growth from `start` to `self`; fails when a counter went down (a restarted node, or
    /// `CONFIG RESETSTAT` in the window).
    pub(crate) fn since(self, start: RedisCounters) -> Result<RedisCounters, String> {
        match (
            self.cpu_us.checked_sub(start.cpu_us),
            self.net_bytes.checked_sub(start.net_bytes),
        ) {
            (Some(cpu_us), Some(net_bytes)) => Ok(RedisCounters { cpu_us, net_bytes }),
            _ => Err(
                "the Redis counters went down during the window (a node restarted or its \
                 statistics were reset)"
                    .to_string(),
            ),
        }
    }
}

/// The Redis nodes whose work a run measures.
#[derive(Clone)]
pub(crate) struct RedisMeter {
    /// Each node's URL as shown (credentials masked) and a connection to it.
    nodes: Vec<(String, MultiplexedConnection)>,
}

impl std::fmt::Debug for RedisMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown: Vec<&str> = self.nodes.iter().map(|(url, _)| url.as_str()).collect();
        f.debug_struct("RedisMeter").field("nodes", &shown).finish()
    }
}

impl RedisMeter {
    /// Connects to every node of `urls` and reads each once, so that an unreachable node fails
    /// before any load is sent; `None` when no URL is given.
    pub(crate) async fn open(urls: &[String]) -> Result<Option<RedisMeter>, String> {
        if urls.is_empty() {
            return Ok(None);
        }
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT));
        let mut nodes = Vec::with_capacity(urls.len());
        for url in urls {
            let shown = masked(url);
            let client = redis::Client::open(url.as_str())
                .map_err(|error| format!("bad Redis URL `{shown}`: {error}"))?;
            let connection = client
                .get_multiplexed_async_connection_with_config(&config)
                .await
                .map_err(|error| format!("cannot connect to Redis at `{shown}`: {error}"))?;
            nodes.push((shown, connection));
        }
        let meter = RedisMeter { nodes };
        meter.sample().await?;
        Ok(Some(meter))
    }

    /// The nodes' counters so far, summed.
    pub(crate) async fn sample(&self) -> Result<RedisCounters, String> {
        let mut total = RedisCounters::default();
        for (shown, connection) in &self.nodes {
            let mut connection = connection.clone();
            let commands = info(&mut connection, "commandstats", shown).await?;
            let stats = info(&mut connection, "stats", shown).await?;
            let node = parse_info(&format!("{commands}\n{stats}"))
                .map_err(|error| format!("INFO at `{shown}`: {error}"))?;
            total.cpu_us = total.cpu_us.saturating_add(node.cpu_us);
            total.net_bytes = total.net_bytes.saturating_add(node.net_bytes);
        }
        Ok(total)
    }

    /// The nodes' URLs, credentials masked.
    pub(crate) fn shown_urls(&self) -> Vec<String> {
        self.nodes.iter().map(|(url, _)| url.clone()).collect()
    }
}

/// The text of `INFO section` of the node at `shown`.
async fn info(
    connection: &mut MultiplexedConnection,
    section: &str,
    shown: &str,
) -> Result<String, String> {
    redis::cmd("INFO")
        .arg(section)
        .query_async::<String>(connection)
        .await
        .map_err(|error| format!("INFO {section} failed at `{shown}`: {error}"))
}

/// The counters in the text of `INFO commandstats` and `INFO stats`: the sum of `usec` over
/// the `cmdstat_*` lines, and `total_net_input_bytes` + `total_net_output_bytes`.
pub(crate) fn parse_info(text: &str) -> Result<RedisCounters, String> {
    let mut cpu_us: u64 = 0;
    let mut input = None;
    let mut output = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        if key.starts_with("cmdstat_") {
            // `calls=3,usec=42,usec_per_call=14.00,...`: the key `usec` exactly, not its
            // `usec_per_call` neighbour.
            let usec = value
                .split(',')
                .filter_map(|pair| pair.split_once('='))
                .find(|(name, _)| *name == "usec")
                .ok_or_else(|| format!("`{key}` has no usec"))?
                .1;
            let usec = usec
                .parse::<u64>()
                .map_err(|_| format!("`{key}` has usec `{usec}`, not a count"))?;
            cpu_us = cpu_us.saturating_add(usec);
        } else if key == "total_net_input_bytes" {
            input = Some(count(key, value)?);
        } else if key == "total_net_output_bytes" {
            output = Some(count(key, value)?);
        }
    }
    match (input, output) {
        (Some(input), Some(output)) => Ok(RedisCounters {
            cpu_us,
            net_bytes: input.saturating_add(output),
        }),
        _ => Err("no total_net_input_bytes and total_net_output_bytes in INFO stats".to_string()),
    }
}

/// The count `value` of INFO field `key`.
fn count(key: &str, value: &str) -> Result<u64, String> {
    value
        .parse()
        .map_err(|_| format!("`{key}` is `{value}`, not a count"))
}

/// `url` with its password (or whole user-info part) replaced by `***`, for reports and errors.
pub(crate) fn masked(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => (String::new(), url),
    };
    let (authority, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}***@{host}{path}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `INFO commandstats` then `INFO stats` as Redis 7 writes them (CRLF line ends).
    const INFO: &str = "# Commandstats\r\n\
        cmdstat_evalsha:calls=120,usec=3600,usec_per_call=30.00,rejected_calls=0,failed_calls=1\r\n\
        cmdstat_get:calls=10,usec=25,usec_per_call=2.50,rejected_calls=0,failed_calls=0\r\n\
        cmdstat_client|setname:calls=2,usec=3,usec_per_call=1.50,rejected_calls=0,failed_calls=0\r\n\
        \r\n\
        # Stats\r\n\
        total_connections_received:12\r\n\
        total_commands_processed:132\r\n\
        total_net_input_bytes:50000\r\n\
        total_net_output_bytes:70000\r\n\
        total_net_repl_input_bytes:999\r\n\
        instantaneous_input_kbps:1.25\r\n";

    #[test]
    fn usec_is_summed_over_every_command_and_both_directions_of_traffic() {
        assert_eq!(
            parse_info(INFO),
            Ok(RedisCounters {
                cpu_us: 3628,
                net_bytes: 120_000
            })
        );
    }

    #[test]
    fn a_node_that_ran_no_command_yet_spent_nothing() {
        let idle =
            "# Commandstats\n\n# Stats\ntotal_net_input_bytes:14\ntotal_net_output_bytes:0\n";
        assert_eq!(
            parse_info(idle),
            Ok(RedisCounters {
                cpu_us: 0,
                net_bytes: 14
            })
        );
    }

    #[test]
    fn incomplete_or_garbled_sections_are_refused() {
        let commands_only = INFO.split("# Stats").next().unwrap();
        assert!(parse_info(commands_only).unwrap_err().contains("total_net"));
        let garbled = INFO.replace("usec=25,", "usec=lots,");
        assert!(parse_info(&garbled).unwrap_err().contains("cmdstat_get"));
        let no_usec = INFO.replace("usec=25,", "");
        assert!(parse_info(&no_usec).unwrap_err().contains("no usec"));
        let bad_bytes = INFO.replace("total_net_output_bytes:70000", "total_net_output_bytes:-1");
        assert!(parse_info(&bad_bytes).is_err());
    }

    #[test]
    fn growth_over_a_window_is_checked() {
        let start = RedisCounters {
            cpu_us: 100,
            net_bytes: 1000,
        };
        let end = RedisCounters {
            cpu_us: 350,
            net_bytes: 1600,
        };
        assert_eq!(
            end.since(start),
            Ok(RedisCounters {
                cpu_us: 250,
                net_bytes: 600
            })
        );
        assert!(start.since(end).is_err());
    }

    #[test]
    fn credentials_are_masked() {
        assert_eq!(
            masked("redis://user:secret@10.0.0.1:6379/2"),
            "redis://***@10.0.0.1:6379/2"
        );
        assert_eq!(masked("rediss://:pw@cache:6380"), "rediss://***@cache:6380");
        assert_eq!(masked("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
    }
}
