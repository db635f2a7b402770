//! The `google.rpc` details of a failed call that the load generator acts on, read straight from
//! the status's encoded details (`grpc-status-details-bin`): the `RetryInfo` delay, and whether
//! a `BadRequest` names a faulty field.
//!
//! The details are a protobuf `google.rpc.Status` whose field 3 holds `google.protobuf.Any`
//! messages (type URL, encoded message). Only a handful of fields are needed, so they are read
//! here by hand rather than with a protobuf library of the generator's own; anything malformed
//! reads as no detail, which makes the caller treat the failure as final.

use std::time::Duration;

/// The type of a `google.rpc.RetryInfo` detail, the end of its `Any` type URL.
const RETRY_INFO: &str = "google.rpc.RetryInfo";
/// The type of a `google.rpc.BadRequest` detail.
const BAD_REQUEST: &str = "google.rpc.BadRequest";

/// The delay of the status's `RetryInfo` detail, if it has one.
pub(crate) fn retry_delay(status: &tonic::Status) -> Option<Duration> {
    let info = detail(status.details(), RETRY_INFO)?;
    // RetryInfo: 1 = retry_delay (google.protobuf.Duration: 1 = seconds, 2 = nanos).
    let delay = fields(info).find_map(|(number, value)| match (number, value) {
        (1, Value::Bytes(delay)) => Some(delay),
        _ => None,
    })?;
    let (mut seconds, mut nanos) = (0u64, 0u64);
    for (number, value) in fields(delay) {
        match (number, value) {
            (1, Value::Varint(value)) => seconds = value,
            (2, Value::Varint(value)) => nanos = value,
            _ => {}
        }
    }
    // Negative values (two's complement in a varint) are not a delay to wait for.
    let nanos = u32::try_from(nanos)
        .ok()
        .filter(|&nanos| nanos < 1_000_000_000)?;
    let seconds = i64::try_from(seconds).ok()?.unsigned_abs();
    Some(Duration::new(seconds, nanos))
}

/// Whether the status carries a `BadRequest` detail (a field violation).
pub(crate) fn has_bad_request(status: &tonic::Status) -> bool {
    detail(status.details(), BAD_REQUEST).is_some()
}

/// The encoded message of the first `Any` in `details` (an encoded `google.rpc.Status`) whose
/// type URL ends with `/{type_name}`.
fn detail<'a>(details: &'a [u8], type_name: &str) -> Option<&'a [u8]> {
    fields(details).find_map(|(number, value)| {
        let (3, Value::Bytes(any)) = (number, value) else {
            return None;
        };
        let (mut type_url, mut message) = (None, None);
        for (number, value) in fields(any) {
            match (number, value) {
                (1, Value::Bytes(url)) => type_url = Some(url),
                (2, Value::Bytes(bytes)) => message = Some(bytes),
                _ => {}
            }
        }
        let type_url = std::str::from_utf8(type_url?).ok()?;
        let named = type_url.rsplit('/').next() == Some(type_name);
        // An empty message is encoded as no field at all.
        named.then(|| message.unwrap_or_default())
    })
}

/// A field's value, by wire type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 2: a string, bytes or a nested message.
    Bytes(&'a [u8]),
    /// Wire types 1 and 5, which nothing here reads.
    Fixed,
}

/// The fields of an encoded message, in order, as (field number, value); ends early at the
/// first malformed byte.
fn fields(bytes: &[u8]) -> impl Iterator<Item = (u64, Value<'_>)> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        let key = varint(&mut rest)?;
        let value = match key & 7 {
            0 => Value::Varint(varint(&mut rest)?),
            1 => {
                rest = rest.get(8..)?;
                Value::Fixed
            }
            2 => {
                let length = usize::try_from(varint(&mut rest)?).ok()?;
                let (value, after) = (rest.get(..length)?, rest.get(length..)?);
                rest = after;
                Value::Bytes(value)
            }
            5 => {
                rest = rest.get(4..)?;
                Value::Fixed
            }
            _ => return None,
        };
        Some((key >> 3, value))
    })
}

/// Reads a varint from the front of `bytes`.
fn varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for (index, &byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * index);
        if byte & 0x80 == 0 {
            *bytes = &bytes[index + 1..];
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use deckmate_server::error::ApiError;
    use deckmate_server::protection::status::with_retry;

    use super::*;

    #[test]
    fn the_retry_delay_of_the_server_statuses_is_read() {
        let shed = with_retry(ApiError::Overloaded, Duration::from_millis(1500));
        assert_eq!(retry_delay(&shed), Some(Duration::from_millis(1500)));
        let limited = tonic::Status::from(ApiError::RateLimited {
            message: "too fast".into(),
            retry_after: Duration::new(2, 5),
        });
        assert_eq!(retry_delay(&limited), Some(Duration::new(2, 5)));
        assert!(!has_bad_request(&limited));
        let instant = with_retry(ApiError::Overloaded, Duration::ZERO);
        assert_eq!(retry_delay(&instant), Some(Duration::ZERO));
    }

    #[test]
    fn statuses_without_the_detail_have_none() {
        let seedless = tonic::Status::from(ApiError::InvalidRequest("no seeds here".into()));
        assert_eq!(retry_delay(&seedless), None);
        assert!(!has_bad_request(&seedless));
        let field = tonic::Status::from(ApiError::invalid_field("seats", "too many"));
        assert!(has_bad_request(&field));
        assert_eq!(retry_delay(&field), None);
        assert_eq!(retry_delay(&tonic::Status::unavailable("bare")), None);
    }

    #[test]
    fn malformed_details_read_as_none() {
        for details in [&[0x1a, 0x05, 0x0a][..], &[0xff; 12], &[0x1f]] {
            let status = tonic::Status::with_details(
                tonic::Code::Unavailable,
                "odd",
                details.to_vec().into(),
            );
            assert_eq!(retry_delay(&status), None, "{details:?}");
        }
    }

    #[test]
    fn varints_and_fields_decode() {
        let mut bytes = &[0xac, 0x02, 0x01][..];
        assert_eq!(varint(&mut bytes), Some(300));
        assert_eq!(bytes, [0x01]);
        // Field 1 varint 150, field 2 bytes "hi", field 3 fixed32.
        let message = [0x08, 0x96, 0x01, 0x12, 0x02, b'h', b'i', 0x1d, 1, 2, 3, 4];
        let read: Vec<_> = fields(&message).collect();
        assert_eq!(
            read,
            [
                (1, Value::Varint(150)),
                (2, Value::Bytes(b"hi")),
                (3, Value::Fixed)
            ]
        );
    }
}
