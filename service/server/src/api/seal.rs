//! Sealing remembered CreateGame responses (docs/ARCHITECTURE.md §3, idempotency): the store keeps
//! the response encrypted with ChaCha20-Poly1305 under a key derived from the caller and the
//! request id, with the game id as associated data, and looks it up by a different hash of the
//! two. So the store never holds seat tokens or request ids in plain text, only a client that
//! knows the request id can recover the tokens, and a request id names a different entry for
//! every caller (another caller reusing it creates its own game; docs/SECURITY.md).
//!
//! Next to the response the sealed text holds a digest of the request without its request id,
//! so that the same id sent with a different request is refused (`REQUEST_ID_REUSED`) instead
//! of being answered with the first game.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use deckmate_proto::v1 as pb;
use prost::Message;
use sha2::{Digest, Sha256};

use crate::auth::random_bytes;
use crate::error::ApiError;
use crate::store::SealedCreate;

/// The version byte that starts a sealed text: the request digest, then the response.
const SEALED_FORMAT: u8 = 2;

/// Length of a request digest.
const DIGEST_BYTES: usize = 32;

/// The caller and request id a remembered CreateGame response is filed under. The scope is the
/// caller's identity (`key:<name>` or `ip:<address>`), so that equal request ids of different
/// callers never meet.
#[derive(Clone, Copy, Debug)]
pub(super) struct CreateId<'a> {
    /// Who is calling.
    pub(super) scope: &'a str,
    /// The request's `request_id` (non-empty).
    pub(super) request_id: &'a str,
}

impl CreateId<'_> {
    /// SHA-256 of a domain label, the scope and the request id, each field ended by a NUL byte
    /// (neither contains one in practice, and a request id that did would only name its own
    /// entry).
    fn digest(&self, label: &[u8]) -> [u8; 32] {
        Sha256::new()
            .chain_update(label)
            .chain_update(self.scope.as_bytes())
            .chain_update([0])
            .chain_update(self.request_id.as_bytes())
            .chain_update([0])
            .finalize()
            .into()
    }

    /// The store key: hex SHA-256("deckmate create " + scope + request id).
    pub(super) fn store_key(&self) -> String {
        hex::encode(self.digest(b"deckmate create "))
    }

    /// The sealing key: SHA-256("deckmate seal " + scope + request id).
    fn cipher(&self) -> ChaCha20Poly1305 {
        ChaCha20Poly1305::new(Key::from_slice(&self.digest(b"deckmate seal ")))
    }
}

/// The digest of a CreateGame request without its request id: what a retry must repeat.
pub(super) fn request_digest(request: &pb::CreateGameRequest) -> [u8; DIGEST_BYTES] {
    let mut request = request.clone();
    request.request_id.clear();
    Sha256::new()
        .chain_update(b"deckmate create request ")
        .chain_update(request.encode_to_vec())
        .finalize()
        .into()
}

/// Seals `response` to the request whose digest is `digest`, for the store.
pub(super) fn seal(
    id: CreateId<'_>,
    digest: &[u8; DIGEST_BYTES],
    response: &pb::CreateGameResponse,
) -> Result<SealedCreate, ApiError> {
    let nonce: [u8; 12] = random_bytes()?;
    let mut plaintext = Vec::with_capacity(1 + DIGEST_BYTES + response.encoded_len());
    plaintext.push(SEALED_FORMAT);
    plaintext.extend_from_slice(digest);
    response
        .encode(&mut plaintext)
        .map_err(|_| ApiError::Internal("encoding a CreateGame response failed".to_string()))?;
    let ciphertext = id
        .cipher()
        .encrypt(
            Nonce::from_slice(&nonce),
            Payload {
                msg: &plaintext,
                aad: response.game_id.as_bytes(),
            },
        )
        .map_err(|_| ApiError::Internal("sealing a CreateGame response failed".to_string()))?;
    Ok(SealedCreate {
        game_id: response.game_id.clone(),
        nonce,
        ciphertext,
    })
}

/// Opens a sealed response; it must be for `sealed.game_id`, this caller and request id, and a
/// request whose digest is `digest` (else [`ApiError::RequestIdReused`]).
pub(super) fn open(
    id: CreateId<'_>,
    digest: &[u8; DIGEST_BYTES],
    sealed: &SealedCreate,
) -> Result<pb::CreateGameResponse, ApiError> {
    let plaintext = id
        .cipher()
        .decrypt(
            Nonce::from_slice(&sealed.nonce),
            Payload {
                msg: &sealed.ciphertext,
                aad: sealed.game_id.as_bytes(),
            },
        )
        .map_err(|_| {
            ApiError::Internal("a remembered CreateGame response does not open".to_string())
        })?;
    let (first_digest, encoded) = match plaintext.split_first() {
        Some((&SEALED_FORMAT, rest)) if rest.len() >= DIGEST_BYTES => rest.split_at(DIGEST_BYTES),
        _ => {
            return Err(ApiError::Internal(
                "a remembered CreateGame response has an unknown layout".to_string(),
            ));
        }
    };
    // A digest is no secret of the caller's (it came with the request), so an ordinary
    // comparison leaks nothing.
    if first_digest != digest {
        return Err(ApiError::RequestIdReused);
    }
    let response = pb::CreateGameResponse::decode(encoded).map_err(|error| {
        ApiError::Internal(format!(
            "a remembered CreateGame response is malformed: {error}"
        ))
    })?;
    if response.game_id != sealed.game_id {
        return Err(ApiError::Internal(
            "a remembered CreateGame response names another game".to_string(),
        ));
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response() -> pb::CreateGameResponse {
        pb::CreateGameResponse {
            game_id: "0123456789abcdef0123456789abcdef".to_string(),
            seat_tokens: vec![pb::SeatToken {
                seat: 0,
                token: "dm1_secret-token-text".to_string(),
            }],
            version: 0,
            seed_commitment: vec![7; 32],
            variant: "pigeon_chess".to_string(),
        }
    }

    fn request(seats: u32) -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            seats,
            request_id: "req-1".to_string(),
            ..Default::default()
        }
    }

    const ALICE: CreateId<'static> = CreateId {
        scope: "ip:10.0.0.1",
        request_id: "req-1",
    };

    #[test]
    fn sealed_responses_open_with_their_caller_and_request_id_only() {
        let digest = request_digest(&request(2));
        let sealed = seal(ALICE, &digest, &response()).unwrap();
        assert_eq!(sealed.game_id, response().game_id);
        assert_eq!(open(ALICE, &digest, &sealed).unwrap(), response());
        let other_id = CreateId {
            request_id: "req-2",
            ..ALICE
        };
        assert!(open(other_id, &digest, &sealed).is_err());
        let other_caller = CreateId {
            scope: "ip:10.0.0.2",
            ..ALICE
        };
        assert!(open(other_caller, &digest, &sealed).is_err());
        let plaintext = response().encode_to_vec();
        assert!(
            !sealed
                .ciphertext
                .windows(b"secret".len())
                .any(|window| window == b"secret"),
            "the token is not stored in the clear"
        );
        assert_ne!(sealed.ciphertext, plaintext);
    }

    #[test]
    fn a_different_request_under_the_same_id_is_refused() {
        let sealed = seal(ALICE, &request_digest(&request(2)), &response()).unwrap();
        assert_eq!(
            open(ALICE, &request_digest(&request(3)), &sealed),
            Err(ApiError::RequestIdReused)
        );
    }

    #[test]
    fn the_request_digest_ignores_the_request_id_only() {
        let mut renamed = request(2);
        renamed.request_id = "another".to_string();
        assert_eq!(request_digest(&request(2)), request_digest(&renamed));
        assert_ne!(request_digest(&request(2)), request_digest(&request(3)));
        let mut seeded = request(2);
        seeded.seed = Some(7);
        assert_ne!(request_digest(&request(2)), request_digest(&seeded));
    }

    #[test]
    fn sealed_responses_are_bound_to_their_game() {
        let digest = request_digest(&request(2));
        let mut sealed = seal(ALICE, &digest, &response()).unwrap();
        sealed.game_id = "ffffffffffffffffffffffffffffffff".to_string();
        assert!(open(ALICE, &digest, &sealed).is_err());
    }

    #[test]
    fn create_keys_hide_the_request_id_and_differ_by_caller() {
        let key = ALICE.store_key();
        assert_eq!(key.len(), 64);
        assert!(!key.contains("req"));
        assert_eq!(key, ALICE.store_key());
        let other_id = CreateId {
            request_id: "req-2",
            ..ALICE
        };
        assert_ne!(key, other_id.store_key());
        let other_caller = CreateId {
            scope: "key:team-b",
            ..ALICE
        };
        assert_ne!(key, other_caller.store_key());
    }
}
