//! The sweep natively: cells built from storm links, verdicts whose answer is known.

use super::*;
use crate::model::stability::Outcome;

fn sweep(x: &str, y: &str) -> Sweep {
    Sweep {
        x: Axis::parse("x", x).expect("x"),
        y: Axis::parse("y", y).expect("y"),
        ..Sweep::default_for(DEFAULT_PRESET)
    }
}

#[test]
fn axes_read_and_write_their_text() {
    let a = Axis::parse("x", "utilisation=0.5..1/20").expect("an axis");
    assert_eq!((a.key.as_str(), a.from, a.to, a.n), ("utilisation", 0.5, 1.0, 20));
    assert_eq!(Axis::parse("x", &a.text()), Ok(a.clone()));
    assert_eq!(a.value(0), 0.5);
    assert_eq!(a.value(19), 1.0);
    for bad in
        ["", "rate", "rate=1..2", "rate=a..2/3", "=1..2/3", "rate=1..2/0", "rate=1..2/99", "rate=NaN..2/3"]
    {
        let e = Axis::parse("x", bad).expect_err(bad);
        assert!(e.field.starts_with('x'), "{bad}: {e:?}");
    }
}

#[test]
fn the_metastable_presets_bottleneck_is_its_server() {
    let s = Sweep::default_for(DEFAULT_PRESET);
    assert_eq!(capacity(&s.base()), Some(500.0), "5 workers × 10 ms");
    assert_eq!(s.cells(), 400);
    assert_eq!(s.position(21), (1, 1));
}

#[test]
fn a_cell_is_the_storm_pages_run_for_its_link() {
    let s = Sweep::default_for(DEFAULT_PRESET);
    let q = s.cell_query(s.cells() - 1, false).expect("the last cell");
    assert_eq!(q.get("rate"), Some("500"), "utilisation 1.0 of 500/s");
    assert_eq!(q.get("f1.end"), Some("5000"), "a trigger of 1,000 ms from 4 s");
    let c = s.cell(s.cells() - 1, false).expect("builds");
    assert_eq!(
        c.windows,
        Windows {
            trigger_start_ms: 4000.0,
            trigger_end_ms: 5000.0,
            arrivals_end_ms: 20000.0,
            offered_load: Some(1.0)
        }
    );
    let plain = StormState::from_query(&q).a;
    assert_eq!(c.scenario.load, plain.load);
    assert_eq!(c.scenario.faults, plain.faults);
    let p = Sweep { protect: Protection::Budget, ..s.clone() };
    assert_eq!(p.cell_query(0, true).expect("protected").get("l1.budget"), Some("ratio"));
    assert_eq!(p.cell_query(0, false).expect("plain").get("l1.budget"), None);
}

#[test]
fn a_bad_axis_names_its_field() {
    let e = sweep("nonsense=1..2/3", "trigger_ms=100..200/2").cell(0, false).expect_err("unknown knob");
    assert_eq!(e.field, "x");
    let e = sweep("utilisation=0.5..1/2", "l1.attempts=0..5/2").cell(0, false).expect_err("0 attempts");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("y", "l1.attempts=0"), "{e:?}");
    let e = sweep("utilisation=0.5..1/2", "trigger_ms=100..200/2");
    assert!(e.check().is_ok());
}

#[test]
fn far_below_capacity_every_trigger_is_absorbed() {
    let s = sweep("utilisation=0.3..0.3/1", "trigger_ms=100..4000/3");
    for i in 0..s.cells() {
        let v = s.run_cell(i, false).expect("runs");
        assert_eq!(v.outcome, Outcome::Recovered, "cell {i}: {v:?}");
    }
}

#[test]
fn above_capacity_nothing_recovers() {
    let s = sweep("utilisation=1.1..1.3/2", "trigger_ms=100..4000/2");
    for i in 0..s.cells() {
        let v = s.run_cell(i, false).expect("runs");
        assert_ne!(v.outcome, Outcome::Recovered, "cell {i}: {v:?}");
    }
}

#[test]
fn the_metastable_preset_is_stuck_and_a_retry_budget_frees_it() {
    // The preset itself: 90 % utilisation, a 1 s trigger.
    let s =
        Sweep { protect: Protection::Budget, ..sweep("utilisation=0.9..0.9/1", "trigger_ms=1000..1000/1") };
    assert_eq!(s.run_cell(0, false).expect("runs").outcome, Outcome::Stuck);
    assert_eq!(s.run_cell(0, true).expect("runs").outcome, Outcome::Recovered);
}

#[test]
fn with_one_attempt_nothing_keeps_a_run_stuck_below_capacity() {
    // No retries to sustain a bad state: near capacity the trigger's backlog may outlast the
    // run, and is then still draining, never stuck.
    let s = sweep("utilisation=0.8..0.95/4", "l1.attempts=1..1/1");
    for i in 0..s.cells() {
        let v = s.run_cell(i, false).expect("runs");
        assert_ne!(v.outcome, Outcome::Stuck, "cell {i}: {v:?}");
    }
    let near = s.run_cell(3, false).expect("runs");
    assert_eq!(near.outcome, Outcome::Draining, "95 %: still working off the backlog: {near:?}");
}

#[test]
fn a_trigger_with_no_time_to_judge_around_it_is_refused() {
    // Past the arrivals' end (20 s) the recovery window was empty and read as full goodput.
    let s = sweep("utilisation=0.9..0.9/1", "trigger_ms=1000..17500/2");
    assert!(s.cell(0, false).is_ok());
    let e = s.cell(1, false).expect_err("ends at 21.5 s");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("y", "trigger_ms=17500"));
    assert!(
        matches!(&*e.allowed, Allowed::Rule { detail, .. }
            if detail == "f1.start ≥ 2000 ms, f1.end ≤ 13000 ms, arrivals ≥ 8000 ms"),
        "{e}"
    );
    assert!(s.check().is_err(), "the sweep is refused as a whole, from its corners");
    let s = sweep("utilisation=0.9..0.9/1", "duration=1000..1000/1");
    assert!(s.cell(0, false).is_err(), "the trigger at 4 s never comes in a 1 s run");
    // Blamed on the axis that broke the bound, not on the first that could move one.
    let s = sweep("f1.start=2000..2000/1", "duration=5000..8000/4");
    let e = s.cell(0, false).expect_err("5 s of arrivals leave no recovery window");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("y", "duration=5000"));
    // A preset without a fault window has no trigger to judge around: refused, as the page
    // does not offer it.
    let s = Sweep {
        x: Axis::parse("x", "rate=100..300/2").expect("x"),
        y: Axis::parse("y", "l1.attempts=1..3/2").expect("y"),
        ..Sweep::default_for("chain-2x3")
    };
    let e = s.cell(0, false).expect_err("chain-2x3 has no fault window");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("preset", "chain-2x3"));
}

#[test]
fn the_breaker_overlay_opens_for_its_stated_time() {
    // Its label says BREAKER_OPEN_MS; the link it adds must set just that.
    let s = Sweep { protect: Protection::Breaker, ..Sweep::default_for(DEFAULT_PRESET) };
    let c = s.cell(0, true).expect("a cell");
    let b = c.scenario.layers[0].client.breaker.as_ref().expect("a breaker on the entry's calls");
    assert_eq!(b.open_ms, BREAKER_OPEN_MS);
}

#[test]
fn the_hysteresis_run_steps_up_and_down() {
    let s = Sweep::default_for(DEFAULT_PRESET);
    let (sc, seed) = s.hysteresis(HystRun::Plain).expect("builds");
    let r = run_with(&sc, seed, BROWSER_MAX_CALLS).expect("runs");
    let pts = s.hysteresis_points(&r);
    assert_eq!(pts.len(), 2 * HYST_LEVELS.len() - 1);
    let first = pts[0];
    assert!(
        first.up && (first.goodput - 0.5).abs() < 0.1,
        "at half capacity it serves what comes: {first:?}"
    );
    let back = pts.last().copied().expect("a last point");
    assert!(!back.up && back.utilisation == 0.5);
}

#[test]
fn the_way_down_serves_again_from_the_last_run_of_served_levels() {
    let pt = |u: f64, g: f64, up: bool| HystPoint { utilisation: u, goodput: g, up };
    let up = [pt(0.5, 0.5, true), pt(1.0, 1.0, true)];
    let ramp = |down: &[(f64, f64)]| {
        let mut v = up.to_vec();
        v.extend(down.iter().map(|&(u, g)| pt(u, g, false)));
        v
    };
    assert_eq!(served_again_from(&ramp(&[(0.9, 0.9), (0.7, 0.7), (0.5, 0.5)])), Some(0.9));
    // A level served and a lower one not (a queue still draining): the later run counts.
    assert_eq!(served_again_from(&ramp(&[(0.9, 0.9), (0.7, 0.2), (0.5, 0.5)])), Some(0.5));
    // At the share: served; just under it: not.
    assert_eq!(served_again_from(&ramp(&[(0.9, 0.0), (0.5, HYST_SERVED * 0.5)])), Some(0.5));
    assert_eq!(served_again_from(&ramp(&[(0.9, 0.0), (0.5, HYST_SERVED * 0.5 - 1e-9)])), None);
    assert_eq!(served_again_from(&up), None, "no way down, nothing to say");
}

#[test]
fn without_retries_the_default_ramp_gets_out_and_with_them_it_does_not() {
    // The reference line's point, from the model: the backlog a slow-down leaves is drained
    // on the way down when callers make one attempt; with the preset's three it is not.
    let s = Sweep::default_for(DEFAULT_PRESET);
    let served = |run| {
        let (sc, seed) = s.hysteresis(run).expect("builds");
        served_again_from(&s.hysteresis_points(&run_with(&sc, seed, BROWSER_MAX_CALLS).expect("runs")))
    };
    assert_eq!(served(HystRun::Plain), None);
    let once = served(HystRun::NoRetry).expect("one attempt a call gets out on the way down");
    assert!((HYST_LEVELS[0]..1.0).contains(&once), "{once}");
}

#[test]
fn the_budget_overlay_and_the_ramp_say_their_own_numbers() {
    let s = Sweep::default_for(DEFAULT_PRESET);
    assert_eq!(s.budget_overlay_ratio(), Some(0.1), "source 001's 10 %, from the storm page's ratio choice");
    assert_eq!(HYST_TOP, 1.2);
    assert_eq!(HYST_LEVELS[0], 0.5);
}

#[test]
fn the_cell_to_open_is_in_the_link_and_stays_inside_the_grid() {
    use crate::query::Query;
    use page::{StabilityAction as A, StabilityState};
    // The default map is 20 × 20: column 3, row 2 (from 1) round-trip through the link.
    let st = StabilityState::from_query(&Query::parse("?page=stability&col=3&row=2"));
    assert_eq!(st.cell, [2, 1]);
    assert!(st.errors.is_empty() && st.unknown.is_empty(), "{:?} {:?}", st.errors, st.unknown);
    let mut q = Query::new();
    st.write_query(&mut q);
    assert_eq!((q.get("col"), q.get("row")), (Some("3"), Some("2")));
    // The first cell is the default, so it is not written.
    let mut q = Query::new();
    StabilityState::default().write_query(&mut q);
    assert_eq!((q.get("col"), q.get("row")), (None, None));
    // Out of the grid: named with its range, the cell kept.
    let bad = st.reduce(A::Cell("col", "21".into()));
    let (_, e) = bad.errors.get(&crate::state::FieldKey::plain("col")).expect("col is named");
    assert_eq!(*e.allowed, crate::error::Allowed::integer(1, 20));
    assert_eq!(bad.cell, [2, 1]);
    // A smaller grid pulls the cell inside it.
    let far =
        StabilityState::default().reduce(A::Cell("col", "20".into())).reduce(A::Cell("row", "20".into()));
    let small = far
        .reduce(A::Axis("x", "utilisation=0.5..1/3".into()))
        .reduce(A::Axis("y", "trigger_ms=200..1000/3".into()));
    assert_eq!(small.cell, [2, 2]);
}

#[test]
fn an_axis_whose_middle_values_a_knob_refuses_is_refused_before_any_run() {
    // Whole tries: 1..5 in 5 steps is 1, 2, 3, 4, 5; in 40 steps its second value is 1.1
    // tries, refused by name, not 800 cells refused one by one on the map.
    assert_eq!(sweep("utilisation=0.5..1/4", "l1.attempts=1..5/5").check(), Ok(()));
    let e = sweep("utilisation=0.5..1/4", "l1.attempts=1..5/40").check().expect_err("1.1 tries");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("y", "l1.attempts=1.102564103"), "{e:?}");
    assert_eq!(*e.allowed, Allowed::integer(1, 10));
    let e = sweep("l1.attempts=1..5/40", "utilisation=0.5..1/4").check().expect_err("on x too");
    assert_eq!(e.field, "x");
}

#[test]
fn an_axis_error_names_the_axis_the_value_typed_and_its_range() {
    // The trigger's length, not the fault's end the page derives from it (f1.start is
    // 4,000 ms in the metastable preset): the typed end is named, with the range shifted.
    let e = sweep("utilisation=0.5..1/4", "trigger_ms=50..-5/20").check().expect_err("a negative trigger");
    assert_eq!((e.field.as_str(), e.value.as_str(), e.unit.as_str()), ("y", "trigger_ms=-5", "ms"), "{e:?}");
    assert_eq!(*e.allowed, Allowed::range(0.0, 1e9 - 4000.0));
    // Values at the end of f64's range stay finite and are named as typed.
    let e = sweep("utilisation=0.05..1e308/20", "trigger_ms=50..1000/2").check().expect_err("too much load");
    assert!(e.field == "x" && e.value.starts_with("utilisation=1000") && !e.value.contains("inf"), "{e:?}");
    let e = sweep("utilisation=0.5..1/4", "trigger_ms=50..1e308/20").check().expect_err("too long");
    assert!(e.field == "y" && !e.value.contains("inf"), "{e:?}");
    // The steps: a word, a fraction and a number past the range are each the steps' error.
    for steps in ["abc", "2.5", "1e3", "0", "41"] {
        let e = Axis::parse("x", &format!("utilisation=0.05..1/{steps}")).expect_err(steps);
        assert_eq!((e.field.as_str(), e.value.as_str()), ("x steps", steps));
        assert_eq!(*e.allowed, Allowed::integer(1, 40));
    }
}

#[test]
fn a_knob_picked_for_an_axis_starts_from_its_own_range() {
    use super::page::{StabilityAction, StabilityState};
    let st = StabilityState::default();
    for key in super::page::AXIS_KEYS {
        let mut next = st.clone();
        next = next.reduce(StabilityAction::AxisKnob("y", key.to_string()));
        let probe = Sweep { y: Axis { key: key.to_string(), ..st.sweep.y.clone() }, ..st.sweep.clone() };
        if probe.axes_differ("y").is_err() {
            // The knob across already (a utilisation sets the rate): refused (see
            // `the_two_axes_sweep_two_knobs`).
            assert_eq!(next.sweep.y, st.sweep.y, "{key}");
            continue;
        }
        match Axis::default_for(key) {
            Some(d) => {
                assert!(next.errors.is_empty(), "{key}: {:?}", next.errors);
                assert_eq!(next.sweep.y, d, "{key}");
            }
            // The rate's range is the preset's: the numbers held stay (50..1000 req/s).
            None => assert_eq!(next.sweep.y.text(), format!("{key}=50..1000/20")),
        }
    }
    // The knob the axis already sweeps: its numbers stay.
    let st = st.reduce(StabilityAction::Axis("y", "trigger_ms=100..200/3".into()));
    let next = st.reduce(StabilityAction::AxisKnob("y", "trigger_ms".into()));
    assert_eq!(next.sweep.y.text(), "trigger_ms=100..200/3");
    // A link's axis is read as written, whatever the knob.
    let next = StabilityState::default().reduce(StabilityAction::Axis("y", "l1.attempts=2..4/3".into()));
    assert_eq!(next.sweep.y.text(), "l1.attempts=2..4/3");
}

#[test]
fn a_swept_retry_budget_ratio_turns_the_budget_on() {
    let s = sweep("utilisation=0.9..0.9/1", "l1.budget_ratio=0.05..0.5/2");
    let ratio = |j: usize| match s.cell(j, false).expect("a cell").scenario.layers[0].client.retry_budget {
        Some(RetryBudgetConfig::Ratio { retry_ratio, .. }) => retry_ratio,
        other => panic!("a ratio budget: {other:?}"),
    };
    assert_eq!((ratio(0), ratio(1)), (0.05, 0.5));
}

#[test]
fn the_two_axes_sweep_two_knobs() {
    use super::page::{StabilityAction, StabilityState};
    use crate::error::Rule;
    // A map of one knob against itself: refused, naming the axis and the other's knob.
    let e = sweep("trigger_ms=50..1000/5", "trigger_ms=50..1000/5").check().expect_err("the same knob");
    assert_eq!((e.field.as_str(), e.value.as_str()), ("y", "trigger_ms=50..1000/5"), "{e:?}");
    assert_eq!(*e.allowed, Allowed::Rule { rule: Rule::AxesDiffer, detail: "trigger_ms".into() });
    // The page: a link with the same knob on both keeps a map that differs, and says why.
    let q = Query::parse("?page=stability&x=trigger_ms%3D50..1000%2F5&y=trigger_ms%3D50..1000%2F5");
    let st = StabilityState::from_query(&q);
    assert_ne!(st.sweep.x.key, st.sweep.y.key, "{:?}", st.sweep);
    assert_eq!(st.errors.iter().count(), 1, "{:?}", st.errors.iter().map(|e| e.2).collect::<Vec<_>>());
    // Picking the other axis' knob in the form is refused under the axis picked.
    let next = StabilityState::default().reduce(StabilityAction::AxisKnob("x", "trigger_ms".into()));
    assert_eq!(next.sweep, StabilityState::default().sweep);
    assert!(next.errors.get(&crate::state::FieldKey::plain("x")).is_some(), "{:?}", next.errors);
    // A utilisation sets the rate: the two are one knob.
    let e = sweep("utilisation=0.3..0.9/2", "rate=100..2000/2").check().expect_err("rate twice");
    assert_eq!(e.field, "y", "{e:?}");
    // A link that swaps the axes is read whole, not refused halfway.
    let q = Query::parse("?page=stability&x=trigger_ms%3D50..1000%2F4&y=utilisation%3D0.1..0.9%2F3");
    let st = StabilityState::from_query(&q);
    assert!(st.errors.is_empty(), "{:?}", st.errors);
    assert_eq!((st.sweep.x.key.as_str(), st.sweep.y.key.as_str()), ("trigger_ms", "utilisation"));
}
