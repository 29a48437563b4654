//! Guided lessons: a lesson is a list of steps kept as data (`data/`, one file a lesson),
//! apart from the code that shows them. A step names a page and its whole state (the same
//! link any page already reads), the one to three knobs the learner may touch, a narration,
//! an optional question with its answer revealed on demand, the figure to point at, an
//! optional moment of the playback, and a "try this" suggestion.
//!
//! Numbers in the text are never typed: a `{figure-id}` placeholder names a figure of the
//! step's page (the DOM id that shows it there, see [`figures`]), and its value is computed
//! from the model for the step's state when the text is shown.

pub mod data;
pub mod figures;

use crate::i18n::Lang;
use crate::query::Query;
use crate::state::app::Page;

/// A text in both languages. Both are required, so a step without a translation does not
/// compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

/// Shorthand for a [`Text`] in the lesson tables: English, then Simplified Chinese (the
/// order of `src/i18n/table.rs`).
pub const fn tr(en: &'static str, zh: &'static str) -> Text {
    Text { en, zh }
}

impl Text {
    /// The text in `lang`.
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}

/// A moment of the storm page's playback a step shows: the playhead starts at `from_ms`
/// and stops at `pause_ms` (virtual time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    /// Where the playhead starts (ms of virtual time).
    pub from_ms: f64,
    /// Where it pauses (ms of virtual time).
    pub pause_ms: f64,
    /// A veiled time chart is covered from `from_ms` on, where the step's playback starts:
    /// what the question asks about starts there (metastable 2 and 4 start just before the
    /// trigger), and the step plays on past it. Otherwise from the playhead, up to the pause,
    /// so that what led up to the pause stays in view.
    pub veil_from_start: bool,
    /// What revealing the answer does to the playback.
    pub on_reveal: OnReveal,
}

/// What revealing a step's answer does to its playback (hiding the answer again always
/// brings back the paused moment, where the question was asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnReveal {
    /// Plays on to the run's end: the answer quotes what came after the pause (the totals
    /// the diagram counts up to, a recovery the chart shows).
    PlayOn,
    /// Stays at the paused moment: the answer explains what it shows (field guide 4: the
    /// shared pool full, its queue long).
    Stay,
}

/// One step of a lesson.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The page and its whole state, as the page's own link writes it (without `lang`):
    /// `page=storm&preset=lab11-unprotected`.
    pub link: &'static str,
    /// The URL keys of the knobs the learner may touch in this step (one to three; the
    /// page's other controls are hidden). `layers`, `l1.attempts`, `attempts`, `capacity`.
    pub knobs: &'static [&'static str],
    /// The step's heading.
    pub title: Text,
    /// What to look at; may quote figures as `{figure-id}`.
    pub narration: Text,
    /// Asked before the reveal.
    pub question: Option<Text>,
    /// Revealed on demand; may quote figures.
    pub answer: Option<Text>,
    /// Something to try with the step's knobs.
    pub try_this: Option<Text>,
    /// DOM id of the figure the step points at (outlined, scrolled into view, shown large in
    /// presenter mode).
    pub spot: &'static str,
    /// A moment of the playback, on the storm page.
    pub playback: Option<Playback>,
    /// Minutes the step takes in class or in the interview (the source's time boxes).
    pub minutes: Option<u8>,
    /// A hop of the storm page's chain to point at (0 = the entry): its box and series
    /// stand out in every chart, the others fade, as when the learner picks it.
    pub hop: Option<usize>,
    /// DOM ids of what would answer the question on the screen before it is asked (a chart
    /// that shows the outcome, a boundary to be predicted): presenter mode veils them, with
    /// the figures only the answer quotes, until the answer is revealed.
    pub veil: &'static [&'static str],
}

/// Elements of a page that restate a figure, in words or as another figure, by the
/// figure's id: a note that adds the breaker lab's cards up, the calculator's sentence for
/// a screen reader, the storm page's outcome figures, which give one another. A step that
/// veils the figure veils them too, or they would give the answer away beside its blurred
/// card (see [`Step::veiled`] for what it leaves shown). (A view that starts restating a figure elsewhere adds its element here; the
/// breaker lab's note is checked against its cards natively (`plot::breaker`), the
/// calculator's announcement against its two cards in the browser test (`lessons.py`).)
pub const RESTATED: &[(&str, &[&str])] = &[
    ("breaker-passed", &["breaker-figures-note"]),
    ("breaker-rejected", &["breaker-figures-note"]),
    ("breaker-probes", &["breaker-figures-note"]),
    // The breaker lab's live line says the state at the playhead, as the band does.
    ("breaker-band", &["breaker-announce"]),
    ("breaker-transitions", &["breaker-announce"]),
    // The calculator's chain picture (and its phone rows) draws the leaf's rate as its last
    // bar's label, and each level's factor.
    ("out-worst", &["calc-announce", "calc-chain", "calc-chain-rows"]),
    ("out-amplification", &["calc-announce", "calc-chain", "calc-chain-rows"]),
    // The storm page's SLO line: "5,287 failed of 5.9 allowed" is the failures and, divided,
    // the error budget spent.
    // The pages' live regions read figures out when a run finishes: a veiled figure's
    // sentence is veiled with it, or a screen reader would say the answer.
    // (Every headline card is read by the storm page's live line: `RESTATED_BY_PREFIX`.)
    // The cards as a whole (a step that veils the table), and the outcomes chart, whose
    // failures and successes the live line's first sentence reads.
    ("headline", &["run-announce", "slo-status-a"]),
    ("chart-outcomes-a", &["run-announce"]),
    ("q-rho", &["q-announce"]),
    ("cap-rho", &["q-announce"]),
    ("cap-row-rho", &["q-announce"]),
    ("q-time", &["q-announce"]),
    ("q-time-sim", &["q-announce"]),
    // The admission lab's rejections by reason add up to its rejected card.
    ("adm-rejected", &["adm-reasons"]),
    // The storm page's outcome figures give one another: with the requests known, the
    // successes give the failures, the success rate and the error budget, and the outcomes
    // chart (and the error budget's) shows them at a glance; the SLO line under the cards
    // ("5,287 failed of 5.9 allowed") is the failures and, divided, the budget spent.
    ("h-a-succeeded", OUTCOMES),
    ("h-a-failed", OUTCOMES),
    ("h-a-core_success_rate", OUTCOMES),
    ("h-a-error_budget_spent", OUTCOMES),
    // The leaf's calls over the requests are the amplification.
    ("h-a-amplification", &["h-a-downstream_attempts"]),
    ("h-a-downstream_attempts", &["h-a-amplification"]),
    // A run whose failures are its timeouts retried each of them and left its work behind.
    ("h-a-timeouts", &["h-a-retries", "h-a-abandoned_work"]),
];

/// The storm page's figures that say how the requests ended (see [`RESTATED`]).
const OUTCOMES: &[&str] = &[
    "h-a-succeeded",
    "h-a-failed",
    "h-a-core_success_rate",
    "h-a-error_budget_spent",
    "chart-outcomes-a",
    "chart-error-budget-a",
    "slo-status-a",
];

/// What restates every figure whose id starts with a prefix: the storm page's live line
/// reads out every headline card a run changes (`h-a-…`), so a veiled card veils it.
/// The calls that reached a hop (`bd-a-hop…`) are also its box in the chain diagram and, as
/// its caller's calls sent, a row of the breakdown's table.
pub const RESTATED_BY_PREFIX: &[(&str, &str)] =
    &[("h-a-", "run-announce"), ("bd-a-hop", "diagram-a"), ("bd-a-hop", "bd-hops-a")];

/// A piece of a lesson's words: plain words, or a link written `[words](?query)` to another
/// lesson or page of the site (opened in a new tab, so the class keeps its step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words<'a> {
    Plain(&'a str),
    Link { words: &'a str, query: &'a str },
}

/// `text` cut into plain words and links (`[words](?query)`; anything else between brackets
/// stays words).
pub fn links(text: &str) -> Vec<Words<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let link = after.split_once("](?").and_then(|(words, tail)| {
            let end = tail.find(')')?;
            (!words.contains(['[', ']'])).then(|| (words, &tail[..end], words.len() + 3 + end + 1))
        });
        match link {
            Some((words, query, len)) => {
                if open > 0 {
                    out.push(Words::Plain(&rest[..open]));
                }
                out.push(Words::Link { words, query });
                rest = &after[len..];
            }
            None => {
                out.push(Words::Plain(&rest[..open + 1]));
                rest = after;
            }
        }
    }
    if !rest.is_empty() {
        out.push(Words::Plain(rest));
    }
    out
}

/// The figure ids a text quotes: each placeholder's id (without its `:format`) and every
/// figure of an arithmetic (`{= a * 1000 / b}`); literals (`{#…}`), numbers and operators
/// are not ids.
pub fn quoted_ids(text: &str) -> Vec<&str> {
    crate::i18n::placeholders(text)
        .into_iter()
        .filter(|p| !p.starts_with('#'))
        .flat_map(|p| p.trim_start_matches(['=', '~']).split_whitespace())
        .map(|tok| tok.split(':').next().unwrap_or(tok))
        .filter(|id| id.chars().any(|c| c.is_ascii_alphabetic()))
        .collect()
}

/// The figures a text quotes in either language, settings (`set-…`) aside.
fn figure_ids(t: Text) -> Vec<&'static str> {
    [t.en, t.zh].into_iter().flat_map(quoted_ids).filter(|id| !id.starts_with("set-")).collect()
}

impl Step {
    /// The page the step opens.
    pub fn page(&self) -> Page {
        self.query().get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT)
    }

    /// The step's state as a query.
    pub fn query(&self) -> Query {
        Query::parse(self.link)
    }

    /// What presenter mode veils until the answer is revealed: the figures only the answer
    /// quotes and the step's own [`veil`](Step::veil).
    pub fn veiled(&self) -> Vec<&'static str> {
        let mut out = self.answer_only_figures();
        out.extend(self.veil);
        // What restates a veiled figure is veiled with it, but for what the step points at
        // (its spot) and figures its words quote before the answer: those are shown on
        // purpose (a step veils them itself when it must).
        let before = self.quoted_before_answer();
        let mut restating: Vec<&'static str> = RESTATED
            .iter()
            .filter(|(figure, _)| out.contains(figure))
            .flat_map(|(_, by)| by.iter().copied())
            .collect();
        restating.extend(
            RESTATED_BY_PREFIX
                .iter()
                .filter(|(prefix, _)| out.iter().any(|id| id.starts_with(prefix)))
                .map(|&(_, by)| by),
        );
        for id in restating {
            if !out.contains(&id) && id != self.spot && !before.contains(&id) {
                out.push(id);
            }
        }
        out
    }

    /// The figures the step's words quote before its answer: title, narration, question,
    /// and "try this" where it shows before the answer (a step with a question shows it
    /// with the answer); settings (`set-…`) aside.
    fn quoted_before_answer(&self) -> Vec<&'static str> {
        let try_this = self.try_this.filter(|_| self.question.is_none());
        [Some(self.title), Some(self.narration), self.question, try_this]
            .into_iter()
            .flatten()
            .flat_map(figure_ids)
            .collect()
    }

    /// The figures only the answer quotes (not what shows before it: see
    /// [`quoted_before_answer`](Self::quoted_before_answer)): what is veiled on the page
    /// until the answer is revealed, so the figure on the screen does not answer the
    /// question first.
    pub fn answer_only_figures(&self) -> Vec<&'static str> {
        let Some(answer) = self.answer else { return Vec::new() };
        let elsewhere = self.quoted_before_answer();
        let mut out: Vec<&'static str> =
            figure_ids(answer).into_iter().filter(|id| !elsewhere.contains(id)).collect();
        crate::order::sort_unique_short(&mut out);
        out
    }

    /// Every text of the step that may quote figures.
    pub fn texts(&self) -> impl Iterator<Item = Text> {
        [Some(self.title), Some(self.narration), self.question, self.answer, self.try_this]
            .into_iter()
            .flatten()
    }
}

/// A lesson.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// The `lesson=` value.
    pub id: &'static str,
    pub title: Text,
    /// One or two sentences for the index.
    pub summary: Text,
    /// The source document it follows (`000` … `003`), or `""`.
    pub source: &'static str,
    pub steps: &'static [Step],
}

/// A step's place in its lesson's time boxes (see [`Lesson::box_of`]), as minutes from the
/// start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBox {
    pub from: u32,
    pub to: u32,
    /// The step opens the box (else it continues the one a step before it opened).
    pub opens: bool,
}

impl Lesson {
    /// Total minutes of its time-boxed steps.
    pub fn minutes(&self) -> u32 {
        self.steps.iter().filter_map(|s| s.minutes).map(u32::from).sum()
    }

    /// The time box step `i` opens, as minutes from the start (from, to): the boxes follow
    /// one another (source 000: 5 + 8 + 12 + 15 + 5 minutes of a 45-minute interview), so
    /// "8 min" alone read as a clock time or a duration. `None` for a step without one.
    pub fn time_box(&self, i: usize) -> Option<(u32, u32)> {
        let m = u32::from(self.steps.get(i)?.minutes?);
        let from: u32 = self.steps[..i].iter().filter_map(|s| s.minutes).map(u32::from).sum();
        Some((from, from + m))
    }

    /// The time box step `i` is in: the one it opens, or else the last one opened before it
    /// (a follow-up question shares its step's minutes). `None` before the first box, and
    /// in a lesson without time boxes.
    pub fn box_of(&self, i: usize) -> Option<TimeBox> {
        if i >= self.steps.len() {
            return None;
        }
        (0..=i).rev().find_map(|j| self.time_box(j).map(|(from, to)| TimeBox { from, to, opens: j == i }))
    }
}

/// Whether `key` names a control of the page and state `q` opens: the only keys a step
/// may offer the learner.
pub fn has_knob(q: &Query, key: &str) -> bool {
    use crate::state::{admission, breaker, calculator, queue, storm};
    match q.get("page").and_then(Page::from_slug).unwrap_or(Page::DEFAULT) {
        Page::Storm => storm::lesson::resolve(&storm::StormState::from_query(q), key).is_some(),
        Page::Calculator => calculator::knob(key).is_some(),
        Page::Admission => admission::KNOBS.iter().any(|k| k.key == key) || admission::GEN.key == key,
        Page::Queue => {
            queue::KNOBS.iter().any(|k| k.key == key)
                || [queue::ARRIVALS.key, queue::SERVICE.key].contains(&key)
        }
        Page::Breaker => {
            let phase = breaker::PHASE_KNOBS.iter().any(|k| k.key == key);
            (!phase && breaker::BreakerState::from_query(q).knob(key).is_some())
                || breaker::WINDOW_KIND.key == key
        }
        Page::Stability => key == "protect",
        Page::Lessons => false,
    }
}

/// Every lesson, in the index's order.
pub fn all() -> &'static [Lesson] {
    data::ALL
}

/// The lesson a `lesson=` value names.
pub fn find(id: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests;
