//! [`GameAccess`]: the calls on one game as one viewer (a seat with its credential, or a
//! spectator without one), shared by [`SeatHandle`](crate::SeatHandle) and
//! [`Spectator`](crate::Spectator).

use futures::Stream;

use crate::connection::Connection;
use crate::credential::Credential;
use crate::{ActOptions, Error, RetryPolicy, new_request_id, pb, watch};

/// One game as seen by one viewer.
#[derive(Clone, Debug)]
pub(crate) struct GameAccess {
    connection: Connection,
    game_id: String,
    credential: Option<Credential>,
}

impl GameAccess {
    /// Access to `game_id` as the seat `credential` names, or as a spectator without one.
    pub(crate) fn new(
        connection: Connection,
        game_id: String,
        credential: Option<Credential>,
    ) -> GameAccess {
        GameAccess {
            connection,
            game_id,
            credential,
        }
    }

    /// The game's id.
    pub(crate) fn game_id(&self) -> &str {
        &self.game_id
    }

    /// The credential, if this is a seat.
    pub(crate) fn credential(&self) -> Option<&Credential> {
        self.credential.as_ref()
    }

    /// The retry policy.
    pub(crate) fn retry(&self) -> &RetryPolicy {
        self.connection.retry()
    }

    /// `message` as a request carrying the API key and the viewer's credential, if any.
    fn request<T>(&self, message: T) -> tonic::Request<T> {
        self.connection.request(message, self.credential.as_ref())
    }

    /// The game as the viewer sees it now.
    pub(crate) async fn observe(&self) -> Result<pb::ObserveResponse, Error> {
        let message = pb::ObserveRequest {
            game_id: self.game_id.clone(),
        };
        self.retry()
            .run(|| {
                let mut rpc = self.connection.rpc();
                let request = self.request(message.clone());
                async move { Ok(rpc.observe(request).await?.into_inner()) }
            })
            .await
    }

    /// The whole event log as the viewer may know it: every page, from version 0 to the last,
    /// in one response.
    pub(crate) async fn history(&self) -> Result<pb::GetHistoryResponse, Error> {
        loop {
            let whole = self.every_page().await?;
            // A game that finished while its pages were read: the first pages were projected
            // and had no actions. Finished is final, so the second reading is consistent.
            if whole.finished_while_read {
                continue;
            }
            return Ok(whole.history);
        }
    }

    /// Reads every page of the history and joins them.
    async fn every_page(&self) -> Result<WholeHistory, Error> {
        let mut history = self.history_page(0, 0, "").await?;
        let finished_at_first = history.status() == pb::GameStatus::Finished;
        while !history.next_page_token.is_empty() {
            let mut page = self.history_page(0, 0, &history.next_page_token).await?;
            let mut events = std::mem::take(&mut history.events);
            events.append(&mut page.events);
            let mut actions = std::mem::take(&mut history.actions);
            actions.append(&mut page.actions);
            // The last page's fields (version, status, seed) describe the joined log.
            history = pb::GetHistoryResponse {
                events,
                actions,
                ..page
            };
        }
        let finished_while_read =
            !finished_at_first && history.status() == pb::GameStatus::Finished;
        Ok(WholeHistory {
            history,
            finished_while_read,
        })
    }

    /// One page of the event log: the versions from `from_version` (or from where
    /// `page_token` says) on, `page_size` of them (0: the server's default).
    pub(crate) async fn history_page(
        &self,
        from_version: u64,
        page_size: i32,
        page_token: &str,
    ) -> Result<pb::GetHistoryResponse, Error> {
        let message = pb::GetHistoryRequest {
            game_id: self.game_id.clone(),
            from_version,
            page_size,
            page_token: page_token.to_string(),
        };
        self.retry()
            .run(|| {
                let mut rpc = self.connection.rpc();
                let request = self.request(message.clone());
                async move { Ok(rpc.get_history(request).await?.into_inner()) }
            })
            .await
    }

    /// Sends one action. Retries (only with a client-generated request id) reuse the request
    /// id, so the action is applied at most once. The error, if any, carries that request id:
    /// the caller needs it to resend an action whose outcome it could not learn.
    pub(crate) async fn act(
        &self,
        action: pb::Action,
        options: ActOptions,
    ) -> Result<pb::ActResponse, Error> {
        // An empty id is no idempotency key (the proto's `request_id`): it counts as unset.
        let caller_id = options.request_id.filter(|id| !id.is_empty());
        let retry = self.retry().for_request_id(caller_id.is_some());
        let message = pb::ActRequest {
            game_id: self.game_id.clone(),
            action: Some(action),
            expected_version: options.expected_version,
            request_id: caller_id.unwrap_or_else(new_request_id),
        };
        retry
            .run(|| {
                let mut rpc = self.connection.rpc();
                let request = self.request(message.clone());
                async move { Ok(rpc.act(request).await?.into_inner()) }
            })
            .await
            .map_err(|error| error.with_request_id(message.request_id))
    }

    /// Opens one `Watch` call starting after `from_version` (no retries: the caller resumes).
    pub(crate) async fn open_watch(
        &self,
        from_version: u64,
    ) -> Result<tonic::Streaming<pb::ObserveResponse>, Error> {
        let request = self.request(pb::WatchRequest {
            game_id: self.game_id.clone(),
            from_version,
        });
        Ok(self.connection.rpc().watch(request).await?.into_inner())
    }

    /// Every version after `from_version`, resuming after temporary failures.
    pub(crate) fn watch(
        &self,
        from_version: u64,
    ) -> impl Stream<Item = Result<pb::ObserveResponse, Error>> + Send + Unpin + 'static + use<>
    {
        watch::resuming_watch(self.clone(), from_version)
    }
}

/// Every page of a history joined into one response.
struct WholeHistory {
    history: pb::GetHistoryResponse,
    /// Whether the game was running at the first page and finished at the last.
    finished_while_read: bool,
}
