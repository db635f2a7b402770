//! Idempotency keys for `CreateGame` and `Act`.

/// A fresh request id: a random (version 4) UUID in its hyphenated text form.
///
/// The server applies a request at most once per id (per game and seat for `Act`), so the
/// client sends the same id again when it retries after a failure that may have hidden a
/// success. Ids must be unguessable, which random UUIDs are: their bits come from a
/// cryptographically secure generator kept per thread and seeded from the operating system
/// (uuid's `fast-rng`), so that a call costs no system call of its own.
pub fn new_request_id() -> String {
    let mut text = uuid::Uuid::encode_buffer();
    uuid::Uuid::new_v4()
        .hyphenated()
        .encode_lower(&mut text)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn request_ids_are_random_v4_uuids() {
        let id = new_request_id();
        let parsed = uuid::Uuid::parse_str(&id).expect("a UUID");
        assert_eq!(parsed.get_version(), Some(uuid::Version::Random));
        assert_eq!(parsed.get_variant(), uuid::Variant::RFC4122);
        assert_eq!(id.len(), 36);
        assert_eq!(id, id.to_lowercase());
    }

    #[test]
    fn request_ids_do_not_repeat() {
        let ids: HashSet<String> = (0..1000).map(|_| new_request_id()).collect();
        assert_eq!(ids.len(), 1000);
    }
}
