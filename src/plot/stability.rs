//! The stability map and the hysteresis chart, as SVG markup (pure, tested natively): one
//! rectangle a cell, shaded by its verdict and linking to the storm page's run of that cell,
//! the boundary between recovered and not drawn along cell edges (dashed for the sweep
//! with the protection), and goodput against offered load up and back down.

use super::{Linear, esc, line_path, nice_ticks};
use crate::i18n::{Lang, T, format_number};
use crate::model::stability::{Outcome, Verdict};
use crate::state::stability::{
    Axis, CellResult, HYST_LEVELS, HYST_SERVED, HystPoint, Protection, Sweep, served_again_from, why_not_run,
};
use std::fmt::Write as _;

const W: f64 = 720.0;
const H: f64 = 520.0;
const LEFT: f64 = 78.0;
const BOTTOM: f64 = 52.0;
const TOP: f64 = 10.0;
const RIGHT: f64 = 12.0;

/// How fast a recovered cell recovered, in bands: within each of these (ms), or later. The
/// map's shades, its legend and `lab sweep`'s text map all take them from here.
pub const RECOVERY_BANDS_MS: [f64; 3] = [1000.0, 3000.0, 6000.0];

/// The map's class for each recovery band, the last for later: sized by the bands, so that a
/// band added without its class does not compile.
pub const RECOVERY_CLASSES: [&str; RECOVERY_BANDS_MS.len() + 1] = ["rec-0", "rec-1", "rec-2", "rec-3"];

/// A recovery's band: 0 within the first of [`RECOVERY_BANDS_MS`], …, 3 later (or no time).
pub fn recovery_band(after_ms: Option<f64>) -> usize {
    after_ms.map_or(RECOVERY_BANDS_MS.len(), |t| {
        RECOVERY_BANDS_MS.iter().position(|&b| t <= b).unwrap_or(RECOVERY_BANDS_MS.len())
    })
}

/// The CSS class of a cell: how fast it recovered, or how it did not.
pub fn cell_class(c: Option<&CellResult>) -> &'static str {
    match c {
        None => "pending",
        Some(Err(_)) => "error",
        Some(Ok(v)) => match v.outcome {
            Outcome::Recovered => RECOVERY_CLASSES[recovery_band(v.recovered_after_ms)],
            Outcome::Draining => "draining",
            Outcome::Stuck => "stuck",
            Outcome::Overloaded => "overloaded",
        },
    }
}

/// An axis' title: the two read as the research states them, else the storm page's label
/// for the key with the key itself (`Attempts (l1.attempts)`).
pub fn axis_title(lang: Lang, key: &str) -> String {
    match key {
        "utilisation" => lang.t(T::StabAxisUtil).to_string(),
        "trigger_ms" => lang.t(T::StabAxisTrigger).to_string(),
        k => crate::state::storm::number_for_url_key(k).map_or_else(
            || k.to_string(),
            |d| lang.f(T::LabelWithKey, &[("label", lang.t(d.knob.label)), ("key", k)]),
        ),
    }
}

/// A value on an axis as its ticks write it.
pub fn axis_value(lang: Lang, key: &str, v: f64) -> String {
    match key {
        "utilisation" => lang.percent(&format_number(v * 100.0, 1)),
        // Small values keep their digits (a per-try timeout of 0.001 ms read as 0).
        _ => crate::i18n::format_small(v, 2, 3),
    }
}

/// A value as an axis's tick label writes it: [`axis_value`], but with no more digits than
/// a reader compares at a glance (a 40-step trigger axis read "829.49", "634.62").
/// The cell's words and its tooltip keep the exact value.
pub fn tick_value(lang: Lang, key: &str, v: f64) -> String {
    match v.abs() {
        a if key != "utilisation" && a >= 100.0 => format_number(v, 0),
        a if key != "utilisation" && a >= 10.0 => format_number(v, 1),
        _ => axis_value(lang, key, v),
    }
}

/// A verdict in words.
pub fn verdict_text(lang: Lang, c: Option<&CellResult>) -> String {
    match c {
        None => lang.t(T::StabPending).to_string(),
        Some(Err(e)) => format!("{}: {}", lang.t(T::StabError), why_not_run(lang, e)),
        Some(Ok(Verdict { outcome: Outcome::Recovered, recovered_after_ms, .. })) => {
            match recovered_after_ms.unwrap_or(0.0) {
                t if t <= 0.0 => lang.t(T::StabAbsorbed).to_string(),
                t => lang.f(T::StabRecoveredIn, &[("t", &format!("{} s", format_number(t / 1000.0, 1)))]),
            }
        }
        Some(Ok(v)) if v.outcome == Outcome::Stuck => lang.t(T::StabStuck).to_string(),
        Some(Ok(v)) if v.outcome == Outcome::Draining => lang.t(T::StabDraining).to_string(),
        Some(Ok(_)) => lang.t(T::StabOverloaded).to_string(),
    }
}

/// Whether a finished cell got out of its trigger's state (recovered, or draining: nothing
/// keeps it there) or is stuck; `None` for an overloaded cell, which has no state to get out
/// to, and for one not run: the boundary is the metastable region's, not capacity's.
fn got_out(c: Option<&Option<CellResult>>) -> Option<bool> {
    match c {
        Some(Some(Ok(v))) => match v.outcome {
            Outcome::Recovered | Outcome::Draining => Some(true),
            Outcome::Stuck => Some(false),
            Outcome::Overloaded => None,
        },
        _ => None,
    }
}

/// The edges between a stuck cell and a cell that got out (recovered or draining), as one
/// path (cell units: x right, y up; `to_px` places them). Overloaded cells draw no edge:
/// their column is shaded as such, and an edge to it read as the region reaching capacity.
/// Edges that meet are one run of the path (`M…L…L…`), so a dashed line's pattern goes on
/// round its corners: edge by edge, each restarted its dashes, and on a 40 × 40 map the
/// round caps closed the gaps (the dashed boundary drew solid).
pub fn boundary(
    nx: usize,
    ny: usize,
    cells: &[Option<CellResult>],
    to_px: impl Fn(f64, f64) -> (f64, f64),
) -> String {
    let at = |i: usize, j: usize| got_out(cells.get(j * nx + i));
    // Corners numbered row by row over the (nx + 1) × (ny + 1) grid.
    let corner = |i: usize, j: usize| j * (nx + 1) + i;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let here = at(i, j);
            if i + 1 < nx
                && let (Some(a), Some(b)) = (here, at(i + 1, j))
                && a != b
            {
                edges.push((corner(i + 1, j), corner(i + 1, j + 1)));
            }
            if j + 1 < ny
                && let (Some(a), Some(b)) = (here, at(i, j + 1))
                && a != b
            {
                edges.push((corner(i, j + 1), corner(i + 1, j + 1)));
            }
        }
    }
    let mut at_corner: Vec<Vec<usize>> = vec![Vec::new(); (nx + 1) * (ny + 1)];
    for (e, &(a, b)) in edges.iter().enumerate() {
        at_corner[a].push(e);
        at_corner[b].push(e);
    }
    // Runs start where a line ends (a corner with an odd number of edges: the map's edge),
    // then round what is left (closed loops).
    let starts: Vec<usize> =
        (0..at_corner.len()).filter(|&v| at_corner[v].len() % 2 == 1).chain(0..at_corner.len()).collect();
    let mut used = vec![false; edges.len()];
    let mut d = String::new();
    let point = |d: &mut String, v: usize, cmd: char| {
        let (x, y) = to_px((v % (nx + 1)) as f64, (v / (nx + 1)) as f64);
        let _ = write!(d, "{cmd}{x:.1} {y:.1}");
    };
    for start in starts {
        while let Some(&first) = at_corner[start].iter().find(|&&e| !used[e]) {
            point(&mut d, start, 'M');
            let (mut here, mut next) = (start, Some(first));
            while let Some(e) = next {
                used[e] = true;
                let (a, b) = edges[e];
                here = if a == here { b } else { a };
                next = at_corner[here].iter().copied().find(|&e| !used[e]);
                // A run back where it began closes (`Z`): a line's ends meeting there would
                // leave its corner unjoined, a notch.
                if next.is_none() && here == start {
                    d.push('Z');
                } else {
                    point(&mut d, here, 'L');
                }
            }
        }
    }
    d
}

/// What a cell shows: its CSS classes, `data-outcome`, `data-after` and tooltip (the map's
/// markup and the page's in-place updates both take them from here).
pub fn cell_view(
    lang: Lang,
    s: &Sweep,
    index: usize,
    c: Option<&CellResult>,
) -> (String, &'static str, String, String) {
    let (i, j) = s.position(index);
    let title = lang.f(
        T::StabCellTip,
        &[
            ("x", &axis_title(lang, &s.x.key)),
            ("xv", &axis_value(lang, &s.x.key, s.x.value(i))),
            ("y", &axis_title(lang, &s.y.key)),
            ("yv", &axis_value(lang, &s.y.key, s.y.value(j))),
            ("verdict", &verdict_text(lang, c)),
        ],
    );
    let (outcome, after) = match c {
        Some(Ok(v)) => (v.outcome.as_str(), v.recovered_after_ms.map_or(String::new(), |t| t.to_string())),
        Some(Err(_)) => ("error", String::new()),
        None => ("pending", String::new()),
    };
    (format!("cell {}", cell_class(c)), outcome, after, title)
}

/// A protection's name as the page's words say it (with its ratio or open time).
pub fn protection_label(lang: Lang, sweep: &Sweep, p: Protection) -> String {
    match p {
        Protection::None => lang.t(T::StabProtNone).to_string(),
        Protection::Budget => {
            let pct = sweep.budget_overlay_ratio().unwrap_or(f64::NAN) * 100.0;
            lang.f(T::StabProtBudget, &[("ratio", &format_number(pct, 1))])
        }
        Protection::Cancel => lang.t(T::StabProtCancel).to_string(),
        Protection::Breaker => lang.f(
            T::StabProtBreaker,
            &[("open", &format_number(crate::state::stability::BREAKER_OPEN_MS / 1000.0, 1))],
        ),
    }
}

/// The map's cells on its drawing: columns and rows, and each cell's width and height.
#[derive(Clone, Copy)]
struct MapGrid {
    nx: usize,
    ny: usize,
    cw: f64,
    ch: f64,
}

impl MapGrid {
    fn of(s: &Sweep) -> Self {
        let (nx, ny) = (usize::from(s.x.n), usize::from(s.y.n));
        MapGrid { nx, ny, cw: (W - LEFT - RIGHT) / nx as f64, ch: (H - TOP - BOTTOM) / ny as f64 }
    }

    /// Where a point in cell units (x right, y up) is drawn.
    fn px(&self, i: f64, j: f64) -> (f64, f64) {
        (LEFT + i * self.cw, H - BOTTOM - j * self.ch)
    }
}

/// The cells the protection gets out of the state the plain system stays stuck in (the
/// region shrinks by exactly these), as a mark at each one's centre: how many, and the
/// marks' markup.
pub fn saved_marks(
    s: &Sweep,
    plain: &[Option<CellResult>],
    protected: &[Option<CellResult>],
) -> (usize, String) {
    let grid = MapGrid::of(s);
    let r = 0.18 * grid.cw.min(grid.ch);
    let mut o = String::new();
    let mut n = 0;
    for k in 0..plain.len() {
        if got_out(plain.get(k)) == Some(false) && got_out(protected.get(k)) == Some(true) {
            let (i, j) = s.position(k);
            let (x, y) = grid.px(f64::from(i) + 0.5, f64::from(j) + 0.5);
            let _ = write!(o, r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}"/>"#);
            n += 1;
        }
    }
    (n, o)
}

/// The boundary paths of the map's geometry (plain, and with the protection if given).
pub fn map_boundaries(
    s: &Sweep,
    plain: &[Option<CellResult>],
    protected: &[Option<CellResult>],
) -> (String, String) {
    let grid = MapGrid::of(s);
    let (nx, ny) = (grid.nx, grid.ny);
    let to_px = |i: f64, j: f64| grid.px(i, j);
    let pb = if protected.is_empty() { String::new() } else { boundary(nx, ny, protected, to_px) };
    (boundary(nx, ny, plain, to_px), pb)
}

/// The map: cells, boundaries, axes. `links[i]` is cell `i`'s storm page link.
pub fn map_markup(
    lang: Lang,
    s: &Sweep,
    plain: &[Option<CellResult>],
    protected: &[Option<CellResult>],
    links: &[String],
) -> String {
    let grid = MapGrid::of(s);
    let MapGrid { nx, ny, cw, ch } = grid;
    let to_px = |i: f64, j: f64| grid.px(i, j);
    let mut o = String::with_capacity(nx * ny * 260 + 4000);
    let _ = write!(
        o,
        r#"<svg viewBox="0 0 {W} {H}" class="stab-map" role="group" aria-labelledby="stab-map-title"{}><title id="stab-map-title">{}</title><defs><pattern id="stab-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern><pattern id="stab-dots" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="dots-bg"/><circle cx="3" cy="3" r="1.6" class="dots-dot"/></pattern></defs>"#,
        // An exported map names its protection in its file's name: a slide of each does not
        // overwrite the one before.
        if s.protect == Protection::None {
            String::new()
        } else {
            format!(r#" data-export-id="stability-map-{}""#, s.protect.slug())
        },
        esc(lang.t(T::StabMapLabel))
    );
    for (index, c) in plain.iter().enumerate() {
        let (i, j) = s.position(index);
        let (x, y) = to_px(f64::from(i), f64::from(j) + 1.0);
        let (class, outcome, after, title) = cell_view(lang, s, index, c.as_ref());
        let href = links.get(index).map_or("", String::as_str);
        let _ = write!(
            o,
            r#"<a href="{}" class="cell-link" tabindex="-1"><rect class="{class}" id="cell-{index}" data-outcome="{outcome}" data-after="{after}" x="{x:.2}" y="{y:.2}" width="{:.2}" height="{:.2}"><title>{}</title></rect></a>"#,
            esc(href),
            cw + 0.3,
            ch + 0.3,
            esc(&title)
        );
    }
    if !protected.is_empty() {
        let (n, marks) = saved_marks(s, plain, protected);
        let _ =
            write!(o, r#"<g class="saved" id="stab-saved" data-count="{n}" aria-hidden="true">{marks}</g>"#);
    }
    let (b, bp) = map_boundaries(s, plain, protected);
    let _ = write!(o, r#"<path class="boundary" id="stab-boundary" d="{b}"/>"#);
    if !protected.is_empty() {
        let _ = write!(o, r#"<path class="boundary protected" id="stab-boundary-protected" d="{bp}"/>"#);
    }
    let _ = write!(o, r#"<g class="axis">"#);
    for (at, v) in axis_ticks(&s.x) {
        let (x, y) = to_px(at, 0.0);
        let _ = write!(
            o,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            y + 18.0,
            esc(&tick_value(lang, &s.x.key, v))
        );
    }
    map_y_axis(&mut o, lang, s);
    let _ = write!(
        o,
        r#"<text class="axis-title" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text></g></svg>"#,
        LEFT + (W - LEFT - RIGHT) / 2.0,
        H - 8.0,
        esc(&axis_title(lang, &s.x.key))
    );
    o
}

/// An axis's ticks: (place in cell units, from the axis' start; value). Round values where
/// the axis has them (20 %, 40 %; 200, 400 ms), placed where they fall between the cells'
/// centres, the axis being linear; a knob whose cells are whole numbers (attempts) keeps
/// whole ones. Failing that (a range too narrow for two), every few cells at their centres,
/// as before: a 40-step map had read 24.5 %, 63.5 %, 82.9 %.
fn axis_ticks(a: &Axis) -> Vec<(f64, f64)> {
    let n = usize::from(a.n);
    let whole = (0..a.n).all(|i| a.value(i).fract() == 0.0);
    let (lo, hi) = (a.from.min(a.to), a.from.max(a.to));
    // Round values only over a range wider than float noise (a range a few floats wide
    // has no two round values to show, and its steps would be noise).
    let round: Vec<(f64, f64)> = if n > 1 && hi - lo > 1e-9 * lo.abs().max(hi.abs()) {
        nice_ticks(lo, hi, 5)
            .into_iter()
            .filter(|v| !whole || v.fract() == 0.0)
            .map(|v| ((v - a.from) / (a.to - a.from) * (n - 1) as f64 + 0.5, v))
            .collect()
    } else {
        Vec::new()
    };
    if round.len() >= 2 {
        return round;
    }
    let every = (n / 5).max(1);
    let last = ((n - 1) % every != 0).then_some(n - 1);
    (0..n).step_by(every).chain(last).map(|i| (i as f64 + 0.5, a.value(i as u16))).collect()
}

/// The map's y axis: a label every few rows and the axis' title, all left of the cells.
fn map_y_axis(o: &mut String, lang: Lang, s: &Sweep) {
    let ny = usize::from(s.y.n);
    let ph = H - TOP - BOTTOM;
    for (at, v) in axis_ticks(&s.y) {
        let y = TOP + ph - at * ph / ny as f64;
        let _ = write!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            y + 4.0,
            esc(&tick_value(lang, &s.y.key, v))
        );
    }
    let _ = write!(
        o,
        r#"<text class="axis-title" transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + ph / 2.0,
        esc(&axis_title(lang, &s.y.key))
    );
}

/// A copy of the map's y axis on an opaque strip, drawn to the map's scale. On a phone the
/// map scrolls sideways; this strip stays at the left edge over the map's own axis, so the
/// rows keep their labels wherever the learner scrolls. Hidden from assistive technology
/// and from export: the map itself carries the same labels.
pub fn map_y_axis_markup(lang: Lang, s: &Sweep) -> String {
    let mut o = format!(
        r#"<svg viewBox="0 0 {LEFT} {H}" class="stab-yaxis map" aria-hidden="true" focusable="false"><rect class="yaxis-bg" width="{LEFT}" height="{H}"/><g class="axis">"#
    );
    map_y_axis(&mut o, lang, s);
    o.push_str("</g></svg>");
    o
}

const HYST_W: f64 = 560.0;
const HYST_H: f64 = 320.0;
const HYST_LEFT: f64 = 72.0;
const HYST_BOTTOM: f64 = 44.0;
const HYST_TOP: f64 = 10.0;
/// Room between the y axis and the lowest load (40 %): its tick is centred on it, and on a
/// phone the y axis' strip covers the chart up to the axis, so a tick on it was half hidden.
const HYST_INSET: f64 = 22.0;

/// The hysteresis chart's runs (each empty when not there).
#[derive(Clone, Copy, Debug, Default)]
pub struct HystLines<'a> {
    /// The preset as it is: both branches.
    pub plain: &'a [HystPoint],
    /// The same with one attempt a call: only its way down, from its own top point. It is
    /// the reference for how far the way down falls; below capacity its way up lies on the
    /// plain run's (nothing times out there), and drawing it too would hide that line.
    pub no_retry: &'a [HystPoint],
    /// With the map's protection: both branches, dotted.
    pub protected: &'a [HystPoint],
}

/// Where each run's way down serves the load again, in a sentence (`protected`: the
/// protection's run and its name, if the map has one). Without the plain and the no-retry
/// runs' points (not back, or refused) nothing is said: an empty run is not one that never
/// gets back.
pub fn hyst_served_text(
    lang: Lang,
    plain: &[HystPoint],
    no_retry: &[HystPoint],
    protected: Option<(&[HystPoint], &str)>,
) -> String {
    if plain.is_empty() || no_retry.is_empty() {
        return String::new();
    }
    let at = |pts: &[HystPoint]| match served_again_from(pts) {
        Some(u) => lang.f(T::StabHystServedAt, &[("x", &format_number(u * 100.0, 0))]),
        None => lang.f(T::StabHystServedNever, &[("x", &format_number(HYST_LEVELS[0] * 100.0, 0))]),
    };
    let out = lang.f(
        T::StabHystServed,
        &[
            ("share", &format_number(HYST_SERVED * 100.0, 0)),
            ("plain", &at(plain)),
            ("noretry", &at(no_retry)),
        ],
    );
    match protected.filter(|(pts, _)| !pts.is_empty()) {
        Some((pts, name)) => {
            let prot = lang.f(T::StabHystServedProt, &[("p", name), ("prot", &at(pts))]);
            lang.f(T::Sentences, &[("a", &out), ("b", &prot)])
        }
        None => out,
    }
}

/// The top of the hysteresis chart's goodput axis: 105 % of capacity, or more if a point is
/// (goodput cannot pass capacity by more than a point's counting: at 120 % the top sixth of
/// the chart was always empty, and a projector's class read the branches smaller).
fn hyst_ymax(l: HystLines) -> f64 {
    l.plain.iter().chain(l.no_retry).chain(l.protected).map(|p| p.goodput).fold(1.05, f64::max)
}

/// The hysteresis chart's y axis: goodput ticks in per cent and the axis' title.
fn hyst_y_axis(o: &mut String, lang: Lang, ymax: f64) {
    let y = Linear::new((0.0, ymax), (HYST_H - HYST_BOTTOM, HYST_TOP));
    for t in nice_ticks(0.0, ymax, 5) {
        let _ = write!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            HYST_LEFT - 6.0,
            y.map(t) + 4.0,
            lang.percent(&format_number(t * 100.0, 0))
        );
    }
    let _ = write!(
        o,
        r#"<text class="axis-title" transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (HYST_TOP + HYST_H - HYST_BOTTOM) / 2.0,
        esc(lang.t(T::StabHystGoodput))
    );
}

/// The hysteresis chart's y axis on an opaque strip, for the same reason and in the same
/// way as [`map_y_axis_markup`].
pub fn hysteresis_y_axis_markup(lang: Lang, lines: HystLines) -> String {
    let mut o = format!(
        r#"<svg viewBox="0 0 {HYST_LEFT} {HYST_H}" class="stab-yaxis hyst" aria-hidden="true" focusable="false"><rect class="yaxis-bg" width="{HYST_LEFT}" height="{HYST_H}"/><g class="axis">"#
    );
    hyst_y_axis(&mut o, lang, hyst_ymax(lines));
    o.push_str("</g></svg>");
    o
}

/// The hysteresis chart: goodput ÷ capacity against offered load ÷ capacity, the way up
/// (solid) and back down (dashed), the ideal (serving everything up to capacity) dotted,
/// the way down without retries thin and grey.
pub fn hysteresis_markup(lang: Lang, lines: HystLines) -> String {
    let HystLines { plain, no_retry, protected } = lines;
    let (w, h, left, bottom, top, right) = (HYST_W, HYST_H, HYST_LEFT, HYST_BOTTOM, HYST_TOP, 30.0);
    let xmax = plain.iter().map(|p| p.utilisation).fold(1.2, f64::max);
    let ymax = hyst_ymax(lines);
    let x = Linear::new((0.4, xmax), (left + HYST_INSET, w - right));
    let y = Linear::new((0.0, ymax), (h - bottom, top));
    let mut o = format!(
        r#"<svg viewBox="0 0 {w} {h}" class="stab-hyst" role="img" aria-labelledby="stab-hyst-title"><title id="stab-hyst-title">{}</title><g class="axis">"#,
        esc(lang.t(T::StabHystTitle))
    );
    for t in nice_ticks(0.4, xmax, 6) {
        let _ = write!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            x.map(t),
            h - bottom + 18.0,
            lang.percent(&format_number(t * 100.0, 0))
        );
    }
    for t in nice_ticks(0.0, ymax, 5) {
        let _ = write!(
            o,
            r#"<line class="grid" x1="{left}" x2="{:.1}" y1="{:.1}" y2="{:.1}"/>"#,
            w - right,
            y.map(t),
            y.map(t),
        );
    }
    hyst_y_axis(&mut o, lang, ymax);
    let _ = write!(
        o,
        r#"<text class="axis-title" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text></g>"#,
        (left + w - right) / 2.0,
        h - 6.0,
        esc(lang.t(T::StabAxisUtil)),
    );
    let ideal = [(0.4, 0.4), (1.0, 1.0), (xmax, 1.0)].map(|(a, b)| (x.map(a), y.map(b)));
    let _ = write!(o, r#"<path class="hyst-ideal" d="{}"/>"#, line_path(&ideal));
    let branch = |o: &mut String, pts: &[HystPoint], up: bool, class: &str, id: &str| {
        let mut sel: Vec<&HystPoint> = pts.iter().filter(|p| p.up == up).collect();
        if !up {
            // The way down starts where the way up ended.
            if let Some(top_point) = pts.iter().rfind(|p| p.up) {
                sel.insert(0, top_point);
            }
        }
        let xy: Vec<(f64, f64)> = sel.iter().map(|p| (x.map(p.utilisation), y.map(p.goodput))).collect();
        let data: Vec<String> =
            sel.iter().map(|p| format!("{:.4}:{:.4}", p.utilisation, p.goodput)).collect();
        let _ = write!(
            o,
            r#"<path class="hyst {class}" id="{id}" data-points="{}" d="{}"/>"#,
            data.join(" "),
            line_path(&xy)
        );
        for (px, py) in xy {
            let _ = write!(o, r#"<circle class="hyst-dot {class}" cx="{px:.1}" cy="{py:.1}" r="3.5"/>"#);
        }
    };
    if !no_retry.is_empty() {
        branch(&mut o, no_retry, false, "down noretry", "hyst-down-noretry");
    }
    branch(&mut o, plain, true, "up", "hyst-up");
    branch(&mut o, plain, false, "down", "hyst-down");
    if !protected.is_empty() {
        // In a group of their own: a lesson that asks what the protection does veils them.
        o.push_str(r#"<g id="hyst-protected">"#);
        branch(&mut o, protected, true, "up protected", "hyst-up-protected");
        branch(&mut o, protected, false, "down protected", "hyst-down-protected");
        o.push_str("</g>");
    }
    o.push_str("</svg>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::runs::RunError;
    use crate::state::stability::{Axis, DEFAULT_PRESET};

    fn v(outcome: Outcome, after: Option<f64>) -> Option<CellResult> {
        Some(Ok(Verdict { outcome, recovered_after_ms: after, before: 1.0, after: 1.0 }))
    }

    #[test]
    fn a_cell_that_could_not_run_says_why() {
        let too_much: CellResult = Err(RunError::TooMuchWork { estimated: 650_000_000_000_013.0, cap: 2e7 });
        let said = verdict_text(Lang::En, Some(&too_much));
        assert!(said.contains("650,000,000,000,000") && said.contains("20,000,000"), "{said}");
        let said = verdict_text(Lang::Zh, Some(&Err(RunError::Internal("x".into()))));
        assert!(said.starts_with("无法运行：") || said.starts_with("无法运行: "), "{said}");
        assert_eq!(axis_value(Lang::En, "l1.per_try", 0.001), "0.001", "small values keep their digits");
        assert_eq!(axis_value(Lang::En, "l1.per_try", 25.0), "25");
        assert_eq!(tick_value(Lang::En, "trigger_ms", 829.487), "829");
        assert_eq!(tick_value(Lang::En, "trigger_ms", 74.36), "74.4");
        assert_eq!(tick_value(Lang::En, "l1.per_try", 0.001), "0.001");
        assert_eq!(tick_value(Lang::En, "utilisation", 0.9), axis_value(Lang::En, "utilisation", 0.9));
    }

    #[test]
    fn recovery_bands_split_at_their_limits() {
        assert_eq!(
            [Some(0.0), Some(1000.0), Some(1000.5), Some(3000.0), Some(6000.0), Some(6001.0), None]
                .map(recovery_band),
            [0, 0, 1, 1, 2, 3, 3]
        );
    }

    #[test]
    fn the_way_down_without_retries_is_drawn_and_said_when_given() {
        let pt = |u: f64, g: f64, up: bool| HystPoint { utilisation: u, goodput: g, up };
        let plain = [pt(0.5, 0.5, true), pt(1.2, 1.0, true), pt(0.8, 0.0, false), pt(0.5, 0.0, false)];
        // Above capacity one attempt a call serves a little more than three on the way up.
        let once = [pt(0.5, 0.5, true), pt(1.2, 0.3, true), pt(0.8, 0.8, false), pt(0.5, 0.5, false)];
        let alone = hysteresis_markup(Lang::En, HystLines { plain: &plain, ..HystLines::default() });
        assert!(!alone.contains("hyst-down-noretry"));
        let both =
            hysteresis_markup(Lang::En, HystLines { plain: &plain, no_retry: &once, ..HystLines::default() });
        assert!(
            both.contains(
                r#"id="hyst-down-noretry" data-points="1.2000:0.3000 0.8000:0.8000 0.5000:0.5000""#
            ),
            "from its own run's top point: {both}"
        );
        let en = hyst_served_text(Lang::En, &plain, &once, None);
        assert!(
            en.contains(": not even at 50 % load as the preset stands; ")
                && en.contains("back at 80 % load with one"),
            "{en}"
        );
        let zh = hyst_served_text(Lang::Zh, &plain, &once, Some((&once, "重试预算")));
        assert!(
            zh.contains("降到 50% 负载仍未恢复") && zh.contains("加上重试预算：降到 80% 负载时恢复。"),
            "{zh}"
        );
        assert_eq!(
            hyst_served_text(Lang::En, &plain, &once, Some((&[], "x"))),
            en,
            "no protected run, no clause"
        );
        assert_eq!(hyst_served_text(Lang::En, &plain, &[], None), "", "no reference run, nothing said");
        assert_eq!(hyst_served_text(Lang::En, &[], &once, None), "");
    }

    #[test]
    fn cells_are_shaded_by_verdict() {
        assert_eq!(cell_class(None), "pending");
        assert_eq!(cell_class(v(Outcome::Recovered, Some(0.0)).as_ref()), "rec-0");
        assert_eq!(cell_class(v(Outcome::Recovered, Some(5000.0)).as_ref()), "rec-2");
        assert_eq!(cell_class(v(Outcome::Stuck, None).as_ref()), "stuck");
        assert_eq!(cell_class(v(Outcome::Draining, None).as_ref()), "draining");
        assert_eq!(cell_class(Some(Err(RunError::Internal("x".into()))).as_ref()), "error");
    }

    #[test]
    fn the_boundary_runs_between_recovered_and_stuck() {
        // 2 × 2: the right column stuck.
        let cells = vec![
            v(Outcome::Recovered, Some(0.0)),
            v(Outcome::Stuck, None),
            v(Outcome::Recovered, Some(0.0)),
            v(Outcome::Stuck, None),
        ];
        let d = boundary(2, 2, &cells, |i, j| (i * 10.0, j * 10.0));
        assert_eq!(d, "M10.0 0.0L10.0 10.0L10.0 20.0", "the two edges, one run");
        let pending = vec![v(Outcome::Recovered, Some(0.0)), None, None, None];
        assert_eq!(boundary(2, 2, &pending, |i, j| (i, j)), "", "no edge to a cell not yet run");
        // None between recovered and overloaded or draining; one between draining and stuck.
        let cells = vec![
            v(Outcome::Recovered, Some(0.0)),
            v(Outcome::Overloaded, None),
            v(Outcome::Draining, None),
            v(Outcome::Stuck, None),
        ];
        assert_eq!(boundary(2, 2, &cells, |i, j| (i * 10.0, j * 10.0)), "M10.0 10.0L10.0 20.0");
        // A stuck cell ringed by recovered ones: one closed run round it, back where it began.
        let ring: Vec<_> = (0..9)
            .map(|k| if k == 4 { v(Outcome::Stuck, None) } else { v(Outcome::Recovered, Some(0.0)) })
            .collect();
        let d = boundary(3, 3, &ring, |i, j| (i, j));
        assert_eq!(d.matches('M').count(), 1, "one run: {d}");
        assert_eq!(d.matches('L').count(), 3, "four edges, the last closing it: {d}");
        assert!(d.starts_with("M1.0 1.0") && d.ends_with('Z'), "closed: {d}");
        // A staircase from the map's edge to its edge: one run, from an end.
        let stairs: Vec<_> = [1, 1, 1, 0, 1, 1, 0, 0, 1]
            .iter()
            .map(|&k| if k == 1 { v(Outcome::Stuck, None) } else { v(Outcome::Recovered, Some(0.0)) })
            .collect();
        let d = boundary(3, 3, &stairs, |i, j| (i, j));
        assert_eq!(d.matches('M').count(), 1, "one run: {d}");
        assert_eq!(d.matches('L').count(), 4, "{d}");
    }

    #[test]
    fn the_cells_the_protection_gets_out_are_marked() {
        let s = Sweep {
            x: Axis::parse("x", "utilisation=0.2..0.8/2").expect("x"),
            y: Axis::parse("y", "trigger_ms=100..300/2").expect("y"),
            protect: Protection::Budget,
            ..Sweep::default_for(DEFAULT_PRESET)
        };
        let plain = vec![
            v(Outcome::Recovered, Some(0.0)),
            v(Outcome::Stuck, None),
            v(Outcome::Stuck, None),
            v(Outcome::Overloaded, None),
        ];
        let protected = vec![
            v(Outcome::Recovered, Some(0.0)),
            v(Outcome::Recovered, Some(2000.0)),
            v(Outcome::Stuck, None),
            v(Outcome::Recovered, Some(0.0)),
        ];
        let m = map_markup(Lang::En, &s, &plain, &protected, &[]);
        // Only the stuck cell that recovers with it: not the one stuck both ways, not the
        // overloaded one (no state to get out to), not the one that recovered anyway.
        assert!(m.contains(r#"id="stab-saved" data-count="1""#), "{m}");
        let group = m.split(r#"id="stab-saved""#).nth(1).and_then(|g| g.split("</g>").next()).unwrap_or("");
        assert_eq!(group.matches("<circle ").count(), 1, "{group}");
        // A tooltip gives the plain verdict only: a lesson veils the protected one (the line
        // under the map), and a tooltip cannot be veiled.
        assert!(m.contains(": stuck</title>") && !m.contains("; with "), "{m}");
        let bare = map_markup(Lang::En, &s, &plain, &[], &[]);
        assert!(!bare.contains("stab-saved"));
    }

    #[test]
    fn the_map_has_a_linked_cell_each() {
        let s = Sweep {
            x: Axis::parse("x", "utilisation=0.2..0.8/3").expect("x"),
            y: Axis::parse("y", "trigger_ms=100..300/2").expect("y"),
            ..Sweep::default_for(DEFAULT_PRESET)
        };
        let cells = vec![None; s.cells()];
        let links: Vec<String> = (0..s.cells()).map(|i| format!("?cell={i}")).collect();
        let m = map_markup(Lang::En, &s, &cells, &[], &links);
        assert_eq!(m.matches("<rect class=\"cell pending\"").count(), 6);
        assert!(m.contains(
            r#"<a href="?cell=5" class="cell-link" tabindex="-1"><rect class="cell pending" id="cell-5""#
        ));
        assert!(m.contains(">20 %<") && m.contains(">80 %<"), "utilisation in per cent");
    }

    /// The y-axis texts of a picture: every `<text … text-anchor="end">` and the rotated title.
    fn y_texts(markup: &str) -> Vec<&str> {
        markup
            .split("<text ")
            .skip(1)
            .filter_map(|t| t.split_once("</text>").map(|(text, _)| text))
            .filter(|t| t.contains("text-anchor=\"end\"") || t.contains("rotate(-90)"))
            .collect()
    }

    #[test]
    fn an_axis_title_brackets_its_key_as_the_language_does() {
        assert_eq!(axis_title(Lang::En, "f1.factor"), "Fault factor (f1.factor)");
        assert_eq!(axis_title(Lang::Zh, "f1.factor"), "故障倍数（f1.factor）");
    }

    #[test]
    fn axis_ticks_are_round_values_where_they_fall() {
        let values = |a: &str| {
            axis_ticks(&Axis::parse("x", a).expect("axis")).into_iter().map(|t| t.1).collect::<Vec<_>>()
        };
        assert_eq!(values("utilisation=0.05..1/40"), [0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(values("trigger_ms=50..1000/40"), [200.0, 400.0, 600.0, 800.0, 1000.0]);
        // Placed on the axis's line: 1,000 ms is the last cell's centre, 200 ms between two.
        let t = axis_ticks(&Axis::parse("y", "trigger_ms=50..1000/40").expect("axis"));
        assert!(
            (t[4].0 - 39.5).abs() < 1e-9 && (t[0].0 - (150.0 / 950.0 * 39.0 + 0.5)).abs() < 1e-9,
            "{t:?}"
        );
        // Whole-numbered knobs keep whole ticks.
        assert_eq!(values("l1.attempts=1..3/3"), [1.0, 2.0, 3.0]);
        // One step: its one value, at its centre.
        assert_eq!(axis_ticks(&Axis::parse("x", "utilisation=0.5..0.5/1").expect("axis")), [(0.5, 0.5)]);
        // A range a few floats wide: the cells' own values, and an end (it had never ended).
        let narrow = Axis::parse("x", "utilisation=0.5..0.5000000000000001/20").expect("axis");
        assert!(axis_ticks(&narrow).len() <= 6, "{:?}", axis_ticks(&narrow));
        assert!(crate::plot::nice_ticks(1000.0, 1000.0000000000001, 5).len() <= 16);
    }

    #[test]
    fn the_phone_strips_repeat_the_y_axes_exactly() {
        let s = Sweep::default_for(DEFAULT_PRESET);
        let cells = vec![None; s.cells()];
        for lang in Lang::ALL {
            let map = map_markup(lang, &s, &cells, &[], &[]);
            let strip = map_y_axis_markup(lang, &s);
            assert_eq!(y_texts(&strip), y_texts(&map), "the map's strip, {lang:?}");
            assert!(y_texts(&map).len() >= 6, "row labels and the title");
            assert!(
                strip.contains(r#"aria-hidden="true""#) && !strip.contains("role="),
                "not read, not exported"
            );
            let up = |u: f64, g: f64| HystPoint { utilisation: u, goodput: g, up: true };
            let strips = [[up(0.5, 0.5), up(1.2, 1.1)], [up(0.5, 0.5), up(1.2, 2.6)]].map(|plain| {
                let lines = HystLines { plain: &plain, ..HystLines::default() };
                let chart = hysteresis_markup(lang, lines);
                let strip = hysteresis_y_axis_markup(lang, lines);
                assert_eq!(y_texts(&strip), y_texts(&chart), "the hysteresis strip, {lang:?}");
                strip
            });
            assert_ne!(strips[0], strips[1], "the strip's scale follows the points, as the chart's does");
        }
    }
}
