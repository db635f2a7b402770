//! `Watch`: a server stream of the caller's view of every version after `from_version`, in
//! order, each exactly once.
//!
//! The handler subscribes to the store's version notifications *before* loading the game, so no
//! commit can fall between the two; it sends the views the caller missed, then after each
//! notification reloads the game and sends what is new (notifications may be coalesced: the
//! game's log rebuilds every version in between). The stream finishes (OK) after the last
//! version of a finished game. On server shutdown it ends with UNAVAILABLE, asking the client
//! to reconnect and resume from the last version it received.
//!
//! Views are built a page of at most [`PAGE_VERSIONS`] views and about [`PAGE_BYTES`] at a time,
//! and the next page only once the last one was sent, so that a stream catching up on a long game
//! (from version 0, say) holds a page of views, not the whole game's; a client that stops reading
//! holds its stream at one page (HTTP/2 flow control stops the sending, and with it the reading
//! ahead).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use deckmate_engine::Viewer;
use deckmate_proto::v1 as pb;
use futures::{FutureExt, StreamExt};
use prost::Message as _;
use tokio::sync::OwnedSemaphorePermit;
use tonic::{Request, Status};
use tracing::{Instrument, Span};

use super::{
    GameApi, WatchStream, existing, load_game, log_error, missing, reader_of, require_game_id,
    with_game_id,
};
use crate::auth;
use crate::error::ApiError;
use crate::monitoring;
use crate::protection::watchers::{ClientWatchSlot, WatchSlot};
use crate::store::{GameRecord, SessionStore, VersionStream};

/// The most views a stream builds ahead of sending them.
const PAGE_VERSIONS: u64 = 32;

/// About the most bytes of views (encoded) a stream builds ahead of sending them: a page is cut
/// to fit, from the size of the views before it, but always holds at least one view.
const PAGE_BYTES: usize = 256 * 1024;

/// The status a stream ends with when the server shuts down: UNAVAILABLE `SHUTTING_DOWN` with
/// `RetryInfo`, so that clients resume from their last version on another replica.
pub(super) fn shutting_down() -> Status {
    ApiError::ShuttingDown.into()
}

pub(super) async fn handle(
    api: &GameApi,
    request: Request<pb::WatchRequest>,
    span: Span,
) -> Result<WatchStream, ApiError> {
    let presented = auth::presented_token(request.metadata())?;
    let client = api.protection.client_of(&request);
    let request = request.into_inner();
    require_game_id(&request.game_id)?;
    if api.shutdown.is_triggered() {
        return Ok(futures::stream::once(async { Err(shutting_down()) }).boxed());
    }
    // The client's own count first: a client at its maximum is told so, whatever the server's.
    let client_slot = api.protection.open_client_watch(client)?;
    let permit = api.watchers.clone().try_acquire_owned().map_err(|_| {
        monitoring::limit_rejected(monitoring::Limit::MaxWatchers);
        ApiError::LimitReached(format!(
            "the server has its maximum of {} open watch streams; retry later",
            api.settings.max_watchers
        ))
    })?;
    // Subscribe first: every commit after this point is notified.
    let versions = api.store.watch(&request.game_id).await?;
    let record = load_game(api.store.as_ref(), &request.game_id).await?;
    let viewer = reader_of(&record, presented.as_ref())?;
    // The game's place is taken once the caller is known, so that spectators are counted apart
    // from seat holders and can never lock a player out of its own game; and after the caller
    // was admitted, so that a refusal tells only an admitted caller about the limit. It is taken
    // before anything is sent or set going (the bot turn below), so that a refused call leaves
    // nothing behind: the subscription and the permit are dropped with it.
    let slot = api.protection.open_watch(&record.id, viewer)?;
    // A bot turn a lost replica left behind resumes here (a no-op when one is queued).
    api.bots.resume(&record);
    let current = record.version();
    if request.from_version > current {
        // The same field violation GetHistory gives for the same mistake.
        return Err(ApiError::invalid_field(
            "from_version",
            format!(
                "version {} is after the game's current version {current}",
                request.from_version
            ),
        ));
    }
    let mut watcher = Watcher {
        store: api.store.clone(),
        id: record.id.clone(),
        viewer,
        queued_up_to: request.from_version,
        latest: current,
        over: record.game.is_over(),
        pending: VecDeque::new(),
        view_bytes: 0,
        catching_up: None,
        versions,
        shutdown: Box::pin(api.shutdown.wait()),
        ended: false,
        span,
        _open: OpenStream::new(permit),
        _slot: slot,
        _client_slot: client_slot,
    };
    // The first page comes from the record just loaded; the next ones are reloaded as they are
    // needed.
    watcher.queue_page(record)?;
    tracing::debug!(from_version = request.from_version, "watch started");
    Ok(futures::stream::unfold(watcher, Watcher::next).boxed())
}

/// The state of one open `Watch` stream.
struct Watcher {
    store: Arc<dyn SessionStore>,
    id: String,
    viewer: Viewer,
    /// The version of the last view queued (or sent).
    queued_up_to: u64,
    /// The game's version in the last record loaded: the store's latest known version.
    latest: u64,
    /// Whether the game had finished at `latest`.
    over: bool,
    /// Views to send, in version order; at most [`PAGE_VERSIONS`] and about [`PAGE_BYTES`].
    pending: VecDeque<pb::ObserveResponse>,
    /// The largest encoded view of the last page built, which sizes the next page.
    view_bytes: usize,
    /// While catching up, the record the next page is read from (it holds every version up to
    /// `latest`), so that a catch-up loads the game once, not once per page. Dropped once the
    /// stream has caught up.
    catching_up: Option<Arc<GameRecord>>,
    versions: VersionStream,
    shutdown: Pin<Box<dyn Future<Output = ()> + Send>>,
    /// Set once an error was sent: nothing follows it.
    ended: bool,
    span: Span,
    /// Counts this stream against `--max-watchers` and in the metrics until it is dropped.
    _open: OpenStream,
    /// Counts this stream against `--max-watchers-per-game` (its spectators' or its seat's share)
    /// until it is dropped.
    _slot: WatchSlot,
    /// Counts this stream against `--max-watchers-per-client` until it is dropped.
    _client_slot: ClientWatchSlot,
}

/// An open stream's place under `--max-watchers` and in the watcher metrics; dropping it (the
/// stream ended or the client went away) gives both back.
struct OpenStream {
    _permit: OwnedSemaphorePermit,
    opened: Instant,
}

impl OpenStream {
    fn new(permit: OwnedSemaphorePermit) -> OpenStream {
        monitoring::watch_opened();
        OpenStream {
            _permit: permit,
            opened: Instant::now(),
        }
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        monitoring::watch_closed(self.opened.elapsed());
    }
}

type Item = Result<pb::ObserveResponse, Status>;

impl Watcher {
    /// The next message of the stream, or `None` when it finishes.
    async fn next(mut self) -> Option<(Item, Watcher)> {
        let span = self.span.clone();
        async move {
            let item = self.step().await?;
            Some((item, self))
        }
        .instrument(span)
        .await
    }

    async fn step(&mut self) -> Option<Item> {
        loop {
            if let Some(view) = self.pending.pop_front() {
                return Some(Ok(with_game_id(view, &self.id)));
            }
            if self.ended {
                return None;
            }
            if self.queued_up_to < self.latest {
                // Catching up: a shutdown ends the stream between two pages, as it would
                // while waiting, since the client resumes from the last version it received.
                if (&mut self.shutdown).now_or_never().is_some() {
                    self.ended = true;
                    tracing::debug!("watch closed for shutdown");
                    return Some(Err(shutting_down()));
                }
                if let Err(error) = self.queue_next_page().await {
                    self.ended = true;
                    log_error(&error);
                    return Some(Err(error.into()));
                }
                continue;
            }
            if self.over {
                tracing::debug!(version = self.queued_up_to, "watch finished: game over");
                return None;
            }
            tokio::select! {
                biased;
                () = &mut self.shutdown => {
                    self.ended = true;
                    tracing::debug!("watch closed for shutdown");
                    return Some(Err(shutting_down()));
                }
                notified = self.versions.next() => {
                    let result = match notified {
                        Some(Ok(version)) if version <= self.queued_up_to => Ok(()),
                        Some(Ok(_)) => self.queue_next_page().await,
                        Some(Err(error)) => Err(error.into()),
                        // The store dropped the game (expired, removed or lost).
                        None => Err(missing::missing_game(self.store.as_ref(), &self.id).await),
                    };
                    if let Err(error) = result {
                        self.ended = true;
                        log_error(&error);
                        return Some(Err(error.into()));
                    }
                }
            }
        }
    }

    /// Queues the next page of versions not yet queued: from the record a catch-up holds, else
    /// from the game reloaded (a newer version than any copy read before is known to exist).
    async fn queue_next_page(&mut self) -> Result<(), ApiError> {
        let record = match self.catching_up.take() {
            Some(record) if record.version() > self.queued_up_to => record,
            _ => {
                let loaded = self.store.reload(&self.id).await?;
                existing(self.store.as_ref(), &self.id, loaded).await?
            }
        };
        self.queue_page(record)
    }

    /// Records `record` as the latest known state of the game and queues the views of the
    /// versions after `queued_up_to` in it: at most [`PAGE_VERSIONS`] of them, and as many as
    /// fit in [`PAGE_BYTES`] (at least one).
    fn queue_page(&mut self, record: Arc<GameRecord>) -> Result<(), ApiError> {
        if record.version() < self.queued_up_to {
            // An older copy than one already read: it says nothing new.
            return Ok(());
        }
        self.latest = self.latest.max(record.version());
        self.over = record.game.is_over();
        if record.version() == self.queued_up_to {
            return Ok(());
        }
        let up_to = self
            .queued_up_to
            .saturating_add(self.page_versions())
            .min(record.version());
        let views = record
            .game
            .views_between(self.viewer, self.queued_up_to, up_to)?;
        let up_to = self.queue_within_budget(views);
        if up_to < record.version() {
            self.catching_up = Some(record);
        }
        Ok(())
    }

    /// How many views the next page may hold: [`PAGE_VERSIONS`], fewer when the views of the
    /// last page were so large that as many would pass [`PAGE_BYTES`].
    fn page_versions(&self) -> u64 {
        let fitting = PAGE_BYTES / self.view_bytes.max(1);
        (fitting as u64).clamp(1, PAGE_VERSIONS)
    }

    /// Queues `views` (the versions after `queued_up_to`, in order) up to [`PAGE_BYTES`] (at
    /// least one); returns the version of the last view queued. Views cut off are built again
    /// for the next page.
    fn queue_within_budget(&mut self, views: Vec<pb::ObserveResponse>) -> u64 {
        let mut bytes = 0;
        let mut largest = 0;
        for view in views {
            let size = view.encoded_len();
            if !self.pending.is_empty() && bytes + size > PAGE_BYTES {
                break;
            }
            bytes += size;
            largest = largest.max(size);
            self.pending.push_back(view);
            self.queued_up_to += 1;
        }
        self.view_bytes = largest;
        self.queued_up_to
    }
}
