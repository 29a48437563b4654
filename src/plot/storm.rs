//! What the retry-storm page draws, computed from a report: headline figures, values at
//! the playhead, diagram layout, flowing dots, the request timeline and the closed-form
//! comparison. Pure functions, tested natively; the components only place the results.

use super::Linear;
use crate::i18n::{T, format_number};
use crate::model::slo::Slo;
use crate::report::{BreakerTransition, CallResult, HopKind, Report, Trace};
use crate::scenario::{Load, Scenario};

/// One headline figure: DOM id suffix, label, exact value (as in the JSON report).
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// Stable id (`original_requests`, `latency_p99`, ...), also the JSON field it mirrors.
    pub id: &'static str,
    pub label: T,
    pub value: f64,
    /// Unit shown after the value.
    pub unit: Unit,
    /// Whether a larger value is better (for colouring differences).
    pub higher_is_better: Option<bool>,
    /// What the figure counts, where its definition matters (core success counts
    /// degraded answers as served).
    pub note: Option<T>,
}

/// How a headline value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Count,
    Times,
    Percent,
    Ms,
}

/// A share at or above this (1,000 %) is written as a multiple, its difference too.
pub const TIMES_FROM: f64 = 10.0;

impl Unit {
    /// A value rounded as [`write`](Self::write) shows it, so that a difference of two shown
    /// values is the difference of what the reader sees (1.75× and 1.77× differ by 0.02×,
    /// where their exact values, 1.7506 and 1.7653, differ by 0.01 once rounded).
    pub fn shown(self, v: f64) -> f64 {
        let round = |v: f64, decimals: i32| {
            let f = 10f64.powi(decimals);
            (v * f).round() / f
        };
        if !v.is_finite() {
            return v;
        }
        match self {
            Unit::Count => v.round(),
            Unit::Times => round(v, 2),
            Unit::Percent if v.abs() >= TIMES_FROM => round(v, 1),
            Unit::Percent => round(v * 100.0, 2) / 100.0,
            Unit::Ms => round(v, 1),
        }
    }

    /// A headline value as its card writes it (the live line and the command line's table
    /// read it the same way).
    pub fn write(self, lang: crate::i18n::Lang, v: f64) -> String {
        use crate::i18n::format_number;
        if v.is_infinite() {
            return "∞".to_string();
        }
        match self {
            Unit::Count => format_number(v, 0),
            Unit::Times => format!("{}×", format_number(v, 2)),
            // An error budget spent many times over reads better as a multiple: 1,000×, not
            // 100,000 %.
            Unit::Percent if v.abs() >= TIMES_FROM => format!("{}×", format_number(v, 1)),
            Unit::Percent => lang.percent_figure(v * 100.0),
            Unit::Ms => format!("{} ms", format_number(v, 1)),
        }
    }
}

impl Unit {
    /// A value as a compared card writes it beside `other`, the other side's: a percentage
    /// is written as a multiple when either is, so that a card has one unit (an error
    /// budget spent 896.1× beside 0×, not beside "0 %").
    pub fn write_beside(self, lang: crate::i18n::Lang, v: f64, other: f64) -> String {
        match self {
            Unit::Percent if v.is_finite() && v.abs() < TIMES_FROM && other.abs() >= TIMES_FROM => {
                format!("{}×", crate::i18n::format_number(v, 1))
            }
            _ => self.write(lang, v),
        }
    }
}

/// The headline figures of a report, in display order.
pub fn headlines(r: &Report, slo: Slo) -> Vec<Headline> {
    let s = &r.summary;
    let budget = slo.budget(s);
    let abandoned: u64 = r.hops.iter().map(|h| h.abandoned_work).sum();
    let h = |id, label, value: f64, unit, better| Headline {
        id,
        label,
        value,
        unit,
        higher_is_better: better,
        note: match id {
            "core_success_rate" => Some(T::HCoreSuccessNote),
            "error_budget_spent" => Some(T::HErrorBudgetNote),
            "abandoned_work" => Some(T::HAbandonedNote),
            // Refused requests count in the denominator: 40 leaf calls for 100 requests of
            // which 80 were refused read 0.4×, which looks like a bug without it.
            "amplification" => Some(T::HAmplificationNote),
            "retries" | "timeouts" => Some(T::HEveryHopNote),
            "latency_p50" => Some(T::HLatencyNote),
            _ => None,
        },
    };
    vec![
        h("original_requests", T::HOriginal, s.original_requests as f64, Unit::Count, None),
        h("downstream_attempts", T::HLeaf, s.downstream_attempts as f64, Unit::Count, None),
        h("amplification", T::HAmplification, s.amplification, Unit::Times, Some(false)),
        h("succeeded", T::HSucceeded, s.succeeded as f64, Unit::Count, Some(true)),
        h("degraded", T::HDegraded, s.degraded as f64, Unit::Count, None),
        h("failed", T::HFailed, s.failed as f64, Unit::Count, Some(false)),
        h("admission_rejected", T::HRejected, s.admission_rejected as f64, Unit::Count, None),
        h("core_success_rate", T::HCoreSuccess, s.core_success_rate, Unit::Percent, Some(true)),
        h("error_budget_spent", T::HErrorBudget, budget.spent_fraction, Unit::Percent, Some(false)),
        h("latency_p50", T::HP50, s.latency_ms.p50, Unit::Ms, Some(false)),
        h("latency_p99", T::HP99, s.latency_ms.p99, Unit::Ms, Some(false)),
        h("latency_max", T::HMax, s.latency_ms.max, Unit::Ms, Some(false)),
        h("retries", T::HRetries, s.retries as f64, Unit::Count, None),
        h("timeouts", T::HTimeouts, s.timeouts as f64, Unit::Count, Some(false)),
        h("retry_budget_denied", T::HBudgetDenied, s.retry_budget_denied as f64, Unit::Count, None),
        h("budget_exhausted", T::HBudgetExhausted, s.budget_exhausted as f64, Unit::Count, None),
        h("breaker_rejected", T::HBreakerRejected, s.breaker_rejected as f64, Unit::Count, None),
        h("bulkhead_rejected", T::HBulkheadRejected, s.bulkhead_rejected as f64, Unit::Count, None),
        h("abandoned_work", T::HAbandoned, abandoned as f64, Unit::Count, Some(false)),
    ]
}

/// The bucket that holds virtual time `ms` (clamped to the run).
pub fn bucket_at(r: &Report, ms: f64) -> usize {
    let n = r.series.buckets.max(1);
    let b = if r.series.bucket_ms > 0.0 { (ms / r.series.bucket_ms).floor() } else { 0.0 };
    (b.max(0.0) as usize).min(n - 1)
}

/// Total of a counter series up to and including bucket `b`.
pub fn total_until(series: &[u64], b: usize) -> u64 {
    series.iter().take(b + 1).sum()
}

/// The amplification an arrow of the chain diagram carries up to and including bucket `b`:
/// calls that reached hop `to` per call that reached hop `from`, with the two counts, when
/// `from` has had calls. Every hop but the entry has one caller, so this is its caller's
/// attempts per call of its own: the retry policy's limit is the most it can reach, only
/// where every try fails, and a deadline, budget or breaker that stops retries keeps it lower.
pub fn edge_ratio(r: &Report, from: usize, to: usize, b: usize) -> Option<(f64, u64, u64)> {
    let calls = |hop: usize| r.series.attempts.get(hop).map(|s| total_until(s, b));
    let (caller, callee) = (calls(from)?, calls(to)?);
    (caller > 0).then(|| (callee as f64 / caller as f64, callee, caller))
}

/// A client's breakers at a moment of the run, from the report's transitions: exact, where
/// the series keep each bucket's peak (a breaker that opened and half-opened within one
/// bucket reads open in it all).
#[derive(Clone, Debug, PartialEq)]
pub struct BreakerAt<'a> {
    /// The client's breaker instances.
    pub instances: u32,
    /// Of which open at the moment.
    pub open: u32,
    /// Of which half-open at the moment.
    pub half_open: u32,
    /// The first instance's last move at or before the moment (its tally is what the move
    /// was decided on).
    pub first_last: Option<&'a BreakerTransition>,
    /// The latest move to open of an instance open at the moment: what the diagram says an
    /// open breaker opened on, whichever instance it is.
    pub open_last: Option<&'a BreakerTransition>,
}

/// [`BreakerAt`] for client `client` at `at_ms` (a move at `at_ms` has happened); None
/// without a breaker.
pub fn breaker_at(r: &Report, client: usize, at_ms: f64) -> Option<BreakerAt<'_>> {
    use crate::policy::breaker::State;
    let instances = r.clients.get(client)?.breaker_instances;
    if instances == 0 {
        return None;
    }
    // Each instance's last move so far; transitions are listed in the order they happened.
    let mut last: Vec<Option<&BreakerTransition>> = vec![None; instances as usize];
    for t in r.breaker_transitions.iter().filter(|t| t.client == client && t.t_ms <= at_ms) {
        if let Some(l) = last.get_mut(t.instance as usize) {
            *l = Some(t);
        }
    }
    let state = |l: &Option<&BreakerTransition>| l.map_or(State::Closed, |t| t.to);
    let count = |want| last.iter().filter(|l| state(l) == want).count() as u32;
    let open_last = last
        .iter()
        .flatten()
        .filter(|t| t.to == State::Open)
        .copied()
        .reduce(|a, b| if b.t_ms > a.t_ms { b } else { a });
    Some(BreakerAt {
        instances,
        open: count(State::Open),
        half_open: count(State::HalfOpen),
        first_last: last.first().copied().flatten(),
        open_last,
    })
}

/// The top of each chart's y axis and the end of the time axis, shared by A and B so that
/// the same height means the same number on both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Axes {
    /// The time axis' end (ms).
    pub end_ms: f64,
    /// The load chart's top (calls/s); 0 here and below: the chart's own scale.
    pub load: f64,
    /// The in-flight chart's top (calls).
    pub in_flight: f64,
    /// The outcome chart's top (requests/s, stacked).
    pub outcomes: f64,
    /// The breaker chart's top (instances).
    pub breakers: f64,
    /// The retry-budget chart's top (tokens).
    pub budgets: f64,
    /// The error-budget chart's top (%).
    pub error_budget: f64,
}

impl Axes {
    /// A lesson step's y scales after one more run (`before`: the step's earlier runs'):
    /// each the highest so far, so that the learner's knob moves compare on one scale. The
    /// in-flight chart shows the hop in focus, which a click changes: held only while the
    /// same hop is shown (`same_focus`). The time axis is each run's own (the playback
    /// follows it).
    pub fn held(before: Option<Axes>, now: Axes, same_focus: bool) -> Axes {
        let Some(b) = before else { return now };
        Axes {
            end_ms: now.end_ms,
            load: b.load.max(now.load),
            in_flight: if same_focus { b.in_flight.max(now.in_flight) } else { now.in_flight },
            outcomes: b.outcomes.max(now.outcomes),
            breakers: b.breakers.max(now.breakers),
            budgets: b.budgets.max(now.budgets),
            error_budget: b.error_budget.max(now.error_budget),
        }
    }
}

/// An arrow's calls per call as its label writes it (without the ×): whole when the calls
/// divide exactly, else to one decimal that is always written (`3.0` is 2.96, not 3), so
/// that the label fits the gap between two boxes.
pub fn ratio_text(callee: u64, caller: u64) -> String {
    if caller > 0 && callee.is_multiple_of(caller) {
        return format_number((callee / caller) as f64, 0);
    }
    let s = format_number(callee as f64 / caller.max(1) as f64, 1);
    if s.contains('.') { s } else { s + ".0" }
}

/// A gauge series' value in bucket `b` (0 when the series is empty).
pub fn gauge_at(series: &[i64], b: usize) -> i64 {
    series.get(b).or(series.last()).copied().unwrap_or(0)
}

/// Where a pool is hidden at the foot of a chart whose scale goes up to `top` (a queue many
/// times its size, this run's or, side by side, the other run's): the longest run of
/// buckets with every worker busy, as (from, to) in ms, when `top` is over ten times the
/// pool (below that the busy line reads by itself).
///
/// The run's last bucket ends at the bucket's width, not at the run's end (`end_ms`): a
/// stretch that reaches it ends at `end_ms`, so that the note does not run past the run.
pub fn hidden_full_pool(
    busy: &[f64],
    top: f64,
    limit: f64,
    bucket_ms: f64,
    end_ms: f64,
) -> Option<(f64, f64)> {
    if limit <= 0.0 || top <= 10.0 * limit {
        return None;
    }
    let (mut best, mut run_start) = (None::<(usize, usize)>, None);
    for i in 0..=busy.len() {
        match (busy.get(i).is_some_and(|&b| b >= limit), run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(s)) => {
                if best.is_none_or(|(a, b)| i - s > b - a) {
                    best = Some((s, i));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    best.map(|(a, b)| (a as f64 * bucket_ms, (b as f64 * bucket_ms).min(end_ms)))
}

/// A counter series as a rate per second.
pub fn per_second(series: &[u64], bucket_ms: f64) -> Vec<f64> {
    let f = if bucket_ms > 0.0 { 1000.0 / bucket_ms } else { 0.0 };
    series.iter().map(|&v| v as f64 * f).collect()
}

/// How a series is read on another run's bucket grid (see [`regrid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regrid {
    /// A rate: averaged over the time each bucket overlaps (the calls it stands for are kept).
    Rate,
    /// A level's peak: the highest of the buckets that overlap.
    Peak,
}

/// `values` in buckets of `from_ms`, read on a grid of `to_ms` buckets from 0, as far as
/// the values reach: compare mode's overlay draws side B on side A's grid, and the two runs
/// may have chosen different buckets (a different length). The same grid returns the values.
pub fn regrid(values: &[f64], from_ms: f64, to_ms: f64, how: Regrid) -> Vec<f64> {
    if from_ms == to_ms || from_ms <= 0.0 || to_ms <= 0.0 {
        return values.to_vec();
    }
    let end = values.len() as f64 * from_ms;
    // (less a hair: 12 × 0.1 ms is a hair over 2 × 0.6 ms, and an empty third bucket would
    // read 0)
    let n = (end / to_ms - 1e-9).ceil().max(0.0) as usize;
    (0..n)
        .map(|i| {
            let (lo, hi) = (i as f64 * to_ms, (i + 1) as f64 * to_ms);
            let first = (lo / from_ms).floor() as usize;
            let last = ((hi / from_ms).ceil() as usize).min(values.len());
            let overlap = |j: usize| (hi.min((j + 1) as f64 * from_ms) - lo.max(j as f64 * from_ms)).max(0.0);
            // A hair of overlap is floating-point noise at a shared edge, not a bucket.
            let js = (first..last).filter(|&j| overlap(j) > 1e-9 * to_ms);
            match how {
                Regrid::Rate => js.map(|j| values[j] * overlap(j)).sum::<f64>() / to_ms,
                Regrid::Peak => js.map(|j| values[j]).fold(0.0, f64::max),
            }
        })
        .collect()
}

/// The run's length in ms (the last bucket's end).
pub fn run_end_ms(r: &Report) -> f64 {
    (r.series.buckets as f64 * r.series.bucket_ms).max(r.summary.end_ms)
}

/// The calls per second reaching `hop` (retries included) while the load arrives and before
/// the scenario's first fault starts, over the whole buckets in that window; the fault is
/// not waited for when it starts within the first bucket. It is the load the hop normally
/// sees, which the queue lab's link takes: the run's mean would count the storm a fault
/// sets off (metastable's server: 486.8/s over the run, 446/s before its trigger) and the
/// time after the load stops, when a pool only drains its backlog
/// (`recommendation-500rps`'s profile: 247.6/s over its 84 s run, its capacity, against
/// the 2,000 and more a second its 5 s of load bring). With no whole bucket in the window
/// (a batch at t = 0), the whole run. Rounded to a tenth of a call per second, or of a
/// thousandth below 10/s.
pub fn steady_arrival_rate(r: &Report, s: &Scenario, hop: usize) -> f64 {
    let load_end = s.load.duration_ms();
    let first_fault = s.faults.iter().map(|f| f.start_ms).fold(f64::INFINITY, f64::min);
    let w = r.series.bucket_ms;
    let buckets = |ms: f64| if w > 0.0 && ms.is_finite() { (ms / w).floor() as usize } else { 0 };
    let before_fault = buckets(first_fault);
    let end = if before_fault >= 1 { first_fault.min(load_end) } else { load_end };
    let rate = match r.series.attempts.get(hop) {
        // A series that ends before the window does (a run shorter than its fault's start)
        // counts all its buckets.
        Some(v) if buckets(end) >= 1 && !v.is_empty() => {
            let n = buckets(end).min(v.len());
            v[..n].iter().sum::<u64>() as f64 / (n as f64 * w / 1000.0)
        }
        _ => r.hops.get(hop).map_or(0.0, |h| h.calls as f64) / (run_end_ms(r) / 1000.0).max(1e-3),
    };
    if rate >= 10.0 { (rate * 10.0).round() / 10.0 } else { (rate * 1000.0).round() / 1000.0 }
}

/// A box of the chain diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct HopBox {
    /// Hop index in the report.
    pub hop: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// An arrow between two boxes, for the dots.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Calling hop and called hop.
    pub from: usize,
    pub to: usize,
    /// Client index whose attempts flow along it.
    pub client: usize,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

/// A layer's shared pool, drawn as its own box under the layer: the cause a learner should
/// be able to point at when several dependencies queue for the same threads.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolBox {
    /// The layer that owns the pool.
    pub hop: usize,
    /// The clients that draw from it.
    pub clients: Vec<usize>,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The chain diagram's geometry.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The view box's width: the room it was laid out for, or more when its boxes need it
    /// (the figure then scrolls sideways rather than shrink its text).
    pub width: f64,
    pub boxes: Vec<HopBox>,
    pub edges: Vec<Edge>,
    pub pools: Vec<PoolBox>,
    pub height: f64,
}

/// Height of a shared pool's box.
pub const POOL_H: f64 = 58.0;

/// Whether client `ci` draws from its caller's shared pool (a bulkhead stage without a
/// bulkhead of its own).
pub fn uses_shared_pool(r: &Report, ci: usize) -> bool {
    let c = &r.clients[ci];
    c.bulkhead.is_none()
        && c.stack.contains(&crate::policy::stack::Stage::Bulkhead)
        && r.hops.get(c.caller).is_some_and(|h| h.shared_pool.is_some())
}

/// The client whose stack a main hop's badges show, when the box names its call ("calls
/// order-core with:"): a hop that calls side dependencies too, each of which shows its own
/// call's stack in its box, so that the main hop's badges are only the next hop's call's.
pub fn names_its_call(r: &Report, hop: usize) -> Option<usize> {
    let is_side = |h: usize| r.hops.get(h).is_some_and(|hp| hp.kind == HopKind::Side);
    if is_side(hop) || !r.clients.iter().any(|c| c.caller == hop && is_side(c.callee)) {
        return None;
    }
    r.clients
        .iter()
        .position(|c| c.caller == hop && c.callee == hop + 1)
        .filter(|&ci| !r.clients[ci].stack.is_empty())
}

/// Where a box's badges start (from its top, CSS px) under `lines` lines of 17 px (a
/// bulkhead's use, which call the badges are) below the workers' line and bars.
pub fn badges_top(lines: usize) -> f64 {
    64.0 + 17.0 * lines as f64
}

/// The height a main hop's box needs when it names its call and shows that call's
/// bulkhead too (two lines above its badges); `None` when the usual height holds it.
fn two_line_box_h(r: &Report, hop: usize) -> Option<f64> {
    let ci = names_its_call(r, hop)?;
    let c = &r.clients[ci];
    c.bulkhead?;
    // Two badges a row, 14 px high every 17 px: the stack's, a fallback's and (one more
    // than the report can tell) an admission badge's.
    let rows = (c.stack.len() + usize::from(c.optional) + 1).div_ceil(2) as f64;
    let badges_end = badges_top(2) + (rows - 1.0) * 17.0 + 14.0;
    // A breaker on this call writes its two lines at the box's foot (see `ui::storm::diagram`).
    Some(badges_end + if c.breaker_instances > 0 { 35.0 } else { 6.0 })
}

/// The chain diagram's widest layout (CSS px): a wider figure scales this drawing up.
pub const DIAGRAM_W: f64 = 900.0;

/// The narrowest a hop's box gets (CSS px): its badges, two to a row, stay legible at their
/// 10.5 px (a long one squeezed). A figure with less room for its row of boxes scrolls
/// sideways instead. 110: the retry-storm lesson's four hops (the ×64 payment last) fit a
/// 1,024 px laptop's column of 562 px.
pub const MIN_BOX_W: f64 = 110.0;

/// The room between two boxes of the main path (CSS px), in the widest layout and below it.
const GAP_W: f64 = 46.0;
const GAP_NARROW: f64 = 36.0;

/// Room left of the first box and right of the last (a box's 1.5 px stroke is not cut).
const DIAGRAM_MARGIN: f64 = 4.0;

/// The width a side dependency's breaker lines take left of its edge (11.5 px text, "CLOSED
/// · opens at ≥ 50 % failed" the longest).
const SIDE_BREAKER_TEXT_W: f64 = 215.0;

/// Lays out the chain in `room` CSS px (the figure's width; at most [`DIAGRAM_W`] is used,
/// and a wider figure scales the drawing up): the main path left to right in one row, each
/// layer's shared pool under it, side dependencies below that, side by side under the layer
/// that calls them. The text keeps the style sheet's sizes in any room from its row's
/// narrowest (boxes of [`MIN_BOX_W`]) up, where a fixed 900-wide drawing shrunk to a
/// tablet's column had drawn them at 6 px.
pub fn diagram_layout(r: &Report, room: f64) -> Layout {
    let main: Vec<usize> =
        r.hops.iter().enumerate().filter(|(_, h)| h.kind != HopKind::Side).map(|(i, _)| i).collect();
    let n = main.len().max(1) as f64;
    let gap = if room >= DIAGRAM_W { GAP_W } else { GAP_NARROW };
    let narrowest = MIN_BOX_W * n + gap * (n - 1.0) + 2.0 * DIAGRAM_MARGIN;
    let width = room.min(DIAGRAM_W).max(narrowest);
    let w = ((width - 2.0 * DIAGRAM_MARGIN - gap * (n - 1.0)) / n).clamp(MIN_BOX_W, 220.0);
    let total = w * n + gap * (n - 1.0);
    let x0 = ((width - total) / 2.0).max(DIAGRAM_MARGIN);
    // A breaker on the main path writes two lines at the bottom of its caller's box.
    let main_breaker = r
        .clients
        .iter()
        .any(|c| c.breaker_instances > 0 && r.hops.get(c.callee).is_some_and(|hp| hp.kind != HopKind::Side));
    let h = main
        .iter()
        .filter_map(|&hop| two_line_box_h(r, hop))
        .fold(if main_breaker { 164.0 } else { 136.0 }, f64::max);
    let mut boxes: Vec<HopBox> = main
        .iter()
        .enumerate()
        .map(|(k, &hop)| HopBox { hop, x: x0 + k as f64 * (w + gap), y: 10.0, w, h })
        .collect();
    let mut pools: Vec<PoolBox> = boxes
        .iter()
        .filter(|b| r.hops[b.hop].shared_pool.is_some())
        .map(|b| PoolBox {
            hop: b.hop,
            clients: (0..r.clients.len())
                .filter(|&ci| r.clients[ci].caller == b.hop && uses_shared_pool(r, ci))
                .collect(),
            x: b.x,
            y: b.y + h + 24.0,
            w,
            h: POOL_H,
        })
        .collect();
    let side_y = 10.0 + h + 50.0 + if pools.is_empty() { 0.0 } else { POOL_H + 24.0 };
    let mut edges = Vec::new();
    let mut sides_of: Vec<usize> = vec![0; r.hops.len()];
    for (ci, c) in r.clients.iter().enumerate() {
        let Some(from) = boxes.iter().find(|b| b.hop == c.caller).cloned() else { continue };
        if r.hops.get(c.callee).is_some_and(|hp| hp.kind == HopKind::Side) {
            // The k-th side dependency of a layer sits k boxes to the right of the first; a
            // layer with a shared pool keeps the space under it for the pool.
            let has_pool = r.hops[c.caller].shared_pool.is_some();
            let k = (sides_of[c.caller] + usize::from(has_pool)) as f64;
            sides_of[c.caller] += 1;
            // Its box shows its caller's stack towards it under a line that says so, two
            // badges a row of 17 px from 81 px down (one more for a possible admission badge,
            // see `ui::storm::diagram`): taller than the row's when they need it.
            let rows = (c.stack.len() + usize::from(c.optional) + 1).div_ceil(2) as f64;
            let bx = HopBox {
                hop: c.callee,
                x: from.x + k * (w + gap * 0.5),
                y: side_y,
                w,
                h: h.max(84.0 + rows * 17.0),
            };
            let x1 = if has_pool { from.x + w - 10.0 - 8.0 * (k - 1.0) } else { from.x + w / 2.0 + k * 12.0 };
            edges.push(Edge {
                from: c.caller,
                to: c.callee,
                client: ci,
                x1,
                y1: from.y + h,
                x2: bx.x + w / 2.0,
                y2: bx.y,
            });
            boxes.push(bx);
        } else if let Some(to) = boxes.iter().find(|b| b.hop == c.callee) {
            edges.push(Edge {
                from: c.caller,
                to: c.callee,
                client: ci,
                x1: from.x + w,
                y1: from.y + h / 2.0,
                x2: to.x,
                y2: to.y + h / 2.0,
            });
        }
    }
    let height =
        boxes.iter().map(|b| b.y + b.h).chain(pools.iter().map(|p| p.y + p.h)).fold(0.0, f64::max) + 10.0;
    // A side dependency's breaker writes its two lines to the left of its (vertical) edge,
    // right-aligned: in a narrow layout the drawing moves right to make room for them.
    let side_breaker_x = edges
        .iter()
        .filter(|e| {
            (e.x1 - e.x2).abs() < 1.0 && r.clients.get(e.client).is_some_and(|c| c.breaker_instances > 0)
        })
        .map(|e| e.x1)
        .fold(f64::INFINITY, f64::min);
    let shift = (SIDE_BREAKER_TEXT_W + 8.0 - side_breaker_x).max(0.0);
    if shift > 0.0 {
        boxes.iter_mut().for_each(|b| b.x += shift);
        pools.iter_mut().for_each(|p| p.x += shift);
        edges.iter_mut().for_each(|e| (e.x1, e.x2) = (e.x1 + shift, e.x2 + shift));
    }
    // Side dependencies several to a layer may reach past the row's right end.
    let right = boxes.iter().map(|b| b.x + b.w).chain(pools.iter().map(|p| p.x + p.w)).fold(0.0, f64::max);
    Layout { width: (width + shift).max(right + DIAGRAM_MARGIN), boxes, edges, pools, height }
}

/// Positions (0–1 along an edge) of the dots showing `count` calls in the current bucket,
/// advanced by `phase` (0–1, the playhead's position inside the bucket). At most `cap`
/// dots; each dot stands for `ceil(count / cap)` calls.
pub fn dots(count: u64, phase: f64, cap: usize) -> Vec<f64> {
    if count == 0 || cap == 0 {
        return Vec::new();
    }
    let n = (count as usize).min(cap);
    (0..n).map(|k| (phase + k as f64 / n as f64).fract()).collect()
}

/// One bar of the request timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Lane (hop index).
    pub lane: usize,
    /// Arrival, work start and end, in ms since the request arrived.
    pub start: f64,
    pub work: Option<f64>,
    pub end: f64,
    pub result: CallResult,
    pub abandoned: bool,
    pub attempt: u32,
}

/// The timeline of one request: bars per hop, relative to its arrival, and the time axis
/// length (covering the deadline).
pub fn timeline(t: &Trace) -> (Vec<Bar>, f64) {
    let t0 = t.arrival_ms;
    let bars: Vec<Bar> = t
        .spans
        .iter()
        .map(|s| Bar {
            lane: s.hop,
            start: s.start_ms - t0,
            work: s.work_ms.map(|w| w - t0),
            end: s.end_ms - t0,
            result: s.result,
            abandoned: s.abandoned,
            attempt: s.attempt,
        })
        .collect();
    let mut span = t.end_ms - t0;
    for b in &bars {
        span = span.max(b.end);
    }
    for m in &t.marks {
        span = span.max(m.end_ms - t0);
    }
    if let Some(d) = t.deadline_ms {
        span = span.max(d - t0);
    }
    (bars, span.max(1.0) * 1.05)
}

/// The closed-form figures beside the simulated ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Formulas {
    /// Entry rate at peak (req/s), if the load is a rate: the load's peak factor and the
    /// highest combined traffic surge included.
    pub entry_rate: Option<f64>,
    /// The highest combined traffic surge in `entry_rate` (1 without surges).
    pub surge: f64,
    /// Attempts per layer on the way to the leaf.
    pub attempts: Vec<u32>,
    /// entry_rate × Π attempts.
    pub bound: Option<f64>,
    /// Highest simulated leaf attempts/s over a bucket.
    pub sim_peak_rate: f64,
    /// Simulated leaf attempts per original request (the batch loads' figure: their rate
    /// over a bucket is the bucket's width's, not the load's).
    pub sim_per_request: f64,
    /// The leaf's work load at its busiest bucket: λ × S, the leaf attempts/s of the bucket
    /// times the mean work in force then (latency faults included), and where it was.
    pub offered: OfferedLoad,
    /// The report's bucket width (ms).
    pub bucket_ms: f64,
    /// Highest simulated number of busy leaf workers.
    pub sim_peak_in_flight: i64,
    /// Leaf workers, if limited.
    pub leaf_workers: Option<u32>,
    /// The leaf's name (a preset with side dependencies has other services at the end of
    /// a call too: the panel says which one it means).
    pub leaf_name: String,
}

/// Workers a service's work asks for over one bucket: λ × S (offered load, in workers).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OfferedLoad {
    /// Attempts per second reaching it over the bucket.
    pub rate: f64,
    /// Its mean work in force over the bucket (ms): the distribution's mean times the
    /// latency faults' factor, weighted by time (0 while it is down: calls fail at once).
    pub work_ms: f64,
    /// rate × work: the workers busy on average over the bucket if none waited.
    pub workers: f64,
    /// The bucket's start (ms).
    pub at_ms: f64,
}

/// The leaf's offered load at its busiest bucket (the first of equals). Without faults it
/// is the peak rate times the mean work; a slowdown counts where it is in force, so that a
/// ×5 window at the peak asks for five times the workers (the panel had used the plain mean
/// there, and a pool sized from it would have been a fifth of what the window needed).
pub fn offered_load(s: &Scenario, r: &Report) -> OfferedLoad {
    let leaf = s.layers.len();
    let bucket_ms = r.series.bucket_ms;
    let mean_ms = s.leaf.work.mean_ms();
    let timeline = crate::scenario::faults::FaultTimeline::new(&s.faults, &s.leaf.name);
    let Some(series) = r.series.attempts.get(leaf) else { return OfferedLoad::default() };
    let mut best = OfferedLoad::default();
    for (i, rate) in per_second(series, bucket_ms).into_iter().enumerate() {
        let at_ms = i as f64 * bucket_ms;
        let work_ms = mean_ms * mean_latency_factor(&timeline, at_ms, at_ms + bucket_ms);
        let workers = rate * work_ms / 1000.0;
        if workers > best.workers || i == 0 {
            best = OfferedLoad { rate, work_ms, workers, at_ms };
        }
    }
    best
}

/// The work's time factor averaged over `[from, to)` ms: the latency faults' product where
/// they are in force, 0 while the service is down, 1 elsewhere.
fn mean_latency_factor(timeline: &crate::scenario::faults::FaultTimeline, from: f64, to: f64) -> f64 {
    let (from_us, to_us) = (crate::policy::retry::ms_to_us(from), crate::policy::retry::ms_to_us(to));
    if to_us <= from_us {
        return 1.0;
    }
    let span = (to_us - from_us) as f64;
    let mut faulted = 0.0;
    let mut weighted = 0.0;
    for (a, b, state) in timeline.segments() {
        let overlap = b.min(to_us).saturating_sub(a.max(from_us)) as f64;
        faulted += overlap;
        weighted += overlap * if state.down { 0.0 } else { state.latency_factor };
    }
    (weighted + (span - faulted)) / span
}

/// Computes the formula panel.
pub fn formulas(s: &Scenario, r: &Report) -> Formulas {
    let surge = crate::scenario::faults::peak_surge(&s.faults);
    let entry_rate = match s.load {
        Load::Batch { .. } => None,
        Load::Constant { rate_per_s, peak_factor, .. } | Load::Poisson { rate_per_s, peak_factor, .. } => {
            Some(rate_per_s * peak_factor * surge)
        }
    };
    let attempts: Vec<u32> = s.layers.iter().map(|l| l.client.retry.max_attempts).collect();
    let product: f64 = attempts.iter().map(|&a| f64::from(a)).product();
    let leaf = s.layers.len();
    let sim_peak_rate = r
        .series
        .attempts
        .get(leaf)
        .map(|a| per_second(a, r.series.bucket_ms).into_iter().fold(0.0, f64::max))
        .unwrap_or(0.0);
    Formulas {
        entry_rate,
        surge,
        bound: entry_rate.map(|e| e * product),
        attempts,
        sim_peak_rate,
        sim_per_request: r.summary.amplification,
        offered: offered_load(s, r),
        bucket_ms: r.series.bucket_ms,
        sim_peak_in_flight: r.hops.get(leaf).map_or(0, |h| h.peak_in_flight),
        leaf_workers: s.leaf.server.workers,
        leaf_name: s.leaf.name.clone(),
    }
}

/// The failures an objective allows, with one decimal, or two significant digits below one:
/// 40 admitted requests at 99.9 % allow 0.04, which one decimal would show as "0 allowed",
/// a zero tolerance.
pub fn allowance(allowed: f64) -> String {
    crate::i18n::format_small(allowed, 1, 2)
}

/// Where a fault window's mark goes on a time chart (view box units): the strip's start and
/// width, its row (0 along the plot's top edge; windows that would overlap, strip or label,
/// take the next row down), and where its label is anchored (`label_end`: by its end, for a
/// window near the right edge, so the label stays inside the plot).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaultMark {
    pub x: f64,
    pub w: f64,
    pub row: usize,
    pub label_x: f64,
    pub label_end: bool,
}

/// Rows a chart has room for above its plot.
pub const FAULT_ROWS: usize = 3;

/// The marks of the fault windows `(from, to)` (ms) on an axis `x` whose plot ends at
/// `right`, with labels about `label_w` wide; `None` for a window that starts past `end_ms`.
pub fn fault_marks(
    windows: &[(f64, f64)],
    end_ms: f64,
    x: Linear,
    right: f64,
    label_w: f64,
) -> Vec<Option<FaultMark>> {
    // Where each row is taken up to (strip or label).
    let mut rows = [f64::NEG_INFINITY; FAULT_ROWS];
    windows
        .iter()
        .map(|&(from, to)| {
            // Past the axis's end (or not a number): nothing to mark.
            if from.partial_cmp(&end_ms) != Some(std::cmp::Ordering::Less) {
                return None;
            }
            let x0 = x.map(from.clamp(0.0, end_ms));
            // At least a few units wide: a 100 ms trigger on a 48 s axis is still seen.
            let w = (x.map(to.clamp(0.0, end_ms)) - x0).max(3.0);
            let label_end = x0 + 2.0 + label_w > right;
            let (label_x, reach) =
                if label_end { (x0 + w - 2.0, x0 + w) } else { (x0 + 2.0, (x0 + w).max(x0 + 2.0 + label_w)) };
            let start = if label_end { (x0 + w - 2.0 - label_w).min(x0) } else { x0 };
            let row = rows.iter().position(|&taken| taken <= start).unwrap_or(FAULT_ROWS - 1);
            rows[row] = rows[row].max(reach + 4.0);
            Some(FaultMark { x: x0, w, row, label_x, label_end })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_compared_card_writes_both_sides_in_one_unit() {
        let (pct, lang) = (Unit::Percent, crate::i18n::Lang::En);
        // An error budget spent 896.1 times beside none spent: both as multiples.
        assert_eq!(pct.write_beside(lang, 896.1, 0.0), "896.1×");
        assert_eq!(pct.write_beside(lang, 0.0, 896.1), "0×");
        assert_eq!(pct.write_beside(lang, 0.5, 896.1), "0.5×");
        // Two percentages stay percentages.
        assert_eq!(pct.write_beside(lang, 0.5, 0.25), pct.write(lang, 0.5));
        assert_eq!(Unit::Count.write_beside(lang, 3.0, 1e9), "3");
    }

    #[test]
    fn regrid_keeps_the_calls_of_a_rate_and_the_peak_of_a_level() {
        use super::{Regrid, regrid};
        // 1 s in 200 ms buckets read in 500 ms ones: 10, 20 and half of 30 in the first.
        let rates = [10.0, 20.0, 30.0, 40.0, 50.0];
        let on = regrid(&rates, 200.0, 500.0, Regrid::Rate);
        assert_eq!(on, vec![18.0, 42.0]);
        let calls = |v: &[f64], ms: f64| v.iter().map(|r| r * ms / 1000.0).sum::<f64>();
        assert!((calls(&on, 500.0) - calls(&rates, 200.0)).abs() < 1e-12, "the calls are kept");
        assert_eq!(regrid(&rates, 200.0, 500.0, Regrid::Peak), vec![30.0, 50.0]);
        // Finer: each 100 ms bucket reads its 200 ms bucket's rate.
        assert_eq!(regrid(&[10.0, 20.0], 200.0, 100.0, Regrid::Rate), vec![10.0, 10.0, 20.0, 20.0]);
        assert_eq!(regrid(&rates, 200.0, 200.0, Regrid::Rate), rates.to_vec(), "the same grid");
        // Edges that meet only up to rounding (0.1 ms into 0.6 ms) take no neighbour's peak.
        // (5 × 0.1 ends a hair past 0.6: without the tolerance the second bucket read 99.)
        let levels: Vec<f64> = (0..12).map(|i| if i == 5 { 99.0 } else { 1.0 }).collect();
        assert_eq!(regrid(&levels, 0.1, 0.6, Regrid::Peak), vec![99.0, 1.0]);
        // A last partial bucket: 500 ms of rates read in 200 ms buckets keeps its calls too.
        let short = regrid(&[10.0, 20.0], 250.0, 200.0, Regrid::Rate);
        assert!((calls(&short, 200.0) - calls(&[10.0, 20.0], 250.0)).abs() < 1e-12, "{short:?}");
    }

    #[test]
    fn a_full_pool_under_a_tall_queue_is_found() {
        // Pool of 5, full over buckets 2–5 (and briefly at 8), the scale up to 200.
        let busy = [1.0, 3.0, 5.0, 5.0, 5.0, 5.0, 4.0, 2.0, 5.0, 1.0];
        assert_eq!(hidden_full_pool(&busy, 200.0, 5.0, 100.0, 1000.0), Some((200.0, 600.0)));
        // A scale within ten pools: the busy line shows by itself.
        assert_eq!(hidden_full_pool(&busy, 40.0, 5.0, 100.0, 1000.0), None);
        // Never full: nothing to say.
        assert_eq!(hidden_full_pool(&[1.0; 10], 200.0, 5.0, 100.0, 1000.0), None);
        // Full to the end of the run.
        assert_eq!(hidden_full_pool(&[5.0; 4], 100.0, 5.0, 10.0, 40.0), Some((0.0, 40.0)));
        // Full to the end of a run that ends inside its last bucket: to the run's end.
        assert_eq!(hidden_full_pool(&[5.0; 4], 100.0, 5.0, 10.0, 36.5), Some((0.0, 36.5)));
    }

    use super::*;

    #[test]
    fn fault_marks_stack_overlapping_windows_and_keep_labels_inside() {
        let x = Linear::new((0.0, 40_000.0), (52.0, 626.0));
        let m = fault_marks(
            &[(10_000.0, 25_000.0), (10_000.0, 30_000.0), (32_000.0, 33_000.0), (50_000.0, 60_000.0)],
            40_000.0,
            x,
            626.0,
            40.0,
        );
        let rows: Vec<Option<usize>> = m.iter().map(|k| k.map(|k| k.row)).collect();
        assert_eq!(
            rows,
            [Some(0), Some(1), Some(0), None],
            "two windows from 10 s overlap; the third is clear of the first; the last starts past the end"
        );
        let first = m[0].unwrap();
        assert_eq!((first.x, first.label_x, first.label_end), (195.5, 197.5, false));
        // Near the right edge the label is anchored by its end, inside the plot.
        let late = fault_marks(&[(39_000.0, 40_000.0)], 40_000.0, x, 626.0, 40.0)[0].unwrap();
        assert!(late.label_end && late.label_x <= 626.0, "{late:?}");
        // A window too short to see still gets a few units.
        let blip = fault_marks(&[(1_000.0, 1_001.0)], 40_000.0, x, 626.0, 40.0)[0].unwrap();
        assert_eq!(blip.w, 3.0);
    }
    use crate::model::chain::run;
    use crate::report::RequestOutcome;
    use crate::scenario::presets;

    #[test]
    fn a_hops_steady_rate_is_taken_before_its_first_fault() {
        let s = crate::scenario::presets::metastable_retry_storm();
        let r = crate::model::chain::run(&s).expect("runs");
        let server = r.hops.len() - 1;
        // The preset offers 450/s at the server; over the run the storm's retries add to it.
        let whole = r.hops[server].calls as f64 / (run_end_ms(&r) / 1000.0);
        assert!(whole > 480.0, "{whole}");
        let steady = steady_arrival_rate(&r, &s, server);
        assert!((steady - 450.0).abs() < 10.0, "{steady}");
        assert_eq!(steady, (steady * 10.0).round() / 10.0, "a tenth of a call per second");
        // No fault: while the load arrives.
        let mut calm = s.clone();
        calm.faults.clear();
        let rc = crate::model::chain::run(&calm).expect("runs");
        let calm_rate = steady_arrival_rate(&rc, &calm, server);
        assert!((calm_rate - 450.0).abs() < 10.0, "{calm_rate}");
        assert_eq!(calm_rate, (calm_rate * 10.0).round() / 10.0, "a tenth of a call per second");
        // A fault within the first bucket: the load's whole window, storm included, not
        // an empty window.
        let mut early = s.clone();
        early.faults[0].start_ms = 0.0;
        let re = crate::model::chain::run(&early).expect("runs");
        let (w, n) = (re.series.bucket_ms, load_buckets(&early, &re));
        let mean = re.series.attempts[server][..n].iter().sum::<u64>() as f64 / (n as f64 * w / 1000.0);
        assert!((steady_arrival_rate(&re, &early, server) - mean).abs() <= 0.05);
    }

    fn load_buckets(s: &crate::scenario::Scenario, r: &Report) -> usize {
        (s.load.duration_ms() / r.series.bucket_ms).floor() as usize
    }

    #[test]
    fn a_pools_rate_is_its_load_not_its_drain() {
        // 500 requests/s for 5 s into a profile pool of 200 workers × 800 ms (250/s): the
        // pool drains its backlog for over a minute after, at its capacity. The rate the
        // lab gets is what arrives while the load does, retries included, far above it.
        let s = presets::recommendation_500rps();
        let r = run(&s).unwrap();
        let profile = r.hops.iter().position(|h| h.name == "profile").expect("a profile hop");
        let drained = r.hops[profile].calls as f64 / (run_end_ms(&r) / 1000.0);
        assert!(drained < 260.0, "over the whole run, about the pool's capacity: {drained}");
        let rate = steady_arrival_rate(&r, &s, profile);
        assert!(rate >= 500.0, "at least the offered 500/s: {rate}");
        let n = load_buckets(&s, &r);
        let w = r.series.bucket_ms;
        let want = r.series.attempts[profile][..n].iter().sum::<u64>() as f64 / (n as f64 * w / 1000.0);
        assert!((rate - want).abs() <= 0.05, "{rate} {want}");
    }

    #[test]
    fn headlines_mirror_the_summary() {
        let r = run(&presets::chain_3x3()).unwrap();
        let h = headlines(&r, Slo::default());
        let get = |id: &str| h.iter().find(|x| x.id == id).unwrap().value;
        assert_eq!(get("downstream_attempts"), 27_000.0);
        assert_eq!(get("amplification"), 27.0);
        assert_eq!(get("original_requests"), 1000.0);
        // Every request fails: 1,000 failures against 1 allowed by 99.9 %.
        assert!((get("error_budget_spent") - 1000.0).abs() < 1e-6, "{}", get("error_budget_spent"));
    }

    #[test]
    fn an_arrow_carries_the_calls_per_call_made_so_far_not_the_policys_limit() {
        // Lab 11: both layers may try 3 times; the page's retries come only after the
        // recommendation's three 100 ms tries have failed, some 300 ms in.
        let r = run(&presets::lab11_unprotected()).unwrap();
        let early = bucket_at(&r, 250.0);
        assert_eq!(edge_ratio(&r, 0, 1, early), Some((1.0, 100, 100)), "no page retry yet");
        assert_eq!(edge_ratio(&r, 1, 2, early), Some((3.0, 300, 100)));
        let end = bucket_at(&r, 1e9);
        assert_eq!(edge_ratio(&r, 0, 1, end), Some((3.0, 300, 100)));
        assert_eq!(edge_ratio(&r, 1, 2, end), Some((3.0, 900, 300)));
        assert_eq!(edge_ratio(&r, 2, 9, end), None, "no such hop");
        // A 150 ms deadline of the recommendation's own lets at most two of its tries start
        // (the third would start at 200 ms): the arrow says so, though the policy allows 3.
        let mut s = presets::lab11_unprotected();
        s.layers[1].deadline_ms = Some(150.0);
        let r = run(&s).unwrap();
        let (ratio, callee, caller) = edge_ratio(&r, 1, 2, bucket_at(&r, 1e9)).unwrap();
        assert_eq!((callee, caller), (r.hops[2].calls, r.hops[1].calls));
        assert!((1.0..=2.0).contains(&ratio), "{ratio}");
        assert_eq!(ratio_text(300, 100), "3");
        assert_eq!(ratio_text(296, 100), "3.0", "not exactly 3");
        assert_eq!(ratio_text(227, 100), "2.3");
        assert_eq!(ratio_text(1006, 100), "10.1");
        assert_eq!(ratio_text(0, 7), "0");
    }

    #[test]
    fn a_breaker_at_a_moment_is_read_from_its_moves_not_the_buckets_peak() {
        use crate::policy::breaker::{State, Tally};
        // The promo with protections: the recommendation breaker opens on its window, and
        // from then on half-opens every 5 s and reopens on three failed probes, each time
        // within one 500 ms bucket, whose peak reads open throughout.
        let r = run(&presets::big_promo_protected()).unwrap();
        let moves: Vec<_> = r.breaker_transitions.iter().filter(|t| t.instance == 0).collect();
        let (opened, half, reopened) = (moves[0], moves[1], moves[2]);
        assert_eq!(
            (opened.from, opened.to, half.to, reopened.to),
            (State::Closed, State::Open, State::HalfOpen, State::Open)
        );
        let client = opened.client;
        let at = |ms: f64| breaker_at(&r, client, ms).unwrap();
        assert_eq!((at(opened.t_ms - 0.001).open, at(opened.t_ms).open), (0, 1), "open from its move on");
        let probing = at((half.t_ms + reopened.t_ms) / 2.0);
        assert_eq!((probing.open, probing.half_open), (0, 1), "half-open between the two moves");
        assert_eq!(bucket_at(&r, half.t_ms), bucket_at(&r, reopened.t_ms), "both in one bucket");
        let again = at(reopened.t_ms);
        assert_eq!(again.first_last.map(|t| (t.from, t.decided)), Some((State::HalfOpen, reopened.decided)));
        // Decided on its probes (all of them) and, the first time, on its window.
        let (s, c) = (presets::big_promo_protected(), &r.clients[client]);
        let cfg = s.client_to(c.caller, c.callee).and_then(|c| c.breaker.as_ref()).unwrap();
        assert_eq!(reopened.decided.map(|d| d.calls), Some(cfg.half_open_calls));
        assert!(opened.decided.is_some_and(|d: Tally| d.calls > cfg.half_open_calls), "{:?}", opened.decided);
        // Why, by the breaker's own rule: its failures, not slow calls.
        assert_eq!(reopened.decided.map(|d| cfg.exceeded(d)), Some((true, false)));
        assert_eq!(again.open_last, Some(reopened), "the open instance's move");
        assert_eq!(half.decided, None, "a move to half-open is decided on nothing");
        assert!(breaker_at(&r, client + 9, 0.0).is_none(), "no such client");
    }

    #[test]
    fn a_lesson_steps_scales_hold_the_highest_so_far() {
        let run = |load: f64, in_flight: f64, end_ms: f64| Axes {
            end_ms,
            load,
            in_flight,
            outcomes: load / 2.0,
            ..Axes::default()
        };
        let first = Axes::held(None, run(2000.0, 15_000.0, 48_000.0), false);
        assert_eq!(first, run(2000.0, 15_000.0, 48_000.0), "the first run's own");
        // One attempt: the load falls to 600/s and the queue to 300; the scales stay.
        let fewer = Axes::held(Some(first), run(600.0, 300.0, 30_000.0), true);
        assert_eq!((fewer.load, fewer.outcomes, fewer.in_flight), (2000.0, 1000.0, 15_000.0));
        assert_eq!(fewer.end_ms, 30_000.0, "the time axis is the run's own");
        // Another hop picked: its in-flight chart takes its own scale.
        assert_eq!(Axes::held(Some(fewer), run(600.0, 300.0, 30_000.0), false).in_flight, 300.0);
        // A higher run raises them.
        assert_eq!(Axes::held(Some(fewer), run(2500.0, 9.0, 1.0), true).load, 2500.0);
    }

    #[test]
    fn playhead_helpers() {
        let r = run(&presets::lab11_unprotected()).unwrap();
        let leaf = &r.series.attempts[2];
        let end = bucket_at(&r, 1e9);
        assert_eq!(end, r.series.buckets - 1);
        assert_eq!(total_until(leaf, end), 900, "all 900 calls by the end");
        assert_eq!(bucket_at(&r, -5.0), 0);
        assert!(total_until(leaf, bucket_at(&r, 50.0)) == 100, "the first 100 calls start at t = 0");
        assert_eq!(gauge_at(&[], 3), 0);
        assert_eq!(per_second(&[5, 10], 100.0), vec![50.0, 100.0]);
    }

    #[test]
    fn layout_puts_the_main_path_in_a_row_and_side_deps_below() {
        let r = run(&presets::bulkhead_shared()).unwrap();
        let Layout { boxes, edges, pools, height, .. } = diagram_layout(&r, DIAGRAM_W);
        assert_eq!(boxes.len(), 3);
        assert_eq!(pools.len(), 1, "the product layer's shared pool");
        assert_eq!(pools[0].clients, vec![0, 1], "both of product's dependencies draw from it");
        let product = boxes.iter().find(|b| b.hop == 0).unwrap();
        let core = boxes.iter().find(|b| b.hop == 1).unwrap();
        let recs = boxes.iter().find(|b| b.hop == 2).unwrap();
        assert_eq!(product.y, core.y);
        assert!(core.x > product.x);
        assert!(recs.y > pools[0].y + pools[0].h, "side dependencies below the pool");
        assert!(pools[0].y > product.y + product.h);
        assert_eq!(edges.len(), 2);
        assert!(height >= recs.y + recs.h);
    }

    #[test]
    fn layout_fits_the_room_it_has_and_scrolls_below_its_narrowest() {
        let r = run(&presets::big_promo_protected()).unwrap();
        let within = |l: &Layout| {
            l.boxes.iter().all(|b| b.x >= DIAGRAM_MARGIN && b.x + b.w <= l.width - DIAGRAM_MARGIN + 1e-9)
                && l.pools.iter().all(|p| p.x + p.w <= l.width)
        };
        // Wider than the widest layout: drawn at 900 and scaled up by the page.
        assert_eq!(diagram_layout(&r, 1400.0).width, DIAGRAM_W);
        // A tablet's column: drawn for it, so that its text keeps its size.
        let tablet = diagram_layout(&r, 562.0);
        assert_eq!(tablet.width, 562.0);
        assert!(within(&tablet) && tablet.boxes.iter().all(|b| b.w >= MIN_BOX_W), "{tablet:?}");
        // A phone: three boxes of the narrowest width, wider than the room (it scrolls).
        let phone = diagram_layout(&r, 300.0);
        assert!(phone.width >= 3.0 * MIN_BOX_W + 2.0 * GAP_NARROW + 2.0 * DIAGRAM_MARGIN, "{}", phone.width);
        // Room left of the recommendations edge for its breaker's two lines.
        let side = phone.edges.iter().find(|e| (e.x1 - e.x2).abs() < 1.0).unwrap();
        assert!(side.x1 - 8.0 >= SIDE_BREAKER_TEXT_W, "{side:?}");
        // The retry-storm lesson's four hops fit a 1,024 px laptop's column.
        let four = run(&presets::chain_3x4()).unwrap();
        assert_eq!(diagram_layout(&four, 562.0).width, 562.0, "no sideways scroll for chain-3x4 at 562 px");
        assert!(within(&phone) && phone.boxes.iter().all(|b| b.w == MIN_BOX_W), "{phone:?}");
        // The same run in any room: the same boxes, edges and pools, only placed differently.
        assert_eq!(phone.boxes.len(), tablet.boxes.len());
        assert_eq!(phone.edges.len(), tablet.edges.len());
        assert_eq!(phone.height, tablet.height);
    }

    #[test]
    fn a_main_hop_with_side_calls_names_its_call_and_has_room_for_both_lines() {
        // big-promo-protected: product calls order-core (bulkhead 16, queue 32) and, at its
        // side, recommendations. Its box names the call to order-core above that bulkhead's
        // line, and the usual height holds both lines and its two badges.
        let r = run(&presets::big_promo_protected()).unwrap();
        let order_core = r.clients.iter().position(|c| c.caller == 1 && c.callee == 2).unwrap();
        assert_eq!(names_its_call(&r, 1), Some(order_core));
        assert_eq!(names_its_call(&r, 0), None, "app calls product alone");
        let side = r.hops.iter().position(|h| h.kind == HopKind::Side).unwrap();
        assert_eq!(names_its_call(&r, side), None, "a side box says who calls it instead");
        assert_eq!(names_its_call(&run(&presets::chain_3x3()).unwrap(), 1), None, "no side calls");
        let usual = diagram_layout(&r, DIAGRAM_W).boxes[0].h;
        assert_eq!(usual, 136.0);
        assert_eq!(two_line_box_h(&r, 1), Some(badges_top(2) + 17.0 + 14.0 + 6.0), "two rows of badges");
        // The same call with every stage and a breaker: four rows of badges under the two
        // lines and the breaker's two lines at the foot need a taller row of boxes.
        let mut s = presets::big_promo_protected();
        let c = &mut s.layers[1].client;
        c.retry_budget = Some(crate::policy::retry_budget::RetryBudgetConfig::Ratio {
            max_tokens: 10.0,
            retry_ratio: 0.1,
        });
        c.breaker = Some(crate::policy::breaker::BreakerConfig::default());
        s.layers[1].deadline_ms = Some(2000.0);
        let r = run(&s).unwrap();
        let ci = names_its_call(&r, 1).unwrap();
        assert!(r.clients[ci].stack.len() >= 5, "{:?}", r.clients[ci].stack);
        let rows = (r.clients[ci].stack.len() + 1).div_ceil(2) as f64;
        let tall = diagram_layout(&r, DIAGRAM_W);
        assert!(
            tall.boxes.iter().filter(|b| r.hops[b.hop].kind != HopKind::Side).all(|b| b.h == tall.boxes[0].h)
        );
        let badges_end = badges_top(2) + (rows - 1.0) * 17.0 + 14.0;
        // The breaker's first line's top (its baseline 22 px above the foot, 11 px text).
        assert!(tall.boxes[1].h - 31.0 >= badges_end + 4.0, "{} for {rows} rows", tall.boxes[1].h);
        assert!(tall.boxes[1].h > usual);
    }

    #[test]
    fn dots_are_capped_and_flow_with_the_phase() {
        assert!(dots(0, 0.3, 10).is_empty());
        let d = dots(4, 0.0, 10);
        assert_eq!(d, vec![0.0, 0.25, 0.5, 0.75]);
        assert_eq!(dots(1000, 0.1, 12).len(), 12);
        let moved = dots(4, 0.1, 10);
        assert!((moved[0] - 0.1).abs() < 1e-12);
    }

    #[test]
    fn timeline_is_relative_to_arrival_and_covers_the_deadline() {
        let r = run(&presets::lab11_protected()).unwrap();
        let admitted = r.traces.iter().find(|t| t.outcome == RequestOutcome::Degraded).unwrap();
        let (bars, span) = timeline(admitted);
        assert!(bars.iter().all(|b| b.start >= 0.0 && b.end >= b.start));
        assert!(span >= 250.0, "the 250 ms deadline is on the axis");
        let leaf_bars = bars.iter().filter(|b| b.lane == 2).count();
        assert_eq!(leaf_bars, 2, "two attempts at the profile service");
    }

    #[test]
    fn formulas_give_source_000s_bound() {
        let s = presets::chain_2x3();
        let r = run(&s).unwrap();
        let f = formulas(&s, &r);
        assert_eq!(f.bound, Some(4500.0), "500 × 3 × 3");
        assert!(f.sim_peak_rate >= 4500.0, "{}", f.sim_peak_rate);
    }

    #[test]
    fn differences_are_of_the_values_as_shown() {
        assert_eq!(Unit::Times.shown(8868.0 / 5066.0), 1.75);
        assert_eq!(Unit::Times.shown(8943.0 / 5066.0), 1.77);
        assert_eq!(Unit::Percent.shown(0.123456), 0.1235);
        assert_eq!(Unit::Percent.shown(920.04), 920.0);
        assert_eq!(Unit::Ms.shown(180.04), 180.0);
        assert!(Unit::Count.shown(f64::INFINITY).is_infinite());
    }

    #[test]
    fn the_workers_asked_for_count_a_slowdown_where_it_is() {
        // chain-2x3 at a steady rate; the payment service ×5 slower for a second mid-run.
        let mut s = presets::chain_2x3();
        s.load = Load::Constant { rate_per_s: 100.0, peak_factor: 1.0, duration_ms: 4000.0 };
        s.leaf.work = crate::scenario::Dist::Constant { ms: 10.0 };
        let plain = formulas(&s, &run(&s).unwrap()).offered;
        assert!((plain.work_ms - 10.0).abs() < 1e-9, "{plain:?}");
        assert!((plain.workers - plain.rate * 0.01).abs() < 1e-9);
        s.faults = vec![crate::scenario::Fault {
            target: s.leaf.name.clone(),
            start_ms: 2000.0,
            end_ms: 3000.0,
            effect: crate::scenario::FaultEffect::Latency { factor: 5.0 },
        }];
        let r = run(&s).unwrap();
        let slow = formulas(&s, &r).offered;
        assert!((slow.work_ms - 50.0).abs() < 1e-9, "the bucket inside the window: {slow:?}");
        assert!(slow.at_ms >= 2000.0 && slow.at_ms < 3000.0, "{slow:?}");
        assert!(slow.workers > 4.0 * plain.workers, "{slow:?} vs {plain:?}");
        // Half a bucket in the window: the mean of 1 and 5.
        let t = crate::scenario::faults::FaultTimeline::new(&s.faults, &s.leaf.name);
        assert!((mean_latency_factor(&t, 1900.0, 2100.0) - 3.0).abs() < 1e-12);
        assert!((mean_latency_factor(&t, 0.0, 1000.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_bound_counts_the_traffic_surge() {
        // Big promo: 60 req/s, ×5 from 10 s to 25 s; the app tries 3 times, product once.
        let s = presets::find("big-promo").unwrap();
        let s = (s.build)();
        let r = run(&s).unwrap();
        let f = formulas(&s, &r);
        let Load::Poisson { rate_per_s, peak_factor, .. } = s.load else { panic!("a Poisson load") };
        let surge = s.faults.iter().find_map(|x| match x.effect {
            crate::scenario::FaultEffect::Surge { factor } => Some(factor),
            _ => None,
        });
        assert_eq!(f.entry_rate, Some(rate_per_s * peak_factor * surge.unwrap()));
        assert!(f.bound.unwrap() >= f.sim_peak_rate, "{f:?}");
        // Overlapping surges multiply, as the arrivals apply them.
        let mut two = s.clone();
        let mut extra = two
            .faults
            .iter()
            .find(|x| matches!(x.effect, crate::scenario::FaultEffect::Surge { .. }))
            .unwrap()
            .clone();
        extra.effect = crate::scenario::FaultEffect::Surge { factor: 2.0 };
        two.faults.push(extra);
        assert_eq!(crate::scenario::faults::peak_surge(&two.faults), surge.unwrap() * 2.0);
    }

    #[test]
    fn a_fraction_of_one_failure_is_not_shown_as_none() {
        assert_eq!(allowance(0.04), "0.04");
        assert_eq!(allowance(0.1), "0.1");
        assert_eq!(allowance(0.001), "0.001");
        assert_eq!(allowance(0.0), "0");
        assert_eq!(allowance(9.061), "9.1");
        assert_eq!(allowance(100.164), "100.2");
    }
}
