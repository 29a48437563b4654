//! Per-try timers, kept per client.
//!
//! Nearly every attempt arms a per-try timer and nearly every one goes stale (the answer
//! comes first). A client's timers are armed in time order (one timeout length, time only
//! moves forward), so each client keeps them in a FIFO of its own and the event queue holds
//! only the earliest, under the sequence number it would have had if scheduled directly:
//! the order of events is exactly the same, but a stale timer costs a look at the front of
//! a short list instead of a trip through the queue. A timer capped earlier than the list's
//! last one (by a deadline) goes to the queue directly.

use super::calls::CallRef;
use super::engine::{Ev, GeneralEngine};
use crate::sim::{Class, Micros};

/// A per-try timer waiting in its client's list.
#[derive(Clone, Copy, Debug)]
pub(super) struct Armed {
    at: Micros,
    seq: u64,
    call: CallRef,
    dep: u8,
    attempt: u32,
}

impl Armed {
    fn event(&self) -> Ev {
        Ev::TryTimeout(self.call, self.dep, self.attempt)
    }
}

/// A first-in first-out list kept as a vector and the index of its front: a push is a
/// vector's push and a pop a step of the index, with no wrap-around to work out (every
/// attempt pushes one timer and pops one, and `VecDeque`'s push and back cost about twice
/// the instructions). The popped prefix goes when the list empties, or once it is at
/// least half of the vector and more than a few thousand entries.
struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo { items: Vec::new(), head: 0 }
    }
}

impl<T: Copy> Fifo<T> {
    fn len(&self) -> usize {
        self.items.len() - self.head
    }

    #[inline(always)]
    fn front(&self) -> Option<&T> {
        self.items.get(self.head)
    }

    /// The last entry (`head` is 0 whenever the list is empty).
    #[inline(always)]
    fn back(&self) -> Option<&T> {
        self.items.last()
    }

    #[inline(always)]
    fn push_back(&mut self, x: T) {
        self.items.push(x);
    }

    #[inline(always)]
    fn pop_front(&mut self) -> Option<T> {
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
    fn retain(&mut self, mut keep: impl FnMut(usize, &T) -> bool) {
        self.items.drain(..self.head);
        self.head = 0;
        let mut i = 0;
        self.items.retain(|x| {
            i += 1;
            keep(i - 1, x)
        });
    }
}

/// One client's timers, earliest first; `armed`: the queue holds an event for the front.
#[derive(Default)]
pub(super) struct TimerList {
    list: Fifo<Armed>,
    armed: bool,
}

impl TimerList {
    /// Timers waiting (stale ones included).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Drops stale timers, keeping the front while the queue holds an event for it.
    pub fn retain(&mut self, mut wanted: impl FnMut(&Ev) -> bool) {
        let keep_front = self.armed;
        self.list.retain(|i, t| (keep_front && i == 0) || wanted(&t.event()));
    }
}

impl GeneralEngine {
    /// Arms the per-try timer of attempt `attempt` of dependency `d` of call `c` (client
    /// `cl`), `after` µs from `now`.
    pub(super) fn arm_try_timer(
        &mut self,
        cl: usize,
        now: Micros,
        after: Micros,
        c: CallRef,
        d: u8,
        attempt: u32,
    ) {
        let at = now.saturating_add(after);
        if at > self.horizon {
            return; // the run ends first
        }
        let seq = self.q.reserve();
        let t = Armed { at, seq, call: c, dep: d, attempt };
        let timers = &mut self.timers[cl];
        if timers.list.back().is_some_and(|b| b.at > at) {
            // Out of order (a deadline cut it short): straight to the queue.
            self.schedule_as(at, seq, t.event());
            return;
        }
        timers.list.push_back(t);
        if !timers.armed {
            timers.armed = true;
            self.schedule_as(at, seq, Ev::ClientTimer(cl as u16));
        }
    }

    fn schedule_as(&mut self, at: Micros, seq: u64, ev: Ev) {
        if let Err(e) = self.q.schedule_as(at, Class::Timer, seq, ev) {
            self.fail(e.to_string());
        }
    }

    /// The queue's event for client `cl`'s earliest timer came due: hand the queue the next
    /// wanted timer, then fire this one if it is still wanted. Returns whether it was.
    pub(super) fn client_timer(&mut self, now: Micros, cl: usize) -> bool {
        let timers = &mut self.timers[cl];
        timers.armed = false;
        let Some(due) = timers.list.pop_front() else { return false };
        debug_assert_eq!(due.at, now, "the queue held the front's time");
        // A stale timer never becomes wanted again (attempts only move on), so it can go now.
        while timers.list.front().is_some_and(|t| !super::engine::wanted(&self.calls, &t.event())) {
            timers.list.pop_front();
        }
        if let Some(next) = timers.list.front().copied() {
            timers.armed = true;
            self.schedule_as(next.at, next.seq, Ev::ClientTimer(cl as u16));
        }
        let ev = due.event();
        if !super::engine::wanted(&self.calls, &ev) {
            return false;
        }
        self.on_try_timeout(now, due.call, due.dep as usize);
        true
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fifo_keeps_order_across_compaction_and_retain() {
        let mut f = super::Fifo::default();
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

    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::policy::retry::Backoff;
    use crate::report::Report;
    use crate::scenario::{Dist, Load, Scenario, presets};

    /// One layer calling a leaf that takes 1 s; 2 attempts, no backoff, a 100 ms per-try
    /// timeout, a request every 10 ms, and the given deadline.
    fn slow_leaf(deadline_ms: Option<f64>) -> Report {
        let mut s: Scenario = presets::lab11_protected();
        s.layers.truncate(1);
        let l = &mut s.layers[0];
        l.server.admission = None;
        l.deadline_ms = deadline_ms;
        l.client.fallback = None;
        l.client.retry.max_attempts = 2;
        l.client.retry.backoff = Backoff::None {};
        l.client.per_try_timeout_ms = Some(100.0);
        s.leaf.work = Dist::Constant { ms: 1000.0 };
        s.leaf.error_rate = 0.0;
        s.load = Load::Constant { rate_per_s: 100.0, peak_factor: 1.0, duration_ms: 500.0 };
        s.report.trace_sample = 1;
        run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap()
    }

    #[test]
    fn timers_in_arming_order_fire_on_time() {
        let r = slow_leaf(None);
        assert_eq!(r.summary.original_requests, 50);
        assert_eq!(r.summary.timeouts, 100, "both tries of every request time out");
        for t in &r.traces {
            assert_eq!(t.end_ms - t.arrival_ms, 200.0, "two 100 ms tries: request {}", t.request);
        }
    }

    #[test]
    fn a_timer_cut_short_by_the_deadline_fires_before_earlier_armed_ones() {
        // The second try starts at +100 ms with 20 ms of deadline left: its timer (+120 ms)
        // is due before the first-try timers of the requests that arrived since, so it
        // bypasses the client's in-order list.
        let r = slow_leaf(Some(120.0));
        assert_eq!(r.summary.timeouts, 100);
        for t in &r.traces {
            assert_eq!(t.end_ms - t.arrival_ms, 120.0, "cut at the deadline: request {}", t.request);
        }
    }
}
