//! The call-chain model: original requests flow through 1–8 retrying layers to a leaf,
//! each hop with a worker pool and a policy stack, in deterministic virtual time.
//!
//! How a call moves (semantic choices are stated in the policy modules and here):
//! - **Arrival at a hop**: admission (token bucket + concurrency limit) rejects at once with
//!   429 and a Retry-After; otherwise the call takes a worker or waits in the bounded FIFO
//!   queue (full queue or queue timeout → 503 with Retry-After).
//! - **Work**: before starting, the server checks the remaining budget (`min_budget_ms`);
//!   a leaf then holds its worker for its work time and answers (error with the configured
//!   probability, faults applied at the start of the work); a layer does its own work, then
//!   calls its dependencies in parallel — the next hop and any side dependencies — and
//!   holds its worker until all have answered (synchronous, thread-per-request).
//! - **Each attempt** passes, outermost first: deadline check → retry budget (retries
//!   only) → circuit breaker → bulkhead → per-try timeout → the call. Failed attempts are
//!   retried per the retry policy, with the budget checked again before the backoff sleep.
//! - **Timeouts**: the caller stops waiting. With `cancel_on_timeout` off, the callee keeps
//!   working and holding its worker; its late answer is dropped ("abandoned work").
//! - **Answers**: a core dependency's failure fails the call (502 to its caller, which may
//!   retry); an optional dependency's failure is answered by its fallback and marks the
//!   response degraded. Network time is zero: answers arrive the instant they are sent.
//! - **Simultaneous events**: completions, then timers, then arrivals; within a class, the
//!   order they were scheduled.

use crate::error::FieldError;
use crate::policy::Outcome;
use crate::policy::breaker::{Breaker, BreakerConfig, Permit, State as BreakerState, Transition};
use crate::policy::bulkhead::{Entry, Pool};
use crate::policy::deadline::{NO_DEADLINE, may_attempt_after, try_timeout};
use crate::policy::retry::{BackoffUs, RetryOn, ms_to_us};
use crate::policy::retry_budget::{RetryBudget, RetryBudgetConfig};
use crate::policy::token_bucket::{Admission, Rejection, TokenBucket};
use crate::report::*;
use crate::scenario::{Dist, Fallback, FaultEffect, Leaf, Load, Scenario, estimate_work, validate};
use crate::sim::recorder::{CounterId, GaugeId, Recorder};
use crate::sim::rng::{self, Key, Purpose, Stream};
use crate::sim::tally::Tally;
use crate::sim::{Class, EventId, EventQueue, Micros};
use hdrhistogram::Histogram;
use std::fmt;

mod kernel;

/// Which engine runs a scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The retry-chain kernel when the scenario fits it (see `kernel.rs`), else the
    /// general engine; both give byte-identical reports.
    #[default]
    Auto,
    /// Always the general engine (for tests and comparisons).
    General,
}

/// Why a scenario did not run.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// A field is out of range.
    Invalid(FieldError),
    /// The scenario implies more work than the cap allows.
    TooMuchWork {
        /// Worst-case calls the scenario implies.
        estimated: f64,
        /// The cap.
        cap: f64,
    },
    /// A bug in the model (an event scheduled in the past); never expected.
    Internal(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Invalid(e) => write!(f, "{e}"),
            SimError::TooMuchWork { estimated, cap } => write!(
                f,
                "load: this scenario implies up to {estimated:.0} calls if every attempt is used, \
                 above the cap of {cap:.0}; shorten the duration, lower the rate or the attempts"
            ),
            SimError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<FieldError> for SimError {
    fn from(e: FieldError) -> Self {
        SimError::Invalid(e)
    }
}

/// Default cap on the worst-case number of calls a run may imply (native CLI).
pub const DEFAULT_MAX_CALLS: f64 = 2e8;
/// After arrivals stop, the run goes on at most this long to let work drain (µs).
const DRAIN_HORIZON: Micros = 3_600_000_000;
/// Most time-series buckets.
const MAX_BUCKETS: usize = 400;
/// Buckets aimed at when the width is automatic.
const TARGET_BUCKETS: u64 = 200;
const NO_TRACE: u32 = u32::MAX;

// ---------------------------------------------------------------------------------------
// Compiled scenario: everything in µs and indices.

#[derive(Clone, Copy)]
struct AdmissionSpec {
    bucket: Option<(u64, u64, u64)>, // capacity credits, credits per µs, cost credits
    limit: Option<u32>,
    retry_after: u64,
}

/// 1 token = 10⁹ credits, so a rate in milli-tokens/s is exactly that many credits per µs.
const CREDITS_PER_TOKEN: u64 = 1_000_000_000;

enum HopKind {
    Layer { deadline: Option<u64>, deps: Vec<usize>, shared: Option<(u32, Option<u32>)> },
    Leaf { error_rate: f64, client_error_rate: f64, empty_rate: f64 },
}

struct HopSpec {
    name: String,
    kind: HopKind,
    workers: Option<u32>,
    queue: Option<u32>,
    queue_timeout: Option<u64>,
    admission: Option<AdmissionSpec>,
    min_budget: u64,
    work: Dist,
    /// The work time when it never varies (constant, no latency faults), precomputed.
    fixed_work: Option<Micros>,
    faults: Vec<(u64, u64, FaultEffect)>,
}

impl HopSpec {
    /// A hop's spec from its server settings and work; `kind` and `faults` say the rest.
    fn new(
        name: &str,
        kind: HopKind,
        server: &crate::scenario::Server,
        work: Dist,
        faults: Vec<(u64, u64, FaultEffect)>,
    ) -> Self {
        HopSpec {
            name: name.to_string(),
            kind,
            workers: server.workers,
            queue: server.queue,
            queue_timeout: server.queue_timeout_ms.map(ms_to_us),
            admission: server.admission.as_ref().map(admission_spec),
            min_budget: ms_to_us(server.min_budget_ms),
            work,
            fixed_work: None,
            faults,
        }
        .with_fixed_work()
    }

    fn with_fixed_work(mut self) -> Self {
        let varies =
            self.faults.iter().any(|f| matches!(f.2, FaultEffect::Latency { .. } | FaultEffect::Down));
        self.fixed_work = match self.work {
            Dist::Constant { ms } if !varies => Some(ms_to_us(ms)),
            _ => None,
        };
        self
    }
}

struct ClientSpec {
    caller: usize,
    callee: usize,
    max_attempts: u32,
    retry_on: RetryOn,
    backoff: BackoffUs,
    honor_retry_after: bool,
    per_try: Option<u64>,
    min_useful: u64,
    budget: Option<RetryBudgetConfig>,
    breaker: Option<BreakerConfig>,
    bulkhead: Option<(u32, u32, Option<u64>)>,
    shared: bool,
    fallback: Option<Fallback>,
    needed_by: f64,
}

fn admission_spec(a: &crate::scenario::AdmissionConfig) -> AdmissionSpec {
    AdmissionSpec {
        bucket: a.token_bucket.map(|tb| {
            let rate = libm::round(tb.rate_per_s * 1000.0) as u64;
            (u64::from(tb.capacity) * CREDITS_PER_TOKEN, rate, u64::from(tb.cost) * CREDITS_PER_TOKEN)
        }),
        limit: a.concurrency_limit,
        retry_after: ms_to_us(a.retry_after_ms),
    }
}

fn leaf_spec(l: &Leaf, faults: &[crate::scenario::Fault]) -> HopSpec {
    let kind = HopKind::Leaf {
        error_rate: l.error_rate,
        client_error_rate: l.client_error_rate,
        empty_rate: l.empty_rate,
    };
    let faults = faults
        .iter()
        .filter(|f| f.target == l.name && !matches!(f.effect, FaultEffect::Surge { .. }))
        .map(|f| (ms_to_us(f.start_ms), ms_to_us(f.end_ms), f.effect))
        .collect();
    HopSpec::new(&l.name, kind, &l.server, l.work, faults)
}

fn client_spec(c: &crate::scenario::Client, caller: usize, callee: usize, needed_by: f64) -> ClientSpec {
    ClientSpec {
        caller,
        callee,
        max_attempts: c.retry.max_attempts.max(1),
        retry_on: c.retry.retry_on,
        backoff: BackoffUs::new(c.retry.backoff, c.retry.jitter),
        honor_retry_after: c.retry.honor_retry_after,
        per_try: c.per_try_timeout_ms.map(ms_to_us),
        min_useful: ms_to_us(c.min_useful_ms),
        budget: c.retry_budget,
        breaker: c.breaker,
        bulkhead: c.bulkhead.map(|b| (b.max_concurrent, b.max_queue, b.queue_timeout_ms.map(ms_to_us))),
        shared: c.use_shared_pool,
        fallback: c.fallback,
        needed_by,
    }
}

/// Hop indices: layers 0..L, the leaf at L, side dependencies after it.
fn compile(s: &Scenario) -> (Vec<HopSpec>, Vec<ClientSpec>) {
    let n_layers = s.layers.len();
    let leaf = n_layers;
    let mut hops: Vec<HopSpec> = Vec::new();
    let mut clients: Vec<ClientSpec> = Vec::new();
    let mut side_hops: Vec<HopSpec> = Vec::new();
    for (i, l) in s.layers.iter().enumerate() {
        let next = if i + 1 < n_layers { i + 1 } else { leaf };
        let mut deps = vec![clients.len()];
        clients.push(client_spec(&l.client, i, next, 1.0));
        for d in &l.side_deps {
            let idx = leaf + 1 + side_hops.len();
            side_hops.push(leaf_spec(&d.target, &s.faults));
            deps.push(clients.len());
            clients.push(client_spec(&d.client, i, idx, d.needed_by));
        }
        let kind = HopKind::Layer {
            deadline: l.deadline_ms.map(ms_to_us),
            deps,
            shared: l.shared_pool.map(|p| (p.size, p.queue)),
        };
        hops.push(HopSpec::new(&l.name, kind, &l.server, l.work, Vec::new()));
    }
    hops.push(leaf_spec(&s.leaf, &s.faults));
    hops.extend(side_hops);
    (hops, clients)
}

// ---------------------------------------------------------------------------------------
// Arrivals.

struct Arrivals {
    poisson: bool,
    batch: Option<u64>,
    /// Arrivals per µs outside surges.
    rate: f64,
    /// 1 / `rate`: the mean gap between arrivals outside surges (µs).
    gap: f64,
    end: f64,
    next_t: f64,
    produced: u64,
    surges: Vec<(f64, f64, f64)>,
    stream: Stream,
    /// Arrivals drawn ahead (see [`Arrivals::next`]) and how many of them were handed out.
    ahead: Vec<(Micros, Key)>,
    ahead_used: usize,
    /// The draw ahead met the end of the arrivals.
    ahead_ended: bool,
}

/// Arrivals drawn at a time on the fast path.
const AHEAD: usize = 32;

impl Arrivals {
    fn new(s: &Scenario, seed: u64) -> Self {
        let surges: Vec<(f64, f64, f64)> = s
            .faults
            .iter()
            .filter_map(|f| match f.effect {
                FaultEffect::Surge { factor } => Some((f.start_ms * 1000.0, f.end_ms * 1000.0, factor)),
                _ => None,
            })
            .collect();
        // (batch size, arrivals per µs, end in µs, Poisson?)
        let (batch, rate, end, poisson) = match s.load {
            Load::Batch { requests } => (Some(requests), 0.0, 0.0, false),
            Load::Constant { rate_per_s, peak_factor, duration_ms } => {
                (None, rate_per_s * peak_factor / 1e6, duration_ms * 1000.0, false)
            }
            Load::Poisson { rate_per_s, peak_factor, duration_ms } => {
                (None, rate_per_s * peak_factor / 1e6, duration_ms * 1000.0, true)
            }
        };
        Arrivals {
            poisson,
            batch,
            rate,
            gap: if rate > 0.0 { 1.0 / rate } else { 0.0 },
            end,
            next_t: 0.0,
            produced: 0,
            surges,
            stream: rng::fork(seed, "arrivals"),
            ahead: Vec::new(),
            ahead_used: 0,
            ahead_ended: false,
        }
    }

    fn factor_at(&self, t: f64) -> f64 {
        self.surges.iter().filter(|(a, b, _)| t >= *a && t < *b).map(|(_, _, f)| *f).product()
    }

    fn next_boundary(&self, t: f64) -> f64 {
        self.surges.iter().flat_map(|(a, b, _)| [*a, *b]).filter(|x| *x > t).fold(f64::INFINITY, f64::min)
    }

    /// The next arrival time (µs) and the request's key, or `None` when arrivals are over.
    ///
    /// Poisson arrivals at one rate are drawn [`AHEAD`] at a time: the same draws from the
    /// stream in the same order and the same arithmetic as one at a time, but the
    /// logarithms, which do not depend on each other, run back to back where the processor
    /// can overlap them.
    fn next(&mut self) -> Option<(Micros, Key)> {
        if self.ahead_used < self.ahead.len() {
            self.ahead_used += 1;
            return Some(self.ahead[self.ahead_used - 1]);
        }
        if self.ahead_ended {
            return None;
        }
        if self.batch.is_none()
            && self.poisson
            && self.produced > 0
            && self.surges.is_empty()
            && self.rate > 0.0
        {
            self.draw_ahead();
            return self.next();
        }
        self.draw()
    }

    fn draw_ahead(&mut self) {
        let mut u = [0.0; AHEAD];
        let mut keys = [0u64; AHEAD];
        for (u, k) in u.iter_mut().zip(&mut keys) {
            *u = self.stream.uniform();
            *k = self.stream.next_u64();
        }
        let gaps = u.map(|u| rng::exponential(self.gap, u));
        self.ahead.clear();
        self.ahead_used = 0;
        for (gap, key) in gaps.into_iter().zip(keys) {
            let t = self.next_t + gap;
            if t >= self.end {
                // Past the end: the key drawn for it is never used, and nothing else draws
                // from this stream.
                self.ahead_ended = true;
                return;
            }
            self.next_t = t;
            self.produced += 1;
            self.ahead.push((libm::round(t) as Micros, Key(key)));
        }
    }

    /// The next arrival, drawn on its own.
    fn draw(&mut self) -> Option<(Micros, Key)> {
        if let Some(total) = self.batch {
            if self.produced >= total {
                return None;
            }
            self.produced += 1;
            return Some((0, Key(self.stream.next_u64())));
        }
        let t = if self.produced == 0 {
            0.0
        } else if self.surges.is_empty() && self.rate > 0.0 {
            // One rate throughout (the loop below with no boundaries, minus its bookkeeping;
            // 1/rate is the same number either way).
            let gap = self.gap;
            self.next_t + if self.poisson { rng::exponential(gap, self.stream.uniform()) } else { gap }
        } else {
            let mut t = self.next_t;
            loop {
                let rate = self.rate * self.factor_at(t);
                let boundary = self.next_boundary(t);
                if rate <= 0.0 {
                    if boundary.is_finite() {
                        t = boundary;
                        continue;
                    }
                    return None;
                }
                let gap = if self.poisson {
                    rng::exponential(1.0 / rate, self.stream.uniform())
                } else {
                    1.0 / rate
                };
                if t + gap <= boundary {
                    t += gap;
                    break;
                }
                t = boundary; // memoryless: redraw from the boundary at the new rate
            }
            t
        };
        if t >= self.end {
            return None;
        }
        self.next_t = t;
        self.produced += 1;
        Some((libm::round(t) as Micros, Key(self.stream.next_u64())))
    }
}

// ---------------------------------------------------------------------------------------
// Runtime state.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CallRef {
    slot: u32,
    generation: u32,
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    Arrival,
    WorkDone(CallRef),
    StartWork(CallRef),
    QueueTimeout(CallRef),
    TryTimeout(CallRef, u8, u32),
    BackoffWake(CallRef, u8, u32),
    SlotGrant(CallRef, u8, u32),
    SlotTimeout(CallRef, u8, u32),
    BreakerTimer(u16, u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Queued,
    Working,
    Calling,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DepState {
    Idle,
    WaitingSlot,
    InFlight,
    Sleeping,
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotKind {
    None,
    Own,
    Shared,
}

#[derive(Clone, Copy, Debug)]
struct DepRt {
    client: u16,
    state: DepState,
    attempt: u32,
    child: CallRef,
    /// Backoff wake-up or bulkhead queue timeout.
    timer: Option<EventId>,
    /// The per-try timeout, which covers the wait for a bulkhead slot too.
    try_timer: Option<EventId>,
    /// When the current attempt started (before any bulkhead wait).
    started: Micros,
    /// When its call was sent.
    sent_at: Micros,
    prev_sleep: Micros,
    permit: Option<(u16, Permit)>,
    slot: SlotKind,
    last: Outcome,
}

struct Call {
    generation: u32,
    live: bool,
    hop: u16,
    /// (caller, dependency index, attempt number) — `None` for the entry call.
    parent: Option<(CallRef, u8, u32)>,
    key: Key,
    deadline: Micros,
    arrived: Micros,
    work_start: Option<Micros>,
    trace: u32,
    phase: Phase,
    holds_worker: bool,
    holds_admission: bool,
    /// Some caller up the chain stopped waiting: whatever this call does is wasted.
    orphan: bool,
    /// A core dependency's last attempt was turned away by admission (429/503).
    turned_away: bool,
    pending: u8,
    core_failure: Option<Outcome>,
    degraded: Option<Degrade>,
    event: Option<EventId>,
    deps: Vec<DepRt>,
}

struct HopRt {
    pool: Pool,
    admission: Option<Admission>,
    calls: u64,
    rejected: u64,
    abandoned: u64,
    cancelled: u64,
    attempts_c: CounterId,
    in_flight_g: GaugeId,
    queue_g: GaugeId,
    peak_in_flight: i64,
    peak_queue: i64,
    shared: Option<Pool>,
}

struct ClientRt {
    budget: Option<RetryBudget>,
    breakers: Vec<Breaker>,
    bulkhead: Option<Pool>,
    attempts: u64,
    retries: u64,
    first_successes: u64,
    budget_denied: u64,
    breaker_rejected: u64,
    bulkhead_rejected: u64,
    budget_exhausted: u64,
    budget_g: Option<GaugeId>,
    open_g: Option<GaugeId>,
    half_g: Option<GaugeId>,
    slots_g: Option<GaugeId>,
}

#[derive(Default)]
struct Totals {
    original: u64,
    succeeded: u64,
    degraded: u64,
    failed: u64,
    rejected: u64,
    budget_denied: u64,
    budget_exhausted: u64,
    breaker_rejected: u64,
    bulkhead_rejected: u64,
    retries: u64,
    timeouts: u64,
    degraded_by: Causes,
    degraded_stale: u64,
    degraded_unavailable: u64,
    computed_empty: u64,
    failed_by: Causes,
    unfinished: u64,
    events: u64,
}

fn add_cause(c: &mut Causes, o: Outcome) {
    match o {
        Outcome::Timeout => c.timeout += 1,
        Outcome::Error | Outcome::Ok => c.error += 1,
        Outcome::Overload { .. } => c.overload += 1,
        Outcome::ClientError => c.client_error += 1,
        Outcome::DeadlineExceeded => c.budget_exhausted += 1,
        Outcome::BudgetDenied => c.retry_budget_denied += 1,
        Outcome::BreakerOpen => c.breaker_rejected += 1,
        Outcome::BulkheadFull => c.bulkhead_rejected += 1,
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Ok => "ok",
        Outcome::Timeout => "timeout",
        Outcome::Error => "error",
        Outcome::Overload { .. } => "overload",
        Outcome::ClientError => "client_error",
        Outcome::BreakerOpen => "breaker_rejected",
        Outcome::BulkheadFull => "bulkhead_rejected",
        Outcome::DeadlineExceeded => "budget_exhausted",
        Outcome::BudgetDenied => "retry_budget_denied",
    }
}

/// Why a response is degraded: the failure its fallback covered, and which fallback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Degrade {
    cause: Outcome,
    stale: bool,
}

/// What travels back with a response besides its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Answer {
    /// A fallback answered for part of it.
    degraded: Option<Degrade>,
    /// A leaf computed an empty result (a real answer, not a degradation).
    empty: bool,
}

/// How an original request ended, as its entry call answered.
#[derive(Clone, Copy, Debug)]
struct Ended {
    arrived: Micros,
    trace: u32,
    outcome: Outcome,
    /// The first core dependency failure the entry call saw, if any.
    core_failure: Option<Outcome>,
    turned_away: bool,
    degraded: Option<Degrade>,
}

/// The four ways a request can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Succeeded,
    Degraded,
    Failed,
    Rejected,
}

const END_NAMES: [&str; 4] = ["succeeded", "degraded", "failed", "rejected"];

/// A run in progress. Step it in slices (the browser does, to stay responsive) or call
/// [`run`].
pub struct ChainSim {
    name: String,
    seed: u64,
    hops: Vec<HopSpec>,
    clients: Vec<ClientSpec>,
    cancel_on_timeout: bool,
    q: EventQueue<Ev>,
    calls: Vec<Call>,
    free: Vec<u32>,
    hop_rt: Vec<HopRt>,
    client_rt: Vec<ClientRt>,
    arrivals: Arrivals,
    arrivals_done: bool,
    pending_arrival: Option<(Micros, Key)>,
    /// When the next arrival event is due. Arrivals come one at a time and in order, so
    /// they wait here rather than in the heap; at equal times queued events go first
    /// (they are completions or timers, which precede arrivals).
    next_arrival: Option<Micros>,
    rec: Recorder,
    offered_c: CounterId,
    end_c: [CounterId; 4],
    requests_g: GaugeId,
    live_requests: u64,
    hist: [Tally; 4],
    max_us: [u64; 4],
    totals: Totals,
    transitions: Vec<BreakerTransition>,
    traces: Vec<Trace>,
    trace_cap: usize,
    trace_stride: u64,
    horizon: Micros,
    expected_end: Micros,
    last_t: Micros,
    error: Option<String>,
    done: bool,
    /// The retry-chain kernel's state when it runs this scenario.
    kernel: Option<kernel::Kernel>,
}

/// Longest latency the histograms hold (µs): 10 days; longer values are clamped.
const HIST_MAX: u64 = 864_000_000_000;

fn new_hist() -> Histogram<u64> {
    // 1 µs to 10 days at 3 significant digits; bigger values saturate.
    Histogram::new_with_bounds(1, HIST_MAX, 3).expect("valid histogram bounds")
}

/// Runs a scenario with its own seed.
pub fn run(s: &Scenario) -> Result<Report, SimError> {
    run_with(s, s.seed, DEFAULT_MAX_CALLS)
}

/// Runs a scenario with `seed`, refusing scenarios that imply more than `max_calls` calls.
pub fn run_with(s: &Scenario, seed: u64, max_calls: f64) -> Result<Report, SimError> {
    run_on(s, seed, max_calls, Engine::Auto)
}

/// [`run_with`] on the chosen engine.
pub fn run_on(s: &Scenario, seed: u64, max_calls: f64, engine: Engine) -> Result<Report, SimError> {
    let mut sim = ChainSim::with_engine(s, seed, max_calls, engine)?;
    while !sim.step(1 << 20)? {}
    Ok(sim.finish())
}

impl ChainSim {
    /// Validates and prepares a run.
    pub fn new(s: &Scenario, seed: u64, max_calls: f64) -> Result<Self, SimError> {
        Self::with_engine(s, seed, max_calls, Engine::Auto)
    }

    /// Validates and prepares a run on the chosen engine.
    pub fn with_engine(s: &Scenario, seed: u64, max_calls: f64, engine: Engine) -> Result<Self, SimError> {
        validate(s)?;
        let work = estimate_work(s);
        if work.calls_upper_bound > max_calls {
            return Err(SimError::TooMuchWork { estimated: work.calls_upper_bound, cap: max_calls });
        }
        let (hops, clients) = compile(s);
        let use_kernel = engine == Engine::Auto && kernel::fits(&hops, &clients);
        let arrival_end = match s.load {
            Load::Batch { .. } => 0,
            Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => ms_to_us(duration_ms),
        };
        // The longest a request can plausibly live, to size the buckets: arrivals plus the
        // slowest chain of attempts, bounded.
        let expected_end = arrival_end + expected_drain(s).min(DRAIN_HORIZON);
        let width = match s.report.bucket_ms {
            Some(ms) => ms_to_us(ms).max(1),
            None => nice_width(expected_end.max(1) / TARGET_BUCKETS),
        };
        let mut rec = Recorder::new(width, MAX_BUCKETS);
        let offered_c = rec.counter();
        let end_c = [rec.counter(), rec.counter(), rec.counter(), rec.counter()];
        let requests_g = rec.gauge(0);
        let hop_rt: Vec<HopRt> = hops
            .iter()
            .map(|h| HopRt {
                pool: Pool::new(h.workers, h.queue),
                admission: h.admission.map(|a| {
                    Admission::new(a.bucket.map(|(cap, rate, _)| TokenBucket::new(cap, rate)), a.limit)
                }),
                calls: 0,
                rejected: 0,
                abandoned: 0,
                cancelled: 0,
                attempts_c: rec.counter(),
                in_flight_g: rec.gauge(0),
                queue_g: rec.gauge(0),
                peak_in_flight: 0,
                peak_queue: 0,
                shared: match &h.kind {
                    HopKind::Layer { shared: Some((size, q)), .. } => Some(Pool::new(Some(*size), *q)),
                    _ => None,
                },
            })
            .collect();
        let client_rt: Vec<ClientRt> = clients
            .iter()
            .map(|c| {
                let budget = c.budget.map(RetryBudget::new);
                let budget_g = budget.as_ref().map(|b| rec.gauge(b.milli_tokens() as i64));
                let breakers: Vec<Breaker> = c
                    .breaker
                    .iter()
                    .flat_map(|cfg| (0..cfg.instances).map(move |_| Breaker::new(cfg)))
                    .collect();
                let has_breaker = !breakers.is_empty();
                ClientRt {
                    budget,
                    breakers,
                    bulkhead: c.bulkhead.map(|(n, q, _)| Pool::new(Some(n), Some(q))),
                    attempts: 0,
                    retries: 0,
                    first_successes: 0,
                    budget_denied: 0,
                    breaker_rejected: 0,
                    bulkhead_rejected: 0,
                    budget_exhausted: 0,
                    budget_g,
                    open_g: has_breaker.then(|| rec.gauge(0)),
                    half_g: has_breaker.then(|| rec.gauge(0)),
                    slots_g: (c.bulkhead.is_some() || c.shared).then(|| rec.gauge(0)),
                }
            })
            .collect();
        let trace_cap = s.report.trace_sample as usize;
        let trace_stride =
            if trace_cap == 0 { u64::MAX } else { ((work.requests / trace_cap as f64).ceil() as u64).max(1) };
        let q = EventQueue::new();
        let mut sim = ChainSim {
            name: s.name.clone(),
            seed,
            hops,
            clients,
            cancel_on_timeout: s.cancel_on_timeout,
            q,
            calls: Vec::new(),
            free: Vec::new(),
            hop_rt,
            client_rt,
            arrivals: Arrivals::new(s, seed),
            arrivals_done: false,
            pending_arrival: None,
            next_arrival: Some(0),
            rec,
            offered_c,
            end_c,
            requests_g,
            live_requests: 0,
            hist: [(); 4].map(|_| Tally::new(new_hist())),
            max_us: [0; 4],
            totals: Totals::default(),
            transitions: Vec::new(),
            traces: Vec::new(),
            trace_cap,
            trace_stride,
            horizon: arrival_end.saturating_add(DRAIN_HORIZON),
            expected_end: expected_end.max(1),
            last_t: 0,
            error: None,
            done: false,
            kernel: None,
        };
        if use_kernel {
            sim.k_init();
        }
        Ok(sim)
    }

    /// Processes up to `max_events` events; returns whether the run is over.
    pub fn step(&mut self, max_events: u64) -> Result<bool, SimError> {
        if self.kernel.is_some() {
            return self.k_step(max_events);
        }
        let mut n = 0;
        while n < max_events {
            let next = self.next_event()?;
            let Some((t, ev)) = next else {
                self.done = true;
                break;
            };
            if t > self.horizon {
                self.done = true;
                break;
            }
            self.last_t = t;
            self.totals.events += 1;
            n += 1;
            self.dispatch(t, ev);
            if let Some(e) = self.error.take() {
                return Err(SimError::Internal(e));
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

    /// Share of the expected virtual time covered so far (0–1), for a progress bar.
    pub fn progress(&self) -> f64 {
        if self.done { 1.0 } else { (self.last_t as f64 / self.expected_end as f64).min(0.99) }
    }

    fn sched(&mut self, at: Micros, class: Class, ev: Ev) -> Option<EventId> {
        match self.q.schedule(at, class, ev) {
            Ok(id) => Some(id),
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                None
            }
        }
    }

    fn dispatch(&mut self, now: Micros, ev: Ev) {
        match ev {
            Ev::Arrival => self.on_arrival(now),
            Ev::WorkDone(c) => {
                if self.valid(c) {
                    self.call_mut(c).event = None;
                    self.on_work_done(now, c);
                }
            }
            Ev::StartWork(c) => {
                if self.valid(c) {
                    self.start_work(now, c);
                }
            }
            Ev::QueueTimeout(c) => {
                if self.valid(c) && self.call(c).phase == Phase::Queued {
                    self.call_mut(c).event = None;
                    let hop = self.call(c).hop as usize;
                    self.hop_rt[hop].pool.abandon();
                    self.hop_rt[hop].rejected += 1;
                    self.gauge_queue(now, hop);
                    let ra = self.hops[hop].admission.map_or(1_000_000, |a| a.retry_after);
                    self.respond(now, c, Outcome::Overload { retry_after_us: ra }, Answer::default());
                }
            }
            Ev::TryTimeout(c, d, a) => {
                if self.dep_is(c, d, a, DepState::InFlight) || self.dep_is(c, d, a, DepState::WaitingSlot) {
                    self.call_mut(c).deps[d as usize].try_timer = None;
                    self.on_try_timeout(now, c, d as usize);
                }
            }
            Ev::BackoffWake(c, d, a) => {
                if self.dep_is(c, d, a, DepState::Sleeping) {
                    self.call_mut(c).deps[d as usize].timer = None;
                    self.attempt(now, c, d as usize);
                }
            }
            Ev::SlotGrant(c, d, a) => {
                if self.dep_is(c, d, a, DepState::WaitingSlot) {
                    self.send(now, c, d as usize);
                }
                // Otherwise the waiter left after the grant; whoever changed its state
                // released the slot it had been given.
            }
            Ev::SlotTimeout(c, d, a) => {
                if self.dep_is(c, d, a, DepState::WaitingSlot) {
                    let di = d as usize;
                    self.call_mut(c).deps[di].timer = None;
                    let cl = self.call(c).deps[di].client as usize;
                    self.abandon_slot_wait(now, cl);
                    self.refuse(now, c, di, Outcome::BulkheadFull);
                }
            }
            Ev::BreakerTimer(cl, inst) => {
                let (cl, inst) = (cl as usize, inst as usize);
                if let Some(t) = self.client_rt[cl].breakers[inst].on_timer(now) {
                    self.record_transition(now, cl, inst, t);
                }
            }
        }
    }

    // ---- call slab -------------------------------------------------------------------

    #[inline(always)]
    fn call(&self, c: CallRef) -> &Call {
        &self.calls[c.slot as usize]
    }

    #[inline(always)]
    fn call_mut(&mut self, c: CallRef) -> &mut Call {
        &mut self.calls[c.slot as usize]
    }

    #[inline(always)]
    fn valid(&self, c: CallRef) -> bool {
        self.calls.get(c.slot as usize).is_some_and(|x| x.live && x.generation == c.generation)
    }

    fn dep_is(&self, c: CallRef, d: u8, attempt: u32, state: DepState) -> bool {
        self.valid(c)
            && self.call(c).deps.get(d as usize).is_some_and(|x| x.attempt == attempt && x.state == state)
    }

    fn alloc(
        &mut self,
        hop: usize,
        parent: Option<(CallRef, u8, u32)>,
        key: Key,
        deadline: Micros,
        now: Micros,
        trace: u32,
    ) -> CallRef {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.calls.push(Call {
                    generation: 0,
                    live: false,
                    hop: 0,
                    parent: None,
                    key,
                    deadline,
                    arrived: now,
                    work_start: None,
                    trace,
                    phase: Phase::Queued,
                    holds_worker: false,
                    holds_admission: false,
                    orphan: false,
                    turned_away: false,
                    pending: 0,
                    core_failure: None,
                    degraded: None,
                    event: None,
                    deps: Vec::new(),
                });
                (self.calls.len() - 1) as u32
            }
        };
        let c = &mut self.calls[slot as usize];
        c.live = true;
        c.hop = hop as u16;
        c.parent = parent;
        c.key = key;
        c.deadline = deadline;
        c.arrived = now;
        c.work_start = None;
        c.trace = trace;
        c.phase = Phase::Queued;
        c.holds_worker = false;
        c.holds_admission = false;
        c.orphan = false;
        c.turned_away = false;
        c.pending = 0;
        c.core_failure = None;
        c.degraded = None;
        c.event = None;
        c.deps.clear();
        CallRef { slot, generation: c.generation }
    }

    fn release_call(&mut self, c: CallRef) {
        let call = &mut self.calls[c.slot as usize];
        call.live = false;
        call.generation = call.generation.wrapping_add(1);
        self.free.push(c.slot);
    }

    // ---- arrivals --------------------------------------------------------------------

    fn on_arrival(&mut self, now: Micros) {
        if let Some((_, key)) = self.pending_arrival.take() {
            self.admit_request(now, key);
        }
        match self.arrivals.next() {
            Some((t, key)) => {
                self.pending_arrival = Some((t, key));
                self.next_arrival = Some(t.max(now));
            }
            None => self.arrivals_done = true,
        }
    }

    fn admit_request(&mut self, now: Micros, key: Key) {
        let idx = self.totals.original;
        self.totals.original += 1;
        self.live_requests += 1;
        if let Some(k) = self.kernel.as_mut() {
            k.batch_request(0, self.live_requests as i64);
        } else {
            self.rec.add(self.offered_c, now, 1);
            self.rec.set(self.requests_g, now, self.live_requests as i64);
        }
        let trace = if self.traces.len() < self.trace_cap && idx.is_multiple_of(self.trace_stride) {
            self.traces.push(Trace {
                request: idx,
                arrival_ms: ms(now),
                deadline_ms: None,
                end_ms: ms(now),
                outcome: String::new(),
                spans: Vec::new(),
                marks: Vec::new(),
            });
            (self.traces.len() - 1) as u32
        } else {
            NO_TRACE
        };
        if self.kernel.is_some() {
            self.k_request(now, key, trace);
        } else {
            self.arrive(now, 0, None, key, NO_DEADLINE, trace);
        }
    }

    /// Whether the retry-chain kernel runs this scenario.
    pub fn uses_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    // ---- server side -----------------------------------------------------------------

    fn token(c: CallRef) -> u64 {
        (u64::from(c.slot) << 32) | u64::from(c.generation)
    }

    fn untoken(t: u64) -> CallRef {
        CallRef { slot: (t >> 32) as u32, generation: t as u32 }
    }

    /// A call reaches `hop`. Returns its handle (it may already have been answered).
    fn arrive(
        &mut self,
        now: Micros,
        hop: usize,
        parent: Option<(CallRef, u8, u32)>,
        key: Key,
        deadline: Micros,
        trace: u32,
    ) -> CallRef {
        let c = self.alloc(hop, parent, key, deadline, now, trace);
        if let Some((p, _, _)) = parent
            && self.call(p).orphan
        {
            self.call_mut(c).orphan = true;
        }
        if let HopKind::Layer { deadline: Some(d), .. } = self.hops[hop].kind
            && deadline == NO_DEADLINE
        {
            let abs = now.saturating_add(d);
            self.call_mut(c).deadline = abs;
            if parent.is_none() && trace != NO_TRACE {
                self.traces[trace as usize].deadline_ms = Some(ms(abs));
            }
        }
        let h = &mut self.hop_rt[hop];
        h.calls += 1;
        self.rec.add(h.attempts_c, now, 1);
        if let Some(adm) = &mut self.hop_rt[hop].admission {
            let spec = self.hops[hop].admission.expect("admission spec matches runtime");
            let cost = spec.bucket.map_or(0, |(_, _, cost)| cost);
            match adm.try_admit(now, cost) {
                Ok(()) => self.call_mut(c).holds_admission = true,
                Err(rej) => {
                    self.hop_rt[hop].rejected += 1;
                    let outcome = match rej {
                        Rejection::RateLimit { retry_after } => {
                            Outcome::Overload { retry_after_us: retry_after }
                        }
                        Rejection::ConcurrencyLimit => Outcome::Overload { retry_after_us: spec.retry_after },
                        Rejection::CostExceedsCapacity => Outcome::ClientError,
                    };
                    self.respond(now, c, outcome, Answer::default());
                    return c;
                }
            }
        }
        match self.hop_rt[hop].pool.enter(Self::token(c)) {
            Entry::Admitted => {
                self.call_mut(c).holds_worker = true;
                self.gauge_workers(now, hop);
                self.start_work(now, c);
            }
            Entry::Queued => {
                self.gauge_queue(now, hop);
                if let Some(qt) = self.hops[hop].queue_timeout {
                    let ev = self.sched(now + qt, Class::Timer, Ev::QueueTimeout(c));
                    self.call_mut(c).event = ev;
                }
            }
            Entry::Rejected => {
                self.hop_rt[hop].rejected += 1;
                let ra = self.hops[hop].admission.map_or(1_000_000, |a| a.retry_after);
                self.respond(now, c, Outcome::Overload { retry_after_us: ra }, Answer::default());
            }
        }
        c
    }

    #[inline(always)]
    fn gauge_workers(&mut self, now: Micros, hop: usize) {
        let h = &mut self.hop_rt[hop];
        let v = i64::from(h.pool.active());
        h.peak_in_flight = h.peak_in_flight.max(v);
        self.rec.set(h.in_flight_g, now, v);
    }

    fn gauge_queue(&mut self, now: Micros, hop: usize) {
        let h = &mut self.hop_rt[hop];
        let v = h.pool.queued() as i64;
        h.peak_queue = h.peak_queue.max(v);
        self.rec.set(h.queue_g, now, v);
    }

    fn start_work(&mut self, now: Micros, c: CallRef) {
        let hop = self.call(c).hop as usize;
        {
            let call = self.call_mut(c);
            call.phase = Phase::Working;
            call.work_start = Some(now);
        }
        let deadline = self.call(c).deadline;
        if deadline != NO_DEADLINE && deadline.saturating_sub(now) < self.hops[hop].min_budget.max(1) {
            self.totals.budget_exhausted += 1;
            self.respond(now, c, Outcome::DeadlineExceeded, Answer::default());
            return;
        }
        let spec = &self.hops[hop];
        if let Some(work) = spec.fixed_work {
            if work == 0 && matches!(spec.kind, HopKind::Layer { .. }) {
                self.start_deps(now, c);
            } else {
                let ev = self.sched(now + work, Class::Completion, Ev::WorkDone(c));
                self.call_mut(c).event = ev;
            }
            return;
        }
        let key = self.call(c).key;
        let mut factor = 1.0;
        let mut down = false;
        for &(a, b, effect) in &spec.faults {
            if now >= a && now < b {
                match effect {
                    FaultEffect::Latency { factor: f } => factor *= f,
                    FaultEffect::Down => down = true,
                    _ => {}
                }
            }
        }
        if down {
            self.respond(now, c, Outcome::Error, Answer::default());
            return;
        }
        let work = sample(&spec.work, key, factor);
        if work == 0 && matches!(spec.kind, HopKind::Layer { .. }) {
            self.start_deps(now, c);
            return;
        }
        let ev = self.sched(now + work, Class::Completion, Ev::WorkDone(c));
        self.call_mut(c).event = ev;
    }

    fn on_work_done(&mut self, now: Micros, c: CallRef) {
        let hop = self.call(c).hop as usize;
        match self.hops[hop].kind {
            HopKind::Leaf { error_rate, client_error_rate, empty_rate } => {
                let call = self.call(c);
                let start = call.work_start.unwrap_or(now);
                let mut rate = error_rate;
                for &(a, b, effect) in &self.hops[hop].faults {
                    if let FaultEffect::ErrorRate { rate: r } = effect
                        && start >= a
                        && start < b
                    {
                        rate = r;
                    }
                }
                let u = call.key.uniform(Purpose::Failure);
                let outcome = if u < rate {
                    Outcome::Error
                } else if call.key.uniform(Purpose::ClientError) < client_error_rate {
                    Outcome::ClientError
                } else {
                    Outcome::Ok
                };
                let empty =
                    outcome.is_ok() && empty_rate > 0.0 && call.key.uniform(Purpose::Empty) < empty_rate;
                self.respond(now, c, outcome, Answer { degraded: None, empty });
            }
            HopKind::Layer { .. } => self.start_deps(now, c),
        }
    }

    fn release_worker(&mut self, now: Micros, hop: usize) {
        let calls = &self.calls;
        let next = self.hop_rt[hop].pool.release(|t| {
            let r = Self::untoken(t);
            calls.get(r.slot as usize).is_some_and(|x| {
                x.live && x.generation == r.generation && x.phase == Phase::Queued && !x.holds_worker
            })
        });
        if let Some(t) = next {
            let r = Self::untoken(t);
            let ev = {
                let call = self.call_mut(r);
                call.holds_worker = true;
                call.event.take()
            };
            if let Some(e) = ev {
                self.q.cancel(e);
            }
            let _ = self.sched(now, Class::Completion, Ev::StartWork(r));
            self.gauge_queue(now, hop);
        }
        self.gauge_workers(now, hop);
    }

    // ---- client side -----------------------------------------------------------------

    fn start_deps(&mut self, now: Micros, c: CallRef) {
        let hop = self.call(c).hop as usize;
        let HopKind::Layer { ref deps, .. } = self.hops[hop].kind else { return };
        let n = deps.len();
        let first = deps[0];
        {
            let call = self.call_mut(c);
            call.phase = Phase::Calling;
            call.deps.clear();
            for j in 0..n {
                call.deps.push(DepRt {
                    client: (first + j) as u16,
                    state: DepState::Idle,
                    attempt: 0,
                    child: CallRef { slot: u32::MAX, generation: 0 },
                    timer: None,
                    try_timer: None,
                    started: now,
                    sent_at: now,
                    prev_sleep: 0,
                    permit: None,
                    slot: SlotKind::None,
                    last: Outcome::Ok,
                });
            }
            call.pending = n as u8;
        }
        for j in 0..n {
            if !self.valid(c) {
                break;
            }
            let needed_by = self.clients[first + j].needed_by;
            if needed_by < 1.0 && self.call(c).key.uniform_n(Purpose::Needs, j as u32) >= needed_by {
                self.dep_done(now, c, j, Ok(None));
            } else {
                self.attempt(now, c, j);
            }
        }
    }

    fn mark(&mut self, c: CallRef, kind: &str, start: Micros, end: Micros) {
        let (trace, hop) = (self.call(c).trace, self.call(c).hop as usize);
        if trace != NO_TRACE {
            self.traces[trace as usize].marks.push(Mark {
                hop,
                kind: kind.to_string(),
                start_ms: ms(start),
                end_ms: ms(end),
            });
        }
    }

    /// Starts attempt number `attempt + 1` of dependency `d`: deadline, breaker, bulkhead.
    fn attempt(&mut self, now: Micros, c: CallRef, d: usize) {
        let cl = self.call(c).deps[d].client as usize;
        let deadline = self.call(c).deadline;
        if !may_attempt_after(deadline, now, 0, self.clients[cl].min_useful) {
            self.client_rt[cl].budget_exhausted += 1;
            self.totals.budget_exhausted += 1;
            self.mark(c, "budget_exhausted", now, now);
            self.dep_done(now, c, d, Err(Outcome::DeadlineExceeded));
            return;
        }
        if !self.client_rt[cl].breakers.is_empty() {
            let n = self.client_rt[cl].breakers.len();
            let inst = ((self.call(c).key.uniform(Purpose::Instance) * n as f64) as usize).min(n - 1);
            let (permit, moved) = self.client_rt[cl].breakers[inst].try_acquire(now);
            if let Some(t) = moved {
                self.record_transition(now, cl, inst, t);
            }
            match permit {
                Some(p) => self.call_mut(c).deps[d].permit = Some((inst as u16, p)),
                None => {
                    self.client_rt[cl].breaker_rejected += 1;
                    self.totals.breaker_rejected += 1;
                    self.mark(c, "breaker_rejected", now, now);
                    self.refuse(now, c, d, Outcome::BreakerOpen);
                    return;
                }
            }
        }
        // The attempt has started: its per-try timeout covers any wait for a slot.
        let (a, deadline) = {
            let call = self.call_mut(c);
            let dep = &mut call.deps[d];
            dep.attempt += 1;
            dep.started = now;
            (dep.attempt, call.deadline)
        };
        if let Some(t) = try_timeout(self.clients[cl].per_try, deadline, now) {
            let ev = self.sched(now + t, Class::Timer, Ev::TryTimeout(c, d as u8, a));
            self.call_mut(c).deps[d].try_timer = ev;
        }
        let kind = self.dep_slot_kind(cl);
        if kind != SlotKind::None {
            let token = slot_token(c, d);
            let caller = self.clients[cl].caller;
            let entry = match kind {
                SlotKind::Own => self.client_rt[cl].bulkhead.as_mut().map(|p| p.enter(token)),
                _ => self.hop_rt[caller].shared.as_mut().map(|p| p.enter(token)),
            };
            match entry {
                Some(Entry::Admitted) => {
                    self.call_mut(c).deps[d].slot = kind;
                    self.gauge_slots(now, cl);
                }
                Some(Entry::Queued) => {
                    self.call_mut(c).deps[d].state = DepState::WaitingSlot;
                    if let Some(qt) = self.clients[cl].bulkhead.and_then(|b| b.2) {
                        let ev = self.sched(now + qt, Class::Timer, Ev::SlotTimeout(c, d as u8, a));
                        self.call_mut(c).deps[d].timer = ev;
                    }
                    return;
                }
                _ => {
                    self.client_rt[cl].bulkhead_rejected += 1;
                    self.totals.bulkhead_rejected += 1;
                    self.mark(c, "bulkhead_rejected", now, now);
                    self.refuse(now, c, d, Outcome::BulkheadFull);
                    return;
                }
            }
        }
        self.send(now, c, d);
    }

    fn dep_slot_kind(&self, cl: usize) -> SlotKind {
        if self.clients[cl].bulkhead.is_some() {
            SlotKind::Own
        } else if self.clients[cl].shared {
            SlotKind::Shared
        } else {
            SlotKind::None
        }
    }

    fn gauge_slots(&mut self, now: Micros, cl: usize) {
        let v = match self.dep_slot_kind(cl) {
            SlotKind::Own => self.client_rt[cl].bulkhead.as_ref().map_or(0, |p| p.active()),
            SlotKind::Shared => {
                self.hop_rt[self.clients[cl].caller].shared.as_ref().map_or(0, |p| p.active())
            }
            SlotKind::None => return,
        };
        if let Some(g) = self.client_rt[cl].slots_g {
            self.rec.set(g, now, i64::from(v));
        }
    }

    fn abandon_slot_wait(&mut self, now: Micros, cl: usize) {
        match self.dep_slot_kind(cl) {
            SlotKind::Own => {
                if let Some(p) = self.client_rt[cl].bulkhead.as_mut() {
                    p.abandon();
                }
            }
            SlotKind::Shared => {
                let caller = self.clients[cl].caller;
                if let Some(p) = self.hop_rt[caller].shared.as_mut() {
                    p.abandon();
                }
            }
            SlotKind::None => {}
        }
        self.gauge_slots(now, cl);
    }

    /// Frees a bulkhead or shared-pool slot; the oldest waiter gets it.
    fn release_slot(&mut self, now: Micros, cl: usize, kind: SlotKind) {
        let calls = &self.calls;
        let still_waiting = |t: u64| {
            let (r, d) = untoken_slot(t);
            calls.get(r.slot as usize).is_some_and(|x| {
                x.live
                    && (x.generation & GEN_MASK) == r.generation
                    && x.deps
                        .get(d)
                        .is_some_and(|dep| dep.state == DepState::WaitingSlot && dep.slot == SlotKind::None)
            })
        };
        let next = match kind {
            SlotKind::Own => self.client_rt[cl].bulkhead.as_mut().and_then(|p| p.release(still_waiting)),
            SlotKind::Shared => {
                let caller = self.clients[cl].caller;
                self.hop_rt[caller].shared.as_mut().and_then(|p| p.release(still_waiting))
            }
            SlotKind::None => None,
        };
        if let Some(t) = next {
            let (r, d) = untoken_slot(t);
            let full = CallRef { slot: r.slot, generation: self.calls[r.slot as usize].generation };
            let (timer, attempt, owner) = {
                let dep = &mut self.calls[r.slot as usize].deps[d];
                dep.slot = kind;
                (dep.timer.take(), dep.attempt, dep.client as usize)
            };
            if let Some(e) = timer {
                self.q.cancel(e);
            }
            let _ = self.sched(now, Class::Completion, Ev::SlotGrant(full, d as u8, attempt));
            self.gauge_slots(now, owner);
        }
        self.gauge_slots(now, cl);
    }

    /// Sends attempt `attempt + 1` now.
    fn send(&mut self, now: Micros, c: CallRef, d: usize) {
        let cl = self.call(c).deps[d].client as usize;
        let (a, key, deadline, trace) = {
            let call = self.call_mut(c);
            let dep = &mut call.deps[d];
            dep.state = DepState::InFlight;
            dep.sent_at = now;
            (dep.attempt, call.key.child(d as u32, dep.attempt), call.deadline, call.trace)
        };
        let rt = &mut self.client_rt[cl];
        rt.attempts += 1;
        if a > 1 {
            rt.retries += 1;
            self.totals.retries += 1;
        }
        let callee = self.clients[cl].callee;
        let child = self.arrive(now, callee, Some((c, d as u8, a)), key, deadline, trace);
        if self.dep_is(c, d as u8, a, DepState::InFlight) {
            self.call_mut(c).deps[d].child = child;
        }
    }

    fn on_try_timeout(&mut self, now: Micros, c: CallRef, d: usize) {
        self.totals.timeouts += 1;
        let dep = self.call(c).deps[d];
        self.mark(c, "timeout", dep.started, now);
        if dep.state == DepState::WaitingSlot {
            // Timed out before getting a slot: leave the queue (or hand back a slot granted
            // but not yet used); the dependency was never called, so the breaker records
            // nothing.
            let cl = dep.client as usize;
            if let Some(t) = self.call_mut(c).deps[d].timer.take() {
                self.q.cancel(t);
            }
            if dep.slot == SlotKind::None {
                self.abandon_slot_wait(now, cl);
            }
            if let Some((inst, p)) = self.call_mut(c).deps[d].permit.take() {
                self.client_rt[cl].breakers[inst as usize].release(p);
            }
        } else if self.valid(dep.child) {
            if self.cancel_on_timeout {
                self.cancel_subtree(now, dep.child);
            } else {
                self.orphan_subtree(dep.child);
            }
        }
        self.on_attempt_result(now, c, d, Outcome::Timeout, Answer::default());
    }

    /// The caller's own protections refused an attempt (breaker, bulkhead): no retry.
    fn refuse(&mut self, now: Micros, c: CallRef, d: usize, why: Outcome) {
        if let Some((inst, p)) = self.call_mut(c).deps[d].permit.take() {
            let cl = self.call(c).deps[d].client as usize;
            self.client_rt[cl].breakers[inst as usize].release(p);
        }
        self.dep_done(now, c, d, Err(why));
    }

    fn on_attempt_result(&mut self, now: Micros, c: CallRef, d: usize, outcome: Outcome, answer: Answer) {
        let cl = self.call(c).deps[d].client as usize;
        let (try_timer, timer, sent_at, slot, permit, attempt, prev_sleep) = {
            let dep = &mut self.call_mut(c).deps[d];
            dep.last = outcome;
            (
                dep.try_timer.take(),
                dep.timer.take(),
                dep.sent_at,
                std::mem::replace(&mut dep.slot, SlotKind::None),
                dep.permit.take(),
                dep.attempt,
                dep.prev_sleep,
            )
        };
        for e in [try_timer, timer].into_iter().flatten() {
            self.q.cancel(e);
        }
        if slot != SlotKind::None {
            self.release_slot(now, cl, slot);
        }
        let failed = matches!(outcome, Outcome::Timeout | Outcome::Error | Outcome::Overload { .. });
        if let Some((inst, p)) = permit
            && let Some(t) =
                self.client_rt[cl].breakers[inst as usize].on_result(now, p, failed, now - sent_at)
        {
            self.record_transition(now, cl, inst as usize, t);
        }
        if let Some(b) = self.client_rt[cl].budget.as_mut() {
            if outcome.is_ok() {
                b.on_success(attempt == 1);
            } else if failed {
                b.on_failure();
            }
            let v = b.milli_tokens() as i64;
            if let Some(g) = self.client_rt[cl].budget_g {
                self.rec.set(g, now, v);
            }
        }
        if outcome.is_ok() {
            if attempt == 1 {
                self.client_rt[cl].first_successes += 1;
            }
            if answer.empty && self.clients[cl].fallback.is_some() {
                self.totals.computed_empty += 1;
            }
            self.dep_done(now, c, d, Ok(answer.degraded));
            return;
        }
        let spec = &self.clients[cl];
        if !(spec.retry_on.allows(outcome) && attempt < spec.max_attempts) {
            self.dep_done(now, c, d, Err(outcome));
            return;
        }
        // A retry is allowed by the policy. Budget checks come before the sleep.
        let key = self.call(c).key;
        let mut delay =
            spec.backoff.delay(attempt, prev_sleep, key.uniform_n(Purpose::Jitter, attempt * 8 + d as u32));
        if let Outcome::Overload { retry_after_us } = outcome
            && spec.honor_retry_after
        {
            delay = delay.max(retry_after_us);
        }
        let deadline = self.call(c).deadline;
        if !may_attempt_after(deadline, now, delay, spec.min_useful) {
            self.client_rt[cl].budget_exhausted += 1;
            self.totals.budget_exhausted += 1;
            self.mark(c, "budget_exhausted", now, now);
            self.dep_done(now, c, d, Err(Outcome::DeadlineExceeded));
            return;
        }
        if let Some(b) = self.client_rt[cl].budget.as_mut() {
            let ok = b.try_retry();
            let v = b.milli_tokens() as i64;
            if let Some(g) = self.client_rt[cl].budget_g {
                self.rec.set(g, now, v);
            }
            if !ok {
                self.client_rt[cl].budget_denied += 1;
                self.totals.budget_denied += 1;
                self.mark(c, "retry_budget_denied", now, now);
                self.dep_done(now, c, d, Err(Outcome::BudgetDenied));
                return;
            }
        }
        self.call_mut(c).deps[d].prev_sleep = delay;
        if delay == 0 {
            self.attempt(now, c, d);
        } else {
            self.call_mut(c).deps[d].state = DepState::Sleeping;
            let ev = self.sched(now + delay, Class::Timer, Ev::BackoffWake(c, d as u8, attempt));
            self.call_mut(c).deps[d].timer = ev;
            self.mark(c, "backoff", now, now + delay);
        }
    }

    /// Dependency `d` has its final answer: `Ok(degraded cause)` or the failure.
    fn dep_done(&mut self, now: Micros, c: CallRef, d: usize, result: Result<Option<Degrade>, Outcome>) {
        let cl = self.call(c).deps[d].client as usize;
        let fallback = self.clients[cl].fallback;
        let optional = fallback.is_some();
        let stale = matches!(fallback, Some(Fallback::Stale { .. }));
        let timers = {
            let dep = &mut self.call_mut(c).deps[d];
            [dep.try_timer.take(), dep.timer.take()]
        };
        for e in timers.into_iter().flatten() {
            self.q.cancel(e);
        }
        let finished = {
            let call = self.call_mut(c);
            call.deps[d].state = DepState::Done;
            call.pending -= 1;
            match result {
                Ok(Some(degrade)) => {
                    call.degraded.get_or_insert(degrade);
                }
                Ok(None) => {}
                Err(o) if optional => {
                    call.degraded.get_or_insert(Degrade { cause: o, stale });
                }
                Err(o) => {
                    call.core_failure.get_or_insert(o);
                    if matches!(call.deps[d].last, Outcome::Overload { .. }) {
                        call.turned_away = true;
                    }
                }
            }
            call.pending == 0
        };
        if result.is_err() && optional {
            self.mark(c, if stale { "fallback_stale" } else { "fallback_unavailable" }, now, now);
        }
        if finished {
            let call = self.call(c);
            let outcome = match call.core_failure {
                None => Outcome::Ok,
                Some(Outcome::ClientError) => Outcome::ClientError,
                Some(Outcome::DeadlineExceeded) => Outcome::DeadlineExceeded,
                Some(_) => Outcome::Error,
            };
            let answer = Answer { degraded: call.degraded, empty: false };
            self.respond(now, c, outcome, answer);
        }
    }

    // ---- answers ---------------------------------------------------------------------

    #[inline(always)]
    fn trace_span(&mut self, c: CallRef, now: Micros, result: &str, abandoned: bool) {
        if self.call(c).trace != NO_TRACE {
            self.push_span(c, now, result, abandoned);
        }
    }

    #[cold]
    fn push_span(&mut self, c: CallRef, now: Micros, result: &str, abandoned: bool) {
        let call = self.call(c);
        let span = Span {
            hop: call.hop as usize,
            attempt: call.parent.map_or(1, |p| p.2),
            start_ms: ms(call.arrived),
            work_ms: call.work_start.map(ms),
            end_ms: ms(now),
            result: result.to_string(),
            abandoned,
        };
        let trace = call.trace as usize;
        self.traces[trace].spans.push(span);
    }

    /// Call `c` answers `outcome`: free what it holds and tell its caller.
    fn respond(&mut self, now: Micros, c: CallRef, outcome: Outcome, answer: Answer) {
        let (hop, holds_worker, holds_admission, event, parent) = {
            let call = self.call_mut(c);
            (
                call.hop as usize,
                std::mem::take(&mut call.holds_worker),
                std::mem::take(&mut call.holds_admission),
                call.event.take(),
                call.parent,
            )
        };
        if let Some(e) = event {
            self.q.cancel(e);
        }
        if holds_worker {
            self.release_worker(now, hop);
        }
        if holds_admission && let Some(a) = self.hop_rt[hop].admission.as_mut() {
            a.release();
        }
        let answer = if outcome.is_ok() { answer } else { Answer::default() };
        match parent {
            None => {
                self.trace_span(c, now, outcome_name(outcome), false);
                self.complete_request(now, c, outcome, answer.degraded);
                self.release_call(c);
            }
            Some((p, d, a)) => {
                let waiting = self.dep_is(p, d, a, DepState::InFlight);
                let wasted = !waiting || self.call(c).orphan;
                self.trace_span(c, now, outcome_name(outcome), wasted);
                if wasted && self.call(c).work_start.is_some() {
                    self.hop_rt[hop].abandoned += 1;
                }
                self.release_call(c);
                if waiting {
                    self.on_attempt_result(now, p, d as usize, outcome, answer);
                }
            }
        }
    }

    /// The caller stopped waiting but cannot cancel: `c` and everything it started go on
    /// as wasted work.
    fn orphan_subtree(&mut self, c: CallRef) {
        self.call_mut(c).orphan = true;
        for d in 0..self.call(c).deps.len() {
            let dep = self.call(c).deps[d];
            if dep.state == DepState::InFlight && self.valid(dep.child) {
                self.orphan_subtree(dep.child);
            }
        }
    }

    /// The caller stopped waiting and cancels `c` and everything it started.
    fn cancel_subtree(&mut self, now: Micros, c: CallRef) {
        let hop = self.call(c).hop as usize;
        let (phase, holds_worker, holds_admission, event) = {
            let call = self.call_mut(c);
            (
                call.phase,
                std::mem::take(&mut call.holds_worker),
                std::mem::take(&mut call.holds_admission),
                call.event.take(),
            )
        };
        if let Some(e) = event {
            self.q.cancel(e);
        }
        if phase == Phase::Queued && !holds_worker {
            self.hop_rt[hop].pool.abandon();
            self.gauge_queue(now, hop);
        }
        if holds_worker {
            self.release_worker(now, hop);
        }
        if holds_admission && let Some(a) = self.hop_rt[hop].admission.as_mut() {
            a.release();
        }
        let n = self.call(c).deps.len();
        for d in 0..n {
            let dep = self.call(c).deps[d];
            for e in [dep.timer, dep.try_timer].into_iter().flatten() {
                self.q.cancel(e);
            }
            let cl = dep.client as usize;
            if dep.state == DepState::InFlight && self.valid(dep.child) {
                self.cancel_subtree(now, dep.child);
            }
            if dep.state == DepState::WaitingSlot && dep.slot == SlotKind::None {
                self.abandon_slot_wait(now, cl);
            }
            if dep.slot != SlotKind::None {
                self.call_mut(c).deps[d].slot = SlotKind::None;
                self.release_slot(now, cl, dep.slot);
            }
            if let Some((inst, p)) = dep.permit {
                self.client_rt[cl].breakers[inst as usize].release(p);
            }
            self.call_mut(c).deps[d].state = DepState::Done;
        }
        self.hop_rt[hop].cancelled += 1;
        self.trace_span(c, now, "cancelled", true);
        self.release_call(c);
    }

    fn complete_request(&mut self, now: Micros, c: CallRef, outcome: Outcome, degraded: Option<Degrade>) {
        let call = self.call(c);
        let ended = Ended {
            arrived: call.arrived,
            trace: call.trace,
            outcome,
            core_failure: call.core_failure,
            turned_away: call.turned_away,
            degraded,
        };
        self.end_request(now, ended);
    }

    /// Counts a finished original request: its outcome, latency and trace.
    fn end_request(&mut self, now: Micros, e: Ended) {
        let Ended { arrived, trace, outcome, core_failure, turned_away, degraded } = e;
        let latency = now - arrived;
        let end = match outcome {
            Outcome::Ok if degraded.is_some() => End::Degraded,
            Outcome::Ok => End::Succeeded,
            Outcome::Overload { .. } => End::Rejected,
            _ if turned_away => End::Rejected,
            _ => End::Failed,
        };
        match end {
            End::Succeeded => self.totals.succeeded += 1,
            End::Degraded => {
                self.totals.degraded += 1;
                let d = degraded.unwrap_or(Degrade { cause: Outcome::Error, stale: false });
                add_cause(&mut self.totals.degraded_by, d.cause);
                if d.stale {
                    self.totals.degraded_stale += 1;
                } else {
                    self.totals.degraded_unavailable += 1;
                }
            }
            End::Failed => {
                self.totals.failed += 1;
                let cause = core_failure.unwrap_or(outcome);
                add_cause(&mut self.totals.failed_by, cause);
            }
            End::Rejected => self.totals.rejected += 1,
        }
        let i = end as usize;
        self.hist[i].record(latency.min(HIST_MAX));
        self.max_us[i] = self.max_us[i].max(latency);
        self.live_requests -= 1;
        if let Some(k) = self.kernel.as_mut() {
            k.batch_request(1 + i, self.live_requests as i64);
        } else {
            self.rec.add(self.end_c[i], now, 1);
            self.rec.set(self.requests_g, now, self.live_requests as i64);
        }
        if trace != NO_TRACE {
            let t = &mut self.traces[trace as usize];
            t.end_ms = ms(now);
            t.outcome = END_NAMES[i].to_string();
        }
    }

    fn record_transition(&mut self, now: Micros, cl: usize, inst: usize, t: Transition) {
        self.transitions.push(BreakerTransition {
            t_ms: ms(t.at_us),
            client: cl,
            instance: inst as u32,
            from: state_name(t.from).to_string(),
            to: state_name(t.to).to_string(),
        });
        let rt = &self.client_rt[cl];
        let open = rt.breakers.iter().filter(|b| b.state() == BreakerState::Open).count() as i64;
        let half = rt.breakers.iter().filter(|b| b.state() == BreakerState::HalfOpen).count() as i64;
        if let (Some(og), Some(hg)) = (rt.open_g, rt.half_g) {
            self.rec.set(og, now, open);
            self.rec.set(hg, now, half);
        }
        if let Some(at) = self.client_rt[cl].breakers[inst].half_open_at() {
            let _ = self.sched(at.max(now), Class::Timer, Ev::BreakerTimer(cl as u16, inst as u16));
        }
    }

    // ---- the report ------------------------------------------------------------------

    /// Builds the report. Requests still unanswered (the run hit its horizon) count as
    /// failed and as `unfinished`.
    pub fn finish(mut self) -> Report {
        if self.kernel.is_some() {
            self.k_flush();
        }
        // Admitted requests are the ones that were not rejected: the sum of the other
        // three histograms (adding counts is exact, so the percentiles are too).
        let hist = self.hist.map(Tally::into_histogram);
        let mut admitted_hist = new_hist();
        let mut admitted_max = 0;
        for end in [End::Succeeded, End::Degraded, End::Failed] {
            let _ = admitted_hist.add(&hist[end as usize]);
            admitted_max = admitted_max.max(self.max_us[end as usize]);
        }
        let end = self.last_t;
        self.totals.unfinished = self.live_requests;
        self.totals.failed += self.live_requests;
        let n = self.rec.buckets_until(end);
        let width = self.rec.width();
        let t = &self.totals;
        let leaf = self.hops.iter().position(|h| matches!(h.kind, HopKind::Leaf { .. })).unwrap_or(0);
        let attempts_per_hop: Vec<u64> = self.hop_rt.iter().map(|h| h.calls).collect();
        let downstream = attempts_per_hop.get(leaf).copied().unwrap_or(0);
        let admitted = t.original - t.rejected;
        let rate = |x: u64| if admitted == 0 { 0.0 } else { x as f64 / admitted as f64 };
        let summary = Summary {
            original_requests: t.original,
            downstream_attempts: downstream,
            attempts_per_hop: attempts_per_hop.clone(),
            amplification: if t.original == 0 { 0.0 } else { downstream as f64 / t.original as f64 },
            succeeded: t.succeeded,
            degraded: t.degraded,
            failed: t.failed,
            admission_rejected: t.rejected,
            retry_budget_denied: t.budget_denied,
            budget_exhausted: t.budget_exhausted,
            breaker_rejected: t.breaker_rejected,
            bulkhead_rejected: t.bulkhead_rejected,
            retries: t.retries,
            timeouts: t.timeouts,
            core_success_rate: rate(t.succeeded + t.degraded),
            degraded_rate: rate(t.degraded),
            latency_ms: percentiles(&admitted_hist, admitted_max),
            degraded_by_cause: t.degraded_by.clone(),
            degraded_unavailable: t.degraded_unavailable,
            degraded_stale: t.degraded_stale,
            computed_empty: t.computed_empty,
            failed_by_cause: t.failed_by.clone(),
            unfinished: t.unfinished,
            end_ms: ms(end),
            events: t.events,
        };
        let hops: Vec<HopStats> = self
            .hops
            .iter()
            .zip(&self.hop_rt)
            .enumerate()
            .map(|(i, (s, r))| HopStats {
                name: s.name.clone(),
                kind: match s.kind {
                    HopKind::Layer { .. } => "layer",
                    HopKind::Leaf { .. } if i == leaf => "leaf",
                    HopKind::Leaf { .. } => "side",
                }
                .to_string(),
                workers: s.workers,
                calls: r.calls,
                rejected: r.rejected,
                abandoned_work: r.abandoned,
                cancelled: r.cancelled,
                peak_in_flight: r.peak_in_flight,
                peak_queue: r.peak_queue,
            })
            .collect();
        let clients: Vec<ClientStats> = self
            .clients
            .iter()
            .zip(&self.client_rt)
            .map(|(s, r)| ClientStats {
                name: format!("{} → {}", self.hops[s.caller].name, self.hops[s.callee].name),
                caller: s.caller,
                callee: s.callee,
                optional: s.fallback.is_some(),
                attempts: r.attempts,
                retries: r.retries,
                first_attempt_successes: r.first_successes,
                retry_budget_denied: r.budget_denied,
                breaker_rejected: r.breaker_rejected,
                bulkhead_rejected: r.bulkhead_rejected,
                budget_exhausted: r.budget_exhausted,
                breaker_instances: r.breakers.len() as u32,
                budget_max_tokens: r.budget.as_ref().map(|b| b.max_milli_tokens() as f64 / 1000.0),
            })
            .collect();
        let rec = &self.rec;
        let gauge_or_empty = |g: Option<GaugeId>| g.map_or_else(Vec::new, |g| rec.gauge_values(g, n));
        let series = Series {
            bucket_ms: ms(width),
            buckets: n,
            offered: rec.counter_values(self.offered_c, n),
            attempts: self.hop_rt.iter().map(|h| rec.counter_values(h.attempts_c, n)).collect(),
            in_flight: self.hop_rt.iter().map(|h| rec.gauge_values(h.in_flight_g, n)).collect(),
            queue: self.hop_rt.iter().map(|h| rec.gauge_values(h.queue_g, n)).collect(),
            succeeded: rec.counter_values(self.end_c[0], n),
            degraded: rec.counter_values(self.end_c[1], n),
            failed: rec.counter_values(self.end_c[2], n),
            rejected: rec.counter_values(self.end_c[3], n),
            requests_in_flight: rec.gauge_values(self.requests_g, n),
            budget_tokens: self
                .client_rt
                .iter()
                .map(|c| gauge_or_empty(c.budget_g).into_iter().map(|v| v as f64 / 1000.0).collect())
                .collect(),
            breaker_open: self.client_rt.iter().map(|c| gauge_or_empty(c.open_g)).collect(),
            breaker_half_open: self.client_rt.iter().map(|c| gauge_or_empty(c.half_g)).collect(),
            bulkhead_in_use: self.client_rt.iter().map(|c| gauge_or_empty(c.slots_g)).collect(),
        };
        let latency = latency_dists(&hist, &self.max_us);
        Report {
            scenario: self.name,
            seed: self.seed,
            summary,
            hops,
            clients,
            series,
            breaker_transitions: self.transitions,
            latency,
            traces: self.traces,
        }
    }
}

fn state_name(s: BreakerState) -> &'static str {
    match s {
        BreakerState::Closed => "CLOSED",
        BreakerState::Open => "OPEN",
        BreakerState::HalfOpen => "HALF_OPEN",
    }
}

const GEN_MASK: u32 = 0x3FFF_FFFF;

/// A bulkhead waiter: the call's slot, 30 bits of its generation, and the dependency.
fn slot_token(c: CallRef, d: usize) -> u64 {
    (u64::from(c.slot) << 32) | (u64::from(c.generation & GEN_MASK) << 2) | (d as u64 & 3)
}

fn untoken_slot(t: u64) -> (CallRef, usize) {
    (CallRef { slot: (t >> 32) as u32, generation: ((t as u32) >> 2) & GEN_MASK }, (t & 3) as usize)
}

fn sample(d: &Dist, key: Key, factor: f64) -> Micros {
    let ms = match *d {
        Dist::Constant { ms } => ms,
        Dist::Exponential { mean_ms } => rng::exponential(mean_ms, key.uniform(Purpose::Service)),
        Dist::LogNormal { median_ms, p99_ms } => {
            rng::lognormal(median_ms, p99_ms, key.uniform(Purpose::Service))
        }
    };
    ms_to_us(ms * factor)
}

fn percentiles(h: &Histogram<u64>, max: u64) -> Percentiles {
    if h.is_empty() {
        return Percentiles::default();
    }
    // hdrhistogram reports a bucket's highest equivalent value; never above the true max.
    let q = |x: f64| ms(h.value_at_quantile(x).min(max));
    Percentiles { p50: q(0.5), p99: q(0.99), max: ms(max) }
}

fn latency_dists(hists: &[Histogram<u64>; 4], maxes: &[u64; 4]) -> Vec<LatencyDist> {
    const BINS: usize = 30;
    let lo = hists.iter().filter(|h| !h.is_empty()).map(|h| h.min().max(100)).min().unwrap_or(100) as f64;
    let hi = maxes.iter().copied().max().unwrap_or(0).max(lo as u64 + 1) as f64;
    let edges: Vec<u64> =
        (1..=BINS).map(|i| libm::round(lo * libm::pow(hi / lo, i as f64 / BINS as f64)) as u64).collect();
    hists
        .iter()
        .zip(maxes)
        .enumerate()
        .map(|(i, (h, &max))| {
            let mut prev = 0u64;
            let bins = edges
                .iter()
                .map(|&e| {
                    let c = if h.is_empty() { 0 } else { h.count_between(prev, e) };
                    prev = e + 1;
                    (ms(e), c)
                })
                .collect();
            LatencyDist {
                outcome: END_NAMES[i].to_string(),
                count: h.len(),
                percentiles: percentiles(h, max),
                bins,
            }
        })
        .collect()
}

/// A rough upper bound on how long one request may live (µs), to size chart buckets.
fn expected_drain(s: &Scenario) -> Micros {
    let worst_factor = s
        .faults
        .iter()
        .filter_map(|f| match f.effect {
            FaultEffect::Latency { factor } => Some(factor),
            _ => None,
        })
        .fold(1.0_f64, f64::max);
    let mut t = s.leaf.work.mean_ms() * worst_factor;
    for l in s.layers.iter().rev() {
        let per_try = l.client.per_try_timeout_ms.map_or(t, |p| p.min(t));
        let attempts = f64::from(l.client.retry.max_attempts);
        let backoff = match l.client.retry.backoff {
            crate::policy::retry::Backoff::None => 0.0,
            crate::policy::retry::Backoff::Fixed { ms } => ms,
            crate::policy::retry::Backoff::Exponential { cap_ms, .. } => cap_ms,
        };
        t = attempts * per_try + (attempts - 1.0) * backoff + l.work.mean_ms();
        if let Some(d) = l.deadline_ms {
            t = t.min(d);
        }
    }
    ms_to_us(t * 2.0).max(1000)
}

/// Rounds a bucket width up to 1, 2 or 5 × 10ⁿ µs, at least 100 µs.
fn nice_width(raw: Micros) -> Micros {
    let raw = raw.max(100);
    let mut base = 1u64;
    loop {
        for m in [1, 2, 5] {
            if base * m >= raw {
                return base * m;
            }
        }
        base *= 10;
    }
}
