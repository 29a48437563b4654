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
