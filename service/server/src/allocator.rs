//! The binary's global allocator (docs/PERFORMANCE.md, "Allocator"): jemalloc by default
//! (feature `jemalloc`), mimalloc with the `mimalloc` feature, the system allocator with
//! neither. Declared by the binary only, so that tests and tools linking the library keep
//! their own allocator.
//!
//! With jemalloc the server also reports the allocator's own heap figures
//! ([`HEAP_STATS`], the `deckmate_heap_*` metrics): memory the program holds apart from what
//! the allocator keeps free or has not yet given back, which tells a leak from fragmentation
//! when the resident memory grows.

use deckmate_server::monitoring::HeapStats;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(all(feature = "jemalloc", not(feature = "mimalloc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Reads the allocator's heap figures: jemalloc's.
#[cfg(all(feature = "jemalloc", not(feature = "mimalloc")))]
pub(crate) const HEAP_STATS: Option<fn() -> Option<HeapStats>> = Some(jemalloc_heap_stats);

/// Reads the allocator's heap figures: none from this allocator.
#[cfg(not(all(feature = "jemalloc", not(feature = "mimalloc"))))]
pub(crate) const HEAP_STATS: Option<fn() -> Option<HeapStats>> = None;

/// Starts jemalloc's background threads, which give freed memory back to the system on
/// their own schedule (after about 10 s unused) instead of only when other threads allocate:
/// an idle server shrinks too. Does nothing with another allocator.
pub(crate) fn start() {
    #[cfg(all(feature = "jemalloc", not(feature = "mimalloc")))]
    if let Err(error) = tikv_jemalloc_ctl::background_thread::write(true) {
        tracing::warn!(%error, "cannot start the allocator's background threads");
    }
}

/// jemalloc's figures, refreshed first (it caches them until the epoch advances).
#[cfg(all(feature = "jemalloc", not(feature = "mimalloc")))]
fn jemalloc_heap_stats() -> Option<HeapStats> {
    use tikv_jemalloc_ctl::{epoch, stats};
    epoch::advance().ok()?;
    Some(HeapStats {
        allocated: stats::allocated::read().ok()? as u64,
        resident: stats::resident::read().ok()? as u64,
    })
}
