//! The admission lab (`?page=admission`): the gates and the arrivals on the left; on the
//! right the counts, playback one event at a time, the bucket at the current step beside
//! the tokens over time, the step table, and how real limiters compare. It shows
//! `state::admission`'s run (made by `policy::token_bucket`) and decides nothing itself.

use super::browser;
use super::charts::ChartWidth;
use super::export::{DataKind, ExportMenu};
use super::lab::{LabSettings, choice, knob, preset_picker, use_xy_width, xy_frame, xy_scales};
use crate::export::{Provenance, admission_csv, admission_json};
use crate::i18n::{Lang, T, format_number};
use crate::model::admission::{Event, Run, Step, level_at, retry_after_ms};
use crate::plot::line_path;
use crate::policy::token_bucket::{NEVER, Rejection};
use crate::state::admission::{self as adm, AdmissionAction as A, AdmissionState, COLUMNS, Gen};
use crate::state::{FieldKey, FormErrors};
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Real time between two events while playing (ms).
const BEAT_MS: u32 = 700;
/// Rows of the arrivals table shown for editing (the rest stay in the link).
const EDIT_ROWS: usize = 40;
/// Rows of the step table shown around the current step.
const STEP_ROWS: usize = 16;
/// The step table's headings after `#`.
const STEP_COLUMNS: [T; 8] = [
    T::ColT,
    T::ColEvent,
    T::ColBefore,
    T::ColAfter,
    T::ColInFlight,
    T::ColDecision,
    T::ColReason,
    T::ColRetryAfter,
];

#[derive(Properties, PartialEq)]
pub struct AdmissionProps {
    pub lang: Lang,
    pub state: AdmissionState,
    pub dispatch: Callback<A>,
    /// In a lesson the step's state is the step's: the playhead stays out of the link.
    #[prop_or_default]
    pub in_lesson: bool,
}

/// Credits as tokens with the exact credits beside them: `1.4 (1,400)`.
fn tokens(lang: Lang, run: &Run, credits: u64) -> String {
    tokens_as(lang, T::TokensCredits, run, credits)
}

/// A bucket's level in `key`'s words: the table's cells under a header that names the
/// units, the bucket's caption with its units.
fn tokens_as(lang: Lang, key: T, run: &Run, credits: u64) -> String {
    let t = credits as f64 / run.per_token as f64;
    lang.f(key, &[("t", &format_number(t, 6)), ("c", &format_number(credits as f64, 0))])
}

fn reason_key(r: Rejection) -> T {
    match r {
        Rejection::ConcurrencyLimit => T::ReasonConcurrency,
        Rejection::RateLimit { .. } => T::ReasonRate,
        Rejection::CostExceedsCapacity => T::ReasonCost,
    }
}

/// Retry-After of a rejection: the wait the bucket itself gives, for a rate limit only.
fn retry_after(lang: Lang, r: Rejection) -> String {
    match r {
        Rejection::RateLimit { retry_after: NEVER } | Rejection::CostExceedsCapacity => {
            lang.t(T::Never).into()
        }
        Rejection::RateLimit { retry_after } => format!("{} ms", format_number(retry_after as f64, 0)),
        Rejection::ConcurrencyLimit => "—".into(),
    }
}

/// One step as a table row.
/// What step `i` of the run was, in words: the event, and for an arrival the decision and the
/// refusal's reason (empty otherwise). The steps table and the live line say the same.
struct EventWords {
    event: String,
    decision: &'static str,
    reason: &'static str,
}

fn event_words(lang: Lang, st: &AdmissionState, i: usize, s: &Step) -> EventWords {
    let cost = |a: usize| st.input.arrivals.get(a).map_or(0, |x| x.cost).to_string();
    let (event, decision, reason) = match s.event {
        Event::Arrival(a, d) => (
            lang.f(T::EvArrival, &[("n", &(a + 1).to_string()), ("cost", &cost(a))]),
            lang.t(if d.is_ok() { T::Admitted } else { T::Rejected }),
            d.err().map(|r| lang.t(reason_key(r))).unwrap_or(""),
        ),
        Event::Completion(a) => (lang.f(T::EvCompletion, &[("n", &(a + 1).to_string())]), "", ""),
        Event::Refill => {
            let since = i.checked_sub(1).and_then(|p| st.run.steps.get(p)).map_or(0, |p| p.t_ms);
            (lang.f(T::EvRefill, &[("t", &format_number(since as f64, 0))]), "", "")
        }
    };
    EventWords { event, decision, reason }
}

/// The live line's sentence at playhead `k`: where it is and what that step was.
fn step_sentence(lang: Lang, st: &AdmissionState, k: usize, at: &str) -> String {
    let Some(s) = k.checked_sub(1).and_then(|i| st.run.steps.get(i)) else { return at.to_string() };
    let w = event_words(lang, st, k - 1, s);
    let what = match (w.decision, w.reason) {
        ("", _) => w.event,
        (d, "") => lang.f(T::AdmSaidDecision, &[("e", &w.event), ("d", d)]),
        (d, r) => lang.f(T::AdmSaidRefusal, &[("e", &w.event), ("d", d), ("r", r)]),
    };
    lang.f(T::AdmAnnounce, &[("at", at), ("what", &what)])
}

fn step_row(lang: Lang, st: &AdmissionState, i: usize, s: &Step, current: usize) -> Html {
    let run = &st.run;
    let EventWords { event, decision, reason } = event_words(lang, st, i, s);
    let ra = match s.event {
        Event::Arrival(_, Err(r)) => retry_after(lang, r),
        _ => String::new(),
    };
    let bucket = |c| if run.capacity > 0 { tokens(lang, run, c) } else { "—".into() };
    let flight = match st.input.limit {
        0 => s.in_flight.to_string(),
        l => format!("{}/{l}", s.in_flight),
    };
    let class = classes!(
        (i + 1 == current).then_some("current"),
        (i >= current).then_some("later"),
        matches!(s.event, Event::Arrival(_, Err(_))).then_some("rejected")
    );
    let cells = [
        (i + 1).to_string(),
        format_number(s.t_ms as f64, 0),
        event,
        bucket(s.before),
        bucket(s.after),
        flight,
        decision.to_string(),
        reason.to_string(),
        ra,
    ];
    // The time and a rate limit's Retry-After carry their exact values (`data-value`) under
    // the ids lessons quote them by (`lesson::figures`: `adm-t<k>`, `adm-ra<k>`).
    let exact = |col: usize| match col {
        1 => Some((format!("adm-t{}", i + 1), s.t_ms)),
        8 => retry_after_ms(s).map(|ms| (format!("adm-ra{}", i + 1), ms)),
        _ => None,
    };
    // Each value carries its column's name (`data-label`): a phone shows each row as a card
    // (`table.stack-narrow`), the decision and its reason in view rather than past a
    // sideways scroll; roles spelled out, since a table laid out as blocks loses them.
    let label = |col: usize| lang.t(STEP_COLUMNS[col - 1]);
    html! {
        // The step shown is said as such, not only coloured.
        <tr {class} role="row" id={format!("adm-step-{}", i + 1)} aria-current={(i + 1 == current).then_some("step")}>
            { for cells.into_iter().enumerate().map(|(col, c)| match (col, exact(col)) {
                (0, _) => html! { <th scope="row" role="rowheader">{ c }</th> },
                (_, Some((id, v))) => html! { <td role="cell" data-label={label(col)} {id} data-value={v.to_string()}>{ c }</td> },
                // A phone's card leaves out what is blank (an admitted call's reason).
                (_, None) if c.is_empty() => html! { <td role="cell" class="blank" data-label={label(col)} /> },
                // A reason's identifier may break after its underscores (`cost_exceeds_<wbr>
                // capacity`): unbroken, it had pushed Retry-After past a sideways scroll at
                // 1,366 px.
                (7, None) => html! { <td role="cell" data-label={label(col)}>{ breakable_identifiers(&c) }</td> },
                (_, None) => html! { <td role="cell" data-label={label(col)}>{ c }</td> },
            }) }
        </tr>
    }
}

/// `text` with a line-break opportunity (`<wbr>`) after each underscore, which a browser
/// does not break at by itself; the text copied or read aloud is the same.
fn breakable_identifiers(text: &str) -> Html {
    html! { <>{ for text.split_inclusive('_').map(|p| html! { <>{ p.to_string() }<wbr /></> }) }</> }
}

/// Widest a label over the bucket may be (units of its 200-unit drawing).
const LABEL_ROOM: f64 = 192.0;

/// The `textLength` that squeezes a label wider than the bucket's drawing into it (a reason
/// with its Chinese gloss, `成本超过容量（cost_exceeds_capacity）`, is ≈ 238 units), or none;
/// estimated at the label's 11-unit bold type.
fn squeeze(label: &str) -> Option<String> {
    crate::plot::palette::squeeze(label, 11.0, LABEL_ROOM)
}

/// The bucket at step `k`: its level, the slots in flight, the event dropping in or bouncing off.
fn bucket_view(lang: Lang, st: &AdmissionState, k: usize) -> Html {
    let run = &st.run;
    let step = k.checked_sub(1).and_then(|i| run.steps.get(i));
    let level = step.map_or(run.capacity, |s| s.after);
    let share = if run.capacity == 0 { 0.0 } else { level as f64 / run.capacity as f64 };
    let h = 150.0 * share;
    let (cls, label) = match step.map(|s| s.event) {
        Some(Event::Arrival(_, Ok(()))) => ("drop in", lang.t(T::Admitted).to_string()),
        Some(Event::Arrival(_, Err(r))) => ("drop off", lang.t(reason_key(r)).to_string()),
        Some(Event::Completion(_)) => ("drop done", lang.t(T::Completed).to_string()),
        Some(Event::Refill) => ("drop full", lang.t(T::BucketFull).to_string()),
        None => ("", String::new()),
    };
    let caption = if run.capacity == 0 {
        lang.t(T::NoBucket).to_string()
    } else {
        tokens_as(lang, T::BucketLevel, run, level)
    };
    let flight = step.map_or(0, |s| s.in_flight);
    html! {
        <figure class="bucket" id="adm-bucket" data-level={level.to_string()}>
            <svg viewBox="0 0 200 230" role="img" aria-label={lang.f(T::BucketLabel, &[("level", &caption)])} data-export-name={lang.t(T::BucketFigure)}>
                <path class="bucket-wall" d="M40 40 L52 200 L148 200 L160 40" />
                <rect class="bucket-fill" x="50" y={(198.0 - h).to_string()} width="100" height={h.to_string()} />
                if step.is_some() {
                    // The word clear above the drop (at y = 14 the drop covered its lower half).
                    <g key={k} class={cls}><circle cx="100" cy="27" r="9" />
                        <text x="100" y="12" text-anchor="middle" textLength={squeeze(&label)}
                            lengthAdjust={squeeze(&label).map(|_| "spacingAndGlyphs")}>{ label }</text></g>
                }
                { for (0..st.input.limit.min(12)).map(|i| html! {
                    <rect class={classes!("slot", (i < flight).then_some("busy"))} x={(30 + i * 12).to_string()} y="212" width="9" height="9" />
                }) }
            </svg>
            <figcaption>
                { caption }
                // The squares under the bucket are the concurrency slots; the text says so,
                // and gives the count when there are more than the 12 drawn.
                if st.input.limit > 0 {
                    <span class="slot-caption" id="adm-slots">{ lang.f(T::InFlightOf, &[("n", &flight.to_string()), ("limit", &st.input.limit.to_string())]) }</span>
                }
            </figcaption>
        </figure>
    }
}

/// Tokens over time: the level between steps (refilling, capped at B), arrivals marked
/// admitted (dot) or rejected (cross), and the current step's time.
fn tokens_chart(lang: Lang, run: &Run, k: usize, (figure, width): (&NodeRef, ChartWidth)) -> Html {
    // Past the last event until the bucket is full again (at most as long again, or 1 s), so
    // the refill after a burst is seen.
    let last = run.steps.last().map_or((0.0, run.capacity), |s| (s.t_ms as f64, s.after));
    let refill = match run.rate_per_ms {
        0 => 0.0,
        r => (run.capacity - last.1.min(run.capacity)) as f64 / r as f64,
    };
    let end = (last.0 + refill.min(last.0.max(1000.0))).max(1.0) * 1.05;
    let per = run.per_token as f64;
    let cap = run.capacity as f64 / per;
    let top = axis_top(cap.max(1.0));
    let (sx, sy) = xy_scales((0.0, end), (0.0, top), width.w);
    let px = |t: f64, c: f64| (sx.map(t), sy.map(c / per));
    let mut pts = vec![px(0.0, run.capacity as f64)];
    let mut marks = Vec::new();
    let mut prev = (0.0, run.capacity as f64);
    for s in &run.steps {
        let t = s.t_ms as f64;
        // The level rises at the rate until it meets capacity: draw the corner.
        if run.rate_per_ms > 0 {
            let full = prev.0 + (run.capacity as f64 - prev.1) / run.rate_per_ms as f64;
            if full > prev.0 && full < t {
                pts.push(px(full, run.capacity as f64));
            }
        }
        // A refill row's `before` is the level the refill started from, at the step before:
        // its point is the top of the slope.
        if s.event != Event::Refill {
            pts.push(px(t, s.before as f64));
        }
        pts.push(px(t, s.after as f64));
        prev = (t, s.after as f64);
        if let Event::Arrival(_, d) = s.event {
            let at = px(t, s.before as f64);
            // Arrivals decided at one moment and level draw on one spot (rejections take no
            // tokens, so a burst's refusals all do): one mark, with how many.
            match marks.iter_mut().find(|(p, ok, _): &&mut ((f64, f64), bool, usize)| {
                *ok == d.is_ok() && (p.0 - at.0).abs() < 0.5 && (p.1 - at.1).abs() < 0.5
            }) {
                Some(m) => m.2 += 1,
                None => marks.push((at, d.is_ok(), 1)),
            }
        }
    }
    let stacked = marks.iter().any(|m| m.2 > 1);
    pts.push(px(end, level_at(run, end)));
    let x = k.checked_sub(1).and_then(|i| run.steps.get(i)).map_or(0.0, |s| sx.map(s.t_ms as f64));
    let body = html! {
        <>
            // B: the level the bucket refills to, which the axis' ticks need not hit.
            <g class="limit"><line x1={sx.map(0.0).to_string()} x2={sx.map(end).to_string()} y1={sy.map(cap).to_string()} y2={sy.map(cap).to_string()} /></g>
            <path class="series c-hop0" d={line_path(&pts)} />
            { for marks.iter().map(|&((x, y), ok, count)| html! { <>
                if ok {
                    <circle class="mark-ok" cx={x.to_string()} cy={y.to_string()} r="3.5" />
                } else {
                    <path class="mark-no" d={format!("M{} {}l6 6m0-6l-6 6", x - 3.0, y - 3.0)} />
                }
                if count > 1 {
                    <text class="mark-count" x={(x + 6.0).to_string()} y={(y - 5.0).to_string()}>{ count }</text>
                }
            </> }) }
            <g class="limit"><text x={sx.map(end).to_string()} y={(sy.map(cap) - 4.0).to_string()} text-anchor="end">
                { lang.f(T::TokensCapacityLine, &[("b", &format_number(cap, 3))]) }</text></g>
            <line class="playhead" x1={x.to_string()} x2={x.to_string()} y1={super::lab::PLOT_TOP.to_string()} y2="200" />
        </>
    };
    let fmt: fn(f64) -> String = |v| format_number(v, 0);
    let frame = xy_frame(
        (lang, "adm-tokens"),
        lang.t(T::TokensChart),
        (lang.t(T::AxisMs), lang.t(T::UnitTokens)),
        (figure, width),
        &sx,
        &sy,
        fmt,
        body,
    );
    html! {
        <>
            { frame }
            if stacked { <p class="note" id="adm-tokens-stacked">{ lang.t(T::TokensStacked) }</p> }
        </>
    }
}

/// The top of the tokens axis: `cap` raised to the first of the axis' 4-or-so ticks at or
/// above it, so that the ticks reach B (nice_ticks(0, 5, 4) stops at 4). The step of the
/// raised range is the same, so the ticks are the same plus the one above B.
fn axis_top(cap: f64) -> f64 {
    let step = crate::plot::nice_step(cap / 4.0);
    (cap / step - 1e-9).ceil() * step
}

/// The accessible name of a cell of the arrivals table's column `key`: what it is of which
/// arrival, with its unit (the heading alone is not read with the cell).
fn cell_label(key: &str) -> T {
    match key {
        "time" => T::CellTimeLabel,
        "row_cost" => T::CellCostLabel,
        _ => T::CellHoldLabel,
    }
}

/// The arrivals as an editable table (the first rows), with a row's errors under it.
fn arrivals_table(lang: Lang, st: &AdmissionState, dispatch: &Callback<A>) -> Html {
    let rows = st.input.arrivals.iter().enumerate().take(EDIT_ROWS).map(|(i, _)| {
        let cells = COLUMNS.iter().map(|col| {
            let key = FieldKey::at(col.key, i);
            let (value, bad) = match st.errors.get(&key) {
                Some((raw, _)) => (raw.clone(), true),
                None => ((col.get)(&st.input, i).map_or(String::new(), crate::error::fmt_num), false),
            };
            let d = dispatch.clone();
            let onchange = Callback::from(move |e: web_sys::Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                d.emit(A::Type(key, input.value()));
            });
            html! {
                <td><input class="num cell" type="text" inputmode="decimal" id={key.dom_id()} aria-label={lang.f(cell_label(col.key), &[("n", &(i + 1).to_string())])}
                    aria-describedby="adm-arrivals-help" aria-invalid={bad.to_string()} {value} {onchange} /></td>
            }
        });
        let d = dispatch.clone();
        html! {
            <tr>
                <td>{ i + 1 }</td>{ for cells }
                <td><button type="button" class="secondary small" aria-label={lang.f(T::DeleteRow, &[("n", &(i + 1).to_string())])}
                    onclick={Callback::from(move |_| d.emit(A::DeleteRow(i)))}>{ "×" }</button></td>
            </tr>
        }
    });
    let d = dispatch.clone();
    let more = st.input.arrivals.len().saturating_sub(EDIT_ROWS);
    html! {
        <>
            <p class="help" id="adm-arrivals-help">{ lang.t(T::ArrivalsTableHelp) }</p>
            <table class="lab-table arrivals" id="adm-arrivals">
                <thead><tr><th>{ "#" }</th>
                    { for COLUMNS.iter().map(|c| html! { <th>{ lang.f(T::LabelWithUnit, &[("label", lang.t(c.label)), ("unit", lang.t(c.unit))]) }</th> }) }
                    <th><span class="sr-only">{ lang.t(T::ColActions) }</span></th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if more > 0 { <p class="note">{ lang.f(T::MoreRows, &[("n", &more.to_string())]) }</p> }
            { errors_list(lang, &st.errors) }
            <button type="button" id="adm-add-row" class="secondary small" onclick={Callback::from(move |_| d.emit(A::AddRow))}>{ lang.t(T::AddRow) }</button>
        </>
    }
}

/// Errors of table cells and link items, each with an id naming its field.
fn errors_list(lang: Lang, errors: &FormErrors) -> Html {
    errors
        .iter()
        .filter(|(k, _, _)| k.index.is_some() || k.key == "arrivals")
        .map(|(k, _, e)| {
            // A cell by its column's label and the table's row number.
            let text = match (COLUMNS.iter().find(|c| c.key == k.key), k.index) {
                (Some(col), Some(i)) => {
                    let cell = lang.f(T::RowCell, &[("n", &(i + 1).to_string()), ("col", lang.t(col.label))]);
                    lang.named_error(e, &cell, lang.t(col.unit))
                }
                // An item of the link's `arrivals=`, by the link's item number and, where one
                // part of it was refused, that part's label and unit.
                (None, Some(i)) => match (0..COLUMNS.len()).find(|&c| e.field == adm::cell_field(c, i)) {
                    Some(c) => {
                        let col = &COLUMNS[c];
                        let item = lang
                            .f(T::LinkItemCell, &[("n", &(i + 1).to_string()), ("col", lang.t(col.label))]);
                        lang.named_error(e, &item, lang.t(col.unit))
                    }
                    None => lang.field_error(e),
                },
                _ => lang.field_error(e),
            };
            html! { <p class="field-error" role="alert" id={format!("{}-error", k.dom_id())}>{ text }</p> }
        })
        .collect()
}

/// The admission lab page.
#[component]
pub fn AdmissionPage(props: &AdmissionProps) -> Html {
    let (lang, st, dispatch) = (props.lang, &props.state, &props.dispatch);
    let t = |k: T| lang.t(k);
    let run = &st.run;
    let n = run.steps.len();
    let reduced = *use_memo((), |_| browser::prefers_reduced_motion());
    // A link paused partway (`at=`) opens there, paused.
    let step = use_state(|| st.at.map_or(if reduced { n } else { 0 }, |k| k.min(n)));
    let playing = use_state(|| !reduced && st.at.is_none());
    // Whether the playhead last moved by the slider, which says where it is itself: the live
    // line then stays quiet rather than say it a second time.
    let by_scrub = use_state(|| false);
    let timer = use_mut_ref(|| None::<Timeout>);
    // The tokens chart is drawn as wide as its figure (see `lab::XW`).
    let tokens_figure = use_node_ref();
    let tokens_w = use_xy_width(&tokens_figure);
    // A changed run shows its end state; playback starts again from the play button.
    let seen = use_mut_ref(|| run.clone());
    if *seen.borrow() != *run {
        *seen.borrow_mut() = run.clone();
        step.set(n);
        playing.set(false);
    }
    let k = (*step).min(n);
    // Where the learner paused goes into the link (`at=`), so that a reload opens there.
    let want = (!*playing && !reduced && k < n).then_some(k);
    super::links::use_view_in_link(want, st.at, !props.in_lesson && !reduced, dispatch.reform(A::At));
    {
        let (step, playing, timer) = (step.clone(), playing.clone(), timer.clone());
        use_effect_with((*playing, k, n), move |&(on, k, n)| {
            *timer.borrow_mut() = (on && k < n).then(|| {
                Timeout::new(BEAT_MS, move || {
                    step.set(k + 1);
                    if k + 1 >= n {
                        playing.set(false);
                    }
                })
            });
        });
    }
    let ontype = dispatch.reform(|(k, v)| A::Type(k, v));
    let onslide = dispatch.reform(|(k, s)| A::Slide(k, s));
    let kn = |k| knob(lang, k, &st.input, &st.errors, &ontype, &onslide);
    let presets: Vec<_> = adm::PRESETS.iter().map(|p| (p.name, p.title, p.story)).collect();
    let story = super::lab::Story {
        changed: st.departs_from_preset(),
        from: st.from.as_ref().map(|o| (o, T::AdmFromStorm)),
    };
    let onplay = {
        let (step, playing, by_scrub) = (step.clone(), playing.clone(), by_scrub.clone());
        Callback::from(move |_: MouseEvent| {
            by_scrub.set(false);
            if !*playing && k >= n {
                step.set(0);
            }
            playing.set(!*playing);
        })
    };
    let onstep = {
        let (step, playing, by_scrub) = (step.clone(), playing.clone(), by_scrub.clone());
        Callback::from(move |_: MouseEvent| {
            by_scrub.set(false);
            playing.set(false);
            step.set((k + 1).min(n));
        })
    };
    let onscrub = {
        let (step, playing, by_scrub) = (step.clone(), playing.clone(), by_scrub.clone());
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            by_scrub.set(true);
            playing.set(false);
            step.set(i.value().parse().unwrap_or(0));
        })
    };
    let now = k.checked_sub(1).and_then(|i| run.steps.get(i)).map_or(0, |s| s.t_ms);
    let rejected = run.rejected_total();
    // The space between two sentences: none after Chinese "。".
    let sentence_gap = lang.f(T::Sentences, &[("a", ""), ("b", "")]);
    // What the scrubber's label says, and the scrubber to a screen reader.
    let at = lang
        .f(T::StepOf, &[("k", &k.to_string()), ("n", &n.to_string()), ("t", &format_number(now as f64, 0))]);
    // The step in words: what the slider says, and the live line after a step or a pause
    // (nothing while playing, which would be a sentence a beat).
    let said = step_sentence(lang, st, k, &at);
    let announce = if *playing || *by_scrub { String::new() } else { said.clone() };
    // Up to the playhead, of the whole run (as the breaker lab's cards): at step 0 nothing
    // has arrived yet, and "3 admitted" there read as if it had.
    let (admitted_now, rejected_now) =
        run.steps[..k.min(run.steps.len())].iter().fold((0, 0), |(a, r), s| match s.event {
            Event::Arrival(_, Ok(())) => (a + 1, r),
            Event::Arrival(_, Err(_)) => (a, r + 1),
            _ => (a, r),
        });
    let figure = |id: &str, label: T, now: usize, total: usize| {
        html! {
            <div class="figure" id={id.to_string()} data-value={now.to_string()} data-total={total.to_string()}>
                <div class="figure-label">{ t(label) }</div>
                <div class="figure-value"><span class="value">{ now }</span>{" "}
                    <span class="unit">{ format!("/ {total} ") }{ t(T::UnitRequests) }</span></div>
            </div>
        }
    };
    let from = k.saturating_sub(STEP_ROWS / 2).min(n.saturating_sub(STEP_ROWS));
    let d = dispatch.clone();
    let source = st.input.source;
    let export_data = {
        let (arrivals, run) = (st.input.arrivals.clone(), st.run.clone());
        Callback::from(move |(kind, p): (DataKind, Rc<Provenance>)| {
            Some(match kind {
                DataKind::Json => admission_json(&p, &arrivals, &run),
                DataKind::Csv => admission_csv(&run),
            })
        })
    };
    // What the last change did, for the settings' bar (see `LabSettings`).
    let said_now = AttrValue::from(announce.clone());
    html! {
        <section class="page lab admission" id="admission" aria-labelledby="page-title" data-step={k.to_string()} data-steps={n.to_string()}>
            <h1 id="page-title">{ t(T::AdmTitle) }</h1>
            // The way to the settings ends the intro: a line of its own pushed the first
            // figure off a phone's first screen.
            <p class="intro">{ lang.f(T::AdmIntro, &[("k", &format_number(run.per_token as f64, 0))]) }{ " " }{ super::lab::to_settings_link(lang, T::ToLabSettings) }</p>
            <ExportMenu {lang} page="admission" preset={st.preset} seed={Some(st.input.seed)} data={export_data} />
            <div class="two-col">
                // The figures first (reading and tab order, a phone's first screen); the settings
                // after them, in the left column on a wide screen and folded on a narrow one.
                <div class="outputs" id={super::lab::LAB_FIGURES}>
                    { super::lab::stale_note(lang, "adm", &st.errors) }
                    <div class="figures">
                        { figure("adm-admitted", T::Admitted, admitted_now, run.admitted) }
                        { figure("adm-rejected", T::Rejected, rejected_now, rejected) }
                    </div>
                    <p class="note" id="adm-reasons">{ t(T::AdmFiguresSlash) }{ sentence_gap.clone() }{ lang.f(T::ByReason, &[
                        ("cn", t(T::ReasonConcurrency)), ("c", &run.rejected[0].to_string()),
                        ("rn", t(T::ReasonRate)), ("r", &run.rejected[1].to_string()),
                        ("xn", t(T::ReasonCost)), ("x", &run.rejected[2].to_string()),
                    ]) }{ sentence_gap }<span id="adm-per-token" data-value={run.per_token.to_string()}>{ lang.f(T::CreditScale, &[("k", &lang.count(run.per_token as f64, T::UnitCredits)), ("r", &lang.count(run.rate_per_ms as f64, T::UnitCredits))]) }</span></p>
                    <div class="playbar" role="group" aria-label={t(T::EventScrub)}>
                        <button type="button" id="play" onclick={onplay} disabled={reduced} data-playing={(*playing).to_string()}>
                            { if *playing { t(T::Pause) } else { t(T::Play) } }
                        </button>
                        <button type="button" id="step" class="secondary small" title={t(T::StepEventHelp)} onclick={onstep}>{ t(T::Step) }</button>
                        <input id="scrub" type="range" min="0" max={n.to_string()} step="1" value={k.to_string()}
                            aria-label={t(T::EventScrub)} aria-valuetext={said} title={t(T::EventScrubHelp)} aria-describedby="scrub-help" oninput={onscrub} />
                        <span class="time" id="playhead-label">{ at }</span>
                        // On screen, not only as a tooltip: a touch screen shows none.
                        <p class="help" id="scrub-help">{ t(T::EventScrubHelp) }</p>
                    </div>
                    // A link's refused playhead (`at=`): it names no control of the panel.
                    if let Some((_, e)) = st.errors.get(&crate::state::FieldKey::plain("at")) {
                        <p class="field-error" role="alert" id="at-error">{ lang.field_error(e) }</p>
                    }
                    <p class="sr-only" aria-live="polite" id="adm-announce">{ announce }</p>
                    if reduced { <p class="note">{ t(T::ReducedMotionSteps) }</p> }
                    <div class="panel bucket-row">
                        { bucket_view(lang, st, k) }
                        if run.capacity > 0 { <div class="chart-wrap tokens">{ tokens_chart(lang, run, k, (&tokens_figure, tokens_w)) }</div> }
                    </div>
                    // Focusable, so that the keyboard can scroll it sideways on a narrow screen.
                    <div class="panel table-scroll steps-box" tabindex="0" role="region" aria-label={t(T::AdmStepsRegion)}>
                        <table class="lab-table steps stack-narrow" id="adm-steps" role="table">
                            <thead role="rowgroup"><tr role="row"><th role="columnheader">{ "#" }</th>{ for STEP_COLUMNS.iter().map(|&c| html! { <th role="columnheader">{ t(c) }</th> }) }</tr></thead>
                            <tbody role="rowgroup">{ for run.steps.iter().enumerate().skip(from).take(STEP_ROWS).map(|(i, s)| step_row(lang, st, i, s, k)) }</tbody>
                        </table>
                        if n > STEP_ROWS { <p class="note">{ lang.f(T::StepWindow, &[("a", &(from + 1).to_string()), ("b", &(from + STEP_ROWS).min(n).to_string()), ("n", &n.to_string())]) }</p> }
                    </div>
                    <div class="panel side-note">
                        <h2>{ t(T::RealLimiters) }</h2>
                        <p id="adm-note-go">{ t(T::NoteGo) }</p><p id="adm-note-envoy">{ t(T::NoteEnvoy) }</p><p class="note">{ t(T::NoteModel) }</p>
                    </div>
                </div>
                <LabSettings {lang} said={said_now}>
                    <form class="panel inputs" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                        { preset_picker(lang, &presets, st.preset, story, &st.errors, &st.unknown, dispatch.reform(A::Preset)) }
                        { kn(&adm::CAPACITY) }{ kn(&adm::RATE) }{ kn(&adm::LIMIT) }{ kn(&adm::COST) }{ kn(&adm::HOLD) }
                        <fieldset class="group">
                            <legend>{ t(T::ArrivalsTitle) }</legend>
                            { choice(lang, &adm::GEN, &st.input, &st.errors, dispatch.reform(A::Gen)) }
                            if source != Gen::Table { { kn(&adm::COUNT) } }
                            if matches!(source, Gen::Even | Gen::Poisson) { { kn(&adm::GAP) } }
                            if source == Gen::Poisson { { kn(&adm::SEED) } }
                            { arrivals_table(lang, st, dispatch) }
                        </fieldset>
                        <button type="button" class="secondary" id="reset-preset" onclick={Callback::from(move |_| d.emit(A::Reset))}>{ t(T::ResetPreset) }</button>
                    </form>
                </LabSettings>
            </div>
        </section>
    }
}

/// The control a guided lesson's step offers for URL key `key` (a knob, or how arrivals are
/// generated).
pub fn step_knob(lang: Lang, st: &AdmissionState, dispatch: &Callback<A>, key: &str) -> Option<Html> {
    if key == adm::GEN.key {
        return Some(choice(lang, &adm::GEN, &st.input, &st.errors, dispatch.reform(A::Gen)));
    }
    let k = adm::KNOBS.iter().find(|k| k.key == key)?;
    let (ontype, onslide) =
        (dispatch.reform(|(k, v)| A::Type(k, v)), dispatch.reform(|(k, s)| A::Slide(k, s)));
    Some(knob(lang, k, &st.input, &st.errors, &ontype, &onslide))
}
