//! The store's epoch marker (`<ns>:epoch`): when the Redis data set the games live in began.
//!
//! The marker is written once with `SET NX` and never expires, so it lives exactly as long as the
//! data: a Redis that restarts without persistence (or is flushed) comes back without it, and the
//! next replica to ask writes a new one. A game whose id says it was created before the marker,
//! and that is missing although younger than the TTL, was lost with the data (`GAME_LOST`),
//! not expired.
//!
//! The value is `<16 random hex digits>:<Unix milliseconds>`: the random part tells two data sets
//! begun in the same millisecond apart in logs; only the time is read.

use crate::auth::random_bytes;
use crate::error::ApiError;

/// A new marker for a data set that begins at `now_ms`.
pub(super) fn new_marker(now_ms: u64) -> Result<String, ApiError> {
    let random: [u8; 8] = random_bytes()?;
    Ok(format!("{}:{now_ms}", hex::encode(random)))
}

/// The time a marker holds, or `None` when it is not one.
pub(super) fn marker_time(marker: &str) -> Option<u64> {
    let (random, time) = marker.split_once(':')?;
    (random.len() == 16 && random.bytes().all(|byte| byte.is_ascii_hexdigit()))
        .then(|| time.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_hold_their_time() {
        let marker = new_marker(1_764_000_000_123).unwrap();
        assert_eq!(marker_time(&marker), Some(1_764_000_000_123));
        assert_ne!(marker, new_marker(1_764_000_000_123).unwrap());
    }

    #[test]
    fn other_values_are_no_markers() {
        assert_eq!(marker_time(""), None);
        assert_eq!(marker_time("1764000000123"), None);
        assert_eq!(marker_time("zz:1"), None);
        assert_eq!(marker_time("0123456789abcdef:soon"), None);
    }
}
