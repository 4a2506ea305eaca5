//! The stack of a tree walk: inline for any balanced tree, spilling to the heap only for a
//! degenerate one, so a walk allocates nothing in practice and never overflows.

/// Entries kept inline before the stack spills to the heap.
const INLINE: usize = 64;

/// A last-in first-out stack of walk entries (a node to visit and its key), the first `N`
/// inline.
#[derive(Clone, Debug)]
pub(crate) struct WalkStack<T, const N: usize = INLINE> {
    inline: [T; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default, const N: usize> Default for WalkStack<T, N> {
    fn default() -> Self {
        WalkStack {
            inline: [T::default(); N],
            len: 0,
            spill: Vec::new(),
        }
    }
}

impl<T: Copy, const N: usize> WalkStack<T, N> {
    /// Pushes an entry.
    #[inline]
    pub(crate) fn push(&mut self, entry: T) {
        if self.len < N {
            self.inline[self.len] = entry;
            self.len += 1;
        } else {
            self.spill.push(entry);
        }
    }

    /// Takes the newest entry, `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if let Some(entry) = self.spill.pop() {
            return Some(entry);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }

    /// The newest entry without taking it.
    #[inline]
    pub(crate) fn peek(&self) -> Option<T> {
        match self.spill.last() {
            Some(&entry) => Some(entry),
            None => self.len.checked_sub(1).map(|i| self.inline[i]),
        }
    }

    /// Drops every entry.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spills_past_the_inline_entries_and_pops_last_in_first_out() {
        let mut stack = WalkStack::<u32>::default();
        for i in 0..3 * INLINE as u32 {
            stack.push(i);
            assert_eq!(stack.peek(), Some(i));
        }
        for i in (0..3 * INLINE as u32).rev() {
            assert_eq!(stack.pop(), Some(i));
        }
        assert_eq!(stack.pop(), None);
        stack.push(7);
        stack.clear();
        assert_eq!(stack.peek(), None);
    }
}
