//! [`ConnectionLimit`]: `--max-connections`, the most client connections open at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::monitoring;

/// Counts open connections against a maximum; cheap to clone, clones share the count.
#[derive(Clone, Debug)]
pub struct ConnectionLimit {
    max: usize,
    open: Arc<AtomicUsize>,
}

impl ConnectionLimit {
    /// A limit of `max` connections, none open.
    pub fn new(max: usize) -> ConnectionLimit {
        ConnectionLimit {
            max,
            open: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The most connections open at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Counts one more open connection, until the returned admission is dropped; `None` when
    /// the maximum is open.
    pub fn try_admit(&self) -> Option<Admission> {
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < self.max).then_some(open + 1)
            })
            .ok()?;
        monitoring::connection_opened();
        Some(Admission {
            open: self.open.clone(),
        })
    }
}

/// One open connection, counted until dropped.
#[derive(Debug)]
pub struct Admission {
    open: Arc<AtomicUsize>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
        monitoring::connection_closed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_up_to_the_maximum_and_again_once_one_closes() {
        let limit = ConnectionLimit::new(2);
        let first = limit.try_admit().expect("first");
        let second = limit.try_admit().expect("second");
        assert!(limit.try_admit().is_none());
        assert_eq!(limit.open(), 2);
        drop(first);
        assert_eq!(limit.open(), 1);
        let third = limit.try_admit().expect("a place came free");
        assert!(limit.try_admit().is_none());
        drop((second, third));
        assert_eq!(limit.open(), 0);
    }
}
