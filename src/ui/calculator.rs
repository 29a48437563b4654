//! The amplification calculator page: inputs on the left, each result with its formula on
//! the right, and the chain picture. It displays `model::amplification::compute`'s result
//! and never computes anything itself.

use super::controls::{ControlSpec, NumberControl};
use crate::export::{Provenance, calculator_csv, lab_json};
use crate::i18n::{Lang, T, format_fixed, format_number, format_small};
use crate::knob::Knob;
use crate::model::amplification::{CalcInput, CalcOutput, InFlight};
use crate::plot::chain_bars;
use crate::state::FieldKey;
use crate::state::calculator::{self as calc, CalcAction, CalcState};
use crate::ui::export::{DataKind, ExportMenu};
use crate::ui::lab::LabSettings;
use std::rc::Rc;
use yew::prelude::*;

/// What the calculator exports as JSON.
#[derive(serde::Serialize)]
struct CalcExport<'a> {
    /// Its inputs.
    input: &'a CalcInput,
    /// Every figure it shows.
    output: &'a CalcOutput,
}

#[derive(Properties, PartialEq)]
pub struct CalculatorProps {
    pub lang: Lang,
    pub state: CalcState,
    pub dispatch: Callback<CalcAction>,
}

fn control(props: &CalculatorProps, knob: &'static Knob<CalcInput>, key: FieldKey, label: String) -> Html {
    let error = props.state.errors.get(&key);
    let spec = ControlSpec::from_knob(
        props.lang,
        knob,
        key.index.unwrap_or(0),
        &props.state.input,
        error,
        key.dom_id(),
        label,
    );
    let d1 = props.dispatch.clone();
    let d2 = props.dispatch.clone();
    let id = spec.id.clone();
    html! {
        <NumberControl
            key={id}
            {spec}
            ontype={Callback::from(move |raw: String| d1.emit(CalcAction::Type(key, raw)))}
            onslide={Callback::from(move |stop: usize| d2.emit(CalcAction::Slide(key, stop)))}
        />
    }
}

/// The control a guided lesson's step offers for URL key `key` (`attempts` shows one field a
/// layer).
pub fn step_knob(lang: Lang, state: &CalcState, dispatch: &Callback<CalcAction>, key: &str) -> Option<Html> {
    let props = CalculatorProps { lang, state: state.clone(), dispatch: dispatch.clone() };
    let k = calc::knob(key)?;
    if k.key == calc::ATTEMPTS.key {
        let fields = (0..state.input.attempts.len()).map(|i| {
            let label = lang.f(T::FieldAttempts, &[("n", &(i + 1).to_string())]);
            control(&props, &calc::ATTEMPTS, FieldKey::at(calc::ATTEMPTS.key, i), label)
        });
        return Some(fields.collect());
    }
    Some(control(&props, k, FieldKey::plain(k.key), lang.t(k.label).to_string()))
}

/// The calculator page.
#[component]
pub fn CalculatorPage(props: &CalculatorProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let plain = |knob: &'static Knob<CalcInput>| {
        control(props, knob, FieldKey::plain(knob.key), t(knob.label).to_string())
    };
    let attempts: Html = (0..props.state.input.attempts.len())
        .map(|i| {
            let label = lang.f(T::FieldAttempts, &[("n", &(i + 1).to_string())]);
            control(props, &calc::ATTEMPTS, FieldKey::at("attempts", i), label)
        })
        .collect();
    let reset = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(CalcAction::Reset))
    };
    let has_errors = !props.state.errors.is_empty();
    // One sentence for a screen reader when the worst case changes, not the whole panel.
    let announce = lang.f(
        T::CalcAnnounce,
        &[
            // As the card writes it (1.5, not 2).
            ("worst", &card_number(props.state.output.worst_attempts_per_s)),
            ("amp", &format_number(props.state.output.amplification, 2)),
        ],
    );
    let export_data = {
        let (input, output) = (props.state.input.clone(), props.state.output.clone());
        Callback::from(move |(kind, p): (DataKind, Rc<Provenance>)| {
            Some(match kind {
                DataKind::Json => lab_json(&p, &CalcExport { input: &input, output: &output }),
                DataKind::Csv => calculator_csv(&output),
            })
        })
    };
    html! {
        <section class="page calculator" aria-labelledby="page-title">
            <h1 id="page-title">{ t(T::CalcTitle) }</h1>
            <p class="intro">{ t(T::CalcIntro) }{ " " }{ crate::ui::lab::to_settings_link(lang, T::ToLabSettings) }</p>
            <ExportMenu {lang} page="calculator" data={export_data} />
            <div class="two-col">
                // Results first (reading order, and a phone's first screen); the grid puts the
                // inputs on the left on a wide screen, and a narrow one folds them away.
                <div class="panel outputs" id={crate::ui::lab::LAB_FIGURES}>
                    <p class="sr-only" aria-live="polite" id="calc-announce">{ announce.clone() }</p>
                    <h2>{ t(T::CalcOutputs) }</h2>
                    if has_errors {
                        <p class="stale-note">{ t(T::KeptLastValid) }</p>
                    }
                    <Results {lang} input={props.state.input.clone()} output={props.state.output.clone()} />
                    <h3>{ t(T::CalcChain) }</h3>
                    <ChainPicture {lang} output={props.state.output.clone()} attempts={props.state.input.attempts.clone()} />
                    // A phone's form of the same picture (the stylesheet shows one of the two).
                    <div id="calc-chain-rows" class="phone-only">
                        <ChainRows {lang} output={props.state.output.clone()} attempts={props.state.input.attempts.clone()} />
                    </div>
                    // On a linear scale 1 : 3 : 9 would read as growth, 500 against 195 million
                    // as nothing: the log scale is said, not left to be guessed.
                    <p class="note wide-only" id="calc-log-note">{ t(T::CalcLogScaleNote) }</p>
                    <p class="note phone-only">{ t(T::CalcLogScaleNoteRows) }</p>
                </div>
                <LabSettings {lang} said={AttrValue::from(announce)}>
                    <form class="panel inputs" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                        <h2>{ t(T::CalcInputs) }</h2>
                        if !props.state.unknown.is_empty() {
                            <p class="field-error" role="alert" id="unknown-params">{ lang.f(T::UnknownParam, &[("keys", &lang.list(&props.state.unknown, 8))]) }</p>
                        }
                        { plain(&calc::REQUESTS_PER_DAY) }
                        { plain(&calc::AVG_RPS) }
                        { plain(&calc::PEAK_FACTOR) }
                        { plain(&calc::LAYERS) }
                        <div class="attempts-group">{ attempts }</div>
                        if let Some((_, e)) = props.state.errors.get(&FieldKey::plain("attempts")) {
                            <p class="field-error" role="alert" id="f-attempts-error">{ lang.named_error(e, &lang.f(T::LabelWithKey, &[("label", lang.t(T::FieldAttemptsList)), ("key", "attempts")]), "") }</p>
                        }
                        { plain(&calc::HOLD_NORMAL) }
                        { plain(&calc::HOLD_DEGRADED) }
                        { plain(&calc::POOL) }
                        { plain(&calc::RESPONSE_KIB) }
                        <button type="button" class="secondary" onclick={reset} title={t(T::CalcResetHelp)}>
                            { t(T::CalcReset) }
                        </button>
                    </form>
                </LabSettings>
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ResultsProps {
    lang: Lang,
    input: CalcInput,
    output: CalcOutput,
}

/// The exact value behind a figure's DOM id (`state::calculator::figures`), for `data-value`.
fn exact(o: &CalcOutput, id: &str) -> Option<String> {
    calc::figures(o).into_iter().find(|f| f.0 == id).map(|f| f.1.to_string())
}

/// A figure as the cards write it, and everything that repeats one (the chain picture, the
/// announcement): two decimals, three significant digits below 1 (100 requests a day are
/// 0.00116/s, not 0).
fn card_number(x: f64) -> String {
    format_small(x, 2, 3)
}

/// A figure with its formula; `data-value` holds the exact value.
fn figure(
    o: &CalcOutput,
    id: &str,
    label: &str,
    value: String,
    unit: &str,
    formula: String,
    note: Option<&str>,
) -> Html {
    html! {
        <div class="figure" id={id.to_string()} data-value={exact(o, id)}>
            <div class="figure-label">{ label }</div>
            // A factor's × follows its number as the formula writes it (9×), other units after a space.
            <div class="figure-value"><span class="value">{ value }</span>if unit != "×" {{" "}}<span class="unit">{ unit }</span></div>
            <code class="formula">{ formula }</code>
            if let Some(n) = note { <p class="note">{ n }</p> }
        </div>
    }
}

#[component]
fn Results(props: &ResultsProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let o = &props.output;
    let i = &props.input;
    let n = card_number;
    // A product of rounded operands reads "≈" where they do not give the shown result
    // (11.57 × 3 is 34.71, the card's 34.72 being 11.574… × 3).
    let shown = |x: f64| crate::float::parse_f64(&n(x).replace(',', "")).unwrap_or(x);
    let eq_as = |fmt: &dyn Fn(f64) -> String, product_of_shown: f64, result: &str| {
        if fmt(product_of_shown) == result { "=" } else { "≈" }
    };
    let eq = |product_of_shown: f64, result: &str| eq_as(&n, product_of_shown, result);
    let product = i.attempts.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" × ");
    let ceiling = format_number(crate::model::capacity::SOURCE_002_CEILING * 100.0, 1);
    let in_flight_row = |id: &str, which: T, f: &InFlight| {
        let status = match (f.saturated, f.above_ceiling) {
            (true, _) => t(T::OutSaturated).to_string(),
            (false, true) => lang.f(T::OutAboveCeiling, &[("p", &ceiling)]),
            (false, false) => t(T::OutFits).to_string(),
        };
        html! {
            // Roles spelled out: a phone shows each row as a card (`table.stack-narrow`), and a
            // table laid out as blocks would otherwise lose its semantics.
            <tr role="row" id={id.to_string()} class={classes!(f.saturated.then_some("saturated"), f.above_ceiling.then_some("above-ceiling"))} data-value={exact(o, id)}>
                <th scope="row" role="rowheader">{ t(which) }</th>
                <td role="cell" data-label="λ × W"><code>{ format!("{} × {} s", n(f.rate_per_s), format_number(f.hold_ms / 1000.0, 4)) }</code></td>
                <td role="cell" data-label={t(T::InFlightColL)} class="num-cell value">{ n(f.in_flight) }</td>
                <td role="cell" data-label={t(T::InFlightColPool)} class="num-cell">{ format_number(f64::from(i.pool_size), 0) }</td>
                <td role="cell" data-label={t(T::InFlightColShare)} class="num-cell">{ lang.percent(&format_small(f.pool_share * 100.0, 1, 2)) }</td>
                <td role="cell" data-label={t(T::InFlightColStatus)} class="status">{ status }</td>
            </tr>
        }
    };
    let worst_demand = o.degraded_after.in_flight.max(o.normal_after.in_flight);
    let mb = |x: f64| if x < 1.0 { n(x) } else { format_fixed(x, 2) };
    let payload = mb(o.payload_mb_per_s);
    let payload_eq = eq_as(&mb, shown(o.peak_rps) * shown(i.response_kib) * 1024.0 / 1e6, &payload);
    html! {
        <>
            <div class="figures">
                { figure(o, "out-avg", t(T::OutAvg), n(o.avg_rps), t(T::UnitRps),
                    format!("{} ÷ 86,400 = {}", format_number(i.requests_per_day, 2), n(o.avg_rps)), None) }
                { figure(o, "out-peak", t(T::OutPeak), n(o.peak_rps), t(T::UnitRps),
                    format!("{} × {} {} {}", n(o.avg_rps), n(i.peak_factor), eq(shown(o.avg_rps) * shown(i.peak_factor), &n(o.peak_rps)), n(o.peak_rps)), None) }
                { figure(o, "out-amplification", t(T::OutAmplification), n(o.amplification), t(T::UnitTimes),
                    format!("{} = {}×", product, n(o.amplification)), None) }
                { figure(o, "out-worst", t(T::OutWorst), n(o.worst_attempts_per_s), t(T::UnitAttemptsPerS),
                    format!("{} × {} {} {}", n(o.peak_rps), product, eq(shown(o.peak_rps) * o.amplification, &n(o.worst_attempts_per_s)), n(o.worst_attempts_per_s)), Some(t(T::OutWorstNote))) }
                { figure(o, "out-payload", t(T::OutPayload), payload.clone(), t(T::UnitMbps),
                    format!("{} × {} KiB × 1,024 B/KiB ÷ 10⁶ {payload_eq} {}", n(o.peak_rps), n(i.response_kib), payload), None) }
            </div>
            // The heading and the table in one box: what a lesson points at (and presenter mode
            // shows on its stage) is the table with its title.
            <div class="inflight-box" id="inflight-box">
            <h3>{ t(T::OutInFlight) }</h3>
            // In its own scroll box: on a phone the status words stay on one line.
            // Focusable: on a narrow screen the table scrolls sideways, and the keyboard must
            // reach what is out of view (axe: scrollable-region-focusable).
            <div class="table-scroll" tabindex="0" role="region" aria-label={t(T::OutInFlight)}>
            <table class="inflight stack-narrow" id="inflight" role="table">
                <thead role="rowgroup">
                    <tr role="row">
                        <th scope="col" role="columnheader">{ t(T::InFlightColCase) }</th>
                        <th scope="col" role="columnheader">{ "λ × W" }</th>
                        <th scope="col" role="columnheader" class="num-cell">{ t(T::InFlightColL) }</th>
                        <th scope="col" role="columnheader">{ t(T::InFlightColPool) }</th>
                        <th scope="col" role="columnheader" class="num-cell">{ t(T::InFlightColShare) }</th>
                        <th scope="col" role="columnheader">{ t(T::InFlightColStatus) }</th>
                    </tr>
                </thead>
                <tbody role="rowgroup">
                    { in_flight_row("inflight-normal-before", T::InFlightNormalBefore, &o.normal_before) }
                    { in_flight_row("inflight-normal-after", T::InFlightNormalAfter, &o.normal_after) }
                    { in_flight_row("inflight-degraded-before", T::InFlightDegradedBefore, &o.degraded_before) }
                    { in_flight_row("inflight-degraded-after", T::InFlightDegradedAfter, &o.degraded_after) }
                </tbody>
            </table>
            </div>
            <p class="note" id="inflight-note">{ lang.f(T::OutInFlightNote, &[("p", &ceiling)]) }</p>
            </div>
            <p class="note" id="calc-capacity-link">
                { t(T::CalcCapacityLead) }{ t(T::LabelSep) }
                <a href={format!("?page=queue&preset=source-002&lang={}", lang.code())}>{ t(T::CalcCapacityLink) }</a>
            </p>
            if o.any_saturated {
                <div class="warning" role="status" id="saturation-warning">
                    <strong>{ t(T::SaturationTitle) }</strong>
                    <p>{ lang.f(T::SaturationExplain, &[
                        ("demand", &n(worst_demand)),
                        ("pool", &format_number(f64::from(i.pool_size), 0)),
                    ]) }</p>
                </div>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ChainPictureProps {
    lang: Lang,
    output: CalcOutput,
    attempts: Vec<u32>,
}

/// A level's name in the chain pictures: the entry is layer 1, whose attempts the first
/// knob sets; the last is the downstream service.
fn level_label(lang: Lang, i: usize, last: usize) -> String {
    if i == 0 {
        format!("{} · {}", lang.t(T::ChainEntry), lang.f(T::ChainLayer, &[("n", "1")]))
    } else if i == last {
        lang.t(T::ChainDownstream).to_string()
    } else {
        lang.f(T::ChainLayer, &[("n", &(i + 1).to_string())])
    }
}

/// Bars per level, log-scaled, with "×n" on each hop.
#[component]
fn ChainPicture(props: &ChainPictureProps) -> Html {
    let lang = props.lang;
    let rates = &props.output.rate_per_level;
    // Drawn for the width it has, at most 760 px (wider, it scales up), so that its text
    // keeps the style sheet's 11–13 px: a 760-wide drawing in a tablet's column had drawn
    // it at 7 px. Each level keeps 110 px for its label; fewer, and it scrolls sideways.
    let holder = use_node_ref();
    let room = crate::ui::browser::use_width(&holder, 760.0);
    let (h, pad) = (260.0, 28.0);
    let w = room.min(760.0).max((2.0 * pad + 110.0 * rates.len() as f64).min(760.0));
    let bars = chain_bars(rates, w, h - 40.0, pad);
    let last = bars.len().saturating_sub(1);
    let label = |i: usize| level_label(lang, i, last);
    // A value wider than the space between two bars (eight layers of ten tries reach 18
    // digits) is squeezed into it rather than drawn over its neighbours: 13 px bold.
    let pitch = bars.get(1).zip(bars.first()).map_or(w, |(b, a)| b.x - a.x) - 6.0;
    let items: Html = bars
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let cx = b.x + b.width / 2.0;
            let value = card_number(b.value);
            let squeezed = crate::plot::palette::squeeze(&value, 13.0, pitch);
            let hop = (i > 0).then(|| {
                let prev = &bars[i - 1];
                let x0 = prev.x + prev.width + 4.0;
                let x1 = b.x - 4.0;
                let y = h - 40.0 - pad - 10.0;
                html! {
                    <g class="hop">
                        <line x1={x0.to_string()} y1={y.to_string()} x2={(x1 - 6.0).to_string()} y2={y.to_string()} />
                        <path d={format!("M{},{} l-8,-5 v10 z", x1, y)} />
                        <text x={((x0 + x1) / 2.0).to_string()} y={(y - 8.0).to_string()} text-anchor="middle">
                            { format!("×{}", props.attempts.get(i - 1).copied().unwrap_or(1)) }
                        </text>
                    </g>
                }
            });
            html! {
                <g class={classes!("level", (i == last).then_some("downstream"))}>
                    { for hop }
                    <rect x={b.x.to_string()} y={b.y.to_string()} width={b.width.to_string()} height={b.height.to_string()} rx="4" />
                    <text class="bar-value" x={cx.to_string()} y={(b.y - 6.0).to_string()} text-anchor="middle"
                        textLength={squeezed.clone()} lengthAdjust={squeezed.map(|_| "spacingAndGlyphs")}>
                        // As exact as the cards (34.72, not 35): the caption says they are.
                        { value }
                    </text>
                    <text class="bar-label" x={cx.to_string()} y={(h - 22.0).to_string()} text-anchor="middle">{ label(i) }</text>
                    <text class="bar-unit" x={cx.to_string()} y={(h - 6.0).to_string()} text-anchor="middle">
                        { if i == 0 { lang.t(T::UnitRps) } else { lang.t(T::UnitAttemptsPerS) } }
                    </text>
                </g>
            }
        })
        .collect();
    html! {
        // Its width attribute is its least width (the style sheet's `min-width: 100%` makes it
        // the holder's when that is wider): the page's policy allows no style attributes.
        // Focusable while it scrolls, for the keyboard.
        <div class="fig-scroll" id="calc-chain" ref={holder} tabindex={(w > room + 0.5).then_some("0")}
            role={(w > room + 0.5).then_some("region")} aria-label={(w > room + 0.5).then(|| lang.t(T::CalcChain))}>
            <svg class="chain-picture" viewBox={format!("0 0 {w} {h}")} width={w.to_string()} role="img" aria-label={lang.t(T::ChainPictureLabel)}>
                <title>{ lang.t(T::ChainPictureLabel) }</title>
                { items }
            </svg>
        </div>
    }
}

/// The chain picture on a phone: one row a level, top to bottom, each bar as long as the
/// wide picture's is tall (the same log scale), its value after it, and "×n" on the arrow
/// between two rows. A phone's width holds it at the page's own text size, where the wide
/// picture had to scroll sideways (three levels of bars at 13 px need 620 px).
#[component]
fn ChainRows(props: &ChainPictureProps) -> Html {
    let lang = props.lang;
    let rates = &props.output.rate_per_level;
    // 300 units: a phone's panel (≈ 290 px at 390 px) draws them at about their own size.
    // Bars from x = 54 (the arrows' column and their "×10" to their left), at most 132
    // long, which leaves 104 units for the longest bar's value.
    let (w, row, x0, longest) = (300.0, 50.0, 54.0, 132.0);
    let lengths = chain_bars(rates, 100.0, longest, 0.0);
    let last = lengths.len().saturating_sub(1);
    let h = row * lengths.len() as f64 + 6.0;
    let items: Html = lengths
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let top = 4.0 + row * i as f64;
            let (bar_y, bar_h) = (top + 21.0, 18.0);
            let value = card_number(b.value);
            let vx = x0 + b.height + 6.0;
            let squeezed = crate::plot::palette::squeeze(&value, 13.0, w - 4.0 - vx);
            let unit = if i == 0 { lang.t(T::UnitRps) } else { lang.t(T::UnitAttemptsPerS) };
            let hop = (i > 0).then(|| {
                // From the row above's bar to this one's, in the arrows' column.
                let (y0, y1) = (bar_y - row + bar_h, bar_y - 2.0);
                html! {
                    <g class="hop">
                        <line x1="14" y1={y0.to_string()} x2="14" y2={(y1 - 6.0).to_string()} />
                        <path d={format!("M14,{y1} l-5,-8 h10 z")} />
                        <text x="20" y={((y0 + y1) / 2.0 + 4.0).to_string()}>
                            { format!("×{}", props.attempts.get(i - 1).copied().unwrap_or(1)) }
                        </text>
                    </g>
                }
            });
            html! {
                <g class={classes!("level", (i == last).then_some("downstream"))}>
                    { for hop }
                    <text class="bar-label" x={x0.to_string()} y={(top + 14.0).to_string()}>
                        { level_label(lang, i, last) }<tspan class="bar-unit">{ format!(" · {unit}") }</tspan>
                    </text>
                    <rect x={x0.to_string()} y={bar_y.to_string()} width={b.height.max(0.0).to_string()} height={bar_h.to_string()} rx="4" />
                    <text class="bar-value" x={vx.to_string()} y={(bar_y + 14.0).to_string()}
                        textLength={squeezed.clone()} lengthAdjust={squeezed.map(|_| "spacingAndGlyphs")}>
                        { value }
                    </text>
                </g>
            }
        })
        .collect();
    html! {
        <svg class="chain-rows" viewBox={format!("0 0 {w} {h}")} role="img" aria-label={lang.t(T::ChainPictureLabel)}>
            <title>{ lang.t(T::ChainPictureLabel) }</title>
            { items }
        </svg>
    }
}
