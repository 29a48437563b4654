//! The rules every engine path applies, each written once: how a leaf answers, whether and
//! when a failed attempt is retried, what a layer answers when a dependency failed, how a
//! request's end is classified, and what a span says. The general engine and the
//! retry-chain kernel both call these functions; neither restates them.

use super::plan::{ClientSpec, LeafBehaviour};
use super::stats::End;
use crate::policy::retry::Jitter;
use crate::policy::token_bucket::NEVER;
use crate::policy::{Failure, Outcome};
use crate::report::{CallResult, MarkKind, Refusal, Span, ms};
use crate::sim::Micros;
use crate::sim::rng::{Key, Purpose};

/// How a leaf call whose work is done answers: a 5xx with probability `error_rate` (the
/// leaf's own, or a fault window's), else a 4xx with the leaf's client-error rate, else a
/// success, which is a computed empty result with the leaf's empty rate. Every draw is a
/// function of the call's key.
#[inline]
pub fn leaf_answer(key: Key, leaf: &LeafBehaviour, error_rate: f64) -> (Outcome, bool) {
    let outcome = if key.uniform(Purpose::Failure) < error_rate {
        Outcome::Error
    } else if leaf.client_error_rate > 0.0 && key.uniform(Purpose::ClientError) < leaf.client_error_rate {
        Outcome::ClientError
    } else {
        Outcome::Ok
    };
    let empty = outcome.is_ok() && leaf.empty_rate > 0.0 && key.uniform(Purpose::Empty) < leaf.empty_rate;
    (outcome, empty)
}

/// Whether attempt `attempt` (1 = the first) that ended in `outcome` may be retried under
/// the client's retry policy, and if so after how long (µs): the backoff of retry number
/// `attempt`, jittered by a draw from the caller's key (a function of the dependency's
/// index and the attempt number), lengthened to a Retry-After the client honours (a
/// Retry-After of "never" ends the retries). The retry gates (deadline, retry budget) come
/// after this, in stack order.
#[inline(always)]
pub fn retry_delay(
    c: &ClientSpec,
    attempt: u32,
    prev_sleep: Micros,
    key: Key,
    outcome: Outcome,
) -> Option<Micros> {
    let r = &c.retry;
    if !(r.retry_on.allows(outcome) && attempt < r.max_attempts) {
        return None;
    }
    // With no jitter the draw is never used; it is a pure function of the key, so skipping
    // it changes nothing.
    let u = if r.backoff.jitter == Jitter::None {
        0.0
    } else {
        key.uniform_n(Purpose::Jitter, attempt * 8 + c.dep_index)
    };
    let mut delay = r.backoff.delay(attempt, prev_sleep, u);
    if let Outcome::Overload { retry_after_us } = outcome
        && r.honor_retry_after
    {
        if retry_after_us == NEVER {
            return None;
        }
        delay = delay.max(retry_after_us);
    }
    Some(delay)
}

/// What a layer answers once all its dependencies are done, given the first core
/// dependency failure it saw: success, or the failure passed up as the caller will see it
/// (a 4xx stays a 4xx, an exhausted deadline stays one, anything else becomes a 5xx).
#[inline]
pub fn layer_answer(core_failure: Option<Failure>) -> Outcome {
    match core_failure {
        None => Outcome::Ok,
        Some(Failure::ClientError) => Outcome::ClientError,
        Some(Failure::DeadlineExceeded) => Outcome::DeadlineExceeded,
        Some(_) => Outcome::Error,
    }
}

/// How a request whose entry call answered `outcome` ended. Only the entry's own admission
/// control (its rate and concurrency limits, its full or timed-out queue) rejects a request:
/// an entry call answers `Overload` only then, because a layer passes any dependency's
/// failure up as an error. A refusal further down fails (or degrades) the request, whatever
/// its depth.
#[inline]
pub fn end_of(outcome: Outcome, degraded: bool) -> End {
    match outcome {
        Outcome::Ok if degraded => End::Degraded,
        Outcome::Ok => End::Succeeded,
        Outcome::Overload { .. } => End::Rejected,
        _ => End::Failed,
    }
}

/// A call's answer as a span result.
pub fn call_result(o: Outcome) -> CallResult {
    match o {
        Outcome::Ok => CallResult::Ok,
        Outcome::Timeout => CallResult::Timeout,
        Outcome::Error => CallResult::Error,
        Outcome::Overload { .. } => CallResult::Overload,
        Outcome::ClientError => CallResult::ClientError,
        Outcome::BreakerOpen => CallResult::BreakerRejected,
        Outcome::BulkheadFull => CallResult::BulkheadRejected,
        Outcome::DeadlineExceeded => CallResult::BudgetExhausted,
        Outcome::BudgetDenied => CallResult::RetryBudgetDenied,
    }
}

/// A traced call as its callee saw it, up to its end.
#[derive(Clone, Copy, Debug)]
pub struct SpanOf {
    /// Its id in the trace, and its caller's (none for the entry call).
    pub id: u32,
    pub parent: Option<u32>,
    pub hop: usize,
    /// Attempt number at the caller (1 = first).
    pub attempt: u32,
    /// Arrival at the hop (µs).
    pub arrived: Micros,
    /// When a worker took it (µs), if one did.
    pub work_start: Option<Micros>,
    /// Why the hop's admission or queue turned it away, if it did.
    pub refusal: Option<Refusal>,
}

/// A call as its callee saw it, for a trace, ending at `now`.
pub fn span(of: SpanOf, now: Micros, result: CallResult, abandoned: bool) -> Span {
    Span {
        id: of.id,
        parent: of.parent,
        hop: of.hop,
        attempt: of.attempt,
        start_ms: ms(of.arrived),
        work_ms: of.work_start.map(ms),
        end_ms: ms(now),
        result,
        abandoned,
        refusal: of.refusal,
    }
}

/// Why a failed attempt that [`retry_delay`] does not retry ends its dependency's retries:
/// the policy's last attempt, or a failure it does not retry.
#[inline]
pub fn gave_up(c: &ClientSpec, attempt: u32) -> MarkKind {
    if attempt >= c.retry.max_attempts { MarkKind::AttemptsExhausted } else { MarkKind::NotRetryable }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::chain::plan::compile;
    use crate::scenario::presets;

    #[test]
    fn a_leaf_answers_from_its_key() {
        let b = LeafBehaviour { error_rate: 0.5, client_error_rate: 0.0, empty_rate: 0.0 };
        let (mut errors, n) = (0, 10_000);
        for k in 0..n {
            let (o, empty) = leaf_answer(Key(k * 7919), &b, b.error_rate);
            assert!(!empty);
            errors += u32::from(o == Outcome::Error);
            assert_eq!(leaf_answer(Key(k * 7919), &b, b.error_rate).0, o, "the same key, the same answer");
        }
        assert!((4_800..5_200).contains(&errors), "about half fail: {errors}");
        let always = LeafBehaviour { error_rate: 0.0, client_error_rate: 1.0, empty_rate: 1.0 };
        assert_eq!(leaf_answer(Key(1), &always, 0.0), (Outcome::ClientError, false));
        assert_eq!(leaf_answer(Key(1), &always, 1.0).0, Outcome::Error, "a fault's rate replaces the leaf's");
    }

    #[test]
    fn retries_follow_the_policy_and_retry_after() {
        let plan = compile(&presets::lab11_unprotected());
        let inner = &plan.clients[1]; // 3 attempts, 20 ms fixed backoff
        assert_eq!(retry_delay(inner, 1, 0, Key(3), Outcome::Error), Some(20_000));
        assert_eq!(retry_delay(inner, 3, 0, Key(3), Outcome::Error), None, "attempts used up");
        assert_eq!(retry_delay(inner, 1, 0, Key(3), Outcome::ClientError), None, "4xx is never retried");
        assert_eq!(retry_delay(inner, 1, 0, Key(3), Outcome::BreakerOpen), None);
        let ra = Outcome::Overload { retry_after_us: 50_000 };
        assert_eq!(
            retry_delay(inner, 1, 0, Key(3), ra),
            Some(50_000),
            "the longer of backoff and Retry-After"
        );
    }

    #[test]
    fn failures_travel_up_and_requests_end_one_way() {
        assert_eq!(layer_answer(None), Outcome::Ok);
        assert_eq!(layer_answer(Some(Failure::Timeout)), Outcome::Error);
        assert_eq!(layer_answer(Some(Failure::BreakerOpen)), Outcome::Error);
        assert_eq!(layer_answer(Some(Failure::ClientError)), Outcome::ClientError);
        assert_eq!(layer_answer(Some(Failure::DeadlineExceeded)), Outcome::DeadlineExceeded);
        assert_eq!(end_of(Outcome::Ok, false), End::Succeeded);
        assert_eq!(end_of(Outcome::Ok, true), End::Degraded);
        assert_eq!(end_of(Outcome::Overload { retry_after_us: 1 }, false), End::Rejected);
        assert_eq!(end_of(Outcome::Error, false), End::Failed);
    }
}
