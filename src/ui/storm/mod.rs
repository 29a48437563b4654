//! The retry-storm page: controls on the left; on the right the headline figures, the
//! chain diagram and charts at a playhead in virtual time, a sampled request's timeline,
//! latency distributions and the closed forms. Compare mode runs side B beside A.
//!
//! The page only composes views: its runs happen in a Web Worker through the `use_runs`
//! hook (`ui/runs.rs`, over the natively tested `state::runs::Batch`), and playback is
//! driven by requestAnimationFrame through an owned handle that is cancelled on drop.

pub mod breakdown;
pub mod controls;
pub mod diagram;
pub mod figures;
pub mod retry_timing;
pub mod run_view;
pub mod timeline;
pub mod tree;

use crate::i18n::{Lang, T, format_number};
use crate::lesson::OnReveal;
use crate::plot::storm::{Axes, formulas, run_end_ms};
use crate::report::Stopped;
use crate::state::announce::Said;
use crate::state::runs::{Job, RunError, Side};
use crate::state::storm::{FOCUS, MOMENT, REQUEST, StormAction, StormState};
use crate::ui::announce::use_announcement;
use crate::ui::browser;
use crate::ui::charts::{LatencyChart, ReportRef, StepMoment, latency_top};
use crate::ui::export::{DataKind, ExportMenu};
use crate::ui::links::use_view_in_link;
use crate::ui::runs::use_runs;
use breakdown::Breakdown;
use controls::ControlPanel;
use diagram::Diagram;
use figures::{Baseline, FormulaPanel, HeadlineTable};
use gloo_render::{AnimationFrame, request_animation_frame};
use retry_timing::RetryTiming;
use run_view::{ChartRef, Overlay, RunView, Watched, chart_data};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use timeline::Timeline;
use tree::AttemptTreeView;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// 1× playback shows the whole run in this many real milliseconds.
const PLAY_MS_AT_1X: f64 = 10_000.0;
/// After a lesson's answer is revealed the run plays on to its totals within this many ms
/// of wall time, whatever the speed: a class does not wait 10 s for the figures the answer
/// quotes.
const PLAY_ON_MS: f64 = 3_000.0;
const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// Where the tab keeps the playback speed (see `speed` in [`StormPage`]).
const SPEED_KEY: &str = "resilience-lab.speed";

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The runs the page's state asks for: side A, and side B in compare mode, each described
/// by the page's query (its whole state).
fn jobs(st: &StormState, query: &str) -> Vec<Job> {
    let query = query.to_string();
    let mut jobs = vec![Job::Storm { query: query.clone(), side: Side::A }];
    if st.compare {
        jobs.push(Job::Storm { query, side: Side::B });
    }
    jobs
}

/// A run that could not start, in the page's language; `batch`: its requests arrive at once
/// (`requests`), so the settings to lower are those, not a rate and a duration.
fn run_error_text(lang: Lang, e: &RunError, batch: bool) -> String {
    match e {
        RunError::Invalid(f) => lang.field_error(f),
        RunError::TooMuchWork { estimated, cap } => lang.f(
            if batch { T::TooMuchWorkBatch } else { T::TooMuchWork },
            &[("estimated", &crate::i18n::format_bound(*estimated)), ("cap", &format_number(*cap, 0))],
        ),
        RunError::Internal(m) => m.clone(),
    }
}

#[derive(Properties, PartialEq)]
pub struct StormProps {
    pub lang: Lang,
    pub state: StormState,
    pub dispatch: Callback<StormAction>,
    /// A lesson step's moment of the playback: start there, pause there.
    #[prop_or_default]
    pub cue: Option<crate::lesson::Playback>,
    /// A lesson step's hop to point at: it starts picked (see `focus`).
    #[prop_or_default]
    pub hop: Option<usize>,
    /// A lesson step is shown: its runs share y scales. The page is mounted afresh for each
    /// step (and for its reset), so what it holds is the step's.
    #[prop_or_default]
    pub in_lesson: bool,
    /// The lesson step's answer is shown: its figures are the whole run's, so the playback
    /// goes on from the step's pause to the end.
    #[prop_or_default]
    pub revealed: bool,
}

#[component]
pub fn StormPage(props: &StormProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    // The queries that rebuild the runs and that the export names, written once per state:
    // each playback frame renders the page again, and writing a link simulates reading it.
    let queries = use_memo(props.state.clone(), |st| (st.run_query(), st.export_query()));
    let run_query = queries.0.clone();
    let runs = use_runs(jobs(&props.state, &run_query));
    // When the learner last acted (performance.now() ms), to measure rerun + redraw.
    let action_at: Rc<Cell<f64>> = (*use_memo((), |_| Rc::new(Cell::new(0.0f64)))).clone();
    let reduced = use_memo((), |_| browser::prefers_reduced_motion());
    let wide = use_memo((), |_| browser::is_wide());
    // The attempt tree asks for a request; one callback for the page's life, so that the
    // tree does not redraw on every playback frame.
    let onpick = {
        let action_at = action_at.clone();
        use_callback(props.dispatch.clone(), move |n: String, d| {
            action_at.set(now_ms());
            d.emit(StormAction::Request(n))
        })
    };
    let onpick_bar = {
        let onpick = onpick.clone();
        use_callback(onpick, |n: u64, onpick| onpick.emit(n.to_string()))
    };
    // A lesson step's cue, else the moment the link was paused at (`t=`), else the start.
    let playhead = use_state(|| props.cue.map_or(props.state.moment.unwrap_or(0.0), |c| c.from_ms));
    // Where a lesson step's playback pauses, once.
    let pause_at: Rc<Cell<Option<f64>>> =
        (*use_memo((), |_| Rc::new(Cell::new(props.cue.map(|c| c.pause_ms))))).clone();
    let playing = use_state(|| !*reduced && (props.cue.is_some() || props.state.moment.is_none()));
    {
        // Another preset (picked, or a link come back to) starts its own playback: paused at
        // its link's moment if it has one, else playing from 0. The last preset's playhead
        // had carried over: a 90 s run opened paused at the 1.27 s where the last had ended,
        // and its link said so. (A lesson's steps cue their own playback.)
        let (playhead, playing) = (playhead.clone(), playing.clone());
        let (moment, in_lesson, still) = (props.state.moment, props.in_lesson, *reduced);
        let first = use_mut_ref(|| true);
        use_effect_with(props.state.preset, move |_| {
            if std::mem::replace(&mut *first.borrow_mut(), false) || in_lesson {
                return;
            }
            playhead.set(moment.unwrap_or(0.0));
            playing.set(!still && moment.is_none());
        });
    }
    // Playing on after a reveal (see `PLAY_ON_MS`), until the run's end or the learner's
    // own play, step, scrub or speed.
    let hurry: Rc<Cell<bool>> = (*use_memo((), |_| Rc::new(Cell::new(false)))).clone();
    {
        // Most answers quote what came after the pause (the totals the diagram counts up to,
        // a recovery): play on to them rather than leave the page at the moment the question
        // was asked; a step whose answer explains that moment stays (`OnReveal`). Hidden
        // again, the answer gives the moment back. (With reduced motion the page jumps
        // instead: see below.)
        let (playing, playhead, pause_at, hurry, moving) =
            (playing.clone(), playhead.clone(), pause_at.clone(), hurry.clone(), !*reduced);
        let cue = props.cue;
        let was_shown: Rc<Cell<bool>> = (*use_memo((), |_| Rc::new(Cell::new(false)))).clone();
        use_effect_with(props.revealed, move |on| {
            let plays_on = cue.is_none_or(|c| c.on_reveal == OnReveal::PlayOn);
            if *on {
                was_shown.set(true);
                if plays_on {
                    pause_at.set(None);
                    hurry.set(moving);
                    playing.set(moving);
                }
            } else if was_shown.replace(false)
                && let Some(c) = cue
            {
                hurry.set(false);
                pause_at.set(None);
                playing.set(false);
                playhead.set(c.pause_ms);
            }
        });
    }
    // The playback speed is the viewer's, not the scenario's: kept for the tab's session (a
    // reload keeps it), not in the link.
    let speed = use_state(|| {
        browser::session_get(SPEED_KEY)
            .and_then(|v| crate::float::parse_f64(&v))
            .filter(|v| SPEEDS.contains(v))
            .unwrap_or(1.0)
    });
    let trace_idx = use_state(|| 0usize);
    let copied = use_state(|| false);
    // The hop whose series stand out in every chart (None: all alike). In a lesson, the
    // step's: a step that points at a hop picks it, and the next step's choice replaces it.
    // Elsewhere the page's state (`focus=`), so that its link keeps it and a Reset or
    // another preset lets it go.
    let lesson_focus = use_state(|| props.hop);
    {
        let lesson_focus = lesson_focus.clone();
        use_effect_with(props.hop, move |h| lesson_focus.set(*h));
    }
    let focus = if props.in_lesson { *lesson_focus } else { props.state.focus };
    let frame: Rc<RefCell<Option<AnimationFrame>>> = use_mut_ref(|| None);
    let measure: Rc<RefCell<Option<AnimationFrame>>> = use_mut_ref(|| None);
    // The reports on screen: those of the latest finished run.
    let (a, b, error) = match runs.results.as_deref() {
        Some(results) => {
            let mut reports =
                results.iter().map(|r| r.result.as_ref().ok().map(|rep| ReportRef(rep.clone())));
            let a = reports.next().flatten();
            let b = reports.next().flatten();
            (a, b, results.iter().find_map(|r| r.result.as_ref().err().cloned()))
        }
        None => (None, None, None),
    };
    // The settings the figures on screen come from: those of the run that produced them, not
    // the panel's, which the next run will show. Until that run is in, the diagram, the
    // formulas and the retry timing go on describing the figures beside them (they had shown
    // the new tries over the old run's figures), and a slider move redraws the panel alone.
    let shown = use_memo((runs.jobs.clone(), props.state.a.slo), |(jobs, slo)| {
        jobs.as_deref().and_then(|j| j.first()).and_then(|j| j.storm_state(*slo))
    });
    let shown: &StormState = shown.as_ref().as_ref().unwrap_or(&props.state);
    // The request whose attempt tree is open: the one asked for when the report on screen
    // traced it (the sampled ones the timeline offers open at once), else the run's own.
    let tree_request = {
        let traced = |n: u64| a.as_ref().is_some_and(|r| r.0.traces.iter().any(|t| t.request == n));
        match props.state.request {
            Some(n) if !traced(n) => shown.request,
            live => live,
        }
    };
    let report_digest =
        runs.results.as_ref().and_then(|r| r.first()).filter(|r| r.result.is_ok()).map(|r| r.digest);

    // After a finished run is on screen, record how long rerun + redraw took: from the
    // learner's action to the first animation frame after the new DOM.
    {
        let measure = measure.clone();
        let action_at = action_at.clone();
        let digest = report_digest;
        let memory = runs.memory_bytes;
        let in_worker = runs.in_worker;
        let run_ms = runs.run_ms;
        use_effect_with(runs.finished, move |seq| {
            let seq = *seq;
            if seq == 0 {
                return; // nothing has finished yet: the page is not ready to be measured
            }
            let handle = request_animation_frame(move |_| {
                let started = action_at.get();
                let took = if started > 0.0 { now_ms() - started } else { 0.0 };
                action_at.set(0.0);
                if let Some(el) =
                    web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("storm"))
                {
                    let _ = el.set_attribute("data-redraw-ms", &format!("{took:.1}"));
                    // The run's share of it, measured where it ran.
                    let _ = el.set_attribute("data-run-ms", &format!("{run_ms:.1}"));
                    let _ = el.set_attribute("data-run", &seq.to_string());
                    let _ = el.set_attribute("data-run-memory", &memory.to_string());
                    // And the page's own module, which decodes the report and draws it.
                    let _ =
                        el.set_attribute("data-page-memory", &crate::ui::runs::memory_bytes().to_string());
                    let _ = el.set_attribute("data-in-worker", if in_worker { "1" } else { "0" });
                    if let Some(d) = digest {
                        let _ = el.set_attribute("data-digest", &format!("{d:016x}"));
                    }
                }
            });
            *measure.borrow_mut() = Some(handle);
        });
    }

    // Chart data once per report; in compare mode, axes shared by both sides.
    // The SLO is not part of a run: moving it redraws without rerunning.
    let slo = props.state.a.slo;
    let data_a = use_memo((a.clone(), lang, slo), |(r, lang, slo)| {
        r.as_ref().map(|r| ChartRef(Rc::new(chart_data(*lang, &r.0, *slo))))
    });
    let data_b = use_memo((b.clone(), lang, slo), |(r, lang, slo)| {
        r.as_ref().map(|r| ChartRef(Rc::new(chart_data(*lang, &r.0, *slo))))
    });
    // A lesson step's y scales, held over the step's runs (see `Axes::held`).
    let held_so_far = use_mut_ref(|| None::<(Watched, Axes)>);
    let held = *use_memo((a.clone(), (*data_a).clone(), props.in_lesson), move |(a, d, in_lesson)| {
        let (true, Some(a), Some(d)) = (*in_lesson, a, d) else { return None };
        let mut kept = held_so_far.borrow_mut();
        let same_focus = kept.is_some_and(|(watched, _)| watched == d.0.watched);
        let now = Axes::held(kept.map(|(_, axes)| axes), Axes::of(&a.0, &d.0), same_focus);
        *kept = Some((d.0.watched, now));
        Some(now)
    });
    let axes = match (&a, &*data_a, &b, &*data_b) {
        (Some(ra), Some(da), Some(rb), Some(db)) => Some(Axes::shared((&ra.0, &da.0), (&rb.0, &db.0))),
        _ => None,
    };
    let end_ms = axes.map_or_else(|| a.as_ref().map_or(1.0, |r| run_end_ms(&r.0)), |x| x.end_ms).max(1.0);

    // Playback: one animation frame per render while playing.
    {
        let playhead = playhead.clone();
        let playing = playing.clone();
        let frame = frame.clone();
        let speed = *speed;
        let pause_at = pause_at.clone();
        let hurry = hurry.clone();
        // Nothing moves before the first report: its end is not known yet (a stand-in end of
        // 1 ms would end a lesson's playback that starts later, at once).
        let has_run = a.is_some();
        use_effect_with((*playing, *playhead, end_ms, has_run), move |(is_playing, at, end, has_run)| {
            let (at, end) = (*at, *end);
            if *is_playing && *has_run {
                let start = now_ms();
                let handle = request_animation_frame(move |_| {
                    // Clamp a long gap (a background tab) to one frame's worth.
                    // At least 1 ms: a frame that left the playhead where it was would not
                    // re-run this effect (its inputs unchanged), and playback would stop.
                    let dt = (now_ms() - start).clamp(1.0, 100.0);
                    let mut rate = speed * end / PLAY_MS_AT_1X;
                    if hurry.get() {
                        rate = rate.max(end / PLAY_ON_MS);
                    }
                    let next = at + dt * rate;
                    if let Some(p) = pause_at.get().filter(|p| next >= *p && at < *p) {
                        pause_at.set(None);
                        playhead.set(p.min(end));
                        playing.set(false);
                    } else if next >= end {
                        hurry.set(false);
                        playhead.set(end);
                        playing.set(false);
                    } else {
                        playhead.set(next);
                    }
                });
                *frame.borrow_mut() = Some(handle);
            } else {
                *frame.borrow_mut() = None;
            }
        });
    }
    // Reduced motion: always the end state.
    if *reduced && a.is_some() {
        // A lesson's pause is the moment to show.
        let shown = props
            .cue
            .filter(|c| !props.revealed || c.on_reveal == OnReveal::Stay)
            .map_or(end_ms, |c| c.pause_ms.min(end_ms));
        if *playhead != shown {
            playhead.set(shown);
        }
    }

    // Where the learner paused goes into the page's link (`t=`), so that a reload or a
    // shared link opens at that moment: not in a lesson (the step's state is the step's),
    // nor with reduced motion (the page shows the end), nor before the first report (the
    // link's moment waits for it). A run played to its end is paused there too: Back from
    // a lab opened at the end returns to the end state that was being explained, not to a
    // replay from 0 (Play starts again from 0).
    {
        let writes = !props.in_lesson && !*reduced && a.is_some();
        let want =
            // To a tenth of a ms, never past the end (which need not be a whole tenth).
            (!*playing && *playhead > 0.0 && *playhead <= end_ms)
                .then(|| ((*playhead * 10.0).round() / 10.0).min(end_ms));
        use_view_in_link(want, props.state.moment, writes, props.dispatch.reform(StormAction::Moment));
    }
    // Stable callbacks, so that playback frames do not re-render the control panel.
    let dispatch = {
        let action_at = action_at.clone();
        let copied = copied.clone();
        use_callback(props.dispatch.clone(), move |a: StormAction, d| {
            action_at.set(now_ms());
            copied.set(false);
            d.emit(a);
        })
    };
    let oncopy = {
        let copied = copied.clone();
        use_callback(lang, move |_: (), &lang| {
            let href = browser::current_href();
            let copied = copied.clone();
            let fallback = href.clone();
            browser::copy_text(&href, move |ok| {
                if ok {
                    copied.set(true);
                } else {
                    browser::offer_to_copy(lang.t(T::CopyByHand), &fallback);
                }
            });
        })
    };
    // Export hands over side A's report, as `lab run --format json|csv` prints it, and in
    // compare mode side B's, as `lab run --versus` prints it.
    // An edited run's JSON names the link that runs it again (`runs::report_link`).
    // Its `slo` is the page's verdict, and its link carries the objective (`export_query`).
    let export_query = queries.1.clone();
    let export_data = use_callback((a.clone(), export_query.clone(), slo), |(kind, _), (a, q, slo)| {
        report_text(kind, a.as_ref(), q, crate::state::runs::Side::A, *slo)
    });
    let export_b = use_callback((b.clone(), export_query, slo), |(kind, _), (b, q, slo)| {
        report_text(kind, b.as_ref(), q, crate::state::runs::Side::B, *slo)
    });
    // Side B's name for its files, made once per pairing (it builds side B's scenario).
    let preset_b = {
        let st = &props.state;
        (*use_memo((st.preset, st.pin.clone(), st.compare), |_| {
            if st.compare { AttrValue::from(st.side_b_preset()) } else { AttrValue::default() }
        }))
        .clone()
    };
    // Compare mode: both sides' trees of the asked-for request on one time span, where one
    // scale serves both (`tree::shared_span`).
    let tree_span = *use_memo((a.clone(), b.clone(), tree_request), |(a, b, request)| {
        let (Some(a), Some(b), Some(n)) = (a, b, request) else { return None };
        let span = |r: &ReportRef| {
            let trace = r.0.traces.iter().find(|t| t.request == *n)?;
            Some(tree::span_of(&crate::model::tree::AttemptTree::of(trace)))
        };
        crate::model::tree::shared_span(span(a)?, span(b)?)
    });
    let trace_cb = {
        let trace_idx = trace_idx.clone();
        use_callback((), move |i: usize, _| trace_idx.set(i))
    };
    // A request picked (a bar, a "Show me", its number) is traced whole in the run on screen:
    // the timeline above the tree shows it too, so that the two views of one request agree
    // (it had stayed on request #0 beside the picked one's tree). Its ‹ › move on from there.
    {
        let trace_idx = trace_idx.clone();
        let picked = props.state.request;
        let at = picked.zip(a.as_ref()).and_then(|(n, r)| r.0.traces.iter().position(|t| t.request == n));
        use_effect_with((picked, at), move |&(_, at)| {
            if let Some(i) = at {
                trace_idx.set(i);
            }
        });
    }
    let at = playhead.min(end_ms);
    let play_bar = {
        let onplay = {
            let playing = playing.clone();
            let playhead = playhead.clone();
            let hurry = hurry.clone();
            let reduced = *reduced;
            Callback::from(move |_: MouseEvent| {
                if reduced {
                    return;
                }
                hurry.set(false);
                if !*playing && *playhead >= end_ms {
                    playhead.set(0.0);
                }
                playing.set(!*playing);
            })
        };
        let onstep = {
            let playhead = playhead.clone();
            let playing = playing.clone();
            let bucket = a.as_ref().map_or(1.0, |r| r.0.series.bucket_ms);
            let hurry = hurry.clone();
            Callback::from(move |_: MouseEvent| {
                hurry.set(false);
                playing.set(false);
                playhead.set(((*playhead / bucket).floor() + 1.0) * bucket);
            })
        };
        let onscrub = {
            let playhead = playhead.clone();
            let playing = playing.clone();
            let hurry = hurry.clone();
            Callback::from(move |e: InputEvent| {
                let i: HtmlInputElement = e.target_unchecked_into();
                if let Some(v) = crate::float::parse_f64(&i.value()) {
                    hurry.set(false);
                    playing.set(false);
                    playhead.set(v / 1000.0 * end_ms);
                }
            })
        };
        let onspeed = {
            let speed = speed.clone();
            let hurry = hurry.clone();
            Callback::from(move |e: Event| {
                let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
                if let Some(v) = crate::float::parse_f64(&s.value()) {
                    hurry.set(false);
                    speed.set(v);
                    browser::session_set(SPEED_KEY, &v.to_string());
                }
            })
        };
        // The time the label shows, which the slider says too (its 0–1000 means nothing).
        // The axis ends with its last bucket, a little after the last event: at the end the
        // label says the last event's time, as the caption over the cards does (0 – 48.2 s,
        // not t = 48.4 s).
        let last_event =
            [a.as_ref(), b.as_ref()].into_iter().flatten().map(|r| r.0.summary.end_ms).fold(0.0, f64::max);
        let shown = if last_event > 0.0 { at.min(last_event) } else { at };
        let at_text = lang.f(T::PlayheadAt, &[("t", &format!("{} s", format_number(shown / 1000.0, 2)))]);
        let speed_help = lang.f(T::SpeedHelp, &[("s", &format_number(PLAY_MS_AT_1X / 1000.0, 2))]);
        html! { <>
            <div class="playbar" role="group" aria-label={t(T::Scrub)}>
                <button type="button" id="play" onclick={onplay} disabled={*reduced} data-playing={if *playing { "true" } else { "false" }}>
                    { if *playing { t(T::Pause) } else { t(T::Play) } }
                </button>
                <button type="button" id="step" class="secondary small" title={t(T::StepHelp)} onclick={onstep}>{ t(T::Step) }</button>
                <label for="speed" title={speed_help.clone()}>{ t(T::Speed) }</label>
                <select id="speed" title={speed_help.clone()} aria-describedby="scrub-help" onchange={onspeed}>
                    // Each speed says how long the whole run plays: "1×" alone reads as real time.
                    { for SPEEDS.iter().map(|s| html! { <option value={s.to_string()} selected={*s == *speed}>{
                        lang.f(T::SpeedOption, &[("x", &format_number(*s, 2)), ("s", &format_number(PLAY_MS_AT_1X / 1000.0 / s, 2))])
                    }</option> }) }
                </select>
                <input id="scrub" type="range" min="0" max="1000" step="1" value={format!("{:.0}", at / end_ms * 1000.0)}
                    aria-label={t(T::Scrub)} aria-valuetext={at_text.clone()} title={t(T::ScrubHelp)} aria-describedby="scrub-help" oninput={onscrub} />
                <span class="time" id="playhead-label">{ at_text }</span>
                // On screen, not only as tooltips: a touch screen shows none.
                <p class="help" id="scrub-help">{ lang.f(T::Sentences, &[("a", t(T::ScrubHelp)), ("b", &speed_help)]) }</p>
            </div>
            // A link's refused moment or hop (`t=`, `focus=`): they name no control of the panel.
            { for [MOMENT, FOCUS].iter().filter_map(|k| Some((k, props.state.errors.get(k)?))).map(|(k, (_, e))| html! {
                <p class="field-error" role="alert" id={format!("{}-error", k.key)}>{ lang.field_error(e) }</p>
            }) }
        </> }
    };
    let status = if runs.progress < 1.0 {
        // Floating, and shown only once a run has taken a moment: in the flow it pushed every
        // figure down and back up on each slider move (a visible jump, and the whole column
        // laid out and painted twice), and a run done in 20 ms made it flash.
        html! { <div class="progress floating"><progress max="1" value={runs.progress.to_string()} />{ lang.f(T::Running, &[("percent", &format!("{:.0}", runs.progress * 100.0))]) }</div> }
    } else if let Some(e) = &error {
        html! { <div class="warning" role="alert" id="run-error">{ lang.f(T::RunFailed, &[("message", &run_error_text(lang, e, matches!(shown.a.load, crate::scenario::Load::Batch { .. })))]) }</div> }
    } else if let Some(stop) = a.as_ref().and_then(|r| r.0.summary.stopped) {
        let (key, at_ms, limit) = match stop {
            Stopped::CallsAlive { at_ms, limit } => (T::RunStoppedCalls, at_ms, limit),
            Stopped::Work { at_ms, limit } => (T::RunStoppedWork, at_ms, limit),
        };
        let text = lang
            .f(key, &[("t", &format_number(at_ms / 1000.0, 2)), ("limit", &format_number(limit as f64, 0))]);
        html! { <div class="warning" role="alert" id="run-stopped">{ text }</div> }
    } else {
        Html::default()
    };
    // What a screen reader hears: one sentence when a run finishes, naming only the figures
    // that run changed, not every figure on every frame.
    let announce = use_announcement(
        lang,
        runs.finished,
        a.as_ref().map(|r| {
            // Every headline card as it writes itself; three lead the first sentence. In
            // compare mode side B's follow, its leads read when it appears (turning compare
            // on changes no figure of A's: "no figure changed" had been all it said).
            let said = |r: &ReportRef| {
                crate::plot::storm::headlines(&r.0, slo).into_iter().map(|h| {
                    let value = figures::show(lang, h.value, h.unit);
                    match h.id {
                        "amplification" | "core_success_rate" | "failed" => Said::new(h.label, value),
                        _ => Said::when_changed(h.label, value),
                    }
                })
            };
            said(r).chain(b.iter().flat_map(|rb| said(rb).map(Said::on_b))).collect()
        }),
    );
    // A run stopped early is said by its alert; "Run finished" would contradict it.
    let announce =
        if a.as_ref().is_some_and(|r| r.0.summary.stopped.is_some()) { String::new() } else { announce };
    let overlay = props.state.overlay && b.is_some();
    // Side B's scenario and heading follow the state of the run on screen, not the playhead:
    // built once per run (in compare mode only), not on every frame of the playback.
    // Side A's heading likewise (it compares A with its preset).
    let side_b = use_memo(shown.clone(), |st| {
        st.compare.then(|| (st.side_b(), st.side_b_heading(), st.side_a_heading()))
    });
    let side_a_title = side_b
        .as_ref()
        .as_ref()
        .map_or_else(String::new, |(_, _, (key, title))| lang.f(*key, &[("title", t(*title))]));
    let side_b_title = side_b
        .as_ref()
        .as_ref()
        .map_or_else(String::new, |(_, (key, title), _)| lang.f(*key, &[("title", t(*title))]));
    // The short form for the overlay's legend, where the long one would repeat on every line.
    let side_b_name = side_b.as_ref().as_ref().map_or_else(String::new, |(_, (key, title), _)| match key {
        T::SideBPinned | T::SideBPinnedSame => t(T::SideBPinnedShort).to_string(),
        _ => lang.f(T::SideBNamed, &[("title", t(*title))]),
    });
    // Side A's likewise: named by its preset until a setting changes.
    let side_a_name = side_b.as_ref().as_ref().map_or_else(String::new, |(_, _, (key, title))| match key {
        T::SideANamed => lang.f(T::SideANamed, &[("title", t(*title))]),
        _ => t(T::SideA).to_string(),
    });
    let scenario_b = || side_b.as_ref().as_ref().map_or_else(|| shown.side_b(), |(s, _, _)| s.clone());
    let view_switch = b.is_some().then(|| {
        let pick = |on: bool| {
            let d = props.dispatch.clone();
            Callback::from(move |_: MouseEvent| d.emit(StormAction::Overlay(on)))
        };
        html! {
            <div class="view-switch" role="group" aria-label={t(T::ViewLabel)} title={t(T::ViewHelp)}>
                <button type="button" id="view-sides" class="secondary small" aria-pressed={(!overlay).to_string()} onclick={pick(false)}>{ t(T::ViewSideBySide) }</button>
                <button type="button" id="view-overlay" class="secondary small" aria-pressed={overlay.to_string()} onclick={pick(true)}>{ t(T::ViewOverlay) }</button>
            </div>
        }
    });
    let views = match (&a, &*data_a) {
        (Some(a), Some(da)) => {
            let onfocus = {
                let (lesson_focus, in_lesson, d) =
                    (lesson_focus.clone(), props.in_lesson, props.dispatch.clone());
                Callback::from(move |h: usize| {
                    let to = if focus == Some(h) { None } else { Some(h) };
                    if in_lesson { lesson_focus.set(to) } else { d.emit(StormAction::Focus(to)) }
                })
            };
            let side_a = html! { <RunView {lang} report={a.clone()} scenario={shown.a.clone()} data={da.clone()} {axes} {held} at_ms={at} side="a"
            focus={focus} onfocus={onfocus.clone()} /> };
            let side_b = b.as_ref().zip(data_b.as_ref().as_ref()).map(|(b, db)| {
                html! { <RunView {lang} report={b.clone()} scenario={scenario_b()} data={db.clone()} {axes} at_ms={at} side="b"
                    focus={focus} onfocus={onfocus.clone()} /> }
            });
            let f = formulas(&shown.a, &a.0);
            let tree_error = props.state.errors.get(&REQUEST).map(|(_, e)| lang.field_error(e));
            // Side by side, both histograms on one scale: 7,249 failed beside 3,467 drew
            // as bars of one height.
            let latency_shared = b.as_ref().map(|b| latency_top(&b.0.latency).max(latency_top(&a.0.latency)));
            let lower = |r: &ReportRef, side: &'static str, scenario: crate::scenario::Scenario| {
                let sfx = if side == "a" { "" } else { "-b" };
                html! {
                    <div class="side" id={format!("lower-{side}")}>
                        if b.is_some() { <h2 id={format!("lower-title-{side}")}>{ if side == "a" { side_a_title.clone() } else { side_b_title.clone() } }</h2> }
                        <div class="panel">
                            <Timeline {lang} report={r.clone()} index={*trace_idx} onselect={trace_cb.clone()} id_suffix={sfx}
                                ontree={Some(onpick_bar.clone())} />
                        </div>
                        <div class="panel">
                            <AttemptTreeView {lang} report={r.clone()} request={tree_request} sampled={*trace_idx}
                                error={tree_error.clone()} onpick={onpick.clone()} side_b={side == "b"} span_ms={tree_span} />
                        </div>
                        <div class="panel">
                            <LatencyChart {lang} dists={r.0.latency.clone()} id_suffix={sfx} onpick={Some(onpick_bar.clone())} y_max={latency_shared} />
                            <p class="help" id="latency-pick-hint">{ t(if browser::touch_first() { T::LatencyPickHintTouch } else { T::LatencyPickHint }) }</p>
                        </div>
                        <div class="panel"><Breakdown {lang} report={r.clone()} {side} /></div>
                        <RetryTiming {lang} report={r.clone()} {scenario} {side} />
                    </div>
                }
            };
            html! {
                <>
                    <HeadlineTable {lang} a={a.clone()} b={b.clone()} {slo} a_title={side_a_title.clone()} b_title={side_b_title.clone()}
                        baseline={if shown.pin.is_some() { Baseline::B } else { Baseline::A }} />
                    { play_bar }
                    if *reduced {
                        <p class="note">{ t(T::ReducedMotion) }</p>
                    }
                    { for view_switch }
                    if let (true, Some(bb)) = (overlay, b.as_ref()) {
                        <Overlay {lang} a={a.clone()} b={bb.clone()} at_ms={at} {end_ms} a_name={side_a_name.clone()} b_name={side_b_name.clone()} />
                    } else {
                        if let Some(bb) = b.as_ref() {
                            // Both chains together, one above the other (side by side on a
                            // screen wide enough for two), each at a width its text can be read at.
                            <div class="compare-diagrams">
                                <div class="panel">
                                    <h2 id="diagram-side-a">{ side_a_title.clone() }</h2>
                                    <Diagram {lang} report={a.clone()} scenario={shown.a.clone()} at_ms={at} side="a"
                                        focus={focus} onfocus={onfocus.clone()} scrolls=true />
                                </div>
                                <div class="panel">
                                    <h2 id="diagram-side-b">{ side_b_title.clone() }</h2>
                                    <Diagram {lang} report={bb.clone()} scenario={scenario_b()} at_ms={at} side="b"
                                        focus={focus} onfocus={onfocus.clone()} scrolls=true />
                                </div>
                            </div>
                        }
                        <div class={classes!("sides", b.is_some().then_some("compare"))}>
                            <div class="side">
                                if b.is_some() { <h2>{ side_a_title.clone() }</h2> }
                                { side_a }
                            </div>
                            if let Some(v) = side_b {
                                <div class="side"><h2 id="side-b-title">{ side_b_title.clone() }</h2>{ v }</div>
                            }
                        </div>
                    }
                    <div class={classes!("sides", b.is_some().then_some("compare"))}>
                        { lower(a, "a", shown.a.clone()) }
                        if let Some(bb) = b.as_ref() { { lower(bb, "b", scenario_b()) } }
                    </div>
                    <div class="panel"><FormulaPanel {lang} {f} compare={b.is_some()} /></div>
                </>
            }
        }
        _ => Html::default(),
    };
    // A lesson step's moment, shaded on every time chart (see `charts::StepMoment`).
    let moment = StepMoment(
        props.cue.map(|c| (c.from_ms, c.pause_ms)),
        props.cue.filter(|c| c.veil_from_start).map(|c| c.from_ms),
    );
    html! {
        <ContextProvider<StepMoment> context={moment}>
        <section class="page storm" id="storm" aria-labelledby="page-title"
            data-playhead={format!("{:.3}", at)} data-end={format!("{:.3}", end_ms)}>
            <h1 id="page-title">{ t(T::StormTitle) }</h1>
            <p class="intro">{ t(T::StormIntro) }</p>
            { crate::ui::lab::to_settings_link(lang, T::ToSettings) }
            <ExportMenu {lang} page="storm" preset={props.state.preset} seed={Some(props.state.seed)} data={export_data}
                data_b={props.state.compare.then_some(export_b)}
                {preset_b} />
            // The figures come first (in reading and tab order, and on a phone's screen); on a
            // wide screen the grid puts the controls in the left column. On a narrow screen
            // the controls start folded.
            <div class="storm-layout">
                <div class="storm-main" id="storm-figures">
                    <p class="sr-only" aria-live="polite" id="run-announce">{ announce.clone() }</p>
                    { status }
                    { views }
                    <p class="note assumptions">{ t(T::Assumptions) }</p>
                </div>
                <details class="controls-wrap" open={*wide}>
                    <summary id="controls-toggle">{ t(T::ControlsToggle) }</summary>
                    <ControlPanel {lang} state={props.state.clone()} {dispatch} {oncopy} copied={*copied} />
                    { crate::ui::lab::said_bar(lang, &announce, "storm-figures") }
                </details>
            </div>
        </section>
        </ContextProvider<StepMoment>>
    }
}

/// A side's report as the Export menu hands it over: JSON or its time series as CSV.
fn report_text(
    kind: DataKind,
    r: Option<&ReportRef>,
    query: &str,
    side: crate::state::runs::Side,
    slo: crate::model::slo::Slo,
) -> Option<String> {
    r.map(|r| match kind {
        DataKind::Json => {
            crate::export::report_json(&r.0, crate::state::runs::report_link(query, side).as_ref(), slo)
        }
        DataKind::Csv => crate::export::series_csv(&r.0),
    })
}
