//! The Yew front end (wasm32 only). Components display state from `crate::state` and
//! reports from the model; they never simulate.

pub mod admission;
mod announce;
pub mod app;
pub mod breaker;
pub mod browser;
pub mod calculator;
pub mod charts;
pub mod controls;
pub mod export;
mod lab;
pub mod lesson;
pub mod links;
pub mod queue;
pub mod runs;
pub mod stability;
pub mod storm;
pub mod worker;

/// Mounts the app on `<body>`; in a Web Worker (which loads the same module) it does
/// nothing, and `worker.rs` answers the page's messages.
pub fn start() {
    if web_sys::window().is_some() {
        yew::Renderer::<links::Root>::new().render();
    }
}

/// A lesson's veil words (`key`) with the key that lifts the veil, "(R)", except on a
/// touch-first screen, which has no key to press.
pub fn veil_words(lang: crate::i18n::Lang, key: crate::i18n::T) -> String {
    // Asked once a document: a time chart's veil is drawn on every frame of a playback.
    thread_local! {
        static TOUCH_FIRST: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
    }
    let touch = TOUCH_FIRST.with(|t| match t.get() {
        Some(v) => v,
        None => {
            let v = browser::touch_first();
            t.set(Some(v));
            v
        }
    });
    if touch { lang.t(key).to_string() } else { lang.f(crate::i18n::T::VeilKey, &[("text", lang.t(key))]) }
}
