//! The breaker lab: settings and the dependency's phases on the left; on the right the
//! playback bar, then what `plot::breaker::outputs` draws at the playhead (counts, state
//! band, calls as cells, the window, the transitions, the settings in real libraries).
//! The run is `model::breaker_lab::run` of the state's input; the view computes nothing.

use super::browser;
use super::controls::{ChoiceControl, ChoiceSpec, ControlSpec, NumberControl};
use super::export::{DataKind, ExportMenu};
use super::lab::LabSettings;
use crate::export::{Provenance, breaker_csv, breaker_json};
use crate::i18n::{Lang, T, format_number};
use crate::knob::{Choice, Knob};
use crate::model::breaker_lab::{LabInput, run};
use crate::plot::breaker::{BAND_MIN_W, BAND_SCROLL_W, mapping, outputs};
use crate::state::FieldKey;
use crate::state::breaker::{self as st, BreakerAction, BreakerState};
use gloo_render::{AnimationFrame, request_animation_frame};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Playback shows every call of a run in this many real milliseconds (the storm page's 1×).
const PLAY_MS: f64 = 10_000.0;

#[derive(Properties, PartialEq)]
pub struct BreakerProps {
    pub lang: Lang,
    pub state: BreakerState,
    pub dispatch: Callback<BreakerAction>,
    /// In a lesson the step's state is the step's: the playhead stays out of the link.
    #[prop_or_default]
    pub in_lesson: bool,
}

fn number(p: &BreakerProps, knob: &'static Knob<LabInput>, key: FieldKey) -> Html {
    let label = p.lang.t(knob.label).to_string();
    let i = key.index.unwrap_or(0);
    let spec = ControlSpec::from_knob(
        p.lang,
        knob,
        i,
        &p.state.input,
        p.state.errors.get(&key),
        key.dom_id(),
        label,
    );
    let (d1, d2, id) = (p.dispatch.clone(), p.dispatch.clone(), spec.id.clone());
    html! {
        <NumberControl key={id} {spec}
            ontype={Callback::from(move |raw: String| d1.emit(BreakerAction::Type(key, raw)))}
            onslide={Callback::from(move |stop: usize| d2.emit(BreakerAction::Slide(key, stop)))} />
    }
}

fn choice(
    p: &BreakerProps,
    key: &'static str,
    label: T,
    help: T,
    value: &str,
    options: Vec<(String, String)>,
) -> Html {
    let f = FieldKey::plain(key);
    let spec = ChoiceSpec {
        id: f.dom_id(),
        label: p.lang.t(label).into(),
        help: p.lang.t(help).into(),
        value: value.into(),
        options,
        error: p.state.errors.get(&f).map(|(_, e)| p.lang.field_error(e)),
    };
    let d = p.dispatch.clone();
    html! { <ChoiceControl {spec} onchoose={Callback::from(move |v: String| d.emit(BreakerAction::Choose(key, v)))} /> }
}

/// The control a guided lesson's step offers for URL key `key` (a scalar knob or the window
/// kind).
pub fn step_knob(
    lang: Lang,
    state: &BreakerState,
    dispatch: &Callback<BreakerAction>,
    key: &str,
) -> Option<Html> {
    let p = BreakerProps { lang, state: state.clone(), dispatch: dispatch.clone(), in_lesson: true };
    if key == st::WINDOW_KIND.key {
        return Some(of_choice(&p, &st::WINDOW_KIND));
    }
    let k = state.knob(key).filter(|k| st::PHASE_KNOBS.iter().all(|ph| ph.key != k.key))?;
    Some(number(&p, k, FieldKey::plain(k.key)))
}

fn of_choice(p: &BreakerProps, c: &'static Choice<LabInput>) -> Html {
    let options = c.options.iter().map(|(v, t)| (v.to_string(), p.lang.t(*t).to_string())).collect();
    choice(p, c.key, c.label, c.help, (c.get)(&p.state.input, 0).unwrap_or_default(), options)
}

/// The left panel: preset, breaker, load, phases.
fn inputs(p: &BreakerProps) -> Html {
    let (lang, s) = (p.lang, &p.state);
    let t = |k: T| lang.t(k);
    let plain = |k: &'static Knob<LabInput>| number(p, k, FieldKey::plain(k.key));
    let mut presets: Vec<_> =
        st::PRESETS.iter().map(|(v, title, _)| (v.to_string(), t(*title).to_string())).collect();
    let preset_story = st::PRESETS.iter().find(|x| x.0 == s.preset).map_or("", |x| t(x.2));
    let story = super::lab::Story {
        changed: s.departs_from_preset(),
        from: s.from.as_ref().map(|o| (o, T::BlFromStorm)),
    };
    // A link from the retry-storm page: its call's settings, not a preset, are selected.
    let current = match &s.from {
        Some(o) => {
            presets.insert(0, super::lab::origin_option(lang, o));
            ""
        }
        None => s.preset,
    };
    let mut start = 0.0;
    let mut phases = Vec::new();
    for (i, ph) in s.input.phases.iter().enumerate() {
        let end = start + ph.duration_ms;
        let n = (i + 1).to_string();
        let head = format!(
            "{} · {}–{} s",
            lang.f(T::BlPhase, &[("n", &n)]),
            format_number(start / 1e3, 3),
            format_number(end / 1e3, 3)
        );
        start = end;
        let ctls = st::PHASE_KNOBS.iter().map(|k| number(p, k, FieldKey::at(k.key, i)));
        phases.push(html! { <fieldset class="group"><legend>{ head }</legend>{ for ctls }</fieldset> });
    }
    let mut errors: Vec<String> = st::PHASE_KNOBS
        .iter()
        .filter_map(|k| s.errors.get(&FieldKey::plain(k.key)))
        .map(|(_, e)| lang.field_error(e))
        .collect();
    if !s.unknown.is_empty() {
        errors.push(lang.f(T::UnknownParam, &[("keys", &lang.list(&s.unknown, 8))]));
    }
    html! {
        <form class="panel inputs" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            { choice(p, "preset", T::Preset, T::PresetHelp, current, presets) }
            { super::lab::story_view(lang, preset_story, story, &s.errors) }
            <button type="button" class="secondary small" id="bl-reset" title={t(T::ResetPresetHelp)}
                onclick={p.dispatch.reform(|_: MouseEvent| BreakerAction::Reset)}>{ t(T::ResetPreset) }</button>
            if !errors.is_empty() {
                <div class="field-error" role="alert" id="unknown-params">{ for errors.iter().map(|e| html! { <p>{ e }</p> }) }</div>
            }
            <fieldset class="group"><legend>{ t(T::GroupBreaker) }</legend>
                { of_choice(p, &st::WINDOW_KIND) }
                { plain(st::window_knob(s.input.breaker.window_kind)) }
                { for [&st::MIN_CALLS, &st::FAILURE_PCT, &st::SLOW_MS, &st::SLOW_PCT, &st::OPEN_MS, &st::PROBES].map(plain) }
                { of_choice(p, &st::HALF_OPEN) }
            </fieldset>
            <fieldset class="group"><legend>{ t(T::GroupLoad) }</legend>
                { plain(&st::RATE) }
                { of_choice(p, &st::ARRIVALS) }
                { plain(&st::SEED) }
            </fieldset>
            <fieldset class="group"><legend>{ t(T::BlDependency) }</legend>
                { plain(&st::PHASES) }
                { for phases }
            </fieldset>
        </form>
    }
}

/// The breaker lab page.
#[component]
pub fn BreakerPage(p: &BreakerProps) -> Html {
    let lang = p.lang;
    let t = |k: T| lang.t(k);
    let result = use_memo(p.state.input.clone(), |i| run(i).map(Rc::new));
    // The settings table does not move with the playhead: built once per input.
    let table = {
        let st = p.state.clone();
        use_memo((lang, p.state.input.clone()), move |(lang, _)| {
            AttrValue::from(mapping(*lang, &st.settings(*lang)))
        })
    };
    let reduced = *use_memo((), |_| browser::prefers_reduced_motion());
    let n = result.as_ref().as_ref().map_or(0, |r| r.calls.len());
    // The playhead: a call index (n = the end of the run), fractional while playing.
    // A link paused partway (`at=`) opens there.
    let pos = use_state(|| p.state.at.map_or(n, |k| k.min(n)) as f64);
    let playing = use_state(|| false);
    let frame: Rc<RefCell<Option<AnimationFrame>>> = use_mut_ref(|| None);
    // The state band is drawn as wide as its box, so that its text keeps its size and a
    // phone shows the whole run (narrower than `BAND_MIN_W`: in a sideways scroll).
    let band_box = use_node_ref();
    let band_w = super::charts::use_chart_width_from(&band_box, BAND_MIN_W, super::charts::W, BAND_SCROLL_W);
    {
        // A new run (a new address) opens at its end, paused; the first is where the link
        // says.
        let (pos, playing) = (pos.clone(), playing.clone());
        let first = use_mut_ref(|| true);
        use_effect_with(Rc::as_ptr(&result) as usize, move |_| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                pos.set(n as f64);
                playing.set(false);
            }
        });
    }
    // Where the learner paused goes into the link (`at=`), so that a reload opens there.
    let want = (!*playing && (*pos as usize) < n).then_some(*pos as usize);
    super::links::use_view_in_link(want, p.state.at, !p.in_lesson, p.dispatch.reform(BreakerAction::At));
    // Export's data, made once per run (playback re-renders the page every frame).
    let export_data = {
        let result = result.clone();
        use_callback(Rc::as_ptr(&result) as usize, move |(kind, prov): (DataKind, Rc<Provenance>), _| {
            let r = result.as_ref().as_ref().ok()?;
            Some(match kind {
                DataKind::Json => breaker_json(&prov, r),
                DataKind::Csv => breaker_csv(r),
            })
        })
    };
    // The time of the last frame drawn while playing: each frame advances by the real time
    // since the one before, rendering included, so playback keeps time however slow a
    // frame is (up to 250 ms a frame; the first counts as one frame at 60 Hz).
    let last: Rc<Cell<Option<f64>>> = use_memo((), |_| Cell::new(None));
    {
        let (pos, playing, frame) = (pos.clone(), playing.clone(), frame.clone());
        use_effect_with((*playing, *pos), move |(on, at)| {
            let at = *at;
            if !on {
                last.set(None);
            }
            // The handle cancels the frame when it is replaced or dropped.
            *frame.borrow_mut() = on.then(|| {
                request_animation_frame(move |now| {
                    // At least 1 ms: a frame that did not move the playhead would not re-run
                    // this effect (its inputs unchanged), and playback would stop.
                    let dt = last.get().map_or(16.0, |l| (now - l).clamp(1.0, 250.0));
                    last.set(Some(now));
                    let next = at + dt * (n.max(1) as f64) / PLAY_MS;
                    if next >= n as f64 {
                        playing.set(false);
                    }
                    pos.set(next.min(n as f64));
                })
            });
        });
    }
    let r = match result.as_ref() {
        Ok(r) => r.clone(),
        Err(e) => return html! { <p class="warning" role="alert">{ lang.field_error(e) }</p> },
    };
    let k = (*pos as usize).min(n);
    let f = r.frame(k);
    let seek = {
        let (pos, playing) = (pos.clone(), playing.clone());
        move |to: f64| {
            playing.set(false);
            pos.set(to.clamp(0.0, n as f64));
        }
    };
    let onplay = {
        let (pos, playing) = (pos.clone(), playing.clone());
        Callback::from(move |_: MouseEvent| {
            if !*playing && *pos as usize >= n {
                pos.set(0.0);
            }
            playing.set(!*playing);
        })
    };
    let onstep = {
        let seek = seek.clone();
        Callback::from(move |_: MouseEvent| seek(k as f64 + 1.0))
    };
    let onscrub = Callback::from(move |e: InputEvent| {
        let i: HtmlInputElement = e.target_unchecked_into();
        seek(crate::float::parse_f64(&i.value()).unwrap_or(0.0))
    });
    let num = |x: usize| format_number(x as f64, 0);
    let call_of = if k < n {
        lang.f(T::BlCallOf, &[("k", &num(k + 1)), ("n", &num(n))])
    } else {
        lang.f(T::BlCallsAll, &[("n", &num(n))])
    };
    let time = lang.f(T::PlayheadAt, &[("t", &format!("{} s", format_number(f.at_us as f64 / 1e6, 3)))]);
    // The label beside the slider, and what the slider says: the call and its time.
    let at_text = format!("{call_of} · {time}");
    // Its widest forms (in the mono type every digit is as wide), held beside it unseen, so
    // that the slider keeps its length while the digits change in play (its end twitched).
    let widest = {
        let t = format!("{}.000 s", format_number((r.end_us / 1_000_000) as f64, 0));
        let time = lang.f(T::PlayheadAt, &[("t", &t)]);
        [lang.f(T::BlCallOf, &[("k", &num(n)), ("n", &num(n))]), lang.f(T::BlCallsAll, &[("n", &num(n))])]
            .map(|c| format!("{c} · {time}"))
    };
    let body = outputs(lang, &p.state.input, &r, k, band_w.w, !band_w.fits);
    let announce = if *playing {
        String::new()
    } else {
        lang.f(T::BlAnnounce, &[("at", &at_text), ("state", t(crate::plot::breaker::state_word(f.state)))])
    };
    // What the last change did, for the settings' bar (see `LabSettings`).
    let said_now = AttrValue::from(announce.clone());
    html! {
        <section class="page breaker" id="breaker" aria-labelledby="page-title" data-pos={k.to_string()} data-n={n.to_string()}
            data-state={["Closed", "HalfOpen", "Open"][f.state.level() as usize]}>
            <h1 id="page-title">{ t(T::BlTitle) }</h1>
            // The way to the settings ends the intro: a line of its own pushed the first
            // figure off a phone's first screen.
            <p class="intro">{ t(T::BlIntro) }{ " " }{ super::lab::to_settings_link(lang, T::ToLabSettings) }</p>
            <ExportMenu {lang} page="breaker" preset={p.state.preset} seed={Some(p.state.input.seed)} data={export_data} />
            <div class="two-col">
                // The figures first (reading and tab order, a phone's first screen); the settings
                // after them, in the left column on a wide screen and folded on a narrow one.
                <div class="outputs" id={super::lab::LAB_FIGURES}>
                    { super::lab::stale_note(lang, "bl", &p.state.errors) }
                    <div class="playbar" role="group" aria-label={t(T::Scrub)}>
                        <button type="button" id="play" onclick={onplay} disabled={reduced} data-playing={if *playing { "true" } else { "false" }}>
                            { if *playing { t(T::Pause) } else { t(T::Play) } }
                        </button>
                        <button type="button" id="step" class="secondary small" title={t(T::BlStepHelp)} onclick={onstep}>{ t(T::Step) }</button>
                        <input id="scrub" type="range" min="0" max={n.to_string()} step="1" value={k.to_string()}
                            aria-label={t(T::Scrub)} aria-valuetext={at_text.clone()} title={t(T::ScrubHelp)} aria-describedby="scrub-help" oninput={onscrub} />
                        <span class="time-fit">
                            <span class="time" id="playhead-label">{ at_text }</span>
                            { for widest.into_iter().map(|w| html! { <span class="time" aria-hidden="true">{ w }</span> }) }
                        </span>
                        // On screen, not only as a tooltip: a touch screen shows none.
                        <p class="help" id="scrub-help">{ t(T::ScrubHelp) }</p>
                    </div>
                    // A link's refused playhead (`at=`): it names no control of the panel.
                    if let Some((_, e)) = p.state.errors.get(&FieldKey::plain("at")) {
                        <p class="field-error" role="alert" id="at-error">{ lang.field_error(e) }</p>
                    }
                    // What a screen reader hears after a step, a scrub or a pause: the call and
                    // the breaker's state then (nothing while playing, which would be a call a
                    // frame).
                    <p class="sr-only" aria-live="polite" id="breaker-announce">{ announce }</p>
                    if reduced { <p class="note">{ t(T::ReducedMotion) }</p> }
                    { Html::from_html_unchecked(body.figures.into()) }
                    <div class="panel">
                        <h2>{ body.band_title }</h2>
                        <div class="band-scroll" id="breaker-band" ref={band_box}>
                            { Html::from_html_unchecked(body.band.into()) }
                        </div>
                        { Html::from_html_unchecked(body.calls.into()) }
                    </div>
                    { Html::from_html_unchecked(body.rest.into()) }
                    { Html::from_html_unchecked((*table).clone()) }
                </div>
                <LabSettings {lang} said={said_now}>
                    { inputs(p) }
                </LabSettings>
            </div>
        </section>
    }
}
