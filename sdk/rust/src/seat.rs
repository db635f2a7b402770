//! [`SeatHandle`]: everything one seat does in one game.

use std::fmt;

use futures::Stream;

use crate::access::GameAccess;
use crate::{ActOptions, Error, pb};

/// One seat of one game: its index and its secret token. Cheap to clone; every call sends the
/// token as `authorization: Bearer <token>` metadata. `Debug` output never shows the token.
#[derive(Clone)]
pub struct SeatHandle {
    seat: u32,
    access: GameAccess,
}

impl SeatHandle {
    /// A handle for seat `seat` of the game `access` points at; `access` holds the seat's
    /// credential.
    pub(crate) fn new(seat: u32, access: GameAccess) -> SeatHandle {
        SeatHandle { seat, access }
    }

    /// The seat index, 0-based.
    pub fn seat(&self) -> u32 {
        self.seat
    }

    /// The game's id.
    pub fn game_id(&self) -> &str {
        self.access.game_id()
    }

    /// The secret seat token, for storing it to reconnect later with
    /// [`Client::seat`](crate::Client::seat). Anyone holding it can play this seat: never log
    /// it or show it to other players.
    pub fn token(&self) -> &str {
        self.access
            .credential()
            .map_or("", |credential| credential.token())
    }

    /// The game as this seat sees it now, with its legal actions.
    pub async fn observe(&self) -> Result<pb::ObserveResponse, Error> {
        self.access.observe().await
    }

    /// The game actions this seat may take now, in the server's stable order (empty when it is
    /// not this seat's turn or the game has finished); one `Observe` call. Meta actions
    /// (resign, draw offers) are in [`SeatHandle::observe`]'s `meta_actions`.
    pub async fn legal_actions(&self) -> Result<Vec<pb::Action>, Error> {
        Ok(self.access.observe().await?.legal_actions)
    }

    /// Sends one action (normally one of the observed `legal_actions` or `meta_actions`) with
    /// a fresh request id and no version check.
    pub async fn act(&self, action: pb::Action) -> Result<pb::ActResponse, Error> {
        self.access.act(action, ActOptions::default()).await
    }

    /// Sends one action with options: a version the game must still be at, and a chosen
    /// request id (a repeat of an earlier id returns that call's response and applies nothing;
    /// a call with a chosen id is not retried by the client). A failed call's error carries the
    /// request id it was sent with ([`Error::request_id`]).
    pub async fn act_with(
        &self,
        action: pb::Action,
        options: ActOptions,
    ) -> Result<pb::ActResponse, Error> {
        self.access.act(action, options).await
    }

    /// Gives up; in a two-player game the opponent wins.
    pub async fn resign(&self) -> Result<pb::ActResponse, Error> {
        self.meta(pb::MetaActionKind::Resign).await
    }

    /// Offers the opponent a draw.
    pub async fn offer_draw(&self) -> Result<pb::ActResponse, Error> {
        self.meta(pb::MetaActionKind::OfferDraw).await
    }

    /// Accepts the opponent's pending draw offer; the game ends drawn.
    pub async fn accept_draw(&self) -> Result<pb::ActResponse, Error> {
        self.meta(pb::MetaActionKind::AcceptDraw).await
    }

    /// Declines the opponent's pending draw offer.
    pub async fn decline_draw(&self) -> Result<pb::ActResponse, Error> {
        self.meta(pb::MetaActionKind::DeclineDraw).await
    }

    /// Sends a meta action.
    async fn meta(&self, kind: pb::MetaActionKind) -> Result<pb::ActResponse, Error> {
        self.act(meta_action(kind)).await
    }

    /// Every version after `from_version`, as this seat sees it, in order and each exactly
    /// once. The stream ends after the game's final version; after a temporary failure it
    /// resumes from the last version it delivered.
    pub fn watch(
        &self,
        from_version: u64,
    ) -> impl Stream<Item = Result<pb::ObserveResponse, Error>> + Send + Unpin + 'static + use<>
    {
        self.access.watch(from_version)
    }

    /// The event log as this seat may know it; complete, with every action and the seed, once
    /// the game has finished.
    /// It reads every page of `GetHistory` (see [`Self::history_page`]).
    pub async fn history(&self) -> Result<pb::GetHistoryResponse, Error> {
        self.access.history().await
    }

    /// One page of `GetHistory`: the versions from `from_version` on (or from where
    /// `page_token`, the `next_page_token` of the previous page, says), `page_size` of them (0
    /// for the server's default of 1000, its most). The last page has an empty
    /// `next_page_token`.
    pub async fn history_page(
        &self,
        from_version: u64,
        page_size: i32,
        page_token: &str,
    ) -> Result<pb::GetHistoryResponse, Error> {
        self.access
            .history_page(from_version, page_size, page_token)
            .await
    }
}

/// The envelope action for a meta action.
pub fn meta_action(kind: pb::MetaActionKind) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction { kind: kind.into() })),
    }
}

impl fmt::Debug for SeatHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeatHandle")
            .field("game_id", &self.game_id())
            .field("seat", &self.seat)
            .field("token", &"<redacted>")
            .finish()
    }
}
