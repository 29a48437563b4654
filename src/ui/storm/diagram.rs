//! The chain diagram at the playhead: each hop a box with its policy stack in order, live
//! counters, and dots that flow and multiply along the calls.

use crate::i18n::{Lang, T, format_number};
use crate::plot::storm::{
    BreakerAt, DIAGRAM_W, Layout, PoolBox, breaker_at, bucket_at, diagram_layout, dots, edge_ratio, gauge_at,
    ratio_text, run_end_ms, total_until,
};
use crate::policy::stack::Stage;
use crate::report::Report;
use crate::scenario::Scenario;
use crate::scenario::faults::FaultTimeline;
use crate::state::lab::Origin;
use crate::ui::charts::ReportRef;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub lang: Lang,
    pub report: ReportRef,
    pub scenario: Scenario,
    pub at_ms: f64,
    /// Distinguishes the two sides' element ids in compare mode.
    pub side: &'static str,
    /// The hop whose series stand out.
    #[prop_or_default]
    pub focus: Option<usize>,
    /// A hop was picked (a click on its box or its button).
    #[prop_or_default]
    pub onfocus: Callback<usize>,
    /// Compare mode: the diagram may scroll sideways in its half (see the style sheet), so
    /// it takes the keyboard's focus to be scrolled.
    #[prop_or_default]
    pub scrolls: bool,
}

/// One badge in a hop's box: its label and the stage's name (`admission`, a
/// `policy::stack::Stage` name, or `fallback`), which is also its CSS class `b-<name>`.
struct Badge {
    label: String,
    name: &'static str,
    /// What it stands for, in full, where the badge has no room to say it (its tooltip).
    tip: Option<String>,
}

/// The label of one stage as a badge (the bulkhead stage is the caller's own bulkhead or a
/// slot of the layer's shared pool).
fn stage_label(lang: Lang, stage: Stage, client: Option<&crate::scenario::Client>) -> String {
    match stage {
        Stage::Retry => {
            let n = client.map_or(1, |c| c.retry.max_attempts);
            lang.f(T::BadgeRetry, &[("n", &n.to_string())])
        }
        Stage::Bulkhead if client.is_some_and(|c| c.use_shared_pool) => lang.t(T::BadgeShared).to_string(),
        _ => lang.stage_word(stage).to_string(),
    }
}

/// The call whose protections a hop's box shows: a main hop's towards its next hop, a
/// side dependency's from the layer that calls it (a side dependency calls nothing, and
/// its box is where there is room for its caller's stack towards it).
fn shown_client(r: &Report, hop: usize) -> Option<usize> {
    let side = r.hops.get(hop).is_some_and(|h| h.kind == crate::report::HopKind::Side);
    r.clients.iter().position(|c| if side { c.callee == hop } else { c.caller == hop && c.callee == hop + 1 })
}

/// Badges of a hop, outermost first. A main hop: admission (its server turns requests
/// away before any work), then its stack towards its next hop in the report's order, then
/// a fallback if a failure there degrades instead of failing. A side dependency: its
/// caller's stack towards it and fallback, then its own admission, which the calls meet
/// on arrival.
fn badges(lang: Lang, r: &Report, s: &Scenario, hop: usize) -> Vec<Badge> {
    let ci = shown_client(r, hop);
    let side = ci.is_some_and(|ci| r.clients[ci].callee == hop);
    let client = ci.and_then(|ci| s.client_to(r.clients[ci].caller, r.clients[ci].callee));
    let hop_name = r.hops.get(hop).map_or(std::borrow::Cow::Borrowed(""), |h| lang.service(&h.name));
    let mut admission = has_admission(s, hop).then(|| Badge {
        label: lang.t(T::BadgeAdmission).to_string(),
        name: "admission",
        tip: Some(lang.f(T::TipAdmission, &[("hop", &hop_name)])),
    });
    let mut out = Vec::new();
    if !side {
        out.extend(admission.take());
    }
    // Each stage's badge says what it does to which call, on hover (its name alone is a word).
    let call = ci.map(|ci| r.client_label(lang, ci)).unwrap_or_default();
    for &stage in ci.map_or(&[][..], |ci| r.clients[ci].stack.as_slice()) {
        let shared = matches!(stage, Stage::Bulkhead) && client.is_some_and(|c| c.use_shared_pool);
        let key = match stage {
            Stage::Retry => T::TipRetry,
            Stage::Deadline => T::TipDeadline,
            Stage::RetryBudget => T::TipBudget,
            Stage::Breaker => T::TipBreaker,
            Stage::Timeout => T::TipTimeout,
            Stage::Bulkhead if shared => T::TipShared,
            Stage::Bulkhead => T::TipBulkhead,
        };
        let n = client.map_or(1, |c| c.retry.max_attempts).to_string();
        let tip = lang.f(key, &[("call", &call), ("n", &n)]);
        out.push(Badge { label: stage_label(lang, stage, client), name: stage.name(), tip: Some(tip) });
    }
    // A fallback names the dependency it answers for (in its tooltip: a badge is half a
    // box wide).
    if let (Some(ci), Some(c)) = (ci, client)
        && c.fallback.is_some()
    {
        let to = lang.service(&r.hops[r.clients[ci].callee].name);
        let tip = lang.f(T::BadgeFallbackFor, &[("to", &to)]);
        out.push(Badge { label: lang.t(T::BadgeFallback).to_string(), name: "fallback", tip: Some(tip) });
    }
    out.extend(admission);
    out
}

/// The mechanism labs that can show one of this hop's settings on its own: its admission
/// control in the admission lab, its worker pool (with the hop's arrival rate before the
/// first fault, `steady_arrival_rate`) in the queue lab.
fn lab_links(r: &Report, s: &Scenario, hop: usize) -> Vec<(&'static str, T, String)> {
    let mut out = Vec::new();
    let Some(crate::scenario::ServiceRef { server, work, .. }) = s.service(hop) else { return out };
    // The lab says whose settings it opened with (`state::lab::Origin`).
    let from = r.hops.get(hop).map(|h| Origin::Hop(h.name.clone()));
    if let Some(adm) = &server.admission {
        out.push(("admission", T::LabLinkAdmission, crate::state::admission::query_for(adm, from.as_ref())));
    }
    if let Some(workers) = server.workers {
        let rate = crate::plot::storm::steady_arrival_rate(r, s, hop);
        let poisson = !s.load.evenly_spaced();
        out.push((
            "queue",
            T::LabLinkQueue,
            crate::state::queue::query_for(workers, server.queue, work, rate, poisson, from.as_ref()),
        ));
    }
    out
}

/// The breaker lab's link for client `ci`'s breaker, if it has one, naming its call, with
/// its calls and its dependency's faults as the lab's load and phases.
fn breaker_lab_query(s: &Scenario, r: &Report, ci: usize) -> Option<String> {
    let cfg = breaker_config(s, r, ci)?;
    let c = r.clients.get(ci)?;
    let traffic = crate::state::breaker::storm_traffic(s, r, ci);
    // The lab names the call only when it plays the call's traffic (a batch has no
    // timeline to replay: the lab keeps source 003's, under its own story).
    let from = match (r.hops.get(c.caller), r.hops.get(c.callee), &traffic) {
        (Some(a), Some(b), Some(_)) => Some(Origin::Call(a.name.clone(), b.name.clone())),
        _ => None,
    };
    Some(crate::state::breaker::query_for(cfg, from.as_ref(), traffic))
}

/// Every lab link the diagram offers, made once per run and scenario: a playback frame
/// draws the diagram again, and a breaker's link sweeps its dependency's fault windows.
struct LabHrefs {
    /// Per hop: its labs (see [`lab_links`]).
    hops: Vec<Vec<(&'static str, T, String)>>,
    /// Per client: its breaker's lab, if it has a breaker.
    breakers: Vec<Option<String>>,
}

impl LabHrefs {
    fn new(r: &Report, s: &Scenario) -> Self {
        LabHrefs {
            hops: (0..r.hops.len()).map(|hop| lab_links(r, s, hop)).collect(),
            breakers: (0..r.clients.len()).map(|ci| breaker_lab_query(s, r, ci)).collect(),
        }
    }

    /// Hop `hop`'s link to the lab `kind`, in the page's language.
    fn hop(&self, lang: Lang, hop: usize, kind: &str) -> Option<String> {
        self.hops.get(hop)?.iter().find(|l| l.0 == kind).map(|l| with_lang(lang, &l.2))
    }

    /// Client `ci`'s breaker lab, in the page's language.
    fn breaker(&self, lang: Lang, ci: usize) -> Option<String> {
        self.breakers.get(ci)?.as_ref().map(|h| with_lang(lang, h))
    }
}

/// A lab's link in the page's language (a copied link opens as the learner saw it).
fn with_lang(lang: Lang, query: &str) -> String {
    format!("{query}&lang={}", lang.code())
}

/// Under the diagram: each hop's settings that a lab can show step by step, as links.
fn lab_links_view(lang: Lang, r: &Report, hrefs: &LabHrefs, side: &str) -> Html {
    let links: Vec<Html> = hrefs
        .hops
        .iter()
        .enumerate()
        .flat_map(|(hop, links)| links.iter().map(move |l| (hop, l)))
        .map(|(hop, (kind, label, href))| {
            html! {
                <a class="lab-link" id={format!("lab-link-{side}-{hop}-{kind}")} href={with_lang(lang, href)}>
                    { lang.f(*label, &[("hop", &lang.service(&r.hops[hop].name))]) }
                </a>
            }
        })
        .collect();
    // Every breaker, by the call it guards (a layer's next hop or a side dependency).
    let breakers = (0..r.clients.len()).filter_map(|ci| {
        let href = hrefs.breaker(lang, ci)?;
        let name = r.client_label(lang, ci);
        Some(html! {
            <a class="lab-link" id={format!("lab-link-{side}-c{ci}-breaker")} href={href}>
                { lang.f(T::LabLinkBreaker, &[("call", &name)]) }
            </a>
        })
    });
    let links: Vec<Html> = links.into_iter().chain(breakers).collect();
    if links.is_empty() {
        return Html::default();
    }
    html! {
        <p class="note lab-links">{ lang.t(T::LabLinksIntro) }{ lang.t(T::LabelSep) }{ for links }</p>
    }
}

/// A bucket's width in ms as the notes write it (whole ms, or tenths below 10 ms).
pub fn bucket_ms_text(ms: f64) -> String {
    format_number(ms, if ms < 10.0 && ms.fract() != 0.0 { 1 } else { 0 })
}

/// The caption under the diagram: the order the engine applies each caller's stages in, one clause per client with a
/// stack, from the report: a side dependency's stages have no badges of their own (its
/// breaker is drawn on its edge), and a hop's admission comes before its calls.
fn order_note(lang: Lang, r: &Report, s: &Scenario) -> Option<String> {
    let name = |h: usize| r.hops.get(h).map_or(std::borrow::Cow::Borrowed(""), |hop| lang.service(&hop.name));
    let admitting = (0..r.hops.len()).filter(|&h| has_admission(s, h));
    let clauses: Vec<String> = admitting
        .map(|h| lang.f(T::OrderAdmission, &[("hop", &name(h)), ("admission", lang.t(T::BadgeAdmission))]))
        .chain(r.clients.iter().enumerate().filter(|(_, c)| !c.stack.is_empty()).map(|(ci, c)| {
            // A bulkhead stage that takes its slot from the caller's shared pool says so, as
            // its badge does (big-promo's point is that it has no bulkheads).
            let shared = crate::plot::storm::uses_shared_pool(r, ci);
            let mut words: Vec<&str> = c
                .stack
                .iter()
                .map(|&st| match st {
                    Stage::Bulkhead if shared => lang.t(T::BadgeShared),
                    _ => lang.stage_word(st),
                })
                .collect();
            words.push(lang.t(T::OrderCall));
            lang.f(T::OrderClient, &[("client", &r.client_label(lang, ci)), ("order", &words.join(" → "))])
        }))
        .collect();
    // A chain without a protection has no order to state.
    (!clauses.is_empty()).then(|| lang.f(T::OrderNote, &[("order", &clauses.join(lang.t(T::ClauseSep)))]))
}

/// Whether hop `h`'s server has admission control (its badge and its clause in the note).
fn has_admission(s: &Scenario, h: usize) -> bool {
    s.service(h).is_some_and(|sv| sv.server.admission.is_some())
}

/// A client's breaker settings, as the scenario holds them.
fn breaker_config<'a>(
    s: &'a Scenario,
    r: &Report,
    client: usize,
) -> Option<&'a crate::policy::breaker::BreakerConfig> {
    let c = r.clients.get(client)?;
    s.client_to(c.caller, c.callee)?.breaker.as_ref()
}

/// A client's breaker state at the playhead as the diagram shows it (the worst of its
/// instances: any open, else any half-open, else closed) and how many are in it.
fn breaker_state(at: &BreakerAt) -> (&'static str, u32) {
    if at.open > 0 {
        ("OPEN", at.open)
    } else if at.half_open > 0 {
        ("HALF_OPEN", at.half_open)
    } else {
        ("CLOSED", 0)
    }
}

/// A breaker's two lines at the playhead: its state (with the time to a probe while
/// open, or the rule it opens by while closed), and below it, while closed, the window its
/// first instance judges (or the probes it closed on, in the bucket it closed); while
/// half-open, how many trial calls decide; while open, what the instance that opened last
/// opened on (from the report's window series and the transitions' tallies).
fn breaker_lines(
    lang: Lang,
    r: &Report,
    s: &Scenario,
    client: usize,
    at_ms: f64,
    b: usize,
) -> Option<(&'static str, String, String)> {
    use crate::policy::breaker::State;
    let cfg = breaker_config(s, r, client)?;
    let at = breaker_at(r, client, at_ms)?;
    let (key, n) = breaker_state(&at);
    let instances = r.clients[client].breaker_instances;
    let calls = r.series.breaker_window_calls.get(client).map_or(0, |v| gauge_at(v, b));
    let failed = r.series.breaker_window_failed.get(client).map_or(0, |v| gauge_at(v, b));
    let rate = if calls > 0 { 100.0 * failed as f64 / calls as f64 } else { 0.0 };
    let pct = format_number(cfg.failure_rate_pct, 1);
    let (calls_s, rate_s) = (calls.to_string(), format_number(rate, 1));
    let label = match key {
        "OPEN" => lang.t(T::StateOpen),
        "HALF_OPEN" => lang.t(T::StateHalfOpen),
        _ => lang.t(T::StateClosed),
    };
    let mut state_line =
        if instances > 1 && n > 0 { format!("{label} {n}/{instances}") } else { label.to_string() };
    // The first instance's last move: when and from where it moved, and the tally the
    // move was decided on (the bucket's window peak, in the bucket of a move, is the tally
    // from before it).
    let last = at.first_last;
    let decided = last.and_then(|t| t.decided.map(|d| (t, d)));
    let tally_text = |d: crate::policy::breaker::Tally| {
        let rate = if d.calls > 0 { 100.0 * f64::from(d.failures) / f64::from(d.calls) } else { 0.0 };
        (d.calls.to_string(), format_number(rate, 1))
    };
    let bucket_start = b as f64 * r.series.bucket_ms;
    let detail = match key {
        "CLOSED" => {
            state_line = format!("{state_line} · {}", lang.f(T::BreakerOpensAt, &[("pct", &pct)]));
            match decided.filter(|(t, _)| t.from == State::HalfOpen && t.t_ms >= bucket_start) {
                // Closed in this bucket: on its probes.
                Some((_, d)) => {
                    let (calls, rate) = tally_text(d);
                    lang.f(T::BreakerClosedOn, &[("calls", &calls), ("rate", &rate), ("pct", &pct)])
                }
                None => lang.f(
                    T::BreakerWindow,
                    &[("calls", &calls_s), ("min", &cfg.min_calls.to_string()), ("rate", &rate_s)],
                ),
            }
        }
        "HALF_OPEN" => lang.f(T::BreakerProbingDecide, &[("n", &cfg.half_open_calls.to_string())]),
        // Open: the instance that opened last (whichever it is), when it probes and what its
        // move was decided on, judged by the breaker's own rule (`BreakerConfig::exceeded`).
        _ => match at.open_last {
            Some(t) => {
                let left = (cfg.open_ms - (at_ms - t.t_ms).max(0.0)).max(0.0);
                state_line = format!(
                    "{state_line} · {}",
                    lang.f(T::BreakerOpenLeft, &[("s", &format_number(left / 1000.0, 1))])
                );
                match t.decided {
                    Some(d) => {
                        let (calls, rate) = tally_text(d);
                        match (t.from == State::HalfOpen, cfg.exceeded(d).0) {
                            (true, true) => lang.f(T::BreakerReopened, &[("calls", &calls), ("rate", &rate)]),
                            (true, false) => lang.f(T::BreakerReopenedSlow, &[("calls", &calls)]),
                            (false, true) => lang
                                .f(T::BreakerOpenedOn, &[("calls", &calls), ("rate", &rate), ("pct", &pct)]),
                            (false, false) => lang.f(T::BreakerOpenedSlow, &[("calls", &calls)]),
                        }
                    }
                    None => String::new(),
                }
            }
            None => String::new(),
        },
    };
    Some((key, state_line, detail))
}

/// The fault windows in force at `at_ms` on the service whose timeline is `timeline`, in
/// words ("×5 slower", "down", "50 % errors"), if any.
fn fault_now_text(lang: Lang, timeline: &FaultTimeline, at_ms: f64) -> Option<String> {
    let now = timeline.at(crate::policy::retry::ms_to_us(at_ms.max(0.0)));
    if now.down {
        return Some(lang.t(T::FaultNowDown).to_string());
    }
    let slow = (now.latency_factor != 1.0)
        .then(|| lang.f(T::FaultNowSlow, &[("f", &format_number(now.latency_factor, 2))]));
    let errors =
        now.error_rate.map(|e| lang.f(T::FaultNowErrors, &[("pct", &lang.percent_figure(e * 100.0))]));
    let parts: Vec<String> = slow.into_iter().chain(errors).collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// A client's own bulkhead at bucket `b`: "bulkhead 3/16 · queue 5/32".
fn bulkhead_text(lang: Lang, r: &Report, ci: usize, b: usize) -> Option<String> {
    let size = r.clients.get(ci)?.bulkhead?;
    let busy = r.series.bulkhead_in_use.get(ci).map_or(0, |s| gauge_at(s, b));
    let queued = r.series.bulkhead_queue.get(ci).map_or(0, |s| gauge_at(s, b));
    let queue = size.queue.map_or_else(|| lang.t(T::Unlimited).to_string(), |q| q.to_string());
    Some(lang.f(
        T::BulkheadUse,
        &[
            ("busy", &busy.to_string()),
            ("size", &size.size.to_string()),
            ("queued", &queued.to_string()),
            ("queue", &queue),
        ],
    ))
}

/// A layer's shared pool: its threads as cells (filled = busy), its queue at the playhead,
/// and a dashed line to every call path that holds a thread in it.
fn pool_view(
    lang: Lang,
    r: &Report,
    p: &PoolBox,
    edges: &[crate::plot::storm::Edge],
    b: usize,
    side: &str,
) -> Html {
    let Some(size) = r.hops[p.hop].shared_pool else { return Html::default() };
    let busy = r.series.shared_pool_busy.get(p.hop).map_or(0, |s| gauge_at(s, b));
    let queued = r.series.shared_pool_queue.get(p.hop).map_or(0, |s| gauge_at(s, b));
    let full = busy >= i64::from(size.size);
    let cells = size.size.min(32) as usize;
    let per_cell = f64::from(size.size) / cells as f64;
    let cw = ((p.w - 16.0) / cells as f64).min(18.0);
    let queue_limit = size.queue.map_or_else(|| lang.t(T::Unlimited).to_string(), |q| q.to_string());
    let links: Html = edges
        .iter()
        .filter(|e| p.clients.contains(&e.client))
        .map(|e| {
            let (mx, my) = ((e.x1 + e.x2) / 2.0, (e.y1 + e.y2) / 2.0);
            let (px, py) = (p.x + p.w / 2.0, p.y);
            html! { <line class="pool-link" x1={px.to_string()} y1={py.to_string()} x2={mx.to_string()} y2={my.to_string()} /> }
        })
        .collect();
    // A narrow box (see `diagram_layout`) squeezes its lines into it: 12 px bold, 11.5 px.
    let title = lang.f(T::SharedPoolTitle, &[("size", &size.size.to_string())]);
    let title_fit = crate::plot::palette::squeeze(&title, 13.0, p.w - 16.0);
    let use_text = lang.f(
        T::SharedPoolUse,
        &[
            ("busy", &format_number(busy as f64, 0)),
            ("size", &format_number(f64::from(size.size), 0)),
            ("queued", &format_number(queued as f64, 0)),
            ("queue", &queue_limit),
        ],
    );
    let use_fit = crate::plot::palette::squeeze(&use_text, 11.5, p.w - 16.0);
    html! {
        <g class={classes!("pool", full.then_some("full"))} id={format!("pool-{side}-{}", p.hop)}
            data-size={size.size.to_string()} data-busy={busy.to_string()} data-queue={queued.to_string()}>
            { links }
            <rect class="pool-box" x={p.x.to_string()} y={p.y.to_string()} width={p.w.to_string()} height={p.h.to_string()} rx="6" />
            <text class="pool-title" x={(p.x + 8.0).to_string()} y={(p.y + 15.0).to_string()}
                textLength={title_fit.clone()} lengthAdjust={title_fit.is_some().then_some("spacingAndGlyphs")}>{ title }</text>
            { for (0..cells).map(|k| {
                let on = (k as f64 + 0.5) * per_cell <= busy as f64;
                html! { <rect class={classes!("cell", on.then_some("on"))} x={(p.x + 8.0 + k as f64 * cw).to_string()} y={(p.y + 22.0).to_string()}
                    width={(cw - 2.0).max(1.0).to_string()} height="12" rx="2" /> }
            }) }
            <text class="pool-text" x={(p.x + 8.0).to_string()} y={(p.y + 50.0).to_string()}
                textLength={use_fit.clone()} lengthAdjust={use_fit.is_some().then_some("spacingAndGlyphs")}>{ use_text }</text>
        </g>
    }
}

/// The ratio label's size as `squeeze` estimates it: its 14 px bold text set a little wider
/// than the estimate's plain text.
const MULT_EM: f64 = 15.5;

#[component]
pub fn Diagram(props: &DiagramProps) -> Html {
    let lang = props.lang;
    let r = &props.report.0;
    let figure = use_node_ref();
    let room = crate::ui::browser::use_width(&figure, DIAGRAM_W);
    let hrefs = use_memo((props.report.clone(), props.scenario.clone()), |(r, s)| LabHrefs::new(&r.0, s));
    // Each service's fault windows, cut once per scenario, not on every playback frame.
    let faults = use_memo(props.scenario.clone(), |s| {
        s.hop_names().iter().map(|n| FaultTimeline::new(&s.faults, n)).collect::<Vec<_>>()
    });
    let Layout { width, boxes, edges, pools, height } = diagram_layout(r, room);
    // Wider than its figure (a long chain in a narrow column): drawn at its own size, the
    // figure scrolling sideways, rather than shrunk (see `diagram_layout`).
    let scrolls = width > room + 0.5;
    let b = bucket_at(r, props.at_ms);
    let phase = if r.series.bucket_ms > 0.0 { (props.at_ms / r.series.bucket_ms).fract() } else { 0.0 };
    let edge_views: Html = edges
        .iter()
        .map(|e| {
            let in_bucket = r.series.attempts.get(e.to).and_then(|a| a.get(b)).copied().unwrap_or(0);
            let state = breaker_at(r, e.client, props.at_ms).map(|at| breaker_state(&at).0);
            let attempts = r
                .clients
                .get(e.client)
                .and_then(|c| props.scenario.client_to(c.caller, c.callee))
                .map(|c| c.retry.max_attempts);
            // The arrow carries the calls per call made so far, not the policy's limit (the
            // tries badge): a deadline or budget that stops retries keeps it lower. A side
            // dependency's arrow too, by its own call's tries.
            let ratio = attempts
                .filter(|a| *a > 1)
                .and_then(|a| edge_ratio(r, e.from, e.to, b).map(|q| (a, q)))
                .map(|(a, q)| (a, q, lang.f(T::EdgeRatio, &[("n", &ratio_text(q.1, q.2))])));
            let mx = (e.x1 + e.x2) / 2.0;
            let my = (e.y1 + e.y2) / 2.0;
            let ds: Html = dots(in_bucket, phase, 14)
                .into_iter()
                .map(|f| {
                    let x = e.x1 + (e.x2 - e.x1) * f;
                    let y = e.y1 + (e.y2 - e.y1) * f;
                    html! { <circle class="dot" cx={format!("{x:.1}")} cy={format!("{y:.1}")} r="3.2" /> }
                })
                .collect();
            // A side dependency's own bulkhead is drawn beside its (vertical) edge; the next
            // hop's is in the caller's box.
            let side_bulkhead = r.hops.get(e.to).is_some_and(|h| h.kind == crate::report::HopKind::Side);
            // A side dependency's (vertical) arrow has its ratio right of it, over its bulkhead.
            let vertical = (e.x1 - e.x2).abs() < 1.0;
            // A horizontal arrow's ratio fits between its two boxes with a margin ("×2.8" had
            // touched the next box in a narrow layout's 36-unit gap).
            let room = if vertical { 40.0 } else { ((e.x2 - e.x1).abs() - 10.0).clamp(12.0, 40.0) };
            let bulkhead = side_bulkhead.then(|| bulkhead_text(lang, r, e.client, b)).flatten();
            html! {
                <g class={classes!("edge", state.map(|s| format!("breaker-{}", s.to_ascii_lowercase())))}>
                    <line x1={e.x1.to_string()} y1={e.y1.to_string()} x2={e.x2.to_string()} y2={e.y2.to_string()} />
                    { ds }
                    if let Some(t) = bulkhead {
                        <text class="pool-text" x={(mx + 8.0).to_string()} y={(my + 4.0).to_string()} id={format!("bulkhead-{}-{}", props.side, e.client)}>{ t }</text>
                    }
                    if let Some((a, (ratio, callee, caller), label)) = ratio {
                        <text class="mult" x={(if vertical { mx + 8.0 } else { mx }).to_string()} y={(if vertical { my - 10.0 } else { my - 8.0 }).to_string()}
                            text-anchor={if vertical { "start" } else { "middle" }}
                            id={format!("ratio-{}-{}", props.side, e.client)}
                            textLength={crate::plot::palette::squeeze(&label, MULT_EM, room)} lengthAdjust="spacingAndGlyphs">
                            <title>{ lang.f(T::EdgeRatioTip, &[
                                ("callee", &lang.service(&r.hops[e.to].name)), ("caller", &lang.service(&r.hops[e.from].name)),
                                ("calls", &format_number(callee as f64, 0)), ("callers", &format_number(caller as f64, 0)),
                                ("n", &format_number(ratio, 2)), ("max", &format_number(f64::from(a), 0)),
                            ]) }</title>
                            { label }
                        </text>
                    }
                </g>
            }
        })
        .collect();
    // Each breaker's two lines, over everything: inside the caller's box for the main path
    // (whose boxes leave room for them), to the left of a side dependency's edge.
    let breaker_views: Html = edges
        .iter()
        .filter_map(|e| {
            let (key, state_line, detail) = breaker_lines(lang, r, &props.scenario, e.client, props.at_ms, b)?;
            let vertical = (e.x1 - e.x2).abs() < 1.0;
            // Inside a box, the lines keep within it (a long rule, or a box narrowed on a
            // phone, had run over its edge): squeezed to the box's width, as the ratios are.
            let (x, y, anchor, room) = if vertical {
                (e.x1 - 8.0, (e.y1 + e.y2) / 2.0 - 8.0, "end", None)
            } else {
                let from = boxes.iter().find(|bx| bx.hop == e.from)?;
                (from.x + 8.0, from.y + from.h - 22.0, "start", Some(from.w - 16.0))
            };
            let fit = |text: &str| room.and_then(|w| crate::plot::palette::squeeze(text, 11.0, w));
            let (state_fit, rule_fit) = (fit(&state_line), fit(&detail));
            Some(html! {
                <g class="breaker-lines">
                    <text class={classes!("breaker-state", key.to_ascii_lowercase())} x={x.to_string()} y={y.to_string()} text-anchor={anchor}
                        id={format!("breaker-{}-{}", props.side, e.client)}
                        textLength={state_fit.clone()} lengthAdjust={state_fit.is_some().then_some("spacingAndGlyphs")}>{ state_line }</text>
                    <text class="breaker-rule" x={x.to_string()} y={(y + 13.0).to_string()} text-anchor={anchor}
                        id={format!("breaker-rule-{}-{}", props.side, e.client)}
                        textLength={rule_fit.clone()} lengthAdjust={rule_fit.is_some().then_some("spacingAndGlyphs")}>{ detail }</text>
                </g>
            })
        })
        .collect();
    let box_views: Html = boxes
        .iter()
        .map(|bx| {
            let hop = &r.hops[bx.hop];
            let calls = r.series.attempts.get(bx.hop).map_or(0, |s| total_until(s, b));
            let busy = r.series.in_flight.get(bx.hop).map_or(0, |s| gauge_at(s, b));
            let queue = r.series.queue.get(bx.hop).map_or(0, |s| gauge_at(s, b));
            let pool = hop.workers.map_or_else(|| lang.t(T::Unlimited).to_string(), |w| format_number(f64::from(w), 0));
            let saturated = hop.workers.is_some_and(|w| busy >= i64::from(w));
            let bs = badges(lang, r, &props.scenario, bx.hop);
            let next_client = r.clients.iter().position(|c| c.caller == bx.hop && c.callee == bx.hop + 1);
            let bulkhead = next_client.and_then(|ci| bulkhead_text(lang, r, ci, b));
            // A side dependency's badges are its caller's stack towards it: a line says so.
            // A main hop that also calls side dependencies: its badges are its stack towards
            // the next hop only (each side call's is in that dependency's box), and a line
            // says which call, above the bulkhead's line of that call if it has one (the
            // layout makes the box tall enough: `plot::storm::names_its_call`).
            let calls_next = crate::plot::storm::names_its_call(r, bx.hop)
                .map(|ci| lang.f(T::MainCallsWith, &[("callee", &lang.service(&r.hops[r.clients[ci].callee].name))]));
            let both_lines = calls_next.is_some() && bulkhead.is_some();
            let called_by = (hop.kind == crate::report::HopKind::Side)
                .then(|| shown_client(r, bx.hop))
                .flatten()
                .filter(|_| !bs.is_empty())
                .map(|ci| lang.f(T::SideCalledBy, &[("caller", &lang.service(&r.hops[r.clients[ci].caller].name))]))
                .or(calls_next);
            let called_by_fit = called_by.as_ref().and_then(|t| crate::plot::palette::squeeze(t, 11.5, bx.w - 16.0));
            let top = crate::plot::storm::badges_top(usize::from(bulkhead.is_some()) + usize::from(called_by.is_some()));
            let fill = hop.workers.map(|w| (busy as f64 / f64::from(w.max(1))).clamp(0.0, 1.0));
            // A hop with a worker limit shows its queue against the queue's own limit (∞ when
            // unbounded), so a full queue reads as full; a hop without one never queues.
            let queue_limit = props.scenario.service(bx.hop).filter(|sv| sv.server.workers.is_some()).map(|sv| sv.server.queue);
            let queue_text = match queue_limit {
                Some(limit) => {
                    let max = limit.map_or_else(|| "∞".to_string(), |q| format_number(f64::from(q), 0));
                    format!(" · {}", lang.f(T::QueueOf, &[("n", &format_number(queue as f64, 0)), ("max", &max)]))
                }
                None if queue > 0 => format!(" · {}", lang.f(T::QueueN, &[("n", &format_number(queue as f64, 0))])),
                None => String::new(),
            };
            let busy_text = format!(
                "{}{queue_text}",
                lang.f(T::BusyOf, &[("busy", &format_number(busy as f64, 0)), ("pool", &pool)])
            );
            // The text's sizes as the style sheet sets them (12 px, 10.5 px badges).
            let busy_fit = crate::plot::palette::squeeze(&busy_text, 12.0, bx.w - 16.0);
            // The calls so far are the figure a class is pointed at: the box's largest, 13.5 px
            // bold (a 27,000 had been the smallest, grey text on the stage).
            let calls_text = lang.f(T::CallsSoFar, &[("n", &format_number(calls as f64, 0))]);
            let calls_fit = crate::plot::palette::squeeze(&calls_text, 13.5, bx.w - 16.0);
            // A narrow box (see `diagram_layout`) squeezes a long name or bulkhead line into it.
            let name = lang.service(&hop.name).into_owned();
            // A fault window in force at the playhead says so at the box's top right, so a
            // slowdown is seen where it acts, not only on the charts' strips.
            let fault_now = faults.get(bx.hop).and_then(|f| fault_now_text(lang, f, props.at_ms));
            // (12 px bold: estimated as 12 px for a CJK character, 7.2 for any other.)
            let fault_w = fault_now.as_ref().map_or(0.0, |t| crate::plot::palette::text_width(t, 12.0) + 8.0);
            // (14 px bold: estimated as 15 px, the estimate being a regular face's.)
            // A long name and the fault do not both fit on the name's line (a leaf named
            // "recommendations" in a laptop's narrow box was squeezed to half its width): the
            // fault goes to the right end of the first line below with room for it (the
            // calls, then the workers); in a side dependency's box, whose foot holds no
            // breaker lines, to a line of its own there; else it stays and the name is squeezed.
            let room = bx.w - 16.0;
            let fits_beside = |text: &str, em: f64| crate::plot::palette::text_width(text, em) + fault_w <= room;
            let right = |dy: f64| Some((bx.x + bx.w - 8.0, bx.y + dy, "end"));
            let fault_at = if fault_w == 0.0 || fits_beside(&name, 15.0) {
                None
            } else if fits_beside(&calls_text, 13.5) {
                right(38.0)
            } else if fits_beside(&busy_text, 12.0) {
                right(55.0)
            } else if hop.kind == crate::report::HopKind::Side {
                Some((bx.x + 8.0, bx.y + bx.h - 10.0, "start"))
            } else {
                None
            };
            // Sharing the name's line, each gives up the same share of its width: the name had
            // taken what the fault left, and a phone's "库存服务" was drawn 26 px wide.
            let (name_room, fault_room) = if fault_at.is_some() || fault_w == 0.0 {
                (room, room)
            } else {
                let name_w = crate::plot::palette::text_width(&name, 15.0);
                let k = (room / (name_w + fault_w)).min(1.0);
                (name_w * k, fault_w * k - 8.0)
            };
            let name_fit = crate::plot::palette::squeeze(&name, 15.0, name_room);
            let (fault_x, fault_y, fault_anchor) = fault_at.unwrap_or((bx.x + bx.w - 8.0, bx.y + 18.0, "end"));
            let fault_fit = fault_now.as_ref().and_then(|t| crate::plot::palette::squeeze(t, 12.0, fault_room));
            let bulkhead_fit = bulkhead.as_ref().and_then(|t| crate::plot::palette::squeeze(t, 11.5, bx.w - 16.0));
            let queue_fill = queue_limit.flatten().map(|q| (queue as f64 / f64::from(q.max(1))).clamp(0.0, 1.0));
            // The worker pool's line opens the queue lab with the hop's workers, queue and
            // arrival rate (the mouse's way in; the links under the diagram are the keyboard's).
            let queue_lab = hrefs.hop(lang, bx.hop, "queue");
            let open_queue_lab = queue_lab.clone().map(|h| {
                Callback::from(move |e: MouseEvent| {
                    e.stop_propagation();
                    crate::ui::links::open_from_page(&h);
                })
            });
            let pick = {
                let on = props.onfocus.clone();
                let h = bx.hop;
                Callback::from(move |_: MouseEvent| on.emit(h))
            };
            html! {
                <g class={classes!("hop", hop.kind.name(), saturated.then_some("saturated"), (props.focus == Some(bx.hop)).then_some("focused"))}
                    id={format!("hop-{}-{}", props.side, bx.hop)} onclick={pick}>
                    <rect x={bx.x.to_string()} y={bx.y.to_string()} width={bx.w.to_string()} height={bx.h.to_string()} rx="8" />
                    <text class="hop-name" x={(bx.x + 8.0).to_string()} y={(bx.y + 18.0).to_string()}
                        textLength={name_fit.clone()} lengthAdjust={name_fit.is_some().then_some("spacingAndGlyphs")}>{ name }</text>
                    if let Some(t) = fault_now {
                        <text class="fault-now" x={fault_x.to_string()} y={fault_y.to_string()} text-anchor={fault_anchor}
                            textLength={fault_fit.clone()} lengthAdjust={fault_fit.is_some().then_some("spacingAndGlyphs")}
                            id={format!("fault-now-{}-{}", props.side, bx.hop)}>
                            <title>{ lang.f(T::FaultNowTip, &[("what", &t)]) }</title>{ t.clone() }</text>
                    }
                    <text class="hop-calls" x={(bx.x + 8.0).to_string()} y={(bx.y + 38.0).to_string()}
                        textLength={calls_fit.clone()} lengthAdjust={calls_fit.is_some().then_some("spacingAndGlyphs")}>
                        { calls_text }
                    </text>
                    <text class={classes!("hop-busy", queue_lab.is_some().then_some("to-lab"))} x={(bx.x + 8.0).to_string()} y={(bx.y + 55.0).to_string()}
                        id={format!("hop-busy-{}-{}", props.side, bx.hop)} data-href={queue_lab.clone()} onclick={open_queue_lab}
                        textLength={busy_fit.clone()} lengthAdjust={busy_fit.is_some().then_some("spacingAndGlyphs")}>
                        { busy_text }
                    </text>
                    if let Some(f) = fill {
                        <rect class="use-bar" x={(bx.x + 8.0).to_string()} y={(bx.y + 59.0).to_string()} width={((bx.w - 16.0) * f).to_string()} height="3" />
                    }
                    if let Some(f) = queue_fill {
                        <rect class="queue-bar" x={(bx.x + 8.0).to_string()} y={(bx.y + 63.0).to_string()} width={((bx.w - 16.0) * f).to_string()} height="2" />
                    }
                    if let Some(t) = called_by {
                        <text class="pool-text called-by" x={(bx.x + 8.0).to_string()} y={(bx.y + 74.0).to_string()}
                            textLength={called_by_fit.clone()} lengthAdjust={called_by_fit.is_some().then_some("spacingAndGlyphs")}>{ t }</text>
                    }
                    if let Some(t) = bulkhead {
                        <text class="pool-text" x={(bx.x + 8.0).to_string()} y={(bx.y + if both_lines { 91.0 } else { 74.0 }).to_string()}
                            id={format!("bulkhead-{}-{}", props.side, next_client.unwrap_or(0))}
                            textLength={bulkhead_fit.clone()} lengthAdjust={bulkhead_fit.is_some().then_some("spacingAndGlyphs")}>{ t }</text>
                    }
                    { for bs.iter().enumerate().map(|(i, badge)| {
                        let col = (i % 2) as f64;
                        let row = (i / 2) as f64;
                        let bw = (bx.w - 20.0) / 2.0;
                        // A badge whose mechanism has a lab opens it (mouse; the links under the
                        // diagram are the keyboard's way).
                        let href = match badge.name {
                            "admission" => hrefs.hop(lang, bx.hop, "admission"),
                            "breaker" => shown_client(r, bx.hop).and_then(|ci| hrefs.breaker(lang, ci)),
                            _ => None,
                        };
                        let fit = crate::plot::palette::squeeze(&badge.label, 10.5, bw - 7.0);
                        let open_lab = href.clone().map(|h| Callback::from(move |e: MouseEvent| {
                            e.stop_propagation();
                            crate::ui::links::open_from_page(&h);
                        }));
                        html! {
                            <g class={classes!("badge", format!("b-{}", badge.name), href.is_some().then_some("to-lab"))} data-stage={badge.name}
                                data-href={href.clone()} data-tip={badge.tip.clone()} onclick={open_lab}>
                                if let Some(tip) = &badge.tip { <title>{ tip }</title> }
                                <rect x={(bx.x + 8.0 + col * (bw + 4.0)).to_string()} y={(bx.y + top + row * 17.0).to_string()} width={bw.to_string()} height="14" rx="3" />
                                <text x={(bx.x + 12.0 + col * (bw + 4.0)).to_string()} y={(bx.y + top + 11.0 + row * 17.0).to_string()}
                                    textLength={fit.clone()} lengthAdjust={fit.is_some().then_some("spacingAndGlyphs")}>{ &badge.label }</text>
                            </g>
                        }
                    }) }
                </g>
            }
        })
        .collect();
    html! {
        <figure class="diagram" id={format!("diagram-{}", props.side)} ref={figure}>
            // In compare mode the caption leads with its side's letter (drawn by the style
            // sheet from `data-side`, so an export's title, which adds the side itself, reads
            // it once): stacked, side B's heading is off screen while its drawing is not.
            <figcaption id={format!("diagram-title-{}", props.side)} data-side={props.scrolls.then(|| props.side.to_ascii_uppercase())}>{ lang.t(T::DiagramTitle) }
                // A phone shows the first hops only: say that the rest are a swipe away.
                if scrolls { <span class="unit" id={format!("diagram-scrolls-{}", props.side)}>{ " " }{ lang.f(T::DiagramScrolls, &[("n", &r.hops.len().to_string())]) }</span> }
            </figcaption>
            // The drawing scrolls sideways in a box of its own, its scroll bar just under it;
            // focusable when it may scroll, for the keyboard.
            // (Named by its title, and in compare mode by its side's heading too: two regions
            // of one name could not be told apart.)
            <div class="diagram-scroll" tabindex={(props.scrolls || scrolls).then_some("0")}
                role={(props.scrolls || scrolls).then_some("region")}
                aria-labelledby={(props.scrolls || scrolls).then(|| if props.scrolls { format!("diagram-side-{0} diagram-title-{0}", props.side) } else { format!("diagram-title-{}", props.side) })}>
                // Its width attribute is its least width (the style sheet's `min-width: 100%`
                // makes it the figure's when that is wider): the page's policy allows no style
                // attributes.
                // `data-moment`: the playhead's time, which an exported copy adds to its title
                // (off the page, "at the playhead" says nothing).
                <svg viewBox={format!("0 0 {width} {height}")} width={width.to_string()} role="img" aria-label={lang.t(T::DiagramLabel)}
                    data-moment={lang.f(T::PlayheadAt, &[("t", &format!("{} s", format_number(props.at_ms / 1000.0, 2)))])}>
                    { edge_views }
                    { for pools.iter().map(|p| pool_view(lang, r, p, &edges, b, props.side)) }
                    { box_views }
                    { breaker_views }
                </svg>
            </div>
            if let Some(note) = order_note(lang, r, &props.scenario) {
                <p class="note" id={format!("order-{}", props.side)}>{ note }</p>
            }
            // Compare mode's playhead runs to the longer run's end: past this one's, the chain
            // still shows its last bucket, which must not read as still busy.
            if props.at_ms > run_end_ms(r) {
                <p class="note ended" id={format!("diagram-ended-{}", props.side)}>{ lang.f(T::DiagramEnded, &[
                    ("t", &format_number(r.summary.end_ms / 1000.0, 2)),
                    ("ms", &bucket_ms_text(r.series.bucket_ms)),
                ]) }</p>
            }
            // The series keep each bucket's highest value, not the value at an instant.
            <p class="note" id={format!("diagram-peak-{}", props.side)}>{ lang.f(T::DiagramPeakNote, &[("ms", &bucket_ms_text(r.series.bucket_ms))]) }
                { " " }{ lang.t(T::DiagramRatioNote) }</p>
            { lab_links_view(lang, r, &hrefs, props.side) }
            <p class="note hop-focus" role="group" aria-label={lang.t(T::HopFocus)}>
                { lang.t(T::HopFocus) }{ lang.t(T::LabelSep) }
                { for r.hops.iter().enumerate().map(|(i, h)| {
                    let on = props.onfocus.clone();
                    let pressed = props.focus == Some(i);
                    html! {
                        <button type="button" class={classes!("secondary", "small", pressed.then_some("active"))}
                            id={format!("focus-{}-{i}", props.side)} aria-pressed={pressed.to_string()}
                            onclick={Callback::from(move |_: MouseEvent| on.emit(i))}>{ lang.service(&h.name).into_owned() }</button>
                    }
                }) }
            </p>
        </figure>
    }
}
