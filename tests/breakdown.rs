//! The cause breakdown adds up, for every preset and a few seeds: per hop the results of
//! its calls and the refusals of its admission and queue; the request flow to the summary's
//! figures; the causes to the failed and degraded requests; and both engines count alike
//! (the kernel's reports are compared byte for byte in `tests/kernel.rs`).
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::i18n::T;
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, Engine, run_on, run_with};
use resilience_lab::plot::breakdown::{hop_rows, request_flow};
use resilience_lab::report::Report;
use resilience_lab::scenario::presets;

fn check(name: &str, seed: u64, r: &Report) {
    let s = &r.summary;
    let at = |what: &str| format!("{name} seed {seed}: {what}");
    for h in &r.hops {
        assert_eq!(h.results.total(), h.calls, "{}", at(&format!("{}: results add up to the calls", h.name)));
        assert_eq!(h.refused.total(), h.rejected, "{}", at(&format!("{}: refusals add up", h.name)));
        let overload = h.refused.total() - h.refused.cost_exceeds_capacity;
        assert_eq!(h.results.overload, overload, "{}", at(&format!("{}: 429/503 are the refusals", h.name)));
        assert!(h.results.client_error >= h.refused.cost_exceeds_capacity);
        assert_eq!(h.results.cancelled, h.cancelled, "{}", at("cancelled"));
    }
    // The entry's 429/503 are the requests its admission turned away.
    assert_eq!(r.hops[0].results.overload, s.admission_rejected, "{}", at("entry refusals"));
    assert_eq!(r.clients.iter().map(|c| c.timeouts).sum::<u64>(), s.timeouts, "{}", at("client timeouts"));
    // Every call a client sent reached its callee.
    for (i, h) in r.hops.iter().enumerate() {
        let sent: u64 = r.clients.iter().filter(|c| c.callee == i).map(|c| c.attempts).sum();
        let from_requests = if i == 0 { s.original_requests } else { 0 };
        assert_eq!(
            h.calls,
            sent + from_requests,
            "{}",
            at(&format!("{}: calls are the callers' attempts", h.name))
        );
    }

    let f = request_flow(r);
    assert_eq!(f.unexplained(), 0, "{}", at("no 'other' in the flow"));
    let value = |id: &str| f.nodes.iter().find(|n| n.id == id).map_or(0, |n| n.value);
    let outcomes: u64 = f.column(1).map(|(_, n)| n.value).sum();
    assert_eq!(outcomes, s.original_requests, "{}", at("outcomes add up to the requests"));
    assert_eq!(value("requests"), s.original_requests);
    assert_eq!(value("succeeded"), s.succeeded);
    assert_eq!(value("degraded"), s.degraded);
    assert_eq!(value("failed") + value("unfinished"), s.failed, "{}", at("failed, finished or not"));
    assert_eq!(value("rejected"), s.admission_rejected);
    let under = |p: &str| -> u64 {
        f.nodes.iter().filter(|n| n.id.starts_with(&format!("{p}-"))).map(|n| n.value).sum()
    };
    assert_eq!(under("failed"), s.failed - s.unfinished, "{}", at("failure causes"));
    assert_eq!(under("degraded"), s.degraded, "{}", at("degradation causes"));
    assert_eq!(under("rejected"), s.admission_rejected, "{}", at("rejection reasons"));

    for row in hop_rows(r) {
        assert_eq!(row.segments.iter().map(|x| x.value).sum::<u64>(), row.calls, "{}", at(&row.name));
        assert!(
            row.segments.iter().all(|x| x.label != T::BdOther || x.value == 0),
            "{}",
            at("no 'other' at a hop")
        );
    }
}

#[test]
fn the_breakdown_adds_up_for_every_preset() {
    for p in presets::all() {
        let s = (p.build)();
        for seed in [1, 7, 42] {
            check(p.name, seed, &run_with(&s, seed, DEFAULT_MAX_CALLS).unwrap());
        }
    }
}

#[test]
fn runs_cut_short_count_their_calls_unfinished_on_both_engines() {
    // A leaf slower than the drain horizon: every request is still in flight at the end.
    let mut s = presets::chain_3x3();
    s.load = resilience_lab::scenario::Load::Batch { requests: 5 };
    s.leaf.work = resilience_lab::scenario::Dist::Constant { ms: 4_000_000.0 };
    for engine in [Engine::Auto, Engine::General] {
        let r = run_on(&s, 1, DEFAULT_MAX_CALLS, engine).unwrap();
        assert_eq!(r.summary.unfinished, 5);
        for h in &r.hops {
            assert_eq!(h.results.unfinished, 5, "{engine:?} {}: one call per request at every level", h.name);
            assert_eq!(h.results.total(), h.calls);
        }
        check("slow chain", 1, &r);
    }
}

#[test]
fn refusals_are_told_apart() {
    let r = run_with(&presets::lab11_protected(), 1, DEFAULT_MAX_CALLS).unwrap();
    assert_eq!(r.hops[0].refused.rate_limit, 80, "source 000: the bucket of 20 admits 20 of 100");
    let r = run_with(&presets::big_promo_protected(), 1, DEFAULT_MAX_CALLS).unwrap();
    assert!(r.hops[0].refused.rate_limit > 0, "the entry's rate limit");
    assert!(r.clients.iter().any(|c| c.timeouts > 0), "the 150 ms timeout towards recommendations fires");
}
