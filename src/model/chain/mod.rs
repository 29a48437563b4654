//! The call-chain model: original requests flow through 1–8 retrying layers to a leaf,
//! each hop with a worker pool and each caller with a policy stack, in deterministic
//! virtual time.
//!
//! The parts, in the order data flows through them:
//!
//! | file | what it does |
//! |---|---|
//! | `plan.rs` | compiles a scenario: hops and clients in µs and indices, each client's stages in order |
//! | `arrivals.rs` | when original requests arrive, and the random key each carries |
//! | `calls.rs` | the calls in flight (a slab with stale-proof handles) |
//! | `engine.rs` | the general engine: event loop and the server side of a hop |
//! | `work.rs` | a hop's workers and its own work, a leaf's answer |
//! | `client.rs` | the caller side: the stack walked out and back, retries |
//! | `slots.rs` | a client's bulkhead or its layer's shared pool |
//! | `timers.rs` | per-try timers, kept per client |
//! | `cancel.rs` | cancelling or orphaning what a call started when its caller stops waiting |
//! | `rules.rs` | the rules every path applies once: leaf answers, retry decisions, propagation, spans |
//! | `stats.rs` | the statistics sink both engines write to |
//! | `finish.rs` | the report |
//! | `kernel.rs` | the retry-chain kernel: retry-only chains walked a request at a time |
//!
//! The order in which a caller applies its protections is data: `ClientSpec::stages`,
//! compiled from the scenario's `client.stack` (default `policy::stack::DEFAULT_ORDER`),
//! walked by `client.rs` and exported in the report as `clients[i].stack`. What each stage
//! decides is stated once, in `policy::stack`.
//!
//! A run has a budget ([`RunBudget`]): calls alive at once, and events handled. A run that
//! exceeds it stops cleanly: the report covers what happened up to then and says why in
//! `summary.stopped`. Memory grows with the calls alive, the chart buckets and the capped
//! traces, never with the number of requests.

mod arrivals;
mod calls;
mod cancel;
mod client;
mod engine;
mod finish;
mod kernel;
pub mod plan;
mod rules;
mod slots;
mod stats;
mod timers;
mod work;

use crate::error::FieldError;
use crate::policy::retry::ms_to_us;
use crate::report::{Report, Stopped, ms};
use crate::scenario::{FaultEffect, Scenario, estimate_work, validate};
use crate::sim::Micros;
use calls::Calls;
use engine::GeneralEngine;
use kernel::RetryChainKernel;
use stats::Stats;
use std::fmt;

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
                "load: got a scenario implying up to {estimated:.0} calls if every attempt is used, \
                 allowed at most {cap:.0} (above the cap: shorten the duration, lower the rate or the attempts)"
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
pub const DRAIN_HORIZON: Micros = 3_600_000_000;
/// Most time-series buckets.
const MAX_BUCKETS: usize = 400;
/// Buckets aimed at when the width is automatic.
const TARGET_BUCKETS: u64 = 200;

/// What a run may use before it is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunBudget {
    /// Most calls alive at once (queued, working or waiting for dependencies, at every
    /// hop). A call with its queue entries and timers takes well under 1 KB, so the default
    /// keeps a run's memory far below 256 MB.
    pub calls_alive: usize,
    /// Events the queue may hold before the stale ones (timers of calls that answered long
    /// ago) are dropped; the threshold then doubles past what is left. Changes memory and
    /// work, never results.
    pub queue_compaction: usize,
}

impl RunBudget {
    /// The budget every run gets unless told otherwise.
    pub const DEFAULT: RunBudget = RunBudget { calls_alive: 200_000, queue_compaction: 65_536 };
}

impl Default for RunBudget {
    fn default() -> Self {
        RunBudget::DEFAULT
    }
}

/// The budget as the engine checks it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    calls_alive: usize,
    /// See [`RunBudget::queue_compaction`].
    pub queue_compaction: usize,
    /// Events, from the work estimate: a run that needs more than this has gone beyond
    /// what the estimate allowed (a safety net; the estimate bounds every event source).
    events: u64,
}

impl Budget {
    fn check(&self, calls: &Calls, events: u64, stats: &Stats) -> Option<Stopped> {
        if calls.live() > self.calls_alive {
            Some(Stopped::CallsAlive { at_ms: ms(stats.last_t), limit: self.calls_alive as u64 })
        } else if events > self.events {
            Some(Stopped::Work { at_ms: ms(stats.last_t), limit: self.events })
        } else {
            None
        }
    }
}

enum Inner {
    General(Box<GeneralEngine>),
    Kernel(Box<RetryChainKernel>),
}

/// A run in progress. Step it in slices (the browser does, to stay responsive) or call
/// [`run`].
pub struct ChainSim {
    seed: u64,
    expected_end: Micros,
    inner: Inner,
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
        Self::with_budget(s, seed, max_calls, engine, RunBudget::DEFAULT)
    }

    /// Validates and prepares a run on the chosen engine with a run budget.
    pub fn with_budget(
        s: &Scenario,
        seed: u64,
        max_calls: f64,
        engine: Engine,
        budget: RunBudget,
    ) -> Result<Self, SimError> {
        validate(s)?;
        let work = estimate_work(s);
        if work.calls_upper_bound > max_calls {
            return Err(SimError::TooMuchWork { estimated: work.calls_upper_bound, cap: max_calls });
        }
        let plan = plan::compile(s);
        // The longest a request can plausibly live, to size the buckets: arrivals plus the
        // slowest chain of attempts, bounded.
        let expected_end = plan.arrival_end + expected_drain(s).min(DRAIN_HORIZON);
        let width = match s.report.bucket_ms {
            Some(ms) => ms_to_us(ms).max(1),
            None => nice_width(expected_end.max(1) / TARGET_BUCKETS),
        };
        let trace_cap = s.report.trace_sample as usize;
        let stride =
            if trace_cap == 0 { u64::MAX } else { ((work.requests / trace_cap as f64).ceil() as u64).max(1) };
        let stats =
            Stats::with_requested(&plan, width, MAX_BUCKETS, trace_cap, stride, &s.report.trace_requests);
        let horizon = plan.arrival_end.saturating_add(DRAIN_HORIZON);
        let use_kernel =
            engine == Engine::Auto && kernel::fits(&plan) && kernel_stays_within(s, &plan, budget);
        let inner = if use_kernel {
            Inner::Kernel(Box::new(RetryChainKernel::new(plan, s, seed, stats, horizon)))
        } else {
            let events = (work.calls_upper_bound * 10.0).min(u64::MAX as f64 / 2.0) as u64 + 10_000;
            let budget =
                Budget { calls_alive: budget.calls_alive, events, queue_compaction: budget.queue_compaction };
            Inner::General(Box::new(GeneralEngine::new(plan, s, seed, stats, horizon, budget)))
        };
        Ok(ChainSim { seed, expected_end: expected_end.max(1), inner })
    }

    /// Handles up to `max_events` events (the kernel: arrivals and records); returns
    /// whether the run is over.
    pub fn step(&mut self, max_events: u64) -> Result<bool, SimError> {
        match &mut self.inner {
            Inner::General(g) => g.step(max_events),
            Inner::Kernel(k) => Ok(k.step(max_events)),
        }
    }

    /// Whether the retry-chain kernel runs this scenario.
    pub fn uses_kernel(&self) -> bool {
        matches!(self.inner, Inner::Kernel(_))
    }

    /// Events the general engine handled (the kernel walks requests instead: `None`).
    pub fn events(&self) -> Option<u64> {
        match &self.inner {
            Inner::General(g) => Some(g.events()),
            Inner::Kernel(_) => None,
        }
    }

    /// Share of the expected virtual time covered so far (0–1), for a progress bar.
    pub fn progress(&self) -> f64 {
        let (done, last) = match &self.inner {
            Inner::General(g) => (g.done, g.stats.last_t),
            Inner::Kernel(k) => (k.done, k.stats.last_t),
        };
        if done { 1.0 } else { (last as f64 / self.expected_end as f64).min(0.99) }
    }

    /// Builds the report.
    pub fn finish(self) -> Report {
        match self.inner {
            Inner::General(g) => {
                let mut g = *g;
                // Calls still alive end unfinished; counted from the slab, independently of
                // where calls end, so the results adding up to the calls is a real check.
                for hop in g.calls.live_hops() {
                    g.stats.hops[hop].results.unfinished += 1;
                }
                let end = g.stats.last_t;
                for (h, rt) in g.stats.hops.iter_mut().zip(&g.hop_rt) {
                    h.mean_in_pool = rt.pool.mean_occupancy(end);
                }
                finish::report(&g.plan, g.stats, self.seed, g.stop)
            }
            Inner::Kernel(k) => {
                let mut k = *k;
                k.finish_stats();
                finish::report(&k.plan, k.stats, self.seed, None)
            }
        }
    }
}

/// Whether a kernel run stays within the budget. The kernel walks requests whole and cannot
/// stop halfway, so it only takes runs whose requests in flight are bounded well within the
/// budget: arrivals (surges included, with a margin for Poisson bunching) during the longest
/// a request can live, every attempt failing. It keeps about 64 bytes per request in flight
/// instead of a call record per level, hence five requests per call of the budget.
fn kernel_stays_within(s: &Scenario, plan: &plan::Plan, budget: RunBudget) -> bool {
    let alive = match s.load {
        crate::scenario::Load::Batch { requests } => requests as f64,
        _ => {
            let surge: f64 = s
                .faults
                .iter()
                .filter_map(|f| match f.effect {
                    FaultEffect::Surge { factor } => Some(factor.max(1.0)),
                    _ => None,
                })
                .product();
            let per_us = s.entry_rate_per_s().unwrap_or(0.0) * surge / 1e6;
            per_us * kernel_lifetime(plan) as f64 * 1.5 + 100.0
        }
    };
    alive <= (budget.calls_alive * 5) as f64
}

/// The longest a request of a kernel run can live (µs): every attempt fails, every backoff
/// is as long as it can be.
fn kernel_lifetime(plan: &plan::Plan) -> Micros {
    let leaf = plan.leaf();
    let mut t = plan.hops[leaf].fixed_work.unwrap_or(0);
    for c in plan.clients.iter().rev() {
        let a = u64::from(c.retry.max_attempts);
        let b = &c.retry.backoff;
        let longest_sleep = if b.jitter == crate::policy::retry::Jitter::Decorrelated {
            b.cap
        } else {
            b.nominal(c.retry.max_attempts)
        };
        t = t.saturating_mul(a).saturating_add(longest_sleep.saturating_mul(a - 1));
    }
    t
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
            crate::policy::retry::Backoff::None {} => 0.0,
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
