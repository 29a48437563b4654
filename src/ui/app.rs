//! The app shell: header with the product name and language switch, navigation between
//! labs, the page, and the footer. It owns every page's state so the URL can hold all of it.

use super::admission::AdmissionPage;
use super::breaker::BreakerPage;
use super::browser;
use super::calculator::CalculatorPage;
use super::charts::OnStage;
use super::lesson::index::LessonsPage;
use super::lesson::{self as ui_lesson, KeyCommand, LessonCard, NotesView};
use super::queue::QueuePage;
use super::stability::StabilityPage;
use super::storm::StormPage;
use crate::i18n::{Lang, T};
use crate::query::Query;
use crate::state::admission::{AdmissionAction, AdmissionState};
use crate::state::app::{Page, Route, initial_lang};
use crate::state::breaker::{BreakerAction, BreakerState};
use crate::state::calculator::{CalcAction, CalcState};
use crate::state::lesson::{self as lesson_link, LessonAt, Modes};
use crate::state::queue::{QueueAction, QueueState};
use crate::state::stability::page::{StabilityAction, StabilityState};
use crate::state::storm::{StormAction, StormState};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Which page, which language, and a notice about the link that opened the app.
#[derive(Clone, Debug, PartialEq)]
pub struct Shell {
    pub lang: Lang,
    pub page: Page,
    pub unknown_page: Option<String>,
    pub unknown_lang: Option<String>,
    /// Compact mode (`embed=1`): the figures without the control panel, for an `<iframe>`.
    pub embed: bool,
    /// An `embed=` value that is neither 0 nor 1, to tell the user.
    pub bad_embed: Option<String>,
    /// Link keys no page reads (see [`Route::unused`]), to tell the user.
    pub unused: crate::state::lab::UnknownKeys,
    /// Link keys given more than once with different values (see [`Query::repeated`]).
    pub repeated: Vec<String>,
}

/// What the header and navigation can do.
pub enum ShellAction {
    SetLang(Lang),
    Go(Page),
    DismissNotice,
}

impl Reducible for Shell {
    type Action = ShellAction;
    fn reduce(self: Rc<Self>, action: ShellAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            ShellAction::SetLang(l) => next.lang = l,
            ShellAction::Go(p) => next.page = p,
            ShellAction::DismissNotice => {
                next.unknown_page = None;
                next.unknown_lang = None;
                next.bad_embed = None;
                next.unused = Default::default();
                next.repeated.clear();
            }
        }
        Rc::new(next)
    }
}

/// Wraps the calculator state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct CalcStore(pub CalcState);

impl Reducible for CalcStore {
    type Action = CalcAction;
    fn reduce(self: Rc<Self>, action: CalcAction) -> Rc<Self> {
        Rc::new(CalcStore(self.0.reduce(action)))
    }
}

/// Wraps the retry-storm state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct StormStore(pub StormState);

impl Reducible for StormStore {
    type Action = StormAction;
    fn reduce(self: Rc<Self>, action: StormAction) -> Rc<Self> {
        Rc::new(StormStore(self.0.reduce(action)))
    }
}

/// Wraps a lab's state for `use_reducer`.
#[derive(Clone, PartialEq)]
pub struct LabStore<S>(pub S);

impl Reducible for LabStore<AdmissionState> {
    type Action = AdmissionAction;
    fn reduce(self: Rc<Self>, action: AdmissionAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

impl Reducible for LabStore<BreakerState> {
    type Action = BreakerAction;
    fn reduce(self: Rc<Self>, action: BreakerAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

impl Reducible for LabStore<QueueState> {
    type Action = QueueAction;
    fn reduce(self: Rc<Self>, action: QueueAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

impl Reducible for LabStore<StabilityState> {
    type Action = StabilityAction;
    fn reduce(self: Rc<Self>, action: StabilityAction) -> Rc<Self> {
        Rc::new(LabStore(self.0.reduce(action)))
    }
}

/// Every page's state, for writing the open one into the URL.
#[derive(Clone, PartialEq)]
struct Pages {
    calc: CalcState,
    storm: StormState,
    admission: AdmissionState,
    queue: QueueState,
    breaker: BreakerState,
    stability: StabilityState,
}

/// The open page's link: its whole state (other pages' state stays in memory), and the
/// lesson step it shows, if any.
fn page_query(shell: &Shell, p: &Pages, at: Option<LessonAt>) -> Query {
    let mut q = Query::new();
    q.set("page", shell.page.slug());
    q.set("lang", shell.lang.code());
    if shell.embed {
        q.set("embed", "1");
    }
    state_query(shell.page, p, &mut q);
    if let Some(at) = at {
        at.write(&mut q);
    }
    q
}

thread_local! {
    /// Each page's state as the learner last left it in this tab, by page.
    static LEFT_AS: RefCell<Vec<(Page, Query)>> = const { RefCell::new(Vec::new()) };
}

/// The session-storage key of `page`'s state as last left (see [`left_as`]).
fn left_as_key(page: Page) -> String {
    format!("resilience-lab.left.{}", page.slug())
}

/// Keeps `page`'s state as it is now, its link `q` (see [`left_as`]; the shell's keys in
/// it are read by no page): in memory, and in the tab's session storage, so that a reload
/// keeps it too.
fn leave_as(page: Page, q: Query) {
    let changed = LEFT_AS.with(|m| {
        let mut m = m.borrow_mut();
        if m.iter().any(|(x, y)| *x == page && *y == q) {
            return None;
        }
        m.retain(|(x, _)| *x != page);
        m.push((page, q.clone()));
        Some(q)
    });
    if let Some(q) = changed {
        browser::session_set_soon(&left_as_key(page), &q.to_query_string());
    }
}

/// `page`'s state as the learner last left it in this tab: the app restarts from the URL
/// when a link is followed, the history moves or the page is reloaded, and the pages the
/// URL does not name would otherwise lose what was set on them.
fn left_as(page: Page) -> Option<Query> {
    LEFT_AS
        .with(|m| m.borrow().iter().find(|(x, _)| *x == page).map(|(_, q)| q.clone()))
        .or_else(|| browser::session_get(&left_as_key(page)).map(|s| Query::parse(&s)))
}

/// Writes the state of `page` into `q`.
fn state_query(page: Page, p: &Pages, q: &mut Query) {
    match page {
        Page::Calculator => p.calc.write_query(q),
        Page::Storm => p.storm.write_query(q),
        Page::Admission => p.admission.write_query(q),
        Page::Queue => p.queue.write_query(q),
        Page::Breaker => p.breaker.write_query(q),
        Page::Stability => p.stability.write_query(q),
        Page::Lessons => {}
    }
}

/// A page state as its page writes it, read from `q` (to tell whether the learner changed
/// a lesson step's settings).
fn normal_state(page: Page, q: &Query) -> Query {
    let mut out = Query::new();
    match page {
        Page::Calculator => CalcState::from_query(q).write_query(&mut out),
        Page::Storm => StormState::from_query(q).write_query(&mut out),
        Page::Admission => AdmissionState::from_query(q).write_query(&mut out),
        Page::Queue => QueueState::from_query(q).write_query(&mut out),
        Page::Breaker => BreakerState::from_query(q).write_query(&mut out),
        Page::Stability => StabilityState::from_query(q).write_query(&mut out),
        Page::Lessons => {}
    }
    out
}

/// Where the app is in a lesson, and the state the pages start from.
#[derive(Clone, PartialEq)]
struct Nav {
    at: Option<LessonAt>,
    /// The query the pages (re)start from.
    start: Rc<Query>,
    /// Bumped whenever the pages must restart from `start` (a new step, back to the step).
    generation: u32,
    revealed: bool,
}

/// Where this tab keeps the steps whose answers were revealed since a lesson link was opened
/// (`lesson|step`, space-separated), so that a reload, Back and Forward, or the step's own
/// button back to it show them still revealed.
const REVEALED_KEY: &str = "lesson-revealed";

/// The step's key in [`REVEALED_KEY`].
fn revealed_key(at: LessonAt) -> String {
    format!("{}|{}", at.lesson.id, at.step)
}

/// Whether `at`'s answer was revealed in this visit (see [`REVEALED_KEY`]).
fn was_revealed(at: LessonAt) -> bool {
    let key = revealed_key(at);
    browser::session_get(REVEALED_KEY).is_some_and(|list| list.split(' ').any(|k| k == key))
}

/// Keeps in this visit's list whether `at`'s answer is revealed.
fn keep_revealed(at: LessonAt, revealed: bool) {
    let key = revealed_key(at);
    let list = browser::session_get(REVEALED_KEY).unwrap_or_default();
    let mut keys: Vec<&str> = list.split(' ').filter(|k| !k.is_empty() && *k != key).collect();
    if revealed {
        keys.push(&key);
    }
    let now = keys.join(" ");
    if now != list {
        browser::session_set(REVEALED_KEY, &now);
    }
}

/// The channel the presenting window and its notes window keep in step through.
const NOTES_CHANNEL: &str = "resilience-lab-lesson";

/// A notes window's question when opened or reloaded: at which step is the presenting
/// window?
const ASK_STEP: &str = "?";

thread_local! {
    /// Whether the app has started in this document already (Back and Forward and links
    /// followed in the app start it again; a reload is a new document).
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Tells the presenting or notes window which step this one is at (`lesson|step`).
fn tell_other_window(channel: Option<&web_sys::BroadcastChannel>, at: LessonAt) {
    if let Some(c) = channel {
        let _ = c.post_message(&format!("{}|{}", at.lesson.id, at.step).into());
    }
}

/// The shell around the pages: the language and page, the lesson step, presenter and notes
/// windows. The pages live in [`Host`], restarted from a step's state when the step changes.
#[component]
pub fn App() -> Html {
    let url = use_memo((), |_| browser::current_query());
    let link = use_memo(url.clone(), |q| lesson_link::read(q));
    let nav = {
        let (url, link) = (url.clone(), link.clone());
        use_state(move || Nav {
            at: link.at,
            start: Rc::new(link.at.map_or_else(|| (*url).clone(), |a| a.start_query(&url))),
            generation: 0,
            // A reload, Back and Forward keep a revealed answer revealed (nothing is lost on
            // reload; a student going back a step had found its answer hidden again); a link
            // opened in the tab starts a new visit, all hidden (a teacher who tried a step at
            // her desk and then opens it to present finds its answer hidden).
            revealed: link.at.is_some_and(|a| {
                // The document's own arrival on its first start; then how the app was
                // started again (a link followed in the app starts a new visit too).
                let again =
                    if STARTED.get() { super::links::started_by_history() } else { browser::came_back() };
                if !again {
                    browser::session_set(REVEALED_KEY, "");
                }
                again && was_revealed(a)
            }),
        })
    };
    use_effect_with((nav.at, nav.revealed), |(at, revealed)| {
        if let Some(at) = at {
            keep_revealed(*at, *revealed);
        }
    });
    let shell = {
        let (q, url, link) = (nav.start.clone(), url.clone(), link.clone());
        use_reducer(move || {
            let route = Route::from_query(&q);
            // A lesson link that names no lesson (its error says so) opens the lesson index
            // rather than the default page, unless it names a page of its own.
            let no_lesson = link.at.is_none()
                && url.get("page").is_none()
                && link.errors.iter().any(|e| e.field == "lesson");
            let langs = browser::browser_languages();
            let saved = browser::saved_lang();
            let lang = initial_lang(route.lang, saved.as_deref(), langs.iter().map(String::as_str));
            Shell {
                lang,
                page: if no_lesson { Page::Lessons } else { route.page },
                unknown_page: route.unknown_page,
                unknown_lang: route.unknown_lang,
                embed: route.embed,
                bad_embed: route.bad_embed,
                // From the link itself: a lesson link's start query is the step's state.
                unused: Route::from_query(&url).unused,
                repeated: url.repeated(),
            }
        })
    };
    let channel = use_memo((), |_| web_sys::BroadcastChannel::new(NOTES_CHANNEL).ok());
    // Moves to a step: the same step only changes mode; another restarts the pages from
    // its state. `tell` says whether the other window should follow.
    let move_to = {
        let (nav, shell, channel) = (nav.clone(), shell.clone(), channel.clone());
        Callback::from(move |(to, tell): (LessonAt, bool)| {
            let cur = (*nav).clone();
            let same = cur.at.is_some_and(|a| a.lesson.id == to.lesson.id && a.step == to.step);
            if !to.modes.present && cur.at.is_some_and(|a| a.modes.present) {
                ui_lesson::exit_full_screen();
            }
            if same {
                nav.set(Nav { at: Some(to), ..cur });
                return;
            }
            let mut q = to.step().query();
            q.set("lang", shell.lang.code());
            to.write(&mut q);
            if tell {
                // The learner's own move: a history entry, so Back returns to the step before.
                super::links::push_url(&q.to_query_string());
            } else {
                // Following the other window: this one's address follows too, so that a
                // reload of it opens the step it shows (the notes window's stayed at the step
                // it was opened on, and a reload took the projector back there).
                browser::replace_query(&q);
            }
            shell.dispatch(ShellAction::Go(to.step().page()));
            // A step revealed before in this visit (the one before, gone back to) stays so.
            let revealed = was_revealed(to);
            nav.set(Nav { at: Some(to), start: Rc::new(q), generation: cur.generation + 1, revealed });
            if tell {
                tell_other_window(channel.as_ref().as_ref(), to);
            }
        })
    };
    // This window (re)started at a step: a reload, or Back and Forward, which remount the
    // app from the URL. The other window follows, as it follows the buttons; except that a
    // notes window opened or reloaded asks the presenting one where it is (the class's
    // screen leads), while its Back and Forward still lead.
    {
        let (channel, at) = (channel.clone(), nav.at);
        let first = !STARTED.replace(true);
        use_effect_with((), move |_| match (at, channel.as_ref()) {
            (Some(at), Some(c)) if at.modes.notes && first => {
                let _ = c.post_message(&ASK_STEP.into());
            }
            (Some(at), c) => tell_other_window(c.as_ref(), at),
            _ => {}
        });
    }
    let ongo = move_to.reform(|to: LessonAt| (to, true));
    // The other window moved: follow it, keeping this window's modes.
    let follow: Rc<RefCell<Callback<String>>> = use_mut_ref(Callback::noop);
    {
        let (nav, move_to, channel) = (nav.clone(), move_to.clone(), channel.clone());
        *follow.borrow_mut() = Callback::from(move |msg: String| {
            if msg == ASK_STEP {
                if let Some(at) = nav.at.filter(|a| !a.modes.notes) {
                    tell_other_window(channel.as_ref().as_ref(), at);
                }
                return;
            }
            // Only a window in a lesson follows: a tab opened from the lesson (a map cell's
            // run) or any other page of the site stays where it is.
            let Some(cur) = nav.at else { return };
            let Some((id, step)) = msg.split_once('|') else { return };
            let (Some(l), Ok(step)) = (crate::lesson::find(id), step.parse::<usize>()) else { return };
            let modes = cur.modes;
            if step < l.steps.len() {
                move_to.emit((LessonAt { lesson: l, step, modes }, false));
            }
        });
    }
    {
        let follow = follow.clone();
        use_effect_with(channel.clone(), move |c| {
            let listener = c.as_ref().as_ref().map(|c| {
                gloo_events::EventListener::new(c, "message", move |e| {
                    if let Some(m) = e.dyn_ref::<web_sys::MessageEvent>().and_then(|m| m.data().as_string()) {
                        follow.borrow().emit(m);
                    }
                })
            });
            move || drop(listener)
        });
    }
    // A control tabbed to stays clear of the sticky header, whose height the page keeps.
    use_effect_with((), |_| {
        let window = web_sys::window().expect("a window");
        let doc = window.document().expect("a document");
        let focus = gloo_events::EventListener::new(&doc, "focusin", |e| {
            browser::keep_focus_clear_of_header(e.target())
        });
        let resize = gloo_events::EventListener::new(&window, "resize", |_| browser::measure_header());
        move || drop((focus, resize))
    });
    // A clicker's keys, while a lesson is open.
    let keys: Rc<RefCell<Callback<KeyCommand>>> = use_mut_ref(Callback::noop);
    {
        let (nav, ongo) = (nav.clone(), ongo.clone());
        *keys.borrow_mut() = Callback::from(move |k: KeyCommand| {
            let Some(at) = nav.at else { return };
            match k {
                KeyCommand::Next if at.step + 1 < at.lesson.steps.len() => ongo.emit(at.go(at.step + 1)),
                // On the last step the clicker follows the way on, which holds Next's place.
                KeyCommand::Next => ui_lesson::follow_finish(),
                KeyCommand::Back if at.step > 0 => ongo.emit(at.go(at.step - 1)),
                KeyCommand::Reveal => nav.set(Nav { revealed: !nav.revealed, ..(*nav).clone() }),
                KeyCommand::Play => ui_lesson::click_play(),
                KeyCommand::FullScreen => ui_lesson::toggle_full_screen(),
                KeyCommand::Language => ui_lesson::switch_language(),
                KeyCommand::Leave if at.modes.present => {
                    ongo.emit(LessonAt { modes: Modes { present: false, ..at.modes }, ..at })
                }
                _ => {}
            }
        });
    }
    {
        let keys = keys.clone();
        // The clicker's keys: on the stage, and in the speaker-notes window, which a clicker
        // drives as well when it has the focus (alone, PageDown and Space scroll the page).
        let present = nav.at.is_some_and(|a| a.modes.present || a.modes.notes);
        use_effect_with((nav.at.is_some(), present), move |&(on, present)| {
            let listener = on.then(|| {
                let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
                let opts = gloo_events::EventListenerOptions::enable_prevent_default();
                let pointer =
                    gloo_events::EventListener::new(&doc, "pointerdown", ui_lesson::note_focus_source);
                let key = gloo_events::EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                    ui_lesson::note_focus_source(e);
                    let Some(ke) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    if let Some(cmd) = ui_lesson::key_command(ke, present) {
                        ke.prevent_default();
                        keys.borrow().emit(cmd);
                    }
                });
                (pointer, key)
            });
            move || drop(listener)
        });
    }
    // Point at the step's figure once the step is drawn. A candidate's run hidden until
    // they answer is outlined but not scrolled to: the page would open on blank space below
    // the notice that says why; "Show the run" scrolls to it.
    {
        let spot = nav.at.map(|a| {
            let hidden = a.modes.candidate && a.step().question.is_some() && !nav.revealed;
            (a.step().spot, a.modes.present, nav.generation, !hidden)
        });
        use_effect_with(spot, |s| match *s {
            // Looked for every 150 ms for 15 s: a figure drawn from the step's run comes only
            // once the run is done, seconds later on a busy machine.
            Some((id, _, _, scroll)) => ui_lesson::spotlight(id, 100, scroll),
            None => ui_lesson::no_spotlight(),
        });
    }
    // In a lesson, what would answer the question is veiled until the answer is revealed
    // (presenting to a class, and alone: a figure beside "Ask first" answered it first).
    {
        let veil = nav.at.map(|a| (a, !nav.revealed, nav.generation));
        use_effect_with(veil, |v| {
            let ids = match v {
                Some((at, true, _)) => at.step().veiled(),
                _ => Vec::new(),
            };
            ui_lesson::veil(ids);
        });
    }
    // A revealed answer's figures are outlined where the page shows them (not for a
    // candidate, whose card shows the run but never the answer).
    {
        let answered = nav.at.map(|a| (a, nav.revealed, nav.generation));
        use_effect_with(answered, |v| match v {
            Some((at, true, _)) if !at.modes.candidate => {
                let step = at.step();
                let ids = step.answer_only_figures().into_iter().filter(|id| *id != step.spot).collect();
                ui_lesson::mark_answered(ids);
            }
            _ => ui_lesson::mark_answered(Vec::new()),
        });
    }
    let onreveal = {
        let nav = nav.clone();
        Callback::from(move |()| nav.set(Nav { revealed: !nav.revealed, ..(*nav).clone() }))
    };
    let onreset = {
        let (nav, shell) = (nav.clone(), shell.clone());
        Callback::from(move |()| {
            let Some(at) = nav.at else { return };
            let mut q = at.step().query();
            q.set("lang", shell.lang.code());
            at.write(&mut q);
            nav.set(Nav { start: Rc::new(q), generation: nav.generation + 1, ..(*nav).clone() });
        })
    };
    let onleave = {
        let nav = nav.clone();
        Callback::from(move |()| {
            ui_lesson::exit_full_screen();
            nav.set(Nav { at: None, ..(*nav).clone() });
        })
    };
    {
        // The speaker-notes window names itself, in its language (the pages' own effect, in
        // `Host`, is not drawn there): it had kept <html lang="en"> and the app's name alone.
        let notes = nav.at.is_some_and(|a| a.modes.notes);
        use_effect_with((notes, shell.lang), |(notes, lang)| {
            if *notes {
                let title = format!("{} · {}", lang.t(T::LessonNotes), lang.t(T::AppName));
                browser::set_document_lang_and_title(
                    lang.html_tag(),
                    &title,
                    &super::veil_words(*lang, T::VeilTag),
                );
            }
        });
    }
    if let Some(at) = nav.at.filter(|a| a.modes.notes) {
        let lang = shell.lang;
        return html! {
            <div class="app notes-window" lang={lang.html_tag()}>
                <main id="main"><NotesView {lang} {at} ongo={ongo} /></main>
            </div>
        };
    }
    html! {
        <Host key={nav.generation.to_string()} shell={shell} start={nav.start.clone()} at={nav.at}
            lesson_errors={Rc::new(link.errors.clone())} revealed={nav.revealed}
            {ongo} {onreveal} {onreset} {onleave} />
    }
}

#[derive(Properties, PartialEq)]
struct HostProps {
    shell: UseReducerHandle<Shell>,
    start: Rc<Query>,
    at: Option<LessonAt>,
    /// What the link got wrong about lessons.
    lesson_errors: Rc<Vec<crate::error::FieldError>>,
    revealed: bool,
    ongo: Callback<LessonAt>,
    onreveal: Callback<()>,
    onreset: Callback<()>,
    onleave: Callback<()>,
}

/// Every page's state, the header, the open page (with the lesson card over it) and the
/// footer.
#[component]
fn Host(props: &HostProps) -> Html {
    let start = props.start.clone();
    let shell = props.shell.clone();
    let at = props.at;
    // A link is one page's state: that page reads it (a queue link's `rate` and `seed` are
    // not the breaker lab's or the storm page's); the others start as the learner last left
    // them in this tab (a followed link, Back or a reload restarts the app), else from their
    // defaults. Read once, when the page's store starts (not on every render: a page not
    // yet left is looked for in session storage). A page the URL does not name was written
    // by this app (perhaps an older build of it): what it does not read or refuses falls
    // back quietly rather than warn about a link the learner did not follow.
    let url_page = Route::from_query(&start).page;
    macro_rules! restored {
        ($page:expr, $state:ty) => {{
            let start = start.clone();
            move || {
                if $page == url_page {
                    return <$state>::from_query(&start);
                }
                let mut st = <$state>::from_query(&left_as($page).unwrap_or_default());
                st.unknown = Default::default();
                st.errors = Default::default();
                st
            }
        }};
    }
    let calc = {
        let init = restored!(Page::Calculator, CalcState);
        use_reducer(move || CalcStore(init()))
    };
    let storm = {
        let init = restored!(Page::Storm, StormState);
        use_reducer(move || StormStore(init()))
    };
    let admission = {
        let init = restored!(Page::Admission, AdmissionState);
        use_reducer(move || LabStore(init()))
    };
    let queue = {
        let init = restored!(Page::Queue, QueueState);
        use_reducer(move || LabStore(init()))
    };
    let breaker = {
        let init = restored!(Page::Breaker, BreakerState);
        use_reducer(move || LabStore(init()))
    };
    let stability = {
        let init = restored!(Page::Stability, StabilityState);
        use_reducer(move || LabStore(init()))
    };

    let pages = Pages {
        calc: calc.0.clone(),
        storm: storm.0.clone(),
        admission: admission.0.clone(),
        queue: queue.0.clone(),
        breaker: breaker.0.clone(),
        stability: stability.0.clone(),
    };
    // Compact mode's way out: this state's link, without `embed`, on the same path.
    let full_page = shell.embed.then(|| {
        // A lesson step's figure opens that step (its link is the step's, not the page's).
        let mut q = page_query(&shell, &pages, at);
        q.remove("embed");
        format!("{}{}", browser::current_path(), q.to_query_string())
    });
    // The header's rows change with the language and the page (a lesson's header is not
    // sticky).
    use_effect_with((shell.lang, shell.page, shell.embed, at.map(|a| a.modes.present)), |_| {
        browser::measure_header()
    });
    {
        let shell_now = (*shell).clone();
        use_effect_with((shell_now, pages.clone(), at), |(shell, pages, at)| {
            let q = page_query(shell, pages, *at);
            browser::replace_query(&q);
            // A lesson step's state is the step's, not the learner's own page; an embedded
            // figure's is the page that embeds it (it shares the tab's session storage).
            if at.is_none() && !shell.embed {
                leave_as(shell.page, q);
            }
            browser::save_lang(shell.lang.code());
            let title = format!("{} · {}", shell.lang.t(shell.page.label()), shell.lang.t(T::AppName));
            browser::set_document_lang_and_title(
                shell.lang.html_tag(),
                &title,
                &super::veil_words(shell.lang, T::VeilTag),
            );
        });
    }

    let lang = shell.lang;
    let t = |k: T| lang.t(k);
    let lang_buttons: Html = Lang::ALL
        .into_iter()
        .map(|l| {
            let s = shell.clone();
            let name = match l {
                Lang::Zh => "中文",
                Lang::En => "English",
            };
            html! {
                <button
                    type="button"
                    id={format!("lang-{}", l.code())}
                    class={classes!("lang", (l == lang).then_some("active"))}
                    aria-pressed={if l == lang { "true" } else { "false" }}
                    lang={l.html_tag()}
                    title={t(T::LanguageSwitchHelp)}
                    onclick={Callback::from(move |_| s.dispatch(ShellAction::SetLang(l)))}
                >{ name }</button>
            }
        })
        .collect();
    let nav: Html = Page::ALL
        .into_iter()
        .map(|p| {
            let s = shell.clone();
            let href = format!("?page={}&lang={}", p.slug(), lang.code());
            // In a lesson the page is the lesson's: "Lessons" is where the learner is.
            let current = if at.is_some_and(|a| a.step().page() == shell.page) {
                p == Page::Lessons
            } else {
                p == shell.page
            };
            html! {
                <a
                    href={href}
                    id={format!("nav-{}", p.slug())}
                    class={classes!("nav-link", current.then_some("active"))}
                    aria-current={if current { Some("page") } else { None }}
                    onclick={Callback::from(move |e: MouseEvent| {
                        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                            e.prevent_default();
                            // A history entry, so Back returns to the page left (its
                            // entry's URL keeps that page's state; see `links`); the other
                            // pages' state stays in memory, so no restart.
                            super::links::go_to(&format!("?page={}&lang={}", p.slug(), lang.code()));
                            s.dispatch(ShellAction::Go(p));
                        }
                    })}
                >{ t(p.label()) }</a>
            }
        })
        .collect();
    let mut notices: Vec<String> = Vec::new();
    if let Some(p) = &shell.unknown_page {
        let pages: Vec<String> = Page::ALL.iter().map(|p| p.slug().to_string()).collect();
        notices.push(lang.f(T::PageNotFound, &[("page", p), ("pages", &lang.list(&pages, 8))]));
    }
    if let Some(l) = &shell.unknown_lang {
        notices.push(lang.f(T::LangNotFound, &[("lang", l), ("shown", lang.t(T::LangName))]));
    }
    if let Some(v) = &shell.bad_embed {
        let allowed = crate::error::Allowed::OneOf { choices: vec!["0".into(), "1".into()] };
        notices.push(lang.field_error(&crate::error::FieldError::new("embed", v, allowed)));
    }
    notices.extend(props.lesson_errors.iter().map(|e| lang.field_error(e)));
    if !shell.unused.is_empty() {
        notices.push(lang.f(T::UnknownParam, &[("keys", &lang.list(&shell.unused, 8))]));
    }
    if !shell.repeated.is_empty() {
        notices.push(lang.f(T::RepeatedParam, &[("keys", &lang.list(&shell.repeated, 8))]));
    }
    let notice = (!notices.is_empty()).then(|| {
        let s = shell.clone();
        html! {
            <div class="notice" role="status" id="link-notice">
                { for notices.iter().map(|n| html! { <p>{ n }</p> }) }
                <button type="button" class="close" aria-label={t(T::Dismiss)} title={t(T::Dismiss)}
                    onclick={Callback::from(move |_| s.dispatch(ShellAction::DismissNotice))}>{ "×" }</button>
            </div>
        }
    });
    let page = match shell.page {
        Page::Storm => {
            let cue = at.and_then(|a| a.step().playback);
            let hop = at.and_then(|a| a.step().hop);
            html! {
                <StormPage {lang} state={storm.0.clone()} {cue} {hop} in_lesson={at.is_some()}
                    revealed={at.is_some() && props.revealed}
                    dispatch={storm.dispatcher().to_callback()} />
            }
        }
        Page::Lessons => html! { <LessonsPage {lang} /> },
        Page::Stability => {
            html! {
                <StabilityPage {lang} embed={shell.embed} state={stability.0.clone()}
                    dispatch={stability.dispatcher().to_callback()} />
            }
        }
        Page::Calculator => {
            html! {
                <CalculatorPage {lang} state={calc.0.clone()}
                    dispatch={calc.dispatcher().to_callback()} />
            }
        }
        Page::Admission => {
            html! {
                <AdmissionPage {lang} in_lesson={at.is_some()} state={admission.0.clone()}
                    dispatch={admission.dispatcher().to_callback()} />
            }
        }
        Page::Queue => {
            html! {
                <QueuePage {lang} state={queue.0.clone()}
                    dispatch={queue.dispatcher().to_callback()} />
            }
        }
        Page::Breaker => {
            html! {
                <BreakerPage {lang} in_lesson={at.is_some()} state={breaker.0.clone()}
                    dispatch={breaker.dispatcher().to_callback()} />
            }
        }
    };
    // The lesson card: the step's knobs come from the page's own controls.
    let card = at.filter(|a| a.step().page() == shell.page).map(|at| {
        let step = at.step();
        let knobs: Html = step
            .knobs
            .iter()
            .filter_map(|k| match shell.page {
                Page::Storm => super::storm::controls::step_knob(lang, &storm.0, &storm.dispatcher().to_callback(), k),
                Page::Calculator => super::calculator::step_knob(lang, &calc.0, &calc.dispatcher().to_callback(), k),
                Page::Admission => super::admission::step_knob(lang, &admission.0, &admission.dispatcher().to_callback(), k),
                Page::Queue => super::queue::step_knob(lang, &queue.0, &queue.dispatcher().to_callback(), k),
                Page::Breaker => super::breaker::step_knob(lang, &breaker.0, &breaker.dispatcher().to_callback(), k),
                Page::Stability => super::stability::step_knob(lang, &stability.0, &stability.dispatcher().to_callback(), k),
                Page::Lessons => None,
            })
            .collect();
        let settings = std::rc::Rc::new(match shell.page {
            Page::Storm => storm.0.lesson_settings(),
            Page::Calculator => calc.0.lesson_settings(),
            Page::Admission => admission.0.lesson_settings(),
            Page::Queue => queue.0.lesson_settings(),
            Page::Breaker => breaker.0.lesson_settings(),
            Page::Stability | Page::Lessons => Vec::new(),
        });
        let modified = {
            let mut now = Query::new();
            state_query(shell.page, &pages, &mut now);
            now != normal_state(shell.page, &step.query())
        };
        html! {
            <LessonCard {lang} {at} revealed={props.revealed} {modified} {knobs} {settings}
                ongo={props.ongo.clone()} onreveal={props.onreveal.clone()} onreset={props.onreset.clone()} onleave={props.onleave.clone()} />
        }
    });
    let in_lesson = card.is_some();
    let present = at.is_some_and(|a| a.modes.present) && in_lesson;
    // A candidate's step with a question hides the run until they have answered (the card's
    // "Show the run"): its figures are the answer.
    let wait =
        in_lesson && !props.revealed && at.is_some_and(|a| a.modes.candidate && a.step().question.is_some());
    let page = if let Some(card) = card {
        html! {
            <div class="lesson-layout">{ card }
                <div class="lesson-page">
                    if wait { <p class="panel run-hidden" id="lesson-run-hidden">{ t(T::LessonRunHidden) }</p> }
                    <div class="lesson-page-body">{ page }</div>
                </div>
            </div>
        }
    } else {
        page
    };
    html! {
        <div class={classes!("app", shell.embed.then_some("embed"), in_lesson.then_some("in-lesson"), present.then_some("present"), wait.then_some("candidate-wait"))} lang={lang.html_tag()}>
            <a class="skip" id="skip-main" href="#main">{ t(T::SkipToContent) }</a>
            // A stage whose whole figure is veiled says so (the style sheet shows this only
            // then; the card's reveal button is the way to it, so readers skip it).
            if present {
                <p class="veil-label" id="veil-label" aria-hidden="true">{ super::veil_words(lang, T::VeiledStage) }</p>
            }
            if shell.page == Page::Storm {
                // A fragment link: `links.rs` scrolls to Play and gives it the focus.
                <a class="skip" id="skip-play" href="#play">{ t(T::SkipToPlayback) }</a>
            }
            // Every page but the lessons puts its settings after its figures in tab order (and
            // the figures first on a phone's screen): this reaches them in one step.
            if shell.page != Page::Lessons && !in_lesson {
                <a class="skip" id="skip-controls" href="#controls-toggle" onclick={Callback::from(|e: MouseEvent| {
                    e.prevent_default();
                    focus_controls();
                })}>{ t(T::SkipToControls) }</a>
            }
            <header class="top">
                <div class="brand">
                    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true">
                        <path d="M4 16h6l3-8 6 16 3-8h6" />
                    </svg>
                    <div>
                        <div class="name">{ t(T::AppName) }</div>
                        <div class="tagline">{ t(T::AppTagline) }</div>
                    </div>
                </div>
                if let Some(href) = full_page {
                    // Compact mode: no navigation, one way out to the full page.
                    <a class="open-full" id="open-full" target="_blank" rel="noopener" title={t(T::EmbedOpenFullHelp)}
                        {href}>{ t(T::EmbedOpenFull) }</a>
                } else {
                    <nav aria-label={t(T::NavLabel)}>{ nav }</nav>
                }
                <div class="langs" role="group" aria-label={t(T::LanguageLabel)}>{ lang_buttons }</div>
            </header>
            { for notice }
            <main id="main"><ContextProvider<OnStage> context={OnStage(present)}>{ page }</ContextProvider<OnStage>></main>
            <footer>
                <p id="footer-model">{ t(T::FooterModel) }</p>
                <p>{ t(T::FooterOffline) }</p>
            </footer>
        </div>
    }
}

/// Focuses the settings' first control, or their toggle while they are folded (a control
/// inside folded settings cannot take the focus).
fn focus_controls() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let first = "details.controls-wrap[open] :is(input, select, button, textarea)";
    for css in [first, "#controls-toggle"] {
        if let Some(el) =
            doc.query_selector(css).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
            if doc.active_element().is_some_and(|a| a == *el) {
                return;
            }
        }
    }
}
