//! [`Spectator`]: watching a game without a seat.

use futures::Stream;

use crate::access::GameAccess;
use crate::{Error, pb};

/// A game seen without a seat token: only public information. Works only for games whose
/// spectator policy allows spectators (otherwise calls fail with
/// [`Error::BadToken`](crate::Error::BadToken)).
#[derive(Clone, Debug)]
pub struct Spectator {
    access: GameAccess,
}

impl Spectator {
    /// A spectator of the game `access` points at (which holds no credential).
    pub(crate) fn new(access: GameAccess) -> Spectator {
        Spectator { access }
    }

    /// The game's id.
    pub fn game_id(&self) -> &str {
        self.access.game_id()
    }

    /// The game as a spectator sees it now.
    pub async fn observe(&self) -> Result<pb::ObserveResponse, Error> {
        self.access.observe().await
    }

    /// Every version after `from_version`, as a spectator sees it, in order and each exactly
    /// once. The stream ends after the game's final version; after a temporary failure it
    /// resumes from the last version it delivered.
    pub fn watch(
        &self,
        from_version: u64,
    ) -> impl Stream<Item = Result<pb::ObserveResponse, Error>> + Send + Unpin + 'static + use<>
    {
        self.access.watch(from_version)
    }

    /// The public event log; complete, with every action and the seed, once the game has
    /// finished.
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
