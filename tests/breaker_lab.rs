//! The breaker lab's presets: every transition time and count follows from the settings
//! (see each preset's comment), computed here by the lab model over the policy's breaker.
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::model::breaker_lab::{Arrivals, Cause, Fate, LabInput, LabRun, check, preset, run};
use resilience_lab::policy::breaker::State::{self, Closed, HalfOpen, Open};
use resilience_lab::policy::breaker::Tally;

fn lab(name: &str) -> (LabInput, LabRun) {
    let input = preset(name).expect("a preset");
    let r = run(&input).expect("runs");
    (input, r)
}

/// (ms, to) of every transition.
fn path(r: &LabRun) -> Vec<(f64, State)> {
    r.changes.iter().map(|c| (c.at_us as f64 / 1000.0, c.to)).collect()
}

/// Let through while closed, rejected, probes — over the whole run.
fn counts(r: &LabRun) -> (u32, u32, u32) {
    let f = r.frames.last().unwrap();
    (f.passed, f.rejected, f.probes)
}

fn rates(r: &LabRun, i: usize) -> (Tally, bool, bool) {
    match r.changes[i].cause {
        Cause::Rates { tally, failure, slow } => (tally, failure, slow),
        c => panic!("change {i} was not decided on rates: {c:?}"),
    }
}

fn tally(calls: u32, failures: u32, slows: u32) -> Tally {
    Tally { calls, failures, slows }
}

#[test]
fn source_003_opens_at_10_failures_in_a_window_of_20() {
    // 10 calls/s, healthy for 5 s, down for 10 s. The window holds calls 40..59 when call
    // 59 (sent at 5.9 s) answers at 5.95 s: 10 successes, 10 failures = 50 % ≥ 50 %.
    // Open 5 s → the first call at or after 10.95 s (11.0 s) half-opens; its 3 probes fail
    // (the dependency is down until 15 s) → open at 11.25 s; the call at 16.3 s half-opens
    // again, 3 probes pass → closed at 16.55 s.
    let (input, r) = lab("source-003");
    assert_eq!(
        (input.breaker.window, input.breaker.min_calls, input.breaker.failure_rate_pct),
        (20, 20, 50.0)
    );
    assert_eq!(
        path(&r),
        vec![
            (5950.0, Open),
            (11_000.0, HalfOpen),
            (11_250.0, Open),
            (16_300.0, HalfOpen),
            (16_550.0, Closed)
        ]
    );
    assert_eq!(rates(&r, 0), (tally(20, 10, 0), true, false), "exactly at the threshold");
    assert_eq!(r.changes[1].cause, Cause::Waited { timed: false }, "lazy: at a call");
    assert_eq!(rates(&r, 2), (tally(3, 3, 0), true, false));
    assert_eq!(rates(&r, 4), (tally(3, 0, 0), false, false));
    assert_eq!(counts(&r), (194, 100, 6), "300 calls: 60 + 134 let through, 2 × 50 rejected, 2 × 3 probes");
    // The frame of call 59 shows the window that opened it.
    assert_eq!((r.frames[59].state, r.frames[59].tally), (Closed, tally(20, 9, 0)), "as call 59 is sent");
    assert_eq!((r.frames[60].state, r.frames[60].tally), (Open, tally(20, 10, 0)));
    assert_eq!(r.calls[60].fate, Fate::Rejected);
}

#[test]
fn source_001_time_window_opens_when_a_healthy_second_falls_out() {
    // 20 calls/s; healthy for 10 s, then 60 % of calls fail (3 in every 5). A 10 s window:
    // at 17.x s it holds 2 healthy seconds (40 calls) and 160 failing-phase calls, 96 of
    // them failed = 48 %. At 18 s second 8 falls out: the answer at 18.02 s makes 20 + 161
    // calls with 96 failures = 53 % → open. 30 s later (48.05 s, lazy) 3 probes: 2 of 3
    // fail → open at 48.17 s; at 78.2 s the dependency is healthy → closed at 78.32 s.
    let (input, r) = lab("source-001");
    assert_eq!((input.breaker.failure_rate_pct, input.breaker.open_ms), (50.0, 30_000.0));
    assert_eq!(
        path(&r),
        vec![
            (18_020.0, Open),
            (48_050.0, HalfOpen),
            (48_170.0, Open),
            (78_200.0, HalfOpen),
            (78_320.0, Closed)
        ]
    );
    assert_eq!(rates(&r, 0), (tally(181, 96, 0), true, false));
    // As the call at 17.95 s is sent (its answer comes at 17.97 s): 40 + 159 calls, 95
    // failed, 47.7 %. As the call at 18.0 s is sent, second 8 is out: 20 + 160 calls, 96
    // failed, 53 % — but rates are judged only when an answer is recorded (as in
    // Resilience4j), so it opens at the next answer, 18.02 s.
    assert_eq!((r.frames[359].at_us, r.frames[359].tally), (17_950_000, tally(199, 95, 0)));
    assert_eq!(
        (r.frames[360].at_us, r.frames[360].state, r.frames[360].tally),
        (18_000_000, Closed, tally(180, 96, 0))
    );
    assert_eq!(rates(&r, 2), (tally(3, 2, 0), true, false));
    assert_eq!(r.changes[1].at_us - r.changes[0].at_us, 30_030_000, "30 s open, then the next call");
    assert_eq!(counts(&r), (594, 1200, 6));
}

#[test]
fn source_002_opossum_settings_half_open_on_a_timer_with_one_trial() {
    // 10 calls/s; down from 10 s to 50 s. A 10 s window with no minimum: at 14.95 s it holds
    // 50 healthy and 50 failed calls = 50 % → open (opossum itself, with >, would wait for
    // the next failure). resetTimeout 30 s on a timer: half-open at exactly 44.95 s; the one
    // trial at 45.0 s fails → open at 45.05 s; half-open at 75.05 s, the trial passes →
    // closed at 75.15 s.
    let (input, r) = lab("source-002");
    assert!(input.breaker.timed_half_open);
    assert_eq!((input.breaker.min_calls, input.breaker.half_open_calls), (1, 1));
    assert_eq!(
        path(&r),
        vec![
            (14_950.0, Open),
            (44_950.0, HalfOpen),
            (45_050.0, Open),
            (75_050.0, HalfOpen),
            (75_150.0, Closed)
        ]
    );
    assert_eq!(rates(&r, 0), (tally(100, 50, 0), true, false));
    assert_eq!(r.changes[1].cause, Cause::Waited { timed: true }, "on the timer, between calls");
    assert_eq!(rates(&r, 2), (tally(1, 1, 0), true, false));
    assert_eq!(counts(&r), (198, 600, 2));
}

#[test]
fn a_flapping_dependency_reopens_in_half_open_and_closes_too_early() {
    // Window 10 calls, 2 s open, 3 probes, 10 calls/s. Down 2–6 s: open at 2.45 s (5 of
    // 10); the probes at 4.5 s meet it down → open again at 4.75 s. Up 6–7 s: the probes at
    // 6.8 and 6.9 s pass, the one at 7.0 s fails (down again 7–10 s): 1 of 3 = 33 % → closed
    // at 7.05 s, only to open on the next 10 failures at 8.05 s. Up from 10 s: closed at
    // 10.35 s.
    let (_, r) = lab("flapping");
    assert_eq!(
        path(&r),
        vec![
            (2450.0, Open),
            (4500.0, HalfOpen),
            (4750.0, Open),
            (6800.0, HalfOpen),
            (7050.0, Closed),
            (8050.0, Open),
            (10_100.0, HalfOpen),
            (10_350.0, Closed),
        ]
    );
    assert_eq!(rates(&r, 0), (tally(10, 5, 0), true, false));
    assert_eq!(rates(&r, 2), (tally(3, 3, 0), true, false), "half-open re-opens");
    assert_eq!(rates(&r, 4), (tally(3, 1, 0), false, false), "closes on 1 failure in 3");
    assert_eq!(rates(&r, 5), (tally(10, 10, 0), true, false), "a fresh window of 10 calls");
    assert_eq!(counts(&r), (91, 60, 9));
}

#[test]
fn slow_calls_open_it_and_in_flight_answers_are_not_recorded() {
    // Slow from 5 s: calls take 1.5 s ≥ the 1 s threshold. Call 59 (sent 5.9 s) answers at
    // 7.4 s: 10 slow of 20 = 50 % → open. Calls 60–73 were let through before that and
    // answer later, under another state: not recorded. 5 s later the call at exactly
    // 12.4 s half-opens (≥; Resilience4j would wait for the next one); its 3 probes are slow
    // → open at 14.1 s; healthy again, closed at 19.35 s.
    let (_, r) = lab("slow");
    assert_eq!(
        path(&r),
        vec![
            (7400.0, Open),
            (12_400.0, HalfOpen),
            (14_100.0, Open),
            (19_100.0, HalfOpen),
            (19_350.0, Closed)
        ]
    );
    assert_eq!(rates(&r, 0), (tally(20, 0, 10), false, true), "by the slow-call rate alone");
    assert_eq!(rates(&r, 2), (tally(3, 0, 3), false, true));
    let late: Vec<usize> =
        (0..r.calls.len()).filter(|&i| r.calls[i].fate == Fate::Passed && !r.calls[i].recorded).collect();
    assert_eq!(late, (60..=73).collect::<Vec<_>>());
    assert!(r.calls[74].fate == Fate::Rejected, "the answer at 7.4 s comes before the call at 7.4 s");
    assert_eq!(counts(&r), (130, 114, 6));
}

#[test]
fn bad_input_is_refused_with_field_value_and_range() {
    let mut input = preset("source-003").unwrap();
    input.rate_per_s = 700.0; // 30 s × 700/s = 21,000 calls
    let e = check(&input).unwrap_err();
    assert_eq!(e.to_string(), "rate: got 700, allowed a number from 0.01 to 666.66 (calls/s)");
    input.rate_per_s = 10.0;
    input.breaker.min_calls = 21;
    assert_eq!(
        check(&input).unwrap_err().to_string(),
        "min_calls: got 21, allowed a whole number from 1 to 20 (calls)"
    );
    input.breaker.min_calls = 20;
    input.phases[1].failure_pct = 101.0;
    assert_eq!(
        check(&input).unwrap_err().to_string(),
        "phase_fail #2: got 101, allowed a number from 0 to 100 (%)"
    );
    input.phases.clear();
    assert!(run(&input).is_err(), "no phase: refused, not a panic");
}

#[test]
fn poisson_runs_are_seeded_and_bounded() {
    let mut input = preset("source-003").unwrap();
    input.arrivals = Arrivals::Poisson;
    let a = run(&input).unwrap();
    assert_eq!(a, run(&input).unwrap(), "same seed, same run");
    input.seed = 2;
    assert_ne!(a.calls, run(&input).unwrap().calls, "another seed, other calls");
    // About 300 calls expected; the failing phase opens the breaker.
    assert!((240..=360).contains(&a.calls.len()), "{}", a.calls.len());
    assert_eq!(a.changes[0].to, Open);
    // The most calls any input may ask for: 20,000, in milliseconds.
    input.rate_per_s = 666.66;
    let big = run(&input).unwrap();
    assert!(big.calls.len() <= 20_000 && big.calls.len() > 19_000, "{}", big.calls.len());
    assert_eq!(big.frames.len(), big.calls.len() + 1);
}
