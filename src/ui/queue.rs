//! The queue lab (`?page=queue`): the pool's settings on the left; on the right each
//! simulated figure beside its closed form, the latency-versus-utilisation curve (closed
//! form as a line, simulated points as dots, the current setting marked), busy workers and
//! the queue over time, and source 002's capacity table with its formulas. The runs happen
//! in the Web Worker (`use_runs`), each a small bounded chain-engine run.

use super::announce::use_announcement;
use super::charts::ChartWidth;
use super::charts::{Line, Lines, TimeChart};
use super::export::{DataKind, ExportMenu};
use super::lab::{LabSettings, choice, knob, preset_picker, use_xy_width, xy_frame, xy_scales};
use super::runs::use_runs;
use crate::export::{Provenance, lab_json, series_csv};
use crate::i18n::{Lang, T, format_number};
use crate::plot::{line_path, nice_max};
use crate::report::Stopped;
use crate::state::announce::Said;
use crate::state::queue::{
    self as q, Closed, Model, QueueAction as A, QueueInput, QueueState, SWEEP_RHOS, Service, Simulated,
    simulated,
};
use crate::state::runs::{Job, RunError};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct QueueProps {
    pub lang: Lang,
    pub state: QueueState,
    pub dispatch: Callback<A>,
}

fn pct(lang: Lang, x: f64) -> String {
    lang.percent_figure(x * 100.0)
}

fn ms(_: Lang, x: f64) -> String {
    format!("{} ms", format_number(x, 2))
}

/// A figure's row: label, formula, closed form, simulated; both values carry `data-value`.
fn row(
    lang: Lang,
    id: &str,
    label: T,
    formula: String,
    closed: Option<f64>,
    sim: Option<f64>,
    f: fn(Lang, f64) -> String,
) -> Html {
    let cell = |id: String, v: Option<f64>, column: T| match v {
        Some(v) if v.is_finite() => {
            html! { <td class="value" role="cell" data-label={lang.t(column)} {id} data-value={v.to_string()}>{ f(lang, v) }</td> }
        }
        _ => html! { <td class="value" role="cell" data-label={lang.t(column)} {id}>{ "—" }</td> },
    };
    // Roles spelled out: a phone shows each row as a card (`table.stack-narrow`), and a
    // table laid out as blocks would otherwise lose its semantics.
    html! {
        <tr role="row">
            <th scope="row" role="rowheader">{ lang.t(label) }</th><td role="cell" data-label={lang.t(T::QColFormula)}><code>{ formula }</code></td>
            { cell(format!("q-{id}"), closed, T::QColClosed) }{ cell(format!("q-{id}-sim"), sim, T::QColSim) }
        </tr>
    }
}

/// Why a setting with a queue limit has no M/M/c/K forms: its arrivals or service, or (its
/// model M/M/c, which had them) a queue too long for the sum (`queueing::MMCK_MAX_STATES`).
fn why_not_mmck(lang: Lang, model: Model) -> String {
    if model == Model::Mmc {
        lang.f(
            T::QWhyMmckTooLong,
            &[("n", &format_number(f64::from(crate::model::queueing::MMCK_MAX_STATES), 0))],
        )
    } else {
        lang.t(T::QWhyNotMmck).to_string()
    }
}

/// The line's and the figures' forms, as the legend names them.
fn legend(model: Model) -> T {
    match model {
        Model::Mmck => T::QLegendBounded,
        Model::Mmc => T::QLegendExact,
        Model::Dmc => T::QLegendDmc,
        Model::AllenCunneen => T::QLegendApprox,
    }
}

/// What the first figure is called: with a queue limit it is the busy share λ(1 − P_K)/(cμ),
/// not ρ = λ/(cμ), which the capacity table gives (the overload preset: 99.6 % against 105 %).
fn rho_label(c: &Closed) -> T {
    match (c.bounded, c.pool.stable()) {
        (true, _) => T::QBusyShare,
        (false, true) => T::QRho,
        // At or above capacity λ/(cμ) passes 100 %: not a share of time busy (the run's is).
        (false, false) => T::QOfferedPerWorker,
    }
}

/// The Allen–Cunneen factor as the formula column and the note write it (× 1.332).
fn factor_text(input: &QueueInput) -> String {
    format_number(input.factor(), 3)
}

fn figures_table(lang: Lang, input: &QueueInput, c: &Closed, sim: Option<&Simulated>) -> Html {
    let p = &c.pool;
    let f = &c.figures;
    // μ below 0.005/s (a mean service time of minutes) keeps its digits: not "× 0".
    let n = |x: f64| crate::i18n::format_small(x, 2, 3);
    // The factor as the note under the table writes it (× 1.332, not × 1.33).
    let scaled = if c.exact { String::new() } else { format!(" × {}", factor_text(input)) };
    // M/M/c/K's forms with a queue limit (see `model::queueing`), else M/M/c's.
    let (k, cw) = (p.workers.saturating_add(input.queue), p.workers);
    // D/M/c's σ, which its P(wait) and wait rate come from.
    let sigma = if c.model == Model::Dmc { p.dmc_sigma() } else { None };
    let (rho, pwait, wait, l) = if c.bounded {
        (
            // Short: its numbers would make the phone's formula column six lines tall.
            "λ(1 − P_K)/(cμ)".to_string(),
            format!("P({cw} ≤ n < {k}) / (1 − P_K)"),
            "Lq / (λ(1 − P_K))".to_string(),
            "L = λ(1 − P_K) × W".to_string(),
        )
    } else if let Some(sigma) = sigma {
        (
            format!("λ/(cμ) = {}/({cw} × {})", n(p.lambda), n(p.mu())),
            format!("GI/M/c, σ = {}", format_number(sigma, 4)),
            "P(wait)/(cμ(1 − σ))".to_string(),
            "L = λW".to_string(),
        )
    } else {
        (
            format!("λ/(cμ) = {}/({cw} × {})", n(p.lambda), n(p.mu())),
            format!("C({cw}, {})", n(p.offered())),
            format!("C/(cμ − λ){scaled}"),
            "L = λW".to_string(),
        )
    };
    html! {
        <table class="lab-table figures-vs stack-narrow" id="q-figures" role="table">
            <thead role="rowgroup"><tr role="row"><th role="columnheader"><span class="sr-only">{ lang.t(T::QColFigure) }</span></th><th role="columnheader">{ lang.t(T::QColFormula) }</th><th role="columnheader">{ lang.t(T::QColClosed) }</th><th role="columnheader">{ lang.t(T::QColSim) }</th></tr></thead>
            <tbody role="rowgroup">
                // Past capacity without a limit the first row is the offered load, and the run's
                // own offered load stands beside it; the busy share, which stops at 100 %, has a
                // row of its own (99.9 % beside 125 % had read as the run contradicting λ/(cμ)).
                if rho_label(c) == T::QOfferedPerWorker {
                    { row(lang, "rho", T::QOfferedPerWorker, rho, Some(f.rho), sim.map(|s| input.offered_seen(s)), pct) }
                    { row(lang, "busy", T::QBusyShare, "min(1, λ/(cμ))".to_string(), Some(f.rho.min(1.0)), sim.map(|s| s.rho), pct) }
                } else {
                    { row(lang, "rho", rho_label(c), rho, Some(f.rho), sim.map(|s| s.rho), pct) }
                }
                { row(lang, "pwait", match c.model { Model::Mmck => T::QPWaitBounded, Model::Dmc => T::QPWaitTakacs, _ => T::QPWait }, pwait, f.p_wait, sim.map(|s| s.p_wait), pct) }
                { row(lang, "wait", T::QWait, wait, f.wait_ms, sim.map(|s| s.wait_ms), ms) }
                { row(lang, "time", T::QTime, format!("Wq + 1/μ = Wq + {}", ms(lang, p.service_ms)), f.time_ms, sim.map(|s| s.time_ms), ms) }
                { row(lang, "p99", T::QP99, if c.bounded { "—".into() } else { format!("P(T > t) = {}", lang.percent("1")) }, c.p99_ms, sim.map(|s| s.p99_ms), ms) }
                { row(lang, "l", T::QL, l, f.in_system, sim.map(|s| s.in_system), |_, x| format_number(x, 3)) }
                if input.queue > 0 {
                    { row(lang, "blocked", T::QBlocked, if c.bounded { format!("P_K, K = {cw} + {}", input.queue) } else { "—".into() }, f.blocked, sim.map(|s| s.blocked), pct) }
                }
            </tbody>
        </table>
    }
}

/// Little's law checked on the lab's own run: λ̂ × Ŵ beside the pool's time average.
fn little_check(lang: Lang, sim: Option<&Simulated>) -> Html {
    let Some(s) = sim.filter(|s| s.time_ms > 0.0) else { return Html::default() };
    let lambda = s.little / s.time_ms * 1000.0;
    let diff = if s.little > 0.0 { (s.in_system - s.little).abs() / s.little * 100.0 } else { 0.0 };
    // λ and W as shown (2 decimals) may not give the product's shown digits: then "≈".
    let r2 = |x: f64| (x * 100.0).round() / 100.0;
    let lw = format_number(s.little, 3);
    let eq = if format_number(r2(lambda) * r2(s.time_ms) / 1000.0, 3) == lw { "=" } else { "≈" };
    let text = lang.f(
        T::QLittleCheck,
        &[
            ("lambda", &format_number(lambda, 2)),
            ("w", &format_number(s.time_ms, 2)),
            ("eq", eq),
            ("lw", &lw),
            ("l", &format_number(s.in_system, 3)),
            ("d", &format_number(diff, 3)),
        ],
    );
    html! { <p class="note" id="q-little" data-lw={s.little.to_string()} data-l={s.in_system.to_string()}>{ text }</p> }
}

/// Mean time in system against ρ: the closed form's line, the sweep's dots, the current
/// setting (its closed form and its own run), the ceiling.
fn curve_chart(
    lang: Lang,
    input: &QueueInput,
    c: &Closed,
    sims: &[Option<Simulated>],
    (figure, width): (&NodeRef, ChartWidth),
) -> Html {
    let line = input.curve(c.model);
    let dots: Vec<(f64, f64)> = SWEEP_RHOS
        .iter()
        .zip(sims.iter().skip(1))
        .filter_map(|(&rho, s)| s.map(|s| (rho, s.time_ms)))
        .collect();
    // At the offered ρ (with a queue limit the figures' own ρ is the busy share).
    let offered = c.pool.rho();
    // At the offered ρ like the sweep's dots, past 100 % too (the axis then goes on).
    // The axis goes on to 150 % at most (at ρ = 20 the hockey stick would fill a twentieth
    // of the width); a dot further out sits on the edge.
    // A bounded queue's line goes on past 100 % (see `QueueInput::curve`): its axis too.
    let x_end = match offered {
        _ if c.bounded => 1.5,
        o if o > 1.0 => ((o * 10.0).ceil() / 10.0).min(1.5),
        _ => 1.0,
    };
    let own = sims.first().copied().flatten().map(|s| (offered.min(x_end), s.time_ms));
    // A bounded queue has closed forms at any load: past the axis' end they sit on its edge.
    let here = c.figures.time_ms.map(|w| (offered.min(x_end), w));
    // Up to the 95 % point and the dots: the hockey stick's blade stays on the chart.
    let top = line
        .iter()
        .filter(|p| p.0 <= offered.max(0.95))
        .chain(&dots)
        .chain(here.iter())
        .chain(own.iter())
        .map(|p| p.1)
        .fold(input.pool().service_ms, f64::max);
    // A bounded queue's line levels off past 100 %: the whole of it when its plateau is
    // within a few times the rest (the overload preset's 280 ms against 210 ms), so the
    // levelling off the note below describes is seen; a plateau far above (a long queue's
    // drain time) leaves the top and is said in words instead.
    let whole = line.iter().map(|p| p.1).fold(0.0, f64::max);
    let top = if c.bounded && whole <= 3.0 * top { top.max(whole) } else { top };
    let (sx, sy) = xy_scales((0.0, x_end), (0.0, nice_max(top * 1.1)), width.w);
    let ymax = sy.domain.1;
    let px = |p: &(f64, f64)| (sx.map(p.0), sy.map(p.1.min(ymax)));
    let crate::plot::Clipped { shown, beyond } = crate::plot::clip_at_top(&line, x_end, ymax);
    let pts: Vec<(f64, f64)> = shown.iter().map(px).collect();
    // Where the line left the top for good: its value at the axis' end, said in words (a
    // bounded queue's wait levels off there, as the note below says).
    // Only a bounded queue's line levels off; an unbounded one's rises without end as ρ → 1.
    let off_top = beyond.filter(|_| c.bounded).map(|p| {
        let text = lang.f(T::QOffTop, &[("w", &format_number(p.1, 0)), ("p", &format_number(p.0 * 100.0, 0))]);
        html! { <text class="off-top" id="q-off-top" x={(sx.map(x_end) - 2.0).to_string()} y={(super::lab::PLOT_TOP + 12.0).to_string()} text-anchor="end">{ text }</text> }
    });
    let x_ceiling = sx.map(input.ceiling_pct / 100.0);
    let body = html! {
        <>
            <line class="ceiling" x1={x_ceiling.to_string()} x2={x_ceiling.to_string()} y1={super::lab::PLOT_TOP.to_string()} y2="200" />
            <path class="series c-hop0" d={line_path(&pts)} />
            { for off_top }
            { for dots.iter().map(|p| { let (x, y) = px(p); html! { <circle class="sim-dot" cx={x.to_string()} cy={y.to_string()} r="4" /> } }) }
            { for here.iter().map(|p| { let (x, y) = px(p); html! { <circle class="here" cx={x.to_string()} cy={y.to_string()} r="7" /> } }) }
            { for own.iter().map(|p| { let (x, y) = px(p); html! { <circle class="sim-dot own" cx={x.to_string()} cy={y.to_string()} r="4.5" /> } }) }
        </>
    };
    let fmt = move |v: f64| lang.percent(&format_number(v * 100.0, 0));
    html! {
        <>
            { xy_frame((lang, "q-curve"), lang.t(T::QCurveTitle), (lang.t(T::AxisRho), lang.t(T::QAxisW)), (figure, width), &sx, &sy, fmt, body) }
            <p class="legend">
                <span class="legend-item"><span class="swatch c-hop0" />{ lang.t(legend(c.model)) }</span>
                <span class="legend-item"><span class="swatch dot" />{ lang.t(T::QLegendSim) }</span>
                if here.is_some() {
                    <span class="legend-item"><span class="swatch here" />{ lang.t(T::QLegendHere) }</span>
                }
                <span class="legend-item"><span class="swatch ceiling" />{ lang.f(T::QLegendCeiling, &[("p", &format_number(input.ceiling_pct, 2))]) }</span>
            </p>
            // The line is the unbounded queue's; the runs keep the page's queue limit.
            // Without a queue limit, no steady state; with one there is, but no closed form
            // here covers it (M/M/c/K's needs Poisson arrivals and exponential service).
            if here.is_none() {
                <p class="note" id="q-no-steady-state">{ if input.queue > 0 { lang.f(T::QNoClosedBounded, &[("why", &why_not_mmck(lang, c.model))]) } else { lang.t(T::QNoSteadyState).to_string() } }</p>
            }
            if input.queue > 0 {
                <p class="note" id="q-limit-note">{ lang.f(if c.bounded { T::QQueueLimitLine } else { T::QQueueLimitNote }, &[
                    ("q", &format_number(f64::from(input.queue), 0)),
                    ("line", lang.t(legend(c.model))),
                    // The line's own P_K where it has one; else the run's share.
                    ("blocked", &c.figures.blocked.or_else(|| sims.first().copied().flatten().map(|s| s.blocked)).map_or_else(|| "–".to_string(), |b| format_number(b * 100.0, 2))),
                ]) }</p>
            }
        </>
    }
}

/// Source 002's capacity table, each figure with its formula.
fn capacity_table(lang: Lang, input: &QueueInput, model: Model) -> Html {
    let bounded = model == Model::Mmck;
    let Ok(o) = input.capacity() else { return Html::default() };
    let n = |x: f64| format_number(x, 3);
    let (l, s, c, k) = (n(input.rate), n(input.pool().service_ms), input.workers, n(input.ceiling_pct));
    // Each operand as the formula shows it (rounded to 3 decimals): a value the shown
    // operands do not give to the digit is marked ≈ (163.394 − 122.545 read "= 40.848").
    let r = |x: f64| (x * 1000.0).round() / 1000.0;
    let (rl, rs, rw) = (r(input.rate), r(input.pool().service_ms), r(input.w_ms));
    let (ideal, admit, cf) = (r(o.ideal_rps), r(o.admit_rps), f64::from(c));
    let rows = [
        ("mu", T::CapMu, format!("1000 / {s} ms"), Some(o.per_worker_rps), T::UnitRps, Some(1000.0 / rs)),
        (
            "ideal",
            T::CapIdeal,
            format!("{c} × {}", n(o.per_worker_rps)),
            Some(o.ideal_rps),
            T::UnitRps,
            Some(cf * r(o.per_worker_rps)),
        ),
        (
            "rho",
            T::QRho,
            format!("{l} / {}", n(o.ideal_rps)),
            Some(o.utilisation * 100.0),
            T::UnitPercent,
            Some(rl / ideal * 100.0),
        ),
        (
            "admit",
            T::CapAdmit,
            format!("{} × {}", lang.percent(&k), n(o.ideal_rps)),
            Some(o.admit_rps),
            T::UnitRps,
            Some(r(input.ceiling_pct) / 100.0 * ideal),
        ),
        (
            "headroom",
            T::CapHeadroom,
            format!("{} − {}", n(o.ideal_rps), n(o.admit_rps)),
            Some(o.headroom_rps),
            T::UnitRps,
            Some(ideal - admit),
        ),
        (
            "margin",
            T::CapMargin,
            format!("{} − {l}", n(o.admit_rps)),
            Some(o.margin_to_ceiling_rps),
            T::UnitRps,
            Some(admit - rl),
        ),
        (
            "min-workers",
            T::CapMinWorkers,
            format!("ceil({l} / ({} × {}))", n(o.per_worker_rps), lang.percent(&k)),
            Some(o.min_workers as f64),
            T::UnitWorkers,
            None,
        ),
        // At or above capacity every worker is busy, and no long-run mean is in the system.
        (
            "busy",
            T::CapBusy,
            if o.unstable { format!("min({l} × {s} ms, {c})") } else { format!("{l} × {s} ms") },
            Some(o.busy_workers),
            T::UnitWorkers,
            Some(if o.unstable { (rl * rs / 1000.0).min(cf) } else { rl * rs / 1000.0 }),
        ),
        (
            "in-system",
            T::CapInSystem,
            format!("{l} × {} ms", n(input.w_ms)),
            o.in_system,
            T::UnitRequests,
            Some(rl * rw / 1000.0),
        ),
    ];
    let shown = |v: f64, unit: T| {
        if unit == T::UnitPercent {
            lang.percent_figure(v)
        } else {
            format!("{} {}", format_number(v, 3), lang.t(unit))
        }
    };
    html! {
        <>
        // A phone shows each row as a card (`table.stack-narrow`): the value under its label
        // rather than past a sideways scroll; roles spelled out, as the queue figures'.
        <table class="lab-table capacity stack-narrow" id="q-capacity" role="table">
            <tbody role="rowgroup">
                { for rows.into_iter().map(|(id, label, formula, v, unit, from_shown)| html! {
                    // The row's id lets a lesson veil its formula with its value; the label stays.
                    <tr id={format!("cap-row-{id}")} role="row"><th scope="row" role="rowheader" class="veil-keep">{ lang.t(label) }</th><td role="cell"><code>{ formula }</code></td>
                        if let Some(v) = v {
                            <td class="value" role="cell" id={format!("cap-{id}")} data-value={v.to_string()}>{
                                if from_shown.is_some_and(|w| shown(w, unit) != shown(v, unit)) { format!("≈ {}", shown(v, unit)) } else { shown(v, unit) }
                            }</td>
                        } else {
                            <td class="value" role="cell" id={format!("cap-{id}")}>{ "—" }</td>
                        }</tr>
                }) }
            </tbody>
        </table>
        // The note quotes this setting's L, not source 002's 12.
        if let Some(l) = o.in_system {
            <p class="note" id="q-cap-note">{ lang.f(T::CapNote, &[("n", &n(l))]) }</p>
        } else if o.short_w && !o.unstable {
            <p class="note" id="q-cap-note">{ lang.f(T::CapNoteShortW, &[("w", &n(input.w_ms)), ("s", &s)]) }</p>
        } else {
            <p class="note" id="q-cap-note">{ lang.t(if input.queue > 0 { T::CapNoteUnstableLimited } else { T::CapNoteUnstable }) }</p>
            // A queue limit gives the pool a steady state the table's arithmetic knows nothing of.
            if input.queue > 0 { <p class="note" id="q-cap-bounded">{ if bounded { lang.t(T::CapNoteBounded).to_string() } else { lang.f(T::CapNoteBoundedNoForm, &[("why", &why_not_mmck(lang, model))]) } }</p> }
        }
        // Over the ceiling but under capacity: the negative margin said in words.
        // (With a tolerance: 57 % of 100/s less 57/s is −7·10⁻¹⁵, not "over by 0".)
        if o.margin_to_ceiling_rps < -1e-9 * o.admit_rps.max(1.0) && !o.unstable {
            <p class="note" id="q-cap-over">{ lang.f(T::CapNoteOverCeiling, &[("x", &n(-o.margin_to_ceiling_rps)), ("k", &k), ("w", &o.min_workers.to_string())]) }</p>
        }
        </>
    }
}

/// What the queue lab exports as JSON.
#[derive(serde::Serialize)]
struct QueueExport<'a> {
    /// The closed forms for the setting.
    closed: Closed,
    /// The closed-form line of the curve: mean time in system (ms) against the offered ρ.
    line: Vec<CurvePoint>,
    /// The run's figures, then those of each utilisation of the curve, each with its
    /// offered ρ (`null`: a point not run).
    simulated: Vec<SimPoint>,
    /// The run's whole report.
    report: &'a crate::report::Report,
}

/// A point of the curve's closed-form line.
#[derive(serde::Serialize)]
struct CurvePoint {
    rho: f64,
    time_ms: f64,
}

/// A simulated point: the offered ρ it ran at and its figures.
#[derive(serde::Serialize)]
struct SimPoint {
    rho: f64,
    figures: Option<Simulated>,
}

/// The queue lab page.
#[component]
pub fn QueuePage(props: &QueueProps) -> Html {
    let (lang, st, dispatch) = (props.lang, &props.state, &props.dispatch);
    let t = |k: T| lang.t(k);
    let query = st.run_query();
    let input = &st.input;
    // Only the points the engine can run (see `QueueInput::simulated_points`).
    let points = input.simulated_points();
    let jobs: Vec<Job> =
        points.iter().map(|&p| Job::Queue { query: query.clone(), point: p as u8 }).collect();
    let runs = use_runs(jobs);
    // The curve is drawn as wide as its figure (see `lab::XW`).
    let curve_figure = use_node_ref();
    let curve_w = use_xy_width(&curve_figure);
    let closed = input.closed();
    let results = runs.results.as_deref();
    // By point, a point not run left empty.
    let mut sims: Vec<Option<Simulated>> = vec![None; SWEEP_RHOS.len() + 1];
    for (&p, s) in points.iter().zip(results.into_iter().flatten()) {
        sims[p] = s.result.as_ref().ok().and_then(|rep| simulated(rep));
    }
    let sims = if results.is_some() { sims } else { Vec::new() };
    let not_run = SWEEP_RHOS.len() + 1 - points.len();
    let report = results.and_then(|r| r.first()).and_then(|s| s.result.as_ref().ok()).cloned();
    let error = results.and_then(|r| r.iter().find_map(|s| s.result.as_ref().err().cloned()));
    // What a screen reader hears when the runs finish: the figures a move changed.
    let announce = use_announcement(
        lang,
        runs.finished,
        sims.first().copied().flatten().map(|s| {
            vec![
                // Labelled as the results table labels it: with a queue limit the figure is the
                // busy share, not ρ = λ/(cμ) (the overload preset's 99.6 % against ρ 105 %).
                Said::new(rho_label(&closed), pct(lang, closed.figures.rho)),
                Said::new(T::QTime, closed.figures.time_ms.map_or_else(|| "—".to_string(), |t| ms(lang, t))),
                Said::new(T::AnnounceSimTime, ms(lang, s.time_ms)),
            ]
        }),
    );
    let ontype = dispatch.reform(|(k, v)| A::Type(k, v));
    let onslide = dispatch.reform(|(k, s)| A::Slide(k, s));
    let kn = |k| knob(lang, k, input, &st.errors, &ontype, &onslide);
    let ch = |c: &'static crate::knob::Choice<QueueInput>| {
        let key = c.key;
        choice(lang, c, input, &st.errors, dispatch.reform(move |v| A::Choose(key, v)))
    };
    let presets: Vec<_> = q::PRESETS.iter().map(|p| (p.name, p.title, p.story)).collect();
    let story = super::lab::Story {
        changed: st.departs_from_preset(),
        from: st.from.as_ref().map(|o| (o, T::QFromStorm)),
    };
    let status = match (&error, runs.progress < 1.0) {
        (_, true) => {
            html! { <p class="progress" role="status">{ lang.f(T::Running, &[("percent", &format!("{:.0}", runs.progress * 100.0))]) }</p> }
        }
        (Some(e), _) => {
            let m = match e {
                RunError::Invalid(f) => lang.field_error(f),
                RunError::TooMuchWork { .. } | RunError::Internal(_) => t(T::QRunFailed).into(),
            };
            html! { <p class="warning" role="alert" id="run-error">{ lang.f(T::RunFailed, &[("message", &m)]) }</p> }
        }
        _ => match report.as_deref().and_then(q::unfinished) {
            Some(u) => {
                let why = match u.cut {
                    q::Cut::Drain => t(T::QCutDrain).to_string(),
                    q::Cut::Stopped(stop) => {
                        let (key, at_ms, limit) = match stop {
                            Stopped::CallsAlive { at_ms, limit } => (T::QCutCalls, at_ms, limit),
                            Stopped::Work { at_ms, limit } => (T::QCutWork, at_ms, limit),
                        };
                        lang.f(
                            key,
                            &[
                                ("t", &format_number(at_ms / 1000.0, 1)),
                                ("limit", &format_number(limit as f64, 0)),
                            ],
                        )
                    }
                };
                html! { <p class="warning" role="status" id="q-unfinished">{ lang.f(T::QUnfinished, &[
                    ("left", &format_number(u.left as f64, 0)),
                    ("total", &format_number(u.total as f64, 0)),
                    ("why", &why),
                ]) }</p> }
            }
            None => Html::default(),
        },
    };
    let notes = if closed.bounded {
        lang.f(T::QExactBounded, &[("q", &format_number(f64::from(input.queue), 0))])
    } else if !closed.pool.stable() {
        t(if input.queue > 0 { T::QUnstableLimited } else { T::QUnstable }).to_string()
    } else if let (Model::Dmc, Some(sigma)) = (closed.model, closed.pool.dmc_sigma()) {
        lang.f(T::QExactDmc, &[("s", &format_number(sigma, 4))])
    } else if closed.exact {
        t(T::QExact).to_string()
    } else {
        lang.f(T::QApprox, &[("f", &factor_text(input))])
    };
    let queue_chart = report.clone().map(|r| {
        let s = &r.series;
        let series = |v: &[i64]| v.iter().map(|&x| x as f64).collect();
        let busy: Vec<f64> = series(&s.in_flight[1]);
        let buckets = busy.len();
        // Each bucket's peak runs along the pool's limit well below full use (a burst fills the
        // pool for an instant in nearly every bucket): the mean over the run, ρ × c from the
        // run's own busy time, is drawn beside it so the chart does not read as 100 % busy.
        let own = sims.first().copied().flatten();
        let mean = own.map(|m| m.rho * f64::from(input.workers));
        let mut lines = vec![
            Line { name: t(T::SeriesBusy).into(), class: "c-busy".into(), values: busy },
            Line { name: t(T::SeriesQueue).into(), class: "c-queue dash1".into(), values: series(&s.queue[1]) },
        ];
        // Not its number in the legend: a veiled chart keeps its caption readable, and capacity
        // 1 asks for this share.
        if let Some(m) = mean {
            lines.push(Line {
                name: t(T::SeriesBusyMean).into(),
                class: "c-busy dash2".into(),
                values: vec![m; buckets],
            });
        }
        // Likewise the queue: its peaks sit at the limit in nearly every bucket of the overload
        // preset, whose story says it hovers around two-thirds full, its mean (L less the busy
        // workers, both averaged over the run's time).
        let queued = s.queue[1].iter().any(|&q| q > 0);
        if let Some(q) = own.filter(|_| queued).map(|m| (m.in_system - m.rho * f64::from(input.workers)).max(0.0)) {
            lines.push(Line { name: t(T::SeriesQueueMean).into(), class: "c-queue dash2".into(), values: vec![q; buckets] });
        }
        let lines = Lines::new(lines);
        html! {
            <TimeChart {lang} id="q-queue-chart" title={lang.f(T::QQueueChart, &[("ms", &format_number(s.bucket_ms, 0))])} {lines} bucket_ms={s.bucket_ms}
                end_ms={r.summary.end_ms} limit={Some((f64::from(input.workers), t(T::SeriesPool).to_string()))} y_unit={t(T::UnitCallsAtOnce).to_string()} />
        }
    });
    let d = dispatch.clone();
    // The closed forms, the simulated figures of the run and of each utilisation of the
    // curve, and the run's report (whose series are the CSV).
    let export_data = {
        let (report, sims, input_now) = (report.clone(), sims.clone(), input.clone());
        Callback::from(move |(kind, p): (DataKind, Rc<Provenance>)| {
            let report = report.as_ref()?;
            Some(match kind {
                DataKind::Json => {
                    let line = input_now
                        .curve(closed.model)
                        .into_iter()
                        .map(|(rho, time_ms)| CurvePoint { rho, time_ms })
                        .collect();
                    // The run's own ρ first, then the sweep's.
                    let rhos = std::iter::once(closed.pool.rho()).chain(SWEEP_RHOS);
                    let simulated =
                        rhos.zip(sims.iter()).map(|(rho, s)| SimPoint { rho, figures: *s }).collect();
                    lab_json(&p, &QueueExport { closed, line, simulated, report })
                }
                DataKind::Csv => series_csv(report),
            })
        })
    };
    // What the last change did, for the settings' bar (see `LabSettings`).
    let said_now = AttrValue::from(announce.clone());
    html! {
        <section class="page lab queue" id="queue" aria-labelledby="page-title" data-run={runs.finished.to_string()}>
            <h1 id="page-title">{ t(T::QTitle) }</h1>
            // The way to the settings ends the intro: a line of its own pushed the first
            // figure off a phone's first screen.
            <p class="intro">{ t(T::QIntro) }{ " " }{ super::lab::to_settings_link(lang, T::ToLabSettings) }</p>
            <ExportMenu {lang} page="queue" preset={st.preset} seed={Some(input.seed)} data={export_data} />
            <div class="two-col">
                // The figures first (reading and tab order, a phone's first screen); the settings
                // after them, in the left column on a wide screen and folded on a narrow one.
                <div class="outputs" id={super::lab::LAB_FIGURES}>
                    { super::lab::stale_note(lang, "q", &st.errors) }
                    <p class="sr-only" aria-live="polite" id="q-announce">{ announce }</p>
                    { status }
                    <div class="panel">
                        <h2>{ t(T::QFigures) }</h2>
                        <div class="table-scroll" tabindex="0" role="region" aria-label={t(T::QFigures)}>{ figures_table(lang, input, &closed, sims.first().copied().flatten().as_ref()) }</div>
                        <p class="note" id="q-assumes">{ notes }</p>
                        if input.queue > 0 && !closed.bounded { <p class="note">{ t(T::QQueueNote) }</p> }
                        { little_check(lang, sims.first().copied().flatten().as_ref()) }
                        <p class="note">{ lang.f(T::QSimNote, &[("n", &format_number(q::RUN_REQUESTS as f64, 0)), ("m", &format_number(q::SWEEP_REQUESTS as f64, 0))]) }</p>
                    </div>
                    <div class="panel">
                        { curve_chart(lang, input, &closed, &sims, (&curve_figure, curve_w)) }
                        if not_run > 0 {
                            <p class="note" id="q-not-run">{ lang.f(T::QNotRun, &[
                                ("n", &not_run.to_string()),
                                ("total", &SWEEP_RHOS.len().to_string()),
                                ("min", &format_number(crate::scenario::ranges::RATE_PER_S.min, 3)),
                                ("max", &format_number(crate::scenario::ranges::RATE_PER_S.max, 0)),
                            ]) }</p>
                        }
                    </div>
                    if let Some(c) = queue_chart { <div class="panel">{ c }</div> }
                    <div class="panel">
                        <h2>{ t(T::CapTitle) }</h2>
                        <div class="table-scroll" tabindex="0" role="region" aria-label={t(T::CapTitle)}>{ capacity_table(lang, input, closed.model) }</div>
                    </div>
                </div>
                <LabSettings {lang} said={said_now}>
                    <form class="panel inputs" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                        { preset_picker(lang, &presets, st.preset, story, &st.errors, &st.unknown, dispatch.reform(A::Preset)) }
                        { kn(&q::RATE) }{ ch(&q::ARRIVALS) }{ ch(&q::SERVICE) }{ kn(&q::SERVICE_MS) }
                        if input.service == Service::LogNormal { { kn(&q::P99) } }
                        { kn(&q::WORKERS) }{ kn(&q::QUEUE) }{ kn(&q::CEILING) }{ kn(&q::W) }{ kn(&q::SEED) }
                        <button type="button" class="secondary" id="reset-preset" onclick={Callback::from(move |_| d.emit(A::Reset))}>{ t(T::ResetPreset) }</button>
                    </form>
                </LabSettings>
            </div>
        </section>
    }
}

/// The control a guided lesson's step offers for URL key `key` (a knob, or the arrival or
/// service choice).
pub fn step_knob(lang: Lang, st: &QueueState, dispatch: &Callback<A>, key: &str) -> Option<Html> {
    if let Some(c) = [&q::ARRIVALS, &q::SERVICE].into_iter().find(|c| c.key == key) {
        let key = c.key;
        return Some(choice(lang, c, &st.input, &st.errors, dispatch.reform(move |v| A::Choose(key, v))));
    }
    let k = q::KNOBS.iter().find(|k| k.key == key)?;
    let (ontype, onslide) =
        (dispatch.reform(|(k, v)| A::Type(k, v)), dispatch.reform(|(k, s)| A::Slide(k, s)));
    Some(knob(lang, k, &st.input, &st.errors, &ontype, &onslide))
}
