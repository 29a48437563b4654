//! Scenarios built from the engine and the policies.

pub mod admission;
pub mod amplification;
pub mod breaker_lab;
pub mod capacity;
pub mod chain;
pub mod degradation;
pub mod queueing;
pub mod retry_timing;
pub mod slo;
pub mod stability;
pub mod tree;
