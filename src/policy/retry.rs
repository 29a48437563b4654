//! Retry: how many attempts, which outcomes are retried, and how long to wait in between.
//!
//! Choices this model makes (see the team's `../shared/docs/semantics.md`):
//! - `max_attempts` counts the first attempt (≈ gRPC `maxAttempts`, Resilience4j
//!   `maxAttempts`): 3 means one call and at most two retries.
//! - Retried: timeouts, connection errors and 502/503/504, and overload rejections (429 or
//!   503 with Retry-After), each switchable. Never retried: 4xx client errors (a bad
//!   request does not become good by being sent again), breaker and bulkhead rejections
//!   (the caller's own protections said no), and an exhausted deadline.
//! - The n-th retry (n ≥ 1) waits `base · 2^(n−1)` capped (source 001's code; source 003's
//!   "50 → 100 → 200 ms"), then jitter: full = random(0, t), equal = t/2 + random(0, t/2),
//!   decorrelated = min(cap, random(base, 3 · previous sleep)) starting from `base` (AWS
//!   Architecture Blog, 2015). Jitter spreads retries in time; it never changes how many
//!   attempts a request may make.
//! - Retry-After versus computed backoff: the longer wins, when `honor_retry_after` is on.

use super::Outcome;
use serde::{Deserialize, Serialize};

/// The wait before a retry, before jitter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Backoff {
    /// Retry at once. (Written `{"kind": "none"}`; the braces make unknown keys an error.)
    None {},
    /// The same wait before every retry.
    Fixed {
        /// Wait before each retry (ms).
        ms: f64,
    },
    /// `base · 2^(n−1)` before the n-th retry, never more than `cap_ms`.
    Exponential {
        /// Wait before the first retry (ms).
        base_ms: f64,
        /// Longest wait (ms).
        cap_ms: f64,
    },
}

/// Randomisation of the backoff.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Jitter {
    /// Exactly the backoff: synchronised clients retry in lock-step.
    #[default]
    None,
    /// random(0, t).
    Full,
    /// t/2 + random(0, t/2).
    Equal,
    /// min(cap, random(base, 3 · previous)); needs exponential backoff for base and cap.
    Decorrelated,
}

/// Which failed outcomes are retried (4xx never is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetryOn {
    /// The caller stopped waiting (per-try timeout).
    #[serde(default = "yes")]
    pub timeout: bool,
    /// 502/503/504 or a connection error.
    #[serde(default = "yes")]
    pub error: bool,
    /// An overload rejection with Retry-After (429, or 503 from a full queue).
    #[serde(default = "yes")]
    pub overload: bool,
}

fn yes() -> bool {
    true
}

impl Default for RetryOn {
    fn default() -> Self {
        RetryOn { timeout: true, error: true, overload: true }
    }
}

impl RetryOn {
    /// Whether a failed outcome may be retried under this policy.
    pub fn allows(&self, outcome: Outcome) -> bool {
        match outcome {
            Outcome::Timeout => self.timeout,
            Outcome::Error => self.error,
            Outcome::Overload { .. } => self.overload,
            Outcome::Ok
            | Outcome::ClientError
            | Outcome::BreakerOpen
            | Outcome::BulkheadFull
            | Outcome::DeadlineExceeded
            | Outcome::BudgetDenied => false,
        }
    }
}

/// The retry policy of one caller towards one dependency.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetryPolicy {
    /// Attempts per call, the first included (1 = no retries).
    pub max_attempts: u32,
    /// Which failures are retried.
    #[serde(default)]
    pub retry_on: RetryOn,
    /// Wait before each retry.
    #[serde(default = "no_backoff")]
    pub backoff: Backoff,
    /// Randomisation of that wait.
    #[serde(default)]
    pub jitter: Jitter,
    /// Whether a server's Retry-After lengthens the wait.
    #[serde(default = "yes")]
    pub honor_retry_after: bool,
}

fn no_backoff() -> Backoff {
    Backoff::None {}
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 1,
            retry_on: RetryOn::default(),
            backoff: Backoff::None {},
            jitter: Jitter::None,
            honor_retry_after: true,
        }
    }
}

/// Backoff in integer microseconds, resolved once per scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackoffUs {
    /// Wait before the first retry (µs); 0 for no backoff.
    pub base: u64,
    /// Longest wait (µs).
    pub cap: u64,
    /// Whether the wait doubles per retry.
    pub exponential: bool,
    /// Randomisation.
    pub jitter: Jitter,
}

/// Milliseconds (as configured) to whole microseconds.
#[inline]
pub fn ms_to_us(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 { crate::sim::round_us(ms * 1000.0) } else { 0 }
}

impl BackoffUs {
    /// Resolves a configured backoff.
    pub fn new(backoff: Backoff, jitter: Jitter) -> Self {
        match backoff {
            Backoff::None {} => BackoffUs { base: 0, cap: 0, exponential: false, jitter },
            Backoff::Fixed { ms } => {
                let d = ms_to_us(ms);
                BackoffUs { base: d, cap: d, exponential: false, jitter }
            }
            Backoff::Exponential { base_ms, cap_ms } => {
                BackoffUs { base: ms_to_us(base_ms), cap: ms_to_us(cap_ms), exponential: true, jitter }
            }
        }
    }

    /// The un-jittered wait before retry `n` (n ≥ 1).
    pub fn nominal(&self, n: u32) -> u64 {
        if !self.exponential {
            return self.base;
        }
        let shift = n.saturating_sub(1).min(62);
        self.base.saturating_mul(1u64 << shift).min(self.cap)
    }

    /// The wait before retry `n` (n ≥ 1), given the previous wait (for decorrelated
    /// jitter) and a uniform number `u` in [0, 1).
    pub fn delay(&self, n: u32, prev: u64, u: f64) -> u64 {
        let t = self.nominal(n);
        match self.jitter {
            Jitter::None => t,
            Jitter::Full => scaled(t, u),
            Jitter::Equal => t / 2 + scaled(t - t / 2, u),
            Jitter::Decorrelated => {
                let prev = if n <= 1 { self.base } else { prev.max(self.base) };
                let hi = prev.saturating_mul(3);
                let v = self.base + scaled(hi.saturating_sub(self.base), u);
                v.min(self.cap)
            }
        }
    }
}

/// floor(u · (t + 1)) clamped to t: a uniform whole number of µs in [0, t].
fn scaled(t: u64, u: f64) -> u64 {
    ((u * (t as f64 + 1.0)) as u64).min(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(jitter: Jitter) -> BackoffUs {
        BackoffUs::new(Backoff::Exponential { base_ms: 50.0, cap_ms: 300.0 }, jitter)
    }

    #[test]
    fn exponential_doubles_from_base_and_caps() {
        let b = exp(Jitter::None);
        let waits: Vec<u64> = (1..=5).map(|n| b.delay(n, 0, 0.7)).collect();
        assert_eq!(waits, vec![50_000, 100_000, 200_000, 300_000, 300_000], "50 → 100 → 200 ms, capped");
        assert_eq!(BackoffUs::new(Backoff::Fixed { ms: 20.0 }, Jitter::None).delay(3, 0, 0.5), 20_000);
        assert_eq!(BackoffUs::new(Backoff::None {}, Jitter::Full).delay(1, 0, 0.9), 0);
    }

    #[test]
    fn jitter_stays_within_its_bounds() {
        for i in 0..100 {
            let u = i as f64 / 100.0;
            let full = exp(Jitter::Full).delay(2, 0, u);
            assert!(full <= 100_000);
            let equal = exp(Jitter::Equal).delay(2, 0, u);
            assert!((50_000..=100_000).contains(&equal));
            let dec = exp(Jitter::Decorrelated).delay(3, 120_000, u);
            assert!((50_000..=300_000).contains(&dec));
        }
        assert_eq!(exp(Jitter::Full).delay(2, 0, 0.0), 0);
        assert_eq!(exp(Jitter::Full).delay(2, 0, 0.999_999_999), 100_000);
        assert_eq!(exp(Jitter::Decorrelated).delay(1, 0, 0.0), 50_000, "starts at base");
    }

    #[test]
    fn what_is_retried() {
        let on = RetryOn::default();
        assert!(on.allows(Outcome::Timeout));
        assert!(on.allows(Outcome::Error));
        assert!(on.allows(Outcome::Overload { retry_after_us: 1_000_000 }));
        assert!(!on.allows(Outcome::ClientError), "4xx: never");
        assert!(!on.allows(Outcome::BreakerOpen));
        assert!(!on.allows(Outcome::DeadlineExceeded));
        let no_timeouts = RetryOn { timeout: false, ..RetryOn::default() };
        assert!(!no_timeouts.allows(Outcome::Timeout));
    }
}
