//! Pieces the mechanism labs share: a knob's or a choice's control over a lab's state, the
//! preset picker, the notice about unknown link keys, and an x–y chart frame (axes, ticks,
//! caption) that a lab fills with its own marks.

use super::charts::{ChartWidth, y_strip};
use super::controls::{ChoiceControl, ChoiceSpec, ControlSpec, NumberControl};
use super::export::figure_export;
use crate::i18n::{Lang, T, format_small};
use crate::knob::{Choice, Knob};
use crate::plot::{Linear, nice_ticks};
use crate::state::lab::{AT, FROM, Origin};
use crate::state::{FieldKey, FormErrors};
use yew::prelude::*;

/// The control of knob `k` over `input`: typing sends `(key, text)`, the slider
/// `(key, stop)`.
pub fn knob<S>(
    lang: Lang,
    k: &Knob<S>,
    input: &S,
    errors: &FormErrors,
    ontype: &Callback<(FieldKey, String)>,
    onslide: &Callback<(FieldKey, usize)>,
) -> Html {
    let key = FieldKey::plain(k.key);
    let spec =
        ControlSpec::from_knob(lang, k, 0, input, errors.get(&key), key.dom_id(), lang.t(k.label).into());
    let (t, s) = (ontype.clone(), onslide.clone());
    html! {
        <NumberControl key={k.key} {spec}
            ontype={Callback::from(move |raw: String| t.emit((key, raw)))}
            onslide={Callback::from(move |stop: usize| s.emit((key, stop)))} />
    }
}

/// The select of choice `c` over `input`.
pub fn choice<S>(
    lang: Lang,
    c: &Choice<S>,
    input: &S,
    errors: &FormErrors,
    onchoose: Callback<String>,
) -> Html {
    let spec = ChoiceSpec {
        id: FieldKey::plain(c.key).dom_id(),
        label: lang.t(c.label).into(),
        help: lang.t(c.help).into(),
        value: (c.get)(input, 0).unwrap_or_default().into(),
        options: c.options.iter().map(|(v, l)| (v.to_string(), lang.t(*l).to_string())).collect(),
        // By the label the learner sees, the link key beside it (as the knobs' errors).
        error: errors.get(&FieldKey::plain(c.key)).map(|(_, e)| {
            lang.named_error(
                e,
                &lang.f(T::LabelWithKey, &[("label", lang.t(c.label)), ("key", &e.field)]),
                "",
            )
        }),
    };
    html! { <ChoiceControl key={c.key} {spec} {onchoose} /> }
}

/// How a lab's panel tells where its settings come from: the preset's story (marked once
/// the settings depart from it), or, for a lab a link under the retry-storm page's diagram
/// opened, that hop's or call's settings (`state::lab::Origin`): the preset's story would
/// describe another system.
#[derive(Clone, Copy)]
pub struct Story<'a> {
    /// The settings depart from the preset's.
    pub changed: bool,
    /// Where the link took them from, and the lab's sentence saying so (`{what}`: the hop
    /// or the call).
    pub from: Option<(&'a Origin, T)>,
}

/// The hop or call `from` names, with the services named as this language names them.
pub fn origin_name(lang: Lang, from: &Origin) -> String {
    match from {
        Origin::Hop(h) => lang.service(h).into_owned(),
        Origin::Call(a, b) => lang.client(a, b),
    }
}

/// The select's option that stands for the settings a storm page's link brought (a
/// preset picked replaces them; see [`Story`]), selected.
pub fn origin_option(lang: Lang, from: &Origin) -> (String, String) {
    (String::new(), lang.f(T::FromStormOption, &[("what", &origin_name(lang, from))]))
}

/// The story [`Story`] describes, and a refused `from=` named.
pub fn story_view(lang: Lang, preset_story: &str, story: Story, errors: &FormErrors) -> Html {
    let from_error = errors.get(&FieldKey::plain(FROM)).map(|(_, e)| lang.field_error(e));
    html! {
        <>
            if let Some((o, text)) = story.from {
                <p class="story" id="lab-origin">{ lang.f(text, &[("what", &origin_name(lang, o))]) }</p>
            } else {
                { story_of_preset(lang, preset_story, story.changed) }
            }
            if let Some(e) = from_error {
                <p class="field-error" role="alert" id="from-error">{ e }</p>
            }
        </>
    }
}

/// The preset select with the current preset's story (see [`Story`]), and the errors about
/// the link: a `preset=` naming none, and the keys the page does not read.
pub fn preset_picker(
    lang: Lang,
    presets: &[(&'static str, T, T)],
    current: &str,
    story: Story,
    errors: &FormErrors,
    unknown: &[String],
    onpick: Callback<String>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        onpick.emit(s.value());
    });
    let preset_story = presets.iter().find(|p| p.0 == current).map_or("", |p| lang.t(p.2));
    let origin = story.from.map(|(o, _)| origin_option(lang, o));
    html! {
        <div class="control choice">
            <label for="preset" title={lang.t(T::PresetHelp)}>{ lang.t(T::Preset) }</label>
            // The help on screen too, as every other control's: a tooltip never shows on a
            // touch screen.
            <select id="preset" aria-describedby={if errors.get(&FieldKey::plain("preset")).is_some() { "preset-help preset-error" } else { "preset-help" }} {onchange}>
                if let Some((value, label)) = origin {
                    <option {value} selected=true>{ label }</option>
                }
                { for presets.iter().map(|(name, title, _)| html! {
                    // The title alone: with its name (which the link shows) it overran the
                    // column at 1440 px.
                    <option value={*name} selected={story.from.is_none() && *name == current} title={lang.f(T::PresetLinkName, &[("name", name)])}>{ lang.t(*title) }</option>
                }) }
            </select>
            <p id="preset-help" class="help">{ lang.t(T::PresetHelp) }</p>
            { story_view(lang, preset_story, story, errors) }
            if let Some((_, e)) = errors.get(&FieldKey::plain("preset")) {
                <p class="field-error" role="alert" id="preset-error">{ lang.field_error(e) }</p>
            }
            if !unknown.is_empty() {
                <p class="field-error" role="alert" id="unknown-params">
                    { lang.f(T::UnknownParam, &[("keys", &lang.list(unknown, 8))]) }
                </p>
            }
        </div>
    }
}

/// A preset's story, marked as the preset's once the learner has changed a setting: the
/// text describes the preset as loaded and would otherwise contradict the figures.
pub fn story_of_preset(lang: Lang, story: &str, changed: bool) -> Html {
    let class = if changed { "story as-loaded" } else { "story" };
    html! {
        <p {class} id="preset-story">
            if changed { <span class="story-note" id="story-as-loaded">{ lang.t(T::StoryAsLoaded) }</span>{ lang.t(T::LabelSep) } }
            { story.to_string() }
        </p>
    }
}

/// The widest view box of [`xy_frame`] (SVG units): a chart is drawn as wide as its figure,
/// down to [`XW_MIN`], so that on a phone its text keeps its size and the whole run is in
/// view (it was 480 units in a sideways scroll); a wider figure scales this one up.
pub const XW: f64 = 480.0;
/// The narrowest view box of [`xy_frame`]: a figure narrower still gets the [`XW`]-wide
/// picture in a sideways scroll.
pub const XW_MIN: f64 = 240.0;
pub const XH: f64 = 230.0;
const L: f64 = 48.0;
const B: f64 = 30.0;
/// Right margin: room for half of the last x tick's label.
const R: f64 = 22.0;
/// Where the plot area starts: below the y axis's name, which sits above the top tick
/// label (at 10 they touched on a phone).
pub const PLOT_TOP: f64 = 20.0;

/// How wide a lab's chart is drawn, measured on its figure (a hook): see [`XW`].
#[hook]
pub fn use_xy_width(figure: &NodeRef) -> ChartWidth {
    super::charts::use_chart_width_from(figure, XW_MIN, XW, XW)
}

/// Scales mapping `x` and `y` onto the plot area of [`xy_frame`], `w` units wide.
pub fn xy_scales(x: (f64, f64), y: (f64, f64), w: f64) -> (Linear, Linear) {
    (Linear::new(x, (L, w - R)), Linear::new(y, (XH - B, PLOT_TOP)))
}

/// A chart frame: caption (with the figure's export button, in `lang`), axes with ticks
/// (x labelled by `xfmt`), axis names, then `body` drawn with the scales of [`xy_scales`];
/// `figure` and `width` are [`use_xy_width`]'s.
#[allow(clippy::too_many_arguments)]
pub fn xy_frame(
    (lang, id): (Lang, &str),
    title: &str,
    axes: (&str, &str),
    (figure, width): (&NodeRef, ChartWidth),
    sx: &Linear,
    sy: &Linear,
    xfmt: impl Fn(f64) -> String,
    body: Html,
) -> Html {
    let xw = width.w;
    let (x0, x1) = sx.domain;
    let (y0, y1) = sy.domain;
    let num = |v: f64| v.to_string();
    // The y axis (its ticks, values and title), drawn in the chart and again on the strip
    // that keeps it in view on a phone.
    let y_axis: Html = nice_ticks(y0, y1, 4)
        .into_iter()
        .map(|t| {
            let y = sy.map(t);
            html! { <g>
                <line class="grid" x1={num(L)} x2={num(xw - R)} y1={num(y)} y2={num(y)} />
                <text x={num(L - 5.0)} y={num(y + 4.0)} text-anchor="end">{ format_small(t, 2, 2) }</text>
            </g> }
        })
        .collect();
    let y_title = html! { <text class="axis-label" x="4" y="9">{ axes.1 }</text> };
    // A tick per 70 units of plot (3–6), each label inside the drawing and apart from the
    // next (a phone's plot is about 220 units).
    let most = ((xw - L - R) / 70.0).floor().clamp(3.0, 6.0) as usize;
    let x_ticks = crate::plot::tick_labels(
        nice_ticks(x0, x1, most).into_iter().map(|t| (sx.map(t), xfmt(t))).collect(),
        10.5,
        L - 4.0,
        xw,
        4.0,
    );
    html! {
        <figure class={classes!("chart", width.fits.then_some("fits"))} id={id.to_string()} ref={figure.clone()}>
            <figcaption>{ title }{ figure_export(lang, id, title) }</figcaption>
            <div class="plot">
            <svg viewBox={format!("0 0 {xw} {XH}")} role="img" aria-label={title.to_string()}>
                <g class="axis">
                    { y_axis.clone() }
                    { for x_ticks.into_iter().map(|(x, label, anchor)| html! {
                        <text x={num(x)} y={num(XH - B + 14.0)} text-anchor={anchor}>{ label }</text>
                    }) }
                    <line x1={num(L)} x2={num(xw - R)} y1={num(XH - B)} y2={num(XH - B)} />
                    <text class="axis-label" x={num(xw - R)} y={num(XH - 3.0)} text-anchor="end">{ axes.0 }</text>
                    { y_title }
                </g>
                { body }
            </svg>
            // The title is left off the strip: it runs wider than the axis. Only a picture in
            // a sideways scroll needs it.
            if !width.fits { { y_strip("xy", L, XH, html! { <g class="axis">{ y_axis }</g> }) } }
            </div>
        </figure>
    }
}

/// A note over a lab's figures while a setting's text is refused: they still show the last
/// valid settings. The error itself is beside its field, which a phone keeps folded below
/// the figures, so without this the figures would pass for the refused setting's. (A link's
/// refused playhead, `at`, leaves the figures current.)
pub fn stale_note(lang: Lang, id: &str, errors: &FormErrors) -> Html {
    if !errors.iter().any(|(k, _, _)| *k != FieldKey::plain(AT)) {
        return Html::default();
    }
    html! { <p class="stale-note" role="status" id={format!("{id}-stale")}>{ lang.t(T::KeptLastValid) }</p> }
}

#[derive(Properties, PartialEq)]
pub struct LabSettingsProps {
    pub lang: Lang,
    pub children: Html,
    /// What the last change did, as the page's live line says it (empty: nothing to say,
    /// as during playback); see [`said_bar`].
    #[prop_or_default]
    pub said: AttrValue,
}

/// The id of a lab's (or the calculator's) figures, its `.outputs`, which the settings'
/// bar links back to.
pub const LAB_FIGURES: &str = "lab-figures";

/// A page's settings (its form), after its figures: the grid puts them in the left column
/// on a wide screen; on a narrow one they start folded under a summary that one tap opens,
/// so that the figures are on a phone's first screen (as the storm page's control panel).
#[function_component(LabSettings)]
pub fn lab_settings(p: &LabSettingsProps) -> Html {
    let wide = use_memo((), |_| super::browser::is_wide());
    html! {
        <details class="controls-wrap" open={*wide}>
            <summary id="controls-toggle">{ p.lang.t(T::SettingsToggle) }</summary>
            { p.children.clone() }
            { said_bar(p.lang, &p.said, LAB_FIGURES) }
        </details>
    }
}

/// A link that opens the page's settings and goes there (`words`: the page's name for
/// them), under the storm page's intro and at the end of a lab's: up to 1,000 px (a phone,
/// an upright tablet) they are folded below every figure, screens down (the skip link does
/// it by keyboard). The style sheet hides it where the settings are beside the figures, in
/// a lesson and in compact mode.
pub fn to_settings_link(lang: Lang, words: T) -> Html {
    html! {
        <a class="to-settings" id="to-settings" href="#controls-toggle" onclick={Callback::from(|e: MouseEvent| {
            e.prevent_default();
            super::browser::open_settings();
        })}>{ lang.t(words) }</a>
    }
}

/// Where the settings are folded below the figures (a phone, a tablet), screens away from
/// them: what the last change did (`said`), held at the screen's foot while the settings
/// are open, and the way back up to the figures (the element `figures`). Its words are the
/// page's live line's, which a screen reader has heard already. Nothing when `said` is empty.
pub fn said_bar(lang: Lang, said: &str, figures: &str) -> Html {
    if said.is_empty() {
        return html! {};
    }
    html! {
        <p class="run-said-bar" id="run-said-bar">
            <span aria-hidden="true">{ said.to_string() }</span>
            <a href={format!("#{figures}")} id="to-figures">{ lang.t(T::ToFigures) }</a>
        </p>
    }
}
