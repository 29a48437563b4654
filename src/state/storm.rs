//! The retry-storm page's state: a preset, the learner's edits to it (scenario A), the
//! seed, compare mode, and the URL that reproduces all of it.
//!
//! Every knob of the chain scenario is described once here (range, scale, unit, help,
//! URL key) over an *index* that says what it applies to: the whole run, layer `i`, the
//! leaf, side dependency `i` or fault window `i` (see [`Target`]). The same client knobs
//! serve layers and side dependencies.

use super::{FieldKey, FormErrors};
use crate::error::{FieldError, fmt_num};
use crate::i18n::T;
use crate::knob::{Choice, Knob, Scale};
use crate::policy::breaker::BreakerConfig;
use crate::policy::bulkhead::BulkheadConfig;
use crate::policy::retry::{Backoff, Jitter};
use crate::policy::retry_budget::RetryBudgetConfig;
use crate::query::Query;
use crate::scenario::presets::{self, Preset};
use crate::scenario::*;

// ---- targets --------------------------------------------------------------------------

/// What a knob applies to, encoded in the knob index: `kind << 16 | item`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The whole run (load, cancellation).
    Run,
    /// Layer `i` (its server and its client towards the next hop).
    Layer(usize),
    /// The leaf service.
    Leaf,
    /// Side dependency `i`, counting across layers in order (its target and client).
    Side(usize),
    /// Fault window `i`.
    Fault(usize),
}

impl Target {
    /// Encodes as a knob index.
    pub fn index(self) -> usize {
        match self {
            Target::Layer(i) => i,
            Target::Side(i) => (1 << 16) | i,
            Target::Leaf => 2 << 16,
            Target::Run => 3 << 16,
            Target::Fault(i) => (4 << 16) | i,
        }
    }

    /// Decodes a knob index.
    pub fn from_index(idx: usize) -> Target {
        let i = idx & 0xFFFF;
        match idx >> 16 {
            0 => Target::Layer(i),
            1 => Target::Side(i),
            2 => Target::Leaf,
            4 => Target::Fault(i),
            _ => Target::Run,
        }
    }

    /// The URL prefix: `l1.`, `s1.`, `leaf.`, `f1.` (1-based), or nothing for the run.
    pub fn prefix(self) -> String {
        match self {
            Target::Run => String::new(),
            Target::Layer(i) => format!("l{}.", i + 1),
            Target::Side(i) => format!("s{}.", i + 1),
            Target::Leaf => "leaf.".into(),
            Target::Fault(i) => format!("f{}.", i + 1),
        }
    }

    /// Reads a URL key into a target and the knob key (`l2.attempts` → layer 1,
    /// `attempts`).
    pub fn parse_key(url_key: &str) -> Option<(Target, &str)> {
        let Some((head, rest)) = url_key.split_once('.') else { return Some((Target::Run, url_key)) };
        if head == "leaf" {
            return Some((Target::Leaf, rest));
        }
        let (kind, num) = head.split_at(1);
        let n: usize = num.parse().ok()?;
        if n == 0 || n > 64 {
            return None;
        }
        let t = match kind {
            "l" => Target::Layer(n - 1),
            "s" => Target::Side(n - 1),
            "f" => Target::Fault(n - 1),
            _ => return None,
        };
        Some((t, rest))
    }
}

fn side(s: &Scenario, i: usize) -> Option<&SideDep> {
    s.layers.iter().flat_map(|l| l.side_deps.iter()).nth(i)
}

fn side_mut(s: &mut Scenario, i: usize) -> Option<&mut SideDep> {
    s.layers.iter_mut().flat_map(|l| l.side_deps.iter_mut()).nth(i)
}

/// The layer a side dependency belongs to.
pub fn side_owner(s: &Scenario, i: usize) -> Option<usize> {
    let mut n = 0;
    for (li, l) in s.layers.iter().enumerate() {
        if i < n + l.side_deps.len() {
            return Some(li);
        }
        n += l.side_deps.len();
    }
    None
}

/// Number of side dependencies in the scenario.
pub fn side_count(s: &Scenario) -> usize {
    s.layers.iter().map(|l| l.side_deps.len()).sum()
}

fn client(s: &Scenario, idx: usize) -> Option<&Client> {
    match Target::from_index(idx) {
        Target::Layer(i) => s.layers.get(i).map(|l| &l.client),
        Target::Side(i) => side(s, i).map(|d| &d.client),
        _ => None,
    }
}

fn client_mut(s: &mut Scenario, idx: usize) -> Option<&mut Client> {
    match Target::from_index(idx) {
        Target::Layer(i) => s.layers.get_mut(i).map(|l| &mut l.client),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.client),
        _ => None,
    }
}

fn server(s: &Scenario, idx: usize) -> Option<&Server> {
    match Target::from_index(idx) {
        Target::Layer(i) => s.layers.get(i).map(|l| &l.server),
        Target::Leaf => Some(&s.leaf.server),
        Target::Side(i) => side(s, i).map(|d| &d.target.server),
        _ => None,
    }
}

fn server_mut(s: &mut Scenario, idx: usize) -> Option<&mut Server> {
    match Target::from_index(idx) {
        Target::Layer(i) => s.layers.get_mut(i).map(|l| &mut l.server),
        Target::Leaf => Some(&mut s.leaf.server),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.target.server),
        _ => None,
    }
}

fn service(s: &Scenario, idx: usize) -> Option<&Leaf> {
    match Target::from_index(idx) {
        Target::Leaf => Some(&s.leaf),
        Target::Side(i) => side(s, i).map(|d| &d.target),
        _ => None,
    }
}

fn service_mut(s: &mut Scenario, idx: usize) -> Option<&mut Leaf> {
    match Target::from_index(idx) {
        Target::Leaf => Some(&mut s.leaf),
        Target::Side(i) => side_mut(s, i).map(|d| &mut d.target),
        _ => None,
    }
}

fn fault(s: &Scenario, idx: usize) -> Option<&Fault> {
    match Target::from_index(idx) {
        Target::Fault(i) => s.faults.get(i),
        _ => None,
    }
}

fn fault_mut(s: &mut Scenario, idx: usize) -> Option<&mut Fault> {
    match Target::from_index(idx) {
        Target::Fault(i) => s.faults.get_mut(i),
        _ => None,
    }
}

fn opt(v: f64) -> Option<f64> {
    (v > 0.0).then_some(v)
}

fn opt_u32(v: f64) -> Option<u32> {
    (v > 0.0).then_some(v as u32)
}

// ---- knob groups ----------------------------------------------------------------------

/// Where a control sits on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Load,
    Deadline,
    Retry,
    Budget,
    Admission,
    Workers,
    Bulkhead,
    Breaker,
    Fallback,
    Service,
    Faults,
}

impl Group {
    /// The heading of the group.
    pub fn title(self) -> T {
        match self {
            Group::Load => T::GroupLoad,
            Group::Deadline => T::GroupDeadline,
            Group::Retry => T::GroupRetry,
            Group::Budget => T::GroupBudget,
            Group::Admission => T::GroupAdmission,
            Group::Workers => T::GroupWorkers,
            Group::Bulkhead => T::GroupBulkhead,
            Group::Breaker => T::GroupBreaker,
            Group::Fallback => T::GroupFallback,
            Group::Service => T::GroupService,
            Group::Faults => T::GroupFaults,
        }
    }
}

/// Which kinds of target a control applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Run,
    /// Layers and side dependencies (a client).
    Client,
    /// Layers, the leaf and side dependencies (a server).
    Server,
    /// Layers only.
    Layer,
    /// The leaf and side dependencies (a service that does work and fails).
    Service,
    Fault,
}

impl Applies {
    /// Whether a target is of this kind.
    pub fn to(self, t: Target) -> bool {
        matches!(
            (self, t),
            (Applies::Run, Target::Run)
                | (Applies::Client, Target::Layer(_) | Target::Side(_))
                | (Applies::Server, Target::Layer(_) | Target::Leaf | Target::Side(_))
                | (Applies::Layer, Target::Layer(_))
                | (Applies::Service, Target::Leaf | Target::Side(_))
                | (Applies::Fault, Target::Fault(_))
        )
    }
}

/// A numeric control of the page.
pub struct NumberDef {
    pub group: Group,
    pub applies: Applies,
    pub knob: Knob<Scenario>,
}

/// A select control of the page.
pub struct ChoiceDef {
    pub group: Group,
    pub applies: Applies,
    pub choice: Choice<Scenario>,
}

macro_rules! num {
    ($group:ident, $applies:ident, $key:literal, $label:ident, $help:ident, $unit:ident,
     $min:expr, $max:expr, $step:expr, $int:expr, $scale:ident, $off:expr, $get:expr, $set:expr) => {
        NumberDef {
            group: Group::$group,
            applies: Applies::$applies,
            knob: Knob {
                key: $key,
                label: T::$label,
                help: T::$help,
                unit: T::$unit,
                min: $min,
                max: $max,
                step: $step,
                integer: $int,
                scale: Scale::$scale,
                off: $off,
                get: $get,
                set: $set,
            },
        }
    };
}

const MS_MAX: f64 = 600_000.0;

/// Every numeric control, in page order within each group.
pub static NUMBERS: &[NumberDef] = &[
    // -- load --
    num!(
        Load,
        Run,
        "rate",
        KRate,
        KRateHelp,
        UnitRps,
        0.1,
        100_000.0,
        0.1,
        false,
        Log,
        false,
        |s, _| match s.load {
            Load::Batch { .. } => None,
            Load::Constant { rate_per_s, .. } | Load::Poisson { rate_per_s, .. } => Some(rate_per_s),
        },
        |s, _, v| if let Load::Constant { rate_per_s, .. } | Load::Poisson { rate_per_s, .. } = &mut s.load {
            *rate_per_s = v
        }
    ),
    num!(
        Load,
        Run,
        "peak",
        KPeak,
        KPeakHelp,
        UnitTimes,
        0.1,
        20.0,
        0.1,
        false,
        Log,
        false,
        |s, _| match s.load {
            Load::Batch { .. } => None,
            Load::Constant { peak_factor, .. } | Load::Poisson { peak_factor, .. } => Some(peak_factor),
        },
        |s, _, v| if let Load::Constant { peak_factor, .. } | Load::Poisson { peak_factor, .. } = &mut s.load
        {
            *peak_factor = v
        }
    ),
    num!(
        Load,
        Run,
        "duration",
        KDuration,
        KDurationHelp,
        UnitMs,
        100.0,
        MS_MAX,
        100.0,
        false,
        Log,
        false,
        |s, _| match s.load {
            Load::Batch { .. } => None,
            Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => Some(duration_ms),
        },
        |s, _, v| if let Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } = &mut s.load
        {
            *duration_ms = v
        }
    ),
    num!(
        Load,
        Run,
        "requests",
        KRequests,
        KRequestsHelp,
        UnitRequests,
        1.0,
        100_000.0,
        1.0,
        true,
        Log,
        false,
        |s, _| match s.load {
            Load::Batch { requests } => Some(requests as f64),
            _ => None,
        },
        |s, _, v| if let Load::Batch { requests } = &mut s.load {
            *requests = v as u64
        }
    ),
    // -- deadline (client side) --
    num!(
        Deadline,
        Layer,
        "deadline",
        KDeadline,
        KDeadlineHelp,
        UnitMs,
        1.0,
        MS_MAX,
        1.0,
        false,
        Log,
        true,
        |s, i| match Target::from_index(i) {
            Target::Layer(l) => s.layers.get(l).map(|x| x.deadline_ms.unwrap_or(0.0)),
            _ => None,
        },
        |s, i, v| if let Target::Layer(l) = Target::from_index(i)
            && let Some(x) = s.layers.get_mut(l)
        {
            x.deadline_ms = opt(v)
        }
    ),
    num!(
        Deadline,
        Client,
        "per_try",
        KPerTry,
        KPerTryHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        true,
        |s, i| client(s, i).map(|c| c.per_try_timeout_ms.unwrap_or(0.0)),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.per_try_timeout_ms = opt(v)
        }
    ),
    num!(
        Deadline,
        Client,
        "min_useful",
        KMinUseful,
        KMinUsefulHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        true,
        |s, i| client(s, i).map(|c| c.min_useful_ms),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.min_useful_ms = v
        }
    ),
    // -- retries --
    num!(
        Retry,
        Client,
        "attempts",
        KAttempts,
        KAttemptsHelp,
        UnitAttempts,
        1.0,
        10.0,
        1.0,
        true,
        Linear,
        false,
        |s, i| client(s, i).map(|c| f64::from(c.retry.max_attempts)),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.retry.max_attempts = v as u32
        }
    ),
    num!(
        Retry,
        Client,
        "backoff_ms",
        KBackoffMs,
        KBackoffMsHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| match c.retry.backoff {
            Backoff::None {} => None,
            Backoff::Fixed { ms } => Some(ms),
            Backoff::Exponential { base_ms, .. } => Some(base_ms),
        }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            match &mut c.retry.backoff {
                Backoff::None {} => {}
                Backoff::Fixed { ms } => *ms = v,
                Backoff::Exponential { base_ms, cap_ms } => {
                    *base_ms = v;
                    *cap_ms = cap_ms.max(v)
                }
            }
        }
    ),
    num!(
        Retry,
        Client,
        "backoff_cap",
        KBackoffCap,
        KBackoffCapHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| match c.retry.backoff {
            Backoff::Exponential { cap_ms, .. } => Some(cap_ms),
            _ => None,
        }),
        |s, i, v| if let Some(c) = client_mut(s, i)
            && let Backoff::Exponential { cap_ms, .. } = &mut c.retry.backoff
        {
            *cap_ms = v
        }
    ),
    // -- retry budget --
    num!(
        Budget,
        Client,
        "budget_max",
        KBudgetMax,
        KBudgetMaxHelp,
        UnitTokens,
        1.0,
        1000.0,
        1.0,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| match c.retry_budget {
            Some(
                RetryBudgetConfig::Ratio { max_tokens, .. } | RetryBudgetConfig::Grpc { max_tokens, .. },
            ) => Some(max_tokens),
            None => None,
        }),
        |s, i, v| if let Some(c) = client_mut(s, i)
            && let Some(
                RetryBudgetConfig::Ratio { max_tokens, .. } | RetryBudgetConfig::Grpc { max_tokens, .. },
            ) = &mut c.retry_budget
        {
            *max_tokens = v
        }
    ),
    num!(
        Budget,
        Client,
        "budget_ratio",
        KBudgetRatio,
        KBudgetRatioHelp,
        UnitTokens,
        0.001,
        1.0,
        0.001,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| match c.retry_budget {
            Some(
                RetryBudgetConfig::Ratio { retry_ratio: r, .. }
                | RetryBudgetConfig::Grpc { token_ratio: r, .. },
            ) => Some(r),
            None => None,
        }),
        |s, i, v| if let Some(c) = client_mut(s, i)
            && let Some(
                RetryBudgetConfig::Ratio { retry_ratio: r, .. }
                | RetryBudgetConfig::Grpc { token_ratio: r, .. },
            ) = &mut c.retry_budget
        {
            *r = v
        }
    ),
    // -- admission (server side) --
    num!(
        Admission,
        Server,
        "rate_limit",
        KRateLimit,
        KRateLimitHelp,
        UnitTokensPerS,
        0.1,
        100_000.0,
        0.1,
        false,
        Log,
        true,
        |s, i| server(s, i).map(|sv| sv
            .admission
            .as_ref()
            .and_then(|a| a.token_bucket)
            .map_or(0.0, |b| b.rate_per_s)),
        |s, i, v| if let Some(sv) = server_mut(s, i) {
            set_rate_limit(sv, v)
        }
    ),
    num!(
        Admission,
        Server,
        "burst",
        KBurst,
        KBurstHelp,
        UnitTokens,
        1.0,
        100_000.0,
        1.0,
        true,
        Log,
        false,
        |s, i| server(s, i)
            .and_then(|sv| sv.admission.as_ref().and_then(|a| a.token_bucket))
            .map(|b| f64::from(b.capacity)),
        |s, i, v| if let Some(b) =
            server_mut(s, i).and_then(|sv| sv.admission.as_mut()).and_then(|a| a.token_bucket.as_mut())
        {
            b.capacity = v as u32
        }
    ),
    num!(
        Admission,
        Server,
        "concurrency",
        KConcurrency,
        KConcurrencyHelp,
        UnitCalls,
        1.0,
        100_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| server(s, i).map(|sv| sv
            .admission
            .as_ref()
            .and_then(|a| a.concurrency_limit)
            .map_or(0.0, f64::from)),
        |s, i, v| if let Some(sv) = server_mut(s, i) {
            set_concurrency_limit(sv, v)
        }
    ),
    // -- workers (server side) --
    num!(
        Workers,
        Server,
        "workers",
        KWorkers,
        KWorkersHelp,
        UnitWorkers,
        1.0,
        100_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| server(s, i).map(|sv| sv.workers.map_or(0.0, f64::from)),
        |s, i, v| if let Some(sv) = server_mut(s, i) {
            sv.workers = opt_u32(v)
        }
    ),
    num!(
        Workers,
        Server,
        "queue",
        KQueue,
        KQueueHelp,
        UnitCalls,
        1.0,
        100_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| server(s, i).and_then(|sv| sv.workers.map(|_| sv.queue.map_or(0.0, f64::from))),
        |s, i, v| if let Some(sv) = server_mut(s, i) {
            sv.queue = opt_u32(v)
        }
    ),
    num!(
        Workers,
        Server,
        "queue_timeout",
        KQueueTimeout,
        KQueueTimeoutHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        true,
        |s, i| server(s, i).and_then(|sv| sv.workers.map(|_| sv.queue_timeout_ms.unwrap_or(0.0))),
        |s, i, v| if let Some(sv) = server_mut(s, i) {
            sv.queue_timeout_ms = opt(v)
        }
    ),
    // -- bulkhead (client side) --
    num!(
        Bulkhead,
        Client,
        "bulkhead",
        KBulkhead,
        KBulkheadHelp,
        UnitCalls,
        1.0,
        10_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| client(s, i).and_then(
            |c| (!c.use_shared_pool).then(|| c.bulkhead.map_or(0.0, |b| f64::from(b.max_concurrent)))
        ),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            set_bulkhead(c, v)
        }
    ),
    num!(
        Bulkhead,
        Client,
        "bulkhead_queue",
        KBulkheadQueue,
        KBulkheadQueueHelp,
        UnitCalls,
        1.0,
        10_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| client(s, i).and_then(|c| c.bulkhead).map(|b| f64::from(b.max_queue)),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.bulkhead.as_mut()) {
            b.max_queue = v as u32
        }
    ),
    num!(
        Bulkhead,
        Layer,
        "shared_pool",
        KSharedPool,
        KSharedPoolHelp,
        UnitWorkers,
        1.0,
        10_000.0,
        1.0,
        true,
        Log,
        true,
        |s, i| match Target::from_index(i) {
            Target::Layer(l) => s.layers.get(l).map(|x| x.shared_pool.map_or(0.0, |p| f64::from(p.size))),
            _ => None,
        },
        |s, i, v| if let Target::Layer(l) = Target::from_index(i)
            && let Some(x) = s.layers.get_mut(l)
        {
            set_shared_pool(x, v)
        }
    ),
    // -- breaker (client side) --
    num!(
        Breaker,
        Client,
        "window",
        KWindow,
        KWindowHelp,
        UnitCalls,
        1.0,
        1000.0,
        1.0,
        true,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.window)),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.window = v as u32;
            b.min_calls = b.min_calls.min(b.window)
        }
    ),
    num!(
        Breaker,
        Client,
        "min_calls",
        KMinCalls,
        KMinCallsHelp,
        UnitCalls,
        1.0,
        1000.0,
        1.0,
        true,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.min_calls)),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.min_calls = v as u32
        }
    ),
    num!(
        Breaker,
        Client,
        "failure_pct",
        KFailurePct,
        KFailurePctHelp,
        UnitPercent,
        1.0,
        100.0,
        1.0,
        false,
        Linear,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| b.failure_rate_pct),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.failure_rate_pct = v
        }
    ),
    num!(
        Breaker,
        Client,
        "open_ms",
        KOpenMs,
        KOpenMsHelp,
        UnitMs,
        1.0,
        MS_MAX,
        1.0,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| b.open_ms),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.open_ms = v
        }
    ),
    num!(
        Breaker,
        Client,
        "half_open",
        KHalfOpen,
        KHalfOpenHelp,
        UnitCalls,
        1.0,
        100.0,
        1.0,
        true,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.half_open_calls)),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.half_open_calls = v as u32
        }
    ),
    num!(
        Breaker,
        Client,
        "instances",
        KInstances,
        KInstancesHelp,
        UnitInstances,
        1.0,
        64.0,
        1.0,
        true,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.instances)),
        |s, i, v| if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
            b.instances = v as u32
        }
    ),
    // -- fallback --
    num!(
        Fallback,
        Client,
        "stale_age",
        KStaleAge,
        KStaleAgeHelp,
        UnitMs,
        1.0,
        86_400_000.0,
        1.0,
        false,
        Log,
        false,
        |s, i| client(s, i).and_then(|c| match c.fallback {
            Some(Fallback::Stale { age_ms }) => Some(age_ms),
            _ => None,
        }),
        |s, i, v| if let Some(Some(Fallback::Stale { age_ms })) = client_mut(s, i).map(|c| &mut c.fallback) {
            *age_ms = v
        }
    ),
    // -- service behaviour (leaf and side dependencies) --
    num!(
        Service,
        Layer,
        "work",
        KLayerWork,
        KLayerWorkHelp,
        UnitMs,
        0.1,
        MS_MAX,
        0.1,
        false,
        Log,
        true,
        |s, i| match Target::from_index(i) {
            Target::Layer(l) => s.layers.get(l).map(|x| x.work.mean_ms()),
            _ => None,
        },
        |s, i, v| if let Target::Layer(l) = Target::from_index(i)
            && let Some(x) = s.layers.get_mut(l)
        {
            x.work = Dist::Constant { ms: v }
        }
    ),
    num!(
        Service,
        Service,
        "ms",
        KWorkMs,
        KWorkMsHelp,
        UnitMs,
        0.01,
        MS_MAX,
        0.01,
        false,
        Log,
        false,
        |s, i| service(s, i).map(|l| match l.work {
            Dist::Constant { ms } => ms,
            Dist::Exponential { mean_ms } => mean_ms,
            Dist::LogNormal { median_ms, .. } => median_ms,
        }),
        |s, i, v| if let Some(l) = service_mut(s, i) {
            match &mut l.work {
                Dist::Constant { ms } => *ms = v,
                Dist::Exponential { mean_ms } => *mean_ms = v,
                Dist::LogNormal { median_ms, p99_ms } => {
                    *median_ms = v;
                    *p99_ms = p99_ms.max(v)
                }
            }
        }
    ),
    num!(
        Service,
        Service,
        "p99",
        KP99,
        KP99Help,
        UnitMs,
        0.01,
        MS_MAX,
        0.01,
        false,
        Log,
        false,
        |s, i| service(s, i).and_then(|l| match l.work {
            Dist::LogNormal { p99_ms, .. } => Some(p99_ms),
            _ => None,
        }),
        |s, i, v| if let Some(l) = service_mut(s, i)
            && let Dist::LogNormal { p99_ms, .. } = &mut l.work
        {
            *p99_ms = v
        }
    ),
    num!(
        Service,
        Service,
        "error",
        KErrorRate,
        KErrorRateHelp,
        UnitProbability,
        0.0,
        1.0,
        0.01,
        false,
        Linear,
        false,
        |s, i| service(s, i).map(|l| l.error_rate),
        |s, i, v| if let Some(l) = service_mut(s, i) {
            l.error_rate = v
        }
    ),
    num!(
        Service,
        Service,
        "empty",
        KEmptyRate,
        KEmptyRateHelp,
        UnitProbability,
        0.0,
        1.0,
        0.01,
        false,
        Linear,
        false,
        |s, i| service(s, i).map(|l| l.empty_rate),
        |s, i, v| if let Some(l) = service_mut(s, i) {
            l.empty_rate = v
        }
    ),
    // -- fault windows --
    num!(
        Faults,
        Fault,
        "start",
        KFaultStart,
        KFaultStartHelp,
        UnitMs,
        0.0,
        MS_MAX,
        100.0,
        false,
        Linear,
        false,
        |s, i| fault(s, i).map(|f| f.start_ms),
        |s, i, v| if let Some(f) = fault_mut(s, i) {
            f.start_ms = v;
            f.end_ms = f.end_ms.max(v)
        }
    ),
    num!(
        Faults,
        Fault,
        "end",
        KFaultEnd,
        KFaultEndHelp,
        UnitMs,
        0.0,
        MS_MAX,
        100.0,
        false,
        Linear,
        false,
        |s, i| fault(s, i).map(|f| f.end_ms),
        |s, i, v| if let Some(f) = fault_mut(s, i) {
            f.end_ms = v.max(f.start_ms)
        }
    ),
    num!(
        Faults,
        Fault,
        "factor",
        KFaultFactor,
        KFaultFactorHelp,
        UnitTimes,
        0.1,
        100.0,
        0.1,
        false,
        Log,
        false,
        |s, i| fault(s, i).and_then(|f| match f.effect {
            FaultEffect::Latency { factor } | FaultEffect::Surge { factor } => Some(factor),
            _ => None,
        }),
        |s, i, v| if let Some(f) = fault_mut(s, i)
            && let FaultEffect::Latency { factor } | FaultEffect::Surge { factor } = &mut f.effect
        {
            *factor = v
        }
    ),
    num!(
        Faults,
        Fault,
        "rate",
        KFaultRate,
        KFaultRateHelp,
        UnitProbability,
        0.0,
        1.0,
        0.01,
        false,
        Linear,
        false,
        |s, i| fault(s, i).and_then(|f| match f.effect {
            FaultEffect::ErrorRate { rate } => Some(rate),
            _ => None,
        }),
        |s, i, v| if let Some(f) = fault_mut(s, i)
            && let FaultEffect::ErrorRate { rate } = &mut f.effect
        {
            *rate = v
        }
    ),
];

fn set_rate_limit(sv: &mut Server, v: f64) {
    let adm = sv.admission.get_or_insert(AdmissionConfig {
        token_bucket: None,
        concurrency_limit: None,
        retry_after_ms: 1000.0,
    });
    if v > 0.0 {
        let rate = (v * 1000.0).round() / 1000.0;
        match &mut adm.token_bucket {
            Some(b) => b.rate_per_s = rate,
            None => {
                adm.token_bucket = Some(TokenBucketConfig {
                    capacity: (rate.ceil() as u32).max(1),
                    rate_per_s: rate,
                    cost: 1,
                })
            }
        }
    } else {
        adm.token_bucket = None;
    }
    if adm.token_bucket.is_none() && adm.concurrency_limit.is_none() {
        sv.admission = None;
    }
}

fn set_concurrency_limit(sv: &mut Server, v: f64) {
    let adm = sv.admission.get_or_insert(AdmissionConfig {
        token_bucket: None,
        concurrency_limit: None,
        retry_after_ms: 1000.0,
    });
    adm.concurrency_limit = opt_u32(v);
    if adm.token_bucket.is_none() && adm.concurrency_limit.is_none() {
        sv.admission = None;
    }
}

fn set_bulkhead(c: &mut Client, v: f64) {
    c.bulkhead = match (opt_u32(v), c.bulkhead) {
        (None, _) => None,
        (Some(n), Some(b)) => Some(BulkheadConfig { max_concurrent: n, ..b }),
        (Some(n), None) => Some(BulkheadConfig { max_concurrent: n, max_queue: 0, queue_timeout_ms: None }),
    };
}

fn set_shared_pool(l: &mut Layer, v: f64) {
    match opt_u32(v) {
        Some(n) => l.shared_pool = Some(SharedPool { size: n, queue: l.shared_pool.and_then(|p| p.queue) }),
        None => {
            l.shared_pool = None;
            l.client.use_shared_pool = false;
            for d in &mut l.side_deps {
                d.client.use_shared_pool = false;
            }
        }
    }
}

macro_rules! choice {
    ($group:ident, $applies:ident, $key:literal, $label:ident, $help:ident, [$(($v:literal, $t:ident)),*], $get:expr, $set:expr) => {
        ChoiceDef {
            group: Group::$group,
            applies: Applies::$applies,
            choice: Choice { key: $key, label: T::$label, help: T::$help, options: &[$(($v, T::$t)),*], get: $get, set: $set },
        }
    };
}

/// Every select control.
pub static CHOICES: &[ChoiceDef] = &[
    choice!(
        Load,
        Run,
        "pattern",
        KPattern,
        KPatternHelp,
        [("batch", OptBatch), ("constant", OptConstant), ("poisson", OptPoisson)],
        |s, _| Some(match s.load {
            Load::Batch { .. } => "batch",
            Load::Constant { .. } => "constant",
            Load::Poisson { .. } => "poisson",
        }),
        |s, _, v| set_pattern(s, v)
    ),
    choice!(
        Load,
        Run,
        "cancel",
        KCancel,
        KCancelHelp,
        [("off", OptOff), ("on", OptOn)],
        |s, _| Some(if s.cancel_on_timeout { "on" } else { "off" }),
        |s, _, v| s.cancel_on_timeout = v == "on"
    ),
    choice!(
        Retry,
        Client,
        "backoff",
        KBackoff,
        KBackoffHelp,
        [("none", OptNone), ("fixed", OptFixed), ("exponential", OptExponential)],
        |s, i| client(s, i).map(|c| match c.retry.backoff {
            Backoff::None {} => "none",
            Backoff::Fixed { .. } => "fixed",
            Backoff::Exponential { .. } => "exponential",
        }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            set_backoff(c, v)
        }
    ),
    choice!(
        Retry,
        Client,
        "jitter",
        KJitter,
        KJitterHelp,
        [("none", OptNone), ("full", OptFull), ("equal", OptEqual), ("decorrelated", OptDecorrelated)],
        |s, i| client(s, i).and_then(|c| (c.retry.backoff != Backoff::None {}).then_some(
            match c.retry.jitter {
                Jitter::None => "none",
                Jitter::Full => "full",
                Jitter::Equal => "equal",
                Jitter::Decorrelated => "decorrelated",
            }
        )),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.retry.jitter = match v {
                "full" => Jitter::Full,
                "equal" => Jitter::Equal,
                "decorrelated" => Jitter::Decorrelated,
                _ => Jitter::None,
            }
        }
    ),
    choice!(
        Retry,
        Client,
        "retry_timeouts",
        KRetryTimeouts,
        KRetryTimeoutsHelp,
        [("on", OptOn), ("off", OptOff)],
        |s, i| client(s, i).map(|c| if c.retry.retry_on.timeout { "on" } else { "off" }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.retry.retry_on.timeout = v == "on"
        }
    ),
    choice!(
        Budget,
        Client,
        "budget",
        KBudget,
        KBudgetHelp,
        [("none", OptNone), ("ratio", OptRatio), ("grpc", OptGrpc)],
        |s, i| client(s, i).map(|c| match c.retry_budget {
            None => "none",
            Some(RetryBudgetConfig::Ratio { .. }) => "ratio",
            Some(RetryBudgetConfig::Grpc { .. }) => "grpc",
        }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.retry_budget = match v {
                "ratio" => Some(RetryBudgetConfig::Ratio { max_tokens: 100.0, retry_ratio: 0.1 }),
                "grpc" => Some(RetryBudgetConfig::Grpc { max_tokens: 10.0, token_ratio: 0.1 }),
                _ => None,
            }
        }
    ),
    choice!(
        Bulkhead,
        Client,
        "pool",
        KPool,
        KPoolHelp,
        [("own", OptOwn), ("shared", OptShared)],
        |s, i| client(s, i).map(|c| if c.use_shared_pool { "shared" } else { "own" }),
        |s, i, v| set_pool_mode(s, i, v)
    ),
    choice!(
        Breaker,
        Client,
        "breaker",
        KBreaker,
        KBreakerHelp,
        [("off", OptOff), ("lazy", OptLazy), ("timed", OptTimed)],
        |s, i| client(s, i).map(|c| match c.breaker {
            None => "off",
            Some(b) if b.timed_half_open => "timed",
            Some(_) => "lazy",
        }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.breaker = match v {
                "off" => None,
                _ => Some(BreakerConfig { timed_half_open: v == "timed", ..c.breaker.unwrap_or_default() }),
            }
        }
    ),
    choice!(
        Fallback,
        Client,
        "fallback",
        KFallback,
        KFallbackHelp,
        [("none", OptNone), ("unavailable", OptUnavailable), ("stale", OptStale)],
        |s, i| client(s, i).map(|c| match c.fallback {
            None => "none",
            Some(Fallback::Unavailable {}) => "unavailable",
            Some(Fallback::Stale { .. }) => "stale",
        }),
        |s, i, v| if let Some(c) = client_mut(s, i) {
            c.fallback = match v {
                "unavailable" => Some(Fallback::Unavailable {}),
                "stale" => Some(Fallback::Stale { age_ms: 60_000.0 }),
                _ => None,
            }
        }
    ),
    choice!(
        Service,
        Service,
        "dist",
        KDist,
        KDistHelp,
        [("constant", OptConstantDist), ("exponential", OptExponentialDist), ("log_normal", OptLogNormal)],
        |s, i| service(s, i).map(|l| match l.work {
            Dist::Constant { .. } => "constant",
            Dist::Exponential { .. } => "exponential",
            Dist::LogNormal { .. } => "log_normal",
        }),
        |s, i, v| if let Some(l) = service_mut(s, i) {
            let m = l.work.mean_ms().max(0.01);
            l.work = match v {
                "exponential" => Dist::Exponential { mean_ms: m },
                "log_normal" => Dist::LogNormal { median_ms: m, p99_ms: m * 5.0 },
                _ => Dist::Constant { ms: m },
            }
        }
    ),
];

fn set_pattern(s: &mut Scenario, v: &str) {
    let (rate, peak, duration) = match s.load {
        Load::Constant { rate_per_s, peak_factor, duration_ms }
        | Load::Poisson { rate_per_s, peak_factor, duration_ms } => (rate_per_s, peak_factor, duration_ms),
        Load::Batch { requests } => (requests as f64, 1.0, 1000.0),
    };
    s.load = match v {
        "batch" => {
            Load::Batch { requests: (rate * peak * duration / 1000.0).round().clamp(1.0, 100_000.0) as u64 }
        }
        "constant" => Load::Constant { rate_per_s: rate, peak_factor: peak, duration_ms: duration },
        _ => Load::Poisson { rate_per_s: rate, peak_factor: peak, duration_ms: duration },
    };
}

fn set_backoff(c: &mut Client, v: &str) {
    let base = match c.retry.backoff {
        Backoff::None {} => 20.0,
        Backoff::Fixed { ms } => ms.max(0.1),
        Backoff::Exponential { base_ms, .. } => base_ms,
    };
    c.retry.backoff = match v {
        "fixed" => Backoff::Fixed { ms: base },
        "exponential" => Backoff::Exponential { base_ms: base, cap_ms: (base * 16.0).min(MS_MAX) },
        _ => Backoff::None {},
    };
    if c.retry.jitter == Jitter::Decorrelated && !matches!(c.retry.backoff, Backoff::Exponential { .. }) {
        c.retry.jitter = Jitter::None;
    }
}

fn set_pool_mode(s: &mut Scenario, idx: usize, v: &str) {
    let owner = match Target::from_index(idx) {
        Target::Layer(l) => Some(l),
        Target::Side(i) => side_owner(s, i),
        _ => None,
    };
    let Some(owner) = owner else { return };
    if v == "shared" && s.layers[owner].shared_pool.is_none() {
        s.layers[owner].shared_pool = Some(SharedPool { size: 8, queue: None });
    }
    if let Some(c) = client_mut(s, idx) {
        c.use_shared_pool = v == "shared";
        if c.use_shared_pool {
            c.bulkhead = None;
        }
    }
}

/// Looks up a numeric control by knob key.
pub fn number(key: &str) -> Option<&'static NumberDef> {
    NUMBERS.iter().find(|n| n.knob.key == key)
}

/// Looks up a select control by key.
pub fn choice(key: &str) -> Option<&'static ChoiceDef> {
    CHOICES.iter().find(|c| c.choice.key == key)
}

/// Every target a scenario has, in page order.
pub fn targets(s: &Scenario) -> Vec<Target> {
    let mut t = vec![Target::Run];
    t.extend((0..s.layers.len()).map(Target::Layer));
    t.push(Target::Leaf);
    t.extend((0..side_count(s)).map(Target::Side));
    t.extend((0..s.faults.len()).map(Target::Fault));
    t
}

/// The URL key of a control on a target.
pub fn url_key(key: &str, t: Target) -> String {
    format!("{}{}", t.prefix(), key)
}

// ---- state and reducer ----------------------------------------------------------------

/// What the retry-storm page holds.
#[derive(Clone, Debug, PartialEq)]
pub struct StormState {
    /// The preset the page started from.
    pub preset: &'static str,
    /// The scenario as edited (side A), always valid.
    pub a: Scenario,
    /// The seed of both sides.
    pub seed: u64,
    /// Whether side B is shown.
    pub compare: bool,
    /// Controls whose text or link value was not accepted.
    pub errors: FormErrors,
    /// A link parameter that names no control.
    pub unknown: Vec<String>,
}

/// Something the learner did on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum StormAction {
    /// Picked a preset.
    Preset(String),
    /// Committed text in a number field.
    Type(FieldKey, String),
    /// Moved a slider (0–1000).
    Slide(FieldKey, f64),
    /// Picked an option.
    Choose(FieldKey, String),
    /// Typed a seed.
    Seed(String),
    /// Asked for a different seed (the caller supplies it, so the reducer stays pure).
    NewSeed(u64),
    /// Turned compare mode on or off.
    Compare(bool),
    /// Back to the preset as it was.
    Reset,
}

/// The seed field's key in errors and the URL.
pub const SEED: FieldKey = FieldKey::plain("seed");

fn preset_or_default(name: &str) -> &'static Preset {
    presets::find(name).unwrap_or_else(|| presets::find(presets::DEFAULT).unwrap_or(&presets::all()[0]))
}

impl StormState {
    /// A page showing `preset` unchanged.
    pub fn new(preset: &str) -> Self {
        let p = preset_or_default(preset);
        let a = (p.build)();
        StormState {
            preset: p.name,
            seed: a.seed,
            a,
            compare: false,
            errors: FormErrors::default(),
            unknown: Vec::new(),
        }
    }

    /// The preset's unedited scenario.
    pub fn baseline(&self) -> Scenario {
        (preset_or_default(self.preset).build)()
    }

    /// Side B of compare mode: the preset's comparison scenario, or the unedited preset.
    pub fn side_b(&self) -> Scenario {
        let p = preset_or_default(self.preset);
        p.versus.map_or_else(|| (p.build)(), |b| b())
    }

    /// Applies an action.
    pub fn reduce(&self, action: StormAction) -> StormState {
        match action {
            StormAction::Preset(name) => StormState { compare: self.compare, ..StormState::new(&name) },
            StormAction::Reset => StormState { compare: self.compare, ..StormState::new(self.preset) },
            StormAction::Compare(on) => StormState { compare: on, ..self.clone() },
            StormAction::NewSeed(seed) => {
                let mut next = self.clone();
                next.seed = seed;
                next.errors.clear(&SEED);
                next
            }
            StormAction::Seed(raw) => {
                let mut next = self.clone();
                match raw.trim().parse::<u64>() {
                    Ok(v) => {
                        next.seed = v;
                        next.errors.clear(&SEED);
                    }
                    Err(_) => next.errors.set(SEED, raw.clone(), seed_error(&raw)),
                }
                next
            }
            StormAction::Type(key, raw) => {
                let Some(def) = number(key.key) else { return self.clone() };
                let idx = key.index.unwrap_or(0);
                match def.knob.parse(&raw, None).map_err(|e| self.named(e, key)) {
                    Ok(v) => self.apply(key, raw, |s| (def.knob.set)(s, idx, v)),
                    Err(e) => self.with_error(key, raw, e),
                }
            }
            StormAction::Slide(key, pos) => {
                let Some(def) = number(key.key) else { return self.clone() };
                let idx = key.index.unwrap_or(0);
                let v = def.knob.from_slider(pos);
                self.apply(key, fmt_num(v), |s| (def.knob.set)(s, idx, v))
            }
            StormAction::Choose(key, value) => {
                let Some(def) = choice(key.key) else { return self.clone() };
                let idx = key.index.unwrap_or(0);
                match def.choice.check(&value, None).map_err(|e| self.named(e, key)) {
                    Ok(v) => self.apply(key, value, |s| (def.choice.set)(s, idx, v)),
                    Err(e) => self.with_error(key, value, e),
                }
            }
        }
    }

    /// Renames an error's field to the control's URL key (`l2.attempts`).
    fn named(&self, mut e: FieldError, key: FieldKey) -> FieldError {
        e.field = url_key(key.key, Target::from_index(key.index.unwrap_or(0)));
        e
    }

    fn apply(&self, key: FieldKey, raw: String, f: impl FnOnce(&mut Scenario)) -> StormState {
        let mut a = self.a.clone();
        f(&mut a);
        match validate(&a) {
            Ok(()) => {
                let mut next = StormState { a, ..self.clone() };
                next.errors.clear(&key);
                next
            }
            Err(mut e) => {
                // Keep the last valid scenario; tell the learner which rule broke.
                e.field =
                    format!("{} ({})", url_key(key.key, Target::from_index(key.index.unwrap_or(0))), e.field);
                self.with_error(key, raw, e)
            }
        }
    }

    fn with_error(&self, key: FieldKey, raw: String, e: FieldError) -> StormState {
        let mut next = self.clone();
        next.errors.set(key, raw, e);
        next
    }

    /// Reads the page from a URL query: `preset`, `seed`, `compare`, then every changed
    /// control (`l2.attempts=4`, `leaf.error=0.5`, `f1.end=9000`, ...). A bad value keeps
    /// the preset's value for that control only and is reported by the control.
    pub fn from_query(q: &Query) -> StormState {
        let mut st = StormState::new(q.get("preset").unwrap_or(presets::DEFAULT));
        if let Some(p) = q.get("preset")
            && presets::find(p).is_none()
        {
            st.errors.set(
                FieldKey::plain("preset"),
                p.to_string(),
                FieldError::new(
                    "preset",
                    p,
                    crate::error::Allowed::OneOf {
                        choices: presets::all().iter().map(|p| p.name.to_string()).collect(),
                    },
                ),
            );
        }
        if let Some(raw) = q.get("seed") {
            st = st.reduce(StormAction::Seed(raw.to_string()));
        }
        st.compare = matches!(q.get("compare"), Some("1" | "true" | "on"));
        // Choices first: they create the structures numbers then tune.
        let mut numbers = Vec::new();
        for (k, v) in q.pairs() {
            if matches!(k.as_str(), "page" | "lang" | "preset" | "seed" | "compare") {
                continue;
            }
            let Some((target, key)) = Target::parse_key(k) else {
                st.unknown.push(k.clone());
                continue;
            };
            let fkey = |key: &'static str| FieldKey::at(key, target.index());
            if let Some(def) = choice(key)
                && def.applies.to(target)
                && (def.choice.get)(&st.a, target.index()).is_some()
            {
                st = st.reduce(StormAction::Choose(fkey(def.choice.key), v.clone()));
                continue;
            }
            if let Some(def) = number(key) {
                numbers.push((def, target, v.clone()));
                continue;
            }
            st.unknown.push(k.clone());
        }
        for (def, target, v) in numbers {
            if def.applies.to(target) && (def.knob.get)(&st.a, target.index()).is_some() {
                st = st.reduce(StormAction::Type(FieldKey::at(def.knob.key, target.index()), v));
            } else {
                st.unknown.push(url_key(def.knob.key, target));
            }
        }
        st
    }

    /// Writes the page into `q`: preset, seed, compare, and every control whose value
    /// differs from the preset's.
    pub fn write_query(&self, q: &mut Query) {
        q.set("preset", self.preset);
        q.set("seed", self.seed.to_string());
        if self.compare {
            q.set("compare", "1");
        } else {
            q.remove("compare");
        }
        let base = self.baseline();
        for t in targets(&self.a) {
            let idx = t.index();
            for def in CHOICES.iter().filter(|d| d.applies.to(t)) {
                let now = (def.choice.get)(&self.a, idx);
                if now.is_some() && now != (def.choice.get)(&base, idx) {
                    q.set(&url_key(def.choice.key, t), now.unwrap_or_default());
                }
            }
            for def in NUMBERS.iter().filter(|d| d.applies.to(t)) {
                let now = (def.knob.get)(&self.a, idx);
                if let Some(v) = now
                    && now != (def.knob.get)(&base, idx)
                {
                    q.set(&url_key(def.knob.key, t), fmt_num(v));
                }
            }
        }
    }
}

fn seed_error(raw: &str) -> FieldError {
    FieldError::new("seed", raw.trim(), crate::error::Allowed::integer(0, u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_round_trip_through_indices_and_url_keys() {
        for t in
            [Target::Run, Target::Layer(0), Target::Layer(7), Target::Leaf, Target::Side(2), Target::Fault(1)]
        {
            assert_eq!(Target::from_index(t.index()), t);
            let k = url_key("x", t);
            assert_eq!(Target::parse_key(&k), Some((t, "x")), "{k}");
        }
        assert_eq!(Target::parse_key("l0.x"), None, "1-based");
        assert_eq!(Target::parse_key("q1.x"), None);
    }

    #[test]
    fn every_control_reads_something_on_some_preset() {
        for def in NUMBERS {
            let found = presets::all().iter().any(|p| {
                let mut s = (p.build)();
                // Switch optional structures on so their numbers apply.
                for t in targets(&s.clone()) {
                    for c in CHOICES.iter().filter(|c| c.applies.to(t)) {
                        let last = c.choice.options.last().map(|o| o.0).unwrap_or("");
                        if c.choice.key != "pool" && c.choice.key != "pattern" {
                            (c.choice.set)(&mut s, t.index(), last);
                        }
                    }
                }
                targets(&s).into_iter().any(|t| def.applies.to(t) && (def.knob.get)(&s, t.index()).is_some())
            });
            assert!(found, "{} applies nowhere", def.knob.key);
        }
    }

    #[test]
    fn edits_round_trip_through_the_url() {
        let mut st = StormState::new("lab11-protected");
        st = st.reduce(StormAction::Type(FieldKey::at("attempts", Target::Layer(1).index()), "3".into()));
        st = st.reduce(StormAction::Choose(FieldKey::at("jitter", Target::Layer(1).index()), "full".into()));
        st = st.reduce(StormAction::Type(FieldKey::at("error", Target::Leaf.index()), "0.5".into()));
        st = st.reduce(StormAction::Seed("42".into()));
        st = st.reduce(StormAction::Compare(true));
        assert!(st.errors.is_empty(), "{:?}", st.errors);
        let mut q = Query::parse("?page=storm&lang=zh");
        st.write_query(&mut q);
        assert_eq!(
            q.to_query_string(),
            "?page=storm&lang=zh&preset=lab11-protected&seed=42&compare=1&l2.jitter=full&l2.attempts=3&leaf.error=0.5"
        );
        let back = StormState::from_query(&q);
        assert_eq!(back.a, st.a);
        assert_eq!((back.seed, back.compare, back.preset), (42, true, "lab11-protected"));
    }

    #[test]
    fn a_bad_link_value_names_the_field_and_falls_back_for_it_only() {
        let q = Query::parse("?preset=chain-3x3&l1.attempts=99&l2.attempts=4&seed=x&bogus=1&l9.attempts=2");
        let st = StormState::from_query(&q);
        let (raw, e) = st.errors.get(&FieldKey::at("attempts", Target::Layer(0).index())).unwrap();
        assert_eq!((raw.as_str(), e.field.as_str(), e.value.as_str()), ("99", "l1.attempts", "99"));
        assert_eq!(st.a.layers[0].client.retry.max_attempts, 3, "fell back to the preset");
        assert_eq!(st.a.layers[1].client.retry.max_attempts, 4, "the good field applied");
        assert!(st.errors.get(&SEED).is_some());
        assert_eq!(st.seed, 1);
        assert_eq!(st.unknown, vec!["bogus".to_string(), "l9.attempts".to_string()]);
    }

    #[test]
    fn rule_violations_keep_the_last_valid_scenario() {
        let st = StormState::new("lab11-protected");
        // Decorrelated jitter needs exponential backoff.
        let bad = st.reduce(StormAction::Choose(
            FieldKey::at("jitter", Target::Layer(1).index()),
            "decorrelated".into(),
        ));
        assert_eq!(bad.a, st.a);
        let (_, e) = bad.errors.get(&FieldKey::at("jitter", Target::Layer(1).index())).unwrap();
        assert!(e.field.starts_with("l2.jitter"), "{}", e.field);
    }

    #[test]
    fn zero_switches_optional_settings_off() {
        let st = StormState::new("big-promo-protected");
        let key = FieldKey::at("rate_limit", Target::Layer(1).index());
        let off = st.reduce(StormAction::Slide(key, 0.0));
        assert!(off.a.layers[1].server.admission.is_none());
        let on = off.reduce(StormAction::Type(key, "250".into()));
        let tb = on.a.layers[1].server.admission.as_ref().unwrap().token_bucket.unwrap();
        assert_eq!(tb.rate_per_s, 250.0);
    }

    #[test]
    fn presets_and_side_b() {
        let st = StormState::new("metastable-retry-storm");
        assert!(st.side_b().layers[0].client.retry_budget.is_some());
        let st = StormState::new("chain-3x3");
        assert_eq!(st.side_b(), st.baseline(), "without a comparison, B is the unedited preset");
        let st = StormState::new("nope");
        assert_eq!(st.preset, presets::DEFAULT);
    }
}
