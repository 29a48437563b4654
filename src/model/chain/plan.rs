//! The compile step: a validated scenario becomes a plan in whole microseconds and
//! indices, with each caller's protections as an ordered list of stages.
//!
//! Hops are numbered entry first: layers `0..L`, the leaf at `L`, side dependencies after
//! it. Clients (caller → dependency) are numbered in the order their callers call them: a
//! layer's next hop first, then its side dependencies.

use crate::policy::breaker::BreakerConfig;
use crate::policy::retry::{BackoffUs, RetryOn, ms_to_us};
use crate::policy::retry_budget::RetryBudgetConfig;
use crate::policy::stack::{DEFAULT_ORDER, Stage, Stages};
use crate::scenario::faults::FaultTimeline;
use crate::scenario::{Client, Dist, Fallback, Leaf, Scenario, Server};
use crate::sim::Micros;
use std::ops::Range;

/// 1 token = 10⁹ credits, so a rate in milli-tokens/s is exactly that many credits per µs.
pub const CREDITS_PER_TOKEN: u64 = 1_000_000_000;

/// A token bucket in credits (source 002's integer arithmetic at a µs grain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenBucketSpec {
    /// Burst size and starting level (credits).
    pub capacity: u64,
    /// Refill (credits per µs).
    pub rate: u64,
    /// What one call costs (credits).
    pub cost: u64,
}

/// Admission at a hop: a token bucket and a concurrency limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmissionSpec {
    /// The rate gate.
    pub bucket: Option<TokenBucketSpec>,
    /// Most calls admitted at once.
    pub limit: Option<u32>,
    /// Retry-After sent with concurrency-limit and full-queue rejections (µs).
    pub retry_after: Micros,
}

/// A hop's worker pool and its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerPoolSpec {
    /// Workers; `None` = unlimited.
    pub workers: Option<u32>,
    /// Calls that may wait; `None` = unbounded.
    pub queue: Option<u32>,
    /// Longest wait for a worker (µs).
    pub queue_timeout: Option<Micros>,
}

/// A caller's bulkhead towards one dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkheadSpec {
    /// Calls at once.
    pub max_concurrent: u32,
    /// Calls that may wait for a slot.
    pub max_queue: u32,
    /// Longest wait for a slot (µs).
    pub queue_timeout: Option<Micros>,
}

/// A pool several dependencies of one layer draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedPoolSpec {
    /// Threads.
    pub size: u32,
    /// Calls that may wait; `None` = unbounded.
    pub queue: Option<u32>,
}

/// How a leaf answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafBehaviour {
    /// Probability of a 5xx after the work (0–1).
    pub error_rate: f64,
    /// Probability of a 4xx (0–1).
    pub client_error_rate: f64,
    /// Probability that a success is a computed empty result (0–1).
    pub empty_rate: f64,
}

/// What a hop is.
#[derive(Clone, Debug, PartialEq)]
pub enum HopKind {
    /// A service that calls the next hop and its side dependencies.
    Layer {
        /// Its own deadline (µs from a call's arrival): started for calls that arrive
        /// without one, the earlier of the two for calls that arrive with one.
        deadline: Option<Micros>,
        /// Its clients, next hop first.
        deps: Range<usize>,
        /// The pool its `use_shared_pool` clients draw from.
        shared_pool: Option<SharedPoolSpec>,
    },
    /// A service at the bottom: works, then answers.
    Leaf(LeafBehaviour),
}

/// Whether a leaf is the chain's leaf or a side dependency (for the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HopRole {
    /// A retrying layer.
    Layer,
    /// The leaf at the bottom of the chain.
    Leaf,
    /// A side dependency.
    Side,
}

/// One service.
#[derive(Clone, Debug, PartialEq)]
pub struct HopSpec {
    /// Its name.
    pub name: String,
    /// Layer or leaf.
    pub kind: HopKind,
    /// Layer, the chain's leaf, or a side dependency.
    pub role: HopRole,
    /// Its workers.
    pub pool: WorkerPoolSpec,
    /// Its admission control.
    pub admission: Option<AdmissionSpec>,
    /// Refuse work with less deadline budget than this left (µs).
    pub min_budget: Micros,
    /// Its own work per call.
    pub work: Dist,
    /// The work time when it never varies (constant, no latency or down faults).
    pub fixed_work: Option<Micros>,
    /// Its fault windows.
    pub faults: FaultTimeline,
}

/// How a caller isolates its calls to one dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Its own bulkhead.
    Bulkhead(BulkheadSpec),
    /// A slot of the layer's shared pool.
    SharedPool,
}

/// The retry policy in µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetrySpec {
    /// Attempts, the first included.
    pub max_attempts: u32,
    /// Which failures are retried.
    pub retry_on: RetryOn,
    /// Backoff and jitter.
    pub backoff: BackoffUs,
    /// Whether a Retry-After lengthens the wait.
    pub honor_retry_after: bool,
}

/// One caller's policy stack towards one dependency.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientSpec {
    /// The calling hop.
    pub caller: usize,
    /// The called hop.
    pub callee: usize,
    /// Its position among the caller's dependencies (0 = the next hop).
    pub dep_index: u32,
    /// Attempts, retried outcomes, backoff.
    pub retry: RetrySpec,
    /// Per-try timeout (µs).
    pub per_try: Option<Micros>,
    /// Minimum deadline budget an attempt needs (µs).
    pub min_useful: Micros,
    /// The retry budget.
    pub retry_budget: Option<RetryBudgetConfig>,
    /// The circuit breaker.
    pub breaker: Option<BreakerConfig>,
    /// A bulkhead or a shared-pool slot.
    pub isolation: Option<Isolation>,
    /// Present: the dependency is optional.
    pub fallback: Option<Fallback>,
    /// Share of requests that need this dependency (0–1).
    pub needed_by: f64,
    /// The stages inside the retry that this client has, outermost first, as the engine
    /// applies them (see `policy::stack`).
    pub stages: Stages,
}

impl ClientSpec {
    /// The whole stack as the report shows it: `retry` (when it may retry) and the stages.
    pub fn stack(&self) -> Vec<Stage> {
        let retry = (self.retry.max_attempts > 1).then_some(Stage::Retry);
        retry.into_iter().chain(self.stages.iter()).collect()
    }
}

/// A compiled scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The scenario's name.
    pub name: String,
    /// Every service, entry first.
    pub hops: Vec<HopSpec>,
    /// Every caller → dependency stack.
    pub clients: Vec<ClientSpec>,
    /// Whether a caller's timeout cancels the abandoned work.
    pub cancel_on_timeout: bool,
    /// When arrivals end (µs).
    pub arrival_end: Micros,
}

impl Plan {
    /// The index of the chain's leaf.
    pub fn leaf(&self) -> usize {
        self.hops.iter().position(|h| h.role == HopRole::Leaf).unwrap_or(0)
    }
}

fn admission(a: &crate::scenario::AdmissionConfig) -> AdmissionSpec {
    AdmissionSpec {
        bucket: a.token_bucket.map(|tb| TokenBucketSpec {
            capacity: u64::from(tb.capacity) * CREDITS_PER_TOKEN,
            rate: libm::round(tb.rate_per_s * 1000.0) as u64,
            cost: u64::from(tb.cost) * CREDITS_PER_TOKEN,
        }),
        limit: a.concurrency_limit,
        retry_after: ms_to_us(a.retry_after_ms),
    }
}

fn hop(
    name: &str,
    kind: HopKind,
    role: HopRole,
    server: &Server,
    work: Dist,
    faults: FaultTimeline,
) -> HopSpec {
    let fixed_work = match work {
        Dist::Constant { ms } if !faults.varies_work => Some(ms_to_us(ms)),
        _ => None,
    };
    HopSpec {
        name: name.to_string(),
        kind,
        role,
        pool: WorkerPoolSpec {
            workers: server.workers,
            queue: server.queue,
            queue_timeout: server.queue_timeout_ms.map(ms_to_us),
        },
        admission: server.admission.as_ref().map(admission),
        min_budget: ms_to_us(server.min_budget_ms),
        work,
        fixed_work,
        faults,
    }
}

fn leaf(l: &Leaf, role: HopRole, s: &Scenario) -> HopSpec {
    let kind = HopKind::Leaf(LeafBehaviour {
        error_rate: l.error_rate,
        client_error_rate: l.client_error_rate,
        empty_rate: l.empty_rate,
    });
    hop(&l.name, kind, role, &l.server, l.work, FaultTimeline::new(&s.faults, &l.name))
}

/// Which stages a client has, in its order.
fn stages(c: &Client, deadline_reaches: bool) -> Stages {
    let order = c.stack.as_deref().unwrap_or(&DEFAULT_ORDER);
    Stages::new(order.iter().copied().filter(|s| match s {
        Stage::Retry => false,
        Stage::Deadline => deadline_reaches,
        Stage::RetryBudget => c.retry_budget.is_some(),
        Stage::Breaker => c.breaker.is_some(),
        Stage::Timeout => c.per_try_timeout_ms.is_some() || deadline_reaches,
        Stage::Bulkhead => c.bulkhead.is_some() || c.use_shared_pool,
    }))
}

fn client(
    c: &Client,
    caller: usize,
    callee: usize,
    dep_index: u32,
    needed_by: f64,
    deadline_reaches: bool,
) -> ClientSpec {
    let isolation = match (c.bulkhead, c.use_shared_pool) {
        (Some(b), _) => Some(Isolation::Bulkhead(BulkheadSpec {
            max_concurrent: b.max_concurrent,
            max_queue: b.max_queue,
            queue_timeout: b.queue_timeout_ms.map(ms_to_us),
        })),
        (None, true) => Some(Isolation::SharedPool),
        (None, false) => None,
    };
    ClientSpec {
        caller,
        callee,
        dep_index,
        retry: RetrySpec {
            max_attempts: c.retry.max_attempts.max(1),
            retry_on: c.retry.retry_on,
            backoff: BackoffUs::new(c.retry.backoff, c.retry.jitter),
            honor_retry_after: c.retry.honor_retry_after,
        },
        per_try: c.per_try_timeout_ms.map(ms_to_us),
        min_useful: ms_to_us(c.min_useful_ms),
        retry_budget: c.retry_budget,
        breaker: c.breaker,
        isolation,
        fallback: c.fallback,
        needed_by,
        stages: stages(c, deadline_reaches),
    }
}

/// Compiles a validated scenario.
pub fn compile(s: &Scenario) -> Plan {
    let n_layers = s.layers.len();
    let leaf_index = n_layers;
    let mut hops = Vec::new();
    let mut clients = Vec::new();
    let mut side_hops = Vec::new();
    let mut deadline_reaches = false;
    for (i, l) in s.layers.iter().enumerate() {
        deadline_reaches |= l.deadline_ms.is_some();
        let next = if i + 1 < n_layers { i + 1 } else { leaf_index };
        let first = clients.len();
        clients.push(client(&l.client, i, next, 0, 1.0, deadline_reaches));
        for (j, d) in l.side_deps.iter().enumerate() {
            let idx = leaf_index + 1 + side_hops.len();
            side_hops.push(leaf(&d.target, HopRole::Side, s));
            clients.push(client(&d.client, i, idx, j as u32 + 1, d.needed_by, deadline_reaches));
        }
        let kind = HopKind::Layer {
            deadline: l.deadline_ms.map(ms_to_us),
            deps: first..clients.len(),
            shared_pool: l.shared_pool.map(|p| SharedPoolSpec { size: p.size, queue: p.queue }),
        };
        hops.push(hop(&l.name, kind, HopRole::Layer, &l.server, l.work, FaultTimeline::default()));
    }
    hops.push(leaf(&s.leaf, HopRole::Leaf, s));
    hops.extend(side_hops);
    let arrival_end = ms_to_us(s.load.duration_ms());
    Plan { name: s.name.clone(), hops, clients, cancel_on_timeout: s.cancel_on_timeout, arrival_end }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn hops_and_clients_are_numbered_entry_first() {
        let p = compile(&presets::big_promo_protected());
        let names: Vec<&str> = p.hops.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["app", "product", "order-core", "recommendations"]);
        let roles: Vec<HopRole> = p.hops.iter().map(|h| h.role).collect();
        assert_eq!(roles, [HopRole::Layer, HopRole::Layer, HopRole::Leaf, HopRole::Side]);
        let edges: Vec<(usize, usize, u32)> =
            p.clients.iter().map(|c| (c.caller, c.callee, c.dep_index)).collect();
        assert_eq!(edges, [(0, 1, 0), (1, 2, 0), (1, 3, 1)]);
        assert_eq!(p.leaf(), 2);
        assert!(matches!(p.hops[1].kind, HopKind::Layer { ref deps, .. } if *deps == (1..3)));
    }

    #[test]
    fn stacks_hold_the_stages_a_client_has_in_its_order() {
        let p = compile(&presets::big_promo_protected());
        let names = |c: &ClientSpec| c.stack().iter().map(|s| s.name()).collect::<Vec<_>>().join(" ");
        assert_eq!(names(&p.clients[0]), "retry retry_budget timeout");
        assert_eq!(names(&p.clients[1]), "timeout bulkhead");
        assert_eq!(names(&p.clients[2]), "breaker timeout bulkhead");
        let mut s = presets::big_promo_protected();
        s.layers[1].side_deps[0].client.stack = Some(vec![
            Stage::Retry,
            Stage::Bulkhead,
            Stage::Timeout,
            Stage::Deadline,
            Stage::Breaker,
            Stage::RetryBudget,
        ]);
        s.layers[0].deadline_ms = Some(300.0);
        let p = compile(&s);
        assert_eq!(names(&p.clients[2]), "bulkhead timeout deadline breaker");
        assert_eq!(
            names(&p.clients[0]),
            "retry deadline retry_budget timeout",
            "a deadline reaches every caller below it"
        );
    }

    #[test]
    fn times_are_whole_microseconds_and_buckets_whole_credits() {
        let p = compile(&presets::lab11_protected());
        let a = p.hops[0].admission.unwrap();
        assert_eq!(
            a.bucket,
            Some(TokenBucketSpec { capacity: 20 * CREDITS_PER_TOKEN, rate: 20_000, cost: CREDITS_PER_TOKEN })
        );
        assert_eq!(a.retry_after, 1_000_000);
        assert!(matches!(p.hops[0].kind, HopKind::Layer { deadline: Some(250_000), .. }));
        assert_eq!(p.hops[2].fixed_work, Some(100_000));
        assert_eq!(p.clients[1].min_useful, 100_000);
        assert_eq!(p.arrival_end, 0);
    }
}
