//! A [`SessionStore`] decorator that runs every operation of the store it wraps in a child span
//! of the calling RPC (`store.load`, `store.commit`, ...; docs/OPERATIONS.md, "Traces").
//!
//! The spans are at debug level: the default log filter turns them off at their call sites, so
//! without a trace exporter they cost a disabled-callsite check; the trace layer enables them
//! for itself (see [`crate::otel::layer`]).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tracing::Instrument as _;

use super::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, PutCreateOutcome, SealedCreate,
    SeatRequest, SessionStore, StoreError, VersionStream,
};

/// Runs the operations of the store inside in their own spans.
pub struct TracedStore {
    inner: Arc<dyn SessionStore>,
}

impl TracedStore {
    /// Wraps `inner`.
    pub fn new(inner: Arc<dyn SessionStore>) -> TracedStore {
        TracedStore { inner }
    }
}

/// A store span: one macro call per name, because a span's name is fixed at its call site.
macro_rules! store_span {
    ($name:literal, $op:literal) => {
        tracing::debug_span!($name, db.operation.name = $op)
    };
}

#[async_trait]
impl SessionStore for TracedStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        let span = store_span!("store.create", "create");
        self.inner.create(record).instrument(span).await
    }

    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let span = store_span!("store.load", "load");
        self.inner.load(id).instrument(span).await
    }

    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let span = store_span!("store.peek", "peek");
        self.inner.peek(id).instrument(span).await
    }

    async fn load_for_update(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let span = store_span!("store.load_for_update", "load_for_update");
        self.inner.load_for_update(id).instrument(span).await
    }

    async fn reload(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        let span = store_span!("store.reload", "reload");
        self.inner.reload(id).instrument(span).await
    }

    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        let span = store_span!("store.commit", "commit");
        self.inner.commit(commit).instrument(span).await
    }

    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        let span = store_span!("store.find_request", "find_request");
        self.inner.find_request(id, request).instrument(span).await
    }

    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        let span = store_span!("store.remove", "remove");
        self.inner.remove(id).instrument(span).await
    }

    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        let span = store_span!("store.find_create", "find_create");
        self.inner.find_create(key).instrument(span).await
    }

    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        let span = store_span!("store.put_create", "put_create");
        self.inner
            .put_create(key, sealed, window)
            .instrument(span)
            .await
    }

    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        // Spans the subscription, not the stream's lifetime.
        let span = store_span!("store.watch", "watch");
        self.inner.watch(id).instrument(span).await
    }

    async fn health(&self) -> bool {
        let span = store_span!("store.health", "health");
        self.inner.health().instrument(span).await
    }

    async fn live_games(&self) -> Result<u64, StoreError> {
        let span = store_span!("store.live_games", "live_games");
        self.inner.live_games().instrument(span).await
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        let span = store_span!("store.epoch", "epoch");
        self.inner.epoch().instrument(span).await
    }

    async fn now_ms(&self) -> Result<u64, StoreError> {
        let span = store_span!("store.now", "now");
        self.inner.now_ms().instrument(span).await
    }

    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        let span = store_span!("store.file_due", "file_due");
        self.inner.file_due(id, due_ms).instrument(span).await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let span = store_span!("store.claim_due", "claim_due");
        self.inner
            .claim_due(now_ms, lease_ms, limit)
            .instrument(span)
            .await
    }

    fn game_ttl(&self) -> Duration {
        self.inner.game_ttl()
    }
}
