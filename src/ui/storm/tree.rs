//! The attempt tree of one request (`model::tree`), drawn to scale in time: a row per
//! call, indented by depth, with its wait and work, how it ended, the caller's backoffs and
//! timeouts, and a marker where a branch stopped with the reason. Finder buttons pick a
//! failed, degraded, slowest or cut request from the run's examples; any request can be
//! asked for by number (the run then traces it whole).

use crate::i18n::{Lang, T, format_number};
use crate::model::tree::{AttemptTree, StopCause};
use crate::plot::{Linear, nice_ticks};
use crate::report::{CallResult, HopKind, MarkKind, Refusal, Report, Trace};
use crate::ui::charts::ReportRef;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Most rows drawn; a bigger tree asks the learner to collapse a hop.
const MAX_ROWS: usize = 300;
const W: f64 = 640.0;
const LABEL_W: f64 = 170.0;
const ROW_H: f64 = 18.0;
const TOP: f64 = 18.0;
const AXIS_H: f64 = 24.0;

#[derive(Properties, PartialEq)]
pub struct TreeProps {
    pub lang: Lang,
    pub report: ReportRef,
    /// The request asked for by number, if any.
    pub request: Option<u64>,
    /// Otherwise: the index of the sampled trace on show in the timeline.
    pub sampled: usize,
    /// Why the typed request number was refused, if it was.
    #[prop_or_default]
    pub error: Option<String>,
    /// Asks for a request by number ("" for the sampled one).
    pub onpick: Callback<String>,
    /// Compare mode's side B: the same request in side B's run, drawn without the finder
    /// (side A's chooses for both), its ids ending in `-b`.
    #[prop_or_default]
    pub side_b: bool,
    /// Compare mode: both sides' trees drawn on this time span (ms), the longer of the two,
    /// so that their bars compare.
    #[prop_or_default]
    pub span_ms: Option<f64>,
}

/// A call's result in words.
pub fn result_text(lang: Lang, r: CallResult) -> &'static str {
    lang.t(match r {
        CallResult::Ok => T::ResultOk,
        CallResult::Timeout => T::ResultTimeout,
        CallResult::Error => T::ResultError,
        CallResult::Overload => T::ResultOverload,
        CallResult::ClientError => T::ResultClientError,
        CallResult::BreakerRejected => T::ResultBreaker,
        CallResult::BulkheadRejected => T::ResultBulkhead,
        CallResult::BudgetExhausted => T::ResultBudget,
        CallResult::RetryBudgetDenied => T::ResultRetryBudget,
        CallResult::Cancelled => T::ResultCancelled,
    })
}

/// A call's result in words, saying when it ended after its caller had stopped waiting (a
/// timed-out caller's work answered "ok" to nobody).
pub fn span_text(lang: Lang, r: CallResult, abandoned: bool) -> String {
    match (abandoned, r) {
        (false, _) => result_text(lang, r).to_string(),
        (true, CallResult::Ok) => lang.t(T::SpanAbandonedOk).to_string(),
        (true, _) => lang.f(T::SpanAbandoned, &[("result", result_text(lang, r))]),
    }
}

/// A caller-side event in words, in the attempt tree's words for the same causes.
pub fn mark_text(lang: Lang, kind: MarkKind) -> String {
    let fallback = |which: T| lang.f(T::TreeFallback, &[("which", lang.t(which))]);
    match kind {
        MarkKind::Backoff => lang.t(T::LegendBackoff).into(),
        MarkKind::Timeout => lang.t(T::ResultTimeout).into(),
        MarkKind::BudgetExhausted => stop_text(lang, StopCause::Deadline).into(),
        MarkKind::RetryBudgetDenied => stop_text(lang, StopCause::RetryBudget).into(),
        MarkKind::BreakerRejected => lang.t(T::ResultBreaker).into(),
        MarkKind::BulkheadRejected => lang.t(T::ResultBulkhead).into(),
        MarkKind::FallbackStale => fallback(T::TreeFallbackStale),
        MarkKind::FallbackUnavailable => fallback(T::TreeFallbackUnavailable),
        MarkKind::AttemptsExhausted => stop_text(lang, StopCause::AttemptsExhausted).into(),
        MarkKind::NotRetryable => stop_text(lang, StopCause::NotRetryable).into(),
    }
}

fn refusal_text(lang: Lang, r: Refusal) -> &'static str {
    lang.t(match r {
        Refusal::RateLimit => T::RefusalRateLimit,
        Refusal::ConcurrencyLimit => T::RefusalConcurrency,
        Refusal::CostExceedsCapacity => T::RefusalCost,
        Refusal::QueueFull => T::RefusalQueueFull,
        Refusal::QueueTimeout => T::RefusalQueueTimeout,
    })
}

/// Why a branch stopped, in words.
pub fn stop_text(lang: Lang, c: StopCause) -> &'static str {
    lang.t(match c {
        StopCause::Deadline => T::StopDeadline,
        StopCause::RetryBudget => T::StopRetryBudget,
        StopCause::BreakerOpen => T::StopBreaker,
        StopCause::BulkheadFull => T::StopBulkhead,
        StopCause::AttemptsExhausted => T::StopAttempts,
        StopCause::NotRetryable => T::StopNotRetryable,
    })
}

/// The trace the view shows: the one asked for, else the sampled one.
fn chosen(r: &Report, request: Option<u64>, sampled: usize) -> Option<&Trace> {
    match request {
        Some(n) => r.traces.iter().find(|t| t.request == n),
        None => r.traces.get(sampled.min(r.traces.len().saturating_sub(1))),
    }
}

/// The finder buttons: (id, label, the example's request number).
fn finders(r: &Report) -> [(&'static str, T, Option<u64>); 9] {
    let e = &r.examples;
    let c = &e.by_cause;
    [
        ("failed", T::TreeFindFailed, e.failed),
        ("degraded", T::TreeFindDegraded, e.degraded),
        ("rejected", T::TreeFindRejected, e.rejected),
        ("slowest", T::TreeFindSlowest, e.slowest),
        ("breaker", T::TreeFindBreaker, c.breaker_rejected),
        ("deadline", T::TreeFindDeadline, c.budget_exhausted),
        ("retry-budget", T::TreeFindRetryBudget, c.retry_budget_denied),
        ("bulkhead", T::TreeFindBulkhead, c.bulkhead_rejected),
        ("timeout", T::TreeFindTimeout, c.timeout),
    ]
}

#[component]
pub fn AttemptTreeView(props: &TreeProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let r = &props.report.0;
    let collapsed = use_state(Vec::<usize>::new);
    // Folded until opened or until a request is asked for (a drill-down: a rerun after a
    // slider move does not pay for drawing a tree nobody opened). `Some`: the learner's own
    // toggle, until the next request asked for.
    let toggled = use_state(|| None::<bool>);
    {
        let toggled = toggled.clone();
        let before = use_mut_ref(|| props.request);
        use_effect_with(props.request, move |now| {
            let was = std::mem::replace(&mut *before.borrow_mut(), *now);
            // Back from a request asked for to the sampled one ("the sampled one", an emptied
            // box): the learner is still looking, so the tree stays open.
            toggled.set((was.is_some() && now.is_none()).then_some(true));
        });
    }
    let open = toggled.unwrap_or(props.request.is_some() || props.error.is_some());
    let ontoggle = {
        let toggled = toggled.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::Element = e.target_unchecked_into();
            let now = d.has_attribute("open");
            if *toggled != Some(now) {
                toggled.set(Some(now));
            }
        })
    };
    let input = use_node_ref();
    let pick = |n: String| {
        let cb = props.onpick.clone();
        Callback::from(move |_: MouseEvent| cb.emit(n.clone()))
    };
    let buttons: Html = finders(r)
        .into_iter()
        .map(|(id, label, n)| {
            let onclick = pick(n.map(|n| n.to_string()).unwrap_or_default());
            let pressed = n.is_some() && n == props.request;
            html! {
                <button type="button" class="secondary small" id={format!("tree-find-{id}")} disabled={n.is_none()}
                    aria-pressed={pressed.to_string()} title={if n.is_none() { t(T::TreeFindNone) } else { "" }}
                    data-request={n.map(|n| n.to_string()).unwrap_or_default()} {onclick}>{ t(label) }</button>
            }
        })
        .collect();
    let show = {
        let (cb, input) = (props.onpick.clone(), input.clone());
        move || {
            if let Some(el) = input.cast::<HtmlInputElement>() {
                cb.emit(el.value());
            }
        }
    };
    let onshow = {
        let show = show.clone();
        Callback::from(move |_: MouseEvent| show())
    };
    let onkey = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            show();
        }
    });
    let value = props.request.map(|n| n.to_string()).unwrap_or_default();
    let sfx = if props.side_b { "-b" } else { "" };
    let finder = (!props.side_b).then(|| html! {
        <div class="tree-finder">
            <div class="tree-find" role="group" aria-label={t(T::TreeFind)}>
                <span class="tree-find-label">{ t(T::TreeFind) }</span>
                { buttons }
                <button type="button" class="secondary small" id="tree-find-sampled" aria-pressed={props.request.is_none().to_string()}
                    onclick={pick(String::new())}>{ t(T::TreeFindSampled) }</button>
            </div>
            <div class="tree-number">
                <label for="tree-request">{ t(T::TreeRequestLabel) }</label>
                <input id="tree-request" type="text" inputmode="numeric" size="8" ref={input} {value}
                    aria-describedby="tree-request-help" aria-invalid={props.error.is_some().to_string()} onkeydown={onkey} />
                <button type="button" class="small" id="tree-show" onclick={onshow}>{ t(T::TreeShow) }</button>
                <span class="help" id="tree-request-help">{ t(T::TreeRequestHelp) }</span>
                if let Some(e) = &props.error {
                    <span class="field-error" role="alert" id="tree-request-error">{ e.clone() }</span>
                }
            </div>
        </div>
    });
    let body = match chosen(r, props.request, props.sampled).filter(|_| open) {
        Some(trace) => {
            let tree = AttemptTree::of(trace);
            let toggle = {
                let collapsed = collapsed.clone();
                Callback::from(move |hop: usize| {
                    let mut c = (*collapsed).clone();
                    match c.iter().position(|&h| h == hop) {
                        Some(k) => {
                            c.remove(k);
                        }
                        None => c.push(hop),
                    }
                    collapsed.set(c);
                })
            };
            draw(lang, r, &tree, &collapsed, toggle, sfx, props.span_ms)
        }
        None if !open => Html::default(),
        None => {
            let n = props.request.unwrap_or(0);
            // Grouped as every other figure on the page.
            let count = crate::i18n::format_number(r.summary.original_requests as f64, 0);
            let n = crate::i18n::format_number(n as f64, 0);
            html! { <p class="note" id={format!("tree-missing{sfx}")}>{ lang.f(T::TreeMissing, &[("n", &n), ("count", &count)]) }</p> }
        }
    };
    html! {
        <details class="tree-fold" id={format!("tree-fold{sfx}")} {open} {ontoggle}>
            <summary><h2 class="inline" id={format!("tree-title{sfx}")}>{ t(T::TreeTitle) }</h2></summary>
            if open {
                <figure class="chart tree" id={format!("chart-tree{sfx}")}>
                    <p class="help">{ t(if props.side_b { T::TreeSideBHelp } else { T::TreeHelp }) }</p>
                    { for finder }
                    { body }
                </figure>
            }
        </details>
    }
}

/// How long a tree's drawing spans from its arrival (ms): its calls, the caller's marks and
/// the deadline.
pub fn span_of(tree: &AttemptTree) -> f64 {
    tree.nodes
        .iter()
        .map(|n| n.span.end_ms)
        .chain(tree.deadline_ms)
        .chain(
            tree.nodes.iter().flat_map(|n| n.branches.iter().flat_map(|b| b.events.iter().map(|m| m.end_ms))),
        )
        .fold(tree.end_ms, f64::max)
        - tree.arrival_ms
}

/// The summary, the hop toggles, the drawing and the list of stops.
fn draw(
    lang: Lang,
    r: &Report,
    tree: &AttemptTree,
    collapsed: &[usize],
    toggle: Callback<usize>,
    sfx: &str,
    span_ms: Option<f64>,
) -> Html {
    let t = |k: T| lang.t(k);
    let name = |hop: usize| {
        r.hops.get(hop).map_or_else(|| format!("#{hop}"), |h| lang.service(&h.name).into_owned())
    };
    let leaf = r.hops.iter().position(|h| h.kind == HopKind::Leaf);
    let per_hop: Vec<String> = (0..r.hops.len())
        .filter(|&h| tree.calls_at(h) > 0)
        .map(|h| format!("{} {}", name(h), format_number(tree.calls_at(h) as f64, 0)))
        .collect();
    let outcome = crate::ui::storm::timeline::outcome_label(lang, tree.outcome);
    let summary = lang.f(
        T::TreeSummary,
        &[
            ("n", &tree.request.to_string()),
            ("outcome", outcome),
            ("ms", &format_number(tree.end_ms - tree.arrival_ms, 2)),
            ("calls", &lang.count(tree.nodes.len() as f64, T::UnitCalls)),
            ("per_hop", &per_hop.join(" · ")),
        ],
    );
    let all_rows = tree.rows(collapsed);
    let rows = &all_rows[..all_rows.len().min(MAX_ROWS)];
    let t0 = tree.arrival_ms;
    let span = span_ms.map_or(span_of(tree), |s| s.max(span_of(tree)));
    let xs = Linear::new((0.0, span.max(1e-3)), (LABEL_W, W - 12.0));
    let h = TOP + ROW_H * rows.len() as f64 + AXIS_H;
    let row_of = |node: usize| rows.iter().position(|&i| i == node);
    let mut bars = Vec::with_capacity(rows.len());
    let mut marks = Vec::new();
    // Timeouts' ×, drawn under the other marks: a branch's stop, where its last try timed out,
    // covers the middle of the × and leaves its arms in view.
    let mut crosses = Vec::new();
    for (k, &i) in rows.iter().enumerate() {
        let n = &tree.nodes[i];
        let s = &n.span;
        let y = TOP + k as f64 * ROW_H;
        let x0 = xs.map(s.start_ms - t0);
        let x1 = xs.map(s.end_ms - t0).max(x0 + 1.5);
        let xw = s.work_ms.map(|w| xs.map(w - t0));
        let mut what = span_text(lang, s.result, s.abandoned);
        if let Some(f) = s.refusal {
            what = format!("{what} · {}", refusal_text(lang, f));
        }
        let label = format!("{} · {}", name(s.hop), lang.f(T::TreeTry, &[("n", &s.attempt.to_string())]));
        let tip = format!(
            "{label} · {} → {} ms · {}",
            format_number(s.start_ms - t0, 2),
            format_number(s.end_ms - t0, 2),
            what
        );
        let wait = xw.filter(|xw| *xw > x0 + 0.5).map(|xw| {
            html! { <rect class="wait" x={x0.to_string()} y={(y + 3.0).to_string()} width={(xw - x0).to_string()} height={(ROW_H - 6.0).to_string()} /> }
        });
        let ws = xw.unwrap_or(x1).min(x1);
        bars.push(html! {
            <g class={classes!("span", format!("r-{}", s.result), s.abandoned.then_some("abandoned"), format!("hop-{}", s.hop))}
                data-hop={s.hop.to_string()} data-result={s.result.name()} data-attempt={s.attempt.to_string()}
                data-start-ms={s.start_ms.to_string()} data-end-ms={s.end_ms.to_string()}>
                <title>{ tip }</title>
                <text class="row-label" x="4" y={(y + ROW_H - 5.0).to_string()} data-depth={n.depth.to_string()}
                    transform={format!("translate({} 0)", 9.0 * n.depth as f64)}>
                    { label }
                </text>
                { for wait }
                <rect class="work" x={ws.to_string()} y={(y + 3.0).to_string()} width={(x1 - ws).max(1.5).to_string()} height={(ROW_H - 6.0).to_string()} />
            </g>
        });
        for b in &n.branches {
            let yc = y + ROW_H / 2.0;
            for m in &b.events {
                let (a, z) = (xs.map(m.start_ms - t0), xs.map(m.end_ms - t0));
                match m.kind {
                    MarkKind::Backoff => marks.push(html! {
                        <line class="mark backoff" x1={a.to_string()} x2={z.to_string()} y1={yc.to_string()} y2={yc.to_string()} />
                    }),
                    MarkKind::Timeout => crosses.push(html! {
                        <text class="mark timeout" x={z.to_string()} y={(yc + 5.0).to_string()} text-anchor="middle">{ "×" }</text>
                    }),
                    _ => {}
                }
            }
            if let Some(stop) = b.stop {
                let x = xs.map(stop.at_ms - t0);
                let words = lang.f(
                    T::MarkTip,
                    &[
                        ("caller", &name(s.hop)),
                        ("callee", &name(b.callee)),
                        ("what", stop_text(lang, stop.cause)),
                    ],
                );
                marks.push(html! {
                    <g class={classes!("stop", format!("stop-{:?}", stop.cause).to_ascii_lowercase())}>
                        <title>{ words }</title>
                        <path d={format!("M{x} {} l5 -5 l5 5 l-5 5 z", yc)} transform="translate(-5 0)" />
                    </g>
                });
            }
        }
    }
    // Lines from each caller's row to its calls' rows keep the tree readable when rows of
    // one depth interleave.
    let links: Html = rows
        .iter()
        .filter_map(|&i| {
            let p = tree.nodes[i].span.parent.and_then(|id| tree.nodes.iter().position(|n| n.span.id == id))?;
            let (rp, rc) = (row_of(p)?, row_of(i)?);
            let x = xs.map(tree.nodes[i].span.start_ms - t0);
            let (y0, y1) = (TOP + rp as f64 * ROW_H + ROW_H - 3.0, TOP + rc as f64 * ROW_H + 3.0);
            Some(html! { <line class="link" x1={x.to_string()} x2={x.to_string()} y1={y0.to_string()} y2={y1.to_string()} /> })
        })
        .collect();
    let deadline = tree.deadline_ms.map(|d| {
        let x = xs.map(d - t0);
        html! {
            <g class="deadline">
                <line x1={x.to_string()} x2={x.to_string()} y1="4" y2={(h - AXIS_H + 4.0).to_string()} />
                <text x={(x - 3.0).to_string()} y="13" text-anchor="end">{ t(T::DeadlineLine) }</text>
            </g>
        }
    });
    let ticks = nice_ticks(0.0, span, 6);
    let axis: Html = ticks
        .iter()
        .map(|&v| html! { <text x={xs.map(v).to_string()} y={(h - 6.0).to_string()} text-anchor="middle">{ format_number(v, 1) }</text> })
        .collect();
    let hop_toggles: Html = (0..r.hops.len())
        .filter(|&hop| Some(hop) != leaf && tree.nodes.iter().any(|n| n.span.hop == hop && n.branches.iter().any(|b| !b.attempts.is_empty())))
        .map(|hop| {
            let on = collapsed.contains(&hop);
            let cb = toggle.clone();
            html! {
                <button type="button" class="secondary small" id={format!("tree-collapse-{hop}{sfx}")} aria-pressed={on.to_string()}
                    title={t(T::TreeCollapseHelp)} onclick={Callback::from(move |_: MouseEvent| cb.emit(hop))}>
                    { format!("{} {}", t(T::TreeCollapse), name(hop)) }
                </button>
            }
        })
        .collect();
    let stops: Vec<Html> = tree
        .branches()
        .filter_map(|(caller, b)| {
            let stop = b.stop?;
            let c = &tree.nodes[caller].span;
            let line = lang.f(
                T::TreeStopLine,
                &[
                    ("caller", &name(c.hop)),
                    ("callee", &name(b.callee)),
                    ("ms", &format_number(stop.at_ms - t0, 2)),
                    ("tries", &match b.attempts.len() {
                        1 => t(T::TreeOneTry).to_string(),
                        n => lang.f(T::TreeTries, &[("n", &n.to_string())]),
                    }),
                    ("cause", stop_text(lang, stop.cause)),
                ],
            );
            let fallback = b.fallback.map(|f| {
                let which = t(if f == MarkKind::FallbackStale { T::TreeFallbackStale } else { T::TreeFallbackUnavailable });
                format!(" — {}", lang.f(T::TreeFallback, &[("which", which)]))
            });
            Some(html! {
                <li data-cause={format!("{:?}", stop.cause)} data-callee={b.callee.to_string()} data-tries={b.attempts.len().to_string()}>
                    { line }{ fallback.unwrap_or_default() }
                </li>
            })
        })
        .collect();
    let leaf_calls = leaf.map_or(0, |l| tree.calls_at(l));
    html! {
        <>
            <p class="tree-summary" id={format!("tree-summary{sfx}")} data-request={tree.request.to_string()} data-calls={tree.nodes.len().to_string()}
                data-leaf-calls={leaf_calls.to_string()} data-outcome={tree.outcome.name()} data-span-ms={span.to_string()}>{ summary.clone() }</p>
            <div class="tree-collapse" role="group">{ hop_toggles }</div>
            if all_rows.len() > rows.len() {
                <p class="note">{ lang.f(T::TreeRowsCapped, &[("shown", &rows.len().to_string()), ("total", &all_rows.len().to_string())]) }</p>
            }
            // Named by its side's heading in compare mode too, so the two sides' regions differ.
            <div class="tree-scroll" tabindex="0" role="region"
                aria-labelledby={format!("lower-title-{} tree-title{sfx}", if sfx.is_empty() { "a" } else { "b" })}>
                <svg viewBox={format!("0 0 {W} {h}")} role="img" aria-label={summary.clone()}>
                    { links }
                    { bars }
                    { crosses }
                    { marks }
                    { for deadline }
                    <g class="axis x">{ axis }</g>
                </svg>
            </div>
            <p class="legend">
                <span class="legend-item"><span class="swatch work-swatch" />{ t(T::ResultOk) }</span>
                <span class="legend-item"><span class="swatch fail-swatch" />{ t(T::ResultError) }{ " / " }{ t(T::ResultTimeout) }</span>
                <span class="legend-item"><span class="swatch rej-swatch" />{ t(T::ResultOverload) }{ " / " }{ t(T::ResultClientError) }</span>
                <span class="legend-item"><span class="swatch warn-swatch" />{ t(T::ResultBudget) }{ " / " }{ t(T::ResultCancelled) }</span>
                <span class="legend-item"><span class="swatch wait-swatch" />{ t(T::LegendWait) }</span>
                <span class="legend-item"><span class="swatch abandoned-swatch" />{ t(T::LegendAbandoned) }</span>
                <span class="legend-item"><span class="swatch backoff-swatch" />{ t(T::LegendBackoff) }</span>
                <span class="legend-item">{ "× " }{ t(T::LegendTimeout) }</span>
                <span class="legend-item"><span class="swatch stop-swatch" />{ t(T::TreeLegendStop) }</span>
                <span class="legend-item">{ t(T::TreeAxis) }</span>
            </p>
            if tree.dropped > 0 {
                <p class="note">{ lang.f(T::TreeDropped, &[("n", &tree.dropped.to_string())]) }</p>
            }
            <h3 class="tree-stops-title">{ t(T::TreeStopsTitle) }</h3>
            if stops.is_empty() {
                <p class="note" id={format!("tree-stops-none{sfx}")}>{ t(T::TreeNoStops) }</p>
            } else {
                <ol class="tree-stops" id={format!("tree-stops{sfx}")}>{ for stops }</ol>
            }
        </>
    }
}
