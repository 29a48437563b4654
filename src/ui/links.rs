//! Links inside the app open without reloading it. A link is the whole state of a page, so
//! following one means starting the app again from that URL: [`Root`] remounts [`App`]
//! instead of the browser reloading the module and restarting the workers' downloads. Each
//! followed link adds a history entry, and Back and Forward start the app from the entry's
//! URL (which the page kept current with its state), exactly as a reload of it would.
//!
//! Followed here: a plain left click on an `<a>` (HTML or SVG) whose `href` is a query of
//! this page (`?page=…`, a lesson step, a stability cell's run). A fragment (`#main`, a
//! lesson's "Go to the figure") scrolls to its element and moves the focus there, without
//! a history entry: followed by the browser it fired `popstate`, which started the app
//! again from the top and, on a phone, undid the jump. Left to the browser: links with a
//! `target` or `download`, other sites, and clicks with a modifier key (a new tab or
//! window), as well as clicks a component already handled.

use super::app::App;
use gloo_events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// How many times the app was started from a URL in this page (its `key`).
#[derive(Default, PartialEq)]
struct Starts(u32);

impl Reducible for Starts {
    type Action = ();
    fn reduce(self: Rc<Self>, (): ()) -> Rc<Self> {
        Rc::new(Starts(self.0.wrapping_add(1)))
    }
}

/// The app, started again from the URL whenever an in-app link is followed or the history
/// moves.
#[component]
pub fn Root() -> Html {
    let starts = use_reducer(Starts::default);
    {
        let starts = starts.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("a window");
            let doc = window.document().expect("a document");
            // Scroll positions are restored here, once the page is drawn again.
            if let Ok(h) = window.history() {
                let _ = h.set_scroll_restoration(web_sys::ScrollRestoration::Manual);
            }
            let restart = {
                let starts = starts.clone();
                Callback::from(move |()| starts.dispatch(()))
            };
            RESTART.with(|r| *r.borrow_mut() = Some(restart));
            let opts = EventListenerOptions::enable_prevent_default();
            let on_click = EventListener::new_with_options(&doc, "click", opts, move |e| {
                if let Some(id) = fragment_id(e) {
                    e.prevent_default();
                    show_fragment_when_drawn(id, FRAGMENT_LOOKS);
                } else if let Some(href) = in_app_href(e) {
                    e.prevent_default();
                    // The page under a lesson's card, not the card's own links (the index, the
                    // last step's "All lessons"), which leave the lesson on purpose.
                    let in_page = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|t| t.closest(".lesson-page-body").ok().flatten().is_some());
                    if in_page { open_from_page(&href) } else { open(&href) }
                }
            });
            // A reload puts the learner back where they were (the browser's own restoring
            // is off, above): how far down, and the settings open if they were.
            let on_hide = EventListener::new(&window, "pagehide", |_| keep_as_hidden());
            restore_after_reload();
            let on_history = EventListener::new(&window, "popstate", move |_| {
                BY_HISTORY.with(|b| b.set(true));
                super::browser::drop_pending_url();
                let left = left_here();
                keep_language();
                starts.dispatch(());
                restore_scroll(left.y, left.focus);
            });
            move || {
                RESTART.with(|r| r.borrow_mut().take());
                drop((on_click, on_history, on_hide));
            }
        });
    }
    html! { <App key={starts.0.to_string()} /> }
}

/// Whether the app was last started again by Back or Forward, rather than by a link
/// followed (the lesson card keeps a revealed answer for the one, not the other).
pub fn started_by_history() -> bool {
    BY_HISTORY.with(|b| b.get())
}

thread_local! {
    /// See [`started_by_history`].
    static BY_HISTORY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Starts the app again from the URL; set while [`Root`] is mounted.
    static RESTART: RefCell<Option<Callback<()>>> = const { RefCell::new(None) };
    /// How far each page left through a link was scrolled, by its URL (the entry's URL when
    /// Back returns to it, since the page kept it current).
    // A list, not a map: a session visits a handful of pages, and a `HashMap` of its own
    // costs the bundle its hashing and growth code.
    static SCROLLED: RefCell<Vec<Left>> = const { RefCell::new(Vec::new()) };
}

/// A page as it was left through a link: its URL, how far it was scrolled, and what had
/// the focus (the link followed, from the keyboard), so that Back returns to both.
#[derive(Clone, Debug, Default)]
struct Left {
    href: String,
    y: f64,
    focus: Option<Focused>,
}

/// How to find the focused element again in the page drawn anew: by its id, or a link by
/// its `href` (the diagram's links to the labs have no id).
#[derive(Clone, Debug, PartialEq)]
enum Focused {
    Id(String),
    Link(String),
}

/// How the page at this URL was when it was left through a link (at its top, nothing
/// focused, if it was not).
fn left_here() -> Left {
    let href = super::browser::location("href");
    SCROLLED.with(|m| m.borrow().iter().find(|l| l.href == href).cloned()).unwrap_or_default()
}

/// What has the focus now, as [`Focused`] (nothing: the page itself).
fn focused_now() -> Option<Focused> {
    let el = web_sys::window()?.document()?.active_element()?;
    if !el.id().is_empty() {
        return Some(Focused::Id(el.id()));
    }
    let a = el.closest("a[href]").ok()??;
    Some(Focused::Link(a.get_attribute("href")?))
}

/// Gives the focus back to `f` in the page drawn anew, without scrolling (the scroll is
/// restored apart); whether it was there to take it.
fn refocus(f: &Focused) -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return true };
    let el = match f {
        Focused::Id(id) => doc.get_element_by_id(id),
        Focused::Link(href) => doc.query_selector_all("a[href]").ok().and_then(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
                .find(|a| a.get_attribute("href").as_deref() == Some(href))
        }),
    };
    let Some(el) = el else { return false };
    let opts = web_sys::FocusOptions::new();
    opts.set_prevent_scroll(true);
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus_with_options(&opts);
    } else if let Some(s) = el.dyn_ref::<web_sys::SvgElement>() {
        let _ = s.focus_with_options(&opts);
    }
    true
}

/// Back and Forward keep the language last chosen in this browser: an entry written before
/// the switch would otherwise bring the other language back. (A link opened afresh keeps
/// its own `lang`.)
fn keep_language() {
    let Some(saved) = super::browser::saved_lang() else { return };
    let mut q = super::browser::current_query();
    if q.get("lang").is_some_and(|l| l != saved) {
        q.set("lang", saved);
        super::browser::replace_query(&q);
    }
}

/// Back or Forward to a page left through a link: scroll to `y`, where it was, and give the
/// focus back to what had it (a keyboard's reader had been sent to the page's top). Its
/// figures come from a run in a worker, so the page may not be that tall yet, nor the
/// focused link drawn: try for a moment.
fn restore_scroll(y: f64, focus: Option<Focused>) {
    restore_scroll_within(y, focus, 30);
}

/// Where this tab keeps how its page was when it was hidden (`open|y|href`: the settings
/// open, `1` or `0`; the scroll in whole CSS px; the URL), for [`restore_after_reload`].
const AS_HIDDEN_KEY: &str = "resilience-lab.as-hidden";

/// Keeps how the page is now (see [`AS_HIDDEN_KEY`]); on `pagehide`, so the value is the
/// one a reload finds.
fn keep_as_hidden() {
    let Some(window) = web_sys::window() else { return };
    // The URL still waiting to be written is the one the reload opens.
    super::browser::flush_url();
    // Whole pixels: parsing them back needs no float parser in the bundle (core's costs
    // ≈ 16 KB, measured).
    let y = window.scroll_y().unwrap_or(0.0).round() as i64;
    let open = window
        .document()
        .and_then(|d| d.query_selector("details.controls-wrap[open]").ok().flatten())
        .is_some();
    let href = super::browser::location("href");
    super::browser::session_set(AS_HIDDEN_KEY, &format!("{}|{y}|{href}", u8::from(open)));
}

/// After a reload of the same URL: opens the settings if they were open (they start folded
/// on a narrow screen) and scrolls back to where the page was, once it is drawn that far
/// (a student who reloaded had found the settings folded and the page at its top).
fn restore_after_reload() {
    if !super::browser::is_reload() {
        return;
    }
    let Some(kept) = super::browser::session_get(AS_HIDDEN_KEY) else { return };
    let mut parts = kept.splitn(3, '|');
    let (Some(open), Some(y), Some(href)) = (parts.next(), parts.next(), parts.next()) else { return };
    if href != super::browser::location("href") {
        return;
    }
    let (open, y) = (open == "1", y.parse::<i64>().unwrap_or(0) as f64);
    gloo_timers::callback::Timeout::new(0, move || {
        if open
            && let Some(d) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector("details.controls-wrap").ok().flatten())
        {
            let _ = d.set_attribute("open", "");
        }
        // Up to 5 s: the figures that make the page that long come from a worker's run.
        restore_scroll_within(y, None, 100);
    })
    .forget();
}

/// [`restore_scroll`], trying again every 50 ms up to `tries` times while the page is not
/// yet that long or the focus not yet there to take.
fn restore_scroll_within(y: f64, focus: Option<Focused>, tries: u32) {
    fn attempt(y: f64, focus: Option<Focused>, left: u32) {
        let Some(window) = web_sys::window() else { return };
        let room = window
            .document()
            .and_then(|d| d.document_element())
            .map_or(0.0, |e| f64::from(e.scroll_height()))
            - window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
        window.scroll_to_with_x_and_y(0.0, y.min(room.max(0.0)));
        let focus = focus.filter(|f| !refocus(f));
        if (room < y || focus.is_some()) && left > 0 {
            gloo_timers::callback::Timeout::new(50, move || attempt(y, focus, left - 1)).forget();
        }
    }
    // After the app has drawn again from the URL.
    gloo_timers::callback::Timeout::new(0, move || attempt(y, focus, tries)).forget();
}

/// Opens `query` (a link of this page, `?page=…`) as a followed link would: a history entry,
/// out of full screen, at the top, the app started from it. Without [`Root`] (a test
/// harness), the browser loads it.
pub fn open(query: &str) {
    let Some(window) = web_sys::window() else { return };
    let Some(restart) = RESTART.with(|r| r.borrow().clone()) else {
        let _ = window.location().assign(query);
        return;
    };
    go_to(query);
    super::lesson::exit_full_screen();
    restart.emit(());
}

/// Opens `query` from a link in the page's own content (a stability cell's run, a diagram
/// badge's lab). During a lesson one that leaves it opens in a new tab: followed in place
/// it dropped the lesson, and the presenter's stage with it, in front of the class. (Only
/// a page shown under a lesson's card calls this with a lesson open.)
pub fn open_from_page(query: &str) {
    let in_lesson = super::browser::current_query().get("lesson").is_some();
    let leaves = crate::query::Query::parse(query).get("lesson").is_none();
    match web_sys::window() {
        Some(w) if in_lesson && leaves => {
            let _ = w.open_with_url_and_target(query, "_blank");
        }
        _ => open(query),
    }
}

/// A history entry for `query`, shown from its top: a page opened, not a page scrolled.
pub fn go_to(query: &str) {
    BY_HISTORY.with(|b| b.set(false));
    push_url(query);
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The id a plain click on a fragment link (`href="#id"`) points at, if no component handled
/// the click already.
fn fragment_id(e: &web_sys::Event) -> Option<String> {
    let click = e.dyn_ref::<web_sys::MouseEvent>()?;
    let modified = click.ctrl_key() || click.meta_key() || click.shift_key() || click.alt_key();
    if e.default_prevented() || click.button() != 0 || modified {
        return None;
    }
    let el: web_sys::Element = e.target()?.dyn_into().ok()?;
    let a = el.closest("a[href^='#']").ok()??;
    Some(a.get_attribute("href")?.strip_prefix('#').filter(|id| !id.is_empty())?.to_string())
}

/// Looks for a fragment's element this many times, every [`FRAGMENT_LOOK_MS`] (9 s in all).
const FRAGMENT_LOOKS: u32 = 60;
const FRAGMENT_LOOK_MS: u32 = 150;

/// Shows the element with `id` (see [`show_fragment`]) once it is drawn: a lesson step's
/// figure comes with its run, seconds after the card on a busy machine, and "Go to the
/// figure" tapped before it had done nothing at all.
fn show_fragment_when_drawn(id: String, tries: u32) {
    match web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&id)) {
        Some(el) => show_fragment(&el),
        None if tries > 0 => {
            let look = move || show_fragment_when_drawn(id, tries - 1);
            gloo_timers::callback::Timeout::new(FRAGMENT_LOOK_MS, look).forget();
        }
        None => {}
    }
}

/// Brings a fragment's element into view (centred, or from its top when taller than 80 %
/// of the window) and gives it the focus, as following the link would.
fn show_fragment(el: &web_sys::Element) {
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        if h.tab_index() < 0 && !h.has_attribute("tabindex") {
            let _ = h.set_attribute("tabindex", "-1");
        }
        let _ = h.focus();
    }
    let vh = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0);
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(if el.get_bounding_client_rect().height() > 0.8 * vh {
        web_sys::ScrollLogicalPosition::Start
    } else {
        web_sys::ScrollLogicalPosition::Center
    });
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}

/// The `href` of the in-app link a click follows, if it is one this module handles.
fn in_app_href(e: &web_sys::Event) -> Option<String> {
    let click = e.dyn_ref::<web_sys::MouseEvent>()?;
    let modified = click.ctrl_key() || click.meta_key() || click.shift_key() || click.alt_key();
    if e.default_prevented() || click.button() != 0 || modified {
        return None;
    }
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let link = target.closest("a").ok()??;
    if link.has_attribute("target") || link.has_attribute("download") {
        return None;
    }
    link.get_attribute("href").filter(|h| h.starts_with('?'))
}

/// Adds a history entry for `query` on this page's path, remembering how far the page
/// being left was scrolled and what had the focus.
pub fn push_url(query: &str) {
    // The entry left keeps the page's latest state.
    super::browser::flush_url();
    let Some(window) = web_sys::window() else { return };
    let href = super::browser::location("href");
    if !href.is_empty()
        && let Ok(y) = window.scroll_y()
    {
        let left = Left { href, y, focus: focused_now() };
        SCROLLED.with(|m| {
            let mut m = m.borrow_mut();
            match m.iter_mut().find(|l| l.href == left.href) {
                Some(entry) => *entry = left,
                None => m.push(left),
            }
        });
    }
    let path = window.location().pathname().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ =
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}")));
    }
}

/// How long a view value (a paused playhead, a picked hop) must hold before it is written
/// into the page's state and so its link (ms): a scrub sends an input event per step, and
/// each state change re-renders the whole page, its controls included.
const VIEW_SETTLES_MS: u32 = 250;

/// Writes a view value into the page's state (`emit`), and so into its link, once it has
/// held for [`VIEW_SETTLES_MS`]: `want` is what the page shows, `have` what its state
/// holds; nothing is written where `writes` is false (in a lesson the step's state is the
/// step's; before a run there is nothing to point at).
#[hook]
pub fn use_view_in_link<T: Clone + PartialEq + 'static>(want: T, have: T, writes: bool, emit: Callback<T>) {
    let timer = use_mut_ref(|| None::<gloo_timers::callback::Timeout>);
    use_effect_with((want, have, writes), move |(want, have, writes)| {
        // A newer value cancels the older one's write (dropping its timer).
        *timer.borrow_mut() = (*writes && want != have).then(|| {
            let want = want.clone();
            gloo_timers::callback::Timeout::new(VIEW_SETTLES_MS, move || emit.emit(want))
        });
    });
}
