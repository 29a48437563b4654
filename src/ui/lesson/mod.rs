//! A lesson step over its page: the card with the step's narration, question and answer,
//! "try this", the step's knobs and the way on; presenter mode (full screen, the step's
//! figure large, a clicker's keys); the speaker-notes window (kept in step by `ui::app`
//! through a `BroadcastChannel`); the interviewer's checklist and the candidate's link.

pub mod index;
mod marks;
mod spotlight;

pub use spotlight::{no_spotlight, spotlight};

use super::browser;
use crate::i18n::{Lang, T};
use crate::lesson::figures::{self as lesson_figures, Figures, Piece, fill, setting_value_text};
use crate::lesson::{Step, Text};
use crate::state::Setting;
use crate::state::app::Page;
use crate::state::lesson::{LessonAt, Modes};
use std::collections::BTreeSet;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A filled text: words (with `code` between backticks) and quoted figures, each figure in a
/// `span.fig` carrying its id and exact value, so a test can hold it against the page.
pub fn rich(text: Text, lang: Lang, figures: &StepFigures) -> Html {
    let empty = Figures::default();
    let (figs, pending) = match figures {
        StepFigures::Ready(f) => (&**f, false),
        StepFigures::Pending => (&empty, true),
        StepFigures::Failed(_) => (&empty, false),
    };
    fill(text, lang, figs)
        .into_iter()
        .map(|p| match p {
            Piece::Words(w) => w
                .split('`')
                .enumerate()
                .map(|(i, part)| {
                    if i % 2 == 1 {
                        html! { <code>{ part }</code> }
                    } else {
                        crate::lesson::links(part)
                            .into_iter()
                            .map(|w| match w {
                                crate::lesson::Words::Plain(p) => html! { { p } },
                                // In a new tab: the class keeps its step.
                                crate::lesson::Words::Link { words, query } => html! {
                                    <a href={format!("?{query}&lang={}", lang.code())} target="_blank" rel="noopener">{ words }</a>
                                },
                            })
                            .collect::<Html>()
                    }
                })
                .collect::<Html>(),
            Piece::Figure { id, value, shown } => html! {
                <span class="fig" data-figure={id} data-value={value.to_string()}>{ shown }</span>
            },
            Piece::Missing(_) if pending => html! { <span class="fig pending">{ "…" }</span> },
            Piece::Missing(id) => html! { <span class="fig missing">{ format!("{{{id}}}") }</span> },
        })
        .collect()
}

/// The figures of a step: still being computed, ready, or the message why the model could
/// not give them.
#[derive(Clone, Debug, PartialEq)]
pub enum StepFigures {
    Pending,
    Ready(Rc<Figures>),
    Failed(String),
}

/// The figures a step's text quotes. A storm step's run happens in a Web Worker (the same
/// job its page runs), so no lesson blocks the page; the other pages' figures are closed
/// forms and small exact models, computed here.
#[hook]
pub fn use_step_figures(step: &'static Step) -> StepFigures {
    let q = step.query();
    let storm = step.page() == Page::Storm;
    let jobs = if storm { vec![lesson_figures::storm_job(&q)] } else { Vec::new() };
    let runs = super::runs::use_runs(jobs.clone());
    let native =
        use_memo(step.link, |l| (!storm).then(|| lesson_figures::of(&crate::query::Query::parse(l))));
    let from_run = use_memo((step.link, runs.finished), move |(l, _)| {
        let shown = runs.results.as_ref().filter(|_| runs.is_for(&jobs)).and_then(|r| r.first().cloned())?;
        Some(match &shown.result {
            Ok(r) => Ok(lesson_figures::storm_figures(&crate::query::Query::parse(l), r)),
            Err(e) => Err(format!("{e:?}")),
        })
    });
    let result = if storm { (*from_run).clone() } else { (*native).clone() };
    match result {
        None => StepFigures::Pending,
        Some(Ok(f)) => StepFigures::Ready(Rc::new(f)),
        Some(Err(m)) => StepFigures::Failed(m),
    }
}

#[derive(Properties, PartialEq)]
pub struct CardProps {
    pub lang: Lang,
    pub at: LessonAt,
    /// Whether the answer is shown.
    pub revealed: bool,
    /// The learner changed the step's settings (the quoted figures are the step's own).
    pub modified: bool,
    /// The step's knobs, rendered by the page's own controls.
    pub knobs: Html,
    /// The page's settings as it runs now (its live state), of which the card shows those
    /// the step's text quotes.
    pub settings: Rc<Vec<Setting>>,
    /// Go to a step or mode.
    pub ongo: Callback<LessonAt>,
    pub onreveal: Callback<()>,
    /// Back to the step's own settings.
    pub onreset: Callback<()>,
    /// Leave the lesson, keeping the page as it is.
    pub onleave: Callback<()>,
}

/// The card over the page.
#[component]
pub fn LessonCard(props: &CardProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let at = props.at;
    let step = at.step();
    let n = at.lesson.steps.len();
    let figs = use_step_figures(step);
    let copied = use_state(|| false);
    let go = |to: LessonAt| {
        let cb = props.ongo.clone();
        Callback::from(move |_: MouseEvent| cb.emit(to))
    };
    let onreveal = {
        let cb = props.onreveal.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let onreset = {
        let cb = props.onreset.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let onleave = {
        let cb = props.onleave.clone();
        Callback::from(move |_: MouseEvent| {
            cb.emit(());
            // The card goes, and its button with it: the page's title takes the focus.
            browser::focus_after_render(["page-title"]);
        })
    };
    let modes = at.modes;
    let present = LessonAt { modes: Modes { present: !modes.present, ..modes }, ..at };
    let onnotes = {
        let href = LessonAt { modes: Modes { notes: true, present: false, ..modes }, ..at }.href(lang.code());
        Callback::from(move |_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                let _ = w.open_with_url_and_target_and_features(&href, "lab-notes", "width=720,height=820");
            }
        })
    };
    let oncandidate = {
        let copied = copied.clone();
        let mut q = crate::query::Query::new();
        LessonAt { modes: Modes { candidate: true, interview: false, present: false, notes: false }, ..at }
            .write(&mut q);
        Callback::from(move |_: MouseEvent| {
            // The page's settings as the click finds them: read at render time, the URL had
            // not yet taken the change that rendered (a language switched, a knob moved).
            let mut full = browser::current_query();
            for (k, v) in q.pairs() {
                full.set(k, v.clone());
            }
            full.set("lang", lang.code().to_string());
            full.remove("interview");
            let href = format!("{}{}", browser::current_path(), full.to_query_string());
            let abs = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default() + &href;
            let (copied, fallback) = (copied.clone(), abs.clone());
            super::browser::copy_text(&abs, move |ok| {
                if ok {
                    copied.set(true);
                } else {
                    super::browser::offer_to_copy(lang.t(T::CopyByHand), &fallback);
                }
            });
        })
    };
    let error = match &figs { StepFigures::Failed(m) => Some(m.clone()), _ => None }.map(|m| {
        html! { <p class="warning" role="alert" id="lesson-figures-error">{ lang.f(T::LessonFiguresFailed, &[("message", &m)]) }</p> }
    });
    let show_answer = step.answer.is_some() && !modes.candidate;
    // A revealed answer comes into view, even at the foot of a long card.
    use_effect_with(props.revealed, |on| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        if !*on {
            return;
        }
        if let Some(el) = doc.get_element_by_id("lesson-answer") {
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
            focus_if_lost(&el);
        } else if let Some(el) = doc.get_element_by_id("lesson-to-figure") {
            // A candidate's "Show the run" has no answer to go to: the button pressed is
            // gone, and the focus goes on to the way to the run it showed, not to the top.
            focus_if_lost(&el);
        }
    });
    // A step just drawn (Start, Next, Back): the button pressed is gone with the old step, so
    // the focus goes to the step's title and Tab goes on from the card, not from the top.
    use_effect_with((at.lesson.id, at.step), |_| {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("lesson-step-title"))
        {
            focus_if_lost(&el);
        }
    });
    // The step's knobs are the page's own controls drawn again, ids and all: in the card
    // they take a prefix, after every drawing (a control drawn anew comes with the page's).
    use_effect(prefix_card_ids);
    html! {
        <aside class="panel lesson-card" id="lesson-card" aria-labelledby="lesson-step-title"
            data-lesson={at.lesson.id} data-step={(at.step + 1).to_string()} data-veil={step.veiled().join(" ")}>
            <div class="lesson-head">
                <a class="lesson-name" href={format!("?page=lessons&lang={}", lang.code())} id="lesson-index-link">{ lesson_figures::plain_words(at.lesson.title, lang) }</a>
                <span class="lesson-count" id="lesson-count" aria-live="polite">
                    { lang.f(T::LessonStepOf, &[("n", &(at.step + 1).to_string()), ("total", &n.to_string())]) }
                    if let Some(b) = at.lesson.box_of(at.step) { { " · " }{ time_box_text(lang, b) } }
                </span>
            </div>
            <h2 id="lesson-step-title" tabindex="-1">{ rich(step.title, lang, &figs) }</h2>
            <p class="lesson-narration" id="lesson-narration">{ rich(step.narration, lang, &figs) }</p>
            { for error }
            if let Some(q) = step.question {
                <div class="lesson-question" id="lesson-question">
                    <strong>{ t(T::LessonAsk) }</strong>{ t(T::LabelSep) }{ rich(q, lang, &figs) }
                </div>
            }
            // The candidate answers before seeing the run that answers the question.
            if modes.candidate && step.question.is_some() && !props.revealed {
                <button type="button" id="lesson-show-run" class="secondary" title={t(T::LessonShowRunHelp)} onclick={onreveal.clone()}>{ t(T::LessonShowRun) }</button>
            }
            if show_answer {
                if props.revealed {
                    <div class="lesson-answer" id="lesson-answer" role="status" tabindex="-1">
                        <strong>{ t(T::LessonAnswer) }</strong>{ t(T::LabelSep) }{ rich(step.answer.unwrap_or(step.narration), lang, &figs) }
                    </div>
                } else {
                    <button type="button" id="lesson-reveal" class="secondary" title={t(T::LessonRevealHelp)} aria-keyshortcuts="R" onclick={onreveal}>{ t(T::LessonReveal) }</button>
                }
            }
            <a class="lesson-to-figure" id="lesson-to-figure" href={format!("#{}", step.spot)}>{ t(T::LessonToFigure) }</a>
            // On a phone the card is above the page, often screens away from the figure its
            // knobs change: a button fixed at the screen's corner leads back to it (hidden on
            // wider screens, where the card stays beside the page).
            <a class="lesson-to-card" id="lesson-to-card" href="#lesson-card" aria-label={t(T::LessonToCardLabel)}>{ t(T::LessonToCard) }</a>
            // A step's "try this" waits for its question's answer: it often says the outcome
            // (interview 10's gave "not safe" away on the shared screen). The speaker notes
            // show it throughout.
            if let Some(tt) = step.try_this.filter(|_| step.question.is_none() || props.revealed) {
                <p class="lesson-try" id="lesson-try"><strong>{ t(T::LessonTry) }</strong>{ t(T::LabelSep) }{ rich(tt, lang, &figs) }</p>
            }
            { quoted_settings(lang, step, &props.settings, &figs) }
            <div class="lesson-knobs-box" id="lesson-step-knobs">{ props.knobs.clone() }</div>
            if props.modified {
                <p class="note" id="lesson-modified">{ t(T::LessonModified) }</p>
            }
            // The interviewer's checklist above the card's tools and bar, so that the bar, last
            // in the card, stays in view however far down the checklist the card is scrolled.
            if modes.interview {
                <Checklist {lang} {at} figures={figs.clone()} ongo={props.ongo.clone()} revealed={props.revealed} onreveal={props.onreveal.clone()} />
            }
            // The card's tools, at its foot: not in the bar below, which stays in view and
            // must stay short (with them, on a tablet's presenter card, it had taken 270 of
            // its 750 px, over Reveal).
            <div class="lesson-tools" role="group" aria-label={t(T::LessonToolsLabel)}>
                if modes.present {
                    <button type="button" id="lesson-fullscreen" class="secondary small" title={t(T::LessonFullScreenHelp)}
                        onclick={Callback::from(|_: MouseEvent| toggle_full_screen())}>{ t(T::LessonFullScreen) }</button>
                    <button type="button" id="lesson-language" class="secondary small" title={t(T::LanguageSwitchHelp)}
                        lang={Lang::ALL.into_iter().find(|l| *l != lang).unwrap_or(lang).html_tag()} onclick={Callback::from(|_: MouseEvent| switch_language())}>{ t(T::LessonOtherLanguage) }</button>
                }
                <button type="button" id="lesson-present" class="secondary small" aria-pressed={modes.present.to_string()}
                    title={t(T::LessonPresentHelp)} onclick={go(present)}>{ t(if modes.present { T::LessonPresentLeave } else { T::LessonPresent }) }</button>
                if !modes.candidate {
                    <button type="button" id="lesson-notes" class="secondary small" title={t(T::LessonNotesHelp)} onclick={onnotes}>{ t(T::LessonNotes) }</button>
                }
                if modes.interview {
                    <button type="button" id="lesson-candidate" class="secondary small" title={t(T::LessonCandidateHelp)} onclick={oncandidate}>
                        { t(if *copied { T::LessonCandidateCopied } else { T::LessonCandidate }) }
                    </button>
                }
                <button type="button" id="lesson-leave" class="secondary small" title={t(T::LessonLeaveHelp)} onclick={onleave}>{ t(T::LessonLeave) }</button>
            </div>
            <nav class="lesson-nav" aria-label={t(T::LessonNavLabel)}>
                // In the nav, which stays in view: below the knobs, in a tall card, the way
                // back was under the fold of the card's own scroll.
                if props.modified {
                    <button type="button" class="secondary small" id="lesson-reset" onclick={onreset}>{ t(T::LessonBackToStep) }</button>
                }
                { back_and_next(lang, at, &props.ongo, true) }
                // On the stage only the step's figure shows, the page's playback bar hidden:
                // its play is here too, for a tablet with no P key (full screen, F, above).
                if modes.present && matches!(step.page(), Page::Storm | Page::Admission | Page::Breaker) {
                    <button type="button" id="lesson-play" class="secondary small" title={t(T::LessonPlayHelp)}
                        onclick={Callback::from(|_: MouseEvent| click_play())}>{ t(T::LessonPlay) }</button>
                }
            </nav>
        </aside>
    }
}

/// The settings the step's text quotes (`{set-…}`, alone or in an arithmetic) at the step's
/// own values, which the quoted figures are for, each under the figure's id; where the page
/// now runs another value (the learner moved a knob), that one beside it, marked.
fn quoted_settings(lang: Lang, step: &Step, live: &[Setting], figures: &StepFigures) -> Html {
    let mut keys: Vec<&str> = Vec::new();
    for text in step.texts() {
        for id in crate::lesson::quoted_ids(text.en) {
            if let Some(k) = id.strip_prefix("set-")
                && !keys.contains(&k)
            {
                keys.push(k);
            }
        }
    }
    let items: Vec<Html> = keys
        .iter()
        .filter_map(|k| live.iter().find(|s| s.key == *k))
        .map(|s| {
            let own = match figures {
                StepFigures::Ready(f) => f.get(&format!("set-{}", s.key)).map_or(s.value, |f| f.value),
                _ => s.value,
            };
            html! {
                <li><span class="setting-label">{ s.label_text(lang) }</span>{ " " }
                    <b id={format!("set-{}", s.key)} data-value={own.to_string()}>{ setting_value_text(lang, own, s.unit) }</b>
                    if own != s.value {
                        <span class="setting-now" id={format!("set-now-{}", s.key)} data-value={s.value.to_string()}>
                            { lang.f(T::LessonSettingNow, &[("v", &setting_value_text(lang, s.value, s.unit))]) }</span>
                    }
                </li>
            }
        })
        .collect();
    if items.is_empty() {
        return Html::default();
    }
    html! {
        <div class="lesson-settings" id="lesson-settings">
            <span class="lesson-settings-title">{ lang.t(T::LessonSettings) }</span>
            <ul>{ for items }</ul>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ChecklistProps {
    lang: Lang,
    at: LessonAt,
    figures: StepFigures,
    ongo: Callback<LessonAt>,
    /// Whether the card has revealed the current step's answer.
    revealed: bool,
    /// The card's reveal (R), which the current step's item shares.
    onreveal: Callback<()>,
}

/// The prefix of the ids of the step's knobs in the card.
pub const CARD_ID_PREFIX: &str = "card-";

/// Gives every id inside the card's knobs [`CARD_ID_PREFIX`], and the labels, descriptions
/// and lists that point at them the same, so that the page keeps one element per id: the
/// page's own control and the card's copy had shared `f-rate`, a label of one named the
/// other's field, and a screen reader read one's help for the other.
fn prefix_card_ids() {
    let Some(knobs) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("lesson-step-knobs"))
    else {
        return;
    };
    let Ok(with_id) = knobs.query_selector_all("[id]") else { return };
    let mut ids: Vec<String> = Vec::new();
    for el in (0..with_id.length()).filter_map(|i| with_id.item(i)?.dyn_into::<web_sys::Element>().ok()) {
        let id = el.id();
        match id.strip_prefix(CARD_ID_PREFIX) {
            Some(own) => ids.push(own.to_string()),
            None => {
                el.set_id(&format!("{CARD_ID_PREFIX}{id}"));
                ids.push(id);
            }
        }
    }
    const POINTERS: [&str; 5] = ["for", "aria-describedby", "aria-labelledby", "aria-controls", "list"];
    let Ok(pointing) =
        knobs.query_selector_all("[for], [aria-describedby], [aria-labelledby], [aria-controls], [list]")
    else {
        return;
    };
    for el in (0..pointing.length()).filter_map(|i| pointing.item(i)?.dyn_into::<web_sys::Element>().ok()) {
        for attr in POINTERS {
            let Some(v) = el.get_attribute(attr) else { continue };
            let to: Vec<String> =
                v.split_whitespace()
                    .map(|t| {
                        if ids.iter().any(|i| i == t) {
                            format!("{CARD_ID_PREFIX}{t}")
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
            let to = to.join(" ");
            if to != v {
                let _ = el.set_attribute(attr, &to);
            }
        }
    }
}

/// The interviewer's checklist: every prompt of the lesson, answers hidden until revealed.
/// Answers quote the figures of their own step, computed when revealed.
#[component]
fn Checklist(props: &ChecklistProps) -> Html {
    let lang = props.lang;
    let open = use_state(BTreeSet::<usize>::new);
    // The prompts the interviewer ticked, kept for the tab's session (Next, Back and a reload
    // drew the list again unticked): read at each drawing, written at each tick, while the
    // box's own state follows the click.
    let key = format!("checklist-{}", props.at.lesson.id);
    let ticked = |key: &str| -> BTreeSet<usize> {
        // Inserted one by one: collecting a set sorts, and a sort of its own is kilobytes.
        let mut set = BTreeSet::new();
        for n in browser::session_get(key).unwrap_or_default().split(',').filter_map(|n| n.parse().ok()) {
            set.insert(n);
        }
        set
    };
    let done = ticked(&key);
    let without_run = use_memo(props.at.lesson.id, |_| {
        props
            .at
            .lesson
            .steps
            .iter()
            .map(|s| Rc::new(lesson_figures::without_run(&s.query())))
            .collect::<Vec<_>>()
    });
    let items = props.at.lesson.steps.iter().enumerate().filter(|(_, s)| s.question.is_some()).map(|(i, s)| {
        // The current step's item is the card's answer, shown and hidden with it (R on the
        // card had left the item saying "Reveal the answer"); the others open on their own.
        let current = i == props.at.step;
        let shown = if current { props.revealed } else { open.contains(&i) };
        let toggle = if current {
            props.onreveal.reform(|_: MouseEvent| ())
        } else {
            let open = open.clone();
            Callback::from(move |_: MouseEvent| {
                let mut next = (*open).clone();
                if !next.remove(&i) {
                    next.insert(i);
                }
                open.set(next);
            })
        };
        let ongo = {
            let (cb, to) = (props.ongo.clone(), props.at.go(i));
            Callback::from(move |_: MouseEvent| cb.emit(to))
        };
        let figs = if i == props.at.step {
            props.figures.clone()
        } else if shown {
            // Another step's answer, computed when the interviewer reveals it.
            lesson_figures::of(&s.query()).map_or_else(StepFigures::Failed, |f| StepFigures::Ready(Rc::new(f)))
        } else {
            // Its question, from the figures its link gives without a run.
            StepFigures::Ready(without_run[i].clone())
        };
        let tick = {
            let key = key.clone();
            Callback::from(move |_: Event| {
                let mut next = ticked(&key);
                if !next.remove(&i) {
                    next.insert(i);
                }
                let list: Vec<String> = next.iter().map(usize::to_string).collect();
                browser::session_set(&key, &list.join(","));
            })
        };
        html! {
            <li class={classes!("check", (i == props.at.step).then_some("current"))} id={format!("check-{}", i + 1)}>
                <label><input type="checkbox" id={format!("check-{}-done", i + 1)} checked={done.contains(&i)} onchange={tick} />{ " " }
                    if let Some(b) = props.at.lesson.box_of(i) { <span class="lesson-meta">{ time_box_text(lang, b) }{ " · " }</span> }
                    { rich(s.question.unwrap_or(s.title), lang, &figs) }
                </label>
                <span class="row-buttons">
                    <button type="button" class="secondary small" id={format!("check-{}-go", i + 1)} onclick={ongo}>{ lang.t(T::LessonShowStep) }</button>
                    <button type="button" class="secondary small" id={format!("check-{}-reveal", i + 1)} aria-expanded={shown.to_string()} onclick={toggle}>
                        { lang.t(if shown { T::LessonHideAnswer } else { T::LessonReveal }) }
                    </button>
                </span>
                if shown {
                    if let Some(a) = s.answer { <p class="lesson-answer" id={format!("check-{}-answer", i + 1)}>{ rich(a, lang, &figs) }</p> }
                }
            </li>
        }
    });
    html! {
        <section class="lesson-checklist" id="lesson-checklist">
            <h3>{ lang.t(T::LessonChecklist) }</h3>
            <ol>{ for items }</ol>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct NotesProps {
    pub lang: Lang,
    pub at: LessonAt,
    pub ongo: Callback<LessonAt>,
}

/// On a lesson's last step, in Next's place: the next lesson in the index's order, or the
/// index after the last one (presenter mode kept). Its words are as short as Next's, the
/// lesson's title in its tooltip: a three-line button pushed the card's knobs below the
/// fold on a projector.
fn finish_link(lang: Lang, at: LessonAt) -> Html {
    let all = crate::lesson::data::ALL;
    let next = all.iter().position(|l| l.id == at.lesson.id).and_then(|i| all.get(i + 1));
    let present = if at.modes.present { "&present=1" } else { "" };
    let (href, text, title) = match next {
        Some(l) => (
            format!("?lesson={}{present}&lang={}", l.id, lang.code()),
            lang.t(T::LessonNextLesson),
            Some(lang.f(T::LessonNextLessonTitle, &[("title", &lesson_figures::plain_words(l.title, lang))])),
        ),
        None => (format!("?page=lessons&lang={}", lang.code()), lang.t(T::LessonAllLessons), None),
    };
    html! { <a class="button" id="lesson-finish" {href} {title}>{ text }</a> }
}

/// Follows the last step's way to the next lesson (the clicker's Next there), as a click
/// on it would: in place, presenter mode kept.
pub fn follow_finish() {
    let link =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("lesson-finish"));
    if let Some(a) = link.as_ref().and_then(|l| l.dyn_ref::<web_sys::HtmlElement>()) {
        a.click();
    }
}

/// The back and next buttons of the card and of the notes window; with `finish`, the last
/// step's Next is the way to the next lesson.
fn back_and_next(lang: Lang, at: LessonAt, ongo: &Callback<LessonAt>, finish: bool) -> Html {
    let n = at.lesson.steps.len();
    let go = |to: LessonAt| {
        let cb = ongo.clone();
        Callback::from(move |_: MouseEvent| cb.emit(to))
    };
    html! {
        <>
            // The keys say themselves on hover and to assistive technology.
            <button type="button" id="lesson-prev" class="secondary" disabled={at.step == 0}
                title={lang.t(T::LessonPrevHelp)} aria-keyshortcuts="ArrowLeft PageUp"
                onclick={go(at.go(at.step.saturating_sub(1)))}>{ lang.t(T::LessonPrev) }</button>
            if finish && at.step + 1 >= n {
                { finish_link(lang, at) }
            } else {
                <button type="button" id="lesson-next" disabled={at.step + 1 >= n}
                    title={lang.t(T::LessonNextHelp)} aria-keyshortcuts="ArrowRight PageDown"
                    onclick={go(at.go(at.step + 1))}>{ lang.t(T::LessonNext) }</button>
            }
        </>
    }
}

/// The speaker-notes window (`notes=1`): the step's narration, question, answer and "try
/// this", and what comes next; it follows the presenting window and leads it.
#[component]
pub fn NotesView(props: &NotesProps) -> Html {
    let lang = props.lang;
    let t = |k: T| lang.t(k);
    let at = props.at;
    let step = at.step();
    let n = at.lesson.steps.len();
    let figs = use_step_figures(step);
    let next = at.lesson.steps.get(at.step + 1);
    html! {
        <section class="page notes" id="lesson-notes-view" data-lesson={at.lesson.id} data-step={(at.step + 1).to_string()}>
            <p class="lesson-count" id="lesson-count">{ lesson_figures::plain_words(at.lesson.title, lang) }{ " · " }
                { lang.f(T::LessonStepOf, &[("n", &(at.step + 1).to_string()), ("total", &n.to_string())]) }
                // The speaker keeps time from here too (the interview's time boxes).
                if let Some(b) = at.lesson.box_of(at.step) { { " · " }<span id="notes-time-box">{ time_box_text(lang, b) }</span> }</p>
            <h1 id="page-title">{ rich(step.title, lang, &figs) }</h1>
            <p class="lesson-narration" id="lesson-narration">{ rich(step.narration, lang, &figs) }</p>
            if let Some(q) = step.question { <p class="lesson-question"><strong>{ t(T::LessonAsk) }</strong>{ t(T::LabelSep) }{ rich(q, lang, &figs) }</p> }
            if let Some(a) = step.answer { <p class="lesson-answer" id="lesson-answer"><strong>{ t(T::LessonAnswer) }</strong>{ t(T::LabelSep) }{ rich(a, lang, &figs) }</p> }
            if let Some(tt) = step.try_this { <p class="lesson-try"><strong>{ t(T::LessonTry) }</strong>{ t(T::LabelSep) }{ rich(tt, lang, &figs) }</p> }
            if let Some(nx) = next { <p class="note" id="lesson-next-up">{ lang.f(T::LessonNextUp, &[("title", &lesson_figures::plain_text(nx.title, lang, &nx.query()))]) }</p> }
            <nav class="lesson-nav" aria-label={t(T::LessonNavLabel)}>
                { back_and_next(lang, at, &props.ongo, false) }
            </nav>
            <p class="help">{ t(T::LessonNotesSync) }</p>
        </section>
    }
}

/// What a key press means in a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyCommand {
    Next,
    Back,
    Reveal,
    Play,
    FullScreen,
    /// The other language (a class with guests: the presenter switches mid-lesson).
    Language,
    Leave,
}

/// A step's time box: its length and where it lies in the whole ("8 min (minutes 5–13)"),
/// or, for a step that continues the box before it, only where ("still minutes 5–13").
fn time_box_text(lang: Lang, b: crate::lesson::TimeBox) -> String {
    let (from, to) = (b.from.to_string(), b.to.to_string());
    if !b.opens {
        return lang.f(T::LessonTimeBoxGoesOn, &[("from", &from), ("to", &to)]);
    }
    lang.f(T::LessonTimeBox, &[("m", &(b.to - b.from).to_string()), ("from", &from), ("to", &to)])
}

thread_local! {
    /// The control the pointer pressed last, until Tab moves the focus (see `key_command`).
    static CLICKED: std::cell::RefCell<Option<web_sys::Element>> = const { std::cell::RefCell::new(None) };
}

/// Notes which control a pointer pressed (`pointerdown`), or that Tab moved on (`keydown`).
pub fn note_focus_source(e: &web_sys::Event) {
    let pressed = if e.type_() == "pointerdown" {
        e.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("button, a, summary, [role]").ok().flatten())
    } else if e.dyn_ref::<web_sys::KeyboardEvent>().is_some_and(|k| k.key() == "Tab") {
        None
    } else {
        return;
    };
    CLICKED.with(|c| *c.borrow_mut() = pressed);
}

/// The command of a key (what presentation clickers send: arrows, PageUp/PageDown, Space),
/// unless the key belongs to the focused control. On the presenter's stage PageUp and
/// PageDown always move the step: a clicker sends them, and a slider touched a moment
/// before would otherwise take them and move silently.
pub fn key_command(e: &web_sys::KeyboardEvent, present: bool) -> Option<KeyCommand> {
    // A control that acted on the key already (a chart's bar opening its request on Space).
    if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
        return None;
    }
    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let tag = target.as_ref().map(|el| el.tag_name().to_ascii_lowercase()).unwrap_or_default();
    // Elements that act as controls by their role (the charts' bars are `rect role=button`).
    let role = target.as_ref().and_then(|el| el.get_attribute("role")).unwrap_or_default();
    // Keys belong to a field, and arrows to a widget that moves between its items.
    let typing = matches!(tag.as_str(), "input" | "select" | "textarea")
        || matches!(
            role.as_str(),
            "slider"
                | "textbox"
                | "searchbox"
                | "spinbutton"
                | "combobox"
                | "listbox"
                | "option"
                | "radio"
                | "tab"
                | "menuitem"
        );
    // A focused region that overflows (a wide table or chart on a phone, reached by Tab)
    // scrolls with the arrows and Space, as the browser does; one that fits leaves them free.
    let scroller = role == "region"
        && target.as_ref().is_some_and(|el| {
            el.scroll_width() > el.client_width() || el.scroll_height() > el.client_height()
        });
    let typing = typing || scroller;
    // On the presenter's stage a drop-down keeps ↑ and ↓ (and Space, which opens it) and
    // gives the clicker's ← and → and the letter keys back: the teacher changes it from the
    // keyboard and the clicker still moves the step (its ← and → had changed it again).
    let typing =
        typing && !(present && tag == "select" && !matches!(e.key().as_str(), "ArrowUp" | "ArrowDown" | " "));
    // A control the keyboard reached keeps Space; one the mouse clicked last gives it to the
    // clicker: a teacher who had clicked Play pressed Space for the next step, and played the
    // run again. (`:focus-visible` cannot tell: a key pressed makes the focus visible first.)
    let on_button = (matches!(tag.as_str(), "button" | "a" | "summary")
        || matches!(role.as_str(), "button" | "link" | "checkbox" | "switch"))
        && !target.as_ref().is_some_and(|el| CLICKED.with(|c| c.borrow().as_ref() == Some(el)));
    let key = e.key();
    // Alone at a laptop, PageUp, PageDown and Space scroll the page as everywhere else (a
    // student pressing PageDown to read on had skipped a step unread); only the arrows,
    // which scroll nothing here, move the step. Esc leaves the presenter's stage only.
    Some(match key.as_str() {
        "PageDown" if present => KeyCommand::Next,
        "PageUp" if present => KeyCommand::Back,
        " " if present && !typing && !on_button => KeyCommand::Next,
        "ArrowRight" if !typing => KeyCommand::Next,
        "ArrowLeft" if !typing => KeyCommand::Back,
        "r" | "R" if !typing => KeyCommand::Reveal,
        "p" | "P" if !typing => KeyCommand::Play,
        "f" | "F" if !typing => KeyCommand::FullScreen,
        "l" | "L" if !typing => KeyCommand::Language,
        "Escape" if present => KeyCommand::Leave,
        _ => return None,
    })
}

/// Focuses `el` if nothing has the focus (it was on an element that has gone).
fn focus_if_lost(el: &web_sys::Element) {
    let doc = web_sys::window().and_then(|w| w.document());
    let lost = doc.is_some_and(|d| d.active_element().is_none_or(|a| Some(a) == d.body().map(Into::into)));
    if lost && let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    }
}

/// Switches the page to the other language, as its header's button does (the header is
/// out of sight on the presenter's stage, and the key or the card's button stand in for it).
pub fn switch_language() {
    if let Some(b) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("header button.lang:not(.active)").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        b.click();
    }
}

/// Full screen on or off.
pub fn toggle_full_screen() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(el) = doc.document_element() {
        let _ = el.request_fullscreen();
    }
}

/// Leaves full screen if on.
pub fn exit_full_screen() {
    if let Some(doc) = web_sys::window().and_then(|w| w.document())
        && doc.fullscreen_element().is_some()
    {
        doc.exit_fullscreen();
    }
}

/// Clicks the page's play button (the storm page and the labs each have `#play`).
pub fn click_play() {
    if let Some(b) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("play"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        b.click();
    }
}

/// Veils the figures `ids` (class `veiled`, which a lesson blurs) and lifts every other
/// veil. A figure may appear only once its run is drawn, or be drawn again as a new element
/// (the class is not the view's own): `marks` keeps the class on it until the next veil.
pub fn veil(ids: Vec<&'static str>) {
    remove_class_but("veiled", &ids);
    marks::show_all_to_readers();
    marks::keep_veiled(ids);
}

/// Takes `class` from every element whose id is not in `keep`.
fn remove_class_but(class: &str, keep: &[&str]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Ok(old) = doc.query_selector_all(&format!(".{class}")) {
        for i in 0..old.length() {
            if let Some(el) = old.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                && !keep.contains(&el.id().as_str())
            {
                let _ = el.class_list().remove_1(class);
            }
        }
    }
}

/// Outlines the figures a revealed answer quotes (`ids`; none: the answer is hidden), so
/// that the class sees where each of its numbers is on the page. The page is not scrolled:
/// the step's figure, which the class is looking at, stays where it is.
pub fn mark_answered(ids: Vec<&'static str>) {
    remove_class_but("answered", &ids);
    marks::keep_answered(ids);
}
