//! The admission and queue labs: source 002's admission model step by step, source 003's
//! 5 × 200 / 3 × 429, source 002's capacity table, the queue closed forms against the
//! chain engine's runs, and the labs' links (bad values, unknown keys, round trips, the
//! storm page's `query_for`).
#![cfg(not(target_arch = "wasm32"))]

use resilience_lab::model::admission::{Event, Step};
use resilience_lab::model::chain::{DEFAULT_MAX_CALLS, run_with};
use resilience_lab::policy::token_bucket::Rejection;
use resilience_lab::query::Query;
use resilience_lab::scenario::{AdmissionConfig, Dist, TokenBucketConfig};
use resilience_lab::state::FieldKey;
use resilience_lab::state::admission::{self as adm, AdmissionAction, AdmissionState, Gen};
use resilience_lab::state::queue::{self as queue, QueueAction, QueueState, Service, simulated};
use resilience_lab::state::runs::{Batch, Job, Reply, Request};

fn step(t_ms: u64, event: Event, before: u64, after: u64, in_flight: u32) -> Step {
    Step { t_ms, event, before, after, in_flight }
}

#[test]
fn source_002_admission_step_by_step() {
    use Event::{Arrival, Completion};
    let st = AdmissionState::from_query(&Query::parse("?page=admission&preset=source-002"));
    let run = &st.run;
    // B = 2 tokens = 2,000 credits, r = 2 tokens/s = 2 credits/ms, starting full, limit 1.
    assert_eq!((run.per_token, run.capacity, run.rate_per_ms), (1000, 2000, 2));
    let want = vec![
        // #1 (cost 1, hold 500) takes the slot and 1,000 credits.
        step(0, Arrival(0, Ok(())), 2000, 1000, 1),
        // #2 at the same instant: tokens remain, the slot does not; nothing is taken.
        step(0, Arrival(1, Err(Rejection::ConcurrencyLimit)), 1000, 1000, 1),
        // #3 costs 3 tokens > B: refused before anything else is looked at.
        step(200, Arrival(2, Err(Rejection::CostExceedsCapacity)), 1400, 1400, 1),
        // #1 ends at exactly 500 ms and is released before the arrival at 500 ms.
        step(500, Completion(0), 2000, 2000, 0),
        step(500, Arrival(3, Ok(())), 2000, 0, 1),
        step(800, Completion(3), 600, 600, 0),
        // A free slot, 600 credits for a cost of 1,000: 400 missing at 2 per ms = 200 ms.
        step(800, Arrival(4, Err(Rejection::RateLimit { retry_after: 200 })), 600, 600, 0),
        // At 1,000 ms the bucket holds exactly 1,000 credits again.
        step(1000, Arrival(5, Ok(())), 1000, 0, 1),
        step(1100, Completion(5), 200, 200, 0),
        // After the last event the bucket refills: 1,800 credits at 2 per ms, full at 2,000
        // ms. (At 500 ms it was full at exactly the completion's instant: no row of its own.)
        step(2000, Event::Refill, 200, 2000, 0),
    ];
    assert_eq!(run.steps, want);
    assert_eq!((run.admitted, run.rejected), (3, [1, 1, 1]));
    let reasons: Vec<&str> = run
        .steps
        .iter()
        .filter_map(|s| match s.event {
            Arrival(_, Err(r)) => Some(r.reason()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, ["concurrency_limit", "cost_exceeds_capacity", "rate_limit"]);

    // The boundary matters: one millisecond more of hold and #4 finds the slot taken.
    let later = st.reduce(AdmissionAction::Type(FieldKey::at("row_hold", 0), "501".into()));
    let at_500 = later.run.steps.iter().find(|s| s.t_ms == 500).unwrap();
    assert_eq!(at_500.event, Arrival(3, Err(Rejection::ConcurrencyLimit)));
    assert_eq!(later.input.source, Gen::Table);
}

#[test]
fn source_003_five_200_three_429_with_retry_after() {
    let st = AdmissionState::from_query(&Query::parse("?page=admission&preset=source-003"));
    let run = &st.run;
    assert_eq!((st.input.capacity, st.input.rate_milli, st.input.arrivals.len()), (5, 1000, 8));
    assert_eq!(run.admitted, 5, "5 × 200");
    assert_eq!(run.rejected, [0, 3, 0], "3 × 429, all rate_limit");
    let rejections: Vec<_> = run
        .steps
        .iter()
        .filter_map(|s| match s.event {
            Event::Arrival(i, Err(r)) => Some((i, r, s.before, s.after)),
            _ => None,
        })
        .collect();
    // 1 token/s = 1 credit per ms; the empty bucket needs 1,000 credits: Retry-After 1 s,
    // the same for each, since a rejection consumes nothing.
    let ra = Rejection::RateLimit { retry_after: 1000 };
    assert_eq!(rejections, vec![(5, ra, 0, 0), (6, ra, 0, 0), (7, ra, 0, 0)]);
}

#[test]
fn the_other_admission_presets_tell_their_stories() {
    let cost = AdmissionState::new("cost-above-b");
    assert_eq!((cost.run.admitted, cost.run.rejected), (0, [0, 0, 5]), "a cost above B never passes");
    assert!(cost.run.steps.iter().all(|s| s.before == 2000), "the bucket is full each time, in vain");
    let steady = AdmissionState::new("steady-above-r");
    // 20 arrivals 400 ms apart against r = 2/s and B = 2: the first refusal at 2,400 ms.
    let first = steady.run.steps.iter().find(|s| matches!(s.event, Event::Arrival(_, Err(_)))).unwrap();
    assert_eq!((first.t_ms, first.before), (2400, 800));
    assert_eq!((steady.run.admitted, steady.run.rejected), (17, [0, 3, 0]));
}

#[test]
fn admission_links_round_trip_and_bad_values_fall_back_alone() {
    let st = AdmissionState::new("source-002")
        .reduce(AdmissionAction::Type(FieldKey::plain("r"), "2.5".into()))
        .reduce(AdmissionAction::Type(FieldKey::at("time", 2), "250".into()))
        .reduce(AdmissionAction::AddRow);
    assert_eq!(st.run.per_token, 1_000_000, "a decimal rate: 10⁶ credits per token");
    let mut q = Query::parse("?page=admission&lang=zh");
    st.write_query(&mut q);
    assert_eq!(
        q.to_query_string(),
        "?page=admission&lang=zh&preset=source-002&r=2.5&arrivals=0:1:500,0:1:100,250:3:100,500:2:300,800:1:100,1000:1:100,1000:1:100"
    );
    let back = AdmissionState::from_query(&q);
    assert_eq!((back.input.clone(), back.run.clone()), (st.input.clone(), st.run.clone()));

    let bad = AdmissionState::from_query(&Query::parse(
        "?page=admission&preset=source-003&b=-1&limit=2&gen=sometimes&arrivals=0:1:5,x:1:2,5:0:1,1:1:1:1,9&zzz=1&zzz=2",
    ));
    assert_eq!(bad.input.capacity, 5, "b fell back to the preset's");
    assert_eq!(bad.input.limit, 2, "good fields still apply");
    let err = |k: FieldKey| bad.errors.get(&k).map(|(raw, e)| (raw.clone(), e.to_string()));
    assert_eq!(
        err(FieldKey::plain("b")),
        Some(("-1".into(), "b: got -1, allowed 0 (off) or a whole number from 1 to 1000000".into()))
    );
    assert!(err(FieldKey::plain("gen")).unwrap().1.contains("one of table, burst, even, poisson"));
    // A rate finer than one credit a second is refused by name, not rounded away.
    let fine = AdmissionState::new("source-002")
        .reduce(AdmissionAction::Type(FieldKey::plain("r"), "0.0005".into()));
    assert_eq!(fine.input.rate_milli, 2000, "the rate stays the preset's");
    assert_eq!(
        fine.errors.get(&FieldKey::plain("r")).map(|(raw, e)| (raw.clone(), e.to_string())),
        Some((
            "0.0005".into(),
            "r: got 0.0005, allowed a number from 0 to 1000000 with at most 3 decimals".into()
        ))
    );
    assert_eq!(
        err(FieldKey::at("arrivals", 1)).unwrap().1,
        "arrivals #2 time: got x, allowed a whole number from 0 to 1000000000"
    );
    assert!(err(FieldKey::at("arrivals", 2)).unwrap().1.starts_with("arrivals #3 cost: got 0"));
    assert!(err(FieldKey::at("arrivals", 3)).is_some(), "four parts");
    let times: Vec<u64> = bad.input.arrivals.iter().map(|a| a.at_ms).collect();
    assert_eq!(
        times,
        vec![0, 9],
        "the bad items are skipped, the good ones kept (defaults for cost and hold)"
    );
    assert_eq!(bad.unknown[..], vec!["zzz".to_string()]);

    let unknown = AdmissionState::from_query(&Query::parse("?preset=nope"));
    assert_eq!(unknown.preset, "source-002");
    assert!(unknown.errors.get(&FieldKey::plain("preset")).is_some());
}

#[test]
fn admission_input_is_bounded() {
    let many: Vec<String> = (0..1500).map(|i| format!("{i}:1:1")).collect();
    let st = AdmissionState::from_query(&Query::parse(&format!("?arrivals={}", many.join(","))));
    assert_eq!(st.input.arrivals.len(), 1000);
    assert!(st.errors.get(&FieldKey::plain("arrivals")).is_some(), "the cut is said");
    let generated = AdmissionState::from_query(&Query::parse("?gen=poisson&n=1000&gap=600000&seed=7"));
    assert_eq!(generated.input.arrivals.len(), 1000);
    // A Poisson process started at 0: the first arrival too comes after a gap, whose mean is
    // the gap's (1,000 draws of mean 600 s: within 10 %).
    let a = &generated.input.arrivals;
    assert!(a[0].at_ms > 0, "{:?}", a[0]);
    let mean = a[999].at_ms as f64 / 1000.0;
    assert!((mean - 600_000.0).abs() < 60_000.0, "mean gap {mean} ms");
    assert!(generated.input.arrivals.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    let refills = generated.run.steps.iter().filter(|s| s.event == Event::Refill).count();
    assert_eq!(
        generated.run.steps.len(),
        1000 + generated.run.admitted + refills,
        "every arrival, every completion and every refill to full, nothing more"
    );
    // A refill row only where the bucket was short, at the moment it is full again, before
    // the next event.
    for w in generated.run.steps.windows(2) {
        if w[1].event == Event::Refill {
            assert!(w[0].after < generated.run.capacity && w[1].after == generated.run.capacity, "{w:?}");
            assert!(w[1].t_ms > w[0].t_ms);
        }
    }
    let big = AdmissionState::from_query(&Query::parse("?n=5000"));
    assert_eq!(big.input.n, 6, "beyond 1,000 the field keeps the preset's value");
    assert!(big.errors.get(&FieldKey::plain("n")).is_some());
}

#[test]
fn admission_query_for_a_storm_hop() {
    let cfg = AdmissionConfig {
        token_bucket: Some(TokenBucketConfig { capacity: 20, rate_per_s: 20.0, cost: 1 }),
        concurrency_limit: None,
        retry_after_ms: 1000.0,
    };
    let link = adm::query_for(&cfg, None);
    assert_eq!(link, "?page=admission&preset=source-002&b=20&r=20&limit=0&n=23&gen=burst&at=23");
    let st = AdmissionState::from_query(&Query::parse(&link));
    assert!(st.errors.is_empty() && st.unknown.is_empty());
    assert_eq!((st.run.admitted, st.run.rejected_total()), (20, 3));
    assert_eq!(st.at, Some(23), "opened paused with every arrival's verdict shown");
    let only_limit =
        AdmissionConfig { token_bucket: None, concurrency_limit: Some(4), retry_after_ms: 1000.0 };
    let st = AdmissionState::from_query(&Query::parse(&adm::query_for(&only_limit, None)));
    assert_eq!((st.input.capacity, st.run.admitted, st.run.rejected), (0, 4, [3, 0, 0]));
}

#[test]
fn source_002_capacity_table() {
    let st = QueueState::from_query(&Query::parse("?page=queue"));
    let o = st.input.capacity().unwrap();
    assert_eq!(o.per_worker_rps, 25.0);
    assert_eq!(o.ideal_rps, 200.0);
    assert_eq!(o.utilisation, 0.6, "ρ 60 %");
    assert_eq!(o.admit_rps, 150.0, "admit 150/s at 75 %");
    assert_eq!(o.headroom_rps, 50.0);
    assert_eq!(o.margin_to_ceiling_rps, 30.0);
    assert_eq!(o.min_workers, 7, "ceil(120 / (25 × 0.75))");
    assert_eq!(o.busy_workers, 4.8, "L at W = 40 ms");
    assert_eq!(o.in_system, Some(12.0), "L at W = 100 ms");
}

#[test]
fn erlang_c_against_published_values() {
    use resilience_lab::model::queueing::Pool;
    // The call-centre textbook case (e.g. callcentrehelper.com, "Erlang C formula – made
    // simple"): 100 calls per 30 minutes at 180 s each is 10 erlangs; with 11 agents the
    // probability of waiting is 68.21 %, the mean wait 122.8 s, and 39.0 % of calls are
    // answered within 20 s (1 − C·e^{−(c − a)·20/180}).
    let p = Pool { lambda: 100.0 / 1800.0, service_ms: 180_000.0, workers: 11 };
    let c = p.erlang_c().unwrap();
    assert_eq!(format!("{c:.4}"), "0.6821");
    assert_eq!(format!("{:.1}", p.mmc().wait_ms.unwrap() / 1000.0), "122.8");
    assert_eq!(format!("{:.3}", 1.0 - c * (-(11.0 - 10.0) * 20.0 / 180.0f64).exp()), "0.390");
    // A textbook M/M/m exercise: 120 customers an hour, 3 minutes each, 10 servers
    // (a = 6): "from the Erlang C curve, the probability of waiting is about 0.10".
    let p = Pool { lambda: 120.0 / 3600.0, service_ms: 180_000.0, workers: 10 };
    assert_eq!(format!("{:.4}", p.erlang_c().unwrap()), "0.1013");
}

/// Runs the lab's own setting through the chain engine, as the worker does.
fn simulate(query: &str) -> (QueueState, queue::Simulated) {
    let st = QueueState::from_query(&Query::parse(query));
    let r = run_with(&st.input.scenario(0), st.input.seed, DEFAULT_MAX_CALLS).unwrap();
    let s = simulated(&r).unwrap();
    (st, s)
}

fn within(what: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "{what}: simulated {got}, closed form {want}, tolerance {tol}");
}

#[test]
fn mmc_simulated_figures_match_the_closed_forms_within_tolerance() {
    // Source 002's workload as M/M/8: C(8, 4.8) = 0.13954 (the direct sum, tests in
    // model::queueing), Wq = C/(200 − 120) s = 1.744 ms, W = 41.744 ms, p99 ≈ 186.7 ms.
    // 20,000 requests a run: tolerances are about four standard errors, seen over seeds.
    for seed in 1..=6 {
        let (st, s) = simulate(&format!("?page=queue&seed={seed}"));
        let c = st.input.closed();
        let f = c.figures;
        assert!(c.exact);
        within("ρ", s.rho, f.rho, 0.025);
        within("P(wait)", s.p_wait, f.p_wait.unwrap(), 0.025);
        within("Wq (ms)", s.wait_ms, f.wait_ms.unwrap(), 0.25 * f.wait_ms.unwrap());
        within("W (ms)", s.time_ms, f.time_ms.unwrap(), 0.03 * f.time_ms.unwrap());
        within("p99 (ms)", s.p99_ms, c.p99_ms.unwrap(), 0.05 * c.p99_ms.unwrap());
        within("L", s.in_system, f.in_system.unwrap(), 0.04 * f.in_system.unwrap());
        assert_eq!(s.blocked, 0.0, "an unbounded queue turns nobody away");
    }
    // M/M/1 at ρ = 0.8: Wq = 160 ms; a busier queue is noisier (about 20 % over 20,000).
    let (st, s) = simulate("?page=queue&preset=single-worker");
    let f = st.input.closed().figures;
    within("M/M/1 P(wait)", s.p_wait, 0.8, 0.03);
    within("M/M/1 Wq", s.wait_ms, f.wait_ms.unwrap(), 0.2 * 160.0);
}

#[test]
fn littles_law_holds_on_every_run() {
    // L is the time average of the pool's own gauges (busy workers + queue), integrated
    // over the run; λ̂ × Ŵ comes from the served calls' counts and summed times. Two
    // accountings of one run: they agree to rounding in every preset, arrival process and
    // seed, blocked calls (which never enter the pool) included.
    for preset in queue::PRESETS.iter().map(|p| p.name) {
        for arrivals in ["poisson", "even"] {
            for seed in [1, 7] {
                let (_, s) =
                    simulate(&format!("?page=queue&preset={preset}&arrivals={arrivals}&seed={seed}"));
                let rel = (s.in_system - s.little).abs() / s.little.max(1e-12);
                assert!(rel < 1e-9, "{preset} {arrivals} seed {seed}: L {} vs λW {}", s.in_system, s.little);
                assert!(s.in_system > 0.0);
            }
        }
    }
}

#[test]
fn evenly_spaced_arrivals_get_d_m_c_and_the_runs_match() {
    // Source 002's workload with evenly spaced arrivals: D/M/8 at ρ = 0.6. Takács' exact
    // P(wait) 2.76 % and Wq 0.20 ms (Allen–Cunneen's halved Erlang C said 13.95 % and
    // 0.87 ms). Waits are rare and come in bunches, so one run of 20,000 requests scatters
    // (Wq 0.15–0.32 ms over seeds 1–6): the mean of six seeds is held to the forms.
    let mean_of = |query: &str| {
        let runs: Vec<_> = (1..=6).map(|seed| simulate(&format!("{query}&seed={seed}"))).collect();
        let avg = |f: &dyn Fn(&queue::Simulated) -> f64| runs.iter().map(|(_, s)| f(s)).sum::<f64>() / 6.0;
        let c = runs[0].0.input.closed();
        (c, avg(&|s| s.p_wait), avg(&|s| s.wait_ms), avg(&|s| s.time_ms), avg(&|s| s.p99_ms))
    };
    let (c, p_wait, wait, time, p99) = mean_of("?page=queue&arrivals=even");
    assert_eq!(c.model, queue::Model::Dmc);
    assert!(c.exact && !c.bounded && c.p99_ms.is_some(), "{c:?}");
    let f = c.figures;
    within("D/M/8 P(wait)", p_wait, f.p_wait.unwrap(), 0.004);
    within("D/M/8 Wq", wait, f.wait_ms.unwrap(), 0.15 * f.wait_ms.unwrap());
    within("D/M/8 W", time, f.time_ms.unwrap(), 0.005 * f.time_ms.unwrap());
    within("D/M/8 p99", p99, c.p99_ms.unwrap(), 0.02 * c.p99_ms.unwrap());
    // At ρ = 0.9 the waits are common: P(wait) 56.1 %, Wq 14.5 ms.
    let (c, p_wait, wait, ..) = mean_of("?page=queue&arrivals=even&rate=180");
    let f = c.figures;
    within("D/M/8 at 0.9 P(wait)", p_wait, f.p_wait.unwrap(), 0.02);
    within("D/M/8 at 0.9 Wq", wait, f.wait_ms.unwrap(), 0.08 * f.wait_ms.unwrap());
}

#[test]
fn approximations_are_labelled_and_close() {
    // M/D/8: Allen–Cunneen halves M/M/c's wait; W is within 1 % of the run's.
    let (st, s) = simulate("?page=queue&preset=constant-service");
    let c = st.input.closed();
    assert!(!c.exact && c.p99_ms.is_none(), "no exact form, no p99 drawn");
    assert_eq!(st.input.factor(), 0.5);
    within("M/D/8 W", s.time_ms, c.figures.time_ms.unwrap(), 0.01 * c.figures.time_ms.unwrap());
    // D/D/c: evenly spaced arrivals and constant work below capacity never wait.
    let (st, s) = simulate("?page=queue&preset=constant-service&arrivals=even");
    assert_eq!((st.input.factor(), s.p_wait, s.wait_ms), (0.0, 0.0, 0.0));
    // Overload: no steady state without the limit; the bounded queue turns the excess away.
    let (st, s) = simulate("?page=queue&preset=overload");
    assert!(!st.input.closed().pool.stable());
    assert!(s.blocked > 0.02 && s.rho > 0.98, "{s:?}");
    // Without the limit the run's own offered load is λ/(cμ) = 105 %, which its busy share
    // (at most 100 %) is not.
    let (st, s) = simulate("?page=queue&preset=overload&queue=0");
    let seen = st.input.offered_seen(&s);
    assert!((seen - 1.05).abs() < 0.03 && s.rho <= 1.0 && s.rho > 0.98, "{seen} {s:?}");
    assert!(s.arrived >= s.served, "{s:?}");
}

#[test]
fn a_queue_limit_gets_m_m_c_k_forms_that_the_runs_match() {
    // The overload preset (M/M/8/58 at 105 %): exact P_K = 5.13 %, Wq = 171.5 ms. The run
    // starts empty and takes a few seconds to fill its queue, so it reads a little lower.
    let (st, s) = simulate("?page=queue&preset=overload");
    let c = st.input.closed();
    assert!(c.exact && c.bounded && c.p99_ms.is_none(), "{c:?}");
    let f = c.figures;
    within("M/M/8/58 turned away", s.blocked, f.blocked.unwrap(), 0.01);
    within("M/M/8/58 Wq", s.wait_ms, f.wait_ms.unwrap(), 0.05 * f.wait_ms.unwrap());
    within("M/M/8/58 busy share", s.rho, f.rho, 0.01);
    // Source 002's workload with one place to wait (M/M/8/9): 3.5 % turned away, 6.1 % of
    // the rest wait, 0.30 ms on average. The unbounded forms said 14 % and 1.74 ms.
    let (st, s) = simulate("?page=queue&preset=source-002&queue=1");
    let f = st.input.closed().figures;
    within("M/M/8/9 turned away", s.blocked, f.blocked.unwrap(), 0.006);
    within("M/M/8/9 P(wait)", s.p_wait, f.p_wait.unwrap(), 0.01);
    within("M/M/8/9 Wq", s.wait_ms, f.wait_ms.unwrap(), 0.06);
    assert!((f.p_wait.unwrap() - 0.0609).abs() < 5e-4, "{f:?}");
}

#[test]
fn queue_links_round_trip_and_bad_values_fall_back_alone() {
    let st = QueueState::default()
        .reduce(QueueAction::Choose("service", "log_normal".into()))
        .reduce(QueueAction::Type(FieldKey::plain("workers"), "4".into()))
        .reduce(QueueAction::Type(FieldKey::plain("queue"), "9".into()));
    assert_eq!(st.run_query(), "?preset=source-002&workers=4&queue=9&service=log_normal");
    assert_eq!(QueueState::from_query(&Query::parse(&st.run_query())).input, st.input);
    let bad = QueueState::from_query(&Query::parse(
        "?page=queue&workers=0&rate=abc&service=weird&ceiling=101&seed=3&foo=1",
    ));
    assert_eq!((bad.input.workers, bad.input.rate, bad.input.service), (8, 120.0, Service::Exponential));
    assert_eq!(bad.input.seed, 3);
    for key in ["workers", "rate", "service", "ceiling"] {
        assert!(bad.errors.get(&FieldKey::plain(key)).is_some(), "{key} has its error");
    }
    assert_eq!(
        bad.errors.get(&FieldKey::plain("workers")).unwrap().1.to_string(),
        "workers: got 0, allowed a whole number from 1 to 10000"
    );
    assert_eq!(bad.unknown[..], vec!["foo".to_string()]);
    // A log-normal's p99 below its median (40 ms) names the p99 and a range from the median,
    // in a link and when typed; it goes when the median comes down below it.
    let low = QueueState::from_query(&Query::parse("?page=queue&service=log_normal&p99=10"));
    let err =
        low.errors.get(&FieldKey::plain("p99")).expect("p99 below the median has its error").1.to_string();
    assert!(err.starts_with("p99: got 10, allowed") && err.contains("40"), "{err}");
    let typed = QueueState::default()
        .reduce(QueueAction::Choose("service", "log_normal".into()))
        .reduce(QueueAction::Type(FieldKey::plain("p99"), "10".into()));
    assert!(typed.errors.get(&FieldKey::plain("p99")).is_some(), "typed too");
    let fixed = typed.reduce(QueueAction::Type(FieldKey::plain("ms"), "5".into()));
    assert!(fixed.errors.get(&FieldKey::plain("p99")).is_none(), "a median below the p99 clears it");
}

#[test]
fn queue_query_for_a_storm_hop() {
    let link = queue::query_for(8, None, &Dist::Exponential { mean_ms: 40.0 }, 120.0, true, None);
    // Source 002's pool: W the closed form's 41.74 ms, up to a tenth.
    assert_eq!(link, "?page=queue&preset=source-002&w=41.8", "source 002's pool, W its closed form's");
    let link = queue::query_for(
        200,
        Some(0),
        &Dist::LogNormal { median_ms: 20.0, p99_ms: 200.0 },
        500.0,
        false,
        None,
    );
    let st = QueueState::from_query(&Query::parse(&link));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{link}");
    assert_eq!((st.input.workers, st.input.queue, st.input.rate), (200, 1, 500.0));
    assert!(!st.input.poisson, "an evenly spaced storm load: even arrivals");
    assert_eq!(st.input.dist(), Dist::LogNormal { median_ms: 20.0, p99_ms: 200.0 });
    // W: the closed form's time in system up to a tenth, so the table's L = λW is the
    // closed form's L (and the table takes it: W is not shorter than the work).
    let closed = st.input.closed().figures;
    let w = closed.time_ms.unwrap();
    assert!(st.input.w_ms >= w && st.input.w_ms - w < 0.1, "{} {w}", st.input.w_ms);
    let l = st.input.capacity().unwrap().in_system.expect("the table's L = λW row is filled");
    assert!((l - closed.in_system.unwrap()).abs() / l < 0.01, "{l} {:?}", closed.in_system);
    // Past capacity there is no steady state: W is the work time.
    let over = QueueState::from_query(&Query::parse(&queue::query_for(
        5,
        None,
        &Dist::Constant { ms: 10.0 },
        2000.0,
        true,
        None,
    )));
    assert_eq!(over.input.w_ms, 10.0);
    let st = QueueState::from_query(&Query::parse(&queue::query_for(
        1_000_000,
        Some(7),
        &Dist::Constant { ms: 0.0 },
        f64::NAN,
        true,
        None,
    )));
    assert!(st.errors.is_empty());
    assert_eq!((st.input.workers, st.input.queue, st.input.service_ms), (10_000, 7, 0.001));
}

#[test]
fn queue_jobs_travel_to_the_worker_and_stay_bounded() {
    let query = QueueState::default().run_query();
    let jobs: Vec<Job> =
        (0..=queue::SWEEP_RHOS.len()).map(|p| Job::Queue { query: query.clone(), point: p as u8 }).collect();
    let req = Request { id: 3, jobs };
    let back: Request = resilience_lab::wire::decode(&resilience_lab::wire::encode(&req)).unwrap();
    assert_eq!(back, req);
    let Some(Reply::Done { results, .. }) = Batch::new(&back).step(|| true) else { panic!("done") };
    assert_eq!(results.len(), 11);
    for (k, r) in results.iter().enumerate().skip(1) {
        let rep = r.as_ref().unwrap();
        let s = simulated(rep).unwrap();
        let want = queue::SWEEP_RHOS[k - 1];
        within(&format!("sweep point {k} ρ"), s.rho, want, 0.05);
        assert!(rep.summary.original_requests <= 5_300, "about 5,000 requests a point");
    }
    // The heaviest settings a link can name still run to the end, within the run budget.
    for q in [
        "?rate=10000000&workers=1&ms=86400000",
        "?rate=0.001&workers=10000&ms=0.001&arrivals=even",
        "?service=log_normal&ms=0.001&p99=86400000&workers=10000&rate=10000000",
    ] {
        let st = QueueState::from_query(&Query::parse(q));
        assert!(st.errors.is_empty(), "{q}");
        let t0 = std::time::Instant::now();
        let r = run_with(&st.input.scenario(0), 1, DEFAULT_MAX_CALLS).unwrap();
        assert!(r.summary.original_requests <= 20_000, "{q}");
        assert!(t0.elapsed().as_secs() < 20, "{q} took {:?}", t0.elapsed());
    }
}

#[test]
fn a_run_that_leaves_requests_unfinished_says_so() {
    let run = |q: &str| {
        let st = QueueState::from_query(&Query::parse(q));
        assert!(st.errors.is_empty(), "{q}");
        run_with(&st.input.scenario(0), st.input.seed, DEFAULT_MAX_CALLS).unwrap()
    };
    assert_eq!(queue::unfinished(&run("?page=queue")), None, "the default setting drains");
    // One worker and a second of work per call at 1,000 req/s: an hour after the last
    // arrival most calls still wait, and the figures count only those that finished.
    let r = run("?page=queue&rate=1000&ms=1000&workers=1&queue=1000000");
    let u = queue::unfinished(&r).expect("requests left");
    assert_eq!(u.cut, queue::Cut::Drain);
    assert!(u.left > 0 && u.left <= u.total && u.total == r.summary.original_requests, "{u:?}");
}

#[test]
fn each_point_of_the_curve_runs_with_a_seed_of_its_own() {
    // One seed for all made every point draw the same uniforms, so their sampling errors
    // leaned the same way; the lab's own run keeps the seed the learner typed.
    for seed in [0, 1, 7, 1_000_000_000] {
        let st = QueueState::from_query(&Query::parse(&format!("?page=queue&seed={seed}")));
        let input = &st.input;
        assert_eq!(input.point_seed(0), seed);
        let mut seeds: Vec<u64> = (0..=queue::SWEEP_RHOS.len()).map(|p| input.point_seed(p)).collect();
        for (p, &want) in seeds.iter().enumerate() {
            assert_eq!(input.scenario(p).seed, want, "point {p}");
            let job = Job::Queue { query: st.run_query(), point: p as u8 };
            assert_eq!(job.scenario().unwrap().1, want, "the worker runs point {p} with its seed");
        }
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), queue::SWEEP_RHOS.len() + 1, "seed {seed}: every point's differs");
    }
}

#[test]
fn every_sweep_point_the_page_runs_is_accepted_and_the_rest_are_named() {
    assert_eq!(
        QueueState::default().input.simulated_points(),
        (0..=queue::SWEEP_RHOS.len()).collect::<Vec<_>>()
    );
    // Settings within every knob's range whose curve asks for rates the engine refuses:
    // 10,000 workers of 1 ms want 10⁶–9.5 × 10⁶ req/s (in range, runs shorter than 1 ms);
    // of 0.001 ms, 10⁹ req/s and more (out); a p99 a million times the median, a mean of
    // half a day and a rate near zero (out).
    for (q, want) in [
        ("?workers=10000&ms=1", 11),
        ("?workers=10000&ms=0.001", 1),
        ("?service=log_normal&ms=1&p99=1000000", 1),
        ("?service=log_normal&ms=0.001&p99=86400000&workers=10000&rate=10000000", 1),
    ] {
        let st = QueueState::from_query(&Query::parse(q));
        assert!(st.errors.is_empty(), "{q}");
        let points = st.input.simulated_points();
        assert_eq!(points.len(), want, "{q}: {points:?}");
        for p in points {
            let r = run_with(&st.input.scenario(p), 1, DEFAULT_MAX_CALLS);
            assert!(r.is_ok(), "{q} point {p}: {:?}", r.err());
        }
    }
}

#[test]
fn admission_even_and_poisson_differ_from_a_burst_in_every_preset() {
    for p in resilience_lab::state::admission::PRESETS.iter() {
        for source in ["even", "poisson"] {
            let st = AdmissionState::from_query(&Query::parse(&format!("?preset={}&gen={}", p.name, source)));
            assert!(st.errors.is_empty(), "{} {}: {:?}", p.name, source, st.errors);
            let last = st.input.arrivals.last().map_or(0, |a| a.at_ms);
            assert!(last > 0, "{} with gen={} spreads its arrivals, not a burst at t = 0", p.name, source);
        }
    }
}

#[test]
fn a_changed_lab_says_its_story_is_the_presets() {
    for p in adm::PRESETS.iter() {
        assert!(!AdmissionState::new(p.name).departs_from_preset(), "{} as loaded", p.name);
    }
    let st = AdmissionState::from_query(&Query::parse("?preset=source-002&limit=0"));
    assert!(st.departs_from_preset(), "a changed limit");
    assert!(!st.reduce(AdmissionAction::Reset).departs_from_preset(), "reset: the preset again");
    for p in queue::PRESETS.iter() {
        assert!(!QueueState::new(p.name).departs_from_preset(), "{} as loaded", p.name);
    }
    assert!(QueueState::from_query(&Query::parse("?preset=source-002&rate=150")).departs_from_preset());
}

#[test]
fn the_workers_slider_steps_one_worker_at_a_time() {
    // Source 002's answer is 7 workers, and the capacity lesson asks for 6 next: from the
    // preset's 8, one arrow key each.
    let stops = queue::WORKERS.stops();
    let at = |v: f64| stops.iter().position(|&s| s == v).unwrap();
    assert_eq!((at(7.0), at(6.0)), (at(8.0) - 1, at(8.0) - 2));
}

#[test]
fn the_admission_labs_paused_step_travels_in_the_link_and_is_not_a_setting() {
    let st = AdmissionState::from_query(&Query::parse("?page=admission&preset=source-003&at=3"));
    assert_eq!(st.at, Some(3));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{:?}", st.unknown);
    assert!(!st.departs_from_preset(), "where the playback stands is not a setting");
    let mut q = Query::new();
    st.write_query(&mut q);
    assert_eq!(q.get("at"), Some("3"));
    // An edit is a new run, played from its start.
    assert_eq!(st.reduce(AdmissionAction::Type(FieldKey::plain("b"), "6".into())).at, None);
    let bad = AdmissionState::from_query(&Query::parse("?page=admission&at=x"));
    assert!(bad.at.is_none() && bad.errors.get(&FieldKey::plain("at")).is_some());
}

/// A storm hop's link says whose settings it brings (`from=`): read back, kept through an
/// edit, left by a preset or Reset, never counted as a changed setting, and a bad value
/// named.
#[test]
fn a_storm_links_origin_travels_with_the_lab_until_a_preset_is_picked() {
    use resilience_lab::state::lab::Origin;
    let server = Origin::Hop("server".into());
    let link = queue::query_for(5, None, &Dist::Constant { ms: 10.0 }, 446.0, true, Some(&server));
    assert!(link.ends_with("&from=server"), "{link}");
    let st = QueueState::from_query(&Query::parse(&link));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{link}");
    assert_eq!(st.from.as_ref(), Some(&server));
    // A refused value changes nothing: the settings are still the storm's.
    let refused = st.reduce(QueueAction::Type(FieldKey::plain("rate"), "-3".into()));
    assert_eq!(refused.from.as_ref(), Some(&server), "a refused value keeps it");
    let same = st.reduce(QueueAction::Type(FieldKey::plain("rate"), "446".into()));
    assert_eq!(same.from.as_ref(), Some(&server), "the same value keeps it");
    let edited = st.reduce(QueueAction::Type(FieldKey::plain("rate"), "300".into()));
    assert_eq!(
        (edited.input.rate, edited.from.as_ref()),
        (300.0, None),
        "an edit is the learner's: it leaves"
    );
    assert_eq!(st.reduce(QueueAction::Reset).from, None, "Reset leaves it");
    assert_eq!(st.reduce(QueueAction::Preset("overload".into())).from, None, "a preset leaves it");
    // Only the origin: the preset's own settings, not changed ones.
    let only = QueueState::from_query(&Query::parse("?page=queue&from=server"));
    assert!(!only.departs_from_preset(), "`from` is not a setting");

    let adm_link = adm::query_for(
        &AdmissionConfig {
            token_bucket: Some(TokenBucketConfig { capacity: 20, rate_per_s: 20.0, cost: 1 }),
            concurrency_limit: None,
            retry_after_ms: 1000.0,
        },
        Some(&Origin::Hop("checkout api".into())),
    );
    let st = AdmissionState::from_query(&Query::parse(&adm_link));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{adm_link}");
    assert_eq!(st.from, Some(Origin::Hop("checkout api".into())), "{adm_link}");
    assert!(st.reduce(AdmissionAction::At(Some(5))).from.is_some(), "a paused playhead is not a setting");
    assert!(
        st.reduce(AdmissionAction::Type(FieldKey::plain("b"), "10".into())).from.is_none(),
        "an edit leaves it"
    );
    assert_eq!(st.reduce(AdmissionAction::Reset).from, None);

    // A call: caller and callee, joined by an arrow.
    let call = Origin::Call("gateway".into(), "orders".into());
    let mut q = Query::new();
    resilience_lab::state::lab::write_from(&mut q, Some(&call));
    let st = QueueState::from_query(&Query::parse(&format!("?page=queue&{}", &q.to_query_string()[1..])));
    assert_eq!(st.from, Some(call));
    // Refused: an empty name, a name over 40 characters, three names.
    for bad in ["%20", &"x".repeat(41), "a%E2%86%92b%E2%86%92c"] {
        let st = QueueState::from_query(&Query::parse(&format!("?page=queue&from={bad}")));
        assert_eq!(st.from, None, "{bad}");
        assert!(st.errors.get(&FieldKey::plain("from")).is_some(), "{bad} is named");
    }
    // A name holding the arrow cannot be written as a link that reads back as itself.
    let mut q = Query::new();
    resilience_lab::state::lab::write_from(&mut q, Some(&Origin::Hop("a→b".into())));
    assert_eq!(q.get("from"), None);
}

/// The lab's own run draws its charts in buckets of a round width (1, 2 or 5 × 10ⁿ ms),
/// about 400 of them, that a teacher can say aloud.
#[test]
fn the_queue_labs_buckets_are_round() {
    for (rate, workers) in [(120.0, 8), (446.0, 5), (2.0, 1), (5000.0, 300)] {
        let mut st = QueueState::default();
        st.input.rate = rate;
        st.input.workers = workers;
        let s = st.input.scenario(0);
        let w = s.report.bucket_ms.expect("the lab's run sets its buckets");
        let mut m = w;
        while m >= 10.0 && m % 10.0 == 0.0 {
            m /= 10.0;
        }
        assert!([1.0, 2.0, 5.0].contains(&m), "{rate}/s: {w} ms");
        let n = s.load.duration_ms() / w;
        assert!((160.0..=400.0).contains(&n), "{rate}/s: {n} buckets of {w} ms");
        assert_eq!(st.input.scenario(1).report.bucket_ms, None, "the curve's points draw no series");
    }
}

#[test]
fn the_curve_reaches_a_setting_between_98_percent_and_capacity() {
    // source-002's pool (8 workers × 25/s) at 199/s: ρ = 99.5 %, past the line's usual end
    // at 98 %. The line goes on to the setting, whose closed-form W is its last point.
    let st = QueueState::from_query(&Query::parse("?page=queue&preset=source-002&rate=199"));
    let c = st.input.closed();
    let line = st.input.curve(c.model);
    let (rho, w) = *line.last().unwrap();
    assert!((rho - 0.995).abs() < 1e-12, "{rho}");
    assert_eq!(Some(w), c.figures.time_ms, "the setting's own W ends the line");
    // A setting below 98 % changes nothing: 60 points up to 98 %.
    let low = QueueState::from_query(&Query::parse("?page=queue&preset=source-002"));
    let line = low.input.curve(low.input.closed().model);
    assert_eq!(line.len(), 60);
    assert!((line.last().unwrap().0 - 0.98).abs() < 1e-12);
}
