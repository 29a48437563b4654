//! A count-based circuit breaker (Resilience4j's model; source 003's thresholds).
//!
//! Choices this model makes (see `semantics.md`, "Choices our models must state"):
//! 1. The window holds the last `window` recorded calls. Every attempt is a call, so
//!    retries count; calls the breaker itself rejects are not recorded, nor are refusals by
//!    the caller's other protections (they say nothing about the dependency's health).
//!    Failures are timeouts, 5xx and connection errors, overload rejections (429/503), and a
//!    callee's "deadline exceeded" answer. A 4xx is a stated choice ([`ClientErrors`]): by
//!    default it is ignored, counting neither way (Resilience4j's `ignoreExceptions`);
//!    Resilience4j's own default records any exception not listed as a failure.
//! 2. Thresholds trip at `≥` (failure rate ≥ 50 % with 10 failures in 20 calls opens),
//!    compared in integer basis points, so there is no rounding.
//! 3. The rates are evaluated after every recorded outcome once at least `min_calls`
//!    calls are in the window.
//! 4. Half-open lets exactly `half_open_calls` probes through and rejects the rest; once
//!    all probes have answered, the failure (and slow) rate over the probes decides: at or
//!    above the threshold → open again, else closed with an empty window. Open → half-open
//!    happens on the first call after `open_ms` (lazy, Resilience4j's default) or exactly
//!    at `open_ms` (timed, `automaticTransitionFromOpenToHalfOpenEnabled`).
//! 5. Each permit carries the breaker's epoch; an answer that arrives after the state
//!    changed (a call let through before the breaker opened) is not recorded.
//!
//! A call is *slow* if it took at least `slow_call_ms`; a slow-call rate at or above
//! `slow_rate` also opens the breaker.

use super::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A breaker as configured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakerConfig {
    /// Calls in the sliding window (≈ Resilience4j slidingWindowSize; source 003: 20).
    pub window: u32,
    /// Calls needed before rates are evaluated (≈ minimumNumberOfCalls).
    pub min_calls: u32,
    /// Failure rate that opens the breaker, in percent, compared with ≥
    /// (≈ failureRateThreshold; source 003: 50).
    pub failure_rate_pct: f64,
    /// A call at least this long counts as slow (ms; ≈ slowCallDurationThreshold); none =
    /// slowness is ignored.
    #[serde(default)]
    pub slow_call_ms: Option<f64>,
    /// Slow-call rate that opens the breaker, in percent (≈ slowCallRateThreshold).
    #[serde(default = "hundred")]
    pub slow_rate_pct: f64,
    /// How long the breaker stays open (ms; ≈ waitDurationInOpenState; source 001: 30 s).
    pub open_ms: f64,
    /// Probes allowed in half-open (≈ permittedNumberOfCallsInHalfOpenState).
    pub half_open_calls: u32,
    /// Open → half-open exactly when `open_ms` ends, rather than on the next call.
    #[serde(default)]
    pub timed_half_open: bool,
    /// Client instances, each with its own breaker; requests are spread over them.
    #[serde(default = "one")]
    pub instances: u32,
    /// What a 4xx answer counts as (≈ Resilience4j `ignoreExceptions` /
    /// `recordExceptions`).
    #[serde(default)]
    pub client_errors: ClientErrors,
}

/// What a breaker records for a 4xx answer: the caller's request was wrong, which says
/// little about the dependency's health.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientErrors {
    /// Counts neither way (Resilience4j `ignoreExceptions`).
    #[default]
    Ignore,
    /// Counts as a failure (Resilience4j's default for an exception it is not told about).
    Failure,
    /// Counts as a success (the dependency answered).
    Success,
}

/// What the breaker makes of one answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A healthy answer.
    Success,
    /// Evidence of trouble.
    Failure,
    /// Not evidence either way: the permit is handed back, nothing recorded.
    Ignored,
}

fn hundred() -> f64 {
    100.0
}
fn one() -> u32 {
    1
}

impl Default for BreakerConfig {
    /// Source 003: window 20, at least 20 calls, ≥ 50 % failures; 30 s open (source 001);
    /// one probe.
    fn default() -> Self {
        BreakerConfig {
            window: 20,
            min_calls: 20,
            failure_rate_pct: 50.0,
            slow_call_ms: None,
            slow_rate_pct: 100.0,
            open_ms: 30_000.0,
            half_open_calls: 1,
            timed_half_open: false,
            instances: 1,
            client_errors: ClientErrors::Ignore,
        }
    }
}

/// The three states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum State {
    /// Calls pass and are counted.
    Closed,
    /// Calls are rejected at once.
    Open,
    /// A few probes pass; the rest are rejected.
    HalfOpen,
}

impl State {
    /// A number for charts: closed 0, half-open 1, open 2.
    pub fn level(self) -> u8 {
        match self {
            State::Closed => 0,
            State::HalfOpen => 1,
            State::Open => 2,
        }
    }
}

/// Permission to make one call, to hand back with its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Permit {
    epoch: u32,
}

/// A state change, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Transition {
    /// When (µs of virtual time).
    pub at_us: u64,
    /// From.
    pub from: State,
    /// To.
    pub to: State,
}

const FAILED: u8 = 1;
const SLOW: u8 = 2;

/// One breaker's live state.
#[derive(Clone, Debug)]
pub struct Breaker {
    window: u32,
    min_calls: u32,
    failure_bp: u64,
    slow_bp: u64,
    slow_us: Option<u64>,
    open_us: u64,
    half_open_calls: u32,
    timed: bool,
    state: State,
    epoch: u32,
    ring: VecDeque<u8>,
    failures: u32,
    slows: u32,
    opened_at: u64,
    probes_issued: u32,
    probes_done: u32,
    probe_failures: u32,
    probe_slows: u32,
}

fn basis_points(pct: f64) -> u64 {
    libm::round(pct.clamp(0.0, 100.0) * 100.0) as u64
}

impl Breaker {
    /// A closed breaker.
    pub fn new(cfg: &BreakerConfig) -> Self {
        Breaker {
            window: cfg.window.max(1),
            min_calls: cfg.min_calls.max(1),
            failure_bp: basis_points(cfg.failure_rate_pct),
            slow_bp: basis_points(cfg.slow_rate_pct),
            slow_us: cfg.slow_call_ms.map(crate::policy::retry::ms_to_us),
            open_us: crate::policy::retry::ms_to_us(cfg.open_ms),
            half_open_calls: cfg.half_open_calls.max(1),
            timed: cfg.timed_half_open,
            state: State::Closed,
            epoch: 0,
            ring: VecDeque::with_capacity(cfg.window as usize),
            failures: 0,
            slows: 0,
            opened_at: 0,
            probes_issued: 0,
            probes_done: 0,
            probe_failures: 0,
            probe_slows: 0,
        }
    }

    /// The current state (as of the last call or timer).
    pub fn state(&self) -> State {
        self.state
    }

    /// When a timed breaker will half-open, if it is open and timed.
    pub fn half_open_at(&self) -> Option<u64> {
        (self.timed && self.state == State::Open).then(|| self.opened_at.saturating_add(self.open_us))
    }

    fn go(&mut self, now: u64, to: State) -> Transition {
        let t = Transition { at_us: now, from: self.state, to };
        self.state = to;
        self.epoch = self.epoch.wrapping_add(1);
        match to {
            State::Open => self.opened_at = now,
            State::HalfOpen => {
                self.probes_issued = 0;
                self.probes_done = 0;
                self.probe_failures = 0;
                self.probe_slows = 0;
            }
            State::Closed => {
                self.ring.clear();
                self.failures = 0;
                self.slows = 0;
            }
        }
        t
    }

    /// Asks to make a call at `now`. A lazy breaker may move open → half-open here, which
    /// is returned as a transition.
    pub fn try_acquire(&mut self, now: u64) -> (Option<Permit>, Option<Transition>) {
        let mut moved = None;
        if self.state == State::Open && !self.timed && now >= self.opened_at.saturating_add(self.open_us) {
            moved = Some(self.go(now, State::HalfOpen));
        }
        let permit = match self.state {
            State::Closed => Some(Permit { epoch: self.epoch }),
            State::Open => None,
            State::HalfOpen if self.probes_issued < self.half_open_calls => {
                self.probes_issued += 1;
                Some(Permit { epoch: self.epoch })
            }
            State::HalfOpen => None,
        };
        (permit, moved)
    }

    /// Hands back a permit that was not used (the call was refused further in, e.g. by a
    /// full bulkhead): a half-open probe slot becomes free again; nothing is recorded.
    pub fn release(&mut self, permit: Permit) {
        if permit.epoch == self.epoch && self.state == State::HalfOpen {
            self.probes_issued = self.probes_issued.saturating_sub(1);
        }
    }

    /// The timed transition: call at [`half_open_at`](Self::half_open_at).
    pub fn on_timer(&mut self, now: u64) -> Option<Transition> {
        match self.half_open_at() {
            Some(at) if now >= at => Some(self.go(now, State::HalfOpen)),
            _ => None,
        }
    }

    /// Records the outcome of a permitted call that took `took_us`.
    pub fn on_result(&mut self, now: u64, permit: Permit, failed: bool, took_us: u64) -> Option<Transition> {
        if permit.epoch != self.epoch {
            return None; // let through under an earlier state: not evidence about this one
        }
        let slow = self.slow_us.is_some_and(|s| took_us >= s);
        match self.state {
            State::Closed => {
                if self.ring.len() == self.window as usize {
                    let old = self.ring.pop_front().unwrap_or(0);
                    self.failures -= u32::from(old & FAILED != 0);
                    self.slows -= u32::from(old & SLOW != 0);
                }
                self.ring.push_back(if failed { FAILED } else { 0 } | if slow { SLOW } else { 0 });
                self.failures += u32::from(failed);
                self.slows += u32::from(slow);
                let n = self.ring.len() as u32;
                if n >= self.min_calls && self.trips(self.failures, self.slows, n) {
                    return Some(self.go(now, State::Open));
                }
                None
            }
            State::HalfOpen => {
                self.probes_done += 1;
                self.probe_failures += u32::from(failed);
                self.probe_slows += u32::from(slow);
                if self.probes_done < self.half_open_calls {
                    return None;
                }
                let to = if self.trips(self.probe_failures, self.probe_slows, self.probes_done) {
                    State::Open
                } else {
                    State::Closed
                };
                Some(self.go(now, to))
            }
            State::Open => None,
        }
    }

    fn trips(&self, failures: u32, slows: u32, n: u32) -> bool {
        let n = u64::from(n);
        u64::from(failures) * 10_000 >= self.failure_bp * n
            || (self.slow_us.is_some() && u64::from(slows) * 10_000 >= self.slow_bp * n)
    }
}

/// What a breaker records for a call that reached the dependency and ended in `outcome`.
pub fn verdict(outcome: Outcome, client_errors: ClientErrors) -> Verdict {
    match outcome {
        Outcome::Ok => Verdict::Success,
        Outcome::Timeout | Outcome::Error | Outcome::Overload { .. } | Outcome::DeadlineExceeded => {
            Verdict::Failure
        }
        Outcome::ClientError => match client_errors {
            ClientErrors::Ignore => Verdict::Ignored,
            ClientErrors::Failure => Verdict::Failure,
            ClientErrors::Success => Verdict::Success,
        },
        // The caller's own refusals never reach a breaker's record.
        Outcome::BreakerOpen | Outcome::BulkheadFull | Outcome::BudgetDenied => Verdict::Ignored,
    }
}

/// Which breaker states may follow which.
pub fn allowed_edge(from: State, to: State) -> bool {
    matches!(
        (from, to),
        (State::Closed, State::Open)
            | (State::Open, State::HalfOpen)
            | (State::HalfOpen, State::Open)
            | (State::HalfOpen, State::Closed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> BreakerConfig {
        BreakerConfig {
            window: 20,
            min_calls: 20,
            failure_rate_pct: 50.0,
            open_ms: 1000.0,
            half_open_calls: 2,
            ..BreakerConfig::default()
        }
    }

    /// Feeds `outcomes` (true = failed) one call at a time; returns the states seen after
    /// each and whether each call was permitted.
    fn feed(b: &mut Breaker, now: u64, outcomes: &[bool]) -> Vec<(bool, State)> {
        outcomes
            .iter()
            .map(|&failed| {
                let (p, _) = b.try_acquire(now);
                if let Some(p) = p {
                    b.on_result(now, p, failed, 1);
                }
                (p.is_some(), b.state())
            })
            .collect()
    }

    #[test]
    fn transition_table() {
        // (description, outcomes, state after)
        let cases: &[(&str, Vec<bool>, State)] = &[
            ("19 failures: minimum calls not reached", vec![true; 19], State::Closed),
            (
                "10 of 20 failed: exactly at threshold opens",
                [vec![false; 10], vec![true; 10]].concat(),
                State::Open,
            ),
            ("9 of 20 failed stays closed", [vec![false; 11], vec![true; 9]].concat(), State::Closed),
            (
                "old failures slide out of the window",
                [vec![true; 9], vec![false; 11], vec![false; 9], vec![true; 9]].concat(),
                State::Closed,
            ),
        ];
        for (what, outcomes, want) in cases {
            let mut b = Breaker::new(&cfg());
            let got = feed(&mut b, 0, outcomes);
            assert_eq!(got.last().unwrap().1, *want, "{what}");
        }
    }

    #[test]
    fn open_rejects_then_half_open_limits_probes() {
        let mut b = Breaker::new(&cfg());
        feed(&mut b, 0, &[true; 20]);
        assert_eq!(b.state(), State::Open);
        assert_eq!(b.try_acquire(999_999).0, None, "still open just before open_ms");
        let (p1, moved) = b.try_acquire(1_000_000);
        assert_eq!(moved.map(|t| (t.from, t.to)), Some((State::Open, State::HalfOpen)), "lazy transition");
        let p1 = p1.expect("first probe");
        let p2 = b.try_acquire(1_000_000).0.expect("second probe");
        assert_eq!(b.try_acquire(1_000_000).0, None, "extra half-open calls are rejected");
        assert_eq!(b.on_result(1_000_001, p1, false, 1), None, "waits for every probe");
        let t = b.on_result(1_000_002, p2, true, 1).unwrap();
        assert_eq!((t.from, t.to), (State::HalfOpen, State::Open), "1 of 2 failed = 50 %: open again");
    }

    #[test]
    fn half_open_probe_success_closes_with_an_empty_window() {
        let mut b = Breaker::new(&BreakerConfig { half_open_calls: 1, ..cfg() });
        feed(&mut b, 0, &[true; 20]);
        let p = b.try_acquire(1_000_000).0.unwrap();
        assert_eq!(b.on_result(1_000_000, p, false, 1).map(|t| t.to), Some(State::Closed));
        assert_eq!(feed(&mut b, 1_000_000, &[true; 19]).last().unwrap().1, State::Closed, "window rebuilt");
    }

    #[test]
    fn half_open_probe_failure_opens_again() {
        let mut b = Breaker::new(&BreakerConfig { half_open_calls: 1, ..cfg() });
        feed(&mut b, 0, &[true; 20]);
        let p = b.try_acquire(1_000_000).0.unwrap();
        assert_eq!(b.on_result(1_000_000, p, true, 1).map(|t| t.to), Some(State::Open));
        assert_eq!(b.try_acquire(1_500_000).0, None, "a fresh open period started at the probe");
    }

    #[test]
    fn timed_breaker_half_opens_on_its_timer() {
        let mut b = Breaker::new(&BreakerConfig { timed_half_open: true, ..cfg() });
        feed(&mut b, 5, &[true; 20]);
        assert_eq!(b.half_open_at(), Some(1_000_005));
        assert_eq!(b.try_acquire(2_000_000).0, None, "a timed breaker does not move on calls");
        assert_eq!(b.on_timer(1_000_005).map(|t| t.to), Some(State::HalfOpen));
    }

    #[test]
    fn answers_from_an_earlier_state_are_not_recorded() {
        let mut b = Breaker::new(&BreakerConfig { half_open_calls: 1, ..cfg() });
        let early = b.try_acquire(0).0.unwrap();
        feed(&mut b, 0, &[true; 20]);
        let probe = b.try_acquire(1_000_000).0.unwrap();
        assert_eq!(b.on_result(1_000_000, early, false, 1), None, "the late closed-state answer is ignored");
        assert_eq!(b.state(), State::HalfOpen);
        assert_eq!(b.on_result(1_000_000, probe, false, 1).map(|t| t.to), Some(State::Closed));
    }

    #[test]
    fn what_counts_as_a_failure() {
        use Verdict::*;
        let v = |o| verdict(o, ClientErrors::default());
        assert_eq!(v(Outcome::Ok), Success);
        assert_eq!(v(Outcome::DeadlineExceeded), Failure, "a callee's deadline-exceeded answer is a failure");
        assert_eq!(v(Outcome::Timeout), Failure);
        assert_eq!(v(Outcome::Overload { retry_after_us: 1 }), Failure);
        assert_eq!(v(Outcome::ClientError), Ignored, "4xx: neither way by default");
        assert_eq!(verdict(Outcome::ClientError, ClientErrors::Failure), Failure);
        assert_eq!(verdict(Outcome::ClientError, ClientErrors::Success), Success);
    }

    #[test]
    fn slow_calls_open_the_breaker() {
        let mut b = Breaker::new(&BreakerConfig { slow_call_ms: Some(100.0), slow_rate_pct: 80.0, ..cfg() });
        for i in 0..20 {
            let p = b.try_acquire(0).0.unwrap();
            b.on_result(0, p, false, if i < 16 { 150_000 } else { 1 });
        }
        assert_eq!(b.state(), State::Open, "16 of 20 slow = 80 %");
    }
}
