//! A first-in first-out list for the engine's per-try timers.

/// A first-in first-out list kept as a vector and the index of its front: a push is a
/// vector's push and a pop a step of the index, with no wrap-around to work out (the
/// engine's per-try timers take and give one entry per attempt, and `VecDeque`'s push and
/// back cost about twice the instructions; for the event queue's lanes the two cost the
/// same). The popped prefix
/// goes when the list empties, or once it is at least half of the vector and more than a
/// few thousand entries.
pub struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo { items: Vec::new(), head: 0 }
    }
}

impl<T: Copy> Fifo<T> {
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len() - self.head
    }

    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        self.items.get(self.head)
    }

    /// The last entry (`head` is 0 whenever the list is empty).
    #[inline(always)]
    pub fn back(&self) -> Option<&T> {
        self.items.last()
    }

    #[inline(always)]
    pub fn push_back(&mut self, x: T) {
        self.items.push(x);
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        let x = *self.items.get(self.head)?;
        self.head += 1;
        if self.head == self.items.len() {
            self.items.clear();
            self.head = 0;
        } else if self.head >= 4096 && 2 * self.head >= self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        Some(x)
    }

    /// Keeps the entries `keep` says yes to, in order; `keep` sees each one's position.
    pub fn retain(&mut self, mut keep: impl FnMut(usize, &T) -> bool) {
        self.items.drain(..self.head);
        self.head = 0;
        let mut i = 0;
        self.items.retain(|x| {
            i += 1;
            keep(i - 1, x)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fifo_keeps_order_across_compaction_and_retain() {
        let mut f = Fifo::default();
        let mut model = std::collections::VecDeque::new();
        // Never empty for long: the popped prefix is dropped by the half rule, not by
        // emptying.
        for i in 0..20_000u32 {
            f.push_back(i);
            model.push_back(i);
            if i % 3 != 0 {
                assert_eq!(f.pop_front(), model.pop_front());
            }
            assert_eq!((f.len(), f.front(), f.back()), (model.len(), model.front(), model.back()));
        }
        assert!(f.items.len() < 2 * f.len() + 4096, "the consumed prefix was dropped: {}", f.items.len());
        f.retain(|i, x| i == 0 || x % 2 == 0);
        model = model.iter().enumerate().filter(|&(i, x)| i == 0 || x % 2 == 0).map(|(_, &x)| x).collect();
        assert_eq!(f.len(), model.len());
        while let Some(x) = f.pop_front() {
            assert_eq!(Some(x), model.pop_front());
        }
        assert!(model.is_empty() && f.front().is_none() && f.back().is_none());
    }
}
