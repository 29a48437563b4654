//! What a run produces: a summary, bucketed time series, breaker transitions, latency
//! distributions and sampled per-request traces. Serialised as JSON by the CLI and read by
//! the views. Times are milliseconds of virtual time.

use crate::policy::breaker::State as BreakerState;
use crate::policy::stack::Stage;
use serde::{Deserialize, Serialize};

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// What wrote it and which version (`resilience-lab 0.1.0`), so that a saved or
    /// exported report says where it came from; absent in reports from before it existed.
    #[serde(default)]
    pub generator: String,
    /// The scenario's name.
    pub scenario: String,
    /// The seed used.
    pub seed: u64,
    /// Headline counters.
    pub summary: Summary,
    /// One entry per service: layers, leaf, side dependencies.
    pub hops: Vec<HopStats>,
    /// One entry per caller → dependency policy stack.
    pub clients: Vec<ClientStats>,
    /// Bucketed time series.
    pub series: Series,
    /// Every breaker state change, in time order.
    pub breaker_transitions: Vec<BreakerTransition>,
    /// Latency distributions per outcome.
    pub latency: Vec<LatencyDist>,
    /// Timelines of a capped sample of requests, and of those the scenario asked for
    /// (`report.trace_requests`), in order of arrival.
    pub traces: Vec<Trace>,
    /// A request of each kind worth drilling into (their numbers, for `trace_requests`).
    #[serde(default)]
    pub examples: Examples,
}

/// Request numbers (0 = first to arrive) worth looking at, found during the run: the first
/// of each outcome, the slowest answered one, and the first failed or degraded by each
/// cause. `None`: the run had no such request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Examples {
    /// The first request answered in full.
    pub succeeded: Option<u64>,
    /// The first request answered degraded.
    pub degraded: Option<u64>,
    /// The first request that failed.
    pub failed: Option<u64>,
    /// The first request the entry's admission control turned away.
    pub rejected: Option<u64>,
    /// The answered request with the longest latency (the first of equals).
    pub slowest: Option<u64>,
    /// The first request failed or degraded by each cause (as counted in `failed_by` and
    /// `degraded_by`).
    pub by_cause: CauseExamples,
}

/// The first request failed or degraded by each cause; fields as in [`Causes`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CauseExamples {
    /// A try timed out.
    pub timeout: Option<u64>,
    /// 5xx or connection errors.
    pub error: Option<u64>,
    /// Overload rejections (429/503) from a downstream.
    pub overload: Option<u64>,
    /// 4xx.
    pub client_error: Option<u64>,
    /// Not enough deadline left to try (again).
    pub budget_exhausted: Option<u64>,
    /// The retry budget refused a retry.
    pub retry_budget_denied: Option<u64>,
    /// An open breaker refused the call.
    pub breaker_rejected: Option<u64>,
    /// A full bulkhead refused the call.
    pub bulkhead_rejected: Option<u64>,
}

/// Latency percentiles (ms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Median (ms).
    pub p50: f64,
    /// 99th percentile (ms).
    pub p99: f64,
    /// Maximum (ms), exact.
    pub max: f64,
}

/// Counts of requests by cause.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Causes {
    /// A try timed out and nothing better came.
    pub timeout: u64,
    /// 5xx or connection errors.
    pub error: u64,
    /// Overload rejections (429/503) from a downstream's admission or full queue.
    pub overload: u64,
    /// 4xx.
    pub client_error: u64,
    /// Not enough deadline budget to try (again).
    pub budget_exhausted: u64,
    /// The retry budget refused a retry.
    pub retry_budget_denied: u64,
    /// An open breaker refused the call.
    pub breaker_rejected: u64,
    /// A full bulkhead refused the call.
    pub bulkhead_rejected: u64,
}

/// Headline figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Requests that entered the chain.
    pub original_requests: u64,
    /// Calls that reached the leaf.
    pub downstream_attempts: u64,
    /// Calls that reached each hop, entry first, leaf last, then side dependencies.
    pub attempts_per_hop: Vec<u64>,
    /// Leaf calls per original request (×).
    pub amplification: f64,
    /// Full responses.
    pub succeeded: u64,
    /// Responses where an optional part failed and a fallback answered.
    pub degraded: u64,
    /// Responses that failed.
    pub failed: u64,
    /// Requests turned away by the entry's own admission control (its rate limit,
    /// concurrency limit, or full or timed-out queue). A refusal further down the chain
    /// fails or degrades the request instead, whatever its depth.
    pub admission_rejected: u64,
    /// Retries the retry budget refused (events).
    pub retry_budget_denied: u64,
    /// Attempts not made for lack of deadline budget, and calls refused by a server
    /// for the same reason (events).
    pub budget_exhausted: u64,
    /// Calls an open breaker refused (events).
    pub breaker_rejected: u64,
    /// Calls a full bulkhead refused (events).
    pub bulkhead_rejected: u64,
    /// Retries made, at every layer (events).
    pub retries: u64,
    /// Tries that timed out (events).
    pub timeouts: u64,
    /// (succeeded + degraded) / admitted requests: the core answered.
    pub core_success_rate: f64,
    /// degraded / admitted requests.
    pub degraded_rate: f64,
    /// Latency of admitted requests (ms).
    pub latency_ms: Percentiles,
    /// Why degraded responses degraded (first cause per request).
    pub degraded_by_cause: Causes,
    /// Degraded responses answered with `recommendation_status=unavailable` and an empty
    /// list (source 000's contract).
    pub degraded_unavailable: u64,
    /// Degraded responses answered with a stale or hot-list result labelled with its age.
    pub degraded_stale: u64,
    /// Optional-dependency answers that were a computed empty list: full successes, which
    /// the contract keeps distinct from `unavailable`.
    pub computed_empty: u64,
    /// Why failed requests failed.
    pub failed_by_cause: Causes,
    /// Requests still unanswered when the run hit its safety horizon (counted as failed).
    pub unfinished: u64,
    /// Virtual time of the last event (ms).
    pub end_ms: f64,
    /// Set when the run was stopped by its budget before it finished; the figures cover
    /// what happened up to then.
    pub stopped: Option<Stopped>,
}

/// Why a run stopped before it finished (its run budget; see `model::chain::RunBudget`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Stopped {
    /// More calls were alive at once than the budget allows: queues and retries grew
    /// without bound (the system diverged) or too many requests arrived at once.
    CallsAlive {
        /// When (ms of virtual time).
        at_ms: f64,
        /// The budget (calls alive at once).
        limit: u64,
    },
    /// The run handled more events than its work estimate allows.
    Work {
        /// When (ms of virtual time).
        at_ms: f64,
        /// The budget (events).
        limit: u64,
    },
}

/// Per-service figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HopStats {
    /// Service name.
    pub name: String,
    /// A retrying layer, the chain's leaf, or a side dependency.
    pub kind: HopKind,
    /// Workers; none = unlimited.
    pub workers: Option<u32>,
    /// Calls that reached it.
    pub calls: u64,
    /// Calls its admission or full queue turned away.
    pub rejected: u64,
    /// Calls it worked on after the request had stopped waiting for them (their caller,
    /// or a caller further up, timed out): wasted work.
    pub abandoned_work: u64,
    /// Calls cancelled by a caller's timeout.
    pub cancelled: u64,
    /// Highest number of calls holding a worker.
    pub peak_in_flight: i64,
    /// Longest queue for a worker.
    pub peak_queue: i64,
    /// The pool its dependencies share, if it has one (`layers[i].shared_pool`).
    pub shared_pool: Option<PoolSize>,
    /// Waiting for and holding a worker, at a hop with a worker limit (none otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queueing: Option<Queueing>,
    /// How the calls that reached it ended, as it answered them; they add up to `calls`.
    #[serde(default)]
    pub results: CallResults,
    /// What its admission or queue refused calls for; they add up to `rejected`.
    #[serde(default)]
    pub refused: Refusals,
}

/// How the calls that reached a hop ended, as the hop answered them (server side), keyed
/// by the [`CallResult`] names. The caller-side results (`timeout`, `breaker_rejected`,
/// `bulkhead_rejected`, `retry_budget_denied`) never end a call at a hop: a caller's
/// timeout leaves the call running (its answer is then counted here and in
/// `abandoned_work`) or cancels it (`cancelled`), and the others stop a call before it is
/// sent; they are counted per client. Every count is of calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallResults {
    /// Answered in full.
    pub ok: u64,
    /// Answered 5xx: its own failure, a fault, or a dependency's failure passed up.
    pub error: u64,
    /// Refused with 429/503 by its admission or full or timed-out queue (`refused` says
    /// which).
    pub overload: u64,
    /// Answered 4xx (a client error, or a cost above its token bucket).
    pub client_error: u64,
    /// Refused for lack of deadline budget when its work would start, or answered so
    /// because a dependency ran out of it.
    pub budget_exhausted: u64,
    /// Cancelled by a caller's timeout (`cancel_on_timeout`).
    pub cancelled: u64,
    /// Still alive when the run ended (its horizon or its budget).
    pub unfinished: u64,
}

impl CallResults {
    /// Counts one call's end. The caller-side results cannot end a call at a hop (see the
    /// type's doc) and are not counted: the tests' check that the results add up to the
    /// calls would catch one that did.
    #[inline]
    pub fn count(&mut self, r: CallResult) {
        match r {
            CallResult::Ok => self.ok += 1,
            CallResult::Error => self.error += 1,
            CallResult::Overload => self.overload += 1,
            CallResult::ClientError => self.client_error += 1,
            CallResult::BudgetExhausted => self.budget_exhausted += 1,
            CallResult::Cancelled => self.cancelled += 1,
            CallResult::Timeout
            | CallResult::BreakerRejected
            | CallResult::BulkheadRejected
            | CallResult::RetryBudgetDenied => {}
        }
    }

    /// All calls counted (calls).
    pub fn total(&self) -> u64 {
        self.ok
            + self.error
            + self.overload
            + self.client_error
            + self.budget_exhausted
            + self.cancelled
            + self.unfinished
    }
}

/// Why a hop's admission control or worker queue turned calls away (calls), the names of
/// `policy::token_bucket`'s rejections and the queue's two refusals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusals {
    /// The token bucket was empty (429 with Retry-After).
    pub rate_limit: u64,
    /// The concurrency limit was reached (429 with Retry-After).
    pub concurrency_limit: u64,
    /// The call costs more tokens than the bucket holds (answered 4xx).
    pub cost_exceeds_capacity: u64,
    /// The bounded queue for a worker was full (503 with Retry-After).
    pub queue_full: u64,
    /// The call waited longer than the queue timeout for a worker (503 with Retry-After).
    pub queue_timeout: u64,
}

impl Refusals {
    /// Counts one refusal.
    pub fn count(&mut self, r: Refusal) {
        match r {
            Refusal::RateLimit => self.rate_limit += 1,
            Refusal::ConcurrencyLimit => self.concurrency_limit += 1,
            Refusal::CostExceedsCapacity => self.cost_exceeds_capacity += 1,
            Refusal::QueueFull => self.queue_full += 1,
            Refusal::QueueTimeout => self.queue_timeout += 1,
        }
    }

    /// All refusals (calls).
    pub fn total(&self) -> u64 {
        self.rate_limit
            + self.concurrency_limit
            + self.cost_exceeds_capacity
            + self.queue_full
            + self.queue_timeout
    }
}

/// The size of a bounded pool: a layer's shared pool or a caller's bulkhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolSize {
    /// Slots (threads, calls at once).
    pub size: u32,
    /// Calls that may wait for a slot; none = unbounded.
    pub queue: Option<u32>,
}

/// How calls waited for and held the workers of a hop with a worker limit: what the queue
/// lab sets beside the closed forms of M/M/c.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Queueing {
    /// Calls that got a worker.
    pub served: u64,
    /// Of which waited for it (a wait above 0).
    pub waited: u64,
    /// Their waits for a worker, summed (ms).
    pub wait_ms: f64,
    /// Time workers were held, summed over the calls that gave theirs back (ms).
    pub busy_ms: f64,
    /// Calls in the pool (holding a worker or queued for one), averaged over the run's
    /// time from 0 to its end (count): the integral of the gauges the diagram draws, so
    /// it checks Little's L = λW on the run rather than restating it.
    pub mean_in_pool: f64,
}

/// Per caller → dependency figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientStats {
    /// "caller → callee".
    pub name: String,
    /// Index of the calling hop.
    pub caller: usize,
    /// Index of the called hop.
    pub callee: usize,
    /// Whether a failure degrades rather than fails the response.
    pub optional: bool,
    /// Attempts started.
    pub attempts: u64,
    /// Of which retries.
    pub retries: u64,
    /// First attempts that succeeded (what a ratio retry budget earns tokens on).
    pub first_attempt_successes: u64,
    /// Retries the retry budget refused.
    pub retry_budget_denied: u64,
    /// Calls the breaker refused.
    pub breaker_rejected: u64,
    /// Calls the bulkhead refused.
    pub bulkhead_rejected: u64,
    /// Attempts not made for lack of deadline budget.
    pub budget_exhausted: u64,
    /// Tries it stopped waiting for (its per-try timeout fired).
    #[serde(default)]
    pub timeouts: u64,
    /// Breaker instances.
    pub breaker_instances: u32,
    /// Retry budget capacity (tokens), if there is a budget.
    pub budget_max_tokens: Option<f64>,
    /// Its protections in the order the engine applied them, outermost first (see
    /// `policy::stack`): the first sees a call first on the way out and last on the way back.
    pub stack: Vec<Stage>,
    /// Its own bulkhead, if it has one (a shared-pool slot is the caller hop's
    /// `shared_pool`).
    pub bulkhead: Option<PoolSize>,
}

/// What a service is in the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HopKind {
    /// A retrying layer.
    Layer,
    /// The leaf at the bottom of the chain.
    Leaf,
    /// A side dependency.
    Side,
}

/// How an original request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestOutcome {
    /// A full response.
    Succeeded,
    /// A response with a fallback for an optional part.
    Degraded,
    /// A failed response.
    Failed,
    /// Turned away by the entry's admission control.
    Rejected,
    /// Still unanswered when the run stopped.
    Unfinished,
}

impl RequestOutcome {
    /// The four ways a finished request ends, in report order.
    pub const ENDED: [RequestOutcome; 4] = [
        RequestOutcome::Succeeded,
        RequestOutcome::Degraded,
        RequestOutcome::Failed,
        RequestOutcome::Rejected,
    ];
}

/// How a call ended, as its callee answered it (or `cancelled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallResult {
    /// Answered in full.
    Ok,
    /// The caller stopped waiting.
    Timeout,
    /// 5xx or a connection error.
    Error,
    /// Turned away by admission or a full queue (429/503).
    Overload,
    /// 4xx.
    ClientError,
    /// Refused by the caller's open breaker.
    BreakerRejected,
    /// Refused by the caller's full bulkhead.
    BulkheadRejected,
    /// Not enough deadline budget left.
    BudgetExhausted,
    /// The retry budget refused a retry.
    RetryBudgetDenied,
    /// Cancelled by a caller's timeout.
    Cancelled,
}

/// A caller-side event in a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// A backoff sleep before a retry.
    Backoff,
    /// A try timed out.
    Timeout,
    /// An attempt was not made for lack of deadline budget.
    BudgetExhausted,
    /// The retry budget refused a retry.
    RetryBudgetDenied,
    /// The breaker refused an attempt.
    BreakerRejected,
    /// The bulkhead refused an attempt.
    BulkheadRejected,
    /// A stale (hot-list) fallback answered for a failed optional dependency.
    FallbackStale,
    /// `unavailable` answered for a failed optional dependency.
    FallbackUnavailable,
    /// The failed attempt was the last the retry policy allows.
    AttemptsExhausted,
    /// The failure is not one the retry policy retries (a 4xx, a kind left out of
    /// `retry_on`, a Retry-After of "never").
    NotRetryable,
}

/// Why a hop's own admission turned a call away, before any work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// The token bucket was short of the call's cost (429).
    RateLimit,
    /// The concurrency limit was reached (503).
    ConcurrencyLimit,
    /// The call costs more than the bucket can ever hold (4xx).
    CostExceedsCapacity,
    /// Every worker busy and the queue full (503).
    QueueFull,
    /// It waited in the queue longer than the queue timeout (503).
    QueueTimeout,
}

/// Bucketed series. Counters are totals per bucket; gauges the peak level in the bucket.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Bucket width (ms).
    pub bucket_ms: f64,
    /// Number of buckets.
    pub buckets: usize,
    /// Original requests arriving (counter).
    pub offered: Vec<u64>,
    /// Calls reaching each hop (counter), hop order as in `hops`.
    pub attempts: Vec<Vec<u64>>,
    /// Calls holding a worker at each hop (gauge).
    pub in_flight: Vec<Vec<i64>>,
    /// Calls waiting for a worker at each hop (gauge).
    pub queue: Vec<Vec<i64>>,
    /// Requests answered in full (counter).
    pub succeeded: Vec<u64>,
    /// Requests answered degraded (counter).
    pub degraded: Vec<u64>,
    /// Requests failed (counter).
    pub failed: Vec<u64>,
    /// Requests turned away by admission (counter).
    pub rejected: Vec<u64>,
    /// Original requests in the system (gauge).
    pub requests_in_flight: Vec<i64>,
    /// Retry-budget tokens per client (gauge, tokens), empty for clients without budget.
    pub budget_tokens: Vec<Vec<f64>>,
    /// Breaker instances open per client (gauge).
    pub breaker_open: Vec<Vec<i64>>,
    /// Breaker instances half-open per client (gauge).
    pub breaker_half_open: Vec<Vec<i64>>,
    /// Calls each client's first breaker instance judges its rates on (its window while
    /// closed, its probes while half-open, the tally that opened it while open), per
    /// bucket: the moment in the bucket with the most calls (then the most failures).
    /// Empty without a breaker.
    #[serde(default)]
    pub breaker_window_calls: Vec<Vec<i64>>,
    /// Of those calls, the failed ones, at that same moment. Empty without a breaker.
    #[serde(default)]
    pub breaker_window_failed: Vec<Vec<i64>>,
    /// Slots in use per client bulkhead or shared pool (gauge), empty when it has none.
    pub bulkhead_in_use: Vec<Vec<i64>>,
    /// Calls waiting for a slot of each client's own bulkhead (gauge), empty when it has
    /// none.
    pub bulkhead_queue: Vec<Vec<i64>>,
    /// Threads busy in each hop's shared pool (gauge), empty for hops without one.
    pub shared_pool_busy: Vec<Vec<i64>>,
    /// Calls waiting for a thread of each hop's shared pool (gauge), empty for hops without
    /// one.
    pub shared_pool_queue: Vec<Vec<i64>>,
}

/// One breaker state change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakerTransition {
    /// When (ms).
    pub t_ms: f64,
    /// Client index.
    pub client: usize,
    /// Breaker instance.
    pub instance: u32,
    /// From state.
    pub from: BreakerState,
    /// To state.
    pub to: BreakerState,
    /// What a move to open or to closed was decided on (none for a move to half-open): the
    /// window's calls, failures and slow calls when it opened, the probes' when they
    /// answered, so that a view says why without rebuilding the tally from bucket peaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided: Option<crate::policy::breaker::Tally>,
}

/// Latency distribution of one outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyDist {
    /// Which requests: succeeded, degraded, failed or rejected.
    pub outcome: RequestOutcome,
    /// Requests.
    pub count: u64,
    /// Percentiles (ms).
    pub percentiles: Percentiles,
    /// Log-spaced bins: (upper edge ms, count).
    pub bins: Vec<(f64, u64)>,
    /// Per bin, a request number from it (the earliest the run kept; see
    /// `sim::first_seen`), for the page's “show a request from this bar”.
    #[serde(default)]
    pub examples: Vec<Option<u64>>,
}

/// One request's timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Request number (0 = first to arrive).
    pub request: u64,
    /// Arrival (ms).
    pub arrival_ms: f64,
    /// Absolute deadline (ms), if the request had one.
    pub deadline_ms: Option<f64>,
    /// When its response left the entry (ms).
    pub end_ms: f64,
    /// How it ended.
    pub outcome: RequestOutcome,
    /// Work at each hop, server side, in the order it ended.
    pub spans: Vec<Span>,
    /// Caller-side events: backoff sleeps, timeouts, refusals.
    pub marks: Vec<Mark>,
    /// Spans and marks not kept because the trace reached its cap (4,000 items).
    #[serde(default)]
    pub dropped: u64,
}

/// A call as the callee saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// Its number in the trace, in order of arrival (0 = the entry call).
    #[serde(default)]
    pub id: u32,
    /// The `id` of the call that made it; none for the entry call.
    #[serde(default)]
    pub parent: Option<u32>,
    /// Hop index.
    pub hop: usize,
    /// Attempt number at the caller (1 = first).
    pub attempt: u32,
    /// Arrival at the hop (ms).
    pub start_ms: f64,
    /// When a worker took it (ms); none if it never got one.
    pub work_ms: Option<f64>,
    /// When it ended (ms).
    pub end_ms: f64,
    /// How it ended.
    pub result: CallResult,
    /// Nobody was waiting for it any more (a caller up the chain had timed out).
    pub abandoned: bool,
    /// Why the hop's admission or queue turned it away, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
}

/// A caller-side event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// Calling hop.
    pub hop: usize,
    /// The span `id` of the calling call.
    #[serde(default)]
    pub call: u32,
    /// The hop it calls (the dependency the event is about).
    #[serde(default)]
    pub callee: usize,
    /// What happened.
    pub kind: MarkKind,
    /// Start (ms).
    pub start_ms: f64,
    /// End (ms); equal to the start for instants.
    pub end_ms: f64,
}

impl Report {
    /// Client `ci`'s name as `lang` shows it: its two hops' names (the report's `name` if
    /// a hop is missing, which a report built by the engine never has).
    pub fn client_label(&self, lang: crate::i18n::Lang, ci: usize) -> String {
        let Some(c) = self.clients.get(ci) else { return String::new() };
        match (self.hops.get(c.caller), self.hops.get(c.callee)) {
            (Some(a), Some(b)) => lang.client(&a.name, &b.name),
            _ => c.name.clone(),
        }
    }

    /// Compact JSON (one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// Indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// What [`Report::generator`] says: this crate and its version.
pub fn generator() -> String {
    format!("resilience-lab {}", env!("CARGO_PKG_VERSION"))
}

/// Microseconds to milliseconds for the report.
pub fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// `name()` (the serialized word) and `Display` for the report's word-valued enums, so
/// views compare enums and print the same words the JSON carries.
macro_rules! named {
    ($t:ty { $($v:ident => $s:literal),* $(,)? }) => {
        impl $t {
            /// Every variant, in declaration order (the wire codec sends the index).
            pub const ALL: &'static [Self] = &[$(Self::$v),*];

            /// The word the report uses for it.
            pub fn name(self) -> &'static str {
                match self { $(Self::$v => $s),* }
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named!(HopKind { Layer => "layer", Leaf => "leaf", Side => "side" });
named!(RequestOutcome {
    Succeeded => "succeeded", Degraded => "degraded", Failed => "failed", Rejected => "rejected",
    Unfinished => "unfinished",
});
named!(CallResult {
    Ok => "ok", Timeout => "timeout", Error => "error", Overload => "overload",
    ClientError => "client_error", BreakerRejected => "breaker_rejected",
    BulkheadRejected => "bulkhead_rejected", BudgetExhausted => "budget_exhausted",
    RetryBudgetDenied => "retry_budget_denied", Cancelled => "cancelled",
});
named!(MarkKind {
    Backoff => "backoff", Timeout => "timeout", BudgetExhausted => "budget_exhausted",
    RetryBudgetDenied => "retry_budget_denied", BreakerRejected => "breaker_rejected",
    BulkheadRejected => "bulkhead_rejected", FallbackStale => "fallback_stale",
    FallbackUnavailable => "fallback_unavailable", AttemptsExhausted => "attempts_exhausted",
    NotRetryable => "not_retryable",
});
named!(Refusal {
    RateLimit => "rate_limit", ConcurrencyLimit => "concurrency_limit",
    CostExceedsCapacity => "cost_exceeds_capacity", QueueFull => "queue_full",
    QueueTimeout => "queue_timeout",
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_the_json() {
        let check = |json: String, name: &str| assert_eq!(json, format!("\"{name}\""));
        for k in [HopKind::Layer, HopKind::Leaf, HopKind::Side] {
            check(serde_json::to_string(&k).unwrap(), k.name());
        }
        for o in RequestOutcome::ENDED.into_iter().chain([RequestOutcome::Unfinished]) {
            check(serde_json::to_string(&o).unwrap(), o.name());
        }
        {
            use CallResult::*;
            let all = [
                Ok,
                Timeout,
                Error,
                Overload,
                ClientError,
                BreakerRejected,
                BulkheadRejected,
                BudgetExhausted,
                RetryBudgetDenied,
                Cancelled,
            ];
            for r in all {
                check(serde_json::to_string(&r).unwrap(), r.name());
            }
        }
        use MarkKind::*;
        let all = [
            Backoff,
            Timeout,
            BudgetExhausted,
            RetryBudgetDenied,
            BreakerRejected,
            BulkheadRejected,
            FallbackStale,
            FallbackUnavailable,
            AttemptsExhausted,
            NotRetryable,
        ];
        for m in all {
            check(serde_json::to_string(&m).unwrap(), m.name());
        }
        assert_eq!(all.len(), MarkKind::ALL.len(), "every mark kind checked");
        for r in Refusal::ALL {
            check(serde_json::to_string(r).unwrap(), r.name());
        }
    }
}
