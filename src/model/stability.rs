//! Did a run recover from its trigger? The stability map's rule, applied to one run's
//! series: the share of offered requests answered in full ("goodput", successes ÷
//! arrivals over a window) before the trigger, and in a recovery window at the end of the
//! arrivals, long after the trigger has ended.
//!
//! - **Overloaded**: the load alone is too much, so there is nothing to recover to: it is
//!   offered at or above the bottleneck's capacity (no steady state exists there, trigger or
//!   none; a queue at ρ = 1 grows too slowly to show it before a trigger a few seconds in,
//!   and a verdict on goodput alone called such a cell stuck and blamed the trigger), or
//!   goodput was already below [`GOOD`] before the trigger.
//! - **Recovered**: goodput is back at [`GOOD`] or above in the recovery window; how fast
//!   is the time from the trigger's end to the start of the first one-second window after
//!   which no one-second window falls below [`GOOD`] again.
//! - **Draining**: not serving yet in the recovery window, but its backlog (the calls
//!   waiting for a worker, at every hop) is falling across it by [`DRAINING_FALL`] or more:
//!   the queue left by the trigger is still being worked off, and the run ended before it
//!   was. Nothing sustains the bad state; a longer run would see it recover.
//! - **Stuck**: fine before the trigger, not after it, although the trigger is over, and its
//!   backlog not falling: the metastable state (Bronson et al., HotOS 2021), something
//!   (retries, abandoned work) keeping it there.
//!
//! Windows are whole buckets of the report's series (successes are counted when they are
//! answered, arrivals when they arrive); the series' bucket should divide a second. A
//! request answered in the window after the one it arrived in moves a success across the
//! edge, so a window must hold enough arrivals for a few such requests not to count as a
//! failure to serve: "how fast" is judged on windows of whole seconds holding at least
//! [`MIN_ARRIVALS`] arrivals on average (at 25 requests/s, 4 s: a 1-s window of 27 arrivals
//! with 3 answered just after it read 89 % with no request failed).

use crate::report::Series;

/// The share of offered requests that must be answered in full to count as serving (0–1).
pub const GOOD: f64 = 0.9;
/// The start of the window before the trigger (ms): the first second is warm-up.
pub const WARMUP_MS: f64 = 1000.0;
/// The recovery window's share of the arrivals' duration, at its end (0–1).
pub const RECOVERY_SHARE: f64 = 0.25;
/// The length of the windows "how fast" is judged on (ms), at loads where they hold
/// [`MIN_ARRIVALS`].
pub const STEP_MS: f64 = 1000.0;
/// The fewest arrivals, on average before the trigger, a window "how fast" is judged on
/// holds: below it the window grows by whole seconds.
pub const MIN_ARRIVALS: f64 = 100.0;

/// What the rule needs to know of a run besides its series: when the trigger and the
/// arrivals start and end (ms of virtual time), and how heavily it is loaded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Windows {
    pub trigger_start_ms: f64,
    pub trigger_end_ms: f64,
    pub arrivals_end_ms: f64,
    /// The offered load ÷ the bottleneck's capacity (fraction), where the scenario has a
    /// bottleneck; `None`: judged on goodput alone.
    pub offered_load: Option<f64>,
}

/// The shortest recovery window a verdict is given on (ms), and the least time from the
/// trigger's end to its start: a shorter window holds too little to judge (an empty one read
/// as full goodput, "absorbed at once" for a trigger past the arrivals' end), and one right
/// after the trigger judges the backlog at its peak.
pub const MIN_JUDGED_MS: f64 = 2000.0;

/// How much the backlog must fall across the recovery window, as a share of its level at
/// the window's start, for a run not yet serving to count as draining rather than stuck.
pub const DRAINING_FALL: f64 = 0.1;

/// What a run needs to be judged (ms), as [`Windows::judged`] tells a refused one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgedBounds {
    /// The trigger starts no earlier.
    pub earliest_start: f64,
    /// The trigger ends no later.
    pub latest_end: f64,
    /// The arrivals last at least this long.
    pub shortest_arrivals: f64,
}

/// The offered load at and above which a run is overloaded whatever its goodput (a hair
/// under 1, so that a sweep's 100 % column, computed in floating point, is at it).
pub const CAPACITY: f64 = 1.0 - 1e-9;

impl Windows {
    /// Whether there is time to judge the run: [`WARMUP_MS`] and one [`STEP_MS`] window
    /// before the trigger; after it, [`MIN_JUDGED_MS`] to settle, then a recovery window of at
    /// least [`MIN_JUDGED_MS`].
    pub fn judged(&self) -> Result<(), JudgedBounds> {
        let bounds = JudgedBounds {
            earliest_start: WARMUP_MS + STEP_MS,
            // The recovery window starts at 75 % of the arrivals at the earliest (see
            // `recovery`): the trigger must end a settling time before that.
            latest_end: self.arrivals_end_ms * (1.0 - RECOVERY_SHARE) - MIN_JUDGED_MS,
            shortest_arrivals: MIN_JUDGED_MS / RECOVERY_SHARE,
        };
        let (from, to) = self.recovery();
        let ok = self.trigger_start_ms >= bounds.earliest_start
            && from >= self.trigger_end_ms + MIN_JUDGED_MS
            && to - from >= MIN_JUDGED_MS;
        if ok { Ok(()) } else { Err(bounds) }
    }

    /// The recovery window: the last quarter of the arrivals, and never before the trigger
    /// has ended (ms, start and end).
    pub fn recovery(&self) -> (f64, f64) {
        let start = (self.arrivals_end_ms * (1.0 - RECOVERY_SHARE)).max(self.trigger_end_ms);
        (start.min(self.arrivals_end_ms), self.arrivals_end_ms)
    }
}

/// How a run came out of its trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Recovered,
    /// Not serving yet, its backlog falling: it would recover in a longer run.
    Draining,
    Stuck,
    Overloaded,
}

impl Outcome {
    /// The name in CSV, links and `data-outcome`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Recovered => "recovered",
            Outcome::Draining => "draining",
            Outcome::Stuck => "stuck",
            Outcome::Overloaded => "overloaded",
        }
    }

    /// Reads [`Outcome::as_str`].
    pub fn parse(s: &str) -> Option<Outcome> {
        [Outcome::Recovered, Outcome::Draining, Outcome::Stuck, Outcome::Overloaded]
            .into_iter()
            .find(|o| o.as_str() == s)
    }
}

/// One run's verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// Recovered: ms from the trigger's end until goodput stayed at [`GOOD`].
    pub recovered_after_ms: Option<f64>,
    /// Goodput before the trigger: successes ÷ arrivals (a ratio, above 1 when a backlog
    /// is answered in the window).
    pub before: f64,
    /// Goodput in the recovery window, the same ratio.
    pub after: f64,
}

/// Successes ÷ arrivals over the buckets covering [from, to) ms (1 when nothing arrived).
pub fn goodput(s: &Series, from_ms: f64, to_ms: f64) -> f64 {
    let (a, b) = bucket_range(s, from_ms, to_ms);
    let offered = offered(s, a, b);
    let ok: u64 = s.succeeded.get(a..b).map_or(0, |x| x.iter().sum());
    if offered == 0 { 1.0 } else { ok as f64 / offered as f64 }
}

/// The backlog over the buckets covering [from, to) ms: calls waiting for a worker, summed
/// over the hops, averaged over the buckets (each bucket's peak, as the series keeps it).
pub fn backlog(s: &Series, from_ms: f64, to_ms: f64) -> f64 {
    let (a, b) = bucket_range(s, from_ms, to_ms);
    if b <= a {
        return 0.0;
    }
    let sum: i64 = s.queue.iter().map(|q| q.get(a..b).map_or(0, |x| x.iter().sum::<i64>())).sum();
    sum as f64 / (b - a) as f64
}

fn offered(s: &Series, a: usize, b: usize) -> u64 {
    s.offered.get(a..b).map_or(0, |x| x.iter().sum())
}

/// The windows "how fast" is judged on (ms): [`STEP_MS`], or whole seconds enough to hold
/// [`MIN_ARRIVALS`] at the arrival rate of [from, to) (the time before the trigger).
pub fn step_ms(s: &Series, from_ms: f64, to_ms: f64) -> f64 {
    let (a, b) = bucket_range(s, from_ms, to_ms);
    let span = (b - a) as f64 * s.bucket_ms;
    let per_step = if span > 0.0 { offered(s, a, b) as f64 * STEP_MS / span } else { 0.0 };
    if per_step >= MIN_ARRIVALS || per_step <= 0.0 {
        STEP_MS
    } else {
        STEP_MS * (MIN_ARRIVALS / per_step).ceil()
    }
}

fn bucket_range(s: &Series, from_ms: f64, to_ms: f64) -> (usize, usize) {
    if s.bucket_ms <= 0.0 {
        return (0, 0);
    }
    let n = s.offered.len().min(s.succeeded.len());
    let a = ((from_ms / s.bucket_ms).round().max(0.0) as usize).min(n);
    let b = ((to_ms / s.bucket_ms).round().max(0.0) as usize).min(n);
    (a, b.max(a))
}

/// The verdict on a run with these windows.
pub fn classify(s: &Series, w: Windows) -> Verdict {
    let warm = WARMUP_MS.min(w.trigger_start_ms);
    let before = goodput(s, warm, w.trigger_start_ms);
    let (from, to) = w.recovery();
    let after = goodput(s, from, to);
    if before < GOOD || w.offered_load.is_some_and(|u| u >= CAPACITY) {
        return Verdict { outcome: Outcome::Overloaded, recovered_after_ms: None, before, after };
    }
    if after < GOOD {
        // Stuck, or still working off the trigger's queue: the backlog over the window's first
        // second against its last (the window starts a settling time after the trigger, so
        // the first is past the backlog's rise; see `Windows::judged`). Halves of a window
        // shorter than two seconds, each at least a bucket, never the same one.
        let edge = STEP_MS.min((to - from) / 2.0).max(s.bucket_ms);
        let (first, last) = (backlog(s, from, from + edge), backlog(s, (to - edge).max(from + edge), to));
        let draining = first > 0.0 && last <= first * (1.0 - DRAINING_FALL);
        let outcome = if draining { Outcome::Draining } else { Outcome::Stuck };
        return Verdict { outcome, recovered_after_ms: None, before, after };
    }
    // The last window after the trigger that is still below GOOD.
    let step = step_ms(s, warm, w.trigger_start_ms);
    let mut recovered = 0.0;
    let mut t = w.trigger_end_ms;
    while t + step <= w.arrivals_end_ms + 1e-9 {
        if goodput(s, t, t + step) < GOOD {
            recovered = t + step - w.trigger_end_ms;
        }
        t += step;
    }
    Verdict { outcome: Outcome::Recovered, recovered_after_ms: Some(recovered), before, after }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series of 1-s buckets: 100 arrivals each, `ok[i]` answered.
    fn series(ok: &[u64]) -> Series {
        Series {
            bucket_ms: 1000.0,
            buckets: ok.len(),
            offered: vec![100; ok.len()],
            succeeded: ok.to_vec(),
            ..Series::default()
        }
    }

    const W: Windows = Windows {
        trigger_start_ms: 4000.0,
        trigger_end_ms: 5000.0,
        arrivals_end_ms: 20000.0,
        offered_load: None,
    };

    #[test]
    fn a_blip_absorbed_at_once_recovers_in_zero() {
        let mut ok = vec![100; 20];
        ok[4] = 30;
        let v = classify(&series(&ok), W);
        assert_eq!((v.outcome, v.recovered_after_ms), (Outcome::Recovered, Some(0.0)));
    }

    #[test]
    fn recovery_time_is_when_goodput_stays_up() {
        let mut ok = vec![100; 20];
        for x in ok.iter_mut().take(9).skip(4) {
            *x = 10;
        }
        ok[10] = 50; // a relapse: the recovery counts from after it
        let v = classify(&series(&ok), W);
        assert_eq!((v.outcome, v.recovered_after_ms), (Outcome::Recovered, Some(6000.0)));
    }

    #[test]
    fn answers_that_cross_a_window_edge_are_not_a_failure_to_serve() {
        // 25 arrivals a second, each second's last few answered in the next: no request
        // fails, and the verdict is recovered at once, not after the odd short second.
        let mut s = series(&[25; 20]);
        s.offered = vec![25; 20];
        s.succeeded = (0..20).map(|i| if i % 2 == 0 { 22 } else { 28 }).collect();
        assert_eq!(step_ms(&s, 1000.0, 4000.0), 4000.0, "4 s hold 100 arrivals");
        let v = classify(&s, W);
        assert_eq!((v.outcome, v.recovered_after_ms), (Outcome::Recovered, Some(0.0)));
        // A real shortfall at that load still counts: 4 s at 10 of 25 after the trigger.
        for x in s.succeeded.iter_mut().skip(5).take(4) {
            *x = 10;
        }
        let v = classify(&s, W);
        assert_eq!((v.outcome, v.recovered_after_ms), (Outcome::Recovered, Some(4000.0)));
        assert_eq!(step_ms(&series(&[100; 20]), 1000.0, 4000.0), STEP_MS);
    }

    #[test]
    fn goodput_that_never_returns_is_stuck() {
        let mut ok = vec![100; 20];
        for x in ok.iter_mut().skip(4) {
            *x = 20;
        }
        let v = classify(&series(&ok), W);
        assert_eq!(v.outcome, Outcome::Stuck);
        assert!((v.after - 0.2).abs() < 1e-12 && v.before == 1.0);
    }

    #[test]
    fn a_run_is_judged_only_with_time_before_and_after_its_trigger() {
        assert_eq!(W.judged(), Ok(()));
        let b = Windows { trigger_end_ms: 13_500.0, ..W }.judged().expect_err("settles into the window");
        assert_eq!((b.earliest_start, b.latest_end, b.shortest_arrivals), (2000.0, 13_000.0, 8000.0));
        assert!(Windows { trigger_end_ms: 13_000.0, ..W }.judged().is_ok(), "exactly at the bound");
        assert!(Windows { trigger_start_ms: 1500.0, ..W }.judged().is_err(), "a second to compare with");
        // 6 s of arrivals: a 1.5-s recovery window, however early the trigger.
        let short =
            Windows { trigger_start_ms: 2000.0, trigger_end_ms: 2000.0, arrivals_end_ms: 6000.0, ..W };
        assert!(short.judged().is_err());
    }

    #[test]
    fn a_falling_backlog_is_draining_and_a_steady_or_growing_one_stuck() {
        let mut ok = vec![100; 20];
        for x in ok.iter_mut().skip(4) {
            *x = 20;
        }
        // The recovery window is 15–20 s: a queue falling from 300 to 100 across it.
        let mut s = series(&ok);
        s.queue = vec![(0..20).map(|i| if i < 15 { 300 } else { 300 - (i - 15) * 50 }).collect()];
        assert_eq!(classify(&s, W).outcome, Outcome::Draining, "{:?}", s.queue);
        // Summed over the hops: one falling, another growing as much.
        s.queue.push((0..20).map(|i| if i < 15 { 0 } else { (i - 15) * 50 }).collect());
        assert_eq!(classify(&s, W).outcome, Outcome::Stuck, "the backlog as a whole is flat");
        // A fall under the threshold is not enough; no queue at all is stuck.
        s.queue = vec![(0..20).map(|i| if i < 15 { 300 } else { 300 - (i - 15) * 5 }).collect()];
        assert_eq!(classify(&s, W).outcome, Outcome::Stuck, "300 → 280 is 7 %");
        // A backlog that is still growing is stuck, whatever it did before.
        s.queue = vec![(0..20).map(|i| i * 20).collect()];
        assert_eq!(classify(&s, W).outcome, Outcome::Stuck);
        s.queue = vec![vec![0; 20]];
        assert_eq!(classify(&s, W).outcome, Outcome::Stuck);
        assert_eq!(Outcome::parse("draining"), Some(Outcome::Draining));
    }

    #[test]
    fn a_load_too_high_before_the_trigger_is_overloaded() {
        let v = classify(&series(&[60; 20]), W);
        assert_eq!(v.outcome, Outcome::Overloaded);
    }

    #[test]
    fn a_load_at_capacity_is_overloaded_whatever_its_goodput() {
        // Goodput that never returns at full load is not a metastable failure: there is no
        // steady state to return to, trigger or none.
        let mut ok = vec![100; 20];
        for x in ok.iter_mut().skip(4) {
            *x = 20;
        }
        let at = |u: f64| classify(&series(&ok), Windows { offered_load: Some(u), ..W }).outcome;
        assert_eq!(at(1.0 - 1e-12), Outcome::Overloaded, "a sweep's 100 % in floating point");
        assert_eq!(at(1.2), Outcome::Overloaded);
        assert_eq!(at(0.95), Outcome::Stuck, "below capacity the trigger is to blame");
        assert_eq!(
            classify(&series(&[100; 20]), Windows { offered_load: Some(1.0), ..W }).outcome,
            Outcome::Overloaded
        );
    }

    #[test]
    fn the_recovery_window_never_starts_before_the_trigger_ends() {
        let w = Windows { trigger_end_ms: 18000.0, ..W };
        assert_eq!(w.recovery(), (18000.0, 20000.0));
        assert_eq!(W.recovery(), (15000.0, 20000.0));
        for o in [Outcome::Recovered, Outcome::Stuck, Outcome::Overloaded] {
            assert_eq!(Outcome::parse(o.as_str()), Some(o));
        }
    }
}
