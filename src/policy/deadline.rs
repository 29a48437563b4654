//! Deadline propagation: a total budget set at the entry and passed down as the remaining
//! budget (as gRPC's `grpc-timeout`, never an absolute clock).
//!
//! Choices this model makes:
//! - Each try waits `min(per-try cap, remaining)`.
//! - The caller checks the budget before each attempt and before each backoff sleep: an
//!   attempt is made only if at least `min_useful` remains when it would start (source
//!   000: "budget checks go before the sleep and before the request"; a request that is
//!   bound to arrive late is not sent). Failing the check counts as `budget_exhausted`.
//! - A callee receives its caller's whole remaining budget (the request's absolute
//!   deadline, as gRPC passes the remaining time), not just the per-try timeout, and checks
//!   it before starting work: a call with less than the server's `min_budget_ms` left is
//!   refused with "deadline exceeded".

/// "No deadline": the budget never runs out.
pub const NO_DEADLINE: u64 = u64::MAX;

/// Remaining budget at `now` for an absolute deadline (0 once passed).
#[inline]
pub fn remaining(deadline: u64, now: u64) -> u64 {
    deadline.saturating_sub(now)
}

/// How long the next try may wait: `min(per_try, remaining)`; `None` when neither limits it.
#[inline]
pub fn try_timeout(per_try: Option<u64>, deadline: u64, now: u64) -> Option<u64> {
    let rem = (deadline != NO_DEADLINE).then(|| remaining(deadline, now));
    match (per_try, rem) {
        (Some(p), Some(r)) => Some(p.min(r)),
        (Some(p), None) => Some(p),
        (None, Some(r)) => Some(r),
        (None, None) => None,
    }
}

/// Whether an attempt starting after `wait` µs still has `min_useful` µs of budget.
#[inline]
pub fn may_attempt_after(deadline: u64, now: u64, wait: u64, min_useful: u64) -> bool {
    if deadline == NO_DEADLINE {
        return true;
    }
    let start = now.saturating_add(wait);
    start < deadline && remaining(deadline, start) >= min_useful.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1000;

    #[test]
    fn source_000_budget_arithmetic() {
        // 250 ms budget, first try fails at 100 ms, backoff 20 ms, minimum useful 100 ms:
        // 130 ms remain after the sleep, so a second try fits; a third would not.
        let deadline = 250 * MS;
        assert!(may_attempt_after(deadline, 0, 0, 100 * MS));
        assert!(may_attempt_after(deadline, 100 * MS, 20 * MS, 100 * MS));
        assert!(!may_attempt_after(deadline, 220 * MS, 20 * MS, 100 * MS));
        // With 150 ms, only the first attempt fits: 30 ms would remain after the sleep.
        assert!(!may_attempt_after(150 * MS, 100 * MS, 20 * MS, 100 * MS));
    }

    #[test]
    fn try_timeout_is_the_smaller_of_cap_and_remaining() {
        assert_eq!(try_timeout(Some(100 * MS), 130 * MS, 0), Some(100 * MS));
        assert_eq!(try_timeout(Some(100 * MS), 250 * MS, 200 * MS), Some(50 * MS));
        assert_eq!(try_timeout(None, 250 * MS, 100 * MS), Some(150 * MS));
        assert_eq!(try_timeout(None, NO_DEADLINE, 5), None);
        assert_eq!(try_timeout(Some(7), NO_DEADLINE, 5), Some(7));
    }

    #[test]
    fn an_expired_budget_never_allows_an_attempt() {
        assert!(!may_attempt_after(100, 100, 0, 0));
        assert!(!may_attempt_after(100, 150, 0, 0));
        assert!(may_attempt_after(NO_DEADLINE, u64::MAX - 1, 10, 10));
    }
}
