//! What every numeric scenario field accepts, declared once: validation checks values
//! against these ranges, a file whose value has the wrong type (or no type at all, like
//! `1e999`) is told the same range, and the retry-storm page's knobs take their slider
//! limits from here.

use crate::error::{Allowed, FieldError, fmt_num};

/// Longest time any setting may name (ms): one day.
pub const MAX_MS: f64 = 86_400_000.0;
/// Most workers, queue slots, tokens and the like.
pub const MAX_COUNT: f64 = 1_000_000.0;

/// A field's allowed values and unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldRange {
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// How fine a value may be: any number, whole numbers, or thousandths.
    pub resolution: Resolution,
    /// The unit, as written after the number (empty for plain counts of things named by
    /// the field).
    pub unit: &'static str,
}

/// How fine a field's values may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Any number in the range.
    Any,
    /// Whole numbers only.
    Whole,
    /// At most three decimals: a token bucket's refill rate, counted in integer credits of
    /// 1/1,000 token per second, so that refills are exact (source 002).
    Thousandths,
}

const fn ms(min: f64, max: f64) -> FieldRange {
    FieldRange { min, max, resolution: Resolution::Any, unit: "ms" }
}
const fn count(min: f64, max: f64) -> FieldRange {
    FieldRange { min, max, resolution: Resolution::Whole, unit: "" }
}
const fn num(min: f64, max: f64, unit: &'static str) -> FieldRange {
    FieldRange { min, max, resolution: Resolution::Any, unit }
}

pub const REQUESTS: FieldRange = count(1.0, 10_000_000.0);
pub const RATE_PER_S: FieldRange = num(0.001, 1e7, "req/s");
pub const PEAK_FACTOR: FieldRange = num(0.01, 100.0, "×");
pub const DURATION_MS: FieldRange = ms(1.0, 1e9);
pub const WORKERS: FieldRange = count(1.0, MAX_COUNT);
pub const QUEUE: FieldRange = count(0.0, MAX_COUNT);
pub const QUEUE_TIMEOUT_MS: FieldRange = ms(0.001, MAX_MS);
pub const MIN_BUDGET_MS: FieldRange = ms(0.0, MAX_MS);
pub const BUCKET_CAPACITY: FieldRange = FieldRange { unit: "tokens", ..count(1.0, MAX_COUNT) };
pub const BUCKET_RATE: FieldRange =
    FieldRange { resolution: Resolution::Thousandths, ..num(0.0, 1e9, "tokens/s") };
pub const BUCKET_COST: FieldRange = FieldRange { unit: "tokens", ..count(1.0, MAX_COUNT) };
pub const CONCURRENCY_LIMIT: FieldRange = count(1.0, MAX_COUNT);
pub const RETRY_AFTER_MS: FieldRange = ms(0.0, MAX_MS);
pub const WORK_MS: FieldRange = ms(0.0, MAX_MS);
pub const LOG_NORMAL_MS: FieldRange = ms(0.001, MAX_MS);
pub const PROBABILITY: FieldRange = num(0.0, 1.0, "probability");
/// A service-level objective: from a coin toss to five nines.
pub const SLO_PERCENT: FieldRange = num(50.0, 99.999, "%");
pub const MAX_ATTEMPTS: FieldRange = count(1.0, 10.0);
pub const BACKOFF_MS: FieldRange = ms(0.0, MAX_MS);
pub const BACKOFF_BASE_MS: FieldRange = ms(0.001, MAX_MS);
pub const PER_TRY_TIMEOUT_MS: FieldRange = ms(0.001, MAX_MS);
pub const MIN_USEFUL_MS: FieldRange = ms(0.0, MAX_MS);
pub const DEADLINE_MS: FieldRange = ms(0.001, MAX_MS);
pub const RATIO_MAX_TOKENS: FieldRange = num(0.0, 1e6, "tokens");
pub const RETRY_RATIO: FieldRange = num(0.0, 1.0, "tokens per success");
pub const GRPC_MAX_TOKENS: FieldRange = num(1.0, 1000.0, "tokens");
pub const GRPC_TOKEN_RATIO: FieldRange = num(0.001, 1.0, "tokens per success");
pub const BREAKER_WINDOW: FieldRange = FieldRange { unit: "calls", ..count(1.0, 10_000.0) };
pub const BREAKER_MIN_CALLS: FieldRange = FieldRange { unit: "calls", ..count(1.0, 10_000.0) };
pub const PERCENT: FieldRange = num(0.01, 100.0, "%");
pub const SLOW_CALL_MS: FieldRange = ms(0.001, MAX_MS);
pub const OPEN_MS: FieldRange = ms(0.001, MAX_MS);
pub const HALF_OPEN_CALLS: FieldRange = FieldRange { unit: "calls", ..count(1.0, 1000.0) };
pub const BREAKER_INSTANCES: FieldRange = count(1.0, 256.0);
pub const BULKHEAD_MAX_CONCURRENT: FieldRange = FieldRange { unit: "calls", ..count(1.0, MAX_COUNT) };
pub const BULKHEAD_MAX_QUEUE: FieldRange = FieldRange { unit: "calls", ..count(0.0, MAX_COUNT) };
pub const AGE_MS: FieldRange = ms(0.0, MAX_MS);
pub const SHARED_POOL_SIZE: FieldRange = FieldRange { unit: "threads", ..count(1.0, MAX_COUNT) };
pub const FAULT_TIME_MS: FieldRange = ms(0.0, 1e9);
/// A fault window's end: not before its start.
pub fn fault_end_ms(start_ms: f64) -> FieldRange {
    FAULT_TIME_MS.from(start_ms.max(0.0))
}
pub const SURGE_FACTOR: FieldRange = num(0.01, 100.0, "×");
pub const LATENCY_FACTOR: FieldRange = num(0.01, 1000.0, "×");
pub const REPORT_BUCKET_MS: FieldRange = ms(0.1, 1e8);
pub const TRACE_SAMPLE: FieldRange = FieldRange { unit: "requests", ..count(0.0, 200.0) };
/// How many requests a scenario may ask to trace by number.
pub const TRACE_REQUESTS: FieldRange = FieldRange { unit: "requests", ..count(0.0, 8.0) };
/// A request number to trace (0 = the first to arrive); the engine numbers requests in 32 bits.
pub const TRACE_REQUEST: FieldRange = count(0.0, 4_000_000_000.0);
/// The storm page's paused moment (`t=`, ms of virtual time).
pub const MOMENT_MS: FieldRange = ms(0.0, MAX_MS);
/// The storm page's picked hop (`focus=`, 0 = the entry); the scenario's hops bound it.
pub const FOCUS_HOP: FieldRange = FieldRange { unit: "", ..count(0.0, 64.0) };
/// A seed typed into a lab's page: up to 10⁹, a bound a message can state in full (any u64
/// works in the engine; files and the CLI take one).
pub const SEED: FieldRange = count(0.0, 1e9);

impl FieldRange {
    /// What the field accepts, as validation messages say it.
    pub fn allowed(&self) -> Allowed {
        let (min, max) = (fmt_num(self.min), fmt_num(self.max));
        match self.resolution {
            Resolution::Any => Allowed::Range { min, max },
            Resolution::Whole => Allowed::Integer { min, max },
            Resolution::Thousandths => Allowed::Decimals { min, max, decimals: 3 },
        }
    }

    /// Whole numbers only.
    pub fn is_whole(&self) -> bool {
        self.resolution == Resolution::Whole
    }

    /// Whether `v` is accepted.
    pub fn accepts(&self, v: f64) -> bool {
        let fine_enough = match self.resolution {
            Resolution::Any => true,
            Resolution::Whole => v == v.trunc(),
            // Within a millionth of a credit: `0.1 * 1000.0` is not exactly 100.
            Resolution::Thousandths => (v * 1000.0 - libm::round(v * 1000.0)).abs() <= 1e-6,
        };
        v.is_finite() && v >= self.min && v <= self.max && fine_enough
    }

    /// The same range with another lower bound (a field bounded by another field).
    pub const fn from(self, min: f64) -> FieldRange {
        FieldRange { min, ..self }
    }

    /// The same range with another upper bound.
    pub const fn to(self, max: f64) -> FieldRange {
        FieldRange { max, ..self }
    }

    /// The error for `field` holding `value` (as written).
    pub fn error(&self, field: &str, value: impl std::fmt::Display) -> FieldError {
        FieldError::new(field, value, self.allowed()).with_unit(self.unit)
    }
}

/// The range of the field at `path` (`layers[0].server.workers`), if it is a number.
pub fn for_path(path: &str) -> Option<FieldRange> {
    let mut parts = path.rsplit('.').map(|p| p.split('[').next().unwrap_or(p));
    let last = parts.next()?;
    let parent = parts.next().unwrap_or("");
    Some(match (parent, last) {
        ("load", "requests") => REQUESTS,
        ("load", "rate_per_s") => RATE_PER_S,
        ("load", "peak_factor") => PEAK_FACTOR,
        ("load", "duration_ms") => DURATION_MS,
        ("token_bucket", "capacity") => BUCKET_CAPACITY,
        ("token_bucket", "rate_per_s") => BUCKET_RATE,
        ("token_bucket", "cost") => BUCKET_COST,
        ("shared_pool", "size") => SHARED_POOL_SIZE,
        ("shared_pool", "queue") => QUEUE,
        ("backoff", "ms") => BACKOFF_MS,
        ("backoff", "base_ms" | "cap_ms") => BACKOFF_BASE_MS,
        ("retry_budget", "max_tokens") => RATIO_MAX_TOKENS,
        ("retry_budget", "retry_ratio") => RETRY_RATIO,
        ("retry_budget", "token_ratio") => GRPC_TOKEN_RATIO,
        ("effect", "factor") => LATENCY_FACTOR,
        ("effect", "rate") => PROBABILITY,
        ("report", "bucket_ms") => REPORT_BUCKET_MS,
        ("slo", "success_percent") => SLO_PERCENT,
        ("report", "trace_sample") => TRACE_SAMPLE,
        ("report", "trace_requests") => TRACE_REQUEST,
        ("work", "ms" | "mean_ms") => WORK_MS,
        ("work", "median_ms" | "p99_ms") => LOG_NORMAL_MS,
        (_, "workers") => WORKERS,
        (_, "queue") => QUEUE,
        (_, "queue_timeout_ms") => QUEUE_TIMEOUT_MS,
        (_, "min_budget_ms") => MIN_BUDGET_MS,
        (_, "concurrency_limit") => CONCURRENCY_LIMIT,
        (_, "retry_after_ms") => RETRY_AFTER_MS,
        (_, "error_rate" | "client_error_rate" | "empty_rate" | "needed_by") => PROBABILITY,
        (_, "max_attempts") => MAX_ATTEMPTS,
        (_, "per_try_timeout_ms") => PER_TRY_TIMEOUT_MS,
        (_, "min_useful_ms") => MIN_USEFUL_MS,
        (_, "deadline_ms") => DEADLINE_MS,
        (_, "window") => BREAKER_WINDOW,
        (_, "min_calls") => BREAKER_MIN_CALLS,
        (_, "failure_rate_pct" | "slow_rate_pct") => PERCENT,
        (_, "slow_call_ms") => SLOW_CALL_MS,
        (_, "open_ms") => OPEN_MS,
        (_, "half_open_calls") => HALF_OPEN_CALLS,
        (_, "instances") => BREAKER_INSTANCES,
        (_, "max_concurrent") => BULKHEAD_MAX_CONCURRENT,
        (_, "max_queue") => BULKHEAD_MAX_QUEUE,
        (_, "age_ms") => AGE_MS,
        (_, "start_ms" | "end_ms") => FAULT_TIME_MS,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_their_ranges() {
        assert_eq!(for_path("layers[1].server.workers"), Some(WORKERS));
        assert_eq!(for_path("load.rate_per_s"), Some(RATE_PER_S));
        assert_eq!(for_path("layers[0].server.admission.token_bucket.rate_per_s"), Some(BUCKET_RATE));
        assert_eq!(for_path("layers[0].side_deps[1].target.work.p99_ms"), Some(LOG_NORMAL_MS));
        assert_eq!(for_path("faults[3].effect.factor"), Some(LATENCY_FACTOR));
        assert_eq!(for_path("layers[0].name"), None);
    }

    #[test]
    fn errors_name_range_and_unit() {
        let e = WORKERS.error("layers[0].server.workers", -1);
        assert_eq!(
            e.to_string(),
            "layers[0].server.workers: got -1, allowed a whole number from 1 to 1000000"
        );
        let e = QUEUE_TIMEOUT_MS.error("leaf.server.queue_timeout_ms", 0);
        assert_eq!(
            e.to_string(),
            "leaf.server.queue_timeout_ms: got 0, allowed a number from 0.001 to 86400000 (ms)"
        );
        assert!(MAX_ATTEMPTS.accepts(3.0) && !MAX_ATTEMPTS.accepts(3.5) && !MAX_ATTEMPTS.accepts(f64::NAN));
    }

    #[test]
    fn a_refill_rate_takes_thousandths_only() {
        for ok in [0.0, 0.001, 0.1, 2.0, 2.345, 1e6] {
            assert!(BUCKET_RATE.accepts(ok), "{ok}");
        }
        for bad in [0.0005, 1.2345, -0.001, f64::NAN] {
            assert!(!BUCKET_RATE.accepts(bad), "{bad}");
        }
        let e = BUCKET_RATE.error("r", 0.0005);
        assert_eq!(
            e.to_string(),
            "r: got 0.0005, allowed a number from 0 to 1000000000 with at most 3 decimals (tokens/s)"
        );
    }
}
