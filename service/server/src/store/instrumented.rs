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

crate::monitoring::label_values! {
    /// A timed store operation: the `op` label of `deckmate_store_duration_seconds`, one per
    /// [`SessionStore`] method (docs/OPERATIONS.md, "Metrics").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum StoreOp {
        /// [`SessionStore::create`].
        Create => "create",
        /// [`SessionStore::load`].
        Load => "load",
        /// [`SessionStore::peek`].
        Peek => "peek",
        /// [`SessionStore::load_for_update`].
        LoadForUpdate => "load_for_update",
        /// [`SessionStore::reload`].
        Reload => "reload",
        /// [`SessionStore::commit`].
        Commit => "commit",
        /// [`SessionStore::find_request`].
        FindRequest => "find_request",
        /// [`SessionStore::remove`].
        Remove => "remove",
        /// [`SessionStore::find_create`].
        FindCreate => "find_create",
        /// [`SessionStore::put_create`].
        PutCreate => "put_create",
        /// [`SessionStore::watch`] (the subscription, not the stream's lifetime).
        Watch => "watch",
        /// [`SessionStore::health`].
        Health => "health",
        /// [`SessionStore::live_games`].
        LiveGames => "live_games",
        /// [`SessionStore::epoch`].
        Epoch => "epoch",
        /// [`SessionStore::now_ms`].
        Now => "now",
        /// [`SessionStore::file_due`].
        FileDue => "file_due",
        /// [`SessionStore::claim_due`].
        ClaimDue => "claim_due",
    }
}

/// Runs `operation`, recording how long it took under `op`.
async fn timed<T>(op: StoreOp, operation: impl Future<Output = T>) -> T {
    let started = Instant::now();
    let result = operation.await;
    monitoring::store_operation(op, started.elapsed());
    result
}

#[async_trait]
impl SessionStore for InstrumentedStore {
    async fn create(&self, record: GameRecord) -> Result<CreateOutcome, CreateError> {
        timed(StoreOp::Create, self.inner.create(record)).await
    }

    async fn load(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed(StoreOp::Load, self.inner.load(id)).await
    }

    async fn peek(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed(StoreOp::Peek, self.inner.peek(id)).await
    }

    async fn load_for_update(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed(StoreOp::LoadForUpdate, self.inner.load_for_update(id)).await
    }

    async fn reload(&self, id: &str) -> Result<Option<Arc<GameRecord>>, StoreError> {
        timed(StoreOp::Reload, self.inner.reload(id)).await
    }

    async fn commit(&self, commit: Commit) -> Result<CommitOutcome, StoreError> {
        timed(StoreOp::Commit, self.inner.commit(commit)).await
    }

    async fn find_request(
        &self,
        id: &str,
        request: SeatRequest,
    ) -> Result<Option<u64>, StoreError> {
        timed(StoreOp::FindRequest, self.inner.find_request(id, request)).await
    }

    async fn remove(&self, id: &str) -> Result<(), StoreError> {
        timed(StoreOp::Remove, self.inner.remove(id)).await
    }

    async fn find_create(&self, key: &str) -> Result<Option<SealedCreate>, StoreError> {
        timed(StoreOp::FindCreate, self.inner.find_create(key)).await
    }

    async fn put_create(
        &self,
        key: &str,
        sealed: SealedCreate,
        window: Duration,
    ) -> Result<PutCreateOutcome, StoreError> {
        timed(
            StoreOp::PutCreate,
            self.inner.put_create(key, sealed, window),
        )
        .await
    }

    async fn watch(&self, id: &str) -> Result<VersionStream, StoreError> {
        // Times the subscription, not the stream's lifetime.
        timed(StoreOp::Watch, self.inner.watch(id)).await
    }

    async fn health(&self) -> bool {
        timed(StoreOp::Health, self.inner.health()).await
    }

    async fn live_games(&self) -> Result<u64, StoreError> {
        timed(StoreOp::LiveGames, self.inner.live_games()).await
    }

    async fn epoch(&self) -> Result<u64, StoreError> {
        timed(StoreOp::Epoch, self.inner.epoch()).await
    }

    async fn now_ms(&self) -> Result<u64, StoreError> {
        timed(StoreOp::Now, self.inner.now_ms()).await
    }

    async fn file_due(&self, id: &str, due_ms: Option<u64>) -> Result<(), StoreError> {
        timed(StoreOp::FileDue, self.inner.file_due(id, due_ms)).await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        timed(
            StoreOp::ClaimDue,
            self.inner.claim_due(now_ms, lease_ms, limit),
        )
        .await
    }

    fn game_ttl(&self) -> Duration {
        self.inner.game_ttl()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_operation_has_its_own_label() {
        let labels: HashSet<_> = StoreOp::ALL.iter().map(|op| op.label()).collect();
        assert_eq!(labels.len(), StoreOp::ALL.len());
    }
}
