//! The retry-chain kernel is the general engine made faster, not a second model: on every
//! scenario it takes, its report must be byte-identical to the general engine's.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use resilience_lab::model::chain::{ChainSim, DEFAULT_MAX_CALLS, Engine, run_on};
use resilience_lab::policy::retry::{Backoff, Jitter, RetryOn};
use resilience_lab::report::Report;
use resilience_lab::scenario::presets::{self, layer, leaf, retrying};
use resilience_lab::scenario::*;

mod common;

/// Both engines' JSON reports, after checking the kernel does run `s`.
fn both(s: &Scenario, seed: u64) -> (String, String) {
    let sim = ChainSim::with_engine(s, seed, DEFAULT_MAX_CALLS, Engine::Auto).expect("valid scenario");
    assert!(sim.uses_kernel(), "the kernel should take {}", s.name);
    let fast = run_on(s, seed, DEFAULT_MAX_CALLS, Engine::Auto).unwrap().to_json();
    let general = run_on(s, seed, DEFAULT_MAX_CALLS, Engine::General).unwrap().to_json();
    (fast, general)
}

fn assert_same(s: &Scenario, seed: u64) {
    let (fast, general) = both(s, seed);
    if fast != general {
        let at = fast.bytes().zip(general.bytes()).position(|(a, b)| a != b).unwrap_or(0);
        let from = at.saturating_sub(200);
        panic!(
            "{}: kernel and general engine differ at byte {at}\nkernel:  …{}\ngeneral: …{}",
            s.name,
            &fast[from..(at + 200).min(fast.len())],
            &general[from..(at + 200).min(general.len())]
        );
    }
}

fn chain(
    layers: usize,
    attempts: u32,
    backoff: Backoff,
    leaf_ms: f64,
    error_rate: f64,
    load: Load,
) -> Scenario {
    let ls = (0..layers)
        .map(|i| {
            let mut c = retrying(attempts, 0.0);
            c.retry.backoff = backoff;
            layer(&format!("l{i}"), c)
        })
        .collect();
    Scenario {
        name: "kernel-test".into(),
        seed: 1,
        load,
        layers: ls,
        leaf: leaf("leaf", leaf_ms, error_rate),
        faults: Vec::new(),
        cancel_on_timeout: false,
        slo: Default::default(),
        report: ReportOptions { bucket_ms: None, trace_sample: 12, ..Default::default() },
    }
}

#[test]
fn every_retry_only_preset_is_identical_on_both_engines() {
    let mut taken = 0;
    for p in presets::all() {
        let s = (p.build)();
        let sim = ChainSim::new(&s, s.seed, DEFAULT_MAX_CALLS).unwrap();
        if sim.uses_kernel() {
            taken += 1;
            for seed in [1, 42, 7] {
                assert_same(&s, seed);
            }
        }
    }
    // lab11-unprotected (with its 20 ms backoff) and the three failing chains.
    assert_eq!(taken, 4, "presets the kernel takes");
}

#[test]
fn the_benchmark_chain_is_identical_on_both_engines() {
    let mut s = Scenario::from_json(include_str!("../benches/chain-3x3-1m.json")).unwrap();
    s.load = Load::Poisson { rate_per_s: 1000.0, peak_factor: 1.0, duration_ms: 5_000.0 };
    s.report.trace_sample = 20;
    assert_same(&s, 1);
    assert_same(&s, 99);
}

#[test]
fn scenarios_with_protections_run_on_the_general_engine() {
    let base = chain(2, 3, Backoff::None {}, 10.0, 0.5, Load::Batch { requests: 5 });
    let mut variants: Vec<Scenario> = Vec::new();
    let mut s = base.clone();
    s.layers[0].client.per_try_timeout_ms = Some(5.0);
    variants.push(s);
    let mut s = base.clone();
    s.layers[1].deadline_ms = Some(100.0);
    variants.push(s);
    let mut s = base.clone();
    s.leaf.server.workers = Some(3);
    variants.push(s);
    let mut s = base.clone();
    s.layers[0].work = Dist::Constant { ms: 1.0 };
    variants.push(s);
    let mut s = base.clone();
    s.layers[0].side_deps =
        vec![SideDep { target: leaf("side", 1.0, 0.0), client: retrying(1, 0.0), needed_by: 1.0 }];
    variants.push(s);
    for work in [Dist::Constant { ms: 0.0 }, Dist::Exponential { mean_ms: 10.0 }] {
        // Zero-time work, or work that varies (and may round to zero).
        let mut s = base.clone();
        s.leaf.work = work;
        variants.push(s);
    }
    let mut s = base.clone();
    s.faults = vec![Fault {
        target: "leaf".into(),
        start_ms: 0.0,
        end_ms: 10.0,
        effect: FaultEffect::ErrorRate { rate: 1.0 },
    }];
    variants.push(s);
    for s in variants {
        let sim = ChainSim::new(&s, 1, DEFAULT_MAX_CALLS).unwrap();
        assert!(!sim.uses_kernel(), "{:?}", s.layers[0]);
    }
    // A traffic surge changes arrivals only: the kernel still takes it.
    let mut s = base;
    s.faults = vec![Fault {
        target: String::new(),
        start_ms: 0.0,
        end_ms: 10.0,
        effect: FaultEffect::Surge { factor: 2.0 },
    }];
    assert!(ChainSim::new(&s, 1, DEFAULT_MAX_CALLS).unwrap().uses_kernel());
}

#[test]
fn runs_cut_at_the_drain_horizon_are_identical() {
    // Leaf calls of 40 minutes, three tries per layer: requests outlive the hour the run
    // may go on after the last arrival, mid-walk.
    let s = chain(
        2,
        3,
        Backoff::None {},
        2_400_000.0,
        0.7,
        Load::Constant { rate_per_s: 1.0, peak_factor: 1.0, duration_ms: 5_000.0 },
    );
    let (fast, _) = both(&s, 3);
    let r: Report = serde_json::from_str(&fast).unwrap();
    assert!(r.summary.unfinished > 0, "the kernel's report counts the requests cut by the horizon");
    assert_same(&s, 3);
    // The same with backoff sleeps that end past the horizon.
    let s = chain(2, 3, Backoff::Fixed { ms: 3_000_000.0 }, 10.0, 0.9, Load::Batch { requests: 8 });
    assert!(run_on(&s, 5, DEFAULT_MAX_CALLS, Engine::Auto).unwrap().summary.unfinished > 0);
    assert_same(&s, 5);
}

#[test]
fn stepping_in_slices_gives_the_same_report() {
    let s = chain(
        3,
        3,
        Backoff::Exponential { base_ms: 1.0, cap_ms: 8.0 },
        10.0,
        0.5,
        Load::Poisson { rate_per_s: 800.0, peak_factor: 1.0, duration_ms: 2_000.0 },
    );
    let whole = run_on(&s, 11, DEFAULT_MAX_CALLS, Engine::Auto).unwrap().to_json();
    let mut sim = ChainSim::new(&s, 11, DEFAULT_MAX_CALLS).unwrap();
    assert!(sim.uses_kernel());
    let mut last = 0.0;
    while !sim.step(7).unwrap() {
        assert!(sim.progress() >= last);
        last = sim.progress();
    }
    assert_eq!(sim.finish().to_json(), whole);
}

/// Draws from the full scenario generator (every feature of the model) and, whenever the
/// kernel accepts a scenario, requires the same bytes from both engines. A field added to
/// the specs is a compile error in the kernel's eligibility check; this test catches a rule
/// the kernel would apply differently.
#[test]
fn every_generated_scenario_the_kernel_takes_is_identical() {
    let n: u64 = std::env::var("KERNEL_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(4_000);
    let mut taken = 0;
    for i in 0..n {
        let s = common::random::scenario(i);
        let sim = ChainSim::new(&s, s.seed, DEFAULT_MAX_CALLS).expect("the generator makes valid scenarios");
        if !sim.uses_kernel() {
            continue;
        }
        taken += 1;
        let fast = run_on(&s, s.seed, DEFAULT_MAX_CALLS, Engine::Auto).unwrap().to_json();
        let general = run_on(&s, s.seed, DEFAULT_MAX_CALLS, Engine::General).unwrap().to_json();
        assert!(fast == general, "scenario {i} ({}): reports differ", s.name);
    }
    assert!(taken * 20 >= n, "the kernel took only {taken} of {n} generated scenarios");
}

/// Leaf work the kernel takes: fixed and at least 1 µs.
fn arb_work() -> impl Strategy<Value = Dist> {
    prop_oneof![(0.001..40.0f64).prop_map(|ms| Dist::Constant { ms }), Just(Dist::Constant { ms: 0.001 })]
}

fn arb_backoff() -> impl Strategy<Value = (Backoff, Jitter)> {
    prop_oneof![
        Just((Backoff::None {}, Jitter::None)),
        (0.0..30.0f64, prop_oneof![Just(Jitter::None), Just(Jitter::Full), Just(Jitter::Equal)])
            .prop_map(|(ms, j)| (Backoff::Fixed { ms }, j)),
        (
            0.5..10.0f64,
            1.0..8.0f64,
            prop_oneof![Just(Jitter::None), Just(Jitter::Full), Just(Jitter::Decorrelated)]
        )
            .prop_map(|(base_ms, x, j)| (Backoff::Exponential { base_ms, cap_ms: base_ms * x }, j)),
    ]
}

fn arb_load() -> impl Strategy<Value = Load> {
    prop_oneof![
        (1u64..=40).prop_map(|requests| Load::Batch { requests }),
        (50.0..3000.0f64, 20.0..300.0f64).prop_map(|(r, d)| Load::Poisson {
            rate_per_s: r,
            peak_factor: 1.0,
            duration_ms: d
        }),
        (50.0..3000.0f64, 20.0..300.0f64).prop_map(|(r, d)| Load::Constant {
            rate_per_s: r,
            peak_factor: 1.0,
            duration_ms: d
        }),
    ]
}

fn arb_chain() -> impl Strategy<Value = Scenario> {
    (
        proptest::collection::vec((1u32..=3, arb_backoff(), any::<[bool; 3]>()), 1..=5),
        arb_work(),
        (0.0..1.0f64, 0.0..0.3f64, 0.0..1.0f64),
        arb_load(),
        (0u32..=10, proptest::option::of(0.1..20.0f64), proptest::option::of((0.0..100.0f64, 0.25..4.0f64))),
    )
        .prop_map(|(layers, work, (err, client_err, empty), load, (trace_sample, bucket_ms, surge))| {
            let ls = layers
                .into_iter()
                .enumerate()
                .map(|(i, (attempts, (backoff, jitter), [timeout, error, overload]))| {
                    let mut c = retrying(attempts, 0.0);
                    c.retry.backoff = backoff;
                    c.retry.jitter = jitter;
                    c.retry.retry_on = RetryOn { timeout, error, overload };
                    layer(&format!("l{i}"), c)
                })
                .collect();
            let mut lf = leaf("leaf", 0.0, err);
            lf.work = work;
            lf.client_error_rate = client_err.min(1.0 - err);
            lf.empty_rate = empty;
            let faults = surge
                .map(|(start, factor)| Fault {
                    target: String::new(),
                    start_ms: start,
                    end_ms: start + 50.0,
                    effect: FaultEffect::Surge { factor },
                })
                .into_iter()
                .collect();
            Scenario {
                name: "arb-chain".into(),
                seed: 1,
                load,
                layers: ls,
                leaf: lf,
                faults,
                cancel_on_timeout: false,
                slo: Default::default(),
                report: ReportOptions { bucket_ms, trace_sample, ..Default::default() },
            }
        })
}

proptest! {
    // 96 cases per run; PROPTEST_CASES=3000 (checked once) for a deeper search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    /// Random retry-only chains — any depth up to 5, attempts, retried outcomes, backoff
    /// and jitter, leaf work, error mixes, loads, surges, chart buckets fine enough to merge,
    /// traces — give the same bytes on both engines.
    #[test]
    fn random_retry_only_chains_are_identical(s in arb_chain(), seed in any::<u64>()) {
        prop_assume!(validate(&s).is_ok());
        let (fast, general) = both(&s, seed);
        prop_assert!(fast == general, "reports differ for {:?}", s);
    }

    /// Deep chains: up to 8 layers.
    #[test]
    fn deep_chains_are_identical(depth in 6usize..=8, err in 0.0..1.0f64, seed in any::<u64>()) {
        let s = chain(depth, 2, Backoff::None {}, 5.0, err, Load::Batch { requests: 6 });
        let (fast, general) = both(&s, seed);
        prop_assert!(fast == general);
    }
}
