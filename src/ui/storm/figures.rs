//! Headline figures (with A/B differences in compare mode) and the formula panel.

use crate::i18n::{Lang, T, format_number};
use crate::model::slo::Slo;
use crate::plot::storm::{Formulas, TIMES_FROM, Unit, allowance, headlines};
use crate::ui::charts::ReportRef;
use yew::prelude::*;

/// A headline value as its card writes it (see [`Unit::write`]).
pub(crate) fn show(lang: Lang, v: f64, unit: Unit) -> String {
    unit.write(lang, v)
}

/// B − A; 0 when the two are equal (∞ and ∞ too, which subtract to NaN).
fn difference(from: f64, to: f64) -> f64 {
    if from == to { 0.0 } else { to - from }
}

/// `to − from` (the variant less the baseline), in the unit the two values are written in: two percentages differ by percentage
/// points (not by a percent of either); once either is written as a multiple, so is the
/// difference ("1,000× · B 1,000× (0×)", not "(0 pp)").
fn show_diff(lang: Lang, from: f64, to: f64, unit: Unit) -> String {
    // Of the values as the cards show them (`Unit::shown`).
    let d = difference(unit.shown(from), unit.shown(to));
    // An error budget with no failures allowed is spent ∞ times: the difference has no unit.
    if d.is_infinite() {
        return if d > 0.0 { "+∞" } else { "−∞" }.to_string();
    }
    let sign = if d > 0.0 { "+" } else { "" };
    match unit {
        Unit::Percent if d.is_finite() && from.abs().max(to.abs()) >= TIMES_FROM => {
            format!("{sign}{}×", format_number(d, 1))
        }
        Unit::Percent => format!("{sign}{} {}", format_number(d * 100.0, 2), lang.t(T::PercentPoints)),
        _ => format!("{sign}{}", show(lang, d, unit)),
    }
}

/// What the cards add up: each side's whole run, in seconds of virtual time.
fn span_text(lang: Lang, a: &ReportRef, b: Option<&ReportRef>) -> String {
    // Hundredths of a second for short runs: a run ending at 1.02 s read "0 – 1 s" beside
    // its 1,020 ms latency max.
    let end = |r: &ReportRef| {
        let s = r.0.summary.end_ms / 1000.0;
        format_number(s, if s < 10.0 { 2 } else { 1 })
    };
    match b {
        None => lang.f(T::HeadlineWholeRun, &[("end", &end(a))]),
        Some(b) => lang.f(T::HeadlineWholeRunAB, &[("a", &end(a)), ("b", &end(b))]),
    }
}

#[derive(Properties, PartialEq)]
pub struct HeadlineProps {
    pub lang: Lang,
    pub a: ReportRef,
    #[prop_or_default]
    pub b: Option<ReportRef>,
    /// The objective both sides are held to.
    pub slo: Slo,
    /// Side A's and side B's headings (compare mode), which the key to the cards repeats.
    #[prop_or_default]
    pub a_title: AttrValue,
    #[prop_or_default]
    pub b_title: AttrValue,
    /// Which side the difference is taken from.
    #[prop_or_default]
    pub baseline: Baseline,
}

/// The side a compared card's difference is taken from: the other side is the change being
/// tried, and the difference says what the change did (its colour, whether it helped).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Baseline {
    /// Side B is a variant of the scenario (a preset's protection): B − A.
    #[default]
    A,
    /// Side B holds the settings pinned before A was changed: A − B.
    B,
}

impl Baseline {
    /// The two sides' values as (baseline, variant).
    fn order(self, a: f64, b: f64) -> (f64, f64) {
        match self {
            Baseline::A => (a, b),
            Baseline::B => (b, a),
        }
    }

    /// How the difference is written ("B − A").
    fn text(self) -> T {
        match self {
            Baseline::A => T::Difference,
            Baseline::B => T::DifferenceAMinusB,
        }
    }
}

/// The headline figures as cards. Each value carries the exact JSON value in
/// `data-value`; in compare mode each card adds side B and the difference.
#[component]
pub fn HeadlineTable(props: &HeadlineProps) -> Html {
    let lang = props.lang;
    let slo = props.slo;
    let ha = headlines(&props.a.0, slo);
    let hb = props.b.as_ref().map(|b| headlines(&b.0, slo));
    let status = |side: &str, r: &ReportRef| {
        let b = slo.budget(&r.0.summary);
        let text = lang.f(
            if b.met { T::SloMet } else { T::SloBreached },
            &[
                ("target", &format_number(slo.success_percent, 3)),
                ("spent", &format_number(b.spent as f64, 0)),
                ("allowed", &allowance(b.allowed)),
                // Where a fraction such as "0.02 allowed" comes from: the error budget's
                // share of the admitted requests.
                ("share", &format_number(100.0 - slo.success_percent, 3)),
                (
                    "admitted",
                    &format_number(
                        r.0.summary.original_requests.saturating_sub(r.0.summary.admission_rejected) as f64,
                        0,
                    ),
                ),
            ],
        );
        html! {
            <span class={classes!("slo-status", if b.met { "met" } else { "breached" })} id={format!("slo-status-{side}")}
                data-met={b.met.to_string()}>
                if props.b.is_some() { <span class="side-tag">{ side.to_ascii_uppercase() }</span>{ " " } }
                { text }
            </span>
        }
    };
    let cards: Html = ha
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let b = hb.as_ref().map(|hb| &hb[i]);
            let order = |b: f64| props.baseline.order(h.value, b);
            let diff = b.map(|b| {
                let (from, to) = order(b.value);
                difference(h.unit.shown(from), h.unit.shown(to))
            });
            let better = match (diff, h.higher_is_better) {
                (Some(d), Some(hib)) if d != 0.0 => Some(if (d > 0.0) == hib { "better" } else { "worse" }),
                _ => None,
            };
            html! {
                <div class="hcard">
                    <div class="hlabel">{ lang.t(h.label) }</div>
                    <div class="hvalue" id={format!("h-a-{}", h.id)} data-value={h.value.to_string()}>
                        { b.map_or_else(|| show(lang, h.value, h.unit), |b| h.unit.write_beside(lang, h.value, b.value)) }
                    </div>
                    if let Some(n) = h.note {
                        <div class="hnote" id={format!("h-note-{}", h.id)}>{ lang.t(n) }</div>
                    }
                    if let Some(b) = b {
                        <div class="hb">
                            <span class="side-tag">{ "B" }</span>
                            <span id={format!("h-b-{}", b.id)} data-value={b.value.to_string()}>{ b.unit.write_beside(lang, b.value, h.value) }</span>
                            <span class={classes!("diff", better)} id={format!("h-d-{}", h.id)} title={lang.t(props.baseline.text())}>
                                { lang.f(T::InBrackets, &[("text", &{ let (from, to) = order(b.value); show_diff(lang, from, to, h.unit) })]) }
                            </span>
                        </div>
                    }
                </div>
            }
        })
        .collect();
    let refused = {
        let (ra, rb) = (
            props.a.0.summary.admission_rejected,
            props.b.as_ref().map_or(0, |b| b.0.summary.admission_rejected),
        );
        let n = |x: u64| format_number(x as f64, 0);
        match (ra, rb, props.b.is_some()) {
            (0, 0, _) => None,
            (a, _, false) => Some(n(a)),
            (a, b, true) => Some(format!("A {} · B {}", n(a), n(b))),
        }
    };
    html! {
        <div class="headline" id="headline">
            if hb.is_some() {
                <p class="note">{ lang.f(T::DiffKey, &[("a", &props.a_title), ("b", &props.b_title), ("d", lang.t(props.baseline.text()))]) }</p>
            }
            // The cards count the whole run while the diagram follows the playhead: a lesson
            // paused at 4 s would otherwise read "20 % success" beside "nearly every request
            // succeeds until 4 s".
            <p class="note headline-span" id="headline-span" data-value={props.a.0.summary.end_ms.to_string()}>
                { span_text(lang, &props.a, props.b.as_ref()) }
                // Not on a presenter's stage, where the cards are shown without the chain.
                <span class="chain-below">{ lang.t(T::HeadlineChainBelow) }</span>
            </p>
            <div class="hgrid">{ cards }</div>
            <p class="slo-line-note">
                { status("a", &props.a) }
                if let Some(b) = &props.b { { " · " }{ status("b", b) } }
                // The objective counts admitted requests (model::slo): say so whenever the
                // entry turned some away, or "met" reads as if no one was refused.
                if let Some(n) = refused {
                    { lang.t(T::LabelSep) }<span class="slo-apart" id="slo-apart">{ lang.f(T::SloRefusedApart, &[("n", &n)]) }</span>
                }
            </p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct FormulaProps {
    pub lang: Lang,
    pub f: Formulas,
    /// Compare mode: the figures are side A's, and the title says so.
    #[prop_or_default]
    pub compare: bool,
}

/// Closed forms beside the simulated figures.
#[component]
pub fn FormulaPanel(props: &FormulaProps) -> Html {
    let lang = props.lang;
    let f = &props.f;
    let product = f.attempts.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" × ");
    let bound = match (f.entry_rate, f.bound) {
        // A surge shows as its own factor: the load's rate × the surge × the attempts.
        (Some(rate), Some(b)) if f.surge != 1.0 => format!(
            "{} × {} × {} = {} /s",
            format_number(rate / f.surge, 2),
            format_number(f.surge, 2),
            product,
            format_number(b, 2)
        ),
        (Some(rate), Some(b)) => {
            format!("{} × {} = {} /s", format_number(rate, 2), product, format_number(b, 2))
        }
        _ => format!(
            "{product} = {} {}",
            format_number(f.attempts.iter().map(|&a| f64::from(a)).product(), 0),
            lang.t(T::PerRequest)
        ),
    };
    let pool = f.leaf_workers.map(|w| format!(" / {w}")).unwrap_or_default();
    html! {
        <div class="formulas" id="formulas">
            <h3>{ lang.t(T::FormulaTitle) }
                if props.compare { { " " }<span id="formula-side">{ lang.f(T::InBrackets, &[("text", lang.t(T::SideA))]) }</span> }</h3>
            if f.entry_rate.is_some() {
                <div class="formula-row">
                    <div>{ lang.f(T::FormulaBound, &[("leaf", &lang.service(&f.leaf_name))]) }</div>
                    <code id="formula-bound">{ bound }</code>
                    <div class="sim">{ lang.f(T::LabelColon, &[("label", lang.t(T::FormulaSimPeak))]) }<strong id="formula-sim-peak">{ format!("{} {}", format_number(f.sim_peak_rate, 1), lang.t(T::UnitAttemptsPerS)) }</strong></div>
                </div>
                <div class="formula-row">
                    <div>{ lang.f(T::FormulaLittle, &[("leaf", &lang.service(&f.leaf_name))]) }</div>
                    <code id="formula-little">{ lang.f(T::FormulaLittleAt, &[("rate", &format_number(f.offered.rate, 1)), ("s", &format_number(f.offered.work_ms, 2)), ("l", &format_number(f.offered.workers, 1)), ("t", &format_number(f.offered.at_ms / 1000.0, 2)), ("t2", &format_number((f.offered.at_ms + f.bucket_ms) / 1000.0, 2))]) }</code>
                    <div class="sim">{ lang.f(T::LabelColon, &[("label", lang.t(T::FormulaSimInFlight))]) }<strong id="formula-sim-inflight">{ format!("{}{}", f.sim_peak_in_flight, pool) }</strong></div>
                </div>
            } else {
                // Requests all at once: per request, and no rate. A rate over a bucket would be
                // the bucket's width's (a deadline that cut the calls to a fifth had made it
                // four times higher), and Little's law has no steady rate to take.
                <div class="formula-row">
                    <div>{ lang.f(T::FormulaBoundPerRequest, &[("leaf", &lang.service(&f.leaf_name))]) }</div>
                    <code id="formula-bound">{ bound }</code>
                    <div class="sim">{ lang.f(T::LabelColon, &[("label", lang.t(T::FormulaSimPerRequest))]) }<strong id="formula-sim-per-request">{ format_number(f.sim_per_request, 2) }</strong></div>
                </div>
                <div class="formula-row">
                    <div>{ lang.t(T::FormulaLittleBatch) }</div>
                    <div class="sim">{ lang.f(T::LabelColon, &[("label", lang.t(T::FormulaSimInFlight))]) }<strong id="formula-sim-inflight">{ format!("{}{}", f.sim_peak_in_flight, pool) }</strong></div>
                </div>
            }
            // Where the simulation passes a closed form, say why beside it: a bound for the
            // average rate that a bucket of random arrivals beats, an L the pool cannot hold.
            if f.bound.is_some_and(|b| f.sim_peak_rate > b) {
                <p class="note" id="formula-peak-above">{ lang.t(T::FormulaPeakAbove) }</p>
            }
            if let Some(w) = f.leaf_workers.filter(|&w| f.entry_rate.is_some() && f.offered.workers > f64::from(w)) {
                <p class="note" id="formula-little-over">{ lang.f(T::FormulaLittleOverPool, &[("workers", &w.to_string()), ("leaf", &lang.service(&f.leaf_name))]) }</p>
            }
            <p class="note">{ lang.t(T::FormulaNote) }</p>
        </div>
    }
}
