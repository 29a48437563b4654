//! One run's diagram and charts at the playhead, and compare mode's two ways of putting
//! A beside B: side by side on shared axes, or overlaid on the same charts.

use super::diagram::Diagram;
use crate::i18n::{Lang, T, format_number};
use crate::model::slo::Slo;
use crate::plot::palette::hop_class;
use crate::plot::storm::{Axes, Regrid, per_second, regrid, run_end_ms};
use crate::report::{HopKind, Report};
use crate::scenario::Scenario;
use crate::ui::charts::{Line, Lines, PlayheadAt, ReportRef, StackChart, TimeChart};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RunViewProps {
    pub lang: Lang,
    pub report: ReportRef,
    pub scenario: Scenario,
    pub data: ChartRef,
    /// Axes shared with the other side in compare mode.
    #[prop_or_default]
    pub axes: Option<Axes>,
    /// A lesson step's y scales, held from the step's earlier runs (see `Axes::held`), so
    /// that a knob that lowers a line shows it lower, not redrawn to the same height.
    #[prop_or_default]
    pub held: Option<Axes>,
    pub at_ms: f64,
    pub side: &'static str,
    /// The hop whose series stand out in every chart (the others fade).
    #[prop_or_default]
    pub focus: Option<usize>,
    /// Picks (or, picked again, drops) the hop to stand out.
    #[prop_or_default]
    pub onfocus: Callback<usize>,
}

/// A run's chart data behind an `Rc`; equal when it is the same data.
#[derive(Clone)]
pub struct ChartRef(pub Rc<ChartData>);

impl PartialEq for ChartRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

fn top(lines: &Lines) -> f64 {
    lines.0.iter().flat_map(|l| l.values.iter().copied()).fold(0.0, f64::max)
}

fn stacked_top(lines: &Lines) -> f64 {
    let n = lines.0.iter().map(|l| l.values.len()).max().unwrap_or(0);
    (0..n)
        .map(|i| lines.0.iter().map(|l| l.values.get(i).copied().unwrap_or(0.0)).sum::<f64>())
        .fold(0.0, f64::max)
}

impl Axes {
    /// One run's axes: each chart's own scale.
    pub fn of(r: &Report, d: &ChartData) -> Axes {
        Axes {
            end_ms: run_end_ms(r),
            load: top(&d.load),
            in_flight: top(&d.in_flight).max(d.limit.unwrap_or(0.0)),
            outcomes: stacked_top(&d.outcomes),
            breakers: top(&d.breakers),
            budgets: top(&d.budgets),
            error_budget: top(&d.error_budget),
        }
    }

    /// Axes wide and tall enough for both runs.
    pub fn shared(a: (&Report, &ChartData), b: (&Report, &ChartData)) -> Axes {
        let (x, y) = (Axes::of(a.0, a.1), Axes::of(b.0, b.1));
        // The in-flight charts share a scale only when both show the same pool: big-promo's
        // shared pool of 8 with 30,000 queued beside the protected side's order-core pool of
        // 4 drew B's pool as a flat line at 0. (0: each chart its own scale.)
        let same_pool = a.1.watched == b.1.watched;
        Axes {
            end_ms: x.end_ms.max(y.end_ms),
            load: x.load.max(y.load),
            in_flight: if same_pool { x.in_flight.max(y.in_flight) } else { 0.0 },
            outcomes: x.outcomes.max(y.outcomes),
            breakers: x.breakers.max(y.breakers),
            budgets: x.budgets.max(y.budgets),
            error_budget: x.error_budget.max(y.error_budget),
        }
    }
}

/// Whose workers a run's in-flight chart shows: a layer's shared pool, or a hop's pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watched {
    SharedPool(usize),
    Pool(usize),
}

/// Chart data of one run, computed once per report.
pub struct ChartData {
    load: Lines,
    /// The in-flight chart's title.
    focus_title: String,
    /// Whose workers the in-flight chart shows.
    pub watched: Watched,
    in_flight: Lines,
    limit: Option<f64>,
    outcomes: Lines,
    breakers: Lines,
    budgets: Lines,
    /// Over the outcomes: what must be answered per second to meet the SLO.
    slo_target: Line,
    /// The SLO's error budget spent so far, percent, drawn up to [`ERROR_BUDGET_SCALE`].
    error_budget: Lines,
    /// The most of the budget the run spent (percent), if beyond the scale.
    error_budget_off_scale: Option<f64>,
}

/// How much of the error budget the chart draws (percent): four whole budgets, so that the
/// 100 % line stays readable when a run spends the budget hundreds of times over.
pub const ERROR_BUDGET_SCALE: f64 = 400.0;

pub fn chart_data(lang: Lang, r: &Report, slo: Slo) -> ChartData {
    let s = &r.series;
    let mut load = vec![Line {
        name: lang.t(T::SeriesOffered).to_string(),
        class: "c-offered".into(),
        values: per_second(&s.offered, s.bucket_ms),
    }];
    for (i, h) in r.hops.iter().enumerate() {
        load.push(Line {
            name: lang.service(&h.name).into_owned(),
            class: format!("{} hop-line hop-{i}", hop_class(i)),
            values: per_second(&s.attempts[i], s.bucket_ms),
        });
    }
    // What to watch: a shared pool if a layer has one (where calls to every dependency
    // queue for the same threads), else the first hop with a limited pool, else the leaf.
    let leaf = r.hops.iter().position(|h| h.kind == HopKind::Leaf).unwrap_or(0);
    let pool_hop = r.hops.iter().position(|h| h.shared_pool.is_some());
    let focus_hop = r.hops.iter().position(|h| h.workers.is_some()).unwrap_or(leaf);
    let as_f64 = |v: &[i64]| v.iter().map(|&v| v as f64).collect::<Vec<_>>();
    let watched = pool_hop.map_or(Watched::Pool(focus_hop), Watched::SharedPool);
    let (busy, queue, limit, focus_title) = match pool_hop {
        Some(p) => (
            as_f64(&s.shared_pool_busy[p]),
            as_f64(&s.shared_pool_queue[p]),
            r.hops[p].shared_pool.map(|sp| f64::from(sp.size)),
            lang.f(T::ChartSharedPool, &[("hop", &lang.service(&r.hops[p].name))]),
        ),
        None => (
            as_f64(&s.in_flight[focus_hop]),
            as_f64(&s.queue[focus_hop]),
            r.hops[focus_hop].workers.map(f64::from),
            lang.f(T::ChartInFlight, &[("hop", &lang.service(&r.hops[focus_hop].name))]),
        ),
    };
    let in_flight = vec![
        Line { name: lang.t(T::SeriesBusy).to_string(), class: "c-busy".into(), values: busy },
        Line { name: lang.t(T::SeriesQueue).to_string(), class: "c-queue dash1".into(), values: queue },
    ];
    let outcomes = vec![
        Line {
            name: lang.t(T::OutcomeSucceeded).to_string(),
            class: "o-succeeded".into(),
            values: per_second(&s.succeeded, s.bucket_ms),
        },
        Line {
            name: lang.t(T::OutcomeDegraded).to_string(),
            class: "o-degraded".into(),
            values: per_second(&s.degraded, s.bucket_ms),
        },
        Line {
            name: lang.t(T::OutcomeFailed).to_string(),
            class: "o-failed".into(),
            values: per_second(&s.failed, s.bucket_ms),
        },
        Line {
            name: lang.t(T::OutcomeRejected).to_string(),
            class: "o-rejected".into(),
            values: per_second(&s.rejected, s.bucket_ms),
        },
    ];
    let mut breakers = Vec::new();
    let mut budgets = Vec::new();
    for (ci, c) in r.clients.iter().enumerate() {
        let c_name = r.client_label(lang, ci);
        if c.breaker_instances > 0 {
            breakers.push(Line {
                name: format!("{} · {}", c_name, lang.t(T::SeriesOpen)),
                class: format!("c-open hop-line hop-{}", c.callee),
                values: s.breaker_open[ci].iter().map(|&v| v as f64).collect(),
            });
            breakers.push(Line {
                name: format!("{} · {}", c_name, lang.t(T::SeriesHalfOpen)),
                class: format!("c-half hop-line hop-{}", c.callee),
                values: s.breaker_half_open[ci].iter().map(|&v| v as f64).collect(),
            });
        }
        if c.budget_max_tokens.is_some() {
            budgets.push(Line {
                name: c_name,
                class: format!("{} hop-line hop-{}", hop_class(ci), c.callee),
                values: s.budget_tokens[ci].clone(),
            });
        }
    }
    let per_s = if s.bucket_ms > 0.0 { 1000.0 / s.bucket_ms } else { 0.0 };
    let slo_target = Line {
        name: lang.t(T::SeriesSloTarget).to_string(),
        class: "c-slo".into(),
        values: slo.target_line(s).iter().map(|v| v * per_s).collect(),
    };
    // An SLO that allows no failure and got one has spent an infinite share: drawn at the
    // chart's top rather than lost.
    let spent = slo.budget_spent_over_time(&r.summary, s);
    let peak = spent.iter().copied().fold(0.0, f64::max);
    let error_budget_off_scale = (peak > ERROR_BUDGET_SCALE).then_some(peak);
    let burn = spent.into_iter().map(|v| v.min(ERROR_BUDGET_SCALE)).collect();
    let error_budget =
        vec![Line { name: lang.t(T::SeriesErrorBudget).to_string(), class: "c-fail".into(), values: burn }];
    ChartData {
        slo_target,
        error_budget: Lines::new(error_budget),
        error_budget_off_scale,
        load: Lines::new(load),
        focus_title,
        watched,
        in_flight: Lines::new(in_flight),
        limit,
        outcomes: Lines::new(outcomes),
        breakers: Lines::new(breakers),
        budgets: Lines::new(budgets),
    }
}

/// Diagram and charts of one run at the playhead.
#[component]
pub fn RunView(props: &RunViewProps) -> Html {
    let lang = props.lang;
    let r = props.report.clone();
    let data = &props.data.0;
    let rep = &r.0;
    let axes = props.axes;
    let end = axes.map_or_else(|| run_end_ms(rep), |a| a.end_ms);
    // A scale of 0 is the chart's own.
    let y = |f: fn(&Axes) -> f64| axes.as_ref().or(props.held.as_ref()).map(f).filter(|&t| t > 0.0);
    // The in-flight chart's scale: shared with the other side's when both show one pool.
    let in_flight_top = y(|a| a.in_flight).filter(|&t| t > 0.0).unwrap_or_else(|| top(&data.in_flight));
    let pool_full = data.limit.and_then(|l| {
        crate::plot::storm::hidden_full_pool(
            &data.in_flight.0[0].values,
            in_flight_top,
            l,
            rep.series.bucket_ms,
            rep.summary.end_ms,
        )
    });
    let bucket = rep.series.bucket_ms;
    let side = props.side;
    let chart = |id: &str, body: Html| {
        html! {
            <div class="chart-wrap" id={format!("{id}-{side}")}>
                { body }
            </div>
        }
    };
    let per_s = rate_unit(lang, bucket);
    // Marked along every time chart's top: the trigger the run's story starts from.
    let faults = Rc::new(
        props
            .scenario
            .faults
            .iter()
            .enumerate()
            .map(|(i, f)| (f.start_ms, f.end_ms, lang.f(T::FaultShort, &[("n", &(i + 1).to_string())])))
            .collect::<Vec<_>>(),
    );
    html! {
        <div class={classes!("run-view", props.focus.map(|h| format!("focus-hop-{h}")))}>
            // In compare mode the page draws both diagrams together, each at a legible width
            // (see `compare_diagrams`): in half a laptop's width the chain did not fit.
            if axes.is_none() {
                <div class="panel">
                    <Diagram {lang} report={r.clone()} scenario={props.scenario.clone()} at_ms={props.at_ms} side={side}
                        focus={props.focus} onfocus={props.onfocus.clone()} />
                </div>
            }
            <ContextProvider<PlayheadAt> context={PlayheadAt { at_ms: props.at_ms, faults: faults.clone() }}>
            <div class="panel charts">
                { chart("chart-load", html! {
                    <TimeChart {lang} id={format!("load-{side}")} title={lang.t(T::ChartLoad).to_string()} lines={data.load.clone()} bucket_ms={bucket} end_ms={end} y_unit={per_s.clone()} y_max={y(|a| a.load)} labels=true faults={faults.clone()} />
                }) }
                { chart("chart-inflight", html! { <>
                    <TimeChart {lang} id={format!("inflight-{side}")}
                        title={data.focus_title.clone()}
                        y_unit={lang.f(T::PeakInBucket, &[("ms", &super::diagram::bucket_ms_text(bucket))])}
                        lines={data.in_flight.clone()} bucket_ms={bucket} end_ms={end} y_max={y(|a| a.in_flight)}
                        limit={data.limit.map(|l| (l, format!("{} {}", lang.t(T::SeriesPool), format_number(l, 0))))} />
                    // A pool of 5 under a queue of 15,000 is a flat line at 0: say when it was full.
                    if let Some((from, to)) = pool_full {
                        <p class="note chart-note" id={format!("pool-full-{side}")}>
                            { lang.f(T::PoolFullNote, &[
                                ("limit", &format_number(data.limit.unwrap_or(0.0), 0)),
                                ("from", &format_number(from / 1000.0, 2)),
                                ("to", &format_number(to / 1000.0, 2)),
                                ("ms", &super::diagram::bucket_ms_text(bucket)),
                            ]) }
                        </p>
                    }
                </> }) }
                { chart("chart-outcomes", html! {
                    <StackChart {lang} id={format!("outcomes-{side}")} title={lang.t(T::ChartOutcomes).to_string()} layers={data.outcomes.clone()} bucket_ms={bucket} end_ms={end} y_unit={per_s.clone()} y_max={y(|a| a.outcomes)} target={data.slo_target.clone()} />
                }) }
                { chart("chart-error-budget", html! { <>
                    <TimeChart {lang} id={format!("error-budget-{side}")} title={lang.t(T::ChartErrorBudget).to_string()} lines={data.error_budget.clone()} bucket_ms={bucket} end_ms={end} height={120.0} y_unit={"%".to_string()} y_max={y(|a| a.error_budget)}
                        limit={Some((100.0, lang.t(T::LimitErrorBudget).to_string()))} />
                    // Inside the chart's box: a lesson that points at the chart (and the
                    // presenter's stage) shows the scale's note with it.
                    if let Some(peak) = data.error_budget_off_scale {
                        <p class="note chart-note" id={format!("error-budget-off-scale-{side}")} data-value={peak.to_string()}>
                            { lang.f(T::ErrorBudgetOffScale, &[("times", &format_number(peak / 100.0, 1)), ("peak", &format_number(peak, 0)), ("scale", &format_number(ERROR_BUDGET_SCALE, 0))]) }
                        </p>
                    }
                </> }) }
                if !data.breakers.is_empty() {
                    // The breaker's series are 0/1 steps (instances in each state): their names in
                    // the legend; written beside the lines they sat on them.
                    { chart("chart-breaker", html! {
                        <TimeChart {lang} id={format!("breaker-chart-{side}")} title={lang.t(T::ChartBreaker).to_string()} lines={data.breakers.clone()} bucket_ms={bucket} end_ms={end} height={120.0} y_max={y(|a| a.breakers)}
                            // Gauges, each bucket's most: a breaker that half-opens and opens
                            // again within one bucket is drawn open and half-open at once.
                            y_unit={lang.f(T::InstancesPeakInBucket, &[("ms", &super::diagram::bucket_ms_text(bucket))])} />
                    }) }
                }
                if !data.budgets.is_empty() {
                    { chart("chart-budget", html! {
                        <TimeChart {lang} id={format!("budget-chart-{side}")} title={lang.t(T::ChartBudget).to_string()} lines={data.budgets.clone()} bucket_ms={bucket} end_ms={end} height={120.0} y_max={y(|a| a.budgets)} labels=true faults={faults.clone()} />
                    }) }
                }
            </div>
            </ContextProvider<PlayheadAt>>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct OverlayProps {
    pub lang: Lang,
    pub a: ReportRef,
    pub b: ReportRef,
    pub at_ms: f64,
    pub end_ms: f64,
    /// Side A's short name ("A: Big promo, protected", or "A: your scenario" once changed).
    pub a_name: AttrValue,
    /// Side B's short name ("B: Lab 11, protected"), as the key to the cards names it.
    pub b_name: AttrValue,
}

/// One figure of both runs, A solid and B dashed, named by side.
fn pair(names: [&str; 2], class: &str, a: Vec<f64>, b: Vec<f64>, what: &str) -> [Line; 2] {
    let [a_name, b_name] = names;
    [
        Line { name: format!("{a_name} · {what}"), class: class.to_string(), values: a },
        Line { name: format!("{b_name} · {what}"), class: format!("{class} dash1"), values: b },
    ]
}

/// The overlay's three figures (leaf calls, answered and failed, in the system) for runs `a`
/// and `b` on the coarser of their bucket grids, with that bucket (ms).
fn overlay_lines(lang: Lang, a: &Report, b: &Report, names: [&str; 2]) -> (Lines, Lines, Lines, f64) {
    let bucket = a.series.bucket_ms.max(b.series.bucket_ms);
    let leaf = |r: &Report| r.hops.iter().position(|h| h.kind == HopKind::Leaf).unwrap_or(0);
    let sum = |x: &[u64], y: &[u64]| -> Vec<u64> { x.iter().zip(y).map(|(p, q)| p + q).collect() };
    let on = |r: &Report, v: Vec<f64>, how: Regrid| regrid(&v, r.series.bucket_ms, bucket, how);
    let rate = |r: &Report, v: &[u64]| on(r, per_second(v, r.series.bucket_ms), Regrid::Rate);
    let good = |r: &Report| rate(r, &sum(&r.series.succeeded, &r.series.degraded));
    let bad = |r: &Report| rate(r, &sum(&r.series.failed, &r.series.rejected));
    let level =
        |r: &Report| on(r, r.series.requests_in_flight.iter().map(|&v| v as f64).collect(), Regrid::Peak);
    let load = pair(
        names,
        "c-hop0",
        rate(a, &a.series.attempts[leaf(a)]),
        rate(b, &b.series.attempts[leaf(b)]),
        lang.t(T::OverlayLeafAttempts),
    );
    let mut outcomes: Vec<Line> = pair(names, "c-ok", good(a), good(b), lang.t(T::OverlayAnswered)).into();
    outcomes.extend(pair(names, "c-fail", bad(a), bad(b), lang.t(T::OverlayFailed)));
    let in_flight = pair(names, "c-hop3", level(a), level(b), lang.t(T::OverlayInSystem));
    (Lines::new(load.into()), Lines::new(outcomes), Lines::new(in_flight.into()), bucket)
}

/// Compare mode's overlay: the figures that differ between A and B on one set of charts.
#[component]
pub fn Overlay(props: &OverlayProps) -> Html {
    let lang = props.lang;
    // Both runs on one bucket grid, the coarser of theirs (each picks its own from its
    // length): the finer would give the other run more points than it has, and redrawn on
    // every frame of the playback. Made once per pair of runs, not per frame.
    let deps = (props.a.clone(), props.b.clone(), lang, props.a_name.clone(), props.b_name.clone());
    let lines =
        use_memo(deps, |(a, b, lang, a_name, b_name)| overlay_lines(*lang, &a.0, &b.0, [a_name, b_name]));
    let (load, outcomes, in_flight, bucket) = (*lines).clone();
    let per_s = rate_unit(lang, bucket);
    let end = props.end_ms;
    let chart = |id: &str, body: Html| {
        html! {
            <div class="chart-wrap" id={id.to_string()}>
                { body }
            </div>
        }
    };
    html! {
        <ContextProvider<PlayheadAt> context={PlayheadAt { at_ms: props.at_ms, faults: Rc::default() }}>
        <div class="panel charts overlay" id="overlay">
            { chart("chart-overlay-load", html! {
                <TimeChart {lang} id="overlay-load" title={lang.t(T::OverlayLoadTitle).to_string()} lines={load} bucket_ms={bucket} end_ms={end} y_unit={per_s.clone()} />
            }) }
            { chart("chart-overlay-outcomes", html! {
                <TimeChart {lang} id="overlay-outcomes" title={lang.t(T::OverlayOutcomesTitle).to_string()} lines={outcomes} bucket_ms={bucket} end_ms={end} y_unit={per_s} />
            }) }
            { chart("chart-overlay-inflight", html! {
                <TimeChart {lang} id="overlay-inflight" title={lang.t(T::OverlayInSystemTitle).to_string()} lines={in_flight} bucket_ms={bucket} end_ms={end} />
            }) }
        </div>
        </ContextProvider<PlayheadAt>>
    }
}

/// A rate chart's unit: a rate from a bucket's count (100 requests at once read 5,000/s in
/// 20 ms buckets and 20,000/s in 5 ms ones), so it says which.
fn rate_unit(lang: Lang, bucket_ms: f64) -> String {
    lang.f(T::RateInBucket, &[("ms", &super::diagram::bucket_ms_text(bucket_ms))])
}
