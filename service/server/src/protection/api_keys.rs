//! API keys (docs/OPERATIONS.md, "API keys"): the `--api-keys-file`, the check of a call's
//! `x-api-key`, and the keys a new client is given (`deckmate-server hash-key`).
//!
//! The file holds one `<name>:<sha256-hex>` line per key, with `#` comments and blank lines.
//! The server keeps only the hashes: a presented key is hashed and compared with every entry in
//! constant time. A key's *name* is what logs, spans and quotas see; the key and its hash are
//! never logged, and a malformed line is reported by its number alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use tonic::metadata::MetadataMap;

use crate::error::ApiError;

/// The metadata key a client sends its API key in.
pub const API_KEY_HEADER: &str = "x-api-key";
/// The prefix of keys made by `hash-key`, so that a leaked one is recognisable.
pub const KEY_PREFIX: &str = "dmk_";
/// Random bytes in a new key.
const KEY_BYTES: usize = 32;
/// The longest key name: names go into logs and spans, so they stay short.
const MAX_NAME_LEN: usize = 64;

/// Why the keys file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KeysFileError {
    /// The file cannot be read.
    #[error("cannot read the API keys file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a valid entry. The line itself is not repeated: it may hold a hash.
    #[error("the API keys file {path}, line {line}: {problem}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong, without the line's content.
        problem: &'static str,
    },
}

/// One parsed keys file: names and the SHA-256 of their keys.
#[derive(Clone, Default)]
struct KeySet {
    entries: Vec<(Arc<str>, [u8; 32])>,
}

impl KeySet {
    /// Parses the text of a keys file found at `path` (for the messages).
    fn parse(path: &Path, text: &str) -> Result<KeySet, KeysFileError> {
        let mut entries = Vec::new();
        let mut lines_of_names = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let bad = |problem| KeysFileError::Line {
                path: path.to_path_buf(),
                line: number,
                problem,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, hash) = line
                .split_once(':')
                .ok_or_else(|| bad("expected `<name>:<sha256-hex>`"))?;
            let name = name.trim();
            if !is_valid_name(name) {
                return Err(bad(
                    "the name must be 1 to 64 letters, digits, `-`, `_` or `.`",
                ));
            }
            let mut digest = [0u8; 32];
            hex::decode_to_slice(hash.trim(), &mut digest)
                .map_err(|_| bad("the hash must be 64 hexadecimal digits (a SHA-256)"))?;
            if lines_of_names.insert(name.to_string(), number).is_some() {
                return Err(bad("the name is used on an earlier line"));
            }
            entries.push((Arc::from(name), digest));
        }
        Ok(KeySet { entries })
    }

    /// The name of the entry whose hash is `presented`'s, comparing with every entry in constant
    /// time (the time depends on the number of entries only).
    fn find(&self, presented: &[u8; 32]) -> Option<Arc<str>> {
        let mut found = subtle::Choice::from(0);
        let mut position = 0u32;
        for (index, (_, hash)) in self.entries.iter().enumerate() {
            let equal = hash.ct_eq(presented);
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            position = u32::conditional_select(&position, &index, equal);
            found |= equal;
        }
        bool::from(found).then(|| self.entries[position as usize].0.clone())
    }
}

/// The API keys of a running server: read from `--api-keys-file` at start and again on each
/// [`ApiKeys::reload`] (SIGHUP).
pub struct ApiKeys {
    path: PathBuf,
    current: RwLock<Arc<KeySet>>,
}

impl std::fmt::Debug for ApiKeys {
    // The hashes stay out of debug output too.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKeys")
            .field("path", &self.path)
            .field("keys", &self.len())
            .finish()
    }
}

impl ApiKeys {
    /// Reads the keys file at `path`; a missing file or a malformed line is an error.
    pub fn load(path: impl Into<PathBuf>) -> Result<ApiKeys, KeysFileError> {
        let path = path.into();
        let keys = read(&path)?;
        Ok(ApiKeys {
            path,
            current: RwLock::new(Arc::new(keys)),
        })
    }

    /// Reads the file again. On error the keys in force stay as they were.
    pub fn reload(&self) -> Result<usize, KeysFileError> {
        let keys = read(&self.path)?;
        let count = keys.entries.len();
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
        Ok(count)
    }

    /// How many keys are in force.
    pub fn len(&self) -> usize {
        self.snapshot().entries.len()
    }

    /// Whether no key is in force (every call that needs one is refused).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of the key in the call's `x-api-key`; [`ApiError::BadApiKey`] when it is
    /// missing, sent more than once, unreadable or not in force.
    pub fn check(&self, metadata: &MetadataMap) -> Result<Arc<str>, ApiError> {
        let mut values = metadata.get_all(API_KEY_HEADER).into_iter();
        let presented = values
            .next()
            .ok_or_else(|| ApiError::BadApiKey("this server requires an x-api-key".to_string()))?;
        // Two keys are ambiguous: a proxy in front may have checked the other one.
        if values.next().is_some() {
            return Err(ApiError::BadApiKey(
                "more than one x-api-key entry; send one key".to_string(),
            ));
        }
        let wrong = || ApiError::BadApiKey("the x-api-key is not valid here".to_string());
        let presented = presented.to_str().map_err(|_| wrong())?.trim();
        self.snapshot().find(&hash_key(presented)).ok_or_else(wrong)
    }

    fn snapshot(&self) -> Arc<KeySet> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

fn read(path: &Path) -> Result<KeySet, KeysFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeysFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    KeySet::parse(path, &text)
}

/// Reloads `keys` on every SIGHUP until the task is dropped; a bad file keeps the old keys and
/// is logged as an error.
pub async fn reload_on_hangup(keys: Arc<ApiKeys>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGHUP; API keys will not reload");
                return;
            }
        };
        while hangups.recv().await.is_some() {
            match keys.reload() {
                Ok(count) => tracing::info!(keys = count, "SIGHUP: API keys reloaded"),
                Err(error) => tracing::error!(%error, "SIGHUP: API keys kept as they were"),
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = keys;
        std::future::pending::<()>().await;
    }
}

/// The SHA-256 of a key as presented: what the keys file holds.
pub fn hash_key(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// Whether `name` may name a key: 1 to 64 ASCII letters, digits, `-`, `_` or `.` (names are
/// logged, so they cannot carry line breaks or other surprises).
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A new key for a client and the keys-file line for it.
pub struct NewKey {
    /// The key to give the client (`dmk_` and 32 random bytes in unpadded base64url).
    pub key: String,
    /// `<name>:<sha256-hex>`, for the keys file.
    pub line: String,
}

/// Makes a new random key named `name`.
pub fn new_key(name: &str) -> Result<NewKey, String> {
    if !is_valid_name(name) {
        return Err("the name must be 1 to 64 letters, digits, `-`, `_` or `.`".to_string());
    }
    let mut bytes = [0u8; KEY_BYTES];
    getrandom::fill(&mut bytes).map_err(|error| format!("no randomness: {error}"))?;
    let key = format!("{KEY_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes));
    let line = format!("{name}:{}", hex::encode(hash_key(&key)));
    Ok(NewKey { key, line })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<KeySet, KeysFileError> {
        KeySet::parse(Path::new("keys.txt"), text)
    }

    fn with_key(key: &str) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        metadata.insert(API_KEY_HEADER, key.parse().unwrap());
        metadata
    }

    fn keys_of(text: &str) -> ApiKeys {
        ApiKeys {
            path: PathBuf::from("keys.txt"),
            current: RwLock::new(Arc::new(parse(text).unwrap())),
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let web = new_key("web").unwrap();
        let bot = new_key("bot-1").unwrap();
        let text = format!(
            "# keys\n\n{}\n   # indented comment\n{}\n",
            web.line, bot.line
        );
        let keys = keys_of(&text);
        assert_eq!(keys.len(), 2);
        assert_eq!(&*keys.check(&with_key(&web.key)).unwrap(), "web");
        assert_eq!(&*keys.check(&with_key(&bot.key)).unwrap(), "bot-1");
    }

    #[test]
    fn missing_and_wrong_keys_are_bad_api_keys() {
        let web = new_key("web").unwrap();
        let keys = keys_of(&web.line);
        let missing = keys.check(&MetadataMap::new()).unwrap_err();
        assert_eq!(missing.reason(), "BAD_API_KEY");
        let wrong = keys.check(&with_key("dmk_guess")).unwrap_err();
        assert_eq!(wrong.reason(), "BAD_API_KEY");
        assert!(!wrong.to_string().contains("dmk_guess"));
        // A valid key beside another is refused too: which one counts would be ambiguous.
        let mut twice = with_key(&web.key);
        twice.append(API_KEY_HEADER, web.key.parse().unwrap());
        let error = keys.check(&twice).unwrap_err();
        assert_eq!(error.reason(), "BAD_API_KEY");
        assert!(error.to_string().contains("more than one"), "{error}");
        assert!(!error.to_string().contains(&web.key), "{error}");
    }

    #[test]
    fn malformed_lines_are_named_by_number_without_their_content() {
        let good = new_key("web").unwrap().line;
        let secret = "ab".repeat(31);
        for (text, line) in [
            (format!("{good}\nno-colon-here\n"), 2),
            (format!("# c\n\n{good}\nweb2:{secret}\n"), 4),
            (format!("bad name:{}\n", "0".repeat(64)), 1),
            (format!("{good}\n{good}\n"), 2),
        ] {
            let error = parse(&text).err().expect("refused");
            let message = error.to_string();
            assert!(message.contains(&format!("line {line}:")), "{message}");
            assert!(!message.contains(&secret), "{message}");
        }
    }

    #[test]
    fn new_keys_are_long_random_and_match_their_line() {
        let first = new_key("ci").unwrap();
        let second = new_key("ci").unwrap();
        assert_ne!(first.key, second.key);
        assert!(first.key.starts_with(KEY_PREFIX));
        let random = URL_SAFE_NO_PAD
            .decode(&first.key[KEY_PREFIX.len()..])
            .unwrap();
        assert_eq!(random.len(), 32);
        let (name, hash) = first.line.split_once(':').unwrap();
        assert_eq!(name, "ci");
        assert_eq!(hash, hex::encode(Sha256::digest(first.key.as_bytes())));
        assert!(new_key("two words").is_err());
        assert!(new_key("").is_err());
    }

    #[test]
    fn a_reload_swaps_the_keys_and_a_bad_file_keeps_the_old_ones() {
        let mut random = [0u8; 8];
        getrandom::fill(&mut random).unwrap();
        let path = std::env::temp_dir().join(format!("deckmate-keys-{}", hex::encode(random)));
        let web = new_key("web").unwrap();
        let bot = new_key("bot").unwrap();
        std::fs::write(&path, &web.line).unwrap();
        let keys = ApiKeys::load(&path).unwrap();
        assert!(keys.check(&with_key(&web.key)).is_ok());
        std::fs::write(&path, &bot.line).unwrap();
        assert_eq!(keys.reload().unwrap(), 1);
        assert!(keys.check(&with_key(&web.key)).is_err());
        assert!(keys.check(&with_key(&bot.key)).is_ok());
        std::fs::write(&path, "bot:not-hex\n").unwrap();
        let error = keys.reload().unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
        assert!(keys.check(&with_key(&bot.key)).is_ok(), "the old keys stay");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn debug_output_hides_the_hashes() {
        let keys = keys_of(&new_key("web").unwrap().line);
        let shown = format!("{keys:?}");
        assert!(shown.contains("keys: 1"), "{shown}");
        assert!(!shown.contains("web:"), "{shown}");
    }
}
