//! Whether a replica's copy of a game is the stored version, asked with one plain `HMGET` of
//! the game hash's `version` and `tail` rather than with the load script.
//!
//! A read by the replica that served the game's last action (most `Observe` calls) finds its
//! copy current. The load script confirms that too, but a script call costs Redis several times
//! a plain `HMGET` (docs/PERFORMANCE.md, "A current copy confirmed without a script"). The
//! answer is the script's: the hash names the copy's version and, in its `tail`
//! (`<version>:<last log item>`, written by every commit that writes the log), the copy's last
//! action, read together in one atomic command. A `tail` naming the stored version was written
//! by the commit that made that version, so that commit wrote the log (record format 2 or later:
//! a format-1 commit writes no `tail`, and every commit raises the version), or, for version 0,
//! by the game's creation (`0:`: no last item). Anything else (no
//! `tail`, a `tail` an older version left, another version) is "not known to be current", and
//! the caller reads with the load script, which decides from the log itself. The format is not
//! read: each value of an answer costs the client's parser more than the comparison saves.
//!
//! The check is made only where the last read of the game on this replica found its copy
//! current (`record_cache`): where another replica keeps committing, it would fail every time
//! and add a round trip to the script's.

use ::redis::{Cmd, Value};

/// The `HMGET` that reads what [`is_current`] needs from the game hash at `game_key`.
pub(super) fn head_of(game_key: &str) -> Cmd {
    let mut command = ::redis::cmd("HMGET");
    command.arg(game_key).arg("version").arg("tail");
    command
}

/// Whether `reply` (to [`head_of`]) shows the stored game at version `held` with `last` as its
/// log's last item: a stored version of `held` whose `tail` is exactly `<held>:<last>`.
pub(super) fn is_current(reply: &Value, held: u64, last: &[u8]) -> bool {
    let Value::Array(fields) = reply else {
        return false;
    };
    let [Value::BulkString(version), Value::BulkString(tail)] = fields.as_slice() else {
        return false;
    };
    decimal(version) == Some(held)
        && tail
            .iter()
            .position(|&byte| byte == b':')
            .is_some_and(|colon| {
                decimal(&tail[..colon]) == Some(held) && &tail[colon + 1..] == last
            })
}

/// The number `text` spells in decimal (as the commit script writes versions), if any.
fn decimal(text: &[u8]) -> Option<u64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(version: Option<&str>, tail: Option<&[u8]>) -> Value {
        let field = |text: Option<&[u8]>| match text {
            Some(bytes) => Value::BulkString(bytes.to_vec()),
            None => Value::Nil,
        };
        Value::Array(vec![field(version.map(str::as_bytes)), field(tail)])
    }

    #[test]
    fn a_tail_naming_the_held_version_and_last_item_is_current() {
        let reply = head(Some("12"), Some(b"12:\x01\x02:\x03"));
        assert!(is_current(&reply, 12, b"\x01\x02:\x03"));
    }

    #[test]
    fn a_new_games_tail_confirms_a_copy_without_actions() {
        let reply = head(Some("0"), Some(b"0:"));
        assert!(is_current(&reply, 0, b""));
        assert!(!is_current(&reply, 1, b""), "a copy of another version");
        assert!(
            !is_current(&head(Some("0"), None), 0, b""),
            "a game created by a release without the field"
        );
        assert!(
            !is_current(&head(Some("1"), Some(b"0:")), 0, b""),
            "the creation's tail left behind by a commit that writes none"
        );
    }

    #[test]
    fn anything_else_is_not_known_to_be_current() {
        let last: &[u8] = b"e2e4";
        let cases = [
            ("another last item", head(Some("12"), Some(b"12:e7e5"))),
            (
                "a tail an older version left",
                head(Some("12"), Some(b"11:e2e4")),
            ),
            (
                "a tail whose version only starts alike",
                head(Some("12"), Some(b"123:e2e4")),
            ),
            ("another stored version", head(Some("13"), Some(b"12:e2e4"))),
            ("no tail", head(Some("12"), None)),
            ("no game", head(None, None)),
            ("an answer of another shape", Value::Array(vec![])),
            ("not an array", Value::Okay),
        ];
        for (case, reply) in cases {
            assert!(!is_current(&reply, 12, last), "{case}");
        }
    }
}
