//! [`ExternalMeters`]: what a run measures outside its own process, the server processes' CPU
//! time (`--server-pid`) and the Redis nodes' command time and traffic (`--redis-url`), each
//! read at the opening and the closing of a phase's measured window.

use std::time::Duration;

use crate::redis_stats::{RedisCounters, RedisMeter};
use crate::server_cpu::ServerCpu;

/// The meters a run was asked for; each is `None` when not requested.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExternalMeters {
    /// The server processes' CPU time.
    pub(crate) server: Option<ServerCpu>,
    /// The Redis nodes' counters.
    pub(crate) redis: Option<RedisMeter>,
}

/// The meters' readings at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExternalReading {
    server_cpu: Option<Result<Duration, String>>,
    redis: Option<Result<RedisCounters, String>>,
}

/// What the meters saw over a window. A figure is `None` when it was not requested or could
/// not be read; `errors` says why for the latter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExternalUsage {
    /// CPU time of the server processes.
    pub(crate) server_cpu: Option<Duration>,
    /// Command time and traffic of the Redis nodes.
    pub(crate) redis: Option<RedisCounters>,
    /// Readings that failed.
    pub(crate) errors: Vec<String>,
}

impl ExternalMeters {
    /// Reads every requested meter now.
    pub(crate) async fn read(&self) -> ExternalReading {
        let server_cpu = self.server.as_ref().map(ServerCpu::sample);
        let redis = match &self.redis {
            Some(redis) => Some(redis.sample().await),
            None => None,
        };
        ExternalReading { server_cpu, redis }
    }
}

impl ExternalUsage {
    /// The usage from reading `start` to reading `end`.
    pub(crate) fn between(start: ExternalReading, end: ExternalReading) -> ExternalUsage {
        let mut errors = Vec::new();
        let server_cpu = growth(
            start.server_cpu,
            end.server_cpu,
            "server CPU",
            |end: Duration, start| {
                end.checked_sub(start)
                    .ok_or_else(|| "the processes' CPU time went down".to_string())
            },
            &mut errors,
        );
        let redis = growth(
            start.redis,
            end.redis,
            "Redis",
            |end: RedisCounters, start| end.since(start),
            &mut errors,
        );
        ExternalUsage {
            server_cpu,
            redis,
            errors,
        }
    }
}

/// The growth `since(end, start)` of one meter, or `None` with the reason added to `errors`
/// (nothing added when the meter was not requested).
fn growth<T>(
    start: Option<Result<T, String>>,
    end: Option<Result<T, String>>,
    what: &str,
    since: impl Fn(T, T) -> Result<T, String>,
    errors: &mut Vec<String>,
) -> Option<T> {
    let grown = match (start, end) {
        (Some(Ok(start)), Some(Ok(end))) => since(end, start),
        (Some(Err(error)), _) | (_, Some(Err(error))) => Err(error),
        _ => return None,
    };
    grown
        .map_err(|error| errors.push(format!("{what}: {error}")))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(cpu_ms: u64, redis: (u64, u64)) -> ExternalReading {
        ExternalReading {
            server_cpu: Some(Ok(Duration::from_millis(cpu_ms))),
            redis: Some(Ok(RedisCounters {
                cpu_us: redis.0,
                net_bytes: redis.1,
            })),
        }
    }

    #[test]
    fn usage_is_the_growth_over_the_window() {
        let usage = ExternalUsage::between(reading(100, (10, 500)), reading(350, (70, 1500)));
        assert_eq!(usage.server_cpu, Some(Duration::from_millis(250)));
        assert_eq!(
            usage.redis,
            Some(RedisCounters {
                cpu_us: 60,
                net_bytes: 1000
            })
        );
        assert!(usage.errors.is_empty());
    }

    #[test]
    fn meters_not_requested_give_nothing_and_no_error() {
        let usage = ExternalUsage::between(ExternalReading::default(), ExternalReading::default());
        assert_eq!(usage, ExternalUsage::default());
    }

    #[test]
    fn failed_or_backward_readings_give_no_figure_and_say_why() {
        let mut end = reading(50, (70, 1500));
        end.redis = Some(Err("INFO stats failed".into()));
        let usage = ExternalUsage::between(reading(100, (10, 500)), end);
        assert_eq!((usage.server_cpu, usage.redis), (None, None));
        assert_eq!(usage.errors.len(), 2, "{:?}", usage.errors);
        assert!(
            usage.errors[0].starts_with("server CPU"),
            "{:?}",
            usage.errors
        );
        assert!(
            usage.errors[1].contains("INFO stats failed"),
            "{:?}",
            usage.errors
        );
    }
}
