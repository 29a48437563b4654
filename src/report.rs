//! What a run produces: a summary, bucketed time series, breaker transitions, latency
//! distributions and sampled per-request traces. Serialised as JSON by the CLI and read by
//! the views. Times are milliseconds of virtual time.

use serde::{Deserialize, Serialize};

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
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
    /// Timelines of a capped sample of requests.
    pub traces: Vec<Trace>,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Requests turned away by admission (rate limit, concurrency limit, full queue): at
    /// the entry, or at the service the entry calls when its client gave up retrying.
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
    /// Events processed (for the work estimate and benchmarks).
    pub events: u64,
}

/// Per-service figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HopStats {
    /// Service name.
    pub name: String,
    /// "layer", "leaf" or "side".
    pub kind: String,
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
    /// Breaker instances.
    pub breaker_instances: u32,
    /// Retry budget capacity (tokens), if there is a budget.
    pub budget_max_tokens: Option<f64>,
}

/// Bucketed series. Counters are totals per bucket; gauges the peak level in the bucket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Slots in use per client bulkhead or shared pool (gauge), empty when it has none.
    pub bulkhead_in_use: Vec<Vec<i64>>,
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
    pub from: String,
    /// To state.
    pub to: String,
}

/// Latency distribution of one outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyDist {
    /// "succeeded", "degraded", "failed" or "rejected".
    pub outcome: String,
    /// Requests.
    pub count: u64,
    /// Percentiles (ms).
    pub percentiles: Percentiles,
    /// Log-spaced bins: (upper edge ms, count).
    pub bins: Vec<(f64, u64)>,
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
    /// "succeeded", "degraded", "failed" or "rejected".
    pub outcome: String,
    /// Work at each hop, server side, in the order it ended.
    pub spans: Vec<Span>,
    /// Caller-side events: backoff sleeps, timeouts, refusals.
    pub marks: Vec<Mark>,
}

/// A call as the callee saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Span {
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
    pub result: String,
    /// Nobody was waiting for it any more (a caller up the chain had timed out).
    pub abandoned: bool,
}

/// A caller-side event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// Calling hop.
    pub hop: usize,
    /// "backoff", "timeout", "budget_exhausted", "retry_budget_denied", "breaker_rejected",
    /// "bulkhead_rejected", "fallback".
    pub kind: String,
    /// Start (ms).
    pub start_ms: f64,
    /// End (ms); equal to the start for instants.
    pub end_ms: f64,
}

impl Report {
    /// Compact JSON (one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// Indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// Microseconds to milliseconds for the report.
pub fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}
