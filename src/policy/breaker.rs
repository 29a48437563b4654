//! A circuit breaker over a count- or time-based sliding window (Resilience4j's model;
//! source 003's thresholds).
//!
//! Choices this model makes (see the team's `../shared/docs/semantics.md`, "Choices our
//! models must state"):
//! 1. The window holds the last `window` recorded calls ([`WindowKind::Count`], Resilience4j
//!    `COUNT_BASED`), or the calls recorded in the last `window` whole seconds of virtual
//!    time ([`WindowKind::Time`], `TIME_BASED`; see "The time-based window" below). Every
//!    attempt is a call, so retries count; calls the breaker itself rejects are not
//!    recorded, nor are refusals by the caller's other protections (they say nothing about
//!    the dependency's health). Failures are timeouts, 5xx and connection errors, overload
//!    rejections (429/503), and a callee's "deadline exceeded" answer. A 4xx is a stated
//!    choice ([`ClientErrors`]): by default it is ignored, counting neither way
//!    (Resilience4j's `ignoreExceptions`); Resilience4j's own default records any exception
//!    not listed as a failure.
//! 2. Thresholds trip at `≥` (failure rate ≥ 50 % with 10 failures in 20 calls opens),
//!    compared in integer basis points, so there is no rounding.
//! 3. The rates are evaluated after every recorded outcome once at least `min_calls`
//!    calls are in the window.
//! 4. Half-open lets exactly `half_open_calls` probes through and rejects the rest; once
//!    all probes have answered, the failure (and slow) rate over the probes decides: at or
//!    above the threshold → open again, else closed with an empty window. Open → half-open
//!    happens on the first call at or after `open_ms` (lazy, Resilience4j's default) or
//!    exactly at `open_ms` (timed, `automaticTransitionFromOpenToHalfOpenEnabled`).
//! 5. Each permit carries the breaker's epoch; an answer that arrives after the state
//!    changed (a call let through before the breaker opened) is not recorded.
//!
//! A call is *slow* if it took at least `slow_call_ms`; a slow-call rate at or above
//! `slow_rate` also opens the breaker.
//!
//! **The time-based window.** Like Resilience4j's, it aggregates outcomes in buckets of one
//! second: the bucket of second `s` holds the calls recorded at a virtual time in
//! `[s, s + 1)` s, counted from the start of the run (Resilience4j's buckets are epoch
//! seconds of the wall clock). A call is recorded when its answer arrives, so it lands in
//! the bucket of its completion. At time `t` in second `s` the window is the buckets of
//! seconds `s − window + 1` to `s`: a window of 10 s covers between 9 and 10 s of history,
//! and a whole second of outcomes falls out at once when `t` reaches the next whole second.
//! `min_calls` counts the calls in those buckets and may exceed `window` (Resilience4j:
//! `minimumNumberOfCalls` as given; for a count-based window it uses
//! `min(minimumNumberOfCalls, slidingWindowSize)`, which validation here enforces instead).
//! Only seconds that recorded a call hold a bucket, so memory grows with the busy seconds
//! in the window, never with `window` itself.

use super::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A breaker as configured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BreakerConfig {
    /// Calls in the sliding window, or seconds for a time-based one (≈ Resilience4j
    /// slidingWindowSize; source 003: 20 calls).
    pub window: u32,
    /// Whether `window` counts calls or whole seconds (≈ slidingWindowType); left out of
    /// files when it is the default, count-based.
    #[serde(default, skip_serializing_if = "WindowKind::is_count")]
    pub window_kind: WindowKind,
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

/// What the sliding window measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowKind {
    /// The last `window` recorded calls (Resilience4j `COUNT_BASED`).
    #[default]
    Count,
    /// The calls recorded in the last `window` whole seconds (Resilience4j `TIME_BASED`).
    Time,
}

impl WindowKind {
    /// Whether this is the default, count-based window.
    pub fn is_count(&self) -> bool {
        *self == WindowKind::Count
    }
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
            window_kind: WindowKind::Count,
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
    /// What a move to open or to closed was decided on (the window's tally when it opened,
    /// the probes' when they answered); none for a move to half-open, which the clock makes.
    pub decided: Option<Tally>,
}

const FAILED: u8 = 1;
const SLOW: u8 = 2;
const US_PER_S: u64 = 1_000_000;

/// Calls counted in a window, or over the probes of a half-open period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Calls recorded.
    pub calls: u32,
    /// Of which failed.
    pub failures: u32,
    /// Of which were slow.
    pub slows: u32,
}

/// The outcomes recorded in one second of a time-based window.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// The whole second of virtual time.
    sec: u64,
    tally: Tally,
}

/// One breaker's live state.
#[derive(Clone, Debug)]
pub struct Breaker {
    window: u32,
    kind: WindowKind,
    min_calls: u32,
    failure_bp: u64,
    slow_bp: u64,
    slow_us: Option<u64>,
    open_us: u64,
    half_open_calls: u32,
    timed: bool,
    state: State,
    epoch: u32,
    /// A count-based window: one entry per call, oldest first.
    ring: VecDeque<u8>,
    /// A time-based window: the seconds that recorded calls, oldest first.
    buckets: VecDeque<Bucket>,
    /// A time-based window's calls (a count-based one has `ring.len()`).
    calls: u32,
    failures: u32,
    slows: u32,
    opened_at: u64,
    /// What the last opening or closing was decided on: the window, or the probes.
    decided: Tally,
    probes_issued: u32,
    probes_done: u32,
    probe_failures: u32,
    probe_slows: u32,
}

fn basis_points(pct: f64) -> u64 {
    libm::round(pct.clamp(0.0, 100.0) * 100.0) as u64
}

/// Whether the failure rate and the slow-call rate of `t` reach their thresholds (in basis
/// points; `slow_on`: slow calls are judged at all): the one rule a breaker and a view of
/// its decisions share.
fn rates_exceeded(failure_bp: u64, slow_bp: u64, slow_on: bool, t: Tally) -> (bool, bool) {
    let n = u64::from(t.calls);
    (u64::from(t.failures) * 10_000 >= failure_bp * n, slow_on && u64::from(t.slows) * 10_000 >= slow_bp * n)
}

impl BreakerConfig {
    /// [`Breaker::exceeded`] for a breaker of these settings: which of its rates a tally
    /// reaches (why a move to open was made, for a view of it).
    pub fn exceeded(&self, t: Tally) -> (bool, bool) {
        let (f, s) = (basis_points(self.failure_rate_pct), basis_points(self.slow_rate_pct));
        rates_exceeded(f, s, self.slow_call_ms.is_some(), t)
    }
}

impl Breaker {
    /// A closed breaker.
    pub fn new(cfg: &BreakerConfig) -> Self {
        let count = cfg.window_kind == WindowKind::Count;
        Breaker {
            window: cfg.window.max(1),
            kind: cfg.window_kind,
            min_calls: cfg.min_calls.max(1),
            failure_bp: basis_points(cfg.failure_rate_pct),
            slow_bp: basis_points(cfg.slow_rate_pct),
            slow_us: cfg.slow_call_ms.map(crate::policy::retry::ms_to_us),
            open_us: crate::policy::retry::ms_to_us(cfg.open_ms),
            half_open_calls: cfg.half_open_calls.max(1),
            timed: cfg.timed_half_open,
            state: State::Closed,
            epoch: 0,
            ring: VecDeque::with_capacity(if count { cfg.window as usize } else { 0 }),
            buckets: VecDeque::new(),
            calls: 0,
            failures: 0,
            slows: 0,
            opened_at: 0,
            decided: Tally::default(),
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

    /// The closed-state window as it stands.
    fn window_tally(&self) -> Tally {
        let calls = match self.kind {
            WindowKind::Count => self.ring.len() as u32,
            WindowKind::Time => self.calls,
        };
        Tally { calls, failures: self.failures, slows: self.slows }
    }

    fn probe_tally(&self) -> Tally {
        Tally { calls: self.probes_done, failures: self.probe_failures, slows: self.probe_slows }
    }

    /// What the rates are judged on at `now`: in closed state the window (a time-based
    /// one first lets the seconds before `now`'s window fall out, as Resilience4j does when
    /// it takes a snapshot), in half-open the probes answered so far, and while open the
    /// window or probes whose rates opened it.
    pub fn tally(&mut self, now: u64) -> Tally {
        match self.state {
            State::Closed => {
                self.evict(now / US_PER_S);
                self.window_tally()
            }
            State::HalfOpen => self.probe_tally(),
            State::Open => self.decided,
        }
    }

    /// What the last move to open or to closed was decided on: the window's tally when it
    /// opened, or the probes' when they answered.
    pub fn decided(&self) -> Tally {
        self.decided
    }

    /// Whether the failure rate and the slow-call rate of `t` are at or above their
    /// thresholds (the minimum number of calls aside).
    pub fn exceeded(&self, t: Tally) -> (bool, bool) {
        rates_exceeded(self.failure_bp, self.slow_bp, self.slow_us.is_some(), t)
    }

    /// Whether a call that took `took_us` is slow.
    pub fn is_slow(&self, took_us: u64) -> bool {
        self.slow_us.is_some_and(|s| took_us >= s)
    }

    /// Whether an answer under `permit` would be recorded now (it was let through under
    /// the current state).
    pub fn is_current(&self, permit: Permit) -> bool {
        permit.epoch == self.epoch
    }

    /// Drops the buckets of a time-based window that are older than second `sec`'s window.
    fn evict(&mut self, sec: u64) {
        while let Some(b) = self.buckets.front().copied() {
            if b.sec.saturating_add(u64::from(self.window)) > sec {
                break;
            }
            self.buckets.pop_front();
            self.calls -= b.tally.calls;
            self.failures -= b.tally.failures;
            self.slows -= b.tally.slows;
        }
    }

    fn go(&mut self, now: u64, to: State) -> Transition {
        let decided = (to != State::HalfOpen)
            .then(|| if self.state == State::HalfOpen { self.probe_tally() } else { self.window_tally() });
        if let Some(d) = decided {
            self.decided = d;
        }
        let t = Transition { at_us: now, from: self.state, to, decided };
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
                self.buckets.clear();
                self.calls = 0;
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
        let slow = self.is_slow(took_us);
        match self.state {
            State::Closed => {
                let n = match self.kind {
                    WindowKind::Count => {
                        if self.ring.len() == self.window as usize {
                            let old = self.ring.pop_front().unwrap_or(0);
                            self.failures -= u32::from(old & FAILED != 0);
                            self.slows -= u32::from(old & SLOW != 0);
                        }
                        self.ring.push_back(if failed { FAILED } else { 0 } | if slow { SLOW } else { 0 });
                        self.ring.len() as u32
                    }
                    WindowKind::Time => {
                        let sec = now / US_PER_S;
                        self.evict(sec);
                        let one = Tally { calls: 1, failures: u32::from(failed), slows: u32::from(slow) };
                        match self.buckets.back_mut() {
                            Some(b) if b.sec == sec => {
                                b.tally.calls += 1;
                                b.tally.failures += one.failures;
                                b.tally.slows += one.slows;
                            }
                            _ => self.buckets.push_back(Bucket { sec, tally: one }),
                        }
                        self.calls += 1;
                        self.calls
                    }
                };
                self.failures += u32::from(failed);
                self.slows += u32::from(slow);
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
        let (f, s) = self.exceeded(Tally { calls: n, failures, slows });
        f || s
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

    fn timed_cfg(window: u32, min_calls: u32) -> BreakerConfig {
        BreakerConfig { window, window_kind: WindowKind::Time, min_calls, ..cfg() }
    }

    /// Records one answer at `at` (µs) from a call let through at that moment.
    fn record(b: &mut Breaker, at: u64, failed: bool) -> Option<State> {
        let p = b.try_acquire(at).0.expect("permitted");
        b.on_result(at, p, failed, 1).map(|t| t.to)
    }

    fn tally(calls: u32, failures: u32) -> Tally {
        Tally { calls, failures, slows: 0 }
    }

    #[test]
    fn a_time_window_drops_a_whole_second_when_the_next_one_begins() {
        // 10 s window: at t in second s it holds the seconds s − 9 … s.
        let mut b = Breaker::new(&timed_cfg(10, 3));
        assert_eq!(record(&mut b, 500_000, true), None, "1 call: below the minimum");
        assert_eq!(record(&mut b, 9_500_000, false), None);
        assert_eq!(record(&mut b, 9_900_000, false), None, "1 of 3 failed: 33 %");
        assert_eq!(b.tally(9_999_999), tally(3, 1), "second 0 is still inside at 9.999999 s");
        assert_eq!(b.tally(10_000_000), tally(2, 0), "at 10 s the failure of second 0 falls out");
        assert_eq!(record(&mut b, 10_200_000, true), None, "1 of 3: 33 %");
        assert_eq!(record(&mut b, 10_300_000, true), Some(State::Open), "2 of 4 = 50 %: opens at ≥");
        assert_eq!(b.tally(10_300_000), tally(4, 2), "open: the window that opened it");
        assert_eq!(b.tally(60_000_000), tally(4, 2), "frozen while open");
    }

    #[test]
    fn a_time_window_lands_each_answer_in_the_second_it_arrives() {
        // Answers at 1.0 s and 10.999999 s share a 10 s window; at 11 s the first is out.
        let mut b = Breaker::new(&timed_cfg(10, 20));
        record(&mut b, 1_000_000, true);
        record(&mut b, 10_999_999, false);
        assert_eq!(b.tally(10_999_999), tally(2, 1));
        assert_eq!(b.tally(11_000_000), tally(1, 0));
        // A gap longer than the window empties it.
        assert_eq!(b.tally(30_000_000), tally(0, 0));
    }

    #[test]
    fn a_time_window_needs_min_calls_inside_it_and_may_ask_more_than_its_seconds() {
        // A 2 s window with a minimum of 3 calls: one failure a second never opens it,
        // every call failing, because the window never holds 3 of them.
        let mut b = Breaker::new(&timed_cfg(2, 3));
        for s in 0..10u64 {
            assert_eq!(record(&mut b, s * 1_000_000 + 100_000, true), None, "second {s}");
        }
        assert_eq!(b.tally(9_500_000), tally(2, 2));
        // Three failures within one second do.
        assert_eq!(record(&mut b, 9_600_000, true), Some(State::Open), "3 calls in the window, all failed");
    }

    #[test]
    fn a_time_window_trips_at_or_above_the_threshold_and_closing_empties_it() {
        let mut b = Breaker::new(&BreakerConfig { half_open_calls: 1, ..timed_cfg(5, 20) });
        // 11 successes then 9 failures within second 1: 45 %, closed.
        for i in 0..20u64 {
            assert_eq!(record(&mut b, 1_000_000 + i, i >= 11), None, "call {i}");
        }
        assert_eq!(b.tally(1_000_020), tally(20, 9));
        assert_eq!(record(&mut b, 1_000_030, true), None, "10 of 21 = 47.6 %: closed");
        assert_eq!(record(&mut b, 1_000_040, true), Some(State::Open), "11 of 22 = 50 %: open");
        // Lazy: half-open on the first call at open_ms (1 s) after opening; the probe passes.
        assert_eq!(b.try_acquire(2_000_039).0, None, "1 µs before the wait is over");
        let p = b.try_acquire(2_000_040).0.expect("a probe exactly at the boundary (≥)");
        assert_eq!(b.tally(2_000_040), tally(0, 0), "half-open: no probe answered yet");
        assert_eq!(b.on_result(2_000_050, p, false, 1).map(|t| t.to), Some(State::Closed));
        assert_eq!(b.decided(), tally(1, 0), "closed by 1 probe of 1 passing");
        assert_eq!(b.tally(2_000_050), tally(0, 0), "closing empties the window");
        assert_eq!(record(&mut b, 2_000_060, true), None, "a fresh window: 1 call, below the minimum");
    }

    #[test]
    fn the_cause_of_an_opening_is_kept() {
        let mut b = Breaker::new(&BreakerConfig { half_open_calls: 2, ..cfg() });
        feed(&mut b, 0, &[[false; 10], [true; 10]].concat());
        let opened_by = b.tally(0);
        assert_eq!(opened_by, tally(20, 10));
        assert_eq!(b.exceeded(opened_by), (true, false), "by the failure rate");
        let p1 = b.try_acquire(1_000_000).0.unwrap();
        let p2 = b.try_acquire(1_000_000).0.unwrap();
        b.on_result(1_000_001, p1, true, 1);
        assert_eq!(b.tally(1_000_001), tally(1, 1), "half-open: the probes so far");
        assert!(!b.is_current(early_permit()), "a permit from another epoch is not current");
        assert!(b.is_current(p2));
        assert_eq!(b.on_result(1_000_002, p2, false, 1).map(|t| t.to), Some(State::Open));
        assert_eq!(b.tally(1_000_002), tally(2, 1), "re-opened by the probes: 1 of 2");
    }

    fn early_permit() -> Permit {
        Permit { epoch: u32::MAX }
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
