//! The policy stack: the order in which a caller applies its protections to one call.
//!
//! A caller's protections towards one dependency form an ordered list of stages, read the
//! way tower's `ServiceBuilder` reads: **the first stage sees the request first on the way
//! out and the response last on the way back.** The engine walks this list and nothing
//! else; the report exports it (`clients[i].stack`) and the diagram draws it, so the order a
//! learner sees is the order the engine ran.
//!
//! The stages and what each decides (the rules live in the engine's client side,
//! `model/chain/client.rs`, one arm per stage):
//!
//! | stage | on the way out (each attempt) | on the way back |
//! |---|---|---|
//! | `retry` | — (always first: it repeats every stage inside it) | retries a retryable failure after a backoff, if every retry gate below agrees |
//! | `deadline` | refuses (`budget_exhausted`) if less than `min_useful_ms` of the request's deadline remains | retry gate: refuses a retry that could not start with `min_useful_ms` left after the backoff |
//! | `retry_budget` | — | records the outcome (deposit / withdraw); retry gate: a retry needs a token |
//! | `breaker` | refuses (`breaker_rejected`) while open, or when half-open probes are taken | records the outcome of a call that reached the dependency |
//! | `timeout` | arms the per-try timer, `min(per-try timeout, remaining deadline)` | the caller stops waiting when it fires |
//! | `bulkhead` | takes a slot of the caller's bulkhead or of the layer's shared pool, waits in its queue, or refuses (`bulkhead_rejected`) | gives the slot back |
//!
//! After the last stage the call is sent. A stage refusing an attempt is a refusal by the
//! caller's own protections: the stages outside it hand back what they took (a breaker
//! permit, a slot) without recording anything, and the refusal is never retried. When a
//! timer fires, the stages inside it are interrupted the same way (a breaker inside the
//! timeout never sees the timeout; a bulkhead inside it covers the wait for a slot), and
//! the stages outside it see a timeout.
//!
//! The default, [`DEFAULT_ORDER`], is Resilience4j's decorator order (`Retry` outside
//! `CircuitBreaker` outside `TimeLimiter` outside `Bulkhead`) with the deadline and the
//! retry budget just inside the retry: the deadline is checked first, the timeout covers
//! the wait for a bulkhead slot, and the breaker records timeouts as failures. A scenario
//! may reorder every stage but `retry` (`client.stack`), as Resilience4j's aspect order
//! lets a user do; the report shows the order that ran.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One protection in a caller's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Attempts, backoff and jitter; repeats the stages inside it.
    Retry,
    /// The request's deadline: a minimum useful time before each attempt and each retry.
    Deadline,
    /// A cap on how much extra load retries may add.
    RetryBudget,
    /// A circuit breaker.
    Breaker,
    /// The per-try timeout (capped by the remaining deadline).
    Timeout,
    /// A bulkhead: the caller's own, or a slot of the layer's shared pool.
    Bulkhead,
}

/// The order every client uses unless its scenario says otherwise, outermost first.
pub const DEFAULT_ORDER: [Stage; 6] =
    [Stage::Retry, Stage::Deadline, Stage::RetryBudget, Stage::Breaker, Stage::Timeout, Stage::Bulkhead];

impl Stage {
    /// Every stage, in the default order.
    pub const ALL: [Stage; 6] = DEFAULT_ORDER;

    /// The name used in scenario files, reports and URLs.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Retry => "retry",
            Stage::Deadline => "deadline",
            Stage::RetryBudget => "retry_budget",
            Stage::Breaker => "breaker",
            Stage::Timeout => "timeout",
            Stage::Bulkhead => "bulkhead",
        }
    }

    /// The stage called `name`, if any.
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An ordered list of at most six stages, small enough to copy (the engine reads it once
/// per attempt).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    len: u8,
    /// One bit per stage held (`bit`), made with the list: the engine asks "does it have
    /// this stage?" on every attempt.
    mask: u8,
    /// The stages in `..len`; the rest is padding.
    items: [Stage; 6],
}

impl Default for Stages {
    fn default() -> Self {
        Stages { len: 0, mask: 0, items: [Stage::Retry; 6] }
    }
}

/// A stage's bit in [`Stages::mask`](Stages).
const fn bit(s: Stage) -> u8 {
    1 << s as u8
}

impl Stages {
    /// The stages in `list`, in order (at most six; more are ignored).
    pub fn new(list: impl IntoIterator<Item = Stage>) -> Self {
        let mut s = Stages::default();
        for st in list.into_iter().take(6) {
            s.items[s.len as usize] = st;
            s.mask |= bit(st);
            s.len += 1;
        }
        s
    }

    /// Whether `stage` is among them.
    #[inline]
    pub fn has(&self, stage: Stage) -> bool {
        self.mask & bit(stage) != 0
    }

    /// Whether none of them can refuse an attempt, make it wait or record its end: there
    /// is nothing but the per-try timeout (and the retry). Most clients are so; the
    /// engine then skips the walks through the list.
    #[inline]
    pub fn timer_only(&self) -> bool {
        self.mask & !(bit(Stage::Retry) | bit(Stage::Timeout)) == 0
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The stage at `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Stage> {
        self.items[..self.len as usize].get(i).copied()
    }

    /// The stages in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Stage> + ExactSizeIterator + '_ {
        self.items[..self.len as usize].iter().copied()
    }

    /// The position of `stage`, if present.
    pub fn position(&self, stage: Stage) -> Option<usize> {
        self.iter().position(|s| s == stage)
    }
}

/// Why an order of stages cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// `retry` must come first: the model retries the whole stack.
    RetryNotFirst,
    /// A stage is listed twice.
    Repeated(Stage),
    /// A stage is missing.
    Missing(Stage),
}

/// Checks a configured order: all six stages, each once, `retry` first.
pub fn check_order(order: &[Stage]) -> Result<(), OrderError> {
    if order.first() != Some(&Stage::Retry) {
        return Err(OrderError::RetryNotFirst);
    }
    for (i, s) in order.iter().enumerate() {
        if order[..i].contains(s) {
            return Err(OrderError::Repeated(*s));
        }
    }
    match Stage::ALL.into_iter().find(|s| !order.contains(s)) {
        Some(s) => Err(OrderError::Missing(s)),
        None => Ok(()),
    }
}

/// The order as words joined by arrows, e.g. for captions: `retry → deadline → …`.
pub fn describe(stack: &[Stage]) -> String {
    stack.iter().map(|s| s.name()).collect::<Vec<_>>().join(" → ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_order_is_valid_and_named() {
        assert_eq!(check_order(&DEFAULT_ORDER), Ok(()));
        assert_eq!(
            describe(&DEFAULT_ORDER),
            "retry → deadline → retry_budget → breaker → timeout → bulkhead"
        );
        for s in Stage::ALL {
            assert_eq!(Stage::from_name(s.name()), Some(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()), "serde and name() agree");
        }
    }

    #[test]
    fn a_list_knows_what_it_holds() {
        use Stage::*;
        let t = Stages::new([Timeout]);
        assert!(t.has(Timeout) && !t.has(Breaker) && t.timer_only());
        assert!(Stages::new([]).timer_only() && !Stages::new([]).has(Timeout));
        assert!(Stages::new([Retry, Timeout]).timer_only());
        for s in [Deadline, RetryBudget, Breaker, Bulkhead] {
            let list = Stages::new([s, Timeout]);
            assert!(list.has(s) && !list.timer_only(), "{s}");
        }
        assert_eq!(Stages::new(DEFAULT_ORDER).iter().collect::<Vec<_>>(), DEFAULT_ORDER);
    }

    #[test]
    fn bad_orders_say_why() {
        use Stage::*;
        assert_eq!(
            check_order(&[Deadline, Retry, RetryBudget, Breaker, Timeout, Bulkhead]),
            Err(OrderError::RetryNotFirst)
        );
        assert_eq!(
            check_order(&[Retry, Breaker, Breaker, Timeout, Bulkhead, Deadline]),
            Err(OrderError::Repeated(Breaker))
        );
        assert_eq!(
            check_order(&[Retry, Deadline, Breaker, Timeout, Bulkhead]),
            Err(OrderError::Missing(RetryBudget))
        );
        assert_eq!(check_order(&[Retry, Bulkhead, Timeout, Breaker, RetryBudget, Deadline]), Ok(()));
        assert_eq!(check_order(&[]), Err(OrderError::RetryNotFirst));
    }
}
