//! Attempt trees (issue 13): each traced request's calls, who made them and where each
//! branch stopped, on source 000's lab-11 presets, whose answers the source spells out.

use resilience_lab::model::chain::run_with;
use resilience_lab::model::tree::{AttemptTree, StopCause};
use resilience_lab::report::{CallResult, MarkKind, Refusal, Report, RequestOutcome};
use resilience_lab::scenario::{Scenario, presets};

/// Every one of the preset's 100 requests traced.
fn run_all_traced(mut s: Scenario) -> Report {
    s.report.trace_sample = 100;
    let r = run_with(&s, 1, 1e9).expect("runs");
    assert_eq!(r.traces.len(), 100, "{}: every request traced", s.name);
    r
}

fn trees(r: &Report) -> Vec<AttemptTree> {
    r.traces.iter().map(AttemptTree::of).collect()
}

/// (page, recommendation, profile) calls of a tree.
fn per_hop(t: &AttemptTree) -> (usize, usize, usize) {
    (t.calls_at(0), t.calls_at(1), t.calls_at(2))
}

#[test]
fn lab11_unprotected_every_request_is_nine_profile_calls_each_branch_exhausted() {
    let r = run_all_traced(presets::lab11_unprotected());
    for t in trees(&r) {
        assert_eq!(t.outcome, RequestOutcome::Failed);
        assert_eq!(per_hop(&t), (1, 3, 9), "request {}", t.request);
        let stops: Vec<StopCause> = t.branches().filter_map(|(_, b)| b.stop.map(|s| s.cause)).collect();
        assert_eq!(stops, vec![StopCause::AttemptsExhausted; 4], "request {}", t.request);
        // Each recommendation call sleeps 20 ms before its second and third attempt.
        for (caller, b) in t.branches().filter(|(_, b)| b.callee == 2) {
            let sleeps: Vec<f64> = b
                .events
                .iter()
                .filter(|m| m.kind == MarkKind::Backoff)
                .map(|m| m.end_ms - m.start_ms)
                .collect();
            assert_eq!(sleeps, vec![20.0, 20.0], "request {} call {caller}", t.request);
        }
    }
}

#[test]
fn lab11_protected_admits_twenty_and_retries_profile_once_within_the_budget() {
    let r = run_all_traced(presets::lab11_protected());
    let (mut admitted, mut refused) = (0, 0);
    for t in trees(&r) {
        let entry = &t.nodes[0].span;
        if t.outcome == RequestOutcome::Rejected {
            refused += 1;
            assert_eq!(entry.refusal, Some(Refusal::RateLimit), "request {}", t.request);
            assert_eq!(t.nodes.len(), 1, "a refused request makes no call");
            continue;
        }
        admitted += 1;
        assert_eq!(t.outcome, RequestOutcome::Degraded, "request {}", t.request);
        assert_eq!(per_hop(&t), (1, 1, 2), "request {}: 2 profile calls", t.request);
        let page = t.branches().find(|(_, b)| b.callee == 1).expect("page calls recommendation").1;
        assert_eq!(page.stop.map(|s| s.cause), Some(StopCause::AttemptsExhausted), "1 attempt of 1");
        assert_eq!(page.fallback, Some(MarkKind::FallbackUnavailable), "`unavailable`, not an empty list");
        let rec = t.branches().find(|(_, b)| b.callee == 2).expect("recommendation calls profile").1;
        assert_eq!(rec.stop.map(|s| s.cause), Some(StopCause::AttemptsExhausted));
    }
    assert_eq!((admitted, refused), (20, 80));
}

#[test]
fn lab11_budget_150_cuts_every_second_attempt_at_the_deadline_before_the_sleep() {
    let r = run_all_traced(presets::lab11_budget_150());
    let mut cut = 0;
    for t in trees(&r).iter().filter(|t| t.outcome != RequestOutcome::Rejected) {
        assert_eq!(per_hop(t), (1, 1, 1), "request {}: one profile call only", t.request);
        let rec = t.branches().find(|(_, b)| b.callee == 2).expect("recommendation calls profile").1;
        let first = &t.nodes[rec.attempts[0]].span;
        assert_eq!(first.result, CallResult::Error);
        let stop = rec.stop.expect("the branch stopped");
        assert_eq!(stop.cause, StopCause::Deadline, "request {}", t.request);
        assert_eq!(stop.at_ms, first.end_ms, "decided when the first attempt failed");
        assert!(
            rec.events.iter().all(|m| m.kind != MarkKind::Backoff),
            "request {}: cut before the backoff sleep, not after",
            t.request
        );
        cut += 1;
    }
    assert_eq!(cut, 20);
}

#[test]
fn examples_point_at_requests_of_their_kind() {
    let mut breaker_examples = 0;
    for p in presets::all() {
        let s = (p.build)();
        let r = run_with(&s, 7, 1e9).expect("runs");
        let ex = &r.examples;
        let kinds = [
            (ex.succeeded, RequestOutcome::Succeeded, r.summary.succeeded),
            (ex.degraded, RequestOutcome::Degraded, r.summary.degraded),
            (ex.failed, RequestOutcome::Failed, r.summary.failed),
            (ex.rejected, RequestOutcome::Rejected, r.summary.admission_rejected),
        ];
        for (example, outcome, count) in kinds {
            assert_eq!(example.is_some(), count > 0, "{}: {outcome:?}", p.name);
            let Some(n) = example else { continue };
            let mut asked = s.clone();
            asked.report.trace_requests = vec![n];
            let again = run_with(&asked, 7, 1e9).expect("runs");
            let t = again.traces.iter().find(|t| t.request == n).expect("traced");
            assert_eq!(t.outcome, outcome, "{}: example {n}", p.name);
            let mut same = again.clone();
            same.traces = r.traces.clone();
            assert_eq!(same, r, "{}: tracing a request changes nothing else", p.name);
        }
        let traced = |n: u64| {
            let mut asked = s.clone();
            asked.report.trace_requests = vec![n];
            let again = run_with(&asked, 7, 1e9).expect("runs");
            again.traces.into_iter().find(|t| t.request == n).expect("traced")
        };
        // The slowest answered request took the longest latency of any outcome.
        if let Some(n) = ex.slowest {
            let t = traced(n);
            let max = r.latency.iter().filter(|d| d.count > 0).map(|d| d.percentiles.max).fold(0.0, f64::max);
            assert!(((t.end_ms - t.arrival_ms) - max).abs() < 1e-6, "{}: slowest {n}", p.name);
        }
        // "Show me one cut by the breaker": its tree has a branch the breaker stopped.
        if let Some(n) = ex.by_cause.breaker_rejected {
            let tree = AttemptTree::of(&traced(n));
            assert!(
                tree.branches().any(|(_, b)| b.stop.map(|s| s.cause) == Some(StopCause::BreakerOpen)),
                "{}: request {n}",
                p.name
            );
            breaker_examples += 1;
        }
    }
    assert!(breaker_examples > 0, "some preset has a request cut by the breaker");
}

#[test]
fn latency_bars_name_a_request_from_the_bar() {
    let (mut bars, mut named) = (0, 0);
    for p in presets::all() {
        let s = (p.build)();
        let r = run_with(&s, 5, 1e9).expect("runs");
        for d in &r.latency {
            assert_eq!(d.examples.len(), d.bins.len(), "{}: one example slot per bar", p.name);
            for (b, (&(edge, count), &example)) in d.bins.iter().zip(&d.examples).enumerate() {
                assert!(example.is_none() || count > 0, "{}: an empty bar names nobody", p.name);
                if count == 0 {
                    continue;
                }
                bars += 1;
                let Some(n) = example else { continue };
                named += 1;
                let mut asked = s.clone();
                asked.report.trace_requests = vec![n];
                let again = run_with(&asked, 5, 1e9).expect("runs");
                let t = again.traces.iter().find(|t| t.request == n).expect("traced");
                assert_eq!(t.outcome, d.outcome, "{}: bar {b}'s request {n} has the bar's outcome", p.name);
                let lat = t.end_ms - t.arrival_ms;
                let lo = if b == 0 { 0.0 } else { d.bins[b - 1].0 };
                // Bars count histogram buckets (3 significant digits) by their lowest value.
                let last = b + 1 == d.bins.len();
                assert!(
                    (b == 0 || lat > lo * (1.0 - 1e-3)) && (last || lat <= edge * (1.0 + 1e-3)),
                    "{}: {lat} ms in ({lo}, {edge}]",
                    p.name
                );
            }
        }
    }
    assert!(named * 10 >= bars * 9, "most bars name a request: {named} of {bars}");
}

#[test]
fn a_4xx_set_on_the_page_is_never_retried() {
    // The storm page's `client_error` knob: a request failed by a 4xx has one leaf call on
    // that branch, stopped as not retryable, while 5xx branches around it retry.
    use resilience_lab::query::Query;
    use resilience_lab::state::storm::StormState;
    let st = StormState::from_query(&Query::parse(
        "?page=storm&preset=chain-3x3&leaf.error=0.5&leaf.client_error=0.3",
    ));
    assert!(st.errors.is_empty(), "{:?}", st.errors);
    assert_eq!(st.a.leaf.client_error_rate, 0.3);
    let r = run_with(&st.a, st.seed, 1e9).expect("runs");
    assert!(r.summary.failed_by_cause.client_error > 0, "{:?}", r.summary.failed_by_cause);
    let n = r.examples.by_cause.client_error.expect("an example of a 4xx failure");
    let mut asked = st.a.clone();
    asked.report.trace_requests = vec![n];
    let t =
        run_with(&asked, st.seed, 1e9).expect("runs").traces.into_iter().find(|t| t.request == n).unwrap();
    let tree = AttemptTree::of(&t);
    let cut: Vec<_> =
        tree.branches().filter(|(_, b)| b.stop.map(|s| s.cause) == Some(StopCause::NotRetryable)).collect();
    assert!(!cut.is_empty(), "request {n}: a branch stopped as not retryable");
    for (_, b) in cut {
        let last = b.attempts.last().expect("a call");
        assert_eq!(tree.nodes[*last].span.result, CallResult::ClientError, "the 4xx ends the branch");
    }
}
