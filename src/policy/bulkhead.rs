//! Bulkheads and worker pools: a concurrency limit with a bounded FIFO queue.
//!
//! The same mechanism serves a service's worker (thread) pool and a caller's per-dependency
//! bulkhead (≈ Resilience4j `Bulkhead`: `maxConcurrentCalls`, and `maxWaitDuration` as the
//! queue timeout; a queue of 0 rejects at once). A shared pool is one `Pool` that several
//! dependencies draw from (source 003's counter-example: every dependency on the same 8
//! threads).
//!
//! Choices: a freed slot goes straight to the oldest waiter; a waiter that gives up
//! (queue timeout, or its caller cancelled) leaves the queue lazily — it is skipped when it
//! reaches the front — so leaving is O(1) and the counts stay exact.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A per-dependency bulkhead as configured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BulkheadConfig {
    /// Calls allowed at once (≈ Resilience4j maxConcurrentCalls).
    pub max_concurrent: u32,
    /// Calls allowed to wait for a slot; 0 = reject at once when full.
    #[serde(default)]
    pub max_queue: u32,
    /// Longest wait in the queue before giving up (ms; ≈ maxWaitDuration); none = no limit.
    #[serde(default)]
    pub queue_timeout_ms: Option<f64>,
}

/// What happened when a call asked for a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// It holds a slot now.
    Admitted,
    /// It waits in the queue.
    Queued,
    /// Slots and queue are full.
    Rejected,
}

/// Slots plus a FIFO queue of waiters identified by opaque tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Slots; `None` = unlimited.
    pub limit: Option<u32>,
    /// Most waiters; `None` = unbounded.
    pub max_queue: Option<u32>,
    active: u32,
    queue: VecDeque<u64>,
    abandoned: usize,
}

impl Pool {
    pub fn new(limit: Option<u32>, max_queue: Option<u32>) -> Self {
        Pool { limit, max_queue, active: 0, queue: VecDeque::new(), abandoned: 0 }
    }

    /// Slots in use.
    pub fn active(&self) -> u32 {
        self.active
    }

    /// Waiters still waiting.
    pub fn queued(&self) -> usize {
        self.queue.len() - self.abandoned
    }

    /// Asks for a slot for `waiter`.
    pub fn enter(&mut self, waiter: u64) -> Entry {
        if self.limit.is_none_or(|l| self.active < l) {
            self.active += 1;
            Entry::Admitted
        } else if self.max_queue.is_none_or(|m| self.queued() < m as usize) {
            self.queue.push_back(waiter);
            Entry::Queued
        } else {
            Entry::Rejected
        }
    }

    /// A queued waiter gave up; it will be skipped when it reaches the front.
    pub fn abandon(&mut self) {
        debug_assert!(self.abandoned < self.queue.len());
        self.abandoned = (self.abandoned + 1).min(self.queue.len());
    }

    /// A slot was freed. Returns the waiter that now holds it, if one was waiting; tokens
    /// for which `still_waiting` says no are dropped (they abandoned earlier).
    pub fn release(&mut self, mut still_waiting: impl FnMut(u64) -> bool) -> Option<u64> {
        while let Some(w) = self.queue.pop_front() {
            if still_waiting(w) {
                return Some(w); // the slot passes to it: `active` is unchanged
            }
            self.abandoned = self.abandoned.saturating_sub(1);
        }
        self.active = self.active.saturating_sub(1);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_exactly_when_slots_and_queue_are_full() {
        let mut p = Pool::new(Some(2), Some(1));
        assert_eq!(p.enter(1), Entry::Admitted);
        assert_eq!(p.enter(2), Entry::Admitted);
        assert_eq!(p.enter(3), Entry::Queued);
        assert_eq!(p.enter(4), Entry::Rejected);
        assert_eq!((p.active(), p.queued()), (2, 1));
        assert_eq!(p.release(|_| true), Some(3), "the freed slot goes to the waiter");
        assert_eq!((p.active(), p.queued()), (2, 0));
        assert_eq!(p.release(|_| true), None);
        assert_eq!(p.active(), 1);
    }

    #[test]
    fn a_queue_of_zero_rejects_at_once() {
        let mut p = Pool::new(Some(1), Some(0));
        assert_eq!(p.enter(1), Entry::Admitted);
        assert_eq!(p.enter(2), Entry::Rejected);
    }

    #[test]
    fn abandoned_waiters_are_skipped_and_free_queue_space() {
        let mut p = Pool::new(Some(1), Some(2));
        p.enter(1);
        assert_eq!(p.enter(2), Entry::Queued);
        assert_eq!(p.enter(3), Entry::Queued);
        assert_eq!(p.enter(4), Entry::Rejected);
        p.abandon(); // waiter 2 timed out
        assert_eq!(p.queued(), 1);
        assert_eq!(p.enter(5), Entry::Queued, "its place is free again");
        assert_eq!(p.release(|w| w != 2), Some(3));
        assert_eq!(p.queued(), 1);
    }

    #[test]
    fn unlimited_pool_never_queues() {
        let mut p = Pool::new(None, Some(0));
        for i in 0..1000 {
            assert_eq!(p.enter(i), Entry::Admitted);
        }
        assert_eq!(p.active(), 1000);
    }
}
