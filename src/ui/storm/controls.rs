//! The retry-storm page's control panel: preset, seed, compare, share, then every knob of
//! the chain grouped by hop and by mechanism.

use crate::i18n::{Lang, T, format_number};
use crate::scenario::validate::{MAX_LAYERS, MAX_SIDE_DEPS};
use crate::scenario::{FaultEffect, Scenario, presets};
use crate::state::storm::lesson::{LessonControl, lesson_controls};
use crate::state::storm::{
    self, CHOICES, ChoiceDef, Group, MOST_FAULT_WINDOWS, NUMBERS, NumberDef, StormAction, StormKey,
    StormState, Target,
};
use crate::ui::controls::{ChoiceControl, ChoiceSpec, ControlSpec, NumberControl};
use std::cell::RefCell;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// A control's callbacks.
#[derive(Clone)]
struct Bound {
    ontype: Callback<String>,
    onslide: Callback<usize>,
    onchoose: Callback<String>,
}

/// The dispatches whose controls' callbacks are kept (the panel's and a lesson card's).
const KEPT_DISPATCHES: usize = 2;

/// Controls' callbacks by the dispatch they send to, then by control (a sorted list: a
/// `HashMap` of its own would cost the bundle its hashing and growth code).
type BoundByDispatch = Vec<(Callback<StormAction>, Vec<(StormKey, Bound)>)>;

thread_local! {
    /// Each control's callbacks, made once per control and dispatch and then reused. A
    /// control is drawn again only when its props change, and callbacks compare by
    /// identity: fresh ones on every render would redraw all ~60 controls of the panel on
    /// every slider move, instead of the one moved and those whose figures changed.
    static BOUND: RefCell<BoundByDispatch> = const { RefCell::new(Vec::new()) };
}

/// The callbacks of the control `key` that send its actions to `dispatch`.
fn bound(dispatch: &Callback<StormAction>, key: StormKey) -> Bound {
    BOUND.with(|kept| {
        let mut kept = kept.borrow_mut();
        let i = match kept.iter().position(|(d, _)| d == dispatch) {
            Some(i) => i,
            None => {
                if kept.len() == KEPT_DISPATCHES {
                    kept.remove(0);
                }
                kept.push((dispatch.clone(), Vec::new()));
                kept.len() - 1
            }
        };
        // Kept sorted: the largest panel (8 layers, 24 side dependencies) has ~1,150 controls.
        let controls = &mut kept[i].1;
        let at = match controls.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(at) => return controls[at].1.clone(),
            Err(at) => at,
        };
        let d = dispatch.clone();
        let b = Bound {
            ontype: d.reform(move |raw: String| StormAction::Type(key, raw)),
            onslide: d.reform(move |stop: usize| StormAction::Slide(key, stop)),
            onchoose: d.reform(move |v: String| StormAction::Choose(key, v)),
        };
        controls.insert(at, (key, b.clone()));
        b
    })
}

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub lang: Lang,
    pub state: StormState,
    pub dispatch: Callback<StormAction>,
    /// Copies the page's link; the panel shows a confirmation.
    pub oncopy: Callback<()>,
    pub copied: bool,
}

const GROUP_ORDER: [Group; 12] = [
    Group::Load,
    Group::Slo,
    Group::Admission,
    Group::Workers,
    Group::Deadline,
    Group::Retry,
    Group::Budget,
    Group::Breaker,
    Group::Bulkhead,
    Group::Fallback,
    Group::Service,
    Group::Faults,
];

/// `t-run`, `t-l1`, `t-leaf`, `t-s1`, `t-f1`.
fn target_id(t: Target) -> String {
    match t {
        Target::Run => "t-run".to_string(),
        _ => format!("t-{}", t.prefix().trim_end_matches('.')),
    }
}

/// A − n + stepper for a count the page can change (layers, side dependencies, windows).
#[allow(clippy::too_many_arguments)]
fn stepper(
    lang: Lang,
    id: &str,
    label: T,
    help: T,
    value: usize,
    min: usize,
    max: usize,
    on: Callback<usize>,
) -> Html {
    let (less, more) = (on.clone(), on);
    let name = lang.t(label).to_string();
    // A button that turns disabled (the count at its bound) drops the focus: its partner
    // takes it. The ids are read off the button pressed, as the page has them (a lesson
    // card's copy has its ids prefixed, `ui::lesson`), and its partner's by its suffix.
    let keep_focus = |e: &MouseEvent, own: &str, partner: &str| {
        let pressed = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .map(|el| el.id());
        let pressed = pressed.filter(|p| p.ends_with(own)).unwrap_or_else(|| own.to_string());
        let other = format!("{}{partner}", &pressed[..pressed.len() - own.len()]);
        crate::ui::browser::focus_after_render([pressed, other]);
    };
    let (minus, plus) = (format!("{id}-minus"), format!("{id}-plus"));
    let (minus2, plus2) = (minus.clone(), plus.clone());
    html! {
        <div class="control stepper" id={id.to_string()}>
            <div class="control-head">
                <span class="stepper-label" id={format!("{id}-label")} title={lang.t(help)}>{ &name }</span>
                <span class="control-value" role="group" aria-labelledby={format!("{id}-label")}>
                    <button type="button" class="secondary small" id={format!("{id}-minus")} disabled={value <= min}
                        aria-label={lang.f(T::StepperLess, &[("what", &name)])}
                        onclick={Callback::from(move |e: MouseEvent| {
                            less.emit(value.saturating_sub(1));
                            keep_focus(&e, &minus, &plus);
                        })}>{ "−" }</button>
                    <output id={format!("{id}-value")} aria-live="off">{ value }</output>
                    <button type="button" class="secondary small" id={format!("{id}-plus")} disabled={value >= max}
                        aria-label={lang.f(T::StepperMore, &[("what", &name)])}
                        onclick={Callback::from(move |e: MouseEvent| {
                            more.emit(value + 1);
                            keep_focus(&e, &plus2, &minus2);
                        })}>{ "+" }</button>
                </span>
            </div>
            <p class="help">{ lang.t(help) }</p>
        </div>
    }
}

/// A refused layer, fault window or side-dependency count, named by the stepper's label
/// with its link key beside it (as the knobs' errors are).
fn shape_error(lang: Lang, e: &crate::error::FieldError) -> String {
    let label = match e.field.rsplit('.').next().unwrap_or(&e.field) {
        "layers" => Some(T::KLayers),
        "faults" => Some(T::KFaults),
        "sides" => Some(T::KSides),
        _ => None,
    };
    match label {
        Some(l) => {
            lang.named_error(e, &lang.f(T::LabelWithKey, &[("label", lang.t(l)), ("key", &e.field)]), "")
        }
        None => lang.field_error(e),
    }
}

/// The shape controls of a target: the number of layers and fault windows (the run), the
/// side dependencies of a layer, a fault window's target.
fn shape_controls(props: &PanelProps, t: Target) -> Html {
    let lang = props.lang;
    let st = &props.state;
    let d = props.dispatch.clone();
    match t {
        Target::Run => {
            let d2 = d.clone();
            html! {
                <fieldset class="group">
                    <legend>{ lang.t(T::GroupShape) }</legend>
                    { stepper(lang, "layers", T::KLayers, T::KLayersHelp, st.a.layers.len(), 1, MAX_LAYERS, Callback::from(move |n| d.emit(StormAction::Layers(n)))) }
                    { stepper(lang, "faults", T::KFaults, T::KFaultsHelp, st.a.faults.len(), 0, MOST_FAULT_WINDOWS, Callback::from(move |n| d2.emit(StormAction::Faults(n)))) }
                    if let Some((_, e)) = st.errors.get(&storm::LAYERS).or(st.errors.get(&storm::FAULTS)) {
                        <p class="field-error" role="alert" id="shape-error">{ shape_error(lang, e) }</p>
                    }
                </fieldset>
            }
        }
        Target::Layer(i) => {
            let n = st.a.layers.get(i).map_or(0, |l| l.side_deps.len());
            let id = format!("l{}-sides", i + 1);
            html! {
                <fieldset class="group">
                    <legend>{ lang.t(T::GroupShape) }</legend>
                    { stepper(lang, &id, T::KSides, T::KSidesHelp, n, 0, MAX_SIDE_DEPS, Callback::from(move |n| d.emit(StormAction::Sides(i, n)))) }
                    if let Some((_, e)) = st.errors.get(&storm::sides_key(i)) {
                        <p class="field-error" role="alert">{ shape_error(lang, e) }</p>
                    }
                </fieldset>
            }
        }
        Target::Fault(i)
            if !matches!(st.a.faults.get(i).map(|f| f.effect), Some(FaultEffect::Surge { .. }) | None) =>
        {
            let key = storm::fault_target_key(i);
            let current = st.a.faults[i].target.clone();
            let spec = ChoiceSpec {
                id: key.dom_id(),
                label: lang.t(T::KFaultTarget).to_string(),
                help: lang.t(T::KFaultTargetHelp).to_string(),
                value: current,
                options: storm::fault_targets(&st.a)
                    .into_iter()
                    .map(|n| {
                        let shown = lang.service(&n).into_owned();
                        (n, shown)
                    })
                    .collect(),
                error: st.errors.get(&key).map(|(_, e)| lang.field_error(e)),
            };
            html! { <ChoiceControl {spec} onchoose={Callback::from(move |v: String| d.emit(StormAction::FaultTarget(i, v)))} /> }
        }
        _ => Html::default(),
    }
}

/// A heading for each target.
fn target_title(lang: Lang, s: &Scenario, t: Target) -> String {
    match t {
        Target::Run => lang.t(T::TargetRun).to_string(),
        Target::Layer(i) => {
            lang.f(T::TargetLayer, &[("n", &(i + 1).to_string()), ("name", &lang.service(&s.layers[i].name))])
        }
        Target::Leaf => lang.f(T::TargetLeaf, &[("name", &lang.service(&s.leaf.name))]),
        Target::Side(i) => {
            let owner = storm::side_owner(s, i)
                .map(|o| lang.service(&s.layers[o].name).into_owned())
                .unwrap_or_default();
            let name = s
                .layers
                .iter()
                .flat_map(|l| l.side_deps.iter())
                .nth(i)
                .map(|d| lang.service(&d.target.name).into_owned());
            lang.f(T::TargetSide, &[("name", &name.unwrap_or_default()), ("owner", &owner)])
        }
        Target::Fault(i) => {
            let f = &s.faults[i];
            let what = match f.effect {
                FaultEffect::Latency { factor } => lang.f(
                    T::FaultLatency,
                    &[("target", &lang.service(&f.target)), ("factor", &format_number(factor, 2))],
                ),
                FaultEffect::ErrorRate { rate } => lang.f(
                    T::FaultErrors,
                    &[
                        ("target", &lang.service(&f.target)),
                        ("rate", &crate::i18n::format_small(rate * 100.0, 1, 2)),
                    ],
                ),
                FaultEffect::Down {} => lang.f(T::FaultDown, &[("target", &lang.service(&f.target))]),
                FaultEffect::Surge { factor } => {
                    lang.f(T::FaultSurge, &[("factor", &format_number(factor, 2))])
                }
            };
            lang.f(T::TargetFault, &[("n", &(i + 1).to_string()), ("what", &what)])
        }
    }
}

/// A select control on a target, labelled `label`.
fn choice_control(props: &PanelProps, d: &'static ChoiceDef, t: Target, label: String) -> Option<Html> {
    let lang = props.lang;
    let st = &props.state;
    let value = (d.choice.get)(&st.a, t)?;
    let key = StormKey::on(d.choice.key, t);
    let spec = ChoiceSpec {
        id: key.dom_id(),
        label,
        help: lang.t(d.choice.help).to_string(),
        value: value.to_string(),
        options: d.choice.options.iter().map(|(v, l)| (v.to_string(), lang.t(*l).to_string())).collect(),
        error: st.errors.get(&key).map(|(_, e)| lang.field_error(e)),
    };
    let id = spec.id.clone();
    let onchoose = bound(&props.dispatch, key).onchoose;
    Some(html! { <ChoiceControl key={id} {spec} {onchoose} /> })
}

/// A number control (slider and field) on a target, labelled `label`.
fn number_control(props: &PanelProps, d: &'static NumberDef, t: Target, label: String) -> Html {
    let lang = props.lang;
    let st = &props.state;
    let key = StormKey::on(d.knob.key, t);
    let spec = ControlSpec::from_knob(lang, &d.knob, t, &st.a, st.errors.get(&key), key.dom_id(), label);
    let id = spec.id.clone();
    let Bound { ontype, onslide, .. } = bound(&props.dispatch, key);
    html! { <NumberControl key={id} {spec} {ontype} {onslide} /> }
}

/// A target's short name for a lesson control's label ("" for the whole run).
fn target_short(lang: Lang, s: &Scenario, t: Target) -> String {
    match t {
        // Named by what it does and where: two windows of one preset ("fault 1", "fault 2")
        // had the same label and help.
        Target::Fault(i) => {
            let n = (i + 1).to_string();
            // The kind's label is the fault-kind control's own option.
            let kind = storm::choice("fault_kind").and_then(|d| {
                let slug = (d.choice.get)(s, t)?;
                d.choice.options.iter().find(|o| o.0 == slug).map(|o| lang.t(o.1))
            });
            match (s.faults.get(i), kind) {
                (Some(f), Some(kind)) => {
                    let what = match f.effect {
                        FaultEffect::Surge { .. } => kind.to_string(),
                        _ => lang.f(T::FaultKindAt, &[("kind", kind), ("target", &lang.service(&f.target))]),
                    };
                    lang.f(T::FaultShortNamed, &[("n", &n), ("what", &what)])
                }
                _ => lang.f(T::FaultShort, &[("n", &n)]),
            }
        }
        t => lang.service(&storm::target_name(s, t)).into_owned(),
    }
}

/// The lesson view: the preset's few knobs (and anything already changed), then a button
/// to every control.
fn lesson_view(props: &PanelProps, controls: &[LessonControl]) -> Html {
    let lang = props.lang;
    let items: Html = controls.iter().map(|&c| lesson_item(props, c)).collect();
    let d = props.dispatch.clone();
    html! {
        <fieldset class="group lesson-knobs" id="lesson-knobs">
            <legend>{ lang.t(T::LessonKnobs) }</legend>
            <p class="help">{ lang.t(T::LessonKnobsHelp) }</p>
            { items }
            <button type="button" id="all-knobs" class="secondary small" onclick={Callback::from(move |_: MouseEvent| {
                d.emit(StormAction::AllKnobs(true));
                // The button goes with the view it opens: its counterpart takes the focus.
                crate::ui::browser::focus_after_render(["lesson-only"]);
            })}>
                { lang.t(T::AllKnobs) }
            </button>
        </fieldset>
    }
}

/// The control a guided lesson's step offers for URL key `key` (`l1.attempts`, `layers`),
/// if the scenario has it.
pub fn step_knob(
    lang: Lang,
    state: &StormState,
    dispatch: &Callback<StormAction>,
    key: &str,
) -> Option<Html> {
    let c = crate::state::storm::lesson::resolve(state, key)?;
    let props = PanelProps {
        lang,
        state: state.clone(),
        dispatch: dispatch.clone(),
        oncopy: Callback::noop(),
        copied: false,
    };
    Some(lesson_item(&props, c))
}

/// One control of the lesson view, labelled with its target.
fn lesson_item(props: &PanelProps, c: LessonControl) -> Html {
    let lang = props.lang;
    let st = &props.state;
    let label = |t: Target, what: T| {
        let who = target_short(lang, &st.a, t);
        if who.is_empty() { lang.t(what).to_string() } else { format!("{who} · {}", lang.t(what)) }
    };
    match c {
        LessonControl::Layers => {
            let d = props.dispatch.clone();
            let on = Callback::from(move |n| d.emit(StormAction::Layers(n)));
            html! {
                <>
                    { stepper(lang, "layers", T::KLayers, T::KLayersHelp, st.a.layers.len(), 1, MAX_LAYERS, on) }
                    if let Some((_, e)) = st.errors.get(&storm::LAYERS) {
                        <p class="field-error" role="alert" id="shape-error">{ shape_error(lang, e) }</p>
                    }
                </>
            }
        }
        LessonControl::Number(d, t) => number_control(props, d, t, label(t, d.knob.label)),
        LessonControl::Choice(d, t) => {
            choice_control(props, d, t, label(t, d.choice.label)).unwrap_or_default()
        }
    }
}

fn target_controls(props: &PanelProps, t: Target) -> Html {
    let lang = props.lang;
    let st = &props.state;
    let groups: Html = GROUP_ORDER
        .iter()
        .map(|&g| {
            let choices: Vec<Html> = CHOICES
                .iter()
                .filter(|d| d.group == g && d.applies.to(t))
                .filter_map(|d| choice_control(props, d, t, lang.t(d.choice.label).to_string()))
                .collect();
            let numbers: Vec<Html> = NUMBERS
                .iter()
                .filter(|d| d.group == g && d.applies.to(t))
                .filter(|d| (d.knob.get)(&st.a, t).is_some())
                .map(|d| number_control(props, d, t, lang.t(d.knob.label).to_string()))
                .collect();
            if choices.is_empty() && numbers.is_empty() {
                return Html::default();
            }
            html! {
                <fieldset class="group">
                    <legend>{ lang.t(g.title()) }</legend>
                    { for choices }
                    { for numbers }
                </fieldset>
            }
        })
        .collect();
    html! {
        // Keyed by its target: a window or layer added or removed moves the others' elements
        // with them, so a focused button stays the button it was (it became another
        // section's "+" as the list shifted under it).
        <details key={target_id(t)} class="target" open={matches!(t, Target::Run | Target::Layer(_) | Target::Leaf)} id={target_id(t)}>
            <summary>{ target_title(lang, &st.a, t) }</summary>
            { shape_controls(props, t) }
            { groups }
        </details>
    }
}

/// The whole panel.
#[component]
pub fn ControlPanel(props: &PanelProps) -> Html {
    let lang = props.lang;
    let st = &props.state;
    let t = |k: T| lang.t(k);
    let preset = presets::find(st.preset);
    let onpreset = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            d.emit(StormAction::Preset(s.value()));
        })
    };
    let onseed = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            d.emit(StormAction::Seed(i.value()));
        })
    };
    let onnewseed = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            // A fresh seed from the browser's randomness; the run stays reproducible
            // because the seed goes into the link.
            let seed = (js_sys::Math::random() * 1e9).floor() as u64;
            d.emit(StormAction::NewSeed(seed));
        })
    };
    let oncompare = {
        let d = props.dispatch.clone();
        let on = st.compare;
        Callback::from(move |_: Event| d.emit(StormAction::Compare(!on)))
    };
    let onreset = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(StormAction::Reset))
    };
    // Pinning turns compare mode on: the focus stays on the button, now "Unpin B".
    let onpin = {
        let d = props.dispatch.clone();
        let pinned = st.pin.is_some();
        Callback::from(move |_: MouseEvent| {
            d.emit(if pinned { StormAction::Unpin } else { StormAction::Pin });
            crate::ui::browser::focus_after_render(["pin-b"]);
        })
    };
    let oncopy = {
        let c = props.oncopy.clone();
        Callback::from(move |_: MouseEvent| c.emit(()))
    };
    let seed_error = st.errors.get(&storm::SEED).map(|(_, e)| lang.field_error(e));
    let seed_text = st.errors.get(&storm::SEED).map_or_else(|| st.seed.to_string(), |(raw, _)| raw.clone());
    let preset_error = st.errors.get(&storm::PRESET).map(|(_, e)| lang.field_error(e));
    let compare_error = st.errors.get(&storm::COMPARE).map(|(_, e)| lang.field_error(e));
    let pin_error = st.errors.get(&storm::PIN).map(|(_, e)| lang.field_error(e));
    let lesson = if st.all_knobs { Vec::new() } else { lesson_controls(st) };
    let targets: Html = if lesson.is_empty() {
        storm::targets(&st.a).into_iter().map(|tg| target_controls(props, tg)).collect()
    } else {
        lesson_view(props, &lesson)
    };
    let has_lesson = presets::find(st.preset).is_some_and(|p| !p.knobs.is_empty());
    let onlesson = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            d.emit(StormAction::AllKnobs(false));
            crate::ui::browser::focus_after_render(["all-knobs"]);
        })
    };
    html! {
        <div class="panel controls-panel">
            <div class="control choice">
                <div class="control-head">
                    <label for="preset" title={t(T::PresetHelp)}>{ t(T::Preset) }</label>
                    <select id="preset" onchange={onpreset} title={t(T::PresetHelp)} aria-describedby={if preset_error.is_some() { "preset-help preset-error" } else { "preset-help" }}>
                        { for presets::all().iter().map(|p| html! {
                            <option value={p.name} selected={p.name == st.preset} title={lang.f(T::PresetLinkName, &[("name", p.name)])}>{ lang.t(p.title) }</option>
                        }) }
                    </select>
                </div>
                <p id="preset-help" class="help">{ t(T::PresetHelp) }</p>
                // Marked as the preset's once a setting is changed: "both layers try 3 times"
                // stayed beside a run of 2.
                if let Some(p) = preset {
                    { crate::ui::lab::story_of_preset(lang, &p.story(lang), st.a != st.baseline()) }
                }
                if let Some(e) = preset_error {
                    <p class="field-error" role="alert" id="preset-error">{ e }</p>
                }
            </div>
            <div class="control seed-row">
                <div class="control-head">
                    <label for="seed" title={t(T::SeedHelp)}>{ t(T::Seed) }</label>
                    <span class="control-value">
                        <input id="seed" class="num" type="text" inputmode="numeric" value={seed_text} title={t(T::SeedHelp)} aria-describedby={if seed_error.is_some() { "seed-help seed-error" } else { "seed-help" }}
                            aria-invalid={if seed_error.is_some() { "true" } else { "false" }} onchange={onseed} />
                        <button type="button" id="new-seed" class="secondary small" title={t(T::NewSeedHelp)} onclick={onnewseed}>{ t(T::NewSeed) }</button>
                    </span>
                </div>
                <p class="help" id="seed-help">{ t(T::SeedHelp) }</p>
                if let Some(e) = seed_error {
                    <p class="field-error" role="alert" id="seed-error">{ e }</p>
                }
            </div>
            <div class="row-buttons">
                <label class="toggle" title={t(T::CompareHelp)}>
                    <input type="checkbox" id="compare" checked={st.compare} onchange={oncompare} />
                    { t(T::Compare) }
                </label>
                <button type="button" id="copy-link" class="secondary small" title={t(T::CopyLinkHelp)} onclick={oncopy}>
                    { if props.copied { t(T::LinkCopied) } else { t(T::CopyLink) } }
                </button>
                <button type="button" id="reset-preset" class="secondary small" title={t(T::ResetPresetHelp)} onclick={onreset}>{ t(T::ResetPreset) }</button>
                <button type="button" id="pin-b" class="secondary small"
                    title={t(if st.pin.is_some() { T::UnpinBHelp } else { T::PinBHelp })} onclick={onpin}>
                    { t(if st.pin.is_some() { T::UnpinB } else { T::PinB }) }
                </button>
            </div>
            if let Some(e) = compare_error {
                <p class="field-error" role="alert" id="compare-error">{ e }</p>
            }
            if let Some(e) = pin_error {
                <p class="field-error" role="alert" id="pin-error">{ e }</p>
            }
            if !st.unknown.is_empty() {
                <p class="field-error" role="alert" id="unknown-params">{ lang.f(T::UnknownStormParam, &[("keys", &lang.list(&st.unknown, 8))]) }</p>
            }
            if st.all_knobs && has_lesson {
                <button type="button" id="lesson-only" class="secondary small" onclick={onlesson}>{ t(T::LessonOnly) }</button>
            }
            if let Some((_, e)) = st.errors.get(&storm::KNOBS) {
                <p class="field-error" role="alert" id="knobs-error">{ lang.field_error(e) }</p>
            }
            { targets }
        </div>
    }
}
