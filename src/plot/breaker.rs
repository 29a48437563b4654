//! What the breaker lab draws at a playhead, from a run of `model::breaker_lab`: the state
//! band's segments, the calls in the strip, each call's cell and the window's contents —
//! and the markup of everything on the page that only displays.
//!
//! That markup is built as text (SVG and tables) rather than with Yew's `html!`: a string
//! per part costs a fraction of the code `html!` generates per element, and the site's
//! whole bundle has a budget. Every text in it is escaped ([`esc`]); it is tested natively.

use crate::i18n::{Lang, T, format_number};
use crate::model::breaker_lab::{Call, Cause, Change, Fate, LabInput, LabRun};
use crate::plot::palette::glyphs_width;
use crate::plot::{Linear, esc, nice_ticks, tick_labels};
use crate::policy::breaker::{State, Tally, WindowKind};
use std::fmt::Write;
use std::ops::Range;

/// How a call's cell looks at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Answered, healthy.
    Ok,
    /// Answered, failed.
    Failed,
    /// Answered, healthy but slow.
    Slow,
    /// Rejected at once.
    Rejected,
    /// Let through, no answer yet.
    Pending,
}

/// A call's cell at `t_us`, whether it is a probe, and whether its answer was dropped
/// (it came after the state changed).
pub fn cell(c: &Call, t_us: u64) -> (Cell, bool, bool) {
    let probe = c.fate == Fate::Probe;
    let look = match c.fate {
        Fate::Rejected => Cell::Rejected,
        _ if c.done_us > t_us => Cell::Pending,
        _ if c.failed => Cell::Failed,
        _ if c.slow => Cell::Slow,
        _ => Cell::Ok,
    };
    let dropped = c.fate != Fate::Rejected && c.done_us <= t_us && !c.recorded;
    (look, probe, dropped)
}

/// The calls made by playhead `k` (call `k` included; every call at the end), the
/// latest `most` of them.
pub fn strip(run: &LabRun, k: usize, most: usize) -> Range<usize> {
    let end = (k + 1).min(run.calls.len());
    end.saturating_sub(most)..end
}

/// The calls the window holds at playhead `k`, oldest first (at most the latest `most`),
/// and how many more it holds.
pub fn window_calls(run: &LabRun, k: usize, most: usize) -> (&[u32], usize) {
    let f = run.frame(k);
    let end = f.records as usize;
    let all = &run.records[end.saturating_sub(f.tally.calls as usize)..end];
    let shown = &all[all.len().saturating_sub(most)..];
    (shown, all.len() - shown.len())
}

/// The state band: (from µs, to µs, state) for the whole run.
pub fn segments(run: &LabRun) -> Vec<(u64, u64, State)> {
    let mut out = Vec::with_capacity(run.changes.len() + 1);
    let (mut from, mut state) = (0, State::Closed);
    for c in &run.changes {
        out.push((from, c.at_us, state));
        (from, state) = (c.at_us, c.to);
    }
    out.push((from, run.end_us, state));
    out
}

/// A rate in percent, from a count over a total (0 for none).
pub fn pct(part: u32, of: u32) -> f64 {
    if of == 0 { 0.0 } else { f64::from(part) * 100.0 / f64::from(of) }
}

/// Cells in the strip of latest calls, and in the window's picture.
pub const STRIP: usize = 120;
pub const WINDOW_CELLS: usize = 60;

/// The word for a state.
pub fn state_word(s: State) -> T {
    match s {
        State::Closed => T::StateClosed,
        State::Open => T::StateOpen,
        State::HalfOpen => T::StateHalfOpen,
    }
}

/// The name of a state in `data-` attributes.
fn state_id(s: State) -> &'static str {
    ["Closed", "HalfOpen", "Open"][s.level() as usize]
}

fn percent(lang: Lang, x: f64, decimals: usize) -> String {
    lang.percent(&format_number(x, decimals))
}

/// One cell at (x, y): a square (a circle for a probe) filled by its outcome, with a mark
/// that says the same without colour: × failed, a clock hand slow; a dashed outline
/// rejected, an outline only while no answer has come; faded when the answer was dropped.
fn glyph(out: &mut String, (c, probe, dropped): (Cell, bool, bool), x: f64, y: f64) {
    let class = ["k-ok", "k-fail", "k-slow", "k-rej", "k-pend"][c as usize];
    let late = if dropped { " k-late" } else { "" };
    let _ = write!(out, r#"<g class="cell {class}{late}">"#);
    if probe {
        let _ = write!(out, r#"<circle cx="{}" cy="{}" r="5.5"/>"#, x + 6.0, y + 6.0);
    } else {
        let _ = write!(out, r#"<rect x="{}" y="{}" width="11" height="11" rx="1.5"/>"#, x + 0.5, y + 0.5);
    }
    match c {
        Cell::Failed => {
            let _ = write!(out, r#"<path class="mark" d="M{},{}l6,6m0,-6l-6,6"/>"#, x + 3.0, y + 3.0);
        }
        Cell::Slow => {
            let _ = write!(out, r#"<path class="mark" d="M{},{}v4h3"/>"#, x + 6.0, y + 2.5);
        }
        _ => {}
    }
    out.push_str("</g>");
}

/// Calls `idx` as cells at `t_us`, [`CELL_STEP`] units apart, `per_row` to a row, the
/// drawing as tall as `reserve` cells take at least: the rows the strip will fill are held
/// from the first call, so that the panels below do not move down while it plays.
fn cells(
    out: &mut String,
    r: &LabRun,
    idx: impl Iterator<Item = usize>,
    t_us: u64,
    (per_row, reserve): (usize, usize),
    label: &str,
) {
    let mut body = String::new();
    let mut n = 0;
    for i in idx {
        glyph(
            &mut body,
            cell(&r.calls[i], t_us),
            (n % per_row * CELL_STEP) as f64,
            (n / per_row * CELL_STEP) as f64,
        );
        n += 1;
    }
    let rows = n.max(reserve).div_ceil(per_row).max(1);
    let _ = write!(
        out,
        r#"<svg class="cells" viewBox="0 0 {} {}" role="img" aria-label="{}">{body}</svg>"#,
        per_row * CELL_STEP,
        rows * CELL_STEP,
        esc(label)
    );
}

/// The state band over the whole run: one row per state, below them the dependency's
/// phases (shaded by failure share, hatched when slow, each with its figures), the
/// playhead, time ticks.
/// `w`: the view box's width, the box's own in CSS px (see [`BAND_MIN_W`]), so that its
/// text is drawn at its own size; `scrolls`: a box too narrow even for that, which shows
/// the band [`BAND_SCROLL_W`] wide and scrolls sideways.
fn band(out: &mut String, lang: Lang, input: &LabInput, r: &LabRun, at_us: u64, w: f64, scrolls: bool) {
    // The plot starts past the longest row label (bold, a little wider than the estimate):
    // Chinese labels are two characters, and a phone's band needs the room.
    let labels = [State::Open, State::HalfOpen, State::Closed].map(|s| lang.t(state_word(s)));
    let longest =
        labels.iter().chain([&lang.t(T::BlDependency)]).map(|l| glyphs_width(l, 10.5)).fold(0.0, f64::max);
    let (left, row) = ((longest * 1.1 + 10.0).clamp(40.0, 104.0), 16.0);
    let xs = Linear::new((0.0, r.end_us.max(1) as f64), (left, w - 8.0));
    let y = |s: State| 4.0 + f64::from(2 - s.level()) * row;
    let _ = write!(
        out,
        r#"<svg class="band{}" viewBox="0 0 {w} 100" role="img" aria-label="{}">"#,
        if scrolls { " scrolls" } else { "" },
        esc(lang.t(T::ChartBreaker))
    );
    for s in [State::Open, State::HalfOpen, State::Closed] {
        let _ = write!(
            out,
            r#"<text class="row-label" x="2" y="{}">{}</text>"#,
            y(s) + 11.0,
            esc(lang.t(state_word(s)))
        );
    }
    for (a, b, s) in segments(r) {
        let (x0, x1) = (xs.map(a as f64), xs.map(b as f64));
        let class = ["s-closed", "s-half", "s-open"][s.level() as usize];
        // A half-open stretch lasts as long as its few probes, a sliver on a 30 s axis: drawn
        // at least 4 units wide, on its own row, so a class can count it.
        let least = if s == State::HalfOpen { 4.0 } else { 1.0 };
        let _ = write!(
            out,
            r#"<rect class="{class}" x="{x0:.2}" y="{}" width="{:.2}" height="{}"/>"#,
            y(s),
            (x1 - x0).max(least),
            row - 2.0
        );
    }
    let _ = write!(out, r#"<text class="row-label" x="2" y="65">{}</text>"#, esc(lang.t(T::BlDependency)));
    let mut from = 0.0;
    for p in &input.phases {
        let to = from + p.duration_ms * 1000.0;
        let (x0, x1) = (xs.map(from), xs.map(to.min(r.end_us as f64)));
        let slow = input.breaker.slow_call_ms.is_some_and(|s| p.latency_ms >= s);
        let (class, shade) = match (slow, p.failure_pct > 0.0) {
            (true, _) => ("slow", 1.0),
            (false, true) => ("fail", 0.25 + 0.75 * p.failure_pct / 100.0),
            (false, false) => ("ok", 0.35),
        };
        let failing = percent(lang, p.failure_pct, 0);
        let full = format!("{failing} · {} ms", format_number(p.latency_ms, 0));
        // Every phase says what it is on hover; its label, the whole one if it fits, else its
        // failure rate alone (a 10 s first phase of 80 s had gone unlabelled).
        let _ = write!(
            out,
            r#"<rect class="phase {class}" x="{x0:.2}" y="54" width="{:.2}" height="15" fill-opacity="{shade:.2}"><title>{}</title></rect>"#,
            (x1 - x0 - 1.0).max(1.0),
            esc(&full),
        );
        // 10.5-unit text (10.5 px: the band is drawn as wide as its box), about 5.9 units a
        // character.
        let fits = |t: &str| x1 - x0 > t.chars().count() as f64 * 5.9 + 6.0;
        if let Some(label) = [full.clone(), failing].into_iter().find(|t| fits(t)) {
            let _ = write!(
                out,
                r#"<text class="phase-label{}" x="{:.2}" y="65">{}</text>"#,
                if class == "fail" && p.failure_pct >= 50.0 { " on-dark" } else { "" },
                x0 + 4.0,
                esc(&label)
            );
        }
        from = to;
    }
    out.push_str(r#"<g class="axis">"#);
    // A tick per 60 units of plot (3–6), and none that would meet another (a phone's band).
    let most = ((w - left - 8.0) / 60.0).floor().clamp(3.0, 6.0) as usize;
    let ticks = nice_ticks(0.0, r.end_us as f64 / 1e6, most)
        .into_iter()
        .map(|s| (xs.map(s * 1e6), format_number(s, 2)))
        .collect();
    for (x, label, anchor) in tick_labels(ticks, 10.5, 0.0, w, 3.0) {
        let _ = write!(out, r#"<text x="{x:.2}" y="84" text-anchor="{anchor}">{}</text>"#, esc(&label));
    }
    let x = xs.map(at_us as f64);
    let _ = write!(
        out,
        r#"<text class="axis-label" x="{}" y="98" text-anchor="end">{}</text></g><line class="playhead" x1="{x:.2}" x2="{x:.2}" y1="0" y2="72"/></svg>"#,
        w - 8.0,
        esc(lang.t(T::AxisTime))
    );
}

/// A rate against its threshold: words, and a bar with the threshold marked.
fn rate_line(out: &mut String, lang: Lang, what: T, part: u32, of: u32, thr: f64, id: &str) {
    let rate = pct(part, of);
    let text = lang.f(
        T::BlRateLine,
        &[("what", lang.t(what)), ("rate", &percent(lang, rate, 1)), ("thr", &percent(lang, thr, 2))],
    );
    let over = if rate >= thr { " over" } else { "" };
    let _ = write!(
        out,
        r#"<div class="rate{over}" id="{id}" data-value="{rate}"><span>{}</span><svg class="rate-bar" viewBox="0 0 200 10" aria-hidden="true"><rect class="bg" x="0" y="1" width="200" height="8"/><rect class="fill" x="0" y="1" width="{:.2}" height="8"/><line x1="{t:.2}" x2="{t:.2}" y1="0" y2="10"/></svg></div>"#,
        esc(&text),
        rate * 2.0,
        t = thr * 2.0
    );
}

/// Why a transition happened, in words.
pub fn cause_text(lang: Lang, input: &LabInput, c: &Change) -> String {
    let b = &input.breaker;
    match c.cause {
        Cause::Waited { timed } => lang.t(if timed { T::BlWaitTimed } else { T::BlWaitLazy }).into(),
        Cause::Rates { tally, failure, slow } if failure || slow => {
            let (what, part, thr) = if failure {
                (T::BlFailureRate, tally.failures, b.failure_rate_pct)
            } else {
                (T::BlSlowRate, tally.slows, b.slow_rate_pct)
            };
            lang.f(
                T::BlByRate,
                &[
                    ("what", lang.t(what)),
                    ("rate", &percent(lang, pct(part, tally.calls), 1)),
                    ("thr", &percent(lang, thr, 2)),
                    ("f", &part.to_string()),
                    ("n", &tally.calls.to_string()),
                ],
            )
        }
        Cause::Rates { tally, .. } => lang.f(
            T::BlProbesOk,
            &[
                ("f", &tally.failures.to_string()),
                ("n", &tally.calls.to_string()),
                ("s", &tally.slows.to_string()),
            ],
        ),
    }
}

/// The state band's narrowest view box: it is drawn as wide as its box, so that its text
/// keeps its size and a phone shows the whole run (and its playhead) at once; a box
/// narrower still gets a band [`BAND_SCROLL_W`] wide and scrolls sideways.
pub const BAND_MIN_W: f64 = 200.0;

/// The state band's view box in a box narrower than [`BAND_MIN_W`]: as wide as the style
/// sheet draws it there (`.band-scroll svg.band.scrolls`).
pub const BAND_SCROLL_W: f64 = 560.0;

/// The call cells' spacing (units): a cell is 11 units, and a row holds as many as the
/// band's width takes, so that on a phone they are as large as on a laptop.
const CELL_STEP: usize = 14;

/// Everything right of the controls that moves with the playhead, in the pieces the page
/// lays out around the state band's box, which is an element of the page's own: it is
/// measured, and the band drawn as wide as it is.
pub struct Outputs {
    /// The cards and their note.
    pub figures: String,
    /// The band panel's heading: the chart's name and the state at the playhead.
    pub band_title: String,
    /// The state band and its note on the state changes so far.
    pub band: String,
    /// The latest calls and their legend, below the band in its panel.
    pub calls: String,
    /// The window and the transitions so far.
    pub rest: String,
}

/// [`Outputs`] at playhead `k`, the band drawn `band_w` units wide (in a sideways scroll
/// if `scrolls`): the counts, the state band and latest calls, the window, the transitions
/// so far. The rows of cells hold as many as `band_w` takes, at most 40 and 30.
pub fn outputs(lang: Lang, input: &LabInput, r: &LabRun, k: usize, band_w: f64, scrolls: bool) -> Outputs {
    let fit = (if scrolls { 0.0 } else { band_w } / CELL_STEP as f64) as usize;
    let per_row = |most: usize| if fit >= 10 { fit.min(most) } else { most };
    let mut o = String::with_capacity(4_000);
    let t = |k: T| esc(lang.t(k));
    let f = r.frame(k);
    let end = r.frame(usize::MAX);
    let t_us = f.at_us;
    o.push_str(r#"<div class="figures">"#);
    for (id, label, now, total) in [
        ("passed", T::BlPassed, f.passed, end.passed),
        ("rejected", T::BlRejected, f.rejected, end.rejected),
        ("probes", T::BlProbes, f.probes, end.probes),
        ("transitions", T::BlTransitions, f.changes, end.changes),
    ] {
        let _ = write!(
            o,
            r#"<div class="figure" id="breaker-{id}" data-value="{now}" data-total="{total}"><div class="figure-label">{}</div><div class="figure-value"><span class="value">{}</span> <span class="unit">/ {}</span></div></div>"#,
            t(label),
            format_number(f64::from(now), 0),
            format_number(f64::from(total), 0)
        );
    }
    // What the two numbers on a card are, and why the first three do not add up to the calls
    // without the probes.
    let num = |x: u32| format_number(f64::from(x), 0);
    let _ = write!(
        o,
        r#"</div><p class="note" id="breaker-figures-note">{}</p>"#,
        esc(&lang.f(
            T::BlFiguresNote,
            &[
                ("passed", &num(end.passed)),
                ("rejected", &num(end.rejected)),
                ("probes", &num(end.probes)),
                ("n", &num(end.passed + end.rejected + end.probes)),
            ],
        ))
    );
    let figures = std::mem::replace(&mut o, String::with_capacity(20_000));
    let band_title = format!("{} · {}", lang.t(T::ChartBreaker), lang.t(state_word(f.state)));
    let mut band_markup = String::with_capacity(6_000);
    band(&mut band_markup, lang, input, r, t_us, band_w, scrolls);
    // Inside the band's box: a lesson's stage shows the band alone, and its step asks the
    // class to count the state changes (a half-open stretch can be a sliver).
    let _ = write!(
        band_markup,
        r#"<p class="note" id="breaker-band-changes" data-value="{}">{}</p>"#,
        f.changes,
        esc(&lang.f(T::BlBandChanges, &[("now", &num(f.changes)), ("total", &num(end.changes))]))
    );
    let shown = strip(r, k, STRIP);
    let head = esc(&lang.f(T::BlCalls, &[("n", &shown.len().to_string())]));
    let _ = write!(o, "<h3>{head}</h3>");
    cells(&mut o, r, shown, t_us, (per_row(40), r.calls.len().min(STRIP)), &head);
    o.push_str(r#"<div class="legend">"#);
    for (c, label) in [
        ((Cell::Ok, false, false), T::OutcomeSucceeded),
        ((Cell::Failed, false, false), T::OutcomeFailed),
        ((Cell::Slow, false, false), T::BlSlow),
        ((Cell::Rejected, false, false), T::OutcomeRejected),
        ((Cell::Ok, true, false), T::BlProbe),
        ((Cell::Pending, false, false), T::BlPending),
        ((Cell::Ok, false, true), T::BlNotRecorded),
    ] {
        o.push_str(r#"<span class="legend-item"><svg class="cells" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">"#);
        glyph(&mut o, c, 0.0, 0.0);
        let _ = write!(o, "</svg>{}</span>", t(label));
    }
    o.push_str("</div>");
    let calls_markup = std::mem::replace(&mut o, String::with_capacity(12_000));

    // The window: what the rates are judged on at the playhead.
    let b = &input.breaker;
    let Tally { calls, failures, slows } = f.tally;
    let n = calls.to_string();
    let counted = lang.count(calls as f64, T::UnitCalls);
    let head = esc(&match f.state {
        State::Closed => lang.f(T::BlWindowNow, &[("calls", &counted)]),
        State::HalfOpen => lang.f(T::BlWindowProbes, &[("n", &n), ("p", &b.half_open_calls.to_string())]),
        State::Open => lang.f(T::BlWindowOpened, &[("calls", &counted)]),
    });
    let (inside, more) = window_calls(r, k, WINDOW_CELLS);
    let more = if more > 0 {
        format!(" {}", lang.f(T::BlWindowNotDrawn, &[("n", &more.to_string())]))
    } else {
        String::new()
    };
    let _ = write!(
        o,
        r#"<div class="panel" id="breaker-window" data-state="{}" data-calls="{calls}" data-failures="{failures}" data-slows="{slows}"><h2>{head}{more}</h2>"#,
        state_id(f.state)
    );
    // A count window holds as many as its size once full; a time window's count varies.
    let window_cells = match b.window_kind {
        WindowKind::Count => (b.window as usize).min(WINDOW_CELLS).min(r.calls.len()),
        WindowKind::Time => 0,
    };
    cells(&mut o, r, inside.iter().map(|&i| i as usize), t_us, (per_row(30), window_cells), &head);
    // Its line is kept, unseen, while it does not apply: the window's box keeps its height
    // as the playback comes and goes past the minimum (on a phone everything under the box
    // had moved 25 px each time).
    let judged = !(f.state == State::Closed && calls < b.min_calls);
    let _ = write!(
        o,
        r#"<p class="note{}" id="breaker-below-min"{}>{}</p>"#,
        if judged { " reserve" } else { "" },
        if judged { r#" aria-hidden="true""# } else { "" },
        esc(&lang.f(T::BlBelowMin, &[("min", &lang.count(f64::from(b.min_calls), T::UnitCalls))]))
    );
    rate_line(&mut o, lang, T::BlFailureRate, failures, calls, b.failure_rate_pct, "breaker-failure-rate");
    if b.slow_call_ms.is_some() {
        rate_line(&mut o, lang, T::BlSlowRate, slows, calls, b.slow_rate_pct, "breaker-slow-rate");
    }

    // The transitions so far, with their causes.
    let _ = write!(
        o,
        r#"</div><div class="panel table-scroll"><h2>{}</h2><table class="inflight" id="breaker-changes"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>"#,
        t(T::BlTransitions),
        t(T::AxisTime),
        t(T::BlChange),
        t(T::BlCause)
    );
    for c in &r.changes[..f.changes as usize] {
        let _ = write!(
            o,
            r#"<tr data-at-ms="{}" data-to="{}"><td class="value">{}</td><td>{} → {}</td><td>{}</td></tr>"#,
            c.at_us as f64 / 1000.0,
            state_id(c.to),
            format_number(c.at_us as f64 / 1e6, 3),
            t(state_word(c.from)),
            t(state_word(c.to)),
            esc(&cause_text(lang, input, c))
        );
    }

    o.push_str("</tbody></table></div>");
    Outputs { figures, band_title, band: band_markup, calls: calls_markup, rest: o }
}

/// The settings' names in Resilience4j and opossum, and where this model differs; apart
/// from [`outputs`], so playback leaves it alone. `settings` are the rows: (label, value
/// as shown, Resilience4j name, opossum name).
pub fn mapping(lang: Lang, settings: &[(T, String, &str, &str)]) -> String {
    let mut o = String::with_capacity(4_000);
    let t = |k: T| esc(lang.t(k));
    let _ = write!(
        o,
        r#"<div class="panel" id="breaker-mapping"><h2>{}</h2><div class="table-scroll"><table class="inflight"><thead><tr><th>{}</th><th>Resilience4j</th><th>opossum</th></tr></thead><tbody>"#,
        t(T::BlMapTitle),
        t(T::BlThisLab)
    );
    for (label, value, r4j, op) in settings {
        let _ = write!(
            o,
            "<tr><td>{}{}</td><td><code>{r4j}</code></td><td><code>{op}</code></td></tr>",
            esc(&lang.f(T::LabelColon, &[("label", lang.t(*label))])),
            esc(value)
        );
    }
    let _ = write!(o, r#"</tbody></table></div><h3>{}</h3><ul class="diffs">"#, t(T::BlDiffTitle));
    for d in [T::BlDiff1, T::BlDiff2, T::BlDiff3, T::BlDiff4, T::BlDiff5, T::BlDiff6] {
        let _ = write!(o, "<li>{}</li>", t(d));
    }
    o.push_str("</ul></div>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::breaker_lab::{preset, run};

    /// All of [`outputs`]' markup at playhead `k`, the band at its narrowest.
    fn outputs_html(input: &LabInput, r: &LabRun, k: usize) -> String {
        let o = outputs(Lang::En, input, r, k, 640.0, false);
        [o.figures, esc(&o.band_title), o.band, o.calls, o.rest].concat()
    }

    #[test]
    fn the_window_at_a_playhead_is_the_latest_recorded_calls() {
        let r = run(&preset("source-003").unwrap()).unwrap();
        // As call 60 is made (rejected, just after the opening at 5.95 s): the window of
        // 20 that opened it, calls 40–59.
        let (shown, more) = window_calls(&r, 60, 100);
        assert_eq!((shown, more), (&(40..60).collect::<Vec<u32>>()[..], 0));
        let (shown, more) = window_calls(&r, 60, 5);
        assert_eq!((shown, more), (&[55u32, 56, 57, 58, 59][..], 15));
        assert_eq!(strip(&r, 60, 10), 51..61);
        assert_eq!(strip(&r, r.calls.len(), 10), 290..300, "at the end: the last calls");
        assert_eq!(cell(&r.calls[59], r.calls[60].at_us), (Cell::Failed, false, false));
        assert_eq!(cell(&r.calls[60], r.calls[60].at_us), (Cell::Rejected, false, false));
        assert_eq!(
            cell(&r.calls[59], r.calls[59].at_us),
            (Cell::Pending, false, false),
            "answers 50 ms later"
        );
        assert_eq!(cell(&r.calls[110], r.end_us), (Cell::Failed, true, false), "a failed probe");
    }

    #[test]
    fn every_phase_of_the_dependency_band_is_labelled() {
        // Source 002's first phase (0 % · 50 ms, 10 s of the run) is too narrow for its whole
        // label: it keeps its failure rate, and every phase says what it is on hover.
        let input = preset("source-002").unwrap();
        let r = run(&input).unwrap();
        let html = outputs_html(&input, &r, 0);
        let phases = html.matches(r#"<rect class="phase "#).count();
        assert_eq!(phases, input.phases.len());
        assert_eq!(html.matches(r#"class="phase-label"#).count(), phases, "{html}");
        assert!(html.contains("<title>0 % · 50 ms</title>"), "{html}");
    }

    #[test]
    fn answers_after_a_change_are_drawn_as_dropped() {
        let r = run(&preset("slow").unwrap()).unwrap();
        assert_eq!(cell(&r.calls[60], r.end_us), (Cell::Slow, false, true));
        assert_eq!(cell(&r.calls[59], r.end_us), (Cell::Slow, false, false));
    }

    #[test]
    fn the_markup_carries_the_figures_a_test_reads_and_escapes_text() {
        let input = preset("source-003").unwrap();
        let r = run(&input).unwrap();
        let html = outputs_html(&input, &r, 60);
        let table = mapping(
            Lang::En,
            &[(T::KOpenMs, "5,000 <ms>".into(), "waitDurationInOpenState", "resetTimeout")],
        );
        assert!(html.contains(r#"id="breaker-passed" data-value="60" data-total="194""#), "{html}");
        assert!(html.contains(r#"id="breaker-rejected" data-value="1" data-total="100""#));
        assert!(html.contains(r#"id="breaker-transitions" data-value="1" data-total="5""#));
        assert!(html.contains(r#"data-state="Open" data-calls="20" data-failures="10""#));
        assert!(html.contains(r#"<tr data-at-ms="5950" data-to="Open">"#));
        assert!(html.contains("failure rate 50 % ≥ 50 %: 10 of 20"), "the cause in words");
        assert!(!html.contains(r#"data-at-ms="11000""#), "later transitions are not shown yet");
        assert!(table.contains("Open time: 5,000 &lt;ms&gt;"), "values are escaped");
        assert!(
            html.contains("194 + 100 + 6 = 300 calls"),
            "the cards' note counts the probes apart, every call once"
        );
        assert_eq!(r.calls.len(), 300);
        let zh =
            mapping(Lang::Zh, &[(T::KOpenMs, "5,000 ms".into(), "waitDurationInOpenState", "resetTimeout")]);
        assert!(zh.contains("：5,000 ms"), "a full-width colon in Chinese: {zh}");
        assert_eq!(
            html.matches("<svg").count(),
            2 + 7 + 2,
            "band, strip, 7 legend swatches, window, rate bar"
        );
        assert_eq!(esc(r#"<a href="x">&"#), "&lt;a href=&quot;x&quot;&gt;&amp;");
    }

    /// A lesson veils the note with the cards it adds up (`lesson::RESTATED`): each card whose
    /// total the note writes is listed with it, and the table names no card it does not write.
    #[test]
    fn the_cards_note_restates_the_cards_a_lesson_veils_it_with() {
        let input = preset("source-003").unwrap();
        let r = run(&input).unwrap();
        let html = outputs_html(&input, &r, 60);
        let note = html.split(r#"id="breaker-figures-note">"#).nth(1).unwrap();
        let note = &note[..note.find("</p>").unwrap()];
        // Thousands written as the page writes them, compared as plain digits.
        let note = note.replace(',', "");
        let cards = ["passed", "rejected", "probes", "transitions"];
        let restated: Vec<&str> = crate::lesson::RESTATED
            .iter()
            .filter(|(_, by)| by.contains(&"breaker-figures-note"))
            .map(|(figure, _)| *figure)
            .collect();
        for figure in &restated {
            assert!(
                cards.iter().any(|c| format!("breaker-{c}") == *figure),
                "{figure} is not a card of the note"
            );
        }
        for card in cards {
            let total = html
                .split(&format!(r#"id="breaker-{card}" data-value=""#))
                .nth(1)
                .and_then(|rest| rest.split(r#"data-total=""#).nth(1))
                .and_then(|rest| rest.split('"').next())
                .unwrap();
            let written = note.split(|c: char| !c.is_ascii_digit()).any(|n| n == total);
            let id = format!("breaker-{card}");
            assert_eq!(
                written,
                restated.contains(&id.as_str()),
                "{id}'s total {total} in the note {note:?}: {restated:?}"
            );
        }
    }

    #[test]
    fn the_band_covers_the_run_state_by_state() {
        let r = run(&preset("source-002").unwrap()).unwrap();
        let s = segments(&r);
        assert_eq!(s.first(), Some(&(0, 14_950_000, State::Closed)));
        assert_eq!(s[2], (44_950_000, 45_050_000, State::HalfOpen));
        assert_eq!(s.last(), Some(&(75_150_000, r.end_us, State::Closed)));
        assert_eq!(pct(10, 20), 50.0);
        assert_eq!(pct(1, 0), 0.0);
        // Its 100 ms half-open stretch is a sliver at the band's scale: drawn 4 units wide.
        let input = preset("source-002").unwrap();
        let mut o = String::new();
        band(&mut o, Lang::En, &input, &r, r.end_us, BAND_SCROLL_W, true);
        let widths: Vec<f64> = o
            .split(r#"<rect class="s-half""#)
            .skip(1)
            .filter_map(|rest| rest.split("width=\"").nth(1)?.split('"').next()?.parse().ok())
            .collect();
        assert!(!widths.is_empty() && widths.iter().all(|w| *w >= 4.0), "{widths:?}");
        // Drawn as wide as its box: the view box and the time axis's end follow the width.
        let mut wide = String::new();
        band(&mut wide, Lang::En, &input, &r, r.end_us, 632.0, false);
        assert!(wide.contains(r#"viewBox="0 0 632 100""#) && wide.contains(r#"x="624" y="98""#), "{wide}");
        assert!(o.contains(r#"<svg class="band scrolls" viewBox="0 0 560 100""#));
        // A phone's box: the whole run in 288 units, its time labels apart, the cells in rows
        // of 20 (5.7 px each in rows of 40 before).
        let mut narrow = String::new();
        band(&mut narrow, Lang::En, &input, &r, r.end_us, 288.0, false);
        assert!(narrow.contains(r#"<svg class="band" viewBox="0 0 288 100""#), "{narrow}");
        let phone = outputs(Lang::En, &input, &r, 60, 288.0, false);
        assert!(phone.calls.contains(r#"viewBox="0 0 280 "#), "{}", phone.calls);
        assert!(phone.rest.contains(r#"viewBox="0 0 280 "#));
    }
}
