//! [`DueIndex`]: the in-process due index of the memory store (docs/CLOCKS.md, "The due
//! index"): game ids ordered by when the clock scheduler should next look at them.

use std::collections::{BTreeSet, HashMap};

/// Game ids by due time (Unix ms). One entry per game.
#[derive(Debug, Default)]
pub struct DueIndex {
    by_time: BTreeSet<(u64, String)>,
    by_game: HashMap<String, u64>,
}

impl DueIndex {
    /// Files game `id` as due at `due_ms`, or takes it out (`None`).
    pub fn file(&mut self, id: &str, due_ms: Option<u64>) {
        if let Some(old) = self.by_game.remove(id) {
            self.by_time.remove(&(old, id.to_string()));
        }
        if let Some(due_ms) = due_ms {
            self.by_time.insert((due_ms, id.to_string()));
            self.by_game.insert(id.to_string(), due_ms);
        }
    }

    /// Up to `limit` games due at `now_ms`, earliest first, each filed again at `lease_until_ms`
    /// so that no other claim takes it before then.
    pub fn claim(&mut self, now_ms: u64, lease_until_ms: u64, limit: usize) -> Vec<String> {
        let due: Vec<String> = self
            .by_time
            .iter()
            .take_while(|(at, _)| *at <= now_ms)
            .take(limit)
            .map(|(_, id)| id.clone())
            .collect();
        for id in &due {
            self.file(id, Some(lease_until_ms));
        }
        due
    }

    /// Games filed.
    pub fn len(&self) -> usize {
        self.by_game.len()
    }

    /// Whether no game is filed.
    pub fn is_empty(&self) -> bool {
        self.by_game.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_take_what_is_due_in_order_and_lease_it() {
        let mut index = DueIndex::default();
        index.file("late", Some(300));
        index.file("early", Some(100));
        index.file("gone", Some(50));
        index.file("gone", None);
        index.file("moved", Some(1_000));
        index.file("moved", Some(200));
        assert_eq!(index.len(), 3);
        assert_eq!(index.claim(250, 2_250, 10), vec!["early", "moved"]);
        assert!(index.claim(250, 2_250, 10).is_empty(), "leased until 2,250");
        assert_eq!(index.claim(400, 2_400, 1), vec!["late"]);
        assert_eq!(index.claim(2_250, 4_250, 10), vec!["early", "moved"]);
        index.file("early", None);
        index.file("moved", None);
        index.file("late", None);
        assert!(index.is_empty());
    }
}
