//! Secrets and identities (docs/ARCHITECTURE.md §3): seat tokens, game ids and seeds.
//!
//! A seat token is `dm1_` followed by 32 random bytes in unpadded base64url. The server keeps
//! only its SHA-256 ([`TokenHash`]) and finds the seat of a presented token by comparing its
//! hash with every seat's hash in constant time. Tokens are never logged: [`SeatToken`]'s
//! `Debug` hides it.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use deckmate_engine::{Seat, Seed, Viewer};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use tonic::metadata::MetadataMap;

use crate::error::ApiError;

/// The prefix of every seat token (format version 1).
pub const TOKEN_PREFIX: &str = "dm1_";
/// Random bytes in a seat token.
const TOKEN_BYTES: usize = 32;
/// Length of a seat token: the prefix and 32 bytes in unpadded base64.
const TOKEN_LEN: usize = TOKEN_PREFIX.len() + 43;
/// Bytes in a game id: its creation second, then random bytes.
const GAME_ID_BYTES: usize = 16;
/// Bytes of a game id that hold its creation time (Unix seconds, big-endian; enough until 2106).
const GAME_ID_TIME_BYTES: usize = 4;

/// A seat token in plain text: handed out once by CreateGame, never stored or logged.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl SeatToken {
    /// A new random token.
    pub fn generate() -> Result<SeatToken, ApiError> {
        let bytes: [u8; TOKEN_BYTES] = random_bytes()?;
        Ok(SeatToken(format!(
            "{TOKEN_PREFIX}{}",
            URL_SAFE_NO_PAD.encode(bytes)
        )))
    }

    /// The token text, to send to its holder.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The hash the server keeps.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(<hidden>)")
    }
}

/// The SHA-256 of a seat token: all the server stores of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of `token` as presented.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }
}

impl fmt::Debug for TokenHash {
    // A hash of a 256-bit secret reveals nothing useful, but it has no business in logs either.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(<hidden>)")
    }
}

/// The seat whose hash equals `presented`, comparing with every seat in constant time (the
/// time depends only on the seat count, never on how much of a hash matched or which seat it
/// was).
pub fn find_seat(seat_hashes: &[TokenHash], presented: &TokenHash) -> Option<Seat> {
    let mut found = subtle::Choice::from(0);
    let mut seat_index = 0u8;
    for (index, hash) in seat_hashes.iter().enumerate() {
        let equal = hash.0.ct_eq(&presented.0);
        let index = u8::try_from(index).unwrap_or(u8::MAX);
        seat_index = u8::conditional_select(&seat_index, &index, equal);
        found |= equal;
    }
    bool::from(found).then_some(Seat(seat_index))
}

/// Reads the `authorization: Bearer <token>` metadata: `Ok(None)` when absent, the token's hash
/// when well formed, and [`ApiError::MissingToken`] when malformed or sent more than once. The
/// token itself is not kept.
pub fn presented_token(metadata: &MetadataMap) -> Result<Option<TokenHash>, ApiError> {
    let headers: &http::HeaderMap = metadata.as_ref();
    let mut values = headers.get_all(&crate::headers::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    // Two entries are ambiguous: a proxy in front may have checked the other one.
    if values.next().is_some() {
        return Err(ApiError::MissingToken(
            "more than one authorization entry; send one seat token".to_string(),
        ));
    }
    let malformed = || {
        ApiError::MissingToken(
            "malformed authorization metadata; expected `Bearer dm1_...` with a seat token"
                .to_string(),
        )
    };
    let value = value.to_str().map_err(|_| malformed())?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || !is_well_formed(token) {
        return Err(malformed());
    }
    Ok(Some(TokenHash::of(token)))
}

/// Whether `token` has the shape of a seat token.
fn is_well_formed(token: &str) -> bool {
    // Decoded on the stack: this runs on every authenticated call. The buffer has room for
    // what any text of TOKEN_LEN could decode to, so a wrong length shows in the count.
    let mut bytes = [0u8; TOKEN_BYTES + 3];
    token.len() == TOKEN_LEN
        && token.starts_with(TOKEN_PREFIX)
        && URL_SAFE_NO_PAD
            .decode_slice(&token[TOKEN_PREFIX.len()..], &mut bytes)
            .is_ok_and(|written| written == TOKEN_BYTES)
}

/// Who the caller is for a read (Observe, Watch, GetHistory): the seat its token names, or a
/// spectator when it sent none and the game allows spectators.
pub fn reader(
    seat_hashes: &[TokenHash],
    presented: Option<&TokenHash>,
    spectators_allowed: bool,
) -> Result<Viewer, ApiError> {
    match presented {
        Some(hash) => find_seat(seat_hashes, hash)
            .map(Viewer::Seat)
            .ok_or(ApiError::WrongToken),
        None if spectators_allowed => Ok(Viewer::Spectator),
        None => Err(ApiError::MissingToken(
            "this game does not allow spectators; send a seat token".to_string(),
        )),
    }
}

/// The seat that may act (Act): a token is required.
pub fn actor(seat_hashes: &[TokenHash], presented: Option<&TokenHash>) -> Result<Seat, ApiError> {
    let hash = presented
        .ok_or_else(|| ApiError::MissingToken("a seat token is required to act".to_string()))?;
    find_seat(seat_hashes, hash).ok_or(ApiError::WrongToken)
}

/// A new game id, 32 lowercase hex digits: the creation time in Unix seconds (8 digits), then
/// 96 random bits. The time lets a store that lost its data tell a lost game from an expired
/// one (`GAME_LOST`, docs/OPERATIONS.md); the random bits keep ids unguessable.
pub fn new_game_id() -> Result<String, ApiError> {
    let now = u32::try_from(crate::store::unix_millis() / 1000).unwrap_or(u32::MAX);
    game_id_at(now)
}

/// A new game id created at Unix second `created`.
fn game_id_at(created: u32) -> Result<String, ApiError> {
    let random: [u8; GAME_ID_BYTES - GAME_ID_TIME_BYTES] = random_bytes()?;
    let mut bytes = [0u8; GAME_ID_BYTES];
    bytes[..GAME_ID_TIME_BYTES].copy_from_slice(&created.to_be_bytes());
    bytes[GAME_ID_TIME_BYTES..].copy_from_slice(&random);
    Ok(hex::encode(bytes))
}

/// The Unix second game `id` says it was created at (`None` when `id` is no game id). Ids made
/// before ids carried their time read as a random time: callers only trust it within a window.
pub fn game_id_created_at(id: &str) -> Option<u64> {
    if !is_game_id(id) {
        return None;
    }
    let digits = id.get(..2 * GAME_ID_TIME_BYTES)?;
    u32::from_str_radix(digits, 16).ok().map(u64::from)
}

/// Whether `id` has the shape of a game id (so that it can never name a game when not).
pub fn is_game_id(id: &str) -> bool {
    let Ok(digits) = <&[u8; 2 * GAME_ID_BYTES]>::try_from(id.as_bytes()) else {
        return false;
    };
    // Every byte checked, without stopping at the first bad one: a fixed-length loop without
    // branches, which the compiler turns into a few vector instructions (this runs more than
    // once per call).
    digits.iter().fold(true, |valid, &byte| {
        valid & ((byte.wrapping_sub(b'0') < 10) | (byte.wrapping_sub(b'a') < 6))
    })
}

/// The seed of a new game: the client's number when it sent one and the server allows it,
/// otherwise 32 fresh random bytes. A seed the server does not allow stays INVALID_ARGUMENT
/// without a field violation, as the first release sent it: clients (the load generator
/// among them) recognise the refusal of a server too old to report `features.client_seeds`
/// by exactly that.
pub fn choose_seed(client_seed: Option<u64>, allow_client_seed: bool) -> Result<Seed, ApiError> {
    match client_seed {
        Some(value) if allow_client_seed => Ok(Seed::from_u64(value)),
        Some(_) => Err(ApiError::InvalidRequest(
            "client seeds are disabled on this server (--allow-client-seed)".to_string(),
        )),
        None => Ok(Seed(random_bytes()?)),
    }
}

/// The commitment to a seed announced at creation: SHA-256 of its 32 bytes.
pub fn seed_commitment(seed: &Seed) -> [u8; 32] {
    Sha256::digest(seed.0).into()
}

/// `N` bytes from the operating system's generator.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)
        .map_err(|error| ApiError::Internal(format!("the OS random generator failed: {error}")))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::metadata::MetadataValue;

    fn metadata(value: &str) -> MetadataMap {
        let mut map = MetadataMap::new();
        map.insert("authorization", MetadataValue::try_from(value).unwrap());
        map
    }

    #[test]
    fn tokens_are_long_random_and_well_formed() {
        let a = SeatToken::generate().unwrap();
        let b = SeatToken::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.expose().len(), TOKEN_LEN);
        assert!(is_well_formed(a.expose()));
        assert!(!format!("{a:?}").contains(&a.expose()[4..]));
    }

    #[test]
    fn find_seat_names_the_matching_seat_only() {
        let tokens: Vec<SeatToken> = (0..3).map(|_| SeatToken::generate().unwrap()).collect();
        let hashes: Vec<TokenHash> = tokens.iter().map(SeatToken::hash).collect();
        for (index, token) in tokens.iter().enumerate() {
            assert_eq!(find_seat(&hashes, &token.hash()), Some(Seat(index as u8)));
        }
        let stranger = SeatToken::generate().unwrap();
        assert_eq!(find_seat(&hashes, &stranger.hash()), None);
        assert_eq!(find_seat(&[], &stranger.hash()), None);
    }

    #[test]
    fn bearer_metadata_is_parsed_strictly() {
        let token = SeatToken::generate().unwrap();
        let hash = presented_token(&metadata(&format!("Bearer {}", token.expose())))
            .unwrap()
            .unwrap();
        assert_eq!(hash, token.hash());
        let lower = presented_token(&metadata(&format!("bearer {}", token.expose()))).unwrap();
        assert_eq!(lower, Some(token.hash()));
        assert_eq!(presented_token(&MetadataMap::new()), Ok(None));
        for bad in [
            "Bearer".to_string(),
            token.expose().to_string(),
            format!("Basic {}", token.expose()),
            "Bearer dm1_short".to_string(),
            format!("Bearer dm2_{}", &token.expose()[4..]),
            format!("Bearer {}!", &token.expose()[..TOKEN_LEN - 1]),
        ] {
            let error = presented_token(&metadata(&bad)).unwrap_err();
            assert_eq!(error.reason(), "BAD_TOKEN", "{bad}");
            assert_eq!(error.code(), tonic::Code::Unauthenticated, "{bad}");
        }
    }

    #[test]
    fn a_second_authorization_entry_is_refused_whatever_it_holds() {
        let token = SeatToken::generate().unwrap();
        let bearer = format!("Bearer {}", token.expose());
        for second in [bearer.clone(), "Basic e30=".to_string()] {
            let mut map = metadata(&bearer);
            map.append("authorization", MetadataValue::try_from(&second).unwrap());
            let error = presented_token(&map).unwrap_err();
            assert_eq!(error.reason(), "BAD_TOKEN");
            assert_eq!(error.code(), tonic::Code::Unauthenticated);
            assert!(error.to_string().contains("more than one"), "{error}");
            assert!(!error.to_string().contains(&token.expose()[4..]), "{error}");
        }
    }

    #[test]
    fn readers_and_actors() {
        let token = SeatToken::generate().unwrap();
        let hashes = [SeatToken::generate().unwrap().hash(), token.hash()];
        let wrong = SeatToken::generate().unwrap().hash();
        assert_eq!(
            reader(&hashes, Some(&token.hash()), false),
            Ok(Viewer::Seat(Seat(1)))
        );
        assert_eq!(reader(&hashes, None, true), Ok(Viewer::Spectator));
        assert_eq!(
            reader(&hashes, None, false).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            reader(&hashes, Some(&wrong), true),
            Err(ApiError::WrongToken)
        );
        assert_eq!(actor(&hashes, Some(&token.hash())), Ok(Seat(1)));
        assert_eq!(actor(&hashes, Some(&wrong)), Err(ApiError::WrongToken));
        assert_eq!(
            actor(&hashes, None).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
    }

    #[test]
    fn game_ids_are_32_hex_digits_with_their_creation_time() {
        let id = new_game_id().unwrap();
        assert!(is_game_id(&id), "{id}");
        let now = crate::store::unix_millis() / 1000;
        let created = game_id_created_at(&id).unwrap();
        assert!(created.abs_diff(now) <= 2, "{created} vs {now}");
        let old = game_id_at(1_700_000_000).unwrap();
        assert_eq!(game_id_created_at(&old), Some(1_700_000_000));
        assert_eq!(game_id_created_at("not-a-game"), None);
        assert_ne!(id, new_game_id().unwrap());
        assert!(!is_game_id(&id.to_uppercase()));
        assert!(!is_game_id("not-a-game"));
        assert!(!is_game_id(""));
        assert!(is_game_id("0123456789abcdef0123456789abcdef"));
        // Each byte just outside the digits and the letters, at the last place.
        for outside in ["/", ":", "`", "g", "A", "F", "é"] {
            let mut near = "0123456789abcdef0123456789abcde".to_string();
            near.truncate(32 - outside.len());
            near.push_str(outside);
            assert_eq!(near.len(), 32);
            assert!(!is_game_id(&near), "{near}");
        }
        assert!(!is_game_id(&format!("{id}0")), "one digit too many");
        assert!(!is_game_id(&id[1..]), "one digit too few");
    }

    #[test]
    fn seeds_follow_the_server_policy() {
        assert_eq!(choose_seed(Some(7), true).unwrap(), Seed::from_u64(7));
        let refused = choose_seed(Some(7), false).unwrap_err();
        assert_eq!(
            refused,
            ApiError::InvalidRequest(
                "client seeds are disabled on this server (--allow-client-seed)".into()
            )
        );
        assert_ne!(
            choose_seed(None, true).unwrap(),
            choose_seed(None, true).unwrap()
        );
        let seed = Seed::from_u64(1);
        let expected: [u8; 32] = Sha256::digest(seed.0).into();
        assert_eq!(seed_commitment(&seed), expected);
    }
}
