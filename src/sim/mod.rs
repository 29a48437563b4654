//! The engine: virtual time in integer microseconds, a deterministic event queue with
//! cancellation, seeded random streams, and the time-series recorder.

pub mod queue;
pub mod recorder;
pub mod rng;

pub use queue::{Class, EventId, EventQueue, Micros, PastEvent};
