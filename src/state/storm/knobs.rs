//! Every control of the retry-storm page, described once: what it applies to (a kind of
//! [`Target`]), where it sits, its key, label, help and unit, what it accepts — for numbers
//! the very range validation uses (`scenario::ranges`) — and how it reads and writes the
//! scenario. The page, the URL and the tests all read these tables.

use super::target::*;
use crate::i18n::T;
use crate::knob::{Choice, Knob, Slider};
use crate::policy::breaker::BreakerConfig;
use crate::policy::bulkhead::BulkheadConfig;
use crate::policy::retry::{Backoff, Jitter};
use crate::policy::retry_budget::RetryBudgetConfig;
use crate::scenario::ranges as r;
use crate::scenario::*;

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
    Slo,
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
            Group::Slo => T::GroupSlo,
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

impl Applies {
    /// How a URL key for this kind of target is written (`l<N>.` for layer N, …).
    pub fn key_pattern(self) -> &'static str {
        match self {
            Applies::Run => "",
            Applies::Client => "l<N>. | s<N>.",
            Applies::Server => "l<N>. | leaf. | s<N>.",
            Applies::Layer => "l<N>.",
            Applies::Service => "leaf. | s<N>.",
            Applies::Fault => "f<N>.",
        }
    }
}

/// One line of the storm page's URL grammar: a key, what it applies to and what it accepts.
pub struct KeyDoc {
    /// The key, with its target prefix pattern: `l<N>. | s<N>.attempts`.
    pub key: String,
    /// What it accepts, in words (the same text a bad value's error gives).
    pub accepts: String,
    /// Its unit, if any.
    pub unit: &'static str,
    /// Its label.
    pub label: &'static str,
}

/// Every URL key of the storm page's controls, from the tables the page and the parser use
/// (`lab keys` prints it; the README's link grammar points there).
pub fn key_docs(lang: crate::i18n::Lang) -> Vec<KeyDoc> {
    let prefix = |a: Applies, key: &str| {
        let p = a.key_pattern();
        if p.is_empty() { key.to_string() } else { format!("({p}){key}") }
    };
    let numbers = NUMBERS.iter().map(|d| KeyDoc {
        key: prefix(d.applies, d.knob.key),
        accepts: lang.allowed_in(&d.knob.allowed(), ""),
        // The unit as the page's control writes it, in the language asked for.
        unit: match d.knob.unit {
            crate::i18n::T::UnitInteger => "",
            u => lang.t(u),
        },
        label: lang.t(d.knob.label),
    });
    let choices = CHOICES.iter().map(|d| KeyDoc {
        key: prefix(d.applies, d.choice.key),
        accepts: lang.allowed_in(
            &crate::error::Allowed::OneOf {
                choices: d.choice.options.iter().map(|(v, _)| (*v).to_string()).collect(),
            },
            "",
        ),
        unit: "",
        label: lang.t(d.choice.label),
    });
    numbers.chain(choices).collect()
}

/// A numeric control of the page.
pub struct NumberDef {
    pub group: Group,
    pub applies: Applies,
    pub knob: Knob<Scenario, Target>,
}

/// A select control of the page.
pub struct ChoiceDef {
    pub group: Group,
    pub applies: Applies,
    pub choice: Choice<Scenario, Target>,
}

fn opt(v: f64) -> Option<f64> {
    (v > 0.0).then_some(v)
}

fn opt_u32(v: f64) -> Option<u32> {
    (v > 0.0).then_some(v as u32)
}

/// Every numeric control, in page order within each group.
pub static NUMBERS: &[NumberDef] = &[
    NumberDef {
        group: Group::Slo,
        applies: Applies::Run,
        knob: Knob {
            key: "slo",
            label: T::KSlo,
            help: T::KSloHelp,
            unit: T::UnitPercent,
            range: r::SLO_PERCENT,
            slider: Slider::nines(90.0, 99.999),
            step: 0.001,
            off: false,
            get: |s, _| Some(s.slo.success_percent),
            set: |s, _, v| s.slo.success_percent = v,
        },
    },
    NumberDef {
        group: Group::Load,
        applies: Applies::Run,
        knob: Knob {
            key: "rate",
            label: T::KRate,
            help: T::KRateHelp,
            unit: T::UnitRps,
            range: r::RATE_PER_S,
            slider: Slider::log(0.1, 100_000.0),
            step: 0.1,
            off: false,
            get: |s, _| match s.load {
                Load::Batch { .. } => None,
                Load::Constant { rate_per_s, .. } | Load::Poisson { rate_per_s, .. } => Some(rate_per_s),
            },
            set: |s, _, v| {
                if let Load::Constant { rate_per_s, .. } | Load::Poisson { rate_per_s, .. } = &mut s.load {
                    *rate_per_s = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Load,
        applies: Applies::Run,
        knob: Knob {
            key: "peak",
            label: T::KPeak,
            help: T::KPeakHelp,
            unit: T::UnitTimes,
            range: r::PEAK_FACTOR,
            slider: Slider::log(0.1, 100.0),
            step: 0.1,
            off: false,
            get: |s, _| match s.load {
                Load::Batch { .. } => None,
                Load::Constant { peak_factor, .. } | Load::Poisson { peak_factor, .. } => Some(peak_factor),
            },
            set: |s, _, v| {
                if let Load::Constant { peak_factor, .. } | Load::Poisson { peak_factor, .. } = &mut s.load {
                    *peak_factor = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Load,
        applies: Applies::Run,
        knob: Knob {
            key: "duration",
            label: T::KDuration,
            help: T::KDurationHelp,
            unit: T::UnitMs,
            range: r::DURATION_MS,
            slider: Slider::log(100.0, 600_000.0),
            step: 100.0,
            off: false,
            get: |s, _| match s.load {
                Load::Batch { .. } => None,
                Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } => Some(duration_ms),
            },
            set: |s, _, v| {
                if let Load::Constant { duration_ms, .. } | Load::Poisson { duration_ms, .. } = &mut s.load {
                    *duration_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Load,
        applies: Applies::Run,
        knob: Knob {
            key: "requests",
            label: T::KRequests,
            help: T::KRequestsHelp,
            unit: T::UnitRequests,
            range: r::REQUESTS,
            slider: Slider::log(1.0, 100_000.0),
            step: 1.0,
            off: false,
            get: |s, _| match s.load {
                Load::Batch { requests } => Some(requests as f64),
                _ => None,
            },
            set: |s, _, v| {
                if let Load::Batch { requests } = &mut s.load {
                    *requests = v as u64
                }
            },
        },
    },
    NumberDef {
        group: Group::Deadline,
        applies: Applies::Layer,
        knob: Knob {
            key: "deadline",
            label: T::KDeadline,
            help: T::KDeadlineHelp,
            unit: T::UnitMs,
            range: r::DEADLINE_MS,
            slider: Slider::log(1.0, 600_000.0),
            step: 1.0,
            off: true,
            get: |s, i| match i {
                Target::Layer(l) => s.layers.get(l).map(|x| x.deadline_ms.unwrap_or(0.0)),
                _ => None,
            },
            set: |s, i, v| {
                if let Target::Layer(l) = i
                    && let Some(x) = s.layers.get_mut(l)
                {
                    x.deadline_ms = opt(v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Deadline,
        applies: Applies::Client,
        knob: Knob {
            key: "per_try",
            label: T::KPerTry,
            help: T::KPerTryHelp,
            unit: T::UnitMs,
            range: r::PER_TRY_TIMEOUT_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: true,
            get: |s, i| client(s, i).map(|c| c.per_try_timeout_ms.unwrap_or(0.0)),
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.per_try_timeout_ms = opt(v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Deadline,
        applies: Applies::Client,
        knob: Knob {
            key: "min_useful",
            label: T::KMinUseful,
            help: T::KMinUsefulHelp,
            unit: T::UnitMs,
            range: r::MIN_USEFUL_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: true,
            get: |s, i| client(s, i).map(|c| c.min_useful_ms),
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.min_useful_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Retry,
        applies: Applies::Client,
        knob: Knob {
            key: "attempts",
            label: T::KAttempts,
            help: T::KAttemptsHelp,
            unit: T::UnitAttempts,
            range: r::MAX_ATTEMPTS,
            slider: Slider::linear(1.0, 10.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).map(|c| f64::from(c.retry.max_attempts)),
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.retry.max_attempts = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Retry,
        applies: Applies::Client,
        knob: Knob {
            key: "backoff_ms",
            label: T::KBackoffMs,
            help: T::KBackoffMsHelp,
            unit: T::UnitMs,
            range: r::BACKOFF_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: false,
            get: |s, i| {
                client(s, i).and_then(|c| match c.retry.backoff {
                    Backoff::None {} => None,
                    Backoff::Fixed { ms } => Some(ms),
                    Backoff::Exponential { base_ms, .. } => Some(base_ms),
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    match &mut c.retry.backoff {
                        Backoff::None {} => {}
                        Backoff::Fixed { ms } => *ms = v,
                        Backoff::Exponential { base_ms, cap_ms } => {
                            *base_ms = v;
                            *cap_ms = cap_ms.max(v)
                        }
                    }
                }
            },
        },
    },
    NumberDef {
        group: Group::Retry,
        applies: Applies::Client,
        knob: Knob {
            key: "backoff_cap",
            label: T::KBackoffCap,
            help: T::KBackoffCapHelp,
            unit: T::UnitMs,
            range: r::BACKOFF_BASE_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: false,
            get: |s, i| {
                client(s, i).and_then(|c| match c.retry.backoff {
                    Backoff::Exponential { cap_ms, .. } => Some(cap_ms),
                    _ => None,
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i)
                    && let Backoff::Exponential { cap_ms, .. } = &mut c.retry.backoff
                {
                    *cap_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Budget,
        applies: Applies::Client,
        knob: Knob {
            key: "budget_max",
            label: T::KBudgetMax,
            help: T::KBudgetMaxHelp,
            unit: T::UnitTokens,
            range: r::RATIO_MAX_TOKENS,
            slider: Slider::log(1.0, 1000.0),
            step: 1.0,
            off: false,
            get: |s, i| {
                client(s, i).and_then(|c| match c.retry_budget {
                    Some(
                        RetryBudgetConfig::Ratio { max_tokens, .. }
                        | RetryBudgetConfig::Grpc { max_tokens, .. },
                    ) => Some(max_tokens),
                    None => None,
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i)
                    && let Some(
                        RetryBudgetConfig::Ratio { max_tokens, .. }
                        | RetryBudgetConfig::Grpc { max_tokens, .. },
                    ) = &mut c.retry_budget
                {
                    *max_tokens = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Budget,
        applies: Applies::Client,
        knob: Knob {
            key: "budget_ratio",
            label: T::KBudgetRatio,
            help: T::KBudgetRatioHelp,
            unit: T::UnitTokens,
            range: r::RETRY_RATIO,
            slider: Slider::log(0.001, 1.0),
            step: 0.001,
            off: false,
            get: |s, i| {
                client(s, i).and_then(|c| match c.retry_budget {
                    Some(
                        RetryBudgetConfig::Ratio { retry_ratio: r, .. }
                        | RetryBudgetConfig::Grpc { token_ratio: r, .. },
                    ) => Some(r),
                    None => None,
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i)
                    && let Some(
                        RetryBudgetConfig::Ratio { retry_ratio: r, .. }
                        | RetryBudgetConfig::Grpc { token_ratio: r, .. },
                    ) = &mut c.retry_budget
                {
                    *r = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Admission,
        applies: Applies::Server,
        knob: Knob {
            key: "rate_limit",
            label: T::KRateLimit,
            help: T::KRateLimitHelp,
            unit: T::UnitTokensPerS,
            range: r::BUCKET_RATE.from(0.001),
            slider: Slider::log(0.1, 100_000.0),
            step: 0.1,
            off: true,
            get: |s, i| {
                server(s, i).map(|sv| {
                    sv.admission.as_ref().and_then(|a| a.token_bucket).map_or(0.0, |b| b.rate_per_s)
                })
            },
            set: |s, i, v| {
                if let Some(sv) = server_mut(s, i) {
                    set_rate_limit(sv, v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Admission,
        applies: Applies::Server,
        knob: Knob {
            key: "burst",
            label: T::KBurst,
            help: T::KBurstHelp,
            unit: T::UnitTokens,
            range: r::BUCKET_CAPACITY,
            slider: Slider::log(1.0, 100_000.0),
            step: 1.0,
            off: false,
            get: |s, i| {
                server(s, i)
                    .and_then(|sv| sv.admission.as_ref().and_then(|a| a.token_bucket))
                    .map(|b| f64::from(b.capacity))
            },
            set: |s, i, v| {
                if let Some(b) = server_mut(s, i)
                    .and_then(|sv| sv.admission.as_mut())
                    .and_then(|a| a.token_bucket.as_mut())
                {
                    b.capacity = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Admission,
        applies: Applies::Server,
        knob: Knob {
            key: "concurrency",
            label: T::KConcurrency,
            help: T::KConcurrencyHelp,
            unit: T::UnitCallsAtOnce,
            range: r::CONCURRENCY_LIMIT,
            slider: Slider::log(1.0, 100_000.0),
            step: 1.0,
            off: true,
            get: |s, i| {
                server(s, i)
                    .map(|sv| sv.admission.as_ref().and_then(|a| a.concurrency_limit).map_or(0.0, f64::from))
            },
            set: |s, i, v| {
                if let Some(sv) = server_mut(s, i) {
                    set_concurrency_limit(sv, v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Workers,
        applies: Applies::Server,
        knob: Knob {
            key: "workers",
            label: T::KWorkers,
            help: T::KWorkersHelp,
            unit: T::UnitWorkers,
            range: r::WORKERS,
            slider: Slider::log(1.0, 100_000.0),
            step: 1.0,
            off: true,
            get: |s, i| server(s, i).map(|sv| sv.workers.map_or(0.0, f64::from)),
            set: |s, i, v| {
                if let Some(sv) = server_mut(s, i) {
                    sv.workers = opt_u32(v);
                    if sv.workers.is_none() {
                        // Without a worker limit nothing waits: no queue to size or time out.
                        sv.queue = None;
                        sv.queue_timeout_ms = None;
                    }
                }
            },
        },
    },
    NumberDef {
        group: Group::Workers,
        applies: Applies::Server,
        knob: Knob {
            key: "queue",
            label: T::KQueue,
            help: T::KQueueHelp,
            unit: T::UnitCallsAtOnce,
            range: r::QUEUE.from(1.0),
            slider: Slider::log(1.0, 100_000.0),
            step: 1.0,
            off: true,
            get: |s, i| server(s, i).and_then(|sv| sv.workers.map(|_| sv.queue.map_or(0.0, f64::from))),
            set: |s, i, v| {
                if let Some(sv) = server_mut(s, i) {
                    sv.queue = opt_u32(v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Workers,
        applies: Applies::Server,
        knob: Knob {
            key: "queue_timeout",
            label: T::KQueueTimeout,
            help: T::KQueueTimeoutHelp,
            unit: T::UnitMs,
            range: r::QUEUE_TIMEOUT_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: true,
            get: |s, i| server(s, i).and_then(|sv| sv.workers.map(|_| sv.queue_timeout_ms.unwrap_or(0.0))),
            set: |s, i, v| {
                if let Some(sv) = server_mut(s, i) {
                    sv.queue_timeout_ms = opt(v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Bulkhead,
        applies: Applies::Client,
        knob: Knob {
            key: "bulkhead",
            label: T::KBulkhead,
            help: T::KBulkheadHelp,
            unit: T::UnitCallsAtOnce,
            range: r::BULKHEAD_MAX_CONCURRENT,
            slider: Slider::log(1.0, 10_000.0),
            step: 1.0,
            off: true,
            get: |s, i| {
                client(s, i).and_then(|c| {
                    (!c.use_shared_pool).then(|| c.bulkhead.map_or(0.0, |b| f64::from(b.max_concurrent)))
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    set_bulkhead(c, v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Bulkhead,
        applies: Applies::Client,
        knob: Knob {
            key: "bulkhead_queue",
            label: T::KBulkheadQueue,
            help: T::KBulkheadQueueHelp,
            unit: T::UnitCallsAtOnce,
            range: r::BULKHEAD_MAX_QUEUE.from(1.0),
            slider: Slider::log(1.0, 10_000.0),
            step: 1.0,
            off: true,
            get: |s, i| client(s, i).and_then(|c| c.bulkhead).map(|b| f64::from(b.max_queue)),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.bulkhead.as_mut()) {
                    b.max_queue = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Bulkhead,
        applies: Applies::Layer,
        knob: Knob {
            key: "shared_pool",
            label: T::KSharedPool,
            help: T::KSharedPoolHelp,
            unit: T::UnitWorkers,
            range: r::SHARED_POOL_SIZE,
            slider: Slider::log(1.0, 10_000.0),
            step: 1.0,
            off: true,
            get: |s, i| match i {
                Target::Layer(l) => s.layers.get(l).map(|x| x.shared_pool.map_or(0.0, |p| f64::from(p.size))),
                _ => None,
            },
            set: |s, i, v| {
                if let Target::Layer(l) = i
                    && let Some(x) = s.layers.get_mut(l)
                {
                    set_shared_pool(x, v)
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "window",
            label: T::KWindow,
            help: T::KWindowHelp,
            unit: T::UnitCalls,
            range: r::BREAKER_WINDOW,
            slider: Slider::log(1.0, 10_000.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.window)),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.window = v as u32;
                    b.min_calls = b.min_calls.min(b.window)
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "min_calls",
            label: T::KMinCalls,
            help: T::KMinCallsHelp,
            unit: T::UnitCalls,
            range: r::BREAKER_MIN_CALLS,
            slider: Slider::log(1.0, 10_000.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.min_calls)),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.min_calls = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "failure_pct",
            label: T::KFailurePct,
            help: T::KFailurePctHelp,
            unit: T::UnitPercent,
            range: r::PERCENT,
            slider: Slider::linear(1.0, 100.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| b.failure_rate_pct),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.failure_rate_pct = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "open_ms",
            label: T::KOpenMs,
            help: T::KOpenMsHelp,
            unit: T::UnitMs,
            range: r::OPEN_MS,
            slider: Slider::log(1.0, 600_000.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| b.open_ms),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.open_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "half_open",
            label: T::KHalfOpen,
            help: T::KHalfOpenHelp,
            unit: T::UnitCalls,
            range: r::HALF_OPEN_CALLS,
            slider: Slider::log(1.0, 1000.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.half_open_calls)),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.half_open_calls = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Breaker,
        applies: Applies::Client,
        knob: Knob {
            key: "instances",
            label: T::KInstances,
            help: T::KInstancesHelp,
            unit: T::UnitInstances,
            range: r::BREAKER_INSTANCES,
            slider: Slider::log(1.0, 256.0),
            step: 1.0,
            off: false,
            get: |s, i| client(s, i).and_then(|c| c.breaker).map(|b| f64::from(b.instances)),
            set: |s, i, v| {
                if let Some(b) = client_mut(s, i).and_then(|c| c.breaker.as_mut()) {
                    b.instances = v as u32
                }
            },
        },
    },
    NumberDef {
        group: Group::Fallback,
        applies: Applies::Client,
        knob: Knob {
            key: "stale_age",
            label: T::KStaleAge,
            help: T::KStaleAgeHelp,
            unit: T::UnitMs,
            range: r::AGE_MS,
            slider: Slider::log(1.0, 86_400_000.0),
            step: 1.0,
            off: false,
            get: |s, i| {
                client(s, i).and_then(|c| match c.fallback {
                    Some(Fallback::Stale { age_ms }) => Some(age_ms),
                    _ => None,
                })
            },
            set: |s, i, v| {
                if let Some(Some(Fallback::Stale { age_ms })) = client_mut(s, i).map(|c| &mut c.fallback) {
                    *age_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Layer,
        knob: Knob {
            key: "work",
            label: T::KLayerWork,
            help: T::KLayerWorkHelp,
            unit: T::UnitMs,
            range: r::WORK_MS,
            slider: Slider::log(0.1, 600_000.0),
            step: 0.1,
            off: true,
            get: |s, i| match i {
                Target::Layer(l) => s.layers.get(l).map(|x| x.work.mean_ms()),
                _ => None,
            },
            set: |s, i, v| {
                if let Target::Layer(l) = i
                    && let Some(x) = s.layers.get_mut(l)
                {
                    x.work = Dist::Constant { ms: v }
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Service,
        knob: Knob {
            key: "ms",
            label: T::KWorkMs,
            help: T::KWorkMsHelp,
            unit: T::UnitMs,
            range: r::WORK_MS,
            slider: Slider::log(0.01, 600_000.0),
            step: 0.01,
            off: false,
            get: |s, i| {
                service(s, i).map(|l| match l.work {
                    Dist::Constant { ms } => ms,
                    Dist::Exponential { mean_ms } => mean_ms,
                    Dist::LogNormal { median_ms, .. } => median_ms,
                })
            },
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i) {
                    match &mut l.work {
                        Dist::Constant { ms } => *ms = v,
                        Dist::Exponential { mean_ms } => *mean_ms = v,
                        Dist::LogNormal { median_ms, p99_ms } => {
                            *median_ms = v;
                            *p99_ms = p99_ms.max(v)
                        }
                    }
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Service,
        knob: Knob {
            key: "p99",
            label: T::KP99,
            help: T::KP99Help,
            unit: T::UnitMs,
            range: r::LOG_NORMAL_MS,
            slider: Slider::log(0.01, 600_000.0),
            step: 0.01,
            off: false,
            get: |s, i| {
                service(s, i).and_then(|l| match l.work {
                    Dist::LogNormal { p99_ms, .. } => Some(p99_ms),
                    _ => None,
                })
            },
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i)
                    && let Dist::LogNormal { p99_ms, .. } = &mut l.work
                {
                    *p99_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Service,
        knob: Knob {
            key: "error",
            label: T::KErrorRate,
            help: T::KErrorRateHelp,
            unit: T::UnitProbability,
            range: r::PROBABILITY,
            slider: Slider::linear(0.0, 1.0),
            step: 0.01,
            off: false,
            get: |s, i| service(s, i).map(|l| l.error_rate),
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i) {
                    l.error_rate = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Service,
        knob: Knob {
            key: "client_error",
            label: T::KClientErrorRate,
            help: T::KClientErrorRateHelp,
            unit: T::UnitProbability,
            range: r::PROBABILITY,
            slider: Slider::linear(0.0, 1.0),
            step: 0.01,
            off: false,
            get: |s, i| service(s, i).map(|l| l.client_error_rate),
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i) {
                    l.client_error_rate = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Service,
        applies: Applies::Service,
        knob: Knob {
            key: "empty",
            label: T::KEmptyRate,
            help: T::KEmptyRateHelp,
            unit: T::UnitProbability,
            range: r::PROBABILITY,
            slider: Slider::linear(0.0, 1.0),
            step: 0.01,
            off: false,
            get: |s, i| service(s, i).map(|l| l.empty_rate),
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i) {
                    l.empty_rate = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Faults,
        applies: Applies::Fault,
        knob: Knob {
            key: "start",
            label: T::KFaultStart,
            help: T::KFaultStartHelp,
            unit: T::UnitMs,
            range: r::FAULT_TIME_MS,
            // A minute in 300 ms stops: where runs' faults are (0–600 s had put a 20 s run's
            // whole span in the first four 5 s stops); later times are typed.
            slider: Slider::linear(0.0, 60_000.0),
            step: 100.0,
            off: false,
            get: |s, i| fault(s, i).map(|f| f.start_ms),
            set: |s, i, v| {
                // Not past its end: validation names a window that would end before it
                // starts (`ranges::fault_end_ms`).
                if let Some(f) = fault_mut(s, i) {
                    f.start_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Faults,
        applies: Applies::Fault,
        knob: Knob {
            key: "end",
            label: T::KFaultEnd,
            help: T::KFaultEndHelp,
            unit: T::UnitMs,
            range: r::FAULT_TIME_MS,
            // A minute in 300 ms stops: where runs' faults are (0–600 s had put a 20 s run's
            // whole span in the first four 5 s stops); later times are typed.
            slider: Slider::linear(0.0, 60_000.0),
            step: 100.0,
            off: false,
            get: |s, i| fault(s, i).map(|f| f.end_ms),
            set: |s, i, v| {
                if let Some(f) = fault_mut(s, i) {
                    f.end_ms = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Faults,
        applies: Applies::Fault,
        knob: Knob {
            key: "factor",
            label: T::KFaultFactor,
            help: T::KFaultFactorHelp,
            unit: T::UnitTimes,
            range: r::LATENCY_FACTOR,
            slider: Slider::log(0.1, 1000.0),
            step: 0.1,
            off: false,
            get: |s, i| {
                fault(s, i).and_then(|f| match f.effect {
                    FaultEffect::Latency { factor } | FaultEffect::Surge { factor } => Some(factor),
                    _ => None,
                })
            },
            set: |s, i, v| {
                if let Some(f) = fault_mut(s, i)
                    && let FaultEffect::Latency { factor } | FaultEffect::Surge { factor } = &mut f.effect
                {
                    *factor = v
                }
            },
        },
    },
    NumberDef {
        group: Group::Faults,
        applies: Applies::Fault,
        knob: Knob {
            key: "fault_error",
            label: T::KFaultRate,
            help: T::KFaultRateHelp,
            unit: T::UnitProbability,
            range: r::PROBABILITY,
            slider: Slider::linear(0.0, 1.0),
            step: 0.01,
            off: false,
            get: |s, i| {
                fault(s, i).and_then(|f| match f.effect {
                    FaultEffect::ErrorRate { rate } => Some(rate),
                    _ => None,
                })
            },
            set: |s, i, v| {
                if let Some(f) = fault_mut(s, i)
                    && let FaultEffect::ErrorRate { rate } = &mut f.effect
                {
                    *rate = v
                }
            },
        },
    },
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

/// Every select control.
pub static CHOICES: &[ChoiceDef] = &[
    ChoiceDef {
        group: Group::Load,
        applies: Applies::Run,
        choice: Choice {
            key: "pattern",
            label: T::KPattern,
            help: T::KPatternHelp,
            options: &[("batch", T::OptBatch), ("constant", T::OptConstant), ("poisson", T::OptPoisson)],
            get: |s, _| {
                Some(match s.load {
                    Load::Batch { .. } => "batch",
                    Load::Constant { .. } => "constant",
                    Load::Poisson { .. } => "poisson",
                })
            },
            set: |s, _, v| set_pattern(s, v),
        },
    },
    ChoiceDef {
        group: Group::Load,
        applies: Applies::Run,
        choice: Choice {
            key: "cancel",
            label: T::KCancel,
            help: T::KCancelHelp,
            options: &[("off", T::OptOff), ("on", T::OptOn)],
            get: |s, _| Some(if s.cancel_on_timeout { "on" } else { "off" }),
            set: |s, _, v| s.cancel_on_timeout = v == "on",
        },
    },
    ChoiceDef {
        group: Group::Retry,
        applies: Applies::Client,
        choice: Choice {
            key: "backoff",
            label: T::KBackoff,
            help: T::KBackoffHelp,
            options: &[("none", T::OptNone), ("fixed", T::OptFixed), ("exponential", T::OptExponential)],
            get: |s, i| {
                client(s, i).map(|c| match c.retry.backoff {
                    Backoff::None {} => "none",
                    Backoff::Fixed { .. } => "fixed",
                    Backoff::Exponential { .. } => "exponential",
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    set_backoff(c, v)
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Retry,
        applies: Applies::Client,
        choice: Choice {
            key: "jitter",
            label: T::KJitter,
            help: T::KJitterHelp,
            options: &[
                ("none", T::OptNone),
                ("full", T::OptFull),
                ("equal", T::OptEqual),
                ("decorrelated", T::OptDecorrelated),
            ],
            get: |s, i| {
                client(s, i).and_then(|c| {
                    (c.retry.backoff != Backoff::None {}).then_some(match c.retry.jitter {
                        Jitter::None => "none",
                        Jitter::Full => "full",
                        Jitter::Equal => "equal",
                        Jitter::Decorrelated => "decorrelated",
                    })
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.retry.jitter = match v {
                        "full" => Jitter::Full,
                        "equal" => Jitter::Equal,
                        "decorrelated" => Jitter::Decorrelated,
                        _ => Jitter::None,
                    }
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Retry,
        applies: Applies::Client,
        choice: Choice {
            key: "retry_timeouts",
            label: T::KRetryTimeouts,
            help: T::KRetryTimeoutsHelp,
            options: &[("on", T::OptOn), ("off", T::OptOff)],
            get: |s, i| client(s, i).map(|c| if c.retry.retry_on.timeout { "on" } else { "off" }),
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.retry.retry_on.timeout = v == "on"
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Budget,
        applies: Applies::Client,
        choice: Choice {
            key: "budget",
            label: T::KBudget,
            help: T::KBudgetHelp,
            options: &[("none", T::OptNone), ("ratio", T::OptRatio), ("grpc", T::OptGrpc)],
            get: |s, i| {
                client(s, i).map(|c| match c.retry_budget {
                    None => "none",
                    Some(RetryBudgetConfig::Ratio { .. }) => "ratio",
                    Some(RetryBudgetConfig::Grpc { .. }) => "grpc",
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.retry_budget = match v {
                        "ratio" => Some(RetryBudgetConfig::Ratio { max_tokens: 100.0, retry_ratio: 0.1 }),
                        "grpc" => Some(RetryBudgetConfig::Grpc { max_tokens: 10.0, token_ratio: 0.1 }),
                        _ => None,
                    }
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Bulkhead,
        applies: Applies::Client,
        choice: Choice {
            key: "pool",
            label: T::KPool,
            help: T::KPoolHelp,
            options: &[("own", T::OptOwn), ("shared", T::OptShared)],
            get: |s, i| client(s, i).map(|c| if c.use_shared_pool { "shared" } else { "own" }),
            set: |s, i, v| set_pool_mode(s, i, v),
        },
    },
    ChoiceDef {
        group: Group::Breaker,
        applies: Applies::Client,
        choice: Choice {
            key: "breaker",
            label: T::KBreaker,
            help: T::KBreakerHelp,
            options: &[("off", T::OptOff), ("lazy", T::OptLazy), ("timed", T::OptTimed)],
            get: |s, i| {
                client(s, i).map(|c| match c.breaker {
                    None => "off",
                    Some(b) if b.timed_half_open => "timed",
                    Some(_) => "lazy",
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.breaker = match v {
                        "off" => None,
                        _ => Some(BreakerConfig {
                            timed_half_open: v == "timed",
                            ..c.breaker.unwrap_or_default()
                        }),
                    }
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Fallback,
        applies: Applies::Client,
        choice: Choice {
            key: "fallback",
            label: T::KFallback,
            help: T::KFallbackHelp,
            options: &[("none", T::OptNone), ("unavailable", T::OptUnavailable), ("stale", T::OptStale)],
            get: |s, i| {
                client(s, i).map(|c| match c.fallback {
                    None => "none",
                    Some(Fallback::Unavailable {}) => "unavailable",
                    Some(Fallback::Stale { .. }) => "stale",
                })
            },
            set: |s, i, v| {
                if let Some(c) = client_mut(s, i) {
                    c.fallback = match v {
                        "unavailable" => Some(Fallback::Unavailable {}),
                        "stale" => Some(Fallback::Stale { age_ms: 60_000.0 }),
                        _ => None,
                    }
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Service,
        applies: Applies::Service,
        choice: Choice {
            key: "dist",
            label: T::KDist,
            help: T::KDistHelp,
            options: &[
                ("constant", T::OptConstantDist),
                ("exponential", T::OptExponentialDist),
                ("log_normal", T::OptLogNormal),
            ],
            get: |s, i| {
                service(s, i).map(|l| match l.work {
                    Dist::Constant { .. } => "constant",
                    Dist::Exponential { .. } => "exponential",
                    Dist::LogNormal { .. } => "log_normal",
                })
            },
            set: |s, i, v| {
                if let Some(l) = service_mut(s, i) {
                    let m = l.work.mean_ms().max(0.01);
                    l.work = match v {
                        "exponential" => Dist::Exponential { mean_ms: m },
                        "log_normal" => Dist::LogNormal { median_ms: m, p99_ms: m * 5.0 },
                        _ => Dist::Constant { ms: m },
                    }
                }
            },
        },
    },
    ChoiceDef {
        group: Group::Faults,
        applies: Applies::Fault,
        choice: Choice {
            key: "fault_kind",
            label: T::KFaultKind,
            help: T::KFaultKindHelp,
            options: &[
                ("latency", T::OptLatency),
                ("errors", T::OptErrors),
                ("down", T::OptDown),
                ("surge", T::OptSurge),
            ],
            get: |s, i| {
                fault(s, i).map(|f| match f.effect {
                    FaultEffect::Latency { .. } => "latency",
                    FaultEffect::ErrorRate { .. } => "errors",
                    FaultEffect::Down {} => "down",
                    FaultEffect::Surge { .. } => "surge",
                })
            },
            set: |s, i, v| {
                let leaf = s.leaf.name.clone();
                if let Some(f) = fault_mut(s, i) {
                    f.effect = match v {
                        "errors" => FaultEffect::ErrorRate { rate: 1.0 },
                        "down" => FaultEffect::Down {},
                        "surge" => FaultEffect::Surge { factor: 3.0 },
                        _ => FaultEffect::Latency { factor: 5.0 },
                    };
                    if v == "surge" {
                        f.target.clear(); // a surge acts on the arrivals, not on a service
                    } else if f.target.is_empty() {
                        f.target = leaf;
                    }
                }
            },
        },
    },
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
        "exponential" => Backoff::Exponential { base_ms: base, cap_ms: (base * 16.0).min(r::MAX_MS) },
        _ => Backoff::None {},
    };
    // No backoff, nothing to jitter; decorrelated jitter needs exponential backoff.
    if c.retry.backoff == (Backoff::None {})
        || (c.retry.jitter == Jitter::Decorrelated && !matches!(c.retry.backoff, Backoff::Exponential { .. }))
    {
        c.retry.jitter = Jitter::None;
    }
}

fn set_pool_mode(s: &mut Scenario, idx: Target, v: &str) {
    let owner = match idx {
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

/// The numeric control with `key`. Keys are unique across every control (a test checks).
pub fn number(key: &str) -> Option<&'static NumberDef> {
    NUMBERS.iter().find(|n| n.knob.key == key)
}

/// The numeric control a link key names, target prefix included (`l1.per_try`, `rate`).
pub fn number_for_url_key(url_key: &str) -> Option<&'static NumberDef> {
    let (t, name) = Target::parse_key(url_key)?;
    NUMBERS.iter().find(|d| d.knob.key == name && d.applies.to(t))
}

/// The select control with `key`.
pub fn choice(key: &str) -> Option<&'static ChoiceDef> {
    CHOICES.iter().find(|c| c.choice.key == key)
}
