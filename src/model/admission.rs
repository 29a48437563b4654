//! The admission lab's model: source 002's offline admission run, event by event.
//!
//! A list of arrivals (time, cost, hold time) meets `policy::token_bucket::Admission` — the
//! same token bucket and concurrency limit the chain engine uses, not a copy. This module
//! only orders the events and records what the policy said:
//!
//! - time runs in ticks of 1 ms; 1 token = [`credits_per_token`] integer credits (1000 as in
//!   source 002 when the rate is a whole number of tokens/s, 10⁶ when it has decimals, so
//!   that every refill of `elapsed ms × rate` is an exact integer);
//! - arrivals are taken in time order, those at one instant in input order;
//! - before each arrival, every admitted request whose completion (arrival + hold) is at or
//!   before that instant is released, in completion order (ties in admission order): a
//!   completion at exactly 500 ms frees the slot for an arrival at 500 ms;
//! - there is no queue, no waiting and no retry: a request is admitted or rejected at once,
//!   and a rejection consumes nothing. Refill is continuous (Go `rate.Limiter`-like), so
//!   there are no refill events; the tokens before an event include the refill since the
//!   last one.

use crate::policy::token_bucket::{Admission, Rejection, TokenBucket};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most arrivals a run takes (so at most twice as many steps).
pub const MAX_ARRIVALS: usize = 1000;

/// One request offered to admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// When it arrives (ms).
    pub at_ms: u64,
    /// What it costs (tokens, whole).
    pub cost: u32,
    /// How long it holds its concurrency slot once admitted (ms).
    pub hold_ms: u64,
}

/// The gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gates {
    /// Bucket capacity B (tokens); 0 = no token bucket.
    pub capacity: u32,
    /// Refill rate r (milli-tokens/s: 2000 = 2 tokens/s).
    pub rate_milli: u64,
    /// Most requests in flight (count); 0 = no limit.
    pub limit: u32,
}

/// Credits per token for a rate of `rate_milli` milli-tokens/s: 1000 (source 002's scale)
/// when the rate is whole, else 10⁶, so that a tick of 1 ms refills a whole number of
/// credits either way.
pub fn credits_per_token(rate_milli: u64) -> u64 {
    if rate_milli.is_multiple_of(1000) { 1000 } else { 1_000_000 }
}

/// What happened at one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Arrival number `.0` (input order) was decided: admitted (`Ok`) or rejected.
    Arrival(usize, Result<(), Rejection>),
    /// Admitted arrival number `.0` finished and freed its slot.
    Completion(usize),
    /// The bucket refilled to capacity since the step before (the moment it is full
    /// again, when that comes before the next event): the refill made visible.
    Refill,
}

/// One row of the step table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// When (ms).
    pub t_ms: u64,
    /// What happened.
    pub event: Event,
    /// Credits in the bucket at this instant, before the decision (refill included).
    pub before: u64,
    /// Credits after it.
    pub after: u64,
    /// Requests in flight after the step.
    pub in_flight: u32,
}

/// A rate-limited arrival's finite Retry-After (ms): what its step says to wait.
pub fn retry_after_ms(s: &Step) -> Option<u64> {
    match s.event {
        Event::Arrival(_, Err(Rejection::RateLimit { retry_after }))
            if retry_after != crate::policy::token_bucket::NEVER =>
        {
            Some(retry_after)
        }
        _ => None,
    }
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// 1 token = this many credits.
    pub per_token: u64,
    /// Capacity in credits (0 without a bucket).
    pub capacity: u64,
    /// Refill per tick of 1 ms (credits).
    pub rate_per_ms: u64,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Requests admitted.
    pub admitted: usize,
    /// Requests rejected, by reason: concurrency_limit, rate_limit, cost_exceeds_capacity.
    pub rejected: [usize; 3],
}

impl Run {
    /// Rejections of every reason.
    pub fn rejected_total(&self) -> usize {
        self.rejected.iter().sum()
    }
}

/// Index of a rejection reason in [`Run::rejected`].
pub fn reason_index(r: Rejection) -> usize {
    match r {
        Rejection::ConcurrencyLimit => 0,
        Rejection::RateLimit { .. } => 1,
        Rejection::CostExceedsCapacity => 2,
    }
}

/// Runs `arrivals` (at most [`MAX_ARRIVALS`] are taken) through the gates.
pub fn run(gates: Gates, arrivals: &[Arrival]) -> Run {
    let per_token = credits_per_token(gates.rate_milli);
    // milli-tokens/s × credits/token ÷ (1000 milli × 1000 ms/s) = credits per ms, exact by
    // the choice of `per_token`.
    let rate_per_ms = gates.rate_milli * per_token / 1_000_000;
    let capacity = u64::from(gates.capacity) * per_token;
    let bucket = (gates.capacity > 0).then(|| TokenBucket::new(capacity, rate_per_ms));
    let mut adm = Admission::new(bucket, (gates.limit > 0).then_some(gates.limit));
    let arrivals = &arrivals[..arrivals.len().min(MAX_ARRIVALS)];
    // Stable: input order within an instant.
    let order = crate::order::order_by(arrivals.len(), |i| arrivals[i].at_ms);
    let mut pending = Pending::new();
    let mut out = Run { per_token, capacity, rate_per_ms, steps: Vec::new(), admitted: 0, rejected: [0; 3] };
    for (seq, &i) in order.iter().enumerate() {
        let a = arrivals[i];
        release_until(&mut adm, &mut out, &mut pending, a.at_ms);
        refill_before(&adm, &mut out, a.at_ms);
        let before = level(&mut adm, a.at_ms);
        let decision = adm.try_admit(a.at_ms, u64::from(a.cost) * per_token);
        match decision {
            Ok(()) => {
                out.admitted += 1;
                pending.push(Reverse((a.at_ms.saturating_add(a.hold_ms), seq, i)));
            }
            Err(r) => out.rejected[reason_index(r)] += 1,
        }
        let after = level(&mut adm, a.at_ms);
        out.steps.push(Step {
            t_ms: a.at_ms,
            event: Event::Arrival(i, decision),
            before,
            after,
            in_flight: adm.in_flight,
        });
    }
    release_until(&mut adm, &mut out, &mut pending, u64::MAX);
    refill_before(&adm, &mut out, u64::MAX);
    out
}

/// A refill row when the bucket, not full after the last step, is full again before `t`
/// (the next event's time). The moment is the policy's own (`TokenBucket::full_at`).
fn refill_before(adm: &Admission, out: &mut Run, t: u64) {
    let (Some(bucket), Some(last)) = (adm.bucket.as_ref(), out.steps.last()) else { return };
    if last.after >= out.capacity {
        return;
    }
    if let Some(full) = bucket.full_at().filter(|&f| f > last.t_ms && f < t) {
        let (before, in_flight) = (last.after, last.in_flight);
        out.steps.push(Step { t_ms: full, event: Event::Refill, before, after: out.capacity, in_flight });
    }
}

/// Completions pending: (end, admission sequence, arrival index), earliest first.
type Pending = BinaryHeap<Reverse<(u64, usize, usize)>>;

/// Credits in the bucket at `t` (0 without a bucket).
fn level(adm: &mut Admission, t: u64) -> u64 {
    adm.bucket.as_mut().map_or(0, |b| b.credits_at(t))
}

/// Releases every admitted request that ends at or before `t`, one step each.
fn release_until(adm: &mut Admission, out: &mut Run, pending: &mut Pending, t: u64) {
    while let Some(&Reverse((end, _, i))) = pending.peek() {
        if end > t {
            break;
        }
        pending.pop();
        refill_before(adm, out, end);
        adm.release();
        let credits = level(adm, end);
        out.steps.push(Step {
            t_ms: end,
            event: Event::Completion(i),
            before: credits,
            after: credits,
            in_flight: adm.in_flight,
        });
    }
}

/// The bucket level at `t_ms` drawn between two steps: the level after the step at or
/// before `t_ms`, refilled at the run's rate and capped at capacity. (Drawing only: every
/// figure in the table comes from the policy itself.)
pub fn level_at(run: &Run, t_ms: f64) -> f64 {
    let Some(last) = run.steps.iter().rev().find(|s| s.t_ms as f64 <= t_ms) else {
        return run.capacity as f64;
    };
    let refill = (t_ms - last.t_ms as f64) * run.rate_per_ms as f64;
    (last.after as f64 + refill).min(run.capacity as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(at_ms: u64, cost: u32, hold_ms: u64) -> Arrival {
        Arrival { at_ms, cost, hold_ms }
    }

    #[test]
    fn scale_is_exact_for_whole_and_decimal_rates() {
        assert_eq!(credits_per_token(2000), 1000, "source 002: 1 token = 1000 credits");
        assert_eq!(credits_per_token(2500), 1_000_000);
        let r = run(Gates { capacity: 1, rate_milli: 2500, limit: 0 }, &[a(0, 1, 0), a(100, 1, 0)]);
        // 2.5 tokens/s = 2,500 credits per ms at 10⁶ credits per token: 100 ms → 250,000.
        assert_eq!(r.rate_per_ms, 2500);
        assert_eq!(
            r.steps.iter().filter(|s| matches!(s.event, Event::Arrival(..))).nth(1).unwrap().before,
            250_000
        );
    }

    #[test]
    fn no_bucket_means_only_the_concurrency_gate() {
        let r = run(Gates { capacity: 0, rate_milli: 0, limit: 2 }, &[a(0, 9, 10), a(0, 9, 10), a(0, 9, 10)]);
        assert_eq!((r.admitted, r.rejected), (2, [1, 0, 0]));
        let r = run(Gates { capacity: 0, rate_milli: 0, limit: 0 }, &[a(0, 9, 10); 5]);
        assert_eq!(r.admitted, 5, "no gate at all admits everything");
    }

    #[test]
    fn arrivals_are_taken_in_time_order_then_input_order() {
        let r =
            run(Gates { capacity: 1, rate_milli: 1000, limit: 0 }, &[a(1000, 1, 0), a(0, 1, 0), a(0, 1, 0)]);
        let order: Vec<_> = r
            .steps
            .iter()
            .filter_map(|s| match s.event {
                Event::Arrival(i, d) => Some((i, d.is_ok())),
                _ => None,
            })
            .collect();
        assert_eq!(order, vec![(1, true), (2, false), (0, true)], "#1 then #2 at 0 ms, #0 at 1,000 ms");
    }

    #[test]
    fn the_cap_on_arrivals_bounds_the_work() {
        let many = vec![a(0, 1, 1); MAX_ARRIVALS + 50];
        let r = run(Gates { capacity: 5, rate_milli: 1000, limit: 0 }, &many);
        assert_eq!(r.admitted + r.rejected_total(), MAX_ARRIVALS);
        assert!(r.steps.len() <= 2 * MAX_ARRIVALS);
    }

    #[test]
    fn level_between_steps_refills_up_to_capacity() {
        let r = run(Gates { capacity: 2, rate_milli: 2000, limit: 0 }, &[a(0, 2, 0)]);
        assert_eq!(level_at(&r, 0.0), 0.0);
        assert_eq!(level_at(&r, 250.0), 500.0);
        assert_eq!(level_at(&r, 5000.0), 2000.0);
    }
}
