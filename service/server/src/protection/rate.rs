//! `--create-rate`: how many games one caller may create per period (a token bucket with
//! `--create-burst` tokens, from the `governor` crate), keyed by [`Caller`].

use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::caller::Caller;

/// Callers remembered before idle ones (with a full bucket again) are forgotten.
const FORGET_ABOVE: usize = 10_000;

/// A rate such as `60/min`, or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rate {
    /// No limit.
    Off,
    /// At most `count` per `period` on average.
    Limit {
        /// Events per period.
        count: NonZeroU32,
        /// The period.
        period: Duration,
    },
}

impl Rate {
    /// The default CreateGame rate: 60 a minute.
    pub const DEFAULT: Rate = Rate::Limit {
        count: NonZeroU32::new(60).expect("non-zero"),
        period: Duration::from_secs(60),
    };

    /// Reads `off` or `<count>/<unit>`, where the unit is `s`, `sec`, `second`, `m`, `min`,
    /// `minute`, `h` or `hour` (such as `60/min`, `5/s`, `1000/hour`).
    pub fn parse(value: &str) -> Result<Rate, String> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("off") {
            return Ok(Rate::Off);
        }
        let bad = || format!("`{value}` is not a rate like 60/min, 5/s or 1000/hour (or `off`)");
        let (count, unit) = value.split_once('/').ok_or_else(bad)?;
        let count: NonZeroU32 = count.trim().parse().map_err(|_| bad())?;
        let period = match unit.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "second" => Duration::from_secs(1),
            "m" | "min" | "minute" => Duration::from_secs(60),
            "h" | "hour" => Duration::from_secs(3600),
            _ => return Err(bad()),
        };
        Ok(Rate::Limit { count, period })
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rate::Off => f.write_str("off"),
            Rate::Limit { count, period } => {
                let unit = match period.as_secs() {
                    1 => "s",
                    60 => "min",
                    _ => "hour",
                };
                write!(f, "{count}/{unit}")
            }
        }
    }
}

/// The CreateGame rate limit per caller.
pub struct CreateRate {
    limiter: Option<DefaultKeyedRateLimiter<Caller>>,
}

impl fmt::Debug for CreateRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CreateRate")
            .field("on", &self.limiter.is_some())
            .finish()
    }
}

impl CreateRate {
    /// `rate` per caller, with buckets of `burst` (at least 1).
    pub fn new(rate: Rate, burst: u32) -> CreateRate {
        let limiter = match rate {
            Rate::Off => None,
            Rate::Limit { count, period } => {
                let every = (period / count.get()).max(Duration::from_nanos(1));
                let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
                Quota::with_period(every).map(|quota| RateLimiter::keyed(quota.allow_burst(burst)))
            }
        };
        CreateRate { limiter }
    }

    /// Takes one token of `caller`'s bucket; when it is empty, how long until the next one.
    pub fn check(&self, caller: &Caller) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() > FORGET_ABOVE {
            limiter.retain_recent();
        }
        limiter
            .check_key(caller)
            .map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_and_print() {
        assert_eq!(Rate::parse("60/min"), Ok(Rate::DEFAULT));
        assert_eq!(Rate::parse("60/minute"), Ok(Rate::DEFAULT));
        assert_eq!(Rate::parse(" OFF "), Ok(Rate::Off));
        assert_eq!(
            Rate::parse("5/s"),
            Ok(Rate::Limit {
                count: NonZeroU32::new(5).unwrap(),
                period: Duration::from_secs(1)
            })
        );
        assert_eq!(Rate::parse("1000/hour").unwrap().to_string(), "1000/hour");
        assert_eq!(Rate::DEFAULT.to_string(), "60/min");
        for bad in ["0/min", "60", "60/day", "many/min", "-1/s"] {
            assert!(Rate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_burst_is_allowed_then_the_caller_waits() {
        let rate = CreateRate::new(Rate::DEFAULT, 3);
        let me = Caller::Key("me".into());
        let other = Caller::Key("other".into());
        for _ in 0..3 {
            rate.check(&me).unwrap();
        }
        let wait = rate.check(&me).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // Buckets are per caller.
        rate.check(&other).unwrap();
    }

    #[test]
    fn off_never_refuses() {
        let rate = CreateRate::new(Rate::Off, 1);
        let me = Caller::Unknown;
        for _ in 0..100 {
            rate.check(&me).unwrap();
        }
    }
}
