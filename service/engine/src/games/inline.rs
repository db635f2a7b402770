//! [`InlineList`]: a short list kept inline, for the per-piece destination lists that legal
//! action listing builds for every piece on every turn, where a heap allocation each would cost
//! more than the rules themselves.

use std::ops::Deref;

/// At most `N` copyable items, stored inline. `N` is a proven bound of the list's use (such as
/// the most destinations a piece can have); pushing beyond it is a bug and panics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InlineList<T: Copy, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> InlineList<T, N> {
    /// An empty list; `filler` only initialises the unused slots and is never read.
    pub(crate) fn new(filler: T) -> Self {
        InlineList {
            items: [filler; N],
            len: 0,
        }
    }

    /// Appends `item`.
    pub(crate) fn push(&mut self, item: T) {
        assert!(self.len < N, "an inline list holds at most {N} items");
        self.items[self.len] = item;
        self.len += 1;
    }

    /// Empties the list, so that one list serves many lookups in turn.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The items, mutable (to sort them).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy, const N: usize> Deref for InlineList<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_pushed_in_order() {
        let mut list: InlineList<u8, 3> = InlineList::new(0);
        assert!(list.is_empty());
        list.push(7);
        list.push(2);
        assert_eq!(&*list, &[7, 2]);
        list.as_mut_slice().sort_unstable();
        assert_eq!(&*list, &[2, 7]);
        list.push(9);
        assert_eq!(list.len(), 3);
        list.clear();
        assert!(list.is_empty());
        list.push(4);
        assert_eq!(&*list, &[4]);
    }

    #[test]
    #[should_panic(expected = "at most 2 items")]
    fn refuses_to_grow_past_its_bound() {
        let mut list: InlineList<u8, 2> = InlineList::new(0);
        for item in 0..3 {
            list.push(item);
        }
    }
}
