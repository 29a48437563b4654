//! The Yew front end (wasm32 only). Components display state from `crate::state` and
//! reports from the model; they never simulate.

pub mod app;
pub mod browser;
pub mod calculator;
pub mod charts;
pub mod controls;
pub mod storm;

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}
