//! Bulkheads and worker pools: a concurrency limit with a bounded FIFO queue.
//!
//! The same mechanism serves a service's worker (thread) pool and a caller's per-dependency
//! bulkhead (≈ Resilience4j `Bulkhead`: `maxConcurrentCalls`, and `maxWaitDuration` as the
//! queue timeout; a queue of 0 rejects at once). A shared pool is one `Pool` that several
//! dependencies draw from (source 003's counter-example: every dependency on the same 8
//! threads).
//!
//! A limited pool also keeps the area under its occupancy N(t) (slots in use plus
//! waiters), so a run's time-averaged occupancy can be set beside λ × W (Little's law) as a
//! measurement of the pool, not a restatement of the calls' times. N(t) steps up by one at
//! each entry and down by one at each exit, so its area up to `end` is
//! Σ exit times − Σ entry times + N(end) × end (integration by parts): two additions per
//! call, exact in integers. An unlimited pool, which never queues, keeps none.
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
    /// Entry times and exit times (µs) of the calls that entered and left, summed;
    /// limited pools only.
    entered_at: u128,
    left_at: u128,
}

impl Pool {
    pub fn new(limit: Option<u32>, max_queue: Option<u32>) -> Self {
        Pool { limit, max_queue, active: 0, queue: VecDeque::new(), abandoned: 0, entered_at: 0, left_at: 0 }
    }

    /// Calls in the pool (slots in use plus waiters) averaged over `[0, end)` (µs), weighted
    /// by time; 0 for an unlimited pool or an empty span.
    pub fn mean_occupancy(&self, end: u64) -> f64 {
        if end == 0 || self.limit.is_none() {
            return 0.0;
        }
        let held = u128::from(self.active) + self.queued() as u128;
        let area = (self.left_at + held * u128::from(end)).saturating_sub(self.entered_at);
        area as f64 / end as f64
    }

    /// Slots in use.
    pub fn active(&self) -> u32 {
        self.active
    }

    /// Waiters still waiting.
    pub fn queued(&self) -> usize {
        self.queue.len() - self.abandoned
    }

    /// Asks for a slot for `waiter` at `now` (µs).
    pub fn enter(&mut self, waiter: u64, now: u64) -> Entry {
        let Some(limit) = self.limit else {
            self.active += 1;
            return Entry::Admitted;
        };
        if self.active < limit {
            self.active += 1;
            self.entered_at += u128::from(now);
            Entry::Admitted
        } else if self.max_queue.is_none_or(|m| self.queued() < m as usize) {
            self.queue.push_back(waiter);
            self.entered_at += u128::from(now);
            Entry::Queued
        } else {
            Entry::Rejected
        }
    }

    /// A queued waiter gave up at `now` (µs); it will be skipped when it reaches the front.
    pub fn abandon(&mut self, now: u64) {
        debug_assert!(self.abandoned < self.queue.len());
        if self.limit.is_some() {
            self.left_at += u128::from(now);
        }
        self.abandoned = (self.abandoned + 1).min(self.queue.len());
    }

    /// A slot was freed at `now` (µs). Returns the waiter that now holds it, if one was
    /// waiting; tokens for which `still_waiting` says no are dropped (they abandoned
    /// earlier).
    pub fn release(&mut self, now: u64, mut still_waiting: impl FnMut(u64) -> bool) -> Option<u64> {
        if self.limit.is_none() {
            // Nothing ever queues at an unlimited pool.
            self.active = self.active.saturating_sub(1);
            return None;
        }
        self.left_at += u128::from(now);
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
        assert_eq!(p.enter(1, 0), Entry::Admitted);
        assert_eq!(p.enter(2, 0), Entry::Admitted);
        assert_eq!(p.enter(3, 0), Entry::Queued);
        assert_eq!(p.enter(4, 0), Entry::Rejected);
        assert_eq!((p.active(), p.queued()), (2, 1));
        assert_eq!(p.release(0, |_| true), Some(3), "the freed slot goes to the waiter");
        assert_eq!((p.active(), p.queued()), (2, 0));
        assert_eq!(p.release(0, |_| true), None);
        assert_eq!(p.active(), 1);
    }

    #[test]
    fn a_queue_of_zero_rejects_at_once() {
        let mut p = Pool::new(Some(1), Some(0));
        assert_eq!(p.enter(1, 0), Entry::Admitted);
        assert_eq!(p.enter(2, 0), Entry::Rejected);
    }

    #[test]
    fn abandoned_waiters_are_skipped_and_free_queue_space() {
        let mut p = Pool::new(Some(1), Some(2));
        p.enter(1, 0);
        assert_eq!(p.enter(2, 0), Entry::Queued);
        assert_eq!(p.enter(3, 0), Entry::Queued);
        assert_eq!(p.enter(4, 0), Entry::Rejected);
        p.abandon(0); // waiter 2 timed out
        assert_eq!(p.queued(), 1);
        assert_eq!(p.enter(5, 0), Entry::Queued, "its place is free again");
        assert_eq!(p.release(0, |w| w != 2), Some(3));
        assert_eq!(p.queued(), 1);
    }

    #[test]
    fn unlimited_pool_never_queues() {
        let mut p = Pool::new(None, Some(0));
        for i in 0..1000 {
            assert_eq!(p.enter(i, 0), Entry::Admitted);
        }
        assert_eq!(p.active(), 1000);
    }

    #[test]
    fn occupancy_is_integrated_over_time() {
        // One slot, a queue: 1 call from 0, 2 (one waiting) from 10 µs, back to 1 at 30 µs
        // (the waiter takes the slot), 0 at 40 µs: 10 + 40 + 10 = 60 call-µs over 50 µs.
        let mut p = Pool::new(Some(1), None);
        assert_eq!(p.enter(1, 0), Entry::Admitted);
        assert_eq!(p.enter(2, 10), Entry::Queued);
        assert_eq!(p.release(30, |_| true), Some(2));
        assert_eq!(p.release(40, |_| true), None);
        assert_eq!(p.mean_occupancy(50), 60.0 / 50.0);
        // A waiter that gives up leaves the count when it leaves, not when it is skipped.
        let mut p = Pool::new(Some(1), None);
        p.enter(1, 0);
        p.enter(2, 0);
        p.abandon(5);
        assert_eq!(p.mean_occupancy(10), (2.0 * 5.0 + 5.0) / 10.0);
        assert_eq!(Pool::new(None, None).mean_occupancy(10), 0.0, "unlimited pools keep none");
    }
}
