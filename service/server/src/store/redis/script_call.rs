//! Script calls written straight into their `EVALSHA` command.
//!
//! The Redis client's own script invocation keeps every key and argument in a buffer of its own
//! and copies them all into the command when it is sent. A commit carries the game's record
//! (hundreds of bytes to kilobytes) and its new log items, so that was an allocation per
//! argument and a second copy of the record on every `Act`. Here the keys and arguments go into
//! the command once, in the order `EVALSHA` takes them (the keys first, so that their count is
//! known before any argument), and the command is sent again after loading the script when
//! Redis has forgotten it (`NOSCRIPT`: a restart, a failover to a replica that never ran it, or
//! `SCRIPT FLUSH`), as the client's invocation does. Cluster routing is unchanged: the client
//! routes an `EVALSHA` by its first key.

use ::redis::aio::ConnectionLike;
use ::redis::{Cmd, ErrorKind, FromRedisValue, RedisResult, Script, ServerErrorKind, ToRedisArgs};

/// One call of a script: its keys, then its arguments.
pub(super) struct ScriptCall<'a> {
    script: &'a Script,
    command: Cmd,
}

impl<'a> ScriptCall<'a> {
    /// A call of `script` on `keys` (every key the script touches: `KEYS` in the script), with
    /// a few short arguments to follow.
    pub(super) fn new(script: &'a Script, keys: &[&str]) -> ScriptCall<'a> {
        ScriptCall::with_room(script, keys, 8, 128)
    }

    /// A call of `script` on `keys` with room for `arguments` more arguments of `bytes` bytes
    /// in all: the command is then written without growing (growing copies what it holds, and
    /// a commit's record is kilobytes).
    pub(super) fn with_room(
        script: &'a Script,
        keys: &[&str],
        arguments: usize,
        bytes: usize,
    ) -> ScriptCall<'a> {
        let key_bytes: usize = keys.iter().map(|key| key.len()).sum();
        let mut command = Cmd::with_capacity(
            3 + keys.len() + arguments,
            "EVALSHA".len() + script.get_hash().len() + 4 + key_bytes + bytes,
        );
        command
            .arg("EVALSHA")
            .arg(script.get_hash())
            .arg(keys.len());
        for key in keys {
            command.arg(*key);
        }
        ScriptCall { script, command }
    }

    /// Adds the next argument (`ARGV`).
    pub(super) fn arg(&mut self, arg: impl ToRedisArgs) -> &mut ScriptCall<'a> {
        self.command.arg(arg);
        self
    }

    /// Runs the call, loading the script first when Redis does not know it.
    pub(super) async fn invoke<T: FromRedisValue>(
        &self,
        connection: &mut impl ConnectionLike,
    ) -> RedisResult<T> {
        match self.command.query_async(connection).await {
            Err(error) if error.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => {
                self.script.load_async(connection).await?;
                self.command.query_async(connection).await
            }
            answer => answer,
        }
    }
}

#[cfg(test)]
mod tests {
    use ::redis::Value;
    use ::redis::aio::MultiplexedConnection;

    use super::*;

    /// A connection to the Redis the store tests use (`DECKMATE_TEST_REDIS_URL`, default
    /// `redis://127.0.0.1:6379`).
    async fn test_redis() -> MultiplexedConnection {
        let url = std::env::var("DECKMATE_TEST_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
        ::redis::Client::open(url.as_str())
            .expect("a Redis URL")
            .get_multiplexed_async_connection()
            .await
            .unwrap_or_else(|error| {
                panic!(
                    "no Redis answers at {url} (set DECKMATE_TEST_REDIS_URL, or start \
                     redis-server): {error}"
                )
            })
    }

    /// A script no Redis has seen: its text carries fresh random bytes, so its hash is new
    /// (forgetting every script with `SCRIPT FLUSH` would disturb tests running beside this one).
    fn unseen_script(body: &str) -> Script {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("random bytes");
        Script::new(&format!(
            "#!lua flags=no-writes\n-- {}\n{body}",
            hex::encode(nonce)
        ))
    }

    #[tokio::test]
    async fn a_script_redis_does_not_know_is_loaded_and_run_with_its_keys_and_arguments() {
        let mut connection = test_redis().await;
        let script = unseen_script("return {#KEYS, KEYS[1], KEYS[2], #ARGV, ARGV[1], ARGV[2]}");
        let asking = connection.clone();
        let known = || {
            let mut connection = asking.clone();
            let hash = script.get_hash().to_string();
            async move {
                let known: Vec<bool> = ::redis::cmd("SCRIPT")
                    .arg("EXISTS")
                    .arg(hash)
                    .query_async(&mut connection)
                    .await
                    .unwrap();
                known == [true]
            }
        };
        assert!(!known().await);
        let mut call = ScriptCall::new(&script, &["{a}one", "{a}two"]);
        call.arg("first").arg(7);
        let expected = ["2", "{a}one", "{a}two", "2", "first", "7"];
        let answer: Vec<String> = call.invoke(&mut connection).await.unwrap();
        assert_eq!(answer, expected);
        assert!(known().await);
        // Known now: sent once.
        let again: Vec<String> = call.invoke(&mut connection).await.unwrap();
        assert_eq!(again, expected);
    }

    #[tokio::test]
    async fn a_script_error_is_the_answer_and_is_not_retried() {
        let mut connection = test_redis().await;
        let script = unseen_script("return redis.error_reply('BROKEN on purpose')");
        let error = ScriptCall::new(&script, &[])
            .invoke::<Value>(&mut connection)
            .await
            .unwrap_err();
        assert!(error.to_string().contains("BROKEN"), "{error}");
    }
}
