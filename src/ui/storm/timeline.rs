//! One sampled request, attempt by attempt, like source 000's sequence diagram: a lane per
//! hop, the wait for a worker, the work, abandoned work, backoffs, timeouts and the
//! deadline.

use crate::i18n::{Lang, T, format_number};
use crate::plot::Linear;
use crate::plot::storm::timeline;
use crate::report::{CallResult, MarkKind, Report, RequestOutcome};
use crate::ui::storm::tree::{mark_text, span_text};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub lang: Lang,
    pub report: crate::ui::charts::ReportRef,
    /// Index into the report's traces.
    pub index: usize,
    pub onselect: Callback<usize>,
    /// Asks for the attempt tree of the request shown (its number); none: no button.
    #[prop_or_default]
    pub ontree: Option<Callback<u64>>,
    /// Appended to element ids, so that compare mode's two timelines keep unique ids.
    #[prop_or_default]
    pub id_suffix: &'static str,
}

/// A request's outcome in words.
pub fn outcome_label(lang: Lang, o: RequestOutcome) -> &'static str {
    lang.t(match o {
        RequestOutcome::Succeeded => T::OutcomeSucceeded,
        RequestOutcome::Degraded => T::OutcomeDegraded,
        RequestOutcome::Failed => T::OutcomeFailed,
        RequestOutcome::Rejected => T::OutcomeRejected,
        RequestOutcome::Unfinished => T::OutcomeUnfinished,
    })
}

fn lanes(lang: Lang, r: &Report) -> Vec<String> {
    r.hops.iter().map(|h| lang.service(&h.name).into_owned()).collect()
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    // Drawn as wide as its figure, like the time charts: on a phone or in compare mode's
    // halves its lanes' names keep their size and the whole request is in view.
    let figure = use_node_ref();
    let width = crate::ui::charts::use_chart_width(&figure);
    let lang = props.lang;
    let sfx = props.id_suffix;
    let r = &props.report.0;
    if r.traces.is_empty() {
        return html! { <p class="empty">{ lang.t(T::NoData) }</p> };
    }
    let i = props.index.min(r.traces.len() - 1);
    let t = &r.traces[i];
    let (bars, span) = timeline(t);
    let names = lanes(lang, r);
    let lane_h = 26.0;
    let w = width.w;
    let ml = 110.0;
    let h = 30.0 + lane_h * names.len() as f64 + 24.0;
    let xs = Linear::new((0.0, span), (ml, w - 12.0));
    let y_of = |lane: usize| 18.0 + lane as f64 * lane_h;
    let lanes_html: Html = names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let y = y_of(k);
            html! {
                <g class="lane">
                    <line x1={ml.to_string()} x2={(w - 12.0).to_string()} y1={(y + lane_h / 2.0).to_string()} y2={(y + lane_h / 2.0).to_string()} />
                    <text x={(ml - 6.0).to_string()} y={(y + lane_h / 2.0 + 4.0).to_string()} text-anchor="end">{ n }</text>
                </g>
            }
        })
        .collect();
    let bars_html: Html = bars
        .iter()
        .map(|b| {
            let y = y_of(b.lane) + 5.0;
            let x0 = xs.map(b.start);
            let xw = b.work.map(|w| xs.map(w));
            let x1 = xs.map(b.end).max(x0 + 1.5);
            let wait = xw.filter(|xw| *xw > x0 + 0.5).map(|xw| {
                html! { <rect class="wait" x={x0.to_string()} y={y.to_string()} width={(xw - x0).to_string()} height={(lane_h - 10.0).to_string()} /> }
            });
            let ws = xw.unwrap_or(x1);
            html! {
                <g class={classes!("span", format!("r-{}", b.result), b.abandoned.then_some("abandoned"))}>
                    <title>{ lang.f(T::SpanTip, &[
                        ("n", &b.attempt.to_string()),
                        ("from", &format_number(b.start, 2)),
                        ("to", &format_number(b.end, 2)),
                        ("result", &span_text(lang, b.result, b.abandoned)),
                    ]) }</title>
                    { for wait }
                    <rect class="work" x={ws.to_string()} y={y.to_string()} width={(x1 - ws).max(1.5).to_string()} height={(lane_h - 10.0).to_string()} />
                </g>
            }
        })
        .collect();
    // Timeouts' × first: a caller mark at the same spot (the last try's timeout is where the
    // caller stops) is drawn over its middle and leaves its arms in view.
    let marks: Html = t
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Timeout)
        .chain(t.marks.iter().filter(|m| m.kind != MarkKind::Timeout))
        .map(|m| {
            let y = y_of(m.hop) + lane_h / 2.0;
            let x0 = xs.map(m.start_ms - t.arrival_ms);
            let x1 = xs.map(m.end_ms - t.arrival_ms);
            let name = |hop: usize| names.get(hop).cloned().unwrap_or_else(|| format!("#{hop}"));
            let tip = lang.f(
                T::MarkTip,
                &[("caller", &name(m.hop)), ("callee", &name(m.callee)), ("what", &mark_text(lang, m.kind))],
            );
            match m.kind {
                MarkKind::Backoff => html! { <line class="mark backoff" x1={x0.to_string()} x2={x1.to_string()} y1={y.to_string()} y2={y.to_string()} /> },
                MarkKind::Timeout => html! { <text class="mark timeout" x={x1.to_string()} y={(y + 4.0).to_string()} text-anchor="middle"><title>{ tip }</title>{ "×" }</text> },
                _ => html! { <circle class={classes!("mark", m.kind.name())} cx={x0.to_string()} cy={y.to_string()} r="4"><title>{ tip }</title></circle> },
            }
        })
        .collect();
    let deadline = t.deadline_ms.map(|d| {
        let x = xs.map(d - t.arrival_ms);
        html! {
            <g class="deadline">
                <line x1={x.to_string()} x2={x.to_string()} y1="10" y2={(h - 22.0).to_string()} />
                <text x={(x - 3.0).to_string()} y="12" text-anchor="end">{ lang.t(T::DeadlineLine) }</text>
            </g>
        }
    });
    // A tick per 80 units of plot (3–6); the unit on the last label only, and a label that
    // would meet another left out (`tick_labels`): a phone's plot is 130 units.
    let values =
        crate::plot::nice_ticks(0.0, span, ((w - ml - 12.0) / 80.0).floor().clamp(3.0, 6.0) as usize);
    let n_ticks = values.len();
    let ticks = crate::plot::tick_labels(
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let text = format_number(v, 1);
                (xs.map(v), if i + 1 == n_ticks { format!("{text} ms") } else { text })
            })
            .collect(),
        10.5,
        0.0,
        w,
        3.0,
    );
    let has = |results: &[CallResult]| bars.iter().any(|b| !b.abandoned && results.contains(&b.result));
    let n = r.traces.len();
    let prev = {
        let cb = props.onselect.clone();
        Callback::from(move |_: MouseEvent| cb.emit((i + n - 1) % n))
    };
    let next = {
        let cb = props.onselect.clone();
        Callback::from(move |_: MouseEvent| cb.emit((i + 1) % n))
    };
    let label = lang.f(
        T::TraceLabel,
        &[
            ("n", &t.request.to_string()),
            ("outcome", outcome_label(lang, t.outcome)),
            ("ms", &format_number(t.end_ms - t.arrival_ms, 2)),
        ],
    );
    html! {
        <figure class={classes!("chart", "timeline", width.fits.then_some("fits"))} id={format!("chart-timeline{sfx}")} ref={figure}>
            <figcaption>
                { lang.t(T::ChartTimeline) }
                <span class="trace-nav">
                    // The arrows stay either side of the label, which wraps between them.
                    <span class="trace-step">
                        <button type="button" class="secondary small" id={format!("trace-prev{sfx}")} aria-label={lang.t(T::TracePrev)} title={lang.t(T::TracePrev)} onclick={prev}>{ "‹" }</button>
                        <span id={format!("trace-label{sfx}")}>{ label.clone() }</span>
                        <button type="button" class="secondary small" id={format!("trace-next{sfx}")} aria-label={lang.t(T::TraceNext)} title={lang.t(T::TraceNext)} onclick={next}>{ "›" }</button>
                    </span>
                    if let Some(cb) = props.ontree.clone() {
                        <button type="button" class="secondary small" id={format!("trace-tree{sfx}")} data-request={t.request.to_string()}
                            title={lang.t(T::TraceTreeHelp)} onclick={let n = t.request; Callback::from(move |_: MouseEvent| cb.emit(n))}>{ lang.t(T::TraceTree) }</button>
                    }
                </span>
            </figcaption>
            <svg viewBox={format!("0 0 {w} {h}")} role="img" aria-label={label}>
                { lanes_html }
                { bars_html }
                { marks }
                { for deadline }
                <g class="axis x">
                    { for ticks.into_iter().map(|(x, text, anchor)| html! {
                        <text x={x.to_string()} y={(h - 6.0).to_string()} text-anchor={anchor}>{ text }</text>
                    }) }
                </g>
            </svg>
            <p class="legend">
                <span class="legend-item"><span class="swatch work-swatch" />{ lang.t(T::LegendWork) }</span>
                <span class="legend-item"><span class="swatch wait-swatch" />{ lang.t(T::LegendWait) }</span>
                <span class="legend-item"><span class="swatch fail-swatch" />{ lang.t(T::ResultError) }{ " / " }{ lang.t(T::ResultTimeout) }</span>
                // The other colours only when this request has such work, to keep the legend short.
                if has(&[CallResult::Overload, CallResult::ClientError]) {
                    <span class="legend-item"><span class="swatch rej-swatch" />{ lang.t(T::ResultOverload) }{ " / " }{ lang.t(T::ResultClientError) }</span>
                }
                if has(&[CallResult::BudgetExhausted, CallResult::Cancelled]) {
                    <span class="legend-item"><span class="swatch warn-swatch" />{ lang.t(T::ResultBudget) }{ " / " }{ lang.t(T::ResultCancelled) }</span>
                }
                <span class="legend-item"><span class="swatch abandoned-swatch" />{ lang.t(T::LegendAbandoned) }</span>
                <span class="legend-item"><span class="swatch backoff-swatch" />{ lang.t(T::LegendBackoff) }</span>
                <span class="legend-item">{ "× " }{ lang.t(T::LegendTimeout) }</span>
                <span class="legend-item"><span class="swatch caller-mark-swatch" />{ lang.t(T::LegendCallerMark) }</span>
            </p>
        </figure>
    }
}
