//! Every lesson's data is checked here natively: links that open cleanly, knobs that exist,
//! figures that resolve in both languages.

use super::figures::{self, Piece};
use super::*;
use crate::i18n::placeholders;

/// What a page's state makes of a link: the keys it did not read and the fields it refused.
fn link_problems(q: &Query) -> Vec<String> {
    use crate::state::{admission, breaker, calculator, queue, storm};
    let (unknown, errors) = match q.get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT) {
        Page::Lessons => (Vec::new(), true),
        Page::Storm => {
            let s = storm::StormState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
        Page::Calculator => {
            let s = calculator::CalcState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
        Page::Admission => {
            let s = admission::AdmissionState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
        Page::Queue => {
            let s = queue::QueueState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
        Page::Breaker => {
            let s = breaker::BreakerState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
    };
    let mut out: Vec<String> = unknown.into_iter().map(|k| format!("unknown key {k}")).collect();
    if !errors {
        out.push("a value is refused".into());
    }
    out
}

#[test]
fn lessons_have_unique_ids_and_steps() {
    assert!(all().len() >= 5, "at least the five lessons of issue 15");
    for (i, l) in all().iter().enumerate() {
        assert!(!l.steps.is_empty(), "{} has no steps", l.id);
        assert!(all()[..i].iter().all(|o| o.id != l.id), "{} twice", l.id);
        assert_eq!(find(l.id).map(|f| f.id), Some(l.id));
    }
    assert!(find("nope").is_none());
}

#[test]
fn every_step_opens_cleanly_with_its_knobs() {
    for l in all() {
        for (i, s) in l.steps.iter().enumerate() {
            let q = s.query();
            let at = format!("{} step {}", l.id, i + 1);
            assert!(
                q.get("page").and_then(Page::from_slug).is_some(),
                "{at}: link names no page: {}",
                s.link
            );
            assert!(q.get("lang").is_none(), "{at}: the link leaves the language to the learner");
            assert_eq!(link_problems(&q), Vec::<String>::new(), "{at}: {}", s.link);
            assert!((1..=3).contains(&s.knobs.len()), "{at}: one to three knobs");
            for k in s.knobs {
                assert!(has_knob(&q, k), "{at}: {k} is no control of {}", s.link);
            }
            assert!(!s.spot.is_empty(), "{at}: names no figure to point at");
            if let Some(p) = s.playback {
                assert_eq!(s.page(), Page::Storm, "{at}: playback is the storm page's");
                assert!(p.from_ms >= 0.0 && p.pause_ms > p.from_ms, "{at}: playback {p:?}");
            }
        }
    }
}

#[test]
fn every_quoted_figure_resolves_in_both_languages() {
    for l in all() {
        for (i, s) in l.steps.iter().enumerate() {
            let at = format!("{} step {}", l.id, i + 1);
            let figs = figures::of(&s.query()).unwrap_or_else(|e| panic!("{at}: {e}"));
            for text in s.texts() {
                assert_eq!(placeholders(text.en), placeholders(text.zh), "{at}: {text:?}");
                for lang in Lang::ALL {
                    for p in figures::fill(text, lang, &figs) {
                        assert!(!matches!(p, Piece::Missing(_)), "{at}: {p:?} is no figure of {}", s.link);
                    }
                }
            }
        }
        for t in [l.title, l.summary] {
            assert!(placeholders(t.en).is_empty() && placeholders(t.zh).is_empty(), "{}: {t:?}", l.id);
        }
    }
}

#[test]
fn the_interview_quotes_the_sources_numbers() {
    let l = find("interview").expect("the interview lesson");
    let value = |step: usize, id: &str| {
        let figs = figures::of(&l.steps[step].query()).expect("runs");
        figs.get(id).map(|f| f.value).unwrap_or(f64::NAN)
    };
    assert_eq!(value(1, "out-amplification"), 9.0);
    assert_eq!(value(2, "bd-a-hop2"), 900.0);
    assert_eq!(value(2, "h-a-latency_max"), 1020.0);
    assert_eq!(value(3, "bd-a-hop2"), 40.0);
    assert_eq!(value(3, "h-a-latency_max"), 220.0);
    assert_eq!(value(3, "h-a-admission_rejected"), 80.0);
    assert_eq!(value(4, "bd-a-hop2"), 20.0);
}

#[test]
fn fill_writes_figures_and_keeps_words() {
    let figs =
        figures::Figures(vec![figures::Figure { id: "x".into(), value: 1020.0, unit: figures::Unit::Ms }]);
    let pieces = figures::fill(tr("took {x}.", "耗时 {x}。"), Lang::En, &figs);
    assert_eq!(figures::plain(&pieces), "took 1,020 ms.");
    assert!(matches!(&pieces[1], Piece::Figure { value, .. } if *value == 1020.0));
    let missing = figures::fill(tr("{y}", "{y}"), Lang::Zh, &figs);
    assert_eq!(missing, vec![Piece::Missing("y".into())]);
}
