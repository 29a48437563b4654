//! The retry-chain kernel: a faster path for scenarios whose layers only retry.
//!
//! When no layer has a worker limit, admission, deadline, own work, side dependency,
//! timeout, retry budget, breaker, bulkhead or fallback, and the leaf has no worker limit,
//! admission or fault and works a fixed, non-zero time, nothing a call does can be
//! refused, queued, timed out or cancelled, and no request can affect another: a request is
//! a stack of retry loops, one per layer, over the leaf's answers, all decided by its own
//! random key. The kernel therefore walks each request's whole life when it arrives —
//! every attempt, backoff, span and mark, in the order the general engine would produce
//! them — instead of scheduling an event per leaf call. It decides nothing itself: the
//! leaf's answer, the retry decision and backoff, the answer passed up and the spans are
//! the functions of `rules.rs` the general engine calls too, and everything it counts goes
//! to the same statistics sink.
//!
//! Only what is shared between requests needs time order: the in-flight levels (gauges)
//! and the request endings. The walk leaves those as *records* (a request's end, and the
//! workers given back and taken again around a backoff sleep) in a small heap, replayed
//! in (time, class) order between arrivals. That order reproduces the general engine's
//! gauges exactly. At one instant the engine handles the completions that were pending
//! (which only give workers back — a worker released and retaken within one instant
//! changes no peak, so the walk leaves it held), then the timers (which only take
//! workers), then arrivals; because leaf work takes time, nothing a timer sets off happens
//! within its own instant. So every in-between value lies between the instant's first and
//! last, and a bucket's peak is the same whatever the order inside one class. (With
//! zero-time work a wake-up's own completion would interleave with the other timers, which
//! is why the kernel leaves such leaves to the general engine.)
//!
//! The levels' series are batched per chart bucket: within one bucket a counter only needs
//! its sum and a gauge its highest value and its last, so the kernel keeps those and hands
//! them to the recorder when time moves past the bucket (or a call falls beyond it).
//!
//! It is the same model, not an approximation: the report is byte-identical to the general
//! engine's (`tests/kernel.rs` checks every scenario the kernel accepts out of thousands
//! drawn from the full scenario generator), including runs cut at the drain horizon.

use super::arrivals::Arrivals;
use super::plan::{ClientSpec, HopKind, HopSpec, Isolation, Plan, WorkerPoolSpec};
use super::rules;
use super::stats::{End, Ended, MarkBy, NO_TRACE, Stats};
use crate::policy::{Failure, Outcome};
use crate::report::{CallResults, MarkKind};
use crate::scenario::Scenario;
use crate::scenario::validate::{MAX_ATTEMPTS, MAX_LAYERS};
use crate::sim::recorder::{CounterId, GaugeId, Recorder};
use crate::sim::rng::{self, Key};
use crate::sim::{Class, Micros};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most levels (layers + the leaf).
const MAX_DEPTH: usize = MAX_LAYERS + 1;

/// Whether a compiled scenario fits the kernel's conditions (see the module docs). Every
/// field of the specs is named here, so a field added to them is a compile error until
/// someone decides whether the kernel can take it.
pub(super) fn fits(plan: &Plan) -> bool {
    let Plan { name: _, hops, clients, cancel_on_timeout: _, arrival_end: _ } = plan;
    let n_layers = clients.len();
    if n_layers == 0 || hops.len() != n_layers + 1 || hops.len() > MAX_DEPTH {
        return false; // side dependencies add hops and clients
    }
    let layer_fits = |i: usize, h: &HopSpec| {
        let HopSpec { name: _, kind, role: _, pool, admission, min_budget: _, work: _, fixed_work, faults } =
            h;
        // `min_budget` and the queue settings only act with a deadline or a worker limit.
        let WorkerPoolSpec { workers, queue: _, queue_timeout: _ } = pool;
        matches!(kind, HopKind::Layer { deadline: None, deps, shared_pool: None } if *deps == (i..i + 1))
            && workers.is_none()
            && admission.is_none()
            && *fixed_work == Some(0)
            && faults.is_empty()
    };
    let client_fits = |i: usize, c: &ClientSpec| {
        let ClientSpec {
            caller,
            callee,
            dep_index,
            retry: _,
            per_try,
            min_useful: _,
            retry_budget,
            breaker,
            isolation,
            fallback,
            needed_by,
            stages,
        } = c;
        let no_isolation: Option<Isolation> = None;
        *caller == i
            && *callee == i + 1
            && *dep_index == 0
            && per_try.is_none()
            && retry_budget.is_none()
            && breaker.is_none()
            && *isolation == no_isolation
            && fallback.is_none()
            && *needed_by >= 1.0
            && stages.is_empty()
    };
    let leaf_fits = {
        let HopSpec { name: _, kind, role: _, pool, admission, min_budget: _, work: _, fixed_work, faults } =
            &hops[n_layers];
        let WorkerPoolSpec { workers, queue: _, queue_timeout: _ } = pool;
        // Leaf calls must take time (at least 1 µs, always the same): then nothing a
        // wake-up sets off happens within its own instant, which the record order relies on.
        matches!(kind, HopKind::Leaf(_))
            && workers.is_none()
            && admission.is_none()
            && faults.is_empty()
            && fixed_work.is_some_and(|w| w > 0)
    };
    hops[..n_layers].iter().enumerate().all(|(i, h)| layer_fits(i, h))
        && clients.iter().enumerate().all(|(i, c)| client_fits(i, c))
        && leaf_fits
}

/// What the kernel keeps per level — the hop's counters and, for layers, the client's —
/// and hands to the statistics in [`RetryChainKernel::finish_stats`].
struct Tier {
    /// Calls holding a worker at the hop (unlimited workers).
    active: i64,
    peak: i64,
    calls: u64,
    attempts_c: CounterId,
    in_flight_g: GaugeId,
    first_successes: u64,
    /// How the hop's calls ended (kept here, beside the other per-level counts, and added
    /// to the statistics at the end).
    results: CallResults,
    /// Calls at the hop in the current batch bucket, not yet recorded.
    batch_calls: u64,
    /// The highest in-flight level in the current batch bucket; `NONE` if it did not
    /// change there.
    batch_peak: i64,
}

const NONE: i64 = i64::MIN;

impl Tier {
    /// A call arrives at the hop at `now`; `in_batch`: `now` is in the batched bucket.
    #[inline(always)]
    fn count_call(&mut self, in_batch: bool, rec: &mut Recorder, now: Micros) {
        self.calls += 1;
        if in_batch {
            self.batch_calls += 1;
        } else {
            // Beyond the batched bucket (the request outlives it): record it directly.
            rec.add(self.attempts_c, now, 1);
        }
    }
}

/// Something that must happen in time order with other requests.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// Levels `lo..=hi` give their workers back (a backoff sleep starts).
    Release { lo: u8, hi: u8 },
    /// Levels `lo..=hi` take workers again (the sleep is over).
    Take { lo: u8, hi: u8 },
    /// The request ends: every level gives its worker back, and the ending is counted.
    End { request: u32, arrived: Micros, trace: u32, outcome: Outcome, core_failure: Option<Failure> },
}

/// Records wait in a heap of keys `time << 64 | class << 62 | slot`, their changes in a
/// slab at `slot`: small keys keep the heap fast. Records at one time and class are all
/// decreases or all increases, so their order among themselves (here, by slot) changes no
/// result.
fn record_key(at: Micros, class: Class, slot: u32) -> u128 {
    (u128::from(at) << 64) | (u128::from(class as u8) << 62) | u128::from(slot)
}

/// One request's calls in flight, per level (0 = the entry layer, `depth - 1` = the leaf).
struct Walk {
    key: [Key; MAX_DEPTH],
    /// When the level's call arrived (its work starts at once).
    arrived: [Micros; MAX_DEPTH],
    /// Layers: the attempt number of the call to the next level.
    attempt: [u32; MAX_DEPTH],
    /// Layers: the last backoff slept (µs).
    prev_sleep: [Micros; MAX_DEPTH],
    /// Traced requests: the span id of the level's call, and the next id to give.
    span: [u32; MAX_DEPTH],
    next_span: u32,
    /// The request's number (0 = first to arrive).
    request: u32,
    trace: u32,
}

/// The kernel's state.
pub(super) struct RetryChainKernel {
    pub plan: Plan,
    pub stats: Stats,
    arrivals: Arrivals,
    pending_arrival: Option<(Micros, Key)>,
    next_arrival: Option<Micros>,
    horizon: Micros,
    pub done: bool,
    /// Levels: layers + the leaf.
    depth: usize,
    tiers: Vec<Tier>,
    records: BinaryHeap<Reverse<u128>>,
    /// `rng::child_salt(0, a)` for every attempt number `a` a layer can make.
    salts: Vec<u64>,
    /// The walk buffer, home between requests.
    walk: Option<Box<Walk>>,
    /// The changes of pending records, by slot, and the free slots.
    changes: Vec<Change>,
    free: Vec<u32>,
    /// The recorder bucket being batched: `[start, end)`.
    batch: (Micros, Micros),
    /// Requests offered, then ended by kind, in the batched bucket.
    batch_requests: [u64; 5],
    /// The highest number of requests in flight in the batched bucket (`NONE`: no change).
    batch_live_peak: i64,
}

impl RetryChainKernel {
    /// Sets up the kernel (after [`fits`] said yes).
    pub fn new(plan: Plan, s: &Scenario, seed: u64, stats: Stats, horizon: Micros) -> Self {
        let tiers = stats
            .hops
            .iter()
            .map(|h| Tier {
                active: 0,
                peak: h.peak_in_flight,
                calls: 0,
                attempts_c: h.attempts_c,
                in_flight_g: h.in_flight_g,
                first_successes: 0,
                results: CallResults::default(),
                batch_calls: 0,
                batch_peak: NONE,
            })
            .collect();
        let batch = stats.rec.bucket_span(0);
        let depth = plan.hops.len();
        RetryChainKernel {
            plan,
            stats,
            arrivals: Arrivals::new(s, seed),
            pending_arrival: None,
            next_arrival: Some(0),
            horizon,
            done: false,
            depth,
            tiers,
            records: BinaryHeap::new(),
            salts: (0..=MAX_ATTEMPTS + 1).map(|a| rng::child_salt(0, a)).collect(),
            walk: Some(Box::new(Walk {
                key: [Key(0); MAX_DEPTH],
                arrived: [0; MAX_DEPTH],
                attempt: [0; MAX_DEPTH],
                prev_sleep: [0; MAX_DEPTH],
                span: [0; MAX_DEPTH],
                next_span: 0,
                request: 0,
                trace: NO_TRACE,
            })),
            changes: Vec::new(),
            free: Vec::new(),
            batch,
            batch_requests: [0; 5],
            batch_live_peak: NONE,
        }
    }

    /// The kernel's loop: arrivals (each walks its request) and, before each, the records
    /// due by then. `max_steps` bounds the arrivals and records handled in one call.
    pub fn step(&mut self, max_steps: u64) -> bool {
        let mut n = 0;
        while n < max_steps && !self.done {
            n += 1;
            let due = self.records.peek().map(|r| (r.0 >> 64) as Micros);
            match (due, self.next_arrival) {
                // Records are completions or timers: at equal times they go first.
                (Some(r), a) if a.is_none_or(|a| r <= a) => {
                    let Reverse(key) = self.records.pop().expect("peeked");
                    let slot = key as u32;
                    self.free.push(slot);
                    let change = self.changes[slot as usize];
                    self.apply((key >> 64) as Micros, change);
                }
                (_, Some(a)) => {
                    self.advance(a);
                    self.next_arrival = None;
                    self.stats.last_t = self.stats.last_t.max(a);
                    self.on_arrival(a);
                }
                _ => self.done = true,
            }
        }
        self.done
    }

    fn on_arrival(&mut self, now: Micros) {
        if let Some((_, key)) = self.pending_arrival.take() {
            let trace = self.stats.request_arrived(now);
            self.batch_request(0);
            let number = u32::try_from(self.stats.totals.original - 1).unwrap_or(u32::MAX);
            self.request(now, key, trace, number);
        }
        match self.arrivals.next() {
            Some((t, key)) => {
                self.pending_arrival = Some((t, key));
                self.next_arrival = Some(t.max(now));
            }
            None => self.next_arrival = None,
        }
    }

    /// A request arrived (`what` 0) or ended (1 + its end) in the batched bucket.
    #[inline(always)]
    fn batch_request(&mut self, what: usize) {
        self.batch_requests[what] += 1;
        self.batch_live_peak = self.batch_live_peak.max(self.stats.live_requests as i64);
    }

    /// Adds the kernel's counters to the statistics (once, before the report).
    pub fn finish_stats(&mut self) {
        self.flush_batch();
        // Every call at a layer makes its first attempt at once, and every attempt is a
        // call at the next level: layer i's attempts are level i + 1's calls, and its
        // retries the difference.
        let calls: Vec<u64> = self.tiers.iter_mut().map(|t| std::mem::take(&mut t.calls)).collect();
        for (i, t) in self.tiers.iter_mut().enumerate() {
            let h = &mut self.stats.hops[i];
            h.calls += calls[i];
            h.peak_in_flight = h.peak_in_flight.max(t.peak);
            h.results = std::mem::take(&mut t.results);
            if let Some(c) = self.stats.clients.get_mut(i) {
                let attempts = calls[i + 1];
                c.attempts += attempts;
                c.retries += attempts - calls[i];
                self.stats.totals.retries += attempts - calls[i];
                c.first_successes += std::mem::take(&mut t.first_successes);
            }
        }
    }

    /// Hands the batched bucket's counts and peaks to the recorder.
    fn flush_batch(&mut self) {
        let at = self.batch.0;
        let st = &mut self.stats;
        let series = [st.offered_c, st.end_c[0], st.end_c[1], st.end_c[2], st.end_c[3]];
        for (c, n) in series.into_iter().zip(&mut self.batch_requests) {
            if *n > 0 {
                st.rec.add(c, at, std::mem::take(n));
            }
        }
        let peak = std::mem::replace(&mut self.batch_live_peak, NONE);
        if peak != NONE {
            st.rec.set(st.requests_g, at, peak);
            st.rec.set(st.requests_g, at, st.live_requests as i64);
        }
        for t in &mut self.tiers {
            if t.batch_calls > 0 {
                st.rec.add(t.attempts_c, at, std::mem::take(&mut t.batch_calls));
            }
            let peak = std::mem::replace(&mut t.batch_peak, NONE);
            if peak != NONE {
                st.rec.set(t.in_flight_g, at, peak);
                st.rec.set(t.in_flight_g, at, t.active);
            }
        }
    }

    /// Time has reached `now` (in order): start batching its bucket if it is a new one.
    #[inline(always)]
    fn advance(&mut self, now: Micros) {
        if now >= self.batch.1 {
            self.flush_batch();
            self.batch = self.stats.rec.bucket_span(now);
        }
    }

    fn record(&mut self, at: Micros, class: Class, change: Change) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.changes[slot as usize] = change;
                slot
            }
            None => {
                self.changes.push(change);
                (self.changes.len() - 1) as u32
            }
        };
        self.records.push(Reverse(record_key(at, class, slot)));
    }

    fn apply(&mut self, now: Micros, change: Change) {
        self.advance(now);
        match change {
            Change::Release { lo, hi } => self.shift(now, lo as usize, hi as usize, -1),
            Change::Take { lo, hi } => self.shift(now, lo as usize, hi as usize, 1),
            Change::End { request, arrived, trace, outcome, core_failure } => {
                self.shift(now, 0, self.depth - 1, -1);
                let request = u64::from(request);
                let ended = Ended { request, arrived, trace, outcome, core_failure, degraded: None };
                let end: End = self.stats.request_ended(now, ended);
                self.batch_request(1 + end as usize);
            }
        }
    }

    /// Levels `lo..=hi` take (`delta` = 1) or give back (-1) a worker at `now`.
    #[inline(always)]
    fn shift(&mut self, now: Micros, lo: usize, hi: usize, delta: i64) {
        debug_assert!(now >= self.batch.0 && now < self.batch.1, "gauges move in time order");
        for t in &mut self.tiers[lo..=hi] {
            t.active += delta;
            t.peak = t.peak.max(t.active);
            t.batch_peak = t.batch_peak.max(t.active);
        }
    }

    /// A new original request arrives at `now`: walk its whole life.
    fn request(&mut self, now: Micros, key: Key, trace: u32, number: u32) {
        // One walk buffer serves every request: each level's entries are written as the
        // walk reaches the level.
        let mut w = self.walk.take().expect("the walk buffer is home between requests");
        w.key[0] = key;
        w.arrived[0] = now;
        w.attempt[0] = 0;
        w.prev_sleep[0] = 0;
        w.trace = trace;
        w.request = number;
        // Span ids count arrivals as the general engine's do: the entry is 0, and each
        // call below takes the next id as the walk reaches it (see `descend`).
        w.span[0] = 0;
        w.next_span = 1;
        self.walk_request(&mut w, now);
        self.walk = Some(w);
    }

    /// Walks the request that arrived at `now` from its entry call (set up in `w`).
    fn walk_request(&mut self, w: &mut Walk, now: Micros) {
        let leaf = self.depth - 1;
        let horizon = self.horizon;
        let trace = w.trace;
        self.enter(now, 0);
        // The descent from the entry: every level takes a worker now (arrivals are
        // handled in time order, so this is applied at once).
        self.descend(w, 0, now);
        self.shift(now, 0, leaf, 1);
        let HopKind::Leaf(behaviour) = self.plan.hops[leaf].kind else {
            unreachable!("the kernel's last level is the leaf")
        };
        let work = self.plan.hops[leaf].fixed_work.expect("the kernel's leaf work is fixed");
        let mut t = now;
        loop {
            // The leaf call that started at `t` answers.
            t += work;
            if t > horizon {
                // The run ends first: the request stays unfinished, a call at every level.
                self.unfinished(leaf);
                return;
            }
            self.stats.last_t = self.stats.last_t.max(t);
            // An empty result only counts behind a fallback, and kernel layers have none.
            let (mut out, _) = rules::leaf_answer(w.key[leaf], &behaviour, behaviour.error_rate);
            // The answer travels up until a layer retries or the entry answers.
            let mut lvl = leaf;
            let mut core_failure = None; // the failure the answering call's dependency reported
            let (lvl, delay) = loop {
                self.tiers[lvl].results.count(rules::call_result(out));
                if trace != NO_TRACE {
                    let arrived = w.arrived[lvl];
                    let of = rules::SpanOf {
                        id: w.span[lvl],
                        parent: lvl.checked_sub(1).map(|up| w.span[up]),
                        hop: lvl,
                        attempt: if lvl == 0 { 1 } else { w.attempt[lvl - 1] },
                        arrived,
                        work_start: Some(arrived),
                        refusal: None,
                    };
                    self.stats.traces.span(trace, rules::span(of, t, rules::call_result(out), false));
                }
                if lvl == 0 {
                    let request = w.request;
                    let end = Change::End { request, arrived: now, trace, outcome: out, core_failure };
                    self.record(t, Class::Completion, end);
                    return;
                }
                lvl -= 1;
                let attempt = w.attempt[lvl];
                if out.is_ok() {
                    if attempt == 1 {
                        self.tiers[lvl].first_successes += 1;
                    }
                    core_failure = None;
                    continue;
                }
                let client = &self.plan.clients[lvl];
                if let Some(delay) = rules::retry_delay(client, attempt, w.prev_sleep[lvl], w.key[lvl], out) {
                    w.prev_sleep[lvl] = delay;
                    break (lvl, delay);
                }
                // The layer's only dependency failed for good: it answers with the failure.
                if trace != NO_TRACE {
                    let by = MarkBy { hop: lvl, call: w.span[lvl], callee: lvl + 1 };
                    self.stats.traces.mark(trace, by, rules::gave_up(client, attempt), t, t);
                }
                core_failure = out.failure();
                out = rules::layer_answer(core_failure);
            };
            if delay > 0 {
                // The levels below give their workers back and sleep.
                let (lo, hi) = ((lvl + 1) as u8, leaf as u8);
                self.record(t, Class::Completion, Change::Release { lo, hi });
                if trace != NO_TRACE {
                    let by = MarkBy { hop: lvl, call: w.span[lvl], callee: lvl + 1 };
                    self.stats.traces.mark(trace, by, MarkKind::Backoff, t, t + delay);
                }
                t += delay;
                if t > horizon {
                    // Levels below the sleeping layer answered; it and those above wait.
                    self.unfinished(lvl);
                    return;
                }
                self.stats.last_t = self.stats.last_t.max(t);
                self.record(t, Class::Timer, Change::Take { lo, hi });
            }
            // Retried at once, the levels below keep their workers: they answered and are
            // called again within this instant.
            self.descend(w, lvl, t);
        }
    }

    /// The calls at levels `0..=lvl` are left alive when the run ends.
    #[cold]
    fn unfinished(&mut self, lvl: usize) {
        for t in &mut self.tiers[..=lvl] {
            t.results.unfinished += 1;
        }
    }

    /// A call arrives at level `lvl` at `now` (counters; workers are `shift`'s).
    #[inline(always)]
    fn enter(&mut self, now: Micros, lvl: usize) {
        let in_batch = now < self.batch.1;
        self.tiers[lvl].count_call(in_batch, &mut self.stats.rec, now);
    }

    /// Layer `lvl` sends its next attempt at `now`; each layer below sends its first, down
    /// to the leaf.
    fn descend(&mut self, w: &mut Walk, mut lvl: usize, now: Micros) {
        let leaf = self.depth - 1;
        let in_batch = now < self.batch.1;
        while lvl < leaf {
            w.attempt[lvl] += 1;
            let a = w.attempt[lvl];
            // The salt of attempt `a` (tabulated; the same key as `Key::child(0, a)`: the
            // next hop is dependency 0 of every kernel layer).
            let child = w.key[lvl].child_salted(self.salts[a as usize]);
            // The attempt is counted as the next level's call (see `finish_stats`).
            lvl += 1;
            w.key[lvl] = child;
            w.arrived[lvl] = now;
            w.attempt[lvl] = 0;
            w.prev_sleep[lvl] = 0;
            if w.trace != NO_TRACE {
                w.span[lvl] = w.next_span;
                w.next_span += 1;
            }
            self.tiers[lvl].count_call(in_batch, &mut self.stats.rec, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fits;
    use crate::model::chain::plan::compile;
    use crate::scenario::{Dist, Scenario, presets};

    #[test]
    fn retry_only_chains_fit_and_any_protection_does_not() {
        for p in [presets::chain_2x3, presets::chain_3x3, presets::chain_3x4, presets::lab11_unprotected] {
            assert!(fits(&compile(&p())), "{}", p().name);
        }
        type Change = fn(&mut Scenario);
        let changes: [(&str, Change); 6] = [
            ("a per-try timeout", |s| s.layers[0].client.per_try_timeout_ms = Some(100.0)),
            ("a worker limit", |s| s.leaf.server.workers = Some(10)),
            ("a deadline", |s| s.layers[0].deadline_ms = Some(100.0)),
            ("variable leaf work", |s| s.leaf.work = Dist::Exponential { mean_ms: 10.0 }),
            ("zero leaf work", |s| s.leaf.work = Dist::Constant { ms: 0.0 }),
            ("own work in a layer", |s| s.layers[1].work = Dist::Constant { ms: 1.0 }),
        ];
        for (what, change) in changes {
            let mut s = presets::chain_3x3();
            change(&mut s);
            assert!(!fits(&compile(&s)), "{what} sends the run to the general engine");
        }
        assert!(!fits(&compile(&presets::lab11_protected())), "admission, fallback, deadline");
        assert!(!fits(&compile(&presets::breaker_demo())), "a breaker");
    }
}
