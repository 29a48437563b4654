//! The general engine: every call an event-driven state machine in virtual time. This file
//! holds the event loop and the server side of a hop (admission, workers and queue, work,
//! answers, cancellation); `client.rs` holds the caller side (the policy stack).
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
use super::{Budget, SimError};
use crate::policy::Outcome;
use crate::policy::breaker::Breaker;
use crate::policy::bulkhead::{Entry, Pool};
use crate::policy::deadline::NO_DEADLINE;
use crate::policy::retry_budget::RetryBudget;
use crate::policy::token_bucket::{Admission, Rejection, TokenBucket};
use crate::report::Stopped;
use crate::report::{CallResult, Refusal, ms};
use crate::scenario::{Dist, Scenario};
use crate::sim::rng::{self, Key, Purpose};
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
                    self.start_work(now, c);
                }
            }
            Ev::QueueTimeout(c) => {
                let hop = self.calls.get(c).hop as usize;
                self.hop_rt[hop].pool.abandon();
                self.stats.hops[hop].rejected += 1;
                self.stats.hops[hop].refused.queue_timeout += 1;
                self.calls.get_mut(c).refusal = Some(Refusal::QueueTimeout);
                self.gauge_queue(now, hop);
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
            self.arrive_as(now, 0, None, key, NO_DEADLINE, trace, number);
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

    fn token(c: CallRef) -> u64 {
        (u64::from(c.slot) << 32) | u64::from(c.generation)
    }

    fn untoken(t: u64) -> CallRef {
        CallRef { slot: (t >> 32) as u32, generation: t as u32 }
    }

    /// A call reaches `hop`. Returns its handle (it may already have been answered).
    pub fn arrive(
        &mut self,
        now: Micros,
        hop: usize,
        parent: Option<Parent>,
        key: Key,
        deadline: Micros,
        trace: u32,
    ) -> CallRef {
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
    ) -> CallRef {
        // The caller's record, read once: an orphan's callee is an orphan too.
        let (orphan, parent_span) = parent.map_or((false, NO_SPAN), |p| {
            let caller = self.calls.get(p.call);
            (caller.orphan, caller.span)
        });
        // A layer starts its own deadline for calls that arrive without one.
        let own_deadline = match self.plan.hops[hop].kind {
            HopKind::Layer { deadline: Some(d), .. } if deadline == NO_DEADLINE => {
                Some(now.saturating_add(d))
            }
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
        let h = &mut self.stats.hops[hop];
        h.calls += 1;
        self.stats.rec.add(h.attempts_c, now, 1);
        if let Some(adm) = &mut self.hop_rt[hop].admission {
            let spec = self.plan.hops[hop].admission.expect("admission spec matches runtime");
            let cost = spec.bucket.map_or(0, |b| b.cost);
            match adm.try_admit(now, cost) {
                Ok(()) => self.calls.get_mut(c).holds_admission = true,
                Err(rej) => {
                    self.stats.hops[hop].rejected += 1;
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
                    self.stats.hops[hop].refused.count(refusal);
                    self.calls.get_mut(c).refusal = Some(refusal);
                    self.respond(now, c, outcome, Answer::default());
                    return c;
                }
            }
        }
        match self.hop_rt[hop].pool.enter(Self::token(c)) {
            Entry::Admitted => {
                self.calls.get_mut(c).holds_worker = true;
                self.gauge_workers(now, hop);
                self.start_work(now, c);
            }
            Entry::Queued => {
                self.gauge_queue(now, hop);
                if let Some(qt) = self.plan.hops[hop].pool.queue_timeout {
                    self.sched(now, qt, Class::Timer, Ev::QueueTimeout(c));
                }
            }
            Entry::Rejected => {
                self.stats.hops[hop].rejected += 1;
                self.stats.hops[hop].refused.queue_full += 1;
                self.calls.get_mut(c).refusal = Some(Refusal::QueueFull);
                let ra = self.retry_after(hop);
                self.respond(now, c, Outcome::Overload { retry_after_us: ra }, Answer::default());
            }
        }
        c
    }

    #[inline(always)]
    fn gauge_workers(&mut self, now: Micros, hop: usize) {
        let h = &mut self.stats.hops[hop];
        let v = i64::from(self.hop_rt[hop].pool.active());
        h.peak_in_flight = h.peak_in_flight.max(v);
        self.stats.rec.set(h.in_flight_g, now, v);
    }

    pub fn gauge_queue(&mut self, now: Micros, hop: usize) {
        let h = &mut self.stats.hops[hop];
        let v = self.hop_rt[hop].pool.queued() as i64;
        h.peak_queue = h.peak_queue.max(v);
        self.stats.rec.set(h.queue_g, now, v);
    }

    // Inlined, with `start_deps`, into `arrive_as`: the recursion arrive → work → deps →
    // walk_out → arrive is then two calls per hop instead of four, and each call's register
    // spills cost more than these bodies.
    #[inline(always)]
    fn start_work(&mut self, now: Micros, c: CallRef) {
        let (hop, deadline, key, arrived) = {
            let call = self.calls.get_mut(c);
            call.phase = Phase::Working;
            call.work_start = now;
            (call.hop as usize, call.deadline, call.key, call.arrived)
        };
        let h = &mut self.stats.hops[hop];
        h.served += 1;
        if now > arrived {
            h.waited += 1;
            h.wait_us += now - arrived;
        }
        let spec = &self.plan.hops[hop];
        if deadline != NO_DEADLINE && deadline.saturating_sub(now) < spec.min_budget.max(1) {
            self.stats.totals.deadline_exhausted += 1;
            self.respond(now, c, Outcome::DeadlineExceeded, Answer::default());
            return;
        }
        let is_layer = matches!(spec.kind, HopKind::Layer { .. });
        let work = match spec.fixed_work {
            Some(w) => w,
            None => {
                let faults = spec.faults.at(now);
                if faults.down {
                    self.respond(now, c, Outcome::Error, Answer::default());
                    return;
                }
                sample(&spec.work, key, faults.latency_factor)
            }
        };
        if work == 0 && is_layer {
            self.start_deps(now, c, hop);
        } else {
            self.sched(now, work, Class::Completion, Ev::WorkDone(c));
        }
    }

    fn on_work_done(&mut self, now: Micros, c: CallRef) {
        let hop = self.calls.get(c).hop as usize;
        match &self.plan.hops[hop].kind {
            HopKind::Leaf(behaviour) => {
                let call = self.calls.get(c);
                let start = call.worked_from().unwrap_or(now);
                let error_rate =
                    self.plan.hops[hop].faults.at(start).error_rate.unwrap_or(behaviour.error_rate);
                let (outcome, empty) = rules::leaf_answer(call.key, behaviour, error_rate);
                self.respond(now, c, outcome, Answer { degraded: None, empty });
            }
            HopKind::Layer { .. } => self.start_deps(now, c, hop),
        }
    }

    /// A call that held a worker since `work_start` (none: taken this instant, not started)
    /// gives it back; the next queued call, if any, takes it.
    // Inlined into `respond`, its hot caller: as a call, its register spills cost more than
    // its body.
    #[inline(always)]
    pub(super) fn release_worker(&mut self, now: Micros, hop: usize, work_start: Option<Micros>) {
        self.stats.hops[hop].busy_us += work_start.map_or(0, |w| now.saturating_sub(w));
        let calls = &self.calls;
        let next = self.hop_rt[hop].pool.release(|t| {
            let r = Self::untoken(t);
            calls.at_slot(r.slot).is_some_and(|x| {
                x.live && x.generation == r.generation && x.phase == Phase::Queued && !x.holds_worker
            })
        });
        if let Some(t) = next {
            let r = Self::untoken(t);
            self.calls.get_mut(r).holds_worker = true;
            self.sched(now, 0, Class::Completion, Ev::StartWork(r));
            self.gauge_queue(now, hop);
        }
        self.gauge_workers(now, hop);
    }

    // ---- answers ---------------------------------------------------------------------

    /// Call `c` answers `outcome`: free what it holds and tell its caller.
    pub fn respond(&mut self, now: Micros, c: CallRef, outcome: Outcome, answer: Answer) {
        let (hop, holds_worker, holds_admission, parent, worked, orphan) = {
            let call = self.calls.get_mut(c);
            (
                call.hop as usize,
                std::mem::take(&mut call.holds_worker),
                std::mem::take(&mut call.holds_admission),
                call.parent,
                call.worked_from(),
                call.orphan,
            )
        };
        if holds_worker {
            self.release_worker(now, hop, worked);
        }
        if holds_admission && let Some(a) = self.hop_rt[hop].admission.as_mut() {
            a.release();
        }
        let answer = if outcome.is_ok() { answer } else { Answer::default() };
        let result = rules::call_result(outcome);
        self.stats.hops[hop].results.count(result);
        match parent {
            None => {
                self.trace_span(c, now, result, false);
                let call = self.calls.get(c);
                let ended = Ended {
                    request: u64::from(call.request),
                    arrived: call.arrived,
                    trace: call.trace,
                    outcome,
                    core_failure: call.core_failure,
                    degraded: answer.degraded,
                };
                let end = self.stats.request_ended(now, ended);
                self.stats.series_request_ended(now, end);
                self.calls.release(c);
            }
            Some(p) => {
                let waiting = self.calls.dep_is(p.call, p.dep, p.attempt, DepState::InFlight);
                let wasted = !waiting || orphan;
                self.trace_span(c, now, result, wasted);
                if wasted && worked.is_some() {
                    self.stats.hops[hop].abandoned += 1;
                }
                self.calls.release(c);
                if waiting {
                    self.on_attempt_result(
                        now,
                        p.call,
                        p.dep as usize,
                        outcome,
                        answer,
                        super::client::Origin::Callee,
                    );
                }
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

/// What travels back with a response besides its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Answer {
    /// A fallback answered for part of it.
    pub degraded: Option<super::stats::Degrade>,
    /// A leaf computed an empty result (a real answer, not a degradation).
    pub empty: bool,
}

/// Longest work one call may take (µs): 10 days. Longer draws (the far tail of a wide
/// log-normal, latency faults multiplied together) are clamped to it; a run stops at most an
/// hour after its last arrival, long before.
pub(super) const MAX_WORK_US: Micros = 864_000_000_000;

/// A work time drawn from its distribution, stretched by `factor` (µs), at most
/// [`MAX_WORK_US`].
#[inline(always)]
fn sample(d: &Dist, key: Key, factor: f64) -> Micros {
    let ms = match *d {
        Dist::Constant { ms } => ms,
        Dist::Exponential { mean_ms } => rng::exponential(mean_ms, key.uniform(Purpose::Service)),
        Dist::LogNormal { median_ms, p99_ms } => {
            rng::lognormal(median_ms, p99_ms, key.uniform(Purpose::Service))
        }
    };
    let ms = ms * factor;
    if ms.is_nan() || ms >= MAX_WORK_US as f64 / 1000.0 {
        // NaN only from an infinite draw times a factor of 0: treat it as the longest.
        return MAX_WORK_US;
    }
    crate::policy::retry::ms_to_us(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_draws_are_clamped_never_wrapped() {
        let wide = Dist::LogNormal { median_ms: 0.001, p99_ms: 86_400_000.0 };
        for k in 0..2_000 {
            let w = sample(&wide, Key(k), 1e15);
            assert!(w <= MAX_WORK_US, "{w}");
        }
        assert_eq!(sample(&Dist::Constant { ms: 86_400_000.0 }, Key(1), 1e15), MAX_WORK_US);
        assert_eq!(sample(&Dist::Constant { ms: 2.5 }, Key(1), 2.0), 5_000);
        assert_eq!(sample(&Dist::Constant { ms: 0.0 }, Key(1), 1000.0), 0);
    }
}
