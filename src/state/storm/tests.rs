use super::*;
use crate::model::chain::run;

fn key(k: &'static str, t: Target) -> StormKey {
    StormKey::on(k, t)
}

#[test]
fn every_control_reads_something_on_some_preset() {
    for def in NUMBERS {
        let found = presets::all().iter().any(|p| {
            let mut s = (p.build)();
            shape::set_faults(&mut s, 1);
            // Switch optional structures on so their numbers apply.
            for t in targets(&s.clone()) {
                for c in CHOICES.iter().filter(|c| c.applies.to(t)) {
                    let last = c.choice.options.last().map(|o| o.0).unwrap_or("");
                    if !matches!(c.choice.key, "pool" | "pattern" | "fault_kind") {
                        (c.choice.set)(&mut s, t, last);
                    }
                }
            }
            targets(&s).into_iter().any(|t| def.applies.to(t) && (def.knob.get)(&s, t).is_some())
        });
        assert!(found, "{} applies nowhere", def.knob.key);
    }
}

#[test]
fn every_url_key_names_one_control() {
    let mut keys: Vec<&str> =
        NUMBERS.iter().map(|d| d.knob.key).chain(CHOICES.iter().map(|d| d.choice.key)).collect();
    keys.extend(PAGE_KEYS);
    keys.extend(crate::state::app::SHELL_KEYS);
    keys.extend(["sides", "target"]);
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), keys.len(), "a key is used twice: {keys:?}");
}

#[test]
fn a_fault_windows_error_rate_is_not_the_runs_rate() {
    let q = Query::parse("?preset=breaker-demo&f1.fault_error=0.5&rate=120");
    let st = StormState::from_query(&q);
    assert!(st.unknown.is_empty() && st.errors.is_empty(), "{:?} {:?}", st.unknown, st.errors);
    assert_eq!(st.a.faults[0].effect, FaultEffect::ErrorRate { rate: 0.5 });
    assert_eq!(st.a.entry_rate_per_s(), Some(120.0));
    let typed = st.reduce(StormAction::Type(key("fault_error", Target::Fault(0)), "0.25".into()));
    assert_eq!(typed.a.faults[0].effect, FaultEffect::ErrorRate { rate: 0.25 });
    assert_eq!(
        typed.a.entry_rate_per_s(),
        Some(120.0),
        "typing into the fault's field leaves the arrivals alone"
    );
}

#[test]
fn edits_round_trip_through_the_url() {
    let mut st = StormState::new("lab11-protected");
    st = st.reduce(StormAction::Type(key("attempts", Target::Layer(1)), "3".into()));
    st = st.reduce(StormAction::Choose(key("jitter", Target::Layer(1)), "full".into()));
    st = st.reduce(StormAction::Type(key("error", Target::Leaf), "0.5".into()));
    st = st.reduce(StormAction::Seed("42".into()));
    st = st.reduce(StormAction::Compare(true));
    st = st.reduce(StormAction::Overlay(true));
    assert!(st.errors.is_empty(), "{:?}", st.errors);
    let mut q = Query::parse("?page=storm&lang=zh");
    st.write_query(&mut q);
    assert_eq!(
        q.to_query_string(),
        "?page=storm&lang=zh&preset=lab11-protected&seed=42&compare=1&overlay=1&l2.jitter=full&l2.attempts=3&leaf.error=0.5"
    );
    assert!(!st.run_query().contains("overlay"), "the layout of the charts is not part of the run");
    let back = StormState::from_query(&q);
    assert_eq!(back.a, st.a);
    assert_eq!((back.seed, back.compare, back.preset), (42, true, "lab11-protected"));
}

#[test]
fn five_layers_from_a_link_and_back() {
    let st = StormState::from_query(&Query::parse("?page=storm&preset=chain-3x3&layers=5"));
    assert!(st.errors.is_empty() && st.unknown.is_empty());
    assert_eq!(st.a.layers.len(), 5);
    assert_eq!(run(&st.a).unwrap().summary.amplification, 243.0);
    assert_eq!(st.run_query(), "?preset=chain-3x3&seed=1&layers=5");
    let fewer = st.reduce(StormAction::Layers(4));
    let again = fewer.reduce(StormAction::Layers(5));
    assert_eq!(again.a, st.a, "removing a layer and adding it back gives the original");
    let q = Query::parse("?preset=chain-2x3&l1.sides=1&faults=1&s1.error=0.2&f1.factor=3&layers=3");
    let st = StormState::from_query(&q);
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{:?} {:?}", st.errors, st.unknown);
    assert_eq!(StormState::from_query(&Query::parse(&st.run_query())).a, st.a);
}

#[test]
fn unused_values_are_named() {
    let st = StormState::from_query(&Query::parse(
        "?preset=chain-3x3&compare=yes&overlay=2&layers=9&l1.sides=7&zzz=1&.=1&中.attempts=2&zzz=2",
    ));
    assert!(st.errors.get(&OVERLAY).is_some_and(|(_, e)| e.to_string().contains("overlay")));
    let (raw, e) = st.errors.get(&COMPARE).unwrap();
    assert_eq!((raw.as_str(), e.to_string().as_str()), ("yes", "compare: got \"yes\", allowed one of 0, 1"));
    assert!(st.errors.get(&LAYERS).is_some_and(|(_, e)| e.to_string().contains("from 1 to 8")));
    assert!(st.errors.get(&sides_key(0)).is_some());
    assert_eq!(st.unknown[..], vec!["zzz", ".", "中.attempts"], "each key once, a repeated one too");
    assert_eq!(st.a, presets::chain_3x3());
}

#[test]
fn a_bad_link_value_names_the_field_and_falls_back_for_it_only() {
    let q = Query::parse("?preset=chain-3x3&l1.attempts=99&l2.attempts=4&seed=x&bogus=1&l9.attempts=2");
    let st = StormState::from_query(&q);
    let (raw, e) = st.errors.get(&key("attempts", Target::Layer(0))).unwrap();
    assert_eq!((raw.as_str(), e.field.as_str(), e.value.as_str()), ("99", "l1.attempts", "99"));
    assert_eq!(st.a.layers[0].client.retry.max_attempts, 3, "fell back to the preset");
    assert_eq!(st.a.layers[1].client.retry.max_attempts, 4, "the good field applied");
    assert!(st.errors.get(&SEED).is_some());
    assert_eq!(st.seed, 1);
    assert_eq!(st.unknown[..], vec!["bogus".to_string(), "l9.attempts".to_string()]);
}

#[test]
fn rule_violations_keep_the_last_valid_scenario() {
    let st = StormState::new("lab11-protected");
    // Decorrelated jitter needs exponential backoff.
    let bad = st.reduce(StormAction::Choose(key("jitter", Target::Layer(1)), "decorrelated".into()));
    assert_eq!(bad.a, st.a);
    let (_, e) = bad.errors.get(&key("jitter", Target::Layer(1))).unwrap();
    assert!(e.field.starts_with("l2.jitter"), "{}", e.field);
    // A rule is said in the page's language, not in the validator's English.
    let zh = crate::i18n::Lang::Zh.field_error(e);
    assert!(zh.contains("去相关抖动需要指数退避"), "{zh}");
    // The leaf's 5xx and 4xx rates add up to more than 1.
    let k = key("client_error", Target::Leaf);
    let bad = st
        .reduce(StormAction::Type(key("error", Target::Leaf), "0.8".into()))
        .reduce(StormAction::Type(k, "0.5".into()));
    let (_, e) = bad.errors.get(&k).expect("the 4xx rate is refused by its rule");
    assert_eq!(*e.allowed, crate::error::Allowed::rule(crate::error::Rule::ErrorRatesSum));
    let zh = crate::i18n::Lang::Zh.field_error(e);
    assert!(zh.contains("之和不得超过"), "{zh}");
}

#[test]
fn the_first_stop_switches_optional_settings_off() {
    let st = StormState::new("big-promo-protected");
    let k = key("rate_limit", Target::Layer(0));
    let off = st.reduce(StormAction::Slide(k, 0));
    assert!(off.a.layers[0].server.admission.is_none());
    let on = off.reduce(StormAction::Type(k, "250".into()));
    let tb = on.a.layers[0].server.admission.as_ref().unwrap().token_bucket.unwrap();
    assert_eq!(tb.rate_per_s, 250.0);
}

#[test]
fn knob_ranges_are_validations() {
    let window = number("window").unwrap();
    assert_eq!(window.knob.range, crate::scenario::ranges::BREAKER_WINDOW);
    assert_eq!(number("instances").unwrap().knob.range.max, 256.0);
    let st = StormState::new("breaker-demo");
    let big = st.reduce(StormAction::Type(key("window", Target::Layer(0)), "5000".into()));
    assert!(big.errors.is_empty(), "every window validation accepts, the knob accepts");
    assert_eq!(big.a.layers[0].client.breaker.unwrap().window, 5000);
}

#[test]
fn presets_and_side_b() {
    let st = StormState::new("metastable-retry-storm");
    assert!(st.side_b().layers[0].client.retry_budget.is_some());
    let st = StormState::new("chain-3x3");
    assert_eq!(st.side_b(), st.baseline(), "without a comparison, B is the unedited preset");
    let st = StormState::new("nope");
    assert_eq!(st.preset, presets::DEFAULT);
}

/// A small deterministic generator for random edits.
fn lcg(x: &mut u64) -> u64 {
    *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *x >> 33
}

#[test]
fn random_edits_always_read_back_from_the_url() {
    // STORM_EDIT_CASES=500 for a deeper search.
    let cases: usize = std::env::var("STORM_EDIT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let mut x = 12345u64;
    for p in presets::all() {
        for _ in 0..cases {
            let mut st = StormState::new(p.name);
            for _ in 0..12 {
                let ts = targets(&st.a);
                let t = ts[(lcg(&mut x) as usize) % ts.len()];
                let action = match lcg(&mut x) % 10 {
                    0 => StormAction::Layers(1 + (lcg(&mut x) as usize) % 8),
                    9 => StormAction::Pin,
                    8 => {
                        if st.a.faults.is_empty() {
                            continue;
                        }
                        let names = fault_targets(&st.a);
                        let i = (lcg(&mut x) as usize) % st.a.faults.len();
                        StormAction::FaultTarget(i, names[(lcg(&mut x) as usize) % names.len()].clone())
                    }
                    1 => StormAction::Sides(
                        (lcg(&mut x) as usize) % st.a.layers.len(),
                        (lcg(&mut x) as usize) % 4,
                    ),
                    2 => StormAction::Faults((lcg(&mut x) as usize) % 4),
                    3 | 4 => {
                        let defs: Vec<&ChoiceDef> = CHOICES.iter().filter(|d| d.applies.to(t)).collect();
                        if defs.is_empty() {
                            continue;
                        }
                        let d = defs[(lcg(&mut x) as usize) % defs.len()];
                        let o = d.choice.options[(lcg(&mut x) as usize) % d.choice.options.len()].0;
                        StormAction::Choose(StormKey::on(d.choice.key, t), o.to_string())
                    }
                    _ => {
                        let defs: Vec<&NumberDef> = NUMBERS.iter().filter(|d| d.applies.to(t)).collect();
                        if defs.is_empty() {
                            continue;
                        }
                        let d = defs[(lcg(&mut x) as usize) % defs.len()];
                        let k = StormKey::on(d.knob.key, t);
                        if lcg(&mut x).is_multiple_of(2) {
                            // Typed: anywhere in its range, past the slider's span too.
                            let (lo, hi) = (d.knob.range.min, d.knob.range.max.min(1e7));
                            let v = lo + (hi - lo) * (lcg(&mut x) % 1000) as f64 / 999.0;
                            let v = if d.knob.range.is_whole() { v.round() } else { v };
                            StormAction::Type(k, url_num(v))
                        } else {
                            let now = (d.knob.get)(&st.a, t).unwrap_or(d.knob.range.min);
                            let stops = d.knob.stops_at(now).len();
                            StormAction::Slide(k, (lcg(&mut x) as usize) % stops)
                        }
                    }
                };
                st = st.reduce(action);
                assert_eq!(validate(&st.a), Ok(()));
            }
            // The page's link carries everything; a run's query everything but the SLO,
            // which judges the run and does not change it.
            let mut link = Query::new();
            st.write_query(&mut link);
            let read = StormState::from_query(&link);
            assert_eq!(read.a, st.a, "{} via {}", p.name, link.to_query_string());
            // A pinned side B too.
            assert_eq!(read.side_b(), st.side_b(), "{} via {}", p.name, link.to_query_string());
            let q = st.run_query();
            let back = StormState::from_query(&Query::parse(&q));
            assert_eq!(back.a, Scenario { slo: back.a.slo, ..st.a.clone() }, "{} via {q}", p.name);
            assert!(
                back.errors.is_empty() && back.unknown.is_empty(),
                "{q}: {:?} {:?}",
                back.errors,
                back.unknown
            );
        }
    }
}

#[test]
fn the_asked_for_request_travels_in_the_link_and_both_sides_trace_it() {
    use crate::state::runs::{Job, Side};
    let q = Query::parse("?preset=lab11-budget-150&request=42&compare=1");
    let st = StormState::from_query(&q);
    assert_eq!(st.request, Some(42));
    let mut back = Query::new();
    st.write_query(&mut back);
    assert_eq!(back.get("request"), Some("42"));
    let run = st.run_query();
    let (a, _) = Job::Storm { query: run.clone(), side: Side::A }.scenario().unwrap();
    let (b, _) = Job::Storm { query: run, side: Side::B }.scenario().unwrap();
    // Compare mode draws side B's tree of the same request beside side A's.
    assert_eq!((a.report.trace_requests, b.report.trace_requests), (vec![42], vec![42]));
    let plain = StormState::from_query(&Query::parse("?preset=lab11-budget-150&compare=1")).run_query();
    let (b, _) = Job::Storm { query: plain, side: Side::B }.scenario().unwrap();
    assert!(b.report.trace_requests.is_empty(), "no request asked for: none traced whole");
    // A new preset starts without one; clearing the field drops it.
    assert_eq!(st.reduce(StormAction::Preset("chain-3x3".into())).request, None);
    assert_eq!(st.reduce(StormAction::Request(" ".into())).request, None);
    for bad in ["-1", "x", "1e3", "99999999999"] {
        let e = st.reduce(StormAction::Request(bad.into()));
        assert_eq!(e.request, Some(42), "{bad}: keeps the last good one");
        let (_, err) = e.errors.get(&REQUEST).expect("an error");
        assert_eq!(err.field, "request", "{bad}");
    }
}

#[test]
fn a_fault_end_before_its_start_is_named_and_the_links_order_does_not_matter() {
    let end = key("end", Target::Fault(0));
    // The metastable preset's fault starts at 4 s: an end at 1 s is refused by name, with
    // the range starting at the start, and the window keeps its own end.
    let st = StormState::from_query(&Query::parse("?preset=metastable-retry-storm&f1.end=1000"));
    let (raw, e) = st.errors.get(&end).expect("the end is named");
    assert!(raw == "1000" && e.field.starts_with("f1.end"), "{raw} {e:?}");
    assert_eq!(*e.allowed, crate::scenario::ranges::fault_end_ms(4000.0).allowed());
    let preset = (crate::scenario::presets::find("metastable-retry-storm").unwrap().build)();
    assert_eq!(st.a.faults[0].end_ms, preset.faults[0].end_ms);
    // Start and end in either order: the same window, no error.
    for q in [
        "?preset=metastable-retry-storm&f1.end=2000&f1.start=1000",
        "?preset=metastable-retry-storm&f1.start=1000&f1.end=2000",
    ] {
        let st = StormState::from_query(&Query::parse(q));
        assert!(st.errors.get(&end).is_none(), "{q}");
        assert_eq!((st.a.faults[0].start_ms, st.a.faults[0].end_ms), (1000.0, 2000.0), "{q}");
    }
    // A start past the end is named too, not a window moved to zero length.
    let late = StormState::from_query(&Query::parse("?preset=metastable-retry-storm&f1.start=60000"));
    assert!(late.errors.get(&key("start", Target::Fault(0))).is_some());
    assert_eq!(late.a.faults[0].start_ms, preset.faults[0].start_ms);
    // The end refused for the old start is taken once the start moves before it.
    let moved = st.reduce(StormAction::Type(key("start", Target::Fault(0)), "500".into()));
    assert!(moved.errors.get(&end).is_none(), "the end's refusal went with the start");
    assert_eq!((moved.a.faults[0].start_ms, moved.a.faults[0].end_ms), (500.0, 1000.0));
}

#[test]
fn side_bs_heading_says_where_the_changes_are() {
    use crate::i18n::T;
    let heading = |q: &str| StormState::from_query(&Query::parse(q)).side_b_heading().0;
    // A preset with a side B of its own: B runs as shipped, so a change is side A's alone
    // (big-promo at 80 req/s against big-promo-protected at its own rate).
    assert_eq!(heading("?preset=big-promo&compare=1"), T::SideBNamed);
    assert_eq!(heading("?preset=big-promo&compare=1&rate=80"), T::SideBNamedChanged);
    // Without one, B is the preset itself as shipped.
    assert_eq!(heading("?preset=chain-3x3&compare=1"), T::SideBShippedSame);
    assert_eq!(heading("?preset=chain-3x3&compare=1&l1.attempts=4"), T::SideBShipped);
    // Side A is named by its preset until a setting changes (it read "your scenario" as
    // the preset loaded).
    let a = |q: &str| StormState::from_query(&Query::parse(q)).side_a_heading().0;
    assert_eq!(a("?preset=big-promo&compare=1"), T::SideANamed);
    assert_eq!(a("?preset=big-promo&compare=1&rate=80"), T::SideAChanged);
    // Pinned before any change: B is the preset as it ships.
    let st = StormState::new("big-promo-protected").reduce(StormAction::Pin);
    assert_eq!(st.side_b_heading().0, T::SideBPinnedSame);
}

#[test]
fn side_b_is_named_by_its_own_preset_in_exported_files() {
    let b = |q: &str| StormState::from_query(&Query::parse(q)).side_b_preset();
    // Side A's preset had named side B's files too: big-promo's data filed as protected.
    assert_eq!(b("?preset=big-promo-protected&compare=1"), "big-promo");
    assert_eq!(b("?preset=big-promo&compare=1"), "big-promo-protected");
    // A preset compared with itself as shipped, or with a variant of the same name.
    assert_eq!(b("?preset=chain-3x3&compare=1"), "chain-3x3");
    assert_eq!(b("?preset=metastable-retry-storm&compare=1"), "metastable-retry-storm");
    // Pinned settings are side A's preset's, changed.
    let pinned = StormState::new("big-promo-protected").reduce(StormAction::Pin);
    assert_eq!(pinned.side_b_preset(), "big-promo-protected-pinned");
}

#[test]
fn the_paused_moment_and_picked_hop_travel_in_the_link_but_not_in_the_run() {
    let q = Query::parse("?preset=chain-3x3&seed=4&t=312.5&focus=2");
    let st = StormState::from_query(&q);
    assert!(st.errors.is_empty(), "{:?}", st.errors);
    assert_eq!((st.moment, st.focus), (Some(312.5), Some(2)));
    let mut back = Query::new();
    st.write_query(&mut back);
    assert_eq!((back.get("t"), back.get("focus")), (Some("312.5"), Some("2")));
    // A view of the run: the run is the same without them, so moving them reruns nothing.
    let plain = StormState::from_query(&Query::parse("?preset=chain-3x3&seed=4"));
    assert_eq!(st.run_query(), plain.run_query());
    let paused = plain.reduce(StormAction::Moment(Some(40.0))).reduce(StormAction::Focus(Some(1)));
    assert_eq!((paused.moment, paused.focus), (Some(40.0), Some(1)));
    // Refused by name: a negative moment, a hop the chain does not have (chain-3x3 has 4).
    let bad = StormState::from_query(&Query::parse("?preset=chain-3x3&t=-5&focus=4"));
    assert_eq!((bad.moment, bad.focus), (None, None));
    let (_, _, e) = bad.errors.iter().find(|(k, _, _)| **k == MOMENT).expect("t refused");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("t", "-5"));
    let (_, _, e) = bad.errors.iter().find(|(k, _, _)| **k == FOCUS).expect("focus refused");
    assert_eq!(*e.allowed, Allowed::integer(0, 3), "{e:?}");
}

#[test]
fn a_value_typed_past_a_sliders_span_stays_where_the_slider_says() {
    // breaker-demo's breaker judges at 50 %; 0.5 % is accepted (0.01–100) and below the
    // slider's 1–100: the thumb's stop is the value (sliding onto it changes nothing) and
    // one step up is the span's end.
    let st = StormState::new("breaker-demo");
    let d = number("failure_pct").unwrap();
    let t = Target::Layer(0);
    let k = StormKey::on(d.knob.key, t);
    assert!(d.knob.range.accepts(0.5) && 0.5 < d.knob.slider.min);
    let typed = st.reduce(StormAction::Type(k, "0.5".into()));
    assert_eq!((d.knob.get)(&typed.a, t), Some(0.5));
    assert_eq!(d.knob.stops_at(0.5).len(), d.knob.stops().len() + 1);
    let same = typed.reduce(StormAction::Slide(k, 0));
    assert_eq!((d.knob.get)(&same.a, t), Some(0.5), "the thumb's own stop keeps the value");
    let up = typed.reduce(StormAction::Slide(k, 1));
    assert_eq!((d.knob.get)(&up.a, t), Some(d.knob.slider.min), "one step up: the span's end");
}

#[test]
fn pinned_settings_are_side_b_while_a_changes() {
    let k = key("attempts", Target::Layer(0));
    let st = StormState::new("chain-3x3").reduce(StormAction::Type(k, "4".into()));
    let pinned = st.reduce(StormAction::Pin);
    assert!(pinned.compare, "pinning shows both sides");
    assert_eq!(pinned.side_b(), Scenario { slo: pinned.a.slo, ..st.a.clone() }, "B is A as it was");
    let moved = pinned.reduce(StormAction::Type(k, "2".into()));
    assert_eq!(moved.a.layers[0].client.retry.max_attempts, 2);
    assert_eq!(moved.side_b().layers[0].client.retry.max_attempts, 4, "B stays as pinned");
    assert_eq!(moved.side_b_heading().0, crate::i18n::T::SideBPinned);
    // The link carries it, and reads back to the same two sides.
    let mut q = Query::new();
    moved.write_query(&mut q);
    let back = StormState::from_query(&q);
    assert_eq!((back.pin.as_deref(), back.side_b()), (moved.pin.as_deref(), moved.side_b()), "{q:?}");
    assert!(back.errors.is_empty() && back.unknown.is_empty());
    // Reset brings A back and keeps the pin, and so does another preset: B stays the
    // settings pinned on chain-3x3 (it had gone silently, mid-comparison), named by it, in
    // the link too. Unpin lets it go.
    assert!(moved.reduce(StormAction::Reset).pin.is_some());
    let other = moved.reduce(StormAction::Preset("breaker-demo".into()));
    assert_eq!(
        (other.preset, other.side_b()),
        ("breaker-demo", Scenario { slo: other.a.slo, ..moved.side_b() })
    );
    assert_eq!(
        other.pin.as_deref(),
        Some(format!("preset=chain-3x3&{}", moved.pin.as_deref().unwrap()).as_str())
    );
    assert_eq!(
        other.side_b_heading().1,
        StormState::new("chain-3x3").side_a_heading().1,
        "named by its preset"
    );
    assert_eq!(other.side_b_preset(), "chain-3x3-pinned");
    let mut q = Query::new();
    other.write_query(&mut q);
    let back = StormState::from_query(&q);
    assert_eq!((back.pin.as_deref(), back.side_b()), (other.pin.as_deref(), other.side_b()), "{q:?}");
    assert!(back.errors.is_empty() && back.unknown.is_empty());
    // Back on its own preset, the pin is plain settings again.
    assert_eq!(other.reduce(StormAction::Preset("chain-3x3".into())).pin, moved.pin);
    let unpinned = moved.reduce(StormAction::Unpin);
    assert!(!unpinned.compare, "side B goes with the pin");
    assert_eq!(unpinned.side_b(), StormState::new("chain-3x3").side_b());
    // A shape of its own: B keeps two layers while A has three.
    let two = StormState::new("chain-3x3").reduce(StormAction::Layers(2)).reduce(StormAction::Pin);
    let three = two.reduce(StormAction::Layers(3));
    assert_eq!((three.a.layers.len(), three.side_b().layers.len()), (3, 2));
    // Unpinning forgets what the pin's link could not read.
    let odd = StormState::from_query(&Query::parse("preset=chain-3x3&pin=zz%3D1"));
    assert_eq!(odd.unknown[..], ["pin.zz"]);
    assert!(odd.reduce(StormAction::Unpin).unknown.is_empty());
}

#[test]
fn a_pin_in_a_link_names_what_it_refuses_and_keeps_the_rest() {
    let q = Query::parse("preset=chain-3x3&compare=1&pin=l1.attempts%3D0%26l2.attempts%3D5%26zz%3D1");
    let st = StormState::from_query(&q);
    let (_, e) = st.errors.get(&PIN).expect("the refused value is named");
    assert_eq!(e.field, "pin.l1.attempts");
    assert_eq!(st.unknown[..], vec!["pin.zz".to_string()]);
    let b = st.side_b();
    assert_eq!((b.layers[0].client.retry.max_attempts, b.layers[1].client.retry.max_attempts), (3, 5));
}

#[test]
fn a_link_writes_what_its_reader_would_otherwise_miss_and_nothing_else() {
    // bulkhead-shared-vs-isolated's window slows recommendations ×20; made a surge (its own
    // factor 3) and set back to ×20, the factor is written though it equals the old kind's.
    let f1 = Target::Fault(0);
    let st = StormState::new("bulkhead-shared-vs-isolated")
        .reduce(StormAction::Choose(key("fault_kind", f1), "surge".into()))
        .reduce(StormAction::Type(key("factor", f1), "20".into()));
    let mut q = Query::new();
    st.write_query(&mut q);
    assert_eq!(StormState::from_query(&q).a, st.a, "{}", q.to_query_string());
    // A worker limit set where there was none makes the queue unbounded: not a change to write.
    let leaf =
        StormState::new("chain-3x3").reduce(StormAction::Type(key("workers", Target::Leaf), "50".into()));
    let mut q = Query::new();
    leaf.write_query(&mut q);
    assert_eq!(q.get("leaf.workers"), Some("50"));
    assert!(
        q.get("leaf.queue").is_none() && q.get("leaf.queue_timeout").is_none(),
        "{}",
        q.to_query_string()
    );
    assert_eq!(StormState::from_query(&q).a, leaf.a);
}
