//! The statistics sink: everything a run counts, shared by the general engine and the
//! retry-chain kernel, and turned into the report at the end (`finish.rs`; the types are `crate::report`'s).
//!
//! Counters and histograms are sums, so whoever writes them may batch; the series live in
//! a [`Recorder`] with bounded memory. Traces keep a capped sample of requests.

use super::plan::HopKind;
use super::plan::{Isolation, Plan};
use crate::policy::breaker::Transition;
use crate::policy::retry_budget::RetryBudget;
use crate::policy::{Failure, Outcome};
use crate::report::{
    BreakerTransition, CallResults, CauseExamples, Causes, Examples, Mark, MarkKind, Refusals,
    RequestOutcome, Span, Trace, ms,
};
use crate::sim::Micros;
use crate::sim::first_seen::FirstSeen;
use crate::sim::recorder::{BucketCount, BucketGauge, CounterId, GaugeId, Recorder};
use crate::sim::tally::Tally;
use hdrhistogram::Histogram;

/// "Not traced".
pub const NO_TRACE: u32 = u32::MAX;

/// Longest latency the histograms hold (µs): 10 days; longer values are clamped.
pub const HIST_MAX: u64 = 864_000_000_000;

/// Most spans and marks one trace keeps; the rest are counted as dropped. A timeline of
/// more is unreadable, and the page decodes and draws every trace it is sent (250 keeps the
/// heaviest accepted link under 100 ms of main-thread work; no preset comes near it).
pub const MAX_TRACE_ITEMS: usize = 250;

/// Most spans and marks a trace asked for by number keeps: a whole attempt tree is the
/// point there (chain-3x4 failing everywhere is 121 calls and as many marks; 4,000 leaves
/// room for side dependencies), and there are at most 8 such traces.
pub const MAX_REQUESTED_TRACE_ITEMS: usize = 4_000;

/// A latency histogram: 1 µs to 10 days at 3 significant digits (values are clamped to
/// [`HIST_MAX`] before they are recorded). It grows to the largest value recorded rather
/// than starting at its full size: a histogram of the whole range is 30,720 counts (240 KB)
/// to zero, and every run keeps several, most of them for ends that never happen or for
/// sums, so a small run had spent most of its time clearing them. The buckets are the same
/// whatever its size (they depend only on the lowest value and the digits), so the
/// percentiles, bins and sums are too.
pub fn new_hist() -> Histogram<u64> {
    let mut h = Histogram::new_with_bounds(1, 2, 3).expect("valid histogram bounds");
    h.auto(true);
    h
}

/// Why a response is degraded: the failure its fallback covered, and which fallback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Degrade {
    /// The failure the fallback covered.
    pub cause: Failure,
    /// A stale (hot-list) fallback rather than `unavailable`.
    pub stale: bool,
}

/// How an original request ended, as its entry call answered.
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    /// Its number (0 = first to arrive).
    pub request: u64,
    /// When it arrived (µs).
    pub arrived: Micros,
    /// Its trace, or [`NO_TRACE`].
    pub trace: u32,
    /// The entry's answer.
    pub outcome: Outcome,
    /// The first core dependency failure the entry call saw, if any.
    pub core_failure: Option<Failure>,
    /// Set if a fallback answered for part of the response.
    pub degraded: Option<Degrade>,
}

/// What the latency figures of the report come from, per end.
pub struct Latencies {
    pub hist: [Histogram<u64>; 4],
    /// Exact maxima (µs).
    pub max_us: [u64; 4],
    /// Exact minima (µs; `u64::MAX` for an end no request had): the bins start from them,
    /// since a histogram's lowest value sits up to its precision below the true one.
    pub min_us: [u64; 4],
    pub first_seen: [FirstSeen; 4],
}

/// Run-wide counts.
#[derive(Default)]
pub struct Totals {
    pub original: u64,
    pub succeeded: u64,
    pub degraded: u64,
    pub failed: u64,
    pub rejected: u64,
    pub retry_budget_denied: u64,
    pub deadline_exhausted: u64,
    pub breaker_rejected: u64,
    pub bulkhead_rejected: u64,
    pub retries: u64,
    pub timeouts: u64,
    pub degraded_by: Causes,
    pub degraded_stale: u64,
    pub degraded_unavailable: u64,
    pub computed_empty: u64,
    pub failed_by: Causes,
}

/// Per-service counts and series.
pub struct HopCounters {
    pub calls: u64,
    pub rejected: u64,
    pub abandoned: u64,
    pub cancelled: u64,
    pub peak_in_flight: i64,
    pub peak_queue: i64,
    /// Calls that got a worker, those that waited for it, the waits and the time held (µs).
    pub served: u64,
    pub waited: u64,
    pub wait_us: u64,
    pub busy_us: u64,
    /// Calls in its worker pool averaged over the run (count), read from the pool at the
    /// end; 0 without a worker limit.
    pub mean_in_pool: f64,
    /// How its calls ended (both engines count where a call ends), and why its admission
    /// or queue refused some (the general engine; the kernel's hops refuse nothing).
    pub results: CallResults,
    pub refused: Refusals,
    pub attempts_c: CounterId,
    pub in_flight_g: GaugeId,
    pub queue_g: GaugeId,
    /// The general engine's calls, busy workers and queue in the bucket being recorded
    /// (see [`Stats::enter`]); the kernel writes the series above directly.
    pub attempts_n: BucketCount,
    pub in_flight: BucketGauge,
    pub queue: BucketGauge,
    /// Busy threads and waiting calls of its shared pool, if it has one.
    pub pool_g: Option<(GaugeId, GaugeId)>,
}

/// Per caller → dependency counts and series.
pub struct ClientCounters {
    pub attempts: u64,
    pub retries: u64,
    pub first_successes: u64,
    pub retry_budget_denied: u64,
    pub breaker_rejected: u64,
    pub bulkhead_rejected: u64,
    pub deadline_exhausted: u64,
    /// Tries it stopped waiting for.
    pub timeouts: u64,
    pub budget_g: Option<GaugeId>,
    pub open_g: Option<GaugeId>,
    pub half_g: Option<GaugeId>,
    /// The first breaker's tally at one instant, calls in the high 32 bits and failures
    /// in the low ones, so that a bucket's peak is one moment's pair, never a mix of two.
    pub window_g: Option<GaugeId>,
    pub slots_g: Option<GaugeId>,
    /// Calls waiting for its own bulkhead, if it has one.
    pub bulkhead_queue_g: Option<GaugeId>,
}

/// A client's series that its breaker and bulkhead stages write on every attempt that
/// passes them, in the bucket being recorded: kept in place like a hop's (see
/// [`Stats::enter`]) and handed to `ClientCounters`' gauges once a bucket. Beside the
/// counters, not in them: the counters' layout is the hot path's.
#[derive(Default)]
pub struct StageGauges {
    /// The first breaker's tally (`window_g`).
    pub window: BucketGauge,
    /// Slots in use (`slots_g`).
    pub slots: BucketGauge,
    /// Calls waiting for its own bulkhead (`bulkhead_queue_g`).
    pub bulkhead_queue: BucketGauge,
}

/// A layer's shared pool's busy threads and queue in the bucket being recorded
/// (`HopCounters::pool_g`), kept like [`StageGauges`].
#[derive(Default)]
pub struct PoolGauges {
    pub busy: BucketGauge,
    pub queue: BucketGauge,
}

/// The capped sample of traced requests, and those asked for by number.
pub struct Traces {
    pub list: Vec<Trace>,
    cap: usize,
    stride: u64,
    /// Request numbers asked for (`report.trace_requests`), sorted.
    requested: Vec<u64>,
    /// Sampled traces started so far (the cap counts these only).
    sampled: usize,
    /// Per trace: the next span id, and the most items it keeps.
    next_id: Vec<u32>,
    item_cap: Vec<usize>,
}

/// Everything a run counts.
pub struct Stats {
    pub rec: Recorder,
    pub offered_c: CounterId,
    pub end_c: [CounterId; 4],
    pub requests_g: GaugeId,
    /// The general engine's arrivals, ends and requests in flight in the bucket being
    /// recorded, which spans `[bucket.0, bucket.1)` (see [`enter`](Self::enter)).
    offered_n: BucketCount,
    ended_n: [BucketCount; 4],
    requests: BucketGauge,
    bucket: (Micros, Micros),
    /// Original requests not yet answered.
    pub live_requests: u64,
    hist: [Tally; 4],
    max_us: [u64; 4],
    min_us: [u64; 4],
    /// Per end, the first request at each latency (for the latency bars' examples).
    first_seen: [FirstSeen; 4],
    pub totals: Totals,
    pub hops: Vec<HopCounters>,
    pub clients: Vec<ClientCounters>,
    /// Per client and per hop: the stages' and shared pools' series in the bucket being
    /// recorded.
    pub stage_gauges: Vec<StageGauges>,
    pub pool_gauges: Vec<PoolGauges>,
    pub transitions: Vec<BreakerTransition>,
    pub traces: Traces,
    /// A request of each kind worth drilling into.
    pub examples: Examples,
    /// The slowest answered request's latency (µs), for `examples.slowest`.
    slowest_us: u64,
    /// Time of the last event handled (µs).
    pub last_t: Micros,
}

/// Adds one to the cause of a degraded or failed response.
pub fn add_cause(c: &mut Causes, f: Failure) {
    match f {
        Failure::Timeout => c.timeout += 1,
        Failure::Error => c.error += 1,
        Failure::Overload => c.overload += 1,
        Failure::ClientError => c.client_error += 1,
        Failure::DeadlineExceeded => c.budget_exhausted += 1,
        Failure::BudgetDenied => c.retry_budget_denied += 1,
        Failure::BreakerOpen => c.breaker_rejected += 1,
        Failure::BulkheadFull => c.bulkhead_rejected += 1,
    }
}

/// The example slot of a cause; the same match as [`add_cause`], so that each counted
/// cause has its example.
fn cause_example(c: &mut CauseExamples, f: Failure) -> &mut Option<u64> {
    match f {
        Failure::Timeout => &mut c.timeout,
        Failure::Error => &mut c.error,
        Failure::Overload => &mut c.overload,
        Failure::ClientError => &mut c.client_error,
        Failure::DeadlineExceeded => &mut c.budget_exhausted,
        Failure::BudgetDenied => &mut c.retry_budget_denied,
        Failure::BreakerOpen => &mut c.breaker_rejected,
        Failure::BulkheadFull => &mut c.bulkhead_rejected,
    }
}

/// The four ways a request can end, as an index into the per-outcome series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Succeeded = 0,
    Degraded = 1,
    Failed = 2,
    Rejected = 3,
}

impl End {
    /// The report's name for it.
    pub fn outcome(self) -> RequestOutcome {
        RequestOutcome::ENDED[self as usize]
    }
}

impl Stats {
    /// Counters and series for `plan`, buckets of `width` µs (at most `max_buckets`), a
    /// trace of every `stride`-th request up to `trace_cap` of them, and of the requests
    /// numbered in `requested` (beyond the cap).
    pub fn with_requested(
        plan: &Plan,
        width: Micros,
        max_buckets: usize,
        trace_cap: usize,
        stride: u64,
        requested: &[u64],
    ) -> Self {
        let requested = crate::order::sorted_unique(requested);
        let mut rec = Recorder::new(width, max_buckets);
        let offered_c = rec.counter();
        let end_c = [rec.counter(), rec.counter(), rec.counter(), rec.counter()];
        let requests_g = rec.gauge(0);
        let hops = plan
            .hops
            .iter()
            .map(|h| HopCounters {
                calls: 0,
                rejected: 0,
                abandoned: 0,
                cancelled: 0,
                peak_in_flight: 0,
                peak_queue: 0,
                served: 0,
                waited: 0,
                mean_in_pool: 0.0,
                wait_us: 0,
                busy_us: 0,
                results: CallResults::default(),
                refused: Refusals::default(),
                attempts_c: rec.counter(),
                in_flight_g: rec.gauge(0),
                queue_g: rec.gauge(0),
                pool_g: matches!(h.kind, HopKind::Layer { shared_pool: Some(_), .. })
                    .then(|| (rec.gauge(0), rec.gauge(0))),
                attempts_n: BucketCount::default(),
                in_flight: BucketGauge::default(),
                queue: BucketGauge::default(),
            })
            .collect();
        let clients = plan
            .clients
            .iter()
            .map(|c| {
                let budget_g = c.retry_budget.map(|b| rec.gauge(RetryBudget::new(b).milli_tokens() as i64));
                let has_breaker = c.breaker.is_some();
                ClientCounters {
                    attempts: 0,
                    retries: 0,
                    first_successes: 0,
                    retry_budget_denied: 0,
                    breaker_rejected: 0,
                    bulkhead_rejected: 0,
                    deadline_exhausted: 0,
                    timeouts: 0,
                    budget_g,
                    open_g: has_breaker.then(|| rec.gauge(0)),
                    half_g: has_breaker.then(|| rec.gauge(0)),
                    window_g: has_breaker.then(|| rec.gauge(0)),
                    slots_g: matches!(c.isolation, Some(Isolation::Bulkhead(_) | Isolation::SharedPool))
                        .then(|| rec.gauge(0)),
                    bulkhead_queue_g: matches!(c.isolation, Some(Isolation::Bulkhead(_)))
                        .then(|| rec.gauge(0)),
                }
            })
            .collect();
        let bucket = rec.bucket_span(0);
        Stats {
            stage_gauges: plan.clients.iter().map(|_| StageGauges::default()).collect(),
            pool_gauges: plan.hops.iter().map(|_| PoolGauges::default()).collect(),
            rec,
            offered_c,
            end_c,
            requests_g,
            offered_n: BucketCount::default(),
            ended_n: Default::default(),
            requests: BucketGauge::default(),
            bucket,
            live_requests: 0,
            hist: [(); 4].map(|_| Tally::new(new_hist())),
            max_us: [0; 4],
            min_us: [u64::MAX; 4],
            first_seen: Default::default(),
            totals: Totals::default(),
            hops,
            clients,
            transitions: Vec::new(),
            traces: Traces {
                list: Vec::new(),
                cap: trace_cap,
                stride,
                requested,
                sampled: 0,
                next_id: Vec::new(),
                item_cap: Vec::new(),
            },
            examples: Examples::default(),
            slowest_us: 0,
            last_t: 0,
        }
    }

    /// An original request arrives at `now`: counts it and starts its trace if it is
    /// sampled. Returns the trace index or [`NO_TRACE`]. The series are
    /// [`series_request_arrived`](Self::series_request_arrived)'s.
    #[inline(always)]
    pub fn request_arrived(&mut self, now: Micros) -> u32 {
        let idx = self.totals.original;
        self.totals.original += 1;
        self.live_requests += 1;
        self.traces.start(idx, now)
    }

    /// The general engine is about to handle an event at `now` (times only move forward):
    /// if it falls past the bucket the pending series were counted in, they go to the
    /// recorder first. The series every call writes (a hop's calls, busy workers and queue;
    /// arrivals, ends, requests in flight) are then counted in place, and the recorder is
    /// looked up once a bucket instead of several times a call.
    #[inline(always)]
    pub fn enter(&mut self, now: Micros) {
        if now.wrapping_sub(self.bucket.0) >= self.bucket.1 - self.bucket.0 {
            self.next_bucket(now);
        }
    }

    #[cold]
    #[inline(never)]
    fn next_bucket(&mut self, now: Micros) {
        self.flush_pending();
        self.bucket = self.rec.bucket_span(now);
    }

    /// Hands the pending series to the recorder (at the run's end, and when time leaves
    /// their bucket). Buckets merge only in aligned pairs, so their bucket's start is in
    /// the bucket they were counted in even if the recorder merged buckets since.
    pub fn flush_pending(&mut self) {
        let (t, rec) = (self.bucket.0, &mut self.rec);
        for h in &mut self.hops {
            h.attempts_n.flush(rec, h.attempts_c, t);
            h.in_flight.flush(rec, h.in_flight_g, t);
            h.queue.flush(rec, h.queue_g, t);
        }
        for (h, p) in self.hops.iter().zip(&mut self.pool_gauges) {
            if let Some((busy, queue)) = h.pool_g {
                p.busy.flush(rec, busy, t);
                p.queue.flush(rec, queue, t);
            }
        }
        for (c, s) in self.clients.iter().zip(&mut self.stage_gauges) {
            let gauges = [
                (&mut s.window, c.window_g),
                (&mut s.slots, c.slots_g),
                (&mut s.bulkhead_queue, c.bulkhead_queue_g),
            ];
            for (g, id) in gauges {
                if let Some(id) = id {
                    g.flush(rec, id, t);
                }
            }
        }
        self.offered_n.flush(rec, self.offered_c, t);
        for (n, &id) in self.ended_n.iter_mut().zip(&self.end_c) {
            n.flush(rec, id, t);
        }
        self.requests.flush(rec, self.requests_g, t);
    }

    /// The series side of an arrival.
    #[inline]
    pub fn series_request_arrived(&mut self, now: Micros) {
        debug_assert!(now.wrapping_sub(self.bucket.0) < self.bucket.1 - self.bucket.0, "see `enter`");
        self.offered_n.add(1);
        self.requests.set(self.live_requests as i64);
    }

    /// An original request ended: its outcome, causes, latency and trace. The series are
    /// [`series_request_ended`](Self::series_request_ended)'s.
    #[inline(always)]
    pub fn request_ended(&mut self, now: Micros, e: Ended) -> End {
        let Ended { request, arrived, trace, outcome, core_failure, degraded } = e;
        let end = super::rules::end_of(outcome, degraded.is_some());
        let t = &mut self.totals;
        let ex = &mut self.examples;
        let first = match end {
            End::Succeeded => &mut ex.succeeded,
            End::Degraded => &mut ex.degraded,
            End::Failed => &mut ex.failed,
            End::Rejected => &mut ex.rejected,
        };
        first.get_or_insert(request);
        match end {
            End::Succeeded => t.succeeded += 1,
            End::Degraded => {
                t.degraded += 1;
                let d = degraded.unwrap_or(Degrade { cause: Failure::Error, stale: false });
                add_cause(&mut t.degraded_by, d.cause);
                cause_example(&mut ex.by_cause, d.cause).get_or_insert(request);
                if d.stale {
                    t.degraded_stale += 1;
                } else {
                    t.degraded_unavailable += 1;
                }
            }
            End::Failed => {
                t.failed += 1;
                let cause = core_failure.or(outcome.failure()).unwrap_or(Failure::Error);
                add_cause(&mut t.failed_by, cause);
                cause_example(&mut ex.by_cause, cause).get_or_insert(request);
            }
            End::Rejected => t.rejected += 1,
        }
        let latency = now - arrived;
        if end != End::Rejected && (ex.slowest.is_none() || latency > self.slowest_us) {
            ex.slowest = Some(request);
            self.slowest_us = latency;
        }
        let i = end as usize;
        self.hist[i].record(latency.min(HIST_MAX));
        self.max_us[i] = self.max_us[i].max(latency);
        self.min_us[i] = self.min_us[i].min(latency);
        self.first_seen[i].record(latency, request);
        self.live_requests -= 1;
        if trace != NO_TRACE {
            let t = &mut self.traces.list[trace as usize];
            t.end_ms = ms(now);
            t.outcome = end.outcome();
        }
        end
    }

    /// The series side of an ending.
    #[inline]
    pub fn series_request_ended(&mut self, now: Micros, end: End) {
        debug_assert!(now.wrapping_sub(self.bucket.0) < self.bucket.1 - self.bucket.0, "see `enter`");
        self.ended_n[end as usize].add(1);
        self.requests.set(self.live_requests as i64);
    }

    /// A breaker moved (at `t.at_us`, now): the transition, and the open / half-open gauges
    /// of its client.
    pub fn breaker_moved(&mut self, client: usize, instance: usize, t: Transition, open: i64, half: i64) {
        self.transitions.push(BreakerTransition {
            t_ms: ms(t.at_us),
            client,
            instance: instance as u32,
            from: t.from,
            to: t.to,
            decided: t.decided,
        });
        let c = &self.clients[client];
        if let (Some(og), Some(hg)) = (c.open_g, c.half_g) {
            self.rec.set(og, t.at_us, open);
            self.rec.set(hg, t.at_us, half);
        }
    }

    /// What client `client`'s first breaker judges its rates on at `now` (its window while
    /// closed, the probes while half-open, the tally it opened on while open).
    pub fn breaker_window(&mut self, now: Micros, client: usize, calls: u32, failures: u32) {
        debug_assert!(now.wrapping_sub(self.bucket.0) < self.bucket.1 - self.bucket.0, "see `enter`");
        self.stage_gauges[client].window.set((i64::from(calls) << 32) | i64::from(failures));
    }

    /// The latency histograms, exact maxima and first requests seen per end, for the report.
    pub fn into_latencies(self) -> (Latencies, Stats) {
        let mut s = self;
        let hist = std::mem::replace(&mut s.hist, [(); 4].map(|_| Tally::new(new_hist())));
        let first_seen = std::mem::take(&mut s.first_seen);
        let latencies = Latencies {
            hist: hist.map(Tally::into_histogram),
            max_us: s.max_us,
            min_us: s.min_us,
            first_seen,
        };
        (latencies, s)
    }
}

/// Who a caller-side mark is about: the calling call and the dependency it calls.
#[derive(Clone, Copy, Debug)]
pub struct MarkBy {
    /// The calling hop.
    pub hop: usize,
    /// The calling call's span id.
    pub call: u32,
    /// The hop it calls.
    pub callee: usize,
}

impl Traces {
    /// Starts a trace for request number `idx` if it is sampled or asked for.
    #[inline(always)]
    fn start(&mut self, idx: u64, now: Micros) -> u32 {
        let asked = !self.requested.is_empty() && self.requested.binary_search(&idx).is_ok();
        let sampled = self.sampled < self.cap && idx.is_multiple_of(self.stride);
        if sampled || asked { self.begin(idx, now, sampled, asked) } else { NO_TRACE }
    }

    /// [`start`](Self::start) for a request that is traced.
    #[inline(never)]
    fn begin(&mut self, idx: u64, now: Micros, sampled: bool, asked: bool) -> u32 {
        if sampled {
            self.sampled += 1;
        }
        self.next_id.push(0);
        self.item_cap.push(if asked { MAX_REQUESTED_TRACE_ITEMS } else { MAX_TRACE_ITEMS });
        self.list.push(Trace {
            request: idx,
            arrival_ms: ms(now),
            deadline_ms: None,
            end_ms: ms(now),
            outcome: RequestOutcome::Unfinished,
            spans: Vec::new(),
            marks: Vec::new(),
            dropped: 0,
        });
        (self.list.len() - 1) as u32
    }

    /// The id of the next call to arrive in trace `t` (ids count arrivals from 0).
    #[cold]
    pub fn next_span_id(&mut self, t: u32) -> u32 {
        let n = &mut self.next_id[t as usize];
        *n += 1;
        *n - 1
    }

    /// Adds a server-side span to trace `t`, or counts it as dropped past the cap.
    #[cold]
    pub fn span(&mut self, t: u32, span: Span) {
        let tr = &mut self.list[t as usize];
        if tr.spans.len() + tr.marks.len() < self.item_cap[t as usize] {
            tr.spans.push(span);
        } else {
            tr.dropped += 1;
        }
    }

    /// Adds a caller-side mark to trace `t`, or counts it as dropped past the cap: `by` is
    /// what the calling call did, about its dependency.
    #[cold]
    pub fn mark(&mut self, t: u32, by: MarkBy, kind: MarkKind, start: Micros, end: Micros) {
        let tr = &mut self.list[t as usize];
        if tr.spans.len() + tr.marks.len() < self.item_cap[t as usize] {
            let MarkBy { hop, call, callee } = by;
            tr.marks.push(Mark { hop, call, callee, kind, start_ms: ms(start), end_ms: ms(end) });
        } else {
            tr.dropped += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::plan::compile;
    use crate::policy::Outcome;
    use crate::scenario::presets;

    fn ended(arrived: Micros, trace: u32, outcome: Outcome) -> Ended {
        Ended { request: arrived / 1000, arrived, trace, outcome, core_failure: None, degraded: None }
    }

    #[test]
    fn each_ending_is_counted_once_with_its_cause_latency_and_trace() {
        let plan = compile(&presets::big_promo_protected());
        let mut st = Stats::with_requested(&plan, 1_000_000, 64, 2, 1, &[3]);
        let traces: Vec<u32> = (0..4).map(|i| st.request_arrived(i * 1000)).collect();
        assert_eq!(traces, vec![0, 1, NO_TRACE, 2], "two sampled, then the cap; request 3 asked for");
        assert_eq!(st.live_requests, 4);

        assert_eq!(st.request_ended(5_000, ended(0, 0, Outcome::Ok)), End::Succeeded);
        let stale = Degrade { cause: Failure::Timeout, stale: true };
        let e = Ended { degraded: Some(stale), ..ended(1_000, 1, Outcome::Ok) };
        assert_eq!(st.request_ended(9_000, e), End::Degraded);
        let e = Ended { core_failure: Some(Failure::BreakerOpen), ..ended(2_000, NO_TRACE, Outcome::Error) };
        assert_eq!(st.request_ended(3_000, e), End::Failed);
        let e = ended(3_000, NO_TRACE, Outcome::Overload { retry_after_us: 1 });
        assert_eq!(st.request_ended(3_000, e), End::Rejected);

        let t = &st.totals;
        assert_eq!((t.original, t.succeeded, t.degraded, t.failed, t.rejected), (4, 1, 1, 1, 1));
        assert_eq!((t.degraded_by.timeout, t.degraded_stale, t.degraded_unavailable), (1, 1, 0));
        assert_eq!(t.failed_by.breaker_rejected, 1, "the core failure, not the entry's error, is the cause");
        assert_eq!(t.failed_by.error, 0);
        assert_eq!(st.live_requests, 0);
        assert_eq!(st.max_us, [5_000, 8_000, 1_000, 0]);
        assert_eq!(st.traces.list[0].outcome, RequestOutcome::Succeeded);
        assert_eq!(st.traces.list[1].outcome, RequestOutcome::Degraded);
        assert_eq!(st.traces.list[1].end_ms, 9.0);
        let ex = &st.examples;
        assert_eq!((ex.succeeded, ex.degraded, ex.failed, ex.rejected), (Some(0), Some(1), Some(2), Some(3)));
        assert_eq!(ex.slowest, Some(1), "8 ms, the longest answered; a rejection is not answered");
        assert_eq!((ex.by_cause.timeout, ex.by_cause.breaker_rejected), (Some(1), Some(2)));
        assert_eq!(ex.by_cause.error, None, "the entry's error is not the cause");
    }

    #[test]
    fn every_failure_has_one_cause_counter() {
        let all = [
            Failure::Timeout,
            Failure::Error,
            Failure::Overload,
            Failure::ClientError,
            Failure::DeadlineExceeded,
            Failure::BudgetDenied,
            Failure::BreakerOpen,
            Failure::BulkheadFull,
        ];
        let mut c = Causes::default();
        for (i, f) in all.into_iter().enumerate() {
            for _ in 0..=i {
                add_cause(&mut c, f);
            }
        }
        let got = [
            c.timeout,
            c.error,
            c.overload,
            c.client_error,
            c.budget_exhausted,
            c.retry_budget_denied,
            c.breaker_rejected,
            c.bulkhead_rejected,
        ];
        assert_eq!(got, [1, 2, 3, 4, 5, 6, 7, 8], "each failure lands in its own counter");
    }
}
