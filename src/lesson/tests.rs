//! Every lesson's data is checked here natively: links that open cleanly, knobs that exist,
//! figures that resolve in both languages.

use super::figures::{self, Piece};
use super::*;
use crate::i18n::placeholders;

/// What a page's state makes of a link: the keys it did not read and the fields it refused.
fn link_problems(q: &Query) -> Vec<String> {
    use crate::state::{admission, breaker, calculator, queue, storm};
    let (unknown, errors) = match q.get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT) {
        Page::Lessons => (Default::default(), true),
        Page::Stability => {
            let s = crate::state::stability::page::StabilityState::from_query(q);
            (s.unknown, s.errors.is_empty())
        }
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
    let mut out: Vec<String> = unknown.iter().map(|k| format!("unknown key {k}")).collect();
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
            if let Some(h) = s.hop {
                assert_eq!(s.page(), Page::Storm, "{at}: a hop is the storm page's");
                let hops = crate::state::storm::StormState::from_query(&q).a.layers.len() + 1;
                assert!(h < hops, "{at}: hop {h} of a chain of {hops}");
            }
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
        // The index shows titles and summaries with no page state: literals only.
        for t in [l.title, l.summary] {
            let only_literals = |x: &str| placeholders(x).iter().all(|p| p.starts_with('#'));
            assert!(only_literals(t.en) && only_literals(t.zh), "{}: {t:?}", l.id);
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

/// The figure `id` of step `step` (from 0) of the lesson `lesson`, computed for its state.
fn figure(lesson: &str, step: usize, id: &str) -> f64 {
    let l = find(lesson).unwrap_or_else(|| panic!("the {lesson} lesson"));
    let figs = figures::of(&l.steps[step].query()).expect("runs");
    figs.get(id).map(|f| f.value).unwrap_or(f64::NAN)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn the_field_guide_quotes_the_sources_numbers() {
    // A bucket of 5 meeting 8 simultaneous requests: 5 × 200, 3 × 429.
    assert_eq!(figure("field-guide", 6, "adm-admitted"), 5.0);
    assert_eq!(figure("field-guide", 6, "adm-rejected"), 3.0);
    // The breaker opens at a window of ≥ 20 calls and ≥ 50 % failures.
    let l = find("field-guide").expect("the field guide");
    let b = crate::state::breaker::BreakerState::from_query(&l.steps[5].query()).input.breaker;
    assert_eq!((b.window, b.min_calls, b.failure_rate_pct), (20, 20, 50.0));
    assert!(figure("field-guide", 5, "breaker-rejected") > 0.0, "it opens while the dependency is down");
    // Unprotected, the promo misses the 99.9 % objective; the protection chain keeps it.
    assert!(figure("field-guide", 0, "h-a-core_success_rate") < 0.999);
    assert!(figure("field-guide", 0, "h-a-error_budget_spent") > 1.0);
    assert!(figure("field-guide", 7, "h-a-core_success_rate") >= 0.999);
    assert!(figure("field-guide", 7, "h-a-degraded") > 0.0, "recommendations degrade visibly");
    // The shared pool takes the order path down; the bulkhead keeps it up.
    assert!(figure("field-guide", 3, "h-a-failed") > 0.0);
    assert_eq!(figure("field-guide", 4, "h-a-failed"), 0.0);
}

#[test]
fn the_retry_storm_quotes_the_sources_numbers() {
    assert_eq!(figure("retry-storm", 0, "out-amplification"), 27.0);
    assert_eq!(figure("retry-storm", 0, "out-peak"), 1000.0);
    assert_eq!(figure("retry-storm", 0, "out-worst"), 27_000.0);
    assert_eq!(figure("retry-storm", 1, "h-a-original_requests"), 1000.0);
    assert_eq!(figure("retry-storm", 1, "bd-a-hop3"), 27_000.0);
    assert_eq!(figure("retry-storm", 1, "h-a-amplification"), 27.0);
    // Jitter spreads the retries but removes none.
    assert_eq!(figure("retry-storm", 2, "bd-a-hop3"), 27_000.0);
    // The retry budget does remove them.
    assert!(figure("retry-storm", 3, "bd-a-hop3") < 27_000.0);
    // The client breaker: 50 %, 30 s open.
    let l = find("retry-storm").expect("the retry-storm lesson");
    let b = crate::state::breaker::BreakerState::from_query(&l.steps[4].query()).input.breaker;
    assert_eq!((b.failure_rate_pct, b.open_ms), (50.0, 30_000.0));
}

#[test]
fn the_capacity_lesson_quotes_the_sources_numbers() {
    for step in [0, 1, 3] {
        assert!(close(figure("capacity", step, "cap-rho"), 60.0));
        assert!(close(figure("capacity", step, "cap-admit"), 150.0));
        assert!(close(figure("capacity", step, "cap-headroom"), 50.0));
        assert!(close(figure("capacity", step, "cap-margin"), 30.0));
        assert_eq!(figure("capacity", step, "cap-min-workers"), 7.0);
        assert!(close(figure("capacity", step, "cap-busy"), 4.8));
        assert!(close(figure("capacity", step, "cap-in-system"), 12.0));
    }
    assert_eq!(figure("capacity", 2, "cap-min-workers"), 7.0);
    assert!(figure("capacity", 2, "cap-rho") < 75.0, "7 workers keep 120/s under the ceiling");
    assert_eq!(figure("capacity", 5, "adm-admitted"), 0.0, "a cost above B never gets in");
    assert_eq!(figure("capacity", 7, "out-amplification"), 64.0);
}

#[test]
fn a_veil_from_the_playbacks_start_comes_with_a_time_chart_veiled() {
    // The charts with a playhead layer, which a veil covers from a moment on.
    const TIME_CHARTS: [&str; 6] = [
        "chart-load-",
        "chart-inflight-",
        "chart-outcomes-",
        "chart-error-budget-",
        "chart-breaker-",
        "chart-budget-",
    ];
    for l in all() {
        for (i, st) in l.steps.iter().enumerate() {
            if st.playback.is_some_and(|p| p.veil_from_start) {
                assert!(
                    st.veil.iter().any(|v| TIME_CHARTS.iter().any(|c| v.starts_with(c))),
                    "{} {}: a cover from the playback's start, and no time chart veiled",
                    l.id,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_metastable_storm_outlives_its_trigger_and_ends_as_told() {
    let failed = |step| figure("metastable", step, "h-a-failed");
    let requests = figure("metastable", 2, "h-a-original_requests");
    assert!(failed(2) > requests / 2.0, "most requests fail after a one-second trigger");
    assert_eq!(failed(3), 0.0, "a 200 ms trigger does not tip it");
    assert!(failed(4) < failed(2) / 2.0, "a retry budget ends it");
    assert!(failed(5) < failed(2) / 2.0, "so does a single attempt");
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
    let share = figures::Figures(vec![figures::Figure {
        id: "b".into(),
        value: 896.1,
        unit: figures::Unit::Fraction,
    }]);
    assert_eq!(figures::plain(&figures::fill(tr("{b:times}", "{b:times}"), Lang::En, &share)), "896×");
    assert_eq!(figures::plain(&figures::fill(tr("{b}", "{b}"), Lang::En, &share)), "89,610 %");
    assert!(matches!(&figures::fill(tr("{b:nope}", "{b:nope}"), Lang::En, &share)[0], Piece::Missing(_)));
    // A figure and the word after it stay on one line; other spaces are left alone.
    let pieces = figures::fill(tr("at {x} or so", "{x} 左右"), Lang::En, &figs);
    assert_eq!(pieces[2], Piece::Words("\u{a0}or so".into()));
    assert_eq!(pieces[0], Piece::Words("at ".into()));
}

/// Words with digits that name things rather than quote quantities: status classes,
/// percentile and queue-model names, superscript-free formulas, the source documents.
const NAMES: &[&str] = &[
    "4xx",
    "5xx",
    "p50",
    "p90",
    "p95",
    "p99",
    "p999",
    "M/M/1",
    "M/M/c",
    "M/D/1",
    "M/D/c",
    "D/D/c",
    "Source 000",
    "Source 001",
    "Source 002",
    "Source 003",
    "source 000",
    "source 001",
    "source 002",
    "source 003",
    "文档 000",
    "文档 001",
    "文档 002",
    "文档 003",
    "HotOS",
    "OSDI",
    "Resilience4j",
];

/// Every digit a lesson's text types, with some context: what [`every_number_comes_from_the_model`]
/// finds. A number must be a placeholder (a figure or setting of the step's page, or an
/// arithmetic of them) or a declared literal `{#…}` (a source's quote, a status code).
pub fn typed_numbers() -> Vec<String> {
    let mut out = Vec::new();
    for l in all() {
        let texts = l
            .steps
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.texts().map(move |t| (format!("step {}", i + 1), t)));
        for (at, text) in
            [("title".to_string(), l.title), ("summary".to_string(), l.summary)].into_iter().chain(texts)
        {
            for lang in Lang::ALL {
                let mut bare = String::new();
                let mut rest = text.get(lang);
                while let Some(open) = rest.find('{') {
                    bare.push_str(&rest[..open]);
                    bare.push(' ');
                    rest = rest[open..].find('}').map_or("", |c| &rest[open + c + 1..]);
                }
                bare.push_str(rest);
                for name in NAMES {
                    bare = bare.replace(name, " ");
                }
                let chars: Vec<char> = bare.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    if chars[i].is_ascii_digit() || ('０'..='９').contains(&chars[i]) {
                        let from = i.saturating_sub(12);
                        let to = (i + 12).min(chars.len());
                        let context: String = chars[from..to].iter().collect();
                        out.push(format!("{} {at} ({}): …{}…", l.id, lang.code(), context.trim()));
                        while i < chars.len() && (chars[i].is_ascii_digit() || matches!(chars[i], ',' | '.'))
                        {
                            i += 1;
                        }
                    }
                    i += 1;
                }
            }
        }
    }
    out
}

#[test]
fn every_number_comes_from_the_model() {
    let typed = typed_numbers();
    assert!(typed.is_empty(), "{} numbers typed in lesson text:\n{}", typed.len(), typed.join("\n"));
}

#[test]
fn settings_and_arithmetic_fill_from_the_page() {
    use crate::i18n::T;
    let figs = figures::Figures(vec![
        figures::Figure {
            id: "set-workers".into(),
            value: 5.0,
            unit: figures::Unit::Setting(T::UnitWorkers),
        },
        figures::Figure { id: "set-ms".into(), value: 10.0, unit: figures::Unit::Setting(T::UnitMs) },
    ]);
    let f = |en: &'static str| figures::plain(&figures::fill(tr(en, en), Lang::En, &figs));
    assert_eq!(f("{set-workers} of {set-ms}"), "5 workers of 10 ms");
    assert_eq!(f("{set-workers:n} at {= set-workers * 1000 / set-ms} calls/s"), "5 at 500 calls/s");
    assert_eq!(f("{= ( set-ms + 20 ) / set-workers }"), "6");
    assert_eq!(
        f("{= set-workers * 1000 / 3 / set-ms} or about {~ set-workers * 1000 / 3 / set-ms}"),
        "166.67 or about 167"
    );
    assert_eq!(f("status {#429}, {#2021}"), "status 429, 2021");
    for bad in ["{= set-workers *}", "{= nope + 1}", "{= set-ms / 0}", "{= ( set-ms }"] {
        assert!(
            figures::fill(tr(bad, bad), Lang::En, &figs).iter().any(|p| matches!(p, Piece::Missing(_))),
            "{bad}"
        );
    }
}

/// For whoever writes a lesson: every figure each step can quote, with its value as the
/// text writes it (`cargo test --lib dump_step_figures -- --ignored --nocapture`).
#[test]
#[ignore]
fn dump_step_figures() {
    for l in all() {
        for (i, s) in l.steps.iter().enumerate() {
            println!("== {} step {} ({})", l.id, i + 1, s.link);
            match figures::of(&s.query()) {
                Ok(f) => {
                    for fig in &f.0 {
                        println!(
                            "{} step {}: {{{}}} = {} (exact {})",
                            l.id,
                            i + 1,
                            fig.id,
                            fig.show(Lang::En),
                            fig.value
                        );
                    }
                }
                Err(e) => println!("{} step {}: no figures: {e}", l.id, i + 1),
            }
        }
    }
}

#[test]
fn the_card_drops_a_counted_word_its_label_already_says() {
    use crate::i18n::T;
    use crate::lesson::figures::{setting_text, setting_value_text};
    assert_eq!(setting_text(Lang::En, 5.0, T::UnitWorkers), "5 workers", "the prose keeps it");
    assert_eq!(setting_value_text(Lang::En, 5.0, T::UnitWorkers), "5");
    assert_eq!(setting_value_text(Lang::Zh, 3.0, T::UnitAttempts), "3");
    assert_eq!(setting_value_text(Lang::En, 100.0, T::UnitMs), "100 ms", "a unit of measure stays");
    assert_eq!(setting_value_text(Lang::Zh, 250.0, T::UnitRps), "250 请求/秒");
    assert_eq!(setting_value_text(Lang::Zh, 5.0, T::UnitTimes), "×5", "a factor as the cards write it");
}

#[test]
fn a_setting_is_labelled_with_its_owner_and_row() {
    use crate::state::{breaker::BreakerState, calculator::CalcState, storm::StormState};
    let find =
        |all: Vec<crate::state::Setting>, key: &str| all.into_iter().find(|s| s.key == key).expect(key);
    let calc = CalcState::from_query(&Query::parse("?page=calculator"));
    let s = find(calc.lesson_settings(), "attempts.1");
    assert_eq!(s.label_text(Lang::En), "Attempts at layer 1");
    assert_eq!(s.label_text(Lang::Zh), "第 1 层尝试次数");
    let breaker = BreakerState::from_query(&Query::parse("?page=breaker"));
    assert_eq!(find(breaker.lesson_settings(), "phase_ms.2").label_text(Lang::En), "Phase 2 · Length");
    let storm = StormState::from_query(&Query::parse("?page=storm&preset=metastable-retry-storm"));
    assert_eq!(find(storm.lesson_settings(), "leaf.workers").label_text(Lang::En), "server · Workers");
    assert_eq!(find(storm.lesson_settings(), "f1.end").label_text(Lang::Zh), "故障 1 · 故障结束");
    assert!(find(storm.lesson_settings(), "layers").label_text(Lang::En).starts_with("Layers"));
    let rate = find(storm.lesson_settings(), "rate").label_text(Lang::En);
    assert!(!rate.contains('·'), "a setting of the whole run names no owner: {rate}");
}

#[test]
fn texts_shown_away_from_their_step_fill_without_a_run() {
    // The index's titles and summaries, the checklist's questions and the next step's title
    // are filled from the link's settings and closed-form figures (`without_run`).
    for l in all() {
        for lang in [Lang::En, Lang::Zh] {
            let none = figures::Figures::default();
            let summary = figures::fill(l.summary, lang, &none);
            assert!(summary.iter().all(|p| !matches!(p, Piece::Missing(_))), "{} summary: {summary:?}", l.id);
            let title = figures::fill(l.title, lang, &none);
            assert!(title.iter().all(|p| !matches!(p, Piece::Missing(_))), "{} title: {title:?}", l.id);
            for (i, step) in l.steps.iter().enumerate() {
                let figs = figures::without_run(&step.query());
                for text in [Some(step.title), step.question].into_iter().flatten() {
                    let pieces = figures::fill(text, lang, &figs);
                    assert!(
                        pieces.iter().all(|p| !matches!(p, Piece::Missing(_))),
                        "{} step {}: {:?}",
                        l.id,
                        i + 1,
                        figures::plain(&pieces)
                    );
                }
            }
        }
    }
}

#[test]
fn presenter_mode_veils_the_figures_only_the_answer_quotes() {
    let step = |lesson: &str, n: usize| &all().iter().find(|l| l.id == lesson).unwrap().steps[n - 1];
    // Retry-storm 1 asks how many calls payment can see; its answer is the worst case.
    assert_eq!(step("retry-storm", 1).answer_only_figures(), ["out-amplification", "out-worst"]);
    // Metastable 4 asks whether a short trigger tips the system: its outcomes chart, which
    // shows it at a glance, is veiled with the answer's figures.
    let m4 = step("metastable", 4);
    assert!(
        m4.veiled().contains(&"chart-outcomes-a") && m4.veiled().len() > m4.veil.len(),
        "{:?}",
        m4.veiled()
    );
    // What the teacher's review found answering first, veiled until the reveal: the breaker's
    // band and state changes, the load chart of a storm the question asks about, every
    // capacity row that works out ρ, the rows after the admission asked about, and the
    // settings that count "first + 3 retries" as 4.
    for (lesson, n, ids) in [
        ("retry-storm", 5, &["breaker-band", "breaker-changes", "breaker-transitions"][..]),
        ("metastable", 1, &["chart-load-a", "chart-inflight-a", "chart-outcomes-a"][..]),
        ("metastable", 2, &["chart-load-a", "chart-inflight-a", "h-a-abandoned_work"][..]),
        ("metastable", 4, &["chart-outcomes-a", "chart-inflight-a", "chart-error-budget-a"][..]),
        (
            "metastable",
            7,
            &[
                "stab-boundary-protected",
                "stab-saved",
                "stab-cell-verdict",
                "hyst-protected",
                "stab-hyst-served",
            ][..],
        ),
        ("metastable", 8, &["stab-hyst-why"][..]),
        // What restates a veiled card in words goes with it (`lesson::RESTATED`).
        ("retry-storm", 5, &["breaker-figures-note"][..]),
        ("field-guide", 6, &["breaker-band", "breaker-transitions"][..]),
        ("field-guide", 7, &["adm-step-1", "adm-step-8", "adm-tokens"][..]),
        ("interview", 5, &["headline", "diagram-a"][..]),
        ("retry-storm", 1, &["inflight-normal-after", "saturation-warning", "calc-announce"][..]),
        ("capacity", 1, &["cap-row-rho", "cap-row-busy", "q-queue-chart"][..]),
        ("capacity", 5, &["adm-step-5", "adm-step-6"][..]),
        ("capacity", 8, &["lesson-settings", "lesson-step-knobs"][..]),
        // The live regions that read a veiled figure out when the run finishes.
        ("capacity", 1, &["q-announce"][..]),
        ("metastable", 4, &["run-announce"][..]),
        // The live line reads out any headline card a run changes (`RESTATED_BY_PREFIX`).
        ("metastable", 2, &["run-announce"][..]),
        ("interview", 5, &["run-announce", "slo-status-a"][..]),
        ("metastable", 1, &["run-announce"][..]),
        ("metastable", 5, &["run-announce"][..]),
        ("field-guide", 6, &["breaker-announce"][..]),
    ] {
        let veiled = step(lesson, n).veiled();
        for id in ids {
            assert!(veiled.contains(id), "{lesson} {n}: {id} is not veiled: {veiled:?}");
        }
    }
    // A figure the narration quotes already is not veiled by the answer, nor is a setting
    // it quotes (a step may still veil its settings line by its own `veil`).
    for l in all() {
        for s in l.steps {
            for id in s.answer_only_figures() {
                assert!(!id.starts_with("set-"), "{}: {id}", l.id);
                assert!(!placeholders(s.narration.en).iter().any(|p| p.contains(id)), "{}: {id}", l.id);
            }
        }
    }
}

#[test]
fn the_interviews_time_boxes_follow_one_another_to_45_minutes() {
    let l = crate::lesson::find("interview").expect("the interview lesson");
    let boxes: Vec<(u32, u32)> = (0..l.steps.len()).filter_map(|i| l.time_box(i)).collect();
    // Source 000: five minutes, eight, twelve, fifteen, then the last five.
    assert_eq!(boxes, [(0, 5), (5, 13), (13, 25), (25, 40), (40, 45)]);
    assert_eq!(l.minutes(), 45);
    assert_eq!(l.time_box(l.steps.len()), None);
    // A step without a box of its own (a follow-up question) is in the box before it.
    let boxes: Vec<Option<(u32, u32, bool)>> =
        (0..=l.steps.len()).map(|i| l.box_of(i).map(|b| (b.from, b.to, b.opens))).collect();
    let (opens, within) = (|a, b| Some((a, b, true)), |a, b| Some((a, b, false)));
    assert_eq!(
        boxes,
        [
            opens(0, 5),
            opens(5, 13),
            within(5, 13),
            opens(13, 25),
            within(13, 25),
            opens(25, 40),
            within(25, 40),
            within(25, 40),
            opens(40, 45),
            within(40, 45),
            within(40, 45),
            None
        ]
    );
    let plain = crate::lesson::find("retry-storm").expect("the retry-storm lesson");
    assert!((0..plain.steps.len()).all(|i| plain.box_of(i).is_none()), "no boxes, none shown");
}

#[test]
fn a_lessons_links_are_cut_out_of_its_words_and_open_a_lesson_or_page_of_the_site() {
    use crate::lesson::{Words, links};
    assert_eq!(
        links("as in [the metastable lesson](?lesson=metastable), but [x] (y) [a](b)"),
        [
            Words::Plain("as in "),
            Words::Link { words: "the metastable lesson", query: "lesson=metastable" },
            Words::Plain(", but ["),
            Words::Plain("x] (y) ["),
            Words::Plain("a](b)"),
        ]
    );
    // Every link in every lesson's words opens a lesson or a page the site has.
    let mut seen = 0;
    for lesson in crate::lesson::all() {
        for st in lesson.steps {
            let texts = [Some(st.title), Some(st.narration), st.question, st.answer, st.try_this];
            for t in texts.into_iter().flatten() {
                for text in [t.en, t.zh] {
                    // As the card reads them: words between backticks are code, never links;
                    // every `](?` of the text is a link found, its words free of figures.
                    let found: Vec<Words> = text
                        .split('`')
                        .step_by(2)
                        .flat_map(links)
                        .filter(|w| matches!(w, Words::Link { .. }))
                        .collect();
                    assert_eq!(
                        found.len(),
                        text.matches("](?").count(),
                        "{}: a link not read as one: {text}",
                        lesson.id
                    );
                    for w in found {
                        if let Words::Link { query, words } = w {
                            assert!(
                                !words.contains('{'),
                                "{}: a figure in a link's words: {words}",
                                lesson.id
                            );
                            seen += 1;
                            let q = crate::query::Query::parse(query);
                            let known = match (q.get("lesson"), q.get("page")) {
                                (Some(id), _) => crate::lesson::find(id).is_some(),
                                (None, Some(p)) => crate::state::app::Page::from_slug(p).is_some(),
                                _ => false,
                            };
                            assert!(known, "{}: {query}", lesson.id);
                        }
                    }
                }
            }
        }
    }
    assert!(seen >= 2, "the interview's link to the metastable lesson, in both languages");
}

#[test]
fn metastable_5s_every_failure_is_a_refused_retry() {
    // Step 5's answer says so of its run (and of the try-this with cancel on): the tokens
    // gone, a request whose try timed out ends there, so the two counts are one.
    let l = crate::lesson::find("metastable").expect("the metastable lesson");
    let st = &l.steps[4];
    assert!(st.answer.is_some_and(|a| a.en.contains("Every failure is a retry the budget refused")));
    for extra in ["", "&cancel=on"] {
        let q = crate::query::Query::parse(&format!("{}{extra}", st.link));
        let st = crate::state::storm::StormState::from_query(&q);
        let r = crate::model::chain::run_with(&st.a, st.seed, crate::model::chain::DEFAULT_MAX_CALLS)
            .expect("runs");
        assert!(r.summary.failed > 0, "{extra}");
        assert_eq!(r.summary.failed, r.summary.retry_budget_denied, "{extra}");
    }
}

#[test]
fn what_gives_the_answer_another_way_is_veiled_with_it() {
    let step = |lesson: &str, n: usize| &all().iter().find(|l| l.id == lesson).unwrap().steps[n - 1];
    // The walkthrough's finds, each read before the reveal: retry storm 2's success rate
    // and outcomes chart (0 saved), retry storm 4's leaf card and diagram (1,300 calls),
    // metastable 4's successes, retries and abandoned work (no storm).
    for (lesson, n, ids) in [
        ("retry-storm", 2, &["h-a-core_success_rate", "h-a-error_budget_spent", "chart-outcomes-a"][..]),
        ("retry-storm", 4, &["h-a-downstream_attempts", "diagram-a", "bd-hops-a"][..]),
        ("metastable", 4, &["h-a-succeeded", "h-a-retries", "h-a-abandoned_work"][..]),
    ] {
        let veiled = step(lesson, n).veiled();
        for id in ids {
            assert!(veiled.contains(id), "{lesson} {n}: {id} is not veiled: {veiled:?}");
        }
    }
    // What a step points at, or quotes before its answer, is never veiled as a restatement.
    for l in all() {
        for (i, st) in l.steps.iter().enumerate() {
            let veiled = st.veiled();
            let own: Vec<&str> =
                st.answer_only_figures().into_iter().chain(st.veil.iter().copied()).collect();
            assert!(
                !veiled.contains(&st.spot) || own.contains(&st.spot),
                "{} {}: its spot {} is veiled by a restatement",
                l.id,
                i + 1,
                st.spot
            );
        }
    }
    // Retry storm 2 points at the diagram, whose calls its narration quotes: shown.
    assert!(!step("retry-storm", 2).veiled().contains(&"diagram-a"));
}
