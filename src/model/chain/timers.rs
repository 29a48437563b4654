//! Per-try timers, kept per client.
//!
//! Nearly every attempt passes a timeout stage and nearly every timer would go stale (the
//! answer comes first); an attempt a leaf takes at once and answers before its timer arms
//! none (see `GeneralEngine::walk_out`). A client's timers are armed in time order (one
//! timeout length, time only moves forward), so each client keeps them in a FIFO of its own
//! and the event queue holds only the earliest, under the sequence number it would have had
//! if scheduled directly: the order of events is exactly the same, but a stale timer costs a
//! look at the front of a short list instead of a trip through the queue. A timer capped
//! earlier than the list's last one (by a deadline) goes to the queue directly. The one
//! timer armed out of its sequence order (after the attempt was sent, behind one its client
//! armed during the send) is stale by then: its place changes nothing.

use super::calls::CallRef;
use super::engine::{Ev, GeneralEngine};
use crate::sim::fifo::Fifo;
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

/// A per-try timer's time and place in the order of events, taken when its attempt
/// passes the timeout stage; armed then, or once the attempt was sent, and then not at all
/// when a leaf took it that answers no later (see `GeneralEngine::walk_out`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reserved {
    /// When it is due (µs).
    pub at: Micros,
    seq: u64,
}

impl GeneralEngine {
    /// A timer's time, `after` µs from `now`, and its sequence number, taken now so that it
    /// keeps its place among the events scheduled before it is armed. `None`: the run ends
    /// first.
    #[inline(always)]
    pub(super) fn reserve_try_timer(&mut self, now: Micros, after: Micros) -> Option<Reserved> {
        let at = now.saturating_add(after);
        (at <= self.horizon).then(|| Reserved { at, seq: self.q.reserve() })
    }

    /// Arms a reserved timer (see [`Reserved`]).
    pub(super) fn arm_reserved(&mut self, cl: usize, r: Reserved, c: CallRef, d: u8, attempt: u32) {
        let Reserved { at, seq } = r;
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
    use super::TimerList;
    use crate::model::chain::{ChainSim, DEFAULT_MAX_CALLS, Engine, Inner, run_with};
    use crate::policy::retry::Backoff;
    use crate::report::Report;
    use crate::scenario::{Dist, Load, Scenario, presets};

    /// One layer calling a leaf that takes 1 s; 2 attempts, no backoff, a 100 ms per-try
    /// timeout, a request every 10 ms, and the given deadline.
    fn slow_leaf(deadline_ms: Option<f64>) -> Report {
        run_with(&slow_leaf_scenario(deadline_ms), 1, DEFAULT_MAX_CALLS).unwrap()
    }

    fn slow_leaf_scenario(deadline_ms: Option<f64>) -> Scenario {
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
        s
    }

    /// Timers waiting in the layer's client once the first request's attempt is out, on the
    /// general engine, with a leaf that takes `work_ms`.
    fn timers_waiting_with_leaf_work(work_ms: f64) -> usize {
        let mut s = slow_leaf_scenario(None);
        s.leaf.work = Dist::Constant { ms: work_ms };
        let mut sim = ChainSim::with_engine(&s, 1, DEFAULT_MAX_CALLS, Engine::General).unwrap();
        loop {
            sim.step(1).unwrap();
            let Inner::General(g) = &sim.inner else { panic!("the general engine runs") };
            if g.calls.live() > 0 {
                return g.timers.iter().map(TimerList::len).sum();
            }
        }
    }

    #[test]
    fn a_leaf_that_answers_before_the_timer_leaves_none_to_drop() {
        assert_eq!(timers_waiting_with_leaf_work(1000.0), 1, "a 1 s leaf: the 100 ms timer waits");
        assert_eq!(timers_waiting_with_leaf_work(100.0), 0, "the answer goes first at the same instant");
        assert_eq!(timers_waiting_with_leaf_work(10.0), 0, "answered in 10 ms: no timer armed");
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
