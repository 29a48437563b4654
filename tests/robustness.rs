//! Every accepted scenario runs correctly and within bounds: one test per file in
//! `tests/repro/` (copied from `../shared/repro/`, whose README says what each showed and
//! should show), plus the run budget and the queue compaction.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use resilience_lab::model::chain::{ChainSim, DEFAULT_MAX_CALLS, Engine, RunBudget, run, run_with};
use resilience_lab::policy::breaker::{ClientErrors, State};
use resilience_lab::report::{Report, RequestOutcome, Stopped};
use resilience_lab::scenario::Scenario;
use std::process::Command;

fn scenario(file: &str) -> Scenario {
    let path = format!("{}/tests/repro/{file}", env!("CARGO_MANIFEST_DIR"));
    Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn report(file: &str) -> Report {
    run(&scenario(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The CLI on a repro file: (exit code, stdout, stderr).
fn cli(file: &str, extra: &[&str]) -> (i32, String, String) {
    let path = format!("{}/tests/repro/{file}", env!("CARGO_MANIFEST_DIR"));
    // JSON unless `extra` asks for another format (a flag given twice is refused).
    let format: &[&str] = if extra.contains(&"--format") { &[] } else { &["--format", "json"] };
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .args(["run", "--scenario", &path])
        .args(format)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Outcomes add up, and nothing is left unfinished unless the run says why.
fn sane(r: &Report) {
    let s = &r.summary;
    assert_eq!(s.succeeded + s.degraded + s.failed + s.admission_rejected, s.original_requests);
    assert!(s.latency_ms.p50 <= s.latency_ms.p99 && s.latency_ms.p99 <= s.latency_ms.max);
}

#[test]
fn a_bucket_that_never_refills_turns_calls_away_without_wrapping_time() {
    // rate_per_s 0 at the leaf: Retry-After "never", so the caller does not retry.
    let r = report("bug_zero_rate_constant.json");
    sane(&r);
    assert_eq!(r.summary.unfinished, 0);
    assert_eq!(r.summary.original_requests, 5);
    assert_eq!(r.summary.succeeded, 1, "the bucket's one token");
    assert_eq!(r.summary.failed_by_cause.overload, 4, "turned away by the rate limit, one hop down");
    assert_eq!(r.hops[1].calls, 5, "a Retry-After of never is not retried");
    let r = report("bug_zero_rate_batch.json");
    assert_eq!((r.summary.unfinished, r.summary.succeeded, r.summary.failed), (0, 1, 2));
    assert_eq!(cli("exit1-token-bucket-rate0.json", &[]).0, 0);
}

#[test]
fn extreme_work_draws_are_clamped_not_wrapped() {
    for file in ["exit1-lognormal-extreme.json", "exit1-latency-faults-multiply.json"] {
        let (code, out, err) = cli(file, &[]);
        assert_eq!(code, 0, "{file}: {err}");
        let r: Report = serde_json::from_str(&out).unwrap();
        sane(&r);
    }
    // Five ×1000 latency faults on 1 s of work: calls would take 10¹⁵ s; they are clamped to
    // 10 days and stay unfinished when the run ends an hour after its last arrival.
    let r = report("exit1-latency-faults-multiply.json");
    assert!(r.summary.unfinished > 0 && r.summary.end_ms <= 3_600_000.0 + 10_000_000.0);
}

#[test]
fn a_callees_deadline_exceeded_answer_opens_the_breaker() {
    let control = report("bug_breaker_deadline_control.json");
    let first_open = |r: &Report| r.breaker_transitions.iter().find(|t| t.to == State::Open).map(|t| t.t_ms);
    assert_eq!(first_open(&control), Some(290.0), "the control (plain failures) opens at 290 ms");
    let r = report("bug_breaker_deadline_success.json");
    assert!(r.summary.failed_by_cause.budget_exhausted > 0, "one hop down, the deadline runs out");
    let opened = first_open(&r).expect("the breaker records deadline-exceeded answers as failures and opens");
    assert!(opened < 1000.0, "opens within the first second: {opened}");
    assert!(r.summary.breaker_rejected > 0);
}

#[test]
fn client_errors_are_a_stated_choice() {
    let r = report("note_breaker_4xx.json");
    assert!(
        r.breaker_transitions.is_empty(),
        "4xx answers are ignored by default: neither success nor failure"
    );
    assert_eq!(r.summary.failed_by_cause.client_error, 100);
    let mut s = scenario("note_breaker_4xx.json");
    s.layers[0].client.breaker.as_mut().unwrap().client_errors = ClientErrors::Failure;
    let r = run(&s).unwrap();
    assert_eq!(
        r.breaker_transitions.first().map(|t| t.to),
        Some(State::Open),
        "recorded as failures, they open it"
    );
    s.layers[0].client.breaker.as_mut().unwrap().client_errors = ClientErrors::Success;
    assert!(run(&s).unwrap().breaker_transitions.is_empty());
}

#[test]
fn latency_bins_partition_the_requests() {
    let s = scenario("bug_latency_bins.json");
    let r = run_with(&s, 3, DEFAULT_MAX_CALLS).unwrap();
    for d in &r.latency {
        let sum: u64 = d.bins.iter().map(|b| b.1).sum();
        assert_eq!(sum, d.count, "{}: Σ bins = count", d.outcome);
    }
    let ok = r.latency.iter().find(|d| d.outcome == RequestOutcome::Succeeded).unwrap();
    assert!(ok.count > 90_000);
}

#[test]
fn constant_arrivals_count_exactly() {
    assert_eq!(report("bug_constant_10x5000.json").summary.original_requests, 50);
    assert_eq!(report("bug_constant_20x1000.json").summary.original_requests, 20);
}

#[test]
fn a_refusal_below_the_entry_fails_the_request_at_any_depth() {
    let one = report("bug_downstream_503_one_hop.json");
    let two = report("bug_downstream_503_two_hops.json");
    for r in [&one, &two] {
        sane(r);
        assert_eq!(r.summary.admission_rejected, 0, "only the entry's own admission rejects");
    }
    // The entry sees the 503 itself one hop down; two hops down the middle layer passes it
    // up as a 502, as a real service would.
    assert_eq!(one.summary.failed_by_cause.overload, 9);
    assert_eq!(two.summary.failed_by_cause.error, 9);
    assert_eq!(one.summary.core_success_rate, two.summary.core_success_rate, "same refusal, same outcome");
    assert_eq!(one.summary.failed, two.summary.failed);
}

#[test]
fn unknown_keys_inside_unit_variants_are_refused() {
    let (code, _, err) = cli("accepted-unknown-fields-in-unit-variants.json", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("layers[0].client.retry.backoff.zzz"), "{err}");
    // The file's other two unit variants, each alone: every one names its own key.
    let text = std::fs::read_to_string(format!(
        "{}/tests/repro/accepted-unknown-fields-in-unit-variants.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let without_backoff = text.replace(r#","zzz":1"#, "");
    let e = Scenario::from_json(&without_backoff).unwrap_err();
    assert_eq!(e.field, "layers[0].client.fallback.age_ms", "{e:?}");
    let only_down = without_backoff.replace(r#","age_ms":"x""#, "");
    let e = Scenario::from_json(&only_down).unwrap_err();
    assert_eq!(e.field, "faults[0].effect.junk", "{e:?}");
    assert!(
        Scenario::from_json(&only_down.replace(r#","junk":[1,2]"#, "")).is_ok(),
        "without them the file is valid"
    );
}

#[test]
fn surges_that_overlap_are_estimated_as_they_run() {
    let s = scenario("patho-surge-product-3.json");
    let estimate = resilience_lab::scenario::estimate_work(&s).requests;
    let sim = ChainSim::new(&s, s.seed, DEFAULT_MAX_CALLS).unwrap();
    drop(sim);
    // Three overlapping ×100 surges multiply: the estimate follows (within the Poisson or
    // rounding slack of one arrival), instead of adding them up.
    let mut small = s.clone();
    if let resilience_lab::scenario::Load::Constant { duration_ms, .. }
    | resilience_lab::scenario::Load::Poisson { duration_ms, .. } = &mut small.load
    {
        *duration_ms /= 100.0;
    }
    for f in &mut small.faults {
        f.start_ms /= 100.0;
        f.end_ms /= 100.0;
    }
    let ran = run(&small).unwrap().summary.original_requests as f64;
    let est = resilience_lab::scenario::estimate_work(&small).requests;
    assert!((ran - est).abs() <= 0.02 * est + 2.0, "ran {ran}, estimated {est}");
    assert!(estimate > 1e6, "the full file is estimated at {estimate} requests, as it runs");
}

#[test]
fn many_fault_windows_cost_only_the_active_ones() {
    for file in ["patho-faults-1000.json", "patho-faults-10000.json"] {
        let t = std::time::Instant::now();
        let r = report(file);
        sane(&r);
        assert!(t.elapsed().as_secs_f64() < 5.0, "{file} took {:?}", t.elapsed());
    }
}

#[test]
fn one_traced_request_keeps_a_bounded_trace() {
    let mut s = scenario("patho-trace-fanout-8x10-work0.json");
    // The full file implies 10⁸ leaf calls (accepted, and slow); six layers show the cap.
    s.layers.truncate(6);
    let r = run(&s).unwrap();
    let t = &r.traces[0];
    assert!(t.spans.len() + t.marks.len() <= 4_000);
    assert!(t.dropped > 0, "the trace says how much it dropped");
}

#[test]
fn runaway_queues_stop_cleanly_with_a_partial_report() {
    for file in [
        "patho-unbounded-queue-100000x10s.json",
        "patho-unbounded-queue-100000x100s.json",
        "patho-batch-10000000.json",
    ] {
        let (code, out, err) = cli(file, &[]);
        assert_eq!(code, 0, "{file}");
        assert!(err.contains("notice") && err.contains("diverged"), "{file}: {err}");
        let r: Report = serde_json::from_str(&out).unwrap();
        sane(&r);
        assert!(matches!(r.summary.stopped, Some(Stopped::CallsAlive { limit: 200_000, .. })), "{file}");
        assert!(r.summary.unfinished > 0);
        // The table says how many of its failed requests were still in flight.
        let (_, table, _) = cli(file, &["--format", "table"]);
        let want = format!("(incl. {} unfinished", r.summary.unfinished);
        assert!(table.lines().any(|l| l.starts_with("failed") && l.contains(&want)), "{file}: {table}");
    }
}

#[test]
fn oversized_files_are_refused_before_they_are_read() {
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .args(["run", "--scenario", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 8 MiB"));
}

#[test]
fn the_callee_budget_doc_example_runs_as_documented() {
    // A callee receives its caller's whole remaining deadline, not the per-try timeout: the
    // leaf (min_budget 0) starts every call even though the try waits only 50 ms.
    let r = report("bug_callee_budget_doc.json");
    assert_eq!(r.summary.budget_exhausted, 0);
    assert_eq!(r.summary.succeeded, 10);
}

#[test]
fn dropping_stale_events_never_changes_a_report() {
    for i in 0..300 {
        let s = common::random::scenario(i);
        let normal = run_with(&s, s.seed, DEFAULT_MAX_CALLS).unwrap().to_json();
        let budget = RunBudget { queue_compaction: 1, ..RunBudget::DEFAULT };
        let mut sim = ChainSim::with_budget(&s, s.seed, DEFAULT_MAX_CALLS, Engine::General, budget).unwrap();
        while !sim.step(1_000).unwrap() {}
        assert_eq!(sim.finish().to_json(), normal, "scenario {i}");
    }
}

#[test]
fn csv_quotes_names_with_commas() {
    let mut s = resilience_lab::scenario::presets::chain_2x3();
    s.leaf.name = "pro,file \"v2\"".into();
    let dir = std::env::temp_dir().join(format!("lab-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.json");
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .args(["run", "--scenario", path.to_str().unwrap(), "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().find(|l| !l.starts_with('#')).unwrap();
    assert!(header.contains(r#","attempts_pro,file ""v2""","#), "{header}");
    // Every row has as many fields as the header once quoted fields are read whole.
    let fields = |line: &str| {
        let (mut n, mut quoted) = (1, false);
        for ch in line.chars() {
            match ch {
                '"' => quoted = !quoted,
                ',' if !quoted => n += 1,
                _ => {}
            }
        }
        n
    };
    let want = fields(header);
    assert!(text.lines().filter(|l| !l.starts_with('#')).skip(1).all(|l| fields(l) == want));
}

#[test]
fn a_reader_that_stops_early_is_not_a_panic() {
    // `lab run … | head -1`: the pipe closes after the first line of a long report.
    use std::io::Read as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lab"))
        .env("LAB_LANG", "en")
        .args(["run", "--preset", "big-promo", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then dropped: closed
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}
