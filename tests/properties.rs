//! Property tests over random scenarios and random policy inputs.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, run_with};
use resilience_lab::policy::breaker::{BreakerConfig, State, allowed_edge};
use resilience_lab::policy::bulkhead::BulkheadConfig;
use resilience_lab::policy::retry::{Backoff, Jitter};
use resilience_lab::policy::retry_budget::RetryBudgetConfig;
use resilience_lab::policy::token_bucket::TokenBucket;
use resilience_lab::scenario::presets::{layer, leaf, retrying};
use resilience_lab::scenario::*;

fn arb_dist() -> impl Strategy<Value = Dist> {
    prop_oneof![
        (0.0..50.0f64).prop_map(|ms| Dist::Constant { ms }),
        (0.1..50.0f64).prop_map(|mean_ms| Dist::Exponential { mean_ms }),
        (0.1..20.0f64, 1.0..10.0f64).prop_map(|(m, x)| Dist::LogNormal { median_ms: m, p99_ms: m * x }),
    ]
}

fn arb_client() -> impl Strategy<Value = Client> {
    (
        1u32..=4,
        prop_oneof![Just(Backoff::None {}), (0.0..30.0f64).prop_map(|ms| Backoff::Fixed { ms })],
        prop_oneof![Just(Jitter::None), Just(Jitter::Full), Just(Jitter::Equal)],
        proptest::option::of(1.0..80.0f64),
        proptest::option::of((1.0..20.0f64, 0.0..1.0f64)),
        proptest::option::of((2u32..=10, 0u32..=3)),
        proptest::option::of((1u32..=5, 1u32..=3)),
        any::<bool>(),
        0.0..20.0f64,
    )
        .prop_map(
            |(attempts, backoff, jitter, per_try, budget, bulkhead, breaker, fallback, min_useful)| {
                let mut c = retrying(attempts, 0.0);
                c.retry.backoff = backoff;
                c.retry.jitter = jitter;
                c.per_try_timeout_ms = per_try;
                c.min_useful_ms = min_useful;
                c.retry_budget = budget
                    .map(|(max_tokens, retry_ratio)| RetryBudgetConfig::Ratio { max_tokens, retry_ratio });
                c.bulkhead = bulkhead.map(|(n, q)| BulkheadConfig {
                    max_concurrent: n,
                    max_queue: q,
                    queue_timeout_ms: Some(15.0),
                });
                c.breaker = breaker.map(|(window, probes)| BreakerConfig {
                    window: window * 2,
                    min_calls: window,
                    open_ms: 25.0,
                    half_open_calls: probes,
                    timed_half_open: probes == 2,
                    instances: probes,
                    ..BreakerConfig::default()
                });
                c.fallback = fallback.then_some(Fallback::Unavailable {});
                c
            },
        )
}

fn arb_scenario() -> impl Strategy<Value = Scenario> {
    (
        proptest::collection::vec((arb_client(), arb_dist(), proptest::option::of(1u32..=6)), 1..=3),
        arb_dist(),
        0.0..1.0f64,
        proptest::option::of(1u32..=8),
        proptest::option::of(0u32..=10),
        proptest::option::of(20.0..200.0f64),
        proptest::option::of((1u32..=20, 1u32..=200)),
        any::<bool>(),
        prop_oneof![
            (1u64..=60).prop_map(|requests| Load::Batch { requests }),
            (50.0..2000.0f64).prop_map(|r| Load::Poisson {
                rate_per_s: r,
                peak_factor: 1.0,
                duration_ms: 100.0
            }),
            (50.0..2000.0f64).prop_map(|r| Load::Constant {
                rate_per_s: r,
                peak_factor: 1.0,
                duration_ms: 100.0
            }),
        ],
        any::<u64>(),
        (
            proptest::option::of((arb_client(), arb_dist(), 0.0..1.0f64, 0.0..1.0f64)),
            proptest::option::of((1u32..=6, proptest::option::of(0u32..=6), any::<bool>())),
            proptest::option::of((0.0..80.0f64, 1.0..60.0f64, 0u8..4)),
        ),
    )
        .prop_map(
            |(layers, leaf_work, err, workers, queue, deadline, bucket, cancel, load, seed, extra)| {
                let (side_dep, shared, fault) = extra;
                let mut ls: Vec<Layer> = layers
                    .into_iter()
                    .enumerate()
                    .map(|(i, (client, work, w))| {
                        let mut l = layer(&format!("l{i}"), client);
                        l.work = work;
                        l.server.workers = w;
                        l.server.queue = w.map(|_| 5);
                        l.server.queue_timeout_ms = w.map(|_| 30.0);
                        l
                    })
                    .collect();
                ls[0].deadline_ms = deadline;
                ls[0].server.admission = bucket.map(|(capacity, rate)| AdmissionConfig {
                    token_bucket: Some(TokenBucketConfig { capacity, rate_per_s: f64::from(rate), cost: 1 }),
                    concurrency_limit: Some(capacity * 2),
                    retry_after_ms: 10.0,
                });
                let mut lf = leaf("leaf", 0.0, err);
                lf.work = leaf_work;
                lf.server.workers = workers;
                lf.server.queue = queue;
                if let Some((mut client, work, needed_by, empty)) = side_dep {
                    let mut target = leaf("side", 0.0, err / 2.0);
                    target.work = work;
                    target.empty_rate = empty;
                    if let Some((size, q, core_too)) = shared {
                        ls[0].shared_pool = Some(SharedPool { size, queue: q });
                        client.bulkhead = None;
                        client.use_shared_pool = true;
                        if core_too {
                            ls[0].client.bulkhead = None;
                            ls[0].client.use_shared_pool = true;
                        }
                    }
                    ls[0].side_deps = vec![SideDep { target, client, needed_by }];
                }
                let faults = fault
                    .map(|(start, len, kind)| {
                        let effect = match kind {
                            0 => FaultEffect::Latency { factor: 4.0 },
                            1 => FaultEffect::ErrorRate { rate: 0.9 },
                            2 => FaultEffect::Down {},
                            _ => FaultEffect::Surge { factor: 3.0 },
                        };
                        vec![Fault { target: "leaf".into(), start_ms: start, end_ms: start + len, effect }]
                    })
                    .unwrap_or_default();
                Scenario {
                    name: "prop".into(),
                    seed,
                    load,
                    layers: ls,
                    leaf: lf,
                    faults,
                    cancel_on_timeout: cancel,
                    slo: Default::default(),
                    report: ReportOptions { bucket_ms: None, trace_sample: 50, ..Default::default() },
                }
            },
        )
}

proptest! {
    // 200 cases by default; PROPTEST_CASES=5000 for a deeper search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200),
        ..ProptestConfig::default()
    })]

    /// Every original request ends in exactly one outcome; attempts never exceed the
    /// product of attempt limits; budgets never exceed their capacity; nothing in a trace
    /// happens before its cause; breakers only move along allowed edges.
    #[test]
    fn chain_invariants(s in arb_scenario()) {
        prop_assert_eq!(validate(&s), Ok(()));
        let r = run_with(&s, s.seed, DEFAULT_MAX_CALLS).unwrap();
        let m = &r.summary;
        prop_assert_eq!(m.unfinished, 0);
        prop_assert_eq!(m.succeeded + m.degraded + m.failed + m.admission_rejected, m.original_requests);
        prop_assert_eq!(r.series.succeeded.iter().sum::<u64>(), m.succeeded);
        prop_assert_eq!(r.series.offered.iter().sum::<u64>(), m.original_requests);
        prop_assert_eq!(m.attempts_per_hop[0], m.original_requests);
        prop_assert!(m.degraded_unavailable + m.degraded_stale == m.degraded, "each degraded response has one fallback");
        for (i, l) in s.layers.iter().enumerate() {
            for (j, d) in l.side_deps.iter().enumerate() {
                let hop = s.layers.len() + 1 + j;
                prop_assert!(m.attempts_per_hop[hop] <= m.attempts_per_hop[i] * u64::from(d.client.retry.max_attempts));
            }
            let limit = m.attempts_per_hop[i] * u64::from(l.client.retry.max_attempts);
            prop_assert!(m.attempts_per_hop[i + 1] <= limit, "hop {} got {} > {}", i + 1, m.attempts_per_hop[i + 1], limit);
        }
        let product: u64 = s.layers.iter().map(|l| u64::from(l.client.retry.max_attempts)).product();
        prop_assert!(m.downstream_attempts <= m.original_requests * product);
        for (c, tokens) in r.clients.iter().zip(&r.series.budget_tokens) {
            if let Some(max) = c.budget_max_tokens {
                prop_assert!(tokens.iter().all(|&t| (0.0..=max).contains(&t)), "tokens {:?} max {}", tokens, max);
            }
        }
        for h in &r.hops {
            if let Some(w) = h.workers {
                prop_assert!(h.peak_in_flight <= i64::from(w), "{} busy {} of {}", h.name, h.peak_in_flight, w);
            }
        }
        for t in &r.traces {
            prop_assert!(t.end_ms >= t.arrival_ms);
            if let Some(d) = t.deadline_ms {
                prop_assert!(d >= t.arrival_ms);
            }
            for sp in &t.spans {
                prop_assert!(sp.start_ms >= t.arrival_ms, "span before its request: {:?}", sp);
                if let Some(w) = sp.work_ms {
                    prop_assert!(w >= sp.start_ms && sp.end_ms >= w, "{:?}", sp);
                }
                prop_assert!(sp.end_ms >= sp.start_ms);
                if !sp.abandoned {
                    prop_assert!(sp.end_ms <= t.end_ms, "a waited-for span ends before the response: {:?}", sp);
                }
            }
            for mk in &t.marks {
                prop_assert!(mk.start_ms >= t.arrival_ms && mk.end_ms >= mk.start_ms, "{:?}", mk);
            }
        }
        let mut last = 0.0;
        for tr in &r.breaker_transitions {
            prop_assert!(tr.t_ms >= last, "transitions in time order");
            last = tr.t_ms;
        }
        for (ci, c) in r.clients.iter().enumerate() {
            for inst in 0..c.breaker_instances {
                let mut state = State::Closed;
                for tr in r.breaker_transitions.iter().filter(|t| t.client == ci && t.instance == inst) {
                    prop_assert_eq!(tr.from, state);
                    prop_assert!(allowed_edge(tr.from, tr.to), "{:?} -> {:?}", tr.from, tr.to);
                    state = tr.to;
                }
            }
        }
    }

    /// The same scenario and seed give byte-identical reports.
    #[test]
    fn runs_are_deterministic(s in arb_scenario()) {
        let a = run_with(&s, s.seed, DEFAULT_MAX_CALLS).unwrap().to_json();
        let b = run_with(&s, s.seed, DEFAULT_MAX_CALLS).unwrap().to_json();
        prop_assert_eq!(a, b);
    }

    /// A token bucket never holds more than its capacity or less than nothing, and a
    /// rejection never changes it.
    #[test]
    fn token_bucket_stays_within_capacity(cap in 1u64..10_000, rate in 0u64..50, ops in proptest::collection::vec((0u64..500, 0u64..12_000), 1..200)) {
        let mut b = TokenBucket::new(cap, rate);
        let mut now = 0;
        for (dt, cost) in ops {
            now += dt;
            let before = b.credits_at(now);
            prop_assert!(before <= cap);
            match b.take(now, cost) {
                Ok(()) => prop_assert_eq!(b.credits_at(now), before - cost),
                Err(_) => prop_assert_eq!(b.credits_at(now), before),
            }
        }
    }

}
