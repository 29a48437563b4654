//! Scenarios: what to simulate, as serde types with every field documented in its unit.
//!
//! A scenario is a call chain: 1–8 retrying **layers** (entry first) and a **leaf** at the
//! bottom. Each layer is a service with a worker pool, optional admission and deadline,
//! and a **client** (its policy stack towards the next hop). A layer may also call **side
//! dependencies** (leaves of their own) in parallel with the chain, core or optional.
//! Times are milliseconds in the file and whole microseconds inside the engine.

pub mod faults;
/// Messages for scenario files that do not parse (their words are the CLI's to translate).
pub mod file;
pub mod presets;
pub mod ranges;
pub mod validate;

use crate::error::FieldError;
use crate::policy::breaker::BreakerConfig;
use crate::policy::bulkhead::BulkheadConfig;
use crate::policy::retry::RetryPolicy;
use crate::policy::retry_budget::RetryBudgetConfig;
use crate::policy::stack::Stage;
use serde::{Deserialize, Serialize};

pub use validate::{Work, estimate_work, validate, validate_all};

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name shown in reports.
    #[serde(default)]
    pub name: String,
    /// Seed of every random stream (the CLI's `--seed` overrides it).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Original requests entering the first layer.
    pub load: Load,
    /// Retrying layers, entry first (1–8).
    pub layers: Vec<Layer>,
    /// The service at the bottom of the chain.
    pub leaf: Leaf,
    /// Windows of injected trouble.
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// Whether a caller's timeout cancels the work it abandoned (off: the callee keeps
    /// working and holding its worker, as with most real stacks).
    #[serde(default)]
    pub cancel_on_timeout: bool,
    /// The entry's service-level objective (drawn on the outcome chart; the engine ignores
    /// it). Default: 99.9 % core success, source 003's big-promo target.
    #[serde(default)]
    pub slo: crate::model::slo::Slo,
    /// What the report keeps.
    #[serde(default)]
    pub report: ReportOptions,
}

/// The default seed.
pub fn default_seed() -> u64 {
    1
}

/// How original requests arrive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "pattern", rename_all = "snake_case", deny_unknown_fields)]
pub enum Load {
    /// All at t = 0 (source 000's lab: 100 requests together).
    Batch {
        /// Requests (count).
        requests: u64,
    },
    /// Evenly spaced.
    Constant {
        /// Average rate before the peak factor (req/s).
        rate_per_s: f64,
        /// Multiplier on the rate (×).
        #[serde(default = "one_f64")]
        peak_factor: f64,
        /// How long requests keep arriving (ms).
        duration_ms: f64,
    },
    /// A Poisson process (independent exponential gaps).
    Poisson {
        /// Average rate before the peak factor (req/s).
        rate_per_s: f64,
        /// Multiplier on the rate (×).
        #[serde(default = "one_f64")]
        peak_factor: f64,
        /// How long requests keep arriving (ms).
        duration_ms: f64,
    },
}

fn one_f64() -> f64 {
    1.0
}

impl Load {
    /// Whether requests arrive evenly spaced (a constant load): a Poisson load's gaps are
    /// random and a batch arrives all at once. A lab a storm link opens spaces its own
    /// arrivals evenly only then, and Poisson otherwise.
    pub fn evenly_spaced(&self) -> bool {
        matches!(self, Load::Constant { .. })
    }

    /// How long requests keep arriving (ms): 0 for a batch, which all arrives at t = 0.
    pub fn duration_ms(&self) -> f64 {
        match *self {
            Load::Batch { .. } => 0.0,
            Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => duration_ms,
        }
    }
}

/// A distribution of durations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "snake_case", deny_unknown_fields)]
pub enum Dist {
    /// Always the same (ms).
    Constant {
        /// Duration (ms).
        ms: f64,
    },
    /// Exponential with this mean (ms).
    Exponential {
        /// Mean (ms).
        mean_ms: f64,
    },
    /// Log-normal given by its median and 99th percentile (ms), the way latency is
    /// usually quoted ("p99 2 s").
    LogNormal {
        /// Median (ms).
        median_ms: f64,
        /// 99th percentile (ms), at least the median.
        p99_ms: f64,
    },
}

impl Default for Dist {
    fn default() -> Self {
        Dist::Constant { ms: 0.0 }
    }
}

impl Dist {
    /// The mean (ms), for closed forms and Little's law.
    pub fn mean_ms(&self) -> f64 {
        match *self {
            Dist::Constant { ms } => ms,
            Dist::Exponential { mean_ms } => mean_ms,
            Dist::LogNormal { median_ms, p99_ms } => {
                if p99_ms <= median_ms {
                    median_ms
                } else {
                    let sigma = (p99_ms / median_ms).ln() / crate::sim::rng::Z99;
                    median_ms * (sigma * sigma / 2.0).exp()
                }
            }
        }
    }
}

/// The server side of a hop: its workers and what it admits.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    /// Workers (threads, connections) serving calls at once; none = unlimited.
    #[serde(default)]
    pub workers: Option<u32>,
    /// Calls that may wait for a worker; none = unbounded. A full queue rejects with 503.
    #[serde(default)]
    pub queue: Option<u32>,
    /// Longest wait for a worker before the call is dropped with 503 (ms); none = forever.
    #[serde(default)]
    pub queue_timeout_ms: Option<f64>,
    /// Rate limit and concurrency limit in front of the workers.
    #[serde(default)]
    pub admission: Option<AdmissionConfig>,
    /// Before starting work, refuse a call with less budget than this left (ms; 0 = only
    /// refuse calls whose budget already ran out).
    #[serde(default)]
    pub min_budget_ms: f64,
}

/// Admission at a hop (source 002's model).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmissionConfig {
    /// The rate gate.
    #[serde(default)]
    pub token_bucket: Option<TokenBucketConfig>,
    /// Most calls admitted at once; none = no limit.
    #[serde(default)]
    pub concurrency_limit: Option<u32>,
    /// Retry-After sent with concurrency-limit and full-queue rejections (ms).
    #[serde(default = "default_retry_after_ms")]
    pub retry_after_ms: f64,
}

fn default_retry_after_ms() -> f64 {
    1000.0
}

/// A token bucket (source 002: starts full, exact integer refill).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenBucketConfig {
    /// Burst size and starting level (tokens, whole).
    pub capacity: u32,
    /// Refill rate (tokens/s, up to 3 decimals).
    pub rate_per_s: f64,
    /// Tokens one call costs (whole).
    #[serde(default = "one_u32")]
    pub cost: u32,
}

fn one_u32() -> u32 {
    1
}

/// What a caller answers when a dependency it may do without has failed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Fallback {
    /// Status `unavailable` and an empty list (source 000), distinct from a computed empty
    /// list.
    Unavailable {},
    /// A stale or hot-list result, labelled with its age (source 003's hot list).
    Stale {
        /// Age of the fallback data (ms).
        age_ms: f64,
    },
}

/// A caller's policy stack towards one dependency: the protections, applied in the order
/// `stack` gives (see `policy::stack` for what each stage decides and the default order).
/// Each retry passes through every stage inside the retry again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Client {
    /// Attempts, retried outcomes, backoff and jitter.
    #[serde(default)]
    pub retry: RetryPolicy,
    /// Longest wait for one attempt (ms); none = wait as long as the deadline allows.
    #[serde(default)]
    pub per_try_timeout_ms: Option<f64>,
    /// An attempt is only made if at least this much budget remains (ms).
    #[serde(default)]
    pub min_useful_ms: f64,
    /// Cap on the extra load of retries.
    #[serde(default)]
    pub retry_budget: Option<RetryBudgetConfig>,
    /// Circuit breaker.
    #[serde(default)]
    pub breaker: Option<BreakerConfig>,
    /// A bulkhead of its own.
    #[serde(default)]
    pub bulkhead: Option<BulkheadConfig>,
    /// Draw from the layer's shared pool instead (source 003's counter-example).
    #[serde(default)]
    pub use_shared_pool: bool,
    /// What to answer when the dependency fails: present = the dependency is optional and
    /// its failure degrades the response instead of failing it.
    #[serde(default)]
    pub fallback: Option<Fallback>,
    /// The order of the protections, outermost first: all six stages, `retry` first; none =
    /// the default, `policy::stack::DEFAULT_ORDER`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Vec<Stage>>,
}

impl Default for Client {
    fn default() -> Self {
        Client {
            retry: RetryPolicy::default(),
            per_try_timeout_ms: None,
            min_useful_ms: 0.0,
            retry_budget: None,
            breaker: None,
            bulkhead: None,
            use_shared_pool: false,
            fallback: None,
            stack: None,
        }
    }
}

/// A pool several dependencies of one layer draw from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedPool {
    /// Threads (count).
    pub size: u32,
    /// Calls that may wait; none = unbounded.
    #[serde(default)]
    pub queue: Option<u32>,
}

/// A retrying layer: a service that calls the next hop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    /// Name shown in the diagram and report.
    pub name: String,
    /// Workers and admission.
    #[serde(default)]
    pub server: Server,
    /// Its own work per call, before calling downstream.
    #[serde(default)]
    pub work: Dist,
    /// This layer's deadline (ms from a call's arrival): started for calls that arrive
    /// without one, and the earlier of the two for calls that arrive with one.
    #[serde(default)]
    pub deadline_ms: Option<f64>,
    /// Its policy stack towards the next hop.
    #[serde(default)]
    pub client: Client,
    /// Other dependencies it calls in parallel with the next hop.
    #[serde(default)]
    pub side_deps: Vec<SideDep>,
    /// The pool `use_shared_pool` clients draw from.
    #[serde(default)]
    pub shared_pool: Option<SharedPool>,
}

/// A leaf service: does work, sometimes fails.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leaf {
    /// Name shown in the diagram and report.
    pub name: String,
    /// Workers and admission.
    #[serde(default)]
    pub server: Server,
    /// Time each call holds a worker.
    pub work: Dist,
    /// Probability a call ends in a 5xx error after its work (0–1).
    #[serde(default)]
    pub error_rate: f64,
    /// Probability a call is a 4xx, never retried (0–1).
    #[serde(default)]
    pub client_error_rate: f64,
    /// Probability a successful call returns a computed empty result (0–1): a real
    /// answer, which the degradation contract keeps distinct from "unavailable".
    #[serde(default)]
    pub empty_rate: f64,
}

/// A dependency a layer calls besides the next hop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDep {
    /// The service called.
    pub target: Leaf,
    /// How it is called; a fallback makes it optional.
    #[serde(default)]
    pub client: Client,
    /// Share of requests that need it (0–1).
    #[serde(default = "one_f64")]
    pub needed_by: f64,
}

/// A window of injected trouble.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    /// Name of the affected service (ignored for a traffic surge).
    #[serde(default)]
    pub target: String,
    /// Start (ms of virtual time).
    pub start_ms: f64,
    /// End, exclusive (ms).
    pub end_ms: f64,
    /// What happens.
    pub effect: FaultEffect,
}

/// What a fault does while active.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FaultEffect {
    /// Work takes `factor` times longer.
    Latency {
        /// Multiplier (×).
        factor: f64,
    },
    /// Calls fail with this probability (replaces the usual error rate).
    ErrorRate {
        /// Probability (0–1).
        rate: f64,
    },
    /// Every call fails at once (connection refused).
    Down {},
    /// Arrivals come `factor` times faster (target ignored).
    Surge {
        /// Multiplier (×).
        factor: f64,
    },
}

/// What the report keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportOptions {
    /// Width of a time-series bucket (ms); none = about 200 buckets over the run.
    #[serde(default)]
    pub bucket_ms: Option<f64>,
    /// Requests whose full timeline is kept (count).
    #[serde(default = "default_trace_sample")]
    pub trace_sample: u32,
    /// Request numbers (0 = first to arrive) whose whole timeline is kept as well, beyond
    /// the sample and its cap: the attempt trees a learner asked for (at most 8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace_requests: Vec<u64>,
}

fn default_trace_sample() -> u32 {
    24
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions { bucket_ms: None, trace_sample: default_trace_sample(), trace_requests: Vec::new() }
    }
}

/// One service of the chain, by the report's hop index.
#[derive(Clone, Copy, Debug)]
pub struct ServiceRef<'a> {
    pub name: &'a str,
    pub server: &'a Server,
    pub work: &'a Dist,
    /// Share of its calls that fail with a 5xx on their own (0–1): a leaf's `error_rate`;
    /// 0 for a layer, which fails only through its dependencies.
    pub error_rate: f64,
}

impl Scenario {
    /// The service at report hop `hop`: the layers (entry first), the leaf, then every
    /// layer's side dependencies in order — the numbering `model::chain::plan::compile`
    /// gives hops (a test holds the two together).
    pub fn service(&self, hop: usize) -> Option<ServiceRef<'_>> {
        let n = self.layers.len();
        if hop < n {
            let l = &self.layers[hop];
            Some(ServiceRef { name: &l.name, server: &l.server, work: &l.work, error_rate: 0.0 })
        } else {
            let leaf = if hop == n {
                &self.leaf
            } else {
                &self.layers.iter().flat_map(|l| l.side_deps.iter()).nth(hop - n - 1)?.target
            };
            Some(ServiceRef {
                name: &leaf.name,
                server: &leaf.server,
                work: &leaf.work,
                error_rate: leaf.error_rate,
            })
        }
    }

    /// The client settings hop `caller` calls hop `callee` with (report indices): a
    /// layer's own client towards its next hop, or its side dependency's.
    pub fn client_to(&self, caller: usize, callee: usize) -> Option<&Client> {
        let layer = self.layers.get(caller)?;
        if callee == caller + 1 {
            return Some(&layer.client);
        }
        let n = self.layers.len();
        let first = n + 1 + self.layers[..caller].iter().map(|l| l.side_deps.len()).sum::<usize>();
        layer.side_deps.get(callee.checked_sub(first)?).map(|d| &d.client)
    }

    /// Reads a scenario from JSON text (types only; call [`validate`] for ranges). An
    /// error names the field by its JSON path and, for a number, its range and unit.
    pub fn from_json(text: &str) -> Result<Scenario, FieldError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| file::error(text, &e))
    }

    /// Names of every service, entry first: layers, leaf, then side dependencies.
    pub fn hop_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.layers.iter().map(|l| l.name.clone()).collect();
        names.push(self.leaf.name.clone());
        for l in &self.layers {
            names.extend(l.side_deps.iter().map(|d| d.target.name.clone()));
        }
        names
    }

    /// Requests per second at the entry outside surges (after the peak factor).
    pub fn entry_rate_per_s(&self) -> Option<f64> {
        match self.load {
            Load::Batch { .. } => None,
            Load::Constant { rate_per_s, peak_factor, .. }
            | Load::Poisson { rate_per_s, peak_factor, .. } => Some(rate_per_s * peak_factor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hops_and_clients_follow_the_engines_numbering() {
        for p in presets::all() {
            let s = (p.build)();
            let plan = crate::model::chain::plan::compile(&s);
            for (i, h) in plan.hops.iter().enumerate() {
                assert_eq!(s.service(i).map(|x| x.name), Some(h.name.as_str()), "{}: hop {i}", p.name);
            }
            assert!(s.service(plan.hops.len()).is_none());
            for c in &plan.clients {
                let client = s.client_to(c.caller, c.callee);
                assert!(client.is_some(), "{}: client {} → {}", p.name, c.caller, c.callee);
                assert_eq!(client.and_then(|x| x.breaker).is_some(), c.breaker.is_some(), "{}", p.name);
            }
        }
    }
}
