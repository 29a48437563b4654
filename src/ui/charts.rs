//! SVG charts fed by plain vectors. Scales, ticks and paths come from `crate::plot`; the
//! playhead is a separate overlay so that moving it does not rebuild the paths.

use super::export::figure_export;
use crate::i18n::{Lang, T, format_number};
use crate::plot::{Linear, Log, nice_max, nice_ticks, step_band, step_path};
use crate::report::{LatencyDist, Report, RequestOutcome};
use std::rc::Rc;
use yew::prelude::*;

/// A report shared by reference: equality is identity, so components holding one skip
/// re-rendering until a new run replaces it.
#[derive(Clone)]
pub struct ReportRef(pub Rc<Report>);

impl PartialEq for ReportRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Series shared by reference: equality is identity (no deep comparison per frame).
#[derive(Clone)]
pub struct Lines(pub Rc<Vec<Line>>);

impl Lines {
    pub fn new(lines: Vec<Line>) -> Self {
        Lines(Rc::new(lines))
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Lines {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Chart geometry shared by the time charts. `W` is the widest view box: a time chart is
/// drawn as wide as its figure is, in CSS px, between [`MIN_W`] and `W` (see
/// [`use_chart_width`]), so that on a phone its text keeps its size and the whole run is in
/// view; a wider figure scales the `W`-wide picture up, as before.
pub const W: f64 = 640.0;
/// The narrowest view box of a time chart (a plot 174 units wide); a figure narrower still
/// gets the `W`-wide picture at the phone's least width for it, and scrolls sideways.
pub const MIN_W: f64 = 240.0;
pub const ML: f64 = 52.0;
pub const MR: f64 = 14.0;
pub const MT: f64 = 12.0;
pub const MB: f64 = 30.0;

/// x scale over a run of `end_ms`, in a view box `w` wide.
pub fn x_scale(end_ms: f64, w: f64) -> Linear {
    Linear::new((0.0, end_ms.max(1.0)), (ML, w - MR))
}

/// A time chart's view box width (see [`W`]): its figure's width in CSS px, between
/// [`MIN_W`] and [`W`] (`W` until the figure is first measured), and whether the figure is
/// that wide at least: then the chart never scrolls sideways and needs no copy of its y
/// axis (see [`y_strip`]); else `W`, drawn at the style sheet's width for a phone. A hook.
#[hook]
pub fn use_chart_width(figure: &NodeRef) -> ChartWidth {
    use_chart_width_from(figure, MIN_W, W, W)
}

/// [`use_chart_width`] with its own narrowest and widest view boxes, `min` and `widest`: a
/// figure narrower than `min` gets a picture `scroll_w` wide in a scroll box, a wider one
/// than `widest` the `widest` picture scaled up.
#[hook]
pub fn use_chart_width_from(figure: &NodeRef, min: f64, widest: f64, scroll_w: f64) -> ChartWidth {
    // Kept between one unit below `min` (too narrow) and `widest` (as wide or wider), so
    // that a window resized beyond either end draws nothing again.
    let room = super::browser::use_width_between(figure, widest, min - 1.0, widest);
    let fits = room >= min;
    ChartWidth { w: if fits { room } else { scroll_w }, fits }
}

/// The latency chart's narrowest view box: on a narrower figure (a phone) its bars, one a
/// bin and outcome, would be too thin to pick, so it keeps the scroll box there.
const LATENCY_MIN_W: f64 = 400.0;

/// The latency chart's view box in a scroll box: as wide as the style sheet draws a chart
/// that scrolls on a phone (560 px), so that its text keeps its own size there too.
const LATENCY_SCROLL_W: f64 = 560.0;

/// What [`use_chart_width`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartWidth {
    /// The view box width.
    pub w: f64,
    /// The figure is at least `w` wide: it does not scroll.
    pub fits: bool,
}

/// One series of a time chart.
#[derive(Clone, PartialEq)]
pub struct Line {
    /// Legend text.
    pub name: String,
    /// CSS class (colour and dash).
    pub class: String,
    /// One value per bucket.
    pub values: Vec<f64>,
}

#[derive(Properties, PartialEq)]
pub struct TimeChartProps {
    pub lang: Lang,
    pub id: String,
    pub title: String,
    pub lines: Lines,
    pub bucket_ms: f64,
    pub end_ms: f64,
    /// A horizontal limit (e.g. the pool size) with its label.
    #[prop_or_default]
    pub limit: Option<(f64, String)>,
    #[prop_or(170.0)]
    pub height: f64,
    /// Unit of the y axis, shown in the corner.
    #[prop_or_default]
    pub y_unit: String,
    /// The top of the y axis, when several charts must share it (compare mode); by
    /// default the chart's own largest value.
    #[prop_or_default]
    pub y_max: Option<f64>,
    /// Write each series' name beside it, above its highest point (see
    /// `plot::palette::direct_labels`): for charts of many like series (the hops).
    #[prop_or_default]
    pub labels: bool,
    /// The run's fault windows (from, to in ms, and their labels), whose labels the
    /// playhead layer writes along the plot's top: the direct labels keep clear of them.
    #[prop_or_default]
    pub faults: Rc<Vec<(f64, f64, String)>>,
}

/// Where the fault windows' marks go along a time chart's top (see
/// `plot::storm::fault_marks`), with each label's baseline: the playhead layer draws them,
/// the direct labels keep clear of them.
fn fault_labels(
    faults: &[(f64, f64, String)],
    end_ms: f64,
    w: f64,
) -> Vec<Option<(crate::plot::storm::FaultMark, f64)>> {
    let windows: Vec<(f64, f64)> = faults.iter().map(|(from, to, _)| (*from, *to)).collect();
    // Labels of 10.5 px (9 px had come out at 7.9 px on a 390 px phone, and 10 px at 8.8 px
    // in a 1,024 px laptop's column, where a chart is drawn at about 0.88 of its view box),
    // "fault 1" about 40 units wide.
    crate::plot::storm::fault_marks(&windows, end_ms, x_scale(end_ms, w), w - MR, FAULT_LABEL_W)
        .into_iter()
        .map(|m| m.map(|m| (m, MT + 10.0 + 11.0 * m.row as f64)))
        .collect()
}

/// A fault label's width in the chart's units (10.5-unit text).
const FAULT_LABEL_W: f64 = 42.0;

/// Where a lesson step's moment (`from`..`to` ms) is named on a time chart: its text's right
/// end, baseline and width, at the box's top right, below any fault window's label it would
/// meet; a box too narrow for it (a phone's chart) has it just outside, on its right, else
/// on its left; none where neither has room. The chart keeps its direct labels clear of it
/// and the playhead layer draws it, both from here.
fn moment_label_at(
    faults: &[(f64, f64, String)],
    end_ms: f64,
    from: f64,
    to: f64,
    name: &str,
    chart_w: f64,
) -> Option<(f64, f64, f64)> {
    let scale = x_scale(end_ms, chart_w);
    let (x0, x1) = (scale.map(from.clamp(0.0, end_ms)), scale.map(to.clamp(0.0, end_ms)));
    let natural = crate::plot::palette::label_width(name, 11.0);
    let (right, w) = if x1 - x0 > 70.0 {
        // Inside, squeezed to the box where it is wider.
        (x1 - 4.0, natural.min(x1 - x0 - 8.0))
    } else if x1 + 4.0 + natural <= chart_w - MR {
        (x1 + 4.0 + natural, natural)
    } else if x0 - 4.0 - natural >= ML {
        (x0 - 4.0, natural)
    } else {
        return None;
    };
    let marks: Vec<(f64, f64, f64)> = fault_labels(faults, end_ms, chart_w)
        .into_iter()
        .flatten()
        .map(|(m, y)| {
            let a = if m.label_end { m.label_x - FAULT_LABEL_W } else { m.label_x };
            (a, a + FAULT_LABEL_W, y)
        })
        .collect();
    let mut y = MT + 12.0;
    while marks.iter().any(|&(a, b, fy)| a < right && right - w < b && (fy - y).abs() < 12.0) {
        y += 13.0;
    }
    Some((right, y, w))
}

fn x_axis(lang: Lang, end_ms: f64, h: f64, w: f64) -> Html {
    let xs = x_scale(end_ms, w);
    let end_s = end_ms / 1000.0;
    // 6 ticks asked for on a wide plot, 5 on a narrow one (a phone's 174–222 units): asked
    // for 4, a 90 s run got 0 and 50 only.
    let ticks = nice_ticks(0.0, end_s, if w - ML - MR < 400.0 { 5 } else { 6 });
    html! {
        <g class="axis x">
            <line x1={ML.to_string()} x2={(w - MR).to_string()} y1={(h - MB).to_string()} y2={(h - MB).to_string()} />
            { for ticks.iter().map(|&t| {
                let x = xs.map(t * 1000.0);
                html! {
                    <g>
                        <line x1={x.to_string()} x2={x.to_string()} y1={(h - MB).to_string()} y2={(h - MB + 4.0).to_string()} />
                        // The first tick's label starts at the axis, clear of the y axis' strip
                        // that covers the axis on a phone.
                        <text x={x.to_string()} y={(h - MB + 15.0).to_string()} text-anchor={if x <= ML + 0.5 { "start" } else { "middle" }}>{ format_number(t, 2) }</text>
                    </g>
                }
            }) }
            <text class="axis-label" x={(w - MR).to_string()} y={(h - 3.0).to_string()} text-anchor="end">{ lang.t(T::AxisTime) }</text>
        </g>
    }
}

/// The y axis from 0 to `max`. A chart whose values are all whole numbers (calls in flight,
/// breaker instances in a state) gets whole ticks only: 0.5 of a breaker means nothing.
fn y_axis(max: f64, h: f64, whole: bool, w: f64) -> (Linear, Html) {
    let ys = Linear::new((0.0, max), (h - MB, MT));
    let ticks = crate::plot::axis_ticks(max, whole);
    let html = html! {
        <g class="axis y">
            { for ticks.iter().map(|&t| {
                let y = ys.map(t);
                html! {
                    <g>
                        <line class="grid" x1={ML.to_string()} x2={(w - MR).to_string()} y1={y.to_string()} y2={y.to_string()} />
                        <text x={(ML - 6.0).to_string()} y={(y + 4.0).to_string()} text-anchor="end">{ format_number(t, 2) }</text>
                    </g>
                }
            }) }
        </g>
    };
    (ys, html)
}

/// What the frame of a time chart shows around its data.
struct Frame<'a> {
    lang: Lang,
    id: &'a str,
    title: &'a str,
    unit: &'a str,
    height: f64,
    end_ms: f64,
    /// The top of the y axis (for `data-y-max`, which tests compare across charts).
    y_max: f64,
    /// The series drawn, for the chart's data table, and their bucket (ms).
    lines: Lines,
    bucket_ms: f64,
    /// The view box width (see [`use_chart_width`]) and the figure it was measured on.
    width: ChartWidth,
    figure: NodeRef,
}

/// The frame every time chart shares: caption with unit and legend, axes, then `body`.
fn chart_frame(f: Frame, legend: Html, y_axis: Html, body: Html) -> Html {
    let (h, w) = (f.height, f.width.w);
    html! {
        <figure class={classes!("chart", f.width.fits.then_some("fits"))} id={f.id.to_string()} ref={f.figure}
            data-x-end={f.end_ms.to_string()} data-y-max={f.y_max.to_string()}>
            <figcaption>
                { f.title }
                if !f.unit.is_empty() { <span class="unit">{ f.lang.f(T::InBrackets, &[("text", f.unit)]) }</span> }
                <span class="legend">{ legend }</span>
                { figure_export(f.lang, f.id, f.title) }
            </figcaption>
            <div class="plot">
                <svg viewBox={format!("0 0 {w} {h}")} role="img" aria-label={f.title.to_string()}>
                    { y_axis.clone() }
                    { x_axis(f.lang, f.end_ms, h, w) }
                    { body }
                </svg>
                if !f.width.fits { { y_strip("time", ML, h, y_axis) } }
                <Playhead end_ms={f.end_ms} height={h} width={w} lang={f.lang} />
            </div>
            <ChartData lang={f.lang} id={f.id.to_string()} lines={f.lines} bucket_ms={f.bucket_ms} />
        </figure>
    }
}

/// A copy of a chart's y axis on an opaque strip, `left` units of the chart's `h`-high
/// view box wide: on a phone the chart scrolls sideways and the strip stays at the
/// scroller's left edge, over the chart's own axis at the same scale (see `.y-strip` in
/// the style sheet; `kind` names the chart's width there). Hidden elsewhere; screen
/// readers skip it and export leaves it out (it has no `role`), and it comes after the
/// chart in the document so that `figure svg` still finds the chart.
pub fn y_strip(kind: &'static str, left: f64, h: f64, axis: Html) -> Html {
    html! {
        <svg viewBox={format!("0 0 {left} {h}")} class={classes!("y-strip", kind)} aria-hidden="true" focusable="false">
            <rect class="yaxis-bg" width={left.to_string()} height={h.to_string()} />
            { axis }
        </svg>
    }
}

#[derive(Properties, PartialEq)]
struct ChartDataProps {
    lang: Lang,
    /// The chart's id; the table's is `{id}-table`.
    id: String,
    lines: Lines,
    bucket_ms: f64,
}

/// A chart's numbers as a table (`plot::data_table`), under a disclosure: built when it is
/// opened, and again only for a new run (the series compare by identity).
#[component]
fn ChartData(props: &ChartDataProps) -> Html {
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::Element = e.target_unchecked_into();
            let now = d.has_attribute("open");
            if *open != now {
                open.set(now);
            }
        })
    };
    let table = open.then(|| {
        let series: Vec<(&str, &[f64])> =
            props.lines.0.iter().map(|l| (l.name.as_str(), l.values.as_slice())).collect();
        let id = format!("{}-table", props.id);
        Html::from_html_unchecked(
            crate::plot::data_table::markup(props.lang, &id, &series, props.bucket_ms).into(),
        )
    });
    html! {
        <details class="chart-data" open={*open} {ontoggle}>
            <summary>{ props.lang.t(T::DataTable) }</summary>
            { for table }
        </details>
    }
}

fn legend(lines: &[Line]) -> Html {
    lines
        .iter()
        .map(|l| html! { <span class="legend-item"><span class={classes!("swatch", l.class.clone())} />{ &l.name }</span> })
        .collect()
}

fn edges(n: usize, bucket_ms: f64, xs: &Linear) -> Vec<f64> {
    (0..=n).map(|i| xs.map(i as f64 * bucket_ms)).collect()
}

/// Lines over virtual time, drawn as steps per bucket.
#[component]
pub fn TimeChart(props: &TimeChartProps) -> Html {
    let h = use_chart_height(props.height);
    let figure = use_node_ref();
    let width = use_chart_width(&figure);
    let w = width.w;
    // A lesson step's moment, whose name the direct labels keep clear of.
    let step_moment = use_context::<StepMoment>();
    let max_v = props.lines.0.iter().flat_map(|l| l.values.iter().copied()).fold(0.0_f64, f64::max);
    let max = nice_max(props.y_max.unwrap_or(0.0).max(max_v).max(props.limit.as_ref().map_or(0.0, |l| l.0)));
    let xs = x_scale(props.end_ms, w);
    let whole = props.lines.0.iter().flat_map(|l| &l.values).all(|v| v.fract() == 0.0);
    let (ys, y_axis) = y_axis(max, h, whole, w);
    let n = props.lines.0.iter().map(|l| l.values.len()).max().unwrap_or(0);
    let xe = edges(n, props.bucket_ms, &xs);
    let paths: Html = props
        .lines
        .0
        .iter()
        .map(|l| {
            let ys_px: Vec<f64> = l.values.iter().map(|&v| ys.map(v)).collect();
            html! { <path class={classes!("series", l.class.clone())} d={step_path(&xe, &ys_px)} /> }
        })
        .collect();
    let limit = props.limit.as_ref().map(|(v, label)| {
        let y = ys.map(*v);
        // Above its line, or below it where the line runs along the top.
        let ty = if y - 4.0 < MT + 10.0 { y + 13.0 } else { y - 4.0 };
        // At the right end, else at the left one, else at the first place from the right
        // where no series runs through its text (a queue draining down onto the limit);
        // where there is none, at the right end.
        let label_w = crate::plot::palette::label_width(label, 11.0);
        let crosses = |x0: f64, x1: f64| {
            props.lines.0.iter().any(|l| {
                l.values.iter().enumerate().any(|(i, &v)| {
                    let (a, b) = (xe.get(i).copied().unwrap_or(w), xe.get(i + 1).copied().unwrap_or(w));
                    let py = ys.map(v);
                    b > x0 && a < x1 && py > ty - 12.0 && py < ty + 3.0
                })
            })
        };
        let (left, right) = (ML + 4.0, w - MR - 4.0);
        let steps = ((right - left - label_w) / (label_w / 2.0)).max(0.0) as usize;
        let free = std::iter::once(right)
            .chain(std::iter::once(left + label_w))
            .chain((1..=steps).map(|k| right - k as f64 * label_w / 2.0))
            .find(|&end| !crosses(end - label_w, end))
            .unwrap_or(right);
        (
            html! { <g class="limit"><line x1={ML.to_string()} x2={(w - MR).to_string()} y1={y.to_string()} y2={y.to_string()} /></g> },
            html! { <g class="limit"><text x={free.to_string()} y={ty.to_string()} text-anchor="end">{ label }</text></g> },
        )
    });
    let labels: Html = if props.labels {
        // Series that ever rise above zero, each as drawn.
        let drawn: Vec<(&Line, Vec<f64>)> = props
            .lines
            .0
            .iter()
            .filter(|l| l.values.iter().any(|&v| v > 0.0))
            .map(|l| (l, l.values.iter().map(|&v| ys.map(v)).collect()))
            .collect();
        // 11 px text, see `text.direct-label`.
        let widths: Vec<f64> =
            drawn.iter().map(|(l, _)| crate::plot::palette::label_width(&l.name, 11.0)).collect();
        let series: Vec<&[f64]> = drawn.iter().map(|(_, y)| y.as_slice()).collect();
        let limit_at: Vec<f64> =
            props.limit.iter().map(|(v, _)| ys.map(*v)).flat_map(|y| vec![y; n]).collect();
        // The other texts the playhead layer writes over the plot: the fault labels along the
        // top and the step's moment's name under them, each (left, right, baseline).
        let texts: Vec<(f64, f64, f64)> = fault_labels(&props.faults, props.end_ms, w)
            .into_iter()
            .flatten()
            .map(|(m, y)| {
                let x0 = if m.label_end { m.label_x - FAULT_LABEL_W } else { m.label_x };
                (x0, x0 + FAULT_LABEL_W, y)
            })
            .chain(
                step_moment
                    .and_then(|m| m.0)
                    .and_then(|(from, to)| {
                        moment_label_at(
                            &props.faults,
                            props.end_ms,
                            from,
                            to,
                            props.lang.t(T::StepMomentLabel),
                            w,
                        )
                    })
                    .map(|(right, y, name_w)| (right - name_w, right, y)),
            )
            .collect();
        // Each as two lines (its text's top and its baseline) under its width: a direct
        // label over one had hidden it ("fault 1d").
        let text_edges: Vec<Vec<f64>> = texts
            .iter()
            .flat_map(|&(x0, x1, y)| {
                let under = |yy: f64| -> Vec<f64> {
                    (0..n).map(|i| if xe[i + 1] > x0 && xe[i] < x1 { yy } else { f64::NAN }).collect()
                };
                [under(y - 9.5), under(y + 2.0)]
            })
            .collect();
        let obstacles: Vec<&[f64]> = std::iter::once(limit_at.as_slice())
            .filter(|l| !l.is_empty())
            .chain(text_edges.iter().map(Vec::as_slice))
            .collect();
        let area = crate::plot::direct_labels::Area { left: ML, right: w - MR, top: MT, bottom: h - MB };
        let at = crate::plot::direct_labels::place(&xe, &series, &widths, &obstacles, area);
        // A label left over one of those texts, or over a label written before it (a phone's
        // narrow chart can leave no other place), is not written: the legend names its
        // series, and text over text reads as neither.
        let over_text = |texts: &[(f64, f64, f64)], x: f64, y: f64, lw: f64| {
            texts.iter().any(|&(x0, x1, ty)| {
                x - lw / 2.0 < x1 && x0 < x + lw / 2.0 && y - 9.0 < ty + 2.0 && ty - 9.5 < y + 3.0
            })
        };
        let mut written: Vec<(f64, f64, f64)> = Vec::new();
        drawn
            .iter()
            .zip(at)
            .zip(&widths)
            .filter(|&((_, (x, y)), &lw)| {
                let clear = !over_text(&texts, x, y, lw) && !over_text(&written, x, y, lw);
                if clear {
                    written.push((x - lw / 2.0, x + lw / 2.0, y));
                }
                clear
            })
            .map(|(((l, _), (x, y)), _)| {
                html! { <text class={classes!("direct-label", l.class.clone())} x={x.to_string()} y={y.to_string()} text-anchor="middle"><tspan class="mark">{ "━ " }</tspan>{ &l.name }</text> }
            })
            .collect()
    } else {
        Html::default()
    };
    // The limit's line under the series (a pool running full draws its busy line on top of
    // it), its label over them.
    let (limit_line, limit_label) = limit.unzip();
    let body =
        html! { <>{ for limit_line }{ paths }{ for limit_label }<g class="direct-labels">{ labels }</g></> };
    chart_frame(
        Frame {
            lang: props.lang,
            id: &props.id,
            title: &props.title,
            unit: &props.y_unit,
            height: h,
            end_ms: props.end_ms,
            y_max: max,
            lines: props.lines.clone(),
            bucket_ms: props.bucket_ms,
            width,
            figure,
        },
        legend(&props.lines.0),
        y_axis,
        body,
    )
}

#[derive(Properties, PartialEq)]
pub struct StackProps {
    pub lang: Lang,
    pub id: String,
    pub title: String,
    /// (legend, class, values per bucket), bottom first.
    pub layers: Lines,
    pub bucket_ms: f64,
    pub end_ms: f64,
    #[prop_or(170.0)]
    pub height: f64,
    #[prop_or_default]
    pub y_unit: String,
    /// The top of the y axis when shared with another chart.
    #[prop_or_default]
    pub y_max: Option<f64>,
    /// A line drawn over the bands (the SLO's target), with its legend and class.
    #[prop_or_default]
    pub target: Option<Line>,
}

/// Stacked areas per bucket (outcomes over time).
#[component]
pub fn StackChart(props: &StackProps) -> Html {
    let h = use_chart_height(props.height);
    let figure = use_node_ref();
    let width = use_chart_width(&figure);
    let w = width.w;
    let n = props.layers.0.iter().map(|l| l.values.len()).max().unwrap_or(0);
    let totals: Vec<f64> = (0..n)
        .map(|i| props.layers.0.iter().map(|l| l.values.get(i).copied().unwrap_or(0.0)).sum())
        .collect();
    let max = nice_max(totals.iter().copied().fold(props.y_max.unwrap_or(0.0), f64::max));
    let xs = x_scale(props.end_ms, w);
    let whole = totals.iter().all(|v| v.fract() == 0.0);
    let (ys, y_axis) = y_axis(max, h, whole, w);
    let xe = edges(n, props.bucket_ms, &xs);
    let mut below = vec![0.0; n];
    let bands: Html = props
        .layers
        .0
        .iter()
        .map(|l| {
            let top: Vec<f64> = (0..n).map(|i| below[i] + l.values.get(i).copied().unwrap_or(0.0)).collect();
            let d = step_band(
                &xe,
                &top.iter().map(|&v| ys.map(v)).collect::<Vec<_>>(),
                &below.iter().map(|&v| ys.map(v)).collect::<Vec<_>>(),
            );
            below = top;
            html! { <path class={classes!("band", l.class.clone())} d={d} /> }
        })
        .collect();
    let target = props.target.as_ref().map(|l| {
        let ys_px: Vec<f64> = l.values.iter().map(|&v| ys.map(v)).collect();
        html! { <path class={classes!("series", l.class.clone())} d={step_path(&xe, &ys_px)} /> }
    });
    let mut keys: Vec<Line> = props.layers.0.to_vec();
    keys.extend(props.target.clone());
    // The table's series: the bands and the target line, made once per run.
    let table_lines = use_memo((props.layers.clone(), props.target.clone()), |_| Lines::new(keys.clone()));
    chart_frame(
        Frame {
            lang: props.lang,
            id: &props.id,
            title: &props.title,
            unit: &props.y_unit,
            height: h,
            end_ms: props.end_ms,
            y_max: max,
            lines: (*table_lines).clone(),
            bucket_ms: props.bucket_ms,
            width,
            figure,
        },
        legend(&keys),
        y_axis,
        html! { <>{ bands }{ for target }</> },
    )
}

/// Whether the page is drawn beneath the presenter's stage, provided by the shell. A
/// chart's page shape (640 × 170) filled the stage's width and less than half its height
/// on a 16:9 projector: on the stage a time chart is drawn at least [`STAGE_HEIGHT`] high,
/// at the same width, so its text keeps its size and its data gets the room.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnStage(pub bool);

/// A time chart's least view box height on the stage: 640 × 380 fills a 1920 × 1080 stage
/// below the chart's caption (the style sheet caps it to the screen's height beyond that).
pub const STAGE_HEIGHT: f64 = 380.0;

/// A chart's view box height: its own, or on the stage at least [`STAGE_HEIGHT`]. A hook:
/// call it where the component's other hooks are.
#[hook]
fn use_chart_height(own: f64) -> f64 {
    let on_stage = use_context::<OnStage>().is_some_and(|s| s.0);
    if on_stage { own.max(STAGE_HEIGHT) } else { own }
}

/// Where the storm page's playhead is (ms of virtual time), provided to the time charts of
/// a run view, each of which draws it inside its own plot box (see [`Playhead`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayheadAt {
    /// The playhead (ms of virtual time).
    pub at_ms: f64,
    /// The scenario's fault windows (from, to in ms, and the label "fault 1"…), which the
    /// layer marks along the plot's top: the trigger a chart's story starts from, which the
    /// series alone do not show. None in compare mode's overlay (two scenarios, one chart).
    pub faults: Rc<Vec<(f64, f64, String)>>,
}

#[derive(Properties, PartialEq)]
pub struct PlayheadProps {
    /// The chart's own time axis end (ms), so the line and the chart share one scale.
    pub end_ms: f64,
    /// The chart's view box height and width.
    pub height: f64,
    pub width: f64,
    /// For the label of what a lesson veils.
    pub lang: Lang,
}

/// The stretch of virtual time a lesson step points at (from, to in ms), provided by the
/// storm page to every chart's playhead layer, which shades it; and where the step's veil
/// covers a time chart from (ms; None: the playhead, see `lesson::Playback`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepMoment(pub Option<(f64, f64)>, pub Option<f64>);

/// The playhead line over the shaded stretch a lesson step points at (if any), drawn in
/// the chart's plot box over its drawing at the same view box: a layer sized to the
/// chart's outer box was off by the figure's padding on the presenter's stage. Only this
/// component follows the playhead; the chart under it is not drawn again. Nothing without
/// a [`PlayheadAt`] (the labs' charts).
#[component]
pub fn Playhead(props: &PlayheadProps) -> Html {
    // Both contexts read before any return: hooks run in the same order on every render.
    let (at, step_moment) = (use_context::<PlayheadAt>(), use_context::<StepMoment>());
    let Some(PlayheadAt { at_ms, faults }) = at else { return Html::default() };
    let w = props.width;
    let scale = x_scale(props.end_ms, w);
    let marks = fault_labels(&faults, props.end_ms, w);
    // The step's moment's name, placed before `faults` is drawn (see `moment_label_at`).
    let moment_name = props.lang.t(T::StepMomentLabel);
    let named = step_moment
        .and_then(|m| m.0)
        .and_then(|(from, to)| moment_label_at(&faults, props.end_ms, from, to, moment_name, w));
    let faults = faults.iter().zip(marks).filter_map(|((from, to, label), m)| {
        let (m, label_y) = m?;
        let strip_y = MT - 4.0 * (m.row as f64 + 1.0);
        Some(html! { <g class="fault-window" data-from-ms={from.to_string()} data-to-ms={to.to_string()}>
            <rect class="fault-span" x={m.x.to_string()} width={m.w.to_string()} y={MT.to_string()} height={(props.height - MB - MT).to_string()} />
            <rect class="fault-strip" x={m.x.to_string()} width={m.w.to_string()} y={strip_y.to_string()} height="3.5" />
            <text class="fault-label" x={m.label_x.to_string()} y={label_y.to_string()} text-anchor={if m.label_end { "end" } else { "start" }}>{ label }</text>
        </g> })
    });
    let x = scale.map(at_ms.clamp(0.0, props.end_ms));
    // Where a veil's cover starts: where the step's playback starts (`veil_from_start`), else
    // the playhead, but never past where the step pauses: playing on does not answer for
    // the learner.
    let veil_from = match step_moment {
        Some(StepMoment(_, Some(from))) => from,
        Some(StepMoment(Some((_, pause)), None)) => at_ms.min(pause),
        _ => at_ms,
    };
    let veil_x = scale.map(veil_from.clamp(0.0, props.end_ms));
    let moment = step_moment.and_then(|m| m.0).map(|(from, to)| {
        let (x0, x1) = (scale.map(from.clamp(0.0, props.end_ms)), scale.map(to.clamp(0.0, props.end_ms)));
        // Named (see `moment_label_at`): unnamed, a box over the fault's band read as the
        // fault lasting as long.
        let (name, w) = (moment_name, (x1 - x0).max(0.0));
        html! {
            <>
                <rect class="step-moment" data-from-ms={from.to_string()} data-to-ms={to.to_string()}
                    x={x0.to_string()} width={w.to_string()} y={MT.to_string()} height={(props.height - MB - MT).to_string()} />
                if let Some((right, y, name_w)) = named {
                    <text class="step-moment-label" x={right.to_string()} y={y.to_string()} text-anchor="end"
                        textLength={crate::plot::palette::squeeze(name, 11.0, name_w)} lengthAdjust="spacingAndGlyphs">{ name }</text>
                }
            </>
        }
    });
    // What a lesson's veil covers on a time chart: the run after the playhead, which the
    // step asks the learner to predict (shown only while the chart is veiled, see
    // `.veil-future`); what led up to the step's moment stays in view.
    let plot_h = props.height - MB - MT;
    let future_w = (w - MR - veil_x).max(0.0);
    let label = &super::veil_words(props.lang, T::VeiledFuture);
    let veil = html! {
        <g class="veil-future">
            <rect x={veil_x.to_string()} width={future_w.to_string()} y={(MT - 12.0).to_string()} height={(plot_h + 15.0).to_string()} />
            if future_w > 60.0 {
                <text x={(veil_x + future_w / 2.0).to_string()} y={(MT + plot_h / 2.0).to_string()} text-anchor="middle"
                    textLength={crate::plot::palette::squeeze(label, 11.0, future_w - 16.0)} lengthAdjust="spacingAndGlyphs">{ label }</text>
            }
        </g>
    };
    html! {
        <svg class="playhead-layer" viewBox={format!("0 0 {w} {}", props.height)} aria-hidden="true" focusable="false">
            // The cover under the step's moment and the fault windows: the trigger is the
            // step's input, not its answer.
            { veil }
            { for moment }
            { for faults }
            <line class="playhead" x1={x.to_string()} x2={x.to_string()} y1={MT.to_string()} y2={(props.height - MB).to_string()} />
        </svg>
    }
}

#[derive(Properties, PartialEq)]
pub struct LatencyProps {
    pub lang: Lang,
    pub dists: Vec<LatencyDist>,
    /// Appended to the chart's id (compare mode draws two).
    #[prop_or_default]
    pub id_suffix: &'static str,
    /// A bar picked (click, Enter or Space): the request number the bar names. None: bars
    /// are not pickable.
    #[prop_or_default]
    pub onpick: Option<Callback<u64>>,
    /// The y scale's top (requests), when two runs are drawn side by side on one scale.
    #[prop_or_default]
    pub y_max: Option<f64>,
}

/// The most requests in one bin of a run's latency histograms (see [`LatencyChart`]).
pub fn latency_top(dists: &[LatencyDist]) -> f64 {
    dists.iter().flat_map(|d| d.bins.iter().map(|b| b.1)).max().unwrap_or(1) as f64
}

/// The arrow keys, Home and End on a latency bar: focus the next, previous, first or last
/// pickable bar of its chart (in the order drawn: by outcome, then by latency). Whether the
/// key was one of them.
fn move_among_bars(e: &KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let step: isize = match e.key().as_str() {
        "ArrowRight" | "ArrowDown" => 1,
        "ArrowLeft" | "ArrowUp" => -1,
        "Home" => isize::MIN,
        "End" => isize::MAX,
        _ => return false,
    };
    let Some(bar) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return true };
    let Some(list) =
        bar.closest("svg").ok().flatten().and_then(|svg| svg.query_selector_all("rect.pick").ok())
    else {
        return true;
    };
    let n = list.length() as isize;
    let here = (0..n).find(|&i| list.item(i as u32).is_some_and(|x| x == *bar)).unwrap_or(0);
    let to = match step {
        isize::MIN => 0,
        isize::MAX => n - 1,
        s => (here + s).clamp(0, n - 1),
    };
    if let Some(next) = list.item(to as u32).and_then(|x| x.dyn_into::<web_sys::SvgElement>().ok()) {
        let _ = next.focus();
    }
    true
}

/// Latency histograms per outcome on a log axis, with p50 and p99 markers.
#[component]
pub fn LatencyChart(props: &LatencyProps) -> Html {
    // Drawn as wide as its figure down to `LATENCY_MIN_W`: in compare mode's halves its text
    // keeps its size (the bars are as thin either way, the picture scaled down or not).
    let figure = use_node_ref();
    let width = use_chart_width_from(&figure, LATENCY_MIN_W, W, LATENCY_SCROLL_W);
    let w = width.w;
    let lang = props.lang;
    let h = 190.0;
    let present: Vec<&LatencyDist> = props.dists.iter().filter(|d| d.count > 0).collect();
    if present.is_empty() {
        return html! { <p class="empty">{ lang.t(T::NoData) }</p> };
    }
    let edges: Vec<f64> = present[0].bins.iter().map(|b| b.0).collect();
    let lo = (edges.first().copied().unwrap_or(1.0) / 1.3).max(0.001);
    let hi = edges.last().copied().unwrap_or(1.0).max(lo * 2.0);
    let xs = Log::new((lo, hi), (ML, w - MR));
    let max_count = latency_top(&props.dists).max(props.y_max.unwrap_or(0.0));
    let (ys, y_axis) = y_axis(nice_max(max_count), h, true, w);
    let k = present.len() as f64;
    // The bars are one stop of the Tab key, the first: the arrow keys move between them
    // (a busy run has dozens, and the settings came after all of them).
    let mut first_pick = true;
    let bars: Html = present
        .iter()
        .enumerate()
        .map(|(j, d)| {
            let class = format!("o-{}", d.outcome);
            let rects: Html = d
                .bins
                .iter()
                .enumerate()
                .filter(|(_, b)| b.1 > 0)
                .map(|(i, b)| {
                    let x0 = xs.map(if i == 0 { lo } else { d.bins[i - 1].0 });
                    let x1 = xs.map(b.0);
                    let w = ((x1 - x0) / k).max(1.0);
                    let y = ys.map(b.1 as f64);
                    let (x, width, height) = ((x0 + w * j as f64).to_string(), w.to_string(), (h - MB - y).max(0.0).to_string());
                    let example = d.examples.get(i).copied().flatten();
                    match (example, props.onpick.clone()) {
                        (Some(n), Some(cb)) => {
                            let label = lang.f(
                                T::LatencyPick,
                                &[("n", &n.to_string()), ("count", &lang.count(b.1 as f64, T::UnitRequests)), ("ms", &format_number(b.0, 1))],
                            );
                            let click = cb.clone();
                            let onclick = Callback::from(move |_: MouseEvent| click.emit(n));
                            let onkeydown = Callback::from(move |e: KeyboardEvent| {
                                if e.key() == "Enter" || e.key() == " " {
                                    e.prevent_default();
                                    cb.emit(n);
                                } else if move_among_bars(&e) {
                                    e.prevent_default();
                                }
                            });
                            let tabindex = if std::mem::take(&mut first_pick) { "0" } else { "-1" };
                            html! {
                                <rect class={classes!(class.clone(), "pick")} {x} y={y.to_string()} {width} {height} {tabindex} role="button"
                                    aria-label={label.clone()} data-request={n.to_string()} {onclick} {onkeydown}><title>{ label }</title></rect>
                            }
                        }
                        _ => html! { <rect class={class.clone()} {x} y={y.to_string()} {width} {height} /> },
                    }
                })
                .collect();
            let p = &d.percentiles;
            // The values are written in the legend, not on the bars (where they would be
            // clipped at the edge and unreadable over a bar); the lines only mark where.
            let marker = |v: f64, which: &'static str| {
                let x = xs.map(v.max(lo));
                html! {
                    <g class={classes!("pmark", which, class.clone())}>
                        <line x1={x.to_string()} x2={x.to_string()} y1={MT.to_string()} y2={(h - MB).to_string()} />
                    </g>
                }
            };
            html! { <g>{ rects }{ marker(p.p50, "p50") }{ marker(p.p99, "p99") }</g> }
        })
        .collect();
    // Each decade's label inside the drawing and clear of the y axis's "0" at the corner.
    let ticks = crate::plot::tick_labels(
        (-3..=7)
            .map(|e| 10f64.powi(e))
            .filter(|t| *t >= lo && *t <= hi)
            .map(|t| (xs.map(t), format_number(t, 3)))
            .collect(),
        10.5,
        ML - 2.0,
        w,
        6.0,
    );
    let legend: Html = present
        .iter()
        .map(|d| {
            let name = match d.outcome {
                RequestOutcome::Succeeded => T::OutcomeSucceeded,
                RequestOutcome::Degraded => T::OutcomeDegraded,
                RequestOutcome::Failed => T::OutcomeFailed,
                RequestOutcome::Rejected | RequestOutcome::Unfinished => T::OutcomeRejected,
            };
            let p = &d.percentiles;
            let text = lang.f(
                T::LatencyLegend,
                &[
                    ("outcome", lang.t(name)),
                    ("n", &format_number(d.count as f64, 0)),
                    ("p50", &format_number(p.p50, 1)),
                    ("p99", &format_number(p.p99, 1)),
                ],
            );
            html! { <span class="legend-item"><span class={classes!("swatch", format!("o-{}", d.outcome))} />{ text }</span> }
        })
        .collect();
    html! {
        <figure class={classes!("chart", width.fits.then_some("fits"))} id={format!("chart-latency{}", props.id_suffix)} ref={figure}>
            <figcaption>
                { lang.t(T::ChartLatency) }
                // The bars count requests: say so, so that the axis is not read as ms.
                <span class="unit">{ lang.f(T::InBrackets, &[("text", lang.t(T::UnitRequests))]) }</span><span class="legend">{ legend }</span>
                { figure_export(lang, &format!("chart-latency{}", props.id_suffix), lang.t(T::ChartLatency)) }
            </figcaption>
            // With pickable bars it is a group of buttons, not an image (an image may not hold
            // focusable parts).
            <svg viewBox={format!("0 0 {w} {h}")} role={if props.onpick.is_some() { "group" } else { "img" }} aria-label={lang.t(T::ChartLatency)}>
                { y_axis }
                <g class="axis x">
                    <line x1={ML.to_string()} x2={(w - MR).to_string()} y1={(h - MB).to_string()} y2={(h - MB).to_string()} />
                    { for ticks.into_iter().map(|(x, text, anchor)| html! {
                        <text x={x.to_string()} y={(h - MB + 15.0).to_string()} text-anchor={anchor}>{ text }</text>
                    }) }
                    <text class="axis-label" x={(w - MR).to_string()} y={(h - 3.0).to_string()} text-anchor="end">{ lang.t(T::AxisLatency) }</text>
                </g>
                { bars }
            </svg>
            // A log axis has no 0: refusals answered at once sit at its left edge. (Not any
            // outcome in the first bin: the bins start at the run's fastest answer.)
            if present.iter().any(|d| d.percentiles.p50 == 0.0) {
                <p class="note" id={format!("latency-zero-note{}", props.id_suffix)}>{ lang.t(T::LatencyZeroNote) }</p>
            }
        </figure>
    }
}
