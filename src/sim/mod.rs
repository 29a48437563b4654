//! The engine: virtual time in integer microseconds, a deterministic event queue, seeded random streams, the time-series recorder and latency tallies.

pub mod first_seen;
pub mod queue;
pub mod recorder;
pub mod rng;
pub mod tally;

pub use queue::{Class, EventQueue, Micros, PastEvent};
