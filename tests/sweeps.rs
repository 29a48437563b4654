//! Seed sweeps against closed forms, each with its stated tolerance.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, run_with};
use resilience_lab::policy::retry_budget::RetryBudgetConfig;
use resilience_lab::scenario::presets::{layer, leaf, retrying};
use resilience_lab::scenario::{Load, ReportOptions, Scenario};

fn chain(k: u32, layers: usize, f: f64, duration_ms: f64) -> Scenario {
    Scenario {
        name: "sweep".into(),
        seed: 1,
        load: Load::Poisson { rate_per_s: 1000.0, peak_factor: 1.0, duration_ms },
        layers: (0..layers).map(|i| layer(&format!("l{i}"), retrying(k, 0.0))).collect(),
        leaf: leaf("leaf", 10.0, f),
        faults: Vec::new(),
        cancel_on_timeout: false,
        slo: Default::default(),
        report: ReportOptions { bucket_ms: None, trace_sample: 0, ..Default::default() },
    }
}

/// Expected calls per call when each try fails with probability `x`, at most `k` tries.
fn a(x: f64, k: u32) -> f64 {
    if x == 1.0 { f64::from(k) } else { (1.0 - x.powi(k as i32)) / (1.0 - x) }
}

/// With k attempts per layer, no timeouts and leaf failure probability f, a request
/// causes A(f)·A(f^k)·A(f^(k²)) leaf calls on 3 layers (Wald's identity at each layer).
/// Tolerance: 2 % relative on the mean over 5 seeds × ~20,000 requests, about ten
/// standard errors, so a real bias of a few percent still fails.
#[test]
fn leaf_calls_per_request_match_the_closed_form() {
    let k = 3;
    for f in [0.1, 0.3, 0.5, 0.8] {
        let expected = a(f, k) * a(f.powi(k as i32), k) * a(f.powi((k * k) as i32), k);
        let (mut calls, mut requests) = (0u64, 0u64);
        for seed in 1..=5 {
            let r = run_with(&chain(k, 3, f, 20_000.0), seed, DEFAULT_MAX_CALLS).unwrap();
            calls += r.summary.downstream_attempts;
            requests += r.summary.original_requests;
        }
        let got = calls as f64 / requests as f64;
        let err = (got - expected).abs() / expected;
        assert!(err < 0.02, "f = {f}: simulated {got:.4} leaf calls per request, closed form {expected:.4}");
    }
}

/// A leaf that always fails gives exactly k^layers, whatever the seed.
#[test]
fn always_failing_leaf_gives_exact_powers_for_every_seed() {
    for seed in [1, 2, 99, u64::MAX] {
        for (k, layers) in [(2, 1), (3, 2), (3, 3), (4, 3), (2, 5)] {
            let r = run_with(&chain(k, layers, 1.0, 200.0), seed, DEFAULT_MAX_CALLS).unwrap();
            assert_eq!(
                r.summary.amplification,
                f64::from(k).powi(layers as i32),
                "seed {seed} k {k} layers {layers}"
            );
        }
    }
}

/// A ratio budget of 0.1 keeps retries near 10 % of successful first attempts over a long
/// run (source 000's rule; the bucket also starts with `max_tokens` = 100 to spend).
/// Tolerance: within 10.0 % ± 0.5 percentage points after removing the 100-token start.
#[test]
fn ratio_budget_keeps_retries_near_ten_percent() {
    for seed in 1..=3 {
        let mut s = chain(3, 1, 0.5, 200_000.0);
        s.layers[0].client.retry_budget =
            Some(RetryBudgetConfig::Ratio { max_tokens: 100.0, retry_ratio: 0.1 });
        let r = run_with(&s, seed, DEFAULT_MAX_CALLS).unwrap();
        let c = &r.clients[0];
        let ratio = (c.retries as f64 - 100.0) / c.first_attempt_successes as f64;
        assert!(
            (ratio - 0.1).abs() < 0.005,
            "seed {seed}: retries {} for {} first successes",
            c.retries,
            c.first_attempt_successes
        );
        assert!(c.retry_budget_denied > 0, "the budget was binding");
        // Without the budget, retries are about f + f² = 75 % of requests.
        let mut free = s.clone();
        free.layers[0].client.retry_budget = None;
        let r = run_with(&free, seed, DEFAULT_MAX_CALLS).unwrap();
        let share = r.clients[0].retries as f64 / r.summary.original_requests as f64;
        assert!((share - 0.75).abs() < 0.01, "seed {seed}: {share}");
    }
}

/// Poisson arrivals: the count over a long window is close to rate × time (±1 %, the
/// standard deviation being √n ≈ 0.3 % of n).
#[test]
fn poisson_arrivals_have_the_configured_rate() {
    for seed in 1..=3 {
        let r = run_with(&chain(1, 1, 0.0, 100_000.0), seed, DEFAULT_MAX_CALLS).unwrap();
        let n = r.summary.original_requests as f64;
        assert!((n - 100_000.0).abs() / 100_000.0 < 0.01, "seed {seed}: {n}");
    }
}
