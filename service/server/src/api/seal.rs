//! Sealing remembered CreateGame responses (docs/ARCHITECTURE.md §3, idempotency): the store keeps
//! the response encrypted with ChaCha20-Poly1305 under a key derived from the request id, with the
//! game id as associated data, and looks it up by a different hash of the request id. So the store
//! never holds seat tokens or request ids in plain text, and only a client that knows the request
//! id can recover the tokens.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use deckmate_proto::v1 as pb;
use prost::Message;
use sha2::{Digest, Sha256};

use crate::auth::random_bytes;
use crate::error::ApiError;
use crate::store::SealedCreate;

/// The store key of a CreateGame request id: hex SHA-256("deckmate create " + id).
pub(super) fn create_key(request_id: &str) -> String {
    hex::encode(
        Sha256::new()
            .chain_update(b"deckmate create ")
            .chain_update(request_id.as_bytes())
            .finalize(),
    )
}

/// The sealing key of a CreateGame request id: SHA-256("deckmate seal " + id).
fn cipher(request_id: &str) -> ChaCha20Poly1305 {
    let key = Sha256::new()
        .chain_update(b"deckmate seal ")
        .chain_update(request_id.as_bytes())
        .finalize();
    ChaCha20Poly1305::new(Key::from_slice(&key))
}

/// Seals `response` for the store.
pub(super) fn seal(
    request_id: &str,
    response: &pb::CreateGameResponse,
) -> Result<SealedCreate, ApiError> {
    let nonce: [u8; 12] = random_bytes()?;
    let plaintext = response.encode_to_vec();
    let ciphertext = cipher(request_id)
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

/// Opens a sealed response; it must be for `sealed.game_id` and this request id.
pub(super) fn open(
    request_id: &str,
    sealed: &SealedCreate,
) -> Result<pb::CreateGameResponse, ApiError> {
    let plaintext = cipher(request_id)
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
    let response = pb::CreateGameResponse::decode(plaintext.as_slice()).map_err(|error| {
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

    #[test]
    fn sealed_responses_open_with_their_request_id_only() {
        let sealed = seal("req-1", &response()).unwrap();
        assert_eq!(sealed.game_id, response().game_id);
        assert_eq!(open("req-1", &sealed).unwrap(), response());
        assert!(open("req-2", &sealed).is_err());
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
    fn sealed_responses_are_bound_to_their_game() {
        let mut sealed = seal("req-1", &response()).unwrap();
        sealed.game_id = "ffffffffffffffffffffffffffffffff".to_string();
        assert!(open("req-1", &sealed).is_err());
    }

    #[test]
    fn create_keys_hide_the_request_id() {
        let key = create_key("req-1");
        assert_eq!(key.len(), 64);
        assert!(!key.contains("req"));
        assert_eq!(key, create_key("req-1"));
        assert_ne!(key, create_key("req-2"));
    }
}
