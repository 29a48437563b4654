//! Retry timing: per attempt number, the distribution of the wait before it, sampled from
//! the backoff policy's own function (`model::retry_timing`), and the jitter modes
//! side by side on the same base and cap (figures from `plot::retry_timing`). The section
//! starts folded and samples only when open, so a rerun after a slider move does not pay
//! for it.

use crate::i18n::{Lang, T, format_number};
use crate::model::retry_timing::{BINS, SEQUENCES, compare_jitter, sample};
use crate::plot::retry_timing::{comparison, histograms, legend};
use crate::policy::retry::{Backoff, BackoffUs, Jitter, RetryPolicy};
use crate::scenario::Scenario;
use crate::ui::charts::ReportRef;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RetryTimingProps {
    /// The page's language.
    pub lang: Lang,
    /// The scenario whose callers' retry settings are sampled.
    pub scenario: Scenario,
    /// The run: its clients name the callers, its seed seeds the draws.
    pub report: ReportRef,
    /// "a" or "b", for unique ids in compare mode.
    pub side: &'static str,
}

/// The callers that retry: (client index, name, policy).
fn retrying(lang: Lang, s: &Scenario, r: &crate::report::Report) -> Vec<(usize, String, RetryPolicy)> {
    r.clients
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let p = &s.client_to(c.caller, c.callee)?.retry;
            (p.max_attempts > 1).then(|| (i, r.client_label(lang, i), p.clone()))
        })
        .collect()
}

fn policy_line(lang: Lang, p: &RetryPolicy) -> String {
    let backoff = match p.backoff {
        Backoff::None {} => lang.t(T::RtBackoffNone).to_string(),
        Backoff::Fixed { ms } => lang.f(T::RtBackoffFixed, &[("ms", &format_number(ms, 1))]),
        Backoff::Exponential { base_ms, cap_ms } => lang
            .f(T::RtBackoffExp, &[("base", &format_number(base_ms, 1)), ("cap", &format_number(cap_ms, 1))]),
    };
    let jitter = lang.t(match p.jitter {
        Jitter::None => T::OptNone,
        Jitter::Full => T::OptFull,
        Jitter::Equal => T::OptEqual,
        Jitter::Decorrelated => T::OptDecorrelated,
    });
    lang.f(
        T::RtPolicy,
        &[("attempts", &p.max_attempts.to_string()), ("backoff", &backoff), ("jitter", jitter)],
    )
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The retry timing section.
#[component]
pub fn RetryTiming(props: &RetryTimingProps) -> Html {
    let lang = props.lang;
    let side = props.side;
    let open = use_state(|| false);
    let pick = use_state(|| 0usize);
    let callers = retrying(props.lang, &props.scenario, &props.report.0);
    // The first caller with jitter is the more telling default.
    let default = callers.iter().position(|c| c.2.jitter != Jitter::None).unwrap_or(0);
    let chosen = callers.iter().position(|c| c.0 == *pick).unwrap_or(default);
    let policy = callers.get(chosen).map(|c| (BackoffUs::new(c.2.backoff, c.2.jitter), c.2.max_attempts));
    let seed = props.report.0.seed;
    // Sampled only while open, and again only when the policy or the seed changes.
    let sampled = use_memo((*open, policy, seed, lang), move |(open, policy, seed, lang)| {
        let (b, attempts) = (*policy)?;
        open.then(|| {
            let started = now_ms();
            let own = sample(&b, attempts, SEQUENCES, *seed, BINS);
            let modes = compare_jitter(&b, attempts, SEQUENCES, *seed, BINS);
            let figures = (own.axis_us > 0).then(|| {
                (
                    AttrValue::from(format!(
                        "<div class=\"rt-grid\">{}</div>",
                        histograms(*lang, &own, side)
                    )),
                    AttrValue::from(legend(*lang, &own)),
                    AttrValue::from(format!(
                        "<div class=\"rt-grid\">{}</div>",
                        comparison(*lang, &modes, side)
                    )),
                )
            });
            Rc::new((figures, now_ms() - started))
        })
    });
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::Element = e.target_unchecked_into();
            open.set(d.has_attribute("open"));
        })
    };
    let onpick = {
        let pick = pick.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = s.value().parse::<usize>() {
                pick.set(i);
            }
        })
    };
    let body = if !*open {
        Html::default()
    } else if callers.is_empty() {
        html! { <p class="empty" id={format!("rt-none-{side}")}>{ lang.t(T::RtNoRetries) }</p> }
    } else {
        let (figures, took) = match sampled.as_ref() {
            Some(x) => (&x.0, x.1),
            None => return Html::default(),
        };
        let select_id = format!("rt-client-{side}");
        html! {
            <div class="rt-body" id={format!("rt-body-{side}")} data-sample-ms={format!("{took:.1}")}>
                if callers.len() > 1 {
                    <label for={select_id.clone()}>{ lang.t(T::RtCaller) }{ " " }</label>
                    <select id={select_id} onchange={onpick}>
                        { for callers.iter().enumerate().map(|(k, c)| html! {
                            <option value={c.0.to_string()} selected={k == chosen}>{ &c.1 }</option>
                        }) }
                    </select>
                } else {
                    <p><strong>{ &callers[0].1 }</strong></p>
                }
                <p class="rt-policy" id={format!("rt-policy-{side}")}>{ policy_line(lang, &callers[chosen].2) }</p>
                <p class="note">{ lang.f(T::RtHonest, &[("n", &format_number(SEQUENCES as f64, 0))]) }</p>
                if let Some((hist, keys, modes)) = figures {
                    <p class="note">{ format!("x: {} · y: {}", lang.t(T::RtAxis), lang.t(T::RtShare)) }</p>
                    { Html::from_html_unchecked(hist.clone()) }
                    <h3>{ lang.t(T::RtCompareTitle) }</h3>
                    <p class="note">{ lang.t(T::RtCompareNote) }<span class="legend">{ Html::from_html_unchecked(keys.clone()) }</span></p>
                    { Html::from_html_unchecked(modes.clone()) }
                } else {
                    <p class="note" id={format!("rt-at-once-{side}")}>{ lang.t(T::RtAtOnce) }</p>
                }
            </div>
        }
    };
    html! {
        <details class="panel retry-timing" id={format!("retry-timing-{side}")} {ontoggle} open={*open}>
            <summary><h2 class="inline">{ lang.t(T::RtTitle) }</h2></summary>
            { body }
        </details>
    }
}
