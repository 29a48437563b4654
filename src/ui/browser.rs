//! The few browser facts the app reads and writes: the URL query, saved settings, the
//! browser's languages. Every call tolerates a missing window or storage (private mode,
//! test harness) instead of panicking.

use crate::query::Query;
use std::cell::{Cell, RefCell};

const LANG_KEY: &str = "resilience-lab.lang";

/// The current page's query string, parsed (after writing any change still waiting).
pub fn current_query() -> Query {
    flush_url();
    Query::parse(&location("search"))
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    /// The string's UTF-8 bytes, encoded by the browser.
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &wasm_bindgen::JsValue) -> js_sys::Uint8Array;
}

/// A part of the page's address (`search`, `href`), read as bytes the browser encodes.
///
/// A link can be long (a fuzzer's or a pasted page's, 100 KB), and the glue that hands a
/// string to wasm copies it in a JavaScript loop, one character at a time: before the
/// engine had compiled that loop, a 100 KB link took ≈ 15 ms a read (measured), three
/// reads for a Back or Forward. The encoder is the browser's own code, and the bytes come
/// over in one copy.
pub fn location(part: &str) -> String {
    let Some(window) = web_sys::window() else { return String::new() };
    let Ok(text) = js_sys::Reflect::get(&window.location(), &part.into()) else { return String::new() };
    let bytes = TextEncoder::new().encode(&text).to_vec();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// How long a change of the page's state waits before it is written to the URL (ms).
/// Writing it (`history.replaceState`) costs the main thread ≈ 4 ms (measured), which
/// would otherwise be part of every slider move's redraw; meanwhile the link, copy and
/// export read it through [`flush_url`].
const URL_DELAY_MS: u32 = 100;

thread_local! {
    /// The URL waiting to be written, and which write it is (a later one replaces it).
    static PENDING_URL: RefCell<Option<(String, u64)>> = const { RefCell::new(None) };
    static URL_WRITES: Cell<u64> = const { Cell::new(0) };
    /// Session-storage writes waiting (see [`session_set_soon`]), the latest per key.
    static PENDING_SESSION: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
    /// Whether the writes waiting are flushed when the tab hides or unloads.
    static FLUSH_ON_HIDE: Cell<bool> = const { Cell::new(false) };
}

/// Writes whatever waits (the URL, session storage) when the page is hidden or left:
/// a reload or a closed tab within [`URL_DELAY_MS`] of a change keeps it. (`pagehide` for
/// a reload or a closed tab; `visibilitychange` too, since a phone may discard a tab in the
/// background without a `pagehide`.)
fn flush_on_hide() {
    use wasm_bindgen::JsCast;
    if FLUSH_ON_HIDE.with(|f| f.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let flush = wasm_bindgen::closure::Closure::<dyn Fn()>::new(|| {
        flush_url();
        flush_session();
    });
    let _ = window.add_event_listener_with_callback("pagehide", flush.as_ref().unchecked_ref());
    let _ = window.add_event_listener_with_callback("visibilitychange", flush.as_ref().unchecked_ref());
    flush.forget(); // for the page's life
}

/// Writes `value` under `key` in the tab's session storage after [`URL_DELAY_MS`], as the
/// URL is written: a write costs the main thread ≈ 2 ms on the storm page (measured), which
/// every slider move's redraw waited for. A later value for the key replaces a waiting one.
pub fn session_set_soon(key: &str, value: &str) {
    flush_on_hide();
    let first = PENDING_SESSION.with(|p| {
        let mut p = p.borrow_mut();
        let first = p.is_empty();
        p.retain(|(k, _)| k != key);
        p.push((key.to_string(), value.to_string()));
        first
    });
    if first {
        gloo_timers::callback::Timeout::new(URL_DELAY_MS, flush_session).forget();
    }
}

/// Writes the session-storage values still waiting, now.
pub fn flush_session() {
    for (k, v) in PENDING_SESSION.with(|p| std::mem::take(&mut *p.borrow_mut())) {
        session_set(&k, &v);
    }
}

/// Replaces the URL's query without reloading or adding a history entry, keeping the
/// path (so the app works under any sub-path) and the fragment. The write waits
/// [`URL_DELAY_MS`], so a drag writes its last position once.
pub fn replace_query(q: &Query) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{}{}{}", path, q.to_query_string(), hash);
    // Every state change lands here, most with the URL unchanged.
    let search = self::location("search");
    if url == format!("{path}{search}{hash}") {
        PENDING_URL.with(|p| p.borrow_mut().take());
        return;
    }
    let n = URL_WRITES.with(|w| {
        w.set(w.get() + 1);
        w.get()
    });
    PENDING_URL.with(|p| *p.borrow_mut() = Some((url, n)));
    flush_on_hide();
    gloo_timers::callback::Timeout::new(URL_DELAY_MS, move || {
        // Only the latest write: an earlier timer finds a later one waiting, or none.
        if PENDING_URL.with(|p| p.borrow().as_ref().is_some_and(|(_, m)| *m == n)) {
            flush_url();
        }
    })
    .forget();
}

/// Writes the URL change still waiting, if any, now: before anything reads the URL or
/// adds a history entry after it.
pub fn flush_url() {
    let Some((url, _)) = PENDING_URL.with(|p| p.borrow_mut().take()) else { return };
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Forgets the URL change still waiting: the history moved (Back or Forward), and the
/// change was for the entry left, not the one shown now.
pub fn drop_pending_url() {
    PENDING_URL.with(|p| p.borrow_mut().take());
}

/// The page's path (the site may live under any sub-path).
pub fn current_path() -> String {
    web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default()
}

/// The full URL of the page, for the copy-link button (after writing any change still
/// waiting).
pub fn current_href() -> String {
    flush_url();
    location("href")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether this document was loaded by a reload (the Navigation Timing entry's `type`), not
/// opened from a link, typed, or reached by Back and Forward.
pub fn is_reload() -> bool {
    navigation_type().as_deref() == Some("reload")
}

/// Whether this document was reloaded or reached by Back or Forward: a page the learner
/// comes back to, rather than a link opened.
pub fn came_back() -> bool {
    matches!(navigation_type().as_deref(), Some("reload" | "back_forward"))
}

/// How this document was reached (the Navigation Timing entry's `type`).
fn navigation_type() -> Option<String> {
    let p = web_sys::window().and_then(|w| w.performance())?;
    let entry = p.get_entries_by_type("navigation").get(0);
    js_sys::Reflect::get(&entry, &"type".into()).ok().and_then(|t| t.as_string())
}

/// A value kept for this tab's session (it survives a reload, not the tab).
pub fn session_get(key: &str) -> Option<String> {
    // A value still waiting to be written is the one in force.
    if let Some(v) =
        PENDING_SESSION.with(|p| p.borrow().iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()))
    {
        return Some(v);
    }
    web_sys::window()?.session_storage().ok()??.get_item(key).ok()?
}

/// Keeps a value for this tab's session.
pub fn session_set(key: &str, value: &str) {
    // A value still waiting for this key would be written over this one.
    PENDING_SESSION.with(|p| p.borrow_mut().retain(|(k, _)| k != key));
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok()).flatten() {
        let _ = s.set_item(key, value);
    }
}

/// The language saved by an earlier visit.
pub fn saved_lang() -> Option<String> {
    storage()?.get_item(LANG_KEY).ok()?
}

thread_local! {
    /// The language this page last saved (storage is read and written only on a change).
    static SAVED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Remembers the language for the next visit.
pub fn save_lang(code: &str) {
    if SAVED.with(|s| s.borrow().as_deref() == Some(code)) {
        return;
    }
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, code);
    }
    SAVED.with(|s| *s.borrow_mut() = Some(code.to_string()));
}

/// The browser's preferred languages, most preferred first.
pub fn browser_languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return Vec::new() };
    let mut out: Vec<String> = nav.languages().iter().filter_map(|v| v.as_string()).collect();
    if out.is_empty()
        && let Some(l) = nav.language()
    {
        out.push(l);
    }
    out
}

/// Sets `<html lang>`, the document title, and the words the style sheet shows on a
/// lesson's veiled card (`--veil-tag`, a CSS string: the style sheet has no text of its own).
pub fn set_document_lang_and_title(tag: &str, title: &str, veil_tag: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    // Only when they change: setting `lang` on the root element, even to the value it has,
    // makes the browser restyle the whole document (≈ 15 ms on the storm page, measured),
    // and this runs after every change of the page's state.
    if let Some(el) = doc.document_element()
        && el.get_attribute("lang").as_deref() != Some(tag)
    {
        let _ = el.set_attribute("lang", tag);
    }
    // Likewise only when it changes (the page may start with its language's `lang` already).
    if let Some(root) = doc.document_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let quoted = format!("\"{}\"", veil_tag.replace('\\', "\\\\").replace('"', "\\\""));
        if root.style().get_property_value("--veil-tag").ok().as_deref() != Some(quoted.as_str()) {
            let _ = root.style().set_property("--veil-tag", &quoted);
        }
    }
    if doc.title() != title {
        doc.set_title(title);
    }
}

/// Once the change being made has been drawn, if the focus was lost on the way (the
/// pressed button went with the view it replaced, or turned disabled), moves it to the
/// first of `ids` that is on the page and enabled: a keyboard user stays where they were
/// instead of starting again from the top.
pub fn focus_after_render<S: Into<String>>(ids: impl IntoIterator<Item = S>) {
    let ids: Vec<String> = ids.into_iter().map(Into::into).collect();
    gloo_timers::callback::Timeout::new(0, move || {
        use wasm_bindgen::JsCast;
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        // A button just disabled still holds the focus until the browser's next update.
        let lost = doc
            .active_element()
            .is_none_or(|a| a.tag_name() == "BODY" || !a.is_connected() || a.has_attribute("disabled"));
        if !lost {
            return;
        }
        let usable = |id: &String| {
            let el = doc.get_element_by_id(id)?.dyn_into::<web_sys::HtmlElement>().ok()?;
            (!el.has_attribute("disabled")).then_some(el)
        };
        if let Some(el) = ids.iter().find_map(usable) {
            // A heading takes the focus as a fragment link's target does.
            if el.tab_index() < 0 && !el.has_attribute("tabindex") {
                let _ = el.set_attribute("tabindex", "-1");
            }
            let _ = el.focus();
        }
    })
    .forget();
}

/// Opens the page's folded settings (a phone's) and brings them into view, their toggle
/// focused: the link by the intro (`lab::to_settings_link`).
pub fn open_settings() {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(d) = doc.query_selector("details.controls-wrap").ok().flatten() {
        let _ = d.set_attribute("open", "");
    }
    if let Some(s) =
        doc.get_element_by_id("controls-toggle").and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        s.scroll_into_view();
        let _ = s.focus();
    }
}

/// Whether the window is wide enough for the controls beside the figures (the CSS
/// breakpoint, 1000 px).
pub fn is_wide() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(min-width: 1001px)").ok().flatten())
        .is_none_or(|m| m.matches())
}

/// Keeps the sticky header's height in the CSS variable `--header-h` (0 where the header
/// scrolls away: a phone, a lesson, presenter mode): the page's scroll padding and the
/// storm page's sticky controls start below it. Its height changes with the window's width
/// and the language (one to three rows), so this runs on both.
pub fn measure_header() {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return };
    let Some(doc) = w.document() else { return };
    let Some(header) = doc.query_selector("header.top").ok().flatten() else { return };
    let sticky = w
        .get_computed_style(&header)
        .ok()
        .flatten()
        .and_then(|st| st.get_property_value("position").ok())
        .is_some_and(|p| p == "sticky");
    let px = if sticky { header.get_bounding_client_rect().height() } else { 0.0 };
    if let Some(root) = doc.document_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = root.style().set_property("--header-h", &format!("{px}px"));
    }
}

/// Scrolls the focused element out from under the sticky header (WCAG 2.4.11): the browser
/// leaves a control it can partly see where it is, even behind the header. Scrolled into
/// view with the page's scroll padding (`--header-h`), it lands just below the header.
/// Called on every `focusin`.
pub fn keep_focus_clear_of_header(target: Option<web_sys::EventTarget>) {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else { return };
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(header) = w.document().and_then(|d| d.query_selector("header.top").ok().flatten()) else {
        return;
    };
    if header.contains(Some(&el)) {
        return;
    }
    let (h, r) = (header.get_bounding_client_rect(), el.get_bounding_client_rect());
    // A sticky header stays at the top while the page scrolls under it.
    let covering = h.top() >= 0.0 && w.scroll_y().unwrap_or(0.0) > 0.0;
    if covering && r.top() < h.bottom() && r.bottom() > 0.0 {
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&opts);
    }
}

/// Whether the screen is used by touch first (its main pointer is a finger): key hints such
/// as "(R)" are left out there, where there is no key to press.
pub fn touch_first() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(pointer: coarse)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether the user asked the system for reduced motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Copies `text` to the clipboard, then tells `done` whether it worked. The clipboard is
/// missing on a page served over plain http from another machine (not a secure context)
/// and may be refused by the browser: then `done(false)`, never an exception.
pub fn copy_text(text: &str, done: impl FnOnce(bool) + 'static) {
    use wasm_bindgen::JsCast;
    let clipboard = web_sys::window()
        .map(|w| w.navigator())
        .and_then(|n| js_sys::Reflect::get(&n, &"clipboard".into()).ok())
        .filter(|c| !c.is_undefined() && !c.is_null())
        .map(|c| c.unchecked_into::<web_sys::Clipboard>());
    let Some(clipboard) = clipboard else {
        done(false);
        return;
    };
    let promise = clipboard.write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Shows `text` selected in the browser's own dialog, for a copy by hand (Ctrl+C) where the
/// clipboard could not be written.
pub fn offer_to_copy(label: &str, text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.prompt_with_message_and_default(label, text);
    }
}

/// The element's width in CSS px (its client width), kept up to date as it changes (a
/// window resized, the settings folded, compare mode's halves), in steps of 8 px so that a
/// window dragged wider draws again now and then rather than on every pixel. `initial`
/// until the element is first measured, just after it is first drawn.
#[yew::hook]
pub fn use_width(element: &yew::NodeRef, initial: f64) -> f64 {
    use_width_between(element, initial, 0.0, f64::INFINITY)
}

/// [`use_width`] held between `lo` and `hi`: a component that draws the same beyond either
/// end is not drawn again when the element's width changes there. An element drawn only
/// later (a chart that waits for its run) is measured from when it is there, and another
/// element in its place is watched instead.
#[yew::hook]
pub fn use_width_between(element: &yew::NodeRef, initial: f64, lo: f64, hi: f64) -> f64 {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    /// The element watched, its observer and the observer's callback (kept alive with it).
    type Watch = (web_sys::Element, Option<web_sys::ResizeObserver>, Closure<dyn FnMut()>);
    let width = yew::use_state_eq(|| initial);
    let watch: std::rc::Rc<std::cell::RefCell<Option<Watch>>> = yew::use_mut_ref(|| None);
    {
        // After every render: a cast and a comparison, unless the element changed.
        let (element, width, watch) = (element.clone(), width.clone(), watch.clone());
        yew::use_effect(move || {
            let el = element.cast::<web_sys::Element>();
            let same = match (&*watch.borrow(), &el) {
                (Some((watched, ..)), Some(el)) => watched == el,
                (None, None) => true,
                _ => false,
            };
            if !same {
                if let Some((_, Some(o), _)) = watch.borrow_mut().take() {
                    o.disconnect();
                }
                if let Some(el) = el {
                    let measure = {
                        let el = el.clone();
                        move || {
                            let px = f64::from(el.client_width());
                            if px > 0.0 {
                                width.set(((px / 8.0).floor() * 8.0).clamp(lo, hi));
                            }
                        }
                    };
                    measure();
                    let callback = Closure::<dyn FnMut()>::new(measure);
                    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok();
                    if let Some(o) = &observer {
                        o.observe(&el);
                    }
                    *watch.borrow_mut() = Some((el, observer, callback));
                }
            }
        });
    }
    // Unmounted: stop watching.
    yew::use_effect_with((), move |_| {
        move || {
            if let Some((_, Some(o), _)) = watch.borrow_mut().take() {
                o.disconnect();
            }
        }
    });
    *width
}
