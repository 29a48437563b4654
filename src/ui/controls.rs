//! A slider paired with a number field, with label, unit, help text and an error slot.

use crate::error::{FieldError, fmt_num};
use crate::i18n::{Lang, T, format_number};
use crate::knob::Knob;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Everything a control shows, already translated, so the component compares cheaply.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlSpec {
    /// DOM id of the number field.
    pub id: String,
    pub label: String,
    pub help: String,
    pub unit: String,
    /// Text in the number field: the value, or what was typed when it is not accepted.
    pub text: String,
    /// The slider's stop nearest the value, and how many stops it has.
    pub stop: usize,
    pub stops: usize,
    /// The value with its unit, as a screen reader says it ("3 attempts", "off").
    pub value_text: String,
    /// What is wrong with the typed text, translated.
    pub error: Option<String>,
    /// The help with the range, as the tooltip shows it.
    pub tooltip: String,
    /// What the arrow keys put in the number field: one step down and up (`Knob::nudge`).
    pub nudged: (String, String),
}

impl ControlSpec {
    /// Builds the view of `knob` at item `index` over `state`; `error` is the field's
    /// rejected text and error, if any.
    #[allow(clippy::too_many_arguments)]
    pub fn from_knob<S, I: Copy>(
        lang: Lang,
        knob: &Knob<S, I>,
        index: I,
        state: &S,
        error: Option<(&String, &FieldError)>,
        id: String,
        label: String,
    ) -> ControlSpec {
        let value = (knob.get)(state, index).unwrap_or(knob.range.min);
        // A plain whole number (a seed) has no unit to show: "whole number" is in its range.
        let unit = if knob.unit == T::UnitInteger { "" } else { lang.t(knob.unit) };
        let (text, error) = match error {
            // By the label the learner sees, the link key beside it (what a link says).
            Some((raw, e)) => {
                // The link key only: the scenario's path after it (`f1.end (faults[0].end_ms)`)
                // names the file's field, which the learner never sees.
                let key = e.field.split(" (").next().unwrap_or(&e.field);
                let named = lang.f(T::LabelWithKey, &[("label", &label), ("key", key)]);
                // A fraction's unit says its range (0–1): not again after the range's maximum.
                let unit = if knob.unit == T::UnitProbability { "" } else { unit };
                (raw.clone(), Some(lang.named_error(e, &named, unit)))
            }
            None => (fmt_num(crate::knob::round_for_display(value, knob.step)), None),
        };
        let stops = knob.stops_at(value);
        let stop = knob.nearest_stop(&stops, value);
        let unit = unit.to_string();
        let value_text = if knob.off && value == 0.0 {
            lang.t(T::OptOff).to_string()
        } else {
            let n = format_number(crate::knob::round_for_display(value, knob.step), 6);
            if knob.unit == T::UnitPercent {
                lang.percent(&n)
            } else {
                format!("{n} {unit}").trim_end().to_string()
            }
        };
        ControlSpec {
            id,
            label,
            help: lang.t(knob.help).to_string(),
            unit,
            text,
            stop,
            stops: stops.len(),
            value_text,
            error,
            tooltip: lang.f(
                T::HelpWithRange,
                &[("help", lang.t(knob.help)), ("range", &lang.allowed(&knob.allowed()))],
            ),
            nudged: (fmt_num(knob.nudge(value, false)), fmt_num(knob.nudge(value, true))),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct NumberControlProps {
    pub spec: ControlSpec,
    /// The learner committed text in the number field (Enter or leaving the field).
    pub ontype: Callback<String>,
    /// The learner moved the slider to a stop.
    pub onslide: Callback<usize>,
}

/// One knob: label, slider, number field, unit, help and error. The slider moves from
/// stop to stop (one arrow key each) and says its value with its unit.
#[component]
pub fn NumberControl(props: &NumberControlProps) -> Html {
    let spec = &props.spec;
    let help_id = format!("{}-help", spec.id);
    let err_id = format!("{}-error", spec.id);
    let slider_id = format!("{}-slider", spec.id);
    let onslide = {
        let cb = props.onslide.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(stop) = input.value().parse::<usize>() {
                cb.emit(stop);
            }
        })
    };
    let ontype = {
        let cb = props.ontype.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            cb.emit(input.value());
        })
    };
    // ↑ and ↓ in the number field move the value one step (as a number input does), for
    // values finer than the slider's stops: a fault's end 100 ms at a time.
    let onkey = {
        let (cb, (down, up), shown) = (props.ontype.clone(), spec.nudged.clone(), spec.text.clone());
        Callback::from(move |e: KeyboardEvent| {
            // A modifier's own meaning (select to the start, go to the start) and a key inside
            // an input method's composition are left alone.
            if e.shift_key() || e.alt_key() || e.ctrl_key() || e.meta_key() || e.is_composing() {
                return;
            }
            let to = match e.key().as_str() {
                "ArrowUp" => &up,
                "ArrowDown" => &down,
                _ => return,
            };
            e.prevent_default();
            // Text typed and not yet committed is committed first, not replaced by a step
            // from the value before it.
            let input: HtmlInputElement = e.target_unchecked_into();
            let typed = input.value();
            cb.emit(if typed.trim() != shown.trim() { typed } else { to.clone() });
        })
    };
    let described = if spec.error.is_some() { format!("{help_id} {err_id}") } else { help_id.clone() };
    let tooltip = spec.tooltip.clone();
    let class = classes!("control", spec.error.as_ref().map(|_| "has-error"));
    html! {
        <div {class}>
            <div class="control-head">
                <label for={spec.id.clone()} title={tooltip.clone()}>{ &spec.label }</label>
                <span class="control-value">
                    <input
                        id={spec.id.clone()}
                        class="num"
                        type="text"
                        inputmode="decimal"
                        autocomplete="off"
                        spellcheck="false"
                        value={spec.text.clone()}
                        title={tooltip.clone()}
                        aria-describedby={described}
                        aria-invalid={if spec.error.is_some() { "true" } else { "false" }}
                        onchange={ontype}
                        onkeydown={onkey}
                    />
                    <span class="unit">{ &spec.unit }</span>
                </span>
            </div>
            <input
                id={slider_id}
                class="slider"
                type="range"
                min="0"
                max={spec.stops.saturating_sub(1).to_string()}
                step="1"
                value={spec.stop.to_string()}
                title={tooltip}
                aria-label={spec.label.clone()}
                aria-valuetext={spec.value_text.clone()}
                aria-describedby={help_id.clone()}
                oninput={onslide}
            />
            <p id={help_id} class="help">{ &spec.help }</p>
            if let Some(err) = &spec.error {
                <p id={err_id} class="field-error" role="alert">{ err }</p>
            }
        </div>
    }
}

/// A translated text for a key, for places that only need a string.
pub fn tr(lang: Lang, key: T) -> String {
    lang.t(key).to_string()
}

/// A select control, already translated.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceSpec {
    /// DOM id of the select.
    pub id: String,
    pub label: String,
    pub help: String,
    /// The selected option's value.
    pub value: String,
    /// (value, label) per option.
    pub options: Vec<(String, String)>,
    /// What is wrong with the last choice, translated.
    pub error: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct ChoiceControlProps {
    pub spec: ChoiceSpec,
    pub onchoose: Callback<String>,
}

/// A labelled select with help text and an error slot.
#[component]
pub fn ChoiceControl(props: &ChoiceControlProps) -> Html {
    let spec = &props.spec;
    let help_id = format!("{}-help", spec.id);
    let err_id = format!("{}-error", spec.id);
    let onchange = {
        let cb = props.onchoose.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            cb.emit(select.value());
        })
    };
    html! {
        <div class={classes!("control", "choice", spec.error.as_ref().map(|_| "has-error"))}>
            <div class="control-head">
                <label for={spec.id.clone()} title={spec.help.clone()}>{ &spec.label }</label>
                <select id={spec.id.clone()} title={spec.help.clone()} aria-describedby={help_id.clone()} {onchange}>
                    { for spec.options.iter().map(|(v, l)| html! {
                        <option value={v.clone()} selected={*v == spec.value}>{ l }</option>
                    }) }
                </select>
            </div>
            <p id={help_id} class="help">{ &spec.help }</p>
            if let Some(err) = &spec.error {
                <p id={err_id} class="field-error" role="alert">{ err }</p>
            }
        </div>
    }
}
