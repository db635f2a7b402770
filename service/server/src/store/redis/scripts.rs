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

use ::redis::{Script, Value};

use crate::store::{CommitOutcome, StoreError};

/// Creates a game unless its hash exists; clears stale events, requests and log left by an
/// earlier game of the same id, writes the hash (with the time its game-index entry is next due
/// for a refresh, half a TTL from now) and starts its TTL. A new game has no actions, so its log
/// starts empty in either record format. In record format 2 or later, a game created at version
/// 0 also gets the log's `tail` for it, `0:` (no last item), which lets a replica holding the new
/// game confirm its copy with a plain `HMGET` (`current_copy`) rather than read the record back;
/// format 1 writes no `tail`, as its commits write none.
///
/// KEYS: game, events, requests, log. ARGV: format, version, record, ttl (ms).
/// Returns 1 when created, 0 when the id is taken.
const CREATE: &str = r"#!lua
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
local fields = {'format', ARGV[1], 'version', ARGV[2], 'record', ARGV[3],
  'index_due', now + math.floor(tonumber(ARGV[4]) / 2)}
if ARGV[1] ~= '1' and ARGV[2] == '0' then
  fields[#fields + 1] = 'tail'
  fields[#fields + 1] = '0:'
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
";

/// Claims the games of one due-index key that are due: up to a limit, earliest first, each
/// scored again at the end of the claimer's lease before it is returned, in one atomic step, so
/// two replicas never claim the same entry at once.
///
/// KEYS: the due index (shard). ARGV: now (Unix ms), the lease's end (Unix ms), the limit.
/// Returns the ids claimed.
const CLAIM_DUE: &str = r"#!lua
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3])
for i = 1, #due do
  redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
return due
";

/// Loads a game in one call: the hash's format, version and record, then (record format 2)
/// the items of its log from the first one the caller does not hold, read atomically with the
/// hash. The caller names how many items it holds and the last of them; if the stored log does
/// not have that item there (another game's, or a log that lost its end), every item is sent.
/// Returns `{format, version, record, first item sent, items...}`, or an empty array when the
/// game does not exist; a missing hash field comes back as an empty string. When the caller
/// holds the stored version itself (a format-2 game with as many actions as the caller holds,
/// the last of them the caller's), nothing of the game is sent: the answer is the word
/// `current` (one value, which the client reads faster than an array), and the caller keeps its
/// copy. The hash's `tail` field (`<version>:<last item>`, written by [`COMMIT`] with the log)
/// answers that without reading the log; a game whose last commit came from a release before the
/// field (no `tail`, or one for an older version) has its log's item read instead. (A load that
/// expects its copy to be current asks that first with a plain `HMGET` of the same fields,
/// which costs Redis far less than a script call: `current_copy`; this script is then the
/// fallback.)
///
/// KEYS: game, log. ARGV: items held (0 for none), the last item held (empty for none).
const LOAD: &str = r"#!lua flags=no-writes
local from = tonumber(ARGV[1])
local stored
if from > 0 then
  local head = redis.call('HMGET', KEYS[1], 'format', 'version', 'tail')
  if head[1] and head[1] ~= '1' and head[2] == ARGV[1] then
    local prefix = ARGV[1] .. ':'
    local current
    if head[3] and string.sub(head[3], 1, #prefix) == prefix then
      current = head[3] == prefix .. ARGV[2]
    else
      current = redis.call('LINDEX', KEYS[2], from - 1) == ARGV[2]
    end
    if current then
      return 'current'
    end
  end
  stored = {head[1], head[2], redis.call('HGET', KEYS[1], 'record')}
else
  stored = redis.call('HMGET', KEYS[1], 'format', 'version', 'record')
end
if not stored[1] and not stored[2] and not stored[3] then
  return {}
end
local reply = {stored[1] or '', stored[2] or '', stored[3] or '', '0'}
if stored[1] ~= '1' then
  if from > 0 and redis.call('LINDEX', KEYS[2], from - 1) ~= ARGV[2] then
    from = 0
  end
  reply[4] = tostring(from)
  local log = redis.call('LRANGE', KEYS[2], from, -1)
  for i = 1, #log do
    reply[#reply + 1] = log[i]
  end
end
return reply
";

/// One commit: the request window is checked first (a retry is a duplicate whatever version it
/// read), then the version, then that the stored log can take the new actions; only then are
/// the stream entry, the record with the log's `tail` (`<version>:<last item>`, which lets
/// [`LOAD`] confirm a caller's copy without reading the log), the log, the trim of the request
/// window (a sorted set of `<seat>:<hex>` scored by the version it produced, kept to its newest
/// entries) and every key's TTL written. It also tells the caller when the game's index entry is
/// due for a refresh (at most once per half TTL, so commits rarely pay for it).
///
/// The request is checked and entered in one call (`ZADD NX` answers whether it was new): every
/// answer that commits nothing takes it out again, and so does a stream entry that fails (the
/// only write that could), so a refused commit leaves nothing behind. The log's length is known
/// before that first write: a `tail` naming the stored version says the list holds exactly that
/// version's actions (every commit that writes the list writes the tail with it, the creation
/// writes `0:` with an empty list, and a game's keys share one TTL in a Redis that never evicts),
/// so only a game whose last write came from a release before the tail, or in record format 1,
/// has its list's length read (`LLEN`).
///
/// The log mode says what happens to the game's log list: `append` (record format 2, the list
/// holds exactly the stored version's actions: the new actions are pushed), `full` (format 2,
/// the list is replaced by the actions given: the first format-2 write of a game stored in
/// format 1) or empty (format 1, whose record holds the log: the list is dropped).
///
/// KEYS: game, events, requests, log.
/// ARGV: expected version, new version, format, record, ttl (ms), request entry (`<seat>:<hex>`,
/// or empty), the rank the request window is trimmed to (`-1 - window`, so that the script
/// converts no number to text), stream length cap, the game's shard channel to publish the new
/// version on (a Redis Cluster; empty on one server, whose watchers read the stream), the log
/// mode, then the log items to write.
/// Returns the word `committed <v> <refresh index: 1 or 0>` (one value, which the client reads
/// faster than an array), or an array: `{'conflict', current, format,
/// record, log items...}` (the stored game, as [`LOAD`] reads it, so that the caller can retry
/// without loading),
/// `{'duplicate', v}`, `{'not_found'}` or `{'need_log', current}` (an `append` the stored log
/// cannot take: send the whole log with `full`); `{'not_newer', current}` and `{'bad_log',
/// current}` refuse a caller bug (a record not newer than the stored one, or a number of log
/// items that does not fit the versions) and change nothing.
const COMMIT: &str = r"#!lua
local stored = redis.call('HMGET', KEYS[1], 'version', 'index_due', 'format', 'tail')
local current = stored[1]
if not current then
  return {'not_found'}
end
local mode = ARGV[10]
-- Strings become numbers once: each `tonumber` of a string is a `strtod`.
local stored_version = tonumber(current)
local length = false
if mode == 'append' then
  local tail = stored[4]
  if tail and string.sub(tail, 1, #current + 1) == current .. ':' then
    length = stored_version
  else
    length = redis.call('LLEN', KEYS[4])
  end
end
local request = ARGV[6]
if request ~= '' and redis.call('ZADD', KEYS[3], 'NX', ARGV[2], request) == 0 then
  local seen = redis.call('ZSCORE', KEYS[3], request)
  return {'duplicate', string.format('%.0f', tonumber(seen))}
end
local function refuse(reply)
  if request ~= '' then
    redis.call('ZREM', KEYS[3], request)
  end
  return reply
end
if current ~= ARGV[1] then
  local hash = redis.call('HMGET', KEYS[1], 'format', 'record')
  local reply = {'conflict', current, hash[1] or '', hash[2] or ''}
  if hash[1] ~= '1' then
    local log = redis.call('LRANGE', KEYS[4], 0, -1)
    for i = 1, #log do
      reply[#reply + 1] = log[i]
    end
  end
  return refuse(reply)
end
local version = ARGV[2]
local new_version = tonumber(version)
if new_version <= stored_version then
  return refuse({'not_newer', current})
end
local items = #ARGV - 10
if mode == 'append' then
  if stored[3] ~= ARGV[3] or length ~= stored_version then
    return refuse({'need_log', current})
  end
  if items ~= new_version - stored_version then
    return refuse({'bad_log', current})
  end
elseif mode == 'full' then
  if items ~= new_version then
    return refuse({'bad_log', current})
  end
elseif items ~= 0 then
  return refuse({'bad_log', current})
end
local clock = redis.call('TIME')
local due = tonumber(stored[2] or '0')
-- The milliseconds within the second are read only when the second says the refresh may be due.
local now = tonumber(clock[1]) * 1000
local refresh = now + 999 >= due
if refresh then
  now = now + math.floor(tonumber(clock[2]) / 1000)
  refresh = now >= due
end
local added = redis.pcall('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], version .. '-0',
  'version', version)
if type(added) == 'table' and added.err then
  return refuse(added)
end
if ARGV[9] ~= '' then
  redis.call('SPUBLISH', ARGV[9], version)
end
local fields = {'format', ARGV[3], 'version', version, 'record', ARGV[4]}
if items > 0 then
  fields[#fields + 1] = 'tail'
  fields[#fields + 1] = version .. ':' .. ARGV[#ARGV]
end
if refresh then
  fields[#fields + 1] = 'index_due'
  fields[#fields + 1] = now + math.floor(tonumber(ARGV[5]) / 2)
end
redis.call('HSET', KEYS[1], unpack(fields))
if mode ~= 'append' then
  redis.call('DEL', KEYS[4])
end
-- In batches: Lua limits how many values one call may unpack.
for first = 11, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[4], unpack(ARGV, first, math.min(first + 999, #ARGV)))
end
if request ~= '' then
  redis.call('ZREMRANGEBYRANK', KEYS[3], '0', ARGV[7])
end
for _, key in ipairs(KEYS) do
  redis.call('PEXPIRE', key, ARGV[5])
end
return 'committed ' .. version .. (refresh and ' 1' or ' 0')
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
    /// [`CLAIM_DUE`].
    pub(super) claim_due: Script,
    pub(super) create: Script,
    pub(super) load: Script,
    pub(super) commit: Script,
    pub(super) reserve: Script,
    pub(super) touch: Script,
    pub(super) put_create: Script,
}

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            live_games: Script::new(LIVE_GAMES),
            claim_due: Script::new(CLAIM_DUE),
            create: Script::new(CREATE),
            load: Script::new(LOAD),
            commit: Script::new(COMMIT),
            reserve: Script::new(RESERVE),
            touch: Script::new(TOUCH),
            put_create: Script::new(PUT_CREATE),
        }
    }
}

/// What [`COMMIT`] answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CommitReply {
    /// The outcome, and whether the game's index entry is due for a refresh.
    Done(CommitOutcome, bool),
    /// The stored log cannot take an `append`: commit again with the whole log.
    NeedLog,
}

/// A script's answer: one word (the common outcome) or an array of parts.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ScriptReply {
    /// A single string.
    Word(Vec<u8>),
    /// An array of strings (missing values read as empty).
    Parts(Vec<Vec<u8>>),
}

impl ScriptReply {
    /// Reads a script's answer as what it is.
    pub(super) fn read(value: Value, what: &str) -> Result<ScriptReply, StoreError> {
        match value {
            Value::BulkString(word) => Ok(ScriptReply::Word(word)),
            other => ::redis::from_redis_value(other)
                .map(ScriptReply::Parts)
                .map_err(|error| {
                    StoreError::Corrupt(format!("{what}: unexpected answer: {error}"))
                }),
        }
    }
}

/// Reads the answer of [`COMMIT`].
pub(super) fn commit_outcome(reply: &ScriptReply) -> Result<CommitReply, StoreError> {
    let reply = match reply {
        ScriptReply::Word(word) => return committed(word),
        ScriptReply::Parts(parts) => parts.as_slice(),
    };
    let version = |text: &Vec<u8>| {
        std::str::from_utf8(text)
            .ok()
            .and_then(|text| text.parse::<u64>().ok())
            .ok_or_else(|| {
                StoreError::Corrupt(format!(
                    "the commit script returned version {:?}",
                    String::from_utf8_lossy(text)
                ))
            })
    };
    let done = |outcome, refresh| Ok(CommitReply::Done(outcome, refresh));
    match reply {
        [tag] if tag == b"not_found" => done(CommitOutcome::NotFound, false),
        [tag, value, ..] if tag == b"conflict" => done(
            CommitOutcome::Conflict {
                current_version: version(value)?,
            },
            false,
        ),
        [tag, value] if tag == b"duplicate" => done(
            CommitOutcome::Duplicate {
                version: version(value)?,
            },
            false,
        ),
        [tag, _] if tag == b"need_log" => Ok(CommitReply::NeedLog),
        [tag, value] if tag == b"not_newer" => Err(StoreError::Corrupt(format!(
            "a commit over version {} carried a record that is not newer",
            version(value)?
        ))),
        [tag, value] if tag == b"bad_log" => Err(StoreError::Corrupt(format!(
            "a commit over version {} carried log items that do not fit its versions",
            version(value)?
        ))),
        other => Err(StoreError::Corrupt(format!(
            "the commit script returned {} values starting {:?}",
            other.len(),
            other.first().map(|tag| String::from_utf8_lossy(tag))
        ))),
    }
}

/// Reads [`COMMIT`]'s `committed <v> <1 or 0>`.
fn committed(word: &[u8]) -> Result<CommitReply, StoreError> {
    let parsed = std::str::from_utf8(word).ok().and_then(|text| {
        let rest = text.strip_prefix("committed ")?;
        let (version, refresh) = rest.split_once(' ')?;
        let refresh = match refresh {
            "1" => true,
            "0" => false,
            _ => return None,
        };
        Some((version.parse::<u64>().ok()?, refresh))
    });
    match parsed {
        Some((version, refresh)) => Ok(CommitReply::Done(
            CommitOutcome::Committed { version },
            refresh,
        )),
        None => Err(StoreError::Corrupt(format!(
            "the commit script returned {:?}",
            String::from_utf8_lossy(word)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(parts: &[&str]) -> ScriptReply {
        ScriptReply::Parts(parts.iter().map(|part| part.as_bytes().to_vec()).collect())
    }

    fn word(text: &str) -> ScriptReply {
        ScriptReply::Word(text.as_bytes().to_vec())
    }

    #[test]
    fn commit_answers_parse() {
        let done = |outcome, refresh| Ok(CommitReply::Done(outcome, refresh));
        assert_eq!(
            commit_outcome(&word("committed 7 0")),
            done(CommitOutcome::Committed { version: 7 }, false)
        );
        assert_eq!(
            commit_outcome(&word("committed 8 1")),
            done(CommitOutcome::Committed { version: 8 }, true)
        );
        for odd in [
            "committed 8",
            "committed x 1",
            "committed 8 2",
            "conflict 8 1",
            "",
        ] {
            assert!(commit_outcome(&word(odd)).is_err(), "{odd:?}");
        }
        assert_eq!(
            commit_outcome(&reply(&["conflict", "3", "2", "record"])),
            done(CommitOutcome::Conflict { current_version: 3 }, false)
        );
        assert_eq!(
            commit_outcome(&reply(&["duplicate", "2"])),
            done(CommitOutcome::Duplicate { version: 2 }, false)
        );
        assert_eq!(
            commit_outcome(&reply(&["not_found"])),
            done(CommitOutcome::NotFound, false)
        );
        assert_eq!(
            commit_outcome(&reply(&["need_log", "5"])),
            Ok(CommitReply::NeedLog)
        );
        assert!(commit_outcome(&reply(&["not_newer", "4"])).is_err());
        assert!(commit_outcome(&reply(&["bad_log", "4"])).is_err());
        assert!(commit_outcome(&reply(&["committed", "7", "0"])).is_err());
        assert!(commit_outcome(&reply(&["weird"])).is_err());
        assert!(commit_outcome(&reply(&[])).is_err());
    }

    #[test]
    fn every_script_declares_itself_lua_for_key_checks() {
        for script in [CREATE, COMMIT, RESERVE, TOUCH, PUT_CREATE] {
            assert!(script.starts_with("#!lua\n"));
        }
        assert!(LOAD.starts_with("#!lua flags=no-writes\n"));
    }
}
