//! Retry budgets: a cap on the extra load retries may add, shared by all calls of one
//! client towards one dependency.
//!
//! Two algorithms, both in integer milli-tokens so they are exact and portable:
//! - **Ratio** (source 001, Finagle-like): starts full at `max_tokens`; each successful
//!   first attempt deposits `retry_ratio` (source 000: "extra attempts ≤ 10 % of successful
//!   first requests"); a retry needs one whole token and spends it; without one the retry
//!   is refused and the call fails fast (or degrades). Source 001's code deposits on every
//!   success; we deposit on first-attempt successes so that the ratio reads exactly as
//!   source 000 states it. A refused retry costs nothing.
//! - **gRPC retry throttling** (gRFC A6): starts at `max_tokens`; every failed attempt
//!   takes 1, every success adds `token_ratio`, clamped to [0, max]; retries are allowed
//!   only while tokens > max/2. The first attempt is always sent.

use serde::{Deserialize, Serialize};

/// How a client's retries are budgeted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RetryBudgetConfig {
    /// Source 001's ratio bucket.
    Ratio {
        /// Bucket size and starting level (tokens; source 001: 100).
        max_tokens: f64,
        /// Tokens a successful first attempt deposits (source 001: 0.1).
        retry_ratio: f64,
    },
    /// gRPC A6 retry throttling.
    Grpc {
        /// Bucket size and starting level (tokens; gRPC `maxTokens`).
        max_tokens: f64,
        /// Tokens a success adds (gRPC `tokenRatio`).
        token_ratio: f64,
    },
}

const MILLI: f64 = 1000.0;

fn milli(x: f64) -> u64 {
    if x.is_finite() && x > 0.0 { libm::round(x * MILLI) as u64 } else { 0 }
}

/// The live state of a budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryBudget {
    grpc: bool,
    max: u64,
    deposit: u64,
    tokens: u64,
}

impl RetryBudget {
    /// A full budget.
    pub fn new(cfg: RetryBudgetConfig) -> Self {
        let (grpc, max, deposit) = match cfg {
            RetryBudgetConfig::Ratio { max_tokens, retry_ratio } => {
                (false, milli(max_tokens), milli(retry_ratio))
            }
            RetryBudgetConfig::Grpc { max_tokens, token_ratio } => {
                (true, milli(max_tokens), milli(token_ratio))
            }
        };
        RetryBudget { grpc, max, deposit, tokens: max }
    }

    /// Current level in tokens.
    pub fn tokens(&self) -> f64 {
        self.tokens as f64 / MILLI
    }

    /// Current level in milli-tokens (exact).
    pub fn milli_tokens(&self) -> u64 {
        self.tokens
    }

    /// Capacity in milli-tokens.
    pub fn max_milli_tokens(&self) -> u64 {
        self.max
    }

    /// Records a successful attempt (`first` = it was the call's first attempt).
    pub fn on_success(&mut self, first: bool) {
        if self.grpc || first {
            self.tokens = (self.tokens + self.deposit).min(self.max);
        }
    }

    /// Records a failed attempt (only gRPC throttling counts failures).
    pub fn on_failure(&mut self) {
        if self.grpc {
            self.tokens = self.tokens.saturating_sub(1000);
        }
    }

    /// Asks for a retry: the ratio bucket spends a token; gRPC only checks the threshold.
    pub fn try_retry(&mut self) -> bool {
        if self.grpc {
            self.tokens * 2 > self.max
        } else if self.tokens >= 1000 {
            self.tokens -= 1000;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_bucket_spends_whole_tokens_and_refills_by_ratio() {
        let mut b = RetryBudget::new(RetryBudgetConfig::Ratio { max_tokens: 2.0, retry_ratio: 0.1 });
        assert!(b.try_retry());
        assert!(b.try_retry());
        assert!(!b.try_retry(), "empty");
        assert_eq!(b.tokens(), 0.0);
        for _ in 0..9 {
            b.on_success(true);
        }
        assert!(!b.try_retry(), "0.9 tokens is not enough");
        b.on_success(false);
        assert!(!b.try_retry(), "a success after retries deposits nothing");
        b.on_success(true);
        assert!(b.try_retry(), "ten first-attempt successes buy one retry");
        for _ in 0..100 {
            b.on_success(true);
        }
        assert_eq!(b.tokens(), 2.0, "never above max");
        b.on_failure();
        assert_eq!(b.tokens(), 2.0, "failures cost nothing in the ratio bucket");
    }

    #[test]
    fn grpc_throttling_allows_retries_above_half() {
        let mut b = RetryBudget::new(RetryBudgetConfig::Grpc { max_tokens: 10.0, token_ratio: 0.1 });
        assert!(b.try_retry());
        for _ in 0..5 {
            b.on_failure();
        }
        assert_eq!(b.tokens(), 5.0);
        assert!(!b.try_retry(), "5 is not above 10/2");
        b.on_success(false);
        assert!(b.try_retry(), "5.1 > 5");
        for _ in 0..20 {
            b.on_failure();
        }
        assert_eq!(b.tokens(), 0.0, "clamped at zero");
    }
}
