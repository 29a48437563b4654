//! The figures a lesson's text may quote, computed from the model for a step's state: the
//! same functions the step's page draws its figures with, keyed by the DOM id that shows
//! each figure there (whose `data-value` — `data-total` on the breaker lab, whose counts
//! move with the playhead — holds the same number). The end-to-end test compares the two.

use crate::i18n::{Lang, format_number};
use crate::lesson::Text;
use crate::model::{amplification, breaker_lab};
use crate::plot::{breakdown, storm};
use crate::query::Query;
use crate::report::Report;
use crate::state::admission::AdmissionState;
use crate::state::app::Page;
use crate::state::breaker::BreakerState;
use crate::state::calculator::{self, CalcState};
use crate::state::queue::QueueState;
use crate::state::runs::{BROWSER_MAX_CALLS, Job, Side};
use crate::state::storm::StormState;

/// How a figure is written in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A count or a plain number (up to 2 decimals).
    Count,
    /// A factor, written `9×`.
    Times,
    /// A fraction 0–1, written as a percentage.
    Fraction,
    /// Already a percentage (0–100), written with `%`.
    Percent,
    /// Milliseconds.
    Ms,
    /// A setting of the step's page, written with its knob's unit (`150 ms`, `3 attempts`).
    Setting(crate::i18n::T),
}

/// One figure: the DOM id that shows it, its exact value, how it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub id: String,
    pub value: f64,
    pub unit: Unit,
}

impl Figure {
    fn new(id: impl Into<String>, value: f64, unit: Unit) -> Self {
        Figure { id: id.into(), value, unit }
    }

    /// The value as the text writes it.
    pub fn show(&self, lang: Lang) -> String {
        match self.unit {
            Unit::Setting(u) => setting_text(lang, self.value, u),
            Unit::Count => format_number(self.value, 2),
            Unit::Times => format!("{}×", format_number(self.value, 2)),
            Unit::Fraction => lang.percent_figure(self.value * 100.0),
            Unit::Percent => lang.percent_figure(self.value),
            Unit::Ms => format!("{} ms", format_number(self.value, 1)),
        }
    }
}

/// A setting's value as the text writes it: the number and its knob's unit.
pub fn setting_text(lang: Lang, value: f64, unit: crate::i18n::T) -> String {
    match lang.t(unit) {
        "" => format_number(value, 6),
        "%" => lang.percent(&format_number(value, 6)),
        // A factor reads as the cards and charts write it: ×5, not 5 ×.
        "×" => format!("×{}", format_number(value, 6)),
        u => format!("{} {u}", format_number(value, 6)),
    }
}

/// A setting's value beside its label (the card's list of the step's settings): a unit of
/// measure stays (`100 ms`), a word for what is counted goes, since the label says it
/// already ("Workers 5", not "Workers 5 workers").
pub fn setting_value_text(lang: Lang, value: f64, unit: crate::i18n::T) -> String {
    use crate::i18n::T;
    match unit {
        T::UnitWorkers
        | T::UnitAttempts
        | T::UnitLayers
        | T::UnitConnections
        | T::UnitRequests
        | T::UnitTokens
        | T::UnitCalls
        | T::UnitInstances
        | T::UnitInteger
        | T::UnitProbability => format_number(value, 6),
        _ => setting_text(lang, value, unit),
    }
}

/// Every figure of a page state, or why there are none (a run that stops with an error).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures(pub Vec<Figure>);

impl Figures {
    /// The figure a DOM id names.
    pub fn get(&self, id: &str) -> Option<&Figure> {
        self.0.iter().find(|f| f.id == id)
    }
}

/// The figures of the page and state `q` names (`page=` and that page's keys).
pub fn of(q: &Query) -> Result<Figures, String> {
    let page = q.get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT);
    let mut out = Vec::new();
    match page {
        Page::Storm => {
            let job = storm_job(q);
            let (s, seed) = job.scenario().map_err(|e| e.to_string())?;
            let r = crate::model::chain::run_with(&s, seed, BROWSER_MAX_CALLS).map_err(|e| e.to_string())?;
            return Ok(storm_figures(q, &r));
        }
        Page::Calculator => {
            let st = CalcState::from_query(q);
            out.extend(settings(st.lesson_settings()));
            let o = amplification::compute(&st.input).map_err(|e| format!("{e:?}"))?;
            for (id, value, unit) in calculator::figures(&o) {
                out.push(Figure::new(id, value, unit));
            }
        }
        Page::Admission => {
            let st = AdmissionState::from_query(q);
            out.extend(settings(st.lesson_settings()));
            out.push(Figure::new("adm-admitted", st.run.admitted as f64, Unit::Count));
            out.push(Figure::new("adm-rejected", st.run.rejected_total() as f64, Unit::Count));
            out.push(Figure::new("adm-per-token", st.run.per_token as f64, Unit::Count));
            for (k, step) in st.run.steps.iter().enumerate() {
                out.push(Figure::new(format!("adm-t{}", k + 1), step.t_ms as f64, Unit::Ms));
                if let Some(ms) = crate::model::admission::retry_after_ms(step) {
                    out.push(Figure::new(format!("adm-ra{}", k + 1), ms as f64, Unit::Ms));
                }
            }
        }
        Page::Queue => {
            let st = QueueState::from_query(q);
            out.extend(settings(st.lesson_settings()));
            for (id, value, unit) in crate::state::queue::closed_figures(&st.input) {
                out.push(Figure::new(id, value, unit));
            }
        }
        Page::Breaker => {
            let st = BreakerState::from_query(q);
            out.extend(settings(st.lesson_settings()));
            let r = breaker_lab::run(&st.input).map_err(|e| format!("{e:?}"))?;
            let end = r.frame(usize::MAX);
            for (id, v) in [
                ("passed", end.passed),
                ("rejected", end.rejected),
                ("probes", end.probes),
                ("transitions", end.changes),
            ] {
                out.push(Figure::new(format!("breaker-{id}"), f64::from(v), Unit::Count));
            }
        }
        Page::Stability => {
            // The overlay's retry budget and the hysteresis ramp's top, as the page says them.
            let st = crate::state::stability::page::StabilityState::from_query(q);
            if let Some(r) = st.sweep.budget_overlay_ratio() {
                out.push(Figure::new("stab-budget-ratio", r * 100.0, Unit::Percent));
            }
            out.push(Figure::new("stab-hyst-top", crate::state::stability::HYST_TOP * 100.0, Unit::Percent));
        }
        Page::Lessons => {}
    }
    Ok(Figures(out))
}

/// A piece of a filled text: words, or a quoted figure.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Words(String),
    /// A figure: its id (for an arithmetic of figures, `=` and the expression), exact value
    /// and the text shown.
    Figure {
        id: String,
        value: f64,
        shown: String,
    },
    /// A placeholder naming no figure of the page (a test keeps lessons free of these).
    Missing(String),
}

/// `text` in `lang` with every placeholder filled:
/// - `{figure-id}` writes the figure as its page does (a setting with its unit);
/// - `{figure-id:n}` writes the bare number; `{figure-id:times}` a share as a multiple
///   (8.96 → "≈ 896×" of a budget whose 100 % is 1);
/// - `{= a * 1000 / b}` writes an arithmetic of figures (tokens apart: figure ids, numbers,
///   `+ - * /` and brackets; the usual precedence) as a bare number, to 2 decimals;
///   `{~ …}` the same rounded to a whole number (for text that says "about");
/// - `{#…}` is a literal: a number quoted from a source or a name (`{#2021}`), not a
///   figure of the model, written as it is.
pub fn fill(text: Text, lang: Lang, figures: &Figures) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = text.get(lang);
    let mut words = String::new();
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        words.push_str(&rest[..open]);
        let inner = &after[..close];
        rest = &after[close + 1..];
        if let Some(literal) = inner.strip_prefix('#') {
            // A literal percentage is written as this language writes one (99.95 %, 99.95%).
            match literal.strip_suffix(" %") {
                Some(n) => words.push_str(&lang.percent(n)),
                None => words.push_str(literal),
            }
            continue;
        }
        push_words(&mut out, std::mem::take(&mut words));
        if let Some((expr, decimals)) =
            inner.strip_prefix('=').map(|e| (e, 2)).or_else(|| inner.strip_prefix('~').map(|e| (e, 0)))
        {
            out.push(match eval(expr, figures) {
                Some(v) => {
                    Piece::Figure { id: format!("={expr}"), value: v, shown: format_number(v, decimals) }
                }
                None => Piece::Missing(inner.to_string()),
            });
            continue;
        }
        let (id, format) = inner.split_once(':').unwrap_or((inner, ""));
        out.push(match (figures.get(id), format) {
            (Some(f), "") => Piece::Figure { id: id.to_string(), value: f.value, shown: f.show(lang) },
            (Some(f), "n") => {
                Piece::Figure { id: id.to_string(), value: f.value, shown: format_number(f.value, 6) }
            }
            (Some(f), "times") => Piece::Figure {
                id: id.to_string(),
                value: f.value,
                shown: format!("{}×", format_number(f.value, if f.value < 10.0 { 1 } else { 0 })),
            },
            _ => Piece::Missing(inner.to_string()),
        });
    }
    words.push_str(rest);
    push_words(&mut out, words);
    out
}

/// Appends words to the pieces; a space right after a figure becomes a no-break space, so a
/// figure and its unit or noun stay on one line ("50 %" split as "50 / %" in a title).
fn push_words(out: &mut Vec<Piece>, words: String) {
    if words.is_empty() {
        return;
    }
    let words = match (out.last(), words.strip_prefix(' ')) {
        (Some(Piece::Figure { .. } | Piece::Missing(_)), Some(rest)) => format!("\u{a0}{rest}"),
        _ => words,
    };
    out.push(Piece::Words(words));
}

/// The value of an arithmetic of figures (see [`fill`]); `None` if a figure is missing, the
/// expression is malformed or its value is not finite.
pub fn eval(expr: &str, figures: &Figures) -> Option<f64> {
    let tokens: Vec<&str> = expr.split_whitespace().collect();
    let mut at = 0;
    let v = sum(&tokens, &mut at, figures)?;
    (at == tokens.len() && v.is_finite()).then_some(v)
}

fn sum(t: &[&str], at: &mut usize, f: &Figures) -> Option<f64> {
    let mut v = product(t, at, f)?;
    while let Some(&op) = t.get(*at).filter(|o| matches!(**o, "+" | "-")) {
        *at += 1;
        let r = product(t, at, f)?;
        v = if op == "+" { v + r } else { v - r };
    }
    Some(v)
}

fn product(t: &[&str], at: &mut usize, f: &Figures) -> Option<f64> {
    let mut v = operand(t, at, f)?;
    while let Some(&op) = t.get(*at).filter(|o| matches!(**o, "*" | "/")) {
        *at += 1;
        let r = operand(t, at, f)?;
        v = if op == "*" { v * r } else { v / r };
    }
    Some(v)
}

fn operand(t: &[&str], at: &mut usize, f: &Figures) -> Option<f64> {
    let tok = *t.get(*at)?;
    *at += 1;
    if tok == "(" {
        let v = sum(t, at, f)?;
        return (t.get(*at) == Some(&")")).then(|| {
            *at += 1;
            v
        });
    }
    crate::float::parse_f64(tok).or_else(|| f.get(tok).map(|x| x.value))
}

/// The filled text as plain words (for the notes window's title, tests).
pub fn plain(pieces: &[Piece]) -> String {
    let text: String = pieces
        .iter()
        .map(|p| match p {
            Piece::Words(w) => w.as_str(),
            Piece::Figure { shown, .. } => shown.as_str(),
            Piece::Missing(id) => id.as_str(),
        })
        .collect();
    // The no-break spaces after figures are for a card's lines (see `push_words`); a
    // tooltip, a screen reader's label or a terminal reads ordinary ones.
    text.replace('\u{a0}', " ")
}

/// The figures a step's link gives without a simulated run: its page's settings, and the
/// closed-form figures of the pages that compute theirs at once (every page but the storm
/// page, whose figures come from its run). For texts shown away from their step: the
/// lessons index, the interviewer's checklist, the next step's title.
pub fn without_run(q: &Query) -> Figures {
    match q.get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT) {
        Page::Storm => Figures(settings(StormState::from_query(q).lesson_settings()).collect()),
        _ => of(q).unwrap_or_default(),
    }
}

/// A text that quotes no figure (a lesson's title and summary: literals only), as plain words.
pub fn plain_words(text: Text, lang: Lang) -> String {
    plain(&fill(text, lang, &Figures::default()))
}

/// A text as plain words, its figures from [`without_run`] over the link `q`.
pub fn plain_text(text: Text, lang: Lang, q: &Query) -> String {
    plain(&fill(text, lang, &without_run(q)))
}

/// The storm run a storm page state shows on side A (what its figures come from).
pub fn storm_job(q: &Query) -> Job {
    Job::Storm { query: StormState::from_query(q).run_query(), side: Side::A }
}

/// The storm page's figures from its side-A report: the headline figures (`h-a-…`) and
/// per hop the calls that reached it and what each caller wanted (`bd-a-…`).
pub fn storm_figures(q: &Query, r: &Report) -> Figures {
    let st = StormState::from_query(q);
    let mut out = Vec::new();
    for h in storm::headlines(r, st.a.slo) {
        let unit = match h.unit {
            storm::Unit::Count => Unit::Count,
            storm::Unit::Times => Unit::Times,
            storm::Unit::Percent => Unit::Fraction,
            storm::Unit::Ms => Unit::Ms,
        };
        out.push(Figure::new(format!("h-a-{}", h.id), h.value, unit));
    }
    // The run's last event, which the caption over the cards gives (side A's).
    out.push(Figure::new("headline-span", r.summary.end_ms, Unit::Ms));
    for row in breakdown::hop_rows(r) {
        out.push(Figure::new(format!("bd-a-hop{}", row.hop), row.calls as f64, Unit::Count));
        for c in &row.callers {
            out.push(Figure::new(format!("bd-a-c{}", c.client), c.wanted as f64, Unit::Count));
            out.push(Figure::new(format!("bd-a-c{}-timeouts", c.client), c.timeouts as f64, Unit::Count));
        }
    }

    out.extend(settings(st.lesson_settings()));
    Figures(out)
}

/// A page's settings as figures: `set-<link key>` (`set-l1.attempts`, `set-workers`), each
/// written with its knob's unit. The lesson card shows the ones a step quotes at these
/// values, under the same ids, and beside one the learner changed the page's live value
/// (`state::Setting`).
fn settings(list: Vec<crate::state::Setting>) -> impl Iterator<Item = Figure> {
    list.into_iter().map(|s| Figure::new(format!("set-{}", s.key), s.value, Unit::Setting(s.unit)))
}
