//! A [`SessionStore`] decorator that times every operation of the store it wraps into
//! `deckmate_store_duration_seconds{op}` (docs/OPERATIONS.md, "Metrics"). Only used when metrics
//! are on, so a server without them pays nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::{
    Commit, CommitOutcome, CreateError, CreateOutcome, GameRecord, PutCreateOutcome, SealedCreate,
    SeatRequest, SessionStore, StoreError, VersionStream,
};
use crate::monitoring;

/// Times the operations of the store inside.
pub struct InstrumentedStore {
    inner: Arc<dyn SessionStore>,
}

impl InstrumentedStore {
    /// Wraps `inner`.
    pub fn new(inner: Arc<dyn SessionStore>) -> InstrumentedStore {
        InstrumentedStore { inner }
    }
}

/// Runs `operation`, recording how long it took under `op`.
async fn timed<T>(op: &'static str, operation: impl Future<Output = T>) -> T {
    let started = Instant::now();
    let result = operation.await;
    monitoring::store_operation(op, started.elapsed());
    result
}

#[async_trait]
impl SessionStore for InstrumentedStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        timed("create", self.inner.create(record)).await
    }

    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed("load", self.inner.load(id)).await
    }

    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed("peek", self.inner.peek(id)).await
    }

    async fn load_for_update(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed("load_for_update", self.inner.load_for_update(id)).await
    }

    async fn reload(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed("reload", self.inner.reload(id)).await
    }

    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        timed("commit", self.inner.commit(commit)).await
    }

    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        timed("find_request", self.inner.find_request(id, request)).await
    }

    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        timed("remove", self.inner.remove(id)).await
    }

    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        timed("find_create", self.inner.find_create(key)).await
    }

    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        timed("put_create", self.inner.put_create(key, sealed, window)).await
    }

    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        // Times the subscription, not the stream's lifetime.
        timed("watch", self.inner.watch(id)).await
    }

    async fn health(&self) -> bool {
        timed("health", self.inner.health()).await
    }

    async fn live_games(&self) -> Result<u64, StoreError> {
        timed("live_games", self.inner.live_games()).await
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        timed("epoch", self.inner.epoch()).await
    }

    async fn now_ms(&self) -> Result<u64, StoreError> {
        timed("now", self.inner.now_ms()).await
    }

    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        timed("file_due", self.inner.file_due(id, due_ms)).await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        timed("claim_due", self.inner.claim_due(now_ms, lease_ms, limit)).await
    }

    fn game_ttl(&self) -> Duration {
        self.inner.game_ttl()
    }
}
