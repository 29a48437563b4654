//! The general engine: every call an event-driven state machine in virtual time. This file
//! holds the event loop and the server side of a hop (arrival, admission, the worker queue,
//! answers); work is in `work.rs` and cancellation in `cancel.rs`. The caller side (the
//! policy stack) is in `client.rs`, with `slots.rs` and `timers.rs`.
//!
//! - **Arrival at a hop**: admission (token bucket + concurrency limit) rejects at once with
//!   429 and a Retry-After; otherwise the call takes a worker or waits in the bounded FIFO
//!   queue (full queue or queue timeout → 503 with Retry-After).
//! - **Work**: before starting, the server checks the remaining deadline budget
//!   (`min_budget_ms`); a leaf then holds its worker for its work time and answers (faults
//!   in force when the work starts apply); a layer does its own work, then calls its
//!   dependencies in parallel — the next hop and any side dependencies — and holds its
//!   worker until all have answered (synchronous, thread-per-request).
//! - **Answers**: a core dependency's failure fails the call; an optional dependency's
//!   failure is answered by its fallback and marks the response degraded. Network time is
//!   zero: answers arrive the instant they are sent.
//! - **Timeouts**: the caller stops waiting. With `cancel_on_timeout` off the callee keeps
//!   working and holding its worker, and its late answer is dropped ("abandoned work").
//! - **Simultaneous events**: completions, then timers, then arrivals; within a class, the
//!   order they were scheduled. Events that are no longer wanted are not cancelled: each
//!   names the state it was meant for and is dropped when that state has moved on.

use super::arrivals::Arrivals;
use super::calls::{CallRef, Calls, DepState, NO_SPAN, NewCall, Parent, Phase};
use super::plan::{HopKind, Plan};
use super::rules;
use super::stats::{Ended, NO_TRACE, Stats};
use super::timers::TimerList;
use super::work;
use super::{Budget, SimError};
use crate::policy::Outcome;
use crate::policy::breaker::Breaker;
use crate::policy::bulkhead::{Entry, Pool};
use crate::policy::deadline::NO_DEADLINE;
use crate::policy::retry_budget::RetryBudget;
use crate::policy::token_bucket::{Admission, Rejection, TokenBucket};
use crate::report::Stopped;
use crate::report::{CallResult, Refusal, ms};
use crate::scenario::Scenario;
use crate::sim::rng::Key;
use crate::sim::{Class, EventQueue, Micros};

/// An event.
#[derive(Clone, Copy, Debug)]
pub(super) enum Ev {
    /// The next original request (or the first look at the arrivals).
    Arrival,
    /// A call's own work is done.
    WorkDone(CallRef),
    /// A queued call got a worker.
    StartWork(CallRef),
    /// A queued call waited too long for a worker.
    QueueTimeout(CallRef),
    /// A per-try timer: (caller, dependency, attempt).
    TryTimeout(CallRef, u8, u32),
    /// A backoff sleep is over.
    BackoffWake(CallRef, u8, u32),
    /// A bulkhead or shared-pool slot was handed to a waiting attempt.
    SlotGrant(CallRef, u8, u32),
    /// An attempt waited too long for a bulkhead slot.
    SlotTimeout(CallRef, u8, u32),
    /// A timed breaker half-opens: (client, instance).
    BreakerTimer(u16, u16),
    /// The earliest per-try timer of a client is due (see `timers.rs`).
    ClientTimer(u16),
}

/// A hop's live protections.
pub(super) struct HopRt {
    pub pool: Pool,
    pub admission: Option<Admission>,
    /// The layer's shared pool, if it has one.
    pub shared: Option<Pool>,
}

/// A client's live protections.
pub(super) struct ClientRt {
    pub retry_budget: Option<RetryBudget>,
    pub breakers: Vec<Breaker>,
    pub bulkhead: Option<Pool>,
}

/// The general engine's state.
pub(super) struct GeneralEngine {
    pub plan: Plan,
    pub q: EventQueue<Ev>,
    pub calls: Calls,
    pub hop_rt: Vec<HopRt>,
    pub client_rt: Vec<ClientRt>,
    /// Each client's per-try timers.
    pub timers: Vec<TimerList>,
    arrivals: Arrivals,
    pending_arrival: Option<(Micros, Key)>,
    /// When the next arrival event is due. Arrivals come one at a time and in order, so
    /// they wait here rather than in the queue; at equal times queued events go first
    /// (they are completions or timers, which precede arrivals).
    next_arrival: Option<Micros>,
    pub stats: Stats,
    pub horizon: Micros,
    budget: Budget,
    error: Option<String>,
    pub done: bool,
    pub stop: Option<Stopped>,
    events: u64,
    /// Compact the queue when it holds more events than this.
    compact_at: usize,
}

/// Whether an event is still meant to happen. Events that are never stale (an arrival, a
/// grant of a slot or a worker, a breaker's timer) always are; the others name the state
/// they were scheduled for, and are stale once it moved on.
// Inlined: it runs for every event and every timer looked at, and the call costs more
// than most of its arms.
#[inline(always)]
pub(super) fn wanted(calls: &Calls, ev: &Ev) -> bool {
    match *ev {
        Ev::Arrival | Ev::StartWork(_) | Ev::SlotGrant(..) | Ev::BreakerTimer(..) | Ev::ClientTimer(_) => {
            true
        }
        Ev::WorkDone(c) => calls.valid(c),
        Ev::QueueTimeout(c) => {
            calls.valid(c) && {
                let call = calls.get(c);
                call.phase == Phase::Queued && !call.holds_worker
            }
        }
        Ev::TryTimeout(c, d, a) => {
            matches!(calls.dep_state(c, d, a), Some(DepState::InFlight | DepState::WaitingSlot))
        }
        Ev::BackoffWake(c, d, a) => calls.dep_is(c, d, a, DepState::Sleeping),
        Ev::SlotTimeout(c, d, a) => {
            calls.dep_is(c, d, a, DepState::WaitingSlot)
                && calls.dep(c, d as usize).slot == super::calls::SlotKind::None
        }
    }
}

impl GeneralEngine {
    pub fn new(plan: Plan, s: &Scenario, seed: u64, stats: Stats, horizon: Micros, budget: Budget) -> Self {
        let hop_rt = plan
            .hops
            .iter()
            .map(|h| HopRt {
                pool: Pool::new(h.pool.workers, h.pool.queue),
                admission: h
                    .admission
                    .map(|a| Admission::new(a.bucket.map(|b| TokenBucket::new(b.capacity, b.rate)), a.limit)),
                shared: match &h.kind {
                    HopKind::Layer { shared_pool: Some(p), .. } => Some(Pool::new(Some(p.size), p.queue)),
                    _ => None,
                },
            })
            .collect();
        let client_rt = plan
            .clients
            .iter()
            .map(|c| ClientRt {
                retry_budget: c.retry_budget.map(RetryBudget::new),
                breakers: c
                    .breaker
                    .iter()
                    .flat_map(|cfg| (0..cfg.instances).map(move |_| Breaker::new(cfg)))
                    .collect(),
                bulkhead: match c.isolation {
                    Some(super::plan::Isolation::Bulkhead(b)) => {
                        Some(Pool::new(Some(b.max_concurrent), Some(b.max_queue)))
                    }
                    _ => None,
                },
            })
            .collect();
        let plan_clients = 0..plan.clients.len();
        GeneralEngine {
            plan,
            q: EventQueue::new(),
            calls: Calls::default(),
            hop_rt,
            client_rt,
            timers: plan_clients.map(|_| TimerList::default()).collect(),
            arrivals: Arrivals::new(s, seed),
            pending_arrival: None,
            next_arrival: Some(0),
            stats,
            horizon,
            budget,
            error: None,
            done: false,
            stop: None,
            events: 0,
            compact_at: budget.queue_compaction,
        }
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Handles up to `max_events` events; returns whether the run is over.
    pub fn step(&mut self, max_events: u64) -> Result<bool, SimError> {
        let mut n = 0;
        while n < max_events && !self.done {
            let Some((t, ev)) = self.next_event()? else {
                self.done = true;
                break;
            };
            if t > self.horizon {
                self.done = true;
                break;
            }
            self.stats.enter(t);
            if self.dispatch(t, ev) {
                self.stats.last_t = t;
                self.events += 1;
                n += 1;
            }
            if let Some(e) = self.error.take() {
                return Err(SimError::Internal(e));
            }
            // The budget and the queue are looked at every 64 events: a few more calls past
            // the limit change nothing, and the check stays off the per-event path.
            if self.events & 63 == 0 {
                self.compact();
                if let Some(stop) = self.budget.check(&self.calls, self.events, &self.stats) {
                    self.stop = Some(stop);
                    self.done = true;
                }
            }
        }
        Ok(self.done)
    }

    /// The next event: the queue's or the next arrival, whichever is earlier; at equal
    /// times the queued one (a completion or a timer, which precede arrivals).
    #[inline(always)]
    fn next_event(&mut self) -> Result<Option<(Micros, Ev)>, SimError> {
        let Some(a) = self.next_arrival else { return Ok(self.q.pop()) };
        if let Some(queued) = self.q.pop_until(a) {
            return Ok(Some(queued));
        }
        self.next_arrival = None;
        self.q.advance(a).map_err(|e| SimError::Internal(e.to_string()))?;
        Ok(Some((a, Ev::Arrival)))
    }

    /// Schedules an event `after` µs from `now`. Times saturate; an event past the run's
    /// horizon would never be handled, so it is not queued.
    #[inline(always)]
    pub fn sched(&mut self, now: Micros, after: Micros, class: Class, ev: Ev) {
        let at = now.saturating_add(after);
        if at > self.horizon {
            return;
        }
        if let Err(e) = self.q.schedule(at, class, ev) {
            self.fail(e.to_string());
        }
    }

    /// Records a bug in the model (the first one); the run stops with an internal error.
    pub fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// Handles one event; returns whether it was still wanted (stale ones change nothing).
    fn dispatch(&mut self, now: Micros, ev: Ev) -> bool {
        if let Ev::ClientTimer(cl) = ev {
            return self.client_timer(now, cl as usize);
        }
        if !wanted(&self.calls, &ev) {
            return false;
        }
        match ev {
            Ev::ClientTimer(_) => unreachable!("handled above"),
            Ev::Arrival => self.on_arrival(now),
            Ev::WorkDone(c) => self.on_work_done(now, c),
            Ev::StartWork(c) => {
                if self.calls.valid(c) {
                    let hop = self.calls.get(c).hop as usize;
                    self.start_work(now, c, hop);
                }
            }
            Ev::QueueTimeout(c) => {
                let hop = self.calls.get(c).hop as usize;
                self.hop_rt[hop].pool.abandon(now);
                self.stats.hops[hop].rejected += 1;
                self.stats.hops[hop].refused.queue_timeout += 1;
                self.calls.get_mut(c).refusal = Some(Refusal::QueueTimeout);
                self.gauge_queue(hop);
                let ra = self.retry_after(hop);
                self.respond(now, c, Outcome::Overload { retry_after_us: ra }, Answer::default());
            }
            Ev::TryTimeout(c, d, _) => self.on_try_timeout(now, c, d as usize),
            Ev::BackoffWake(c, d, _) => self.attempt(now, c, d as usize),
            Ev::SlotGrant(c, d, a) => {
                // A waiter that left after the grant handed the slot back already.
                if self.calls.dep_is(c, d, a, DepState::WaitingSlot) {
                    self.slot_granted(now, c, d as usize);
                }
            }
            Ev::SlotTimeout(c, d, _) => self.slot_timed_out(now, c, d as usize),
            Ev::BreakerTimer(cl, inst) => {
                let (cl, inst) = (cl as usize, inst as usize);
                if let Some(t) = self.client_rt[cl].breakers[inst].on_timer(now) {
                    self.breaker_moved(now, cl, inst, t);
                }
            }
        }
        true
    }

    /// Drops stale events when they outnumber the wanted ones, so that memory follows
    /// the calls alive (timers of calls that answered long ago would otherwise wait for
    /// their time).
    fn compact(&mut self) {
        if self.pending() > self.compact_at {
            let calls = &self.calls;
            self.q.retain(|ev| wanted(calls, ev));
            for t in &mut self.timers {
                t.retain(|ev| wanted(calls, ev));
            }
            self.compact_at = (self.pending() * 2).max(self.budget.queue_compaction);
        }
    }

    /// Events waiting, in the queue and in the clients' timer lists.
    fn pending(&self) -> usize {
        self.q.len() + self.timers.iter().map(TimerList::len).sum::<usize>()
    }

    /// The Retry-After a hop sends with concurrency and queue rejections (µs).
    fn retry_after(&self, hop: usize) -> Micros {
        self.plan.hops[hop].admission.map_or(1_000_000, |a| a.retry_after)
    }

    // ---- arrivals --------------------------------------------------------------------

    fn on_arrival(&mut self, now: Micros) {
        if let Some((_, key)) = self.pending_arrival.take() {
            let trace = self.stats.request_arrived(now);
            self.stats.series_request_arrived(now);
            let number = u32::try_from(self.stats.totals.original - 1).unwrap_or(u32::MAX);
            let _ = self.arrive_as(now, 0, None, key, NO_DEADLINE, trace, number);
        }
        match self.arrivals.next() {
            Some((t, key)) => {
                self.pending_arrival = Some((t, key));
                self.next_arrival = Some(t.max(now));
            }
            None => self.next_arrival = None,
        }
    }

    // ---- server side -----------------------------------------------------------------

    /// A call reaches `hop` (and may be answered at once). Returns when it answers, if that
    /// is known already: a leaf's call that took a worker at once (see `walk_out`).
    #[inline(always)]
    pub fn arrive(
        &mut self,
        now: Micros,
        hop: usize,
        parent: Option<Parent>,
        key: Key,
        deadline: Micros,
        trace: u32,
    ) -> AnswersBy {
        self.arrive_as(now, hop, parent, key, deadline, trace, 0)
    }

    /// [`arrive`](Self::arrive), numbering an entry call with its request's number.
    #[allow(clippy::too_many_arguments)]
    fn arrive_as(
        &mut self,
        now: Micros,
        hop: usize,
        parent: Option<Parent>,
        key: Key,
        deadline: Micros,
        trace: u32,
        number: u32,
    ) -> AnswersBy {
        // The caller's record, read once: an orphan's callee is an orphan too.
        let (orphan, parent_span) = parent.map_or((false, NO_SPAN), |p| {
            let caller = self.calls.get(p.call);
            (caller.orphan, caller.span)
        });
        // The hop's spec, borrowed once for the whole arrival (see `work.rs`).
        let spec = &self.plan.hops[hop];
        // A layer with a deadline of its own starts it for calls that arrive without one and
        // shortens a later one it is handed: the earlier wins, as a gRPC server's outgoing
        // deadline derived from the incoming one. (A longer one of its own changes nothing.)
        let own_deadline = match spec.kind {
            HopKind::Layer { deadline: Some(d), .. } => Some(now.saturating_add(d).min(deadline)),
            _ => None,
        };
        let c = self.calls.alloc(NewCall {
            hop,
            parent,
            key,
            deadline: own_deadline.unwrap_or(deadline),
            arrived: now,
            trace,
            request: number,
            orphan,
        });
        if let Some(p) = parent {
            // The caller's attempt is in flight and nothing has answered yet: this is its call.
            self.calls.dep_mut(p.call, p.dep as usize).child = c;
        }
        if trace != NO_TRACE {
            let id = self.stats.traces.next_span_id(trace);
            let call = self.calls.get_mut(c);
            (call.span, call.parent_span) = (id, parent_span);
            if let Some(abs) = own_deadline
                && parent.is_none()
            {
                self.stats.traces.list[trace as usize].deadline_ms = Some(ms(abs));
            }
        }
        // Its live records, likewise.
        let h = &mut self.stats.hops[hop];
        let rt = &mut self.hop_rt[hop];
        h.calls += 1;
        h.attempts_n.add(1);
        if let Some(adm) = &mut rt.admission {
            let spec = spec.admission.expect("admission spec matches runtime");
            let cost = spec.bucket.map_or(0, |b| b.cost);
            match adm.try_admit(now, cost) {
                Ok(()) => self.calls.get_mut(c).holds_admission = true,
                Err(rej) => {
                    h.rejected += 1;
                    let (outcome, refusal) = match rej {
                        Rejection::RateLimit { retry_after } => {
                            (Outcome::Overload { retry_after_us: retry_after }, Refusal::RateLimit)
                        }
                        Rejection::ConcurrencyLimit => (
                            Outcome::Overload { retry_after_us: spec.retry_after },
                            Refusal::ConcurrencyLimit,
                        ),
                        Rejection::CostExceedsCapacity => {
                            (Outcome::ClientError, Refusal::CostExceedsCapacity)
                        }
                    };
                    h.refused.count(refusal);
                    self.calls.get_mut(c).refusal = Some(refusal);
                    self.respond(now, c, outcome, Answer::default());
                    return AnswersBy::UNKNOWN;
                }
            }
        }
        match rt.pool.enter(work::token(c), now) {
            Entry::Admitted => {
                work::gauge_workers(h, rt);
                let call = self.calls.get_mut(c);
                call.holds_worker = true;
                let next = work::begin_work(h, spec, call, now);
                let due = match (&next, &spec.kind) {
                    (work::Work::For(w), HopKind::Leaf(_)) => AnswersBy(now.saturating_add(*w)),
                    _ => AnswersBy::UNKNOWN,
                };
                self.do_work(now, c, hop, next);
                return due;
            }
            Entry::Queued => {
                work::gauge_queue(h, rt);
                if let Some(qt) = spec.pool.queue_timeout {
                    self.sched(now, qt, Class::Timer, Ev::QueueTimeout(c));
                }
            }
            Entry::Rejected => {
                h.rejected += 1;
                h.refused.queue_full += 1;
                self.calls.get_mut(c).refusal = Some(Refusal::QueueFull);
                let ra = self.retry_after(hop);
                self.respond(now, c, Outcome::Overload { retry_after_us: ra }, Answer::default());
            }
        }
        AnswersBy::UNKNOWN
    }

    // ---- answers ---------------------------------------------------------------------

    /// Call `c` answers `outcome`: free what it holds and tell its caller. A caller whose
    /// last awaited answer this was replies in turn, and so on up the chain: the way back
    /// up is this loop, not a recursion (each level's frame cost more than its work).
    pub fn respond(&mut self, now: Micros, c: CallRef, outcome: Outcome, answer: Answer) {
        let mut reply = Reply { call: c, outcome, answer };
        while let Some(next) = self.reply(now, reply) {
            reply = next;
        }
    }

    /// One step of [`respond`](Self::respond): returns the caller's reply, if it is due now.
    #[inline(always)]
    fn reply(&mut self, now: Micros, reply: Reply) -> Option<Reply> {
        let Reply { call: c, outcome, answer } = reply;
        let (hop, holds_worker, holds_admission, parent, worked, orphan, trace) = {
            let call = self.calls.get_mut(c);
            (
                call.hop as usize,
                std::mem::take(&mut call.holds_worker),
                std::mem::take(&mut call.holds_admission),
                call.parent,
                call.worked_from(),
                call.orphan,
                call.trace,
            )
        };
        let answer = if outcome.is_ok() { answer } else { Answer::default() };
        let result = rules::call_result(outcome);
        // Whether its caller still waits for it (an entry call's caller always does), and
        // where the caller's dependency record is (looked up once, see `Calls::dep_index`).
        let waiting_at = parent.and_then(|p| match self.calls.dep_state_at(p.call, p.dep, p.attempt) {
            Some((i, DepState::InFlight)) => Some(i),
            _ => None,
        });
        let waiting = parent.is_none() || waiting_at.is_some();
        let wasted = !waiting || orphan;
        // The hop's records, borrowed once for all the server side does (see `work.rs`).
        let (h, rt) = (&mut self.stats.hops[hop], &mut self.hop_rt[hop]);
        let next = if holds_worker { work::free_worker(h, rt, &mut self.calls, now, worked) } else { None };
        if holds_admission && let Some(a) = rt.admission.as_mut() {
            a.release();
        }
        h.results.count(result);
        if wasted && worked.is_some() {
            h.abandoned += 1;
        }
        if let Some(r) = next {
            self.sched(now, 0, Class::Completion, Ev::StartWork(r));
        }
        if trace != NO_TRACE {
            self.trace_span(c, now, result, wasted);
        }
        match parent {
            None => {
                let call = self.calls.get(c);
                let ended = Ended {
                    request: u64::from(call.request),
                    arrived: call.arrived,
                    trace,
                    outcome,
                    core_failure: call.core_failure,
                    degraded: answer.degraded,
                };
                let end = self.stats.request_ended(now, ended);
                self.stats.series_request_ended(now, end);
                self.calls.release(c);
                None
            }
            Some(p) => {
                self.calls.release(c);
                let di = waiting_at?;
                let origin = super::client::Origin::Callee;
                self.on_attempt_result(now, p.call, p.dep as usize, di, outcome, answer, origin)
            }
        }
    }

    #[inline(always)]
    pub(super) fn trace_span(&mut self, c: CallRef, now: Micros, result: CallResult, abandoned: bool) {
        let call = self.calls.get(c);
        if call.trace != NO_TRACE {
            let of = rules::SpanOf {
                id: call.span,
                parent: (call.parent_span != NO_SPAN).then_some(call.parent_span),
                hop: call.hop as usize,
                attempt: call.parent.map_or(1, |p| p.attempt),
                arrived: call.arrived,
                work_start: call.worked_from(),
                refusal: call.refusal,
            };
            self.stats.traces.span(call.trace, rules::span(of, now, result, abandoned));
        }
    }
}

/// When a call answers (µs; `Micros::MAX`: not known), known as it arrives for a leaf's
/// call that takes a worker at once: it answers then unless cancelled with its caller, whose
/// attempt is over in that case anyway. A plain time rather than an `Option`: it is
/// returned up every step of the way down, in one register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AnswersBy(pub Micros);

impl AnswersBy {
    pub const UNKNOWN: AnswersBy = AnswersBy(Micros::MAX);
}

/// A call's answer, ready to be sent to its caller (see [`GeneralEngine::respond`]).
#[must_use]
#[derive(Clone, Copy, Debug)]
pub(super) struct Reply {
    pub call: CallRef,
    pub outcome: Outcome,
    pub answer: Answer,
}

/// What travels back with a response besides its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Answer {
    /// A fallback answered for part of it.
    pub degraded: Option<super::stats::Degrade>,
    /// A leaf computed an empty result (a real answer, not a degradation).
    pub empty: bool,
}

#[cfg(test)]
mod tests {
    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::scenario::presets;

    /// Lab 11 unprotected (page → recommendation → a profile service that fails after
    /// 100 ms; 3 attempts at each layer) with deadlines on its layers (ms; `None`: none) and
    /// a 100 ms minimum useful time at the recommendation client: calls per hop.
    fn calls_with(page: Option<f64>, recommendation: Option<f64>) -> Vec<u64> {
        let mut s = presets::lab11_unprotected();
        s.layers[0].deadline_ms = page;
        s.layers[1].deadline_ms = recommendation;
        s.layers[1].client.min_useful_ms = 100.0;
        run_with(&s, 1, DEFAULT_MAX_CALLS).unwrap().summary.attempts_per_hop
    }

    #[test]
    fn a_lower_layers_own_deadline_shortens_a_longer_one_from_above() {
        let (own, above) = (calls_with(None, Some(150.0)), calls_with(Some(1000.0), None));
        assert_ne!(own, above, "the two deadlines alone cut the run differently: {own:?} {above:?}");
        // The earlier wins, as a gRPC server's deadline derived from the incoming one.
        assert_eq!(calls_with(Some(1000.0), Some(150.0)), own, "150 ms below 1,000 ms above");
        // A longer one of its own changes nothing.
        assert_eq!(calls_with(Some(1000.0), Some(5000.0)), above, "5,000 ms below 1,000 ms above");
    }
}
