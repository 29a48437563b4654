//! A generator of random, valid scenarios that uses every feature of the model: layers with
//! pools, admission, deadlines, own work and side dependencies; every client setting
//! (retry policy, backoff and jitter, timeouts, budgets, breakers, bulkheads, shared pools,
//! fallbacks); leaves with errors, client errors and empty answers; fault windows of every
//! kind. Small enough to run by the thousand. Deterministic: the same number gives the same
//! scenario, so a failing case can be replayed from its number.
#![allow(dead_code)]

use resilience_lab::policy::breaker::{BreakerConfig, ClientErrors, WindowKind};
use resilience_lab::policy::bulkhead::BulkheadConfig;
use resilience_lab::policy::retry::{Backoff, Jitter, RetryOn, RetryPolicy};
use resilience_lab::policy::retry_budget::RetryBudgetConfig;
use resilience_lab::scenario::*;

/// SplitMix64: a tiny, well-mixed generator for test inputs.
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    /// Uniform whole number in [lo, hi].
    pub fn int(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.f() < p
    }
    /// A number of milliseconds rounded to 0.1 ms.
    pub fn ms(&mut self, lo: f64, hi: f64) -> f64 {
        (self.range(lo, hi) * 10.0).round() / 10.0
    }
}

fn dist(g: &mut Gen, zero_ok: bool) -> Dist {
    match g.int(0, 3) {
        0 if zero_ok => Dist::Constant { ms: 0.0 },
        0 | 1 => Dist::Constant { ms: g.ms(0.5, 40.0) },
        2 => Dist::Exponential { mean_ms: g.ms(0.5, 30.0) },
        _ => {
            let m = g.ms(0.5, 15.0);
            Dist::LogNormal { median_ms: m, p99_ms: (m * g.range(1.0, 8.0) * 10.0).round() / 10.0 }
        }
    }
}

fn server(g: &mut Gen, leafy: bool) -> Server {
    let workers = g.chance(if leafy { 0.6 } else { 0.3 }).then(|| g.int(1, 12) as u32);
    let admission = g.chance(0.2).then(|| AdmissionConfig {
        token_bucket: g.chance(0.8).then(|| TokenBucketConfig {
            capacity: g.int(1, 30) as u32,
            rate_per_s: g.int(1, 400) as f64,
            cost: g.int(1, 2) as u32,
        }),
        concurrency_limit: g.chance(0.4).then(|| g.int(1, 30) as u32),
        retry_after_ms: g.ms(0.0, 40.0),
    });
    Server {
        workers,
        queue: workers.and_then(|_| g.chance(0.7).then(|| g.int(0, 20) as u32)),
        queue_timeout_ms: workers.and_then(|_| g.chance(0.5).then(|| g.ms(1.0, 60.0))),
        admission,
        min_budget_ms: if g.chance(0.2) { g.ms(0.0, 20.0) } else { 0.0 },
    }
}

fn client(g: &mut Gen, shared_pool: bool) -> Client {
    let backoff = match g.int(0, 2) {
        0 => Backoff::None {},
        1 => Backoff::Fixed { ms: g.ms(0.0, 20.0) },
        _ => {
            let base = g.ms(0.5, 10.0);
            Backoff::Exponential { base_ms: base, cap_ms: base + g.ms(0.0, 40.0) }
        }
    };
    let jitter = match g.int(0, 3) {
        0 => Jitter::None,
        1 => Jitter::Full,
        2 => Jitter::Equal,
        _ if matches!(backoff, Backoff::Exponential { .. }) => Jitter::Decorrelated,
        _ => Jitter::None,
    };
    let use_shared_pool = shared_pool && g.chance(0.6);
    Client {
        retry: RetryPolicy {
            max_attempts: g.int(1, 4) as u32,
            retry_on: RetryOn { timeout: g.chance(0.85), error: g.chance(0.9), overload: g.chance(0.8) },
            backoff,
            jitter,
            honor_retry_after: g.chance(0.7),
        },
        per_try_timeout_ms: g.chance(0.5).then(|| g.ms(2.0, 80.0)),
        min_useful_ms: if g.chance(0.3) { g.ms(0.0, 20.0) } else { 0.0 },
        retry_budget: match g.int(0, 4) {
            0 => {
                Some(RetryBudgetConfig::Ratio { max_tokens: g.ms(1.0, 20.0), retry_ratio: g.range(0.0, 1.0) })
            }
            1 => {
                Some(RetryBudgetConfig::Grpc { max_tokens: g.ms(2.0, 20.0), token_ratio: g.range(0.01, 1.0) })
            }
            _ => None,
        },
        breaker: g.chance(0.3).then(|| {
            let window = g.int(2, 12) as u32;
            BreakerConfig {
                window,
                // Not drawn: one more draw would shift every later one, and so every chain.
                window_kind: WindowKind::Count,
                min_calls: g.int(1, u64::from(window)) as u32,
                failure_rate_pct: g.ms(10.0, 90.0),
                slow_call_ms: g.chance(0.3).then(|| g.ms(1.0, 40.0)),
                slow_rate_pct: g.ms(10.0, 100.0),
                open_ms: g.ms(1.0, 60.0),
                half_open_calls: g.int(1, 3) as u32,
                timed_half_open: g.chance(0.4),
                instances: g.int(1, 3) as u32,
                client_errors: [ClientErrors::Ignore, ClientErrors::Failure, ClientErrors::Success]
                    [g.int(0, 2) as usize],
            }
        }),
        bulkhead: (!use_shared_pool && g.chance(0.25)).then(|| BulkheadConfig {
            max_concurrent: g.int(1, 6) as u32,
            max_queue: g.int(0, 4) as u32,
            queue_timeout_ms: g.chance(0.6).then(|| g.ms(1.0, 30.0)),
        }),
        use_shared_pool,
        fallback: match g.int(0, 5) {
            0 => Some(Fallback::Unavailable {}),
            1 => Some(Fallback::Stale { age_ms: g.ms(0.0, 1000.0) }),
            _ => None,
        },
        stack: None,
    }
}

fn leaf(g: &mut Gen, name: &str) -> Leaf {
    let error_rate = if g.chance(0.2) { 1.0 } else { g.range(0.0, 0.8) };
    Leaf {
        name: name.to_string(),
        server: server(g, true),
        work: {
            let zero_ok = g.chance(0.05);
            dist(g, zero_ok)
        },
        error_rate,
        client_error_rate: if g.chance(0.2) { g.range(0.0, 1.0 - error_rate) } else { 0.0 },
        empty_rate: if g.chance(0.2) { g.range(0.0, 0.5) } else { 0.0 },
    }
}

/// Scenario number `n`. About one in eight is a plain retry chain (layers that only retry,
/// a leaf without limits), the shape the retry-chain kernel takes, with everything else
/// (loads, surges, backoff, jitter, error mixes, traces) drawn as usual.
pub fn scenario(n: u64) -> Scenario {
    let mut s = drawn(n);
    let g = &mut Gen::new(n ^ 0xA5A5);
    if g.chance(0.125) {
        for l in &mut s.layers {
            l.server = Server::default();
            l.work = Dist::Constant { ms: 0.0 };
            l.deadline_ms = None;
            l.side_deps.clear();
            l.shared_pool = None;
            let retry = l.client.retry.clone();
            l.client = Client { retry, ..Client::default() };
        }
        s.leaf.server = Server::default();
        if g.chance(0.8) {
            s.leaf.work = Dist::Constant { ms: g.ms(0.1, 30.0) };
        }
        s.faults.retain(|f| matches!(f.effect, FaultEffect::Surge { .. }));
    }
    s
}

fn drawn(n: u64) -> Scenario {
    let g = &mut Gen::new(n);
    let n_layers = g.int(1, 4) as usize;
    let mut side_names = 0;
    let mut layers = Vec::new();
    for i in 0..n_layers {
        let shared_pool = g.chance(0.15).then(|| SharedPool {
            size: g.int(1, 8) as u32,
            queue: g.chance(0.6).then(|| g.int(0, 10) as u32),
        });
        let most_sides = if g.chance(0.3) { 2 } else { 0 };
        let side_deps = (0..g.int(0, most_sides))
            .map(|_| {
                side_names += 1;
                SideDep {
                    target: leaf(g, &format!("side{side_names}")),
                    client: client(g, shared_pool.is_some()),
                    needed_by: if g.chance(0.3) { g.range(0.0, 1.0) } else { 1.0 },
                }
            })
            .collect();
        layers.push(Layer {
            name: format!("layer{i}"),
            server: server(g, false),
            work: if g.chance(0.7) { Dist::Constant { ms: 0.0 } } else { dist(g, true) },
            deadline_ms: (i == 0 && g.chance(0.4) || g.chance(0.05)).then(|| g.ms(5.0, 200.0)),
            client: client(g, shared_pool.is_some()),
            side_deps,
            shared_pool,
        });
    }
    let leaf = leaf(g, "leaf");
    let load = match g.int(0, 2) {
        0 => Load::Batch { requests: g.int(1, 80) },
        1 => Load::Constant {
            rate_per_s: g.ms(50.0, 3000.0),
            peak_factor: 1.0,
            duration_ms: g.ms(20.0, 200.0),
        },
        _ => Load::Poisson {
            rate_per_s: g.ms(50.0, 3000.0),
            peak_factor: g.range(0.5, 2.0),
            duration_ms: g.ms(20.0, 200.0),
        },
    };
    let mut targets: Vec<String> = vec![leaf.name.clone()];
    targets.extend((1..=side_names).map(|i| format!("side{i}")));
    let most_faults = if g.chance(0.4) { 3 } else { 0 };
    let faults = (0..g.int(0, most_faults))
        .map(|_| {
            let start = g.ms(0.0, 150.0);
            let effect = match g.int(0, 3) {
                0 => FaultEffect::Latency { factor: g.ms(0.5, 8.0) },
                1 => FaultEffect::ErrorRate { rate: g.range(0.0, 1.0) },
                2 => FaultEffect::Down {},
                _ => FaultEffect::Surge { factor: g.ms(0.5, 4.0) },
            };
            let target = targets[g.int(0, targets.len() as u64 - 1) as usize].clone();
            Fault { target, start_ms: start, end_ms: start + g.ms(0.0, 100.0), effect }
        })
        .collect();
    Scenario {
        name: format!("gen-{n}"),
        seed: g.next() % 1000,
        load,
        layers,
        leaf,
        faults,
        cancel_on_timeout: g.chance(0.3),
        slo: Default::default(),
        report: ReportOptions {
            bucket_ms: g.chance(0.2).then(|| g.ms(1.0, 20.0)),
            trace_sample: g.int(0, 30) as u32,
            // Some runs also trace requests by number (the attempt trees), beyond the sample.
            trace_requests: if g.chance(0.3) {
                (0..g.int(1, 3)).map(|_| g.int(0, 200)).collect()
            } else {
                Vec::new()
            },
        },
    }
}
