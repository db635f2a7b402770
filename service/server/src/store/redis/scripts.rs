//! The Lua scripts that make every multi-step change atomic (docs/ARCHITECTURE.md §4), and the
//! parsing of their answers.
//!
//! Scripts declare every key they touch in `KEYS` (the `#!lua` shebang enforces it, and the
//! keys of one call share one hash tag, so they also run on Redis Cluster). The shebang also
//! makes Redis refuse a write script up front when it is out of memory (`noeviction`), instead
//! of failing it half-way. A script that fails part-way keeps the writes it made, so each script
//! does everything that can fail before its first write. Versions travel as decimal strings and
//! are compared as strings, never as Lua numbers (which lose precision above 2^53).
//!
//! Scripts need Redis 7.0 or later.

use ::redis::Script;

use crate::store::{CommitOutcome, StoreError};

/// Creates a game unless its hash exists; clears stale events and requests left by an earlier
/// game of the same id, writes the hash (with the time its game-index entry is next due for a
/// refresh, half a TTL from now) and starts its TTL.
///
/// KEYS: game, events, requests. ARGV: format, version, record, ttl (ms).
/// Returns 1 when created, 0 when the id is taken.
const CREATE: &str = r"#!lua
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'format', ARGV[1], 'version', ARGV[2], 'record', ARGV[3],
  'index_due', now + math.floor(tonumber(ARGV[4]) / 2))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
";

/// One commit: the request window is checked first (a retry is a duplicate whatever version it
/// read), then the version; only then are the stream entry, the record, the request key (the
/// window is a sorted set of `<seat>:<hex>` scored by the version it produced, trimmed to its
/// newest entries) and every key's TTL written. It also tells the caller when the game's index
/// entry is due for a refresh (at most once per half TTL, so commits rarely pay for it).
///
/// KEYS: game, events, requests.
/// ARGV: expected version, new version, format, record, ttl (ms), request entry (`<seat>:<hex>`,
/// or empty), request window, stream length cap, and the game's shard channel to publish the
/// new version on (a Redis Cluster; empty on one server, whose watchers read the stream).
/// Returns `{'committed', v, refresh index ('1' or '0')}`, `{'conflict', current}`,
/// `{'duplicate', v}` or `{'not_found'}`; `{'not_newer', current}` refuses a record that is not
/// newer than the stored one (a caller bug) before anything is written.
const COMMIT: &str = r"#!lua
local stored = redis.call('HMGET', KEYS[1], 'version', 'index_due')
local current = stored[1]
if not current then
  return {'not_found'}
end
local request = ARGV[6]
if request ~= '' then
  local seen = redis.call('ZSCORE', KEYS[3], request)
  if seen then
    return {'duplicate', string.format('%.0f', tonumber(seen))}
  end
end
if current ~= ARGV[1] then
  return {'conflict', current}
end
local version = ARGV[2]
if tonumber(version) <= tonumber(current) then
  return {'not_newer', current}
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local refresh = now >= tonumber(stored[2] or '0')
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], version .. '-0', 'version', version)
if ARGV[9] ~= '' then
  redis.call('SPUBLISH', ARGV[9], version)
end
if refresh then
  redis.call('HSET', KEYS[1], 'format', ARGV[3], 'version', version, 'record', ARGV[4],
    'index_due', now + math.floor(tonumber(ARGV[5]) / 2))
else
  redis.call('HSET', KEYS[1], 'format', ARGV[3], 'version', version, 'record', ARGV[4])
end
if request ~= '' then
  redis.call('ZADD', KEYS[3], version, request)
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -1 - tonumber(ARGV[7]))
end
for _, key in ipairs(KEYS) do
  redis.call('PEXPIRE', key, ARGV[5])
end
return {'committed', version, refresh and '1' or '0'}
";

/// Takes a slot of the game limit for a new game: forgets index entries whose game has expired,
/// then admits the id if it is already counted or the count is below the limit. An entry's
/// score is when it stops counting, on the Redis clock: one and a half TTLs after its last
/// refresh. Refreshes come at most half a TTL apart while the game is played (see [`COMMIT`]),
/// so a live game is always counted, and an expired one for at most half a TTL more. The index
/// itself expires once every entry has.
///
/// KEYS: index. ARGV: game id, ttl (ms), the most games.
/// Returns 1 when admitted, 0 at the limit.
const RESERVE: &str = r"#!lua
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
  end
end
local deadline = now + ttl + math.floor(ttl / 2)
redis.call('ZADD', KEYS[1], deadline, ARGV[1])
if redis.call('PTTL', KEYS[1]) < deadline - now then
  redis.call('PEXPIRE', KEYS[1], deadline - now)
end
return 1
";

/// Counts the games the index still counts (see [`RESERVE`]) on the Redis clock.
///
/// KEYS: index. Returns the count.
const LIVE_GAMES: &str = r"#!lua
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
";

/// Refreshes a counted game's index entry (see [`RESERVE`]) when a commit says it is due; never
/// adds a game.
///
/// KEYS: index. ARGV: game id, ttl (ms).
const TOUCH: &str = r"#!lua
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local ttl = tonumber(ARGV[2])
local deadline = now + ttl + math.floor(ttl / 2)
redis.call('ZADD', KEYS[1], 'XX', 'GT', deadline, ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('PTTL', KEYS[1]) < deadline - now then
  redis.call('PEXPIRE', KEYS[1], deadline - now)
end
return 1
";

/// Remembers a CreateGame answer unless its key is taken; returns nil when stored, or the
/// entry that was there first.
///
/// KEYS: the create key. ARGV: the entry, window (ms).
const PUT_CREATE: &str = r"#!lua
local existing = redis.call('GET', KEYS[1])
if existing then
  return existing
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
";

/// The compiled scripts (each is sent by its SHA-1 and loaded on first use, or again after a
/// Redis restart forgot it).
#[derive(Debug)]
pub(super) struct Scripts {
    pub(super) live_games: Script,
    pub(super) create: Script,
    pub(super) commit: Script,
    pub(super) reserve: Script,
    pub(super) touch: Script,
    pub(super) put_create: Script,
}

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            live_games: Script::new(LIVE_GAMES),
            create: Script::new(CREATE),
            commit: Script::new(COMMIT),
            reserve: Script::new(RESERVE),
            touch: Script::new(TOUCH),
            put_create: Script::new(PUT_CREATE),
        }
    }
}

/// Reads the answer of [`COMMIT`]: the outcome, and whether the game's index entry is due for
/// a refresh.
pub(super) fn commit_outcome(reply: &[String]) -> Result<(CommitOutcome, bool), StoreError> {
    let version = |text: &str| {
        text.parse::<u64>().map_err(|_| {
            StoreError::Corrupt(format!("the commit script returned version {text:?}"))
        })
    };
    match reply {
        [tag] if tag == "not_found" => Ok((CommitOutcome::NotFound, false)),
        [tag, value, refresh] if tag == "committed" => Ok((
            CommitOutcome::Committed {
                version: version(value)?,
            },
            refresh == "1",
        )),
        [tag, value] if tag == "conflict" => Ok((
            CommitOutcome::Conflict {
                current_version: version(value)?,
            },
            false,
        )),
        [tag, value] if tag == "duplicate" => Ok((
            CommitOutcome::Duplicate {
                version: version(value)?,
            },
            false,
        )),
        [tag, value] if tag == "not_newer" => Err(StoreError::Corrupt(format!(
            "a commit over version {value} carried a record that is not newer"
        ))),
        other => Err(StoreError::Corrupt(format!(
            "the commit script returned {other:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|part| part.to_string()).collect()
    }

    #[test]
    fn commit_answers_parse() {
        assert_eq!(
            commit_outcome(&reply(&["committed", "7", "0"])),
            Ok((CommitOutcome::Committed { version: 7 }, false))
        );
        assert_eq!(
            commit_outcome(&reply(&["committed", "8", "1"])),
            Ok((CommitOutcome::Committed { version: 8 }, true))
        );
        assert_eq!(
            commit_outcome(&reply(&["conflict", "3"])),
            Ok((CommitOutcome::Conflict { current_version: 3 }, false))
        );
        assert_eq!(
            commit_outcome(&reply(&["duplicate", "2"])),
            Ok((CommitOutcome::Duplicate { version: 2 }, false))
        );
        assert_eq!(
            commit_outcome(&reply(&["not_found"])),
            Ok((CommitOutcome::NotFound, false))
        );
        assert!(commit_outcome(&reply(&["not_newer", "4"])).is_err());
        assert!(commit_outcome(&reply(&["committed", "x", "0"])).is_err());
        assert!(commit_outcome(&reply(&["committed", "7"])).is_err());
        assert!(commit_outcome(&reply(&["weird"])).is_err());
        assert!(commit_outcome(&[]).is_err());
    }

    #[test]
    fn every_script_declares_itself_lua_for_key_checks() {
        for script in [CREATE, COMMIT, RESERVE, TOUCH, PUT_CREATE] {
            assert!(script.starts_with("#!lua\n"));
        }
    }
}
