//! Admission: a token bucket plus a concurrency limit, exactly as source 002 defines them.
//!
//! - The bucket holds integer credits and starts full. Time advances in whole ticks, and
//!   refill is `elapsed ticks × rate` credits, capped at capacity: no floating point, no
//!   drift at boundaries. Source 002 uses 1 token = 1000 credits and ticks of 1 ms, so a
//!   rate of r tokens/s refills exactly r credits per ms; the chain model uses ticks of
//!   1 µs and 1 token = 10⁹ credits, so a rate given in milli-tokens/s refills exactly that
//!   many credits per µs — the same arithmetic at a finer grain.
//! - Admission needs both gates: a free concurrency slot and enough credits for the cost.
//!   Reasons are checked in this order: `cost_exceeds_capacity` (a cost above the bucket
//!   can never wait its way in), `concurrency_limit`, `rate_limit`. A rejection consumes
//!   nothing. There is no queue and no waiting.
//! - Admission takes the slot and the credits together; completion frees only the slot.

use serde::Serialize;

/// A Retry-After that says "never": the bucket does not refill (rate 0), so waiting cannot
/// help. A client that honours Retry-After gives up instead of sleeping forever.
pub const NEVER: u64 = u64::MAX;

/// Why admission said no.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    /// Every concurrency slot is taken.
    ConcurrencyLimit,
    /// Not enough credits now; `retry_after` ticks until there will be.
    RateLimit {
        /// Ticks until the bucket holds the cost ([`NEVER`] if it never will).
        retry_after: u64,
    },
    /// The cost exceeds the bucket's capacity: waiting never helps.
    CostExceedsCapacity,
}

impl Rejection {
    /// The reason as source 002 names it.
    pub fn reason(self) -> &'static str {
        match self {
            Rejection::ConcurrencyLimit => "concurrency_limit",
            Rejection::RateLimit { .. } => "rate_limit",
            Rejection::CostExceedsCapacity => "cost_exceeds_capacity",
        }
    }
}

/// A token bucket in integer credits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    capacity: u64,
    credits: u64,
    rate_per_tick: u64,
    last: u64,
}

impl TokenBucket {
    /// A full bucket of `capacity` credits refilling `rate_per_tick` credits per tick.
    pub fn new(capacity: u64, rate_per_tick: u64) -> Self {
        TokenBucket { capacity, credits: capacity, rate_per_tick, last: 0 }
    }

    /// Credits held now (after refilling up to `now`).
    pub fn credits_at(&mut self, now: u64) -> u64 {
        self.refill(now);
        self.credits
    }

    /// Capacity in credits.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    fn refill(&mut self, now: u64) {
        if now > self.last {
            let add = u128::from(now - self.last) * u128::from(self.rate_per_tick);
            let total = u128::from(self.credits) + add;
            self.credits = total.min(u128::from(self.capacity)) as u64;
            self.last = now;
        }
    }

    /// The tick at which the bucket is full again, counting from its last refill (itself if
    /// it is full; `None` if it never refills). Asks nothing of the future: no credits are
    /// taken on the way, which is what the admission lab's refill rows show.
    pub fn full_at(&self) -> Option<u64> {
        let missing = self.capacity.saturating_sub(self.credits);
        if missing == 0 {
            return Some(self.last);
        }
        (self.rate_per_tick > 0).then(|| self.last.saturating_add(missing.div_ceil(self.rate_per_tick)))
    }

    /// Whether `cost` could ever be admitted.
    pub fn fits(&self, cost: u64) -> bool {
        cost <= self.capacity
    }

    /// Checks the bucket without taking anything: `Ok` if `cost` credits are there now.
    pub fn check(&mut self, now: u64, cost: u64) -> Result<(), Rejection> {
        if cost > self.capacity {
            return Err(Rejection::CostExceedsCapacity);
        }
        self.refill(now);
        if self.credits >= cost {
            Ok(())
        } else if self.rate_per_tick == 0 {
            Err(Rejection::RateLimit { retry_after: NEVER })
        } else {
            let missing = cost - self.credits;
            Err(Rejection::RateLimit { retry_after: missing.div_ceil(self.rate_per_tick) })
        }
    }

    /// Takes `cost` credits if they are there (after [`check`](Self::check) said yes).
    pub fn take(&mut self, now: u64, cost: u64) -> Result<(), Rejection> {
        self.check(now, cost)?;
        self.credits -= cost;
        Ok(())
    }
}

/// A token bucket and a concurrency limit, checked together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admission {
    /// The rate gate, if any.
    pub bucket: Option<TokenBucket>,
    /// Most calls admitted and not yet finished; `None` = no limit.
    pub limit: Option<u32>,
    /// Calls admitted and not yet finished.
    pub in_flight: u32,
}

impl Admission {
    pub fn new(bucket: Option<TokenBucket>, limit: Option<u32>) -> Self {
        Admission { bucket, limit, in_flight: 0 }
    }

    /// Admits one call of `cost` credits at `now`, or says why not (consuming nothing).
    pub fn try_admit(&mut self, now: u64, cost: u64) -> Result<(), Rejection> {
        if let Some(b) = &self.bucket
            && !b.fits(cost)
        {
            return Err(Rejection::CostExceedsCapacity);
        }
        if self.limit.is_some_and(|l| self.in_flight >= l) {
            return Err(Rejection::ConcurrencyLimit);
        }
        if let Some(b) = &mut self.bucket {
            b.take(now, cost)?;
        }
        self.in_flight += 1;
        Ok(())
    }

    /// A call admitted earlier finished: its slot is free (its credits are not returned).
    pub fn release(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_at_is_the_first_tick_the_credits_reach_capacity() {
        let mut b = TokenBucket::new(2000, 2); // source 002: 2 tokens, 2 tokens/s in 1 ms ticks
        assert_eq!(b.full_at(), Some(0), "full from the start");
        b.take(100, 1400).unwrap();
        assert_eq!(b.full_at(), Some(800), "1,400 credits missing at 2 a tick");
        assert_eq!(b.credits_at(799), 1998);
        assert_eq!(b.credits_at(800), 2000);
        b.take(800, 1).unwrap();
        assert_eq!(b.full_at(), Some(801), "a credit short: one tick");
        assert_eq!(TokenBucket { capacity: 10, credits: 0, rate_per_tick: 0, last: 5 }.full_at(), None);
    }

    /// Source 002's scale: 1 token = 1000 credits, ticks of 1 ms, r tokens/s = r credits/ms.
    fn source_002_bucket() -> TokenBucket {
        TokenBucket::new(2 * 1000, 2)
    }

    #[test]
    fn refill_is_exact_integer_arithmetic() {
        let mut b = source_002_bucket();
        b.take(0, 1000).unwrap();
        b.take(0, 1000).unwrap();
        assert_eq!(b.credits_at(0), 0);
        assert_eq!(b.credits_at(250), 500, "250 ms × 2 credits/ms");
        assert_eq!(b.credits_at(499), 998);
        assert_eq!(b.credits_at(500), 1000, "one whole token after exactly 500 ms");
        assert_eq!(b.credits_at(10_000), 2000, "capped at capacity");
    }

    #[test]
    fn rejections_consume_nothing_and_say_when_to_come_back() {
        let mut b = source_002_bucket();
        b.take(0, 2000).unwrap();
        assert_eq!(b.take(100, 1000), Err(Rejection::RateLimit { retry_after: 400 }));
        assert_eq!(b.credits_at(100), 200, "the rejection took nothing");
        assert_eq!(b.take(0, 3000), Err(Rejection::CostExceedsCapacity));
    }

    #[test]
    fn source_003_bucket_of_five_meets_eight() {
        let mut a = Admission::new(Some(TokenBucket::new(5 * 1000, 1)), None);
        let results: Vec<_> = (0..8).map(|_| a.try_admit(0, 1000)).collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 5, "5 × 200");
        assert!(results[5..].iter().all(|r| matches!(r, Err(Rejection::RateLimit { .. }))), "3 × 429");
        assert_eq!(
            results[5],
            Err(Rejection::RateLimit { retry_after: 1000 }),
            "Retry-After 1 s at 1 token/s"
        );
    }

    #[test]
    fn a_bucket_that_never_refills_says_never() {
        let mut b = TokenBucket::new(1000, 0);
        b.take(0, 1000).unwrap();
        assert_eq!(b.take(5_000, 1000), Err(Rejection::RateLimit { retry_after: NEVER }));
    }

    #[test]
    fn both_gates_must_pass() {
        let mut a = Admission::new(Some(source_002_bucket()), Some(1));
        assert_eq!(a.try_admit(0, 1000), Ok(()));
        assert_eq!(a.try_admit(0, 1000), Err(Rejection::ConcurrencyLimit), "tokens left, slot taken");
        a.release();
        assert_eq!(a.try_admit(0, 1000), Ok(()));
        a.release();
        assert_eq!(
            a.try_admit(0, 1000),
            Err(Rejection::RateLimit { retry_after: 500 }),
            "slot free, no tokens"
        );
        assert_eq!(a.try_admit(0, 5000), Err(Rejection::CostExceedsCapacity));
        assert_eq!(a.in_flight, 0);
    }
}
