//! The engine: virtual time in integer microseconds, a deterministic event queue with
//! cancellation, seeded random streams, the time-series recorder and latency tallies.

pub mod queue;
pub mod recorder;
pub mod rng;
pub mod tally;

pub use queue::{Class, EventId, EventQueue, Micros, PastEvent};
