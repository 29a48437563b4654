//! Resilience Lab: a deterministic virtual-time playground for retries, deadlines, retry
//! budgets, admission, bulkheads, circuit breakers and degradation.
//!
//! Data flows one way: scenario (serde) → validate → run → report → views. Everything but
//! `ui` is pure Rust and is tested natively; `ui` is the Yew front end, built for wasm32.

pub mod error;
pub mod export;
pub mod float;
pub mod i18n;
pub mod knob;
pub mod lesson;
pub mod model;
pub mod order;
pub mod plot;
pub mod policy;
pub mod query;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod state;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod ui;
