//! The `page_token` of `GetHistory` (AIP-158): opaque to clients, it names the game it was
//! issued for and the first version of the next page.
//!
//! Wire form: unpadded base64url of one format byte ([`FORMAT`]), the next start version as 8
//! big-endian bytes, then the game id in UTF-8. The format byte lets a later server change the
//! layout and still recognise (and refuse) tokens of another layout. A token carries nothing
//! secret: the game id is known to whoever holds the token, and the version is public.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The layout of the tokens this server issues.
const FORMAT: u8 = 1;

/// Bytes before the game id: the format byte and the start version.
const HEADER_BYTES: usize = 1 + 8;

/// Where the next page of one game's history starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PageToken {
    /// The game the token was issued for.
    pub(super) game_id: String,
    /// The first version of the page it reads.
    pub(super) start: u64,
}

/// Why a token was refused; the text is the field violation's description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadToken {
    /// Not a token this server issues.
    #[error("not a page token of this API; send the next_page_token of the previous page")]
    Malformed,
}

impl PageToken {
    /// The token's wire form.
    pub(super) fn encode(&self) -> String {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + self.game_id.len());
        bytes.push(FORMAT);
        bytes.extend_from_slice(&self.start.to_be_bytes());
        bytes.extend_from_slice(self.game_id.as_bytes());
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// Reads a token's wire form.
    pub(super) fn decode(token: &str) -> Result<PageToken, BadToken> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| BadToken::Malformed)?;
        let (&format, rest) = bytes.split_first().ok_or(BadToken::Malformed)?;
        if format != FORMAT {
            return Err(BadToken::Malformed);
        }
        let (start, game_id) = rest.split_first_chunk::<8>().ok_or(BadToken::Malformed)?;
        let game_id = std::str::from_utf8(game_id).map_err(|_| BadToken::Malformed)?;
        if game_id.is_empty() {
            return Err(BadToken::Malformed);
        }
        Ok(PageToken {
            game_id: game_id.to_string(),
            start: u64::from_be_bytes(*start),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(game_id: &str, start: u64) -> PageToken {
        PageToken {
            game_id: game_id.to_string(),
            start,
        }
    }

    #[test]
    fn tokens_round_trip() {
        for original in [
            token("0123456789abcdef0123456789abcdef", 0),
            token("g", 7),
            token("0123456789abcdef0123456789abcdef", u64::MAX),
        ] {
            let wire = original.encode();
            assert_eq!(PageToken::decode(&wire), Ok(original));
        }
    }

    #[test]
    fn tokens_are_url_safe_text() {
        let wire = token("0123456789abcdef0123456789abcdef", 1000).encode();
        assert!(
            wire.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{wire}"
        );
    }

    #[test]
    fn different_games_and_starts_give_different_tokens() {
        let a = token("aaaa", 5).encode();
        assert_ne!(a, token("aaab", 5).encode());
        assert_ne!(a, token("aaaa", 6).encode());
    }

    #[test]
    fn malformed_tokens_are_refused() {
        let valid = token("abc", 3).encode();
        let mut other_format = URL_SAFE_NO_PAD.decode(&valid).expect("valid base64");
        other_format[0] = FORMAT + 1;
        let mut not_utf8 = URL_SAFE_NO_PAD.decode(&valid).expect("valid base64");
        not_utf8.push(0xff);
        for wire in [
            String::new(),
            "!!not base64!!".to_string(),
            format!("{valid}="),
            URL_SAFE_NO_PAD.encode([FORMAT]),
            URL_SAFE_NO_PAD.encode([FORMAT, 0, 0, 0, 0, 0, 0, 0, 1]),
            URL_SAFE_NO_PAD.encode(&other_format),
            URL_SAFE_NO_PAD.encode(&not_utf8),
        ] {
            assert_eq!(
                PageToken::decode(&wire),
                Err(BadToken::Malformed),
                "{wire:?}"
            );
        }
    }
}
