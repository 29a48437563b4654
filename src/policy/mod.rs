//! Protections, each a small pure state machine with its semantic choices stated where it
//! is defined. The chain model composes them per caller in the order `stack` defines.

pub mod breaker;
pub mod bulkhead;
pub mod deadline;
pub mod retry;
pub mod retry_budget;
pub mod stack;
pub mod token_bucket;

use serde::Serialize;

/// How one attempt (or one call) ended, as its caller sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A response in time (possibly degraded, which is tracked separately).
    Ok,
    /// The caller stopped waiting (per-try timeout); the result is unknown.
    Timeout,
    /// 502/503/504 or a connection error.
    Error,
    /// Fast rejection for overload (429 or 503) with a Retry-After (µs).
    Overload {
        /// How long the server asked the client to wait (µs); `token_bucket::NEVER` when
        /// waiting cannot help.
        retry_after_us: u64,
    },
    /// 4xx: the request itself is wrong; retrying cannot help.
    ClientError,
    /// The caller's circuit breaker refused the call.
    BreakerOpen,
    /// The caller's bulkhead was full.
    BulkheadFull,
    /// Not enough of the deadline budget left to try.
    DeadlineExceeded,
    /// The retry budget refused a retry.
    BudgetDenied,
}

impl Outcome {
    /// Whether this is a success.
    pub fn is_ok(self) -> bool {
        matches!(self, Outcome::Ok)
    }

    /// The kind of failure, without its details; `None` for a success.
    #[inline]
    pub fn failure(self) -> Option<Failure> {
        Some(match self {
            Outcome::Ok => return None,
            Outcome::Timeout => Failure::Timeout,
            Outcome::Error => Failure::Error,
            Outcome::Overload { .. } => Failure::Overload,
            Outcome::ClientError => Failure::ClientError,
            Outcome::BreakerOpen => Failure::BreakerOpen,
            Outcome::BulkheadFull => Failure::BulkheadFull,
            Outcome::DeadlineExceeded => Failure::DeadlineExceeded,
            Outcome::BudgetDenied => Failure::BudgetDenied,
        })
    }
}

/// How an attempt or a call failed, in one byte: what is kept per call and per request
/// (the cause of a failure or a degradation) needs the kind, not a Retry-After.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Failure {
    /// The caller stopped waiting.
    Timeout,
    /// 5xx or a connection error.
    Error,
    /// An overload rejection (429/503).
    Overload,
    /// 4xx.
    ClientError,
    /// The caller's breaker refused.
    BreakerOpen,
    /// The caller's bulkhead was full.
    BulkheadFull,
    /// Not enough deadline budget.
    DeadlineExceeded,
    /// The retry budget refused a retry.
    BudgetDenied,
}
