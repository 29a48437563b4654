//! The few browser facts the app reads and writes: the URL query, saved settings, the
//! browser's languages. Every call tolerates a missing window or storage (private mode,
//! test harness) instead of panicking.

use crate::query::Query;

const LANG_KEY: &str = "resilience-lab.lang";

/// The current page's query string, parsed.
pub fn current_query() -> Query {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    Query::parse(&search)
}

/// Replaces the URL's query without reloading or adding a history entry, keeping the
/// path (so the app works under any sub-path) and the fragment.
pub fn replace_query(q: &Query) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{}{}{}", path, q.to_query_string(), hash);
    // Every state change lands here, most with the URL unchanged; a `replaceState` costs a
    // few milliseconds of main thread (measured), so an unchanged URL is left alone.
    let search = location.search().unwrap_or_default();
    if url == format!("{path}{search}{hash}") {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The page's path (the site may live under any sub-path).
pub fn current_path() -> String {
    web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default()
}

/// The full URL of the page, for the copy-link button.
pub fn current_href() -> String {
    web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The language saved by an earlier visit.
pub fn saved_lang() -> Option<String> {
    storage()?.get_item(LANG_KEY).ok()?
}

/// Remembers the language for the next visit.
pub fn save_lang(code: &str) {
    if let Some(s) = storage().filter(|s| s.get_item(LANG_KEY).ok().flatten().as_deref() != Some(code)) {
        let _ = s.set_item(LANG_KEY, code);
    }
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

/// Sets `<html lang>` and the document title.
pub fn set_document_lang_and_title(tag: &str, title: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    // Only when they change: setting `lang` on the root element, even to the value it has,
    // makes the browser restyle the whole document (≈ 15 ms on the storm page, measured),
    // and this runs after every change of the page's state.
    if let Some(el) = doc.document_element()
        && el.get_attribute("lang").as_deref() != Some(tag)
    {
        let _ = el.set_attribute("lang", tag);
    }
    if doc.title() != title {
        doc.set_title(title);
    }
}

/// Whether the window is wide enough for the controls beside the figures (the CSS
/// breakpoint, 1000 px).
pub fn is_wide() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(min-width: 1001px)").ok().flatten())
        .is_none_or(|m| m.matches())
}

/// Whether the user asked the system for reduced motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}
