//! Links are untrusted input: any string read as a query gives every page a state, never a
//! panic, and reading a page's own link back gives the same state.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use resilience_lab::query::Query;
use resilience_lab::state::admission::AdmissionState;
use resilience_lab::state::app::Route;
use resilience_lab::state::breaker::BreakerState;
use resilience_lab::state::calculator::CalcState;
use resilience_lab::state::queue::QueueState;
use resilience_lab::state::stability::page::StabilityState;
use resilience_lab::state::storm::StormState;

/// Keys a link may hold: known ones, near misses, empty and dotted ones, multi-byte ones.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "page",
            "lang",
            "embed",
            "preset",
            "seed",
            "compare",
            "layers",
            "faults",
            "rate",
            "duration",
            "pattern",
            "requests",
            "peak",
            "attempts",
            "l1.attempts",
            "l2.attempts",
            "l1.sides",
            "l1.timeout",
            "leaf.error",
            "leaf.work",
            "f1.target",
            "f1.error",
            "f1.end",
            "f1.kind",
            "s1.1.timeout",
            ".",
            "..",
            ".attempts",
            "l1.",
            "l0.attempts",
            "l99.attempts",
            "é1.attempts",
            "\u{a0}.x",
            "中.attempts",
            "f0.end",
            "l1.l1.attempts",
            "b",
            "r",
            "cost",
            "limit",
            "hold",
            "n",
            "gap",
            "gen",
            "arrivals",
            "workers",
            "queue",
            "service",
            "ms",
            "p99",
            "ceiling",
            "w",
            // The stability map's and the lessons' keys.
            "x",
            "y",
            "protect",
            "lesson",
            "step",
            "present",
            "notes",
            "interview",
            "role",
        ])
        .prop_map(str::to_string),
        any::<String>(),
        "[a-z0-9.%]{0,12}",
    ]
}

/// Values: numbers of every kind, words, junk, long strings.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        prop::sample::select(vec![
            "",
            "0",
            "-1",
            "1e999",
            "NaN",
            "inf",
            "yes",
            "TRUE",
            "2",
            "fr",
            "zh",
            "en",
            "storm",
            "calculator",
            "chain-3x4",
            "big-promo",
            "batch",
            "poisson",
            "burst",
            "even",
            "table",
            "log_normal",
            "0:1:500,0:1:100",
            "5:x:1,1:1:1:1,,9",
            "source-002",
            "source-003",
            "overload",
            "3,3,3",
            "1,2,3,4,5,6,7,8,9",
            "%",
            "%E4",
            "%E4%B8%AD",
            "+",
            "1.5",
            "0x10",
            " 3 ",
        ])
        .prop_map(str::to_string),
        any::<String>(),
        "[0-9,.e+-]{0,30}",
        (1usize..20_000).prop_map(|n| "9".repeat(n)),
    ]
}

fn link() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec((key(), value(), prop::sample::select(vec!["=", "", "=="])), 0..24).prop_map(
            |pairs| {
                let body: Vec<String> = pairs.into_iter().map(|(k, v, eq)| format!("{k}{eq}{v}")).collect();
                format!("?{}", body.join("&"))
            }
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_link_gives_every_page_a_state(link in link()) {
        let q = Query::parse(&link);
        let _ = Route::from_query(&q);

        let calc = CalcState::from_query(&q);
        let mut own = Query::new();
        calc.write_query(&mut own);
        let again = CalcState::from_query(&Query::parse(&own.to_query_string()));
        prop_assert_eq!(&again.input, &calc.input, "the calculator's own link reads back");

        let storm = StormState::from_query(&q);
        let own = storm.run_query();
        let again = StormState::from_query(&Query::parse(&own));
        prop_assert_eq!(&again.a, &storm.a, "the storm page's own link reads back");
        prop_assert_eq!((again.preset, again.seed, again.compare), (storm.preset, storm.seed, storm.compare));
        prop_assert!(again.errors.is_empty(), "its own link has no errors: {}", own);

        let adm = AdmissionState::from_query(&q);
        let mut own = Query::new();
        adm.write_query(&mut own);
        let again = AdmissionState::from_query(&Query::parse(&own.to_query_string()));
        prop_assert_eq!(&again.input, &adm.input, "the admission lab's own link reads back");
        prop_assert!(again.errors.is_empty(), "its own link has no errors: {}", own.to_query_string());

        let queue = QueueState::from_query(&q);
        let own = queue.run_query();
        let again = QueueState::from_query(&Query::parse(&own));
        prop_assert_eq!(&again.input, &queue.input, "the queue lab's own link reads back");
        prop_assert!(again.errors.is_empty(), "its own link has no errors: {}", own);

        let stability = StabilityState::from_query(&q);
        let mut own = Query::new();
        stability.write_query(&mut own);
        let again = StabilityState::from_query(&Query::parse(&own.to_query_string()));
        prop_assert_eq!(&again.sweep, &stability.sweep, "the stability map's own link reads back");
        prop_assert!(again.errors.is_empty(), "its own link has no errors: {}", own.to_query_string());

        // A lesson link names a step that exists, or it says why it names none.
        let lesson = resilience_lab::state::lesson::read(&q);
        match &lesson.at {
            Some(at) => prop_assert!(at.step < at.lesson.steps.len()),
            None => prop_assert!(
                q.get("lesson").is_none_or(str::is_empty) || !lesson.errors.is_empty(),
                "an unknown lesson is named: {:?}",
                q.get("lesson")
            ),
        }
    }
}

#[test]
fn the_links_that_crashed_the_page_give_states() {
    for link in [
        "?page=storm&preset=chain-3x3&.=1",
        "?page=storm&.attempts=1",
        "?page=calculator&..=1",
        "?page=calculator&%E4%B8%AD.attempts=1",
        "?page=storm&é1.attempts=1",
        "?page=storm&%C2%A0.x=1",
    ] {
        let q = Query::parse(link);
        let _ = Route::from_query(&q);
        let _ = CalcState::from_query(&q);
        let st = StormState::from_query(&q);
        assert!(!st.unknown.is_empty() || link.contains("calculator"), "{link}: the odd key is listed");
    }
}

#[test]
fn every_page_takes_compact_mode_as_its_own_key() {
    for page in ["storm", "calculator", "admission", "queue", "breaker"] {
        let q = Query::parse(&format!("?page={page}&embed=1"));
        assert!(Route::from_query(&q).embed, "{page}");
        let unknown = [
            StormState::from_query(&q).unknown,
            CalcState::from_query(&q).unknown,
            AdmissionState::from_query(&q).unknown,
            QueueState::from_query(&q).unknown,
            BreakerState::from_query(&q).unknown,
        ];
        assert!(unknown.iter().all(|u| u.is_empty()), "{page}: embed is no page's unknown key: {unknown:?}");
    }
}

/// The breaker lab's keys, and near misses.
fn breaker_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "preset",
            "window",
            "min_calls",
            "failure_pct",
            "slow_ms",
            "slow_pct",
            "open_ms",
            "probes",
            "rate",
            "seed",
            "phases",
            "phase_ms",
            "phase_fail",
            "phase_latency",
            "window_kind",
            "half_open",
            "arrivals",
            "lang",
        ])
        .prop_map(str::to_string),
        "[a-z_]{0,12}",
        // Any other key too, arbitrary Unicode among them.
        key(),
    ]
}

/// Values for them: the generic ones, and the lab's own words, lists and counts.
fn breaker_value() -> impl Strategy<Value = String> {
    prop_oneof![
        value(),
        prop::sample::select(vec![
            "source-001",
            "source-002",
            "flapping",
            "slow",
            "time",
            "count",
            "timed",
            "lazy",
            "even",
            "poisson",
            "5000,100,5000",
            "0,100,0",
            "50,50",
            "1,2,3,4,5,6,7,8,9",
            "100000",
            "0.015",
        ])
        .prop_map(str::to_string),
        (0u32..200).prop_map(|v| v.to_string()),
        (0.0f64..2000.0).prop_map(|v| v.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_link_gives_the_breaker_lab_a_state_whose_own_link_reads_back(
        pairs in prop::collection::vec((breaker_key(), breaker_value()), 0..16)
    ) {
        let body: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
        let st = BreakerState::from_query(&Query::parse(&format!("?page=breaker&{}", body.join("&"))));
        prop_assert!(resilience_lab::model::breaker_lab::run(&st.input).is_ok(), "the state it keeps runs");
        let mut own = Query::new();
        st.write_query(&mut own);
        let own = own.to_query_string();
        let again = BreakerState::from_query(&Query::parse(&own));
        prop_assert_eq!(&again.input, &st.input, "the lab's own link reads back: {}", own);
        prop_assert_eq!(again.preset, st.preset);
        prop_assert!(again.errors.is_empty(), "its own link has no errors: {}", own);
    }
}

#[test]
fn a_key_given_twice_is_named_once_on_every_page() {
    let q = Query::parse("?zzz=1&yyy=2&zzz=3");
    let want = vec!["zzz".to_string(), "yyy".to_string()];
    assert_eq!(StormState::from_query(&q).unknown[..], want, "storm");
    assert_eq!(CalcState::from_query(&q).unknown[..], want, "calculator");
    assert_eq!(BreakerState::from_query(&q).unknown[..], want, "breaker");
    assert_eq!(AdmissionState::from_query(&q).unknown[..], want, "admission");
    assert_eq!(QueueState::from_query(&q).unknown[..], want, "queue");
    assert_eq!(StabilityState::from_query(&q).unknown[..], want, "stability");
}
