//! The breaker lab's model: one caller, one circuit breaker, one dependency whose behaviour
//! changes in phases. It drives [`Breaker`] — the breaker the chain engine uses — call by
//! call and keeps what the page replays: every call and its fate, the breaker's state and
//! window after each call, and each transition with its cause.
//!
//! Choices this model makes (the breaker's own are stated in `policy::breaker`):
//! - Calls arrive evenly spaced (call `k` at `k / rate`) or as a Poisson process drawn from
//!   the seed (`sim::rng`, stream `breaker-lab.arrivals`).
//! - A call takes the latency of the phase in force when it is sent, failed or not, and
//!   its answer is recorded when it arrives.
//! - Evenly spaced calls meet evenly spread failures, so every transition follows from the
//!   settings: the `j`-th call a phase receives fails iff `⌊(j+1)·p⌋ > ⌊j·p⌋` (at 50 %
//!   every second call, starting with the second). Poisson calls fail at random with
//!   probability `p` (stream `breaker-lab.failures`). Rejected calls never reach the
//!   dependency and do not advance `j`.
//! - At one instant: answers first, then a timed breaker's half-open timer, then the
//!   arrival (the chain engine's order).
//! - At most [`MAX_CALLS`] calls, so any accepted input runs in milliseconds.

use crate::error::{Allowed, FieldError, fmt_num};
use crate::policy::breaker::{Breaker, BreakerConfig, Permit, State, Tally, WindowKind};
use crate::policy::retry::ms_to_us;
use crate::scenario::ranges::{self as r, FieldRange};
use crate::sim::rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most calls a run may make: rate × total duration is bounded by it.
pub const MAX_CALLS: f64 = 20_000.0;
/// Most phases on the timeline.
pub const MAX_PHASES: usize = 8;

/// What the lab's own fields accept (the breaker's come from `scenario::ranges`).
pub mod limits {
    use crate::scenario::ranges::{FieldRange, Resolution};
    /// Calls per second.
    pub const RATE: FieldRange =
        FieldRange { min: 0.01, max: 1000.0, resolution: Resolution::Any, unit: "calls/s" };
    /// A phase's length (ms): up to an hour.
    pub const PHASE_MS: FieldRange =
        FieldRange { min: 100.0, max: 3_600_000.0, resolution: Resolution::Any, unit: "ms" };
    /// A call's latency (ms): up to a minute.
    pub const LATENCY_MS: FieldRange =
        FieldRange { min: 0.0, max: 60_000.0, resolution: Resolution::Any, unit: "ms" };
    /// A failure share (%).
    pub const FAILURE_PCT: FieldRange =
        FieldRange { min: 0.0, max: 100.0, resolution: Resolution::Any, unit: "%" };
}

/// One stretch of the dependency's behaviour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    /// How long it lasts (ms).
    pub duration_ms: f64,
    /// Share of the calls it receives that fail (%).
    pub failure_pct: f64,
    /// How long each call sent during it takes, failed or not (ms).
    pub latency_ms: f64,
}

/// How calls are spaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrivals {
    /// Call `k` at `k / rate`, with evenly spread failures.
    Even,
    /// Random, independent gaps of mean `1 / rate`, and random failures.
    Poisson,
}

/// Everything a run depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct LabInput {
    /// The breaker (its `instances` and `client_errors` do not apply: one caller, and
    /// every failure is a 5xx).
    pub breaker: BreakerConfig,
    /// The dependency's behaviour, in order from t = 0.
    pub phases: Vec<Phase>,
    /// Calls per second.
    pub rate_per_s: f64,
    /// Their spacing.
    pub arrivals: Arrivals,
    /// The seed of a Poisson run.
    pub seed: u64,
}

/// What became of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Refused at once: the breaker was open, or half-open with every probe out.
    Rejected,
    /// Let through while closed.
    Passed,
    /// Let through as a half-open probe.
    Probe,
}

/// One call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// When it was made (µs).
    pub at_us: u64,
    /// When its answer arrived (µs; `at_us` for a rejected call).
    pub done_us: u64,
    /// What the breaker did with it.
    pub fate: Fate,
    /// The dependency failed it.
    pub failed: bool,
    /// It took at least the slow-call threshold.
    pub slow: bool,
    /// Its answer was recorded (false: rejected, or it answered after the state changed).
    pub recorded: bool,
}

/// Why the breaker moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The window's rates (closed → open) or the probes' (half-open → open or closed),
    /// and which rate was at or above its threshold.
    Rates { tally: Tally, failure: bool, slow: bool },
    /// The open time was over: at a call (lazy) or on the timer (timed).
    Waited { timed: bool },
}

/// A transition with its cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// When (µs).
    pub at_us: u64,
    pub from: State,
    pub to: State,
    pub cause: Cause,
}

/// The breaker as a call finds it, after deciding on the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The call's time (µs), or the end of the run for the last frame.
    pub at_us: u64,
    pub state: State,
    /// What the rates are judged on (`Breaker::tally`).
    pub tally: Tally,
    /// Answers recorded so far: the window is the last `tally.calls` of them.
    pub records: u32,
    /// Transitions so far.
    pub changes: u32,
    /// Calls let through while closed, rejected, and probes, so far.
    pub passed: u32,
    pub rejected: u32,
    pub probes: u32,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct LabRun {
    /// Every call, in order.
    pub calls: Vec<Call>,
    /// The call of each recorded answer, in the order recorded.
    pub records: Vec<u32>,
    /// Every transition.
    pub changes: Vec<Change>,
    /// `frames[k]` as call `k` is decided; one more at the end, once every answer is in.
    pub frames: Vec<Frame>,
    /// The end: the last phase's end or the last answer, whichever is later (µs).
    pub end_us: u64,
}

impl LabRun {
    /// The frame at playhead `k` (0 ..= calls), clamped.
    pub fn frame(&self, k: usize) -> Frame {
        self.frames[k.min(self.frames.len() - 1)]
    }
}

/// The phases' total length (ms).
pub fn total_ms(phases: &[Phase]) -> f64 {
    phases.iter().map(|p| p.duration_ms).sum()
}

/// Checks what the fields' own ranges cannot: the number of phases, a count window's
/// minimum, and the number of calls.
pub fn check(input: &LabInput) -> Result<(), FieldError> {
    let b = &input.breaker;
    let n = input.phases.len();
    if !(1..=MAX_PHASES).contains(&n) {
        let allowed = Allowed::Length { min_len: 1, max_len: MAX_PHASES };
        return Err(FieldError::new("phases", n, allowed));
    }
    let fields: [(&str, f64, FieldRange); 6] = [
        ("rate", input.rate_per_s, limits::RATE),
        ("window", f64::from(b.window), r::BREAKER_WINDOW),
        ("min_calls", f64::from(b.min_calls), min_calls_range(b)),
        ("failure_pct", b.failure_rate_pct, r::PERCENT),
        ("slow_pct", b.slow_rate_pct, r::PERCENT),
        ("probes", f64::from(b.half_open_calls), r::HALF_OPEN_CALLS),
    ];
    for (field, v, range) in fields {
        if !range.accepts(v) {
            return Err(range.error(field, fmt_num(v)));
        }
    }
    if !r::OPEN_MS.accepts(b.open_ms) {
        return Err(r::OPEN_MS.error("open_ms", fmt_num(b.open_ms)));
    }
    if let Some(s) = b.slow_call_ms.filter(|s| !r::SLOW_CALL_MS.accepts(*s)) {
        return Err(r::SLOW_CALL_MS.error("slow_ms", fmt_num(s)));
    }
    for (i, p) in input.phases.iter().enumerate() {
        for (key, v, range) in [
            ("phase_ms", p.duration_ms, limits::PHASE_MS),
            ("phase_fail", p.failure_pct, limits::FAILURE_PCT),
            ("phase_latency", p.latency_ms, limits::LATENCY_MS),
        ] {
            if !range.accepts(v) {
                return Err(range.error(&crate::error::item_field(key, i), fmt_num(v)));
            }
        }
    }
    let most = max_rate(total_ms(&input.phases));
    if input.rate_per_s > most {
        return Err(limits::RATE.to(most).error("rate", fmt_num(input.rate_per_s)));
    }
    Ok(())
}

/// What `min_calls` accepts: a count window never holds more than `window` calls.
pub fn min_calls_range(b: &BreakerConfig) -> FieldRange {
    match b.window_kind {
        WindowKind::Count => r::BREAKER_MIN_CALLS.to(f64::from(b.window.max(1))),
        WindowKind::Time => r::BREAKER_MIN_CALLS,
    }
}

/// The highest rate that keeps a timeline of `total_ms` within [`MAX_CALLS`] (rounded
/// down to a hundredth, so the bound reads well in a message).
pub fn max_rate(total_ms: f64) -> f64 {
    let exact = MAX_CALLS * 1000.0 / total_ms.max(1.0);
    ((exact * 100.0).floor() / 100.0).min(limits::RATE.max)
}

/// The call times (µs) of a timeline of `total_us`.
fn arrivals(input: &LabInput, total_us: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let cap = MAX_CALLS as usize;
    match input.arrivals {
        Arrivals::Even => {
            for k in 0..cap {
                let t = libm::round(k as f64 * 1e6 / input.rate_per_s) as u64;
                if t >= total_us {
                    break;
                }
                out.push(t);
            }
        }
        Arrivals::Poisson => {
            let mut s = rng::fork(input.seed, "breaker-lab.arrivals");
            let mean_us = 1e6 / input.rate_per_s;
            let mut t = 0.0;
            while out.len() < cap {
                t += rng::exponential(mean_us, s.uniform());
                let at = libm::round(t) as u64;
                if at >= total_us {
                    break;
                }
                out.push(at);
            }
        }
    }
    out
}

/// Runs the lab. Input that [`check`] refuses gives its error; anything else finishes in
/// at most [`MAX_CALLS`] arrivals and as many answers.
pub fn run(input: &LabInput) -> Result<LabRun, FieldError> {
    check(input)?;
    let cfg = BreakerConfig { instances: 1, ..input.breaker };
    let b = Breaker::new(&cfg);
    let ends: Vec<u64> = input
        .phases
        .iter()
        .scan(0u64, |end, p| {
            *end += ms_to_us(p.duration_ms);
            Some(*end)
        })
        .collect();
    let total_us = *ends.last().unwrap_or(&0);
    let times = arrivals(input, total_us);
    let mut fail_stream = rng::fork(input.seed, "breaker-lab.failures");
    let mut received = vec![0u64; input.phases.len()];
    let mut sim = Sim {
        b,
        calls: Vec::with_capacity(times.len()),
        permits: Vec::with_capacity(times.len()),
        pending: BinaryHeap::new(),
        records: Vec::new(),
        changes: Vec::new(),
        frames: Vec::with_capacity(times.len() + 1),
        counts: [0; 3],
    };
    for &at in &times {
        sim.until(at);
        let (permit, moved) = sim.b.try_acquire(at);
        if let Some(t) = moved {
            sim.change(t.at_us, t.from, t.to, Cause::Waited { timed: false });
        }
        let phase = ends.iter().position(|&e| at < e).unwrap_or(ends.len() - 1);
        let p = input.phases[phase];
        let (fate, failed, done_us) = match permit {
            None => (Fate::Rejected, false, at),
            Some(_) => {
                let j = received[phase];
                received[phase] += 1;
                let failed = match input.arrivals {
                    Arrivals::Even => {
                        let bp = libm::round(p.failure_pct * 100.0) as u64;
                        (j + 1) * bp / 10_000 > j * bp / 10_000
                    }
                    Arrivals::Poisson => fail_stream.uniform() * 100.0 < p.failure_pct,
                };
                let fate = if sim.b.state() == State::HalfOpen { Fate::Probe } else { Fate::Passed };
                (fate, failed, at + ms_to_us(p.latency_ms))
            }
        };
        let slow = permit.is_some() && sim.b.is_slow(done_us - at);
        let idx = sim.calls.len() as u32;
        sim.calls.push(Call { at_us: at, done_us, fate, failed, slow, recorded: false });
        sim.permits.push(permit);
        if permit.is_some() {
            sim.pending.push(Reverse((done_us, idx)));
        }
        sim.counts[fate as usize] += 1;
        sim.frame(at);
    }
    let last_answer = sim.calls.iter().map(|c| c.done_us).max().unwrap_or(0);
    let end_us = total_us.max(last_answer);
    sim.until(end_us);
    sim.frame(end_us);
    Ok(LabRun { calls: sim.calls, records: sim.records, changes: sim.changes, frames: sim.frames, end_us })
}

/// The run as it goes.
struct Sim {
    b: Breaker,
    calls: Vec<Call>,
    permits: Vec<Option<Permit>>,
    /// Answers on their way: (arrival time, call).
    pending: BinaryHeap<Reverse<(u64, u32)>>,
    records: Vec<u32>,
    changes: Vec<Change>,
    frames: Vec<Frame>,
    /// Rejected, passed, probes (by `Fate`).
    counts: [u32; 3],
}

impl Sim {
    /// Handles every answer and timer up to and including `t`: answers first at an instant.
    fn until(&mut self, t: u64) {
        loop {
            let answer = self.pending.peek().map(|Reverse((at, _))| *at).filter(|at| *at <= t);
            let timer = self.b.half_open_at().filter(|at| *at <= t);
            match (answer, timer) {
                (Some(a), timer) if timer.is_none_or(|h| a <= h) => {
                    let Some(Reverse((at, i))) = self.pending.pop() else { return };
                    self.answer(at, i as usize);
                }
                (_, Some(h)) => {
                    if let Some(tr) = self.b.on_timer(h) {
                        self.change(h, tr.from, tr.to, Cause::Waited { timed: true });
                    }
                }
                _ => return,
            }
        }
    }

    fn answer(&mut self, at: u64, i: usize) {
        let Some(permit) = self.permits[i] else { return };
        let c = self.calls[i];
        if self.b.is_current(permit) {
            self.calls[i].recorded = true;
            self.records.push(i as u32);
        }
        if let Some(tr) = self.b.on_result(at, permit, c.failed, at - c.at_us) {
            let tally = self.b.decided();
            let (failure, slow) = self.b.exceeded(tally);
            self.change(at, tr.from, tr.to, Cause::Rates { tally, failure, slow });
        }
    }

    fn change(&mut self, at_us: u64, from: State, to: State, cause: Cause) {
        self.changes.push(Change { at_us, from, to, cause });
    }

    fn frame(&mut self, at_us: u64) {
        let [rejected, passed, probes] = self.counts;
        self.frames.push(Frame {
            at_us,
            state: self.b.state(),
            tally: self.b.tally(at_us),
            records: self.records.len() as u32,
            changes: self.changes.len() as u32,
            passed,
            rejected,
            probes,
        });
    }
}

/// The lab's presets, by link name.
pub const PRESETS: [&str; 5] = ["source-003", "source-001", "source-002", "flapping", "slow"];

/// A preset's input.
pub fn preset(name: &str) -> Option<LabInput> {
    let phase = |s: f64, failure_pct: f64, latency_ms: f64| Phase {
        duration_ms: s * 1000.0,
        failure_pct,
        latency_ms,
    };
    let count = |window: u32, open_ms: f64, half_open_calls: u32| BreakerConfig {
        window,
        min_calls: window,
        open_ms,
        half_open_calls,
        ..BreakerConfig::default()
    };
    let (breaker, phases, rate_per_s) = match name {
        // Source 003: a window of 20 calls, ≥ 50 %; the dependency is down for 10 s.
        "source-003" => (
            count(20, 5000.0, 3),
            vec![phase(5.0, 0.0, 50.0), phase(10.0, 100.0, 50.0), phase(15.0, 0.0, 50.0)],
            10.0,
        ),
        // Source 001: ≥ 50 % "within a short period" (a 10 s time window), 30 s open.
        "source-001" => (
            BreakerConfig { window: 10, window_kind: WindowKind::Time, ..count(20, 30_000.0, 3) },
            vec![phase(10.0, 0.0, 20.0), phase(40.0, 60.0, 20.0), phase(40.0, 0.0, 20.0)],
            20.0,
        ),
        // Source 002's opossum settings: errorThresholdPercentage 50, resetTimeout 30 s (a
        // timer), rollingCountTimeout 10 s, volumeThreshold 0, one trial call.
        "source-002" => (
            BreakerConfig {
                window: 10,
                window_kind: WindowKind::Time,
                min_calls: 1,
                open_ms: 30_000.0,
                half_open_calls: 1,
                timed_half_open: true,
                ..BreakerConfig::default()
            },
            vec![phase(10.0, 0.0, 50.0), phase(40.0, 100.0, 50.0), phase(30.0, 0.0, 50.0)],
            10.0,
        ),
        // A dependency that comes and goes: half-open probes meet it down, then up, then
        // down again.
        "flapping" => (
            count(10, 2000.0, 3),
            vec![
                phase(2.0, 0.0, 50.0),
                phase(4.0, 100.0, 50.0),
                phase(1.0, 0.0, 50.0),
                phase(3.0, 100.0, 50.0),
                phase(6.0, 0.0, 50.0),
            ],
            10.0,
        ),
        // Slow, not failing: the slow-call rate opens it (source 003's slow recommendations).
        "slow" => (
            BreakerConfig { slow_call_ms: Some(1000.0), slow_rate_pct: 50.0, ..count(20, 5000.0, 3) },
            vec![phase(5.0, 0.0, 50.0), phase(10.0, 0.0, 1500.0), phase(10.0, 0.0, 50.0)],
            10.0,
        ),
        _ => return None,
    };
    Some(LabInput { breaker, phases, rate_per_s, arrivals: Arrivals::Even, seed: 1 })
}
