use super::*;
use crate::model::breaker_lab::run;
use crate::policy::breaker::State;

fn q(s: &str) -> BreakerState {
    BreakerState::from_query(&Query::parse(s))
}

fn link(st: &BreakerState) -> String {
    let mut q = Query::new();
    st.write_query(&mut q);
    q.to_query_string()
}

#[test]
fn a_preset_link_opens_the_preset_and_writes_only_what_differs() {
    let st = q("?page=breaker&preset=source-001");
    assert_eq!(st.input, lab::preset("source-001").unwrap());
    assert!(st.errors.is_empty() && st.unknown.is_empty());
    assert_eq!(link(&st), "?preset=source-001");
    let st = st.reduce(BreakerAction::Type(FieldKey::plain("open_ms"), "10000".into()));
    let st = st.reduce(BreakerAction::Choose("half_open", "timed".into()));
    let st = st.reduce(BreakerAction::Type(FieldKey::at("phase_fail", 1), "80".into()));
    let url = link(&st);
    assert_eq!(
        url,
        "?preset=source-001&half_open=timed&open_ms=10000&phase_ms=10000,40000,40000&phase_fail=0,80,0&phase_latency=20,20,20"
    );
    assert_eq!(q(&url).input, st.input, "the link reproduces the input");
}

#[test]
fn a_bad_value_shows_its_error_and_falls_back_for_that_field_only() {
    let st =
        q("?page=breaker&preset=source-003&failure_pct=150&open_ms=2000&window=abc&zzz=1&phase_ms=1,5000");
    let base = lab::preset("source-003").unwrap();
    assert_eq!(st.input.breaker.failure_rate_pct, 50.0, "the preset's value stays");
    assert_eq!(st.input.breaker.open_ms, 2000.0, "good fields still apply");
    assert_eq!(st.input.breaker.window, 20);
    let (raw, e) = st.errors.get(&FieldKey::plain("failure_pct")).expect("an error by the field");
    assert_eq!(
        (raw.as_str(), e.to_string().as_str()),
        ("150", "failure_pct: got 150, allowed a number from 0.01 to 100")
    );
    assert_eq!(st.errors.get(&FieldKey::plain("window")).unwrap().1.value, "abc");
    assert_eq!(st.errors.get(&FieldKey::at("phase_ms", 0)).unwrap().1.field, "phase_ms #1");
    assert_eq!(st.input.phases.len(), 2, "two items: two phases");
    assert_eq!(
        (st.input.phases[0].duration_ms, st.input.phases[1].duration_ms),
        (base.phases[0].duration_ms, 5000.0)
    );
    assert_eq!(st.unknown[..], vec!["zzz".to_string()]);
    // An unknown preset is named, and the default preset is used.
    let st = q("?preset=nope");
    assert_eq!(st.preset, "source-003");
    assert!(st.errors.get(&FieldKey::plain("preset")).unwrap().1.to_string().contains("source-001"));
    // A list longer than the phases, and a choice that is none of its options.
    let st = q("?phase_ms=5000&phase_fail=1,2&window_kind=sliding");
    assert_eq!(
        st.errors.get(&FieldKey::plain("phase_fail")).unwrap().1.to_string(),
        "phase_fail: got 1,2, allowed a list of exactly 1 items"
    );
    assert_eq!(
        st.errors.get(&FieldKey::plain("window_kind")).unwrap().1.to_string(),
        "window_kind: got sliding, allowed one of count, time"
    );
}

#[test]
fn too_many_calls_are_refused_naming_the_field_that_asked() {
    // source-003: 30 s at 10 calls/s. 20,000 calls allow 666.66 calls/s, or 2,000 s in all.
    let st = q("?rate=1000");
    assert_eq!(st.input.rate_per_s, 10.0);
    assert_eq!(
        st.errors.get(&FieldKey::plain("rate")).unwrap().1.to_string(),
        "rate: got 1000, allowed a number from 0.01 to 666.66 (calls/s)"
    );
    // Above the knob's own 1,000/s: the same bound, not a second maximum.
    let st = q("?rate=5000");
    assert_eq!(
        st.errors.get(&FieldKey::plain("rate")).unwrap().1.to_string(),
        "rate: got 5000, allowed a number from 0.01 to 666.66 (calls/s)"
    );
    for (typed, shown) in [("abc", "abc"), ("0", "0")] {
        let st = q(&format!("?rate={typed}"));
        assert_eq!(
            st.errors.get(&FieldKey::plain("rate")).unwrap().1.to_string(),
            format!("rate: got {shown}, allowed a number from 0.01 to 666.66 (calls/s)")
        );
    }
    let st =
        BreakerState::default().reduce(BreakerAction::Type(FieldKey::at("phase_ms", 1), "3000000".into()));
    assert_eq!(
        st.errors.get(&FieldKey::at("phase_ms", 1)).unwrap().1.to_string(),
        "phase_ms #2: got 3000000, allowed a number from 100 to 1980000 (ms)",
        "2,000 s less the other phases' 20 s"
    );
    let st = q("?rate=600").reduce(BreakerAction::Type(FieldKey::plain("phases"), "5".into()));
    assert_eq!(st.input.phases.len(), 3);
    assert_eq!(
        st.errors.get(&FieldKey::plain("phases")).unwrap().1.to_string(),
        "phases: got 5, allowed a whole number from 1 to 3",
        "45 s × 600/s > 20,000"
    );
}

#[test]
fn window_kind_sets_the_window_unit_and_the_minimum_calls_bound() {
    let st = BreakerState::default();
    assert_eq!(window_knob(st.input.breaker.window_kind).unit, T::UnitCalls);
    let st = st.reduce(BreakerAction::Type(FieldKey::plain("min_calls"), "50".into()));
    assert!(st.errors.get(&FieldKey::plain("min_calls")).is_some(), "50 calls never fit a window of 20");
    let st = st.reduce(BreakerAction::Choose("window_kind", "time".into()));
    assert_eq!(window_knob(st.input.breaker.window_kind).unit, T::BlUnitS);
    let st = st.reduce(BreakerAction::Type(FieldKey::plain("min_calls"), "50".into()));
    assert_eq!(st.input.breaker.min_calls, 50, "a 20 s window may need 50 calls");
    assert!(st.errors.is_empty());
    let st = st.reduce(BreakerAction::Choose("window_kind", "count".into()));
    assert_eq!(st.input.breaker.min_calls, 20, "back to a count window: clamped to its 20 calls");
}

#[test]
fn query_for_carries_a_storm_breaker_into_the_lab() {
    assert_eq!(
        query_for(&BreakerConfig::default(), None, None),
        "?page=breaker&preset=source-003&open_ms=30000&probes=1"
    );
    let cfg = BreakerConfig {
        window: 50,
        window_kind: WindowKind::Time,
        min_calls: 100,
        failure_rate_pct: 25.5,
        slow_call_ms: Some(200.0),
        slow_rate_pct: 80.0,
        open_ms: 1500.0,
        half_open_calls: 4,
        timed_half_open: true,
        instances: 7,
        client_errors: crate::policy::breaker::ClientErrors::Failure,
    };
    let link = query_for(&cfg, None, None);
    let st = q(&link);
    assert!(st.errors.is_empty(), "{link}: {:?}", st.errors);
    assert_eq!(st.input.breaker, BreakerConfig { instances: 1, client_errors: Default::default(), ..cfg });
    // A breaker outside the lab's ranges (a count window with more minimum calls than it
    // holds) opens with that field's error, not a panic.
    let st = q(&query_for(&BreakerConfig { min_calls: 40, ..BreakerConfig::default() }, None, None));
    assert!(st.errors.get(&FieldKey::plain("min_calls")).is_some());
}

#[test]
fn a_storm_breakers_link_names_its_call_until_a_preset_is_picked() {
    let call = super::super::lab::Origin::Call("client".into(), "server".into());
    let link = query_for(&BreakerConfig::default(), Some(&call), None);
    assert_eq!(link, "?page=breaker&preset=source-003&open_ms=30000&probes=1&from=client%E2%86%92server");
    let st = q(&link);
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{link}");
    assert_eq!(st.from.as_ref(), Some(&call));
    assert_eq!(st.reduce(BreakerAction::At(Some(7))).from.as_ref(), Some(&call), "a playhead keeps it");
    let edited = st.reduce(BreakerAction::Type(FieldKey::plain("probes"), "2".into()));
    assert_eq!(edited.from, None, "an edit is the learner's: it leaves");
    assert_eq!(st.reduce(BreakerAction::Reset).from, None, "Reset leaves it");
    assert_eq!(st.reduce(BreakerAction::Choose("preset", "source-002".into())).from, None);
    assert!(!q("?page=breaker&from=server").departs_from_preset(), "`from` is not a setting");
}

#[test]
fn a_slowed_dependency_opens_the_labs_breaker_through_the_timeout_as_slow_calls() {
    // The protected promo's recommendations slow down; on the storm page the breaker,
    // outside the per-try timeout, opens on the timeouts. The lab has no timeout: the link
    // makes it the slow-call threshold, judged at the failure threshold.
    let s = crate::scenario::presets::big_promo_protected();
    let r = crate::model::chain::run(&s).unwrap();
    let ci = (0..r.clients.len()).find(|&ci| r.hops[r.clients[ci].callee].name == "recommendations").unwrap();
    let c = &r.clients[ci];
    let client = s.client_to(c.caller, c.callee).unwrap();
    let cfg = client.breaker.expect("a breaker on recommendations");
    let traffic = storm_traffic(&s, &r, ci).unwrap();
    assert_eq!(traffic.timeout_as_slow_ms, client.per_try_timeout_ms);
    let st = q(&query_for(&cfg, None, Some(traffic)));
    assert!(st.errors.is_empty(), "{:?}", st.errors);
    assert_eq!(st.input.breaker.slow_call_ms, client.per_try_timeout_ms);
    assert_eq!(st.input.breaker.slow_rate_pct, cfg.failure_rate_pct);
    let run = crate::model::breaker_lab::run(&st.input).unwrap();
    assert!(
        run.changes.iter().any(|c| c.to == State::Open),
        "the lab's breaker opens too: {:?}",
        run.changes
    );
    assert!(r.breaker_transitions.iter().any(|t| t.client == ci && t.to == State::Open));
    // Without the stand-in it would not: the slowed calls never fail in the lab.
    let mut plain = st.input.clone();
    plain.breaker.slow_call_ms = None;
    let quiet = crate::model::breaker_lab::run(&plain).unwrap();
    assert!(quiet.changes.is_empty(), "{:?}", quiet.changes);
}

#[test]
fn a_storm_breakers_link_carries_its_calls_and_its_dependencys_faults() {
    let s = crate::scenario::presets::breaker_demo();
    let r = crate::model::chain::run(&s).unwrap();
    let traffic = storm_traffic(&s, &r, 0).unwrap();
    let cfg = s.layers[0].client.breaker.expect("the demo's breaker");
    let st = q(&query_for(&cfg, None, Some(traffic.clone())));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{:?}", st.errors);
    assert_eq!(st.input.phases, traffic.phases, "the storm's timeline, not source 003's");
    assert_eq!((st.input.rate_per_s, st.input.arrivals), (traffic.rate_per_s, traffic.arrivals));
    // A long load (40 minutes at 0.5/s) reads back whole: the preset's 10/s would not
    // cover its timeline.
    let mut long = s.clone();
    long.load =
        crate::scenario::Load::Constant { rate_per_s: 0.5, peak_factor: 1.0, duration_ms: 2_400_000.0 };
    let lr = crate::model::chain::run(&long).unwrap();
    let lt = storm_traffic(&long, &lr, 0).unwrap();
    let back = q(&query_for(&cfg, None, Some(lt.clone())));
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!((back.input.phases, back.input.rate_per_s), (lt.phases, lt.rate_per_s));
    // Played in the lab, the outage opens the breaker, as on the storm page.
    let run = crate::model::breaker_lab::run(&st.input).unwrap();
    assert!(run.changes.iter().any(|c| c.to == State::Open), "{:?}", run.changes);
    assert!(r.breaker_transitions.iter().any(|t| t.to == State::Open), "and on the storm page");
}

#[test]
fn the_page_state_runs_the_preset_the_tests_pin() {
    let st = q("?page=breaker&preset=source-002");
    let r = run(&st.input).unwrap();
    let opened = r.changes.iter().find(|c| c.to == State::Open).unwrap();
    assert_eq!(opened.at_us, 14_950_000);
}

#[test]
fn the_rate_help_states_the_models_cap() {
    // The help quotes the cap and the bound for source-003's 30 s timeline: both from the model.
    for lang in [crate::i18n::Lang::En, crate::i18n::Lang::Zh] {
        let help = lang.t(T::BlRateHelp);
        assert!(help.contains(&crate::i18n::format_number(lab::MAX_CALLS, 0)), "{help}");
        assert!(help.contains(&fmt_num(lab::max_rate(30_000.0))), "{help}");
    }
}

#[test]
fn a_changed_timeline_says_its_story_is_the_presets() {
    for p in lab::PRESETS.iter() {
        assert!(!q(&format!("?preset={p}")).departs_from_preset(), "{p} as loaded");
    }
    assert!(q("?rate=20").departs_from_preset());
    assert!(!q("?rate=20").reduce(BreakerAction::Reset).departs_from_preset());
}

#[test]
fn the_mapping_names_each_setting_in_resilience4j_and_opossum_with_the_labs_value() {
    use crate::i18n::Lang;
    // Source 003's breaker: a count window of 20, at least 20 calls, 50 %, 30 s open.
    let st = q("?page=breaker&preset=source-003");
    let rows = st.settings(Lang::En);
    let row =
        |r4j: &str| rows.iter().find(|r| r.2 == r4j).unwrap_or_else(|| panic!("{r4j} missing: {rows:?}"));
    assert_eq!(
        (row("slidingWindowSize").1.as_str(), row("slidingWindowSize").3),
        ("20 calls", "—"),
        "opossum has no count window"
    );
    let timed = q("?page=breaker&preset=source-002").settings(Lang::En);
    let window = timed.iter().find(|r| r.2 == "slidingWindowSize").expect("the window row");
    assert_eq!(window.3, "rollingCountTimeout", "a time window is opossum's: {window:?}");
    assert_eq!(row("automaticTransitionFromOpenToHalfOpenEnabled").3, "—", "opossum has no lazy half-open");
    let half = timed.iter().find(|r| r.2 == "automaticTransitionFromOpenToHalfOpenEnabled").expect("the row");
    assert_eq!(half.3, "resetTimeout", "opossum's timer half-opens: {half:?}");
    assert_eq!(
        (row("failureRateThreshold").1.as_str(), row("failureRateThreshold").3),
        ("50 %", "errorThresholdPercentage")
    );
    assert_eq!(row("minimumNumberOfCalls").3, "volumeThreshold");
    assert_eq!(row("waitDurationInOpenState").3, "resetTimeout");
    assert!(row("waitDurationInOpenState").1.ends_with(" ms"), "{rows:?}");
    // The table the page shows holds every row and every difference, escaped, both languages.
    for lang in [Lang::En, Lang::Zh] {
        let html = crate::plot::breaker::mapping(lang, &st.settings(lang));
        for r in st.settings(lang) {
            assert!(html.contains(&format!("<code>{}</code>", r.2)), "{}", r.2);
        }
        assert_eq!(html.matches("<li>").count(), 6, "the six differences");
        assert!(html.contains(lang.t(T::BlDiff1)) || html.contains(&crate::plot::esc(lang.t(T::BlDiff1))));
    }
    // A change on the page is what the table shows.
    let changed = q("?page=breaker&preset=source-003&failure_pct=30");
    assert!(changed.settings(Lang::En).iter().any(|r| r.2 == "failureRateThreshold" && r.1 == "30 %"));
}

#[test]
fn a_list_shorter_than_the_timeline_is_named() {
    // Two phases from phase_ms, one failure rate: the second phase keeps the preset's, and
    // the link is told so instead of being rewritten without a word.
    let st = q("?page=breaker&phase_ms=10000,20000&phase_fail=10");
    let e = st.errors.get(&FieldKey::plain("phase_fail")).map(|(_, e)| e.clone()).expect("named");
    assert_eq!(*e.allowed, Allowed::Length { min_len: 2, max_len: 2 });
    assert!(crate::i18n::Lang::En.field_error(&e).contains("exactly 2 items"), "{e:?}");
    assert_eq!(st.input.phases[0].failure_pct, 10.0);
}

#[test]
fn a_link_may_name_the_number_of_phases_by_the_key_its_label_shows() {
    let st = q("?phases=5");
    assert!(st.unknown.is_empty(), "phases is a key of the page: {:?}", st.unknown);
    assert_eq!(st.input.phases.len(), 5);
    assert!(st.errors.is_empty());
    // phase_ms's length decides; a phases= that disagrees with it is named.
    let st = q("?phase_ms=1000,2000&phases=3");
    assert_eq!(st.input.phases.len(), 2);
    let e = &st.errors.get(&FieldKey::plain("phases")).unwrap().1;
    assert_eq!(e.value, "3");
    assert_eq!(*e.allowed, Allowed::Rule { rule: crate::error::Rule::PhasesFromList, detail: "2".into() });
    let said = crate::i18n::Lang::En.field_error(e);
    assert!(said.contains("phase_ms"), "the message names the list that decides: {said}");
    assert!(q("?phase_ms=1000,2000&phases=2").errors.is_empty());
    // A list longer than the lab takes is the list's error, not `phases`', which the link
    // never set.
    let long = vec!["100"; 10_000].join(",");
    let st = q(&format!("?phase_ms={long}"));
    assert!(st.errors.get(&FieldKey::plain("phases")).is_none(), "{:?}", st.errors);
    let e = &st.errors.get(&FieldKey::plain("phase_ms")).expect("the list named").1;
    assert!(matches!(*e.allowed, Allowed::Length { .. }), "{e:?}");
}

#[test]
fn the_paused_playhead_travels_in_the_link_and_is_not_a_setting() {
    let st = q("?preset=flapping&at=120");
    assert_eq!(st.at, Some(120));
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{:?} {:?}", st.errors, st.unknown);
    assert!(link(&st).contains("at=120"), "{}", link(&st));
    assert!(!st.departs_from_preset(), "where the playback stands is not a setting");
    assert_eq!(st.reduce(BreakerAction::At(None)).at, None);
    // Refused by name, with the range a run can have.
    let bad = q("?preset=flapping&at=-1");
    assert_eq!(bad.at, None);
    let (_, e) = bad.errors.get(&FieldKey::plain("at")).expect("at refused");
    assert_eq!((e.value.as_str(), &*e.allowed), ("-1", &Allowed::integer(0, 20_000)));
}

#[test]
fn a_setting_of_one_call_reads_in_the_singular() {
    // Source 002's breaker trips on a single call's failure: its settings read "1 call",
    // not "1 calls", beside Resilience4j's names.
    let st = q("?page=breaker&preset=source-002");
    let values: Vec<String> = st.settings(crate::i18n::Lang::En).into_iter().map(|(_, v, _, _)| v).collect();
    assert!(values.iter().any(|v| v == "1 call"), "{values:?}");
    assert!(!values.iter().any(|v| v.starts_with("1 ") && v.ends_with('s')), "{values:?}");
    let zh: Vec<String> = st.settings(crate::i18n::Lang::Zh).into_iter().map(|(_, v, _, _)| v).collect();
    assert!(zh.iter().any(|v| v == "1 次调用"), "{zh:?}");
}
