//! The cause breakdown of a run, from its report alone: where the original requests went
//! (outcome, then cause) as a flow picture, and how the calls at each hop ended (and what
//! its callers refused before sending). Pure arithmetic and layout, tested natively; the
//! view (`ui/storm/breakdown.rs`) only places what these return.
//!
//! Every count is one of the report's; where a group does not add up to its parent (it
//! always should: `tests/breakdown.rs` checks every preset) the remainder is drawn as
//! "other" rather than hidden, so the picture never claims a sum it does not have.

use super::{Tenths, esc};
use crate::i18n::{Lang, T, format_number};
use crate::report::{Causes, Refusals, Report};
use std::fmt::Write;

/// One box of the request flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Stable id (`requests`, `failed`, `failed-timeout`, …), used in DOM ids.
    pub id: String,
    /// What it counts.
    pub label: T,
    /// Requests.
    pub value: u64,
    /// CSS class (its outcome's colour).
    pub class: &'static str,
    /// Its box in the column before (none for the root).
    pub parent: Option<usize>,
    /// Column: 0 requests, 1 outcome, 2 cause.
    pub col: usize,
}

/// The request flow: original requests → outcome → cause, root first, then the outcomes,
/// then every outcome's causes in outcome order (so bands never cross).
#[derive(Clone, Debug, PartialEq)]
pub struct RequestFlow {
    /// The boxes; index 0 is the root.
    pub nodes: Vec<Node>,
}

/// A box's id suffix, label and count.
type Part = (&'static str, T, u64);

/// Id suffix, label and count of each failure cause, in `Causes` order.
fn causes(c: &Causes) -> [Part; 8] {
    [
        ("timeout", T::BdCauseTimeout, c.timeout),
        ("error", T::BdCauseError, c.error),
        ("overload", T::BdCauseOverload, c.overload),
        ("client_error", T::BdCauseClientError, c.client_error),
        ("budget_exhausted", T::BdCauseDeadline, c.budget_exhausted),
        ("retry_budget_denied", T::BdCauseRetryBudget, c.retry_budget_denied),
        ("breaker_rejected", T::BdCauseBreaker, c.breaker_rejected),
        ("bulkhead_rejected", T::BdCauseBulkhead, c.bulkhead_rejected),
    ]
}

/// Id, label and count of the refusals that answer 429/503 (not the 4xx of a cost above
/// the bucket, which is a client error).
fn overload_refusals(r: &Refusals) -> [Part; 4] {
    [
        ("rate_limit", T::BdRateLimit, r.rate_limit),
        ("concurrency_limit", T::BdConcurrencyLimit, r.concurrency_limit),
        ("queue_full", T::BdQueueFull, r.queue_full),
        ("queue_timeout", T::BdQueueTimeout, r.queue_timeout),
    ]
}

/// The request flow of a report. Failed requests are split into those that ended failed
/// (`failed_by_cause` counts them) and those the run left unfinished (counted as failed
/// in the summary); rejected requests by what the entry's admission or queue refused them
/// for; degraded ones by `degraded_by_cause`.
pub fn request_flow(r: &Report) -> RequestFlow {
    let s = &r.summary;
    let mut nodes = vec![Node {
        id: "requests".into(),
        label: T::BdRequests,
        value: s.original_requests,
        class: "bd-root",
        parent: None,
        col: 0,
    }];
    let failed_ended = s.failed.saturating_sub(s.unfinished);
    let entry_refused = r.hops.first().map(|h| h.refused).unwrap_or_default();
    let outcomes: [(&str, T, u64, &'static str); 5] = [
        ("succeeded", T::OutcomeSucceeded, s.succeeded, "o-succeeded"),
        ("degraded", T::OutcomeDegraded, s.degraded, "o-degraded"),
        ("failed", T::OutcomeFailed, failed_ended, "o-failed"),
        ("unfinished", T::OutcomeUnfinished, s.unfinished, "bd-unfinished"),
        ("rejected", T::OutcomeRejected, s.admission_rejected, "o-rejected"),
    ];
    let mut outcome_at = Vec::new();
    for (id, label, value, class) in outcomes {
        outcome_at.push(nodes.len());
        nodes.push(Node { id: id.into(), label, value, class, parent: Some(0), col: 1 });
    }
    // The outcomes add up to the requests; anything else is shown, not hidden.
    let explained: u64 = outcomes.iter().map(|o| o.2).sum();
    push_other(&mut nodes, 0, "requests", s.original_requests, explained, "bd-root", 1);
    let groups: [(usize, Vec<Part>); 3] = [
        (1, causes(&s.degraded_by_cause).to_vec()),
        (2, causes(&s.failed_by_cause).to_vec()),
        (4, overload_refusals(&entry_refused).to_vec()),
    ];
    for (k, list) in groups {
        let parent = outcome_at[k];
        let (pid, pvalue, class) = (outcomes[k].0, outcomes[k].2, outcomes[k].3);
        for (id, label, value) in &list {
            nodes.push(Node {
                id: format!("{pid}-{id}"),
                label: *label,
                value: *value,
                class,
                parent: Some(parent),
                col: 2,
            });
        }
        let explained: u64 = list.iter().map(|c| c.2).sum();
        push_other(&mut nodes, parent, pid, pvalue, explained, class, 2);
    }
    RequestFlow { nodes }
}

/// Adds an "other" box under `parent` for what its children leave unexplained (or, if
/// they explain more than it holds, nothing: the sum check in the tests catches that).
fn push_other(
    nodes: &mut Vec<Node>,
    parent: usize,
    pid: &str,
    total: u64,
    explained: u64,
    class: &'static str,
    col: usize,
) {
    if total > explained {
        nodes.push(Node {
            id: format!("{pid}-other"),
            label: T::BdOther,
            value: total - explained,
            class,
            parent: Some(parent),
            col,
        });
    }
}

impl RequestFlow {
    /// Requests in "other" boxes: 0 when every group adds up to its parent.
    pub fn unexplained(&self) -> u64 {
        self.nodes.iter().filter(|n| n.label == T::BdOther).map(|n| n.value).sum()
    }

    /// The boxes of column `col` with their indices.
    pub fn column(&self, col: usize) -> impl Iterator<Item = (usize, &Node)> {
        self.nodes.iter().enumerate().filter(move |(_, n)| n.col == col)
    }
}

/// One part of a bar: id, label, count, CSS class.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// Stable id (the report's field name), used in DOM ids.
    pub id: &'static str,
    /// What it counts.
    pub label: T,
    /// Calls (or attempts).
    pub value: u64,
    /// CSS class (colour).
    pub class: &'static str,
}

/// What one caller did with the attempts it set out to make towards a hop.
#[derive(Clone, Debug, PartialEq)]
pub struct CallerRow {
    /// Index into the report's clients.
    pub client: usize,
    /// Attempts it set out to make: sent, or refused by its own stack (each refusal stops
    /// one attempt, so the parts add up).
    pub wanted: u64,
    /// Sent, then each refusal.
    pub segments: Vec<Segment>,
    /// Of the sent attempts, the retries.
    pub retries: u64,
    /// Tries it stopped waiting for (its per-try timeout).
    pub timeouts: u64,
}

/// How the calls that reached one hop ended.
#[derive(Clone, Debug, PartialEq)]
pub struct HopRow {
    /// Index into the report's hops.
    pub hop: usize,
    /// Service name.
    pub name: String,
    /// Calls that reached it.
    pub calls: u64,
    /// Their results, adding up to `calls`.
    pub segments: Vec<Segment>,
    /// Calls it worked on after nobody waited for them any more.
    pub abandoned: u64,
    /// Its callers (none for the entry, whose calls are the original requests).
    pub callers: Vec<CallerRow>,
}

/// Per hop, the results of its calls and its callers' refusals, in report order.
pub fn hop_rows(r: &Report) -> Vec<HopRow> {
    r.hops
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let (res, rf) = (&h.results, &h.refused);
            let mut segments = vec![
                Segment { id: "ok", label: T::BdOk, value: res.ok, class: "o-succeeded" },
                Segment { id: "error", label: T::BdCauseError, value: res.error, class: "o-failed" },
            ];
            let mut refused = 0;
            for (id, label, value) in overload_refusals(rf) {
                refused += value;
                segments.push(Segment { id, label, value, class: "o-rejected" });
            }
            let rest = [
                ("overload_other", T::BdOther, res.overload.saturating_sub(refused), "o-rejected"),
                (
                    "client_error",
                    T::BdCauseClientError,
                    res.client_error.saturating_sub(rf.cost_exceeds_capacity),
                    "bd-client-error",
                ),
                ("cost_exceeds_capacity", T::BdCostExceeds, rf.cost_exceeds_capacity, "bd-client-error"),
                ("budget_exhausted", T::BdCauseDeadline, res.budget_exhausted, "o-degraded"),
                ("cancelled", T::BdCancelled, res.cancelled, "bd-cancelled"),
                ("unfinished", T::OutcomeUnfinished, res.unfinished, "bd-unfinished"),
            ];
            for (id, label, value, class) in rest {
                segments.push(Segment { id, label, value, class });
            }
            let callers = r
                .clients
                .iter()
                .enumerate()
                .filter(|(_, c)| c.callee == i)
                .map(|(ci, c)| {
                    let parts = [
                        ("sent", T::BdSent, c.attempts, "bd-sent"),
                        ("breaker_rejected", T::BdCauseBreaker, c.breaker_rejected, "bd-breaker"),
                        ("bulkhead_rejected", T::BdCauseBulkhead, c.bulkhead_rejected, "bd-bulkhead"),
                        ("budget_exhausted", T::BdCauseDeadline, c.budget_exhausted, "bd-deadline"),
                        (
                            "retry_budget_denied",
                            T::BdCauseRetryBudget,
                            c.retry_budget_denied,
                            "bd-retry-budget",
                        ),
                    ];
                    CallerRow {
                        client: ci,
                        wanted: parts.iter().map(|p| p.2).sum(),
                        segments: parts
                            .into_iter()
                            .map(|(id, label, value, class)| Segment { id, label, value, class })
                            .collect(),
                        retries: c.retries,
                        timeouts: c.timeouts,
                    }
                })
                .collect();
            HopRow {
                hop: i,
                name: h.name.clone(),
                calls: h.calls,
                segments,
                abandoned: h.abandoned_work,
                callers,
            }
        })
        .collect()
}

/// Where a box of the flow picture goes (SVG user units).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Placed {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Height (0 for a box with no requests, which is not drawn).
    pub h: f64,
    /// Baseline of its label, moved down where labels would overlap.
    pub label_y: f64,
}

/// The flow picture's geometry: one place per node (same order) and a band per non-root
/// node with requests, from its parent.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowLayout {
    /// Height of the picture.
    pub height: f64,
    /// Per node, its place.
    pub nodes: Vec<Placed>,
    /// (child node index, SVG path of the band from its parent).
    pub bands: Vec<(usize, String)>,
}

/// Width of the flow picture (SVG user units), as the time charts.
pub const FLOW_W: f64 = 640.0;
/// Width of a box.
pub const BOX_W: f64 = 12.0;
/// Left edge of each column.
pub const COL_X: [f64; 3] = [4.0, 170.0, 370.0];
/// Height shared by the boxes of the fullest column, gaps excluded.
const BARS_H: f64 = 240.0;
/// Gap between boxes of one column.
const GAP: f64 = 8.0;
/// Smallest box drawn, so a handful of requests stays visible.
const MIN_H: f64 = 2.5;
/// Distance between label baselines (a 13 px font).
pub const LINE: f64 = 16.0;
const TOP: f64 = 8.0;

/// Lays the flow out: boxes proportional to their requests (at least [`MIN_H`]), stacked
/// per column in node order with gaps; bands from each parent's slice to its child, the
/// slices in child order; labels beside their boxes, pushed apart to [`LINE`].
pub fn layout(flow: &RequestFlow) -> FlowLayout {
    let root = flow.nodes.first().map_or(0, |n| n.value);
    let shown = |n: &Node| n.value > 0;
    let fullest = (0..3).map(|c| flow.column(c).filter(|(_, n)| shown(n)).count()).max().unwrap_or(1).max(1);
    let k = if root == 0 { 0.0 } else { (BARS_H - (fullest - 1) as f64 * GAP) / root as f64 };
    let mut placed = vec![Placed::default(); flow.nodes.len()];
    let mut bottom: f64 = TOP;
    for (c, &x) in COL_X.iter().enumerate() {
        let (mut y, mut last_label) = (TOP, f64::NEG_INFINITY);
        for (i, n) in flow.column(c) {
            if !shown(n) {
                placed[i] = Placed { x, y, h: 0.0, label_y: y };
                continue;
            }
            let h = (n.value as f64 * k).max(MIN_H);
            let label_y = (y + h / 2.0 + 4.5).max(last_label + LINE).max(TOP + 11.0);
            last_label = label_y;
            placed[i] = Placed { x, y, h, label_y };
            bottom = bottom.max(y + h).max(label_y + 5.0);
            y += h + GAP;
        }
    }
    // Each parent hands out its height to its children in order, in proportion.
    let mut handed = vec![0.0; flow.nodes.len()];
    let mut bands = Vec::new();
    for (i, n) in flow.nodes.iter().enumerate() {
        let Some(p) = n.parent else { continue };
        if !shown(n) || !shown(&flow.nodes[p]) {
            continue;
        }
        let (pp, cp) = (placed[p], placed[i]);
        let share = pp.h * n.value as f64 / flow.nodes[p].value as f64;
        let sy0 = pp.y + handed[p];
        handed[p] += share;
        bands.push((i, band_path(pp.x + BOX_W, sy0, sy0 + share, cp.x, cp.y, cp.y + cp.h)));
    }
    FlowLayout { height: bottom + TOP, nodes: placed, bands }
}

/// A band from `[a0, a1]` at `x0` to `[b0, b1]` at `x1`, its edges S-curves.
fn band_path(x0: f64, a0: f64, a1: f64, x1: f64, b0: f64, b1: f64) -> String {
    let t = Tenths;
    let (xm, x0, x1, a0, a1, b0, b1) = (t((x0 + x1) / 2.0), t(x0), t(x1), t(a0), t(a1), t(b0), t(b1));
    format!("M{x0},{a0}C{xm},{a0} {xm},{b0} {x1},{b0}L{x1},{b1}C{xm},{b1} {xm},{a1} {x0},{a1}Z")
}

/// `part` of `whole` in percent (0 for an empty whole).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
}

/// Room above the flow picture for the column heads.
const HEAD: f64 = 20.0;

/// A count with its label, in `lang`.
fn counted(lang: Lang, label: T, n: u64) -> String {
    lang.f(T::BdCount, &[("label", lang.t(label)), ("n", &format_number(n as f64, 0))])
}

/// The flow picture (SVG) and, for phones, the same flow as a list. Each box carries its
/// count in `data-value` under the id `bd-{side}-{node id}`.
///
/// The breakdown is written as markup rather than built element by element in Yew: it is
/// static once drawn, and the markup costs a fraction of the download (bundle size).
fn flow_markup(out: &mut String, lang: Lang, r: &Report, side: &str) {
    let flow = request_flow(r);
    let total = r.summary.original_requests;
    if total == 0 {
        let _ = write!(out, "<p class=\"empty\">{}</p>", esc(lang.t(T::NoData)));
        return;
    }
    let l = layout(&flow);
    let _ = write!(
        out,
        "<svg viewBox=\"0 0 {FLOW_W} {}\" role=\"img\" aria-label=\"{}\">",
        Tenths(l.height + HEAD),
        esc(lang.t(T::BdFlowLabel))
    );
    for (x, k) in COL_X.iter().zip([T::BdRequests, T::BdColOutcome, T::BdColCause]) {
        let _ = write!(out, "<text class=\"bd-head\" x=\"{x}\" y=\"13\">{}</text>", esc(lang.t(k)));
    }
    let _ = write!(out, "<g transform=\"translate(0,{HEAD})\">");
    for (i, d) in &l.bands {
        let _ = write!(out, "<path class=\"bd-band {}\" d=\"{d}\"/>", flow.nodes[*i].class);
    }
    let label = |n: &Node| {
        if n.col == 1 {
            let pct = format_number(percent(n.value, total), 1);
            let n_text = format_number(n.value as f64, 0);
            lang.f(T::BdCountPercent, &[("label", lang.t(n.label)), ("n", &n_text), ("pct", &pct)])
        } else {
            counted(lang, n.label, n.value)
        }
    };
    for (n, p) in flow.nodes.iter().zip(&l.nodes).filter(|(n, _)| n.value > 0) {
        let _ = write!(
            out,
            "<rect class=\"bd-node {}\" id=\"bd-{side}-{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" width=\"{BOX_W}\" height=\"{}\"/>\
             <text class=\"bd-label\" x=\"{}\" y=\"{}\">{}</text>",
            n.class,
            n.id,
            n.value,
            Tenths(p.x),
            Tenths(p.y),
            Tenths(p.h),
            Tenths(p.x + BOX_W + 4.0),
            Tenths(p.label_y),
            esc(&label(n))
        );
    }
    out.push_str("</g></svg><ul class=\"bd-flow-list\">");
    for (i, n) in flow.column(1).filter(|(_, n)| n.value > 0) {
        let _ = write!(out, "<li><span class=\"swatch box {}\"></span>{}<ul>", n.class, esc(&label(n)));
        for c in flow.nodes.iter().filter(|c| c.parent == Some(i) && c.value > 0) {
            let _ = write!(out, "<li>{}</li>", esc(&label(c)));
        }
        out.push_str("</ul></li>");
    }
    out.push_str("</ul>");
}

/// A stacked bar of `segments` (of `total`) and the keys of its non-zero parts, each with
/// its exact count in `data-value` under the id `{prefix}-{segment id}`.
fn bar_markup(out: &mut String, lang: Lang, segments: &[Segment], total: u64, prefix: &str) {
    out.push_str(
        "<svg class=\"bd-bar\" viewBox=\"0 0 1000 14\" preserveAspectRatio=\"none\" aria-hidden=\"true\">",
    );
    let mut x = 0.0;
    for s in segments.iter().filter(|s| s.value > 0) {
        let w = if total == 0 { 0.0 } else { s.value as f64 * 1000.0 / total as f64 };
        let _ = write!(
            out,
            "<rect class=\"{}\" x=\"{}\" y=\"0\" width=\"{}\" height=\"14\"/>",
            s.class,
            Tenths(x),
            Tenths(w.max(2.0))
        );
        x += w;
    }
    out.push_str("</svg><ul class=\"bd-keys\">");
    for s in segments.iter().filter(|s| s.value > 0) {
        let _ = write!(
            out,
            "<li id=\"{prefix}-{}\" data-value=\"{}\"><span class=\"swatch box {}\"></span>{}</li>",
            s.id,
            s.value,
            s.class,
            esc(&counted(lang, s.label, s.value))
        );
    }
    out.push_str("</ul>");
}

/// The whole breakdown of a run as markup: the flow, then per hop its callers' attempts
/// and its calls' results. Ids carry `side` ("a" or "b") so compare mode's two stay unique.
pub fn markup(lang: Lang, r: &Report, side: &str) -> String {
    let mut out = String::with_capacity(8_192);
    let num = |n: u64| format_number(n as f64, 0);
    // Focusable: in a compare half or on a phone the picture scrolls sideways in it, and the
    // keyboard must reach what is out of view (axe: scrollable-region-focusable). Not a
    // region: the breakdown's section is the landmark its caption names.
    let _ = write!(
        out,
        "<div><figure class=\"chart bd-flow\" id=\"bd-flow-{side}\" tabindex=\"0\"><figcaption id=\"bd-title-{side}\">{}</figcaption><p class=\"note\">{}</p>",
        esc(lang.t(T::BdTitle)),
        esc(lang.t(T::BdIntro))
    );
    flow_markup(&mut out, lang, r, side);
    let _ = write!(
        out,
        "</figure><section class=\"bd-per-hop\" id=\"bd-hops-{side}\" aria-labelledby=\"lower-title-{side} bd-hops-title-{side}\">\
         <h3 id=\"bd-hops-title-{side}\">{}</h3><p class=\"note\">{}</p><div class=\"bd-hops\">",
        esc(lang.t(T::BdHopsTitle)),
        esc(lang.t(T::BdHopsNote))
    );
    for row in hop_rows(r) {
        out.push_str("<div class=\"bd-hop\">");
        for c in &row.callers {
            let prefix = format!("bd-{side}-c{}", c.client);
            let name = r.client_label(lang, c.client);
            let head = lang.f(T::BdCallerLine, &[("name", &name), ("n", &num(c.wanted))]);
            let _ = write!(
                out,
                "<div class=\"bd-row caller\" id=\"{prefix}\" data-value=\"{}\"><div class=\"bd-row-head\">{}</div>",
                c.wanted,
                esc(&head)
            );
            bar_markup(&mut out, lang, &c.segments, c.wanted, &prefix);
            let note =
                lang.f(T::BdCallerNote, &[("retries", &num(c.retries)), ("timeouts", &num(c.timeouts))]);
            let _ = write!(
                out,
                "<p class=\"bd-sub\" id=\"{prefix}-timeouts\" data-value=\"{}\">{}</p></div>",
                c.timeouts,
                esc(&note)
            );
        }
        let prefix = format!("bd-{side}-hop{}", row.hop);
        let head = lang.f(T::BdHopCalls, &[("name", &lang.service(&row.name)), ("n", &num(row.calls))]);
        let _ = write!(
            out,
            "<div class=\"bd-row hop\" id=\"{prefix}\" data-value=\"{}\"><div class=\"bd-row-head\"><strong>{}</strong></div>",
            row.calls,
            esc(&head)
        );
        bar_markup(&mut out, lang, &row.segments, row.calls, &prefix);
        if row.abandoned > 0 {
            let text = lang.f(T::BdAbandoned, &[("n", &num(row.abandoned))]);
            let _ = write!(
                out,
                "<p class=\"bd-sub\" id=\"{prefix}-abandoned\" data-value=\"{}\">{}</p>",
                row.abandoned,
                esc(&text)
            );
        }
        out.push_str("</div></div>");
    }
    out.push_str("</div></section></div>");
    out
}

/// Whether `markup` closes every element it opens, in order (self-closed and void
/// elements aside): a check for the tests, not a parser.
#[cfg(test)]
pub(crate) fn balanced(markup: &str) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = markup;
    while let Some(at) = rest.find('<') {
        let end = match rest[at..].find('>') {
            Some(e) => at + e,
            None => return false,
        };
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if tag.ends_with('/') {
            continue;
        }
        let name = tag.trim_start_matches('/').split([' ', '\n']).next().unwrap_or("");
        if tag.starts_with('/') {
            if open.pop() != Some(name) {
                return false;
            }
        } else {
            open.push(name);
        }
    }
    open.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::{DEFAULT_MAX_CALLS, run_with};
    use crate::scenario::presets;

    fn report(name: &str) -> Report {
        run_with(&(presets::find(name).unwrap().build)(), 1, DEFAULT_MAX_CALLS).unwrap()
    }

    #[test]
    fn the_flow_adds_up_to_the_summary() {
        let r = report("big-promo-protected");
        let f = request_flow(&r);
        let s = &r.summary;
        assert_eq!(f.unexplained(), 0);
        let col1: u64 = f.column(1).map(|(_, n)| n.value).sum();
        assert_eq!(col1, s.original_requests);
        let by = |id: &str| f.nodes.iter().find(|n| n.id == id).unwrap().value;
        assert_eq!(by("failed") + by("unfinished"), s.failed);
        assert_eq!(by("rejected"), s.admission_rejected);
        assert!(by("rejected") > 0 && by("rejected-rate_limit") == by("rejected"), "the entry's rate limit");
        assert!(by("degraded") > 0);
        let degraded_causes: u64 =
            f.nodes.iter().filter(|n| n.id.starts_with("degraded-")).map(|n| n.value).sum();
        assert_eq!(degraded_causes, s.degraded);
    }

    #[test]
    fn a_gap_in_the_report_shows_as_other() {
        let mut r = report("chain-3x3");
        r.summary.failed_by_cause.error -= 10;
        let f = request_flow(&r);
        assert_eq!(f.unexplained(), 10, "ten failures without a cause are drawn as such");
        assert!(f.nodes.iter().any(|n| n.id == "failed-other" && n.value == 10));
    }

    #[test]
    fn hop_rows_add_up_to_the_calls() {
        for name in ["big-promo-protected", "lab11-protected", "chain-3x3"] {
            let r = report(name);
            for row in hop_rows(&r) {
                let sum: u64 = row.segments.iter().map(|s| s.value).sum();
                assert_eq!(sum, row.calls, "{name} {}", row.name);
                for c in &row.callers {
                    assert_eq!(c.segments[0].value, r.clients[c.client].attempts);
                    assert_eq!(c.segments.iter().map(|s| s.value).sum::<u64>(), c.wanted);
                }
            }
        }
        let r = report("chain-3x3");
        let rows = hop_rows(&r);
        assert!(rows[0].callers.is_empty(), "the entry is called by the requests");
        assert_eq!(rows[3].calls, 27_000);
        assert_eq!(
            rows[3].segments.iter().find(|s| s.id == "error").unwrap().value,
            27_000,
            "always failing"
        );
    }

    #[test]
    fn the_layout_stacks_boxes_without_overlap_and_keeps_labels_apart() {
        let r = report("big-promo-protected");
        let f = request_flow(&r);
        let l = layout(&f);
        for c in 0..3 {
            let mut prev_bottom = f64::NEG_INFINITY;
            let mut prev_label = f64::NEG_INFINITY;
            for (i, n) in f.column(c) {
                let p = l.nodes[i];
                if n.value == 0 {
                    continue;
                }
                assert!(p.h >= MIN_H && p.y >= prev_bottom + GAP - 1e-9, "column {c}: {} overlaps", n.id);
                assert!(p.label_y >= prev_label + LINE - 1e-9, "labels at least a line apart");
                assert!(p.y + p.h <= l.height && p.label_y <= l.height);
                prev_bottom = p.y + p.h;
                prev_label = p.label_y;
            }
        }
        let root = l.nodes[0];
        let outcome_total: f64 = f.column(1).map(|(i, _)| l.nodes[i].h).sum();
        assert!((root.h - BARS_H).abs() < 1e-6 || root.h >= outcome_total - 4.0 * MIN_H);
        let with_requests = f.nodes.iter().skip(1).filter(|n| n.value > 0).count();
        assert_eq!(l.bands.len(), with_requests, "a band into every box with requests");
        assert!(l.bands.iter().all(|(_, d)| d.starts_with('M') && d.ends_with('Z')));
    }

    #[test]
    fn the_markup_is_well_formed_escaped_and_carries_the_counts() {
        let mut r = report("big-promo-protected");
        r.hops[2].name = "a<b>&\"c".into();
        for lang in [Lang::En, Lang::Zh] {
            let m = markup(lang, &r, "a");
            assert!(balanced(&m), "{m}");
            assert!(m.contains("a&lt;b&gt;&amp;&quot;c") && !m.contains("a<b>"), "names are escaped");
            let want = format!("id=\"bd-a-requests\" data-value=\"{}\"", r.summary.original_requests);
            assert!(m.contains(&want));
            let calls = format!("id=\"bd-a-hop0\" data-value=\"{}\"", r.hops[0].calls);
            assert!(m.contains(&calls));
        }
        assert!(!balanced("<div><p></div></p>") && !balanced("<div>") && balanced("<svg><rect/></svg>"));
    }

    #[test]
    fn an_empty_report_lays_out_without_dividing_by_zero() {
        let mut r = report("chain-3x3");
        r.summary = Default::default();
        r.hops.clear();
        let l = layout(&request_flow(&r));
        assert!(l.bands.is_empty());
        assert!(l.height.is_finite() && l.nodes.iter().all(|p| p.y.is_finite()));
        assert_eq!(percent(3, 0), 0.0);
        assert_eq!(percent(1, 4), 25.0);
    }
}
