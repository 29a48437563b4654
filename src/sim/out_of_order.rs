//! The event queue's out-of-order events (see `queue.rs`): a priority queue that is a
//! sorted vector while it is short and a binary heap once it is long.
//!
//! Out of order come mostly work times drawn from a distribution, at most one per busy
//! worker: a handful to a few dozen events. For so few, a vector kept sorted with the
//! earliest last takes an event with one step of an insertion sort (the later ones move up
//! one place each, as it compares them), and gives the earliest back with a `pop`; a heap's pop sifts through every level and costs about as
//! much as the whole insertion (measured: 123 instructions a pop with ≈ 20 events). A long
//! queue (thousands of timers in a storm) goes to a heap, where an insertion stays
//! O(log n); it comes back to the vector once it is short again, with a gap between the two
//! lengths so that a queue near the limit does not move back and forth. Keys are unique
//! (they hold an insertion sequence), so both give exactly the same order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest sorted vector; a longer queue is a heap.
const SORTED_MAX: usize = 48;
/// A heap this short or shorter becomes a sorted vector again.
const BACK_TO_SORTED: usize = 16;

/// A priority queue (smallest first) of values that are all different.
pub struct OutOfOrder<T> {
    /// Sorted by key, largest first, while `heap` is empty.
    sorted: Vec<T>,
    heap: BinaryHeap<Reverse<T>>,
}

impl<T: Ord> Default for OutOfOrder<T> {
    fn default() -> Self {
        OutOfOrder { sorted: Vec::new(), heap: BinaryHeap::new() }
    }
}

impl<T: Ord + Copy> OutOfOrder<T> {
    pub fn len(&self) -> usize {
        self.sorted.len() + self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest.
    #[inline(always)]
    pub fn peek(&self) -> Option<&T> {
        if self.heap.is_empty() { self.sorted.last() } else { self.heap.peek().map(|Reverse(x)| x) }
    }

    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if !self.heap.is_empty() {
            self.heap.push(Reverse(x));
        } else if self.sorted.len() < SORTED_MAX {
            // From the earliest end, each earlier value moves up one place as it is compared:
            // one pass over the values it passes, where a binary search and `insert`'s
            // move were two passes and two calls (measured: ≈ 100 instructions an event
            // against ≈ 50 with ≈ 10 waiting).
            // Over a slice of its own, whose start and length stay in registers (through
            // the vector each step reloaded them and checked both indices).
            self.sorted.push(x);
            let v = self.sorted.as_mut_slice();
            let mut i = v.len() - 1;
            while i > 0 && v[i - 1] < x {
                v[i] = v[i - 1];
                i -= 1;
            }
            v[i] = x;
        } else {
            self.become_heap();
            self.heap.push(Reverse(x));
        }
    }

    /// Removes and returns the smallest.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        if self.heap.is_empty() {
            return self.sorted.pop();
        }
        let x = self.heap.pop().map(|Reverse(x)| x);
        if self.heap.len() <= BACK_TO_SORTED {
            self.become_sorted();
        }
        x
    }

    /// Keeps what `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.sorted.retain(&mut keep);
        self.heap.retain(|Reverse(x)| keep(x));
        if !self.heap.is_empty() && self.heap.len() <= BACK_TO_SORTED {
            self.become_sorted();
        }
    }

    #[cold]
    #[inline(never)]
    fn become_heap(&mut self) {
        self.heap.extend(self.sorted.drain(..).map(Reverse));
    }

    #[cold]
    #[inline(never)]
    fn become_sorted(&mut self) {
        debug_assert!(self.sorted.is_empty());
        // Ascending by `Reverse`: largest first, as `sorted` keeps them.
        let heap = std::mem::take(&mut self.heap);
        self.sorted = heap.into_sorted_vec().into_iter().map(|Reverse(x)| x).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_across_the_switch_both_ways() {
        let mut q = OutOfOrder::default();
        let mut model = std::collections::BTreeSet::new();
        // A pseudo-random walk whose length crosses both limits several times.
        let mut x: u64 = 1;
        for step in 0..20_000u64 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let grow = (step / 500) % 2 == 0;
            if (x >> 60) < if grow { 11 } else { 5 } {
                let k = (x >> 20) % 1_000_000 * 100_000 + step;
                q.push(k);
                model.insert(k);
            } else {
                assert_eq!(q.pop(), model.pop_first());
            }
            if step % 97 == 0 {
                // In either form, and across the switch back (a heap left short).
                q.retain(|k| k % 5 != 0);
                model.retain(|k| k % 5 != 0);
            }
            assert_eq!(q.len(), model.len());
            assert_eq!(q.peek(), model.first());
        }
        while let Some(k) = q.pop() {
            assert_eq!(Some(k), model.pop_first());
        }
        assert!(model.is_empty() && q.is_empty());
    }
}
