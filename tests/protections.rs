//! Breakers, bulkheads, degradation and fault injection in the chain model: the issue's
//! presets show what they claim, asserted on their reports.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::model::chain::run;
use resilience_lab::policy::breaker::State;
use resilience_lab::policy::bulkhead::BulkheadConfig;
use resilience_lab::report::Report;
use resilience_lab::scenario::presets::{self, layer, leaf, retrying, side};
use resilience_lab::scenario::*;

fn preset(name: &str) -> Report {
    run(&(presets::find(name).unwrap().build)()).unwrap()
}

fn versus(name: &str) -> Report {
    run(&(presets::find(name).unwrap().versus.expect("has a comparison").build)()).unwrap()
}

/// Sums a per-bucket series over [from_ms, to_ms).
fn window(r: &Report, series: &[u64], from_ms: f64, to_ms: f64) -> u64 {
    let b = r.series.bucket_ms;
    series
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as f64 * b >= from_ms && (*i as f64 * b) < to_ms)
        .map(|(_, v)| v)
        .sum()
}

#[test]
fn big_promo_protected_keeps_orders_above_99_9_percent() {
    let bad = preset("big-promo");
    let good = preset("big-promo-protected");
    assert!(good.summary.core_success_rate >= 0.999, "protected: {}", good.summary.core_success_rate);
    assert!(bad.summary.core_success_rate < 0.5, "unprotected collapses: {}", bad.summary.core_success_rate);
    assert!(
        good.summary.degraded_rate > 0.2,
        "recommendations degrade visibly: {}",
        good.summary.degraded_rate
    );
    assert!(good.summary.admission_rejected > 0, "entry rejections are observable");
    assert_eq!(good.summary.failed, 0);
    assert!(good.summary.degraded_stale > 0, "the hot list answers, labelled stale");
    assert!(good.summary.breaker_rejected > 0, "the breaker stops useless calls");
    assert_eq!(bad.summary.original_requests, good.summary.original_requests, "same seed, same traffic");
    // The unprotected run amplifies (the app's retries) while the protected one does not.
    assert!(bad.summary.amplification > 2.0 * good.summary.amplification);
}

#[test]
fn breaker_demo_goes_closed_open_half_open_closed() {
    let r = preset("breaker-demo");
    let cfg = presets::breaker_demo().layers[0].client.breaker.unwrap();
    assert!(cfg.window >= 20 && cfg.min_calls >= 20 && cfg.failure_rate_pct >= 50.0);
    let path: Vec<(State, State)> = r.breaker_transitions.iter().map(|t| (t.from, t.to)).collect();
    let pos = |from: State, to: State| path.iter().position(|(f, t)| *f == from && *t == to);
    let opened = pos(State::Closed, State::Open).expect("opens");
    let half = pos(State::Open, State::HalfOpen).expect("half-opens");
    let closed = pos(State::HalfOpen, State::Closed).expect("closes");
    assert!(opened < half && half < closed, "{path:?}");
    assert_eq!(path.last().unwrap().1, State::Closed, "ends closed");
    let t = &r.breaker_transitions;
    assert!(t[opened].t_ms >= 3000.0, "opens after the failure starts");
    assert!(t[closed].t_ms >= 8000.0, "closes only after the dependency recovered");
    assert!(r.summary.breaker_rejected > 0);
    assert_eq!(r.summary.failed, 0, "the fallback answers: no core failure");
    // The state is in the series too: one instance open at some point.
    assert!(r.series.breaker_open[0].contains(&1));
    assert!(r.series.breaker_half_open[0].contains(&1));
}

#[test]
fn the_chain_runs_a_time_based_window_and_files_say_so_only_when_chosen() {
    use resilience_lab::policy::breaker::{BreakerConfig, WindowKind};
    use resilience_lab::scenario::validate::validate;
    // A count-based breaker writes no window_kind, so every existing file and preset reads
    // and prints as before.
    let json = serde_json::to_string(&BreakerConfig::default()).unwrap();
    assert!(!json.contains("window_kind"), "{json}");
    let back: BreakerConfig = serde_json::from_str(&json).unwrap();
    assert_eq!(back.window_kind, WindowKind::Count);

    // The breaker demo with a 1 s time window that needs 50 calls: 100 req/s fills it.
    let mut s = presets::breaker_demo();
    let b = s.layers[0].client.breaker.as_mut().unwrap();
    *b = BreakerConfig { window: 1, window_kind: WindowKind::Time, min_calls: 50, ..*b };
    assert_eq!(validate(&s), Ok(()), "min_calls may exceed a time window's seconds");
    let json = serde_json::to_string(&s.layers[0].client.breaker).unwrap();
    assert!(json.contains(r#""window_kind":"time""#), "{json}");
    let r = run(&s).unwrap();
    let first = &r.breaker_transitions[0];
    assert_eq!((first.from, first.to), (State::Closed, State::Open));
    assert!(first.t_ms >= 3000.0, "opens only once the failures start: {}", first.t_ms);
    assert!(r.summary.breaker_rejected > 0);

    // The same minimum is refused for a count window of 1 call, naming the range.
    s.layers[0].client.breaker.as_mut().unwrap().window_kind = WindowKind::Count;
    let e = validate(&s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "layers[0].client.breaker.min_calls: got 50, allowed a whole number from 1 to 1 (calls)"
    );
}

#[test]
fn shared_pool_drags_the_core_down_and_isolated_pools_do_not() {
    let shared = preset("bulkhead-shared-vs-isolated");
    let isolated = versus("bulkhead-shared-vs-isolated");
    assert!(shared.summary.core_success_rate < 0.7, "shared: {}", shared.summary.core_success_rate);
    assert!(isolated.summary.core_success_rate >= 0.999, "isolated: {}", isolated.summary.core_success_rate);
    assert!(isolated.summary.bulkhead_rejected > 0, "recommendations are refused beyond their pool");
    assert!(isolated.summary.degraded > shared.summary.degraded);
}

#[test]
fn retry_storm_is_metastable_without_a_budget_and_recovers_with_one() {
    let storm = preset("metastable-retry-storm");
    let calm = versus("metastable-retry-storm");
    // The trigger lasts from 4 s to 5 s; look at 14–20 s, long after it.
    let offered = window(&storm, &storm.series.offered, 14_000.0, 20_000.0);
    let storm_ok = window(&storm, &storm.series.succeeded, 14_000.0, 20_000.0);
    let calm_ok = window(&calm, &calm.series.succeeded, 14_000.0, 20_000.0);
    assert!(offered > 2000);
    assert!((storm_ok as f64) < 0.05 * offered as f64, "still overloaded: {storm_ok} of {offered}");
    assert!((calm_ok as f64) > 0.9 * offered as f64, "recovered: {calm_ok} of {offered}");
    // Before the trigger both were healthy, on the same traffic.
    assert_eq!(
        window(&storm, &storm.series.succeeded, 0.0, 4000.0),
        window(&calm, &calm.series.succeeded, 0.0, 4000.0)
    );
    let queue_at = |r: &Report, ms: f64| r.series.queue[1][(ms / r.series.bucket_ms) as usize];
    assert!(queue_at(&storm, 19_000.0) > 1000, "the queue keeps growing");
    assert!(queue_at(&calm, 19_000.0) < 100, "the queue drained");
    assert!(storm.hops[1].abandoned_work > 1000, "abandoned calls still took workers");
}

/// A page whose only dependency besides the core is optional and always down.
fn optional_dep_scenario(down: bool, empty_rate: f64) -> Scenario {
    let mut page = layer("page", retrying(1, 0.0));
    let mut recs = leaf("recommendations", 5.0, 0.0);
    recs.empty_rate = empty_rate;
    page.side_deps =
        vec![side(recs, Client { fallback: Some(Fallback::Unavailable {}), ..retrying(2, 0.0) })];
    let mut s = presets::lab11_unprotected();
    s.name = "optional".into();
    s.layers = vec![page];
    s.leaf = leaf("product-facts", 2.0, 0.0);
    if down {
        s.faults = vec![Fault {
            target: "recommendations".into(),
            start_ms: 0.0,
            end_ms: 1e9,
            effect: FaultEffect::Down {},
        }];
    }
    s
}

#[test]
fn fallback_responses_never_count_as_core_failures() {
    let r = run(&optional_dep_scenario(true, 0.0)).unwrap();
    assert_eq!(r.summary.failed, 0);
    assert_eq!(r.summary.degraded, 100);
    assert_eq!(r.summary.degraded_unavailable, 100);
    assert_eq!(r.summary.degraded_by_cause.error, 100);
    assert_eq!(r.summary.core_success_rate, 1.0);
    assert_eq!(r.summary.attempts_per_hop, vec![100, 100, 200], "the optional call was retried once");
}

#[test]
fn computed_empty_is_counted_apart_from_unavailable() {
    let r = run(&optional_dep_scenario(false, 0.3)).unwrap();
    assert_eq!(r.summary.degraded, 0, "an empty list is a real answer");
    assert!((20..=40).contains(&r.summary.computed_empty), "about 30 of 100: {}", r.summary.computed_empty);
    let r = run(&optional_dep_scenario(true, 0.3)).unwrap();
    assert_eq!(r.summary.computed_empty, 0);
    assert_eq!(r.summary.degraded_unavailable, 100);
}

#[test]
fn bulkhead_rejects_exactly_when_slots_and_queue_are_full() {
    let mut s = optional_dep_scenario(false, 0.0);
    s.load = Load::Batch { requests: 10 };
    s.layers[0].client.bulkhead =
        Some(BulkheadConfig { max_concurrent: 3, max_queue: 2, queue_timeout_ms: None });
    s.layers[0].client.fallback = Some(Fallback::Unavailable {});
    let r = run(&s).unwrap();
    assert_eq!(r.summary.bulkhead_rejected, 5, "10 at once: 3 run, 2 wait, 5 are refused");
    assert_eq!(r.summary.attempts_per_hop[1], 5);
    assert_eq!(r.summary.degraded, 5);
}

#[test]
fn surge_multiplies_arrivals_inside_its_window() {
    let mut s = presets::chain_2x3();
    s.load = Load::Constant { rate_per_s: 100.0, peak_factor: 1.0, duration_ms: 3000.0 };
    s.faults = vec![Fault {
        target: String::new(),
        start_ms: 1000.0,
        end_ms: 2000.0,
        effect: FaultEffect::Surge { factor: 5.0 },
    }];
    let r = run(&s).unwrap();
    assert_eq!(window(&r, &r.series.offered, 0.0, 1000.0), 100);
    assert_eq!(window(&r, &r.series.offered, 1000.0, 2000.0), 500);
    assert_eq!(window(&r, &r.series.offered, 2000.0, 3000.0), 100);
}

#[test]
fn per_instance_breakers_half_open_together_and_make_a_burst() {
    let mut s = presets::breaker_demo();
    let b = s.layers[0].client.breaker.as_mut().unwrap();
    b.instances = 8;
    b.timed_half_open = true;
    b.window = 10;
    b.min_calls = 10;
    s.load = Load::Poisson { rate_per_s: 400.0, peak_factor: 1.0, duration_ms: 15_000.0 };
    let r = run(&s).unwrap();
    let half_opens: Vec<f64> =
        r.breaker_transitions.iter().filter(|t| t.to == State::HalfOpen).map(|t| t.t_ms).collect();
    assert!(half_opens.len() >= 8, "every instance half-opens: {half_opens:?}");
    let peak_half = r.series.breaker_half_open[0].iter().copied().max().unwrap();
    assert!(peak_half >= 4, "many instances half-open at once: {peak_half}");
}

/// The report describes pools as the diagram draws them: big-promo's one shared pool of 8
/// threads with its unbounded queue, full and queueing during the incident; the protected
/// side's bulkheads with their sizes, never over them.
#[test]
fn pools_are_reported_with_their_size_use_and_queue() {
    let r = preset("big-promo");
    let product = r.hops.iter().position(|h| h.name == "product").unwrap();
    let pool = r.hops[product].shared_pool.expect("product shares a pool");
    assert_eq!((pool.size, pool.queue), (8, None));
    assert!(r.hops.iter().enumerate().all(|(i, h)| (i == product) == h.shared_pool.is_some()));
    let busy = &r.series.shared_pool_busy[product];
    let queue = &r.series.shared_pool_queue[product];
    assert_eq!(busy.len(), r.series.buckets);
    assert_eq!(busy.iter().max(), Some(&8), "the pool fills, never past its size");
    assert!(queue.iter().max().unwrap() > &1_000, "calls pile up behind it: {:?}", queue.iter().max());
    assert!(r.series.shared_pool_busy.iter().enumerate().all(|(i, s)| (i == product) != s.is_empty()));

    let p = preset("big-promo-protected");
    let mut seen = 0;
    for (ci, c) in p.clients.iter().enumerate() {
        match c.bulkhead {
            Some(b) => {
                seen += 1;
                let max_q = p.series.bulkhead_queue[ci].iter().max().copied().unwrap_or(0);
                let max_busy = p.series.bulkhead_in_use[ci].iter().max().copied().unwrap_or(0);
                assert!(max_q <= i64::from(b.queue.unwrap()), "{}: queue {max_q} over {:?}", c.name, b.queue);
                assert!(max_busy <= i64::from(b.size), "{}: busy {max_busy} over {}", c.name, b.size);
            }
            None => assert!(p.series.bulkhead_queue[ci].is_empty()),
        }
    }
    assert_eq!(seen, 2, "the order path's bulkhead and the recommendations bulkhead");
}
